/* test_runner.c: the runner child and its pipe, with test backends defined here: records arrive intact with their
 * names, progress arrives while the child runs, failures and crashes become exit code 3 with one line,
 * CUDA_DEVICE_MAX_CONNECTIONS is set in the child only, cancel, and the availability probe. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/wire.h"
#include "run/runner.h"

enum { NREC = 6000 };

/* Pipes the parent uses to hold a child at a known point (the child blocks reading one byte). */
static int gate[2] = {-1, -1};

/* Aborts without leaving a core file behind. */
static void crash(void)
{
	struct rlimit no = {0, 0};

	setrlimit(RLIMIT_CORE, &no);
	abort();
}

/* The fields record i carries; the parent checks them against the same function. */
static struct ss_record rich_record(int i, int streams)
{
	struct ss_record r;

	memset(&r, 0, sizeof r);
	r.start = (uint64_t)(NREC - i) * 100 + 1000000000000ull;
	r.end = r.start + 50 + (uint64_t)(i % 7);
	r.bytes = (uint64_t)i * 3;
	r.correlation = (uint32_t)i + 1;
	r.name = 0xdeadbeefu; /* ignored: the name travels as text */
	r.stream = i % streams;
	r.raw_stream = 1000u + (uint32_t)i;
	r.thread = (uint32_t)(i % 3);
	r.kind = (uint8_t)(i % 5);
	r.flags = (uint8_t)(i & 0x1f);
	r.device = (uint8_t)(i % 3);
	r.peer = (uint8_t)(i % 2);
	return r;
}

/* Record i's name: none for every fourth, a long one for i == 1, else one of 50 repeated names. */
static void rich_name(int i, char *buf, size_t len)
{
	if (i % 4 == 0) {
		buf[0] = '\0';
	} else if (i == 1) {
		memset(buf, 'k', 300);
		buf[300] = '\0';
	} else {
		snprintf(buf, len, "kernel_%d", i % 50);
	}
}

static int ok_available(char *device, size_t len, char **cause)
{
	(void)cause;
	snprintf(device, len, "TESTDEV 1");
	return 0;
}

static int no_available(char *device, size_t len, char **cause)
{
	(void)device;
	(void)len;
	*cause = strdup("no test device here");
	return -1;
}

static int quiet_available(char *device, size_t len, char **cause)
{
	(void)device;
	(void)len;
	(void)cause;
	return -1;
}

static int crash_available(char *device, size_t len, char **cause)
{
	(void)device;
	(void)len;
	(void)cause;
	crash();
	return 0;
}

/* Reports the hardware queue variable it sees, then NREC records in reverse time order, then a result. */
static int rich_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                    struct ss_run_result *res, char **cause)
{
	const char *env = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
	char name[512];
	struct ss_record r;

	(void)cause;
	sink->progress(sink->ctx, "starting");
	memset(&r, 0, sizeof r);
	r.kind = SS_KIND_MARKER;
	r.stream = SS_STREAM_HOST;
	r.bytes = env ? strtoull(env, NULL, 10) : 0;
	r.correlation = (uint32_t)ops->n; /* the child planned the same experiment */
	snprintf(name, sizeof name, "env=%s", env ? env : "<unset>");
	sink->record(sink->ctx, &r, name);
	for (int i = 0; i < NREC; i++) {
		r = rich_record(i, e->streams);
		rich_name(i, name, sizeof name);
		sink->record(sink->ctx, &r, i % 8 == 4 ? NULL : name); /* NULL and "" both mean no name */
	}
	/* stream labels: every other stream non-blocking, then two frames the parser must drop */
	for (int s = 0; s < e->streams; s++)
		sink->stream(sink->ctx, s, 100u + (uint32_t)s, s % 2 ? SS_SKIND_NONBLOCKING : SS_SKIND_BLOCKING);
	sink->stream(sink->ctx, -3, 7, SS_SKIND_BLOCKING);
	sink->stream(sink->ctx, 1, 101, 77); /* an unknown kind: the label stays, the kind is unknown */
	/* a kernel's launch details */
	{
		struct ss_launch l = {.correlation = 4242,
		                      .raw_stream = 101,
		                      .grid = {64, 2, 1},
		                      .block = {128, 1, 1},
		                      .registers = 32,
		                      .static_smem = 512,
		                      .dynamic_smem = 4096};

		sink->launch(sink->ctx, &l, "void k<4>(int)");
	}
	sink->progress(sink->ctx, "done");
	snprintf(res->device, sizeof res->device, "TESTDEV");
	res->modelled = false;
	res->traced_ns = 123;
	res->untraced_ns = 456;
	res->have_untraced = true;
	res->events_ns_of_captured = 789;
	res->dropped = 5;
	res->verified = true;
	res->repeats = e->repeat;
	res->copy_engines = 1;
	return 0;
}

static int fail_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                    struct ss_run_result *res, char **cause)
{
	struct ss_record r;

	(void)e;
	(void)ops;
	(void)res;
	memset(&r, 0, sizeof r);
	sink->record(sink->ctx, &r, "before the failure");
	*cause = strdup("no such device: test");
	return -1;
}

static int quiet_fail_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                          struct ss_run_result *res, char **cause)
{
	(void)e;
	(void)ops;
	(void)sink;
	(void)res;
	(void)cause;
	return -1;
}

static int crash_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                     struct ss_run_result *res, char **cause)
{
	struct ss_record r;

	(void)e;
	(void)ops;
	(void)res;
	(void)cause;
	memset(&r, 0, sizeof r);
	sink->record(sink->ctx, &r, "before the crash");
	sink->progress(sink->ctx, "about to crash");
	crash();
	return 0;
}

static int exit_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                    struct ss_run_result *res, char **cause)
{
	(void)e;
	(void)ops;
	(void)sink;
	(void)res;
	(void)cause;
	_exit(0);
}

/* Says where it is, waits for the parent's byte on the gate, then delivers one record. */
static int gate_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                    struct ss_run_result *res, char **cause)
{
	struct ss_record r;
	char c;

	(void)e;
	(void)ops;
	close(gate[1]); /* EOF, not a hang, if the parent dies */
	sink->progress(sink->ctx, "waiting for the gate");
	if (read(gate[0], &c, 1) != 1) {
		*cause = strdup("the gate closed");
		return -1;
	}
	memset(&r, 0, sizeof r);
	r.kind = SS_KIND_KERNEL;
	r.end = 10;
	sink->record(sink->ctx, &r, "after-gate");
	snprintf(res->device, sizeof res->device, "GATE");
	return 0;
}

#define BACKEND(var, nm, avail, fn)                                                                                    \
	static const struct ss_backend var = {.name = nm, .modelled = false, .available = avail, .run = fn}

BACKEND(rich_backend, "test", ok_available, rich_run);
BACKEND(fail_backend, "test", no_available, fail_run);
BACKEND(quiet_fail_backend, "test", quiet_available, quiet_fail_run);
BACKEND(crash_backend, "test", crash_available, crash_run);
BACKEND(exit_backend, "test", ok_available, exit_run);
BACKEND(gate_backend, "test", ok_available, gate_run);

static struct ss_experiment small(int streams, int connections)
{
	struct ss_experiment e;

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = streams;
	e.connections = connections;
	e.repeat = 4;
	return e;
}

static const struct ss_record *find_corr(const struct ss_timeline *tl, uint32_t corr, int kind_not)
{
	for (size_t i = 0; i < tl->n; i++)
		if (tl->rec[i].correlation == corr && tl->rec[i].kind != kind_not)
			return &tl->rec[i];
	return NULL;
}

static void test_records_arrive_intact(void **state)
{
	struct ss_experiment e = small(6, 8);
	struct ss_timeline tl;
	struct ss_run_result res;
	char *cause = NULL, name[512];
	struct ss_oplist ops;
	int rc;

	(void)state;
	timeline_init(&tl);
	rc = runner_run(&rich_backend, &e, &tl, &res, &cause);
	if (rc != 0)
		fail_msg("runner_run: %d %s", rc, cause);
	assert_null(cause);
	assert_int_equal(tl.n, NREC + 1);
	/* sorted by start */
	for (size_t i = 1; i < tl.n; i++)
		assert_true(tl.rec[i - 1].start <= tl.rec[i].start);
	for (int i = 0; i < NREC; i++) {
		struct ss_record want = rich_record(i, e.streams);
		const struct ss_record *got = find_corr(&tl, want.correlation, SS_KIND_MARKER);

		assert_non_null(got);
		assert_int_equal(got->start, want.start);
		assert_int_equal(got->end, want.end);
		assert_int_equal(got->bytes, want.bytes);
		assert_int_equal(got->stream, want.stream);
		assert_int_equal(got->raw_stream, want.raw_stream);
		assert_int_equal(got->thread, want.thread);
		assert_int_equal(got->kind, want.kind);
		assert_int_equal(got->flags, want.flags);
		rich_name(i, name, sizeof name);
		if (i % 8 == 4)
			name[0] = '\0';
		assert_string_equal(timeline_name(&tl, got->name), name);
		if (name[0] == '\0')
			assert_int_equal(got->name, 0);
	}
	/* each name is interned once */
	for (size_t i = 1; i < tl.names.n; i++)
		for (size_t j = i + 1; j < tl.names.n; j++)
			assert_string_not_equal(intern_str(&tl.names, (uint32_t)i), intern_str(&tl.names, (uint32_t)j));
	/* stream table from WIRE_STREAM frames */
	assert_int_equal(tl.nstream_info, 6);
	for (int s = 0; s < 6; s++) {
		const struct ss_stream_info *si = timeline_stream(&tl, s);

		assert_non_null(si);
		assert_int_equal(si->raw_id, 100 + s);
		assert_int_equal(si->kind, s == 1  ? SS_SKIND_UNKNOWN
		                           : s % 2 ? SS_SKIND_NONBLOCKING
		                                   : SS_SKIND_BLOCKING);
	}
	/* launch details from WIRE_LAUNCH frames */
	assert_int_equal(tl.nlaunch, 1);
	{
		struct ss_record k = {.kind = SS_KIND_KERNEL, .correlation = 4242, .raw_stream = 101};
		const struct ss_launch *l = timeline_launch(&tl, &k);

		assert_non_null(l);
		assert_int_equal(l->grid[0], 64);
		assert_int_equal(l->grid[1], 2);
		assert_int_equal(l->block[0], 128);
		assert_int_equal(l->registers, 32);
		assert_int_equal(l->static_smem, 512);
		assert_int_equal(l->dynamic_smem, 4096);
		/* and the full name after them, interned in the parent's timeline */
		assert_string_equal(timeline_name(&tl, l->full_name), "void k<4>(int)");
	}
	/* labels and result */
	assert_int_equal(tl.nstreams, 6);
	assert_string_equal(tl.backend, "test");
	assert_string_equal(tl.device, "TESTDEV");
	assert_false(tl.modelled);
	assert_int_equal(tl.dropped, 5);
	/* the device's one copy engine reaches the timeline, where the insights read it */
	assert_non_null(timeline_device(&tl, 0));
	assert_int_equal(timeline_device(&tl, 0)->copy_engines, 1);
	assert_string_equal(res.device, "TESTDEV");
	assert_int_equal(res.traced_ns, 123);
	assert_int_equal(res.untraced_ns, 456);
	assert_true(res.have_untraced);
	assert_int_equal(res.events_ns_of_captured, 789);
	assert_true(res.verified);
	assert_int_equal(res.repeats, 4);
	/* the child planned the experiment it was given */
	planner_build(&e, &ops);
	{
		const struct ss_record *env = NULL;

		for (size_t i = 0; i < tl.n; i++)
			if (tl.rec[i].kind == SS_KIND_MARKER)
				env = &tl.rec[i];
		assert_non_null(env);
		assert_int_equal(env->correlation, ops.n);
	}
	planner_free(&ops);
	timeline_free(&tl);
}

/* The env record's name, from a run of the rich backend with connections c. */
static void env_seen(int connections, char *out, size_t len)
{
	struct ss_experiment e = small(2, connections);
	struct ss_timeline tl;
	struct ss_run_result res;
	char *cause = NULL;

	timeline_init(&tl);
	if (runner_run(&rich_backend, &e, &tl, &res, &cause) != 0)
		fail_msg("runner_run: %s", cause);
	out[0] = '\0';
	for (size_t i = 0; i < tl.n; i++)
		if (tl.rec[i].kind == SS_KIND_MARKER) {
			snprintf(out, len, "%s", timeline_name(&tl, tl.rec[i].name));
			assert_int_equal(tl.rec[i].bytes, (uint64_t)connections);
		}
	timeline_free(&tl);
}

static void test_connections_env_in_child(void **state)
{
	char seen[64];

	(void)state;
	unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
	env_seen(5, seen, sizeof seen);
	assert_string_equal(seen, "env=5");
	assert_null(getenv("CUDA_DEVICE_MAX_CONNECTIONS")); /* the parent's environment is untouched */
	env_seen(1, seen, sizeof seen);
	assert_string_equal(seen, "env=1");
	env_seen(32, seen, sizeof seen);
	assert_string_equal(seen, "env=32");
	/* the experiment's value wins over one inherited from the parent */
	setenv("CUDA_DEVICE_MAX_CONNECTIONS", "7", 1);
	env_seen(3, seen, sizeof seen);
	assert_string_equal(seen, "env=3");
	assert_string_equal(getenv("CUDA_DEVICE_MAX_CONNECTIONS"), "7");
	unsetenv("CUDA_DEVICE_MAX_CONNECTIONS");
}

static void test_failure_with_cause(void **state)
{
	struct ss_experiment e = small(2, 8);
	struct ss_timeline tl;
	struct ss_run_result res;
	char *cause = NULL;

	(void)state;
	timeline_init(&tl);
	assert_int_equal(runner_run(&fail_backend, &e, &tl, &res, &cause), 3);
	assert_string_equal(cause, "no such device: test");
	free(cause);
	timeline_free(&tl);

	cause = NULL;
	timeline_init(&tl);
	assert_int_equal(runner_run(&quiet_fail_backend, &e, &tl, &res, &cause), 3);
	assert_string_equal(cause, "the backend failed without saying why");
	free(cause);
	timeline_free(&tl);
}

static void test_crash(void **state)
{
	struct ss_experiment e = small(2, 8);
	struct ss_timeline tl;
	struct ss_run_result res;
	char *cause = NULL, want[128];

	(void)state;
	timeline_init(&tl);
	assert_int_equal(runner_run(&crash_backend, &e, &tl, &res, &cause), 3);
	snprintf(want, sizeof want, "the runner process crashed (signal %d: %s)", SIGABRT, strsignal(SIGABRT));
	assert_string_equal(cause, want);
	assert_null(strchr(cause, '\n'));
	free(cause);
	timeline_free(&tl);

	cause = NULL;
	timeline_init(&tl);
	assert_int_equal(runner_run(&exit_backend, &e, &tl, &res, &cause), 3);
	assert_string_equal(cause, "the runner process exited with status 0 without a result");
	free(cause);
	timeline_free(&tl);
}

static void test_invalid_experiment(void **state)
{
	struct ss_experiment e = small(0, 8);
	struct ss_timeline tl;
	struct ss_run_result res;
	struct ss_runner r;
	char *cause = NULL;

	(void)state;
	timeline_init(&tl);
	assert_int_equal(runner_run(&rich_backend, &e, &tl, &res, &cause), 2);
	assert_non_null(strstr(cause, "1..128"));
	free(cause);
	cause = NULL;
	e = small(4, 33);
	assert_int_equal(runner_start(&r, &rich_backend, &e, &cause), -1);
	assert_non_null(strstr(cause, "1..32"));
	assert_int_equal(r.pid, -1); /* no child started */
	free(cause);
	assert_int_equal(tl.n, 0);
	timeline_free(&tl);
}

/* Polls without blocking until the child's latest progress is want; waits on the pipe in between (no sleeps). */
static void wait_progress(struct ss_runner *r, struct ss_timeline *tl, const char *want)
{
	while (strcmp(r->progress, want) != 0) {
		struct pollfd pfd;

		assert_int_equal(runner_poll(r, tl, false), 0); /* still running */
		if (strcmp(r->progress, want) == 0)
			break;
		pfd.fd = r->fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		assert_true(poll(&pfd, 1, -1) >= 0 || errno == EINTR);
	}
}

/* Progress arrives while the child is still running; records follow once the parent lets it go. */
static void test_progress_live(void **state)
{
	struct ss_experiment e = small(2, 8);
	struct ss_timeline tl;
	struct ss_runner r;
	char *cause = NULL;

	(void)state;
	assert_int_equal(pipe(gate), 0);
	timeline_init(&tl);
	assert_int_equal(runner_start(&r, &gate_backend, &e, &cause), 0);
	assert_true(r.pid > 0);
	wait_progress(&r, &tl, "waiting for the gate");
	assert_false(r.finished);
	assert_int_equal(tl.n, 0);
	assert_int_equal(write(gate[1], "g", 1), 1);
	assert_int_equal(runner_poll(&r, &tl, true), 1);
	assert_true(r.finished);
	assert_int_equal(r.code, 0);
	assert_null(r.error);
	assert_string_equal(r.res.device, "GATE");
	assert_int_equal(tl.n, 1);
	assert_string_equal(timeline_name(&tl, tl.rec[0].name), "after-gate");
	assert_int_equal(runner_poll(&r, &tl, true), 1); /* finished stays finished */
	runner_free(&r);
	assert_int_equal(r.pid, -1);
	close(gate[0]);
	close(gate[1]);
	timeline_free(&tl);
}

/* A run that reports progress and then crashes: the progress it flushed arrives, the end is a crash report. */
static void test_progress_then_crash(void **state)
{
	struct ss_experiment e = small(2, 8);
	struct ss_timeline tl;
	struct ss_runner r;
	char *cause = NULL;

	(void)state;
	timeline_init(&tl);
	assert_int_equal(runner_start(&r, &crash_backend, &e, &cause), 0);
	assert_int_equal(runner_poll(&r, &tl, true), 1);
	assert_string_equal(r.progress, "about to crash");
	assert_int_equal(r.code, 3);
	assert_non_null(strstr(r.error, "crashed (signal"));
	runner_free(&r);
	timeline_free(&tl);
}

/* Cancel kills a child that would never finish, and reaps it. */
static void test_cancel(void **state)
{
	struct ss_experiment e = small(2, 8);
	struct ss_timeline tl;
	struct ss_runner r;
	char *cause = NULL;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(gate), 0);
	timeline_init(&tl);
	assert_int_equal(runner_start(&r, &gate_backend, &e, &cause), 0);
	wait_progress(&r, &tl, "waiting for the gate");
	pid = r.pid;
	runner_cancel(&r);
	assert_int_equal(r.pid, -1);
	assert_int_equal(r.fd, -1);
	assert_int_equal(kill(pid, 0), -1); /* gone and reaped */
	assert_int_equal(errno, ESRCH);
	assert_int_equal(runner_poll(&r, &tl, true), 1);
	runner_free(&r);
	close(gate[0]);
	close(gate[1]);
	timeline_free(&tl);
}

static void test_probe(void **state)
{
	char device[64] = "", *cause = NULL, want[128];

	(void)state;
	assert_int_equal(runner_probe(&rich_backend, device, sizeof device, &cause), 0);
	assert_string_equal(device, "TESTDEV 1");
	assert_null(cause);

	assert_int_equal(runner_probe(&fail_backend, device, sizeof device, &cause), -1);
	assert_string_equal(cause, "no test device here");
	free(cause);
	cause = NULL;

	assert_int_equal(runner_probe(&quiet_fail_backend, device, sizeof device, &cause), -1);
	assert_string_equal(cause, "unavailable");
	free(cause);
	cause = NULL;

	assert_int_equal(runner_probe(&crash_backend, device, sizeof device, &cause), -1);
	snprintf(want, sizeof want, "the test backend probe crashed (%s)", strsignal(SIGABRT));
	assert_string_equal(cause, want);
	free(cause);
}

/* A process the runner did not start (as `streamscope record` launches one) writes the wire stream itself. */
static pid_t spawn_writer(int *rfd, int how)
{
	int fds[2];
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct wire_writer w;
		struct ss_record r;
		struct ss_run_result res;

		close(fds[0]);
		if (wire_open(&w, fds[1]) != 0)
			_exit(99);
		wire_progress(&w, "attached");
		memset(&r, 0, sizeof r);
		r.kind = SS_KIND_KERNEL;
		r.start = 5;
		r.end = 25;
		r.correlation = 77;
		wire_record(&w, &r, "from-attached");
		wire_device(&w, 1, "NVIDIA H200", "GPU-0123abcd", 0, 3); /* the DEVICE record, */
		wire_device(&w, 1, NULL, NULL, 7, 0);                    /* then the CONTEXT record: kept together */
		wire_device(&w, SS_TIMELINE_MAX_DEVICES, "past the table", NULL, 1, 2); /* ignored */
		if (how == 1) {
			wire_flush(&w);
			_exit(5);
		}
		if (how == 2) {
			wire_error(&w, 2, "bad options for the attached program");
			wire_close(&w);
			_exit(2);
		}
		memset(&res, 0, sizeof res);
		snprintf(res.device, sizeof res.device, "ATTACHED");
		res.dropped = 11;
		wire_result(&w, &res);
		wire_close(&w);
		_exit(0);
	}
	close(fds[1]);
	*rfd = fds[0];
	return pid;
}

static void test_attach(void **state)
{
	struct ss_timeline tl;
	struct ss_runner r;
	int fd;
	pid_t pid;

	(void)state;
	timeline_init(&tl);
	pid = spawn_writer(&fd, 0);
	runner_attach(&r, pid, fd);
	assert_int_equal(runner_poll(&r, &tl, true), 1);
	assert_int_equal(r.code, 0);
	assert_string_equal(r.progress, "attached");
	assert_string_equal(r.res.device, "ATTACHED");
	assert_int_equal(r.res.dropped, 11);
	assert_true(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
	assert_int_equal(tl.n, 1);
	assert_int_equal(tl.rec[0].correlation, 77);
	assert_int_equal(tl.rec[0].end, 25);
	assert_string_equal(timeline_name(&tl, tl.rec[0].name), "from-attached");
	assert_non_null(timeline_device(&tl, 1));
	assert_string_equal(timeline_device(&tl, 1)->name, "NVIDIA H200");
	assert_string_equal(timeline_device(&tl, 1)->uuid, "GPU-0123abcd");
	assert_int_equal(timeline_device(&tl, 1)->context, 7);
	assert_int_equal(timeline_device(&tl, 1)->copy_engines, 3); /* the CONTEXT record's 0 keeps it */
	assert_null(timeline_device(&tl, 0));
	runner_free(&r);
	timeline_clear(&tl);

	/* exits without a result: a failure that says so, records sent before are kept */
	pid = spawn_writer(&fd, 1);
	runner_attach(&r, pid, fd);
	assert_int_equal(runner_poll(&r, &tl, true), 1);
	assert_int_equal(r.code, 3);
	assert_string_equal(r.error, "the runner process exited with status 5 without a result");
	assert_true(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 5);
	assert_int_equal(tl.n, 1);
	runner_free(&r);
	timeline_clear(&tl);

	/* reports an error with its own exit code */
	pid = spawn_writer(&fd, 2);
	runner_attach(&r, pid, fd);
	assert_int_equal(runner_poll(&r, &tl, true), 1);
	assert_int_equal(r.code, 2);
	assert_string_equal(r.error, "bad options for the attached program");
	runner_free(&r);
	timeline_free(&tl);
}

/* A truncated ERROR frame (length 0: shorter than its exit code) from an attached process is reported as a failure,
 * not a crash of the reader. Checked in a child so that a crash fails this test only. */
static void test_attach_malformed_error_frame(void **state)
{
	int fds[2], status;
	pid_t writer, reader;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	writer = fork();
	assert_true(writer >= 0);
	if (writer == 0) {
		uint32_t frame[2] = {WIRE_ERROR, 0};

		close(fds[0]);
		if (write(fds[1], frame, sizeof frame) != (ssize_t)sizeof frame)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	reader = fork();
	assert_true(reader >= 0);
	if (reader == 0) {
		struct ss_timeline tl;
		struct ss_runner r;
		struct rlimit no = {0, 0};

		setrlimit(RLIMIT_CORE, &no);
		timeline_init(&tl);
		runner_attach(&r, writer, fds[0]);
		runner_poll(&r, &tl, true);
		_exit(r.finished && r.code == 3 && r.error != NULL &&
		              strcmp(r.error, "the capture process reported an error without text") == 0
		          ? 0
		          : 2);
	}
	close(fds[0]);
	assert_int_equal(waitpid(reader, &status, 0), reader);
	waitpid(writer, NULL, 0);
	if (!WIFEXITED(status))
		fail_msg("the reader crashed on a truncated error frame (signal %d)", WTERMSIG(status));
	if (WEXITSTATUS(status) != 0)
		fail_msg("the reader exited with status %d on a truncated error frame instead of reporting it",
		         WEXITSTATUS(status));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_records_arrive_intact),
	    cmocka_unit_test(test_connections_env_in_child),
	    cmocka_unit_test(test_failure_with_cause),
	    cmocka_unit_test(test_crash),
	    cmocka_unit_test(test_invalid_experiment),
	    cmocka_unit_test(test_progress_live),
	    cmocka_unit_test(test_progress_then_crash),
	    cmocka_unit_test(test_cancel),
	    cmocka_unit_test(test_probe),
	    cmocka_unit_test(test_attach),
	    cmocka_unit_test(test_attach_malformed_error_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
