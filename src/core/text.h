/* text.h: text read from traces (kernel, NVTX, device and stream names...) made safe to show on a terminal: one
 * rule for the TUI's cells and the CLI's text output, so that a name can neither move the cursor, clear or recolour
 * the screen, nor ring the bell. */
#ifndef SS_CORE_TEXT_H
#define SS_CORE_TEXT_H

#include <stdint.h>
#include <stdio.h>

/* What text_utf8_next gives for a byte that starts no valid UTF-8 sequence: not a code point (past U+10FFFF). */
#define TEXT_INVALID 0x110000u

/* text_utf8_next reads one code point of UTF-8 from *s and advances *s past it. A byte that does not start a
 * valid sequence (a stray continuation byte such as a raw C1 0x9b, an overlong form, a surrogate, a value past
 * U+10FFFF, a sequence cut short) is TEXT_INVALID and advances *s by that one byte. At the terminating NUL it
 * returns 0 and leaves *s there. Never reads past a NUL. */
uint32_t text_utf8_next(const char **s);
/* text_printable is c when a terminal may be sent it as text, else '?': C0 controls (U+0000..U+001F, tab and
 * newline included), DEL, C1 controls (U+0080..U+009F) and TEXT_INVALID become '?'. */
uint32_t text_printable(uint32_t c);
/* text_fputs writes s (NULL: nothing) to f as text_printable shows it: valid UTF-8 of printable code points as it
 * is, each control character and each byte that is not valid UTF-8 as one '?'. What it writes is valid UTF-8
 * with no byte in 0x00..0x1f, 0x7f, and none in 0x80..0x9f outside a multi-byte sequence. */
void text_fputs(const char *s, FILE *f);

#endif
