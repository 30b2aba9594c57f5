/* import_chrome.c: Chrome trace JSON into a timeline.
 *
 * A trace is either {"traceEvents": [...], ...} or a bare array of events (whose closing ']' may be missing, as
 * Chrome allows). The file is mapped read-only and the outer structure is walked here; each event, and each value
 * of the outer object, is parsed by jansson on its own (JSON_DISABLE_EOF_CHECK stops at the end of the value), so
 * memory stays at one event's DOM however big the file, and nesting depth is jansson's to police.
 *
 * streamscope's own traces carry each record's exact fields in args (ss_kind, stream, raw_stream, thread, flags,
 * correlation, bytes) and come back exactly. Foreign traces: complete (X) events and B/E pairs become intervals;
 * the kind is read from the category and name (CUDA runtime/driver calls -> API, *Synchronize -> SYNC, memcpy
 * HtoD/DtoH/DtoD -> copies, memset, kernels, CPU annotations -> NVTX-like host ranges); host-side events go on the
 * host lane with their tid as thread, GPU-side ones get one stream per (pid, tid) track (or (pid, args.stream)),
 * numbered in order of first appearance; times are rebased to the earliest event. */
#include "import_chrome.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "idmap.h"
#include "import.h"
#include "xalloc.h"

/* Timestamps are held as CHROME_BIAS + ns until the end, so foreign traces may have negative ones. */
#define CHROME_BIAS (1ull << 62)
/* |ns| beyond this is absurd (about 73 years). */
#define CHROME_MAX_NS (1ll << 61)

/* An open B event waiting for its E. */
struct chrome_open {
	struct ss_record r; /* start set, end not yet */
};

/* One (pid, tid) or (pid, stream) track of a foreign trace. */
struct chrome_track {
	uint32_t id;              /* raw stream id given to its GPU records: the track's ordinal */
	struct chrome_open *open; /* stack of B events */
	size_t nopen, capopen;
};

/* An import in progress. */
struct chrome_ctx {
	const char *name; /* for messages */
	const char *base, *p, *end;
	struct ss_timeline *t;
	char **cause;
	size_t events; /* events read so far */
	bool own;      /* otherData says streamscope wrote it */
	bool other_modelled, other_incomplete;
	int other_nstreams;
	uint64_t other_dropped;
	char other_device[96];
	struct idmap track_of; /* track key -> index into trk */
	struct chrome_track *trk;
	size_t ntrk, captrk;
};

/* chrome_fail reports a problem with the file as a whole. Returns -1. */
static int chrome_fail(struct chrome_ctx *c, const char *what)
{
	*c->cause = xasprintf("%s: %s", c->name, what);
	return -1;
}

/* chrome_fail_event reports a problem with event number c->events. */
static int chrome_fail_event(struct chrome_ctx *c, const char *what)
{
	*c->cause = xasprintf("%s: event %zu: %s", c->name, c->events, what);
	return -1;
}

static void chrome_ws(struct chrome_ctx *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

/* chrome_value parses one JSON value at c->p with jansson and moves past it; NULL with *cause on error. */
static json_t *chrome_value(struct chrome_ctx *c, size_t flags)
{
	json_error_t err;
	json_t *v = json_loadb(c->p, (size_t)(c->end - c->p), flags | JSON_DISABLE_EOF_CHECK, &err);

	if (v == NULL) {
		size_t at = (size_t)(c->p - c->base) + (err.position > 0 ? (size_t)err.position : 0);

		if (c->p + err.position >= c->end || strstr(err.text, "end of file") != NULL)
			*c->cause = xasprintf("%s: truncated JSON at byte %zu (%s)", c->name, at, err.text);
		else
			*c->cause = xasprintf("%s: invalid JSON at byte %zu: %s", c->name, at, err.text);
		return NULL;
	}
	if (err.position <= 0 || (size_t)err.position > (size_t)(c->end - c->p)) {
		/* jansson counts positions in an int: a single value past 2 GB is not a trace */
		json_decref(v);
		*c->cause = xasprintf("%s: JSON value at byte %zu is too large", c->name, (size_t)(c->p - c->base));
		return NULL;
	}
	c->p += err.position;
	return v;
}

/* chrome_key reads an object key (a JSON string) at c->p into a new string. */
static char *chrome_key(struct chrome_ctx *c)
{
	const char *q = c->p + 1;
	json_t *v;
	char *key;

	if (c->p >= c->end || *c->p != '"') {
		*c->cause =
		    xasprintf("%s: invalid JSON at byte %zu: expected a key string", c->name, (size_t)(c->p - c->base));
		return NULL;
	}
	while (q < c->end && *q != '"')
		q += *q == '\\' ? 2 : 1;
	if (q >= c->end) {
		*c->cause =
		    xasprintf("%s: truncated JSON at byte %zu (unterminated key)", c->name, (size_t)(c->p - c->base));
		return NULL;
	}
	v = json_loadb(c->p, (size_t)(q + 1 - c->p), JSON_DECODE_ANY, NULL);
	if (v == NULL || !json_is_string(v)) {
		json_decref(v);
		*c->cause =
		    xasprintf("%s: invalid JSON at byte %zu: bad key string", c->name, (size_t)(c->p - c->base));
		return NULL;
	}
	key = xstrdup(json_string_value(v));
	json_decref(v);
	c->p = q + 1;
	return key;
}

/* chrome_time reads a time in microseconds (number or numeric string) as ns into *ns. Returns 0, 1 when absent,
 * -1 (with *cause) when present but not a sane number. */
static int chrome_time(struct chrome_ctx *c, json_t *v, const char *what, int64_t *ns)
{
	double us;
	char msg[96];

	if (v == NULL || json_is_null(v))
		return 1;
	if (json_is_integer(v)) {
		us = (double)json_integer_value(v);
	} else if (json_is_real(v)) {
		us = json_real_value(v);
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *endp;

		errno = 0;
		us = strtod(s, &endp);
		if (endp == s || *endp != '\0' || errno != 0) {
			snprintf(msg, sizeof msg, "%s is not a number", what);
			return chrome_fail_event(c, msg);
		}
	} else {
		snprintf(msg, sizeof msg, "%s is not a number", what);
		return chrome_fail_event(c, msg);
	}
	if (!isfinite(us) || fabs(us) * 1000.0 >= (double)CHROME_MAX_NS) {
		snprintf(msg, sizeof msg, "absurd %s %g us", what, us);
		return chrome_fail_event(c, msg);
	}
	*ns = llround(us * 1000.0);
	return 0;
}

/* chrome_uint reads an optional non-negative integer argument (0 when absent or not a number). */
static uint64_t chrome_uint(json_t *v)
{
	double d;

	if (json_is_integer(v))
		return json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
	if (json_is_real(v)) {
		d = json_real_value(v);
		return d > 0 && d < 1.8e19 ? (uint64_t)d : 0;
	}
	return 0;
}

/* chrome_arg returns the first of the named args present. */
static json_t *chrome_arg(json_t *args, const char *a, const char *b, const char *d)
{
	json_t *v;

	if (!json_is_object(args))
		return NULL;
	if ((v = json_object_get(args, a)) != NULL)
		return v;
	if (b != NULL && (v = json_object_get(args, b)) != NULL)
		return v;
	if (d != NULL && (v = json_object_get(args, d)) != NULL)
		return v;
	return NULL;
}

static bool chrome_has(const char *s, const char *needle)
{
	return s != NULL && strcasestr(s, needle) != NULL;
}

/* chrome_classify guesses the kind of a foreign event from its category and name; *host says it is host-side. */
static int chrome_classify(const char *name, const char *cat, bool *host)
{
	bool api = (name != NULL && ((strncmp(name, "cuda", 4) == 0 && name[4] >= 'A' && name[4] <= 'Z') ||
	                             (strncmp(name, "cu", 2) == 0 && name[2] >= 'A' && name[2] <= 'Z'))) ||
	           chrome_has(cat, "runtime") || chrome_has(cat, "driver") || chrome_has(cat, "cuda_api");

	*host = true;
	if (api)
		return chrome_has(name, "Synchronize") ? SS_KIND_SYNC : SS_KIND_API;
	if (chrome_has(cat, "sync"))
		return SS_KIND_SYNC;
	if (chrome_has(cat, "cpu_op") || chrome_has(cat, "python") || chrome_has(cat, "annotation") ||
	    chrome_has(cat, "nvtx") || chrome_has(cat, "marker"))
		return SS_KIND_MARKER;
	*host = false;
	if (chrome_has(cat, "memset") || chrome_has(name, "memset"))
		return SS_KIND_MEMSET;
	if (chrome_has(cat, "memcpy") || chrome_has(name, "memcpy") || chrome_has(cat, "copy") ||
	    chrome_has(name, "HtoD") || chrome_has(name, "DtoH") || chrome_has(name, "DtoD") ||
	    chrome_has(name, "H2D") || chrome_has(name, "D2H") || chrome_has(name, "D2D")) {
		if (chrome_has(name, "HtoD") || chrome_has(name, "H2D") || chrome_has(name, "Host to Device") ||
		    chrome_has(name, "Host-to-Device"))
			return SS_KIND_H2D;
		if (chrome_has(name, "DtoH") || chrome_has(name, "D2H") || chrome_has(name, "Device to Host") ||
		    chrome_has(name, "Device-to-Host"))
			return SS_KIND_D2H;
		return SS_KIND_D2D;
	}
	return SS_KIND_KERNEL; /* kernels, and generic work on a track of its own */
}

/* chrome_track_key mixes a pid, a tid (or stream) and a tag (0: GPU track by tid, 1: by stream, 2: B/E stack of
 * a thread) into one track key. */
static uint64_t chrome_track_key(uint64_t pid, uint64_t tid, unsigned tag)
{
	uint64_t h = pid * 0x9e3779b97f4a7c15ull;

	h ^= (tid + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2)) * 0xbf58476d1ce4e5b9ull;
	return h ^ ((uint64_t)tag * 0x94d049bb133111ebull);
}

/* chrome_track returns the track of key, creating it. */
static struct chrome_track *chrome_track(struct chrome_ctx *c, uint64_t key)
{
	uint32_t i;

	if (idmap_get(&c->track_of, key, &i))
		return &c->trk[i];
	if (c->ntrk == c->captrk) {
		c->captrk = c->captrk ? c->captrk * 2 : 16;
		c->trk = xreallocarray(c->trk, c->captrk, sizeof *c->trk);
	}
	memset(&c->trk[c->ntrk], 0, sizeof c->trk[c->ntrk]);
	c->trk[c->ntrk].id = (uint32_t)c->ntrk;
	idmap_put(&c->track_of, key, (uint32_t)c->ntrk);
	return &c->trk[c->ntrk++];
}

static uint64_t chrome_id(json_t *v)
{
	if (json_is_integer(v))
		return (uint64_t)json_integer_value(v);
	if (json_is_real(v)) {
		double d = json_real_value(v);

		/* out-of-range conversions are undefined: such ids are absurd anyway, they share one value */
		return isfinite(d) && fabs(d) < 9e18 ? (uint64_t)(int64_t)d : UINT64_MAX;
	}
	if (json_is_string(v)) {
		/* string pids/tids: hash the text */
		uint64_t h = 1469598103934665603ull;

		for (const char *s = json_string_value(v); *s != '\0'; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ull;
		return h;
	}
	return 0;
}

/* chrome_fill sets kind, stream, thread, name and the args-derived fields of r from an X or B event. For a foreign
 * GPU-side event it returns its track in *trk (NULL otherwise). */
static int chrome_fill(struct chrome_ctx *c, json_t *ev, struct ss_record *r, struct chrome_track **trk)
{
	json_t *args = json_object_get(ev, "args"), *v;
	const char *name = json_string_value(json_object_get(ev, "name"));
	const char *cat = json_string_value(json_object_get(ev, "cat"));
	uint64_t pid = chrome_id(json_object_get(ev, "pid")), tid = chrome_id(json_object_get(ev, "tid"));
	const char *sskind = json_string_value(chrome_arg(args, "ss_kind", NULL, NULL));

	*trk = NULL;
	if (sskind != NULL) {
		/* streamscope's own event: exact fields */
		int kind = record_kind_parse(sskind);
		json_int_t stream;

		if (kind < 0)
			return chrome_fail_event(c, "unknown ss_kind");
		v = json_object_get(args, "stream");
		stream = json_is_integer(v) ? json_integer_value(v) : SS_STREAM_UNKNOWN;
		if (stream < SS_STREAM_UNKNOWN || stream >= SS_IMPORT_MAX_STREAMS)
			return chrome_fail_event(c, "absurd stream index");
		r->kind = (uint8_t)kind;
		r->stream = (int32_t)stream;
		r->raw_stream = (uint32_t)chrome_uint(json_object_get(args, "raw_stream"));
		r->thread = (uint32_t)chrome_uint(json_object_get(args, "thread"));
		r->flags = (uint8_t)chrome_uint(json_object_get(args, "flags"));
		r->correlation = (uint32_t)chrome_uint(json_object_get(args, "correlation"));
		r->bytes = chrome_uint(json_object_get(args, "bytes"));
		if (json_object_get(args, "unnamed") == NULL)
			r->name = timeline_intern(c->t, name);
		return 0;
	}
	{
		bool host;
		int kind = chrome_classify(name, cat, &host);

		r->kind = (uint8_t)kind;
		r->name = timeline_intern(c->t, name);
		r->correlation =
		    (uint32_t)chrome_uint(chrome_arg(args, "correlation", "correlation id", "correlationId"));
		r->bytes = chrome_uint(chrome_arg(args, "bytes", "Bytes", "size"));
		if (host) {
			r->stream = SS_STREAM_HOST;
			r->thread = (uint32_t)tid;
			r->raw_stream = 0;
		} else {
			v = chrome_arg(args, "stream", "Stream", NULL);
			*trk = json_is_integer(v)
			           ? chrome_track(c, chrome_track_key(pid, (uint64_t)json_integer_value(v), 1))
			           : chrome_track(c, chrome_track_key(pid, tid, 0));
			r->stream = SS_STREAM_PENDING;
			r->raw_stream = (*trk)->id;
		}
	}
	return 0;
}

/* chrome_add appends r (start/end biased ns) after the common checks. */
static int chrome_add(struct chrome_ctx *c, struct ss_record *r)
{
	if (c->t->n >= SS_IMPORT_MAX_RECORDS)
		return chrome_fail_event(c, "too many events");
	timeline_add(c->t, r);
	return 0;
}

/* chrome_event handles one element of traceEvents. */
static int chrome_event(struct chrome_ctx *c, json_t *ev)
{
	const char *ph;
	struct ss_record r = {0};
	struct chrome_track *trk;
	int64_t ts, dur = 0;
	int rc;

	if (!json_is_object(ev))
		return chrome_fail_event(c, "not an object");
	ph = json_string_value(json_object_get(ev, "ph"));
	if (ph == NULL || (ph[0] != 'X' && ph[0] != 'B' && ph[0] != 'E') || ph[1] != '\0')
		return 0; /* metadata, instants, counters, flows, async: not intervals */
	rc = chrome_time(c, json_object_get(ev, "ts"), "ts", &ts);
	if (rc < 0)
		return -1;
	if (rc > 0)
		return chrome_fail_event(c, "no ts");
	if (ph[0] == 'E') {
		uint64_t pid = chrome_id(json_object_get(ev, "pid")), tid = chrome_id(json_object_get(ev, "tid"));
		uint32_t i;
		struct chrome_track *t;
		struct ss_record *open;

		/* B/E pairs nest per (pid, tid): the open stack lives on the thread's track */
		if (!idmap_get(&c->track_of, chrome_track_key(pid, tid, 2), &i) || c->trk[i].nopen == 0)
			return 0; /* an E without its B: Chrome ignores it too */
		t = &c->trk[i];
		open = &t->open[--t->nopen].r;
		if (CHROME_BIAS + (uint64_t)ts < open->start)
			return chrome_fail_event(c, "negative duration (E before its B)");
		open->end = CHROME_BIAS + (uint64_t)ts;
		return chrome_add(c, open);
	}
	if (chrome_fill(c, ev, &r, &trk) != 0)
		return -1;
	r.start = CHROME_BIAS + (uint64_t)ts;
	if (ph[0] == 'X') {
		rc = chrome_time(c, json_object_get(ev, "dur"), "dur", &dur);
		if (rc < 0)
			return -1;
		if (dur < 0)
			return chrome_fail_event(c, "negative duration");
		r.end = r.start + (uint64_t)dur;
		return chrome_add(c, &r);
	}
	{
		/* B: push on the thread's own stack */
		uint64_t pid = chrome_id(json_object_get(ev, "pid")), tid = chrome_id(json_object_get(ev, "tid"));
		struct chrome_track *t = chrome_track(c, chrome_track_key(pid, tid, 2));

		if (t->nopen == t->capopen) {
			t->capopen = t->capopen ? t->capopen * 2 : 8;
			t->open = xreallocarray(t->open, t->capopen, sizeof *t->open);
		}
		t->open[t->nopen++].r = r;
	}
	return 0;
}

/* chrome_other_data reads streamscope's labels from the top-level "otherData" object. */
static void chrome_other_data(struct chrome_ctx *c, json_t *o)
{
	const char *gen = json_string_value(json_object_get(o, "generator"));
	const char *dev = json_string_value(json_object_get(o, "device"));
	json_t *v;

	if (!json_is_object(o))
		return;
	if (dev != NULL)
		snprintf(c->other_device, sizeof c->other_device, "%s", dev);
	if (gen == NULL || strncmp(gen, "streamscope", 11) != 0)
		return;
	c->own = true;
	c->other_modelled = json_is_true(json_object_get(o, "modelled"));
	c->other_incomplete = json_is_true(json_object_get(o, "incomplete"));
	v = json_object_get(o, "nstreams");
	if (json_is_integer(v) && json_integer_value(v) > 0 && json_integer_value(v) <= SS_IMPORT_MAX_STREAMS)
		c->other_nstreams = (int)json_integer_value(v);
	c->other_dropped = chrome_uint(json_object_get(o, "dropped"));
}

/* chrome_events walks the events array (c->p just past its '['). bare: the array is the whole file, whose
 * closing bracket Chrome lets go missing. */
static int chrome_events(struct chrome_ctx *c, bool bare)
{
	chrome_ws(c);
	if (c->p < c->end && *c->p == ']') {
		c->p++;
		return 0;
	}
	for (;;) {
		json_t *ev;
		int rc;

		chrome_ws(c);
		if (c->p >= c->end) {
			if (bare)
				return 0;
			return chrome_fail(c, "truncated: traceEvents array not closed");
		}
		c->events++;
		if (*c->p != '{') {
			*c->cause = xasprintf("%s: event %zu at byte %zu is not an object", c->name, c->events,
			                      (size_t)(c->p - c->base));
			return -1;
		}
		if ((ev = chrome_value(c, 0)) == NULL)
			return -1;
		rc = chrome_event(c, ev);
		json_decref(ev);
		if (rc != 0)
			return -1;
		chrome_ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == ']') {
			c->p++;
			return 0;
		}
		if (c->p >= c->end && bare)
			return 0;
		if (c->p >= c->end)
			return chrome_fail(c, "truncated: traceEvents array not closed");
		*c->cause = xasprintf("%s: invalid JSON at byte %zu: expected ',' or ']' after event %zu", c->name,
		                      (size_t)(c->p - c->base), c->events);
		return -1;
	}
}

/* chrome_object walks the top-level object (c->p just past its '{'). */
static int chrome_object(struct chrome_ctx *c)
{
	bool seen_events = false;

	chrome_ws(c);
	if (c->p < c->end && *c->p == '}') {
		c->p++;
		return chrome_fail(c, "no traceEvents: not a Chrome trace");
	}
	for (;;) {
		char *key;

		chrome_ws(c);
		if (c->p >= c->end)
			return chrome_fail(c, "truncated JSON (object not closed)");
		if ((key = chrome_key(c)) == NULL)
			return -1;
		chrome_ws(c);
		if (c->p >= c->end || *c->p != ':') {
			free(key);
			*c->cause =
			    xasprintf("%s: invalid JSON at byte %zu: expected ':'", c->name, (size_t)(c->p - c->base));
			return -1;
		}
		c->p++;
		chrome_ws(c);
		if (strcmp(key, "traceEvents") == 0) {
			free(key);
			if (seen_events)
				return chrome_fail(c, "two traceEvents arrays");
			seen_events = true;
			if (c->p >= c->end || *c->p != '[')
				return chrome_fail(c, "traceEvents is not an array");
			c->p++;
			if (chrome_events(c, false) != 0)
				return -1;
		} else {
			json_t *v = chrome_value(c, JSON_DECODE_ANY);

			if (v == NULL) {
				free(key);
				return -1;
			}
			if (strcmp(key, "otherData") == 0 || strcmp(key, "metadata") == 0)
				chrome_other_data(c, v);
			json_decref(v);
			free(key);
		}
		chrome_ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == '}') {
			c->p++;
			break;
		}
		if (c->p >= c->end)
			return chrome_fail(c, "truncated JSON (object not closed)");
		*c->cause =
		    xasprintf("%s: invalid JSON at byte %zu: expected ',' or '}'", c->name, (size_t)(c->p - c->base));
		return -1;
	}
	if (!seen_events)
		return chrome_fail(c, "no traceEvents: not a Chrome trace");
	return 0;
}

static void chrome_free(struct chrome_ctx *c)
{
	for (size_t i = 0; i < c->ntrk; i++)
		free(c->trk[i].open);
	free(c->trk);
	idmap_free(&c->track_of);
}

int import_chrome_buffer(const char *buf, size_t len, const char *name, struct ss_timeline *t, char **cause)
{
	struct chrome_ctx c = {.name = name, .base = buf, .p = buf, .end = buf + len, .t = t, .cause = cause};
	int rc;

	import_begin(t);
	idmap_init(&c.track_of);
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		c.p += 3;
	chrome_ws(&c);
	/* a guess at the record count from the size keeps the array from doubling far past its need */
	import_reserve(t, len / 160 + 16);
	if (c.p >= c.end) {
		rc = chrome_fail(&c, "empty file (expected Chrome trace JSON)");
	} else if (*c.p == '[') {
		c.p++;
		rc = chrome_events(&c, true);
	} else if (*c.p == '{') {
		c.p++;
		rc = chrome_object(&c);
	} else {
		rc = chrome_fail(&c, "not a Chrome trace (expected a JSON object or array)");
	}
	if (rc == 0) {
		chrome_ws(&c);
		if (c.p < c.end)
			rc = chrome_fail(&c, "trailing data after the JSON");
	}
	chrome_free(&c);
	if (rc != 0) {
		import_begin(t);
		return import_oneline(*cause);
	}
	if (c.own) {
		timeline_rebase(t, CHROME_BIAS);
	} else {
		uint64_t t0 = UINT64_MAX;

		for (size_t i = 0; i < t->n; i++)
			if (t->rec[i].start < t0)
				t0 = t->rec[i].start;
		if (t->n > 0)
			timeline_rebase(t, t0);
	}
	t->modelled = c.own && c.other_modelled;
	t->incomplete = c.own && c.other_incomplete;
	t->dropped = c.own ? c.other_dropped : 0;
	snprintf(t->device, sizeof t->device, "%s", c.other_device);
	import_finish(t, name);
	if (c.own && c.other_nstreams > t->nstreams)
		t->nstreams = c.other_nstreams;
	return 0;
}

int import_chrome(const char *path, struct ss_timeline *t, char **cause)
{
	struct stat st;
	void *map;
	int fd, rc;

	import_begin(t);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return import_oneline(*cause);
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*cause = xasprintf("%s: not a regular file", path);
		close(fd);
		return import_oneline(*cause);
	}
	if (st.st_size == 0) {
		close(fd);
		*cause = xasprintf("%s: empty file (expected Chrome trace JSON)", path);
		return import_oneline(*cause);
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		*cause = xasprintf("%s: cannot map: %s", path, strerror(errno));
		return import_oneline(*cause);
	}
	(void)madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	rc = import_chrome_buffer(map, (size_t)st.st_size, path, t, cause);
	munmap(map, (size_t)st.st_size);
	return rc;
}
