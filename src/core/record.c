/* record.c: names of record kinds. */
#include "core/record.h"

#include <strings.h>

static const char *const record_kind_names[SS_KIND_COUNT] = {
    "H2D", "D2H", "D2D", "MEMSET", "KER", "API", "SYNC", "NVTX",
};

const char *record_kind_name(int kind)
{
	if (kind < 0 || kind >= SS_KIND_COUNT)
		return "?";
	return record_kind_names[kind];
}

int record_cmp(const struct ss_record *x, const struct ss_record *y)
{
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->correlation < y->correlation ? -1 : x->correlation > y->correlation;
}

int record_kind_parse(const char *s)
{
	for (int k = 0; k < SS_KIND_COUNT; k++)
		if (strcasecmp(s, record_kind_names[k]) == 0)
			return k;
	if (strcasecmp(s, "KERNEL") == 0)
		return SS_KIND_KERNEL;
	return -1;
}

int record_peer_src(const struct ss_record *r)
{
	if (!(r->flags & SS_REC_PEER))
		return r->device;
	return (r->flags & SS_REC_PEER_IN) ? r->peer : r->device;
}

int record_peer_dst(const struct ss_record *r)
{
	if (!(r->flags & SS_REC_PEER))
		return r->device;
	return (r->flags & SS_REC_PEER_IN) ? r->device : r->peer;
}
