/* cmd_validate.c: `streamscope validate`: the model against the GPU over the preset matrix, or against measured
 * CSVs. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/expopts.h"
#include "core/atomic.h"
#include "core/xalloc.h"
#include "model/calibrate.h"
#include "model/model.h"
#include "model/profile.h"
#include "model/validate.h"

/* The most measured CSVs validate --check compares with. */
#define CM_CHECK_MAX 32

static void cmd_validate_progress(const char *msg)
{
	fprintf(stderr, "%s\n", msg);
}

/* The matrix filters of validate: comma-separated lists; an empty filter keeps everything. */
struct cm_filter {
	bool preset[SS_PRESET_COUNT], any_preset;
	bool streams[SS_MAX_STREAMS + 1], any_streams;
	bool conns[SS_MAX_CONNECTIONS + 1], any_conns;
};

/* cm_list parses "a,b,c" with one callback per item; -1 after printing the bad item. */
static int cm_list(const char *opt, const char *list, struct cm_filter *f)
{
	char *copy, *save = NULL, *tok, *end;
	int rc = 0;

	if (strcmp(opt, "--preset") == 0) {
		char *bad = NULL;

		if (experiment_preset_list(list, f->preset, &bad) != 0)
			rc = cmd_error(CLI_USAGE, "invalid --preset '%s': valid is a comma list of %s", bad,
			               experiment_valid_list("preset"));
		f->any_preset = rc == 0;
		free(bad);
		return rc == 0 ? 0 : -1;
	}
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok != NULL && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		long v = strtol(tok, &end, 10);
		long hi = strcmp(opt, "--streams") == 0 ? SS_MAX_STREAMS : SS_MAX_CONNECTIONS;

		if (end == tok || *end != '\0' || v < 1 || v > hi)
			rc = cmd_error(CLI_USAGE, "invalid %s '%s': valid is a list of 1..%ld", opt, tok, hi);
		else if (hi == SS_MAX_STREAMS)
			f->streams[v] = f->any_streams = true;
		else
			f->conns[v] = f->any_conns = true;
	}
	free(copy);
	return rc == 0 ? 0 : -1;
}

/* cm_filter_keeps: whether row r passes the --preset / --streams / --connections filter f. */
static bool cm_filter_keeps(const struct cm_filter *f, const struct ss_validate_row *r)
{
	return !((f->any_preset && !f->preset[r->preset]) || (f->any_streams && !f->streams[r->streams]) ||
	         (f->any_conns && !f->conns[r->connections]));
}

static void cm_filter_apply(const struct cm_filter *f, struct ss_validate_set *s)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++)
		if (cm_filter_keeps(f, &s->row[i]))
			s->row[k++] = s->row[i];
	s->n = k;
}

/* cm_by_preset prints each preset's median and worst error and its rows beyond SS_VALIDATE_WORST_MAX, when s has
 * the rows of more than one preset (the whole matrix's numbers can hide which preset misses). */
static void cm_by_preset(const struct ss_validate_set *s)
{
	struct ss_validate_set sub = {0};
	int presets = 0;
	bool seen[SS_PRESET_COUNT] = {false};

	for (size_t i = 0; i < s->n; i++) {
		presets += !seen[s->row[i].preset];
		seen[s->row[i].preset] = true;
	}
	if (presets < 2)
		return;
	sub.row = xcalloc(s->n, sizeof *sub.row);
	printf("by preset: median / worst error, rows beyond %.0f%%\n", 100 * SS_VALIDATE_WORST_MAX);
	for (int pr = 0; pr < SS_PRESET_COUNT; pr++) {
		struct ss_validate_stats st;

		if (!seen[pr])
			continue;
		sub.n = 0;
		for (size_t i = 0; i < s->n; i++)
			if ((int)s->row[i].preset == pr)
				sub.row[sub.n++] = s->row[i];
		validate_stats(&sub, &st);
		if (st.n == 0)
			continue;
		printf("  %-16s %5.1f%% / %5.1f%%  %zu of %zu\n", experiment_preset_name(pr), 100 * st.median_err,
		       100 * st.worst_err, st.beyond_worst, st.n);
	}
	free(sub.row);
}

/* cm_report prints the rows and the verdict; returns the exit status. */
static int cm_report(const struct ss_validate_set *s, const struct ss_profile *p, bool measured_modelled)
{
	struct ss_validate_stats st;
	bool pass;
	size_t detached, attached;

	bool multi = false, own = false;

	for (size_t i = 0; i < s->n; i++) {
		multi = multi || s->row[i].measured_n > 1;
		own = own || s->row[i].model_own_ns > 0;
	}
	printf("%-16s %4s %-8s %5s %14s %14s %8s", "preset", "n", "order", "queues",
	       measured_modelled ? "MODELLED(ref)"
	       : multi           ? "median"
	                         : "measured",
	       "MODELLED", "error");
	if (multi)
		printf(" %8s %3s", "spread", "n");
	if (own)
		printf(" %10s", "own calls");
	putchar('\n');
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_validate_row *r = &s->row[i];

		if (r->measured_ns == 0) {
			printf("%-16s %4d %-8s %5d %14s %11.3f ms %8s\n", experiment_preset_name(r->preset), r->streams,
			       experiment_order_name(r->order), r->connections, "-", r->model_ns / 1e6, "-");
			continue;
		}
		printf("%-16s %4d %-8s %5d %11.3f ms %11.3f ms %+7.1f%%", experiment_preset_name(r->preset), r->streams,
		       experiment_order_name(r->order), r->connections, r->measured_ns / 1e6, r->model_ns / 1e6,
		       100.0 * ((double)r->model_ns - (double)r->measured_ns) / (double)r->measured_ns);
		if (multi)
			printf(" %7.1f%% %3d", 100 * r->measured_spread, r->measured_n);
		if (r->model_own_ns > 0)
			printf(" %+9.1f%%",
			       100.0 * ((double)r->model_own_ns - (double)r->measured_ns) / (double)r->measured_ns);
		putchar('\n');
	}
	validate_stats(s, &st);
	pass = validate_passes(&st);
	printf("\nmodel (%s profile) vs %s%s%s, %zu row%s compared\n", p->name, s->device[0] ? s->device : "the GPU",
	       measured_modelled ? " (MODELLED reference)" : "",
	       multi ? " (the median of each row's measurements)" : "", st.n, st.n == 1 ? "" : "s");
	if (st.n > 0) {
		const struct ss_validate_row *w = &s->row[st.worst_row];

		printf(
		    "makespan error: median %.1f%% (target <= %.0f%%), worst %.1f%% (target <= %.0f%%: %s %d stream%s "
		    "%s, %d queue%s)\n",
		    100 * st.median_err, 100 * SS_VALIDATE_MEDIAN_MAX, 100 * st.worst_err, 100 * SS_VALIDATE_WORST_MAX,
		    experiment_preset_name(w->preset), w->streams, w->streams == 1 ? "" : "s",
		    experiment_order_name(w->order), w->connections, w->connections == 1 ? "" : "s");
	}
	if (multi)
		printf("rows off by more than %.0f%%: %zu; off by more than %.0f%% and their own spread: %zu\n",
		       100 * SS_VALIDATE_WORST_MAX, st.beyond_worst, 100 * SS_VALIDATE_WORST_MAX, st.beyond_spread);
	cm_by_preset(s);
	if (st.probe_n > 0) {
		const struct ss_validate_row *w = &s->row[st.probe_worst_row];

		printf("with each matrix's host probe over the profile (%zu row%s; its '# host:' line, taken before "
		       "the matrix): median %.1f%%, worst %.1f%% (%s %d stream%s %s, %d queue%s)\n",
		       st.probe_n, st.probe_n == 1 ? "" : "s", 100 * st.probe_median_err, 100 * st.probe_worst_err,
		       experiment_preset_name(w->preset), w->streams, w->streams == 1 ? "" : "s",
		       experiment_order_name(w->order), w->connections, w->connections == 1 ? "" : "s");
	}
	if (st.own_n > 0) {
		const struct ss_validate_row *w = &s->row[st.own_worst_row];

		printf("with each run's own call costs (%zu row%s; the host's speed as it was in that run, not a "
		       "prediction): median %.1f%%, worst %.1f%% (%s %d stream%s %s, %d queue%s), %zu row%s off by "
		       "more than %.0f%%\n",
		       st.own_n, st.own_n == 1 ? "" : "s", 100 * st.own_median_err, 100 * st.own_worst_err,
		       experiment_preset_name(w->preset), w->streams, w->streams == 1 ? "" : "s",
		       experiment_order_name(w->order), w->connections, w->connections == 1 ? "" : "s",
		       st.own_beyond_worst, st.own_beyond_worst == 1 ? "" : "s", 100 * SS_VALIDATE_WORST_MAX);
	}
	validate_twins(s, &detached, &attached);
	if (detached + attached > 0)
		printf(
		    "untraced rows: %zu measured with CUPTI detached, %zu with it attached (it costs each call, "
		    "host-bound rows most); of the %zu row%s off by more than %.0f%%, %zu measured with it attached\n",
		    detached, attached, st.beyond_worst, st.beyond_worst == 1 ? "" : "s", 100 * SS_VALIDATE_WORST_MAX,
		    st.beyond_attached);
	printf("faster order agrees: %zu/%zu   default-stream op serialises in both: %zu/%zu   pageable overlap "
	       "agrees: %zu/%zu\n",
	       st.order_agree, st.order_checked, st.serial_agree, st.serial_checked, st.pageable_agree,
	       st.pageable_checked);
	printf("targets %s%s\n", pass ? "MET" : "NOT MET",
	       measured_modelled ? " (MODELLED: the model against its own runs, a self-test)" : "");
	return pass ? CLI_OK : CLI_FAIL;
}

/* The measured CSVs of validate --check: the option values (comma lists, split in place) and the paths in them. */
struct cm_checks {
	char *list[CM_CHECK_MAX];
	const char *path[CM_CHECK_MAX];
	size_t nlist, npath;
};

/* cm_check_add adds the comma list of one --check; -1 after printing why. */
static int cm_check_add(struct cm_checks *ck, const char *arg)
{
	char *save = NULL, *tok;
	size_t before = ck->npath;

	if (ck->nlist == CM_CHECK_MAX)
		goto too_many;
	ck->list[ck->nlist] = xstrdup(arg);
	for (tok = strtok_r(ck->list[ck->nlist++], ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (ck->npath == CM_CHECK_MAX)
			goto too_many;
		ck->path[ck->npath++] = tok;
	}
	if (ck->npath == before) {
		cmd_error(CLI_USAGE, "validate: --check needs a file name");
		return -1;
	}
	return 0;
too_many:
	cmd_error(CLI_USAGE, "validate: at most %d --check files", CM_CHECK_MAX);
	return -1;
}

static int cm_validate(const struct cmd_args *args, struct cm_checks *ck);

/* The most keys one --fit chooses. */
#define CM_FIT_MAX 8

/* cm_fit_parse splits "KEY=LO:HI[,KEY=LO:HI...]" (in place) into fit[]; returns how many, -1 after printing why. */
static int cm_fit_parse(char *list, struct ss_validate_fit *fit)
{
	char *save = NULL, *tok, *eq, *colon, *end1, *end2;
	double min, max;
	int n = 0, key;

	for (tok = strtok_r(list, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		colon = eq != NULL ? strchr(eq, ':') : NULL;
		if (n == CM_FIT_MAX || eq == NULL || colon == NULL)
			goto bad;
		*eq = *colon = '\0';
		fit[n].key = tok;
		fit[n].lo = strtod(eq + 1, &end1);
		fit[n].hi = strtod(colon + 1, &end2);
		key = profile_key_find(tok);
		if (key < 0) {
			char *unknown = profile_key_unknown(tok);

			cmd_error(CLI_USAGE, "validate: invalid --fit: %s", unknown);
			free(unknown);
			return -1;
		}
		if (end1 == eq + 1 || *end1 != '\0' || end2 == colon + 1 || *end2 != '\0' || !(fit[n].lo > 0) ||
		    !(fit[n].hi > fit[n].lo))
			goto bad;
		profile_key_range(key, &min, &max);
		if (fit[n].lo < min || fit[n].hi > max) {
			cmd_error(CLI_USAGE, "validate: invalid --fit: %s takes values in %g..%g, not %g..%g", tok, min,
			          max, fit[n].lo, fit[n].hi);
			return -1;
		}
		n++;
	}
	if (n > 0)
		return n;
bad:
	cmd_error(CLI_USAGE,
	          "validate: invalid --fit: valid is KEY=LO:HI[,KEY=LO:HI...] (at most %d profile keys, "
	          "0 < LO < HI)",
	          CM_FIT_MAX);
	return -1;
}

/* cm_half keeps the rows of s whose stream count is an even (half 0: 1, 4, 16, 64) or odd (half 1: 2, 8, 32,
 * 128) power of two. */
static void cm_half(const struct ss_validate_set *s, int half, struct ss_validate_set *out)
{
	memset(out, 0, sizeof *out);
	out->row = xcalloc(s->n + 1, sizeof *out->row);
	out->cap = s->n + 1;
	for (size_t i = 0; i < s->n; i++) {
		int lg = 0;

		while ((1 << (lg + 1)) <= s->row[i].streams)
			lg++;
		if (lg % 2 == half)
			out->row[out->n++] = s->row[i];
	}
}

/* cm_fit fits the keys of fit[0..n) to s's rows (p changes to the fit over all of them) and prints the values and
 * the held-out check: fitted on one half of the stream counts, the model on the other. -1 after printing why. */
static int cm_fit(struct ss_profile *p, struct ss_validate_set *s, struct ss_validate_fit *fit, int n)
{
	static const char *const halves[] = {"1, 4, 16, 64 streams", "2, 8, 32, 128 streams"};
	char *cause = NULL;
	double score;

	for (int h = 0; h < 2; h++) {
		struct ss_validate_set on, off;
		struct ss_profile q = *p;
		struct ss_validate_stats a, b;
		int rc;

		cm_half(s, h, &on);
		cm_half(s, 1 - h, &off);
		rc = validate_fit(&q, &on, fit, (size_t)n, &score, &cause);
		if (rc == 0)
			rc = validate_model(&q, &on, &cause);
		if (rc == 0)
			rc = validate_model(&q, &off, &cause);
		if (rc == 0) {
			validate_stats(&on, &a);
			validate_stats(&off, &b);
			printf("fit on %s:", halves[h]);
			for (int k = 0; k < n; k++)
				printf(" %s=%.6g", fit[k].key, fit[k].value);
			printf(
			    "\n  fitted rows: %zu, median %.1f%%, worst %.1f%%, %zu beyond 15%%; held-out rows (%s): "
			    "%zu, median %.1f%%, worst %.1f%%, %zu beyond 15%%\n",
			    a.n, 100 * a.median_err, 100 * a.worst_err, a.beyond_worst, halves[1 - h], b.n,
			    100 * b.median_err, 100 * b.worst_err, b.beyond_worst);
		}
		validate_free(&on);
		validate_free(&off);
		if (rc != 0)
			goto fail;
	}
	if (validate_fit(p, s, fit, (size_t)n, &score, &cause) != 0 || validate_model(p, s, &cause) != 0)
		goto fail;
	printf("fit on every row (the model below):");
	for (int k = 0; k < n; k++)
		printf(" %s=%.6g", fit[k].key, fit[k].value);
	printf(" (mean |ln(model / measured)| %.4f)\n\n", score);
	return 0;
fail:
	cmd_error(CLI_FAIL, "validate: %s", cause);
	free(cause);
	return -1;
}

/* cm_write_csv writes s's CSV to path through io/atomic; -1 after printing why. */
static int cm_write_csv(const char *path, const struct ss_validate_set *s)
{
	char *text = validate_format_csv(s), *cause = NULL;
	int rc = atomic_write_text(path, text, &cause);

	free(text);
	if (rc != 0) {
		cmd_error(CLI_FAIL, "validate: %s", cause);
		free(cause);
	}
	return rc;
}

/* cm_host_probe measures this host's call costs on b (calibrate_host): before the matrix into s->host, which the
 * matrix's model uses and its CSV keeps; after it (after) into s->host_after, with how far launch and copy costs
 * moved meanwhile. -1 after printing why. */
static int cm_host_probe(const struct ss_backend *b, const struct ss_profile *p, struct ss_validate_set *s, bool after)
{
	struct ss_profile h = *p, before = *p;
	char *line = after ? s->host_after : s->host, *cause = NULL;

	fprintf(stderr,
	        after ? "validate: measuring this host's call costs again (how far they moved during the matrix)\n"
	              : "validate: measuring this host's call costs first (a second prediction uses them)\n");
	if (calibrate_host(b, &h, cmd_validate_progress, &cause) != 0) {
		cmd_error(CLI_CUDA, "validate: host call costs: %s", cause);
		free(cause);
		return -1;
	}
	validate_host_format(&h, line, sizeof s->host);
	fprintf(stderr, "validate: host call costs %s(ns): %s\n", after ? "after the matrix " : "", line);
	if (after && validate_host_apply(s->host, &before, &cause) == 0)
		fprintf(stderr,
		        "validate: during the matrix launches went from %.2f to %.2f us (%+.0f%%), copies from %.2f "
		        "to %.2f us (%+.0f%%)\n",
		        before.api_launch_ns / 1e3, h.api_launch_ns / 1e3,
		        before.api_launch_ns > 0 ? 100 * (h.api_launch_ns / before.api_launch_ns - 1) : 0.0,
		        before.api_copy_ns / 1e3, h.api_copy_ns / 1e3,
		        before.api_copy_ns > 0 ? 100 * (h.api_copy_ns / before.api_copy_ns - 1) : 0.0);
	free(cause);
	return 0;
}

/* cmd_validate_exec runs validate, then frees its --check lists. */
static int cmd_validate_exec(const struct cmd_args *args)
{
	struct cm_checks ck;
	int code;

	memset(&ck, 0, sizeof ck);
	code = cm_validate(args, &ck);
	for (size_t i = 0; i < ck.nlist; i++)
		free(ck.list[i]);
	return code;
}

/* cm_validate is validate with its --check files kept in ck (freed by the caller). */
static int cm_validate(const struct cmd_args *args, struct cm_checks *ck)
{
	const char *csv = NULL, *backend = "cuda", *profile = NULL;
	const char *matrix_opt = NULL; /* an option that runs the matrix, which --check does not */
	char fitlist[1024];            /* --fit's list, split in place: fit[].key points into it */
	struct ss_validate_fit fit[CM_FIT_MAX];
	int nfit = 0;
	bool quick = false, resume = false;
	bool resumed = false; /* --resume kept measured rows: a host line measured now would not be theirs */
	struct cm_filter filter;
	struct ss_validate_set s = {0};
	struct ss_profile p;
	const struct ss_backend *b;
	char *cause = NULL;
	int code = 0;
	size_t measured_now = 0;

	memset(&filter, 0, sizeof filter);
	for (int i = 0; i < args->nitem; i++) {
		const char *optarg = args->item[i].value;

		switch (args->item[i].id) {
		case OPT_CSV:
			csv = optarg;
			matrix_opt = "--csv";
			break;
		case OPT_QUICK:
			quick = true;
			matrix_opt = "--quick";
			break;
		case OPT_CHECK:
			if (cm_check_add(ck, optarg) != 0)
				return CLI_USAGE;
			break;
		case OPT_FIT:
			snprintf(fitlist, sizeof fitlist, "%s", optarg);
			if ((nfit = cm_fit_parse(fitlist, fit)) < 0)
				return CLI_USAGE;
			break;
		case OPT_RESUME:
			resume = true;
			matrix_opt = "--resume";
			break;
		case OPT_BACKEND:
			backend = optarg;
			matrix_opt = "--backend";
			break;
		case OPT_PROFILE:
			profile = optarg;
			break;
		case OPT_PRESET:
		case OPT_STREAMS:
		case OPT_CONNECTIONS:
			if (cm_list(cmd_option_name(args->item[i].id), optarg, &filter) != 0)
				return CLI_USAGE;
			break;
		default:
			break;
		}
	}
	if (nfit > 0 && ck->npath == 0)
		return cmd_error(CLI_USAGE, "validate: --fit needs --check FILE (it fits to measured rows)");
	if (ck->npath > 0 && matrix_opt != NULL)
		return cmd_error(CLI_USAGE,
		                 "validate: option '%s' does not apply with --check (it compares measured "
		                 "files, no matrix is run)",
		                 matrix_opt);
	if (resume && csv == NULL)
		return cmd_error(CLI_USAGE, "validate: --resume needs --csv FILE");
	/* the CSV is checked before the matrix, which takes minutes */
	if (csv != NULL && atomic_check(csv, &cause) != 0) {
		cmd_error(CLI_USAGE, "validate: --csv: %s", cause);
		free(cause);
		return CLI_USAGE;
	}
	if (expopts_model_profile(profile, &p) != 0)
		return CLI_USAGE;
	if (ck->npath > 0) {
		if (validate_read_csvs(ck->path, ck->npath, &p, &s, &cause) != 0) {
			cmd_error(CLI_USAGE, "validate: %s", cause);
			free(cause);
			validate_free(&s);
			return CLI_USAGE;
		}
		cm_filter_apply(&filter, &s);
		if (nfit > 0 && cm_fit(&p, &s, fit, nfit) != 0) {
			validate_free(&s);
			return CLI_FAIL;
		}
		goto report;
	}
	if (strcmp(backend, "model") == 0)
		model_set_profile(&p);
	if ((b = expopts_measure_backend(backend, &code)) == NULL)
		return code;
	validate_matrix(quick, &s);
	/* With --resume the file keeps every row it has; the filter only picks the rows measured now. */
	if (!resume)
		cm_filter_apply(&filter, &s);
	if (resume && access(csv, R_OK) == 0) {
		struct ss_validate_set old = {0};

		if (validate_read_csv(csv, &old, &cause) != 0) {
			cmd_error(CLI_USAGE, "validate: --resume: %s", cause);
			free(cause);
			validate_free(&s);
			return CLI_USAGE;
		}
		for (size_t i = 0; i < old.n; i++) {
			long j = validate_find(&s, &old.row[i]);

			if (j >= 0 && old.row[i].measured_ns > 0) {
				s.row[j] = old.row[i];
				resumed = true;
			}
		}
		snprintf(s.device, sizeof s.device, "%s", old.device);
		snprintf(s.host, sizeof s.host, "%s", old.host);
		validate_free(&old);
	}
	/* the host line stands for every row of the file: measured once, before the first row */
	if (!b->modelled && s.host[0] == '\0' && !resumed && cm_host_probe(b, &p, &s, false) != 0) {
		validate_free(&s);
		return CLI_CUDA;
	}
	if (validate_model(&p, &s, &cause) != 0)
		goto fail_model;
	for (size_t i = 0; i < s.n; i++) {
		struct ss_validate_row *r = &s.row[i];

		if (r->measured_ns > 0 || !cm_filter_keeps(&filter, r))
			continue;
		fprintf(stderr, "validate %zu/%zu: %s %d stream%s %s, %d queue%s\n", i + 1, s.n,
		        experiment_preset_name(r->preset), r->streams, r->streams == 1 ? "" : "s",
		        experiment_order_label(r->order), r->connections, r->connections == 1 ? "" : "s");
		code = validate_measure(b, &p, &s, i, &cause);
		measured_now++;
		if (code != 0) {
			cmd_error(code, "validate: %s %d stream%s: %s", experiment_preset_name(r->preset), r->streams,
			          r->streams == 1 ? "" : "s", cause);
			free(cause);
			validate_free(&s);
			return code;
		}
		if (csv != NULL && cm_write_csv(csv, &s) != 0) {
			validate_free(&s);
			return CLI_FAIL;
		}
	}
	/* the host's costs again, after the rows that were measured now */
	if (!b->modelled && measured_now > 0 && cm_host_probe(b, &p, &s, true) != 0) {
		validate_free(&s);
		return CLI_CUDA;
	}
	/* again, for the rows' own call costs measured now */
	if (validate_model(&p, &s, &cause) != 0)
		goto fail_model;
	if (csv != NULL && cm_write_csv(csv, &s) != 0) {
		validate_free(&s);
		return CLI_FAIL;
	}
	code = cm_report(&s, &p, b->modelled);
	validate_free(&s);
	return code;
report:
	code = cm_report(&s, &p, model_is_device(s.device)); /* a CSV validate --backend model wrote */
	validate_free(&s);
	return code;
fail_model:
	cmd_error(CLI_FAIL, "validate: %s", cause);
	free(cause);
	validate_free(&s);
	return CLI_FAIL;
}

static const struct cmd_use cmd_validate_uses[] = {
    {OPT_CSV, NULL, "write the rows to FILE (after every row)"},
    {OPT_QUICK, NULL, "streams 1 and 8 only"},
    {OPT_RESUME, NULL, "keep the measured rows FILE already has"},
    {OPT_BACKEND, "cuda|model", "measure on the GPU (the default), or on the model (a self-test)"},
    {OPT_PROFILE, NULL, "the model's profile (default: the H200 profile)"},
    {OPT_PRESET, "LIST", "only these presets (comma list)"},
    {OPT_STREAMS, "LIST", "only these stream counts (comma list, each 1..128)"},
    {OPT_CONNECTIONS, "LIST", "only these hardware queue counts (comma list, each 1..32)"},
    {OPT_CHECK, NULL, "compare the current model with measured CSVs, no GPU needed (repeatable)"},
    {OPT_FIT, NULL,
     "with --check: choose these profile keys (each in LO..HI) to fit the rows kept, print them and the\n"
     "held-out check (fitted on half the stream counts, the model on the other), then the rows modelled\n"
     "with the fit over all of them"},
    {OPT_NONE, NULL, NULL},
};

const struct cmd_entry cmd_validate_entry = {
    .name = "validate",
    .args = "",
    .summary = "compare the model with the GPU over the preset matrix (or with measured CSVs: --check)",
    .uses = cmd_validate_uses,
    .help = "Runs the preset matrix (every preset x streams 1..128 x both orders x 1 and 8 hardware queues) on\n"
            "the GPU and on the model and compares makespans and the direction of each effect. MODELLED is the\n"
            "model with the profile. On a GPU it first measures this host's call costs (launch, copy, event\n"
            "calls; a few seconds), keeps them on the CSV's '# host:' line and reports the model with them as\n"
            "well; it measures them again after the matrix ('# host-after:'): the host's speed moves, and that\n"
            "line says how far it did meanwhile.\n"
            "--check FILE compares the current model with a measured CSV (--csv, --quick, --resume and\n"
            "--backend, which run the matrix, do not apply then). Several files (repeated --check, or a comma\n"
            "list) are measurements of the same matrix: each row is held to the median of its measurements, and\n"
            "the spread column is theirs ((max - min) / median; n is their count). The model with each file's\n"
            "own host line is reported apart (the median of those predictions per row).",
    .exits = "0 targets met (median <= 5%, worst <= 15%, every direction agrees), 1 not met, 2 usage, 3 GPU",
    .exec = cmd_validate_exec,
};
