/* expopts.c: the experiment options (see expopts.h). */
#include "cli/expopts.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/backends.h"
#include "core/atomic.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "io/export/export.h"
#include "io/import/import.h"
#include "io/import/import_sqlite.h"
#include "model/model.h"
#include "run/runner.h"
#include "run/sweep.h"

/* expopts_profile_load reads the model profile of --profile path into p, labelled by the file's name (p->name).
 * A file that cannot be read, does not parse or is empty is a usage error: one line naming the file and what is
 * wrong, CLI_USAGE. 0 on success. */
static int expopts_profile_load(const char *path, struct ss_profile *p);

int expopts_number(const char *opt, const char *s, long long lo, long long hi, bool allow_suffix, long long *out,
                   char **cause)
{
	if (units_parse_count(s, lo, hi, allow_suffix ? UNITS_SUFFIX : 0, out) == 0)
		return 0;
	*cause = xasprintf("invalid %s '%s': valid is an integer %lld..%lld%s", opt, s, lo, hi,
	                   allow_suffix ? " (suffix k, M or G allowed)" : "");
	return -1;
}

/* expopts_enum looks s up with parse; -1 with *cause naming the valid names (experiment_valid_list(which)). */
static int expopts_enum(const char *opt, const char *s, int (*parse)(const char *), const char *which, int *out,
                        char **cause)
{
	int v = parse(s);

	if (v < 0) {
		*cause = xasprintf("invalid %s '%s': valid is %s", opt, s, experiment_valid_list(which));
		return -1;
	}
	*out = v;
	return 0;
}

/* The integer options: their range, whether k, M, G suffixes are allowed, and the experiment's field they set. */
struct expopts_range {
	enum cmd_opt id;
	long long lo, hi;
	bool suffix;
	size_t offset, size; /* of the field in struct ss_experiment: an int, uint32_t or uint64_t */
};

/* EXPOPTS_FIELD names a field of struct ss_experiment for the table. */
#define EXPOPTS_FIELD(f) offsetof(struct ss_experiment, f), sizeof(((struct ss_experiment *)0)->f)

static const struct expopts_range expopts_ranges[] = {
    {OPT_STREAMS, 1, SS_MAX_STREAMS, false, EXPOPTS_FIELD(streams)},
    {OPT_CHUNKS, 0, 65536, false, EXPOPTS_FIELD(chunks)},
    {OPT_ELEMENTS, 1, 1ll << 34, true, EXPOPTS_FIELD(elements)},
    {OPT_WORK, 1, 100000000, true, EXPOPTS_FIELD(work)},
    {OPT_BLOCK, 0, 1024, false, EXPOPTS_FIELD(block)},
    {OPT_GRID, 0, 0x7fffffff, true, EXPOPTS_FIELD(grid)},
    {OPT_CONNECTIONS, 1, SS_MAX_CONNECTIONS, false, EXPOPTS_FIELD(connections)},
    {OPT_THREADS, 1, SS_MAX_STREAMS, false, EXPOPTS_FIELD(threads)},
    {OPT_REPEAT, 1, 1000, false, EXPOPTS_FIELD(repeat)},
    {OPT_WARMUP, 0, 100, false, EXPOPTS_FIELD(warmup)},
    {OPT_DEVICES, 1, SS_MAX_DEVICES, false, EXPOPTS_FIELD(devices)},
};

/* expopts_store writes v, in range for it (non-negative, below 2^31 but for elements), into the integer field of e
 * that r names: a uint64_t, or a 32-bit int or uint32_t, which hold such a value the same way. */
static void expopts_store(struct ss_experiment *e, const struct expopts_range *r, long long v)
{
	char *field = (char *)e + r->offset;

	if (r->size == sizeof(uint64_t)) {
		uint64_t u = (uint64_t)v;

		memcpy(field, &u, sizeof u);
	} else {
		uint32_t u = (uint32_t)v;

		memcpy(field, &u, sizeof u);
	}
}

/* The options that name one of a list: the parser, and the list's name for experiment_valid_list. */
struct expopts_names {
	enum cmd_opt id;
	int (*parse)(const char *);
	const char *which;
};

static const struct expopts_names expopts_names[] = {
    {OPT_ORDER, experiment_order_parse, "order"},
    {OPT_SYNC, experiment_sync_parse, "sync"},
    {OPT_DEFSTREAM, experiment_defstream_parse, "default-stream"},
    {OPT_HOSTMEM, experiment_hostmem_parse, "host-mem"},
    {OPT_PREFETCH_EVENTS, experiment_pfevents_parse, "prefetch-events"},
    {OPT_KERNEL, experiment_kernel_parse, "kernel"},
    {OPT_SPLIT, experiment_split_parse, "split"},
};

/* expopts_value parses the value of option it: an integer option's in its range, stored in o's experiment (and
 * *n); a named one's into *e. 0 (also for an option that is neither), or -1 with *cause naming the valid values. */
static int expopts_value(struct expopts *o, const struct cmd_item *it, long long *n, int *e, char **cause)
{
	for (size_t i = 0; i < sizeof expopts_ranges / sizeof expopts_ranges[0]; i++) {
		const struct expopts_range *r = &expopts_ranges[i];

		if (r->id != it->id)
			continue;
		if (expopts_number(cmd_option_name(it->id), it->value, r->lo, r->hi, r->suffix, n, cause) != 0) {
			if (it->id == OPT_STREAMS &&
			    strchr(it->value, ',') != NULL) { /* a sweep's list, given to a run */
				char *one = *cause;

				*cause = xasprintf("%s (a list of counts is for 'streamscope sweep')", one);
				free(one);
			}
			return -1;
		}
		expopts_store(&o->exp, r, *n);
		return 0;
	}
	for (size_t i = 0; i < sizeof expopts_names / sizeof expopts_names[0]; i++)
		if (expopts_names[i].id == it->id && it->value != NULL)
			return expopts_enum(cmd_option_name(it->id), it->value, expopts_names[i].parse,
			                    expopts_names[i].which, e, cause);
	return 0;
}

/* expopts_path_key writes into buf (len bytes) where path p names a file: its directory's real path, then its last
 * component (the file itself need not exist yet); p itself when the directory cannot be resolved. */
static void expopts_path_key(const char *p, char *buf, size_t len)
{
	const char *slash = strrchr(p, '/');
	char *dir = xstrdup(slash == NULL ? "." : p), *real;

	if (slash == p)
		dir[1] = '\0'; /* "/" */
	else if (slash != NULL)
		dir[slash - p] = '\0';
	real = realpath(dir, NULL);
	if (real == NULL)
		snprintf(buf, len, "%s", p);
	else
		snprintf(buf, len, "%s/%s", strcmp(real, "/") == 0 ? "" : real, slash == NULL ? p : slash + 1);
	free(real);
	free(dir);
}

/* expopts_same_file: whether paths a and b name the same file however they are spelled (./a.json and a.json, a
 * path through a linked directory). */
static bool expopts_same_file(const char *a, const char *b)
{
	char ka[4096], kb[4096];

	if (strcmp(a, b) == 0)
		return true;
	expopts_path_key(a, ka, sizeof ka);
	expopts_path_key(b, kb, sizeof kb);
	return strcmp(ka, kb) == 0;
}
/* How the last --threads (or threads key) said the host threads. */
enum expopts_threads {
	EXPOPTS_THREADS_PRESET, /* not said: the preset's, one per stream at any stream count when it has more than 1 */
	EXPOPTS_THREADS_ONE,    /* 1 */
	EXPOPTS_THREADS_COUNT,  /* N > 1, which must be the stream count */
	EXPOPTS_THREADS_PER_STREAM, /* per-stream: one per stream, at any stream count (the preset managed-threads') */
};

/* The word for EXPOPTS_THREADS_PER_STREAM. */
#define EXPOPTS_PER_STREAM "per-stream"

/* expopts_apply applies one option (of the command line or an experiment file) of a sweep or not, noting what a
 * --threads said in *threads; 0, or -1 with *cause saying why in one line (the caller frees it). A value points into
 * what outlives o (argv, o->file). */
static int expopts_apply(struct expopts *o, bool sweep, const struct cmd_item *it, enum expopts_threads *threads,
                         char **cause)
{
	const char *v = it->value;
	long long n = 0;
	int e = 0;

	if (it->id == OPT_THREADS && strcasecmp(v, EXPOPTS_PER_STREAM) == 0) {
		*threads = EXPOPTS_THREADS_PER_STREAM;
		return 0;
	}
	if (it->id == OPT_THREADS && units_parse_count(v, 1, SS_MAX_STREAMS, 0, &n) != 0) {
		*cause = xasprintf("invalid --threads '%s': valid is 1, the stream count or " EXPOPTS_PER_STREAM
		                   " (one host thread per stream, at any stream count)",
		                   v);
		return -1;
	}

	/* a sweep's --streams is a list and its --order may be both: the sweep reads them; the list is checked here,
	 * where an experiment file's value gets its line */
	if (sweep && it->id == OPT_STREAMS) {
		int counts[SS_SWEEP_MAX_COUNTS], ncounts;

		if (sweep_parse_counts(v, counts, &ncounts, cause) != 0)
			return -1;
		o->counts = v;
		return 0;
	}
	if (sweep && it->id == OPT_ORDER) { /* the last --order wins, both or one */
		o->both_orders = strcmp(v, "both") == 0;
		if (o->both_orders)
			return 0;
	}
	if (sweep && it->id == OPT_ORDER && experiment_order_parse(v) < 0) {
		*cause = xasprintf("invalid --order '%s': valid is %s|both", v, experiment_valid_list("order"));
		return -1;
	}
	if (expopts_value(o, it, &n, &e, cause) != 0)
		return -1;
	switch (it->id) {
	case OPT_THREADS:
		*threads = n > 1 ? EXPOPTS_THREADS_COUNT : EXPOPTS_THREADS_ONE;
		break;
	case OPT_ORDER:
		o->exp.order = (enum ss_order)e;
		break;
	case OPT_SYNC:
		o->exp.sync = (enum ss_sync)e;
		break;
	case OPT_KERNEL:
		o->exp.kernel = (enum ss_kernel)e;
		o->exp.elem_size = o->exp.kernel == SS_KERNEL_DECRYPT ? 8 : 4;
		break;
	case OPT_SPLIT:
		o->exp.split = (enum ss_split)e;
		break;
	case OPT_DEFSTREAM:
		o->exp.defstream = (enum ss_defstream)e;
		break;
	case OPT_HOSTMEM:
		o->exp.hostmem = (enum ss_hostmem)e;
		break;
	case OPT_PREFETCH_EVENTS:
		o->exp.prefetch_events = v == NULL ? SS_PFE_ON : (enum ss_pfevents)e; /* bare: on */
		break;
	case OPT_PEER: /* bare: on */
		if (v != NULL && strcmp(v, "on") != 0 && strcmp(v, "off") != 0) {
			*cause = xasprintf("invalid --peer '%s': valid is on|off (bare: on)", v);
			return -1;
		}
		o->exp.peer = v == NULL || strcmp(v, "on") == 0;
		break;
	case OPT_STREAM_FLAGS:
		if (strcmp(v, "blocking") != 0 && strcmp(v, "nonblocking") != 0 && strcmp(v, "non-blocking") != 0) {
			*cause = xasprintf("invalid --stream-flags '%s': valid is blocking|nonblocking", v);
			return -1;
		}
		o->exp.nonblocking = strcmp(v, "blocking") != 0;
		break;
	case OPT_BACKEND:
		if (strcmp(v, "auto") != 0 && strcmp(v, "cuda") != 0 && strcmp(v, "model") != 0) {
			*cause = xasprintf("invalid --backend '%s': valid is auto|cuda|model", v);
			return -1;
		}
		o->backend = v;
		break;
	case OPT_EXPORT:
		if (o->nexports == EXPOPTS_MAX_EXPORTS) {
			*cause = xasprintf("--export: at most %d files", EXPOPTS_MAX_EXPORTS);
			return -1;
		}
		for (int i = 0; i < o->nexports; i++)
			if (expopts_same_file(o->exports[i], v)) {
				*cause = strcmp(o->exports[i], v) == 0
				             ? xasprintf("--export '%s' is given twice", v)
				             : xasprintf("--export '%s' is given twice (as '%s')", v, o->exports[i]);
				return -1;
			}
		o->exports[o->nexports++] = v;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_ASCII:
		o->ascii = true;
		break;
	case OPT_QUICK:
		o->quick = true;
		break;
	case OPT_PROFILE:
		o->profile = v;
		break;
	case OPT_OUTPUT:
		o->out = v;
		break;
	default:
		/* the preset (applied first, by expopts_parse), and a command's own options (record's, validate's):
		 * read by the command itself */
		break;
	}
	return 0;
}

/* expopts_at returns "PATH:LINE: why" for an error in an experiment file's entry en, freeing why. */
static char *expopts_at(const struct expfile *f, const struct expfile_entry *en, char *why)
{
	char *cause = xasprintf("%s:%d: %s", f->path, en->line, why);

	free(why);
	return cause;
}

/* expopts_preset sets o's experiment to the preset's defaults: f's preset key when there is a file f, else the last
 * --preset of a, kernel-transfer when neither names one. A --preset with a file is refused: the file's experiment is
 * its own preset (its key, or kernel-transfer) changed by its keys, so another base under them would be labelled
 * one preset and run another's values. 0, or -1 with *cause. */
static int expopts_preset(struct expopts *o, const struct cmd_args *a, const struct expfile *f, char **cause)
{
	const struct expfile_entry *fp = f != NULL ? expfile_find(f, OPT_PRESET) : NULL;
	const char *v = NULL;
	int p = SS_PRESET_KERNEL_TRANSFER;

	for (int i = 0; a != NULL && i < a->nitem; i++)
		if (a->item[i].id == OPT_PRESET)
			v = a->item[i].value;
	if (f != NULL && v != NULL) {
		*cause =
		    xasprintf("--preset %s with the experiment file %s: the file's preset key is the base its values "
		              "change; write preset = %s in the file, or give --preset %s without the file",
		              v, f->path, v, v);
		return -1;
	}
	if (fp != NULL && expopts_enum("--preset", fp->value, experiment_preset_parse, "preset", &p, cause) != 0) {
		*cause = expopts_at(f, fp, *cause);
		return -1;
	}
	if (v != NULL && expopts_enum("--preset", v, experiment_preset_parse, "preset", &p, cause) != 0)
		return -1;
	experiment_preset(&o->exp, (enum ss_preset)p);
	return 0;
}

/* expopts_apply_file applies f's keys but the preset (expopts_preset's) to o in file order, each through
 * expopts_apply, the command line's parsers; *threads_at becomes f's threads entry when it has one. 0, or -1 with
 * *cause "PATH:LINE: " and the value's error. */
static int expopts_apply_file(struct expopts *o, bool sweep, const struct expfile *f, enum expopts_threads *threads,
                              const struct expfile_entry **threads_at, char **cause)
{
	/* the step program first: an interleave is the order unless an order key or option after says otherwise */
	o->exp.nsteps = f->nsteps;
	memcpy(o->exp.step, f->step, sizeof o->exp.step);
	o->exp.ninter = f->ninter;
	memcpy(o->exp.inter, f->inter, sizeof o->exp.inter);
	if (f->ninter > 0)
		o->exp.order = SS_ORDER_INTERLEAVE;
	for (int i = 0; i < f->nentry; i++) {
		const struct expfile_entry *en = &f->entry[i];
		struct cmd_item it = {en->id, en->value};

		/* a sweep runs its own counts over the file's experiment: the file's streams are its list only when
		 * they are one (streams = 1,2,4), as run refuses them; one count is checked all the same */
		if (en->id == OPT_PRESET)
			continue;
		if (sweep && en->id == OPT_STREAMS && strchr(en->value, ',') == NULL) {
			int counts[SS_SWEEP_MAX_COUNTS], ncounts;

			if (sweep_parse_counts(en->value, counts, &ncounts, cause) == 0)
				continue;
			*cause = expopts_at(f, en, *cause);
			return -1;
		}
		if (expopts_apply(o, sweep, &it, threads, cause) != 0) {
			*cause = expopts_at(f, en, *cause);
			return -1;
		}
		if (en->id == OPT_THREADS)
			*threads_at = en;
	}
	return 0;
}

/* expopts_assemble fills o from the preset (expopts_preset), f's keys (f NULL: no file), then a's options in order
 * (a NULL: none; its --experiment, f, skipped): an option on the command line changes the file's value wherever it
 * is written. Then it applies the threads rule: --threads N > 1 means one thread per stream, N the stream count (a
 * sweep's decides it); --threads per-stream, and a preset of more than one thread, one per stream at whatever the
 * stream count is. 0, or -1 with *cause. */
static int expopts_assemble(struct expopts *o, const struct cmd_args *a, bool sweep, const struct expfile *f,
                            char **cause)
{
	const struct expfile_entry *threads_at = NULL;
	enum expopts_threads threads = EXPOPTS_THREADS_PRESET;

	if (expopts_preset(o, a, f, cause) != 0)
		return -1;
	if (f != NULL && expopts_apply_file(o, sweep, f, &threads, &threads_at, cause) != 0)
		return -1;
	for (int i = 0; a != NULL && i < a->nitem; i++) {
		if (a->item[i].id == OPT_EXPERIMENT)
			continue;
		if (expopts_apply(o, sweep, &a->item[i], &threads, cause) != 0)
			return -1;
		if (a->item[i].id == OPT_THREADS)
			threads_at = NULL;
	}
	if (threads == EXPOPTS_THREADS_COUNT && o->exp.threads != o->exp.streams && !sweep) {
		*cause = xasprintf("invalid --threads %d: valid is 1, the stream count (%d) or " EXPOPTS_PER_STREAM
		                   " (one host thread per stream, at any stream count)",
		                   o->exp.threads, o->exp.streams);
		if (threads_at != NULL)
			*cause = expopts_at(f, threads_at, *cause);
		return -1;
	}
	/* one per stream: said so, a sweep's N > 1 (each point's count), a preset of one per stream (managed-threads)
	 */
	if (threads == EXPOPTS_THREADS_PER_STREAM || (threads == EXPOPTS_THREADS_COUNT && sweep) ||
	    (threads == EXPOPTS_THREADS_PRESET && o->exp.threads > 1))
		o->exp.threads = o->exp.streams;
	/* a step program's elements are its kernels' (--kernel sets the preset's) */
	if (o->exp.nsteps > 0)
		o->exp.elem_size = experiment_program_elem_size(&o->exp);
	if (!experiment_uses_kernel(&o->exp))
		for (int i = 0; a != NULL && i < a->nitem; i++)
			if (a->item[i].id == OPT_KERNEL) {
				*cause =
				    xasprintf("--kernel %s: every kernel step of %s names its own kernel, so --kernel "
				              "changes none (name it on a step line, or leave the step's kernel out)",
				              a->item[i].value, f != NULL ? f->path : "the step program");
				return -1;
			}
	return 0;
}

int expopts_experiment(const struct expfile *f, struct ss_experiment *e, char **cause)
{
	struct expopts o;

	memset(&o, 0, sizeof o);
	if (expopts_assemble(&o, NULL, false, f, cause) != 0)
		return -1;
	*e = o.exp;
	return 0;
}

/* expopts_read fills o from a and the experiment file, a's positional FILE when its command takes one
 * (CMD_EXPFILE_ARG) or its --experiment FILE, the command line's options changing it wherever they are
 * (expopts_assemble). 0, or -1 with *cause (the caller frees): the file given twice, or what expfile_read or
 * expopts_assemble refuse. Nothing is checked beyond them. */
static int expopts_read(const struct cmd_args *a, struct expopts *o, char **cause)
{
	const char *path = (a->entry->flags & CMD_EXPFILE_ARG) && a->npos > 0 ? a->pos[0] : NULL;

	memset(o, 0, sizeof *o);
	o->backend = "auto";
	for (int i = 0; i < a->nitem; i++) {
		if (a->item[i].id != OPT_EXPERIMENT)
			continue;
		if (path != NULL) {
			*cause = xasprintf("the experiment is given twice, as '%s' and '%s': give one file", path,
			                   a->item[i].value);
			return -1;
		}
		path = a->item[i].value;
	}
	if (path != NULL && expfile_read(path, &o->file, cause) != 0)
		return -1;
	return expopts_assemble(o, a, strcmp(a->entry->name, "sweep") == 0, path != NULL ? &o->file : NULL, cause);
}

int expopts_reread(const struct cmd_args *a, struct ss_experiment *e, char **cause)
{
	struct expopts o;

	if (expopts_read(a, &o, cause) != 0 || experiment_validate(&o.exp, cause) != 0)
		return -1;
	*e = o.exp;
	return 0;
}

int expopts_parse(const struct cmd_args *a, struct expopts *o)
{
	char *cause = NULL;

	if (expopts_read(a, o, &cause) != 0) {
		cmd_error(CLI_USAGE, "%s", cause);
		free(cause);
		return CLI_USAGE;
	}
	for (int i = 0; i < o->nexports; i++) {
		if (export_format_of(o->exports[i]) < 0)
			return cmd_error(CLI_USAGE, "cannot export to '%s': unknown extension, valid are %s",
			                 o->exports[i], SS_EXPORT_EXTENSIONS);
		/* checked before any work: a run that cannot be kept is not started */
		if (atomic_check(o->exports[i], &cause) != 0) {
			cmd_error(CLI_USAGE, "--export: %s", cause);
			free(cause);
			return CLI_USAGE;
		}
	}
	if (experiment_validate(&o->exp, &cause) != 0) {
		cmd_error(CLI_USAGE, "%s", cause);
		free(cause);
		return CLI_USAGE;
	}
	if (o->profile != NULL) {
		struct ss_profile p;

		if (expopts_profile_load(o->profile, &p) != 0)
			return CLI_USAGE;
		model_set_profile(&p);
	}
	return CLI_OK;
}

const struct ss_backend *expopts_backend(const struct expopts *o, int *code)
{
	char note[BACKENDS_NOTE_MAX];
	char *cause = NULL;
	const struct ss_backend *b = backends_pick(o->backend, note, sizeof note, code, &cause);

	if (b == NULL) {
		cmd_error(*code, "%s", cause);
		free(cause);
		return NULL;
	}
	if (note[0] != '\0')
		cmd_error(0, "%s", note);
	return b;
}

/* expopts_profile_load loads --profile's file into p, named after the file (its labels say "MODEL (x.profile)").
 * Returns CLI_OK, or CLI_USAGE after one line naming the file's problem. */
static int expopts_profile_load(const char *path, struct ss_profile *p)
{
	char *cause = NULL;
	const char *base = strrchr(path, '/');

	if (profile_load(p, path, &cause) != 0) {
		cmd_error(CLI_USAGE, "--profile: %s", cause);
		free(cause);
		return CLI_USAGE;
	}
	/* labels ("MODEL (x profile)") name the file, not the device a built-in default describes */
	base = base != NULL && base[1] != '\0' ? base + 1 : path;
	snprintf(p->name, sizeof p->name, "%s", base);
	return CLI_OK;
}

int expopts_export_file(const char *path, const struct ss_timeline *tl, const struct ss_analysis *a,
                        const struct ss_experiment *e)
{
	struct ss_export_input in;
	char *cause = NULL;

	if (export_format_of(path) < 0)
		return cmd_error(CLI_USAGE, "cannot export to '%s': unknown extension, valid are %s", path,
		                 SS_EXPORT_EXTENSIONS);
	memset(&in, 0, sizeof in);
	in.t = tl;
	in.a = a;
	in.e = e;
	if (export_file(path, &in, &cause) != 0) {
		cmd_error(CLI_FAIL, "%s", cause);
		free(cause);
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* expopts_export_all writes tl to every --export FILE of o with experiment e (NULL: none). */
static int expopts_export_all(const struct expopts *o, const struct ss_timeline *tl, const struct ss_analysis *a,
                              const struct ss_experiment *e)
{
	int rc = CLI_OK;

	for (int i = 0; i < o->nexports; i++) {
		int r = expopts_export_file(o->exports[i], tl, a, e);

		if (rc == CLI_OK)
			rc = r;
	}
	return rc;
}

int expopts_export(const struct expopts *o, const struct ss_timeline *tl, const struct ss_analysis *a)
{
	return expopts_export_all(o, tl, a, &o->exp);
}

int expopts_export_trace(const struct expopts *o, const struct ss_timeline *tl, const struct ss_analysis *a)
{
	return expopts_export_all(o, tl, a, NULL);
}

const struct ss_backend *expopts_measure_backend(const char *name, int *code)
{
	char note[BACKENDS_NOTE_MAX];
	char *cause = NULL;
	const struct ss_backend *b;

	if (strcmp(name, "cuda") != 0 && strcmp(name, "model") != 0) {
		*code = cmd_error(CLI_USAGE, "invalid --backend '%s': valid is cuda|model", name);
		return NULL;
	}
	b = backends_pick(name, note, sizeof note, code, &cause);
	if (b == NULL) {
		cmd_error(*code, "%s", cause);
		free(cause);
	}
	return b;
}

int expopts_model_profile(const char *path, struct ss_profile *p)
{
	char *cause = NULL;

	if (path != NULL)
		return expopts_profile_load(path, p) == 0 ? 0 : -1;
	if (profile_default(p, &cause) != 0) {
		cmd_error(CLI_USAGE, "%s", cause);
		free(cause);
		return -1;
	}
	return 0;
}

bool expopts_stored_experiment(const char *file, const struct ss_timeline *tl, struct ss_experiment *e)
{
	char *cause = NULL;
	bool own = false;
	int found = import_sqlite_experiment(file, e, &own, &cause);

	free(cause); /* not one of streamscope's SQLite traces: no experiment, and the trace is read all the same */
	for (size_t i = 0; found == 1 && own && i < tl->n; i++)
		if (tl->rec[i].device > 0)
			return false;
	return found == 1 && own;
}

int expopts_import(const char *file, struct ss_timeline *tl)
{
	struct expfile *f;
	char *cause = NULL, *why = NULL;
	int rc = CLI_FAIL;

	if (import_file(file, tl, &cause) == 0)
		return CLI_OK;
	/* no trace: an experiment file is named as one, with the commands that take it */
	f = xmalloc(sizeof *f);
	if (expfile_read(file, f, &why) == 0) {
		free(cause);
		cause =
		    xasprintf("%s is an experiment file, not a trace: run it with 'streamscope run %s' (stats, analyze "
		              "and the TUI take it as --experiment %s)",
		              file, file, file);
		rc = CLI_USAGE;
	}
	free(why);
	free(f);
	cmd_error(rc, "%s", cause);
	free(cause);
	return rc;
}

/* expopts_run runs the experiment of o on its backend into tl; a line of what it was goes to what. 0 or an
 * exit code. */
int expopts_run(const struct expopts *o, const char *file, struct ss_timeline *tl, char *what, size_t len)
{
	char desc[256];
	struct ss_run_result res;
	char *cause = NULL;
	const struct ss_backend *b;
	int rc;

	if (file != NULL) {
		if ((rc = expopts_import(file, tl)) != CLI_OK)
			return rc;
		snprintf(what, len, "trace %s", file);
		return CLI_OK;
	}
	if ((b = expopts_backend(o, &rc)) == NULL)
		return rc;
	if ((rc = runner_run(b, &o->exp, tl, &res, &cause)) != 0) {
		cmd_error(rc, "%s", cause);
		free(cause);
		return rc;
	}
	tl->modelled = tl->modelled || res.modelled;
	if (tl->device[0] == '\0')
		snprintf(tl->device, sizeof tl->device, "%s", res.device);
	experiment_describe(&o->exp, desc, sizeof desc);
	snprintf(what, len, "experiment %s (%s, %s)", desc, tl->backend, res.modelled ? "MODELLED" : "measured");
	return CLI_OK;
}
