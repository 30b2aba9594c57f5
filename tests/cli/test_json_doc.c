/* test_json_doc.c: docs/json.md against the --json output of every command that has one, run through the real binary
 * on the model: every object key at every depth of each output is named in the doc as `key`, and the first table of
 * the command's section (its top-level keys) names exactly the keys the output has at its top. A failure names the
 * key, where it is in the output and the command line. */
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

#include "cli_run.h"
#include "json_tree.h"

#define DOC_PATH SS_SOURCE_DIR "/docs/json.md"
#define TRACE SS_SOURCE_DIR "/tests/data/nsys/rtx3060-1stream.sqlite"

/* One command line whose output the doc must describe; section is its "## " heading in the doc. */
struct doc_case {
	const char *section;
	const char *argv[16];
};

/* Small experiments, so that the whole test takes well under a second: each command, plus the variants whose output
 * has keys the plain one lacks (a step program's op steps, the per-device rows, insights with a modelled gain and
 * with a trace's estimate). */
static const struct doc_case doc_cases[] = {
    {"run", {"run", "--backend", "model", "--streams", "4", "--json"}},
    {"sweep", {"sweep", "--backend", "model", "--streams", "1,2,4", "--json"}},
    {"claims", {"claims", "--backend", "model", "--json"}},
    {"ops", {"ops", "--streams", "4", "--json"}},
    {"ops", {"ops", "--experiment", SS_SOURCE_DIR "/examples/pipeline.ini", "--json"}},
    {"stats", {"stats", "--backend", "model", "--streams", "4", "--json"}},
    {"stats", {"stats", "--backend", "model", "--devices", "2", "--streams", "2", "--json"}},
    {"analyze", {"analyze", "--backend", "model", "--preset", "pageable", "--streams", "4", "--json"}},
    {"analyze", {"analyze", "--json", TRACE}},
    {"advise", {"advise", "--streams", "4", "--json"}},
};

#define DOC_MAX_MISSING 64

/* What one case's check has found so far. */
struct doc_check {
	const char *doc;  /* docs/json.md's text */
	const char *line; /* the command line, for messages */
	size_t keys;      /* object keys seen */
	char missing[DOC_MAX_MISSING][512];
	int nmissing;
	int problems; /* everything reported (missing keys and table mismatches) */
};

/* doc_text is docs/json.md, read once by doc_setup. */
static char *doc_text;

/* doc_read returns the whole file at path as a new string, NULL when it cannot be read. */
static char *doc_read(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) != NULL) {
		if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else {
			buf[n] = '\0';
		}
	}
	fclose(f);
	return buf;
}

/* doc_setup reads docs/json.md into doc_text for every case; -1 (the group fails) when it cannot. */
static int doc_setup(void **state)
{
	(void)state;
	doc_text = doc_read(DOC_PATH);
	if (doc_text == NULL) {
		print_error("cannot read %s\n", DOC_PATH);
		return -1;
	}
	return 0;
}

/* doc_teardown frees doc_text. */
static int doc_teardown(void **state)
{
	(void)state;
	free(doc_text);
	doc_text = NULL;
	return 0;
}

/* doc_names says whether doc names key as `key` anywhere. */
static bool doc_names(const char *doc, const char *key)
{
	char quoted[256];

	if ((size_t)snprintf(quoted, sizeof quoted, "`%s`", key) >= sizeof quoted)
		return false;
	return strstr(doc, quoted) != NULL;
}

/* doc_missing reports key (at path in the output) once per path: the doc does not name it. */
static void doc_missing(struct doc_check *c, const char *key, const char *path)
{
	for (int i = 0; i < c->nmissing; i++)
		if (strcmp(c->missing[i], path) == 0)
			return;
	if (c->nmissing < DOC_MAX_MISSING)
		snprintf(c->missing[c->nmissing++], sizeof c->missing[0], "%s", path);
	print_error("docs/json.md does not name `%s` (at %s) of: streamscope %s\n", key, path, c->line);
	c->problems++;
}

/* doc_walk checks every object key in v (at path: "" for the top, "points[].engines" below it) against the doc,
 * recursing into every member and every array element. */
static void doc_walk(struct doc_check *c, yajl_val v, const char *path)
{
	char sub[512];

	if (json_tree_is_object(v)) {
		for (size_t i = 0; i < v->u.object.len; i++) {
			const char *key = v->u.object.keys[i];

			snprintf(sub, sizeof sub, "%s%s%s", path, path[0] != '\0' ? "." : "", key);
			c->keys++;
			if (!doc_names(c->doc, key))
				doc_missing(c, key, sub);
			doc_walk(c, v->u.object.values[i], sub);
		}
	} else if (json_tree_is_array(v)) {
		size_t i;
		yajl_val e;

		snprintf(sub, sizeof sub, "%s[]", path);
		json_tree_foreach(v, i, e)
		{
			doc_walk(c, e, sub);
		}
	}
}

/* doc_section returns where the doc's "## name" section starts (its heading) and sets *end to where it ends (the
 * next "## " heading, or the end of the doc); NULL when there is no such section. */
static const char *doc_section(const char *doc, const char *name, const char **end)
{
	char heading[64];
	const char *s = doc, *next;
	size_t len = (size_t)snprintf(heading, sizeof heading, "## %s\n", name);

	while (s != NULL && strncmp(s, heading, len) != 0)
		s = (s = strstr(s, "\n## ")) != NULL ? s + 1 : NULL;
	if (s == NULL)
		return NULL;
	next = strstr(s + len, "\n## ");
	*end = next != NULL ? next + 1 : s + strlen(s);
	return s;
}

#define DOC_MAX_ROWS 64

/* doc_top_keys fills keys (room for DOC_MAX_ROWS, each 64 bytes) with the first backticked name of each row of the
 * first table in [s, end): the section's top-level keys. Returns how many rows named one. */
static int doc_top_keys(const char *s, const char *end, char keys[DOC_MAX_ROWS][64])
{
	const char *line = s;
	bool in_table = false;
	int n = 0;

	while (line < end) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));

		eol = eol != NULL ? eol : end;
		if (line[0] == '|') {
			in_table = true;
			if (strncmp(line, "| `", 3) == 0 && n < DOC_MAX_ROWS) {
				const char *k = line + 3, *q = memchr(k, '`', (size_t)(eol - k));

				if (q != NULL && (size_t)(q - k) < sizeof keys[0]) {
					memcpy(keys[n], k, (size_t)(q - k));
					keys[n++][q - k] = '\0';
				}
			}
		} else if (in_table) {
			break;
		}
		line = eol + 1;
	}
	return n;
}

/* doc_check_top holds the output's top-level object j to the first table of the case's section, both ways: every
 * key j has is a row, and every row is a key of j. */
static void doc_check_top(struct doc_check *c, const struct doc_case *dc, yajl_val j)
{
	char keys[DOC_MAX_ROWS][64];
	const char *s, *end;
	int n;

	if ((s = doc_section(c->doc, dc->section, &end)) == NULL) {
		print_error("docs/json.md has no '## %s' section for: streamscope %s\n", dc->section, c->line);
		c->problems++;
		return;
	}
	n = doc_top_keys(s, end, keys);
	for (int i = 0; i < n; i++)
		if (json_tree_get(j, keys[i]) == NULL) {
			print_error("docs/json.md's '## %s' table names `%s`, which is not a top-level key of: "
			            "streamscope %s\n",
			            dc->section, keys[i], c->line);
			c->problems++;
		}
	for (size_t k = 0; k < j->u.object.len; k++) {
		int i = 0;

		while (i < n && strcmp(keys[i], j->u.object.keys[k]) != 0)
			i++;
		if (i == n) {
			print_error("docs/json.md's '## %s' table lacks the top-level key `%s` of: streamscope %s\n",
			            dc->section, j->u.object.keys[k], c->line);
			c->problems++;
		}
	}
}

/* doc_line writes dc's command line (its arguments, blank-separated) into buf (len bytes). */
static char *doc_line(const struct doc_case *dc, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; dc->argv[i] != NULL; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i > 0 ? " " : "", dc->argv[i]);
	return buf;
}

/* test_doc_case runs one case's command (state: its struct doc_case) and checks its output against the doc. */
static void test_doc_case(void **state)
{
	const struct doc_case *dc = *state;
	struct doc_check *c = calloc(1, sizeof *c);
	char line[512], err[256];
	struct out o;
	yajl_val j;

	assert_non_null(c);
	doc_line(dc, line, sizeof line);
	c->doc = doc_text;
	c->line = line;
	run(&o, dc->argv);
	if (o.status != 0)
		fail_msg("streamscope %s: exit %d: %s", line, o.status, o.err);
	if ((j = json_tree_parse(o.out, err, sizeof err)) == NULL)
		fail_msg("streamscope %s: stdout is not JSON (%s): %s", line, err, o.out);
	assert_true(json_tree_is_object(j));
	doc_walk(c, j, "");
	assert_true(c->keys > 0);
	doc_check_top(c, dc, j);
	json_tree_free(j);
	out_free(&o);
	if (c->problems > 0) {
		int n = c->problems;

		free(c);
		fail_msg("docs/json.md and streamscope %s disagree in %d place%s (above)", line, n, n == 1 ? "" : "s");
	}
	free(c);
}

int main(void)
{
	enum { N = sizeof doc_cases / sizeof doc_cases[0] };
	struct CMUnitTest tests[N];
	static char names[N][512];

	for (size_t i = 0; i < N; i++) {
		doc_line(&doc_cases[i], names[i], sizeof names[i]);
		tests[i] = (struct CMUnitTest){names[i], test_doc_case, NULL, NULL, (void *)&doc_cases[i]};
	}
	return cmocka_run_group_tests_name("json_doc", tests, doc_setup, doc_teardown);
}
