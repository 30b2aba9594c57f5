/* export_csv.c: one CSV row per interval (RFC 4180: CRLF line ends, fields quoted when they hold , " CR LF).
 * Columns: stream (index; negative for host/legacy/per-thread/unknown), stream_label, raw_stream, kind, start_ns,
 * end_ns, duration_ns, bytes, bandwidth_GBps (empty when not a copy), name, correlation, thread, flags,
 * measurement ("measured" or "MODELLED", on every row so a pasted excerpt still says it), device (the GPU of GPU
 * rows), peer (a peer copy's other device, empty otherwise): new columns go last, so earlier ones keep their place. */
#include "io/export/export_csv.h"

#include <inttypes.h>
#include <stdio.h>

#include "core/atomic.h"
#include "io/export/escape.h"

/* csv_flags writes the record flags as "pageable|async" (empty when none). */
static void csv_flags(FILE *f, unsigned flags)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {{SS_REC_PAGEABLE, "pageable"}, {SS_REC_PINNED, "pinned"},     {SS_REC_MANAGED, "managed"},
	             {SS_REC_ASYNC, "async"},       {SS_REC_MODELLED, "modelled"}, {SS_REC_EVENT_TIMED, "event-timed"},
	             {SS_REC_PEER, "peer"},         {SS_REC_PEER_IN, "peer-in"}};
	bool any = false;

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (flags & names[i].bit) {
			if (any)
				fputc('|', f);
			fputs(names[i].name, f);
			any = true;
		}
}

int export_csv(const char *path, const struct ss_export_input *in, char **cause)
{
	const struct ss_timeline *t = in->t;
	const char *measurement = t->modelled ? "MODELLED" : "measured";
	struct atomic_file af;
	FILE *f;

	if (atomic_open(&af, path, cause) != 0)
		return -1;
	f = af.fp;
	fputs("stream,stream_label,raw_stream,kind,start_ns,end_ns,duration_ns,bytes,bandwidth_GBps,name,correlation,"
	      "thread,flags,measurement,device,peer\r\n",
	      f);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint64_t dur = r->end >= r->start ? r->end - r->start : 0;
		char label[24];

		if (r->kind >= SS_KIND_COUNT)
			continue;
		fprintf(f, "%d,%s,%" PRIu32 ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", (int)r->stream,
		        timeline_stream_label(r->stream, label, sizeof label), r->raw_stream, record_kind_name(r->kind),
		        r->start, r->end, dur, r->bytes);
		if (r->bytes > 0 && dur > 0)
			fprintf(f, "%.3f", (double)r->bytes / (double)dur);
		fputc(',', f);
		escape_csv(f, timeline_name(t, r->name));
		fprintf(f, ",%" PRIu32 ",%" PRIu32 ",", r->correlation, r->thread);
		csv_flags(f, r->flags);
		fprintf(f, ",%s,%u,", measurement, (unsigned)r->device);
		if (r->flags & SS_REC_PEER)
			fprintf(f, "%u", (unsigned)r->peer);
		fputs("\r\n", f);
	}
	return atomic_commit(&af, cause);
}
