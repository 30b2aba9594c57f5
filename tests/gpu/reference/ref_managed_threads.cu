/* ref_managed_threads.cu: document 004's run_task (../shared/seeds/004_*.txt), managed memory attached to a stream
 * and one host thread per task, written plainly from its text. Only cudart; no streamscope code.
 *
 * What it runs, as the document does, in each of TASKS host threads at once (std::thread): run_task(in, out,
 * length): its own stream (cudaStreamCreate), data = cudaMallocManaged(length ints, cudaMemAttachHost),
 * cudaStreamAttachMemAsync(stream, data), cudaStreamSynchronize(stream); then N times: transform<<<100, 256, 0,
 * stream>>>(in, data, length), cudaStreamSynchronize(stream), host_process(data, length) on the host,
 * convert<<<100, 256, 0, stream>>>(out, data, length); then cudaStreamSynchronize(stream), cudaStreamDestroy and
 * cudaFree(data). The document allocates `length` bytes for what its kernels index as `length` ints; here the
 * allocation is length * sizeof(int).
 *
 * The document does not define transform, convert, host_process, in or out. Here, with grid-stride loops:
 * transform sets data[i] = 2 * in[i], host_process adds 1 to every data[i], convert adds data[i] to out[i]; in and
 * out are each task's own device arrays (cudaMalloc), in[i] = (i + task) % 1000 and out zeroed before each repeat,
 * so after N iterations out[i] = N * (2 * in[i] + 1): a kernel, a host pass or an attachment that did not take
 * effect gives another value.
 *
 * What is timed: one host clock (std::chrono::steady_clock) over the document's work on its data, as the preset
 * times it (its set-up of streams and managed memory is not in its makespan): every thread makes its stream and
 * its allocation, then waits at a start line until all have; the clock starts as they are let go, and stops when
 * the last thread's final cudaStreamSynchronize returns (each thread destroys its stream and frees its data after
 * that). The start line and the clock are what is added to the document's run_task. Repeats: one warm-up, then REPEATS
 * timed ones; after each (outside the timed interval) each task's out is copied back and checked against its closed
 * form.
 *
 * Usage: ref_managed_threads [TASKS [N [LENGTH [REPEATS]]]]: TASKS 1..128 (default 4), N iterations 1..1000
 * (default 8), LENGTH ints a task 1..2^28 (default 2^22), REPEATS 1..1000 (default 3).
 *
 * Output on stdout, one line each, a stable format (src/run/refrun.h parses it):
 *   ref=managed-threads streams=TASKS order=depth repeat=R ms=T    each timed repeat, T its host time in ms
 *   ref=managed-threads verified=1                                  last, when every repeat's out was right
 * streams is the task count (a stream each); order=depth: each thread issues its own stream's work in program
 * order. Errors: one line on stderr naming the CUDA call and its error, exit 1 (from whichever thread met it); a
 * wrong out: "verified=0" on stdout, the element on stderr, exit 1; a bad argument: usage on stderr, exit 2. */
#include <chrono>
#include <condition_variable>
#include <cuda_runtime.h>
#include <mutex>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thread>
#include <vector>

/* CHECK(call): the call's text and CUDA's words on stderr, then the process ends with status 1 at once (other
 * threads may be inside CUDA calls: no exit handlers run). */
#define CHECK(call)                                                                                                    \
	do {                                                                                                           \
		const cudaError_t error_code = call;                                                                   \
		if (error_code != cudaSuccess) {                                                                       \
			fprintf(stderr, "ref_managed_threads: %s: %s (%s)\n", #call, cudaGetErrorString(error_code),   \
			        cudaGetErrorName(error_code));                                                         \
			fflush(stdout);                                                                                \
			_Exit(1);                                                                                      \
		}                                                                                                      \
	} while (0)

static int N = 8; /* the document's iteration count */

/* data[i] = 2 * in[i] (grid-stride). */
__global__ void transform(const int *in, int *data, int length)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < length; i += blockDim.x * gridDim.x)
		data[i] = 2 * in[i];
}

/* out[i] += data[i] (grid-stride). */
__global__ void convert(int *out, const int *data, int length)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < length; i += blockDim.x * gridDim.x)
		out[i] += data[i];
}

/* The host's share of the work on the managed data: data[i] += 1. */
static void host_process(int *data, int length)
{
	for (int i = 0; i < length; i++)
		data[i] += 1;
}

typedef std::chrono::steady_clock::time_point when;

/* The start line: the threads that have made their stream and data, and the word to go. */
static std::mutex line_lock;
static std::condition_variable line_cv;
static long line_ready, line_want;
static bool line_go;

/* at_start_line: this thread is set up; returns once every thread is and main has let them go. */
static void at_start_line(void)
{
	std::unique_lock<std::mutex> l(line_lock);
	line_ready++;
	line_cv.notify_all();
	line_cv.wait(l, [] { return line_go; });
}

/* The document's run_task: a task in its own private stream, on managed data attached to it; *done is when its
 * work was over (its final cudaStreamSynchronize returned). */
static void run_task(int *in, int *out, int length, when *done)
{
	cudaStream_t stream;
	CHECK(cudaStreamCreate(&stream));
	int *data;
	CHECK(cudaMallocManaged((void **)&data, length * sizeof(int), cudaMemAttachHost));
	at_start_line();
	CHECK(cudaStreamAttachMemAsync(stream, data));
	CHECK(cudaStreamSynchronize(stream));
	for (int i = 0; i < N; i++) {
		transform<<<100, 256, 0, stream>>>(in, data, length);
		CHECK(cudaStreamSynchronize(stream));
		host_process(data, length);
		convert<<<100, 256, 0, stream>>>(out, data, length);
	}
	CHECK(cudaStreamSynchronize(stream));
	*done = std::chrono::steady_clock::now();
	CHECK(cudaGetLastError()); /* this thread's launches */
	CHECK(cudaStreamDestroy(stream));
	CHECK(cudaFree(data));
}

/* A whole-number argument in [lo, hi], else -1. */
static long parse_number(const char *s, long lo, long hi)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end == s || *end != '\0' || v < lo || v > hi ? -1 : v;
}

int main(int argc, char **argv)
{
	long tasks = argc > 1 ? parse_number(argv[1], 1, 128) : 4;
	long iters = argc > 2 ? parse_number(argv[2], 1, 1000) : 8;
	long length = argc > 3 ? parse_number(argv[3], 1, 1L << 28) : 1L << 22;
	long repeats = argc > 4 ? parse_number(argv[4], 1, 1000) : 3;

	if (tasks < 0 || iters < 0 || length < 0 || repeats < 0 || argc > 5) {
		fprintf(stderr,
		        "usage: ref_managed_threads [TASKS [N [LENGTH [REPEATS]]]]: TASKS 1..128, N 1..1000, "
		        "LENGTH 1..%ld, REPEATS 1..1000\n",
		        1L << 28);
		return 2;
	}
	N = (int)iters;

	std::vector<int *> in(tasks), out(tasks);
	std::vector<int> h_in(length), h_out(length);
	for (long t = 0; t < tasks; t++) {
		CHECK(cudaMalloc(&in[t], length * sizeof(int)));
		CHECK(cudaMalloc(&out[t], length * sizeof(int)));
		for (long i = 0; i < length; i++)
			h_in[i] = (int)((i + t) % 1000);
		CHECK(cudaMemcpy(in[t], h_in.data(), length * sizeof(int), cudaMemcpyHostToDevice));
	}

	bool ok = true;
	for (long repeat = 0; repeat <= repeats && ok; repeat++) {
		for (long t = 0; t < tasks; t++)
			CHECK(cudaMemset(out[t], 0, length * sizeof(int)));
		CHECK(cudaDeviceSynchronize());

		std::vector<std::thread> threads;
		std::vector<when> done(tasks);
		line_ready = 0;
		line_want = tasks;
		line_go = false;
		for (long t = 0; t < tasks; t++)
			threads.emplace_back(run_task, in[t], out[t], (int)length, &done[t]);
		when t0;
		{
			std::unique_lock<std::mutex> l(line_lock);
			line_cv.wait(l, [] { return line_ready == line_want; });
			t0 = std::chrono::steady_clock::now();
			line_go = true;
			line_cv.notify_all();
		}
		for (auto &th : threads)
			th.join();
		when t1 = done[0];
		for (long t = 1; t < tasks; t++)
			t1 = done[t] > t1 ? done[t] : t1;

		for (long t = 0; t < tasks && ok; t++) {
			CHECK(cudaMemcpy(h_out.data(), out[t], length * sizeof(int), cudaMemcpyDeviceToHost));
			for (long i = 0; i < length; i++) {
				int want = N * (2 * (int)((i + t) % 1000) + 1);
				if (h_out[i] != want) {
					fprintf(stderr, "ref_managed_threads: task %ld: out[%ld] = %d, expected %d\n",
					        t, i, h_out[i], want);
					ok = false;
					break;
				}
			}
		}
		if (repeat > 0 && ok)
			printf("ref=managed-threads streams=%ld order=depth repeat=%ld ms=%.6f\n", tasks, repeat,
			       std::chrono::duration<double, std::milli>(t1 - t0).count());
		fflush(stdout);
	}
	printf("ref=managed-threads verified=%d\n", ok ? 1 : 0);
	fflush(stdout);

	for (long t = 0; t < tasks; t++) {
		CHECK(cudaFree(in[t]));
		CHECK(cudaFree(out[t]));
	}
	return ok ? 0 : 1;
}
