/* test_validate.c: the model held to the median of the H200's measurements of the preset matrix (tests/data/h200/
 * validate.csv, validate-repeat/, validate-host/, host-probe/, validate-queues/: median error <= 5%, worst <= 15%,
 * every effect beyond the measurements' noise in the same direction), plus the
 * validation machinery on hand-made rows: the matrix, the CSV round trip and its errors, host lines, the statistics
 * and direction checks. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/atomic.h"
#include "core/experiment.h"
#include "model/calibrate.h"
#include "model/model.h"
#include "model/profile.h"
#include "model/validate.h"

static const char *source_dir(void)
{
	const char *s = getenv("SS_SOURCE_DIR");

	return s != NULL ? s : SS_SOURCE_DIR;
}

/* Every measurement of the preset matrix on the H200: validate.csv (all presets), the whole matrix but decrypt
 * fifteen times more (r2, r3 of one session; h1..h3 and h4..h6 of two more; h7..h9 of a fourth, h10..h13 of a
 * fifth, each with its host's call costs on its '# host:' line, h4..h13 also with each row's own call costs;
 * decrypt repeats within 1%, validate-decrypt.txt) and the hyperq and sync-order rows six times more
 * (host-probe/new-*, old-*): 16 measurements of each row, 22 of hyperq and sync-order, 1 of decrypt
 * (validate-repeat/, validate-host/, host-probe/, validate-queues/ READMEs). The managed and pageable rows are the
 * 11 measurements of validate-timer/: their runs' timer now starts before the first call (planner_start_before),
 * and validate_read_csv leaves out those rows of the older files, timed from after it. Other H200 runs
 * (bench sweeps and checks, observer) are not pooled: they are not the same experiment run by validate. */
static const char *const matrix_csv[] = {
    "tests/data/h200/validate.csv",
    "tests/data/h200/validate-repeat/validate-r2.csv",
    "tests/data/h200/validate-repeat/validate-r3.csv",
    "tests/data/h200/validate-repeat/validate-mp1.csv",
    "tests/data/h200/validate-repeat/validate-mp2.csv",
    "tests/data/h200/validate-host/validate-h1.csv",
    "tests/data/h200/validate-host/validate-h2.csv",
    "tests/data/h200/validate-host/validate-h3.csv",
    "tests/data/h200/validate-host/validate-h4.csv",
    "tests/data/h200/validate-host/validate-h5.csv",
    "tests/data/h200/validate-host/validate-h6.csv",
    "tests/data/h200/host-probe/new-1.csv",
    "tests/data/h200/host-probe/new-2.csv",
    "tests/data/h200/host-probe/new-3.csv",
    "tests/data/h200/host-probe/old-1.csv",
    "tests/data/h200/host-probe/old-2.csv",
    "tests/data/h200/host-probe/old-3.csv",
    "tests/data/h200/validate-queues/validate-h7.csv",
    "tests/data/h200/validate-queues/validate-h8.csv",
    "tests/data/h200/validate-queues/validate-h9.csv",
    "tests/data/h200/validate-queues/validate-h10.csv",
    "tests/data/h200/validate-queues/validate-h11.csv",
    "tests/data/h200/validate-queues/validate-h12.csv",
    "tests/data/h200/validate-queues/validate-h13.csv",
    "tests/data/h200/validate-timer/validate-t1.csv",
    "tests/data/h200/validate-timer/validate-t2.csv",
    "tests/data/h200/validate-timer/validate-t3.csv",
    "tests/data/h200/validate-timer/validate-t4.csv",
    "tests/data/h200/validate-timer/validate-t5.csv",
    "tests/data/h200/validate-timer/validate-t6.csv",
    "tests/data/h200/validate-timer/validate-t7.csv",
    "tests/data/h200/validate-timer/validate-t8.csv",
    "tests/data/h200/validate-timer/validate-t10.csv",
    "tests/data/h200/validate-timer/validate-t11.csv",
    "tests/data/h200/validate-timer/validate-t12.csv",
};

/* The model's numbers against those medians, committed so that a change that loses ground fails (ratchets): rows
 * more than 15% off their median (none with h10 and h11 pooled; 1 with the 20 files before them and the call costs
 * split by the hardware queues in use; 7 before, with the 11 files of the first three sessions; 11 before that,
 * with three measurements a row); directions of the faster order
 * checked (the medians of the two orders apart by 5% and by both rows' own spread, so that the H200's measurements
 * agree among themselves on the order: 17 pairs with 12-18 measurements a row, whose spreads are wider than
 * fewer's). */
#define RATCHET_BEYOND_WORST 0
#define RATCHET_ORDER_CHECKED 17

/* The committed H200 matrices against the current model and the committed profile. Each row's reference is the
 * median of its measurements (`streamscope validate --check` with the files above prints the same table). Over
 * every row: median error <= 5% and worst <= 15% (the targets), and no row beyond 15% and the row's own
 * measured spread ((max - min) / median of its measurements); the faster order (where the measurements agree beyond
 * their spread), the default-stream serialisation and pageable no-overlap agree, all of them.
 *
 * The prediction is the profile's (validate_model): its host costs are the medians of every H200 measurement of
 * them, and they predict the medians better than each matrix's probe taken before it (the host's cost then moves by
 * up to 2x within seconds on the same machine, host-probe/README.md): with the probes the worst row was
 * kernel-transfer 128 streams depth-first on 8 queues at +15.6%, its 15 measurements bimodal (1.62-1.83 ms and
 * 2.07-2.61 ms). The probes' prediction is printed apart (validate-queues/README.md has both over every subset of
 * the files). h13, measured after both changes and pooled as planned, is their out-of-sample check. The worst row
 * now, managed 128 streams depth-first on 8 queues (+14.8%), spreads 92.6% over its 11 measurements.
 * The copy-bound rows (32-64 streams) were 5-15% short until copy.gap_ns was measured untraced (497 ns,
 * tests/data/h200/copy-gap: a calibration probe, not these rows); sync-order 64 depth-first on 8 queues went from
 * -14.7% to -9.8%. The host-bound rows on 8 queues run slower than on one queue in every measurement; the
 * model now has the part of that the call records show (api.copy_queues_ns, api.switch_queues_ns) and the copies'
 * own slowdown (copy.queues_slow, tests/data/h200/queue-penalty). */
/* write_csv writes s's CSV text to path as the CLI does (io/atomic). 0 or -1 with *cause. */
static int write_csv(const char *path, const struct ss_validate_set *s, char **cause)
{
	char *text = validate_format_csv(s);
	int rc = atomic_write_text(path, text, cause);

	free(text);
	return rc;
}

/* load_profile loads the profile at rel (relative to the source folder) into p; skips the test when it is not
 * there. */
static void load_profile(const char *rel, struct ss_profile *p)
{
	char path[1024], *cause = NULL;

	snprintf(path, sizeof path, "%s/%s", source_dir(), rel);
	if (access(path, R_OK) != 0) {
		print_message("SKIP: %s is not there\n", path);
		skip();
	}
	if (profile_load(p, path, &cause) != 0)
		fail_msg("%s", cause);
}

/* read_with_profile reads the CSVs of files (relative to the source folder) modelled with p, each file's rows with
 * its own host line as validate --check does; skips the test when a file is missing. */
static void read_with_profile(const char *const *files, size_t nfile, const struct ss_profile *p,
                              struct ss_validate_set *s)
{
	char(*path)[1024] = calloc(nfile, sizeof *path), *cause = NULL;
	const char **paths = calloc(nfile, sizeof *paths);

	for (size_t k = 0; k < nfile; k++) {
		snprintf(path[k], sizeof path[k], "%s/%s", source_dir(), files[k]);
		paths[k] = path[k];
		if (access(path[k], R_OK) != 0) {
			print_message("SKIP: %s is not there\n", path[k]);
			skip();
		}
	}
	if (validate_read_csvs(paths, nfile, p, s, &cause) != 0)
		fail_msg("%s", cause);
	free(paths);
	free(path);
}

/* read_with: read_with_profile with the profile at prof (relative to the source folder too). */
static void read_with(const char *const *files, size_t nfile, const char *profile, struct ss_validate_set *s)
{
	struct ss_profile p;

	load_profile(profile, &p);
	read_with_profile(files, nfile, &p, s);
}

/* read_h200 reads files (as read_with) modelled with the H200 profile. */
static void read_h200(const char *const *files, size_t nfile, struct ss_validate_set *s)
{
	read_with(files, nfile, "data/profiles/h200.profile", s);
}

/* keep_presets drops every row of s whose preset is not in mask (bit per preset). */
static void keep_presets(struct ss_validate_set *s, unsigned mask)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++)
		if (mask & (1u << s->row[i].preset))
			s->row[k++] = s->row[i];
	s->n = k;
}

/* print_stats says how the model did over s, every row beyond 15% named. */
static void print_stats(const char *what, const struct ss_validate_set *s, const struct ss_validate_stats *st)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_validate_row *r = &s->row[i];
		double err = ((double)r->model_ns - (double)r->measured_ns) / (double)r->measured_ns;

		if (r->measured_ns > 0 && fabs(err) > SS_VALIDATE_WORST_MAX)
			print_message("%s: beyond 15%%: %s %d %s %dq: model %.3f ms, measured %.3f ms (%+.1f%%)\n",
			              what, experiment_preset_name(r->preset), r->streams,
			              experiment_order_name(r->order), r->connections, r->model_ns / 1e6,
			              r->measured_ns / 1e6, 100 * err);
	}
	print_message("%s: %zu rows, median %.2f%%, worst %.2f%% (%s %d %s %dq); %zu beyond 15%%; order %zu/%zu, "
	              "serialisation %zu/%zu, pageable %zu/%zu\n",
	              what, st->n, 100 * st->median_err, 100 * st->worst_err,
	              experiment_preset_name(s->row[st->worst_row].preset), s->row[st->worst_row].streams,
	              experiment_order_name(s->row[st->worst_row].order), s->row[st->worst_row].connections,
	              st->beyond_worst, st->order_agree, st->order_checked, st->serial_agree, st->serial_checked,
	              st->pageable_agree, st->pageable_checked);
}

/* hyperq, whose workload issue 18 left as it was, against the median of its 22 measurements in the files above:
 * within the targets (median <= 5%, worst <= 15%), the faster order agreeing. (The other presets' rows in these
 * files are of the workloads before issue 18: test_h200_documents holds those presets.) */
static void test_h200_matrix(void **state)
{
	struct ss_validate_set s = {0};
	struct ss_validate_stats st;

	(void)state;
	read_h200(matrix_csv, sizeof matrix_csv / sizeof matrix_csv[0], &s);
	keep_presets(&s, 1u << SS_PRESET_HYPERQ);
	validate_stats(&s, &st);
	print_stats("hyperq", &s, &st);
	assert_int_equal(s.n, 8 * 2 * 2);
	for (size_t i = 0; i < s.n; i++)
		assert_int_equal(s.row[i].measured_n, 22);
	assert_true(st.median_err <= SS_VALIDATE_MEDIAN_MAX);
	assert_true(st.worst_err <= SS_VALIDATE_WORST_MAX);
	assert_int_equal(st.order_agree, st.order_checked);
	validate_free(&s);
}

/* The presets issue 18 made the documents' own, measured in two sessions: tests/data/h200/documents (one run of
 * the matrix, its last rows in validate-2 and -3) and tests/data/h200/documents-repeat (five more, r2 of managed,
 * pageable and sync-order only): 5-6 measurements a row, each row held to their median. managed-threads' rows are
 * documents-bench-mt/after/mt-1's (13 rows) and documents-mt-free's seven runs (each task ending with its cudaFree):
 * 7-8 measurements a row; the older ones were timed from after each task's attach (validate_read_csv leaves them
 * out). */
static const char *const documents_csv[] = {
    "tests/data/h200/documents/validate-1.csv",          "tests/data/h200/documents/validate-2.csv",
    "tests/data/h200/documents/validate-3.csv",          "tests/data/h200/documents-repeat/validate-r1.csv",
    "tests/data/h200/documents-repeat/validate-r2.csv",  "tests/data/h200/documents-repeat/validate-r3.csv",
    "tests/data/h200/documents-repeat/validate-r4.csv",  "tests/data/h200/documents-repeat/validate-r5.csv",
    "tests/data/h200/documents-bench-mt/after/mt-1.csv", "tests/data/h200/documents-mt-free/validate-f1.csv",
    "tests/data/h200/documents-mt-free/validate-f2.csv", "tests/data/h200/documents-mt-free/validate-f3.csv",
    "tests/data/h200/documents-mt-free/validate-f4.csv", "tests/data/h200/documents-mt-free/validate-f5.csv",
    "tests/data/h200/documents-mt-free/validate-f6.csv", "tests/data/h200/documents-mt-free/validate-f7.csv",
    "tests/data/h200/managed-probe/validate-m1.csv",     "tests/data/h200/managed-probe/validate-m2.csv",
    "tests/data/h200/managed-probe/validate-m3.csv",     "tests/data/h200/pageable-stage/validate-p1.csv",
    "tests/data/h200/pageable-stage/validate-p2.csv",
};

/* Those presets against the H200 profile with the kernels calibrated there, the managed migration keys measured
 * by tests/gpu/managed_probe.c and the keys fitted to the documents' rows (test_h200_fitted); managed has nine runs
 * (the last three tests/data/h200/managed-probe's). Met: the median (<= 5%), default-stream serialisation (all 30), the
 * faster order (30 of 30 pairs), pageable overlap (32 of 32; 29 before a larger pageable D2H went a staging buffer at a
 * time). Not met, held where they are as ratchets (docs/results.md names the rows): 9 rows beyond 15%, 4 of them beyond
 * their own spread too (managed 8 streams depth-first on 1 queue, +32.5%: measured 4.27 ms, faster than its
 * neighbours in all nine runs and in the probe, the worst; sync-order 128 depth-first on 8 queues and vector-add 128
 * best-first on 1 queue and weaker on 8, host-bound rows within 15% with their runs' own call costs); the others:
 * managed 64 streams depth-first on 1 queue +15.1% (spread 41%), managed-threads 128 tasks +16.0% and +18.8%
 * (spreads 26% and 47%), sync-order 128 depth-first on 1 queue and vector-add 128 best-first on 8. Without
 * managed and managed-threads: median <= 3.5%, worst 19.5% (sync-order 128 streams depth-first on 8 queues), 5 beyond
 * 15%. */
static void test_h200_documents(void **state)
{
	struct ss_validate_set s = {0}, good = {0};
	struct ss_validate_stats st, gst;
	size_t mt = 0;

	(void)state;
	read_h200(documents_csv, sizeof documents_csv / sizeof documents_csv[0], &s);
	validate_stats(&s, &st);
	print_stats("documents", &s, &st);
	assert_int_equal(s.n, 6 * 8 * 2 * 2 + 8 * 2 * 2 + 8 * 2); /* every preset but hyperq (unchanged) */
	for (size_t i = 0; i < s.n; i++) {
		if (s.row[i].preset == SS_PRESET_MANAGED_THREADS)
			mt += s.row[i].measured_n;
		else
			assert_true(s.row[i].measured_n >= (s.row[i].preset == SS_PRESET_DECRYPT ? 1 : 5));
	}
	assert_int_equal(mt, 13 + 7 * 16); /* mt-1's 13 rows, documents-mt-free's seven runs of 16 */
	assert_true(st.median_err <= SS_VALIDATE_MEDIAN_MAX);
	assert_true(st.beyond_worst <= 9);
	assert_true(st.beyond_spread <= 4);
	assert_true(st.worst_err <= 0.326);
	assert_int_equal(st.serial_agree, st.serial_checked);
	assert_true(st.serial_checked >= 30);
	assert_true(st.pageable_agree == st.pageable_checked && st.pageable_agree >= 32);
	assert_true(st.order_agree == st.order_checked && st.order_agree >= 30);
	/* without the two presets of estimated or missed managed costs */
	read_h200(documents_csv, sizeof documents_csv / sizeof documents_csv[0], &good);
	keep_presets(&good, ~((1u << SS_PRESET_MANAGED) | (1u << SS_PRESET_MANAGED_THREADS)));
	validate_stats(&good, &gst);
	print_stats("documents without managed and managed-threads", &good, &gst);
	assert_true(gst.median_err <= 0.035);
	assert_true(gst.beyond_worst <= 5);
	assert_true(gst.worst_err <= 0.196);
	validate_free(&s);
	validate_free(&good);
}

/* The documents' matrix (every preset issue 18 changed but decrypt and managed-threads) measured with CUPTI detached
 * for the untraced runs, twice, on an H100 (tests/data/h200/detach-h100/call2, its README
 * has the command), with that call's own calibrate (calibrated.profile) and with the H200 profile. The pinned
 * presets (kernel-transfer, default-stream, sync-order, vector-add): median within 5% with either profile (2.6% and
 * 4.8%), worst 34.8% with the calibration (kernel-transfer 128 streams depth-first on 8 queues: its host keys from
 * one probe) and 15.8% with the H200 profile's medians of the host's costs; every serialisation agrees, and every
 * faster order but one pair of 34 with the calibration. managed and pageable: the H200 profile's keys (probe-measured
 * and fitted on the H200) predict this card within 9.4% and 8.2% (medians); calibrate's own (api.prefetch_switch_ns 394
 * us, pageable.h2d stage 25 GB/s, the H200's fitted values 46.7 us and 5.9 GB/s) miss both by 40-47%. */
/* The H200 at last with CUPTI detached (tests/data/h200/detach-h200, 2026-12-07): sync-order and vector-add timed
 * once each, calibrate in the same call. Its calibration brings the five host-bound 128-stream rows the attached
 * matrix misses by 15-19.5% within 7.3% (sync-order depth-first -7.3% and -6.6%, vector-add best -4.3% and -6.8%,
 * weaker on 8 queues -3.5%): median 3.5%, worst 8.1% over the 64 rows. */
static void test_h200_detached(void **state)
{
	static const char *const files[] = {"tests/data/h200/detach-h200/validate-1.csv"};
	struct ss_validate_set s = {0};
	struct ss_validate_stats st;
	size_t detached = 0, attached = 0, host = 0;

	(void)state;
	read_with(files, 1, "tests/data/h200/detach-h200/calibrated.profile", &s);
	assert_int_equal(s.n, 2 * 8 * 2 * 2);
	validate_twins(&s, &detached, &attached);
	assert_int_equal(detached, s.n);
	validate_stats(&s, &st);
	print_stats("H200 detached, its own calibration", &s, &st);
	assert_true(st.median_err <= SS_VALIDATE_MEDIAN_MAX);
	assert_true(st.worst_err <= 0.082);
	assert_int_equal(st.order_agree, st.order_checked);
	for (size_t i = 0; i < s.n; i++) {
		const struct ss_validate_row *r = &s.row[i];
		double err = (double)r->model_ns / (double)r->measured_ns - 1.0;

		if (r->streams == 128 &&
		    (r->preset == SS_PRESET_SYNC_ORDER ? r->order == SS_ORDER_DEPTH
		                                       : r->order != SS_ORDER_WEAKER || r->connections == 8)) {
			host++;
			assert_true(fabs(err) <= 0.074);
		}
	}
	assert_int_equal(host, 5);
	validate_free(&s);
}

static void test_h100_detached(void **state)
{
	static const char *const files[] = {"tests/data/h200/detach-h100/call2/validate-1.csv",
	                                    "tests/data/h200/detach-h100/call2/validate-2.csv"};
	static const char *const profiles[] = {"tests/data/h200/detach-h100/call2/calibrated.profile",
	                                       "data/profiles/h200.profile"};
	const unsigned pinned = (1u << SS_PRESET_KERNEL_TRANSFER) | (1u << SS_PRESET_DEFAULT_STREAM) |
	                        (1u << SS_PRESET_SYNC_ORDER) | (1u << SS_PRESET_VECTOR_ADD);

	(void)state;
	for (int pr = 0; pr < 2; pr++) {
		struct ss_validate_set s = {0}, m = {0}, g = {0};
		struct ss_validate_stats st, mst, gst;
		size_t detached = 0, attached = 0;

		read_with(files, 2, profiles[pr], &s);
		assert_int_equal(s.n, 6 * 8 * 2 * 2);
		validate_twins(&s, &detached, &attached);
		assert_int_equal(detached, s.n);
		assert_int_equal(attached, 0);
		for (size_t i = 0; i < s.n; i++)
			assert_int_equal(s.row[i].measured_n, 2);
		keep_presets(&s, pinned);
		validate_stats(&s, &st);
		print_stats(pr == 0 ? "H100, calibrated, pinned presets" : "H100, H200 profile, pinned presets", &s,
		            &st);
		assert_int_equal(s.n, 4 * 8 * 2 * 2);
		assert_true(st.median_err <= SS_VALIDATE_MEDIAN_MAX);
		assert_true(st.worst_err <= (pr == 0 ? 0.349 : 0.159));
		/* with the calibration one pair of 34 disagrees */
		assert_true(st.order_checked == 34 && st.order_agree >= (pr == 0 ? 33u : 34u));
		assert_int_equal(st.serial_agree, st.serial_checked);
		assert_int_equal(st.serial_checked, 30);
		for (int which = 0; which < 2; which++) {
			struct ss_validate_set *q = which == 0 ? &m : &g;
			struct ss_validate_stats *qs = which == 0 ? &mst : &gst;

			read_with(files, 2, profiles[pr], q);
			keep_presets(q, 1u << (which == 0 ? SS_PRESET_MANAGED : SS_PRESET_PAGEABLE));
			validate_stats(q, qs);
			print_stats(which == 0 ? "H100 managed" : "H100 pageable", q, qs);
			assert_int_equal(q->n, 32);
			if (pr == 0)
				assert_true(qs->median_err > 0.35);
			else
				assert_true(qs->median_err <= (which == 0 ? 0.095 : 0.086));
		}
		/* call2's calibration staged pageable H2D at its traced single copies' 25.2 GB/s: 28 of 32 */
		assert_true(gst.pageable_agree >= (pr == 0 ? 28u : 32u));
		validate_free(&s);
		validate_free(&m);
		validate_free(&g);
	}
}

/* The whole documents' matrix (all eight presets issue 18 changed, 240 rows) measured twice with CUPTI detached, on an
 * H100 (tests/data/h200/matrix-h100, 2026-12-07: the session's one machine), modelled with that call's calibrate. The
 * presets whose costs calibrate measures (kernel-transfer, decrypt, sync-order, vector-add): median <= 5%, worst
 * 14.7% (sync-order); with default-stream (16-32 streams depth-first, -15.1..-18.4%: its legacy-stream waits) 18.4%.
 * The H200's fitted managed and pageable keys do not carry to this card, nor do calibrate's own (managed 65.0%,
 * pageable 23.3%); every serialisation and pageable overlap agrees, 48 of 50 faster orders. */
static void test_h100_matrix(void **state)
{
	static const char *const files[] = {"tests/data/h200/matrix-h100/validate-1.csv",
	                                    "tests/data/h200/matrix-h100/validate-2.csv"};
	const unsigned calibrated = (1u << SS_PRESET_KERNEL_TRANSFER) | (1u << SS_PRESET_DECRYPT) |
	                            (1u << SS_PRESET_SYNC_ORDER) | (1u << SS_PRESET_VECTOR_ADD);
	struct ss_validate_set s = {0}, c = {0};
	struct ss_validate_stats st, cst;
	size_t detached = 0, attached = 0;

	(void)state;
	read_with(files, 2, "tests/data/h200/matrix-h100/calibrated.profile", &s);
	assert_int_equal(s.n, 7 * 8 * 2 * 2 + 8 * 2);
	validate_twins(&s, &detached, &attached);
	assert_int_equal(detached, s.n);
	for (size_t i = 0; i < s.n; i++)
		assert_int_equal(s.row[i].measured_n, 2);
	validate_stats(&s, &st);
	print_stats("H100 whole matrix, its own calibration", &s, &st);
	assert_true(st.median_err <= SS_VALIDATE_MEDIAN_MAX);
	assert_int_equal(st.serial_agree, st.serial_checked);
	assert_true(st.pageable_agree == st.pageable_checked && st.pageable_agree >= 32);
	assert_true(st.order_checked == 50 && st.order_agree >= 48);
	read_with(files, 2, "tests/data/h200/matrix-h100/calibrated.profile", &c);
	keep_presets(&c, calibrated);
	validate_stats(&c, &cst);
	print_stats("H100, the presets calibrate covers", &c, &cst);
	assert_int_equal(c.n, 4 * 8 * 2 * 2);
	assert_true(cst.median_err <= SS_VALIDATE_MEDIAN_MAX);
	assert_true(cst.worst_err <= SS_VALIDATE_WORST_MAX);
	validate_free(&s);
	validate_free(&c);
}

/* calibrate's workload keys from four stream counts against one (tests/data/h200/calibrate-points-h100: on one H100,
 * the calibrate before the change, the one after, then the managed and pageable rows measured once each, CUPTI
 * detached). The one-stream solve gave pageable.h2d.stage_gbs 17.09, the median of 1, 4, 16 and 64 streams 10.94 (its
 * points 10.52, 13.04, 8.65, 11.37; the rows themselves ask 8.65): the pageable rows' median error 21.2% -> 11.7%,
 * rows beyond 15% 25 -> 10. managed.fault_gbs 4.226 -> 4.165 (points 3.148, 4.118, 4.584, 4.211; the rows ask 4.35)
 * leaves the managed rows where they were, 9.0% -> 9.6% (6 -> 8 beyond 15%), within these rows' noise: one
 * measurement a row, and the same work on one queue and on eight differs by up to 13%. */
static void test_h100_workload_points(void **state)
{
	static const char *const files[] = {"tests/data/h200/calibrate-points-h100/validate.csv"};
	static const char *const profs[] = {"tests/data/h200/calibrate-points-h100/old.profile",
	                                    "tests/data/h200/calibrate-points-h100/new.profile"};
	static const double stage[] = {17.09, 10.94}, fault[] = {4.226, 4.165};
	double med[2][2];
	size_t beyond[2][2];

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct ss_profile p;

		load_profile(profs[k], &p);
		assert_true(fabs(p.pageable_h2d_stage_gbs - stage[k]) < 0.01);
		assert_true(fabs(p.fault_gbs - fault[k]) < 0.001);
		for (int q = 0; q < 2; q++) {
			struct ss_validate_set s = {0};
			struct ss_validate_stats st;

			read_with(files, 1, profs[k], &s);
			keep_presets(&s, 1u << (q == 0 ? SS_PRESET_PAGEABLE : SS_PRESET_MANAGED));
			assert_int_equal(s.n, 32);
			validate_stats(&s, &st);
			print_stats(k == 0 ? "H100, one-stream solve" : "H100, median of four stream counts", &s, &st);
			med[k][q] = st.median_err;
			beyond[k][q] = st.beyond_worst;
			validate_free(&s);
		}
	}
	assert_true(fabs(med[0][0] - 0.212) < 0.001 && fabs(med[1][0] - 0.117) < 0.001);
	assert_int_equal(beyond[0][0], 25);
	assert_int_equal(beyond[1][0], 10);
	assert_true(fabs(med[0][1] - 0.090) < 0.001 && fabs(med[1][1] - 0.096) < 0.001);
	assert_int_equal(beyond[0][1], 6);
	assert_int_equal(beyond[1][1], 8);
}

/* solve_stage sets p's pageable.h2d.stage_gbs as calibrate's cal_workload_solve does at each point
 * (calibrate_solve_key, 0.5..500 GB/s) so that the model gives the one-stream pageable workload the measured makespan
 * (ns), within 2%. */
static void solve_stage(struct ss_profile *p, double measured)
{
	struct ss_experiment e;
	char *cause = NULL;
	uint64_t t;

	experiment_preset(&e, SS_PRESET_PAGEABLE);
	e.streams = 1;
	e.chunks = 0;
	if (calibrate_solve_key(p, &e, measured, "pageable.h2d.stage_gbs", 0.5, 500, &cause) != 0 ||
	    (t = model_makespan(&e, p, &cause)) == 0)
		fail_msg("%s", cause);
	assert_true(fabs((double)t - measured) <= 0.02 * measured);
}

/* calibrate's pageable.h2d.stage_gbs solved on the pageable workload's untraced makespan, on the H100
 * (tests/data/h200/detach-h100/call3/pageable: one stream's 8.600 ms). That calibration solved 6.889 GB/s with the
 * model of the time, whose pageable H2D held its host thread until its DMA ended; solved again here as calibrate
 * solves a point (cal_workload_solve: the rate whose model gives that makespan, every other key the call's: 5.93), it
 * predicts the pageable rows of that call and of call2 (a matrix the calibration never saw) with median 6.8%,
 * worst 18.2%, where call2's calibrate, with the rate of the traced single copies (25.2 GB/s), missed them by 46.5%
 * (median). */
static void test_h100_pageable_stage(void **state)
{
	static const char *const files[] = {"tests/data/h200/detach-h100/call2/validate-1.csv",
	                                    "tests/data/h200/detach-h100/call2/validate-2.csv",
	                                    "tests/data/h200/detach-h100/call3/pageable/validate-1.csv",
	                                    "tests/data/h200/detach-h100/call3/pageable/validate-2.csv"};
	const char *solved = "tests/data/h200/detach-h100/call3/pageable/calibrated.profile";
	const double measured = 8600256.0;
	struct ss_validate_set s = {0}, old = {0};
	struct ss_validate_stats st, ost;
	struct ss_profile p;

	(void)state;
	load_profile(solved, &p);
	assert_int_equal(p.prov[profile_key_find("pageable.h2d.stage_gbs")], SS_PROV_MEASURED);
	assert_true(fabs(p.pageable_h2d_stage_gbs - 6.889) < 0.001);
	solve_stage(&p, measured);
	print_message("pageable.h2d.stage_gbs solved again: %g\n", p.pageable_h2d_stage_gbs);
	read_with_profile(files, 4, &p, &s);
	keep_presets(&s, 1u << SS_PRESET_PAGEABLE);
	validate_stats(&s, &st);
	print_stats("H100 pageable, stage solved", &s, &st);
	assert_int_equal(s.n, 32);
	assert_true(st.median_err <= 0.068 && st.worst_err <= 0.182);
	read_with(files, 2, "tests/data/h200/detach-h100/call2/calibrated.profile", &old);
	keep_presets(&old, 1u << SS_PRESET_PAGEABLE);
	validate_stats(&old, &ost);
	assert_true(ost.median_err > 0.35);
	validate_free(&s);
	validate_free(&old);
}

/* calibrate's managed keys on the H100, every managed row it measured (call2, call3/matrix, call4 of
 * tests/data/h200/detach-h100: 4 measurements a row). call4's calibrate took api.prefetch_switch_ns from the small
 * managed run only: 38.6 us (with the large run's 32 MiB wait in it: 388-419 us), and its calibration gives median
 * 24.7%, worst 35.0%, where call2's gave 40.1% and 432%. The fault rate it took from a traced kernel (5.47 GB/s) is
 * what is left: solved, as calibrate solves a point (cal_workload_solve), on the one-stream row's measured makespan, it
 * is 2.98 GB/s and the rows' median 12.6% (worst 50.6%: 8 streams depth-first on one queue, which the H200's matrix
 * misses too). */
static void test_h100_managed_calibrated(void **state)
{
	static const char *const files[] = {"tests/data/h200/detach-h100/call2/validate-1.csv",
	                                    "tests/data/h200/detach-h100/call2/validate-2.csv",
	                                    "tests/data/h200/detach-h100/call3/matrix/validate-1.csv",
	                                    "tests/data/h200/detach-h100/call4/validate-1.csv"};
	const char *prof = "tests/data/h200/detach-h100/call4/calibrated.profile";
	struct ss_validate_set s = {0};
	struct ss_validate_stats st;
	struct ss_experiment e;
	struct ss_profile p;
	char *cause = NULL;
	double measured = 0, lo = 0.5, hi = 50;
	int fk = profile_key_find("managed.fault_gbs");

	(void)state;
	load_profile(prof, &p);
	assert_true(p.api_prefetch_switch_ns > 20000 && p.api_prefetch_switch_ns < 2 * 46700);
	read_with(files, 4, prof, &s);
	keep_presets(&s, 1u << SS_PRESET_MANAGED);
	validate_stats(&s, &st);
	print_stats("H100 managed, call4's calibration", &s, &st);
	assert_int_equal(s.n, 32);
	assert_true(st.median_err <= 0.248 && st.worst_err <= 0.351);
	/* the fault rate solved on the one-stream row (depth-first, one queue), as cal_workload_solve solves a point */
	for (size_t i = 0; i < s.n; i++)
		if (s.row[i].streams == 1 && s.row[i].order == SS_ORDER_DEPTH && s.row[i].connections == 1)
			measured = (double)s.row[i].measured_ns;
	assert_true(measured > 0);
	experiment_preset(&e, SS_PRESET_MANAGED);
	e.streams = 1;
	e.chunks = 0;
	for (int it = 0; it < 50; it++) { /* the makespan falls as the rate rises */
		double mid = sqrt(lo * hi);
		uint64_t t;

		profile_set(&p, fk, mid, SS_PROV_MEASURED);
		assert_true((t = model_makespan(&e, &p, &cause)) > 0);
		if ((double)t > measured)
			lo = mid;
		else
			hi = mid;
	}
	print_message("H100 managed: managed.fault_gbs solved on %.3f ms: %.3f GB/s\n", measured / 1e6, lo);
	assert_true(lo > 2.5 && lo < 3.5);
	assert_int_equal(validate_model(&p, &s, &cause), 0);
	validate_stats(&s, &st);
	print_stats("H100 managed, fault solved", &s, &st);
	assert_true(st.median_err <= 0.127 && st.worst_err <= 0.507);
	validate_free(&s);
}

/* calibrate with the model whose pageable H2D returns once its data are staged, on an H100
 * (tests/data/h200/detach-h100/call6, its README has the commands): it reads the staging piece off the traced copies
 * (about 1 MiB, as the H200's timelines show) and solves the staging rate on the untraced one-stream workload; its
 * own profile against the pageable and managed rows measured twice right after (CUPTI detached): pageable median
 * 8.5%, worst 22.0%, managed 6.7% / 23.5%, held where they are as ratchets (call5's calibrate, with the model before
 * on another machine: 14.4% / 89.8% and 23.6% / 57.0%). The H200 profile misses this host's pageable rows by 25.8%
 * (median): its staging is the H200 matrix's host's. */
static void test_h100_staged(void **state)
{
	static const char *const files[] = {"tests/data/h200/detach-h100/call6/a/validate-1.csv",
	                                    "tests/data/h200/detach-h100/call6/b/validate-1.csv"};
	const char *prof = "tests/data/h200/detach-h100/call6/a/h200.profile";
	static const struct {
		enum ss_preset preset;
		double median, worst;
	} held[] = {{SS_PRESET_PAGEABLE, 0.086, 0.221}, {SS_PRESET_MANAGED, 0.068, 0.236}};
	struct ss_profile p;
	struct ss_validate_stats st;

	(void)state;
	load_profile(prof, &p);
	assert_int_equal(p.prov[profile_key_find("pageable.h2d.stage_bytes")], SS_PROV_MEASURED);
	assert_true(fabs(p.pageable_h2d_stage_bytes - 1048576.0) <= 0.1 * 1048576.0);
	assert_true(p.pageable_h2d.bw_gbs > 40 && p.pageable_h2d.bw_gbs < 70); /* a DMA's, not the staging's pace */
	for (size_t k = 0; k < sizeof held / sizeof held[0]; k++) {
		struct ss_validate_set s = {0};
		size_t detached = 0, attached = 0;

		read_with(files, 2, prof, &s);
		keep_presets(&s, 1u << held[k].preset);
		validate_twins(&s, &detached, &attached);
		assert_int_equal(detached, 32);
		validate_stats(&s, &st);
		print_stats("H100, calibrate's staged pageable H2D", &s, &st);
		assert_int_equal(s.n, 32);
		assert_true(st.median_err <= held[k].median && st.worst_err <= held[k].worst);
		validate_free(&s);
		if (held[k].preset == SS_PRESET_PAGEABLE) {
			read_with(files, 2, "data/profiles/h200.profile", &s);
			keep_presets(&s, 1u << SS_PRESET_PAGEABLE);
			validate_stats(&s, &st);
			assert_true(st.median_err > 0.2);
			validate_free(&s);
		}
	}
}

/* calibrate with cal_trace's runs in turn (three pairs of 8 queues and one), on an H100
 * (tests/data/h200/detach-h100/call5, its README has the commands): its own profile (a/documents/h200.profile)
 * against the matrix measured twice right after it on the same machine (a/ and b/, CUPTI detached). The pinned
 * presets meet the targets with calibrate's own keys: median 2.4% (<= 5%), worst 14.2% (<= 15%: default-stream 16
 * streams depth-first on 1 queue), every faster order (31 pairs) and serialisation (30) agrees; api.copy_queues_ns
 * 143 ns (one pair of runs had given 0..2063 on this card). managed and pageable do not, and are held where they are
 * as ratchets: managed 23.6% / 57.0% (the one-stream row took 7.66 ms in calibrate's fault solve and 6.78 ms in
 * the matrix, spread 24%), pageable 12.1% / 38.1% with its staging rate solved again for the model whose pageable
 * H2D returns once staged (6.39 GB/s; 14.4% / 89.8% with the model before, whose H2D held its thread until its DMA
 * ended; calibrate's one-stream run took 7.88 ms, the matrix's 7.25-7.43). The detach step's runs verified with
 * every record their op lists expect, CUPTI kept attached (SS_CUPTI_DETACH=0) as well. */
static void test_h100_pairs(void **state)
{
	static const char *const files[] = {"tests/data/h200/detach-h100/call5/a/documents/validate-1.csv",
	                                    "tests/data/h200/detach-h100/call5/b/documents/validate-1.csv"};
	const char *prof = "tests/data/h200/detach-h100/call5/a/documents/h200.profile";
	const unsigned pinned = (1u << SS_PRESET_KERNEL_TRANSFER) | (1u << SS_PRESET_DEFAULT_STREAM) |
	                        (1u << SS_PRESET_SYNC_ORDER) | (1u << SS_PRESET_VECTOR_ADD);
	static const struct {
		unsigned mask;
		double median, worst;
	} held[] = {{1u << SS_PRESET_MANAGED, 0.237, 0.571}, {1u << SS_PRESET_PAGEABLE, 0.122, 0.381}};
	struct ss_validate_set s = {0};
	struct ss_validate_stats st;
	struct ss_profile p;
	char path[1024], line[512];
	FILE *f;
	int lines = 0, kept_attached = 0;

	(void)state;
	load_profile(prof, &p);
	assert_true(p.api_copy_queues_ns >= 0 && p.api_copy_queues_ns < 1000);
	read_with(files, 2, prof, &s);
	assert_int_equal(s.n, 6 * 8 * 2 * 2);
	keep_presets(&s, pinned);
	validate_stats(&s, &st);
	print_stats("H100, calibrate's runs in turn, pinned presets", &s, &st);
	assert_int_equal(s.n, 4 * 8 * 2 * 2);
	assert_true(validate_passes(&st));
	assert_true(st.median_err <= SS_VALIDATE_MEDIAN_MAX && st.worst_err <= SS_VALIDATE_WORST_MAX);
	assert_true(st.order_checked >= 31 && st.order_agree == st.order_checked);
	assert_true(st.serial_checked == 30 && st.serial_agree == 30);
	validate_free(&s);
	/* pageable.h2d.stage_gbs as calibrate now solves it on its untraced one-stream run (calibrate.txt: 7.883 ms;
	 * this calibrate solved 7.488 with the model of the time, whose pageable H2D held its thread until its DMA
	 * ended) */
	solve_stage(&p, 7883200.0);
	print_message("pageable.h2d.stage_gbs solved again: %g\n", p.pageable_h2d_stage_gbs);
	for (size_t k = 0; k < sizeof held / sizeof held[0]; k++) {
		struct ss_validate_set h = {0};

		read_with_profile(files, 2, &p, &h);
		keep_presets(&h, held[k].mask);
		validate_stats(&h, &st);
		print_stats("H100, calibrate's runs in turn", &h, &st);
		assert_int_equal(h.n, 32);
		assert_true(st.median_err <= held[k].median && st.worst_err <= held[k].worst);
		validate_free(&h);
	}
	snprintf(path, sizeof path, "%s/tests/data/h200/detach-h100/call5/a/documents/detach.txt", source_dir());
	assert_non_null(f = fopen(path, "r"));
	while (fgets(line, sizeof line, f) != NULL) {
		if (strstr(line, "verified=") == NULL)
			continue;
		lines++;
		assert_non_null(strstr(line, "verified=True records_as_expected=True"));
		if (strstr(line, "SS_CUPTI_DETACH=0") != NULL) {
			assert_non_null(strstr(line, "untraced_cupti=attached"));
			kept_attached++;
		} else {
			assert_non_null(strstr(line, "untraced_cupti=detached"));
		}
	}
	fclose(f);
	assert_int_equal(lines, 6);
	assert_int_equal(kept_attached, 1);
}

/* The profile keys fitted to the documents' rows (profile.c names them, docs/results.md has the command that fits
 * them: `streamscope validate --check ... --preset P --fit KEY=LO:HI,...`): each committed value is where
 * validate_fit's score has its minimum over its preset's rows, within 2%: the score there is no worse than at
 * 3% either side of any one of them. So a fitted value stands for a fit the code reproduces, not a number typed
 * in, and a model change that moves the fit fails here until the keys are fitted again. */
static void test_h200_fitted(void **state)
{
	/* managed's rows are the documents' matrix's nine runs; managed-threads' are mt-1's and documents-mt-free's:
	 * validate-2's were timed from after the attach, and are left out */
	static const char *const files[] = {
	    "tests/data/h200/documents/validate-1.csv",          "tests/data/h200/documents/validate-2.csv",
	    "tests/data/h200/documents/validate-3.csv",          "tests/data/h200/documents-bench-mt/after/mt-1.csv",
	    "tests/data/h200/documents-mt-free/validate-f1.csv", "tests/data/h200/documents-mt-free/validate-f2.csv",
	    "tests/data/h200/documents-mt-free/validate-f3.csv", "tests/data/h200/documents-mt-free/validate-f4.csv",
	    "tests/data/h200/documents-mt-free/validate-f5.csv", "tests/data/h200/documents-mt-free/validate-f6.csv",
	    "tests/data/h200/documents-mt-free/validate-f7.csv"};
	static const struct {
		enum ss_preset preset;
		const char *keys[5];
	} fits[] = {
	    {SS_PRESET_MANAGED, {"managed.prefetch_wait_ns", NULL}},
	    {SS_PRESET_PAGEABLE, {"pageable.h2d.stage_gbs", NULL}},
	    {SS_PRESET_MANAGED_THREADS,
	     {"managed.attach_latency_ns", "managed.attach_gbs", "host.process_ns", "host.process_gbs",
	      "host.process_alone_ns"}},
	};
	struct ss_profile p;
	char *cause = NULL;

	(void)state;
	load_profile("data/profiles/h200.profile", &p);
	for (size_t f = 0; f < sizeof fits / sizeof fits[0]; f++) {
		struct ss_validate_set s = {0};
		double at, other;
		size_t n;

		if (fits[f].preset == SS_PRESET_MANAGED)
			read_h200(documents_csv, sizeof documents_csv / sizeof documents_csv[0], &s);
		else
			read_h200(files, sizeof files / sizeof files[0], &s);
		keep_presets(&s, 1u << fits[f].preset);
		assert_int_equal(validate_fit_score(&p, &s, &at, &n, &cause), 0);
		assert_true(n >= 13);
		for (size_t k = 0; k < 5 && fits[f].keys[k] != NULL; k++) {
			int key = profile_key_find(fits[f].keys[k]);
			double v = profile_get(&p, key);

			assert_true(key >= 0);
			assert_int_equal(p.prov[key], SS_PROV_FITTED);
			for (int side = -1; side <= 1; side += 2) {
				struct ss_profile q = p;

				profile_set(&q, key, v * (side < 0 ? 1 / 1.03 : 1.03), SS_PROV_FITTED);
				assert_int_equal(validate_fit_score(&q, &s, &other, &n, &cause), 0);
				print_message("%s: %s %g: score %.5f, at %g %.5f\n",
				              experiment_preset_name(fits[f].preset), fits[f].keys[k], v, at,
				              profile_get(&q, key), other);
				assert_true(at <= other + 1e-4);
			}
		}
		validate_free(&s);
	}
}

/* Every preset x 8 stream counts x 2 orders x 2 queue counts (managed-threads: depth-first only); quick: 2 stream
 * counts. */
static void test_matrix(void **state)
{
	struct ss_validate_set s = {0}, q = {0};

	(void)state;
	validate_matrix(false, &s);
	assert_int_equal(s.n, (SS_PRESET_COUNT - 1) * 8 * 2 * 2 + 8 * 2);
	validate_matrix(true, &q);
	assert_int_equal(q.n, (SS_PRESET_COUNT - 1) * 2 * 2 * 2 + 2 * 2);
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
	/* document 003's orders are a pair too: best measured faster, the model says weaker is */
	push(&s, row(SS_PRESET_VECTOR_ADD, 2, SS_ORDER_BEST, 1, 3200, 3800));
	push(&s, row(SS_PRESET_VECTOR_ADD, 2, SS_ORDER_WEAKER, 1, 3800, 3700));
	validate_stats(&s, &st);
	assert_int_equal(st.order_checked, 2);
	assert_int_equal(st.order_agree, 1);
	s.row[s.n - 2].model_ns = 3100;
	validate_stats(&s, &st);
	assert_int_equal(st.order_agree, 2);
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
	size_t detached, attached;
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
	assert_int_equal(write_csv(path, &s, &cause), 0);
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
	assert_int_equal(t.row[1].preset, SS_PRESET_PAGEABLE); /* kept: the file has the timer line */
	/* no '# untraced:' line: the one untraced measurement counts as taken with CUPTI attached */
	validate_twins(&t, &detached, &attached);
	assert_int_equal(detached, 0);
	assert_int_equal(attached, 1);
	validate_free(&t);
	/* measured with CUPTI detached: the file says so, and its untraced rows count so when read back */
	s.row[0].measured_detached = true;
	assert_int_equal(write_csv(path, &s, &cause), 0);
	assert_int_equal(validate_read_csv(path, &t, &cause), 0);
	assert_true(t.row[0].measured_detached);
	validate_twins(&t, &detached, &attached);
	assert_int_equal(detached, 1);
	assert_int_equal(attached, 0);
	validate_free(&t);
	/* one untraced row attached beside a detached one: no line, both count as attached when read */
	s.row[1].measured_ns = 4113000;
	s.row[1].measured_untraced = true;
	assert_int_equal(write_csv(path, &s, &cause), 0);
	assert_int_equal(validate_read_csv(path, &t, &cause), 0);
	validate_twins(&t, &detached, &attached);
	assert_int_equal(detached, 0);
	assert_int_equal(attached, 2);
	validate_free(&t);
	/* Without the timer line (a file measured before the timer moved), the rows whose timer now starts before a
	 * first call (pageable, managed prefetch) are left out, the others kept. */
	f = fopen(path, "w");
	fputs("# device: NVIDIA H200\n"
	      "preset,streams,order,connections,measured_ns,measured_untraced,model_ns,measured_overlap,model_overlap,"
	      "measured_cross,model_cross\n"
	      "pageable,1,depth,8,4113000,1,0,0,0,-1,-1\n"
	      "managed,8,breadth,1,3900000,1,0,0,0,-1,-1\n"
	      "kernel-transfer,8,depth,8,811000,1,0,0,0,-1,-1\n",
	      f);
	fclose(f);
	assert_int_equal(validate_read_csv(path, &t, &cause), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.row[0].preset, SS_PRESET_KERNEL_TRANSFER);
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
	     ":2: bad streams '129' (valid: 1..128)"},
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
	/* not a file: refused before a byte is read (/dev/zero would be one endless line) */
	assert_int_equal(validate_read_csv(dir, &t, &cause), -1);
	assert_non_null(strstr(cause, "is a directory"));
	free(cause);
	assert_int_equal(validate_read_csv("/dev/zero", &t, &cause), -1);
	assert_non_null(strstr(cause, "not a regular file"));
	free(cause);
	/* a line no validate CSV has */
	f = fopen(path, "w");
	for (int i = 0; i < 70000; i++)
		fputc('a', f);
	fclose(f);
	assert_int_equal(validate_read_csv(path, &t, &cause), -1);
	assert_non_null(strstr(cause, ":1: a line of over 65536 bytes"));
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
		assert_int_equal(write_csv(path[k], &f, &cause), 0);
		validate_free(&f);
	}
	assert_int_equal(validate_read_csvs(paths, 3, NULL, &t, &cause), 0);
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
	assert_int_equal(validate_read_csvs(paths, 4, NULL, &t, &cause), -1);
	assert_non_null(strstr(cause, "/nonexistent/v.csv"));
	free(cause);
	validate_free(&t);
	for (int k = 0; k < 3; k++)
		unlink(path[k]);
	rmdir(dir);
}

/* Files measured with CUPTI attached and detached: a row that any file measured detached takes the detached
 * measurements only (attached, CUPTI costs each call); a row no file measured detached keeps every measurement. */
static void test_csvs_detached(void **state)
{
	char dir[] = "/tmp/ss_validate_XXXXXX", path[3][128], *cause = NULL;
	const char *paths[3];
	struct ss_validate_set f = {0}, t = {0};
	static const uint64_t a[3] = {300, 250, 200}; /* attached, attached, detached */
	static const uint64_t b[3] = {110, 100, 0};   /* attached, attached, unmeasured */

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int k = 0; k < 3; k++) {
		struct ss_validate_row r = row(SS_PRESET_VECTOR_ADD, 128, SS_ORDER_BEST, 8, a[k], 0);
		struct ss_validate_row q = row(SS_PRESET_SYNC_ORDER, 128, SS_ORDER_DEPTH, 1, b[k], 0);

		r.measured_untraced = q.measured_untraced = true;
		r.measured_detached = q.measured_detached = k == 2; /* a file is detached or not as a whole */
		snprintf(path[k], sizeof path[k], "%s/v%d.csv", dir, k);
		paths[k] = path[k];
		memset(&f, 0, sizeof f);
		push(&f, r);
		push(&f, q);
		snprintf(f.device, sizeof f.device, "NVIDIA H200");
		assert_int_equal(write_csv(path[k], &f, &cause), 0);
		validate_free(&f);
	}
	assert_int_equal(validate_read_csvs(paths, 3, NULL, &t, &cause), 0);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.row[0].measured_ns, 200); /* the detached one; not the attached 300 and 250 */
	assert_int_equal(t.row[0].measured_n, 1);
	assert_true(t.row[0].measured_detached);
	assert_int_equal(t.row[1].measured_ns, 105); /* both attached measurements */
	assert_int_equal(t.row[1].measured_n, 2);
	assert_false(t.row[1].measured_detached);
	validate_free(&t);
	for (int k = 0; k < 3; k++)
		unlink(path[k]);
	rmdir(dir);
}

/* A matrix's host line: written and read back, applied by the model over the profile's call costs (each file's own
 * to its own rows when several are read), and a bad one refused with a line naming it. */
static void test_host_line(void **state)
{
	char dir[] = "/tmp/ss_validate_XXXXXX", path[2][128], *cause = NULL;
	const char *paths[2];
	struct ss_validate_set f = {0}, t = {0};
	struct ss_profile p, slow;
	uint64_t plain, median, slow_host;
	FILE *bad;

	(void)state;
	assert_non_null(mkdtemp(dir));
	profile_builtin(&p);
	/* hyperq breadth-first on 32 streams is launch-bound: the launch cost shows in its makespan */
	push(&f, row(SS_PRESET_HYPERQ, 32, SS_ORDER_BREADTH, 8, 1000000, 0));
	assert_int_equal(validate_model(&p, &f, &cause), 0);
	plain = f.row[0].model_ns;
	assert_int_equal(f.row[0].model_probe_ns, 0); /* no host line: no second prediction */
	slow = p;
	slow.api_launch_ns = 3 * p.api_launch_ns;
	validate_host_format(&slow, f.host, sizeof f.host);
	assert_non_null(strstr(f.host, "api.launch_ns="));
	assert_int_equal(validate_model(&p, &f, &cause), 0);
	/* the prediction is the profile's; the host line makes the second one */
	assert_int_equal(f.row[0].model_ns, plain);
	slow_host = f.row[0].model_probe_ns;
	assert_true(slow_host > plain + 64 * p.api_launch_ns); /* 64 launches, each 2x the profile's cost more */
	/* the costs measured again after the matrix: kept, not modelled */
	snprintf(f.host_after, sizeof f.host_after, "api.launch_ns=%.0f", 9 * p.api_launch_ns);
	assert_int_equal(validate_model(&p, &f, &cause), 0);
	assert_int_equal(f.row[0].model_probe_ns, slow_host);
	snprintf(path[0], sizeof path[0], "%s/slow.csv", dir);
	assert_int_equal(write_csv(path[0], &f, &cause), 0);
	f.host[0] = f.host_after[0] = '\0';
	snprintf(path[1], sizeof path[1], "%s/plain.csv", dir);
	assert_int_equal(write_csv(path[1], &f, &cause), 0);
	validate_free(&f);
	assert_int_equal(validate_read_csv(path[0], &t, &cause), 0);
	assert_non_null(strstr(t.host, "api.launch_ns="));
	assert_non_null(strstr(t.host_after, "api.launch_ns="));
	assert_true(strcmp(t.host, t.host_after) != 0);
	validate_free(&t);
	/* two files, one with a host line: the prediction is the profile's, the probe's from the file that has one */
	paths[0] = path[0];
	paths[1] = path[1];
	assert_int_equal(validate_read_csvs(paths, 2, &p, &t, &cause), 0);
	median = t.row[0].model_ns;
	assert_int_equal(median, plain);
	assert_int_equal(t.row[0].model_probe_ns, slow_host);
	assert_string_equal(t.host, "");
	{
		struct ss_validate_stats st;

		validate_stats(&t, &st);
		assert_int_equal(st.probe_n, 1);
		assert_true(fabs(st.probe_worst_err - fabs((double)slow_host - 1e6) / 1e6) < 1e-12);
	}
	validate_free(&t);
	/* a row's own call costs: kept through the CSV, modelled over the file's, counted apart */
	memset(&f, 0, sizeof f);
	push(&f, row(SS_PRESET_HYPERQ, 32, SS_ORDER_BREADTH, 8, 1000000, 0));
	snprintf(f.row[0].calls, sizeof f.row[0].calls, "api.launch_ns=%.0f;host.gap_ns=0", 3 * p.api_launch_ns);
	assert_int_equal(write_csv(path[1], &f, &cause), 0);
	validate_free(&f);
	assert_int_equal(validate_read_csvs(paths + 1, 1, &p, &t, &cause), 0);
	assert_non_null(strstr(t.row[0].calls, "api.launch_ns="));
	assert_int_equal(t.row[0].model_ns, plain);
	/* the launches' 3x cost as in slow_host, less the host's own gaps between calls, set to 0 */
	assert_true(t.row[0].model_own_ns > slow_host - 64 * 400 && t.row[0].model_own_ns < slow_host);
	{
		struct ss_validate_stats st;

		validate_stats(&t, &st);
		assert_int_equal(st.own_n, 1);
		assert_true(fabs(st.own_worst_err - fabs((double)t.row[0].model_own_ns - 1e6) / 1e6) < 1e-12);
	}
	validate_free(&t);
	/* a GPU key on the host line, and garbage */
	bad = fopen(path[1], "w");
	assert_non_null(bad);
	fprintf(bad, "# device: NVIDIA H200\n# host: copy.h2d.bw_gbs=10\n");
	fclose(bad);
	assert_int_equal(validate_read_csv(path[1], &t, &cause), -1);
	assert_non_null(strstr(cause, "not a host-cost key"));
	free(cause);
	validate_free(&t);
	bad = fopen(path[1], "w");
	assert_non_null(bad);
	fprintf(bad, "# device: NVIDIA H200\n# host: api.launch_ns=fast\n");
	fclose(bad);
	assert_int_equal(validate_read_csv(path[1], &t, &cause), -1);
	assert_non_null(strstr(cause, "valid is a time in ns"));
	free(cause);
	validate_free(&t);
	bad = fopen(path[1], "w");
	assert_non_null(bad);
	fprintf(bad, "# device: NVIDIA H200\n# host-after: gpu.copy_queues=1\n");
	fclose(bad);
	assert_int_equal(validate_read_csv(path[1], &t, &cause), -1);
	assert_non_null(strstr(cause, "bad host-after line"));
	free(cause);
	validate_free(&t);
	unlink(path[0]);
	unlink(path[1]);
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
	    cmocka_unit_test(test_h200_matrix),
	    cmocka_unit_test(test_h200_documents),
	    cmocka_unit_test(test_h200_detached),
	    cmocka_unit_test(test_h100_detached),
	    cmocka_unit_test(test_h100_matrix),
	    cmocka_unit_test(test_h100_workload_points),
	    cmocka_unit_test(test_h100_pageable_stage),
	    cmocka_unit_test(test_h100_staged),
	    cmocka_unit_test(test_h100_managed_calibrated),
	    cmocka_unit_test(test_h100_pairs),
	    cmocka_unit_test(test_h200_fitted),
	    cmocka_unit_test(test_matrix),
	    cmocka_unit_test(test_stats),
	    cmocka_unit_test(test_csv),
	    cmocka_unit_test(test_csvs),
	    cmocka_unit_test(test_csvs_detached),
	    cmocka_unit_test(test_model_self),
	    cmocka_unit_test(test_host_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
