/* test_io_roundtrip.c: every format streamscope reads back (its SQLite, Chrome JSON) returns the exact records it
 * wrote, with names, streams (including host/legacy/per-thread/unknown), flags, threads, correlations and the
 * modelled flag, the stream and device tables and the kernels' launches (grid, block, registers, shared memory, full
 * name); export_file picks formats by extension; snapshots hold every file; atomic writes leave nothing
 * behind when they fail. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>

#include "core/experiment.h"
#include "io/export/export.h"
#include "io/export/export_chrome.h"
#include "io/export/export_sqlite.h"
#include "io/import/import.h"
#include "io/import/import_sqlite.h"
#include "io_fixture.h"

/* full_name is the name a kernel called name goes by in stats, l its launch in t: the launch's full name, else
 * name. */
static const char *full_name(const struct ss_timeline *t, const char *name, const struct ss_launch *l)
{
	return l->full_name != 0 ? timeline_name(t, l->full_name) : name;
}

/* same_launches checks that every kernel of t has the same launch in back (whose records are t's): grid, block,
 * whether registers and shared memory are known and their values, and the full name; none where t has none. The
 * launch table comes back sorted, one entry a kernel. */
static void same_launches(const char *name, const struct ss_timeline *t, const struct ss_timeline *back)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		const struct ss_launch *a = timeline_launch(t, r), *b = timeline_launch(back, r);

		if (r->kind != SS_KIND_KERNEL)
			continue;
		if ((a == NULL) != (b == NULL))
			fail_msg("%s: kernel %zu (correlation %u): %s before, %s after", name, i, r->correlation,
			         a ? "a launch" : "no launch", b ? "a launch" : "no launch");
		if (a == NULL)
			continue;
		n++;
		for (int d = 0; d < 3; d++) {
			assert_int_equal(a->grid[d], b->grid[d]);
			assert_int_equal(a->block[d], b->block[d]);
		}
		assert_int_equal(a->flags, b->flags);
		assert_int_equal(a->registers, b->registers);
		assert_int_equal(a->static_smem, b->static_smem);
		assert_int_equal(a->dynamic_smem, b->dynamic_smem);
		/* back's records are t's, with t's names (fx_same_records) */
		assert_string_equal(full_name(t, timeline_name(t, r->name), a),
		                    full_name(back, timeline_name(t, r->name), b));
	}
	assert_int_equal(back->nlaunch, n);
	assert_false(back->launch_unsorted);
}

/* roundtrip exports t to dir/name, imports it and checks the records and labels, and the kernels' launches. */
static void roundtrip(const char *dir, const char *name, struct ss_timeline *t, const struct ss_experiment *e)
{
	struct ss_export_input in = {.t = t, .e = e};
	struct ss_timeline back;
	char path[512], *cause = NULL;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (export_file(path, &in, &cause) != 0)
		fail_msg("export %s: %s", path, cause);
	timeline_init(&back);
	if (import_file(path, &back, &cause) != 0)
		fail_msg("import %s: %s", path, cause);
	fx_same_records(t, &back);
	assert_int_equal(back.modelled, t->modelled);
	assert_int_equal(back.nstreams, t->nstreams);
	assert_string_equal(back.backend, "file");
	assert_string_equal(back.source, path);
	assert_string_equal(back.device, t->device);
	assert_int_equal(back.stream_ids, t->stream_ids);
	/* the stream table comes back as it was (streams without a label stay without, idle ones are kept) */
	for (int s = 0; s < t->nstream_info || s < back.nstream_info; s++) {
		const struct ss_stream_info *a = timeline_stream(t, s), *b = timeline_stream(&back, s);

		if ((a == NULL) != (b == NULL))
			fail_msg("%s: stream %d: %s before, %s after", name, s, a ? "labelled" : "unlabelled",
			         b ? "labelled" : "unlabelled");
		if (a != NULL) {
			assert_int_equal(a->raw_id, b->raw_id);
			assert_int_equal(a->kind, b->kind);
			assert_int_equal(a->device, b->device);
		}
	}
	/* the device table: every device t describes comes back with its name, uuid and copy engines */
	for (int d = 0; d < SS_TIMELINE_MAX_DEVICES; d++) {
		const struct ss_device_info *a = timeline_device(t, d), *b = timeline_device(&back, d);

		if (a == NULL)
			continue;
		if (b == NULL)
			fail_msg("%s: device %d not described after", name, d);
		assert_string_equal(a->name, b->name);
		assert_string_equal(a->uuid, b->uuid);
		assert_int_equal(a->copy_engines, b->copy_engines);
	}
	assert_int_equal(timeline_ndevices(&back), timeline_ndevices(t));
	same_launches(name, t, &back);
	timeline_free(&back);
}

/* add_launches gives t's kernels launches of every sort, k counting them: none; grid and block only (the model's);
 * registers and shared memory known, with a full name of its own; with the record's own name as full name (an
 * export that says nothing more); a 3-D one with a full name that needs escaping and no registers known. Every
 * value differs, so that no field can be swapped with another; registers are never 0 where known (a SQLite file
 * writes 0 for not known). Returns how many kernels got one. */
static size_t add_launches(struct ss_timeline *t)
{
	static const char *const full[] = {"void ns::gemm<float, 128>(const float *, float *, int)",
	                                   "tab\t \"quoted\" <xml> & Grüße \xf0\x9f\x9a\x80 \\ line\nbreak"};
	size_t k = 0, n = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint32_t j = (uint32_t)k;
		struct ss_launch l = {.correlation = r->correlation,
		                      .raw_stream = r->raw_stream,
		                      .grid = {1000 + j, 1, 1},
		                      .block = {32 + j % 32 * 32, 1, 1}};

		if (r->kind != SS_KIND_KERNEL)
			continue;
		switch (k++ % 5) {
		case 0:
			continue;
		case 1:
			break;
		case 2:
			l.registers = 1 + j % 255;
			l.static_smem = 16 * j;
			l.dynamic_smem = 48 * 1024 + j;
			l.flags = SS_LAUNCH_ATTRS;
			l.full_name = timeline_intern(t, full[0]);
			break;
		case 3:
			l.registers = 255;
			l.flags = SS_LAUNCH_ATTRS;
			l.full_name = r->name;
			break;
		default:
			l.grid[1] = 2 + j;
			l.grid[2] = j == 4 ? UINT32_MAX : 3;
			l.block[1] = 4;
			l.block[2] = 5;
			l.full_name = timeline_intern(t, full[1]);
			break;
		}
		timeline_add_launch(t, &l);
		n++;
	}
	return n;
}

static void test_sqlite_roundtrip(void **state)
{
	struct ss_timeline t;
	struct ss_experiment e;
	char *dir = fx_tmpdir();

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	timeline_init(&t);
	fx_timeline(&t, 5000, 8);
	t.dropped = 3;
	assert_true(add_launches(&t) > 100);
	roundtrip(dir, "trace.sqlite", &t, &e);
	/* every kind (per-thread: which CUPTI's flag cannot say), an unlabelled index, a raw id of unknown kind */
	timeline_set_stream(&t, 0, 13, SS_SKIND_BLOCKING);
	timeline_set_stream(&t, 1, 14, SS_SKIND_NONBLOCKING);
	timeline_set_stream(&t, 3, 16, SS_SKIND_LEGACY);
	timeline_set_stream(&t, 4, 17, SS_SKIND_PER_THREAD);
	timeline_set_stream(&t, 5, 18, SS_SKIND_UNKNOWN);
	roundtrip(dir, "kinds.sqlite", &t, &e);
	roundtrip(dir, "trace.db", &t, NULL);
	timeline_set_device(&t, 0, "NVIDIA H200", "GPU-8c3f2a10-0000-4c1e-9d77-000000000000", 1);
	timeline_set_device(&t, 1, "NVIDIA H200", "GPU-8c3f2a10-0000-4c1e-9d77-000000000001", 2);
	roundtrip(dir, "devices.sqlite", &t, &e);
	t.modelled = true;
	snprintf(t.backend, sizeof t.backend, "model");
	snprintf(t.device, sizeof t.device, "MODEL (H200 profile)");
	roundtrip(dir, "model.sqlite", &t, &e);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* label_streams gives t's stream table every kind (per-thread too), an unlabelled index, a raw id of unknown kind
 * and an idle stream (labelled, no records), and describes its devices. */
static void label_streams(struct ss_timeline *t)
{
	timeline_set_stream(t, 0, 13, SS_SKIND_BLOCKING);
	timeline_set_stream(t, 1, 14, SS_SKIND_NONBLOCKING);
	timeline_set_stream(t, 3, 16, SS_SKIND_LEGACY);
	timeline_set_stream(t, 4, 17, SS_SKIND_PER_THREAD);
	timeline_set_stream(t, 5, 18, SS_SKIND_UNKNOWN);
	timeline_set_stream(t, 9, 40, SS_SKIND_NONBLOCKING);
	timeline_set_device(t, 0, "NVIDIA H200", "GPU-8c3f2a10-0000-4c1e-9d77-000000000000", 1);
	timeline_set_copy_engines(t, 0, 2);
}

/* Chrome JSON keeps the records, the stream and device tables and the kernels' launches: in the layout of a
 * process per stream (one device) and of a process per device (two). */
static void test_chrome_roundtrip(void **state)
{
	struct ss_timeline t;
	char *dir = fx_tmpdir();

	(void)state;
	timeline_init(&t);
	fx_timeline(&t, 5000, 8);
	roundtrip(dir, "trace.json", &t, NULL);
	/* kernels' launches, in args of their X events */
	assert_true(add_launches(&t) > 100);
	roundtrip(dir, "launch.json", &t, NULL);
	t.modelled = true;
	roundtrip(dir, "model.json", &t, NULL);
	/* two devices: a process per device, a thread per stream and engine */
	t.modelled = false;
	label_streams(&t);
	timeline_set_device(&t, 1, "NVIDIA H100", "GPU-8c3f2a10-0000-4c1e-9d77-000000000001", 2);
	timeline_set_copy_engines(&t, 1, 1);
	timeline_set_stream_device(&t, 1, 1);
	timeline_set_stream_device(&t, 9, 1); /* idle, on the second device */
	t.stream_ids = true;
	roundtrip(dir, "kinds2.json", &t, NULL);
	timeline_free(&t);
	/* one device: a process per stream */
	timeline_init(&t);
	fx_timeline(&t, 5000, 8);
	for (size_t k = 0; k < t.n; k++) {
		t.rec[k].device = 0;
		t.rec[k].flags &= (uint8_t) ~(SS_REC_PEER | SS_REC_PEER_IN);
		t.rec[k].peer = 0;
	}
	label_streams(&t);
	assert_int_equal(timeline_ndevices(&t), 1);
	add_launches(&t);
	roundtrip(dir, "kinds1.json", &t, NULL);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* An empty timeline exports and comes back empty in both formats. */
static void test_empty_roundtrip(void **state)
{
	struct ss_timeline t;
	char *dir = fx_tmpdir();

	(void)state;
	timeline_init(&t);
	roundtrip(dir, "empty.sqlite", &t, NULL);
	roundtrip(dir, "empty.json", &t, NULL);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

static void test_experiment_roundtrip(void **state)
{
	struct ss_experiment e, back;
	bool own;
	struct ss_timeline t;
	struct ss_export_input in = {.t = &t, .e = &e};
	char *dir = fx_tmpdir(), path[512], *cause = NULL;

	(void)state;
	experiment_preset(&e, SS_PRESET_DECRYPT);
	e.streams = 8;
	e.order = SS_ORDER_BREADTH;
	e.sync = SS_SYNC_EVENTS;
	e.prefetch_events = SS_PFE_OFF;
	timeline_init(&t);
	fx_timeline(&t, 100, 8);
	snprintf(path, sizeof path, "%s/x.sqlite", dir);
	assert_int_equal(export_sqlite(path, &in, &cause), 0);
	memset(&back, 0, sizeof back);
	own = false;
	if (import_sqlite_experiment(path, &back, &own, &cause) != 1)
		fail_msg("experiment: %s", cause ? cause : "not found");
	assert_true(own); /* the preset's own work: no program */
	assert_int_equal(back.preset, e.preset);
	assert_int_equal(back.streams, 8);
	assert_int_equal(back.order, SS_ORDER_BREADTH);
	assert_int_equal(back.sync, SS_SYNC_EVENTS);
	assert_int_equal(back.elements, e.elements);
	assert_int_equal(back.work, e.work);
	assert_int_equal(back.prefetch_events, SS_PFE_OFF);
	/* a step program goes into the program column as its file gives it; none: NULL */
	{
		sqlite3 *db;
		sqlite3_stmt *q;

		assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_prepare_v2(db, "SELECT program FROM STREAMSCOPE_EXPERIMENT", -1, &q, NULL),
		                 SQLITE_OK);
		assert_int_equal(sqlite3_step(q), SQLITE_ROW);
		assert_int_equal(sqlite3_column_type(q, 0), SQLITE_NULL);
		sqlite3_finalize(q);
		sqlite3_close(db);
		e.nsteps = 3;
		e.step[0] = (struct ss_step){
		    .kind = SS_STEP_H2D, .buffer = 0, .hostmem = SS_STEP_DEFAULT, .kernel = SS_STEP_DEFAULT};
		e.step[1] = (struct ss_step){.kind = SS_STEP_KERNEL,
		                             .buffer = 0,
		                             .hostmem = SS_STEP_DEFAULT,
		                             .kernel = SS_KERNEL_DECRYPT,
		                             .work = 64};
		e.step[2] = (struct ss_step){
		    .kind = SS_STEP_D2H, .buffer = 0, .hostmem = SS_MEM_PAGEABLE, .kernel = SS_STEP_DEFAULT};
		e.ninter = 3;
		e.inter[0] = (struct ss_inter){0, 0};
		e.inter[1] = (struct ss_inter){1, 1};
		e.inter[2] = (struct ss_inter){2, 2};
		snprintf(path, sizeof path, "%s/p.sqlite", dir);
		assert_int_equal(export_sqlite(path, &in, &cause), 0);
		assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_prepare_v2(db, "SELECT program FROM STREAMSCOPE_EXPERIMENT", -1, &q, NULL),
		                 SQLITE_OK);
		assert_int_equal(sqlite3_step(q), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(q, 0),
		                    "h2d x; kernel decrypt x work=64; d2h x pageable; interleave = 1 2@c-1 3@c-2");
		sqlite3_finalize(q);
		sqlite3_close(db);
		/* read back: a step program, which the experiment read does not hold: not the preset's own work */
		assert_int_equal(import_sqlite_experiment(path, &back, &own, &cause), 1);
		assert_false(own);
		assert_int_equal(import_sqlite_experiment(path, &back, NULL, &cause), 1);
	}
	in.e = NULL;
	snprintf(path, sizeof path, "%s/y.sqlite", dir);
	assert_int_equal(export_sqlite(path, &in, &cause), 0);
	own = true;
	assert_int_equal(import_sqlite_experiment(path, &back, &own, &cause), 0);
	assert_false(own);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

static void test_export_file_extensions(void **state)
{
	static const char *const good[] = {"a.sqlite", "a.db", "a.json", "a.csv", "a.svg", "a.txt", "b.SQLITE"};
	struct ss_timeline t;
	struct ss_export_input in = {.t = &t};
	char *dir = fx_tmpdir(), path[512], *cause = NULL;
	struct stat st;

	(void)state;
	timeline_init(&t);
	fx_timeline(&t, 200, 4);
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, good[i]);
		if (export_file(path, &in, &cause) != 0)
			fail_msg("%s: %s", good[i], cause);
		assert_int_equal(stat(path, &st), 0);
		assert_true(st.st_size > 0);
		assert_int_equal(st.st_mode & 0777, 0666 & ~(unsigned)umask(022));
		umask(022);
	}
	assert_int_equal(fx_count_entries(dir), (int)(sizeof good / sizeof good[0]));
	snprintf(path, sizeof path, "%s/trace.xml", dir);
	assert_int_equal(export_file(path, &in, &cause), -1);
	assert_non_null(strstr(cause, "trace.xml"));
	assert_non_null(strstr(cause, ".xml"));
	assert_non_null(strstr(cause, SS_EXPORT_EXTENSIONS));
	assert_null(strchr(cause, '\n'));
	free(cause);
	snprintf(path, sizeof path, "%s/noext", dir);
	assert_int_equal(export_file(path, &in, &cause), -1);
	assert_non_null(strstr(cause, "no file extension"));
	free(cause);
	assert_int_equal(fx_count_entries(dir), (int)(sizeof good / sizeof good[0]));
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

static void test_snapshot(void **state)
{
	static const char *const files[] = {"trace.sqlite", "trace.json", "intervals.csv", "gantt.svg",
	                                    "summary.txt",  "screen.txt", "screen.ansi"};
	struct ss_experiment e;
	struct ss_timeline t, back;
	struct ss_export_input in = {.t = &t, .e = &e};
	char *dir = fx_tmpdir(), out[1024], out2[1024], path[1200], *cause = NULL, *text;
	const char *base;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 8;
	e.order = SS_ORDER_DEPTH;
	timeline_init(&t);
	fx_timeline(&t, 300, 8);
	if (export_snapshot(dir, &in, "screen line 1\nscreen line 2\n", "\x1b[32mgreen\x1b[0m\n", out, sizeof out,
	                    &cause) != 0)
		fail_msg("snapshot: %s", cause);
	base = strrchr(out, '/') + 1;
	/* streamscope-YYYYmmdd-HHMMSS-kernel-transfer-8s-depth */
	assert_int_equal(strncmp(base, "streamscope-", 12), 0);
	assert_int_equal(strlen(base), strlen("streamscope-20261129-193012-kernel-transfer-8s-depth"));
	assert_non_null(strstr(base, "-kernel-transfer-8s-depth"));
	assert_int_equal(fx_count_entries(out), 7);
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		struct stat st;

		snprintf(path, sizeof path, "%s/%s", out, files[i]);
		if (stat(path, &st) != 0 || st.st_size == 0)
			fail_msg("%s missing or empty", path);
	}
	snprintf(path, sizeof path, "%s/screen.ansi", out);
	text = fx_read(path, NULL);
	assert_string_equal(text, "\x1b[32mgreen\x1b[0m\n");
	free(text);
	snprintf(path, sizeof path, "%s/trace.sqlite", out);
	timeline_init(&back);
	assert_int_equal(import_file(path, &back, &cause), 0);
	fx_same_records(&t, &back);
	timeline_free(&back);
	/* a second snapshot in the same second gets its own directory */
	assert_int_equal(export_snapshot(dir, &in, NULL, NULL, out2, sizeof out2, &cause), 0);
	assert_string_not_equal(out, out2);
	assert_int_equal(fx_count_entries(dir), 2);
	assert_int_equal(fx_count_entries(out2), 5);
	/* an unwritable parent: -1, a clear cause, nothing created */
	snprintf(path, sizeof path, "%s/does/not/exist", dir);
	assert_int_equal(export_snapshot(path, &in, NULL, NULL, out, sizeof out, &cause), -1);
	assert_non_null(strstr(cause, path));
	assert_null(strchr(cause, '\n'));
	free(cause);
	snprintf(path, sizeof path, "%s/trace.sqlite", out2);
	assert_int_equal(export_snapshot(path, &in, NULL, NULL, out, sizeof out, &cause), -1);
	assert_non_null(strstr(cause, "not a directory"));
	free(cause);
	assert_int_equal(fx_count_entries(dir), 2);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* A write that fails half-way (file size limit) leaves neither the file nor a temporary behind, in every format,
 * and a snapshot that fails half-way leaves no directory. */
static void test_atomic_failure(void **state)
{
	static const char *const names[] = {"t.sqlite", "t.json", "t.csv", "t.svg", "t.txt"};
	struct ss_timeline t;
	struct ss_export_input in = {.t = &t};
	struct rlimit old, lim;
	char *dir = fx_tmpdir(), path[512], out[512], *cause = NULL;

	(void)state;
	timeline_init(&t);
	fx_timeline(&t, 200000, 8);
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 64 * 1024;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (strcmp(names[i], "t.svg") == 0 || strcmp(names[i], "t.txt") == 0)
			continue; /* a few kB (merged rectangles, a summary): below the limit */
		if (export_file(path, &in, &cause) != -1)
			fail_msg("%s: export succeeded past the size limit", names[i]);
		assert_non_null(strstr(cause, path));
		assert_null(strchr(cause, '\n'));
		free(cause);
		cause = NULL;
		assert_int_equal(fx_count_entries(dir), 0);
	}
	assert_int_equal(export_snapshot(dir, &in, NULL, NULL, out, sizeof out, &cause), -1);
	free(cause);
	assert_int_equal(fx_count_entries(dir), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	/* into a directory that does not exist, and "into" a regular file */
	snprintf(path, sizeof path, "%s/missing/t.json", dir);
	assert_int_equal(export_file(path, &in, &cause), -1);
	assert_non_null(strstr(cause, "missing does not exist"));
	free(cause);
	snprintf(path, sizeof path, "%s", dir);
	assert_int_equal(export_file(strcat(path, "/x.txt"), &in, &cause), 0);
	strcat(path, "/t.csv");
	assert_int_equal(export_file(path, &in, &cause), -1);
	assert_non_null(strstr(cause, "x.txt is not a directory"));
	free(cause);
	assert_int_equal(fx_count_entries(dir), 1);
	/* a directory in the way of the file */
	snprintf(path, sizeof path, "%s/sub.json", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(export_file(path, &in, &cause), -1);
	assert_non_null(strstr(cause, "is a directory"));
	free(cause);
	assert_int_equal(fx_count_entries(dir), 2);
	/* an existing file is replaced whole */
	snprintf(path, sizeof path, "%s/x.txt", dir);
	fx_write(path, "old", 3);
	assert_int_equal(export_file(path, &in, &cause), 0);
	{
		char *text = fx_read(path, NULL);

		assert_non_null(strstr(text, "streamscope"));
		free(text);
	}
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sqlite_roundtrip),       cmocka_unit_test(test_chrome_roundtrip),
	    cmocka_unit_test(test_empty_roundtrip),        cmocka_unit_test(test_experiment_roundtrip),
	    cmocka_unit_test(test_export_file_extensions), cmocka_unit_test(test_snapshot),
	    cmocka_unit_test(test_atomic_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
