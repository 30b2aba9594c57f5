/* chrome_parse.c: Chrome trace JSON through yajl's SAX callbacks into compact events.
 *
 * yajl lexes and validates (UTF-8 included); the callbacks keep a depth count and, for the few places that matter
 * (the top-level object, the events array, one event and its args, otherData), which field the next value
 * belongs to. An event's fields are kept as text (pointers into the file, or copies when yajl decoded escapes) until
 * its closing brace, then turned into a struct chrome_ev: numbers are parsed only for the fields used. Between
 * values of the top-level object and between events the next bytes are looked at directly, so a wrong separator, a
 * non-object event or a file that stops there gets the same message as Chrome-style walkers give ("expected ','
 * or ']' after event N", "truncated: traceEvents array not closed"), and a bare array may end without its ']'.
 *
 * streamscope's own events carry their exact fields in args (ss_kind, stream, raw_stream, thread, flags,
 * correlation, bytes, unnamed), its kernels their launch (grid and block as [x, y, z] arrays, registers,
 * static_smem, dynamic_smem, full_name: handed over as an event of its own after the kernel's), and its M events the
 * entries of its stream table (ss_stream_kind, stream, raw_stream, device) and device table (ss_device, device_name,
 * uuid, copy_engines, context); other M events are skipped. Foreign events get their kind from the category and name
 * (CUDA runtime/driver calls -> API, *Synchronize -> SYNC, memcpy HtoD/DtoH/DtoD -> copies, memset, kernels, CPU
 * annotations -> host ranges); host-side ones go on the host lane with their tid as thread, GPU-side ones carry the key
 * of their (pid, tid) or (pid, args.stream) track; a foreign kernel with a correlation id and grid and block arrays in
 * its args (as PyTorch's profiler writes them) gets that launch. Names are interned in a table of the parser's own and
 * mapped to the timeline's by the caller, in file order. */
#include "io/import/chrome_parse.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yajl/yajl_parse.h>

#include "core/idmap.h"
#include "core/intern.h"
#include "core/vec.h"
#include "core/xalloc.h"
#include "io/import/importer.h"

/* |ns| of a ts or dur beyond this is absurd: the bound every importer keeps (importer.h), so that a SQLite trace
 * exported as JSON reads back. */
#define CHROME_MAX_NS ((int64_t)SS_IMPORT_MAX_NS)

/* The fields read: an event's, its args', otherData's. */
enum chrome_parse_slot {
	CP_PH,
	CP_TS,
	CP_DUR,
	CP_NAME,
	CP_CAT,
	CP_PID,
	CP_TID,
	CP_ARGS0, /* args from here */
	CP_SS_KIND = CP_ARGS0,
	CP_STREAM,
	CP_RAW_STREAM,
	CP_THREAD,
	CP_FLAGS,
	CP_CORRELATION,
	CP_BYTES,
	CP_UNNAMED,
	CP_CORRELATION_ID, /* "correlation id" */
	CP_CORRELATIONID,  /* "correlationId" */
	CP_BYTES_CAPITAL,  /* "Bytes" */
	CP_SIZE,           /* "size" */
	CP_STREAM_CAPITAL, /* "Stream" */
	CP_GPU,            /* "device": a record's device (streamscope's own events) */
	CP_PEER,           /* "peer": a peer copy's other device */
	CP_PEER_END,       /* "peer_end": the far end of a peer copy, drawn twice (not a record of its own) */
	CP_SS_STREAM_KIND, /* M: "ss_stream_kind", a stream's entry of the stream table */
	CP_SS_DEVICE,      /* M: "ss_device", a device's entry of the device table */
	CP_DEVICE_NAME,    /* M: "device_name" */
	CP_UUID,           /* M: "uuid" */
	CP_COPY_ENGINES,   /* M: "copy_engines" */
	CP_CONTEXT,        /* M: "context" */
	CP_GRID,           /* "grid": [x, y, z] blocks per grid (CV_ARRAY: x, y, z in the next 3 slots) */
	CP_GRID_X,         /* grid's x */
	CP_GRID_Y,         /* grid's y */
	CP_GRID_Z,         /* grid's z */
	CP_BLOCK,          /* "block": [x, y, z] threads per block, as grid */
	CP_BLOCK_X,        /* block's x */
	CP_BLOCK_Y,        /* block's y */
	CP_BLOCK_Z,        /* block's z */
	CP_REGISTERS,      /* "registers": per thread (streamscope's own events) */
	CP_STATIC_SMEM,    /* "static_smem" */
	CP_DYNAMIC_SMEM,   /* "dynamic_smem" */
	CP_FULL_NAME,      /* "full_name": a kernel's full (demangled) name */
	CP_OTHER0,         /* otherData from here */
	CP_GENERATOR = CP_OTHER0,
	CP_DEVICE,
	CP_MODELLED,
	CP_INCOMPLETE,
	CP_NSTREAMS,
	CP_DROPPED,
	CP_WALL_TRACED,          /* "wallTracedNs": record --twin */
	CP_WALL_UNTRACED,        /* "wallUntracedNs" */
	CP_STREAM_IDS,           /* "streamIds" */
	CP_DEVICE0_NAME,         /* "deviceName": device 0's entry of the device table (a trace of one device) */
	CP_DEVICE0_UUID,         /* "deviceUuid" */
	CP_DEVICE0_COPY_ENGINES, /* "deviceCopyEngines" */
	CP_DEVICE0_CONTEXT,      /* "deviceContext" */
	CP_NSLOTS,
	CP_NONE = -1, /* a value nobody reads */
	CP_ARGS = -2, /* the value of an event's "args" */
};

/* What a field held (JSON types, numbers kept as their text). CV_ARRAY: grid or block was an array of three
 * scalars, which are in the three slots after it. */
enum chrome_parse_type { CV_ABSENT, CV_NULL, CV_FALSE, CV_TRUE, CV_NUM, CV_STR, CV_ARRAY, CV_OTHER };

/* The text of a field: in the file, or (decoded from escapes) in the parser's arena. */
struct chrome_parse_val {
	const char *s; /* NULL: at off in the arena */
	size_t off, len;
};

/* Which top-level key's value comes next. */
enum chrome_parse_topkey { TK_NONE, TK_EVENTS, TK_OTHER };

/* Names read, by parser-local id (0 = none), and each one's id in the timeline once mapped (chrome_parse_name). */
struct chrome_parse_names {
	struct intern local;
	uint32_t *global; /* [id]: the timeline's id, 0 until mapped; nglobal == local.n */
	size_t nglobal, global_cap;
};

/* A parser. */
struct chrome_parse {
	const char *name; /* for messages */
	const char *base; /* the whole file */
	size_t len;
	bool slice;
	chrome_parse_emit_fn *emit;
	void *emit_arg;
	yajl_handle h;
	size_t chunk;  /* offset in base of the bytes being fed */
	bool flushing; /* in yajl_complete_parse: positions are the end */
	char *cause;

	/* structure */
	int depth; /* containers open */
	int ad;    /* depth inside the events array */
	char top;  /* '{', '[' or 0 before the first value */
	bool in_events, in_args, in_other, seen_events, bare, bare_end;
	enum chrome_parse_topkey topkey;
	int slot; /* where the next value goes: a chrome_parse_slot, CP_NONE or CP_ARGS */
	int dim;  /* CP_GRID or CP_BLOCK while its array is read, else CP_NONE */
	int ndim; /* elements of that array so far (past 3: not a dim3) */
	size_t events;

	/* the fields of the current event (or otherData) */
	uint8_t type[CP_NSLOTS];
	struct chrome_parse_val val[CP_NSLOTS];
	char *arena;
	size_t narena, caparena;

	struct chrome_parse_names names;
	struct idmap kinds; /* (name id << 32 | cat id) -> kind | host << 8 */
	struct chrome_ev *ev;
	size_t nev, capev;
	struct chrome_other other;
};

/* chrome_parse_pos is the offset in the file just past the token yajl has handed over. */
static size_t chrome_parse_pos(const struct chrome_parse *p)
{
	if (p->flushing)
		return p->len;
	return p->chunk + yajl_get_bytes_consumed(p->h);
}

/* chrome_parse_fail sets the cause ("file: what") unless one is set; returns 0, to cancel yajl. */
static int chrome_parse_fail(struct chrome_parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int chrome_parse_fail(struct chrome_parse *p, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (p->cause != NULL)
		return 0;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	p->cause = xasprintf("%s: %s", p->name, what);
	return 0;
}

static bool chrome_parse_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static size_t chrome_parse_ws(const struct chrome_parse *p, size_t q)
{
	while (q < p->len && chrome_parse_blank(p->base[q]))
		q++;
	return q;
}

/* Names. */

static void chrome_parse_names_init(struct chrome_parse_names *nm)
{
	memset(nm, 0, sizeof *nm);
	intern_init(&nm->local);
	*VEC_PUSH(nm->global, nm->nglobal, nm->global_cap, 16) = 0; /* "" is "" everywhere */
}

static void chrome_parse_names_free(struct chrome_parse_names *nm)
{
	intern_free(&nm->local);
	free(nm->global);
}

/* chrome_parse_intern returns the local id of the n bytes at s (no NUL among them: chrome_parse_nul); "" is 0. */
static uint32_t chrome_parse_intern(struct chrome_parse *p, const char *s, size_t n)
{
	struct chrome_parse_names *nm = &p->names;
	uint32_t id = intern_add(&nm->local, s, n);

	if (id == nm->nglobal) /* new: not mapped yet */
		*VEC_PUSH(nm->global, nm->nglobal, nm->global_cap, 16) = 0;
	return id;
}

uint32_t chrome_parse_name(struct chrome_parse *p, uint32_t local, struct ss_timeline *t)
{
	struct chrome_parse_names *nm = &p->names;

	if (local == 0 || local >= nm->nglobal)
		return 0;
	if (nm->global[local] == 0)
		nm->global[local] = timeline_intern(t, intern_str(&nm->local, local));
	return nm->global[local];
}

/* Field values. */

/* chrome_parse_keep stores the text of a value for slot (yajl's pointer when it is into the file, else a copy:
 * decoded escapes live in yajl's buffer only until the next token). */
static void chrome_parse_keep(struct chrome_parse *p, int slot, int type, const char *s, size_t n)
{
	struct chrome_parse_val *v = &p->val[slot];

	p->type[slot] = (uint8_t)type;
	v->len = n;
	if (n == 0) {
		v->s = "";
		return;
	}
	if ((uintptr_t)s >= (uintptr_t)p->base && (uintptr_t)s + n <= (uintptr_t)p->base + p->len) {
		v->s = s;
		return;
	}
	VEC_RESERVE(p->arena, p->narena, p->caparena, n, 64);
	memcpy(p->arena + p->narena, s, n);
	v->s = NULL;
	v->off = p->narena;
	p->narena += n;
}

static const char *chrome_parse_text(const struct chrome_parse *p, int slot)
{
	const struct chrome_parse_val *v = &p->val[slot];

	return v->s != NULL ? v->s : p->arena + v->off;
}

/* A number as JSON types go: an integer literal that fits int64 is an integer, anything else a real. */
struct chrome_parse_num {
	bool isint;
	int64_t i;
	double d;
};

/* chrome_parse_cstr copies the n bytes at s to a NUL-terminated string: into buf when they fit, else a new one
 * (the caller frees it when it is not buf). */
static char *chrome_parse_cstr(const char *s, size_t n, char *buf, size_t size)
{
	char *c = n < size ? buf : xmalloc(n + 1);

	memcpy(c, s, n);
	c[n] = '\0';
	return c;
}

/* chrome_parse_number reads a JSON number literal (as yajl checked it) of n bytes at s. */
static void chrome_parse_number(const char *s, size_t n, struct chrome_parse_num *out)
{
	char buf[64], *c, *end;
	size_t i = 0;
	bool neg = false;
	uint64_t u = 0;

	if (n > 0 && s[0] == '-') {
		neg = true;
		i = 1;
	}
	if (n - i >= 1 && n - i <= 18) {
		size_t j = i;

		for (; j < n && s[j] >= '0' && s[j] <= '9'; j++)
			u = u * 10 + (uint64_t)(s[j] - '0');
		if (j == n) {
			out->isint = true;
			out->i = neg ? -(int64_t)u : (int64_t)u;
			out->d = (double)out->i;
			return;
		}
	}
	c = chrome_parse_cstr(s, n, buf, sizeof buf);
	out->isint = false;
	if (strpbrk(c, ".eE") == NULL) {
		errno = 0;
		out->i = strtoll(c, &end, 10);
		if (errno == 0) {
			out->isint = true;
			out->d = (double)out->i;
		}
	}
	if (!out->isint)
		out->d = strtod(c, &end); /* overflow gives +-inf: absurd wherever a number matters */
	if (c != buf)
		free(c);
}

/* chrome_parse_decimal_ns turns a plain decimal literal of microseconds ("-12.5", "1234567.890") into exact ns
 * (a double would lose nanoseconds past 2^53), rounding half away from zero past the third decimal. false when it
 * is not that plain (exponent) or absurd: strtod then. */
static bool chrome_parse_decimal_ns(const char *s, size_t n, int64_t *ns)
{
	size_t i = 0, digits = 0;
	uint64_t whole = 0, frac = 0;
	int nfrac = 0;
	bool neg = false, up = false;

	if (i < n && s[i] == '-') {
		neg = true;
		i++;
	}
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (++digits > 16)
			return false;
		whole = whole * 10 + (uint64_t)(s[i] - '0');
	}
	/* past the bound's whole us and the next (which a double would round back onto the bound): absurd, and
	 * strtod says how much */
	if (digits == 0 || whole > (uint64_t)CHROME_MAX_NS / 1000 + 1)
		return false;
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			if (nfrac < 3) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				nfrac++;
			} else if (nfrac == 3) {
				up = s[i] >= '5';
				nfrac++;
			}
		}
	}
	if (i != n)
		return false;
	for (int k = nfrac; k < 3; k++)
		frac *= 10;
	*ns = (int64_t)(whole * 1000 + frac + (up ? 1 : 0));
	if (neg)
		*ns = -*ns;
	return true;
}

/* chrome_parse_absurd fails with an absurd time us of field what ("ts" or "dur"), saying what is valid. */
static void chrome_parse_absurd(struct chrome_parse *p, const char *what, double us)
{
	chrome_parse_fail(p, "event %zu: absurd %s %g us (valid: %s <= " SS_IMPORT_MAX_US_TEXT ", 2^62 ns)", p->events,
	                  what, us, strcmp(what, "ts") == 0 ? "|ts|" : "0 <= dur");
}

/* chrome_parse_time reads field slot, a time in microseconds (number or numeric string), as ns into *ns.
 * Returns 0, 1 when absent or null, -1 (cause set) when present but not a sane number. */
static int chrome_parse_time(struct chrome_parse *p, int slot, const char *what, int64_t *ns)
{
	const char *s;
	size_t n = p->val[slot].len;
	double us;

	if (p->type[slot] == CV_ABSENT || p->type[slot] == CV_NULL)
		return 1;
	if (p->type[slot] != CV_NUM && p->type[slot] != CV_STR) {
		chrome_parse_fail(p, "event %zu: %s is not a number", p->events, what);
		return -1;
	}
	s = chrome_parse_text(p, slot);
	if (p->type[slot] == CV_NUM) {
		struct chrome_parse_num num;

		if (chrome_parse_decimal_ns(s, n, ns)) {
			if (llabs(*ns) <= CHROME_MAX_NS)
				return 0;
			chrome_parse_absurd(p, what, (double)*ns / 1000.0);
			return -1;
		}
		chrome_parse_number(s, n, &num);
		us = num.d;
	} else {
		char buf[64], *c = chrome_parse_cstr(s, n, buf, sizeof buf), *endp;
		bool bad;

		errno = 0;
		us = strtod(c, &endp);
		bad = endp == c || *endp != '\0' || errno != 0;
		if (c != buf)
			free(c);
		if (bad) {
			chrome_parse_fail(p, "event %zu: %s is not a number", p->events, what);
			return -1;
		}
	}
	if (!isfinite(us) || fabs(us) * 1000.0 > (double)CHROME_MAX_NS) {
		chrome_parse_absurd(p, what, us);
		return -1;
	}
	*ns = llround(us * 1000.0);
	return 0;
}

/* chrome_parse_uint reads an optional non-negative integer field (0 when absent or not a number). */
static uint64_t chrome_parse_uint(const struct chrome_parse *p, int slot)
{
	struct chrome_parse_num num;

	if (p->type[slot] != CV_NUM)
		return 0;
	chrome_parse_number(chrome_parse_text(p, slot), p->val[slot].len, &num);
	if (num.isint)
		return num.i > 0 ? (uint64_t)num.i : 0;
	return num.d > 0 && num.d < 1.8e19 ? (uint64_t)num.d : 0;
}

/* chrome_parse_id reads a pid or tid: integers as they are, string ids hashed, absent 0. */
static uint64_t chrome_parse_id(const struct chrome_parse *p, int slot)
{
	struct chrome_parse_num num;

	if (p->type[slot] == CV_STR) {
		const char *s = chrome_parse_text(p, slot);
		uint64_t h = 1469598103934665603ull;

		for (size_t i = 0; i < p->val[slot].len; i++)
			h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
		return h;
	}
	if (p->type[slot] != CV_NUM)
		return 0;
	chrome_parse_number(chrome_parse_text(p, slot), p->val[slot].len, &num);
	if (num.isint)
		return (uint64_t)num.i;
	/* out-of-range conversions are undefined: such ids are absurd anyway, they share one value */
	return isfinite(num.d) && fabs(num.d) < 9e18 ? (uint64_t)(int64_t)num.d : UINT64_MAX;
}

/* chrome_parse_first returns the first of the args slots given that is present, CP_NONE if none. */
static int chrome_parse_first(const struct chrome_parse *p, int a, int b, int c)
{
	if (p->type[a] != CV_ABSENT)
		return a;
	if (p->type[b] != CV_ABSENT)
		return b;
	if (c != CP_NONE && p->type[c] != CV_ABSENT)
		return c;
	return CP_NONE;
}

static bool chrome_parse_has(const char *s, const char *needle)
{
	return strcasestr(s, needle) != NULL;
}

/* chrome_parse_classify guesses the kind of a foreign event from its category and name ("" when absent); *host
 * says it is host-side. */
static int chrome_parse_classify(const char *name, const char *cat, bool *host)
{
	bool api = (strncmp(name, "cuda", 4) == 0 && name[4] >= 'A' && name[4] <= 'Z') ||
	           (strncmp(name, "cu", 2) == 0 && name[2] >= 'A' && name[2] <= 'Z') ||
	           chrome_parse_has(cat, "runtime") || chrome_parse_has(cat, "driver") ||
	           chrome_parse_has(cat, "cuda_api");

	*host = true;
	if (api)
		return chrome_parse_has(name, "Synchronize") ? SS_KIND_SYNC : SS_KIND_API;
	if (chrome_parse_has(cat, "sync"))
		return SS_KIND_SYNC;
	if (chrome_parse_has(cat, "cpu_op") || chrome_parse_has(cat, "python") || chrome_parse_has(cat, "annotation") ||
	    chrome_parse_has(cat, "nvtx") || chrome_parse_has(cat, "marker"))
		return SS_KIND_MARKER;
	*host = false;
	if (chrome_parse_has(cat, "memset") || chrome_parse_has(name, "memset"))
		return SS_KIND_MEMSET;
	if (chrome_parse_has(cat, "memcpy") || chrome_parse_has(name, "memcpy") || chrome_parse_has(cat, "copy") ||
	    chrome_parse_has(name, "HtoD") || chrome_parse_has(name, "DtoH") || chrome_parse_has(name, "DtoD") ||
	    chrome_parse_has(name, "H2D") || chrome_parse_has(name, "D2H") || chrome_parse_has(name, "D2D")) {
		if (chrome_parse_has(name, "HtoD") || chrome_parse_has(name, "H2D") ||
		    chrome_parse_has(name, "Host to Device") || chrome_parse_has(name, "Host-to-Device"))
			return SS_KIND_H2D;
		if (chrome_parse_has(name, "DtoH") || chrome_parse_has(name, "D2H") ||
		    chrome_parse_has(name, "Device to Host") || chrome_parse_has(name, "Device-to-Host"))
			return SS_KIND_D2H;
		return SS_KIND_D2D;
	}
	return SS_KIND_KERNEL; /* kernels, and generic work on a track of its own */
}

/* chrome_parse_track_key mixes a pid, a tid (or stream) and a tag (0: GPU track by tid, 1: by stream, 2: B/E
 * stack of a thread) into one track key. */
static uint64_t chrome_parse_track_key(uint64_t pid, uint64_t tid, unsigned tag)
{
	uint64_t h = pid * 0x9e3779b97f4a7c15ull;

	h ^= (tid + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2)) * 0xbf58476d1ce4e5b9ull;
	return h ^ ((uint64_t)tag * 0x94d049bb133111ebull);
}

/* chrome_parse_str_id interns the string field slot (0 when it is not a string). */
static uint32_t chrome_parse_str_id(struct chrome_parse *p, int slot)
{
	if (p->type[slot] != CV_STR)
		return 0;
	return chrome_parse_intern(p, chrome_parse_text(p, slot), p->val[slot].len);
}

/* chrome_parse_fill sets kind, stream, thread, name and the args-derived fields of an X or B event. 0, or -1. */
static int chrome_parse_fill(struct chrome_parse *p, struct chrome_ev *e)
{
	struct ss_record *r = &e->r;

	if (p->type[CP_SS_KIND] == CV_STR) {
		/* streamscope's own event: exact fields */
		char kbuf[32];
		int kind = -1;
		int64_t stream = SS_STREAM_UNKNOWN;

		const char *ks = chrome_parse_text(p, CP_SS_KIND);
		size_t kn = p->val[CP_SS_KIND].len;

		/* the names streamscope writes, before the case-insensitive search */
		for (int k = 0; k < SS_KIND_COUNT && kind < 0; k++)
			if (strlen(record_kind_name(k)) == kn && memcmp(record_kind_name(k), ks, kn) == 0)
				kind = k;
		if (kind < 0 && kn < sizeof kbuf) {
			chrome_parse_cstr(ks, kn, kbuf, sizeof kbuf);
			kind = record_kind_parse(kbuf);
		}
		if (kind < 0)
			return chrome_parse_fail(p, "event %zu: unknown ss_kind", p->events), -1;
		if (p->type[CP_STREAM] == CV_NUM) {
			struct chrome_parse_num num;

			chrome_parse_number(chrome_parse_text(p, CP_STREAM), p->val[CP_STREAM].len, &num);
			if (num.isint)
				stream = num.i;
		}
		if (stream < SS_STREAM_UNKNOWN || stream >= SS_IMPORT_MAX_STREAMS)
			return chrome_parse_fail(p, "event %zu: absurd stream index", p->events), -1;
		r->kind = (uint8_t)kind;
		r->stream = (int32_t)stream;
		r->raw_stream = (uint32_t)chrome_parse_uint(p, CP_RAW_STREAM);
		r->thread = (uint32_t)chrome_parse_uint(p, CP_THREAD);
		r->flags = (uint8_t)chrome_parse_uint(p, CP_FLAGS);
		r->correlation = (uint32_t)chrome_parse_uint(p, CP_CORRELATION);
		r->bytes = chrome_parse_uint(p, CP_BYTES);
		{
			uint64_t dev = chrome_parse_uint(p, CP_GPU), peer = chrome_parse_uint(p, CP_PEER);

			if (dev > UINT8_MAX || peer > UINT8_MAX)
				return chrome_parse_fail(p, "event %zu: device or peer past 255", p->events), -1;
			r->device = (uint8_t)dev;
			r->peer = (r->flags & SS_REC_PEER) ? (uint8_t)peer : 0;
		}
		if (p->type[CP_UNNAMED] == CV_ABSENT)
			r->name = chrome_parse_str_id(p, CP_NAME);
		return 0;
	}
	{
		uint32_t cat = chrome_parse_str_id(p, CP_CAT), v;
		uint64_t key;
		bool host;
		int slot;

		r->name = chrome_parse_str_id(p, CP_NAME);
		key = (uint64_t)r->name << 32 | cat;
		if (idmap_get(&p->kinds, key, &v)) {
			host = (v >> 8) != 0;
		} else {
			v = (uint32_t)chrome_parse_classify(intern_str(&p->names.local, r->name),
			                                    intern_str(&p->names.local, cat), &host);
			v |= host ? 1u << 8 : 0;
			idmap_put(&p->kinds, key, v);
		}
		r->kind = (uint8_t)(v & 0xff);
		slot = chrome_parse_first(p, CP_CORRELATION, CP_CORRELATION_ID, CP_CORRELATIONID);
		r->correlation = slot == CP_NONE ? 0 : (uint32_t)chrome_parse_uint(p, slot);
		slot = chrome_parse_first(p, CP_BYTES, CP_BYTES_CAPITAL, CP_SIZE);
		r->bytes = slot == CP_NONE ? 0 : chrome_parse_uint(p, slot);
		if (host) {
			r->stream = SS_STREAM_HOST;
			r->thread = (uint32_t)chrome_parse_id(p, CP_TID);
			r->raw_stream = 0;
		} else {
			struct chrome_parse_num num = {0};

			slot = chrome_parse_first(p, CP_STREAM, CP_STREAM_CAPITAL, CP_NONE);
			if (slot != CP_NONE && p->type[slot] == CV_NUM)
				chrome_parse_number(chrome_parse_text(p, slot), p->val[slot].len, &num);
			e->track = num.isint ? chrome_parse_track_key(chrome_parse_id(p, CP_PID), (uint64_t)num.i, 1)
			                     : chrome_parse_track_key(chrome_parse_id(p, CP_PID),
			                                              chrome_parse_id(p, CP_TID), 0);
			e->gpu = true;
			r->stream = SS_STREAM_PENDING;
		}
	}
	return 0;
}

/* chrome_parse_hand hands event e over: to the emit function, or to the collected events. 1 to go on, 0 when the
 * emit function failed (cause set). */
static int chrome_parse_hand(struct chrome_parse *p, const struct chrome_ev *e)
{
	if (p->emit != NULL)
		return p->emit(p->emit_arg, p, e, &p->cause) == 0;
	*VEC_PUSH(p->ev, p->nev, p->capev, 1024) = *e;
	return 1;
}

/* chrome_parse_int_in reads field slot as an integer within [lo, hi] into *v; false when it is absent, not an
 * integer or out of range. */
static bool chrome_parse_int_in(const struct chrome_parse *p, int slot, int64_t lo, int64_t hi, int64_t *v)
{
	struct chrome_parse_num num;

	if (p->type[slot] != CV_NUM)
		return false;
	chrome_parse_number(chrome_parse_text(p, slot), p->val[slot].len, &num);
	if (!num.isint || num.i < lo || num.i > hi)
		return false;
	*v = num.i;
	return true;
}

/* chrome_parse_stream_kind reads the stream kind named by field slot (timeline_stream_kind_name's names); a name
 * it does not know is SS_SKIND_UNKNOWN. */
static uint8_t chrome_parse_stream_kind(const struct chrome_parse *p, int slot)
{
	const char *s = chrome_parse_text(p, slot);
	size_t n = p->val[slot].len;

	for (int k = 0; k < SS_SKIND_COUNT; k++)
		if (strlen(timeline_stream_kind_name(k)) == n && memcmp(timeline_stream_kind_name(k), s, n) == 0)
			return (uint8_t)k;
	return SS_SKIND_UNKNOWN;
}

/* chrome_parse_meta hands over the table entry that the M event which just ended carries in its args (a stream's:
 * ss_stream_kind; a device's: ss_device), and skips any other M event, and entries whose index, raw id or device
 * is out of range (a description never makes a trace unreadable); an optional field out of range reads as not
 * said. Returns 1 to go on, 0 when the emit function failed (cause set). */
static int chrome_parse_meta(struct chrome_parse *p)
{
	struct chrome_ev e;
	struct chrome_meta *m = &e.m;
	int64_t index, v;

	memset(&e, 0, sizeof e);
	e.ph = 'M';
	e.ordinal = (uint32_t)p->events;
	if (p->type[CP_SS_STREAM_KIND] == CV_STR) {
		if (!chrome_parse_int_in(p, CP_STREAM, 0, SS_IMPORT_MAX_STREAMS - 1, &index) ||
		    !chrome_parse_int_in(p, CP_RAW_STREAM, 0, UINT32_MAX, &v))
			return 1;
		m->raw_stream = (uint32_t)v;
		if (p->type[CP_GPU] != CV_ABSENT) {
			if (!chrome_parse_int_in(p, CP_GPU, 0, UINT8_MAX, &v))
				return 1;
			m->device = (uint8_t)v;
		}
		m->kind = chrome_parse_stream_kind(p, CP_SS_STREAM_KIND);
	} else if (p->type[CP_SS_DEVICE] == CV_NUM) {
		if (!chrome_parse_int_in(p, CP_SS_DEVICE, 0, SS_TIMELINE_MAX_DEVICES - 1, &index))
			return 1;
		m->is_device = true;
		m->name = chrome_parse_str_id(p, CP_DEVICE_NAME);
		m->uuid = chrome_parse_str_id(p, CP_UUID);
		if (chrome_parse_int_in(p, CP_COPY_ENGINES, 1, 64, &v))
			m->copy_engines = (int)v;
		if (chrome_parse_int_in(p, CP_CONTEXT, 0, UINT32_MAX, &v))
			m->context = (uint32_t)v;
	} else {
		return 1;
	}
	m->index = (int)index;
	return chrome_parse_hand(p, &e);
}

/* chrome_parse_dim3 reads grid or block (slot, CV_ARRAY) into v: three integers of 1..2^32-1 (no launch has a
 * dimension of 0). false when it is anything else. */
static bool chrome_parse_dim3(const struct chrome_parse *p, int slot, uint32_t v[3])
{
	int64_t x;

	if (p->type[slot] != CV_ARRAY)
		return false;
	for (int i = 0; i < 3; i++) {
		if (!chrome_parse_int_in(p, slot + 1 + i, 1, UINT32_MAX, &x))
			return false;
		v[i] = (uint32_t)x;
	}
	return true;
}

/* chrome_parse_launch hands over the launch that the args of kernel r's X event (which just ended, and was handed
 * over) carry: grid and block, in any trace; in streamscope's own events (ss_kind) also registers, static_smem and
 * dynamic_smem (SS_LAUNCH_ATTRS when all three are integers of 32 bits) and full_name. Nothing when grid or block
 * is missing or not three integers of 1..2^32-1, nor for a foreign kernel without a correlation id (the key that
 * ties a launch to its kernel would be shared by every kernel of its track): a launch never makes a trace
 * unreadable. Returns 1 to go on, 0 when the emit function failed (cause set). */
static int chrome_parse_launch(struct chrome_parse *p, const struct ss_record *r)
{
	struct chrome_ev e;
	struct chrome_launch *l = &e.l;
	bool own = p->type[CP_SS_KIND] == CV_STR;
	int64_t reg, ssm, dsm;

	memset(&e, 0, sizeof e);
	if (r->kind != SS_KIND_KERNEL || (!own && r->correlation == 0) || !chrome_parse_dim3(p, CP_GRID, l->grid) ||
	    !chrome_parse_dim3(p, CP_BLOCK, l->block))
		return 1;
	e.ph = 'L';
	e.ordinal = (uint32_t)p->events;
	if (own && chrome_parse_int_in(p, CP_REGISTERS, 0, UINT32_MAX, &reg) &&
	    chrome_parse_int_in(p, CP_STATIC_SMEM, 0, UINT32_MAX, &ssm) &&
	    chrome_parse_int_in(p, CP_DYNAMIC_SMEM, 0, UINT32_MAX, &dsm)) {
		l->registers = (uint32_t)reg;
		l->static_smem = (uint32_t)ssm;
		l->dynamic_smem = (uint32_t)dsm;
		l->flags = SS_LAUNCH_ATTRS;
	}
	if (own)
		l->full_name = chrome_parse_str_id(p, CP_FULL_NAME);
	return chrome_parse_hand(p, &e);
}

/* chrome_parse_event turns the fields of the event that just ended into a chrome_ev and hands it over, and after
 * a kernel's X event the launch its args carry (chrome_parse_launch). Returns 1 to go on, 0 on failure (cause
 * set). */
static int chrome_parse_event(struct chrome_parse *p)
{
	struct chrome_ev e;
	int64_t ts, dur = 0;
	char ph;
	int rc;

	if (p->type[CP_PH] != CV_STR || p->val[CP_PH].len != 1)
		return 1;
	ph = *chrome_parse_text(p, CP_PH);
	if (ph == 'M')
		return chrome_parse_meta(p);
	if (ph != 'X' && ph != 'B' && ph != 'E')
		return 1; /* instants, counters, flows, async: not intervals */
	if (p->type[CP_PEER_END] != CV_ABSENT)
		return 1; /* our export's second drawing of a peer copy, on its far device: the record is the other */
	rc = chrome_parse_time(p, CP_TS, "ts", &ts);
	if (rc < 0)
		return 0;
	if (rc > 0)
		return chrome_parse_fail(p, "event %zu: no ts", p->events);
	memset(&e, 0, sizeof e);
	e.ph = ph;
	e.ordinal = (uint32_t)p->events;
	e.r.start = CHROME_BIAS + (uint64_t)ts;
	if (ph == 'E') {
		e.stack = chrome_parse_track_key(chrome_parse_id(p, CP_PID), chrome_parse_id(p, CP_TID), 2);
	} else {
		if (chrome_parse_fill(p, &e) != 0)
			return 0;
		if (ph == 'X') {
			rc = chrome_parse_time(p, CP_DUR, "dur", &dur);
			if (rc < 0)
				return 0;
			if (dur < 0)
				return chrome_parse_fail(p, "event %zu: negative duration (valid: dur >= 0)",
				                         p->events);
			e.r.end = e.r.start + (uint64_t)dur;
		} else {
			e.stack = chrome_parse_track_key(chrome_parse_id(p, CP_PID), chrome_parse_id(p, CP_TID), 2);
		}
	}
	if (!chrome_parse_hand(p, &e))
		return 0;
	return ph == 'X' ? chrome_parse_launch(p, &e.r) : 1;
}

/* chrome_parse_copy copies string field slot into buf (size bytes, cut to fit), when it is a string. */
static void chrome_parse_copy(const struct chrome_parse *p, int slot, char *buf, size_t size)
{
	size_t n = p->val[slot].len;

	if (p->type[slot] != CV_STR)
		return;
	n = n < size - 1 ? n : size - 1;
	memcpy(buf, chrome_parse_text(p, slot), n);
	buf[n] = '\0';
}

/* chrome_parse_other_done reads streamscope's labels from the otherData object that just ended. */
static void chrome_parse_other_done(struct chrome_parse *p)
{
	struct chrome_other *o = &p->other;
	int64_t v;

	chrome_parse_copy(p, CP_DEVICE, o->device, sizeof o->device);
	if (p->type[CP_GENERATOR] != CV_STR || p->val[CP_GENERATOR].len < 11 ||
	    memcmp(chrome_parse_text(p, CP_GENERATOR), "streamscope", 11) != 0)
		return;
	o->own = true;
	o->modelled = p->type[CP_MODELLED] == CV_TRUE;
	o->incomplete = p->type[CP_INCOMPLETE] == CV_TRUE;
	if (p->type[CP_NSTREAMS] == CV_NUM) {
		struct chrome_parse_num num;

		chrome_parse_number(chrome_parse_text(p, CP_NSTREAMS), p->val[CP_NSTREAMS].len, &num);
		if (num.isint && num.i > 0 && num.i <= SS_IMPORT_MAX_STREAMS)
			o->nstreams = (int)num.i;
	}
	o->dropped = chrome_parse_uint(p, CP_DROPPED);
	o->wall_traced_ns = chrome_parse_uint(p, CP_WALL_TRACED);
	o->wall_untraced_ns = chrome_parse_uint(p, CP_WALL_UNTRACED);
	if (p->type[CP_STREAM_IDS] == CV_TRUE || p->type[CP_STREAM_IDS] == CV_FALSE) {
		o->has_stream_ids = true;
		o->stream_ids = p->type[CP_STREAM_IDS] == CV_TRUE;
	}
	if (p->type[CP_DEVICE0_NAME] == CV_STR) {
		o->has_device0 = true;
		chrome_parse_copy(p, CP_DEVICE0_NAME, o->device0.name, sizeof o->device0.name);
		chrome_parse_copy(p, CP_DEVICE0_UUID, o->device0.uuid, sizeof o->device0.uuid);
		if (chrome_parse_int_in(p, CP_DEVICE0_COPY_ENGINES, 1, 64, &v))
			o->device0.copy_engines = (int)v;
		if (chrome_parse_int_in(p, CP_DEVICE0_CONTEXT, 0, UINT32_MAX, &v))
			o->device0.context = (uint32_t)v;
	}
}

/* The structure between values, looked at directly. Each returns 1 when fine, else 0 with the cause set. */

/* chrome_parse_element checks that an element of the events array starts at q (after blanks). */
static int chrome_parse_element(struct chrome_parse *p, size_t q)
{
	if (q >= p->len) {
		if (p->bare) {
			p->bare_end = true; /* Chrome lets the closing bracket go missing */
			return 1;
		}
		return chrome_parse_fail(p, "truncated: traceEvents array not closed");
	}
	if (p->base[q] != '{')
		return chrome_parse_fail(p, "event %zu at byte %zu is not an object", p->events + 1, q);
	return 1;
}

static int chrome_parse_events_start(struct chrome_parse *p)
{
	size_t q = chrome_parse_ws(p, chrome_parse_pos(p));

	if (q < p->len && p->base[q] == ']')
		return 1;
	return chrome_parse_element(p, q);
}

/* chrome_parse_after_event looks past an event in the events array: a ',' goes on to the next element, a ']'
 * ends the array (1), the end of the input leaves it to the caller; anything else is an error. */
static int chrome_parse_after_event(struct chrome_parse *p)
{
	size_t q = chrome_parse_ws(p, chrome_parse_pos(p));

	if (q < p->len && p->base[q] == ',')
		return chrome_parse_element(p, chrome_parse_ws(p, q + 1));
	if (q < p->len && p->base[q] == ']')
		return 1;
	if (q >= p->len)
		return chrome_parse_element(p, q);
	return chrome_parse_fail(p, "invalid JSON at byte %zu: expected ',' or ']' after event %zu", q, p->events);
}

/* chrome_parse_key checks that a key string and its ':' start at q (after blanks) in the top-level object. */
static int chrome_parse_key(struct chrome_parse *p, size_t q)
{
	size_t r = q + 1;

	if (q >= p->len)
		return chrome_parse_fail(p, "truncated JSON (object not closed)");
	if (p->base[q] != '"')
		return chrome_parse_fail(p, "invalid JSON at byte %zu: expected a key string", q);
	while (r < p->len && p->base[r] != '"')
		r += p->base[r] == '\\' ? 2 : 1;
	if (r >= p->len)
		return chrome_parse_fail(p, "truncated JSON at byte %zu (unterminated key)", q);
	r = chrome_parse_ws(p, r + 1);
	if (r >= p->len || p->base[r] != ':')
		return chrome_parse_fail(p, "invalid JSON at byte %zu: expected ':'", r);
	return 1;
}

static int chrome_parse_object_start(struct chrome_parse *p)
{
	size_t q = chrome_parse_ws(p, chrome_parse_pos(p));

	if (q < p->len && p->base[q] == '}')
		return chrome_parse_fail(p, "no traceEvents: not a Chrome trace");
	return chrome_parse_key(p, q);
}

/* chrome_parse_after_value goes on after a top-level value: to the next key after a ',', 1 at the top object's
 * closing '}', else the parse fails naming what was expected where. */
static int chrome_parse_after_value(struct chrome_parse *p)
{
	size_t q = chrome_parse_ws(p, chrome_parse_pos(p));

	p->topkey = TK_NONE;
	if (q < p->len && p->base[q] == ',')
		return chrome_parse_key(p, chrome_parse_ws(p, q + 1));
	if (q < p->len && p->base[q] == '}')
		return 1;
	if (q >= p->len)
		return chrome_parse_fail(p, "truncated JSON (object not closed)");
	return chrome_parse_fail(p, "invalid JSON at byte %zu: expected ',' or '}'", q);
}

/* chrome_parse_end is the end of the top-level value. */
static int chrome_parse_end(struct chrome_parse *p)
{
	if (p->slice)
		return chrome_parse_fail(p, "the events array ends in this slice");
	if (p->top == '{' && !p->seen_events)
		return chrome_parse_fail(p, "no traceEvents: not a Chrome trace");
	if (chrome_parse_ws(p, chrome_parse_pos(p)) < p->len)
		return chrome_parse_fail(p, "trailing data after the JSON");
	return 1;
}

/* yajl callbacks. */

/* chrome_parse_scalar takes a null, boolean, number or string value: a field's, or an element of grid or block. */
static int chrome_parse_scalar(struct chrome_parse *p, int type, const char *s, size_t n)
{
	if (p->dim != CP_NONE && p->depth == p->ad + 3) {
		if (p->ndim < 3)
			chrome_parse_keep(p, p->dim + 1 + p->ndim, type, s, n);
		p->ndim++;
		return 1;
	}
	if (p->slot >= 0) {
		chrome_parse_keep(p, p->slot, type, s, n);
		p->slot = CP_NONE;
		return 1;
	}
	p->slot = CP_NONE;
	if (p->depth == 1 && p->top == '{')
		return chrome_parse_after_value(p);
	return 1;
}

static int chrome_parse_cb_null(void *ctx)
{
	return chrome_parse_scalar(ctx, CV_NULL, "", 0);
}

static int chrome_parse_cb_boolean(void *ctx, int b)
{
	return chrome_parse_scalar(ctx, b ? CV_TRUE : CV_FALSE, "", 0);
}

static int chrome_parse_cb_number(void *ctx, const char *s, size_t n)
{
	return chrome_parse_scalar(ctx, CV_NUM, s, n);
}

/* chrome_parse_nul refuses a string that decoded to one with a NUL (\u0000): names are C strings. Only decoded
 * strings (not pointing into the file) can hold one: yajl refuses raw control characters. */
static bool chrome_parse_nul(struct chrome_parse *p, const unsigned char *s, size_t n)
{
	if ((uintptr_t)s >= (uintptr_t)p->base && (uintptr_t)s + n <= (uintptr_t)p->base + p->len)
		return false;
	if (memchr(s, '\0', n) == NULL)
		return false;
	chrome_parse_fail(p, "invalid JSON at byte %zu: \\u0000 in a string", chrome_parse_pos(p));
	return true;
}

static int chrome_parse_cb_string(void *ctx, const unsigned char *s, size_t n)
{
	struct chrome_parse *p = ctx;

	if (chrome_parse_nul(p, s, n))
		return 0;
	return chrome_parse_scalar(p, CV_STR, (const char *)s, n);
}

/* CP_KEY, in a switch on the key's length n: key k (of that length) is the literal lit, whose slot it returns. */
#define CP_KEY(lit, slot)                                                                                              \
	if (memcmp(k, lit, sizeof lit - 1) == 0)                                                                       \
		return slot;

/* chrome_parse_event_key maps a key of an event to its slot. */
static int chrome_parse_event_key(const char *k, size_t n)
{
	switch (n) {
	case 2:
		CP_KEY("ph", CP_PH)
		CP_KEY("ts", CP_TS)
		break;
	case 3:
		CP_KEY("dur", CP_DUR)
		CP_KEY("pid", CP_PID)
		CP_KEY("tid", CP_TID)
		CP_KEY("cat", CP_CAT)
		break;
	case 4:
		CP_KEY("name", CP_NAME)
		CP_KEY("args", CP_ARGS)
		break;
	}
	return CP_NONE;
}

/* chrome_parse_args_key maps a key of an event's args to its slot. */
static int chrome_parse_args_key(const char *k, size_t n)
{
	switch (n) {
	case 4:
		CP_KEY("size", CP_SIZE)
		CP_KEY("peer", CP_PEER)
		CP_KEY("uuid", CP_UUID)
		CP_KEY("grid", CP_GRID)
		break;
	case 5:
		CP_KEY("bytes", CP_BYTES)
		CP_KEY("flags", CP_FLAGS)
		CP_KEY("Bytes", CP_BYTES_CAPITAL)
		CP_KEY("block", CP_BLOCK)
		break;
	case 6:
		CP_KEY("stream", CP_STREAM)
		CP_KEY("thread", CP_THREAD)
		CP_KEY("Stream", CP_STREAM_CAPITAL)
		CP_KEY("device", CP_GPU)
		break;
	case 8:
		CP_KEY("peer_end", CP_PEER_END)
		break;
	case 7:
		CP_KEY("ss_kind", CP_SS_KIND)
		CP_KEY("unnamed", CP_UNNAMED)
		CP_KEY("context", CP_CONTEXT)
		break;
	case 9:
		CP_KEY("ss_device", CP_SS_DEVICE)
		CP_KEY("registers", CP_REGISTERS)
		CP_KEY("full_name", CP_FULL_NAME)
		break;
	case 10:
		CP_KEY("raw_stream", CP_RAW_STREAM)
		break;
	case 11:
		CP_KEY("correlation", CP_CORRELATION)
		CP_KEY("device_name", CP_DEVICE_NAME)
		CP_KEY("static_smem", CP_STATIC_SMEM)
		break;
	case 12:
		CP_KEY("copy_engines", CP_COPY_ENGINES)
		CP_KEY("dynamic_smem", CP_DYNAMIC_SMEM)
		break;
	case 13:
		CP_KEY("correlationId", CP_CORRELATIONID)
		break;
	case 14:
		CP_KEY("correlation id", CP_CORRELATION_ID)
		CP_KEY("ss_stream_kind", CP_SS_STREAM_KIND)
		break;
	}
#undef CP_KEY
	return CP_NONE;
}

/* chrome_parse_other_key maps a key of otherData to its slot. */
static int chrome_parse_other_key(const char *k, size_t n)
{
	static const struct {
		const char *key;
		int slot;
	} keys[] = {
	    {"generator", CP_GENERATOR},
	    {"device", CP_DEVICE},
	    {"modelled", CP_MODELLED},
	    {"incomplete", CP_INCOMPLETE},
	    {"nstreams", CP_NSTREAMS},
	    {"dropped", CP_DROPPED},
	    {"wallTracedNs", CP_WALL_TRACED},
	    {"wallUntracedNs", CP_WALL_UNTRACED},
	    {"streamIds", CP_STREAM_IDS},
	    {"deviceName", CP_DEVICE0_NAME},
	    {"deviceUuid", CP_DEVICE0_UUID},
	    {"deviceCopyEngines", CP_DEVICE0_COPY_ENGINES},
	    {"deviceContext", CP_DEVICE0_CONTEXT},
	};

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strlen(keys[i].key) == n && memcmp(keys[i].key, k, n) == 0)
			return keys[i].slot;
	return CP_NONE;
}

/* yajl callbacks. Each returns 1 to go on, 0 (with p->cause set) to stop the parse. map_key: which slot, if any,
 * the next value fills, by depth and key. */
static int chrome_parse_cb_map_key(void *ctx, const unsigned char *key, size_t n)
{
	struct chrome_parse *p = ctx;
	const char *k = (const char *)key;

	if (chrome_parse_nul(p, key, n))
		return 0;
	p->slot = CP_NONE;
	if (p->in_events) {
		if (p->depth == p->ad + 1) {
			p->slot = chrome_parse_event_key(k, n);
			if (p->slot == CP_ARGS) /* a later "args" replaces an earlier one */
				memset(p->type + CP_ARGS0, CV_ABSENT, CP_OTHER0 - CP_ARGS0);
		} else if (p->in_args && p->depth == p->ad + 2) {
			p->slot = chrome_parse_args_key(k, n);
		}
		return 1;
	}
	if (p->in_other) {
		if (p->depth == 2)
			p->slot = chrome_parse_other_key(k, n);
		return 1;
	}
	if (p->depth == 1 && p->top == '{') {
		if (n == 11 && memcmp(k, "traceEvents", 11) == 0) {
			size_t q;

			if (p->seen_events)
				return chrome_parse_fail(p, "two traceEvents arrays");
			p->seen_events = true;
			q = chrome_parse_ws(p, chrome_parse_pos(p));
			q = chrome_parse_ws(p, q + 1); /* past the ':' chrome_parse_key saw */
			if (q >= p->len || p->base[q] != '[')
				return chrome_parse_fail(p, "traceEvents is not an array");
			p->topkey = TK_EVENTS;
		} else if ((n == 9 && memcmp(k, "otherData", 9) == 0) || (n == 8 && memcmp(k, "metadata", 8) == 0)) {
			p->topkey = TK_OTHER;
		} else {
			p->topkey = TK_NONE;
		}
	}
	return 1;
}

/* chrome_parse_deeper opens a container; the depth it opens at, -1 (p->cause set) past the depth limit. */
static int chrome_parse_deeper(struct chrome_parse *p)
{
	if (p->depth >= CHROME_MAX_DEPTH) {
		chrome_parse_fail(p, "invalid JSON at byte %zu: nesting depth over %d", chrome_parse_pos(p) - 1,
		                  CHROME_MAX_DEPTH); /* the offending bracket's own offset */
		return -1;
	}
	return p->depth++;
}

/* chrome_parse_unread: the value of the pending key is a container none of ours reads; no key is pending after. */
static void chrome_parse_unread(struct chrome_parse *p)
{
	if (p->slot >= 0)
		p->type[p->slot] = CV_OTHER;
	p->slot = CP_NONE;
}

/* start_map: an event, args or otherData object opens (or a value nobody reads); depth is capped. */
static int chrome_parse_cb_start_map(void *ctx)
{
	struct chrome_parse *p = ctx;
	int d = chrome_parse_deeper(p);

	if (d < 0)
		return 0;
	if (p->in_events && d == p->ad) {
		/* an event */
		p->events++;
		memset(p->type, CV_ABSENT, CP_OTHER0);
		p->narena = 0;
		p->slot = CP_NONE;
		p->dim = CP_NONE;
		return 1;
	}
	if (p->dim != CP_NONE && d == p->ad + 3)
		p->ndim = 4; /* an element that is an object: not a dim3 */
	if (p->slot == CP_ARGS) {
		p->in_args = true;
		p->slot = CP_NONE;
		return 1;
	}
	chrome_parse_unread(p);
	if (d == 0) {
		p->top = '{';
		return chrome_parse_object_start(p);
	}
	if (d == 1 && p->top == '{' && p->topkey == TK_OTHER) {
		p->in_other = true;
		memset(p->type + CP_OTHER0, CV_ABSENT, CP_NSLOTS - CP_OTHER0);
		p->narena = 0;
	}
	return 1;
}

/* end_map: an event closes (it is stored) or an inner object does. */
static int chrome_parse_cb_end_map(void *ctx)
{
	struct chrome_parse *p = ctx;
	int d = --p->depth;

	p->slot = CP_NONE;
	if (p->in_events) {
		if (d == p->ad) {
			p->in_args = false;
			if (!chrome_parse_event(p))
				return 0;
			return chrome_parse_after_event(p);
		}
		if (p->in_args && d == p->ad + 1)
			p->in_args = false;
		return 1;
	}
	if (d == 1 && p->in_other) {
		p->in_other = false;
		chrome_parse_other_done(p);
	}
	if (d == 1 && p->top == '{')
		return chrome_parse_after_value(p);
	if (d == 0)
		return chrome_parse_end(p);
	return 1;
}

/* start_array: the events array (at the top or under traceEvents) or a value nobody reads; depth is capped. */
static int chrome_parse_cb_start_array(void *ctx)
{
	struct chrome_parse *p = ctx;
	int d = chrome_parse_deeper(p);

	if (d < 0)
		return 0;
	if (p->in_args && d == p->ad + 2 && (p->slot == CP_GRID || p->slot == CP_BLOCK)) {
		/* grid or block: its elements go to the slots after it (chrome_parse_scalar) until it closes */
		p->dim = p->slot;
		p->ndim = 0;
		p->type[p->dim] = CV_OTHER;
		p->slot = CP_NONE;
		return 1;
	}
	if (p->dim != CP_NONE && d == p->ad + 3)
		p->ndim = 4; /* an element that is an array: not a dim3 */
	chrome_parse_unread(p);
	if (d == 0) {
		p->top = '[';
		p->in_events = true;
		p->ad = 1;
		p->bare = !p->slice;
		return chrome_parse_events_start(p);
	}
	if (d == 1 && p->top == '{' && p->topkey == TK_EVENTS) {
		p->in_events = true;
		p->ad = 2;
		return chrome_parse_events_start(p);
	}
	return 1;
}

/* end_array: the events array closes, or an inner array does (grid or block: CV_ARRAY when it held 3 values). */
static int chrome_parse_cb_end_array(void *ctx)
{
	struct chrome_parse *p = ctx;
	int d = --p->depth;

	p->slot = CP_NONE;
	if (p->dim != CP_NONE && d == p->ad + 2) {
		p->type[p->dim] = p->ndim == 3 ? CV_ARRAY : CV_OTHER;
		p->dim = CP_NONE;
		return 1;
	}
	if (p->in_events && d == p->ad - 1) {
		p->in_events = false;
		if (d == 0)
			return chrome_parse_end(p);
		return chrome_parse_after_value(p);
	}
	if (d == 1 && p->top == '{' && !p->in_other)
		return chrome_parse_after_value(p);
	return 1;
}

static const yajl_callbacks chrome_parse_callbacks = {
    .yajl_null = chrome_parse_cb_null,
    .yajl_boolean = chrome_parse_cb_boolean,
    .yajl_number = chrome_parse_cb_number,
    .yajl_string = chrome_parse_cb_string,
    .yajl_start_map = chrome_parse_cb_start_map,
    .yajl_map_key = chrome_parse_cb_map_key,
    .yajl_end_map = chrome_parse_cb_end_map,
    .yajl_start_array = chrome_parse_cb_start_array,
    .yajl_end_array = chrome_parse_cb_end_array,
};

/* yajl allocates through xalloc: out of memory aborts like everywhere else. */
static yajl_alloc_funcs chrome_parse_alloc = {xalloc_ctx_malloc, xalloc_ctx_realloc, xalloc_ctx_free, NULL};

struct chrome_parse *chrome_parse_new(const char *buf, size_t len, const char *name, bool slice,
                                      chrome_parse_emit_fn *emit, void *arg)
{
	struct chrome_parse *p = xcalloc(1, sizeof *p);

	p->name = name;
	p->base = buf;
	p->len = len;
	p->slice = slice;
	p->emit = emit;
	p->emit_arg = arg;
	p->slot = CP_NONE;
	p->dim = CP_NONE;
	p->h = yajl_alloc(&chrome_parse_callbacks, &chrome_parse_alloc, p);
	if (p->h == NULL)
		xfatal(1, "out of memory (JSON parser)");
	chrome_parse_names_init(&p->names);
	idmap_init(&p->kinds);
	return p;
}

void chrome_parse_free(struct chrome_parse *p)
{
	if (p == NULL)
		return;
	if (p->h != NULL)
		yajl_free(p->h);
	chrome_parse_names_free(&p->names);
	idmap_free(&p->kinds);
	free(p->arena);
	free(p->ev);
	free(p->cause);
	free(p);
}

/* chrome_parse_yajl_error sets the cause from yajl's own error (our callbacks set theirs already). at_end: found
 * by yajl_complete_parse, so the file stops too early. */
static void chrome_parse_yajl_error(struct chrome_parse *p, bool at_end)
{
	unsigned char *msg;
	char *text;
	size_t n;

	if (p->cause != NULL)
		return;
	msg = yajl_get_error(p->h, 0, NULL, 0);
	text = xstrdup(msg != NULL ? (const char *)msg : "parse error");
	if (msg != NULL)
		yajl_free_error(p->h, msg);
	n = strlen(text);
	while (n > 0 && chrome_parse_blank(text[n - 1]))
		text[--n] = '\0';
	if (at_end)
		chrome_parse_fail(p, "truncated JSON at byte %zu (%s)", p->len, text);
	else
		chrome_parse_fail(p, "invalid JSON at byte %zu: %s", chrome_parse_pos(p), text);
	free(text);
}

/* chrome_parse_between says whether the bytes before at are a ',' then blanks that hold a raw newline. No string
 * holds a raw newline, so yajl's lexer is then between tokens at at, and the ',' was one of its own. */
static bool chrome_parse_between(const struct chrome_parse *p, size_t at)
{
	size_t q = at;

	if (at > p->len)
		return false;
	while (q > 0 && chrome_parse_blank(p->base[q - 1]))
		q--;
	return q > 0 && p->base[q - 1] == ',' && memchr(p->base + q, '\n', at - q) != NULL;
}

int chrome_parse_feed(struct chrome_parse *p, size_t from, size_t to)
{
	if (p->cause != NULL)
		return -1;
	p->chunk = from;
	if (to > from && yajl_parse(p->h, (const unsigned char *)p->base + from, to - from) != yajl_status_ok) {
		chrome_parse_yajl_error(p, false);
		return -1;
	}
	return 0;
}

int chrome_parse_finish(struct chrome_parse *p)
{
	yajl_status st;

	if (p->cause != NULL)
		return -1;
	p->flushing = true;
	st = yajl_complete_parse(p->h);
	p->flushing = false;
	if (p->cause != NULL)
		return -1;
	if (st != yajl_status_ok) {
		if (p->bare_end && p->depth == 1)
			return 0; /* a bare array cut after an event, as Chrome allows */
		chrome_parse_yajl_error(p, true);
		return -1;
	}
	return 0;
}

int chrome_parse_slice(struct chrome_parse *p, size_t from, size_t to)
{
	int rc = -1;

	/* a '[' stands for everything before the slice: the events array is open, an element comes next */
	p->chunk = from - 1;
	if (from > 0 && to > from && yajl_parse(p->h, (const unsigned char *)"[", 1) == yajl_status_ok &&
	    chrome_parse_feed(p, from, to) == 0 && p->in_events && p->depth == 1 && p->cause == NULL) {
		size_t q = to;

		while (q > from && chrome_parse_blank(p->base[q - 1]))
			q--;
		/* a ',' right before blanks that hold a raw newline is a token of its own: no string holds one */
		if (q > from && p->base[q - 1] == ',' && memchr(p->base + q, '\n', to - q) != NULL)
			rc = 0;
	}
	yajl_free(p->h);
	p->h = NULL;
	free(p->arena);
	p->arena = NULL;
	p->narena = p->caparena = 0;
	return rc;
}

bool chrome_parse_clean(const struct chrome_parse *p, size_t at)
{
	if (p->cause != NULL || !p->in_events || p->depth != p->ad)
		return false;
	return chrome_parse_between(p, at);
}

size_t chrome_parse_events(const struct chrome_parse *p)
{
	return p->events;
}

void chrome_parse_skip_events(struct chrome_parse *p, size_t n)
{
	p->events += n;
}

const struct chrome_ev *chrome_parse_collected(const struct chrome_parse *p, size_t *n)
{
	*n = p->nev;
	return p->ev;
}

const char *chrome_parse_string(const struct chrome_parse *p, uint32_t local)
{
	if (local == 0 || local >= p->names.nglobal)
		return "";
	return intern_str(&p->names.local, local);
}

const struct chrome_other *chrome_parse_other(const struct chrome_parse *p)
{
	return &p->other;
}

char *chrome_parse_cause(struct chrome_parse *p)
{
	char *c = p->cause;

	p->cause = NULL;
	return c;
}
