/* insight_multi.c: the insight rules of timelines of two or more devices (insight_multi.h): peer-copy-critical,
 * device-idle, host-link-contention, each read from the timeline's per-device summary (core/devsum). */
#include "core/insight_multi.h"

#include <stdio.h>
#include <string.h>

#include "core/devsum.h"
#include "core/units.h"

/* insight_multi_new appends an insight of rule (the caller fills the rest); NULL when out is full. */
static struct ss_insight *insight_multi_new(struct ss_insights *out, const char *rule, enum ss_severity sev,
                                            const char *fix)
{
	struct ss_insight *in;

	if (out->n >= SS_INSIGHT_MAX)
		return NULL;
	in = &out->item[out->n++];
	memset(in, 0, sizeof *in);
	in->rule = rule;
	in->severity = sev;
	in->fix = fix;
	return in;
}

/* insight_multi_note adds record i to in's evidence (the first SS_INSIGHT_MAX_RECS) and widens its time range. */
static void insight_multi_note(struct ss_insight *in, const struct ss_timeline *t, size_t i)
{
	const struct ss_record *r = &t->rec[i];

	if (in->nrec < SS_INSIGHT_MAX_RECS)
		in->rec[in->nrec] = i;
	if (in->nrec == 0 || r->start < in->t0)
		in->t0 = r->start;
	if (in->nrec == 0 || r->end > in->t1)
		in->t1 = r->end;
	in->nrec++;
}

/* insight_multi_recs appends "; records i, j, ..." to buf: the evidence's record indices. */
static void insight_multi_recs(const struct ss_insight *in, char *buf, size_t len)
{
	size_t n = in->nrec < SS_INSIGHT_MAX_RECS ? in->nrec : SS_INSIGHT_MAX_RECS;
	size_t off = strlen(buf);

	for (size_t i = 0; i < n && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%zu", i == 0 ? "; records " : ", ", in->rec[i]);

		if (w < 0)
			return;
		off += (size_t)w;
	}
	if (in->nrec > n && off < len)
		snprintf(buf + off, len - off, ", ...");
}

/* peer-copy-critical fires when peer copies ran beside no other GPU work for this share of the makespan: then the
 * devices waited for the peer link, which a pipeline hides behind the next chunk's kernels... */
#define INSIGHT_MULTI_PEER_SHARE 0.05
/* ...device-idle when a device sat idle while another worked for this share of the makespan (one device's work
 * ending a fifth early is more than start-up and tail)... */
#define INSIGHT_MULTI_IDLE_SHARE 0.20
/* ...and host-link-contention when two or more devices' host copies overlapped for this share of it. */
#define INSIGHT_MULTI_LINK_SHARE 0.10

/* peer-copy-critical: the peer copies' time with no other GPU work running on any device (struct ss_devsum's
 * peer_exposed_ns), at least INSIGHT_MULTI_PEER_SHARE of the makespan. Evidence: the peer copies. Gain: at most that
 * time, if every peer copy ran behind other work. */
static void insight_multi_peer(const struct ss_timeline *t, const struct ss_analysis *a, const struct ss_devsum *d,
                               struct ss_insights *out)
{
	struct ss_insight *in;
	char b1[32], b2[32];
	uint64_t n = 0, bytes = 0;

	if (d->ndev < 2 || (double)d->peer_exposed_ns < INSIGHT_MULTI_PEER_SHARE * (double)a->makespan_ns)
		return;
	if ((in = insight_multi_new(
	         out, "peer-copy-critical", SS_SEV_PROBLEM,
	         "Hide the peer copies behind compute: issue each chunk's copy to the next device on a "
	         "stream of its own (an event orders the kernel after it) so the next chunk's kernel runs "
	         "meanwhile; and enable peer access (cudaDeviceEnablePeerAccess) so copies go over the peer "
	         "link instead of staging through the host.")) == NULL)
		return;
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == SS_KIND_D2D && (t->rec[i].flags & SS_REC_PEER)) {
			insight_multi_note(in, t, i);
			n++;
			bytes += t->rec[i].bytes;
		}
	snprintf(in->summary, sizeof in->summary,
	         "peer copies held up every device for %s (%.1f%% of the makespan): nothing else ran meanwhile",
	         units_time(d->peer_exposed_ns, b1, sizeof b1),
	         100.0 * (double)d->peer_exposed_ns / (double)a->makespan_ns);
	snprintf(in->evidence, sizeof in->evidence,
	         "%llu peer copies, %s in all, took %s; %s of it with no other GPU work on any of the %d devices",
	         (unsigned long long)n, units_bytes(bytes, b2, sizeof b2), units_time(d->peer_ns, b1, sizeof b1),
	         units_time(d->peer_exposed_ns, b2, sizeof b2), d->ndev);
	insight_multi_recs(in, in->evidence, sizeof in->evidence);
	in->have_gain = true;
	in->gain_ns = d->peer_exposed_ns;
	snprintf(in->gain_how, sizeof in->gain_how, "at most: the peer copies' exposed time, if other work hid them");
}

/* device-idle: the device idle longest while another worked (struct ss_devsum's idle_while_busy_ns), at least
 * INSIGHT_MULTI_IDLE_SHARE of the makespan. Evidence: the idle device's first and last GPU records. Gain: at most
 * the makespan less the devices' mean busy time (what balanced work would take). Ties name the lower index. */
static void insight_multi_idle(const struct ss_timeline *t, const struct ss_analysis *a, const struct ss_devsum *d,
                               struct ss_insights *out)
{
	struct ss_insight *in;
	char b1[32], b2[32], b3[32];
	int w = 0;
	uint64_t sum = 0, mean;
	size_t first = SIZE_MAX, last = SIZE_MAX;

	if (d->ndev < 2)
		return;
	for (int i = 0; i < d->ndev; i++) {
		sum += d->dev[i].busy_ns;
		if (d->dev[i].idle_while_busy_ns > d->dev[w].idle_while_busy_ns)
			w = i;
	}
	if ((double)d->dev[w].idle_while_busy_ns < INSIGHT_MULTI_IDLE_SHARE * (double)a->makespan_ns)
		return;
	if ((in = insight_multi_new(
	         out, "device-idle", SS_SEV_HINT,
	         "Balance the devices: give the idle device a larger share of the chunks, or start its "
	         "work earlier (issue every device's first copies before any device's kernels, one host "
	         "thread per device).")) == NULL)
		return;
	for (size_t i = 0; i < t->n; i++)
		if ((SS_GPU_KINDS & SS_KIND_BIT(t->rec[i].kind)) && t->rec[i].device == w) {
			if (first == SIZE_MAX)
				first = i;
			last = i;
		}
	if (first != SIZE_MAX) {
		insight_multi_note(in, t, first);
		if (last != first)
			insight_multi_note(in, t, last);
	}
	mean = sum / (uint64_t)d->ndev;
	snprintf(in->summary, sizeof in->summary,
	         "GPU %d sat idle for %s (%.1f%% of the makespan) while another worked", w,
	         units_time(d->dev[w].idle_while_busy_ns, b1, sizeof b1),
	         100.0 * (double)d->dev[w].idle_while_busy_ns / (double)a->makespan_ns);
	snprintf(in->evidence, sizeof in->evidence, "GPU %d busy %s of %s of GPU work; the devices' mean busy time %s",
	         w, units_time(d->dev[w].busy_ns, b1, sizeof b1), units_time(d->span_ns, b2, sizeof b2),
	         units_time(mean, b3, sizeof b3));
	insight_multi_recs(in, in->evidence, sizeof in->evidence);
	if (a->makespan_ns > mean) {
		in->have_gain = true;
		in->gain_ns = a->makespan_ns - mean;
		snprintf(in->gain_how, sizeof in->gain_how,
		         "at most: the makespan less the devices' mean busy time (balanced work, no other limit)");
	}
}

/* host-link-contention: two or more devices' host copies (H2D, D2H) overlapped for INSIGHT_MULTI_LINK_SHARE of the
 * makespan or more (struct ss_devsum's link_shared_ns): where their GPUs share one host link (a PCIe switch, a NUMA
 * node's lanes) each copy then runs at part of the link's rate. Evidence: the first host copies that overlapped
 * another device's. No gain: how much the link was the limit is not in a trace. */
static void insight_multi_link(const struct ss_timeline *t, const struct ss_analysis *a, const struct ss_devsum *d,
                               struct ss_insights *out)
{
	struct ss_insight *in;
	char b1[32];

	if (d->ndev < 2 || (double)d->link_shared_ns < INSIGHT_MULTI_LINK_SHARE * (double)a->makespan_ns)
		return;
	if ((in = insight_multi_new(
	         out, "host-link-contention", SS_SEV_HINT,
	         "Stagger the devices' host copies (offset their pipelines by a chunk), keep the data on the "
	         "devices and move it over the peer link, or put the GPUs on separate host links (PCIe "
	         "switches, NUMA nodes) and their host buffers on the matching node.")) == NULL)
		return;
	for (size_t i = 0; i < t->n && in->nrec < SS_INSIGHT_MAX_RECS; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->kind != SS_KIND_H2D && r->kind != SS_KIND_D2H)
			continue;
		for (size_t j = i + 1; j < t->n && t->rec[j].start < r->end; j++)
			if ((t->rec[j].kind == SS_KIND_H2D || t->rec[j].kind == SS_KIND_D2H) &&
			    t->rec[j].device != r->device) {
				insight_multi_note(in, t, i);
				break;
			}
	}
	snprintf(in->summary, sizeof in->summary,
	         "host copies of two or more devices overlapped for %s (%.1f%% of the makespan), sharing the host's "
	         "bandwidth where the GPUs share a link",
	         units_time(d->link_shared_ns, b1, sizeof b1),
	         100.0 * (double)d->link_shared_ns / (double)a->makespan_ns);
	snprintf(in->evidence, sizeof in->evidence,
	         "%d devices; per device, the time its H2D/D2H ran beside another's:", d->ndev);
	for (int i = 0; i < d->ndev; i++) {
		size_t off = strlen(in->evidence);

		snprintf(in->evidence + off, sizeof in->evidence - off, "%s GPU %d %s", i ? "," : "", i,
		         units_time(d->dev[i].link_shared_ns, b1, sizeof b1));
	}
	insight_multi_recs(in, in->evidence, sizeof in->evidence);
}

void insight_multi_analyze(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out)
{
	struct ss_devsum d;

	if (t->n == 0 || a->makespan_ns == 0 || timeline_ndevices(t) < 2)
		return;
	devsum_build(t, &d);
	insight_multi_peer(t, a, &d, out);
	insight_multi_idle(t, a, &d, out);
	insight_multi_link(t, a, &d, out);
	devsum_free(&d);
}
