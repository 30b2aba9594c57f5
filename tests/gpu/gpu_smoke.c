/* gpu_smoke.c: runs one experiment through planner_build + cuda_backend.run directly (no CLI, no runner) and checks
 * what came back: per-kind counts against planner_expected_records, each GPU operation exactly once (distinct
 * correlation ids) on the right stream, dropped records, CUPTI makespan against the cudaEvent makespan, traced
 * against untraced, copy bandwidth, and for the default-stream experiments whether the legacy operation
 * serialised the streams. One experiment per process (CUDA_DEVICE_MAX_CONNECTIONS is read at context creation).
 *
 *   gpu_smoke [--preset P] [--streams N] [--order O] [--sync S] [--default-stream D] [--host-mem M]
 *             [--connections N] [--threads N] [--chunks N] [--elements N] [--work N] [--repeat R] [--warmup W]
 *             [--nonblocking] [--dump FILE.tsv] [--spin-breadth]
 *
 * --spin-breadth reorders a spin (hyperq) op list so that every stream's first kernel is issued before any second
 * one (the planner issues both kernels of a stream together in either order): it shows what breadth-first issue does
 * with one hardware queue.
 *
 * Prints "key value" lines (one "result ok" or "result FAIL ..." last) and exits 0 only when every check held. */
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/experiment.h"
#include "core/planner.h"
#include "core/record.h"
#include "core/xalloc.h"
#include "cuda/cuda_backend.h"

/* What the sink collected: the records and their names. */
struct smoke {
	struct ss_record *rec;
	char **name;
	size_t n, cap;
};

static void smoke_record(void *ctx, const struct ss_record *r, const char *name)
{
	struct smoke *s = ctx;

	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 1024 : s->cap * 2;
		s->rec = xreallocarray(s->rec, s->cap, sizeof *s->rec);
		s->name = xreallocarray(s->name, s->cap, sizeof *s->name);
	}
	s->rec[s->n] = *r;
	s->name[s->n] = xstrdup(name != NULL ? name : "");
	s->n++;
}

static void smoke_progress(void *ctx, const char *msg)
{
	(void)ctx;
	printf("progress %s\n", msg);
	fflush(stdout);
}

static bool smoke_gpu(int kind)
{
	return kind == SS_KIND_H2D || kind == SS_KIND_D2H || kind == SS_KIND_D2D || kind == SS_KIND_MEMSET ||
	       kind == SS_KIND_KERNEL;
}

static int smoke_cmp_start(const void *a, const void *b)
{
	const struct ss_record *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int smoke_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Length of the union of the intervals of one kind (bytes summed into *bytes). */
static uint64_t smoke_busy(const struct smoke *s, int kind, uint64_t *bytes)
{
	struct ss_record *v = xcalloc(s->n + 1, sizeof *v);
	size_t m = 0;
	uint64_t busy = 0, cur_s = 0, cur_e = 0;

	*bytes = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->rec[i].kind == kind) {
			v[m++] = s->rec[i];
			*bytes += s->rec[i].bytes;
		}
	qsort(v, m, sizeof *v, smoke_cmp_start);
	for (size_t i = 0; i < m; i++) {
		if (i == 0 || v[i].start > cur_e) {
			busy += cur_e - cur_s;
			cur_s = v[i].start;
			cur_e = v[i].end;
		} else if (v[i].end > cur_e) {
			cur_e = v[i].end;
		}
	}
	busy += cur_e - cur_s;
	free(v);
	return busy;
}

/* The interfering legacy-stream operations: did stream work issued before one end before it started, and work
 * issued after start after it ended? Counts violations (correlation ids follow issue order). */
static size_t smoke_serialised(const struct smoke *s, size_t *nlegacy)
{
	size_t bad = 0;

	*nlegacy = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_record *l = &s->rec[i];
		if (l->kind != SS_KIND_KERNEL || l->stream != SS_STREAM_LEGACY)
			continue;
		(*nlegacy)++;
		for (size_t j = 0; j < s->n; j++) {
			const struct ss_record *r = &s->rec[j];
			if (!smoke_gpu(r->kind) || r->stream < 0)
				continue;
			if (r->correlation < l->correlation && r->end > l->start)
				bad++;
			if (r->correlation > l->correlation && r->start < l->end)
				bad++;
		}
	}
	return bad;
}

static void smoke_dump(const struct smoke *s, const char *path)
{
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		fprintf(stderr, "gpu_smoke: cannot write %s\n", path);
		return;
	}
	fprintf(f, "kind\tstream\traw_stream\tthread\tstart_ns\tend_ns\tbytes\tcorrelation\tflags\tname\n");
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_record *r = &s->rec[i];
		fprintf(f, "%s\t%d\t%u\t%u\t%llu\t%llu\t%llu\t%u\t%u\t%s\n", record_kind_name(r->kind), r->stream,
		        r->raw_stream, r->thread, (unsigned long long)r->start, (unsigned long long)r->end,
		        (unsigned long long)r->bytes, r->correlation, r->flags, s->name[i]);
	}
	fclose(f);
}

/* Issue every spin kernel with offset 0 (a stream's first) before those with offset 1, other ops after, ids
 * renumbered in the new order. */
static void smoke_spin_breadth(struct ss_oplist *ops)
{
	struct ss_op *v = xcalloc(ops->n + 1, sizeof *v);
	size_t m = 0;

	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < ops->n; i++) {
			const struct ss_op *op = &ops->op[i];
			bool spin = op->kind == SS_OP_KERNEL && op->chunk >= 0;
			if ((pass < 2 && spin && op->offset == (uint64_t)pass) ||
			    (pass == 2 && (!spin || op->offset > 1)))
				v[m++] = *op;
		}
	for (size_t i = 0; i < m; i++)
		v[i].id = (uint32_t)(i + 1);
	memcpy(ops->op, v, m * sizeof *v);
	free(v);
}

static int smoke_parse_int(const char *opt, const char *v, long lo, long hi)
{
	char *end;
	long n = strtol(v, &end, 0);

	if (*v == '\0' || *end != '\0' || n < lo || n > hi) {
		fprintf(stderr, "gpu_smoke: invalid %s %s: valid is %ld..%ld\n", opt, v, lo, hi);
		exit(2);
	}
	return (int)n;
}

static int smoke_parse_name(const char *opt, int v, const char *which, const char *s)
{
	if (v < 0) {
		fprintf(stderr, "gpu_smoke: invalid %s %s: valid is %s\n", opt, s, experiment_valid_list(which));
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"preset", required_argument, NULL, 'p'},
	    {"streams", required_argument, NULL, 's'},
	    {"order", required_argument, NULL, 'o'},
	    {"sync", required_argument, NULL, 'y'},
	    {"default-stream", required_argument, NULL, 'd'},
	    {"host-mem", required_argument, NULL, 'm'},
	    {"connections", required_argument, NULL, 'c'},
	    {"threads", required_argument, NULL, 't'},
	    {"chunks", required_argument, NULL, 'k'},
	    {"elements", required_argument, NULL, 'n'},
	    {"work", required_argument, NULL, 'w'},
	    {"repeat", required_argument, NULL, 'r'},
	    {"warmup", required_argument, NULL, 'u'},
	    {"nonblocking", no_argument, NULL, 'b'},
	    {"dump", required_argument, NULL, 'f'},
	    {"spin-breadth", no_argument, NULL, 'S'},
	    {NULL, 0, NULL, 0},
	};
	struct ss_experiment e;
	struct ss_oplist ops;
	struct ss_run_result res;
	struct smoke cap = {0};
	struct ss_sink sink = {&cap, smoke_record, smoke_progress, NULL, NULL};
	size_t expect[SS_KIND_COUNT], got[SS_KIND_COUNT] = {0}, unknown = 0, wrong_stream = 0, dup = 0, ngpu = 0;
	size_t migrations[SS_KIND_COUNT] = {0};
	uint64_t migrated = 0;
	const char *dump = NULL;
	bool spin_breadth = false;
	char desc[256], env[16], *cause = NULL, fail[512] = "";
	uint64_t t0 = UINT64_MAX, t1 = 0;
	int preset = SS_PRESET_KERNEL_TRANSFER, c;

	/* The preset first (its defaults), then the options over it. */
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "--preset") == 0)
			preset =
			    smoke_parse_name("preset", experiment_preset_parse(argv[i + 1]), "preset", argv[i + 1]);
	experiment_preset(&e, (enum ss_preset)preset);
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			break;
		case 's':
			e.streams = smoke_parse_int("stream count", optarg, 1, SS_MAX_STREAMS);
			break;
		case 'o':
			e.order = smoke_parse_name("order", experiment_order_parse(optarg), "order", optarg);
			break;
		case 'y':
			e.sync = smoke_parse_name("sync", experiment_sync_parse(optarg), "sync", optarg);
			break;
		case 'd':
			e.defstream = smoke_parse_name("default-stream", experiment_defstream_parse(optarg),
			                               "default-stream", optarg);
			break;
		case 'm':
			e.hostmem = smoke_parse_name("host-mem", experiment_hostmem_parse(optarg), "host-mem", optarg);
			break;
		case 'c':
			e.connections = smoke_parse_int("connections", optarg, 1, SS_MAX_CONNECTIONS);
			break;
		case 't':
			e.threads = smoke_parse_int("threads", optarg, 1, SS_MAX_STREAMS);
			break;
		case 'k':
			e.chunks = smoke_parse_int("chunks", optarg, 0, 65536);
			break;
		case 'n':
			e.elements = (uint64_t)strtoull(optarg, NULL, 0);
			break;
		case 'w':
			e.work = (uint32_t)smoke_parse_int("work", optarg, 1, 100000000);
			break;
		case 'r':
			e.repeat = smoke_parse_int("repeat", optarg, 1, 1000);
			break;
		case 'u':
			e.warmup = smoke_parse_int("warmup", optarg, 0, 100);
			break;
		case 'b':
			e.nonblocking = true;
			break;
		case 'f':
			dump = optarg;
			break;
		case 'S':
			spin_breadth = true;
			break;
		default:
			return 2;
		}
	}
	if (e.threads > 1)
		e.threads = e.streams;
	if (experiment_validate(&e, &cause) < 0) {
		fprintf(stderr, "gpu_smoke: %s\n", cause);
		return 2;
	}
	/* What the runner does in its child before CUDA initialises. */
	snprintf(env, sizeof env, "%d", e.connections);
	setenv("CUDA_DEVICE_MAX_CONNECTIONS", env, 1);
	experiment_describe(&e, desc, sizeof desc);
	printf("experiment %s\n", desc);
	planner_build(&e, &ops);
	if (spin_breadth)
		smoke_spin_breadth(&ops);
	printf("ops %zu\n", ops.n);
	if (cuda_backend.run(&e, &ops, &sink, &res, &cause) < 0) {
		printf("result FAIL backend: %s\n", cause);
		return 3;
	}
	printf("device %s\n", res.device);
	planner_expected_records(&ops, res.prefetch_records, expect);

	/* Counts, attribution, uniqueness. */
	{
		uint32_t *corr = xcalloc(cap.n + 1, sizeof *corr);
		size_t *want_stream = xcalloc((size_t)e.streams + 2, sizeof *want_stream);
		size_t *got_stream = xcalloc((size_t)e.streams + 2, sizeof *got_stream);
		for (size_t i = 0; i < ops.n; i++) {
			const struct ss_op *op = &ops.op[i];
			if (op->kind != SS_OP_H2D && op->kind != SS_OP_D2H && op->kind != SS_OP_KERNEL)
				continue;
			want_stream[op->stream >= 0                  ? op->stream
			            : op->stream == SS_STREAM_LEGACY ? e.streams
			                                             : e.streams + 1]++;
		}
		for (size_t i = 0; i < cap.n; i++) {
			const struct ss_record *r = &cap.rec[i];
			if (smoke_gpu(r->kind)) {
				if (r->start < t0)
					t0 = r->start;
				if (r->end > t1)
					t1 = r->end;
			}
			if (smoke_gpu(r->kind) && r->correlation == 0 && (r->flags & SS_REC_MANAGED)) {
				/* a unified-memory migration: pieces of prefetches or faults, not ops */
				migrations[r->kind]++;
				migrated += r->bytes;
				continue;
			}
			got[r->kind]++;
			if (!smoke_gpu(r->kind))
				continue;
			corr[ngpu++] = r->correlation;
			if (r->stream == SS_STREAM_UNKNOWN)
				unknown++;
			else if (r->stream >= 0 && r->stream < e.streams)
				got_stream[r->stream]++;
			else if (r->stream == SS_STREAM_LEGACY)
				got_stream[e.streams]++;
			else if (r->stream == SS_STREAM_PER_THREAD)
				got_stream[e.streams + 1]++;
		}
		for (int s = 0; s < e.streams + 2; s++)
			wrong_stream += got_stream[s] > want_stream[s] ? got_stream[s] - want_stream[s]
			                                               : want_stream[s] - got_stream[s];
		qsort(corr, ngpu, sizeof *corr, smoke_cmp_u32);
		for (size_t i = 1; i < ngpu; i++)
			dup += corr[i] == corr[i - 1];
		free(corr);
		free(want_stream);
		free(got_stream);
	}
	for (int k = 0; k < SS_KIND_COUNT; k++) {
		bool gpu = smoke_gpu(k);
		printf("count %-6s captured %zu%s", record_kind_name(k), got[k], gpu ? "" : "\n");
		if (gpu) {
			printf(" expected %zu%s\n", expect[k], got[k] == expect[k] ? "" : "  MISMATCH");
			if (got[k] != expect[k] && fail[0] == '\0')
				snprintf(fail, sizeof fail, "%s count %zu != %zu", record_kind_name(k), got[k],
				         expect[k]);
		}
	}
	printf("migrations H2D %zu D2H %zu bytes %llu\n", migrations[SS_KIND_H2D], migrations[SS_KIND_D2H],
	       (unsigned long long)migrated);
	printf("gpu_records %zu duplicate_correlation %zu unknown_stream %zu stream_mismatch %zu\n", ngpu, dup, unknown,
	       wrong_stream);
	if ((dup || unknown || wrong_stream) && fail[0] == '\0')
		snprintf(fail, sizeof fail, "attribution: %zu duplicates, %zu unknown streams, %zu off-stream", dup,
		         unknown, wrong_stream);
	{
		/* Host records' threads should be issuing-thread indices (0..threads-1) once mapped. */
		uint32_t tmax = 0;
		size_t host = 0, mapped = 0;
		for (size_t i = 0; i < cap.n; i++)
			if (cap.rec[i].kind == SS_KIND_API || cap.rec[i].kind == SS_KIND_SYNC) {
				host++;
				mapped += cap.rec[i].thread < (uint32_t)e.threads;
				if (cap.rec[i].thread > tmax)
					tmax = cap.rec[i].thread;
			}
		printf("host_records %zu thread_mapped %zu max_thread %u\n", host, mapped, tmax);
	}
	printf("dropped %llu\n", (unsigned long long)res.dropped);
	if (res.dropped && fail[0] == '\0')
		snprintf(fail, sizeof fail, "%llu dropped records", (unsigned long long)res.dropped);
	printf("verified %s\n", res.verified ? "yes" : "no");

	/* Makespans. */
	if (ngpu > 0) {
		uint64_t cupti = t1 - t0;
		double d = res.events_ns_of_captured ? 100.0 * ((double)res.events_ns_of_captured - (double)cupti) /
		                                           (double)res.events_ns_of_captured
		                                     : 0;
		printf("makespan_cupti_ns %llu\n", (unsigned long long)cupti);
		printf("makespan_events_ns %llu (same run) diff %.2f%%\n",
		       (unsigned long long)res.events_ns_of_captured, d);
		printf("first_gpu_start_after_t0_ns %llu\n", (unsigned long long)t0);
	}
	printf("traced_ns %llu untraced_ns %llu overhead %.2f%% repeats %d\n", (unsigned long long)res.traced_ns,
	       (unsigned long long)res.untraced_ns,
	       res.untraced_ns ? 100.0 * ((double)res.traced_ns - (double)res.untraced_ns) / (double)res.untraced_ns
	                       : 0,
	       res.repeats);

	/* Engines. */
	for (int k = SS_KIND_H2D; k <= SS_KIND_KERNEL; k++) {
		uint64_t bytes, busy = smoke_busy(&cap, k, &bytes);
		if (got[k] == 0)
			continue;
		printf("engine %-6s busy_ns %llu", record_kind_name(k), (unsigned long long)busy);
		if (bytes > 0 && busy > 0)
			printf(" bytes %llu GB/s %.1f", (unsigned long long)bytes, (double)bytes / (double)busy);
		printf("\n");
	}
	/* The largest single copy of each direction. */
	for (int k = SS_KIND_H2D; k <= SS_KIND_D2H; k++) {
		const struct ss_record *best = NULL;
		for (size_t i = 0; i < cap.n; i++)
			if (cap.rec[i].kind == k && (best == NULL || cap.rec[i].bytes > best->bytes))
				best = &cap.rec[i];
		if (best != NULL && best->end > best->start)
			printf("largest %s %llu bytes %llu ns %.1f GB/s flags %#x channel %u\n", record_kind_name(k),
			       (unsigned long long)best->bytes, (unsigned long long)(best->end - best->start),
			       (double)best->bytes / (double)(best->end - best->start), best->flags, best->thread);
	}
	if (e.defstream == SS_DS_LEGACY_OP) {
		size_t nlegacy, bad = smoke_serialised(&cap, &nlegacy);
		printf("legacy_ops %zu overlapping_across_them %zu serialised %s\n", nlegacy, bad, bad ? "no" : "yes");
	}
	if (dump != NULL)
		smoke_dump(&cap, dump);
	if (fail[0] != '\0') {
		printf("result FAIL %s\n", fail);
		return 1;
	}
	printf("result ok\n");
	planner_free(&ops);
	return 0;
}
