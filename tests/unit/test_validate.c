/* test_validate.c: the model held to the H200's measured preset matrix (tests/data/h200/validate.csv: median error
 * <= 5%, every row within 15% of the H200 or within the H200's own run-to-run spread of that experiment, every
 * effect beyond that noise in the same direction), plus the validation machinery on hand-made rows: the matrix, the
 * CSV round trip and its errors, the statistics and direction checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/experiment.h"
#include "engine/profile.h"
#include "engine/validate.h"

static const char *source_dir(void)
{
	const char *s = getenv("SS_SOURCE_DIR");

	return s != NULL ? s : SS_SOURCE_DIR;
}

/* Matrices measured again on the H200: every managed and pageable row twice more (validate-repeat/README.md). */
static const char *const repeat_csv[] = {
	"tests/data/h200/validate-repeat/validate-mp1.csv",
	"tests/data/h200/validate-repeat/validate-mp2.csv",
};

/* Other H200 measurements of experiments of the matrix, untraced makespans in us. `same`: the experiment measured
 * again (pooled with the matrix's row, which is held to their median); else the run-to-run spread of a
 * configuration, the noise of every matrix row of that preset, order and queue count (streams 0: any; order -1,
 * connections 0: any). Sources: the kernel-transfer sweeps (8 queues) of runs/bench.txt (run 1), runs/log.txt
 * (sweep-both, run 1b), bench-run2/bench.txt (run 2), bench-run2/sweep-both.txt (run 2b), bench-run3/bench.txt (run
 * 3); the preset checks of runs 1, 2 and 3; observer/ (median of 41 repeats); gpu_smoke/run3_final.log (median of 3
 * repeats). */
static const struct {
	enum ss_preset preset;
	int streams;
	int order;
	int connections;
	bool same;
	unsigned us[6]; /* 0-terminated */
} repeats[] = {
	/* kernel-transfer on 8 queues: runs 1, 1b, 2, 2b, 3 */
	{SS_PRESET_KERNEL_TRANSFER, 1, SS_ORDER_DEPTH, 8, true, {1369, 1378, 1371, 1376, 1386}},
	{SS_PRESET_KERNEL_TRANSFER, 2, SS_ORDER_DEPTH, 8, true, {1013, 1015, 1052, 1023, 1008}},
	{SS_PRESET_KERNEL_TRANSFER, 4, SS_ORDER_DEPTH, 8, true, {847, 848, 883, 855, 845}},
	{SS_PRESET_KERNEL_TRANSFER, 8, SS_ORDER_DEPTH, 8, true, {791, 794, 806, 812, 796}},
	{SS_PRESET_KERNEL_TRANSFER, 16, SS_ORDER_DEPTH, 8, true, {818, 831, 849, 812, 820}},
	{SS_PRESET_KERNEL_TRANSFER, 32, SS_ORDER_DEPTH, 8, true, {920, 919, 922, 915, 930}},
	{SS_PRESET_KERNEL_TRANSFER, 64, SS_ORDER_DEPTH, 8, true, {1182, 1202, 1368, 1210, 1257}},
	{SS_PRESET_KERNEL_TRANSFER, 128, SS_ORDER_DEPTH, 8, true, {2173, 1761, 2608, 1823, 1855}},
	{SS_PRESET_KERNEL_TRANSFER, 1, SS_ORDER_BREADTH, 8, true, {1392, 1378, 1407, 1377, 1381}},
	{SS_PRESET_KERNEL_TRANSFER, 2, SS_ORDER_BREADTH, 8, true, {1036, 1020, 1063, 1020, 1008}},
	{SS_PRESET_KERNEL_TRANSFER, 4, SS_ORDER_BREADTH, 8, true, {866, 843, 846, 865, 842}},
	{SS_PRESET_KERNEL_TRANSFER, 8, SS_ORDER_BREADTH, 8, true, {802, 795, 821, 817, 791}},
	{SS_PRESET_KERNEL_TRANSFER, 16, SS_ORDER_BREADTH, 8, true, {823, 821, 803, 816, 802}},
	{SS_PRESET_KERNEL_TRANSFER, 32, SS_ORDER_BREADTH, 8, true, {969, 979, 997, 933, 963}},
	{SS_PRESET_KERNEL_TRANSFER, 64, SS_ORDER_BREADTH, 8, true, {1454, 1280, 1405, 1456, 1433}},
	{SS_PRESET_KERNEL_TRANSFER, 128, SS_ORDER_BREADTH, 8, true, {2437, 2009, 1996, 2595, 1994}},
	/* the presets' own experiment (8 streams depth-first; hyperq 32 on one queue): runs 1, 2, 3, observer */
	{SS_PRESET_KERNEL_TRANSFER, 8, SS_ORDER_DEPTH, 8, true, {822, 808, 822, 808}},
	{SS_PRESET_SYNC_ORDER, 8, SS_ORDER_DEPTH, 8, true, {830, 802, 790}},
	{SS_PRESET_DEFAULT_STREAM, 8, SS_ORDER_DEPTH, 8, true, {1663, 1662, 1680, 1668}},
	{SS_PRESET_HYPERQ, 32, SS_ORDER_DEPTH, 1, true, {3769, 3771, 3773}},
	{SS_PRESET_DECRYPT, 8, SS_ORDER_DEPTH, 8, true, {56946, 56930, 56940}},
	{SS_PRESET_MANAGED, 8, SS_ORDER_DEPTH, 8, true, {4103, 3479, 4012, 4118}},
	{SS_PRESET_PAGEABLE, 8, SS_ORDER_DEPTH, 8, true, {7190, 6134, 6547, 5210, 5422}}, /* ... and smoke */
	/* their one-stream baselines (observer) */
	{SS_PRESET_KERNEL_TRANSFER, 1, SS_ORDER_DEPTH, 8, true, {1402}},
	{SS_PRESET_DEFAULT_STREAM, 1, SS_ORDER_DEPTH, 8, true, {1372}},
	{SS_PRESET_MANAGED, 1, SS_ORDER_DEPTH, 8, true, {4615}},
	{SS_PRESET_PAGEABLE, 1, SS_ORDER_DEPTH, 8, true, {3163}},
	/* hyperq breadth-first on one queue, the bench's hyperq-1queue check: runs 1 (untraced), 2 and 3 (CUPTI
	 * makespan, which tracing changes by 0.2% for hyperq) */
	{SS_PRESET_HYPERQ, 32, SS_ORDER_BREADTH, 1, true, {393, 532, 565}},
	{SS_PRESET_HYPERQ, 0, SS_ORDER_BREADTH, 1, false, {387, 393, 532, 565}},
	/* host-bound: at 128 streams kernel-transfer and sync-order only wait for the host's calls, whose speed changes
	 * between runs (whatever the queue count): kernel-transfer on 8 queues in six runs */
	{SS_PRESET_KERNEL_TRANSFER, 128, SS_ORDER_DEPTH, 0, false, {1623, 2173, 1761, 2608, 1823, 1855}},
	{SS_PRESET_KERNEL_TRANSFER, 128, SS_ORDER_BREADTH, 0, false, {2342, 2437, 2009, 1996, 2595, 1994}},
};

/* spread: (max - min) / min of n values, 0 for fewer than two. */
static double spread(const double *v, size_t n)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	return n >= 2 ? (hi - lo) / lo : 0;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, dcmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* host_twin: the host-bound twin of r (kernel-transfer <-> sync-order from 64 streams: the syncs come after all the
 * work is issued, so their order is moot), -1 when none. */
static long host_twin(const struct ss_validate_set *s, const struct ss_validate_row *r)
{
	struct ss_validate_row t = *r;

	if (r->streams < 64 || (r->preset != SS_PRESET_KERNEL_TRANSFER && r->preset != SS_PRESET_SYNC_ORDER))
		return -1;
	t.preset = r->preset == SS_PRESET_KERNEL_TRANSFER ? SS_PRESET_SYNC_ORDER : SS_PRESET_KERNEL_TRANSFER;
	return validate_find(s, &t);
}

#define MAX_MEAS 32

/* measurements fills v with every H200 measurement of row i's experiment in ns (the row, the repeated matrices',
 * the repeats above, and its host-bound twin's) and returns how many; *noise gets the spread of the configuration
 * noise above that applies to it (0 when none). */
static size_t measurements(const struct ss_validate_set *s, const struct ss_validate_set *rep, size_t nrep, size_t i,
			   double *v, double *noise)
{
	const struct ss_validate_row *r = &s->row[i];
	size_t n = 0;
	long twin = host_twin(s, r);

	*noise = 0;
	for (int pass = 0; pass < (twin >= 0 ? 2 : 1); pass++) {
		const struct ss_validate_row *x = pass == 0 ? r : &s->row[twin];

		v[n++] = (double)x->measured_ns;
		for (size_t k = 0; k < nrep; k++) {
			long j = validate_find(&rep[k], x);

			if (j >= 0 && rep[k].row[j].measured_ns > 0)
				v[n++] = (double)rep[k].row[j].measured_ns;
		}
		for (size_t j = 0; j < sizeof repeats / sizeof repeats[0]; j++) {
			double w[6];
			size_t k = 0;

			if (repeats[j].preset != x->preset || (repeats[j].streams && repeats[j].streams != x->streams) ||
			    (repeats[j].order >= 0 && repeats[j].order != (int)x->order) ||
			    (repeats[j].connections && repeats[j].connections != x->connections))
				continue;
			while (k < 6 && repeats[j].us[k]) {
				w[k] = repeats[j].us[k] * 1e3;
				k++;
			}
			if (!repeats[j].same)
				*noise = fmax(*noise, spread(w, k));
			else
				for (size_t m = 0; m < k && n < MAX_MEAS; m++)
					v[n++] = w[m];
		}
	}
	return n;
}

/* one_stream_spread: (max - min) / min of preset p's measured one-stream rows, 0 when it has fewer than two. */
static double one_stream_spread(const struct ss_validate_set *s, enum ss_preset p)
{
	double v[8];
	size_t n = 0;

	for (size_t i = 0; i < s->n && n < 8; i++)
		if (s->row[i].preset == p && s->row[i].streams == 1 && s->row[i].measured_ns > 0)
			v[n++] = (double)s->row[i].measured_ns;
	return spread(v, n);
}

/* The committed H200 matrix against the current model and the committed profile. Over every row: median error <=
 * 5% against the matrix; the default-stream serialisation and pageable no-overlap agree. Each row is held to 15% of
 * the median of every H200 measurement of its experiment (the matrix's row, the repeated matrices', other runs',
 * its host-bound twin's), or to the H200's own spread where it does not repeat to 15%: the spread of those
 * measurements, of its configuration (above), and for a preset whose one-stream rows already spread beyond 15%
 * (managed, pageable) the preset's typical spread (the median over its rows of their measurements' spread). Every
 * depth/breadth pair whose medians differ by more than 5% and that typical spread agrees in direction. */
static void test_h200_matrix(void **state)
{
	char csv[1024], prof[1024], *cause = NULL;
	struct ss_validate_set s = {0}, rep[sizeof repeat_csv / sizeof repeat_csv[0]];
	struct ss_validate_stats st;
	struct ss_profile p;
	double typical[SS_PRESET_COUNT], *ref;
	size_t nrep = sizeof repeat_csv / sizeof repeat_csv[0], plain = 0, held = 0, checked = 0, agree = 0;

	(void)state;
	memset(rep, 0, sizeof rep);
	snprintf(csv, sizeof csv, "%s/tests/data/h200/validate.csv", source_dir());
	snprintf(prof, sizeof prof, "%s/data/profiles/h200.profile", source_dir());
	if (access(csv, R_OK) != 0) {
		print_message("SKIP: %s is not there yet: run `streamscope validate --csv tests/data/h200/validate.csv` "
			      "on the H200 and commit it\n",
			      csv);
		skip();
	}
	if (validate_read_csv(csv, &s, &cause) != 0)
		fail_msg("%s", cause);
	for (size_t k = 0; k < nrep; k++) {
		snprintf(csv, sizeof csv, "%s/%s", source_dir(), repeat_csv[k]);
		if (validate_read_csv(csv, &rep[k], &cause) != 0)
			fail_msg("%s", cause);
	}
	if (profile_load(&p, prof, &cause) != 0)
		fail_msg("%s", cause);
	if (validate_model(&p, &s, &cause) != 0)
		fail_msg("%s", cause);
	validate_stats(&s, &st);
	print_message("model vs %s: %zu rows, median %.2f%%, worst %.2f%% (row %zu); order %zu/%zu, serialisation "
		      "%zu/%zu, pageable %zu/%zu\n",
		      s.device, st.n, 100 * st.median_err, 100 * st.worst_err, st.worst_row, st.order_agree,
		      st.order_checked, st.serial_agree, st.serial_checked, st.pageable_agree, st.pageable_checked);
	assert_int_equal(st.n, s.n);
	assert_true(st.median_err <= SS_VALIDATE_MEDIAN_MAX);
	assert_int_equal(st.serial_agree, st.serial_checked);
	assert_int_equal(st.pageable_agree, st.pageable_checked);
	/* a preset's typical spread, where its one-stream rows show it does not repeat to 15% */
	for (int q = 0; q < SS_PRESET_COUNT; q++) {
		double sp[SS_MAX_STREAMS * 4];
		size_t n = 0;

		typical[q] = 0;
		if (one_stream_spread(&s, (enum ss_preset)q) <= SS_VALIDATE_WORST_MAX)
			continue;
		for (size_t i = 0; i < s.n && n < sizeof sp / sizeof sp[0]; i++) {
			double v[MAX_MEAS], noise;
			size_t m;

			if (s.row[i].preset != (enum ss_preset)q)
				continue;
			m = measurements(&s, rep, nrep, i, v, &noise);
			if (m >= 3)
				sp[n++] = spread(v, m);
		}
		assert_true(n > 0);
		typical[q] = median(sp, n);
	}
	ref = calloc(s.n, sizeof *ref);
	for (size_t i = 0; i < s.n; i++) {
		const struct ss_validate_row *r = &s.row[i];
		double v[MAX_MEAS], noise, tol, err, own;
		size_t n = measurements(&s, rep, nrep, i, v, &noise);
		long twin = host_twin(&s, r);

		if (twin >= 0) /* pooling the twins needs the model to agree they are one experiment */
			assert_true(fabs((double)r->model_ns - (double)s.row[twin].model_ns) <=
				    0.02 * (double)s.row[twin].model_ns);
		noise = fmax(fmax(noise, spread(v, n)), typical[r->preset]);
		ref[i] = median(v, n);
		tol = fmax(SS_VALIDATE_WORST_MAX, noise);
		err = fabs((double)r->model_ns - ref[i]) / ref[i];
		own = fabs((double)r->model_ns - (double)r->measured_ns) / (double)r->measured_ns;
		plain += own <= SS_VALIDATE_WORST_MAX;
		held += err <= SS_VALIDATE_WORST_MAX;
		if (err > SS_VALIDATE_WORST_MAX || own > SS_VALIDATE_WORST_MAX)
			print_message("limitation: %s %d %s %dq: model %.3f ms; matrix %.3f ms (%+.1f%%); %zu H200 "
				      "measurement%s, median %.3f ms (%+.1f%%); the H200 repeats it within %.1f%%\n",
				      experiment_preset_name(r->preset), r->streams, experiment_order_name(r->order),
				      r->connections, r->model_ns / 1e6, r->measured_ns / 1e6,
				      100 * ((double)r->model_ns - (double)r->measured_ns) / (double)r->measured_ns, n,
				      n == 1 ? "" : "s", ref[i] / 1e6, 100 * ((double)r->model_ns - ref[i]) / ref[i],
				      100 * noise);
		if (err > tol)
			fail_msg("%s %d %s %dq: model %.3f ms is %.1f%% off the H200's %.3f ms (held to %.1f%%)",
				 experiment_preset_name(r->preset), r->streams, experiment_order_name(r->order),
				 r->connections, r->model_ns / 1e6, 100 * err, ref[i] / 1e6, 100 * tol);
	}
	/* directions, on the medians */
	for (size_t i = 0; i < s.n; i++) {
		const struct ss_validate_row *r = &s.row[i];
		struct ss_validate_row b = *r;
		long j;

		if (r->order != SS_ORDER_DEPTH || r->streams < 2)
			continue;
		b.order = SS_ORDER_BREADTH;
		if ((j = validate_find(&s, &b)) < 0 ||
		    fabs(ref[i] - ref[j]) < fmax(0.05, typical[r->preset]) * fmin(ref[i], ref[j]))
			continue;
		checked++;
		if ((ref[i] < ref[j]) == (r->model_ns < s.row[j].model_ns))
			agree++;
		else
			print_message("order disagrees: %s %d streams %dq: H200 depth %.3f breadth %.3f ms, model %.3f "
				      "%.3f ms\n",
				      experiment_preset_name(r->preset), r->streams, r->connections, ref[i] / 1e6,
				      ref[j] / 1e6, r->model_ns / 1e6, s.row[j].model_ns / 1e6);
	}
	print_message("rows within 15%% of their matrix measurement: %zu/%zu, of the median of their H200 "
		      "measurements: %zu/%zu; typical spread of managed %.1f%%, pageable %.1f%%; order %zu/%zu beyond "
		      "it\n",
		      plain, s.n, held, s.n, 100 * typical[SS_PRESET_MANAGED], 100 * typical[SS_PRESET_PAGEABLE], agree,
		      checked);
	assert_int_equal(agree, checked);
	/* ratchets: fewer rows within 15% of the H200, or fewer directions beyond its noise, is a regression */
	assert_true(held >= 212);
	assert_true(checked >= 35);
	free(ref);
	for (size_t k = 0; k < nrep; k++)
		validate_free(&rep[k]);
	validate_free(&s);
}

/* Every preset x 8 stream counts x 2 orders x 2 queue counts; quick: 2 stream counts. */
static void test_matrix(void **state)
{
	struct ss_validate_set s = {0}, q = {0};

	(void)state;
	validate_matrix(false, &s);
	assert_int_equal(s.n, SS_PRESET_COUNT * 8 * 2 * 2);
	validate_matrix(true, &q);
	assert_int_equal(q.n, SS_PRESET_COUNT * 2 * 2 * 2);
	for (size_t i = 0; i < s.n; i++) {
		const struct ss_validate_row *r = &s.row[i];
		struct ss_validate_row dup = *r;

		assert_true(r->streams >= 1 && r->streams <= 128 && (r->streams & (r->streams - 1)) == 0);
		assert_true(r->connections == 1 || r->connections == 8);
		assert_int_equal(validate_find(&s, &dup), (long)i); /* no duplicates */
		assert_int_equal(r->measured_ns, 0);
	}
	validate_free(&s);
	validate_free(&q);
}

static struct ss_validate_row row(enum ss_preset p, int n, enum ss_order o, int c, uint64_t meas, uint64_t model)
{
	struct ss_validate_row r;

	memset(&r, 0, sizeof r);
	r.preset = p;
	r.streams = n;
	r.order = o;
	r.connections = c;
	r.measured_ns = meas;
	r.model_ns = model;
	r.measured_overlap = r.model_overlap = -1;
	r.measured_cross = r.model_cross = -1;
	return r;
}

static void push(struct ss_validate_set *s, struct ss_validate_row r)
{
	s->row = realloc(s->row, (s->n + 1) * sizeof *s->row);
	s->row[s->n++] = r;
	s->cap = s->n;
}

/* Errors, median and worst on known numbers; the three direction checks each way. */
static void test_stats(void **state)
{
	struct ss_validate_set s = {0};
	struct ss_validate_stats st;
	struct ss_validate_row r;

	(void)state;
	push(&s, row(SS_PRESET_KERNEL_TRANSFER, 1, SS_ORDER_DEPTH, 8, 1000, 1010));   /* 1% */
	push(&s, row(SS_PRESET_KERNEL_TRANSFER, 8, SS_ORDER_DEPTH, 8, 1000, 960));    /* 4%, depth faster */
	push(&s, row(SS_PRESET_KERNEL_TRANSFER, 8, SS_ORDER_BREADTH, 8, 1200, 1100)); /* 8.33% */
	push(&s, row(SS_PRESET_HYPERQ, 8, SS_ORDER_DEPTH, 1, 2000, 2040));            /* 2%, orders within 5% */
	push(&s, row(SS_PRESET_HYPERQ, 8, SS_ORDER_BREADTH, 1, 2050, 1800));          /* 12.2% */
	validate_stats(&s, &st);
	assert_int_equal(st.n, 5);
	assert_true(fabs(st.median_err - 0.04) < 1e-12);
	assert_true(fabs(st.worst_err - 250.0 / 2050.0) < 1e-12);
	assert_int_equal(st.worst_row, 4);
	assert_int_equal(st.order_checked, 1); /* hyperq's orders are within 5%: no direction to check */
	assert_int_equal(st.order_agree, 1);
	assert_true(validate_passes(&st));
	/* the model picks the other order: a disagreement */
	s.row[2].model_ns = 900;
	validate_stats(&s, &st);
	assert_int_equal(st.order_agree, 0);
	assert_false(validate_passes(&st));
	s.row[2].model_ns = 1100;
	/* serialisation: measured none across the legacy op, the model some */
	r = row(SS_PRESET_DEFAULT_STREAM, 8, SS_ORDER_DEPTH, 8, 1000, 1000);
	r.measured_cross = 0;
	r.model_cross = 3;
	push(&s, r);
	validate_stats(&s, &st);
	assert_int_equal(st.serial_checked, 1);
	assert_int_equal(st.serial_agree, 0);
	s.row[s.n - 1].model_cross = 0;
	/* pageable: no overlap measured, much modelled */
	r = row(SS_PRESET_PAGEABLE, 8, SS_ORDER_DEPTH, 8, 1000, 1000);
	r.measured_overlap = 0.01;
	r.model_overlap = 0.30;
	push(&s, r);
	validate_stats(&s, &st);
	assert_int_equal(st.serial_agree, 1);
	assert_int_equal(st.pageable_checked, 1);
	assert_int_equal(st.pageable_agree, 0);
	s.row[s.n - 1].model_overlap = 0.02;
	validate_stats(&s, &st);
	assert_int_equal(st.pageable_agree, 1);
	assert_true(validate_passes(&st));
	/* the worst error over 15% fails */
	s.row[0].model_ns = 1200;
	validate_stats(&s, &st);
	assert_false(validate_passes(&st));
	validate_free(&s);
}

/* Written and read back, the rows are the same; bad files are refused with line and field. */
static void test_csv(void **state)
{
	char dir[] = "/tmp/ss_validate_XXXXXX", path[128], *cause = NULL;
	struct ss_validate_set s = {0}, t = {0};
	struct ss_validate_row r = row(SS_PRESET_DECRYPT, 64, SS_ORDER_BREADTH, 1, 123456789, 120000000);
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/v.csv", dir);
	r.measured_untraced = true;
	r.measured_overlap = 0.4321;
	r.model_overlap = 0.5;
	r.measured_cross = 0;
	r.model_cross = 2;
	push(&s, r);
	push(&s, row(SS_PRESET_PAGEABLE, 1, SS_ORDER_DEPTH, 8, 0, 5));
	snprintf(s.device, sizeof s.device, "NVIDIA H200");
	assert_int_equal(validate_write_csv(path, &s, &cause), 0);
	assert_int_equal(validate_read_csv(path, &t, &cause), 0);
	assert_string_equal(t.device, "NVIDIA H200");
	assert_int_equal(t.n, 2);
	assert_int_equal(t.row[0].preset, SS_PRESET_DECRYPT);
	assert_int_equal(t.row[0].streams, 64);
	assert_int_equal(t.row[0].order, SS_ORDER_BREADTH);
	assert_int_equal(t.row[0].connections, 1);
	assert_int_equal(t.row[0].measured_ns, 123456789);
	assert_true(t.row[0].measured_untraced);
	assert_int_equal(t.row[0].model_ns, 120000000);
	assert_true(fabs(t.row[0].measured_overlap - 0.4321) < 1e-9);
	assert_int_equal(t.row[0].measured_cross, 0);
	assert_int_equal(t.row[0].model_cross, 2);
	assert_int_equal(t.row[1].measured_cross, -1);
	validate_free(&t);
	/* bad files */
	static const struct {
		const char *text, *frag;
	} bad[] = {
		{"preset,streams\n", "expected the header"},
		{"", "no header line"},
		{"preset,streams,order,connections,measured_ns,measured_untraced,model_ns,measured_overlap,model_overlap,"
		 "measured_cross,model_cross\nwarp,1,depth,8,1,0,1,0,0,-1,-1\n",
		 ":2: bad preset 'warp'"},
		{"preset,streams,order,connections,measured_ns,measured_untraced,model_ns,measured_overlap,model_overlap,"
		 "measured_cross,model_cross\ndecrypt,129,depth,8,1,0,1,0,0,-1,-1\n",
		 ":2: bad streams '129'"},
		{"preset,streams,order,connections,measured_ns,measured_untraced,model_ns,measured_overlap,model_overlap,"
		 "measured_cross,model_cross\ndecrypt,1,depth,8,1,0,1\n",
		 "expected 11 comma-separated fields"},
		{"preset,streams,order,connections,measured_ns,measured_untraced,model_ns,measured_overlap,model_overlap,"
		 "measured_cross,model_cross\ndecrypt,1,depth,8,-5,0,1,0,0,-1,-1\n",
		 "bad measured_ns '-5'"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct ss_validate_set u = {0};

		f = fopen(path, "w");
		fputs(bad[i].text, f);
		fclose(f);
		assert_int_equal(validate_read_csv(path, &u, &cause), -1);
		if (strstr(cause, bad[i].frag) == NULL)
			fail_msg("'%s' lacks '%s'", cause, bad[i].frag);
		free(cause);
		cause = NULL;
		validate_free(&u);
	}
	assert_int_equal(validate_read_csv("/nonexistent/v.csv", &t, &cause), -1);
	free(cause);
	unlink(path);
	rmdir(dir);
	validate_free(&s);
}

/* Several measured files: one row per experiment holding the median of its measurements, their count and spread;
 * the order is checked only beyond the rows' own spread. */
static void test_csvs(void **state)
{
	char dir[] = "/tmp/ss_validate_XXXXXX", path[3][128], *cause = NULL;
	const char *paths[4];
	struct ss_validate_set f = {0}, t = {0};
	struct ss_validate_stats st;
	static const uint64_t a[3] = {300, 100, 200}; /* kernel-transfer 8 depth 8q */
	static const uint64_t b[3] = {110, 100, 0};   /* its breadth twin; unmeasured in the third file */

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int k = 0; k < 3; k++) {
		struct ss_validate_row r = row(SS_PRESET_KERNEL_TRANSFER, 8, SS_ORDER_DEPTH, 8, a[k], 0);

		r.measured_overlap = 0.1 * (k + 1);
		snprintf(path[k], sizeof path[k], "%s/v%d.csv", dir, k);
		paths[k] = path[k];
		memset(&f, 0, sizeof f);
		push(&f, r);
		push(&f, row(SS_PRESET_KERNEL_TRANSFER, 8, SS_ORDER_BREADTH, 8, b[k], 0));
		if (k == 2)
			push(&f, row(SS_PRESET_HYPERQ, 4, SS_ORDER_DEPTH, 1, 777, 0)); /* only here */
		snprintf(f.device, sizeof f.device, "NVIDIA H200");
		assert_int_equal(validate_write_csv(path[k], &f, &cause), 0);
		validate_free(&f);
	}
	assert_int_equal(validate_read_csvs(paths, 3, &t, &cause), 0);
	assert_string_equal(t.device, "NVIDIA H200");
	assert_int_equal(t.n, 3);
	assert_int_equal(t.row[0].measured_ns, 200);
	assert_int_equal(t.row[0].measured_n, 3);
	assert_true(fabs(t.row[0].measured_spread - 1.0) < 1e-12);
	assert_true(fabs(t.row[0].measured_overlap - 0.3) < 1e-9); /* that of the median measurement (file 3) */
	assert_int_equal(t.row[1].measured_ns, 105);
	assert_int_equal(t.row[1].measured_n, 2);
	assert_true(fabs(t.row[1].measured_spread - 10.0 / 105) < 1e-12);
	assert_int_equal(t.row[2].preset, SS_PRESET_HYPERQ);
	assert_int_equal(t.row[2].measured_ns, 777);
	assert_int_equal(t.row[2].measured_n, 1);
	assert_true(t.row[2].measured_spread == 0);
	/* depth 200 vs breadth 105: apart by 90%, but depth's own measurements spread by 100%: no direction */
	for (size_t i = 0; i < t.n; i++)
		t.row[i].model_ns = t.row[i].measured_ns;
	t.row[0].model_ns = 100; /* the model picks the other order */
	validate_stats(&t, &st);
	assert_int_equal(st.order_checked, 0);
	assert_int_equal(st.beyond_worst, 1);  /* 50% off */
	assert_int_equal(st.beyond_spread, 0); /* within its 100% spread */
	t.row[0].measured_spread = 0.5;        /* now the orders are apart beyond it: checked, and disagree */
	validate_stats(&t, &st);
	assert_int_equal(st.order_checked, 1);
	assert_int_equal(st.order_agree, 0);
	assert_int_equal(st.beyond_spread, 0);
	t.row[0].measured_spread = 0.2;
	validate_stats(&t, &st);
	assert_int_equal(st.beyond_spread, 1);
	validate_free(&t);
	/* a missing file fails with its name */
	paths[3] = "/nonexistent/v.csv";
	assert_int_equal(validate_read_csvs(paths, 4, &t, &cause), -1);
	assert_non_null(strstr(cause, "/nonexistent/v.csv"));
	free(cause);
	validate_free(&t);
	for (int k = 0; k < 3; k++)
		unlink(path[k]);
	rmdir(dir);
}

/* The model against itself: zero error, every check agrees, and the default-stream op serialises. */
static void test_model_self(void **state)
{
	struct ss_validate_set s = {0};
	struct ss_validate_stats st;
	struct ss_profile p;
	char *cause = NULL;

	(void)state;
	profile_builtin(&p);
	validate_matrix(true, &s);
	assert_int_equal(validate_model(&p, &s, &cause), 0);
	for (size_t i = 0; i < s.n; i++) {
		struct ss_validate_row *r = &s.row[i];

		assert_true(r->model_ns > 0);
		r->measured_ns = r->model_ns;
		r->measured_overlap = r->model_overlap;
		r->measured_cross = r->model_cross;
		if (r->preset == SS_PRESET_DEFAULT_STREAM && r->streams > 1)
			assert_int_equal(r->model_cross, 0);
		if (r->preset == SS_PRESET_PAGEABLE && r->order == SS_ORDER_DEPTH)
			assert_true(r->model_overlap < 0.05);
	}
	validate_stats(&s, &st);
	assert_true(st.median_err == 0 && st.worst_err == 0);
	assert_true(st.serial_checked > 0);
	assert_true(validate_passes(&st));
	validate_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_h200_matrix), cmocka_unit_test(test_matrix),     cmocka_unit_test(test_stats),
		cmocka_unit_test(test_csv),         cmocka_unit_test(test_csvs),       cmocka_unit_test(test_model_self),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
