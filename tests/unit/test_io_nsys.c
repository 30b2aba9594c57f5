/* test_io_nsys.c: real Nsight Systems exports (tests/data/nsys, from an RTX 4060 Ti and an RTX 3060, nsys 2026.1
 * and 2023.3) open with the counts their README states; they are never modified; the SQL people write for nsys
 * exports gives the same answers on streamscope's export of the same trace; older/minimal schemas (missing
 * optional columns, other enum numbering, NVTX ranges) import gracefully. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <sqlite3.h>

#include "db_fixture.h"
#include "io/export/export.h"
#include "io/export/export_sqlite.h"
#include "io/import/import.h"
#include "io_fixture.h"

static size_t count_kind(const struct ss_timeline *t, int kind)
{
	return timeline_count(t, kind);
}

static const struct ss_record *find(const struct ss_timeline *t, int kind, int nth)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == kind && nth-- == 0)
			return &t->rec[i];
	return NULL;
}

static void test_rtx4060ti(void **state)
{
	char *path = fx_data("nsys/rtx4060ti-4streams.sqlite"), *cause = NULL;
	struct ss_timeline t;
	const struct ss_record *k, *api = NULL;

	(void)state;
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(t.nstreams, 4);
	/* TARGET_INFO_CUDA_STREAM: streams 13..16 were created blocking (flag 1) */
	for (int s = 0; s < 4; s++) {
		const struct ss_stream_info *si = timeline_stream(&t, s);

		assert_non_null(si);
		assert_int_equal(si->raw_id, 13 + s);
		assert_int_equal(si->kind, SS_SKIND_BLOCKING);
	}
	assert_int_equal(count_kind(&t, SS_KIND_H2D) + count_kind(&t, SS_KIND_D2H), 12);
	assert_int_equal(count_kind(&t, SS_KIND_H2D), 8);
	assert_int_equal(count_kind(&t, SS_KIND_D2H), 4);
	assert_int_equal(count_kind(&t, SS_KIND_KERNEL), 4);
	assert_int_equal(count_kind(&t, SS_KIND_API), 44);
	assert_int_equal(count_kind(&t, SS_KIND_SYNC), 1);
	assert_string_equal(t.device, "NVIDIA GeForce RTX 4060 Ti");
	assert_non_null(timeline_device(&t, 0));
	assert_int_equal(timeline_device(&t, 0)->copy_engines, 1); /* asyncEngines: one copy engine */
	assert_string_equal(t.backend, "file");
	assert_string_equal(t.source, path);
	assert_false(t.modelled);
	/* streams in order of first appearance: nsys streamId 13 (first copy) is stream 0, then 14, 15, 16 */
	for (int s = 0; s < 4; s++) {
		k = find(&t, SS_KIND_KERNEL, s);
		assert_non_null(k);
		assert_string_equal(timeline_name(&t, k->name), "add_parallel");
		assert_int_equal(k->stream, s);
		assert_int_equal(k->raw_stream, 13 + s);
	}
	k = find(&t, SS_KIND_KERNEL, 0);
	assert_int_equal(k->start, 1453545934);
	assert_int_equal(k->end, 1453680134);
	assert_int_equal(k->correlation, 133);
	/* the API call that launched it, with its version suffix dropped, on the host lane */
	for (size_t i = 0; i < t.n; i++)
		if (t.rec[i].kind == SS_KIND_API && t.rec[i].correlation == 133)
			api = &t.rec[i];
	assert_non_null(api);
	assert_string_equal(timeline_name(&t, api->name), "cudaLaunchKernel");
	assert_int_equal(api->stream, SS_STREAM_HOST);
	assert_int_equal(api->thread, 281761330250412ull % 0x1000000ull);
	/* pinned 100 MB copies */
	k = find(&t, SS_KIND_H2D, 0);
	assert_int_equal(k->bytes, 100000000);
	assert_true(k->flags & SS_REC_PINNED);
	assert_false(k->flags & SS_REC_PAGEABLE);
	k = find(&t, SS_KIND_SYNC, 0);
	assert_int_equal(k->stream, SS_STREAM_HOST);
	assert_int_equal(k->raw_stream, 0xffffffffu);
	timeline_free(&t);
	free(path);
}

static void test_rtx3060(void **state)
{
	char *path = fx_data("nsys/rtx3060-1stream.sqlite"), *cause = NULL;
	struct ss_timeline t;
	const struct ss_record *r;

	(void)state;
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(t.nstreams, 1);
	/* the one stream is the NULL stream (flag 3): the legacy default stream */
	assert_non_null(timeline_stream(&t, 0));
	assert_int_equal(timeline_stream(&t, 0)->raw_id, 7);
	assert_int_equal(timeline_stream(&t, 0)->kind, SS_SKIND_LEGACY);
	assert_int_equal(count_kind(&t, SS_KIND_H2D) + count_kind(&t, SS_KIND_D2H), 2);
	assert_int_equal(count_kind(&t, SS_KIND_KERNEL), 1);
	assert_string_equal(t.device, "NVIDIA GeForce RTX 3060");
	assert_int_equal(timeline_device(&t, 0)->copy_engines, 2);
	r = find(&t, SS_KIND_KERNEL, 0);
	assert_string_equal(timeline_name(&t, r->name), "reduce_baseline");
	assert_int_equal(r->stream, 0);
	r = find(&t, SS_KIND_H2D, 0);
	assert_int_equal(r->bytes, 102400000);
	assert_true(r->flags & SS_REC_PAGEABLE); /* srcKind 0: pageable in nsys's numbering */
	r = find(&t, SS_KIND_D2H, 0);
	assert_int_equal(r->bytes, 4);
	assert_true(r->flags & SS_REC_PAGEABLE);
	timeline_free(&t);
	free(path);
}

/* Opening leaves the file byte-identical and creates no journal, -wal or -shm file next to it. */
static void test_read_only(void **state)
{
	char *src = fx_data("nsys/rtx4060ti-4streams.sqlite"), *dir = fx_tmpdir(), path[512], *cause = NULL;
	size_t len0 = 0, len1 = 0;
	char *before = fx_read(src, &len0), *after;
	struct ss_timeline t;
	struct stat st0, st1;

	(void)state;
	snprintf(path, sizeof path, "%s/copy of report.sqlite", dir); /* a space: the URI must be encoded */
	fx_write(path, before, len0);
	assert_int_equal(stat(path, &st0), 0);
	sleep(1);
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(count_kind(&t, SS_KIND_KERNEL), 4);
	assert_int_equal(stat(path, &st1), 0);
	assert_int_equal(st0.st_mtime, st1.st_mtime);
	after = fx_read(path, &len1);
	assert_int_equal(len0, len1);
	assert_memory_equal(before, after, len0);
	assert_int_equal(fx_count_entries(dir), 1);
	timeline_free(&t);
	free(before);
	free(after);
	free(src);
	fx_rmdir(dir);
	free(dir);
}

/* query_rows runs sql on the database at path and returns its rows as one string "a|b\n...". */
static char *query_rows(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	char *out = calloc(1, 1);
	size_t len = 0;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s: %s", path, sql, sqlite3_errmsg(db));
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (int c = 0; c < sqlite3_column_count(st); c++) {
			const char *v = (const char *)sqlite3_column_text(st, c);
			size_t n = strlen(v ? v : "NULL") + 2;

			out = realloc(out, len + n + 1);
			len += (size_t)sprintf(out + len, "%s%c", v ? v : "NULL",
			                       c + 1 < sqlite3_column_count(st) ? '|' : '\n');
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return out;
}

/* Typical nsys-report SQL: kernel time by name (StringIds on shortName), copy bytes by copyKind with the enum's
 * label, pinned bytes through ENUM_CUDA_MEM_KIND, launches joined to kernels by correlation id, kernels per
 * stream, the GPU's name. */
static const char *const nsys_queries[] = {
    "SELECT s.value AS name, count(*) AS n, sum(k.end - k.start) AS total FROM CUPTI_ACTIVITY_KIND_KERNEL AS k"
    " JOIN StringIds AS s ON s.id = k.shortName GROUP BY name ORDER BY total DESC",
    "SELECT m.copyKind, e.label, count(*), sum(m.bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m"
    " JOIN ENUM_CUDA_MEMCPY_OPER AS e ON e.id = m.copyKind GROUP BY m.copyKind ORDER BY m.copyKind",
    "SELECT sum(m.bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m JOIN ENUM_CUDA_MEM_KIND AS k ON k.id = m.srcKind"
    " WHERE k.name = 'CUDA_MEMOPR_MEMORY_KIND_PINNED'",
    "SELECT count(*), sum(k.start - r.start) FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r"
    " JOIN CUPTI_ACTIVITY_KIND_KERNEL AS k ON k.correlationId = r.correlationId"
    " JOIN StringIds AS s ON s.id = r.nameId WHERE s.value LIKE 'cudaLaunchKernel%'",
    "SELECT streamId, count(*), min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY streamId"
    " ORDER BY streamId",
    "SELECT name FROM TARGET_INFO_GPU",
    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE streamId = 4294967295",
};

/* The same SQL gives the same answers on the nsys export and on streamscope's export of the trace it read. */
static void test_nsys_sql_on_our_export(void **state)
{
	static const char *const files[] = {"nsys/rtx4060ti-4streams.sqlite", "nsys/rtx3060-1stream.sqlite"};
	char *dir = fx_tmpdir(), out[512], *cause = NULL;

	(void)state;
	for (size_t f = 0; f < 2; f++) {
		char *src = fx_data(files[f]);
		struct ss_timeline t, back;
		struct ss_export_input in = {.t = &t};

		timeline_init(&t);
		assert_int_equal(import_file(src, &t, &cause), 0);
		snprintf(out, sizeof out, "%s/ours-%zu.sqlite", dir, f);
		if (export_sqlite(out, &in, &cause) != 0)
			fail_msg("%s", cause);
		for (size_t q = 0; q < sizeof nsys_queries / sizeof nsys_queries[0]; q++) {
			char *a = query_rows(src, nsys_queries[q]), *b = query_rows(out, nsys_queries[q]);

			if (strcmp(a, b) != 0)
				fail_msg("%s: query %zu differs:\nnsys:\n%sours:\n%s", files[f], q, a, b);
			assert_true(strlen(a) > 0);
			free(a);
			free(b);
		}
		/* and streamscope reads its export of the nsys trace back exactly */
		timeline_init(&back);
		assert_int_equal(import_file(out, &back, &cause), 0);
		fx_same_records(&t, &back);
		/* the copy engines too (asyncEngines: 1 and 2) */
		assert_int_equal(timeline_device(&back, 0)->copy_engines, f == 0 ? 1 : 2);
		timeline_free(&back);
		timeline_free(&t);
		free(src);
	}
	fx_rmdir(dir);
	free(dir);
}

/* Numbers the nsys SQL gives on a timeline streamscope made (not one read from nsys). */
static void test_nsys_sql_numbers(void **state)
{
	struct ss_timeline t;
	struct ss_export_input in = {.t = &t};
	char *dir = fx_tmpdir(), out[512], *cause = NULL, *rows, want[512];
	uint64_t h2d = 0, d2h = 0, ker = 0, nker = 0;
	const char *kname = NULL;

	(void)state;
	timeline_init(&t);
	fx_timeline(&t, 4000, 4);
	for (size_t i = 0; i < t.n; i++) {
		const struct ss_record *r = &t.rec[i];

		h2d += r->kind == SS_KIND_H2D ? r->bytes : 0;
		d2h += r->kind == SS_KIND_D2H ? r->bytes : 0;
		if (r->kind == SS_KIND_KERNEL && kname == NULL && r->name != 0)
			kname = timeline_name(&t, r->name);
		if (r->kind == SS_KIND_KERNEL && kname != NULL && strcmp(timeline_name(&t, r->name), kname) == 0) {
			ker += r->end - r->start;
			nker++;
		}
	}
	snprintf(out, sizeof out, "%s/t.sqlite", dir);
	assert_int_equal(export_sqlite(out, &in, &cause), 0);
	rows = query_rows(out, "SELECT m.copyKind, sum(m.bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m"
	                       " WHERE m.copyKind IN (1, 2) GROUP BY m.copyKind ORDER BY m.copyKind");
	snprintf(want, sizeof want, "1|%llu\n2|%llu\n", (unsigned long long)h2d, (unsigned long long)d2h);
	assert_string_equal(rows, want);
	free(rows);
	{
		char *sql = sqlite3_mprintf("SELECT count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL AS k"
		                            " JOIN StringIds AS s ON s.id = k.shortName WHERE s.value = %Q",
		                            kname);

		rows = query_rows(out, sql);
		sqlite3_free(sql);
	}
	assert_true(nker > 30);
	snprintf(want, sizeof want, "%llu|%llu\n", (unsigned long long)nker, (unsigned long long)ker);
	assert_string_equal(rows, want);
	free(rows);
	rows = query_rows(out, "SELECT value FROM STREAMSCOPE_META WHERE name = 'measurement'");
	assert_string_equal(rows, "measured\n");
	free(rows);
	rows = query_rows(out, "SELECT modelled, makespanNs > 0, speedup IS NULL FROM STREAMSCOPE_ANALYSIS");
	assert_string_equal(rows, "0|1|1\n");
	free(rows);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* An older, leaner schema: no shortName (names from demangledName), no correlationId, no srcKind/dstKind, no
 * TARGET_INFO_GPU, CUPTI's own memory-kind numbering in ENUM_CUDA_MEM_KIND, NVTX ranges among marks. */
static void test_minimal_schema(void **state)
{
	char *dir = fx_tmpdir(), path[512], *cause = NULL;
	struct ss_timeline t;
	const struct ss_record *r;

	(void)state;
	snprintf(path, sizeof path, "%s/old.sqlite", dir);
	fx_make_db(
	    path,
	    "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
	    "INSERT INTO StringIds VALUES (1, 'void scale<float>(float*, int)'), (2, 'phase one');"
	    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, streamId INT NOT NULL,"
	    " demangledName INT NOT NULL);"
	    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (500, 900, 21, 1), (100, 200, 22, 1);"
	    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT, end INT, streamId INT, bytes INT, copyKind INT,"
	    " srcKind INT, dstKind INT);"
	    "CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);"
	    "INSERT INTO ENUM_CUDA_MEM_KIND VALUES (1, 'CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE', 'Pageable'),"
	    " (2, 'CUPTI_ACTIVITY_MEMORY_KIND_PINNED', 'Pinned'), (3, 'CUPTI_ACTIVITY_MEMORY_KIND_DEVICE', 'Device');"
	    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (50, 80, 22, 1024, 1, 1, 3), (950, 990, 21, 2048, 2, 3, 2),"
	    " (10, 20, 22, 64, 8, 3, 3);"
	    "CREATE TABLE NVTX_EVENTS (start INT NOT NULL, end INT, eventType INT NOT NULL, text TEXT, textId INT,"
	    " globalTid INT);"
	    "INSERT INTO NVTX_EVENTS VALUES (0, 1000, 59, NULL, 2, 77), (5, NULL, 34, 'a mark', NULL, 77),"
	    " (0, 0, 75, 'domain', NULL, 77), (20, 30, 60, 'inline text', NULL, 78);"
	    "CREATE TABLE SOMETHING_NEW (x BLOB);");
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(t.n, 7);
	assert_int_equal(t.nstreams, 2);
	assert_string_equal(t.device, "");
	r = find(&t, SS_KIND_KERNEL, 0);
	assert_string_equal(timeline_name(&t, r->name), "void scale<float>(float*, int)");
	assert_int_equal(r->stream, 0); /* streamId 22 appears first (a D2D copy at 10 ns) */
	assert_int_equal(r->raw_stream, 22);
	assert_int_equal(r->correlation, 0);
	assert_int_equal(find(&t, SS_KIND_KERNEL, 1)->stream, 1);
	r = find(&t, SS_KIND_H2D, 0);
	assert_int_equal(r->flags, SS_REC_PAGEABLE);
	r = find(&t, SS_KIND_D2H, 0);
	assert_int_equal(r->flags, SS_REC_PINNED);
	assert_int_equal(count_kind(&t, SS_KIND_D2D), 1);
	assert_int_equal(count_kind(&t, SS_KIND_MARKER), 2);
	r = find(&t, SS_KIND_MARKER, 0);
	assert_string_equal(timeline_name(&t, r->name), "phase one");
	assert_int_equal(r->thread, 77);
	r = find(&t, SS_KIND_MARKER, 1);
	assert_string_equal(timeline_name(&t, r->name), "inline text");
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rtx4060ti),        cmocka_unit_test(test_rtx3060),
	    cmocka_unit_test(test_read_only),        cmocka_unit_test(test_nsys_sql_on_our_export),
	    cmocka_unit_test(test_nsys_sql_numbers), cmocka_unit_test(test_minimal_schema),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
