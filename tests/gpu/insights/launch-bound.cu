/* launch-bound.cu: pathology launch-bound: 32 non-blocking streams x 96 chunks of tiny work (a one-block kernel
 * summing 256 generated elements into mapped host memory, a microsecond or two, and a cudaEventRecord marking the
 * chunk done on its stream's event): 3072 launches whose host issue cost, not the GPU, sets the makespan; the GPU
 * waits for each launch. No copies (results are written straight to
 * mapped pinned memory), so copy rules stay out of it. Expected: launch-bound. */
#include "common.cuh"

const char *app_name = "launch-bound";

#define STREAMS 32
#define CHUNKS 96
#define ELEMS 256

int main(void)
{
	cudaStream_t s[STREAMS];
	cudaEvent_t done[STREAMS];
	uint32_t *part;
	size_t bad = 0, n = (size_t)STREAMS * CHUNKS;
	double t0, ms;
	char extra[128];

	app_init();
	CHECK(cudaHostAlloc((void **)&part, n * sizeof(uint32_t), cudaHostAllocMapped));
	for (int k = 0; k < STREAMS; k++) {
		CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
		CHECK(cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming));
	}
	app_sum<<<1, 256, 0, s[0]>>>(NULL, 0, ELEMS, 0u, part, 0);
	CHECK(cudaGetLastError());
	CHECK(cudaStreamSynchronize(s[0]));
	t0 = app_now_ms();
	for (int c = 0; c < CHUNKS; c++)
		for (int k = 0; k < STREAMS; k++) {
			size_t i = (size_t)c * STREAMS + k;

			app_sum<<<1, 256, 0, s[k]>>>(NULL, i * ELEMS, ELEMS, (uint32_t)i, part + i, 0);
			CHECK(cudaGetLastError());
			CHECK(cudaEventRecord(done[k], s[k]));
		}
	for (int k = 0; k < STREAMS; k++)
		CHECK(cudaEventSynchronize(done[k]));
	ms = app_now_ms() - t0;
	for (size_t i = 0; i < n; i++)
		bad += part[i] != app_sum_host(NULL, i * ELEMS, ELEMS, (uint32_t)i);
	snprintf(extra, sizeof extra, "streams=%d chunks=%d launches=%zu", STREAMS, CHUNKS, n);
	return app_done(bad, ms, extra);
}
