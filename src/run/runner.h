/* runner.h: runs a backend's experiment in a child process (a fresh CUDA context per run, so
 * CUDA_DEVICE_MAX_CONNECTIONS takes effect) and streams its records back over a pipe. */
#ifndef SS_RUN_RUNNER_H
#define SS_RUN_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/backend.h"
#include "core/timeline.h"
#include "core/wire.h"

/* A run in progress. */
struct ss_runner {
	pid_t pid;          /* child, -1 when none */
	int fd;             /* read end of the pipe, -1 when closed */
	unsigned char *buf; /* partial message bytes */
	size_t len, cap;
	bool finished;               /* the child sent its result or error and exited */
	int code;                    /* 0 ok; 2 usage; 3 CUDA/CUPTI failure or crash */
	char *error;                 /* one line when code != 0 */
	char progress[128];          /* latest progress line */
	char label[64];              /* the run, for SS_VERBOSE's lines: its preset and stream count (runner_start) */
	struct ss_run_result res;    /* valid when finished and code == 0 */
	int status;                  /* the child's wait status once reaped */
	bool own_streams;            /* set by runner_attach: WIRE_STREAM frames name the sender's own stream indices
	                                (the caller maps them), so they are kept in streams[], not applied to tl */
	struct wire_stream *streams; /* own_streams: the frames since the caller last set nstreams to 0 */
	size_t nstreams, streams_cap;
};

/* runner_attach reads the wire stream of an already started process pid (its write end elsewhere) from fd; its
 * WIRE_STREAM frames are collected in r->streams (own_streams). */
void runner_attach(struct ss_runner *r, pid_t pid, int fd);

/* runner_start forks a child running b on e. Returns 0, or -1 with *cause. */
int runner_start(struct ss_runner *r, const struct ss_backend *b, const struct ss_experiment *e, char **cause);
/* runner_poll moves what the child has sent into tl (records) and r (progress, result, error): without block at
 * most about 8 MiB per call (call again; a UI stays responsive), with block everything until the child has
 * finished. Returns 1 when finished (see r->code), 0 while running. */
int runner_poll(struct ss_runner *r, struct ss_timeline *tl, bool block);
/* runner_cancel kills a running child and reaps it. */
void runner_cancel(struct ss_runner *r);
/* runner_free releases r (cancelling a running child). */
void runner_free(struct ss_runner *r);
/* runner_result_apply gives tl what res says of the run besides its records: modelled, dropped, the device's name
 * and its copy engines. */
void runner_result_apply(struct ss_timeline *tl, const struct ss_run_result *res);
/* runner_run runs b on e to completion: fills tl (rebased, sorted) and res. Returns 0, or the exit code (2, 3)
 * with *cause. */
int runner_run(const struct ss_backend *b, const struct ss_experiment *e, struct ss_timeline *tl,
               struct ss_run_result *res, char **cause);
/* runner_makespan runs b on e (valid) in this process, keeping no records (a backend that can run so: the model):
 * its makespan, the untraced one where b measured one; *nchunks (nchunks may be NULL) gets the op list's chunks.
 * 0 with *cause on failure. */
uint64_t runner_makespan(const struct ss_backend *b, const struct ss_experiment *e, int *nchunks, char **cause);
/* runner_probe asks b->available in a child (CUDA never initialised in this process). 0 when available. */
int runner_probe(const struct ss_backend *b, char *device, size_t len, char **cause);

#endif
