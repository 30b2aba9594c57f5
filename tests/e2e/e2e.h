/* e2e.h: the end-to-end harness shared by the TUI's tests: the real streamscope binary in a pseudo-terminal
 * (forkpty), its screen read back through libvterm. Every wait is "until the screen shows X and then stays quiet",
 * never a fixed sleep; a failed wait dumps the screen and fails the cmocka test. */
#ifndef SS_E2E_H
#define SS_E2E_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <vterm.h>

#define E2E_QUIET_MS 300 /* no output for this long: the screen settled */
#define E2E_MAX_MS 60000 /* give up after this long */

/* A program in a pseudo-terminal and the screen libvterm makes of its output. */
struct e2e {
	pid_t pid;
	int fd;
	VTerm *vt;
	VTermScreen *screen;
	int rows, cols;
	bool altscreen; /* the program is on the alternate screen */
	bool cursor_visible;
	int mouse;          /* VTERM_PROP_MOUSE_*: what the program asked for */
	double last_output; /* when bytes last came */
	double last_input;  /* when keys or mouse events were last sent */
	bool exited;
	int status;
	char dir[64];   /* the program's working directory (a fresh temporary one) */
	char carry[64]; /* an escape sequence cut by the end of a read */
	size_t ncarry;
};

/* The binary under test (argv[1] of the test programs). */
extern const char *e2e_binary;

/* e2e_now is a monotonic clock in ms. */
double e2e_now(void);
/* e2e_output sends bytes to the program (user: the struct e2e); libvterm's answers go through it too. */
void e2e_output(const char *s, size_t len, void *user);
/* e2e_start runs the binary with args (NULL-terminated, argv[0] excluded) in a cols x rows terminal, in a fresh
 * temporary directory. env: extra "NAME=value" settings (NULL-terminated, may be NULL); "NAME=" unsets NAME. */
void e2e_start(struct e2e *t, int cols, int rows, const char *const *args, const char *const *env);
/* e2e_pump reads what the program wrote within ms into the screen; false once the program closed the terminal. */
bool e2e_pump(struct e2e *t, int ms);
/* e2e_row writes row y of the screen as UTF-8 (one character per cell, blanks kept). */
void e2e_row(struct e2e *t, int y, char *buf, size_t len);
/* e2e_char is the character of cell (x, y), 0 for an empty one. */
uint32_t e2e_char(struct e2e *t, int x, int y);
/* e2e_fg returns the indexed foreground colour of a cell, -1 for the default one, -2 for a direct colour. */
int e2e_fg(struct e2e *t, int x, int y);
/* e2e_find returns the row showing text (from row `from`), -1 when none; *x (may be NULL) its column in cells. */
int e2e_find(struct e2e *t, const char *text, int from, int *x);
/* e2e_dump prints the screen to stderr. */
void e2e_dump(struct e2e *t);
/* e2e_wait waits until the screen shows text (NULL: some output after the last input) and then stays quiet. */
void e2e_wait(struct e2e *t, const char *text);
/* e2e_wait_gone waits until text is no longer on the screen and the screen is quiet. */
void e2e_wait_gone(struct e2e *t, const char *text);
/* e2e_settle waits until every run finished (the header no longer says running) and the screen is quiet. */
void e2e_settle(struct e2e *t);
/* e2e_keys sends the bytes of s as typed keys. */
void e2e_keys(struct e2e *t, const char *s);
/* e2e_click presses and releases the left button at cell (x, y), in the encoding the program asked for (nothing
 * when it did not turn the mouse on). */
void e2e_click(struct e2e *t, int x, int y);
/* e2e_wheel turns the wheel (up: button 4) at cell (x, y). */
void e2e_wheel(struct e2e *t, int x, int y, bool up);
/* e2e_resize gives the terminal a new size (the kernel sends SIGWINCH). */
void e2e_resize(struct e2e *t, int cols, int rows);
/* e2e_finish waits for the program to exit (reading its last output) and returns its wait status. */
int e2e_finish(struct e2e *t);
/* e2e_rmtree removes dir and everything under it. */
void e2e_rmtree(const char *dir);
/* e2e_free ends the program (SIGKILL when still running) and frees t. */
void e2e_free(struct e2e *t);
/* e2e_restored checks that the program left the terminal as it found it: main screen, cursor visible, mouse
 * reports off, echo and canonical mode on. */
void e2e_restored(struct e2e *t);
struct CMUnitTest;
/* e2e_main runs a test program's scenarios: argv[1] is the binary under test (e2e_binary), argv[2] (optional) the
 * one scenario to run (test_<name>); prog names the program in its usage line. Returns cmocka's status, 2 on
 * usage errors. */
int e2e_main(int argc, char **argv, const char *prog, const struct CMUnitTest *tests, size_t n);
/* e2e_quit presses q and checks a clean exit: status 0 and the terminal restored (e2e_restored). */
void e2e_quit(struct e2e *t);

#endif
