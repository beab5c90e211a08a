// SPDX-License-Identifier: GPL-2.0
/*
 * Workload extraction, after the event stream: the passes over the whole
 * workload that wl_builder_finish() runs once every event has been seen
 * (workload.c is the pass over the stream itself).
 *
 *   the hand-off marks    drop_oneoff_handoffs(), mark_oneway_handoffs(),
 *                         mark_channel_wakes(), mark_sync_wakes()
 *   channels              chan_finish() (workload_chan.c resolves them)
 *   compaction            drop_dead_ops(), then one op array for all tasks
 *   machine facts         facts_finish(), idle_finish(), sidecar_copy(),
 *                         lost_finish(), the bandwidth phases
 *   costs                 uncontest_costs(), then calib_build()
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/sidecar.h>
#include <schedreplay/stats.h>

#include "workload_builder.h"

/*
 * --preempt-costs strict (the default): a contested preemption sample (later_decision_point()
 * held at its switch-in) measures the mechanism only if its latency is within
 * what the uncontested samples of its path and waker context reach: the later
 * wakeup or tick then fell inside the mechanism (make-probe-run3: 500 of 555
 * contested samples see another wakeup 10-20 us after theirs and switch in at
 * ~28 us, a remote preemption's cost).  Beyond the longest uncontested sample
 * it can only be the wait for that later decision - scheduling delay, which the
 * simulation predicts - and it is queued (bw-hogs: the free probe's 0.3-3.7 ms
 * waits for the tick after a bandwidth period boundary).
 */
static void uncontest_costs(struct wl_workload *wl)
{
	/* per preemption path (local, remote) and waker context: the longest uncontested */
	uint64_t bound[2][CALIB_CTX_NR] = { { 0 } };
	bool any[2][CALIB_CTX_NR] = { { false } };

	for (uint32_t i = 0; i < wl->nr_wakes; i++) {
		const struct wl_wake *w = &wl->wakes[i];
		int p = w->path - WL_PATH_PREEMPT_LOCAL, x;

		if ((w->path != WL_PATH_PREEMPT_LOCAL && w->path != WL_PATH_PREEMPT_REMOTE) ||
		    w->contested)
			continue;
		x = (int)calib_ctx_of_wake(w);
		any[p][x] = true;
		if (w->latency > bound[p][x])
			bound[p][x] = w->latency;
	}
	for (uint32_t i = 0; i < wl->nr_wakes; i++) {
		struct wl_wake *w = &wl->wakes[i];
		int p = w->path - WL_PATH_PREEMPT_LOCAL, x;

		if ((w->path != WL_PATH_PREEMPT_LOCAL && w->path != WL_PATH_PREEMPT_REMOTE) ||
		    !w->contested)
			continue;
		x = (int)calib_ctx_of_wake(w);
		if (!any[p][x] || w->latency > bound[p][x])
			w->path = WL_PATH_QUEUED;
	}
}

#define WL_TWO_PI 6.283185307179586

static int cmp_s64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The period phase of group @g from its throttle-ending switch-ins: their
 * circular mean, then the 10th percentile of the offsets within a quarter
 * period of it (a switch-in on a busy CPU waits for a reschedule point; on
 * an idle one it follows the boundary within microseconds).
 */
static void bw_phase_finish(struct wl_builder *b, struct wl_group *g, uint32_t gi)
{
	uint64_t period = (uint64_t)g->period_us * 1000, *v;
	double cs = 0, sn = 0, mean;
	int64_t *d;
	uint32_t n, k = 0;

	g->bw_phase_ns = -1;
	g->bw_phase_samples = 0;
	if (g->quota_us <= 0 || gi >= b->bw_unthrottle_n || b->bw_unthrottle[gi].n < 3)
		return;
	v = b->bw_unthrottle[gi].v;
	n = b->bw_unthrottle[gi].n;
	for (uint32_t i = 0; i < n; i++) {
		double a = WL_TWO_PI * (double)v[i] / (double)period;

		cs += cos(a);
		sn += sin(a);
	}
	mean = atan2(sn, cs) / (WL_TWO_PI) * (double)period;
	if (mean < 0)
		mean += (double)period;
	d = malloc(n * sizeof(*d));
	if (!d)
		return;
	for (uint32_t i = 0; i < n; i++) {
		int64_t x = (int64_t)v[i] - (int64_t)mean, half = (int64_t)period / 2;

		x = ((x % (int64_t)period) + (int64_t)period + half) % (int64_t)period - half;
		if (x > -(int64_t)period / 4 && x < (int64_t)period / 4)
			d[k++] = x;
	}
	if (k >= 3) {
		qsort(d, k, sizeof(*d), cmp_s64);
		g->bw_phase_ns = ((int64_t)mean + d[k / 10] + (int64_t)period) % (int64_t)period;
		g->bw_phase_samples = k;
	}
	free(d);
}

static int cmp_idle(const void *a, const void *b)
{
	const struct wl_idle *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The idle intervals (closed at the trace end by wl_builder_stream_end()), sorted, indexed by CPU. */
static int idle_finish(struct wl_builder *b)
{
	struct wl_workload *wl = b->wl;
	unsigned int n = wl->facts.nr_cpus;

	if (!n)
		return 0;
	if (!(wl->idle_first = calloc(n + 1, sizeof(*wl->idle_first))))
		return -1;
	if (b->idle.n)
		qsort(b->idle.v, b->idle.n, sizeof(*b->idle.v), cmp_idle);
	wl->idle = b->idle.v;
	wl->nr_idle = b->idle.n;
	b->idle.v = NULL;
	for (uint32_t i = 0, c = 0; c <= n; c++) {
		while (i < wl->nr_idle && (unsigned int)wl->idle[i].cpu < c)
			i++;
		wl->idle_first[c] = i;
	}
	return 0;
}

static int cmp_kpath(const void *a, const void *b)
{
	const struct wl_wake_kpath *x = a, *y = b;

	return x->wake < y->wake ? -1 : x->wake > y->wake;
}

static int cmp_lost(const void *a, const void *b)
{
	const struct wl_lost_window *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

/* The windows' order by their start, any CPU (lost_finish()) */
static int cmp_from(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The lost-events windows, sorted; a wake assumed for a switch-in with no
 * wakeup (WL_NOTE_MISSING_WAKEUP) whose sleep a window of any CPU overlaps
 * is marked in_lost: its wakeup may have been recorded there (a remote
 * wakeup is written to the waker's CPU, one the trace does not show).  A
 * sleep [since, ts] overlaps some window [from, to) iff the latest end of
 * the windows starting at or before ts is after since: the windows' (from,
 * to) sorted by from with a running maximum of to, bisected per wake - one
 * scan of every window per wake made a trace of many missing wakeups and
 * many overruns quadratic (40 000 of each: 33 s).
 */
static int lost_finish(struct wl_builder *b)
{
	struct wl_workload *wl = b->wl;
	uint64_t (*ft)[2] = NULL;     /* [from, max to so far] */
	uint32_t n = 0;

	if (b->lost.n)
		qsort(b->lost.v, b->lost.n, sizeof(*b->lost.v), cmp_lost);
	wl->lost = b->lost.v;
	wl->nr_lost = b->lost.n;
	b->lost.v = NULL;
	if (!wl->nr_lost || !b->missing.n)
		return 0;
	if (!(ft = calloc(wl->nr_lost, sizeof(*ft))))
		return -1;
	for (uint32_t k = 0; k < wl->nr_lost; k++)
		if (wl->lost[k].from < wl->lost[k].to) {
			ft[n][0] = wl->lost[k].from;
			ft[n++][1] = wl->lost[k].to;
		}
	/* sorted by from: the pairs move together (from first, then to) */
	qsort(ft, n, sizeof(*ft), cmp_from);
	for (uint32_t k = 1; k < n; k++)
		if (ft[k][1] < ft[k - 1][1])
			ft[k][1] = ft[k - 1][1];
	for (uint32_t i = 0; i < b->missing.n; i++) {
		struct wl_wake *w = &wl->wakes[b->missing.v[i].wake];
		uint64_t since = b->missing.v[i].since ? b->missing.v[i].since : wl->first_ts;
		uint32_t lo = 0, hi = n;

		while (lo < hi) {             /* the windows with from <= w->ts: [0, lo) */
			uint32_t mid = lo + (hi - lo) / 2;

			if (ft[mid][0] <= w->ts)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && ft[lo - 1][1] > since) {
			w->in_lost = 1;
			wl->nr_lost_wakes++;
		}
	}
	free(ft);
	return 0;
}

/*
 * The tasks on_switch() marked fork_assumed (first seen at a switch-in,
 * started asleep, woken there by make_current()'s assumed wake) stay so
 * only in a trace that records wakeups (sched_waking or sched_wakeup) but
 * no fork (trace_info.records_forks): an existing task woken would show
 * its wakeup, a forked one writes only sched_wakeup_new
 * (wake_up_new_task()), which the trace does not record.  Not a wake whose
 * records a lost-events window may hold (in_lost: apart already).
 */
static void fork_finish(struct wl_builder *b)
{
	struct wl_workload *wl = b->wl;
	bool forks_unrecorded = !wl->info.records_forks &&
				(wl->facts.has_sched_waking || wl->counts.sched_wakeup);

	for (uint32_t i = 0; i < wl->nr_tasks; i++) {
		struct wl_task *t = &wl->tasks[i];

		if (!t->fork_assumed)
			continue;
		t->fork_assumed = forks_unrecorded && t->init_wake < wl->nr_wakes &&
				  !wl->wakes[t->init_wake].in_lost;
		if (t->fork_assumed)
			wl->notes[WL_NOTE_FORK_ASSUMED]++;
		else
			t->fork_parent = WL_NONE;
	}
}

/* The workload's group named @path (not created: WL_NONE if no traced task uses it). */
static uint32_t group_find(const struct wl_workload *wl, const char *path)
{
	size_t len = wl_group_path_len(path, strlen(path));

	if (!len)
		return 0;
	for (uint32_t g = 1; g < wl->nr_groups; g++)
		if (strlen(wl->groups[g].path) == len && !strncmp(wl->groups[g].path, path, len))
			return g;
	return WL_NONE;
}

/*
 * The start snapshot's threads with no task in the trace, and the group
 * each is in (wl_initial_cgroup(), the rule of the traced tasks: a pid is in
 * one task group whether the trace shows it or not), but only among the
 * groups the trace's tasks made: wl_unseen_threads().  A --cgroup-map line
 * of such a pid is not counted as one of the trace's tasks (facts_finish()).
 * After the tasks and groups are final.
 */
static int unseen_copy(struct wl_builder *b)
{
	struct wl_workload *wl = b->wl;
	const struct sidecar_sched *s0 = &wl->sched_snap[0];
	uint32_t n = 0;

	if (!s0->available || !s0->nr_tasks)
		return 0;
	if (!(wl->unseen = calloc(s0->nr_tasks, sizeof(*wl->unseen))))
		return -1;
	for (size_t i = 0; i < s0->nr_tasks; i++) {
		struct wl_cgmap_entry *line;
		char name[WL_AUTOGROUP_NAME];
		bool autogroup;
		const char *path;

		if (wl_task_of_pid(wl, s0->tasks[i].pid, UINT64_MAX))
			continue;
		path = wl_initial_cgroup(b, s0->tasks[i].pid, name, &autogroup, &line);
		wl->unseen[n++] = (struct wl_unseen){ .snap = (uint32_t)i,
						      .group = path ? group_find(wl, path) : 0 };
	}
	wl->nr_unseen = n;
	return 0;
}

/* What the workload keeps of the sidecar (it does not keep the sidecar). */
static int sidecar_copy(struct wl_builder *b)
{
	struct wl_workload *wl = b->wl;
	const struct sidecar *sc = b->sc;

	if (!sc)
		return 0;
	if (sc->path && !(wl->sidecar_path = strdup(sc->path)))
		return -1;
	if (sc->funcs_available && sc->nr_funcs) {
		if (!(wl->funcs = calloc(sc->nr_funcs, sizeof(*wl->funcs))))
			return -1;
		for (size_t i = 0; i < sc->nr_funcs; i++) {
			if (!(wl->funcs[i].name = strdup(sc->funcs[i].name)))
				return -1;
			wl->funcs[i].count = sc->funcs[i].count;
			wl->nr_funcs++;
		}
	}
	if (sidecar_sched_debug_copy(&wl->sched_debug, &sc->sched_debug) < 0)
		return -1;
	for (int k = 0; k < 2; k++) {
		const struct sidecar_sched *from = k ? &sc->sched_end : &sc->sched_start;
		struct sidecar_sched *to = &wl->sched_snap[k];

		*to = *from;
		to->tasks = NULL;
		to->reason = NULL;
		to->nr_tasks = 0;
		if (from->reason && !(to->reason = strdup(from->reason)))
			return -1;
		if (from->nr_tasks) {
			if (!(to->tasks = malloc(from->nr_tasks * sizeof(*to->tasks))))
				return -1;
			memcpy(to->tasks, from->tasks, from->nr_tasks * sizeof(*to->tasks));
			for (size_t i = 0; i < from->nr_tasks; i++)
				to->tasks[i].allowed_mask = NULL;
			to->nr_tasks = from->nr_tasks;
			for (size_t i = 0; i < from->nr_tasks; i++) {
				const uint64_t *fm = from->tasks[i].allowed_mask;

				if (!fm)
					continue;
				if (!(to->tasks[i].allowed_mask =
					      malloc(SIDECAR_MASK_WORDS * sizeof(*fm))))
					return -1;
				memcpy(to->tasks[i].allowed_mask, fm, SIDECAR_MASK_WORDS * sizeof(*fm));
			}
		}
		/*
		 * A start snapshot recorded before its cpu field: the CPU of
		 * tasks_at_start, read a few ms before it (the same stat field),
		 * for --initial-pelt attached's queue of a sleeping thread.
		 */
		for (size_t i = 0; !k && i < to->nr_tasks; i++) {
			const struct sidecar_task *st;

			if (to->tasks[i].cpu < 0 && (st = sidecar_task(sc, to->tasks[i].pid)))
				to->tasks[i].cpu = st->cpu;
		}
	}
	if (sc->nr_cpus > 0 && sc->cpus) {
		bool known = false;
		/*
		 * One entry per simulated CPU (facts_finish(): events on a CPU
		 * beyond the sidecar's topology raise the count): the model reads
		 * that many; the CPUs the sidecar does not list are on node 0, as
		 * those with no node.  A map of the sidecar's size was read past its end.
		 */
		size_t n = wl->facts.nr_cpus > (unsigned int)sc->nr_cpus ? wl->facts.nr_cpus :
			   (size_t)sc->nr_cpus;

		if (!(wl->cpu_node = calloc(n, sizeof(int))))
			return -1;
		for (int c = 0; c < sc->nr_cpus; c++) {
			wl->cpu_node[c] = sc->cpus[c].numa_node > 0 ? sc->cpus[c].numa_node : 0;
			known |= sc->cpus[c].numa_node >= 0;
		}
		if (!known) {
			free(wl->cpu_node);
			wl->cpu_node = NULL;
		}
	}
	return unseen_copy(b);
}

/* Median of a histogram of @nb buckets @width ns wide (bucket middle); 0 under 20 samples. */
static uint64_t hist_median_of(const uint32_t *hist, unsigned int nb, unsigned int width,
				uint32_t *samples)
{
	uint64_t n = 0, acc = 0;

	for (unsigned int k = 0; k < nb; k++)
		n += hist[k];
	*samples = (uint32_t)n;
	if (n < 20)
		return 0;
	for (unsigned int k = 0; k < nb; k++) {
		acc += hist[k];
		if (2 * acc >= n)
			return (uint64_t)k * width + width / 2;
	}
	return 0;
}

/* ... of a WL_LEAD_BUCKET_NS histogram */
static uint64_t hist_median(const uint32_t *hist, uint32_t *samples)
{
	return hist_median_of(hist, WL_LEAD_BUCKETS, WL_LEAD_BUCKET_NS, samples);
}

/* @pid is in @s as a process (tgid == pid) */
static bool snap_has_process(const struct sidecar_sched *s, int pid)
{
	const struct sidecar_sched_task *k = sidecar_sched_find(s, pid);

	return k && k->tgid == pid;
}

/*
 * The start (stat field 22) snapshot @s gives process @pid when it differs
 * from @start, the process's own (-1 unknown: nothing to compare); else -1.
 */
static int64_t snap_other_start(const struct sidecar_sched *s, int pid, int64_t start)
{
	const struct sidecar_sched_task *k = sidecar_sched_find(s, pid);

	return start >= 0 && k && k->starttime >= 0 && k->starttime != start ? k->starttime : -1;
}

/*
 * The processes both snapshots must list: the capture itself, which reads
 * them (capture.pid), and each workload it stopped after the end read
 * (stopped_at_end: forked before the start read and not reaped until that
 * stop, so /proc listed it, a zombie too, at both reads).  An end
 * snapshot of a later capture of the same machine passed the counter
 * checks of sched_snap_check() (fuzz41's leftover): that capture's
 * process and workloads are others, these were gone by then.  A later
 * capture that reuses such a pid lists it with another start (stat field
 * 22, since 2026-12-05 in each snapshot entry and capture.starttime): the
 * capture's entries must have capture.starttime, a workload's end entry its
 * start entry's.  Sidecars without the field are checked by the pids alone.
 * 0, or -1 with @err.
 */
static int sched_snap_owner_check(const struct wl_builder *b, struct sr_error *err)
{
	const struct wl_workload *wl = b->wl;
	const struct sidecar *sc = b->sc;
	const char *path = wl->sidecar_path ? wl->sidecar_path : "";
	int64_t other;

	if (!sc)
		return 0;
	for (int k = 0; k < 2; k++) {
		const struct sidecar_sched *s = &wl->sched_snap[k];
		const char *name = k ? "sched_at_end" : "sched_at_start";

		if (!s->available)
			continue;
		if (sc->capture_pid > 0 && !snap_has_process(s, sc->capture_pid)) {
			sr_error_set(err, EINVAL, "sidecar %s: %s does not list the capture's own "
				     "process (capture.pid %d), which read it: the snapshot is another "
				     "capture's (--no-sidecar ignores the sidecar)", path, name,
				     sc->capture_pid);
			return -1;
		}
		if (sc->capture_pid > 0 &&
		    (other = snap_other_start(s, sc->capture_pid, sc->capture_starttime)) >= 0) {
			sr_error_set(err, EINVAL, "sidecar %s: %s lists pid %d started at %" PRId64
				     " ticks after boot, but the capture's own process (capture.pid) "
				     "started at %" PRId64 ": the snapshot is another capture's, whose "
				     "process reused the pid (--no-sidecar ignores the sidecar)", path,
				     name, sc->capture_pid, other, sc->capture_starttime);
			return -1;
		}
		for (size_t g = 0; g < sc->nr_groups; g++) {
			const struct sidecar_group *gr = &sc->groups[g];
			const struct sidecar_sched_task *k0;

			if (!gr->stopped_at_end || gr->pid <= 0)
				continue;
			if (!snap_has_process(s, gr->pid)) {
				sr_error_set(err, EINVAL, "sidecar %s: %s does not list workload %s "
					     "(pid %d), which the capture stopped after its end read: "
					     "the snapshot is another capture's (--no-sidecar ignores "
					     "the sidecar)", path, name, gr->name ? gr->name : "?",
					     gr->pid);
				return -1;
			}
			k0 = sidecar_sched_find(&wl->sched_snap[0], gr->pid);
			if (k && k0 && (other = snap_other_start(s, gr->pid, k0->starttime)) >= 0) {
				sr_error_set(err, EINVAL, "sidecar %s: sched_at_end lists workload %s "
					     "(pid %d) started at %" PRId64 " ticks after boot, "
					     "sched_at_start at %" PRId64 ": the end snapshot is another "
					     "capture's, whose process reused the pid (--no-sidecar "
					     "ignores the sidecar)", path, gr->name ? gr->name : "?",
					     gr->pid, other, k0->starttime);
				return -1;
			}
		}
	}
	return 0;
}

/* @s lists a thread of group @tgid other than its leader */
static bool snap_multithreaded(const struct sidecar_sched *s, int tgid)
{
	for (size_t i = 0; i < s->nr_tasks; i++)
		if (s->tasks[i].tgid == tgid && s->tasks[i].pid != tgid)
			return true;
	return false;
}

/*
 * The two snapshots are one capture's, read before and after its trace: a
 * thread's counters and run time in sched_at_end are at least its
 * sched_at_start ones (not exec_start: each CPU's rq_clock_task is its own,
 * seconds apart on the development VM, and a thread moves).  A start snapshot of a later capture (or the two
 * exchanged) gave threads fewer switches at the end than at the start, and
 * replay used its PELT for the tasks asleep at the start at exit 0 (fuzz41).
 * Only a thread the trace shows as one thread from before it to its end
 * (or not at all) is compared: a pid reused during the trace is a fork
 * there, one reused just before or after it has another start (stat field
 * 22) in the two reads; nor the leader of a multithreaded group, whose pid
 * an exec gives to another thread.  0, or -1 with @err.
 */
static int sched_snap_check(const struct wl_builder *b, struct sr_error *err)
{
	static const int mono[] = { SIDECAR_SCHED_NR_SWITCHES, SIDECAR_SCHED_NR_VOLUNTARY,
				    SIDECAR_SCHED_NR_INVOLUNTARY, SIDECAR_SCHED_NR_MIGRATIONS,
				    SIDECAR_SCHED_SUM_EXEC };
	const struct wl_workload *wl = b->wl;
	const struct sidecar_sched *s0 = &wl->sched_snap[0], *s1 = &wl->sched_snap[1];

	if (!s0->available || !s1->available)
		return sched_snap_owner_check(b, err);
	for (size_t i = 0; i < s1->nr_tasks; i++) {
		const struct sidecar_sched_task *k1 = &s1->tasks[i];
		const struct sidecar_sched_task *k0 = sidecar_sched_find(s0, k1->pid);
		const struct wl_task *t0, *t1;

		if (!k0 || k0->tgid != k1->tgid)
			continue;
		/*
		 * another thread of the pid (stat's starttime differs): one that
		 * exited and whose pid was reused where the trace does not look,
		 * between the start read and tracing on or between tracing off
		 * and the end read (pid_max 32768 on a small machine wraps in
		 * seconds under a build): its counters begin anew (robust49)
		 */
		if (k0->starttime >= 0 && k1->starttime >= 0 && k0->starttime != k1->starttime)
			continue;
		/*
		 * the leader of a group with other threads: a multithreaded exec
		 * (de_thread()) where the trace does not look - a gap, or the
		 * snapshot walk itself, 0.4-0.7 s under ASan on a loaded machine -
		 * gave the leader's pid and start to the exec'ing thread, another
		 * task_struct with its own counters (robust49: an exec loop
		 * beside capture_robust_sweep)
		 */
		if (k1->pid == k1->tgid && (snap_multithreaded(s0, k1->tgid) ||
					    snap_multithreaded(s1, k1->tgid)))
			continue;
		t0 = wl_task_of_pid(wl, k1->pid, 0);
		t1 = wl_task_of_pid(wl, k1->pid, UINT64_MAX);
		if (t0 && (t0 != t1 || t0->init_state == WL_INIT_NEW))
			continue;
		/*
		 * the trace's switches out of it lie between the two reads: the
		 * kernel counted each of them
		 */
		if (t0 && k0->have[SIDECAR_SCHED_NR_SWITCHES] && k1->have[SIDECAR_SCHED_NR_SWITCHES] &&
		    k1->v[SIDECAR_SCHED_NR_SWITCHES] >= k0->v[SIDECAR_SCHED_NR_SWITCHES] &&
		    k1->v[SIDECAR_SCHED_NR_SWITCHES] - k0->v[SIDECAR_SCHED_NR_SWITCHES] <
		    t0->traced_switch_out) {
			sr_error_set(err, EINVAL, "sidecar %s: pid %d switched out %" PRIu32 " times "
				     "in the trace, but %" PRId64 " times between its sched_at_start "
				     "and sched_at_end: the snapshots are not this trace's capture's "
				     "(--no-sidecar ignores the sidecar)", wl->sidecar_path ?
				     wl->sidecar_path : "", k1->pid, t0->traced_switch_out,
				     k1->v[SIDECAR_SCHED_NR_SWITCHES] - k0->v[SIDECAR_SCHED_NR_SWITCHES]);
			return -1;
		}
		for (size_t j = 0; j < sizeof(mono) / sizeof(mono[0]); j++) {
			int f = mono[j];

			if (!k0->have[f] || !k1->have[f] || k1->v[f] >= k0->v[f])
				continue;
			sr_error_set(err, EINVAL, "sidecar %s: pid %d's %s goes back from %" PRId64
				     " in sched_at_start to %" PRId64 " in sched_at_end: the two "
				     "snapshots are not one capture's, read before and after its "
				     "trace (--no-sidecar ignores the sidecar)", wl->sidecar_path ?
				     wl->sidecar_path : "", k1->pid, sidecar_sched_key(f), k0->v[f],
				     k1->v[f]);
			return -1;
		}
	}
	return sched_snap_owner_check(b, err);
}

/*
 * The CPU capacity fact (wl_facts.capacity_how): the model knows one
 * capacity, SCHED_CAPACITY_SCALE on every CPU, as arch_scale_cpu_capacity()
 * returns on a symmetric machine.  The sidecar's cpu_capacity values (sysfs
 * cpu_capacity, 1024 for the biggest CPU) say whether that holds; without
 * them it is assumed, and said to be, the more so where the trace's event
 * formats name a big.LITTLE kernel (trace_info.asym_format).
 */
/*
 * The capacities of LISA's platform.json beside the trace (wl_platform_read()),
 * if it names every CPU of the trace and no other (its cpus_count, where it
 * has one, the trace's count too): true, and the fact set.
 */
/* One CPU's capacity @cap into the range [@lo, @hi] and the count at @lo (@lo -1: none yet). */
static void cap_range(int cap, int *lo, int *hi, int *nlo)
{
	if (*lo < 0 || cap < *lo)
		*lo = cap, *nlo = 0;
	if (cap == *lo)
		(*nlo)++;
	if (cap > *hi)
		*hi = cap;
}

static bool platform_fits(const struct wl_platform *p, const struct wl_facts *f)
{
	if (p->nr_cpus != (int)f->nr_cpus || (p->cpus_count >= 0 && p->cpus_count != p->nr_cpus))
		return false;
	for (int c = 0; c < p->nr_cpus; c++)
		if (p->capacity[c] < 0)
			return false;
	return true;
}

static bool platform_capacity(const struct wl_platform *p, struct wl_facts *f)
{
	int lo = -1, hi = -1, nlo = 0;

	if (!platform_fits(p, f))
		return false;
	for (int c = 0; c < p->nr_cpus; c++)
		cap_range(p->capacity[c], &lo, &hi, &nlo);
	f->capacity_src = WL_FACT_PLATFORM;
	f->capacity_asym = lo != hi;
	if (lo == hi)
		snprintf(f->capacity_how, sizeof(f->capacity_how),
			 "platform.json beside the trace: cpu_capacity %d on every CPU (%d; "
			 "nrg_model cap_max of its clusters: %s)%s", lo, p->nr_cpus, p->clusters,
			 lo == 1024 ? ": as the model's SCHED_CAPACITY_SCALE" :
			 ", the model's 1024 (no frequency invariance): an approximation");
	else
		snprintf(f->capacity_how, sizeof(f->capacity_how),
			 "platform.json beside the trace: cpu_capacity %d..%d (%d of %d CPUs at "
			 "%d; nrg_model cap_max of its clusters: %s): NOT modelled, every CPU "
			 "runs at 1024 (no capacity or frequency invariance in PELT, no misfit "
			 "or capacity-aware placement): an approximation", lo, hi, nlo, p->nr_cpus, lo, p->clusters);
	f->capacity_asym |= lo != 1024;
	return true;
}

static void capacity_fact(const struct wl_builder *b, const struct trace_info *i,
			  struct wl_facts *f)
{
	int lo = -1, hi = -1, nlo = 0, n = 0;

	f->capacity_asym = false;
	for (int c = 0; b->sc && c < b->sc->nr_cpus; c++) {
		int cap = b->sc->cpus[c].capacity;

		if (!b->sc->cpus[c].online || cap < 0)
			continue;
		n++;
		cap_range(cap, &lo, &hi, &nlo);
	}
	if (n && lo == hi) {
		f->capacity_src = WL_FACT_SIDECAR;
		snprintf(f->capacity_how, sizeof(f->capacity_how),
			 "cpu_capacity %d on every online CPU (%d): as the model's "
			 "SCHED_CAPACITY_SCALE", lo, n);
	} else if (n) {
		f->capacity_src = WL_FACT_SIDECAR;
		f->capacity_asym = true;
		snprintf(f->capacity_how, sizeof(f->capacity_how),
			 "cpu_capacity %d..%d (%d of %d online CPUs at %d): NOT modelled, every "
			 "CPU runs at 1024 (no capacity or frequency invariance in PELT, no "
			 "misfit or capacity-aware placement): an approximation", lo, hi, nlo, n, lo);
	} else if (b->opt.platform && platform_capacity(b->opt.platform, f)) {
		/* set by platform_capacity() */
	} else if (i->asym_format) {
		f->capacity_src = WL_FACT_TRACE;
		f->capacity_asym = true;
		snprintf(f->capacity_how, sizeof(f->capacity_how),
			 "assumed 1024 on every CPU, but the trace's formats %s name a "
			 "big.LITTLE kernel: its CPUs' capacities differ and are not recorded; "
			 "no capacity or frequency invariance in PELT, no capacity-aware "
			 "placement: an approximation", i->asym_format);
	} else {
		f->capacity_src = WL_FACT_DEFAULT;
		snprintf(f->capacity_how, sizeof(f->capacity_how),
			 "assumed 1024 on every CPU: %s records no CPU capacity (the model has "
			 "no asymmetric capacity, no frequency invariance)",
			 b->sc ? "the sidecar" : "no sidecar, the trace");
	}
	/* a platform.json not used: said after the rest */
	if (!b->sc && (b->opt.platform_bad || (b->opt.platform && f->capacity_src !=
					       WL_FACT_PLATFORM))) {
		size_t len = strlen(f->capacity_how);
		const struct wl_platform *p = b->opt.platform;

		if (b->opt.platform_bad)
			snprintf(f->capacity_how + len, sizeof(f->capacity_how) - len,
				 "; platform.json beside it not read: %s", b->opt.platform_bad);
		else
			snprintf(f->capacity_how + len, sizeof(f->capacity_how) - len,
				 "; platform.json beside it not used: it names %d CPUs (cpus_count "
				 "%d), the trace has %u", p->nr_cpus, p->cpus_count, f->nr_cpus);
	}
}

static int facts_finish(struct wl_builder *b)
{
	struct wl_facts *f = &b->wl->facts;
	const struct trace_info *i = &b->wl->info;
	unsigned int sc_hz = b->sc && b->sc->hz > 0 ? (unsigned int)b->sc->hz : 0;

	if (!b->saw_r_plus && b->saw_r)
		f->preempt_state = 0;      /* preempt=none/voluntary: "R" */
	if (b->sc)
		for (int c = 0; c < b->sc->nr_cpus && c < 64; c++)
			if (b->sc->cpus[c].idle_exit_untraced)
				f->idle_exit_untraced |= 1ull << c;
	/*
	 * A CPU whose switches out of idle are mostly restored ones: the
	 * simulation's idle exits there are the counterpart of restored
	 * switches (counted and calibrated as such).
	 */
	for (int c = 0; c < b->nr_cpus && c < 64; c++)
		if (b->cpus[c].idle_exits_restored > b->cpus[c].idle_exits_traced)
			f->idle_exit_restored |= 1ull << c;
	f->switch_lead_ns = hist_median(b->lead_hist, &f->switch_lead_samples);
	f->tick_switch_ns = hist_median_of(b->tick_hist, WL_TICK_BUCKETS, WL_TICK_BUCKET_NS,
					    &f->tick_switch_samples);
	f->sync_tail_ns = hist_median(b->tail_hist, &f->sync_tail_samples);
	f->wake_clock_ns = hist_median(b->wclk_hist, &f->wake_clock_samples);

	if (b->sc && b->sc->nr_cpus > 0) {
		/* the online ones: wl_builder_new() refused an offline CPU below one */
		f->nr_cpus = (unsigned int)b->sc_last_online + 1;
		f->cpus_src = WL_FACT_SIDECAR;
		if (b->sc_offline)
			snprintf(f->cpus_how, sizeof(f->cpus_how), "%.80s, %d CPU(s) "
				 "offline not simulated", b->sc->path, b->sc_offline);
		else
			snprintf(f->cpus_how, sizeof(f->cpus_how), "%s", b->sc->path);
	} else if (i->cpus > 0) {
		f->nr_cpus = (unsigned int)i->cpus;
		f->cpus_src = WL_FACT_TRACE;
		snprintf(f->cpus_how, sizeof(f->cpus_how), "%s (CPU count %d)",
			 i->cpus_from ? i->cpus_from : "trace header", i->cpus);
	} else {
		f->nr_cpus = b->nr_cpus > 0 ? (unsigned int)b->nr_cpus : 1;
		f->cpus_src = WL_FACT_TRACE;
		snprintf(f->cpus_how, sizeof(f->cpus_how),
			 "highest CPU number with events + 1 (no header)");
	}
	if ((unsigned int)b->nr_cpus > f->nr_cpus) {
		/*
		 * An event on a CPU, or a wakeup's target_cpu, beyond the count:
		 * the simulation gets that many CPUs, and says why (it said only
		 * the count's source, e.g. "cpus: 41 [... (CPU count 2)]")
		 */
		char was[sizeof(f->cpus_how)];

		memcpy(was, f->cpus_how, sizeof(was));
		snprintf(f->cpus_how, sizeof(f->cpus_how), "the highest CPU in the events + 1 "
			 "(CPU %d), over the count from %s%.70s", b->nr_cpus - 1,
			 f->cpus_src == WL_FACT_SIDECAR ? "sidecar " : "", was);
		f->cpus_src = WL_FACT_TRACE;
		f->nr_cpus = (unsigned int)b->nr_cpus;
	}
	if (b->sc && b->sc->kernel_release && (b->wl->info_strs[6] = strdup(b->sc->kernel_release))) {
		f->release = b->wl->info_strs[6];
		f->release_src = WL_FACT_SIDECAR;
		snprintf(f->release_how, sizeof(f->release_how), "kernel.release");
	} else if (i->uname) {
		/* "Linux HOST RELEASE MACHINE" (uname -a order) or the bare release */
		const char *r = i->uname;
		char buf[128];

		if (!strncmp(r, "Linux ", 6)) {
			const char *h = strchr(r + 6, ' ');

			r = h ? h + 1 : r;
		}
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(r, " "), r);
		f->release = (b->wl->info_strs[6] = strdup(buf)) ? b->wl->info_strs[6] : i->uname;
		f->release_src = WL_FACT_TRACE;
		snprintf(f->release_how, sizeof(f->release_how), "trace.dat UNAME option (\"%.100s\")",
			 i->uname);
	} else if (!b->opt.no_platform_release && b->opt.platform && b->opt.platform->release[0] &&
		   platform_fits(b->opt.platform, f) &&
		   (b->wl->info_strs[6] = strdup(b->opt.platform->release))) {
		/* LISA's platform.json beside the trace, of the trace's CPUs */
		f->release = b->wl->info_strs[6];
		f->release_src = WL_FACT_PLATFORM;
		snprintf(f->release_how, sizeof(f->release_how),
			 "platform.json beside the trace (kernel.release)");
	} else if (i->format && !strcmp(i->format, "trace.dat") && i->has_sched_wakeup_format &&
		   !i->has_sched_waking_format) {
		/* trace_sched_waking() came in 4.3; files without it list sched_wakeup */
		f->release = NULL;
		f->release_before = "4.3";
		f->release_src = WL_FACT_TRACE;
		snprintf(f->release_how, sizeof(f->release_how),
			 "no sidecar, no UNAME option; before 4.3: its event formats have "
			 "sched_wakeup but no sched_waking");
	} else if (i->prev_state_before) {
		f->release = NULL;
		f->release_before = i->prev_state_before;
		f->release_src = WL_FACT_TRACE;
		snprintf(f->release_how, sizeof(f->release_how),
			 "no sidecar, no UNAME option; before 4.14: its numeric prev_state has "
			 "values above 0x1ff (states: line)");
	} else {
		f->release = NULL;
		f->release_src = WL_FACT_DEFAULT;
		snprintf(f->release_how, sizeof(f->release_how),
			 "unknown (no sidecar, no UNAME option)");
	}
	capacity_fact(b, i, f);
	f->vcpu_pack = NULL;
	if (b->sc && b->sc->kernel_cmdline) {
		/*
		 * A word of the kernel's part of the command line: not the
		 * tail of another option, not after " -- " (parse_args()
		 * hands the rest to init).  "=0" is taken as off: the value's
		 * meaning is not known (docs/model.md), but a zero boot option
		 * conventionally disables.
		 */
		const char *cl = b->sc->kernel_cmdline, *o = cl, *init = strstr(cl, " -- ");
		static const char opt[] = "sched_vcpu_pack=";
		size_t len;

		while ((o = strstr(o, opt)) && o != cl && o[-1] != ' ')
			o += sizeof(opt) - 1;
		if (o && (!init || o < init)) {
			o += sizeof(opt) - 1;
			len = strcspn(o, " ");
			if (strspn(o, "0") < len || !len) {
				if (!(b->wl->info_strs[7] = strndup(o, len)))
					return -1;
				f->vcpu_pack = b->wl->info_strs[7];
			}
		}
	}
	if (wl_hz_probe_decide(b->hz, b->opt.hz, sc_hz, f))
		return -1;
	if (b->cgmap.n) {
		size_t used = 0;

		for (size_t k = 0; k < b->cgmap.n; k++)
			used += b->cgmap.e[k].used;
		f->groups_src = WL_FACT_OPTION;
		snprintf(f->groups_how, sizeof(f->groups_how),
			 "--cgroup-map %s (%zu PID lines, %zu of them tasks of the trace)%s",
			 b->opt.cgroup_map, b->cgmap.n, used,
			 f->has_cgroup_attach ? " + cgroup_attach_task events" : "");
	} else if (b->sc) {
		f->groups_src = WL_FACT_SIDECAR;
		snprintf(f->groups_how, sizeof(f->groups_how), "%zu cgroups, %zu tasks%s%s",
			 b->sc->nr_cgroups, b->sc->nr_tasks,
			 b->sc->autogroup_enabled ? ", autogroup" : "",
			 f->has_cgroup_attach ? " + cgroup_attach_task events" : "");
	} else {
		f->groups_src = f->has_cgroup_attach ? WL_FACT_TRACE : WL_FACT_DEFAULT;
		snprintf(f->groups_how, sizeof(f->groups_how), "%s",
			 f->has_cgroup_attach ?
			 "cgroup_attach_task events only; tasks alive before the trace in the root group" :
			 b->opt.cgroup_map ?
			 "no sidecar, no PID line in --cgroup-map: every task in the root group" :
			 "no sidecar, no --cgroup-map: every task in the root group");
	}
	if (!f->has_sched_waking && !b->wl->counts.sched_wakeup)
		b->wl->notes[WL_NOTE_NO_WAKEUP]++;
	else if (!f->has_sched_waking)
		b->wl->notes[WL_NOTE_NO_WAKING]++;
	if (!f->has_stat_runtime)
		b->wl->notes[WL_NOTE_NO_STAT_RUNTIME]++;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The first of the @n sorted @keys above @key (@above) or at or above it
 * (!@above); @n if there is none.
 */
static size_t key_bound(const uint64_t *keys, size_t n, uint64_t key, bool above)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (keys[mid] < key || (above && keys[mid] == key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * How many of the @n sorted @keys equal @key: two binary searches, not a
 * walk over the run (a hackbench pair's run is thousands of keys long, and
 * every wake of the pair asks).
 */
static size_t count_key(const uint64_t *keys, size_t n, uint64_t key)
{
	return key_bound(keys, n, key, true) - key_bound(keys, n, key, false);
}

/*
 * Ops that take no time and decide nothing about sleeping here: a COMM, a
 * channel op (or its placeholder: in the pass, where a read or write moves
 * its bytes), a system call's mark (WL_OP_SYSCALL), a tick preemption's
 * (WL_OP_PREEMPT), a nice change (WL_OP_NICE) or another task's PI requeue
 * (WL_OP_PI_SETPRIO).  The WF_SYNC and one-way
 * rules look through them, so that a trace with syscall events gets the same
 * marks as without.
 */
static bool zero_time_op(uint8_t kind)
{
	/* kind 0: a dropped op (a retracted EXIT_MOVE), gone by drop_dead_ops() */
	return kind == 0 || kind == WL_OP_COMM || kind == WL_OP_READ || kind == WL_OP_WRITE ||
	       kind == WL_OP_SYSCALL || kind == WL_OP_PREEMPT || kind == WL_OP_NICE ||
	       kind == WL_OP_PI_SETPRIO || kind == WL_OP_AFFINITY;
}

/*
 * The ops of task t were renumbered (@map[t][old index] = new index, NULL:
 * unchanged; @old_n[t]: the old count): hand-off WAITs name BLOCK ops by
 * index, the traced migrations their positions (wl_timed.op).
 */
static void renumber_ops(struct wl_builder *b, uint32_t *const *map, const uint32_t *old_n)
{
	for (uint32_t t = 0; t < b->ts.n; t++) {
		struct tstate *s = &b->ts.v[t];

		for (uint32_t i = 0; i < s->ops.n; i++) {
			struct wl_op *o = &s->ops.v[i];

			if (o->kind == WL_OP_WAIT && o->arg < b->ts.n && map[o->arg] &&
			    o->value < old_n[o->arg])
				o->value = map[o->arg][o->value];
		}
	}
	for (uint32_t i = 0; i < b->timed.n; i++) {
		struct wl_timed *e = &b->timed.v[i];

		if (e->kind != WL_T_MIGRATE || e->task >= b->ts.n)
			continue;
		if (map[e->task] && e->op < old_n[e->task])
			e->op = map[e->task][e->op];
		else if (e->op >= old_n[e->task])
			e->op = b->ts.v[e->task].ops.n;
	}
	for (uint32_t i = 0; i < b->newidle.n; i++) {
		struct wl_newidle *p = &b->newidle.v[i];

		if (p->blocker < b->ts.n && map[p->blocker] && p->block_op < old_n[p->blocker])
			p->block_op = map[p->blocker][p->block_op];
	}
}

/* renumber_ops()'s maps: each task's (NULL: none), then the arrays */
static void free_op_maps(const struct wl_builder *b, uint32_t **map, uint32_t *old_n)
{
	for (uint32_t t = 0; map && t < b->ts.n; t++)
		free(map[t]);
	free(map);
	free(old_n);
}

/*
 * Drop the dead ops (kind 0: a channel's placeholder, a retracted
 * EXIT_MOVE) and merge the RUNs they separated; hand-off WAITs name BLOCK
 * ops by index: renumbered.
 */
static int drop_dead_ops(struct wl_builder *b)
{
	uint32_t **map = calloc(b->ts.n ? b->ts.n : 1, sizeof(*map));
	uint32_t *old_n = calloc(b->ts.n ? b->ts.n : 1, sizeof(*old_n));
	int ret = -1;

	if (!map || !old_n)
		goto out;
	for (uint32_t t = 0; t < b->ts.n; t++) {
		struct tstate *s = &b->ts.v[t];
		uint32_t k = 0;

		old_n[t] = s->ops.n;
		if (s->ops.n && !(map[t] = malloc(s->ops.n * sizeof(**map))))
			goto out;
		for (uint32_t i = 0; i < s->ops.n; i++) {
			struct wl_op o = s->ops.v[i];

			if (o.kind == 0) {
				map[t][i] = k;          /* the op that follows */
				continue;
			}
			if (o.kind == WL_OP_RUN && k && s->ops.v[k - 1].kind == WL_OP_RUN) {
				s->ops.v[k - 1].value += o.value;
				map[t][i] = k - 1;
				continue;
			}
			map[t][i] = k;
			s->ops.v[k++] = o;
		}
		s->ops.n = k;
	}
	renumber_ops(b, map, old_n);
	ret = 0;
out:
	free_op_maps(b, map, old_n);
	return ret;
}

/*
 * An op the walk back from an exec's COMM crosses: the execve()'s own work
 * (RUN) and what it does on the way - begin_new_exec()'s vfork release
 * (exec_mm_release() -> complete_vfork_done(): a WAKE), sched_exec()'s
 * stopper (WAKE_OTHER, MIGRATE) - and positions.  Anything else (a FORK, a
 * sleep, an earlier exec) ends the stretch the exec can have begun in.
 */
static bool execve_op(uint8_t kind)
{
	return kind == WL_OP_RUN || kind == WL_OP_WAKE || kind == WL_OP_WAKE_OTHER ||
	       kind == WL_OP_MIGRATE || kind == WL_OP_SYSCALL || kind == WL_OP_PREEMPT;
}

/*
 * The kernel's exec stopper move before the exec COMM at op @x of @s: the
 * last MIGRATE in the exec's stretch, or the WAKE_OTHER right before it
 * (the RUN between is the task's work from stop_one_cpu()'s wakeup to its
 * switch to the stopper); WL_NONE if none.  *@work: the RUN work from there
 * to @x.
 */
static uint32_t exec_stopper_op(const struct tstate *s, uint32_t x, uint64_t *work)
{
	uint32_t at = WL_NONE;
	uint64_t w = 0, w_at = 0;

	for (uint32_t i = x; i-- > 0;) {
		const struct wl_op *o = &s->ops.v[i];

		if (!execve_op(o->kind))
			break;
		if (o->kind == WL_OP_RUN) {
			w += o->value;
			continue;
		}
		if (o->kind == WL_OP_MIGRATE && at == WL_NONE) {
			at = i;
			w_at = w;
			continue;
		}
		if (o->kind == WL_OP_WAKE_OTHER && at != WL_NONE) {
			at = i;
			w_at = w;
		}
		if (at != WL_NONE)
			break;
	}
	*work = w_at;
	return at;
}

/*
 * The point @lead of work before the exec COMM at op @x of @s, within the
 * exec's stretch (its start if the stretch has less): the op to put the
 * mark before, *@cut > 0 if that op is a RUN to split, the mark before its
 * last *@cut ns.
 */
static uint32_t exec_lead_op(const struct tstate *s, uint32_t x, uint64_t lead, uint64_t *cut)
{
	uint32_t i = x;

	*cut = 0;
	while (lead && i > 0 && execve_op(s->ops.v[i - 1].kind)) {
		const struct wl_op *o = &s->ops.v[--i];

		if (o->kind != WL_OP_RUN)
			continue;
		if (o->value > lead) {
			*cut = lead;
			break;
		}
		lead -= o->value;
	}
	return i;
}

/*
 * sched_exec() runs at bprm_execve()'s start (fs/exec.c), before
 * exec_binprm() loads the binary and fires sched_process_exec: measure the
 * lead from the execs the trace shows moved by their stopper
 * (wl_facts.exec_lead_ns) and, with wl_options.exec_marks, put a
 * WL_OP_EXEC_BALANCE at each exec's point: its stopper move, else that lead
 * before it.
 */
static int mark_exec_balance(struct wl_builder *b)
{
	struct wl_facts *f = &b->wl->facts;
	uint32_t **map = NULL, *old_n = NULL, nx = 0, ns = 0;
	uint64_t *leads = NULL, w;
	int ret = -1;

	for (uint32_t t = 0; t < b->ts.n; t++)
		for (uint32_t i = 0; i < b->ts.v[t].ops.n; i++)
			nx += b->ts.v[t].ops.v[i].kind == WL_OP_COMM &&
			      b->ts.v[t].ops.v[i].aux == WL_COMM_EXEC;
	if (!nx)
		return 0;
	if (!(leads = malloc(nx * sizeof(*leads))))
		return -1;
	for (uint32_t t = 0; t < b->ts.n; t++)
		for (uint32_t i = 0; i < b->ts.v[t].ops.n; i++)
			if (b->ts.v[t].ops.v[i].kind == WL_OP_COMM &&
			    b->ts.v[t].ops.v[i].aux == WL_COMM_EXEC &&
			    exec_stopper_op(&b->ts.v[t], i, &w) != WL_NONE)
				leads[ns++] = w;
	if (ns) {
		sr_sort_u64(leads, ns);
		f->exec_lead_ns = leads[(ns - 1) / 2];
		f->exec_lead_samples = ns;
	}
	if (!b->opt.exec_marks) {
		ret = 0;
		goto out;
	}
	map = calloc(b->ts.n, sizeof(*map));
	old_n = calloc(b->ts.n, sizeof(*old_n));
	if (!map || !old_n)
		goto out;
	for (uint32_t t = 0; t < b->ts.n; t++) {
		struct tstate *s = &b->ts.v[t];
		uint32_t n = s->ops.n, k = 0, e = 0;
		struct wl_op *v;

		old_n[t] = n;
		for (uint32_t i = 0; i < n; i++)
			e += s->ops.v[i].kind == WL_OP_COMM && s->ops.v[i].aux == WL_COMM_EXEC;
		if (!e)
			continue;
		/* each exec adds its mark and at most one RUN cut in two */
		if (!(v = malloc((n + 2 * (size_t)e) * sizeof(*v))) ||
		    !(map[t] = malloc(n * sizeof(**map)))) {
			free(v);
			goto out;
		}
		for (uint32_t x = 0, from = 0; x <= n; x++) {
			uint64_t cut = 0;
			uint32_t at;
			uint8_t how;

			if (x < n && (s->ops.v[x].kind != WL_OP_COMM ||
				      s->ops.v[x].aux != WL_COMM_EXEC))
				continue;
			if (x == n) {
				at = n;
				how = 0;
			} else if ((at = exec_stopper_op(s, x, &w)) != WL_NONE) {
				how = WL_EXEC_AT_STOPPER;
				f->exec_marks_traced++;
			} else if (f->exec_lead_ns) {
				at = exec_lead_op(s, x, f->exec_lead_ns, &cut);
				how = WL_EXEC_AT_LEAD;
				f->exec_marks_lead++;
			} else {
				at = x;
				how = WL_EXEC_AT_EXEC;
				f->exec_marks_at_exec++;
			}
			for (; from < at; from++) {
				map[t][from] = k;
				v[k++] = s->ops.v[from];
			}
			if (x == n)
				break;
			if (cut) {
				map[t][from] = k;
				v[k] = s->ops.v[from++];
				v[k++].value -= cut;
			}
			v[k++] = (struct wl_op){ .kind = WL_OP_EXEC_BALANCE, .aux = how };
			if (cut)
				v[k++] = (struct wl_op){ .kind = WL_OP_RUN, .value = cut };
		}
		free(s->ops.v);
		s->ops.v = v;
		s->ops.n = s->ops.cap = k;
	}
	renumber_ops(b, map, old_n);
	ret = 0;
out:
	free_op_maps(b, map, old_n);
	free(leads);
	return ret;
}

/* Resolve the channels (their void placeholders become kind 0: dropped after). */
static int chan_finish(struct wl_builder *b)
{
	struct wl_chanb_task *tt = calloc(b->ts.n ? b->ts.n : 1, sizeof(*tt));
	int ret = -1;

	if (!tt)
		goto out;
	for (uint32_t t = 0; t < b->ts.n; t++)
		tt[t] = (struct wl_chanb_task){ .ops = b->ts.v[t].ops.v, .nr_ops = b->ts.v[t].ops.n,
						.parent = b->tasks.v[t].parent, .cls = b->tasks.v[t].cls };
	if (wl_chanb_finish(b->chan, tt, b->ts.n, b->wakes.n, b->wl))
		goto out;
	ret = 0;
out:
	free(tt);
	return ret;
}

/*
 * A hand-off stands for a dependency only between tasks that keep handing
 * off to each other (a ping-pong, a producer and its consumer): a pair with
 * fewer than WL_HANDOFF_MIN_PAIR hand-offs in the whole trace loses its
 * waits.  A one-off one is a vfork()ed child's exec waking its parent, or a
 * child's exit: the child does not wait for the parent's work (forkexec
 * capture: the waits added a fifth of the wakeups).
 */
#define WL_HANDOFF_MIN_PAIR 3

static int drop_oneoff_handoffs(struct wl_builder *b)
{
	uint64_t *keys = NULL;
	size_t n = 0, cap = 0;

	for (uint32_t x = 0; x < b->ts.n; x++) {
		const struct tstate *s = &b->ts.v[x];

		for (uint32_t i = 0; i < s->ops.n; i++) {
			if (s->ops.v[i].kind != WL_OP_WAIT)
				continue;
			if (n == cap) {
				size_t nc = cap ? 2 * cap : 256;
				uint64_t *nk = realloc(keys, nc * sizeof(*nk));

				if (!nk) {
					free(keys);
					return -1;
				}
				keys = nk;
				cap = nc;
			}
			keys[n++] = (uint64_t)x << 32 | s->ops.v[i].arg;
		}
	}
	if (n)
		sr_sort_u64(keys, n);
	for (uint32_t x = 0; x < b->ts.n; x++) {
		struct tstate *s = &b->ts.v[x];

		for (uint32_t i = 0; i < s->ops.n; i++) {
			struct wl_op *o = &s->ops.v[i];

			if (o->kind != WL_OP_WAIT || o->arg == WL_NONE || o->aux == WL_WAIT_SIGNAL)
				continue;
			if (count_key(keys, n, (uint64_t)x << 32 | o->arg) < WL_HANDOFF_MIN_PAIR) {
				o->arg = WL_NONE;
				b->wl->notes[WL_NOTE_HANDOFF_ONEOFF]++;
			}
		}
	}
	free(keys);
	return 0;
}

/*
 * A reader with several writers: a task whose sleeps are ended by wakes from
 * at least two tasks that each woke it WL_HANDOFF_MIN_PAIR times or more
 * (hackbench's receivers: every sender writes to every receiver's pipe).  The
 * kernel's reader sleeps on the channel (pipe_read() -> wait_event on
 * pipe->rd_wait) and the first writer's pipe_write() ends the sleep, whoever
 * it is; the trace only says who came first on the hardware.  Those wakes are
 * marked WL_WAKE_CHANNEL: the simulation lets any of them end any of those
 * sleeps, in the order the simulated writers reach them.
 */
static bool channel_candidate(const struct wl_builder *b, const struct wl_wake *w)
{
	return w->src == WL_SRC_TASK && w->waker != WL_NONE && w->target < b->tasks.n &&
	       (w->flags & WL_WAKE_ENDS_BLOCK) &&
	       !(w->flags & (WL_WAKE_SPURIOUS | WL_WAKE_ON_CPU | WL_WAKE_NEW));
}

static int mark_channel_wakes(struct wl_builder *b)
{
	uint64_t *keys = NULL;
	uint32_t *nregular = NULL;
	size_t n = 0;
	int ret = -1;

	if (!b->wakes.n)
		return 0;
	keys = malloc(b->wakes.n * sizeof(*keys));
	nregular = calloc(b->tasks.n ? b->tasks.n : 1, sizeof(*nregular));
	if (!keys || !nregular)
		goto out;
	for (uint32_t i = 0; i < b->wakes.n; i++) {
		const struct wl_wake *w = &b->wakes.v[i];

		if (channel_candidate(b, w))
			keys[n++] = (uint64_t)w->target << 32 | w->waker;
	}
	sr_sort_u64(keys, n);
	for (size_t i = 0, j; i < n; i = j) {       /* regular wakers per target */
		for (j = i; j < n && keys[j] == keys[i]; j++)
			;
		if (j - i >= WL_HANDOFF_MIN_PAIR)
			nregular[keys[i] >> 32]++;
	}
	for (uint32_t i = 0; i < b->wakes.n; i++) {
		struct wl_wake *w = &b->wakes.v[i];

		if (channel_candidate(b, w) && nregular[w->target] >= 2 &&
		    count_key(keys, n, (uint64_t)w->target << 32 | w->waker) >= WL_HANDOFF_MIN_PAIR)
			w->flags |= WL_WAKE_CHANNEL;
	}
	ret = 0;
out:
	free(keys);
	free(nregular);
	return ret;
}

/*
 * WF_SYNC is not in the trace.  A wake is replayed as sync when the waker
 * goes to sleep (a BLOCK) or hands off (a WAIT) right after it: no other
 * wake or fork in between and at most WL_SYNC_MAX_RUN_NS of its own CPU work
 * (the rest of the system call).  That is what WF_SYNC means ("the waker is
 * about to sleep") and what the sync callers do (pipe, unix sockets,
 * wake_up_interruptible_sync_poll()); a non-sync ping-pong (eventfd, futex)
 * looks the same in a trace and is marked too.  6.18's wakeup preemption
 * ignores WF_SYNC (measured: the same preemption rate for pipe and eventfd
 * ping-pong, docs/model.md); it matters to wake_affine() under
 * --placement model.  With wl_options.exit_wake_sync a waker that exits
 * right after counts as one that sleeps: a child's wake of its parent from
 * exit_notify() (do_notify_parent() -> __wake_up_parent(), WF_SYNC).
 */
#define WL_SYNC_MAX_RUN_NS 20000u

static void mark_sync_wakes(struct wl_builder *b, uint32_t t)
{
	const struct tstate *s = &b->ts.v[t];

	for (uint32_t i = 0; i < s->ops.n; i++) {
		uint64_t run = 0;
		uint32_t j;

		if (s->ops.v[i].kind != WL_OP_WAKE)
			continue;
		for (j = i + 1; j < s->ops.n; j++) {
			uint8_t k = s->ops.v[j].kind;

			if (k == WL_OP_RUN)
				run += s->ops.v[j].value;
			else if (!zero_time_op(k) &&
				 !(b->opt.exit_wake_sync && k == WL_OP_EXIT_MOVE))
				break;
		}
		if (j < s->ops.n && run <= WL_SYNC_MAX_RUN_NS &&
		    ((s->ops.v[j].kind == WL_OP_BLOCK && s->ops.v[j].aux == WL_BLOCK_SLEEP) ||
		     s->ops.v[j].kind == WL_OP_WAIT ||
		     (b->opt.exit_wake_sync && s->ops.v[j].kind == WL_OP_EXIT))) {
			b->wakes.v[s->ops.v[i].arg].flags |= WL_WAKE_SYNC;
			if (s->ops.v[j].kind == WL_OP_BLOCK &&
			    run < (uint64_t)WL_LEAD_BUCKET_NS * WL_LEAD_BUCKETS)
				b->tail_hist[run / WL_LEAD_BUCKET_NS]++;
		}
	}
}

/*
 * A hand-off in a one-way flow.  In a ping-pong the waker X sometimes sleeps
 * for the answer: it wakes Y, sleeps right after (WL_SYNC_MAX_RUN_NS of its
 * own work at most, no hand-off in between) and Y's wake ends that sleep - a
 * reply.  A pair of which the trace shows no reply is one-way (hackbench's
 * sender and receiver: the receiver's wakes of a sender, when its pipe was
 * full, end sleeps that followed a write to another receiver): nothing X does
 * after the wakeup depends on Y's work, the hand-off only says that the kernel
 * let Y run first.  Its WAITs are marked WL_WAIT_ONEWAY
 * (replay_config.oneway_no_wait, docs/replay.md).
 */
/*
 * wl_options.reply_in_run: whether Y's wake @wr (ending X's sleep) answers
 * X's wake @wx of Y, i.e. Y made it in the run @wx began: no sleep of Y
 * between the BLOCK @wx ended and that WAKE.  A wake of X that Y makes after
 * sleeping again (the probe's message thread: woken by its last worker, it
 * sleeps 3 ms on a timer, then wakes the workers for the next round) is no
 * reply.  @blk, @wk: each wake's op in its target's (BLOCK it ends) and its
 * waker's (WAKE) ops, WL_NONE where there is none; unknown: a reply, as by
 * default.
 */
static bool reply_in_run(const struct wl_builder *b, const uint32_t *blk, const uint32_t *wk,
			 uint32_t y, uint32_t wx, uint32_t wr)
{
	const struct tstate *s = &b->ts.v[y];

	if (blk[wx] == WL_NONE || wk[wr] == WL_NONE)
		return true;
	if (wk[wr] < blk[wx])
		return false;
	for (uint32_t i = blk[wx] + 1; i < wk[wr]; i++)
		if (s->ops.v[i].kind == WL_OP_BLOCK && s->ops.v[i].aux == WL_BLOCK_SLEEP)
			return false;
	return true;
}

static int mark_oneway_handoffs(struct wl_builder *b)
{
	uint64_t *keys = NULL, *rkeys = NULL;     /* replies; in-run replies */
	uint32_t *blk = NULL, *wk = NULL;
	size_t n = 0, rn = 0;
	int ret = -1;

	if (b->wakes.n && !(keys = malloc(b->wakes.n * sizeof(*keys))))
		goto out;
	if (b->opt.reply_in_run && b->wakes.n) {
		rkeys = malloc(b->wakes.n * sizeof(*rkeys));
		blk = malloc(b->wakes.n * sizeof(*blk));
		wk = malloc(b->wakes.n * sizeof(*wk));
		if (!rkeys || !blk || !wk)
			goto out;
		memset(blk, 0xff, b->wakes.n * sizeof(*blk));
		memset(wk, 0xff, b->wakes.n * sizeof(*wk));
		for (uint32_t t = 0; t < b->ts.n; t++) {
			const struct tstate *s = &b->ts.v[t];

			for (uint32_t i = 0; i < s->ops.n; i++) {
				const struct wl_op *o = &s->ops.v[i];

				if (o->arg >= b->wakes.n)
					continue;
				if (o->kind == WL_OP_BLOCK)
					blk[o->arg] = i;
				else if (o->kind == WL_OP_WAKE)
					wk[o->arg] = i;
			}
		}
	}
	for (uint32_t x = 0; x < b->ts.n; x++) {       /* replies: (Y << 32 | X) */
		const struct tstate *s = &b->ts.v[x];
		uint32_t last = WL_NONE;                /* the wakee of X's last WAKE */
		uint32_t last_w = WL_NONE;              /* that WAKE's record */
		uint64_t run = 0;                       /* X's work since that WAKE */

		for (uint32_t i = 0; i < s->ops.n; i++) {
			const struct wl_op *o = &s->ops.v[i];

			if (o->kind == WL_OP_RUN) {
				run += o->value;
			} else if (o->kind == WL_OP_WAKE) {
				last = b->wakes.v[o->arg].target;
				last_w = o->arg;
				run = 0;
			} else if (o->kind == WL_OP_BLOCK && last != WL_NONE && o->arg != WL_NONE &&
				   run <= WL_SYNC_MAX_RUN_NS && b->wakes.v[o->arg].waker == last) {
				keys[n++] = (uint64_t)last << 32 | x;   /* one per wake at most */
				if (blk && reply_in_run(b, blk, wk, last, last_w, o->arg))
					rkeys[rn++] = keys[n - 1];
				last = WL_NONE;
			} else if (!zero_time_op(o->kind)) {
				last = WL_NONE;
			}
		}
	}
	if (n)
		sr_sort_u64(keys, n);
	if (rn)
		sr_sort_u64(rkeys, rn);
	for (uint32_t x = 0; x < b->ts.n; x++) {
		struct tstate *s = &b->ts.v[x];

		for (uint32_t i = 0; i < s->ops.n; i++) {
			struct wl_op *o = &s->ops.v[i];
			uint64_t reply;

			if (o->kind != WL_OP_WAIT || o->arg == WL_NONE || o->aux == WL_WAIT_SIGNAL)
				continue;
			reply = (uint64_t)o->arg << 32 | x;
			o->aux = n && bsearch(&reply, keys, n, sizeof(*keys), cmp_u64) ?
				WL_WAIT_PINGPONG : WL_WAIT_ONEWAY;
			if (blk && o->aux == WL_WAIT_PINGPONG &&
			    !(rn && bsearch(&reply, rkeys, rn, sizeof(*rkeys), cmp_u64))) {
				o->aux = WL_WAIT_LATER;
				b->wl->notes[WL_NOTE_HANDOFF_LATER]++;
			}
		}
	}
	ret = 0;
out:
	free(keys);
	free(rkeys);
	free(blk);
	free(wk);
	return ret;
}

static int pid_ix_cmp(const void *a, const void *b)
{
	const struct wl_pid_ix *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->first_ts != y->first_ts)
		return x->first_ts < y->first_ts ? -1 : 1;
	return x->task < y->task ? -1 : x->task > y->task;
}

/* wl->by_pid for the finished task table; -1 out of memory */
static int pid_index_build(struct wl_workload *wl)
{
	if (!wl->nr_tasks)
		return 0;
	wl->by_pid = malloc((size_t)wl->nr_tasks * sizeof(*wl->by_pid));
	if (!wl->by_pid)
		return -1;
	for (uint32_t i = 0; i < wl->nr_tasks; i++)
		wl->by_pid[i] = (struct wl_pid_ix){ .pid = wl->tasks[i].pid, .task = i,
						    .first_ts = wl->tasks[i].first_ts };
	qsort(wl->by_pid, wl->nr_tasks, sizeof(*wl->by_pid), pid_ix_cmp);
	return 0;
}

/* The read of task @t at the trace's start (k 0) or end (k 1) with a mask, or NULL. */
static const struct sidecar_sched_task *aff_read(const struct wl_workload *wl, uint32_t t, int k)
{
	const struct wl_task *w = &wl->tasks[t];
	const struct sidecar_sched_task *e = sidecar_sched_find(&wl->sched_snap[k], w->pid);

	if (!e || e->nr_allowed < 0)
		return NULL;
	if (k == 0 && w->init_state == WL_INIT_NEW)
		return NULL;            /* the pid was another task's at the start */
	if (k == 1 && w->nr_ops && wl->ops[w->first_op + w->nr_ops - 1].kind == WL_OP_EXIT)
		return NULL;            /* exited: the pid at the end is another's */
	return e;
}

/* A read's mask in the model's "one CPU or all" form: its one CPU, or -1 (all, or
 * several: then the read's allowed_mask holds them) */
static int16_t aff_of_read(const struct sidecar_sched_task *e)
{
	return e->nr_allowed == 1 ? (int16_t)e->allowed_cpu : -1;
}

/*
 * Each task's allowed CPUs (docs/replay.md, "Affinity"), when the trace
 * records sched_setaffinity() and the sidecar's reads carry
 * Cpus_allowed_list; else every task keeps WL_AFF_INFERRED.  A call's new
 * mask: the target's end read if it is alive then and made no later call;
 * else the CPUs its wakeups after the call (up to its next call) and those
 * of the children it forked after it ran on: WL_AFF_MIN_WAKES or more, all
 * on one CPU, pin it there; else all CPUs.  A task's mask from its start:
 * its end read if no call changed it during the trace, its start read, its
 * parent's at the fork (the last call on the parent before it, or the
 * parent's own from its start).  Tasks are made in trace order, a parent
 * before its children.
 */
static void aff_finish(struct wl_builder *b)
{
	struct wl_workload *wl = b->wl;
	bool reads = false;

	wl->aff_calls = b->aff.v;
	wl->nr_aff_calls = b->aff.n;
	b->aff.v = NULL;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < wl->sched_snap[k].nr_tasks; i++)
			reads = reads || wl->sched_snap[k].tasks[i].nr_allowed >= 0;
	wl->aff_data = reads && b->sc && b->sc->affinity_recorded;
	wl->facts.aff_reads = reads;
	wl->facts.aff_events = (b->sc && b->sc->affinity_recorded) || b->aff_seen;
	wl->facts.aff_data = wl->aff_data;
	if (!wl->aff_data)
		return;
	for (uint32_t i = 0; i < wl->nr_aff_calls; i++) {
		struct wl_aff_call *c = &wl->aff_calls[i];
		const struct sidecar_sched_task *e = aff_read(wl, c->target, 1);
		uint64_t until = UINT64_MAX;
		uint32_t n = 0;
		int cpu = -1;
		bool one = true;

		if (e && b->ts.v[c->target].aff_last == i) {
			c->cpu = aff_of_read(e);
			c->mask = e->allowed_mask;
			c->src = WL_AFF_END_READ;
			continue;
		}
		for (uint32_t j = i + 1; j < wl->nr_aff_calls; j++)
			if (wl->aff_calls[j].target == c->target) {
				until = wl->aff_calls[j].ts;
				break;
			}
		for (uint32_t w = 0; w < wl->nr_wakes && one; w++) {
			const struct wl_wake *k = &wl->wakes[w];
			const struct wl_task *tk = k->target < wl->nr_tasks ? &wl->tasks[k->target] : NULL;

			if (!tk || k->ts <= c->ts || k->cpu < 0 ||
			    !(k->target == c->target ? k->ts < until :
			      tk->parent == c->target && tk->first_ts > c->ts))
				continue;
			if (cpu >= 0 && k->cpu != cpu)
				one = false;
			cpu = k->cpu;
			n++;
		}
		if (one && n >= WL_AFF_MIN_WAKES) {
			c->cpu = (int16_t)cpu;
			c->src = WL_AFF_RUN_CPUS;
		}
	}
	for (uint32_t i = 0; i < wl->nr_aff_calls; i++)
		wl->facts.aff_calls[wl->aff_calls[i].src]++;
	for (uint32_t t = 0; t < wl->nr_tasks; t++) {
		struct wl_task *w = &wl->tasks[t];
		const struct sidecar_sched_task *e;
		uint32_t fc = b->ts.v[t].aff_fork_call;

		if (b->ts.v[t].aff_last == WL_NONE && (e = aff_read(wl, t, 1))) {
			w->aff_cpu = aff_of_read(e);
			w->aff_mask = e->allowed_mask;
			w->aff_src = WL_AFF_END_READ;
		} else if ((e = aff_read(wl, t, 0))) {
			w->aff_cpu = aff_of_read(e);
			w->aff_mask = e->allowed_mask;
			w->aff_src = WL_AFF_START_READ;
		} else if (w->parent != WL_NONE && w->parent < t &&
			   (fc != WL_NONE || wl->tasks[w->parent].aff_src != WL_AFF_INFERRED)) {
			w->aff_cpu = fc != WL_NONE ? wl->aff_calls[fc].cpu : wl->tasks[w->parent].aff_cpu;
			w->aff_mask = fc != WL_NONE ? wl->aff_calls[fc].mask :
				      wl->tasks[w->parent].aff_mask;
			w->aff_src = WL_AFF_FORK;
		}
		wl->facts.aff_tasks[w->aff_src]++;
		wl->facts.aff_pinned += w->aff_src != WL_AFF_INFERRED && w->aff_cpu >= 0;
	}
}

const struct wl_aff_call *wl_aff_calls(const struct wl_workload *wl, uint32_t *n)
{
	/* without a mask to give them (no reads), the calls change nothing */
	*n = wl->aff_data ? wl->nr_aff_calls : 0;
	return wl->aff_calls;
}

const char *wl_aff_source_name(int src)
{
	static const char *const names[WL_AFF_NR] = {
		[WL_AFF_INFERRED] = "inferred (one traced CPU: pinned)",
		[WL_AFF_END_READ] = "sidecar sched_at_end",
		[WL_AFF_START_READ] = "sidecar sched_at_start",
		[WL_AFF_FORK] = "its parent's at the fork",
		[WL_AFF_RUN_CPUS] = "the CPUs it ran on after sched_setaffinity()",
		[WL_AFF_NONE] = "none (all CPUs)",
	};

	return src >= 0 && src < WL_AFF_NR ? names[src] : "?";
}

struct wl_workload *wl_builder_finish(struct wl_builder *b, struct sr_error *err)
{
	struct wl_workload *wl;
	uint64_t total = 0;

	if (!b)
		return NULL;
	wl = b->wl;
	wl->first_ts = b->first_ts;
	wl->last_ts = b->last_ts;
	if (wl_builder_stream_end(b) || wl_sdq_finish(b))
		goto oom;
	/* a map's weight or limit for a group the trace never had: say so */
	for (size_t i = 0; i < b->cgmap.nr_shares + b->cgmap.nr_quota; i++) {
		const char *path = i < b->cgmap.nr_shares ? b->cgmap.shares[i].path :
			b->cgmap.quota[i - b->cgmap.nr_shares].path;
		uint32_t g = 0;

		while (g < b->groups.n && strcmp(b->groups.v[g].path, path))
			g++;
		if (g == b->groups.n)
			wl->notes[WL_NOTE_CGMAP_UNMATCHED]++;
	}
	/* a map's PID no task alive at the start had (a typo, a pid of another run) */
	for (size_t i = 0; i < b->cgmap.n; i++)
		if (!b->cgmap.e[i].used)
			wl->notes[WL_NOTE_CGMAP_PID_UNMATCHED]++;
	if (drop_oneoff_handoffs(b) || mark_oneway_handoffs(b) || mark_channel_wakes(b))
		goto oom;
	for (uint32_t t = 0; t < b->ts.n; t++)
		mark_sync_wakes(b, t);
	/*
	 * Channels need all four of syscalls:sys_{enter,exit}_{read,write}: a
	 * trace with only some has its records dropped (chan_finish() still
	 * runs when any was seen, to remove their placeholders).
	 */
	wl->facts.chan.syscalls = b->sys_seen == 0xf;
	wl->facts.chan.events_seen = b->sys_seen;
	wl->facts.chan.requested = b->opt.channels != WL_CHANNELS_OFF;
	wl->facts.chan.marks_requested = b->opt.syscall_marks;
	if (b->chan && b->sys_seen) {
		if (chan_finish(b))
			goto oom;
		b->dead_ops = true;     /* (its placeholders; as before, RUNs merged) */
	}
	if (b->dead_ops && drop_dead_ops(b))
		goto oom;
	if (mark_exec_balance(b))
		goto oom;
	for (uint32_t t = 0; t < b->ts.n; t++)
		total += b->ts.v[t].ops.n;
	if (total > UINT32_MAX - 1) {
		sr_error_set(err, EFBIG, "%s: more than 2^32 workload operations",
			     wl->info.path ? wl->info.path : "trace");
		goto fail;
	}
	wl->ops = malloc((total ? total : 1) * sizeof(*wl->ops));
	if (!wl->ops)
		goto oom;
	for (uint32_t t = 0; t < b->ts.n; t++) {
		struct tstate *s = &b->ts.v[t];

		b->tasks.v[t].first_op = wl->nr_ops;
		b->tasks.v[t].nr_ops = s->ops.n;
		if (s->ops.n)
			memcpy(wl->ops + wl->nr_ops, s->ops.v, s->ops.n * sizeof(*s->ops.v));
		wl->nr_ops += s->ops.n;
		free(s->ops.v);
		s->ops.v = NULL;
		s->ops.n = 0;
	}
	wl->tasks = b->tasks.v;
	wl->nr_tasks = b->tasks.n;
	b->tasks.v = NULL;
	if (pid_index_build(wl))
		goto oom;
	wl->wakes = b->wakes.v;
	wl->nr_wakes = b->wakes.n;
	b->wakes.v = NULL;
	if (b->kpath.n)     /* completed at each sched_wakeup: not in wake order across CPUs */
		qsort(b->kpath.v, b->kpath.n, sizeof(*b->kpath.v), cmp_kpath);
	wl->kpath = b->kpath.v;
	wl->nr_kpath = b->kpath.n;
	b->kpath.v = NULL;
	wl->timed = b->timed.v;
	wl->nr_timed = b->timed.n;
	b->timed.v = NULL;
	wl->newidle = b->newidle.v;
	wl->nr_newidle = b->newidle.n;
	b->newidle.v = NULL;
	wl->stalls = b->stalls.v;
	wl->nr_stalls = b->stalls.n;
	b->stalls.v = NULL;
	for (uint32_t g = 0; g < b->groups.n; g++)
		bw_phase_finish(b, &b->groups.v[g], g);
	wl->groups = b->groups.v;
	wl->nr_groups = b->groups.n;
	b->groups.v = NULL;
	wl->strings = b->strings.v;
	wl->nr_strings = b->strings.n;
	b->strings.v = NULL;
	b->strings.n = 0;
	if (facts_finish(b) || idle_finish(b) || sidecar_copy(b) || lost_finish(b))
		goto oom;
	fork_finish(b);
	aff_finish(b);
	if (sched_snap_check(b, err))
		goto fail;
	if (!b->opt.all_preempt_costs)
		uncontest_costs(wl);
	if (calib_build(&wl->calib, wl->wakes, wl->nr_wakes, wl->facts.nr_cpus,
			!b->opt.all_preempt_costs))
		goto oom;
	if (calib_build_waker(&wl->calib, wl))
		goto oom;
	if (wl_ticks_finish(b) || wl_steal_finish(b))
		goto oom;
	b->wl = NULL;
	wl_builder_free(b);
	return wl;
oom:
	sr_error_set(err, ENOMEM, "out of memory");
fail:
	wl_builder_free(b);
	return NULL;
}

