/* escape.c: XML and CSV escaping, and the UTF-8 check they and json_out share (core/text.h's reader). */
#include "io/export/escape.h"

#include <stdint.h>
#include <string.h>

#include "core/text.h"

int escape_utf8_len(const unsigned char *s, unsigned *cp)
{
	const char *p = (const char *)s;
	uint32_t c;

	if (s[0] == '\0') { /* a one-byte sequence here; the end of the string to text_utf8_next */
		*cp = 0;
		return 1;
	}
	c = text_utf8_next(&p);
	if (c == TEXT_INVALID)
		return 0;
	*cp = c;
	return (int)(p - (const char *)s);
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
