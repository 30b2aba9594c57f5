/* test_io_chrome.c: the Chrome trace export parsed back with yajl_tree (json_tree.h: metadata naming and ordering every
 * track, flow arrows from API calls to the GPU work with their correlation id, args, the modelled flag, escaping), and
 * foreign Chrome traces (PyTorch-profiler-like categories, B/E pairs, bare arrays without their closing bracket,
 * string timestamps) mapped to streams, engines and the host lane; JSON details the yajl-based importer must get
 * right (duplicate keys, escapes, numbers as text, nesting depth), and the parallel parse giving exactly the
 * sequential result and message. The stream and device tables travel in M events' args: entries out of range are
 * skipped, foreign M events (any name, any args) never break an import, and only streamscope's traces fill the
 * tables. Kernels' launches travel in their X events' args (grid and block as [x, y, z]): values out of range are
 * no launch, and of a foreign trace only grid and block of a kernel with a correlation id are read. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <math.h>

#include "io/export/export.h"
#include "io/export/export_chrome.h"
#include "io/import/chrome_parse.h"
#include "io/import/import.h"
#include "io/import/import_chrome.h"
#include "io_fixture.h"
#include "json_tree.h"

static yajl_val export_and_load(struct ss_timeline *t, const char *dir)
{
	struct ss_export_input in = {.t = t};
	char path[512], *cause = NULL;
	char err[512];
	yajl_val root;

	snprintf(path, sizeof path, "%s/t.json", dir);
	if (export_chrome(path, &in, &cause) != 0)
		fail_msg("%s", cause);
	root = json_tree_load(path, err, sizeof err);
	if (root == NULL)
		fail_msg("yajl_tree: %s", err);
	return root;
}

static uint64_t track_key(yajl_val ev)
{
	return ((uint64_t)json_tree_int(json_tree_get(ev, "pid")) << 32) |
	       (uint32_t)json_tree_int(json_tree_get(ev, "tid"));
}

/* covers says whether an X event on the track of ev, with correlation corr, holds ev's ts. */
static bool covers(yajl_val events, yajl_val ev, long long corr, const char **kind)
{
	double ts = json_tree_num(json_tree_get(ev, "ts"));
	size_t i;
	yajl_val x;

	json_tree_foreach(events, i, x)
	{
		const char *ph = json_tree_str(json_tree_get(x, "ph"));
		yajl_val args = json_tree_get(x, "args");
		double a, d;

		if (ph == NULL || strcmp(ph, "X") != 0 || track_key(x) != track_key(ev) ||
		    json_tree_int(json_tree_get(args, "correlation")) != corr)
			continue;
		a = json_tree_num(json_tree_get(x, "ts"));
		d = json_tree_num(json_tree_get(x, "dur"));
		if (a <= ts && ts <= a + d) {
			*kind = json_tree_str(json_tree_get(args, "ss_kind"));
			return true;
		}
	}
	return false;
}

/* flow_ok checks an s/f pair: the s end lies in an API call and the f end in GPU work of the same correlation id
 * (the fixture's calls on one thread overlap, so every correlation of a covering GPU slice is tried). */
static bool flow_ok(yajl_val events, yajl_val s, yajl_val f)
{
	double ts = json_tree_num(json_tree_get(f, "ts"));
	size_t i;
	yajl_val x;

	json_tree_foreach(events, i, x)
	{
		const char *ph = json_tree_str(json_tree_get(x, "ph")), *skind = NULL, *fkind = NULL;
		long long corr;
		double a, d;

		if (ph == NULL || strcmp(ph, "X") != 0 || track_key(x) != track_key(f))
			continue;
		a = json_tree_num(json_tree_get(x, "ts"));
		d = json_tree_num(json_tree_get(x, "dur"));
		if (ts < a || ts > a + d)
			continue;
		corr = json_tree_int(json_tree_get(json_tree_get(x, "args"), "correlation"));
		if (corr != 0 && covers(events, s, corr, &skind) && covers(events, f, corr, &fkind) &&
		    strcmp(skind, "API") == 0 && strcmp(fkind, "API") != 0)
			return true;
	}
	return false;
}

static void test_metadata_and_flows(void **state)
{
	struct ss_timeline t;
	char *dir = fx_tmpdir();
	yajl_val root, events, ev, other;
	size_t i, nx = 0, ns = 0, nf = 0, want_flows = 0;
	int proc_names = 0, proc_sort = 0, thread_names = 0, thread_sort = 0;
	bool seen_stream0 = false, seen_legacy = false, seen_h2d = false, seen_compute = false, seen_api = false;
	bool seen_unknown = false, seen_nb = false;

	(void)state;
	timeline_init(&t);
	fx_timeline(&t, 800, 4);
	for (size_t k = 0; k < t.n; k++) { /* one device: the layout of a process per stream */
		t.rec[k].device = 0;
		t.rec[k].flags &= (uint8_t) ~(SS_REC_PEER | SS_REC_PEER_IN);
		t.rec[k].peer = 0;
	}
	timeline_set_stream(&t, 2, 15, SS_SKIND_NONBLOCKING); /* its track is named with its kind */
	/* every GPU record whose correlation an API record shares gets one arrow */
	for (size_t a = 0; a < t.n; a++)
		for (size_t g = 0; g < t.n; g++)
			if (t.rec[a].kind == SS_KIND_API && (SS_GPU_KINDS & SS_KIND_BIT(t.rec[g].kind)) &&
			    t.rec[g].correlation == t.rec[a].correlation)
				want_flows++;
	assert_true(want_flows > 400);
	root = export_and_load(&t, dir);
	other = json_tree_get(root, "otherData");
	assert_true(json_tree_is_object(other));
	assert_true(json_tree_is_false(json_tree_get(other, "modelled")));
	assert_string_equal(json_tree_str(json_tree_get(other, "measurement")), "measured");
	assert_string_equal(json_tree_str(json_tree_get(root, "displayTimeUnit")), "ns");
	events = json_tree_get(root, "traceEvents");
	assert_true(json_tree_is_array(events));
	json_tree_foreach(events, i, ev)
	{
		const char *ph = json_tree_str(json_tree_get(ev, "ph"));
		const char *name = json_tree_str(json_tree_get(ev, "name"));
		yajl_val args = json_tree_get(ev, "args");

		assert_non_null(ph);
		if (strcmp(ph, "M") == 0) {
			const char *v = json_tree_str(json_tree_get(args, "name"));

			if (strcmp(name, "process_name") == 0) {
				proc_names++;
				seen_stream0 |= strcmp(v, "Stream 0") == 0;
				seen_legacy |= strcmp(v, "Legacy default stream") == 0;
				if (strcmp(v, "Stream 2 (non-blocking, id 15)") == 0) {
					/* and its entry of the stream table, for the importer */
					seen_nb = true;
					assert_string_equal(json_tree_str(json_tree_get(args, "ss_stream_kind")),
					                    "non-blocking");
					assert_int_equal(json_tree_int(json_tree_get(args, "stream")), 2);
					assert_int_equal(json_tree_int(json_tree_get(args, "raw_stream")), 15);
				}
			} else if (strcmp(name, "process_sort_index") == 0) {
				proc_sort++;
				assert_true(json_tree_is_int(json_tree_get(args, "sort_index")));
			} else if (strcmp(name, "thread_name") == 0) {
				thread_names++;
				seen_h2d |= strcmp(v, "H2D") == 0;
				seen_compute |= strcmp(v, "Compute") == 0;
				seen_api |= strcmp(v, "thread 0 API") == 0;
				seen_unknown |=
				    strcmp(v, "stream id 99 Compute") == 0; /* the fixture's unknown stream */
			} else if (strcmp(name, "thread_sort_index") == 0) {
				thread_sort++;
			}
		} else if (strcmp(ph, "X") == 0) {
			const char *kind = json_tree_str(json_tree_get(args, "ss_kind"));

			nx++;
			assert_non_null(kind);
			assert_non_null(json_tree_str(json_tree_get(ev, "cname")));
			assert_true(json_tree_num(json_tree_get(ev, "dur")) >= 0);
			if (strcmp(kind, "H2D") == 0 || strcmp(kind, "D2H") == 0) {
				double bytes = json_tree_num(json_tree_get(args, "bytes"));
				double dur_ns = json_tree_num(json_tree_get(ev, "dur")) * 1000.0;

				assert_true(bytes > 0);
				assert_true(fabs(json_tree_num(json_tree_get(args, "bandwidth_GBps")) -
				                 bytes / dur_ns) < 1e-3 + 1e-3 * bytes / dur_ns);
			}
		} else if (strcmp(ph, "s") == 0) {
			size_t j;
			yajl_val f;
			bool paired = false;

			ns++;
			json_tree_foreach(events, j, f)
			{
				const char *fph = json_tree_str(json_tree_get(f, "ph"));

				if (fph != NULL && strcmp(fph, "f") == 0 &&
				    json_tree_int(json_tree_get(f, "id")) == json_tree_int(json_tree_get(ev, "id"))) {
					assert_string_equal(json_tree_str(json_tree_get(f, "bp")), "e");
					assert_true(flow_ok(events, ev, f));
					paired = true;
					break;
				}
			}
			assert_true(paired);
		} else if (strcmp(ph, "f") == 0) {
			nf++;
		}
	}
	assert_int_equal(nx, t.n);
	assert_int_equal(ns, want_flows);
	assert_int_equal(nf, want_flows);
	/* 4 streams + legacy + per-thread + unknown + host; each with a name and an order */
	assert_int_equal(proc_names, 8);
	assert_int_equal(proc_sort, 8);
	assert_true(seen_stream0 && seen_legacy && seen_h2d && seen_compute && seen_api && seen_unknown && seen_nb);
	assert_int_equal(thread_names, thread_sort);
	/* every track with events is named */
	json_tree_foreach(events, i, ev)
	{
		size_t j;
		yajl_val m;
		bool named = false;

		if (strcmp(json_tree_str(json_tree_get(ev, "ph")), "X") != 0)
			continue;
		json_tree_foreach(events, j, m)
		{
			if (strcmp(json_tree_str(json_tree_get(m, "ph")), "M") == 0 &&
			    strcmp(json_tree_str(json_tree_get(m, "name")), "thread_name") == 0 &&
			    track_key(m) == track_key(ev)) {
				named = true;
				break;
			}
		}
		assert_true(named);
		if (i > 200)
			break;
	}
	json_tree_free(root);
	/* a modelled run says so in otherData and in every process's labels */
	t.modelled = true;
	root = export_and_load(&t, dir);
	assert_true(json_tree_is_true(json_tree_get(json_tree_get(root, "otherData"), "modelled")));
	events = json_tree_get(root, "traceEvents");
	json_tree_foreach(events, i, ev)
	{
		const char *name = json_tree_str(json_tree_get(ev, "name"));

		if (strcmp(name, "process_labels") == 0)
			assert_non_null(
			    strstr(json_tree_str(json_tree_get(json_tree_get(ev, "args"), "labels")), "MODELLED"));
	}
	json_tree_free(root);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* Names with quotes, control characters and invalid UTF-8 still make JSON that yajl_tree (which checks UTF-8)
 * accepts: each byte that starts no UTF-8 sequence reads back as U+FFFD, control characters as themselves; every
 * byte from 1 to 255 in a name and in the source path; the importer reads the same text back. */
static void test_escaping(void **state)
{
	struct ss_timeline t, back;
	struct ss_record r = {.kind = SS_KIND_KERNEL, .start = 1, .end = 2};
	char *dir = fx_tmpdir(), all[256], want[128 + 128 * 3], path[512], *cause = NULL;
	yajl_val root, ev;
	size_t i, n = 0;
	int found = 0;

	(void)state;
	for (int c = 1; c < 256; c++)
		all[c - 1] = (char)c;
	all[255] = '\0';
	for (int c = 1; c < 128; c++)
		want[n++] = (char)c;
	for (int c = 128; c < 256; c++, n += 3)
		memcpy(want + n, "\xef\xbf\xbd", 3); /* no two of them make a sequence: each is one U+FFFD */
	want[n] = '\0';
	timeline_init(&t);
	r.name = timeline_intern(&t, "bad \xff\xfe utf8 \x01 \"q\" \\ \xe2\x82");
	timeline_add(&t, &r);
	r.name = timeline_intern(&t, "ok \xc3\xa9 \"q\"\n");
	timeline_add(&t, &r);
	r.name = timeline_intern(&t, all);
	timeline_add(&t, &r);
	snprintf(t.device, sizeof t.device, "GPU \"quoted\"");
	snprintf(t.source, sizeof t.source, "%s", all);
	root = export_and_load(&t, dir);
	json_tree_foreach(json_tree_get(root, "traceEvents"), i, ev)
	{
		const char *name = json_tree_str(json_tree_get(ev, "name"));

		if (strcmp(json_tree_str(json_tree_get(ev, "ph")), "X") != 0)
			continue;
		found++;
		if (strncmp(name, "bad", 3) == 0)
			assert_string_equal(name,
			                    "bad \xef\xbf\xbd\xef\xbf\xbd utf8 \x01 \"q\" \\ \xef\xbf\xbd\xef\xbf\xbd");
		else if (strncmp(name, "ok", 2) == 0)
			assert_string_equal(name, "ok \xc3\xa9 \"q\"\n");
		else
			assert_string_equal(name, want);
	}
	assert_int_equal(found, 3);
	assert_string_equal(json_tree_str(json_tree_get(json_tree_get(root, "otherData"), "device")), "GPU \"quoted\"");
	assert_string_equal(json_tree_str(json_tree_get(json_tree_get(root, "otherData"), "source")), want);
	json_tree_free(root);
	/* the importer (yajl's parser) reads what yajl_tree read */
	snprintf(path, sizeof path, "%s/t.json", dir);
	timeline_init(&back);
	if (import_chrome(path, &back, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(back.n, 3);
	assert_string_equal(timeline_name(&back, back.rec[2].name), want);
	assert_string_equal(back.device, "GPU \"quoted\"");
	timeline_free(&back);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

static const struct ss_record *find_named(const struct ss_timeline *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(timeline_name(t, t->rec[i].name), name) == 0)
			return &t->rec[i];
	return NULL;
}

static void load(const char *json, struct ss_timeline *t)
{
	char *cause = NULL;

	timeline_init(t);
	if (import_chrome_buffer(json, strlen(json), "mem.json", t, &cause) != 0)
		fail_msg("%s", cause);
}

/* A PyTorch-profiler-like trace: categories decide kinds, args.stream decides streams, times rebase to 0. */
static void test_foreign_pytorch(void **state)
{
	static const char json[] =
	    "{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA A100\"}],\"traceEvents\":[\n"
	    "{\"ph\":\"M\",\"pid\":0,\"tid\":7,\"name\":\"thread_name\",\"args\":{\"name\":\"stream 7\"}},\n"
	    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":10.0,"
	    "\"dur\":5,\"args\":{\"correlation\":1}},\n"
	    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void "
	    "gemm<float>\",\"pid\":0,\"tid\":7,\"ts\":20.5,\"dur\":100,"
	    "\"args\":{\"stream\":7,\"correlation\":1,\"device\":0}},\n"
	    "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pageable -> Device)\",\"pid\":0,\"tid\":8,"
	    "\"ts\":12,\"dur\":3,\"args\":{\"stream\":8,\"bytes\":4096,\"correlation\":2}},\n"
	    "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy DtoH (Device -> Pinned)\",\"pid\":0,\"tid\":8,"
	    "\"ts\":200,\"dur\":3,\"args\":{\"stream\":8,\"bytes\":64}},\n"
	    "{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset "
	    "(Device)\",\"pid\":0,\"tid\":7,\"ts\":130,\"dur\":1,"
	    "\"args\":{\"stream\":7}},\n"
	    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaStreamSynchronize\",\"pid\":100,\"tid\":100,"
	    "\"ts\":125,\"dur\":10},\n"
	    "{\"ph\":\"B\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":100,\"tid\":100,\"ts\":9},\n"
	    "{\"ph\":\"E\",\"pid\":100,\"tid\":100,\"ts\":16},\n"
	    "{\"ph\":\"i\",\"name\":\"instant\",\"pid\":1,\"tid\":1,\"ts\":5,\"s\":\"g\"},\n"
	    "{\"ph\":\"C\",\"name\":\"counter\",\"pid\":1,\"ts\":5,\"args\":{\"v\":1}},\n"
	    "{\"ph\":\"s\",\"id\":1,\"pid\":100,\"tid\":100,\"ts\":11,\"name\":\"flow\",\"cat\":\"ac2g\"}\n"
	    "],\"displayTimeUnit\":\"ms\"}";
	struct ss_timeline t;
	const struct ss_record *r;

	(void)state;
	load(json, &t);
	assert_int_equal(t.n, 7);
	assert_string_equal(t.backend, "file");
	assert_string_equal(t.source, "mem.json");
	assert_int_equal(t.nstreams, 2);
	r = find_named(&t, "aten::mm");
	assert_int_equal(r->kind, SS_KIND_MARKER);
	assert_int_equal(r->stream, SS_STREAM_HOST);
	assert_int_equal(r->start, 0); /* the earliest event, at 9 us, is time 0 */
	assert_int_equal(r->end, 7000);
	assert_int_equal(r->thread, 100);
	r = find_named(&t, "cudaLaunchKernel");
	assert_int_equal(r->kind, SS_KIND_API);
	assert_int_equal(r->stream, SS_STREAM_HOST);
	assert_int_equal(r->correlation, 1);
	r = find_named(&t, "void gemm<float>");
	assert_int_equal(r->kind, SS_KIND_KERNEL);
	assert_int_equal(r->start, 11500);
	assert_int_equal(r->end, 111500);
	assert_int_equal(r->stream, 1); /* stream 8 had work first (the copy at 12 us) */
	assert_int_equal(r->correlation, 1);
	r = find_named(&t, "Memcpy HtoD (Pageable -> Device)");
	assert_int_equal(r->kind, SS_KIND_H2D);
	assert_int_equal(r->stream, 0);
	assert_int_equal(r->bytes, 4096);
	assert_int_equal(find_named(&t, "Memcpy DtoH (Device -> Pinned)")->kind, SS_KIND_D2H);
	r = find_named(&t, "Memset (Device)");
	assert_int_equal(r->kind, SS_KIND_MEMSET);
	assert_int_equal(r->stream, 1);
	assert_int_equal(find_named(&t, "cudaStreamSynchronize")->kind, SS_KIND_SYNC);
	timeline_free(&t);
}

/* The JSON Array Format, cut off after a comma as Chrome allows; generic events become a row per track; B/E nest;
 * an E without its B and a B without its E are dropped; string timestamps are numbers. */
static void test_foreign_array(void **state)
{
	static const char json[] = "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1},\n"
	                           " {\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":\"1.5\",\"dur\":2},\n"
	                           " {\"ph\":\"E\",\"pid\":3,\"tid\":3,\"ts\":0.5},\n"
	                           " {\"ph\":\"B\",\"name\":\"outer\",\"pid\":\"browser\",\"tid\":9,\"ts\":10},\n"
	                           " {\"ph\":\"B\",\"name\":\"inner\",\"pid\":\"browser\",\"tid\":9,\"ts\":11},\n"
	                           " {\"ph\":\"E\",\"pid\":\"browser\",\"tid\":9,\"ts\":12},\n"
	                           " {\"ph\":\"E\",\"pid\":\"browser\",\"tid\":9,\"ts\":15},\n"
	                           " {\"ph\":\"B\",\"name\":\"never ends\",\"pid\":1,\"tid\":1,\"ts\":20},\n";
	struct ss_timeline t;
	const struct ss_record *r;

	(void)state;
	load(json, &t);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.nstreams, 3);
	r = find_named(&t, "a");
	assert_int_equal(r->kind, SS_KIND_KERNEL);
	assert_int_equal(r->stream, 0);
	r = find_named(&t, "b");
	assert_int_equal(r->stream, 1);
	assert_int_equal(r->start, 1500);
	assert_int_equal(r->end, 3500);
	r = find_named(&t, "outer");
	assert_int_equal(r->start, 10000);
	assert_int_equal(r->end, 15000);
	assert_int_equal(r->stream, 2);
	r = find_named(&t, "inner");
	assert_int_equal(r->start, 11000);
	assert_int_equal(r->end, 12000);
	assert_int_equal(r->stream, 2);
	assert_null(find_named(&t, "never ends"));
	timeline_free(&t);
	/* absurd pids and tids are ids like any other */
	load("[{\"ph\":\"X\",\"name\":\"p\",\"pid\":1e300,\"tid\":-1e300,\"ts\":0,\"dur\":1},"
	     "{\"ph\":\"B\",\"name\":\"q\",\"pid\":1e308,\"tid\":1.5,\"ts\":1},{\"ph\":\"E\",\"pid\":1e308,\"tid\":1.5,"
	     "\"ts\":2}]",
	     &t);
	assert_int_equal(t.n, 2);
	timeline_free(&t);
	/* closed array, negative timestamps (rebased), integer and real numbers */
	load("[{\"ph\":\"X\",\"name\":\"n\",\"pid\":1,\"tid\":1,\"ts\":-5,\"dur\":1.25}]", &t);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.rec[0].start, 0);
	assert_int_equal(t.rec[0].end, 1250);
	timeline_free(&t);
}

/* Duplicate keys: the last wins (args too, wholly); escapes decode; otherData may be called metadata; BOM. */
static void test_json_details(void **state)
{
	static const char json[] =
	    "\xef\xbb\xbf{\"metadata\":{\"generator\":\"streamscope test\",\"device\":\"G\\u00e9PU\",\"nstreams\":3,"
	    "\"modelled\":true,\"dropped\":7,\"deep\":{\"generator\":\"other\",\"x\":[{\"y\":1}]}},\n"
	    "\"traceEvents\":[\n"
	    "{\"ph\":\"M\",\"ts\":1,\"ph\":\"X\",\"name\":\"first\",\"name\":\"k\\u0065rn\\\"el\\\"\",\"ts\":\"2.5\","
	    "\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":1,\"bytes\":5},\"args\":{\"ss_kind\":\"H2D\","
	    "\"stream\":2,"
	    "\"ignored\":{\"ss_kind\":\"D2H\",\"stream\":[3]}}},\n"
	    "{\"ph\":\"X\",\"ts\":3,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0},\"args\":7},\n"
	    "{\"ph\":\"X\",\"ts\":4,\"dur\":1.0005,\"name\":\"n\",\"args\":{\"ss_kind\":\"ker\",\"stream\":0,"
	    "\"unnamed\":null,\"correlation\":99999999999999999999,\"raw_stream\":12.7,\"flags\":-3}}\n"
	    "]}";
	struct ss_timeline t;
	const struct ss_record *r;

	(void)state;
	load(json, &t);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.device, "G\xc3\xa9PU");
	assert_true(t.modelled);
	assert_int_equal(t.dropped, 7);
	assert_int_equal(t.nstreams, 3);
	r = find_named(&t, "kern\"el\"");
	assert_non_null(r);
	assert_int_equal(r->kind, SS_KIND_H2D); /* the second args replaced the first */
	assert_int_equal(r->stream, 2);
	assert_int_equal(r->bytes, 0);
	assert_int_equal(r->start, 2500);
	assert_int_equal(r->end, 3500);
	/* args given as a number: not streamscope's, a foreign kernel */
	assert_int_equal(t.rec[1].kind, SS_KIND_KERNEL);
	assert_int_equal(t.rec[1].stream, 0);
	assert_int_equal(t.rec[1].start, 3000);
	/* unnamed (even as null) drops the name; dur rounds half away from zero; numbers past int64 are reals */
	r = &t.rec[2];
	assert_int_equal(r->name, 0);
	assert_int_equal(r->start, 4000);
	assert_int_equal(r->end, 5001);
	assert_int_equal(r->correlation, 0); /* 1e20 does not fit: 0, as any absurd count */
	assert_int_equal(r->raw_stream, 12);
	assert_int_equal(r->flags, 0);
	timeline_free(&t);
	/* exact nanoseconds however big the timestamp: no double rounding */
	load("[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1700000000123456.789,\"dur\":0.001},"
	     "{\"ph\":\"X\",\"name\":\"b\",\"ts\":1700000000123456.790,\"dur\":1e-3}]",
	     &t);
	assert_int_equal(t.n, 2);
	assert_int_equal(find_named(&t, "a")->start, 0);
	assert_int_equal(find_named(&t, "a")->end, 1);
	assert_int_equal(find_named(&t, "b")->start, 1);
	assert_int_equal(find_named(&t, "b")->end, 2);
	timeline_free(&t);
	/* 64 levels of nesting are fine */
	{
		char deep[512];
		int n = snprintf(deep, sizeof deep, "[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"a\":");

		for (int i = 0; i < CHROME_MAX_DEPTH - 3; i++)
			deep[n++] = '[';
		for (int i = 0; i < CHROME_MAX_DEPTH - 3; i++)
			deep[n++] = ']';
		snprintf(deep + n, sizeof deep - (size_t)n, "}}]");
		load(deep, &t);
		assert_int_equal(t.n, 1);
		timeline_free(&t);
	}
}

/* Foreign M events, whatever their name and args (none, not an object, nested, odd types), are skipped without
 * error; ones that look like streamscope's table entries fill no table in a trace that is not streamscope's. */
static void test_foreign_metadata(void **state)
{
	static const char json[] =
	    "{\"traceEvents\":[\n"
	    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"whatever\"}},\n"
	    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":7}},\n"
	    "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":1,\"args\":{\"labels\":\"a,b\"}},\n"
	    "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":1,\"args\":{\"sort_index\":-1}},\n"
	    "{\"ph\":\"M\",\"name\":\"process_uptime_seconds\",\"pid\":1,\"args\":{\"uptime\":1.5}},\n"
	    "{\"ph\":\"M\",\"name\":\"trace_buffer_overflowed\",\"pid\":1,\"args\":{\"overflowed_at_ts\":12}},\n"
	    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":3},\n"
	    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":4,\"args\":[1,2]},\n"
	    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":5,\"args\":null},\n"
	    "{\"ph\":\"M\",\"args\":{\"name\":{\"nested\":[{\"ss_stream_kind\":\"blocking\"}]}}},\n"
	    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":9,\"args\":{\"name\":\"GPU 0\",\"ss_stream_kind\":"
	    "\"blocking\",\"stream\":0,\"raw_stream\":13,\"ss_device\":0,\"device_name\":\"X\"}},\n"
	    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":9,\"args\":{\"ss_device\":0,\"device_name\":\"X\","
	    "\"copy_engines\":2}},\n"
	    "{\"ph\":\"X\",\"name\":\"k\",\"pid\":9,\"tid\":2,\"ts\":1,\"dur\":2},\n"
	    "{\"ph\":\"X\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":1}\n"
	    "]}";
	struct ss_timeline t;

	(void)state;
	load(json, &t);
	assert_int_equal(t.n, 2);
	assert_int_equal(find_named(&t, "k")->kind, SS_KIND_KERNEL);
	assert_int_equal(find_named(&t, "k")->stream, 0);
	assert_int_equal(find_named(&t, "cudaLaunchKernel")->kind, SS_KIND_API);
	assert_null(timeline_stream(&t, 0));
	assert_null(timeline_device(&t, 0));
	assert_true(t.stream_ids);
	timeline_free(&t);
}

/* streamscope's own table entries: each field checked; an entry whose index, raw id or device is out of range is
 * skipped, an unknown kind name reads as unknown, an optional field out of range as not said; the last entry of a
 * stream or device wins; otherData describes device 0 and says streamIds. */
static void test_own_metadata(void **state)
{
	static const char json[] =
	    "{\"otherData\":{\"generator\":\"streamscope test\",\"streamIds\":false,\"deviceName\":\"ONE\","
	    "\"deviceUuid\":\"GPU-1\",\"deviceCopyEngines\":1,\"deviceContext\":7},\n"
	    "\"traceEvents\":[\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"non-blocking\",\"stream\":0,\"raw_stream\":13}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"blocking\",\"stream\":1,\"raw_stream\":14,\"device\":2}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"sideways\",\"stream\":2,\"raw_stream\":15}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"legacy default\",\"stream\":3,\"raw_stream\":1,"
	    "\"device\":256}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"legacy default\",\"stream\":4,\"raw_stream\":-1}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"legacy default\",\"stream\":5,\"raw_stream\":4294967296}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"legacy default\",\"stream\":-1,\"raw_stream\":1}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"legacy default\",\"stream\":1024,\"raw_stream\":1}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"legacy default\",\"stream\":1.5,\"raw_stream\":1}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"legacy default\",\"stream\":\"6\",\"raw_stream\":1}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":1,\"stream\":7,\"raw_stream\":1}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"per-thread default\",\"stream\":8,\"raw_stream\":30}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_stream_kind\":\"blocking\",\"stream\":8,\"raw_stream\":31}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_device\":1,\"device_name\":\"TWO\",\"uuid\":\"GPU-2\",\"copy_engines\":3,"
	    "\"context\":9}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_device\":2,\"device_name\":5,\"copy_engines\":0,\"context\":-1}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_device\":3,\"copy_engines\":65}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_device\":3,\"device_name\":\"LAST\"}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_device\":16,\"device_name\":\"past the table\"}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_device\":-1,\"device_name\":\"negative\"}},\n"
	    "{\"ph\":\"M\",\"args\":{\"ss_device\":\"4\",\"device_name\":\"a string\"}},\n"
	    "{\"ph\":\"X\",\"name\":\"k\",\"ts\":1,\"dur\":2,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13}}\n"
	    "]}";
	struct ss_timeline t;
	const struct ss_stream_info *si;
	const struct ss_device_info *d;

	(void)state;
	load(json, &t);
	assert_int_equal(t.n, 1);
	assert_false(t.stream_ids);
	si = timeline_stream(&t, 0);
	assert_non_null(si);
	assert_int_equal(si->kind, SS_SKIND_NONBLOCKING);
	assert_int_equal(si->raw_id, 13);
	assert_int_equal(si->device, 0);
	si = timeline_stream(&t, 1);
	assert_non_null(si);
	assert_int_equal(si->kind, SS_SKIND_BLOCKING);
	assert_int_equal(si->device, 2);
	si = timeline_stream(&t, 2);
	assert_non_null(si);
	assert_int_equal(si->kind, SS_SKIND_UNKNOWN);
	assert_int_equal(si->raw_id, 15);
	for (int s = 3; s <= 7; s++)
		assert_null(timeline_stream(&t, s));
	si = timeline_stream(&t, 8);
	assert_non_null(si);
	assert_int_equal(si->kind, SS_SKIND_BLOCKING);
	assert_int_equal(si->raw_id, 31);
	assert_true(t.nstream_info <= 9);
	d = timeline_device(&t, 0);
	assert_non_null(d);
	assert_string_equal(d->name, "ONE");
	assert_string_equal(d->uuid, "GPU-1");
	assert_int_equal(d->copy_engines, 1);
	assert_int_equal(d->context, 7);
	d = timeline_device(&t, 1);
	assert_non_null(d);
	assert_string_equal(d->name, "TWO");
	assert_string_equal(d->uuid, "GPU-2");
	assert_int_equal(d->copy_engines, 3);
	assert_int_equal(d->context, 9);
	d = timeline_device(&t, 2);
	assert_non_null(d);
	assert_string_equal(d->name, "");
	assert_int_equal(d->copy_engines, 0);
	assert_int_equal(d->context, 0);
	d = timeline_device(&t, 3);
	assert_non_null(d);
	assert_string_equal(d->name, "LAST");
	assert_int_equal(d->copy_engines, 0);
	for (int i = 4; i < SS_TIMELINE_MAX_DEVICES; i++)
		assert_null(timeline_device(&t, i));
	timeline_free(&t);
}

/* launch_of returns the launch of the record named name (which must exist), NULL when it has none. */
static const struct ss_launch *launch_of(const struct ss_timeline *t, const char *name)
{
	const struct ss_record *r = find_named(t, name);

	if (r == NULL)
		fail_msg("no record named %s", name);
	return timeline_launch(t, r);
}

/* assert_dims checks a launch's grid and block. */
static void assert_dims(const struct ss_launch *l, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx, uint32_t by,
                        uint32_t bz)
{
	assert_non_null(l);
	assert_int_equal(l->grid[0], gx);
	assert_int_equal(l->grid[1], gy);
	assert_int_equal(l->grid[2], gz);
	assert_int_equal(l->block[0], bx);
	assert_int_equal(l->block[1], by);
	assert_int_equal(l->block[2], bz);
}

/* The export writes a kernel's launch in its X event's args: grid and block as [x, y, z], registers and shared
 * memory only where known, the full name only where it is not the record's; a kernel without one gets none. */
static void test_launch_export(void **state)
{
	struct ss_timeline t;
	char *dir = fx_tmpdir();
	struct ss_record r = {.kind = SS_KIND_KERNEL, .stream = 0, .raw_stream = 13, .end = 10};
	struct ss_launch l = {.raw_stream = 13, .grid = {7, 8, 9}, .block = {32, 4, 2}};
	yajl_val root, ev, args;
	size_t i;
	int seen = 0;

	(void)state;
	timeline_init(&t);
	for (uint32_t c = 1; c <= 4; c++) {
		char name[16];

		snprintf(name, sizeof name, "k%u", c);
		r.correlation = l.correlation = c;
		r.name = timeline_intern(&t, name);
		r.start += 20;
		r.end += 20;
		timeline_add(&t, &r);
		if (c == 2) {
			l.flags = SS_LAUNCH_ATTRS;
			l.registers = 255;
			l.static_smem = 1024;
			l.dynamic_smem = 49152;
			l.full_name = timeline_intern(&t, "void k2<int>(int *)");
		} else if (c == 3) {
			l.flags = 0;
			l.full_name = r.name; /* its own name: nothing more to say */
		}
		if (c != 4)
			timeline_add_launch(&t, &l);
	}
	root = export_and_load(&t, dir);
	json_tree_foreach(json_tree_get(root, "traceEvents"), i, ev)
	{
		const char *name = json_tree_str(json_tree_get(ev, "name"));
		yajl_val grid;

		if (strcmp(json_tree_str(json_tree_get(ev, "ph")), "X") != 0)
			continue;
		seen++;
		args = json_tree_get(ev, "args");
		grid = json_tree_get(args, "grid");
		if (strcmp(name, "k4") == 0) {
			assert_null(grid);
			assert_null(json_tree_get(args, "block"));
			continue;
		}
		assert_true(json_tree_is_array(grid));
		assert_int_equal(json_tree_len(grid), 3);
		assert_int_equal(json_tree_int(json_tree_at(grid, 0)), 7);
		assert_int_equal(json_tree_int(json_tree_at(grid, 2)), 9);
		assert_int_equal(json_tree_len(json_tree_get(args, "block")), 3);
		assert_int_equal(json_tree_int(json_tree_at(json_tree_get(args, "block"), 1)), 4);
		if (strcmp(name, "k2") == 0) {
			assert_int_equal(json_tree_int(json_tree_get(args, "registers")), 255);
			assert_int_equal(json_tree_int(json_tree_get(args, "static_smem")), 1024);
			assert_int_equal(json_tree_int(json_tree_get(args, "dynamic_smem")), 49152);
			assert_string_equal(json_tree_str(json_tree_get(args, "full_name")), "void k2<int>(int *)");
		} else {
			assert_null(json_tree_get(args, "full_name"));
			assert_null(json_tree_get(args, "registers"));
			assert_null(json_tree_get(args, "static_smem"));
		}
	}
	assert_int_equal(seen, 4);
	json_tree_free(root);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* A streamscope trace's launches: each field checked; a grid or block that is not three integers of 1..2^32-1 is
 * no launch, registers and shared memory out of range or missing one of the three are not known; full_name must be a
 * string; the last "grid" of an event wins, the first launch of a kernel's key wins; copies carry none. */
static void test_launch_own(void **state)
{
	static const char json[] =
	    "{\"otherData\":{\"generator\":\"streamscope test\"},\n\"traceEvents\":[\n"
	    "{\"ph\":\"X\",\"name\":\"full\",\"ts\":1,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":1,\"grid\":[1,2,3],\"block\":[4,5,6],\"registers\":32,"
	    "\"static_smem\":100,\"dynamic_smem\":200,\"full_name\":\"void full<int>(int *)\"}},\n"
	    "{\"ph\":\"X\",\"name\":\"no-smem\",\"ts\":2,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":2,\"grid\":[1,1,1],\"block\":[32,1,1],\"registers\":16,"
	    "\"static_smem\":4}},\n"
	    "{\"ph\":\"X\",\"name\":\"two\",\"ts\":3,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":3,\"grid\":[1,2],\"block\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"four\",\"ts\":4,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":4,\"grid\":[1,2,3,4],\"block\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"zero\",\"ts\":5,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":5,\"grid\":[1,0,1],\"block\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"negative\",\"ts\":6,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":6,\"grid\":[1,-1,1],\"block\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"past32\",\"ts\":7,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":7,\"grid\":[1,4294967296,1],\"block\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"string\",\"ts\":8,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":8,\"grid\":[1,\"2\",1],\"block\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"nested\",\"ts\":9,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":9,\"grid\":[1,[2],1],\"block\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"object-in\",\"ts\":10,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":10,\"grid\":[1,{\"y\":2},1],\"block\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"object\",\"ts\":11,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":11,\"grid\":{\"x\":1,\"y\":1,\"z\":1},\"block\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"real\",\"ts\":12,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":12,\"grid\":[1.5,1,1],\"block\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"no-block\",\"ts\":13,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":13,\"grid\":[1,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"max\",\"ts\":14,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":14,\"grid\":[4294967295,65535,65535],\"block\":[1024,1,64],"
	    "\"registers\":4294967296,\"static_smem\":0,\"dynamic_smem\":0,\"full_name\":5}},\n"
	    "{\"ph\":\"X\",\"name\":\"twice\",\"ts\":15,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":15,\"grid\":[9,9,9],\"block\":[2,2,2],\"grid\":[3,3,3]}},\n"
	    "{\"ph\":\"X\",\"name\":\"again\",\"ts\":1,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":1,\"grid\":[7,7,7],\"block\":[7,7,7]}},\n"
	    "{\"ph\":\"X\",\"name\":\"empty-name\",\"ts\":16,\"dur\":1,\"args\":{\"ss_kind\":\"KER\","
	    "\"stream\":0,\"raw_stream\":13,\"correlation\":16,\"grid\":[1,1,1],\"block\":[1,1,1],"
	    "\"full_name\":\"\",\"registers\":0,\"static_smem\":0,\"dynamic_smem\":0}},\n"
	    "{\"ph\":\"X\",\"name\":\"no-corr\",\"ts\":0,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":0,\"grid\":[5,1,1],\"block\":[6,1,1]}},\n"
	    "{\"ph\":\"X\",\"name\":\"copy\",\"ts\":20,\"dur\":1,\"args\":{\"ss_kind\":\"H2D\",\"stream\":0,"
	    "\"raw_stream\":13,\"correlation\":17,\"grid\":[1,1,1],\"block\":[1,1,1]}}\n"
	    "]}";
	static const char *const none[] = {"two",    "four",      "zero",   "negative", "past32",  "string",
	                                   "nested", "object-in", "object", "real",     "no-block"};
	struct ss_timeline t;
	const struct ss_launch *l;

	(void)state;
	load(json, &t);
	assert_int_equal(t.n, 19);
	l = launch_of(&t, "full");
	assert_dims(l, 1, 2, 3, 4, 5, 6);
	assert_int_equal(l->flags, SS_LAUNCH_ATTRS);
	assert_int_equal(l->registers, 32);
	assert_int_equal(l->static_smem, 100);
	assert_int_equal(l->dynamic_smem, 200);
	assert_string_equal(timeline_name(&t, l->full_name), "void full<int>(int *)");
	assert_ptr_equal(launch_of(&t, "again"), l); /* the same key */
	l = launch_of(&t, "no-smem");
	assert_dims(l, 1, 1, 1, 32, 1, 1);
	assert_int_equal(l->flags, 0);
	assert_int_equal(l->registers, 0);
	assert_int_equal(l->static_smem, 0);
	assert_int_equal(l->full_name, 0);
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
		if (launch_of(&t, none[i]) != NULL)
			fail_msg("%s: a launch", none[i]);
	l = launch_of(&t, "max");
	assert_dims(l, 4294967295u, 65535, 65535, 1024, 1, 64);
	assert_int_equal(l->flags, 0);
	assert_int_equal(l->full_name, 0);
	assert_dims(launch_of(&t, "twice"), 3, 3, 3, 2, 2, 2);
	l = launch_of(&t, "empty-name");
	assert_int_equal(l->flags, SS_LAUNCH_ATTRS); /* 0 registers said is 0 registers known */
	assert_int_equal(l->full_name, 0);
	assert_dims(launch_of(&t, "no-corr"), 5, 1, 1, 6, 1, 1); /* our own trace: its key is what the kernel had */
	assert_null(launch_of(&t, "copy"));
	assert_int_equal(t.nlaunch, 6);
	assert_false(t.launch_unsorted);
	timeline_free(&t);
}

/* A foreign trace's kernels with grid and block arrays in args, as PyTorch's profiler writes them, get that launch
 * keyed by their correlation id and track; what else such args say is not read (its registers, shared memory, a
 * full_name), nor a launch of a kernel without correlation id, nor of a copy. */
static void test_launch_foreign(void **state)
{
	static const char json[] =
	    "{\"traceEvents\":[\n"
	    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":1,"
	    "\"dur\":2,\"args\":{\"correlation\":42}},\n"
	    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ampere_sgemm_64x64_nn\",\"pid\":0,\"tid\":7,\"ts\":5,"
	    "\"dur\":30,\"args\":{\"stream\":7,\"correlation\":42,\"device\":0,\"registers per thread\":72,"
	    "\"shared memory\":8192,\"registers\":72,\"static_smem\":0,\"dynamic_smem\":8192,\"full_name\":\"x\","
	    "\"blocks per SM\":0.5,\"grid\":[4,2,1],\"block\":[128,1,1],\"est. achieved occupancy %\":12}},\n"
	    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"same_corr_other_stream\",\"pid\":0,\"tid\":8,\"ts\":6,"
	    "\"dur\":3,\"args\":{\"stream\":8,\"correlation\":42,\"grid\":[1,1,1],\"block\":[64,1,1]}},\n"
	    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"same_key\",\"pid\":0,\"tid\":7,\"ts\":40,\"dur\":3,"
	    "\"args\":{\"stream\":7,\"correlation\":42,\"grid\":[9,9,9],\"block\":[9,9,9]}},\n"
	    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"uncorrelated\",\"pid\":0,\"tid\":7,\"ts\":50,\"dur\":3,"
	    "\"args\":{\"stream\":7,\"grid\":[2,1,1],\"block\":[2,1,1]}},\n"
	    "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pageable -> Device)\",\"pid\":0,\"tid\":7,"
	    "\"ts\":60,\"dur\":3,\"args\":{\"stream\":7,\"correlation\":43,\"grid\":[2,1,1],\"block\":[2,1,1]}},\n"
	    "{\"ph\":\"B\",\"cat\":\"kernel\",\"name\":\"begun\",\"pid\":0,\"tid\":9,\"ts\":70,"
	    "\"args\":{\"correlation\":44,\"grid\":[2,1,1],\"block\":[2,1,1]}},\n"
	    "{\"ph\":\"E\",\"pid\":0,\"tid\":9,\"ts\":71}\n"
	    "]}";
	struct ss_timeline t;
	const struct ss_launch *l;

	(void)state;
	load(json, &t);
	assert_int_equal(t.n, 7);
	l = launch_of(&t, "ampere_sgemm_64x64_nn");
	assert_dims(l, 4, 2, 1, 128, 1, 1);
	assert_int_equal(l->correlation, 42);
	assert_int_equal(l->flags, 0);
	assert_int_equal(l->registers, 0);
	assert_int_equal(l->dynamic_smem, 0);
	assert_int_equal(l->full_name, 0);
	assert_dims(launch_of(&t, "same_corr_other_stream"), 1, 1, 1, 64, 1, 1);
	assert_ptr_equal(launch_of(&t, "same_key"), l);
	assert_null(launch_of(&t, "uncorrelated"));
	assert_null(launch_of(&t, "Memcpy HtoD (Pageable -> Device)"));
	assert_null(launch_of(&t, "begun")); /* launches come with X events only */
	assert_int_equal(t.nlaunch, 2);
	timeline_free(&t);
}

/* outcome imports json (len bytes) and describes the result in one string: the cause, or every record and name,
 * and every launch. */
static char *outcome(const char *json, size_t len)
{
	struct ss_timeline t;
	char *cause = NULL, *out;
	size_t cap = 256 + 160 * 64, n = 0;

	timeline_init(&t);
	if (import_chrome_buffer(json, len, "p.json", &t, &cause) != 0) {
		assert_int_equal(t.n, 0);
		timeline_free(&t);
		return cause;
	}
	cap += t.n * 160 + (size_t)t.nstream_info * 32 + SS_TIMELINE_MAX_DEVICES * 256 + t.nlaunch * 200;
	out = malloc(cap);
	n += (size_t)snprintf(out + n, cap - n, "ok %zu streams %d dev %s mod %d drop %llu ids %d\n", t.n, t.nstreams,
	                      t.device, t.modelled, (unsigned long long)t.dropped, t.stream_ids);
	for (int s = 0; s < t.nstream_info; s++) {
		const struct ss_stream_info *si = timeline_stream(&t, s);

		if (si != NULL)
			n += (size_t)snprintf(out + n, cap - n, "stream %d: %u %d %d\n", s, si->raw_id, si->kind,
			                      si->device);
	}
	for (int d = 0; d < SS_TIMELINE_MAX_DEVICES; d++) {
		const struct ss_device_info *di = timeline_device(&t, d);

		if (di != NULL)
			n += (size_t)snprintf(out + n, cap - n, "device %d: %s %s %d %u\n", d, di->name, di->uuid,
			                      di->copy_engines, di->context);
	}
	for (size_t i = 0; i < t.n && n < cap; i++) {
		const struct ss_record *r = &t.rec[i];

		n += (size_t)snprintf(out + n, cap - n, "%llu %llu %d %d %u %u %u %u %llu %u [%.40s]\n",
		                      (unsigned long long)r->start, (unsigned long long)r->end, r->kind, r->stream,
		                      r->raw_stream, r->thread, r->correlation, r->flags, (unsigned long long)r->bytes,
		                      r->name, timeline_name(&t, r->name));
	}
	for (size_t i = 0; i < t.nlaunch && n < cap; i++) {
		const struct ss_launch *l = &t.launch[i];

		n += (size_t)snprintf(out + n, cap - n, "launch %u %u: %u %u %u / %u %u %u, %u %u %u %u %u [%.40s]\n",
		                      l->correlation, l->raw_stream, l->grid[0], l->grid[1], l->grid[2], l->block[0],
		                      l->block[1], l->block[2], l->registers, l->static_smem, l->dynamic_smem, l->flags,
		                      l->full_name, timeline_name(&t, l->full_name));
	}
	timeline_free(&t);
	return out;
}

/* same_parallel checks that json parses to the same outcome in one go on one thread and in parallel slices of every
 * size from tiny up; returns how many slices workers gave at the smallest size. */
static size_t same_parallel(const char *json, size_t len)
{
	char *want, *got;
	size_t used = 0;

	struct import_chrome_tuning tuning = {.threads = 1};

	import_chrome_tune(&tuning);
	want = outcome(json, len);
	assert_int_equal(import_chrome_parallel_slices(), 0);
	for (size_t slice = 1; slice < len + 64; slice = slice * 3 + 1) {
		tuning = (struct import_chrome_tuning){.threads = 3, .min_bytes = 1, .slice_bytes = slice};
		import_chrome_tune(&tuning);
		got = outcome(json, len);
		if (strcmp(want, got) != 0)
			fail_msg("slices of %zu bytes:\n%.300s\nin one go:\n%.300s", slice, got, want);
		if (slice == 1)
			used = import_chrome_parallel_slices();
		free(got);
	}
	import_chrome_tune(NULL);
	free(want);
	return used;
}

/* The parallel parse: our own export, foreign traces and broken files give exactly the sequential result or message,
 * wherever the slices are cut (inside events written over several lines too). */
static void test_parallel(void **state)
{
	static const char *const docs[] = {
	    /* B/E across slices, E before its B found in a later slice, pretty-printed events */
	    "[\n{\"ph\":\"B\",\"name\":\"o\",\"pid\":1,\"tid\":1,\"ts\":10},\n{\"ph\":\"X\",\"name\":\"k\",\"pid\":2,"
	    "\"tid\":7,\"ts\":11,\"dur\":1},\n  {\n    \"ph\": \"B\",\n    \"name\": \"i\", \"pid\": 1, \"tid\": 1,\n"
	    "    \"ts\": 12,\n    \"args\":\n{\"a\": [\n{\"b\": 1},\n{\"c\": 2}]}\n  "
	    "},\n{\"ph\":\"E\",\"pid\":1,\"tid\":1,"
	    "\"ts\":13},\n{\"ph\":\"X\",\"name\":\"memcpy "
	    "HtoD\",\"pid\":2,\"tid\":8,\"ts\":14,\"dur\":1},\n{\"ph\":\"E\","
	    "\"pid\":1,\"tid\":1,\"ts\":15},\n",
	    "[\n{\"ph\":\"B\",\"name\":\"o\",\"pid\":1,\"tid\":1,\"ts\":10},\n{\"ph\":\"X\",\"name\":\"k\",\"ts\":1,"
	    "\"dur\":1},\n{\"ph\":\"X\",\"name\":\"k2\",\"ts\":2,\"dur\":1},\n{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":"
	    "5},\n"
	    "{\"ph\":\"X\",\"name\":\"k3\",\"ts\":2,\"dur\":1}]",
	    /* errors in a middle slice, at the end, after the array */
	    "{\"traceEvents\":[\n{\"ph\":\"X\",\"ts\":1,\"dur\":1},\n{\"ph\":\"X\",\"ts\":2,\"dur\":-1},\n{\"ph\":"
	    "\"X\","
	    "\"ts\":3,\"dur\":1}]}",
	    "{\"traceEvents\":[\n{\"ph\":\"X\",\"ts\":1,\"dur\":1},\n{\"ph\":\"X\",\"ts\":2,\"dur\":1 \"x\"},\n"
	    "{\"ph\":\"X\",\"ts\":3,\"dur\":1}]}",
	    "{\"traceEvents\":[\n{\"ph\":\"X\",\"ts\":1,\"dur\":1},\n{\"ph\":\"X\",\"ts\":2,\"dur\":1},\n 5,\n"
	    "{\"ph\":\"X\",\"ts\":3,\"dur\":1}]}",
	    "{\"traceEvents\":[\n{\"ph\":\"X\",\"ts\":1,\"dur\":1},\n{\"ph\":\"X\",\"ts\":2,\"dur\":1},\n{\"ph\":\"X\","
	    "\"ts\":3,\"dur\":1},\n",
	    "{\"traceEvents\":[\n{\"ph\":\"X\",\"ts\":1,\"dur\":1},\n{\"ph\":\"X\",\"ts\":2,\"dur\":1}],"
	    "\n\"otherData\":"
	    "{\"generator\":\"streamscope\",\"x\":[\n{\"a\":1},\n{\"b\":2}]}}\n",
	    "{\"traceEvents\":[\n{\"ph\":\"X\",\"ts\":1,\"dur\":1},\n{\"ph\":\"X\",\"ts\":2,\"dur\":1}],\n\"x\":[\n{"
	    "\"a\":1},"
	    "\n{\"b\":2}]} trailing",
	    /* a string can hold ",\n{" only escaped: the cut there is not taken */
	    "[\n{\"ph\":\"X\",\"name\":\"a,\\n{b\",\"ts\":1,\"dur\":1},\n{\"ph\":\"X\",\"name\":\"c\",\"ts\":2,\"dur\":"
	    "1},\n"
	    "{\"ph\":\"X\",\"name\":\"a,\n{\"ts\":3}]",
	    "[\n{\"ph\":\"X\",\"ts\":1,\"dur\":1},\n{\"ph\":\"X\",\"ts\":2,\"dur\":1},\n{\"ph\":\"X\",\"ts\":3,\"dur\":"
	    "1,"
	    "\"args\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]}]",
	};
	struct ss_timeline t;
	struct ss_export_input in = {.t = &t};
	char *dir = fx_tmpdir(), path[512], *cause = NULL, *json;
	size_t len = 0;

	(void)state;
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
		same_parallel(docs[i], strlen(docs[i]));
	/* our own export, with its stream and device tables and launches: every slice but the first and last is a
	 * worker's */
	timeline_init(&t);
	fx_timeline(&t, 3000, 4);
	for (size_t k = 0; k < t.n; k++) {
		const struct ss_record *r = &t.rec[k];
		struct ss_launch l = {.correlation = r->correlation,
		                      .raw_stream = r->raw_stream,
		                      .grid = {(uint32_t)k + 1, 1, 1},
		                      .block = {256, 1, 1},
		                      .registers = 16,
		                      .flags = k % 2 ? SS_LAUNCH_ATTRS : 0};
		char full[32];

		if (r->kind != SS_KIND_KERNEL)
			continue;
		snprintf(full, sizeof full, "kernel_%zu(int)", k % 7); /* names first seen in a worker's slice */
		l.full_name = timeline_intern(&t, full);
		timeline_add_launch(&t, &l);
	}
	timeline_set_stream(&t, 0, 13, SS_SKIND_BLOCKING);
	timeline_set_stream(&t, 2, 15, SS_SKIND_NONBLOCKING);
	timeline_set_stream(&t, 6, 19, SS_SKIND_PER_THREAD);
	timeline_set_device(&t, 1, "SECOND", "GPU-1111", 3);
	timeline_set_copy_engines(&t, 1, 2);
	snprintf(path, sizeof path, "%s/t.json", dir);
	assert_int_equal(export_chrome(path, &in, &cause), 0);
	json = fx_read(path, &len);
	assert_non_null(json);
	assert_true(same_parallel(json, len) > 1000);
	/* cut short anywhere */
	for (size_t cut = len / 7; cut < len; cut += len / 7)
		same_parallel(json, cut);
	free(json);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* import_file sniffs JSON by content, whatever the extension. */
static void test_sniff(void **state)
{
	struct ss_timeline t, back;
	struct ss_export_input in = {.t = &t};
	char *dir = fx_tmpdir(), path[512], odd[512], *cause = NULL;

	(void)state;
	timeline_init(&t);
	fx_timeline(&t, 100, 2);
	snprintf(path, sizeof path, "%s/t.json", dir);
	assert_int_equal(export_chrome(path, &in, &cause), 0);
	snprintf(odd, sizeof odd, "%s/trace.sqlite", dir);
	assert_int_equal(rename(path, odd), 0);
	timeline_init(&back);
	if (import_file(odd, &back, &cause) != 0)
		fail_msg("%s", cause);
	fx_same_records(&t, &back);
	timeline_free(&back);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* Two devices: a process per device named by its title, a thread per stream and engine, each peer copy drawn again
 * on its far device's peer thread (peer_end, which the importer skips: the round trip keeps one record). */
static void test_device_layout(void **state)
{
	struct ss_timeline t, back;
	char *dir = fx_tmpdir(), path[512], *cause = NULL;
	yajl_val root, events, ev;
	size_t i, nx = 0, nfar = 0, npeer = 0;
	bool gpu0 = false, gpu1 = false, peer_thread = false, stream_thread = false;
	struct ss_export_input in = {.t = NULL};

	(void)state;
	timeline_init(&t);
	fx_timeline(&t, 800, 4);
	timeline_set_device(&t, 1, "SECOND", "GPU-1111", 0);
	for (size_t k = 0; k < t.n; k++)
		npeer += t.rec[k].kind == SS_KIND_D2D && (t.rec[k].flags & SS_REC_PEER);
	assert_true(npeer > 0);
	root = export_and_load(&t, dir);
	events = json_tree_get(root, "traceEvents");
	json_tree_foreach(events, i, ev)
	{
		const char *ph = json_tree_str(json_tree_get(ev, "ph"));
		const char *name = json_tree_str(json_tree_get(ev, "name"));
		yajl_val args = json_tree_get(ev, "args");
		long long pid = json_tree_int(json_tree_get(ev, "pid"));

		if (strcmp(ph, "M") == 0 && strcmp(name, "process_name") == 0) {
			const char *v = json_tree_str(json_tree_get(args, "name"));

			gpu0 |= pid == 100 && strcmp(v, "GPU 0: NVIDIA H200") == 0;
			gpu1 |= pid == 101 && strcmp(v, "GPU 1: SECOND (GPU-1111)") == 0;
		} else if (strcmp(ph, "M") == 0 && strcmp(name, "thread_name") == 0) {
			const char *v = json_tree_str(json_tree_get(args, "name"));

			peer_thread |= strcmp(v, "Peer copies from other GPUs") == 0;
			stream_thread |= strcmp(v, "Stream 0 Compute") == 0;
		} else if (strcmp(ph, "X") == 0) {
			nx++;
			if (json_tree_int(json_tree_get(args, "peer_end")) == 1) {
				nfar++;
				assert_true(pid == 100 || pid == 101);
			}
		}
	}
	if (!(gpu0 && gpu1 && peer_thread && stream_thread))
		fail_msg("gpu0 %d gpu1 %d peer %d stream %d", gpu0, gpu1, peer_thread, stream_thread);
	assert_int_equal(nfar, npeer);
	assert_int_equal(nx, t.n + npeer);
	json_tree_free(root);
	in.t = &t;
	snprintf(path, sizeof path, "%s/devices.json", dir);
	if (export_file(path, &in, &cause) != 0)
		fail_msg("%s", cause);
	timeline_init(&back);
	if (import_file(path, &back, &cause) != 0)
		fail_msg("%s", cause);
	fx_same_records(&t, &back);
	timeline_free(&back);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_metadata_and_flows), cmocka_unit_test(test_device_layout),
	    cmocka_unit_test(test_escaping),           cmocka_unit_test(test_foreign_pytorch),
	    cmocka_unit_test(test_foreign_array),      cmocka_unit_test(test_json_details),
	    cmocka_unit_test(test_parallel),           cmocka_unit_test(test_sniff),
	    cmocka_unit_test(test_foreign_metadata),   cmocka_unit_test(test_own_metadata),
	    cmocka_unit_test(test_launch_export),      cmocka_unit_test(test_launch_own),
	    cmocka_unit_test(test_launch_foreign),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
