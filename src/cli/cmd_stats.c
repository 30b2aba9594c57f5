/* cmd_stats.c: `streamscope stats [FILE]`: per-kernel and per-copy-kind summaries of a trace (any file `view`
 * opens), or of a run of the experiment the options describe when no FILE is given, as `nsys stats` reports
 * cuda_gpu_kern_sum and cuda_gpu_mem_time_sum / cuda_gpu_mem_size_sum. The rows come from engine/summary. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/expopts.h"
#include "cli/report.h"
#include "core/devsum.h"
#include "core/summary.h"
#include "core/text.h"
#include "core/units.h"

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
		printf("  ");
		text_fputs(summary_row_name(t, r), stdout); /* a name from the trace: no control reaches the terminal */
		putchar('\n');
	}
}

/* Prints the summary of t as text; what names the trace or the experiment. */
static void cmd_stats_print(const struct ss_timeline *t, const struct ss_summary *s, const char *what)
{
	char b1[32], b2[32];
	uint64_t bytes = 0;

	for (size_t i = 0; i < s->ncopy; i++)
		bytes += s->copy[i].bytes;
	text_fputs(what, stdout);
	putchar('\n');
	if (t->device[0] != '\0') {
		printf("device ");
		text_fputs(t->device, stdout);
		printf("%s\n", t->modelled ? " (MODELLED: not measured)" : "");
	}
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

/* cmd_stats_devices prints the per-device table of a timeline of two or more devices (nothing for one). */
static void cmd_stats_devices(const struct ss_timeline *t, const struct ss_devsum *d)
{
	char b[9][32], title[192];

	if (d->ndev < 2)
		return;
	printf("\nper device: %d devices, %s of GPU work in all; the host link shared by two or more for %s\n", d->ndev,
	       units_time(d->span_ns, b[0], 32), units_time(d->link_shared_ns, b[1], 32));
	printf("%-6s %10s %10s %10s %10s %10s %10s %10s %10s %10s  %s\n", "device", "busy", "compute", "H2D", "D2H",
	       "peer", "peer out", "peer in", "idle*", "link sh.", "name");
	for (int i = 0; i < d->ndev; i++) {
		const struct ss_devsum_dev *v = &d->dev[i];

		printf("%-6d %10s %10s %10s %10s %10s %10s %10s %10s %10s  ", i, units_time(v->busy_ns, b[0], 32),
		       units_time(v->compute_ns, b[1], 32), units_time(v->h2d_ns, b[2], 32),
		       units_time(v->d2h_ns, b[3], 32), units_time(v->peer_ns, b[4], 32),
		       units_bytes(v->peer_out_bytes, b[5], 32), units_bytes(v->peer_in_bytes, b[6], 32),
		       units_time(v->idle_while_busy_ns, b[7], 32), units_time(v->link_shared_ns, b[8], 32));
		text_fputs(timeline_device_title(t, i, title, sizeof title), stdout);
		putchar('\n');
	}
	printf("idle*: idle while another device was busy; link sh.: its H2D/D2H ran beside another device's\n");
}

/* cmd_stats_json_devices writes the per-device rows (an empty array for one device). */
static void cmd_stats_json_devices(struct json_out *o, const struct ss_timeline *t, const struct ss_devsum *d)
{
	char title[192];

	json_out_key_uint(o, "device_count", (uint64_t)d->ndev);
	json_out_key_uint(o, "host_link_shared_ns", d->link_shared_ns);
	json_out_key(o, "devices");
	json_out_array_begin(o);
	for (int i = 0; i < d->ndev && d->ndev > 1; i++) {
		const struct ss_devsum_dev *v = &d->dev[i];

		json_out_map_begin(o);
		json_out_key_uint(o, "device", (uint64_t)i);
		json_out_key_str(o, "title", timeline_device_title(t, i, title, sizeof title));
		json_out_key_uint(o, "busy_ns", v->busy_ns);
		json_out_key_uint(o, "compute_ns", v->compute_ns);
		json_out_key_uint(o, "h2d_ns", v->h2d_ns);
		json_out_key_uint(o, "d2h_ns", v->d2h_ns);
		json_out_key_uint(o, "peer_ns", v->peer_ns);
		json_out_key_uint(o, "h2d_bytes", v->h2d_bytes);
		json_out_key_uint(o, "d2h_bytes", v->d2h_bytes);
		json_out_key_uint(o, "peer_out_bytes", v->peer_out_bytes);
		json_out_key_uint(o, "peer_in_bytes", v->peer_in_bytes);
		json_out_key_uint(o, "idle_while_busy_ns", v->idle_while_busy_ns);
		json_out_key_uint(o, "link_shared_ns", v->link_shared_ns);
		json_out_map_end(o);
	}
	json_out_array_end(o);
}

/* Real numbers in the JSON: ten significant digits. */
#define CMD_STATS_DIGITS 10

/* cmd_stats_json_row writes one row as a JSON object. */
static void cmd_stats_json_row(struct json_out *o, const struct ss_timeline *t, const struct ss_summary_row *r)
{
	json_out_map_begin(o);
	json_out_key_str(o, "name", summary_row_name(t, r));
	if (r->kind != SS_KIND_KERNEL) {
		json_out_key_str(o, "kind", summary_kind_name(r->kind));
		json_out_key_str(o, "memory", summary_mem_name(r->mem));
	}
	json_out_key_double(o, "time_percent", r->percent, CMD_STATS_DIGITS);
	json_out_key_uint(o, "total_ns", r->total_ns);
	json_out_key_uint(o, "count", r->count);
	json_out_key_double(o, "avg_ns", r->avg_ns, CMD_STATS_DIGITS);
	json_out_key_double(o, "median_ns", r->median_ns, CMD_STATS_DIGITS);
	json_out_key_uint(o, "min_ns", r->min_ns);
	json_out_key_uint(o, "max_ns", r->max_ns);
	json_out_key_double(o, "stddev_ns", r->stddev_ns, CMD_STATS_DIGITS);
	if (r->kind != SS_KIND_KERNEL) {
		json_out_key_uint(o, "bytes", r->bytes);
		json_out_key_double(o, "bytes_avg", r->bytes_avg, CMD_STATS_DIGITS);
		json_out_key_double(o, "bytes_median", r->bytes_median, CMD_STATS_DIGITS);
		json_out_key_uint(o, "bytes_min", r->bytes_min);
		json_out_key_uint(o, "bytes_max", r->bytes_max);
		json_out_key_double(o, "bandwidth_gbs", summary_bandwidth(r), CMD_STATS_DIGITS);
	}
	json_out_map_end(o);
}

/* cmd_stats_json prints the summary of t as JSON; file is the trace's path, NULL for a run. 0 or CLI_FAIL. */
static int cmd_stats_json(const struct ss_timeline *t, const struct ss_summary *s, const struct ss_devsum *d,
                          const char *file)
{
	struct json_out *o = report_json_begin();

	json_out_key_str(o, "file", file);
	json_out_key_str(o, "backend", t->backend);
	json_out_key_str(o, "device", t->device[0] != '\0' ? t->device : NULL); /* null: the trace names none */
	json_out_key_bool(o, "modelled", t->modelled);
	json_out_key_uint(o, "kernel_count", s->kern_count);
	json_out_key_uint(o, "kernel_total_ns", s->kern_total_ns);
	json_out_key_uint(o, "copy_count", s->copy_count);
	json_out_key_uint(o, "copy_total_ns", s->copy_total_ns);
	json_out_key(o, "kernels");
	json_out_array_begin(o);
	for (size_t i = 0; i < s->nkern; i++)
		cmd_stats_json_row(o, t, &s->kern[i]);
	json_out_array_end(o);
	json_out_key(o, "copies");
	json_out_array_begin(o);
	for (size_t i = 0; i < s->ncopy; i++)
		cmd_stats_json_row(o, t, &s->copy[i]);
	json_out_array_end(o);
	cmd_stats_json_devices(o, t, d);
	return report_json_end(o);
}

/* cmd_stats_exec summarises the trace FILE, or a run of the experiment the options describe. */
static int cmd_stats_exec(const struct cmd_args *args)
{
	struct expopts o;
	struct ss_timeline tl;
	struct ss_summary s;
	struct ss_devsum d;
	const char *file = args->npos > 0 ? args->pos[0] : NULL;
	char what[512];
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
	if ((rc = expopts_run(&o, file, &tl, what, sizeof what)) != 0) {
		timeline_free(&tl);
		return rc;
	}
	summary_build(&tl, &s);
	devsum_build(&tl, &d);
	if (o.json) {
		rc = cmd_stats_json(&tl, &s, &d, file);
	} else {
		cmd_stats_print(&tl, &s, what);
		cmd_stats_devices(&tl, &d);
	}
	devsum_free(&d);
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
            "kernel time, or of all copy and memset time. A timeline of two or more devices adds a row per device:\n"
            "its busy time by engine, peer copies and bytes, the time it sat idle while another device worked,\n"
            "and the time its host-link copies ran beside another device's.\n"
            "\n"
            "FILE is any trace 'view' opens (streamscope SQLite or JSON, Nsight Systems SQLite export). Without\n"
            "FILE, the experiment the options describe is run (as 'streamscope run' runs it: the GPU, or the\n"
            "model, labelled MODELLED) and its timeline summarised; with FILE only --json applies.",
    .exits = "0 ok, 1 the file cannot be read, 2 usage error, 3 CUDA/CUPTI failure",
    .exec = cmd_stats_exec,
};
