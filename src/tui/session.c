/* session.c: runs, their baselines and the sweep, one runner child at a time. */
#include "tui/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/planner.h"
#include "core/xalloc.h"
#include "model/predict.h"

static double session_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool session_same(const struct ss_experiment *a, const struct ss_experiment *b)
{
	return a->preset == b->preset && a->kernel == b->kernel && a->streams == b->streams &&
	       a->elements == b->elements && a->chunks == b->chunks && a->elem_size == b->elem_size &&
	       a->work == b->work && a->order == b->order && a->sync == b->sync && a->defstream == b->defstream &&
	       a->nonblocking == b->nonblocking && a->hostmem == b->hostmem && a->connections == b->connections &&
	       a->threads == b->threads && a->repeat == b->repeat && a->warmup == b->warmup &&
	       a->prefetch_events == b->prefetch_events && experiment_same_program(a, b);
}

/* session_run_new makes an empty run of e (NULL: a trace's) on backend, numbered after s's last. */
static struct ss_run *session_run_new(struct ss_session *s, const struct ss_experiment *e, const char *backend)
{
	struct ss_run *r = xcalloc(1, sizeof *r);

	r->id = ++s->next_id;
	if (e != NULL)
		r->exp = *e;
	timeline_init(&r->tl);
	lanes_init(&r->lanes);
	r->tl.nstreams = e != NULL ? e->streams : 0;
	if (backend != NULL)
		snprintf(r->tl.backend, sizeof r->tl.backend, "%s", backend);
	return r;
}

static void session_run_free(struct ss_run *r)
{
	if (r == NULL)
		return;
	lanes_free(&r->lanes);
	if (!r->file)
		timeline_free(&r->tl);
	free(r);
}

/* session_index rebuilds a run's Gantt index and remembers what it cost. */
static void session_index(struct ss_run *r, double now)
{
	double t = session_clock();

	lanes_build(&r->lanes, &r->tl);
	r->index_cost = session_clock() - t;
	r->indexed_at = now;
}

void session_init(struct ss_session *s, const struct ss_backend *b, const struct ss_timeline *file)
{
	memset(s, 0, sizeof *s);
	s->backend = b;
	s->runner.pid = -1;
	s->runner.fd = -1;
	timeline_init(&s->scratch);
	if (file != NULL) {
		struct ss_run *r = session_run_new(s, NULL, NULL);

		/* a view of the caller's timeline, not a copy: a big trace costs its records once (the index sorts
		 * its own record numbers, the analysis needs no order) */
		timeline_free(&r->tl);
		r->tl = *file;
		r->file = true;
		session_index(r, 0);
		analysis_timeline(&r->tl, &r->an);
		analysis_observer(&r->an, NULL);
		r->done = true;
		s->shown = r;
	}
}

/* session_sweep_free frees the sweep and its points' timelines. */
static void session_sweep_free(struct ss_session *s)
{
	for (size_t i = 0; s->sweep_tl != NULL && i < s->sweep.n; i++)
		timeline_free(&s->sweep_tl[i]);
	free(s->sweep_tl);
	s->sweep_tl = NULL;
	sweep_free(&s->sweep);
	s->have_sweep = false;
}

void session_free(struct ss_session *s)
{
	if (s->job != JOB_NONE)
		runner_free(&s->runner);
	session_run_free(s->shown);
	session_run_free(s->capture);
	session_run_free(s->pinned);
	timeline_free(&s->scratch);
	if (s->have_sweep)
		session_sweep_free(s);
	memset(s, 0, sizeof *s);
}

/* session_base_exp is the one-stream experiment whose run is e's baseline. */
static void session_base_exp(const struct ss_experiment *e, struct ss_experiment *b)
{
	*b = *e;
	b->streams = 1;
	if (b->threads > 1)
		b->threads = 1;
	if (b->chunks == 0)
		b->order = SS_ORDER_DEPTH; /* one chunk: both orders issue the same three operations */
}

static struct ss_session_base *session_base_find(struct ss_session *s, const struct ss_experiment *e)
{
	struct ss_experiment b;

	session_base_exp(e, &b);
	for (int i = 0; i < s->nbase; i++)
		if (session_same(&s->base[i].exp, &b))
			return &s->base[i];
	return NULL;
}

/* session_base_add keeps a new baseline slot for e's one-stream twin, reusing the oldest once SESSION_MAX_BASES are
 * held. */
static struct ss_session_base *session_base_add(struct ss_session *s, const struct ss_experiment *e)
{
	struct ss_session_base *b;

	if (s->nbase < SESSION_MAX_BASES) {
		b = &s->base[s->nbase++];
	} else {
		b = &s->base[s->base_next];
		s->base_next = (s->base_next + 1) % SESSION_MAX_BASES;
	}
	memset(b, 0, sizeof *b);
	session_base_exp(e, &b->exp);
	return b;
}

/* session_compare fills speedup and bound of a finished run whose baseline is known. */
static bool session_compare(struct ss_session *s, struct ss_run *r)
{
	struct ss_session_base *b;
	struct ss_oplist ops;

	if (r == NULL || r->file || !r->done || r->compared)
		return false;
	if ((b = session_base_find(s, &r->exp)) == NULL || b->failed)
		return false;
	planner_build(&r->exp, &ops);
	analysis_compare(&r->an, &b->an, ops.nchunks, r->an.used_ns, b->an.used_ns, planner_work_ratio(&ops, &b->exp));
	planner_free(&ops);
	r->compared = true;
	return true;
}

/* session_predict asks the model for the makespan of a run measured on a GPU (with the profile, and with the
 * run's own call costs). */
static void session_predict(struct ss_session *s, struct ss_run *r)
{
	struct ss_prediction pr;

	if (s->backend == NULL || s->backend->modelled || r->file)
		return;
	predict_run(&r->exp, &r->tl, &pr);
	r->have_predicted = pr.have;
	r->predicted_ns = pr.profile_ns;
	r->have_predicted_calls = pr.have_calls;
	r->predicted_calls_ns = pr.calls_ns;
}

/* session_stop cancels the runner's job. A sweep point is kept to run again. */
static void session_stop(struct ss_session *s)
{
	if (s->job == JOB_NONE)
		return;
	runner_free(&s->runner);
	if (s->job == JOB_MAIN) {
		session_run_free(s->capture);
		s->capture = NULL;
	} else if (s->job == JOB_SWEEP) {
		s->retry = true;
		s->retry_point = s->job_point;
		s->retry_exp = s->job_exp;
	}
	s->job = JOB_NONE;
}

/* session_launch starts job j on e; on failure it reports through message and returns false. */
static bool session_launch(struct ss_session *s, enum ss_job j, const struct ss_experiment *e)
{
	char *cause = NULL;

	if (runner_start(&s->runner, s->backend, e, &cause) != 0) {
		snprintf(s->message, sizeof s->message, "cannot run: %s", cause ? cause : "?");
		free(cause);
		runner_free(&s->runner);
		return false;
	}
	s->job = j;
	s->job_exp = *e;
	return true;
}

/* session_schedule starts the most urgent job when the runner is idle: the requested run, then the shown run's
 * baseline, then sweep points. */
static unsigned session_schedule(struct ss_session *s)
{
	struct ss_experiment e;

	if (s->job != JOB_NONE || s->backend == NULL)
		return 0;
	if (s->want) {
		s->want = false;
		s->capture = session_run_new(s, &s->want_exp, s->backend->name);
		if (!session_launch(s, JOB_MAIN, &s->want_exp)) {
			session_run_free(s->capture);
			s->capture = NULL;
			return SES_FAILED;
		}
		return 0;
	}
	{
		struct ss_run *need[2] = {s->shown, s->pinned};

		for (int i = 0; i < 2; i++) {
			if (need[i] == NULL || need[i]->file || !need[i]->done || need[i]->compared ||
			    session_base_find(s, &need[i]->exp) != NULL)
				continue;
			session_base_exp(&need[i]->exp, &e);
			timeline_clear(&s->scratch);
			if (!session_launch(s, JOB_BASELINE, &e)) {
				session_base_add(s, &need[i]->exp)->failed = true;
				return SES_FAILED;
			}
			return 0;
		}
	}
	if (s->have_sweep && (s->retry || s->sweep.next < s->sweep.n)) {
		size_t idx;

		if (s->retry) {
			e = s->retry_exp;
			idx = s->retry_point;
			s->retry = false;
		} else if (!sweep_next(&s->sweep, &e, &idx)) {
			return 0;
		}
		timeline_clear(&s->scratch);
		s->job_point = idx;
		if (!session_launch(s, JOB_SWEEP, &e)) {
			sweep_done(&s->sweep, idx, NULL, NULL, s->message);
			return SES_SWEEP | SES_FAILED;
		}
	}
	return 0;
}

/* session_finish handles the end of the runner's job. */
static unsigned session_finish(struct ss_session *s, double now)
{
	struct ss_runner *rn = &s->runner;
	enum ss_job j = s->job;
	unsigned ch = 0;

	s->job = JOB_NONE;
	if (rn->code != 0) {
		snprintf(s->message, sizeof s->message, "%s failed: %s",
		         j == JOB_MAIN       ? "the run"
		         : j == JOB_BASELINE ? "the one-stream baseline"
		                             : "a sweep point",
		         rn->error ? rn->error : "the runner failed");
		ch |= SES_FAILED;
	}
	switch (j) {
	case JOB_MAIN: {
		struct ss_run *r = s->capture;

		s->capture = NULL;
		if (rn->code != 0) {
			session_run_free(r);
			break;
		}
		r->res = rn->res;
		r->have_res = true;
		runner_result_apply(&r->tl, &rn->res);
		timeline_sort(&r->tl);
		session_index(r, now);
		r->id = ++s->next_id; /* sorted: its record numbers changed */
		analysis_timeline(&r->tl, &r->an);
		analysis_observer(&r->an, &r->res);
		r->done = true;
		if (r->exp.streams == 1 && session_base_find(s, &r->exp) == NULL) {
			struct ss_experiment b;

			session_base_exp(&r->exp, &b);
			if (session_same(&b, &r->exp))
				session_base_add(s, &r->exp)->an = r->an;
		}
		session_predict(s, r);
		session_compare(s, r);
		session_run_free(s->shown);
		s->shown = r;
		ch |= SES_SHOWN;
		break;
	}
	case JOB_BASELINE: {
		struct ss_session_base *b = session_base_add(s, &s->job_exp);

		if (rn->code != 0) {
			b->failed = true;
			break;
		}
		analysis_timeline(&s->scratch, &b->an);
		analysis_observer(&b->an, &rn->res);
		{
			bool shown = session_compare(s, s->shown), pinned = session_compare(s, s->pinned); /* both */

			if (shown || pinned)
				ch |= SES_STATS;
		}
		break;
	}
	case JOB_SWEEP:
		if (rn->code != 0) {
			sweep_done(&s->sweep, s->job_point, NULL, NULL, rn->error ? rn->error : "the runner failed");
		} else {
			timeline_sort(&s->scratch);
			sweep_done(&s->sweep, s->job_point, &s->scratch, &rn->res, NULL);
			if (s->sweep_tl != NULL && s->job_point < s->sweep.n) {
				timeline_free(&s->sweep_tl[s->job_point]);
				timeline_copy(&s->sweep_tl[s->job_point], &s->scratch);
				runner_result_apply(&s->sweep_tl[s->job_point], &rn->res);
			}
		}
		ch |= SES_SWEEP;
		break;
	default:
		break;
	}
	runner_free(rn);
	return ch;
}

void session_request(struct ss_session *s, const struct ss_experiment *e)
{
	if (s->backend == NULL)
		return;
	session_stop(s);
	s->want = true;
	s->want_exp = *e;
	s->last = *e;
	s->have_last = true;
	session_schedule(s);
}

unsigned session_poll(struct ss_session *s, double now)
{
	unsigned ch = 0;

	if (s->job != JOB_NONE) {
		struct ss_timeline *tl = s->job == JOB_MAIN ? &s->capture->tl : &s->scratch;
		size_t before = tl->n;

		if (runner_poll(&s->runner, tl, false) == 1)
			ch |= session_finish(s, now);
		else if (s->job == JOB_MAIN && tl->n != before)
			ch |= SES_RECORDS;
	}
	ch |= session_schedule(s);
	if (s->capture != NULL && s->capture->tl.n != s->capture->lanes.indexed) {
		double wait = 4 * s->capture->index_cost;

		if (now - s->capture->indexed_at >= (wait > 0.1 ? wait : 0.1)) {
			session_index(s->capture, now);
			ch |= SES_RECORDS;
		}
	}
	return ch;
}

int session_fd(const struct ss_session *s)
{
	return s->job != JOB_NONE ? s->runner.fd : -1;
}

bool session_busy(const struct ss_session *s)
{
	return s->job != JOB_NONE || s->want;
}

struct ss_run *session_view(const struct ss_session *s)
{
	return s->shown != NULL ? s->shown : s->capture;
}

const struct ss_experiment *session_experiment(const struct ss_session *s)
{
	return s->have_last ? &s->last : NULL;
}

bool session_pin(struct ss_session *s)
{
	if (s->pinned != NULL) {
		if (s->shown == NULL) {
			s->shown = s->pinned;
		} else {
			session_run_free(s->pinned);
		}
		s->pinned = NULL;
		return false;
	}
	if (s->shown == NULL || !s->shown->done)
		return false;
	s->pinned = s->shown;
	s->shown = NULL;
	return true;
}

/* session_sweep_key normalises what a sweep varies, so that sweeps of one base compare equal: the stream count, and
 * the order within the pair of orders it sweeps. */
static void session_sweep_key(const struct ss_experiment *e, struct ss_experiment *k)
{
	enum ss_order pair[2];

	*k = *e;
	k->streams = 1;
	sweep_both_orders(e, pair);
	k->order = pair[0];
	if (k->threads > 1)
		k->threads = 2;
}

void session_sweep(struct ss_session *s, const struct ss_experiment *e)
{
	enum ss_order orders[2];
	struct ss_experiment a, b;

	if (s->backend == NULL)
		return;
	if (s->have_sweep) {
		session_sweep_key(&s->sweep.base, &a);
		session_sweep_key(e, &b);
		if (session_same(&a, &b))
			return;
		if (s->job == JOB_SWEEP)
			session_stop(s);
		s->retry = false;
		session_sweep_free(s);
	}
	sweep_both_orders(e, orders);
	sweep_init_default(&s->sweep, e, orders, 2);
	s->sweep_tl = xcalloc(s->sweep.n, sizeof *s->sweep_tl);
	for (size_t i = 0; i < s->sweep.n; i++)
		timeline_init(&s->sweep_tl[i]);
	s->have_sweep = true;
	session_schedule(s);
}

bool session_open_point(struct ss_session *s, size_t index)
{
	const struct ss_sweep_point *p;
	struct ss_experiment e;
	struct ss_run *r;

	if (!s->have_sweep || s->sweep_tl == NULL || index >= s->sweep.n)
		return false;
	p = &s->sweep.pt[index];
	if (!p->done || p->failed)
		return false;
	sweep_point_experiment(&s->sweep, index, &e);
	r = session_run_new(s, &e, s->backend != NULL ? s->backend->name : NULL);
	timeline_free(&r->tl);
	timeline_copy(&r->tl, &s->sweep_tl[index]);
	session_index(r, 0);
	r->an = p->a;
	r->done = true;
	r->compared = true;
	session_run_free(s->shown);
	s->shown = r;
	return true;
}

bool session_sweep_running(const struct ss_session *s)
{
	return s->have_sweep && sweep_progress(&s->sweep) < s->sweep.n;
}
