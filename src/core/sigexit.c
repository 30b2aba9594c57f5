/* sigexit.c: cleanup on the way out of a signal; see sigexit.h. The handler calls only async-signal-safe
 * functions (getpid, unlink, write, tcsetattr, fcntl, sigaction, raise) and reads only what was fully written before a
 * slot was marked used. */
#include "core/sigexit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* A registered temporary file: the path is written before used is set, and used cleared before it is reused. */
struct sigexit_path {
	char path[PATH_MAX];
	volatile sig_atomic_t used;
};

static const int sigexit_ending[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM};
static const int sigexit_fatal[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};

static struct sigexit_path sigexit_paths[SIGEXIT_MAX_PATHS];
static struct sigaction sigexit_old[NSIG]; /* the actions before ours, raised again on the way out */
static volatile sig_atomic_t sigexit_installed_sig[NSIG];
static pid_t sigexit_owner; /* the process that cleans up; 0 before sigexit_install */
static volatile sig_atomic_t sigexit_flag, sigexit_caught;

static int sigexit_term_fd = -1;
static struct termios sigexit_term_tio;
static char sigexit_term_seq[256];
static size_t sigexit_term_len;
static volatile sig_atomic_t sigexit_have_term;
static int sigexit_in_fd = -1, sigexit_in_flags;

static bool sigexit_is_ending(int sig)
{
	for (size_t i = 0; i < sizeof sigexit_ending / sizeof *sigexit_ending; i++)
		if (sigexit_ending[i] == sig)
			return true;
	return false;
}

/* sigexit_cleanup_safe removes the registered files and puts the terminal back; async-signal-safe. */
static void sigexit_cleanup_safe(void)
{
	for (int i = 0; i < SIGEXIT_MAX_PATHS; i++)
		if (sigexit_paths[i].used) {
			(void)unlink(sigexit_paths[i].path);
			sigexit_paths[i].used = 0;
		}
	if (sigexit_have_term) {
		size_t off = 0;

		sigexit_have_term = 0;
		while (off < sigexit_term_len) {
			ssize_t n = write(sigexit_term_fd, sigexit_term_seq + off, sigexit_term_len - off);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			off += (size_t)n;
		}
		(void)tcsetattr(sigexit_term_fd, TCSANOW, &sigexit_term_tio);
		if (sigexit_in_fd >= 0)
			(void)fcntl(sigexit_in_fd, F_SETFL, sigexit_in_flags);
	}
}

/* sigexit_handler: a flag for an ending signal while a loop catches them; otherwise clean up and raise the signal
 * again under the action it had before (it is blocked until this returns, so it arrives right after; a fault
 * that repeats on return meets that action too). */
static void sigexit_handler(int sig)
{
	int saved = errno;

	if (getpid() == sigexit_owner) {
		if (sigexit_flag && sigexit_is_ending(sig)) {
			sigexit_caught = sig;
			errno = saved;
			return;
		}
		sigexit_cleanup_safe();
	}
	(void)sigaction(sig, &sigexit_old[sig], NULL);
	(void)raise(sig);
	errno = saved;
}

void sigexit_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = sigexit_handler;
	sigfillset(&sa.sa_mask);
	/* no SA_RESTART: a read the loop is blocked in (curses reading the rest of an escape sequence) must return
	 * EINTR so that the loop sees the flag */
	sa.sa_flags = 0;
	sigexit_owner = getpid();
	for (int k = 0; k < 2; k++) {
		const int *sigs = k == 0 ? sigexit_ending : sigexit_fatal;
		size_t n = k == 0 ? sizeof sigexit_ending / sizeof *sigexit_ending
		                  : sizeof sigexit_fatal / sizeof *sigexit_fatal;

		for (size_t i = 0; i < n; i++) {
			struct sigaction old;
			int sig = sigs[i];

			if (sigexit_installed_sig[sig] || sigaction(sig, NULL, &old) != 0 || old.sa_handler == SIG_IGN)
				continue;
			sigexit_old[sig] = old;
			if (sigaction(sig, &sa, NULL) == 0)
				sigexit_installed_sig[sig] = 1;
		}
	}
}

int sigexit_add_path(const char *path)
{
	size_t len = path != NULL ? strlen(path) : 0;

	if (len == 0 || len >= PATH_MAX)
		return -1;
	for (int i = 0; i < SIGEXIT_MAX_PATHS; i++)
		if (!sigexit_paths[i].used) {
			memcpy(sigexit_paths[i].path, path, len + 1);
			sigexit_paths[i].used = 1;
			return i;
		}
	return -1;
}

void sigexit_remove_path(int slot)
{
	if (slot >= 0 && slot < SIGEXIT_MAX_PATHS)
		sigexit_paths[slot].used = 0;
}

void sigexit_set_terminal(int fd, const void *tio, const char *restore, int in_fd, int in_flags)
{
	size_t len = restore != NULL ? strlen(restore) : 0;

	sigexit_have_term = 0;
	if (tio == NULL)
		return;
	if (len >= sizeof sigexit_term_seq)
		len = sizeof sigexit_term_seq - 1;
	memcpy(sigexit_term_seq, restore, len);
	sigexit_term_len = len;
	memcpy(&sigexit_term_tio, tio, sizeof sigexit_term_tio);
	sigexit_term_fd = fd;
	sigexit_in_fd = in_fd;
	sigexit_in_flags = in_flags;
	sigexit_have_term = 1;
}

void sigexit_catch(bool flag)
{
	sigexit_caught = 0;
	sigexit_flag = flag;
}

int sigexit_pending(void)
{
	return sigexit_caught;
}

void sigexit_cleanup(void)
{
	sigexit_cleanup_safe();
}
