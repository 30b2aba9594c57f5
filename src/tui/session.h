/* session.h: the runs behind the TUI: the run shown, the one being captured, the pinned one (A/B), the one-stream
 * baselines that speedups and bounds need, the model's prediction and the sweep. One runner child at a time (runs
 * must not disturb each other on the GPU); nothing here blocks. No curses: the loop in tui.c drives it. */
#ifndef SS_TUI_SESSION_H
#define SS_TUI_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/analysis.h"
#include "core/backend.h"
#include "core/experiment.h"
#include "core/timeline.h"
#include "run/runner.h"
#include "run/sweep.h"
#include "tui/lanes.h"

/* One run: its experiment, records, their index and analysis. */
struct ss_run {
	uint64_t id; /* new whenever records are renumbered: a capture that finished (and sorted) gets a new one */
	struct ss_experiment exp;
	bool file; /* an opened trace: exp is meaningless, tl is the caller's (borrowed, read only) */
	struct ss_timeline tl;
	struct ss_lanes lanes;    /* index of tl (rebuilt while records stream in) */
	struct ss_analysis an;    /* valid when done */
	bool done;                /* finished: tl sorted, an computed */
	struct ss_run_result res; /* valid when have_res */
	bool have_res;
	bool compared;       /* an holds speedup and bound against the one-stream baseline */
	bool have_predicted; /* GPU runs: the model's makespan of the same experiment */
	uint64_t predicted_ns;
	bool have_predicted_calls; /* GPU runs: the model's makespan with the run's own call costs (calibrate_calls) */
	uint64_t predicted_calls_ns;
	double indexed_at; /* when lanes was last built (session clock, s) */
	double index_cost; /* how long that took (s) */
};

/* What session_poll changed (bits). */
#define SES_RECORDS 0x01u /* records arrived for the run being captured */
#define SES_SHOWN 0x02u   /* another run is shown (a capture finished) */
#define SES_STATS 0x04u   /* the shown run's comparison changed */
#define SES_SWEEP 0x08u   /* a sweep point finished */
#define SES_FAILED 0x10u  /* a run failed: message says why */

/* What the runner child is doing. */
enum ss_job { JOB_NONE = 0, JOB_MAIN, JOB_BASELINE, JOB_SWEEP };

#define SESSION_MAX_BASES 16

/* A one-stream baseline, by experiment. */
struct ss_session_base {
	struct ss_experiment exp; /* the one-stream experiment */
	struct ss_analysis an;
	bool failed;
};

/* The session. */
struct ss_session {
	const struct ss_backend *backend;
	struct ss_run *shown;   /* the run on screen (NULL before the first finished, or after a pin) */
	struct ss_run *capture; /* the main run being captured, NULL when none */
	struct ss_run *pinned;  /* A of an A/B, NULL when none */
	bool want;              /* a main run is requested and not started */
	struct ss_experiment want_exp;
	struct ss_experiment last; /* the last experiment asked for, run or not (a failed run can be retried) */
	bool have_last;
	struct ss_runner runner;
	enum ss_job job;
	struct ss_experiment job_exp;
	size_t job_point;           /* sweep point the runner runs */
	struct ss_timeline scratch; /* records of baseline and sweep runs */
	struct ss_session_base base[SESSION_MAX_BASES];
	int nbase, base_next; /* entries, and the one replaced next */
	struct ss_sweep sweep;
	bool have_sweep;
	struct ss_timeline *sweep_tl; /* [sweep.n]: each measured point's timeline (for session_open_point) */
	bool retry;                   /* a cancelled sweep point to run again */
	size_t retry_point;
	struct ss_experiment retry_exp;
	char message[320]; /* the last failure or notice */
	uint64_t next_id;  /* the last run id given out */
};

/* session_init prepares s for backend b (may be NULL when file is given). file (may be NULL): an opened trace
 * shown as is, read in place (no copy: it must outlive the session); nothing runs then. */
void session_init(struct ss_session *s, const struct ss_backend *b, const struct ss_timeline *file);
void session_free(struct ss_session *s);
/* session_request asks for a run of e: it replaces any capture in progress and pre-empts baseline and sweep
 * runs. It starts on the next session_poll. */
void session_request(struct ss_session *s, const struct ss_experiment *e);
/* session_poll moves what the runner sent into the runs, finishes runs, starts the next job, and (re)indexes the
 * capture's records when enough time passed since the last index (now: a monotonic clock in s). Returns SES_*. */
unsigned session_poll(struct ss_session *s, double now);
/* session_fd is the descriptor to wait on for runner output, -1 when nothing runs. */
int session_fd(const struct ss_session *s);
/* session_busy tells whether a runner child is running. */
bool session_busy(const struct ss_session *s);
/* session_view returns the run to draw: the shown one, else the capture streaming in (may be NULL). */
struct ss_run *session_view(const struct ss_session *s);
/* session_experiment is the experiment the next change applies to: the last one asked for (whether it ran, runs
 * or failed), NULL for files. */
const struct ss_experiment *session_experiment(const struct ss_session *s);
/* session_pin pins the shown run as A (the next run becomes B) or, when one is pinned, unpins it. Returns true
 * when something is pinned afterwards. */
bool session_pin(struct ss_session *s);
/* session_sweep starts the default sweep of e (sweep_init_default: 1, 2, 4 .. streams as far as e's devices allow,
 * in both orders of sweep_both_orders (best and weaker for document 003's orders, else depth and breadth), leaving
 * out an order e cannot run), unless one of the same base experiment exists (then it is kept, finished or not). */
void session_sweep(struct ss_session *s, const struct ss_experiment *e);
/* session_open_point shows the timeline of sweep point index as the run on screen (with the point's analysis,
 * compared with the sweep's 1-stream point), in place of the shown run. False when the point has not been
 * measured. */
bool session_open_point(struct ss_session *s, size_t index);
/* session_sweep_running tells whether sweep points remain. */
bool session_sweep_running(const struct ss_session *s);
/* session_same tells whether two experiments are the same in every field. */
bool session_same(const struct ss_experiment *a, const struct ss_experiment *b);

#endif
