/* cli.c: subcommand dispatch, experiment options, the run and sweep summaries (text and JSON). */
#include "cli/cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/backends.h"
#include "cli/cli_export.h"
#include "core/analysis.h"
#include "core/atomic.h"
#include "core/planner.h"
#include "core/sigexit.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "io/export/export.h"
#include "model/model.h"
#include "model/predict.h"
#include "run/runner.h"
#include "run/sweep.h"

enum {
	OPT_PRESET = 256,
	OPT_STREAMS,
	OPT_CHUNKS,
	OPT_ELEMENTS,
	OPT_WORK,
	OPT_ORDER,
	OPT_SYNC,
	OPT_DEFSTREAM,
	OPT_STREAM_FLAGS,
	OPT_HOSTMEM,
	OPT_CONNECTIONS,
	OPT_THREADS,
	OPT_REPEAT,
	OPT_WARMUP,
	OPT_BACKEND,
	OPT_JSON,
	OPT_EXPORT,
	OPT_ASCII,
	OPT_PROFILE,
	OPT_QUICK,
	OPT_PREFETCH_EVENTS,
	OPT_OUTPUT,
};

/* An option's bit in the table of which command takes it (-o is OPT_OUTPUT). */
#define CLI_BIT(opt) (1u << ((opt)-OPT_PRESET))
/* The options that describe the experiment. */
#define CLI_EXPERIMENT                                                                                                 \
	(CLI_BIT(OPT_PRESET) | CLI_BIT(OPT_STREAMS) | CLI_BIT(OPT_CHUNKS) | CLI_BIT(OPT_ELEMENTS) |                    \
	 CLI_BIT(OPT_WORK) | CLI_BIT(OPT_ORDER) | CLI_BIT(OPT_SYNC) | CLI_BIT(OPT_DEFSTREAM) |                         \
	 CLI_BIT(OPT_STREAM_FLAGS) | CLI_BIT(OPT_HOSTMEM) | CLI_BIT(OPT_CONNECTIONS) | CLI_BIT(OPT_THREADS) |          \
	 CLI_BIT(OPT_REPEAT) | CLI_BIT(OPT_WARMUP) | CLI_BIT(OPT_PREFETCH_EVENTS))

/* The options one command of cli_parse takes; any other is refused in one line, never silently ignored. */
struct cli_takes {
	const char *cmd;
	unsigned opts;
};

static const struct cli_takes cli_takes[] = {
    {"run", CLI_EXPERIMENT | CLI_BIT(OPT_BACKEND) | CLI_BIT(OPT_PROFILE) | CLI_BIT(OPT_JSON) | CLI_BIT(OPT_EXPORT)},
    {"sweep", CLI_EXPERIMENT | CLI_BIT(OPT_BACKEND) | CLI_BIT(OPT_PROFILE) | CLI_BIT(OPT_JSON)},
    {"ops", (CLI_EXPERIMENT & ~(CLI_BIT(OPT_REPEAT) | CLI_BIT(OPT_WARMUP))) | CLI_BIT(OPT_JSON)},
    {"tui", CLI_EXPERIMENT | CLI_BIT(OPT_BACKEND) | CLI_BIT(OPT_PROFILE) | CLI_BIT(OPT_ASCII)},
    {"view", CLI_BIT(OPT_EXPORT) | CLI_BIT(OPT_ASCII)},
    {"stats", CLI_EXPERIMENT | CLI_BIT(OPT_BACKEND) | CLI_BIT(OPT_PROFILE) | CLI_BIT(OPT_JSON)},
    {"bench", CLI_BIT(OPT_BACKEND) | CLI_BIT(OPT_PROFILE) | CLI_BIT(OPT_QUICK) | CLI_BIT(OPT_OUTPUT)},
};

static const struct option cli_long[] = {
    {"preset", required_argument, NULL, OPT_PRESET},
    {"streams", required_argument, NULL, OPT_STREAMS},
    {"chunks", required_argument, NULL, OPT_CHUNKS},
    {"elements", required_argument, NULL, OPT_ELEMENTS},
    {"work", required_argument, NULL, OPT_WORK},
    {"order", required_argument, NULL, OPT_ORDER},
    {"sync", required_argument, NULL, OPT_SYNC},
    {"default-stream", required_argument, NULL, OPT_DEFSTREAM},
    {"stream-flags", required_argument, NULL, OPT_STREAM_FLAGS},
    {"host-mem", required_argument, NULL, OPT_HOSTMEM},
    {"connections", required_argument, NULL, OPT_CONNECTIONS},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"warmup", required_argument, NULL, OPT_WARMUP},
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"json", no_argument, NULL, OPT_JSON},
    {"export", required_argument, NULL, OPT_EXPORT},
    {"ascii", no_argument, NULL, OPT_ASCII},
    {"profile", required_argument, NULL, OPT_PROFILE},
    {"quick", no_argument, NULL, OPT_QUICK},
    {"prefetch-events", optional_argument, NULL, OPT_PREFETCH_EVENTS},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char cli_usage[] =
    "usage: streamscope [COMMAND] [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  (none)             open the interactive timeline (TUI) on the default experiment\n"
    "  run                run one experiment and print its summary\n"
    "  sweep              run an experiment over stream counts (time, speedup, ideal bound)\n"
    "  ops                print the op list (the exact CUDA calls) of an experiment\n"
    "  view FILE          open a trace (streamscope SQLite/JSON, Nsight Systems SQLite) in the TUI\n"
    "  stats [FILE]       per-kernel and per-copy-kind summaries (as nsys stats) of a trace, or without FILE of\n"
    "                     a run of the experiment the options describe (streamscope stats --help)\n"
    "  calibrate          measure the GPU and write a model profile (-o FILE)\n"
    "  validate           compare the model with the GPU over the preset matrix\n"
    "  bench              run the GPU acceptance checks and print the numbers (on the model: MODELLED, no\n"
    "                     GPU check, exit 3)\n"
    "  record -- APP ...  record any CUDA program's timeline\n"
    "\n"
    "Experiment options:\n"
    "  --preset P          kernel-transfer|decrypt|hyperq|default-stream|sync-order|managed|pageable\n"
    "  --streams N         1..128 (sweep: a list, e.g. 1,2,4,8,16,32,64,128)\n"
    "  --chunks N          cut the data into N chunks (default: one per stream; the last chunk is shorter)\n"
    "  --elements N        data set size in elements (suffixes k, M, G are powers of two)\n"
    "  --work N            kernel work per element (add: inner repeats; decrypt: rounds; spin: iterations)\n"
    "  --order O           depth|breadth (sweep: also both)\n"
    "  --sync S            stream|reverse|device|events\n"
    "  --default-stream D  none|legacy-op|event-timer|per-thread\n"
    "  --stream-flags F    blocking|nonblocking\n"
    "  --host-mem M        pinned|pageable|managed-attach|managed-prefetch\n"
    "  --connections N     hardware queues, CUDA_DEVICE_MAX_CONNECTIONS 1..32\n"
    "  --threads N         host threads: 1, or the stream count (one per stream)\n"
    "  --repeat R          timed repeats 1..1000     --warmup W   untimed runs 0..100\n"
    "  --backend B         auto|cuda|model (auto: the GPU when there is one, else the model)\n"
    "  --profile FILE      model calibration profile (default: the H200 profile); the model's results are\n"
    "                      labelled by the file's name; a file that does not parse or is empty: exit 2\n"
    "  --prefetch-events[=auto|on|off]\n"
    "                      GPU: time each cudaMemPrefetchAsync with cudaEvents on its stream, so prefetches\n"
    "                      are on the timeline (CUPTI records none). The events slow the traced run where\n"
    "                      streams share a hardware queue (the summary shows by how much), so auto (the\n"
    "                      default) turns them on only where every stream has a queue of its own (streams <=\n"
    "                      --connections), up to 8 streams; bare: on\n"
    "Output options:\n"
    "  --json              machine-readable output (JSON on stdout)\n"
    "  --export FILE       write the timeline: .json (Chrome/Perfetto), .sqlite, .csv, .svg, .txt; give it\n"
    "                      again for more files (up to 8, each written; the same file twice: exit 2)\n"
    "  --ascii             TUI: ASCII glyphs only\n"
    "  -h, --help          this help      --version   the version\n"
    "\n"
    "\n"
    "Which command takes which options (any other is refused, exit 2):\n"
    "  run        the experiment options, --backend, --profile, --json, --export FILE\n"
    "  sweep      the experiment options (--streams a list, --order also both), --backend, --profile, --json;\n"
    "             no --export: a sweep has a timeline per point (export one with run --streams N)\n"
    "  ops        the experiment options but --repeat and --warmup (the op list is one run's); --json prints\n"
    "             the op list as JSON\n"
    "  (none)     the experiment options, --backend, --profile, --ascii\n"
    "  view FILE  --export OUT (convert, no TUI) or --ascii\n"
    "  stats      FILE and --json; without FILE the experiment options, --backend, --profile, --json\n"
    "  bench      --backend, --profile, --quick, -o DIR (every timeline and summary.json); on the model each\n"
    "             check says MODELLED (not a GPU check) and bench exits 3: no GPU check ran\n"
    "  calibrate, validate, record: see streamscope COMMAND --help\n"
    "\n"
    "Exit status: 0 ok, 1 a check or export failed, 2 usage error, 3 CUDA/CUPTI failure.\n";

int cli_error(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("streamscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

/* cli_getopt_what describes in buf the option getopt_long stopped at with c ('?' or ':'), as getopt would name it:
 * a short option by its letter (optopt; argv[optind - 1] is not it inside a group like -xh), a long one by the
 * name the user typed (without "=value"), or by its full name when it matched one. */
static void cli_getopt_what(int c, char **argv, const struct option *longopts, char *buf, size_t len)
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

int cli_getopt_error(const char *cmd, int c, char **argv, const struct option *longopts)
{
	char what[256];

	cli_getopt_what(c, argv, longopts, what, sizeof what);
	if (strcmp(cmd, "tui") == 0)
		return cli_error(CLI_USAGE, "%s (see streamscope --help)", what);
	return cli_error(CLI_USAGE, "%s: %s (see streamscope %s --help)", cmd, what, cmd);
}

int cli_profile_load(const char *path, struct ss_profile *p)
{
	char *cause = NULL;
	const char *base = strrchr(path, '/');

	if (profile_load(p, path, &cause) != 0) {
		cli_error(CLI_USAGE, "--profile: %s", cause);
		free(cause);
		return CLI_USAGE;
	}
	/* labels ("MODEL (x profile)") name the file, not the device a built-in default describes */
	base = base != NULL && base[1] != '\0' ? base + 1 : path;
	snprintf(p->name, sizeof p->name, "%s", base);
	return CLI_OK;
}

/* Parses an integer option value in [lo, hi] with an optional k/M/G binary suffix when allow_suffix. */
static int cli_number(const char *opt, const char *s, long long lo, long long hi, bool allow_suffix, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || errno != 0)
		goto bad;
	if (allow_suffix && *end != '\0' && end[1] == '\0') {
		int shift = *end == 'k' || *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : -1;

		/* a negative value is refused before the shift, which would be undefined for it */
		if (shift < 0 || v < 0 || v > (hi >> shift))
			goto bad;
		v <<= shift;
		end++;
	}
	if (*end != '\0' || v < lo || v > hi)
		goto bad;
	*out = v;
	return 0;
bad:
	cli_error(CLI_USAGE, "invalid %s '%s': valid is an integer %lld..%lld%s", opt, s, lo, hi,
	          allow_suffix ? " (suffix k, M or G allowed)" : "");
	return -1;
}

/* Looks a name up with parse; prints the valid list on failure. */
static int cli_enum(const char *opt, const char *s, int (*parse)(const char *), const char *which, int *out)
{
	int v = parse(s);

	if (v < 0) {
		cli_error(CLI_USAGE, "invalid %s '%s': valid is %s", opt, s, experiment_valid_list(which));
		return -1;
	}
	*out = v;
	return 0;
}

/* cli_takes_opts is the set of options cmd takes (every option for a command the table does not list). */
static unsigned cli_takes_opts(const char *cmd)
{
	for (size_t i = 0; i < sizeof cli_takes / sizeof cli_takes[0]; i++)
		if (strcmp(cli_takes[i].cmd, cmd) == 0)
			return cli_takes[i].opts;
	return ~0u;
}

/* cli_refuse prints the line refusing option opt in cmd, with why where a reason helps, and returns CLI_USAGE. */
static int cli_refuse(const char *cmd, int opt)
{
	const char *why = NULL, *name = "-o";
	char where[32];

	for (const struct option *lo = cli_long; lo->name != NULL; lo++)
		if (lo->val == opt)
			name = lo->name;
	if (strcmp(cmd, "sweep") == 0 && opt == OPT_EXPORT)
		why = "a sweep has a timeline per point; export one with 'streamscope run --streams N --export FILE'";
	else if (strcmp(cmd, "run") == 0 && opt == OPT_OUTPUT)
		why = "the timeline goes to --export FILE, the summary to stdout";
	else if (strcmp(cmd, "ops") == 0 && (opt == OPT_REPEAT || opt == OPT_WARMUP))
		why = "the op list is that of one run, whatever the repeats";
	else if (strcmp(cmd, "ops") == 0)
		why = "the op list is planned, not run: no backend, no timeline (--json prints it as JSON)";
	else if (strcmp(cmd, "view") == 0 && (CLI_BIT(opt) & CLI_EXPERIMENT) != 0)
		why = "a trace's experiment is the one it recorded";
	else if (strcmp(cmd, "view") == 0)
		why = "view takes --export FILE (convert) or --ascii (the TUI)";
	else if (strcmp(cmd, "bench") == 0 && (CLI_BIT(opt) & CLI_EXPERIMENT) != 0)
		why = "bench runs its own fixed experiments";
	else if (strcmp(cmd, "bench") == 0)
		why = "-o DIR keeps every timeline and summary.json";
	snprintf(where, sizeof where, strcmp(cmd, "tui") == 0 ? "the TUI" : "'%s'", cmd);
	if (why != NULL)
		return cli_error(CLI_USAGE, "option '%s%s' does not apply to %s: %s", opt == OPT_OUTPUT ? "" : "--",
		                 opt == OPT_OUTPUT ? "-o" : name, where, why);
	return cli_error(CLI_USAGE, "option '%s%s' does not apply to %s (see streamscope --help)",
	                 opt == OPT_OUTPUT ? "" : "--", opt == OPT_OUTPUT ? "-o" : name, where);
}

int cli_parse(const char *cmd, int argc, char **argv, struct cli_opts *o)
{
	unsigned takes = cli_takes_opts(cmd);
	const char *preset = NULL;
	long long v;
	int c, e = 0, given_first = 0;
	unsigned given = 0;
	bool threads_per_stream = false;
	char *cause = NULL;

	memset(o, 0, sizeof *o);
	o->backend = "auto";
	/* The preset sets defaults, so it is applied before any other option whatever its position. */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--preset") == 0 && i + 1 < argc)
			preset = argv[i + 1];
		else if (strncmp(argv[i], "--preset=", 9) == 0)
			preset = argv[i] + 9;
	}
	experiment_preset(&o->exp, SS_PRESET_KERNEL_TRANSFER);
	if (preset != NULL && (takes & CLI_BIT(OPT_PRESET)) == 0)
		return cli_refuse(cmd, OPT_PRESET);
	if (preset != NULL) {
		if (cli_enum("--preset", preset, experiment_preset_parse, "preset", &e) != 0)
			return CLI_USAGE;
		experiment_preset(&o->exp, (enum ss_preset)e);
	}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", cli_long, NULL)) != -1) {
		int opt = c == 'o' ? OPT_OUTPUT : c;

		if (opt >= OPT_PRESET && opt <= OPT_OUTPUT && (takes & CLI_BIT(opt)) == 0)
			return cli_refuse(cmd, opt);
		if (opt >= OPT_PRESET && opt <= OPT_OUTPUT && opt != OPT_JSON && given_first == 0)
			given_first = opt;
		if (opt >= OPT_PRESET && opt <= OPT_OUTPUT)
			given |= CLI_BIT(opt);
		switch (c) {
		case OPT_PRESET:
			break;
		case OPT_STREAMS:
			if (strcmp(cmd, "sweep") == 0) {
				o->counts = optarg;
				break;
			}
			if (cli_number("--streams", optarg, 1, SS_MAX_STREAMS, false, &v) != 0)
				return CLI_USAGE;
			o->exp.streams = (int)v;
			break;
		case OPT_CHUNKS:
			if (cli_number("--chunks", optarg, 0, 65536, false, &v) != 0)
				return CLI_USAGE;
			o->exp.chunks = (int)v;
			break;
		case OPT_ELEMENTS:
			if (cli_number("--elements", optarg, 1, 1ll << 34, true, &v) != 0)
				return CLI_USAGE;
			o->exp.elements = (uint64_t)v;
			break;
		case OPT_WORK:
			if (cli_number("--work", optarg, 1, 100000000, true, &v) != 0)
				return CLI_USAGE;
			o->exp.work = (uint32_t)v;
			break;
		case OPT_ORDER:
			if (strcmp(cmd, "sweep") == 0 && strcmp(optarg, "both") == 0) {
				o->both_orders = true;
				break;
			}
			if (strcmp(cmd, "sweep") == 0 && experiment_order_parse(optarg) < 0)
				return cli_error(CLI_USAGE, "invalid --order '%s': valid is depth|breadth|both",
				                 optarg);
			if (cli_enum("--order", optarg, experiment_order_parse, "order", &e) != 0)
				return CLI_USAGE;
			o->exp.order = (enum ss_order)e;
			break;
		case OPT_SYNC:
			if (cli_enum("--sync", optarg, experiment_sync_parse, "sync", &e) != 0)
				return CLI_USAGE;
			o->exp.sync = (enum ss_sync)e;
			break;
		case OPT_DEFSTREAM:
			if (cli_enum("--default-stream", optarg, experiment_defstream_parse, "default-stream", &e) != 0)
				return CLI_USAGE;
			o->exp.defstream = (enum ss_defstream)e;
			break;
		case OPT_STREAM_FLAGS:
			if (strcmp(optarg, "blocking") == 0)
				o->exp.nonblocking = false;
			else if (strcmp(optarg, "nonblocking") == 0 || strcmp(optarg, "non-blocking") == 0)
				o->exp.nonblocking = true;
			else
				return cli_error(CLI_USAGE,
				                 "invalid --stream-flags '%s': valid is blocking|nonblocking", optarg);
			break;
		case OPT_HOSTMEM:
			if (cli_enum("--host-mem", optarg, experiment_hostmem_parse, "host-mem", &e) != 0)
				return CLI_USAGE;
			o->exp.hostmem = (enum ss_hostmem)e;
			break;
		case OPT_CONNECTIONS:
			if (cli_number("--connections", optarg, 1, SS_MAX_CONNECTIONS, false, &v) != 0)
				return CLI_USAGE;
			o->exp.connections = (int)v;
			break;
		case OPT_THREADS:
			if (cli_number("--threads", optarg, 1, SS_MAX_STREAMS, false, &v) != 0)
				return CLI_USAGE;
			o->exp.threads = (int)v;
			threads_per_stream = v > 1;
			break;
		case OPT_REPEAT:
			if (cli_number("--repeat", optarg, 1, 1000, false, &v) != 0)
				return CLI_USAGE;
			o->exp.repeat = (int)v;
			break;
		case OPT_WARMUP:
			if (cli_number("--warmup", optarg, 0, 100, false, &v) != 0)
				return CLI_USAGE;
			o->exp.warmup = (int)v;
			break;
		case OPT_BACKEND:
			if (strcmp(optarg, "auto") != 0 && strcmp(optarg, "cuda") != 0 && strcmp(optarg, "model") != 0)
				return cli_error(CLI_USAGE, "invalid --backend '%s': valid is auto|cuda|model", optarg);
			o->backend = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_EXPORT:
			if (o->nexports == CLI_MAX_EXPORTS)
				return cli_error(CLI_USAGE, "--export: at most %d files", CLI_MAX_EXPORTS);
			for (int i = 0; i < o->nexports; i++)
				if (strcmp(o->exports[i], optarg) == 0)
					return cli_error(CLI_USAGE, "--export '%s' is given twice", optarg);
			o->exports[o->nexports++] = optarg;
			o->export_path = o->exports[0];
			break;
		case OPT_ASCII:
			o->ascii = true;
			break;
		case OPT_PROFILE:
			o->profile = optarg;
			break;
		case OPT_QUICK:
			o->quick = true;
			break;
		case OPT_PREFETCH_EVENTS:
			if (optarg == NULL)
				e = SS_PFE_ON;
			else if (cli_enum("--prefetch-events", optarg, experiment_pfevents_parse, "prefetch-events",
			                  &e) != 0)
				return CLI_USAGE;
			o->exp.prefetch_events = (enum ss_pfevents)e;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'h':
			fputs(cli_usage, stdout);
			exit(CLI_OK);
		default:
			return cli_getopt_error(cmd, c, argv, cli_long);
		}
	}
	if ((strcmp(cmd, "view") == 0 || strcmp(cmd, "stats") == 0) && optind < argc)
		o->file = argv[optind++];
	/* stats FILE summarises the trace; the experiment options are for stats without FILE, which runs one */
	if (strcmp(cmd, "stats") == 0 && o->file != NULL && (given & ~CLI_BIT(OPT_JSON)) != 0) {
		for (const struct option *lo = cli_long; lo->name != NULL; lo++)
			if (lo->val == given_first)
				return cli_error(
				    CLI_USAGE,
				    "option '--%s' does not apply to 'stats FILE': a trace's experiment is the "
				    "one it recorded (without FILE, stats runs the experiment the options describe)",
				    lo->name);
	}
	if (strcmp(cmd, "view") == 0 && o->export_path != NULL && o->ascii)
		return cli_error(CLI_USAGE, "option '--ascii' does not apply to 'view' with --export: it converts the "
		                            "trace without opening the TUI");
	if (optind < argc)
		return cli_error(CLI_USAGE, "unexpected argument '%s' for '%s' (see streamscope --help)", argv[optind],
		                 cmd);
	/* --threads N > 1 means one thread per stream; the stream count decides N. */
	if (threads_per_stream && o->exp.threads != o->exp.streams && strcmp(cmd, "sweep") != 0)
		return cli_error(CLI_USAGE, "invalid --threads %d: valid is 1 or the stream count (%d)", o->exp.threads,
		                 o->exp.streams);
	if (threads_per_stream && strcmp(cmd, "sweep") == 0)
		o->exp.threads = o->exp.streams;
	for (int i = 0; i < o->nexports; i++) {
		if (export_format_of(o->exports[i]) < 0)
			return cli_error(CLI_USAGE, "cannot export to '%s': unknown extension, valid are %s",
			                 o->exports[i], SS_EXPORT_EXTENSIONS);
		/* checked before any work: a run that cannot be kept is not started */
		if (atomic_check(o->exports[i], &cause) != 0) {
			cli_error(CLI_USAGE, "--export: %s", cause);
			free(cause);
			return CLI_USAGE;
		}
	}
	if (experiment_validate(&o->exp, &cause) != 0) {
		cli_error(CLI_USAGE, "%s", cause);
		free(cause);
		return CLI_USAGE;
	}
	if (o->profile != NULL) {
		struct ss_profile p;

		if (cli_profile_load(o->profile, &p) != 0)
			return CLI_USAGE;
		model_set_profile(&p);
	}
	return CLI_OK;
}

/* Picks the backend of o, printing the note (model fallback) to stderr. NULL + *code on failure. */
static const struct ss_backend *cli_backend(const struct cli_opts *o, int *code)
{
	char note[BACKENDS_NOTE_MAX];
	char *cause = NULL;
	const struct ss_backend *b = backends_pick(o->backend, note, sizeof note, code, &cause);

	if (b == NULL) {
		fprintf(stderr, "streamscope: %s\n", cause);
		free(cause);
		return NULL;
	}
	if (note[0] != '\0')
		fprintf(stderr, "streamscope: %s\n", note);
	return b;
}

/* Runs e and, for speedup and the bound, its 1-stream twin; fills tl, res and a. Returns an exit code. */
static int cli_run_pair(const struct ss_backend *b, const struct ss_experiment *e, struct ss_timeline *tl,
                        struct ss_run_result *res, struct ss_analysis *a)
{
	struct ss_experiment one = *e;
	struct ss_timeline tl1;
	struct ss_run_result res1;
	struct ss_analysis a1;
	struct ss_oplist ops;
	char *cause = NULL;
	int rc;

	rc = runner_run(b, e, tl, res, &cause);
	if (rc != 0) {
		fprintf(stderr, "streamscope: %s\n", cause);
		free(cause);
		return rc;
	}
	analysis_timeline(tl, a);
	analysis_observer(a, res);
	one.streams = 1;
	one.threads = 1;
	one.chunks = 0;
	timeline_init(&tl1);
	if (e->streams == 1 && e->chunks <= 1) {
		a1 = *a;
	} else {
		rc = runner_run(b, &one, &tl1, &res1, &cause);
		if (rc != 0) {
			fprintf(stderr, "streamscope: the 1-stream reference run failed: %s\n", cause);
			free(cause);
			timeline_free(&tl1);
			return rc;
		}
		analysis_timeline(&tl1, &a1);
		analysis_observer(&a1, &res1);
	}
	planner_build(e, &ops);
	analysis_compare(a, &a1, ops.nchunks, a->used_ns, a1.used_ns, planner_work_ratio(&ops, &one));
	planner_free(&ops);
	timeline_free(&tl1);
	return CLI_OK;
}

static const char *const cli_engine_names[SS_ENG_COUNT] = {"H2D", "compute", "D2H"};

/* cli_print_prediction prints pr's lines of the run summary, against measured_ns: the program's makespan (the
 * untraced one when the run timed it: the model models the program as it runs untraced). */
static void cli_print_prediction(const struct ss_prediction *pr, uint64_t measured_ns)
{
	char b1[32], b2[32], b3[32];

	if (!pr->have || measured_ns == 0)
		return;
	printf("model prediction        %s  (%s profile: %+.1f%% vs measured %s)\n",
	       units_time(pr->profile_ns, b1, sizeof b1), pr->profile,
	       100.0 * ((double)pr->profile_ns / (double)measured_ns - 1.0), units_time(measured_ns, b2, sizeof b2));
	if (!pr->have_calls)
		return;
	printf("  with this run's calls %s  (%+.1f%%; calls", units_time(pr->calls_ns, b1, sizeof b1),
	       100.0 * ((double)pr->calls_ns / (double)measured_ns - 1.0));
	if (isfinite(pr->launch_ns))
		printf(" launch %s", units_time((uint64_t)llround(pr->launch_ns), b2, sizeof b2));
	if (isfinite(pr->copy_ns))
		printf(" copy %s", units_time((uint64_t)llround(pr->copy_ns), b3, sizeof b3));
	printf(" untraced, as this process issued them)\n");
}

/* Prints the human summary of one run. */
static void cli_print_run(const struct ss_experiment *e, const struct ss_timeline *tl, const struct ss_run_result *res,
                          const struct ss_analysis *a, const size_t *expected, const struct ss_prediction *pr)
{
	char desc[256], b1[32], b2[32], b3[32];
	const char *label = res->modelled ? "MODELLED" : "measured";

	experiment_describe(e, desc, sizeof desc);
	printf("experiment   %s\n", desc);
	printf("backend      %s (%s)  device %s\n", tl->backend, label, res->device);
	printf("\n%-10s %8s %12s %7s %12s %12s\n", "engine", "count", "busy", "util", "bytes", "bandwidth");
	for (int i = 0; i < SS_ENG_COUNT; i++) {
		const struct ss_engine_stats *s = &a->eng[i];

		printf("%-10s %8llu %12s %6.1f%% %12s %12s\n", cli_engine_names[i], (unsigned long long)s->count,
		       units_time(s->busy_ns, b1, sizeof b1), 100.0 * s->util,
		       i == SS_ENG_COMPUTE ? "-" : units_bytes(s->bytes, b2, sizeof b2),
		       i == SS_ENG_COMPUTE ? "-" : units_rate(s->bytes, s->sum_ns, b3, sizeof b3));
	}
	printf("\nmakespan (%s)        %s", res->modelled ? "model" : "CUPTI",
	       units_time(a->makespan_ns, b1, sizeof b1));
	if (a->staging_ns > 0)
		printf("   (%s of it host staging inside pageable copies' calls, beyond the GPU records)",
		       units_time(a->staging_ns, b2, sizeof b2));
	printf("\n");
	if (a->have_events)
		printf("makespan (cudaEvent)    %s   CUPTI vs events %+.2f%%\n",
		       units_time(a->events_ns, b1, sizeof b1), 100.0 * a->cupti_vs_events);
	if (a->have_events && a->have_events_median && res->repeats > 1)
		printf("                        CUPTI vs events over %d traced repeats: median %+.2f%%\n", res->repeats,
		       100.0 * a->cupti_vs_events_median);
	if (a->have_events && a->cupti_vs_events < -0.01 && e->hostmem == SS_MEM_MANAGED_ATTACH)
		printf(
		    "                        (managed memory: CUPTI records no migrations, its span holds the kernels "
		    "only)\n");
	else if (a->have_events && a->cupti_vs_events < -0.01 && e->hostmem == SS_MEM_MANAGED_PREFETCH &&
	         !res->prefetch_records)
		printf("                        (CUPTI records no prefetches, its span holds the kernels only; "
		       "--prefetch-events=on times them)\n");
	if (a->have_overhead)
		printf("traced / untraced       %s / %s   tracing overhead %+.2f%%%s\n",
		       units_time(a->traced_ns, b1, sizeof b1), units_time(a->untraced_ns, b2, sizeof b2),
		       100.0 * a->overhead,
		       a->span_short      ? "  (CUPTI's span misses work: speedup and bound use untraced makespans)"
		       : a->used_untraced ? "  (> 1%: speedup and bound use untraced makespans)"
		                          : "");
	if (a->have_overhead && a->have_spread)
		printf("overhead per repeat     %+.2f%% .. %+.2f%%  (quartiles of %d traced/untraced pairs, ABBA)\n",
		       100.0 * a->overhead_q1, 100.0 * a->overhead_q3, res->repeats);
	cli_print_prediction(pr, a->have_overhead ? a->untraced_ns : a->makespan_ns);
	printf("overlap (>= 2 engines)  %.1f%%\n", 100.0 * a->overlap);
	if (a->have_speedup && a->work > 1.001)
		printf("speedup vs serial       %.2fx  (the same work on 1 stream: %.0f x the 1-stream run, which does "
		       "1/%.0f of it)\n",
		       a->speedup, a->work, a->work);
	else if (a->have_speedup)
		printf("speedup vs serial       %.2fx  (the same work on 1 stream)\n", a->speedup);
	else
		printf("speedup vs serial       -\n");
	if (a->have_bound)
		printf("ideal pipeline bound    %s  (n=%d, h=%s k=%s d=%s)  gap %+.1f%%\n",
		       units_time(a->bound_ns, b1, sizeof b1), a->n, units_time(a->h_ns, b2, sizeof b2),
		       units_time(a->k_ns, b3, sizeof b3), units_time(a->d_ns, desc, sizeof desc), 100.0 * a->gap);
	else
		printf("ideal pipeline bound    -%s\n",
		       a->span_short ? "  (the 1-stream run's copies are not on its timeline: no h and d)" : "");
	printf("records                 H2D %llu/%zu  KER %llu/%zu  D2H %llu/%zu  API %llu  SYNC %llu  dropped %llu\n",
	       (unsigned long long)a->counts[SS_KIND_H2D], expected[SS_KIND_H2D],
	       (unsigned long long)a->counts[SS_KIND_KERNEL], expected[SS_KIND_KERNEL],
	       (unsigned long long)a->counts[SS_KIND_D2H], expected[SS_KIND_D2H],
	       (unsigned long long)a->counts[SS_KIND_API], (unsigned long long)a->counts[SS_KIND_SYNC],
	       (unsigned long long)res->dropped);
	printf("results verified        %s\n", res->modelled ? "- (modelled)" : res->verified ? "yes" : "NO");
}

/* Adds the analysis of a to a JSON object. */
static void cli_json_analysis(json_t *o, const struct ss_analysis *a)
{
	json_t *eng = json_object();

	json_object_set_new(o, "makespan_ns", json_integer((json_int_t)a->makespan_ns));
	json_object_set_new(o, "staging_ns", json_integer((json_int_t)a->staging_ns));
	json_object_set_new(o, "used_makespan_ns", json_integer((json_int_t)a->used_ns));
	json_object_set_new(o, "used_untraced", json_boolean(a->used_untraced));
	json_object_set_new(o, "span_short", json_boolean(a->span_short));
	json_object_set_new(o, "events_ns", a->have_events ? json_integer((json_int_t)a->events_ns) : json_null());
	json_object_set_new(o, "traced_ns", a->have_overhead ? json_integer((json_int_t)a->traced_ns) : json_null());
	json_object_set_new(o, "untraced_ns",
	                    a->have_overhead ? json_integer((json_int_t)a->untraced_ns) : json_null());
	json_object_set_new(o, "tracing_overhead", a->have_overhead ? json_real(a->overhead) : json_null());
	json_object_set_new(o, "cupti_vs_events", a->have_events ? json_real(a->cupti_vs_events) : json_null());
	json_object_set_new(o, "cupti_vs_events_median",
	                    a->have_events_median ? json_real(a->cupti_vs_events_median) : json_null());
	json_object_set_new(o, "tracing_overhead_q1", a->have_spread ? json_real(a->overhead_q1) : json_null());
	json_object_set_new(o, "tracing_overhead_q3", a->have_spread ? json_real(a->overhead_q3) : json_null());
	json_object_set_new(o, "overlap", json_real(a->overlap));
	json_object_set_new(o, "speedup", a->have_speedup ? json_real(a->speedup) : json_null());
	/* speedup compares the same work issued serially on one stream: work x the 1-stream run's makespan */
	json_object_set_new(o, "speedup_work", a->have_speedup ? json_real(a->work) : json_null());
	json_object_set_new(o, "bound_ns", a->have_bound ? json_integer((json_int_t)a->bound_ns) : json_null());
	json_object_set_new(o, "gap", a->have_bound ? json_real(a->gap) : json_null());
	for (int i = 0; i < SS_ENG_COUNT; i++) {
		json_t *e = json_object();

		json_object_set_new(e, "count", json_integer((json_int_t)a->eng[i].count));
		json_object_set_new(e, "busy_ns", json_integer((json_int_t)a->eng[i].busy_ns));
		json_object_set_new(e, "util", json_real(a->eng[i].util));
		json_object_set_new(e, "bytes", json_integer((json_int_t)a->eng[i].bytes));
		json_object_set_new(eng, cli_engine_names[i], e);
	}
	json_object_set_new(o, "engines", eng);
}

/* The experiment as JSON. */
static json_t *cli_json_experiment(const struct ss_experiment *e)
{
	return json_pack("{s:s, s:s, s:i, s:i, s:I, s:i, s:s, s:s, s:s, s:b, s:s, s:i, s:i, s:i, s:i, s:s, s:b}",
	                 "preset", experiment_preset_name(e->preset), "kernel", experiment_kernel_name(e->kernel),
	                 "streams", e->streams, "chunks", e->chunks, "elements", (json_int_t)e->elements, "work",
	                 (int)e->work, "order", experiment_order_name(e->order), "sync", experiment_sync_name(e->sync),
	                 "default_stream", experiment_defstream_name(e->defstream), "nonblocking", e->nonblocking,
	                 "host_mem", experiment_hostmem_name(e->hostmem), "connections", e->connections, "threads",
	                 e->threads, "repeat", e->repeat, "warmup", e->warmup, "prefetch_events",
	                 experiment_pfevents_name(e->prefetch_events), "prefetch_events_on",
	                 experiment_prefetch_events(e));
}

static int cli_json_print(json_t *root)
{
	int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));

	putchar('\n');
	json_decref(root);
	return rc == 0 ? CLI_OK : CLI_FAIL;
}

static int cli_run(int argc, char **argv)
{
	struct cli_opts o;
	const struct ss_backend *b;
	struct ss_timeline tl;
	struct ss_run_result res;
	struct ss_analysis a;
	struct ss_oplist ops;
	struct ss_prediction pr = {0};
	size_t expected[SS_KIND_COUNT];
	int rc;

	if ((rc = cli_parse("run", argc, argv, &o)) != 0)
		return rc;
	if ((b = cli_backend(&o, &rc)) == NULL)
		return rc;
	timeline_init(&tl);
	rc = cli_run_pair(b, &o.exp, &tl, &res, &a);
	if (rc != 0) {
		timeline_free(&tl);
		return rc;
	}
	planner_build(&o.exp, &ops);
	planner_expected_records(&ops, res.prefetch_records, expected);
	planner_free(&ops);
	if (!res.modelled)
		predict_run(&o.exp, &tl, &pr);
	if (o.json) {
		json_t *root = json_object(), *counts = json_object();

		json_object_set_new(root, "experiment", cli_json_experiment(&o.exp));
		json_object_set_new(root, "backend", json_string(tl.backend));
		json_object_set_new(root, "modelled", json_boolean(res.modelled));
		json_object_set_new(root, "device", json_string(res.device));
		cli_json_analysis(root, &a);
		for (int k = 0; k < SS_KIND_COUNT; k++)
			json_object_set_new(counts, record_kind_name(k), json_integer((json_int_t)a.counts[k]));
		json_object_set_new(root, "counts", counts);
		json_object_set_new(root, "expected",
		                    json_pack("{s:I, s:I, s:I}", "H2D", (json_int_t)expected[SS_KIND_H2D], "KER",
		                              (json_int_t)expected[SS_KIND_KERNEL], "D2H",
		                              (json_int_t)expected[SS_KIND_D2H]));
		json_object_set_new(root, "dropped", json_integer((json_int_t)res.dropped));
		json_object_set_new(root, "verified", res.modelled ? json_null() : json_boolean(res.verified));
		json_object_set_new(root, "predicted_ns",
		                    pr.have ? json_integer((json_int_t)pr.profile_ns) : json_null());
		json_object_set_new(root, "predicted_own_calls_ns",
		                    pr.have_calls ? json_integer((json_int_t)pr.calls_ns) : json_null());
		rc = cli_json_print(root);
	} else {
		cli_print_run(&o.exp, &tl, &res, &a, expected, &pr);
	}
	if (rc == 0)
		rc = cli_export_all(o.exports, o.nexports, &tl, &a, &o.exp);
	timeline_free(&tl);
	return rc;
}

/* Sweep progress on stderr, only for a terminal. */
static void cli_sweep_progress(const struct ss_sweep *s, size_t idx)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r  sweep %zu/%zu: %d stream%s %s-first   ", sweep_progress(s), s->n, s->pt[idx].streams,
	        s->pt[idx].streams == 1 ? "" : "s", experiment_order_name(s->pt[idx].order));
	if (sweep_progress(s) == s->n)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

static void cli_print_sweep(const struct ss_sweep *s)
{
	char desc[256], b1[32], b2[32];

	experiment_describe(&s->base, desc, sizeof desc);
	printf("sweep        %s\n", desc);
	printf("device       %s (%s)\n", s->device, s->modelled ? "MODELLED" : "measured");
	printf("\n%7s", "streams");
	for (int o = 0; o < s->norders; o++)
		printf(" | %-7s %10s %8s %10s %7s %8s", experiment_order_name(s->orders[o]), "time", "speedup", "bound",
		       "gap", "overhead");
	printf("\n");
	for (int i = 0; i < s->ncounts; i++) {
		printf("%7d", s->counts[i]);
		for (int o = 0; o < s->norders; o++) {
			const struct ss_sweep_point *p = &s->pt[(size_t)o * (size_t)s->ncounts + (size_t)i];

			if (p->failed) {
				printf(" | %-54s", p->error);
				continue;
			}
			printf(" | %-7s %10s %7.2fx %10s %+6.1f%% ", "", units_time(p->a.used_ns, b1, sizeof b1),
			       p->a.have_speedup ? p->a.speedup : 0.0,
			       p->a.have_bound ? units_time(p->a.bound_ns, b2, sizeof b2) : "-",
			       p->a.have_bound ? 100.0 * p->a.gap : 0.0);
			if (p->a.have_overhead)
				printf("%+7.2f%%", 100.0 * p->a.overhead);
			else
				printf("%8s", "-");
		}
		printf("\n");
	}
	if (!s->modelled)
		printf(
		    "\ntime is the CUPTI makespan, or the untraced cudaEvent makespan where tracing overhead > 1%%\n");
}

static int cli_sweep(int argc, char **argv)
{
	struct cli_opts o;
	const struct ss_backend *b;
	struct ss_sweep s;
	int counts[SS_SWEEP_MAX_COUNTS], ncounts, rc;
	enum ss_order orders[2];
	char *cause = NULL;

	if ((rc = cli_parse("sweep", argc, argv, &o)) != 0)
		return rc;
	if (sweep_parse_counts(o.counts ? o.counts : "1,2,4,8,16,32,64,128", counts, &ncounts, &cause) != 0) {
		cli_error(CLI_USAGE, "%s", cause);
		free(cause);
		return CLI_USAGE;
	}
	if ((b = cli_backend(&o, &rc)) == NULL)
		return rc;
	orders[0] = o.both_orders ? SS_ORDER_DEPTH : o.exp.order;
	orders[1] = SS_ORDER_BREADTH;
	sweep_init(&s, &o.exp, counts, ncounts, orders, o.both_orders ? 2 : 1);
	rc = sweep_run(&s, b, cli_sweep_progress, &cause);
	if (rc != 0) {
		fprintf(stderr, "\nstreamscope: %s\n", cause);
		free(cause);
		sweep_free(&s);
		return rc;
	}
	if (o.json) {
		json_t *root = json_object(), *pts = json_array();

		json_object_set_new(root, "experiment", cli_json_experiment(&o.exp));
		json_object_set_new(root, "modelled", json_boolean(s.modelled));
		json_object_set_new(root, "device", json_string(s.device));
		for (size_t i = 0; i < s.n; i++) {
			json_t *p = json_object(), *counts_o = json_object();

			json_object_set_new(p, "streams", json_integer(s.pt[i].streams));
			json_object_set_new(p, "order", json_string(experiment_order_name(s.pt[i].order)));
			cli_json_analysis(p, &s.pt[i].a);
			for (int k = 0; k < SS_KIND_COUNT; k++)
				json_object_set_new(counts_o, record_kind_name(k),
				                    json_integer((json_int_t)s.pt[i].a.counts[k]));
			json_object_set_new(p, "counts", counts_o);
			json_object_set_new(p, "expected",
			                    json_pack("{s:I, s:I, s:I}", "H2D",
			                              (json_int_t)s.pt[i].counts_expected[SS_KIND_H2D], "KER",
			                              (json_int_t)s.pt[i].counts_expected[SS_KIND_KERNEL], "D2H",
			                              (json_int_t)s.pt[i].counts_expected[SS_KIND_D2H]));
			json_object_set_new(p, "dropped", json_integer((json_int_t)s.pt[i].dropped));
			json_array_append_new(pts, p);
		}
		json_object_set_new(root, "points", pts);
		rc = cli_json_print(root);
	} else {
		cli_print_sweep(&s);
	}
	sweep_free(&s);
	return rc;
}

/* cli_json_ops is the op list of e as JSON: the experiment, the counts, and one object per op in issue order with
 * the fields of struct ss_op (stream a number, or "legacy" / "per-thread"; chunk, buffer and event null where the op
 * has none) and the line `ops` prints for it. */
static json_t *cli_json_ops(const struct ss_experiment *e, const struct ss_oplist *ops)
{
	static const char *const bufname[3] = {"x", "y", "z"};
	json_t *root = json_object(), *arr = json_array();
	char line[256];

	json_object_set_new(root, "experiment", cli_json_experiment(e));
	json_object_set_new(root, "operations", json_integer((json_int_t)ops->n));
	json_object_set_new(root, "chunks", json_integer(ops->nchunks));
	json_object_set_new(root, "events", json_integer(ops->nevents));
	json_object_set_new(root, "elem_size", json_integer(ops->elem_size));
	for (size_t i = 0; i < ops->n; i++) {
		const struct ss_op *op = &ops->op[i];
		json_t *j = json_object();

		planner_op_describe(ops, op, line, sizeof line);
		json_object_set_new(j, "id", json_integer(op->id));
		json_object_set_new(j, "kind", json_string(planner_op_kind_name(op->kind)));
		json_object_set_new(j, "thread", json_integer(op->thread));
		json_object_set_new(j, "stream",
		                    op->stream >= 0                      ? json_integer(op->stream)
		                    : op->stream == SS_STREAM_LEGACY     ? json_string("legacy")
		                    : op->stream == SS_STREAM_PER_THREAD ? json_string("per-thread")
		                                                         : json_null());
		json_object_set_new(j, "chunk", op->chunk >= 0 ? json_integer(op->chunk) : json_null());
		json_object_set_new(j, "buffer",
		                    op->buffer >= 0 && op->buffer < 3 ? json_string(bufname[op->buffer]) : json_null());
		json_object_set_new(j, "event", op->event >= 0 ? json_integer(op->event) : json_null());
		json_object_set_new(j, "offset", json_integer((json_int_t)op->offset));
		json_object_set_new(j, "count", json_integer((json_int_t)op->count));
		json_object_set_new(j, "bytes", json_integer((json_int_t)planner_op_bytes(ops, op)));
		json_object_set_new(j, "text", json_string(line));
		json_array_append_new(arr, j);
	}
	json_object_set_new(root, "ops", arr);
	return root;
}

static int cli_ops(int argc, char **argv)
{
	struct cli_opts o;
	struct ss_oplist ops;
	char line[256], desc[256];
	int rc;

	if ((rc = cli_parse("ops", argc, argv, &o)) != 0)
		return rc;
	experiment_describe(&o.exp, desc, sizeof desc);
	planner_build(&o.exp, &ops);
	if (o.json) {
		rc = cli_json_print(cli_json_ops(&o.exp, &ops));
		planner_free(&ops);
		return rc;
	}
	printf("# %s\n# %zu operation%s, %d chunk%s, %d event%s\n", desc, ops.n, ops.n == 1 ? "" : "s", ops.nchunks,
	       ops.nchunks == 1 ? "" : "s", ops.nevents, ops.nevents == 1 ? "" : "s");
	for (size_t i = 0; i < ops.n; i++) {
		planner_op_describe(&ops, &ops.op[i], line, sizeof line);
		printf("%s\n", line);
	}
	planner_free(&ops);
	return CLI_OK;
}

/* Subcommands implemented in their own files. */
int cli_tui(int argc, char **argv);
int cli_view(int argc, char **argv);
int cli_stats(int argc, char **argv);
int cli_calibrate(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_record(int argc, char **argv);

/* One subcommand. */
struct cli_command {
	const char *name;
	int (*fn)(int, char **);
};

static const struct cli_command cli_commands[] = {
    {"run", cli_run},           {"sweep", cli_sweep},
    {"ops", cli_ops},           {"view", cli_view},
    {"stats", cli_stats},       {"calibrate", cli_calibrate},
    {"validate", cli_validate}, {"bench", cli_bench},
    {"record", cli_record},     {NULL, NULL},
};

int cli_main(int argc, char **argv)
{
	sigexit_install();
	if (argc >= 2 &&
	    (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
		fputs(cli_usage, stdout);
		return CLI_OK;
	}
	if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		printf("streamscope %s\n", SS_VERSION);
		return CLI_OK;
	}
	if (argc < 2 || argv[1][0] == '-')
		return cli_tui(argc, argv);
	for (const struct cli_command *c = cli_commands; c->name != NULL; c++)
		if (strcmp(argv[1], c->name) == 0)
			return c->fn(argc - 1, argv + 1);
	return cli_error(CLI_USAGE,
	                 "unknown command '%s': valid is run, sweep, ops, view, stats, calibrate, validate, "
	                 "bench, record (or none for the TUI; see --help)",
	                 argv[1]);
}
