/* import_chrome.c: Chrome trace JSON into a timeline.
 *
 * A trace is either {"traceEvents": [...], ...} or a bare array of events (whose closing ']' may be missing, as
 * Chrome allows). The file is read into memory (importer_read; not mapped, so that a file that shrinks meanwhile is a
 * message, not SIGBUS: the copy costs about 20% of a big file's opening, the peak memory is the same) and parsed by
 * chrome_parse (yajl's SAX parser, no DOM: memory stays at what the timeline needs). Here is the work that needs the
 * events in file order: B/E pairs nest per (pid, tid); GPU-side tracks of a foreign trace are numbered in order of
 * first appearance; names enter the timeline's string table; a kernel's launch (an event of its own, right after the
 * kernel's) enters the launch table under the kernel's correlation and raw stream, the first one of a key winning,
 * in any trace (chrome_parse reads only grid and block of a foreign one); the stream and device table entries of M
 * events are kept (the last of each stream or device wins) and, in streamscope's own traces, given to the timeline at
 * the end, with device 0's entry from otherData (a trace of one device). Times are rebased to the earliest event
 * (streamscope's own traces keep theirs: their times start at 0, and a negative ts there is refused with the first such
 * event, as other values our export never writes are, rather than clamped to 0 with the durations). As in every
 * importer, the records end up within 0 <= start <= end <= 2^62 ns, their durations adding up to at most 2^63 - 1 ns
 * (importer.h): ts and dur are bounded as read (chrome_parse), the span and the total once all are in (chrome_span).
 *
 * Big files are parsed on several threads: the events array is cut into slices where a line starts with the next
 * event (chrome_split), worker threads parse slices into compact events, and this thread takes them in file order,
 * at most a window of slices ahead (2 per thread), so transient memory stays bounded. This thread's own parser reads
 * the first slice (with what comes before the array) and the last (with what follows); it skips a slice read by a
 * worker only when it stands right after a ',' between events there and the worker's slice parsed and ended the same
 * way, and reads the slice itself otherwise. So a cut in the wrong place, or any error, costs time but never
 * changes the result or the message: those are the sequential parse's, event numbers and byte offsets included. */
#include "io/import/import_chrome.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/idmap.h"
#include "core/vec.h"
#include "core/xalloc.h"
#include "io/import/chrome_parse.h"
#include "io/import/chrome_split.h"
#include "io/import/importer.h"

/* Defaults of the parallel parse (import_chrome_tune). */
#define CHROME_MAX_THREADS 8
#define CHROME_PARALLEL_MIN (16u << 20)
#define CHROME_SLICE_MIN (1u << 20)
#define CHROME_SLICE_MAX (4u << 20)

/* How traces are read (import_chrome_tune). */
static struct import_chrome_tuning chrome_tuning;

/* How many slices of the calling thread's last import came from workers. */
static _Thread_local size_t chrome_slices_used;

/* A B event waiting for its E: its record (start set, end not yet) and its number in the file (from 1). */
struct chrome_open {
	struct ss_record r;
	size_t event;
};

/* One (pid, tid) or (pid, stream) track of a foreign trace, or the B/E stack of a thread. */
struct chrome_track {
	uint32_t id;              /* raw stream id given to its GPU records: the track's ordinal */
	struct chrome_open *open; /* stack of B events */
	size_t nopen, capopen;
};

/* A stream's entry of the stream table, as the trace's M events said it (the last one). */
struct chrome_stream_entry {
	uint32_t raw_id;
	uint8_t kind, device;
	bool said;
};

/* An import in progress: the order-dependent state. */
struct chrome_ctx {
	const char *name; /* for messages */
	struct ss_timeline *t;
	struct chrome_stream_entry *streams; /* [SS_IMPORT_MAX_STREAMS] once one is said, else NULL */
	struct ss_device_info devices[SS_TIMELINE_MAX_DEVICES]; /* known: said by an M event */
	struct idmap track_of;                                  /* track key -> index into trk */
	struct chrome_track *trk;
	size_t ntrk, captrk;
	size_t neg_event;               /* the first event (file order, from 1) with a negative ts; 0 when none */
	int64_t neg_ns;                 /* its ts */
	uint64_t first_start, last_end; /* the earliest start and the latest end of the records (biased ns) */
	size_t first_event, last_event; /* the first events (file order, from 1) with them; 0 when no record */
	uint64_t total_ns;              /* the records' durations added up, until past SS_IMPORT_MAX_TOTAL_NS */
	size_t total_event;             /* the event whose record took the total past it; 0 when none did */
	struct idmap launched;          /* launch keys (correlation << 32 | raw stream) in the launch table */
	bool kernel;                    /* the last event applied was a kernel's X event, whose launch may follow */
	uint32_t kernel_corr;           /* its record's correlation */
	uint32_t kernel_stream;         /* and raw stream (a foreign GPU track's ordinal) */
};

/* A slice of the events array for a worker. */
struct chrome_slice {
	size_t from, to;
	struct chrome_parse *p; /* its events, once parsed */
	int state;              /* enum chrome_slice_state */
};

/* A slice's progress: waiting for a worker, being parsed, parsed, or failed (its parse holds why). */
enum chrome_slice_state { SLICE_WAITING, SLICE_BUSY, SLICE_OK, SLICE_BAD };

/* The workers' shared state, under mu. */
struct chrome_pool {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	const char *buf, *name;
	size_t len;
	struct chrome_slice *sl;
	size_t nsl;
	size_t next;  /* next slice to parse */
	size_t limit; /* slices from here wait until the reader catches up */
	bool stop;
};

void import_chrome_tune(const struct import_chrome_tuning *tuning)
{
	if (tuning != NULL)
		chrome_tuning = *tuning;
	else
		memset(&chrome_tuning, 0, sizeof chrome_tuning);
}

size_t import_chrome_parallel_slices(void)
{
	return chrome_slices_used;
}

/* chrome_threads is how many threads parse a big file: SS_IMPORT_THREADS, else the tuning, else the online CPUs
 * up to CHROME_MAX_THREADS. */
static int chrome_threads(void)
{
	const char *env = getenv("SS_IMPORT_THREADS");
	long n;

	if (env != NULL && *env != '\0') {
		char *end;

		errno = 0;
		n = strtol(env, &end, 10);
		if (errno == 0 && *end == '\0' && n >= 1)
			return n > 64 ? 64 : (int)n;
	}
	if (chrome_tuning.threads > 0)
		return chrome_tuning.threads > 64 ? 64 : chrome_tuning.threads;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > CHROME_MAX_THREADS ? CHROME_MAX_THREADS : (int)n;
}

/* chrome_fail_event reports a problem with event number n. Returns -1. */
static int chrome_fail_event(struct chrome_ctx *c, size_t n, const char *what, char **cause)
{
	*cause = xasprintf("%s: event %zu: %s", c->name, n, what);
	return -1;
}

/* chrome_track returns the track of key, creating it. */
static struct chrome_track *chrome_track(struct chrome_ctx *c, uint64_t key)
{
	struct chrome_track *t;
	uint32_t i;

	if (idmap_get(&c->track_of, key, &i))
		return &c->trk[i];
	t = VEC_PUSH(c->trk, c->ntrk, c->captrk, 16);
	memset(t, 0, sizeof *t);
	t->id = (uint32_t)(c->ntrk - 1);
	idmap_put(&c->track_of, key, t->id);
	return t;
}

/* chrome_add appends r (start/end biased ns) after the common checks: n is the number of the event that ends it,
 * from the number of the one that starts it (n too for an X event), and both note the earliest start and the
 * latest end for chrome_span. 0, or -1 with *cause. */
static int chrome_add(struct chrome_ctx *c, const struct ss_record *r, size_t from, size_t n, char **cause)
{
	if (c->t->n >= SS_IMPORT_MAX_RECORDS)
		return chrome_fail_event(c, n, "too many events", cause);
	if (c->first_event == 0 || r->start < c->first_start) {
		c->first_start = r->start;
		c->first_event = from;
	}
	if (c->last_event == 0 || r->end > c->last_end) {
		c->last_end = r->end;
		c->last_event = n;
	}
	/* a duration is at most 2^63 ns (a B at ts -2^62 ns, its E at +2^62 ns), the total at most 2^63 - 1 before it:
	 * no wrap; past the bound it is refused at the end (chrome_span), after a span too long, which says more */
	if (c->total_event == 0) {
		c->total_ns += r->end - r->start;
		if (c->total_ns > SS_IMPORT_MAX_TOTAL_NS)
			c->total_event = n;
	}
	timeline_add(c->t, r);
	return 0;
}

/* chrome_keep keeps table entry m, read by parser p (whose string ids it carries), in place of any earlier entry of
 * the same stream or device, until chrome_tables. */
static void chrome_keep(struct chrome_ctx *c, struct chrome_parse *p, const struct chrome_meta *m)
{
	struct ss_device_info *d;

	if (!m->is_device) {
		if (c->streams == NULL)
			c->streams = xcalloc(SS_IMPORT_MAX_STREAMS, sizeof *c->streams);
		c->streams[m->index] = (struct chrome_stream_entry){
		    .raw_id = m->raw_stream, .kind = m->kind, .device = m->device, .said = true};
		return;
	}
	d = &c->devices[m->index];
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, "%s", chrome_parse_string(p, m->name));
	snprintf(d->uuid, sizeof d->uuid, "%s", chrome_parse_string(p, m->uuid));
	d->copy_engines = m->copy_engines;
	d->context = m->context;
	d->known = true;
}

/* chrome_describe gives t device index's description d (name, uuid, copy engines, context). */
static void chrome_describe(struct ss_timeline *t, int index, const struct ss_device_info *d)
{
	timeline_set_device(t, index, d->name, d->uuid, d->context);
	if (d->copy_engines > 0)
		timeline_set_copy_engines(t, index, d->copy_engines);
}

/* chrome_tables gives the timeline of a streamscope trace the stream and device table entries kept (chrome_keep),
 * device 0's from otherData first (an M event's entry of device 0 replaces it), and otherData's streamIds. */
static void chrome_tables(const struct chrome_ctx *c, const struct chrome_other *other, struct ss_timeline *t)
{
	if (other->has_stream_ids)
		t->stream_ids = other->stream_ids;
	if (other->has_device0)
		chrome_describe(t, 0, &other->device0);
	for (int d = 0; d < SS_TIMELINE_MAX_DEVICES; d++)
		if (c->devices[d].known)
			chrome_describe(t, d, &c->devices[d]);
	for (int s = 0; c->streams != NULL && s < SS_IMPORT_MAX_STREAMS; s++) {
		const struct chrome_stream_entry *e = &c->streams[s];

		if (!e->said)
			continue;
		timeline_set_stream(t, s, e->raw_id, e->kind);
		if (e->device != 0)
			timeline_set_stream_device(t, s, e->device);
	}
}

/* chrome_launch gives the kernel of the X event applied last (c->kernel) launch l, read by parser p (whose name ids
 * it carries), unless a kernel with the same key (correlation, raw stream) has one already: the first wins, and the
 * table holds one entry a key. */
static void chrome_launch(struct chrome_ctx *c, struct chrome_parse *p, const struct chrome_launch *l)
{
	uint64_t key = (uint64_t)c->kernel_corr << 32 | c->kernel_stream;
	struct ss_launch sl;
	uint32_t dummy;

	if (!c->kernel || idmap_get(&c->launched, key, &dummy))
		return;
	idmap_put(&c->launched, key, 1);
	sl = (struct ss_launch){.correlation = c->kernel_corr,
	                        .raw_stream = c->kernel_stream,
	                        .grid = {l->grid[0], l->grid[1], l->grid[2]},
	                        .block = {l->block[0], l->block[1], l->block[2]},
	                        .registers = l->registers,
	                        .static_smem = l->static_smem,
	                        .dynamic_smem = l->dynamic_smem,
	                        .flags = l->flags,
	                        .full_name = chrome_parse_name(p, l->full_name, c->t)};
	timeline_add_launch(c->t, &sl);
}

/* chrome_apply does the order-dependent part of event e, number n in the file, read by parser p (whose name ids
 * it carries): keeps a table entry, gives a kernel its launch, notes the first negative ts, pairs an E with its B,
 * numbers GPU tracks, adds the record. 0, or -1 with *cause. */
static int chrome_apply(struct chrome_ctx *c, struct chrome_parse *p, const struct chrome_ev *e, size_t n, char **cause)
{
	struct ss_record r;
	struct chrome_track *t;

	if (e->ph == 'L') {
		chrome_launch(c, p, &e->l);
		return 0;
	}
	c->kernel = false;
	if (e->ph == 'M') {
		chrome_keep(c, p, &e->m);
		return 0;
	}
	if (e->r.start < CHROME_BIAS && c->neg_event == 0) { /* refused at the end if the trace is streamscope's own */
		c->neg_event = n;
		c->neg_ns = -(int64_t)(CHROME_BIAS - e->r.start);
	}
	if (e->ph == 'E') {
		struct chrome_open *open;
		uint32_t i;

		/* B/E pairs nest per (pid, tid): the open stack lives on the thread's track */
		if (!idmap_get(&c->track_of, e->stack, &i) || c->trk[i].nopen == 0)
			return 0; /* an E without its B: Chrome ignores it too */
		t = &c->trk[i];
		open = &t->open[--t->nopen];
		if (e->r.start < open->r.start)
			return chrome_fail_event(c, n, "negative duration (E before its B)", cause);
		open->r.end = e->r.start;
		return chrome_add(c, &open->r, open->event, n, cause);
	}
	r = e->r;
	r.name = chrome_parse_name(p, r.name, c->t);
	if (e->gpu)
		r.raw_stream = chrome_track(c, e->track)->id;
	if (e->ph == 'X') {
		c->kernel = r.kind == SS_KIND_KERNEL;
		c->kernel_corr = r.correlation;
		c->kernel_stream = r.raw_stream;
		return chrome_add(c, &r, n, n, cause);
	}
	/* B: push on the thread's own stack */
	t = chrome_track(c, e->stack);
	*VEC_PUSH(t->open, t->nopen, t->capopen, 8) = (struct chrome_open){.r = r, .event = n};
	return 0;
}

/* chrome_emit takes the events of the reading thread's own parser as they end. */
static int chrome_emit(void *arg, struct chrome_parse *p, const struct chrome_ev *e, char **cause)
{
	return chrome_apply(arg, p, e, chrome_parse_events(p), cause);
}

/* chrome_apply_slice applies the events a worker's parser s collected, in order, after those p has seen. */
static int chrome_apply_slice(struct chrome_ctx *c, struct chrome_parse *p, struct chrome_parse *s, char **cause)
{
	size_t n, before = chrome_parse_events(p);
	const struct chrome_ev *ev = chrome_parse_collected(s, &n);

	for (size_t i = 0; i < n; i++)
		if (chrome_apply(c, s, &ev[i], before + ev[i].ordinal, cause) != 0)
			return -1;
	chrome_parse_skip_events(p, chrome_parse_events(s));
	return 0;
}

/* chrome_worker parses slices on a pool thread: it takes the next unclaimed slice within the reader's window,
 * parses it on its own and marks it OK or BAD, until the pool stops. */
static void *chrome_worker(void *arg)
{
	struct chrome_pool *pool = arg;

	pthread_mutex_lock(&pool->mu);
	for (;;) {
		struct chrome_parse *p;
		size_t i;
		int rc;

		while (!pool->stop && pool->next < pool->nsl - 1 && pool->next >= pool->limit)
			pthread_cond_wait(&pool->work, &pool->mu);
		if (pool->stop || pool->next >= pool->nsl - 1)
			break;
		i = pool->next++;
		pool->sl[i].state = SLICE_BUSY;
		pthread_mutex_unlock(&pool->mu);
		p = chrome_parse_new(pool->buf, pool->len, pool->name, true, NULL, NULL);
		rc = chrome_parse_slice(p, pool->sl[i].from, pool->sl[i].to);
		pthread_mutex_lock(&pool->mu);
		pool->sl[i].p = p;
		pool->sl[i].state = rc == 0 ? SLICE_OK : SLICE_BAD;
		pthread_cond_broadcast(&pool->done);
	}
	pthread_mutex_unlock(&pool->mu);
	return NULL;
}

/* chrome_slices cuts bytes [start, len) into slices of about size bytes at chrome_split points; returns how many
 * (1: no cut found) in *sl (the caller frees it). */
static size_t chrome_slices(const char *buf, size_t len, size_t start, size_t size, struct chrome_slice **sl)
{
	size_t cap = (len - start) / size + 2, n = 1;
	struct chrome_slice *s = xcalloc(cap, sizeof *s);

	s[0].from = start;
	for (size_t target = start + size; target < len && n < cap; target += size) {
		size_t from = target > s[n - 1].from ? target : s[n - 1].from + 1;
		size_t b = chrome_split_next(buf, len, from, from + size);

		if (b >= len)
			continue;
		s[n - 1].to = b;
		s[n++].from = b;
		target = b;
	}
	s[n - 1].to = len;
	*sl = s;
	return n;
}

/* chrome_read_parallel reads the document from start with p, workers parsing the middle slices. 0, or -1 with
 * *cause. */
static int chrome_read_parallel(struct chrome_ctx *c, struct chrome_parse *p, const char *buf, size_t len, size_t start,
                                int threads, char **cause)
{
	struct chrome_pool pool;
	pthread_t tid[64];
	size_t size = chrome_tuning.slice_bytes, window = 2 * (size_t)threads + 2;
	int started = 0, rc;

	if (size == 0) {
		size = (len - start) / (8 * (size_t)threads);
		size = size < CHROME_SLICE_MIN ? CHROME_SLICE_MIN : size > CHROME_SLICE_MAX ? CHROME_SLICE_MAX : size;
	}
	memset(&pool, 0, sizeof pool);
	pool.nsl = chrome_slices(buf, len, start, size, &pool.sl);
	pool.buf = buf;
	pool.len = len;
	pool.name = c->name;
	pool.next = 1;
	pool.limit = 1 + window;
	pthread_mutex_init(&pool.mu, NULL);
	pthread_cond_init(&pool.work, NULL);
	pthread_cond_init(&pool.done, NULL);
	for (int i = 0; i < threads && pool.nsl > 2; i++) {
		if (pthread_create(&tid[started], NULL, chrome_worker, &pool) != 0)
			break;
		started++;
	}
	rc = chrome_parse_feed(p, pool.sl[0].from, pool.sl[0].to);
	for (size_t j = 1; rc == 0 && j < pool.nsl; j++) {
		struct chrome_slice *s = &pool.sl[j];
		bool use = false;

		if (started > 0 && j < pool.nsl - 1 && chrome_parse_clean(p, s->from)) {
			pthread_mutex_lock(&pool.mu);
			while (s->state != SLICE_OK && s->state != SLICE_BAD)
				pthread_cond_wait(&pool.done, &pool.mu);
			use = s->state == SLICE_OK;
			pthread_mutex_unlock(&pool.mu);
		}
		if (use) {
			rc = chrome_apply_slice(c, p, s->p, cause);
			chrome_slices_used++;
		} else {
			rc = chrome_parse_feed(p, s->from, s->to);
			if (rc != 0)
				*cause = chrome_parse_cause(p);
		}
		pthread_mutex_lock(&pool.mu);
		if (s->state == SLICE_OK || s->state == SLICE_BAD) {
			chrome_parse_free(s->p);
			s->p = NULL;
		}
		pool.limit = j + 1 + window;
		pthread_cond_broadcast(&pool.work);
		pthread_mutex_unlock(&pool.mu);
	}
	if (rc != 0 && *cause == NULL)
		*cause = chrome_parse_cause(p);
	pthread_mutex_lock(&pool.mu);
	pool.stop = true;
	pthread_cond_broadcast(&pool.work);
	pthread_mutex_unlock(&pool.mu);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	for (size_t j = 0; j < pool.nsl; j++)
		chrome_parse_free(pool.sl[j].p);
	free(pool.sl);
	pthread_mutex_destroy(&pool.mu);
	pthread_cond_destroy(&pool.work);
	pthread_cond_destroy(&pool.done);
#ifdef __GLIBC__
	/* the workers' malloc arenas keep what their slices freed: hand it back, so that an opened trace costs its
	 * records and names, not also the parse's high-water mark (about 20 bytes an interval at 1M on 8 threads) */
	malloc_trim(0);
#endif
	return rc;
}

/* chrome_read reads the document from start (its first '{' or '['): in parallel when it is big, else in one
 * go. 0, or -1 with *cause. */
static int chrome_read(struct chrome_ctx *c, struct chrome_parse *p, const char *buf, size_t len, size_t start,
                       char **cause)
{
	size_t min = chrome_tuning.min_bytes ? chrome_tuning.min_bytes : CHROME_PARALLEL_MIN;
	int threads = chrome_threads();
	int rc;

	if (threads > 1 && len - start >= min)
		rc = chrome_read_parallel(c, p, buf, len, start, threads, cause);
	else
		rc = chrome_parse_feed(p, start, len);
	if (rc == 0)
		rc = chrome_parse_finish(p);
	if (rc != 0 && *cause == NULL)
		*cause = chrome_parse_cause(p);
	return rc;
}

/* chrome_span checks that the records will end by SS_IMPORT_MAX_NS once rebased to base (CHROME_BIAS for our own
 * traces, else the earliest start), and that their durations add up to at most SS_IMPORT_MAX_TOTAL_NS: 0, else -1
 * with *cause naming the event that ends last (or took the total past its bound) and what is valid. Each ts and dur
 * is bounded as it is read, but a foreign trace from ts -2^62 ns to +2^62 ns, or our own with ts + dur past 2^62 ns,
 * would still end past it after the shift. */
static int chrome_span(const struct chrome_ctx *c, bool own, char **cause)
{
	uint64_t base = own ? CHROME_BIAS : c->first_start, span;
	unsigned long long us, frac;

	if (c->last_event == 0)
		return 0;
	if (c->last_end - base <= SS_IMPORT_MAX_NS) {
		if (c->total_event == 0)
			return 0;
		*cause = xasprintf("%s: event %zu: the durations up to here add up to more than any real trace's "
		                   "(" SS_IMPORT_MAX_TOTAL_TEXT ")",
		                   c->name, c->total_event);
		return -1;
	}
	span = c->last_end - base;
	us = (unsigned long long)(span / 1000);
	frac = (unsigned long long)(span % 1000);
	if (own)
		*cause = xasprintf("%s: event %zu: ends at ts + dur = %llu.%03llu us in a streamscope trace, past 2^62 "
		                   "ns (valid: ts + dur <= " SS_IMPORT_MAX_US_TEXT ")",
		                   c->name, c->last_event, us, frac);
	else
		*cause = xasprintf("%s: event %zu: ends %llu.%03llu us after event %zu starts, past 2^62 ns, about 146 "
		                   "years (valid: every ts + dur within " SS_IMPORT_MAX_US_TEXT " of the earliest ts)",
		                   c->name, c->last_event, us, frac, c->first_event);
	return -1;
}

static void chrome_free(struct chrome_ctx *c)
{
	for (size_t i = 0; i < c->ntrk; i++)
		free(c->trk[i].open);
	free(c->trk);
	free(c->streams);
	idmap_free(&c->track_of);
	idmap_free(&c->launched);
}

int import_chrome_buffer(const char *buf, size_t len, const char *name, struct ss_timeline *t, char **cause)
{
	struct chrome_ctx c = {.name = name, .t = t};
	struct chrome_other other;
	size_t start = 0;
	int rc;

	*cause = NULL;
	chrome_slices_used = 0;
	memset(&other, 0, sizeof other);
	importer_begin(t);
	idmap_init(&c.track_of);
	idmap_init(&c.launched);
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		start = 3;
	while (start < len && (buf[start] == ' ' || buf[start] == '\t' || buf[start] == '\n' || buf[start] == '\r'))
		start++;
	/* a guess at the record count from the size keeps the array from doubling far past its need */
	importer_reserve(t, len / 160 + 16);
	if (start >= len) {
		*cause = xasprintf("%s: empty file (expected Chrome trace JSON)", name);
		rc = -1;
	} else if (buf[start] != '[' && buf[start] != '{') {
		*cause = xasprintf("%s: not a Chrome trace (expected a JSON object or array)", name);
		rc = -1;
	} else {
		struct chrome_parse *p = chrome_parse_new(buf, len, name, false, chrome_emit, &c);

		rc = chrome_read(&c, p, buf, len, start, cause);
		if (rc == 0)
			other = *chrome_parse_other(p);
		chrome_parse_free(p);
		/* our export writes times from 0: a negative one is not a trace to shift (its durations would be
		 * clamped away by the rebase to CHROME_BIAS), but a file that is not what it says */
		if (rc == 0 && other.own && c.neg_event != 0) {
			*cause =
			    xasprintf("%s: event %zu: negative ts %g us in a streamscope trace (otherData generator "
			              "\"streamscope\"), whose times start at 0 (valid: ts >= 0)",
			              name, c.neg_event, (double)c.neg_ns / 1000.0);
			rc = -1;
		}
		if (rc == 0)
			rc = chrome_span(&c, other.own, cause);
	}
	if (rc != 0) {
		chrome_free(&c);
		importer_begin(t);
		return importer_oneline(*cause);
	}
	if (other.own) {
		timeline_rebase(t, CHROME_BIAS);
	} else {
		uint64_t t0 = UINT64_MAX;

		for (size_t i = 0; i < t->n; i++)
			if (t->rec[i].start < t0)
				t0 = t->rec[i].start;
		if (t->n > 0)
			timeline_rebase(t, t0);
	}
	t->modelled = other.own && other.modelled;
	t->incomplete = other.own && other.incomplete;
	t->dropped = other.own ? other.dropped : 0;
	if (other.own && other.wall_traced_ns > 0 && other.wall_untraced_ns > 0) {
		t->wall_traced_ns = other.wall_traced_ns;
		t->wall_untraced_ns = other.wall_untraced_ns;
	}
	snprintf(t->device, sizeof t->device, "%s", other.device);
	importer_finish(t, name);
	if (other.own && other.nstreams > t->nstreams)
		t->nstreams = other.nstreams;
	if (other.own)
		chrome_tables(&c, &other, t);
	chrome_free(&c);
	return 0;
}

int import_chrome(const char *path, struct ss_timeline *t, char **cause)
{
	size_t len;
	char *buf;
	int rc;

	importer_begin(t);
	if (importer_read(path, &buf, &len, cause) != 0)
		return importer_oneline(*cause);
	if (len == 0) {
		free(buf);
		*cause = xasprintf("%s: empty file (expected Chrome trace JSON)", path);
		return importer_oneline(*cause);
	}
	rc = import_chrome_buffer(buf, len, path, t, cause);
	free(buf);
	return rc;
}
