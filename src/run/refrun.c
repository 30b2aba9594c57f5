/* refrun.c: the reference programs run, their output parsed and checked, and the arithmetic of the comparison
 * (see refrun.h). The output format is the one each tests/gpu/reference/ref_*.cu header states. */
#include "run/refrun.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/stats.h"
#include "core/xalloc.h"

#define REFRUN_OUT_MAX (16u << 20) /* stdout kept from one run: far beyond any sweep's lines */
#define REFRUN_ERR_MAX (64u << 10) /* stderr kept: its first line is what is shown */

/* The keys of a line, as bits of the set seen. */
enum refrun_key { KEY_REF, KEY_VERIFIED, KEY_STREAMS, KEY_ORDER, KEY_REPEAT, KEY_MS, KEY_COUNT };

static const char *const refrun_keys[KEY_COUNT] = {"ref", "verified", "streams", "order", "repeat", "ms"};

#define REFRUN_MEASURE ((1u << KEY_REF) | (1u << KEY_STREAMS) | (1u << KEY_ORDER) | (1u << KEY_REPEAT) | (1u << KEY_MS))
#define REFRUN_VERDICT ((1u << KEY_REF) | (1u << KEY_VERIFIED))

/* A decimal integer in [lo, hi] filling all of s[0..n); false otherwise. */
static bool refrun_int(const char *s, size_t n, long lo, long hi, int *out)
{
	long v = 0;

	if (n == 0 || n > 9)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v < lo || v > hi)
		return false;
	*out = (int)v;
	return true;
}

/* Whether s[0..n) is of [a-z0-9-] only. */
static bool refrun_name(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

/* A time in ms: digits, an optional fraction and exponent (what printf's %f and %g write), finite and > 0. */
static bool refrun_ms(const char *s, size_t n, double *out)
{
	char buf[64], *end;
	double v;

	if (n == 0 || n >= sizeof buf || !((s[0] >= '0' && s[0] <= '9') || s[0] == '.'))
		return false; /* no sign, "inf" or "nan" */
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtod(buf, &end);
	if (*end != '\0' || errno != 0 || !isfinite(v) || v <= 0)
		return false;
	*out = v;
	return true;
}

/* The value of key k, s[0..n), into l; 0, or -1 with *cause. */
static int refrun_value(enum refrun_key k, const char *s, size_t n, struct refrun_line *l, char **cause)
{
	int v;
	char name[REFRUN_NAME_MAX];

	switch (k) {
	case KEY_REF:
		if (n == 0 || n >= REFRUN_NAME_MAX || !refrun_name(s, n))
			break;
		memcpy(l->ref, s, n);
		l->ref[n] = '\0';
		return 0;
	case KEY_VERIFIED:
		if (n != 1 || (s[0] != '0' && s[0] != '1'))
			break;
		l->verified = s[0] == '1';
		return 0;
	case KEY_STREAMS:
		if (!refrun_int(s, n, 1, SS_MAX_STREAMS, &l->streams))
			break;
		return 0;
	case KEY_ORDER:
		if (n == 0 || n >= sizeof name)
			break;
		memcpy(name, s, n);
		name[n] = '\0';
		if ((v = experiment_order_parse(name)) < 0)
			break;
		l->order = (enum ss_order)v;
		return 0;
	case KEY_REPEAT:
		if (!refrun_int(s, n, 1, 1000000, &l->repeat))
			break;
		return 0;
	case KEY_MS:
		if (!refrun_ms(s, n, &l->ms))
			break;
		return 0;
	default:
		break;
	}
	{
		static const char *const valid[KEY_COUNT] = {"a name of [a-z0-9-], at most 31 characters",
		                                             "0 or 1",
		                                             NULL,
		                                             NULL,
		                                             "1..1000000",
		                                             "a time in ms, finite and > 0"};
		char range[32];
		const char *what = valid[k];

		if (k == KEY_STREAMS) {
			snprintf(range, sizeof range, "1..%d", SS_MAX_STREAMS);
			what = range;
		} else if (k == KEY_ORDER) {
			what = experiment_valid_list("order");
		}
		*cause = xasprintf("%s=%.*s: valid is %s", refrun_keys[k], (int)(n > 40 ? 40 : n), s, what);
	}
	return -1;
}

int refrun_parse_line(const char *line, size_t len, struct refrun_line *l, char **cause)
{
	unsigned seen = 0;
	size_t i = 0;
	int k;

	memset(l, 0, sizeof *l);
	while (i < len) {
		size_t start, eq, n, klen;

		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		n = i - start;
		for (eq = start; eq < i && line[eq] != '='; eq++)
			;
		if (eq == i) {
			*cause = xasprintf("'%.*s' is not key=value", (int)(n > 40 ? 40 : n), line + start);
			return -1;
		}
		klen = eq - start;
		for (k = 0; k < KEY_COUNT; k++)
			if (strlen(refrun_keys[k]) == klen && memcmp(refrun_keys[k], line + start, klen) == 0)
				break;
		if (k == KEY_COUNT) {
			*cause = xasprintf("unknown key '%.*s' (valid: ref, streams, order, repeat, ms, verified)",
			                   (int)(klen > 40 ? 40 : klen), line + start);
			return -1;
		}
		if (seen == 0 && k != KEY_REF) {
			*cause = xasprintf("the line starts with %s=, not ref=NAME", refrun_keys[k]);
			return -1;
		}
		if (seen & (1u << k)) {
			*cause = xasprintf("%s= appears twice", refrun_keys[k]);
			return -1;
		}
		seen |= 1u << k;
		if (refrun_value((enum refrun_key)k, line + eq + 1, i - eq - 1, l, cause) != 0)
			return -1;
	}
	if (seen == 0) {
		*cause = xasprintf("an empty line (every line is a measurement or the verdict)");
		return -1;
	}
	if (seen == REFRUN_VERDICT) {
		l->verdict = true;
		return 0;
	}
	if (seen == REFRUN_MEASURE)
		return 0;
	if (seen & (1u << KEY_VERIFIED)) {
		*cause = xasprintf("a verdict has ref= and verified= only");
		return -1;
	}
	/* ref is there and verified is not, so one of the measurement's keys is missing */
	for (k = KEY_STREAMS; k < KEY_COUNT - 1 && (seen & (1u << k)); k++)
		;
	*cause = xasprintf("a measurement needs streams=, order=, repeat= and ms=: %s= is missing", refrun_keys[k]);
	return -1;
}

int refrun_collect(const char *text, size_t len, const struct refrun_point *want, struct refrun_times *t, char **cause)
{
	size_t i = 0, cap = 0;
	int lineno = 0;
	bool verdict = false;

	t->ms = NULL;
	t->n = 0;
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl != NULL ? (size_t)(nl - (text + i)) : len - i;
		struct refrun_line l;
		char *why = NULL;

		lineno++;
		if (verdict) {
			*cause = xasprintf("line %d: a line after the verdict (the verdict is the last line)", lineno);
			goto fail;
		}
		if (refrun_parse_line(text + i, n, &l, &why) != 0) {
			*cause = xasprintf("line %d: %s", lineno, why);
			free(why);
			goto fail;
		}
		if (strcmp(l.ref, want->ref) != 0) {
			*cause = xasprintf("line %d: ref=%s, expected ref=%s", lineno, l.ref, want->ref);
			goto fail;
		}
		if (l.verdict) {
			if (!l.verified) {
				*cause = xasprintf("line %d: verified=0: the program's result was wrong", lineno);
				goto fail;
			}
			verdict = true;
		} else if (l.streams != want->streams || l.order != want->order) {
			*cause = xasprintf("line %d: streams=%d order=%s, expected streams=%d order=%s", lineno,
			                   l.streams, experiment_order_name(l.order), want->streams,
			                   experiment_order_name(want->order));
			goto fail;
		} else {
			if (t->n == cap) {
				cap = cap ? 2 * cap : 16;
				t->ms = xreallocarray(t->ms, cap, sizeof *t->ms);
			}
			t->ms[t->n++] = l.ms;
		}
		i += n + (nl != NULL);
	}
	if (!verdict) {
		*cause = xasprintf("no verdict line (ref=%s verified=1): the output ends after %d line%s", want->ref,
		                   lineno, lineno == 1 ? "" : "s");
		goto fail;
	}
	if (t->n == 0) {
		*cause = xasprintf("no measurement of streams=%d order=%s", want->streams,
		                   experiment_order_name(want->order));
		goto fail;
	}
	return 0;
fail:
	refrun_times_free(t);
	return -1;
}

void refrun_times_free(struct refrun_times *t)
{
	free(t->ms);
	t->ms = NULL;
	t->n = 0;
}

/* Appends what fd has to *buf (kept up to max bytes, the rest read and dropped); false at its end or on an error. */
static bool refrun_drain(int fd, char **buf, size_t *len, size_t *cap, size_t max)
{
	char chunk[65536];
	ssize_t n = read(fd, chunk, sizeof chunk);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	if (*len < max) {
		size_t keep = (size_t)n < max - *len ? (size_t)n : max - *len;

		if (*len + keep + 1 > *cap) {
			*cap = (*len + keep + 1) * 2;
			*buf = xrealloc(*buf, *cap);
		}
		memcpy(*buf + *len, chunk, keep);
		*len += keep;
		(*buf)[*len] = '\0';
	}
	return true;
}

static double refrun_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The child's side: stdout and stderr to the pipes, the queue count CUDA reads, the program. Never returns. */
static void refrun_child(const char *path, char *const argv[], int connections, pid_t parent, int out, int err)
{
	char env[16];

	prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives bench */
	if (getppid() != parent)
		_exit(127);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(127);
	if (connections > 0) {
		snprintf(env, sizeof env, "%d", connections);
		setenv("CUDA_DEVICE_MAX_CONNECTIONS", env, 1);
	}
	execv(path, argv);
	dprintf(STDERR_FILENO, "cannot run it: %s\n", strerror(errno));
	_exit(127);
}

int refrun_exec(const char *path, char *const argv[], int connections, int timeout_s, const struct refrun_point *want,
                struct refrun_times *t, char **cause)
{
	int out[2] = {-1, -1}, err[2] = {-1, -1}, status = 0, rc = -1;
	char *obuf = NULL, *ebuf = NULL;
	size_t olen = 0, ocap = 0, elen = 0, ecap = 0;
	bool oopen = true, eopen = true, killed = false;
	double deadline = refrun_now() + timeout_s;
	pid_t pid, parent = getpid();

	t->ms = NULL;
	t->n = 0;
	if (pipe(out) != 0 || pipe(err) != 0) {
		*cause = xasprintf("%s: cannot make a pipe: %s", path, strerror(errno));
		goto done;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		*cause = xasprintf("%s: cannot fork: %s", path, strerror(errno));
		goto done;
	}
	if (pid == 0) {
		close(out[0]);
		close(err[0]);
		refrun_child(path, argv, connections, parent, out[1], err[1]);
	}
	close(out[1]);
	close(err[1]);
	out[1] = err[1] = -1;
	while (oopen || eopen) {
		struct pollfd p[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
		double left = deadline - refrun_now();
		int n;

		p[0].fd = oopen ? out[0] : -1;
		p[1].fd = eopen ? err[0] : -1;
		if (left <= 0) {
			kill(pid, SIGKILL);
			killed = true;
			break;
		}
		n = poll(p, 2, left > 1.0 ? 1000 : (int)(left * 1000) + 1);
		if (n < 0 && errno != EINTR) {
			kill(pid, SIGKILL);
			*cause = xasprintf("%s: poll: %s", path, strerror(errno));
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			goto done;
		}
		if (n > 0 && oopen && (p[0].revents & (POLLIN | POLLHUP | POLLERR)))
			oopen = refrun_drain(out[0], &obuf, &olen, &ocap, REFRUN_OUT_MAX);
		if (n > 0 && eopen && (p[1].revents & (POLLIN | POLLHUP | POLLERR)))
			eopen = refrun_drain(err[0], &ebuf, &elen, &ecap, REFRUN_ERR_MAX);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (killed) {
		*cause = xasprintf("%s did not finish in %d s (killed)", path, timeout_s);
	} else if (WIFSIGNALED(status)) {
		*cause = xasprintf("%s was killed by signal %d%s%.*s", path, WTERMSIG(status), elen > 0 ? ": " : "",
		                   ebuf != NULL ? (int)strcspn(ebuf, "\n") : 0, ebuf != NULL ? ebuf : "");
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		*cause = xasprintf("%s exited with status %d: %.*s", path, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
		                   ebuf != NULL ? (int)strcspn(ebuf, "\n") : 0, ebuf != NULL ? ebuf : "");
		if (ebuf == NULL || strcspn(ebuf, "\n") == 0) {
			free(*cause);
			*cause = xasprintf("%s exited with status %d and wrote nothing on stderr", path,
			                   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		}
	} else if (olen >= REFRUN_OUT_MAX) {
		*cause = xasprintf("%s: more than %u MiB of output", path, REFRUN_OUT_MAX >> 20);
	} else {
		char *why = NULL;

		if (refrun_collect(obuf != NULL ? obuf : "", olen, want, t, &why) == 0) {
			rc = 0;
		} else {
			*cause = xasprintf("%s: %s", path, why);
			free(why);
		}
	}
done:
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
	free(obuf);
	free(ebuf);
	return rc;
}

bool refrun_dir(char *buf, size_t len)
{
	const char *env = getenv("SS_REFERENCE_DIR");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env != NULL && *env != '\0') {
		snprintf(buf, len, "%s", env);
		return true;
	}
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0) {
		snprintf(buf, len, "tests/gpu/reference"); /* /proc does not say: relative to the current folder */
		return false;
	}
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash != NULL)
		*slash = '\0';
	snprintf(buf, len, "%s/tests/gpu/reference", exe);
	return false;
}

double refrun_ratio(double preset_ms, double reference_ms)
{
	if (!isfinite(preset_ms) || !isfinite(reference_ms) || preset_ms <= 0 || reference_ms <= 0)
		return NAN;
	return preset_ms / reference_ms;
}

void refrun_spread_of(const double *v, size_t n, struct refrun_spread *s)
{
	double *copy;

	s->n = n;
	s->median = s->min = s->max = NAN;
	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (isnan(v[i]))
			return;
	copy = xcalloc(n, sizeof *copy);
	memcpy(copy, v, n * sizeof *copy);
	s->median = stats_median(copy, n); /* sorts copy */
	s->min = copy[0];
	s->max = copy[n - 1];
	free(copy);
}

bool refrun_within(const struct refrun_spread *s, double tol)
{
	return s->n > 0 && isfinite(s->median) && fabs(s->median - 1.0) <= tol;
}
