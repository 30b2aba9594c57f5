/* json_out.c: a JSON writer over yajl_gen.
 *
 * yajl keeps the grammar (separators, keys before values, nesting) and escapes strings; it prints through
 * json_out_print into a buffer of ours, handed to the FILE in 64 KiB writes (or kept whole in memory). Printing
 * ourselves is what lets json_out_break put a newline after a separator, which yajl cannot do. What yajl does not do
 * is done before it sees the value: bytes that are not UTF-8 become U+FFFD (yajl_gen_validate_utf8 would only refuse
 * the string), numbers are formatted here (integers without printf; doubles as jansson writes them, in the "C"
 * notation whatever LC_NUMERIC says), and NaN and infinities, which JSON has no word for, become null. */
#include "io/export/json_out.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>

#include "core/xalloc.h"
#include "io/export/escape.h"

/* json_out's slow bits: json_out_break asked for a newline at the next print; the string being printed has C1
 * controls (U+0080..U+009F), which go out as \u escapes. */
#define JSON_OUT_BRK 1u
#define JSON_OUT_C1 2u

/* What is buffered before a FILE gets it. */
#define JSON_OUT_CHUNK (64u << 10)

/* A document being written. */
struct json_out {
	yajl_gen g;
	FILE *f;            /* NULL: in memory */
	char *buf;          /* what is not yet in f (all of it in memory); NUL-terminated */
	size_t n, cap;      /* bytes in buf, its size less the NUL */
	bool pretty;        /* yajl's beautifier prints the newlines */
	unsigned char slow; /* prints that take json_out_print_more: JSON_OUT_BRK | JSON_OUT_C1 */
	char last;          /* the last byte printed */
	int depth;          /* containers open */
	bool whole;         /* a top-level value was written */
	int gen_err;        /* the first yajl_gen_status that was not ok */
	int write_err;      /* the first errno of a failed write */
	char *tmp;          /* a string made valid */
	size_t tmpcap;
};

/* json_out_flush hands the buffer to the FILE. */
static void json_out_flush(struct json_out *o)
{
	if (o->n == 0)
		return;
	o->last = o->buf[o->n - 1];
	if (fwrite(o->buf, 1, o->n, o->f) != o->n && o->write_err == 0)
		o->write_err = errno != 0 ? errno : EIO;
	o->n = 0;
}

/* json_out_put_slow appends n bytes that do not fit the buffer: the buffer goes to the FILE first (and bytes that
 * would not fit an empty one go straight after it), or grows in memory. */
static void json_out_put_slow(struct json_out *o, const char *s, size_t n)
{
	if (o->f != NULL) {
		json_out_flush(o);
		if (n > o->cap) {
			o->last = s[n - 1];
			if (fwrite(s, 1, n, o->f) != n && o->write_err == 0)
				o->write_err = errno != 0 ? errno : EIO;
			return;
		}
	} else {
		while (o->n + n > o->cap)
			o->cap *= 2;
		o->buf = xrealloc(o->buf, o->cap + 1);
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

/* json_out_put appends n bytes to the output. */
static void json_out_put(struct json_out *o, const char *s, size_t n)
{
	if (o->n + n > o->cap) {
		json_out_put_slow(o, s, n);
	} else {
		memcpy(o->buf + o->n, s, n);
		o->n += n;
	}
}

/* json_out_put_c1 appends n bytes with each C1 control (UTF-8 C2 80..C2 9F) as its \u escape: JSON allows them raw,
 * but a terminal reading the output may take them for controls. yajl prints a string's run of unescaped bytes in
 * one piece, so a sequence is never split between two prints. */
static void json_out_put_c1(struct json_out *o, const char *s, size_t n)
{
	size_t from = 0;

	for (size_t i = 0; i + 1 < n; i++) {
		unsigned char b = (unsigned char)s[i + 1];
		char esc[7];

		if ((unsigned char)s[i] != 0xc2 || b < 0x80 || b > 0x9f)
			continue;
		json_out_put(o, s + from, i - from);
		snprintf(esc, sizeof esc, "\\u%04X", b); /* as yajl writes C0 escapes */
		json_out_put(o, esc, 6);
		i++; /* the sequence's second byte */
		from = i + 1;
	}
	json_out_put(o, s + from, n - from);
}

/* json_out_print_more is json_out_print for what is not one byte into room: a pending break goes after the
 * separator that starts this print (yajl prints a separator before the token that follows it), or before the print
 * when it starts with none; a string with C1 controls goes through json_out_put_c1. */
__attribute__((noinline)) static void json_out_print_more(struct json_out *o, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (o->slow & JSON_OUT_BRK) {
		o->slow &= (unsigned char)~JSON_OUT_BRK;
		if (s[0] == ',') {
			json_out_put(o, ",\n", 2);
			s++;
			n--;
		} else {
			json_out_put(o, "\n", 1);
		}
	}
	if (o->slow & JSON_OUT_C1)
		json_out_put_c1(o, s, n);
	else
		json_out_put(o, s, n);
}

/* json_out_print is yajl's print function, called for every token and separator (some 70 times an event of the
 * Chrome export, most of them 1 to 16 bytes: a quote, a colon, a comma, a key, a number), so that case is a few
 * fixed-size moves, with no call. */
static void json_out_print(void *ctx, const char *s, size_t n)
{
	struct json_out *o = ctx;
	size_t at = o->n;
	char *d;

	if (n == 1 && at < o->cap && !o->slow) {
		o->buf[at] = *s;
		o->n = at + 1;
		return;
	}
	if (n - 2 >= 15 || o->slow || at + n > o->cap) {
		json_out_print_more(o, s, n); /* nothing, more than 16 bytes, a break, C1 controls, a full buffer */
		return;
	}
	d = o->buf + at;
	o->n = at + n;
	if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else {
		d[0] = s[0];
		d[1] = s[1];
		d[n - 1] = s[n - 1];
	}
}

/* yajl allocates through xalloc: out of memory aborts like everywhere else. */
static yajl_alloc_funcs json_out_alloc = {xalloc_ctx_malloc, xalloc_ctx_realloc, xalloc_ctx_free, NULL};

struct json_out *json_out_new(FILE *f, bool pretty)
{
	struct json_out *o = xcalloc(1, sizeof *o);

	o->f = f;
	o->pretty = pretty;
	o->cap = f != NULL ? JSON_OUT_CHUNK : 256;
	o->buf = xmalloc(o->cap + 1);
	o->buf[0] = '\0';
	o->g = yajl_gen_alloc(&json_out_alloc);
	if (o->g == NULL)
		xfatal(1, "out of memory (JSON generator)");
	yajl_gen_config(o->g, yajl_gen_print_callback, json_out_print, o);
	if (pretty) {
		yajl_gen_config(o->g, yajl_gen_beautify, 1);
		yajl_gen_config(o->g, yajl_gen_indent_string, "  ");
	}
	return o;
}

void json_out_free(struct json_out *o)
{
	if (o == NULL)
		return;
	yajl_gen_free(o->g);
	free(o->buf);
	free(o->tmp);
	free(o);
}

/* json_out_status keeps the first failure of a yajl_gen call. */
static inline void json_out_status(struct json_out *o, yajl_gen_status st)
{
	if (st != yajl_gen_status_ok && o->gen_err == 0)
		o->gen_err = (int)st;
}

/* json_out_value notes that a value was written (at the top level: the document is whole). */
static inline void json_out_value(struct json_out *o, yajl_gen_status st)
{
	json_out_status(o, st);
	if (o->depth == 0 && st == yajl_gen_status_ok)
		o->whole = true;
}

/* json_out_gen_error: a phrase for yajl's generator status st. */
static const char *json_out_gen_error(int st)
{
	switch (st) {
	case yajl_gen_keys_must_be_strings:
		return "a value where a key belongs";
	case yajl_max_depth_exceeded:
		return "nested too deep";
	case yajl_gen_in_error_state:
		return "written after an error";
	case yajl_gen_generation_complete:
		return "a value after the end of the document";
	case yajl_gen_invalid_number:
		return "an invalid number";
	default:
		return "generator error";
	}
}

int json_out_finish(struct json_out *o, char **cause)
{
	if (o->gen_err == 0 && (o->depth != 0 || !o->whole)) {
		*cause = xasprintf("JSON output: %s", o->depth != 0 ? "a container left open" : "no value written");
		return -1;
	}
	if (o->gen_err != 0) {
		*cause = xasprintf("JSON output: %s", json_out_gen_error(o->gen_err));
		return -1;
	}
	o->slow &= (unsigned char)~JSON_OUT_BRK;
	if ((o->n > 0 ? o->buf[o->n - 1] : o->last) != '\n')
		json_out_put(o, "\n", 1);
	if (o->f != NULL)
		json_out_flush(o);
	if (o->write_err != 0) {
		*cause = xasprintf("JSON output: %s", strerror(o->write_err));
		return -1;
	}
	return 0;
}

const char *json_out_text(struct json_out *o, size_t *len)
{
	if (o->f != NULL)
		return NULL;
	o->buf[o->n] = '\0';
	*len = o->n;
	return o->buf;
}

/* json_out_open keeps the status of a container's opening and goes one level down. */
static void json_out_open(struct json_out *o, yajl_gen_status st)
{
	json_out_status(o, st);
	o->depth++;
}

/* json_out_close comes back up from a container whose closing gave st: a value of the level above. */
static void json_out_close(struct json_out *o, yajl_gen_status st)
{
	o->depth--;
	json_out_value(o, st);
}

void json_out_map_begin(struct json_out *o)
{
	json_out_open(o, yajl_gen_map_open(o->g));
}

void json_out_map_end(struct json_out *o)
{
	json_out_close(o, yajl_gen_map_close(o->g));
}

void json_out_array_begin(struct json_out *o)
{
	json_out_open(o, yajl_gen_array_open(o->g));
}

void json_out_array_end(struct json_out *o)
{
	json_out_close(o, yajl_gen_array_close(o->g));
}

void json_out_break(struct json_out *o)
{
	if (!o->pretty)
		o->slow |= JSON_OUT_BRK;
}

/* json_out_utf8 returns the length of the valid UTF-8 sequence at s, of which avail bytes may be read; 0 when none
 * starts there (escape_utf8_len reads up to 4 bytes, or to a NUL: a short tail is copied NUL-padded first). */
static int json_out_utf8(const char *s, size_t avail)
{
	unsigned cp;

	if (avail < 4) {
		unsigned char tail[5] = {0};

		memcpy(tail, s, avail);
		return escape_utf8_len(tail, &cp);
	}
	return escape_utf8_len((const unsigned char *)s, &cp);
}

/* json_out_ascii says whether the n bytes at s are all ASCII: a word at a time, the last word overlapping the one
 * before it rather than a loop over the tail. */
static bool json_out_ascii(const char *s, size_t n)
{
	uint64_t w, acc = 0;
	uint32_t h, l;

	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8) {
			memcpy(&w, s + i, 8);
			acc |= w;
		}
		memcpy(&w, s + n - 8, 8);
		return ((acc | w) & 0x8080808080808080ull) == 0;
	}
	if (n >= 4) {
		memcpy(&h, s, 4);
		memcpy(&l, s + n - 4, 4);
		return ((h | l) & 0x80808080u) == 0;
	}
	if (n == 0)
		return true;
	return (((unsigned char)s[0] | (unsigned char)s[n / 2] | (unsigned char)s[n - 1]) & 0x80) == 0; /* 1..3 */
}

/* json_out_has_c1 says whether the n bytes at s hold a C1 control in UTF-8 (C2 80..C2 9F). */
static bool json_out_has_c1(const char *s, size_t n)
{
	const char *p = s, *end = s + n;

	while ((p = memchr(p, 0xc2, (size_t)(end - p))) != NULL && p + 1 < end) {
		if ((unsigned char)p[1] >= 0x80 && (unsigned char)p[1] <= 0x9f)
			return true;
		p++;
	}
	return false;
}

/* json_out_gen_repaired hands yajl a copy of the n bytes at s, which are not all ASCII, with each byte that starts
 * no UTF-8 sequence replaced by U+FFFD (valid ones are kept as they are). */
__attribute__((noinline)) static yajl_gen_status json_out_gen_repaired(struct json_out *o, const char *s, size_t n)
{
	size_t i = 0, m = 0;

	while (i < n && (unsigned char)s[i] < 0x80)
		i++;
	while (i < n) {
		int k = (unsigned char)s[i] < 0x80 ? 1 : json_out_utf8(s + i, n - i);

		if (k == 0)
			break;
		i += (size_t)k;
	}
	if (i == n)
		return yajl_gen_string(o->g, (const unsigned char *)s, n);
	/* a byte that starts no sequence: a copy with each such byte as U+FFFD (3 bytes) */
	if (o->tmpcap < 3 * n) {
		o->tmpcap = 3 * n;
		o->tmp = xrealloc(o->tmp, o->tmpcap);
	}
	memcpy(o->tmp, s, i);
	m = i;
	while (i < n) {
		int k = (unsigned char)s[i] < 0x80 ? 1 : json_out_utf8(s + i, n - i);

		if (k == 0) {
			memcpy(o->tmp + m, "\xef\xbf\xbd", 3);
			m += 3;
			i++;
		} else {
			memcpy(o->tmp + m, s + i, (size_t)k);
			m += (size_t)k;
			i += (size_t)k;
		}
	}
	return yajl_gen_string(o->g, (const unsigned char *)o->tmp, m);
}

/* json_out_gen_str hands yajl the n bytes at s as a string, made valid UTF-8 first when they are not, its C1
 * controls printed as \u escapes. */
static yajl_gen_status json_out_gen_str(struct json_out *o, const char *s, size_t n)
{
	yajl_gen_status st;

	if (json_out_ascii(s, n))
		return yajl_gen_string(o->g, (const unsigned char *)s, n);
	if (json_out_has_c1(s, n))
		o->slow |= JSON_OUT_C1;
	st = json_out_gen_repaired(o, s, n);
	o->slow &= (unsigned char)~JSON_OUT_C1;
	return st;
}

void json_out_keyn(struct json_out *o, const char *key, size_t n)
{
	json_out_status(o, json_out_gen_str(o, key, n));
}

void json_out_strn(struct json_out *o, const char *s, size_t n)
{
	json_out_value(o, json_out_gen_str(o, s, n));
}

/* json_out_digits writes v in decimal, ending at end (exclusive); returns where it starts. */
static char *json_out_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	return end;
}

void json_out_uint(struct json_out *o, uint64_t v)
{
	char buf[24], *s = json_out_digits(buf + sizeof buf, v);

	json_out_value(o, yajl_gen_number(o->g, s, (size_t)(buf + sizeof buf - s)));
}

void json_out_int(struct json_out *o, int64_t v)
{
	char buf[24], *s = json_out_digits(buf + sizeof buf, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);

	if (v < 0)
		*--s = '-';
	json_out_value(o, yajl_gen_number(o->g, s, (size_t)(buf + sizeof buf - s)));
}

void json_out_decimal(struct json_out *o, uint64_t units, unsigned decimals)
{
	char buf[48], *end = buf + sizeof buf, *s = end;

	if (decimals > 19)
		decimals = 19;
	for (unsigned i = 0; i < decimals; i++) {
		*--s = (char)('0' + units % 10);
		units /= 10;
	}
	if (decimals > 0)
		*--s = '.';
	s = json_out_digits(s, units);
	json_out_value(o, yajl_gen_number(o->g, s, (size_t)(end - s)));
}

/* json_out_c_point turns what printf wrote for a number in the locale's notation into JSON's: a decimal point that
 * is not '.' (a ',', or several bytes in some locales) becomes '.'. Returns the new length. */
static size_t json_out_c_point(char *s, size_t n)
{
	size_t r = 0, w = 0;

	while (r < n) {
		char ch = s[r];

		if ((ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == 'e' || ch == '.') {
			s[w++] = s[r++];
			continue;
		}
		s[w++] = '.';
		while (r < n && !(s[r] >= '0' && s[r] <= '9') && s[r] != 'e')
			r++;
	}
	s[w] = '\0';
	return w;
}

/* json_out_number hands yajl a number printf wrote into buf (n bytes, or a failed snprintf: n < 0). */
static void json_out_number(struct json_out *o, char *buf, size_t size, int n)
{
	size_t len;

	if (n < 0 || (size_t)n >= size) {
		json_out_status(o, yajl_gen_invalid_number);
		return;
	}
	len = json_out_c_point(buf, (size_t)n);
	json_out_value(o, yajl_gen_number(o->g, buf, len));
}

void json_out_double(struct json_out *o, double v, int digits)
{
	char buf[64], *e;
	int n;

	if (!isfinite(v)) {
		json_out_null(o);
		return;
	}
	digits = digits <= 0 ? 17 : digits > 17 ? 17 : digits;
	n = snprintf(buf, sizeof buf, "%.*g", digits, v);
	if (n < 0 || (size_t)n >= sizeof buf - 3) {
		json_out_number(o, buf, sizeof buf, -1);
		return;
	}
	n = (int)json_out_c_point(buf, (size_t)n);
	if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL) {
		memcpy(buf + n, ".0", 3);
		n += 2;
	}
	/* "1e+20" -> "1e20", "1e-05" -> "1e-5" */
	if ((e = strchr(buf, 'e')) != NULL) {
		char *w = e + 1, *r = e + 1;

		if (*r == '+')
			r++;
		else if (*r == '-')
			*w++ = *r++;
		while (*r == '0' && r[1] != '\0')
			r++;
		memmove(w, r, strlen(r) + 1);
		n = (int)strlen(buf);
	}
	json_out_number(o, buf, sizeof buf, n);
}

void json_out_fixed(struct json_out *o, double v, int decimals)
{
	char buf[384];

	if (!isfinite(v)) {
		json_out_null(o);
		return;
	}
	decimals = decimals < 0 ? 0 : decimals > 30 ? 30 : decimals;
	json_out_number(o, buf, sizeof buf, snprintf(buf, sizeof buf, "%.*f", decimals, v));
}

void json_out_bool(struct json_out *o, bool v)
{
	json_out_value(o, yajl_gen_bool(o->g, v));
}

void json_out_null(struct json_out *o)
{
	json_out_value(o, yajl_gen_null(o->g));
}

/* json_out_embed's parser callbacks: each JSON event of the text becomes the same call on the document. */
static int json_out_on_null(void *ctx)
{
	json_out_null(ctx);
	return 1;
}

static int json_out_on_bool(void *ctx, int v)
{
	json_out_bool(ctx, v != 0);
	return 1;
}

static int json_out_on_number(void *ctx, const char *s, size_t n)
{
	struct json_out *o = ctx;

	/* yajl checked it is a JSON number: written as it was */
	json_out_value(o, yajl_gen_number(o->g, s, n));
	return 1;
}

static int json_out_on_string(void *ctx, const unsigned char *s, size_t n)
{
	json_out_strn(ctx, (const char *)s, n);
	return 1;
}

static int json_out_on_map_begin(void *ctx)
{
	json_out_map_begin(ctx);
	return 1;
}

static int json_out_on_key(void *ctx, const unsigned char *s, size_t n)
{
	struct json_out *o = ctx;

	json_out_status(o, json_out_gen_str(o, (const char *)s, n));
	return 1;
}

static int json_out_on_map_end(void *ctx)
{
	json_out_map_end(ctx);
	return 1;
}

static int json_out_on_array_begin(void *ctx)
{
	json_out_array_begin(ctx);
	return 1;
}

static int json_out_on_array_end(void *ctx)
{
	json_out_array_end(ctx);
	return 1;
}

int json_out_embed(struct json_out *o, const char *text, size_t len)
{
	static const yajl_callbacks cb = {
	    json_out_on_null,
	    json_out_on_bool,
	    NULL,
	    NULL,
	    json_out_on_number,
	    json_out_on_string,
	    json_out_on_map_begin,
	    json_out_on_key,
	    json_out_on_map_end,
	    json_out_on_array_begin,
	    json_out_on_array_end,
	};
	yajl_handle h = yajl_alloc(&cb, &json_out_alloc, o);
	int rc = 0;

	if (h == NULL)
		xfatal(1, "out of memory (JSON parser)");
	if (yajl_parse(h, (const unsigned char *)text, len) != yajl_status_ok ||
	    yajl_complete_parse(h) != yajl_status_ok)
		rc = -1;
	yajl_free(h);
	return rc;
}
