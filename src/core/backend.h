/* backend.h: the interface every backend (CUDA+CUPTI, model) implements; the rest of the program sees only this. */
#ifndef SS_CORE_BACKEND_H
#define SS_CORE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/experiment.h"
#include "core/planner.h"
#include "core/record.h"

/* Where a backend delivers what it captures, as it captures it. Called from one thread at a time. */
struct ss_sink {
	void *ctx;
	/* record: one interval; r->name is ignored, name is its text (NULL = none). */
	void (*record)(void *ctx, const struct ss_record *r, const char *name);
	/* progress: free-form one-line status ("repeat 2/5", "sweep 4 streams"); may be NULL. */
	void (*progress)(void *ctx, const char *msg);
	/* stream: stream index is the backend's raw_id and of kind (enum ss_stream_kind); may be NULL. */
	void (*stream)(void *ctx, int index, uint32_t raw_id, int kind);
	/* launch: a kernel's launch details (timeline_add_launch) and its full (demangled) name, NULL when its record's
	 * name is all of it (l->full_name is ignored); may be NULL. */
	void (*launch)(void *ctx, const struct ss_launch *l, const char *full_name);
};

/* What a run measured besides the records. Optional values carry validity flags. */
struct ss_run_result {
	char device[96];      /* device name ("NVIDIA H200", "MODEL (H200 profile)") */
	bool modelled;        /* results come from the model */
	uint64_t traced_ns;   /* makespan from cudaEvents around the traced run (median of repeats) */
	uint64_t untraced_ns; /* same for the untraced twin; valid if have_untraced */
	bool have_untraced;
	uint64_t untraced_min_ns, untraced_max_ns; /* the untraced twin's fastest and slowest repeat; valid with it */
	/* the spread of the observer effect: quartiles of traced/untraced - 1 over the repeats' ABBA pairs (nearest
	 * rank); valid if have_spread (at least 4 repeats) */
	double overhead_q1, overhead_q3;
	bool have_spread;
	/* CUPTI's makespan (GPU intervals) over the cudaEvent makespan, - 1, per traced repeat: the median */
	double cupti_vs_events_median;
	bool have_cupti_vs_events;
	uint64_t events_ns_of_captured; /* cudaEvent makespan of the run whose records were delivered */
	uint64_t dropped;               /* records CUPTI reported dropped */
	bool verified;                  /* the kernels' results were checked on the host and were right */
	bool prefetch_records; /* the timeline has a record per prefetch (model: always; CUDA: --prefetch-events) */
	bool span_short;       /* CUPTI recorded none of some of the GPU's work (prefetches without their timing
	                          events, managed-attach migrations): the traced span misses it */
	int repeats;
	int copy_engines; /* the device's copy engines (cudaDeviceProp.asyncEngineCount); 0 when not known */
	uint64_t
	    memory_bytes; /* the device's memory (cudaMemGetInfo's total; the model: its profile's); 0: not known */
	bool untraced_detached; /* the untraced twins ran with CUPTI out of the process (CUDA backend; false where it
	                           stayed attached, SS_CUPTI_DETACH=0 or cuptiFinalize refused) */
};

/* A backend. Functions return 0 on success, -1 with *cause (one line, caller frees) on failure. */
struct ss_backend {
	const char *name; /* "cuda", "model" */
	bool modelled;
	/* available: can this backend run here? Fills device with a name when yes, *cause when no. Must not leave
	 * CUDA initialised in the calling process (callers run it in a child). */
	int (*available)(char *device, size_t len, char **cause);
	/* run: run e (ops = planner_build(e)) once per repeat after warm-ups, delivering the records of the last
	 * traced repeat to sink with times relative to that repeat's start. */
	int (*run)(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
	           struct ss_run_result *res, char **cause);
};

#endif
