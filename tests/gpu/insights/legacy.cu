/* legacy.cu: pathology legacy-stream-sync: a 32-chunk pipeline (8 MiB chunks, round-robin) on 4 blocking streams
 * (cudaStreamCreate), and after every 4 chunks a tiny kernel (app_bump, counting its launches) on the legacy
 * default stream 0. Each such kernel waits for all earlier work of the blocking streams and holds back all later
 * work, so the pipeline drains 8 times. Expected: legacy-stream-sync, its evidence the app_bump kernels on the
 * legacy stream. */
#include "common.cuh"

const char *app_name = "legacy";

int main(void)
{
	struct app_pipe p;
	uint64_t copy_ns;
	unsigned *count;
	double t0, ms;
	int bumps;
	char extra[160];

	app_init();
	CHECK(cudaMallocHost((void **)&count, sizeof *count));
	copy_ns = app_pipe_alloc(&p, 4, 32, (size_t)2 << 20, true, cudaStreamDefault);
	p.order = APP_ROUND;
	p.spin_ns = copy_ns;
	p.legacy_every = 4;
	t0 = app_now_ms();
	bumps = app_pipeline(&p);
	CHECK(cudaDeviceSynchronize());
	ms = app_now_ms() - t0;
	/* pinned, on a created stream: a copy that adds neither a pageable nor a legacy-stream record */
	CHECK(cudaMemcpyAsync(count, p.legacy_count, sizeof *count, cudaMemcpyDeviceToHost, p.s[0]));
	CHECK(cudaStreamSynchronize(p.s[0]));
	snprintf(extra, sizeof extra, "streams=4 chunks=32 chunk_bytes=%zu legacy_kernels=%d counted=%u copy_ns=%llu",
	         p.elems * 4, bumps, *count, (unsigned long long)copy_ns);
	return app_done(app_pipe_check(&p) + (*count != (unsigned)bumps), ms, extra);
}
