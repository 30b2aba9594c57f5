/* intern.c: the string interner: entries in a vector, ids found through an open-addressing table of their hashes. */
#include "core/intern.h"

#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "core/xalloc.h"

#define INTERN_MIN_ENTRIES 16
#define INTERN_MIN_SLOTS 64

/* intern_hash hashes the len bytes at s, eight at a time (kernel names run to hundreds of bytes). */
static uint32_t intern_hash(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len;

	for (; len >= 8; s += 8, len -= 8) {
		uint64_t w;

		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (; len > 0; s++, len--)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	h ^= h >> 29;
	return (uint32_t)h;
}

/* intern_rehash rebuilds the slots at nslot (a power of two) from the entries' stored hashes. */
static void intern_rehash(struct intern *in, size_t nslot)
{
	free(in->slot);
	in->slot = xcalloc(nslot, sizeof *in->slot);
	in->nslot = nslot;
	for (size_t id = 1; id < in->n; id++) {
		size_t i = in->e[id].hash & (nslot - 1);

		while (in->slot[i] != 0)
			i = (i + 1) & (nslot - 1);
		in->slot[i] = (uint32_t)id;
	}
}

void intern_init(struct intern *in)
{
	memset(in, 0, sizeof *in);
	in->e = vec_grow(NULL, &in->cap, 1, sizeof *in->e, INTERN_MIN_ENTRIES);
	in->e[0] = (struct intern_entry){.s = "", .len = 0, .hash = 0}; /* never freed */
	in->n = 1;
	intern_rehash(in, INTERN_MIN_SLOTS);
}

void intern_free(struct intern *in)
{
	for (size_t id = 1; id < in->n; id++)
		free(in->e[id].s);
	free(in->e);
	free(in->slot);
	memset(in, 0, sizeof *in);
}

void intern_clear(struct intern *in)
{
	for (size_t id = 1; id < in->n; id++)
		free(in->e[id].s);
	in->n = 1;
	memset(in->slot, 0, in->nslot * sizeof *in->slot);
}

void intern_copy(struct intern *dst, const struct intern *src)
{
	dst->n = src->n;
	dst->cap = src->cap;
	dst->e = xreallocarray(NULL, src->cap, sizeof *dst->e);
	dst->e[0] = src->e[0];
	for (size_t id = 1; id < src->n; id++) {
		dst->e[id] = src->e[id];
		dst->e[id].s = xmalloc(src->e[id].len + 1);
		memcpy(dst->e[id].s, src->e[id].s, src->e[id].len + 1);
	}
	dst->nslot = src->nslot;
	dst->slot = xreallocarray(NULL, src->nslot, sizeof *dst->slot);
	memcpy(dst->slot, src->slot, src->nslot * sizeof *dst->slot);
}

/* intern_probe returns the slot that holds the len bytes at s (hash h), or the empty slot where they would go. */
static size_t intern_probe(const struct intern *in, const char *s, size_t len, uint32_t h)
{
	size_t mask = in->nslot - 1, i = h & mask;

	for (; in->slot[i] != 0; i = (i + 1) & mask) {
		const struct intern_entry *e = &in->e[in->slot[i]];

		if (e->hash == h && e->len == len && memcmp(e->s, s, len) == 0)
			break;
	}
	return i;
}

uint32_t intern_add(struct intern *in, const char *s, size_t len)
{
	uint32_t h;
	size_t i;
	struct intern_entry *e;

	if (len == 0)
		return 0;
	h = intern_hash(s, len);
	i = intern_probe(in, s, len, h);
	if (in->slot[i] != 0)
		return in->slot[i];
	if (in->n > UINT32_MAX)
		xfatal(1, "more than %u distinct names", (unsigned)UINT32_MAX);
	e = VEC_PUSH(in->e, in->n, in->cap, INTERN_MIN_ENTRIES);
	e->s = xmalloc(len + 1);
	memcpy(e->s, s, len);
	e->s[len] = '\0';
	e->len = len;
	e->hash = h;
	in->slot[i] = (uint32_t)(in->n - 1);
	if (in->n * 2 > in->nslot)
		intern_rehash(in, in->nslot * 2);
	return (uint32_t)(in->n - 1);
}

uint32_t intern_cstr(struct intern *in, const char *s)
{
	return s == NULL ? 0 : intern_add(in, s, strlen(s));
}

bool intern_find(const struct intern *in, const char *s, size_t len, uint32_t *id)
{
	size_t i;

	if (len == 0) {
		*id = 0;
		return true;
	}
	i = intern_probe(in, s, len, intern_hash(s, len));
	*id = in->slot[i];
	return *id != 0;
}

const char *intern_str(const struct intern *in, uint32_t id)
{
	return id < in->n ? in->e[id].s : "";
}

size_t intern_len(const struct intern *in, uint32_t id)
{
	return id < in->n ? in->e[id].len : 0;
}
