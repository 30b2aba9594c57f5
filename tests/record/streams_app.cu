/* streams_app.cu: a program that creates 128 streams through every creation call there is, for
 * tests/record/h200_streams.sh (issue 16 item 7: every stream's kind must be known to `streamscope record`).
 *
 * Stream i is made by creation call i % 8 (so each call makes 16 streams; 64 blocking, 64 non-blocking):
 *   0 cudaStreamCreate                                         blocking
 *   1 cudaStreamCreateWithFlags(cudaStreamNonBlocking)         non-blocking
 *   2 cudaStreamCreateWithFlags(cudaStreamDefault)             blocking
 *   3 cudaStreamCreateWithPriority(NonBlocking, greatest)      non-blocking
 *   4 cudaStreamCreateWithPriority(Default, least)             blocking
 *   5 cuStreamCreate(CU_STREAM_NON_BLOCKING)                   non-blocking
 *   6 cuStreamCreateWithPriority(CU_STREAM_DEFAULT, greatest)  blocking
 *   7 cudaStreamCreateWithPriority(NonBlocking, least)         non-blocking
 * The program checks every stream's flags and priority (cudaStreamGetFlags, cudaStreamGetPriority) against what it
 * asked for. On each stream: one cudaMemsetAsync, then ROUNDS rounds of H2D copy, kernel, D2H copy (stream i's
 * kernels do work proportional to i % 16 + 1, so streams differ in busy time); every output element is checked on
 * the host.
 *
 * usage: streams_app [--rounds N] [--elements N]
 * Output: one line
 *   STREAMS_APP streams=128 blocking=64 nonblocking=64 kernels=K h2d=N d2h=N memsets=M verified=1 device=NAME
 * Exit status: 0 verified, 1 a result or a stream's flags were wrong, 2 a CUDA error, 64 bad arguments. */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                                                                    \
	do {                                                                                                           \
		cudaError_t err_ = (call);                                                                             \
		if (err_ != cudaSuccess) {                                                                             \
			fprintf(stderr, "streams_app: %s: %s (%s:%d)\n", #call, cudaGetErrorString(err_), __FILE__,    \
			        __LINE__);                                                                             \
			exit(2);                                                                                       \
		}                                                                                                      \
	} while (0)

#define CHECK_CU(call)                                                                                                 \
	do {                                                                                                           \
		CUresult err_ = (call);                                                                                \
		if (err_ != CUDA_SUCCESS) {                                                                            \
			const char *s_ = NULL;                                                                         \
			cuGetErrorString(err_, &s_);                                                                   \
			fprintf(stderr, "streams_app: %s: %s (%s:%d)\n", #call, s_ ? s_ : "?", __FILE__, __LINE__);    \
			exit(2);                                                                                       \
		}                                                                                                      \
	} while (0)

#define STREAMS 128

/* The hash every element goes through: the same on host and device, integer only. */
__host__ __device__ static inline uint32_t streams_app_mix(uint32_t v, int work)
{
	for (int k = 0; k < work; k++) {
		v = v * 1664525u + 1013904223u;
		v ^= v >> 13;
	}
	return v;
}

__global__ void streams_app_hash(const uint32_t *in, uint32_t *out, size_t n, int work)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = streams_app_mix(in[i], work);
}

static long streams_app_arg(const char *name, const char *v, long lo, long hi)
{
	char *end;
	long x = strtol(v, &end, 10);

	if (*v == '\0' || *end != '\0' || x < lo || x > hi) {
		fprintf(stderr, "streams_app: %s wants a number in %ld..%ld, not '%s'\n", name, lo, hi, v);
		exit(64);
	}
	return x;
}

int main(int argc, char **argv)
{
	int rounds = 4;
	size_t n = 16384; /* elements per round and stream */
	int lo_prio = 0, hi_prio = 0, nblocking = 0, nnonblocking = 0, bad = 0;
	long kernels = 0, h2d = 0, d2h = 0, memsets = 0;
	cudaDeviceProp prop;
	cudaStream_t s[STREAMS];
	bool want_nb[STREAMS];
	int want_prio[STREAMS];

	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--rounds") == 0)
			rounds = (int)streams_app_arg("--rounds", argv[++i], 1, 1000);
		else if (i + 1 < argc && strcmp(argv[i], "--elements") == 0)
			n = (size_t)streams_app_arg("--elements", argv[++i], 1, 1 << 22);
		else {
			fprintf(stderr, "usage: streams_app [--rounds N] [--elements N]\n");
			return 64;
		}
	}
	CHECK(cudaSetDevice(0));
	CHECK(cudaFree(0)); /* the runtime's primary context, current on this thread: cuStreamCreate* use it */
	CHECK(cudaGetDeviceProperties(&prop, 0));
	CHECK(cudaDeviceGetStreamPriorityRange(&lo_prio, &hi_prio));
	for (int i = 0; i < STREAMS; i++) {
		CUstream cs = NULL;

		want_prio[i] = 0;
		switch (i % 8) {
		case 0:
			CHECK(cudaStreamCreate(&s[i]));
			want_nb[i] = false;
			break;
		case 1:
			CHECK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
			want_nb[i] = true;
			break;
		case 2:
			CHECK(cudaStreamCreateWithFlags(&s[i], cudaStreamDefault));
			want_nb[i] = false;
			break;
		case 3:
			CHECK(cudaStreamCreateWithPriority(&s[i], cudaStreamNonBlocking, hi_prio));
			want_nb[i] = true;
			want_prio[i] = hi_prio;
			break;
		case 4:
			CHECK(cudaStreamCreateWithPriority(&s[i], cudaStreamDefault, lo_prio));
			want_nb[i] = false;
			want_prio[i] = lo_prio;
			break;
		case 5:
			CHECK_CU(cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING));
			s[i] = cs;
			want_nb[i] = true;
			break;
		case 6:
			CHECK_CU(cuStreamCreateWithPriority(&cs, CU_STREAM_DEFAULT, hi_prio));
			s[i] = cs;
			want_nb[i] = false;
			want_prio[i] = hi_prio;
			break;
		default:
			CHECK(cudaStreamCreateWithPriority(&s[i], cudaStreamNonBlocking, lo_prio));
			want_nb[i] = true;
			want_prio[i] = lo_prio;
			break;
		}
	}
	/* the streams are what was asked for */
	for (int i = 0; i < STREAMS; i++) {
		unsigned flags = 0;
		int prio = 0;

		CHECK(cudaStreamGetFlags(s[i], &flags));
		CHECK(cudaStreamGetPriority(s[i], &prio));
		if (((flags & cudaStreamNonBlocking) != 0) != want_nb[i] || prio != want_prio[i]) {
			fprintf(stderr, "streams_app: stream %d: flags %u priority %d, asked for %s priority %d\n", i,
			        flags, prio, want_nb[i] ? "non-blocking" : "blocking", want_prio[i]);
			bad++;
		}
		nblocking += !want_nb[i];
		nnonblocking += want_nb[i];
	}

	size_t per = (size_t)rounds * n; /* elements per stream */
	uint32_t *h_in, *h_out, *d_in, *d_out;

	CHECK(cudaMallocHost(&h_in, STREAMS * per * sizeof(uint32_t)));
	CHECK(cudaMallocHost(&h_out, STREAMS * per * sizeof(uint32_t)));
	CHECK(cudaMalloc(&d_in, STREAMS * per * sizeof(uint32_t)));
	CHECK(cudaMalloc(&d_out, STREAMS * per * sizeof(uint32_t)));
	for (size_t k = 0; k < STREAMS * per; k++) {
		h_in[k] = (uint32_t)(k * 2654435761u);
		h_out[k] = 0xdeadbeefu;
	}
	for (int i = 0; i < STREAMS; i++) {
		uint32_t *din = d_in + (size_t)i * per, *dout = d_out + (size_t)i * per;
		int work = i % 16 + 1;

		CHECK(cudaMemsetAsync(dout, 0, per * sizeof(uint32_t), s[i]));
		memsets++;
		for (int r = 0; r < rounds; r++) {
			size_t off = (size_t)r * n;
			unsigned blocks = (unsigned)((n + 255) / 256);

			CHECK(cudaMemcpyAsync(din + off, h_in + (size_t)i * per + off, n * sizeof(uint32_t),
			                      cudaMemcpyHostToDevice, s[i]));
			streams_app_hash<<<blocks, 256, 0, s[i]>>>(din + off, dout + off, n, work * 64);
			CHECK(cudaGetLastError());
			CHECK(cudaMemcpyAsync(h_out + (size_t)i * per + off, dout + off, n * sizeof(uint32_t),
			                      cudaMemcpyDeviceToHost, s[i]));
			h2d++;
			kernels++;
			d2h++;
		}
	}
	CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < STREAMS; i++) {
		int work = i % 16 + 1;

		for (size_t k = 0; k < per; k++) {
			size_t g = (size_t)i * per + k;

			if (h_out[g] != streams_app_mix(h_in[g], work * 64)) {
				if (bad < 10)
					fprintf(stderr, "streams_app: stream %d element %zu: %u, want %u\n", i, k,
					        h_out[g], streams_app_mix(h_in[g], work * 64));
				bad++;
			}
		}
	}
	for (int i = 0; i < STREAMS; i++)
		CHECK(cudaStreamDestroy(s[i]));
	CHECK(cudaFreeHost(h_in));
	CHECK(cudaFreeHost(h_out));
	CHECK(cudaFree(d_in));
	CHECK(cudaFree(d_out));
	printf("STREAMS_APP streams=%d blocking=%d nonblocking=%d kernels=%ld h2d=%ld d2h=%ld memsets=%ld verified=%d "
	       "device=%s\n",
	       STREAMS, nblocking, nnonblocking, kernels, h2d, d2h, memsets, bad == 0, prop.name);
	return bad == 0 ? 0 : 1;
}
