/* advise_bench.c: the advisor's speed on the model: for every preset the whole advise_search (the fastest of 3, so
 * that the machine's other work does not count), the configurations it modelled and so the model runs per second
 * it sustained, and the model's runs per second on the preset's own configuration alone. Run by hand; it passes
 * or fails nothing.
 *
 * usage: advise_bench */
#include <stdio.h>
#include <time.h>

#include "core/experiment.h"
#include "model/model.h"
#include "model/profile.h"
#include "run/advise.h"

static double advise_bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
	static struct ss_advice a;
	struct ss_profile p;
	char *cause = NULL;
	double total = 0;
	size_t runs = 0;

	if (model_get_profile(&p, &cause) != 0) {
		fprintf(stderr, "advise_bench: %s\n", cause);
		return 1;
	}
	printf("%-16s %10s %8s %12s %12s %8s\n", "preset", "advise ms", "configs", "runs/s", "own runs/s", "gain");
	for (int pr = 0; pr < SS_PRESET_COUNT; pr++) {
		struct ss_experiment e;
		double best = 1e30, t0, own;
		int n = 0;

		experiment_preset(&e, (enum ss_preset)pr);
		for (int rep = 0; rep < 3; rep++) {
			t0 = advise_bench_now();
			if (advise_search(&model_backend, &e, NULL, &a, &cause) != 0) {
				fprintf(stderr, "advise_bench: %s: %s\n", experiment_preset_name(pr), cause);
				return 1;
			}
			t0 = advise_bench_now() - t0;
			if (t0 < best)
				best = t0;
		}
		t0 = advise_bench_now();
		while ((own = advise_bench_now() - t0) < 0.2) {
			model_makespan(&e, &p, &cause);
			n++;
		}
		total += best;
		runs += a.searched;
		printf("%-16s %10.1f %8zu %12.0f %12.0f %7.1f%%\n", experiment_preset_name(pr), best * 1e3, a.searched,
		       (double)a.searched / best, n / own, a.gain_pct);
	}
	printf("all presets: %.1f ms for %zu configurations (%.0f model runs/s)\n", total * 1e3, runs,
	       (double)runs / total);
	return 0;
}
