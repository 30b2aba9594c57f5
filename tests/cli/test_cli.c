/* test_cli.c: the real streamscope binary run as a child: exit codes, one-line errors naming what is valid, the op
 * list, and the JSON of `run` and `sweep` parsed back with yajl_tree.
 *
 * Groups (argv[1]): "usage" needs no backend; "model" runs experiments on the model backend. No argument: both. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "io_fixture.h"
#include "json_tree.h"

#ifndef SS_BINARY
#error "SS_BINARY (the streamscope executable) must be defined"
#endif

/* What one run of the binary printed and how it ended. */
struct cli_out {
	char *out, *err;
	size_t nout, nerr;
	int status; /* exit status, or 128 + signal */
};

static void cli_out_free(struct cli_out *o)
{
	free(o->out);
	free(o->err);
	memset(o, 0, sizeof *o);
}

static void append(char **buf, size_t *len, const char *data, size_t n)
{
	*buf = realloc(*buf, *len + n + 1);
	assert_non_null(*buf);
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = '\0';
}

/* Runs streamscope with args (NULL-terminated), stdin from /dev/null; collects stdout and stderr until both close
 * and the child has exited. */
static void run_cli(struct cli_out *o, const char *const *args)
{
	int pout[2], perr[2], st;
	const char *argv[64];
	struct pollfd pfd[2];
	int open_fds = 2;
	pid_t pid;
	size_t n = 0;

	memset(o, 0, sizeof *o);
	append(&o->out, &o->nout, "", 0);
	append(&o->err, &o->nerr, "", 0);
	argv[n++] = SS_BINARY;
	for (; args[n - 1] != NULL && n < 63; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	assert_int_equal(pipe(pout), 0);
	assert_int_equal(pipe(perr), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(pout[1], 1);
		dup2(perr[1], 2);
		close(pout[0]);
		close(perr[0]);
		unsetenv("STREAMSCOPE_PROFILE");
		execv(SS_BINARY, (char *const *)argv);
		_exit(127);
	}
	close(pout[1]);
	close(perr[1]);
	pfd[0].fd = pout[0];
	pfd[1].fd = perr[0];
	pfd[0].events = pfd[1].events = POLLIN;
	while (open_fds > 0) {
		if (poll(pfd, 2, -1) < 0) {
			assert_int_equal(errno, EINTR);
			continue;
		}
		for (int i = 0; i < 2; i++) {
			char buf[65536];
			ssize_t r;

			if (pfd[i].fd < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			r = read(pfd[i].fd, buf, sizeof buf);
			if (r > 0) {
				if (i == 0)
					append(&o->out, &o->nout, buf, (size_t)r);
				else
					append(&o->err, &o->nerr, buf, (size_t)r);
			} else if (r == 0 || errno != EINTR) {
				close(pfd[i].fd);
				pfd[i].fd = -1;
				open_fds--;
			}
		}
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	o->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static size_t count_substr(const char *s, const char *sub)
{
	size_t n = 0;

	for (const char *p = strstr(s, sub); p != NULL; p = strstr(p + 1, sub))
		n++;
	return n;
}

/* Runs args and expects exit status code with exactly one stderr line "streamscope: ..." containing each fragment
 * (NULL-terminated varargs), and nothing on stdout. */
static void expect_error(int code, const char *const *args, ...)
{
	struct cli_out o;
	va_list ap;
	const char *frag;

	run_cli(&o, args);
	if (o.status != code)
		fail_msg("%s: exit %d, want %d; stderr: %s", args[0], o.status, code, o.err);
	if (count_lines(o.err) != 1 || strncmp(o.err, "streamscope: ", 13) != 0)
		fail_msg("%s %s: want one stderr line 'streamscope: ...', got:\n%s", args[0], args[1] ? args[1] : "",
		         o.err);
	if (o.nout != 0)
		fail_msg("%s: unexpected stdout: %s", args[0], o.out);
	va_start(ap, args);
	while ((frag = va_arg(ap, const char *)) != NULL)
		if (strstr(o.err, frag) == NULL)
			fail_msg("stderr '%s' lacks '%s'", o.err, frag);
	va_end(ap);
	cli_out_free(&o);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_help(void **state)
{
	const char *const *cases[] = {ARGS("--help"),        ARGS("-h"),          ARGS("help"),
	                              ARGS("run", "--help"), ARGS("sweep", "-h"), ARGS("help", "sweep")};
	struct cli_out o;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		run_cli(&o, cases[i]);
		assert_int_equal(o.status, 0);
		assert_true(strncmp(o.out, "usage: streamscope", 18) == 0);
		assert_non_null(strstr(o.out, "--streams "));
		assert_non_null(strstr(o.out, "1..128"));
		assert_int_equal(o.nerr, 0);
		cli_out_free(&o);
	}
}

/* The help is made from the command table: every command `streamscope --help` lists has a help of its own that
 * names it, lists -h, and every line fits an 80-column terminal. */
static void test_help_every_command(void **state)
{
	static const char *const names[] = {"run",       "sweep",    "ops",   "view",   "stats",
	                                    "calibrate", "validate", "bench", "record", "keys"};
	struct cli_out top, o;

	(void)state;
	run_cli(&top, ARGS("--help"));
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char usage[64], listed[64];
		const char *line;

		snprintf(listed, sizeof listed, "\n  %s", names[i]);
		if (strstr(top.out, listed) == NULL)
			fail_msg("--help does not list '%s':\n%s", names[i], top.out);
		run_cli(&o, ARGS(names[i], "--help"));
		assert_int_equal(o.status, 0);
		snprintf(usage, sizeof usage, "usage: streamscope %s", names[i]);
		if (strncmp(o.out, usage, strlen(usage)) != 0)
			fail_msg("%s --help starts: %.60s", names[i], o.out);
		assert_non_null(strstr(o.out, "-h, --help"));
		assert_non_null(strstr(o.out, "Exit status:"));
		for (line = o.out; *line != '\0';) {
			size_t n = strcspn(line, "\n");

			if (n > 79)
				fail_msg("%s --help: a line of %zu columns: %.*s", names[i], n, (int)n, line);
			line += n + (line[n] == '\n');
		}
		cli_out_free(&o);
	}
	for (const char *line = top.out; *line != '\0';) {
		size_t n = strcspn(line, "\n");

		if (n > 79)
			fail_msg("--help: a line of %zu columns: %.*s", n, (int)n, line);
		line += n + (line[n] == '\n');
	}
	cli_out_free(&top);
	expect_error(2, ARGS("help", "frobnicate"), "unknown command 'frobnicate'", NULL);
	/* a file where the command goes opens as less opens one: an .ini in the TUI (which needs a terminal, so its
	 * refusal shows the file was read and the TUI reached), anything else as view opens it; a word with a '.' is a
	 * file even when there is none, so the reader names what is missing */
	{
		char ini[4096], trace[4096], dir[] = "/tmp/ss-cli-file-XXXXXX", a[160], b[160], c[160];
		char *ta, *tb, *tc;

		snprintf(ini, sizeof ini, "%s/examples/decrypt.ini", SS_SOURCE_DIR);
		snprintf(trace, sizeof trace, "%s/tests/data/h200/record-twin/twin.sqlite", SS_SOURCE_DIR);
		expect_error(2, ARGS(ini, "--backend", "model"), "the interactive timeline needs a terminal", NULL);
		expect_error(2, ARGS(ini, "--streams", "0"), "--streams", NULL);
		expect_error(2, ARGS("nothere.ini"), "cannot read experiment file 'nothere.ini'", "No such file", NULL);
		expect_error(1, ARGS("nothere.sqlite"), "nothere.sqlite", "No such file", NULL);
		expect_error(2, ARGS(trace), "needs a terminal", NULL);
		/* options first: the file still decides, and a trace's options are view's */
		expect_error(2, ARGS("--backend", "model", ini), "the interactive timeline needs a terminal", NULL);
		expect_error(2, ARGS("--ascii", trace), "needs a terminal", NULL);
		expect_error(2, ARGS("--streams", "4", trace), "option '--streams' does not apply to 'view'", NULL);
		expect_error(1, ARGS("--ascii", "nothere.sqlite"), "nothere.sqlite", "No such file", NULL);
		/* an option's value before the file is not taken for it, whichever command's option it is */
		expect_error(2, ARGS("--ascii", trace, "--export", "x.csv"),
		             "option '--ascii' does not apply to 'view' with --export", NULL);
		expect_error(2, ARGS("-o", "x.ini", trace), "option '-o' does not apply to 'view'", NULL);
		assert_non_null(mkdtemp(dir));
		snprintf(a, sizeof a, "%s/a.csv", dir);
		snprintf(b, sizeof b, "%s/b.csv", dir);
		snprintf(c, sizeof c, "%s/c.csv", dir);
		run_cli(&o, ARGS(trace, "--export", a));
		assert_int_equal(o.status, 0);
		cli_out_free(&o);
		run_cli(&o, ARGS("view", trace, "--export", b));
		assert_int_equal(o.status, 0);
		cli_out_free(&o);
		run_cli(&o, ARGS("--export", c, trace));
		assert_int_equal(o.status, 0);
		cli_out_free(&o);
		assert_non_null(ta = fx_read(a, NULL));
		assert_non_null(tb = fx_read(b, NULL));
		assert_non_null(tc = fx_read(c, NULL));
		assert_true(strlen(ta) > 1000);
		assert_string_equal(ta, tb);
		assert_string_equal(tc, tb);
		free(ta);
		free(tb);
		free(tc);
		unlink(a);
		unlink(b);
		unlink(c);
		rmdir(dir);
	}
}

/* streamscope examples/interleave.ini on a GPU (tests/data/h200/detach-h100/call11, captured from tmux by
 * tests/gpu/tui_screens.sh): the header names the card, the CUDA backend and the file; the experiment line is the
 * one `ops` describes the same file with today; the run has a makespan and dropped nothing. */
static void test_gpu_file_screen(void **state)
{
	char path[4096], *screen, *row1, *want;
	struct cli_out o;

	(void)state;
	snprintf(path, sizeof path, "%s/tests/data/h200/detach-h100/call11/file-interleave.txt", SS_SOURCE_DIR);
	assert_non_null(screen = fx_read(path, NULL));
	row1 = strchr(screen, '\n');
	assert_non_null(row1);
	*row1++ = '\0';
	assert_non_null(strstr(screen, "NVIDIA H100 80GB HBM3  backend cuda  from examples/interleave.ini"));
	assert_null(strstr(screen, "MODEL"));
	snprintf(path, sizeof path, "%s/examples/interleave.ini", SS_SOURCE_DIR);
	run_cli(&o, ARGS("ops", path));
	assert_int_equal(o.status, 0);
	assert_true(strncmp(o.out, "# ", 2) == 0);
	want = o.out + 2;
	want[strcspn(want, "\n")] = '\0';
	if (strncmp(row1, want, strlen(want)) != 0 || strchr(" \n", row1[strlen(want)]) == NULL)
		fail_msg("the GPU screen's experiment line is not ops's:\n screen: %.*s\n    ops: %s",
		         (int)strcspn(row1, "\n"), row1, want);
	assert_non_null(strstr(row1, "makespan                 1.655 ms"));
	assert_non_null(strstr(row1, "dropped                         0"));
	cli_out_free(&o);
	free(screen);
}

/* README.md's key list is `streamscope keys`'s output, the list made from the table the TUI dispatches with and
 * `?` draws: a key added, rebound or reworded there and not in the README fails here. */
static void test_readme_keys(void **state)
{
	static const char begin[] = "<!-- streamscope keys -->\n```\n", end[] = "```\n<!-- end of streamscope keys -->";
	char path[4096], *text, *from, *to;
	struct cli_out o;

	(void)state;
	snprintf(path, sizeof path, "%s/README.md", SS_SOURCE_DIR);
	assert_non_null(text = fx_read(path, NULL));
	from = strstr(text, begin);
	if (from == NULL)
		fail_msg("README.md has no '%s' block", "<!-- streamscope keys -->");
	from += strlen(begin);
	to = strstr(from, end);
	assert_non_null(to);
	*to = '\0';
	run_cli(&o, ARGS("keys"));
	assert_int_equal(o.status, 0);
	if (strcmp(o.out, from) != 0)
		fail_msg("README.md's keys differ from `streamscope keys` (paste its output there):\n%s", o.out);
	/* every group of the table, and a key of each kind, are in it */
	assert_non_null(strstr(o.out, "Experiment"));
	assert_non_null(strstr(o.out, "General"));
	assert_non_null(strstr(o.out, "PgUp PgDn"));
	cli_out_free(&o);
	free(text);
}

static void test_version(void **state)
{
	struct cli_out o;

	(void)state;
	run_cli(&o, ARGS("--version"));
	assert_int_equal(o.status, 0);
	assert_string_equal(o.out, "streamscope " SS_VERSION "\n");
	assert_int_equal(o.nerr, 0);
	cli_out_free(&o);
}

static void test_unknown_command_and_options(void **state)
{
	(void)state;
	expect_error(2, ARGS("frobnicate"), "'frobnicate'", "run", "sweep", NULL);
	expect_error(2, ARGS("run", "--bogus"), "--bogus", NULL);
	expect_error(2, ARGS("ops", "--no-such-option", "3"), "--no-such-option", NULL);
	expect_error(2, ARGS("run", "-x"), "-x", NULL);
	expect_error(2, ARGS("run", "--streams"), "--streams", "needs a value", NULL);
	expect_error(2, ARGS("run", "extra"), "'extra'", NULL);
}

/* Option errors in getopt's words, naming the option the user typed, in every parser of the CLI. */
static void test_option_messages(void **state)
{
	struct cli_out o;

	(void)state;
	expect_error(2, ARGS("run", "-xh"), "unknown option '-x'", NULL);
	run_cli(&o, ARGS("run", "-xh"));
	assert_null(strstr(o.err, "'run'"));
	cli_out_free(&o);
	expect_error(2, ARGS("run", "--json", "-xh"), "unknown option '-x'", NULL);
	expect_error(2, ARGS("run", "--json=1"), "option '--json' takes no value", NULL);
	expect_error(2, ARGS("run", "--js=1"), "option '--json' takes no value", NULL);
	expect_error(2, ARGS("sweep", "--streams"), "option '--streams' needs a value", NULL);
	expect_error(2, ARGS("run", "--stream", "4"), "'--stream' is ambiguous", "--streams", "--stream-flags", NULL);
	expect_error(2, ARGS("run", "--bogus=3"), "unknown option '--bogus'", NULL);
	expect_error(2, ARGS("calibrate", "-xh"), "calibrate", "unknown option '-x'", NULL);
	expect_error(2, ARGS("calibrate", "-o"), "option '-o' needs a value", NULL);
	expect_error(2, ARGS("calibrate", "--output"), "option '--output' needs a value", NULL);
	expect_error(2, ARGS("validate", "--quick=yes"), "validate", "option '--quick' takes no value", NULL);
	expect_error(2, ARGS("validate", "--csv"), "option '--csv' needs a value", NULL);
}

/* An option whose value is left out before another option (--streams --backend model) is named as needing a value,
 * in every command and before the FILE is looked for; the next option is not taken for the value, nor the word after
 * it for the FILE. A value that starts with one dash, or with two but names no option, is still a value. */
static void test_missing_value_before_option(void **state)
{
	char trace[4096];

	(void)state;
	snprintf(trace, sizeof trace, "%s/tests/data/h200/record-twin/twin.sqlite", SS_SOURCE_DIR);
	expect_error(2, ARGS("run", "--streams", "--backend", "model"), "run: option '--streams' needs a value", NULL);
	expect_error(2, ARGS("run", "--export", "--backend", "model"), "run: option '--export' needs a value", NULL);
	expect_error(2, ARGS("run", "--export", "--back", "model"), "run: option '--export' needs a value", NULL);
	expect_error(2, ARGS("sweep", "--streams", "--json"), "sweep: option '--streams' needs a value", NULL);
	expect_error(2, ARGS("calibrate", "-o", "--backend", "model"), "calibrate: option '-o' needs a value", NULL);
	expect_error(2, ARGS("--export", "--profile", "x.profile", trace), "view: option '--export' needs a value",
	             NULL);
	/* values that are no option */
	expect_error(2, ARGS("run", "--streams", "-3"), "invalid --streams '-3'", NULL);
	expect_error(2, ARGS("run", "--streams=--backend"), "invalid --streams '--backend'", NULL);
	expect_error(2, ARGS("run", "--backend", "model", "--export", "--nothere/x.csv"),
	             "cannot write --nothere/x.csv", NULL);
	expect_error(2, ARGS("--export", "--nothere/x.csv", trace), "cannot write --nothere/x.csv", NULL);
}

/* Every extension an export takes is in the error for one it does not, and in the help of each option that
 * writes a trace (run's and view's --export, record's -o). */
static void test_export_extensions(void **state)
{
	static const char *const helps[][2] = {
	    {"run", "--export FILE"}, {"view", "--export FILE"}, {"record", "--output FILE"}};
	struct cli_out o;

	(void)state;
	expect_error(2, ARGS("run", "--export", "x.bogus"), "unknown extension",
	             ".sqlite, .db, .sqlite3, .json, .csv, .svg, .txt", NULL);
	for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
		const char *at;

		run_cli(&o, ARGS(helps[i][0], "--help"));
		assert_int_equal(o.status, 0);
		at = strstr(o.out, helps[i][1]);
		if (at == NULL || strstr(at, ".db,") == NULL || strstr(at, ".sqlite3") == NULL ||
		    strstr(at, ".json") == NULL)
			fail_msg("%s --help: %s lacks an extension:\n%s", helps[i][0], helps[i][1], o.out);
		cli_out_free(&o);
	}
}

/* A sweep list longer than the limit says so, whatever its items hold. */
static void test_sweep_list_length(void **state)
{
	char list[1024], *p = list;

	(void)state;
	for (int i = 1; i <= 129; i++)
		p += sprintf(p, "%s%d", i > 1 ? "," : "", i);
	expect_error(2, ARGS("sweep", "--streams", list), "129 counts, at most 32", NULL);
	p = list;
	for (int i = 0; i < 129; i++)
		p += sprintf(p, "%s0", i ? "," : "");
	expect_error(2, ARGS("sweep", "--streams", list), "129 counts, at most 32", NULL);
}

/* Writes text to dir/name and returns the path in buf. */
static const char *put_file(const char *dir, const char *name, const char *text, char *buf, size_t len)
{
	FILE *f;

	snprintf(buf, len, "%s/%s", dir, name);
	f = fopen(buf, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* A --profile that cannot be read, does not parse or is empty is a usage error (2, not the 3 of CUDA) naming the
 * file, before any run; in every command that takes one. */
static void test_profile_errors(void **state)
{
	char dir[] = "/tmp/ss-cli-profile-XXXXXX", bad[160], empty[160];

	(void)state;
	assert_non_null(mkdtemp(dir));
	put_file(dir, "bad.profile", "copy.h2d.bw_gbs = 55\nno.such.key = 1\n", bad, sizeof bad);
	put_file(dir, "empty.profile", "# nothing here\n", empty, sizeof empty);
	expect_error(2, ARGS("run", "--backend", "model", "--profile", bad), bad, ":2: unknown key 'no.such.key'",
	             NULL);
	expect_error(2, ARGS("run", "--backend", "model", "--profile", "/dev/null"), "/dev/null", "empty", NULL);
	expect_error(2, ARGS("run", "--profile", empty), empty, "empty", NULL);
	expect_error(2, ARGS("run", "--profile", "/no/such.profile"), "/no/such.profile", "No such file", NULL);
	expect_error(2, ARGS("sweep", "--backend", "model", "--profile", bad), "unknown key", NULL);
	expect_error(2, ARGS("validate", "--backend", "model", "--profile", "/dev/null"), "/dev/null", "empty", NULL);
	expect_error(2, ARGS("calibrate", "--backend", "model", "--profile", empty), "empty", NULL);
	unlink(bad);
	unlink(empty);
	assert_int_equal(rmdir(dir), 0);
}

static void test_streams_range(void **state)
{
	(void)state;
	expect_error(2, ARGS("run", "--streams", "0"), "--streams", "'0'", "1..128", NULL);
	expect_error(2, ARGS("run", "--streams", "100000"), "'100000'", "1..128", NULL);
	expect_error(2, ARGS("run", "--streams", "129"), "1..128", NULL);
	expect_error(2, ARGS("run", "--streams", "-3"), "1..128", NULL);
	expect_error(2, ARGS("run", "--streams", "eight"), "1..128", NULL);
	expect_error(2, ARGS("ops", "--streams", "0"), "1..128", NULL);
	expect_error(2, ARGS("sweep", "--streams", "0,4"), "1..128", NULL);
	expect_error(2, ARGS("sweep", "--streams", "1,2,100000"), "1..128", NULL);
	expect_error(2, ARGS("sweep", "--streams", "4,2"), "ascending", NULL);
}

static void test_enum_values(void **state)
{
	(void)state;
	expect_error(2, ARGS("run", "--order", "sideways"), "'sideways'", "depth|breadth", NULL);
	expect_error(2, ARGS("run", "--sync", "sometimes"), "'sometimes'", "stream|reverse|device|events", NULL);
	expect_error(2, ARGS("run", "--host-mem", "swap"), "'swap'", "pinned|pageable|managed-attach|managed-prefetch",
	             NULL);
	expect_error(2, ARGS("run", "--default-stream", "maybe"), "none|legacy-op|event-timer|per-thread", NULL);
	expect_error(2, ARGS("run", "--preset", "nope"),
	             "kernel-transfer|decrypt|hyperq|default-stream|sync-order|managed|pageable", NULL);
	expect_error(2, ARGS("ops", "--stream-flags", "sticky"), "blocking|nonblocking", NULL);
	expect_error(2, ARGS("run", "--prefetch-events=maybe"), "'maybe'", "auto|on|off", NULL);
	expect_error(2, ARGS("run", "--backend", "gpu"), "'gpu'", "auto|cuda|model", NULL);
	/* `run` takes no "both" */
	expect_error(2, ARGS("run", "--order", "both"), "depth|breadth", NULL);
}

/* sweep's --order also takes "both": its error is still one line, and names all three. */
static void test_sweep_order_one_line(void **state)
{
	(void)state;
	expect_error(2, ARGS("sweep", "--order", "sideways"), "'sideways'", "depth", "breadth", "both", NULL);
}

static void test_other_ranges(void **state)
{
	struct cli_out o;

	(void)state;
	expect_error(2, ARGS("run", "--connections", "33"), "--connections", "'33'", "1..32", NULL);
	expect_error(2, ARGS("run", "--connections", "0"), "1..32", NULL);
	expect_error(2, ARGS("run", "--streams", "8", "--threads", "3"), "--threads", "1, the stream count (8)",
	             "per-stream", NULL);
	expect_error(2, ARGS("run", "--threads", "all"),
	             "invalid --threads 'all': valid is 1, the stream count or per-stream", NULL);
	run_cli(&o, ARGS("ops", "--streams", "6", "--threads", "per-stream"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "6 threads"));
	cli_out_free(&o);
	expect_error(2, ARGS("run", "--repeat", "0"), "--repeat", "1..1000", NULL);
	expect_error(2, ARGS("run", "--warmup", "101"), "--warmup", "0..100", NULL);
	expect_error(2, ARGS("run", "--chunks", "-1"), "--chunks", NULL);
	expect_error(2, ARGS("run", "--elements", "1T"), "--elements", "k, M or G", NULL);
	expect_error(2, ARGS("run", "--elements", "0"), "--elements", NULL);
	/* negative values with a suffix: one line, no undefined shift (UBSan in the sanitizer build) */
	expect_error(2, ARGS("run", "--elements", "-1k"), "--elements", "'-1k'", NULL);
	expect_error(2, ARGS("run", "--work", "-1M"), "--work", "'-1M'", NULL);
	expect_error(2, ARGS("ops", "--elements", "-3G"), "--elements", "'-3G'", NULL);
}

/* On a machine without a GPU (or a build without CUDA), forcing the CUDA backend is a one-line exit 3. */
static void test_cuda_unavailable(void **state)
{
	(void)state;
	expect_error(3, ARGS("run", "--backend", "cuda"), "cuda", NULL);
	expect_error(3, ARGS("sweep", "--backend", "cuda", "--streams", "1,2"), "cuda", NULL);
	/* usage errors are found before the backend */
	expect_error(2, ARGS("run", "--backend", "cuda", "--streams", "0"), "1..128", NULL);
}

static yajl_val parse_json(const struct cli_out *o);

/* Every option a command takes does something there; any other is refused in one line naming the option and
 * the command (exit 2), before any work: nothing is run, nothing written. */
/* The examples under examples/ and the preset (with its options) each must give. */
static const struct {
	const char *file;
	const char *const *args; /* the same experiment as options */
} cli_examples[] = {
    {"kernel-transfer.ini", ARGS("--preset", "kernel-transfer")},
    {"decrypt.ini", ARGS("--preset", "decrypt")},
    {"hyperq.ini", ARGS("--preset", "hyperq")},
    {"default-stream.ini", ARGS("--preset", "default-stream")},
    {"sync-order.ini", ARGS("--preset", "sync-order")},
    {"managed.ini", ARGS("--preset", "managed")},
    {"pageable.ini", ARGS("--preset", "pageable")},
    {"vector-add.ini", ARGS("--preset", "vector-add")},
    {"vector-add-weaker.ini", ARGS("--preset", "vector-add", "--order", "weaker")},
    {"managed-threads.ini", ARGS("--preset", "managed-threads")},
};

/* squash turns every run of blanks and line ends in s into one blank, in place: help text as it reads, unwrapped. */
static void squash(char *s)
{
	char *w = s;

	for (const char *r = s; *r != '\0'; r++)
		if (!isspace((unsigned char)*r))
			*w++ = *r;
		else if (w == s || w[-1] != ' ')
			*w++ = ' ';
	*w = '\0';
}

/* run_cmd runs streamscope cmd, then the words of pre, then those of post (each NULL-terminated; NULL: none). */
static void run_cmd(struct cli_out *o, const char *cmd, const char *const *pre, const char *const *post)
{
	const char *args[32];
	size_t n = 0;

	args[n++] = cmd;
	for (size_t i = 0; pre != NULL && pre[i] != NULL; i++)
		args[n++] = pre[i];
	for (size_t i = 0; post != NULL && post[i] != NULL; i++)
		args[n++] = post[i];
	args[n] = NULL;
	run_cli(o, args);
}

/* expect_same_stdout runs both command lines (cmd, then the words of a or b, then those of after) and expects
 * exit 0 and the same stdout. */
static void expect_same_stdout(const char *cmd, const char *const *a, const char *const *b, const char *const *after)
{
	const char *both[32];
	struct cli_out x, y;
	size_t n = 0;

	for (size_t i = 0; a[i] != NULL; i++)
		both[n++] = a[i];
	for (size_t i = 0; after != NULL && after[i] != NULL; i++)
		both[n++] = after[i];
	both[n] = NULL;
	run_cmd(&x, cmd, both, NULL);
	run_cmd(&y, cmd, b, after);
	if (x.status != 0 || y.status != 0)
		fail_msg("%s %s: exit %d (%s), %s: exit %d (%s)", cmd, a[0], x.status, x.err, b[0], y.status, y.err);
	if (strcmp(x.out, y.out) != 0)
		fail_msg("%s %s %s and %s %s differ:\n%s\n---\n%s", cmd, a[0], a[1] ? a[1] : "", b[0], b[1] ? b[1] : "",
		         x.out, y.out);
	cli_out_free(&x);
	cli_out_free(&y);
}

/* Experiment files: each example plans exactly its preset's op list; the command line's options change the file's
 * values wherever they are written, and a --preset with a file is refused; `run|sweep|ops|advise FILE` is
 * --experiment FILE; bad files get one line each naming the file and line, exit 2, nothing run; every command that
 * runs an experiment lists --experiment in its help. */
static void test_experiment_files(void **state)
{
	char dir[] = "/tmp/ss-cli-exp-XXXXXX", path[4096], bad[8][160], decrypt[4096], header[160];
	const char *const *helps[] = {ARGS("--help"), ARGS("run", "--help"), ARGS("sweep", "--help"),
	                              ARGS("ops", "--help"), ARGS("stats", "--help")};
	struct cli_out o;

	(void)state;
	for (size_t i = 0; i < sizeof cli_examples / sizeof cli_examples[0]; i++) {
		snprintf(path, sizeof path, "%s/examples/%s", SS_SOURCE_DIR, cli_examples[i].file);
		expect_same_stdout("ops", ARGS("--experiment", path), cli_examples[i].args, NULL);
		expect_same_stdout("ops", ARGS("--experiment", path), cli_examples[i].args, ARGS("--json"));
		/* at another stream count too: managed-threads.ini's threads = per-stream is its preset's thread a
		 * stream */
		expect_same_stdout("ops", ARGS("--experiment", path), cli_examples[i].args, ARGS("--streams", "8"));
		expect_same_stdout("ops", ARGS(path), cli_examples[i].args, ARGS("--streams", "2", "--json"));
	}
	snprintf(path, sizeof path, "%s/examples/managed-threads.ini", SS_SOURCE_DIR);
	run_cli(&o, ARGS("run", path, "--streams", "8", "--backend", "model", "--json"));
	if (o.status != 0)
		fail_msg("run managed-threads.ini --streams 8: exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.out, "\"threads\": 8"));
	cli_out_free(&o);
	snprintf(decrypt, sizeof decrypt, "%s/examples/decrypt.ini", SS_SOURCE_DIR);
	/* the option wins over the file, written after it or before it, for FILE and --experiment FILE alike */
	expect_same_stdout("ops", ARGS("--experiment", decrypt, "--streams", "4", "--chunks", "6"),
	                   ARGS("--preset", "decrypt", "--streams", "4", "--chunks", "6"), NULL);
	expect_same_stdout("ops", ARGS("--streams", "4", "--experiment", decrypt, "--chunks", "6"),
	                   ARGS("--preset", "decrypt", "--streams", "4", "--chunks", "6"), NULL);
	expect_same_stdout("ops", ARGS("--streams", "4", decrypt), ARGS("--preset", "decrypt", "--streams", "4"), NULL);
	snprintf(path, sizeof path, "%s/examples/kernel-transfer.ini", SS_SOURCE_DIR);
	expect_same_stdout("ops", ARGS("--streams", "32", path), ARGS("--preset", "kernel-transfer", "--streams", "32"),
	                   NULL);
	run_cli(&o, ARGS("ops", "--streams", "32", path));
	assert_non_null(strstr(o.out, "# kernel-transfer  32 streams"));
	cli_out_free(&o);
	/* a --preset with a file, before or after it: refused, one line, nothing run */
	expect_error(2, ARGS("run", path, "--preset", "decrypt", "--backend", "model"),
	             "--preset decrypt with the experiment file ",
	             "kernel-transfer.ini: the file's preset key is the base",
	             "write preset = decrypt in the file, or give --preset decrypt without the file", NULL);
	expect_error(2, ARGS("ops", "--preset", "hyperq", "--experiment", decrypt),
	             "--preset hyperq with the "
	             "experiment file",
	             NULL);
	expect_error(2, ARGS("sweep", decrypt, "--preset", "hyperq", "--backend", "model"), "--preset hyperq with",
	             NULL);

	assert_non_null(mkdtemp(dir));
	put_file(dir, "key.ini", "; a typo\n[experiment]\nstream = 8\n", bad[0], sizeof bad[0]);
	put_file(dir, "value.ini", "[experiment]\n\nelements = 4T\n", bad[1], sizeof bad[1]);
	put_file(dir, "twice.ini", "[experiment]\nstreams = 8\nstreams = 4\n", bad[2], sizeof bad[2]);
	put_file(dir, "section.ini", "[experimnt]\nstreams = 8\n", bad[3], sizeof bad[3]);
	put_file(dir, "syntax.ini", "[experiment]\nstreams 8\n", bad[4], sizeof bad[4]);
	put_file(dir, "empty.ini", "", bad[5], sizeof bad[5]);
	put_file(dir, "threads.ini", "[experiment]\nstreams = 8\nthreads = 3\n", bad[6], sizeof bad[6]);
	put_file(dir, "ok.ini", "[experiment]\nstreams = 4\nthreads = 4\n", bad[7], sizeof bad[7]);
	/* a key after the header would be dropped unread: refused, nothing run */
	put_file(dir, "header.ini", "[experiment] streams = 4\nwork = 10\n", header, sizeof header);
	expect_error(
	    2, ARGS("run", header, "--backend", "model"), header,
	    ":1: text 'streams = 4' after the section header '[experiment]': put each key on a line of its own", NULL);
	unlink(header);
	expect_error(2, ARGS("run", bad[0]), bad[0], ":3: unknown key 'stream': valid keys are preset, streams,", NULL);
	expect_error(2, ARGS("ops", "--experiment", bad[1]), ":3: invalid --elements '4T': valid is an integer", NULL);
	expect_error(2, ARGS("sweep", "--experiment", bad[2]), ":3: key 'streams' is given twice (first on line 2)",
	             NULL);
	expect_error(2, ARGS("stats", "--experiment", bad[3]),
	             ":1: unknown section '[experimnt]': valid is "
	             "[experiment]",
	             NULL);
	expect_error(2, ARGS("run", bad[4]), ":2: syntax error", NULL);
	expect_error(2, ARGS("run", bad[5]), bad[5], "no [experiment] section", NULL);
	expect_error(2, ARGS("run", bad[6]), ":3: invalid --threads 3: valid is 1, the stream count (8) or per-stream",
	             NULL);
	/* the file's threads with the command line's streams: the rule holds for what they make together */
	expect_error(2, ARGS("run", bad[7], "--streams", "8"), ":3: invalid --threads 4", NULL);
	expect_error(2, ARGS("run", "/no/such.ini"), "cannot read experiment file '/no/such.ini': No such file", NULL);
	expect_error(2, ARGS("run", bad[7], "--experiment", bad[0]), "the experiment is given twice", NULL);
	/* run, sweep, ops and advise take the file as their argument too, as --experiment FILE */
	expect_same_stdout("ops", ARGS(decrypt, "--streams", "4"), ARGS("--experiment", decrypt, "--streams", "4"),
	                   NULL);
	expect_same_stdout("sweep", ARGS(decrypt, "--streams", "1,2", "--backend", "model"),
	                   ARGS("--experiment", decrypt, "--streams", "1,2", "--backend", "model"), NULL);
	expect_same_stdout("advise", ARGS(decrypt, "--streams", "4"), ARGS("--experiment", decrypt, "--streams", "4"),
	                   NULL);
	expect_error(2, ARGS("ops", bad[7], bad[7]), "unexpected argument", NULL);
	expect_error(2, ARGS("sweep", bad[7], "--experiment", bad[0]), "the experiment is given twice", NULL);
	expect_error(2, ARGS("advise", bad[0]), ":3: unknown key 'stream'", NULL);
	expect_error(2, ARGS("claims", bad[7]), "unexpected argument", NULL);
	expect_error(2, ARGS("view", "t.json", "--experiment", bad[7]), "'--experiment'", "'view'", NULL);
	expect_error(2, ARGS("bench", "--experiment", bad[7]), "'--experiment'", "'bench'", NULL);
	for (size_t i = 0; i < 8; i++)
		unlink(bad[i]);
	assert_int_equal(rmdir(dir), 0);

	for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
		run_cli(&o, helps[i]);
		assert_int_equal(o.status, 0);
		if (strstr(o.out, "--experiment FILE") == NULL)
			fail_msg("%s %s lacks --experiment FILE", helps[i][0], helps[i][1] ? helps[i][1] : "");
		/* one rule for options and the file, the binary's, however the help wraps it */
		squash(o.out);
		if (strstr(o.out, "before every option") != NULL || strstr(o.out, "options after it") != NULL ||
		    strstr(o.out, "the other options change it, before or after it") == NULL ||
		    (i + 1 < sizeof helps / sizeof helps[0] &&
		     strstr(o.out, "FILE is an experiment file, as --experiment FILE: the options change its values, "
		                   "written before or after it (") == NULL))
			fail_msg("%s %s: the help says another rule for options and the file:\n%s", helps[i][0],
			         helps[i][1] ? helps[i][1] : "", o.out);
		cli_out_free(&o);
	}
	run_cli(&o, ARGS("run", "--help"));
	assert_true(strncmp(o.out, "usage: streamscope run [OPTIONS] [FILE]\n", 40) == 0);
	cli_out_free(&o);
}

static void test_options_refused(void **state)
{
	static const struct {
		const char *args[6];
		const char *opt, *cmd;
	} refused[] = {
	    {{"run", "--ascii"}, "'--ascii'", "'run'"},
	    {{"run", "--quick"}, "'--quick'", "'run'"},
	    {{"run", "-o", "out.txt"}, "'-o'", "--export"},
	    {{"run", "--output", "out.txt"}, "'-o'", "'run'"},
	    {{"sweep", "--export", "s.json"}, "'--export'", "timeline per point"},
	    {{"sweep", "--ascii"}, "'--ascii'", "'sweep'"},
	    {{"sweep", "--quick"}, "'--quick'", "'sweep'"},
	    {{"sweep", "-o", "x"}, "'-o'", "'sweep'"},
	    {{"ops", "--export", "o.json"}, "'--export'", "'ops'"},
	    {{"ops", "--repeat", "5"}, "'--repeat'", "'ops'"},
	    {{"ops", "--warmup", "2"}, "'--warmup'", "'ops'"},
	    {{"ops", "--backend", "model"}, "'--backend'", "'ops'"},
	    {{"ops", "--profile", "p.profile"}, "'--profile'", "'ops'"},
	    {{"ops", "--ascii"}, "'--ascii'", "'ops'"},
	    {{"ops", "--quick"}, "'--quick'", "'ops'"},
	    {{"ops", "-o", "x"}, "'-o'", "'ops'"},
	    {{"--json"}, "'--json'", "the TUI"},
	    {{"--streams", "4", "--export", "t.json"}, "'--export'", "the TUI"},
	    {{"--quick"}, "'--quick'", "the TUI"},
	    {{"-o", "x"}, "'-o'", "the TUI"},
	    {{"view", "t.json", "--streams", "4"}, "'--streams'", "'view'"},
	    {{"view", "t.json", "--preset", "hyperq"}, "'--preset'", "'view'"},
	    {{"view", "t.json", "--repeat", "2"}, "'--repeat'", "'view'"},
	    {{"view", "t.json", "--prefetch-events"}, "'--prefetch-events'", "'view'"},
	    {{"view", "t.json", "--backend", "model"}, "'--backend'", "'view'"},
	    {{"view", "t.json", "--profile", "p"}, "'--profile'", "'view'"},
	    {{"view", "t.json", "--json"}, "'--json'", "'view'"},
	    {{"view", "t.json", "--quick"}, "'--quick'", "'view'"},
	    {{"view", "t.json", "-o", "x"}, "'-o'", "'view'"},
	    {{"view", "t.json", "--export", "t.txt", "--ascii"}, "'--ascii'", "'view'"},
	    {{"bench", "--streams", "2"}, "'--streams'", "'bench'"},
	    {{"bench", "--preset", "hyperq"}, "'--preset'", "'bench'"},
	    {{"bench", "--repeat", "2"}, "'--repeat'", "'bench'"},
	    {{"bench", "--prefetch-events=on"}, "'--prefetch-events'", "'bench'"},
	    {{"bench", "--json"}, "'--json'", "'bench'"},
	    {{"bench", "--export", "b.json"}, "'--export'", "'bench'"},
	    {{"bench", "--ascii"}, "'--ascii'", "'bench'"},
	    {{"calibrate", "--profile", "p.profile"}, "'--profile'", "--backend model"},
	    {{"validate", "--check", "v.csv", "--csv", "o.csv"}, "'--csv'", "--check"},
	    {{"validate", "--check", "v.csv", "--quick"}, "'--quick'", "--check"},
	    {{"validate", "--check", "v.csv", "--resume"}, "'--resume'", "--check"},
	    {{"validate", "--check", "v.csv", "--backend", "model"}, "'--backend'", "--check"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		expect_error(2, refused[i].args, refused[i].opt, refused[i].cmd, NULL);
	/* bench --reference names presets that have a reference program */
	expect_error(2, ARGS("bench", "--backend", "model", "--reference", "kernel-transfer,bogus"),
	             "invalid --reference 'bogus'", "kernel-transfer, decrypt, vector-add or managed-threads", NULL);
	expect_error(2, ARGS("bench", "--backend", "model", "--reference", "hyperq"), "'hyperq'",
	             "has no reference program", NULL);
	expect_error(2, ARGS("bench", "--backend", "model", "--reference", ","), "invalid --reference ','", NULL);
	/* bench --rounds: 1..31 rounds a reference point */
	expect_error(2, ARGS("bench", "--backend", "model", "--rounds", "0"), "invalid --rounds '0'", "1..31", NULL);
	expect_error(2, ARGS("bench", "--backend", "model", "--rounds", "32"), "invalid --rounds '32'", NULL);
	expect_error(2, ARGS("bench", "--backend", "model", "--rounds", "5x"), "invalid --rounds '5x'", NULL);
	/* bench --order: one issue order of the comparison, one each preset --reference names has */
	expect_error(2, ARGS("bench", "--backend", "model", "--reference", "decrypt,vector-add", "--order", "breadth"),
	             "invalid --order 'breadth' for --reference vector-add", "valid is best|weaker", NULL);
	expect_error(2, ARGS("bench", "--backend", "model", "--reference", "managed-threads", "--order", "weaker"),
	             "invalid --order 'weaker' for --reference managed-threads", "valid is depth", NULL);
	expect_error(2, ARGS("bench", "--backend", "model", "--order", "both"), "invalid --order 'both'",
	             "depth|breadth|best|weaker", NULL);
	expect_error(2, ARGS("validate", "--preset", "managed,bogus"), "invalid --preset 'bogus'", NULL);
}

/* ops --json: the op list as JSON, one object per op in issue order, the same ops as the text. */
static void test_ops_json(void **state)
{
	struct cli_out o;
	yajl_val j, ops, op;
	size_t kernels = 0, i;

	(void)state;
	run_cli(&o, ARGS("ops", "--json", "--streams", "3", "--elements", "10", "--chunks", "4", "--sync", "reverse"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_int_equal(o.nerr, 0);
	j = parse_json(&o);
	assert_int_equal(json_tree_int(json_tree_get(j, "operations")), 19);
	assert_int_equal(json_tree_int(json_tree_get(j, "chunks")), 4);
	assert_int_equal(json_tree_int(json_tree_get(json_tree_get(j, "experiment"), "streams")), 3);
	ops = json_tree_get(j, "ops");
	assert_int_equal(json_tree_len(ops), 19);
	json_tree_foreach(ops, i, op)
	{
		assert_int_equal(json_tree_int(json_tree_get(op, "id")), (long long)i + 1);
		kernels += strcmp(json_tree_str(json_tree_get(op, "kind")), "kernel launch") == 0;
	}
	assert_int_equal(kernels, 4);
	op = json_tree_at(ops, 0);
	assert_string_equal(json_tree_str(json_tree_get(op, "kind")), "cudaMemcpyAsync H2D");
	assert_string_equal(json_tree_str(json_tree_get(op, "buffer")), "x");
	assert_int_equal(json_tree_int(json_tree_get(op, "stream")), 0);
	assert_int_equal(json_tree_int(json_tree_get(op, "offset")), 0);
	assert_int_equal(json_tree_int(json_tree_get(op, "count")), 3);
	assert_int_equal(json_tree_int(json_tree_get(op, "bytes")), 12);
	assert_true(json_tree_is_null(json_tree_get(op, "event")));
	op = json_tree_at(ops, 18);
	assert_string_equal(json_tree_str(json_tree_get(op, "text")), "#19 t0 s0         cudaStreamSynchronize");
	assert_true(json_tree_is_null(json_tree_get(op, "chunk")));
	json_tree_free(j);
	cli_out_free(&o);
}

/* The op list needs no backend. */
static void test_ops(void **state)
{
	struct cli_out o;
	char want[32];

	(void)state;
	run_cli(&o, ARGS("ops", "--preset", "hyperq"));
	assert_int_equal(o.status, 0);
	assert_int_equal(o.nerr, 0);
	assert_int_equal(count_substr(o.out, "kernel launch"), 64); /* 32 streams x 2 kernels */
	for (int s = 0; s < 32; s++) {
		char *copy = strdup(o.out), *save = NULL;
		size_t k = 0;

		snprintf(want, sizeof want, " s%d ", s);
		for (char *line = strtok_r(copy, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save))
			if (strstr(line, want) != NULL && strstr(line, "kernel launch") != NULL)
				k++;
		free(copy);
		if (k != 2)
			fail_msg("stream %d has %zu kernel launches, want 2", s, k);
	}
	cli_out_free(&o);

	/* kernel-transfer, 8 streams, as document 001 times it: start event and cudaEventQuery(start), x, y in,
	 * add<<<4096, 128>>>, z out per stream, stop event and the wait for it = 36 ops */
	run_cli(&o, ARGS("ops"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "# 36 operations, 8 chunks, 2 events\n"));
	assert_non_null(strstr(o.out, "\n#2  t0 host       cudaEventQuery(ev0)\n")); /* ids padded to #36's width */
	assert_int_equal(count_substr(o.out, "cudaMemcpyAsync H2D"), 16);
	assert_int_equal(count_substr(o.out, "cudaMemcpyAsync D2H"), 8);
	assert_int_equal(count_substr(o.out, "kernel launch add<<<4096, 128>>>"), 8);
	assert_int_equal(count_substr(o.out, "legacy     cudaEventRecord"), 2);
	assert_int_equal(count_substr(o.out, "legacy     cudaEventSynchronize(ev1)"), 1);
	assert_int_equal(count_substr(o.out, "cudaStreamSynchronize"), 0);
	assert_int_equal(count_lines(o.out), 38);
	assert_null(strstr(o.out, "# not as the document"));
	cli_out_free(&o);
	/* document 004's run_task: its set-up and cudaStreamDestroy, not in the list, said */
	run_cli(&o, ARGS("ops", "--preset", "managed-threads"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out,
	                       "\n# not as the document: document 004's run_task also makes its stream "
	                       "(cudaStreamCreate) and data (cudaMallocManaged, cudaMemAttachHost) before these "
	                       "calls, here before the run (the data afresh each run), and calls "
	                       "cudaStreamDestroy between its last cudaStreamSynchronize and cudaFree, not issued "
	                       "here: the streams are made once\n#1 "));
	cli_out_free(&o);
	/* 20 streams, which do not divide 2^22: the one place the preset departs from document 001, said */
	run_cli(&o, ARGS("ops", "--streams", "20"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "\n# not as the document: document 001 gives each of 20 streams N / 20 = 209715 "
	                              "elements and leaves the last 4 unprocessed; here the 20 chunks (--split ceil: "
	                              "209716, the last 209700) cover all 4194304\n"));
	cli_out_free(&o);

	/* options reach the planner: 3 streams, 10 elements in 4 chunks, breadth, reverse sync */
	run_cli(&o, ARGS("ops", "--streams", "3", "--elements", "10", "--chunks", "4", "--order", "breadth", "--sync",
	                 "reverse"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "# 19 operations, 4 chunks, 0 events\n"));
	assert_non_null(strstr(o.out, "x[9+1]"));
	assert_non_null(strstr(o.out, "\n#1  t0 s0         cudaMemcpyAsync H2D x[0+3] 12 B\n")); /* as wide as #19 */
	assert_non_null(strstr(o.out, "#17 t0 s2         cudaStreamSynchronize\n"));
	assert_non_null(strstr(o.out, "#19 t0 s0         cudaStreamSynchronize\n"));
	cli_out_free(&o);

	/* suffixes are powers of two; --preset applies before other options wherever it is */
	run_cli(&o, ARGS("ops", "--elements", "1k", "--streams", "2", "--preset", "decrypt"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "x[512+512]"));
	assert_non_null(strstr(o.out, "# decrypt  2 streams"));
	/* document 000's kernel by its name in the document */
	assert_non_null(strstr(o.out, "#2 t0 s0         kernel launch decrypt_gpu<<<2560, 64>>> [0+512]\n"));
	cli_out_free(&o);
}

/* --- model backend --- */

static yajl_val parse_json(const struct cli_out *o)
{
	char err[256];
	yajl_val j = json_tree_parse(o->out, err, sizeof err);

	if (j == NULL)
		fail_msg("stdout is not JSON (%s): %s", err, o->out);
	return j;
}

static double num(yajl_val o, const char *key)
{
	yajl_val v = json_tree_get(o, key);

	if (!json_tree_is_int(v) && !json_tree_is_real(v))
		fail_msg("'%s' is not a number", key);
	return json_tree_num(v);
}

/* An optional value given as the next word: --prefetch-events off is --prefetch-events=off, --peer on is --peer=on;
 * bare, they mean on; a next word that is not one of their values stays an argument of its own. */
static void test_optional_value_word(void **state)
{
	const struct {
		const char *const *args;
		const char *key, *want;
	} cases[] = {
	    {ARGS("run", "--backend", "model", "--preset", "managed", "--streams", "2", "--prefetch-events", "off",
	          "--json"),
	     "prefetch_events", "off"},
	    {ARGS("run", "--backend", "model", "--preset", "managed", "--streams", "2", "--prefetch-events", "--json"),
	     "prefetch_events", "on"},
	    {ARGS("run", "--backend", "model", "--streams", "2", "--devices", "2", "--peer", "on", "--json"), "peer",
	     "true"},
	};
	struct cli_out o;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		yajl_val j, v;

		run_cli(&o, cases[i].args);
		if (o.status != 0)
			fail_msg("case %zu: exit %d: %s", i, o.status, o.err);
		j = parse_json(&o);
		v = json_tree_get(json_tree_get(j, "experiment"), cases[i].key);
		if (strcmp(cases[i].want, "true") == 0)
			assert_true(json_tree_is_true(v));
		else
			assert_string_equal(json_tree_str(v), cases[i].want);
		json_tree_free(j);
		cli_out_free(&o);
	}
	/* not a value of --prefetch-events: the experiment file argument, which does not exist */
	expect_error(2, ARGS("run", "--backend", "model", "--prefetch-events", "nosuch.ini"), "nosuch.ini", NULL);
}

/* A sweep's header names the stream counts it runs (the one-stream run included), not the base's count; the last
 * --order wins, both or one. */
static void test_sweep_header_and_order(void **state)
{
	struct cli_out o;

	(void)state;
	run_cli(&o, ARGS("sweep", "--backend", "model", "--streams", "4,8", "--order", "both", "--order", "breadth"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "kernel-transfer  streams 1,4,8  breadth-first"));
	assert_true(strstr(o.out, "8 streams") == NULL || strstr(o.out, "8 streams") > strchr(o.out, '\n'));
	assert_null(strstr(o.out, "| depth"));
	assert_non_null(strstr(o.out, "| breadth"));
	cli_out_free(&o);
	/* both: depth and breadth; document 003's best and weaker; an experiment file's interleave against depth */
	for (size_t k = 0; k < 3; k++) {
		static const struct {
			const char *what, *head, *col[2], *absent;
		} both[] = {
		    {"--order=breadth",
		     "kernel-transfer  streams 1,2  depth- and breadth-first  sync",
		     {"| depth", "| breadth"},
		     "| best"},
		    {"--preset=vector-add",
		     "vector-add  streams 1,2  best- and weaker-first  sync",
		     {"| best", "| weaker"},
		     "| depth"},
		    {NULL, "streams 1,2  interleaved and depth-first  sync", {"| interleave", "| depth"}, "| breadth"},
		};
		char path[512];

		snprintf(path, sizeof path, "%s/examples/interleave.ini", SS_SOURCE_DIR);
		run_cli(&o, ARGS("sweep", both[k].what != NULL ? both[k].what : path, "--backend", "model", "--streams",
		                 "2", "--order", "both"));
		assert_int_equal(o.status, 0);
		assert_non_null(strstr(o.out, both[k].head));
		assert_non_null(strstr(o.out, both[k].col[0]));
		assert_non_null(strstr(o.out, both[k].col[1]));
		assert_null(strstr(o.out, both[k].absent));
		cli_out_free(&o);
	}
}

/* sweep FILE: the file's one stream count is the experiment's, the sweep's counts its own; a list in the file is
 * the sweep's (run refuses it), and --streams wins over it; a bad list or count in the file is refused at its
 * line */
static void test_sweep_file_counts(void **state)
{
	char ex[4096], dir[] = "/tmp/ss-cli-sweep-XXXXXX", list[160];
	struct cli_out o;

	(void)state;
	snprintf(ex, sizeof ex, "%s/examples/pipeline.ini", SS_SOURCE_DIR);
	run_cli(&o, ARGS("sweep", ex, "--backend", "model"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "kernel-transfer  streams 1,2,4,8,16,32,64,128 16 chunks"));
	assert_non_null(strstr(o.out, "\n    128 |"));
	cli_out_free(&o);
	assert_non_null(mkdtemp(dir));
	put_file(dir, "list.ini", "[experiment]\npreset = kernel-transfer\nstreams = 1,4,16\n", list, sizeof list);
	run_cli(&o, ARGS("sweep", list, "--backend", "model"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "kernel-transfer  streams 1,4,16  depth-first"));
	assert_null(strstr(o.out, "\n      8 |"));
	cli_out_free(&o);
	run_cli(&o, ARGS("sweep", list, "--backend", "model", "--streams", "2,8"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "kernel-transfer  streams 1,2,8  depth-first"));
	cli_out_free(&o);
	run_cli(&o, ARGS("sweep", "--streams", "2,8", "--backend", "model", "--experiment", list));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "kernel-transfer  streams 1,2,8  depth-first"));
	cli_out_free(&o);
	expect_error(2, ARGS("run", list, "--backend", "model"), "list.ini:3: invalid --streams '1,4,16'",
	             "a list of counts is for 'streamscope sweep'", NULL);
	expect_error(2, ARGS("run", "--streams", "2,4"), "a list of counts is for 'streamscope sweep'", NULL);
	unlink(list);
	/* a bad list, or one bad count, in the file: its file and line, exit 2, nothing run; a bad --streams list on
	 * the command line has none */
	put_file(dir, "badlist.ini", "[experiment]\npreset = kernel-transfer\nstreams = 1,4,x\n", list, sizeof list);
	expect_error(2, ARGS("sweep", list, "--backend", "model"),
	             "badlist.ini:3: invalid stream list '1,4,x': valid is comma-separated counts 1..128", NULL);
	expect_error(2, ARGS("sweep", "--backend", "model", "--experiment", list, "--streams", "2,8"),
	             "badlist.ini:3: invalid stream list '1,4,x'", NULL);
	unlink(list);
	put_file(dir, "badcount.ini", "[experiment]\n\nstreams = 0\n", list, sizeof list);
	expect_error(2, ARGS("sweep", list, "--backend", "model"),
	             "badcount.ini:3: invalid stream list '0': valid is comma-separated counts 1..128", NULL);
	unlink(list);
	expect_error(2, ARGS("sweep", "--backend", "model", "--streams", "4,2"),
	             "streamscope: invalid stream list '4,2': 2 after 4, the counts must be ascending", NULL);
	assert_int_equal(rmdir(dir), 0);
}

static void test_run_model_json(void **state)
{
	struct cli_out o;
	yajl_val j, exp, cnt, expd, eng;

	(void)state;
	run_cli(&o, ARGS("run", "--backend", "model", "--json"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	j = parse_json(&o);
	assert_true(json_tree_is_true(json_tree_get(j, "modelled")));
	assert_string_equal(json_tree_str(json_tree_get(j, "backend")), "model");
	assert_true(json_tree_is_int(json_tree_get(j, "makespan_ns")));
	assert_true(num(j, "makespan_ns") > 0);
	assert_true(num(j, "used_makespan_ns") > 0);
	assert_true(json_tree_is_null(json_tree_get(j, "untraced_cupti"))); /* no untraced twin on the model */
	assert_true(num(j, "speedup") > 0);
	assert_true(num(j, "bound_ns") > 0);
	assert_true(num(j, "overlap") >= 0 && num(j, "overlap") <= 1);
	exp = json_tree_get(j, "experiment");
	assert_string_equal(json_tree_str(json_tree_get(exp, "preset")), "kernel-transfer");
	assert_int_equal(json_tree_int(json_tree_get(exp, "streams")), 8);
	assert_int_equal(json_tree_int(json_tree_get(exp, "elements")), 4194304);
	assert_int_equal(json_tree_int(json_tree_get(exp, "work")), 400);
	/* every op issued appears once: 16 H2D, 8 kernels, 8 D2H */
	expd = json_tree_get(j, "expected");
	cnt = json_tree_get(j, "counts");
	assert_int_equal(json_tree_int(json_tree_get(expd, "H2D")), 16);
	assert_int_equal(json_tree_int(json_tree_get(expd, "KER")), 8);
	assert_int_equal(json_tree_int(json_tree_get(expd, "D2H")), 8);
	assert_int_equal(json_tree_int(json_tree_get(cnt, "H2D")), 16);
	assert_int_equal(json_tree_int(json_tree_get(cnt, "KER")), 8);
	assert_int_equal(json_tree_int(json_tree_get(cnt, "D2H")), 8);
	eng = json_tree_get(j, "engines");
	assert_true(num(json_tree_get(eng, "H2D"), "busy_ns") > 0);
	assert_true(num(json_tree_get(eng, "compute"), "busy_ns") > 0);
	assert_true(num(json_tree_get(eng, "D2H"), "busy_ns") > 0);
	assert_int_equal(json_tree_int(json_tree_get(json_tree_get(eng, "H2D"), "bytes")),
	                 2 * 4194304 * 4); /* x and y, 2^22 floats each */
	assert_int_equal(json_tree_int(json_tree_get(json_tree_get(eng, "D2H"), "bytes")), 4194304 * 4);
	json_tree_free(j);
	cli_out_free(&o);
}

static void test_run_model_text(void **state)
{
	struct cli_out o;

	(void)state;
	run_cli(&o, ARGS("run", "--backend", "model", "--preset", "hyperq", "--order", "breadth"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.out, "MODELLED"));
	assert_non_null(strstr(o.out, "hyperq"));
	assert_non_null(strstr(o.out, "breadth-first"));
	assert_non_null(strstr(o.out, "makespan"));
	assert_non_null(strstr(o.out, "KER 64/64"));
	cli_out_free(&o);
	/* document 004's tasks are mostly host work: no pipeline bound, and the line says why; the sweep's gap is "-"
	 */
	run_cli(&o, ARGS("run", "--backend", "model", "--preset", "managed-threads"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "ideal pipeline bound    -  (the 1-stream run's copies and kernels fill 2."));
	assert_non_null(strstr(o.out, "its time is not a pipeline of them)"));
	cli_out_free(&o);
	run_cli(&o, ARGS("sweep", "--backend", "model", "--preset", "managed-threads", "--streams", "2"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "x          -       -        -\n"));
	cli_out_free(&o);
}

/* An experiment whose arrays do not fit the modelled GPU's memory is refused in one line, as the GPU would refuse
 * it: what it needs, what the profile's device has and the largest --elements that fits; nothing is exported. */
static void test_run_device_memory(void **state)
{
	const char *const want =
	    "the experiment needs 192.00 GiB of device memory (3 arrays of 17179869184 x 4 bytes); "
	    "140.40 GiB of 140.40 GiB are free on the modelled NVIDIA H200 (profile key "
	    "device.memory_mib) (valid: --elements up to 12540532053)";
	char dir[] = "/tmp/ss-cli-devmem-XXXXXX", out[256];
	struct cli_out o;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof out, "%s/t.sqlite", dir);
	expect_error(3, ARGS("run", "--backend", "model", "--elements", "16G", "--export", out), want, NULL);
	assert_int_equal(stat(out, &st), -1);
	expect_error(3, ARGS("sweep", "--backend", "model", "--elements", "16G"), want, NULL);
	expect_error(2, ARGS("advise", "--elements", "16G"), want, NULL);
	/* one element more than the largest is refused; the largest runs */
	expect_error(3, ARGS("run", "--backend", "model", "--elements", "12540532054"), "up to 12540532053", NULL);
	run_cli(&o, ARGS("run", "--backend", "model", "--elements", "12540532053"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.out, "makespan (model)"));
	cli_out_free(&o);
	assert_int_equal(rmdir(dir), 0);
}

/* An experiment file given where a trace goes (stats, analyze, view, the TUI's FILE without .ini) is named as one,
 * with the command that runs it: one line, exit 2, nothing written; any other file that is no trace is still "of no
 * format streamscope reads", exit 1. */
static void test_expfile_as_trace(void **state)
{
	char ex[1024], dir[] = "/tmp/ss-cli-astrace-XXXXXX", cfg[160], out[256], want[4096];
	const char *const cmds[] = {"stats", "analyze", "view"};
	struct stat st;

	(void)state;
	snprintf(ex, sizeof ex, "%s/examples/pipeline.ini", SS_SOURCE_DIR);
	snprintf(want, sizeof want,
	         "streamscope: %s is an experiment file, not a trace: run it with 'streamscope run %s' (stats, analyze "
	         "and the TUI take it as --experiment %s)",
	         ex, ex, ex);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		expect_error(2, ARGS(cmds[i], ex), want, NULL);
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof out, "%s/t.json", dir);
	expect_error(2, ARGS("view", ex, "--export", out), "is an experiment file, not a trace", NULL);
	expect_error(2, ARGS("stats", ex, "--json"), "is an experiment file, not a trace", NULL);
	assert_int_equal(stat(out, &st), -1);
	/* the name does not matter: the content does */
	put_file(dir, "p.cfg", "[experiment]\nstreams = 4\n", cfg, sizeof cfg);
	expect_error(2, ARGS(cfg), cfg, "is an experiment file, not a trace: run it with 'streamscope run ", NULL);
	unlink(cfg);
	put_file(dir, "p.txt", "[experiment]\nstream = 4\n", cfg, sizeof cfg);
	expect_error(1, ARGS("stats", cfg), cfg, ": unrecognised format (expected streamscope or Nsight Systems SQLite",
	             NULL);
	unlink(cfg);
	assert_int_equal(rmdir(dir), 0);
}

/* Every example runs on the model as its preset does: `run FILE` exits 0 with the same JSON (the model is
 * deterministic), and an option after the file changes it. */
static void test_run_examples(void **state)
{
	char path[4096];
	struct cli_out o;
	yajl_val j;

	(void)state;
	for (size_t i = 0; i < sizeof cli_examples / sizeof cli_examples[0]; i++) {
		snprintf(path, sizeof path, "%s/examples/%s", SS_SOURCE_DIR, cli_examples[i].file);
		expect_same_stdout("run", ARGS(path), cli_examples[i].args, ARGS("--backend", "model", "--json"));
	}
	snprintf(path, sizeof path, "%s/examples/decrypt.ini", SS_SOURCE_DIR);
	run_cli(&o, ARGS("run", path, "--backend", "model", "--streams", "4", "--json"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	j = parse_json(&o);
	assert_string_equal(json_tree_str(json_tree_get(json_tree_get(j, "experiment"), "preset")), "decrypt");
	assert_int_equal(json_tree_int(json_tree_get(json_tree_get(j, "experiment"), "streams")), 4);
	json_tree_free(j);
	cli_out_free(&o);
}

/* The example step programs ([chunk]) through the binary: `run FILE` on the model exits 0 with a result labelled
 * modelled, its op list (ops) lists the steps and their calls, --order changes it, a bad step is one line. */
static void test_run_programs(void **state)
{
	static const char *const files[] = {"pipeline.ini", "interleave.ini", "host-work.ini"};
	static const char *const calls[] = {"cudaMemsetAsync z[", "kernel launch fma<<<", "host_process x["};
	char path[4096], bad[4096], name[64], want[160];
	struct cli_out o;

	(void)state;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/examples/%s", SS_SOURCE_DIR, files[i]);
		run_cli(&o, ARGS("run", path, "--backend", "model"));
		if (o.status != 0)
			fail_msg("%s: exit %d: %s", files[i], o.status, o.err);
		assert_non_null(strstr(o.out, "program of "));
		assert_non_null(strstr(o.out, "(MODELLED)"));
		assert_null(strstr(o.out, "the documents' claims")); /* a program is none of the documents' */
		cli_out_free(&o);
		run_cli(&o, ARGS("ops", "--experiment", path));
		if (o.status != 0)
			fail_msg("%s: ops exit %d: %s", files[i], o.status, o.err);
		assert_non_null(strstr(o.out, "# step 1: h2d x"));
		if (strstr(o.out, calls[i]) == NULL)
			fail_msg("%s: ops lists no '%s':\n%s", files[i], calls[i], o.out);
		cli_out_free(&o);
	}
	snprintf(path, sizeof path, "%s/examples/interleave.ini", SS_SOURCE_DIR);
	run_cli(&o, ARGS("ops", "--experiment", path));
	assert_non_null(strstr(o.out, "  interleaved  "));
	assert_non_null(strstr(o.out, "# interleave (in use): 1 2 3@c-1 4@c-2"));
	cli_out_free(&o);
	run_cli(&o, ARGS("ops", "--experiment", path, "--order", "breadth"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "  breadth-first  "));
	assert_non_null(strstr(o.out, "# interleave (not in use: --order breadth)"));
	cli_out_free(&o);
	expect_error(2, ARGS("run", path, "--backend", "model", "--host-mem", "managed-attach"),
	             "invalid --host-mem managed-attach for a step program", NULL);
	/* --kernel where every kernel step names its own changes nothing: said, not run as if it did */
	expect_error(2, ARGS("run", path, "--backend", "model", "--kernel", "task"),
	             "--kernel task: every kernel step of ", NULL);
	snprintf(name, sizeof name, "ss-bad-step-%d.ini", (int)getpid());
	put_file(getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp", name, "[chunk]\nstep = h2d w\n", bad,
	         sizeof bad);
	snprintf(want, sizeof want, "%s:2: step 'h2d w': buffer 'w': valid is x|y|z", name);
	expect_error(2, ARGS("run", bad, "--backend", "model"), want, NULL);
	unlink(bad);
}

/* Without --backend on a machine without a GPU: the model, said in one line on stderr. */
static void test_run_auto_falls_back(void **state)
{
	struct cli_out o;
	yajl_val j;

	(void)state;
	run_cli(&o, ARGS("run", "--json", "--streams", "2"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_int_equal(count_lines(o.err), 1);
	assert_non_null(strstr(o.err, "MODELLED"));
	j = parse_json(&o);
	assert_true(json_tree_is_true(json_tree_get(j, "modelled")));
	json_tree_free(j);
	cli_out_free(&o);
}

/* A sweep that fails at a point, after others ran, says so in one line: stderr is no terminal, so no progress line
 * was drawn and none is ended (no blank line before the error). */
static void test_sweep_failure_one_line(void **state)
{
	(void)state;
	expect_error(2, ARGS("sweep", "--backend", "model", "--devices", "2", "--streams", "1,2,128"),
	             "--devices 2 with 128 streams each is 256 streams", NULL);
}

/* The shipped two-GPU example sweeps without a list: the default counts stop at 64 streams a device (128 in all).
 * An order or a count the user gave that it cannot run is still its one line. */
static void test_sweep_devices_default(void **state)
{
	char ini[4096];
	struct cli_out o;
	yajl_val j, pts;

	(void)state;
	snprintf(ini, sizeof ini, "%s/examples/multi-gpu.ini", SS_SOURCE_DIR);
	run_cli(&o, ARGS("sweep", ini, "--backend", "model", "--json"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	j = parse_json(&o);
	pts = json_tree_get(j, "points");
	assert_int_equal(json_tree_len(pts), 7);
	for (size_t i = 0; i < 7; i++) {
		yajl_val p = json_tree_at(pts, i);

		assert_int_equal(json_tree_int(json_tree_get(p, "streams")), 1 << i);
		assert_string_equal(json_tree_str(json_tree_get(p, "order")), "depth");
	}
	json_tree_free(j);
	cli_out_free(&o);
	expect_error(2, ARGS("sweep", ini, "--backend", "model", "--order", "breadth"),
	             "--devices 2 cannot run --order breadth", NULL);
	expect_error(2, ARGS("sweep", ini, "--backend", "model", "--streams", "1,128"),
	             "--devices 2 with 128 streams each is 256 streams", NULL);
}

static void test_sweep_model_both(void **state)
{
	static const int counts[] = {1, 2, 4, 8, 16, 32, 64, 128};
	struct cli_out o;
	yajl_val j, pts;

	(void)state;
	run_cli(&o, ARGS("sweep", "--backend", "model", "--preset", "kernel-transfer", "--order", "both", "--json"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	j = parse_json(&o);
	assert_true(json_tree_is_true(json_tree_get(j, "modelled")));
	pts = json_tree_get(j, "points");
	assert_true(json_tree_is_array(pts));
	assert_int_equal(json_tree_len(pts), 16);
	for (size_t i = 0; i < 16; i++) {
		yajl_val p = json_tree_at(pts, i);
		const char *order = json_tree_str(json_tree_get(p, "order"));

		assert_non_null(order);
		assert_string_equal(order, i < 8 ? "depth" : "breadth"); /* order-major */
		assert_int_equal(json_tree_int(json_tree_get(p, "streams")), counts[i % 8]);
		assert_true(num(p, "makespan_ns") > 0);
		assert_true(num(p, "speedup") > 0);
		assert_true(num(p, "bound_ns") > 0);
		if (counts[i % 8] == 1)
			assert_true(num(p, "speedup") == 1.0); /* the reference of its order */
		assert_int_equal(json_tree_int(json_tree_get(json_tree_get(p, "expected"), "KER")), counts[i % 8]);
		assert_int_equal(json_tree_int(json_tree_get(json_tree_get(p, "counts"), "KER")), counts[i % 8]);
	}
	json_tree_free(j);
	cli_out_free(&o);

	/* the text table has both orders side by side, one row per count */
	run_cli(&o, ARGS("sweep", "--backend", "model", "--streams", "1,4", "--order", "both"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.out, "depth"));
	assert_non_null(strstr(o.out, "breadth"));
	assert_non_null(strstr(o.out, "speedup"));
	assert_non_null(strstr(o.out, "MODELLED"));
	cli_out_free(&o);
}

/* A profile loaded with --profile labels the model's results by its file, not as the built-in H200 profile. */
static void test_profile_label(void **state)
{
	char dir[] = "/tmp/ss-cli-label-XXXXXX", path[160];
	struct cli_out o;
	yajl_val j;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put_file(dir, "mine.profile", "name = H200\ncopy.h2d.bw_gbs = 40 measured\n", path, sizeof path);
	run_cli(&o, ARGS("run", "--backend", "model", "--profile", path));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.out, "MODEL (mine.profile profile)"));
	assert_null(strstr(o.out, "H200 profile"));
	cli_out_free(&o);
	run_cli(&o, ARGS("sweep", "--backend", "model", "--streams", "1,2", "--json", "--profile", path));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	j = parse_json(&o);
	assert_string_equal(json_tree_str(json_tree_get(j, "device")), "MODEL (mine.profile profile)");
	json_tree_free(j);
	cli_out_free(&o);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

/* What calibrate and validate measure on the model is labelled so, never as measured: calibrate's keys are
 * "modelled" in the profile it writes, and validate --check of a CSV validate --backend model wrote names its
 * reference MODELLED and its verdict a self-test (it said "measured" and "targets MET"). */
static void test_model_measurements_labelled(void **state)
{
	char dir[] = "/tmp/ss-cli-modlab-XXXXXX", prof[160], csv[160];
	struct cli_out o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(prof, sizeof prof, "%s/m.profile", dir);
	snprintf(csv, sizeof csv, "%s/v.csv", dir);
	run_cli(&o, ARGS("calibrate", "--backend", "model", "-o", prof));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	cli_out_free(&o);
	{
		FILE *f = fopen(prof, "r");
		char line[1024];
		int modelled = 0;

		assert_non_null(f);
		while (fgets(line, sizeof line, f) != NULL)
			if (strncmp(line, "copy.h2d.bw_gbs = ", 18) == 0 || strncmp(line, "api.copy_ns = ", 14) == 0 ||
			    strncmp(line, "kernel.add.ns_per_unit = ", 25) == 0) {
				assert_non_null(strstr(line, " modelled "));
				modelled++;
			}
		fclose(f);
		assert_int_equal(modelled, 3);
	}
	run_cli(&o, ARGS("validate", "--backend", "model", "--quick", "--preset", "hyperq", "--csv", csv));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	cli_out_free(&o);
	run_cli(&o, ARGS("validate", "--check", csv));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.out, "MODELLED(ref)"));
	assert_non_null(strstr(o.out, "(MODELLED reference)"));
	assert_non_null(strstr(o.out, "targets MET (MODELLED: the model against its own runs, a self-test)"));
	cli_out_free(&o);
	unlink(prof);
	unlink(csv);
	assert_int_equal(rmdir(dir), 0);
}

/* Creates an empty file at path; 0 or -1. */
static int make_empty(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0)
		return -1;
	return close(fd);
}

/* Files in dir other than keep (NULL: none): an export must leave no temporary or partial file behind. */
static int other_files(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 &&
		    (keep == NULL || strcmp(de->d_name, keep) != 0))
			n++;
	closedir(d);
	return n;
}

/* --export FILE.json writes a Chrome trace: one complete event per GPU operation, named tracks (metadata). */
/* validate --check with several measured files (repeated and comma-separated): each row against its median, with
 * the spread and count of its measurements; one file keeps the plain table; an empty list is a usage error. */
static void test_validate_check_files(void **state)
{
	char dir[] = "/tmp/ss_cli_validate_XXXXXX", path[3][160], list[400];
	static const unsigned us[3] = {1000, 3000, 2000};
	struct cli_out o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int k = 0; k < 3; k++) {
		FILE *f;

		snprintf(path[k], sizeof path[k], "%s/v%d.csv", dir, k);
		f = fopen(path[k], "w");
		assert_non_null(f);
		fprintf(f,
		        "# device: NVIDIA H200\npreset,streams,order,connections,measured_ns,measured_untraced,"
		        "model_ns,measured_overlap,model_overlap,measured_cross,model_cross\n"
		        "hyperq,8,depth,1,%u000,1,0,0.0000,0.0000,-1,-1\n",
		        us[k]);
		fclose(f);
	}
	snprintf(list, sizeof list, "%s,%s", path[0], path[1]);
	run_cli(&o, ARGS("validate", "--check", list, "--check", path[2]));
	if (o.status != 0 && o.status != 1)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.out, "median of each row's measurements"));
	assert_non_null(strstr(o.out, "spread"));
	assert_non_null(strstr(o.out, "2.000 ms"));   /* the median of 1, 3 and 2 ms */
	assert_non_null(strstr(o.out, "100.0%   3")); /* (3 - 1) / 2 over 3 measurements */
	assert_non_null(strstr(o.out, "their own spread"));
	cli_out_free(&o);
	run_cli(&o, ARGS("validate", "--check", path[0]));
	if (o.status != 0 && o.status != 1)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.out, "1.000 ms"));
	assert_null(strstr(o.out, "spread"));
	assert_null(strstr(o.out, "by preset")); /* one preset: the whole matrix's line says it */
	cli_out_free(&o);
	/* two presets: a line each, its median and worst error and its rows beyond the target */
	{
		FILE *f = fopen(path[1], "a");

		assert_non_null(f);
		fprintf(f, "kernel-transfer,1,depth,1,100000000,1,0,0.0000,0.0000,-1,-1\n");
		fclose(f);
	}
	run_cli(&o, ARGS("validate", "--check", path[1]));
	assert_int_equal(o.status, 1); /* the model's kernel-transfer on one stream is nowhere near 100 ms */
	assert_non_null(strstr(o.out, "by preset: median / worst error, rows beyond 15%"));
	{
		/* the rows beyond the target, and of them those timed with CUPTI attached: every one here (the files
		 * have no '# untraced:' line) */
		const char *u = strstr(o.out, "; of the ");
		unsigned beyond = 0, attached = 0;

		assert_non_null(u);
		assert_int_equal(sscanf(u, "; of the %u row", &beyond), 1);
		assert_non_null(strstr(u, "off by more than 15%, "));
		assert_int_equal(sscanf(strstr(u, "15%, "), "15%%, %u measured with it attached", &attached), 1);
		assert_true(beyond >= 1);
		assert_int_equal(attached, beyond);
	}
	assert_non_null(strstr(o.out, "\n  hyperq "));
	assert_non_null(strstr(o.out, "\n  kernel-transfer "));
	assert_non_null(strstr(o.out, "1 of 1\n"));
	cli_out_free(&o);
	run_cli(&o, ARGS("validate", "--check", ","));
	assert_int_equal(o.status, 2);
	assert_non_null(strstr(o.err, "--check needs a file name"));
	cli_out_free(&o);
	for (int k = 0; k < 3; k++)
		unlink(path[k]);
	rmdir(dir);
}

/* validate --check --fit on the H200's pageable rows of two runs: the fitted value over each half of the stream counts
 * and over all of them (the committed profile's, 5.93, is fitted to eight runs), the held-out check, then the table;
 * --fit without --check, or with a bad key or range, is a usage error naming what is valid. */
static void test_validate_fit(void **state)
{
	char v1[1024], v3[1024], prof[1024];
	struct cli_out o;

	(void)state;
	snprintf(v1, sizeof v1, "%s/tests/data/h200/documents/validate-1.csv", SS_SOURCE_DIR);
	snprintf(v3, sizeof v3, "%s/tests/data/h200/documents/validate-3.csv", SS_SOURCE_DIR);
	snprintf(prof, sizeof prof, "%s/data/profiles/h200.profile", SS_SOURCE_DIR);
	run_cli(&o, ARGS("validate", "--profile", prof, "--check", v1, "--check", v3, "--preset", "pageable", "--fit",
	                 "pageable.h2d.stage_gbs=3:100"));
	if (o.status != 0 && o.status != 1)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.out, "fit on 1, 4, 16, 64 streams: pageable.h2d.stage_gbs=5.94"));
	assert_non_null(strstr(o.out, "held-out rows (2, 8, 32, 128 streams): 16,"));
	assert_non_null(strstr(o.out, "fit on every row (the model below): pageable.h2d.stage_gbs=5.84"));
	assert_non_null(strstr(o.out, "31 rows compared"));
	cli_out_free(&o);
	expect_error(2, ARGS("validate", "--fit", "pageable.h2d.stage_gbs=3:100"), "--fit needs --check", NULL);
	/* an unknown key is named, with the key it is likely a typo of, as a profile file's is */
	expect_error(2, ARGS("validate", "--check", v1, "--fit", "no.such_key=1:2"),
	             "validate: invalid --fit: unknown key 'no.such_key'", "lists every key", NULL);
	expect_error(2, ARGS("validate", "--check", v1, "--fit", "pageable.h2d.stage_gbs=3:100,copy.h2d.bw_gb=1:2"),
	             "invalid --fit: unknown key 'copy.h2d.bw_gb': did you mean 'copy.h2d.bw_gbs'?", NULL);
	expect_error(2, ARGS("validate", "--check", v1, "--fit", "copy.h2d.bw_gbs"), "invalid --fit", "KEY=LO:HI",
	             NULL);
	expect_error(2, ARGS("validate", "--check", v1, "--fit", "pageable.h2d.stage_gbs=5:3"), "0 < LO < HI", NULL);
	expect_error(2, ARGS("validate", "--check", v1, "--fit", "copy.h2d.bw_gbs=1e9:1e10"),
	             "copy.h2d.bw_gbs takes values in 0.01..10000, not 1e+09..1e+10", NULL);
}

static void test_run_model_export(void **state)
{
	char dir[] = "/tmp/ss-cli-test-XXXXXX", path[128], bad[128], missing[160];
	struct cli_out o;
	char err[256];
	yajl_val j, ev;
	size_t i, h2d = 0, ker = 0, d2h = 0, meta = 0;
	yajl_val e;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/trace.json", dir);
	run_cli(&o, ARGS("run", "--backend", "model", "--export", path));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	cli_out_free(&o);
	j = json_tree_load(path, err, sizeof err);
	if (j == NULL)
		fail_msg("%s is not JSON: %s", path, err);
	ev = json_tree_get(j, "traceEvents");
	assert_true(json_tree_is_array(ev));
	json_tree_foreach(ev, i, e)
	{
		const char *ph = json_tree_str(json_tree_get(e, "ph"));
		const char *kind = json_tree_str(json_tree_get(json_tree_get(e, "args"), "ss_kind"));

		if (ph != NULL && strcmp(ph, "M") == 0)
			meta++;
		if (ph == NULL || strcmp(ph, "X") != 0 || kind == NULL)
			continue;
		h2d += strcmp(kind, "H2D") == 0;
		ker += strcmp(kind, "KER") == 0;
		d2h += strcmp(kind, "D2H") == 0;
	}
	assert_int_equal(h2d, 16);
	assert_int_equal(ker, 8);
	assert_int_equal(d2h, 8);
	assert_true(meta > 0);
	json_tree_free(j);
	assert_int_equal(other_files(dir, "trace.json"), 0);

	/* an unknown extension: exit 2, one line naming the valid ones, no file */
	snprintf(bad, sizeof bad, "%s/trace.xyz", dir);
	run_cli(&o, ARGS("run", "--backend", "model", "--export", bad));
	assert_int_equal(o.status, 2);
	assert_int_equal(count_lines(o.err), 1);
	assert_non_null(strstr(o.err, ".json"));
	assert_int_equal(access(bad, F_OK), -1);
	cli_out_free(&o);

	/* the same file twice, spelled two ways (dir/./trace.json): exit 2 before the run, one line naming both */
	snprintf(bad, sizeof bad, "%s/./trace.json", dir);
	run_cli(&o, ARGS("run", "--backend", "model", "--export", path, "--export", bad));
	assert_int_equal(o.status, 2);
	assert_int_equal(count_lines(o.err), 1);
	assert_non_null(strstr(o.err, "is given twice (as '"));
	cli_out_free(&o);

	/* a directory that does not exist: a failure in one line, nothing written */
	snprintf(missing, sizeof missing, "%s/no/such/dir/trace.json", dir);
	run_cli(&o, ARGS("run", "--backend", "model", "--export", missing));
	assert_true(o.status != 0);
	assert_int_equal(count_lines(o.err), 1);
	cli_out_free(&o);
	assert_int_equal(other_files(dir, "trace.json"), 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* The entry of dir whose name starts with prefix, copied into name; false when none. */
static bool find_entry(const char *dir, const char *prefix, char *name, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool found = false;

	assert_non_null(d);
	while (!found && (de = readdir(d)) != NULL)
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0) {
			snprintf(name, len, "%s", de->d_name);
			found = true;
		}
	closedir(d);
	return found;
}

/* A signal that ends the process during a large export (150 MB of JSON) removes the export's temporary file, and
 * the process dies of that signal. SIGINT is ignored in the background jobs of a non-interactive shell, so the
 * child is started here with every signal at its default. */
static void expect_signal_cleanup(int sig)
{
	char dir[] = "/tmp/ss-cli-signal-XXXXXX", tmp[256];
	const char *argv[] = {SS_BINARY,  "run",   "--backend", "model",    "--streams", "128",
	                      "--chunks", "65536", "--export",  "big.json", NULL};
	struct timespec pause = {0, 200000};
	bool seen = false;
	pid_t pid;
	int st;

	assert_non_null(mkdtemp(dir));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (chdir(dir) != 0)
			_exit(126);
		unsetenv("STREAMSCOPE_PROFILE");
		execv(SS_BINARY, (char *const *)argv);
		_exit(127);
	}
	/* the temporary file appears once the run is done and the export begins: a few seconds at most */
	for (int i = 0; i < 600000 && !seen; i++) {
		seen = find_entry(dir, ".big.json.tmp-", tmp, sizeof tmp);
		if (!seen && waitpid(pid, &st, WNOHANG) == pid)
			fail_msg("the export ended before its temporary file was seen (status %d)", st);
		if (!seen)
			nanosleep(&pause, NULL);
	}
	assert_true(seen);
	assert_int_equal(kill(pid, sig), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st) && WTERMSIG(st) != sig)
		fail_msg("died of signal %d, want %d", WTERMSIG(st), sig);
	if (!WIFSIGNALED(st))
		fail_msg("exited %d, want death by signal %d (the export finished first?)", WEXITSTATUS(st), sig);
	if (find_entry(dir, ".big.json.tmp-", tmp, sizeof tmp))
		fail_msg("signal %d left %s/%s", sig, dir, tmp);
	assert_int_equal(other_files(dir, NULL), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void test_signal_export_cleanup(void **state)
{
	(void)state;
	expect_signal_cleanup(SIGINT);
	expect_signal_cleanup(SIGTERM);
}

/* Every output is checked before any work, and errors name the user's path: a directory, a link to one, a missing
 * directory; for run and view --export, calibrate -o, validate --csv and bench -o DIR. Nothing is run (stdout
 * stays empty), nothing is left behind. */
static void test_outputs_checked_first(void **state)
{
	char dir[] = "/tmp/ss-cli-out-XXXXXX", adir[160], link[160], trace[160], file[160], missing[160];
	struct cli_out o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(adir, sizeof adir, "%s/adir.json", dir);
	assert_int_equal(mkdir(adir, 0755), 0);
	snprintf(link, sizeof link, "%s/link.json", dir);
	assert_int_equal(symlink("adir.json", link), 0);
	snprintf(missing, sizeof missing, "%s/no/such/p.txt", dir);
	expect_error(2, ARGS("run", "--backend", "model", "--export", adir), adir, "is a directory", NULL);
	expect_error(2, ARGS("run", "--backend", "model", "--export", link), link, "is a directory", NULL);
	expect_error(2, ARGS("run", "--backend", "model", "--export", missing), missing, "/no/such does not exist",
	             NULL);
	expect_error(2, ARGS("calibrate", "--backend", "model", "-o", missing), missing, NULL);
	run_cli(&o, ARGS("calibrate", "--backend", "model", "-o", missing));
	assert_null(strstr(o.err, ".tmp"));
	cli_out_free(&o);
	expect_error(2, ARGS("calibrate", "--backend", "model", "-o", adir), adir, "is a directory", NULL);
	expect_error(2, ARGS("validate", "--backend", "model", "--quick", "--preset", "hyperq", "--csv", missing),
	             missing, NULL);
	expect_error(2, ARGS("validate", "--backend", "model", "--quick", "--preset", "hyperq", "--csv", link), link,
	             "is a directory", NULL);
	/* view FILE --export: the trace is not even read */
	snprintf(trace, sizeof trace, "%s/t.json", dir);
	run_cli(&o, ARGS("run", "--backend", "model", "--streams", "2", "--export", trace));
	assert_int_equal(o.status, 0);
	cli_out_free(&o);
	expect_error(2, ARGS("view", trace, "--export", adir), adir, "is a directory", NULL);
	/* bench -o DIR: a file there, or a parent that does not exist */
	snprintf(file, sizeof file, "%s/afile", dir);
	assert_int_equal(make_empty(file), 0);
	expect_error(2, ARGS("bench", "--backend", "model", "--quick", "-o", file), file, "not a directory", NULL);
	expect_error(2, ARGS("bench", "--backend", "model", "--quick", "-o", missing), missing, NULL);
	/* checked before the backend is chosen: without --backend, still its one line (no note about the driver) */
	expect_error(2, ARGS("bench", "--quick", "-o", missing), missing, NULL);
	assert_int_equal(unlink(file), 0);
	assert_int_equal(unlink(trace), 0);
	assert_int_equal(unlink(link), 0);
	assert_int_equal(rmdir(adir), 0);
	assert_int_equal(other_files(dir, NULL), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* calibrate -o and validate --csv write through io/atomic: a link at the path stays a link, its target gets the
 * file, an existing file keeps its mode, and no temporary file is left next to it. */
static void test_outputs_written_in_place(void **state)
{
	char dir[] = "/tmp/ss-cli-place-XXXXXX", target[160], link[160], csv[160];
	struct cli_out o;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(target, sizeof target, "%s/h.profile", dir);
	snprintf(link, sizeof link, "%s/link.profile", dir);
	assert_int_equal(make_empty(target), 0);
	assert_int_equal(chmod(target, 0640), 0);
	assert_int_equal(symlink("h.profile", link), 0);
	run_cli(&o, ARGS("calibrate", "--backend", "model", "-o", link));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	cli_out_free(&o);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(target, &st), 0);
	assert_true(st.st_size > 100);
	assert_int_equal(st.st_mode & 07777, 0640);
	snprintf(csv, sizeof csv, "%s/v.csv", dir);
	run_cli(&o, ARGS("validate", "--backend", "model", "--quick", "--preset", "hyperq", "--csv", csv));
	if (o.status != 0 && o.status != 1)
		fail_msg("exit %d: %s", o.status, o.err);
	cli_out_free(&o);
	assert_int_equal(stat(csv, &st), 0);
	assert_true(st.st_size > 100);
	assert_int_equal(other_files(dir, NULL), 3);
	unlink(csv);
	unlink(link);
	unlink(target);
	assert_int_equal(rmdir(dir), 0);
}

/* Several --export options write every file (it wrote only the last); the same file twice, or more than 8, is
 * refused before any work, nothing written. view FILE converts to several files the same way. */
static void test_export_several(void **state)
{
	char dir[] = "/tmp/ss-cli-exports-XXXXXX", p[4][128], many[9][128];
	const char *args[32];
	struct cli_out o;
	char err[256];
	yajl_val j;
	struct stat st;
	size_t n = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p[0], sizeof p[0], "%s/a.json", dir);
	snprintf(p[1], sizeof p[1], "%s/b.sqlite", dir);
	snprintf(p[2], sizeof p[2], "%s/c.csv", dir);
	snprintf(p[3], sizeof p[3], "%s/d.svg", dir);
	run_cli(&o, ARGS("run", "--backend", "model", "--export", p[0], "--export", p[1], "--export", p[2]));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	cli_out_free(&o);
	j = json_tree_load(p[0], err, sizeof err);
	if (j == NULL)
		fail_msg("%s: %s", p[0], err);
	json_tree_free(j);
	for (int i = 1; i < 3; i++) {
		if (stat(p[i], &st) != 0 || st.st_size == 0)
			fail_msg("%s was not written", p[i]);
		assert_int_equal(unlink(p[i]), 0);
	}
	assert_int_equal(unlink(p[0]), 0);

	run_cli(&o, ARGS("view", SS_SOURCE_DIR "/tests/data/nsys/rtx3060-1stream.sqlite", "--export", p[3], "--export",
	                 p[2]));
	assert_int_equal(o.status, 0);
	cli_out_free(&o);
	assert_int_equal(access(p[3], F_OK), 0);
	assert_int_equal(access(p[2], F_OK), 0);
	assert_int_equal(unlink(p[2]), 0);
	assert_int_equal(unlink(p[3]), 0);

	expect_error(2, ARGS("run", "--backend", "model", "--export", p[0], "--export", p[1], "--export", p[0]), p[0],
	             "twice", NULL);
	args[n++] = "run";
	args[n++] = "--backend";
	args[n++] = "model";
	for (int i = 0; i < 9; i++) {
		snprintf(many[i], sizeof many[i], "%s/t%d.csv", dir, i);
		args[n++] = "--export";
		args[n++] = many[i];
	}
	args[n] = NULL;
	expect_error(2, args, "at most 8", NULL);
	assert_int_equal(other_files(dir, NULL), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* A count of 1 reads in the singular wherever the CLI prints one ("1 chunks" in the experiment's description, the
 * op list's header and the text export's bound). */
static void test_singular_counts(void **state)
{
	char dir[] = "/tmp/ss-cli-plural-XXXXXX", txt[128];
	struct cli_out o;
	FILE *f;
	char buf[8192];
	size_t n;

	(void)state;
	run_cli(&o, ARGS("ops", "--streams", "1"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "  1 stream  "));
	assert_non_null(strstr(o.out, "  1 thread"));
	assert_non_null(strstr(o.out, "# 8 operations, 1 chunk, 2 events\n"));
	cli_out_free(&o);
	run_cli(&o, ARGS("ops", "--chunks", "1"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "8 streams 1 chunk  "));
	assert_null(strstr(o.out, "1 chunks"));
	cli_out_free(&o);
	run_cli(&o, ARGS("ops", "--chunks", "2", "--streams", "1"));
	assert_non_null(strstr(o.out, "1 stream 2 chunks  "));
	assert_non_null(strstr(o.out, ", 2 chunks, "));
	cli_out_free(&o);

	assert_non_null(mkdtemp(dir));
	snprintf(txt, sizeof txt, "%s/one.txt", dir);
	run_cli(&o, ARGS("run", "--backend", "model", "--streams", "1", "--export", txt));
	assert_int_equal(o.status, 0);
	cli_out_free(&o);
	f = fopen(txt, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	if (strstr(buf, " for 1 chunk (") == NULL)
		fail_msg("the text export's bound lacks 'for 1 chunk (':\n%s", buf);
	assert_int_equal(unlink(txt), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* Removes the files of the flat directory dir, then dir. */
static void remove_flat_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[512];

	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		assert_int_equal(unlink(path), 0);
	}
	closedir(d);
	assert_int_equal(rmdir(dir), 0);
}

/* bench on the model runs no GPU check: no line says PASS or FAIL, each check says MODELLED and "not a GPU check",
 * the last line says no GPU check ran, and the exit status is 3 (not 0: nothing passed on a GPU); summary.json has
 * no verdicts ("pass" null) but whether the model was within each target. */
static void test_bench_model_not_gpu(void **state)
{
	char dir[] = "/tmp/ss-cli-bench-XXXXXX", path[160];
	struct cli_out o;
	char err[256];
	yajl_val j, c;
	const char *line, *last = NULL;
	size_t i, checks = 0, ref_skipped = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	run_cli(&o, ARGS("bench", "--backend", "model", "--quick", "-o", dir));
	if (o.status != 3)
		fail_msg("exit %d, want 3; stderr: %s", o.status, o.err);
	for (line = o.out; *line != '\0'; line = strchr(line, '\n') + 1) {
		if (strncmp(line, "PASS", 4) == 0 || strncmp(line, "FAIL", 4) == 0)
			fail_msg("a modelled check reads as a GPU verdict: %.*s", (int)strcspn(line, "\n"), line);
		if (strncmp(line, "MODELLED ", 9) == 0) {
			checks++;
			const char *note = strstr(line, "(not a GPU check; ");

			if (note == NULL || note > strchr(line, '\n'))
				fail_msg("check line without 'not a GPU check': %.*s", (int)strcspn(line, "\n"), line);
		}
		/* the reference programs are the GPU's: the model says so once */
		if (strncmp(line, "reference programs: skipped: ", strlen("reference programs: skipped: ")) == 0) {
			const char *why = strstr(line, "needs the GPU");

			if (why == NULL || (strchr(line, '\n') != NULL && why > strchr(line, '\n')))
				fail_msg("reference skip without its reason: %.*s", (int)strcspn(line, "\n"), line);
			ref_skipped++;
		}
		if (line[0] != '\n')
			last = line;
		if (strchr(line, '\n') == NULL)
			break;
	}
	assert_true(checks >= 10);
	assert_int_equal(ref_skipped, 1);
	assert_non_null(last);
	assert_int_equal(strncmp(last, "no GPU check ran: ", 18), 0);
	cli_out_free(&o);

	snprintf(path, sizeof path, "%s/summary.json", dir);
	j = json_tree_load(path, err, sizeof err);
	if (j == NULL)
		fail_msg("%s: %s", path, err);
	assert_true(json_tree_is_true(json_tree_get(j, "modelled")));
	assert_true(json_tree_is_false(json_tree_get(j, "gpu_checks")));
	/* the device the runs ran on, and no untraced twins on the model */
	assert_string_equal(json_tree_str(json_tree_get(j, "device")), "MODEL (H200 profile)");
	assert_true(json_tree_is_null(json_tree_get(j, "untraced_cupti")));
	assert_int_equal(json_tree_len(json_tree_get(j, "checks")), checks);
	assert_true(json_tree_is_array(json_tree_get(j, "reference")));
	assert_int_equal(json_tree_len(json_tree_get(j, "reference")), 0);
	json_tree_foreach(json_tree_get(j, "checks"), i, c)
	{
		assert_true(json_tree_is_null(json_tree_get(c, "pass")));
		assert_true((json_tree_is_true(json_tree_get(c, "model_within_target")) ||
		             json_tree_is_false(json_tree_get(c, "model_within_target"))));
	}
	/* bench --help names every key summary.json has at its top */
	run_cli(&o, ARGS("bench", "--help"));
	assert_int_equal(o.status, 0);
	assert_true(json_tree_is_object(j) && j->u.object.len >= 9);
	for (size_t k = 0; k < j->u.object.len; k++)
		if (strstr(o.out, j->u.object.keys[k]) == NULL)
			fail_msg("bench --help does not name summary.json's key '%s'", j->u.object.keys[k]);
	cli_out_free(&o);
	json_tree_free(j);
	remove_flat_dir(dir);
	/* --reference runs the comparison alone: on the model, only its skip line and the no-GPU line, exit 3 */
	run_cli(&o, ARGS("bench", "--backend", "model", "--reference", "managed-threads,vector-add"));
	assert_int_equal(o.status, 3);
	assert_null(strstr(o.out, "MODELLED "));
	assert_non_null(strstr(o.out, "reference programs: skipped: "));
	assert_non_null(strstr(o.out, "no GPU check ran: 0 checks modelled"));
	cli_out_free(&o);
	/* an order every named preset has is taken */
	run_cli(&o,
	        ARGS("bench", "--backend", "model", "--reference", "decrypt,kernel-transfer", "--order", "breadth"));
	assert_int_equal(o.status, 3);
	assert_non_null(strstr(o.out, "reference programs: skipped: "));
	cli_out_free(&o);
}

/* A row of a stats --json table: the object whose "name" is name; fails when there is none. */
static yajl_val stats_row(yajl_val j, const char *table, const char *name)
{
	yajl_val rows = json_tree_get(j, table), r;
	size_t i;

	assert_true(json_tree_is_array(rows));
	json_tree_foreach(rows, i, r)
	{
		const char *n = json_tree_str(json_tree_get(r, "name"));

		if (n != NULL && strcmp(n, name) == 0)
			return r;
	}
	fail_msg("stats --json: no %s row named '%s'", table, name);
	return NULL;
}

/* The line of text holding fragment, its offset in s (fails when none). */
static size_t line_of(const char *s, const char *fragment)
{
	const char *p = strstr(s, fragment);

	if (p == NULL)
		fail_msg("output lacks '%s':\n%s", fragment, s);
	return (size_t)(p - s);
}

/* stats FILE on the real nsys exports (tests/data/nsys): the rows and numbers the files' own tables give (worked out
 * with python3's sqlite3 on CUPTI_ACTIVITY_KIND_KERNEL and CUPTI_ACTIVITY_KIND_MEMCPY), in text and in JSON, sorted
 * by total time; singular counts read as such. */
static void test_stats_nsys(void **state)
{
	struct cli_out o;
	yajl_val j, r;

	(void)state;
	run_cli(&o, ARGS("stats", SS_SOURCE_DIR "/tests/data/nsys/rtx4060ti-4streams.sqlite"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_int_equal(o.nerr, 0);
	assert_non_null(strstr(o.out, "NVIDIA GeForce RTX 4060 Ti"));
	assert_non_null(strstr(o.out, "4 launches of 1 kernel,"));
	assert_non_null(strstr(o.out, "12 operations"));
	line_of(o.out, "add_parallel");
	/* HtoD (61.3 ms in all) above DtoH (30.3 ms) */
	assert_true(line_of(o.out, "HtoD (pinned)") < line_of(o.out, "DtoH (pinned)"));
	assert_non_null(strstr(o.out, "61.32 ms"));
	cli_out_free(&o);

	run_cli(&o, ARGS("stats", "--json", SS_SOURCE_DIR "/tests/data/nsys/rtx4060ti-4streams.sqlite"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	j = parse_json(&o);
	assert_int_equal(json_tree_len(json_tree_get(j, "kernels")), 1);
	assert_int_equal(json_tree_len(json_tree_get(j, "copies")), 2);
	assert_int_equal(num(j, "kernel_count"), 4);
	assert_int_equal(num(j, "copy_count"), 12);
	r = stats_row(j, "kernels", "add_parallel(const float *, const float *, float *, int)"); /* as nsys stats */
	assert_int_equal(num(r, "count"), 4);
	assert_int_equal(num(r, "total_ns"), 536542);
	assert_int_equal(num(r, "min_ns"), 133752);
	assert_int_equal(num(r, "max_ns"), 134327);
	assert_true(num(r, "time_percent") == 100.0);
	r = json_tree_at(json_tree_get(j, "copies"), 0);
	assert_string_equal(json_tree_str(json_tree_get(r, "name")), "HtoD (pinned)");
	assert_string_equal(json_tree_str(json_tree_get(r, "kind")), "HtoD");
	assert_string_equal(json_tree_str(json_tree_get(r, "memory")), "pinned");
	assert_int_equal(num(r, "count"), 8);
	assert_int_equal(num(r, "total_ns"), 61322687);
	assert_int_equal(num(r, "min_ns"), 7661204);
	assert_int_equal(num(r, "max_ns"), 7675379);
	assert_int_equal(num(r, "bytes"), 800000000);
	assert_true(fabs(num(r, "bandwidth_gbs") - 800000000.0 / 61322687.0) < 1e-6);
	r = stats_row(j, "copies", "DtoH (pinned)");
	assert_int_equal(num(r, "count"), 4);
	assert_int_equal(num(r, "total_ns"), 30323492);
	assert_int_equal(num(r, "bytes"), 400000000);
	json_tree_free(j);
	cli_out_free(&o);

	/* one launch of one kernel, and pageable copies */
	run_cli(&o, ARGS("stats", SS_SOURCE_DIR "/tests/data/nsys/rtx3060-1stream.sqlite"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "1 launch of 1 kernel,"));
	assert_non_null(strstr(o.out, "2 operations"));
	assert_true(line_of(o.out, "HtoD (pageable)") < line_of(o.out, "DtoH (pageable)"));
	line_of(o.out, "reduce_baseline");
	cli_out_free(&o);
	run_cli(&o, ARGS("stats", SS_SOURCE_DIR "/tests/data/nsys/rtx3060-1stream.sqlite", "--json"));
	assert_int_equal(o.status, 0);
	j = parse_json(&o);
	r = stats_row(j, "kernels", "reduce_baseline(const int *, int *, unsigned long)");
	assert_int_equal(num(r, "count"), 1);
	assert_int_equal(num(r, "total_ns"), 1042014582);
	assert_true(num(r, "stddev_ns") == 0.0);
	r = stats_row(j, "copies", "HtoD (pageable)");
	assert_int_equal(num(r, "total_ns"), 8614971);
	assert_int_equal(num(r, "bytes"), 102400000);
	json_tree_free(j);
	cli_out_free(&o);
}

/* The real nsys exports converted to Chrome JSON (view FILE --export t.json) give stats the same kernel rows: by
 * the full demangled name, as stats of the .sqlite (and nsys stats) gives them, not the short one. */
static void test_stats_nsys_json(void **state)
{
	static const char *const src[] = {SS_SOURCE_DIR "/tests/data/nsys/rtx4060ti-4streams.sqlite",
	                                  SS_SOURCE_DIR "/tests/data/nsys/rtx3060-1stream.sqlite"};
	static const char *const full[] = {"add_parallel(const float *, const float *, float *, int)",
	                                   "reduce_baseline(const int *, int *, unsigned long)"};
	char dir[] = "/tmp/ss-cli-nsysjson-XXXXXX", js[128];
	struct cli_out o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(js, sizeof js, "%s/t.json", dir);
	for (int i = 0; i < 2; i++) {
		yajl_val j, f, r;

		run_cli(&o, ARGS("view", src[i], "--export", js));
		if (o.status != 0)
			fail_msg("view --export: exit %d: %s", o.status, o.err);
		cli_out_free(&o);
		run_cli(&o, ARGS("stats", js));
		if (o.status != 0)
			fail_msg("stats %s: exit %d: %s", js, o.status, o.err);
		line_of(o.out, full[i]);
		cli_out_free(&o);
		run_cli(&o, ARGS("stats", "--json", src[i]));
		assert_int_equal(o.status, 0);
		j = parse_json(&o);
		cli_out_free(&o);
		run_cli(&o, ARGS("stats", "--json", js));
		assert_int_equal(o.status, 0);
		f = parse_json(&o);
		cli_out_free(&o);
		assert_int_equal(json_tree_len(json_tree_get(f, "kernels")),
		                 json_tree_len(json_tree_get(j, "kernels")));
		r = stats_row(f, "kernels", full[i]);
		assert_int_equal(num(r, "count"), num(stats_row(j, "kernels", full[i]), "count"));
		json_tree_free(f);
		json_tree_free(j);
	}
	assert_int_equal(unlink(js), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* stats FILE refuses the experiment options (its experiment is the one recorded) and what it does not take, and
 * a file it cannot open is exit 1 in one line. */
static void test_stats_refused(void **state)
{
	const char *f = SS_SOURCE_DIR "/tests/data/nsys/rtx3060-1stream.sqlite";

	(void)state;
	expect_error(2, ARGS("stats", f, "--streams", "2"), "'--streams'", "'stats FILE'", NULL);
	expect_error(2, ARGS("stats", "--json", "--backend", "model", f), "'--backend'", "'stats FILE'", NULL);
	expect_error(2, ARGS("stats", f, "--export", "x.json"), "'--export'", "'stats'", NULL);
	expect_error(2, ARGS("stats", f, "--ascii"), "'--ascii'", "'stats'", NULL);
	expect_error(2, ARGS("stats", f, f), "unexpected argument", NULL);
	expect_error(1, ARGS("stats", "/nonexistent/trace.sqlite"), "/nonexistent/trace.sqlite", NULL);
}

/* stats without FILE runs the experiment (here on the model: MODELLED) and summarises it; its exports, our SQLite
 * and Chrome JSON, give the same rows back through stats FILE. */
static void test_stats_model(void **state)
{
	char dir[] = "/tmp/ss-cli-stats-XXXXXX", sq[128], js[128];
	const char *files[2] = {sq, js};
	struct cli_out o;
	yajl_val j, f, r, rf;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sq, sizeof sq, "%s/t.sqlite", dir);
	snprintf(js, sizeof js, "%s/t.json", dir);
	run_cli(&o, ARGS("stats", "--backend", "model"));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.out, "MODELLED"));
	assert_non_null(strstr(o.out, "8 launches of 1 kernel,"));
	assert_non_null(strstr(o.out, "24 operations"));
	cli_out_free(&o);
	run_cli(&o, ARGS("stats", "--backend", "model", "--json"));
	assert_int_equal(o.status, 0);
	j = parse_json(&o);
	cli_out_free(&o);
	assert_true(json_tree_is_true(json_tree_get(j, "modelled")));
	assert_true(json_tree_is_null(json_tree_get(j, "file")));
	assert_int_equal(num(j, "kernel_count"), 8);
	assert_int_equal(num(j, "copy_count"), 24);
	r = json_tree_at(json_tree_get(j, "copies"), 0);
	assert_string_equal(json_tree_str(json_tree_get(r, "kind")), "HtoD");
	assert_string_equal(json_tree_str(json_tree_get(r, "memory")), "pinned");
	assert_int_equal(num(r, "count"), 16);
	assert_int_equal(num(r, "bytes"), 2 * 4194304 * 4);

	run_cli(&o, ARGS("run", "--backend", "model", "--export", sq));
	assert_int_equal(o.status, 0);
	cli_out_free(&o);
	run_cli(&o, ARGS("run", "--backend", "model", "--export", js));
	assert_int_equal(o.status, 0);
	cli_out_free(&o);
	for (int i = 0; i < 2; i++) {
		run_cli(&o, ARGS("stats", files[i], "--json"));
		if (o.status != 0)
			fail_msg("stats %s: exit %d: %s", files[i], o.status, o.err);
		f = parse_json(&o);
		cli_out_free(&o);
		assert_int_equal(num(f, "kernel_count"), 8);
		assert_int_equal(num(f, "copy_count"), 24);
		for (size_t k = 0; k < 2; k++) {
			const char *table = k == 0 ? "kernels" : "copies";

			assert_int_equal(json_tree_len(json_tree_get(f, table)),
			                 json_tree_len(json_tree_get(j, table)));
			for (size_t n = 0; n < json_tree_len(json_tree_get(j, table)); n++) {
				r = json_tree_at(json_tree_get(j, table), n);
				rf = stats_row(f, table, json_tree_str(json_tree_get(r, "name")));
				assert_int_equal(num(rf, "count"), num(r, "count"));
				/* the Chrome JSON keeps times in us with 3 decimals: 1 ns per record */
				assert_true(fabs(num(rf, "total_ns") - num(r, "total_ns")) <= num(r, "count"));
			}
		}
		json_tree_free(f);
	}
	json_tree_free(j);
	assert_int_equal(unlink(sq), 0);
	assert_int_equal(unlink(js), 0);
	assert_int_equal(rmdir(dir), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest usage[] = {
	    cmocka_unit_test(test_help),
	    cmocka_unit_test(test_help_every_command),
	    cmocka_unit_test(test_readme_keys),
	    cmocka_unit_test(test_gpu_file_screen),
	    cmocka_unit_test(test_version),
	    cmocka_unit_test(test_unknown_command_and_options),
	    cmocka_unit_test(test_option_messages),
	    cmocka_unit_test(test_missing_value_before_option),
	    cmocka_unit_test(test_export_extensions),
	    cmocka_unit_test(test_sweep_list_length),
	    cmocka_unit_test(test_profile_errors),
	    cmocka_unit_test(test_streams_range),
	    cmocka_unit_test(test_enum_values),
	    cmocka_unit_test(test_sweep_order_one_line),
	    cmocka_unit_test(test_other_ranges),
	    cmocka_unit_test(test_cuda_unavailable),
	    cmocka_unit_test(test_ops),
	    cmocka_unit_test(test_options_refused),
	    cmocka_unit_test(test_experiment_files),
	    cmocka_unit_test(test_expfile_as_trace),
	    cmocka_unit_test(test_run_device_memory),
	    cmocka_unit_test(test_ops_json),
	    cmocka_unit_test(test_stats_nsys),
	    cmocka_unit_test(test_stats_nsys_json),
	    cmocka_unit_test(test_stats_refused),
	};
	const struct CMUnitTest model[] = {
	    cmocka_unit_test(test_run_model_json),
	    cmocka_unit_test(test_optional_value_word),
	    cmocka_unit_test(test_sweep_header_and_order),
	    cmocka_unit_test(test_sweep_file_counts),
	    cmocka_unit_test(test_run_model_text),
	    cmocka_unit_test(test_run_auto_falls_back),
	    cmocka_unit_test(test_sweep_model_both),
	    cmocka_unit_test(test_sweep_failure_one_line),
	    cmocka_unit_test(test_sweep_devices_default),
	    cmocka_unit_test(test_run_model_export),
	    cmocka_unit_test(test_validate_check_files),
	    cmocka_unit_test(test_validate_fit),
	    cmocka_unit_test(test_signal_export_cleanup),
	    cmocka_unit_test(test_profile_label),
	    cmocka_unit_test(test_model_measurements_labelled),
	    cmocka_unit_test(test_outputs_checked_first),
	    cmocka_unit_test(test_outputs_written_in_place),
	    cmocka_unit_test(test_stats_model),
	    cmocka_unit_test(test_export_several),
	    cmocka_unit_test(test_singular_counts),
	    cmocka_unit_test(test_bench_model_not_gpu),
	    cmocka_unit_test(test_run_examples),
	    cmocka_unit_test(test_run_programs),
	};
	const char *group = argc > 1 ? argv[1] : "";
	int rc = 0;

	if (strcmp(group, "model") != 0)
		rc |= cmocka_run_group_tests_name("cli usage", usage, NULL, NULL);
	if (strcmp(group, "usage") != 0)
		rc |= cmocka_run_group_tests_name("cli model", model, NULL, NULL);
	return rc;
}
