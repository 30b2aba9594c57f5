/* test_names_cli.c: names read from a trace never drive the terminal: `stats FILE` and `analyze FILE` print a
 * kernel named "\x1b[2J\x1b[31mEVIL\x07" and a device named with an OSC title sequence and a C1 CSI (U+009B) with
 * every control as '?' (core/text's text_fputs), so no ESC, BEL or C1 byte reaches stdout, and the names stay
 * recognisable; --json keeps the exact names, every C0 and C1 control escaped by the JSON writer. */
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
#include <unistd.h>

#include "cli_run.h"

/* A streamscope trace: the hostile kernel on the legacy default stream, between stream 0's kernel and copy
 * (analyze's legacy-stream-sync quotes its name), a kernel named with a tab and a DEL and a copy on stream 0, and the
 * device name in otherData. (A raw 0x9b byte cannot come through JSON, which must be UTF-8: test_text holds text_fputs
 * to that.) */
static const char trace_json[] =
    "{\"traceEvents\":[\n"
    "{\"ph\":\"X\",\"name\":\"\\u001b[2J\\u001b[31mEVIL\\u0007\",\"ts\":15,\"dur\":5,\"pid\":1,\"tid\":1,"
    "\"args\":{\"ss_kind\":\"KER\",\"stream\":-2}},\n"
    "{\"ph\":\"X\",\"name\":\"tab\\there\\u007f\",\"ts\":10,\"dur\":5,\"pid\":1,\"tid\":2,"
    "\"args\":{\"ss_kind\":\"KER\",\"stream\":0}},\n"
    "{\"ph\":\"X\",\"name\":\"cp\",\"ts\":20,\"dur\":5,\"pid\":1,\"tid\":2,"
    "\"args\":{\"ss_kind\":\"H2D\",\"stream\":0,\"bytes\":4096}}\n"
    "],\n"
    "\"otherData\":{\"generator\":\"streamscope test\",\"device\":\"GPU\\u001b]0;pwned\\u0007\\u009b2J "
    "Gr\\u00fc\\u00dfe\",\"nstreams\":1}}\n";

/* write_trace writes trace_json to dir/evil.json into path. */
static void write_trace(const char *dir, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/evil.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(trace_json, 1, sizeof trace_json - 1, f), sizeof trace_json - 1);
	assert_int_equal(fclose(f), 0);
}

/* assert_terminal_safe fails when s holds a control byte other than newline (0x00..0x1f, 0x7f), a C1 byte 0x80..0x9f
 * outside a multi-byte UTF-8 sequence, or bytes that are not UTF-8. */
static void assert_terminal_safe(const char *what, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p != '\0') {
		int n = *p < 0x80                  ? 1
		        : *p >= 0xc2 && *p <= 0xdf ? 2
		        : *p >= 0xe0 && *p <= 0xef ? 3
		        : *p >= 0xf0 && *p <= 0xf4 ? 4
		                                   : 0;

		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			fail_msg("%s: control byte 0x%02x at offset %td of stdout", what, *p, (const char *)p - s);
		if (n == 0)
			fail_msg("%s: byte 0x%02x at offset %td starts no UTF-8 sequence", what, *p,
			         (const char *)p - s);
		for (int i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				fail_msg("%s: UTF-8 sequence cut short at offset %td", what, (const char *)p - s);
		/* U+0080..U+009F as UTF-8 (C2 80..C2 9F): a C1 control to a UTF-8 terminal */
		if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
			fail_msg("%s: C1 control U+00%02X at offset %td", what, p[1], (const char *)p - s);
		p += n;
	}
}

/* stats FILE: the kernel rows and the device line show the names with '?' for each control. */
static void test_stats(void **state)
{
	char dir[] = "/tmp/ss-cli-names-XXXXXX", path[160];
	struct out o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_trace(dir, path, sizeof path);
	run(&o, ARGS("stats", path));
	if (o.status != 0)
		fail_msg("stats exit %d: %s", o.status, o.err);
	assert_terminal_safe("stats", o.out);
	assert_non_null(strstr(o.out, "  ?[2J?[31mEVIL?\n"));
	assert_non_null(strstr(o.out, "  tab?here?\n"));
	assert_non_null(strstr(o.out, "device GPU?]0;pwned??2J Gr\xc3\xbc\xc3\x9f"
	                              "e\n")); /* UTF-8 kept */
	out_free(&o);
	/* --json: the JSON writer escapes the exact names, the device's C1 CSI too */
	run(&o, ARGS("stats", "--json", path));
	assert_int_equal(o.status, 0);
	assert_null(strchr(o.out, '\x1b'));
	assert_null(strstr(o.out, "\xc2\x9b"));
	assert_non_null(strstr(o.out, "\\u001B[2J\\u001B[31mEVIL\\u0007"));
	assert_non_null(strstr(o.out, "GPU\\u001B]0;pwned\\u0007\\u009B2J Gr\xc3\xbc\xc3\x9f"
	                              "e"));
	out_free(&o);
	unlink(path);
	rmdir(dir);
}

/* analyze FILE: legacy-stream-sync's summary quotes the kernel's name, and the device line is printed: no control
 * reaches stdout. */
static void test_analyze(void **state)
{
	char dir[] = "/tmp/ss-cli-names-XXXXXX", path[160];
	struct out o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_trace(dir, path, sizeof path);
	run(&o, ARGS("analyze", path));
	if (o.status != 0)
		fail_msg("analyze exit %d: %s", o.status, o.err);
	assert_terminal_safe("analyze", o.out);
	assert_non_null(strstr(o.out, "[problem] legacy-stream-sync: "));
	assert_non_null(strstr(o.out, "(first: KER ?[2J?[31mEVIL?)"));
	assert_non_null(strstr(o.out, "device GPU?]0;pwned??2J Gr\xc3\xbc\xc3\x9f"
	                              "e\n"));
	out_free(&o);
	run(&o, ARGS("analyze", "--json", path));
	assert_int_equal(o.status, 0);
	assert_null(strchr(o.out, '\x1b'));
	assert_non_null(strstr(o.out, "\\u001B[2J\\u001B[31mEVIL\\u0007"));
	out_free(&o);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stats),
	    cmocka_unit_test(test_analyze),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
