/* term.c: curses output and input. */
#define NCURSES_WIDECHAR 1
#include "tui/term.h"

#include <curses.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "core/palette.h"
#include "core/sigexit.h"
#include "core/xalloc.h"

/* term_cap appends terminfo capability name to buf (of size len) when the terminal has it. */
static void term_cap(char *buf, size_t len, const char *name)
{
	const char *s = tigetstr(name);

	if (s != NULL && s != (char *)-1 && strlen(buf) + strlen(s) < len)
		strcat(buf, s);
}

/* term_register tells sigexit how to give the terminal back from a signal handler: the modes saved before curses
 * started (tio), and the sequences that end what curses turned on (mouse reports, keypad mode, attributes, the
 * hidden cursor, the alternate screen). */
static void term_register(const struct termios *tio, int in_flags)
{
	char seq[256] = "\033[?1006l\033[?1000l\033[?1002l\033[?1003l";

	term_cap(seq, sizeof seq, "rmkx");
	term_cap(seq, sizeof seq, "sgr0");
	term_cap(seq, sizeof seq, "cnorm");
	term_cap(seq, sizeof seq, "rmcup");
	term_cap(seq, sizeof seq, "cnorm");
	sigexit_set_terminal(STDOUT_FILENO, tio, seq, STDIN_FILENO, in_flags);
}

/* term_keys teaches curses the sequences terminals send for Home, End, the page keys, shift-tab and shift-arrows
 * and the arrows, in both cursor modes,
 * that the terminfo entry may not list (xterm's "ESC [ H", the VT220 "ESC [ 1 ~", rxvt's "ESC [ 7 ~"), so that they
 * arrive as keys and not as Esc, '[', 'H'. A sequence the entry already binds keeps its binding. */
static void term_keys(void)
{
	static const struct {
		const char *seq;
		int key;
	} extra[] = {
	    {"\033[H", KEY_HOME},     {"\033[F", KEY_END},    {"\033OH", KEY_HOME},  {"\033OF", KEY_END},
	    {"\033[1~", KEY_HOME},    {"\033[4~", KEY_END},   {"\033[7~", KEY_HOME}, {"\033[8~", KEY_END},
	    {"\033[5~", KEY_PPAGE},   {"\033[6~", KEY_NPAGE}, {"\033[Z", KEY_BTAB},  {"\033[1;2C", KEY_SRIGHT},
	    {"\033[1;2D", KEY_SLEFT}, {"\033[A", KEY_UP},     {"\033[B", KEY_DOWN},  {"\033[C", KEY_RIGHT},
	    {"\033[D", KEY_LEFT},     {"\033OA", KEY_UP},     {"\033OB", KEY_DOWN},  {"\033OC", KEY_RIGHT},
	    {"\033OD", KEY_LEFT},
	};

	for (size_t i = 0; i < sizeof extra / sizeof *extra; i++)
		if (key_defined(extra[i].seq) == 0)
			define_key(extra[i].seq, extra[i].key);
}

/* term_attr converts grid and scheme attributes into curses ones. */
static attr_t term_attr(unsigned a)
{
	attr_t r = A_NORMAL;

	if (a & GRID_BOLD)
		r |= A_BOLD;
	if (a & GRID_REVERSE)
		r |= A_REVERSE;
	if (a & GRID_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & SCHEME_DIM)
		r |= A_DIM;
	return r;
}

int term_start(struct ss_term *t, bool ascii, char **cause)
{
	const char *cs;
	struct termios tio;
	bool have_tio;

	memset(t, 0, sizeof *t);
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		*cause =
		    xasprintf("the interactive view needs a terminal (stdin and stdout); use 'streamscope run' for "
		              "text output");
		return -1;
	}
	have_tio = tcgetattr(STDIN_FILENO, &tio) == 0;
	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	t->utf8 = !ascii && cs != NULL && strcmp(cs, "UTF-8") == 0;
	if (newterm(NULL, stdout, stdin) == NULL) {
		const char *term = getenv("TERM");

		*cause = xasprintf("cannot use the terminal type '%s'", term ? term : "(TERM unset)");
		return -1;
	}
	t->started = true;
	set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	term_keys();
	nodelay(stdscr, TRUE);
	intrflush(stdscr, FALSE);
	curs_set(0);
	t->scheme = SCHEME_MONO;
	if (has_colors()) {
		start_color();
		use_default_colors();
		t->scheme = scheme_pick(COLORS, getenv("NO_COLOR"));
	} else {
		t->scheme = scheme_pick(0, NULL);
	}
	if (t->scheme != SCHEME_MONO)
		for (int r = 0; r < SS_ROLE_COUNT; r++)
			init_pair((short)(r + 1), scheme_look(t->scheme, r).fg, -1);
	mouseinterval(0);
	mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	grid_init(&t->shown, 0, 0);
	t->full = true;
	/* Input non-blocking: curses reads the rest of an escape sequence (a mouse report) with a blocking read, which
	 * could wait for ever for a byte the terminal never sends; then a read returns nothing and getch gives up. */
	t->in_flags = fcntl(STDIN_FILENO, F_GETFL);
	if (t->in_flags != -1)
		(void)fcntl(STDIN_FILENO, F_SETFL, t->in_flags | O_NONBLOCK);
	if (have_tio)
		term_register(&tio, t->in_flags);
	return 0;
}

void term_stop(struct ss_term *t)
{
	if (t == NULL || !t->started)
		return;
	t->started = false;
	sigexit_set_terminal(-1, NULL, NULL, -1, 0);
	if (t->in_flags != -1)
		(void)fcntl(STDIN_FILENO, F_SETFL, t->in_flags);
	mousemask(0, NULL);
	curs_set(1);
	endwin();
	/* Again on the main screen: leaving the alternate screen restores the cursor saved on entering it, and some
	 * terminals (libvterm: Neovim's, the e2e tests') keep its visibility there, which a later save (ncurses' scroll
	 * regions, ESC 7) may have recorded hidden. */
	{
		const char *cnorm = tigetstr("cnorm");

		if (cnorm != NULL && cnorm != (char *)-1) {
			putp(cnorm);
			fflush(stdout);
		}
	}
	grid_free(&t->shown);
}

void term_size(struct ss_term *t, int *cols, int *rows)
{
	(void)t;
	*cols = COLS;
	*rows = LINES;
}

void term_invalidate(struct ss_term *t)
{
	t->full = true;
}

void term_draw(struct ss_term *t, const struct ss_grid *g)
{
	if (!t->started)
		return;
	if (t->full || t->shown.w != g->w || t->shown.h != g->h) {
		grid_resize(&t->shown, g->w, g->h);
		for (int i = 0; i < g->w * g->h; i++)
			t->shown.cell[i].ch = 0; /* differs from every drawn cell */
		clearok(curscr, TRUE);
		t->full = false;
	}
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++) {
			const struct ss_cell *c = &g->cell[(size_t)y * g->w + x];
			struct ss_cell *s = &t->shown.cell[(size_t)y * g->w + x];
			struct ss_look l;
			wchar_t wc[2];
			cchar_t cc;

			if (memcmp(c, s, sizeof *c) == 0)
				continue;
			*s = *c;
			l = scheme_look(t->scheme, c->role);
			wc[0] = (wchar_t)c->ch;
			wc[1] = 0;
			if (!t->utf8 && c->ch > 0x7e)
				wc[0] = '?';
			setcchar(&cc, wc, term_attr(c->attr | l.attr),
			         t->scheme == SCHEME_MONO ? 0 : (short)(c->role + 1), NULL);
			mvadd_wch(y, x, &cc); /* the bottom-right cell returns ERR but is written */
		}
	wnoutrefresh(stdscr);
	doupdate();
}

int term_key(struct ss_term *t, struct ss_mouse *m)
{
	int k;
	MEVENT ev;

	if (!t->started)
		return -1;
	k = getch();
	switch (k) {
	case ERR:
		return -1;
	case KEY_RESIZE:
		return KEYS_RESIZE;
	case KEY_UP:
		return KEYS_UP;
	case KEY_DOWN:
		return KEYS_DOWN;
	case KEY_LEFT:
		return KEYS_LEFT;
	case KEY_RIGHT:
		return KEYS_RIGHT;
	case KEY_SLEFT:
		return KEYS_SLEFT;
	case KEY_SRIGHT:
		return KEYS_SRIGHT;
	case KEY_PPAGE:
		return KEYS_PPAGE;
	case KEY_NPAGE:
		return KEYS_NPAGE;
	case KEY_HOME:
		return KEYS_HOME;
	case KEY_END:
		return KEYS_END;
	case KEY_BTAB:
		return KEYS_BTAB;
	case KEY_ENTER:
		return KEYS_ENTER;
	case KEY_F(1):
		return KEYS_F1;
	case KEY_F(10):
		return KEYS_F10;
	case KEY_MOUSE:
		if (getmouse(&ev) != OK)
			return -1;
		m->x = ev.x;
		m->y = ev.y;
		if (ev.bstate & BUTTON1_PRESSED)
			m->what = MOUSE_CLICK;
		else if (ev.bstate & BUTTON4_PRESSED)
			m->what = MOUSE_WHEEL_UP;
#ifdef BUTTON5_PRESSED
		else if (ev.bstate & BUTTON5_PRESSED)
			m->what = MOUSE_WHEEL_DOWN;
#endif
		else
			m->what = MOUSE_OTHER;
		return KEYS_MOUSE;
	default:
		return k >= KEY_MIN ? 0 : k; /* an unbound special key: not the end of input */
	}
}
