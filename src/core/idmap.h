/* idmap.h: a hash map from 64-bit ids (stream ids, track keys, correlation ids) to 32-bit values. */
#ifndef SS_CORE_IDMAP_H
#define SS_CORE_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Open addressing with linear probing; the map grows at half load. */
struct idmap {
	uint64_t *key;
	uint32_t *val;
	bool *used;
	size_t cap; /* power of two, 0 before the first put */
	size_t n;
};

void idmap_init(struct idmap *m);
void idmap_free(struct idmap *m);
/* idmap_get returns true and the value of key in *val when key is present. */
bool idmap_get(const struct idmap *m, uint64_t key, uint32_t *val);
/* idmap_put sets the value of key (adding it when new). */
void idmap_put(struct idmap *m, uint64_t key, uint32_t val);

#endif
