/* record_app.cu: the CUDA program `streamscope record` is verified with (tests/record/h200.sh).
 *
 * Built with --default-stream per-thread. What it issues, all counted in the RECORD_APP line it prints:
 * - 4 streams: 2 blocking (cudaStreamCreate), 2 non-blocking (cudaStreamNonBlocking);
 * - pinned host buffers (cudaMallocHost); one cudaMemsetAsync per stream;
 * - per iteration (1 warm-up + ITERS timed) and per stream CHUNKS chunks of H2D copy, kernel, D2H copy; the kernels
 *   compute an integer hash the host checks on a sample of every chunk;
 * - one kernel on the legacy default stream (cudaStreamLegacy) and one on a helper thread's per-thread default
 *   stream;
 * - NVTX: a start/end range over the whole run, a push/pop range per iteration, one on the helper thread.
 * Each timed iteration is measured with cudaEvents (start on stream 0, the other streams wait for it; every stream's
 * end joins stream 0 before the stop event) and with the host clock around issue + synchronisation.
 *
 * Output: RECORD_APP_ITER lines, then one line
 *   RECORD_APP streams=4 kernels=K h2d=N d2h=N memsets=M nvtx_ranges=R iters=T gpu_ms_median=... gpu_ms_min=...
 *   gpu_ms_mean=... wall_ms_median=... verified=1 device=NAME
 * Exit status: 0 verified, 1 a result was wrong, 2 a CUDA error (message on stderr), 64 bad arguments. */
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>
#include <thread>
#include <vector>

#define CHECK(call)                                                                                                    \
	do {                                                                                                           \
		cudaError_t err_ = (call);                                                                             \
		if (err_ != cudaSuccess) {                                                                             \
			fprintf(stderr, "record_app: %s: %s (%s:%d)\n", #call, cudaGetErrorString(err_), __FILE__,     \
			        __LINE__);                                                                             \
			exit(2);                                                                                       \
		}                                                                                                      \
	} while (0)

/* The hash every element goes through: the same on host and device, integer only, so results compare exactly. */
__host__ __device__ static inline uint32_t record_app_mix(uint32_t v, int work)
{
	for (int k = 0; k < work; k++) {
		v = v * 1664525u + 1013904223u;
		v ^= v >> 13;
	}
	return v;
}

__global__ void record_app_hash(const uint32_t *in, uint32_t *out, size_t n, int work)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = record_app_mix(in[i], work);
}

__global__ void record_app_fill(uint32_t *p, size_t n, uint32_t v)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = v + (uint32_t)i;
}

/* The input element i of iteration it. */
static inline uint32_t record_app_input(size_t i, int it)
{
	return (uint32_t)i * 2654435761u + (uint32_t)it * 97u + 1u;
}

static double record_app_median(std::vector<double> v)
{
	if (v.empty())
		return 0;
	std::sort(v.begin(), v.end());
	return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

static long record_app_arg(const char *name, const char *s, long lo, long hi)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "record_app: %s must be %ld..%ld\n", name, lo, hi);
		exit(64);
	}
	return v;
}

int main(int argc, char **argv)
{
	const int nstreams = 4;
	int chunks = 8, work = 4096, iters = 10;
	size_t chunk = 512 * 1024; /* elements per chunk */
	int kernels = 0, h2d = 0, d2h = 0, memsets = 0, ranges = 0;
	bool ok = true;

	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--chunks") == 0)
			chunks = (int)record_app_arg("--chunks", argv[++i], 1, 64);
		else if (i + 1 < argc && strcmp(argv[i], "--work") == 0)
			work = (int)record_app_arg("--work", argv[++i], 1, 1 << 20);
		else if (i + 1 < argc && strcmp(argv[i], "--iters") == 0)
			iters = (int)record_app_arg("--iters", argv[++i], 1, 1000000);
		else if (i + 1 < argc && strcmp(argv[i], "--chunk-elements") == 0)
			chunk = (size_t)record_app_arg("--chunk-elements", argv[++i], 1, 1 << 26);
		else {
			fprintf(stderr, "usage: record_app [--chunks N] [--chunk-elements N] [--work N] [--iters N]\n");
			return 64;
		}
	}
	const size_t n = chunk * (size_t)chunks * nstreams;
	const size_t bytes = n * sizeof(uint32_t);
	const unsigned block = 256;
	const unsigned grid = (unsigned)((chunk + block - 1) / block);
	cudaDeviceProp prop;

	CHECK(cudaSetDevice(0));
	CHECK(cudaFree(0)); /* CUDA starts here: the recording begins before the first NVTX range */
	CHECK(cudaGetDeviceProperties(&prop, 0));
	nvtxRangeId_t whole = nvtxRangeStartA("record_app");
	ranges++;

	cudaStream_t s[nstreams];
	for (int k = 0; k < nstreams; k++) {
		if (k < nstreams / 2)
			CHECK(cudaStreamCreate(&s[k]));
		else
			CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
	}
	uint32_t *h_in, *h_out, *d_in, *d_out, *d_scratch;
	CHECK(cudaMallocHost(&h_in, bytes));
	CHECK(cudaMallocHost(&h_out, bytes));
	CHECK(cudaMalloc(&d_in, bytes));
	CHECK(cudaMalloc(&d_out, bytes));
	CHECK(cudaMalloc(&d_scratch, chunk * sizeof(uint32_t)));
	for (int k = 0; k < nstreams; k++) {
		size_t part = n / nstreams;

		CHECK(cudaMemsetAsync(d_out + k * part, 0, part * sizeof(uint32_t), s[k]));
		memsets++;
	}

	/* One operation on the legacy default stream: it waits for the blocking streams and they for it. */
	record_app_fill<<<grid, block, 0, cudaStreamLegacy>>>(d_scratch, chunk, 7u);
	CHECK(cudaGetLastError());
	kernels++;
	CHECK(cudaStreamSynchronize(cudaStreamLegacy));

	/* A helper thread: its own NVTX lane and its per-thread default stream. */
	cudaError_t helper_err = cudaSuccess;
	std::thread helper([&] {
		nvtxRangePushA("helper thread");
		record_app_fill<<<grid, block>>>(d_scratch, chunk, 11u); /* per-thread default stream */
		helper_err = cudaGetLastError();
		if (helper_err == cudaSuccess)
			helper_err = cudaStreamSynchronize(cudaStreamPerThread);
		nvtxRangePop();
	});
	helper.join();
	CHECK(helper_err);
	kernels++;
	ranges++;

	cudaEvent_t ev_start, ev_stop, ev_done[nstreams];
	CHECK(cudaEventCreate(&ev_start));
	CHECK(cudaEventCreate(&ev_stop));
	for (int k = 0; k < nstreams; k++)
		CHECK(cudaEventCreateWithFlags(&ev_done[k], cudaEventDisableTiming));

	std::vector<double> gpu_ms, wall_ms;
	for (int it = 0; it <= iters; it++) { /* iteration 0 warms up and is not timed */
		char label[64];

		for (size_t i = 0; i < n; i++)
			h_in[i] = record_app_input(i, it);
		snprintf(label, sizeof label, it == 0 ? "warm-up" : "iteration %d", it);
		nvtxRangePushA(label);
		ranges++;
		auto w0 = std::chrono::steady_clock::now();
		CHECK(cudaEventRecord(ev_start, s[0]));
		for (int k = 1; k < nstreams; k++)
			CHECK(cudaStreamWaitEvent(s[k], ev_start, 0));
		for (int c = 0; c < chunks; c++) {
			for (int k = 0; k < nstreams; k++) {
				size_t off = ((size_t)k * chunks + c) * chunk;

				CHECK(cudaMemcpyAsync(d_in + off, h_in + off, chunk * sizeof(uint32_t),
				                      cudaMemcpyHostToDevice, s[k]));
				record_app_hash<<<grid, block, 0, s[k]>>>(d_in + off, d_out + off, chunk, work);
				CHECK(cudaGetLastError());
				CHECK(cudaMemcpyAsync(h_out + off, d_out + off, chunk * sizeof(uint32_t),
				                      cudaMemcpyDeviceToHost, s[k]));
				h2d++;
				kernels++;
				d2h++;
			}
		}
		for (int k = 1; k < nstreams; k++) {
			CHECK(cudaEventRecord(ev_done[k], s[k]));
			CHECK(cudaStreamWaitEvent(s[0], ev_done[k], 0));
		}
		CHECK(cudaEventRecord(ev_stop, s[0]));
		CHECK(cudaEventSynchronize(ev_stop));
		auto w1 = std::chrono::steady_clock::now();
		nvtxRangePop();
		float ms = 0;
		CHECK(cudaEventElapsedTime(&ms, ev_start, ev_stop));
		double wms = std::chrono::duration<double, std::milli>(w1 - w0).count();

		/* Check a sample of every chunk (every 4096th element and the last). */
		for (size_t c = 0; c < (size_t)chunks * nstreams; c++) {
			for (size_t j = 0;; j += 4096) {
				size_t i = c * chunk + std::min(j, chunk - 1);

				if (h_out[i] != record_app_mix(record_app_input(i, it), work)) {
					if (ok)
						fprintf(stderr,
						        "record_app: wrong result at element %zu of iteration %d\n", i,
						        it);
					ok = false;
				}
				if (j >= chunk - 1)
					break;
			}
		}
		if (it > 0) {
			gpu_ms.push_back(ms);
			wall_ms.push_back(wms);
			printf("RECORD_APP_ITER %d gpu_ms=%.4f wall_ms=%.4f\n", it, ms, wms);
		}
	}
	nvtxRangeEnd(whole);
	CHECK(cudaDeviceSynchronize());

	double mean = 0;
	for (double v : gpu_ms)
		mean += v;
	mean /= gpu_ms.size();
	printf("RECORD_APP streams=%d kernels=%d h2d=%d d2h=%d memsets=%d nvtx_ranges=%d iters=%d gpu_ms_median=%.4f "
	       "gpu_ms_min=%.4f gpu_ms_mean=%.4f wall_ms_median=%.4f verified=%d device=%s\n",
	       nstreams, kernels, h2d, d2h, memsets, ranges, iters, record_app_median(gpu_ms),
	       *std::min_element(gpu_ms.begin(), gpu_ms.end()), mean, record_app_median(wall_ms), ok ? 1 : 0,
	       prop.name);
	fflush(stdout);

	for (int k = 0; k < nstreams; k++) {
		CHECK(cudaEventDestroy(ev_done[k]));
		CHECK(cudaStreamDestroy(s[k]));
	}
	CHECK(cudaEventDestroy(ev_start));
	CHECK(cudaEventDestroy(ev_stop));
	CHECK(cudaFreeHost(h_in));
	CHECK(cudaFreeHost(h_out));
	CHECK(cudaFree(d_in));
	CHECK(cudaFree(d_out));
	CHECK(cudaFree(d_scratch));
	return ok ? 0 : 1;
}
