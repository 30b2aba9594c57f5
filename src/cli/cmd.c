/* cmd.c: the option table, the command table, the one option parser and the help made from them. */
#include "cli/cmd.h"

#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sigexit.h"
#include "core/xalloc.h"
#include "io/export/export.h"

/* cmd_parse parses argv (argv[0] is the command's name) against e's options. On success fills a (free it with
 * cmd_args_free) and returns 0. Otherwise prints one line naming the problem and what is valid (getopt's words:
 * "unknown option '-x'", "option '--json' takes no value", "option '--streams' needs a value" (also when the word
 * after it is an option, cmd_option_word: --streams --backend model), an ambiguous abbreviation with its
 * candidates; an option of another command: that it does not apply here, and why) and returns CLI_USAGE; after
 * printing e's help for -h or --help, returns -1 (exit 0). */
static int cmd_parse(const struct cmd_entry *e, int argc, char **argv, struct cmd_args *a);
/* cmd_args_free releases what cmd_parse allocated in a. */
static void cmd_args_free(struct cmd_args *a);
/* cmd_help prints the help of e to f: its usage line, summary, options (the command's words for them, else the
 * option's) and help text; for the default command also the command list. */
static void cmd_help(const struct cmd_entry *e, FILE *f);
/* cmd_refuse prints the line refusing option id in e (with e's reason for it, if any) and returns CLI_USAGE. */
static int cmd_refuse(const struct cmd_entry *e, enum cmd_opt id);

/* Every option, once. A command's cmd_use may put its own words for one. */
static const struct cmd_option cmd_options[] = {
    {OPT_PRESET, "preset", 0, CMD_ARG_REQUIRED, "P",
     "kernel-transfer, decrypt, hyperq, default-stream, sync-order, managed, pageable, vector-add or\n"
     "managed-threads (the source documents' experiments; it sets the defaults the other options change,\n"
     "wherever it is given; not with an experiment file, whose preset key is its base)"},
    {OPT_EXPERIMENT, "experiment", 0, CMD_ARG_REQUIRED, "FILE",
     "the experiment of an INI file: an [experiment] section whose keys are these options' long names\n"
     "(streams = 8, elements = 4M); the other options change it, before or after it (examples/ has every\n"
     "preset as one)"},
    {OPT_STREAMS, "streams", 0, CMD_ARG_REQUIRED, "N", "1..128 streams"},
    {OPT_CHUNKS, "chunks", 0, CMD_ARG_REQUIRED, "N",
     "cut the data into N chunks, 0..65536 (default: one per stream; the last chunk is shorter)"},
    {OPT_ELEMENTS, "elements", 0, CMD_ARG_REQUIRED, "N",
     "data set size in elements, 1..2^34 (suffixes k, M, G are powers of two)"},
    {OPT_WORK, "work", 0, CMD_ARG_REQUIRED, "N",
     "kernel work per element, 1..100000000 (add, fma: inner repeats; decrypt: rounds; spin: iterations)"},
    {OPT_KERNEL, "kernel", 0, CMD_ARG_REQUIRED, "K",
     "add|decrypt|spin|fma|task: document 001's add (the sum stored `work` times), document 000's\n"
     "decrypt, hyperq's one-thread spin, a compute-bound chain of FMAs, or document 004's task (transform,\n"
     "host_process, convert on managed memory attached to the stream; default: the preset's)"},
    {OPT_BLOCK, "block", 0, CMD_ARG_REQUIRED, "N",
     "threads per block 1..1024 (0: the kernel's own: add 128, fma 256, decrypt 64)"},
    {OPT_GRID, "grid", 0, CMD_ARG_REQUIRED, "N",
     "blocks per launch (0: enough to cover the chunk; decrypt's grid-stride loop covers any chunk)"},
    {OPT_SPLIT, "split", 0, CMD_ARG_REQUIRED, "S",
     "ceil|floor: chunks of ceil(n/chunks) with a shorter last one (document 000's sdiv), or of\n"
     "floor(n/chunks) with the remainder in the last one (document 003's tail)"},
    {OPT_ORDER, "order", 0, CMD_ARG_REQUIRED, "O",
     "depth|breadth|best|weaker: each stream's work in turn, each stage in turn, or document 003's\n"
     "two orders (best: a stream's kernel issued after the next stream's first copy; weaker: every copy\n"
     "in, the kernels in reverse)"},
    {OPT_SYNC, "sync", 0, CMD_ARG_REQUIRED, "S",
     "stream|reverse|device|events|stop-event (stop-event: document 001's start and stop events on the\n"
     "legacy stream with cudaEventQuery(start) after the start, the host waiting for stop)"},
    {OPT_DEFSTREAM, "default-stream", 0, CMD_ARG_REQUIRED, "D", "none|legacy-op|event-timer|per-thread|get-last-error"},
    {OPT_STREAM_FLAGS, "stream-flags", 0, CMD_ARG_REQUIRED, "F", "blocking|nonblocking"},
    {OPT_HOSTMEM, "host-mem", 0, CMD_ARG_REQUIRED, "M", "pinned|pageable|managed-attach|managed-prefetch"},
    {OPT_CONNECTIONS, "connections", 0, CMD_ARG_REQUIRED, "N", "hardware queues, CUDA_DEVICE_MAX_CONNECTIONS 1..32"},
    {OPT_THREADS, "threads", 0, CMD_ARG_REQUIRED, "N",
     "host threads: 1, the stream count (one per stream), or per-stream (one per stream at any stream\n"
     "count, as the managed-threads preset has them)"},
    {OPT_REPEAT, "repeat", 0, CMD_ARG_REQUIRED, "R", "timed repeats 1..1000"},
    {OPT_WARMUP, "warmup", 0, CMD_ARG_REQUIRED, "W", "untimed runs before them 0..100"},
    {OPT_PREFETCH_EVENTS, "prefetch-events", 0, CMD_ARG_OPTIONAL, "auto|on|off",
     "GPU: time each cudaMemPrefetchAsync with cudaEvents on its stream, so prefetches are on the\n"
     "timeline (CUPTI records none). The events slow the traced run where streams share a hardware\n"
     "queue (the summary shows by how much), so auto (the default) turns them on only where every\n"
     "stream has a queue of its own (streams <= --connections), up to 8 streams; bare: on"},
    {OPT_DEVICES, "devices", 0, CMD_ARG_REQUIRED, "N",
     "GPUs 1..8: each gets --streams streams of its own and the chunks go round all of them (the model\n"
     "shares the host link between them; the CUDA backend runs one device)"},
    {OPT_PEER, "peer", 0, CMD_ARG_OPTIONAL, "on|off",
     "with --devices 2..8: each chunk, after its kernel, is moved to the next GPU by a peer copy and\n"
     "processed there by a second kernel, which copies it back; bare: on"},
    {OPT_BACKEND, "backend", 0, CMD_ARG_REQUIRED, "B",
     "auto|cuda|model (auto: the GPU when there is one, else the model)"},
    {OPT_PROFILE, "profile", 0, CMD_ARG_REQUIRED, "FILE",
     "model calibration profile (default: the H200 profile); the model's results are labelled by the\n"
     "file's name; a file that does not parse or is empty: exit 2"},
    {OPT_JSON, "json", 0, CMD_ARG_NONE, NULL, "machine-readable output (JSON on stdout)"},
    {OPT_EXPORT, "export", 0, CMD_ARG_REQUIRED, "FILE",
     "write the timeline in the format the extension names: " SS_EXPORT_EXTENSIONS_HELP "; give it again\n"
     "for more files (up to 8, each written; the same file twice: exit 2)"},
    {OPT_ASCII, "ascii", 0, CMD_ARG_NONE, NULL, "ASCII glyphs only"},
    {OPT_OUTPUT, "output", 'o', CMD_ARG_REQUIRED, "FILE", "write the result to FILE"},
    {OPT_QUICK, "quick", 0, CMD_ARG_NONE, NULL, "a smaller matrix"},
    {OPT_CSV, "csv", 0, CMD_ARG_REQUIRED, "FILE", "write the rows to FILE (after every row)"},
    {OPT_CHECK, "check", 0, CMD_ARG_REQUIRED, "FILE[,FILE...]", "compare the model with measured CSVs"},
    {OPT_FIT, "fit", 0, CMD_ARG_REQUIRED, "KEY=LO:HI[,...]", "fit profile keys to the measured rows"},
    {OPT_RESUME, "resume", 0, CMD_ARG_NONE, NULL, "keep the measured rows the --csv FILE already has"},
    {OPT_LIVE, "live", 0, CMD_ARG_NONE, NULL, "show the Gantt while the program runs"},
    {OPT_CHILDREN, "children", 0, CMD_ARG_NONE, NULL, "also record the CUDA processes the program starts"},
    {OPT_TWIN, "twin", 0, CMD_ARG_NONE, NULL, "also run the program once untraced and store both times"},
    {OPT_VERIFY, "verify", 0, CMD_ARG_NONE, NULL, "measure on the GPU what the model predicts"},
    {OPT_REFERENCE, "reference", 0, CMD_ARG_REQUIRED, "LIST",
     "only the comparison with the documents' own programs, of these presets (comma list)"},
    {OPT_ROUNDS, "rounds", 0, CMD_ARG_REQUIRED, "N",
     "rounds of each point of the comparison with the documents' programs, 1..31 (default: 5, decrypt 2;\n"
     "--quick: 3, decrypt 2)"},
    {OPT_HELP, "help", 'h', CMD_ARG_NONE, NULL, "this help"},
};

/* The commands, in the order `streamscope --help` lists them; the default command (the TUI) first. */
static const struct cmd_entry *const cmd_table[] = {
    &cmd_tui_entry,      &cmd_run_entry,   &cmd_sweep_entry,   &cmd_claims_entry, &cmd_ops_entry,
    &cmd_view_entry,     &cmd_stats_entry, &cmd_analyze_entry, &cmd_advise_entry, &cmd_calibrate_entry,
    &cmd_validate_entry, &cmd_bench_entry, &cmd_record_entry,  &cmd_keys_entry,
};
#define CMD_NTABLE (sizeof cmd_table / sizeof cmd_table[0])

/* The exit statuses of most commands. */
static const char cmd_exits[] = "0 ok, 1 a check or export failed, 2 usage error, 3 CUDA/CUPTI failure";

/* cmd_option returns the table entry of id (every id has one). */
static const struct cmd_option *cmd_option(enum cmd_opt id)
{
	for (size_t i = 0; i < sizeof cmd_options / sizeof cmd_options[0]; i++)
		if (cmd_options[i].id == id)
			return &cmd_options[i];
	abort(); /* an id without an entry: a programming error the tests catch at once */
}

const char *cmd_option_name(enum cmd_opt id)
{
	static char buf[OPT_COUNT][40];
	const struct cmd_option *o = cmd_option(id);

	snprintf(buf[id], sizeof buf[id], "--%s", o->name);
	return buf[id];
}

/* cmd_takes returns e's use of id (the last entry for it: a command's own words after a CMD_USES_* list), NULL
 * when e does not take it. --help is taken by every command. */
static const struct cmd_use *cmd_takes(const struct cmd_entry *e, enum cmd_opt id)
{
	static const struct cmd_use help = {OPT_HELP, NULL, NULL};
	const struct cmd_use *found = NULL;

	if (id == OPT_HELP)
		return &help;
	for (const struct cmd_use *u = e->uses; u != NULL && u->id != OPT_NONE; u++)
		if (u->id == id)
			found = u;
	return found;
}

/* cmd_first tells whether u is the first entry of its option in e's uses (the one help shows it at). */
static bool cmd_first(const struct cmd_entry *e, const struct cmd_use *u)
{
	for (const struct cmd_use *v = e->uses; v != u; v++)
		if (v->id == u->id)
			return false;
	return true;
}

/* cmd_where names e in messages: "'run'", or "the TUI" for the default command. */
static const char *cmd_where(const struct cmd_entry *e, char *buf, size_t len)
{
	if (*e->name == '\0')
		snprintf(buf, len, "the TUI");
	else
		snprintf(buf, len, "'%s'", e->name);
	return buf;
}

/* cmd_see writes where help for e is: "streamscope run --help". */
static const char *cmd_see(const struct cmd_entry *e, char *buf, size_t len)
{
	snprintf(buf, len, "streamscope%s%s --help", *e->name != '\0' ? " " : "", e->name);
	return buf;
}

int cmd_error(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("streamscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

static int cmd_refuse(const struct cmd_entry *e, enum cmd_opt id)
{
	const struct cmd_option *o = cmd_option(id);
	const char *why = NULL;
	char where[32], see[64], name[40];

	for (const struct cmd_refusal *r = e->refusals; r != NULL && r->why != NULL && why == NULL; r++)
		if (r->id == id)
			why = r->why;
	for (const struct cmd_refusal *r = e->refusals; r != NULL && r->why != NULL && why == NULL; r++)
		if (r->id == OPT_NONE)
			why = r->why;
	/* an option with a letter is refused by it, whichever spelling was typed: "-o" */
	if (o->letter != 0)
		snprintf(name, sizeof name, "-%c", o->letter);
	else
		snprintf(name, sizeof name, "--%s", o->name);
	cmd_where(e, where, sizeof where);
	if (why != NULL)
		return cmd_error(CLI_USAGE, "option '%s' does not apply to %s: %s", name, where, why);
	return cmd_error(CLI_USAGE, "option '%s' does not apply to %s (see %s)", name, where,
	                 cmd_see(e, see, sizeof see));
}

/* cmd_letter finds the option whose short letter is c (any command's): OPT_NONE when none. */
static enum cmd_opt cmd_letter(int c)
{
	for (size_t i = 0; i < sizeof cmd_options / sizeof cmd_options[0]; i++)
		if (c != 0 && cmd_options[i].letter == c)
			return cmd_options[i].id;
	return OPT_NONE;
}

/* cmd_other finds the option of another command the user typed at arg ("--name", "--name=v", "--na" when that
 * abbreviates one option only, or a short option's letter c): OPT_NONE when there is none. */
static enum cmd_opt cmd_other(const char *arg, int c)
{
	const struct cmd_option *hit = NULL;
	size_t n;
	int matches = 0;

	if (strncmp(arg, "--", 2) != 0)
		return cmd_letter(c);
	n = strcspn(arg + 2, "=");
	for (size_t i = 0; i < sizeof cmd_options / sizeof cmd_options[0]; i++) {
		const struct cmd_option *o = &cmd_options[i];

		if (strncmp(o->name, arg + 2, n) != 0)
			continue;
		if (strlen(o->name) == n)
			return o->id;
		hit = o;
		matches++;
	}
	return matches == 1 ? hit->id : OPT_NONE;
}

/* cmd_option_word: whether word is a long option of any command as the user would type it ("--backend",
 * "--back", "--backend=model"): a required value that is such a word is not the value but the next option, the
 * value having been left out (--streams --backend model). A word starting with one dash (-3, -1k, -file) or naming
 * no option (--my.json) can still be a value. */
static bool cmd_option_word(const char *word)
{
	return strncmp(word, "--", 2) == 0 && cmd_other(word, 0) != OPT_NONE;
}

/* cmd_value_word: whether word is one of the words of values ("auto|on|off"; NULL: none). */
static bool cmd_value_word(const char *values, const char *word)
{
	size_t n = strlen(word);

	for (const char *v = values; v != NULL && n > 0;) {
		size_t k = strcspn(v, "|");

		if (k == n && strncmp(v, word, n) == 0)
			return true;
		v = v[k] == '|' ? v + k + 1 : NULL;
	}
	return false;
}

/* cmd_getopt_what describes in buf the option getopt_long stopped at with c ('?' or ':'), as getopt would name it:
 * a short option by its letter (optopt; argv[optind - 1] is not it inside a group like -xh), a long one by the
 * name the user typed (without "=value"), or by its full name when it matched one. */
static void cmd_getopt_what(int c, char **argv, const struct option *longopts, char *buf, size_t len)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const struct option *lo = NULL;
	size_t n = 0, matches = 0;

	if (strncmp(arg, "--", 2) == 0) {
		n = strcspn(arg + 2, "=");
		for (const struct option *o = longopts; o->name != NULL; o++)
			if (strncmp(o->name, arg + 2, n) == 0 && (optopt == 0 || o->val == optopt)) {
				/* an exact name wins over the longer ones it is a prefix of */
				if (lo == NULL || strlen(o->name) == n)
					lo = o;
				matches++;
			}
	}
	if (lo != NULL && optopt != 0) {
		snprintf(buf, len, c == ':' ? "option '--%s' needs a value" : "option '--%s' takes no value", lo->name);
	} else if (strncmp(arg, "--", 2) == 0 && optopt == 0 && matches > 1) {
		size_t k = (size_t)snprintf(buf, len, "option '--%.*s' is ambiguous:", (int)n, arg + 2);

		for (const struct option *o = longopts; o->name != NULL && k < len; o++)
			if (strncmp(o->name, arg + 2, n) == 0)
				k += (size_t)snprintf(buf + k, len - k, " --%s", o->name);
	} else if (strncmp(arg, "--", 2) == 0 && optopt == 0) {
		snprintf(buf, len, "unknown option '--%.*s'", (int)n, arg + 2);
	} else if (isprint(optopt)) {
		snprintf(buf, len, c == ':' ? "option '-%c' needs a value" : "unknown option '-%c'", optopt);
	} else {
		snprintf(buf, len, "unknown option (byte 0x%02x)", (unsigned)optopt & 0xff);
	}
}

/* cmd_usage_error prints the one line of a usage error in e's options, what it is ("option '--streams' needs a
 * value") with the command's name and where its help is. Returns CLI_USAGE. */
static int cmd_usage_error(const struct cmd_entry *e, const char *what)
{
	char see[64];

	cmd_see(e, see, sizeof see);
	if (*e->name == '\0')
		return cmd_error(CLI_USAGE, "%s (see %s)", what, see);
	return cmd_error(CLI_USAGE, "%s: %s (see %s)", e->name, what, see);
}

/* cmd_getopt_error prints the one line for getopt_long's error c in e's options; an option another command takes
 * is refused with why it does not apply here. Returns CLI_USAGE. */
static int cmd_getopt_error(const struct cmd_entry *e, int c, char **argv, const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	char what[256];
	enum cmd_opt other = OPT_NONE;

	/* a short option in a group (-xh) is not argv[optind - 1] itself: look it up by its letter */
	if (c == '?' && (strncmp(arg, "--", 2) != 0 || optopt == 0))
		other = cmd_other(strncmp(arg, "--", 2) == 0 ? arg : "", optopt);
	if (other != OPT_NONE && cmd_takes(e, other) == NULL)
		return cmd_refuse(e, other);
	cmd_getopt_what(c, argv, longopts, what, sizeof what);
	return cmd_usage_error(e, what);
}

/* cmd_missing_value prints the line for option id whose value was left out, the option named as the user typed it
 * (word: "--streams", "--str", "-o", "-qo"), as getopt names an option at the end of the line. Returns CLI_USAGE. */
static int cmd_missing_value(const struct cmd_entry *e, enum cmd_opt id, const char *word)
{
	const struct cmd_option *o = cmd_option(id);
	char what[128];

	if (strncmp(word, "--", 2) == 0 || o->letter == 0)
		snprintf(what, sizeof what, "option '--%s' needs a value", o->name);
	else
		snprintf(what, sizeof what, "option '-%c' needs a value", o->letter);
	return cmd_usage_error(e, what);
}

/* cmd_parse parses argv (argv[0] the command's word) against the options e takes, built from the one option table:
 * into a the options in the order given and the positional arguments, which must number e->minargs..e->maxargs.
 * A required value that is itself an option word is refused as missing; --help prints e's help and returns -1.
 * Returns 0, or -1 / CLI_USAGE after one line on stderr; a is freed unless it returns 0. */
static int cmd_parse(const struct cmd_entry *e, int argc, char **argv, struct cmd_args *a)
{
	struct option *lo = xcalloc(OPT_COUNT + 1, sizeof *lo);
	char shorts[2 + 2 * OPT_COUNT + 1], see[64];
	size_t nlo = 0, ns = 0;
	int c, rc = 0;

	memset(a, 0, sizeof *a);
	a->entry = e;
	a->item = xcalloc((size_t)argc + 1, sizeof *a->item);
	if (e->flags & CMD_STOP_AT_ARG)
		shorts[ns++] = '+';
	shorts[ns++] = ':';
	for (int id = 1; id < OPT_COUNT; id++) {
		const struct cmd_option *o;

		if (cmd_takes(e, (enum cmd_opt)id) == NULL)
			continue;
		o = cmd_option((enum cmd_opt)id);
		lo[nlo].name = o->name;
		lo[nlo].has_arg = o->arg == CMD_ARG_NONE       ? no_argument
		                  : o->arg == CMD_ARG_REQUIRED ? required_argument
		                                               : optional_argument;
		lo[nlo].val = 1000 + id;
		nlo++;
		if (o->letter != 0) {
			shorts[ns++] = o->letter;
			if (o->arg == CMD_ARG_REQUIRED)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	optind = 1;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		enum cmd_opt id = OPT_NONE;

		if (c >= 1000)
			id = (enum cmd_opt)(c - 1000);
		else
			for (size_t i = 0; i < sizeof cmd_options / sizeof cmd_options[0] && c != '?' && c != ':'; i++)
				if (cmd_options[i].letter == c)
					id = cmd_options[i].id;
		if (id == OPT_NONE) {
			rc = cmd_getopt_error(e, c, argv, lo);
		} else if (cmd_option(id)->arg == CMD_ARG_REQUIRED && optind >= 2 && optarg == argv[optind - 1] &&
		           cmd_option_word(optarg)) {
			/* the value is the next word (not --name=value nor -oVALUE), and that word is an option */
			rc = cmd_missing_value(e, id, argv[optind - 2]);
		} else if (id == OPT_HELP) {
			cmd_help(e, stdout);
			rc = -1;
		} else {
			a->item[a->nitem].id = id;
			a->item[a->nitem].value = optarg;
			/* --prefetch-events off as --prefetch-events=off: a bare optional value takes the next word
			 * when it is one of the option's values */
			if (optarg == NULL && optind < argc && cmd_option(id)->arg == CMD_ARG_OPTIONAL &&
			    cmd_value_word(cmd_option(id)->value, argv[optind]))
				a->item[a->nitem].value = argv[optind++];
			a->nitem++;
		}
	}
	if (rc == 0) {
		a->pos = argv + optind;
		a->npos = argc - optind;
		if (a->npos < e->minargs) {
			rc = cmd_error(CLI_USAGE, "%s needs %s: streamscope %s %s (see %s)", e->name, e->args, e->name,
			               e->args, cmd_see(e, see, sizeof see));
		} else if (e->maxargs >= 0 && a->npos > e->maxargs) {
			if (*e->name == '\0')
				rc = cmd_error(CLI_USAGE, "unknown command or unexpected argument '%s' (see %s)",
				               a->pos[e->maxargs], cmd_see(e, see, sizeof see));
			else
				rc = cmd_error(CLI_USAGE, "unexpected argument '%s' for '%s' (see %s)",
				               a->pos[e->maxargs], e->name, cmd_see(e, see, sizeof see));
		}
	}
	free(lo);
	if (rc != 0)
		cmd_args_free(a);
	return rc;
}

static void cmd_args_free(struct cmd_args *a)
{
	free(a->item);
	a->item = NULL;
	a->nitem = 0;
}

bool cmd_has(const struct cmd_args *a, enum cmd_opt id, const char **value)
{
	bool found = false;

	for (int i = 0; i < a->nitem; i++)
		if (a->item[i].id == id) {
			found = true;
			if (value != NULL)
				*value = a->item[i].value;
		}
	return found;
}

/* The width help is wrapped to: an 80-column terminal. */
#define CMD_HELP_WIDTH 79

/* cmd_help_text prints text wrapped at CMD_HELP_WIDTH, from column col (where the line already is) and at indent on
 * every further line, then a newline. A newline in text is a space; two start a new paragraph (a blank line). */
static void cmd_help_text(FILE *f, const char *text, int col, int indent)
{
	const char *s = text;
	bool first = true;

	while (*s != '\0') {
		size_t n;

		if (*s == ' ' || *s == '\n') {
			if (s[0] == '\n' && s[1] == '\n') {
				fprintf(f, "\n\n%*s", indent, "");
				col = indent;
				first = true;
				s += 2;
				continue;
			}
			s++;
			continue;
		}
		n = strcspn(s, " \n");
		if (!first && col + 1 + (int)n > CMD_HELP_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			first = true;
		}
		col += fprintf(f, "%s%.*s", first ? "" : " ", (int)n, s);
		first = false;
		s += n;
	}
	fputc('\n', f);
}

/* cmd_help_option prints one option line (name, value, help) of use u. */
static void cmd_help_option(FILE *f, const struct cmd_use *u)
{
	const struct cmd_option *o = cmd_option(u->id);
	const char *value = u->value != NULL ? u->value : o->value;
	const char *help = u->help != NULL ? u->help : o->help;
	char name[64];
	int k = 0;

	if (o->letter != 0)
		k = snprintf(name, sizeof name, "-%c, ", o->letter);
	k += snprintf(name + k, sizeof name - (size_t)k, "--%s", o->name);
	if (value != NULL && o->arg == CMD_ARG_OPTIONAL)
		snprintf(name + k, sizeof name - (size_t)k, "[=%s]", value);
	else if (value != NULL)
		snprintf(name + k, sizeof name - (size_t)k, " %s", value);
	if (strlen(name) > 19)
		fprintf(f, "  %s\n%22s", name, "");
	else
		fprintf(f, "  %-20s", name);
	cmd_help_text(f, help, 22, 22);
}

/* cmd_help writes e's help to f, generated from the tables: usage, summary, (at the top level) every command's
 * summary, the options e takes as its uses list them (each once), e's own text and its exit statuses. */
static void cmd_help(const struct cmd_entry *e, FILE *f)
{
	static const struct cmd_use help = {OPT_HELP, NULL, NULL};
	bool top = *e->name == '\0';

	if (top)
		fprintf(f, "usage: streamscope [COMMAND | FILE] [OPTIONS]\n\n");
	else
		fprintf(f, "usage: streamscope %s [OPTIONS]%s%s\n\n", e->name, *e->args != '\0' ? " " : "", e->args);
	cmd_help_text(f, e->summary, 0, 0);
	if (top)
		fprintf(f, "\nCommands:\n");
	for (size_t i = 0; top && i < CMD_NTABLE; i++) {
		const struct cmd_entry *c = cmd_table[i];
		char name[64];

		if (*c->name == '\0')
			continue;
		snprintf(name, sizeof name, "%s%s%s", c->name, *c->args != '\0' ? " " : "", c->args);
		if (strlen(name) > 19)
			fprintf(f, "  %s\n%22s", name, "");
		else
			fprintf(f, "  %-20s", name);
		cmd_help_text(f, c->summary, 22, 22);
	}
	fprintf(f,
	        top ? "\nOptions (of the TUI; `streamscope COMMAND --help` shows a command's own):\n" : "\nOptions:\n");
	for (const struct cmd_use *u = e->uses; u != NULL && u->id != OPT_NONE; u++)
		if (cmd_first(e, u))
			cmd_help_option(f, cmd_takes(e, u->id));
	cmd_help_option(f, &help);
	if (top)
		fprintf(f, "  --version           the version\n");
	if (e->help != NULL) {
		fputc('\n', f);
		cmd_help_text(f, e->help, 0, 0);
	}
	fputc('\n', f);
	cmd_help_text(f, "Exit status:", 0, 2);
	fprintf(f, "  ");
	cmd_help_text(f, e->exits != NULL ? e->exits : cmd_exits, 2, 2);
}

/* cmd_find returns the command named name, NULL when there is none. */
static const struct cmd_entry *cmd_find(const char *name)
{
	for (size_t i = 0; i < CMD_NTABLE; i++)
		if (*cmd_table[i]->name != '\0' && strcmp(cmd_table[i]->name, name) == 0)
			return cmd_table[i];
	return NULL;
}

/* cmd_is_expfile: a FILE the TUI is given is an experiment file when its name ends in .ini (as examples/ has
 * them); any other is a trace, opened as view opens it. */
static bool cmd_is_expfile(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && strcmp(path + n - 4, ".ini") == 0;
}

/* cmd_file_arg returns the first word of argv[1..argc) that is no option nor an option's value, NULL when there is
 * none. Values are told by every command's options together (--export's value is skipped wherever it stands), so the
 * FILE is found before the command that parses the options is chosen; a word that is itself an option is no value
 * (cmd_option_word), as cmd_parse has it. */
static const char *cmd_file_arg(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		enum cmd_opt id;

		if (strcmp(w, "--") == 0)
			return i + 1 < argc ? argv[i + 1] : NULL;
		if (w[0] != '-' || w[1] == '\0')
			return w;
		if (w[1] == '-') {
			id = cmd_other(w, 0);
			if (id != OPT_NONE && cmd_option(id)->arg == CMD_ARG_REQUIRED && strchr(w, '=') == NULL &&
			    i + 1 < argc && !cmd_option_word(argv[i + 1]))
				i++;
			continue;
		}
		/* a group of letters (-xo FILE, -oFILE): the first that takes a value takes the rest or the next word
		 */
		for (const char *c = w + 1; *c != '\0'; c++) {
			id = cmd_letter((unsigned char)*c);
			if (id != OPT_NONE && cmd_option(id)->arg == CMD_ARG_REQUIRED) {
				i += c[1] == '\0' && i + 1 < argc && !cmd_option_word(argv[i + 1]);
				break;
			}
		}
	}
	return NULL;
}

/* cmd_run parses argv for e and runs it. */
static int cmd_run(const struct cmd_entry *e, int argc, char **argv)
{
	struct cmd_args a;
	int rc = cmd_parse(e, argc, argv, &a);

	if (rc != 0)
		return rc < 0 ? CLI_OK : rc;
	rc = e->exec(&a);
	cmd_args_free(&a);
	return rc;
}

int cmd_main(int argc, char **argv)
{
	const struct cmd_entry *e;
	char names[256];
	size_t k = 0;

	sigexit_install();
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		cmd_help(&cmd_tui_entry, stdout);
		return CLI_OK;
	}
	if (argc >= 2 && strcmp(argv[1], "help") == 0) {
		e = argc >= 3 ? cmd_find(argv[2]) : &cmd_tui_entry;
		if (e == NULL)
			return cmd_error(CLI_USAGE, "help: unknown command '%s' (see streamscope --help)", argv[2]);
		cmd_help(e, stdout);
		return CLI_OK;
	}
	if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		printf("streamscope %s\n", SS_VERSION);
		return CLI_OK;
	}
	/* options first: the FILE still decides, a trace opening in view, whose parser refuses what it does not take */
	if (argc < 2 || argv[1][0] == '-') {
		const char *file = cmd_file_arg(argc, argv);

		return cmd_run(file != NULL && !cmd_is_expfile(file) ? &cmd_view_entry : &cmd_tui_entry, argc, argv);
	}
	if ((e = cmd_find(argv[1])) != NULL)
		return cmd_run(e, argc - 1, argv + 1);
	/* a file where the command goes opens as less opens one: an experiment file in the TUI, a trace in view (its
	 * options, --export, parsed as view's), whose readers name what is wrong with it. A word with a '.' or a '/'
	 * is a file even when there is none by that name, so that the reader says so. */
	if (strpbrk(argv[1], "./") != NULL || access(argv[1], F_OK) == 0)
		return cmd_run(cmd_is_expfile(argv[1]) ? &cmd_tui_entry : &cmd_view_entry, argc, argv);
	for (size_t i = 0; i < CMD_NTABLE && k < sizeof names; i++)
		if (*cmd_table[i]->name != '\0')
			k += (size_t)snprintf(names + k, sizeof names - k, "%s%s", k > 0 ? ", " : "",
			                      cmd_table[i]->name);
	return cmd_error(CLI_USAGE, "unknown command '%s': valid is %s (or none for the TUI; see streamscope --help)",
	                 argv[1], names);
}
