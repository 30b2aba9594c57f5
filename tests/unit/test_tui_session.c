/* test_tui_session.c: the runs behind the TUI, with the model backend in runner children: the first run and its
 * one-stream baseline, a toggle that swaps in when done, A/B pinning, the sweep, records indexed while they stream
 * in, and runs that crash or fail (the session reports them and keeps going). */
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "core/backend.h"
#include "model/model.h"
#include "test_tui_util.h"
#include "tui/session.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* settle polls s until nothing runs (at most 60 s) and returns every SES_* bit seen. *records counts the polls
 * that saw the capture's index grow while the run was still going. */
static unsigned settle(struct ss_session *s, int *live)
{
	unsigned seen = 0;
	double t0 = now_s();

	while (session_busy(s)) {
		struct pollfd p = {session_fd(s), POLLIN, 0};
		unsigned ch;

		if (p.fd >= 0)
			poll(&p, 1, 10);
		ch = session_poll(s, now_s());
		if (live != NULL && (ch & SES_RECORDS) && s->capture != NULL && s->capture->lanes.indexed > 0 &&
		    session_busy(s))
			(*live)++;
		seen |= ch;
		assert_true(now_s() - t0 < 60);
	}
	return seen;
}

static void small(struct ss_experiment *e)
{
	experiment_preset(e, SS_PRESET_KERNEL_TRANSFER);
	e->elements = 1u << 20;
	e->repeat = 1;
	e->warmup = 0;
}

/* The first run shows when done, with speedup and bound from its one-stream baseline; then a toggle. */
static void test_runs(void **state)
{
	struct ss_session s;
	struct ss_experiment e;
	struct ss_run *first;
	unsigned seen;

	(void)state;
	small(&e);
	session_init(&s, &model_backend, NULL);
	assert_null(session_view(&s));
	session_request(&s, &e);
	assert_true(session_busy(&s));
	assert_int_equal(s.job, JOB_MAIN);
	assert_int_equal(session_fd(&s) >= 0, true);
	seen = settle(&s, NULL);
	assert_true(seen & SES_SHOWN);
	assert_true(seen & SES_STATS);
	assert_false(seen & SES_FAILED);
	first = s.shown;
	assert_non_null(first);
	assert_true(first->done);
	assert_true(first->tl.modelled);
	assert_true(first->an.makespan_ns > 0);
	assert_int_equal(first->lanes.indexed, first->tl.n);
	assert_int_equal(first->tl.nstreams, 8);
	assert_true(first->compared);
	assert_true(first->an.have_speedup && first->an.speedup > 1.0);
	assert_true(first->an.have_bound && first->an.bound_ns > 0);
	assert_int_equal(s.nbase, 1);
	assert_false(first->have_predicted); /* the model needs no prediction of itself */
	/* toggle the order: the old run stays shown until the new one is done */
	e.order = SS_ORDER_BREADTH;
	session_request(&s, &e);
	assert_ptr_equal(session_view(&s), first);
	assert_int_equal(session_experiment(&s)->order, SS_ORDER_BREADTH);
	seen = settle(&s, NULL);
	assert_true(seen & SES_SHOWN);
	assert_ptr_not_equal(s.shown, NULL);
	assert_int_equal(s.shown->exp.order, SS_ORDER_BREADTH);
	assert_true(s.shown->compared); /* one chunk per stream: both orders share the baseline */
	assert_int_equal(s.nbase, 1);
	/* a one-stream run is its own baseline */
	e.streams = 1;
	session_request(&s, &e);
	settle(&s, NULL);
	assert_true(s.shown->compared);
	assert_true(s.shown->an.speedup > 0.99 && s.shown->an.speedup < 1.01);
	session_free(&s);
}

/* A request while another runs replaces it; pin makes the shown run A and the next one B. */
static void test_pin(void **state)
{
	struct ss_session s;
	struct ss_experiment e;

	(void)state;
	small(&e);
	session_init(&s, &model_backend, NULL);
	assert_false(session_pin(&s)); /* nothing to pin yet */
	session_request(&s, &e);
	e.streams = 4;
	session_request(&s, &e); /* replaces the first before it could finish */
	settle(&s, NULL);
	assert_int_equal(s.shown->exp.streams, 4);
	assert_true(session_pin(&s));
	assert_non_null(s.pinned);
	assert_null(s.shown);
	assert_null(session_view(&s));
	e.order = SS_ORDER_BREADTH;
	session_request(&s, &e);
	settle(&s, NULL);
	assert_non_null(s.shown);
	assert_int_equal(s.pinned->exp.order, SS_ORDER_DEPTH);
	assert_int_equal(s.shown->exp.order, SS_ORDER_BREADTH);
	assert_false(session_pin(&s)); /* unpins */
	assert_null(s.pinned);
	session_free(&s);
}

/* The sweep runs every point in the background; a request pre-empts it and the point runs again after. */
static void test_sweep(void **state)
{
	struct ss_session s;
	struct ss_experiment e;
	unsigned seen;

	(void)state;
	small(&e);
	session_init(&s, &model_backend, NULL);
	session_request(&s, &e);
	settle(&s, NULL);
	session_sweep(&s, &e);
	assert_true(session_sweep_running(&s));
	/* let one point start, then ask for a run: the point is put back */
	while (s.job != JOB_SWEEP)
		session_poll(&s, now_s());
	session_request(&s, &e);
	assert_int_equal(s.job, JOB_MAIN);
	assert_true(s.retry);
	seen = settle(&s, NULL);
	assert_true(seen & SES_SWEEP);
	assert_false(session_sweep_running(&s));
	assert_int_equal(sweep_progress(&s.sweep), 16);
	for (size_t i = 0; i < s.sweep.n; i++) {
		assert_true(s.sweep.pt[i].done);
		assert_false(s.sweep.pt[i].failed);
		assert_true(s.sweep.pt[i].a.makespan_ns > 0);
		assert_true(s.sweep.pt[i].a.have_bound);
	}
	assert_int_equal(s.sweep.pt[7].streams, 128);
	/* the same base again keeps the finished sweep */
	session_sweep(&s, &e);
	assert_false(session_sweep_running(&s));
	session_free(&s);
}

/* The TUI's sweep of document 003's two-stream experiment compares the document's two orders, best and weaker (as
 * `sweep --order both` does), not depth and breadth; switching to depth-first is another sweep, best to weaker the
 * same one. */
static void test_sweep_document_orders(void **state)
{
	struct ss_session s;
	struct ss_experiment e;

	(void)state;
	experiment_preset(&e, SS_PRESET_VECTOR_ADD);
	e.elements = 1u << 20;
	e.repeat = 1;
	e.warmup = 0;
	session_init(&s, &model_backend, NULL);
	session_sweep(&s, &e);
	assert_int_equal(s.sweep.norders, 2);
	assert_int_equal(s.sweep.orders[0], SS_ORDER_BEST);
	assert_int_equal(s.sweep.orders[1], SS_ORDER_WEAKER);
	settle(&s, NULL);
	for (size_t i = 0; i < s.sweep.n; i++)
		if (s.sweep.pt[i].failed)
			fail_msg("point %zu (%d streams) failed: %s", i, s.sweep.pt[i].streams, s.sweep.pt[i].error);
	e.order = SS_ORDER_WEAKER;
	session_sweep(&s, &e);
	assert_int_equal(s.sweep.orders[0], SS_ORDER_BEST);
	assert_false(session_sweep_running(&s)); /* kept, finished */
	e.order = SS_ORDER_DEPTH;
	session_sweep(&s, &e);
	assert_int_equal(s.sweep.orders[0], SS_ORDER_DEPTH);
	assert_int_equal(s.sweep.orders[1], SS_ORDER_BREADTH);
	session_free(&s);
}

/* The TUI's sweep of an experiment on two devices: 1..64 streams each (128 in all), depth-first only (breadth left
 * out with a note), and every point runs. */
static void test_sweep_devices(void **state)
{
	struct ss_session s;
	struct ss_experiment e;

	(void)state;
	small(&e);
	e.devices = 2;
	e.sync = SS_SYNC_STREAM;
	session_init(&s, &model_backend, NULL);
	session_sweep(&s, &e);
	assert_int_equal(s.sweep.norders, 1);
	assert_int_equal(s.sweep.orders[0], SS_ORDER_DEPTH);
	assert_int_equal(s.sweep.n, 7);
	assert_non_null(strstr(s.sweep.note, "breadth-first left out"));
	settle(&s, NULL);
	assert_false(session_sweep_running(&s));
	for (size_t i = 0; i < s.sweep.n; i++)
		if (s.sweep.pt[i].failed)
			fail_msg("point %zu (%d streams) failed: %s", i, s.sweep.pt[i].streams, s.sweep.pt[i].error);
	assert_int_equal(s.sweep.pt[6].streams, 64);
	session_free(&s);
}

/* A backend that delivers records slowly, so that the UI sees them before the run ends. */
static int slow_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                    struct ss_run_result *res, char **cause)
{
	(void)ops;
	(void)cause;
	for (int i = 0; i < 3000; i++) {
		struct ss_record r;

		memset(&r, 0, sizeof r);
		r.kind = (uint8_t)(i % 3 == 0 ? SS_KIND_H2D : i % 3 == 1 ? SS_KIND_KERNEL : SS_KIND_D2H);
		r.stream = i % e->streams;
		r.start = (uint64_t)i * 1000;
		r.end = r.start + 900;
		sink->record(sink->ctx, &r, r.kind == SS_KIND_KERNEL ? "k" : NULL);
		if (i % 100 == 99)
			usleep(20000);
	}
	memset(res, 0, sizeof *res);
	snprintf(res->device, sizeof res->device, "slow test device");
	res->repeats = 1;
	return 0;
}

static int crash_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                     struct ss_run_result *res, char **cause)
{
	(void)e, (void)ops, (void)sink, (void)res, (void)cause;
	signal(SIGSEGV, SIG_DFL); /* cmocka's handler came along with fork */
	raise(SIGSEGV);
	return 0;
}

static int oom_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                   struct ss_run_result *res, char **cause)
{
	(void)e, (void)ops, (void)sink, (void)res;
	*cause = strdup("cudaMalloc: out of memory (2.0 GiB asked)");
	return -1;
}

static const struct ss_backend slow_backend = {"slow", true, NULL, slow_run};
static const struct ss_backend crash_backend = {"crash", true, NULL, crash_run};
static const struct ss_backend oom_backend = {"oom", true, NULL, oom_run};

/* Records are indexed while they stream in, at most every 0.1 s. */
static void test_live(void **state)
{
	struct ss_session s;
	struct ss_experiment e;
	int live = 0;

	(void)state;
	small(&e);
	session_init(&s, &slow_backend, NULL);
	session_request(&s, &e);
	settle(&s, &live);
	assert_true(live >= 2); /* the run lasts ~0.6 s */
	assert_int_equal(s.shown->tl.n, 3000);
	assert_int_equal(s.shown->lanes.indexed, 3000);
	assert_string_equal(s.shown->tl.device, "slow test device");
	session_free(&s);
}

/* A crash or an error in the runner is a message; the session keeps the shown run and can run again. */
static void test_failures(void **state)
{
	struct ss_session s;
	struct ss_experiment e;
	unsigned seen;

	(void)state;
	small(&e);
	session_init(&s, &crash_backend, NULL);
	session_request(&s, &e);
	seen = settle(&s, NULL);
	assert_true(seen & SES_FAILED);
	assert_null(s.shown);
	assert_non_null(strstr(s.message, "the run failed: the runner process crashed (signal 11"));
	/* the experiment stays, so that r can try again */
	assert_non_null(session_experiment(&s));
	session_request(&s, session_experiment(&s));
	assert_true(session_busy(&s));
	assert_true(settle(&s, NULL) & SES_FAILED);
	session_free(&s);

	session_init(&s, &oom_backend, NULL);
	session_request(&s, &e);
	seen = settle(&s, NULL);
	assert_true(seen & SES_FAILED);
	assert_string_equal(s.message, "the run failed: cudaMalloc: out of memory (2.0 GiB asked)");
	session_free(&s);

	/* an invalid experiment never starts */
	session_init(&s, &model_backend, NULL);
	e.streams = 0;
	session_request(&s, &e);
	assert_false(session_busy(&s));
	assert_non_null(strstr(s.message, "cannot run:"));
	session_free(&s);
}

/* A file: shown at once, analysed, never run. */
static void test_file(void **state)
{
	struct ss_session s;
	struct ss_timeline t;

	(void)state;
	tui_fixture(&t);
	session_init(&s, NULL, &t);
	assert_non_null(s.shown);
	assert_true(s.shown->file);
	assert_true(s.shown->done);
	assert_int_equal(s.shown->tl.n, t.n);
	assert_int_equal(s.shown->lanes.indexed, t.n);
	assert_int_equal(s.shown->an.makespan_ns, 363 * US);
	assert_false(session_busy(&s));
	assert_null(session_experiment(&s));
	session_free(&s);
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_runs),
	    cmocka_unit_test(test_pin),
	    cmocka_unit_test(test_sweep),
	    cmocka_unit_test(test_sweep_devices),
	    cmocka_unit_test(test_sweep_document_orders),
	    cmocka_unit_test(test_live),
	    cmocka_unit_test(test_failures),
	    cmocka_unit_test(test_file),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
