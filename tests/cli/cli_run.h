/* cli_run.h: running the streamscope binary from a CLI test: what it printed on stdout and stderr and how it
 * ended. Included by the tests/cli tests after cmocka.h (its asserts); SS_BINARY names the executable. */
#ifndef SS_TESTS_CLI_RUN_H
#define SS_TESTS_CLI_RUN_H

#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SS_BINARY
#error "SS_BINARY (the streamscope executable) must be defined"
#endif

/* What one run of the binary printed and how it ended. */
struct out {
	char *out, *err;
	int status; /* exit status, or 128 + signal */
};

/* slurp reads the whole of fd (from its start) into a new string. */
static inline char *slurp(int fd)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t r;

	assert_non_null(buf);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	while ((r = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)r;
		if (cap - len < 2) {
			buf = realloc(buf, cap *= 2);
			assert_non_null(buf);
		}
	}
	buf[len] = '\0';
	close(fd);
	return buf;
}

/* run runs streamscope with argv (NULL-terminated, without the program), stdin /dev/null, stdout and stderr into
 * unlinked temporary files (no pipe to fill), and waits for it. */
static inline void run(struct out *o, const char *const *argv)
{
	char po[] = "/tmp/ss-cli-out-XXXXXX", pe[] = "/tmp/ss-cli-err-XXXXXX";
	int fo = mkstemp(po), fe = mkstemp(pe), st;
	const char *av[32] = {SS_BINARY};
	pid_t pid;

	assert_true(fo >= 0 && fe >= 0);
	unlink(po);
	unlink(pe);
	for (int i = 0; argv[i] != NULL && i < 30; i++)
		av[i + 1] = argv[i];
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(fo, 1);
		dup2(fe, 2);
		unsetenv("STREAMSCOPE_PROFILE");
		execv(SS_BINARY, (char *const *)av);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	o->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	o->out = slurp(fo);
	o->err = slurp(fe);
}

static inline void out_free(struct out *o)
{
	free(o->out);
	free(o->err);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

#endif
