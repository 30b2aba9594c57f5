/* expfile.c: experiment files read with libinih (see expfile.h).
 *
 * What a file may hold (libinih's run-time options, set here before each parse): [section] lines; key = value lines
 * (or key: value), the blanks around key and value dropped; comments on lines of their own starting with ; or #,
 * and after a value or a section header following a blank (streams = 8 ; eight); blank lines; a UTF-8 byte order
 * mark first; LF, CRLF or CR line ends. Not: text after a section header (libinih would drop it unread:
 * [experiment] streams = 4), continuation lines (an indented line is a line of its own), a key without a value, a
 * NUL byte, a line longer than EXPFILE_LINE_MAX. The sections are expfile_sections': [experiment] (option keys) and
 * [chunk] (the step program: step lines in order, libinih handing over every line of a repeated key, and one
 * interleave); a key line goes to its section's handler. */
#include "cli/expfile.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/xalloc.h"

struct expfile_scan;

/* One section a file may have: its name and what one of its key = value lines does (1 when kept, 0 after setting
 * the scan's cause). */
struct expfile_section {
	const char *name;
	int (*key)(struct expfile_scan *s, const char *key, const char *value);
};

static int expfile_experiment_key(struct expfile_scan *s, const char *key, const char *value);
static int expfile_chunk_key(struct expfile_scan *s, const char *key, const char *value);

static const struct expfile_section expfile_sections[] = {
    {"experiment", expfile_experiment_key},
    {"chunk", expfile_chunk_key},
};
#define EXPFILE_NSECTIONS (sizeof expfile_sections / sizeof expfile_sections[0])

/* The state of one parse, shared by the line reader libinih calls and the key handler. */
struct expfile_scan {
	struct expfile *f;
	const char *text; /* the file's bytes (the byte order mark skipped) */
	size_t len, pos;  /* its length, and where the next line starts */
	int line;         /* the line last handed to libinih, 1-based: the line the handler is called for */
	int header[EXPFILE_NSECTIONS]; /* per expfile_sections row: the line of its first [name], 0 when none */
	char *cause;                   /* the first error (the parse stops at it), NULL while there is none */
	int cause_line;                /* its line */
};

/* The experiment options: the keys of [experiment] are their long names, but --experiment's. */
static const struct cmd_use expfile_uses[] = {CMD_USES_EXPERIMENT};
#define EXPFILE_NUSES (sizeof expfile_uses / sizeof expfile_uses[0])

/* expfile_key returns the experiment option named key ("streams"), OPT_NONE when there is none. */
static enum cmd_opt expfile_key(const char *key)
{
	for (size_t i = 0; i < EXPFILE_NUSES; i++)
		if (expfile_uses[i].id != OPT_EXPERIMENT && strcmp(cmd_option_name(expfile_uses[i].id) + 2, key) == 0)
			return expfile_uses[i].id;
	return OPT_NONE;
}

/* expfile_keys writes the valid keys, "preset, streams, ...", into buf. */
static const char *expfile_keys(char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < EXPFILE_NUSES && k < len; i++)
		if (expfile_uses[i].id != OPT_EXPERIMENT)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k > 0 ? ", " : "",
			                      cmd_option_name(expfile_uses[i].id) + 2);
	return buf;
}

/* expfile_sections_list writes the valid sections, "[experiment]", into buf. */
static const char *expfile_sections_list(char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < EXPFILE_NSECTIONS && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s[%s]", k > 0 ? ", " : "", expfile_sections[i].name);
	return buf;
}

/* expfile_fail sets s's cause to "PATH:LINE: " and the message, unless it has one; returns 0 (a handler's error). */
static int expfile_fail(struct expfile_scan *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int expfile_fail(struct expfile_scan *s, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	if (s->cause != NULL)
		return 0;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	s->cause = xasprintf("%s:%d: %s", s->f->path, s->line, what);
	s->cause_line = s->line;
	return 0;
}

/* expfile_header checks a [name] line (line, its blanks first): a section of expfile_sections not seen before, whose
 * line it notes, followed by nothing but blanks and a comment (libinih would drop anything else unread: a key
 * written after the header); 0, or -1 after setting the cause. A line without the closing ] is left to libinih,
 * which calls it a syntax error. */
static int expfile_header(struct expfile_scan *s, const char *line)
{
	const char *end, *rest;
	char valid[128];
	size_t n;

	while (isspace((unsigned char)*line))
		line++;
	if (*line != '[' || (end = strchr(line + 1, ']')) == NULL)
		return 0;
	for (rest = end + 1; isspace((unsigned char)*rest); rest++)
		;
	for (n = strlen(rest); n > 0 && isspace((unsigned char)rest[n - 1]); n--)
		;
	for (size_t i = 0; i < EXPFILE_NSECTIONS; i++)
		if (strlen(expfile_sections[i].name) == (size_t)(end - line - 1) &&
		    strncmp(expfile_sections[i].name, line + 1, (size_t)(end - line - 1)) == 0) {
			if (n > 0 && *rest != ';' && *rest != '#') {
				expfile_fail(s,
				             "text '%.*s' after the section header '[%s]': put each key on a line of "
				             "its own (after a header, only a comment: ; or #)",
				             (int)n, rest, expfile_sections[i].name);
				return -1;
			}
			if (s->header[i] != 0) {
				expfile_fail(s, "[%s] given twice (first at line %d): a file has each section once",
				             expfile_sections[i].name, s->header[i]);
				return -1;
			}
			s->header[i] = s->line;
			return 0;
		}
	expfile_fail(s, "unknown section '%.*s': valid is %s", (int)(end - line + 1), line,
	             expfile_sections_list(valid, sizeof valid));
	return -1;
}

/* expfile_chars counts the characters of the n bytes at p as a reader of the file sees them: a well-formed UTF-8
 * sequence is one (a Chinese character too, three bytes), and so is each byte of anything else (a file in another
 * encoding). A line of EXPFILE_LINE_MAX characters is thus at most EXPFILE_LINE_BYTES bytes. */
static size_t expfile_chars(const char *p, size_t n)
{
	size_t i = 0, chars = 0;

	while (i < n) {
		unsigned char c = (unsigned char)p[i];
		size_t len = c < 0x80                 ? 1
		             : c >= 0xc2 && c <= 0xdf ? 2
		             : c >= 0xe0 && c <= 0xef ? 3
		             : c >= 0xf0 && c <= 0xf4 ? 4
		                                      : 0,
		       k = 1;

		while (k < len && i + k < n && ((unsigned char)p[i + k] & 0xc0) == 0x80)
			k++;
		i += len > 0 && k == len ? len : 1;
		chars++;
	}
	return chars;
}

/* expfile_reader is libinih's fgets: the next line of s into str (num bytes), without its line end (LF, CRLF or a
 * lone CR, as old Mac editors end lines), NULL at the end or after an error (a NUL byte, a line longer than
 * EXPFILE_LINE_MAX characters, or than num - 1 bytes, a bad section header), which it notes as the cause. */
static char *expfile_reader(char *str, int num, void *stream)
{
	struct expfile_scan *s = stream;
	const char *p = s->text + s->pos;
	size_t n, visible, chars, avail = s->len - s->pos, room = num > 0 ? (size_t)num - 1 : 0;

	if (s->cause != NULL || s->pos >= s->len)
		return NULL;
	for (visible = 0; visible < avail && p[visible] != '\n' && p[visible] != '\r'; visible++)
		;
	n = visible;
	if (n < avail)
		n += p[n] == '\r' && n + 1 < avail && p[n + 1] == '\n' ? 2 : 1;
	s->pos += n;
	s->line++;
	if (memchr(p, '\0', n) != NULL) {
		expfile_fail(s, "a NUL byte: an experiment file is text");
		return NULL;
	}
	if ((chars = expfile_chars(p, visible)) > EXPFILE_LINE_MAX) {
		expfile_fail(s, "line too long: %zu characters, at most %d", chars, EXPFILE_LINE_MAX);
		return NULL;
	}
	/* not reached while libinih honours ini_max_line (expfile_inih_options): a byte limit, said in bytes */
	if (visible > room) {
		expfile_fail(s, "line too long: %zu bytes, at most %zu (libinih's line buffer)", visible, room);
		return NULL;
	}
	memcpy(str, p, visible);
	str[visible] = '\0';
	return expfile_header(s, str) == 0 ? str : NULL;
}

/* expfile_handler is libinih's handler: a key = value line goes to its section's handler. 1 when kept, 0 after
 * setting the cause. */
static int expfile_handler(void *user, const char *section, const char *name, const char *value)
{
	struct expfile_scan *s = user;
	char valid[128];

	if (s->cause != NULL)
		return 0;
	for (size_t i = 0; i < EXPFILE_NSECTIONS; i++)
		if (strcmp(section, expfile_sections[i].name) == 0)
			return expfile_sections[i].key(s, name, value);
	if (*section == '\0')
		return expfile_fail(s, "key '%s' is outside a section: valid is %s first", name,
		                    expfile_sections_list(valid, sizeof valid));
	/* the reader refused the section's line: not reached */
	return expfile_fail(s, "unknown section '[%s]': valid is %s", section,
	                    expfile_sections_list(valid, sizeof valid));
}

/* expfile_experiment_key keeps a key = value of [experiment]: the key an experiment option's name, not given
 * before. */
static int expfile_experiment_key(struct expfile_scan *s, const char *key, const char *value)
{
	enum cmd_opt id = expfile_key(key);
	const struct expfile_entry *old;
	struct expfile_entry *e;
	char keys[512];

	if (id == OPT_NONE)
		return expfile_fail(s, "unknown key '%s': valid keys are %s", key, expfile_keys(keys, sizeof keys));
	if ((old = expfile_find(s->f, id)) != NULL)
		return expfile_fail(s, "key '%s' is given twice (first on line %d): give each key once", key,
		                    old->line);
	/* each option once: f's entries (OPT_COUNT) always have room */
	e = &s->f->entry[s->f->nentry++];
	e->id = id;
	e->line = s->line;
	/* the value is part of a line of at most EXPFILE_LINE_BYTES bytes: it fits */
	snprintf(e->value, sizeof e->value, "%s", value);
	return 1;
}

/* What a step line may say, for messages. */
#define EXPFILE_STEP_SYNTAX                                                                                            \
	"h2d|d2h x|y|z [pinned|pageable], kernel [add|fma|decrypt|spin] [x|y|z] [work=N] [grid=N] [block=N], memset "  \
	"x|y|z BYTE, event, host x|y|z"

/* expfile_buffer parses a buffer name: 0..2, -1 when w is none. */
static int expfile_buffer(const char *w)
{
	return strcmp(w, "x") == 0 ? 0 : strcmp(w, "y") == 0 ? 1 : strcmp(w, "z") == 0 ? 2 : -1;
}

/* expfile_uint parses w as a whole number in lo..hi into *v: decimal or 0x hex (units_parse_count), with a k, M or
 * G suffix where suffix is set (work= and grid=, as --work and --grid take); false when it is not one. */
static bool expfile_uint(const char *w, unsigned long lo, unsigned long hi, bool suffix, uint32_t *v)
{
	long long n;

	if (units_parse_count(w, (long long)lo, (long long)hi, UNITS_HEX | (suffix ? UNITS_SUFFIX : 0), &n) != 0)
		return false;
	*v = (uint32_t)n;
	return true;
}

/* expfile_step_word takes word w (the k-th after the kind) of step st; 1 when kept, 0 after setting the cause. */
static int expfile_step_word(struct expfile_scan *s, struct ss_step *st, const char *value, const char *w, int k)
{
	int b = expfile_buffer(w), m = experiment_hostmem_parse(w), kn = experiment_kernel_parse(w);
	const char *eq = strchr(w, '=');

	switch (st->kind) {
	case SS_STEP_H2D:
	case SS_STEP_D2H:
		if (k == 0 && b >= 0) {
			st->buffer = (int8_t)b;
			return 1;
		}
		if (k == 0)
			return expfile_fail(s, "step '%s': buffer '%s': valid is x|y|z", value, w);
		if (k == 1 && (m == SS_MEM_PINNED || m == SS_MEM_PAGEABLE)) {
			st->hostmem = (uint8_t)m;
			return 1;
		}
		if (k == 1)
			return expfile_fail(
			    s,
			    "step '%s': host memory '%s': valid is pinned|pageable (one kind per buffer; "
			    "managed memory is --host-mem's, for presets)",
			    value, w);
		break;
	case SS_STEP_MEMSET:
		if (k == 0 && b >= 0) {
			st->buffer = (int8_t)b;
			return 1;
		}
		if (k == 0)
			return expfile_fail(s, "step '%s': buffer '%s': valid is x|y|z", value, w);
		if (k == 1) {
			uint32_t v;

			if (!expfile_uint(w, 0, 255, false, &v))
				return expfile_fail(s, "step '%s': byte '%s': valid is 0..255 (or 0x00..0xff)", value,
				                    w);
			st->value = (uint8_t)v;
			return 1;
		}
		break;
	case SS_STEP_HOST:
		if (k == 0 && b >= 0) {
			st->buffer = (int8_t)b;
			return 1;
		}
		if (k == 0)
			return expfile_fail(s, "step '%s': buffer '%s': valid is x|y|z", value, w);
		break;
	case SS_STEP_KERNEL:
		if (eq != NULL) {
			static const char *const names[3] = {"work", "grid", "block"};
			static const unsigned long hi[3] = {100000000ul, 0x7ffffffful, 1024ul};
			uint32_t *field[3] = {&st->work, &st->grid, &st->block};

			for (int i = 0; i < 3; i++)
				if (strlen(names[i]) == (size_t)(eq - w) &&
				    strncmp(w, names[i], (size_t)(eq - w)) == 0) {
					if (*field[i] != 0) /* set: every setting is 1 or more */
						return expfile_fail(s, "step '%s': %s is given twice: give it once",
						                    value, names[i]);
					if (!expfile_uint(eq + 1, 1, hi[i], i < 2, field[i]))
						return expfile_fail(s,
						                    "step '%s': %s '%s': valid is an integer 1..%lu%s",
						                    value, names[i], eq + 1, hi[i],
						                    i < 2 ? " (suffix k, M or G allowed)" : "");
					return 1;
				}
			return expfile_fail(s, "step '%s': '%.*s': valid settings are work=N, grid=N, block=N", value,
			                    (int)(eq - w), w);
		}
		if (kn >= 0 && st->kernel == SS_STEP_DEFAULT && st->buffer < 0) {
			if (kn != SS_KERNEL_ADD && kn != SS_KERNEL_FMA && kn != SS_KERNEL_DECRYPT &&
			    kn != SS_KERNEL_SPIN)
				return expfile_fail(
				    s,
				    "step '%s': kernel '%s': valid in a step is add|fma|decrypt|spin (the task "
				    "kernel is document 004's whole protocol: its preset)",
				    value, w);
			st->kernel = (uint8_t)kn;
			return 1;
		}
		if (b >= 0 && st->buffer < 0) {
			if (st->kernel != SS_KERNEL_DECRYPT)
				return expfile_fail(
				    s,
				    "step '%s': buffer '%s': only decrypt takes one (in place; add and fma "
				    "read x and y and write z, spin none)",
				    value, w);
			st->buffer = (int8_t)b;
			return 1;
		}
		return expfile_fail(s,
		                    "step '%s': '%s': valid is kernel [add|fma|decrypt|spin] [x|y|z] [work=N] "
		                    "[grid=N] [block=N]",
		                    value, w);
	default:
		break;
	}
	return expfile_fail(s, "step '%s': '%s' is one word too many: valid steps are " EXPFILE_STEP_SYNTAX, value, w);
}

/* expfile_step parses a step line's value into the next step; 1 when kept, 0 after setting the cause. */
static int expfile_step(struct expfile_scan *s, const char *value)
{
	struct expfile *f = s->f;
	struct ss_step st;
	char words[EXPFILE_LINE_BYTES + 1], *save = NULL, *w;
	int kind, k = 0;

	if (f->nsteps == SS_MAX_STEPS)
		return expfile_fail(s, "too many steps: a chunk has at most %d", SS_MAX_STEPS);
	snprintf(words, sizeof words, "%s", value);
	if ((w = strtok_r(words, " \t", &save)) == NULL || (kind = experiment_step_kind_parse(w)) < 0)
		return expfile_fail(s, "step '%s': valid steps are " EXPFILE_STEP_SYNTAX, value);
	memset(&st, 0, sizeof st);
	st.kind = (uint8_t)kind;
	st.buffer = -1;
	st.hostmem = SS_STEP_DEFAULT;
	st.kernel = SS_STEP_DEFAULT;
	st.line = s->line;
	for (; (w = strtok_r(NULL, " \t", &save)) != NULL; k++)
		if (expfile_step_word(s, &st, value, w, st.kind == SS_STEP_KERNEL ? 0 : k) == 0)
			return 0;
	if ((kind == SS_STEP_H2D || kind == SS_STEP_D2H || kind == SS_STEP_HOST || kind == SS_STEP_MEMSET) &&
	    st.buffer < 0)
		return expfile_fail(s, "step '%s': %s needs a buffer: valid is %s x|y|z%s", value,
		                    experiment_step_kind_name(kind), experiment_step_kind_name(kind),
		                    kind == SS_STEP_MEMSET ? " BYTE" : "");
	if (kind == SS_STEP_MEMSET && k < 2)
		return expfile_fail(s, "step '%s': memset needs a byte: valid is memset x|y|z 0..255", value);
	f->step[f->nsteps++] = st;
	return 1;
}

/* expfile_interleave parses the interleave line's value: items N, N@c or N@c-K (step N, 1-based, of chunk c - K in
 * round c). 1 when kept, 0 after setting the cause. */
static int expfile_interleave(struct expfile_scan *s, const char *value)
{
	struct expfile *f = s->f;
	char words[EXPFILE_LINE_BYTES + 1], *save = NULL, *w;

	if (f->inter_line != 0)
		return expfile_fail(s, "interleave is given twice (first on line %d): give it once", f->inter_line);
	f->inter_line = s->line;
	snprintf(words, sizeof words, "%s", value);
	for (w = strtok_r(words, " \t", &save); w != NULL; w = strtok_r(NULL, " \t", &save)) {
		char *at = strchr(w, '@'), num[16];
		uint32_t n, lag = 0;

		snprintf(num, sizeof num, "%.*s", at != NULL ? (int)(at - w) : (int)strlen(w), w);
		if (!expfile_uint(num, 1, SS_MAX_STEPS, false, &n) ||
		    (at != NULL && strcmp(at, "@c") != 0 &&
		     (strncmp(at, "@c-", 3) != 0 || !expfile_uint(at + 3, 1, 255, false, &lag))))
			return expfile_fail(
			    s,
			    "interleave item '%s': valid is N, N@c or N@c-K (step N of the %d at most, of "
			    "chunk c - K, K 1..255, in round c)",
			    w, SS_MAX_STEPS);
		if (f->ninter == SS_MAX_INTERLEAVE)
			return expfile_fail(s, "interleave has more than %d items: give each step once",
			                    SS_MAX_INTERLEAVE);
		f->inter[f->ninter].step = (uint8_t)(n - 1);
		f->inter[f->ninter].lag = (uint8_t)lag;
		f->ninter++;
	}
	if (f->ninter == 0)
		return expfile_fail(s, "interleave has no items: valid is N, N@c or N@c-K, each step once");
	return 1;
}

/* expfile_chunk_key keeps a key = value of [chunk]: a step (any number, in order) or the interleave (once). */
static int expfile_chunk_key(struct expfile_scan *s, const char *key, const char *value)
{
	if (strcmp(key, "step") == 0)
		return expfile_step(s, value);
	if (strcmp(key, "interleave") == 0)
		return expfile_interleave(s, value);
	return expfile_fail(s, "unknown key '%s' in [chunk]: valid keys are step (once per step, in order), interleave",
	                    key);
}

/* expfile_program_check checks f's step program on its own once the file is read (experiment_program_check);
 * 0, or -1 with *cause "PATH:LINE: why" (the step's line, the interleave's). */
static int expfile_program_check(const struct expfile *f, char **cause)
{
	struct ss_experiment e;
	char *why = NULL;
	int line = 0;

	memset(&e, 0, sizeof e);
	e.nsteps = f->nsteps;
	memcpy(e.step, f->step, sizeof e.step);
	e.ninter = f->ninter;
	memcpy(e.inter, f->inter, sizeof e.inter);
	if (experiment_program_check(&e, &line, &why) == 0)
		return 0;
	*cause = xasprintf("%s:%d: %s", f->path, line > 0 ? line : f->inter_line, why);
	free(why);
	return -1;
}

/* expfile_inih_options sets libinih's run-time options (Debian's libinih makes its INI_* settings variables) to
 * what the format is, whatever the library's defaults: no continuation lines (an indented key is a key, not part
 * of the previous value), comments after ; or # (at a line's start, or after a blank), a value on every key, the
 * first error ends the parse, and a line buffer (INI_MAX_LINE, 200 bytes by default) that holds the longest line
 * in bytes. The byte order mark is dropped before libinih sees the text. */
static void expfile_inih_options(void)
{
	static char comments[] = ";#";

	ini_allow_multiline = false;
	ini_allow_bom = false;
	ini_start_comment_prefixes = comments;
	ini_allow_inline_comments = true;
	ini_inline_comment_prefixes = comments;
	ini_allow_no_value = false;
	ini_stop_on_first_error = true;
	/* a line of EXPFILE_LINE_MAX characters, its end and the NUL fit libinih's line buffer */
	ini_use_stack = true;
	ini_allow_realloc = false;
	ini_max_line = EXPFILE_LINE_BYTES + 3;
}

/* expfile_trace names the trace format the len bytes at text begin as ("an SQLite database", "JSON": a '{' first,
 * which no INI line starts with), NULL when they begin as neither. */
static const char *expfile_trace(const char *text, size_t len)
{
	size_t i = 0;

	if (len >= 16 && memcmp(text, "SQLite format 3", 16) == 0)
		return "an SQLite database";
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
		i++;
	return i < len && text[i] == '{' ? "JSON" : NULL;
}

int expfile_parse(const char *path, const char *text, size_t len, struct expfile *f, char **cause)
{
	struct expfile_scan s;
	char keys[512], valid[128];
	int rc;

	memset(f, 0, sizeof *f);
	f->path = path;
	if (expfile_trace(text, len) != NULL) {
		*cause = xasprintf("%s: %s, not an experiment file: open a trace with 'streamscope view %s'", path,
		                   expfile_trace(text, len), path);
		return -1;
	}
	if (len > EXPFILE_SIZE_MAX) {
		*cause = xasprintf("%s: too large: an experiment file is at most %d bytes", path, EXPFILE_SIZE_MAX);
		return -1;
	}
	memset(&s, 0, sizeof s);
	s.f = f;
	s.text = text;
	s.len = len;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		s.pos = 3;
	expfile_inih_options();
	rc = ini_parse_stream(expfile_reader, &s, expfile_handler, &s);
	if (rc > 0 && (s.cause == NULL || rc < s.cause_line)) {
		/* a line libinih could not read comes first */
		free(s.cause);
		s.cause =
		    xasprintf("%s:%d: syntax error: valid lines are %s, key = value, blank lines and comments (; or "
		              "#)",
		              path, rc, expfile_sections_list(valid, sizeof valid));
	} else if (rc < 0 && s.cause == NULL) {
		s.cause = xasprintf("%s: cannot parse (libinih: %d)", path, rc);
	} else if (s.cause == NULL && s.header[0] == 0 && s.header[1] == 0) {
		s.cause =
		    xasprintf("%s: no [experiment] section (nothing but blanks and comments): an experiment file is "
		              "[experiment] and key = value lines, keys %s (and [chunk], step lines)",
		              path, expfile_keys(keys, sizeof keys));
	} else if (s.cause == NULL && s.header[1] != 0 && f->nsteps == 0) {
		s.cause = xasprintf("%s:%d: [chunk] has no steps: valid are step = lines, one per step in order: %s",
		                    path, s.header[1], EXPFILE_STEP_SYNTAX);
	} else if (s.cause == NULL && f->nentry == 0 && f->nsteps == 0) {
		s.cause = xasprintf("%s:%d: [experiment] has no keys: valid keys are %s", path, s.header[0],
		                    expfile_keys(keys, sizeof keys));
	} else if (s.cause == NULL) {
		expfile_program_check(f, &s.cause);
	}
	if (s.cause != NULL) {
		*cause = s.cause;
		f->nentry = 0;
		f->nsteps = f->ninter = 0;
		return -1;
	}
	return 0;
}

int expfile_read(const char *path, struct expfile *f, char **cause)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	size_t n;
	int rc;

	memset(f, 0, sizeof *f);
	f->path = path;
	if (fp == NULL) {
		*cause = xasprintf("cannot read experiment file '%s': %s", path, strerror(errno));
		return -1;
	}
	/* one byte more than the limit: expfile_parse refuses a larger file */
	buf = xmalloc(EXPFILE_SIZE_MAX + 1);
	n = fread(buf, 1, EXPFILE_SIZE_MAX + 1, fp);
	if (ferror(fp)) {
		*cause = xasprintf("cannot read experiment file '%s': %s", path, strerror(errno));
		fclose(fp);
		free(buf);
		return -1;
	}
	fclose(fp);
	rc = expfile_parse(path, buf, n, f, cause);
	free(buf);
	return rc;
}

const struct expfile_entry *expfile_find(const struct expfile *f, enum cmd_opt id)
{
	for (int i = 0; i < f->nentry; i++)
		if (f->entry[i].id == id)
			return &f->entry[i];
	return NULL;
}
