/* false-dep.cu: pathology false-dependency: clean.cu's pipeline (8 non-blocking streams, 32 chunks of 8 MiB,
 * pinned, issued depth first: chunk by chunk, each chunk's H2D, kernel and D2H on stream c % 8) with
 * CUDA_DEVICE_MAX_CONNECTIONS=1, set by the program before its first CUDA call, so all 8 streams share one
 * hardware queue. Each chunk's D2H waits on its kernel at the head of that queue and holds back the next chunk's
 * independent H2D and kernel behind it: no kernel overlaps a copy of another stream's chunk though the GPU has
 * room (with the default 8 queues, clean.cu, the same order overlaps). Expected: false-dependency. */
#include "common.cuh"

const char *app_name = "false-dep";

int main(void)
{
	struct app_pipe p;
	uint64_t copy_ns;
	double t0, ms;
	char extra[160];

	setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 1);
	app_init();
	copy_ns = app_pipe_alloc(&p, 8, 32, (size_t)2 << 20, true, cudaStreamNonBlocking);
	p.order = APP_ROUND;
	p.spin_ns = copy_ns;
	t0 = app_now_ms();
	app_pipeline(&p);
	CHECK(cudaDeviceSynchronize());
	ms = app_now_ms() - t0;
	snprintf(extra, sizeof extra,
	         "streams=8 chunks=32 chunk_bytes=%zu connections=%s order=round-robin copy_ns=%llu", p.elems * 4,
	         getenv("CUDA_DEVICE_MAX_CONNECTIONS"), (unsigned long long)copy_ns);
	return app_done(app_pipe_check(&p), ms, extra);
}
