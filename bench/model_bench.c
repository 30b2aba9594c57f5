/* model_bench.c: how the model's time grows with the op list: kernel-transfer on 4 streams of 64k elements, 1k..64k
 * chunks, one host thread and one per stream; for each, the time of one model run (the fastest of 3) and that per
 * chunk, which stays flat while the model is linear in its items. Run by hand; it passes or fails nothing.
 *
 * usage: model_bench */
#include <stdio.h>
#include <time.h>

#include "core/experiment.h"
#include "model/model.h"
#include "model/profile.h"

static double model_bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
	struct ss_profile p;
	char *cause = NULL;

	if (model_get_profile(&p, &cause) != 0) {
		fprintf(stderr, "model_bench: %s\n", cause);
		return 1;
	}
	printf("%8s %8s %12s %12s\n", "chunks", "threads", "run ms", "us/chunk");
	for (int threads = 1; threads <= 4; threads += 3)
		for (int chunks = 1024; chunks <= 65536; chunks *= 4) {
			struct ss_experiment e;
			double best = 1e30;

			experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
			e.streams = 4;
			e.elements = 65536;
			e.chunks = chunks;
			e.threads = threads;
			for (int rep = 0; rep < 3; rep++) {
				double t0 = model_bench_now();

				if (model_makespan(&e, &p, &cause) == 0) {
					fprintf(stderr, "model_bench: %s\n", cause);
					return 1;
				}
				t0 = model_bench_now() - t0;
				best = t0 < best ? t0 : best;
			}
			printf("%8d %8d %12.1f %12.2f\n", chunks, threads, best * 1e3, best * 1e6 / chunks);
		}
	return 0;
}
