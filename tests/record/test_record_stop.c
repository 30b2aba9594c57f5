/* test_record_stop.c: `streamscope record` and a program that stops itself (SIGSTOP, SIGTSTP).
 * Under job control (the test plays a job-control shell in a pseudo-terminal: streamscope in a process group of
 * its own, the shell waiting with WUNTRACED) streamscope says which signal stopped the program and stops itself
 * with it; continued, it continues the program and ends with its real status. Without job control (the test's
 * own process group, or a session with no terminal) it says so and keeps waiting until the program is continued.
 * Every wait has a deadline: a regression fails here with a timeout message and kills what it started, it does not
 * hang the suite. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "io_fixture.h"

/* How long any one step may take before the test calls it a hang. */
#define STOP_DEADLINE_S 15.0

#ifdef SS_RECORD_HAVE_CUDA

/* Seconds on the monotonic clock. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Appends what fd has to buf (len bytes, kept NUL-terminated) until buf holds needle, fd ends or deadline (a
 * now_s() time) passes. Whether needle arrived. */
static bool read_until(int fd, char *buf, size_t len, const char *needle, double deadline)
{
	size_t n = strlen(buf);

	while (strstr(buf, needle) == NULL) {
		struct pollfd p = {fd, POLLIN, 0};
		double left = deadline - now_s();
		ssize_t r;

		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			return strstr(buf, needle) != NULL;
		r = read(fd, buf + n, len - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		n += (size_t)r;
		buf[n] = '\0';
	}
	return true;
}

/* Waits for pid with flags (WUNTRACED or 0) until deadline. pid's status, or -1 when the deadline passed. */
static int wait_until(pid_t pid, int flags, double deadline)
{
	int status;

	while (now_s() < deadline) {
		pid_t r = waitpid(pid, &status, flags | WNOHANG);

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		usleep(10000);
	}
	return -1;
}

/* The pid the program wrote to path (0 until it has). */
static pid_t read_pid(const char *path)
{
	FILE *f = fopen(path, "r");
	long pid = 0;

	if (f == NULL)
		return 0;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	return (pid_t)pid;
}

/* Kills what a failed test left: the program (by the pid it wrote), streamscope, and pid (a helper); removes the
 * test's directory (the pid file's). */
static void kill_all(const char *pidfile, pid_t ss, pid_t helper)
{
	pid_t prog = read_pid(pidfile);
	char dir[128];

	if (prog > 0)
		kill(prog, SIGKILL);
	if (ss > 0)
		kill(ss, SIGKILL);
	if (helper > 0)
		kill(helper, SIGKILL);
	if (ss > 0)
		waitpid(ss, NULL, 0);
	if (helper > 0)
		waitpid(helper, NULL, 0);
	snprintf(dir, sizeof dir, "%s", pidfile);
	*strrchr(dir, '/') = '\0';
	fx_rmdir(dir);
}

/* A fresh directory for the test's pid file and trace. */
static void tmpdir(char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/ss-record-stop-XXXXXX");
	assert_non_null(mkdtemp(buf));
}

/* The program: writes its pid, stops itself with signal sig ("STOP", "TSTP"), and once continued exits 7. */
static void script(char *buf, size_t len, const char *pidfile, const char *sig)
{
	snprintf(buf, len, "echo $$ > %s; kill -%s $$; exit 7", pidfile, sig);
}

/* Not under job control: streamscope in the test's process group (new_session false) or in a session of its own
 * with no terminal (true). It reports the stop and how to continue, does not stop itself, and once the test
 * continues the program it ends with the program's status. */
static void stop_without_job_control(bool new_session)
{
	char dir[64], pidfile[96], trace[96], cmd[256], err[16384] = "", want[128];
	int pe[2], status;
	double deadline;
	pid_t ss, prog;

	tmpdir(dir, sizeof dir);
	snprintf(pidfile, sizeof pidfile, "%s/pid", dir);
	snprintf(trace, sizeof trace, "%s/t.sqlite", dir);
	script(cmd, sizeof cmd, pidfile, "STOP");
	assert_int_equal(pipe(pe), 0);
	ss = fork();
	assert_true(ss >= 0);
	if (ss == 0) {
		int nul = open("/dev/null", O_RDWR);

		if (new_session)
			setsid();
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(pe[1], 2);
		close(pe[0]);
		close(pe[1]);
		execl(SS_BINARY, SS_BINARY, "record", "-o", trace, "--", "/bin/sh", "-c", cmd, (char *)NULL);
		_exit(98);
	}
	close(pe[1]);
	deadline = now_s() + STOP_DEADLINE_S;
	if (!read_until(pe[0], err, sizeof err, "was stopped by", deadline)) {
		kill_all(pidfile, ss, 0);
		fail_msg("no word of the stopped program within %.0f s (streamscope waits on it forever?); stderr:\n%s",
		         STOP_DEADLINE_S, err);
	}
	read_until(pe[0], err, sizeof err, "\n", deadline);
	prog = read_pid(pidfile);
	assert_true(prog > 0);
	assert_non_null(strstr(err, "SIGSTOP"));
	assert_non_null(strstr(err, "not under job control"));
	snprintf(want, sizeof want, "kill -CONT %ld", (long)prog);
	if (strstr(err, want) == NULL) {
		kill_all(pidfile, ss, 0);
		fail_msg("expected \"%s\" in:\n%s", want, err);
	}
	/* it keeps waiting rather than stopping itself (nobody would continue it) */
	if (wait_until(ss, WUNTRACED, now_s() + 0.3) != -1) {
		kill_all(pidfile, ss, 0);
		fail_msg("streamscope stopped or ended while the program was stopped; stderr:\n%s", err);
	}
	assert_int_equal(kill(prog, SIGCONT), 0);
	status = wait_until(ss, 0, now_s() + STOP_DEADLINE_S);
	if (status == -1) {
		kill_all(pidfile, ss, 0);
		fail_msg("streamscope did not end within %.0f s of the program being continued", STOP_DEADLINE_S);
	}
	read_until(pe[0], err, sizeof err, "\x01", now_s() + 2); /* the rest, to EOF */
	close(pe[0]);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 7);
	assert_non_null(strstr(err, "exited with status 7"));
	fx_rmdir(dir);
}

static void test_stop_no_job_control(void **state)
{
	(void)state;
	stop_without_job_control(false);
}

static void test_stop_no_terminal(void **state)
{
	(void)state;
	stop_without_job_control(true);
}

/* Under job control: a helper in a pseudo-terminal is the shell (session leader, the terminal's controlling
 * process), streamscope its job in a process group of its own, in the foreground. The helper reports on rp each
 * change it waited for ("stopped N", "exited N", "signalled N", "timeout"), and continues streamscope alone (kill
 * -CONT of its pid, not of the group as fg would): so the program runs on only if streamscope passes SIGCONT on. */
static void stop_under_job_control(const char *sig, int signo)
{
	char dir[64], pidfile[96], trace[96], cmd[256], err[16384] = "", rep[1024] = "", want[128], *line;
	struct winsize ws = {24, 80, 0, 0};
	int pe[2], rp[2], master, status;
	double deadline;
	pid_t helper, ss = 0, prog;

	tmpdir(dir, sizeof dir);
	snprintf(pidfile, sizeof pidfile, "%s/pid", dir);
	snprintf(trace, sizeof trace, "%s/t.sqlite", dir);
	script(cmd, sizeof cmd, pidfile, sig);
	assert_int_equal(pipe(pe), 0);
	assert_int_equal(pipe(rp), 0);
	helper = forkpty(&master, NULL, NULL, &ws);
	assert_true(helper >= 0);
	if (helper == 0) {
		pid_t job;
		int st;

		close(pe[0]);
		close(rp[0]);
		alarm(60);                /* the test is gone: do not outlive it */
		signal(SIGTTOU, SIG_IGN); /* to hand the terminal on and back */
		job = fork();
		if (job == 0) {
			setpgid(0, 0);
			tcsetpgrp(0, getpid());
			signal(SIGTTOU, SIG_DFL);
			dup2(pe[1], 2);
			close(pe[1]);
			close(rp[1]);
			execl(SS_BINARY, SS_BINARY, "record", "-o", trace, "--", "/bin/sh", "-c", cmd, (char *)NULL);
			_exit(98);
		}
		setpgid(job, job);
		tcsetpgrp(0, job);
		dprintf(rp[1], "job %ld\n", (long)job);
		for (int changes = 0; changes < 4; changes++) {
			if (waitpid(job, &st, WUNTRACED) != job)
				_exit(1);
			if (WIFSTOPPED(st)) {
				tcsetpgrp(0, getpgrp());
				dprintf(rp[1], "stopped %d\n", WSTOPSIG(st));
				tcsetpgrp(0, job);
				kill(job, SIGCONT);
				continue;
			}
			if (WIFEXITED(st))
				dprintf(rp[1], "exited %d\n", WEXITSTATUS(st));
			else
				dprintf(rp[1], "signalled %d\n", WTERMSIG(st));
			_exit(0);
		}
		_exit(0);
	}
	close(pe[1]);
	close(rp[1]);
	deadline = now_s() + STOP_DEADLINE_S;
	if (read_until(rp[0], rep, sizeof rep, "\n", deadline))
		ss = (pid_t)strtol(rep + 4, NULL, 10);
	if (!read_until(rp[0], rep, sizeof rep, "stopped", deadline) ||
	    !read_until(rp[0], rep, sizeof rep, "exited", deadline)) {
		read_until(pe[0], err, sizeof err, "\x01", now_s() + 0.2);
		kill_all(pidfile, ss, helper);
		fail_msg("no stop of streamscope followed by its end within %.0f s (it waits on the stopped program "
		         "forever?); the shell saw:\n%sstderr:\n%s",
		         STOP_DEADLINE_S, rep, err);
	}
	read_until(rp[0], rep, sizeof rep, "\x01", now_s() + STOP_DEADLINE_S); /* to EOF */
	read_until(pe[0], err, sizeof err, "\x01", now_s() + STOP_DEADLINE_S);
	close(pe[0]);
	close(rp[0]);
	close(master);
	assert_int_equal(waitpid(helper, &status, 0), helper);
	prog = read_pid(pidfile);
	assert_true(prog > 0);
	if (getenv("TEST_VERBOSE") != NULL)
		fprintf(stderr, "[%s] shell: %sstderr: %s\n", sig, rep, err);
	/* streamscope stopped once, with the program's signal, and ended with the program's status */
	snprintf(want, sizeof want, "stopped %d\nexited 7\n", signo);
	line = strchr(rep, '\n');
	assert_non_null(line);
	assert_string_equal(line + 1, want);
	snprintf(want, sizeof want, "(pid %ld) was stopped by SIG%s", (long)prog, sig);
	if (strstr(err, want) == NULL)
		fail_msg("expected \"%s\" in:\n%s", want, err);
	assert_non_null(strstr(err, "stopping streamscope too"));
	assert_non_null(strstr(err, "exited with status 7"));
	fx_rmdir(dir);
}

static void test_stop_job_control_sigstop(void **state)
{
	(void)state;
	stop_under_job_control("STOP", SIGSTOP);
}

static void test_stop_job_control_sigtstp(void **state)
{
	(void)state;
	stop_under_job_control("TSTP", SIGTSTP);
}

#endif

int main(void)
{
#ifdef SS_RECORD_HAVE_CUDA
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stop_no_job_control),
	    cmocka_unit_test(test_stop_no_terminal),
	    cmocka_unit_test(test_stop_job_control_sigstop),
	    cmocka_unit_test(test_stop_job_control_sigtstp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
#else
	return 0; /* record needs CUDA: test_record_cli checks the one line a build without it prints */
#endif
}
