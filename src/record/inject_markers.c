/* inject_markers.c: NVTX range halves -> marker intervals (see inject_markers.h). */
#include "record/inject_markers.h"

#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "core/xalloc.h"

void inject_markers_init(struct inject_markers *m)
{
	memset(m, 0, sizeof *m);
}

void inject_markers_free(struct inject_markers *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	memset(m, 0, sizeof *m);
}

/* Finds the pending range id, searching from the newest: push/pop ranges close in LIFO order, so the match is
 * usually the last one and the search stays short. */
static struct inject_marker *inject_markers_find(struct inject_markers *m, uint32_t id)
{
	for (size_t i = m->n; i > 0; i--)
		if (m->v[i - 1].id == id)
			return &m->v[i - 1];
	return NULL;
}

static struct inject_marker *inject_markers_new(struct inject_markers *m, uint32_t id)
{
	struct inject_marker *p;

	p = VEC_PUSH(m->v, m->n, m->cap, 64);
	memset(p, 0, sizeof *p);
	p->id = id;
	return p;
}

/* Moves the completed range p into *out and removes it from the pending list. */
static void inject_markers_take(struct inject_markers *m, struct inject_marker *p, struct inject_marker_out *out)
{
	memset(&out->rec, 0, sizeof out->rec);
	out->rec.kind = SS_KIND_MARKER;
	out->rec.stream = SS_STREAM_HOST;
	out->rec.start = p->start;
	out->rec.end = p->end < p->start ? p->start : p->end;
	out->rec.thread = p->thread;
	out->rec.correlation = p->id;
	out->name = p->name;
	*p = m->v[--m->n];
}

bool inject_markers_start(struct inject_markers *m, uint32_t id, uint64_t t, uint32_t thread, const char *name,
                          struct inject_marker_out *out)
{
	struct inject_marker *p = inject_markers_find(m, id);

	if (p == NULL || p->have_start)
		p = inject_markers_new(m, id);
	p->have_start = true;
	p->start = t;
	p->thread = thread;
	free(p->name);
	p->name = xstrdup(name != NULL ? name : "");
	if (!p->have_end)
		return false;
	inject_markers_take(m, p, out);
	return true;
}

bool inject_markers_end(struct inject_markers *m, uint32_t id, uint64_t t, struct inject_marker_out *out)
{
	struct inject_marker *p = inject_markers_find(m, id);

	if (p == NULL || p->have_end)
		p = inject_markers_new(m, id);
	p->have_end = true;
	p->end = t;
	if (!p->have_start)
		return false;
	inject_markers_take(m, p, out);
	return true;
}

void inject_markers_instant(uint32_t id, uint64_t t, uint32_t thread, const char *name, struct inject_marker_out *out)
{
	memset(&out->rec, 0, sizeof out->rec);
	out->rec.kind = SS_KIND_MARKER;
	out->rec.stream = SS_STREAM_HOST;
	out->rec.start = out->rec.end = t;
	out->rec.thread = thread;
	out->rec.correlation = id;
	out->name = xstrdup(name != NULL ? name : "");
}

bool inject_markers_close(struct inject_markers *m, uint64_t t, struct inject_marker_out *out)
{
	while (m->n > 0) {
		struct inject_marker *p = &m->v[m->n - 1];

		if (!p->have_start) {
			m->orphans++;
			free(p->name);
			m->n--;
			continue;
		}
		char *old = p->name;

		p->end = t;
		p->name = xasprintf("%s (open at exit)", old);
		free(old);
		inject_markers_take(m, p, out);
		return true;
	}
	return false;
}
