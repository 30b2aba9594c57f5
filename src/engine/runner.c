/* runner.c: experiments run in a child process; records, progress and the result come back over a pipe.
 *
 * Why a child: CUDA_DEVICE_MAX_CONNECTIONS is read when a CUDA context is created, so each run needs a fresh
 * process; a crash or a CUDA error in the child cannot take the UI down with it.
 *
 * Wire format: messages of {uint32 type, uint32 length, payload}. RECORD carries a struct ss_record followed by
 * its name bytes; PROGRESS a text; RESULT a struct ss_run_result; ERROR an int32 exit code and a text. */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xalloc.h"

enum { RUNNER_RECORD = 1, RUNNER_PROGRESS = 2, RUNNER_RESULT = 3, RUNNER_ERROR = 4 };

/* Header of one message on the pipe. */
struct runner_hdr {
	uint32_t type;
	uint32_t len;
};

/* The child's side: a buffered writer on the pipe. */
struct runner_child {
	FILE *out;
};

static void runner_send(struct runner_child *c, uint32_t type, const void *a, size_t alen, const void *b,
			size_t blen)
{
	struct runner_hdr h = {type, (uint32_t)(alen + blen)};

	if (fwrite(&h, sizeof h, 1, c->out) != 1 || (alen && fwrite(a, alen, 1, c->out) != 1) ||
	    (blen && fwrite(b, blen, 1, c->out) != 1))
		_exit(3); /* the parent went away */
}

static void runner_sink_record(void *ctx, const struct ss_record *r, const char *name)
{
	size_t n = name ? strnlen(name, 4096) : 0;

	runner_send(ctx, RUNNER_RECORD, r, sizeof *r, name, n);
}

static void runner_sink_progress(void *ctx, const char *msg)
{
	struct runner_child *c = ctx;

	runner_send(c, RUNNER_PROGRESS, msg, strnlen(msg, 120), NULL, 0);
	fflush(c->out);
}

static void runner_send_error(struct runner_child *c, int32_t code, const char *msg)
{
	runner_send(c, RUNNER_ERROR, &code, sizeof code, msg, strlen(msg));
	fflush(c->out);
}

/* The child's whole life: set the environment CUDA reads at context creation, run, report, exit. */
static void runner_child_main(int fd, const struct ss_backend *b, const struct ss_experiment *e)
{
	struct runner_child c;
	struct ss_sink sink;
	struct ss_oplist ops;
	struct ss_run_result res;
	char *cause = NULL, env[16];

	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_IGN); /* the parent decides when a run stops */
	c.out = fdopen(fd, "w");
	if (c.out == NULL)
		_exit(3);
	setvbuf(c.out, NULL, _IOFBF, 1 << 16);
	snprintf(env, sizeof env, "%d", e->connections);
	setenv("CUDA_DEVICE_MAX_CONNECTIONS", env, 1);
	if (experiment_validate(e, &cause) != 0) {
		runner_send_error(&c, 2, cause);
		_exit(2);
	}
	memset(&res, 0, sizeof res);
	sink.ctx = &c;
	sink.record = runner_sink_record;
	sink.progress = runner_sink_progress;
	planner_build(e, &ops);
	if (b->run(e, &ops, &sink, &res, &cause) != 0) {
		runner_send_error(&c, 3, cause ? cause : "the backend failed without saying why");
		fclose(c.out);
		_exit(3);
	}
	runner_send(&c, RUNNER_RESULT, &res, sizeof res, NULL, 0);
	fclose(c.out);
	_exit(0);
}

int runner_start(struct ss_runner *r, const struct ss_backend *b, const struct ss_experiment *e, char **cause)
{
	int fds[2];

	memset(r, 0, sizeof *r);
	r->pid = -1;
	r->fd = -1;
	if (experiment_validate(e, cause) != 0)
		return -1;
	if (pipe(fds) != 0) {
		*cause = xasprintf("cannot create a pipe to the runner: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	r->pid = fork();
	if (r->pid < 0) {
		*cause = xasprintf("cannot start the runner process: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (r->pid == 0) {
		close(fds[0]);
		runner_child_main(fds[1], b, e);
	}
	close(fds[1]);
	r->fd = fds[0];
	fcntl(r->fd, F_SETFL, fcntl(r->fd, F_GETFL) | O_NONBLOCK);
	fcntl(r->fd, F_SETFD, FD_CLOEXEC);
	return 0;
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
		case RUNNER_RECORD:
			if (h.len >= sizeof(struct ss_record)) {
				struct ss_record rec;
				char name[4097];
				size_t n = h.len - sizeof rec;

				memcpy(&rec, p, sizeof rec);
				if (n > 4096)
					n = 4096;
				memcpy(name, p + sizeof rec, n);
				name[n] = '\0';
				rec.name = timeline_intern(tl, name);
				timeline_add(tl, &rec);
			}
			break;
		case RUNNER_PROGRESS: {
			size_t n = h.len < sizeof r->progress - 1 ? h.len : sizeof r->progress - 1;
			memcpy(r->progress, p, n);
			r->progress[n] = '\0';
			break;
		}
		case RUNNER_RESULT:
			if (h.len == sizeof r->res)
				memcpy(&r->res, p, sizeof r->res);
			r->code = 0;
			r->finished = true;
			break;
		case RUNNER_ERROR: {
			int32_t code = 3;

			if (h.len >= sizeof code)
				memcpy(&code, p, sizeof code);
			free(r->error);
			r->error = xmalloc(h.len - sizeof code + 1);
			memcpy(r->error, p + sizeof code, h.len - sizeof code);
			r->error[h.len - sizeof code] = '\0';
			r->code = code;
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
	if (r->fd < 0)
		return 1;
	for (;;) {
		ssize_t n;

		if (r->cap - r->len < 65536) {
			r->cap = r->cap == 0 ? 1 << 17 : r->cap * 2;
			r->buf = xrealloc(r->buf, r->cap);
		}
		n = read(r->fd, r->buf + r->len, r->cap - r->len);
		if (n > 0) {
			r->len += (size_t)n;
			runner_parse(r, tl);
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
	memset(r, 0, sizeof *r);
	r->pid = -1;
	r->fd = -1;
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
		tl->modelled = res->modelled;
		tl->dropped = res->dropped;
		tl->nstreams = e->streams;
		snprintf(tl->backend, sizeof tl->backend, "%s", b->name);
		snprintf(tl->device, sizeof tl->device, "%s", res->device);
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
