// SPDX-License-Identifier: GPL-2.0
/*
 * EEVDF on constructed queues: avg_vruntime, eligibility, earliest eligible
 * deadline, RUN_TO_PARITY, delayed entities picked and dequeued, place_entity
 * (lag, half slice for forks), update_deadline, wakeup preemption.
 */
#include <string.h>

#include "check.h"
#include "sched.h"

static struct model *mk(const char *profile, unsigned int cpus)
{
	struct model_config cfg = { .nr_cpus = cpus, .hz = 250, .seed = 3 };

	cfg.profile = model_profile_find(profile);
	return model_new(&cfg, NULL);
}

static void mkse(struct sched_entity *se, struct cfs_rq *cfs_rq, u64 v0, s64 v, s64 d,
		 unsigned long w)
{
	memset(se, 0, sizeof(*se));
	se->cfs_rq = cfs_rq;
	se->load.weight = w;
	se->vruntime = v0 + (u64)v;
	se->deadline = v0 + (u64)d;
	se->slice = 700000;
	se->on_rq = 1;
}

static void test_pick_constructed(void)
{
	struct model *m = mk("6.18", 1);
	struct cfs_rq *cfs_rq = &m->rqs[0].cfs;
	struct sched_entity e1, e2, e3, e4;
	u64 v0 = cfs_rq->zero_vruntime;

	/* e1 (v 0, d 1000), e2 (v 2000, d 500), e3 (v -1000, d 3000), equal
	 * weights: V = 333; e2 has the earliest deadline but is not eligible */
	mkse(&e1, cfs_rq, v0, 0, 1000, NICE_0_LOAD);
	mkse(&e2, cfs_rq, v0, 2000, 500, NICE_0_LOAD);
	mkse(&e3, cfs_rq, v0, -1000, 3000, NICE_0_LOAD);
	__enqueue_entity(m, cfs_rq, &e1);
	__enqueue_entity(m, cfs_rq, &e2);
	__enqueue_entity(m, cfs_rq, &e3);
	cfs_rq->nr_running = 3;
	CHECK_EQ_S(cfs_rq->avg_load, 3072);
	CHECK_EQ_S(cfs_rq->avg_vruntime, (0 + 2000 - 1000) * 1024);
	CHECK(entity_eligible(cfs_rq, &e1));
	CHECK(!entity_eligible(cfs_rq, &e2));
	CHECK(entity_eligible(cfs_rq, &e3));
	CHECK(__pick_first_entity(cfs_rq) == &e2);
	CHECK(pick_eevdf(m, cfs_rq) == &e1);
	/* avg_vruntime(): V = 333 (ZERO_VRUNTIME moves the origin there) */
	CHECK_EQ_U(avg_vruntime(m, cfs_rq) - v0, 333);
	CHECK_EQ_U(cfs_rq->zero_vruntime - v0, 333);
	CHECK(pick_eevdf(m, cfs_rq) == &e1);   /* moving the origin changes nothing */

	/* a heavier e2 pulls V up: with w(e2) = 3 * 1024, V = 1000; e2 (2000)
	 * still not eligible, e1 at 0 is */
	__dequeue_entity(m, cfs_rq, &e2);
	e2.load.weight = 3 * NICE_0_LOAD;
	__enqueue_entity(m, cfs_rq, &e2);
	CHECK_EQ_U(avg_vruntime(m, cfs_rq) - v0, 1000);
	CHECK(pick_eevdf(m, cfs_rq) == &e1);

	/* curr e4 (not in the tree), eligible, deadline 5000: protected by
	 * RUN_TO_PARITY it keeps running; unprotected, e1's deadline wins */
	mkse(&e4, cfs_rq, v0, -500, 5000, NICE_0_LOAD);
	cfs_rq->curr = &e4;
	cfs_rq->nr_running = 4;
	set_protect_slice(m, cfs_rq, &e4);
	CHECK(pick_eevdf(m, cfs_rq) == &e4);
	cancel_protect_slice(m, &e4);
	CHECK(!protect_slice(m, &e4));
	CHECK(pick_eevdf(m, cfs_rq) == &e1);
	/* curr with the earliest deadline wins without protection */
	e4.deadline = v0 + 900;
	CHECK(pick_eevdf(m, cfs_rq) == &e4);
	/* an ineligible curr never does - though moving it far right pulls V
	 * up to 17500 and makes e2 (deadline 500) eligible and the pick */
	e4.vruntime = v0 + 100000;
	CHECK(!entity_eligible(cfs_rq, &e4));
	CHECK(entity_eligible(cfs_rq, &e2));
	CHECK(pick_eevdf(m, cfs_rq) == &e2);

	/* a delayed entity still competes: pick_eevdf() returns it */
	cfs_rq->curr = NULL;
	cfs_rq->nr_running = 3;
	e1.sched_delayed = 1;
	CHECK(pick_eevdf(m, cfs_rq) == &e1);
	e1.sched_delayed = 0;

	/* the walk: many entities, only one eligible deep in the tree */
	{
		struct sched_entity es[64];
		int i;

		__dequeue_entity(m, cfs_rq, &e1);
		__dequeue_entity(m, cfs_rq, &e2);
		__dequeue_entity(m, cfs_rq, &e3);
		v0 = cfs_rq->zero_vruntime;
		for (i = 0; i < 64; i++) {
			/* deadlines ascending, vruntimes ascending: the leftmost is
			 * the most eligible; make the first 10 ineligible by weight */
			mkse(&es[i], cfs_rq, v0, 100000 + i * 10, 1000 + i, i < 10 ? 1024 : 1024 * 8);
			es[i].vruntime = v0 + (u64)(i < 10 ? 5000000 : -1000 - i);
			__enqueue_entity(m, cfs_rq, &es[i]);
		}
		cfs_rq->nr_running = 64;
		CHECK(pick_eevdf(m, cfs_rq) == &es[10]);
		CHECK_EQ_U(cfs_rq_min_slice(cfs_rq), 700000);
		for (i = 0; i < 64; i++)
			__dequeue_entity(m, cfs_rq, &es[i]);
		CHECK_EQ_S(cfs_rq->avg_load, 0);
		CHECK_EQ_S(cfs_rq->avg_vruntime, 0);
	}
	cfs_rq->nr_running = 0;
	model_free(m);
}

/* place_entity(): zero lag -> V; a fork gets half a slice; lag is inflated. */
static void test_place_entity(void)
{
	struct model *m = mk("6.18", 1);
	struct cfs_rq *cfs_rq = &m->rqs[0].cfs;
	struct sched_entity a, b, p;
	u64 v0 = cfs_rq->zero_vruntime, V;

	mkse(&a, cfs_rq, v0, 0, 1000, NICE_0_LOAD);
	mkse(&b, cfs_rq, v0, 3000, 9000, NICE_0_LOAD);
	__enqueue_entity(m, cfs_rq, &a);
	__enqueue_entity(m, cfs_rq, &b);
	cfs_rq->nr_running = 2;
	V = avg_vruntime(m, cfs_rq);
	CHECK_EQ_U(V - v0, 1500);

	memset(&p, 0, sizeof(p));
	p.cfs_rq = cfs_rq;
	p.load.weight = NICE_0_LOAD;
	place_entity_eevdf(m, cfs_rq, &p, ENQUEUE_INITIAL);
	CHECK_EQ_U(p.vruntime, V);
	/* base slice 0.70 ms x factor 1 (1 CPU), halved for a fork */
	CHECK_EQ_U(p.slice, 700000);
	CHECK_EQ_U(p.deadline - p.vruntime, 350000);

	/* a waking entity with vlag 1000 over W = 2048, w = 1024:
	 * lag = 1000 * 3072 / 2048 = 1500, so that after it joins V' - v = 1000 */
	p.vlag = 1000;
	place_entity_eevdf(m, cfs_rq, &p, ENQUEUE_WAKEUP);
	CHECK_EQ_U(V - p.vruntime, 1500);
	CHECK_EQ_U(p.deadline - p.vruntime, 700000);
	__enqueue_entity(m, cfs_rq, &p);
	CHECK_EQ_S((s64)(avg_vruntime(m, cfs_rq) - p.vruntime), 1000);
	model_free(m);
}

/*
 * place_entity() on an empty queue: no lag applies (nr_running is 0), so
 * v = V = v0 exactly and d = v + vslice.  And place_lag() with entities
 * counted but no weight (the kernel's WARN_ON_ONCE(!load) case) divides by
 * 1: vlag 1000 x (0 + 1024) / 1.
 */
static void test_place_entity_empty(void)
{
	struct model *m = mk("6.18", 1);
	struct cfs_rq *cfs_rq = &m->rqs[0].cfs;
	struct sched_entity p;
	u64 v0 = cfs_rq->zero_vruntime;

	memset(&p, 0, sizeof(p));
	p.cfs_rq = cfs_rq;
	p.load.weight = NICE_0_LOAD;
	p.vlag = 5000;   /* a stored lag, ignored on an empty queue */
	place_entity_eevdf(m, cfs_rq, &p, ENQUEUE_WAKEUP);
	CHECK_EQ_U(p.vruntime, v0);
	CHECK_EQ_U(p.deadline - p.vruntime, 700000);
	CHECK_EQ_U(cfs_rq->zero_vruntime, v0);

	CHECK_EQ_S(place_lag(cfs_rq, &p, 1000), 1024000);
	model_free(m);
}

/*
 * DELAY_DEQUEUE through the API: A ran longer than B, so when A sleeps it
 * is not eligible and stays queued (delayed); it leaves when picked.
 */
static void test_delayed_dequeue(void)
{
	struct model *m = mk("6.18", 1);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	struct model_task_info ia;
	uint64_t now = 1000000000ULL, v;

	model_wake_up_new_task(m, a, 0, 0, now);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);
	model_wake_up_new_task(m, b, 0, 0, now + 100000);
	/* B is forked with half a slice at V: A (running 0.1 ms) keeps the CPU
	 * until its protected slice ends */
	now += 100000;
	if (model_need_resched(m, 0))
		model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	now += 300000;
	model_schedule(m, 0, MODEL_PREV_SLEEP, now);   /* A sleeps */
	model_task_info(a, &ia);
	CHECK_EQ_U(ia.state, MODEL_TASK_DELAYED);
	CHECK(model_curr(m, 0) == b);
	CHECK_EQ_U(m->counters[MC_delayed_dequeue], 1);
	CHECK_EQ_U(m->rqs[0].cfs.h_nr_queued, 2);
	CHECK_EQ_U(m->rqs[0].cfs.h_nr_delayed, 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	/* a delayed entity keeps accruing load, not runnable */
	v = a->se.avg.load_sum;
	now += 4000000;
	model_tick(m, 0, now);
	model_schedule(m, 0, MODEL_PREV_SLEEP, now);   /* B sleeps: A picked, dequeued */
	model_task_info(a, &ia);
	CHECK_EQ_U(ia.state, MODEL_TASK_SLEEPING);
	CHECK(model_curr(m, 0) == NULL);
	CHECK_EQ_U(m->rqs[0].cfs.h_nr_queued, 0);
	CHECK(a->se.avg.load_sum != v);
	CHECK(model_check_invariants(m, NULL) == 0);
	/* waking A: a plain enqueue now, and it runs on the idle CPU */
	model_try_to_wake_up(m, a, 0, -1, MODEL_WF_TTWU, now + 1000);
	CHECK(model_need_resched(m, 0));
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now + 2000) == a);
	model_free(m);
}

/* A delayed task woken is requeued in place (ttwu_runnable) without an enqueue. */
static void test_delayed_wakeup(void)
{
	struct model *m = mk("6.18", 1);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	struct model_task_info ia;
	uint64_t now = 1000000000ULL, enq;

	model_wake_up_new_task(m, a, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	model_wake_up_new_task(m, b, 0, 0, now + 100000);
	now += 400000;
	model_schedule(m, 0, MODEL_PREV_SLEEP, now);
	model_task_info(a, &ia);
	CHECK_EQ_U(ia.state, MODEL_TASK_DELAYED);
	enq = m->counters[MC_enqueue_task_fair];
	CHECK_EQ_S(model_try_to_wake_up(m, a, 0, 0, MODEL_WF_TTWU, now + 1000), 0);
	CHECK_EQ_U(m->counters[MC_requeue_delayed_entity], 1);
	CHECK_EQ_U(m->counters[MC_enqueue_task_fair], enq + 1);   /* ENQUEUE_DELAYED only */
	model_task_info(a, &ia);
	CHECK_EQ_U(ia.state, MODEL_TASK_QUEUED);
	CHECK_EQ_U(m->rqs[0].cfs.h_nr_delayed, 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * Wakeup preemption: a task that slept long enough to be placed at V with
 * an earlier deadline than the running one's protected slice does not
 * preempt during the slice (RUN_TO_PARITY), but does once it expired.
 */
static void test_wakeup_preempt(void)
{
	struct model *m = mk("6.18", 1);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	uint64_t now = 1000000000ULL;
	int i;

	model_task_start_sleeping(m, b, 0);
	model_wake_up_new_task(m, a, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	for (i = 0; i < 5; i++) {
		now += 4000000;
		model_tick(m, 0, now);
	}
	CHECK(!model_need_resched(m, 0));   /* alone: never rescheduled */
	/* A's slice renewed at the last tick; B wakes: A is protected */
	model_try_to_wake_up(m, b, 0, 0, MODEL_WF_TTWU, now + 1000);
	CHECK_EQ_U(m->counters[MC_wakeup_preempt_check], 1);
	CHECK_EQ_U(m->counters[MC_wakeup_preempt], 0);
	/* at the next tick A's deadline has passed: resched, B runs */
	now += 4000000;
	model_tick(m, 0, now);
	CHECK(model_need_resched(m, 0));
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == b);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * avg_vruntime() (kernel/sched/fair.c, ZERO_VRUNTIME as in 6.12.117) at its
 * edges: an empty queue is V = v0 and leaves the origin alone; curr alone is
 * V = its vruntime; a negative numerator rounds towards -inf: with the tree
 * (keys -2, 0, w 1024 each) \Sum key w / \Sum w = -2048 / 2048 = -1 exactly,
 * and with keys -1 (w 3) and +1 (w 2) -1 / 5 floors to -1, not 0.
 */
static void test_avg_vruntime_edges(void)
{
	const char *profiles[] = { "6.12", "6.18" };

	for (int i = 0; i < 2; i++) {
		struct model *m = mk(profiles[i], 1);
		struct cfs_rq *cfs_rq = &m->rqs[0].cfs;
		struct sched_entity a, b, c;
		u64 v0 = cfs_rq->zero_vruntime;

		CHECK_EQ_U(avg_vruntime(m, cfs_rq), v0);
		CHECK_EQ_U(cfs_rq->zero_vruntime, v0);
		CHECK_EQ_U(avg_vruntime(m, cfs_rq), v0);

		/* curr alone (not in the tree): V is its vruntime; not queued: ignored */
		mkse(&c, cfs_rq, v0, 5000, 9000, NICE_0_LOAD);
		cfs_rq->curr = &c;
		c.on_rq = 0;
		CHECK_EQ_U(avg_vruntime(m, cfs_rq), v0);
		c.on_rq = 1;
		CHECK_EQ_U(avg_vruntime(m, cfs_rq) - v0, 5000);
		CHECK_EQ_S(cfs_rq->avg_vruntime, 0);
		cfs_rq->curr = NULL;
		v0 = cfs_rq->zero_vruntime;

		mkse(&a, cfs_rq, v0, -2, 1000, NICE_0_LOAD);
		mkse(&b, cfs_rq, v0, 0, 2000, NICE_0_LOAD);
		__enqueue_entity(m, cfs_rq, &a);
		__enqueue_entity(m, cfs_rq, &b);
		CHECK_EQ_S(cfs_rq->avg_vruntime, -2048);
		CHECK_EQ_S((s64)(avg_vruntime(m, cfs_rq) - v0), -1);
		/* the origin moved to V: the sum is relative to it (keys -1, +1) */
		CHECK_EQ_S(cfs_rq->avg_vruntime, 0);
		__dequeue_entity(m, cfs_rq, &a);
		__dequeue_entity(m, cfs_rq, &b);
		v0 = cfs_rq->zero_vruntime;

		mkse(&a, cfs_rq, v0, -1, 1000, 3 * 1024);
		mkse(&b, cfs_rq, v0, 1, 2000, 2 * 1024);
		__enqueue_entity(m, cfs_rq, &a);
		__enqueue_entity(m, cfs_rq, &b);
		CHECK_EQ_S(cfs_rq->avg_vruntime, -1);
		CHECK_EQ_S(cfs_rq->avg_load, 5);
		CHECK_EQ_S((s64)(avg_vruntime(m, cfs_rq) - v0), -1);
		/* keys now 0 and +2: 4 - 0 = 4 = avg_vruntime - 5 * (-1) */
		CHECK_EQ_S(cfs_rq->avg_vruntime, 4);
		__dequeue_entity(m, cfs_rq, &a);
		__dequeue_entity(m, cfs_rq, &b);
		CHECK_EQ_S(cfs_rq->avg_load, 0);
		model_free(m);
	}
}

int main(void)
{
	test_avg_vruntime_edges();
	test_pick_constructed();
	test_place_entity();
	test_place_entity_empty();
	test_delayed_dequeue();
	test_delayed_wakeup();
	test_wakeup_preempt();
	return check_done("eevdf");
}
