/* pageable.cu: pathology pageable-copy: clean.cu's 8-stream pipeline with its host buffers from malloc. Every
 * cudaMemcpyAsync then stages through the driver's pinned buffer: the call blocks the host and the copy cannot
 * overlap the issue of the next chunk. Expected: pageable-copy, its evidence the PAGEABLE-flagged copies. */
#include "common.cuh"

const char *app_name = "pageable";

int main(void)
{
	struct app_pipe p;
	uint64_t copy_ns;
	double t0, ms;
	char extra[128];

	app_init();
	copy_ns = app_pipe_alloc(&p, 8, 32, (size_t)2 << 20, false, cudaStreamNonBlocking);
	p.order = APP_ROUND;
	p.spin_ns = copy_ns;
	t0 = app_now_ms();
	app_pipeline(&p);
	CHECK(cudaDeviceSynchronize());
	ms = app_now_ms() - t0;
	snprintf(extra, sizeof extra, "streams=8 chunks=32 chunk_bytes=%zu pageable=1 copy_ns=%llu", p.elems * 4,
	         (unsigned long long)copy_ns);
	return app_done(app_pipe_check(&p), ms, extra);
}
