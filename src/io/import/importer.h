/* importer.h: what every importer shares: the limits on hostile files, building the timeline (begin, reserve,
 * finish), reading a file that may change under it, and one-line causes. */
#ifndef SS_IO_IMPORT_IMPORTER_H
#define SS_IO_IMPORT_IMPORTER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "core/timeline.h"

/* More records than this is refused as hostile (48 bytes each: 4.8 GB). */
#define SS_IMPORT_MAX_RECORDS 100000000u
/* Streams beyond this many distinct ids in a foreign trace share SS_STREAM_UNKNOWN; no file may claim more. */
#define SS_IMPORT_MAX_STREAMS 1024
/* The latest time an importer accepts, in ns, and so the longest duration: 2^62 ns, about 146 years. No real trace
 * comes near it (CUPTI's clock counts ns since 1970: 2^62 is in 2116). Every record an importer produces has
 * 0 <= start <= end <= SS_IMPORT_MAX_NS, so that end - start and start + a duration stay within int64, and the sum
 * of two times within uint64; a file that holds a time past it is refused, not clamped. */
#define SS_IMPORT_MAX_NS (UINT64_C(1) << 62)
/* SS_IMPORT_MAX_NS as the messages spell what is valid: in ns, and in us (Chrome JSON's unit). */
#define SS_IMPORT_MAX_NS_TEXT "4611686018427387904 ns"
#define SS_IMPORT_MAX_US_TEXT "4611686018427387.904 us"
/* The most the durations (end - start) of all of a trace's records may add up to: 2^63 - 1 ns, about 292 years, so
 * that a total over any of them (per kernel name, per kind, per device...) fits int64 and uint64. Four records of
 * 2^62 ns would pass 2^64; a real trace is nowhere near (a day's trace would need over 100,000 lanes busy all day). */
#define SS_IMPORT_MAX_TOTAL_NS ((uint64_t)INT64_MAX)
/* What a refusal for passing it says is valid. */
#define SS_IMPORT_MAX_TOTAL_TEXT                                                                                       \
	"valid: the durations end - start of a trace's records add up to at most 9223372036854775807 ns, 2^63 - 1, "   \
	"about 292 years"
/* A record whose stream index import_finish assigns from raw_stream, in order of first appearance. */
#define SS_STREAM_PENDING INT32_MIN

/* importer_begin clears t and its labels. */
void importer_begin(struct ss_timeline *t);
/* importer_reserve makes room for n more records at once (so the array is not doubled past what it needs). */
void importer_reserve(struct ss_timeline *t, size_t n);
/* importer_finish sorts t (its launch table too), gives SS_STREAM_PENDING records stream indices by first appearance of
 * their raw stream, derives nstreams, trims the record array to its size and sets backend "file" and source. */
void importer_finish(struct ss_timeline *t, const char *path);
/* importer_oneline makes a cause (NULL: none) one printable line in place, as text_printable shows text: each
 * control character (C0 such as a newline quoted from the input by a parser's message or in a file name, DEL, C1
 * whether a raw byte such as 0x9b or UTF-8 encoded) and each byte that is not valid UTF-8 becomes one '?'; valid
 * UTF-8 of printable characters is kept. Returns -1, for "return importer_oneline(*cause);". */
int importer_oneline(char *cause);
/* importer_strip_version turns "cudaMemcpyAsync_v3020" into "cudaMemcpyAsync" in place. */
void importer_strip_version(char *name);

/* importer_read reads the whole regular file at path into *buf (malloc'd, with a NUL after its *len bytes; the caller
 * frees it), read rather than mapped: a file that shrinks under a mapping kills the reader with SIGBUS. A file
 * that changes while it is read (another size than when opened, or a newer modification time after) is -1 with
 * *cause "path: changed while it was read ..."; other failures -1 with *cause naming path. */
int importer_read(const char *path, char **buf, size_t *len, char **cause);
/* importer_unchanged checks that fd, the file at path that fstat described as st when it was opened, still has that
 * size and modification time: 0, else -1 with *cause as importer_read's. */
int importer_unchanged(int fd, const char *path, const struct stat *st, char **cause);

/* For tests: a function the importers call once a file is open, before its content is read (a test shrinks or
 * rewrites the file there, to see the change reported). */
typedef void importer_hook_fn(const char *path);
/* importer_set_hook sets it (NULL: none, the default). */
void importer_set_hook(importer_hook_fn *fn);
/* importer_opened calls it, for an importer that has just opened path. */
void importer_opened(const char *path);

/* importer_read_fd reads up to n bytes of fd into buf, fewer only at the end of the file. The count, or -1 with
 * errno. */
ssize_t importer_read_fd(int fd, unsigned char *buf, size_t n);

#endif
