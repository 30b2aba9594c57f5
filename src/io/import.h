/* import.h: opening trace files (streamscope's SQLite, Nsight Systems SQLite exports, Chrome trace JSON) into a
 * timeline. The format is sniffed from the content, never from the extension; files are opened read-only. */
#ifndef SS_IMPORT_H
#define SS_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "timeline.h"

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

#endif
