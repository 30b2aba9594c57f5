/* e2e_harden.c: what users did that crashed the TUI or broke their terminal, replayed on the real binary in a
 * pseudo-terminal: key sequences that once crashed it, every signal that ends it (the terminal must come back each
 * time, and the exit status must stay true), and a monkey that sends random keys, mouse events and resizes.
 *
 * usage: e2e_harden STREAMSCOPE [SCENARIO]   (no scenario: all of them)
 * Monkey settings: SS_MONKEY_EVENTS (default 3000), SS_MONKEY_SEED (default: the time; printed so a failure can be
 * replayed). */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

/* harden_trace is a real Nsight Systems export of four streams. */
static const char *harden_trace(char *buf, size_t len)
{
	const char *src = getenv("SS_SOURCE_DIR");

	snprintf(buf, len, "%s/tests/data/nsys/rtx4060ti-4streams.sqlite", src ? src : ".");
	return buf;
}

/* harden_alive fails the test when the program has exited (crashed) and dumps the screen. */
static void harden_alive(struct e2e *t, const char *after)
{
	int st;

	if (waitpid(t->pid, &st, WNOHANG) == t->pid) {
		t->exited = true;
		t->status = st;
		e2e_dump(t);
		fail_msg("the program ended after %s: %s %d", after, WIFSIGNALED(st) ? "signal" : "exit status",
		         WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	}
}

/* PgUp or Up moved the first lane shown above 0, and Tab then selected from lane -1 (a crash in release, a heap
 * overflow under ASan). Each key sequence on a freshly opened trace. */
static void test_scroll_select(void **state)
{
	static const char *const seqs[] = {"\033[5~\t", "\033[A\t", "\033[5~\033[5~j", "\033[A\033[Ak",
	                                   "\033[5~\033[Z"};
	char file[1024];
	const char *args[] = {"view", harden_trace(file, sizeof file), NULL};

	(void)state;
	for (size_t i = 0; i < sizeof seqs / sizeof *seqs; i++) {
		struct e2e t;

		e2e_start(&t, 120, 40, args, NULL);
		e2e_wait(&t, "makespan");
		e2e_keys(&t, seqs[i]);
		e2e_wait(&t, "selected");
		harden_alive(&t, "scrolling up and selecting");
		e2e_quit(&t);
		e2e_free(&t);
	}
}

/* harden_shown waits until the screen shows text, quiet or not. */
static void harden_shown(struct e2e *t, const char *text)
{
	double start = e2e_now();

	while (e2e_find(t, text, 0, NULL) < 0) {
		if (!e2e_pump(t, 10) || e2e_now() - start > E2E_MAX_MS) {
			e2e_dump(t);
			fail_msg("the screen never showed '%s'", text);
		}
	}
}

/* harden_streaming waits until the header says a run is streaming in and has records. */
static void harden_streaming(struct e2e *t)
{
	double start = e2e_now();
	char row[4096];

	for (;;) {
		char *p;

		e2e_pump(t, 10);
		e2e_row(t, 0, row, sizeof row);
		if (strstr(row, "running") != NULL && (p = strstr(row, " records")) != NULL) {
			while (p > row && p[-1] >= '0' && p[-1] <= '9')
				p--;
			if (atol(p) > 0)
				return;
		}
		if (e2e_now() - start > E2E_MAX_MS) {
			e2e_dump(t);
			fail_msg("no run streamed in");
		}
	}
}

/* A selection made on a run streaming in must not outlive it: pin, re-run, select (Tab) while the capture streams
 * in, re-run, zoom to the selection (z) dereferenced the replaced capture. The runs are long (65536 chunks, four
 * repeats) so that the capture is still streaming when Tab comes; three times. */
static void test_selection_rerun(void **state)
{
	static const char *const args[] = {"--backend", "model",    "--streams", "128", "--chunks",
	                                   "65536",     "--repeat", "4",         NULL};

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct e2e t;

		e2e_start(&t, 120, 40, args, NULL);
		e2e_settle(&t);
		e2e_keys(&t, "p");
		e2e_wait(&t, "pinned as A");
		e2e_keys(&t, "r");
		harden_streaming(&t);
		e2e_keys(&t, "\t");
		harden_shown(&t, "selected"); /* while the capture streams in: the screen is never quiet then */
		e2e_keys(&t, "rz");
		e2e_wait(&t, NULL);
		harden_alive(&t, "Tab, r, z on a capture");
		e2e_settle(&t);
		harden_alive(&t, "the re-run");
		e2e_quit(&t);
		e2e_free(&t);
	}
}

/* SIGHUP, SIGQUIT, SIGINT and SIGTERM end the TUI with 128 + the signal, and the terminal comes back. */
static void test_ending_signals(void **state)
{
	static const int sigs[] = {SIGHUP, SIGQUIT, SIGINT, SIGTERM};
	static const char *const args[] = {"--backend", "model", NULL};

	(void)state;
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct e2e t;
		int st;

		e2e_start(&t, 100, 30, args, NULL);
		e2e_settle(&t);
		e2e_click(&t, 50, 10); /* something selected: the detail box is on the screen */
		kill(t.pid, sigs[i]);
		st = e2e_finish(&t);
		if (!WIFEXITED(st))
			e2e_dump(&t);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 128 + sigs[i]);
		e2e_restored(&t);
		e2e_free(&t);
	}
}

/* A fatal signal (a crash) gives the terminal back and still kills the process with that signal, so the shell
 * sees the crash and a core can be written. Under the sanitizers their own handler reports it after ours and
 * exits non-zero instead (SIGABRT is theirs to leave alone). */
static void test_fatal_signals(void **state)
{
	static const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
	static const char *const args[] = {"--backend", "model", NULL};
	static const char *const env[] = {"ASAN_OPTIONS=detect_leaks=0:handle_abort=0", NULL};

	(void)state;
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct e2e t;
		int st;

		e2e_start(&t, 100, 30, args, env);
		e2e_settle(&t);
		kill(t.pid, sigs[i]);
		st = e2e_finish(&t);
#ifdef E2E_SANITIZED
		if (sigs[i] != SIGABRT && WIFEXITED(st))
			assert_int_not_equal(WEXITSTATUS(st), 0);
		else
#endif
		{
			if (!WIFSIGNALED(st) || WTERMSIG(st) != sigs[i])
				e2e_dump(&t);
			assert_true(WIFSIGNALED(st));
			assert_int_equal(WTERMSIG(st), sigs[i]);
		}
		e2e_restored(&t);
		e2e_free(&t);
	}
}

/* harden_hangup closes the terminal under a program that ignores SIGHUP (as under nohup), so that only the
 * terminal's hangup can tell it; returns its wait status, or fails when it is still running 15 s later. */
static int harden_hangup(struct e2e *t)
{
	double start = e2e_now();
	int st;

	close(t->fd);
	t->fd = open("/dev/null", O_RDWR); /* e2e_free closes it */
	while (waitpid(t->pid, &st, WNOHANG) != t->pid) {
		if (e2e_now() - start > 15000)
			fail_msg("the program still runs 15 s after its terminal hung up");
		usleep(20000);
	}
	t->exited = true;
	t->status = st;
	return st;
}

/* A terminal that hangs up ends the TUI (129, as SIGHUP would) even where SIGHUP is ignored, and closes the live
 * view of `record`, which then waits for its program as without the view; both used to spin on the dead terminal
 * for ever. */
static void test_hangup(void **state)
{
	static const char *const tui[] = {"--backend", "model", NULL};
	struct e2e t;
	int st;

	(void)state;
	signal(SIGHUP, SIG_IGN); /* inherited through exec */
	e2e_start(&t, 100, 30, tui, NULL);
	e2e_settle(&t);
	st = harden_hangup(&t);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 128 + SIGHUP);
	e2e_free(&t);
	signal(SIGHUP, SIG_DFL);
}

/* The same for record's live view (builds with CUDA only). */
static void test_hangup_live(void **state)
{
	static const char *const rec[] = {"record", "--live", "-o", "live.sqlite", "--", "sh", "-c", "sleep 1", NULL};
	struct e2e t;
	int st;

	(void)state;
	signal(SIGHUP, SIG_IGN);
	e2e_start(&t, 100, 30, rec, NULL);
	{
		double start = e2e_now();

		while (e2e_find(&t, "backend", 0, NULL) < 0 && e2e_find(&t, "needs CUDA", 0, NULL) < 0 &&
		       e2e_now() - start < E2E_MAX_MS)
			e2e_pump(&t, 20);
	}
	if (e2e_find(&t, "needs CUDA", 0, NULL) >= 0) { /* a build without CUDA has no record */
		signal(SIGHUP, SIG_DFL);
		e2e_free(&t);
		skip();
	}
	st = harden_hangup(&t);
	signal(SIGHUP, SIG_DFL);
	/* the program's own status, passed back: it ignores SIGHUP as record does, so the hangup did not end it; it
	 * made no CUDA call, so there is no trace to write */
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	e2e_free(&t);
}

/* SIGTERM, SIGHUP and SIGQUIT end record's live view after the recording ended (it waited for q for ever), with
 * the terminal restored and the program's status passed back. */
static void test_live_signals(void **state)
{
	static const int sigs[] = {SIGTERM, SIGHUP, SIGQUIT};
	static const char *const rec[] = {"record", "--live", "-o", "live.sqlite", "--", "sh", "-c", "exit 3", NULL};

	(void)state;
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct e2e t;
		int st;

		double start;

		e2e_start(&t, 100, 30, rec, NULL);
		start = e2e_now();
		while (e2e_find(&t, "ended", 0, NULL) < 0 && e2e_find(&t, "needs CUDA", 0, NULL) < 0 &&
		       e2e_now() - start < E2E_MAX_MS)
			e2e_pump(&t, 20);
		if (e2e_find(&t, "needs CUDA", 0, NULL) >= 0) { /* a build without CUDA has no record */
			e2e_free(&t);
			skip();
		}
		kill(t.pid, sigs[i]);
		st = e2e_finish(&t);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 3);
		e2e_restored(&t);
		e2e_free(&t);
	}
}

/* The monkey's random numbers: xorshift64*, reproducible from its seed. */
static uint64_t monkey_state;

static uint32_t monkey_rand(uint32_t n)
{
	monkey_state ^= monkey_state >> 12;
	monkey_state ^= monkey_state << 25;
	monkey_state ^= monkey_state >> 27;
	return (uint32_t)((monkey_state * 2685821657736338717ull) >> 32) % n;
}

/* Keys as a terminal sends them: every binding but the ones that end the program (q, F10), and some the program
 * does not bind. */
static const char *const monkey_keys[] = {
    "o",         "y",         "d",        "m",       "u",      "t",        "v",       "w",       "+",      "=",
    "-",         ">",         "<",        "r",       "h",      "l",        "H",       "L",       "z",      "Z",
    "f",         "\t",        "]",        "[",       "j",      "k",        "\r",      "\n",      "\033",   "p",
    "s",         "c",         "?",        "\014",    "x",      "Q",        " ",       "1",       "\033[A", "\033[B",
    "\033[C",    "\033[D",    "\033[5~",  "\033[6~", "\033[H", "\033[F",   "\033[1~", "\033[4~", "\033[Z", "\033OP",
    "\033[1;2C", "\033[1;2D", "\033[15~", "\033[",   "\033O",  "\xc3\xa9", "\xff",    "S",       "F",      "C",
};

/* monkey_event sends one random event: a key (most of them), a mouse click or wheel turn anywhere, a resize
 * (tiny sizes included), or a pause that lets runs finish. */
static void monkey_event(struct e2e *t)
{
	uint32_t r = monkey_rand(1000);

	if (r < 780) {
		e2e_keys(t, monkey_keys[monkey_rand(sizeof monkey_keys / sizeof *monkey_keys)]);
	} else if (r < 900) {
		e2e_click(t, (int)monkey_rand((uint32_t)t->cols), (int)monkey_rand((uint32_t)t->rows));
	} else if (r < 970) {
		e2e_wheel(t, (int)monkey_rand((uint32_t)t->cols), (int)monkey_rand((uint32_t)t->rows), monkey_rand(2));
	} else if (r < 985) {
		int cols = 20 + (int)monkey_rand(220), rows = 5 + (int)monkey_rand(70);

		if (monkey_rand(2))
			cols = 80 + (int)monkey_rand(60), rows = 24 + (int)monkey_rand(30);
		e2e_resize(t, cols, rows);
	} else {
		e2e_pump(t, (int)monkey_rand(40));
	}
	e2e_pump(t, 0);
}

/* monkey_check waits for the screen to settle and checks the program is alive and shows a frame (the header, or
 * the "too small" notice) within 10 s: a run or a sweep the keys started may keep it busy for a while on a loaded
 * machine, but not longer. */
static void monkey_check(struct e2e *t, uint64_t seed, long done)
{
	double start = e2e_now();

	for (;;) {
		while (e2e_now() - start < 10000 && e2e_now() - t->last_output < 200)
			e2e_pump(t, 20);
		if (waitpid(t->pid, &t->status, WNOHANG) == t->pid) {
			t->exited = true;
			e2e_dump(t);
			fail_msg("seed %llu: the program ended after %ld events (%s %d)", (unsigned long long)seed,
			         done, WIFSIGNALED(t->status) ? "signal" : "exit status",
			         WIFSIGNALED(t->status) ? WTERMSIG(t->status) : WEXITSTATUS(t->status));
		}
		if (e2e_find(t, "streamscope", 0, NULL) == 0 || e2e_find(t, "too small", 0, NULL) >= 0 ||
		    e2e_find(t, "enlarge", 0, NULL) >= 0)
			return;
		if (e2e_now() - start >= 10000)
			break;
		e2e_pump(t, 50);
	}
	e2e_dump(t);
	fail_msg("seed %llu: after %ld events the screen shows no frame for 10 s", (unsigned long long)seed, done);
}

/* monkey_run drives one program with n random events, then quits it and checks the terminal. */
static void monkey_run(const char *const *args, long n, uint64_t seed)
{
	struct e2e t;
	char env_asan[256], env_ubsan[256], logs[128];
	const char *env[3];
	int st = 0;

	snprintf(logs, sizeof logs, "/tmp/ss-monkey-%ld", (long)getpid());
	snprintf(env_asan, sizeof env_asan, "ASAN_OPTIONS=detect_leaks=1:log_path=%s.asan", logs);
	snprintf(env_ubsan, sizeof env_ubsan, "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=%s.ubsan",
	         logs);
	env[0] = env_asan;
	env[1] = env_ubsan;
	env[2] = NULL;
	monkey_state = seed ? seed : 1;
	e2e_start(&t, 120, 40, args, env);
	e2e_wait(&t, "streamscope");
	for (long i = 1; i <= n; i++) {
		monkey_event(&t);
		if (i % 500 == 0 || i == n)
			monkey_check(&t, seed, i);
	}
	/* q closes an overlay first, and a tiny terminal shows only the notice: make it big, then q until it ends (the
	 * sanitizers' leak check at exit takes a while on a big heap: up to 30 s) */
	e2e_resize(&t, 120, 40);
	for (int i = 0; i < 16 && !t.exited; i++) {
		double until = e2e_now() + (i < 8 ? 500 : 4000);

		e2e_keys(&t, i % 2 ? "\033" : "q");
		while (e2e_now() < until && !t.exited)
			if (waitpid(t.pid, &st, WNOHANG) == t.pid)
				t.exited = true, t.status = st;
			else
				e2e_pump(&t, 20);
	}
	if (!t.exited)
		e2e_dump(&t);
	assert_true(t.exited);
	st = e2e_finish(&t);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		char cmd[300];

		snprintf(cmd, sizeof cmd, "cat %s.asan.* %s.ubsan.* >&2 2>/dev/null", logs, logs);
		(void)system(cmd);
		fail_msg("seed %llu: the program ended with %s %d", (unsigned long long)seed,
		         WIFSIGNALED(st) ? "signal" : "status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	}
	e2e_restored(&t);
	e2e_free(&t);
	fprintf(stderr, "monkey: %ld events, seed %llu: alive, frames valid, terminal restored\n", n,
	        (unsigned long long)seed);
}

/* Random keys, mouse events and resizes, half on the model's runs (re-runs, pins, sweeps) and half on a trace. */
static void test_monkey(void **state)
{
	const char *ev = getenv("SS_MONKEY_EVENTS"), *sd = getenv("SS_MONKEY_SEED");
	long n = ev != NULL ? atol(ev) : 3000;
	uint64_t seed = sd != NULL ? strtoull(sd, NULL, 10) : (uint64_t)time(NULL);
	char file[1024];
	const char *run_args[] = {"--backend", "model", "--streams", "16", NULL};
	const char *view_args[] = {"view", harden_trace(file, sizeof file), NULL};

	(void)state;
	fprintf(stderr, "monkey: seed %llu (SS_MONKEY_SEED replays it)\n", (unsigned long long)seed);
	monkey_run(run_args, (n + 1) / 2, seed);
	monkey_run(view_args, n / 2, seed + 1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scroll_select),  cmocka_unit_test(test_selection_rerun),
	    cmocka_unit_test(test_ending_signals), cmocka_unit_test(test_fatal_signals),
	    cmocka_unit_test(test_hangup),         cmocka_unit_test(test_hangup_live),
	    cmocka_unit_test(test_live_signals),   cmocka_unit_test(test_monkey),
	};

	return e2e_main(argc, argv, "e2e_harden", tests, sizeof tests / sizeof tests[0]);
}
