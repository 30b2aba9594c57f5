/* atomic.h: files and directories written under a temporary name and renamed into place, so a failed export
 * never leaves half a file behind. */
#ifndef SS_CORE_ATOMIC_H
#define SS_CORE_ATOMIC_H

#include <stddef.h>
#include <stdio.h>

/* A file being written under a temporary name in the directory of its final path. */
struct atomic_file {
	char *path;  /* final path: the caller's, or the file its symbolic links lead to */
	char *shown; /* the path as the caller named it, for errors */
	char *tmp;   /* temporary path, same directory (so rename is atomic) */
	int fd;      /* open on tmp; -1 once closed */
	FILE *fp;    /* buffered stream over fd */
	int slot;    /* tmp's sigexit slot: a signal that ends the process removes it; -1 when none */
};

/* atomic_check says, before any work, whether atomic_open could write path: it is not a directory nor another
 * non-regular file, an existing file is writable by the user (a read-only one is refused, never replaced), and the
 * directory that will hold it exists and can take a new file (tried with a file created and removed at once, which
 * sees read-only mounts and a removed directory); a symbolic link is judged by its target (and the target's
 * directory). Returns 0, or -1 with *cause naming path and what is wrong (a file of another user's names both
 * users). Nothing is left behind. */
int atomic_check(const char *path, char **cause);
/* atomic_open creates the temporary file for path and opens af->fp on it (writers that need a path, like
 * SQLite, may open af->tmp themselves and leave af->fp unused). A symbolic link at path is followed: the temporary
 * file goes next to its target, which the commit replaces (the link stays a link). An existing file's mode (and
 * group, where the user may set it) carry over to the replacement; a new one gets 0666 less the umask. It refuses
 * what atomic_check refuses. Returns 0, or -1 with *cause naming path and the reason; af then holds nothing. */
int atomic_open(struct atomic_file *af, const char *path, char **cause);
/* atomic_commit flushes, fsyncs and closes the temporary file and renames it over af->path. On any failure the
 * temporary file is removed and -1 returned with *cause. af is released either way. */
int atomic_commit(struct atomic_file *af, char **cause);
/* atomic_abort closes and removes the temporary file and releases af. Safe on a released af. */
void atomic_abort(struct atomic_file *af);
/* atomic_write_text writes the string text to path atomically. 0 or -1 with *cause. */
int atomic_write_text(const char *path, const char *text, char **cause);

/* A directory being filled under a temporary name in its parent. */
struct atomic_dir {
	char *parent; /* parent directory */
	char *tmp;    /* temporary directory path */
};

/* atomic_dir_open creates a private temporary directory in parent. 0, or -1 with *cause. */
int atomic_dir_open(struct atomic_dir *ad, const char *parent, char **cause);
/* atomic_dir_commit renames the temporary directory to parent/name, never replacing an existing entry (a
 * "-2", "-3", ... suffix is added instead), and writes the final path to out. On failure the directory and
 * its files are removed and -1 returned with *cause. ad is released either way. */
int atomic_dir_commit(struct atomic_dir *ad, const char *name, char *out, size_t out_len, char **cause);
/* atomic_dir_abort removes the temporary directory with the files in it and releases ad. */
void atomic_dir_abort(struct atomic_dir *ad);

#endif
