/* importer.c: what every importer shares (see importer.h). */
#include "io/import/importer.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/idmap.h"
#include "core/text.h"
#include "core/xalloc.h"

/* The tests' hook (importer_set_hook). */
static importer_hook_fn *importer_hook;

void importer_set_hook(importer_hook_fn *fn)
{
	importer_hook = fn;
}

void importer_opened(const char *path)
{
	if (importer_hook != NULL)
		importer_hook(path);
}

void importer_begin(struct ss_timeline *t)
{
	timeline_clear(t);
	t->nstreams = 0;
	t->modelled = false;
	t->incomplete = false;
	t->dropped = 0;
	snprintf(t->backend, sizeof t->backend, "file");
	t->stream_ids = true; /* a trace's streams are its program's; streamscope's own experiment files say so */
	t->device[0] = '\0';
	t->source[0] = '\0';
}

void importer_reserve(struct ss_timeline *t, size_t n)
{
	if (n == 0 || t->n + n <= t->cap)
		return;
	t->cap = t->n + n;
	t->rec = xreallocarray(t->rec, t->cap, sizeof *t->rec);
}

int importer_oneline(char *cause)
{
	const char *r = cause, *p;
	char *w = cause;
	uint32_t c;

	if (cause == NULL)
		return -1;
	/* in place: what is written for a code point (its own bytes, or one '?') is never longer than what was read */
	for (p = r; (c = text_utf8_next(&r)) != 0; p = r) {
		if (text_printable(c) == c) {
			memmove(w, p, (size_t)(r - p));
			w += r - p;
		} else {
			*w++ = '?';
		}
	}
	*w = '\0';
	return -1;
}

void importer_strip_version(char *name)
{
	char *v = strrchr(name, '_');

	if (v == NULL || v == name || v[1] != 'v' || v[2] == '\0')
		return;
	for (const char *p = v + 2; *p != '\0'; p++)
		if (!isdigit((unsigned char)*p))
			return;
	*v = '\0';
}

/* Sorted runs merged by importer_sort; more than this and a plain sort is as good. */
#define IMPORT_MAX_RUNS 64

/* importer_sort sorts t. Importers append table by table (or track by track) in time order, so the records are a
 * few sorted runs: those are merged in O(n log runs) instead of sorted from scratch. */
static void importer_sort(struct ss_timeline *t)
{
	size_t start[IMPORT_MAX_RUNS + 1], nruns = 0;
	struct ss_record *a = t->rec, *b;

	for (size_t i = 0; i < t->n; i++) {
		if (i == 0 || record_cmp(&a[i - 1], &a[i]) > 0) {
			if (nruns == IMPORT_MAX_RUNS) {
				timeline_sort(t);
				return;
			}
			start[nruns++] = i;
		}
	}
	if (nruns <= 1)
		return;
	start[nruns] = t->n;
	b = xreallocarray(NULL, t->n, sizeof *b);
	while (nruns > 1) {
		size_t out = 0;

		/* merge runs pairwise from a into b */
		for (size_t r = 0; r < nruns; r += 2) {
			size_t i = start[r], mid = start[r + 1 < nruns ? r + 1 : nruns],
			       end = r + 1 < nruns ? start[r + 2] : mid;
			size_t j = mid, k = i;

			while (i < mid && j < end)
				b[k++] = record_cmp(&a[j], &a[i]) < 0 ? a[j++] : a[i++];
			while (i < mid)
				b[k++] = a[i++];
			while (j < end)
				b[k++] = a[j++];
			start[out++] = start[r];
		}
		start[out] = t->n;
		nruns = out;
		{
			struct ss_record *tmp = a;

			a = b;
			b = tmp;
		}
	}
	if (a != t->rec) {
		free(t->rec);
		t->rec = a;
		t->cap = t->n;
	} else {
		free(b);
	}
}

void importer_finish(struct ss_timeline *t, const char *path)
{
	struct idmap streams;
	int32_t next = 0;

	importer_sort(t);
	timeline_sort_launches(t);
	idmap_init(&streams);
	for (size_t i = 0; i < t->n; i++) {
		struct ss_record *r = &t->rec[i];
		uint32_t idx;

		if (r->stream != SS_STREAM_PENDING)
			continue;
		if (!idmap_get(&streams, r->raw_stream, &idx)) {
			idx = next < SS_IMPORT_MAX_STREAMS ? (uint32_t)next++ : (uint32_t)SS_STREAM_UNKNOWN;
			idmap_put(&streams, r->raw_stream, idx);
		}
		r->stream = (int32_t)idx;
	}
	idmap_free(&streams);
	timeline_finish(t);
	if (t->cap > t->n && t->n > 0) {
		t->rec = xreallocarray(t->rec, t->n, sizeof *t->rec);
		t->cap = t->n;
	}
	snprintf(t->backend, sizeof t->backend, "file");
	snprintf(t->source, sizeof t->source, "%s", path);
}

/* importer_changed fills *cause for a file that is no longer what st said when it was opened. Returns -1. */
static int importer_changed(int fd, const char *path, const struct stat *st, char **cause)
{
	struct stat now;

	if (fstat(fd, &now) == 0 && now.st_size != st->st_size)
		*cause = xasprintf("%s: changed while it was read (%lld bytes when opened, then %lld)", path,
		                   (long long)st->st_size, (long long)now.st_size);
	else
		*cause = xasprintf("%s: changed while it was read (modified after it was opened)", path);
	return -1;
}

/* importer_same says whether fd still has the size and modification time st says. */
static bool importer_same(int fd, const struct stat *st)
{
	struct stat now;

	return fstat(fd, &now) == 0 && now.st_size == st->st_size && now.st_mtim.tv_sec == st->st_mtim.tv_sec &&
	       now.st_mtim.tv_nsec == st->st_mtim.tv_nsec;
}

int importer_unchanged(int fd, const char *path, const struct stat *st, char **cause)
{
	return importer_same(fd, st) ? 0 : importer_changed(fd, path, st, cause);
}

ssize_t importer_read_fd(int fd, unsigned char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		/* at most 1 GiB a call: Linux moves less than 2 GiB at once anyway */
		ssize_t r = read(fd, buf + got, n - got < (1u << 30) ? n - got : (1u << 30));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int importer_read(const char *path, char **buf, size_t *len, char **cause)
{
	struct stat st;
	ssize_t got;
	char *b;
	int fd;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*cause = xasprintf("%s: not a regular file", path);
		close(fd);
		return -1;
	}
	/* not xmalloc: a file too big for memory is the user's to hear of, not a fatal error */
	b = (uintmax_t)st.st_size < SIZE_MAX ? malloc((size_t)st.st_size + 1) : NULL;
	if (b == NULL) {
		*cause = xasprintf("%s: %lld bytes: too big to read into memory", path, (long long)st.st_size);
		close(fd);
		return -1;
	}
	importer_opened(path);
	/* a byte more than its size: a file that grew is seen too */
	got = importer_read_fd(fd, (unsigned char *)b, (size_t)st.st_size + 1);
	if (got < 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	if ((size_t)got != (size_t)st.st_size || !importer_same(fd, &st)) {
		importer_changed(fd, path, &st, cause);
		goto fail;
	}
	close(fd);
	b[got] = '\0';
	*buf = b;
	*len = (size_t)got;
	return 0;

fail:
	close(fd);
	free(b);
	return -1;
}
