/* cmd_record.c: `streamscope record [-o FILE] [--live] [--children] [--] PROGRAM [ARGS...]`: the stream timeline
 * of any CUDA program, captured by the CUPTI injection library (src/record, contract in contract.h).
 *
 * The parent forks and execs PROGRAM with CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH and a pipe (STREAMSCOPE_FD,
 * valid in PROGRAM's pid only). PROGRAM's stdin, stdout and stderr are its own. The parent reads the wire stream
 * with runner_attach/runner_poll into one timeline until PROGRAM has exited and its stream has ended, then writes
 * the trace and returns PROGRAM's exit status (128 + N when signal N killed it).
 *
 * Children: by default only PROGRAM is recorded; CUDA processes it starts load the library too but record nothing
 * (the pipe is close-on-exec once CUDA started, and the library only uses it in PROGRAM's pid). With --children
 * the parent also listens on a Unix socket in a private directory (STREAMSCOPE_SOCK): every other CUDA process of
 * the program connects and streams its own records. Their host records carry OS thread ids (system-wide unique;
 * a process's main thread id is its pid); their streams get indices after those already seen, and the summary
 * says which pid each stream belongs to. The legacy and per-thread default streams of all processes share the
 * "legacy" and "per-thread" lanes.
 *
 * Signals: SIGINT and SIGQUIT from the terminal reach PROGRAM (same process group); the parent only notes them
 * (and stops waiting for --children stragglers). SIGTERM and SIGHUP are passed on to PROGRAM (with SIGCONT when it
 * is stopped). Job control: Ctrl-Z stops both (same process group); when PROGRAM stops by itself, the parent says
 * so and stops too, as a shell's job does, and continues PROGRAM when it is continued (cmd_record_stopped). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/backends.h"
#include "cli/cmd.h"
#include "core/atomic.h"
#include "core/streamsum.h"
#include "core/timeline.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "io/export/export.h"

/* Options of one `record` invocation. */
struct cmd_record_opts {
	const char *out; /* -o; NULL: streamscope-record-<time>.sqlite */
	bool live;
	bool children;
	bool twin;   /* --twin: PROGRAM once more, untraced, timed */
	char **argv; /* PROGRAM and its arguments, NULL-terminated */
};

/* cmd_record_opts fills o from what cmd_parse found (its options stop at "--" or at PROGRAM: PROGRAM's own
 * options follow it). Returns 0, or CLI_USAGE after one line. */
static int cmd_record_opts(const struct cmd_args *a, struct cmd_record_opts *o)
{
	memset(o, 0, sizeof *o);
	cmd_has(a, OPT_OUTPUT, &o->out);
	o->live = cmd_has(a, OPT_LIVE, NULL);
	o->children = cmd_has(a, OPT_CHILDREN, NULL);
	o->twin = cmd_has(a, OPT_TWIN, NULL);
	if (a->npos == 0)
		return cmd_error(CLI_USAGE,
		                 "record: no program given: streamscope record [-o FILE] -- PROGRAM [ARGS...] "
		                 "(see streamscope record --help)");
	if (a->pos[0][0] == '\0')
		return cmd_error(CLI_USAGE, "record: the program name is empty (see streamscope record --help)");
	if (o->out != NULL && export_format_of(o->out) < 0)
		return cmd_error(CLI_USAGE, "record: cannot write '%s': unknown extension, valid are %s", o->out,
		                 SS_EXPORT_EXTENSIONS);
	o->argv = a->pos;
	return 0;
}

#ifndef SS_HAVE_CUDA

/* cmd_record_exec: without CUDA there is nothing to record with. */
static int cmd_record_exec(const struct cmd_args *args)
{
	struct cmd_record_opts o;
	int rc = cmd_record_opts(args, &o);

	if (rc != 0)
		return rc;
	fprintf(stderr, "streamscope: record needs CUDA and CUPTI, and this build has neither (rebuild where the CUDA "
	                "toolkit is installed)\n");
	return CLI_CUDA;
}

#else /* SS_HAVE_CUDA */

#include <sys/wait.h>

#include "record/recorder.h"
#include "run/runner.h"
#include "tui/live.h"

/* The plural ending of a count's noun: "" for 1, else "s" ("1 kernel", "2 kernels"). */
static const char *cmd_record_s(size_t n)
{
	return n == 1 ? "" : "s";
}

/* The pid of a lane's process for --children ("" otherwise), as ", pid N". */
static void cmd_record_lane_pid(const struct recorder *st, int32_t stream, char *buf, size_t len)
{
	buf[0] = '\0';
	if (st->children && stream >= 0 && stream < st->nstreams)
		snprintf(buf, len, ", pid %ld", (long)st->spid[stream]);
}

/* Most streams the summary names one by one; the rest are counted. */
#define CMD_RECORD_TOP_STREAMS 8

/* Prints the streams as a short table whatever their number (at most 4 + SS_SKIND_COUNT + CMD_RECORD_TOP_STREAMS
 * lines): a line of counts by kind, busy time and GPU records per kind, then the busiest streams with their index,
 * CUPTI id and work, and how many more there are. */
static void cmd_record_print_streams(const struct recorder *st, const char *out)
{
	static const int order[] = {SS_SKIND_BLOCKING, SS_SKIND_NONBLOCKING, SS_SKIND_LEGACY, SS_SKIND_PER_THREAD,
	                            SS_SKIND_UNKNOWN};
	struct ss_streamsum sum;
	char busy[32], name[48], pid[32];
	int shown = 0, top;
	bool first = true;

	streamsum_build(&st->tl, &sum);
	fprintf(stderr, "streamscope: streams: %d (", sum.streams);
	for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
		if (sum.kind[order[i]].streams == 0)
			continue;
		fprintf(stderr, "%s%d %s", first ? "" : ", ", sum.kind[order[i]].streams,
		        timeline_stream_kind_name(order[i]));
		first = false;
	}
	fprintf(stderr, ")\n");
	if (sum.streams == 0) {
		streamsum_free(&sum);
		return;
	}
	fprintf(stderr, "  %-20s %7s %11s %9s\n", "kind", "streams", "busy", "records");
	for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
		const struct ss_streamsum_kind *k = &sum.kind[order[i]];

		if (k->streams == 0)
			continue;
		fprintf(stderr, "  %-20s %7d %11s %9zu\n", timeline_stream_kind_name(order[i]), k->streams,
		        units_time(k->busy, busy, sizeof busy), k->records);
	}
	top = sum.nlane < CMD_RECORD_TOP_STREAMS ? sum.nlane : CMD_RECORD_TOP_STREAMS;
	if (top > 0)
		fprintf(stderr, "  %-26s %-18s %11s  %s\n", top < sum.nlane ? "busiest streams" : "stream", "kind",
		        "busy", "work");
	for (int i = 0; i < top; i++) {
		const struct ss_streamsum_stream *l = &sum.lane[i];
		char memsets[32] = "";

		cmd_record_lane_pid(st, l->stream, pid, sizeof pid);
		if (l->stream >= 0)
			snprintf(name, sizeof name, "s%d (CUPTI id %u%s)", l->stream, l->raw_id, pid);
		else
			snprintf(name, sizeof name, "%s (CUPTI id %u)",
			         l->stream == SS_STREAM_LEGACY ? "legacy" : "per-thread", l->raw_id);
		if (l->memsets > 0)
			snprintf(memsets, sizeof memsets, ", %zu memset%s", l->memsets, cmd_record_s(l->memsets));
		fprintf(stderr, "  %-26s %-18s %11s  %zu kernel%s, %zu cop%s%s\n", name,
		        timeline_stream_kind_name(l->kind), units_time(l->busy, busy, sizeof busy), l->kernels,
		        cmd_record_s(l->kernels), l->copies, l->copies == 1 ? "y" : "ies", memsets);
		shown++;
	}
	if (shown < sum.nlane)
		fprintf(stderr, "  ... %d more stream%s with GPU work: streamscope view %s shows each on its lane\n",
		        sum.nlane - shown, cmd_record_s((size_t)(sum.nlane - shown)), out);
	streamsum_free(&sum);
}

/* What happened to PROGRAM, as words ("exited with status 3", "was killed by signal 9 (Killed)"). */
static void cmd_record_describe(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d (%s)%s", WTERMSIG(status), strsignal(WTERMSIG(status)),
		         WCOREDUMP(status) ? ", core dumped" : "");
	else if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else
		snprintf(buf, len, "ended");
}

/* Writes the trace and prints the summary. Returns 0, or CLI_FAIL when the trace could not be written. */
static int cmd_record_finish(struct recorder *st, const char *out, int *nothing)
{
	struct ss_timeline *t = &st->tl;
	struct ss_export_input in;
	char label[256], what[96], *cause = NULL;
	const char *device = NULL;
	int loaded = 0, complete = 0, errors = 0;
	size_t ranges = 0;

	for (int i = 0; i < st->nsrc; i++) {
		const struct recorder_source *s = &st->src[i];

		loaded += s->loaded;
		complete += s->loaded && s->result;
		errors += s->error;
		if (s->result && device == NULL)
			device = s->r.res.device;
		if (s->error)
			fprintf(stderr, "streamscope: recording failed: %s\n", s->r.error);
	}
	cmd_record_describe(st->status, what, sizeof what);
	*nothing = t->n == 0;
	if (t->n == 0) {
		if (errors == 0 && loaded == 0) {
			/* CUDA loads the library when it initialises: a program that never did made no CUDA call, or
			 * its CUDA could not start (no driver, no device): then that is the line's reason */
			char dev[96], *why = NULL;

			if (runner_probe(backends_find("cuda"), dev, sizeof dev, &why) != 0 && why == NULL)
				why = xasprintf("CUDA does not start");
			if (why != NULL)
				fprintf(
				    stderr,
				    "streamscope: nothing recorded: CUDA cannot start here (%s), so no CUDA call of %s "
				    "could be seen; it %s; no trace written\n",
				    why, st->argv[0], what);
			else
				fprintf(stderr,
				        "streamscope: nothing recorded: %s made no CUDA calls%s (CUDA was never "
				        "initialised) and %s; no trace written%s\n",
				        st->argv[0], st->children ? ", nor did the processes it started" : "", what,
				        st->children ? ""
				                     : " (only the launched process is recorded: --children adds the "
				                       "CUDA processes it starts)");
			free(why);
		} else if (errors == 0)
			fprintf(stderr,
			        "streamscope: nothing recorded: %s %s; CUDA started but no GPU work or API call "
			        "arrived%s; no trace written\n",
			        st->argv[0], what, complete < loaded ? " (it ended before the first delivery)" : "");
		return 0;
	}
	recorder_settle(st);
	snprintf(t->backend, sizeof t->backend, "cuda");
	snprintf(t->device, sizeof t->device, "%s", device != NULL ? device : "CUDA device");
	ranges = timeline_count(t, SS_KIND_MARKER);
	{
		size_t nk = timeline_count(t, SS_KIND_KERNEL), nm = timeline_count(t, SS_KIND_MEMSET);
		size_t na = timeline_count(t, SS_KIND_API), ns = timeline_count(t, SS_KIND_SYNC);

		fprintf(stderr,
		        "streamscope: recorded %s (%d process%s) on %s: %zu record%s: %zu kernel%s, %zu H2D, %zu D2H, "
		        "%zu D2D, %zu memset%s, %zu NVTX range%s, %zu API call%s, %zu sync%s; %llu dropped%s\n",
		        st->argv[0], loaded, loaded == 1 ? "" : "es", t->device, t->n, cmd_record_s(t->n), nk,
		        cmd_record_s(nk), timeline_count(t, SS_KIND_H2D), timeline_count(t, SS_KIND_D2H),
		        timeline_count(t, SS_KIND_D2D), nm, cmd_record_s(nm), ranges, cmd_record_s(ranges), na,
		        cmd_record_s(na), ns, cmd_record_s(ns), (unsigned long long)t->dropped,
		        t->incomplete ? "; INCOMPLETE" : "");
	}
	cmd_record_print_streams(st, out);
	if (t->incomplete)
		fprintf(stderr,
		        "streamscope: %s %s before its recording ended: the trace holds what was delivered "
		        "until then and is marked incomplete\n",
		        st->argv[0], what);
	memset(&in, 0, sizeof in);
	in.t = t;
	snprintf(label, sizeof label, "measured: CUDA+CUPTI on %s, recorded %s%s", t->device, st->argv[0],
	         t->incomplete ? " (incomplete)" : "");
	in.label = label;
	if (export_file(out, &in, &cause) != 0) {
		fprintf(stderr, "streamscope: record: %s\n", cause);
		free(cause);
		return CLI_FAIL;
	}
	fprintf(stderr, "streamscope: trace written to %s (open it with: streamscope view %s)\n", out, out);
	return 0;
}

/* How `record --twin`'s untraced run went. */
struct cmd_record_twin {
	bool ran;    /* PROGRAM started and ended */
	int status;  /* its wait status */
	uint64_t ns; /* its wall clock: fork to exit */
};

static uint64_t cmd_record_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Runs PROGRAM argv once without tracing, as the user would run it (their environment, stdin, stdout and stderr),
 * timed from fork to exit as the recorder times the traced run, and fills tw. The terminal's SIGINT and SIGQUIT
 * reach PROGRAM (same process group); streamscope ignores them meanwhile, as system() does, and reads an
 * interrupted run from its status. When PROGRAM cannot be started, tw->ran stays false and nothing is said: the
 * traced run that follows says why. */
static void cmd_record_twin(char **argv, struct cmd_record_twin *tw)
{
	struct sigaction ign, old_int, old_quit;
	int errp[2], e = 0, status;
	uint64_t t0;
	ssize_t n;
	pid_t pid;

	memset(tw, 0, sizeof *tw);
	if (pipe2(errp, O_CLOEXEC) != 0)
		return;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	fflush(NULL);
	t0 = cmd_record_now_ns();
	pid = fork();
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		close(errp[0]);
		execvp(argv[0], argv);
		e = errno;
		if (write(errp[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	close(errp[1]);
	if (pid > 0) {
		while ((n = read(errp[0], &e, sizeof e)) < 0 && errno == EINTR)
			;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (n != (ssize_t)sizeof e) {
			tw->ns = cmd_record_now_ns() - t0;
			tw->status = status;
			tw->ran = true;
		}
	}
	close(errp[0]);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
}

/* Stores the two wall-clock times in the trace when the runs are comparable (both ended the same way), or says why
 * they are not stored (cmd_record_twin_report says what they are once the trace is written or not). */
static void cmd_record_twin_times(struct recorder *st, const struct cmd_record_twin *tw)
{
	char what[96], twhat[96];
	uint64_t traced = st->exited && st->exit_ns > st->start_ns ? st->exit_ns - st->start_ns : 0;

	if (!tw->ran || traced == 0 || tw->ns == 0)
		return;
	if (tw->status != st->status) {
		cmd_record_describe(tw->status, twhat, sizeof twhat);
		cmd_record_describe(st->status, what, sizeof what);
		fprintf(stderr,
		        "streamscope: record --twin: the untraced run %s, the traced one %s: the runs differ, their "
		        "times are not stored\n",
		        twhat, what);
		return;
	}
	st->tl.wall_traced_ns = traced;
	st->tl.wall_untraced_ns = tw->ns;
}

/* cmd_record_twin_report prints the two wall-clock times cmd_record_twin_times stored, and whether they are in a
 * trace (written: one was written). */
static void cmd_record_twin_report(const struct recorder *st, bool written)
{
	char a[32], b[32];

	if (st->tl.wall_traced_ns == 0 || st->tl.wall_untraced_ns == 0)
		return;
	fprintf(stderr, "streamscope: record --twin: %s traced, %s untraced (%+.1f%%): measured wall-clock times%s\n",
	        units_time(st->tl.wall_traced_ns, a, sizeof a), units_time(st->tl.wall_untraced_ns, b, sizeof b),
	        ((double)st->tl.wall_traced_ns / (double)st->tl.wall_untraced_ns - 1.0) * 100.0,
	        written ? ", stored in the trace" : "");
}

/* The default trace name in the current directory. */
static void cmd_record_default_name(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "streamscope-record-%Y%m%d-%H%M%S.sqlite", &tm);
}

/* cmd_record_exec runs PROGRAM with the injection library and writes its trace; returns PROGRAM's status. */
static int cmd_record_exec(const struct cmd_args *args)
{
	struct cmd_record_opts o;
	struct recorder st;
	struct cmd_record_twin tw = {0};
	char defname[64], *logpath = NULL, *cause = NULL;
	const char *out;
	int rc, status = 0, nothing = 0;

	rc = cmd_record_opts(args, &o);
	if (rc != 0)
		return rc;
	if (o.live && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		return cmd_error(CLI_USAGE, "record --live needs a terminal (stdin and stdout); without --live the "
		                            "trace is written all the same");
	cmd_record_default_name(defname, sizeof defname);
	out = o.out != NULL ? o.out : defname;
	if (o.live)
		logpath = xasprintf("%s.log", out);
	/* every file record writes, checked before PROGRAM starts: the trace (written to a temporary name and
	 * renamed) and the --live log (opened in place, in the same directory) */
	if (atomic_check(out, &cause) != 0 || (logpath != NULL && atomic_check(logpath, &cause) != 0)) {
		cmd_error(CLI_USAGE, "record: %s", cause);
		free(cause);
		free(logpath);
		return CLI_USAGE;
	}
	if (o.twin) {
		/* the twin first: a first run's cold start (the driver, the program's files, JIT caches) then counts
		 * against it, not against the recorder, so the overhead found errs low */
		cmd_record_twin(o.argv, &tw);
		if (tw.ran && WIFSIGNALED(tw.status) &&
		    (WTERMSIG(tw.status) == SIGINT || WTERMSIG(tw.status) == SIGQUIT)) {
			cmd_error(0, "record --twin: the untraced run of %s was interrupted: nothing recorded",
			          o.argv[0]);
			free(logpath);
			return 128 + WTERMSIG(tw.status);
		}
	}
	if (recorder_open(&st, o.argv, o.children, o.live, &cause) != 0) {
		cmd_error(CLI_FAIL, "record: %s", cause);
		free(cause);
		free(logpath);
		return CLI_FAIL;
	}
	rc = recorder_start(&st, logpath);
	if (rc != 0)
		goto done;
	if (o.live) {
		if (live_run(&st.tl, recorder_poll, &st, o.argv[0], recorder_ending_flag(), &cause) != 0) {
			cmd_error(0, "record: no live view (%s); recording goes on", cause);
			free(cause);
		} else if (!st.done) {
			cmd_error(0, "record: live view closed; recording %s goes on until it exits", o.argv[0]);
		}
	}
	recorder_loop(&st);        /* returns at once when the live view saw the end */
	if (o.twin && st.tl.n > 0) /* nothing recorded: nothing was traced to compare with the untraced run */
		cmd_record_twin_times(&st, &tw);
	rc = cmd_record_finish(&st, out, &nothing);
	cmd_record_twin_report(&st, rc == 0 && !nothing);
	if (logpath != NULL)
		cmd_error(0, "the output of %s is in %s", o.argv[0], logpath);
	/* PROGRAM's status first: a shell's convention for signals. */
	status = WIFSIGNALED(st.status) ? 128 + WTERMSIG(st.status) : WIFEXITED(st.status) ? WEXITSTATUS(st.status) : 1;
	if (status == 0 && rc != 0)
		status = rc;
	else if (status == 0 && nothing) {
		for (int i = 0; i < st.nsrc; i++)
			if (st.src[i].error)
				status = CLI_CUDA;
	}
	rc = status;
done:
	recorder_close(&st);
	free(logpath);
	return rc;
}

#endif /* SS_HAVE_CUDA */

static const struct cmd_use cmd_record_uses[] = {
    {OPT_OUTPUT, NULL,
     "the trace (default streamscope-record-YYYYMMDD-HHMMSS.sqlite); the format follows the\n"
     "extension: " SS_EXPORT_EXTENSIONS},
    {OPT_LIVE, NULL, "show the Gantt while PROGRAM runs (PROGRAM's output then goes to FILE.log)"},
    {OPT_CHILDREN, NULL,
     "also record the CUDA processes PROGRAM starts; by default only PROGRAM itself is\n"
     "recorded"},
    {OPT_TWIN, NULL,
     "first run PROGRAM once untraced (its output passed through), then recorded; both\n"
     "wall-clock times go into the trace, where analyze's tracing-perturbation compares them"},
    {OPT_NONE, NULL, NULL},
};

const struct cmd_entry cmd_record_entry = {
    .name = "record",
    .args = "[--] PROGRAM [ARGS...]",
    .maxargs = -1,
    .flags = CMD_STOP_AT_ARG,
    .summary = "record any CUDA program's timeline",
    .uses = cmd_record_uses,
    .help = "Runs PROGRAM with CUPTI tracing injected (no rebuild, no code change) and writes its stream\n"
            "timeline: kernels, copies, memsets, runtime API calls, synchronisation and NVTX ranges, per stream\n"
            "(legacy default, per-thread default, blocking, non-blocking). Open the trace with 'streamscope view\n"
            "FILE'.\n"
            "\n"
            "PROGRAM's stdin, stdout and stderr are its own. Records reach streamscope every 500 ms and at exit:\n"
            "if PROGRAM crashes or is killed, what arrived is kept and the trace is marked incomplete. If PROGRAM\n"
            "stops itself (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU), streamscope says so and stops too, as a shell's\n"
            "job does; continued, it continues PROGRAM.\n"
            "\n"
            "--twin runs PROGRAM twice: untraced first (a first run's cold start counts against it, so the\n"
            "overhead found errs low), then recorded. Both are timed from fork to exit; when both end the same\n"
            "way the two times are stored in the trace (SQLite), and 'streamscope analyze FILE' reports\n"
            "tracing-perturbation when the traced run took over 5% longer. Where nothing was recorded, no times\n"
            "are compared.",
    .exits = "PROGRAM's own (128+N when signal N killed it); 127 PROGRAM not found, 126 not executable; 1\n"
             "PROGRAM succeeded but the trace could not be written; 2 usage error, or FILE (or FILE.log for\n"
             "--live) cannot be written, checked before PROGRAM starts; 3 no CUDA/CUPTI in this build, the\n"
             "injection library is missing, or CUPTI could not be set up in a PROGRAM that succeeded",
    .exec = cmd_record_exec,
};
