/* cli_tui.c: the interactive commands: the TUI on an experiment (no command) and `view FILE`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/backends.h"
#include "cli/cli.h"
#include "cli/cli_export.h"
#include "io/import/import.h"
#include "tui/tui.h"

/* The TUI needs a terminal on both ends; say so instead of drawing into a pipe. */
static int cli_tui_check_terminal(void)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "streamscope: the interactive timeline needs a terminal (stdin and stdout); "
		                "for scripts use 'streamscope run' or 'streamscope sweep'\n");
		return CLI_USAGE;
	}
	return CLI_OK;
}

int cli_tui(int argc, char **argv)
{
	struct cli_opts o;
	struct tui_options t;
	char note[BACKENDS_NOTE_MAX];
	char *cause = NULL;
	int rc;

	if ((rc = cli_parse("tui", argc, argv, &o)) != 0)
		return rc;
	if ((rc = cli_tui_check_terminal()) != 0)
		return rc;
	memset(&t, 0, sizeof t);
	t.backend = backends_pick(o.backend, note, sizeof note, &rc, &cause);
	if (t.backend == NULL) {
		fprintf(stderr, "streamscope: %s\n", cause);
		free(cause);
		return rc;
	}
	t.exp = o.exp;
	t.ascii = o.ascii;
	return tui_main(&t);
}

int cli_view(int argc, char **argv)
{
	struct cli_opts o;
	struct tui_options t;
	struct ss_timeline tl;
	char *cause = NULL;
	int rc;

	if ((rc = cli_parse("view", argc, argv, &o)) != 0)
		return rc;
	if (o.file == NULL) {
		fprintf(stderr, "streamscope: view needs a file: streamscope view FILE (.sqlite, .json, Nsight Systems "
		                "SQLite export)\n");
		return CLI_USAGE;
	}
	timeline_init(&tl);
	if (import_file(o.file, &tl, &cause) != 0) {
		fprintf(stderr, "streamscope: %s\n", cause);
		free(cause);
		timeline_free(&tl);
		return CLI_FAIL;
	}
	if (o.export_path != NULL) {
		/* view FILE --export OUT converts without opening the TUI. */
		struct ss_analysis a;

		analysis_timeline(&tl, &a);
		rc = cli_export_all(o.exports, o.nexports, &tl, &a, NULL);
		timeline_free(&tl);
		return rc;
	}
	if ((rc = cli_tui_check_terminal()) != 0) {
		timeline_free(&tl);
		return rc;
	}
	memset(&t, 0, sizeof t);
	t.file = &tl;
	t.ascii = o.ascii;
	rc = tui_main(&t);
	timeline_free(&tl);
	return rc;
}
