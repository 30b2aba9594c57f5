/* managed-migration.cu: pathology managed-migration: 4 buffers of 64 MiB from cudaMallocManaged, filled on the
 * host, then summed by kernels on one stream with no cudaMemPrefetchAsync: the first pass over each buffer runs on
 * GPU page faults, migrating the pages on demand inside the kernel (the critical path); a second pass over the
 * same, now resident, buffers shows what the kernels take without migration. No copies (partial sums go to mapped
 * pinned memory). Expected: managed-migration, its evidence the first pass's kernels. */
#include "common.cuh"

const char *app_name = "managed-migration";

#define BUFS 4

int main(void)
{
	size_t n = (size_t)16 << 20, bad = 0;
	int grid = app_grid();
	cudaStream_t s;
	uint32_t *buf[BUFS], *part, want[BUFS];
	double t0, ms, pass_ms[2];
	char extra[160];

	app_init();
	CHECK(cudaHostAlloc((void **)&part, (size_t)2 * BUFS * grid * sizeof(uint32_t), cudaHostAllocMapped));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	for (int b = 0; b < BUFS; b++) {
		CHECK(cudaMallocManaged((void **)&buf[b], n * sizeof(uint32_t), cudaMemAttachGlobal));
		app_fill(buf[b], (size_t)b * n, n); /* first touch on the host: the pages live there */
		want[b] = app_sum_host(buf[b], 0, n, (uint32_t)b);
	}
	app_sum<<<grid, 256, 0, s>>>(NULL, 0, 256, 0u, part, 0);
	CHECK(cudaGetLastError());
	CHECK(cudaStreamSynchronize(s));
	t0 = app_now_ms();
	for (int pass = 0; pass < 2; pass++) {
		double p0 = app_now_ms();

		for (int b = 0; b < BUFS; b++) {
			app_sum<<<grid, 256, 0, s>>>(buf[b], 0, n, (uint32_t)b, part + (size_t)(pass * BUFS + b) * grid,
			                             0);
			CHECK(cudaGetLastError());
		}
		CHECK(cudaStreamSynchronize(s));
		pass_ms[pass] = app_now_ms() - p0;
	}
	ms = app_now_ms() - t0;
	for (int pass = 0; pass < 2; pass++)
		for (int b = 0; b < BUFS; b++) {
			uint32_t w = want[b];

			for (int i = 0; i < grid; i++)
				w -= part[(size_t)(pass * BUFS + b) * grid + i];
			bad += w != 0;
		}
	snprintf(extra, sizeof extra,
	         "streams=1 buffers=%d bytes=%zu prefetch=0 faulting_pass_ms=%.2f resident_pass_ms=%.2f", BUFS,
	         n * sizeof(uint32_t), pass_ms[0], pass_ms[1]);
	return app_done(bad, ms, extra);
}
