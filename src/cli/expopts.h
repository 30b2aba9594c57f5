/* expopts.h: the options that describe an experiment and where it runs, shared by the TUI, run, sweep, ops, stats
 * and bench: parsed from what cmd_parse found, checked, and turned into a backend. */
#ifndef SS_CLI_EXPOPTS_H
#define SS_CLI_EXPOPTS_H

#include <stdbool.h>

#include "cli/cmd.h"
#include "cli/expfile.h"
#include "core/analysis.h"
#include "core/backend.h"
#include "core/experiment.h"
#include "core/timeline.h"
#include "model/profile.h"

/* --export FILE may be given this many times (each file is written). */
#define EXPOPTS_MAX_EXPORTS 8

/* The experiment and output options of one command line. */
struct expopts {
	struct ss_experiment exp;
	const char *backend; /* "auto", "cuda", "model" */
	bool json;
	const char *exports[EXPOPTS_MAX_EXPORTS]; /* every --export FILE, in order: each is written */
	int nexports;
	const char *counts;  /* sweep: the --streams list */
	bool both_orders;    /* sweep: --order both */
	bool ascii;          /* the TUI: ASCII glyphs only */
	const char *profile; /* the model: --profile FILE */
	const char *out;     /* -o FILE or DIR */
	bool quick;          /* bench: a smaller matrix */
	struct expfile file; /* the experiment file, read (a sweep's counts may point into it) */
};

/* expopts_parse fills o from the options in a: the preset first, wherever it was given, as it sets the defaults the
 * others change; with an experiment file (--experiment FILE, or a command's FILE argument with CMD_EXPFILE_ARG,
 * read with expfile_read: one file) the file's preset key and then its values, parsed as the command line's; then
 * the command line's options in order, each changing the file's value wherever it was written. A --preset with a
 * file is refused (the file's preset key is its base). It checks the experiment, that every --export can be
 * written (before any work) and loads --profile into the model. Returns 0, or CLI_USAGE after one line naming the
 * problem and what is valid (a file's: "FILE:LINE: ..."). */
int expopts_parse(const struct cmd_args *a, struct expopts *o);
/* expopts_reread is the experiment expopts_parse(a) made, the experiment file read again as it is now and the
 * experiment validated; nothing else is done and nothing printed. 0, or -1 with *cause, the line expopts_parse would
 * print (the caller frees). */
int expopts_reread(const struct cmd_args *a, struct ss_experiment *e, char **cause);
/* expopts_experiment is the experiment file f alone: kernel-transfer's defaults, or those of f's preset, changed by
 * its other keys as expopts_parse applies them, and the threads rule; not validated (experiment_validate). 0, or -1
 * with *cause "FILE:LINE: ..." (the caller frees). */
int expopts_experiment(const struct expfile *f, struct ss_experiment *e, char **cause);
/* expopts_number parses an integer option value (opt: its name, "--repeat") in [lo, hi], with an optional k/M/G
 * binary suffix when allow_suffix. 0, or -1 with *cause "invalid OPT 'S': valid is ..." (the caller frees). */
int expopts_number(const char *opt, const char *s, long long lo, long long hi, bool allow_suffix, long long *out,
                   char **cause);
/* expopts_backend picks the backend o names, printing the note of a fallback to the model on stderr. NULL after
 * printing why, with the exit status in *code. */
const struct ss_backend *expopts_backend(const struct expopts *o, int *code);
/* expopts_export_file writes tl to path in the format its extension names (e may be NULL). Prints one line on
 * failure and returns CLI_FAIL (CLI_USAGE for an unknown extension); 0 on success. */
int expopts_export_file(const char *path, const struct ss_timeline *tl, const struct ss_analysis *a,
                        const struct ss_experiment *e);
/* expopts_export writes tl to every --export FILE of o (as expopts_export_file, o's experiment), each one even
 * when an earlier one failed. 0 when all were written, else the first failure's code. */
int expopts_export(const struct expopts *o, const struct ss_timeline *tl, const struct ss_analysis *a);
/* expopts_export_trace is expopts_export for an opened trace: no experiment of ours produced tl. */
int expopts_export_trace(const struct expopts *o, const struct ss_timeline *tl, const struct ss_analysis *a);
/* expopts_measure_backend finds the backend calibrate and validate measure on, "cuda" (probed) or "model". NULL
 * after printing why, with the exit status in *code. */
const struct ss_backend *expopts_measure_backend(const char *name, int *code);
/* expopts_model_profile loads the model's profile: path (named in its labels by the file's name), or the default when
 * NULL. 0, or -1 after printing why. */
int expopts_model_profile(const char *path, struct ss_profile *p);

/* expopts_stored_experiment reads into e the experiment streamscope stored in the trace file (its SQLite export of
 * a run) whose timeline is tl, where it ran its preset's own work on one GPU, as the documents' claims need; false
 * otherwise (another format, a foreign or older trace, a step program, records of several GPUs). Prints nothing. */
bool expopts_stored_experiment(const char *file, const struct ss_timeline *tl, struct ss_experiment *e);
/* expopts_import opens the trace file into tl (initialised) with import_file. CLI_OK, or after one line: CLI_USAGE
 * for an experiment file (one expfile_read accepts), named as one with the commands that run it, CLI_FAIL for any
 * other file import_file refuses, with its reason. */
int expopts_import(const char *file, struct ss_timeline *tl);
/* expopts_run fills tl (initialised, empty) with the trace file (stats FILE, analyze FILE: expopts_import), or, when
 * file is NULL, with a run of o's experiment on its backend (the timeline marked modelled and given the device where
 * the run was); what gets one line saying which. 0, or an exit code after printing why. */
int expopts_run(const struct expopts *o, const char *file, struct ss_timeline *tl, char *what, size_t len);

#endif
