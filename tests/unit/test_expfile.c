/* test_expfile.c: experiment files (src/cli/expfile.c read with libinih, applied by expopts): every example under
 * examples/ is exactly its preset's experiment, field by field, and says every value itself; the format (comments,
 * blanks, CRLF and CR, a byte order mark, key: value); the preset first wherever it is; values through the command
 * line's parsers and messages; every error one line naming the file, the line and what is valid. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/expfile.h"
#include "cli/expopts.h"
#include "core/experiment.h"
#include "core/planner.h"

/* The keys of [experiment], as the unknown-key message lists them: the experiment options of CMD_USES_EXPERIMENT
 * but --experiment, in that order. */
static const char all_keys[] = "preset, streams, chunks, elements, work, kernel, block, grid, split, order, sync, "
                               "default-stream, stream-flags, host-mem, connections, threads, prefetch-events, "
                               "devices, peer, repeat, warmup";
#define NKEYS 21

/* example_path writes the path of examples/name into buf. */
static const char *example_path(const char *name, char *buf, size_t len)
{
	const char *src = getenv("SS_SOURCE_DIR");

	snprintf(buf, len, "%s/examples/%s", src != NULL ? src : SS_SOURCE_DIR, name);
	return buf;
}

/* parse parses text as file "t.ini" into e; 0, or -1 with the cause in *cause. */
static int parse(const char *text, struct ss_experiment *e, char **cause)
{
	struct expfile f;

	*cause = NULL;
	if (expfile_parse("t.ini", text, strlen(text), &f, cause) != 0)
		return -1;
	return expopts_experiment(&f, e, cause);
}

/* parse_ok parses text, failing the test with the cause when it does not. */
static struct ss_experiment parse_ok(const char *text)
{
	struct ss_experiment e;
	char *cause = NULL;

	if (parse(text, &e, &cause) != 0)
		fail_msg("'%s' refused: %s", text, cause);
	return e;
}

/* expect_cause parses text and expects it refused with exactly the cause want. */
static void expect_cause(const char *text, const char *want)
{
	struct ss_experiment e;
	char *cause = NULL;

	if (parse(text, &e, &cause) == 0)
		fail_msg("'%s' accepted, want: %s", text, want);
	if (strcmp(cause, want) != 0)
		fail_msg("'%s':\n got: %s\nwant: %s", text, cause, want);
	assert_null(strchr(cause, '\n'));
	free(cause);
}

/* same_experiment fails, naming the field, unless a and b are the same experiment: every field but the preset
 * (that too when with_preset). */
static void same_experiment(const char *what, const struct ss_experiment *a, const struct ss_experiment *b,
                            bool with_preset)
{
#define SAME(f)                                                                                                        \
	if (a->f != b->f)                                                                                              \
		fail_msg("%s: %s is %llu, the preset's %llu", what, #f, (unsigned long long)a->f,                      \
		         (unsigned long long)b->f);
	SAME(kernel)
	SAME(streams)
	SAME(elements)
	SAME(chunks)
	SAME(elem_size)
	SAME(work)
	SAME(block)
	SAME(grid)
	SAME(split)
	SAME(order)
	SAME(sync)
	SAME(defstream)
	SAME(nonblocking)
	SAME(hostmem)
	SAME(connections)
	SAME(threads)
	SAME(repeat)
	SAME(warmup)
	SAME(prefetch_events)
#undef SAME
	if (with_preset && a->preset != b->preset)
		fail_msg("%s: preset %s, want %s", what, experiment_preset_name(a->preset),
		         experiment_preset_name(b->preset));
}

/* Every example file and the experiment it must give: a preset, and vector-add-weaker's order. */
static const struct {
	const char *file;
	enum ss_preset preset;
	int order; /* -1: the preset's */
} examples[] = {
    {"kernel-transfer.ini", SS_PRESET_KERNEL_TRANSFER, -1},
    {"decrypt.ini", SS_PRESET_DECRYPT, -1},
    {"hyperq.ini", SS_PRESET_HYPERQ, -1},
    {"default-stream.ini", SS_PRESET_DEFAULT_STREAM, -1},
    {"sync-order.ini", SS_PRESET_SYNC_ORDER, -1},
    {"managed.ini", SS_PRESET_MANAGED, -1},
    {"pageable.ini", SS_PRESET_PAGEABLE, -1},
    {"vector-add.ini", SS_PRESET_VECTOR_ADD, -1},
    {"vector-add-weaker.ini", SS_PRESET_VECTOR_ADD, SS_ORDER_WEAKER},
    {"managed-threads.ini", SS_PRESET_MANAGED_THREADS, -1},
};

/* Each example is its preset's experiment field by field, sets every key, and says the preset's values itself:
 * without its preset line it is the same experiment. It validates and plans. */
static void test_examples(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
		struct ss_experiment want, got, bare;
		struct ss_oplist ops;
		struct expfile f;
		char path[1024], *cause = NULL;
		int k = 0;

		memset(&got, 0, sizeof got);
		memset(&bare, 0, sizeof bare);

		example_path(examples[i].file, path, sizeof path);
		if (expfile_read(path, &f, &cause) != 0 || expopts_experiment(&f, &got, &cause) != 0)
			fail_msg("%s", cause);
		experiment_preset(&want, examples[i].preset);
		if (examples[i].order >= 0)
			want.order = (enum ss_order)examples[i].order;
		same_experiment(examples[i].file, &got, &want, true);
		/* a field same_experiment does not compare (both were zeroed first, their padding too) */
		if (memcmp(&got, &want, sizeof got) != 0)
			fail_msg("%s: a field of struct ss_experiment same_experiment does not compare differs",
			         examples[i].file);
		if (f.nentry != NKEYS)
			fail_msg("%s sets %d keys, not every one of the %d", examples[i].file, f.nentry, NKEYS);
		/* the file's values alone: its preset line dropped */
		for (int j = 0; j < f.nentry; j++)
			if (f.entry[j].id != OPT_PRESET)
				f.entry[k++] = f.entry[j];
		assert_int_equal(k, NKEYS - 1);
		f.nentry = k;
		if (expopts_experiment(&f, &bare, &cause) != 0)
			fail_msg("%s", cause);
		same_experiment(examples[i].file, &bare, &want, false);
		if (experiment_validate(&got, &cause) != 0)
			fail_msg("%s: %s", examples[i].file, cause);
		planner_build(&got, &ops);
		assert_true(ops.n > 0);
		planner_free(&ops);
	}
}

/* Every preset is shipped as examples/<preset>.ini. */
static void test_every_preset_shipped(void **state)
{
	(void)state;
	for (int p = 0; p < SS_PRESET_COUNT; p++) {
		char name[64], path[1024];
		FILE *f;

		snprintf(name, sizeof name, "%s.ini", experiment_preset_name(p));
		f = fopen(example_path(name, path, sizeof path), "r");
		if (f == NULL)
			fail_msg("preset %s has no examples/%s", experiment_preset_name(p), name);
		fclose(f);
	}
}

/* The format: comments at a line's start and after a value, blanks, CRLF, a byte order mark, key: value, an
 * indented key; the preset applied first wherever it is; suffixes and names as on the command line. */
static void test_format(void **state)
{
	struct ss_experiment e, d;

	(void)state;
	e = parse_ok(
	    "\xef\xbb\xbf; a comment\r\n# another\r\n\r\n[experiment] ; the section\r\n  streams = 3   # three\r\n"
	    "elements: 4k\r\norder=breadth ; inline\r\n");
	experiment_preset(&d, SS_PRESET_KERNEL_TRANSFER);
	d.streams = 3;
	d.elements = 4096;
	d.order = SS_ORDER_BREADTH;
	same_experiment("format", &e, &d, true);

	/* a comment right after a header; lone CR line ends (old Mac editors) are line ends, counted as lines */
	e = parse_ok("[experiment]# the section\rstreams = 3\r\rorder = breadth\r\n\relements = 4k");
	experiment_preset(&d, SS_PRESET_KERNEL_TRANSFER);
	d.streams = 3;
	d.elements = 4096;
	d.order = SS_ORDER_BREADTH;
	same_experiment("CR line ends", &e, &d, true);
	expect_cause("[experiment]\rstreams = 3\r\rstream = 4\r",
	             "t.ini:4: unknown key 'stream': valid keys are preset, streams, chunks, elements, work, kernel, "
	             "block, grid, split, order, sync, default-stream, stream-flags, host-mem, connections, threads, "
	             "prefetch-events, devices, peer, repeat, warmup");

	/* the preset last in the file still comes first */
	e = parse_ok("[experiment]\nstreams = 4\nelements = 1M\npreset = decrypt\n");
	experiment_preset(&d, SS_PRESET_DECRYPT);
	d.streams = 4;
	d.elements = 1u << 20;
	same_experiment("preset last", &e, &d, true);

	/* the kernel sets the element size as --kernel does; names case-insensitive as on the command line */
	e = parse_ok("[experiment]\nkernel = DECRYPT\nstream-flags = nonblocking\nhost-mem = managed-attach\n"
	             "default-stream = get-last-error\nsync = events\nsplit = floor\nprefetch-events = off\n"
	             "threads = 8\nconnections = 32\nrepeat = 1000\nwarmup = 0\nchunks = 65536\nwork = 1M\n"
	             "block = 1024\ngrid = 1G\n");
	assert_int_equal(e.kernel, SS_KERNEL_DECRYPT);
	assert_int_equal(e.elem_size, 8);
	assert_true(e.nonblocking);
	assert_int_equal(e.hostmem, SS_MEM_MANAGED_ATTACH);
	assert_int_equal(e.defstream, SS_DS_GET_LAST_ERROR);
	assert_int_equal(e.sync, SS_SYNC_EVENTS);
	assert_int_equal(e.split, SS_SPLIT_FLOOR);
	assert_int_equal(e.prefetch_events, SS_PFE_OFF);
	assert_int_equal(e.threads, 8);
	assert_int_equal(e.connections, 32);
	assert_int_equal(e.repeat, 1000);
	assert_int_equal(e.warmup, 0);
	assert_int_equal(e.chunks, 65536);
	assert_int_equal(e.work, 1u << 20);
	assert_int_equal(e.block, 1024);
	assert_int_equal(e.grid, 1u << 30);
}

/* threads = per-stream is a host thread per stream at whatever the stream count is, as the managed-threads preset
 * has them (its example says so); a count N > 1 holds only at N streams. */
static void test_threads_per_stream(void **state)
{
	struct ss_experiment e;

	(void)state;
	e = parse_ok("[experiment]\npreset = managed-threads\nthreads = per-stream\n");
	assert_int_equal(e.streams, 4);
	assert_int_equal(e.threads, 4);
	e = parse_ok("[experiment]\nthreads = Per-Stream\nstreams = 16\n");
	assert_int_equal(e.streams, 16);
	assert_int_equal(e.threads, 16);
	e = parse_ok("[experiment]\npreset = managed-threads\nstreams = 8\nthreads = per-stream\n");
	assert_int_equal(e.threads, 8);
	e = parse_ok("[experiment]\nstreams = 1\nthreads = per-stream\n");
	assert_int_equal(e.threads, 1);
	/* 1 is one thread whatever the preset; the preset's own threads follow the streams */
	e = parse_ok("[experiment]\npreset = managed-threads\nstreams = 8\nthreads = 1\n");
	assert_int_equal(e.threads, 1);
	e = parse_ok("[experiment]\npreset = managed-threads\nstreams = 8\n");
	assert_int_equal(e.threads, 8);
}

/* A value's error is the command line's message, prefixed with the file and line. */
static void test_values(void **state)
{
	char want[512];

	(void)state;
	expect_cause("[experiment]\n\nstreams = 0\n", "t.ini:3: invalid --streams '0': valid is an integer 1..128");
	expect_cause("[experiment]\nstreams =\n", "t.ini:2: invalid --streams '': valid is an integer 1..128");
	expect_cause("[experiment]\nstreams = 8 eight\n",
	             "t.ini:2: invalid --streams '8 eight': valid is an integer 1..128");
	expect_cause("[experiment]\nelements = -1k\n", "t.ini:2: invalid --elements '-1k': valid is an integer "
	                                               "1..17179869184 (suffix k, M or G allowed)");
	expect_cause("[experiment]\norder = sideways\n",
	             "t.ini:2: invalid --order 'sideways': valid is depth|breadth|best|weaker");
	expect_cause("[experiment]\nstream-flags = sticky\n",
	             "t.ini:2: invalid --stream-flags 'sticky': valid is blocking|nonblocking");
	expect_cause("[experiment]\nprefetch-events =\n",
	             "t.ini:2: invalid --prefetch-events '': valid is auto|on|off");
	/* a bad preset, wherever it is, and the threads rule at the threads key's line */
	snprintf(want, sizeof want, "t.ini:3: invalid --preset 'nope': valid is %s", experiment_valid_list("preset"));
	expect_cause("[experiment]\nstreams = 2\npreset = nope\n", want);
	expect_cause("[experiment]\nthreads = 4\nstreams = 8\n",
	             "t.ini:2: invalid --threads 4: valid is 1, the stream count (8) or per-stream (one host thread "
	             "per stream, at any stream count)");
	expect_cause("[experiment]\nthreads = each\n",
	             "t.ini:2: invalid --threads 'each': valid is 1, the stream count "
	             "or per-stream (one host thread per stream, at any stream count)");
	expect_cause("[experiment]\nthreads = 0\n", "t.ini:2: invalid --threads '0': valid is 1, the stream count or "
	                                            "per-stream (one host thread per stream, at any stream count)");
}

/* Everything else a file can get wrong: one line each, with the line and what is valid. */
static void test_errors(void **state)
{
	char want[1024], text[512];

	(void)state;
	expect_cause("[experiment]\nstreams 8\n",
	             "t.ini:2: syntax error: valid lines are [experiment], [chunk], key = value, "
	             "blank lines and comments (; or #)");
	expect_cause("[experiment\nstreams = 8\n",
	             "t.ini:1: syntax error: valid lines are [experiment], [chunk], key = value, "
	             "blank lines and comments (; or #)");
	/* no continuation lines: an indented value alone is a syntax error, not part of the line before */
	expect_cause("[experiment]\nstreams = 8\n   16\n",
	             "t.ini:3: syntax error: valid lines are [experiment], [chunk], key = "
	             "value, blank lines and comments (; or #)");
	snprintf(want, sizeof want, "t.ini:2: unknown key 'stream': valid keys are %s", all_keys);
	expect_cause("[experiment]\nstream = 8\n", want);
	/* --experiment is no key: a file does not include another */
	snprintf(want, sizeof want, "t.ini:2: unknown key 'experiment': valid keys are %s", all_keys);
	expect_cause("[experiment]\nexperiment = other.ini\n", want);
	expect_cause("[experiment]\nstreams = 8\nchunks = 2\nstreams = 4\n",
	             "t.ini:4: key 'streams' is given twice (first on line 2): give each key once");
	/* a section given twice is refused at its second header, not joined to the first */
	expect_cause("[experiment]\nstreams = 8\n[experiment]\nchunks = 4\n",
	             "t.ini:3: [experiment] given twice (first at line 1): a file has each section once");
	expect_cause("[experiment]\nstreams = 2\n[chunk]\nstep = h2d x\n\n  [chunk]\nstep = kernel\n",
	             "t.ini:6: [chunk] given twice (first at line 3): a file has each section once");
	expect_cause("[experimnt]\nstreams = 8\n",
	             "t.ini:1: unknown section '[experimnt]': valid is [experiment], [chunk]");
	expect_cause("[experiment]\nstreams = 8\n\n[chunks]\n", "t.ini:4: unknown section '[chunks]': valid is "
	                                                        "[experiment], [chunk]");
	/* text after a section header is no key (libinih would drop it): refused, a comment after it is not */
	expect_cause("[experiment] streams = 4\nwork = 10\n",
	             "t.ini:1: text 'streams = 4' after the section header '[experiment]': put each key on a line of "
	             "its own (after a header, only a comment: ; or #)");
	expect_cause("[experiment]\nstreams = 2\n  [chunk]\tstep = h2d x  \r\nstep = kernel\n",
	             "t.ini:3: text 'step = h2d x' after the section header '[chunk]': put each key on a line of its "
	             "own (after a header, only a comment: ; or #)");
	expect_cause("[experiment]]\nstreams = 2\n",
	             "t.ini:1: text ']' after the section header '[experiment]': put each key on a line of its own "
	             "(after a header, only a comment: ; or #)");
	expect_cause("streams = 8\n[experiment]\n",
	             "t.ini:1: key 'streams' is outside a section: valid is [experiment], [chunk] first");
	snprintf(want, sizeof want,
	         "t.ini: no [experiment] section (nothing but blanks and comments): an experiment file is "
	         "[experiment] and key = value lines, keys %s (and [chunk], step lines)",
	         all_keys);
	expect_cause("", want);
	expect_cause("; nothing\n\n# here\n", want);
	snprintf(want, sizeof want, "t.ini:2: [experiment] has no keys: valid keys are %s", all_keys);
	expect_cause("\n[experiment]\n; none\n", want);
	/* EXPFILE_LINE_MAX characters, the line end not counted, and one more */
	snprintf(text, sizeof text, "[experiment]\nstreams = 8%*s\r\n", EXPFILE_LINE_MAX - 11, "");
	(void)parse_ok(text);
	snprintf(text, sizeof text, "[experiment]\nstreams = 8%*s\n", EXPFILE_LINE_MAX - 10, "");
	expect_cause(text, "t.ini:2: line too long: 161 characters, at most 160");
}

/* text_repeat writes prefix, then n copies of unit, then suffix into buf (len bytes, enough). */
static const char *text_repeat(char *buf, size_t len, const char *prefix, const char *unit, int n, const char *suffix)
{
	size_t k = (size_t)snprintf(buf, len, "%s", prefix);

	for (int i = 0; i < n; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s", unit);
	snprintf(buf + k, len - k, "%s", suffix);
	return buf;
}

/* The line limit counts characters, as its message says: a UTF-8 code point is one (a Chinese comment of 160
 * characters, 480 bytes, fits libinih's line buffer too), each byte that is not UTF-8 one; a line over it is refused
 * with its count. */
static void test_line_characters(void **state)
{
	char text[2048], line[1024];
	struct ss_experiment e;

	(void)state;
	/* "; " and 158 of 流 (3 bytes each): 160 characters, 476 bytes; and the same on a value line */
	text_repeat(line, sizeof line, "; ", "\xe6\xb5\x81", 158, "");
	snprintf(text, sizeof text, "%s\n[experiment]\nstreams = 4\n", line);
	e = parse_ok(text);
	assert_int_equal(e.streams, 4);
	text_repeat(line, sizeof line, "streams = 4 ; ", "\xe6\xb5\x81", 146, "");
	snprintf(text, sizeof text, "[experiment]\n%s\r\n", line);
	e = parse_ok(text);
	assert_int_equal(e.streams, 4);
	/* 40 four-byte code points: 160 characters at the byte limit */
	text_repeat(line, sizeof line, "", "\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80", 40, "");
	snprintf(text, sizeof text, "[experiment]\n#%s\nstreams = 4\n", line + 4);
	(void)parse_ok(text);
	/* 56 Chinese characters, the audit's comment (164 bytes, over the old byte count) */
	text_repeat(line, sizeof line, "; ", "\xe4\xb8\xad", 54, "");
	snprintf(text, sizeof text, "[experiment]\n%s\nstreams = 4\n", line);
	(void)parse_ok(text);
	/* one more character: refused, in characters */
	text_repeat(line, sizeof line, "; ", "\xe6\xb5\x81", 159, "");
	snprintf(text, sizeof text, "[experiment]\nstreams = 4\n%s\n", line);
	expect_cause(text, "t.ini:3: line too long: 161 characters, at most 160");
	/* bytes that are not UTF-8 (a GBK comment): one character each */
	text_repeat(line, sizeof line, "; ", "\xd6\xd0", 79, "");
	snprintf(text, sizeof text, "[experiment]\n%s\nstreams = 4\n", line);
	(void)parse_ok(text);
	text_repeat(line, sizeof line, "; ", "\xff", 159, "");
	snprintf(text, sizeof text, "[experiment]\n%s\nstreams = 4\n", line);
	expect_cause(text, "t.ini:2: line too long: 161 characters, at most 160");
	/* a value of Chinese characters is refused by its option's parser, named whole */
	expect_cause("[experiment]\nstreams = \xe5\x9b\x9b\n", "t.ini:2: invalid --streams '\xe5\x9b\x9b': valid is an "
	                                                       "integer 1..128");
}

/* A NUL byte, a file too large and one that cannot be read. */
static void test_bytes_and_files(void **state)
{
	static const char nul[] = "[experiment]\nstreams = 8\0\n";
	struct expfile f;
	char *cause = NULL, *big;

	(void)state;
	assert_int_equal(expfile_parse("t.ini", nul, sizeof nul - 1, &f, &cause), -1);
	assert_string_equal(cause, "t.ini:2: a NUL byte: an experiment file is text");
	free(cause);
	big = calloc(1, EXPFILE_SIZE_MAX + 1);
	assert_non_null(big);
	memset(big, '\n', EXPFILE_SIZE_MAX + 1);
	memcpy(big, "[experiment]\nstreams = 8\n", 25);
	assert_int_equal(expfile_parse("t.ini", big, EXPFILE_SIZE_MAX, &f, &cause), 0);
	assert_int_equal(f.nentry, 1);
	assert_string_equal(f.entry[0].value, "8");
	assert_int_equal(expfile_parse("t.ini", big, EXPFILE_SIZE_MAX + 1, &f, &cause), -1);
	assert_string_equal(cause, "t.ini: too large: an experiment file is at most 1048576 bytes");
	free(cause);
	free(big);
	assert_int_equal(expfile_read("/no/such.ini", &f, &cause), -1);
	assert_string_equal(cause, "cannot read experiment file '/no/such.ini': No such file or directory");
	free(cause);
	assert_int_equal(expfile_read("/", &f, &cause), -1);
	assert_string_equal(cause, "cannot read experiment file '/': Is a directory");
	free(cause);
	/* a trace given as an experiment file is named and pointed at view, whatever its size */
	{
		static const char sqlite[] = "SQLite format 3\0\x10\0", json[] = "\r\n {\"traceEvents\": []}";

		assert_int_equal(expfile_parse("t.sqlite", sqlite, sizeof sqlite - 1, &f, &cause), -1);
		assert_string_equal(cause, "t.sqlite: an SQLite database, not an experiment file: open a trace with "
		                           "'streamscope view t.sqlite'");
		free(cause);
		assert_int_equal(expfile_parse("t.json", json, sizeof json - 1, &f, &cause), -1);
		assert_string_equal(cause, "t.json: JSON, not an experiment file: open a trace with 'streamscope view "
		                           "t.json'");
		free(cause);
		big = calloc(1, EXPFILE_SIZE_MAX + 1);
		assert_non_null(big);
		memcpy(big, sqlite, sizeof sqlite - 1);
		assert_int_equal(expfile_parse("t.sqlite", big, EXPFILE_SIZE_MAX + 1, &f, &cause), -1);
		assert_non_null(strstr(cause, "an SQLite database, not an experiment file"));
		free(cause);
		free(big);
		/* "SQLite format 3" without its NUL, and a '{' after a line, are text */
		assert_int_equal(expfile_parse("t.ini", "SQLite format 3\n", 16, &f, &cause), -1);
		assert_non_null(strstr(cause, "t.ini:1: syntax error"));
		free(cause);
		assert_int_equal(expfile_parse("t.ini", "[experiment]\n{\n", 15, &f, &cause), -1);
		assert_non_null(strstr(cause, "t.ini:2: syntax error"));
		free(cause);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_examples),        cmocka_unit_test(test_every_preset_shipped),
	    cmocka_unit_test(test_format),          cmocka_unit_test(test_values),
	    cmocka_unit_test(test_errors),          cmocka_unit_test(test_line_characters),
	    cmocka_unit_test(test_bytes_and_files), cmocka_unit_test(test_threads_per_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
