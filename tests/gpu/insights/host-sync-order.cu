/* host-sync-order.cu: pathology host-sync-order: 4 non-blocking streams each copy 64 MiB in (pinned), map it with
 * a kernel and copy it back; stream 0's kernel lasts 40 ms, the others' 2 ms, so streams 1..3 finish first. The
 * host synchronises stream 0 first, then checks its output (about 10-30 ms of host work per stream), then
 * synchronises and checks streams 1, 2 and 3 in turn: it waits on stream 0 while the others' results sit ready
 * (checking them during the wait would have hidden that work). Expected: host-sync-order, its evidence the host's
 * wait (SYNC record) on stream 0. */
#include "common.cuh"

const char *app_name = "host-sync-order";

#define STREAMS 4

int main(void)
{
	size_t elems = (size_t)16 << 20, bytes = elems * sizeof(uint32_t), bad = 0;
	uint32_t *hin, *hout, *din[STREAMS], *dout[STREAMS];
	cudaStream_t s[STREAMS];
	double t0, ms, wait_ms[STREAMS], check_ms[STREAMS];
	uint64_t copy_ns;
	char extra[256];
	int grid;

	app_init();
	grid = app_grid();
	CHECK(cudaMallocHost((void **)&hin, bytes * STREAMS));
	CHECK(cudaMallocHost((void **)&hout, bytes * STREAMS));
	app_fill(hin, 0, elems * STREAMS);
	for (int k = 0; k < STREAMS; k++) {
		CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
		CHECK(cudaMalloc((void **)&din[k], bytes));
		CHECK(cudaMalloc((void **)&dout[k], bytes));
	}
	copy_ns = app_copy_ns(din[0], hin, bytes, s[0]);
	app_map<<<grid, 256, 0, s[0]>>>(din[0], dout[0], elems, 0u, 0);
	CHECK(cudaGetLastError());
	CHECK(cudaStreamSynchronize(s[0]));
	t0 = app_now_ms();
	for (int k = 0; k < STREAMS; k++) {
		CHECK(cudaMemcpyAsync(din[k], hin + k * elems, bytes, cudaMemcpyHostToDevice, s[k]));
		app_map<<<grid, 256, 0, s[k]>>>(din[k], dout[k], elems, (uint32_t)k, k == 0 ? 40000000ull : 2000000ull);
		CHECK(cudaGetLastError());
		CHECK(cudaMemcpyAsync(hout + k * elems, dout[k], bytes, cudaMemcpyDeviceToHost, s[k]));
	}
	/* the fault: stream order, not completion order */
	for (int k = 0; k < STREAMS; k++) {
		double w = app_now_ms();

		CHECK(cudaStreamSynchronize(s[k]));
		wait_ms[k] = app_now_ms() - w;
		w = app_now_ms();
		bad += app_check_map(hin + k * elems, 0, hout + k * elems, elems, (uint32_t)k);
		check_ms[k] = app_now_ms() - w;
	}
	ms = app_now_ms() - t0;
	snprintf(extra, sizeof extra,
	         "streams=4 bytes=%zu copy_ns=%llu wait_ms=%.2f,%.2f,%.2f,%.2f check_ms=%.2f,%.2f,%.2f,%.2f", bytes,
	         (unsigned long long)copy_ns, wait_ms[0], wait_ms[1], wait_ms[2], wait_ms[3], check_ms[0], check_ms[1],
	         check_ms[2], check_ms[3]);
	return app_done(bad, ms, extra);
}
