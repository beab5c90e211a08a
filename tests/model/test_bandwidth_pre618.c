// SPDX-License-Identifier: GPL-2.0
/*
 * CFS bandwidth before 6.18 (model/bandwidth.c, !TASK_BASED_THROTTLE): the
 * 6.12 profile (EEVDF, 6.12.117 throttle_cfs_rq()/unthrottle_cfs_rq()) and
 * the 6.1 profile (CFS, 6.1.192), hand-computed.  Each scenario runs under
 * both; where they differ (cpu.stat's throttled time, 'sched: don't account
 * throttle time for empty groups', in 6.12 but not in 6.1; CFS reweights a
 * group entity on every update_cfs_group()) the expected value is chosen
 * by the profile.
 *
 * Times as in test_bandwidth.c: T0 = 1 s, period timers on the 100 ms grid
 * from 0 (first expiry T0 + 100 ms), 5 ms bandwidth slices.  The rq is idle
 * or runs one fair task, with no irq time and no invariance, so rq clock,
 * clock_task and clock_pelt are all "now" after each update_rq_clock(): a
 * stopped PELT clock is visible as cfs_rq_clock_pelt() staying at the
 * throttle time, and the throttled span is added to throttled_clock_pelt_time
 * at unthrottle (ns).
 */
#include <string.h>

#include "check.h"
#include "sched.h"

#define MS 1000000ULL
#define US 1000ULL
#define T0 (1000ULL * MS)

static const char *profile;
static bool is_61;       /* CFS, throttled time from the throttle on */

static struct model_profile prof_copy;

/* @lb: newidle balance always runs (no NI_RANDOM die) and moves tasks */
static struct model *mk_cpus(unsigned int nr_cpus, bool lb)
{
	struct model_config cfg = { .nr_cpus = nr_cpus, .hz = 250, .seed = 3 };

	cfg.profile = model_profile_find(profile);
	CHECK(cfg.profile != NULL);
	if (lb) {
		cfg.balance_moves_tasks = true;
		prof_copy = *cfg.profile;
		prof_copy.feat[FEAT_NI_RANDOM] = 0;
		cfg.profile = &prof_copy;
	}
	return model_new(&cfg, NULL);
}

static struct model *mk(void)
{
	return mk_cpus(1, false);
}

static struct model_task *fork_on(struct model *m, struct model_group *g, uint32_t id, int cpu,
				  uint64_t now)
{
	struct model_task *t = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, id, NULL);

	CHECK(model_wake_up_new_task(m, t, cpu, cpu, now) == 0);
	return t;
}

static struct model_task *fork_in(struct model *m, struct model_group *g, uint32_t id,
				  uint64_t now)
{
	return fork_on(m, g, id, 0, now);
}

static struct cfs_rq *q(struct model_group *g)
{
	return ((struct task_group *)g)->cfs_rq[0];
}

static struct cfs_bandwidth *pool(struct model_group *g)
{
	return &((struct task_group *)g)->cfs_bandwidth;
}

static uint64_t counter(struct model *m, const char *name)
{
	uint64_t v = ~0ULL;

	CHECK_MSG(model_counter_get(m, name, &v), "%s: no counter %s", profile, name);
	return v;
}

/*
 * The common start: @g limited to 10 ms per 100 ms, task 1 forked into it
 * at T0 and run (slices at the fork and at the T0 + 5 ms tick, pool 0);
 * the T0 + 10 ms tick leaves its queue with no runtime and asks for a
 * reschedule.
 */
static struct model_task *run_dry(struct model *m, struct model_group *g)
{
	struct model_task *t;

	CHECK(model_group_set_bandwidth(m, g, 10 * MS, 100 * MS, 0, T0, NULL) == 0);
	t = fork_in(m, g, 1, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t);
	model_tick(m, 0, T0 + 5 * MS);
	model_tick(m, 0, T0 + 10 * MS);
	return t;
}

/* nr_running and h_nr_queued of one queue, and whether its group entity is queued */
#define CHECK_Q(cfs_rq, nr, h) do {                                   \
	CHECK_EQ_U((cfs_rq)->nr_running, (nr));                       \
	CHECK_EQ_U((cfs_rq)->h_nr_queued, (h));                       \
	CHECK_EQ_U((cfs_rq)->h_nr_runnable, (h));                     \
} while (0)

/*
 * One CPU-bound task t in /a, quota 10 ms per 100 ms (as test_one_task()
 * of test_bandwidth.c up to the throttle):
 *   fork T0: check_enqueue_throttle() takes a 5 ms slice, pool 5 ms.
 *   tick T0 + 5 ms: 5 ms charged, another slice, pool 0, remaining 5 ms.
 *   tick T0 + 10 ms: remaining 0, pool empty: resched, not yet throttled.
 *   check_cfs_rq_runtime(/a) (what pick_task_fair() calls first at /a's
 *   level): __assign_cfs_rq_runtime(1 ns) finds nothing, /a is throttled:
 *     tg_throttle_down(): throttle_count 1, PELT clock stopped at
 *       T0 + 10 ms although t is still queued, /a off the leaf list;
 *     dequeue_entity(root, /a's entity, SLEEP|SPECIAL): update_curr(root)
 *       (+1, nothing to charge), update_load_avg() (+1), update_cfs_group()
 *       (+1 call, which returns on the throttled hierarchy: no
 *       reweight_entity(), not even with 6.1's always-reweight); the root
 *       is empty then, so no more levels; sub_nr_running(1): rq 0.
 *     /a keeps t: nr_running 1, h_nr_queued 1; t's entity stays queued.
 *     throttled_clock = T0 + 10 ms (/a has an entity: both profiles).
 *   __schedule() at T0 + 10 ms: the root is empty, nothing to pick, the CPU
 *     idles; t ran exactly 10 ms (6.18 would run it 2 us on to its return
 *     to user space); no task work, no limbo.
 *   timer T0 + 100 ms: pool 10 ms, /a gets its deficit 0 + 1 ns
 *     (remaining 1, pool 10 ms - 1), unthrottle_cfs_rq(): throttled time
 *     90 ms; tg_unthrottle_up(): PELT clock restarted, 90 ms cut out (clock
 *     T0 + 100 ms - 90 ms = T0 + 10 ms); /a's entity enqueued on the root
 *     (ENQUEUE_WAKEUP: enqueue_entity +1, update_load_avg +1 with
 *     UPDATE_TG on the root's entity: no tg->load_avg write for the root
 *     queue, update_cfs_group +1, reweighting only under 6.1's
 *     always-reweight), the rq counts t again (1), the idle CPU reschedules.
 *     6.12's own throttled time (throttled_clock_self_time) is the 90 ms
 *     /a had an entity; 6.1 has no such clock (0).
 */
static void test_one_task(void)
{
	struct model *m = mk();
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct rq *rq = &m->rqs[0];
	struct model_bandwidth_info bi;
	struct model_task *t;
	uint64_t uc, ula, ucg, rw, de, ee, tgw;

	t = run_dry(m, a);
	CHECK_EQ_U(pool(a)->runtime, 0);
	CHECK_EQ_S(q(a)->runtime_remaining, 0);
	CHECK(model_need_resched(m, 0) && !q(a)->throttled);

	uc = counter(m, "update_curr");
	ula = counter(m, "update_load_avg");
	ucg = counter(m, "update_cfs_group");
	rw = counter(m, "reweight_entity");
	de = counter(m, "dequeue_entity");
	CHECK(check_cfs_rq_runtime(m, q(a)));
	CHECK(q(a)->throttled);
	CHECK_EQ_S(q(a)->throttle_count, 1);
	CHECK(!q(a)->se->on_rq);
	CHECK(t->se.on_rq && !t->throttled && !t->throttle_work);
	CHECK_Q(q(a), 1, 1);
	CHECK_Q(&rq->cfs, 0, 0);
	CHECK_EQ_U(rq->nr_running, 0);
	CHECK(q(a)->pelt_clock_throttled && !q(a)->on_list);
	CHECK_EQ_U(q(a)->throttled_clock_pelt, T0 + 10 * MS);
	CHECK_EQ_U(q(a)->throttled_clock, T0 + 10 * MS);
	CHECK_EQ_U(q(a)->throttled_clock_self, is_61 ? 0 : T0 + 10 * MS);
	CHECK_EQ_U(counter(m, "update_curr") - uc, 1);
	CHECK_EQ_U(counter(m, "update_load_avg") - ula, 1);
	CHECK_EQ_U(counter(m, "update_cfs_group") - ucg, 1);
	CHECK_EQ_U(counter(m, "reweight_entity") - rw, 0);
	CHECK_EQ_U(counter(m, "dequeue_entity") - de, 1);
	CHECK_EQ_U(counter(m, "throttle_cfs_rq"), 1);
	CHECK_EQ_U(model_nr_throttled(m), 1);

	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS) == NULL);
	CHECK_EQ_U(t->se.sum_exec_runtime, 10 * MS);
	CHECK_EQ_S(q(a)->runtime_remaining, 0);
	CHECK_EQ_U(counter(m, "throttle_cfs_rq"), 1);
	CHECK_EQ_U(counter(m, "throttle_cfs_rq_work"), 0);
	CHECK_EQ_U(model_nr_queued(m, 0), 0);
	CHECK_EQ_U(cfs_rq_clock_pelt(q(a)), T0 + 10 * MS);
	CHECK(model_check_invariants(m, NULL) == 0);

	ula = counter(m, "update_load_avg");
	ucg = counter(m, "update_cfs_group");
	rw = counter(m, "reweight_entity");
	ee = counter(m, "enqueue_entity");
	tgw = counter(m, "tg_load_avg_writes");
	model_run_timers(m, T0 + 100 * MS);
	CHECK(!q(a)->throttled);
	CHECK_EQ_S(q(a)->throttle_count, 0);
	CHECK_EQ_S(q(a)->runtime_remaining, 1);
	CHECK_EQ_U(pool(a)->runtime, 10 * MS - 1);
	CHECK(q(a)->se->on_rq);
	CHECK_Q(q(a), 1, 1);
	CHECK_Q(&rq->cfs, 1, 1);
	CHECK_EQ_U(rq->nr_running, 1);
	CHECK(!q(a)->pelt_clock_throttled && q(a)->on_list);
	CHECK_EQ_U(q(a)->throttled_clock_pelt_time, 90 * MS);
	CHECK_EQ_U(cfs_rq_clock_pelt(q(a)), T0 + 10 * MS);
	CHECK_EQ_U(q(a)->throttled_clock_self_time, is_61 ? 0 : 90 * MS);
	/* tg_unthrottle_up() (kernel/sched/fair.c) stops the queue's own
	 * clock: the next throttle (or first enqueue under one,
	 * record_throttle_clock()) starts it afresh */
	CHECK_EQ_U(q(a)->throttled_clock_self, 0);
	CHECK(model_need_resched(m, 0));
	CHECK_EQ_U(counter(m, "enqueue_entity") - ee, 1);
	CHECK_EQ_U(counter(m, "update_load_avg") - ula, 1);
	CHECK_EQ_U(counter(m, "update_cfs_group") - ucg, 1);
	CHECK_EQ_U(counter(m, "reweight_entity") - rw, is_61 ? 1 : 0);
	CHECK_EQ_U(counter(m, "tg_load_avg_writes") - tgw, 0);
	CHECK_EQ_U(counter(m, "unthrottle_cfs_rq"), 1);
	CHECK_EQ_U(model_nr_throttled(m), 0);
	CHECK(model_group_bandwidth(a, &bi) == 0);
	CHECK_EQ_U(bi.nr_throttled, 1);
	CHECK_EQ_U(bi.throttled_time_ns, 90 * MS);
	CHECK(model_check_invariants(m, NULL) == 0);

	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 100 * MS) == t);
	model_free(m);
}

/*
 * t blocks right after its queue was throttled (it is still the running
 * task: check_cfs_rq_runtime() as in test_one_task(), then __schedule() at
 * T0 + 10 ms + 5 us with t going to sleep).  Its dequeue charges 5 us
 * (remaining -5000 ns: a throttled queue asks for nothing) and ends at the
 * throttled /a (dequeue_entities() returns 0): /a is empty, the root and
 * the rq never counted t.  The throttled time started at the throttle (/a
 * had t then), the PELT clock at T0 + 10 ms and does not move when /a
 * empties (the 6.18 model stops it then).  The timer hands /a 5001 ns and
 * unthrottles it: nothing to enqueue, /a has load to decay so it stays on
 * the leaf list; the idle CPU has nothing: no resched.
 */
static void test_sleep_in_throttled(void)
{
	struct model *m = mk();
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct rq *rq = &m->rqs[0];
	struct model_bandwidth_info bi;
	struct model_task *t;

	t = run_dry(m, a);
	CHECK(check_cfs_rq_runtime(m, q(a)));
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 10 * MS + 5 * US) == NULL);
	CHECK(!t->se.on_rq && !t->on_rq);
	CHECK_EQ_U(t->se.sum_exec_runtime, 10 * MS + 5 * US);
	CHECK_EQ_S(q(a)->runtime_remaining, -5000);
	CHECK(q(a)->throttled && !q(a)->se->on_rq);
	CHECK_Q(q(a), 0, 0);
	CHECK_Q(&rq->cfs, 0, 0);
	CHECK_EQ_U(rq->nr_running, 0);
	CHECK_EQ_U(q(a)->throttled_clock_pelt, T0 + 10 * MS);
	CHECK_EQ_U(model_nr_throttled(m), 0);
	CHECK(model_check_invariants(m, NULL) == 0);

	model_run_timers(m, T0 + 100 * MS);
	CHECK(!q(a)->throttled);
	CHECK_EQ_S(q(a)->runtime_remaining, 1);
	CHECK_EQ_U(pool(a)->runtime, 10 * MS - 5001);
	CHECK(!q(a)->se->on_rq && q(a)->on_list);
	CHECK_Q(&rq->cfs, 0, 0);
	CHECK(!model_need_resched(m, 0));
	CHECK_EQ_U(q(a)->throttled_clock_pelt_time, 90 * MS);
	CHECK(model_group_bandwidth(a, &bi) == 0);
	CHECK_EQ_U(bi.throttled_time_ns, 90 * MS);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * The limit on a child: /p/c has 10 ms per 100 ms, /p none; t in /p/c.
 *   Throttled at the __schedule() of T0 + 10 ms as above.  The dequeue
 *   goes up while the queue left is empty: /p/c's entity leaves /p, /p is
 *   empty, so /p's entity leaves the root (loop 1 twice); rq 0.  Only /p/c
 *   is in the throttled subtree: /p's throttle_count stays 0 and its PELT
 *   clock runs.
 *   u forked into /p at T0 + 20 ms: /p's first entity, /p's entity comes
 *   back on the root; /p counts u only (1), the rq 1.
 *   Timer T0 + 100 ms: /p/c's entity is enqueued on /p; /p's entity is
 *   queued already, so loop 1 ends and loop 2 refreshes it, adding /p/c's
 *   one task to the root: /p 2 entities, 2 tasks; root 1 entity, 2 tasks;
 *   rq 2; u runs, so no idle resched.  /p/c's PELT clock was stopped from
 *   T0 + 10 ms to T0 + 100 ms: 90 ms.
 */
static void test_child_limit(void)
{
	struct model *m = mk();
	struct model_group *p = model_group_new(m, model_root_group(m), 1024, "/p", NULL);
	struct model_group *c = model_group_new(m, p, 1024, "/p/c", NULL);
	struct rq *rq = &m->rqs[0];
	struct model_task *t, *u;
	uint64_t ula, ee;

	t = run_dry(m, c);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS) == NULL);
	CHECK(q(c)->throttled && !q(p)->throttled);
	CHECK_EQ_S(q(c)->throttle_count, 1);
	CHECK_EQ_S(q(p)->throttle_count, 0);
	CHECK(!q(c)->se->on_rq && !q(p)->se->on_rq);
	CHECK_Q(q(c), 1, 1);
	CHECK_Q(q(p), 0, 0);
	CHECK_Q(&rq->cfs, 0, 0);
	CHECK_EQ_U(rq->nr_running, 0);
	CHECK(q(c)->pelt_clock_throttled && !q(p)->pelt_clock_throttled);
	CHECK(t->se.on_rq);
	CHECK(model_check_invariants(m, NULL) == 0);

	u = fork_in(m, p, 2, T0 + 20 * MS);
	CHECK(q(p)->se->on_rq && !q(c)->se->on_rq);
	CHECK_Q(q(p), 1, 1);
	CHECK_Q(&rq->cfs, 1, 1);
	CHECK_EQ_U(rq->nr_running, 1);
	CHECK_EQ_U(model_nr_throttled(m), 1);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 20 * MS) == u);
	CHECK(model_check_invariants(m, NULL) == 0);

	ula = counter(m, "update_load_avg");
	ee = counter(m, "enqueue_entity");
	model_run_timers(m, T0 + 100 * MS);
	CHECK(!q(c)->throttled);
	CHECK_EQ_S(q(c)->throttle_count, 0);
	CHECK(q(c)->se->on_rq && q(p)->se->on_rq);
	/* unthrottle_cfs_rq(): loop 1's enqueue_entity() of /p/c's entity (its
	 * update_load_avg()), loop 2's update_load_avg(UPDATE_TG) of /p's */
	CHECK_EQ_U(counter(m, "enqueue_entity") - ee, 1);
	CHECK_EQ_U(counter(m, "update_load_avg") - ula, 2);
	CHECK_Q(q(c), 1, 1);
	CHECK_Q(q(p), 2, 2);
	CHECK_Q(&rq->cfs, 1, 2);
	CHECK_EQ_U(rq->nr_running, 2);
	CHECK(!model_need_resched(m, 0));
	CHECK_EQ_U(q(c)->throttled_clock_pelt_time, 90 * MS);
	CHECK_EQ_U(q(p)->throttled_clock_pelt_time, 0);
	CHECK_EQ_U(model_nr_throttled(m), 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * The same limit with a sibling: u is forked into /p at T0 + 10 ms, after
 * t's tick found /p/c's runtime spent, and /p/c is throttled then
 * (check_cfs_rq_runtime(), as pick_task_fair() would).  Loop 1 dequeues
 * /p/c's entity from /p (update_load_avg +1 with UPDATE_TG, update_cfs_group
 * +1 call returning on the throttled /p/c) and stops: /p still has u.  Loop
 * 2 refreshes /p's entity on the root without UPDATE_TG (update_load_avg
 * +1) and takes t off the root's counts: /p 1 entity 1 task, root 1 entity
 * 1 task, rq 1.  The __schedule() then picks u; /p/c's entity, off its
 * queue, is not put back (put_prev_entity() skips it).
 */
static void test_child_limit_sibling(void)
{
	struct model *m = mk();
	struct model_group *p = model_group_new(m, model_root_group(m), 1024, "/p", NULL);
	struct model_group *c = model_group_new(m, p, 1024, "/p/c", NULL);
	struct rq *rq = &m->rqs[0];
	struct model_task *t, *u;
	uint64_t ula, ucg;

	t = run_dry(m, c);
	u = fork_in(m, p, 2, T0 + 10 * MS);
	CHECK_Q(q(p), 2, 2);
	CHECK_Q(&rq->cfs, 1, 2);
	CHECK_EQ_U(rq->nr_running, 2);

	ula = counter(m, "update_load_avg");
	ucg = counter(m, "update_cfs_group");
	CHECK(check_cfs_rq_runtime(m, q(c)));
	CHECK(!q(c)->se->on_rq && q(p)->se->on_rq);
	CHECK_Q(q(c), 1, 1);
	CHECK_Q(q(p), 1, 1);
	CHECK_Q(&rq->cfs, 1, 1);
	CHECK_EQ_U(rq->nr_running, 1);
	CHECK_EQ_U(counter(m, "update_load_avg") - ula, 2);
	CHECK_EQ_U(counter(m, "update_cfs_group") - ucg, 1);
	CHECK(q(c)->pelt_clock_throttled && !q(p)->pelt_clock_throttled);
	CHECK(!q(c)->on_list && q(p)->on_list);

	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS) == u);
	CHECK(q(p)->curr == &u->se && q(c)->curr == NULL && t->se.on_rq);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * Throttled empty, woken into the throttled queue.  t in /a (10 ms per
 * 100 ms) runs from T0 (slice at the fork, another at the T0 + 5 ms tick,
 * pool 0) and sleeps at T0 + 10 ms: its dequeue charges the last 5 ms
 * (remaining 0; nothing to return) and empties /a, whose entity leaves the
 * root; put_prev_entity()'s check_cfs_rq_runtime() then throttles the empty
 * /a: its entity is already off ('throttle-on-deactivate', nothing to
 * dequeue), PELT clock stopped at T0 + 10 ms.  cpu.stat: 6.12 starts the
 * throttled time only when /a has an entity (0 now), 6.1 at once.
 *   Wakeup at T0 + 20 ms: t is enqueued on /a (first entity:
 *   check_enqueue_throttle() sees /a throttled and does nothing; /a stays
 *   off the leaf list with its clock stopped - 6.18 would restart it), the
 *   walk ends at the throttled /a: root and rq do not count t.  6.12 starts
 *   the throttled time now (T0 + 20 ms).  The CPU stays idle.
 *   Timer T0 + 100 ms: 6.12 throttled 80 ms, 6.1 90 ms; the PELT clock was
 *   stopped 90 ms in both; /a's entity and t are back on the root and rq.
 */
static void test_wake_into_throttled(void)
{
	struct model *m = mk();
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct rq *rq = &m->rqs[0];
	struct model_bandwidth_info bi;
	struct model_task *t;

	CHECK(model_group_set_bandwidth(m, a, 10 * MS, 100 * MS, 0, T0, NULL) == 0);
	t = fork_in(m, a, 1, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t);
	model_tick(m, 0, T0 + 5 * MS);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 10 * MS) == NULL);
	CHECK_EQ_S(q(a)->runtime_remaining, 0);
	CHECK(q(a)->throttled && !q(a)->se->on_rq);
	CHECK_Q(q(a), 0, 0);
	CHECK(q(a)->pelt_clock_throttled && !q(a)->on_list);
	CHECK_EQ_U(q(a)->throttled_clock, is_61 ? T0 + 10 * MS : 0);
	CHECK_EQ_U(model_nr_throttled(m), 0);
	CHECK(model_check_invariants(m, NULL) == 0);

	CHECK(model_try_to_wake_up(m, t, 0, -1, MODEL_WF_TTWU, T0 + 20 * MS) == 1);
	CHECK(t->se.on_rq && !q(a)->se->on_rq);
	CHECK_Q(q(a), 1, 1);
	CHECK_Q(&rq->cfs, 0, 0);
	CHECK_EQ_U(rq->nr_running, 0);
	CHECK(q(a)->pelt_clock_throttled && !q(a)->on_list);
	CHECK_EQ_U(q(a)->throttled_clock, is_61 ? T0 + 10 * MS : T0 + 20 * MS);
	CHECK_EQ_U(model_nr_throttled(m), 1);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 20 * MS) == NULL);
	CHECK(model_check_invariants(m, NULL) == 0);

	model_run_timers(m, T0 + 100 * MS);
	CHECK(!q(a)->throttled && q(a)->se->on_rq);
	CHECK_Q(&rq->cfs, 1, 1);
	CHECK_EQ_U(rq->nr_running, 1);
	CHECK_EQ_U(q(a)->throttled_clock_pelt_time, 90 * MS);
	CHECK(model_group_bandwidth(a, &bi) == 0);
	CHECK_EQ_U(bi.throttled_time_ns, is_61 ? 90 * MS : 80 * MS);
	CHECK_EQ_U(q(a)->throttled_clock_self_time, is_61 ? 0 : 80 * MS);
	CHECK(model_need_resched(m, 0));
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 100 * MS) == t);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * A wakee below a throttled queue does not preempt (the early return of
 * check_preempt_wakeup_fair()/check_preempt_wakeup(): no preemption check
 * is counted): /a is throttled empty as above, a root task r runs from
 * T0 + 15 ms, and t's wakeup at T0 + 20 ms leaves r running, the rq
 * counting r only.
 */
static void test_wakee_no_preempt(void)
{
	struct model *m = mk();
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct model_task *t, *r;
	uint64_t checks;

	CHECK(model_group_set_bandwidth(m, a, 10 * MS, 100 * MS, 0, T0, NULL) == 0);
	t = fork_in(m, a, 1, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t);
	model_tick(m, 0, T0 + 5 * MS);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 10 * MS) == NULL);
	CHECK(q(a)->throttled);
	r = fork_in(m, model_root_group(m), 2, T0 + 15 * MS);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 15 * MS) == r);
	checks = counter(m, "check_preempt_wakeup_fair");
	CHECK(model_try_to_wake_up(m, t, 0, -1, MODEL_WF_TTWU, T0 + 20 * MS) == 1);
	CHECK_EQ_U(counter(m, "check_preempt_wakeup_fair") - checks, 0);
	CHECK(!model_need_resched(m, 0));
	CHECK_EQ_U(m->rqs[0].nr_running, 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * The balancer leaves a throttled source alone (throttled_lb_pair()): on
 * CPU 0, /a is throttled with t (run_dry()) and a second task a2 forked
 * into it at T0 + 20 ms, both queued below the throttled queue and so on
 * CPU 0's cfs_tasks list, though not counted by its rq; root tasks r1 and
 * r2 are forked there at T0 + 20 ms and one of them runs.  CPU 1, idle,
 * balances at its __schedule() (newidle, moving tasks, NI_RANDOM off so
 * that it does):
 * detach_tasks() looks at most at as many tasks as CPU 0 has runnable (2)
 * from the list's tail, and of those only a root task that is not running
 * may move; t and a2 are refused, and nothing moves (no sched_migrate_task):
 * CPU 1 stays idle, the throttled tasks stay on CPU 0 (6.18 would refuse
 * only a destination where /a is throttled).
 */
static void test_lb_throttled_source(void)
{
	struct model *m = mk_cpus(2, true);
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct model_task *t, *a2, *r1, *r2, *run;
	uint64_t mig;

	t = run_dry(m, a);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS) == NULL);
	a2 = fork_on(m, a, 2, 0, T0 + 20 * MS);
	r1 = fork_on(m, model_root_group(m), 3, 0, T0 + 50 * MS);
	r2 = fork_on(m, model_root_group(m), 4, 0, T0 + 50 * MS);
	run = model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 50 * MS);
	CHECK(run == r1 || run == r2);
	CHECK_EQ_U(m->rqs[0].nr_running, 2);
	CHECK_Q(q(a), 2, 2);
	mig = counter(m, "sched_migrate_task");
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0 + 50 * MS) == NULL);
	CHECK_EQ_U(counter(m, "newidle_balance.domains"), 1);
	CHECK_EQ_U(counter(m, "sched_migrate_task") - mig, 0);
	CHECK_EQ_U(t->cpu, 0);
	CHECK_EQ_U(a2->cpu, 0);
	CHECK_EQ_U(m->rqs[0].nr_running, 2);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * 6.12 only (DELAY_DEQUEUE): a delayed task in a queue that is throttled.
 * t1 and t2 are forked into /a at T0 (10 ms per 100 ms; the first fork's
 * slice, 5 ms, serves both); the one picked, x, sleeps at T0 + 4 ms having
 * run 4 ms ahead of the other: its lag is negative, it is not eligible, so
 * it stays queued, delayed (/a: 2 queued, 1 runnable, 1 delayed).  y runs;
 * ticks at T0 + 5 ms (a second slice, pool 0) and T0 + 10 ms (runtime
 * spent) and the __schedule() at T0 + 10 ms throttles /a: the root loses
 * its 2 queued, 1 runnable, 1 delayed.  x's wakeup at T0 + 20 ms requeues
 * it (requeue_delayed_entity() -> clear_delayed()): /a 2 runnable, 0
 * delayed, and the walk stops at the throttled /a, so the root stays at 0
 * runnable, 0 delayed.
 */
static void test_delayed_in_throttled(void)
{
	struct model *m = mk();
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct rq *rq = &m->rqs[0];
	struct model_task *t1, *t2, *x, *y;

	CHECK(model_group_set_bandwidth(m, a, 10 * MS, 100 * MS, 0, T0, NULL) == 0);
	t1 = fork_in(m, a, 1, T0);
	t2 = fork_in(m, a, 2, T0);
	x = model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0);
	CHECK(x == t1 || x == t2);
	y = x == t1 ? t2 : t1;
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 4 * MS) == y);
	CHECK(x->se.sched_delayed && x->se.on_rq);
	CHECK_EQ_U(q(a)->h_nr_queued, 2);
	CHECK_EQ_U(q(a)->h_nr_runnable, 1);
	CHECK_EQ_U(q(a)->h_nr_delayed, 1);
	model_tick(m, 0, T0 + 5 * MS);
	model_tick(m, 0, T0 + 10 * MS);
	CHECK_EQ_U(pool(a)->runtime, 0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS) == NULL);
	CHECK(q(a)->throttled && !q(a)->se->on_rq);
	CHECK_EQ_U(rq->cfs.h_nr_queued, 0);
	CHECK_EQ_U(rq->cfs.h_nr_runnable, 0);
	CHECK_EQ_U(rq->cfs.h_nr_delayed, 0);
	CHECK(model_check_invariants(m, NULL) == 0);

	model_try_to_wake_up(m, x, 0, -1, MODEL_WF_TTWU, T0 + 20 * MS);
	CHECK(!x->se.sched_delayed && x->se.on_rq);
	CHECK_EQ_U(q(a)->h_nr_queued, 2);
	CHECK_EQ_U(q(a)->h_nr_runnable, 2);
	CHECK_EQ_U(q(a)->h_nr_delayed, 0);
	CHECK_EQ_U(rq->cfs.h_nr_queued, 0);
	CHECK_EQ_U(rq->cfs.h_nr_runnable, 0);
	CHECK_EQ_U(rq->cfs.h_nr_delayed, 0);
	CHECK_EQ_U(rq->nr_running, 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * 6.12 only: a task delayed in a throttled queue by its own sleep.  t1 and
 * t2 in /a (10 ms per 100 ms); x, picked at T0, runs alone 10 ms (ticks at
 * T0 + 5 and 10 ms: pool 0, runtime spent), /a is throttled with x still
 * running (check_cfs_rq_runtime()), then x sleeps at T0 + 10 ms: 10 ms
 * ahead of y it is not eligible and is delayed (set_delayed(): /a 1
 * runnable, 1 delayed), the walk stopping at the throttled /a: the root,
 * which no longer counts /a, stays at 0 runnable, 0 delayed.
 */
static void test_delayed_sleep_in_throttled(void)
{
	struct model *m = mk();
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct rq *rq = &m->rqs[0];
	struct model_task *t1, *t2, *x;

	CHECK(model_group_set_bandwidth(m, a, 10 * MS, 100 * MS, 0, T0, NULL) == 0);
	t1 = fork_in(m, a, 1, T0);
	t2 = fork_in(m, a, 2, T0);
	x = model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0);
	CHECK(x == t1 || x == t2);
	model_tick(m, 0, T0 + 5 * MS);
	model_tick(m, 0, T0 + 10 * MS);
	CHECK(check_cfs_rq_runtime(m, q(a)));
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 10 * MS) == NULL);
	CHECK(x->se.sched_delayed && x->se.on_rq);
	CHECK_EQ_U(q(a)->h_nr_queued, 2);
	CHECK_EQ_U(q(a)->h_nr_runnable, 1);
	CHECK_EQ_U(q(a)->h_nr_delayed, 1);
	CHECK_EQ_U(rq->cfs.h_nr_queued, 0);
	CHECK_EQ_U(rq->cfs.h_nr_runnable, 0);
	CHECK_EQ_U(rq->cfs.h_nr_delayed, 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * 6.12 only (yield_to needs EEVDF): yield_to() and the imposed hand-over
 * refuse a task below a throttled queue.  t runs /a dry (run_dry()), root
 * tasks r1 and r2 are forked at T0 + 10 ms, /a is throttled
 * (check_cfs_rq_runtime(), t's entity stays queued in /a, /a's entity off
 * the root) and the __schedule() at T0 + 10 ms picks a root task c; the rq
 * counts r1 and r2 (2, so yield_to() does not stop at -ESRCH).  At
 * T0 + 11 ms:
 *   yield_to_task_fair(t): false ('throttled_hierarchy(cfs_rq_of(se))'):
 *     no buddy at /a or the root, curr's vruntime and deadline as they
 *     were, no resched;
 *   model_yield_to(t): 0, and the rq clock stays at T0 + 10 ms (the
 *     kernel's yield_task_fair(), which updates it, is not reached);
 *   model_preempt_for(t): 0, the same (no update_curr(), no buddy).
 * After the T0 + 100 ms timer has unthrottled /a, yield_to(t) is done: 1,
 * t the next buddy in /a and /a's entity the root's.
 */
static void test_yield_to_throttled(void)
{
	struct model *m = mk();
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct rq *rq = &m->rqs[0];
	struct model_task *t, *r1, *r2, *c;
	uint64_t vr, dl, uc;

	t = run_dry(m, a);
	r1 = fork_in(m, model_root_group(m), 2, T0 + 10 * MS);
	r2 = fork_in(m, model_root_group(m), 3, T0 + 10 * MS);
	CHECK(check_cfs_rq_runtime(m, q(a)));
	c = model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS);
	CHECK(c == r1 || c == r2);
	CHECK(t->se.on_rq && t->on_rq == TASK_ON_RQ_QUEUED && !q(a)->se->on_rq);
	CHECK_EQ_U(rq->nr_running, 2);
	CHECK(!model_need_resched(m, 0));
	vr = c->se.vruntime;
	dl = c->se.deadline;
	uc = counter(m, "update_curr");

	CHECK(!yield_to_task_fair(m, rq, t));
	CHECK(!model_yield_to(m, 0, t, T0 + 11 * MS));
	CHECK(!model_preempt_for(m, 0, t, T0 + 11 * MS));
	CHECK(rq->cfs.next == NULL && q(a)->next == NULL);
	CHECK_EQ_U(c->se.vruntime, vr);
	CHECK_EQ_U(c->se.deadline, dl);
	CHECK_EQ_U(rq->clock, T0 + 10 * MS);
	CHECK_EQ_U(counter(m, "update_curr") - uc, 0);
	CHECK(!model_need_resched(m, 0));
	CHECK(model_check_invariants(m, NULL) == 0);

	model_run_timers(m, T0 + 100 * MS);
	CHECK(!q(a)->throttled && q(a)->se->on_rq);
	CHECK_EQ_U(rq->nr_running, 3);
	CHECK(model_yield_to(m, 0, t, T0 + 100 * MS) == 1);
	CHECK(q(a)->next == &t->se && rq->cfs.next == q(a)->se);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * A sleeping root task moved into a throttled group (task_change_group_fair():
 * cgroup moves, the autogroup re-attach at exit).  /a is throttled with t
 * (run_dry(), __schedule() at T0 + 10 ms: idle); s, forked on the root at
 * T0 + 20 ms, runs and sleeps at T0 + 30 ms (alone, so its lag is 0: not
 * delayed) and is moved into /a at T0 + 30 ms, so the root, s and the rq
 * clock are all synchronised at the move:
 *   detach_entity_cfs_rq(root): update_load_avg() (+1), s's load_avg
 *     leaves the root's (exactly: nothing to decay), update_tg_load_avg()
 *     of the root does nothing, propagate_entity_cfs_rq() has no parent;
 *   attach_entity_cfs_rq(/a): update_load_avg() (+1), s's load joins /a's,
 *     update_tg_load_avg(/a) folds it into tg->load_avg (+1 write: /a's
 *     last write was 20 ms or more earlier, at T0 + 10 ms at the latest,
 *     and s's load is far above 1/64 of /a's contribution), then propagate_entity_cfs_rq() returns at once
 *     on the throttled /a (6.1.192, 6.12.117): no update_load_avg() of /a's
 *     entity on the root.
 *   So 2 update_load_avg() (6.18 walks on: 3), /a's entity keeps its
 *   load_avg, /a's propagation stays pending, and the root's load_avg is
 *   its value before the move less s's.
 * @nested: s is moved into /a/b, below the throttled /a (/a/b itself not
 *   throttled, empty): the attach writes /a/b's contribution (+1 write, its
 *   first), propagate_entity_cfs_rq() updates /a/b's entity on /a
 *   (update_load_avg() +1: it takes s's load, so /a's load_avg changes and
 *   update_tg_load_avg(/a) writes, +1) and stops there, /a being throttled:
 *   3 update_load_avg(), 2 writes; /a's entity, the root and /a's pending
 *   propagation as above.  (Walking on would add the update of /a's entity
 *   on the root - no tg write, the root group has none.)
 * At T0 + 100 ms unthrottle_cfs_rq() enqueues /a's entity; its
 * update_load_avg() takes the pending propagation: /a's entity and the root
 * gain s's load then.
 */
static void test_move_into_throttled(bool nested)
{
	struct model *m = mk();
	struct model_group *a = model_group_new(m, model_root_group(m), 1024, "/a", NULL);
	struct model_group *b = model_group_new(m, a, 1024, "/a/b", NULL);
	struct rq *rq = &m->rqs[0];
	struct model_task *s;
	unsigned long root_la, ga_la, s_la;
	uint64_t ula, tgw;

	run_dry(m, a);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS) == NULL);
	s = fork_in(m, model_root_group(m), 2, T0 + 20 * MS);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 20 * MS) == s);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 30 * MS) == NULL);
	CHECK(!s->se.on_rq && !s->se.sched_delayed);
	CHECK(q(a)->throttled);
	root_la = rq->cfs.avg.load_avg;
	ga_la = q(a)->se->avg.load_avg;
	s_la = s->se.avg.load_avg;
	ula = counter(m, "update_load_avg");
	tgw = counter(m, "tg_load_avg_writes");
	CHECK_EQ_S(q(a)->propagate, 0);

	CHECK(model_task_move_group(m, s, nested ? b : a, T0 + 30 * MS) == 0);
	CHECK(s->se.cfs_rq == q(nested ? b : a));
	CHECK_EQ_U(counter(m, "update_load_avg") - ula, nested ? 3 : 2);
	CHECK_EQ_U(counter(m, "tg_load_avg_writes") - tgw, nested ? 2 : 1);
	CHECK_EQ_U(rq->cfs.avg.load_avg, root_la - s_la);
	CHECK_EQ_U(q(a)->se->avg.load_avg, ga_la);
	CHECK_EQ_S(q(a)->propagate, 1);
	CHECK(model_check_invariants(m, NULL) == 0);

	model_run_timers(m, T0 + 100 * MS);
	CHECK(!q(a)->throttled && q(a)->se->on_rq);
	CHECK_EQ_S(q(a)->propagate, 0);
	/* the root holds only /a's entity now */
	CHECK_EQ_U(rq->cfs.avg.load_avg, q(a)->se->avg.load_avg);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * model_check_invariants()' cfs_tasks check under @prof: a sleeping root
 * task s (its entity dequeued, not on cfs_tasks) is made to look like a
 * task whose entity is queued but that the root does not count - on
 * cfs_tasks with se->on_rq set, outside the tree and the counts.  Before
 * 6.18 that is how a task below a throttled queue looks, so the check
 * compares cfs_tasks with the tasks whose entities are queued (and accepts
 * it here); 6.18 dequeues throttled tasks, so the list must match the
 * root's h_nr_queued (1, the running r) and the check reports 2 listed.
 */
static void check_cfs_tasks_invariant(const char *prof)
{
	const char *saved = profile;
	struct model *m;
	struct model_task *s, *r;
	struct sr_error err = { 0 };
	int ret;

	profile = prof;
	m = mk();
	s = fork_in(m, model_root_group(m), 1, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == s);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 1 * MS) == NULL);
	r = fork_in(m, model_root_group(m), 2, T0 + 2 * MS);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 2 * MS) == r);
	CHECK(model_check_invariants(m, NULL) == 0);

	s->se.on_rq = 1;
	cfs_tasks_add(&m->rqs[0], s);
	ret = model_check_invariants(m, &err);
	if (!strcmp(prof, "6.18")) {
		CHECK_EQ_S(ret, -1);
		CHECK_MSG(strstr(err.msg, "cfs_tasks has 2 tasks, h_nr_queued 1") != NULL,
			  "%s: %s", prof, err.msg);
	} else {
		CHECK_MSG(ret == 0, "%s: %s", prof, err.msg);
	}
	cfs_tasks_del(&m->rqs[0], s);
	s->se.on_rq = 0;
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
	profile = saved;
}

int main(void)
{
	static const char *profiles[] = { "6.12", "6.1" };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		int before = check_failures;

		profile = profiles[i];
		is_61 = !strcmp(profile, "6.1");
		test_one_task();
		test_sleep_in_throttled();
		test_child_limit();
		test_child_limit_sibling();
		test_wake_into_throttled();
		test_wakee_no_preempt();
		test_lb_throttled_source();
		test_move_into_throttled(false);
		test_move_into_throttled(true);
		if (!is_61) {
			test_delayed_in_throttled();
			test_delayed_sleep_in_throttled();
			test_yield_to_throttled();
		}
		if (check_failures != before)
			fprintf(stderr, "(the %d failures above: profile %s)\n",
				check_failures - before, profile);
	}
	check_cfs_tasks_invariant("6.18");
	check_cfs_tasks_invariant("6.12");
	return check_done("bandwidth_pre618");
}
