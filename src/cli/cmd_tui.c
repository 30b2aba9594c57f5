/* cmd_tui.c: the interactive commands: the TUI on an experiment (no command) and `view FILE`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/expopts.h"
#include "io/export/export.h"
#include "tui/tui.h"

/* cmd_tui_check_terminal: the TUI needs a terminal on both ends; says so instead of drawing into a pipe. */
static int cmd_tui_check_terminal(void)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return cmd_error(CLI_USAGE, "the interactive timeline needs a terminal (stdin and stdout); for scripts "
		                            "use 'streamscope run' or 'streamscope sweep'");
	return CLI_OK;
}

/* cmd_tui_reread is the TUI's R: ctx, the command's arguments, read again with the experiment file as it is now. */
static int cmd_tui_reread(void *ctx, struct ss_experiment *e, char **cause)
{
	return expopts_reread(ctx, e, cause);
}

/* cmd_tui_exec opens the TUI on the experiment the options describe, read first from the experiment file FILE
 * when one is given. */
static int cmd_tui_exec(const struct cmd_args *args)
{
	struct expopts o;
	struct tui_options t;
	int rc;

	if ((rc = expopts_parse(args, &o)) != 0)
		return rc;
	if ((rc = cmd_tui_check_terminal()) != 0)
		return rc;
	memset(&t, 0, sizeof t);
	if ((t.backend = expopts_backend(&o, &rc)) == NULL)
		return rc;
	t.exp = o.exp;
	t.expfile = o.file.path;
	t.reread = cmd_tui_reread;
	t.reread_ctx = (void *)args;
	t.ascii = o.ascii;
	return tui_main(&t);
}

/* cmd_view_exec opens the trace FILE in the TUI, or converts it with --export. */
static int cmd_view_exec(const struct cmd_args *args)
{
	struct expopts o;
	struct tui_options t;
	struct ss_timeline tl;
	struct ss_experiment stored;
	const char *file = args->pos[0];
	int rc;

	if ((rc = expopts_parse(args, &o)) != 0)
		return rc;
	if (o.nexports > 0 && o.ascii)
		return cmd_error(CLI_USAGE, "option '--ascii' does not apply to 'view' with --export: it converts the "
		                            "trace without opening the TUI");
	timeline_init(&tl);
	if ((rc = expopts_import(file, &tl)) != CLI_OK) {
		timeline_free(&tl);
		return rc;
	}
	if (o.nexports > 0) {
		/* view FILE --export OUT converts without opening the TUI. */
		struct ss_analysis a;

		analysis_timeline(&tl, &a);
		rc = expopts_export_trace(&o, &tl, &a);
		timeline_free(&tl);
		return rc;
	}
	if ((rc = cmd_tui_check_terminal()) != 0) {
		timeline_free(&tl);
		return rc;
	}
	memset(&t, 0, sizeof t);
	t.file = &tl;
	t.ascii = o.ascii;
	if (expopts_stored_experiment(file, &tl, &stored))
		t.file_exp = &stored;
	rc = tui_main(&t);
	timeline_free(&tl);
	return rc;
}

static const struct cmd_use cmd_tui_uses[] = {
    CMD_USES_EXPERIMENT,     {OPT_BACKEND, NULL, NULL}, {OPT_PROFILE, NULL, NULL},
    {OPT_ASCII, NULL, NULL}, {OPT_NONE, NULL, NULL},
};

const struct cmd_entry cmd_tui_entry = {
    .name = "",
    .args = "[FILE]",
    .maxargs = 1,
    .flags = CMD_EXPFILE_ARG,
    .summary = "streamscope shows what CUDA streams really do: with no command it opens the interactive timeline\n"
               "(a Gantt of copies and kernels per stream) on the experiment the options describe; keys change\n"
               "the experiment and run it again (streamscope keys lists them).",
    .uses = cmd_tui_uses,
    .help = CMD_HELP_EXPFILE "(streamscope examples/decrypt.ini --streams 8). A trace opens the same way:\n"
                             "streamscope trace.sqlite is streamscope view trace.sqlite.",
    .exec = cmd_tui_exec,
};

static const struct cmd_use cmd_view_uses[] = {
    {OPT_EXPORT, NULL,
     "convert the trace to FILE instead of opening it, in the format the extension names:\n" SS_EXPORT_EXTENSIONS_HELP
     "; give it again for more files"},
    {OPT_ASCII, NULL, NULL},
    {OPT_NONE, NULL, NULL},
};

static const struct cmd_refusal cmd_view_refusals[] = {
    CMD_REFUSE_EXPERIMENT("a trace's experiment is the one it recorded"),
    {OPT_NONE, "view takes --export FILE (convert) or --ascii (the TUI)"},
    {OPT_NONE, NULL},
};

const struct cmd_entry cmd_view_entry = {
    .name = "view",
    .args = "FILE",
    .minargs = 1,
    .maxargs = 1,
    .summary = "open a trace (streamscope SQLite or JSON, an Nsight Systems SQLite export) in the TUI",
    .uses = cmd_view_uses,
    .refusals = cmd_view_refusals,
    .help = "The format is found from the file's content, never its name. --export converts it without a\n"
            "terminal: view trace.sqlite --export trace.json.",
    .exits = "0 ok, 1 the file cannot be read or an export failed, 2 usage error",
    .exec = cmd_view_exec,
};
