/* test_import_oneline.c: an importer's message is one printable line by the project's one rule (core/text.h): each
 * control character (C0, DEL, C1 raw or UTF-8 encoded) and each byte that is not valid UTF-8 becomes one '?', valid
 * UTF-8 stays. importer_oneline turned only 0x00..0x1f and DEL into spaces, so a file name holding a raw C1 CSI
 * (0x9b), which some terminals obey as ESC [, or broken UTF-8 reached the terminal in "streamscope: FILE: ...". */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "io/import/import.h"
#include "io/import/importer.h"
#include "io_fixture.h"

/* printable fails unless s is valid UTF-8 of characters text_printable keeps, on one line. */
static void printable(const char *s)
{
	const char *p = s;
	uint32_t c;

	while ((c = text_utf8_next(&p)) != 0)
		if (text_printable(c) != c)
			fail_msg("\"%s\": U+%04X at byte %td is not printable", s, (unsigned)c, p - s);
}

/* oneline runs importer_oneline on a copy of in and checks the result is want. */
static void oneline(const char *in, const char *want)
{
	char *s = strdup(in);

	assert_int_equal(importer_oneline(s), -1);
	assert_string_equal(s, want);
	printable(s);
	free(s);
}

/* Each kind of stray byte, alone and among valid text. */
static void test_oneline_rule(void **state)
{
	(void)state;
	oneline("", "");
	oneline("plain ASCII: 1 < 2 & \"quotes\"", "plain ASCII: 1 < 2 & \"quotes\"");
	/* C0 (a newline, a tab, ESC) and DEL */
	oneline("a\nb\tc\rd\x1b[2Je\x7f", "a?b?c?d?[2Je?");
	/* C1: raw (0x9b, CSI) and UTF-8 encoded (U+009B, U+0085 NEL) */
	oneline("x\x9b"
	        "31my",
	        "x?31my");
	oneline("x\xc2\x9b"
	        "31m\xc2\x85y",
	        "x?31m?y");
	/* valid UTF-8 stays, up to 4 bytes: U+00A0 (the first past C1), euro sign, U+FFFD, a rocket */
	oneline("\xc2\xa0 \xe2\x82\xac \xef\xbf\xbd \xf0\x9f\x9a\x80",
	        "\xc2\xa0 \xe2\x82\xac \xef\xbf\xbd \xf0\x9f\x9a\x80");
	/* not UTF-8: stray bytes, an overlong '/', a surrogate, past U+10FFFF, a sequence cut short (at the end, and by
	 * a byte that does not continue it), each byte that starts no valid sequence one '?' */
	oneline("a\xff\xfe"
	        "b",
	        "a??b");
	oneline("\xc0\xaf", "??");
	oneline("\xed\xa0\x80", "???");
	oneline("\xf4\x90\x80\x80", "????");
	oneline("end\xe2\x82", "end??");
	oneline("\xe2\x82x", "??x");
	/* NULL is no cause: nothing to do, still -1 */
	assert_int_equal(importer_oneline(NULL), -1);
}

/* A file name with stray bytes, as import_file reports it: "?" for each, the rest of the line as it was. */
static void test_oneline_path(void **state)
{
	char *dir = fx_tmpdir(), path[512], want[600], *cause = NULL;
	struct ss_timeline t;

	(void)state;
	snprintf(path, sizeof path,
	         "%s/x\x1b[2J\x9b"
	         "1m\xc2\x85\xff\xe2\x82\xac.json",
	         dir);
	snprintf(want, sizeof want, "%s/x?[2J?1m??\xe2\x82\xac.json: No such file or directory", dir);
	timeline_init(&t);
	assert_int_equal(import_file(path, &t, &cause), -1);
	assert_string_equal(cause, want);
	printable(cause);
	free(cause);
	/* a file that is there, of no format streamscope reads */
	fx_write(path, "hello", 5);
	assert_int_equal(import_file(path, &t, &cause), -1);
	snprintf(
	    want, sizeof want,
	    "%s/x?[2J?1m??\xe2\x82\xac.json: unrecognised format (expected streamscope or Nsight Systems SQLite, or "
	    "Chrome trace JSON)",
	    dir);
	assert_string_equal(cause, want);
	free(cause);
	/* and a JSON trace's message */
	fx_write(path, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":-1}]}", 44);
	assert_int_equal(import_file(path, &t, &cause), -1);
	snprintf(want, sizeof want, "%s/x?[2J?1m??\xe2\x82\xac.json: event 1: negative duration", dir);
	if (strncmp(cause, want, strlen(want)) != 0)
		fail_msg("\"%s\" does not start \"%s\"", cause, want);
	printable(cause);
	free(cause);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_oneline_rule),
	    cmocka_unit_test(test_oneline_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
