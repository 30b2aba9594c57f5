/* expfile.h: experiment files (`--experiment FILE`, `streamscope run FILE`): an INI file read with libinih into its
 * [experiment] keys, each with its line. The keys are the long names of the experiment options (cmd.h's
 * CMD_USES_EXPERIMENT but --experiment itself) and their values are the command line's, which expopts parses with
 * the command line's own parsers; this module checks everything else: the file, its lines, sections and keys. */
#ifndef SS_CLI_EXPFILE_H
#define SS_CLI_EXPFILE_H

#include <stddef.h>

#include "cli/cmd.h"
#include "core/experiment.h"

/* The longest line an experiment file may have, in characters without its line end: UTF-8 code points (a Chinese
 * comment of 160 characters fits), each byte that is not UTF-8 one character. */
#define EXPFILE_LINE_MAX 160
/* The most bytes such a line has (4 a code point). */
#define EXPFILE_LINE_BYTES (4 * EXPFILE_LINE_MAX)
/* The largest experiment file read, in bytes. */
#define EXPFILE_SIZE_MAX (1 << 20)

/* One key = value line of [experiment]. */
struct expfile_entry {
	enum cmd_opt id; /* the option the key names */
	int line;        /* 1-based */
	char value[EXPFILE_LINE_BYTES + 1];
};

/* An experiment file as read: its [experiment] keys in file order, each at most once, and its [chunk] step
 * program (checked on its own: experiment_program_check). */
struct expfile {
	const char *path; /* as messages name it (not copied) */
	struct expfile_entry entry[OPT_COUNT];
	int nentry;
	struct ss_step step[SS_MAX_STEPS]; /* [chunk]'s step lines in order, each with its line */
	int nsteps;
	struct ss_inter inter[SS_MAX_INTERLEAVE]; /* [chunk]'s interleave, ninter 0 when none */
	int ninter;
	int inter_line; /* the interleave's line, 0 when none */
};

/* expfile_read reads the experiment file path into f (f->path is path, which must outlive f). 0, or -1 with
 * *cause (the caller frees) one line naming the file and, where there is one, the line: "FILE:LINE: what, and what
 * is valid": a file that cannot be read (with the errno text), larger than EXPFILE_SIZE_MAX, a NUL byte, a line
 * longer than EXPFILE_LINE_MAX, a syntax error, an unknown section, text after a section header (but a comment), a
 * key outside [experiment], an unknown key (with the valid ones), a key given twice, a file without [experiment] or
 * an [experiment] without keys; in [chunk], a step or interleave that does not parse or check
 * (experiment_program_check), more than SS_MAX_STEPS steps, a [chunk] without steps, a trace (an SQLite database or
 * JSON: "open a trace with 'streamscope view FILE'"). A file may have a [chunk] and an empty [experiment]. */
int expfile_read(const char *path, struct expfile *f, char **cause);
/* expfile_parse is expfile_read of the len bytes at text (no NUL needed), named path in messages. */
int expfile_parse(const char *path, const char *text, size_t len, struct expfile *f, char **cause);
/* expfile_find returns f's entry for option id, NULL when the file does not set it. */
const struct expfile_entry *expfile_find(const struct expfile *f, enum cmd_opt id);

#endif
