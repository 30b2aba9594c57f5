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
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmd.h"
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

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "record/contract.h"
#include "run/runner.h"
#include "tui/live.h"

/* How long after PROGRAM exits its stream may stay open without a result: a process PROGRAM started that did not
 * exec a CUDA program may still hold the pipe; nothing more can come from PROGRAM itself. */
#define CMD_RECORD_GRACE_MS 1000
/* Most processes --children follows at once. */
#define CMD_RECORD_MAX_SOURCES 256

/* One recorded process: its wire stream and how its stream indices map onto the timeline's. */
struct cmd_record_source {
	struct ss_runner r;
	pid_t pid;
	bool open;    /* still reading */
	bool loaded;  /* the library started in it (the first streams line arrived) */
	bool result;  /* its stream ended with a result: complete */
	bool error;   /* CUPTI could not be set up (WIRE_ERROR) */
	int32_t *map; /* local stream index -> timeline stream index */
	int nmap;
	size_t nrec; /* records it sent */
};

/* Everything one recording holds. */
struct cmd_record_state {
	struct cmd_record_opts *o;
	struct ss_timeline tl;
	struct cmd_record_source src[CMD_RECORD_MAX_SOURCES];
	int nsrc;
	int nstreams; /* timeline stream indices handed out */
	char *kinds;  /* [index]: enum ss_stream_kind (SS_SKIND_UNKNOWN until the library names it) */
	pid_t *spid;  /* [index]: the process the stream belongs to */
	int kcap;
	pid_t pid;  /* PROGRAM */
	int status; /* its wait status once exited */
	bool exited;
	bool stopped;  /* PROGRAM's last change was a stop */
	int listen_fd; /* --children socket, -1 otherwise */
	char sockdir[80];
	char sockpath[96];
	bool have_base;
	uint64_t base;    /* CUPTI time of the earliest record so far: the timeline's 0 */
	uint64_t exit_ms; /* when PROGRAM exited (monotonic ms) */
	bool noted;       /* the "waiting for children" note was printed */
	bool done;        /* the recording is over */
};

/* Signals the parent saw; the handlers only record them (and wake the loop through the self-pipe). */
static volatile sig_atomic_t cmd_record_interrupted, cmd_record_forward;
static volatile sig_atomic_t cmd_record_ending; /* any of them came: the live view closes once the recording is over */
static int cmd_record_wake[2] = {-1, -1};

static void cmd_record_on_signal(int sig)
{
	int saved = errno;

	if (sig != SIGCHLD)
		cmd_record_ending = 1;
	if (sig == SIGINT || sig == SIGQUIT)
		cmd_record_interrupted = 1;
	else if (sig == SIGTERM || sig == SIGHUP)
		cmd_record_forward = sig;
	if (cmd_record_wake[1] >= 0 && write(cmd_record_wake[1], "x", 1) < 0) {
		/* the pipe is full: the loop is awake anyway */
	}
	errno = saved;
}

/* Installs (on) the parent's handlers for SIGCHLD, SIGINT, SIGQUIT, SIGTERM, SIGHUP (an ignored one stays ignored,
 * and so it is for PROGRAM: nohup streamscope record ...), or puts back (off) the actions they replaced (sigexit's:
 * a signal after the recording still cleans up on its way out). */
static void cmd_record_signals(bool on)
{
	static const int sigs[] = {SIGCHLD, SIGINT, SIGQUIT, SIGTERM, SIGHUP};
	static struct sigaction old[sizeof sigs / sizeof *sigs];
	static bool saved;
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = cmd_record_on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		if (on) {
			sigaction(sigs[i], NULL, &old[i]);
			if (old[i].sa_handler != SIG_IGN || sigs[i] == SIGCHLD) /* nohup's SIGHUP stays ignored */
				sigaction(sigs[i], &sa, NULL);
		} else if (saved) {
			sigaction(sigs[i], &old[i], NULL);
		}
	}
	saved = on;
}

static uint64_t cmd_record_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The directory of the running streamscope binary, "" when /proc does not say. */
static void cmd_record_exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash != NULL)
		*slash = '\0';
}

/* Finds the injection library: $STREAMSCOPE_INJECT, else next to the binary, else ../lib/streamscope. Writes the
 * absolute path to out. 0, or -1 with *cause. */
static int cmd_record_find_library(char *out, size_t len, char **cause)
{
	const char *env = getenv("STREAMSCOPE_INJECT");
	char dir[PATH_MAX], cand[2][PATH_MAX + 64];
	char *real;

	if (env != NULL && *env != '\0') {
		real = realpath(env, NULL);
		if (real == NULL || access(real, R_OK) != 0) {
			*cause = xasprintf("the injection library STREAMSCOPE_INJECT names ('%s') cannot be read: %s",
			                   env, strerror(errno));
			free(real);
			return -1;
		}
		snprintf(out, len, "%s", real);
		free(real);
		return 0;
	}
	cmd_record_exe_dir(dir, sizeof dir);
	snprintf(cand[0], sizeof cand[0], "%s/%s", dir, INJECT_LIBRARY_NAME);
	snprintf(cand[1], sizeof cand[1], "%s/../lib/streamscope/%s", dir, INJECT_LIBRARY_NAME);
	for (int i = 0; i < 2; i++) {
		real = realpath(cand[i], NULL);
		if (real != NULL && access(real, R_OK) == 0) {
			snprintf(out, len, "%s", real);
			free(real);
			return 0;
		}
		free(real);
	}
	*cause = xasprintf("cannot find the injection library %s next to the streamscope binary (%s) or in "
	                   "../lib/streamscope; set STREAMSCOPE_INJECT to its path",
	                   INJECT_LIBRARY_NAME, *dir ? dir : "unknown directory");
	return -1;
}

/* dl_iterate_phdr visitor: copies the path of a loaded libcupti.so into data. */
static int cmd_record_cupti_visit(struct dl_phdr_info *info, size_t size, void *data)
{
	const char *name = info->dlpi_name, *base;

	(void)size;
	if (name == NULL || *name != '/')
		return 0;
	base = strrchr(name, '/') + 1;
	if (strncmp(base, "libcupti.so", 11) != 0)
		return 0;
	snprintf(data, PATH_MAX, "%s", name);
	return 1;
}

/* The libcupti.so for NVTX_INJECTION64_PATH: $STREAMSCOPE_CUPTI, else the one this process or the injection
 * library loads (same rpath as the library's). 0 with the path, -1 when none is found. */
static int cmd_record_find_cupti(const char *library, char *out)
{
	const char *env = getenv("STREAMSCOPE_CUPTI");
	void *h;

	out[0] = '\0';
	if (env != NULL && *env != '\0') {
		snprintf(out, PATH_MAX, "%s", env);
		return 0;
	}
	if (dl_iterate_phdr(cmd_record_cupti_visit, out) == 1)
		return 0;
	/* Loading the library runs none of its code: it has no constructor; InitializeInjection is CUDA's to call. */
	h = dlopen(library, RTLD_LAZY | RTLD_LOCAL);
	if (h != NULL && dl_iterate_phdr(cmd_record_cupti_visit, out) == 1)
		return 0;
	return -1;
}

/* Opens the --children socket in a private directory. 0, or -1 with *cause. */
static int cmd_record_listen(struct cmd_record_state *st, char **cause)
{
	struct sockaddr_un sa;
	const char *tmp = getenv("TMPDIR");

	snprintf(st->sockdir, sizeof st->sockdir, "%s/streamscope-XXXXXX",
	         tmp != NULL && *tmp != '\0' && strlen(tmp) < 40 ? tmp : "/tmp");
	if (mkdtemp(st->sockdir) == NULL) {
		*cause = xasprintf("cannot create a directory for the --children socket: %s", strerror(errno));
		st->sockdir[0] = '\0';
		return -1;
	}
	snprintf(st->sockpath, sizeof st->sockpath, "%s/sock", st->sockdir);
	st->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", st->sockpath);
	if (st->listen_fd < 0 || bind(st->listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
	    listen(st->listen_fd, 64) != 0) {
		*cause = xasprintf("cannot listen on %s for --children: %s", st->sockpath, strerror(errno));
		return -1;
	}
	return 0;
}

static void cmd_record_unlisten(struct cmd_record_state *st)
{
	if (st->listen_fd >= 0)
		close(st->listen_fd);
	st->listen_fd = -1;
	if (st->sockpath[0] != '\0')
		unlink(st->sockpath);
	if (st->sockdir[0] != '\0')
		rmdir(st->sockdir);
	st->sockpath[0] = st->sockdir[0] = '\0';
}

/* Adds a source reading fd for process pid. */
static struct cmd_record_source *cmd_record_add_source(struct cmd_record_state *st, pid_t pid, int fd)
{
	struct cmd_record_source *s;

	if (st->nsrc == CMD_RECORD_MAX_SOURCES) {
		close(fd);
		return NULL;
	}
	s = &st->src[st->nsrc++];
	memset(s, 0, sizeof *s);
	runner_attach(&s->r, -1, fd); /* the parent reaps PROGRAM itself; other processes are not its children */
	s->pid = pid;
	s->open = true;
	return s;
}

/* The timeline index of local stream index local of source s, handing out new indices in order. */
static int32_t cmd_record_global(struct cmd_record_state *st, struct cmd_record_source *s, int32_t local)
{
	if (local < 0)
		return local;
	while (s->nmap <= local) {
		if (st->nstreams == st->kcap) {
			st->kcap = st->kcap ? st->kcap * 2 : 16;
			st->kinds = xrealloc(st->kinds, (size_t)st->kcap);
			st->spid = xreallocarray(st->spid, (size_t)st->kcap, sizeof *st->spid);
		}
		st->kinds[st->nstreams] = SS_SKIND_UNKNOWN;
		st->spid[st->nstreams] = s->pid;
		s->map = xreallocarray(s->map, (size_t)s->nmap + 1, sizeof *s->map);
		s->map[s->nmap++] = st->nstreams++;
	}
	return s->map[local];
}

/* Makes the records from index from on relative to the earliest record seen: when one starts before the current
 * base, everything before it moves up (rare: buffers of other threads arrive late). The live view needs small
 * times (doubles), the trace starts at 0 either way. */
static void cmd_record_rebase(struct cmd_record_state *st, size_t from)
{
	struct ss_timeline *t = &st->tl;

	for (size_t i = from; i < t->n; i++) {
		struct ss_record *r = &t->rec[i];

		if (!st->have_base) {
			st->have_base = true;
			st->base = r->start;
		}
		if (r->start < st->base) {
			uint64_t d = st->base - r->start;

			for (size_t j = 0; j < i; j++) {
				t->rec[j].start += d;
				t->rec[j].end += d;
			}
			st->base = r->start;
		}
		r->end = r->end < r->start ? 0 : r->end - r->start; /* the length, for a moment */
		r->start -= st->base;
		r->end += r->start;
	}
}

/* Takes in what source s sent by the last poll: maps the new records' streams, rebases their times, takes in its
 * stream table entries (WIRE_STREAM frames, any number of streams). */
static void cmd_record_absorb(struct cmd_record_state *st, struct cmd_record_source *s, size_t before)
{
	const char *p = s->r.progress;

	for (size_t i = before; i < st->tl.n; i++) {
		struct ss_record *r = &st->tl.rec[i];

		if (r->kind < SS_KIND_API && r->stream >= 0)
			r->stream = cmd_record_global(st, s, r->stream);
	}
	cmd_record_rebase(st, before);
	s->nrec += st->tl.n - before;
	if (strncmp(p, INJECT_STREAMS_PREFIX, strlen(INJECT_STREAMS_PREFIX)) == 0)
		s->loaded = true;
	for (size_t i = 0; i < s->r.nstreams; i++) {
		const struct wire_stream *ws = &s->r.streams[i];
		int32_t g;

		if (ws->index < 0 || ws->index >= SS_TIMELINE_MAX_STREAM_INFO || ws->kind >= SS_SKIND_COUNT)
			continue; /* not the library's */
		g = cmd_record_global(st, s, ws->index);
		st->kinds[g] = (char)ws->kind;
		timeline_set_stream(&st->tl, g, ws->raw_id, (int)ws->kind); /* the live view's labels */
	}
	s->r.nstreams = 0;
	if (s->r.finished && s->r.error != NULL)
		s->error = true;
	/* The library always names a device in its result: a result with one arrived. */
	if (s->r.res.device[0] != '\0') {
		s->result = true;
		if (st->tl.device[0] == '\0')
			snprintf(st->tl.device, sizeof st->tl.device, "%s", s->r.res.device);
	}
	st->tl.nstreams = st->nstreams;
}

/* Stops reading source s. */
static void cmd_record_close_source(struct cmd_record_source *s)
{
	if (s->r.fd >= 0)
		close(s->r.fd);
	s->r.fd = -1;
	s->open = false;
}

/* Reads every source that has data, and accepts --children connections. */
static void cmd_record_pump(struct cmd_record_state *st)
{
	for (int i = 0; i < st->nsrc; i++) {
		struct cmd_record_source *s = &st->src[i];
		size_t before = st->tl.n;
		int rc;

		if (!s->open)
			continue;
		rc = runner_poll(&s->r, &st->tl, false);
		cmd_record_absorb(st, s, before);
		if (rc == 1 || s->error)
			cmd_record_close_source(s);
	}
	while (st->listen_fd >= 0) {
		struct ucred cred;
		socklen_t clen = sizeof cred;
		int fd = accept4(st->listen_fd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0)
			break;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0)
			cred.pid = 0;
		cmd_record_add_source(st, cred.pid, fd);
	}
}

/* Waits up to ms for any source, the socket or a signal. */
static void cmd_record_wait(struct cmd_record_state *st, int ms)
{
	struct pollfd pfd[CMD_RECORD_MAX_SOURCES + 2];
	nfds_t n = 0;
	char buf[64];

	pfd[n++] = (struct pollfd){cmd_record_wake[0], POLLIN, 0};
	if (st->listen_fd >= 0)
		pfd[n++] = (struct pollfd){st->listen_fd, POLLIN, 0};
	for (int i = 0; i < st->nsrc; i++)
		if (st->src[i].open && st->src[i].r.fd >= 0)
			pfd[n++] = (struct pollfd){st->src[i].r.fd, POLLIN, 0};
	poll(pfd, n, ms);
	while (read(cmd_record_wake[0], buf, sizeof buf) > 0)
		;
}

/* Whether streamscope runs under a job-control shell, one that will see it stop and continue it: such a shell
 * gives each job a process group of its own in the shell's session, on a controlling terminal, and waits for it
 * with WUNTRACED. So: a controlling terminal, and a parent in the same session but in another process group.
 * Otherwise (the child of a non-interactive shell, an orphaned process group, a session with no terminal, a parent
 * that has exited) nobody would continue a stopped streamscope: SIGSTOP would stop it for good (the kernel only
 * discards SIGTSTP, SIGTTIN and SIGTTOU in an orphaned group). */
static bool cmd_record_job_control(void)
{
	pid_t parent = getppid();
	int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return getsid(parent) == getsid(0) && getpgid(parent) != getpgrp();
}

/* PROGRAM was stopped by signal sig: pass the stop on as a shell's job would. Says so in one line on stderr, then
 * under job control stops streamscope with the same signal (SIGSTOP stays SIGSTOP), so that the shell shows the
 * job stopped as it would PROGRAM alone; once streamscope is continued (fg, bg, kill -CONT), it sends SIGCONT to
 * PROGRAM (which fg has continued already; kill -CONT of streamscope alone has not) and goes on waiting. With
 * --live it stops with SIGTSTP whatever PROGRAM's signal, and prints nothing: the screen is curses', whose SIGTSTP
 * handler gives the terminal back before stopping and redraws after. Not under job control (see
 * cmd_record_job_control) streamscope does not stop (nobody would continue it): it says how to continue PROGRAM and
 * keeps waiting; PROGRAM stays stopped until someone continues it. Either way the status PROGRAM ends with is
 * passed back as before. */
static void cmd_record_stopped(struct cmd_record_state *st, int sig)
{
	bool jc = cmd_record_job_control();
	const char *abbrev = sigabbrev_np(sig);

	st->stopped = true;
	if (!st->o->live || !jc) {
		fprintf(stderr, "streamscope: record: %s (pid %ld) was stopped by SIG%s (%s); ", st->o->argv[0],
		        (long)st->pid, abbrev != NULL ? abbrev : "?", strsignal(sig));
		if (jc)
			fprintf(stderr, "stopping streamscope too (fg or bg continues both)\n");
		else
			fprintf(stderr,
			        "streamscope is not under job control and keeps waiting (continue the program with "
			        "kill -CONT %ld)\n",
			        (long)st->pid);
		fflush(stderr);
	}
	if (!jc)
		return;
	raise(st->o->live ? SIGTSTP : sig);
	kill(st->pid, SIGCONT);
}

/* Checks whether PROGRAM has exited (and reaps it), stopped or been continued. Of the changes waitpid reports, the
 * last counts: after a Ctrl-Z that stopped streamscope and PROGRAM alike and the fg that continued both, PROGRAM's
 * stop is followed by its continuation and nothing is passed on. */
static void cmd_record_reap(struct cmd_record_state *st)
{
	int status, stop = 0;

	while (!st->exited && waitpid(st->pid, &status, WNOHANG | WUNTRACED | WCONTINUED) == st->pid) {
		if (WIFSTOPPED(status)) {
			stop = WSTOPSIG(status);
		} else if (WIFCONTINUED(status)) {
			stop = 0;
			st->stopped = false;
		} else {
			st->exited = true;
			st->status = status;
		}
	}
	if (!st->exited && stop != 0)
		cmd_record_stopped(st, stop);
}

/* Whether any source is still being read. */
static int cmd_record_open_count(const struct cmd_record_state *st)
{
	int n = 0;

	for (int i = 0; i < st->nsrc; i++)
		n += st->src[i].open;
	return n;
}

/* Labels the timeline once the recording is over: incomplete when a process that started recording sent no
 * result; the dropped counts of those that did. */
static void cmd_record_mark(struct cmd_record_state *st)
{
	st->tl.incomplete = false;
	st->tl.dropped = 0;
	for (int i = 0; i < st->nsrc; i++) {
		const struct cmd_record_source *s = &st->src[i];

		if (s->loaded && !s->result)
			st->tl.incomplete = true;
		if (s->result)
			st->tl.dropped += s->r.res.dropped;
	}
}

/* The live view's hook: reads what arrived and tells whether the recording is over. */
static bool cmd_record_live_poll(void *ctx, int wait_ms);

/* Runs until PROGRAM has exited and every stream has ended (or, for streams held open by other processes, a grace
 * period has passed; for --children stragglers, until they end or the user interrupts). */
static void cmd_record_loop(struct cmd_record_state *st)
{
	while (!cmd_record_live_poll(st, 250))
		;
}

static bool cmd_record_live_poll(void *ctx, int wait_ms)
{
	struct cmd_record_state *st = ctx;
	uint64_t now;

	if (st->done)
		return true;
	cmd_record_wait(st, wait_ms);
	if (cmd_record_forward != 0 && !st->exited) {
		kill(st->pid, cmd_record_forward);
		if (st->stopped)
			kill(st->pid, SIGCONT); /* as a shell's kill does: a stopped program would not see the signal */
		cmd_record_forward = 0;
	}
	cmd_record_pump(st);
	if (!st->exited) {
		cmd_record_reap(st);
		if (st->exited) {
			st->exit_ms = cmd_record_now_ms();
			cmd_record_pump(st); /* what it wrote just before exiting */
		}
		return false;
	}
	now = cmd_record_now_ms();
	/* PROGRAM's own stream: complete with its result; nothing more can come once it has exited. */
	if (st->nsrc > 0 && st->src[0].open && (st->src[0].result || now - st->exit_ms >= CMD_RECORD_GRACE_MS))
		cmd_record_close_source(&st->src[0]);
	for (int i = 1; i < st->nsrc; i++)
		if (st->src[i].open && st->src[i].result)
			cmd_record_close_source(&st->src[i]);
	if (cmd_record_open_count(st) == 0 || cmd_record_interrupted) {
		for (int i = 0; i < st->nsrc; i++)
			cmd_record_close_source(&st->src[i]);
		cmd_record_mark(st);
		return st->done = true;
	}
	if (!st->noted && now - st->exit_ms >= 2000 && st->o->children && !st->o->live) {
		int left = cmd_record_open_count(st);

		fprintf(stderr,
		        "streamscope: %s exited; waiting for %d recorded child process%s (Ctrl-C stops "
		        "waiting)\n",
		        st->o->argv[0], left, left == 1 ? "" : "es");
		st->noted = true;
	}
	return false;
}

/* The child side of the fork: environment, output, exec. Reports an exec failure's errno on errfd. */
static void cmd_record_exec_child(struct cmd_record_state *st, int wfd, int errfd, const char *library,
                                  const char *cupti, const char *logpath)
{
	char num[32];
	sigset_t none;
	int e;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	setenv("CUDA_INJECTION64_PATH", library, 1);
	if (*cupti != '\0')
		setenv("NVTX_INJECTION64_PATH", cupti, 1);
	snprintf(num, sizeof num, "%d", wfd);
	setenv(INJECT_ENV_FD, num, 1);
	snprintf(num, sizeof num, "%ld", (long)getpid());
	setenv(INJECT_ENV_PID, num, 1);
	if (st->o->children)
		setenv(INJECT_ENV_SOCK, st->sockpath, 1);
	else
		unsetenv(INJECT_ENV_SOCK);
	if (getenv(INJECT_ENV_FLUSH_MS) == NULL)
		setenv(INJECT_ENV_FLUSH_MS, st->o->live ? "100" : "500", 1);
	if (logpath != NULL) {
		int lfd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		int nfd = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (lfd >= 0) {
			dup2(lfd, STDOUT_FILENO);
			dup2(lfd, STDERR_FILENO);
		}
		if (nfd >= 0)
			dup2(nfd, STDIN_FILENO);
	}
	execvp(st->o->argv[0], st->o->argv);
	e = errno;
	if (write(errfd, &e, sizeof e) < 0) {
		/* the parent sees a short read and reports exit status 127 */
	}
	_exit(127);
}

/* Copies s to out (len bytes) with control characters written as \r, \t or \xNN: a name as the user should see it. */
static void cmd_record_visible(const char *s, char *out, size_t len)
{
	size_t n = 0;

	for (; *s != '\0' && n + 5 < len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\r')
			n += (size_t)snprintf(out + n, len - n, "\\r");
		else if (c == '\t')
			n += (size_t)snprintf(out + n, len - n, "\\t");
		else if (c < 0x20 || c == 0x7f)
			n += (size_t)snprintf(out + n, len - n, "\\x%02x", c);
		else
			out[n++] = (char)c;
	}
	out[n] = '\0';
}

/* The file execvp ran for name: name itself when it has a '/', else the first regular file of that name in $PATH
 * (execvp's default path when unset; an empty entry is the current directory). A new string, NULL when none. */
static char *cmd_record_which(const char *name)
{
	const char *path = getenv("PATH");
	char defpath[256];
	struct stat sb;

	if (strchr(name, '/') != NULL)
		return stat(name, &sb) == 0 ? xstrdup(name) : NULL;
	if (path == NULL) {
		if (confstr(_CS_PATH, defpath, sizeof defpath) == 0)
			snprintf(defpath, sizeof defpath, "/bin:/usr/bin");
		path = defpath;
	}
	for (const char *p = path;;) {
		const char *end = strchr(p, ':');
		int len = end != NULL ? (int)(end - p) : (int)strlen(p);
		char *cand = len == 0 ? xasprintf("./%s", name) : xasprintf("%.*s/%s", len, p, name);

		if (stat(cand, &sb) == 0 && S_ISREG(sb.st_mode))
			return cand;
		free(cand);
		if (end == NULL)
			return NULL;
		p = end + 1;
	}
}

/* The program loader (PT_INTERP) the 64-bit ELF file open on fd names, into out; -1 when it is no such file or names
 * none. */
static int cmd_record_elf_interp(int fd, char *out, size_t len)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof ph)
		return -1;
	for (int i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (uint64_t)i * sizeof ph)) != (ssize_t)sizeof ph)
			return -1;
		if (ph.p_type != PT_INTERP)
			continue;
		if (ph.p_filesz == 0 || ph.p_filesz >= len ||
		    pread(fd, out, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz)
			return -1;
		out[ph.p_filesz] = '\0';
		return 0;
	}
	return -1;
}

/* Why exec said ENOENT for name, as one line (a new string): the program is not there (no such file, or not in
 * $PATH), or it is, and what it needs is not: the interpreter its #! line names, or the program loader of an ELF
 * binary (one built for another system). The kernel says ENOENT in each case without saying which file. */
static char *cmd_record_enoent(const char *name)
{
	char *file = cmd_record_which(name), *shown, *msg, head[PATH_MAX + 8], need[PATH_MAX], vis[PATH_MAX * 4 + 8];
	struct stat sb;
	ssize_t n = 0;
	int fd;

	if (file == NULL)
		return strchr(name, '/') != NULL ? xasprintf("cannot run '%s': no such file", name)
		                                 : xasprintf("cannot run '%s': no such program in PATH", name);
	shown = strcmp(file, name) == 0 ? xasprintf("'%s'", name) : xasprintf("'%s' (%s)", name, file);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		n = pread(fd, head, sizeof head - 1, 0);
	head[n > 0 ? n : 0] = '\0';
	if (n > 2 && head[0] == '#' && head[1] == '!') {
		/* the kernel's reading: blanks, then the interpreter up to a blank or the line's end ('\r' included) */
		char *p = head + 2 + strspn(head + 2, " \t");

		p[strcspn(p, " \t\n")] = '\0';
		cmd_record_visible(p, vis, sizeof vis);
		if (*p == '\0')
			msg = xasprintf("cannot run %s: its #! line names no interpreter", shown);
		else if (stat(p, &sb) != 0)
			msg = xasprintf(
			    "cannot run %s: its interpreter '%s' (on its #! line) does not exist%s", shown, vis,
			    strchr(p, '\r') != NULL ? "; the line ends in a carriage return (DOS line endings)" : "");
		else
			msg = xasprintf("cannot run %s: its interpreter '%s' (on its #! line) cannot be started: %s",
			                shown, vis, strerror(ENOENT));
	} else if (fd >= 0 && cmd_record_elf_interp(fd, need, sizeof need) == 0 && stat(need, &sb) != 0) {
		cmd_record_visible(need, vis, sizeof vis);
		msg = xasprintf("cannot run %s: its program loader '%s' does not exist (a binary for another system?)",
		                shown, vis);
	} else {
		msg = xasprintf("cannot run %s: %s", shown, strerror(ENOENT));
	}
	if (fd >= 0)
		close(fd);
	free(shown);
	free(file);
	return msg;
}

/* Starts PROGRAM. Returns 0, or the exit status to return (127, 126, 3) after printing why. */
static int cmd_record_start(struct cmd_record_state *st, const char *logpath)
{
	char library[PATH_MAX], cupti[PATH_MAX];
	char *cause = NULL;
	int pfd[2], errp[2], e = 0;
	ssize_t n;

	if (cmd_record_find_library(library, sizeof library, &cause) != 0) {
		fprintf(stderr, "streamscope: record: %s\n", cause);
		free(cause);
		return CLI_CUDA;
	}
	if (cmd_record_find_cupti(library, cupti) != 0)
		fprintf(stderr, "streamscope: record: libcupti.so not found (set STREAMSCOPE_CUPTI): NVTX ranges will "
		                "not be recorded\n");
	if (st->o->children && cmd_record_listen(st, &cause) != 0) {
		fprintf(stderr, "streamscope: record: %s\n", cause);
		free(cause);
		return CLI_FAIL;
	}
	if (pipe(pfd) != 0 || pipe2(errp, O_CLOEXEC) != 0) {
		fprintf(stderr, "streamscope: record: cannot create a pipe: %s\n", strerror(errno));
		return CLI_FAIL;
	}
	fflush(NULL);
	st->pid = fork();
	if (st->pid < 0) {
		fprintf(stderr, "streamscope: record: cannot fork: %s\n", strerror(errno));
		return CLI_FAIL;
	}
	if (st->pid == 0) {
		close(pfd[0]);
		close(errp[0]);
		if (st->listen_fd >= 0)
			close(st->listen_fd);
		cmd_record_exec_child(st, pfd[1], errp[1], library, cupti, logpath);
	}
	close(pfd[1]);
	close(errp[1]);
	while ((n = read(errp[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(errp[0]);
	if (n == (ssize_t)sizeof e) {
		close(pfd[0]);
		while (waitpid(st->pid, NULL, 0) < 0 && errno == EINTR)
			;
		if (e == ENOENT) {
			char *why = cmd_record_enoent(st->o->argv[0]);

			fprintf(stderr, "streamscope: record: %s\n", why);
			free(why);
			return 127;
		}
		fprintf(stderr, "streamscope: record: cannot run '%s': %s\n", st->o->argv[0], strerror(e));
		return 126;
	}
	cmd_record_add_source(st, st->pid, pfd[0]);
	return 0;
}

/* The plural ending of a count's noun: "" for 1, else "s" ("1 kernel", "2 kernels"). */
static const char *cmd_record_s(size_t n)
{
	return n == 1 ? "" : "s";
}

/* The pid of a lane's process for --children ("" otherwise), as ", pid N". */
static void cmd_record_lane_pid(const struct cmd_record_state *st, int32_t stream, char *buf, size_t len)
{
	buf[0] = '\0';
	if (st->o->children && stream >= 0 && stream < st->nstreams)
		snprintf(buf, len, ", pid %ld", (long)st->spid[stream]);
}

/* Most streams the summary names one by one; the rest are counted. */
#define CMD_RECORD_TOP_STREAMS 8

/* Prints the streams as a short table whatever their number (at most 4 + SS_SKIND_COUNT + CMD_RECORD_TOP_STREAMS
 * lines): a line of counts by kind, busy time and GPU records per kind, then the busiest streams with their index,
 * CUPTI id and work, and how many more there are. */
static void cmd_record_print_streams(const struct cmd_record_state *st, const char *out)
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

/* Drops the stream indices that carry no GPU work (streams CUDA or the program created but never used) and
 * renumbers the others 0..n-1 in their old order, so the view and the trace show the program's working streams. */
static void cmd_record_compact(struct cmd_record_state *st)
{
	struct ss_timeline *t = &st->tl;
	int32_t *map = xcalloc((size_t)st->nstreams + 1, sizeof *map);
	bool *used = xcalloc((size_t)st->nstreams + 1, sizeof *used);
	int n = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->stream >= 0 && r->stream < st->nstreams && r->kind < SS_KIND_COUNT &&
		    (SS_GPU_KINDS & SS_KIND_BIT(r->kind)))
			used[r->stream] = true;
	}
	for (int s = 0; s < st->nstreams; s++) {
		map[s] = used[s] ? n : SS_STREAM_UNKNOWN;
		if (used[s]) {
			st->kinds[n] = st->kinds[s];
			st->spid[n] = st->spid[s];
			n++;
		}
	}
	for (size_t i = 0; i < t->n; i++) {
		struct ss_record *r = &t->rec[i];

		if (r->stream >= 0 && r->stream < st->nstreams)
			r->stream = map[r->stream];
	}
	st->nstreams = n;
	free(map);
	free(used);
}

/* Labels the timeline's streams (after cmd_record_compact): kind from the library's stream table, raw id from the
 * first GPU record of each (with --children, ids of different processes may coincide: the index tells them
 * apart). */
static void cmd_record_label_streams(struct cmd_record_state *st)
{
	struct ss_timeline *t = &st->tl;
	uint32_t *raw = xcalloc((size_t)st->nstreams + 1, sizeof *raw);
	bool *have = xcalloc((size_t)st->nstreams + 1, sizeof *have);

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->stream >= 0 && r->stream < st->nstreams && r->kind < SS_KIND_API && !have[r->stream]) {
			have[r->stream] = true;
			raw[r->stream] = r->raw_stream;
		}
	}
	t->nstream_info = 0; /* the live view's labels used the indices before compaction */
	for (int s = 0; s < st->nstreams; s++)
		timeline_set_stream(t, s, raw[s], st->kinds[s]);
	free(raw);
	free(have);
}

/* Writes the trace and prints the summary. Returns 0, or CLI_FAIL when the trace could not be written. */
static int cmd_record_finish(struct cmd_record_state *st, const char *out, int *nothing)
{
	struct ss_timeline *t = &st->tl;
	struct ss_export_input in;
	char label[256], what[96], *cause = NULL;
	uint64_t t0, t1;
	const char *device = NULL;
	int loaded = 0, complete = 0, errors = 0;
	size_t ranges = 0;

	for (int i = 0; i < st->nsrc; i++) {
		const struct cmd_record_source *s = &st->src[i];

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
		if (errors == 0 && loaded == 0)
			/* CUDA loads the library when it initialises: a program that never did made no CUDA call
			 * (or its CUDA failed before it started, which the program's own errors say) */
			fprintf(stderr,
			        "streamscope: nothing recorded: %s made no CUDA calls%s (CUDA was never "
			        "initialised) and %s; no trace written%s\n",
			        st->o->argv[0], st->o->children ? ", nor did the processes it started" : "", what,
			        st->o->children ? ""
			                        : " (only the launched process is recorded: --children adds the "
			                          "CUDA processes it starts)");
		else if (errors == 0)
			fprintf(stderr,
			        "streamscope: nothing recorded: %s %s; CUDA started but no GPU work or API call "
			        "arrived%s; no trace written\n",
			        st->o->argv[0], what, complete < loaded ? " (it ended before the first delivery)" : "");
		return 0;
	}
	timeline_sort(t);
	timeline_sync_threads(t);
	if (timeline_span(t, (1u << SS_KIND_COUNT) - 1, &t0, &t1))
		timeline_rebase(t, t0);
	cmd_record_compact(st);
	t->nstreams = st->nstreams;
	cmd_record_label_streams(st);
	cmd_record_mark(st);
	snprintf(t->backend, sizeof t->backend, "cuda");
	snprintf(t->device, sizeof t->device, "%s", device != NULL ? device : "CUDA device");
	ranges = timeline_count(t, SS_KIND_MARKER);
	{
		size_t nk = timeline_count(t, SS_KIND_KERNEL), nm = timeline_count(t, SS_KIND_MEMSET);
		size_t na = timeline_count(t, SS_KIND_API), ns = timeline_count(t, SS_KIND_SYNC);

		fprintf(stderr,
		        "streamscope: recorded %s (%d process%s) on %s: %zu record%s: %zu kernel%s, %zu H2D, %zu D2H, "
		        "%zu D2D, %zu memset%s, %zu NVTX range%s, %zu API call%s, %zu sync%s; %llu dropped%s\n",
		        st->o->argv[0], loaded, loaded == 1 ? "" : "es", t->device, t->n, cmd_record_s(t->n), nk,
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
		        st->o->argv[0], what);
	memset(&in, 0, sizeof in);
	in.t = t;
	snprintf(label, sizeof label, "measured: CUDA+CUPTI on %s, recorded %s%s", t->device, st->o->argv[0],
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

/* Checks that directory dir can take a new file for path (the user's name, for the message): it exists, is a
 * directory and a file can be created in it, tried with a probe file that is removed at once (the only test that
 * sees read-only mounts, ACLs and deleted working directories as the real write will). 0, or -1 with *cause. */
static int cmd_record_check_dir(const char *path, const char *dir, char **cause)
{
	struct stat sb;
	char *probe;
	int fd;

	if (stat(dir, &sb) != 0) {
		if (errno == ENOENT)
			*cause = xasprintf("cannot write '%s': the directory '%s' does not exist", path, dir);
		else if (errno == ENOTDIR)
			*cause = xasprintf("cannot write '%s': a part of '%s' is not a directory", path, dir);
		else
			*cause = xasprintf("cannot write '%s': cannot reach the directory '%s': %s", path, dir,
			                   strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		*cause = xasprintf("cannot write '%s': '%s' is not a directory", path, dir);
		return -1;
	}
	probe = xasprintf("%s/.streamscope-probe-XXXXXX", dir);
	fd = mkostemp(probe, O_CLOEXEC);
	if (fd < 0) {
		*cause = xasprintf("cannot write '%s': cannot create a file in '%s': %s", path, dir, strerror(errno));
		free(probe);
		return -1;
	}
	close(fd);
	unlink(probe);
	free(probe);
	return 0;
}

/* Checks, before PROGRAM starts, that record can write path the way it will (the trace through export_file: a
 * temporary file in path's directory renamed over path; the --live log: opened in place): path is not a directory
 * nor an existing file the user may not write, and its directory (and a symlink's target's) can take a new file.
 * A small check of record's own; the other subcommands check their outputs in src/cli/cli.c. 0, or -1 with *cause
 * naming path and what is wrong. */
static int cmd_record_check_output(const char *path, char **cause)
{
	struct stat sb;
	char *copy, *real = NULL;
	int rc;

	if (stat(path, &sb) == 0) {
		if (S_ISDIR(sb.st_mode)) {
			*cause = xasprintf("cannot write '%s': it is a directory", path);
			return -1;
		}
		if (access(path, W_OK) != 0) {
			*cause = xasprintf("cannot write '%s': %s", path, strerror(errno));
			return -1;
		}
	}
	copy = xstrdup(path);
	rc = cmd_record_check_dir(path, dirname(copy), cause);
	free(copy);
	if (rc == 0 && lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode) && (real = realpath(path, NULL)) != NULL)
		rc = cmd_record_check_dir(path, dirname(real), cause);
	free(real);
	return rc;
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
	struct cmd_record_state st;
	char defname[64], *logpath = NULL;
	const char *out;
	int rc, status = 0, nothing = 0;

	rc = cmd_record_opts(args, &o);
	if (rc != 0)
		return rc;
	if (o.live && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "streamscope: record --live needs a terminal (stdin and stdout); without --live the "
		                "trace is written all the same\n");
		return CLI_USAGE;
	}
	cmd_record_default_name(defname, sizeof defname);
	out = o.out != NULL ? o.out : defname;
	if (o.live)
		logpath = xasprintf("%s.log", out);
	{
		char *cause = NULL;

		if (cmd_record_check_output(out, &cause) != 0 ||
		    (logpath != NULL && cmd_record_check_output(logpath, &cause) != 0)) {
			fprintf(stderr, "streamscope: record: %s\n", cause);
			free(cause);
			free(logpath);
			return CLI_USAGE;
		}
	}
	memset(&st, 0, sizeof st);
	st.o = &o;
	st.listen_fd = -1;
	timeline_init(&st.tl);
	st.tl.stream_ids = true; /* the program's own streams: the live view and the trace name them by CUPTI id */
	if (pipe2(cmd_record_wake, O_CLOEXEC | O_NONBLOCK) != 0) {
		fprintf(stderr, "streamscope: record: cannot create a pipe: %s\n", strerror(errno));
		free(logpath);
		return CLI_FAIL;
	}
	cmd_record_signals(true);
	rc = cmd_record_start(&st, logpath);
	if (rc != 0)
		goto done;
	if (o.live) {
		char *cause = NULL;

		if (live_run(&st.tl, cmd_record_live_poll, &st, o.argv[0], &cmd_record_ending, &cause) != 0) {
			fprintf(stderr, "streamscope: record: no live view (%s); recording goes on\n", cause);
			free(cause);
		} else if (!st.done) {
			fprintf(stderr, "streamscope: record: live view closed; recording %s goes on until it exits\n",
			        o.argv[0]);
		}
	}
	cmd_record_loop(&st); /* returns at once when the live view saw the end */
	rc = cmd_record_finish(&st, out, &nothing);
	if (logpath != NULL)
		fprintf(stderr, "streamscope: the output of %s is in %s\n", o.argv[0], logpath);
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
	cmd_record_signals(false);
	cmd_record_unlisten(&st);
	for (int i = 0; i < st.nsrc; i++) {
		runner_free(&st.src[i].r);
		free(st.src[i].map);
	}
	free(st.kinds);
	free(st.spid);
	free(logpath);
	timeline_free(&st.tl);
	close(cmd_record_wake[0]);
	close(cmd_record_wake[1]);
	cmd_record_wake[0] = cmd_record_wake[1] = -1;
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
            "job does; continued, it continues PROGRAM.",
    .exits = "PROGRAM's own (128+N when signal N killed it); 127 PROGRAM not found, 126 not executable; 1\n"
             "PROGRAM succeeded but the trace could not be written; 2 usage error, or FILE (or FILE.log for\n"
             "--live) cannot be written, checked before PROGRAM starts; 3 no CUDA/CUPTI in this build, the\n"
             "injection library is missing, or CUPTI could not be set up in a PROGRAM that succeeded",
    .exec = cmd_record_exec,
};
