/* ref_kernel_transfer.cu: document 001's kernel-transfer.cu (../shared/seeds/001_*.txt), written plainly from its
 * text: the reference `streamscope bench` holds the kernel-transfer preset to. Only cudart; no streamscope code.
 *
 * What it runs, as the document does: N = 2^22 floats (real = float); x filled with 1.23 and y with 2.34 in pinned
 * memory (cudaMallocHost), x, y and z in device memory; the 128 streams (MAX_NUM_STREAMS) created once with
 * cudaStreamCreate (blocking); for each stream count num, N1 = N / num elements and M1 = M / num bytes a stream, and
 * NUM_REPEATS + 1 repeats, repeat 0 a warm-up left out of the times: two events made, start recorded on the legacy
 * default stream, cudaEventQuery(start), then for each stream i in turn the H2D of x and of y, add<<<(N1 - 1) / 128
 * + 1, 128>>> and the D2H of z, all at offset i * N1, stop recorded on the legacy default stream,
 * cudaEventSynchronize(stop) and cudaEventElapsedTime(start, stop). The add kernel stores x[n] + y[n] into z[n] 400
 * times (const real *x, const real *y, real *z, int N; no __restrict__), so each pass reloads x[n] and y[n].
 *
 * What it adds to the document, none of it inside the timed interval: before a count's repeats, h_z and d_z are
 * zeroed, and after them z is checked against x + y on the host (the document checks nothing), so a copy or a kernel
 * that did not run fails the check; after each repeat's cudaEventSynchronize(stop), cudaGetLastError, so a launch
 * that failed is an error; each timed repeat is printed instead of the document's mean (bench takes the median).
 *
 * The other issue order, breadth, is not the document's loop but the same calls regrouped, as streamscope's
 * --order breadth issues them: the H2Ds of x and y of every stream in turn, then every stream's add, then every
 * stream's D2H of z. The calls, their streams, sizes, offsets and launch shapes are the document's.
 *
 * Usage: ref_kernel_transfer [--order depth|breadth] [COUNT...]: stream counts, each a power of two 1..128 (so that
 * N1 * num = N); by default the document's sweep 1 2 4 8 16 32 64 128; the order by default depth, the document's.
 * At a count that does not divide N (20, which `streamscope claims` runs) the document's N1 = N / num would leave
 * the last N - num * N1 elements unprocessed, while the kernel-transfer preset's sdiv chunks cover them (`streamscope
 * ops --streams 20` says so): the program takes only the counts where the two issue the same calls.
 * Run with the environment's CUDA_DEVICE_MAX_CONNECTIONS (bench sets the preset's).
 *
 * Output on stdout, one line each, a stable format (bench parses it: src/run/refrun.h):
 *   ref=kernel-transfer streams=NUM order=ORDER repeat=R ms=T    each timed repeat R = 1..10, T its event time in ms
 *   ref=kernel-transfer verified=1                               last, when every count's z was right
 * order=depth is streamscope's name for the document's issue order (each stream's copies and kernel in turn).
 * Errors: one line on stderr naming the CUDA call and its error, exit 1; a wrong z: "verified=0" on stdout, the
 * element on stderr, exit 1; a bad argument: usage on stderr, exit 2. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef float real;

const int NUM_REPEATS = 10;
const int N = 1 << 22; /* the elements summed */
const int M = sizeof(real) * N;
const int MAX_NUM_STREAMS = 128; /* the most streams a count may use */
cudaStream_t streams[MAX_NUM_STREAMS];

/* CHECK(call): the document's error.cuh, in one line: the call's text and CUDA's words on stderr, exit 1. */
#define CHECK(call)                                                                                                    \
	do {                                                                                                           \
		const cudaError_t error_code = call;                                                                   \
		if (error_code != cudaSuccess) {                                                                       \
			fprintf(stderr, "ref_kernel_transfer: %s: %s (%s)\n", #call, cudaGetErrorString(error_code),   \
			        cudaGetErrorName(error_code));                                                         \
			exit(1);                                                                                       \
		}                                                                                                      \
	} while (0)

/* The document's kernel: z[n] = x[n] + y[n], stored 400 times so that its time is about that of the copies. */
void __global__ add(const real *x, const real *y, real *z, int N)
{
	const int n = blockDim.x * blockIdx.x + threadIdx.x;
	if (n < N) {
		for (int i = 0; i < 400; ++i) {
			z[n] = x[n] + y[n];
		}
	}
}

/* The document's timing(): num streams, repeat 0 a warm-up, repeats 1..NUM_REPEATS printed one line each; breadth:
 * the same calls in breadth-first order (every stream's H2Ds, then the kernels, then the D2Hs). */
static void timing(const real *h_x, const real *h_y, real *h_z, real *d_x, real *d_y, real *d_z, const int num,
                   bool breadth)
{
	int N1 = N / num; /* elements a stream */
	int M1 = M / num; /* bytes a stream */
	int block_size = 128;
	int grid_size = (N1 - 1) / block_size + 1;

	for (int repeat = 0; repeat <= NUM_REPEATS; ++repeat) {
		cudaEvent_t start, stop;
		CHECK(cudaEventCreate(&start));
		CHECK(cudaEventCreate(&stop));
		CHECK(cudaEventRecord(start));
		cudaEventQuery(start); /* the document's: submits the start event, its result not needed */

		if (!breadth) {
			for (int i = 0; i < num; i++) {
				int offset = i * N1;
				CHECK(cudaMemcpyAsync(d_x + offset, h_x + offset, M1, cudaMemcpyHostToDevice,
				                      streams[i]));
				CHECK(cudaMemcpyAsync(d_y + offset, h_y + offset, M1, cudaMemcpyHostToDevice,
				                      streams[i]));
				add<<<grid_size, block_size, 0, streams[i]>>>(d_x + offset, d_y + offset, d_z + offset,
				                                              N1);
				CHECK(cudaMemcpyAsync(h_z + offset, d_z + offset, M1, cudaMemcpyDeviceToHost,
				                      streams[i]));
			}
		} else {
			for (int i = 0; i < num; i++) {
				int offset = i * N1;
				CHECK(cudaMemcpyAsync(d_x + offset, h_x + offset, M1, cudaMemcpyHostToDevice,
				                      streams[i]));
				CHECK(cudaMemcpyAsync(d_y + offset, h_y + offset, M1, cudaMemcpyHostToDevice,
				                      streams[i]));
			}
			for (int i = 0; i < num; i++) {
				int offset = i * N1;
				add<<<grid_size, block_size, 0, streams[i]>>>(d_x + offset, d_y + offset, d_z + offset,
				                                              N1);
			}
			for (int i = 0; i < num; i++) {
				int offset = i * N1;
				CHECK(cudaMemcpyAsync(h_z + offset, d_z + offset, M1, cudaMemcpyDeviceToHost,
				                      streams[i]));
			}
		}

		CHECK(cudaEventRecord(stop));
		CHECK(cudaEventSynchronize(stop));
		float elapsed_time;
		CHECK(cudaEventElapsedTime(&elapsed_time, start, stop));
		CHECK(cudaGetLastError()); /* a launch that failed (after the timed interval) */
		if (repeat > 0)
			printf("ref=kernel-transfer streams=%d order=%s repeat=%d ms=%.6f\n", num,
			       breadth ? "breadth" : "depth", repeat, (double)elapsed_time);
		CHECK(cudaEventDestroy(start));
		CHECK(cudaEventDestroy(stop));
	}
	fflush(stdout);
}

/* Whether z == x + y over the whole array (float addition, as the kernel's); reports the first wrong element. */
static bool verify(const real *h_x, const real *h_y, const real *h_z, int num)
{
	for (int n = 0; n < N; ++n) {
		real want = h_x[n] + h_y[n];
		if (h_z[n] != want) {
			fprintf(stderr, "ref_kernel_transfer: %d streams: z[%d] = %g, expected %g + %g = %g\n", num, n,
			        (double)h_z[n], (double)h_x[n], (double)h_y[n], (double)want);
			return false;
		}
	}
	return true;
}

/* The stream count argument s: a power of two 1..MAX_NUM_STREAMS, else -1. */
static int parse_count(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end != '\0' || v < 1 || v > MAX_NUM_STREAMS || (v & (v - 1)) != 0)
		return -1;
	return (int)v;
}

int main(int argc, char **argv)
{
	enum { MAX_COUNTS = 64 };
	int counts[MAX_COUNTS], ncounts = 0, first = 1;
	bool breadth = false;

	if (argc > 1 && strcmp(argv[1], "--order") == 0) {
		if (argc < 3 || (strcmp(argv[2], "depth") != 0 && strcmp(argv[2], "breadth") != 0)) {
			fprintf(stderr,
			        "usage: ref_kernel_transfer [--order depth|breadth] [COUNT...]: '%s' is not an "
			        "order (depth or breadth)\n",
			        argc < 3 ? "" : argv[2]);
			return 2;
		}
		breadth = strcmp(argv[2], "breadth") == 0;
		first = 3;
	}
	if (argc - first > MAX_COUNTS) {
		fprintf(stderr, "usage: ref_kernel_transfer [--order depth|breadth] [COUNT...]: at most %d counts\n",
		        MAX_COUNTS);
		return 2;
	}
	for (int a = first; a < argc; a++) {
		if ((counts[ncounts++] = parse_count(argv[a])) < 0) {
			fprintf(stderr,
			        "usage: ref_kernel_transfer [--order depth|breadth] [COUNT...]: '%s' is not a stream "
			        "count (a power of two 1..%d)\n",
			        argv[a], MAX_NUM_STREAMS);
			return 2;
		}
	}
	if (ncounts == 0)
		for (int num = 1; num <= MAX_NUM_STREAMS; num *= 2)
			counts[ncounts++] = num; /* the document's sweep */

	real *h_x, *h_y, *h_z;
	CHECK(cudaMallocHost(&h_x, M)); /* pinned ("non-pageable") host memory */
	CHECK(cudaMallocHost(&h_y, M));
	CHECK(cudaMallocHost(&h_z, M));
	for (int n = 0; n < N; ++n) {
		h_x[n] = 1.23;
		h_y[n] = 2.34;
	}
	real *d_x, *d_y, *d_z;
	CHECK(cudaMalloc(&d_x, M));
	CHECK(cudaMalloc(&d_y, M));
	CHECK(cudaMalloc(&d_z, M));
	for (int i = 0; i < MAX_NUM_STREAMS; i++) {
		CHECK(cudaStreamCreate(&(streams[i])));
	}

	bool ok = true;
	for (int c = 0; c < ncounts && ok; c++) {
		memset(h_z, 0, M);
		CHECK(cudaMemset(d_z, 0, M));
		CHECK(cudaDeviceSynchronize());
		timing(h_x, h_y, h_z, d_x, d_y, d_z, counts[c], breadth);
		ok = verify(h_x, h_y, h_z, counts[c]);
	}
	printf("ref=kernel-transfer verified=%d\n", ok ? 1 : 0);
	fflush(stdout);

	for (int i = 0; i < MAX_NUM_STREAMS; i++) {
		CHECK(cudaStreamDestroy(streams[i]));
	}
	CHECK(cudaFreeHost(h_x));
	CHECK(cudaFreeHost(h_y));
	CHECK(cudaFreeHost(h_z));
	CHECK(cudaFree(d_x));
	CHECK(cudaFree(d_y));
	CHECK(cudaFree(d_z));
	return ok ? 0 : 1;
}
