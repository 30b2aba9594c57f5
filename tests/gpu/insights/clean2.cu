/* clean2.cu: a second clean shape: 4 blocking streams (cudaStreamCreate; no work on the legacy stream, so they
 * never serialise), pinned memory, 32 chunks of 8 MiB issued breadth first (each round's H2D on every stream, then
 * its kernels, then its D2H); kernels as long as a chunk's copy. Expected: no problem-level insight. */
#include "common.cuh"

const char *app_name = "clean2";

int main(void)
{
	struct app_pipe p;
	uint64_t copy_ns;
	double t0, ms;
	char extra[128];

	app_init();
	copy_ns = app_pipe_alloc(&p, 4, 32, (size_t)2 << 20, true, cudaStreamDefault);
	p.order = APP_BREADTH;
	p.spin_ns = copy_ns;
	t0 = app_now_ms();
	app_pipeline(&p);
	CHECK(cudaDeviceSynchronize());
	ms = app_now_ms() - t0;
	snprintf(extra, sizeof extra, "streams=4 chunks=32 chunk_bytes=%zu copy_ns=%llu", p.elems * 4,
	         (unsigned long long)copy_ns);
	return app_done(app_pipe_check(&p), ms, extra);
}
