/* test_record_cli.c: `streamscope record` run as a child process, with no GPU needed.
 * Every build: usage errors (2), --help (0). A build without CUDA: one line and exit 3. A CUDA build: a missing
 * program (127), one that cannot be executed (126), programs that are not CUDA programs (their own status, one
 * "nothing recorded" line, no trace), a killed one (128+9), SIGTERM passed on to the program, output passing
 * through; then, with record_harness standing in for the injection library's stream (see record_harness.c): the
 * trace's records, stream indices and kinds, rebased times, SYNC threads, dropped count and device; a crash
 * (incomplete trace, 139); --children; a grandchild holding the pipe after the program exits (no hang); the
 * environment the program gets; the real library's set-up as CUDA would call it; and --twin's untraced run and the
 * two times it stores. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
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

#include "core/timeline.h"
#include "io/import/import.h"
#include "io_fixture.h"

/* What one run of the binary gave. */
struct run_out {
	int code; /* exit status, 128 + signal when killed */
	char out[16384];
	char err[16384];
	double seconds;
};

/* Runs argv (argv[0] is a path) in directory cwd, collecting stdout and stderr. */
static void run(const char *cwd, struct run_out *o, const char *const *argv)
{
	int po[2], pe[2], status;
	size_t no = 0, ne = 0;
	struct timespec t0, t1;
	pid_t pid;

	memset(o, 0, sizeof *o);
	assert_int_equal(pipe(po), 0);
	assert_int_equal(pipe(pe), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		close(po[1]);
		close(pe[1]);
		if (cwd != NULL && chdir(cwd) != 0)
			_exit(99);
		execv(argv[0], (char *const *)argv);
		_exit(98);
	}
	close(po[1]);
	close(pe[1]);
	for (;;) {
		struct pollfd p[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
		int open = 0;

		if (p[0].fd >= 0)
			open++;
		if (p[1].fd >= 0)
			open++;
		if (open == 0)
			break;
		poll(p, 2, -1);
		for (int i = 0; i < 2; i++) {
			char *buf = i == 0 ? o->out : o->err;
			size_t *n = i == 0 ? &no : &ne;
			int *fd = i == 0 ? &po[0] : &pe[0];
			ssize_t r;

			if (*fd < 0 || !(p[i].revents & (POLLIN | POLLHUP)))
				continue;
			r = read(*fd, buf + *n, sizeof o->out - 1 - *n);
			if (r > 0) {
				*n += (size_t)r;
			} else if (r == 0 || errno != EINTR) {
				close(*fd);
				*fd = -1;
			}
		}
	}
	o->out[no] = '\0';
	o->err[ne] = '\0';
	assert_int_equal(waitpid(pid, &status, 0), pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	o->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	o->code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (getenv("TEST_VERBOSE") != NULL)
		fprintf(stderr, "[%s -> %d]\nstdout: %s\nstderr: %s\n", argv[2] ? argv[2] : "", o->code, o->out,
		        o->err);
}

/* Asserts that haystack contains needle, showing both when not. */
#define assert_contains(haystack, needle)                                                                              \
	do {                                                                                                           \
		if (strstr((haystack), (needle)) == NULL)                                                              \
			fail_msg("expected \"%s\" in:\n%s", (needle), (haystack));                                     \
	} while (0)

/* Counts the newlines of s. */
static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

#ifdef SS_RECORD_HAVE_CUDA
/* A fresh empty directory for a test's files. */
static void tmpdir(char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/ss-record-test-XXXXXX");
	assert_non_null(mkdtemp(buf));
}

/* The number of entries of dir (besides . and ..). */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}
#endif

static void test_usage(void **state)
{
	struct run_out o;

	(void)state;
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", NULL});
	assert_int_equal(o.code, 2);
	assert_contains(o.err, "no program given");
	assert_int_equal(lines(o.err), 1);
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--bogus", "--", "/bin/true", NULL});
	assert_int_equal(o.code, 2);
	assert_contains(o.err, "unknown option '--bogus'");
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "-o", NULL});
	assert_int_equal(o.code, 2);
	assert_contains(o.err, "needs a value");
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "-o", "trace.bin", "--", "/bin/true", NULL});
	assert_int_equal(o.code, 2);
	assert_contains(o.err, "unknown extension");
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--help", NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.out, "usage: streamscope record");
	assert_contains(o.out, "--children");
}

#ifndef SS_RECORD_HAVE_CUDA

static void test_no_cuda(void **state)
{
	struct run_out o;

	(void)state;
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", "/bin/true", NULL});
	assert_int_equal(o.code, 3);
	assert_contains(o.err, "CUDA");
	assert_int_equal(lines(o.err), 1);
}

#else

static void test_missing_and_not_executable(void **state)
{
	char dir[64], path[128];
	struct run_out o;
	int fd;

	(void)state;
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", "/nonexistent/program", NULL});
	assert_int_equal(o.code, 127);
	assert_contains(o.err, "cannot run '/nonexistent/program'");
	assert_int_equal(lines(o.err), 1);
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", "no-such-program-in-path", NULL});
	assert_int_equal(o.code, 127);
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/data.txt", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", path, NULL});
	assert_int_equal(o.code, 126);
	assert_contains(o.err, "Permission denied");
	fx_rmdir(dir);
}

/* A new string, printf-style. */
static char *xasprintf_test(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	assert_true(n >= 0);
	return s;
}

/* Writes an executable file path with content text. */
static void write_script(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

/* Copies /bin/true to path with its program loader (PT_INTERP) renamed /nonexistent/ld.so: a binary for another
 * system. false when /bin/true is no 64-bit ELF file with a loader. */
static bool foreign_binary(const char *path)
{
	static char data[4 << 20];
	FILE *f = fopen("/bin/true", "rb");
	size_t n;
	Elf64_Ehdr eh;
	bool done = false;

	if (f == NULL)
		return false;
	n = fread(data, 1, sizeof data, f);
	fclose(f);
	if (n < sizeof eh)
		return false;
	memcpy(&eh, data, sizeof eh);
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return false;
	for (int i = 0; i < eh.e_phnum && !done; i++) {
		Elf64_Phdr ph;

		if (eh.e_phoff + (i + 1) * sizeof ph > n)
			return false;
		memcpy(&ph, data + eh.e_phoff + i * sizeof ph, sizeof ph);
		if (ph.p_type == PT_INTERP && ph.p_filesz > strlen("/nonexistent/ld.so") &&
		    ph.p_offset + ph.p_filesz <= n) {
			memset(data + ph.p_offset, 0, ph.p_filesz);
			memcpy(data + ph.p_offset, "/nonexistent/ld.so", strlen("/nonexistent/ld.so"));
			done = true;
		}
	}
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	return done;
}

/* A script whose interpreter is missing: the kernel says ENOENT for a file that exists; the message names the
 * script and its interpreter, found by path and through PATH; a program that is not there is named as missing
 * from PATH. */
static void test_missing_interpreter(void **state)
{
	char dir[64], path[128], crlf[128], want[256], *oldpath, *newpath;
	struct run_out o;

	(void)state;
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/myscript", dir);
	write_script(path, "#!/nonexistent/interp -x\necho hello\n");
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", path, NULL});
	assert_int_equal(o.code, 127);
	snprintf(want, sizeof want, "cannot run '%s': its interpreter '/nonexistent/interp'", path);
	assert_contains(o.err, want);
	assert_contains(o.err, "does not exist");
	assert_int_equal(lines(o.err), 1);
	/* found through PATH: the message says which file it ran */
	oldpath = getenv("PATH") != NULL ? strdup(getenv("PATH")) : NULL;
	newpath = xasprintf_test("%s:%s", dir, oldpath != NULL ? oldpath : "/usr/bin:/bin");
	setenv("PATH", newpath, 1);
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", "myscript", NULL});
	if (oldpath != NULL)
		setenv("PATH", oldpath, 1);
	else
		unsetenv("PATH");
	free(oldpath);
	free(newpath);
	assert_int_equal(o.code, 127);
	snprintf(want, sizeof want, "cannot run 'myscript' (%s): its interpreter '/nonexistent/interp'", path);
	assert_contains(o.err, want);
	/* DOS line endings: the interpreter's name ends in a carriage return */
	snprintf(crlf, sizeof crlf, "%s/dos", dir);
	write_script(crlf, "#!/bin/sh\r\necho hello\r\n");
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", crlf, NULL});
	assert_int_equal(o.code, 127);
	assert_contains(o.err, "its interpreter '/bin/sh\\r'");
	assert_contains(o.err, "carriage return");
	/* an ELF binary whose program loader is missing */
	snprintf(crlf, sizeof crlf, "%s/foreign", dir);
	if (foreign_binary(crlf)) {
		run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", crlf, NULL});
		assert_int_equal(o.code, 127);
		snprintf(want, sizeof want, "cannot run '%s': its program loader '/nonexistent/ld.so' does not exist",
		         crlf);
		assert_contains(o.err, want);
	}
	/* the program itself is missing */
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", "no-such-program-in-path", NULL});
	assert_int_equal(o.code, 127);
	assert_contains(o.err, "cannot run 'no-such-program-in-path': no such program in PATH");
	assert_int_equal(lines(o.err), 1);
	snprintf(want, sizeof want, "%s/absent", dir);
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", want, NULL});
	assert_int_equal(o.code, 127);
	assert_contains(o.err, "no such file");
	fx_rmdir(dir);
}

/* Every output record writes is checked before the program starts: the program (which would leave a marker)
 * never runs, the error names the user's path and what is wrong, exit 2. */
static void test_output_checked_first(void **state)
{
	char dir[64], marker[128], cmd[256], path[160], sub[128];
	struct run_out o;

	(void)state;
	tmpdir(dir, sizeof dir);
	snprintf(marker, sizeof marker, "%s/ran", dir);
	snprintf(cmd, sizeof cmd, "touch %s", marker);
	run(NULL, &o,
	    (const char *const[]){SS_BINARY, "record", "-o", "/nonexistent/dir/x.sqlite", "--", "/bin/sh", "-c", cmd,
	                          NULL});
	assert_int_equal(o.code, 2);
	assert_contains(o.err, "cannot write /nonexistent/dir/x.sqlite: directory /nonexistent/dir does not exist");
	assert_int_equal(lines(o.err), 1);
	assert_int_not_equal(access(marker, F_OK), 0);
	/* a path under a regular file */
	snprintf(path, sizeof path, "%s/file.sqlite/x.sqlite", dir);
	snprintf(sub, sizeof sub, "%s/file.sqlite", dir);
	write_script(sub, "");
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "-o", path, "--", "/bin/sh", "-c", cmd, NULL});
	assert_int_equal(o.code, 2);
	assert_contains(o.err, path);
	assert_contains(o.err, "is not a directory");
	assert_int_not_equal(access(marker, F_OK), 0);
	/* the path is a directory */
	snprintf(path, sizeof path, "%s/d.sqlite", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "-o", path, "--", "/bin/sh", "-c", cmd, NULL});
	assert_int_equal(o.code, 2);
	assert_contains(o.err, path);
	assert_contains(o.err, "is a directory");
	assert_int_not_equal(access(marker, F_OK), 0);
	/* the default name, in a directory that has gone */
	snprintf(sub, sizeof sub, "%s/gone", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	{
		pid_t pid = fork();
		int status;

		assert_true(pid >= 0);
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			if (chdir(sub) != 0 || rmdir(sub) != 0)
				_exit(99);
			dup2(fd, 2);
			execl(SS_BINARY, SS_BINARY, "record", "--", "/bin/sh", "-c", cmd, (char *)NULL);
			_exit(98);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 2);
		assert_int_not_equal(access(marker, F_OK), 0);
	}
	/* nothing was left in the directory besides what the test made */
	assert_int_equal(entries(dir), 2);
	rmdir(path);
	fx_rmdir(dir);
}

static double now_s(void);

/* --live writes the program's output to FILE.log: that is checked before the program starts too. streamscope's
 * stderr is a pipe (the view needs only stdin and stdout to be the terminal): a pty's master may lose what the
 * child wrote just before it exited. */
static void test_live_log_checked_first(void **state)
{
	char dir[64], path[128], log[160], marker[128], cmd[256], buf[4096], skip[4096];
	struct winsize ws = {24, 80, 0, 0};
	size_t n = 0;
	int fd, pe[2], status = 0;
	double t0 = now_s();
	bool ended = false;
	pid_t pid;

	(void)state;
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/live.sqlite", dir);
	snprintf(log, sizeof log, "%s.log", path);
	snprintf(marker, sizeof marker, "%s/ran", dir);
	snprintf(cmd, sizeof cmd, "touch %s", marker);
	assert_int_equal(mkdir(log, 0755), 0);
	assert_int_equal(pipe(pe), 0);
	pid = forkpty(&fd, NULL, NULL, &ws);
	assert_true(pid >= 0);
	if (pid == 0) {
		setenv("TERM", "xterm-256color", 1);
		dup2(pe[1], 2);
		close(pe[0]);
		close(pe[1]);
		execl(SS_BINARY, SS_BINARY, "record", "--live", "-o", path, "--", "/bin/sh", "-c", cmd, (char *)NULL);
		_exit(98);
	}
	close(pe[1]);
	while (!ended && now_s() - t0 < 10) { /* stderr to its end; the terminal drained (a view would draw) */
		struct pollfd p[2] = {{pe[0], POLLIN, 0}, {fd, POLLIN, 0}};
		ssize_t r;

		if (poll(p, 2, 100) <= 0)
			continue;
		if (p[1].revents & POLLIN)
			(void)!read(fd, skip, sizeof skip);
		if (!(p[0].revents & (POLLIN | POLLHUP)))
			continue;
		r = read(pe[0], n < sizeof buf - 1 ? buf + n : skip,
		         n < sizeof buf - 1 ? sizeof buf - 1 - n : sizeof skip);
		if (r <= 0)
			ended = true;
		else if (n < sizeof buf - 1)
			n += (size_t)r;
	}
	buf[n] = '\0';
	close(pe[0]);
	while (now_s() - t0 < 10 && waitpid(pid, &status, WNOHANG) != pid)
		usleep(10000);
	if (now_s() - t0 >= 10) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		close(fd);
		rmdir(log);
		fx_rmdir(dir);
		fail_msg("streamscope record --live still running after 10 s (the program ran); stderr:\n%s", buf);
	}
	close(fd);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 2);
	assert_contains(buf, log);
	assert_contains(buf, "is a directory");
	assert_int_equal(lines(buf), 1);
	assert_int_not_equal(access(marker, F_OK), 0);
	rmdir(log);
	fx_rmdir(dir);
}

static void test_not_cuda(void **state)
{
	char dir[64], why[256] = "", want[512];
	struct run_out o;
	const char *p;

	(void)state;
	tmpdir(dir, sizeof dir);
	/* whether CUDA starts here, and if not why, as run --backend cuda says it (CI: no driver) */
	run(dir, &o, (const char *const[]){SS_BINARY, "run", "--backend", "cuda", "--preset", "hyperq", NULL});
	if (o.code == 3 && (p = strstr(o.err, "--backend cuda: ")) != NULL)
		snprintf(why, sizeof why, "%.*s", (int)strcspn(p + 16, "\n"), p + 16);
	/* the program's own status, and one line that says it made no CUDA calls and no trace was written, or that
	 * CUDA cannot start here and why (a program whose CUDA fails at its first call made calls, unseen) */
	run(dir, &o, (const char *const[]){SS_BINARY, "record", "--", "/bin/true", NULL});
	assert_int_equal(o.code, 0);
	if (why[0] != '\0')
		snprintf(
		    want, sizeof want,
		    "nothing recorded: CUDA cannot start here (%s), so no CUDA call of /bin/true could be seen; it "
		    "exited with status 0; no trace written",
		    why);
	else
		snprintf(want, sizeof want,
		         "nothing recorded: /bin/true made no CUDA calls (CUDA was never initialised) and exited with "
		         "status 0; no trace written");
	assert_contains(o.err, want);
	assert_int_equal(lines(o.err), 1);
	assert_int_equal(entries(dir), 0); /* no trace */
	run(dir, &o, (const char *const[]){SS_BINARY, "record", "--", "/bin/false", NULL});
	assert_int_equal(o.code, 1);
	assert_contains(o.err, why[0] != '\0' ? "no CUDA call of /bin/false" : "/bin/false made no CUDA calls");
	assert_contains(o.err, "exited with status 1; no trace written");
	run(dir, &o, (const char *const[]){SS_BINARY, "record", "--", "/bin/sh", "-c", "exit 7", NULL});
	assert_int_equal(o.code, 7);
	assert_contains(o.err, "exited with status 7");
	run(dir, &o, (const char *const[]){SS_BINARY, "record", "--children", "--", "/bin/true", NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.err, why[0] != '\0' ? "CUDA cannot start here"
	                                      : "made no CUDA calls, nor did the processes it started");
	assert_int_equal(lines(o.err), 1);
	assert_int_equal(entries(dir), 0);
	/* PROGRAM's options after the first non-option are its own, even without "--" */
	run(dir, &o, (const char *const[]){SS_BINARY, "record", "/bin/echo", "-o", "hello", NULL});
	assert_int_equal(o.code, 0);
	assert_string_equal(o.out, "-o hello\n");
	assert_int_equal(entries(dir), 0);
	fx_rmdir(dir);
}

static void test_killed_and_sigterm(void **state)
{
	struct run_out o;

	(void)state;
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", "/bin/sh", "-c", "kill -9 $$", NULL});
	assert_int_equal(o.code, 137);
	assert_contains(o.err, "killed by signal 9");
	/* SIGTERM to streamscope goes on to the program; its background sleep keeps the pipe open, which must not
	 * keep streamscope waiting for long */
	run(NULL, &o,
	    (const char *const[]){SS_BINARY, "record", "--", "/bin/sh", "-c",
	                          "sleep 3 >/dev/null 2>&1 & kill -TERM $PPID; wait", NULL});
	assert_int_equal(o.code, 143);
	assert_contains(o.err, "killed by signal 15");
	assert_true(o.seconds < 2.9);
}

/* Opens a trace the parent wrote. */
static void open_trace(const char *path, struct ss_timeline *t)
{
	char *cause = NULL;

	timeline_init(t);
	if (import_file(path, t, &cause) != 0)
		fail_msg("cannot open %s: %s", path, cause);
}

/* The index of the first record of kind with the given name, -1 when none. */
static long find(const struct ss_timeline *t, int kind, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == kind && strcmp(timeline_name(t, t->rec[i].name), name) == 0)
			return (long)i;
	return -1;
}

static void test_harness_trace(void **state)
{
	char dir[64], path[128];
	struct run_out o;
	struct ss_timeline t;
	long k0, k2, legacy, pt, api, sync, mark, first = -1;
	uint64_t lo = UINT64_MAX;

	(void)state;
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/h.sqlite", dir);
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "-o", path, "--", SS_HARNESS, "ok", NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.out, "record_harness: ok done");
	/* a count of 1 reads in the singular ("1 kernels", "1 syncs" once) */
	assert_contains(o.err, "on Harness GPU: 11 records: 5 kernels, 1 H2D, 0 D2H, 0 D2D, 0 memsets, 1 NVTX range, "
	                       "3 API calls, 1 sync; 2 dropped");
	/* the streams as a table: kinds, then each stream (5 of them: no "more" line) */
	assert_contains(o.err, "streamscope: streams: 5 (2 blocking, 1 non-blocking, 1 legacy default, 1 per-thread "
	                       "default)\n");
	assert_contains(o.err, "  blocking                   2     4.00 us         3\n");
	assert_contains(o.err, "  s0 (CUPTI id 13)           blocking               3.00 us  1 kernel, 1 copy\n");
	assert_contains(o.err, "  s1 (CUPTI id 14)           non-blocking           1.00 us  1 kernel, 0 copies\n");
	assert_contains(o.err, "  s2 (CUPTI id 15)           blocking");
	assert_contains(o.err, "  legacy (CUPTI id 7)        legacy default         1.00 us  1 kernel, 0 copies\n");
	assert_contains(o.err, "  per-thread (CUPTI id 20)   per-thread default");
	assert_null(strstr(o.err, "kind unknown"));
	assert_null(strstr(o.err, "more stream"));
	assert_contains(o.err, "trace written to");
	open_trace(path, &t);
	assert_int_equal(t.n, 11);
	assert_false(t.incomplete);
	assert_int_equal(t.dropped, 2);
	assert_string_equal(t.device, "Harness GPU");
	k0 = find(&t, SS_KIND_KERNEL, "k0");
	k2 = find(&t, SS_KIND_KERNEL, "k2");
	legacy = find(&t, SS_KIND_KERNEL, "legacy");
	pt = find(&t, SS_KIND_KERNEL, "per-thread");
	api = find(&t, SS_KIND_API, "cudaDeviceSynchronize");
	sync = find(&t, SS_KIND_SYNC, "cudaDeviceSynchronize");
	mark = find(&t, SS_KIND_MARKER, "whole run");
	assert_true(k0 >= 0 && k2 >= 0 && legacy >= 0 && pt >= 0 && api >= 0 && sync >= 0 && mark >= 0);
	assert_int_equal(t.rec[k0].stream, 0);
	assert_int_equal(t.rec[k2].stream, 2);
	assert_int_equal(t.rec[k2].raw_stream, 15);
	assert_int_equal(t.rec[legacy].stream, SS_STREAM_LEGACY);
	assert_int_equal(t.rec[pt].stream, SS_STREAM_PER_THREAD);
	/* the trace carries the kinds and CUPTI ids streamscope printed */
	assert_int_equal(t.nstreams, 3);
	for (int s = 0; s < 3; s++) {
		assert_non_null(timeline_stream(&t, s));
		assert_int_equal(timeline_stream(&t, s)->raw_id, 13 + s);
		assert_int_equal(timeline_stream(&t, s)->kind, s == 1 ? SS_SKIND_NONBLOCKING : SS_SKIND_BLOCKING);
	}
	/* times start at the earliest record (the marker, sent last), lengths kept */
	for (size_t i = 0; i < t.n; i++)
		if (t.rec[i].start < lo) {
			lo = t.rec[i].start;
			first = (long)i;
		}
	assert_int_equal(lo, 0);
	assert_int_equal(first, mark);
	assert_int_equal(t.rec[k0].start, 4100);
	assert_int_equal(t.rec[k0].end - t.rec[k0].start, 1000);
	assert_int_equal(t.rec[mark].end, 9500);
	/* the SYNC record took the thread of its API call */
	assert_int_not_equal(t.rec[sync].thread, 0);
	assert_int_equal(t.rec[sync].thread, t.rec[api].thread);
	timeline_free(&t);
	fx_rmdir(dir);
}

/* 130 streams: every kind the library sent arrives (the table once went as one progress line of at most 112
 * letters: the rest were "kind unknown"), in the trace and in a summary of at most 20 lines: kinds, then the 8
 * busiest streams and how many more. */
static void test_harness_many_streams(void **state)
{
	char dir[64], path[128];
	struct run_out o;
	struct ss_timeline t;
	const char *from, *to;
	int kinds[SS_SKIND_COUNT] = {0}, lines = 0;

	(void)state;
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/many.sqlite", dir);
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "-o", path, "--", SS_HARNESS, "many", NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.out, "record_harness: many done");
	assert_contains(o.err, "streamscope: streams: 130 (65 blocking, 64 non-blocking, 1 kind unknown)\n");
	assert_contains(o.err, "  blocking                  65 ");
	assert_contains(o.err, "  non-blocking              64 ");
	assert_contains(o.err, "  kind unknown               1      130 us       130\n");
	assert_contains(o.err, "  busiest streams            kind                      busy  work\n");
	/* stream i did i + 1 kernels of 1 us: the busiest is the last, then down */
	assert_contains(o.err, "  busiest streams            kind                      busy  work\n"
	                       "  s129 (CUPTI id 229)        kind unknown            130 us  130 kernels, 0 copies\n"
	                       "  s128 (CUPTI id 228)        blocking                129 us  129 kernels, 0 copies\n"
	                       "  s127 (CUPTI id 227)        non-blocking            128 us  128 kernels, 0 copies\n");
	assert_contains(o.err, "  s122 (CUPTI id 222)        blocking                123 us  123 kernels, 0 copies\n"
	                       "  ... 122 more streams with GPU work: streamscope view ");
	assert_null(strstr(o.err, "s121 ("));
	/* the summary from "recorded" to "trace written" fits a screen */
	from = strstr(o.err, "streamscope: recorded");
	to = strstr(o.err, "streamscope: trace written");
	assert_non_null(from);
	assert_non_null(to);
	for (const char *p = from; p < to; p++)
		lines += *p == '\n';
	assert_true(lines <= 20);
	assert_int_equal(lines, 1 + 1 + 1 + 3 + 1 + 8 + 1);
	/* the trace carries each kind */
	open_trace(path, &t);
	assert_int_equal(t.nstreams, 130);
	for (int s = 0; s < 130; s++) {
		const struct ss_stream_info *si = timeline_stream(&t, s);

		assert_non_null(si);
		assert_int_equal(si->raw_id, 100 + s);
		kinds[si->kind]++;
		assert_int_equal(si->kind, s == 129 ? SS_SKIND_UNKNOWN
		                           : s % 2  ? SS_SKIND_NONBLOCKING
		                                    : SS_SKIND_BLOCKING);
	}
	assert_int_equal(kinds[SS_SKIND_BLOCKING], 65);
	assert_int_equal(kinds[SS_SKIND_NONBLOCKING], 64);
	timeline_free(&t);
	fx_rmdir(dir);
}

static void test_harness_crash(void **state)
{
	char dir[64], path[128];
	struct run_out o;
	struct ss_timeline t;

	(void)state;
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/crash.sqlite", dir);
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "-o", path, "--", SS_HARNESS, "crash", NULL});
	assert_int_equal(o.code, 139);
	assert_contains(o.err, "INCOMPLETE");
	assert_contains(o.err, "was killed by signal 11");
	assert_contains(o.err, "marked incomplete");
	/* the table as last sent: s2 not yet known */
	assert_contains(o.err, "streamscope: streams: 5 (1 blocking, 1 non-blocking, 1 legacy default, 1 per-thread "
	                       "default, 1 kind unknown)\n");
	assert_contains(o.err, "  s2 (CUPTI id 15)           kind unknown");
	open_trace(path, &t);
	assert_true(t.incomplete);
	assert_int_equal(t.n, 11);
	timeline_free(&t);
	fx_rmdir(dir);
}

static void test_harness_children(void **state)
{
	char dir[64], path[128];
	struct run_out o;
	struct ss_timeline t;
	char want[64];
	long ck;
	int32_t k0;

	(void)state;
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/c.sqlite", dir);
	/* without --children the child sees the pipe's variables, but they are not its own: nothing from it */
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "-o", path, "--", SS_HARNESS, "children", NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.err, "(1 process)");
	open_trace(path, &t);
	assert_int_equal(timeline_count(&t, SS_KIND_KERNEL), 5);
	assert_int_equal(find(&t, SS_KIND_KERNEL, "child kernel"), -1);
	timeline_free(&t);
	run(NULL, &o,
	    (const char *const[]){SS_BINARY, "record", "--children", "-o", path, "--", SS_HARNESS, "children", NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.err, "(2 processes)");
	open_trace(path, &t);
	assert_int_equal(timeline_count(&t, SS_KIND_KERNEL), 6);
	ck = find(&t, SS_KIND_KERNEL, "child kernel");
	assert_true(ck >= 0);
	/* each process's stream 0 is a lane of its own, numbered in the order the parent met them, with its kind */
	k0 = t.rec[find(&t, SS_KIND_KERNEL, "k0")].stream;
	assert_int_not_equal(t.rec[ck].stream, k0);
	assert_true((t.rec[ck].stream == 0 && k0 == 1) || (t.rec[ck].stream == 3 && k0 == 0));
	snprintf(want, sizeof want, "  s%d (CUPTI id 13, pid ", t.rec[ck].stream);
	assert_non_null(timeline_stream(&t, t.rec[ck].stream));
	assert_int_equal(timeline_stream(&t, t.rec[ck].stream)->kind, SS_SKIND_NONBLOCKING);
	assert_contains(o.err, want);
	assert_int_equal(t.nstreams, 4);
	assert_false(t.incomplete);
	timeline_free(&t);
	fx_rmdir(dir);
}

static void test_harness_pipe_held(void **state)
{
	char dir[64], path[128];
	struct run_out o;
	struct ss_timeline t;

	(void)state;
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/hold.sqlite", dir);
	/* the result arrived: done at once, though a grandchild holds the pipe for 5 s */
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "-o", path, "--", SS_HARNESS, "hold", NULL});
	assert_int_equal(o.code, 0);
	assert_true(o.seconds < 2.5);
	open_trace(path, &t);
	assert_false(t.incomplete);
	timeline_free(&t);
	/* no result, program gone: a short grace, then incomplete */
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "-o", path, "--", SS_HARNESS, "hold-crash", NULL});
	assert_int_equal(o.code, 137);
	assert_true(o.seconds < 4.0);
	open_trace(path, &t);
	assert_true(t.incomplete);
	timeline_free(&t);
	fx_rmdir(dir);
}

static void test_environment(void **state)
{
	struct run_out o;
	char *line, *lib;

	(void)state;
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", SS_HARNESS, "env", NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.out, "FD_OPEN=1\n");
	assert_contains(o.out, "PID_MATCH=1\n");
	assert_contains(o.out, "STREAMSCOPE_SOCK=\n");
	assert_contains(o.out, "STREAMSCOPE_FLUSH_MS=500\n");
	line = strstr(o.out, "CUDA_INJECTION64_PATH=/");
	assert_non_null(line);
	lib = strndup(line + strlen("CUDA_INJECTION64_PATH="), strcspn(line, "\n") - strlen("CUDA_INJECTION64_PATH="));
	assert_non_null(strstr(lib, "libstreamscope_inject.so"));
	assert_int_equal(access(lib, R_OK), 0);
	free(lib);
	assert_contains(o.out, "NVTX_INJECTION64_PATH=/");
	assert_contains(o.out, "libcupti.so");
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--children", "--", SS_HARNESS, "env", NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.out, "STREAMSCOPE_SOCK=/");
}

/* The real library, loaded and started as CUDA does. Without a GPU driver CUPTI cannot enable tracing: the
 * library says so on the wire and the program runs on (exit 3 for the recording, the program's output intact);
 * on a machine with a GPU it starts and, the program doing no CUDA work, nothing is recorded. */
static void test_real_library(void **state)
{
	struct run_out o;

	(void)state;
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--", SS_HARNESS, "inject", NULL});
	assert_contains(o.out, "InitializeInjection=1\n");
	if (o.code == 3) {
		assert_contains(o.err, "recording failed: CUPTI could not be set up in pid");
	} else {
		assert_int_equal(o.code, 0);
		assert_contains(o.err, "nothing recorded");
	}
}

/* Seconds on the monotonic clock. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether file path contains text. */
static bool file_has(const char *path, const char *text)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return false;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, text) != NULL;
}

/* --live in a pseudo-terminal: the view draws, q writes the trace (after the end, or before it: then the
 * recording goes on without the view), and the program's output went to the .log file, not to the screen. The
 * screen is checked only for its first header word: curses skips cells that did not change, so later text need
 * not reach the terminal in one piece (tests/e2e reads screens properly, through libvterm). */
static void test_live(void **state)
{
	char dir[64], path[128], log[160], *buf = malloc(1 << 20);
	struct winsize ws = {40, 120, 0, 0};
	size_t n = 0;
	int fd, status;
	double t0 = now_s(), done_at = 0;
	bool drew = false;
	pid_t pid;

	(void)state;
	assert_non_null(buf);
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/live.sqlite", dir);
	snprintf(log, sizeof log, "%s.log", path);
	pid = forkpty(&fd, NULL, NULL, &ws);
	assert_true(pid >= 0);
	if (pid == 0) {
		setenv("TERM", "xterm-256color", 1);
		setenv("LANG", "C.UTF-8", 1);
		execl(SS_BINARY, SS_BINARY, "record", "--live", "-o", path, "--", SS_HARNESS, "ok", (char *)NULL);
		_exit(98);
	}
	while (now_s() - t0 < 20) {
		struct pollfd p = {fd, POLLIN, 0};

		if (poll(&p, 1, 50) > 0) {
			ssize_t r = read(fd, buf + n, (1 << 20) - 1 - n);

			if (r <= 0)
				break;
			n += (size_t)r;
			buf[n] = '\0';
			drew = drew || strstr(buf, "streamscope") != NULL;
			if (n > (1 << 19))
				n = 0; /* the first frame was seen long ago */
		}
		if (done_at == 0 && file_has(log, "ok done"))
			done_at = now_s();
		if (done_at > 0 && (strstr(buf, "ended") != NULL || now_s() - done_at > 1.5))
			break;
	}
	assert_true(done_at > 0);
	assert_true(drew);
	assert_int_equal(write(fd, "q", 1), 1);
	for (;;) { /* drain until the child closes the terminal */
		struct pollfd p = {fd, POLLIN, 0};

		if (poll(&p, 1, 5000) <= 0 || read(fd, buf + n, 4096) <= 0)
			break;
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	close(fd);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(access(path, R_OK), 0);
	assert_true(file_has(log, "record_harness: ok done"));
	free(buf);
	fx_rmdir(dir);
}

static void test_default_name(void **state)
{
	char dir[64];
	struct run_out o;
	DIR *d;
	struct dirent *e;
	int found = 0;

	(void)state;
	tmpdir(dir, sizeof dir);
	run(dir, &o, (const char *const[]){SS_BINARY, "record", SS_HARNESS, "ok", NULL});
	assert_int_equal(o.code, 0);
	d = opendir(dir);
	while ((e = readdir(d)) != NULL)
		found += strncmp(e->d_name, "streamscope-record-", 19) == 0 &&
		         strcmp(e->d_name + strlen(e->d_name) - 7, ".sqlite") == 0;
	closedir(d);
	assert_int_equal(found, 1);
	assert_int_equal(entries(dir), 1); /* nothing else: no temporary file left */
	fx_rmdir(dir);
}

/* --twin: PROGRAM runs untraced first (its output passes through), then recorded; both wall-clock times land in
 * the trace, and analyze reports tracing-perturbation from them. The stand-in sleeps 300 ms only when traced (the
 * recorder's environment is set), so the traced run is the longer one by at least that. Runs that end differently
 * (the untraced one fails) are not compared: no times stored; nor are they where nothing was recorded (no CUDA call:
 * nothing traced). Without --twin there are none either. */
static void test_twin(void **state)
{
	char dir[64], path[128], prog[512];
	struct run_out o;
	struct ss_timeline t;

	(void)state;
	tmpdir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/twin.sqlite", dir);
	snprintf(prog, sizeof prog,
	         "if [ -n \"$STREAMSCOPE_FD\" ]; then sleep 0.3; exec %s ok; else echo untraced run; fi", SS_HARNESS);
	run(NULL, &o,
	    (const char *const[]){SS_BINARY, "record", "--twin", "-o", path, "--", "/bin/sh", "-c", prog, NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.out, "untraced run\n");
	assert_contains(o.out, "record_harness: ok done");
	assert_true(strstr(o.out, "untraced run") < strstr(o.out, "record_harness: ok done")); /* the twin first */
	assert_contains(o.err, "streamscope: record --twin: ");
	assert_contains(o.err, " untraced (+");
	assert_contains(o.err, "measured wall-clock times, stored in the trace\n");
	open_trace(path, &t);
	assert_int_equal(t.n, 11);
	assert_true(t.wall_traced_ns >= 300000000ull);
	assert_true(t.wall_untraced_ns > 0);
	assert_true(t.wall_untraced_ns < t.wall_traced_ns - 250000000ull);
	timeline_free(&t);
	run(NULL, &o, (const char *const[]){SS_BINARY, "analyze", path, NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.out, "[problem] tracing-perturbation: tracing made the run ");
	assert_contains(o.out, "(record --twin)");
	/* the untraced run fails, the traced one does not: not comparable */
	snprintf(prog, sizeof prog, "if [ -n \"$STREAMSCOPE_FD\" ]; then exec %s ok; else exit 3; fi", SS_HARNESS);
	run(NULL, &o,
	    (const char *const[]){SS_BINARY, "record", "--twin", "-o", path, "--", "/bin/sh", "-c", prog, NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.err,
	                "record --twin: the untraced run exited with status 3, the traced one exited with status "
	                "0: the runs differ, their times are not stored");
	open_trace(path, &t);
	assert_true(t.wall_traced_ns == 0 && t.wall_untraced_ns == 0);
	timeline_free(&t);
	/* no CUDA call, the program succeeding or failing: nothing was traced, so no times are compared */
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--twin", "-o", path, "--", "/bin/true", NULL});
	assert_int_equal(o.code, 0);
	assert_contains(o.err, "no trace written");
	assert_null(strstr(o.err, "record --twin"));
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "--twin", "-o", path, "--", "/bin/false", NULL});
	assert_int_equal(o.code, 1);
	assert_contains(o.err, "nothing recorded");
	assert_null(strstr(o.err, "record --twin"));
	/* a program that cannot start: the traced run's message, once, and its status */
	run(NULL, &o,
	    (const char *const[]){SS_BINARY, "record", "--twin", "-o", path, "--", "/nonexistent/prog", NULL});
	assert_int_equal(o.code, 127);
	assert_contains(o.err, "no such file");
	assert_null(strstr(o.err, "record --twin"));
	/* without --twin: one run, no times */
	run(NULL, &o, (const char *const[]){SS_BINARY, "record", "-o", path, "--", SS_HARNESS, "ok", NULL});
	assert_int_equal(o.code, 0);
	assert_null(strstr(o.err, "--twin"));
	open_trace(path, &t);
	assert_true(t.wall_traced_ns == 0 && t.wall_untraced_ns == 0);
	timeline_free(&t);
	fx_rmdir(dir);
}

#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_usage),
#ifndef SS_RECORD_HAVE_CUDA
	    cmocka_unit_test(test_no_cuda),
#else
	    cmocka_unit_test(test_missing_and_not_executable),
	    cmocka_unit_test(test_missing_interpreter),
	    cmocka_unit_test(test_output_checked_first),
	    cmocka_unit_test(test_live_log_checked_first),
	    cmocka_unit_test(test_not_cuda),
	    cmocka_unit_test(test_killed_and_sigterm),
	    cmocka_unit_test(test_harness_trace),
	    cmocka_unit_test(test_harness_many_streams),
	    cmocka_unit_test(test_harness_crash),
	    cmocka_unit_test(test_harness_children),
	    cmocka_unit_test(test_harness_pipe_held),
	    cmocka_unit_test(test_environment),
	    cmocka_unit_test(test_real_library),
	    cmocka_unit_test(test_live),
	    cmocka_unit_test(test_default_name),
	    cmocka_unit_test(test_twin),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
