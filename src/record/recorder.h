/* recorder.h: recording any CUDA program: run it with the CUPTI injection library (contract.h), take what every
 * recorded process streams back (the wire format) into one timeline, pass job control on as a shell would, and end
 * with the timeline complete or marked incomplete. `streamscope record` (cli/cmd_record.c) writes and summarises
 * it. Status notes (a stopped program, children still recording, a failed start) go to stderr as they happen. */
#ifndef SS_RECORD_RECORDER_H
#define SS_RECORD_RECORDER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/timeline.h"
#include "run/runner.h"

/* How long after PROGRAM exits its stream may stay open without a result: a process PROGRAM started that did not
 * exec a CUDA program may still hold the pipe; nothing more can come from PROGRAM itself. */
#define RECORDER_GRACE_MS 1000
/* Most processes --children follows at once. */
#define RECORDER_MAX_SOURCES 256

/* One recorded process: its wire stream and how its stream indices map onto the timeline's. */
struct recorder_source {
	struct ss_runner r;
	pid_t pid;
	bool open;    /* still reading */
	bool loaded;  /* the library started in it (the first streams line arrived) */
	bool result;  /* its stream ended with a result: complete */
	bool error;   /* CUPTI could not be set up (WIRE_ERROR) */
	int32_t *map; /* local stream index -> timeline stream index */
	int nmap;
	size_t map_cap;
	size_t nrec; /* records it sent */
};

/* Everything one recording holds. */
struct recorder {
	char **argv;   /* PROGRAM and its arguments, NULL-terminated */
	bool children; /* --children: also the CUDA processes PROGRAM starts */
	bool live;     /* --live: the Gantt shows while PROGRAM runs */
	struct ss_timeline tl;
	struct recorder_source src[RECORDER_MAX_SOURCES];
	int nsrc;
	int nstreams; /* timeline stream indices handed out */
	char *kinds;  /* [index]: enum ss_stream_kind (SS_SKIND_UNKNOWN until the library names it) */
	pid_t *spid;  /* [index]: the process the stream belongs to */
	size_t kinds_cap, spid_cap;
	pid_t pid;  /* PROGRAM */
	int status; /* its wait status once exited */
	bool exited;
	bool stopped;  /* PROGRAM's last change was a stop */
	int listen_fd; /* --children socket, -1 otherwise */
	char sockdir[80];
	char sockpath[96];
	bool have_base;
	uint64_t base;              /* CUPTI time of the earliest record so far: the timeline's 0 */
	uint64_t exit_ms;           /* when PROGRAM exited (monotonic ms) */
	uint64_t start_ns, exit_ns; /* PROGRAM's fork and when it was seen to exit (monotonic ns): its wall clock */
	bool noted;                 /* the "waiting for children" note was printed */
	bool done;                  /* the recording is over */
};

/* recorder_open sets st up for PROGRAM argv (--children, --live as given) and installs the parent's signal
 * handlers (SIGCHLD, SIGINT, SIGQUIT, SIGTERM, SIGHUP: they only set flags). 0, or -1 with *cause. */
int recorder_open(struct recorder *st, char **argv, bool children, bool live, char **cause);
/* recorder_start finds the injection library ($STREAMSCOPE_INJECT, next to the binary, ../lib/streamscope) and
 * libcupti for NVTX, and starts PROGRAM with them (its output to logpath when not NULL). 0, or the exit status for
 * the command after one line on stderr: 127 PROGRAM not found, 126 not executable, 3 no injection library, 1 no
 * pipe, socket or fork. */
int recorder_start(struct recorder *st, const char *logpath);
/* recorder_poll waits up to wait_ms for what the recorded processes send, takes it into st->tl and tells whether
 * the recording is over (PROGRAM exited and every stream ended, or after a grace period, or an interrupt). The
 * live view's hook (ctx is st). */
bool recorder_poll(void *ctx, int wait_ms);
/* recorder_loop polls until the recording is over. */
void recorder_loop(struct recorder *st);
/* recorder_settle makes the finished recording a trace: records sorted, sync threads matched, times from 0,
 * streams without GPU work dropped and the rest renumbered and labelled (kind, CUPTI id), incomplete and dropped
 * counts set. */
void recorder_settle(struct recorder *st);
/* recorder_close puts the signal actions back and frees st, its timeline included. */
void recorder_close(struct recorder *st);
/* recorder_ending_flag is set once an ending signal came: the live view closes when the recording is over. */
volatile sig_atomic_t *recorder_ending_flag(void);

#endif
