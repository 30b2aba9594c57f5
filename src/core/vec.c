/* vec.c: the growth policy of every growable array, and the one place that reallocates them. */
#include "core/vec.h"

#include <stdint.h>

#include "core/xalloc.h"

size_t vec_capacity(size_t cap, size_t need, size_t elem, size_t min)
{
	size_t limit = (size_t)PTRDIFF_MAX / (elem == 0 ? 1 : elem);
	size_t c;

	if (need <= cap)
		return cap;
	if (need > limit)
		return 0;
	c = cap != 0 ? cap : min != 0 && min <= limit ? min : 1;
	while (c < need)
		c = c > limit / 2 ? need : c * 2;
	return c;
}

void *vec_grow(void *p, size_t *cap, size_t need, size_t elem, size_t min)
{
	size_t c = vec_capacity(*cap, need, elem, min);

	if (c == 0)
		xfatal(1, "out of memory (an array of %zu x %zu bytes)", need, elem);
	if (c == *cap)
		return p;
	p = xreallocarray(p, c, elem);
	*cap = c;
	return p;
}
