/* no-overlap.cu: pathology no-overlap: the whole job on one stream in 4 big chunks of 64 MiB (pinned): each
 * chunk's H2D, kernel (as long as the copy) and D2H run one after another, so copies and kernels never overlap.
 * Expected: no-overlap. */
#include "common.cuh"

const char *app_name = "no-overlap";

int main(void)
{
	struct app_pipe p;
	uint64_t copy_ns;
	double t0, ms;
	char extra[128];

	app_init();
	copy_ns = app_pipe_alloc(&p, 1, 4, (size_t)16 << 20, true, cudaStreamNonBlocking);
	p.order = APP_ROUND;
	p.spin_ns = copy_ns;
	t0 = app_now_ms();
	app_pipeline(&p);
	CHECK(cudaDeviceSynchronize());
	ms = app_now_ms() - t0;
	snprintf(extra, sizeof extra, "streams=1 chunks=4 chunk_bytes=%zu copy_ns=%llu", p.elems * 4,
	         (unsigned long long)copy_ns);
	return app_done(app_pipe_check(&p), ms, extra);
}
