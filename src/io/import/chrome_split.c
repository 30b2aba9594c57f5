/* chrome_split.c: candidate cut points in a Chrome trace's events array: a newline, blanks, '{', with a ',' as
 * the last thing before the newline. Only a candidate: the parsers on both sides say whether it held. */
#include "io/import/chrome_split.h"

#include <string.h>

static int chrome_split_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

size_t chrome_split_next(const char *buf, size_t len, size_t from, size_t limit)
{
	size_t q = from;

	if (limit > len)
		limit = len;
	while (q < limit) {
		const char *nl = memchr(buf + q, '\n', limit - q);
		size_t at, b, c;

		if (nl == NULL)
			break;
		at = (size_t)(nl - buf);
		b = at + 1;
		while (b < len && (buf[b] == ' ' || buf[b] == '\t' || buf[b] == '\r'))
			b++;
		if (b < len && buf[b] == '{') {
			c = at;
			while (c > 0 && chrome_split_blank(buf[c - 1]))
				c--;
			if (c > 0 && buf[c - 1] == ',')
				return b;
		}
		q = at + 1;
	}
	return len;
}
