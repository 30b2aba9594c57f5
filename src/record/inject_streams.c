/* inject_streams.c: the stream table of a recorded process (see inject_streams.h). */
#include "record/inject_streams.h"

#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "core/vec.h"
#include "record/contract.h"

/* CUpti_ActivityStreamFlag values (CUPTI.md; kept here so the table stays free of CUPTI headers). */
#define INJECT_FLAG_DEFAULT 1
#define INJECT_FLAG_NON_BLOCKING 2
#define INJECT_FLAG_NULL 3

void inject_streams_init(struct inject_streams *s)
{
	memset(s, 0, sizeof *s);
}

void inject_streams_free(struct inject_streams *s)
{
	free(s->ids);
	free(s->kinds);
	free(s->sent);
	free(s->per_thread);
	memset(s, 0, sizeof *s);
}

static int inject_streams_index(const struct inject_streams *s, uint32_t id)
{
	for (int i = 0; i < s->n; i++)
		if (s->ids[i] == id)
			return i;
	return -1;
}

static bool inject_streams_is_per_thread(const struct inject_streams *s, uint32_t id)
{
	for (int i = 0; i < s->npt; i++)
		if (s->per_thread[i] == id)
			return true;
	return false;
}

/* Appends id with kind; returns its index. */
static int inject_streams_add(struct inject_streams *s, uint32_t id, char kind)
{
	VEC_RESERVE(s->ids, s->n, s->ids_cap, 1, 16);
	VEC_RESERVE(s->kinds, s->n, s->kinds_cap, 1, 16);
	VEC_RESERVE(s->sent, s->n, s->sent_cap, 1, 16);
	s->ids[s->n] = id;
	s->kinds[s->n] = kind;
	s->sent[s->n] = '\0';
	s->dirty = true;
	return s->n++;
}

/* Sets the kind of index i, marking the table changed when it differs. */
static void inject_streams_set(struct inject_streams *s, int i, char kind)
{
	if (s->kinds[i] != kind) {
		s->kinds[i] = kind;
		s->dirty = true;
	}
}

void inject_streams_null(struct inject_streams *s, uint32_t id)
{
	int i;

	if (s->have_null && s->null_id == id)
		return;
	i = inject_streams_index(s, id);
	if (!s->have_null) {
		s->have_null = true;
		s->null_id = id;
		if (i >= 0)
			inject_streams_set(s, i, INJECT_STREAM_LEGACY);
	} else if (i >= 0) {
		inject_streams_set(s, i, INJECT_STREAM_LEGACY);
	} else {
		inject_streams_add(s, id, INJECT_STREAM_LEGACY);
	}
}

void inject_streams_per_thread(struct inject_streams *s, uint32_t id)
{
	int i;

	if (inject_streams_is_per_thread(s, id) || (s->have_null && s->null_id == id))
		return;
	*VEC_PUSH(s->per_thread, s->npt, s->ptcap, 8) = id;
	i = inject_streams_index(s, id);
	if (i >= 0)
		inject_streams_set(s, i, INJECT_STREAM_PER_THREAD);
}

void inject_streams_created(struct inject_streams *s, uint32_t id, unsigned flag)
{
	int i;
	char kind;

	if (flag == INJECT_FLAG_NULL) {
		inject_streams_null(s, id);
		return;
	}
	if ((s->have_null && s->null_id == id) || id == INJECT_STREAM_NONE)
		return;
	if (inject_streams_is_per_thread(s, id)) {
		i = inject_streams_index(s, id);
		if (i >= 0)
			inject_streams_set(s, i, INJECT_STREAM_PER_THREAD);
		return;
	}
	kind = flag == INJECT_FLAG_DEFAULT        ? INJECT_STREAM_BLOCKING
	       : flag == INJECT_FLAG_NON_BLOCKING ? INJECT_STREAM_NONBLOCKING
	                                          : INJECT_STREAM_UNKNOWN;
	i = inject_streams_index(s, id);
	if (i < 0)
		inject_streams_add(s, id, kind);
	else if (s->kinds[i] == INJECT_STREAM_UNKNOWN)
		inject_streams_set(s, i, kind);
}

int inject_streams_see(struct inject_streams *s, uint32_t id)
{
	int i;

	i = inject_streams_index(s, id);
	if (i >= 0)
		return i;
	if (id == INJECT_STREAM_NONE || (s->have_null && s->null_id == id) || inject_streams_is_per_thread(s, id))
		return -1;
	return inject_streams_add(s, id, INJECT_STREAM_UNKNOWN);
}

int inject_streams_skind(char letter)
{
	switch (letter) {
	case INJECT_STREAM_BLOCKING:
		return SS_SKIND_BLOCKING;
	case INJECT_STREAM_NONBLOCKING:
		return SS_SKIND_NONBLOCKING;
	case INJECT_STREAM_LEGACY:
		return SS_SKIND_LEGACY;
	case INJECT_STREAM_PER_THREAD:
		return SS_SKIND_PER_THREAD;
	default:
		return SS_SKIND_UNKNOWN;
	}
}

void inject_streams_drain(struct inject_streams *s, bool all, inject_streams_emit_fn *emit, void *arg)
{
	for (int i = 0; i < s->n; i++) {
		if (!all && s->sent[i] == s->kinds[i])
			continue;
		s->sent[i] = s->kinds[i];
		emit(arg, i, s->ids[i], inject_streams_skind(s->kinds[i]));
	}
	s->dirty = false;
}
