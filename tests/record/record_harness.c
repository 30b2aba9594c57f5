/* record_harness.c: a program for the CI tests of `streamscope record` on machines without a GPU. It stands in
 * for what only a GPU run produces: it writes, on the channel the injection library would use (STREAMSCOPE_FD in
 * the launched pid, else the --children socket), a wire stream shaped like the library's (src/record/contract.h),
 * with the engine's own wire writer, so that the parent's handling (stream indices and kinds, times, SYNC threads,
 * incomplete traces, children, exit statuses) is tested end to end. It is a test double, named as one: the real
 * library is exercised by mode "inject" (and, with a GPU, by tests/record/h200.sh).
 *
 * usage: record_harness MODE
 *   ok        a complete stream: 3 streams, legacy and per-thread work, API, SYNC, a marker; exit 0
 *   many      a complete stream of 130 streams (65 blocking, 64 non-blocking, one "kind unknown"), each with its own
 *             amount of work (stream i: i + 1 kernels of 1 us, and a copy on every tenth), the table sent in
 *             pieces as the library sends it
 *   crash     part of a stream, then SIGSEGV (no core file)
 *   children  ok in this process, plus a child process (fork + exec of "child") that streams its own records
 *   child     (used by children) records on the --children socket only; nothing when there is none
 *   env       prints the environment the parent set, one VAR=value per line; records nothing
 *   hold      a complete stream, but a grandchild keeps the pipe open for 5 s after this process exits
 *   hold-crash  like hold, without the result (killed by SIGKILL)
 *   inject    loads the library named by CUDA_INJECTION64_PATH and calls InitializeInjection, as CUDA does */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/wire.h"

/* Times like CUPTI's (ns since the epoch). */
#define T0 1764400000000000000ull

/* The channel this process would record on, as the injection library picks it; -1 for none. */
static int harness_channel(void)
{
	const char *fd = getenv("STREAMSCOPE_FD"), *pid = getenv("STREAMSCOPE_PID"), *path = getenv("STREAMSCOPE_SOCK");
	struct sockaddr_un sa;
	int s;

	if (fd != NULL && pid != NULL && atol(pid) == (long)getpid())
		return atoi(fd);
	if (path == NULL || *path == '\0')
		return -1;
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof sa) != 0)
		return -1;
	return s;
}

static void harness_rec(struct wire_writer *w, int kind, int32_t stream, uint32_t raw, uint64_t start, uint64_t len,
                        uint32_t corr, uint32_t thread, const char *name)
{
	struct ss_record r;

	memset(&r, 0, sizeof r);
	r.kind = (uint8_t)kind;
	r.stream = stream;
	r.raw_stream = raw;
	r.start = start;
	r.end = start + len;
	r.correlation = corr;
	r.thread = thread;
	r.bytes = kind <= SS_KIND_MEMSET ? 4096 : 0;
	wire_record(w, &r, name);
}

/* The kind the "many" mode gives stream j: even blocking, odd non-blocking, the last one unknown. */
static int harness_many_kind(int j)
{
	if (j == 129)
		return SS_SKIND_UNKNOWN;
	return j % 2 ? SS_SKIND_NONBLOCKING : SS_SKIND_BLOCKING;
}

/* The stream of a complete small program; with result false it stops before the result. */
static void harness_stream(struct wire_writer *w, bool result, uint32_t tid)
{
	struct ss_run_result res;

	wire_progress(w, "streams ");
	/* an API call that arrives after later GPU work but started first: the parent must rebase onto it */
	harness_rec(w, SS_KIND_KERNEL, 0, 13, T0 + 5000, 1000, 2, 0, "k0");
	harness_rec(w, SS_KIND_API, SS_STREAM_HOST, 0, T0 + 1000, 500, 1, tid, "cudaMemcpyAsync");
	harness_rec(w, SS_KIND_H2D, 0, 13, T0 + 2000, 2000, 1, 3, "Memcpy HtoD (Pinned -> Device)");
	harness_rec(w, SS_KIND_API, SS_STREAM_HOST, 0, T0 + 1600, 100, 2, tid, "cudaLaunchKernel");
	harness_rec(w, SS_KIND_KERNEL, 1, 14, T0 + 5000, 1000, 3, 0, "k1");
	harness_rec(w, SS_KIND_KERNEL, 2, 15, T0 + 6000, 1000, 4, 0, "k2");
	harness_rec(w, SS_KIND_KERNEL, SS_STREAM_LEGACY, 7, T0 + 7000, 1000, 5, 0, "legacy");
	harness_rec(w, SS_KIND_KERNEL, SS_STREAM_PER_THREAD, 20, T0 + 8000, 1000, 6, 0, "per-thread");
	harness_rec(w, SS_KIND_API, SS_STREAM_HOST, 0, T0 + 8500, 1500, 9, tid, "cudaDeviceSynchronize");
	harness_rec(w, SS_KIND_SYNC, SS_STREAM_HOST, UINT32_MAX, T0 + 8600, 1300, 9, 0, "cudaDeviceSynchronize");
	harness_rec(w, SS_KIND_MARKER, SS_STREAM_HOST, 0, T0 + 900, 9500, 77, tid, "whole run");
	wire_stream(w, 0, 13, SS_SKIND_BLOCKING);
	wire_stream(w, 1, 14, SS_SKIND_NONBLOCKING);
	wire_stream(w, 2, 15, SS_SKIND_UNKNOWN);
	wire_flush(w);
	if (!result)
		return;
	wire_stream(w, 2, 15, SS_SKIND_BLOCKING);
	memset(&res, 0, sizeof res);
	snprintf(res.device, sizeof res.device, "Harness GPU");
	res.dropped = 2;
	res.repeats = 1;
	wire_result(w, &res);
}

static int harness_open(struct wire_writer *w)
{
	int fd = harness_channel();

	if (fd < 0)
		return -1;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	return wire_open(w, fd);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "ok";
	struct wire_writer w;
	uint32_t tid = (uint32_t)getpid();

	if (strcmp(mode, "env") == 0) {
		const char *vars[] = {"CUDA_INJECTION64_PATH", "NVTX_INJECTION64_PATH", "STREAMSCOPE_FD",
		                      "STREAMSCOPE_PID",       "STREAMSCOPE_SOCK",      "STREAMSCOPE_FLUSH_MS"};
		const char *fd = getenv("STREAMSCOPE_FD");

		for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
			printf("%s=%s\n", vars[i], getenv(vars[i]) ? getenv(vars[i]) : "");
		printf("FD_OPEN=%d\nPID_MATCH=%d\n", fd != NULL && fcntl(atoi(fd), F_GETFD) >= 0,
		       getenv("STREAMSCOPE_PID") != NULL && atol(getenv("STREAMSCOPE_PID")) == (long)getpid());
		return 0;
	}
	if (strcmp(mode, "inject") == 0) {
		const char *lib = getenv("CUDA_INJECTION64_PATH");
		void *h = lib != NULL ? dlopen(lib, RTLD_NOW | RTLD_LOCAL) : NULL;
		int (*init)(void) = h != NULL ? (int (*)(void))dlsym(h, "InitializeInjection") : NULL;

		if (init == NULL) {
			fprintf(stderr, "record_harness: cannot load the injection library '%s': %s\n", lib ? lib : "",
			        dlerror());
			return 10;
		}
		printf("InitializeInjection=%d\n", init());
		return 0;
	}
	if (strcmp(mode, "many") == 0) {
		struct ss_run_result res;
		uint32_t corr = 1;

		if (harness_open(&w) != 0)
			return 0;
		wire_progress(&w, "streams ");
		for (int i = 0; i < 130; i++) {
			uint64_t t = T0 + 1000;

			for (int k = 0; k <= i; k++, t += 2000)
				harness_rec(&w, SS_KIND_KERNEL, i, 100 + (uint32_t)i, t, 1000, corr++, 0, "many");
			if (i % 10 == 0)
				harness_rec(&w, SS_KIND_H2D, i, 100 + (uint32_t)i, t, 500, corr++, 0, "Memcpy HtoD");
			/* the table in pieces, as the library sends it after each buffer */
			if (i % 40 == 39 || i == 129)
				for (int j = i - i % 40; j <= i; j++)
					wire_stream(&w, j, 100 + (uint32_t)j, harness_many_kind(j));
		}
		harness_rec(&w, SS_KIND_API, SS_STREAM_HOST, 0, T0 + 500, 100, 1, tid, "cudaLaunchKernel");
		memset(&res, 0, sizeof res);
		snprintf(res.device, sizeof res.device, "Harness GPU");
		res.repeats = 1;
		wire_result(&w, &res);
		wire_close(&w);
		printf("record_harness: many done\n");
		return 0;
	}
	if (strcmp(mode, "child") == 0) {
		if (harness_open(&w) != 0)
			return 0;
		wire_progress(&w, "streams ");
		wire_stream(&w, 0, 13, SS_SKIND_NONBLOCKING);
		harness_rec(&w, SS_KIND_KERNEL, 0, 13, T0 + 3000, 1000, 1, 0, "child kernel");
		harness_rec(&w, SS_KIND_API, SS_STREAM_HOST, 0, T0 + 2500, 100, 1, tid, "cudaLaunchKernel");
		{
			struct ss_run_result res;

			memset(&res, 0, sizeof res);
			snprintf(res.device, sizeof res.device, "Harness GPU");
			wire_result(&w, &res);
		}
		wire_close(&w);
		return 0;
	}
	if (strcmp(mode, "children") == 0) {
		pid_t c = fork();

		if (c == 0) {
			execl("/proc/self/exe", argv[0], "child", (char *)NULL);
			_exit(127);
		}
		waitpid(c, NULL, 0);
		mode = "ok";
	}
	if (strcmp(mode, "hold") == 0 || strcmp(mode, "hold-crash") == 0) {
		/* a grandchild that inherits the pipe (a shell's background job would) and outlives this process */
		const char *fd = getenv("STREAMSCOPE_FD");

		if (fork() == 0) {
			int null = open("/dev/null", O_WRONLY);

			/* only the recording pipe is held: the test's own output pipes are not */
			dup2(null, 1);
			dup2(null, 2);
			if (fd != NULL)
				fcntl(atoi(fd), F_SETFD, 0);
			execlp("sleep", "sleep", "5", (char *)NULL);
			_exit(127);
		}
	}
	if (harness_open(&w) != 0) {
		fprintf(stderr, "record_harness: no channel\n");
		return 9;
	}
	if (strcmp(mode, "crash") == 0 || strcmp(mode, "hold-crash") == 0) {
		struct rlimit no = {0, 0};

		harness_stream(&w, false, tid);
		setrlimit(RLIMIT_CORE, &no);
		signal(SIGSEGV, SIG_DFL); /* a sanitizer's handler would turn the crash into exit 1 */
		raise(strcmp(mode, "crash") == 0 ? SIGSEGV : SIGKILL);
	}
	harness_stream(&w, true, tid);
	wire_close(&w);
	printf("record_harness: %s done\n", mode);
	return 0;
}
