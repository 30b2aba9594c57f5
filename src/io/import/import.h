/* import.h: opening trace files (streamscope's SQLite, Nsight Systems SQLite exports, Chrome trace JSON) into a
 * timeline. The format is sniffed from the content, never from the extension; files are opened read-only. */
#ifndef SS_IMPORT_H
#define SS_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "core/timeline.h"

/* More records than this is refused as hostile (48 bytes each: 4.8 GB). */
#define SS_IMPORT_MAX_RECORDS 100000000u
/* Streams beyond this many distinct ids in a foreign trace share SS_STREAM_UNKNOWN; no file may claim more. */
#define SS_IMPORT_MAX_STREAMS 1024
/* A record whose stream index import_finish assigns from raw_stream, in order of first appearance. */
#define SS_STREAM_PENDING INT32_MIN

/* import_file opens path into t (initialised by the caller; cleared first). On success t is sorted, its labels
 * say backend "file" and source path, and 0 is returned. On failure -1 with *cause: one line naming the file
 * and the problem; t is left empty. */
int import_file(const char *path, struct ss_timeline *t, char **cause);

/* For the importers. */
/* import_begin clears t and its labels. */
void import_begin(struct ss_timeline *t);
/* import_reserve makes room for n more records at once (so the array is not doubled past what it needs). */
void import_reserve(struct ss_timeline *t, size_t n);
/* import_finish sorts t, gives SS_STREAM_PENDING records stream indices by first appearance of their raw
 * stream, derives nstreams, trims the record array to its size and sets backend "file" and source. */
void import_finish(struct ss_timeline *t, const char *path);
/* import_oneline makes a cause one printable line: control characters (a newline quoted from the input by a
 * parser's message, or in a file name) become spaces. Returns -1, for "return import_oneline(*cause);". */
int import_oneline(char *cause);
/* import_strip_version turns "cudaMemcpyAsync_v3020" into "cudaMemcpyAsync" in place. */
void import_strip_version(char *name);

/* import_read reads the whole regular file at path into *buf (malloc'd, with a NUL after its *len bytes; the caller
 * frees it), read rather than mapped: a file that shrinks under a mapping kills the reader with SIGBUS. A file
 * that changes while it is read (another size than when opened, or a newer modification time after) is -1 with
 * *cause "path: changed while it was read ..."; other failures -1 with *cause naming path. */
int import_read(const char *path, char **buf, size_t *len, char **cause);
/* import_unchanged checks that fd, the file at path that fstat described as st when it was opened, still has that
 * size and modification time: 0, else -1 with *cause as import_read's. */
int import_unchanged(int fd, const char *path, const struct stat *st, char **cause);

/* For tests: a function the importers call once a file is open, before its content is read (a test shrinks or
 * rewrites the file there, to see the change reported). */
typedef void import_hook_fn(const char *path);
/* import_set_hook sets it (NULL: none, the default). */
void import_set_hook(import_hook_fn *fn);
/* import_opened calls it, for an importer that has just opened path. */
void import_opened(const char *path);

#endif
