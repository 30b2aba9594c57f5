/* intern.h: the one string interner: each distinct string stored once, named by a small dense id. */
#ifndef SS_CORE_INTERN_H
#define SS_CORE_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One interned string: a NUL-terminated copy the interner owns, its length, and its hash. */
struct intern_entry {
	char *s;
	size_t len;
	uint32_t hash;
};

/* Strings by id: 0 is the empty string, the others are dense from 1 in the order they were first added and stable
 * until intern_clear or intern_free. Found by their bytes through an open-addressing table of ids (linear probing,
 * a power of two of slots, at most half full). Initialise with intern_init; not thread-safe. */
struct intern {
	struct intern_entry *e; /* [id]; e[0] is "" */
	size_t n, cap;          /* ids in use, 0 included (n >= 1), and the capacity of e */
	uint32_t *slot;         /* ids, 0 = an empty slot */
	size_t nslot;           /* power of two */
};

/* intern_init makes an empty interner (only "", id 0); intern_free frees it and its strings (pointers from
 * intern_str die with them); intern_clear drops every string but "" and keeps the memory of the tables. */
void intern_init(struct intern *in);
void intern_free(struct intern *in);
void intern_clear(struct intern *in);
/* intern_copy makes dst (uninitialised or freed) an independent copy of src: same ids, its own strings. */
void intern_copy(struct intern *dst, const struct intern *src);
/* intern_add returns the id of the len bytes at s, copying them in when new; len 0 gives 0 (s may then be NULL).
 * The bytes need no NUL after them and may hold NULs: strings are equal when their lengths and bytes are (a string
 * with a NUL reads back cut there through intern_str, whole through intern_len). Aborts (xfatal) on out of memory
 * or past UINT32_MAX ids. Amortised O(len). */
uint32_t intern_add(struct intern *in, const char *s, size_t len);
/* intern_cstr is intern_add of a NUL-terminated s; NULL and "" give 0. */
uint32_t intern_cstr(struct intern *in, const char *s);
/* intern_find looks the len bytes at s up without adding them: true and their id in *id when present (len 0 is
 * always present, as 0). */
bool intern_find(const struct intern *in, const char *s, size_t len, uint32_t *id);
/* intern_str returns the NUL-terminated string of id, "" when id is out of range; intern_len its length (0 out of
 * range). */
const char *intern_str(const struct intern *in, uint32_t id);
size_t intern_len(const struct intern *in, uint32_t id);

#endif
