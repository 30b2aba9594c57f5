/* test_tui_track.c: the track index against brute force (busy time before x, picking, ranks) on random intervals
 * that overlap, nest and touch; the memory per interval of a whole Gantt index. */
#include <math.h>

#include "test_tui_util.h"
#include "tui/lanes.h"
#include "tui/track.h"

/* A small deterministic generator (xorshift). */
static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? rng % n : 0;
}

/* brute_busy: length of the union of the intervals of rec[0..n) that lies before x. */
static double brute_busy(const struct ss_record *rec, size_t n, double x)
{
	/* sort a copy of the clipped intervals and merge */
	double *s = malloc((n + 1) * sizeof *s), *e = malloc((n + 1) * sizeof *e), total = 0, cs = 0, ce = -1;
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		double a = (double)rec[i].start, b = fmin((double)rec[i].end, x);

		if (b > a) {
			size_t j = m++;

			while (j > 0 && s[j - 1] > a) {
				s[j] = s[j - 1];
				e[j] = e[j - 1];
				j--;
			}
			s[j] = a;
			e[j] = b;
		}
	}
	for (size_t i = 0; i < m; i++) {
		if (ce < 0 || s[i] > ce) {
			if (ce >= 0)
				total += ce - cs;
			cs = s[i];
			ce = e[i];
		} else if (e[i] > ce) {
			ce = e[i];
		}
	}
	if (ce >= 0)
		total += ce - cs;
	free(s);
	free(e);
	return total;
}

/* make_track fills rec with n random intervals in [0, span) (mostly short, some long, some empty) and indexes
 * them in shuffled order. */
static void make_track(struct ss_track *t, struct ss_record *rec, size_t n, uint64_t span, bool overlap)
{
	uint64_t at = 0;

	track_init(t);
	for (size_t i = 0; i < n; i++) {
		memset(&rec[i], 0, sizeof rec[i]);
		if (overlap) {
			rec[i].start = rnd(span);
			rec[i].end = rec[i].start + (rnd(10) == 0 ? rnd(span / 4) : rnd(50));
		} else {
			rec[i].start = at + rnd(30);
			rec[i].end = rec[i].start + rnd(40);
			at = rec[i].end;
		}
	}
	for (size_t i = 0; i < n; i++)
		track_add(t, (uint32_t)((i * 7919) % n)); /* a permutation when n is not a multiple of 7919 */
	track_finish(t, rec);
}

static void test_busy(void **state)
{
	static const size_t sizes[] = {0, 1, 2, 15, 16, 17, 33, 200, 1000};

	(void)state;
	for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
		for (int ov = 0; ov < 3; ov++) {
			size_t n = sizes[si];
			struct ss_record *rec = calloc(n + 1, sizeof *rec);
			struct ss_track t;
			struct ss_track_cursor c = {0};
			double last = -1e9, *xs = malloc(sizeof(double) * 400), *many = malloc(sizeof(double) * 400);
			/* the third mode spreads the intervals over 60 s: blocks wider than 32-bit offsets */
			uint64_t span = ov == 2 ? 60000000000ull : 5000;
			double scale = (double)span / 5000;

			make_track(&t, rec, n, span, ov != 0);
			assert_int_equal(t.n, n);
			for (size_t i = 1; i < n; i++)
				assert_true(rec[t.idx[i - 1]].start <= rec[t.idx[i]].start);
			assert_true(fabs((double)t.busy - brute_busy(rec, n, 1e18)) < 1e-6);
			/* random points, then increasing points through a cursor */
			for (int k = 0; k < 300; k++) {
				double x = ((double)rnd(7000) - 500 + (double)rnd(8) / 8) * scale;

				assert_true(fabs(track_busy(&t, rec, x) - brute_busy(rec, n, x)) < 1e-6);
			}
			for (double x = -100; x < 7000; x += (double)rnd(90) + 0.25) {
				double a = track_busy_at(&t, rec, &c, x * scale);

				assert_true(x > last);
				last = x;
				assert_true(fabs(a - brute_busy(rec, n, x * scale)) < 1e-6);
			}
			/* many increasing positions at once */
			for (int k = 0; k < 400; k++)
				xs[k] = (-200 + k * 18.7) * scale;
			track_busy_many(&t, rec, xs, 400, many);
			for (int k = 0; k < 400; k++)
				assert_true(fabs(many[k] - brute_busy(rec, n, xs[k])) < 1e-6);
			if (ov == 2 && n > 16) {
				bool wide = false;

				for (size_t b = 0; b < t.nblk; b++)
					wide |= t.blk[b].wide != 0;
				assert_true(wide);
			}
			track_free(&t);
			free(rec);
			free(xs);
			free(many);
		}
}

static void test_pick_rank(void **state)
{
	size_t n = 500;
	struct ss_record *rec = calloc(n, sizeof *rec);
	struct ss_track t;

	(void)state;
	make_track(&t, rec, n, 20000, true);
	for (int k = 0; k < 500; k++) {
		double a = (double)rnd(21000), b = a + (double)rnd(200) + 1, best_ov = 0;
		uint32_t got = track_pick(&t, rec, a, b);
		bool any = false;

		for (size_t i = 0; i < n; i++) {
			double ov = fmin((double)rec[i].end, b) - fmax((double)rec[i].start, a);

			if ((double)rec[i].end > a && (double)rec[i].start < b) {
				any = true;
				if (ov > best_ov)
					best_ov = ov;
			}
		}
		if (!any) {
			assert_int_equal(got, UINT32_MAX);
			continue;
		}
		assert_int_not_equal(got, UINT32_MAX);
		assert_true(fabs((fmin((double)rec[got].end, b) - fmax((double)rec[got].start, a)) - best_ov) < 1e-9);
	}
	/* ranks: the position of every record, and of keys between */
	for (size_t p = 0; p < n; p++) {
		assert_int_equal(track_rank(&t, rec, t.idx[p], false), p);
		assert_int_equal(track_rank(&t, rec, t.idx[p], true), p + 1);
	}
	assert_int_equal(track_lower_start(&t, rec, -1), 0);
	assert_int_equal(track_lower_start(&t, rec, 1e12), n);
	track_free(&t);
	free(rec);
}

/* The whole Gantt index costs at most 16 bytes per interval on top of the 48-byte record (64 in all), for a big
 * run of many streams and for one of a few streams with long lanes. */
static void test_memory(void **state)
{
	static const int streams[2] = {128, 4};

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct ss_timeline t;
		struct ss_lanes l;
		size_t n = 300000;

		timeline_init(&t);
		t.nstreams = streams[k];
		for (size_t i = 0; i < n; i++) {
			struct ss_record r;

			memset(&r, 0, sizeof r);
			r.stream = (int32_t)(i % (size_t)streams[k]);
			r.kind = (uint8_t)(i % 5 == 4   ? SS_KIND_API
			                   : i % 3 == 0 ? SS_KIND_H2D
			                   : i % 3 == 1 ? SS_KIND_KERNEL
			                                : SS_KIND_D2H);
			if (r.kind == SS_KIND_API)
				r.stream = SS_STREAM_HOST;
			r.start = i * 100;
			r.end = r.start + 150;
			timeline_add(&t, &r);
		}
		lanes_init(&l);
		lanes_build(&l, &t);
		print_message("%d streams: %zu records, index %zu bytes = %.2f bytes per interval (+48 record)\n",
		              streams[k], n, l.bytes, (double)l.bytes / (double)n);
		assert_true(sizeof(struct ss_record) == 48);
		assert_true((double)l.bytes / (double)n <= 16.0);
		lanes_free(&l);
		timeline_free(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_busy),
	    cmocka_unit_test(test_pick_rank),
	    cmocka_unit_test(test_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
