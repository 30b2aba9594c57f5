/* test_replay_insights.c: issue 20's suite of traces with known problems, replayed on CI. DIR/expected.tsv names
 * each trace (DIR/NAME.sqlite: tests/data/h200/insights, recorded on the H200 by tests/gpu/insights.sh from the
 * programs of tests/gpu/insights; or the real Nsight Systems exports of tests/data/nsys) and what `streamscope
 * analyze` must find in it. Each trace goes through what analyze does (import_file, timeline_sort,
 * analysis_timeline, insight_analyze), and every row of the table is checked:
 *
 *   TRACE  RULE      SEVERITY  EVIDENCE   RULE fired, with SEVERITY (- for any), its evidence passing every check of
 *                                         EVIDENCE (comma-separated, - for none; see test_insights_evidence)
 *   TRACE  !RULE     -         -          RULE did not fire
 *   TRACE  !problem  -         -          no problem-level insight fired (the clean traces)
 *
 * Every insight that fired on any trace must also name records that exist and lie in its time range, and claim no
 * gain beyond the makespan. All failing checks are listed before the test fails; what fired on each trace is
 * printed. Exit 77 (skipped) when none of the listed traces is there yet. SS_TEST_VERBOSE=1 prints each insight's
 * summary and evidence too. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/analysis.h"
#include "core/insight.h"
#include "core/timeline.h"
#include "io/import/import.h"

static const char *replay_dir;

/* One row of expected.tsv. */
struct test_row {
	char trace[128], rule[64], severity[16], evidence[256];
	int line;
};

static struct test_row *test_rows;
static size_t test_nrows;
static int test_failures;
static bool test_verbose; /* SS_TEST_VERBOSE set and not "0" */

/* test_fail prints one failed check (trace, rule, why) and counts it. */
static void test_fail(const char *trace, const char *rule, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s %s: ", trace, rule);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	test_failures++;
}

/* test_load reads DIR/expected.tsv into test_rows; false when it cannot be read. A bad line fails the test. */
static bool test_load(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int n = 0;

	if (f == NULL)
		return false;
	while (fgets(line, sizeof line, f) != NULL) {
		struct test_row r;
		char *field[4], *save = NULL, *p;
		int k = 0;

		n++;
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		for (p = strtok_r(line, "\t", &save); p != NULL && k < 4; p = strtok_r(NULL, "\t", &save))
			field[k++] = p;
		if (k != 4)
			fail_msg("%s:%d: want 4 tab-separated fields (trace, rule, severity, evidence), got %d", path,
			         n, k);
		memset(&r, 0, sizeof r);
		snprintf(r.trace, sizeof r.trace, "%s", field[0]);
		snprintf(r.rule, sizeof r.rule, "%s", field[1]);
		snprintf(r.severity, sizeof r.severity, "%s", field[2]);
		snprintf(r.evidence, sizeof r.evidence, "%s", field[3]);
		r.line = n;
		test_rows = realloc(test_rows, (test_nrows + 1) * sizeof *test_rows);
		assert_non_null(test_rows);
		test_rows[test_nrows++] = r;
	}
	fclose(f);
	return true;
}

/* The file of trace name: DIR/NAME.sqlite. */
static void test_path(const char *trace, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.sqlite", replay_dir, trace);
}

static bool test_exists(const char *trace)
{
	char path[1024];
	struct stat st;

	test_path(trace, path, sizeof path);
	return stat(path, &st) == 0;
}

static bool test_is_copy(const struct ss_record *r)
{
	return r->kind == SS_KIND_H2D || r->kind == SS_KIND_D2H || r->kind == SS_KIND_D2D;
}

/* The number of evidence records the insight lists (the first SS_INSIGHT_MAX_RECS of nrec). */
static size_t test_shown(const struct ss_insight *x)
{
	return x->nrec < SS_INSIGHT_MAX_RECS ? x->nrec : SS_INSIGHT_MAX_RECS;
}

/* test_done: the latest end of stream key's GPU records that start before t (0 when none). */
static uint64_t test_done(const struct ss_timeline *t, int32_t stream, uint32_t raw, uint64_t before)
{
	uint64_t done = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if ((SS_GPU_KINDS & SS_KIND_BIT(r->kind)) && r->stream == stream && r->raw_stream == raw &&
		    r->start < before && r->end > done)
			done = r->end;
	}
	return done;
}

/* test_sync_check: SYNC record s waited on a stream while another stream of the trace had finished well before the
 * waited one did (its work done a quarter of the wait or more before): the host-sync-order pattern. */
static bool test_sync_check(const struct ss_timeline *t, const struct ss_record *s, char *why, size_t len)
{
	int32_t stream = SS_STREAM_UNKNOWN;
	uint64_t dx, margin = (s->end - s->start) / 4;

	for (size_t i = 0; i < t->n; i++)
		if ((SS_GPU_KINDS & SS_KIND_BIT(t->rec[i].kind)) && t->rec[i].raw_stream == s->raw_stream) {
			stream = t->rec[i].stream;
			break;
		}
	if (stream == SS_STREAM_UNKNOWN) {
		snprintf(why, len, "its stream (raw id %u) has no GPU work", s->raw_stream);
		return false;
	}
	dx = test_done(t, stream, s->raw_stream, s->end);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (!(SS_GPU_KINDS & SS_KIND_BIT(r->kind)) || r->stream < 0 || r->raw_stream == s->raw_stream)
			continue;
		if (test_done(t, r->stream, r->raw_stream, s->end) + margin <= dx)
			return true;
	}
	snprintf(why, len, "no other stream finished %llu ns or more before the waited one (done at %llu)",
	         (unsigned long long)margin, (unsigned long long)dx);
	return false;
}

/* test_kind_in: name is one of the '|'-separated names of list. */
static bool test_kind_in(const char *name, const char *list)
{
	size_t n = strlen(name);

	for (const char *p = list; *p != '\0'; p += strcspn(p, "|"), p += *p == '|') {
		if (strncmp(p, name, n) == 0 && (p[n] == '|' || p[n] == '\0'))
			return true;
	}
	return false;
}

/* test_evidence_one checks one EVIDENCE item of row against insight x of trace t (analysis a); on failure writes
 * why. Items:
 *   pageable       every listed record is a copy flagged PAGEABLE, and nrec is the trace's count of such copies
 *   legacy[=NAME]  every listed record is GPU work on the legacy default stream (named with NAME in it)
 *   kernel[=NAME]  every listed record is a kernel (named with NAME in it)
 *   copies=BYTES   every listed record is a pinned H2D or D2H copy of BYTES bytes
 *   kind=K1|K2...  every listed record is of one of the kinds (record_kind_name: H2D, D2H, KER, API, SYNC ...)
 *   managed        every listed record is a copy flagged MANAGED (a unified-memory migration)
 *   sync           every listed record is a stream wait (SYNC) during which another stream had finished
 *                  (test_sync_check)
 *   gap            t0 < t1, no GPU record overlaps (t0, t1), and every listed record is a host API or SYNC record
 *   span           t0 < t1 inside the analysis' work span [a.t0, a.t1]
 *   streams=N      the listed records lie on N or more different streams of the program
 *   records=N      nrec is N or more
 *   summary=TEXT   the summary contains TEXT */
static bool test_evidence_one(const struct ss_timeline *t, const struct ss_analysis *a, const struct ss_insight *x,
                              const char *item, char *why, size_t len)
{
	const char *arg = strchr(item, '=');
	size_t klen = arg != NULL ? (size_t)(arg - item) : strlen(item), n = test_shown(x);
	char key[32];

	snprintf(key, sizeof key, "%.*s", (int)klen, item);
	if (arg != NULL)
		arg++;
	if (strcmp(key, "summary") == 0) {
		if (arg == NULL || strstr(x->summary, arg) == NULL) {
			snprintf(why, len, "summary \"%s\" lacks \"%s\"", x->summary, arg != NULL ? arg : "");
			return false;
		}
		return true;
	}
	if (strcmp(key, "span") == 0) {
		if (!(x->t0 < x->t1 && x->t0 >= a->t0 && x->t1 <= a->t1)) {
			snprintf(why, len, "range %llu..%llu not a non-empty part of the work span %llu..%llu",
			         (unsigned long long)x->t0, (unsigned long long)x->t1, (unsigned long long)a->t0,
			         (unsigned long long)a->t1);
			return false;
		}
		return true;
	}
	if (strcmp(key, "records") == 0) {
		if (arg == NULL || x->nrec < (size_t)strtoul(arg, NULL, 10)) {
			snprintf(why, len, "%zu evidence records, want at least %s", x->nrec, arg != NULL ? arg : "?");
			return false;
		}
		return true;
	}
	if (strcmp(key, "gap") == 0) {
		if (x->t0 >= x->t1) {
			snprintf(why, len, "empty range %llu..%llu", (unsigned long long)x->t0,
			         (unsigned long long)x->t1);
			return false;
		}
		for (size_t i = 0; i < t->n; i++)
			if ((SS_GPU_KINDS & SS_KIND_BIT(t->rec[i].kind)) && t->rec[i].start < x->t1 &&
			    t->rec[i].end > x->t0) {
				snprintf(why, len, "GPU record %zu (%s) runs inside the gap", i,
				         record_kind_name(t->rec[i].kind));
				return false;
			}
	}
	if (strcmp(key, "streams") == 0) {
		int32_t seen[SS_INSIGHT_MAX_RECS];
		size_t ns = 0, want = arg != NULL ? (size_t)strtoul(arg, NULL, 10) : 2;

		for (size_t k = 0; k < n; k++) {
			const struct ss_record *r = &t->rec[x->rec[k]];
			bool dup = false;

			for (size_t j = 0; j < ns; j++)
				dup = dup || seen[j] == r->stream;
			if (r->stream >= 0 && !dup)
				seen[ns++] = r->stream;
		}
		if (ns < want) {
			snprintf(why, len, "evidence records on %zu streams, want %zu", ns, want);
			return false;
		}
		return true;
	}
	if (n == 0 && strcmp(key, "gap") != 0) {
		snprintf(why, len, "no evidence record");
		return false;
	}
	if (strcmp(key, "pageable") == 0) {
		size_t all = 0;

		for (size_t i = 0; i < t->n; i++)
			all += test_is_copy(&t->rec[i]) && (t->rec[i].flags & SS_REC_PAGEABLE);
		if (x->nrec != all) {
			snprintf(why, len, "%zu evidence records, the trace has %zu pageable copies", x->nrec, all);
			return false;
		}
	}
	for (size_t k = 0; k < n; k++) {
		const struct ss_record *r = &t->rec[x->rec[k]];
		const char *name = timeline_name(t, r->name);
		bool ok = true;

		if (strcmp(key, "pageable") == 0)
			ok = test_is_copy(r) && (r->flags & SS_REC_PAGEABLE);
		else if (strcmp(key, "legacy") == 0)
			ok = (SS_GPU_KINDS & SS_KIND_BIT(r->kind)) && r->stream == SS_STREAM_LEGACY &&
			     (arg == NULL || strstr(name, arg) != NULL);
		else if (strcmp(key, "kernel") == 0)
			ok = r->kind == SS_KIND_KERNEL && (arg == NULL || strstr(name, arg) != NULL);
		else if (strcmp(key, "copies") == 0)
			ok = (r->kind == SS_KIND_H2D || r->kind == SS_KIND_D2H) && !(r->flags & SS_REC_PAGEABLE) &&
			     arg != NULL && r->bytes == strtoull(arg, NULL, 10);
		else if (strcmp(key, "gap") == 0)
			ok = r->kind == SS_KIND_API || r->kind == SS_KIND_SYNC;
		else if (strcmp(key, "kind") == 0)
			ok = arg != NULL && test_kind_in(record_kind_name(r->kind), arg);
		else if (strcmp(key, "managed") == 0)
			ok = test_is_copy(r) && (r->flags & SS_REC_MANAGED);
		else if (strcmp(key, "sync") == 0) {
			if (r->kind != SS_KIND_SYNC) {
				snprintf(why, len, "record %zu is a %s, not a stream wait", x->rec[k],
				         record_kind_name(r->kind));
				return false;
			}
			if (!test_sync_check(t, r, why, len))
				return false;
		} else {
			snprintf(why, len, "unknown evidence check '%s' (see test_evidence_one)", item);
			return false;
		}
		if (!ok) {
			snprintf(why, len, "record %zu (%s on stream %d, %llu bytes, flags 0x%x, \"%s\") fails '%s'",
			         x->rec[k], record_kind_name(r->kind), (int)r->stream, (unsigned long long)r->bytes,
			         r->flags, name, item);
			return false;
		}
	}
	return true;
}

/* test_generic: what every insight's evidence must satisfy: listed records exist and touch its time range, and its
 * gain, where it has one, is no more than the makespan (a of t's), the most any change could save. */
static void test_generic(const char *trace, const struct ss_timeline *t, const struct ss_analysis *a,
                         const struct ss_insight *x)
{
	if (x->have_gain && x->gain_ns > a->makespan_ns)
		test_fail(trace, x->rule, "gain %llu ns beyond the makespan, %llu ns", (unsigned long long)x->gain_ns,
		          (unsigned long long)a->makespan_ns);
	if (x->t0 > x->t1)
		test_fail(trace, x->rule, "time range %llu..%llu is reversed", (unsigned long long)x->t0,
		          (unsigned long long)x->t1);
	for (size_t k = 0; k < test_shown(x); k++) {
		if (x->rec[k] >= t->n) {
			test_fail(trace, x->rule, "evidence record %zu of a timeline of %zu", x->rec[k], t->n);
			continue;
		}
		if (t->rec[x->rec[k]].end < x->t0 || t->rec[x->rec[k]].start > x->t1)
			test_fail(trace, x->rule, "evidence record %zu (%llu..%llu) lies outside %llu..%llu", x->rec[k],
			          (unsigned long long)t->rec[x->rec[k]].start,
			          (unsigned long long)t->rec[x->rec[k]].end, (unsigned long long)x->t0,
			          (unsigned long long)x->t1);
	}
}

/* test_row_check checks one row against the insights of its trace. */
static void test_row_check(const struct test_row *row, const struct ss_timeline *t, const struct ss_analysis *a,
                           const struct ss_insights *in)
{
	const struct ss_insight *x;
	char items[256], *save = NULL, why[512];

	if (strcmp(row->rule, "!problem") == 0) {
		for (size_t i = 0; i < in->n; i++)
			if (in->item[i].severity == SS_SEV_PROBLEM)
				test_fail(row->trace, row->rule, "%s fired as a problem: %s", in->item[i].rule,
				          in->item[i].summary);
		return;
	}
	if (row->rule[0] == '!') {
		if ((x = insight_find(in, row->rule + 1)) != NULL)
			test_fail(row->trace, row->rule, "fired: %s", x->summary);
		return;
	}
	if ((x = insight_find(in, row->rule)) == NULL) {
		test_fail(row->trace, row->rule, "did not fire (line %d)", row->line);
		return;
	}
	if (strcmp(row->severity, "-") != 0 && strcmp(row->severity, insight_severity_name(x->severity)) != 0)
		test_fail(row->trace, row->rule, "severity %s, want %s", insight_severity_name(x->severity),
		          row->severity);
	if (strcmp(row->evidence, "-") == 0)
		return;
	snprintf(items, sizeof items, "%s", row->evidence);
	for (char *p = strtok_r(items, ",", &save); p != NULL; p = strtok_r(NULL, ",", &save)) {
		why[0] = '\0';
		if (!test_evidence_one(t, a, x, p, why, sizeof why))
			test_fail(row->trace, row->rule, "evidence: %s", why);
	}
}

static void test_insights(void **state)
{
	(void)state;
	for (size_t i = 0; i < test_nrows; i++) {
		struct ss_timeline t;
		struct ss_analysis a;
		struct ss_insights in;
		char path[1024], *cause = NULL;
		bool first = true;

		for (size_t j = 0; j < i; j++)
			first = first && strcmp(test_rows[j].trace, test_rows[i].trace) != 0;
		if (!first)
			continue;
		test_path(test_rows[i].trace, path, sizeof path);
		timeline_init(&t);
		if (import_file(path, &t, &cause) != 0) {
			test_fail(test_rows[i].trace, "-", "cannot open %s: %s", path, cause != NULL ? cause : "?");
			free(cause);
			timeline_free(&t);
			continue;
		}
		timeline_sort(&t);
		analysis_timeline(&t, &a);
		insight_analyze(&t, &a, &in);
		printf("%s:", test_rows[i].trace);
		for (size_t k = 0; k < in.n; k++)
			printf(" %s:%s", in.item[k].rule, insight_severity_name(in.item[k].severity));
		printf("%s\n", in.n == 0 ? " (none)" : "");
		if (test_verbose) /* what the report quotes */
			for (size_t k = 0; k < in.n; k++)
				printf("  %s: %s\n    %s\n", in.item[k].rule, in.item[k].summary, in.item[k].evidence);
		for (size_t k = 0; k < in.n; k++)
			test_generic(test_rows[i].trace, &t, &a, &in.item[k]);
		for (size_t j = i; j < test_nrows; j++)
			if (strcmp(test_rows[j].trace, test_rows[i].trace) == 0)
				test_row_check(&test_rows[j], &t, &a, &in);
		timeline_free(&t);
	}
	if (test_failures > 0)
		fail_msg("%d checks failed (listed above)", test_failures);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_insights),
	};
	char table[1024];
	size_t there = 0, missing = 0;
	int rc;

	replay_dir = argc > 1 ? argv[1] : "tests/data/h200/insights";
	test_verbose = getenv("SS_TEST_VERBOSE") != NULL && strcmp(getenv("SS_TEST_VERBOSE"), "0") != 0;
	snprintf(table, sizeof table, "%s/expected.tsv", replay_dir);
	if (!test_load(table)) {
		printf("FAIL: cannot read %s\n", table);
		return 1;
	}
	for (size_t i = 0; i < test_nrows; i++) {
		if (test_exists(test_rows[i].trace))
			there++;
		else
			missing++;
	}
	if (there == 0) {
		printf("SKIP: none of the traces %s lists is in %s yet\n", table, replay_dir);
		free(test_rows);
		return 77;
	}
	if (missing > 0) /* some there, some not: a landing that lost files */
		printf("FAIL: %zu rows of %s name traces that are not in %s\n", missing, table, replay_dir);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(test_rows);
	return missing > 0 ? 1 : rc;
}
