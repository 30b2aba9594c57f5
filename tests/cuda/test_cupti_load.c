/* test_cupti_load.c: libcupti is loaded at run time, so a machine without it gets one line, not a loader error.
 * Needs the CUDA toolkit's CUPTI (CI has it) but no GPU: cuptiGetVersion works without a device. */
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

#include "cuda/cupti_capture.h"

/* A library that is not there: the line names it and says what to do; nothing is loaded. */
static void test_missing(void **state)
{
	char *cause = NULL;
	uint32_t id = 0;

	(void)state;
	setenv("SS_CUPTI_LIBRARY", "/nonexistent/libcupti.so.13", 1);
	assert_int_equal(cupti_capture_load(&cause), -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "CUPTI unavailable: /nonexistent/libcupti.so.13"));
	assert_non_null(strstr(cause, "LD_LIBRARY_PATH"));
	assert_non_null(strstr(cause, "--backend model"));
	assert_null(strchr(cause, '\n'));
	free(cause);
	/* nothing half-loaded behind it */
	assert_int_equal(cupti_capture_stream_id(NULL, NULL, false, &id), -1);
}

/* A library that is not CUPTI: the first missing entry point is named. */
static void test_not_cupti(void **state)
{
	char *cause = NULL;

	(void)state;
	setenv("SS_CUPTI_LIBRARY", "libm.so.6", 1);
	assert_int_equal(cupti_capture_load(&cause), -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "CUPTI unusable: libm.so.6 has no cupti"));
	free(cause);
}

/* The toolkit's CUPTI, found the default way, loads; loading twice is harmless. */
static void test_found(void **state)
{
	char *cause = NULL;

	(void)state;
	unsetenv("SS_CUPTI_LIBRARY");
	assert_int_equal(cupti_capture_load(&cause), 0);
	assert_null(cause);
	assert_int_equal(cupti_capture_load(&cause), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_missing),
	    cmocka_unit_test(test_not_cupti),
	    cmocka_unit_test(test_found),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
