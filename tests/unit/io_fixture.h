/* io_fixture.h: shared helpers of the test_io_* tests: timelines with every kind of record, temporary
 * directories, record comparison and file helpers. Header-only (static): each test is its own executable. */
#ifndef SS_IO_FIXTURE_H
#define SS_IO_FIXTURE_H

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/timeline.h"
#include "io/import/import.h"

/* fx_names holds awkward but valid UTF-8 names: quotes, commas, newlines, XML specials, non-ASCII. */
static const char *const fx_names[] = {
    "add_kernel",
    "decrypt<uint64_t, 1024>(unsigned long*, int)",
    "name, with \"quotes\"",
    "line\nbreak\ttab",
    "<xml> & 'apos'",
    "Grüße 核 \xf0\x9f\x9a\x80",
    "back\\slash",
    "cudaMemcpyAsync",
};
#define FX_NNAMES (sizeof fx_names / sizeof fx_names[0])

/* fx_timeline fills t with n records cycling through every kind, stream (including the negative ones), flag,
 * name (and no name), with correlations linking API calls to GPU work. */
static inline void fx_timeline(struct ss_timeline *t, size_t n, int nstreams)
{
	uint64_t clock = 1000;

	t->nstreams = nstreams;
	snprintf(t->backend, sizeof t->backend, "cuda");
	snprintf(t->device, sizeof t->device, "NVIDIA H200");
	for (size_t i = 0; i < n; i++) {
		struct ss_record r;
		int kind = (int)(i % SS_KIND_COUNT);

		memset(&r, 0, sizeof r);
		r.kind = (uint8_t)kind;
		r.start = clock + (i * 7919) % 5000;
		r.end = r.start + 1 + (i * 104729) % 3000;
		clock += 250;
		r.correlation = (uint32_t)(i / SS_KIND_COUNT + 1);
		if (kind == SS_KIND_API || kind == SS_KIND_SYNC || kind == SS_KIND_MARKER) {
			r.stream = SS_STREAM_HOST;
			r.thread = (uint32_t)(i % 3);
			r.raw_stream = kind == SS_KIND_SYNC ? 0xffffffffu : 0;
		} else {
			static const int32_t special[] = {SS_STREAM_LEGACY, SS_STREAM_PER_THREAD, SS_STREAM_UNKNOWN};

			r.stream = i % 11 == 10 ? special[(i / 11) % 3] : (int32_t)(i % (size_t)nstreams);
			r.raw_stream = r.stream >= 0                  ? (uint32_t)(13 + r.stream)
			               : r.stream == SS_STREAM_LEGACY ? 7u
			                                              : 99u;
			r.thread = (uint32_t)(i % 4); /* copy channel */
		}
		if (kind <= SS_KIND_MEMSET)
			r.bytes = 4096 + i * 64;
		if (kind == SS_KIND_H2D || kind == SS_KIND_D2H)
			r.flags = (uint8_t)((i % 3 == 0 ? SS_REC_PAGEABLE : SS_REC_PINNED) | SS_REC_ASYNC);
		if (kind == SS_KIND_D2D && i % 2)
			r.flags = SS_REC_MANAGED;
		/* GPU work on two devices; every third plain D2D a peer copy, in either direction */
		if (kind < SS_KIND_API && i % 17 >= 9)
			r.device = 1;
		if (kind == SS_KIND_D2D && !(i % 2) && i % 3 == 0) {
			r.flags = (uint8_t)(SS_REC_PEER | SS_REC_ASYNC | ((i / 8) % 2 ? SS_REC_PEER_IN : 0));
			r.peer = r.device == 1 ? 0 : 1;
		}
		if (i % 13 != 5)
			r.name = timeline_intern(t, fx_names[(i + i / SS_KIND_COUNT) % FX_NNAMES]);
		timeline_add(t, &r);
	}
}

/* fx_cmp orders records totally (every field), so two timelines can be compared after sorting. */
static inline int fx_cmp(const void *a, const void *b)
{
	const struct ss_record *x = a, *y = b;

#define FX_CMP(f)                                                                                                      \
	do {                                                                                                           \
		if (x->f != y->f)                                                                                      \
			return x->f < y->f ? -1 : 1;                                                                   \
	} while (0)
	FX_CMP(start);
	FX_CMP(end);
	FX_CMP(kind);
	FX_CMP(stream);
	FX_CMP(raw_stream);
	FX_CMP(thread);
	FX_CMP(correlation);
	FX_CMP(bytes);
	FX_CMP(flags);
	FX_CMP(device);
	FX_CMP(peer);
#undef FX_CMP
	return 0;
}

/* fx_same_records checks that a and b hold the same records with the same names (order ignored). */
static inline void fx_same_records(const struct ss_timeline *a, const struct ss_timeline *b)
{
	struct ss_record *x, *y;

	assert_int_equal(a->n, b->n);
	x = malloc(a->n * sizeof *x + 1);
	y = malloc(b->n * sizeof *y + 1);
	if (a->n > 0) {
		memcpy(x, a->rec, a->n * sizeof *x);
		memcpy(y, b->rec, b->n * sizeof *y);
	}
	qsort(x, a->n, sizeof *x, fx_cmp);
	qsort(y, b->n, sizeof *y, fx_cmp);
	for (size_t i = 0; i < a->n; i++) {
		if (fx_cmp(&x[i], &y[i]) != 0)
			fail_msg("record %zu differs: kind %d/%d stream %d/%d start %llu/%llu end %llu/%llu raw %u/%u "
			         "thread %u/%u corr %u/%u bytes %llu/%llu flags %u/%u device %u/%u peer %u/%u",
			         i, x[i].kind, y[i].kind, x[i].stream, y[i].stream, (unsigned long long)x[i].start,
			         (unsigned long long)y[i].start, (unsigned long long)x[i].end,
			         (unsigned long long)y[i].end, x[i].raw_stream, y[i].raw_stream, x[i].thread,
			         y[i].thread, x[i].correlation, y[i].correlation, (unsigned long long)x[i].bytes,
			         (unsigned long long)y[i].bytes, x[i].flags, y[i].flags, x[i].device, y[i].device,
			         x[i].peer, y[i].peer);
		assert_string_equal(timeline_name(a, x[i].name), timeline_name(b, y[i].name));
	}
	free(x);
	free(y);
}

/* fx_tmpdir makes a fresh temporary directory; the caller removes it with fx_rmdir. */
static inline char *fx_tmpdir(void)
{
	char *dir = strdup("/tmp/ss-io-test-XXXXXX");

	assert_non_null(mkdtemp(dir));
	return dir;
}

/* fx_count_entries counts the entries of dir (without . and ..). */
static inline int fx_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* fx_rmdir removes dir and everything under it. */
static inline void fx_rmdir(const char *dir)
{
	char *cmd = malloc(strlen(dir) + 16);

	sprintf(cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	free(cmd);
}

/* fx_read reads a whole file into a NUL-terminated buffer (NULL when it cannot). */
static inline char *fx_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return NULL;
	}
	buf[n] = '\0';
	fclose(f);
	if (len != NULL)
		*len = (size_t)n;
	return buf;
}

/* fx_write writes len bytes to path. */
static inline void fx_write(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* fx_data returns the path of a file under tests/data (caller frees). */
static inline char *fx_data(const char *rel)
{
	const char *src = getenv("SS_SOURCE_DIR");
	char *p;

	if (src == NULL)
		src = SS_SOURCE_DIR;
	p = malloc(strlen(src) + strlen(rel) + 16);
	sprintf(p, "%s/tests/data/%s", src, rel);
	return p;
}

/* fx_refused_v imports path and checks the failure: -1, one line holding the path and each of the NULL-ended wants in
 * ap, the timeline left empty. */
static inline void fx_refused_v(const char *path, va_list ap)
{
	struct ss_timeline t;
	char *cause = NULL;
	const char *want;

	timeline_init(&t);
	if (import_file(path, &t, &cause) != -1)
		fail_msg("%s: imported %zu records, wanted a refusal", path, t.n);
	assert_non_null(cause);
	if (strstr(cause, path) == NULL)
		fail_msg("cause \"%s\" lacks the path", cause);
	while ((want = va_arg(ap, const char *)) != NULL)
		if (strstr(cause, want) == NULL)
			fail_msg("cause \"%s\" lacks \"%s\"", cause, want);
	assert_null(strchr(cause, '\n'));
	assert_int_equal(t.n, 0);
	free(cause);
	timeline_free(&t);
}

/* fx_refused is fx_refused_v with the wants as arguments, NULL after the last. */
static inline void fx_refused(const char *path, ...)
{
	va_list ap;

	va_start(ap, path);
	fx_refused_v(path, ap);
	va_end(ap);
}

#endif
