/* vec.h: the one growable-array idiom: a (pointer, count, capacity) triple grown by doubling through vec_grow. */
#ifndef SS_CORE_VEC_H
#define SS_CORE_VEC_H

#include <stddef.h>
#include <stdint.h>

/* vec_capacity is the growth policy: the capacity that an array of cap elements of elem bytes grows to so that it
 * holds need. It is cap when cap >= need (no growth); otherwise it starts from cap, or from min when cap is 0, and
 * doubles until it holds need, so n pushes cost O(n) copies in all (amortised O(1) each). No array is larger than
 * PTRDIFF_MAX bytes (what malloc can give): when doubling would pass that it stops at need, and when need itself is
 * beyond it vec_capacity returns 0, the only time it returns 0 for need > 0. */
size_t vec_capacity(size_t cap, size_t need, size_t elem, size_t min);

/* vec_grow reallocates p (an array of *cap elements of elem bytes, NULL when *cap is 0) to vec_capacity(*cap, need,
 * elem, min) elements, sets *cap to that and returns the new array; elements 0..*cap-1 of the old array keep their
 * values, the new ones are uninitialised. Aborts through xfatal when the size overflows or memory runs out; never
 * returns NULL. min is the capacity of a first allocation (0, or more than fits, count as 1). */
void *vec_grow(void *p, size_t *cap, size_t need, size_t elem, size_t min);

/* vec_need is n + more, or SIZE_MAX when that overflows (which vec_grow then refuses). */
static inline size_t vec_need(size_t n, size_t more)
{
	return more > SIZE_MAX - n ? SIZE_MAX : n + more;
}

/* vec_fits tells whether more elements fit after the n of cap (a function, so a constant more of 0 draws no
 * always-true warning). */
static inline int vec_fits(size_t n, size_t cap, size_t more)
{
	return more <= cap - n;
}

/* VEC_RESERVE makes room for more elements after the n in p, whose capacity is cap (a size_t lvalue: the compiler
 * refuses another type), growing it through vec_grow with min as the first capacity; an expression of type void.
 * VEC_PUSH makes room for one more element and evaluates to a pointer to it (element n, uninitialised), counting
 * it in n. Both evaluate p, n and cap more than once: pass plain lvalues. */
#define VEC_RESERVE(p, n, cap, more, min)                                                                              \
	((void)(vec_fits((size_t)(n), (cap), (size_t)(more))                                                           \
	            ? 0                                                                                                \
	            : ((p) = vec_grow((p), &(cap), vec_need((size_t)(n), (size_t)(more)), sizeof *(p), (min)), 0)))
#define VEC_PUSH(p, n, cap, min) (VEC_RESERVE(p, n, cap, 1, min), &(p)[(n)++])

#endif
