/* sigexit.h: the way out when a signal ends the process. Temporary files are removed and the terminal is put back
 * with async-signal-safe calls only, then the signal is raised again under its previous action, so the exit
 * status (and a core, or a sanitizer's report) stays what it would have been.
 *
 * Two kinds of signal:
 * - ending signals (SIGHUP, SIGINT, SIGQUIT, SIGTERM): by default they clean up and end the process; while a loop
 *   has asked for them with sigexit_catch(true) (the TUI), they only set a flag the loop reads (sigexit_pending);
 * - fatal signals (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL): always clean up and re-raise.
 * Only the process that called sigexit_install cleans up: a forked child (a runner) that inherits the handlers
 * dies of the signal as if none were installed. */
#ifndef SS_CORE_SIGEXIT_H
#define SS_CORE_SIGEXIT_H

#include <stdbool.h>

#define SIGEXIT_MAX_PATHS 16 /* temporary files registered at once */

/* sigexit_install installs the handlers (idempotent). Signals the caller set to SIG_IGN stay ignored. */
void sigexit_install(void);
/* sigexit_add_path registers a temporary file to remove on the way out. Returns its slot, or -1 when every slot
 * is taken (the file is then not removed by a signal; the caller's own cleanup still runs). */
int sigexit_add_path(const char *path);
/* sigexit_remove_path forgets slot (a negative slot is ignored). */
void sigexit_remove_path(int slot);
/* sigexit_set_terminal registers how to put the terminal on fd back: its saved termios (opaque, sizeof struct
 * termios bytes), an escape sequence to write (leave the alternate screen, show the cursor, mouse off), and the
 * file status flags of the input descriptor in_fd (-1: none) to set again (the TUI reads it non-blocking).
 * tio NULL forgets the terminal. */
void sigexit_set_terminal(int fd, const void *tio, const char *restore, int in_fd, int in_flags);
/* sigexit_catch(true) turns the ending signals into a flag (sigexit_pending) for a loop that exits on its own;
 * sigexit_catch(false) makes them end the process again, and clears the flag. */
void sigexit_catch(bool flag);
/* sigexit_pending is the ending signal caught while sigexit_catch(true), 0 when none. */
int sigexit_pending(void);
/* sigexit_cleanup runs what a signal would (remove the registered files, put the terminal back) without one; for
 * paths that end the process another way (xfatal). */
void sigexit_cleanup(void);

#endif
