/* test_experiment.c: presets' defaults as the issue states them, validation ranges and their messages, name tables,
 * the one-line description. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/experiment.h"

/* Validates e and expects a rejection whose message contains each of the given fragments (NULL-terminated). */
static void expect_invalid(const struct ss_experiment *e, ...)
{
	char *cause = NULL;
	va_list ap;
	const char *frag;

	assert_int_equal(experiment_validate(e, &cause), -1);
	assert_non_null(cause);
	assert_null(strchr(cause, '\n')); /* one line */
	va_start(ap, e);
	while ((frag = va_arg(ap, const char *)) != NULL)
		if (strstr(cause, frag) == NULL)
			fail_msg("message '%s' lacks '%s'", cause, frag);
	va_end(ap);
	free(cause);
}

static void expect_valid(const struct ss_experiment *e)
{
	char *cause = NULL;

	if (experiment_validate(e, &cause) != 0)
		fail_msg("rejected: %s", cause);
	assert_null(cause);
}

static void test_preset_kernel_transfer(void **state)
{
	struct ss_experiment e;
	int in, out;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	assert_int_equal(e.preset, SS_PRESET_KERNEL_TRANSFER);
	assert_int_equal(e.kernel, SS_KERNEL_ADD);
	assert_int_equal(e.elements, 4194304); /* 2^22 floats */
	assert_int_equal(e.elem_size, 4);
	assert_int_equal(e.work, 400); /* inner statement repeated 400 times */
	assert_int_equal(e.order, SS_ORDER_DEPTH);
	assert_int_equal(e.sync, SS_SYNC_STOP_EVENT); /* start and stop events on the legacy stream */
	assert_int_equal(e.defstream, SS_DS_NONE);
	assert_int_equal(e.hostmem, SS_MEM_PINNED);
	assert_int_equal(e.threads, 1);
	assert_int_equal(e.chunks, 0);
	assert_false(e.nonblocking); /* cudaStreamCreate */
	assert_true(e.streams >= 1 && e.streams <= 128);
	assert_int_equal(e.repeat, 10); /* NUM_REPEATS */
	assert_int_equal(e.warmup, 1);  /* repeat 0, not counted */
	assert_int_equal(experiment_block(&e), 128);
	assert_int_equal(experiment_grid(&e, 1u << 19), (1u << 19) / 128); /* (N1 - 1) / 128 + 1 */
	assert_int_equal(experiment_grid(&e, 1000), 8);
	experiment_io_arrays(&e, &in, &out); /* H2D of x and y, D2H of z */
	assert_int_equal(in, 2);
	assert_int_equal(out, 1);
	expect_valid(&e);
}

static void test_preset_decrypt(void **state)
{
	struct ss_experiment e;
	int in, out;

	(void)state;
	experiment_preset(&e, SS_PRESET_DECRYPT);
	assert_int_equal(e.kernel, SS_KERNEL_DECRYPT);
	assert_int_equal(e.elements, 67108864); /* 2^26 uint64 */
	assert_int_equal(e.elem_size, 8);
	assert_int_equal(e.work, 1024); /* 2^10 rounds */
	assert_int_equal(e.streams, 32);
	assert_int_equal(e.split, SS_SPLIT_CEIL); /* sdiv */
	assert_int_equal(experiment_block(&e), 64);
	assert_int_equal(experiment_grid(&e, 1u << 21), 80 * 32); /* decrypt_gpu<<<80*32, 64>>> for any chunk */
	assert_int_equal(experiment_grid(&e, 1), 80 * 32);
	assert_int_equal(e.sync, SS_SYNC_STREAM);
	experiment_io_arrays(&e, &in, &out);
	assert_int_equal(in, 1);
	assert_int_equal(out, 1);
	expect_valid(&e);
}

/* Document 003: vectorAdd on two streams, chunk and chunk + tail, the "best" order. */
static void test_preset_vector_add(void **state)
{
	struct ss_experiment e;
	int in, out;

	(void)state;
	experiment_preset(&e, SS_PRESET_VECTOR_ADD);
	assert_int_equal(e.kernel, SS_KERNEL_ADD);
	assert_int_equal(e.work, 1); /* C[i] = A[i] + B[i] once */
	assert_int_equal(e.streams, 2);
	assert_int_equal(e.split, SS_SPLIT_FLOOR);
	assert_int_equal(e.elements % 2, 1); /* a tail */
	assert_int_equal(e.order, SS_ORDER_BEST);
	assert_int_equal(experiment_block(&e), 256);
	experiment_io_arrays(&e, &in, &out);
	assert_int_equal(in, 2);
	assert_int_equal(out, 1);
	expect_valid(&e);
	e.kernel = SS_KERNEL_DECRYPT;
	expect_invalid(&e, "decrypt", "8-byte", NULL);
	e.kernel = SS_KERNEL_FMA;
	e.block = 1025;
	expect_invalid(&e, "--block", "1..1024", NULL);
	e.block = 1024;
	expect_valid(&e);
	e.grid = 0x80000000u;
	expect_invalid(&e, "--grid", NULL);
}

static void test_preset_hyperq(void **state)
{
	struct ss_experiment e;
	int in, out;

	(void)state;
	experiment_preset(&e, SS_PRESET_HYPERQ);
	assert_int_equal(e.kernel, SS_KERNEL_SPIN);
	assert_int_equal(e.streams, 32);
	assert_int_equal(e.connections, 1);  /* one hardware queue shows the false dependencies */
	experiment_io_arrays(&e, &in, &out); /* short kernels, no copies */
	assert_int_equal(in, 0);
	assert_int_equal(out, 0);
	expect_valid(&e);
}

/* The single-purpose presets are kernel-transfer with one option changed. */
static void test_preset_variants(void **state)
{
	struct ss_experiment base, e;

	(void)state;
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);

	experiment_preset(&e, SS_PRESET_DEFAULT_STREAM);
	assert_int_equal(e.defstream, SS_DS_LEGACY_OP);
	assert_int_equal(e.kernel, SS_KERNEL_ADD);
	assert_int_equal(e.streams, base.streams);
	expect_valid(&e);

	experiment_preset(&e, SS_PRESET_SYNC_ORDER);
	assert_int_equal(e.sync, SS_SYNC_REVERSE);
	assert_int_equal(e.defstream, SS_DS_NONE);
	expect_valid(&e);

	experiment_preset(&e, SS_PRESET_MANAGED);
	assert_true(e.hostmem == SS_MEM_MANAGED_ATTACH || e.hostmem == SS_MEM_MANAGED_PREFETCH);
	expect_valid(&e);

	experiment_preset(&e, SS_PRESET_PAGEABLE);
	assert_int_equal(e.hostmem, SS_MEM_PAGEABLE);
	assert_int_equal(e.elements, base.elements);
	expect_valid(&e);

	for (int p = 0; p < SS_PRESET_COUNT; p++) {
		experiment_preset(&e, (enum ss_preset)p);
		assert_int_equal(e.preset, p);
		expect_valid(&e);
	}
}

static void test_validate_streams(void **state)
{
	struct ss_experiment e;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 0;
	expect_invalid(&e, "stream", "0", "1..128", NULL);
	e.streams = 100000;
	expect_invalid(&e, "stream", "100000", "1..128", NULL);
	e.streams = 129;
	expect_invalid(&e, "129", "1..128", NULL);
	e.streams = -1;
	expect_invalid(&e, "-1", "1..128", NULL);
	e.streams = 1;
	expect_valid(&e);
	e.streams = 128;
	expect_valid(&e);
}

static void test_validate_connections(void **state)
{
	struct ss_experiment e;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.connections = 0;
	expect_invalid(&e, "0", "1..32", "CUDA_DEVICE_MAX_CONNECTIONS", NULL);
	e.connections = 33;
	expect_invalid(&e, "33", "1..32", NULL);
	e.connections = 1;
	expect_valid(&e);
	e.connections = 32;
	expect_valid(&e);
}

static void test_validate_threads(void **state)
{
	struct ss_experiment e;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 8;
	e.threads = 1;
	expect_valid(&e);
	e.threads = 8;
	expect_valid(&e);
	e.threads = 2;
	expect_invalid(&e, "thread", "2", "1 or", "8", NULL);
	e.threads = 0;
	expect_invalid(&e, "thread", "1 or", NULL);
	e.threads = 9;
	expect_invalid(&e, "9", NULL);
}

static void test_validate_other_ranges(void **state)
{
	struct ss_experiment e;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.repeat = 0;
	expect_invalid(&e, "repeat", "1..1000", NULL);
	e.repeat = 1001;
	expect_invalid(&e, "1..1000", NULL);
	e.repeat = 1000;
	expect_valid(&e);

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.warmup = -1;
	expect_invalid(&e, "warm-up", "0..100", NULL);
	e.warmup = 101;
	expect_invalid(&e, "0..100", NULL);
	e.warmup = 0;
	expect_valid(&e);

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.elements = 0;
	expect_invalid(&e, "size", NULL);
	e.elements = (1ull << 34) + 1;
	expect_invalid(&e, "size", NULL);
	e.elements = 1ull << 34;
	expect_valid(&e);
	e.elements = 1;
	expect_valid(&e);

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.chunks = -1;
	expect_invalid(&e, "chunk", NULL);
	e.chunks = 65537;
	expect_invalid(&e, "chunk", "65536", NULL);
	e.chunks = 65536;
	expect_valid(&e);

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.work = 0;
	expect_invalid(&e, "work", NULL);
	e.work = 100000001;
	expect_invalid(&e, "work", NULL);

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.elem_size = 2;
	expect_invalid(&e, "element size", "4 or 8", NULL);

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.order = SS_ORDER_COUNT;
	expect_invalid(&e, "invalid", NULL);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.sync = (enum ss_sync) - 1;
	expect_invalid(&e, "invalid", NULL);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.hostmem = SS_MEM_COUNT;
	expect_invalid(&e, "invalid", NULL);
}

/* A name table: name(i) parses back to i, case-insensitively; unknown names and out-of-range values. */
static void check_table(const char *which, int count, const char *(*name)(int), int (*parse)(const char *),
                        const char *const *want)
{
	char upper[64];

	for (int i = 0; i < count; i++) {
		assert_string_equal(name(i), want[i]);
		assert_int_equal(parse(want[i]), i);
		snprintf(upper, sizeof upper, "%s", want[i]);
		for (char *p = upper; *p; p++)
			if (*p >= 'a' && *p <= 'z')
				*p = (char)(*p - 'a' + 'A');
		assert_int_equal(parse(upper), i);
		if (which != NULL)
			assert_non_null(strstr(experiment_valid_list(which), want[i]));
	}
	assert_string_equal(name(-1), "?");
	/* the orders past the table: a step program's interleave */
	assert_string_equal(name(count), which != NULL && strcmp(which, "order") == 0 ? "interleave" : "?");
	assert_int_equal(parse("no-such-name"), -1);
	assert_int_equal(parse(""), -1);
	assert_int_equal(parse(NULL), -1);
}

static void test_names_round_trip(void **state)
{
	static const char *const presets[] = {"kernel-transfer", "decrypt",    "hyperq",
	                                      "default-stream",  "sync-order", "managed",
	                                      "pageable",        "vector-add", "managed-threads"};
	static const char *const orders[] = {"depth", "breadth", "best", "weaker"};
	static const char *const syncs[] = {"stream", "reverse", "device", "events", "stop-event"};
	static const char *const ds[] = {"none", "legacy-op", "event-timer", "per-thread", "get-last-error"};
	static const char *const kernels[] = {"add", "decrypt", "spin", "fma", "task"};
	static const char *const splits[] = {"ceil", "floor"};
	static const char *const mems[] = {"pinned", "pageable", "managed-attach", "managed-prefetch"};

	(void)state;
	check_table("preset", SS_PRESET_COUNT, experiment_preset_name, experiment_preset_parse, presets);
	check_table("order", SS_ORDER_COUNT, experiment_order_name, experiment_order_parse, orders);
	check_table("sync", SS_SYNC_COUNT, experiment_sync_name, experiment_sync_parse, syncs);
	check_table("default-stream", SS_DS_COUNT, experiment_defstream_name, experiment_defstream_parse, ds);
	check_table("host-mem", SS_MEM_COUNT, experiment_hostmem_name, experiment_hostmem_parse, mems);
	check_table("kernel", SS_KERNEL_COUNT, experiment_kernel_name, experiment_kernel_parse, kernels);
	check_table("split", SS_SPLIT_COUNT, experiment_split_name, experiment_split_parse, splits);
	assert_string_equal(experiment_kernel_name(SS_KERNEL_ADD), "add");
	assert_string_equal(experiment_kernel_name(SS_KERNEL_DECRYPT), "decrypt");
	assert_string_equal(experiment_kernel_name(SS_KERNEL_SPIN), "spin");
	assert_string_equal(experiment_kernel_name(SS_KERNEL_COUNT), "?");
}

static void test_valid_lists(void **state)
{
	(void)state;
	assert_string_equal(experiment_valid_list("preset"),
	                    "kernel-transfer|decrypt|hyperq|default-stream|sync-order|managed|pageable|vector-add|"
	                    "managed-threads");
	assert_string_equal(experiment_valid_list("order"), "depth|breadth|best|weaker");
	assert_string_equal(experiment_valid_list("sync"), "stream|reverse|device|events|stop-event");
	assert_string_equal(experiment_valid_list("default-stream"),
	                    "none|legacy-op|event-timer|per-thread|get-last-error");
	assert_string_equal(experiment_valid_list("kernel"), "add|decrypt|spin|fma|task");
	assert_string_equal(experiment_valid_list("split"), "ceil|floor");
	assert_string_equal(experiment_valid_list("host-mem"), "pinned|pageable|managed-attach|managed-prefetch");
	assert_string_equal(experiment_valid_list("nothing"), "");
}

static void test_describe(void **state)
{
	struct ss_experiment e;
	char buf[256];

	(void)state;
	/* the kernel and its launch are said only where they are not the preset's */
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.kernel = SS_KERNEL_FMA;
	experiment_describe(&e, buf, sizeof buf);
	assert_non_null(strstr(buf, "  fma<<<cover, 256>>> work 400"));
	experiment_describe_compact(&e, buf, sizeof buf);
	assert_non_null(strstr(buf, " fma<<<cover,256>>>x400"));
	experiment_preset(&e, SS_PRESET_DECRYPT);
	experiment_describe(&e, buf, sizeof buf);
	assert_null(strstr(buf, "<<<"));
	e.grid = 0;
	experiment_describe(&e, buf, sizeof buf);
	assert_non_null(strstr(buf, "decrypt<<<cover, 64>>>"));

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 8;
	e.connections = 8;
	experiment_describe(&e, buf, sizeof buf);
	assert_string_equal(buf,
	                    "kernel-transfer  8 streams  depth-first  sync stop-event  default-stream none  pinned  "
	                    "8 queues  1 thread");

	experiment_preset(&e, SS_PRESET_HYPERQ);
	e.streams = 1;
	e.chunks = 3;
	e.order = SS_ORDER_BREADTH;
	e.sync = SS_SYNC_EVENTS;
	e.defstream = SS_DS_PER_THREAD;
	e.nonblocking = true;
	e.hostmem = SS_MEM_MANAGED_ATTACH;
	e.connections = 1;
	e.threads = 1;
	experiment_describe(&e, buf, sizeof buf);
	assert_string_equal(buf, "hyperq  1 stream 3 chunks  breadth-first  sync events  default-stream per-thread "
	                         "non-blocking  managed-attach  1 queue  1 thread");

	experiment_preset(&e, SS_PRESET_DECRYPT);
	e.streams = 4;
	e.threads = 4;
	e.chunks = 4; /* as many chunks as streams: not mentioned */
	e.connections = 32;
	experiment_describe(&e, buf, sizeof buf);
	assert_string_equal(buf,
	                    "decrypt  4 streams  depth-first  sync stream  default-stream none  pinned  32 queues  "
	                    "4 threads");

	/* truncation stays terminated */
	experiment_describe(&e, buf, 8);
	assert_string_equal(buf, "decrypt");

	/* prefetch events: a capture option, said next to the host memory it is about; auto says what it came to */
	experiment_preset(&e, SS_PRESET_MANAGED);
	experiment_describe(&e, buf, sizeof buf);
	assert_string_equal(buf, "managed  8 streams  depth-first  sync stream  default-stream none  managed-prefetch "
	                         "(prefetch events auto: on)  8 queues  1 thread");
	e.connections = 4;
	experiment_describe(&e, buf, sizeof buf);
	assert_string_equal(buf, "managed  8 streams  depth-first  sync stream  default-stream none  managed-prefetch "
	                         "(prefetch events auto: off)  4 queues  1 thread");
	e.prefetch_events = SS_PFE_ON;
	experiment_describe(&e, buf, sizeof buf);
	assert_string_equal(buf, "managed  8 streams  depth-first  sync stream  default-stream none  managed-prefetch "
	                         "(prefetch events on)  4 queues  1 thread");
	/* set by hand, it is said with any host memory */
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.prefetch_events = SS_PFE_OFF;
	experiment_describe(&e, buf, sizeof buf);
	assert_string_equal(buf,
	                    "kernel-transfer  8 streams  depth-first  sync stop-event  default-stream none  pinned "
	                    "(prefetch events off)  8 queues  1 thread");
	/* a step program's host memory is its copies' (x pageable, z as --host-mem), and --kernel is said only where a
	 * kernel step runs it */
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.nsteps = 3;
	e.step[0] =
	    (struct ss_step){.kind = SS_STEP_H2D, .buffer = 0, .hostmem = SS_MEM_PAGEABLE, .kernel = SS_STEP_DEFAULT};
	e.step[1] =
	    (struct ss_step){.kind = SS_STEP_KERNEL, .buffer = 2, .hostmem = SS_STEP_DEFAULT, .kernel = SS_KERNEL_ADD};
	e.step[2] =
	    (struct ss_step){.kind = SS_STEP_D2H, .buffer = 2, .hostmem = SS_STEP_DEFAULT, .kernel = SS_STEP_DEFAULT};
	e.kernel = SS_KERNEL_TASK;
	experiment_describe(&e, buf, sizeof buf);
	assert_string_equal(buf,
	                    "kernel-transfer  8 streams  depth-first  sync stop-event  default-stream none  x pageable "
	                    "z pinned  8 queues  1 thread  program of 3 steps");
	experiment_describe_compact(&e, buf, sizeof buf);
	assert_non_null(strstr(buf, " x:pageable,z:pinned "));
	e.step[2].hostmem = SS_MEM_PAGEABLE;
	e.step[1].kernel = SS_STEP_DEFAULT; /* now --kernel's */
	experiment_describe(&e, buf, sizeof buf);
	assert_non_null(strstr(buf, "  pageable  8 queues"));
	assert_non_null(strstr(buf, "task<<<"));
	/* a sweep's header: each point runs a thread per stream where the experiment has several threads */
	experiment_preset(&e, SS_PRESET_MANAGED_THREADS);
	experiment_describe_streams(&e, "streams 1,8", buf, sizeof buf);
	assert_string_equal(buf, "managed-threads  streams 1,8  depth-first  sync stream  default-stream none  "
	                         "managed-attach  8 queues  a thread per stream");
	e.threads = 1;
	experiment_describe_streams(&e, "streams 1,8", buf, sizeof buf);
	assert_non_null(strstr(buf, "8 queues  1 thread"));
}

/* The compact description: the same fields, short, and every preset's defaults fit an 80-column header. */
static void test_describe_compact(void **state)
{
	struct ss_experiment e;
	char buf[256];

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	experiment_describe_compact(&e, buf, sizeof buf);
	assert_string_equal(buf, "kernel-transfer 8s depth sync:stop-event ds:none pinned 8q 1t");
	experiment_preset(&e, SS_PRESET_MANAGED);
	experiment_describe_compact(&e, buf, sizeof buf);
	assert_string_equal(buf, "managed 8s depth sync:stream ds:none managed-prefetch ev:auto/on 8q 1t");
	e.connections = 1;
	e.chunks = 16;
	e.nonblocking = true;
	experiment_describe_compact(&e, buf, sizeof buf);
	assert_string_equal(buf, "managed 8s 16ch depth sync:stream ds:none nb managed-prefetch ev:auto/off 1q 1t");
	experiment_preset(&e, SS_PRESET_HYPERQ);
	e.prefetch_events = SS_PFE_ON;
	experiment_describe_compact(&e, buf, sizeof buf);
	assert_string_equal(buf, "hyperq 32s depth sync:stream ds:none pinned ev:on 1q 1t");
	for (int p = 0; p < SS_PRESET_COUNT; p++) {
		experiment_preset(&e, (enum ss_preset)p);
		experiment_describe_compact(&e, buf, sizeof buf);
		assert_true(strlen(buf) <= 80);
	}
}

/* AUTO times prefetches exactly where every stream has a hardware queue of its own, up to 8 streams; ON and OFF
 * are what they say;
 * a value out of range is refused by validation. */
/* experiment_changes names the settings that differ, in the new experiment's words, with the old one's after a tag. */
static void test_changes(void **state)
{
	struct ss_experiment a, b;
	char buf[256];

	(void)state;
	experiment_preset(&a, SS_PRESET_KERNEL_TRANSFER);
	b = a;
	assert_int_equal(experiment_changes(&a, &b, NULL, buf, sizeof buf), 0);
	assert_string_equal(buf, "");
	b.order = SS_ORDER_BREADTH;
	assert_int_equal(experiment_changes(&a, &b, NULL, buf, sizeof buf), 1);
	assert_string_equal(buf, "breadth-first");
	b.connections = 1;
	b.streams = 16;
	assert_int_equal(experiment_changes(&a, &b, "A", buf, sizeof buf), 3);
	assert_string_equal(buf, "16 streams (A: 8 streams), breadth-first (A: depth-first), 1 queue (A: 8 queues)");
	/* a buffer too small is cut, never overrun */
	assert_int_equal(experiment_changes(&a, &b, "A", buf, 10), 1);
	assert_true(strlen(buf) < 10);
}

static void test_prefetch_events(void **state)
{
	struct ss_experiment e;
	char *cause = NULL;

	(void)state;
	experiment_preset(&e, SS_PRESET_MANAGED);
	assert_int_equal(e.prefetch_events, SS_PFE_AUTO);
	for (int s = 1; s <= 64; s++)
		for (int q = 1; q <= SS_MAX_CONNECTIONS; q++) {
			e.streams = s;
			e.connections = q;
			e.prefetch_events = SS_PFE_AUTO;
			assert_int_equal(experiment_prefetch_events(&e), s <= q && s <= 8);
			e.prefetch_events = SS_PFE_ON;
			assert_true(experiment_prefetch_events(&e));
			e.prefetch_events = SS_PFE_OFF;
			assert_false(experiment_prefetch_events(&e));
		}
	assert_int_equal(experiment_pfevents_parse("auto"), SS_PFE_AUTO);
	assert_int_equal(experiment_pfevents_parse("ON"), SS_PFE_ON);
	assert_int_equal(experiment_pfevents_parse("off"), SS_PFE_OFF);
	assert_int_equal(experiment_pfevents_parse("yes"), -1);
	assert_string_equal(experiment_pfevents_name(SS_PFE_OFF), "off");
	e.streams = 8;
	e.connections = 8;
	e.prefetch_events = (enum ss_pfevents)SS_PFE_COUNT;
	assert_int_equal(experiment_validate(&e, &cause), -1);
	assert_non_null(cause);
	free(cause);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_preset_kernel_transfer),
	    cmocka_unit_test(test_prefetch_events),
	    cmocka_unit_test(test_changes),
	    cmocka_unit_test(test_describe_compact),
	    cmocka_unit_test(test_preset_decrypt),
	    cmocka_unit_test(test_preset_vector_add),
	    cmocka_unit_test(test_preset_hyperq),
	    cmocka_unit_test(test_preset_variants),
	    cmocka_unit_test(test_validate_streams),
	    cmocka_unit_test(test_validate_connections),
	    cmocka_unit_test(test_validate_threads),
	    cmocka_unit_test(test_validate_other_ranges),
	    cmocka_unit_test(test_names_round_trip),
	    cmocka_unit_test(test_valid_lists),
	    cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
