/* json_out.h: JSON written through yajl's generator, value after value (no tree), to a FILE or into memory. */
#ifndef SS_IO_EXPORT_JSON_OUT_H
#define SS_IO_EXPORT_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A document being written. What it writes is always valid JSON: strings are made valid UTF-8 (each byte that does not
 * start a valid sequence becomes U+FFFD; control characters (C1 among them), quotes and backslashes are escaped),
 * non-finite doubles become null, numbers are formatted here whatever the locale. Misuse (a value where a key belongs,
 * an unclosed container) and write errors are kept and reported once, by json_out_finish. */
struct json_out;

/* json_out_new starts a document written to f (not closed here), or kept in memory when f is NULL
 * (json_out_text). pretty: indented by two spaces, a member a line (yajl's beautifier), else compact. */
struct json_out *json_out_new(FILE *f, bool pretty);
/* json_out_free releases o (whatever state it is in); NULL is fine. */
void json_out_free(struct json_out *o);
/* json_out_finish ends the document: it checks that one whole value was written, ends it with a newline and hands
 * what is buffered to the FILE (not flushed: the caller closes it). 0, or -1 with *cause (one line: the first misuse
 * or write error). o is still to be freed. */
int json_out_finish(struct json_out *o, char **cause);
/* json_out_text returns what an in-memory document holds so far (NUL-terminated), *len bytes; NULL for a FILE. */
const char *json_out_text(struct json_out *o, size_t *len);

/* Containers. A map's members are a json_out_key (or a json_out_key_* shorthand) then a value. */
void json_out_map_begin(struct json_out *o);
void json_out_map_end(struct json_out *o);
void json_out_array_begin(struct json_out *o);
void json_out_array_end(struct json_out *o);
/* json_out_keyn writes the n bytes at key as a map key; the next call writes its value. */
void json_out_keyn(struct json_out *o, const char *key, size_t n);
/* json_out_break puts a newline after the next separator (or before the next token when none comes): one event a
 * line in a compact document, so that readers can cut it at lines. Nothing in a pretty one. */
void json_out_break(struct json_out *o);

/* Values. */
/* json_out_strn writes the n bytes at s as a string (a NUL among them is \u0000). */
void json_out_strn(struct json_out *o, const char *s, size_t n);
void json_out_int(struct json_out *o, int64_t v);
void json_out_uint(struct json_out *o, uint64_t v);
/* json_out_decimal writes units / 10^decimals exactly, with that many decimals (12345, 3 -> 12.345; decimals 0..19):
 * nanoseconds as microseconds, without a double's rounding. */
void json_out_decimal(struct json_out *o, uint64_t units, unsigned decimals);
/* json_out_double writes v as jansson writes a real: "%.<digits>g" (digits 0: 17, enough to read back the same
 * double), ".0" added when that reads as an integer, the exponent without '+' or leading zeros. Not finite: null. */
void json_out_double(struct json_out *o, double v, int digits);
/* json_out_fixed writes v as "%.<decimals>f" (decimals 0..30). Not finite: null. */
void json_out_fixed(struct json_out *o, double v, int decimals);
void json_out_bool(struct json_out *o, bool v);
void json_out_null(struct json_out *o);

/* A key, or a string, given as a C string, and a key and its value in one call: inline, so that a literal's length
 * is known where it is written (the Chrome export writes some 25 keys an event). */
static inline void json_out_key(struct json_out *o, const char *key)
{
	json_out_keyn(o, key, strlen(key));
}

/* json_out_str writes the C string s (NULL: null). */
static inline void json_out_str(struct json_out *o, const char *s)
{
	if (s == NULL)
		json_out_null(o);
	else
		json_out_strn(o, s, strlen(s));
}

static inline void json_out_key_str(struct json_out *o, const char *key, const char *s)
{
	json_out_key(o, key);
	json_out_str(o, s);
}

static inline void json_out_key_int(struct json_out *o, const char *key, int64_t v)
{
	json_out_key(o, key);
	json_out_int(o, v);
}

static inline void json_out_key_uint(struct json_out *o, const char *key, uint64_t v)
{
	json_out_key(o, key);
	json_out_uint(o, v);
}

static inline void json_out_key_decimal(struct json_out *o, const char *key, uint64_t units, unsigned decimals)
{
	json_out_key(o, key);
	json_out_decimal(o, units, decimals);
}

static inline void json_out_key_double(struct json_out *o, const char *key, double v, int digits)
{
	json_out_key(o, key);
	json_out_double(o, v, digits);
}

static inline void json_out_key_fixed(struct json_out *o, const char *key, double v, int decimals)
{
	json_out_key(o, key);
	json_out_fixed(o, v, decimals);
}

static inline void json_out_key_bool(struct json_out *o, const char *key, bool v)
{
	json_out_key(o, key);
	json_out_bool(o, v);
}

static inline void json_out_key_null(struct json_out *o, const char *key)
{
	json_out_key(o, key);
	json_out_null(o);
}

/* json_out_embed writes the JSON value text (len bytes, e.g. an in-memory document's json_out_text) as the next
 * value of o, re-indented to o's style. -1 when text is not one JSON value (what was written of it stays). */
int json_out_embed(struct json_out *o, const char *text, size_t len);

#endif
