/* cmd_stats.c: `streamscope stats [FILE]`: per-kernel and per-copy-kind summaries of a trace (any file `view`
 * opens), or of a run of the experiment the options describe when no FILE is given, as `nsys stats` reports
 * cuda_gpu_kern_sum and cuda_gpu_mem_time_sum / cuda_gpu_mem_size_sum. The rows come from engine/summary. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/expopts.h"
#include "core/summary.h"
#include "core/units.h"
#include "io/import/import.h"
#include "run/runner.h"

/* cmd_stats_ns is v rounded to whole ns, for units_time. */
static uint64_t cmd_stats_ns(double v)
{
	return v > 0 && isfinite(v) ? (uint64_t)llround(v) : 0;
}

/* Prints one table of rows (kernels, or copies with their bytes and bandwidth). */
static void cmd_stats_table(const struct ss_timeline *t, const struct ss_summary_row *rows, size_t n, bool copies)
{
	char b[8][32];

	printf("%7s %10s %8s %10s %10s %10s %10s %10s", "time %", "total", "count", "avg", "median", "min", "max",
	       "stddev");
	if (copies)
		printf(" %11s %11s", "bytes", "bandwidth");
	printf("  %s\n", copies ? "kind" : "name");
	for (size_t i = 0; i < n; i++) {
		const struct ss_summary_row *r = &rows[i];

		printf("%6.1f%% %10s %8llu %10s %10s %10s %10s %10s", r->percent, units_time(r->total_ns, b[0], 32),
		       (unsigned long long)r->count, units_time(cmd_stats_ns(r->avg_ns), b[1], 32),
		       units_time(cmd_stats_ns(r->median_ns), b[2], 32), units_time(r->min_ns, b[3], 32),
		       units_time(r->max_ns, b[4], 32), units_time(cmd_stats_ns(r->stddev_ns), b[5], 32));
		if (copies)
			printf(" %11s %11s", units_bytes(r->bytes, b[6], 32),
			       units_rate(r->bytes, r->total_ns, b[7], 32));
		printf("  %s\n", summary_row_name(t, r));
	}
}

/* Prints the summary of t as text; what names the trace or the experiment. */
static void cmd_stats_print(const struct ss_timeline *t, const struct ss_summary *s, const char *what)
{
	char b1[32], b2[32];
	uint64_t bytes = 0;

	for (size_t i = 0; i < s->ncopy; i++)
		bytes += s->copy[i].bytes;
	printf("%s\n", what);
	if (t->device[0] != '\0')
		printf("device %s%s\n", t->device, t->modelled ? " (MODELLED: not measured)" : "");
	printf("\nGPU kernels: %llu %s of %zu %s, %s in all (as nsys stats cuda_gpu_kern_sum)\n",
	       (unsigned long long)s->kern_count, units_plural(s->kern_count, "launch", "launches"), s->nkern,
	       units_plural(s->nkern, "kernel", "kernels"), units_time(s->kern_total_ns, b1, sizeof b1));
	if (s->nkern > 0)
		cmd_stats_table(t, s->kern, s->nkern, false);
	printf("\nGPU copies and memsets: %llu %s, %s in all, %s (as nsys stats cuda_gpu_mem_time_sum and "
	       "cuda_gpu_mem_size_sum)\n",
	       (unsigned long long)s->copy_count, units_plural(s->copy_count, "operation", "operations"),
	       units_time(s->copy_total_ns, b1, sizeof b1), units_bytes(bytes, b2, sizeof b2));
	if (s->ncopy > 0)
		cmd_stats_table(t, s->copy, s->ncopy, true);
}

/* One row as JSON. */
static json_t *cmd_stats_json_row(const struct ss_timeline *t, const struct ss_summary_row *r)
{
	json_t *o = json_object();
	const char *mem = summary_mem_name(r->mem);

	json_object_set_new(o, "name", json_string(summary_row_name(t, r)));
	if (r->kind != SS_KIND_KERNEL) {
		json_object_set_new(o, "kind", json_string(summary_kind_name(r->kind)));
		json_object_set_new(o, "memory", mem != NULL ? json_string(mem) : json_null());
	}
	json_object_set_new(o, "time_percent", json_real(r->percent));
	json_object_set_new(o, "total_ns", json_integer((json_int_t)r->total_ns));
	json_object_set_new(o, "count", json_integer((json_int_t)r->count));
	json_object_set_new(o, "avg_ns", json_real(r->avg_ns));
	json_object_set_new(o, "median_ns", json_real(r->median_ns));
	json_object_set_new(o, "min_ns", json_integer((json_int_t)r->min_ns));
	json_object_set_new(o, "max_ns", json_integer((json_int_t)r->max_ns));
	json_object_set_new(o, "stddev_ns", json_real(r->stddev_ns));
	if (r->kind != SS_KIND_KERNEL) {
		json_object_set_new(o, "bytes", json_integer((json_int_t)r->bytes));
		json_object_set_new(o, "bytes_avg", json_real(r->bytes_avg));
		json_object_set_new(o, "bytes_median", json_real(r->bytes_median));
		json_object_set_new(o, "bytes_min", json_integer((json_int_t)r->bytes_min));
		json_object_set_new(o, "bytes_max", json_integer((json_int_t)r->bytes_max));
		json_object_set_new(o, "bandwidth_gbs", json_real(summary_bandwidth(r)));
	}
	return o;
}

/* Prints the summary of t as JSON; file is the trace's path, NULL for a run. 0 or CLI_FAIL. */
static int cmd_stats_json(const struct ss_timeline *t, const struct ss_summary *s, const char *file)
{
	json_t *root = json_object(), *kern = json_array(), *copy = json_array();
	int rc;

	json_object_set_new(root, "file", file != NULL ? json_string(file) : json_null());
	json_object_set_new(root, "backend", json_string(t->backend));
	json_object_set_new(root, "device", json_string(t->device));
	json_object_set_new(root, "modelled", json_boolean(t->modelled));
	json_object_set_new(root, "kernel_count", json_integer((json_int_t)s->kern_count));
	json_object_set_new(root, "kernel_total_ns", json_integer((json_int_t)s->kern_total_ns));
	json_object_set_new(root, "copy_count", json_integer((json_int_t)s->copy_count));
	json_object_set_new(root, "copy_total_ns", json_integer((json_int_t)s->copy_total_ns));
	for (size_t i = 0; i < s->nkern; i++)
		json_array_append_new(kern, cmd_stats_json_row(t, &s->kern[i]));
	for (size_t i = 0; i < s->ncopy; i++)
		json_array_append_new(copy, cmd_stats_json_row(t, &s->copy[i]));
	json_object_set_new(root, "kernels", kern);
	json_object_set_new(root, "copies", copy);
	rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(root);
	return rc == 0 ? CLI_OK : CLI_FAIL;
}

/* cmd_stats_run runs the experiment of o on its backend into tl; a line of what it was goes to what. 0 or an
 * exit code. */
static int cmd_stats_run(const struct expopts *o, struct ss_timeline *tl, char *what, size_t len)
{
	char desc[256];
	struct ss_run_result res;
	char *cause = NULL;
	const struct ss_backend *b;
	int rc;

	if ((b = expopts_backend(o, &rc)) == NULL)
		return rc;
	if ((rc = runner_run(b, &o->exp, tl, &res, &cause)) != 0) {
		cmd_error(rc, "%s", cause);
		free(cause);
		return rc;
	}
	tl->modelled = tl->modelled || res.modelled;
	if (tl->device[0] == '\0')
		snprintf(tl->device, sizeof tl->device, "%s", res.device);
	experiment_describe(&o->exp, desc, sizeof desc);
	snprintf(what, len, "experiment %s (%s, %s)", desc, tl->backend, res.modelled ? "MODELLED" : "measured");
	return CLI_OK;
}

/* cmd_stats_exec summarises the trace FILE, or a run of the experiment the options describe. */
static int cmd_stats_exec(const struct cmd_args *args)
{
	struct expopts o;
	struct ss_timeline tl;
	struct ss_summary s;
	const char *file = args->npos > 0 ? args->pos[0] : NULL;
	char what[512], *cause = NULL;
	int rc;

	/* stats FILE summarises the trace; the experiment options are for stats without FILE, which runs one */
	for (int i = 0; file != NULL && i < args->nitem; i++)
		if (args->item[i].id != OPT_JSON)
			return cmd_error(
			    CLI_USAGE,
			    "option '%s' does not apply to 'stats FILE': a trace's experiment is the one it "
			    "recorded (without FILE, stats runs the experiment the options describe)",
			    cmd_option_name(args->item[i].id));
	if ((rc = expopts_parse(args, &o)) != 0)
		return rc;
	timeline_init(&tl);
	if (file != NULL) {
		if (import_file(file, &tl, &cause) != 0) {
			cmd_error(CLI_FAIL, "%s", cause);
			free(cause);
			timeline_free(&tl);
			return CLI_FAIL;
		}
		snprintf(what, sizeof what, "trace %s", file);
	} else if ((rc = cmd_stats_run(&o, &tl, what, sizeof what)) != 0) {
		timeline_free(&tl);
		return rc;
	}
	summary_build(&tl, &s);
	if (o.json)
		rc = cmd_stats_json(&tl, &s, file);
	else
		cmd_stats_print(&tl, &s, what);
	summary_free(&s);
	timeline_free(&tl);
	return rc;
}

static const struct cmd_use cmd_stats_uses[] = {
    CMD_USES_EXPERIMENT,       {OPT_BACKEND, NULL, NULL},
    {OPT_PROFILE, NULL, NULL}, {OPT_JSON, NULL, "the same as JSON on stdout (times in ns; bandwidth in GB/s)"},
    {OPT_NONE, NULL, NULL},
};

const struct cmd_entry cmd_stats_entry = {
    .name = "stats",
    .args = "[FILE]",
    .maxargs = 1,
    .summary = "per-kernel and per-copy-kind summaries (as nsys stats) of a trace, or without FILE of a run\n"
               "of the experiment the options describe",
    .uses = cmd_stats_uses,
    .help = "Per-kernel and per-copy-kind summaries, as 'nsys stats' reports cuda_gpu_kern_sum and\n"
            "cuda_gpu_mem_time_sum (with cuda_gpu_mem_size_sum's bytes): kernels by name; copies by kind (HtoD,\n"
            "DtoH, DtoD, memset), pinned, pageable and managed memory apart where the records say so. Each row:\n"
            "time %, total, count, average, median, min, max, standard deviation of the durations (copies also\n"
            "their bytes and bandwidth), sorted by total time, descending. Time % is the row's share of all\n"
            "kernel time, or of all copy and memset time.\n"
            "\n"
            "FILE is any trace 'view' opens (streamscope SQLite or JSON, Nsight Systems SQLite export). Without\n"
            "FILE, the experiment the options describe is run (as 'streamscope run' runs it: the GPU, or the\n"
            "model, labelled MODELLED) and its timeline summarised; with FILE only --json applies.",
    .exits = "0 ok, 1 the file cannot be read, 2 usage error, 3 CUDA/CUPTI failure",
    .exec = cmd_stats_exec,
};
