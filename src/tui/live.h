/* live.h: the Gantt of a recording while it runs (`streamscope record --live`): the TUI's public pieces (terminal,
 * lanes, view) over a timeline that grows. Added for `record` by its author; the TUI's own loop is in tui.c. */
#ifndef SS_TUI_LIVE_H
#define SS_TUI_LIVE_H

#include <signal.h>
#include <stdbool.h>

#include "core/timeline.h"

/* live_poll_fn moves what arrived into the timeline, waiting up to wait_ms for it; true once the recording is over
 * (the timeline then grows no more). */
typedef bool (*live_poll_fn)(void *ctx, int wait_ms);

/* live_run shows tl while poll fills it: the Gantt follows the recording (f fits again after zooming or panning),
 * the status line counts records. When poll reports the end, the view stays until q. q before the end leaves the
 * view at once (the caller goes on recording without it). The timeline's records are only read, between calls of
 * poll; tl->device names the device once known. stop (may be NULL) is a flag the caller's signal handlers set: once
 * it is set and the recording is over, the view closes as q would (a SIGTERM, SIGHUP or Ctrl-C ends it too); a
 * terminal that hangs up closes it at once. Returns 0, or -1 with *cause (one line) when the terminal cannot be
 * used: nothing was drawn and the terminal is untouched. */
int live_run(struct ss_timeline *tl, live_poll_fn poll, void *ctx, const char *title, const volatile sig_atomic_t *stop,
             char **cause);

#endif
