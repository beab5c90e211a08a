// SPDX-License-Identifier: GPL-2.0
/*
 * Workload extraction on hand-built event sequences: every op, wake record,
 * timed event and calibration sample is checked with its exact value.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <schedreplay/latency.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/workload.h>

#include "check_replay.h"
#include "calib.h"

#define MS 1000000ull
#define US 1000ull
#define HARDIRQ 0x08
#define SOFTIRQ 0x10

static struct wl_builder *B;

static void feed(struct trace_event e)
{
	struct sr_error err = { 0 };

	if (wl_builder_event(B, &e, 0, &err))
		fprintf(stderr, "feed: %s\n", err.msg), exit(2);
}

static struct wl_workload *finish(void)
{
	struct sr_error err = { 0 };
	struct wl_workload *wl = wl_builder_finish(B, &err);

	B = NULL;
	if (!wl)
		fprintf(stderr, "finish: %s\n", err.msg), exit(2);
	return wl;
}

/* A builder under extraction options @o (NULL: the defaults). */
static void start_opts(const struct wl_options *o)
{
	struct sr_error err = { 0 };

	B = wl_builder_new(NULL, NULL, o, &err);
	if (!B)
		fprintf(stderr, "builder: %s\n", err.msg), exit(2);
}

static void start(void)
{
	start_opts(NULL);
}

/*
 * A builder over sidecar @sc with sched/debug reads @reads (@nr) of the
 * kernel's queue paths @paths (@np).
 */
static void start_sd(struct sidecar *sc, char **paths, size_t np, struct sidecar_sd_read *reads,
		     size_t nr)
{
	struct sr_error err = { 0 };

	sc->sched_debug = (struct sidecar_sched_debug){ .listed = true, .available = true,
							.nr_paths = np, .paths = paths,
							.nr_reads = nr, .reads = reads };
	B = wl_builder_new(NULL, sc, NULL, &err);
	if (!B)
		fprintf(stderr, "builder: %s\n", err.msg), exit(2);
}

/* The n-th task (0: first) with @pid. */
static uint32_t task_of(const struct wl_workload *wl, int pid, int n)
{
	for (uint32_t i = 0; i < wl_nr_tasks(wl); i++)
		if (wl_task(wl, i)->pid == pid && n-- == 0)
			return i;
	return WL_NONE;
}

static const struct wl_op *op_of(const struct wl_workload *wl, uint32_t t, uint32_t k)
{
	static const struct wl_op none = { 0 };

	if (t == WL_NONE || k >= wl_task(wl, t)->nr_ops)
		return &none;
	return &wl_task_ops(wl, t)[k];
}

/*
 * The count of the workload's note whose text contains @part, 0 if there is
 * none: wl_note_at() lists only notes with a non-zero count, so a note that
 * is absent and a note of count 0 are the same thing.  Every @part used here
 * is found in one note's text only.
 */
static uint64_t note_value(const struct wl_workload *wl, const char *part)
{
	unsigned int it = 0;
	const char *text;
	uint64_t v;

	while (wl_note_at(wl, &it, &text, &v))
		if (strstr(text, part))
			return v;
	return 0;
}

/* The external wakes (WL_T_EXT_WAKE) of task @t on the timed list. */
static uint32_t ext_wakes(const struct wl_workload *wl, uint32_t t)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < wl_nr_timed(wl); i++)
		if (wl_timed_at(wl, i)->kind == WL_T_EXT_WAKE && wl_timed_at(wl, i)->task == t)
			n++;
	return n;
}

/*
 * Pre-existing tasks and a task-caused wake: CPU 0 runs 10 (it was running
 * at the start) then 11 (queued at the start); 11 blocks; 10 wakes it at
 * its own 3 ms of work since... ; 12 was asleep and is woken from idle CPU 1.
 */
static void test_basic(void)
{
	struct wl_workload *wl;
	uint32_t a, b, c;

	start();
	feed(ev_runtime(1 * MS, 0, 10, 1 * MS));
	feed(ev_switch(2 * MS, 0, 10, 'R', 120, 11, 120));       /* 10 preempted */
	feed(ev_switch(3 * MS, 0, 11, 'S', 120, 10, 120));       /* 11 blocks */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 5 * MS, 0, 10, 0, 11, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * MS + 1000, 0, 10, 0, 11, 120, 0));
	feed(ev_switch(6 * MS, 0, 10, 'R', 120, 11, 120));       /* preempting wakeup */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 7 * MS, 1, 0, HARDIRQ, 12, 115, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 7 * MS + 500, 1, 0, HARDIRQ, 12, 115, 1));
	feed(ev_switch(7 * MS + 20000, 1, 0, 'R', 120, 12, 115));
	feed(ev_switch(8 * MS, 1, 12, 'S', 115, 0, 120));
	wl = finish();

	a = task_of(wl, 10, 0);
	b = task_of(wl, 11, 0);
	c = task_of(wl, 12, 0);
	CHECK(a != WL_NONE && b != WL_NONE && c != WL_NONE);
	CHECK_EQ(wl_task(wl, a)->init_state, WL_INIT_RUNNING);
	CHECK_EQ(wl_task(wl, a)->init_cpu, 0);
	CHECK_EQ(wl_task(wl, b)->init_state, WL_INIT_RUNNABLE);
	CHECK_EQ(wl_task(wl, c)->init_state, WL_INIT_SLEEPING);
	CHECK_EQ(wl_task(wl, c)->nice, -5);
	/* 10: ran 1..2 ms (from the trace start), 3..5 ms, WAKE, 5..6 ms (merged
	 * across the preemption), then queued to the end */
	CHECK_EQ(wl_task(wl, a)->nr_ops, 3);
	CHECK_EQ(op_of(wl, a, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, a, 0)->value, 3 * MS);
	CHECK_EQ(op_of(wl, a, 1)->kind, WL_OP_WAKE);
	CHECK_EQ(op_of(wl, a, 2)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, a, 2)->value, 1 * MS);
	/* 11: RUN 1 ms, BLOCK ended by that wake, then runs 6..8 ms to the end */
	CHECK_EQ(op_of(wl, b, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, b, 0)->value, 1 * MS);
	CHECK_EQ(op_of(wl, b, 1)->kind, WL_OP_BLOCK);
	CHECK_EQ(op_of(wl, b, 1)->value, 1);             /* raw prev_state S */
	CHECK_EQ(op_of(wl, b, 1)->arg, op_of(wl, a, 1)->arg);
	CHECK_EQ(op_of(wl, b, 2)->value, 2 * MS);
	{
		const struct wl_wake *w = wl_wake(wl, op_of(wl, a, 1)->arg);

		CHECK_EQ(w->src, WL_SRC_TASK);
		CHECK_EQ(w->waker, a);
		CHECK_EQ(w->target, b);
		CHECK_EQ(w->cpu, 0);
		CHECK_EQ(w->flags, WL_WAKE_ENDS_BLOCK);
		CHECK_EQ(w->latency, 1 * MS);
		CHECK_EQ(w->path, WL_PATH_PREEMPT_LOCAL);
	}
	/* 12: its initial sleep is ended by an external (hardirq) wake */
	{
		const struct wl_task *t = wl_task(wl, c);
		const struct wl_wake *w = wl_wake(wl, t->init_wake);
		bool timed = false;

		CHECK(t->init_wake != WL_NONE);
		CHECK_EQ(w->src, WL_SRC_HARDIRQ);
		CHECK_EQ(w->waker, WL_NONE);
		CHECK_EQ(w->cpu, 1);
		CHECK_EQ(w->path, WL_PATH_IDLE);
		CHECK_EQ(w->latency, 20000);
		for (uint32_t i = 0; i < wl_nr_timed(wl); i++)
			if (wl_timed_at(wl, i)->kind == WL_T_EXT_WAKE && wl_timed_at(wl, i)->arg == t->init_wake) {
				timed = true;
				CHECK_EQ(wl_timed_at(wl, i)->ts, 7 * MS);
			}
		CHECK(timed);
		CHECK_EQ(op_of(wl, c, 0)->value, 8 * MS - 7 * MS - 20000);
		CHECK_EQ(op_of(wl, c, 1)->kind, WL_OP_BLOCK);
		CHECK_EQ(op_of(wl, c, 1)->arg, WL_NONE);   /* never woken again */
	}
	CHECK_EQ(wl_counts(wl)->sched_switch, 5);
	CHECK_EQ(wl_counts(wl)->sched_stat_runtime_fair, 1);
	wl_free(wl);
}

/*
 * A task first seen as the next task of a switch: queued since the trace
 * start only while its CPU has not been idle since (11, as
 * in test_basic).  CPU 0 goes idle at 2 ms; 13, never seen before, is
 * switched in at 5 ms: the kernel would have run it at 2 ms had it been
 * queued, so it was woken after, untraced - it starts asleep, woken
 * externally at its switch-in.  With --unseen-queued, or in a trace that does
 * not record sched_migrate_task (13 may have been moved here, untraced):
 * queued since the start.
 */
/*
 * test_unseen_after_idle's trace, read as @info describes under @o: 10's
 * sched_waking and sched_wakeup at 3 ms only with @wakeups.
 */
static struct wl_workload *unseen_after_idle_wl(const struct trace_info *info,
						const struct wl_options *o, bool wakeups)
{
	struct sr_error err = { 0 };

	B = wl_builder_new(info, NULL, o, &err);
	if (!B)
		fprintf(stderr, "builder: %s\n", err.msg), exit(2);
	feed(ev_runtime(1 * MS, 0, 10, 1 * MS));
	feed(ev_switch(2 * MS, 0, 10, 'S', 120, 0, 120));        /* 10 blocks: idle */
	if (wakeups) {
		feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS, 0, 0, HARDIRQ, 10, 120, 0));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS, 0, 0, HARDIRQ, 10, 120, 0));
	}
	feed(ev_switch(3 * MS + 10000, 0, 0, 'R', 120, 10, 120));
	feed(ev_switch(5 * MS, 0, 10, 'S', 120, 13, 120));       /* 13: never seen */
	feed(ev_switch(6 * MS, 0, 13, 'S', 120, 0, 120));
	return finish();
}

static void test_unseen_after_idle(bool woken, bool migrations)
{
	struct wl_options o = { .unseen_queued = !woken };
	struct trace_info info = { .records_migrations = migrations };
	struct wl_workload *wl = unseen_after_idle_wl(&info, &o, true);
	uint32_t a, n;

	a = task_of(wl, 10, 0);
	n = task_of(wl, 13, 0);
	CHECK(a != WL_NONE && n != WL_NONE);
	if (n == WL_NONE)
		return;
	if (!woken || !migrations) {
		/* queued here since the trace start */
		CHECK_EQ(wl_task(wl, n)->init_state, WL_INIT_RUNNABLE);
		CHECK_EQ(note_value(wl, "no wakeup recorded"), 0);
		wl_free(wl);
		return;
	}
	CHECK_EQ(wl_task(wl, n)->init_state, WL_INIT_SLEEPING);
	CHECK(wl_task(wl, n)->init_wake != WL_NONE);
	if (wl_task(wl, n)->init_wake != WL_NONE) {
		const struct wl_wake *w = wl_wake(wl, wl_task(wl, n)->init_wake);
		bool timed = false;

		CHECK_EQ(w->waker, WL_NONE);
		CHECK_EQ(w->cpu, 0);
		for (uint32_t i = 0; i < wl_nr_timed(wl); i++)
			if (wl_timed_at(wl, i)->kind == WL_T_EXT_WAKE &&
			    wl_timed_at(wl, i)->arg == wl_task(wl, n)->init_wake) {
				timed = true;
				CHECK_EQ(wl_timed_at(wl, i)->ts, 5 * MS);
			}
		CHECK(timed);
	}
	CHECK_EQ(op_of(wl, n, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, n, 0)->value, 1 * MS);
	CHECK_EQ(note_value(wl, "no wakeup recorded"), 1);
	wl_free(wl);
}

/*
 * test_unseen_after_idle's 13 (first seen at its switch-in on CPU 0 after
 * the CPU went idle: asleep, woken there by an assumed wake) is taken as
 * forked (wl_task.fork_assumed, note "taken as a fork") only in a trace
 * that records wakeups (@wakeups: 10's sched_waking and sched_wakeup) and
 * no fork (trace_info.records_forks = @forks false): an existing task's
 * wake would be in the trace, a fork writes only sched_wakeup_new.  Its
 * parent (wl_task.fork_parent) is then 10, the task it was switched in
 * after, and none otherwise.
 */
static void test_fork_assumed(bool wakeups, bool forks)
{
	struct trace_info info = { .records_migrations = true, .records_forks = forks };
	struct wl_workload *wl = unseen_after_idle_wl(&info, NULL, wakeups);
	uint32_t a, n;
	bool want = wakeups && !forks;

	a = task_of(wl, 10, 0);
	n = task_of(wl, 13, 0);
	CHECK(a != WL_NONE && n != WL_NONE);
	if (a == WL_NONE || n == WL_NONE)
		return;
	CHECK_EQ(wl_task(wl, n)->init_state, WL_INIT_SLEEPING);
	CHECK(wl_task(wl, n)->init_wake != WL_NONE);
	CHECK_EQ(wl_task(wl, n)->fork_assumed, want);
	CHECK(!wl_task(wl, a)->fork_assumed);
	/* its parent credited: 10, the switch-in's prev, only when taken as a fork */
	CHECK_EQ(wl_task(wl, n)->fork_parent, want ? a : WL_NONE);
	CHECK_EQ(wl_task(wl, a)->fork_parent, WL_NONE);
	CHECK_EQ(note_value(wl, "taken as a fork"), want ? 1 : 0);
	/* 13's assumed wake (and 10's, without wakeups) */
	CHECK_EQ(note_value(wl, "no wakeup recorded"), wakeups ? 1 : 2);
	wl_free(wl);
}

/*
 * The same in a trace without sched_migrate_task (--unseen-nomig), two
 * CPUs.  CPU 0: 16, never seen, switched in from idle at its first switch
 * (the CPU idle right before it); 16 blocks (idle), then 13, never seen,
 * switched in from idle.  CPU 1: 11 runs, preempted at 6 ms by 14, never
 * seen (CPU 1 not idle so far); 14 blocks (idle) at 7 ms, now both CPUs
 * have gone idle, and 15, never seen, is switched in at 8 ms.  queued (the
 * default): all four queued since the start; idle: 16, 13 and 15 asleep,
 * woken at their switch-in, 14 queued; all-idle: only 15 asleep.  With
 * migrations traced the option does nothing (16 and 14 queued: no switch
 * to idle traced on their CPU before; 13 and 15 asleep).
 */
static void test_unseen_nomig(int mode, bool migrations)
{
	struct wl_options o = { .unseen_nomig = mode };
	struct trace_info info = { .records_migrations = migrations, .cpus = 2 };
	struct sr_error err = { 0 };
	struct wl_workload *wl;
	static const int pids[4] = { 16, 13, 14, 15 };
	bool asleep[4];

	B = wl_builder_new(&info, NULL, &o, &err);
	if (!B)
		fprintf(stderr, "builder: %s\n", err.msg), exit(2);
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 16, 120));        /* 16: never seen */
	feed(ev_runtime(1 * MS + 100000, 1, 11, 1 * MS));
	feed(ev_switch(2 * MS, 0, 16, 'S', 120, 0, 120));        /* CPU 0 idle */
	feed(ev_switch(5 * MS, 0, 0, 'R', 120, 13, 120));        /* 13: never seen */
	feed(ev_switch(6 * MS, 1, 11, 'R', 120, 14, 120));       /* 14: never seen */
	feed(ev_switch(6 * MS + 500000, 0, 13, 'S', 120, 0, 120));
	feed(ev_switch(7 * MS, 1, 14, 'S', 120, 11, 120));
	feed(ev_switch(7 * MS + 500000, 1, 11, 'S', 120, 0, 120)); /* CPU 1 idle */
	feed(ev_switch(8 * MS, 1, 0, 'R', 120, 15, 120));        /* 15: never seen */
	feed(ev_switch(9 * MS, 1, 15, 'S', 120, 0, 120));
	wl = finish();

	if (migrations) {
		asleep[0] = false, asleep[1] = true, asleep[2] = false, asleep[3] = true;
	} else {
		asleep[0] = mode == WL_UNSEEN_NOMIG_IDLE;
		asleep[1] = mode == WL_UNSEEN_NOMIG_IDLE;
		asleep[2] = false;
		asleep[3] = mode != WL_UNSEEN_NOMIG_QUEUED;
	}
	for (int i = 0; i < 4; i++) {
		uint32_t n = task_of(wl, pids[i], 0);

		CHECK(n != WL_NONE);
		if (n == WL_NONE)
			continue;
		if (wl_task(wl, n)->init_state != (asleep[i] ? WL_INIT_SLEEPING : WL_INIT_RUNNABLE))
			fprintf(stderr, "unseen_nomig mode %d migrations %d: pid %d init_state %d\n",
				mode, migrations, pids[i], (int)wl_task(wl, n)->init_state);
		CHECK_EQ(wl_task(wl, n)->init_state, asleep[i] ? WL_INIT_SLEEPING : WL_INIT_RUNNABLE);
		if (asleep[i] && wl_task(wl, n)->init_wake != WL_NONE)
			CHECK_EQ(wl_wake(wl, wl_task(wl, n)->init_wake)->waker, WL_NONE);
		CHECK(!asleep[i] || wl_task(wl, n)->init_wake != WL_NONE);
	}
	wl_free(wl);
}

/*
 * --flush-scope (small-pirt at 41444.6255): a timer interrupt on idle CPU 1
 * wakes 20 in hardirq context; the same interrupt's softirq, still on the
 * idle task, wakes 21 onto CPU 1 - last on CPU 0 (sched_waking names CPU 0,
 * then sched_migrate_task 0 -> 1) when @migrating, else last on CPU 1.  20's
 * flush_ns (its idle exit held to 21's wake) is 16 us exactly when the scope
 * takes 21 in: softirq for the local wake, both for the migrating one;
 * base never (21's source is softirq), migrate alone never.
 */
static void test_flush_scope(int scope, bool migrating)
{
	struct wl_options o = { .flush_scope = scope };
	struct wl_workload *wl;
	uint32_t t20, t21, ns = WL_NONE, n = 0;
	bool in;

	start_opts(&o);
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 20, 120));
	feed(ev_switch(1 * MS + 10 * US, 1, 20, 'S', 120, 0, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 21, 120));
	feed(ev_switch(1 * MS + 10 * US, 0, 21, 'S', 120, 0, 120));
	if (!migrating) {
		feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 1, 0, HARDIRQ, 21, 120, 1));
		feed(ev_migrate(2 * MS + 1 * US, 1, 21, 0, 1));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 2 * US, 1, 0, HARDIRQ, 21, 120, 1));
		feed(ev_switch(2 * MS + 10 * US, 1, 0, 'R', 120, 21, 120));
		feed(ev_switch(2 * MS + 20 * US, 1, 21, 'S', 120, 0, 120));
	}
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS, 1, 0, HARDIRQ, 20, 130, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 4 * US, 1, 0, HARDIRQ, 20, 130, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS + 16 * US, 1, 0, SOFTIRQ, 21, 120,
		     migrating ? 0 : 1));
	if (migrating)
		feed(ev_migrate(3 * MS + 19 * US, 1, 21, 0, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 23 * US, 1, 0, SOFTIRQ, 21, 120, 1));
	feed(ev_switch(3 * MS + 50 * US, 1, 0, 'R', 120, 21, 120));
	feed(ev_switch(3 * MS + 400 * US, 1, 21, 'S', 120, 20, 130));
	feed(ev_switch(3 * MS + 420 * US, 1, 20, 'S', 130, 0, 120));
	wl = finish();

	t20 = task_of(wl, 20, 0);
	t21 = task_of(wl, 21, 0);
	CHECK(t20 != WL_NONE && t21 != WL_NONE);
	for (uint32_t i = 0; i < wl_nr_wakes(wl); i++)
		if (wl_wake(wl, i)->target == t20 && wl_wake(wl, i)->ts == 3 * MS) {
			ns = wl_wake(wl, i)->flush_ns;
			n++;
		}
	CHECK_EQ(n, 1);
	in = migrating ? scope == WL_FLUSH_SCOPE_BOTH : (scope & WL_FLUSH_SCOPE_SOFTIRQ) != 0;
	if (ns != (in ? 16 * US : 0))
		fprintf(stderr, "flush_scope %d migrating %d: flush_ns %u\n", scope, migrating, ns);
	CHECK_EQ(ns, in ? 16 * US : 0);
	wl_free(wl);
}

/*
 * A softirq-context wake written while ksoftirqd/0 (pid 14) is CPU 0's
 * current: with ksoftirqd_ops a WAKE op of ksoftirqd, at 30 us of its run
 * (run_ksoftirqd() runs the softirq in its own context), without it an
 * external wake at its trace time.  A softirq wake on an interrupted task
 * (10) stays external either way.
 */
static void test_ksoftirqd_wakes(bool ops)
{
	struct wl_options o = { .ksoftirqd_ops = ops };
	struct trace_event e;
	struct wl_workload *wl;
	uint32_t k, t21, t22, ext;

	start_opts(&o);
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 10, 120));
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 0, 120));
	feed(ev_switch(1 * MS + 10, 1, 0, 'R', 120, 21, 120));
	feed(ev_switch(1 * MS + 20, 1, 21, 'S', 120, 22, 120));
	feed(ev_switch(1 * MS + 30, 1, 22, 'S', 120, 0, 120));
	e = ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 10, HARDIRQ, 14, 120, 0);
	snprintf(e.u.wakeup.comm, TRACE_COMM_LEN, "ksoftirqd/0");
	feed(e);
	e.type = TRACE_EV_SCHED_WAKEUP;
	feed(e);
	e = ev_switch(2 * MS + 5 * US, 0, 10, 'R', 120, 14, 120);
	snprintf(e.u.sched_switch.next_comm, TRACE_COMM_LEN, "ksoftirqd/0");
	feed(e);
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS + 35 * US, 0, 14, SOFTIRQ, 21, 120, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 36 * US, 1, 0, HARDIRQ, 21, 120, 1));
	e = ev_switch(2 * MS + 50 * US, 0, 14, 'S', 120, 10, 120);
	snprintf(e.u.sched_switch.prev_comm, TRACE_COMM_LEN, "ksoftirqd/0");
	feed(e);
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS, 0, 10, SOFTIRQ, 22, 120, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 1 * US, 1, 0, HARDIRQ, 22, 120, 1));
	feed(ev_switch(4 * MS, 0, 10, 'S', 120, 0, 120));
	wl = finish();

	k = task_of(wl, 14, 0);
	t21 = task_of(wl, 21, 0);
	t22 = task_of(wl, 22, 0);
	CHECK(k != WL_NONE && t21 != WL_NONE && t22 != WL_NONE);
	ext = ext_wakes(wl, t21) + ext_wakes(wl, t22);
	if (ops) {
		/* RUN 30 us (woken at 2 ms + 5 us), WAKE 21, RUN 15 us, BLOCK */
		CHECK_EQ(op_of(wl, k, 0)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, k, 0)->value, 30 * US);
		CHECK_EQ(op_of(wl, k, 1)->kind, WL_OP_WAKE);
		CHECK_EQ(wl_wake(wl, op_of(wl, k, 1)->arg)->target, t21);
		CHECK_EQ(wl_wake(wl, op_of(wl, k, 1)->arg)->waker, k);
		CHECK_EQ(ext, 1);
		CHECK_EQ(note_value(wl, "softirqs that ksoftirqd ran"), 1);
		CHECK_EQ(note_value(wl, "wakeups from softirq context"), 1);
	} else {
		CHECK(op_of(wl, k, 1)->kind != WL_OP_WAKE);
		CHECK_EQ(ext, 2);
		CHECK_EQ(note_value(wl, "softirqs that ksoftirqd ran"), 0);
		CHECK_EQ(note_value(wl, "wakeups from softirq context"), 2);
	}
	wl_free(wl);
}

/*
 * A trace without sched_waking: reader 20 on CPU 0 wakes 21 (CPU 1) in its
 * own context at 2 ms; 21 blocks again and CPU 1 idles; at 3 ms a
 * sched_wakeup of 21 on CPU 1 in hardirq context on the idle task (the wake
 * list's IPI): with wakelist_ops a WAKE op of 20 (CPU 0's current, a known
 * waker of 21) at 2 ms of its run, without it an external wake.  At 5 ms
 * the same wakeup of 22, whom 20 never woke, stays external either way; at
 * 7 ms one of 21 with CPU 0 idle too.
 */
static void test_wakelist_wakes(bool ops)
{
	struct wl_options o = { .wakelist_ops = ops };
	struct wl_workload *wl;
	uint32_t r, t21, t22, ext21, ext22;

	start_opts(&o);
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 20, 120));
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 21, 120));
	feed(ev_switch(1 * MS + 10 * US, 1, 21, 'S', 120, 22, 120));
	feed(ev_switch(1 * MS + 20 * US, 1, 22, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS, 0, 20, 0, 21, 120, 1));
	feed(ev_switch(2 * MS + 5 * US, 1, 0, 'R', 120, 21, 120));
	feed(ev_switch(2 * MS + 50 * US, 1, 21, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS, 1, 0, HARDIRQ, 21, 120, 1));
	feed(ev_switch(3 * MS + 5 * US, 1, 0, 'R', 120, 21, 120));
	feed(ev_switch(3 * MS + 50 * US, 1, 21, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * MS, 1, 0, HARDIRQ, 22, 120, 1));
	feed(ev_switch(5 * MS + 5 * US, 1, 0, 'R', 120, 22, 120));
	feed(ev_switch(5 * MS + 50 * US, 1, 22, 'S', 120, 0, 120));
	feed(ev_switch(6 * MS, 0, 20, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 7 * MS, 1, 0, HARDIRQ, 21, 120, 1));
	feed(ev_switch(7 * MS + 5 * US, 1, 0, 'R', 120, 21, 120));
	feed(ev_switch(7 * MS + 50 * US, 1, 21, 'S', 120, 0, 120));
	wl = finish();

	r = task_of(wl, 20, 0);
	t21 = task_of(wl, 21, 0);
	t22 = task_of(wl, 22, 0);
	CHECK(r != WL_NONE && t21 != WL_NONE && t22 != WL_NONE);
	ext21 = ext_wakes(wl, t21);
	ext22 = ext_wakes(wl, t22);
	/* RUN 1 ms, WAKE 21 (task context), then RUN 1 ms and WAKE 21 (option) */
	CHECK_EQ(op_of(wl, r, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, r, 0)->value, 1 * MS);
	CHECK_EQ(op_of(wl, r, 1)->kind, WL_OP_WAKE);
	CHECK_EQ(op_of(wl, r, 2)->kind, WL_OP_RUN);
	CHECK_EQ(ext22, 1);
	if (ops) {
		CHECK_EQ(op_of(wl, r, 2)->value, 1 * MS);
		CHECK_EQ(op_of(wl, r, 3)->kind, WL_OP_WAKE);
		if (op_of(wl, r, 3)->kind == WL_OP_WAKE) {
			const struct wl_wake *w = wl_wake(wl, op_of(wl, r, 3)->arg);

			CHECK_EQ(w->target, t21);
			CHECK_EQ(w->waker, r);
			CHECK_EQ(w->waker_cpu, 0);
			CHECK_EQ(w->cpu, 1);
		}
		CHECK_EQ(ext21, 1);
		CHECK_EQ(note_value(wl, "wake-list wakeups without sched_waking"), 1);
	} else {
		CHECK(op_of(wl, r, 3)->kind != WL_OP_WAKE);
		CHECK_EQ(ext21, 2);
		CHECK_EQ(note_value(wl, "wake-list wakeups without sched_waking"), 0);
	}
	wl_free(wl);
}

/*
 * Waking while running: the waker's waking reaches 21 while it is still on
 * CPU 1 going to sleep; the wakeup follows its switch-out.  And a spurious
 * wake (p == current path) of a task that keeps running.
 */
static void test_race_and_spurious(void)
{
	struct wl_workload *wl;
	uint32_t w20, t21, t22;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 20, 120));
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 21, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 20, 0, 21, 120, 1));  /* 21 on CPU */
	feed(ev_switch(2 * MS + 100, 1, 21, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 200, 1, 0, HARDIRQ, 21, 120, 1));
	feed(ev_switch(2 * MS + 300, 1, 0, 'R', 120, 21, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS, 0, 20, 0, 21, 120, 1));  /* spurious */
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS, 0, 20, 0, 21, 120, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 4 * MS, 0, 20, SOFTIRQ, 22, 120, 0)); /* softirq */
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 4 * MS, 0, 20, SOFTIRQ, 22, 120, 0));
	wl = finish();
	w20 = task_of(wl, 20, 0);
	t21 = task_of(wl, 21, 0);
	t22 = task_of(wl, 22, 0);
	/* 20: RUN 1 ms, WAKE (race), RUN 1 ms, WAKE (spurious), RUN 1 ms to the end */
	CHECK_EQ(wl_task(wl, w20)->nr_ops, 5);
	CHECK_EQ(op_of(wl, w20, 1)->kind, WL_OP_WAKE);
	CHECK_EQ(op_of(wl, w20, 3)->kind, WL_OP_WAKE);
	{
		const struct wl_wake *race = wl_wake(wl, op_of(wl, w20, 1)->arg);
		const struct wl_wake *sp = wl_wake(wl, op_of(wl, w20, 3)->arg);

		CHECK_EQ(race->flags, WL_WAKE_ENDS_BLOCK | WL_WAKE_ON_CPU);
		CHECK_EQ(race->path, WL_PATH_NONE);           /* no latency sample */
		CHECK_EQ(op_of(wl, t21, 1)->arg, op_of(wl, w20, 1)->arg);
		CHECK_EQ(sp->flags, WL_WAKE_SPURIOUS | WL_WAKE_ON_CPU);
		CHECK_EQ(sp->seq, 1);
	}
	CHECK_EQ(wl_task(wl, t22)->init_state, WL_INIT_SLEEPING);
	CHECK_EQ(wl_wake(wl, wl_task(wl, t22)->init_wake)->src, WL_SRC_SOFTIRQ);
	wl_free(wl);
}

/* fork, exec, exit, pid reuse, wakeup_new placement and an RT interval. */
static void test_lifecycle(void)
{
	struct wl_workload *wl;
	uint32_t p, c1, c2, rt;
	unsigned int in = 0, out = 0;
	struct trace_event e;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 30, 120));
	feed(ev_fork(2 * MS, 0, 30, 31));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, 2 * MS + 10, 0, 30, 0, 31, 120, 1));
	feed(ev_switch(2 * MS + 5000, 1, 0, 'R', 120, 31, 120));
	feed(ev_exec(3 * MS, 1, 31, "/usr/bin/some-long-program-name"));
	e = ev_switch(4 * MS, 1, 31, 'X', 120, 0, 120);
	snprintf(e.u.sched_switch.prev_comm, TRACE_COMM_LEN, "some-long-progr");
	feed(e);
	feed(ev_switch(5 * MS, 0, 30, 'R', 120, 40, 49));     /* RT task 40 steals CPU 0 */
	feed(ev_switch(6 * MS, 0, 40, 'S', 49, 30, 120));
	feed(ev_fork(7 * MS, 0, 30, 31));                     /* pid 31 reused */
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, 7 * MS, 0, 30, 0, 31, 120, 0));
	wl = finish();
	p = task_of(wl, 30, 0);
	c1 = task_of(wl, 31, 0);
	c2 = task_of(wl, 31, 1);
	rt = task_of(wl, 40, 0);
	CHECK(c1 != WL_NONE && c2 != WL_NONE && c1 != c2);
	CHECK_EQ(wl_task(wl, c1)->init_state, WL_INIT_NEW);
	CHECK_EQ(wl_task(wl, c1)->init_cpu, 1);
	CHECK_EQ(wl_task(wl, c1)->parent, p);
	CHECK_EQ(wl_wake(wl, wl_task(wl, c1)->init_wake)->latency, 5000 - 10);
	CHECK_EQ(wl_wake(wl, wl_task(wl, c1)->init_wake)->path, WL_PATH_IDLE);
	CHECK_EQ(wl_task(wl, c2)->init_cpu, 0);
	/*
	 * 30: RUN 1 ms + 10 ns (to c1's sched_wakeup_new: the FORK stands
	 * there), FORK c1, RUN 3 ms - 10 ns (..5), [RT 5..6], RUN 1 ms (6..7),
	 * FORK c2, RUN 0
	 */
	CHECK_EQ(op_of(wl, p, 0)->value, 1 * MS + 10);
	CHECK_EQ(op_of(wl, p, 1)->kind, WL_OP_FORK);
	CHECK_EQ(op_of(wl, p, 1)->arg, c1);
	CHECK_EQ(op_of(wl, p, 2)->value, 4 * MS - 10);
	CHECK_EQ(op_of(wl, p, 3)->kind, WL_OP_FORK);
	CHECK_EQ(op_of(wl, p, 3)->arg, c2);
	/* c1: RUN 0.995 ms, COMM, RUN 1 ms, EXIT */
	CHECK_EQ(wl_task(wl, c1)->nr_ops, 4);
	CHECK_EQ(op_of(wl, c1, 1)->kind, WL_OP_COMM);
	CHECK(!strcmp(wl_string(wl, op_of(wl, c1, 1)->arg), "some-long-progr"));
	CHECK_EQ(op_of(wl, c1, 3)->kind, WL_OP_EXIT);
	CHECK_EQ(wl_task(wl, rt)->cls, WL_CLASS_RT);
	CHECK_EQ(wl_task(wl, rt)->nr_ops, 0);
	for (uint32_t i = 0; i < wl_nr_timed(wl); i++) {
		const struct wl_timed *te = wl_timed_at(wl, i);

		if (te->kind == WL_T_OTHER_IN && te->task == rt && te->ts == 5 * MS && te->cpu == 0)
			in++;
		if (te->kind == WL_T_OTHER_OUT && te->task == rt && te->ts == 6 * MS && te->aux == 1)
			out++;
	}
	CHECK_EQ(in, 1);
	CHECK_EQ(out, 1);
	wl_free(wl);
}

/*
 * A pid reused before the old task's last switch: the kernel frees it at
 * exit_notify(), before do_task_dead(), so a fork on another CPU may take
 * it first.  50 runs on CPU 0 from 1 ms, exits at 3 ms (its EXIT_MOVE at
 * 3.06 ms), 60 forks a new 50 on CPU 1 at 4 ms, the old 50 is charged and
 * switches out dead at 4.02 and 4.03 ms, and the new one runs 5..6 ms on
 * CPU 1.  The old task's work and its EXIT are its own; the new one is one
 * task, forked by 60, with its one run and block, and the measured side
 * agrees (its sched_wakeup_new sample, the old task's run time).  @early:
 * the new one is switched in on CPU 1 at 4.012 ms instead, before the old
 * task's last events, and runs to 6 ms.
 */
static void pid_reuse_in_exit(bool early)
{
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t p, o, n;
	const struct lat_machine *m;
	const struct lat_task *lo = NULL, *ln = NULL;
	uint64_t in = early ? 4 * MS + 12 * US : 5 * MS;

	start();
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 60, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	e = ev_base(TRACE_EV_SCHED_PROCESS_EXIT, 3 * MS, 0, 50);
	e.u.exit.pid = 50;
	feed(e);
	feed(ev_runtime(3 * MS + 60 * US, 0, 50, 2 * MS));       /* the EXIT_MOVE */
	feed(ev_fork(4 * MS, 1, 60, 50));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, 4 * MS + 10, 1, 60, 0, 50, 120, 1));
	if (early)
		feed(ev_switch(in, 1, 60, 'S', 120, 50, 120));
	feed(ev_runtime(4 * MS + 20 * US, 0, 50, 900 * US));      /* the old task's */
	feed(ev_switch(4 * MS + 30 * US, 0, 50, 'X', 120, 0, 120));
	if (!early)
		feed(ev_switch(in, 1, 60, 'S', 120, 50, 120));
	feed(ev_switch(6 * MS, 1, 50, 'S', 120, 0, 120));
	wl = finish();
	p = task_of(wl, 60, 0);
	o = task_of(wl, 50, 0);
	n = task_of(wl, 50, 1);
	CHECK(p != WL_NONE && o != WL_NONE && n != WL_NONE);
	CHECK_EQ(task_of(wl, 50, 2), WL_NONE);
	/* old: RUN 2.06 ms, EXIT_MOVE, RUN 0.97 ms, EXIT */
	CHECK_EQ(wl_task(wl, o)->nr_ops, 4);
	CHECK_EQ(op_of(wl, o, 0)->value, 2 * MS + 60 * US);
	CHECK_EQ(op_of(wl, o, 1)->kind, WL_OP_EXIT_MOVE);
	CHECK_EQ(op_of(wl, o, 2)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, o, 2)->value, 970 * US);
	CHECK_EQ(op_of(wl, o, 3)->kind, WL_OP_EXIT);
	/* new: forked by 60, woken new 4 ms + 10 ns, RUN 1 ms, BLOCK */
	CHECK_EQ(wl_task(wl, n)->init_state, WL_INIT_NEW);
	CHECK_EQ(wl_task(wl, n)->parent, p);
	CHECK(wl_task(wl, n)->init_wake != WL_NONE);
	if (wl_task(wl, n)->init_wake != WL_NONE)
		CHECK_EQ(wl_wake(wl, wl_task(wl, n)->init_wake)->latency, in - 4 * MS - 10);
	CHECK_EQ(wl_task(wl, n)->nr_ops, 2);
	CHECK_EQ(op_of(wl, n, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, n, 0)->value, 6 * MS - in);
	CHECK_EQ(op_of(wl, n, 1)->kind, WL_OP_BLOCK);
	CHECK_EQ(note_value(wl, "pids reused"), 0); /* its exit was recorded */
	m = wl_measured_latency(wl);
	for (size_t i = 0; i < lat_nr_tasks(m); i++)
		if (lat_task_at(m, i)->pid == 50) {
			if (!lo)
				lo = lat_task_at(m, i);
			else if (!ln)
				ln = lat_task_at(m, i);
			else
				CHECK(!"a third measured task of pid 50");
		}
	CHECK(lo && ln);
	if (lo && ln) {
		CHECK_EQ(lo->runtime_ns, 3 * MS + 30 * US);
		CHECK_EQ(ln->lat[LAT_WAKEUP].count, 1);
		CHECK_EQ(ln->runtime_ns, 6 * MS - in);
	}
	wl_free(wl);
}

/*
 * An exiting task preempted after its sched_process_exit (its first charge
 * there is the preemption's, at a cond_resched() of task_work_run()) and
 * run again: its EXIT_MOVE is the charge of its last run (sched_move_task(),
 * no preemption point from there to do_task_dead()), not the first one.
 * 50 runs 1-3.02 ms (exit at 3 ms, charge 3.01 ms, R), 60 runs to 4 ms,
 * 50 again 4-4.06 ms (charge 4.05 ms, X).
 */
static void test_exit_move_last_run(void)
{
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t o;

	start();
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 60, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	feed(ev_switch(2 * MS, 1, 60, 'S', 120, 0, 120));
	e = ev_base(TRACE_EV_SCHED_PROCESS_EXIT, 3 * MS, 0, 50);
	e.u.exit.pid = 50;
	feed(e);
	feed(ev_runtime(3 * MS + 10 * US, 0, 50, 2 * MS));        /* not the move's */
	feed(ev_switch(3 * MS + 20 * US, 0, 50, 'R', 120, 60, 120));
	feed(ev_switch(4 * MS, 0, 60, 'S', 120, 50, 120));
	feed(ev_runtime(4 * MS + 50 * US, 0, 50, 60 * US));       /* the EXIT_MOVE */
	feed(ev_switch(4 * MS + 60 * US, 0, 50, 'X', 120, 0, 120));
	wl = finish();
	o = task_of(wl, 50, 0);
	CHECK(o != WL_NONE);
	/* RUN 2.02 + 0.05 ms, EXIT_MOVE, RUN 10 us, EXIT */
	CHECK_EQ(wl_task(wl, o)->nr_ops, 4);
	CHECK_EQ(op_of(wl, o, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, o, 0)->value, 2 * MS + 70 * US);
	CHECK_EQ(op_of(wl, o, 1)->kind, WL_OP_EXIT_MOVE);
	CHECK_EQ(op_of(wl, o, 2)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, o, 2)->value, 10 * US);
	CHECK_EQ(op_of(wl, o, 3)->kind, WL_OP_EXIT);
	CHECK_EQ(note_value(wl, "their exit's autogroup move"), 1);
	wl_free(wl);
}

/*
 * The same, the exiting task asleep in its exit between the two charges
 * (switched out "S", woken by 60): the move is still its last run's.
 */
static void test_exit_move_last_run_sleep(void)
{
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t o, n;

	start();
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 60, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	feed(ev_switch(2 * MS, 1, 60, 'S', 120, 0, 120));
	e = ev_base(TRACE_EV_SCHED_PROCESS_EXIT, 3 * MS, 0, 50);
	e.u.exit.pid = 50;
	feed(e);
	feed(ev_runtime(3 * MS + 10 * US, 0, 50, 2 * MS));        /* not the move's */
	feed(ev_switch(3 * MS + 20 * US, 0, 50, 'S', 120, 60, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS + 500 * US, 0, 60, 0, 50, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 501 * US, 0, 60, 0, 50, 120, 0));
	feed(ev_switch(4 * MS, 0, 60, 'S', 120, 50, 120));
	feed(ev_runtime(4 * MS + 50 * US, 0, 50, 60 * US));       /* the EXIT_MOVE */
	feed(ev_switch(4 * MS + 60 * US, 0, 50, 'X', 120, 0, 120));
	wl = finish();
	o = task_of(wl, 50, 0);
	CHECK(o != WL_NONE);
	if (o == WL_NONE) {
		wl_free(wl);
		return;
	}
	/* ..., BLOCK, RUN 50 us, EXIT_MOVE, RUN 10 us, EXIT */
	n = wl_task(wl, o)->nr_ops;
	CHECK(n >= 5);
	if (n >= 5) {
		CHECK_EQ(op_of(wl, o, n - 5)->kind, WL_OP_BLOCK);
		CHECK_EQ(op_of(wl, o, n - 4)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, o, n - 4)->value, 50 * US);
		CHECK_EQ(op_of(wl, o, n - 3)->kind, WL_OP_EXIT_MOVE);
		CHECK_EQ(op_of(wl, o, n - 2)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, o, n - 1)->kind, WL_OP_EXIT);
	}
	for (uint32_t i = 0; i + 3 < n; i++)
		CHECK(op_of(wl, o, i)->kind != WL_OP_EXIT_MOVE);
	CHECK_EQ(note_value(wl, "their exit's autogroup move"), 1);
	wl_free(wl);
}

static void test_pid_reuse_in_exit(void)
{
	pid_reuse_in_exit(false);
	pid_reuse_in_exit(true);
}

/*
 * An untraced switch still open (LAT_LOST_OTHER, blocked or preempted not
 * decided) when its pid is reused, the old task's exit and last switch not
 * traced (the guest agent's tokio-rt-worker threads).  500 runs on CPU 0
 * from 1 ms (last event 1.2 ms), 7 acts there at 2 ms; 1 forks a new 500
 * on CPU 1 at 3 ms, which runs from 4 ms (last event 4.2 ms) until 8 acts
 * there at 5 ms; 7 switches the new 500 in on CPU 0 at 6 ms, and it blocks
 * at 7 ms.  The new task's open switch is its own: it left CPU 1 blocked
 * at 4.2 ms (switched in on another CPU), not preempted at 5 ms; the old
 * task's is closed at the fork and changes nothing of the new one.
 */
static void test_pid_reuse_open_switch(void)
{
	struct wl_workload *wl;
	uint32_t n;
	const struct lat_machine *m;
	const struct lat_task *ln = NULL;

	start();
	feed(ev_switch(500 * US, 1, 0, 'R', 120, 1, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 500, 120));
	feed(ev_runtime(1 * MS + 200 * US, 0, 500, 200 * US));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 7, 0, 99, 120, 0));
	feed(ev_fork(3 * MS, 1, 1, 500));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, 3 * MS + 10, 1, 1, 0, 500, 120, 1));
	feed(ev_switch(4 * MS, 1, 1, 'S', 120, 500, 120));
	feed(ev_runtime(4 * MS + 200 * US, 1, 500, 200 * US));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 5 * MS, 1, 8, 0, 98, 120, 1));
	feed(ev_switch(6 * MS, 0, 7, 'S', 120, 500, 120));
	feed(ev_switch(7 * MS, 0, 500, 'S', 120, 0, 120));
	wl = finish();
	n = task_of(wl, 500, 1);
	CHECK(n != WL_NONE);
	CHECK_EQ(task_of(wl, 500, 2), WL_NONE);
	/* new: RUN 0.2 ms, BLOCK (4.2 ms), RUN 1 ms, BLOCK */
	CHECK_EQ(wl_task(wl, n)->nr_ops, 4);
	CHECK_EQ(op_of(wl, n, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, n, 0)->value, 200 * US);
	CHECK_EQ(op_of(wl, n, 1)->kind, WL_OP_BLOCK);
	CHECK_EQ(op_of(wl, n, 2)->value, 1 * MS);
	CHECK_EQ(op_of(wl, n, 3)->kind, WL_OP_BLOCK);
	m = wl_measured_latency(wl);
	for (size_t i = 0; i < lat_nr_tasks(m); i++)
		if (lat_task_at(m, i)->pid == 500)
			ln = lat_task_at(m, i);
	CHECK(ln != NULL);
	if (ln) {
		CHECK_EQ(ln->runtime_ns, 200 * US + 1 * MS);
		CHECK_EQ(ln->preemptions, 0);
		CHECK_EQ(ln->lat[LAT_RUNQ_WAIT].count, 0);
	}
	CHECK_EQ(lat_get_summary(m)->lost_switches[LAT_LOST_OTHER], 2);
	wl_free(wl);
}

/*
 * The old task preempted after its exit: 50 runs on CPU 0 from 1 ms, exits
 * at 3 ms (EXIT_MOVE at 3.06 ms), is preempted by 7 at @pre (3.5 ms, or
 * 4.5 ms after the fork), and 1 forks a new 50 on CPU 1 at 4 ms, which
 * runs there 5..7 ms.  The old task, queued on CPU 0, runs again at 6 ms
 * and switches out dead at 6.03 ms: its ops end RUN, EXIT, the new one's
 * are RUN 2 ms, BLOCK, and no third task 50 shows up.  @migrate: the old
 * task is moved to CPU 1 while queued (3.8 ms, before the fork, or 5.5 ms)
 * and runs there instead, preempting the new one.  The new task has its
 * parent's comm, which tells it from the old one queued on the same CPU.
 * Main gave the switch-in at 6 ms and the EXIT to the new task.
 */
/* the new task's comm: its parent's (fork copies it) */
static void new_comm(char *comm)
{
	snprintf(comm, TRACE_COMM_LEN, "task1");
}

static void reuse_preempted_old(bool early, bool migrate)
{
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t o, n;
	uint64_t pre = early ? 3 * MS + 500 * US : 4 * MS + 500 * US;
	int back = migrate ? 1 : 0;

	start();
	feed(ev_switch(500 * US, 1, 0, 'R', 120, 1, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	e = ev_base(TRACE_EV_SCHED_PROCESS_EXIT, 3 * MS, 0, 50);
	e.u.exit.pid = 50;
	feed(e);
	feed(ev_runtime(3 * MS + 60 * US, 0, 50, 2 * MS));       /* not the EXIT_MOVE */
	if (early)
		feed(ev_switch(pre, 0, 50, 'R', 120, 7, 120));
	if (early && migrate) {
		e = ev_migrate(3 * MS + 800 * US, 1, 50, 0, 1);
		e.common_pid = 1;                       /* (1's context) */
		feed(e);
	}
	e = ev_fork(4 * MS, 1, 1, 50);
	new_comm(e.u.fork.child_comm);
	feed(e);
	e = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, 4 * MS + 10, 1, 1, 0, 50, 120, 1);
	new_comm(e.u.wakeup.comm);
	feed(e);
	if (!early)
		feed(ev_switch(pre, 0, 50, 'R', 120, 7, 120));
	e = ev_switch(5 * MS, 1, 1, 'S', 120, 50, 120);
	new_comm(e.u.sched_switch.next_comm);
	feed(e);
	if (migrate && !early) {
		e = ev_migrate(5 * MS + 500 * US, 1, 50, 0, 1);
		e.common_pid = 50;                      /* (the new one's context) */
		feed(e);
	}
	if (migrate) {
		e = ev_switch(6 * MS, 1, 50, 'R', 120, 50, 120);  /* the new one preempted */
		new_comm(e.u.sched_switch.prev_comm);
		feed(e);
	} else {
		feed(ev_switch(6 * MS, 0, 7, 'S', 120, 50, 120));
	}
	e = ev_switch(6 * MS + 30 * US, back, 50, 'X', 120, migrate ? 50 : 0, 120);
	if (migrate)
		new_comm(e.u.sched_switch.next_comm);
	feed(e);
	e = ev_switch(7 * MS, 1, 50, 'S', 120, 0, 120);
	new_comm(e.u.sched_switch.prev_comm);
	feed(e);
	wl = finish();
	o = task_of(wl, 50, 0);
	n = task_of(wl, 50, 1);
	CHECK(o != WL_NONE && n != WL_NONE);
	CHECK_EQ(task_of(wl, 50, 2), WL_NONE);
	/*
	 * old: RUN to @pre and 0.03 ms, EXIT_MOVE, EXIT: its charge at 3.06 ms
	 * was not sched_move_task()'s (preempted after it), its last run has
	 * none (retract_exit_move())
	 */
	CHECK_EQ(wl_task(wl, o)->nr_ops, 3);
	CHECK_EQ(op_of(wl, o, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, o, 0)->value, pre - 1 * MS + 30 * US);
	CHECK_EQ(op_of(wl, o, 1)->kind, WL_OP_EXIT_MOVE);
	CHECK_EQ(op_of(wl, o, 2)->kind, WL_OP_EXIT);
	/* new: forked by 1, RUN 2 ms (0.03 ms less when preempted), BLOCK */
	CHECK_EQ(wl_task(wl, n)->init_state, WL_INIT_NEW);
	CHECK_EQ(wl_task(wl, n)->nr_ops, 2);
	CHECK_EQ(op_of(wl, n, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, n, 0)->value, migrate ? 2 * MS - 30 * US : 2 * MS);
	CHECK_EQ(op_of(wl, n, 1)->kind, WL_OP_BLOCK);
	wl_free(wl);
}

/*
 * Not preempted but lost: 50 exits at 3 ms on CPU 0, whose events are lost
 * from 3.5 ms (its last switch in the gap; the builder takes it as queued
 * there), and a fork takes pid 50 at 4 ms.  The old task is not one that
 * runs again: the pid's reuse is counted (its exit not recorded), as the
 * measured side has it (dead at the fork).
 */
static void test_reuse_lost_old(void)
{
	struct sr_error err = { 0 };
	struct wl_workload *wl;
	struct trace_event e;

	start();
	feed(ev_switch(500 * US, 1, 0, 'R', 120, 1, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	e = ev_base(TRACE_EV_SCHED_PROCESS_EXIT, 3 * MS, 0, 50);
	e.u.exit.pid = 50;
	feed(e);
	e = ev_switch(3 * MS + 500 * US, 0, 0, 'S', 120, 7, 120);
	CHECK_EQ(wl_builder_event(B, &e, 10, &err), 0);
	feed(ev_fork(4 * MS, 1, 1, 50));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, 4 * MS + 10, 1, 1, 0, 50, 120, 1));
	feed(ev_switch(5 * MS, 1, 1, 'S', 120, 50, 120));
	wl = finish();
	CHECK_EQ(note_value(wl, "pids reused"), 1);
	CHECK(task_of(wl, 50, 1) != WL_NONE);
	wl_free(wl);
}

static void test_reuse_preempted_old(void)
{
	reuse_preempted_old(false, false);
	reuse_preempted_old(true, false);
	reuse_preempted_old(true, true);
	reuse_preempted_old(false, true);
}

/* Migrations of queued tasks are timed; wakeup migrations are not. */
/*
 * Multithreaded exec (de_thread()): thread 51 of leader 50 execs and takes
 * pid 50 (exchange_tids()).  @running: the leader, exited (a zombie), still
 * runs on CPU 1 when the thread takes its pid, and its last switch names
 * the thread's old tid 51 (as a capture of this machine shows); else its
 * last switch came before.  The thread's events name 50 from the exchange
 * (5 ms), the exec at 6 ms says pid 50 old_pid 51.  One thread task: RUN
 * from 2 ms, COMM, RUN, BLOCK at 7 ms; the leader RUN and EXIT; no third
 * task.  Main made the exec another task's event (a third task 50) and,
 * with @running, the leader's last switch the thread's EXIT.
 */
static void multithreaded_exec(bool running)
{
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t l, t;
	uint64_t leader_out = running ? 5 * MS + 500 * US : 3 * MS + 500 * US;

	start();
	feed(ev_switch(1 * MS, 1, 0, 'S', 120, 50, 120));
	feed(ev_switch(2 * MS, 0, 0, 'S', 120, 51, 120));
	e = ev_base(TRACE_EV_SCHED_PROCESS_EXIT, 3 * MS, 1, 50);
	e.u.exit.pid = 50;
	feed(e);
	if (!running)
		feed(ev_switch(leader_out, 1, 50, 'X', 120, 0, 120));
	feed(ev_runtime(4 * MS, 0, 51, 2 * MS));
	e = ev_runtime(5 * MS + 200 * US, 0, 50, 1200 * US);      /* the thread, as 50 */
	snprintf(e.u.stat_runtime.comm, TRACE_COMM_LEN, "task51");
	feed(e);
	if (running) {
		e = ev_switch(leader_out, 1, 51, 'X', 120, 0, 120);  /* the leader, as 51 */
		snprintf(e.u.sched_switch.prev_comm, TRACE_COMM_LEN, "task50");
		feed(e);
	}
	e = ev_exec(6 * MS, 0, 50, "/bin/true");
	e.u.exec.old_pid = 51;
	feed(e);
	e = ev_switch(7 * MS, 0, 50, 'S', 120, 0, 120);
	snprintf(e.u.sched_switch.prev_comm, TRACE_COMM_LEN, "true");
	feed(e);
	wl = finish();
	l = task_of(wl, running ? 51 : 50, 0);
	t = task_of(wl, 50, running ? 0 : 1);
	CHECK(l != WL_NONE && t != WL_NONE && l != t);
	CHECK_EQ(wl_nr_tasks(wl), 2);
	if (l == WL_NONE || t == WL_NONE || l == t) {
		wl_free(wl);
		return;
	}
	CHECK_EQ(wl_task(wl, l)->first_ts, 1 * MS);
	CHECK_EQ(wl_task(wl, t)->first_ts, 2 * MS);
	/* the leader: RUN to its last switch, EXIT_MOVE (sched_process_exit), EXIT */
	CHECK_EQ(op_of(wl, l, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, l, wl_task(wl, l)->nr_ops - 1)->kind, WL_OP_EXIT);
	/* the thread: RUN 2 ms .. 6 ms, COMM true, RUN to 7 ms, BLOCK */
	CHECK_EQ(wl_task(wl, t)->nr_ops, 4);
	CHECK_EQ(op_of(wl, t, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, t, 0)->value, 4 * MS);
	CHECK_EQ(op_of(wl, t, 1)->kind, WL_OP_COMM);
	CHECK_EQ(op_of(wl, t, 2)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, t, 2)->value, 1 * MS);
	CHECK_EQ(op_of(wl, t, 3)->kind, WL_OP_BLOCK);
	CHECK_EQ(lat_get_summary(wl_measured_latency(wl))->lost_switches[LAT_LOST_OTHER], 0);
	wl_free(wl);
}

static void test_multithreaded_exec(void)
{
	multithreaded_exec(false);
	multithreaded_exec(true);
}

/*
 * The same exec with the leader, past its sched_process_exit (3 ms), on no
 * CPU when the thread takes its pid at 6 ms.  @queued: it was preempted
 * after its exit (R at 3.5 ms, 7 in): still queued, it runs again under
 * the thread's old tid 51 (6.5 ms) and its last switch, X at 6.6 ms, names
 * 51.  Else the events of CPU 1 were lost from 3.5 ms (its last switch in
 * the gap): de_thread() released it, it is dead.  Its exit is real either
 * way: the leader's ops end RUN, EXIT_MOVE, EXIT (the sched_process_exit
 * had no sched_stat_runtime after it), and no third task 51 shows up.
 * Main marked it dead at the exchange with no EXIT (the simulation then
 * put it to sleep instead), and with @queued made its last run a task 51
 * of its own.
 */
static void exec_leader_off_cpu(bool queued)
{
	struct sr_error err = { 0 };
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t l, t;

	start();
	feed(ev_switch(1 * MS, 1, 0, 'S', 120, 50, 120));
	feed(ev_switch(2 * MS, 0, 0, 'S', 120, 51, 120));
	e = ev_base(TRACE_EV_SCHED_PROCESS_EXIT, 3 * MS, 1, 50);
	e.u.exit.pid = 50;
	feed(e);
	if (queued) {
		feed(ev_switch(3 * MS + 500 * US, 1, 50, 'R', 120, 7, 120));
	} else {
		e = ev_switch(3 * MS + 500 * US, 1, 0, 'S', 120, 7, 120);
		CHECK_EQ(wl_builder_event(B, &e, 10, &err), 0);
	}
	feed(ev_runtime(4 * MS, 0, 51, 2 * MS));
	e = ev_exec(6 * MS, 0, 50, "/bin/true");
	e.u.exec.old_pid = 51;
	feed(e);
	if (queued) {
		e = ev_switch(6 * MS + 500 * US, 1, 7, 'S', 120, 51, 120);
		snprintf(e.u.sched_switch.next_comm, TRACE_COMM_LEN, "task50");
		feed(e);
		e = ev_switch(6 * MS + 600 * US, 1, 51, 'X', 120, 0, 120);
		snprintf(e.u.sched_switch.prev_comm, TRACE_COMM_LEN, "task50");
		feed(e);
	}
	e = ev_switch(7 * MS, 0, 50, 'S', 120, 0, 120);
	snprintf(e.u.sched_switch.prev_comm, TRACE_COMM_LEN, "true");
	feed(e);
	wl = finish();
	l = task_of(wl, queued ? 51 : 50, 0);
	t = task_of(wl, 50, queued ? 0 : 1);
	CHECK(l != WL_NONE && t != WL_NONE && l != t);
	CHECK_EQ(wl_nr_tasks(wl), 3);           /* the leader, the thread, 7 */
	CHECK_EQ(task_of(wl, 51, 1), WL_NONE);
	if (l == WL_NONE || t == WL_NONE || l == t) {
		wl_free(wl);
		return;
	}
	CHECK_EQ(wl_task(wl, l)->first_ts, 1 * MS);
	/* the leader: RUN 1 .. 3.5 ms (and 6.5 .. 6.6 ms), EXIT_MOVE, EXIT */
	CHECK_EQ(wl_task(wl, l)->nr_ops, 3);
	CHECK_EQ(op_of(wl, l, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, l, 0)->value, queued ? 2600 * US : 2500 * US);
	CHECK_EQ(op_of(wl, l, 1)->kind, WL_OP_EXIT_MOVE);
	CHECK_EQ(op_of(wl, l, 2)->kind, WL_OP_EXIT);
	/* the thread: RUN 2 .. 6 ms, COMM true, RUN to 7 ms, BLOCK */
	CHECK_EQ(wl_task(wl, t)->nr_ops, 4);
	CHECK_EQ(op_of(wl, t, 0)->value, 4 * MS);
	CHECK_EQ(op_of(wl, t, 1)->kind, WL_OP_COMM);
	CHECK_EQ(op_of(wl, t, 2)->value, 1 * MS);
	CHECK_EQ(op_of(wl, t, 3)->kind, WL_OP_BLOCK);
	wl_free(wl);
}

static void test_exec_leader_off_cpu(void)
{
	exec_leader_off_cpu(false);
	exec_leader_off_cpu(true);
}

static void test_migrate(void)
{
	struct wl_workload *wl;
	unsigned int n = 0;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	feed(ev_switch(2 * MS, 0, 50, 'R', 120, 51, 120));          /* 50 queued */
	feed(ev_migrate(3 * MS, 1, 50, 0, 1));                      /* load balance */
	feed(ev_switch(3 * MS, 1, 0, 'R', 120, 50, 120));
	feed(ev_switch(4 * MS, 1, 50, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 5 * MS, 0, 51, 0, 50, 120, 1));
	feed(ev_migrate(5 * MS, 0, 50, 1, 0));                      /* wakeup migration */
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * MS, 0, 51, 0, 50, 120, 0));
	wl = finish();
	for (uint32_t i = 0; i < wl_nr_timed(wl); i++)
		if (wl_timed_at(wl, i)->kind == WL_T_MIGRATE) {
			n++;
			CHECK_EQ(wl_timed_at(wl, i)->cpu, 1);
			CHECK_EQ(wl_timed_at(wl, i)->aux, 0);
		}
	CHECK_EQ(n, 1);
	CHECK_EQ(wl_wake(wl, wl_nr_wakes(wl) - 1)->cpu, 0);
	wl_free(wl);
}

/*
 * Traced load-balance passes (WL_T_PASS_*, docs/replay.md "Balance passes"):
 * consecutive migrations of queued tasks between one pair of CPUs written on
 * one CPU, a sched_stat_runtime between them allowed (the source's
 * update_curr() in a dequeue), are one pass; another event of that CPU, a
 * gap over 100 us, or another pair of CPUs ends it.
 */
static void test_balance_pass(void)
{
	struct wl_workload *wl;
	uint32_t arg[100] = { 0 };
	bool seen[100] = { false };
	uint64_t p = 2 * MS;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 49, 120));
	feed(ev_switch(1 * MS + 10 * US, 1, 49, 'S', 120, 0, 120));
	feed(ev_migrate(p, 1, 51, 0, 1));
	feed(ev_runtime(p + 1 * US, 1, 50, 900 * US));
	feed(ev_migrate(p + 2 * US, 1, 52, 0, 1));
	feed(ev_migrate(p + 3 * US, 1, 53, 0, 1));            /* 51, 52, 53: one pass */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, p + 4 * US, 1, 0, 0x08, 49, 120, 1));
	feed(ev_migrate(p + 5 * US, 1, 54, 0, 1));            /* the waking ended it */
	feed(ev_migrate(p + 200 * US, 1, 55, 0, 1));          /* 195 us later */
	feed(ev_migrate(p + 201 * US, 1, 56, 0, 1));          /* 55, 56 */
	feed(ev_migrate(p + 202 * US, 1, 57, 2, 1));          /* from CPU 2 */
	feed(ev_migrate(p + 203 * US, 0, 58, 0, 1));          /* written on CPU 0 */
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, p + 204 * US, 1, 0, 0x08, 49, 120, 1));
	wl = finish();
	for (uint32_t i = 0; i < wl_nr_timed(wl); i++) {
		const struct wl_timed *e = wl_timed_at(wl, i);
		int pid = wl_task(wl, e->task)->pid;

		if (e->kind != WL_T_MIGRATE || pid < 0 || pid >= 100)
			continue;
		arg[pid] = e->arg;
		seen[pid] = true;
	}
	for (int pid = 51; pid <= 58; pid++)
		CHECK(seen[pid]);
	CHECK_EQ(arg[51], 1);
	CHECK_EQ(arg[52], 1);
	CHECK_EQ(arg[53], 1 | WL_T_PASS_LAST);
	CHECK_EQ(arg[54], 0);
	CHECK_EQ(arg[55], 2);
	CHECK_EQ(arg[56], 2 | WL_T_PASS_LAST);
	CHECK_EQ(arg[57], 0);
	CHECK_EQ(arg[58], 0);
	wl_free(wl);
}

/*
 * The bounds of a traced balance pass (pass_track()): detach_tasks() stops
 * after sched_nr_migrate_break (32) tasks and attaches them, then balances
 * again (LBF_NEED_BREAK), so 34 back-to-back migrations between one pair
 * are a pass of 32 and one of 2; a gap of exactly WL_PASS_GAP_NS (100 us)
 * still links two migrations, 1 ns more does not, and a gap of 50 us (well
 * within one balance interval) links; lost records before a migration end
 * the pass before it.
 */
static void test_balance_pass_bounds(void)
{
	struct wl_workload *wl;
	uint32_t arg[200] = { 0 };
	bool seen[200] = { false };
	uint64_t p = 2 * MS, q;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 49, 120));
	feed(ev_switch(1 * MS + 10 * US, 1, 49, 'S', 120, 0, 120));
	for (int k = 0; k < 34; k++)                          /* 100..131, 132..133 */
		feed(ev_migrate(p + (uint64_t)k * 100, 1, 100 + k, 0, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, p + 10 * US, 1, 0, 0x08, 49, 120, 1));
	q = p + 20 * US;
	feed(ev_migrate(q, 1, 140, 0, 1));
	feed(ev_migrate(q + 100 * US, 1, 141, 0, 1));          /* 140, 141: exactly the bound */
	feed(ev_migrate(q + 200 * US + 1, 1, 142, 0, 1));      /* 1 ns past it */
	feed(ev_migrate(q + 250 * US + 1, 1, 143, 0, 1));      /* 142, 143: 50 us */
	/*
	 * 144, 145, 146 1 us apart, but records of CPU 1 were lost before 145:
	 * what the gap held is unknown, so 145 starts a pass of its own.
	 */
	feed(ev_migrate(q + 400 * US, 1, 144, 0, 1));          /* 150 us after 143 */
	{
		struct sr_error err = { 0 };
		struct trace_event e = ev_migrate(q + 401 * US, 1, 145, 0, 1);

		CHECK_EQ(wl_builder_event(B, &e, 5, &err), 0);
	}
	feed(ev_migrate(q + 402 * US, 1, 146, 0, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, q + 500 * US, 1, 0, 0x08, 49, 120, 1));
	wl = finish();
	for (uint32_t i = 0; i < wl_nr_timed(wl); i++) {
		const struct wl_timed *e = wl_timed_at(wl, i);
		int pid = wl_task(wl, e->task)->pid;

		if (e->kind != WL_T_MIGRATE || pid < 0 || pid >= 200)
			continue;
		arg[pid] = e->arg;
		seen[pid] = true;
	}
	for (int pid = 100; pid <= 143; pid++)
		CHECK(seen[pid] || (pid >= 134 && pid < 140));
	for (int pid = 100; pid < 131; pid++)
		CHECK_EQ(arg[pid], 1);
	CHECK_EQ(arg[131], 1 | WL_T_PASS_LAST);
	CHECK_EQ(arg[132], 2);
	CHECK_EQ(arg[133], 2 | WL_T_PASS_LAST);
	CHECK_EQ(arg[140], 3);
	CHECK_EQ(arg[141], 3 | WL_T_PASS_LAST);
	CHECK_EQ(arg[142], 4);
	CHECK_EQ(arg[143], 4 | WL_T_PASS_LAST);
	CHECK(seen[144] && seen[145] && seen[146]);
	CHECK_EQ(arg[144], 0);
	CHECK_EQ(arg[145], 5);
	CHECK_EQ(arg[146], 5 | WL_T_PASS_LAST);
	wl_free(wl);
}

#define HZ_SP "spacings of a running task's sched_stat_runtime events"
#define HZ_LONE "lone sched_stat_runtime charges"

/*
 * HZ from the tick cadence of a CPU-bound task (the spacing of its
 * consecutive charges while it runs), and its phase.
 */
static void test_hz(void)
{
	struct wl_workload *wl;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 60, 120));
	for (int k = 1; k <= 50; k++) {
		feed(ev_runtime((uint64_t)k * 4 * MS + 123 * US, 0, 60, 4 * MS));
		if (k % 5 == 0)     /* not a tick: it splits 9 of the 49 tick spacings */
			feed(ev_runtime((uint64_t)k * 4 * MS + 1500 * US, 0, 60, 77 * US));
	}
	wl = finish();
	CHECK_EQ(wl_facts(wl)->hz, 250);
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_TRACE);
	/* the 1500 us charges are lone too: 50 of 60 on the grid */
	CHECK_STR(wl_facts(wl)->hz_how, "inferred: tick grid: 50 of 60 " HZ_LONE " within 200 us of one "
		  "phase mod 4000 us (1/250 s) per CPU (concentration 0.75); 49 of 49 grid points in a "
		  "task's runs charged (1/500 s: 49 of 98, 1/1000 s: 49 of 197)");
	CHECK(wl_facts(wl)->tick_phase_known);
	CHECK(wl_facts(wl)->tick_phase_ns[0] >= 122 * US && wl_facts(wl)->tick_phase_ns[0] <= 124 * US);
	wl_free(wl);

	start();    /* HZ=200 (arch/arm's Kconfig): 5 ms spacings, not 250's 4 ms */
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 62, 120));
	for (int k = 1; k <= 40; k++)
		feed(ev_runtime((uint64_t)k * 5 * MS + 700 * US, 1, 62, 5 * MS - 3 * US));
	wl = finish();
	CHECK_EQ(wl_facts(wl)->hz, 200);
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_TRACE);
	CHECK_STR(wl_facts(wl)->hz_how, "inferred: tick grid: 40 of 40 " HZ_LONE " within 250 us of one "
		  "phase mod 5000 us (1/200 s) per CPU (concentration 1.00); 39 of 39 grid points in a "
		  "task's runs charged (1/1000 s: 39 of 195)");
	CHECK(wl_facts(wl)->tick_phase_ns[1] >= 699 * US && wl_facts(wl)->tick_phase_ns[1] <= 701 * US);
	wl_free(wl);

	start();    /* too few spacings: the default, and it says so */
	feed(ev_runtime(1 * MS, 0, 61, 4 * MS));
	wl = finish();
	CHECK_EQ(wl_facts(wl)->hz, 250);
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_DEFAULT);
	CHECK_STR(wl_facts(wl)->hz_how, "assumed 250: not inferable (tick grid: 0 lone charges at no one "
		  "phase of a period (closest: 1/100 s, concentration 0.00, z-score 0; 0.50 and 10 needed); "
		  "tick spacing: "
		  "of 0 " HZ_SP ", at most 0 at one period over its +-10 %; 10 needed) (use --hz)");
	wl_free(wl);

	/*
	 * no sched_stat_runtime at all (LISA's traces): that is the reason,
	 * not "0 lone charges" and "0 spacings"
	 */
	start();
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 62, 120));
	feed(ev_switch(3 * MS, 1, 62, 'S', 120, 0, 120));
	wl = finish();
	CHECK_EQ(wl_facts(wl)->hz, 250);
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_DEFAULT);
	CHECK_STR(wl_facts(wl)->hz_how, "assumed 250: not inferable: the trace has no "
		  "sched_stat_runtime (the tick's charges of running tasks show HZ) (use --hz)");
	wl_free(wl);

	/*
	 * forkexec.dat's case (HZ=250 by its sidecar): 30 ticks of a CPU-bound
	 * task, and 80 short runs on CPU 1 whose one charge, 1 ms after the
	 * switch-in, carries runtime 1 ms.  The runtime rule (before hzc32)
	 * counted 80 at 1/1000 s against 30 at 1/250 s and inferred 1000.
	 */
	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 60, 120));
	for (int k = 1; k <= 30; k++)
		feed(ev_runtime((uint64_t)k * 4 * MS + 123 * US, 0, 60, 4 * MS));
	for (int j = 0; j < 80; j++) {
		uint64_t t = 300 * MS + (uint64_t)j * 3 * MS;

		feed(ev_switch(t, 1, j ? 100 + j - 1 : 0, 'S', 120, 100 + j, 120));
		feed(ev_runtime(t + 1 * MS, 1, 100 + j, 1 * MS));
	}
	wl = finish();
	CHECK_EQ(wl_facts(wl)->hz, 250);
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_TRACE);
	/*
	 * CPU 1's 80 lone charges, at every phase, dilute CPU 0's 30 ticks
	 * (concentration 0.5 needed): the tick spacing answers alone
	 */
	CHECK_STR(wl_facts(wl)->hz_how, "inferred: tick spacing: 29 of 29 " HZ_SP " are 4000 us (1/250 s), "
		  "0 at +-10 %");
	wl_free(wl);

	/* a switch between two charges: no spacing, even of the same task */
	start();
	for (int k = 1; k <= 30; k++) {
		feed(ev_switch((uint64_t)k * 4 * MS, 0, 0, 'R', 120, 60, 120));
		feed(ev_runtime((uint64_t)k * 4 * MS + 123 * US, 0, 60, 4 * MS));
		feed(ev_switch((uint64_t)k * 4 * MS + 200 * US, 0, 60, 'R', 120, 0, 120));
	}
	wl = finish();
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_DEFAULT);
	CHECK(strstr(wl_facts(wl)->hz_how, "tick spacing: of 0 " HZ_SP) != NULL);
	/* its lone charges fit 4, 2 and 1 ms, and no run spans a grid point */
	CHECK(strstr(wl_facts(wl)->hz_how, "(tick grid: the lone charges fit the grids of 1/250 and "
		     "1/500 s, neither refuted;") != NULL);
	wl_free(wl);

	/* two peaks, neither twice the other: not inferable, and both named */
	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 60, 120));
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 61, 120));
	for (int k = 1; k <= 30; k++)
		feed(ev_runtime((uint64_t)k * 4 * MS, 0, 60, 4 * MS));
	for (int k = 1; k <= 25; k++)
		feed(ev_runtime((uint64_t)k * 3333333, 1, 61, 3333333));
	wl = finish();
	CHECK_EQ(wl_facts(wl)->hz, 250);
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_DEFAULT);
	CHECK_STR(wl_facts(wl)->hz_how, "assumed 250: not inferable (tick grid: the lone charges fit only "
		  "refuted grids (1/1000 s: 159 of 196 points in a task's runs missed); tick spacing: of 53 "
		  HZ_SP ", 29 at 1/250 s and 24 at 1/300 s over 0 and 0 at +-10 %: neither twice the "
		  "other) (use --hz)");
	wl_free(wl);

	/* a peak that does not stand over its surroundings is no tick */
	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 60, 120));
	for (int k = 0; k < 60; k++)   /* 20 at 4 ms, 20 at 3.6 ms, 20 at 4.4 ms */
		feed(ev_runtime(2 * MS + (uint64_t)k * 4 * MS + (uint64_t)(k % 3) * 400 * US, 0, 60, 4 * MS));
	wl = finish();
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_DEFAULT);
	wl_free(wl);
}

/* ---- the tick grid: synthetic traces of known HZ ---- */

#define GRID_MAX 20000
static struct trace_event grid_ev[GRID_MAX];
static uint32_t grid_n;
static uint64_t grid_rand = 12345;

/* deterministic 0..n-1 */
static uint64_t grid_rnd(uint64_t n)
{
	grid_rand = grid_rand * 6364136223846793005ull + 1442695040888963407ull;
	return (grid_rand >> 33) % n;
}

static void grid_add(struct trace_event e)
{
	if (grid_n < GRID_MAX)
		grid_ev[grid_n++] = e;
}

/* by time, the order added at a tie (qsort is not stable: the index decides) */
static int cmp_grid_ev(const void *a, const void *b)
{
	const struct trace_event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x < y ? -1 : x > y;
}

static struct wl_workload *grid_feed(void)
{
	qsort(grid_ev, grid_n, sizeof(grid_ev[0]), cmp_grid_ev);
	start();
	for (uint32_t i = 0; i < grid_n; i++)
		feed(grid_ev[i]);
	grid_n = 0;
	return finish();
}

/*
 * Runs of 5..9 ms on @ncpu CPUs, tasks 200.. switching in turn.  In each,
 * the running task is charged at every tick (period @tick ns, CPU c's
 * phase @phase + c * 1.3 ms, 2..40 us late, 1 in 16 of them 300..570 us
 * late at 4 ms as on the VM, in proportion at other periods), or, if @tick
 * is 0, at random times 1..7 ms apart; and
 * it wakes a task on its own CPU every ~1.5 ms (a charge 1 us before the
 * sched_wakeup): so it is rarely charged twice one period apart, and the
 * tick spacing has nothing to go on.
 */
static struct wl_workload *grid_trace(int ncpu, uint64_t tick, uint64_t phase, uint64_t span)
{
	for (int c = 0; c < ncpu; c++) {
		uint64_t t = 1 * MS, ph = (phase + (uint64_t)c * 1300 * US) % (tick ? tick : 1);
		int prev = 0, pid = 200 + c * 100;

		while (t < span) {
			uint64_t end = t + 5 * MS + grid_rnd(4 * MS), k, w;

			grid_add(ev_switch(t, c, prev, 'S', 120, pid, 120));
			k = tick ? (t - ph) / tick + 1 : 0;
			for (uint64_t x = tick ? ph + k * tick : t + grid_rnd(4 * MS); x < end;
			     x += tick ? tick : 1 * MS + grid_rnd(6 * MS)) {
				uint64_t late = grid_rnd(16) ? 2 * US + grid_rnd(38 * US) :
					(300 * US + grid_rnd(270 * US)) * (tick ? tick : 4 * MS) / (4 * MS);

				if (x + late < end - 30 * US)
					grid_add(ev_runtime(x + late, c, pid, 4 * MS));
			}
			for (w = t + 1 * MS + grid_rnd(MS); w < end - 100 * US; w += 1 * MS + grid_rnd(MS)) {
				grid_add(ev_runtime(w, c, pid, 300 * US));
				grid_add(ev_wake(TRACE_EV_SCHED_WAKEUP, w + 1 * US, c, pid, 0, pid + 1, 120, c));
			}
			grid_add(ev_runtime(end, c, pid, 50 * US));
			grid_add(ev_switch(end + 2 * US, c, pid, 'S', 120, 0, 120));
			prev = 0;
			pid++;
			t = end + 100 * US + grid_rnd(900 * US);
		}
	}
	return grid_feed();
}

static void test_hz_grid(void)
{
	struct wl_workload *wl;

	/* HZ=250 on 2 CPUs, jittered and some late ticks: the grid finds it, the spacing cannot */
	wl = grid_trace(2, 4 * MS, 123 * US, 800 * MS);
	CHECK_EQ(wl_facts(wl)->hz, 250);
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_TRACE);
	CHECK(strncmp(wl_facts(wl)->hz_how, "inferred: tick grid: ", 21) == 0);
	CHECK(strstr(wl_facts(wl)->hz_how, "mod 4000 us (1/250 s) per CPU (concentration 0.9") != NULL);
	/* 1 and 2 ms fit too (divisors) and are refuted */
	CHECK(strstr(wl_facts(wl)->hz_how, "charged (1/500 s: ") != NULL);
	CHECK(strstr(wl_facts(wl)->hz_how, ", 1/1000 s: ") != NULL);
	wl_free(wl);

	/* the same at random times: no grid, not inferable */
	wl = grid_trace(2, 0, 0, 800 * MS);
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_DEFAULT);
	CHECK(strstr(wl_facts(wl)->hz_how, "(tick grid: ") != NULL);
	CHECK(strstr(wl_facts(wl)->hz_how, " lone charges at no one phase of a period (closest: 1/") != NULL);
	CHECK(!wl_facts(wl)->tick_phase_grid_known);
	wl_free(wl);

	/* HZ=1000: 1 ms, not 250's 4 ms (whose grid 1000's ticks fill at 4 phases) */
	wl = grid_trace(2, 1 * MS, 456 * US, 400 * MS);
	CHECK_EQ(wl_facts(wl)->hz, 1000);
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_TRACE);
	CHECK(strstr(wl_facts(wl)->hz_how, "mod 1000 us (1/1000 s) per CPU") != NULL);
	/*
	 * Its charges' 4 ms runtime is no 1 ms period: no phase but the
	 * grid's, each CPU's (456 us, CPU 1's 1.3 ms later) plus the median
	 * of the ticks' 2..40 us lateness, their 75..142 us late ones aside
	 */
	CHECK(!wl_facts(wl)->tick_phase_known);
	CHECK(wl_facts(wl)->tick_phase_grid_known);
	CHECK_EQ(wl_facts(wl)->tick_phase_grid_cpus, 3);
	CHECK(wl_facts(wl)->tick_phase_grid_ns[0] >= 466 * US && wl_facts(wl)->tick_phase_grid_ns[0] <= 486 * US);
	CHECK(wl_facts(wl)->tick_phase_grid_ns[1] >= 766 * US && wl_facts(wl)->tick_phase_grid_ns[1] <= 786 * US);
	wl_free(wl);

	/* HZ=200 against 100 (5 ms ticks fall at 2 phases mod 10 ms) and 1000 */
	wl = grid_trace(2, 5 * MS, 77 * US, 800 * MS);
	CHECK_EQ(wl_facts(wl)->hz, 200);
	wl_free(wl);

	/* HZ=300 (3333333 ns) */
	wl = grid_trace(1, 3333333, 900 * US, 800 * MS);
	CHECK_EQ(wl_facts(wl)->hz, 300);
	wl_free(wl);

	/*
	 * HZ=1000 seen through a task woken every 10 ms (an absolute timer)
	 * for 0.5 ms: one tick per run, always at one phase mod 10 ms, and
	 * no run spans a grid point.  1/100 s fits as well as 1/1000 s, and
	 * nothing refutes either: not inferable, never 100.
	 */
	for (int k = 0; k < 100; k++) {
		uint64_t t = 10 * MS + (uint64_t)k * 10 * MS + 300 * US;

		grid_add(ev_wake(TRACE_EV_SCHED_WAKEUP, t, 0, 0, 0, 300, 120, 0));
		grid_add(ev_switch(t + 5 * US, 0, 0, 'S', 120, 300, 120));
		grid_add(ev_runtime(t + 700 * US + 3 * US, 0, 300, 700 * US));   /* the tick at 1 ms */
		grid_add(ev_runtime(t + 800 * US, 0, 300, 100 * US));
		grid_add(ev_switch(t + 802 * US, 0, 300, 'S', 120, 0, 120));
	}
	wl = grid_feed();
	CHECK_EQ(wl_facts(wl)->hz_src, WL_FACT_DEFAULT);
	CHECK(strstr(wl_facts(wl)->hz_how, "(tick grid: the lone charges fit the grids of 1/100 and ") != NULL);
	wl_free(wl);

	/*
	 * A CPU-bound task ticked at 4 ms (phase 123 us) that wakes a task on
	 * its CPU every 2 ms (at 700 us): 200 charges at the wakeups, 100 at
	 * the ticks.  Taken for ticks, the wakeups' charges made a 2 ms grid
	 * that their own points confirm: 500.  They are no tick's: a
	 * sched_wakeup follows each on its CPU 1 us later.  The tick spacing
	 * (2 ms between the two wakeups' charges) says 500, and the grid
	 * refutes it: half of its points in the task's runs uncharged.
	 */
	grid_add(ev_switch(1 * MS, 0, 0, 'R', 120, 60, 120));
	for (int k = 1; k <= 100; k++) {
		uint64_t t = (uint64_t)k * 4 * MS;

		grid_add(ev_runtime(t + 123 * US, 0, 60, 4 * MS));
		for (int j = 0; j < 2; j++) {
			grid_add(ev_runtime(t + 700 * US + (uint64_t)j * 2 * MS, 0, 60, 300 * US));
			grid_add(ev_wake(TRACE_EV_SCHED_WAKEUP, t + 701 * US + (uint64_t)j * 2 * MS, 0, 60,
					 0, 61, 120, 1));
		}
	}
	wl = grid_feed();
	CHECK_EQ(wl_facts(wl)->hz, 250);
	CHECK_STR(wl_facts(wl)->hz_how, "inferred: tick grid: 100 of 100 " HZ_LONE " within 200 us of one "
		  "phase mod 4000 us (1/250 s) per CPU (concentration 1.00); 99 of 99 grid points in a "
		  "task's runs charged (1/500 s: 99 of 199, 1/1000 s: 99 of 398); the tick spacing's "
		  "1/500 s refuted");
	wl_free(wl);
}

/* Lost events and contradictions are repaired and counted, never fatal. */
static void test_lost(void)
{
	struct sr_error err = { 0 };
	struct wl_workload *wl;
	struct trace_event e;
	unsigned int it = 0, notes = 0;
	const char *text;
	uint64_t n;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 70, 120));
	e = ev_switch(3 * MS, 0, 71, 'S', 120, 72, 120);  /* 70's switch-out was lost */
	CHECK_EQ(wl_builder_event(B, &e, 42, &err), 0);
	feed(ev_switch(4 * MS, 0, 72, 'S', 120, 71, 120)); /* 71 runs without a wakeup */
	wl = finish();
	CHECK_EQ(wl_counts(wl)->lost_events, 42);
	while (wl_note_at(wl, &it, &text, &n))
		notes++;
	CHECK(notes >= 2);
	/* the window: after CPU 0's last record before the gap, up to its first after */
	CHECK_EQ(wl_nr_lost_windows(wl), 1);
	CHECK_EQ(wl_lost_window(wl, 0)->cpu, 0);
	CHECK_EQ(wl_lost_window(wl, 0)->from, 1 * MS + 1);
	CHECK_EQ(wl_lost_window(wl, 0)->to, 3 * MS);
	CHECK_EQ(wl_lost_window(wl, 0)->events, 42);
	CHECK(!wl_in_lost_window(wl, 0, 1 * MS));
	CHECK(wl_in_lost_window(wl, 0, 1 * MS + 1));
	CHECK(wl_in_lost_window(wl, 0, 3 * MS - 1));
	CHECK(!wl_in_lost_window(wl, 0, 3 * MS));
	CHECK(!wl_in_lost_window(wl, 1, 2 * MS));
	/*
	 * 72, switched in after the gap, first seen there: its wakeup may be
	 * in the gap; 71's ends a sleep from 3 to 4 ms, after it: compared.
	 */
	CHECK_EQ(wl_nr_wakes(wl), 2);
	for (uint32_t i = 0; i < wl_nr_wakes(wl); i++)
		CHECK_EQ(wl_wake(wl, i)->in_lost, wl_wake(wl, i)->ts == 3 * MS);
	wl_free(wl);
}

/*
 * Windows of lost events on two CPUs, one at a CPU's start (no record of it
 * before: from the trace start), one mid-trace; the wakes assumed for
 * switch-ins with no wakeup are in_lost when a window (of any CPU) overlaps
 * the sleep they end, not otherwise.
 */
static void test_lost_windows(void)
{
	struct sr_error err = { 0 };
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t in_lost = 0;

	start();
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 61, 120));          /* the trace start */
	feed(ev_switch(1 * MS + 100 * US, 1, 61, 'S', 120, 62, 120));
	feed(ev_switch(1 * MS + 200 * US, 1, 62, 'S', 120, 61, 120)); /* no wakeup: CPU 0's? */
	e = ev_switch(1 * MS + 500 * US, 0, 63, 'S', 120, 0, 120);   /* CPU 0's first record */
	CHECK_EQ(wl_builder_event(B, &e, TRACE_LOST_UNKNOWN, &err), 0);
	feed(ev_switch(2 * MS, 1, 61, 'S', 120, 62, 120));           /* slept from 1.2 ms */
	feed(ev_switch(2 * MS + 500 * US, 1, 62, 'S', 120, 61, 120)); /* slept from 2 ms */
	feed(ev_switch(3 * MS, 1, 61, 'S', 120, 0, 120));
	e = ev_switch(5 * MS, 1, 0, 'R', 120, 62, 120);              /* CPU 1 lost 3..5 ms */
	CHECK_EQ(wl_builder_event(B, &e, 7, &err), 0);
	feed(ev_switch(6 * MS, 1, 62, 'S', 120, 0, 120));
	wl = finish();
	CHECK_EQ(wl_nr_lost_windows(wl), 2);
	CHECK_EQ(wl_lost_window(wl, 0)->cpu, 0);
	CHECK_EQ(wl_lost_window(wl, 0)->from, 1 * MS);
	CHECK_EQ(wl_lost_window(wl, 0)->to, 1 * MS + 500 * US);
	CHECK_EQ(wl_lost_window(wl, 0)->events, TRACE_LOST_UNKNOWN);
	CHECK(wl_lost_window(wl, 0)->at_start);
	CHECK(!wl_lost_window(wl, 1)->at_start);
	CHECK_EQ(wl_lost_window(wl, 1)->cpu, 1);
	CHECK_EQ(wl_lost_window(wl, 1)->from, 3 * MS + 1);
	CHECK_EQ(wl_lost_window(wl, 1)->to, 5 * MS);
	CHECK(wl_in_lost_window(wl, 0, 1 * MS));
	CHECK(!wl_in_lost_window(wl, 1, 1 * MS + 200 * US));
	CHECK(wl_in_lost_window(wl, 1, 4 * MS));
	CHECK(!wl_in_lost_window(wl, 0, 4 * MS));
	for (uint32_t i = 0; i < wl_nr_wakes(wl); i++) {
		const struct wl_wake *w = wl_wake(wl, i);

		in_lost += w->in_lost;
		/*
		 * 61 at 1.2 ms and 62 at 2 ms slept in CPU 0's window, 62 at
		 * 5 ms in CPU 1's; 61 at 2.5 ms slept from 2 ms: compared
		 */
		CHECK_EQ(w->in_lost, w->ts != 2 * MS + 500 * US);
	}
	CHECK_EQ(wl_nr_wakes(wl), 4);
	CHECK_EQ(in_lost, 3);
	CHECK_EQ(wl_nr_lost_wakes(wl), in_lost);
	wl_free(wl);
}

/*
 * A long window on CPU 0 holds a short one of CPU 1: a sleep after the short
 * one's end still overlaps the long one (the windows' latest end so far, not
 * the last-starting window's end, decides); one after both is compared.
 */
static void test_lost_windows_nested(void)
{
	struct sr_error err = { 0 };
	struct wl_workload *wl;
	struct trace_event e;
	bool seen6 = false;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 70, 120));
	feed(ev_switch(1 * MS + 500 * US, 1, 0, 'R', 120, 81, 120));
	feed(ev_switch(2 * MS, 1, 81, 'S', 120, 82, 120));
	e = ev_switch(3 * MS, 1, 82, 'S', 120, 81, 120);            /* CPU 1 lost 2..3 ms */
	CHECK_EQ(wl_builder_event(B, &e, 5, &err), 0);
	feed(ev_switch(5 * MS, 1, 81, 'S', 120, 82, 120));
	feed(ev_switch(6 * MS, 1, 82, 'S', 120, 81, 120));           /* slept 5..6 ms */
	e = ev_switch(10 * MS, 0, 70, 'S', 120, 0, 120);             /* CPU 0 lost 1..10 ms */
	CHECK_EQ(wl_builder_event(B, &e, 42, &err), 0);
	feed(ev_switch(11 * MS, 1, 81, 'S', 120, 82, 120));          /* slept 6..11 ms */
	feed(ev_switch(12 * MS, 1, 82, 'S', 120, 81, 120));          /* slept 11..12 ms */
	wl = finish();
	CHECK_EQ(wl_nr_lost_windows(wl), 2);
	for (uint32_t i = 0; i < wl_nr_wakes(wl); i++) {
		const struct wl_wake *w = wl_wake(wl, i);

		seen6 |= w->ts == 6 * MS;
		CHECK_EQ(w->in_lost, w->ts != 12 * MS);
	}
	CHECK(seen6);
	wl_free(wl);

	/* a gap between two records of one timestamp: empty, not "at the start" */
	start();
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 81, 120));
	e = ev_switch(1 * MS, 1, 81, 'S', 120, 82, 120);
	CHECK_EQ(wl_builder_event(B, &e, 3, &err), 0);
	feed(ev_switch(2 * MS, 1, 82, 'S', 120, 0, 120));
	wl = finish();
	CHECK_EQ(wl_nr_lost_windows(wl), 1);
	CHECK_EQ(wl_lost_window(wl, 0)->from, 1 * MS);
	CHECK_EQ(wl_lost_window(wl, 0)->to, 1 * MS);
	CHECK(!wl_lost_window(wl, 0)->at_start);
	CHECK(!wl_in_lost_window(wl, 1, 1 * MS));
	wl_free(wl);
}

/*
 * A pre-3.0 kernel's sched_wakeup with success=0 (try_to_wake_up() found the
 * task running): no wake, not counted, noted; the success=1 one after it is
 * the wakeup of 81's sleep.
 */
static void test_wakeup_no_success(void)
{
	struct wl_workload *wl;
	struct trace_event e;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 80, 120));
	e = ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS, 1, 81, 0, 80, 120, 0);
	e.u.wakeup.success = 0;                          /* 80 is running */
	feed(e);
	feed(ev_switch(3 * MS, 1, 81, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 4 * MS, 0, 80, 0, 81, 120, 1));
	feed(ev_switch(5 * MS, 1, 0, 'R', 120, 81, 120));
	wl = finish();
	CHECK_EQ(wl_counts(wl)->sched_wakeup, 1);
	CHECK_EQ(wl_nr_wakes(wl), 1);
	CHECK_EQ(note_value(wl, "success=0"), 1);
	wl_free(wl);
}

/* Calibration: per-path quantiles, deterministic draws, fallbacks. */
static void test_calib(void)
{
	struct wl_wake w[200];
	struct wl_calib c;

	memset(w, 0, sizeof(w));
	for (int i = 0; i < 100; i++) {
		w[i].path = WL_PATH_IDLE;
		w[i].latency = (uint64_t)(i + 1) * 1000;   /* 1..100 us */
	}
	for (int i = 100; i < 130; i++) {
		w[i].path = WL_PATH_PREEMPT_REMOTE;
		w[i].latency = 50000;
	}
	for (int i = 130; i < 200; i++) {
		w[i].path = WL_PATH_QUEUED;
		w[i].latency = 7;
	}
	CHECK_EQ(calib_build(&c, w, 200, 0, false), 0);
	CHECK_EQ(c.path[WL_PATH_IDLE].n, 100);
	CHECK_EQ(c.path[WL_PATH_IDLE].p50, 50000);
	CHECK_EQ(c.path[WL_PATH_IDLE].p90, 90000);
	CHECK_EQ(c.path[WL_PATH_IDLE].p99, 99000);
	CHECK_EQ(c.path[WL_PATH_IDLE].mean, 50500);
	CHECK_EQ(c.path[WL_PATH_IDLE].q[0], 1000);
	CHECK_EQ(c.path[WL_PATH_IDLE].q[CALIB_Q - 1], 100000);
	CHECK_EQ(c.path[WL_PATH_PREEMPT_LOCAL].fallback, WL_PATH_PREEMPT_REMOTE);
	CHECK_EQ(calib_draw(&c, WL_PATH_PREEMPT_LOCAL, CALIB_CTX_TASK, 3, 9), 50000);
	CHECK_EQ(calib_draw(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 7, 1),
		 calib_draw(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 7, 1));
	{
		/* draws cover the distribution: their mean is close to its mean */
		long double s = 0;

		for (uint32_t k = 0; k < 20000; k++)
			s += calib_draw(&c, WL_PATH_IDLE, CALIB_CTX_TASK, k, k * 7);
		CHECK(s / 20000 > 49000 && s / 20000 < 52000);
	}
	calib_release(&c);

	/*
	 * By waker context: 40 local preemptions by tasks (3 us), 30 by a
	 * hardirq (15 us), 5 by a softirq (9 us: too few, the path's mixed
	 * table is used).
	 */
	memset(w, 0, sizeof(w));
	for (int i = 0; i < 75; i++) {
		w[i].path = WL_PATH_PREEMPT_LOCAL;
		w[i].src = i < 40 ? WL_SRC_TASK : i < 70 ? WL_SRC_HARDIRQ : WL_SRC_SOFTIRQ;
		w[i].latency = i < 40 ? 3000 : i < 70 ? 15000 : 9000;
	}
	CHECK_EQ(calib_build(&c, w, 75, 0, false), 0);
	CHECK_EQ(c.path[WL_PATH_PREEMPT_LOCAL].n, 75);
	CHECK_EQ(c.ctx[WL_PATH_PREEMPT_LOCAL][CALIB_CTX_TASK].n, 40);
	CHECK_EQ(c.ctx[WL_PATH_PREEMPT_LOCAL][CALIB_CTX_HARDIRQ].n, 30);
	CHECK_EQ(c.ctx[WL_PATH_PREEMPT_LOCAL][CALIB_CTX_SOFTIRQ].n, 5);
	CHECK_EQ(calib_ctx_of(WL_SRC_IDLE), CALIB_CTX_HARDIRQ);
	CHECK_EQ(calib_ctx_of(WL_SRC_NONFAIR), CALIB_CTX_TASK);
	for (uint32_t k = 0; k < 50; k++) {
		CHECK_EQ(calib_draw(&c, WL_PATH_PREEMPT_LOCAL, CALIB_CTX_TASK, k, 1), 3000);
		CHECK_EQ(calib_draw(&c, WL_PATH_PREEMPT_LOCAL, CALIB_CTX_HARDIRQ, k, 1), 15000);
	}
	CHECK(calib_effective(&c, WL_PATH_PREEMPT_LOCAL, CALIB_CTX_SOFTIRQ) ==
	      &c.path[WL_PATH_PREEMPT_LOCAL]);
	calib_release(&c);

	/*
	 * With uncontested samples (--preempt-costs strict) a preemption path
	 * with few samples keeps its own table: 40 local preemptions (4 us), 16
	 * remote ones (14 us, small-chan's shape: the resched IPI), 4 idle
	 * wakeups (24 us).  The remote path draws its own 14 us, not local's
	 * 4 us; the idle path, under CALIB_MIN_SAMPLES, still borrows (remote
	 * has too few to lend: local's).  Without: remote borrows local's.
	 */
	memset(w, 0, sizeof(w));
	for (int i = 0; i < 60; i++) {
		w[i].path = i < 40 ? WL_PATH_PREEMPT_LOCAL : i < 56 ? WL_PATH_PREEMPT_REMOTE : WL_PATH_IDLE;
		w[i].latency = i < 40 ? 4000 : i < 56 ? 14000 : 24000;
	}
	for (int strict = 1; strict >= 0; strict--) {
		CHECK_EQ(calib_build(&c, w, 60, 0, strict), 0);
		CHECK_EQ(c.path[WL_PATH_PREEMPT_REMOTE].n, 16);
		CHECK_EQ(c.path[WL_PATH_PREEMPT_REMOTE].fallback,
			 strict ? -1 : WL_PATH_PREEMPT_LOCAL);
		CHECK_EQ(c.path[WL_PATH_PREEMPT_LOCAL].fallback, -1);
		CHECK_EQ(c.path[WL_PATH_IDLE].fallback, WL_PATH_PREEMPT_LOCAL);
		for (uint32_t k = 0; k < 50; k++) {
			CHECK_EQ(calib_draw(&c, WL_PATH_PREEMPT_REMOTE, CALIB_CTX_TASK, k, 1),
				 strict ? 14000 : 4000);
			CHECK_EQ(calib_draw(&c, WL_PATH_PREEMPT_LOCAL, CALIB_CTX_TASK, k, 1), 4000);
			CHECK_EQ(calib_draw(&c, WL_PATH_IDLE, CALIB_CTX_TASK, k, 1), 4000);
		}
		calib_release(&c);
	}
}

/*
 * The idle path per CPU (calib.h): CPU 0's switches out of idle traced
 * (40 us), CPU 1's restored (2 us after a wakeup, 0 us after a fork: the
 * restored switch sits at the sched_wakeup_new).  A 0 ns sample is a
 * sample.  CPU 2 has 5 restored samples only: the restored pool is used.
 */
#define NO_RES UINT64_MAX      /* idle residency unknown: no band */

static void test_calib_idle_cpu(void)
{
	struct wl_wake w[200];
	struct wl_calib c;

	memset(w, 0, sizeof(w));
	for (int i = 0; i < 200; i++) {
		w[i].path = WL_PATH_IDLE;
		w[i].src = WL_SRC_TASK;
		if (i < 60) {                      /* CPU 0, traced */
			w[i].cpu = 0;
			w[i].latency = 40000;
		} else if (i < 120) {              /* CPU 1, restored wakeups */
			w[i].cpu = 1;
			w[i].latency = 2000;
			w[i].flags = WL_WAKE_RESTORED;
		} else if (i < 195) {              /* CPU 1, restored forks */
			w[i].cpu = 1;
			w[i].latency = 0;
			w[i].flags = WL_WAKE_RESTORED | WL_WAKE_NEW;
		} else {                           /* CPU 2, restored, too few */
			w[i].cpu = 2;
			w[i].latency = 7000;
			w[i].flags = WL_WAKE_RESTORED;
		}
	}
	CHECK_EQ(calib_build(&c, w, 200, 3, false), 0);
	CHECK_EQ(c.path[WL_PATH_IDLE].n, 200);          /* 0 ns samples count */
	CHECK_EQ(c.ctx[WL_PATH_IDLE][CALIB_CTX_FORK].n, 75);
	CHECK_EQ(c.nr_cpus, 3);
	CHECK_EQ(c.idle_cpu[0][CALIB_CTX_ALL].n, 60);
	CHECK_EQ(c.idle_cpu[1][CALIB_CTX_TASK].n, 60);
	CHECK_EQ(c.idle_cpu[1][CALIB_CTX_FORK].n, 75);
	CHECK_EQ(c.idle_cpu[2][CALIB_CTX_ALL].n, 5);
	CHECK_EQ(c.idle_kind[0][CALIB_CTX_ALL].n, 60);
	CHECK_EQ(c.idle_kind[1][CALIB_CTX_ALL].n, 140);
	CHECK_EQ(c.idle_kind[1][CALIB_CTX_TASK].n, 65);
	CHECK_EQ(calib_ctx_of_wake(&w[150]), CALIB_CTX_FORK);
	CHECK_EQ(calib_ctx_of_wake(&w[0]), CALIB_CTX_TASK);
	for (uint32_t k = 0; k < 50; k++) {
		CHECK_EQ(calib_draw_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 0, false, NO_RES, k, 1, 1),
			 40000);
		CHECK_EQ(calib_draw_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 1, true, NO_RES, k, 1, 1),
			 2000);
		CHECK_EQ(calib_draw_cpu(&c, WL_PATH_IDLE, CALIB_CTX_FORK, 1, true, NO_RES, k, 1, 1), 0);
		/* CPU 0 has no fork samples: its fork draws take its all-context table */
		CHECK_EQ(calib_draw_cpu(&c, WL_PATH_IDLE, CALIB_CTX_FORK, 0, false, NO_RES, k, 1, 1),
			 40000);
		/* seed 1 with no CPU: calib_draw()'s quantile of the path's tables */
		CHECK_EQ(calib_draw_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, -1, false, NO_RES, k, 3, 1),
			 calib_draw(&c, WL_PATH_IDLE, CALIB_CTX_TASK, k, 3));
	}
	/* CPU 2: its 5 samples are too few, the restored task-context pool (2 us x 60, 7 us x 5) */
	CHECK(calib_effective_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 2, true, NO_RES) ==
	      &c.idle_kind[1][CALIB_CTX_TASK]);
	CHECK_EQ(c.idle_kind[1][CALIB_CTX_TASK].p50, 2000);
	CHECK_EQ(c.idle_kind[1][CALIB_CTX_TASK].max, 7000);
	/* preemption paths have no per-CPU tables */
	CHECK(calib_effective_cpu(&c, WL_PATH_PREEMPT_LOCAL, CALIB_CTX_TASK, 1, true, NO_RES) ==
	      calib_effective(&c, WL_PATH_PREEMPT_LOCAL, CALIB_CTX_TASK));
	calib_release(&c);
	calib_release(&c);                          /* twice: safe */
}

/*
 * The idle path split by idle residency (calib.h, CALIB_IDLE_BANDS): CPU 0
 * (traced), task context: 30 samples of 12 us after less than 5 us of idle
 * (4.999 us: the first band), 10 of 30 us after 5 us exactly and 15 after
 * 49.999 us (merged: 5-50 us), 25 of 60 us after 50 us and 5 of 90 us after
 * 2 ms (too few: joined to the group before, > 50 us, which the empty
 * 200-1000 us band maps to as well), and 3 of unknown residency (in no
 * group).  CPU 1 (restored): 15 samples, not split.  A residency of
 * UINT64_MAX (unknown, or --idle-residency off) draws as without the split.
 */
static void test_calib_idle_band(void)
{
	struct wl_wake w[103];
	struct wl_calib c;
	const struct calib_bands *cb;
	char name[24];

	memset(w, 0, sizeof(w));
	for (int i = 0; i < 103; i++) {
		w[i].path = WL_PATH_IDLE;
		w[i].src = WL_SRC_TASK;
		if (i < 30) {
			w[i].latency = 12000;
			w[i].idle_ns = 4999;
		} else if (i < 40) {
			w[i].latency = 30000;
			w[i].idle_ns = 5000;
		} else if (i < 55) {
			w[i].latency = 30000;
			w[i].idle_ns = 49999;
		} else if (i < 80) {
			w[i].latency = 60000;
			w[i].idle_ns = 50000;
		} else if (i < 85) {
			w[i].latency = 90000;
			w[i].idle_ns = 2000000;
		} else if (i < 88) {
			w[i].latency = 45000;
			w[i].idle_ns = WL_IDLE_NS_UNKNOWN;
		} else {
			w[i].cpu = 1;
			w[i].flags = WL_WAKE_RESTORED;
			w[i].latency = 1000;
			w[i].idle_ns = 2000;
		}
	}
	CHECK_EQ(calib_idle_band(0), 0);
	CHECK_EQ(calib_idle_band(4999), 0);
	CHECK_EQ(calib_idle_band(5000), 1);
	CHECK_EQ(calib_idle_band(199999), 3);
	CHECK_EQ(calib_idle_band(200000), 4);
	CHECK_EQ(calib_idle_band(1000000), 5);
	CHECK_EQ(calib_idle_band(WL_IDLE_NS_MAX), 5);
	CHECK_EQ(calib_idle_band(WL_IDLE_NS_UNKNOWN), -1);
	CHECK_EQ(calib_idle_band(UINT64_MAX), -1);
	CHECK(!strcmp(calib_idle_band_name(0), "<5"));
	CHECK(!strcmp(calib_idle_band_name(5), ">1000"));
	CHECK_EQ(calib_build(&c, w, 103, 2, false), 0);
	CHECK_EQ(c.idle_cpu[0][CALIB_CTX_TASK].n, 88);
	cb = &c.idle_band_cpu[0][CALIB_CTX_TASK];
	CHECK_EQ(cb->nr, 3);
	CHECK_EQ(cb->g[0].n, 30);
	CHECK_EQ(cb->g[1].n, 25);
	CHECK_EQ(cb->g[2].n, 30);
	CHECK_EQ(cb->g[2].p50, 60000);
	CHECK_EQ(cb->g[2].max, 90000);
	CHECK_EQ(cb->group_of[0], 0);
	CHECK_EQ(cb->group_of[2], 1);
	CHECK_EQ(cb->group_of[4], 2);
	CHECK_EQ(cb->group_of[5], 2);
	calib_bands_name(cb, 0, name, sizeof(name));
	CHECK(!strcmp(name, "<5"));
	calib_bands_name(cb, 1, name, sizeof(name));
	CHECK(!strcmp(name, "5-50"));
	calib_bands_name(cb, 2, name, sizeof(name));
	CHECK(!strcmp(name, ">50"));
	CHECK_EQ(c.idle_band_kind[0][CALIB_CTX_TASK].nr, 3);   /* the traced pool: CPU 0's */
	CHECK_EQ(c.idle_band_cpu[1][CALIB_CTX_TASK].nr, 0);    /* 15: not split */
	CHECK_EQ(c.idle_band_kind[1][CALIB_CTX_TASK].nr, 0);
	CHECK(calib_effective_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 0, false, 0) == &cb->g[0]);
	CHECK(calib_effective_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 0, false, 49999) == &cb->g[1]);
	CHECK(calib_effective_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 0, false, 300000) == &cb->g[2]);
	CHECK(calib_effective_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 0, false, NO_RES) ==
	      &c.idle_cpu[0][CALIB_CTX_TASK]);
	CHECK(calib_effective_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 0, false, WL_IDLE_NS_UNKNOWN) ==
	      &c.idle_cpu[0][CALIB_CTX_TASK]);
	/* no hardirq samples: its fallback (the CPU's all-context table) is not split */
	CHECK(calib_effective_cpu(&c, WL_PATH_IDLE, CALIB_CTX_HARDIRQ, 0, false, 0) ==
	      &c.idle_cpu[0][CALIB_CTX_ALL]);
	CHECK(calib_effective_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 1, true, 0) ==
	      calib_effective_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 1, true, NO_RES));
	for (uint32_t k = 0; k < 50; k++) {
		CHECK_EQ(calib_draw_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 0, false, 1000, k, 1, 1),
			 12000);
		CHECK_EQ(calib_draw_cpu(&c, WL_PATH_IDLE, CALIB_CTX_TASK, 0, false, 6000, k, 1, 1),
			 30000);
		/* a preemption path ignores the residency */
		CHECK_EQ(calib_draw_cpu(&c, WL_PATH_PREEMPT_LOCAL, CALIB_CTX_TASK, 0, false, 1000,
					k, 1, 1),
			 calib_draw_cpu(&c, WL_PATH_PREEMPT_LOCAL, CALIB_CTX_TASK, 0, false, NO_RES,
					k, 1, 1));
	}
	calib_release(&c);
	CHECK_EQ(c.idle_band_kind[0][CALIB_CTX_TASK].nr, 0);
	calib_release(&c);                          /* twice: safe */
}

/*
 * The repaired stream: CPU 1's switch out of idle restored (synthetic) for
 * task 40 woken from a hardirq there; CPU 0's traced.  Then task 41's
 * sched_waking is traced (from CPU 0) but its sched_wakeup is not, and it
 * runs on CPU 1 (restored switch): that waking ends its sleep.
 */
static void test_restored(void)
{
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t t40, t41;
	const struct wl_wake *w;

	start();
	feed(ev_switch(1 * MS, 1, 40, 'S', 120, 0, 120));
	feed(ev_switch(1 * MS, 0, 41, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 1, 0, HARDIRQ, 40, 120, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 1 * US, 1, 0, HARDIRQ, 40, 120, 1));
	e = ev_switch(2 * MS + 1 * US, 1, 0, 'R', 120, 40, 120);
	e.synthetic = true;
	feed(e);
	feed(ev_runtime(2 * MS + 50 * US, 1, 40, 49 * US));
	feed(ev_switch(2 * MS + 50 * US, 1, 40, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS, 0, 0, HARDIRQ, 41, 120, 1));
	e = ev_switch(3 * MS + 4 * US, 1, 0, 'R', 120, 41, 120);
	e.synthetic = true;
	feed(e);
	feed(ev_switch(3 * MS + 30 * US, 1, 41, 'S', 120, 0, 120));
	/* CPU 0: a traced switch out of idle */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 4 * MS, 0, 0, HARDIRQ, 40, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 4 * MS + 1 * US, 0, 0, HARDIRQ, 40, 120, 0));
	feed(ev_switch(4 * MS + 12 * US, 0, 0, 'R', 120, 40, 120));
	wl = finish();

	CHECK_EQ(wl_counts(wl)->sched_switch, 7);
	CHECK_EQ(wl_counts(wl)->sched_switch_restored, 2);
	CHECK_EQ(wl_counts(wl)->events, 11);         /* records only */
	CHECK_EQ(wl_facts(wl)->idle_exit_restored, 0x2);
	t40 = task_of(wl, 40, 0);
	t41 = task_of(wl, 41, 0);
	CHECK(t40 != WL_NONE && t41 != WL_NONE);
	/* 40 (running at the trace start, its first event): BLOCK, RUN 49 us, BLOCK, RUN */
	CHECK_EQ(op_of(wl, t40, 0)->kind, WL_OP_BLOCK);
	CHECK_EQ(op_of(wl, t40, 1)->value, 49 * US);
	CHECK_EQ(op_of(wl, t40, 2)->kind, WL_OP_BLOCK);
	/* its first wake: idle path on CPU 1, ends at the restored switch */
	w = wl_wake(wl, op_of(wl, t40, 0)->arg);
	CHECK_EQ(w->path, WL_PATH_IDLE);
	CHECK_EQ(w->latency, 1 * US);
	CHECK_EQ(w->cpu, 1);
	CHECK_EQ(w->flags, WL_WAKE_ENDS_BLOCK | WL_WAKE_RESTORED);
	CHECK_EQ(w->idle_ns, 1 * MS);             /* CPU 1 idle since 1 ms, waking at 2 ms */
	/* 41: the traced waking ended its sleep: one wake, no made-up one */
	CHECK_EQ(wl_task(wl, t41)->nr_wakes, 1);
	CHECK_EQ(op_of(wl, t41, 0)->kind, WL_OP_BLOCK);
	w = wl_wake(wl, op_of(wl, t41, 0)->arg);
	CHECK_EQ(w->ts, 3 * MS);
	CHECK_EQ(w->cpu, 1);
	CHECK_EQ(w->path, WL_PATH_IDLE);
	CHECK_EQ(w->latency, 4 * US);
	CHECK_EQ(w->flags, WL_WAKE_ENDS_BLOCK | WL_WAKE_RESTORED);
	/* no sched_wakeup: what ran at the wakeup inferred at the switch, not since when */
	CHECK_EQ(w->idle_ns, WL_IDLE_NS_UNKNOWN);
	/* 40's second wake: traced switch on CPU 0 */
	w = wl_wake(wl, op_of(wl, t40, 2)->arg);
	CHECK_EQ(w->path, WL_PATH_IDLE);
	CHECK_EQ(w->latency, 12 * US);
	CHECK_EQ(w->flags, WL_WAKE_ENDS_BLOCK);
	CHECK_EQ(w->idle_ns, 3 * MS);             /* CPU 0 idle since 1 ms */
	CHECK_EQ(note_value(wl, "sched_waking was traced but not their sched_wakeup"), 1);
	wl_free(wl);
}

/*
 * Hand-off and WF_SYNC: 30 wakes 31 and is preempted by it 2 us later; 31
 * blocks at 3 ms, so 30 gets a WAIT for that BLOCK (31's op 1).  At 4 ms 30
 * wakes 31 and sleeps 5 us later (sync); 31 wakes 30 and runs 30 us before
 * it sleeps (not sync: more than WL_SYNC_MAX_RUN_NS).
 */
static void test_handoff_sync(void)
{
	struct wl_workload *wl;
	uint32_t x, y;

	start();
	feed(ev_runtime(1 * MS, 0, 30, 1000));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 30, 0, 31, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS, 0, 30, 0, 31, 120, 0));
	feed(ev_switch(2 * MS + 2 * US, 0, 30, 'R', 120, 31, 120));
	feed(ev_switch(3 * MS, 0, 31, 'S', 120, 30, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 4 * MS, 0, 30, 0, 31, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 4 * MS, 0, 30, 0, 31, 120, 0));
	feed(ev_switch(4 * MS + 5 * US, 0, 30, 'S', 120, 31, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 5 * MS, 0, 31, 0, 30, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * MS, 0, 31, 0, 30, 120, 0));
	feed(ev_switch(5 * MS + 30 * US, 0, 31, 'S', 120, 30, 120));
	for (int k = 0; k < 2; k++) {            /* two more hand-offs of the pair */
		uint64_t t = (uint64_t)(6 + 2 * k) * MS;

		feed(ev_wake(TRACE_EV_SCHED_WAKING, t, 0, 30, 0, 31, 120, 0));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, t, 0, 30, 0, 31, 120, 0));
		feed(ev_switch(t + 2 * US, 0, 30, 'R', 120, 31, 120));
		feed(ev_switch(t + 1 * MS, 0, 31, 'S', 120, 30, 120));
	}
	wl = finish();
	x = task_of(wl, 30, 0);
	y = task_of(wl, 31, 0);
	/* 30: RUN 1 ms, WAKE, RUN 2 us, WAIT(31, op 1), RUN 1 ms, WAKE, RUN 5 us, BLOCK, ... */
	CHECK_EQ(op_of(wl, x, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, x, 1)->kind, WL_OP_WAKE);
	CHECK_EQ(op_of(wl, x, 2)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, x, 2)->value, 2 * US);
	CHECK_EQ(op_of(wl, x, 3)->kind, WL_OP_WAIT);
	CHECK_EQ(op_of(wl, x, 3)->arg, y);
	CHECK_EQ(op_of(wl, x, 3)->value, 1);
	/* 30 slept right after waking 31 at 4 ms and 31 ended that sleep: a reply */
	CHECK_EQ(op_of(wl, x, 3)->aux, WL_WAIT_PINGPONG);
	CHECK_EQ(op_of(wl, y, 1)->kind, WL_OP_BLOCK);
	CHECK_EQ(op_of(wl, x, 4)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, x, 4)->value, 1 * MS);
	CHECK_EQ(op_of(wl, x, 5)->kind, WL_OP_WAKE);
	CHECK_EQ(op_of(wl, x, 7)->kind, WL_OP_BLOCK);
	CHECK(wl_wake(wl, op_of(wl, x, 1)->arg)->flags & WL_WAKE_SYNC);
	CHECK(wl_wake(wl, op_of(wl, x, 5)->arg)->flags & WL_WAKE_SYNC);
	/* 31's wake of 30 is followed by 30 us of work: not sync */
	CHECK_EQ(op_of(wl, y, 3)->kind, WL_OP_WAKE);
	CHECK(!(wl_wake(wl, op_of(wl, y, 3)->arg)->flags & WL_WAKE_SYNC));
	/* three hand-offs of the pair: all kept */
	{
		unsigned int waits = 0;

		for (uint32_t k = 0; k < wl_task(wl, x)->nr_ops; k++)
			if (op_of(wl, x, k)->kind == WL_OP_WAIT && op_of(wl, x, k)->arg == y)
				waits++;
		CHECK_EQ(waits, 3);
	}
	/* the sync tail: one sample (5 us) is too few for a median */
	CHECK_EQ(wl_facts(wl)->sync_tail_samples, 1);
	CHECK_EQ(wl_facts(wl)->sync_tail_ns, 0);
	/* the preemptions here are "R+" (ev_switch 'R'): that state is kept */
	CHECK_EQ(wl_facts(wl)->preempt_state, 0x100);
	wl_free(wl);

	/* a one-off hand-off (a vfork child's exec, an exit): the wait is dropped */
	start();
	feed(ev_runtime(1 * MS, 0, 30, 1000));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 30, 0, 31, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS, 0, 30, 0, 31, 120, 0));
	feed(ev_switch(2 * MS + 2 * US, 0, 30, 'R', 120, 31, 120));
	feed(ev_switch(3 * MS, 0, 31, 'S', 120, 30, 120));
	wl = finish();
	x = task_of(wl, 30, 0);
	CHECK_EQ(op_of(wl, x, 3)->kind, WL_OP_WAIT);
	CHECK_EQ(op_of(wl, x, 3)->arg, WL_NONE);
	wl_free(wl);

	/* a waker preempted by someone else than its wakee: no hand-off */
	start();
	feed(ev_runtime(1 * MS, 0, 30, 1000));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 30, 0, 31, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS, 0, 30, 0, 31, 120, 1));
	feed(ev_switch(2 * MS + 2 * US, 0, 30, 'R', 120, 32, 120));
	feed(ev_switch(2 * MS + 3 * US, 1, 31, 'S', 120, 0, 120));
	wl = finish();
	x = task_of(wl, 30, 0);
	for (uint32_t k = 0; k < wl_task(wl, x)->nr_ops; k++)
		CHECK(op_of(wl, x, k)->kind != WL_OP_WAIT);
	wl_free(wl);
}

/*
 * --handoff-signals (wl_options.handoff_signals): 30 wakes 31 and is
 * preempted by it; 31 wakes 32 and 33 (a barrier's wake-all) and 30 runs
 * again at 2.5 ms, before 31 blocks.  With the option 30 gets a WAIT
 * (WL_WAIT_SIGNAL) for 31's wake of 33, kept although the pair hands off
 * once; without it the hand-off is cancelled and 30 has no WAIT.
 */
static void test_handoff_signal(void)
{
	for (int on = 0; on <= 1; on++) {
		struct wl_options opt = { .handoff_signals = on };
		struct sr_error err = { 0 };
		struct wl_workload *wl;
		uint32_t x, y, waits = 0, k;

		B = wl_builder_new(NULL, NULL, &opt, &err);
		CHECK(B != NULL);
		if (!B)
			return;
		feed(ev_runtime(1 * MS, 0, 30, 1000));
		feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 30, 0, 31, 120, 0));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS, 0, 30, 0, 31, 120, 0));
		feed(ev_switch(2 * MS + 2 * US, 0, 30, 'R', 120, 31, 120));
		feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS + 100 * US, 0, 31, 0, 32, 120, 1));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 101 * US, 0, 31, 0, 32, 120, 1));
		feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS + 200 * US, 0, 31, 0, 33, 120, 1));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 201 * US, 0, 31, 0, 33, 120, 1));
		feed(ev_switch(2 * MS + 500 * US, 0, 31, 'R', 120, 30, 120));
		feed(ev_switch(3 * MS, 0, 30, 'S', 120, 31, 120));
		feed(ev_switch(3 * MS + 500 * US, 0, 31, 'S', 120, 0, 120));
		wl = finish();
		x = task_of(wl, 30, 0);
		y = task_of(wl, 31, 0);
		CHECK(x != WL_NONE && y != WL_NONE);
		for (k = 0; k < wl_task(wl, x)->nr_ops; k++) {
			const struct wl_op *o = op_of(wl, x, k);

			if (o->kind != WL_OP_WAIT)
				continue;
			waits++;
			/* after 30's run to its preemption: RUN, WAKE(31), RUN 2 us */
			CHECK_EQ(k, 3);
			CHECK_EQ(o->arg, y);
			CHECK_EQ(o->aux, WL_WAIT_SIGNAL);
			CHECK_EQ(op_of(wl, y, o->value)->kind, WL_OP_WAKE);
			CHECK_EQ(wl_wake(wl, op_of(wl, y, o->value)->arg)->target,
				 task_of(wl, 33, 0));
		}
		CHECK_EQ(waits, (uint32_t)on);
		CHECK_EQ(note_value(wl, "after it woke others"), (uint64_t)on);
		wl_free(wl);
	}
}

/*
 * One-way hand-offs and readers with several writers.  Writer 30 (CPU 0)
 * hands off to reader 31 three times; once it sleeps 30 us after a write to
 * 32 and 31 wakes it (a full pipe's writer woken by another reader): no
 * reply of 31, so 30's waits for 31 are one-way.  Reader 40 (CPU 2) is woken
 * three times each by 41 (CPU 0) and 42 (CPU 1): a channel; reader 50 only
 * by 51: not one.
 */
static void test_oneway_channel(void)
{
	struct wl_workload *wl;
	uint32_t x, r, q, waits = 0;

	start();
	feed(ev_runtime(1 * MS, 0, 30, 1000));
	for (int k = 0; k < 3; k++) {
		uint64_t t = (uint64_t)(2 + k) * MS;

		feed(ev_wake(TRACE_EV_SCHED_WAKING, t, 0, 30, 0, 31, 120, 0));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, t, 0, 30, 0, 31, 120, 0));
		feed(ev_switch(t + 2 * US, 0, 30, 'R', 120, 31, 120));
		feed(ev_switch(t + 10 * US, 0, 31, 'S', 120, 30, 120));
	}
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 6 * MS, 0, 30, 0, 32, 120, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 6 * MS, 0, 30, 0, 32, 120, 1));
	feed(ev_switch(6 * MS + 30 * US, 0, 30, 'S', 120, 31, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 6 * MS + 40 * US, 0, 31, 0, 30, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 6 * MS + 40 * US, 0, 31, 0, 30, 120, 0));
	feed(ev_switch(6 * MS + 45 * US, 0, 31, 'S', 120, 30, 120));
	wl = finish();
	x = task_of(wl, 30, 0);
	r = task_of(wl, 31, 0);
	for (uint32_t k = 0; k < wl_task(wl, x)->nr_ops; k++)
		if (op_of(wl, x, k)->kind == WL_OP_WAIT && op_of(wl, x, k)->arg == r) {
			CHECK_EQ(op_of(wl, x, k)->aux, WL_WAIT_ONEWAY);
			waits++;
		}
	CHECK_EQ(waits, 3);
	/* 31 has one writer, 30 two wakers that woke it once each: no channel */
	for (uint32_t w = 0; w < wl_nr_wakes(wl); w++)
		CHECK(!(wl_wake(wl, w)->flags & WL_WAKE_CHANNEL));
	wl_free(wl);

	start();
	feed(ev_runtime(1 * MS, 0, 41, 1000));
	feed(ev_runtime(1 * MS, 1, 42, 1000));
	feed(ev_runtime(1 * MS, 3, 51, 1000));
	for (int k = 0; k < 4; k++) {
		uint64_t t = (uint64_t)(2 + k) * MS;

		if (k < 3) {
			feed(ev_wake(TRACE_EV_SCHED_WAKING, t, 0, 41, 0, 40, 120, 2));
			feed(ev_wake(TRACE_EV_SCHED_WAKEUP, t, 0, 41, 0, 40, 120, 2));
			feed(ev_switch(t + 5 * US, 2, 0, 'R', 120, 40, 120));
			feed(ev_switch(t + 10 * US, 2, 40, 'S', 120, 0, 120));
		}
		feed(ev_wake(TRACE_EV_SCHED_WAKING, t + 100 * US, 3, 51, 0, 50, 120, 3));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, t + 100 * US, 3, 51, 0, 50, 120, 3));
		feed(ev_switch(t + 102 * US, 3, 51, 'R', 120, 50, 120));
		feed(ev_switch(t + 110 * US, 3, 50, 'S', 120, 51, 120));
		if (k < 3) {
			feed(ev_wake(TRACE_EV_SCHED_WAKING, t + 500 * US, 1, 42, 0, 40, 120, 2));
			feed(ev_wake(TRACE_EV_SCHED_WAKEUP, t + 500 * US, 1, 42, 0, 40, 120, 2));
			feed(ev_switch(t + 505 * US, 2, 0, 'R', 120, 40, 120));
			feed(ev_switch(t + 510 * US, 2, 40, 'S', 120, 0, 120));
		}
	}
	wl = finish();
	r = task_of(wl, 40, 0);
	q = task_of(wl, 50, 0);
	{
		unsigned int chan = 0, other = 0;

		for (uint32_t w = 0; w < wl_nr_wakes(wl); w++) {
			const struct wl_wake *wk = wl_wake(wl, w);

			if (wk->target == r && (wk->flags & WL_WAKE_CHANNEL))
				chan++;
			if (wk->target == q && (wk->flags & WL_WAKE_CHANNEL))
				other++;
		}
		/* all six of 41's and 42's (the first ends 40's sleep from before the trace) */
		CHECK_EQ(chan, 6);
		CHECK_EQ(other, 0);
	}
	wl_free(wl);
}

/*
 * Timing facts: 25 blocking switches each 1 us after the task's own
 * sched_stat_runtime (the clock read of __schedule), 25 tick preemptions
 * 8 us after the tick's sched_stat_runtime.
 */
static void test_timing(void)
{
	struct wl_workload *wl;
	uint64_t t = 1 * MS;

	start();
	feed(ev_switch(t, 0, 0, 'R', 120, 40, 120));
	for (int i = 0; i < 25; i++) {
		t += 100 * US;
		feed(ev_runtime(t, 0, 40, 100 * US));
		feed(ev_switch(t + 1 * US, 0, 40, 'S', 120, 41, 120));
		feed(ev_wake(TRACE_EV_SCHED_WAKING, t + 50 * US, 0, 41, 0, 40, 120, 0));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, t + 50 * US, 0, 41, 0, 40, 120, 0));
		feed(ev_switch(t + 60 * US, 0, 41, 'S', 120, 40, 120));
		t += 4 * MS;
		feed(ev_runtime(t, 0, 40, 4 * MS));               /* the tick */
		feed(ev_runtime(t + 8 * US, 0, 40, 8 * US));      /* put_prev */
		feed(ev_switch(t + 8 * US, 0, 40, 'R', 120, 42, 120));
		feed(ev_switch(t + 20 * US, 0, 42, 'S', 120, 40, 120));
	}
	wl = finish();
	CHECK_EQ(wl_facts(wl)->switch_lead_samples, 25);
	CHECK_EQ(wl_facts(wl)->switch_lead_ns, 1025);       /* the 50 ns bucket of 1 us */
	CHECK_EQ(wl_facts(wl)->tick_switch_samples, 25);
	CHECK_EQ(wl_facts(wl)->tick_switch_ns, 8125);       /* the 250 ns bucket of 8 us */
	wl_free(wl);
}

/*
 * At 2 ms the stopper (pid 60, RT) preempts task 50 on CPU 0, moves it to
 * CPU 1 (its sched_migrate_task in the stopper's context) and sleeps; 50 runs
 * on CPU 1 from 2.02 ms (feed_stopper_move(): to 3 ms).
 */
static void feed_stopper_moved(void)
{
	struct trace_event e;

	feed(ev_switch(2 * MS, 0, 50, 'R', 120, 60, 0));
	e = ev_migrate(2 * MS + 5 * US, 0, 50, 0, 1);
	e.common_pid = 60;
	feed(e);
	feed(ev_switch(2 * MS + 10 * US, 0, 60, 'S', 0, 0, 120));
	feed(ev_switch(2 * MS + 20 * US, 1, 0, 'R', 120, 50, 120));
}

static void feed_stopper_move(void)
{
	feed_stopper_moved();
	feed(ev_switch(3 * MS, 1, 50, 'S', 120, 0, 120));
}

/* 50 on CPU 0 wakes the stopper 60 there 4 us before its switch (sched_exec()) */
static void feed_stopper_wake(void)
{
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS - 4 * US, 0, 50, 0, 60, 0, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS - 3 * US, 0, 50, 0, 60, 0, 0));
}

/*
 * Exec balancing: the stopper (RT, prio 0) preempts 50 on CPU 0 and moves
 * it to CPU 1.  The move is an op of 50 and the stopper's interval is tied
 * to it; no timed migration.
 */
static void test_self_migrate(void)
{
	struct wl_workload *wl;
	uint32_t t50, stop;
	unsigned int tied = 0;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	feed_stopper_move();
	wl = finish();
	t50 = task_of(wl, 50, 0);
	stop = task_of(wl, 60, 0);
	CHECK_EQ(op_of(wl, t50, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, t50, 1)->kind, WL_OP_MIGRATE);
	CHECK_EQ(op_of(wl, t50, 1)->arg, 1);
	CHECK_EQ(op_of(wl, t50, 1)->value, stop);
	CHECK_EQ(op_of(wl, t50, 2)->kind, WL_OP_RUN);
	for (uint32_t i = 0; i < wl_nr_timed(wl); i++) {
		const struct wl_timed *tm = wl_timed_at(wl, i);

		CHECK(tm->kind != WL_T_MIGRATE);
		if ((tm->kind == WL_T_OTHER_IN || tm->kind == WL_T_OTHER_OUT) && tm->task == stop) {
			CHECK(tm->aux & WL_T_TIED);
			tied++;
		}
	}
	CHECK_EQ(tied, 2);
	CHECK(!wl_task(wl, t50)->running_at_end);
	wl_free(wl);
}

/*
 * wl_options.exec_marks (--exec-balance-at traced): each exec's sched_exec()
 * point.  50's exec on CPU 1 at 2.12 ms follows the kernel's stopper move
 * (50 woke migration/0 at 1.996 ms): its mark goes before the WAKE_OTHER,
 * and the lead is the 104 us of work from there (4 us to the switch, 100 us
 * on CPU 1).  70 runs on CPU 0 from 3 ms and execs 300 us in, unmoved: the
 * mark 104 us before its exec, its RUN cut in two.  80 execs 50 us into its
 * first run: the mark at the start of its stretch.  Without the option: the
 * lead measured, no marks.
 */
static void test_exec_marks(void)
{
	for (int marks = 0; marks < 2; marks++) {
		struct wl_options o = { .exec_marks = marks };
		struct wl_workload *wl;
		const struct wl_facts *f;
		uint32_t t50, t70, t80;

		start_opts(&o);
		feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
		feed(ev_switch(1 * MS, 1, 0, 'R', 120, 80, 120));
		feed(ev_exec(1 * MS + 50 * US, 1, 80, "/bin/true"));
		feed(ev_switch(1 * MS + 60 * US, 1, 80, 'S', 120, 0, 120));
		feed_stopper_wake();
		feed_stopper_moved();
		feed(ev_exec(2 * MS + 120 * US, 1, 50, "/bin/true"));
		feed(ev_switch(3 * MS, 1, 50, 'S', 120, 0, 120));
		feed(ev_switch(3 * MS, 0, 0, 'R', 120, 70, 120));
		feed(ev_exec(3 * MS + 300 * US, 0, 70, "/bin/true"));
		feed(ev_switch(4 * MS, 0, 70, 'S', 120, 0, 120));
		wl = finish();
		f = wl_facts(wl);
		CHECK_EQ(f->exec_lead_ns, 104 * US);
		CHECK_EQ(f->exec_lead_samples, 1);
		CHECK_EQ(f->exec_marks_traced, (unsigned)marks);
		CHECK_EQ(f->exec_marks_lead, 2u * (unsigned)marks);
		CHECK_EQ(f->exec_marks_at_exec, 0);
		t50 = task_of(wl, 50, 0);
		t70 = task_of(wl, 70, 0);
		t80 = task_of(wl, 80, 0);
		for (uint32_t t = 0; getenv("SR_TEST_DUMP") && t < wl_nr_tasks(wl); t++)
			for (uint32_t k = 0; k < wl_task(wl, t)->nr_ops; k++)
				fprintf(stderr, "%d %u: %u %u %" PRIu64 "\n", wl_task(wl, t)->pid, k,
					op_of(wl, t, k)->kind, op_of(wl, t, k)->aux,
					op_of(wl, t, k)->value);
		if (!marks) {
			for (uint32_t t = 0; t < wl_nr_tasks(wl); t++)
				for (uint32_t k = 0; k < wl_task(wl, t)->nr_ops; k++)
					CHECK(op_of(wl, t, k)->kind != WL_OP_EXEC_BALANCE);
			wl_free(wl);
			continue;
		}
		CHECK_EQ(op_of(wl, t50, 0)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, t50, 0)->value, 996 * US);
		CHECK_EQ(op_of(wl, t50, 1)->kind, WL_OP_EXEC_BALANCE);
		CHECK_EQ(op_of(wl, t50, 1)->aux, WL_EXEC_AT_STOPPER);
		CHECK_EQ(op_of(wl, t50, 2)->kind, WL_OP_WAKE_OTHER);
		CHECK_EQ(op_of(wl, t50, 4)->kind, WL_OP_MIGRATE);
		CHECK_EQ(op_of(wl, t50, 5)->value, 100 * US);
		CHECK_EQ(op_of(wl, t50, 6)->kind, WL_OP_COMM);
		CHECK_EQ(op_of(wl, t70, 0)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, t70, 0)->value, 196 * US);
		CHECK_EQ(op_of(wl, t70, 1)->kind, WL_OP_EXEC_BALANCE);
		CHECK_EQ(op_of(wl, t70, 1)->aux, WL_EXEC_AT_LEAD);
		CHECK_EQ(op_of(wl, t70, 2)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, t70, 2)->value, 104 * US);
		CHECK_EQ(op_of(wl, t70, 3)->kind, WL_OP_COMM);
		CHECK_EQ(op_of(wl, t80, 0)->kind, WL_OP_EXEC_BALANCE);
		CHECK_EQ(op_of(wl, t80, 1)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, t80, 1)->value, 50 * US);
		CHECK_EQ(op_of(wl, t80, 2)->kind, WL_OP_COMM);
		wl_free(wl);
	}
}

/*
 * The same with the stopper woken by 50 itself on its CPU (sched_exec() ->
 * stop_one_cpu()): the waking and wakeup go to that point of 50's work (its
 * RUN cut 4 us before the switch, where it woke the stopper), not to their
 * trace times, so they stay next to the stopper's interval.
 */
static void test_self_migrate_wake(void)
{
	struct wl_workload *wl;
	uint32_t t50, stop;
	unsigned int tied = 0;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	feed_stopper_wake();
	feed_stopper_move();
	wl = finish();
	t50 = task_of(wl, 50, 0);
	stop = task_of(wl, 60, 0);
	CHECK_EQ(op_of(wl, t50, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, t50, 0)->value, 996 * US);
	CHECK_EQ(op_of(wl, t50, 1)->kind, WL_OP_WAKE_OTHER);
	CHECK_EQ(op_of(wl, t50, 1)->arg, stop);
	CHECK_EQ(op_of(wl, t50, 1)->value, 3);
	CHECK_EQ(op_of(wl, t50, 2)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, t50, 2)->value, 4 * US);
	CHECK_EQ(op_of(wl, t50, 3)->kind, WL_OP_MIGRATE);
	CHECK_EQ(op_of(wl, t50, 3)->arg, 1);
	CHECK_EQ(op_of(wl, t50, 3)->value, stop);
	CHECK_EQ(op_of(wl, t50, 4)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, t50, 4)->value, 980 * US);
	for (uint32_t i = 0; i < wl_nr_timed(wl); i++) {
		const struct wl_timed *tm = wl_timed_at(wl, i);

		if (tm->kind == WL_T_OTHER_WAKE && tm->task == stop) {
			CHECK(tm->arg & WL_T_WAKE_TIED);
			tied++;
		}
	}
	CHECK_EQ(tied, 2);
	wl_free(wl);
}

/*
 * do_exit()'s sched_move_task(): the exiting task's first sched_stat_runtime
 * after sched_process_exit places an EXIT_MOVE there (its RUN is cut at it);
 * CPU 1's idle intervals: a traced switch to idle until the next event in a
 * task's context (an untraced idle exit), and multi_cpu / prev_cpu.
 */
static void test_exit_move_idle(void)
{
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t t, cur = 0, cur1 = 0;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 51, 120));
	feed(ev_switch(2 * MS, 1, 51, 'S', 120, 0, 120));        /* CPU 1 idle from 2 ms */
	e = ev_base(TRACE_EV_SCHED_PROCESS_EXIT, 3 * MS, 0, 50);
	e.u.exit.pid = 50;
	feed(e);
	feed(ev_runtime(3 * MS + 60 * US, 0, 50, 2 * MS));       /* the move's update_curr */
	feed(ev_runtime(3 * MS + 68 * US, 0, 50, 8 * US));       /* the final dequeue's */
	feed(ev_switch(3 * MS + 70 * US, 0, 50, 'X', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 4 * MS, 0, 0, 0, 51, 120, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 4 * MS + 1000, 0, 0, 0, 51, 120, 0));
	/* 51 runs on CPU 0 (a different CPU): its first event there, no switch-in */
	feed(ev_runtime(5 * MS, 0, 51, 100 * US));
	feed(ev_switch(6 * MS, 1, 0, 'R', 120, 52, 120));        /* a traced exit at 6 ms */
	wl = finish();
	t = task_of(wl, 50, 0);
	CHECK_EQ(wl_task(wl, t)->nr_ops, 4);
	CHECK_EQ(op_of(wl, t, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, t, 0)->value, 2 * MS + 60 * US);
	CHECK_EQ(op_of(wl, t, 1)->kind, WL_OP_EXIT_MOVE);
	CHECK_EQ(op_of(wl, t, 2)->value, 10 * US);
	CHECK_EQ(op_of(wl, t, 3)->kind, WL_OP_EXIT);
	CHECK(!wl_task(wl, t)->multi_cpu);
	t = task_of(wl, 51, 0);
	CHECK(wl_task(wl, t)->multi_cpu);
	CHECK_EQ(wl_wake(wl, wl_task(wl, t)->init_wake != WL_NONE ? wl_task(wl, t)->init_wake : 0)->prev_cpu, 1);
	CHECK(!wl_cpu_idle_at(wl, 1, 1 * MS + 500 * US, &cur1));
	CHECK(wl_cpu_idle_at(wl, 1, 2 * MS + 1, &cur1));
	CHECK(wl_cpu_idle_at(wl, 1, 5 * MS, &cur1));
	CHECK(!wl_cpu_idle_at(wl, 1, 6 * MS, &cur1));
	CHECK(!wl_cpu_idle_at(wl, 0, 3 * MS, &cur));
	CHECK(wl_cpu_idle_at(wl, 0, 3 * MS + 80 * US, &cur));
	CHECK(!wl_cpu_idle_at(wl, 0, 5 * MS, &cur));
	/* the same answers in any order (binary search) */
	CHECK(!wl_cpu_idle_at_any(wl, 0, 5 * MS));
	CHECK(wl_cpu_idle_at_any(wl, 1, 5 * MS));
	CHECK(!wl_cpu_idle_at_any(wl, 1, 1 * MS + 500 * US));
	CHECK(wl_cpu_idle_at_any(wl, 0, 3 * MS + 80 * US));
	CHECK(!wl_cpu_idle_at_any(wl, 1, 6 * MS));
	CHECK(wl_cpu_idle_at_any(wl, 1, 2 * MS + 1));
	CHECK(!wl_cpu_idle_at_any(wl, 0, 3 * MS));
	CHECK(!wl_cpu_idle_at_any(wl, 2, 5 * MS));            /* no such CPU */
	CHECK(!wl_cpu_idle_at_any(wl, -1, 5 * MS));
	wl_free(wl);
}

/* The measured side's record of @pid (the latency machine the extraction feeds). */
static const struct lat_task *measured_task(const struct wl_workload *wl, int pid)
{
	const struct lat_machine *m = wl_measured_latency(wl);

	for (size_t i = 0; i < lat_nr_tasks(m); i++)
		if (lat_task_at(m, i)->pid == pid)
			return lat_task_at(m, i);
	return NULL;
}

/*
 * A switch to idle the kernel did not trace: 20 is switched in on CPU 0 at
 * 1 ms, charged 200 us at 1.2 ms, and the next switch there, at 20 ms, is out
 * of idle (to 21).  A CPU goes idle only with nothing runnable, so 20 blocked
 * at its last event (1.2 ms), not ran 19 ms and was preempted; the hardirq
 * wake at 30 ms ends that block.
 */
static void test_lost_idle_switch(void)
{
	struct wl_workload *wl;
	uint32_t t;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 20, 120));
	feed(ev_runtime(1 * MS + 200 * US, 0, 20, 200 * US));
	feed(ev_switch(20 * MS, 0, 0, 'R', 120, 21, 120));       /* 20 -> idle not traced */
	feed(ev_switch(21 * MS, 0, 21, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 30 * MS, 0, 0, HARDIRQ, 20, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 30 * MS + 500, 0, 0, HARDIRQ, 20, 120, 0));
	feed(ev_switch(30 * MS + 10 * US, 0, 0, 'R', 120, 20, 120));
	feed(ev_switch(31 * MS, 0, 20, 'S', 120, 0, 120));
	wl = finish();

	t = task_of(wl, 20, 0);
	CHECK(t != WL_NONE);
	CHECK_EQ(wl_task(wl, t)->nr_ops, 4);
	CHECK_EQ(op_of(wl, t, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, t, 0)->value, 200 * US);     /* not 19 ms */
	CHECK_EQ(op_of(wl, t, 1)->kind, WL_OP_BLOCK);
	CHECK_EQ(op_of(wl, t, 1)->value, 1);            /* assumed "S" */
	CHECK(op_of(wl, t, 1)->arg != WL_NONE);         /* ended by the 30 ms wake */
	if (op_of(wl, t, 1)->arg != WL_NONE) {
		const struct wl_wake *w = wl_wake(wl, op_of(wl, t, 1)->arg);

		CHECK_EQ(w->src, WL_SRC_HARDIRQ);
		CHECK_EQ(w->ts, 30 * MS);
		CHECK_EQ(w->path, WL_PATH_IDLE);
		CHECK_EQ(w->latency, 10 * US);
	}
	CHECK_EQ(op_of(wl, t, 2)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, t, 2)->value, 990 * US);
	CHECK_EQ(op_of(wl, t, 3)->kind, WL_OP_BLOCK);
	CHECK_EQ(wl_counts(wl)->sched_switch, 5);       /* the traced ones only */
	/* the measured side's run time agrees: 200 us + 990 us, not 19.99 ms */
	CHECK(measured_task(wl, 20) != NULL);
	if (measured_task(wl, 20))
		CHECK_EQ(measured_task(wl, 20)->runtime_ns, 200 * US + 990 * US);
	CHECK_EQ(lat_get_summary(wl_measured_latency(wl))->lost_switches[LAT_LOST_IDLE], 1);
	wl_free(wl);
}

/*
 * The same untraced switch to idle after 20's exit and its EXIT_MOVE's
 * charge (1.1 and 1.2 ms): that switch was its last ("X"), not a sleep -
 * the move stays where it was, and 20 exits there (review of 2 Dec 2026:
 * it was written "S", the move retracted, the task left blocked for good).
 */
static void test_lost_idle_switch_exited(void)
{
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t t, n;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 20, 120));
	e = ev_base(TRACE_EV_SCHED_PROCESS_EXIT, 1 * MS + 100 * US, 0, 20);
	e.u.exit.pid = 20;
	feed(e);
	feed(ev_runtime(1 * MS + 200 * US, 0, 20, 200 * US));
	feed(ev_switch(20 * MS, 0, 0, 'R', 120, 21, 120));       /* 20 -> idle not traced */
	feed(ev_switch(21 * MS, 0, 21, 'S', 120, 0, 120));
	wl = finish();

	t = task_of(wl, 20, 0);
	CHECK(t != WL_NONE);
	if (t == WL_NONE) {
		wl_free(wl);
		return;
	}
	n = wl_task(wl, t)->nr_ops;
	CHECK(n >= 3);
	if (n >= 3) {
		CHECK_EQ(op_of(wl, t, 0)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, t, 1)->kind, WL_OP_EXIT_MOVE);
		CHECK_EQ(op_of(wl, t, n - 1)->kind, WL_OP_EXIT);
	}
	for (uint32_t i = 0; i < n; i++)
		CHECK(op_of(wl, t, i)->kind != WL_OP_BLOCK);
	CHECK_EQ(note_value(wl, "their exit's autogroup move"), 0);
	wl_free(wl);
}

/*
 * The same untraced switch to idle, seen by wakes in the window (two runs):
 * (a) 30 on CPU 1 wakes 20 at 5 ms, when the builder still takes 20 to run
 * on CPU 0; the sched_wakeup in CPU 0's idle context reveals the switch: the
 * wake ends 20's block (not a race wake of a running task) and is an
 * idle-path sample of 20 us.  (b) 30 wakes 21 onto CPU 0 at 3 ms, in the
 * window; 21's switch-in out of idle reveals it: also the idle path (30 us),
 * not "queued behind 20".
 */
static void lost_idle_window(bool a)
{
	struct wl_workload *wl;
	uint32_t t20, t30, nwakes = 0;

	start();
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 30, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 20, 120));
	feed(ev_runtime(1 * MS + 200 * US, 0, 20, 200 * US));
	if (a) {
		feed(ev_wake(TRACE_EV_SCHED_WAKING, 5 * MS, 1, 30, 0, 20, 120, 0));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * MS + 2 * US, 0, 0, 0, 20, 120, 0));
		feed(ev_switch(5 * MS + 20 * US, 0, 0, 'R', 120, 20, 120));
		feed(ev_switch(6 * MS, 0, 20, 'S', 120, 0, 120));
	} else {
		feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS, 1, 30, 0, 21, 120, 0));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 1 * US, 1, 30, 0, 21, 120, 0));
		feed(ev_switch(3 * MS + 30 * US, 0, 0, 'R', 120, 21, 120));
		feed(ev_switch(4 * MS, 0, 21, 'S', 120, 0, 120));
	}
	wl = finish();

	t20 = task_of(wl, 20, 0);
	t30 = task_of(wl, 30, 0);
	CHECK(t20 != WL_NONE && t30 != WL_NONE);
	CHECK_EQ(op_of(wl, t20, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, t20, 0)->value, 200 * US);
	CHECK_EQ(op_of(wl, t20, 1)->kind, WL_OP_BLOCK);
	for (uint32_t k = 0; k < wl_task(wl, t30)->nr_ops; k++) {
		const struct wl_wake *w;

		if (op_of(wl, t30, k)->kind != WL_OP_WAKE)
			continue;
		w = wl_wake(wl, op_of(wl, t30, k)->arg);
		nwakes++;
		CHECK_EQ(w->flags & (WL_WAKE_ON_CPU | WL_WAKE_ENDS_BLOCK), WL_WAKE_ENDS_BLOCK);
		CHECK_EQ(w->path, WL_PATH_IDLE);
		CHECK_EQ(w->target, a ? t20 : task_of(wl, 21, 0));
		CHECK_EQ(w->latency, a ? 20 * US : 30 * US);
		if (a)
			CHECK_EQ(op_of(wl, t20, 1)->arg, op_of(wl, t30, k)->arg);
	}
	CHECK_EQ(nwakes, 1);
	/* (a) the measured side: that waking's interval, 20 us, too */
	CHECK(measured_task(wl, 20) != NULL);
	if (measured_task(wl, 20)) {
		CHECK_EQ(measured_task(wl, 20)->lat[LAT_WAKEUP].count, a ? 1 : 0);
		CHECK_EQ(measured_task(wl, 20)->lat[LAT_WAKEUP].max, a ? 20 * US : 0);
		CHECK_EQ(measured_task(wl, 20)->runtime_ns, a ? 200 * US + 980 * US : 200 * US);
	}
	CHECK_EQ(lat_get_summary(wl_measured_latency(wl))->lost_switch_wakings, a ? 1 : 0);
	wl_free(wl);
}

static void test_lost_idle_switch_wakes(void)
{
	lost_idle_window(true);
	lost_idle_window(false);
}

/*
 * The untraced switch of 20 revealed by 20 on the other CPU, before CPU 0 is
 * seen again (three runs): 20 is switched in on CPU 0 at 1 ms and charged
 * 200 us at 1.2 ms, its last event there; at 5 ms, on CPU 1, (woken) 30
 * wakes it onto CPU 1 (sched_waking at 5 ms, sched_wakeup at 5.002 ms) and
 * it is switched in there at 5.010 ms; (switched_in) it is switched in on
 * CPU 1 at 5.010 ms with no wake; (migrated) sched_migrate_task moves it
 * from CPU 0 to CPU 1 at 5 ms (no waking: it was queued) and it is switched
 * in there at 5.010 ms.  It runs 990 us on CPU 1 and sleeps.  20 left CPU 0
 * at 1.2 ms: blocked (preempted when migrated), not ran 3.8 ms more there;
 * the extraction and the measured side agree on its run time (1.19 ms) and
 * on the wake's interval (10 us from the sched_waking).
 */
enum elsewhere { WOKEN, SWITCHED_IN, MIGRATED };

static void lost_switch_elsewhere(enum elsewhere how)
{
	const struct lat_summary *sum;
	const struct lat_task *mt;
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t t20, t30;

	start();
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 30, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 20, 120));
	feed(ev_runtime(1 * MS + 200 * US, 0, 20, 200 * US));
	if (how == WOKEN) {
		feed(ev_wake(TRACE_EV_SCHED_WAKING, 5 * MS, 1, 30, 0, 20, 120, 0));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * MS + 2 * US, 1, 30, 0, 20, 120, 1));
	} else if (how == MIGRATED) {
		e = ev_migrate(5 * MS, 1, 20, 0, 1);
		e.common_pid = 30;
		feed(e);
	}
	feed(ev_switch(5 * MS + 10 * US, 1, 30, 'R', 120, 20, 120));
	feed(ev_switch(6 * MS, 1, 20, 'S', 120, 30, 120));
	wl = finish();

	t20 = task_of(wl, 20, 0);
	t30 = task_of(wl, 30, 0);
	CHECK(t20 != WL_NONE && t30 != WL_NONE);
	CHECK_EQ(op_of(wl, t20, 0)->kind, WL_OP_RUN);
	if (how == MIGRATED) {
		/* preempted at 1.2 ms, moved, ran on: one RUN of 1.19 ms, not 4.8 ms */
		CHECK_EQ(wl_task(wl, t20)->nr_ops, 2);
		CHECK_EQ(op_of(wl, t20, 0)->value, 200 * US + 990 * US);
		CHECK_EQ(op_of(wl, t20, 1)->kind, WL_OP_BLOCK);
	} else {
		const struct wl_wake *w;

		CHECK_EQ(wl_task(wl, t20)->nr_ops, 4);
		CHECK_EQ(op_of(wl, t20, 0)->value, 200 * US);   /* not 4.01 ms */
		CHECK_EQ(op_of(wl, t20, 1)->kind, WL_OP_BLOCK);
		CHECK_EQ(op_of(wl, t20, 1)->value, 1);           /* assumed "S" */
		CHECK(op_of(wl, t20, 1)->arg != WL_NONE);
		w = wl_wake(wl, op_of(wl, t20, 1)->arg != WL_NONE ? op_of(wl, t20, 1)->arg : 0);
		CHECK_EQ(w->ts, how == WOKEN ? 5 * MS : 5 * MS + 10 * US);
		CHECK_EQ(w->cpu, 1);
		CHECK_EQ(w->flags & (WL_WAKE_ON_CPU | WL_WAKE_ENDS_BLOCK | WL_WAKE_SPURIOUS),
			 WL_WAKE_ENDS_BLOCK);
		CHECK_EQ(w->waker, how == WOKEN ? t30 : WL_NONE);
		CHECK_EQ(w->latency, how == WOKEN ? 10 * US : 0);
		CHECK_EQ(op_of(wl, t20, 2)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, t20, 2)->value, 990 * US);
		CHECK_EQ(op_of(wl, t20, 3)->kind, WL_OP_BLOCK);
	}
	CHECK(!wl_cpu_idle_at(wl, 0, 3 * MS, &(uint32_t){ 0 }));  /* not seen idle */
	/* the measured side: the same run, the wake's interval */
	mt = measured_task(wl, 20);
	CHECK(mt != NULL);
	if (mt) {
		CHECK_EQ(mt->runtime_ns, 200 * US + 990 * US);
		CHECK_EQ(mt->lat[LAT_WAKEUP].count, how == WOKEN ? 1 : 0);
		CHECK_EQ(mt->lat[LAT_RUNQ_WAIT].count, how == MIGRATED ? 1 : 0);
		CHECK_EQ(mt->wakings_running, 0);
		if (how == WOKEN)
			CHECK_EQ(mt->lat[LAT_WAKEUP].max, 10 * US);
		if (how == MIGRATED)
			CHECK_EQ(mt->lat[LAT_RUNQ_WAIT].max, 3 * MS + 810 * US);
	}
	sum = lat_get_summary(wl_measured_latency(wl));
	CHECK_EQ(sum->lost_switches[LAT_LOST_IDLE], 0);
	CHECK_EQ(sum->lost_switches[how == WOKEN ? LAT_LOST_WOKEN : how == SWITCHED_IN ?
				    LAT_LOST_SWITCHED_IN : LAT_LOST_MIGRATED], 1);
	CHECK_EQ(sum->lost_switch_wakings, how == WOKEN ? 1 : 0);
	wl_free(wl);
}

static void test_lost_switch_elsewhere(void)
{
	lost_switch_elsewhere(WOKEN);
	lost_switch_elsewhere(SWITCHED_IN);
	lost_switch_elsewhere(MIGRATED);
}

/*
 * A sched_stat_runtime of 20 written on CPU 1 (a remote update_curr() of
 * CPU 0's runqueue, in 30's context) at 3 ms proves 20 still ran on CPU 0
 * then: when CPU 0 leaves idle at 20 ms, 20's untraced switch to idle is put
 * there, not at its last event on CPU 0 (1.2 ms).  Run 2 ms, both sides.
 */
static void test_lost_switch_remote_stat(void)
{
	const struct lat_task *mt;
	struct wl_workload *wl;
	struct trace_event e;
	uint32_t t;

	start();
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 30, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 20, 120));
	feed(ev_runtime(1 * MS + 200 * US, 0, 20, 200 * US));
	e = ev_runtime(3 * MS, 1, 20, 1800 * US);
	e.common_pid = 30;
	feed(e);
	feed(ev_switch(20 * MS, 0, 0, 'R', 120, 21, 120));       /* 20 -> idle not traced */
	feed(ev_switch(21 * MS, 0, 21, 'S', 120, 0, 120));
	wl = finish();

	t = task_of(wl, 20, 0);
	CHECK(t != WL_NONE);
	CHECK_EQ(wl_task(wl, t)->nr_ops, 2);
	CHECK_EQ(op_of(wl, t, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, t, 0)->value, 2 * MS);      /* 1 ms .. 3 ms, not 1.2 ms */
	CHECK_EQ(op_of(wl, t, 1)->kind, WL_OP_BLOCK);
	CHECK(wl_cpu_idle_at(wl, 0, 3 * MS + 1, &(uint32_t){ 0 }));
	mt = measured_task(wl, 20);
	CHECK(mt != NULL);
	if (mt)
		CHECK_EQ(mt->runtime_ns, 2 * MS);
	CHECK_EQ(lat_get_summary(wl_measured_latency(wl))->lost_switches[LAT_LOST_IDLE], 1);
	CHECK_EQ(lat_get_summary(wl_measured_latency(wl))->lost_switches_remote, 1);
	wl_free(wl);
}

/*
 * The untraced switch of 20 revealed by another task's event on its CPU
 * (four runs): 20 is switched in on CPU 0 at 1 ms and charged 200 us at
 * 1.2 ms, its last event there; then, with no switch out of 20 traced,
 * (preempted) 21's sched_stat_runtime of 500 us at 2 ms on CPU 0 in its
 * context: 21 ran from 1.5 ms, so 20 left at 1.5 ms; 21 switches 20 back
 * in at 3 ms with no wake of 20 in between, so 20 had been preempted (a
 * run-queue wait of 1.5 ms); (woken) 21 wakes 31 at 2 ms there and is
 * charged 400 us at 2.1 ms (ran from 1.7 ms); 30 on CPU 1 wakes 20 at 5 ms:
 * 20 had blocked at 1.7 ms; (woken_nostamp) the same without 21's charge:
 * 20 left at its last event, 1.2 ms; (switch) the first event of 21 there
 * is its switch to 20 at 3 ms: left at 1.2 ms, preempted; (preempted_remote)
 * as preempted, but 21's 500 us are charged in two: 300 us at 1.8 ms by a
 * remote update_curr() written on CPU 1 (30 wakes a task onto CPU 0), then
 * 200 us at 2 ms in its context: 21's exec_start is still 1.5 ms, not
 * 1.8 ms; (woken_same) 30 wakes 20 onto CPU 0 itself at 2 ms (sched_waking
 * 2 ms, sched_wakeup 2.002 ms), then 21 is charged 700 us at 2.1 ms there
 * and switches 20 in at 3 ms (prev R): 20 had blocked (the waking came
 * after its last event there: decided at once, at 1.2 ms), a 1 ms wakeup,
 * not preempted at 1.4 ms.  Both sides agree on 20's run time and samples;
 * 20 runs 1 ms (0.99 ms when woken from CPU 1) after.
 */
enum other_how { OTHER_PREEMPTED, OTHER_WOKEN, OTHER_WOKEN_NOSTAMP, OTHER_SWITCH,
		 OTHER_PREEMPTED_REMOTE, OTHER_WOKEN_SAME };

static void lost_switch_other(enum other_how how)
{
	bool woken = how == OTHER_WOKEN || how == OTHER_WOKEN_NOSTAMP || how == OTHER_WOKEN_SAME;
	bool preempted = how == OTHER_PREEMPTED || how == OTHER_PREEMPTED_REMOTE;
	uint64_t left = preempted ? 1500 * US : how == OTHER_WOKEN ? 1700 * US : 1200 * US;
	uint64_t wake = how == OTHER_WOKEN_SAME ? 2 * MS : 5 * MS;
	uint64_t back = how == OTHER_WOKEN_SAME ? 3 * MS : woken ? 5 * MS + 10 * US : 3 * MS;
	uint64_t after = woken && how != OTHER_WOKEN_SAME ? 990 * US : 1000 * US;
	struct trace_event e;
	const struct lat_summary *sum;
	const struct lat_task *mt;
	struct wl_workload *wl;
	uint32_t t20, t21;

	start();
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 30, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 20, 120));
	feed(ev_runtime(1 * MS + 200 * US, 0, 20, 200 * US));
	if (how == OTHER_PREEMPTED)
		feed(ev_runtime(2 * MS, 0, 21, 500 * US));
	if (how == OTHER_PREEMPTED_REMOTE) {
		e = ev_runtime(1800 * US, 1, 21, 300 * US);
		e.common_pid = 30;
		feed(e);
		feed(ev_runtime(2 * MS, 0, 21, 200 * US));
	}
	if (how == OTHER_WOKEN_SAME) {
		feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 1, 30, 0, 20, 120, 0));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 2 * US, 1, 30, 0, 20, 120, 0));
		feed(ev_runtime(2 * MS + 100 * US, 0, 21, 700 * US));
	} else if (woken) {
		feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 21, 0, 31, 120, 1));
		if (how == OTHER_WOKEN)
			feed(ev_runtime(2 * MS + 100 * US, 0, 21, 400 * US));
		feed(ev_wake(TRACE_EV_SCHED_WAKING, 5 * MS, 1, 30, 0, 20, 120, 0));
		feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * MS + 2 * US, 1, 30, 0, 20, 120, 0));
	}
	feed(ev_switch(back, 0, 21, woken ? 'R' : 'S', 120, 20, 120));
	feed(ev_switch(back + after, 0, 20, 'S', 120, 0, 120));
	wl = finish();

	t20 = task_of(wl, 20, 0);
	CHECK(t20 != WL_NONE);
	if (t20 == WL_NONE)
		return;
	CHECK_EQ(op_of(wl, t20, 0)->kind, WL_OP_RUN);
	if (!woken) {
		/* preempted at @left, back at 3 ms: one RUN, not 2 ms + 1 ms */
		CHECK_EQ(wl_task(wl, t20)->nr_ops, 2);
		CHECK_EQ(op_of(wl, t20, 0)->value, left - 1 * MS + 1 * MS);
		CHECK_EQ(op_of(wl, t20, 1)->kind, WL_OP_BLOCK);
	} else {
		const struct wl_wake *w;

		CHECK_EQ(wl_task(wl, t20)->nr_ops, 4);
		CHECK_EQ(op_of(wl, t20, 0)->value, left - 1 * MS);
		CHECK_EQ(op_of(wl, t20, 1)->kind, WL_OP_BLOCK);
		CHECK_EQ(op_of(wl, t20, 1)->value, 1);           /* assumed "S" */
		CHECK(op_of(wl, t20, 1)->arg != WL_NONE);
		w = wl_wake(wl, op_of(wl, t20, 1)->arg != WL_NONE ? op_of(wl, t20, 1)->arg : 0);
		CHECK_EQ(w->ts, wake);
		CHECK_EQ(w->flags & (WL_WAKE_ON_CPU | WL_WAKE_ENDS_BLOCK | WL_WAKE_SPURIOUS),
			 WL_WAKE_ENDS_BLOCK);
		CHECK_EQ(w->latency, back - wake);
		CHECK_EQ(op_of(wl, t20, 2)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, t20, 2)->value, after);
		CHECK_EQ(op_of(wl, t20, 3)->kind, WL_OP_BLOCK);
	}
	/*
	 * 21, whose event revealed the switch: where its exec_start stamped
	 * it, its run counts from there (its first op a RUN up to its first
	 * event), else from its first event (until 3 Dec 2026: always)
	 */
	t21 = task_of(wl, 21, 0);
	CHECK(t21 != WL_NONE);
	if (t21 != WL_NONE && preempted) {
		CHECK_EQ(op_of(wl, t21, 0)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, t21, 0)->value, back - left);
		CHECK_EQ(wl_task(wl, t21)->runtime_ns, back - left);
	} else if (t21 != WL_NONE && how == OTHER_WOKEN) {
		CHECK_EQ(op_of(wl, t21, 0)->kind, WL_OP_RUN);
		CHECK_EQ(op_of(wl, t21, 0)->value, 2 * MS - left);
		CHECK_EQ(op_of(wl, t21, 1)->kind, WL_OP_WAKE);
	} else if (t21 != WL_NONE && how == OTHER_WOKEN_NOSTAMP) {
		CHECK_EQ(op_of(wl, t21, 0)->kind, WL_OP_WAKE);
	}
	mt = measured_task(wl, 20);
	CHECK(mt != NULL);
	if (mt) {
		CHECK_EQ(mt->runtime_ns, left - 1 * MS + after);
		CHECK_EQ(mt->preemptions, woken ? 0 : 1);
		CHECK_EQ(mt->lat[LAT_WAKEUP].count, woken ? 1 : 0);
		CHECK_EQ(mt->lat[LAT_RUNQ_WAIT].count, woken ? 0 : 1);
		CHECK_EQ(mt->wakings_running, 0);
		if (woken)
			CHECK_EQ(mt->lat[LAT_WAKEUP].max, back - wake);
		else
			CHECK_EQ(mt->lat[LAT_RUNQ_WAIT].max, 3 * MS - left);
	}
	sum = lat_get_summary(wl_measured_latency(wl));
	CHECK_EQ(sum->lost_switches[LAT_LOST_IDLE], 0);
	CHECK_EQ(sum->lost_switches[LAT_LOST_OTHER], 1);
	CHECK_EQ(sum->lost_switch_stamped, preempted || how == OTHER_WOKEN ? 1 : 0);
	CHECK_EQ(sum->lost_switch_wakings, how == OTHER_WOKEN_SAME ? 1 : 0);
	CHECK_EQ(sum->lost_switch_preempted, woken ? 0 : 1);
	wl_free(wl);
}

/*
 * The latency machine's two feeds agree on an untraced switch's stamp
 * (report reads trace.dat through the typed lat_machine_feed_*(), the
 * workload builder through lat_machine_feed()): 21 runs on CPU 0 from 1 ms,
 * charged 500 us there at 1.5 ms; it then charges 490 us on CPU 1 in its own
 * context at 2 ms (it left CPU 0 untraced, and its switch in on CPU 1 is
 * not traced either), and 20, current on CPU 1 since 1.1 ms, is switched in
 * there at 3 ms.  Its own-context charges on two CPUs are two runs: the
 * chain does not join them, so 20's switch out on CPU 1 is stamped at 21's
 * switch-in there, 2 ms - 490 us.  Before the review of 1 Dec 2026 the
 * builder joined them (stamp 1.1 ms, not stamped) and the typed feed kept
 * no chain at all (1.51 ms, stamped).
 */
static uint64_t chain_stamp;
static int chain_cb(void *ctx, const struct lat_lost_switch *ls)
{
	(void)ctx;
	if (ls->pid == 20)
		chain_stamp = ls->ts;
	return 0;
}

static void test_stat_chain_feeds(void)
{
	struct trace_event ev[5];
	size_t n = 0;

	ev[n++] = ev_switch(1 * MS, 0, 90, 'S', 120, 21, 120);
	ev[n++] = ev_switch(1100 * US, 1, 91, 'S', 120, 20, 120);
	ev[n++] = ev_runtime(1500 * US, 0, 21, 500 * US);
	ev[n++] = ev_runtime(2 * MS, 1, 21, 490 * US);
	ev[n++] = ev_switch(3 * MS, 1, 21, 'R', 120, 20, 120);
	for (int typed = 0; typed <= 1; typed++) {
		struct lat_config cfg;
		struct sr_error err = { 0 };
		struct lat_machine *m;

		lat_config_default(&cfg);
		cfg.infer_lost_switches = true;
		cfg.lost_switch = chain_cb;
		m = lat_machine_new(&cfg, &err);
		CHECK(m != NULL);
		if (!m)
			return;
		chain_stamp = 0;
		for (size_t i = 0; i < n; i++) {
			if (!typed)
				lat_machine_feed(m, &ev[i]);
			else if (ev[i].type == TRACE_EV_SCHED_SWITCH)
				lat_machine_feed_switch(m, &ev[i]);
			else
				lat_machine_feed_stat_runtime(m, &ev[i]);
		}
		lat_machine_finish(m, 4 * MS);
		CHECK_EQ(chain_stamp, 2 * MS - 490 * US);
		CHECK_EQ(lat_get_summary(m)->lost_switch_stamped, 1);
		lat_machine_free(m);
	}
}

static void test_lost_switch_other(void)
{
	lost_switch_other(OTHER_PREEMPTED);
	lost_switch_other(OTHER_WOKEN);
	lost_switch_other(OTHER_WOKEN_NOSTAMP);
	lost_switch_other(OTHER_SWITCH);
	lost_switch_other(OTHER_PREEMPTED_REMOTE);
	lost_switch_other(OTHER_WOKEN_SAME);
}

/*
 * The period grid of a group with a CPU bandwidth limit, from the trace:
 * /lim (20 ms per 100 ms, from a --cgroup-map) has tasks 20 and 21; the
 * boundaries are at 37 ms + k x 100 ms.  In each of 4 periods, 20 waits
 * runnable 85 ms (throttled) and comes back 15 us after the boundary on an
 * idle CPU, 21 waits 82 ms and comes back 2 ms after it (a busy CPU); 20
 * also waits 10 ms (a quarter period or less: not a throttle) and 30 (root
 * group) waits 85 ms: neither counts.  8 samples: circular mean 1.0075 ms
 * after the boundary, 10th percentile of the offsets the 15 us ones: the
 * phase is exactly 37.015 ms (the mean alone would say 38.0075).  Without
 * the quota line nothing is estimated.
 */
static void test_bandwidth_phase(void)
{
	char path[] = "/tmp/sr-bwmap-XXXXXX";
	struct wl_options opt = { 0 };
	struct sr_error err = { 0 };
	struct wl_workload *wl;
	FILE *f;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	fprintf(f, "20 /lim\n21 /lim\nquota /lim 20000 100000\n");
	fclose(f);
	for (int quota = 1; quota >= 0; quota--) {
		if (!quota) {
			f = fopen(path, "w");
			fprintf(f, "20 /lim\n21 /lim\n");
			fclose(f);
		}
		opt.cgroup_map = path;
		B = wl_builder_new(NULL, NULL, &opt, &err);
		CHECK(B != NULL);
		if (!B)
			break;
		feed(ev_switch(1 * MS, 0, 0, 'R', 120, 20, 120));
		feed(ev_switch(1 * MS, 1, 0, 'R', 120, 21, 120));
		feed(ev_switch(1 * MS, 2, 0, 'R', 120, 30, 120));
		for (uint64_t k = 1; k <= 4; k++) {
			uint64_t b = 37 * MS + k * 100 * MS;

			feed(ev_switch(b - 85 * MS, 0, 20, 'R', 120, 0, 120));
			feed(ev_switch(b - 85 * MS, 2, 30, 'R', 120, 0, 120));
			feed(ev_switch(b - 82 * MS, 1, 21, 'R', 120, 0, 120));
			feed(ev_switch(b + 15 * US, 0, 0, 'R', 120, 20, 120));
			feed(ev_switch(b + 15 * US, 2, 0, 'R', 120, 30, 120));
			feed(ev_switch(b + 2 * MS, 1, 0, 'R', 120, 21, 120));
			feed(ev_switch(b + 30 * MS, 0, 20, 'R', 120, 0, 120));
			feed(ev_switch(b + 40 * MS, 0, 0, 'R', 120, 20, 120));
		}
		wl = finish();
		for (uint32_t g = 0; g < wl_nr_groups(wl); g++) {
			const struct wl_group *wg = wl_group(wl, g);

			if (strcmp(wg->path, "/lim")) {
				CHECK_EQ(wg->bw_phase_ns, -1);
				continue;
			}
			CHECK_EQ(wg->quota_us, quota ? 20000 : -1);
			CHECK_EQ(wg->bw_src, quota ? WL_FACT_OPTION : WL_FACT_DEFAULT);
			CHECK_EQ(wg->bw_phase_ns, quota ? (int64_t)(37 * MS + 15 * US) : -1);
			CHECK_EQ(wg->bw_phase_samples, quota ? 8 : 0);
		}
		wl_free(wl);
	}
	unlink(path);
}

/*
 * --cgroup-map paths in another spelling than the kernel's: a trailing '/'
 * or a doubled one.  Before 2 Dec 2026 the PID line's group was found (the
 * group lookup dropped the trailing '/'), but the 'quota' and 'shares' lines
 * were matched by the path as written: they limited and weighted nothing,
 * exit 0 with no bandwidth line.  A quota or shares on the root, which the
 * kernel refuses (tg_set_cfs_bandwidth(), sched_group_set_shares()), was
 * dropped silently too: now an error naming the line.  A shares or quota line
 * for a group no task of the trace was in is counted in a note (it had no
 * effect and no word).  A line longer than the 4096-byte read buffer is an
 * error (its tail was read as the next line, with a wrong line number and
 * message).
 */
static void test_cgmap_paths(void)
{
	static const char *const bad[][2] = {
		{ "quota / 20000\n", ":1: the root cgroup '/' takes no quota" },
		{ "10 /a\nquota // 20000\n", ":2: the root cgroup '/' takes no quota" },
		{ "shares / 512\n", ":1: the root cgroup '/' has no shares" },
		{ "shares lim 512\n", ":1: expected 'shares /cgroup/path N'" },
		{ "quota lim 20000\n", ":1: expected 'quota /cgroup/path QUOTA_US [PERIOD_US]'" },
		/* one group in two spellings: a second line (matched in the kernel's) */
		{ "shares /x 512\nshares /x// 256\n", ":2: a second 'shares' line for /x (the "
		  "first is line 1)" },
		{ "quota /x/ 20000\nquota //x 30000\n", ":2: a second 'quota' line for /x (the "
		  "first is line 1)" },
		/* 4112 characters: read in two pieces, " 20000" as line 3 */
		{ "10 /a\n@\n", ":2: line longer than 4094 characters" },
	};
	static char longname[4100];
	char path[] = "/tmp/sr-cgpaths-XXXXXX";
	struct wl_options opt = { 0 };
	struct sr_error err = { 0 };
	struct wl_workload *wl;
	unsigned int found = 0;
	FILE *f;
	int fd = mkstemp(path);

	memset(longname, 'b', sizeof(longname) - 1);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fprintf(f, "20 /lim/\n21 //lim\nquota /lim/ 20000 50000\nshares //lim// 512\n"
		"22 /a//b/\nquota /a//b 30000\nshares /nope 100\nquota /lim/x 20000\n");
	fclose(f);
	opt.cgroup_map = path;
	B = wl_builder_new(NULL, NULL, &opt, &err);
	CHECK_MSG(B != NULL, "%s", err.msg);
	if (B) {
		feed(ev_switch(1 * MS, 0, 0, 'R', 120, 20, 120));
		feed(ev_switch(1 * MS, 1, 0, 'R', 120, 21, 120));
		feed(ev_switch(1 * MS, 2, 0, 'R', 120, 22, 120));
		wl = finish();
		for (uint32_t g = 0; g < wl_nr_groups(wl); g++) {
			const struct wl_group *wg = wl_group(wl, g);

			if (!strcmp(wg->path, "/lim")) {
				found |= 1;
				CHECK_EQ(wg->quota_us, 20000);
				CHECK_EQ(wg->period_us, 50000);
				CHECK_EQ(wg->bw_src, WL_FACT_OPTION);
				CHECK_EQ(wg->shares, 512);
			} else if (!strcmp(wg->path, "/a/b")) {
				found |= 2;
				CHECK_EQ(wg->quota_us, 30000);
				CHECK_EQ(wg->period_us, 100000);
			} else if (!strcmp(wg->path, "/a")) {
				found |= 4;
				CHECK_EQ(wg->quota_us, -1);
			} else {
				CHECK_MSG(g == 0, "unexpected group '%s'", wg->path);
			}
		}
		CHECK_EQ(found, 7u);
		/* /nope and /lim/x: no task was there, the lines changed nothing */
		{
			unsigned int it = 0;
			const char *text;
			uint64_t count, unmatched = 0;

			while (wl_note_at(wl, &it, &text, &count))
				if (strstr(text, "--cgroup-map 'shares' or 'quota' lines naming a group"))
					unmatched = count;
			CHECK_EQ(unmatched, 2u);
		}
		wl_free(wl);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = fopen(path, "w");
		CHECK(f != NULL);
		if (!f)
			break;
		for (const char *c = bad[i][0]; *c; c++)
			if (*c != '@')
				fputc(*c, f);
			else           /* a quota line of 7 + 4099 + 6 characters */
				fprintf(f, "quota /%s 20000", longname);
		fclose(f);
		memset(&err, 0, sizeof(err));
		B = wl_builder_new(NULL, NULL, &opt, &err);
		CHECK_MSG(B == NULL, "map %zu accepted", i);
		CHECK_MSG(strstr(err.msg, bad[i][1]), "map %zu: %s", i, err.msg);
		if (B)
			wl_free(finish());
	}
	unlink(path);
}

/*
 * PID_MAX_LIMIT (4194304): pids are below it, and it is where the replay's
 * stand-in stoppers start (migration/N, pid 4194304 + N), so a trace or a
 * --cgroup-map naming it is refused; 4194303 is the largest pid accepted.
 */
static void test_pid_limit(void)
{
	char path[] = "/tmp/sr-pidmap-XXXXXX";
	static const int32_t pids[] = { 4194303, 4194304 };
	struct wl_options opt = { 0 };
	struct sr_error err = { 0 };
	struct trace_event e;
	FILE *f;
	int fd = mkstemp(path);

	for (int i = 0; i < 2; i++) {
		/* as next_pid, then as a wakee */
		for (int k = 0; k < 2; k++) {
			start();
			e = k ? ev_wake(TRACE_EV_SCHED_WAKING, 1 * MS, 0, 0, 0, pids[i], 120, 1) :
				ev_switch(1 * MS, 0, 0, 'R', 120, pids[i], 120);
			memset(&err, 0, sizeof(err));
			CHECK_EQ(wl_builder_event(B, &e, 0, &err), i ? -1 : 0);
			CHECK_MSG(!i || strstr(err.msg, k ? "sched_waking with pid 4194304, which no "
					       "kernel writes (a pid is 0 .. 4194303, below the "
					       "kernel's PID_MAX_LIMIT)" : "sched_switch with next_pid "
					       "4194304, which no kernel writes"), "%s", err.msg);
			wl_free(finish());
		}
	}
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	opt.cgroup_map = path;
	for (int i = 0; i < 2; i++) {
		f = fopen(path, "w");
		CHECK(f != NULL);
		if (!f)
			break;
		fprintf(f, "%d /a\n", (int)pids[i]);
		fclose(f);
		memset(&err, 0, sizeof(err));
		B = wl_builder_new(NULL, NULL, &opt, &err);
		CHECK_EQ(B == NULL, i == 1);
		CHECK_MSG(!i || strstr(err.msg, ":1: expected 'PID /cgroup/path'"), "%s", err.msg);
		if (B)
			wl_free(finish());
	}
	unlink(path);
}

/*
 * A pid, prio or CPU number no kernel writes (trace_event_bad_value()):
 * refused with the field named. Before 3 Dec 2026 each was replayed at
 * exit 0 (a trace whose next_pids were all -2^31: no wakeup sample; a
 * target_cpu of -2: a wake onto no CPU; prio 140: a fair task of nice 0),
 * and so was a runtime of 0 or above 2^62 ns (audit34). The bounds
 * themselves (pid 0, prio -1 and 139, target_cpu -1: "none", runtime 2^62)
 * are taken.
 */
static void test_bad_values(void)
{
	struct trace_event bad[] = {
		ev_switch(1 * MS, 0, -1, 'R', 120, 10, 120),
		ev_switch(1 * MS, 0, 0, 'R', 120, INT32_MIN, 120),
		ev_switch(1 * MS, 0, 0, 'R', 140, 10, 120),
		ev_switch(1 * MS, 0, 0, 'R', 120, 10, -2),
		ev_wake(TRACE_EV_SCHED_WAKING, 1 * MS, 0, 0, 0, -5, 120, 0),
		ev_wake(TRACE_EV_SCHED_WAKEUP, 1 * MS, 0, 0, 0, 11, INT32_MAX, 0),
		ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, 1 * MS, 0, 0, 0, 11, 120, -2),
		ev_migrate(1 * MS, 0, 12, INT32_MIN, 0),
		ev_fork(1 * MS, 0, 10, -1),
		ev_runtime(1 * MS, 0, -7, 1000),
		ev_runtime(1 * MS, 0, 10, 0),
		ev_runtime(1 * MS, 0, 10, (uint64_t)INT64_MAX + 1),
		ev_runtime(1 * MS, 0, 10, (1ull << 62) + 1),
	};
	static const char *const why[] = {
		"sched_switch with common_pid -1, which no kernel writes (a pid is 0 .. 4194303",
		"sched_switch with next_pid -2147483648, which no kernel writes (a pid is",
		"sched_switch with prev_prio 140, which no kernel writes (a prio is -1 .. 139)",
		"sched_switch with next_prio -2, which no kernel writes (a prio is -1 .. 139)",
		"sched_waking with pid -5, which no kernel writes (a pid is",
		"sched_wakeup with prio 2147483647, which no kernel writes",
		"sched_wakeup_new with target_cpu -2, which no kernel writes (a CPU number is 0 or more)",
		"sched_migrate_task with orig_cpu -2147483648, which no kernel writes",
		"sched_process_fork with child_pid -1, which no kernel writes",
		"sched_stat_runtime with common_pid -7, which no kernel writes",
		"sched_stat_runtime with runtime 0, which no kernel writes (a runtime is 1 .. 2^62 ns",
		"sched_stat_runtime with runtime 9223372036854775808, which no kernel writes",
		"sched_stat_runtime with runtime 4611686018427387905, which no kernel writes",
	};
	struct trace_event good[] = {
		ev_switch(1 * MS, 0, 0, 'R', -1, 10, 139),
		ev_wake(TRACE_EV_SCHED_WAKING, 1 * MS, 0, 0, 0, 11, -1, -1),
		ev_migrate(1 * MS, 0, 12, 0, 1),
		ev_runtime(1 * MS, 0, 10, 1ull << 62),
	};

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct sr_error err = { 0 };

		start();
		CHECK_EQ(wl_builder_event(B, &bad[k], 0, &err), -1);
		CHECK_MSG(strstr(err.msg, "corrupted data: CPU 0: ") && strstr(err.msg, why[k]),
			  "%zu: %s", k, err.msg);
		wl_free(finish());
	}
	for (size_t k = 0; k < sizeof(good) / sizeof(good[0]); k++) {
		struct sr_error err = { 0 };

		start();
		CHECK_MSG(wl_builder_event(B, &good[k], 0, &err) == 0, "%zu: %s", k, err.msg);
		wl_free(finish());
	}
}

/*
 * A CPU number the model cannot have (4096 and up, MODEL_MAX_CPUS): the
 * event's own CPU, a wakeup's target_cpu, a migration's orig or dest CPU.
 * Before 2 Dec 2026 such events were dropped from the extraction (cpu_get()
 * returned no track) and a wake onto such a CPU was placed by the model,
 * exit 0. CPU 4095 is the last one taken.
 */
static void test_cpu_limit(void)
{
	for (int i = 0; i < 2; i++) {
		int cpu = 4095 + i;
		struct trace_event e[4] = {
			ev_switch(1 * MS, cpu, 0, 'R', 120, 10, 120),
			ev_wake(TRACE_EV_SCHED_WAKING, 1 * MS, 0, 0, 0, 11, 120, cpu),
			ev_migrate(1 * MS, 0, 12, cpu, 0),
			ev_migrate(1 * MS, 0, 12, 0, cpu),
		};

		for (int k = 0; k < 4; k++) {
			struct sr_error err = { 0 };

			start();
			CHECK_EQ(wl_builder_event(B, &e[k], 0, &err), i ? -1 : 0);
			CHECK_MSG(!i || strstr(err.msg, " names CPU 4096: the replay models at most 4096 CPUs"),
				  "%d: %s", k, err.msg);
			wl_free(finish());
		}
	}
}

/*
 * --preempt-costs strict (the default): hog 40 runs on CPU 0; hardirq wakeups there.
 * 41: a tick charges 40 after the wakeup and 40 is switched out for 41 12 us
 * later (the tick, not the wakeup, preempted: queued under the option);
 * 42: another wakeup (43) onto CPU 0 comes before 40 is switched out for 42
 * (queued under the option); 44: only schedule()'s own charge of 40 before
 * its switch (a preemption either way, 10 us: the longest uncontested local
 * hardirq sample); 45: another wakeup (46) 3 us after it, switched in after
 * 8 us, within 44's 10 us: the later wakeup fell inside the mechanism, a
 * preemption either way.  Under --preempt-costs all, all four are local
 * preemptions.
 */
static void strict_costs_wl(bool strict, uint8_t path[4])
{
	struct sr_error err = { 0 };
	struct wl_options o = { 0 };
	struct wl_workload *wl;
	uint64_t t = 1 * MS;

	o.all_preempt_costs = !strict;
	B = wl_builder_new(NULL, NULL, &o, &err);
	if (!B)
		fprintf(stderr, "builder: %s\n", err.msg), exit(2);
	feed(ev_switch(t, 0, 0, 'R', 120, 40, 120));
	/* 41: woken, ticked, then switched in */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 40, HARDIRQ, 41, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 2 * US, 0, 40, HARDIRQ, 41, 120, 0));
	feed(ev_runtime(2 * MS + 300 * US, 0, 40, 1 * MS));           /* the tick */
	feed(ev_runtime(2 * MS + 310 * US, 0, 40, 10 * US));          /* put_prev */
	feed(ev_switch(2 * MS + 312 * US, 0, 40, 'R', 120, 41, 120));
	feed(ev_switch(2 * MS + 320 * US, 0, 41, 'S', 120, 40, 120));
	/* 42: woken; 43 woken onto the same CPU; 40 switched out for 42 */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS, 0, 40, HARDIRQ, 42, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 2 * US, 0, 40, HARDIRQ, 42, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS + 200 * US, 0, 40, HARDIRQ, 43, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 202 * US, 0, 40, HARDIRQ, 43, 120, 0));
	feed(ev_runtime(3 * MS + 208 * US, 0, 40, 900 * US));         /* put_prev */
	feed(ev_switch(3 * MS + 210 * US, 0, 40, 'R', 120, 42, 120));
	feed(ev_switch(3 * MS + 220 * US, 0, 42, 'S', 120, 43, 120));
	feed(ev_switch(3 * MS + 230 * US, 0, 43, 'S', 120, 40, 120));
	/* 44: woken, 40 charged once by schedule() and switched out for it */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 4 * MS, 0, 40, HARDIRQ, 44, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 4 * MS + 2 * US, 0, 40, HARDIRQ, 44, 120, 0));
	feed(ev_runtime(4 * MS + 10 * US, 0, 40, 770 * US));          /* put_prev */
	feed(ev_switch(4 * MS + 12 * US, 0, 40, 'R', 120, 44, 120));
	feed(ev_switch(4 * MS + 20 * US, 0, 44, 'S', 120, 40, 120));
	/* 45: woken, 46 woken 3 us later, 40 switched out for 45 8 us after its wakeup */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 5 * MS, 0, 40, HARDIRQ, 45, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * MS + 2 * US, 0, 40, HARDIRQ, 45, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 5 * MS + 3 * US, 0, 40, HARDIRQ, 46, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * MS + 5 * US, 0, 40, HARDIRQ, 46, 120, 0));
	feed(ev_runtime(5 * MS + 7 * US, 0, 40, 980 * US));           /* put_prev */
	feed(ev_switch(5 * MS + 8 * US, 0, 40, 'R', 120, 45, 120));
	feed(ev_switch(5 * MS + 20 * US, 0, 45, 'S', 120, 46, 120));
	feed(ev_switch(5 * MS + 30 * US, 0, 46, 'S', 120, 40, 120));
	wl = finish();
	for (int i = 0; i < 4; i++) {
		const int pid[4] = { 41, 42, 44, 45 };
		uint32_t k = task_of(wl, pid[i], 0);

		path[i] = WL_PATH_NONE;
		CHECK(k != WL_NONE);
		for (uint32_t j = 0; j < wl_nr_wakes(wl); j++)
			if (wl_wake(wl, j)->target == k && wl_wake(wl, j)->latency)
				path[i] = wl_wake(wl, j)->path;
	}
	wl_free(wl);
}

static void test_strict_preempt_costs(void)
{
	uint8_t p[4];

	strict_costs_wl(false, p);
	CHECK_EQ(p[0], WL_PATH_PREEMPT_LOCAL);
	CHECK_EQ(p[1], WL_PATH_PREEMPT_LOCAL);
	CHECK_EQ(p[2], WL_PATH_PREEMPT_LOCAL);
	CHECK_EQ(p[3], WL_PATH_PREEMPT_LOCAL);
	strict_costs_wl(true, p);
	CHECK_EQ(p[0], WL_PATH_QUEUED);
	CHECK_EQ(p[1], WL_PATH_QUEUED);
	CHECK_EQ(p[2], WL_PATH_PREEMPT_LOCAL);
	CHECK_EQ(p[3], WL_PATH_PREEMPT_LOCAL);
}

/*
 * Nice changes (WL_OP_NICE, nice_seen()).  Task 10, first seen as the
 * context of a sched_stat_runtime (prio unknown), shows 125 at its first
 * switch: nice 5 from the start, no op (its runs then merge into one RUN).  It then blocks showing 130 (a
 * setpriority() in that run: NICE 10 after the run, before the BLOCK) and
 * is switched in at 110 after its sleep (a renice while asleep: NICE -10
 * right after the BLOCK).  Task 11, preempted, shows 139: NICE 19 after its
 * run, no BLOCK.  Task 12 keeps 120: no op.
 */
static void test_nice_changes(void)
{
	struct wl_workload *wl;
	uint32_t a, b, c;

	start();
	feed(ev_runtime(1 * MS, 0, 10, 1 * MS));
	feed(ev_switch(2 * MS, 0, 10, 'R', 125, 11, 120));      /* 10 preempted: nice 5 */
	feed(ev_switch(3 * MS, 0, 11, 'R', 139, 10, 125));      /* 11 preempted at nice 19 */
	feed(ev_switch(4 * MS, 0, 10, 'S', 130, 12, 120));      /* 10 blocks at nice 10 */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 5 * MS, 0, 12, 0, 10, 110, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * MS + 1000, 0, 12, 0, 10, 110, 0));
	feed(ev_switch(6 * MS, 0, 12, 'S', 120, 10, 110));      /* 10 back at nice -10 */
	feed(ev_switch(7 * MS, 0, 10, 'S', 110, 0, 120));
	wl = finish();
	a = task_of(wl, 10, 0);
	b = task_of(wl, 11, 0);
	c = task_of(wl, 12, 0);
	CHECK(a != WL_NONE && b != WL_NONE && c != WL_NONE);
	CHECK_EQ(wl_task(wl, a)->nice, 5);
	CHECK_EQ(wl_task(wl, a)->prio, 125);
	/* 10: RUN (its runs to 4 ms, merged), NICE 10, BLOCK, NICE -10, RUN 1 ms, BLOCK */
	CHECK_EQ(op_of(wl, a, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, a, 1)->kind, WL_OP_NICE);
	CHECK_EQ((int64_t)op_of(wl, a, 1)->value, 10);
	CHECK_EQ(op_of(wl, a, 2)->kind, WL_OP_BLOCK);
	CHECK_EQ(op_of(wl, a, 3)->kind, WL_OP_NICE);
	CHECK_EQ((int64_t)op_of(wl, a, 3)->value, -10);
	CHECK_EQ(op_of(wl, a, 4)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, a, 4)->value, 1 * MS);
	CHECK_EQ(op_of(wl, a, 5)->kind, WL_OP_BLOCK);
	CHECK_EQ(wl_task(wl, a)->nr_ops, 6);
	/* 11: RUN 1 ms, NICE 19 and nothing else (it never runs again) */
	CHECK_EQ(wl_task(wl, b)->nice, 0);
	CHECK_EQ(op_of(wl, b, 1)->kind, WL_OP_NICE);
	CHECK_EQ((int64_t)op_of(wl, b, 1)->value, 19);
	for (uint32_t k = 0; k < wl_task(wl, c)->nr_ops; k++)
		CHECK(op_of(wl, c, k)->kind != WL_OP_NICE);
	CHECK_EQ(note_value(wl, "nice changes"), 3);
	wl_free(wl);
}

/*
 * A fair task boosted by a fair rt_mutex waiter (sched_pi_setprio within
 * 100..139) shows the boosted prio in sched_switch at its own weight: no
 * nice change.  After the deboost a prio change is a nice change again.
 */
static void test_pi_boost(void)
{
	struct wl_workload *wl;
	uint32_t a;
	int nice_ops = 0;

	start();
	feed(ev_runtime(1 * MS, 0, 10, 1 * MS));                /* 10's prio unknown */
	/* 11 blocks on 10's PI futex on CPU 1: 10 at 130 boosted to 120 */
	feed(ev_pi_setprio(1 * MS + 500000, 1, 11, 10, 130, 120));
	feed(ev_switch(2 * MS, 0, 10, 'R', 120, 12, 120));      /* preempted while boosted */
	feed(ev_switch(3 * MS, 0, 12, 'R', 120, 10, 120));
	feed(ev_pi_setprio(3 * MS + 500000, 0, 10, 10, 120, 130)); /* unlock: deboost */
	feed(ev_switch(4 * MS, 0, 10, 'S', 130, 12, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 5 * MS, 0, 12, 0, 10, 130, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * MS + 1000, 0, 12, 0, 10, 130, 0));
	feed(ev_switch(6 * MS, 0, 12, 'S', 120, 10, 125));      /* reniced to 5 while asleep */
	feed(ev_switch(7 * MS, 0, 10, 'S', 125, 0, 120));
	wl = finish();
	a = task_of(wl, 10, 0);
	CHECK(a != WL_NONE);
	CHECK_EQ(wl_task(wl, a)->nice, 10);                     /* the pi event's oldprio */
	for (uint32_t k = 0; k < wl_task(wl, a)->nr_ops; k++)
		if (op_of(wl, a, k)->kind == WL_OP_NICE) {
			nice_ops++;
			CHECK_EQ((int64_t)op_of(wl, a, k)->value, 5);
			CHECK(k > 0 && op_of(wl, a, k - 1)->kind == WL_OP_BLOCK);
		}
	CHECK_EQ(nice_ops, 1);
	CHECK_EQ(note_value(wl, "nice changes"), 1);
	CHECK_EQ(note_value(wl, "at a fair prio set by sched_pi_setprio"), 2);
	wl_free(wl);
}

/*
 * A holder boosted since before the trace and first seen as the context of
 * its own deboost: the event's oldprio is the boost (120), its newprio the
 * task's normal prio (130, nice 10); its later switches at 130 are its own
 * prio, not a boost.
 */
static void test_pi_first_deboost(void)
{
	struct wl_workload *wl;
	uint32_t a;

	start();
	feed(ev_runtime(1 * MS, 0, 10, 1 * MS));                /* 10's prio unknown */
	feed(ev_pi_setprio(1 * MS + 500000, 0, 10, 10, 120, 130)); /* unlock: deboost */
	feed(ev_switch(2 * MS, 0, 10, 'S', 130, 12, 120));
	feed(ev_switch(3 * MS, 0, 12, 'S', 120, 10, 130));
	feed(ev_switch(4 * MS, 0, 10, 'S', 130, 0, 120));
	wl = finish();
	a = task_of(wl, 10, 0);
	CHECK(a != WL_NONE);
	CHECK_EQ(wl_task(wl, a)->nice, 10);                     /* the deboost's newprio */
	for (uint32_t k = 0; k < wl_task(wl, a)->nr_ops; k++)
		CHECK(op_of(wl, a, k)->kind != WL_OP_NICE);
	CHECK_EQ(note_value(wl, "at a fair prio set by sched_pi_setprio"), 0);
	wl_free(wl);
}

/*
 * The start of the PI sequences below: 10 runs on CPU 0 at @prio, 11 on
 * CPU 1 blocks on 10's lock and boosts it from @oldprio to 120.
 */
static void feed_pi_boost(int prio, int oldprio)
{
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 10, prio));
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 11, 120));
	feed(ev_pi_setprio(1 * MS + 600000, 1, 11, 10, oldprio, 120));
	feed(ev_switch(1 * MS + 601000, 1, 11, 'S', 120, 0, 120));
}

/* Their end: 10, preempted while boosted, runs again, deboosts to @prio at its unlock, sleeps. */
static void feed_pi_deboost(int prio)
{
	feed(ev_switch(2 * MS, 0, 10, 'R', 120, 12, 120));
	feed(ev_switch(3 * MS, 0, 12, 'S', 120, 10, 120));
	feed(ev_pi_setprio(3 * MS + 500000, 0, 10, 10, 120, prio));
	feed(ev_switch(4 * MS, 0, 10, 'S', prio, 0, 120));
}

/*
 * 10's unlock after a set_user_nice() that left p->prio at the normal prio:
 * no sched_pi_setprio, 10 wakes 11, which runs on CPU 1.
 */
static void feed_pi_silent_unlock(void)
{
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 10, 0, 11, 120, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 1000, 0, 10, 0, 11, 120, 1));
	feed(ev_switch(2 * MS + 5000, 1, 0, 'R', 120, 11, 120));
}

/* The NICE ops of task @t, each checked to set nice @value. */
static int nice_ops_to(const struct wl_workload *wl, uint32_t t, int64_t value)
{
	int n = 0;

	for (uint32_t k = 0; t != WL_NONE && k < wl_task(wl, t)->nr_ops; k++)
		if (op_of(wl, t, k)->kind == WL_OP_NICE) {
			n++;
			CHECK_EQ((int64_t)op_of(wl, t, k)->value, value);
		}
	return n;
}

/*
 * A nice change no switch showed before a boost: 10 (nice 0) calls
 * setpriority(10) while it runs, then 11 on CPU 1 boosts it from its new
 * prio 130 to 120 - an oldprio above the nice so far is the new normal prio.
 * At the deboost (120 -> 130) the boost ends; its later switch at 130 is its
 * own prio, not a boost read for good.
 */
static void test_pi_unseen_nice(void)
{
	struct wl_workload *wl;
	uint32_t a;

	start();
	feed_pi_boost(120, 130);                                  /* 11 blocks on 10's lock */
	feed_pi_deboost(130);
	wl = finish();
	a = task_of(wl, 10, 0);
	CHECK(a != WL_NONE);
	CHECK_EQ(wl_task(wl, a)->nice, 0);
	CHECK_EQ(nice_ops_to(wl, a, 10), 1);
	/* the two switches at 120, not the one at 130 */
	CHECK_EQ(note_value(wl, "at a fair prio set by sched_pi_setprio"), 2);
	wl_free(wl);
}

/*
 * set_user_nice() and a boost, in the orders the trace decides (kernel/sched/
 * syscalls.c set_user_nice(): p->prio = effective_prio(), the new normal prio
 * for a task not RT/DL-boosted; core.c rt_mutex_setprio() writes the event
 * only when p->prio changes).  10 runs at 130 (nice 10) on CPU 0.
 *
 * (a) setpriority(5) while it runs, then 11 boosts it to 120 before any
 * switch: the event's oldprio 125 is its new normal prio - below the nice so
 * far, which the "higher prio" rule missed: the deboost then went to 125
 * and every later switch at 125 was a boost for good.
 */
static void test_pi_nice_before_boost(void)
{
	struct wl_workload *wl;
	uint32_t a;

	start();
	feed_pi_boost(130, 125);                                  /* 11 blocks on 10's lock */
	feed_pi_deboost(125);
	wl = finish();
	a = task_of(wl, 10, 0);
	CHECK(a != WL_NONE);
	CHECK_EQ(wl_task(wl, a)->nice, 10);
	CHECK_EQ(nice_ops_to(wl, a, 5), 1);
	/* the two switches at 120; the one at 125 is its own prio */
	CHECK_EQ(note_value(wl, "at a fair prio set by sched_pi_setprio"), 2);
	CHECK_EQ(note_value(wl, "still boosted within 100..139 at the trace end"), 0);
	wl_free(wl);
}

/*
 * (b) Boosted from 130 to 120, then setpriority(3) (prio 123) while boosted
 * and not switched: p->prio becomes 123 (the boost dropped from p->prio, not
 * from pi_top_task), the unlock's rt_mutex_setprio() finds 123 == p->prio and
 * writes nothing.  A second waiter (prio 110) then boosts it: the event's
 * oldprio 123 is neither the boost (120) nor RT - the nice change made while
 * boosted.  Its deboost (110 -> 123) ends the second boost.
 */
static void test_pi_nice_while_boosted(void)
{
	struct wl_workload *wl;
	uint32_t a;

	start();
	feed_pi_boost(130, 130);                                  /* 11 blocks on 10's lock */
	/* 10: setpriority(3) while boosted */
	feed_pi_silent_unlock();
	feed(ev_switch(2 * MS + 300000, 1, 11, 'R', 120, 13, 110));
	feed(ev_pi_setprio(2 * MS + 600000, 1, 13, 10, 123, 110)); /* 13 blocks on 10's lock */
	feed(ev_switch(2 * MS + 601000, 1, 13, 'S', 110, 11, 120));
	feed(ev_switch(3 * MS, 0, 10, 'R', 110, 12, 120));      /* preempted while boosted */
	feed(ev_switch(4 * MS, 0, 12, 'S', 120, 10, 110));
	feed(ev_pi_setprio(4 * MS + 500000, 0, 10, 10, 110, 123)); /* unlock: deboost */
	feed(ev_switch(5 * MS, 0, 10, 'S', 123, 0, 120));
	wl = finish();
	a = task_of(wl, 10, 0);
	CHECK(a != WL_NONE);
	CHECK_EQ(wl_task(wl, a)->nice, 10);
	CHECK_EQ(nice_ops_to(wl, a, 3), 1);
	CHECK_EQ(note_value(wl, "whose oldprio is neither the boost nor an RT prio"), 1);
	CHECK_EQ(note_value(wl, "still boosted within 100..139 at the trace end"), 0);
	wl_free(wl);
}

/*
 * (c) The order the events cannot decide: setpriority(0) while boosted to
 * 120, its own new prio - p->prio stays 120, the unlock writes no event, and
 * the switches show 120 before and after.  The replay keeps nice 10 and says
 * so at the trace end.
 */
static void test_pi_nice_to_boost(void)
{
	struct wl_workload *wl;
	uint32_t a;

	start();
	feed_pi_boost(130, 130);                                  /* 11 blocks on 10's lock */
	feed_pi_silent_unlock();
	feed(ev_switch(3 * MS, 0, 10, 'S', 120, 0, 120));
	wl = finish();
	a = task_of(wl, 10, 0);
	CHECK(a != WL_NONE);
	CHECK_EQ(nice_ops_to(wl, a, 0), 0);
	CHECK_EQ(note_value(wl, "still boosted within 100..139 at the trace end"), 1);
	wl_free(wl);
}

/*
 * A fair task (nice 0) boosted by an RT waiter since before the trace: its
 * first switch-in shows prio 98 (the RT class for the boost: rt_mutex_setprio()
 * -> __setscheduler_class()).  Its unlock deboosts it in its own context
 * (98 -> 120), wakes the waiter, runs on and sleeps at 120.  The kernel ran it
 * as RT until the deboost and as a fair task after it: the RT interval ends
 * at the deboost and a fair task of the same pid, woken there, does the rest.
 */
static void test_pi_rt_first(void)
{
	struct wl_workload *wl;
	uint32_t a, f;
	bool out = false, wake = false;

	start();
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 10, 98));
	feed(ev_pi_setprio(2 * MS, 0, 10, 10, 98, 120));        /* unlock: deboost */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS + 1000, 0, 10, 0, 11, 98, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 2000, 0, 10, 0, 11, 98, 1));
	feed(ev_switch(2 * MS + 10000, 1, 0, 'R', 120, 11, 98));
	feed(ev_switch(3 * MS, 0, 10, 'S', 120, 0, 120));
	feed(ev_switch(4 * MS, 1, 11, 'S', 98, 0, 120));
	wl = finish();
	a = task_of(wl, 10, 0);
	f = task_of(wl, 10, 1);
	CHECK(a != WL_NONE && f != WL_NONE);
	if (a == WL_NONE || f == WL_NONE) {
		wl_free(wl);
		return;
	}
	CHECK_EQ(wl_task(wl, a)->cls, WL_CLASS_RT);
	CHECK_EQ(wl_task(wl, f)->cls, WL_CLASS_FAIR);
	CHECK_EQ(wl_task(wl, f)->nice, 0);
	CHECK(wl_task(wl, f)->init_wake != WL_NONE);
	for (uint32_t i = 0; i < wl_nr_timed(wl); i++) {
		const struct wl_timed *e = wl_timed_at(wl, i);

		if (e->kind == WL_T_OTHER_OUT && e->task == a && e->ts == 2 * MS)
			out = true;
		if (e->kind == WL_T_EXT_WAKE && e->task == f && e->ts == 2 * MS &&
		    e->arg == wl_task(wl, f)->init_wake)
			wake = true;
	}
	CHECK(out);
	CHECK(wake);
	/* the fair task's work: RUN 1 ms (with its WAKE of 11 inside), BLOCK */
	CHECK_EQ(op_of(wl, f, 0)->kind, WL_OP_RUN);
	CHECK_EQ(op_of(wl, f, wl_task(wl, f)->nr_ops - 1)->kind, WL_OP_BLOCK);
	CHECK_EQ(note_value(wl, "ended an RT boost at a fair prio"), 1);
	/* 10's RT record and 11: the fair record is the same thread, not another */
	CHECK_EQ(note_value(wl, "tasks alive before the trace"), 2);
	wl_free(wl);
}

/* The timed entry of @kind for task @t at @ts, or NULL. */
static const struct wl_timed *timed_of(const struct wl_workload *wl, uint8_t kind, uint32_t t,
				       uint64_t ts)
{
	for (uint32_t i = 0; i < wl_nr_timed(wl); i++) {
		const struct wl_timed *e = wl_timed_at(wl, i);

		if (e->kind == kind && e->task == t && e->ts == ts)
			return e;
	}
	return NULL;
}

/*
 * The three records of @pid, fair, RT and fair again (a class change and its
 * way back): false if there are not three.
 */
/* The workload of the @n events @ev, fed from start() to finish(). */
static struct wl_workload *fed(const struct trace_event *ev, size_t n)
{
	start();
	for (size_t i = 0; i < n; i++)
		feed(ev[i]);
	return finish();
}

static bool fair_rt_fair(const struct wl_workload *wl, int pid, uint32_t *a, uint32_t *r,
			 uint32_t *f)
{
	*a = task_of(wl, pid, 0);
	*r = task_of(wl, pid, 1);
	*f = task_of(wl, pid, 2);
	CHECK(*a != WL_NONE && *r != WL_NONE && *f != WL_NONE);
	if (*a == WL_NONE || *r == WL_NONE || *f == WL_NONE)
		return false;
	CHECK_EQ(wl_task(wl, *a)->cls, WL_CLASS_FAIR);
	CHECK_EQ(wl_task(wl, *r)->cls, WL_CLASS_RT);
	CHECK_EQ(wl_task(wl, *f)->cls, WL_CLASS_FAIR);
	return true;
}

/*
 * A fair task (nice 0) that calls sched_setscheduler(SCHED_FIFO, 1) while it
 * runs: the trace shows no event for it, only its switch-out at prio 98 and
 * its later wakes and switches at 98; then SCHED_OTHER again while asleep,
 * seen in a wake at 120.  The kernel runs it fair, RT from the change
 * (switched_from_fair()), fair again from the second (switched_to_fair()):
 * three records of the pid, fair, RT, fair; the RT one's wake and run are
 * timed entries (an RT task's), the last fair one is woken by its traced
 * wake; the first leaves the class asleep (WL_T_CLASS_LEAVE with
 * WL_T_CLASS_ASLEEP, since 6 Dec 2026).  Before the fix: one fair record for
 * life, every wake a fair one.
 */
static void test_class_change(void)
{
	struct wl_workload *wl;
	uint32_t a, r, f;
	struct trace_event ev[16];

	/* SCHED_FIFO from its switch-out at 2 ms, SCHED_OTHER in its wake at 5 ms */
	wl = fed(ev, ev_class_change_asleep(ev));
	if (!fair_rt_fair(wl, 10, &a, &r, &f)) {
		wl_free(wl);
		return;
	}
	/* the first fair record: its run, then the block at the change */
	CHECK_EQ(op_of(wl, a, wl_task(wl, a)->nr_ops - 1)->kind, WL_OP_BLOCK);
	/* it leaves the class asleep: a delayed entity dequeued, detached there */
	{
		const struct wl_timed *l = timed_of(wl, WL_T_CLASS_LEAVE, a, 2 * MS);

		CHECK(l != NULL && (l->aux & WL_T_CLASS_ASLEEP));
	}
	CHECK(timed_of(wl, WL_T_OTHER_WAKE, r, 3 * MS) != NULL);
	CHECK(timed_of(wl, WL_T_OTHER_IN, r, 3 * MS + 5000) != NULL);
	CHECK(timed_of(wl, WL_T_OTHER_OUT, r, 3 * MS + 60000) != NULL);
	/* back to fair asleep: attached at the change (class52), woken by its wake */
	CHECK(timed_of(wl, WL_T_CLASS_ENTER, f, 5 * MS) != NULL);
	CHECK_EQ(wl_task(wl, f)->nice, 0);
	CHECK(wl_task(wl, f)->init_wake != WL_NONE);
	CHECK_EQ(note_value(wl, "class changes between fair and RT"), 2);
	CHECK_EQ(note_value(wl, "the RT class of a priority-inheritance boost"), 0);
	wl_free(wl);
}

/*
 * small-pirt's cycle (ev_pirt_cycle()): the fair holder boosted to 98 while
 * queued, deboosted in its own context.  The kernel: RT from the boost (switched_from_fair() of a queued task), fair
 * from the deboost (switched_to_fair(), running).  Records: fair, RT, fair;
 * the first leaves the fair class queued at the boost (WL_T_CLASS_LEAVE), the
 * last is enqueued at the deboost by a wake with no latency sample
 * (WL_T_CLASS_WAKE).  Before: one fair record, its boosted run fair.
 */
static void test_class_change_pi(void)
{
	struct wl_workload *wl;
	uint32_t a, r, f;
	const struct wl_timed *w;
	struct trace_event ev[16];

	wl = fed(ev, ev_pirt_cycle(ev, true));
	if (!fair_rt_fair(wl, 10, &a, &r, &f)) {
		wl_free(wl);
		return;
	}
	CHECK_EQ(wl_task(wl, f)->nice, 10);
	CHECK(timed_of(wl, WL_T_CLASS_LEAVE, a, 2 * MS + 10000) != NULL);
	CHECK(timed_of(wl, WL_T_OTHER_IN, r, 2 * MS + 11000) != NULL);
	CHECK(timed_of(wl, WL_T_OTHER_OUT, r, 4 * MS) != NULL);
	w = timed_of(wl, WL_T_EXT_WAKE, f, 4 * MS);
	CHECK(w != NULL && (w->aux & WL_T_CLASS_WAKE));
	CHECK_EQ(note_value(wl, "class changes between fair and RT"), 1);
	CHECK_EQ(note_value(wl, "the RT class of a priority-inheritance boost"), 1);
	wl_free(wl);
}

/*
 * ev_pirt_queued(): the boosted holder is deboosted while queued (preempted
 * by RT task 12).  The kernel: fair from the deboost, enqueued on CPU 0 by
 * the class change (switched_to_fair(), not running).  Records fair, RT,
 * fair; the last is enqueued at the deboost by a class wake on CPU 0.
 * Until class52 the RT record was kept (WL_NOTE_PI_RT_KEPT) until the
 * switch-in at 130 split it there.
 */
static void test_class_change_pi_queued(void)
{
	struct wl_workload *wl;
	uint32_t a, r, f;
	const struct wl_timed *w;
	struct trace_event ev[24];

	wl = fed(ev, ev_pirt_queued(ev));
	if (!fair_rt_fair(wl, 10, &a, &r, &f)) {
		wl_free(wl);
		return;
	}
	CHECK_EQ(wl_task(wl, f)->nice, 10);
	w = timed_of(wl, WL_T_EXT_WAKE, f, 3 * MS + 500000);
	CHECK(w != NULL && (w->aux & WL_T_CLASS_WAKE) && w->cpu == 0);
	CHECK(timed_of(wl, WL_T_OTHER_OUT, r, 3 * MS + 2000) != NULL);
	CHECK_EQ(note_value(wl, "RT records whose RT boost ended at a fair prio while they were queued"), 1);
	CHECK_EQ(note_value(wl, "RT records whose RT boost ended at a fair prio while they were running"), 0);
	wl_free(wl);
}

/*
 * The trace's own runnable set at a sidecar's sched/debug reads
 * (wl_sd_trace_queued(), replay/workload_sdq.c).  CPU 1: 30 runs from
 * 0.5 ms and moves to cgroup /g at 2 ms, 31 is woken there at 3 ms, 30
 * sleeps at 4.5 ms (31 runs), and 32, first shown switched in at 8 ms
 * (queued since the start), runs until 9 ms.  CPU 0: 20 runs from 1 ms and
 * leaves for idle untraced after its 1.2 ms charge (the wakeup of 21 from
 * idle just before 20 ms shows it: a retraction of the reads it was counted
 * at).  Reads at
 * 0.2 ms (before the trace: none), 4 ms (a 1 ms span) and 10 ms.
 */
static void test_sd_trace_queued(void)
{
	struct sidecar_cpu cpus[2] = {
		{ .cpu = 0, .listed = true, .online = true, .numa_node = -1 },
		{ .cpu = 1, .listed = true, .online = true, .numa_node = -1 },
	};
	char *paths[2] = { (char *)"/", (char *)"/g" };
	struct sidecar_sd_row r1[3] = {
		{ .cpu = 0, .path = 0 }, { .cpu = 1, .path = 0 }, { .cpu = 1, .path = 1 },
	};
	struct sidecar_sd_row r2[2] = { { .cpu = 0, .path = 0 }, { .cpu = 1, .path = 0 } };
	struct sidecar_sd_read reads[3] = {
		{ .at = SIDECAR_SD_START, .sched_clk = 200 * US },
		{ .at = SIDECAR_SD_DURING, .sched_clk = 4 * MS, .read_ns = 1 * MS, .nr_rows = 3,
		  .rows = r1 },
		{ .at = SIDECAR_SD_DURING, .sched_clk = 10 * MS, .nr_rows = 2, .rows = r2 },
	};
	struct sidecar sc = { .path = (char *)"test.json", .nr_cpus = 2, .cpus = cpus };
	struct trace_event cg;
	struct wl_sd_queued q;
	struct wl_workload *wl;
	uint32_t g = WL_NONE;

	/* the kernel's rows: CPU 1's root 3 queued, 2 runnable (a delayed dequeue) */
	r1[0].v[SIDECAR_SD_H_NR_QUEUED] = 0;
	r1[0].have[SIDECAR_SD_H_NR_QUEUED] = true;
	r1[1].v[SIDECAR_SD_H_NR_QUEUED] = 3;
	r1[1].v[SIDECAR_SD_H_NR_RUNNABLE] = 2;
	r1[1].have[SIDECAR_SD_H_NR_QUEUED] = r1[1].have[SIDECAR_SD_H_NR_RUNNABLE] = true;
	r1[2].v[SIDECAR_SD_H_NR_QUEUED] = 1;         /* no h_nr_runnable (6.13-) */
	r1[2].have[SIDECAR_SD_H_NR_QUEUED] = true;
	r2[0].have[SIDECAR_SD_H_NR_QUEUED] = true;
	r2[1].v[SIDECAR_SD_H_NR_QUEUED] = 1;
	r2[1].have[SIDECAR_SD_H_NR_QUEUED] = true;
	start_sd(&sc, paths, 2, reads, 3);
	feed(ev_switch(500 * US, 1, 0, 'R', 120, 30, 120));
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 20, 120));
	feed(ev_runtime(1 * MS + 200 * US, 0, 20, 200 * US));
	cg = ev_base(TRACE_EV_CGROUP_ATTACH_TASK, 2 * MS, 1, 30);
	cg.u.cgroup_attach.dst_root = 1;
	cg.u.cgroup_attach.dst_level = -1;
	cg.u.cgroup_attach.pid = 30;
	cg.u.cgroup_attach.dst_path = "/g";
	cg.u.cgroup_attach.dst_path_len = 2;
	feed(cg);
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS, 1, 30, HARDIRQ, 31, 120, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 500, 1, 30, HARDIRQ, 31, 120, 1));
	feed(ev_switch(4 * MS + 500 * US, 1, 30, 'S', 120, 31, 120));
	feed(ev_switch(8 * MS, 1, 31, 'R', 120, 32, 120));
	feed(ev_switch(9 * MS, 1, 32, 'S', 120, 31, 120));
	/* 20 -> idle not traced; 21 woken from idle (not queued since the start) */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 20 * MS - 10 * US, 0, 0, HARDIRQ, 21, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 20 * MS - 9 * US, 0, 0, HARDIRQ, 21, 120, 0));
	feed(ev_switch(20 * MS, 0, 0, 'R', 120, 21, 120));
	feed(ev_switch(21 * MS, 0, 21, 'S', 120, 0, 120));
	feed(ev_switch(30 * MS, 1, 31, 'S', 120, 0, 120));
	wl = finish();
	for (uint32_t i = 0; i < wl_nr_groups(wl); i++)
		if (!strcmp(wl_group(wl, i)->path, "/g"))
			g = i;
	CHECK(g != WL_NONE && g != 0);
	if (g == WL_NONE)
		g = 0;
	CHECK(!wl_sd_trace_queued(wl, 0, 0, 0, &q));          /* before the trace */
	CHECK(!wl_sd_trace_queued(wl, 1, 0, 2, &q));          /* no CPU 2 */
	/* read 1, CPU 0: 20 had left for idle at 1.2 ms (retracted) */
	CHECK(wl_sd_trace_queued(wl, 1, 0, 0, &q));
	CHECK_EQ(q.at, 0);
	CHECK_EQ(q.hi, 0);
	CHECK_EQ(q.agree_ns, 0);
	/* CPU 1's root: 30 (in /g), 31 queued, 32 queued since the start; 2 from 4.5 ms */
	CHECK(wl_sd_trace_queued(wl, 1, 0, 1, &q));
	CHECK_EQ(q.at, 3);
	CHECK_EQ(q.lo, 2);
	CHECK_EQ(q.hi, 3);
	CHECK_EQ(q.agree_ns, 500 * US);                      /* = h_nr_runnable 2 there */
	CHECK(wl_sd_trace_queued(wl, 1, g, 1, &q));
	CHECK_EQ(q.at, 1);
	CHECK_EQ(q.lo, 0);
	CHECK_EQ(q.hi, 1);
	CHECK_EQ(q.agree_ns, 0);                             /* = h_nr_queued 1 */
	CHECK(wl_sd_trace_queued(wl, 1, g, 0, &q));
	CHECK_EQ(q.hi, 0);
	CHECK_EQ(q.agree_ns, UINT32_MAX);                    /* no kernel row */
	/* read 2: 31 runs on CPU 1 (32 slept at 9 ms), CPU 0 idle */
	CHECK(wl_sd_trace_queued(wl, 2, 0, 1, &q));
	CHECK_EQ(q.at, 1);
	CHECK_EQ(q.lo, 1);
	CHECK_EQ(q.hi, 1);
	CHECK(wl_sd_trace_queued(wl, 2, g, 1, &q));
	CHECK_EQ(q.at, 0);
	CHECK(wl_sd_trace_queued(wl, 2, 0, 0, &q));
	CHECK_EQ(q.at, 0);
	wl_free(wl);
	/* without the sidecar's reads: none */
	start();
	feed(ev_switch(500 * US, 1, 0, 'R', 120, 30, 120));
	wl = finish();
	CHECK(!wl_sd_trace_queued(wl, 0, 0, 1, &q));
	wl_free(wl);
}

/*
 * The trace's runnable set and an autogroup's exiting task: counted in the
 * root task group from its EXIT_MOVE's charge (do_exit() ->
 * sched_autogroup_exit_task() -> sched_move_task(): task_wants_autogroup()
 * is false once PF_EXITING is set), in its autogroup again where that move
 * is retracted; a cgroup's exiting task keeps its cgroup.  Autogroup 7: 50
 * on CPU 0 (exit at 3 ms, a charge at 3.01 ms, preempted by 70 of the root,
 * woken at 3.99 ms, at 4 ms: that charge was not the move's; it runs again at 5 ms, the move's
 * charge at 5.05 ms, dies at 6 ms), 60 on CPU 1 (exit at 3 ms, the move's
 * charge at 3.02 ms, dies at 4.2 ms).  80 in cgroup /g on CPU 2 (exit at
 * 3 ms, a charge at 3.03 ms, dies at 6 ms).  Reads at 3.5, 4.5 and 5.5 ms;
 * the kernel printed autogroup 7's CPU 1 queue at the first, empty.
 */
static void test_sd_trace_queued_exit(void)
{
	struct sidecar_cpu cpus[3] = {
		{ .cpu = 0, .listed = true, .online = true, .numa_node = -1 },
		{ .cpu = 1, .listed = true, .online = true, .numa_node = -1 },
		{ .cpu = 2, .listed = true, .online = true, .numa_node = -1 },
	};
	struct sidecar_task tasks[4] = {
		{ .pid = 50, .tgid = 50, .autogroup = 7, .cpu = -1 },
		{ .pid = 60, .tgid = 60, .autogroup = 7, .cpu = -1 },
		{ .pid = 70, .tgid = 70, .autogroup = -1, .cpu = -1 },
		{ .pid = 80, .tgid = 80, .cgroup = (char *)"/g", .autogroup = 7, .cpu = -1 },
	};
	char *paths[1] = { (char *)"/autogroup-7" };
	struct sidecar_sd_row r1[1] = { { .cpu = 1, .path = 0 } };
	struct sidecar_sd_read reads[3] = {
		{ .at = SIDECAR_SD_DURING, .sched_clk = 3 * MS + 500 * US, .nr_rows = 1, .rows = r1 },
		{ .at = SIDECAR_SD_DURING, .sched_clk = 4 * MS + 500 * US },
		{ .at = SIDECAR_SD_DURING, .sched_clk = 5 * MS + 500 * US },
	};
	struct sidecar sc = { .path = (char *)"test.json", .nr_cpus = 3, .cpus = cpus,
			      .autogroup_enabled = true, .nr_tasks = 4, .tasks = tasks };
	struct trace_event e;
	struct wl_sd_queued q;
	struct wl_workload *wl;
	uint32_t ag = WL_NONE, g = WL_NONE;
	/* [read][cpu]: autogroup 7's count, the root's and /g's */
	static const int want_ag[3][3] = { { 1, 0, 0 }, { 1, 0, 0 }, { 0, 0, 0 } };
	static const int want_root[3][3] = { { 1, 1, 1 }, { 2, 0, 1 }, { 1, 0, 1 } };

	r1[0].have[SIDECAR_SD_H_NR_QUEUED] = true;           /* 0 */
	start_sd(&sc, paths, 1, reads, 3);
	feed(ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120));
	feed(ev_switch(1 * MS, 1, 0, 'R', 120, 60, 120));
	feed(ev_switch(1 * MS, 2, 0, 'R', 120, 80, 120));
	for (int pid = 50; pid <= 80; pid += 10) {
		if (pid == 70)
			continue;
		e = ev_base(TRACE_EV_SCHED_PROCESS_EXIT, 3 * MS, (pid - 50) / 10 - (pid == 80), pid);
		e.u.exit.pid = pid;
		feed(e);
	}
	feed(ev_runtime(3 * MS + 10 * US, 0, 50, 2 * MS));        /* not the move's */
	feed(ev_runtime(3 * MS + 20 * US, 1, 60, 2 * MS));        /* the move's */
	feed(ev_runtime(3 * MS + 30 * US, 2, 80, 2 * MS));        /* its cgroup's task: none */
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 4 * MS - 10 * US, 0, 50, HARDIRQ, 70, 120, 0));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 4 * MS - 9 * US, 0, 50, HARDIRQ, 70, 120, 0));
	feed(ev_switch(4 * MS, 0, 50, 'R', 120, 70, 120));
	feed(ev_switch(4 * MS + 200 * US, 1, 60, 'X', 120, 0, 120));
	feed(ev_switch(5 * MS, 0, 70, 'S', 120, 50, 120));
	feed(ev_runtime(5 * MS + 50 * US, 0, 50, 50 * US));       /* the move's */
	feed(ev_switch(6 * MS, 0, 50, 'X', 120, 0, 120));
	feed(ev_switch(6 * MS, 2, 80, 'X', 120, 0, 120));
	wl = finish();
	for (uint32_t i = 0; i < wl_nr_groups(wl); i++) {
		if (!strcmp(wl_group(wl, i)->path, "autogroup-7"))
			ag = i;
		if (!strcmp(wl_group(wl, i)->path, "/g"))
			g = i;
	}
	CHECK(ag != WL_NONE && ag != 0 && wl_group(wl, ag)->autogroup);
	CHECK(g != WL_NONE && g != 0);
	if (ag == WL_NONE || g == WL_NONE) {
		wl_free(wl);
		return;
	}
	for (uint32_t r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++) {
			CHECK(wl_sd_trace_queued(wl, r, ag, c, &q));
			CHECK_EQ(q.at, want_ag[r][c]);
			CHECK_EQ(q.hi, want_ag[r][c]);
			CHECK(wl_sd_trace_queued(wl, r, 0, c, &q));
			CHECK_EQ(q.at, want_root[r][c]);
			CHECK(wl_sd_trace_queued(wl, r, g, c, &q));
			CHECK_EQ(q.at, c == 2);
		}
	/* 60 moved to the root: the kernel's empty queue agrees at the read's sched_clk */
	CHECK(wl_sd_trace_queued(wl, 0, ag, 1, &q));
	CHECK_EQ(q.agree_ns, 0);
	CHECK_EQ(note_value(wl, "their exit's autogroup move"), 1);
	wl_free(wl);
}

/*
 * The charges around small-pirt's deboost (the trace's cycle): the holder's
 * RT tick at 3 ms, then at the deboost (4 ms) rt_mutex_setprio()'s dequeue
 * charges it as RT (update_curr_rt(), written right after sched_pi_setprio),
 * then its fair run's charge at its sleep.  The fair row counts the last only
 * (and 10's fair charge before the boost): the deboost's is RT/DL.  Before:
 * that charge, the fair record's first event, was counted fair (small-pirt:
 * 122 of its 568 fair events).  A charge of 10 after another event on the
 * CPU stays fair.
 */
static void test_deboost_charge(void)
{
	for (int later = 0; later <= 1; later++) {
		struct wl_workload *wl;
		struct trace_event ev[24], cyc[16];
		size_t n = 0, m = ev_pirt_cycle(cyc, true);

		start();
		for (size_t i = 0; i < m; i++) {
			if (cyc[i].ts == 2 * MS + 2000)
				ev[n++] = ev_runtime(2 * MS + 1900, 0, 10, 500000);
			if (cyc[i].ts == 5 * MS) {
				ev[n++] = ev_runtime(5 * MS - 100, 0, 10, 300000);
			}
			ev[n++] = cyc[i];
			if (cyc[i].type == TRACE_EV_SCHED_PI_SETPRIO && cyc[i].ts == 4 * MS) {
				if (later)
					ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 4 * MS + 100, 0, 10,
							  0, 12, 120, 0);
				ev[n++] = ev_runtime(4 * MS + 200, 0, 10, 900000);
			}
			if (cyc[i].ts == 2 * MS + 11000)
				ev[n++] = ev_runtime(3 * MS, 0, 10, 989000);
		}
		for (size_t i = 0; i < n; i++)
			feed(ev[i]);
		wl = finish();
		CHECK(wl != NULL);
		if (!wl)
			return;
		CHECK_EQ(wl_counts(wl)->sched_stat_runtime, 4);
		CHECK_EQ(wl_counts(wl)->sched_stat_runtime_fair, later ? 3 : 2);
		CHECK_EQ(note_value(wl, "sched_stat_runtime events of a running task right after its "
				    "deboost"), later ? 0 : 1);
		wl_free(wl);
	}
}

/*
 * What ended each idle interval (wl_idle.ended_by, --idle-tick short): CPU 0
 * runs 10 throughout; CPU 1 runs 20, which blocks at 1 ms.  [1, 2 ms):
 * ended by a hardirq wake raised on CPU 1 itself (a local timer): local.
 * 21 blocks at 3 ms; [3, 3.5 ms): ended by 10's wake of 20 from CPU 0 (a
 * remote wake, by IPI): remote.  20 blocks at 4 ms; [4, 4.5 ms): the RT
 * task 23 woken by a softirq on CPU 1: local; 23 blocks at 5 ms; [5, 6 ms):
 * 23 woken from CPU 0's hardirq: remote.  Idle to the end from 7 ms: none.
 */
static void test_idle_ended_by(void)
{
	struct wl_workload *wl;
	const struct wl_idle *iv;

	start();
	feed(ev_runtime(100 * US, 0, 10, 100 * US));
	feed(ev_runtime(200 * US, 1, 20, 200 * US));
	feed(ev_switch(1 * MS, 1, 20, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 1, 0, HARDIRQ, 21, 120, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 2 * US, 1, 0, HARDIRQ, 21, 120, 1));
	feed(ev_switch(2 * MS + 10 * US, 1, 0, 'R', 120, 21, 120));
	feed(ev_switch(3 * MS, 1, 21, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS + 500 * US, 0, 10, 0, 20, 120, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 502 * US, 0, 10, 0, 20, 120, 1));
	feed(ev_switch(3 * MS + 510 * US, 1, 0, 'R', 120, 20, 120));
	feed(ev_switch(4 * MS, 1, 20, 'S', 120, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 4 * MS + 500 * US, 1, 0, SOFTIRQ, 23, 49, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 4 * MS + 502 * US, 1, 0, SOFTIRQ, 23, 49, 1));
	feed(ev_switch(4 * MS + 510 * US, 1, 0, 'R', 120, 23, 49));
	feed(ev_switch(5 * MS, 1, 23, 'S', 49, 0, 120));
	feed(ev_wake(TRACE_EV_SCHED_WAKING, 6 * MS, 0, 10, HARDIRQ, 23, 49, 1));
	feed(ev_wake(TRACE_EV_SCHED_WAKEUP, 6 * MS + 2 * US, 0, 10, HARDIRQ, 23, 49, 1));
	feed(ev_switch(6 * MS + 10 * US, 1, 0, 'R', 120, 23, 49));
	feed(ev_switch(7 * MS, 1, 23, 'S', 49, 0, 120));
	feed(ev_runtime(8 * MS, 0, 10, 1 * MS));
	wl = finish();

	iv = wl_cpu_idle_interval(wl, 1, 1 * MS + 500 * US);
	CHECK(iv != NULL);
	if (iv) {
		CHECK_EQ(iv->start, 1 * MS);
		CHECK_EQ(iv->end, 2 * MS + 10 * US);
		CHECK_EQ(iv->ended_by, WL_IDLE_END_LOCAL);
	}
	CHECK(wl_cpu_idle_interval(wl, 1, 2 * MS + 500 * US) == NULL);
	iv = wl_cpu_idle_next(wl, 1, 2 * MS + 500 * US);
	CHECK(iv != NULL && iv->start == 3 * MS);
	iv = wl_cpu_idle_interval(wl, 1, 3 * MS + 100 * US);
	CHECK(iv != NULL && iv->ended_by == WL_IDLE_END_REMOTE);
	iv = wl_cpu_idle_interval(wl, 1, 4 * MS + 100 * US);
	CHECK(iv != NULL && iv->ended_by == WL_IDLE_END_LOCAL);
	iv = wl_cpu_idle_interval(wl, 1, 5 * MS + 100 * US);
	CHECK(iv != NULL && iv->ended_by == WL_IDLE_END_REMOTE);
	iv = wl_cpu_idle_interval(wl, 1, 7 * MS + 100 * US);
	CHECK(iv == NULL || iv->ended_by == WL_IDLE_END_NONE);
	wl_free(wl);
}

int main(void)
{
	test_idle_ended_by();
	test_sd_trace_queued();
	test_sd_trace_queued_exit();
	test_pid_limit();
	test_deboost_charge();
	test_bad_values();
	test_cgmap_paths();
	test_cpu_limit();
	test_basic();
	test_nice_changes();
	test_pi_boost();
	test_pi_first_deboost();
	test_pi_unseen_nice();
	test_pi_nice_before_boost();
	test_pi_nice_while_boosted();
	test_pi_nice_to_boost();
	test_pi_rt_first();
	test_class_change();
	test_class_change_pi();
	test_class_change_pi_queued();
	test_unseen_after_idle(false, true);
	test_unseen_after_idle(true, true);
	test_unseen_after_idle(true, false);
	for (int m = WL_UNSEEN_NOMIG_QUEUED; m <= WL_UNSEEN_NOMIG_ALL_IDLE; m++) {
		test_unseen_nomig(m, false);
		test_unseen_nomig(m, true);
	}
	for (int m = 0; m < 4; m++)
		test_fork_assumed(m & 1, m & 2);
	test_ksoftirqd_wakes(false);
	test_ksoftirqd_wakes(true);
	for (int scope = WL_FLUSH_SCOPE_BASE; scope <= WL_FLUSH_SCOPE_BOTH; scope++) {
		test_flush_scope(scope, false);
		test_flush_scope(scope, true);
	}
	test_wakelist_wakes(false);
	test_wakelist_wakes(true);
	test_race_and_spurious();
	test_lifecycle();
	test_pid_reuse_in_exit();
	test_exit_move_last_run();
	test_exit_move_last_run_sleep();
	test_pid_reuse_open_switch();
	test_multithreaded_exec();
	test_exec_leader_off_cpu();
	test_reuse_preempted_old();
	test_reuse_lost_old();
	test_migrate();
	test_balance_pass();
	test_balance_pass_bounds();
	test_hz();
	test_hz_grid();
	test_lost();
	test_lost_windows();
	test_lost_windows_nested();
	test_wakeup_no_success();
	test_calib();
	test_calib_idle_cpu();
	test_calib_idle_band();
	test_restored();
	test_exit_move_idle();
	test_handoff_sync();
	test_handoff_signal();
	test_oneway_channel();
	test_timing();
	test_self_migrate();
	test_self_migrate_wake();
	test_exec_marks();
	test_bandwidth_phase();
	test_lost_idle_switch();
	test_lost_idle_switch_exited();
	test_lost_idle_switch_wakes();
	test_lost_switch_elsewhere();
	test_lost_switch_remote_stat();
	test_lost_switch_other();
	test_stat_chain_feeds();
	test_strict_preempt_costs();
	CHECK_DONE();
}
