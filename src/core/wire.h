/* wire.h: the message stream a capturing process writes and a viewer reads (runner children, the injection
 * library of `streamscope record`): {uint32 type, uint32 length, payload} frames. */
#ifndef SS_CORE_WIRE_H
#define SS_CORE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/backend.h"
#include "core/record.h"

/* A frame's type: what its payload is. A reader ignores types it does not know (their length skips them). */
enum wire_type {
	WIRE_RECORD = 1,   /* struct ss_record, then the name bytes */
	WIRE_PROGRESS = 2, /* text */
	WIRE_RESULT = 3,   /* struct ss_run_result: the capture ended normally */
	WIRE_ERROR = 4,    /* int32 exit code, then text */
	WIRE_STREAM = 5,   /* struct wire_stream: what one stream index is */
	WIRE_LAUNCH =
	    6, /* struct ss_launch: a kernel's launch details (its record comes before it), then its full name */
	WIRE_DEVICE = 7, /* struct wire_device: what one device is (its records carry its index) */
};

/* The payload of WIRE_DEVICE: empty strings and a 0 context leave what the reader knows. */
struct wire_device {
	int32_t index;        /* the records' device (CUPTI deviceId) */
	uint32_t context;     /* its CUDA context (CUPTI contextId), 0 when not known */
	int32_t copy_engines; /* its copy engines, 0 when not known */
	char name[96];
	char uuid[48];
};

/* The payload of WIRE_STREAM. */
struct wire_stream {
	int32_t index;   /* stream index 0..n-1 */
	uint32_t raw_id; /* the backend's own id (CUPTI streamId) */
	uint32_t kind;   /* enum ss_stream_kind */
};

/* The writing side: a buffered stream on a pipe or socket. */
struct wire_writer {
	FILE *out;
	bool broken; /* a write failed (the reader went away); later writes are dropped */
};

/* wire_open wraps fd for writing; -1 if fdopen fails. */
int wire_open(struct wire_writer *w, int fd);
/* wire_record writes one record with its name (NULL = none). */
void wire_record(struct wire_writer *w, const struct ss_record *r, const char *name);
/* wire_stream writes what stream index is (raw id, enum ss_stream_kind). */
void wire_stream(struct wire_writer *w, int index, uint32_t raw_id, int kind);
/* wire_device writes what device index is: name and uuid (NULL or "": not known), its context and its copy engines
 * (0: not known). */
void wire_device(struct wire_writer *w, int index, const char *name, const char *uuid, uint32_t context,
                 int copy_engines);
/* wire_launch writes a kernel's launch details and its full (demangled) name (NULL: none; l->full_name, an id of
 * the writer's, is not sent). */
void wire_launch(struct wire_writer *w, const struct ss_launch *l, const char *full_name);
/* wire_progress writes a progress line and flushes. */
void wire_progress(struct wire_writer *w, const char *msg);
/* wire_result writes the final result and flushes. */
void wire_result(struct wire_writer *w, const struct ss_run_result *res);
/* wire_error writes an error with the exit code it implies and flushes. */
void wire_error(struct wire_writer *w, int code, const char *msg);
void wire_flush(struct wire_writer *w);
void wire_close(struct wire_writer *w);

#endif
