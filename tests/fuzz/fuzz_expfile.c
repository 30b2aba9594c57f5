/* fuzz_expfile.c: libFuzzer target for experiment files (src/cli/expfile.c through libinih, applied by expopts as
 * --experiment FILE is), fed from memory. A refused file is one line naming it ("fuzz.ini: " or "fuzz.ini:LINE: ");
 * an accepted one has its keys once each, in line order, no longer than a line's bytes; the experiment it gives either
 * breaks a rule between options (experiment_validate's, which expopts_parse applies to the file and the command line
 * together: one line) or plans: every copy, memset and step op on one of its streams (streams of every device) and
 * chunks, within its elements, a step program's ops naming its steps. A [chunk] step program has at most
 * SS_MAX_STEPS steps in line order and an interleave that experiment_program_check accepts. Chunks are capped at 4096
 * before planning (planner_build is linear in them) so an execution stays fast. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/expfile.h"
#include "cli/expopts.h"
#include "core/experiment.h"
#include "core/planner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The most chunks an accepted experiment is planned with. */
#define FUZZ_MAX_CHUNKS 4096

/* fuzz_refused aborts unless cause is one line about fuzz.ini. */
static void fuzz_refused(char *cause)
{
	if (cause == NULL || strncmp(cause, "fuzz.ini", 8) != 0 || (cause[8] != ':' && cause[8] != ' ') ||
	    strchr(cause, '\n') != NULL)
		abort();
	free(cause);
}

/* fuzz_plan aborts unless e is refused by experiment_validate in one line or plans ops that stay within its streams
 * and chunks (of every device). */
static void fuzz_plan(struct ss_experiment *e)
{
	struct ss_oplist ops;
	char *cause = NULL;
	int nstreams;

	if (experiment_validate(e, &cause) != 0) {
		/* each value was checked as the command line checks it: what is left is a rule between options */
		if (cause == NULL || strchr(cause, '\n') != NULL)
			abort();
		free(cause);
		return;
	}
	if (e->chunks > FUZZ_MAX_CHUNKS)
		e->chunks = FUZZ_MAX_CHUNKS;
	planner_build(e, &ops);
	if (ops.n == 0 || ops.nchunks < 1)
		abort();
	/* each device has e->streams streams of its own, numbered device by device */
	nstreams = e->streams * (e->devices > 1 ? e->devices : 1);
	for (size_t i = 0; i < ops.n; i++) {
		const struct ss_op *op = &ops.op[i];

		if (op->id != i + 1 || op->kind >= SS_OP_COUNT)
			abort();
		if ((op->kind == SS_OP_H2D || op->kind == SS_OP_D2H || op->kind == SS_OP_MEMSET) &&
		    (op->stream < 0 || op->stream >= nstreams || op->chunk < 0 || op->chunk >= ops.nchunks ||
		     op->offset + op->count > e->elements || op->buffer < 0 || op->buffer > 2))
			abort();
		if (op->step < -1 || op->step >= e->nsteps ||
		    (op->step >= 0 && (op->stream < 0 || op->stream >= nstreams)))
			abort();
	}
	planner_free(&ops);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_experiment e;
	struct expfile f;
	char *cause = NULL;

	if (expfile_parse("fuzz.ini", (const char *)data, size, &f, &cause) != 0) {
		fuzz_refused(cause);
		return 0;
	}
	if ((f.nentry < 1 && f.nsteps < 1) || f.nentry >= OPT_COUNT || f.nsteps > SS_MAX_STEPS || f.ninter > f.nsteps)
		abort();
	for (int i = 0; i < f.nsteps; i++)
		if (f.step[i].line < 1 || (i > 0 && f.step[i].line <= f.step[i - 1].line))
			abort();
	for (int i = 0; i < f.nentry; i++) {
		if (strlen(f.entry[i].value) > EXPFILE_LINE_BYTES || f.entry[i].line < 1 ||
		    (i > 0 && f.entry[i].line <= f.entry[i - 1].line) || expfile_find(&f, f.entry[i].id) != &f.entry[i])
			abort();
	}
	if (expopts_experiment(&f, &e, &cause) != 0) {
		/* a value's error: the command line's message after "fuzz.ini:LINE: " */
		if (cause == NULL || strncmp(cause, "fuzz.ini:", 9) != 0)
			abort();
		fuzz_refused(cause);
		return 0;
	}
	fuzz_plan(&e);
	return 0;
}
