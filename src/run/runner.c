/* runner.c: experiments run in a child process; records, progress and the result come back over a pipe.
 *
 * Why a child: CUDA_DEVICE_MAX_CONNECTIONS is read when a CUDA context is created, so each run needs a fresh
 * process; a crash or a CUDA error in the child cannot take the UI down with it.
 *
 * The child writes the frames of wire.h; runner_poll reads them. runner_attach reads the same stream from any
 * process (the program `streamscope record` launches). */
#include "run/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/vec.h"
#include "core/wire.h"
#include "core/xalloc.h"

/* runner_verbose says whether SS_VERBOSE=1 asks for the backend's progress lines on stderr. */
static bool runner_verbose(void)
{
	const char *v = getenv("SS_VERBOSE");

	return v != NULL && strcmp(v, "1") == 0;
}

/* Header of one frame (as wire.c writes it). */
struct runner_hdr {
	uint32_t type;
	uint32_t len;
};

static void runner_sink_record(void *ctx, const struct ss_record *r, const char *name)
{
	wire_record(ctx, r, name);
}

static void runner_sink_progress(void *ctx, const char *msg)
{
	wire_progress(ctx, msg);
}

static void runner_sink_stream(void *ctx, int index, uint32_t raw_id, int kind)
{
	wire_stream(ctx, index, raw_id, kind);
}

static void runner_sink_launch(void *ctx, const struct ss_launch *l, const char *full_name)
{
	wire_launch(ctx, l, full_name);
}

/* The child's whole life: set the environment CUDA reads at context creation, run, report, exit. */
static void runner_child_main(int fd, pid_t parent, const struct ss_backend *b, const struct ss_experiment *e)
{
	struct wire_writer c;
	struct ss_sink sink;
	struct ss_oplist ops;
	struct ss_run_result res;
	char *cause = NULL, env[16];

	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_IGN);          /* the parent decides when a run stops... */
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* ...and a run never outlives its parent */
	if (getppid() != parent)
		_exit(3); /* the parent died before prctl took effect */
	if (wire_open(&c, fd) != 0)
		_exit(3);
	snprintf(env, sizeof env, "%d", e->connections);
	setenv("CUDA_DEVICE_MAX_CONNECTIONS", env, 1);
	if (experiment_validate(e, &cause) != 0) {
		wire_error(&c, 2, cause);
		_exit(2);
	}
	memset(&res, 0, sizeof res);
	sink.ctx = &c;
	sink.record = runner_sink_record;
	sink.progress = runner_sink_progress;
	sink.stream = runner_sink_stream;
	sink.launch = runner_sink_launch;
	planner_build(e, &ops);
	if (b->run(e, &ops, &sink, &res, &cause) != 0) {
		wire_error(&c, 3, cause ? cause : "the backend failed without saying why");
		wire_close(&c);
		_exit(3);
	}
	wire_result(&c, &res);
	wire_close(&c);
	_exit(0);
}

void runner_attach(struct ss_runner *r, pid_t pid, int fd)
{
	memset(r, 0, sizeof *r);
	r->pid = pid;
	r->fd = fd;
	r->own_streams = true;
	fcntl(r->fd, F_SETFL, fcntl(r->fd, F_GETFL) | O_NONBLOCK);
	fcntl(r->fd, F_SETFD, FD_CLOEXEC);
}

int runner_start(struct ss_runner *r, const struct ss_backend *b, const struct ss_experiment *e, char **cause)
{
	int fds[2];
	pid_t parent;

	memset(r, 0, sizeof *r);
	r->pid = -1;
	r->fd = -1;
	if (experiment_validate(e, cause) != 0)
		return -1;
	snprintf(r->label, sizeof r->label, "%s, %d stream%s: ", experiment_preset_name(e->preset), e->streams,
	         e->streams == 1 ? "" : "s");
	if (pipe(fds) != 0) {
		*cause = xasprintf("cannot create a pipe to the runner: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	parent = getpid();
	r->pid = fork();
	if (r->pid < 0) {
		*cause = xasprintf("cannot start the runner process: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (r->pid == 0) {
		close(fds[0]);
		runner_child_main(fds[1], parent, b, e);
	}
	close(fds[1]);
	r->fd = fds[0];
	fcntl(r->fd, F_SETFL, fcntl(r->fd, F_GETFL) | O_NONBLOCK);
	fcntl(r->fd, F_SETFD, FD_CLOEXEC);
	return 0;
}

/* runner_fixed copies a frame's payload p (len bytes) into dst when it has the size of dst's type; false, dst
 * untouched, otherwise (a frame of another layout is ignored). */
static bool runner_fixed(const unsigned char *p, size_t len, void *dst, size_t size)
{
	if (len != size)
		return false;
	memcpy(dst, p, size);
	return true;
}

/* runner_name interns the n bytes of text at p (the tail of a frame; at most 4096 of them) in tl: its id, 0 for
 * none. */
static uint32_t runner_name(struct ss_timeline *tl, const unsigned char *p, size_t n)
{
	char name[4097];

	if (n > 4096)
		n = 4096;
	memcpy(name, p, n);
	name[n] = '\0';
	return timeline_intern(tl, name);
}

/* Parses every complete message in r->buf; keeps a partial tail. */
static void runner_parse(struct ss_runner *r, struct ss_timeline *tl)
{
	size_t off = 0;

	while (r->len - off >= sizeof(struct runner_hdr)) {
		struct runner_hdr h;
		const unsigned char *p;

		memcpy(&h, r->buf + off, sizeof h);
		if (r->len - off - sizeof h < h.len)
			break;
		p = r->buf + off + sizeof h;
		switch (h.type) {
		case WIRE_RECORD:
			if (h.len >= sizeof(struct ss_record)) {
				struct ss_record rec;

				memcpy(&rec, p, sizeof rec);
				rec.name = runner_name(tl, p + sizeof rec, h.len - sizeof rec);
				timeline_add(tl, &rec);
			}
			break;
		case WIRE_LAUNCH:
			if (h.len >= sizeof(struct ss_launch)) {
				struct ss_launch l;

				memcpy(&l, p, sizeof l);
				l.full_name = runner_name(tl, p + sizeof l, h.len - sizeof l);
				timeline_add_launch(tl, &l);
			}
			break;
		case WIRE_DEVICE: {
			struct wire_device wd;

			if (!runner_fixed(p, h.len, &wd, sizeof wd))
				break;
			wd.name[sizeof wd.name - 1] = wd.uuid[sizeof wd.uuid - 1] = '\0';
			timeline_set_device(tl, wd.index, wd.name[0] ? wd.name : NULL, wd.uuid[0] ? wd.uuid : NULL,
			                    wd.context);
			timeline_set_copy_engines(tl, wd.index, wd.copy_engines);
			break;
		}
		case WIRE_STREAM: {
			struct wire_stream ws;

			if (!runner_fixed(p, h.len, &ws, sizeof ws))
				break;
			if (r->own_streams)
				*VEC_PUSH(r->streams, r->nstreams, r->streams_cap, 64) = ws;
			else /* bad values: ignored */
				timeline_set_stream(tl, ws.index, ws.raw_id, (int)ws.kind);
			break;
		}
		case WIRE_PROGRESS: {
			size_t n = h.len < sizeof r->progress - 1 ? h.len : sizeof r->progress - 1;
			memcpy(r->progress, p, n);
			r->progress[n] = '\0';
			/* SS_VERBOSE=1: every progress line of the backend (each repeat's times...) on stderr, each
			 * naming its run (a run's one-stream twin is a run of its own) */
			if (runner_verbose())
				fprintf(stderr, "streamscope: %s%s\n", r->label, r->progress);
			break;
		}
		case WIRE_RESULT:
			runner_fixed(p, h.len, &r->res, sizeof r->res);
			r->code = 0;
			r->finished = true;
			break;
		case WIRE_ERROR: {
			int32_t code = 3;
			size_t n = h.len >= sizeof code ? h.len - sizeof code : 0;

			if (h.len >= sizeof code)
				memcpy(&code, p, sizeof code);
			free(r->error);
			r->error = xmalloc(n + 1);
			memcpy(r->error, p + (h.len - n), n);
			r->error[n] = '\0';
			if (n == 0) {
				free(r->error);
				r->error = xstrdup("the capture process reported an error without text");
			}
			r->code = code > 0 ? code : 3;
			r->finished = true;
			break;
		}
		default:
			break;
		}
		off += sizeof h + h.len;
	}
	memmove(r->buf, r->buf + off, r->len - off);
	r->len -= off;
}

/* Reaps the child after EOF and turns an unreported death into an error. */
static void runner_reap(struct ss_runner *r)
{
	int status = 0;

	if (r->pid > 0 && waitpid(r->pid, &status, 0) == r->pid) {
		r->status = status;
		if (!r->finished) {
			r->code = 3;
			free(r->error);
			if (WIFSIGNALED(status))
				r->error = xasprintf("the runner process crashed (signal %d: %s)", WTERMSIG(status),
				                     strsignal(WTERMSIG(status)));
			else
				r->error = xasprintf("the runner process exited with status %d without a result",
				                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		}
	}
	r->pid = -1;
	r->finished = true;
}

int runner_poll(struct ss_runner *r, struct ss_timeline *tl, bool block)
{
	size_t budget = 8u << 20; /* without block: at most this much per call, so a fast child can't starve keys */

	if (r->fd < 0)
		return 1;
	for (;;) {
		ssize_t n;

		VEC_RESERVE(r->buf, r->len, r->cap, 65536, 1 << 17);
		n = read(r->fd, r->buf + r->len, r->cap - r->len);
		if (n > 0) {
			r->len += (size_t)n;
			runner_parse(r, tl);
			if (!block && (size_t)n >= budget)
				return 0;
			if (!block)
				budget -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			struct pollfd pfd = {r->fd, POLLIN, 0};

			if (!block)
				return 0;
			poll(&pfd, 1, -1);
			continue;
		}
		/* EOF or a read error: the child is done. */
		close(r->fd);
		r->fd = -1;
		runner_reap(r);
		return 1;
	}
}

void runner_cancel(struct ss_runner *r)
{
	if (r->pid > 0) {
		kill(r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
		r->pid = -1;
	}
	if (r->fd >= 0) {
		close(r->fd);
		r->fd = -1;
	}
}

void runner_free(struct ss_runner *r)
{
	runner_cancel(r);
	free(r->buf);
	free(r->error);
	free(r->streams);
	memset(r, 0, sizeof *r);
	r->pid = -1;
	r->fd = -1;
}

void runner_result_apply(struct ss_timeline *tl, const struct ss_run_result *res)
{
	tl->modelled = res->modelled;
	tl->dropped = res->dropped;
	snprintf(tl->device, sizeof tl->device, "%s", res->device);
	timeline_set_copy_engines(tl, 0, res->copy_engines);
}

int runner_run(const struct ss_backend *b, const struct ss_experiment *e, struct ss_timeline *tl,
               struct ss_run_result *res, char **cause)
{
	struct ss_runner r;
	int code;

	if (runner_start(&r, b, e, cause) != 0)
		return 2;
	runner_poll(&r, tl, true);
	code = r.code;
	if (code != 0) {
		*cause = r.error ? xstrdup(r.error) : xstrdup("the runner failed");
	} else {
		*res = r.res;
		runner_result_apply(tl, res);
		tl->nstreams = e->streams;
		snprintf(tl->backend, sizeof tl->backend, "%s", b->name);
		timeline_sort(tl);
	}
	runner_free(&r);
	return code;
}

int runner_probe(const struct ss_backend *b, char *device, size_t len, char **cause)
{
	int fds[2], status;
	pid_t pid;
	char buf[512];
	ssize_t n, got = 0;

	if (pipe(fds) != 0) {
		*cause = xasprintf("cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		*cause = xasprintf("cannot fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		char dev[256] = "", *why = NULL;
		int rc;

		close(fds[0]);
		rc = b->available(dev, sizeof dev, &why);
		snprintf(buf, sizeof buf, "%c%s", rc == 0 ? '+' : '-', rc == 0 ? dev : (why ? why : "unavailable"));
		if (write(fds[1], buf, strlen(buf)) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			got += n;
	close(fds[0]);
	waitpid(pid, &status, 0);
	buf[got] = '\0';
	if (got > 0 && buf[0] == '+') {
		snprintf(device, len, "%s", buf + 1);
		return 0;
	}
	if (got > 0)
		*cause = xstrdup(buf + 1);
	else
		*cause = xasprintf("the %s backend probe crashed (%s)", b->name,
		                   WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "no answer");
	return -1;
}

uint64_t runner_makespan(const struct ss_backend *b, const struct ss_experiment *e, int *nchunks, char **cause)
{
	static const struct ss_sink none = {NULL, NULL, NULL, NULL, NULL};
	struct ss_oplist ops;
	struct ss_run_result res;
	int rc;

	planner_build(e, &ops);
	if (nchunks != NULL)
		*nchunks = ops.nchunks;
	memset(&res, 0, sizeof res);
	rc = b->run(e, &ops, &none, &res, cause);
	planner_free(&ops);
	if (rc != 0)
		return 0;
	return res.have_untraced ? res.untraced_ns : res.traced_ns;
}
