/* text.c: trace text made safe for a terminal (text.h): a strict UTF-8 reader and the one printable rule. */
#include "core/text.h"

uint32_t text_utf8_next(const char **sp)
{
	const unsigned char *s = (const unsigned char *)*sp;
	uint32_t c = s[0];
	int n;

	if (c == 0)
		return 0;
	if (c < 0x80) {
		*sp += 1;
		return c;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		c &= 0x07;
	} else {
		*sp += 1; /* a continuation byte (C1 0x80..0x9f among them), 0xc0/0xc1 (overlong) or past 0xf4 */
		return TEXT_INVALID;
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) { /* cut short (a NUL included): only the lead byte is taken */
			*sp += 1;
			return TEXT_INVALID;
		}
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and values past U+10FFFF are not UTF-8 */
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff)) {
		*sp += 1;
		return TEXT_INVALID;
	}
	*sp += n;
	return c;
}

uint32_t text_printable(uint32_t c)
{
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c >= TEXT_INVALID)
		return '?';
	return c;
}

void text_fputs(const char *s, FILE *f)
{
	const char *p;
	uint32_t c;

	if (s == NULL)
		return;
	for (p = s; (c = text_utf8_next(&s)) != 0; p = s) {
		if (text_printable(c) == c)
			fwrite(p, 1, (size_t)(s - p), f);
		else
			fputc('?', f);
	}
}
