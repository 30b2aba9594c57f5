// multi_gpu_app.cu: a two-GPU pipeline with peer copies, for `streamscope record` on a machine of two or more GPUs
// (tests/gpu/multi_gpu.sh). Each of CHUNKS chunks of N floats: copied to GPU d = (chunk / 2) % 2 on one of its two
// streams, scaled there (x * 2 + 1), moved to the other GPU with cudaMemcpyPeerAsync, scaled again there (an event
// orders that kernel after the copy), and copied back from there. Checked on the host; then two probes print what
// calibrates the model's multi.* keys: the peer link's bandwidth (64 MiB cudaMemcpyPeerAsync, median of 5, events)
// and the host link's (one GPU's 256 MiB pinned H2D alone, then both GPUs' at once).
// Output: "MULTI_GPU_APP verified=1 peer_access=1 peer_gbs=... h2d_alone_gbs=... h2d_both_gbs=..." (both: the
// two GPUs' bytes over the common time).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                                                                       \
	do {                                                                                                           \
		cudaError_t e_ = (x);                                                                                  \
		if (e_ != cudaSuccess) {                                                                               \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));            \
			exit(1);                                                                                       \
		}                                                                                                      \
	} while (0)

#define CHUNKS 16
#define N (1 << 22)

__global__ void scale(float *x, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		x[i] = x[i] * 2.0f + 1.0f;
}

static int cmp(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	int count = 0, access01 = 0, access10 = 0;
	float *host, *dev[2][2], *recv[2][2];
	cudaStream_t st[2][2];
	cudaEvent_t moved[CHUNKS];
	size_t bytes = (size_t)N * sizeof(float);
	int ok = 1;

	CHECK(cudaGetDeviceCount(&count));
	if (count < 2) {
		fprintf(stderr, "multi_gpu_app: %d CUDA device(s); it needs 2\n", count);
		return 2;
	}
	CHECK(cudaDeviceCanAccessPeer(&access01, 0, 1));
	CHECK(cudaDeviceCanAccessPeer(&access10, 1, 0));
	CHECK(cudaMallocHost((void **)&host, bytes * CHUNKS));
	for (size_t i = 0; i < (size_t)N * CHUNKS; i++)
		host[i] = (float)(i % 1000);
	for (int d = 0; d < 2; d++) {
		CHECK(cudaSetDevice(d));
		if ((d == 0 && access01) || (d == 1 && access10))
			CHECK(cudaDeviceEnablePeerAccess(1 - d, 0));
		for (int s = 0; s < 2; s++) {
			CHECK(cudaStreamCreateWithFlags(&st[d][s], cudaStreamNonBlocking));
			CHECK(cudaMalloc((void **)&dev[d][s], bytes));
			CHECK(cudaMalloc((void **)&recv[d][s], bytes));
		}
	}
	for (int c = 0; c < CHUNKS; c++) {
		int d = (c / 2) % 2, s = c % 2, o = 1 - d;
		float *h = host + (size_t)c * N;

		CHECK(cudaSetDevice(d));
		CHECK(cudaEventCreateWithFlags(&moved[c], cudaEventDisableTiming));
		CHECK(cudaMemcpyAsync(dev[d][s], h, bytes, cudaMemcpyHostToDevice, st[d][s]));
		scale<<<264, 256, 0, st[d][s]>>>(dev[d][s], N);
		CHECK(cudaMemcpyPeerAsync(recv[o][s], o, dev[d][s], d, bytes, st[d][s]));
		CHECK(cudaEventRecord(moved[c], st[d][s]));
		CHECK(cudaSetDevice(o));
		CHECK(cudaStreamWaitEvent(st[o][s], moved[c], 0));
		scale<<<264, 256, 0, st[o][s]>>>(recv[o][s], N);
		CHECK(cudaMemcpyAsync(h, recv[o][s], bytes, cudaMemcpyDeviceToHost, st[o][s]));
	}
	for (int d = 0; d < 2; d++) {
		CHECK(cudaSetDevice(d));
		CHECK(cudaDeviceSynchronize());
	}
	for (size_t i = 0; i < (size_t)N * CHUNKS && ok; i++)
		ok = host[i] == ((float)(i % 1000) * 2.0f + 1.0f) * 2.0f + 1.0f;
	/* the peer link: 64 MiB device 0 -> 1, five times */
	{
		float t[5], ms;
		float *a, *b;
		size_t pb = 64u << 20;
		cudaEvent_t e0, e1;

		CHECK(cudaSetDevice(1));
		CHECK(cudaMalloc((void **)&b, pb));
		CHECK(cudaSetDevice(0));
		CHECK(cudaMalloc((void **)&a, pb));
		CHECK(cudaEventCreate(&e0));
		CHECK(cudaEventCreate(&e1));
		for (int k = 0; k < 5; k++) {
			CHECK(cudaEventRecord(e0, st[0][0]));
			CHECK(cudaMemcpyPeerAsync(b, 1, a, 0, pb, st[0][0]));
			CHECK(cudaEventRecord(e1, st[0][0]));
			CHECK(cudaEventSynchronize(e1));
			CHECK(cudaEventElapsedTime(&ms, e0, e1));
			t[k] = ms;
		}
		qsort(t, 5, sizeof t[0], cmp);
		printf("MULTI_GPU_APP verified=%d peer_access=%d peer_gbs=%.2f", ok, access01 && access10,
		       (double)pb / (t[2] * 1e6));
	}
	/* the host link: 256 MiB pinned H2D on GPU 0 alone, then on both at once (wall clock over both) */
	{
		size_t hb = 256u << 20;
		float *ph, *pd[2], ms;
		cudaEvent_t b0, b1;

		CHECK(cudaMallocHost((void **)&ph, hb));
		for (int d = 0; d < 2; d++) {
			CHECK(cudaSetDevice(d));
			CHECK(cudaMalloc((void **)&pd[d], hb));
		}
		CHECK(cudaSetDevice(0));
		CHECK(cudaEventCreate(&b0));
		CHECK(cudaEventCreate(&b1));
		CHECK(cudaEventRecord(b0, st[0][0]));
		CHECK(cudaMemcpyAsync(pd[0], ph, hb, cudaMemcpyHostToDevice, st[0][0]));
		CHECK(cudaEventRecord(b1, st[0][0]));
		CHECK(cudaEventSynchronize(b1));
		CHECK(cudaEventElapsedTime(&ms, b0, b1));
		printf(" h2d_alone_gbs=%.2f", (double)hb / (ms * 1e6));
		CHECK(cudaDeviceSynchronize());
		CHECK(cudaSetDevice(1));
		CHECK(cudaDeviceSynchronize());
		CHECK(cudaSetDevice(0));
		CHECK(cudaEventRecord(b0, st[0][0]));
		CHECK(cudaStreamWaitEvent(st[1][0], b0, 0));
		CHECK(cudaMemcpyAsync(pd[0], ph, hb, cudaMemcpyHostToDevice, st[0][0]));
		CHECK(cudaSetDevice(1));
		CHECK(cudaMemcpyAsync(pd[1], ph, hb, cudaMemcpyHostToDevice, st[1][0]));
		CHECK(cudaSetDevice(0));
		CHECK(cudaEventRecord(b1, st[0][0]));
		CHECK(cudaEventSynchronize(b1));
		CHECK(cudaSetDevice(1));
		CHECK(cudaStreamSynchronize(st[1][0]));
		CHECK(cudaSetDevice(0));
		CHECK(cudaEventElapsedTime(&ms, b0, b1));
		/* both copies ran within [b0, end of the later]; GPU 0's end bounds it from below: the rate is at most
		 */
		printf(" h2d_both_gbs=%.2f\n", (double)(2 * hb) / (ms * 1e6));
	}
	return ok ? 0 : 1;
}
