/* clean.cu: a well-overlapped pipeline, the reference with no problem: 8 non-blocking streams, pinned host memory,
 * 32 chunks of 8 MiB issued chunk by chunk round-robin (H2D, kernel, D2H per chunk); each kernel lasts about as
 * long as one chunk's copy, so copies in both directions run under other chunks' kernels. Expected from
 * `streamscope analyze`: no problem-level insight. */
#include "common.cuh"

const char *app_name = "clean";

int main(void)
{
	struct app_pipe p;
	uint64_t copy_ns;
	double t0, ms;
	char extra[128];

	app_init();
	copy_ns = app_pipe_alloc(&p, 8, 32, (size_t)2 << 20, true, cudaStreamNonBlocking);
	p.order = APP_ROUND;
	p.spin_ns = copy_ns;
	t0 = app_now_ms();
	app_pipeline(&p);
	CHECK(cudaDeviceSynchronize());
	ms = app_now_ms() - t0;
	snprintf(extra, sizeof extra, "streams=8 chunks=32 chunk_bytes=%zu copy_ns=%llu", p.elems * 4,
	         (unsigned long long)copy_ns);
	return app_done(app_pipe_check(&p), ms, extra);
}
