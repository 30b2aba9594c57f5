/* engine-bound.cu: pathology engine-bound (copy-bound): 8 non-blocking streams, 32 chunks of 8 MiB (pinned), a
 * kernel that only maps each element once (a few microseconds, no spin): the copy engines are busy nearly the whole
 * makespan and more streams cannot shorten it. Expected: engine-bound on a copy engine. */
#include "common.cuh"

const char *app_name = "engine-bound";

int main(void)
{
	struct app_pipe p;
	uint64_t copy_ns;
	double t0, ms;
	char extra[128];

	app_init();
	copy_ns = app_pipe_alloc(&p, 8, 32, (size_t)2 << 20, true, cudaStreamNonBlocking);
	p.order = APP_ROUND;
	p.spin_ns = 0;
	t0 = app_now_ms();
	app_pipeline(&p);
	CHECK(cudaDeviceSynchronize());
	ms = app_now_ms() - t0;
	snprintf(extra, sizeof extra, "streams=8 chunks=32 chunk_bytes=%zu copy_ns=%llu", p.elems * 4,
	         (unsigned long long)copy_ns);
	return app_done(app_pipe_check(&p), ms, extra);
}
