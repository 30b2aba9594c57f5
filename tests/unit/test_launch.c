/* test_launch.c: kernels' launch details beside the records (the timeline's launch table: lookups, sort, copy,
 * clear), read from real Nsight Systems exports, through streamscope's own SQLite export and back, readable by the
 * SQL written for nsys, and through its Chrome JSON export and back (stats' full names too); the detail box that
 * shows them and copies' memory kinds; imported copies named as CUPTI names them. */
/* cmocka (through test_tui_util.h) before io_fixture.h */
/* clang-format off */
#include "test_tui_util.h"
#include "db_fixture.h"
#include "io_fixture.h"
/* clang-format on */

#include <sqlite3.h>

#include "core/analysis.h"
#include "core/insight.h"
#include "core/summary.h"
#include "io/export/export.h"
#include "io/import/import.h"
#include "tui/lanes.h"
#include "tui/view.h"

/* nth_kind returns the index of the nth record of kind k (in timeline order), -1 when none. */
static long nth_kind(const struct ss_timeline *t, int k, int nth)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == k && nth-- == 0)
			return (long)i;
	return -1;
}

/* The table finds each launch by its kernel's (correlation, raw stream), sorted or not; copies and clears it. */
static void test_table(void **state)
{
	struct ss_timeline t, c;
	struct ss_record k = {.kind = SS_KIND_KERNEL};
	const struct ss_launch *l;

	(void)state;
	timeline_init(&t);
	/* out of key order: found by a scan until timeline_sort */
	for (uint32_t i = 0; i < 100; i++) {
		struct ss_launch x = {.correlation = 1000 - i * 7,
		                      .raw_stream = 13 + i % 3,
		                      .grid = {i + 1, 1, 1},
		                      .block = {256, 1, 1},
		                      .registers = i};

		timeline_add_launch(&t, &x);
	}
	assert_true(t.launch_unsorted);
	k.correlation = 1000 - 42 * 7;
	k.raw_stream = 13;
	l = timeline_launch(&t, &k);
	assert_non_null(l);
	assert_int_equal(l->grid[0], 43);
	k.raw_stream = 14; /* the same correlation on another stream: another kernel */
	assert_null(timeline_launch(&t, &k));
	timeline_sort(&t);
	assert_false(t.launch_unsorted);
	for (uint32_t i = 0; i < 100; i++) {
		k.correlation = 1000 - i * 7;
		k.raw_stream = 13 + i % 3;
		l = timeline_launch(&t, &k);
		assert_non_null(l);
		assert_int_equal(l->registers, i);
	}
	k.correlation = 1;
	assert_null(timeline_launch(&t, &k));
	k.correlation = 1000;
	k.raw_stream = 13;
	k.kind = SS_KIND_H2D; /* only kernels have launches */
	assert_null(timeline_launch(&t, &k));
	k.kind = SS_KIND_KERNEL;
	timeline_copy(&c, &t);
	timeline_free(&t);
	l = timeline_launch(&c, &k);
	assert_non_null(l);
	assert_int_equal(l->grid[0], 1);
	timeline_clear(&c);
	assert_null(timeline_launch(&c, &k));
	timeline_free(&c);
}

/* The RTX 4060 Ti export's four add_parallel launches: grid 97657x1x1, block 256x1x1, 16 registers, no shared
 * memory; the RTX 3060's one: 1x1x1 and 1x1x1. */
static void test_nsys(void **state)
{
	char *path = fx_data("nsys/rtx4060ti-4streams.sqlite"), *cause = NULL;
	struct ss_timeline t;

	(void)state;
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(t.nlaunch, 4);
	for (int i = 0; i < 4; i++) {
		const struct ss_record *k = &t.rec[nth_kind(&t, SS_KIND_KERNEL, i)];
		const struct ss_launch *l = timeline_launch(&t, k);

		assert_non_null(l);
		assert_int_equal(l->grid[0], 97657);
		assert_int_equal(l->grid[1], 1);
		assert_int_equal(l->grid[2], 1);
		assert_int_equal(l->block[0], 256);
		assert_int_equal(l->block[1], 1);
		assert_int_equal(l->block[2], 1);
		assert_int_equal(l->registers, 16);
		assert_int_equal(l->static_smem, 0);
		assert_int_equal(l->dynamic_smem, 0);
	}
	free(path);
	path = fx_data("nsys/rtx3060-1stream.sqlite");
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(t.nlaunch, 1);
	{
		const struct ss_launch *l = timeline_launch(&t, &t.rec[nth_kind(&t, SS_KIND_KERNEL, 0)]);

		assert_non_null(l);
		assert_int_equal(l->grid[0], 1);
		assert_int_equal(l->block[0], 1);
		assert_int_equal(l->registers, 16);
	}
	timeline_free(&t);
	free(path);
}

/* sql_int runs a one-value query on path. */
static long long sql_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -1;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* Launch details survive streamscope's SQLite export and import, in nsys's columns (nsys SQL reads them); kernels
 * whose launch was not known come back without one. */
static void test_roundtrip(void **state)
{
	char *src = fx_data("nsys/rtx4060ti-4streams.sqlite"), *dir = fx_tmpdir(), *path, *cause = NULL;
	struct ss_timeline t, back;
	struct ss_export_input in;
	struct ss_launch odd = {.correlation = 133,
	                        .raw_stream = 13,
	                        .grid = {7, 8, 9},
	                        .block = {32, 4, 2},
	                        .registers = 255,
	                        .static_smem = 1024,
	                        .dynamic_smem = 49152,
	                        .flags = SS_LAUNCH_ATTRS};

	(void)state;
	path = malloc(strlen(dir) + 16);
	snprintf(path, strlen(dir) + 16, "%s/t.sqlite", dir);
	timeline_init(&t);
	timeline_init(&back);
	if (import_file(src, &t, &cause) != 0)
		fail_msg("%s", cause);
	/* one kernel with every field different, so that no column is swapped with another */
	for (size_t i = 0; i < t.nlaunch; i++)
		if (t.launch[i].correlation == 133)
			t.launch[i] = odd;
	memset(&in, 0, sizeof in);
	in.t = &t;
	if (export_file(path, &in, &cause) != 0 || import_file(path, &back, &cause) != 0)
		fail_msg("%s", cause);
	fx_same_records(&t, &back);
	assert_int_equal(back.nlaunch, 4);
	for (int i = 0; i < 4; i++) {
		const struct ss_launch *a = timeline_launch(&t, &t.rec[nth_kind(&t, SS_KIND_KERNEL, i)]);
		const struct ss_launch *b = timeline_launch(&back, &back.rec[nth_kind(&back, SS_KIND_KERNEL, i)]);

		assert_non_null(a);
		assert_non_null(b);
		assert_memory_equal(a, b, sizeof *a);
	}
	assert_int_equal(sql_int(path, "SELECT gridX * 10000 + gridY * 100 + gridZ FROM CUPTI_ACTIVITY_KIND_KERNEL"
	                               " WHERE correlationId = 133"),
	                 70809);
	assert_int_equal(sql_int(path, "SELECT blockX * 10000 + blockY * 100 + blockZ FROM CUPTI_ACTIVITY_KIND_KERNEL"
	                               " WHERE correlationId = 133"),
	                 320402);
	assert_int_equal(sql_int(path, "SELECT registersPerThread FROM CUPTI_ACTIVITY_KIND_KERNEL"
	                               " WHERE correlationId = 133"),
	                 255);
	assert_int_equal(sql_int(path, "SELECT staticSharedMemory + dynamicSharedMemory * 2 FROM"
	                               " CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId = 133"),
	                 1024 + 2 * 49152);
	assert_int_equal(sql_int(path, "SELECT sum(gridX) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 7 + 3 * 97657);
	/* a launch known without its registers and shared memory (the model's): 0 in the file, read back as unknown */
	for (size_t i = 0; i < t.nlaunch; i++)
		if (t.launch[i].correlation == 133) {
			t.launch[i].registers = t.launch[i].static_smem = t.launch[i].dynamic_smem = 0;
			t.launch[i].flags = 0;
		}
	if (export_file(path, &in, &cause) != 0 || import_file(path, &back, &cause) != 0)
		fail_msg("%s", cause);
	for (size_t i = 0; i < back.nlaunch; i++)
		assert_int_equal(back.launch[i].flags, back.launch[i].correlation == 133 ? 0 : SS_LAUNCH_ATTRS);
	/* the fixture's kernels have no launch: 0 in the file, none when read back */
	timeline_free(&t);
	tui_fixture(&t);
	in.t = &t;
	if (export_file(path, &in, &cause) != 0 || import_file(path, &back, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(back.nlaunch, 0);
	assert_null(timeline_launch(&back, &back.rec[nth_kind(&back, SS_KIND_KERNEL, 0)]));
	timeline_free(&back);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
	free(path);
	free(src);
}

/* The H200's recordings (tests/data/h200/record-launch): every kernel of `streamscope record -- record_app` and of
 * the CUDA backend's default experiment has its launch as CUPTI reported it: 2048x1x1 blocks of 256x1x1, 16
 * registers, no shared memory. */
static void test_h200(void **state)
{
	static const char *const files[] = {"h200/record-launch/rec.sqlite", "h200/record-launch/run.sqlite"};
	static const size_t kernels[] = {354, 8};
	struct ss_timeline t;
	char *cause = NULL;

	(void)state;
	timeline_init(&t);
	for (int f = 0; f < 2; f++) {
		char *path = fx_data(files[f]);
		size_t n = 0;

		if (import_file(path, &t, &cause) != 0)
			fail_msg("%s", cause);
		for (size_t i = 0; i < t.n; i++) {
			const struct ss_launch *l;

			if (t.rec[i].kind != SS_KIND_KERNEL)
				continue;
			n++;
			l = timeline_launch(&t, &t.rec[i]);
			assert_non_null(l);
			assert_int_equal(l->grid[0], 2048);
			assert_int_equal(l->grid[1] * l->grid[2], 1);
			assert_int_equal(l->block[0], 256);
			assert_int_equal(l->block[1] * l->block[2], 1);
			assert_int_equal(l->registers, 16);
			assert_int_equal(l->static_smem + l->dynamic_smem, 0);
		}
		assert_int_equal(n, kernels[f]);
		assert_int_equal(t.nlaunch, kernels[f]);
		free(path);
	}
	timeline_free(&t);
}

/* detail finds the value of label in the detail lines of record r, NULL when there is no such line. */
static const char *detail(const struct ss_timeline *t, const struct ss_lanes *l, long r, const char *label,
                          char (*lab)[12], char (*val)[64])
{
	struct ss_view_run run = {t, l, NULL, NULL};
	int n;

	assert_true(r >= 0);
	n = view_detail_lines(&run, (uint32_t)r, lab, val, 10);
	for (int i = 0; i < n; i++)
		if (strcmp(lab[i], label) == 0)
			return val[i];
	return NULL;
}

/* The H100's traces (tests/data/h200/device-info-h100): the CUDA backend's run and the recorder's both know the
 * device's 3 copy engines and every kernel's registers and shared memory (18 and 16 registers, none), which the
 * detail box shows as values. */
static void test_h100_device_info(void **state)
{
	static const char *const files[] = {"h200/device-info-h100/run.sqlite", "h200/device-info-h100/record.sqlite"};
	static const size_t kernels[] = {4, 8};
	static const uint32_t regs[] = {18, 16};
	struct ss_timeline t;
	char *cause = NULL;

	(void)state;
	for (int f = 0; f < 2; f++) {
		char *path = fx_data(files[f]);
		size_t n = 0;

		timeline_init(&t);
		if (import_file(path, &t, &cause) != 0)
			fail_msg("%s", cause);
		assert_non_null(timeline_device(&t, 0));
		assert_int_equal(timeline_device(&t, 0)->copy_engines, 3);
		for (size_t i = 0; i < t.n; i++) {
			const struct ss_launch *l;

			if (t.rec[i].kind != SS_KIND_KERNEL)
				continue;
			n++;
			l = timeline_launch(&t, &t.rec[i]);
			assert_non_null(l);
			assert_true(l->flags & SS_LAUNCH_ATTRS);
			assert_int_equal(l->registers, regs[f]);
			assert_int_equal(l->static_smem + l->dynamic_smem, 0);
		}
		assert_int_equal(n, kernels[f]);
		{
			char lab[10][12], val[10][64], want[64];
			struct ss_lanes ls;

			lanes_init(&ls);
			lanes_build(&ls, &t);
			snprintf(want, sizeof want, "%u/thread, smem 0 B + 0 B dyn", regs[f]);
			assert_string_equal(detail(&t, &ls, nth_kind(&t, SS_KIND_KERNEL, 0), "regs/smem", lab, val),
			                    want);
			lanes_free(&ls);
		}
		timeline_free(&t);
		free(path);
	}
}

/* The H100's traces of tests/data/h200/kernel-names-h100 and names-claims-h100: the CUDA backend's runs and the
 * recorder's carry each kernel's short name on its record and its demangled name on its launch (CUPTI's mangled name
 * was both); the detail box shows the demangled one where it says more, stats' kernel table lists it, as nsys stats
 * does. */
static void test_h100_kernel_names(void **state)
{
	static const struct {
		const char *file, *shortn, *full;
		size_t kernels;
	} cases[] = {
	    {"kt", "ss_add", "void ss_add<400>(float const*, float const*, float*, int)", 4},
	    {"kt-work100", "ss_add", "ss_add(float const*, float const*, float*, int, int)", 4},
	    {"decrypt", "ss_decrypt", NULL, 4},
	    {"rec-va", "vectorAdd", "vectorAdd(float const*, float const*, float*, int)", 8},
	    {"rec-kt", "add", "add(float const*, float const*, float*, int)", 44},
	};
	/* 1e909c5's traces, and 3e1a23d's, whose demangler remembers the last name per thread */
	static const char *const dirs[] = {"kernel-names-h100", "names-claims-h100"};
	char *cause = NULL;

	(void)state;
	for (size_t k = 0; k < 2 * sizeof cases / sizeof cases[0]; k++) {
		size_t c = k / 2;
		char rel[96], *path, lab[12][12], val[12][64];
		struct ss_timeline t;
		struct ss_summary s;
		struct ss_lanes ls;
		size_t n = 0;

		snprintf(rel, sizeof rel, "h200/%s/%s.sqlite", dirs[k % 2], cases[c].file);
		path = fx_data(rel);
		timeline_init(&t);
		if (import_file(path, &t, &cause) != 0)
			fail_msg("%s", cause);
		for (size_t i = 0; i < t.n; i++) {
			const struct ss_launch *l;

			if (t.rec[i].kind != SS_KIND_KERNEL)
				continue;
			n++;
			assert_string_equal(timeline_name(&t, t.rec[i].name), cases[c].shortn);
			l = timeline_launch(&t, &t.rec[i]);
			assert_non_null(l);
			assert_string_equal(timeline_name(&t, l->full_name ? l->full_name : t.rec[i].name),
			                    cases[c].full ? cases[c].full : cases[c].shortn);
		}
		assert_int_equal(n, cases[c].kernels);
		summary_build(&t, &s);
		assert_int_equal(s.nkern, 1);
		assert_string_equal(summary_row_name(&t, &s.kern[0]), cases[c].full ? cases[c].full : cases[c].shortn);
		summary_free(&s);
		lanes_init(&ls);
		lanes_build(&ls, &t);
		assert_string_equal(detail(&t, &ls, nth_kind(&t, SS_KIND_KERNEL, 0), "name", lab, val),
		                    cases[c].shortn);
		if (cases[c].full != NULL)
			assert_string_equal(detail(&t, &ls, nth_kind(&t, SS_KIND_KERNEL, 0), "full name", lab, val),
			                    cases[c].full);
		else
			assert_null(detail(&t, &ls, nth_kind(&t, SS_KIND_KERNEL, 0), "full name", lab, val));
		lanes_free(&ls);
		/* the programs' cudaMemsets, each before a host synchronisation and the streams' work, serialised
		 * nothing; document 003's kernels are too short for overlap to matter */
		if (strncmp(cases[c].file, "rec-", 4) == 0) {
			struct ss_analysis a;
			struct ss_insights in;

			timeline_sort(&t);
			analysis_timeline(&t, &a);
			insight_analyze(&t, &a, &in);
			for (size_t i = 0; i < in.n; i++) {
				assert_string_not_equal(in.item[i].rule, "legacy-stream-sync");
				assert_string_not_equal(in.item[i].rule, "no-overlap");
			}
			assert_true(timeline_count(&t, SS_KIND_MEMSET) >= 1);
		}
		timeline_free(&t);
		free(path);
	}
}

/* The detail box of the real export's first kernel: its stream by id, its launch; its copies' memory kinds; an
 * experiment's kernel (no launch known) keeps bytes and bandwidth as before. */
static void test_detail(void **state)
{
	char *path = fx_data("nsys/rtx4060ti-4streams.sqlite"), *cause = NULL;
	char lab[10][12], val[10][64];
	struct ss_timeline t;
	struct ss_lanes l;
	long k, h, d;
	const char *v;

	(void)state;
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	lanes_init(&l);
	lanes_build(&l, &t);
	k = nth_kind(&t, SS_KIND_KERNEL, 0);
	v = detail(&t, &l, k, "stream", lab, val);
	assert_non_null(v);
	assert_string_equal(v, "Stream 13, blocking (s0)");
	v = detail(&t, &l, k, "launch", lab, val);
	assert_non_null(v);
	assert_string_equal(v, "grid 97657x1x1 block 256x1x1");
	v = detail(&t, &l, k, "regs/smem", lab, val);
	assert_non_null(v);
	assert_string_equal(v, "16/thread, smem 0 B + 0 B dyn");
	assert_null(detail(&t, &l, k, "bytes", lab, val));
	v = detail(&t, &l, k, "name", lab, val);
	assert_string_equal(v, "add_parallel");
	h = nth_kind(&t, SS_KIND_H2D, 0);
	d = nth_kind(&t, SS_KIND_D2H, 0);
	assert_string_equal(detail(&t, &l, h, "engine", lab, val), "H2D pinned -> device");
	assert_string_equal(detail(&t, &l, d, "engine", lab, val), "D2H device -> pinned");
	assert_string_equal(detail(&t, &l, h, "name", lab, val), "Memcpy HtoD (Pinned -> Device)");
	assert_string_equal(detail(&t, &l, d, "name", lab, val), "Memcpy DtoH (Device -> Pinned)");
	assert_non_null(detail(&t, &l, h, "bytes", lab, val));
	lanes_free(&l);
	timeline_free(&t);
	/* an experiment's kernel: s1 (id 14), bytes "-" */
	tui_fixture(&t);
	lanes_init(&l);
	lanes_build(&l, &t);
	k = nth_kind(&t, SS_KIND_KERNEL, 1);
	assert_string_equal(detail(&t, &l, k, "stream", lab, val), "s1 (id 14)");
	assert_string_equal(detail(&t, &l, k, "bytes", lab, val), "-");
	assert_null(detail(&t, &l, k, "launch", lab, val));
	assert_string_equal(detail(&t, &l, nth_kind(&t, SS_KIND_MEMSET, 0), "engine", lab, val), "MEMSET device");
	/* a kernel whose launch is known but not its registers and shared memory (the model's): "-", not 0 */
	{
		const struct ss_record *kr = &t.rec[k];
		struct ss_launch ml = {.correlation = kr->correlation,
		                       .raw_stream = kr->raw_stream,
		                       .grid = {64, 1, 1},
		                       .block = {128, 1, 1}};

		timeline_add_launch(&t, &ml);
		assert_string_equal(detail(&t, &l, k, "launch", lab, val), "grid 64x1x1 block 128x1x1");
		assert_string_equal(detail(&t, &l, k, "regs/smem", lab, val), "-");
	}
	lanes_free(&l);
	timeline_free(&t);
	free(path);
}

/* The real export converted to Chrome JSON (as `view FILE --export t.json` does) and read back keeps every kernel's
 * launch: the detail box shows its grid, block, registers and shared memory, and stats names the kernel by the full
 * demangled name nsys gives it, not the short one. */
static void test_chrome(void **state)
{
	static const char full[] = "add_parallel(const float *, const float *, float *, int)";
	char *src = fx_data("nsys/rtx4060ti-4streams.sqlite"), *dir = fx_tmpdir(), *cause = NULL;
	char path[512], lab[10][12], val[10][64];
	struct ss_timeline t, back;
	struct ss_export_input in;
	struct ss_summary sum;
	struct ss_lanes ls;

	(void)state;
	snprintf(path, sizeof path, "%s/t.json", dir);
	timeline_init(&t);
	timeline_init(&back);
	if (import_file(src, &t, &cause) != 0)
		fail_msg("%s", cause);
	memset(&in, 0, sizeof in);
	in.t = &t;
	if (export_file(path, &in, &cause) != 0 || import_file(path, &back, &cause) != 0)
		fail_msg("%s", cause);
	fx_same_records(&t, &back);
	assert_int_equal(back.nlaunch, 4);
	for (int i = 0; i < 4; i++) {
		const struct ss_launch *a = timeline_launch(&t, &t.rec[nth_kind(&t, SS_KIND_KERNEL, i)]);
		const struct ss_launch *b = timeline_launch(&back, &back.rec[nth_kind(&back, SS_KIND_KERNEL, i)]);

		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(b->correlation, a->correlation);
		assert_int_equal(b->raw_stream, a->raw_stream);
		assert_memory_equal(b->grid, a->grid, sizeof a->grid);
		assert_memory_equal(b->block, a->block, sizeof a->block);
		assert_int_equal(b->registers, 16);
		assert_int_equal(b->static_smem, a->static_smem);
		assert_int_equal(b->dynamic_smem, a->dynamic_smem);
		assert_int_equal(b->flags, SS_LAUNCH_ATTRS);
		assert_string_equal(timeline_name(&t, a->full_name), full);
		assert_string_equal(timeline_name(&back, b->full_name), full);
	}
	lanes_init(&ls);
	lanes_build(&ls, &back);
	assert_string_equal(detail(&back, &ls, nth_kind(&back, SS_KIND_KERNEL, 0), "launch", lab, val),
	                    "grid 97657x1x1 block 256x1x1");
	assert_string_equal(detail(&back, &ls, nth_kind(&back, SS_KIND_KERNEL, 0), "regs/smem", lab, val),
	                    "16/thread, smem 0 B + 0 B dyn");
	lanes_free(&ls);
	summary_build(&back, &sum);
	assert_int_equal(sum.nkern, 1);
	assert_string_equal(summary_row_name(&back, &sum.kern[0]), full);
	summary_free(&sum);
	timeline_free(&back);
	timeline_free(&t);
	unlink(path);
	fx_rmdir(dir);
	free(dir);
	free(src);
}

/* Copies of foreign files, which carry no name, are named as CUPTI names them: from the real exports, and from a
 * minimal file with a memset, a device copy and no ENUM table (nsys's numbering). */
static void test_copy_names(void **state)
{
	char *path = fx_data("nsys/rtx3060-1stream.sqlite"), *dir = fx_tmpdir(), *db, *cause = NULL;
	struct ss_timeline t;

	(void)state;
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	/* srcKind 0 (pageable) -> dstKind 2 (device), and back */
	assert_string_equal(timeline_name(&t, t.rec[nth_kind(&t, SS_KIND_H2D, 0)].name),
	                    "Memcpy HtoD (Pageable -> Device)");
	assert_string_equal(timeline_name(&t, t.rec[nth_kind(&t, SS_KIND_D2H, 0)].name),
	                    "Memcpy DtoH (Device -> Pageable)");
	db = malloc(strlen(dir) + 16);
	snprintf(db, strlen(dir) + 16, "%s/m.sqlite", dir);
	fx_make_db(db, "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, streamId INTEGER,"
	               " correlationId INTEGER, bytes INTEGER, copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);"
	               "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (10, 20, 7, 1, 64, 8, 2, 2);"
	               "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (30, 40, 7, 2, 64, 1, NULL, NULL);"
	               "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER, end INTEGER, streamId INTEGER,"
	               " correlationId INTEGER, bytes INTEGER, memKind INTEGER);"
	               "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (50, 60, 7, 3, 64, 4);");
	if (import_file(db, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_string_equal(timeline_name(&t, t.rec[nth_kind(&t, SS_KIND_D2D, 0)].name),
	                    "Memcpy DtoD (Device -> Device)");
	assert_string_equal(timeline_name(&t, t.rec[nth_kind(&t, SS_KIND_H2D, 0)].name), "Memcpy HtoD");
	assert_string_equal(timeline_name(&t, t.rec[nth_kind(&t, SS_KIND_MEMSET, 0)].name), "Memset (Managed)");
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
	free(db);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_nsys),
	    cmocka_unit_test(test_roundtrip),
	    cmocka_unit_test(test_chrome),
	    cmocka_unit_test(test_detail),
	    cmocka_unit_test(test_copy_names),
	    cmocka_unit_test(test_h200),
	    cmocka_unit_test(test_h100_device_info),
	    cmocka_unit_test(test_h100_kernel_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
