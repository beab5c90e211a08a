// SPDX-License-Identifier: GPL-2.0
/*
 * The model's PELT against the kernel's own: each thread's se.avg as
 * proc_sched_show_task() printed it just after the trace ended (the
 * sidecar's sched_at_end) against the model task's se.avg at the end of
 * the simulation, both at the thread's last PELT update (its last dequeue,
 * update_load_avg() in dequeue_entity(); under 6.18's DELAY_DEQUEUE the
 * real dequeue of a delayed entity).  docs/replay.md "PELT at the
 * capture's end".
 *
 * Which threads: see enum replay_pelt_excl (sim.h).  The nr_switches test
 * is what makes the kernel's value comparable: a thread whose counter
 * moved by exactly its traced switches out did nothing the trace missed
 * between the two reads, so its last update is the one at its last traced
 * block.  The counters themselves (nr_switches, sum_exec_runtime,
 * nr_migrations) are compared with the trace as a check of the trace.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <schedreplay/model.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/sim.h>

static const char *const excl_names[REPLAY_PELT_EX_NR] = {
	[REPLAY_PELT_EX_NOT_TRACED] = "not_in_trace",
	[REPLAY_PELT_EX_NOT_FAIR] = "not_fair",
	[REPLAY_PELT_EX_NO_START] = "not_in_start_snapshot",
	[REPLAY_PELT_EX_RUNNING] = "runnable_at_end_read",
	[REPLAY_PELT_EX_SWITCHES] = "switched_outside_trace",
	[REPLAY_PELT_EX_NO_VALUES] = "kernel_values_missing",
	[REPLAY_PELT_EX_MODEL] = "model_not_asleep_at_end",
};

static const char *const excl_text[REPLAY_PELT_EX_NR] = {
	[REPLAY_PELT_EX_NOT_TRACED] = "not in the trace",
	[REPLAY_PELT_EX_NOT_FAIR] = "not a fair task",
	[REPLAY_PELT_EX_NO_START] = "not in the start snapshot",
	[REPLAY_PELT_EX_RUNNING] = "runnable at the end read",
	[REPLAY_PELT_EX_SWITCHES] = "switched outside the trace",
	[REPLAY_PELT_EX_NO_VALUES] = "kernel values missing",
	[REPLAY_PELT_EX_MODEL] = "model not asleep at its end",
};

static const char *const metric_names[REPLAY_PELT_METRICS] = { "util_avg", "load_avg",
							       "runnable_avg" };
static const char *const class_names[REPLAY_PELT_CLASSES] = { "pre_existing", "born" };

const char *replay_pelt_excl_name(int reason)
{
	return reason >= 0 && reason < REPLAY_PELT_EX_NR ? excl_names[reason] : NULL;
}

/*
 * The index of the workload task of @pid alive at the end: its last
 * incarnation (wl_task_of_pid() at the end of time), WL_NONE if none.
 */
static uint32_t task_of_pid(const struct wl_workload *wl, int pid)
{
	const struct wl_task *t = wl_task_of_pid(wl, pid, UINT64_MAX);

	return t ? (uint32_t)(t - wl_task(wl, 0)) : WL_NONE;
}

/*
 * @ts (trace clock) minus @clock (a kernel clock the sidecar read, 0..2^62)
 * into *@d: false past int64 (a trace clock past 2^63 ns, which only a
 * crafted trace has), where the offset means nothing.
 */
static bool trace_minus_clock(uint64_t ts, int64_t clock, int64_t *d)
{
	return ts <= INT64_MAX && !__builtin_sub_overflow((int64_t)ts, clock, d);
}

int replay_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile @q of @v[@n] (sorted). */
double replay_rank_sorted(const double *v, unsigned int n, double q)
{
	unsigned int k = (unsigned int)ceil(q * n);

	return n ? v[(k ? k : 1) - 1] : 0;
}

static void stat_fill(struct replay_pelt_stat *st, double *err, double sum_signed, unsigned int n)
{
	unsigned int within = 0;

	st->n = n;
	if (!n)
		return;
	qsort(err, n, sizeof(*err), replay_cmp_double);
	for (unsigned int i = 0; i < n; i++)
		within += err[i] <= 10.24;
	st->median = replay_rank_sorted(err, n, 0.5);
	st->p95 = replay_rank_sorted(err, n, 0.95);
	st->max = err[n - 1];
	st->mean_signed = sum_signed / n;
	st->within_1pct = (double)within / n;
}

/* |@d| larger than |*@worst|: the new worst, of @pid */
static void worst(int64_t d, int64_t *w, int *wpid, int pid)
{
	if ((d < 0 ? -d : d) > (*w < 0 ? -*w : *w)) {
		*w = d;
		*wpid = pid;
	}
}

/*
 * Per CPU, the trace clock minus the kernel's rq_clock_task at each
 * compared thread's last block: se.exec_start is update_curr()'s clock at
 * the dequeue, the sched_switch that follows is traced a few µs later.
 * Constant per CPU if the two clocks only differ by an offset; it drifts
 * by the time clock_task leaves out (steal and IRQ time).  @tmp: scratch
 * of nr_rows doubles.
 */
static void clock_fill(struct replay_pelt_cmp *out, double *tmp)
{
	for (int cpu = 0; cpu < REPLAY_PELT_CPUS; cpu++) {
		struct replay_pelt_clock *c = &out->clock[cpu];
		unsigned int k = 0;

		for (unsigned int i = 0; i < out->nr_rows; i++) {
			const struct replay_pelt_row *r = &out->rows[i];

			if (r->cpu != cpu)
				continue;
			tmp[k++] = (double)r->clock_offset_ns;
			if (k == 1 || r->clock_offset_ns - r->left_ns < c->less_left_min_ns)
				c->less_left_min_ns = r->clock_offset_ns - r->left_ns;
			if (k == 1 || r->clock_offset_ns - r->left_ns > c->less_left_max_ns)
				c->less_left_max_ns = r->clock_offset_ns - r->left_ns;
			if (k == 1 || r->clock_offset_ns < c->min_ns)
				c->min_ns = r->clock_offset_ns;
			if (k == 1 || r->clock_offset_ns > c->max_ns)
				c->max_ns = r->clock_offset_ns;
		}
		if (!k)
			continue;
		qsort(tmp, k, sizeof(*tmp), replay_cmp_double);
		c->n = k;
		c->median_ns = (int64_t)replay_rank_sorted(tmp, k, 0.5);
		out->nr_clock_cpus = (unsigned int)cpu + 1;
	}
}

int replay_pelt_compare(const struct wl_workload *wl, const struct replay_result *r,
			struct replay_pelt_cmp *out)
{
	const struct sidecar_sched *s0 = wl_sched_snapshot(wl, false);
	const struct sidecar_sched *s1 = wl_sched_snapshot(wl, true);
	double *err[REPLAY_PELT_CLASSES][REPLAY_PELT_METRICS] = { { NULL } };
	double sum[REPLAY_PELT_CLASSES][REPLAY_PELT_METRICS] = { { 0 } };
	unsigned int n[REPLAY_PELT_CLASSES] = { 0 };
	static const int kfield[REPLAY_PELT_METRICS] = { SIDECAR_SCHED_UTIL_AVG,
							  SIDECAR_SCHED_LOAD_AVG,
							  SIDECAR_SCHED_RUNNABLE_AVG };
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!s0 || !s1) {
		snprintf(out->reason, sizeof(out->reason), "the sidecar has no sched_at_start / "
			 "sched_at_end (a capture before they were recorded, or no sidecar)");
		return 0;
	}
	if (!s0->available || !s1->available) {
		snprintf(out->reason, sizeof(out->reason), "%s",
			 !s1->available ? s1->reason : s0->reason);
		return 0;
	}
	out->available = true;
	out->in_end = (unsigned int)s1->nr_tasks;
	for (int c = 0; c < REPLAY_PELT_CLASSES; c++)
		for (int m = 0; m < REPLAY_PELT_METRICS; m++)
			if (s1->nr_tasks && !(err[c][m] = calloc(s1->nr_tasks, sizeof(double))))
				goto out;
	if (s1->nr_tasks && !(out->rows = calloc(s1->nr_tasks, sizeof(*out->rows))))
		goto out;
	for (size_t i = 0; i < s1->nr_tasks; i++) {
		const struct sidecar_sched_task *k1 = &s1->tasks[i], *k0;
		uint32_t t = task_of_pid(wl, k1->pid);
		const struct wl_task *wt = t != WL_NONE ? wl_task(wl, t) : NULL;
		struct model_task_info mi;
		int64_t d0[3] = { 0, 0, 0 };
		int cls, why = -1;
		bool have = true;

		if (!wt) {
			out->excluded[REPLAY_PELT_EX_NOT_TRACED]++;
			continue;
		}
		if (wt->cls != WL_CLASS_FAIR) {
			out->excluded[REPLAY_PELT_EX_NOT_FAIR]++;
			continue;
		}
		cls = wt->init_state == WL_INIT_NEW ? REPLAY_PELT_BORN : REPLAY_PELT_PRE;
		k0 = cls == REPLAY_PELT_PRE ? sidecar_sched_find(s0, k1->pid) : NULL;
		if (cls == REPLAY_PELT_PRE && !k0) {
			out->excluded[REPLAY_PELT_EX_NO_START]++;
			continue;
		}
		/* a thread forked in the trace started its counters at 0 */
		if (k0) {
			if (!k0->have[SIDECAR_SCHED_NR_SWITCHES] || !k0->have[SIDECAR_SCHED_SUM_EXEC] ||
			    !k0->have[SIDECAR_SCHED_NR_MIGRATIONS])
				have = false;
			d0[0] = k0->v[SIDECAR_SCHED_NR_SWITCHES];
			d0[1] = k0->v[SIDECAR_SCHED_SUM_EXEC];
			d0[2] = k0->v[SIDECAR_SCHED_NR_MIGRATIONS];
		}
		if (!k1->have[SIDECAR_SCHED_NR_SWITCHES] || !k1->have[SIDECAR_SCHED_SUM_EXEC] ||
		    !k1->have[SIDECAR_SCHED_NR_MIGRATIONS])
			have = false;
		if (have) {
			int64_t ds = k1->v[SIDECAR_SCHED_NR_SWITCHES] - d0[0] - wt->traced_switch_out;
			int64_t dr = k1->v[SIDECAR_SCHED_SUM_EXEC] - d0[1] -
				     (int64_t)wt->traced_stat_runtime_ns;
			int64_t dm = k1->v[SIDECAR_SCHED_NR_MIGRATIONS] - d0[2] -
				     wt->traced_migrations;

			out->checked++;
			out->switch_mismatch += ds != 0;
			out->runtime_mismatch += dr != 0;
			out->migrate_mismatch += dm != 0;
			worst(ds, &out->switch_max_diff, &out->switch_worst_pid, k1->pid);
			worst(dr, &out->runtime_max_diff_ns, &out->runtime_worst_pid, k1->pid);
			worst(dm, &out->migrate_max_diff, &out->migrate_worst_pid, k1->pid);
			if (ds != 0)
				why = REPLAY_PELT_EX_SWITCHES;
		} else {
			why = REPLAY_PELT_EX_NO_VALUES;
		}
		if (!sidecar_sched_asleep(k1))
			why = REPLAY_PELT_EX_RUNNING;
		for (int m = 0; m < REPLAY_PELT_METRICS && why < 0; m++)
			if (!k1->have[kfield[m]])
				why = REPLAY_PELT_EX_NO_VALUES;
		if (why < 0 && (!replay_task_end(r, t, &mi) || mi.state != MODEL_TASK_SLEEPING))
			why = REPLAY_PELT_EX_MODEL;
		if (why >= 0) {
			out->excluded[why]++;
			continue;
		}
		{
			struct replay_pelt_row *row = &out->rows[out->nr_rows++];
			const unsigned long mv[REPLAY_PELT_METRICS] = { mi.util_avg, mi.load_avg,
									 mi.runnable_avg };

			row->cpu = wt->last_block_cpu;
			if (k1->have[SIDECAR_SCHED_EXEC_START] && k1->have[SIDECAR_SCHED_LAST_UPDATE] &&
			    trace_minus_clock(wt->last_block_ts, k1->v[SIDECAR_SCHED_EXEC_START],
					      &row->clock_offset_ns)) {
				row->left_ns = (int64_t)wl_clock_left_at(wl, wt->last_block_cpu,
									 wt->last_block_ts);
				row->update_after_block_ns = k1->v[SIDECAR_SCHED_LAST_UPDATE] -
							     k1->v[SIDECAR_SCHED_EXEC_START];
			} else {
				row->cpu = -1;
			}
			/* last_update_time is kept in 1024 ns steps: within one is the same update */
			out->updated_after_block += row->cpu >= 0 && row->update_after_block_ns > 2048;
			row->pid = k1->pid;
			snprintf(row->comm, sizeof(row->comm), "%s", wt->comm);
			row->cls = cls;
			for (int m = 0; m < REPLAY_PELT_METRICS; m++) {
				double d = (double)mv[m] - (double)k1->v[kfield[m]];

				row->kernel[m] = (long)k1->v[kfield[m]];
				row->model[m] = (long)mv[m];
				err[cls][m][n[cls]] = fabs(d);
				sum[cls][m] += d;
			}
			n[cls]++;
		}
	}
	for (int c = 0; c < REPLAY_PELT_CLASSES; c++)
		for (int m = 0; m < REPLAY_PELT_METRICS; m++)
			stat_fill(&out->st[c][m], err[c][m], sum[c][m], n[c]);
	clock_fill(out, err[0][0]);
	ret = 0;
out:
	for (int c = 0; c < REPLAY_PELT_CLASSES; c++)
		for (int m = 0; m < REPLAY_PELT_METRICS; m++)
			free(err[c][m]);
	if (ret < 0) {
		errno = ENOMEM;
		replay_pelt_cmp_release(out);
	}
	return ret;
}

void replay_pelt_cmp_release(struct replay_pelt_cmp *c)
{
	free(c->rows);
	c->rows = NULL;
	c->nr_rows = 0;
}

void replay_pelt_text(FILE *out, const char *run_name, const struct replay_pelt_cmp *c)
{
	static const char *const cls_text[REPLAY_PELT_CLASSES] = { "alive before the trace",
								   "forked in the trace" };
	bool first = true;

	fprintf(out, "\nPELT at the capture's end (kernel's /proc/<pid>/sched vs model)%s%s\n",
		run_name ? ", run " : "", run_name ? run_name : "");
	if (!c->available) {
		fprintf(out, "  not compared: %s\n", c->reason);
		return;
	}
	fprintf(out, "  threads in the end snapshot: %u; compared: %u alive before the trace, "
		"%u forked in it\n  excluded:", c->in_end, c->st[REPLAY_PELT_PRE][0].n,
		c->st[REPLAY_PELT_BORN][0].n);
	for (int e = 0; e < REPLAY_PELT_EX_NR; e++)
		if (c->excluded[e]) {
			fprintf(out, "%s %u %s", first ? "" : ",", c->excluded[e], excl_text[e]);
			first = false;
		}
	fprintf(out, "%s\n", first ? " none" : "");
	fprintf(out, "  |model - kernel| (1024 = full)    n   median      p95      max  "
		"mean(m-k)  within 1%%\n");
	for (int cl = 0; cl < REPLAY_PELT_CLASSES; cl++)
		for (int m = 0; m < REPLAY_PELT_METRICS; m++) {
			const struct replay_pelt_stat *st = &c->st[cl][m];

			if (!st->n)
				continue;
			fprintf(out, "  %-12s %-22s %3u %8.1f %8.1f %8.1f %10.1f %8.0f%%\n",
				metric_names[m], cls_text[cl], st->n, st->median, st->p95, st->max,
				st->mean_signed, 100.0 * st->within_1pct);
		}
	fprintf(out, "  kernel's last PELT update after its last accounting (a delayed dequeue "
		"completed later): %u of the compared\n", c->updated_after_block);
	for (unsigned int cpu = 0; cpu < c->nr_clock_cpus; cpu++)
		if (c->clock[cpu].n)
			fprintf(out, "  CPU %u: trace clock - rq_clock_task (se.exec_start) at the "
				"compared threads' last blocks: median %.6f s, range %.1f us "
				"(%u threads); less the trace's left-out time (clock:) range "
				"%.1f us\n", cpu, (double)c->clock[cpu].median_ns * 1e-9,
				(double)(c->clock[cpu].max_ns - c->clock[cpu].min_ns) * 1e-3,
				c->clock[cpu].n, (double)(c->clock[cpu].less_left_max_ns -
							  c->clock[cpu].less_left_min_ns) * 1e-3);
	fprintf(out, "  counters against the trace (%u threads in the trace and both snapshots): "
		"nr_switches delta != traced switches out: %u (largest kernel - trace %+lld, "
		"pid %d); sum_exec_runtime delta != summed sched_stat_runtime: %u (largest "
		"%+lld ns, pid %d); nr_migrations delta != sched_migrate_task: %u (largest %+lld, "
		"pid %d)\n", c->checked, c->switch_mismatch, (long long)c->switch_max_diff,
		c->switch_worst_pid, c->runtime_mismatch, (long long)c->runtime_max_diff_ns,
		c->runtime_worst_pid, c->migrate_mismatch, (long long)c->migrate_max_diff,
		c->migrate_worst_pid);
}

struct json_t *replay_pelt_json(const struct replay_pelt_cmp *c)
{
	json_t *o = json_object(), *ex, *st, *rows, *cnt;

	if (!o)
		return NULL;
	json_object_set_new(o, "available", json_boolean(c->available));
	if (!c->available) {
		json_object_set_new(o, "reason", json_string(c->reason));
		return o;
	}
	json_object_set_new(o, "threads_in_end_snapshot", json_integer(c->in_end));
	ex = json_object();
	for (int e = 0; e < REPLAY_PELT_EX_NR; e++)
		json_object_set_new(ex, excl_names[e], json_integer(c->excluded[e]));
	json_object_set_new(o, "excluded", ex);
	st = json_object();
	for (int cl = 0; cl < REPLAY_PELT_CLASSES; cl++) {
		json_t *byc = json_object();

		json_object_set_new(byc, "compared", json_integer(c->st[cl][0].n));
		for (int m = 0; m < REPLAY_PELT_METRICS; m++) {
			const struct replay_pelt_stat *s = &c->st[cl][m];

			json_object_set_new(byc, metric_names[m],
					    s->n ? json_pack("{s:f, s:f, s:f, s:f, s:f}", "median",
							     s->median, "p95", s->p95, "max", s->max,
							     "mean_signed", s->mean_signed,
							     "within_1pct", s->within_1pct) :
						   json_null());
		}
		json_object_set_new(st, class_names[cl], byc);
	}
	json_object_set_new(o, "abs_error", st);
	rows = json_array();
	for (unsigned int i = 0; i < c->nr_rows; i++) {
		const struct replay_pelt_row *r = &c->rows[i];

		json_t *row = json_pack("{s:i, s:s, s:s, s:[i,i,i], s:[i,i,i]}", "pid", r->pid,
					"comm", r->comm, "class", class_names[r->cls], "kernel",
					(int)r->kernel[0], (int)r->kernel[1], (int)r->kernel[2],
					"model", (int)r->model[0], (int)r->model[1],
					(int)r->model[2]);

		if (row && r->cpu >= 0) {
			json_object_set_new(row, "cpu", json_integer(r->cpu));
			json_object_set_new(row, "clock_offset_ns", json_integer(r->clock_offset_ns));
			json_object_set_new(row, "update_after_block_ns",
					    json_integer(r->update_after_block_ns));
		}
		json_array_append_new(rows, row);
	}
	json_object_set_new(o, "threads", rows);
	json_object_set_new(o, "updated_after_block", json_integer(c->updated_after_block));
	{
		json_t *clk = json_array();

		for (unsigned int cpu = 0; cpu < c->nr_clock_cpus; cpu++)
			if (c->clock[cpu].n)
				json_array_append_new(clk, json_pack(
					"{s:i, s:i, s:I, s:I, s:I, s:I, s:I}", "cpu", (int)cpu,
					"threads", (int)c->clock[cpu].n, "median_ns",
					(json_int_t)c->clock[cpu].median_ns, "min_ns",
					(json_int_t)c->clock[cpu].min_ns, "max_ns",
					(json_int_t)c->clock[cpu].max_ns, "less_left_min_ns",
					(json_int_t)c->clock[cpu].less_left_min_ns, "less_left_max_ns",
					(json_int_t)c->clock[cpu].less_left_max_ns));
		json_object_set_new(o, "clock_offset", clk);
	}
	cnt = json_pack("{s:i, s:{s:i, s:I, s:i}, s:{s:i, s:I, s:i}, s:{s:i, s:I, s:i}}",
			"checked", c->checked,
			"nr_switches", "mismatches", c->switch_mismatch, "largest",
			(json_int_t)c->switch_max_diff, "pid", c->switch_worst_pid,
			"sum_exec_runtime_ns", "mismatches", c->runtime_mismatch, "largest",
			(json_int_t)c->runtime_max_diff_ns, "pid", c->runtime_worst_pid,
			"nr_migrations", "mismatches", c->migrate_mismatch, "largest",
			(json_int_t)c->migrate_max_diff, "pid", c->migrate_worst_pid);
	json_object_set_new(o, "counters", cnt);
	return o;
}

/* one thread's (CPU of its last block, trace ns - clock_task ns) */
struct clock_pair {
	int cpu;
	double off;
};

static int cmp_clock_pair(const void *a, const void *b)
{
	const struct clock_pair *x = a, *y = b;

	if (x->cpu != y->cpu)
		return (x->cpu > y->cpu) - (x->cpu < y->cpu);
	return (x->off > y->off) - (x->off < y->off);
}

static int clock_offsets(const struct wl_workload *wl, int64_t *off, bool *have, int nr_cpus,
			 bool at_start);

int replay_kernel_clock_offsets(const struct wl_workload *wl, int64_t *off, bool *have,
				int nr_cpus)
{
	return clock_offsets(wl, off, have, nr_cpus, false);
}

int replay_kernel_clock_offsets_start(const struct wl_workload *wl, int64_t *off, bool *have,
				      int nr_cpus)
{
	return clock_offsets(wl, off, have, nr_cpus, true);
}

static int clock_offsets(const struct wl_workload *wl, int64_t *off, bool *have, int nr_cpus,
			 bool at_start)
{
	const struct sidecar_sched *s0 = wl_sched_snapshot(wl, false);
	const struct sidecar_sched *s1 = wl_sched_snapshot(wl, true);
	struct clock_pair *p = NULL;
	double *v = NULL;
	size_t n = 0;
	int found = 0;

	for (int c = 0; c < nr_cpus; c++)
		have[c] = false;
	if (!s0 || !s1 || !s0->available || !s1->available || !s1->nr_tasks ||
	    !(p = calloc(s1->nr_tasks, sizeof(*p))) || !(v = calloc(s1->nr_tasks, sizeof(*v)))) {
		free(p);
		return 0;
	}
	/* one pass over the end snapshot, then each CPU's median */
	for (size_t i = 0; i < s1->nr_tasks; i++) {
		const struct sidecar_sched_task *k1 = &s1->tasks[i], *k0;
		uint32_t t = task_of_pid(wl, k1->pid);
		const struct wl_task *wt = t != WL_NONE ? wl_task(wl, t) : NULL;
		int64_t sw0 = 0, d;

		if (!wt || wt->cls != WL_CLASS_FAIR || wt->last_block_cpu < 0 ||
		    wt->last_block_cpu >= nr_cpus || !sidecar_sched_asleep(k1) ||
		    !k1->have[SIDECAR_SCHED_EXEC_START] || !k1->have[SIDECAR_SCHED_NR_SWITCHES])
			continue;
		if (wt->init_state != WL_INIT_NEW) {
			k0 = sidecar_sched_find(s0, k1->pid);
			if (!k0 || !k0->have[SIDECAR_SCHED_NR_SWITCHES])
				continue;
			sw0 = k0->v[SIDECAR_SCHED_NR_SWITCHES];
		}
		if (k1->v[SIDECAR_SCHED_NR_SWITCHES] - sw0 != wt->traced_switch_out ||
		    !trace_minus_clock(wt->last_block_ts, k1->v[SIDECAR_SCHED_EXEC_START], &d))
			continue;
		p[n++] = (struct clock_pair){ wt->last_block_cpu, (double)d };
		if (at_start)
			p[n - 1].off -= (double)wl_clock_left_at(wl, wt->last_block_cpu,
								 wt->last_block_ts);
	}
	/* sorted by CPU, then offset: each CPU's run gives its median */
	qsort(p, n, sizeof(*p), cmp_clock_pair);
	for (size_t a = 0, b; a < n; a = b) {
		unsigned int k = 0;

		for (b = a; b < n && p[b].cpu == p[a].cpu; b++)
			v[k++] = p[b].off;
		off[p[a].cpu] = (int64_t)replay_rank_sorted(v, k, 0.5);
		have[p[a].cpu] = true;
		found++;
	}
	free(p);
	free(v);
	return found;
}
