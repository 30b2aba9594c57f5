/* cli.h: the command line: subcommands, experiment options, summaries. */
#ifndef SS_CLI_H
#define SS_CLI_H

#include <stdbool.h>

#include "engine/experiment.h"

/* Exit codes. */
#define CLI_OK 0
#define CLI_FAIL 1  /* a check or export failed */
#define CLI_USAGE 2 /* invalid command line */
#define CLI_CUDA 3  /* CUDA/CUPTI failure, no device */

/* Options common to the experiment commands (run, sweep, ops, the TUI). */
struct cli_opts {
	struct ss_experiment exp;
	const char *backend;     /* "auto", "cuda", "model" */
	bool json;
	const char *export_path; /* --export FILE */
	const char *counts;      /* sweep: --streams list */
	bool both_orders;        /* sweep: --order both */
	bool ascii;              /* TUI: force ASCII glyphs */
	const char *profile;     /* model: --profile FILE */
	const char *out;         /* -o FILE (calibrate, bench) */
	bool quick;              /* validate/bench: a smaller matrix */
	const char *file;        /* view: the trace to open */
};

/* cli_error prints "streamscope: <message>" as one line on stderr and returns code (for `return cli_error(...)`). */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* cli_main runs the program; returns the exit status. */
int cli_main(int argc, char **argv);
/* cli_parse parses experiment options of cmd ("run", "sweep", "ops", "tui", ...) from argv[optind..]. Returns 0, or
 * CLI_USAGE after printing one line to stderr. Unknown positional arguments are errors. */
int cli_parse(const char *cmd, int argc, char **argv, struct cli_opts *o);

#endif
