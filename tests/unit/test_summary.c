/* test_summary.c: the per-kernel and per-copy-kind summaries (engine/summary) of a hand-built timeline with
 * hand-computed answers, and of the real Nsight Systems exports in tests/data/nsys checked against the same numbers
 * computed from each file's CUPTI_ACTIVITY_KIND_KERNEL and CUPTI_ACTIVITY_KIND_MEMCPY tables with SQL. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/summary.h"
#include "core/timeline.h"
#include "io/import/import.h"

static void add(struct ss_timeline *t, int kind, const char *name, uint64_t start, uint64_t dur, uint64_t bytes,
                unsigned flags)
{
	struct ss_record r;

	memset(&r, 0, sizeof r);
	r.kind = (uint8_t)kind;
	r.start = start;
	r.end = start + dur;
	r.bytes = bytes;
	r.flags = (uint8_t)flags;
	r.name = timeline_intern(t, name);
	timeline_add(t, &r);
}

/* Kernels by name, copies by kind and memory, sorted by total time (ties by name); API and SYNC not counted. */
static void test_hand_built(void **state)
{
	struct ss_timeline t;
	struct ss_summary s;
	const struct ss_summary_row *r;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_KERNEL, "b_kernel", 0, 10, 0, 0);
	add(&t, SS_KIND_KERNEL, "b_kernel", 100, 60, 0, 0);
	add(&t, SS_KIND_KERNEL, "b_kernel", 200, 20, 0, 0);
	add(&t, SS_KIND_KERNEL, "a_kernel", 300, 40, 0, 0);
	add(&t, SS_KIND_KERNEL, "a_kernel", 400, 50, 0, 0); /* 90 in all, as b_kernel: a first */
	add(&t, SS_KIND_KERNEL, "c_kernel", 500, 400, 0, 0);
	add(&t, SS_KIND_H2D, "", 0, 10, 100, SS_REC_PINNED);
	add(&t, SS_KIND_H2D, "", 50, 30, 300, SS_REC_PINNED);
	add(&t, SS_KIND_H2D, "", 90, 200, 1000, SS_REC_PAGEABLE);
	add(&t, SS_KIND_H2D, "", 90, 5, 64, SS_REC_MANAGED | SS_REC_PINNED);
	add(&t, SS_KIND_D2H, "", 300, 20, 200, 0);
	add(&t, SS_KIND_MEMSET, "", 400, 15, 4096, 0);
	add(&t, SS_KIND_API, "cudaMemcpyAsync", 0, 1000, 0, 0);
	add(&t, SS_KIND_SYNC, "", 0, 5000, 0, 0);
	summary_build(&t, &s);

	assert_int_equal(s.nkern, 3);
	assert_int_equal(s.kern_count, 6);
	assert_int_equal(s.kern_total_ns, 580);
	assert_string_equal(summary_row_name(&t, &s.kern[0]), "c_kernel");
	assert_string_equal(summary_row_name(&t, &s.kern[1]), "a_kernel");
	assert_string_equal(summary_row_name(&t, &s.kern[2]), "b_kernel");
	r = &s.kern[2];
	assert_int_equal(r->kind, SS_KIND_KERNEL);
	assert_int_equal(r->count, 3);
	assert_int_equal(r->total_ns, 90);
	assert_int_equal(r->min_ns, 10);
	assert_int_equal(r->max_ns, 60);
	assert_true(r->avg_ns == 30.0);
	assert_true(r->median_ns == 20.0);
	/* deviations -20, 30, -10: (400 + 900 + 100) / (3 - 1) = 700 */
	assert_true(fabs(r->stddev_ns - sqrt(700.0)) < 1e-9);
	assert_true(fabs(r->percent - 100.0 * 90.0 / 580.0) < 1e-9);
	assert_int_equal(r->bytes, 0);
	r = &s.kern[1];
	assert_true(r->median_ns == 45.0);       /* an even count: the mean of the middle two */
	assert_true(s.kern[0].stddev_ns == 0.0); /* one record */

	assert_int_equal(s.ncopy, 5);
	assert_int_equal(s.copy_count, 6);
	assert_int_equal(s.copy_total_ns, 280);
	assert_string_equal(summary_row_name(&t, &s.copy[0]), "HtoD (pageable)");
	assert_string_equal(summary_row_name(&t, &s.copy[1]), "HtoD (pinned)");
	assert_string_equal(summary_row_name(&t, &s.copy[2]), "DtoH");
	assert_string_equal(summary_row_name(&t, &s.copy[3]), "memset");
	assert_string_equal(summary_row_name(&t, &s.copy[4]), "HtoD (managed)"); /* managed wins over pinned */
	r = &s.copy[1];
	assert_int_equal(r->kind, SS_KIND_H2D);
	assert_int_equal(r->mem, SS_SUM_MEM_PINNED);
	assert_string_equal(summary_mem_name(r->mem), "pinned");
	assert_int_equal(r->count, 2);
	assert_int_equal(r->total_ns, 40);
	assert_int_equal(r->bytes, 400);
	assert_int_equal(r->bytes_min, 100);
	assert_int_equal(r->bytes_max, 300);
	assert_true(r->bytes_avg == 200.0);
	assert_true(r->bytes_median == 200.0);
	assert_true(r->median_ns == 20.0);
	assert_true(summary_bandwidth(r) == 10.0); /* 400 B in 40 ns */
	assert_int_equal(s.copy[2].mem, SS_SUM_MEM_NONE);
	assert_null(summary_mem_name(s.copy[2].mem));
	assert_string_equal(summary_kind_name(s.copy[3].kind), "memset");
	assert_true(fabs(s.copy[0].percent - 100.0 * 200.0 / 280.0) < 1e-9);
	summary_free(&s);
	assert_int_equal(s.nkern + s.ncopy, 0);
	timeline_free(&t);
}

/* No GPU records: empty tables, no percentages divided by zero. */
static void test_empty(void **state)
{
	struct ss_timeline t;
	struct ss_summary s;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_API, "cudaFree", 0, 10, 0, 0);
	summary_build(&t, &s);
	assert_int_equal(s.nkern, 0);
	assert_int_equal(s.ncopy, 0);
	assert_int_equal(s.kern_total_ns + s.copy_total_ns, 0);
	summary_free(&s);
	add(&t, SS_KIND_KERNEL, "", 0, 0, 0, 0); /* unnamed, zero length */
	summary_build(&t, &s);
	assert_int_equal(s.nkern, 1);
	assert_string_equal(summary_row_name(&t, &s.kern[0]), "(unnamed kernel)");
	assert_true(s.kern[0].percent == 0.0);
	summary_free(&s);
	timeline_free(&t);
}

/* What SQL says of one group of a file: durations (ascending) and bytes. */
struct sql_group {
	uint64_t n, total, min, max, bytes;
	double median, stddev;
};

/* Runs sql (a text parameter ?1 = p1, none when NULL; an integer ?2 = p2 when >= 0) whose rows are (duration,
 * bytes) in ascending duration, and computes the group's numbers as nsys stats defines them. */
static void sql_group(sqlite3 *db, const char *sql, const char *p1, int p2, struct sql_group *g)
{
	sqlite3_stmt *st;
	uint64_t *d = NULL;
	double mean, sq = 0;

	memset(g, 0, sizeof *g);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	if (p1 != NULL)
		sqlite3_bind_text(st, 1, p1, -1, SQLITE_TRANSIENT);
	if (p2 >= 0)
		sqlite3_bind_int(st, 2, p2);
	while (sqlite3_step(st) == SQLITE_ROW) {
		d = realloc(d, (g->n + 1) * sizeof *d);
		assert_non_null(d);
		d[g->n++] = (uint64_t)sqlite3_column_int64(st, 0);
		g->bytes += (uint64_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	assert_true(g->n > 0);
	for (uint64_t i = 0; i < g->n; i++)
		g->total += d[i];
	g->min = d[0];
	g->max = d[g->n - 1];
	g->median = g->n % 2 ? (double)d[g->n / 2] : ((double)d[g->n / 2 - 1] + (double)d[g->n / 2]) / 2;
	mean = (double)g->total / (double)g->n;
	for (uint64_t i = 0; i < g->n; i++)
		sq += ((double)d[i] - mean) * ((double)d[i] - mean);
	g->stddev = g->n > 1 ? sqrt(sq / (double)(g->n - 1)) : 0;
	free(d);
}

static int64_t sql_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void expect_row(const struct ss_summary_row *r, const struct sql_group *g, const char *what)
{
	if (r->count != g->n || r->total_ns != g->total || r->min_ns != g->min || r->max_ns != g->max ||
	    r->median_ns != g->median || fabs(r->stddev_ns - g->stddev) > 1e-6 * (1 + g->stddev) ||
	    r->bytes != g->bytes)
		fail_msg(
		    "%s: summary count %llu total %llu min %llu max %llu median %.1f stddev %.3f bytes %llu; SQL %llu "
		    "%llu %llu %llu %.1f %.3f %llu",
		    what, (unsigned long long)r->count, (unsigned long long)r->total_ns, (unsigned long long)r->min_ns,
		    (unsigned long long)r->max_ns, r->median_ns, r->stddev_ns, (unsigned long long)r->bytes,
		    (unsigned long long)g->n, (unsigned long long)g->total, (unsigned long long)g->min,
		    (unsigned long long)g->max, g->median, g->stddev, (unsigned long long)g->bytes);
}

/* One nsys export: every kernel row against SQL over CUPTI_ACTIVITY_KIND_KERNEL by shortName (the name the importer
 * gives kernels), every copy row against CUPTI_ACTIVITY_KIND_MEMCPY by copyKind and the host side's memory kind
 * (srcKind for HtoD, dstKind for DtoH, named through ENUM_CUDA_MEM_KIND); the rows cover every record. */
static void check_export(const char *file, const char *kernel, uint64_t kernel_total, uint64_t kernel_count)
{
	static const char kern_sql[] =
	    "SELECT k.\"end\" - k.start, 0 FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
	    "ON s.id = k.demangledName WHERE s.value = ?1 ORDER BY 1";
	static const char copy_sql[] =
	    "SELECT \"end\" - start, bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = ?2 AND "
	    "(CASE copyKind WHEN 1 THEN srcKind ELSE dstKind END) = "
	    "(SELECT id FROM ENUM_CUDA_MEM_KIND WHERE name = 'CUDA_MEMOPR_MEMORY_KIND_' || upper(?1)) ORDER BY 1";
	char path[1024], *cause = NULL;
	struct ss_timeline t;
	struct ss_summary s;
	struct sql_group g;
	sqlite3 *db;
	uint64_t covered = 0;

	snprintf(path, sizeof path, "%s/tests/data/nsys/%s", SS_SOURCE_DIR, file);
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	summary_build(&t, &s);
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);

	assert_int_equal(s.nkern,
	                 (size_t)sql_int(db, "SELECT count(DISTINCT demangledName) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
	assert_int_equal(s.kern_count, (uint64_t)sql_int(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
	for (size_t i = 0; i < s.nkern; i++) {
		sql_group(db, kern_sql, summary_row_name(&t, &s.kern[i]), -1, &g);
		expect_row(&s.kern[i], &g, summary_row_name(&t, &s.kern[i]));
		if (i > 0)
			assert_true(s.kern[i - 1].total_ns >= s.kern[i].total_ns);
	}
	/* the numbers of one kernel as worked out by hand with python3's sqlite3 on the same table */
	assert_string_equal(summary_row_name(&t, &s.kern[0]), kernel);
	assert_int_equal(s.kern[0].total_ns, kernel_total);
	assert_int_equal(s.kern[0].count, kernel_count);

	for (size_t i = 0; i < s.ncopy; i++) {
		const struct ss_summary_row *r = &s.copy[i];

		assert_true(r->kind == SS_KIND_H2D || r->kind == SS_KIND_D2H);
		assert_non_null(summary_mem_name(r->mem));
		sql_group(db, copy_sql, summary_mem_name(r->mem), r->kind == SS_KIND_H2D ? 1 : 2, &g);
		expect_row(r, &g, summary_row_name(&t, r));
		covered += r->count;
	}
	assert_int_equal(covered, (uint64_t)sql_int(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
	sqlite3_close(db);
	summary_free(&s);
	timeline_free(&t);
}

static void test_nsys_rtx4060ti(void **state)
{
	(void)state;
	/* python3: SELECT count(*), sum(end - start) ... WHERE shortName is add_parallel: 4, 536542; rows by the
	 * demangled name, as nsys stats cuda_gpu_kern_sum */
	check_export("rtx4060ti-4streams.sqlite", "add_parallel(const float *, const float *, float *, int)", 536542,
	             4);
}

static void test_nsys_rtx3060(void **state)
{
	(void)state;
	/* python3: reduce_baseline: 1 record of 1042014582 ns */
	check_export("rtx3060-1stream.sqlite", "reduce_baseline(const int *, int *, unsigned long)", 1042014582, 1);
}

/* Two kernels of one short name and different full names (overloads, template instances) are two rows, as nsys
 * stats has them: the 4060 Ti export with two of its four launches given another demangled name (they were one
 * row of 4). */
static void test_nsys_overloads(void **state)
{
	char src[512], path[] = "/tmp/ss-summary-XXXXXX", *cause = NULL, *err = NULL, buf[1 << 16];
	FILE *in, *out;
	size_t n;
	int fd;
	sqlite3 *db;
	struct ss_timeline t;
	struct ss_summary s;

	(void)state;
	snprintf(src, sizeof src, "%s/tests/data/nsys/rtx4060ti-4streams.sqlite", SS_SOURCE_DIR);
	assert_true((fd = mkstemp(path)) >= 0);
	assert_non_null(in = fopen(src, "rb"));
	assert_non_null(out = fdopen(fd, "wb"));
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db,
	                 "INSERT INTO StringIds (id, value) VALUES (999999, 'add_parallel(const double *, const double "
	                 "*, double *, int)');"
	                 "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 999999 WHERE rowid IN (SELECT rowid "
	                 "FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start LIMIT 2);",
	                 NULL, NULL, &err) != SQLITE_OK)
		fail_msg("%s", err);
	sqlite3_close(db);
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	summary_build(&t, &s);
	assert_int_equal(s.nkern, 2);
	assert_int_equal(s.kern[0].count, 2);
	assert_int_equal(s.kern[1].count, 2);
	assert_non_null(strstr(summary_row_name(&t, &s.kern[0]), "add_parallel(const "));
	assert_string_not_equal(summary_row_name(&t, &s.kern[0]), summary_row_name(&t, &s.kern[1]));
	summary_free(&s);
	timeline_free(&t);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hand_built),     cmocka_unit_test(test_empty),
	    cmocka_unit_test(test_nsys_rtx4060ti), cmocka_unit_test(test_nsys_rtx3060),
	    cmocka_unit_test(test_nsys_overloads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
