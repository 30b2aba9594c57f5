/* cmd.h: the subcommands as data (tmux's cmd_entry): one const entry per command, listed in one table (cmd.c),
 * one option parser over them, and the help made from the same entries, so that help and behaviour cannot drift. */
#ifndef SS_CLI_CMD_H
#define SS_CLI_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/status.h"

/* Every option any command takes, each defined once in cmd.c's option table. */
enum cmd_opt {
	OPT_NONE = 0,
	/* the experiment */
	OPT_PRESET,
	OPT_EXPERIMENT,
	OPT_STREAMS,
	OPT_CHUNKS,
	OPT_ELEMENTS,
	OPT_WORK,
	OPT_KERNEL,
	OPT_BLOCK,
	OPT_GRID,
	OPT_SPLIT,
	OPT_ORDER,
	OPT_SYNC,
	OPT_DEFSTREAM,
	OPT_STREAM_FLAGS,
	OPT_HOSTMEM,
	OPT_CONNECTIONS,
	OPT_THREADS,
	OPT_REPEAT,
	OPT_WARMUP,
	OPT_PREFETCH_EVENTS,
	OPT_DEVICES,
	OPT_PEER,
	/* where it runs */
	OPT_BACKEND,
	OPT_PROFILE,
	/* output */
	OPT_JSON,
	OPT_EXPORT,
	OPT_ASCII,
	OPT_OUTPUT,
	/* one command's own */
	OPT_QUICK,
	OPT_CSV,
	OPT_CHECK,
	OPT_FIT,
	OPT_RESUME,
	OPT_LIVE,
	OPT_CHILDREN,
	OPT_TWIN,
	OPT_VERIFY,
	OPT_REFERENCE,
	OPT_ROUNDS,
	OPT_HELP,
	OPT_COUNT
};

/* Whether an option takes a value. */
enum cmd_arg {
	CMD_ARG_NONE,
	CMD_ARG_REQUIRED,
	CMD_ARG_OPTIONAL /* --name or --name=VALUE, never a separate word */
};

/* One option: its names, its value, and the help every command shows unless it has words of its own. */
struct cmd_option {
	enum cmd_opt id;
	const char *name;  /* the long name, without "--" */
	char letter;       /* the short option's letter, 0 when none */
	enum cmd_arg arg;  /* whether it takes a value */
	const char *value; /* the value's name in help ("N", "FILE"); NULL for none */
	const char *help;  /* one or more lines, without the option's name */
};

/* One option as a command takes it; value or help, when not NULL, replace the option's own for this command. */
struct cmd_use {
	enum cmd_opt id;
	const char *value;
	const char *help;
};

/* Why an option of another command does not apply to this one, where a reason helps the user. */
struct cmd_refusal {
	enum cmd_opt id; /* OPT_NONE: any option the command does not take and the list names no reason for */
	const char *why;
};

/* One option as the parser found it, in command-line order. */
struct cmd_item {
	enum cmd_opt id;
	const char *value; /* NULL when it has none */
};

/* What cmd_parse found on one command line. The strings point into argv. */
struct cmd_args {
	const struct cmd_entry *entry; /* the command */
	struct cmd_item *item;         /* the options, in order */
	int nitem;
	char **pos; /* the positional arguments, in order (argv's own array: NULL-terminated) */
	int npos;
};

/* The options of a command end at its first positional argument (record: PROGRAM's own options follow it). */
#define CMD_STOP_AT_ARG 0x1
/* Its [FILE] is an experiment file, read by expopts_parse as --experiment FILE: the options change it. */
#define CMD_EXPFILE_ARG 0x2

/* One subcommand. */
struct cmd_entry {
	const char *name;           /* "run"; "" for the default command, the TUI */
	const char *args;           /* its positional arguments in usage ("FILE", "[FILE]"); "" when none */
	int minargs, maxargs;       /* how many positionals it accepts; maxargs -1: any number */
	int flags;                  /* CMD_STOP_AT_ARG, CMD_EXPFILE_ARG */
	const char *summary;        /* one line in the command list of `streamscope --help` */
	const struct cmd_use *uses; /* its options, in help order; ends with OPT_NONE */
	const struct cmd_refusal
	    *refusals;     /* reasons for options it does not take; ends with a NULL why; may be NULL */
	const char *help;  /* text after the options in `streamscope COMMAND --help`; may be NULL */
	const char *exits; /* its exit statuses, one line; NULL: the usual 0, 1, 2, 3 */
	int (*exec)(const struct cmd_args *args); /* runs the command; returns the exit status */
};

/* The options that shape an experiment's op list, as a command's uses list them (ops, and within
 * CMD_USES_EXPERIMENT the commands that run one). The experiment options of CMD_USES_EXPERIMENT but
 * --experiment are an experiment file's keys (src/cli/expfile.c). */
#define CMD_USES_PLAN                                                                                                  \
	{OPT_PRESET, NULL, NULL}, {OPT_EXPERIMENT, NULL, NULL}, {OPT_STREAMS, NULL, NULL}, {OPT_CHUNKS, NULL, NULL},   \
	    {OPT_ELEMENTS, NULL, NULL}, {OPT_WORK, NULL, NULL}, {OPT_KERNEL, NULL, NULL}, {OPT_BLOCK, NULL, NULL},     \
	    {OPT_GRID, NULL, NULL}, {OPT_SPLIT, NULL, NULL}, {OPT_ORDER, NULL, NULL}, {OPT_SYNC, NULL, NULL},          \
	    {OPT_DEFSTREAM, NULL, NULL}, {OPT_STREAM_FLAGS, NULL, NULL}, {OPT_HOSTMEM, NULL, NULL},                    \
	    {OPT_CONNECTIONS, NULL, NULL}, {OPT_THREADS, NULL, NULL}, {OPT_PREFETCH_EVENTS, NULL, NULL},               \
	    {OPT_DEVICES, NULL, NULL},                                                                                 \
	{                                                                                                              \
		OPT_PEER, NULL, NULL                                                                                   \
	}

/* The experiment options: the op list's, and how often it runs (the TUI, run, sweep, stats). */
#define CMD_USES_EXPERIMENT                                                                                            \
	CMD_USES_PLAN, {OPT_REPEAT, NULL, NULL},                                                                       \
	{                                                                                                              \
		OPT_WARMUP, NULL, NULL                                                                                 \
	}

/* The experiment options, in a command's refusals, all refused for the one reason why. */
#define CMD_REFUSE_EXPERIMENT(why)                                                                                     \
	{OPT_PRESET, why}, {OPT_EXPERIMENT, why}, {OPT_STREAMS, why}, {OPT_CHUNKS, why}, {OPT_ELEMENTS, why},          \
	    {OPT_WORK, why}, {OPT_KERNEL, why}, {OPT_BLOCK, why}, {OPT_GRID, why}, {OPT_SPLIT, why}, {OPT_ORDER, why}, \
	    {OPT_SYNC, why}, {OPT_DEFSTREAM, why}, {OPT_STREAM_FLAGS, why}, {OPT_HOSTMEM, why},                        \
	    {OPT_CONNECTIONS, why}, {OPT_THREADS, why}, {OPT_REPEAT, why}, {OPT_WARMUP, why},                          \
	    {OPT_PREFETCH_EVENTS, why}, {OPT_DEVICES, why},                                                            \
	{                                                                                                              \
		OPT_PEER, why                                                                                          \
	}

/* The help of a command whose [FILE] is an experiment file (run, sweep, ops, advise), followed by an example of
 * that command's. */
#define CMD_HELP_EXPFILE                                                                                               \
	"FILE is an experiment file, as --experiment FILE: the options change its values, written before\n"            \
	"or after it "

/* The commands, each defined in its own file (cmd_<name>.c). */
extern const struct cmd_entry cmd_tui_entry, cmd_run_entry, cmd_sweep_entry, cmd_claims_entry, cmd_ops_entry,
    cmd_view_entry, cmd_stats_entry, cmd_analyze_entry, cmd_calibrate_entry, cmd_validate_entry, cmd_bench_entry,
    cmd_record_entry, cmd_keys_entry, cmd_advise_entry;

/* cmd_main runs the program: finds the command argv[1] names (none, or an option first: the TUI), parses its
 * options and runs it. --help, -h and `help [COMMAND]` print the help made from the table; --version the version.
 * Returns the exit status. */
int cmd_main(int argc, char **argv);

/* cmd_has reports whether option id was given, and its last value in *value (may be NULL). */
bool cmd_has(const struct cmd_args *a, enum cmd_opt id, const char **value);
/* cmd_option_name returns the option's long name as a user types it: "--streams". */
const char *cmd_option_name(enum cmd_opt id);

/* cmd_error prints "streamscope: <message>" as one line on stderr and returns code (for `return cmd_error(...)`). */
int cmd_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
