/* chrome_split.h: where the events array of a big Chrome trace may be cut, so that slices of it are parsed on
 * several threads. */
#ifndef SS_IO_IMPORT_CHROME_SPLIT_H
#define SS_IO_IMPORT_CHROME_SPLIT_H

#include <stddef.h>

/* chrome_split_next returns the first offset at or after from, on a line that starts at an offset below limit,
 * where an object starts a line of its own ('{' after only blanks) and the line before ends with ',' (then only
 * blanks): where, in a file written one event per line, the next event begins. len when there is none. A raw
 * newline cannot be inside a JSON string, so a parser that read up to such an offset without error is between
 * tokens there; chrome_parse checks the rest (that the ',' was between two events of the array). */
size_t chrome_split_next(const char *buf, size_t len, size_t from, size_t limit);

#endif
