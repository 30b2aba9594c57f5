/* test_kernels_host.c: the kernels' host-side references and checks (no GPU: nothing here launches a kernel). */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

static void test_spin_expect(void **state)
{
	static const uint64_t steps[] = {0, 1, 2, 3, 17, 1000, 200000, 400001};

	(void)state;
	for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
		uint32_t x = 0x13572468u;
		for (uint64_t i = 0; i < steps[k]; i++)
			x = x * 1664525u + 1013904223u;
		assert_int_equal(kernels_spin_expect(0x13572468u, steps[k]), x);
	}
	/* Two launches on one slot compose. */
	assert_int_equal(kernels_spin_expect(kernels_spin_expect(5, 1000), 2345), kernels_spin_expect(5, 3345));
}

static void test_add_fill_verify(void **state)
{
	enum { N = 10000 };
	float *x = calloc(N, sizeof *x), *y = calloc(N, sizeof *y), *z = calloc(N, sizeof *z);
	uint64_t bad = 0;

	(void)state;
	kernels_add_fill(x, y, 0, N);
	for (int i = 0; i < N; i++) {
		assert_true(x[i] > 0 && y[i] > 0);
		z[i] = x[i] + y[i];
	}
	assert_int_equal(kernels_add_verify(x, y, z, N, &bad), 0);
	z[4321] += 0.125f;
	assert_int_equal(kernels_add_verify(x, y, z, N, &bad), -1);
	assert_int_equal(bad, 4321);
	/* A chunk's fill equals the same range of the whole. */
	kernels_add_fill(z, z + 100, 5000, 100);
	assert_memory_equal(z, x + 5000, 100 * sizeof *z);
	assert_memory_equal(z + 100, y + 5000, 100 * sizeof *z);
	free(x);
	free(y);
	free(z);
}

static void test_decrypt_roundtrip(void **state)
{
	enum { N = 70000 }; /* above the threading threshold */
	uint64_t *enc = calloc(N, sizeof *enc), *dec = calloc(N, sizeof *dec), *part = calloc(64, sizeof *part);
	uint64_t bad = 0, same = 0;

	(void)state;
	kernels_decrypt_encrypt(enc, 0, N, 0);
	assert_int_equal(kernels_decrypt_verify(enc, 0, N, &bad), 0);
	kernels_decrypt_encrypt(enc, 0, N, 64);
	for (int i = 0; i < N; i++)
		same += enc[i] == (uint64_t)i;
	assert_true(same < 4);
	assert_int_equal(kernels_decrypt_verify(enc, 0, N, &bad), -1);
	/* Threads split the work; a slice computed alone agrees. */
	kernels_decrypt_encrypt(part, 65000, 64, 64);
	assert_memory_equal(part, enc + 65000, 64 * sizeof *part);
	kernels_decrypt_host(enc, dec, N, 64);
	assert_int_equal(kernels_decrypt_verify(dec, 0, N, &bad), 0);
	/* Undoing too few rounds is caught. */
	kernels_decrypt_host(enc, dec, N, 63);
	assert_int_equal(kernels_decrypt_verify(dec, 0, N, &bad), -1);
	assert_int_equal(bad, 0);
	free(enc);
	free(dec);
	free(part);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spin_expect),
	    cmocka_unit_test(test_add_fill_verify),
	    cmocka_unit_test(test_decrypt_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
