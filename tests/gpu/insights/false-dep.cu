/* false-dep.cu: pathology false-dependency: CUDA_DEVICE_MAX_CONNECTIONS=1 (set by the program before its first
 * CUDA call), so the kernels of all 8 non-blocking streams share one hardware queue (on the H200 the copies keep
 * queues of their own), and 4 rounds of 8 chunks (8 MiB, pinned) issued breadth first with each round's kernels in
 * REVERSE stream order: the round's H2D copies in stream order, then the kernels of streams 7, 6, ..., 0, then the
 * D2H copies. Stream 7's kernel heads the queue and waits for the round's last H2D; the kernels of streams 0..6,
 * whose copies finished long before, wait behind it while the compute engine idles, and the D2H queue's head
 * (stream 0's, whose kernel runs last) holds back the other streams' D2H. Kernels fill the GPU (8 blocks of 256
 * threads per SM), so they run one at a time, and last half a chunk's copy. With the default 8 queues this order
 * costs nothing (each kernel starts when its copy ends). Expected: false-dependency, its evidence the kernels (and
 * D2H copies) that waited. */
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
	p.order = APP_REVERSE;
	p.spin_ns = copy_ns / 2;
	p.grid = app_grid() * 4; /* 8 blocks of 256 threads per SM: the whole GPU */
	t0 = app_now_ms();
	app_pipeline(&p);
	CHECK(cudaDeviceSynchronize());
	ms = app_now_ms() - t0;
	snprintf(extra, sizeof extra,
	         "streams=8 chunks=32 chunk_bytes=%zu connections=%s order=breadth-kernels-reversed copy_ns=%llu",
	         p.elems * 4, getenv("CUDA_DEVICE_MAX_CONNECTIONS"), (unsigned long long)copy_ns);
	return app_done(app_pipe_check(&p), ms, extra);
}
