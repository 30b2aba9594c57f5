/* test_escape_utf8.c: escape_utf8_len (the XML, CSV and JSON writers' UTF-8 check) is core/text.h's reader,
 * text_utf8_next, rather than a second strict UTF-8 decoder of its own. It must answer exactly as that decoder did:
 * the same length and code point, or 0, for every 1-, 2- and 3-byte input and every 4-byte one of a valid lead,
 * with and without a NUL or a non-continuation byte cutting the sequence short; a NUL is a one-byte sequence; and
 * it reads no byte past the first that does not continue the sequence. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/text.h"
#include "io/export/escape.h"

/* ref_utf8_len is escape_utf8_len as it was before it used text_utf8_next: the reference the new one must match. */
static int ref_utf8_len(const unsigned char *s, unsigned *cp)
{
	unsigned c = s[0], v;
	int n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07;
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10ffff)) || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

/* same fails unless escape_utf8_len and the reference agree on the 5 bytes at s (NUL-padded by the caller). */
static void same(const unsigned char *s)
{
	unsigned a = 0xdeadbeef, b = 0xdeadbeef;
	int n = escape_utf8_len(s, &a), m = ref_utf8_len(s, &b);

	if (n != m || a != b)
		fail_msg("%02x %02x %02x %02x: %d U+%04X, was %d U+%04X", s[0], s[1], s[2], s[3], n, a, m, b);
}

/* Every input of up to 3 bytes (a shorter one ends in a NUL), and every 4-byte one of a 4-byte lead. */
static void test_same_answers(void **state)
{
	unsigned char s[5] = {0};
	/* the bytes that matter after a lead: NUL, ASCII, each continuation byte, each byte that is not one */
	static const unsigned char tail[] = {0x00, 0x41, 0x7f, 0xc0, 0xc2, 0xe0, 0xf0, 0xf5, 0xff};

	(void)state;
	for (unsigned a = 0; a < 256; a++)
		for (unsigned b = 0; b < 256; b++)
			for (unsigned c = 0; c < 256; c++) {
				s[0] = (unsigned char)a;
				s[1] = (unsigned char)b;
				s[2] = (unsigned char)c;
				s[3] = 0;
				same(s);
			}
	for (unsigned a = 0xf0; a <= 0xf7; a++)
		for (unsigned b = 0x80; b < 0xc0; b++)
			for (unsigned c = 0x80; c < 0xc0; c++) {
				s[0] = (unsigned char)a;
				s[1] = (unsigned char)b;
				s[2] = (unsigned char)c;
				for (unsigned d = 0x80; d < 0xc0; d++) {
					s[3] = (unsigned char)d;
					same(s);
				}
				for (size_t i = 0; i < sizeof tail; i++) {
					s[3] = tail[i];
					same(s);
				}
			}
}

/* A NUL is a one-byte sequence of code point 0 (text_utf8_next stops there instead); each valid length once. */
static void test_lengths(void **state)
{
	static const struct {
		const char *s;
		int n;
		unsigned cp;
	} cases[] = {{"", 1, 0},
	             {"A", 1, 'A'},
	             {"\x7f", 1, 0x7f},
	             {"\xc2\x85", 2, 0x85},
	             {"\xe2\x82\xac", 3, 0x20ac},
	             {"\xf0\x9f\x9a\x80", 4, 0x1f680},
	             {"\xf4\x8f\xbf\xbf", 4, 0x10ffff},
	             {"\x9b", 0, 0},
	             {"\xc0\xaf", 0, 0},
	             {"\xed\xa0\x80", 0, 0},
	             {"\xf4\x90\x80\x80", 0, 0},
	             {"\xe2\x82", 0, 0}};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned cp = 0x12345;
		int n = escape_utf8_len((const unsigned char *)cases[i].s, &cp);

		assert_int_equal(n, cases[i].n);
		assert_int_equal(cp, cases[i].n > 0 ? cases[i].cp : 0x12345); /* untouched when 0 */
	}
}

/* It reads no further than it must: a sequence cut short by the byte before an unreadable page is answered
 * without touching the page (a read there would fault). */
static void test_reads_no_further(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* each ends right before the page: complete, or cut short by a byte that does not continue it (a NUL too) */
	static const struct {
		const char *s;
		size_t len;
	} ends[] = {{"A", 1},        {"\xc2\x85", 2},     {"\xe2\x82\xac", 3}, {"\xf0\x9f\x9a\x80", 4},
	            {"\xe2\x41", 2}, {"\xf0\x9f\x00", 3}, {"\xf0\xc2", 2},     {"\xff", 1}};
	unsigned cp;

	(void)state;
	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + page, (size_t)page, PROT_NONE), 0);
	for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
		unsigned char *s = m + page - ends[i].len;

		memcpy(s, ends[i].s, ends[i].len);
		assert_int_equal(escape_utf8_len(s, &cp), ref_utf8_len(s, &cp));
	}
	munmap(m, (size_t)page * 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_answers),
	    cmocka_unit_test(test_lengths),
	    cmocka_unit_test(test_reads_no_further),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
