/* test_json_out.c: the JSON writer over yajl_gen: the exact text of a compact document (breaks after separators),
 * numbers as jansson writes them and with fixed decimals, null for what JSON cannot hold, strings made valid UTF-8
 * byte by byte as escape_json did, misuse and write errors reported by json_out_finish, pretty documents, and
 * everything read back by yajl_tree (json_tree.h). */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/export/json_out.h"
#include "json_tree.h"

/* finish_text ends the in-memory document o and returns a copy of its text (the caller frees it). */
static char *finish_text(struct json_out *o)
{
	char *cause = NULL, *text;
	size_t len;

	if (json_out_finish(o, &cause) != 0)
		fail_msg("%s", cause);
	text = strdup(json_out_text(o, &len));
	assert_int_equal(strlen(text), len);
	json_out_free(o);
	return text;
}

/* The text of a compact document, to the byte: members, nesting, breaks (one element a line), every value type. */
static void test_compact_text(void **state)
{
	struct json_out *o = json_out_new(NULL, false);
	char *text, err[256];
	yajl_val root;

	(void)state;
	json_out_map_begin(o);
	json_out_key_str(o, "s", "a\"b\\c/");
	json_out_key_int(o, "i", -42);
	json_out_key_uint(o, "u", UINT64_MAX);
	json_out_key_decimal(o, "us", 1234567, 3);
	json_out_key_decimal(o, "us0", 7, 3);
	json_out_key_bool(o, "t", true);
	json_out_key_bool(o, "f", false);
	json_out_key_null(o, "n");
	json_out_key_str(o, "none", NULL);
	json_out_break(o);
	json_out_key(o, "a");
	json_out_array_begin(o);
	json_out_break(o);
	json_out_map_begin(o);
	json_out_key_int(o, "x", 1);
	json_out_map_end(o);
	json_out_break(o);
	json_out_map_begin(o);
	json_out_map_end(o);
	json_out_break(o);
	json_out_array_end(o);
	json_out_map_end(o);
	text = finish_text(o);
	assert_string_equal(text, "{\"s\":\"a\\\"b\\\\c/\",\"i\":-42,\"u\":18446744073709551615,\"us\":1234.567,"
	                          "\"us0\":0.007,\"t\":true,\"f\":false,\"n\":null,\"none\":null,\n"
	                          "\"a\":[\n{\"x\":1},\n{}\n]}\n");
	root = json_tree_parse(text, err, sizeof err);
	if (root == NULL)
		fail_msg("yajl_tree: %s", err);
	assert_string_equal(json_tree_str(json_tree_get(root, "s")), "a\"b\\c/");
	assert_int_equal(json_tree_int(json_tree_get(root, "i")), -42);
	assert_true(json_tree_is_real(json_tree_get(root, "us")));
	assert_true(json_tree_is_true(json_tree_get(root, "t")));
	assert_true(json_tree_is_false(json_tree_get(root, "f")));
	assert_true(json_tree_is_null(json_tree_get(root, "none")));
	assert_int_equal(json_tree_len(json_tree_get(root, "a")), 2);
	assert_int_equal(json_tree_int(json_tree_get(json_tree_at(json_tree_get(root, "a"), 0), "x")), 1);
	json_tree_free(root);
	free(text);
}

/* number writes one value alone and returns its text without the newline (the caller frees it). */
static char *number(double v, int digits, bool fixed)
{
	struct json_out *o = json_out_new(NULL, false);
	char *text;

	json_out_array_begin(o);
	if (fixed)
		json_out_fixed(o, v, digits);
	else
		json_out_double(o, v, digits);
	json_out_array_end(o);
	text = finish_text(o);
	assert_int_equal(text[0], '[');
	memmove(text, text + 1, strlen(text));
	assert_string_equal(text + strlen(text) - 2, "]\n");
	text[strlen(text) - 2] = '\0';
	return text;
}

/* Doubles as jansson 2.14 printed them (JSON_REAL_PRECISION 0, 6, 10, 3; checked against it), fixed decimals as
 * printf's %.Nf, and null for NaN and the infinities. */
static void test_numbers(void **state)
{
	static const struct {
		double v;
		int digits;
		bool fixed;
		const char *want;
	} cases[] = {
	    {1.0, 0, false, "1.0"},
	    {0.1, 0, false, "0.10000000000000001"},
	    {1e20, 0, false, "1e20"},
	    {1.5e-7, 0, false, "1.4999999999999999e-7"},
	    {-0.0, 0, false, "-0.0"},
	    {123456789012.0, 0, false, "123456789012.0"},
	    {5e-324, 0, false, "4.9406564584124654e-324"},
	    {1.7976931348623157e308, 0, false, "1.7976931348623157e308"},
	    {0.000123, 0, false, "0.00012300000000000001"},
	    {3.14159265358979, 6, false, "3.14159"},
	    {123456789012.0, 6, false, "1.23457e11"},
	    {1.5e-7, 6, false, "1.5e-7"},
	    {100.0, 6, false, "100.0"},
	    {3.14159265358979, 10, false, "3.141592654"},
	    {123456789012.0, 10, false, "1.23456789e11"},
	    {1.7976931348623157e308, 3, false, "1.8e308"},
	    {1.0 / 3.0, 3, true, "0.333"},
	    {2.0005, 4, true, "2.0005"},
	    {1e6, 3, true, "1000000.000"},
	    {-1.5, 0, true, "-2"},
	    {NAN, 0, false, "null"},
	    {INFINITY, 6, false, "null"},
	    {-INFINITY, 3, true, "null"},
	    {NAN, 3, true, "null"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = number(cases[i].v, cases[i].digits, cases[i].fixed);

		if (strcmp(got, cases[i].want) != 0)
			fail_msg("case %zu: %s, want %s", i, got, cases[i].want);
		free(got);
	}
}

/* Strings that are not UTF-8 become valid, each byte that starts no sequence one U+FFFD (overlong forms,
 * surrogates, past U+10FFFF, cut sequences at the very end of a counted string too); control characters are escaped,
 * C1 controls as well (\u0080..\u009F); yajl_tree, which checks UTF-8, reads them back. */
static void test_strings(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
	    {"bad \xff\xfe utf8 \x01 \"q\" \\ \xe2\x82",
	     "bad \xef\xbf\xbd\xef\xbf\xbd utf8 \x01 \"q\" \\ \xef\xbf\xbd\xef\xbf\xbd"},
	    {"ok \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n\t\r\b\f\x1f\x7f",
	     "ok \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n\t\r\b\f\x1f\x7f"},
	    {"\xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
	                                               "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf"
	                                               "\xbd"},
	    {"a\xf0\x9f\x98", "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
	    {"\xc3", "\xef\xbf\xbd"},
	    /* C1 controls (U+0080..U+009F): kept, written as \u escapes (checked below), beside the invalid bytes */
	    {"csi \xc2\x9b[2J \xc2\x80\xc2\x9f \xc2\xa0 \xe0\xc2\x85",
	     "csi \xc2\x9b[2J \xc2\x80\xc2\x9f \xc2\xa0 \xef\xbf\xbd\xc2\x85"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct json_out *o = json_out_new(NULL, false);
		size_t n = strlen(cases[i].in);
		char *text, err[256], *in = malloc(n);
		yajl_val root;

		memcpy(in, cases[i].in, n); /* no NUL after it: a counted string is read no further */
		json_out_array_begin(o);
		json_out_strn(o, in, n);
		json_out_array_end(o);
		free(in);
		text = finish_text(o);
		for (const char *c = text; *c != '\0'; c++)
			if (((unsigned char)*c < 0x20 && *c != '\n') ||
			    ((unsigned char)c[0] == 0xc2 && (unsigned char)c[1] >= 0x80 && (unsigned char)c[1] <= 0x9f))
				fail_msg("case %zu: a raw control character in %s", i, text);
		if (strstr(cases[i].in, "csi") != NULL &&
		    strstr(text, "csi \\u009B[2J \\u0080\\u009F \xc2\xa0 ") == NULL)
			fail_msg("case %zu: C1 controls not escaped in %s", i, text);
		root = json_tree_parse(text, err, sizeof err);
		if (root == NULL)
			fail_msg("case %zu: yajl_tree: %s in %s", i, err, text);
		assert_string_equal(json_tree_str(json_tree_at(root, 0)), cases[i].want);
		json_tree_free(root);
		free(text);
	}
}

/* Misuse is reported once, by json_out_finish, as one line. */
static void test_misuse(void **state)
{
	struct json_out *o;
	char *cause = NULL;

	(void)state;
	o = json_out_new(NULL, false);
	json_out_map_begin(o);
	json_out_int(o, 1); /* a value where a key belongs */
	json_out_map_end(o);
	assert_int_equal(json_out_finish(o, &cause), -1);
	assert_string_equal(cause, "JSON output: a value where a key belongs");
	free(cause);
	json_out_free(o);
	o = json_out_new(NULL, false);
	json_out_array_begin(o);
	assert_int_equal(json_out_finish(o, &cause), -1);
	assert_string_equal(cause, "JSON output: a container left open");
	free(cause);
	json_out_free(o);
	o = json_out_new(NULL, false);
	assert_int_equal(json_out_finish(o, &cause), -1);
	assert_string_equal(cause, "JSON output: no value written");
	free(cause);
	json_out_free(o);
	o = json_out_new(NULL, false);
	json_out_null(o);
	json_out_null(o); /* a second top-level value */
	assert_int_equal(json_out_finish(o, &cause), -1);
	assert_string_equal(cause, "JSON output: a value after the end of the document");
	free(cause);
	json_out_free(o);
}

/* A FILE that refuses writes: the error comes back from json_out_finish. */
static void test_write_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	struct json_out *o;
	char *cause = NULL;

	(void)state;
	if (f == NULL)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	o = json_out_new(f, false);
	json_out_array_begin(o);
	for (int i = 0; i < 100000; i++)
		json_out_str(o, "a string long enough to fill the buffer more than once");
	json_out_array_end(o);
	assert_int_equal(json_out_finish(o, &cause), -1);
	assert_non_null(strstr(cause, "No space left on device"));
	free(cause);
	json_out_free(o);
	fclose(f);
}

/* A FILE gets the same bytes as memory, past the 64 KiB buffer and with a string longer than it. */
static void test_file(void **state)
{
	struct json_out *m = json_out_new(NULL, false), *o;
	char *want, *got, *big = malloc(200000), *cause = NULL;
	size_t len;
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	memset(big, 'x', 199999);
	big[199999] = '\0';
	o = json_out_new(f, false);
	for (int k = 0; k < 2; k++) {
		struct json_out *w = k == 0 ? m : o;

		json_out_array_begin(w);
		for (int i = 0; i < 20000; i++) {
			json_out_break(w);
			json_out_uint(w, (uint64_t)i * 7919);
		}
		json_out_str(w, big);
		json_out_array_end(w);
	}
	assert_null(json_out_text(o, &len));
	want = finish_text(m);
	assert_int_equal(json_out_finish(o, &cause), 0);
	json_out_free(o);
	len = (size_t)ftell(f);
	assert_int_equal(len, strlen(want));
	got = malloc(len + 1);
	rewind(f);
	assert_int_equal(fread(got, 1, len, f), len);
	got[len] = '\0';
	assert_string_equal(got, want);
	fclose(f);
	free(got);
	free(want);
	free(big);
}

/* A pretty document: a member a line, indented, read back the same. */
static void test_pretty(void **state)
{
	struct json_out *o = json_out_new(NULL, true);
	char *text, err[256];
	yajl_val root;

	(void)state;
	json_out_map_begin(o);
	json_out_key_str(o, "backend", "model");
	json_out_break(o); /* nothing: the beautifier has its own lines */
	json_out_key(o, "runs");
	json_out_array_begin(o);
	json_out_map_begin(o);
	json_out_key_double(o, "overlap", 0.25, 6);
	json_out_map_end(o);
	json_out_array_end(o);
	json_out_map_end(o);
	text = finish_text(o);
	assert_non_null(strstr(text, "{\n  \"backend\": \"model\",\n  \"runs\": [\n"));
	assert_non_null(strstr(text, "\"overlap\": 0.25\n"));
	assert_int_equal(text[strlen(text) - 1], '\n');
	assert_int_not_equal(text[strlen(text) - 2], '\n');
	root = json_tree_parse(text, err, sizeof err);
	assert_non_null(root);
	assert_true(json_tree_num(json_tree_get(json_tree_at(json_tree_get(root, "runs"), 0), "overlap")) == 0.25);
	json_tree_free(root);
	free(text);
}

/* json_out_embed copies a finished document into another as a value, in the other's style; text that is not one
 * JSON value is refused. */
static void test_embed(void **state)
{
	struct json_out *part = json_out_new(NULL, false), *o = json_out_new(NULL, true);
	const char *text;
	char *out, *cause = NULL;
	size_t len;

	(void)state;
	json_out_array_begin(part);
	json_out_str(part, "a\xff");
	json_out_double(part, 0.1, 0);
	json_out_map_begin(part);
	json_out_key_null(part, "k");
	json_out_map_end(part);
	json_out_array_end(part);
	assert_int_equal(json_out_finish(part, &cause), 0);
	text = json_out_text(part, &len);
	assert_string_equal(text, "[\"a\xef\xbf\xbd\",0.10000000000000001,{\"k\":null}]\n");
	json_out_map_begin(o);
	json_out_key(o, "runs");
	assert_int_equal(json_out_embed(o, text, len), 0);
	json_out_map_end(o);
	out = finish_text(o);
	assert_string_equal(out, "{\n  \"runs\": [\n    \"a\xef\xbf\xbd\",\n    0.10000000000000001,\n    {\n      "
	                         "\"k\": null\n    }\n  ]\n}\n");
	free(out);
	o = json_out_new(NULL, false);
	assert_int_equal(json_out_embed(o, "[1,", 3), -1);
	json_out_free(o);
	json_out_free(part);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_compact_text), cmocka_unit_test(test_numbers),     cmocka_unit_test(test_strings),
	    cmocka_unit_test(test_misuse),       cmocka_unit_test(test_write_error), cmocka_unit_test(test_file),
	    cmocka_unit_test(test_pretty),       cmocka_unit_test(test_embed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
