/* many_ops_app.cu: a program that issues many small operations on 32 streams, for tests/record/h200_streams.sh
 * (issue 16 items 7 and 8: a recording of 100k tiny copies and kernels, and `record --live` of it).
 *
 * 32 streams, 16 blocking (cudaStreamCreate) and 16 non-blocking (cudaStreamNonBlocking). Per pass and stream,
 * ROUNDS rounds of a tiny H2D copy (ELEMS uint32 from pinned memory), a one-block kernel and a tiny D2H copy, each
 * round on its own slice of memory, so nothing is reused within a pass: 3 * 32 * ROUNDS operations per pass
 * (105,600 with the default 1100 rounds). Every pass's every output element is checked on the host. --passes N
 * repeats the whole (so that `record --live` has seconds to show); --pause-ms M sleeps between passes.
 *
 * usage: many_ops_app [--rounds N] [--passes N] [--elements N] [--pause-ms M]
 * Output: one line
 *   MANY_OPS_APP streams=32 blocking=16 nonblocking=16 passes=P ops=O kernels=K h2d=N d2h=N verified=1 wall_ms=W
 *   device=NAME
 * Exit status: 0 verified, 1 a result was wrong, 2 a CUDA error, 64 bad arguments. */
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <thread>

#define CHECK(call)                                                                                                    \
	do {                                                                                                           \
		cudaError_t err_ = (call);                                                                             \
		if (err_ != cudaSuccess) {                                                                             \
			fprintf(stderr, "many_ops_app: %s: %s (%s:%d)\n", #call, cudaGetErrorString(err_), __FILE__,   \
			        __LINE__);                                                                             \
			exit(2);                                                                                       \
		}                                                                                                      \
	} while (0)

#define STREAMS 32

/* What the kernel makes of an element: the same on host and device. */
__host__ __device__ static inline uint32_t many_ops_f(uint32_t v, uint32_t round)
{
	v = v * 1664525u + 1013904223u;
	return (v ^ (v >> 13)) + round;
}

__global__ void many_ops_kernel(const uint32_t *in, uint32_t *out, int n, uint32_t round)
{
	int i = threadIdx.x;

	if (i < n)
		out[i] = many_ops_f(in[i], round);
}

static long many_ops_arg(const char *name, const char *v, long lo, long hi)
{
	char *end;
	long x = strtol(v, &end, 10);

	if (*v == '\0' || *end != '\0' || x < lo || x > hi) {
		fprintf(stderr, "many_ops_app: %s wants a number in %ld..%ld, not '%s'\n", name, lo, hi, v);
		exit(64);
	}
	return x;
}

int main(int argc, char **argv)
{
	int rounds = 1100, passes = 1, elems = 64, pause_ms = 0;
	long kernels = 0, h2d = 0, d2h = 0, bad = 0;
	cudaDeviceProp prop;
	cudaStream_t s[STREAMS];

	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--rounds") == 0)
			rounds = (int)many_ops_arg("--rounds", argv[++i], 1, 100000);
		else if (i + 1 < argc && strcmp(argv[i], "--passes") == 0)
			passes = (int)many_ops_arg("--passes", argv[++i], 1, 10000);
		else if (i + 1 < argc && strcmp(argv[i], "--elements") == 0)
			elems = (int)many_ops_arg("--elements", argv[++i], 1, 1024);
		else if (i + 1 < argc && strcmp(argv[i], "--pause-ms") == 0)
			pause_ms = (int)many_ops_arg("--pause-ms", argv[++i], 0, 60000);
		else {
			fprintf(stderr,
			        "usage: many_ops_app [--rounds N] [--passes N] [--elements N] [--pause-ms M]\n");
			return 64;
		}
	}
	CHECK(cudaSetDevice(0));
	CHECK(cudaGetDeviceProperties(&prop, 0));
	for (int i = 0; i < STREAMS; i++) {
		if (i % 2 == 0)
			CHECK(cudaStreamCreate(&s[i]));
		else
			CHECK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
	}

	size_t per = (size_t)rounds * (size_t)elems; /* elements per stream */
	size_t all = STREAMS * per;
	uint32_t *h_in, *h_out, *d_in, *d_out;

	CHECK(cudaMallocHost(&h_in, all * sizeof(uint32_t)));
	CHECK(cudaMallocHost(&h_out, all * sizeof(uint32_t)));
	CHECK(cudaMalloc(&d_in, all * sizeof(uint32_t)));
	CHECK(cudaMalloc(&d_out, all * sizeof(uint32_t)));
	auto t0 = std::chrono::steady_clock::now();
	for (int p = 0; p < passes; p++) {
		for (size_t k = 0; k < all; k++) {
			h_in[k] = (uint32_t)((k + (size_t)p * 7919u) * 2654435761u);
			h_out[k] = 0xdeadbeefu;
		}
		/* round-robin over the streams, so that all 32 have work at once */
		for (int r = 0; r < rounds; r++) {
			for (int i = 0; i < STREAMS; i++) {
				size_t off = (size_t)i * per + (size_t)r * (size_t)elems;

				CHECK(cudaMemcpyAsync(d_in + off, h_in + off, (size_t)elems * sizeof(uint32_t),
				                      cudaMemcpyHostToDevice, s[i]));
				many_ops_kernel<<<1, elems, 0, s[i]>>>(d_in + off, d_out + off, elems, (uint32_t)r);
				CHECK(cudaGetLastError());
				CHECK(cudaMemcpyAsync(h_out + off, d_out + off, (size_t)elems * sizeof(uint32_t),
				                      cudaMemcpyDeviceToHost, s[i]));
				h2d++;
				kernels++;
				d2h++;
			}
		}
		CHECK(cudaDeviceSynchronize());
		for (int i = 0; i < STREAMS; i++) {
			for (int r = 0; r < rounds; r++) {
				for (int e = 0; e < elems; e++) {
					size_t k = (size_t)i * per + (size_t)r * (size_t)elems + (size_t)e;
					uint32_t want = many_ops_f(h_in[k], (uint32_t)r);

					if (h_out[k] != want) {
						if (bad < 10)
							fprintf(
							    stderr,
							    "many_ops_app: pass %d stream %d round %d element %d: %u, "
							    "want %u\n",
							    p, i, r, e, h_out[k], want);
						bad++;
					}
				}
			}
		}
		if (pause_ms > 0 && p + 1 < passes)
			std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
	}
	double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
	for (int i = 0; i < STREAMS; i++)
		CHECK(cudaStreamDestroy(s[i]));
	CHECK(cudaFreeHost(h_in));
	CHECK(cudaFreeHost(h_out));
	CHECK(cudaFree(d_in));
	CHECK(cudaFree(d_out));
	printf("MANY_OPS_APP streams=%d blocking=%d nonblocking=%d passes=%d ops=%ld kernels=%ld h2d=%ld d2h=%ld "
	       "verified=%d wall_ms=%.1f device=%s\n",
	       STREAMS, STREAMS / 2, STREAMS / 2, passes, kernels + h2d + d2h, kernels, h2d, d2h, bad == 0, wall_ms,
	       prop.name);
	return bad == 0 ? 0 : 1;
}
