/* cli.h: the command line: subcommands, experiment options, summaries. */
#ifndef SS_CLI_CLI_H
#define SS_CLI_CLI_H

#include <stdbool.h>

#include "cli/status.h"
#include "core/experiment.h"
#include "model/profile.h"

struct option;

/* --export FILE may be given this many times (each file is written). */
#define CLI_MAX_EXPORTS 8

/* Options common to the experiment commands (run, sweep, ops, the TUI). */
struct cli_opts {
	struct ss_experiment exp;
	const char *backend; /* "auto", "cuda", "model" */
	bool json;
	const char *export_path;              /* the first --export FILE (NULL: none) */
	const char *exports[CLI_MAX_EXPORTS]; /* every --export FILE, in order: each is written */
	int nexports;
	const char *counts;  /* sweep: --streams list */
	bool both_orders;    /* sweep: --order both */
	bool ascii;          /* TUI: force ASCII glyphs */
	const char *profile; /* model: --profile FILE */
	const char *out;     /* -o FILE (calibrate, bench) */
	bool quick;          /* validate/bench: a smaller matrix */
	const char *file;    /* view: the trace to open */
};

/* cli_error prints "streamscope: <message>" as one line on stderr and returns code (for `return cli_error(...)`). */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* cli_getopt_error prints the one line for getopt_long's error c ('?' or ':') in the options of cmd, in getopt's
 * words ("unknown option '-x'", "option '--json' takes no value", "option '--streams' needs a value", an
 * ambiguous abbreviation with its candidates) and returns CLI_USAGE. longopts is the table getopt_long had. */
int cli_getopt_error(const char *cmd, int c, char **argv, const struct option *longopts);
/* cli_profile_load reads the model profile of --profile path into p, labelled by the file's name (p->name), for
 * the model's results. A file that cannot be read, does not parse or is empty is a usage error: one line naming
 * the file and what is wrong, CLI_USAGE. 0 on success. */
int cli_profile_load(const char *path, struct ss_profile *p);
/* cli_main runs the program; returns the exit status. */
int cli_main(int argc, char **argv);
/* cli_parse parses experiment options of cmd ("run", "sweep", "ops", "tui", ...) from argv[optind..]. Returns 0, or
 * CLI_USAGE after printing one line to stderr. Unknown positional arguments are errors. */
int cli_parse(const char *cmd, int argc, char **argv, struct cli_opts *o);

#endif
