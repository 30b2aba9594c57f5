/* escape.h: writing arbitrary bytes (kernel names, file names) safely into XML and CSV (JSON: json_out.h). */
#ifndef SS_IO_EXPORT_ESCAPE_H
#define SS_IO_EXPORT_ESCAPE_H

#include <stdio.h>

/* escape_xml writes s as XML character data or attribute text: & < > " ' as entities, characters XML 1.0
 * forbids dropped, invalid UTF-8 replaced by U+FFFD. */
void escape_xml(FILE *f, const char *s);
/* escape_csv writes s as one RFC 4180 field: quoted (quotes doubled) when it holds a comma, quote, CR or LF. */
void escape_csv(FILE *f, const char *s);
/* escape_utf8_len returns the length of the valid UTF-8 sequence at s (1..4; a NUL is one byte), with its code point
 * in *cp, or 0 when s does not start one (*cp untouched). It is text_utf8_next's rule (core/text.h: no overlong
 * forms, surrogates or values past U+10FFFF), and reads no further than the first byte that does not continue the
 * sequence (a NUL ends it). */
int escape_utf8_len(const unsigned char *s, unsigned *cp);

#endif
