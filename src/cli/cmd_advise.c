/* cmd_advise.c: `streamscope advise`: the advisor (run/advise) for the experiment the options describe: the
 * configuration the model predicts best, its time and gain over the current one and why, as text or one JSON
 * object; with --verify the top candidates measured on the GPU against their predictions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/backends.h"
#include "cli/cmd.h"
#include "cli/expopts.h"
#include "cli/report.h"
#include "core/experiment.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "io/export/json_out.h"
#include "model/model.h"
#include "run/advise.h"

/* The names of the fields the search varies, in enum ss_advise_dim's bit order. */
static const char *const cmd_advise_dims[] = {"streams", "chunks",   "order",       "queues",
                                              "sync",    "host-mem", "stream-flags"};

/* cmd_advise_changes writes what c changes in cur ("32 streams 64 chunks, sync stream"), "the current
 * configuration" when nothing. */
static const char *cmd_advise_changes(const struct ss_experiment *cur, const struct ss_advise_cand *c, char *buf,
                                      size_t len)
{
	if (experiment_changes(cur, &c->e, NULL, buf, len) == 0)
		snprintf(buf, len, "the current configuration");
	return buf;
}

/* cmd_advise_config writes c's configuration as a JSON map (the fields the advisor varies). */
static void cmd_advise_config(struct json_out *o, const struct ss_experiment *cur, const struct ss_advise_cand *c)
{
	char d[512];

	json_out_map_begin(o);
	json_out_key_int(o, "streams", c->e.streams);
	json_out_key_int(o, "chunks", c->nchunks);
	json_out_key_str(o, "order", experiment_order_name(c->e.order));
	json_out_key_int(o, "connections", c->e.connections);
	json_out_key_str(o, "sync", experiment_sync_name(c->e.sync));
	json_out_key_str(o, "host_mem", experiment_hostmem_name(c->e.hostmem));
	json_out_key_str(o, "stream_flags", c->e.nonblocking ? "nonblocking" : "blocking");
	json_out_key_int(o, "threads", c->e.threads);
	experiment_describe(&c->e, d, sizeof d);
	json_out_key_str(o, "description", d);
	json_out_key_str(o, "changes", cmd_advise_changes(cur, c, d, sizeof d));
	json_out_map_end(o);
}

/* cmd_advise_cand writes {config, predicted_ns} of c. */
static void cmd_advise_cand(struct json_out *o, const struct ss_experiment *cur, const struct ss_advise_cand *c)
{
	json_out_key(o, "config");
	cmd_advise_config(o, cur, c);
	json_out_key_uint(o, "predicted_ns", c->predicted_ns);
}

/* cmd_advise_cands writes key: an array of the n candidates c, each an object as cmd_advise_cand writes it. */
static void cmd_advise_cands(struct json_out *o, const char *key, const struct ss_experiment *cur,
                             const struct ss_advise_cand *c, size_t n)
{
	json_out_key(o, key);
	json_out_array_begin(o);
	for (size_t i = 0; i < n; i++) {
		json_out_map_begin(o);
		cmd_advise_cand(o, cur, &c[i]);
		json_out_map_end(o);
	}
	json_out_array_end(o);
}

/* cmd_advise_json prints the advice (and the verification, v NULL when none) as one JSON object. */
static int cmd_advise_json(const struct ss_advice *a, const struct ss_advise_verify *v)
{
	struct json_out *o = report_json_begin();
	const struct ss_experiment *cur = &a->current.e;
	char d[512];

	json_out_key_bool(o, "modelled", true);
	json_out_key_str(o, "device", a->device);
	report_json_experiment(o, cur);
	experiment_describe(cur, d, sizeof d);
	json_out_key_str(o, "experiment_text", d);
	json_out_key(o, "varied");
	json_out_array_begin(o);
	for (size_t i = 0; i < sizeof cmd_advise_dims / sizeof cmd_advise_dims[0]; i++)
		if (a->varied & (1u << i))
			json_out_str(o, cmd_advise_dims[i]);
	json_out_array_end(o);
	json_out_key_uint(o, "candidates_searched", a->searched);
	json_out_key_uint(o, "candidates_failed", a->failed);
	json_out_key_fixed(o, "tolerance", a->tolerance, 4);
	json_out_key(o, "current");
	json_out_map_begin(o);
	cmd_advise_cand(o, cur, &a->current);
	json_out_map_end(o);
	json_out_key(o, "best");
	json_out_map_begin(o);
	cmd_advise_cand(o, cur, &a->best);
	json_out_key_int(o, "gain_ns", a->gain_ns);
	json_out_key_fixed(o, "gain_pct", a->gain_pct, 2);
	json_out_key_bool(o, "is_current", a->best_is_current);
	json_out_map_end(o);
	json_out_key(o, "fastest");
	json_out_map_begin(o);
	cmd_advise_cand(o, cur, &a->fastest);
	json_out_map_end(o);
	json_out_key_str(o, "explanation", a->explanation);
	json_out_key(o, "bound");
	if (a->bound_engine >= 0) {
		static const char *const eng[] = {"h2d", "compute", "d2h"};

		json_out_map_begin(o);
		json_out_key_str(o, "engine", eng[a->bound_engine]);
		json_out_key_fixed(o, "util", a->bound_util, 4);
		json_out_map_end(o);
	} else {
		json_out_null(o);
	}
	if (a->knee_streams > 0)
		json_out_key_int(o, "knee_streams", a->knee_streams);
	else
		json_out_key_null(o, "knee_streams");
	cmd_advise_cands(o, "top", cur, a->top, a->ntop);
	cmd_advise_cands(o, "spread", cur, a->spread, a->nspread);
	json_out_key(o, "verify");
	if (v == NULL) {
		json_out_null(o);
	} else {
		json_out_map_begin(o);
		json_out_key_str(o, "device", v->device);
		json_out_key_bool(o, "modelled", false);
		json_out_key(o, "measured");
		json_out_array_begin(o);
		for (size_t i = 0; i < v->n; i++) {
			const struct ss_advise_measure *m = &v->m[i];

			json_out_map_begin(o);
			cmd_advise_cand(o, cur, &m->c);
			json_out_key_bool(o, "current", m->current);
			json_out_key_bool(o, "recommended", m->recommended);
			if (m->ok) {
				json_out_key_uint(o, "measured_ns", m->measured_ns);
				json_out_key_fixed(o, "measured_over_predicted",
				                   (double)m->measured_ns / (double)m->c.predicted_ns, 4);
				json_out_key_null(o, "error");
			} else {
				json_out_key_null(o, "measured_ns");
				json_out_key_null(o, "measured_over_predicted");
				json_out_key_str(o, "error", m->error);
			}
			json_out_map_end(o);
		}
		json_out_array_end(o);
		json_out_key(o, "best");
		if (v->best < v->n) {
			const struct ss_advise_measure *m = &v->m[v->best];
			const struct ss_advise_measure *cm = NULL;

			for (size_t i = 0; i < v->n; i++)
				if (v->m[i].current && v->m[i].ok)
					cm = &v->m[i];
			json_out_map_begin(o);
			cmd_advise_cand(o, cur, &m->c);
			json_out_key_uint(o, "measured_ns", m->measured_ns);
			json_out_key_bool(o, "recommended", m->recommended);
			if (cm != NULL) {
				json_out_key_int(o, "gain_ns", (int64_t)cm->measured_ns - (int64_t)m->measured_ns);
				json_out_key_fixed(o, "gain_pct",
				                   100.0 * ((double)cm->measured_ns - (double)m->measured_ns) /
				                       (double)cm->measured_ns,
				                   2);
			} else {
				json_out_key_null(o, "gain_ns");
				json_out_key_null(o, "gain_pct");
			}
			json_out_map_end(o);
		} else {
			json_out_null(o);
		}
		json_out_map_end(o);
	}
	return report_json_end(o);
}

/* cmd_advise_print prints the advice as text, and the verification when v is not NULL. */
static void cmd_advise_print(const struct ss_advice *a, const struct ss_advise_verify *v)
{
	const struct ss_experiment *cur = &a->current.e;
	char d[512], t1[32], t2[32];
	bool first = true;

	experiment_describe(cur, d, sizeof d);
	printf("advise %s\n", d);
	printf("MODELLED on %s: %zu configurations searched (", a->device, a->searched);
	for (size_t i = 0; i < sizeof cmd_advise_dims / sizeof cmd_advise_dims[0]; i++)
		if (a->varied & (1u << i)) {
			printf("%s%s", first ? "" : ", ", cmd_advise_dims[i]);
			first = false;
		}
	printf("; sizes and kernel work kept)\n\n");
	printf("current  %10s  (modelled)\n", units_time(a->current.predicted_ns, t1, sizeof t1));
	if (a->best_is_current)
		printf("best     %10s  the current configuration\n", units_time(a->best.predicted_ns, t1, sizeof t1));
	else
		printf("best     %10s  %s: %s faster (%.1f%%, modelled)\n",
		       units_time(a->best.predicted_ns, t1, sizeof t1), cmd_advise_changes(cur, &a->best, d, sizeof d),
		       units_time((uint64_t)a->gain_ns, t2, sizeof t2), a->gain_pct);
	printf("why      %s\n", a->explanation);
	printf("\ntop %zu time%s (modelled; each shown once, by the simplest configuration that takes it):\n", a->ntop,
	       a->ntop == 1 ? "" : "s");
	for (size_t i = 0; i < a->ntop; i++)
		printf("  %zu  %10s  %s%s\n", i + 1, units_time(a->top[i].predicted_ns, t1, sizeof t1),
		       cmd_advise_changes(cur, &a->top[i], d, sizeof d),
		       a->top[i].predicted_ns == a->best.predicted_ns ? "  <- the advice's time" : "");
	if (a->nspread > 0)
		printf(
		    "\nwithin %.0f%% of the fastest, least alike the advice first (the model's ties; --verify measures "
		    "them):\n",
		    100 * SS_ADVISE_PLATEAU);
	for (size_t i = 0; i < a->nspread; i++)
		printf("  %zu  %10s  %s\n", i + 1, units_time(a->spread[i].predicted_ns, t1, sizeof t1),
		       cmd_advise_changes(cur, &a->spread[i], d, sizeof d));
	if (v == NULL)
		return;
	printf("\nverify on %s (measured: untraced cudaEvent makespan, median of %d repeats):\n", v->device,
	       cur->repeat);
	printf("  %10s  %10s  %8s  %s\n", "predicted", "measured", "meas/pred", "configuration");
	for (size_t i = 0; i < v->n; i++) {
		const struct ss_advise_measure *m = &v->m[i];
		char ratio[16] = "-";

		if (m->ok)
			snprintf(ratio, sizeof ratio, "%.3f", (double)m->measured_ns / (double)m->c.predicted_ns);
		printf("  %10s  %10s  %8s  %s%s%s%s\n", units_time(m->c.predicted_ns, t1, sizeof t1),
		       m->ok ? units_time(m->measured_ns, t2, sizeof t2) : "failed", ratio,
		       cmd_advise_changes(cur, &m->c, d, sizeof d), m->recommended ? "  [advised]" : "",
		       m->current ? "  [current]" : "", i == v->best ? "  [measured best]" : "");
		if (!m->ok)
			printf("      %s\n", m->error);
	}
	if (v->best < v->n)
		printf("measured best: %s, %s\n", cmd_advise_changes(cur, &v->m[v->best].c, d, sizeof d),
		       units_time(v->m[v->best].measured_ns, t1, sizeof t1));
}

/* cmd_advise_progress shows --verify's progress on stderr, only for a terminal. */
static void cmd_advise_progress(const struct ss_advise_verify *v, size_t i)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r  verify %zu/%zu on the GPU   ", i + 1, v->n);
	if (i + 1 == v->n)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

/* cmd_advise_exec searches the experiment's configurations on the model and prints the advice; --verify measures
 * the top ones on the GPU. */
static int cmd_advise_exec(const struct cmd_args *args)
{
	struct expopts o;
	struct ss_advice *a;
	struct ss_advise_verify *v = NULL;
	const struct ss_backend *gpu = NULL;
	char *cause = NULL;
	int rc;

	if ((rc = expopts_parse(args, &o)) != 0)
		return rc;
	if (cmd_has(args, OPT_VERIFY, NULL) &&
	    (gpu = backends_verify("advise", "its candidates", "advise predicts on the model", &rc)) == NULL)
		return rc;
	a = xmalloc(sizeof *a);
	if (advise_search(&model_backend, &o.exp, NULL, a, &cause) != 0) {
		cmd_error(CLI_USAGE, "advise: %s", cause);
		free(cause);
		free(a);
		return CLI_USAGE;
	}
	if (gpu != NULL) {
		v = xcalloc(1, sizeof *v);
		advise_verify_plan(a, SS_ADVISE_VERIFY, v);
		if ((rc = advise_verify(gpu, v, cmd_advise_progress, &cause)) != 0) {
			cmd_error(0, "advise --verify: %s (the other configurations were measured)", cause);
			free(cause);
		}
	}
	if (o.json) {
		int jr = cmd_advise_json(a, v);

		rc = rc != 0 ? rc : jr;
	} else {
		cmd_advise_print(a, v);
	}
	free(v);
	free(a);
	return rc;
}

static const struct cmd_use cmd_advise_uses[] = {
    CMD_USES_EXPERIMENT,
    {OPT_REPEAT, NULL, "timed repeats of each --verify run 1..1000 (the measured time is their median)"},
    {OPT_PROFILE, NULL, NULL},
    {OPT_VERIFY, NULL,
     "GPU: measure the advice, the fastest and the next candidates and the current configuration (at most 6)\n"
     "on the GPU, untraced, and print measured against predicted; without a GPU: exit 3"},
    {OPT_JSON, NULL,
     "one object on stdout: current, best (with gain_ns, gain_pct), fastest, explanation, candidates_searched,\n"
     "top, spread (the configurations within 2% of the fastest that --verify measures), verify (null without "
     "--verify), modelled (times in ns)"},
    {OPT_NONE, NULL, NULL},
};

static const struct cmd_refusal cmd_advise_refusals[] = {
    {OPT_BACKEND, "advise searches on the model; --verify measures its candidates on the GPU"},
    {OPT_EXPORT, "advise prints configurations; export one's timeline with 'streamscope run ... --export FILE'"},
    {OPT_NONE, NULL},
};

const struct cmd_entry cmd_advise_entry = {
    .name = "advise",
    .args = "[FILE]",
    .maxargs = 1,
    .flags = CMD_EXPFILE_ARG,
    .summary = "search the experiment's streams, chunks, order, queues, sync and host memory on the model and\n"
               "recommend the best (MODELLED; --verify measures the top candidates on the GPU)",
    .uses = cmd_advise_uses,
    .refusals = cmd_advise_refusals,
    .help = "The experiment's sizes, kernel and kernel work stay as given; the search varies the stream count (not\n"
            "where each stream runs work of its own, as hyperq's), the chunks, the issue order (depth, breadth,\n"
            "and document 003's best and weaker where the kernel copies), the hardware queues, the sync order,\n"
            "the host memory (where the kernel copies) and, with a default-stream operation, the stream flags.\n"
            "The model is deterministic: a coarse grid, then local refinement around the fastest. The advice is\n"
            "the simplest configuration (fewest launches and streams, then fewest changes) within 1% of the\n"
            "fastest found and never slower than the current one. Every time is the model's unless --verify\n"
            "measured it.\n"
            "\n" CMD_HELP_EXPFILE "(advise examples/pageable.ini --verify).",
    .exits = "0 ok, 1 output failed, 2 usage error, 3 --verify without a GPU, or a run on it failed",
    .exec = cmd_advise_exec,
};
