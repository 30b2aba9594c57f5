/* insight_bench.c: the time of `analyze`'s work on a synthetic timeline of 1M intervals (add 10M with -x): 8 streams
 * of H2D -> KER -> D2H chunks plus the host's launch calls, every 16th copy small, every 64th pageable and every
 * 128th chunk on the legacy default stream, so that
 * every rule's scan does its work. It prints the time of analysis_timeline, of insight_analyze and of both (the
 * fastest of 5 runs, so that the machine's other work does not count) and the insights found. Run by hand; it passes
 * or fails nothing.
 *
 * usage: insight_bench [-x] */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/analysis.h"
#include "core/insight.h"
#include "core/timeline.h"

static double insight_bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* insight_bench_fill builds n intervals (a multiple of 4: a chunk's H2D, kernel, D2H and launch call), sorted. */
static void insight_bench_fill(struct ss_timeline *t, size_t n)
{
	struct ss_record r;

	for (size_t c = 0; c < n / 4; c++) {
		uint64_t s = (uint64_t)(c / 8) * 3000 + (uint64_t)(c % 8) * 375;
		bool small = c % 16 == 0;

		memset(&r, 0, sizeof r);
		r.kind = SS_KIND_API;
		r.stream = SS_STREAM_HOST;
		r.start = s;
		r.end = s + 5;
		timeline_add(t, &r);
		r.stream = c % 128 == 127 ? SS_STREAM_LEGACY : (int32_t)(c % 8);
		r.kind = SS_KIND_H2D;
		r.start = s;
		r.end = s + 1000;
		r.bytes = small ? 1024 : 1u << 20;
		r.flags = (uint8_t)(c % 64 == 0 ? SS_REC_PAGEABLE : SS_REC_PINNED);
		timeline_add(t, &r);
		r.kind = SS_KIND_KERNEL;
		r.start = s + 1000;
		r.end = s + 2000;
		r.bytes = 0;
		r.flags = 0;
		timeline_add(t, &r);
		r.kind = SS_KIND_D2H;
		r.start = s + 2000;
		r.end = s + 3000;
		r.bytes = 1u << 20;
		r.flags = SS_REC_PINNED;
		timeline_add(t, &r);
	}
	timeline_sort(t);
}

int main(int argc, char **argv)
{
	size_t sizes[] = {1000000, 10000000};
	int nsizes = argc > 1 && strcmp(argv[1], "-x") == 0 ? 2 : 1;

	printf("%10s %14s %14s %14s  insights\n", "intervals", "analysis ms", "insights ms", "both ms");
	for (int k = 0; k < nsizes; k++) {
		struct ss_timeline t;
		struct ss_analysis a;
		static struct ss_insights in;
		double best_a = 1e9, best_i = 1e9, best = 1e9;

		timeline_init(&t);
		insight_bench_fill(&t, sizes[k]);
		for (int rep = 0; rep < 5; rep++) {
			double t0 = insight_bench_now(), t1, t2;

			analysis_timeline(&t, &a);
			t1 = insight_bench_now();
			insight_analyze(&t, &a, &in);
			t2 = insight_bench_now();
			best_a = t1 - t0 < best_a ? t1 - t0 : best_a;
			best_i = t2 - t1 < best_i ? t2 - t1 : best_i;
			best = t2 - t0 < best ? t2 - t0 : best;
		}
		printf("%10zu %14.1f %14.1f %14.1f ", t.n, 1e3 * best_a, 1e3 * best_i, 1e3 * best);
		for (size_t i = 0; i < in.n; i++)
			printf(" %s", in.item[i].rule);
		printf("\n");
		timeline_free(&t);
	}
	return 0;
}
