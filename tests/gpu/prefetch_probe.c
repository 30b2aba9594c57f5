/* prefetch_probe.c: H200 diagnostic. Does a cudaMemPrefetchAsync to the device start migrating while its call is
 * still running, when its stream is idle? That decides where a run's cudaEvent timer may start (cuda_exec.c
 * records the start event right after the first op's call; if the migration began inside the call, that event
 * starts the clock late).
 *
 * For each size, REPEATS times each, with the buffer's pages on the host first:
 *   idle:  event e0 on the stream, prefetch, event e1: the call's host duration and e1 - e0;
 *          also an event on an idle non-blocking stream right after the call (the run timer's rule): e1 - that.
 *   gated: a spin kernel first holds the stream, then the same: e1 - e0 is the migration alone, which cannot
 *          start before the kernel ends (stream order), whatever the call does.
 * If idle e1 - e0 is about gated e1 - e0 while the idle call took a good part of it, the migration ran inside the
 * call; if it is about the call plus the gated time, it ran after. Prints one line per measurement and medians.
 * Usage: prefetch_probe [REPEATS] (default 9). Exit 3 on a CUDA error. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "probe.h"

#define PROBE_SPIN_ITER 400000ull /* roughly a millisecond or two of one thread's LCG chain */

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 9;
	const size_t sizes[] = {2u << 20, 64u << 20};
	cudaStream_t s, timer;
	cudaEvent_t e0, e1, ea;
	uint32_t *slot;
	struct cudaMemLocation dev = {.type = cudaMemLocationTypeDevice, .id = 0};
	struct cudaMemLocation host = {.type = cudaMemLocationTypeHost, .id = 0};

	if (reps < 1 || reps > 1000) {
		fprintf(stderr, "prefetch_probe: REPEATS must be 1..1000\n");
		return 2;
	}
	probe_check(cudaSetDevice(0), "cudaSetDevice");
	probe_check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
	probe_check(cudaStreamCreateWithFlags(&timer, cudaStreamNonBlocking), "cudaStreamCreate");
	probe_check(cudaEventCreate(&e0), "cudaEventCreate");
	probe_check(cudaEventCreate(&e1), "cudaEventCreate");
	probe_check(cudaEventCreate(&ea), "cudaEventCreate");
	probe_check(cudaMalloc((void **)&slot, sizeof *slot), "cudaMalloc");
	for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
		char *buf;

		probe_check(cudaMallocManaged((void **)&buf, sizes[z], cudaMemAttachGlobal), "cudaMallocManaged");
		for (int gated = 0; gated <= 1; gated++) {
			double *call = malloc(sizeof(double) * (size_t)reps),
			       *span = malloc(sizeof(double) * (size_t)reps);
			double *after = malloc(sizeof(double) * (size_t)reps);

			if (call == NULL || span == NULL || after == NULL)
				return 3;
			for (int r = -1; r < reps; r++) { /* r = -1: warm-up, not counted */
				double t0, t1;
				float ms;

				probe_check(cudaMemPrefetchAsync(buf, sizes[z], host, 0, s), "prefetch to host");
				probe_check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
				memset(buf, r & 0xff, sizes[z]);
				if (gated)
					probe_check((cudaError_t)kernels_spin_launch(slot, PROBE_SPIN_ITER, s),
					            "spin launch");
				probe_check(cudaEventRecord(e0, s), "cudaEventRecord");
				t0 = probe_now_us();
				probe_check(cudaMemPrefetchAsync(buf, sizes[z], dev, 0, s), "prefetch to device");
				t1 = probe_now_us();
				probe_check(cudaEventRecord(ea, timer), "cudaEventRecord");
				probe_check(cudaEventRecord(e1, s), "cudaEventRecord");
				probe_check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
				probe_check(cudaStreamSynchronize(timer), "cudaStreamSynchronize");
				if (r < 0)
					continue;
				call[r] = t1 - t0;
				probe_check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
				span[r] = ms * 1e3;
				probe_check(cudaEventElapsedTime(&ms, ea, e1), "cudaEventElapsedTime");
				after[r] = ms * 1e3;
				printf("%5zu MiB %-5s rep %2d: call %8.1f us  e1-e0 %8.1f us  e1-(event after call) "
				       "%8.1f us\n",
				       sizes[z] >> 20, gated ? "gated" : "idle", r, call[r], span[r], after[r]);
			}
			printf("%5zu MiB %-5s median of %d: call %8.1f us  e1-e0 %8.1f us  e1-(event after call) %8.1f "
			       "us\n",
			       sizes[z] >> 20, gated ? "gated" : "idle", reps, probe_median(call, reps),
			       probe_median(span, reps), probe_median(after, reps));
			fflush(stdout);
			free(call);
			free(span);
			free(after);
		}
		probe_check(cudaFree(buf), "cudaFree");
	}
	return 0;
}
