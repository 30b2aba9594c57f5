/* test_cupti_convert.c: cupti_convert on hand-filled CUPTI 13.0 records (no GPU needed). */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <cupti_callbacks.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cuda/cupti_convert.h"

/* Experiment streams 0..2 have CUPTI ids 13, 14, 15; the legacy stream is 7; per-thread default streams 21, 22. */
static const uint32_t test_ids[] = {13, 14, 15};
static const uint32_t test_per_thread[] = {21, 22};

static const char *test_api_name(void *arg, int domain, uint32_t cbid)
{
	(void)arg;
	if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == 41)
		return "cudaMemcpyAsync";
	return NULL;
}

static struct cupti_convert_map test_map(void)
{
	struct cupti_convert_map m = {
	    .ids = test_ids,
	    .nids = 3,
	    .have_null = true,
	    .null_stream = 7,
	    .per_thread = test_per_thread,
	    .nper_thread = 2,
	    .api_name = test_api_name,
	};
	return m;
}

static CUpti_ActivityMemcpy6 test_memcpy(uint8_t copy, uint8_t src, uint8_t dst, uint32_t stream)
{
	CUpti_ActivityMemcpy6 m;

	memset(&m, 0, sizeof m);
	m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
	m.copyKind = copy;
	m.srcKind = src;
	m.dstKind = dst;
	m.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
	m.bytes = 1u << 20;
	m.start = 1000;
	m.end = 21000;
	m.streamId = stream;
	m.correlationId = 77;
	m.channelID = 5;
	m.channelType = CUPTI_CHANNEL_TYPE_ASYNC_MEMCPY;
	return m;
}

static void test_stream_map(void **state)
{
	struct cupti_convert_map m = test_map();

	(void)state;
	assert_int_equal(cupti_convert_stream(&m, 13), 0);
	assert_int_equal(cupti_convert_stream(&m, 15), 2);
	assert_int_equal(cupti_convert_stream(&m, 7), SS_STREAM_LEGACY);
	assert_int_equal(cupti_convert_stream(&m, 21), SS_STREAM_PER_THREAD);
	assert_int_equal(cupti_convert_stream(&m, 22), SS_STREAM_PER_THREAD);
	assert_int_equal(cupti_convert_stream(&m, 99), SS_STREAM_UNKNOWN);
	m.have_null = false;
	assert_int_equal(cupti_convert_stream(&m, 7), SS_STREAM_UNKNOWN);
}

static void test_memcpy_pinned_h2d(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityMemcpy6 a = test_memcpy(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PINNED,
	                                      CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 14);
	struct ss_record r;
	char name[128];

	(void)state;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_H2D);
	assert_int_equal(r.stream, 1);
	assert_int_equal(r.raw_stream, 14);
	assert_int_equal(r.start, 1000);
	assert_int_equal(r.end, 21000);
	assert_int_equal(r.bytes, 1u << 20);
	assert_int_equal(r.correlation, 77);
	assert_int_equal(r.thread, 5);
	assert_int_equal(r.flags, SS_REC_PINNED | SS_REC_ASYNC);
	assert_int_equal(r.name, 0);
	assert_string_equal(name, "Memcpy HtoD (Pinned -> Device)");
}

static void test_memcpy_pageable_d2h(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityMemcpy6 a = test_memcpy(CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
	                                      CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE, 7);
	struct ss_record r;
	char name[128];

	(void)state;
	a.flags = 0;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_D2H);
	assert_int_equal(r.stream, SS_STREAM_LEGACY);
	assert_int_equal(r.raw_stream, 7);
	assert_int_equal(r.flags, SS_REC_PAGEABLE);
	assert_string_equal(name, "Memcpy DtoH (Device -> Pageable)");
}

static void test_memcpy_managed_d2d_and_unsupported(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityMemcpy6 a = test_memcpy(CUPTI_ACTIVITY_MEMCPY_KIND_DTOD, CUPTI_ACTIVITY_MEMORY_KIND_MANAGED,
	                                      CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 21);
	struct ss_record r;
	char name[128];

	(void)state;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_D2D);
	assert_int_equal(r.stream, SS_STREAM_PER_THREAD);
	assert_int_equal(r.flags, SS_REC_MANAGED | SS_REC_ASYNC);
	a.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_D2D);
	a.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOH;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_UNSUPPORTED);
	a.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_UNSUPPORTED);
}

static void test_memcpy_unknown_stream_zero_time(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityMemcpy6 a = test_memcpy(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
	                                      CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 4242);
	struct ss_record r;
	char name[128];

	(void)state;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.stream, SS_STREAM_UNKNOWN);
	assert_int_equal(r.raw_stream, 4242);
	a.start = a.end = 0;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_NO_TIME);
	/* An end before the start (never seen, but the record contract is end >= start) is clamped. */
	a.start = 500;
	a.end = 400;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.end, 500);
}

static void test_memset(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityMemset4 a;
	struct ss_record r;
	char name[128];

	(void)state;
	memset(&a, 0, sizeof a);
	a.kind = CUPTI_ACTIVITY_KIND_MEMSET;
	a.bytes = 4096;
	a.start = 10;
	a.end = 30;
	a.streamId = 15;
	a.correlationId = 9;
	a.flags = CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC;
	a.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
	a.channelID = 3;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_MEMSET);
	assert_int_equal(r.stream, 2);
	assert_int_equal(r.bytes, 4096);
	assert_int_equal(r.flags, SS_REC_ASYNC);
	assert_int_equal(r.thread, 3);
	assert_string_equal(name, "Memset (Device)");
	a.start = a.end = 0;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_NO_TIME);
}

/* A concurrent kernel "ss_add" from 5000 to 9000 ns on CUPTI stream stream, correlation id corr. */
static CUpti_ActivityKernel10 test_kernel_activity(uint32_t stream, uint32_t corr)
{
	CUpti_ActivityKernel10 a;

	memset(&a, 0, sizeof a);
	a.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
	a.start = 5000;
	a.end = 9000;
	a.streamId = stream;
	a.correlationId = corr;
	a.name = "ss_add";
	return a;
}

static void test_kernel(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityKernel10 a = test_kernel_activity(13, 123);
	struct ss_record r;
	char name[128];

	(void)state;
	a.channelID = 2;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_KERNEL);
	assert_int_equal(r.stream, 0);
	assert_int_equal(r.start, 5000);
	assert_int_equal(r.end, 9000);
	assert_int_equal(r.bytes, 0);
	assert_int_equal(r.correlation, 123);
	assert_string_equal(name, "ss_add");
	/* The serialising KERNEL kind has the same layout. */
	a.kind = CUPTI_ACTIVITY_KIND_KERNEL;
	a.name = NULL;
	a.streamId = 22;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.stream, SS_STREAM_PER_THREAD);
	assert_string_equal(name, "kernel");
	/* A short name buffer truncates. */
	a.name = "a_rather_long_kernel_name";
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, 7), CUPTI_CONVERT_RECORD);
	assert_string_equal(name, "a_rath");
}

/* A kernel's launch details as the H200's CUPTI 13.0 writes them (Kernel10), keyed as its record is; other records
 * and kernels without a launch configuration give none. */
static void test_kernel_launch(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityKernel10 a = test_kernel_activity(14, 99);
	CUpti_ActivityMemcpy6 c = test_memcpy(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PINNED,
	                                      CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 14);
	struct ss_launch l;
	struct ss_record r;
	char name[128], full[256];

	(void)state;
	a.gridX = 1056;
	a.gridY = 2;
	a.gridZ = 3;
	a.blockX = 256;
	a.blockY = 4;
	a.blockZ = 1;
	a.registersPerThread = 40;
	a.staticSharedMemory = 2048;
	a.dynamicSharedMemory = 49152;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_true(cupti_convert_launch((CUpti_Activity *)&a, &l, full, sizeof full));
	assert_string_equal(full, ""); /* "ss_add": its record's name is all of it */
	assert_int_equal(l.full_name, 0);
	assert_int_equal(l.correlation, r.correlation);
	assert_int_equal(l.raw_stream, r.raw_stream);
	assert_int_equal(l.correlation, 99);
	assert_int_equal(l.raw_stream, 14);
	assert_int_equal(l.grid[0], 1056);
	assert_int_equal(l.grid[1], 2);
	assert_int_equal(l.grid[2], 3);
	assert_int_equal(l.block[0], 256);
	assert_int_equal(l.block[1], 4);
	assert_int_equal(l.block[2], 1);
	assert_int_equal(l.registers, 40);
	assert_int_equal(l.flags, SS_LAUNCH_ATTRS);
	assert_int_equal(l.static_smem, 2048);
	assert_int_equal(l.dynamic_smem, 49152);
	a.kind = CUPTI_ACTIVITY_KIND_KERNEL; /* the serialising kind: the same layout */
	a.name = "_Z12ss_add_fixedILi400EEvPKfS1_Pfi";
	assert_true(cupti_convert_launch((CUpti_Activity *)&a, &l, full, sizeof full));
	assert_int_equal(l.grid[0], 1056);
	assert_string_equal(full, "void ss_add_fixed<400>(float const*, float const*, float*, int)");
	a.blockZ = 0; /* not a launch configuration */
	memset(&l, 0xab, sizeof l);
	assert_false(cupti_convert_launch((CUpti_Activity *)&a, &l, full, sizeof full));
	assert_int_equal(l.correlation, 0xabababab);
	assert_false(cupti_convert_launch((CUpti_Activity *)&c, &l, full, sizeof full));
}

/* A kernel's names as Nsight Systems keeps them: CUPTI's mangled name demangled in full, and the short name the
 * record carries (the H100's kernel-transfer trace named its kernel "_Z12ss_add_fixedILi400EEvPKfS1_Pfi" in stats
 * and the TUI); names from the nsys exports in ../shared/data/nsys, a scope and template arguments of their own;
 * C names, NULL and names that are not mangled pass as they are. */
static void test_kernel_names(void **state)
{
	static const struct {
		const char *cupti, *shortn, *full;
	} cases[] = {
	    {"_Z12ss_add_fixedILi400EEvPKfS1_Pfi", "ss_add_fixed",
	     "void ss_add_fixed<400>(float const*, float const*, float*, int)"},
	    {"_Z6ss_addILi400EEvPKfS1_Pfi", "ss_add", "void ss_add<400>(float const*, float const*, float*, int)"},
	    {"_Z6ss_addPKfS0_Pfii", "ss_add", "ss_add(float const*, float const*, float*, int, int)"},
	    {"_Z15reduce_baselinePKiPim", "reduce_baseline", "reduce_baseline(int const*, int*, unsigned long)"},
	    {"_Z12add_parallelPKfS0_Pfi", "add_parallel", "add_parallel(float const*, float const*, float*, int)"},
	    {"_ZN2at6native6kernelIfLi4EEEvPT_", "kernel", "void at::native::kernel<float, 4>(float*)"},
	    {"_ZN2ns1kILb1EEEvPFiiE", "k", "void ns::k<true>(int (*)(int))"},
	    {"decrypt_gpu", "decrypt_gpu", "decrypt_gpu"},
	    {"_Znot_mangled", "_Znot_mangled", "_Znot_mangled"},
	    {NULL, "kernel", "kernel"},
	};
	struct cupti_convert_map m = test_map();
	CUpti_ActivityKernel10 a = test_kernel_activity(13, 7);
	struct ss_record r;
	char shortn[64], full[128];

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cupti_convert_kernel_names(cases[i].cupti, shortn, sizeof shortn, full, sizeof full);
		assert_string_equal(shortn, cases[i].shortn);
		assert_string_equal(full, cases[i].full);
		/* the record carries the short name */
		a.name = cases[i].cupti;
		assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, shortn, sizeof shortn),
		                 CUPTI_CONVERT_RECORD);
		assert_string_equal(shortn, cases[i].shortn);
	}
	/* short buffers truncate both */
	cupti_convert_kernel_names(cases[0].cupti, shortn, 7, full, 10);
	assert_string_equal(shortn, "ss_add");
	assert_string_equal(full, "void ss_a");
	/* the last name is remembered, a name too long to remember is not mistaken for it */
	{
		char longname[600];

		memset(longname, 'k', sizeof longname - 1);
		longname[sizeof longname - 1] = '\0';
		cupti_convert_kernel_names(longname, shortn, sizeof shortn, full, sizeof full);
		assert_int_equal(strlen(shortn), sizeof shortn - 1);
		cupti_convert_kernel_names(cases[3].cupti, shortn, sizeof shortn, full, sizeof full);
		assert_string_equal(shortn, cases[3].shortn);
		cupti_convert_kernel_names(cases[3].cupti, shortn, sizeof shortn, full, sizeof full);
		assert_string_equal(full, cases[3].full);
		cupti_convert_kernel_names("decrypt_gpu", shortn, sizeof shortn, full, sizeof full);
		assert_string_equal(full, "decrypt_gpu");
	}
}

static void test_api(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityAPI a;
	struct ss_record r;
	char name[128];

	(void)state;
	memset(&a, 0, sizeof a);
	a.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
	a.cbid = 41;
	a.start = 100;
	a.end = 250;
	a.processId = 1;
	a.threadId = 31337;
	a.correlationId = 77;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_API);
	assert_int_equal(r.stream, SS_STREAM_HOST);
	assert_int_equal(r.thread, 31337);
	assert_int_equal(r.correlation, 77);
	assert_int_equal(r.start, 100);
	assert_int_equal(r.end, 250);
	assert_string_equal(name, "cudaMemcpyAsync");
	a.cbid = 42;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_string_equal(name, "runtime API #42");
	m.api_name = NULL;
	a.kind = CUPTI_ACTIVITY_KIND_DRIVER;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_string_equal(name, "driver API #42");
	a.start = a.end = 0;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_NO_TIME);
}

static void test_sync(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivitySynchronization2 a;
	struct ss_record r;
	char name[128];

	(void)state;
	memset(&a, 0, sizeof a);
	a.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
	a.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
	a.start = 300;
	a.end = 900;
	a.correlationId = 88;
	a.streamId = 15;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_SYNC);
	assert_int_equal(r.stream, SS_STREAM_HOST);
	assert_int_equal(r.raw_stream, 15);
	assert_int_equal(r.thread, 0);
	assert_int_equal(r.correlation, 88);
	assert_string_equal(name, "cudaStreamSynchronize (s2)");
	a.streamId = 7;
	cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name);
	assert_string_equal(name, "cudaStreamSynchronize (legacy)");
	a.streamId = 21;
	cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name);
	assert_string_equal(name, "cudaStreamSynchronize (per-thread)");
	a.streamId = 555;
	cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name);
	assert_string_equal(name, "cudaStreamSynchronize (stream 555)");
	a.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
	a.streamId = UINT32_MAX;
	cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name);
	assert_string_equal(name, "cudaDeviceSynchronize");
	assert_int_equal(r.raw_stream, UINT32_MAX);
	a.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE;
	cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name);
	assert_string_equal(name, "cudaEventSynchronize");
	a.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT;
	a.streamId = 13;
	cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name);
	assert_string_equal(name, "cudaStreamWaitEvent (s0)");
	a.start = a.end = 0;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_NO_TIME);
}

static void test_overhead(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityOverhead3 a;
	struct ss_record r;
	char name[128];

	(void)state;
	memset(&a, 0, sizeof a);
	a.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
	a.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
	a.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
	a.objectId.pt.processId = 1;
	a.objectId.pt.threadId = 4444;
	a.start = 10;
	a.end = 20;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_API);
	assert_int_equal(r.stream, SS_STREAM_HOST);
	assert_int_equal(r.thread, 4444);
	assert_string_equal(name, "CUPTI overhead: buffer flush");
	a.objectKind = CUPTI_ACTIVITY_OBJECT_DEVICE;
	a.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.thread, 0);
	assert_string_equal(name, "CUPTI overhead: instrumentation");
}

static void test_marker(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityMarker2 a;
	struct ss_record r;
	char name[128];

	(void)state;
	memset(&a, 0, sizeof a);
	a.kind = CUPTI_ACTIVITY_KIND_MARKER;
	a.flags = CUPTI_ACTIVITY_FLAG_MARKER_START;
	a.timestamp = 1234;
	a.id = 6;
	a.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
	a.objectId.pt.threadId = 99;
	a.name = "phase 1";
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_MARKER_START);
	assert_int_equal(r.kind, SS_KIND_MARKER);
	assert_int_equal(r.start, 1234);
	assert_int_equal(r.end, 1234);
	assert_int_equal(r.correlation, 6);
	assert_int_equal(r.thread, 99);
	assert_string_equal(name, "phase 1");
	a.flags = CUPTI_ACTIVITY_FLAG_MARKER_END;
	a.timestamp = 2000;
	a.name = NULL;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_MARKER_END);
	assert_int_equal(r.start, 2000);
	assert_int_equal(r.correlation, 6);
	assert_string_equal(name, "");
}

static void test_migration(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityUnifiedMemoryCounter3 a;
	struct ss_record r;
	char name[128];

	(void)state;
	memset(&a, 0, sizeof a);
	a.kind = CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER;
	a.counterKind = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD;
	a.value = 2u << 20;
	a.start = 700;
	a.end = 900;
	a.streamId = 14;
	a.flags = CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_H2D);
	assert_int_equal(r.stream, 1);
	assert_int_equal(r.bytes, 2u << 20);
	assert_int_equal(r.flags, SS_REC_MANAGED);
	assert_int_equal(r.correlation, 0);
	assert_string_equal(name, "Unified memory HtoD (prefetch)");
	a.counterKind = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH;
	a.flags = CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_USER;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_D2H);
	assert_string_equal(name, "Unified memory DtoH (user)");
	a.counterKind = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_SKIP);
	a.counterKind = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD;
	a.start = a.end = 0;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_NO_TIME);
}

static void test_skipped_kinds(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityContext3 c;
	struct ss_record r;
	char name[16] = "junk";

	(void)state;
	memset(&c, 0, sizeof c);
	c.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
	c.nullStreamId = 7;
	assert_int_equal(cupti_convert((CUpti_Activity *)&c, &m, &r, name, sizeof name), CUPTI_CONVERT_SKIP);
	assert_string_equal(name, "");
}

static CUpti_ActivityMemcpyPtoP4 test_peer(uint32_t device, uint32_t src, uint32_t dst, uint32_t stream)
{
	CUpti_ActivityMemcpyPtoP4 p;

	memset(&p, 0, sizeof p);
	p.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
	p.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
	p.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
	p.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
	p.flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
	p.bytes = 8u << 20;
	p.start = 5000;
	p.end = 45000;
	p.deviceId = device;
	p.contextId = 3 + device;
	p.streamId = stream;
	p.srcDeviceId = src;
	p.srcContextId = 3 + src;
	p.dstDeviceId = dst;
	p.dstContextId = 3 + dst;
	p.correlationId = 91;
	p.channelID = 2;
	return p;
}

/* A peer copy issued on device 0's stream 14 to device 1: a D2D interval on device 0 naming device 1 as the
 * destination; the same copy seen from the destination's stream flows in; one on a single device is plain D2D. */
static void test_peer_copy(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityMemcpyPtoP4 p = test_peer(0, 0, 1, 14);
	struct ss_record r;
	char name[64];
	uint32_t device = 99, context = 99;

	(void)state;
	assert_int_equal(cupti_convert((CUpti_Activity *)&p, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.kind, SS_KIND_D2D);
	assert_int_equal(r.stream, 1);
	assert_int_equal(r.raw_stream, 14);
	assert_int_equal(r.device, 0);
	assert_int_equal(r.peer, 1);
	assert_int_equal(r.flags, SS_REC_PEER | SS_REC_ASYNC);
	assert_int_equal(record_peer_src(&r), 0);
	assert_int_equal(record_peer_dst(&r), 1);
	assert_int_equal(r.bytes, 8u << 20);
	assert_int_equal(r.start, 5000);
	assert_int_equal(r.end, 45000);
	assert_int_equal(r.correlation, 91);
	assert_int_equal(r.thread, 2);
	assert_string_equal(name, "Memcpy PtoP (GPU 0 -> GPU 1)");
	assert_true(cupti_convert_context((CUpti_Activity *)&p, &device, &context));
	assert_int_equal(device, 0);
	assert_int_equal(context, 3);

	p = test_peer(2, 0, 2, 15); /* issued on device 2's stream, pulling from device 0 */
	assert_int_equal(cupti_convert((CUpti_Activity *)&p, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.device, 2);
	assert_int_equal(r.peer, 0);
	assert_int_equal(r.flags, SS_REC_PEER | SS_REC_PEER_IN | SS_REC_ASYNC);
	assert_int_equal(record_peer_src(&r), 0);
	assert_int_equal(record_peer_dst(&r), 2);
	assert_string_equal(name, "Memcpy PtoP (GPU 0 -> GPU 2)");

	p = test_peer(1, 1, 1, 13);
	assert_int_equal(cupti_convert((CUpti_Activity *)&p, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.device, 1);
	assert_int_equal(r.flags & (SS_REC_PEER | SS_REC_PEER_IN), 0);
	assert_int_equal(r.peer, 0);

	p = test_peer(300, 300, 1, 13); /* an id past what a record holds */
	assert_int_equal(cupti_convert((CUpti_Activity *)&p, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.device, 255);
	assert_int_equal(r.peer, 1);

	p = test_peer(0, 0, 1, 14);
	p.start = p.end = 0;
	assert_int_equal(cupti_convert((CUpti_Activity *)&p, &m, &r, name, sizeof name), CUPTI_CONVERT_NO_TIME);
}

/* Every GPU record carries its deviceId; host records stay on device 0; the context comes with the device. */
static void test_device_ids(void **state)
{
	struct cupti_convert_map m = test_map();
	CUpti_ActivityMemcpy6 c = test_memcpy(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PINNED,
	                                      CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 13);
	CUpti_ActivityKernel10 k;
	CUpti_ActivityMemset4 s;
	CUpti_ActivityAPI a;
	struct ss_record r;
	char name[64];
	uint32_t device = 0, context = 0;

	(void)state;
	c.deviceId = 3;
	c.contextId = 9;
	assert_int_equal(cupti_convert((CUpti_Activity *)&c, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.device, 3);
	assert_int_equal(r.flags & SS_REC_PEER, 0);
	assert_true(cupti_convert_context((CUpti_Activity *)&c, &device, &context));
	assert_int_equal(device, 3);
	assert_int_equal(context, 9);

	memset(&k, 0, sizeof k);
	k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
	k.start = 10;
	k.end = 20;
	k.deviceId = 1;
	k.contextId = 4;
	k.streamId = 15;
	assert_int_equal(cupti_convert((CUpti_Activity *)&k, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.device, 1);
	assert_true(cupti_convert_context((CUpti_Activity *)&k, &device, &context));
	assert_int_equal(context, 4);

	memset(&s, 0, sizeof s);
	s.kind = CUPTI_ACTIVITY_KIND_MEMSET;
	s.start = 10;
	s.end = 20;
	s.deviceId = 2;
	assert_int_equal(cupti_convert((CUpti_Activity *)&s, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.device, 2);

	memset(&a, 0, sizeof a);
	a.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
	a.start = 10;
	a.end = 20;
	assert_int_equal(cupti_convert((CUpti_Activity *)&a, &m, &r, name, sizeof name), CUPTI_CONVERT_RECORD);
	assert_int_equal(r.device, 0);
	assert_false(cupti_convert_context((CUpti_Activity *)&a, &device, &context));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stream_map),
	    cmocka_unit_test(test_memcpy_pinned_h2d),
	    cmocka_unit_test(test_memcpy_pageable_d2h),
	    cmocka_unit_test(test_memcpy_managed_d2d_and_unsupported),
	    cmocka_unit_test(test_memcpy_unknown_stream_zero_time),
	    cmocka_unit_test(test_memset),
	    cmocka_unit_test(test_kernel),
	    cmocka_unit_test(test_kernel_launch),
	    cmocka_unit_test(test_kernel_names),
	    cmocka_unit_test(test_api),
	    cmocka_unit_test(test_sync),
	    cmocka_unit_test(test_overhead),
	    cmocka_unit_test(test_marker),
	    cmocka_unit_test(test_migration),
	    cmocka_unit_test(test_skipped_kinds),
	    cmocka_unit_test(test_peer_copy),
	    cmocka_unit_test(test_device_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
