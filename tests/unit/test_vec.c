/* test_vec.c: core/vec: the growth policy (first capacity, doubling, exact fit near the limit, refusal past it),
 * VEC_PUSH and VEC_RESERVE on a (pointer, count, capacity) triple keeping their contents across growth, counts of
 * another integer type, and an impossible size refused with exit status 1 in a forked child. */
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
#include <sys/wait.h>
#include <unistd.h>

#include "core/vec.h"

static void test_vec_capacity_policy(void **state)
{
	(void)state;
	assert_int_equal(vec_capacity(0, 0, 8, 16), 0); /* nothing asked, nothing grown */
	assert_int_equal(vec_capacity(0, 1, 8, 16), 16);
	assert_int_equal(vec_capacity(0, 17, 8, 16), 32); /* doubles from min until it holds need */
	assert_int_equal(vec_capacity(0, 1, 8, 0), 1);    /* min 0 counts as 1 */
	assert_int_equal(vec_capacity(0, 5, 8, 0), 8);
	assert_int_equal(vec_capacity(16, 16, 8, 64), 16); /* fits: no growth */
	assert_int_equal(vec_capacity(16, 17, 8, 64), 32); /* doubles from cap, not from min */
	assert_int_equal(vec_capacity(3, 4, 8, 64), 6);    /* a capacity below min set elsewhere still doubles */
	assert_int_equal(vec_capacity(16, 1000, 8, 64), 1024);
	assert_int_equal(vec_capacity(1 << 17, (1 << 17) + 65536, 1, 1 << 17), 1 << 18); /* runner's read buffer */
}

static void test_vec_capacity_limit(void **state)
{
	size_t limit = (size_t)PTRDIFF_MAX / 16;

	(void)state;
	assert_int_equal(vec_capacity(0, limit, 16, 16), limit); /* the largest array is allowed... */
	assert_int_equal(vec_capacity(0, limit + 1, 16, 16), 0); /* ... one more element is not */
	assert_int_equal(vec_capacity(0, SIZE_MAX, 1, 16), 0);   /* what vec_need gives on overflow */
	assert_int_equal(vec_capacity(limit / 2 + 1, limit / 2 + 2, 16, 16), limit / 2 + 2); /* no doubling past it */
	assert_int_equal(vec_capacity(0, 2, 16, SIZE_MAX), 2); /* a min past the limit counts as 1 */
	assert_int_equal(vec_need(SIZE_MAX - 1, 1), SIZE_MAX);
	assert_int_equal(vec_need(SIZE_MAX - 1, 2), SIZE_MAX); /* saturates rather than wrapping to 0 */
	assert_int_equal(vec_need(3, 4), 7);
}

/* A grown array as the project's structs hold them. */
struct pair_vec {
	struct pair {
		uint32_t a;
		uint64_t b;
	} * v;
	size_t n, cap;
};

static void test_vec_push_keeps_contents(void **state)
{
	struct pair_vec pv = {0};
	size_t grown = 0, last = 0;

	(void)state;
	for (uint32_t i = 0; i < 100000; i++) {
		struct pair *p = VEC_PUSH(pv.v, pv.n, pv.cap, 16);

		p->a = i;
		p->b = (uint64_t)i * 3 + 1;
		if (pv.cap != last) {
			grown++;
			last = pv.cap;
		}
		assert_int_equal(pv.n, i + 1);
		assert_true(pv.cap >= pv.n);
	}
	assert_int_equal(pv.cap, 131072); /* 16 doubled 13 times */
	assert_int_equal(grown, 14);
	for (uint32_t i = 0; i < 100000; i++) {
		assert_int_equal(pv.v[i].a, i);
		assert_int_equal(pv.v[i].b, (uint64_t)i * 3 + 1);
	}
	free(pv.v);
}

static void test_vec_reserve(void **state)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	char *before;

	(void)state;
	VEC_RESERVE(buf, len, cap, 65536, 1 << 17);
	assert_int_equal(cap, 1 << 17);
	for (size_t i = 0; i < 100000; i++)
		buf[len++] = (char)(i % 251);
	VEC_RESERVE(buf, len, cap, 65536, 1 << 17); /* 31072 free: grows once, by doubling */
	assert_int_equal(cap, 1 << 18);
	before = buf;
	VEC_RESERVE(buf, len, cap, 65536, 1 << 17); /* room enough: untouched */
	assert_ptr_equal(buf, before);
	assert_int_equal(cap, 1 << 18);
	VEC_RESERVE(buf, len, cap, 1000000, 1 << 17); /* far more than a doubling: doubles until it fits */
	assert_int_equal(cap, 1 << 21);
	VEC_RESERVE(buf, len, cap, 0, 1 << 17);
	assert_int_equal(cap, 1 << 21);
	for (size_t i = 0; i < 100000; i++)
		assert_int_equal(buf[i], (char)(i % 251));
	free(buf);
}

static void test_vec_int_count(void **state)
{
	int *v = NULL, n = 0;
	size_t cap = 0;

	(void)state;
	for (int i = 0; i < 1000; i++)
		*VEC_PUSH(v, n, cap, 8) = -i;
	assert_int_equal(n, 1000);
	assert_int_equal(cap, 1024);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(v[i], -i);
	free(v);
}

/* vec_refused runs fn in a child with stderr in a file and returns its exit status (-1 when it did not exit), its
 * message in msg. */
static int vec_refused(void (*fn)(void), char *msg, size_t len)
{
	char path[] = "/tmp/test_vec.XXXXXX";
	int fd = mkstemp(path), st;
	pid_t pid;
	ssize_t got;

	assert_true(fd >= 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd, 2);
		fn();
		_exit(2); /* not reached when refused */
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	got = pread(fd, msg, len - 1, 0);
	msg[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(path);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* 2^59 elements of 16 bytes: 2^63 bytes, which a size_t holds but no array can be. */
static void vec_grow_huge(void)
{
	char(*v)[16] = NULL;
	size_t cap = 0;

	v = vec_grow(v, &cap, (size_t)1 << 59, sizeof *v, 16);
	_exit(v != NULL ? 3 : 4);
}

/* n + more wraps to 3: without the saturation it would fit in cap 8 and return with nothing allocated. */
static void vec_reserve_wrapping(void)
{
	char *b = NULL;
	size_t n = 8, cap = 8;

	VEC_RESERVE(b, n, cap, SIZE_MAX - 4, 16);
	_exit(b == NULL ? 5 : 6);
}

/* Arrays that cannot exist are refused (exit 1 through xfatal, with vec's message) rather than wrapped into a
 * small block the caller would overrun or handed to realloc to fail. */
static void test_vec_overflow_refused(void **state)
{
	char msg[256];

	(void)state;
	assert_int_equal(vec_refused(vec_grow_huge, msg, sizeof msg), 1);
	assert_non_null(strstr(msg, "an array of 576460752303423488 x 16 bytes"));
	assert_int_equal(vec_refused(vec_reserve_wrapping, msg, sizeof msg), 1);
	assert_non_null(strstr(msg, "an array of"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_vec_capacity_policy),     cmocka_unit_test(test_vec_capacity_limit),
	    cmocka_unit_test(test_vec_push_keeps_contents), cmocka_unit_test(test_vec_reserve),
	    cmocka_unit_test(test_vec_int_count),           cmocka_unit_test(test_vec_overflow_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
