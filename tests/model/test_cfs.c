// SPDX-License-Identifier: GPL-2.0
/*
 * CFS (the 6.5 profile) on constructed queues and through the API: pick of
 * the leftmost and the buddies, wakeup_preempt_entity() against the wakeup
 * granularity, sleeper credit, START_DEBIT, check_preempt_tick().
 */
#include <string.h>

#include "check.h"
#include "sched.h"

static struct model *mk(unsigned int cpus)
{
	struct model_config cfg = { .nr_cpus = cpus, .hz = 250, .seed = 5 };

	cfg.profile = model_profile_find("6.5");
	return model_new(&cfg, NULL);
}

static void mkse(struct sched_entity *se, struct cfs_rq *cfs_rq, u64 v)
{
	memset(se, 0, sizeof(*se));
	se->cfs_rq = cfs_rq;
	se->load.weight = NICE_0_LOAD;
	se->vruntime = v;
	se->on_rq = 1;
}

static void test_pick_and_buddies(void)
{
	struct model *m = mk(1);
	struct cfs_rq *cfs_rq = &m->rqs[0].cfs;
	struct sched_entity a, b, c;

	/* 1 CPU: wakeup granularity 1 ms (factor 1) */
	CHECK_EQ_U(m->sysctl_sched_wakeup_granularity, 1000000);
	mkse(&a, cfs_rq, 10000000);
	mkse(&b, cfs_rq, 10500000);
	mkse(&c, cfs_rq, 12000000);
	__enqueue_entity(m, cfs_rq, &c);
	__enqueue_entity(m, cfs_rq, &a);
	__enqueue_entity(m, cfs_rq, &b);
	cfs_rq->nr_running = 3;
	CHECK(pick_next_entity_cfs(m, cfs_rq, NULL) == &a);
	/* the next buddy wins if within the granularity of the leftmost */
	cfs_rq->next = &b;
	CHECK(pick_next_entity_cfs(m, cfs_rq, NULL) == &b);
	cfs_rq->next = &c;   /* 2 ms behind: not within 1 ms */
	CHECK(pick_next_entity_cfs(m, cfs_rq, NULL) == &a);
	cfs_rq->next = NULL;
	cfs_rq->last = &b;
	CHECK(pick_next_entity_cfs(m, cfs_rq, NULL) == &b);
	/* the last buddy likewise (wakeup_preempt_entity(last, left) < 1) */
	cfs_rq->last = &c;
	CHECK(pick_next_entity_cfs(m, cfs_rq, NULL) == &a);
	cfs_rq->last = NULL;

	/* wakeup_preempt_entity(curr, se) */
	CHECK_EQ_S(wakeup_preempt_entity(m, &b, &a), 0);     /* 0.5 ms: within gran */
	CHECK_EQ_S(wakeup_preempt_entity(m, &c, &a), 1);     /* 2 ms ahead: preempt */
	CHECK_EQ_S(wakeup_preempt_entity(m, &a, &c), -1);    /* se is behind */
	/* the granularity is in the woken entity's virtual time: a nice -5
	 * (3121) wakee has gran 1 ms * 1024 / 3121 = 328 us */
	a.load.weight = 3121 * 1024;
	a.load.inv_weight = 1376151;
	CHECK_EQ_S(wakeup_preempt_entity(m, &b, &a), 1);
	__dequeue_entity(m, cfs_rq, &a);
	__dequeue_entity(m, cfs_rq, &b);
	__dequeue_entity(m, cfs_rq, &c);
	cfs_rq->nr_running = 0;
	model_free(m);
}

/*
 * Through the API: A runs alone for 20 ms; B, asleep since the start,
 * wakes with the sleeper credit (half the 6 ms latency) behind
 * min_vruntime, which is more than the 1 ms granularity behind A: preempt.
 */
static void test_wakeup_preempt_api(void)
{
	struct model *m = mk(1);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	uint64_t now = 1000000000ULL, minv;
	int i;

	model_task_start_sleeping(m, b, 0);
	model_wake_up_new_task(m, a, 0, 0, now);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);
	for (i = 0; i < 5; i++) {
		now += 4000000;
		model_tick(m, 0, now);
	}
	CHECK(!model_need_resched(m, 0));
	minv = m->rqs[0].cfs.min_vruntime;
	CHECK_EQ_U(minv, a->se.vruntime);
	model_try_to_wake_up(m, b, 0, 0, MODEL_WF_TTWU, now);
	CHECK_EQ_U(b->se.vruntime, minv - 3000000);
	CHECK(model_need_resched(m, 0));
	CHECK_EQ_U(m->counters[MC_wakeup_preempt], 1);
	/* check_preempt_wakeup(): the preempting wakee becomes the next buddy
	 * (NEXT_BUDDY off: set on the wakeup_preempt_entity() == 1 branch) */
	CHECK(m->rqs[0].cfs.next == &b->se);
	CHECK(m->rqs[0].cfs.last == NULL);   /* LAST_BUDDY needs 8 queued */
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == b);
	CHECK(model_check_invariants(m, NULL) == 0);

	/* B sleeps after 0.5 ms and wakes at once: its vruntime is only
	 * 2.5 ms behind A now ... still > 1 ms: preempts again */
	now += 500000;
	model_schedule(m, 0, MODEL_PREV_SLEEP, now);
	CHECK(model_curr(m, 0) == a);
	model_try_to_wake_up(m, b, 0, 0, MODEL_WF_TTWU, now + 1000);
	CHECK(model_need_resched(m, 0));
	model_free(m);
}

/* START_DEBIT: a forked task starts one vslice after min_vruntime. */
static void test_fork_placement(void)
{
	struct model *m = mk(1);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	uint64_t now = 1000000000ULL;

	model_wake_up_new_task(m, a, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	now += 2000000;
	model_wake_up_new_task(m, b, 0, 0, now);
	/* 2 tasks (nr 1 + !on_rq): period 6 ms, slice 6 ms * 1024 / 2048, with
	 * the computed inverse (2^32-1)/2048 of the summed weight: 2999998 ns;
	 * the child starts at min_vruntime (= the parent's) + that */
	CHECK_EQ_U(b->se.vruntime - a->se.vruntime, 2999998);
	CHECK(!model_need_resched(m, 0));   /* behind the parent: no preemption */
	/* check_preempt_tick: A ran 4 ms > its 3 ms slice: resched - but A's
	 * vruntime (+2 ms) is still left of B's (+3 ms), so A is picked again */
	now += 2000000;
	model_tick(m, 0, now);
	CHECK(model_need_resched(m, 0));
	CHECK_EQ_U(m->counters[MC_tick_resched], 1);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);
	/* 4 ms later A is 3 ms right of B and over its slice again: B runs */
	now += 4000000;
	model_tick(m, 0, now);
	CHECK(model_need_resched(m, 0));
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == b);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/* A sleeping task moved to another CPU wakes there with a vruntime made
 * relative to the old queue and re-based on the new one. */
static void test_sleeping_migration(void)
{
	struct model *m = mk(2);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	struct model_task *c = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	uint64_t now = 1000000000ULL;
	int i;

	model_wake_up_new_task(m, a, 0, 0, now);
	model_wake_up_new_task(m, c, 1, 1, now);
	model_task_start_sleeping(m, b, 0);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	for (i = 0; i < 10; i++) {
		now += 4000000;
		model_tick(m, 0, now);
		model_tick(m, 1, now);
	}
	CHECK_EQ_S(model_migrate_task(m, b, 1, now), 0);
	CHECK_EQ_U(m->counters[MC_sched_migrate_task], 1);
	model_try_to_wake_up(m, b, 1, 1, MODEL_WF_TTWU, now + 1000);
	/* -40 ms relative to CPU 0, re-based on CPU 1, then raised to the
	 * sleeper credit: half the latency (6 ms x factor 2 for 2 CPUs) */
	CHECK_EQ_U(b->se.vruntime, m->rqs[1].cfs.min_vruntime - 6000000);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * A queued task moved to another CPU takes its load with it at the dequeue
 * (dequeue_entity(), <= 6.5 (6.2+: "Combine detach into dequeue when
 * migrating task"): a task on a migrating rq is dequeued with DO_DETACH,
 * detach_entity_load_avg() subtracting its averages from the old queue).
 * A runs on CPU 0; B is forked onto CPU 0 at T and moved to CPU 1 at the
 * same instant (no decay in between): CPU 0's root queue loses exactly B's
 * load_avg (1024, a new task's) and util_avg, CPU 1's gains them.
 */
static void test_queued_migration_detach(void)
{
	struct model *m = mk(2);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	struct cfs_rq *c0 = &m->rqs[0].cfs, *c1 = &m->rqs[1].cfs;
	uint64_t now = 1000000000ULL;
	unsigned long load0, util0, bload, butil;

	model_wake_up_new_task(m, a, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	now += 4000000;
	model_tick(m, 0, now);
	model_wake_up_new_task(m, b, 0, 0, now);
	CHECK(model_curr(m, 0) == a);
	load0 = c0->avg.load_avg;
	util0 = c0->avg.util_avg;
	bload = b->se.avg.load_avg;
	butil = b->se.avg.util_avg;
	CHECK_EQ_U(bload, 1024);
	CHECK_EQ_U(c1->avg.load_avg, 0);
	CHECK_EQ_S(model_migrate_task(m, b, 1, now), 0);
	CHECK_EQ_U(c0->avg.load_avg, load0 - bload);
	CHECK_EQ_U(c0->avg.util_avg, util0 - butil);
	CHECK_EQ_U(c1->avg.load_avg, bload);
	CHECK_EQ_U(c1->avg.util_avg, butil);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * The replay's hand-over (model_preempt_for(), replay --handoff skip|preempt)
 * on the profile of old kernels (6.1, CFS), one CPU (latency 6 ms, wakeup
 * granularity 1 ms).  X asleep since the start (at min_vruntime), Y runs
 * 500 us and sleeps, X wakes and runs 300 us, then wakes Y, which is 200 us
 * right of it: no preemption.  The trace says Y preempted X: the hand-over
 * leaves the buddies the kernel's preempting check_preempt_wakeup() leaves
 * (Y the next buddy; X the last one once sched_nr_latency = 8 entities are
 * queued: with 6 more runnable tasks started at X's wakeup of Y, at
 * min_vruntime, so never before X) and reschedules X, charged the 2 us
 * since the wakeup (preempt; not under skip, the kernel's clock for that
 * preemption).  The CFS pick takes Y, the next buddy within the
 * granularity of X, the leftmost (without the buddy: X again); nobody is
 * placed.  yield_to() is EEVDF's only (0).  With Y 1.7 ms right of X
 * (it ran 2 ms), the buddy is more than the granularity behind: X again.
 */
static void test_hand_over(void)
{
	for (int k = 0; k < 6; k++) {
		const bool skip = k & 1, crowd = (k >> 1) == 1, far = (k >> 1) == 2;
		struct model_config cfg = { .nr_cpus = 1, .hz = 250, .seed = 5 };
		struct model *m;
		struct model_task *x, *y, *e[6];
		uint64_t now = 1000000000ULL, vx, placed;

		cfg.profile = model_profile_find("6.1");
		m = model_new(&cfg, NULL);
		CHECK(m != NULL);
		if (!m)
			return;
		x = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
		y = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
		CHECK_EQ_S(model_task_start_sleeping(m, x, 0), 0);
		CHECK_EQ_S(model_task_start_runnable(m, y, 0, now), 0);
		CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == y);
		now += far ? 2000000 : 500000;
		CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now) == NULL);
		CHECK_EQ_S(model_try_to_wake_up(m, x, 0, 0, MODEL_WF_TTWU, now), 1);
		CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == x);
		now += 300000;
		for (int i = 0; crowd && i < 6; i++) {
			e[i] = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 10 + (uint32_t)i, NULL);
			CHECK_EQ_S(model_task_start_runnable(m, e[i], 0, now), 0);
		}
		CHECK_EQ_S(model_try_to_wake_up(m, y, 0, 0, MODEL_WF_TTWU | MODEL_WF_SYNC, now), 1);
		CHECK(!model_need_resched(m, 0));
		CHECK_EQ_U(y->se.vruntime - x->se.vruntime, far ? 1700000 : 200000);
		now += 2000;
		vx = x->se.vruntime;
		placed = m->counters[MC_place_entity];
		CHECK_EQ_S(model_yield_to(m, 0, y, now), 0);
		CHECK_EQ_S(skip ? model_preempt_for_skip(m, 0, y) : model_preempt_for(m, 0, y, now), 1);
		CHECK(model_need_resched(m, 0));
		CHECK(m->rqs[0].cfs.next == &y->se);
		CHECK(m->rqs[0].cfs.last == (crowd ? &x->se : NULL));
		CHECK_EQ_U(x->se.vruntime, vx + (skip ? 0 : 2000));
		CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == (far ? x : y));
		CHECK(x->on_rq == TASK_ON_RQ_QUEUED);
		CHECK_EQ_U(m->counters[MC_place_entity], placed);
		CHECK(model_check_invariants(m, NULL) == 0);
		model_free(m);
	}
}

/*
 * The hand-over's next buddy in a hierarchy: check_preempt_wakeup() sets it
 * from the level where curr's and the wakee's hierarchies meet upwards, so a
 * task group's own queue keeps no buddy and picks its leftmost entity.  X in
 * the root group runs; Q, then Y, queued in /g with equal vruntimes.
 */
static void test_hand_over_group(void)
{
	struct model_config cfg = { .nr_cpus = 1, .hz = 250, .seed = 5 };
	struct model_group *g;
	struct model_task *x, *q, *y;
	struct model *m;
	uint64_t now = 1000000000ULL;

	cfg.profile = model_profile_find("6.1");
	m = model_new(&cfg, NULL);
	CHECK(m != NULL);
	if (!m)
		return;
	g = model_group_new(m, NULL, 1024, "/g", NULL);
	CHECK(g != NULL);
	x = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	q = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 2, NULL);
	y = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 3, NULL);
	CHECK(x && q && y);
	if (!g || !x || !q || !y) {
		model_free(m);
		return;
	}
	CHECK_EQ_S(model_task_start_runnable(m, x, 0, now), 0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == x);
	now += 100000;
	CHECK_EQ_S(model_task_start_runnable(m, q, 0, now), 0);
	CHECK_EQ_S(model_task_start_runnable(m, y, 0, now), 0);
	CHECK_EQ_U(q->se.vruntime, y->se.vruntime);
	CHECK_EQ_S(model_preempt_for(m, 0, y, now), 1);
	CHECK(cfs_rq_of(&y->se)->next == NULL);
	CHECK(m->rqs[0].cfs.next == y->se.parent);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == q);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

int main(void)
{
	test_sleeping_migration();
	test_queued_migration_detach();
	test_pick_and_buddies();
	test_wakeup_preempt_api();
	test_fork_placement();
	test_hand_over();
	test_hand_over_group();
	return check_done("cfs");
}
