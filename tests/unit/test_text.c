/* test_text.c: core/text, the one rule for showing trace text on a terminal: the strict UTF-8 reader (valid
 * sequences whole; stray continuation bytes, overlong forms, surrogates, values past U+10FFFF and cut sequences one
 * byte at a time as TEXT_INVALID), text_printable ('?' for C0, DEL, C1 and TEXT_INVALID), text_fputs (the CLI's
 * text) and the TUI's grid_puts, which shows the same '?' in its cells. */
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
#include "tui/grid.h"

/* puts_str returns what text_fputs writes for s (the caller frees it). */
static char *puts_str(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	text_fputs(s, f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* expect_puts checks that text_fputs writes want for s. */
static void expect_puts(const char *s, const char *want)
{
	char *got = puts_str(s);

	assert_string_equal(got, want);
	free(got);
}

static void test_utf8_next(void **state)
{
	const char *s;

	(void)state;
	s = "a\xc3\xbc\xe6\xa0\xb8\xf0\x9f\x9a\x80";
	assert_int_equal(text_utf8_next(&s), 'a');
	assert_int_equal(text_utf8_next(&s), 0xfc);
	assert_int_equal(text_utf8_next(&s), 0x6838);
	assert_int_equal(text_utf8_next(&s), 0x1f680);
	assert_int_equal(text_utf8_next(&s), 0);
	assert_int_equal(text_utf8_next(&s), 0); /* stays at the NUL */
	/* a raw C1 byte, overlong ESC, a surrogate, past U+10FFFF, 0xff: each byte on its own */
	s = "\x9b\xc0\x9b\xed\xa0\x80\xf4\x90\x80\x80\xff";
	for (int i = 0; i < 11; i++)
		assert_int_equal(text_utf8_next(&s), TEXT_INVALID);
	assert_int_equal(text_utf8_next(&s), 0);
	/* cut short by a NUL or an ASCII byte: the lead byte alone, never past the NUL */
	s = "\xe6\xa0";
	assert_int_equal(text_utf8_next(&s), TEXT_INVALID);
	assert_int_equal(text_utf8_next(&s), TEXT_INVALID);
	assert_int_equal(text_utf8_next(&s), 0);
	s = "\xc3Z";
	assert_int_equal(text_utf8_next(&s), TEXT_INVALID);
	assert_int_equal(text_utf8_next(&s), 'Z');
}

static void test_printable(void **state)
{
	(void)state;
	for (uint32_t c = 0; c < 0x20; c++)
		assert_int_equal(text_printable(c), '?');
	assert_int_equal(text_printable(0x7f), '?');
	for (uint32_t c = 0x80; c < 0xa0; c++)
		assert_int_equal(text_printable(c), '?');
	assert_int_equal(text_printable(TEXT_INVALID), '?');
	assert_int_equal(text_printable(' '), ' ');
	assert_int_equal(text_printable('~'), '~');
	assert_int_equal(text_printable(0xa0), 0xa0);
	assert_int_equal(text_printable(0xfffd), 0xfffd);
	assert_int_equal(text_printable(0x1f680), 0x1f680);
}

static void test_fputs(void **state)
{
	(void)state;
	expect_puts("\x1b[2J\x1b[31mEVIL\x07", "?[2J?[31mEVIL?");
	expect_puts("tab\there\nnl\r\x7f", "tab?here?nl??");
	expect_puts("csi\x9b"
	            "2J",
	            "csi?2J"); /* a raw C1 byte: not UTF-8 */
	expect_puts("csi\xc2\x9b"
	            "2J nel\xc2\x85",
	            "csi?2J nel?"); /* C1 as UTF-8: one '?' a code point */
	expect_puts("Gr\xc3\xbc\xc3\x9f"
	            "e \xe6\xa0\xb8 \xf0\x9f\x9a\x80",
	            "Gr\xc3\xbc\xc3\x9f"
	            "e \xe6\xa0\xb8 \xf0\x9f\x9a\x80"); /* valid UTF-8 as it is */
	expect_puts("bad\xff\xc0\x9b", "bad???");
	expect_puts("", "");
	{
		char *got = puts_str(NULL);

		assert_string_equal(got, "");
		free(got);
	}
}

/* The TUI's cells show the same '?' for each control (they were dropped before core/text), one cell a code point. */
static void test_grid(void **state)
{
	struct ss_grid g;
	const char *name = "\x1b[2J\x1b[31mEVIL\x07";
	const char *want = "?[2J?[31mEVIL?";

	(void)state;
	grid_init(&g, 20, 1);
	assert_int_equal(grid_puts(&g, 0, 0, -1, name, 0, 0), (int)strlen(want));
	assert_int_equal(grid_text_width(name), (int)strlen(want));
	for (size_t i = 0; i < strlen(want); i++)
		assert_int_equal(grid_at(&g, (int)i, 0)->ch, (uint32_t)want[i]);
	assert_int_equal(grid_at(&g, (int)strlen(want), 0)->ch, ' ');
	grid_clear(&g);
	assert_int_equal(grid_puts(&g, 0, 0, -1, "a\xc2\x9b\xff", 0, 0), 3);
	assert_int_equal(grid_at(&g, 1, 0)->ch, '?');
	assert_int_equal(grid_at(&g, 2, 0)->ch, '?');
	grid_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_utf8_next),
	    cmocka_unit_test(test_printable),
	    cmocka_unit_test(test_fputs),
	    cmocka_unit_test(test_grid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
