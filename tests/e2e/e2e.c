/* e2e.c: the end-to-end harness: a program in a pseudo-terminal, its screen read back through libvterm; see e2e.h. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include "e2e.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

const char *e2e_binary;

double e2e_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int e2e_settermprop(VTermProp prop, VTermValue *val, void *user)
{
	struct e2e *t = user;

	switch (prop) {
	case VTERM_PROP_ALTSCREEN:
		t->altscreen = val->boolean;
		break;
	case VTERM_PROP_CURSORVISIBLE:
		t->cursor_visible = val->boolean;
		break;
	case VTERM_PROP_MOUSE:
		t->mouse = val->number;
		break;
	default:
		break;
	}
	return 1;
}

/* What libvterm answers (terminal queries, mouse reports) goes back to the program. */
void e2e_output(const char *s, size_t len, void *user)
{
	struct e2e *t = user;

	t->last_input = e2e_now();
	while (len > 0) {
		ssize_t n = write(t->fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

static VTermScreenCallbacks e2e_callbacks = {
    .settermprop = e2e_settermprop,
};

/* e2e_start runs the binary with args (NULL-terminated, argv[0] excluded) in a cols x rows terminal. env: extra
 * "NAME=value" settings (NULL-terminated, may be NULL); "NAME=" unsets NAME. */
void e2e_start(struct e2e *t, int cols, int rows, const char *const *args, const char *const *env)
{
	struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
	const char *argv[32];
	int n = 0;

	memset(t, 0, sizeof *t);
	t->rows = rows;
	t->cols = cols;
	t->cursor_visible = true;
	snprintf(t->dir, sizeof t->dir, "/tmp/ss-e2e-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	argv[n++] = e2e_binary;
	for (int i = 0; args != NULL && args[i] != NULL && n < 30; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	t->pid = forkpty(&t->fd, NULL, NULL, &ws);
	assert_true(t->pid >= 0);
	if (t->pid == 0) {
		setenv("TERM", "xterm-256color", 1);
		setenv("LANG", "C.UTF-8", 1);
		setenv("LC_ALL", "C.UTF-8", 1);
		unsetenv("NO_COLOR");
		for (int i = 0; env != NULL && env[i] != NULL; i++) {
			char name[64];
			const char *eq = strchr(env[i], '=');

			snprintf(name, sizeof name, "%.*s", (int)(eq - env[i]), env[i]);
			if (eq[1] == '\0')
				unsetenv(name);
			else
				setenv(name, eq + 1, 1);
		}
		if (chdir(t->dir) != 0)
			_exit(126);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	fcntl(t->fd, F_SETFL, fcntl(t->fd, F_GETFL) | O_NONBLOCK);
	t->vt = vterm_new(rows, cols);
	vterm_set_utf8(t->vt, 1);
	vterm_output_set_callback(t->vt, e2e_output, t);
	t->screen = vterm_obtain_screen(t->vt);
	vterm_screen_enable_altscreen(t->screen, 1);
	vterm_screen_set_callbacks(t->screen, &e2e_callbacks, t);
	vterm_screen_reset(t->screen, 1);
	t->last_output = e2e_now();
}

/* e2e_feed gives bytes to libvterm. libvterm 0.1.4 applies only the first mode of a DEC private mode set/reset
 * with several ("ESC [ ? 1006 ; 1000 h", as ncurses turns on the mouse): such sequences are split into one per
 * mode. A sequence cut by the end of a read is kept in t->carry for the next one. */
static void e2e_feed(struct e2e *t, const char *buf, size_t n)
{
	char out[65536 * 2 + 64];
	size_t o = 0, i = 0;
	char in[65536 + 64];

	memcpy(in, t->carry, t->ncarry);
	memcpy(in + t->ncarry, buf, n);
	n += t->ncarry;
	t->ncarry = 0;
	while (i < n) {
		if (in[i] == '\033' && (i + 1 >= n || in[i + 1] == '[') && (i + 2 >= n || in[i + 2] == '?')) {
			size_t j = i + 3;

			while (j < n && ((in[j] >= '0' && in[j] <= '9') || in[j] == ';'))
				j++;
			if (j >= n) { /* cut: finish it with the next read */
				if (n - i < sizeof t->carry) {
					memcpy(t->carry, in + i, n - i);
					t->ncarry = n - i;
				}
				break;
			}
			if ((in[j] == 'h' || in[j] == 'l') && memchr(in + i, ';', j - i) != NULL) {
				size_t k = i + 3;

				while (k < j) {
					size_t e = k;

					while (e < j && in[e] != ';')
						e++;
					o += (size_t)sprintf(out + o, "\033[?%.*s%c", (int)(e - k), in + k, in[j]);
					k = e + 1;
				}
				i = j + 1;
				continue;
			}
		}
		out[o++] = in[i++];
	}
	vterm_input_write(t->vt, out, o);
}

/* e2e_pump reads what the program wrote within ms into the screen; false once the program closed the terminal. */
bool e2e_pump(struct e2e *t, int ms)
{
	struct pollfd p = {t->fd, POLLIN, 0};
	char buf[65536];
	ssize_t n;

	if (poll(&p, 1, ms) <= 0)
		return true;
	while ((n = read(t->fd, buf, sizeof buf)) > 0) {
		e2e_feed(t, buf, (size_t)n);
		t->last_output = e2e_now();
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return true;
	return false; /* EOF or EIO: the other side is gone */
}

/* e2e_row writes row y of the screen as UTF-8 (one character per cell, blanks kept). */
void e2e_row(struct e2e *t, int y, char *buf, size_t len)
{
	size_t o = 0;

	for (int x = 0; x < t->cols && o + 5 < len; x++) {
		VTermScreenCell c;
		uint32_t ch;

		vterm_screen_get_cell(t->screen, (VTermPos){y, x}, &c);
		ch = c.chars[0] ? c.chars[0] : ' ';
		if (ch < 0x80) {
			buf[o++] = (char)ch;
		} else if (ch < 0x800) {
			buf[o++] = (char)(0xc0 | (ch >> 6));
			buf[o++] = (char)(0x80 | (ch & 0x3f));
		} else if (ch < 0x10000) {
			buf[o++] = (char)(0xe0 | (ch >> 12));
			buf[o++] = (char)(0x80 | ((ch >> 6) & 0x3f));
			buf[o++] = (char)(0x80 | (ch & 0x3f));
		} else {
			buf[o++] = '?';
		}
	}
	buf[o] = '\0';
}

uint32_t e2e_char(struct e2e *t, int x, int y)
{
	VTermScreenCell c;

	vterm_screen_get_cell(t->screen, (VTermPos){y, x}, &c);
	return c.chars[0];
}

/* e2e_fg returns the indexed foreground colour of a cell, -1 for the default one. */
int e2e_fg(struct e2e *t, int x, int y)
{
	VTermScreenCell c;

	vterm_screen_get_cell(t->screen, (VTermPos){y, x}, &c);
	if (VTERM_COLOR_IS_DEFAULT_FG(&c.fg))
		return -1;
	if (VTERM_COLOR_IS_INDEXED(&c.fg))
		return c.fg.indexed.idx;
	return -2;
}

/* e2e_find returns the row showing text (from row `from`), -1 when none; *x its column in cells. */
int e2e_find(struct e2e *t, const char *text, int from, int *x)
{
	char row[4096];

	for (int y = from; y < t->rows; y++) {
		char *p;

		e2e_row(t, y, row, sizeof row);
		if ((p = strstr(row, text)) != NULL) {
			if (x != NULL) {
				int cells = 0;

				for (char *q = row; q < p; q++)
					cells += ((unsigned char)*q & 0xc0) != 0x80;
				*x = cells;
			}
			return y;
		}
	}
	return -1;
}

void e2e_dump(struct e2e *t)
{
	char row[4096];

	fprintf(stderr, "---- screen %dx%d ----\n", t->cols, t->rows);
	for (int y = 0; y < t->rows; y++) {
		e2e_row(t, y, row, sizeof row);
		fprintf(stderr, "%s\n", row);
	}
	fprintf(stderr, "----\n");
}

/* e2e_wait waits until the screen shows text (NULL: the program's answer to the last input: some output after it)
 * and nothing more came for E2E_QUIET_MS. */
void e2e_wait(struct e2e *t, const char *text)
{
	double start = e2e_now();

	for (;;) {
		bool alive = e2e_pump(t, 50);
		double now = e2e_now();

		if ((text != NULL ? e2e_find(t, text, 0, NULL) >= 0 : t->last_output > t->last_input) &&
		    now - t->last_output >= E2E_QUIET_MS)
			return;
		if (!alive || now - start > E2E_MAX_MS) {
			e2e_dump(t);
			fail_msg("the screen never showed '%s'%s", text ? text : "(quiet)",
			         alive ? "" : " (the program closed the terminal)");
		}
	}
}

/* e2e_wait_gone waits until text is no longer on the screen and the screen is quiet. */
void e2e_wait_gone(struct e2e *t, const char *text)
{
	double start = e2e_now();

	for (;;) {
		bool alive = e2e_pump(t, 50);
		double now = e2e_now();

		if (e2e_find(t, text, 0, NULL) < 0 && now - t->last_output >= E2E_QUIET_MS)
			return;
		if (!alive || now - start > E2E_MAX_MS) {
			e2e_dump(t);
			fail_msg("'%s' stayed on the screen", text);
		}
	}
}

/* e2e_settle waits until every run finished (the header no longer says running) and the screen is quiet. */
void e2e_settle(struct e2e *t)
{
	e2e_wait(t, "records");
	e2e_wait_gone(t, "running");
}

void e2e_keys(struct e2e *t, const char *s)
{
	e2e_output(s, strlen(s), t);
}

/* e2e_click presses and releases the left button at cell (x, y) through libvterm, so that it is only sent when
 * the program turned the mouse on, in the encoding it asked for. */
void e2e_click(struct e2e *t, int x, int y)
{
	char buf[64];
	size_t n;

	vterm_mouse_move(t->vt, y, x, VTERM_MOD_NONE);
	vterm_mouse_button(t->vt, 1, true, VTERM_MOD_NONE);
	vterm_mouse_button(t->vt, 1, false, VTERM_MOD_NONE);
	while ((n = vterm_output_read(t->vt, buf, sizeof buf)) > 0)
		e2e_output(buf, n, t);
}

/* e2e_wheel turns the wheel (up: button 4) at cell (x, y). */
void e2e_wheel(struct e2e *t, int x, int y, bool up)
{
	vterm_mouse_move(t->vt, y, x, VTERM_MOD_NONE);
	vterm_mouse_button(t->vt, up ? 4 : 5, true, VTERM_MOD_NONE);
}

void e2e_resize(struct e2e *t, int cols, int rows)
{
	struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};

	t->rows = rows;
	t->cols = cols;
	vterm_set_size(t->vt, rows, cols);
	assert_int_equal(ioctl(t->fd, TIOCSWINSZ, &ws), 0); /* the kernel sends SIGWINCH */
}

/* e2e_finish waits for the program to exit (reading its last output) and returns its wait status. */
int e2e_finish(struct e2e *t)
{
	double start = e2e_now();

	while (!t->exited) {
		pid_t w = waitpid(t->pid, &t->status, WNOHANG);

		if (w == t->pid) {
			t->exited = true;
			break;
		}
		e2e_pump(t, 20);
		if (e2e_now() - start > E2E_MAX_MS) {
			kill(t->pid, SIGKILL);
			waitpid(t->pid, &t->status, 0);
			e2e_dump(t);
			fail_msg("the program did not exit");
		}
	}
	/* The program is gone, but the kernel may not have passed on all it wrote yet (under load that takes a while):
	 * read until the terminal reports it closed (EIO), for at most a second. */
	start = e2e_now();
	while (e2e_pump(t, 50) && e2e_now() - start < 1000)
		;
	return t->status;
}

void e2e_rmtree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char p[1024];
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			e2e_rmtree(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

void e2e_free(struct e2e *t)
{
	if (!t->exited) {
		kill(t->pid, SIGKILL);
		waitpid(t->pid, NULL, 0);
	}
	close(t->fd);
	vterm_free(t->vt);
	e2e_rmtree(t->dir);
}

/* e2e_quit presses q and checks a clean exit: status 0, main screen back, cursor visible, mouse off. */
void e2e_restored(struct e2e *t)
{
	struct termios tio;

	if (t->altscreen || !t->cursor_visible || t->mouse != VTERM_PROP_MOUSE_NONE)
		e2e_dump(t);
	assert_false(t->altscreen);
	assert_true(t->cursor_visible);
	assert_int_equal(t->mouse, VTERM_PROP_MOUSE_NONE);
	/* a pseudo-terminal's two ends share one termios: the master reads what the program left on the slave */
	assert_int_equal(tcgetattr(t->fd, &tio), 0);
	assert_true(tio.c_lflag & ECHO);
	assert_true(tio.c_lflag & ICANON);
}

void e2e_quit(struct e2e *t)
{
	int st;

	e2e_keys(t, "q");
	st = e2e_finish(t);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		e2e_dump(t);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	e2e_restored(t);
}

int e2e_main(int argc, char **argv, const char *prog, const struct CMUnitTest *tests, size_t n)
{
	char filter[64];

	if (argc < 2) {
		fprintf(stderr, "usage: %s STREAMSCOPE [SCENARIO]\n", prog);
		return 2;
	}
	e2e_binary = argv[1];
	signal(SIGPIPE, SIG_IGN);
	if (argc > 2) {
		snprintf(filter, sizeof filter, "test_%s", argv[2]);
		cmocka_set_test_filter(filter);
	}
	return _cmocka_run_group_tests(prog, tests, n, NULL, NULL);
}
