/* ref_vector_add.cu: document 003's two-stream vectorAdd (../shared/seeds/003_*.txt), in its two issue orders,
 * written plainly from its text: the reference `streamscope bench` holds the vector-add preset to. Only cudart; no
 * streamscope code.
 *
 * What it runs, as the document does: h_A, h_B and h_C in pinned memory (cudaMallocHost), REAL = float; chunk =
 * half the data in bytes, rounded down to whole elements, and tail = the rest (one element for an odd count), so that
 * stream 1 takes [0, chunk) and stream 2 [chunk, 2 * chunk + tail); d_A, d_B, d_C of chunk bytes and d_A2, d_B2,
 * d_C2 of chunk + tail; two blocking streams (cudaStreamCreate); vectorAdd C[i] = A[i] + B[i] with 256 threads a
 * block; the calls in one of the document's two orders, exactly as written there:
 *   best:   H2D A1, H2D B1 (stream 1), H2D A2 (stream 2), vectorAdd 1, H2D B2, vectorAdd 2, D2H C1, D2H C2
 *   weaker: H2D A1, H2D B1, H2D A2, H2D B2, vectorAdd 2, vectorAdd 1, D2H C1, D2H C2
 * then cudaStreamSynchronize(stream1) and cudaStreamSynchronize(stream2). The document does not show how
 * blocksPerGrid is computed; it passes the same blocksPerGrid to both launches, so here it covers the larger
 * (stream 2's chunk + tail): ceil((chunk + tail) / sizeof(REAL) / 256) blocks. The document's printf between the
 * kernels and the output copies is left out (it would break this program's output format).
 *
 * What is timed: two cudaEvents on the legacy default stream, start recorded just before the first copy, stop after
 * cudaStreamSynchronize(stream2), then cudaEventSynchronize(stop); the streams are created before the repeats.
 * Repeats: one warm-up, then REPEATS timed ones; before each (outside the timed interval) h_C, d_C and d_C2 are
 * zeroed, and after each cudaGetLastError and C == A + B on the host (the document checks nothing), so a copy or a
 * kernel that did not run fails the check.
 *
 * Usage: ref_vector_add [ORDER [ELEMENTS [REPEATS]]]: ORDER best|weaker (default best), ELEMENTS 2..2^30 (default
 * 2^24 + 1, what streamscope's vector-add preset uses), REPEATS 1..1000 (default 3).
 *
 * Output on stdout, one line each, a stable format (bench parses it: src/run/refrun.h):
 *   ref=vector-add streams=2 order=ORDER repeat=R ms=T    each timed repeat R = 1..REPEATS, T its event time in ms
 *   ref=vector-add verified=1                             last, when every repeat's C was right
 * Errors: one line on stderr naming the CUDA call and its error, exit 1; a wrong C: "verified=0" on stdout, the
 * element on stderr, exit 1; a bad argument: usage on stderr, exit 2. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef float REAL;

/* HANDLE_ERROR(call): the call's text and CUDA's words on stderr, exit 1. */
#define HANDLE_ERROR(call)                                                                                             \
	do {                                                                                                           \
		const cudaError_t error_code = call;                                                                   \
		if (error_code != cudaSuccess) {                                                                       \
			fprintf(stderr, "ref_vector_add: %s: %s (%s)\n", #call, cudaGetErrorString(error_code),        \
			        cudaGetErrorName(error_code));                                                         \
			exit(1);                                                                                       \
		}                                                                                                      \
	} while (0)

/* The CUDA sample's vectorAdd: C[i] = A[i] + B[i] for i < numElements. */
__global__ void vectorAdd(const REAL *A, const REAL *B, REAL *C, int numElements)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < numElements)
		C[i] = A[i] + B[i];
}

/* A whole-number argument in [lo, hi], else -1. */
static long parse_number(const char *s, long lo, long hi)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end == s || *end != '\0' || v < lo || v > hi ? -1 : v;
}

/* Whether C == A + B over all n elements (float addition, as the kernel's); reports the first wrong one. */
static bool verify(const REAL *h_A, const REAL *h_B, const REAL *h_C, long n)
{
	for (long i = 0; i < n; i++) {
		REAL want = h_A[i] + h_B[i];
		if (h_C[i] != want) {
			fprintf(stderr, "ref_vector_add: C[%ld] = %g, expected %g + %g = %g\n", i, (double)h_C[i],
			        (double)h_A[i], (double)h_B[i], (double)want);
			return false;
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	const char *order = argc > 1 ? argv[1] : "best";
	long numElements = argc > 2 ? parse_number(argv[2], 2, 1L << 30) : (1L << 24) + 1;
	long repeats = argc > 3 ? parse_number(argv[3], 1, 1000) : 3;
	bool best = strcmp(order, "best") == 0;

	if ((!best && strcmp(order, "weaker") != 0) || numElements < 0 || repeats < 0 || argc > 4) {
		fprintf(stderr,
		        "usage: ref_vector_add [ORDER [ELEMENTS [REPEATS]]]: ORDER best|weaker, ELEMENTS "
		        "2..%ld, REPEATS 1..1000\n",
		        1L << 30);
		return 2;
	}

	size_t size = numElements * sizeof(REAL);
	size_t chunk = (numElements / 2) * sizeof(REAL); /* half the bytes, whole elements */
	size_t tail = size - 2 * chunk;
	REAL *h_A, *h_B, *h_C;
	HANDLE_ERROR(cudaMallocHost(&h_A, size));
	HANDLE_ERROR(cudaMallocHost(&h_B, size));
	HANDLE_ERROR(cudaMallocHost(&h_C, size));
	for (long i = 0; i < numElements; i++) {
		h_A[i] = (REAL)(i % 1024) * 0.25f;
		h_B[i] = (REAL)(i % 7);
	}
	REAL *d_A, *d_B, *d_C, *d_A2, *d_B2, *d_C2;
	HANDLE_ERROR(cudaMalloc(&d_A, chunk));
	HANDLE_ERROR(cudaMalloc(&d_B, chunk));
	HANDLE_ERROR(cudaMalloc(&d_C, chunk));
	HANDLE_ERROR(cudaMalloc(&d_A2, chunk + tail));
	HANDLE_ERROR(cudaMalloc(&d_B2, chunk + tail));
	HANDLE_ERROR(cudaMalloc(&d_C2, chunk + tail));
	cudaStream_t stream1, stream2;
	HANDLE_ERROR(cudaStreamCreate(&stream1));
	HANDLE_ERROR(cudaStreamCreate(&stream2));
	cudaEvent_t start, stop;
	HANDLE_ERROR(cudaEventCreate(&start));
	HANDLE_ERROR(cudaEventCreate(&stop));
	int threadsPerBlock = 256;
	int blocksPerGrid = (int)(((chunk + tail) / sizeof(REAL) + threadsPerBlock - 1) / threadsPerBlock);

	bool ok = true;
	for (long repeat = 0; repeat <= repeats && ok; repeat++) {
		memset(h_C, 0, size);
		HANDLE_ERROR(cudaMemset(d_C, 0, chunk));
		HANDLE_ERROR(cudaMemset(d_C2, 0, chunk + tail));
		HANDLE_ERROR(cudaDeviceSynchronize());

		HANDLE_ERROR(cudaEventRecord(start));
		if (best) {
			HANDLE_ERROR(cudaMemcpyAsync(d_A, h_A, chunk, cudaMemcpyHostToDevice, stream1));
			HANDLE_ERROR(cudaMemcpyAsync(d_B, h_B, chunk, cudaMemcpyHostToDevice, stream1));

			HANDLE_ERROR(
			    cudaMemcpyAsync(d_A2, (char *)h_A + chunk, chunk + tail, cudaMemcpyHostToDevice, stream2));
			vectorAdd<<<blocksPerGrid, threadsPerBlock, 0, stream1>>>(d_A, d_B, d_C,
			                                                          (chunk) / sizeof(REAL));
			HANDLE_ERROR(
			    cudaMemcpyAsync(d_B2, (char *)h_B + chunk, chunk + tail, cudaMemcpyHostToDevice, stream2));

			vectorAdd<<<blocksPerGrid, threadsPerBlock, 0, stream2>>>(d_A2, d_B2, d_C2,
			                                                          (chunk + tail) / sizeof(REAL));

			HANDLE_ERROR(cudaMemcpyAsync(h_C, d_C, chunk, cudaMemcpyDeviceToHost, stream1));
			HANDLE_ERROR(
			    cudaMemcpyAsync((char *)h_C + chunk, d_C2, chunk + tail, cudaMemcpyDeviceToHost, stream2));
		} else {
			HANDLE_ERROR(cudaMemcpyAsync(d_A, h_A, chunk, cudaMemcpyHostToDevice, stream1));
			HANDLE_ERROR(cudaMemcpyAsync(d_B, h_B, chunk, cudaMemcpyHostToDevice, stream1));

			HANDLE_ERROR(
			    cudaMemcpyAsync(d_A2, (char *)h_A + chunk, chunk + tail, cudaMemcpyHostToDevice, stream2));

			HANDLE_ERROR(
			    cudaMemcpyAsync(d_B2, (char *)h_B + chunk, chunk + tail, cudaMemcpyHostToDevice, stream2));

			vectorAdd<<<blocksPerGrid, threadsPerBlock, 0, stream2>>>(d_A2, d_B2, d_C2,
			                                                          (chunk + tail) / sizeof(REAL));
			vectorAdd<<<blocksPerGrid, threadsPerBlock, 0, stream1>>>(d_A, d_B, d_C,
			                                                          (chunk) / sizeof(REAL));
			HANDLE_ERROR(cudaMemcpyAsync(h_C, d_C, chunk, cudaMemcpyDeviceToHost, stream1));
			HANDLE_ERROR(
			    cudaMemcpyAsync((char *)h_C + chunk, d_C2, chunk + tail, cudaMemcpyDeviceToHost, stream2));
		}

		HANDLE_ERROR(cudaStreamSynchronize(stream1));
		HANDLE_ERROR(cudaStreamSynchronize(stream2));
		HANDLE_ERROR(cudaEventRecord(stop));
		HANDLE_ERROR(cudaEventSynchronize(stop));
		float ms;
		HANDLE_ERROR(cudaEventElapsedTime(&ms, start, stop));
		HANDLE_ERROR(cudaGetLastError()); /* a launch or a synchronisation that failed */
		ok = verify(h_A, h_B, h_C, numElements);
		if (repeat > 0 && ok)
			printf("ref=vector-add streams=2 order=%s repeat=%ld ms=%.6f\n", order, repeat, (double)ms);
		fflush(stdout);
	}
	printf("ref=vector-add verified=%d\n", ok ? 1 : 0);
	fflush(stdout);

	HANDLE_ERROR(cudaEventDestroy(start));
	HANDLE_ERROR(cudaEventDestroy(stop));
	HANDLE_ERROR(cudaStreamDestroy(stream2));
	HANDLE_ERROR(cudaStreamDestroy(stream1));
	HANDLE_ERROR(cudaFreeHost(h_A));
	HANDLE_ERROR(cudaFreeHost(h_B));
	HANDLE_ERROR(cudaFreeHost(h_C));
	HANDLE_ERROR(cudaFree(d_A));
	HANDLE_ERROR(cudaFree(d_B));
	HANDLE_ERROR(cudaFree(d_C));
	HANDLE_ERROR(cudaFree(d_A2));
	HANDLE_ERROR(cudaFree(d_B2));
	HANDLE_ERROR(cudaFree(d_C2));
	return ok ? 0 : 1;
}
