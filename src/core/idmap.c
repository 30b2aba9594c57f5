/* idmap.c: open-addressing hash map of 64-bit keys. */
#include "core/idmap.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

static size_t idmap_slot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void idmap_init(struct idmap *m)
{
	memset(m, 0, sizeof *m);
}

void idmap_free(struct idmap *m)
{
	free(m->key);
	free(m->val);
	free(m->used);
	memset(m, 0, sizeof *m);
}

bool idmap_get(const struct idmap *m, uint64_t key, uint32_t *val)
{
	if (m->cap == 0)
		return false;
	for (size_t i = idmap_slot(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key) {
			*val = m->val[i];
			return true;
		}
	return false;
}

/* idmap_grow doubles the table (64 slots the first time) and puts every key again: a rehash, not a vector's
 * growth (core/vec), since each key moves to the slot of its hash in the larger table. idmap_put calls it before
 * the table would be more than half full, which keeps probes short and the doubling amortised O(1) a put. */
static void idmap_grow(struct idmap *m)
{
	struct idmap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->key = xcalloc(m->cap, sizeof *m->key);
	m->val = xcalloc(m->cap, sizeof *m->val);
	m->used = xcalloc(m->cap, sizeof *m->used);
	m->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.used[i])
			idmap_put(m, old.key[i], old.val[i]);
	free(old.key);
	free(old.val);
	free(old.used);
}

void idmap_put(struct idmap *m, uint64_t key, uint32_t val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap)
		idmap_grow(m);
	for (i = idmap_slot(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key) {
			m->val[i] = val;
			return;
		}
	m->used[i] = true;
	m->key[i] = key;
	m->val[i] = val;
	m->n++;
}
