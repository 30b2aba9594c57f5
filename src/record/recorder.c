/* recorder.c: recording a CUDA program (see recorder.h). */
#include "record/recorder.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/vec.h"
#include "core/xalloc.h"
#include "record/contract.h"

/* Signals the parent saw; the handlers only record them (and wake the loop through the self-pipe). */
static volatile sig_atomic_t recorder_interrupted, recorder_forward;
static volatile sig_atomic_t recorder_ending; /* any of them came: the live view closes once the recording is over */
static int recorder_wake[2] = {-1, -1};

/* recorder_on_signal only sets flags (ending; interrupted for SIGINT and SIGQUIT; SIGTERM and SIGHUP to forward to
 * the program) and wakes the loop through the self-pipe, errno kept. */
static void recorder_on_signal(int sig)
{
	int saved = errno;

	if (sig != SIGCHLD)
		recorder_ending = 1;
	if (sig == SIGINT || sig == SIGQUIT)
		recorder_interrupted = 1;
	else if (sig == SIGTERM || sig == SIGHUP)
		recorder_forward = sig;
	if (recorder_wake[1] >= 0 && write(recorder_wake[1], "x", 1) < 0) {
		/* the pipe is full: the loop is awake anyway */
	}
	errno = saved;
}

/* Installs (on) the parent's handlers for SIGCHLD, SIGINT, SIGQUIT, SIGTERM, SIGHUP (an ignored one stays ignored,
 * and so it is for PROGRAM: nohup streamscope record ...), or puts back (off) the actions they replaced (sigexit's:
 * a signal after the recording still cleans up on its way out). */
static void recorder_signals(bool on)
{
	static const int sigs[] = {SIGCHLD, SIGINT, SIGQUIT, SIGTERM, SIGHUP};
	static struct sigaction old[sizeof sigs / sizeof *sigs];
	static bool saved;
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = recorder_on_signal;
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

static uint64_t recorder_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t recorder_now_ms(void)
{
	return recorder_now_ns() / 1000000u;
}

/* The directory of the running streamscope binary, "" when /proc does not say. */
static void recorder_exe_dir(char *buf, size_t len)
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
static int recorder_find_library(char *out, size_t len, char **cause)
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
	recorder_exe_dir(dir, sizeof dir);
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
static int recorder_cupti_visit(struct dl_phdr_info *info, size_t size, void *data)
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
static int recorder_find_cupti(const char *library, char *out)
{
	const char *env = getenv("STREAMSCOPE_CUPTI");
	void *h;

	out[0] = '\0';
	if (env != NULL && *env != '\0') {
		snprintf(out, PATH_MAX, "%s", env);
		return 0;
	}
	if (dl_iterate_phdr(recorder_cupti_visit, out) == 1)
		return 0;
	/* Loading the library runs none of its code: it has no constructor; InitializeInjection is CUDA's to call. */
	h = dlopen(library, RTLD_LAZY | RTLD_LOCAL);
	if (h != NULL && dl_iterate_phdr(recorder_cupti_visit, out) == 1)
		return 0;
	return -1;
}

/* Opens the --children socket in a private directory. 0, or -1 with *cause. */
static int recorder_listen(struct recorder *st, char **cause)
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

/* recorder_unlisten closes the listening socket and removes its path and folder; safe to call twice. */
static void recorder_unlisten(struct recorder *st)
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
static struct recorder_source *recorder_add_source(struct recorder *st, pid_t pid, int fd)
{
	struct recorder_source *s;

	if (st->nsrc == RECORDER_MAX_SOURCES) {
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
static int32_t recorder_global(struct recorder *st, struct recorder_source *s, int32_t local)
{
	if (local < 0)
		return local;
	while (s->nmap <= local) {
		VEC_RESERVE(st->kinds, st->nstreams, st->kinds_cap, 1, 16);
		VEC_RESERVE(st->spid, st->nstreams, st->spid_cap, 1, 16);
		st->kinds[st->nstreams] = SS_SKIND_UNKNOWN;
		st->spid[st->nstreams] = s->pid;
		*VEC_PUSH(s->map, s->nmap, s->map_cap, 16) = st->nstreams++;
	}
	return s->map[local];
}

/* Makes the records from index from on relative to the earliest record seen: when one starts before the current
 * base, everything before it moves up (rare: buffers of other threads arrive late). The live view needs small
 * times (doubles), the trace starts at 0 either way. */
static void recorder_rebase(struct recorder *st, size_t from)
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
static void recorder_absorb(struct recorder *st, struct recorder_source *s, size_t before)
{
	const char *p = s->r.progress;

	for (size_t i = before; i < st->tl.n; i++) {
		struct ss_record *r = &st->tl.rec[i];

		if (r->kind < SS_KIND_API && r->stream >= 0)
			r->stream = recorder_global(st, s, r->stream);
	}
	recorder_rebase(st, before);
	s->nrec += st->tl.n - before;
	if (strncmp(p, INJECT_STREAMS_PREFIX, strlen(INJECT_STREAMS_PREFIX)) == 0)
		s->loaded = true;
	for (size_t i = 0; i < s->r.nstreams; i++) {
		const struct wire_stream *ws = &s->r.streams[i];
		int32_t g;

		if (ws->index < 0 || ws->index >= SS_TIMELINE_MAX_STREAM_INFO || ws->kind >= SS_SKIND_COUNT)
			continue; /* not the library's */
		g = recorder_global(st, s, ws->index);
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
static void recorder_close_source(struct recorder_source *s)
{
	if (s->r.fd >= 0)
		close(s->r.fd);
	s->r.fd = -1;
	s->open = false;
}

/* Reads every source that has data, and accepts --children connections. */
static void recorder_pump(struct recorder *st)
{
	for (int i = 0; i < st->nsrc; i++) {
		struct recorder_source *s = &st->src[i];
		size_t before = st->tl.n;
		int rc;

		if (!s->open)
			continue;
		rc = runner_poll(&s->r, &st->tl, false);
		recorder_absorb(st, s, before);
		if (rc == 1 || s->error)
			recorder_close_source(s);
	}
	while (st->listen_fd >= 0) {
		struct ucred cred;
		socklen_t clen = sizeof cred;
		int fd = accept4(st->listen_fd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0)
			break;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0)
			cred.pid = 0;
		recorder_add_source(st, cred.pid, fd);
	}
}

/* Waits up to ms for any source, the socket or a signal. */
static void recorder_wait(struct recorder *st, int ms)
{
	struct pollfd pfd[RECORDER_MAX_SOURCES + 2];
	nfds_t n = 0;
	char buf[64];

	pfd[n++] = (struct pollfd){recorder_wake[0], POLLIN, 0};
	if (st->listen_fd >= 0)
		pfd[n++] = (struct pollfd){st->listen_fd, POLLIN, 0};
	for (int i = 0; i < st->nsrc; i++)
		if (st->src[i].open && st->src[i].r.fd >= 0)
			pfd[n++] = (struct pollfd){st->src[i].r.fd, POLLIN, 0};
	poll(pfd, n, ms);
	while (read(recorder_wake[0], buf, sizeof buf) > 0)
		;
}

/* Whether streamscope runs under a job-control shell, one that will see it stop and continue it: such a shell
 * gives each job a process group of its own in the shell's session, on a controlling terminal, and waits for it
 * with WUNTRACED. So: a controlling terminal, and a parent in the same session but in another process group.
 * Otherwise (the child of a non-interactive shell, an orphaned process group, a session with no terminal, a parent
 * that has exited) nobody would continue a stopped streamscope: SIGSTOP would stop it for good (the kernel only
 * discards SIGTSTP, SIGTTIN and SIGTTOU in an orphaned group). */
static bool recorder_job_control(void)
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
 * recorder_job_control) streamscope does not stop (nobody would continue it): it says how to continue PROGRAM and
 * keeps waiting; PROGRAM stays stopped until someone continues it. Either way the status PROGRAM ends with is
 * passed back as before. */
static void recorder_stopped(struct recorder *st, int sig)
{
	bool jc = recorder_job_control();
	const char *abbrev = sigabbrev_np(sig);

	st->stopped = true;
	if (!st->live || !jc) {
		fprintf(stderr, "streamscope: record: %s (pid %ld) was stopped by SIG%s (%s); ", st->argv[0],
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
	raise(st->live ? SIGTSTP : sig);
	kill(st->pid, SIGCONT);
}

/* Checks whether PROGRAM has exited (and reaps it), stopped or been continued. Of the changes waitpid reports, the
 * last counts: after a Ctrl-Z that stopped streamscope and PROGRAM alike and the fg that continued both, PROGRAM's
 * stop is followed by its continuation and nothing is passed on. */
static void recorder_reap(struct recorder *st)
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
		recorder_stopped(st, stop);
}

/* Whether any source is still being read. */
static int recorder_open_count(const struct recorder *st)
{
	int n = 0;

	for (int i = 0; i < st->nsrc; i++)
		n += st->src[i].open;
	return n;
}

/* Labels the timeline once the recording is over: incomplete when a process that started recording sent no
 * result; the dropped counts of those that did. */
static void recorder_mark(struct recorder *st)
{
	st->tl.incomplete = false;
	st->tl.dropped = 0;
	for (int i = 0; i < st->nsrc; i++) {
		const struct recorder_source *s = &st->src[i];

		if (s->loaded && !s->result)
			st->tl.incomplete = true;
		if (s->result)
			st->tl.dropped += s->r.res.dropped;
	}
}

/* Runs until PROGRAM has exited and every stream has ended (or, for streams held open by other processes, a grace
 * period has passed; for --children stragglers, until they end or the user interrupts). */
void recorder_loop(struct recorder *st)
{
	while (!recorder_poll(st, 250))
		;
}

bool recorder_poll(void *ctx, int wait_ms)
{
	struct recorder *st = ctx;
	uint64_t now;

	if (st->done)
		return true;
	recorder_wait(st, wait_ms);
	if (recorder_forward != 0 && !st->exited) {
		kill(st->pid, recorder_forward);
		if (st->stopped)
			kill(st->pid, SIGCONT); /* as a shell's kill does: a stopped program would not see the signal */
		recorder_forward = 0;
	}
	recorder_pump(st);
	if (!st->exited) {
		recorder_reap(st);
		if (st->exited) {
			st->exit_ns = recorder_now_ns();
			st->exit_ms = st->exit_ns / 1000000u;
			recorder_pump(st); /* what it wrote just before exiting */
		}
		return false;
	}
	now = recorder_now_ms();
	/* PROGRAM's own stream: complete with its result; nothing more can come once it has exited. */
	if (st->nsrc > 0 && st->src[0].open && (st->src[0].result || now - st->exit_ms >= RECORDER_GRACE_MS))
		recorder_close_source(&st->src[0]);
	for (int i = 1; i < st->nsrc; i++)
		if (st->src[i].open && st->src[i].result)
			recorder_close_source(&st->src[i]);
	if (recorder_open_count(st) == 0 || recorder_interrupted) {
		for (int i = 0; i < st->nsrc; i++)
			recorder_close_source(&st->src[i]);
		recorder_mark(st);
		return st->done = true;
	}
	if (!st->noted && now - st->exit_ms >= 2000 && st->children && !st->live) {
		int left = recorder_open_count(st);

		fprintf(stderr,
		        "streamscope: %s exited; waiting for %d recorded child process%s (Ctrl-C stops "
		        "waiting)\n",
		        st->argv[0], left, left == 1 ? "" : "es");
		st->noted = true;
	}
	return false;
}

/* The child side of the fork: environment, output, exec. Reports an exec failure's errno on errfd. */
static void recorder_exec_child(struct recorder *st, int wfd, int errfd, const char *library, const char *cupti,
                                const char *logpath)
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
	if (st->children)
		setenv(INJECT_ENV_SOCK, st->sockpath, 1);
	else
		unsetenv(INJECT_ENV_SOCK);
	if (getenv(INJECT_ENV_FLUSH_MS) == NULL)
		setenv(INJECT_ENV_FLUSH_MS, st->live ? "100" : "500", 1);
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
	execvp(st->argv[0], st->argv);
	e = errno;
	if (write(errfd, &e, sizeof e) < 0) {
		/* the parent sees a short read and reports exit status 127 */
	}
	_exit(127);
}

/* Copies s to out (len bytes) with control characters written as \r, \t or \xNN: a name as the user should see it. */
static void recorder_visible(const char *s, char *out, size_t len)
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
static char *recorder_which(const char *name)
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
static int recorder_elf_interp(int fd, char *out, size_t len)
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
static char *recorder_enoent(const char *name)
{
	char *file = recorder_which(name), *shown, *msg, head[PATH_MAX + 8], need[PATH_MAX], vis[PATH_MAX * 4 + 8];
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
		recorder_visible(p, vis, sizeof vis);
		if (*p == '\0')
			msg = xasprintf("cannot run %s: its #! line names no interpreter", shown);
		else if (stat(p, &sb) != 0)
			msg = xasprintf(
			    "cannot run %s: its interpreter '%s' (on its #! line) does not exist%s", shown, vis,
			    strchr(p, '\r') != NULL ? "; the line ends in a carriage return (DOS line endings)" : "");
		else
			msg = xasprintf("cannot run %s: its interpreter '%s' (on its #! line) cannot be started: %s",
			                shown, vis, strerror(ENOENT));
	} else if (fd >= 0 && recorder_elf_interp(fd, need, sizeof need) == 0 && stat(need, &sb) != 0) {
		recorder_visible(need, vis, sizeof vis);
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
int recorder_start(struct recorder *st, const char *logpath)
{
	char library[PATH_MAX], cupti[PATH_MAX];
	char *cause = NULL;
	int pfd[2], errp[2], e = 0;
	ssize_t n;

	if (recorder_find_library(library, sizeof library, &cause) != 0) {
		fprintf(stderr, "streamscope: record: %s\n", cause);
		free(cause);
		return 3;
	}
	if (recorder_find_cupti(library, cupti) != 0)
		fprintf(stderr, "streamscope: record: libcupti.so not found (set STREAMSCOPE_CUPTI): NVTX ranges will "
		                "not be recorded\n");
	if (st->children && recorder_listen(st, &cause) != 0) {
		fprintf(stderr, "streamscope: record: %s\n", cause);
		free(cause);
		return 1;
	}
	if (pipe(pfd) != 0 || pipe2(errp, O_CLOEXEC) != 0) {
		fprintf(stderr, "streamscope: record: cannot create a pipe: %s\n", strerror(errno));
		return 1;
	}
	fflush(NULL);
	st->start_ns = recorder_now_ns();
	st->pid = fork();
	if (st->pid < 0) {
		fprintf(stderr, "streamscope: record: cannot fork: %s\n", strerror(errno));
		return 1;
	}
	if (st->pid == 0) {
		close(pfd[0]);
		close(errp[0]);
		if (st->listen_fd >= 0)
			close(st->listen_fd);
		recorder_exec_child(st, pfd[1], errp[1], library, cupti, logpath);
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
			char *why = recorder_enoent(st->argv[0]);

			fprintf(stderr, "streamscope: record: %s\n", why);
			free(why);
			return 127;
		}
		fprintf(stderr, "streamscope: record: cannot run '%s': %s\n", st->argv[0], strerror(e));
		return 126;
	}
	recorder_add_source(st, st->pid, pfd[0]);
	return 0;
}

/* Drops the stream indices that carry no GPU work (streams CUDA or the program created but never used) and
 * renumbers the others 0..n-1 in their old order, so the view and the trace show the program's working streams. */
static void recorder_compact(struct recorder *st)
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

/* Labels the timeline's streams (after recorder_compact): kind from the library's stream table, raw id from the
 * first GPU record of each (with --children, ids of different processes may coincide: the index tells them
 * apart). */
static void recorder_label_streams(struct recorder *st)
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

int recorder_open(struct recorder *st, char **argv, bool children, bool live, char **cause)
{
	memset(st, 0, sizeof *st);
	st->argv = argv;
	st->children = children;
	st->live = live;
	st->listen_fd = -1;
	timeline_init(&st->tl);
	st->tl.stream_ids = true; /* the program's own streams: the live view and the trace name them by CUPTI id */
	if (pipe2(recorder_wake, O_CLOEXEC | O_NONBLOCK) != 0) {
		*cause = xasprintf("cannot create a pipe: %s", strerror(errno));
		timeline_free(&st->tl);
		return -1;
	}
	recorder_signals(true);
	return 0;
}

void recorder_settle(struct recorder *st)
{
	struct ss_timeline *t = &st->tl;
	uint64_t t0, t1;

	timeline_sort(t);
	timeline_sync_threads(t);
	if (timeline_span(t, (1u << SS_KIND_COUNT) - 1, &t0, &t1))
		timeline_rebase(t, t0);
	recorder_compact(st);
	t->nstreams = st->nstreams;
	recorder_label_streams(st);
	recorder_mark(st);
}

void recorder_close(struct recorder *st)
{
	recorder_signals(false);
	recorder_unlisten(st);
	for (int i = 0; i < st->nsrc; i++) {
		runner_free(&st->src[i].r);
		free(st->src[i].map);
	}
	free(st->kinds);
	free(st->spid);
	timeline_free(&st->tl);
	close(recorder_wake[0]);
	close(recorder_wake[1]);
	recorder_wake[0] = recorder_wake[1] = -1;
}

volatile sig_atomic_t *recorder_ending_flag(void)
{
	return &recorder_ending;
}
