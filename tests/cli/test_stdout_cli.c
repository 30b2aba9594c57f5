/* test_stdout_cli.c: output that cannot be written is an error. streamscope with its standard output on /dev/full
 * (every write fails: no space) or closed exits 1 with one line on stderr naming the failure, for a command that
 * prints a little (ops, --help, keys) and one that prints JSON (run --json on the model). */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* run_to runs the binary with args (NULL-terminated), its stdout on /dev/full (full) or closed (!full); returns its
 * exit status and its stderr in err (NUL-terminated, truncated to len - 1 bytes). */
static int run_to(bool full, const char *const *args, char *err, size_t len)
{
	int fd[2], status;
	size_t n = 0;
	ssize_t r;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int out = full ? open("/dev/full", O_WRONLY) : -1;

		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		if (full) {
			dup2(out, 1);
			close(out);
		} else {
			close(1);
		}
		execv(SS_BINARY, (char *const *)args);
		_exit(127);
	}
	close(fd[1]);
	while (n + 1 < len && (r = read(fd[0], err + n, len - 1 - n)) > 0)
		n += (size_t)r;
	err[n] = '\0';
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* expect_lost: the command exits 1 with exactly one line on stderr that says standard output could not be
 * written. */
static void expect_lost(bool full, const char *const *args)
{
	char err[4096];

	assert_int_equal(run_to(full, args, err, sizeof err), 1);
	assert_non_null(strstr(err, "streamscope: cannot write standard output: "));
	assert_non_null(strstr(err, full ? "No space left on device" : "Bad file descriptor"));
	assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
}

static void test_full(void **state)
{
	static const char *const ops[] = {SS_BINARY, "ops", "--streams", "2", NULL};
	static const char *const help[] = {SS_BINARY, "--help", NULL};
	static const char *const json[] = {SS_BINARY, "run", "--backend", "model", "--streams", "2", "--json", NULL};

	(void)state;
	expect_lost(true, ops);
	expect_lost(true, help);
	expect_lost(true, json);
}

static void test_closed(void **state)
{
	static const char *const keys[] = {SS_BINARY, "keys", NULL};
	static const char *const ops[] = {SS_BINARY, "ops", "--streams", "2", "--json", NULL};

	(void)state;
	expect_lost(false, keys);
	expect_lost(false, ops);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_full),
	    cmocka_unit_test(test_closed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
