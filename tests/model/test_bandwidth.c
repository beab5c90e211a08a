// SPDX-License-Identifier: GPL-2.0
/*
 * CFS bandwidth control (model/bandwidth.c), hand-computed scenarios on the
 * 6.18 profile (the task-based throttle).  Times: T0 = 1 s, a multiple of
 * every period used, so with timer phase 0 the period timer's first expiry
 * is T0 + period (hrtimer_forward() from expires 0 past T0: 10 periods bring
 * it to T0 itself, not after now, so one more).  The 5 ms bandwidth slice
 * (sysctl_sched_cfs_bandwidth_slice) is what every queue takes from the pool
 * at a time; ticks are called at chosen times (the model takes any), so
 * that update_curr() charges exactly what the comment says.
 */
#include <string.h>

#include "check.h"
#include "sched.h"

#define MS 1000000ULL
#define US 1000ULL
#define T0 (1000ULL * MS)

static struct model *mk(unsigned int nr_cpus)
{
	struct model_config cfg = { .nr_cpus = nr_cpus, .hz = 250, .seed = 3 };

	cfg.profile = model_profile_find("6.18");
	return model_new(&cfg, NULL);
}

static struct model_task *fork_in(struct model *m, struct model_group *g, uint32_t id, int cpu,
				  uint64_t now)
{
	struct model_task *t = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, id, NULL);

	CHECK(model_wake_up_new_task(m, t, cpu, cpu, now) == 0);
	return t;
}

static struct cfs_rq *q(struct model_group *g, int cpu)
{
	return ((struct task_group *)g)->cfs_rq[cpu];
}

static struct cfs_bandwidth *pool(struct model_group *g)
{
	return &((struct task_group *)g)->cfs_bandwidth;
}

/* /a with 10 ms per 100 ms from T0, one task forked into it at T0 and running */
static struct model_task *run_one_in_a(struct model *m, struct model_group **a)
{
	struct model_task *t;

	*a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	CHECK(model_group_set_bandwidth(m, *a, 10 * MS, 100 * MS, 0, T0, NULL) == 0);
	t = fork_in(m, *a, 1, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t);
	return t;
}

/* @t, running since T0 with 10 ms of quota, throttled at T0 + 10 ms and in limbo at T0 + 11 ms */
static void run_to_limbo(struct model *m, struct model_task *t)
{
	model_tick(m, 0, T0 + 5 * MS);
	model_tick(m, 0, T0 + 10 * MS);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 11 * MS) == NULL);
	CHECK(t->throttled);
}

static uint64_t bw_counter(struct model *m, const char *name)
{
	uint64_t v = ~0ULL;

	CHECK_MSG(model_counter_get(m, name, &v), "no counter %s", name);
	return v;
}

/*
 * One CPU-bound task in /a, quota 10 ms per 100 ms.
 *   set at T0: pool 10 ms, timer at T0 + 100 ms.
 *   fork at T0: check_enqueue_throttle() -> assign: 5 ms slice -> pool 5 ms.
 *   tick T0 + 5 ms: 5 ms charged, remaining 0 -> another slice, pool 0.
 *   tick T0 + 10 ms: remaining 0, the pool is empty: resched, not throttled
 *     yet (only put_prev / pick throttle).
 *   __schedule at T0 + 10 ms: pick_task_fair()'s check_cfs_rq_runtime()
 *     throttles /a (nothing dequeued in 6.18) and picks the task again, with
 *     its throttle work; the model asks for the next __schedule at once.
 *   __schedule at T0 + 10 ms + 2 us: the work dequeues it (2 us more
 *     charged: remaining -2000 ns) to /a's limbo list; /a empties, its group
 *     entity leaves the root queue, its PELT clock stops; the CPU idles.
 *   timer at T0 + 100 ms: pool 10 ms, /a's deficit + 1 = 2001 ns handed out
 *     (remaining 1 ns), unthrottled, the task queued again, the idle CPU
 *     rescheduled; throttled for 100 - 10 - 0.002 ms.
 *   second period: tick T0 + 105 ms: remaining 1 - 5 ms -> asks 5 ms + its
 *     deficit 4 999 999 ns; the pool has 10 ms - 2001: all of it; remaining
 *     4 998 000.  tick T0 + 110 ms: -2000 -> throttled again: the period's
 *     runtime is exactly the quota (10 ms = 2 us of the last period's
 *     overrun + 9.998 ms).
 */
static void test_one_task(void)
{
	struct model *m = mk(1);
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct model_bandwidth_info bi;
	struct model_task_info ti;
	struct model_task *t;

	CHECK(model_group_set_bandwidth(m, a, 10 * MS, 100 * MS, 0, T0, NULL) == 0);
	CHECK_EQ_U(pool(a)->runtime, 10 * MS);
	CHECK_EQ_U(model_next_timer(m), T0 + 100 * MS);

	t = fork_in(m, a, 1, 0, T0);
	CHECK_EQ_S(q(a, 0)->runtime_remaining, 5 * MS);
	CHECK_EQ_U(pool(a)->runtime, 5 * MS);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t);

	model_tick(m, 0, T0 + 5 * MS);
	CHECK_EQ_S(q(a, 0)->runtime_remaining, 5 * MS);
	CHECK_EQ_U(pool(a)->runtime, 0);
	CHECK(!model_need_resched(m, 0));

	model_tick(m, 0, T0 + 10 * MS);
	CHECK_EQ_S(q(a, 0)->runtime_remaining, 0);
	CHECK(model_need_resched(m, 0));
	CHECK(!q(a, 0)->throttled);

	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS) == t);
	CHECK(q(a, 0)->throttled);
	CHECK_EQ_S(q(a, 0)->throttle_count, 1);
	CHECK(q(a, 0)->se->on_rq);              /* 6.18: the hierarchy stays queued */
	CHECK(t->throttle_work);
	CHECK(model_need_resched(m, 0));
	CHECK_EQ_U(bw_counter(m, "throttle_cfs_rq"), 1);
	CHECK(model_check_invariants(m, NULL) == 0);

	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS + 2 * US) == NULL);
	model_task_info(t, &ti);
	CHECK(ti.throttled);
	CHECK_EQ_U(ti.state, MODEL_TASK_QUEUED);
	CHECK_EQ_U(ti.sum_exec_runtime, 10 * MS + 2 * US);
	CHECK_EQ_S(q(a, 0)->runtime_remaining, -2000);
	CHECK(!q(a, 0)->se->on_rq);
	CHECK(q(a, 0)->pelt_clock_throttled);
	CHECK(!q(a, 0)->on_list);
	CHECK_EQ_U(q(a, 0)->limbo_head == t, 1);
	CHECK_EQ_U(model_nr_queued(m, 0), 0);
	CHECK_EQ_U(m->rqs[0].nr_running, 0);
	CHECK_EQ_U(bw_counter(m, "throttle_cfs_rq_work"), 1);
	CHECK_EQ_U(cfs_rq_clock_pelt(q(a, 0)), T0 + 10 * MS + 2 * US);
	CHECK(model_check_invariants(m, NULL) == 0);

	/* nothing happens before the period ends */
	model_run_timers(m, T0 + 99 * MS);
	CHECK(q(a, 0)->throttled);
	CHECK_EQ_U(model_next_timer(m), T0 + 100 * MS);

	model_run_timers(m, T0 + 100 * MS);
	CHECK(!q(a, 0)->throttled);
	CHECK_EQ_S(q(a, 0)->throttle_count, 0);
	CHECK_EQ_S(q(a, 0)->runtime_remaining, 1);
	CHECK_EQ_U(pool(a)->runtime, 10 * MS - 2001);
	CHECK(!t->throttled);
	CHECK(q(a, 0)->se->on_rq);
	CHECK_EQ_U(model_nr_queued(m, 0), 1);
	CHECK(model_need_resched(m, 0));         /* idle CPU with a task again */
	CHECK_EQ_U(bw_counter(m, "unthrottle_cfs_rq"), 1);
	CHECK(model_group_bandwidth(a, &bi) == 0);
	CHECK_EQ_U(bi.nr_periods, 1);
	CHECK_EQ_U(bi.nr_throttled, 1);
	CHECK_EQ_U(bi.throttled_time_ns, 90 * MS - 2 * US);
	CHECK_EQ_U(bi.period_expires, T0 + 200 * MS);
	/* the PELT clock skipped the throttled, empty time */
	CHECK_EQ_U(q(a, 0)->throttled_clock_pelt_time, 90 * MS - 2 * US);
	CHECK_EQ_U(cfs_rq_clock_pelt(q(a, 0)), T0 + 10 * MS + 2 * US);
	CHECK(model_check_invariants(m, NULL) == 0);

	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 100 * MS) == t);
	model_tick(m, 0, T0 + 105 * MS);
	CHECK_EQ_S(q(a, 0)->runtime_remaining, 4998000);
	CHECK_EQ_U(pool(a)->runtime, 0);
	model_tick(m, 0, T0 + 110 * MS);
	CHECK_EQ_S(q(a, 0)->runtime_remaining, -2000);
	CHECK(model_need_resched(m, 0));
	model_free(m);
}

/*
 * Two CPUs share /a's 20 ms per 100 ms, one task each.  Forks at T0 take a
 * slice each (pool 10 ms); ticks at T0 + 5 ms take one more each (CPU 0
 * first: pool 5, then 0); at T0 + 10 ms both run dry and are throttled (CPU
 * 0 first: the throttled list is in that order).  The group ran 20 ms in
 * all.  Both are dequeued 2 us later (deficits 2000 ns each).  The timer
 * hands out 2001 ns to each, CPU 0 first: pool 20 ms - 4002.
 */
static void test_two_cpus(void)
{
	struct model *m = mk(2);
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct model_task *t0, *t1;
	int cpu;

	CHECK(model_group_set_bandwidth(m, a, 20 * MS, 100 * MS, 0, T0, NULL) == 0);
	t0 = fork_in(m, a, 1, 0, T0);
	t1 = fork_in(m, a, 2, 1, T0);
	CHECK_EQ_U(pool(a)->runtime, 10 * MS);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t0);
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0) == t1);
	model_tick(m, 0, T0 + 5 * MS);
	CHECK_EQ_U(pool(a)->runtime, 5 * MS);
	model_tick(m, 1, T0 + 5 * MS);
	CHECK_EQ_U(pool(a)->runtime, 0);
	for (cpu = 0; cpu < 2; cpu++) {
		model_tick(m, cpu, T0 + 10 * MS);
		CHECK(model_need_resched(m, cpu));
		model_schedule(m, cpu, MODEL_PREV_RUNNABLE, T0 + 10 * MS);
	}
	CHECK(pool(a)->throttled_head == q(a, 0));
	CHECK(pool(a)->throttled_tail == q(a, 1));
	for (cpu = 0; cpu < 2; cpu++) {
		CHECK(model_schedule(m, cpu, MODEL_PREV_RUNNABLE, T0 + 10 * MS + 2 * US) == NULL);
		CHECK_EQ_S(q(a, cpu)->runtime_remaining, -2000);
	}
	CHECK(t0->throttled && t1->throttled);
	CHECK_EQ_U(t0->se.sum_exec_runtime + t1->se.sum_exec_runtime, 20 * MS + 4 * US);
	CHECK(model_check_invariants(m, NULL) == 0);

	model_run_timers(m, T0 + 100 * MS);
	CHECK_EQ_U(pool(a)->runtime, 20 * MS - 4002);
	for (cpu = 0; cpu < 2; cpu++) {
		CHECK(!q(a, cpu)->throttled);
		CHECK_EQ_S(q(a, cpu)->runtime_remaining, 1);
		CHECK(model_need_resched(m, cpu));
	}
	CHECK(pool(a)->throttled_head == NULL);
	CHECK_EQ_U(bw_counter(m, "unthrottle_cfs_rq"), 2);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * The limit on a parent: /p has 10 ms per 100 ms, its child /p/c none; the
 * task is in /p/c.  /p's queue is charged as the child's group entity runs
 * (update_curr() at /p's level), so the task is throttled after 10 ms as in
 * test_one_task(); throttle_cfs_rq(/p) counts in /p/c too (tg_throttle_down()
 * walks the subtree): /p throttled, /p/c not throttled itself but
 * throttle_count 1, and the task sits on /p/c's limbo list.  Both queues
 * empty: both PELT clocks stop.  The timer unthrottles /p: the walk up
 * (children first) re-enqueues the task from /p/c.
 */
static void test_parent_limit(void)
{
	struct model *m = mk(1);
	struct model_group *p = model_group_new(m, model_root_group(m), 1024, "/p", NULL);
	struct model_group *c = model_group_new(m, p, 1024, "/p/c", NULL);
	struct model_task *t;

	CHECK(model_group_set_bandwidth(m, p, 10 * MS, 100 * MS, 0, T0, NULL) == 0);
	t = fork_in(m, c, 1, 0, T0);
	CHECK_EQ_S(q(p, 0)->runtime_remaining, 5 * MS);
	CHECK_EQ_S(q(c, 0)->runtime_remaining, 0);      /* no limit: never charged */
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t);
	model_tick(m, 0, T0 + 5 * MS);
	model_tick(m, 0, T0 + 10 * MS);
	CHECK(model_need_resched(m, 0));
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS) == t);
	CHECK(q(p, 0)->throttled && !q(c, 0)->throttled);
	CHECK_EQ_S(q(p, 0)->throttle_count, 1);
	CHECK_EQ_S(q(c, 0)->throttle_count, 1);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS + 2 * US) == NULL);
	CHECK(q(c, 0)->limbo_head == t && q(p, 0)->limbo_head == NULL);
	CHECK(q(c, 0)->pelt_clock_throttled && q(p, 0)->pelt_clock_throttled);
	CHECK(!q(p, 0)->se->on_rq && !q(c, 0)->se->on_rq);
	CHECK(!q(p, 0)->on_list && !q(c, 0)->on_list);
	CHECK(model_check_invariants(m, NULL) == 0);

	model_run_timers(m, T0 + 100 * MS);
	CHECK(!t->throttled && t->se.on_rq);
	CHECK_EQ_S(q(c, 0)->throttle_count, 0);
	CHECK(!q(c, 0)->pelt_clock_throttled && !q(p, 0)->pelt_clock_throttled);
	CHECK_EQ_U(q(c, 0)->throttled_clock_pelt_time, 90 * MS - 2 * US);
	CHECK_EQ_U(model_nr_queued(m, 0), 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * A task that sleeps with its queue's runtime exactly spent and the pool
 * empty: its dequeue's update_curr() finds nothing to assign (runtime_remaining
 * 0, nothing to return), and put_prev_entity()'s check_cfs_rq_runtime()
 * throttles the now empty queue: PELT clock stopped, off the leaf list.  Its
 * wakeup enqueues it into the throttled queue (6.18); the pick sets its
 * throttle work and the next __schedule() puts it in limbo.
 *
 * check_enqueue_throttle(): on two CPUs, a task on CPU 0 drains /a's pool
 * (slices at its fork and at T0 + 5 ms); a task forked on CPU 1 at T0 + 6 ms
 * is the first entity of CPU 1's queue, whose runtime_remaining is 0 (as
 * tg_set_cfs_bandwidth() left it): account_cfs_rq_runtime(0) asks the empty
 * pool, and the queue is throttled at the enqueue.
 */
static void test_enqueue_throttle(void)
{
	struct model *m = mk(1);
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct model_task *t, *t1;

	CHECK(model_group_set_bandwidth(m, a, 10 * MS, 100 * MS, 0, T0, NULL) == 0);
	t = fork_in(m, a, 1, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t);
	model_tick(m, 0, T0 + 5 * MS);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 10 * MS) == NULL);
	CHECK_EQ_S(q(a, 0)->runtime_remaining, 0);
	CHECK(q(a, 0)->throttled);
	CHECK(q(a, 0)->pelt_clock_throttled && !q(a, 0)->on_list);
	CHECK_EQ_U(bw_counter(m, "throttle_cfs_rq"), 1);
	CHECK(model_check_invariants(m, NULL) == 0);

	CHECK(model_try_to_wake_up(m, t, 0, -1, MODEL_WF_TTWU, T0 + 20 * MS) == 1);
	CHECK(!q(a, 0)->pelt_clock_throttled && q(a, 0)->on_list);
	CHECK_EQ_U(q(a, 0)->throttled_clock_pelt_time, 10 * MS);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 20 * MS) == t);
	CHECK(t->throttle_work);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 20 * MS + 1 * US) == NULL);
	CHECK(t->throttled);
	CHECK_EQ_U(bw_counter(m, "throttle_cfs_rq"), 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);

	m = mk(2);
	a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	CHECK(model_group_set_bandwidth(m, a, 10 * MS, 100 * MS, 0, T0, NULL) == 0);
	t = fork_in(m, a, 1, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t);
	model_tick(m, 0, T0 + 5 * MS);
	CHECK_EQ_U(pool(a)->runtime, 0);
	CHECK_EQ_S(q(a, 1)->runtime_remaining, 0);
	t1 = fork_in(m, a, 2, 1, T0 + 6 * MS);
	CHECK(q(a, 1)->throttled);
	CHECK(!q(a, 0)->throttled);
	CHECK_EQ_U(bw_counter(m, "throttle_cfs_rq"), 1);
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0 + 6 * MS) == t1);
	CHECK(t1->throttle_work);
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0 + 6 * MS + 1 * US) == NULL);
	CHECK(t1->throttled);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * Slack: three CPUs, /a has 30 ms per 100 ms.  Tasks a0 and a2 are forked
 * behind running root tasks on CPUs 0 and 2: each queue takes a 5 ms slice
 * it never uses (pool 20 ms).  b on CPU 1 takes its slice (pool 15 ms) and
 * runs: slices at T0 + 5, 10, 15 ms (pool 0), throttled at T0 + 20 ms,
 * dequeued 2 us later (deficit 2000 ns).  At T0 + 30 ms a0 and a2 are
 * reniced: each dequeue empties its queue, which returns all but 1 ms of its
 * 5 ms (__return_cfs_rq_runtime(): 4 ms each): the pool has 4 ms after the
 * first (not above a slice: no slack timer), 8 ms after the second, with a
 * queue throttled and the period timer 70 ms away (> 5 + 2 ms): the slack
 * timer is armed for T0 + 35 ms.  It hands b's queue 2001 ns and
 * unthrottles it 65 ms before the period would have.
 * runtime_refresh_within() at its boundary (the returns at T0 + @ret):
 * returned at T0 + 93 ms, the refill is 7 ms away, not less than 5 + 2 ms:
 * armed for T0 + 98 ms, where the refill is 2 ms away, not less than
 * min_bandwidth_expiration: distributed as above.  At T0 + 94 ms (6 ms
 * away) it is not armed: b waits for the period timer.
 */
static void test_slack(uint64_t ret)
{
	struct model *m = mk(3);
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct model_task *r0, *r2, *a0, *a2, *b;
	uint64_t now;
	bool armed = 100 * MS - ret >= 7 * MS;

	CHECK(model_group_set_bandwidth(m, a, 30 * MS, 100 * MS, 0, T0, NULL) == 0);
	r0 = fork_in(m, NULL, 10, 0, T0);
	r2 = fork_in(m, NULL, 12, 2, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == r0);
	CHECK(model_schedule(m, 2, MODEL_PREV_RUNNABLE, T0) == r2);
	a0 = fork_in(m, a, 1, 0, T0);
	a2 = fork_in(m, a, 3, 2, T0);
	b = fork_in(m, a, 2, 1, T0);
	CHECK_EQ_U(pool(a)->runtime, 15 * MS);
	/* the forks may preempt the root tasks: put them back */
	for (int cpu = 0; cpu <= 2; cpu += 2) {
		if (model_need_resched(m, cpu))
			model_schedule(m, cpu, MODEL_PREV_RUNNABLE, T0);
	}
	CHECK(model_curr(m, 0) == r0 || model_curr(m, 0) == a0);
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0) == b);
	for (now = T0 + 5 * MS; now <= T0 + 15 * MS; now += 5 * MS)
		model_tick(m, 1, now);
	CHECK_EQ_U(pool(a)->runtime, 0);
	model_tick(m, 1, T0 + 20 * MS);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0 + 20 * MS);
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0 + 20 * MS + 2 * US) == NULL);
	CHECK(b->throttled);

	if (model_curr(m, 0) != r0 || model_curr(m, 2) != r2) {
		/* a fork preempted: the scenario needs a0 and a2 not to have run */
		CHECK_MSG(0, "a0/a2 ran: curr %p %p", (void *)model_curr(m, 0),
			  (void *)model_curr(m, 2));
		model_free(m);
		return;
	}
	CHECK(model_task_set_nice(m, a0, 1, T0 + ret) == 0);
	CHECK_EQ_U(pool(a)->runtime, 4 * MS);
	CHECK(!pool(a)->slack_started);
	CHECK_EQ_S(q(a, 0)->runtime_remaining, 1 * MS);
	CHECK(model_task_set_nice(m, a2, 1, T0 + ret) == 0);
	CHECK_EQ_U(pool(a)->runtime, 8 * MS);
	CHECK(pool(a)->slack_started == armed);
	CHECK_EQ_U(model_next_timer(m), T0 + (armed ? ret + 5 * MS : 100 * MS));
	CHECK_EQ_U(bw_counter(m, "return_cfs_rq_runtime"), 2);
	if (!armed) {
		CHECK(b->throttled);
		model_free(m);
		return;
	}

	model_run_timers(m, T0 + ret + 5 * MS);
	CHECK(!q(a, 1)->throttled && !b->throttled);
	CHECK_EQ_U(pool(a)->runtime, 8 * MS - 2001);
	CHECK_EQ_U(bw_counter(m, "sched_cfs_slack_timer"), 1);
	CHECK_EQ_U(model_next_timer(m), T0 + 100 * MS);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * The period timer stops after a whole period in which nobody took runtime
 * (cfs_b->idle) and restarts on its old grid.  One task takes a slice at T0
 * and sleeps at T0 + 1 ms (returning 3 ms).  T0 + 100 ms: pool refilled,
 * idle marked; T0 + 200 ms: still idle -> the timer stops (its expiry was
 * forwarded to T0 + 300 ms first).  The wakeup at T0 + 432 ms asks the pool
 * (its 1 ms is left: no; account_cfs_rq_runtime(0) only asks when
 * runtime_remaining <= 0), so it runs 1 ms, then its tick at T0 + 433 ms
 * asks and restarts the timer: T0 + 500 ms, on the grid.
 */
static void test_idle_timer(void)
{
	struct model *m = mk(1);
	struct model_group *a;
	struct model_task *t = run_one_in_a(m, &a);

	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 1 * MS) == NULL);
	CHECK_EQ_U(pool(a)->runtime, 8 * MS);
	model_run_timers(m, T0 + 100 * MS);
	CHECK(pool(a)->idle && pool(a)->period_active);
	CHECK_EQ_U(pool(a)->runtime, 10 * MS);
	model_run_timers(m, T0 + 200 * MS);
	CHECK(!pool(a)->period_active);
	CHECK_EQ_U(model_next_timer(m), UINT64_MAX);
	CHECK_EQ_U(bw_counter(m, "sched_cfs_period_timer"), 2);

	CHECK(model_try_to_wake_up(m, t, 0, -1, MODEL_WF_TTWU, T0 + 432 * MS) == 1);
	CHECK(!pool(a)->period_active);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 432 * MS) == t);
	model_tick(m, 0, T0 + 433 * MS);
	CHECK(pool(a)->period_active);
	CHECK_EQ_U(model_next_timer(m), T0 + 500 * MS);
	CHECK_EQ_S(q(a, 0)->runtime_remaining, 5 * MS);
	model_free(m);
}

/*
 * throttle_cfs_rq() asks the pool for 1 ns before it throttles: the period
 * timer (phase 10 ms: expiry T0 + 10 ms) refills the pool between the tick
 * that found it empty (T0 + 10 ms, resched) and the __schedule() at the same
 * time (update_curr() has no delta there: no new slice asked).  The queue
 * gets 1 ns and is not throttled; the task runs on.
 */
static void test_refill_race(void)
{
	struct model *m = mk(1);
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct model_task *t;

	CHECK(model_group_set_bandwidth(m, a, 10 * MS, 100 * MS, 10 * MS, T0, NULL) == 0);
	CHECK_EQ_U(model_next_timer(m), T0 + 10 * MS);
	t = fork_in(m, a, 1, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t);
	model_tick(m, 0, T0 + 5 * MS);
	model_tick(m, 0, T0 + 10 * MS);
	CHECK(model_need_resched(m, 0));
	model_run_timers(m, T0 + 10 * MS);
	CHECK_EQ_U(pool(a)->runtime, 10 * MS);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS) == t);
	CHECK(!q(a, 0)->throttled && !t->throttle_work);
	CHECK_EQ_S(q(a, 0)->runtime_remaining, 1);
	CHECK_EQ_U(pool(a)->runtime, 10 * MS - 1);
	model_free(m);
}

/* Bad limits are errors; removing the limit unthrottles and hides the counters. */
static void test_api(void)
{
	struct model *m = mk(1);
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct sr_error err = { 0 };
	struct model_bandwidth_info bi;
	struct model_task *t;
	uint64_t v;

	CHECK(!model_counter_get(m, "throttle_cfs_rq", &v));   /* no quota: not listed */
	/* a new group's pool (init_cfs_bandwidth(), kernel/sched/fair.c): no
	 * quota, default_cfs_period() = 100 ms (cpu.max "max 100000"), idle */
	CHECK(model_group_bandwidth(a, &bi) == 0);
	CHECK_EQ_U(bi.quota_ns, 0);
	CHECK_EQ_U(bi.period_ns, 100 * MS);
	CHECK(!bi.period_active);
	CHECK(model_group_bandwidth(model_root_group(m), &bi) < 0);
	CHECK(model_group_set_bandwidth(m, model_root_group(m), 10 * MS, 100 * MS, 0, T0, &err) < 0);
	CHECK(model_group_set_bandwidth(m, a, 10 * MS, 100 * US, 0, T0, &err) < 0);
	CHECK(strstr(err.msg, "period") != NULL);
	CHECK(model_group_set_bandwidth(m, a, 10 * US, 100 * MS, 0, T0, &err) < 0);
	CHECK(strstr(err.msg, "quota") != NULL);
	CHECK(model_group_set_bandwidth(m, a, 10 * MS, 100 * MS, 0, T0, &err) == 0);
	CHECK(model_counter_get(m, "throttle_cfs_rq", &v) && v == 0);

	t = fork_in(m, a, 1, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t);
	run_to_limbo(m, t);
	CHECK(model_group_set_bandwidth(m, a, 0, 100 * MS, 0, T0 + 20 * MS, &err) == 0);
	CHECK(!t->throttled && t->se.on_rq);
	CHECK(!q(a, 0)->runtime_enabled);
	CHECK(!model_counter_get(m, "throttle_cfs_rq", &v));
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * A limbo task leaves the fair class (sched_setscheduler() to RT:
 * dequeue_task_fair() with DEQUEUE_SAVE | DEQUEUE_MOVE, no DEQUEUE_SLEEP):
 * dequeue_throttled_task() takes it off /a's limbo list and keeps
 * p->throttled, as 6.18 does.  Case @requota false: /a's quota is removed
 * while it is out (no group has a quota: cfs_bandwidth_used() false), it
 * comes back (switched_to_fair()) and is enqueued for real with the flag
 * cleared; /a gets a quota again, the task runs and sleeps, and its
 * dequeue takes it off every queue.  Before bw52 the flag stayed set
 * (task_is_throttled() false at the enqueue), so the sleep's dequeue took
 * dequeue_throttled_task() and left the entity queued: /a's h_nr_queued 1,
 * rq nr_running 1 with the task asleep.  Case @requota true: the quota
 * stays, /a is still throttled when it comes back: straight onto the limbo
 * list again (enqueue_throttled_task(), unchanged).
 */
static void test_class_change(bool requota)
{
	struct model *m = mk(1);
	struct model_group *a;
	struct model_task *t = run_one_in_a(m, &a);

	run_to_limbo(m, t);
	CHECK(q(a, 0)->limbo_head == t);
	CHECK_EQ_U(m->nr_throttled_tasks, 1);

	CHECK(model_task_switched_from_fair(m, t, T0 + 12 * MS) == 0);
	CHECK(t->throttled);                     /* kept, as 6.18 */
	CHECK(q(a, 0)->limbo_head == NULL);
	CHECK_EQ_U(m->nr_throttled_tasks, 0);
	CHECK(!t->se.on_rq);
	CHECK(model_check_invariants(m, NULL) == 0);

	if (requota) {
		CHECK(model_task_switched_to_fair(m, t, 0, false, T0 + 30 * MS) == 0);
		CHECK(t->throttled && q(a, 0)->limbo_head == t);
		CHECK(!t->se.on_rq);
		CHECK_EQ_U(q(a, 0)->h_nr_queued, 0);
		CHECK_EQ_U(m->rqs[0].nr_running, 0);
		CHECK(model_check_invariants(m, NULL) == 0);
		model_run_timers(m, T0 + 100 * MS);
		CHECK(!t->throttled && t->se.on_rq);
		CHECK_EQ_U(q(a, 0)->h_nr_queued, 1);
		CHECK(model_check_invariants(m, NULL) == 0);
		model_free(m);
		return;
	}
	CHECK(model_group_set_bandwidth(m, a, 0, 100 * MS, 0, T0 + 20 * MS, NULL) == 0);
	CHECK_EQ_U(m->cfs_bandwidth_used, 0);
	CHECK(model_task_switched_to_fair(m, t, 0, false, T0 + 30 * MS) == 0);
	CHECK(!t->throttled);
	CHECK(t->se.on_rq);
	CHECK_EQ_U(q(a, 0)->h_nr_queued, 1);
	CHECK_EQ_U(m->rqs[0].nr_running, 1);
	CHECK(model_check_invariants(m, NULL) == 0);

	CHECK(model_group_set_bandwidth(m, a, 10 * MS, 100 * MS, 0, T0 + 40 * MS, NULL) == 0);
	CHECK_EQ_U(m->cfs_bandwidth_used, 1);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 40 * MS) == t);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 41 * MS) == NULL);
	CHECK(!t->throttled && !t->se.on_rq);
	CHECK_EQ_U(q(a, 0)->h_nr_queued, 0);
	CHECK_EQ_U(q(a, 0)->nr_running, 0);
	CHECK_EQ_U(m->rqs[0].cfs.h_nr_queued, 0);
	CHECK_EQ_U(m->rqs[0].nr_running, 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

int main(void)
{
	test_one_task();
	test_two_cpus();
	test_parent_limit();
	test_enqueue_throttle();
	test_slack(30 * MS);
	test_slack(93 * MS);
	test_slack(94 * MS);
	test_idle_timer();
	test_refill_race();
	test_api();
	test_class_change(false);
	test_class_change(true);
	return check_done("bandwidth");
}
