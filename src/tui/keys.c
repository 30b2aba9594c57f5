/* keys.c: the key map (htop/less-like) and its help text. */
#include "tui/keys.h"

#include <stddef.h>

static const struct ss_key keys_map[] = {
    {'o', ACT_ORDER, "o", "toggle order, re-run", KG_EXPERIMENT, true},
    {'y', ACT_SYNC, "y", "cycle sync order", KG_EXPERIMENT, true},
    {'d', ACT_DEFSTREAM, "d", "cycle default-stream mode", KG_EXPERIMENT, true},
    {'m', ACT_HOSTMEM, "m", "cycle host memory", KG_EXPERIMENT, true},
    {'u', ACT_QUEUES, "u", "cycle hw queues 1..32", KG_EXPERIMENT, true},
    {'t', ACT_THREADS, "t", "1 thread / 1 per stream", KG_EXPERIMENT, true},
    {'v', ACT_PREFETCH_EVENTS, "v", "cycle prefetch events", KG_EXPERIMENT, true},
    {'w', ACT_PRESET, "w", "cycle workload preset", KG_EXPERIMENT, true},
    {'+', ACT_STREAMS_UP, "+ -", "one stream more / less", KG_EXPERIMENT, true},
    {'=', ACT_STREAMS_UP, NULL, NULL, KG_EXPERIMENT, true},
    {'-', ACT_STREAMS_DOWN, NULL, NULL, KG_EXPERIMENT, true},
    {'>', ACT_STREAMS_DOUBLE, "> <", "double / halve streams", KG_EXPERIMENT, true},
    {'<', ACT_STREAMS_HALVE, NULL, NULL, KG_EXPERIMENT, true},
    {'r', ACT_RERUN, "r R", "re-run / re-read the file", KG_EXPERIMENT, true},
    {'R', ACT_REREAD, NULL, NULL, KG_EXPERIMENT, true},
    {KEYS_LEFT, ACT_PAN_LEFT, "Left h", "pan left", KG_MOVE, false},
    {'h', ACT_PAN_LEFT, NULL, NULL, KG_MOVE, false},
    {KEYS_RIGHT, ACT_PAN_RIGHT, "Right l", "pan right", KG_MOVE, false},
    {'l', ACT_PAN_RIGHT, NULL, NULL, KG_MOVE, false},
    {'H', ACT_PAGE_LEFT, "H L", "pan a screen left / right", KG_MOVE, false},
    {KEYS_SLEFT, ACT_PAGE_LEFT, NULL, NULL, KG_MOVE, false},
    {'L', ACT_PAGE_RIGHT, NULL, NULL, KG_MOVE, false},
    {KEYS_SRIGHT, ACT_PAGE_RIGHT, NULL, NULL, KG_MOVE, false},
    {KEYS_HOME, ACT_START, "Home End", "go to the start / end", KG_MOVE, false},
    {KEYS_END, ACT_END, NULL, NULL, KG_MOVE, false},
    {'z', ACT_ZOOM_IN, "z Z", "zoom in / out", KG_MOVE, false},
    {'Z', ACT_ZOOM_OUT, NULL, NULL, KG_MOVE, false},
    {'f', ACT_FIT, "f F", "fit GPU work / all", KG_MOVE, false},
    {'F', ACT_FIT_ALL, NULL, NULL, KG_MOVE, false},
    {KEYS_UP, ACT_SCROLL_UP, "Up Down", "scroll the lanes", KG_MOVE, false},
    {KEYS_DOWN, ACT_SCROLL_DOWN, NULL, NULL, KG_MOVE, false},
    {KEYS_PPAGE, ACT_PAGE_UP, "PgUp PgDn", "scroll the lanes a page", KG_MOVE, false},
    {KEYS_NPAGE, ACT_PAGE_DOWN, NULL, NULL, KG_MOVE, false},
    {'\t', ACT_NEXT, "Tab ]", "next interval on the lane", KG_SELECT, false},
    {']', ACT_NEXT, NULL, NULL, KG_SELECT, false},
    {KEYS_BTAB, ACT_PREV, "S-Tab [", "previous interval", KG_SELECT, false},
    {'[', ACT_PREV, NULL, NULL, KG_SELECT, false},
    {'j', ACT_LANE_DOWN, "j k", "select lane below / above", KG_SELECT, false},
    {'k', ACT_LANE_UP, NULL, NULL, KG_SELECT, false},
    {KEYS_ENTER, ACT_ZOOM_SEL, "Enter", "zoom to the selection", KG_SELECT, false},
    {'\n', ACT_ZOOM_SEL, NULL, NULL, KG_SELECT, false},
    {'\r', ACT_ZOOM_SEL, NULL, NULL, KG_SELECT, false},
    {KEYS_ESC, ACT_CLOSE, "Esc", "unselect, close a view", KG_SELECT, false},
    {'p', ACT_PIN, "p", "A/B: pin, compare next", KG_VIEWS, true},
    {'s', ACT_SWEEP, "s", "sweep the stream counts", KG_VIEWS, true},
    {'c', ACT_COMPACT, "c", "compact: a row per stream", KG_VIEWS, false},
    {'S', ACT_SUMMARY, "S i a", "summary/insights/advice", KG_VIEWS, false},
    {'i', ACT_INSIGHTS, NULL, NULL, KG_VIEWS, false},
    {'a', ACT_ADVISE, NULL, NULL, KG_VIEWS, false},
    {'C', ACT_CLAIMS, "C", "the documents' claims", KG_VIEWS, false},
    {'e', ACT_EXPORT, "e", "export a snapshot", KG_VIEWS, false},
    {'?', ACT_HELP, "? F1", "this help", KG_GENERAL, false},
    {KEYS_F1, ACT_HELP, NULL, NULL, KG_GENERAL, false},
    {12, ACT_REDRAW, "^L", "redraw the screen", KG_GENERAL, false},
    {'q', ACT_QUIT, "q F10", "quit", KG_GENERAL, false},
    {KEYS_F10, ACT_QUIT, NULL, NULL, KG_GENERAL, false},
};

static const char *const keys_groups[KG_COUNT] = {
    [KG_EXPERIMENT] = "Experiment", [KG_MOVE] = "Move",       [KG_SELECT] = "Select",
    [KG_VIEWS] = "Views",           [KG_GENERAL] = "General",
};

enum ss_action keys_action(int key)
{
	for (size_t i = 0; i < sizeof keys_map / sizeof keys_map[0]; i++)
		if (keys_map[i].key == key)
			return keys_map[i].act;
	return ACT_NONE;
}

const struct ss_key *keys_table(int *n)
{
	*n = (int)(sizeof keys_map / sizeof keys_map[0]);
	return keys_map;
}

const char *keys_group_name(enum ss_keygroup g)
{
	return g < KG_COUNT ? keys_groups[g] : "";
}

bool keys_experiment(enum ss_action act)
{
	for (size_t i = 0; i < sizeof keys_map / sizeof keys_map[0]; i++)
		if (keys_map[i].act == act)
			return keys_map[i].experiment;
	return false;
}

const char *keys_status_sweep(void)
{
	return "Enter open the point  Left Right point  Up Down order  C claims  Esc close  ? help  q quit";
}

const char *keys_status(bool file)
{
	if (file)
		return "q quit  ? help  z/Z zoom  f fit  h/l pan  Tab select  c compact  e export";
	return "q quit  ? help  o order  r rerun  z/Z zoom  f fit  Tab select  p pin  s sweep  e export";
}

const char *keys_mouse(void)
{
	return "click select, wheel zoom";
}
