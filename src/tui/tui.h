/* tui.h: the interactive terminal UI: a live Gantt of the experiment's H2D / KER / D2H per stream, driven by keys. */
#ifndef SS_TUI_TUI_H
#define SS_TUI_TUI_H

#include <stdbool.h>

#include "core/backend.h"
#include "core/experiment.h"
#include "core/timeline.h"

/* What the CLI asks of the TUI. */
struct tui_options {
	const struct ss_backend *backend; /* runs exp; may be NULL in view mode */
	struct ss_experiment exp;         /* the first experiment run (ignored in view mode) */
	const struct ss_timeline *file;   /* non-NULL: view mode for an opened trace (toggles disabled, the header
	                                     names file->source) */
	const struct ss_experiment
	    *file_exp;       /* view mode: the experiment the trace's own file says it ran, its preset's
	                        own work on one GPU (the documents' claims judge its run); NULL: none */
	const char *expfile; /* the experiment file exp was read from, named in the header; NULL: none */
	/* reread (with expfile): reads expfile again into *e as the command line made exp, validated; 0, or -1 with
	 * *cause, one line the status line shows (the TUI frees it). Must not print: the terminal is the TUI's. */
	int (*reread)(void *ctx, struct ss_experiment *e, char **cause);
	void *reread_ctx;
	bool ascii;             /* force ASCII glyphs */
	const char *export_dir; /* where `e` writes snapshots; NULL: the current directory */
};

/* tui_main runs the UI until q, SIGINT or SIGTERM and returns the process exit code: 0 after q, 128 + the signal
 * after a signal, 1 when the terminal cannot be used (the cause printed on stderr). The terminal is restored on
 * every path, including fatal errors (xalloc's hook). */
int tui_main(const struct tui_options *o);

#endif
