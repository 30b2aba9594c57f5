/* test_io_formats.c: the formats streamscope only writes. CSV parsed back by a strict RFC 4180 reader; SVG checked
 * for XML well-formedness by a small checker (tags balance, attributes quoted, only the five entities, valid UTF-8),
 * for its semantic colours, MODELLED label, axis, legend and for merging sub-pixel intervals (a million intervals
 * stay a small file); the text summary's labels and optional values. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <ctype.h>
#include <inttypes.h>
#include <math.h>

#include "core/analysis.h"
#include "core/palette.h"
#include "io/export/escape.h"
#include "io/export/export.h"
#include "io/export/export_csv.h"
#include "io/export/export_svg.h"
#include "io/export/export_text.h"
#include "io_fixture.h"

/* One parsed CSV file: rows of fields. */
struct csv {
	char ***row;
	size_t *nfields;
	size_t nrows;
};

/* csv_parse reads RFC 4180 text (CRLF record ends, "..." fields with "" for a quote); fails the test on a
 * violation. */
static void csv_parse(const char *s, struct csv *c)
{
	memset(c, 0, sizeof *c);
	while (*s != '\0') {
		char **fields = NULL;
		size_t nf = 0;

		for (;;) {
			char *field = malloc(strlen(s) + 1);
			size_t len = 0;

			if (*s == '"') {
				s++;
				for (;;) {
					if (*s == '\0')
						fail_msg("CSV: unterminated quoted field");
					if (*s == '"' && s[1] == '"') {
						field[len++] = '"';
						s += 2;
					} else if (*s == '"') {
						s++;
						break;
					} else {
						field[len++] = *s++;
					}
				}
			} else {
				while (*s != ',' && *s != '\r' && *s != '\0') {
					if (*s == '"' || *s == '\n')
						fail_msg("CSV: bare quote or LF in an unquoted field");
					field[len++] = *s++;
				}
			}
			field[len] = '\0';
			fields = realloc(fields, (nf + 1) * sizeof *fields);
			fields[nf++] = field;
			if (*s == ',') {
				s++;
				continue;
			}
			if (s[0] != '\r' || s[1] != '\n')
				fail_msg("CSV: record not ended by CRLF");
			s += 2;
			break;
		}
		c->row = realloc(c->row, (c->nrows + 1) * sizeof *c->row);
		c->nfields = realloc(c->nfields, (c->nrows + 1) * sizeof *c->nfields);
		c->row[c->nrows] = fields;
		c->nfields[c->nrows++] = nf;
	}
}

static void csv_free(struct csv *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		for (size_t j = 0; j < c->nfields[i]; j++)
			free(c->row[i][j]);
		free(c->row[i]);
	}
	free(c->row);
	free(c->nfields);
}

static char *export_to_string(int (*fn)(const char *, const struct ss_export_input *, char **),
                              const struct ss_export_input *in, const char *name, size_t *len)
{
	char *dir = fx_tmpdir(), path[512], *cause = NULL, *text;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (fn(path, in, &cause) != 0)
		fail_msg("%s", cause);
	text = fx_read(path, len);
	fx_rmdir(dir);
	free(dir);
	return text;
}

static void test_csv(void **state)
{
	static const char *const header[] = {"stream",         "stream_label", "raw_stream",  "kind",
	                                     "start_ns",       "end_ns",       "duration_ns", "bytes",
	                                     "bandwidth_GBps", "name",         "correlation", "thread",
	                                     "flags",          "measurement",  "device",      "peer"};
	struct ss_timeline t;
	struct ss_export_input in = {.t = &t};
	struct csv c;
	char *text, num[64];

	(void)state;
	timeline_init(&t);
	fx_timeline(&t, 1000, 4);
	t.modelled = true;
	text = export_to_string(export_csv, &in, "t.csv", NULL);
	csv_parse(text, &c);
	assert_int_equal(c.nrows, t.n + 1);
	assert_int_equal(c.nfields[0], 16);
	for (size_t j = 0; j < 16; j++)
		assert_string_equal(c.row[0][j], header[j]);
	for (size_t i = 0; i < t.n; i++) {
		const struct ss_record *r = &t.rec[i];
		char **f = c.row[i + 1];

		assert_int_equal(c.nfields[i + 1], 16);
		assert_int_equal(strtol(f[0], NULL, 10), r->stream);
		assert_string_equal(f[3], record_kind_name(r->kind));
		snprintf(num, sizeof num, "%" PRIu64, r->start);
		assert_string_equal(f[4], num);
		snprintf(num, sizeof num, "%" PRIu64, r->end - r->start);
		assert_string_equal(f[6], num);
		snprintf(num, sizeof num, "%" PRIu64, r->bytes);
		assert_string_equal(f[7], num);
		if (r->bytes == 0)
			assert_string_equal(f[8], "");
		else
			assert_true(fabs(strtod(f[8], NULL) - (double)r->bytes / (double)(r->end - r->start)) < 1e-3);
		assert_string_equal(f[9], timeline_name(&t, r->name)); /* commas, quotes, newlines survive */
		assert_int_equal(strtoul(f[10], NULL, 10), r->correlation);
		assert_string_equal(f[13], "MODELLED");
		assert_int_equal(strtoul(f[14], NULL, 10), r->device);
		if (r->flags & SS_REC_PEER) {
			assert_int_equal(strtoul(f[15], NULL, 10), r->peer);
			assert_non_null(strstr(f[12], "peer"));
		} else {
			assert_string_equal(f[15], "");
		}
		if (r->stream == SS_STREAM_HOST)
			assert_string_equal(f[1], "host");
	}
	csv_free(&c);
	free(text);
	timeline_free(&t);
}

/* xml_check fails the test unless s is well-formed XML with one root element named root. */
static void xml_check(const char *s, const char *root)
{
	const char *stack[64];
	int depth = 0, roots = 0;
	unsigned cp;

	for (const unsigned char *u = (const unsigned char *)s; *u != '\0';) {
		int n = escape_utf8_len(u, &cp);

		if (n == 0)
			fail_msg("invalid UTF-8 at byte %td", (const char *)u - s);
		u += n;
	}
	if (strncmp(s, "<?xml", 5) == 0)
		s = strstr(s, "?>") + 2;
	while (*s != '\0') {
		if (*s == '&') {
			static const char *const ents[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
			bool ok = false;

			for (int i = 0; i < 5; i++)
				ok |= strncmp(s, ents[i], strlen(ents[i])) == 0;
			if (!ok)
				fail_msg("bad entity near \"%.20s\"", s);
			s++;
		} else if (*s != '<') {
			if (depth == 0 && *s != '\n' && *s != ' ')
				fail_msg("text outside the root: \"%.20s\"", s);
			s++;
		} else if (s[1] == '/') {
			size_t len = strcspn(s + 2, ">");

			if (depth == 0 || strlen(stack[depth - 1]) != len || strncmp(stack[depth - 1], s + 2, len) != 0)
				fail_msg("mismatched close tag near \"%.30s\"", s);
			free((char *)stack[--depth]);
			s += 2 + len + 1;
		} else {
			size_t len = strcspn(s + 1, " \t\n/>");
			char *name = strndup(s + 1, len);

			s += 1 + len;
			for (;;) {
				while (*s == ' ' || *s == '\n' || *s == '\t')
					s++;
				if (*s == '/' && s[1] == '>') {
					s += 2;
					free(name);
					name = NULL;
					break;
				}
				if (*s == '>') {
					s++;
					break;
				}
				/* attribute: name="value" */
				while (*s != '=' && *s != '\0' && *s != '>' && *s != ' ')
					s++;
				if (*s != '=' || s[1] != '"')
					fail_msg("unquoted attribute in <%s>", name);
				s += 2;
				while (*s != '"') {
					if (*s == '\0' || *s == '<')
						fail_msg("bad attribute value in <%s>", name);
					if (*s == '&' && strncmp(s, "&amp;", 5) && strncmp(s, "&lt;", 4) &&
					    strncmp(s, "&gt;", 4) && strncmp(s, "&quot;", 6) && strncmp(s, "&apos;", 6))
						fail_msg("bad entity in attribute of <%s>", name);
					s++;
				}
				s++;
			}
			if (depth == 0) {
				roots++;
				assert_string_equal(name != NULL ? name : "", root);
			}
			if (name != NULL) {
				assert_true(depth < 64);
				stack[depth++] = name;
			}
		}
	}
	assert_int_equal(depth, 0);
	assert_int_equal(roots, 1);
}

static int count(const char *s, const char *needle)
{
	int n = 0;

	for (s = strstr(s, needle); s != NULL; s = strstr(s + 1, needle))
		n++;
	return n;
}

static char *fill_of(int role, char *buf)
{
	sprintf(buf, "fill=\"#%06x\"", (unsigned)palette_get(role)->rgb);
	return buf;
}

static void test_svg_content(void **state)
{
	struct ss_timeline t;
	struct ss_export_input in = {.t = &t};
	char *svg, fill[32];

	(void)state;
	timeline_init(&t);
	fx_timeline(&t, 2000, 4);
	svg = export_to_string(export_svg, &in, "t.svg", NULL);
	xml_check(svg, "svg");
	assert_non_null(strstr(svg, "class=\"badge\" text-anchor=\"end\">measured</text>"));
	assert_null(strstr(svg, "MODELLED"));
	assert_true(count(svg, fill_of(SS_ROLE_KERNEL, fill)) > 1);
	assert_true(count(svg, fill_of(SS_ROLE_H2D, fill)) > 1);
	assert_true(count(svg, fill_of(SS_ROLE_D2H, fill)) > 1);
	assert_true(count(svg, fill_of(SS_ROLE_SYNC, fill)) > 1);
	assert_non_null(strstr(svg, ">s3<title>s3</title></text>"));
	assert_non_null(strstr(svg, ">legacy<title>legacy</title></text>"));
	assert_non_null(strstr(svg, ">host</text>"));
	/* an NVTX lane per thread (the fixture's ranges are on threads 0, 1, 2) */
	assert_non_null(strstr(svg, ">NVTX t0</text>"));
	assert_non_null(strstr(svg, ">NVTX t1</text>"));
	assert_non_null(strstr(svg, ">NVTX t2</text>"));
	assert_null(strstr(svg, ">NVTX t3</text>"));
	assert_non_null(strstr(svg, ">H2D copy</text>"));
	assert_non_null(strstr(svg, ">kernel</text>"));
	assert_non_null(strstr(svg, "time (us)"));
	assert_non_null(strstr(svg, "makespan "));
	assert_non_null(strstr(svg, "&lt;xml&gt; &amp; &apos;apos&apos;")); /* a name in a tooltip, escaped */
	free(svg);
	t.modelled = true;
	svg = export_to_string(export_svg, &in, "t.svg", NULL);
	xml_check(svg, "svg");
	assert_non_null(strstr(svg, ">MODELLED</text>"));
	assert_non_null(strstr(svg, "class=\"info warn\">MODELLED: NVIDIA H200"));
	free(svg);
	/* stream kinds: a tag in the label, the whole title in its tooltip */
	timeline_set_stream(&t, 1, 14, SS_SKIND_NONBLOCKING);
	timeline_set_stream(&t, 2, 15, SS_SKIND_BLOCKING);
	svg = export_to_string(export_svg, &in, "t.svg", NULL);
	xml_check(svg, "svg");
	assert_non_null(strstr(svg, ">s1 nb<title>s1 non-blocking (id 14)</title></text>"));
	assert_non_null(strstr(svg, ">s2 blk<title>s2 blocking (id 15)</title></text>"));
	assert_non_null(strstr(svg, ">s3<title>s3</title></text>"));
	free(svg);
	timeline_free(&t);
}

static void add_kernel(struct ss_timeline *t, int stream, uint64_t start, uint64_t end)
{
	struct ss_record r = {.kind = SS_KIND_KERNEL, .stream = stream, .start = start, .end = end};

	timeline_add(t, &r);
}

/* Back-to-back intervals merge into one rectangle; intervals pixels apart do not; the window clips. */
static void test_svg_merge(void **state)
{
	struct ss_timeline t;
	struct ss_export_input in = {.t = &t};
	char *svg, fill[32];

	(void)state;
	timeline_init(&t);
	t.nstreams = 1;
	for (int i = 0; i < 10000; i++)
		add_kernel(&t, 0, (uint64_t)i * 100, (uint64_t)i * 100 + 90);
	svg = export_to_string(export_svg, &in, "t.svg", NULL);
	/* one merged rectangle + the legend swatch */
	assert_int_equal(count(svg, fill_of(SS_ROLE_KERNEL, fill)), 2);
	assert_non_null(strstr(svg, "10000 KER intervals"));
	free(svg);
	timeline_clear(&t);
	add_kernel(&t, 0, 0, 100);
	add_kernel(&t, 0, 1000000, 1000100);
	add_kernel(&t, 0, 2000000, 2000100);
	svg = export_to_string(export_svg, &in, "t.svg", NULL);
	assert_int_equal(count(svg, fill_of(SS_ROLE_KERNEL, fill)), 4);
	free(svg);
	in.t0 = 900000;
	in.t1 = 1100000;
	svg = export_to_string(export_svg, &in, "t.svg", NULL);
	assert_int_equal(count(svg, fill_of(SS_ROLE_KERNEL, fill)), 2);
	assert_non_null(strstr(svg, "window 900 us .. 1.100 ms"));
	xml_check(svg, "svg");
	free(svg);
	timeline_free(&t);
}

/* A million intervals make a picture of bounded size. */
static void test_svg_million(void **state)
{
	struct ss_timeline t;
	struct ss_export_input in = {.t = &t};
	size_t len = 0;
	char *svg;

	(void)state;
	timeline_init(&t);
	fx_timeline(&t, 1000000, 8);
	svg = export_to_string(export_svg, &in, "t.svg", &len);
	xml_check(svg, "svg");
	print_message("1M intervals: SVG of %zu bytes, %d rectangles\n", len, count(svg, "<rect"));
	assert_true(len < 2 * 1024 * 1024);
	free(svg);
	timeline_free(&t);
}

static void test_text(void **state)
{
	struct ss_timeline t;
	struct ss_analysis a;
	struct ss_export_input in = {.t = &t, .screen_text = "the screen\nsecond line"};
	char *text;

	(void)state;
	timeline_init(&t);
	fx_timeline(&t, 400, 4);
	text = export_to_string(export_text, &in, "t.txt", NULL);
	assert_non_null(strstr(text, "measured: CUDA+CUPTI on NVIDIA H200"));
	assert_null(strstr(text, "MODELLED"));
	assert_non_null(strstr(text, "speedup      -"));
	assert_non_null(strstr(text, "bound        -"));
	assert_non_null(strstr(text, "makespan"));
	assert_non_null(strstr(text, "\ns3 "));
	assert_non_null(strstr(text, "\nlegacy "));
	assert_non_null(strstr(text, "  kind\n"));
	/* the fixture's two devices: a row each */
	assert_non_null(strstr(text, "\n0   "));
	assert_non_null(strstr(text, "GPU 0: NVIDIA H200\n"));
	assert_non_null(strstr(text, "GPU 1\n"));
	assert_non_null(strstr(text, "idle*: idle while another device was busy"));
	free(text);
	timeline_set_stream(&t, 1, 14, SS_SKIND_NONBLOCKING);
	text = export_to_string(export_text, &in, "t.txt", NULL);
	assert_non_null(strstr(text, "  non-blocking (id 14)\n"));
	assert_non_null(strstr(text, "screen\nthe screen\nsecond line\n"));
	free(text);
	analysis_timeline(&t, &a);
	a.have_speedup = true;
	a.speedup = 2.0;
	in.a = &a;
	in.label = "model run";
	t.modelled = true;
	text = export_to_string(export_text, &in, "t.txt", NULL);
	assert_non_null(strstr(text, "MODELLED, NOT MEASURED"));
	assert_non_null(strstr(text, "MODELLED: model run"));
	assert_non_null(strstr(text, "2.00x vs the same work serially on 1 stream"));
	free(text);
	/* streams counted from the records when nstreams was never set */
	t.nstreams = 0;
	in.a = NULL;
	text = export_to_string(export_text, &in, "t.txt", NULL);
	assert_non_null(strstr(text, "\ns3 "));
	free(text);
	timeline_free(&t);
}

/* What is said to be valid is what is accepted: every extension SS_EXPORT_EXTENSIONS lists names a format, in
 * either case, and every extension a format is chosen by is listed, in the help's list too. */
static void test_extensions_listed(void **state)
{
	static const char *const accepted[] = {".sqlite", ".db", ".sqlite3", ".json", ".csv", ".svg", ".txt"};
	const char *list = SS_EXPORT_EXTENSIONS, *help = SS_EXPORT_EXTENSIONS_HELP;
	int n = 0;

	(void)state;
	for (const char *p = list; *p != '\0';) {
		size_t k = strcspn(p, ",");
		char path[64], upper[64];

		snprintf(path, sizeof path, "dir.x/trace%.*s", (int)k, p);
		snprintf(upper, sizeof upper, "TRACE%.*s", (int)k, p);
		for (char *c = upper; *c != '\0'; c++)
			*c = (char)toupper((unsigned char)*c);
		if (export_format_of(path) < 0 || export_format_of(upper) < 0)
			fail_msg("'%.*s' is listed as valid but no format takes it", (int)k, p);
		n++;
		p += k;
		p += strspn(p, ", ");
	}
	assert_int_equal(n, (int)(sizeof accepted / sizeof accepted[0]));
	for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
		char path[64], item[16];

		snprintf(path, sizeof path, "trace%s", accepted[i]);
		assert_true(export_format_of(path) >= 0);
		snprintf(item, sizeof item, "%s,", accepted[i]);
		if (strstr(list, item) == NULL && strcmp(list + strlen(list) - strlen(accepted[i]), accepted[i]) != 0)
			fail_msg("'%s' is accepted but not in \"%s\"", accepted[i], list);
		if (strstr(help, accepted[i]) == NULL)
			fail_msg("'%s' is accepted but not in the help's \"%s\"", accepted[i], help);
	}
	assert_int_equal(export_format_of("trace.xml"), -1);
	assert_int_equal(export_format_of("trace"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_extensions_listed), cmocka_unit_test(test_csv),
	    cmocka_unit_test(test_svg_content),       cmocka_unit_test(test_svg_merge),
	    cmocka_unit_test(test_svg_million),       cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
