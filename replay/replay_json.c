// SPDX-License-Identifier: GPL-2.0
/*
 * JSON of `schedreplay replay --json` (schema: docs/replay.md).  Latency
 * distributions use the keys of `schedreplay report` (S objects, µs).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/cli.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/sim.h>

#include "calib.h"

const char *const replay_compared_counts[REPLAY_NR_COMPARED] = {
	"sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_migrate_task",
	"sched_stat_runtime",
};

const struct replay_func replay_funcs[REPLAY_NR_FUNCS] = {
	{ "update_curr", "update_curr" },
	{ "update_load_avg", "update_load_avg" },
	{ "update_cfs_group", "update_cfs_group.entries" },
	{ "reweight_entity", "reweight_entity" },
	{ "update_tg_load_avg", "update_tg_load_avg.entries" },
	{ "propagate_entity_load_avg", "propagate_entity_load_avg.entries" },
	{ "update_blocked_averages", "update_blocked_averages" },
	{ "newidle_balance", "newidle_balance" },
	{ "place_entity", "place_entity" },
};

bool replay_func_measured(const struct wl_workload *wl, int i, int64_t *count)
{
	const char *key = replay_funcs[i].key;

	if (wl_sidecar_func_get(wl, key, count))
		return true;
	/* a sidecar keyed by the traced kernel's symbol: the name of any profile's kernel */
	for (unsigned int p = 0; p < model_profile_count(); p++) {
		const char *fn = model_profile_func_name(model_profile_at(p), key);

		if (strcmp(fn, key) && wl_sidecar_func_get(wl, fn, count))
			return true;
	}
	return false;
}

bool replay_has_func_counts(const struct wl_workload *wl)
{
	int64_t m;

	for (int i = 0; i < REPLAY_NR_FUNCS; i++)
		if (replay_func_measured(wl, i, &m))
			return true;
	return false;
}

const char *replay_func_name(const struct model_profile *p, int i)
{
	return p ? model_profile_func_name(p, replay_funcs[i].key) : replay_funcs[i].key;
}

void replay_lost_windows_text(const struct wl_workload *wl, char *buf, size_t len)
{
	uint32_t n = wl_nr_lost_windows(wl), shown = n > 4 ? 4 : n;
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < shown && at < len; i++) {
		const struct wl_lost_window *w = wl_lost_window(wl, i);
		char cnt[48];

		if (w->events == TRACE_LOST_UNKNOWN)
			snprintf(cnt, sizeof(cnt), "an unknown number lost");
		else
			snprintf(cnt, sizeof(cnt), "%" PRIu64 " lost", w->events);
		if (w->at_start && w->from >= w->to)  /* its first record is the trace's first */
			at += (size_t)snprintf(buf + at, len - at, "%sCPU %d before the trace start "
					       "(%s)", i ? ", " : "", w->cpu, cnt);
		else
			at += (size_t)snprintf(buf + at, len - at, "%sCPU %d in [%" PRIu64 ".%06"
					       PRIu64 ", %" PRIu64 ".%06" PRIu64 ") (%s)",
					       i ? ", " : "", w->cpu, w->from / 1000000000u,
					       w->from % 1000000000u / 1000u, w->to / 1000000000u,
					       w->to % 1000000000u / 1000u, cnt);
	}
	if (n > shown && at < len)
		snprintf(buf + at, len - at, " and %" PRIu32 " more", n - shown);
}

uint64_t replay_unseen_text(const struct replay_result *r, char *buf, size_t len)
{
	unsigned int it = 0;
	const char *name;
	uint64_t v, tot = 0;
	size_t at = 0;

	buf[0] = '\0';
	while (replay_unseen_next(r, &it, &name, &v)) {
		if (!v)
			continue;
		/* the restored ones are of the switches: not added twice */
		if (strcmp(name, "sched_switch_restored"))
			tot += v;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s %" PRIu64, at ? ", " : "",
					       name, v);
	}
	return tot;
}

uint64_t replay_measured_count(const struct wl_workload *wl, const char *name)
{
	const struct wl_counts *c = wl_counts(wl);

	if (!strcmp(name, "sched_switch"))
		return c->sched_switch;
	if (!strcmp(name, "sched_switch_restored"))
		return c->sched_switch_restored;
	if (!strcmp(name, "sched_waking"))
		return c->sched_waking;
	if (!strcmp(name, "sched_wakeup"))
		return c->sched_wakeup;
	if (!strcmp(name, "sched_wakeup_new"))
		return c->sched_wakeup_new;
	if (!strcmp(name, "sched_migrate_task"))
		return c->sched_migrate_task;
	if (!strcmp(name, "sched_stat_runtime"))
		return c->sched_stat_runtime_fair;
	/* the events of tasks not in the fair class (RT/DL, and any unknown task's) */
	if (!strcmp(name, "sched_stat_runtime_rt_dl"))
		return c->sched_stat_runtime - c->sched_stat_runtime_fair;
	return 0;
}

bool replay_count_untraced(const struct wl_workload *wl, const char *name)
{
	if (!strcmp(name, "sched_stat_runtime"))
		return !wl_counts(wl)->sched_stat_runtime;
	return !replay_measured_count(wl, name);
}

/*
 * Each sampled task's comm tally, the one walk of replay_nonfair_samples()
 * and replay_nonfair_comms(): the by-comm groups (lat_task_comm_next()) each
 * measured latency task with wakeup samples has them in, and how many, with
 * whether the workload's task of its pid when it appeared (pid reuse:
 * wl_task_of_pid()) is fair.  The cursor from { .wl = wl }; false after the
 * last.
 */
struct sampled_comms {
	const struct wl_workload *wl;
	size_t next;                 /* the next measured task */
	const struct lat_task *lt;   /* the measured task being walked */
	const struct wl_task *t;     /* its workload task, NULL if not sampled */
	size_t it;                   /* its lat_task_comm_next() cursor */
};

static bool sampled_comm_next(struct sampled_comms *s, const char **comm, uint64_t *k,
			      bool *fair)
{
	const struct lat_machine *ml = wl_measured_latency(s->wl);

	for (;;) {
		if (s->t && lat_task_comm_next(ml, s->lt, &s->it, LAT_WAKEUP, comm, k)) {
			*fair = s->t->cls == WL_CLASS_FAIR;
			return true;
		}
		if (s->next >= lat_nr_tasks(ml))
			return false;
		s->lt = lat_task_at(ml, s->next++);
		s->t = s->lt->lat[LAT_WAKEUP].count ?
			wl_task_of_pid(s->wl, s->lt->pid, s->lt->first_ts) : NULL;
		s->it = 0;
	}
}

/*
 * sim.h.  The samples of each task that the filter passed, as the groups
 * took them (by the comm at the sample time: lat_task_comm_next()), of the
 * tasks whose workload task of their pid when they appeared (pid reuse) is
 * RT/DL.  (Until 1 Dec 2026 the filter was asked of the task's last comm and
 * took all its samples or none: under --comm, a task renamed into or out of
 * the prefix counted wrongly.)
 */
uint64_t replay_nonfair_samples(const struct wl_workload *wl)
{
	struct sampled_comms s = { .wl = wl };
	const char *c;
	uint64_t k, n = 0;
	bool fair;

	while (sampled_comm_next(&s, &c, &k, &fair))
		if (!fair)
			n += k;
	return n;
}

/*
 * sim.h.  A task is under a comm if it has wakeup samples in that comm's
 * group: the groups take each sample by the task's comm at the sample time,
 * so a task renamed A -> B -> C is under each comm it had samples as, B too,
 * and a fair task's samples under a comm keep the mark off.  (Until 1 Dec
 * 2026 a task was under its first or its last comm only: a fair task with
 * samples under its middle comm did not keep that comm's mark off, and an
 * RT/DL one did not count for it.)  One pass over the tasks' comm tallies,
 * sorted by comm (n log n), then a bisection per comm asked: asked per
 * printed comm, a scan of every task made --top 0 quadratic in the tasks.
 */
struct comm_cls {
	const char *comm;
	bool fair;
};

static int cmp_comm_cls(const void *a, const void *b)
{
	return strcmp(((const struct comm_cls *)a)->comm, ((const struct comm_cls *)b)->comm);
}

int replay_nonfair_comms(const struct wl_workload *wl, struct replay_nonfair_comms *out)
{
	struct sampled_comms s = { .wl = wl };
	struct comm_cls *v = NULL;
	size_t n = 0, cap = 0;
	const char *c;
	uint64_t k;
	bool of_fair;

	*out = (struct replay_nonfair_comms){ 0 };
	while (sampled_comm_next(&s, &c, &k, &of_fair)) {
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 64;
			struct comm_cls *nv = realloc(v, nc * sizeof(*nv));

			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
			cap = nc;
		}
		v[n++] = (struct comm_cls){ c, of_fair };
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_comm_cls);
	/* each comm once, kept if none of its entries is a fair task's */
	for (size_t i = 0, j; i < n; i = j) {
		bool fair = false;

		for (j = i; j < n && !strcmp(v[j].comm, v[i].comm); j++)
			fair |= v[j].fair;
		if (fair)
			continue;
		if (!out->comm && !(out->comm = malloc(n * sizeof(*out->comm)))) {
			free(v);
			return -1;
		}
		out->comm[out->n++] = v[i].comm;
	}
	free(v);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool replay_nonfair_comm(const struct replay_nonfair_comms *s, const char *comm)
{
	return s && s->n && bsearch(&comm, s->comm, s->n, sizeof(*s->comm), cmp_str);
}

void replay_nonfair_comms_free(struct replay_nonfair_comms *s)
{
	free(s->comm);
	*s = (struct replay_nonfair_comms){ 0 };
}

static json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)(v > INT64_MAX ? INT64_MAX : v));
}

static json_t *jus(uint64_t ns)
{
	return json_real((double)ns / 1000.0);
}

json_t *replay_json_dist(const struct sr_hist *h)
{
	return sr_hist_json(h);
}

/* A group's member in groups_json(): its distribution of @kind, or its samples over LAT_LONG_NS */
static json_t *group_dist(const struct lat_group *g, enum lat_kind kind)
{
	return replay_json_dist(&g->lat[kind]);
}

static json_t *group_over_long(const struct lat_group *g, enum lat_kind kind)
{
	return jint(g->over_long[kind]);
}

/* {group: value(g, @kind)} for the groups of @key with samples of @kind */
static json_t *groups_json(const struct lat_machine *lat, enum lat_group_key key,
			   enum lat_kind kind,
			   json_t *(*value)(const struct lat_group *g, enum lat_kind kind))
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < lat_nr_groups(lat, key); i++) {
		const struct lat_group *g = lat_group_at(lat, key, i);
		char kb[CLI_ESC_MAX + 4];

		if (g->lat[kind].count)
			json_object_set_new(o, g->key[0] ? sr_json_key(g->key, kb, sizeof(kb)) : "?",
					    value(g, kind));
	}
	return o;
}

json_t *replay_json_latency(const struct lat_machine *lat, enum lat_kind kind)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "all", replay_json_dist(lat_get_all(lat, kind)));
	json_object_set_new(o, "by_comm", groups_json(lat, LAT_BY_COMM, kind, group_dist));
	json_object_set_new(o, "by_cgroup", groups_json(lat, LAT_BY_CGROUP, kind, group_dist));
	return o;
}

json_t *replay_json_long_waits(const struct lat_machine *lat)
{
	static const char *const name[LAT_NR_KINDS] = { "wakeup_latency", "runqueue_wait" };
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "over_us", jint(LAT_LONG_NS / 1000));
	for (int k = 0; k < LAT_NR_KINDS; k++) {
		json_t *e = json_object();

		json_object_set_new(e, "all", jint(lat_get_all_over_long(lat, k)));
		json_object_set_new(e, "by_comm", groups_json(lat, LAT_BY_COMM, k, group_over_long));
		json_object_set_new(e, "by_cgroup", groups_json(lat, LAT_BY_CGROUP, k, group_over_long));
		json_object_set_new(o, name[k], e);
	}
	return o;
}

json_t *replay_json_variant(const struct replay_result *r)
{
	json_t *o = json_object(), *c = json_object(), *sim = json_object(), *notes = json_array();
	unsigned int it = 0;
	const char *name, *text;
	uint64_t v;
	char sfb[MODEL_SCHED_FEATURES_TEXT];
	const char *sft;

	if (!o || !c || !sim || !notes) {
		json_decref(o);
		json_decref(c);
		json_decref(sim);
		json_decref(notes);
		return NULL;
	}
	while (replay_count_next(r, &it, &name, &v))
		json_object_set_new(c, name, jint(v));
	json_object_set_new(o, "counts", c);
	if (replay_lost_windows(r)) {
		/* the predicted events left out of "counts": in lost-events windows */
		json_t *u = json_object();

		if (!u) {
			json_decref(o);
			json_decref(sim);
			json_decref(notes);
			return NULL;
		}
		it = 0;
		while (replay_unseen_next(r, &it, &name, &v))
			json_object_set_new(u, name, jint(v));
		json_object_set_new(o, "counts_in_lost_windows", u);
	}
	json_object_set_new(o, "wakeup_latency_us", replay_json_latency(replay_latency(r), LAT_WAKEUP));
	json_object_set_new(o, "runqueue_wait_us", replay_json_latency(replay_latency(r), LAT_RUNQ_WAIT));
	json_object_set_new(o, "wakeup_paths", lat_json_paths(replay_latency(r)));
	json_object_set_new(o, "long_waits", replay_json_long_waits(replay_latency(r)));
	json_object_set_new(sim, "events", jint(replay_events(r)));
	json_object_set_new(sim, "busy_ns", jint(replay_busy_ns(r)));
	json_object_set_new(sim, "end_ts_ns", jint(replay_end_ts(r)));
	json_object_set_new(sim, "work_unfinished", json_boolean(replay_work_unfinished(r)));
	it = 0;
	while (replay_note_next(r, &it, &text, &v)) {
		json_t *n = json_object();

		json_object_set_new(n, "count", jint(v));
		json_object_set_new(n, "what", json_string(text));
		json_array_append_new(notes, n);
	}
	json_object_set_new(sim, "approximations", notes);
	json_object_set_new(o, "simulation", sim);
	/* this run's toggles (--sched-feature and its variants'): runs differ */
	sft = model_sched_features_text(replay_result_sched_features(r), sfb, sizeof(sfb));
	if (sft)
		json_object_set_new(o, "sched_features", json_string(sft));
	return o;
}

json_t *replay_json_measured(const struct wl_workload *wl)
{
	const struct wl_counts *n = wl_counts(wl);
	json_t *o = json_object(), *c = json_object(), *none = json_array();
	unsigned int it = 0;
	const char *name;
	int64_t v;

	if (!o || !c || !none) {
		json_decref(o);
		json_decref(c);
		json_decref(none);
		return NULL;
	}
	/* every switch of the stream; of them restored: not records of the file */
	json_object_set_new(c, "sched_switch", jint(n->sched_switch));
	json_object_set_new(c, "sched_switch_restored", jint(n->sched_switch_restored));
	json_object_set_new(c, "sched_waking", jint(n->sched_waking));
	json_object_set_new(c, "sched_wakeup", jint(n->sched_wakeup));
	json_object_set_new(c, "sched_wakeup_new", jint(n->sched_wakeup_new));
	json_object_set_new(c, "sched_migrate_task", jint(n->sched_migrate_task));
	/* like with like: the model predicts the fair class's update_curr events */
	json_object_set_new(c, "sched_stat_runtime", jint(n->sched_stat_runtime_fair));
	json_object_set_new(c, "sched_stat_runtime_all_classes", jint(n->sched_stat_runtime));
	/* the model's sched_stat_runtime_rt_dl counter's: not the fair row's */
	json_object_set_new(c, "sched_stat_runtime_rt_dl",
			    jint(replay_measured_count(wl, "sched_stat_runtime_rt_dl")));
	while (wl_sidecar_func_next(wl, &it, &name, &v))
		if (!json_object_get(c, name))
			json_object_set_new(c, name, json_integer(v));
	json_object_set_new(o, "counts", c);
	/* the text's "untraced" (replay_count_untraced()): their errors are null */
	for (int i = 0; i < REPLAY_NR_COMPARED; i++)
		if (replay_count_untraced(wl, replay_compared_counts[i]))
			json_array_append_new(none, json_string(replay_compared_counts[i]));
	json_object_set_new(o, "counts_without_events", none);
	json_object_set_new(o, "wakeup_latency_us", replay_json_latency(wl_measured_latency(wl), LAT_WAKEUP));
	/* the text's "N of the measured samples are wakeups of RT/DL tasks" */
	json_object_set_new(o, "wakeup_samples_rt_dl", jint(replay_nonfair_samples(wl)));
	json_object_set_new(o, "runqueue_wait_us",
			    replay_json_latency(wl_measured_latency(wl), LAT_RUNQ_WAIT));
	json_object_set_new(o, "long_waits", replay_json_long_waits(wl_measured_latency(wl)));
	json_object_set_new(o, "wakeup_paths", lat_json_paths(wl_measured_latency(wl)));
	return o;
}

static void calib_dist_json(json_t *e, const struct calib_path *cp)
{
	json_object_set_new(e, "samples", jint(cp->n));
	json_object_set_new(e, "mean_us", cp->n ? jus(cp->mean) : json_null());
	json_object_set_new(e, "p50_us", cp->n ? jus(cp->p50) : json_null());
	json_object_set_new(e, "p90_us", cp->n ? jus(cp->p90) : json_null());
	json_object_set_new(e, "p99_us", cp->n ? jus(cp->p99) : json_null());
	json_object_set_new(e, "max_us", cp->n ? jus(cp->max) : json_null());
}

/*
 * The idle path per CPU: {"CPU": {samples, ..., "restored": bool,
 * "by_waker_context": {ctx: {...}}}}, for the CPUs with samples.
 */
static json_t *calib_idle_cpus_json(const struct wl_calib *cal, const struct wl_facts *f)
{
	json_t *o = json_object();

	for (unsigned int cpu = 0; o && cpu < cal->nr_cpus; cpu++) {
		const struct calib_path *t = cal->idle_cpu[cpu];
		json_t *e, *bx;
		char key[16];

		if (!t[CALIB_CTX_ALL].n)
			continue;
		e = json_object();
		bx = json_object();
		calib_dist_json(e, &t[CALIB_CTX_ALL]);
		json_object_set_new(e, "restored", json_boolean(cpu < 64 &&
								(f->idle_exit_restored >> cpu & 1)));
		for (int x = 0; x < CALIB_CTX_NR; x++) {
			json_t *xe = json_object(), *be = json_object();

			calib_dist_json(xe, &t[x]);
			for (int g = 0; cal->idle_band_cpu && g < cal->idle_band_cpu[cpu][x].nr; g++) {
				const struct calib_bands *cb = &cal->idle_band_cpu[cpu][x];
				json_t *re = json_object();
				char name[32];

				calib_bands_name(cb, g, name, sizeof(name));
				calib_dist_json(re, &cb->g[g]);
				json_object_set_new(be, name, re);
			}
			json_object_set_new(xe, "by_idle_residency_us", be);
			json_object_set_new(bx, calib_ctx_name(x), xe);
		}
		json_object_set_new(e, "by_waker_context", bx);
		snprintf(key, sizeof(key), "%u", cpu);
		json_object_set_new(o, key, e);
	}
	return o;
}

static json_t *calib_json(const struct wl_calib *cal, const struct wl_facts *f)
{
	json_t *o = json_object();

	for (int p = 0; o && p < WL_PATH_NONE; p++) {
		const struct calib_path *cp = &cal->path[p];
		json_t *e = json_object(), *bx = json_object();

		for (int x = 0; p != WL_PATH_QUEUED && x < CALIB_CTX_NR; x++) {
			json_t *xe = json_object();

			calib_dist_json(xe, &cal->ctx[p][x]);
			json_object_set_new(xe, "used",
					    json_boolean(cal->ctx[p][x].n >= CALIB_MIN_SAMPLES));
			json_object_set_new(bx, calib_ctx_name(x), xe);
		}
		json_object_set_new(e, "by_waker_context", bx);
		if (p == WL_PATH_IDLE)
			json_object_set_new(e, "by_cpu", calib_idle_cpus_json(cal, f));
		calib_dist_json(e, cp);
		json_object_set_new(e, "mechanical", json_boolean(p != WL_PATH_QUEUED));
		json_object_set_new(e, "borrowed_from",
				    cp->fallback >= 0 ? json_string(wl_path_name(cp->fallback)) : json_null());
		json_object_set_new(o, wl_path_name(p), e);
	}
	return o;
}

/*
 * {"mode": "idle_exit"|"none", "restored": N, "cpus": [{cpu, traced_to_idle,
 * traced_from_idle, restored, simulated_as_restored}]}: what the reader's
 * repair restored, per CPU with something to say.
 */
static json_t *repair_json(const struct wl_workload *wl)
{
	const struct trace_info *in = wl_trace_info(wl);
	const struct wl_facts *f = wl_facts(wl);
	json_t *o = json_object(), *a = json_array();

	json_object_set_new(o, "mode", json_string(in->repair & TRACE_REPAIR_IDLE_EXIT ?
						   "idle_exit" : "none"));
	json_object_set_new(o, "restored", jint(wl_counts(wl)->sched_switch_restored));
	for (int c = 0; in->repair_cpus && c < in->repair_nr_cpus; c++) {
		const struct trace_repair_cpu *rc = &in->repair_cpus[c];
		json_t *e;

		if (!rc->traced_to_idle && !rc->traced_from_idle && !rc->restored)
			continue;
		e = json_object();
		json_object_set_new(e, "cpu", json_integer(c));
		json_object_set_new(e, "traced_to_idle", jint(rc->traced_to_idle));
		json_object_set_new(e, "traced_from_idle", jint(rc->traced_from_idle));
		json_object_set_new(e, "restored", jint(rc->restored));
		json_object_set_new(e, "simulated_as_restored",
				    json_boolean(c < 64 && (f->idle_exit_restored >> c & 1)));
		json_array_append_new(a, e);
	}
	json_object_set_new(o, "cpus", a);
	return o;
}

static json_t *fact(unsigned long long v, enum wl_fact_source src, const char *how)
{
	json_t *o = json_object();

	json_object_set_new(o, "value", json_integer((json_int_t)v));
	json_object_set_new(o, "source", json_string(wl_fact_source_name(src)));
	json_object_set_new(o, "how", json_string(how));
	return o;
}

/*
 * [{group, quota_us, period_us, source, modelled, how}] of the groups with a
 * CPU bandwidth limit; NULL when none has one (other traces' JSON unchanged).
 */
static json_t *bandwidth_json(const struct wl_workload *wl, const struct replay_config *cfg)
{
	json_t *a = NULL;

	for (uint32_t g = 0; g < wl_nr_groups(wl); g++) {
		const struct wl_group *wg = wl_group(wl, g);

		if (wg->quota_us <= 0)
			continue;
		if (!a)
			a = json_array();
		json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:s, s:b, s:s, s:o, s:I}",
						   "group", wg->path,
						   "quota_us", (json_int_t)wg->quota_us,
						   "period_us", (json_int_t)wg->period_us,
						   "source", wl_fact_source_name(wg->bw_src),
						   "modelled", replay_bandwidth_modelled(cfg),
						   "how", replay_bandwidth_status(cfg),
						   "phase_ns", wg->bw_phase_ns >= 0 ?
						   json_integer((json_int_t)wg->bw_phase_ns) : json_null(),
						   "phase_samples", (json_int_t)wg->bw_phase_samples));
	}
	return a;
}

/*
 * --ticks traced: the trace's ticks ({found, per_cpu: [placed in their
 * periods, per CPU]}) and the tick -> switch table (the calibration's
 * tick: {samples, mean_ns, p50_ns, p90_ns, p99_ns, max_ns, used}); NULL on
 * ENOMEM.
 */
static json_t *traced_ticks_json(const struct wl_workload *wl)
{
	const struct calib_path *cp = &wl_calibration(wl)->tick;
	json_t *o = json_object(), *a = json_array(), *d = json_object();

	if (!o || !a || !d) {
		json_decref(o);
		json_decref(a);
		json_decref(d);
		return NULL;
	}
	for (unsigned int c = 0; c < wl_facts(wl)->nr_cpus; c++) {
		uint32_t n;

		wl_traced_ticks(wl, (int)c, &n);
		json_array_append_new(a, jint(n));
	}
	json_object_set_new(o, "found", jint(wl_nr_ticks_found(wl)));
	json_object_set_new(o, "per_cpu", a);
	json_object_set_new(d, "samples", jint(cp->n));
	json_object_set_new(d, "mean_ns", jint(cp->mean));
	json_object_set_new(d, "p50_ns", jint(cp->p50));
	json_object_set_new(d, "p90_ns", jint(cp->p90));
	json_object_set_new(d, "p99_ns", jint(cp->p99));
	json_object_set_new(d, "max_ns", jint(cp->max));
	json_object_set_new(d, "used", json_boolean(cp->n >= CALIB_MIN_SAMPLES));
	json_object_set_new(o, "tick_switch", d);
	return o;
}

/*
 * facts.clock_task_left: per CPU the time clock_task left out (IRQ and steal:
 * wl_clock_left()), the trace time its charge chains covered and the trace's span.
 */
static json_t *clock_left_json(const struct wl_workload *wl)
{
	json_t *a = json_array();

	for (unsigned int c = 0; a && c < wl_facts(wl)->nr_cpus; c++) {
		json_t *o = json_object();
		struct wl_clock_left l;

		if (!o) {
			json_decref(a);
			return NULL;
		}
		wl_clock_left(wl, (int)c, &l);
		json_object_set_new(o, "left_ns", jint(l.left_ns));
		json_object_set_new(o, "chain_ns", jint(l.chain_ns));
		json_object_set_new(o, "span_ns", jint(l.span_ns));
		json_object_set_new(o, "pairs", jint(l.pairs));
		json_object_set_new(o, "gaps", jint(l.gaps));
		json_object_set_new(o, "skipped", jint(l.skipped));
		json_object_set_new(o, "max_gap_ns", jint(l.max_gap_ns));
		if (l.proc_stat) {
			json_object_set_new(o, "proc_stat_steal_ns", jint(l.proc_steal_ns));
			json_object_set_new(o, "proc_stat_irq_ns", jint(l.proc_irq_ns));
		}
		json_array_append_new(a, o);
	}
	return a;
}

int replay_json_add_workload(json_t *root, const struct wl_workload *wl,
			     const struct replay_config *cfg)
{
	const struct trace_info *i = wl_trace_info(wl);
	const struct wl_facts *f = wl_facts(wl);
	const struct wl_counts *n = wl_counts(wl);
	json_t *t = json_object(), *fa = json_object(), *ap = json_array(), *rel;
	unsigned int it = 0;
	const char *text;
	uint64_t v;

	if (!t || !fa || !ap) {
		json_decref(t);
		json_decref(fa);
		json_decref(ap);
		return -1;
	}
	json_object_set_new(t, "path", sr_json_string(i->path ? i->path : ""));
	json_object_set_new(t, "file_version", json_integer(i->file_version));
	json_object_set_new(t, "cpus", json_integer(i->cpus));
	json_object_set_new(t, "buffer", sr_json_string(i->buffer ? i->buffer : ""));
	json_object_set_new(t, "first_ts_ns", jint(wl_first_ts(wl)));
	json_object_set_new(t, "last_ts_ns", jint(wl_last_ts(wl)));
	json_object_set_new(t, "events", jint(n->events));
	json_object_set_new(t, "lost_events", jint(n->lost_events));
	if (wl_nr_lost_windows(wl)) {
		json_t *a = json_array();

		for (uint32_t k = 0; a && k < wl_nr_lost_windows(wl); k++) {
			const struct wl_lost_window *w = wl_lost_window(wl, k);
			json_t *e = json_object();

			if (!e)
				break;
			json_object_set_new(e, "cpu", json_integer(w->cpu));
			json_object_set_new(e, "from_ts_ns", jint(w->from));
			json_object_set_new(e, "to_ts_ns", jint(w->to));
			json_object_set_new(e, "at_start", json_boolean(w->at_start));
			json_object_set_new(e, "events", w->events == TRACE_LOST_UNKNOWN ? json_null() :
					    jint(w->events));
			json_array_append_new(a, e);
		}
		json_object_set_new(t, "lost_windows", a ? a : json_null());
		json_object_set_new(t, "lost_wakes", jint(wl_nr_lost_wakes(wl)));
	}
	json_object_set_new(t, "sidecar", sr_json_string(wl_sidecar_path(wl)));
	/* the sidecar's lost-event counters against the trace's gaps (as report's) */
	json_object_set_new(t, "lost_events_sidecar", wl_lost_sidecar(wl) ?
			    sidecar_lost_json(wl_lost_sidecar(wl)) : json_null());
	json_object_set_new(t, "repair", repair_json(wl));
	json_object_set_new(t, "tasks", jint(wl_nr_tasks(wl)));
	json_object_set_new(t, "wakes", jint(wl_nr_wakes(wl)));
	json_object_set_new(root, "trace", t);

	json_object_set_new(fa, "cpus", fact(f->nr_cpus, f->cpus_src, f->cpus_how));
	json_object_set_new(fa, "hz", fact(f->hz, f->hz_src, f->hz_how));
	rel = fact(1024, f->capacity_src, f->capacity_how);
	if (rel)
		json_object_set_new(rel, "asymmetric", json_boolean(f->capacity_asym));
	json_object_set_new(fa, "cpu_capacity", rel);
	rel = json_object();
	json_object_set_new(rel, "value", sr_json_string(f->release));
	json_object_set_new(rel, "source", json_string(wl_fact_source_name(f->release_src)));
	json_object_set_new(rel, "how", json_string(f->release_how));
	if (!f->release && f->release_before)
		json_object_set_new(rel, "before", json_string(f->release_before));
	json_object_set_new(fa, "kernel_release", rel);
	rel = json_object();
	json_object_set_new(rel, "value", jint(wl_nr_groups(wl)));
	json_object_set_new(rel, "source", json_string(wl_fact_source_name(f->groups_src)));
	json_object_set_new(rel, "how", json_string(f->groups_how));
	json_object_set_new(fa, "task_groups", rel);
	json_object_set_new(fa, "tick_phase_known", json_boolean(f->tick_phase_known));
	/* the simulation's (replay_tick_phase_from()) */
	json_object_set_new(fa, "tick_phase_from", json_string(replay_tick_phase_from_names[
		replay_tick_phase_from(f, cfg ? cfg->tick_phase : REPLAY_TICK_PHASE_ZERO)]));
	rel = json_null();
	if (f->tick_phase_grid_known && (rel = json_array()))
		for (unsigned int c = 0; c < f->nr_cpus && c < 64; c++)
			json_array_append_new(rel, jint(f->tick_phase_grid_ns[c]));
	json_object_set_new(fa, "tick_grid_phase_ns", rel);
	rel = json_object();
	json_object_set_new(rel, "switch_lead_ns", jint(f->switch_lead_ns));
	json_object_set_new(rel, "switch_lead_samples", jint(f->switch_lead_samples));
	json_object_set_new(rel, "tick_switch_ns", jint(f->tick_switch_ns));
	json_object_set_new(rel, "tick_switch_samples", jint(f->tick_switch_samples));
	json_object_set_new(rel, "sync_tail_ns", jint(f->sync_tail_ns));
	json_object_set_new(rel, "sync_tail_samples", jint(f->sync_tail_samples));
	json_object_set_new(fa, "timing", rel);
	json_object_set_new(fa, "has_sched_waking", json_boolean(f->has_sched_waking));
	json_object_set_new(fa, "has_sched_stat_runtime", json_boolean(f->has_stat_runtime));
	if (f->chan.syscalls) {
		/* only with the syscall events: other traces' JSON unchanged */
		rel = json_object();
		json_object_set_new(rel, "modelled", json_boolean(f->chan.modelled));
		json_object_set_new(rel, "channels", jint(f->chan.channels));
		json_object_set_new(rel, "not_modelled", jint(f->chan.unlinked_channels));
		json_object_set_new(rel, "reads", jint(f->chan.reads));
		json_object_set_new(rel, "reads_modelled", jint(f->chan.reads_modelled));
		json_object_set_new(rel, "writes", jint(f->chan.writes));
		json_object_set_new(rel, "writes_modelled", jint(f->chan.writes_modelled));
		json_object_set_new(rel, "wakes_explained", jint(f->chan.wakes_explained));
		json_object_set_new(rel, "sleeps_explained", jint(f->chan.blocks_explained));
		if (f->chan.damaged)
			json_object_set_new(rel, "damaged", jint(f->chan.damaged));
		json_object_set_new(fa, "channels", rel);
	}
	rel = bandwidth_json(wl, cfg);
	if (rel)
		json_object_set_new(fa, "bandwidth", rel);
	if (cfg && cfg->ticks == REPLAY_TICKS_TRACED) {
		/* only under --ticks traced: other runs' JSON unchanged */
		if (!(rel = traced_ticks_json(wl))) {
			json_decref(fa);
			json_decref(ap);
			return -1;
		}
		json_object_set_new(fa, "traced_ticks", rel);
	}
	if (f->has_stat_runtime && (rel = clock_left_json(wl)))
		json_object_set_new(fa, "clock_task_left", rel);
	json_object_set_new(root, "facts", fa);
	json_object_set_new(root, "calibration", calib_json(wl_calibration(wl), f));
	while (wl_note_at(wl, &it, &text, &v)) {
		json_t *o = json_object();

		json_object_set_new(o, "count", jint(v));
		json_object_set_new(o, "what", json_string(text));
		json_array_append_new(ap, o);
	}
	json_object_set_new(root, "approximations", ap);
	return 0;
}

json_t *replay_json_vcpu_pack(const struct wl_workload *wl, const struct replay_config *cfg)
{
	char why[200];
	bool on = replay_vcpu_pack_for(wl, cfg, why, sizeof(why));

	return json_pack("{s:b, s:s}", "on", on, "why", why);
}

json_t *replay_json_profile(const struct model_profile *p, const char *why,
			    const struct model_sched_features *f)
{
	json_t *o = json_object(), *s = json_object();
	struct model_setting st;
	unsigned int it = 0;
	char sfb[MODEL_SCHED_FEATURES_TEXT];
	const char *sft;

	json_object_set_new(o, "name", json_string(model_profile_name(p)));
	json_object_set_new(o, "description", json_string(model_profile_description(p)));
	json_object_set_new(o, "why", why ? json_string(why) : json_null());
	/* the values the run used: the profile's with the toggles of @f applied */
	while (model_profile_setting_next_toggled(p, f, &it, &st, NULL))
		json_object_set_new(s, st.name, json_integer(st.value));
	json_object_set_new(o, "settings", s);
	/* the kernel's debugfs words, in table order: "NO_RUN_TO_PARITY ..." */
	sft = model_sched_features_text(f, sfb, sizeof(sfb));
	if (sft)
		json_object_set_new(o, "sched_features", json_string(sft));
	return o;
}

static json_t *rel_err(double pred, double meas)
{
	if (meas == 0)
		return json_null();
	return json_real(round((pred - meas) / meas * 1e6) / 1e6);
}

static json_t *dist_err(const struct sr_hist *pred, const struct sr_hist *meas)
{
	json_t *o = json_object();
	uint64_t p[SR_NR_STD_PCT], m[SR_NR_STD_PCT];

	/* always: a model that has none of the measured samples is -1.0, not missing */
	json_object_set_new(o, "samples", rel_err((double)pred->count, (double)meas->count));
	if (!pred->count || !meas->count) {
		for (int i = 0; i < SR_NR_STD_PCT; i++)
			json_object_set_new(o, sr_std_pct_key[i], json_null());
		return o;
	}
	sr_hist_percentiles(pred, sr_std_pct, SR_NR_STD_PCT, p, NULL);
	sr_hist_percentiles(meas, sr_std_pct, SR_NR_STD_PCT, m, NULL);
	for (int i = 0; i < SR_NR_STD_PCT; i++)
		json_object_set_new(o, sr_std_pct_key[i], rel_err((double)p[i], (double)m[i]));
	return o;
}

/* {"all": {p50..: e}, "by_comm": .., "by_cgroup": ..}: the measured groups of @kind */
static json_t *latency_errors(const struct lat_machine *ml, const struct lat_machine *pl,
			      enum lat_kind kind)
{
	static const enum lat_group_key keys[2] = { LAT_BY_COMM, LAT_BY_CGROUP };
	static const char *const names[2] = { "by_comm", "by_cgroup" };
	json_t *l = json_object();

	json_object_set_new(l, "all", dist_err(lat_get_all(pl, kind), lat_get_all(ml, kind)));
	for (int k = 0; k < 2; k++) {
		json_t *g = json_object();

		for (size_t i = 0; i < lat_nr_groups(ml, keys[k]); i++) {
			const struct lat_group *mg = lat_group_at(ml, keys[k], i);
			const struct lat_group *pg = lat_group_find(pl, keys[k], mg->key);
			struct sr_hist empty;
			char kb[CLI_ESC_MAX + 4];

			if (!mg->lat[kind].count)
				continue;
			sr_hist_init(&empty);
			json_object_set_new(g, mg->key[0] ? sr_json_key(mg->key, kb, sizeof(kb)) : "?",
					    dist_err(pg ? &pg->lat[kind] : &empty, &mg->lat[kind]));
		}
		json_object_set_new(l, names[k], g);
	}
	return l;
}

/*
 * {key: {function, measured, predicted, error}} of the bookkeeping functions
 * the sidecar lists: a not traceable one's measured and error null (no
 * comparison).
 */
static json_t *func_errors(const struct wl_workload *wl, const struct replay_result *r)
{
	json_t *o = json_object();

	for (int i = 0; o && i < REPLAY_NR_FUNCS; i++) {
		json_t *e;
		int64_t m;
		uint64_t pv = 0;

		if (!replay_func_measured(wl, i, &m))
			continue;
		if (!(e = json_object())) {
			json_decref(o);
			return NULL;
		}
		replay_count_get(r, replay_funcs[i].predicted, &pv);
		json_object_set_new(e, "function",
				    json_string(replay_func_name(replay_result_profile(r), i)));
		json_object_set_new(e, "measured", m < 0 ? json_null() : jint((uint64_t)m));
		json_object_set_new(e, "predicted", jint(pv));
		json_object_set_new(e, "predicted_counter", json_string(replay_funcs[i].predicted));
		json_object_set_new(e, "error", m < 0 ? json_null() :
				    rel_err((double)pv, (double)m));
		json_object_set_new(o, replay_funcs[i].key, e);
	}
	return o;
}

/* @n of @d as a percentage, -1 if @d is 0 */
static double share_pct(uint64_t n, uint64_t d)
{
	return d ? (double)n / (double)d * 100.0 : -1;
}

/* The predicted share minus the measured, in points (0.01 precision); null if a side has none */
static json_t *points(uint64_t pn, uint64_t pd, uint64_t mn, uint64_t md)
{
	if (!pd || !md)
		return json_null();
	return json_real(round((share_pct(pn, pd) - share_pct(mn, md)) * 100.0) / 100.0);
}

/*
 * {"all": {path: points, ..., "local_busy_preempt": points}}: each path's
 * share of the wakeup samples, predicted minus measured; local_busy_preempt:
 * of the local wakeups onto a busy CPU
 */
static json_t *path_errors(const struct lat_machine *ml, const struct lat_machine *pl)
{
	const uint64_t *m = lat_get_all_paths(ml), *p = lat_get_all_paths(pl);
	uint64_t mt = lat_paths_total(m), pt = lat_paths_total(p);
	json_t *o = json_object(), *a = json_object();

	if (!o || !a) {
		json_decref(o);
		json_decref(a);
		return NULL;
	}
	for (int i = 0; i < LAT_PATH_NR; i++)
		json_object_set_new(a, lat_path_name(i), points(p[i], pt, m[i], mt));
	json_object_set_new(a, "local_busy_preempt",
			    points(p[LAT_PATH_PREEMPT_LOCAL], lat_paths_local_busy(p),
				   m[LAT_PATH_PREEMPT_LOCAL], lat_paths_local_busy(m)));
	json_object_set_new(o, "all", a);
	return o;
}

json_t *replay_json_errors(const struct wl_workload *wl, const struct replay_result *r)
{
	const struct lat_machine *ml = wl_measured_latency(wl), *pl = replay_latency(r);
	json_t *o = json_object(), *c = json_object();
	uint64_t pv_restored = 0, rtdl = 0;

	for (int i = 0; i < REPLAY_NR_COMPARED; i++) {
		uint64_t pv = 0;

		replay_count_get(r, replay_compared_counts[i], &pv);
		json_object_set_new(c, replay_compared_counts[i],
				    rel_err((double)pv, (double)replay_measured_count(wl, replay_compared_counts[i])));
	}
	json_object_set_new(c, "sched_switch_restored", rel_err(
		(double)(replay_count_get(r, "sched_switch_restored", &pv_restored) ? pv_restored : 0),
		(double)replay_measured_count(wl, "sched_switch_restored")));
	/* information, no goal: the RT/DL intervals' charges (6.8+) */
	replay_count_get(r, "sched_stat_runtime_rt_dl", &rtdl);
	json_object_set_new(c, "sched_stat_runtime_rt_dl",
			    rel_err((double)rtdl, (double)replay_measured_count(wl, "sched_stat_runtime_rt_dl")));
	json_object_set_new(o, "counts", c);
	if (replay_has_func_counts(wl))
		json_object_set_new(o, "function_counts", func_errors(wl, r));
	json_object_set_new(o, "wakeup_latency_us", latency_errors(ml, pl, LAT_WAKEUP));
	json_object_set_new(o, "runqueue_wait_us", latency_errors(ml, pl, LAT_RUNQ_WAIT));
	json_object_set_new(o, "wakeup_paths_points", path_errors(ml, pl));
	return o;
}
