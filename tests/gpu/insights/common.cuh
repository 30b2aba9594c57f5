/* common.cuh: what the pathology programs of tests/gpu/insights share (tests/gpu/insights.sh builds and records
 * them; each program has one performance problem, or none for clean*.cu, and checks its own results).
 *
 * Kernels' durations are set by the clock, not by arithmetic: every thread of a "spin" kernel does its share of the
 * real work, then waits on %globaltimer until spin_ns have passed since it started. With every block resident at
 * once (app_grid), a kernel then lasts about spin_ns on any GPU, so a program's shape (which engine is busy when)
 * does not depend on the GPU's speed. Copies are real; app_copy_ns measures what one takes here so kernels can be
 * sized against it.
 *
 * Every program ends with one line "INSIGHTS_APP name=NAME ... verified=1" and exits 0 when every result checked
 * out, 1 on a wrong result, 2 on a CUDA error. */
#ifndef INSIGHTS_COMMON_CUH
#define INSIGHTS_COMMON_CUH

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <time.h>

#define CHECK(call)                                                                                                    \
	do {                                                                                                           \
		cudaError_t err_ = (call);                                                                             \
		if (err_ != cudaSuccess) {                                                                             \
			fprintf(stderr, "%s: %s: %s (%s:%d)\n", app_name, #call, cudaGetErrorString(err_), __FILE__,   \
			        __LINE__);                                                                             \
			exit(2);                                                                                       \
		}                                                                                                      \
	} while (0)

/* The program's name, for messages; each program defines it. */
extern const char *app_name;

/* The device's nanosecond clock. */
__device__ static inline uint64_t app_gtime(void)
{
	uint64_t t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

/* The per-element function every kernel applies: the same on host and device, integer only. */
__host__ __device__ static inline uint32_t app_mix(uint32_t v, uint32_t salt)
{
	v ^= salt;
	v *= 2654435761u;
	return v ^ (v >> 15);
}

/* The input value of element i (what the host fills its buffers with, and what generating kernels use). */
__host__ __device__ static inline uint32_t app_gen(size_t i)
{
	return (uint32_t)(i * 7u + 12345u);
}

/* Waits until spin_ns have passed since t0 (device clock). */
__device__ static inline void app_spin(uint64_t t0, uint64_t spin_ns)
{
	while (app_gtime() - t0 < spin_ns)
		__nanosleep(500);
}

/* out[i] = app_mix(in[i], salt) for i < n, then spins spin_ns. */
__global__ void app_map(const uint32_t *in, uint32_t *out, size_t n, uint32_t salt, uint64_t spin_ns)
{
	uint64_t t0 = app_gtime();

	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
		out[i] = app_mix(in[i], salt);
	if (spin_ns > 0)
		app_spin(t0, spin_ns);
}

/* The sum (mod 2^32) of app_mix(v_i, salt) over i < n, where v_i is in[i], or app_gen(base + i) when in is NULL;
 * each block writes its part to part[blockIdx.x] (part may be mapped host memory), then spins spin_ns. Needs
 * blockDim.x == 256. */
__global__ void app_sum(const uint32_t *in, size_t base, size_t n, uint32_t salt, uint32_t *part, uint64_t spin_ns)
{
	__shared__ uint32_t warp[8];
	uint64_t t0 = app_gtime();
	uint32_t s = 0;

	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
		s += app_mix(in != NULL ? in[i] : app_gen(base + i), salt);
	s = __reduce_add_sync(0xffffffffu, s);
	if ((threadIdx.x & 31) == 0)
		warp[threadIdx.x >> 5] = s;
	__syncthreads();
	if (threadIdx.x == 0) {
		uint32_t b = 0;
		for (int w = 0; w < 8; w++)
			b += warp[w];
		part[blockIdx.x] = b;
	}
	if (spin_ns > 0)
		app_spin(t0, spin_ns);
}

/* The host's app_sum: sum of app_mix over in[0..n) (or app_gen(base + i) when in is NULL). */
static inline uint32_t app_sum_host(const uint32_t *in, size_t base, size_t n, uint32_t salt)
{
	uint32_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += app_mix(in != NULL ? in[i] : app_gen(base + i), salt);
	return s;
}

/* Starts CUDA: loads every module at once (CUDA_MODULE_LOADING=EAGER, so no first launch stalls the host in the
 * middle of a trace), selects device 0 and creates its context. */
static inline void app_init(void)
{
	setenv("CUDA_MODULE_LOADING", "EAGER", 0);
	CHECK(cudaSetDevice(0));
	CHECK(cudaFree(0));
}

/* Blocks per kernel that keep every block resident at once (2 per SM of 256 threads). */
static inline int app_grid(void)
{
	int sms = 0;

	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	return sms * 2;
}

/* What one copy of bytes from src to dst takes on stream s, in ns: the fastest of 3 timed with events (the first
 * warms the path). The copy's kind is the pointers'. */
static inline uint64_t app_copy_ns(void *dst, const void *src, size_t bytes, cudaStream_t s)
{
	cudaEvent_t a, b;
	float ms, best = 1e30f;

	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	for (int k = 0; k < 3; k++) {
		CHECK(cudaEventRecord(a, s));
		CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s));
		CHECK(cudaEventRecord(b, s));
		CHECK(cudaEventSynchronize(b));
		CHECK(cudaEventElapsedTime(&ms, a, b));
		if (ms < best)
			best = ms;
	}
	CHECK(cudaEventDestroy(a));
	CHECK(cudaEventDestroy(b));
	return (uint64_t)(best * 1e6f);
}

/* Milliseconds on the host's monotonic clock. */
static inline double app_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Counts out[i] != app_mix(in_i, salt) for i < n, where in_i is in[i] (or app_gen(base + i) when in is NULL). */
static inline size_t app_check_map(const uint32_t *in, size_t base, const uint32_t *out, size_t n, uint32_t salt)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++)
		bad += out[i] != app_mix(in != NULL ? in[i] : app_gen(base + i), salt);
	return bad;
}

/* Fills p[0..n) with app_gen(base + i). */
static inline void app_fill(uint32_t *p, size_t base, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = app_gen(base + i);
}

/* Prints the INSIGHTS_APP line (extra: "key=value ..." or "") and returns the exit status: 0 when bad is 0. */
static inline int app_done(size_t bad, double ms, const char *extra)
{
	cudaDeviceProp p;

	CHECK(cudaGetDeviceProperties(&p, 0));
	printf("INSIGHTS_APP name=%s ms=%.3f %s%sbad=%zu verified=%d device=\"%s\"\n", app_name, ms, extra,
	       extra[0] != '\0' ? " " : "", bad, bad == 0, p.name);
	if (bad != 0)
		fprintf(stderr, "%s: %zu wrong results\n", app_name, bad);
	return bad == 0 ? 0 : 1;
}

/* Issue orders of app_pipeline. */
enum app_order {
	APP_ROUND,   /* chunk by chunk, round-robin over the streams: H2D, kernel, D2H of chunk c on stream c % S */
	APP_DEPTH,   /* stream by stream: all of stream 0's chunks (H2D, kernel, D2H each), then stream 1's... */
	APP_BREADTH, /* round by round: the round's H2D on every stream, then its kernels, then its D2H */
	APP_REVERSE, /* as APP_BREADTH, with each round's kernels issued in reverse stream order */
};

/* One chunked pipeline: chunk c (elems elements) of hin is copied to stream c % streams' device buffer, mapped by
 * app_map with salt c (spinning spin_ns), and copied back to the same place of hout. */
struct app_pipe {
	int streams, chunks; /* chunks a multiple of streams */
	size_t elems;        /* per chunk */
	enum app_order order;
	uint64_t spin_ns;
	const cudaStream_t *s;  /* [streams] */
	uint32_t *hin, *hout;   /* chunks * elems each */
	uint32_t **din, **dout; /* [streams], elems each */
	int grid;               /* app_grid() */
	int legacy_every;       /* > 0: after every legacy_every chunks issued, app_bump on the legacy stream */
	unsigned *legacy_count; /* device counter app_bump increments */
};

/* Adds 1 to *count: a tiny kernel, launched on the legacy default stream by app_pipeline. */
__global__ void app_bump(unsigned *count)
{
	if (threadIdx.x == 0 && blockIdx.x == 0)
		atomicAdd(count, 1u);
}

/* Issues chunk c's stage (0 H2D, 1 kernel, 2 D2H) of p. */
static inline void app_stage(const struct app_pipe *p, int c, int stage)
{
	int k = c % p->streams;
	size_t off = (size_t)c * p->elems, bytes = p->elems * sizeof(uint32_t);

	if (stage == 0)
		CHECK(cudaMemcpyAsync(p->din[k], p->hin + off, bytes, cudaMemcpyHostToDevice, p->s[k]));
	else if (stage == 1) {
		app_map<<<p->grid, 256, 0, p->s[k]>>>(p->din[k], p->dout[k], p->elems, (uint32_t)c, p->spin_ns);
		CHECK(cudaGetLastError());
	} else
		CHECK(cudaMemcpyAsync(p->hout + off, p->dout[k], bytes, cudaMemcpyDeviceToHost, p->s[k]));
}

/* Issues every chunk of p in p->order (with p->legacy_every's legacy kernels) and returns the number of app_bump
 * launches; does not synchronise. */
static inline int app_pipeline(const struct app_pipe *p)
{
	int issued = 0, bumps = 0, rounds = p->chunks / p->streams;

	if (p->order == APP_BREADTH || p->order == APP_REVERSE) {
		for (int r = 0; r < rounds; r++)
			for (int stage = 0; stage < 3; stage++)
				for (int k = 0; k < p->streams; k++) {
					int kk = p->order == APP_REVERSE && stage == 1 ? p->streams - 1 - k : k;

					app_stage(p, r * p->streams + kk, stage);
				}
		return 0;
	}
	for (int i = 0; i < p->chunks; i++) {
		/* APP_DEPTH: the i-th chunk issued is stream i / rounds' (i % rounds)-th */
		int c = p->order == APP_ROUND ? i : (i % rounds) * p->streams + i / rounds;

		for (int stage = 0; stage < 3; stage++)
			app_stage(p, c, stage);
		if (p->legacy_every > 0 && ++issued % p->legacy_every == 0) {
			app_bump<<<1, 32, 0, 0>>>(p->legacy_count);
			CHECK(cudaGetLastError());
			bumps++;
		}
	}
	return bumps;
}

/* Counts the wrong elements of p's output (every chunk's hout against app_mix of its hin and salt). */
static inline size_t app_pipe_check(const struct app_pipe *p)
{
	size_t bad = 0;

	for (int c = 0; c < p->chunks; c++)
		bad += app_check_map(p->hin + (size_t)c * p->elems, 0, p->hout + (size_t)c * p->elems, p->elems,
		                     (uint32_t)c);
	return bad;
}

/* Fills p for a pipeline of streams streams (created with stream_flags) and chunks chunks of elems elements: host
 * buffers pinned (cudaMallocHost) or pageable (malloc), hin filled with app_gen, one device buffer pair per stream;
 * then times one chunk's H2D copy (app_copy_ns) and launches app_map once, so the trace's pipeline starts warm.
 * Returns that copy's time in ns. */
static inline uint64_t app_pipe_alloc(struct app_pipe *p, int streams, int chunks, size_t elems, bool pinned,
                                      unsigned stream_flags)
{
	size_t total = (size_t)chunks * elems * sizeof(uint32_t);
	cudaStream_t *s = (cudaStream_t *)calloc((size_t)streams, sizeof *s);
	uint64_t ns;

	memset(p, 0, sizeof *p);
	p->streams = streams;
	p->chunks = chunks;
	p->elems = elems;
	p->grid = app_grid();
	p->din = (uint32_t **)calloc((size_t)streams, sizeof *p->din);
	p->dout = (uint32_t **)calloc((size_t)streams, sizeof *p->dout);
	if (s == NULL || p->din == NULL || p->dout == NULL) {
		fprintf(stderr, "%s: out of memory\n", app_name);
		exit(2);
	}
	if (pinned) {
		CHECK(cudaMallocHost((void **)&p->hin, total));
		CHECK(cudaMallocHost((void **)&p->hout, total));
	} else if ((p->hin = (uint32_t *)malloc(total)) == NULL || (p->hout = (uint32_t *)malloc(total)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", app_name);
		exit(2);
	}
	app_fill(p->hin, 0, (size_t)chunks * elems);
	memset(p->hout, 0, total);
	for (int k = 0; k < streams; k++) {
		CHECK(cudaStreamCreateWithFlags(&s[k], stream_flags));
		CHECK(cudaMalloc((void **)&p->din[k], elems * sizeof(uint32_t)));
		CHECK(cudaMalloc((void **)&p->dout[k], elems * sizeof(uint32_t)));
	}
	p->s = s;
	CHECK(cudaMalloc((void **)&p->legacy_count, sizeof(unsigned)));
	CHECK(cudaMemsetAsync(p->legacy_count, 0, sizeof(unsigned), s[0]));
	ns = app_copy_ns(p->din[0], p->hin, elems * sizeof(uint32_t), s[0]);
	app_map<<<p->grid, 256, 0, s[0]>>>(p->din[0], p->dout[0], elems, 0u, 0);
	CHECK(cudaGetLastError());
	CHECK(cudaStreamSynchronize(s[0]));
	return ns;
}

#endif
