/* escape.h: writing arbitrary bytes (kernel names, file names) safely into JSON, XML and CSV. */
#ifndef SS_IO_EXPORT_ESCAPE_H
#define SS_IO_EXPORT_ESCAPE_H

#include <stdio.h>

/* escape_json writes s as the inside of a JSON string: quotes, backslashes and control characters escaped,
 * invalid UTF-8 replaced by U+FFFD (so every JSON parser accepts the output). */
void escape_json(FILE *f, const char *s);
/* escape_xml writes s as XML character data or attribute text: & < > " ' as entities, characters XML 1.0
 * forbids dropped, invalid UTF-8 replaced by U+FFFD. */
void escape_xml(FILE *f, const char *s);
/* escape_csv writes s as one RFC 4180 field: quoted (quotes doubled) when it holds a comma, quote, CR or LF. */
void escape_csv(FILE *f, const char *s);
/* escape_utf8_len returns the length of the valid UTF-8 sequence at s (1..4), 0 when s does not start one. */
int escape_utf8_len(const unsigned char *s, unsigned *cp);

#endif
