/* escape.c: XML and CSV escaping, and the UTF-8 check they and json_out share. */
#include "io/export/escape.h"

#include <stdint.h>
#include <string.h>

int escape_utf8_len(const unsigned char *s, unsigned *cp)
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
	/* overlong forms, surrogates and values past U+10FFFF are not UTF-8 */
	if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10ffff)) || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

void escape_xml(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned cp;
	int n;

	if (s == NULL)
		return;
	while (*s != '\0') {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			s++;
			continue;
		case '<':
			fputs("&lt;", f);
			s++;
			continue;
		case '>':
			fputs("&gt;", f);
			s++;
			continue;
		case '"':
			fputs("&quot;", f);
			s++;
			continue;
		case '\'':
			fputs("&apos;", f);
			s++;
			continue;
		default:
			break;
		}
		if (*s < 0x20) {
			if (*s == '\t' || *s == '\n' || *s == '\r')
				fputc(*s, f);
			s++;
		} else if ((n = escape_utf8_len(s, &cp)) > 0) {
			if (cp == 0xfffe || cp == 0xffff)
				fputs("\xef\xbf\xbd", f);
			else
				fwrite(s, 1, (size_t)n, f);
			s += n;
		} else {
			fputs("\xef\xbf\xbd", f);
			s++;
		}
	}
}

void escape_csv(FILE *f, const char *s)
{
	if (s == NULL)
		return;
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
