/* io_bench.c: how fast streamscope writes and opens big traces, and what an opened trace costs in memory.
 *
 * For each size (default 1M and 10M intervals) it builds a timeline shaped like a many-stream overlap run (per
 * chunk: an API call, then H2D, kernel, D2H on one of 32 streams with the API's correlation id; a few distinct
 * names), sorted as the runner delivers timelines, then times: export to SQLite (nsys schema), import of that SQLite,
 * export to Chrome JSON, import of that JSON (on the default threads, then on one: "json 1t"). Memory per interval
 * is the heap growth (mallinfo2: the main arena, where the timeline lives) of the imported timeline over its record
 * count; "rss" is the growth of the resident set, which also counts what parser threads kept in their arenas.
 *
 *   io_bench [-k] [-J] [-x] [-r R] [-d DIR] [N ...]
 *     files go to DIR (default $TMPDIR or /tmp), removed afterwards unless -k; -J skips the JSON half; -x only exports
 *     to JSON, R times (-r, default 1)
 * Wall time is what a user waits; cpu time is the process's own, the number to trust on a busy machine. */
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/timeline.h"
#include "io/export/export.h"
#include "io/export/export_chrome.h"
#include "io/export/export_sqlite.h"
#include "io/import/import.h"
#include "io/import/import_chrome.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t heap_used(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* rss is the resident set in bytes (0 when /proc is not there). */
static size_t rss(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long long size, resident = 0;

	if (f == NULL)
		return 0;
	if (fscanf(f, "%llu %llu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* bench_timeline makes n intervals: groups of API, H2D, KER, D2H on 32 streams. */
static void bench_timeline(struct ss_timeline *t, size_t n)
{
	static const char *const names[] = {"cudaMemcpyAsync", "cudaLaunchKernel",
	                                    "ss_add(float const*, float const*, float*, int)",
	                                    "Memcpy HtoD (Pinned -> Device)", "Memcpy DtoH (Device -> Pinned)"};
	uint32_t id[5];
	uint64_t clock = 0;

	t->nstreams = 32;
	snprintf(t->backend, sizeof t->backend, "cuda");
	snprintf(t->device, sizeof t->device, "NVIDIA H200");
	for (int i = 0; i < 5; i++)
		id[i] = timeline_intern(t, names[i]);
	for (size_t i = 0; i < n; i++) {
		struct ss_record r;
		size_t chunk = i / 4;
		int32_t stream = (int32_t)(chunk % 32);

		memset(&r, 0, sizeof r);
		r.correlation = (uint32_t)(chunk + 1);
		switch (i % 4) {
		case 0:
			r.kind = SS_KIND_API;
			r.stream = SS_STREAM_HOST;
			r.name = id[0];
			r.start = clock;
			r.end = clock + 3000;
			break;
		case 1:
			r.kind = SS_KIND_H2D;
			r.name = id[3];
			r.bytes = 1 << 20;
			r.flags = SS_REC_PINNED | SS_REC_ASYNC;
			r.start = clock + 5000;
			r.end = r.start + 20000;
			break;
		case 2:
			r.kind = SS_KIND_KERNEL;
			r.name = id[2];
			r.start = clock + 26000;
			r.end = r.start + 30000;
			break;
		default:
			r.kind = SS_KIND_D2H;
			r.name = id[4];
			r.bytes = 1 << 20;
			r.flags = SS_REC_PINNED | SS_REC_ASYNC;
			r.start = clock + 57000;
			r.end = r.start + 20000;
			clock += 2500;
			break;
		}
		if (r.kind != SS_KIND_API) {
			r.stream = stream;
			r.raw_stream = (uint32_t)(13 + stream);
		}
		timeline_add(t, &r);
	}
	timeline_sort(t); /* as the runner and the TUI hold timelines (and so export them) */
}

/* bench_import opens path and reports time and bytes per interval. */
static int bench_import(const char *what, const char *path, size_t n)
{
	struct ss_timeline t;
	size_t before, after, got, rss0;
	char *cause = NULL;
	double t0, c0, dt;

	before = heap_used();
	rss0 = rss();
	timeline_init(&t);
	t0 = now();
	c0 = cpu();
	if (import_file(path, &t, &cause) != 0) {
		fprintf(stderr, "io_bench: %s\n", cause);
		free(cause);
		return -1;
	}
	dt = now() - t0;
	c0 = cpu() - c0;
	after = heap_used();
	got = t.n;
	printf(
	    "  import %-8s %8.3f s (cpu %6.3f s) %7.2f M intervals/s  %6.1f bytes/interval in memory (rss %+.1f)%s\n",
	    what, dt, c0, (double)n / dt / 1e6, (double)(after - before) / (double)n,
	    ((double)rss() - (double)rss0) / (double)n, got == n ? "" : "  RECORD COUNT WRONG");
	timeline_free(&t);
	return got == n ? 0 : -1;
}

/* bench_export writes in to path with fn and reports time and file size. */
static int bench_export(const char *what, int (*fn)(const char *, const struct ss_export_input *, char **),
                        const struct ss_export_input *in, const char *path)
{
	char *cause = NULL;
	double t0 = now(), c0 = cpu(), dt;

	if (fn(path, in, &cause) != 0) {
		fprintf(stderr, "io_bench: %s\n", cause);
		free(cause);
		return -1;
	}
	dt = now() - t0;
	c0 = cpu() - c0;
	printf("  export %-8s %8.3f s (cpu %6.3f s) %7.2f M intervals/s  %8.1f MB file\n", what, dt, c0,
	       (double)in->t->n / dt / 1e6, (double)file_size(path) / 1e6);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
	size_t sizes[16] = {1000000, 10000000};
	int nsizes = 2, rc = 0, opt, reps = 0;
	bool keep = false, json = true, export_only = false;

	while ((opt = getopt(argc, argv, "kJxr:d:")) != -1) {
		if (opt == 'k') {
			keep = true;
		} else if (opt == 'J') {
			json = false;
		} else if (opt == 'x') {
			export_only = true;
		} else if (opt == 'r') {
			reps = atoi(optarg);
		} else if (opt == 'd') {
			dir = optarg;
		} else {
			fprintf(stderr, "usage: io_bench [-k] [-J] [-x] [-r R] [-d DIR] [N ...]\n");
			return 2;
		}
	}
	if (reps <= 0)
		reps = 1;
	if (optind < argc) {
		nsizes = 0;
		for (int i = optind; i < argc && nsizes < 16; i++)
			sizes[nsizes++] = strtoull(argv[i], NULL, 10);
	}
	for (int s = 0; s < nsizes && rc == 0; s++) {
		struct ss_timeline t;
		struct ss_export_input in;
		char sq[1024], js[1024];

		snprintf(sq, sizeof sq, "%s/io_bench-%d.sqlite", dir, (int)getpid());
		snprintf(js, sizeof js, "%s/io_bench-%d.json", dir, (int)getpid());
		timeline_init(&t);
		bench_timeline(&t, sizes[s]);
		memset(&in, 0, sizeof in);
		in.t = &t;
		printf("%zu intervals (record %zu bytes)\n", sizes[s], sizeof(struct ss_record));
		if (export_only) {
			for (int k = 0; k < reps && rc == 0; k++)
				rc = bench_export("json", export_chrome, &in, js);
			timeline_free(&t);
			if (!keep)
				unlink(js);
			continue;
		}
		rc = bench_export("sqlite", export_sqlite, &in, sq);
		if (rc == 0)
			rc = bench_import("sqlite", sq, sizes[s]);
		if (!keep)
			unlink(sq);
		if (rc == 0 && json)
			rc = bench_export("json", export_chrome, &in, js);
		timeline_free(&t);
		if (rc == 0 && json)
			rc = bench_import("json", js, sizes[s]);
		if (rc == 0 && json) {
			struct import_chrome_tuning one = {.threads = 1};

			import_chrome_tune(&one);
			rc = bench_import("json 1t", js, sizes[s]);
			import_chrome_tune(NULL);
		}
		if (!keep)
			unlink(js);
	}
	return rc == 0 ? 0 : 1;
}
