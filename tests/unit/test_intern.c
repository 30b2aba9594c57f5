/* test_intern.c: core/intern: each string stored once under a dense id, id 0 for "" and NULL, strings found by
 * (pointer, length) with no NUL after them, lengths that tell prefixes and NULs apart, long strings, 100,000 strings
 * through many rehashes with their ids and pointers stable, lookups that add nothing, clear and copy. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/intern.h"

static void test_intern_dedup_and_zero(void **state)
{
	struct intern in;

	(void)state;
	intern_init(&in);
	assert_int_equal(in.n, 1);
	assert_string_equal(intern_str(&in, 0), "");
	assert_int_equal(intern_cstr(&in, NULL), 0);
	assert_int_equal(intern_cstr(&in, ""), 0);
	assert_int_equal(intern_add(&in, NULL, 0), 0);
	assert_int_equal(intern_add(&in, "abc", 0), 0); /* length 0 is "" whatever the pointer */
	assert_int_equal(in.n, 1);
	assert_int_equal(intern_cstr(&in, "cudaMemcpyAsync"), 1);
	assert_int_equal(intern_cstr(&in, "cudaLaunchKernel"), 2);
	assert_int_equal(intern_cstr(&in, "cudaMemcpyAsync"), 1);
	assert_int_equal(intern_add(&in, "cudaLaunchKernel", 16), 2);
	assert_int_equal(in.n, 3);
	assert_string_equal(intern_str(&in, 1), "cudaMemcpyAsync");
	assert_int_equal(intern_len(&in, 2), 16);
	assert_string_equal(intern_str(&in, 3), ""); /* out of range */
	assert_string_equal(intern_str(&in, UINT32_MAX), "");
	assert_int_equal(intern_len(&in, 3), 0);
	intern_free(&in);
	assert_string_equal(intern_str(&in, 1), ""); /* a freed interner is empty, not dangling */
	intern_free(&in);                            /* and freeing it again is harmless */
}

/* Names taken out of a larger buffer by (pointer, length), as a parser sees them: prefixes of one another are
 * different strings, and the copy is NUL-terminated though the source was not. */
static void test_intern_lengths(void **state)
{
	static const char buf[] = "cudaStreamSynchronizecudaStreamSynchronizeX";
	struct intern in;
	uint32_t a, b, c, d, id;

	(void)state;
	intern_init(&in);
	a = intern_add(&in, buf, 4);       /* "cuda" */
	b = intern_add(&in, buf, 10);      /* "cudaStream" */
	c = intern_add(&in, buf + 21, 21); /* "cudaStreamSynchronize", the second one */
	d = intern_add(&in, buf + 21, 22); /* with the X */
	assert_int_equal(a, 1);
	assert_int_equal(b, 2);
	assert_int_equal(c, 3);
	assert_int_equal(d, 4);
	assert_int_equal(intern_add(&in, buf, 21), c); /* the first copy of the same bytes */
	assert_int_equal(intern_cstr(&in, "cudaStream"), b);
	assert_string_equal(intern_str(&in, a), "cuda");
	assert_string_equal(intern_str(&in, c), "cudaStreamSynchronize");
	assert_string_equal(intern_str(&in, d), "cudaStreamSynchronizeX");
	assert_int_equal(intern_len(&in, b), 10);
	/* NULs inside: told apart by length, read back whole through intern_len */
	a = intern_add(&in, "x\0y", 3);
	b = intern_add(&in, "x\0z", 3);
	assert_int_not_equal(a, b);
	assert_int_equal(intern_add(&in, "x\0y", 3), a);
	assert_int_not_equal(intern_cstr(&in, "x"), a); /* "x" alone is a third string */
	assert_int_equal(intern_len(&in, a), 3);
	assert_memory_equal(intern_str(&in, b), "x\0z", 4);
	/* lookups add nothing */
	assert_true(intern_find(&in, buf, 10, &id));
	assert_int_equal(id, 2);
	assert_false(intern_find(&in, buf, 11, &id));
	assert_int_equal(id, 0);
	assert_true(intern_find(&in, NULL, 0, &id));
	assert_int_equal(id, 0);
	assert_int_equal(in.n, 8);
	intern_free(&in);
}

/* Strings of 1 byte to 1 MiB, differing only in their last byte or their length (the hash reads 8 bytes at a time:
 * every tail length 0..7 is met). */
static void test_intern_long(void **state)
{
	enum { BIG = 1 << 20 };
	char *s = malloc(BIG + 1);
	struct intern in;
	uint32_t id[2][24];

	(void)state;
	assert_non_null(s);
	memset(s, 'k', BIG);
	intern_init(&in);
	for (int round = 0; round < 2; round++)
		for (int k = 0; k < 24; k++) {
			size_t len = k < 16 ? (size_t)k + 1 : (size_t)BIG - 8 + (size_t)(k - 16) + 1;

			s[len - 1] = 'z';
			id[round][k] = intern_add(&in, s, len);
			s[len - 1] = 'k';
		}
	for (int k = 0; k < 24; k++) {
		size_t len = k < 16 ? (size_t)k + 1 : (size_t)BIG - 8 + (size_t)(k - 16) + 1;
		const char *got = intern_str(&in, id[0][k]);

		assert_int_equal(id[0][k], k + 1);
		assert_int_equal(id[1][k], id[0][k]);
		assert_int_equal(intern_len(&in, id[0][k]), len);
		assert_int_equal(strlen(got), len);
		assert_int_equal(got[len - 1], 'z');
		assert_int_equal(got[0], len == 1 ? 'z' : 'k');
	}
	intern_free(&in);
	free(s);
}

/* 100,000 strings: ids dense in order and stable, their pointers too, across the rehashes; the table stays a power
 * of two at most half full. */
static void test_intern_many(void **state)
{
	enum { N = 100000 };
	struct intern in;
	const char *first;
	char name[32];

	(void)state;
	intern_init(&in);
	first = intern_str(&in, intern_cstr(&in, "kernel_0"));
	for (uint32_t i = 1; i < N; i++) {
		snprintf(name, sizeof name, "kernel_%u", i);
		assert_int_equal(intern_cstr(&in, name), i + 1);
	}
	assert_int_equal(in.n, N + 1);
	assert_int_equal(in.nslot & (in.nslot - 1), 0);
	assert_true(in.n * 2 <= in.nslot);
	assert_true(in.nslot >= 2 * N);
	for (uint32_t i = 0; i < N; i++) {
		uint32_t id;

		snprintf(name, sizeof name, "kernel_%u", i);
		assert_true(intern_find(&in, name, strlen(name), &id));
		assert_int_equal(id, i + 1);
		assert_int_equal(intern_cstr(&in, name), i + 1);
		assert_string_equal(intern_str(&in, i + 1), name);
	}
	assert_int_equal(in.n, N + 1); /* nothing added twice */
	assert_ptr_equal(intern_str(&in, 1), first);
	intern_free(&in);
}

static void test_intern_clear_and_copy(void **state)
{
	struct intern in, cp;
	char name[32];
	uint32_t id;

	(void)state;
	intern_init(&in);
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof name, "n%d", i);
		intern_cstr(&in, name);
	}
	intern_copy(&cp, &in);
	intern_clear(&in);
	assert_int_equal(in.n, 1);
	assert_false(intern_find(&in, "n5", 2, &id));
	assert_int_equal(intern_cstr(&in, "n999"), 1); /* ids start again at 1 */
	assert_int_equal(intern_cstr(&in, "n5"), 2);
	/* the copy kept everything, under the same ids, in strings of its own */
	assert_int_equal(cp.n, 1001);
	assert_true(intern_find(&cp, "n999", 4, &id));
	assert_int_equal(id, 1000);
	assert_string_equal(intern_str(&cp, 6), "n5");
	assert_ptr_not_equal(intern_str(&cp, 1), intern_str(&in, 1));
	assert_int_equal(intern_cstr(&cp, "new"), 1001);
	assert_int_equal(intern_cstr(&in, "new"), 3);
	intern_free(&in);
	assert_string_equal(intern_str(&cp, 1), "n0"); /* the copy outlives its source */
	intern_free(&cp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_intern_dedup_and_zero), cmocka_unit_test(test_intern_lengths),
	    cmocka_unit_test(test_intern_long),           cmocka_unit_test(test_intern_many),
	    cmocka_unit_test(test_intern_clear_and_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
