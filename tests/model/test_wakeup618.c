// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeup preemption and slice protection of the capture kernel (profile
 * 6.18: PROTECT_VPROT, RESCHED_UNPROTECTED, LAG_CLAMP_MAX_SLICE) against
 * 6.12, and rq_clock_skip_update() after a preempting wakeup
 * (CLOCK_SKIP_UPDATE, every profile).  Expected values follow from the
 * 6.18 fair.c rules written out in docs/model.md.  The 6.18.33+ wakeup
 * decision (WAKEUP_PICK_NEXT, check_preempt_wakeup_fair() of a 6.18.35
 * fair.c), the NEXT_BUDDY what-if of that code, and REWEIGHT_PLACE's
 * re-placement of a running entity are pinned one rule per test, each with
 * a state where removing or inverting the rule changes the outcome.
 */
#include <string.h>

#include "check.h"
#include "sched.h"

static struct model *mk(const char *profile)
{
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 3 };

	cfg.profile = model_profile_find(profile);
	return model_new(&cfg, NULL);
}

static void mkse(struct sched_entity *se, struct cfs_rq *cfs_rq, u64 v0, s64 v, s64 d, u64 slice)
{
	memset(se, 0, sizeof(*se));
	se->cfs_rq = cfs_rq;
	se->load.weight = NICE_0_LOAD;
	se->vruntime = v0 + (u64)v;
	se->deadline = v0 + (u64)d;
	se->slice = slice;
	se->on_rq = 1;
}

/*
 * set_protect_slice(): 6.18 protects curr up to min(deadline, v + the
 * shortest queued slice); 6.12 up to the deadline whatever is queued.
 */
static void test_protect_min_slice(void)
{
	const char *names[2] = { "6.18", "6.12" };

	for (int k = 0; k < 2; k++) {
		struct model *m = mk(names[k]);
		struct cfs_rq *cfs_rq = &m->rqs[0].cfs;
		struct sched_entity curr, shortq;
		u64 v0 = cfs_rq->zero_vruntime;

		/* curr: v 0, deadline 1.4 ms; queued: a 0.3 ms custom slice */
		mkse(&curr, cfs_rq, v0, 0, 1400000, 1400000);
		mkse(&shortq, cfs_rq, v0, 0, 300000, 300000);
		__enqueue_entity(m, cfs_rq, &shortq);
		cfs_rq->curr = &curr;
		cfs_rq->nr_running = 2;
		CHECK_EQ_U(cfs_rq_min_slice(cfs_rq), 300000);
		CHECK_EQ_U(cfs_rq_max_slice(cfs_rq), 1400000);
		set_protect_slice(m, cfs_rq, &curr);
		curr.vruntime = v0 + 299999;
		CHECK(protect_slice(m, &curr));
		curr.vruntime = v0 + 300000;
		if (k == 0) {
			CHECK_EQ_U(curr.vprot - v0, 300000);     /* nice 0: virtual == real */
			CHECK(!protect_slice(m, &curr));
		} else {
			CHECK(protect_slice(m, &curr));          /* until the deadline */
		}
		curr.vruntime = v0 + 100;
		cancel_protect_slice(m, &curr);
		CHECK(!protect_slice(m, &curr));
		/* update_protect_slice() only shrinks */
		if (k == 0) {
			curr.vprot = v0 + 1000000;
			update_protect_slice(m, cfs_rq, &curr);
			CHECK_EQ_U(curr.vprot - v0, 300100);
			curr.vprot = v0 + 200;
			update_protect_slice(m, cfs_rq, &curr);
			CHECK_EQ_U(curr.vprot - v0, 200);
		}
		__dequeue_entity(m, cfs_rq, &shortq);
		cfs_rq->curr = NULL;
		cfs_rq->nr_running = 0;
		model_free(m);
	}
}

/*
 * entity_lag(): 6.18 clamps to the longest queued slice + TICK_NSEC (1.4 +
 * 4 ms at HZ=250 on 2 CPUs), 6.12 to max(2 slices, a tick) = 4 ms.
 */
static void test_lag_clamp(void)
{
	const char *names[2] = { "6.18", "6.12" };
	const s64 want[2] = { 5400000, 4000000 };

	for (int k = 0; k < 2; k++) {
		struct model *m = mk(names[k]);
		struct cfs_rq *cfs_rq = &m->rqs[0].cfs;
		struct sched_entity se;
		u64 v0 = cfs_rq->zero_vruntime;

		mkse(&se, cfs_rq, v0, -100000000, 0, 1400000);
		cfs_rq->curr = &se;
		CHECK_EQ_S(entity_lag(m, v0, &se), want[k]);      /* far behind V: owed */
		se.vruntime = v0 + 100000000;
		CHECK_EQ_S(entity_lag(m, v0, &se), -want[k]);
		cfs_rq->curr = NULL;
		model_free(m);
	}
}

static uint64_t counter(struct model *m, const char *name)
{
	uint64_t v = 0;

	CHECK(model_counter_get(m, name, &v));
	return v;
}

/*
 * A pipe ping-pong on CPU 0 through the public API, with the charges the
 * capture kernel showed for perf bench sched pipe (docs/model.md): the
 * waker runs 3.05 us and wakes the sleeper; preempted, it leaves 1 us
 * later (the rest of its system call) and the wakee runs 2.64 us and sleeps;
 * not preempted, the waker runs 1.6 us and sleeps, and the roles swap.
 *
 * Each preempting switch runs on the wakeup's clock (rq_clock_skip_update()):
 * it emits no sched_stat_runtime, and the wakee is charged the waker's last
 * 1 us.  The waker is preempted whenever the wakee slept with positive lag
 * (the EEVDF eligibility rule): 15003 of 20000 wakeups in a steady SRRR
 * pattern - the kernel's RRRS/RRRRS at 78 %.
 */
static void test_pipe_pingpong(void)
{
	struct model *m = mk("6.18");
	struct model_task *t[2];
	uint64_t now = 1000000, stat, preempted = 0;
	int x = 0;

	for (int i = 0; i < 2; i++)
		t[i] = model_task_new(m, model_root_group(m), 0, MODEL_POLICY_NORMAL, 100 + i, NULL);
	CHECK(t[0] && t[1]);
	CHECK_EQ_S(model_task_start_runnable(m, t[0], 0, now), 0);
	CHECK_EQ_S(model_task_start_sleeping(m, t[1], 0), 0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == t[0]);
	for (int it = 0; it < 20000; it++) {
		struct model_task_info before, after;

		now += 3050;
		CHECK(model_try_to_wake_up(m, t[1 - x], 0, 0, MODEL_WF_TTWU | MODEL_WF_SYNC, now) >= 0);
		if (model_need_resched(m, 0)) {
			preempted++;
			model_task_info(t[1 - x], &before);
			stat = counter(m, "sched_stat_runtime");
			now += 1000;
			CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == t[1 - x]);
			CHECK_EQ_U(counter(m, "sched_stat_runtime"), stat);
			now += 2640;
			CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now) == t[x]);
			model_task_info(t[1 - x], &after);
			CHECK_EQ_U(after.sum_exec_runtime - before.sum_exec_runtime, 3640);
		} else {
			now += 1600;
			CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now) == t[1 - x]);
			x = 1 - x;
		}
	}
	CHECK_EQ_U(preempted, 15003);
	model_free(m);
}

/*
 * update_curr() on 6.18 reschedules as soon as curr's protected period is
 * over (RESCHED_UNPROTECTED), eligible or not; 6.12 only if curr is no
 * longer eligible (PREEMPT_SHORT).  Two equal queued entities: curr is
 * eligible at V; with its protection cancelled, 6.18 asks for a pick.
 */
static void test_resched_unprotected(void)
{
	const char *names[2] = { "6.18", "6.12" };
	const bool want[2] = { true, false };

	for (int k = 0; k < 2; k++) {
		struct model *m = mk(names[k]);
		struct rq *rq = &m->rqs[0];
		struct cfs_rq *cfs_rq = &rq->cfs;
		struct sched_entity curr, other;
		u64 v0 = cfs_rq->zero_vruntime;

		mkse(&curr, cfs_rq, v0, -1000, 1400000, 1400000);
		mkse(&other, cfs_rq, v0, 1000, 1500000, 1400000);
		__enqueue_entity(m, cfs_rq, &other);
		cfs_rq->curr = &curr;
		cfs_rq->nr_running = 2;
		rq->clock_task = 1000000;
		curr.exec_start = rq->clock_task - 10;
		set_protect_slice(m, cfs_rq, &curr);
		cancel_protect_slice(m, &curr);
		rq->need_resched = false;
		update_curr(m, cfs_rq);
		CHECK(entity_eligible(cfs_rq, &curr));
		CHECK_EQ_S(rq->need_resched, want[k]);
		__dequeue_entity(m, cfs_rq, &other);
		cfs_rq->curr = NULL;
		cfs_rq->nr_running = 0;
		model_free(m);
	}
}

/* ---- the 6.18.33+ wakeup decision (WAKEUP_PICK_NEXT) ------------------- */

/*
 * A CPU-0 queue of real tasks (nice @nices[i]) built through the public API:
 * t[0] is picked and runs, the others are queued behind it.  The tests then
 * rewrite the entities' vruntimes and deadlines (a queued entity leaves and
 * re-enters the tree around the change, so the sums and the augmented tree
 * stay right) and call check_preempt_wakeup_fair() for a queued wakee, as
 * the kernel does right after the wakeup's enqueue.  The rq clock is at
 * curr's exec_start, so the update_curr() of the check charges nothing.
 */
struct rig {
	struct model *m;
	struct rq *rq;
	struct cfs_rq *cfs_rq;
	struct model_task *t[4];
	u64 now;
};

static bool rig_new(struct rig *r, const char *profile, int n, const int *nices)
{
	memset(r, 0, sizeof(*r));
	r->m = mk(profile);
	if (!r->m)
		return false;
	r->rq = &r->m->rqs[0];
	r->cfs_rq = &r->rq->cfs;
	r->now = 1000000;
	for (int i = 0; i < n; i++) {
		r->t[i] = model_task_new(r->m, model_root_group(r->m), nices[i],
					 MODEL_POLICY_NORMAL, 10 + (uint32_t)i, NULL);
		if (!r->t[i])
			return false;
	}
	CHECK_EQ_S(model_task_start_runnable(r->m, r->t[0], 0, r->now), 0);
	CHECK(model_schedule(r->m, 0, MODEL_PREV_RUNNABLE, r->now) == r->t[0]);
	for (int i = 1; i < n; i++)
		CHECK_EQ_S(model_task_start_runnable(r->m, r->t[i], 0, r->now), 0);
	CHECK_EQ_U(r->cfs_rq->nr_running, n);
	r->rq->need_resched = false;
	return true;
}

/*
 * Put @se at vruntime b + @v, deadline b + @d, slice @slice (custom if it is
 * not the base slice), b = the queue's origin.  curr is not in the tree.
 */
static void rig_set(struct rig *r, struct model_task *p, s64 v, s64 d, u64 slice)
{
	struct sched_entity *se = &p->se;
	u64 b = cfs_rq_origin(r->m, r->cfs_rq);
	bool queued = se->on_rq && r->cfs_rq->curr != se;

	if (queued)
		__dequeue_entity(r->m, r->cfs_rq, se);
	se->vruntime = b + (u64)v;
	se->deadline = b + (u64)d;
	se->slice = slice;
	se->custom_slice = slice != r->m->sysctl_sched_base_slice;
	if (queued)
		__enqueue_entity(r->m, r->cfs_rq, se);
}

static void rig_check(struct rig *r, struct model_task *p, int wake_flags)
{
	model_counters_reset(r->m);
	r->rq->need_resched = false;
	check_preempt_wakeup_fair(r->m, r->rq, p, wake_flags);
}

#define MC(r, c) ((r)->m->counters[MC_##c])
#define BASE_SLICE 1400000   /* sysctl_sched_base_slice: 0.7 ms x (1 + ilog2(2 CPUs)) */

/*
 * Rule (a), check_preempt_wakeup_fair() of 6.18.35: "if ((wake_flags &
 * WF_FORK) || pse->sched_delayed) return;" before the pick.  curr A (v +0.5
 * ms, d +1.9 ms) against the wakee B (v 0, d +1.4 ms), nice 0: V = +0.25 ms,
 * A is not eligible, so every pick is B's.  Forked: 6.18 returns before the
 * pick (no pick_next_entity() call, A's vprot not touched by
 * update_protect_slice()); 6.12 preempts.  Woken (WF_TTWU): both preempt.
 */
static void test_fork_no_preempt(void)
{
	const char *names[2] = { "6.18", "6.12" };
	const int nices[2] = { 0, 0 };

	for (int k = 0; k < 2; k++) {
		for (int fork = 0; fork < 2; fork++) {
			struct rig r;
			struct sched_entity *a;
			bool want = !(k == 0 && fork);
			u64 vprot;

			if (!rig_new(&r, names[k], 2, nices)) {
				CHECK(0);
				model_free(r.m);
				continue;
			}
			a = &r.t[0]->se;
			rig_set(&r, r.t[0], 500000, 1900000, BASE_SLICE);
			rig_set(&r, r.t[1], 0, 1400000, BASE_SLICE);
			a->vprot = a->vruntime + 5000000;
			vprot = a->vprot;
			CHECK(!entity_eligible(r.cfs_rq, a));
			CHECK(entity_eligible(r.cfs_rq, &r.t[1]->se));
			rig_check(&r, r.t[1], fork ? MODEL_WF_FORK : MODEL_WF_TTWU);
			CHECK_MSG(r.rq->need_resched == want, "%s fork=%d: resched %d",
				  names[k], fork, r.rq->need_resched);
			CHECK_EQ_U(MC(&r, wakeup_preempt), want);
			CHECK_EQ_U(MC(&r, wakeup_preempt_check), 1);
			if (k == 0) {
				/* the fork return comes before the pick and update_protect_slice() */
				CHECK_EQ_U(MC(&r, pick_next_entity), fork ? 0 : 1);
				CHECK_EQ_U(a->vprot, vprot);
			}
			model_free(r.m);
		}
	}
}

/*
 * Rule (a)'s exception: "if (sched_feat(PREEMPT_SHORT) && (pse->slice <
 * se->slice)) { preempt_action = PREEMPT_WAKEUP_SHORT; goto pick; }" comes
 * before the fork return, and that pick is pick_next_entity(protect=false).
 * curr A (nice 0, v 0, d +1.4 ms) is protected to its deadline; the forked
 * wakee B asks for 0.3 ms.
 *  - B at v 0, d +0.3 ms: both eligible (V = 0); with protection A would
 *    keep the CPU, without it B's earlier deadline wins: preemption, and
 *    A's protection is cancelled (cancel_protect_slice(): vprot = v).
 *  - B at v +0.6 ms, d +0.9 ms: V = +0.3 ms, B is not eligible, A wins the
 *    unprotected pick: no preemption, and update_protect_slice() shrinks
 *    A's vprot from +1.4 ms to v + calc_delta_fair(0.3 ms, A) = +0.3 ms
 *    (the shortest queued slice; nice 0: virtual = real).
 */
static void test_fork_short_slice(void)
{
	const int nices[2] = { 0, 0 };

	for (int c = 0; c < 2; c++) {
		struct rig r;
		struct sched_entity *a;
		u64 b;

		if (!rig_new(&r, "6.18", 2, nices)) {
			CHECK(0);
			model_free(r.m);
			continue;
		}
		a = &r.t[0]->se;
		rig_set(&r, r.t[0], 0, 1400000, BASE_SLICE);
		if (c == 0)
			rig_set(&r, r.t[1], 0, 300000, 300000);
		else
			rig_set(&r, r.t[1], 600000, 900000, 300000);
		a->vprot = a->deadline;
		CHECK(protect_slice(r.m, a));
		CHECK(__pick_eevdf(r.m, r.cfs_rq, true) == a);
		rig_check(&r, r.t[1], MODEL_WF_FORK);
		b = cfs_rq_origin(r.m, r.cfs_rq);
		CHECK_EQ_U(MC(&r, pick_next_entity), 1);
		if (c == 0) {
			CHECK(r.rq->need_resched);
			CHECK_EQ_U(MC(&r, wakeup_preempt), 1);
			CHECK_EQ_S((s64)(a->vprot - b), 0);       /* = v: cancelled */
			CHECK_EQ_S((s64)(a->vruntime - b), 0);
		} else {
			CHECK(!r.rq->need_resched);
			CHECK_EQ_U(MC(&r, wakeup_preempt), 0);
			CHECK_EQ_S((s64)(a->vprot - b), 300000);
			CHECK_EQ_S((s64)(a->vruntime - b), 0);
		}
		model_free(r.m);
	}
}

/*
 * Rule (b), the buddy: 6.18.35's check decides with pick_next_entity(),
 * whose pick_eevdf() returns an eligible cfs_rq->next first; 6.12's with
 * pick_eevdf(), no buddy.  Nice 0: curr A (v +0.6 ms, d +2 ms), wakee B (v 0,
 * d +1.4 ms), C (v +0.1 ms, d +1.5 ms) the next buddy.  V = (0.6 + 0 + 0.1) /
 * 3 ms = +0.233 ms: B and C eligible, A not; __pick_eevdf() is B (earliest
 * deadline), pick_next_entity() is C.  6.18: no preemption, the buddy stays,
 * and (rule c, every non-preempting wakeup, equal slices too) A's vprot
 * shrinks from v + 5 ms to v + calc_delta_fair(1.4 ms) = v + 1.4 ms.  6.12
 * preempts.  Without the buddy 6.18 preempts too (B wins).
 */
static void test_buddy_wins_pick(void)
{
	const char *names[3] = { "6.18", "6.12", "6.18" };
	const bool buddy[3] = { true, true, false };
	const bool want[3] = { false, true, true };
	const int nices[3] = { 0, 0, 0 };

	for (int k = 0; k < 3; k++) {
		struct rig r;
		struct sched_entity *a, *bse, *cse;

		if (!rig_new(&r, names[k], 3, nices)) {
			CHECK(0);
			model_free(r.m);
			continue;
		}
		a = &r.t[0]->se;
		bse = &r.t[1]->se;
		cse = &r.t[2]->se;
		rig_set(&r, r.t[0], 600000, 2000000, BASE_SLICE);
		rig_set(&r, r.t[1], 0, 1400000, BASE_SLICE);
		rig_set(&r, r.t[2], 100000, 1500000, BASE_SLICE);
		a->vprot = a->vruntime + 5000000;
		r.cfs_rq->next = buddy[k] ? cse : NULL;
		CHECK(!entity_eligible(r.cfs_rq, a));
		CHECK(entity_eligible(r.cfs_rq, bse) && entity_eligible(r.cfs_rq, cse));
		CHECK(__pick_eevdf(r.m, r.cfs_rq, true) == bse);
		rig_check(&r, r.t[1], MODEL_WF_TTWU);
		CHECK_MSG(r.rq->need_resched == want[k], "%s buddy=%d: resched %d",
			  names[k], buddy[k], r.rq->need_resched);
		CHECK_EQ_U(MC(&r, wakeup_preempt), want[k]);
		if (k == 0) {
			CHECK_EQ_U(MC(&r, pick_buddy), 1);
			CHECK(r.cfs_rq->next == cse);
			CHECK_EQ_U(a->vprot - a->vruntime, 1400000);
		}
		if (k == 1)
			CHECK_EQ_U(MC(&r, pick_next_entity), 0);   /* 6.12: pick_eevdf() only */
		model_free(r.m);
	}
}

/*
 * The replay's imposed hand-off (model_preempt_for(): the trace shows curr
 * preempted for C, so C is made the next buddy) is not a kernel buddy: in
 * the kernel that hand-off was a wakeup preemption, which leaves no
 * cfs_rq->next.  So 6.18's wakeup check passes over it (handoff_buddy): with
 * the state of test_buddy_wins_pick(), B preempts where a kernel buddy C
 * kept it out.  The pick that follows still takes C (the hand-off itself).
 */
static void test_handoff_buddy_ignored(void)
{
	const int nices[3] = { 0, 0, 0 };
	struct sched_entity *a, *cse;
	struct rig r;

	if (!rig_new(&r, "6.18", 3, nices)) {
		CHECK(0);
		model_free(r.m);
		return;
	}
	a = &r.t[0]->se;
	cse = &r.t[2]->se;
	CHECK_EQ_S(model_preempt_for(r.m, 0, r.t[2], r.now), 1);
	CHECK(r.cfs_rq->next == cse && cse->handoff_buddy);
	rig_set(&r, r.t[0], 600000, 2000000, BASE_SLICE);
	rig_set(&r, r.t[1], 0, 1400000, BASE_SLICE);
	rig_set(&r, r.t[2], 100000, 1500000, BASE_SLICE);
	a->vprot = a->vruntime + 5000000;
	CHECK(entity_eligible(r.cfs_rq, cse));
	rig_check(&r, r.t[1], MODEL_WF_TTWU);
	CHECK(r.rq->need_resched);
	CHECK_EQ_U(MC(&r, wakeup_preempt), 1);
	CHECK_EQ_U(MC(&r, pick_buddy), 0);
	CHECK(r.cfs_rq->next == cse);
	CHECK(model_schedule(r.m, 0, MODEL_PREV_RUNNABLE, r.now) == r.t[2]);
	model_free(r.m);
}

/*
 * Rule (b), a delayed winner: "if (!nse && cfs_rq->nr_queued) goto pick;"
 * after pick_next_entity() dequeued it (dequeue_entities(DEQUEUE_SLEEP |
 * DEQUEUE_DELAYED)).  D runs 2 ms past the others and blocks: DELAY_DEQUEUE
 * keeps it queued (negative lag).  Then, nice 0: curr A (v +0.6 ms, d +2
 * ms), D (v 0, d +1 ms), wakee W (v +0.1 ms, d +1.5 ms).  V = +0.233 ms: D
 * and W eligible, A not, D has the earliest deadline.  6.18: the pick takes
 * D, dequeues it (on_rq 0, no longer delayed, the queue 3 -> 2, the task
 * asleep), picks again among A and W (V = +0.35 ms, W wins): preemption,
 * two pick_next_entity() calls.  6.12: pick_eevdf() returns D, not W: no
 * preemption, D stays queued and delayed.
 * The same state with D itself as the wakee (rule a, "pse->sched_delayed"):
 * 6.18 returns before any pick, D stays queued.  (try_to_wake_up() requeues
 * a delayed task before the check, so only a check reached otherwise - a
 * migration's or a renice's wakeup_preempt() - meets a delayed wakee; the
 * test calls the check directly.)
 */
static void test_delayed_winner(void)
{
	const char *names[3] = { "6.18", "6.12", "6.18" };
	const int nices[3] = { 0, 0, 0 };

	for (int k = 0; k < 3; k++) {
		struct rig r;
		struct model_task *d, *a, *w;
		struct model_task_info info;
		bool dequeued = k == 0;

		if (!rig_new(&r, names[k], 3, nices)) {
			CHECK(0);
			model_free(r.m);
			continue;
		}
		d = r.t[0];
		r.now += 2000000;
		a = model_schedule(r.m, 0, MODEL_PREV_SLEEP, r.now);
		CHECK(a == r.t[1] || a == r.t[2]);
		if (a != r.t[1] && a != r.t[2]) {
			model_free(r.m);
			continue;
		}
		w = a == r.t[1] ? r.t[2] : r.t[1];
		CHECK(d->se.on_rq && d->se.sched_delayed);
		model_task_info(d, &info);
		CHECK_EQ_U(info.state, MODEL_TASK_DELAYED);
		CHECK_EQ_U(r.cfs_rq->nr_running, 3);

		rig_set(&r, a, 600000, 2000000, BASE_SLICE);
		rig_set(&r, d, 0, 1000000, BASE_SLICE);
		rig_set(&r, w, 100000, 1500000, BASE_SLICE);
		a->se.vprot = a->se.vruntime;
		CHECK(!entity_eligible(r.cfs_rq, &a->se));
		CHECK(__pick_eevdf(r.m, r.cfs_rq, true) == &d->se);
		rig_check(&r, k == 2 ? d : w, MODEL_WF_TTWU);
		CHECK_MSG(r.rq->need_resched == (k == 0), "%s wakee %s: resched %d",
			  names[k], k == 2 ? "D" : "W", r.rq->need_resched);
		CHECK_EQ_U(MC(&r, wakeup_preempt), k == 0);
		CHECK_EQ_U(d->se.on_rq, !dequeued);
		CHECK_EQ_U(d->se.sched_delayed, !dequeued);
		CHECK_EQ_U(r.cfs_rq->nr_running, dequeued ? 2 : 3);
		CHECK_EQ_U(model_nr_queued(r.m, 0), dequeued ? 2 : 3);
		model_task_info(d, &info);
		CHECK_EQ_U(info.state, dequeued ? MODEL_TASK_SLEEPING : MODEL_TASK_DELAYED);
		if (k == 0)
			CHECK_EQ_U(MC(&r, pick_next_entity), 2);
		if (k == 2)
			CHECK_EQ_U(MC(&r, pick_next_entity), 0);
		model_free(r.m);
	}
}

/*
 * Rule (c): "if (sched_feat(RUN_TO_PARITY)) update_protect_slice(cfs_rq, se);"
 * after a pick that curr won - for any wakee, not only a shorter-slice one
 * (6.18.26 shrank it only then).  curr A is nice 5 (weight 335, inv_weight
 * sched_prio_to_wmult[25] = 12820798), v 0, d +4 ms, protected to its
 * deadline; queued C asks for 0.3 ms (v 0, d +0.3 ms); the wakee B (nice 0,
 * v 0, d +1.4 ms) has the base slice, as A: no PREEMPT_SHORT, the protected
 * pick keeps A.  6.18: vprot' = v + calc_delta_fair(0.3 ms, A), and
 * __calc_delta(300000, NICE_0_LOAD, A's load) is
 *   fact = 1024 * 12820798 = 13128497152 = 0x3_0E3A_DC00, fact_hi = 3,
 *   fls(3) = 2: shift = 32 - 2 = 30, fact = 13128497152 >> 2 = 3282124288;
 *   300000 * 3282124288 >> 30 = 984637286400000 / 1073741824 = 917014 ns
 * (virtual; 300000 * 1024 / 335 = 917014.9 exactly).  6.12: no vprot;
 * curr's protection (vlag == deadline) holds and nothing changes.
 */
static void test_protect_shrinks_on_wakeup(void)
{
	const char *names[2] = { "6.18", "6.12" };
	const int nices[3] = { 5, 0, 0 };

	for (int k = 0; k < 2; k++) {
		struct rig r;
		struct sched_entity *a;
		u64 b;

		if (!rig_new(&r, names[k], 3, nices)) {
			CHECK(0);
			model_free(r.m);
			continue;
		}
		a = &r.t[0]->se;
		CHECK_EQ_U(a->load.weight, 335UL << 10);
		rig_set(&r, r.t[0], 0, 4000000, BASE_SLICE);
		rig_set(&r, r.t[1], 0, 1400000, BASE_SLICE);
		rig_set(&r, r.t[2], 0, 300000, 300000);
		a->vprot = a->deadline;
		a->vlag = (s64)a->deadline;      /* 6.12's protection mark */
		CHECK(protect_slice(r.m, a));
		rig_check(&r, r.t[1], MODEL_WF_TTWU);
		b = cfs_rq_origin(r.m, r.cfs_rq);
		CHECK(!r.rq->need_resched);
		CHECK_EQ_U(MC(&r, wakeup_preempt), 0);
		CHECK_EQ_S((s64)(a->vruntime - b), 0);
		if (k == 0) {
			CHECK_EQ_U(calc_delta_fair(300000, a), 917014);
			CHECK_EQ_S((s64)(a->vprot - b), 917014);
		} else {
			CHECK_EQ_S(a->vlag, (s64)a->deadline);
			CHECK_EQ_S((s64)(a->vprot - b), 4000000);
		}
		model_free(r.m);
	}
}

/*
 * REWEIGHT_PLACE: reweight_entity() of the running entity.  Plain entities
 * on CPU 0's root queue (units: ns of virtual time relative to the origin
 * v0; weights scaled down, nice 0 = 1024; full resolution = << 10):
 *   curr: w 2048 -> 1536, v = -300004, d = +1100002, slice 1.4 ms, unprotected
 *   Q:    w 1024,          v = +600000, d = +2000000, slice 1.4 ms
 *
 * 6.18 (reweight_entity() + place_entity() of 6.18.26 = 6.18.35):
 *   update_curr(): no time has passed.
 *   update_entity_lag(): avg_vruntime(): sum_w_vruntime = 600000 * 1024 =
 *     614400000, + curr -300004 * 2048 = -614408192 -> -8192 < 0, biased
 *     to -8192 - (3072 - 1) = -11263; div_s64(-11263, 3072) = -3 (floor;
 *     unbiased truncation would give -2): V = v0 - 3 (the origin moves
 *     there).  vlag = V - v = 300001; the clamp calc_delta_fair(max_slice
 *     1.4 ms + TICK_NSEC 4 ms, w 2048) = 2.7 ms does not bite.  Relative
 *     deadline d - v = 1100002 + 300004 = 1400006.
 *   vlag = div_s64(300001 * 2097152, 1572864) = 400001 (400001.33)
 *   rel d = div_s64(1400006 * 2097152, 1572864) = 1866674 (1866674.67)
 *   place_entity(): avg_vruntime() with curr at its old v but its new
 *     weight: origin v0 - 3, Q key 600003 * 1024 = 614403072, curr key
 *     -300001 * 1536 = -460801536; 153601536 / 2560 = 60000 (60000.6):
 *     V = v0 + 59997.  load = sum_weight 1024 + curr 1536 (curr->on_rq) =
 *     2560, times (load + the entity's own 1536 again):
 *     lag = div_s64(400001 * (2560 + 1536), 2560) = 640001 (640001.6).
 *     v' = V - lag = v0 - 580004;  d' = v' + 1866674 = v0 + 1286670.
 * 6.12 (reweight_eevdf() at V = avg_vruntime() = v0 - 3 as above):
 *   vlag = 300001 (clamp max(2 slices, tick) = 4 ms -> 2 ms virtual: none);
 *   div_s64(300001 * 2097152, 1572864) = 400001: v' = V - 400001 = v0 - 400004;
 *   vslice = d - V = 1100005, div_s64(1100005 * 2097152, 1572864) = 1466673
 *   (1466673.33): d' = V + 1466673 = v0 + 1466670.
 */
static void test_reweight_curr(void)
{
	const char *names[2] = { "6.18", "6.12" };
	const s64 want_v[2] = { -580004, -400004 };
	const s64 want_d[2] = { 1286670, 1466670 };

	for (int k = 0; k < 2; k++) {
		struct model *m = mk(names[k]);
		struct cfs_rq *cfs_rq = &m->rqs[0].cfs;
		struct sched_entity curr, q;
		u64 v0 = cfs_rq_origin(m, cfs_rq);

		mkse(&curr, cfs_rq, v0, -300004, 1100002, 1400000);
		curr.load.weight = 2048UL << 10;
		curr.vprot = curr.vruntime;
		mkse(&q, cfs_rq, v0, 600000, 2000000, 1400000);
		__enqueue_entity(m, cfs_rq, &q);
		cfs_rq->curr = &curr;
		cfs_rq->nr_running = 2;
		update_load_set(&cfs_rq->load, curr.load.weight + q.load.weight);
		CHECK_EQ_U(m->sysctl_sched_base_slice, 1400000);
		CHECK_EQ_U(m->tick_nsec, 4000000);

		reweight_entity(m, cfs_rq, &curr, 1536UL << 10);
		CHECK_EQ_U(curr.load.weight, 1536UL << 10);
		CHECK_EQ_U(cfs_rq->nr_running, 2);
		CHECK_EQ_U(cfs_rq->load.weight, (1536UL + 1024) << 10);
		CHECK_MSG((s64)(curr.vruntime - v0) == want_v[k], "%s: v' - v0 = %lld, want %lld",
			  names[k], (long long)(s64)(curr.vruntime - v0), (long long)want_v[k]);
		CHECK_MSG((s64)(curr.deadline - v0) == want_d[k], "%s: d' - v0 = %lld, want %lld",
			  names[k], (long long)(s64)(curr.deadline - v0), (long long)want_d[k]);
		CHECK_EQ_U(curr.rel_deadline, 0);
		__dequeue_entity(m, cfs_rq, &q);
		cfs_rq->curr = NULL;
		cfs_rq->nr_running = 0;
		model_free(m);
	}
}

/*
 * The reweight ratchet (REWEIGHT_PLACE repeated): a running group entity
 * that update_cfs_group() reweights again and again, with no run in
 * between, while one sibling Q waits on its queue.  hackbench-shares'
 * seed-2 stall of the pipe group on CPU 0 (6.5-108 ms after the start; the
 * stall26 analysis, 2 Dec 2026: the socket group's entity, curr, reweighted
 * 231 times while the pipe group's waited) is this.  Both weights 512 (full resolution << 10; curr
 * alternates 512 / 513 as a changing group weight does); units ns of virtual
 * time.  curr starts at x = V - v = 1 ms, Q at v - V = +1 ms.
 *
 * 6.18: each reweight takes curr's lag x (clamped to L = calc_delta_fair(
 *   max slice 1.4 ms + tick 4 ms) = 5.4 ms x 1024 / 512 = 10.8 ms) and
 *   re-places it with place_entity(), whose inflation counts curr's weight
 *   twice: lag' = x (q + 2w) / (q + w) = 1.5 x, placed at V (curr still
 *   counted in V).  With D = v_Q - v and x = q D / (q + w): D' = w D /
 *   (q + w) + 1.5 x = 1.25 D, so x grows 1.25x per reweight until the
 *   clamp, then settles where D = L (q + 2w) / q: x = 1.5 L = 16.2 ms and
 *   Q at v - V = +16.2 ms: Q is not eligible until curr has run ~16 ms
 *   without another reweight.
 * 6.12 (reweight_eevdf()): x' = x w / w' (lag kept): x stays ~1 ms.
 * The pipe group's figures on CPU 0 (q 486, w 512) are x = 16.37 ms and
 * Q at +17.1-17.3 ms, the same fixed point: L (q + 2w) / (q + w) and
 * L w (q + 2w) / (q (q + w)).
 */
static void test_reweight_ratchet(void)
{
	const char *names[2] = { "6.18", "6.12" };

	for (int k = 0; k < 2; k++) {
		struct model *m = mk(names[k]);
		struct cfs_rq *cfs_rq = &m->rqs[0].cfs;
		struct sched_entity curr, q;
		u64 v0 = cfs_rq_origin(m, cfs_rq);
		s64 x[41], qd;

		mkse(&curr, cfs_rq, v0, -1000000, 400000, 1400000);
		curr.load.weight = 512UL << 10;
		curr.vprot = curr.vruntime;
		mkse(&q, cfs_rq, v0, 1000000, 3800000, 1400000);
		q.load.weight = 512UL << 10;
		__enqueue_entity(m, cfs_rq, &q);
		cfs_rq->curr = &curr;
		cfs_rq->nr_running = 2;
		update_load_set(&cfs_rq->load, curr.load.weight + q.load.weight);
		x[0] = (s64)(avg_vruntime(m, cfs_rq) - curr.vruntime);
		CHECK_EQ_S(x[0], 1000000);
		for (int i = 1; i <= 40; i++) {
			reweight_entity(m, cfs_rq, &curr, (i & 1 ? 513UL : 512UL) << 10);
			x[i] = (s64)(avg_vruntime(m, cfs_rq) - curr.vruntime);
		}
		qd = (s64)(q.vruntime - avg_vruntime(m, cfs_rq));
		CHECK_EQ_U(cfs_rq->nr_running, 2);
		if (k == 0) {
			/* 1.25x per reweight below the clamp */
			for (int i = 1; i <= 4; i++)
				CHECK_MSG(x[i] * 1000 >= x[i - 1] * 1240 && x[i] * 1000 <= x[i - 1] * 1260,
					  "6.18: reweight %d: x %lld -> %lld, want x1.25", i,
					  (long long)x[i - 1], (long long)x[i]);
			/* the fixed point 1.5 L = 16.2 ms (L 10.78-10.8 ms) */
			CHECK_MSG(x[40] >= 16100000 && x[40] <= 16250000,
				  "6.18: x after 40 reweights %lld, want ~16.2 ms", (long long)x[40]);
			CHECK_MSG(qd >= 16100000 && qd <= 16300000,
				  "6.18: Q's v - V %lld, want ~16.2 ms", (long long)qd);
			CHECK(!entity_eligible(cfs_rq, &q));
		} else {
			CHECK_MSG(x[40] >= 995000 && x[40] <= 1005000,
				  "6.12: x after 40 reweights %lld, want ~1 ms", (long long)x[40]);
			CHECK_MSG(qd >= 995000 && qd <= 1005000,
				  "6.12: Q's v - V %lld, want ~1 ms", (long long)qd);
		}
		__dequeue_entity(m, cfs_rq, &q);
		cfs_rq->curr = NULL;
		cfs_rq->nr_running = 0;
		model_free(m);
	}
}

/*
 * Rule (d), a what-if (NEXT_BUDDY is off in every profile: the capture
 * kernel's sched_features bit 5 is 0), switched on in a 6.18 model.  Nice
 * 0: curr A (v +0.6 ms, d +2 ms, protected to v + 5 ms, not eligible), the
 * wakee B (v 0, d +1.4 ms), C (v +0.1 ms) the buddy already set.
 *  - C's deadline +1.3 ms is before B's: set_preempt_buddy() keeps it
 *    ("if (cfs_rq->next && entity_before(cfs_rq->next, pse)) return
 *    false"), the pick takes C: no preemption, vprot -> v + 1.4 ms.
 *  - C's deadline +1.5 ms: B becomes the buddy and wins the pick: preemption.
 *  - as the second, with WF_SYNC and A charged 1 ms by this check's
 *    update_curr(): preempt_sync() measures rq_clock_task - se->exec_start
 *    after update_curr() (update_se()) set exec_start to that clock, so
 *    delta is 0 < migration_cost / 4 = 125 us and it returns
 *    PREEMPT_WAKEUP_NONE whatever curr ran: no preemption, no pick, vprot
 *    untouched, B stays the buddy.  (The kernel's arithmetic, 6.18.35 and
 *    mainline alike; NEXT_BUDDY off makes it moot on the capture kernel.)
 */
static void test_next_buddy_whatif(void)
{
	const s64 cdl[3] = { 1300000, 1500000, 1500000 };
	const int flags[3] = { MODEL_WF_TTWU, MODEL_WF_TTWU, MODEL_WF_TTWU | MODEL_WF_SYNC };
	const bool want[3] = { false, true, false };
	const int nices[3] = { 0, 0, 0 };

	for (int k = 0; k < 3; k++) {
		struct rig r;
		struct sched_entity *a, *bse, *cse;
		u64 vprot;

		if (!rig_new(&r, "6.18", 3, nices)) {
			CHECK(0);
			model_free(r.m);
			continue;
		}
		r.m->prof.feat[FEAT_NEXT_BUDDY] = 1;
		a = &r.t[0]->se;
		bse = &r.t[1]->se;
		cse = &r.t[2]->se;
		rig_set(&r, r.t[0], 600000, 2000000, BASE_SLICE);
		rig_set(&r, r.t[1], 0, 1400000, BASE_SLICE);
		rig_set(&r, r.t[2], 100000, cdl[k], BASE_SLICE);
		a->vprot = a->vruntime + 5000000;
		r.cfs_rq->next = cse;
		if (k == 2)
			a->exec_start = r.rq->clock_task - 1000000;
		CHECK(!entity_eligible(r.cfs_rq, a));
		rig_check(&r, r.t[1], flags[k]);
		CHECK_MSG(r.rq->need_resched == want[k], "case %d: resched %d", k, r.rq->need_resched);
		CHECK_EQ_U(MC(&r, wakeup_preempt), want[k]);
		CHECK(r.cfs_rq->next == (k == 0 ? cse : bse));
		CHECK_EQ_U(MC(&r, pick_next_entity), k == 2 ? 0 : 1);
		vprot = a->vprot - a->vruntime;
		if (k == 0)
			CHECK_EQ_U(vprot, 1400000);
		if (k == 2) {
			CHECK_EQ_U(a->exec_start, r.rq->clock_task);
			CHECK_EQ_U(vprot, 4000000);   /* 5 ms less the 1 ms A was charged */
		}
		model_free(r.m);
	}
}

/* ---- debugfs sched_features toggles (model_config.sched_features) ------- */

/*
 * `echo NO_RUN_TO_PARITY > /sys/kernel/debug/sched/features` through the
 * model's plumbing (model_sched_feature_parse() -> model_config ->
 * model_new()), not by poking m->prof.  curr A (nice 0, base slice 1.4 ms)
 * is picked at v 0 with deadline +1.4 ms: set_protect_slice() with
 * RUN_TO_PARITY protects it to min(deadline, v + the shortest queued slice
 * 1.4 ms) = +1.4 ms, without it for one normalized base slice (0.70 ms,
 * vprot = +0.7 ms; 6.12: no protection at all, pick_eevdf() ignores it).
 * A then ran to v +1.0 ms; the wakee B has v +1.0 ms and deadline +1.2 ms:
 * V = +1.0 ms, both eligible, B has the earlier deadline.  RUN_TO_PARITY:
 * the protected pick keeps A, no preemption (6.18: update_protect_slice()
 * leaves vprot at min(+1.4, v + 1.4 ms) = +1.4 ms).  NO_RUN_TO_PARITY: A's
 * protection ended at +0.7 ms, the pick is B: wakeup preemption.
 */
static struct model *mk_feats(const char *profile, const char *const *toggles, int n,
			      struct sr_error *err)
{
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 3 };
	char msg[700];

	cfg.profile = model_profile_find(profile);
	for (int i = 0; i < n; i++)
		CHECK_EQ_S(model_sched_feature_parse(&cfg.sched_features, toggles[i], msg,
						     sizeof(msg)), 0);
	return model_new(&cfg, err);
}

static void test_no_run_to_parity(void)
{
	const char *names[2] = { "6.18", "6.12" };
	const char *const no_rtp[1] = { "NO_RUN_TO_PARITY" };
	const int nices[2] = { 0, 0 };

	for (int k = 0; k < 2; k++) {
		for (int off = 0; off < 2; off++) {
			struct rig r;
			struct sched_entity *a;
			u64 b;

			memset(&r, 0, sizeof(r));
			r.m = mk_feats(names[k], no_rtp, off, NULL);
			if (!r.m) {
				CHECK(0);
				continue;
			}
			CHECK_EQ_U(sched_feat(r.m, RUN_TO_PARITY), !off);
			r.rq = &r.m->rqs[0];
			r.cfs_rq = &r.rq->cfs;
			r.now = 1000000;
			for (int i = 0; i < 2; i++) {
				r.t[i] = model_task_new(r.m, model_root_group(r.m), nices[i],
							MODEL_POLICY_NORMAL, 10 + (uint32_t)i, NULL);
				CHECK(r.t[i] != NULL);
			}
			CHECK_EQ_S(model_task_start_runnable(r.m, r.t[0], 0, r.now), 0);
			CHECK(model_schedule(r.m, 0, MODEL_PREV_RUNNABLE, r.now) == r.t[0]);
			CHECK_EQ_S(model_task_start_runnable(r.m, r.t[1], 0, r.now), 0);
			a = &r.t[0]->se;
			rig_set(&r, r.t[0], 0, 1400000, BASE_SLICE);
			rig_set(&r, r.t[1], 1000000, 1200000, BASE_SLICE);
			set_protect_slice(r.m, r.cfs_rq, a);    /* as set_next_entity() at v 0 */
			b = cfs_rq_origin(r.m, r.cfs_rq);
			if (k == 0)
				CHECK_EQ_S((s64)(a->vprot - b), off ? 700000 : 1400000);
			a->vruntime = b + 1000000;
			rig_check(&r, r.t[1], MODEL_WF_TTWU);
			CHECK_EQ_U(r.rq->need_resched, off);
			CHECK_EQ_U(MC(&r, wakeup_preempt), off);
			if (k == 0)
				CHECK_EQ_S((s64)(a->vprot - b), off ? 700000 : 1400000);
			model_free(r.m);
		}
	}
}

/* A toggle the profile's kernel lacks: model_new() refuses, naming it. */
static void test_feature_not_in_profile(void)
{
	const char *const rtp[1] = { "NO_RUN_TO_PARITY" };
	const char *const debit[1] = { "NO_START_DEBIT" };
	struct sr_error err = { 0 };
	struct model_sched_features f = { 0 };
	char msg[700];
	struct model *m;

	CHECK(mk_feats("6.1", rtp, 1, &err) == NULL);
	CHECK(strstr(err.msg, "'RUN_TO_PARITY' does not exist in profile 6.1") != NULL);
	memset(&err, 0, sizeof(err));
	CHECK(mk_feats("6.18", debit, 1, &err) == NULL);
	CHECK(strstr(err.msg, "'START_DEBIT' does not exist in profile 6.18") != NULL);
	m = mk_feats("6.1", debit, 1, NULL);
	CHECK(m && !sched_feat(m, START_DEBIT) && sched_feat(m, GENTLE_FAIR_SLEEPERS));
	model_free(m);
	/* parse: later toggles win; model switches and unknown names refused */
	CHECK_EQ_S(model_sched_feature_parse(&f, "NEXT_BUDDY", msg, sizeof(msg)), 0);
	CHECK_EQ_S(model_sched_feature_parse(&f, "NO_NEXT_BUDDY", msg, sizeof(msg)), 0);
	CHECK_EQ_U(f.set, 0);
	CHECK_EQ_U(f.clear, 1ull << FEAT_NEXT_BUDDY);
	CHECK_EQ_S(model_sched_feature_parse(&f, "EEVDF", msg, sizeof(msg)), -1);
	CHECK(strstr(msg, "model switch") != NULL);
	CHECK_EQ_S(model_sched_feature_parse(&f, "NO_PROTECT_VPROT", msg, sizeof(msg)), -1);
	CHECK_EQ_S(model_sched_feature_parse(&f, "RUN_TO_PARTY", msg, sizeof(msg)), -1);
	CHECK(strstr(msg, "unknown sched feature 'RUN_TO_PARTY'") != NULL);
}

/*
 * The vlag/vprot union of 6.18 up to 6.18.44 (variant vlag-vprot-union):
 * curr, just picked (protected to its deadline, 1.4 ms ahead), is a group
 * entity that update_cfs_group() reweights 1024 -> 1536 while it runs, one
 * sibling queued.  reweight_entity() writes curr's lag (update_entity_lag())
 * before the 6.18.y backport of "Update se->vprot in reweight_entity()"
 * tests protect_slice(): with one field, that test reads the lag against a
 * root vruntime far above it, finds no protection, and the field ends as
 * the rescaled lag.  The next update_curr() (nr_queued 2) reschedules.
 * Separate fields (6.18.45 on; the model's default): the protected rest is
 * rescaled and kept, no reschedule.  This is how chan-run2's socket leader
 * lost the CPU 757 us into its slice at 49673.352521 (docs/validation-log.md,
 * "chan-run2's first divergence: the root-level state at .3517").
 */
static void test_vlag_vprot_union(void)
{
	for (int k = 0; k < 2; k++) {
		static struct model_variant_set vs;
		struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 3 };
		struct sr_error err = { 0 };
		struct model *m;
		struct rq *rq;
		struct cfs_rq *cfs_rq;
		struct sched_entity curr, other;
		u64 v0;

		CHECK_EQ_S(model_variant_set_parse(&vs, k ? "vlag-vprot-union" : "base", &err), 0);
		cfg.profile = model_profile_find("6.18");
		cfg.variants = &vs;
		m = model_new(&cfg, &err);
		CHECK(m != NULL);
		if (!m)
			return;
		rq = &m->rqs[0];
		cfs_rq = &rq->cfs;
		v0 = cfs_rq->zero_vruntime;
		/* the root's virtual clock: far above any lag with the union */
		if (k)
			CHECK_EQ_U(v0, (u64)(-(1LL << 20)) + ((u64)1 << 42));
		else
			CHECK_EQ_U(v0, (u64)(-(1LL << 20)));

		mkse(&curr, cfs_rq, v0, 0, 1400000, 1400000);
		mkse(&other, cfs_rq, v0, 0, 1400000, 1400000);
		__enqueue_entity(m, cfs_rq, &other);
		cfs_rq->curr = &curr;
		cfs_rq->nr_running = 2;
		update_load_set(&cfs_rq->load, curr.load.weight + other.load.weight);
		rq->clock_task = 1000000;
		curr.exec_start = rq->clock_task;
		set_protect_slice(m, cfs_rq, &curr);
		CHECK_EQ_U(curr.vprot - v0, 1400000);
		/* curr runs 10 us, then its group's shares change */
		rq->clock_task += 10000;
		reweight_entity(m, cfs_rq, &curr, 1536UL << 10);
		CHECK_EQ_U(curr.load.weight, 1536UL << 10);
		if (k) {
			CHECK_MSG(!protect_slice(m, &curr), "union: curr still protected, vprot - v %lld",
				  (long long)(s64)(curr.vprot - curr.vruntime));
			CHECK_EQ_S((s64)curr.vprot, curr.vlag);
		} else {
			/* 1.39 ms of protection left at weight 1024: 0.927 ms at 1536 */
			CHECK(protect_slice(m, &curr));
			CHECK_MSG((s64)(curr.vprot - curr.vruntime) > 900000 &&
				  (s64)(curr.vprot - curr.vruntime) < 940000,
				  "separate: vprot - v %lld, want ~926667",
				  (long long)(s64)(curr.vprot - curr.vruntime));
		}
		rq->clock_task += 1000;
		rq->need_resched = false;
		update_curr(m, cfs_rq);
		CHECK_MSG(rq->need_resched == (k == 1), "%s: resched %d",
			  k ? "union" : "separate", rq->need_resched);
		__dequeue_entity(m, cfs_rq, &other);
		cfs_rq->curr = NULL;
		cfs_rq->nr_running = 0;
		model_free(m);
	}
}

/*
 * The lag from before the trace (model_expect_wakeup(), replay --initial-lag
 * infer).  k = 0: no expectation, every entity without history placed at
 * lag 0; k = 1: the trace's outcome given.
 *
 * Preempt (chan-run2's .3517): A (root) is woken onto an empty queue, placed
 * at lag 0 and protected; 15 us later it wakes B, whose group's entity has no
 * history.  At lag 0 A is eligible and protected: no preemption.  Any
 * positive lag of B's entity makes A ineligible: the smallest is chosen, and
 * B preempts.  Woken again (its entity has history now) nothing is inferred.
 *
 * No preemption: A (root) has run alone past its first request (its
 * protection over, a fresh request); C (nice -5, no history) woken at lag 0
 * has the earlier deadline and preempts; told that the trace did not, C gets
 * the largest negative lag under which A keeps the CPU.
 */
/*
 * test_initial_lag()'s wakeup of @t onto @cpu by the task running there,
 * told the trace's outcome @e when @tell: the CPU reschedules iff @resched,
 * the inference says SET when told (NONE otherwise); *@vlag its lag.
 */
static void wake_told(struct model *m, struct model_task *t, int cpu, enum model_wakeup_expect e,
		      bool tell, bool resched, u64 now, int64_t *vlag)
{
	unsigned long w = 0;

	if (tell)
		model_expect_wakeup(m, e);
	CHECK_EQ_S(model_try_to_wake_up(m, t, cpu, cpu, MODEL_WF_TTWU, now), 1);
	CHECK_MSG(model_need_resched(m, cpu) == resched, "expect %d told %d: resched %d", (int)e,
		  tell, model_need_resched(m, cpu));
	CHECK_EQ_S(model_initial_lag_last(m, vlag, &w),
		   tell ? MODEL_INITIAL_LAG_SET : MODEL_INITIAL_LAG_NONE);
	CHECK(!tell || w > 0);
	CHECK(model_check_invariants(m, NULL) == 0);
}

static void test_initial_lag(void)
{
	for (int k = 0; k < 2; k++) {
		struct model *m = mk("6.18");
		struct sr_error err = { 0 };
		struct model_group *g = model_group_new(m, model_root_group(m), 1024, "/g", &err);
		struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, &err);
		struct model_task *b = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 2, &err);
		struct model_task *a2 = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, &err);
		struct model_task *c = model_task_new(m, NULL, -5, MODEL_POLICY_NORMAL, 4, &err);
		u64 now = 1000000;
		int64_t vlag = -1;
		struct model_task_info bi;

		CHECK(g && a && b && a2 && c);
		if (!g || !a || !b || !a2 || !c)
			return;
		CHECK_EQ_S(model_task_start_sleeping(m, a, 0), 0);
		CHECK_EQ_S(model_task_start_sleeping(m, b, 0), 0);
		CHECK_EQ_S(model_task_start_sleeping(m, a2, 1), 0);
		CHECK_EQ_S(model_task_start_sleeping(m, c, 1), 0);

		/* CPU 0: A woken onto the idle CPU and picked */
		CHECK_EQ_S(model_try_to_wake_up(m, a, 0, 0, MODEL_WF_TTWU, now), 1);
		CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now + 5000) == a);
		now += 20000;
		wake_told(m, b, 0, MODEL_EXPECT_PREEMPT, k, k == 1, now, &vlag);
		/* the smallest positive lag: A is ineligible by one virtual ns */
		if (k)
			CHECK_MSG(vlag > 0 && vlag < 1000, "preempt: vlag %lld", (long long)vlag);
		if (model_need_resched(m, 0))
			CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now + 3000) == b);
		model_task_info(b, &bi);
		CHECK(bi.state == MODEL_TASK_QUEUED);

		/* CPU 1: A2 runs alone for 1.5 ms (past its 1.4 ms request) */
		now = 1000000;
		CHECK_EQ_S(model_try_to_wake_up(m, a2, 1, 1, MODEL_WF_TTWU, now), 1);
		CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, now) == a2);
		now += 1500000;
		wake_told(m, c, 1, MODEL_EXPECT_NO_PREEMPT, k, k == 0, now, &vlag);
		if (k)
			CHECK_MSG(vlag < 0, "no preempt: vlag %lld", (long long)vlag);

		/* an entity with history: nothing inferred (CPU 0: B blocks, wakes again) */
		if (model_curr(m, 0) == b) {
			CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now + 10000) != b);
			model_expect_wakeup(m, MODEL_EXPECT_PREEMPT);
			model_try_to_wake_up(m, b, 0, 0, MODEL_WF_TTWU, now + 20000);
			CHECK_EQ_S(model_initial_lag_last(m, NULL, NULL), MODEL_INITIAL_LAG_NONE);
		}
		model_free(m);
	}
}

/*
 * The one formatting of the toggles every output prints (replay/whatif/
 * validate text and JSON, variants, model_print_settings()): NULL when
 * nothing is toggled, and room for every toggle's word.
 */
static void test_sched_features_text(void)
{
	struct model_sched_features f = { 0, 0 };
	char buf[MODEL_SCHED_FEATURES_TEXT], msg[700];
	const char *all[] = { "PLACE_LAG", "PLACE_DEADLINE_INITIAL", "PLACE_REL_DEADLINE",
			      "RUN_TO_PARITY", "PREEMPT_SHORT", "PICK_BUDDY", "DELAY_DEQUEUE",
			      "DELAY_ZERO", "START_DEBIT", "GENTLE_FAIR_SLEEPERS", "LAST_BUDDY",
			      "NEXT_BUDDY", "WAKEUP_PREEMPTION", "CACHE_HOT_BUDDY",
			      "ATTACH_AGE_LOAD", "SIS_UTIL", "NI_RANDOM" };
	char no[40];

	CHECK(model_sched_features_text(NULL, buf, sizeof(buf)) == NULL);
	CHECK(model_sched_features_text(&f, buf, sizeof(buf)) == NULL);
	CHECK_EQ_S(model_sched_feature_parse(&f, "NEXT_BUDDY", msg, sizeof(msg)), 0);
	CHECK_EQ_S(model_sched_feature_parse(&f, "NO_RUN_TO_PARITY", msg, sizeof(msg)), 0);
	CHECK(model_sched_features_text(&f, buf, sizeof(buf)) == buf);
	CHECK_STR(buf, "NO_RUN_TO_PARITY NEXT_BUDDY");          /* table order */
	/* every toggleable feature cleared: whole, not cut */
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		snprintf(no, sizeof(no), "NO_%s", all[i]);
		CHECK_EQ_S(model_sched_feature_parse(&f, no, msg, sizeof(msg)), 0);
	}
	CHECK(model_sched_features_text(&f, buf, sizeof(buf)) != NULL);
	CHECK(strlen(buf) > 250 && !strcmp(buf + strlen(buf) - 13, " NO_NI_RANDOM"));
	CHECK_STR(model_sched_features_missing(model_profile_find("6.18"), &f), "START_DEBIT");
}

/*
 * model_config.idle_clock_skip (replay --idle-clock): the kernel's
 * wakeup_preempt() requests rq_clock_skip_update() when the donor is
 * on_rq, which the idle task is (init_idle()).  X, alone on CPU 1, wakes
 * onto the idle CPU at t, is switched in 20 us later (the idle exit) and
 * sleeps 10 us after that: charged 30 us from the wakeup's clock with the
 * skip, 10 us from its switch without (the model before).  A second wakeup
 * onto a busy CPU is unaffected (no preemption: no skip either way), and
 * the pending request is the one the kernel's RQCF_REQ_SKIP would be.
 */
static void test_idle_clock_skip(void)
{
	for (int skip = 0; skip < 2; skip++) {
		struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 3 };
		struct model *m;
		struct model_task *x;
		uint64_t now = 1000000000ULL, sum0;

		cfg.profile = model_profile_find("6.18");
		cfg.idle_clock_skip = skip;
		m = model_new(&cfg, NULL);
		CHECK(m != NULL);
		if (!m)
			return;
		x = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
		CHECK_EQ_S(model_task_start_sleeping(m, x, 1), 0);
		CHECK_EQ_S(model_try_to_wake_up(m, x, 1, 1, MODEL_WF_TTWU, now), 1);
		CHECK(model_need_resched(m, 1));
		CHECK(model_clock_skip_pending(m, 1) == (bool)skip);
		sum0 = x->se.sum_exec_runtime;
		CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, now + 20000) == x);
		CHECK(!model_clock_skip_pending(m, 1));
		CHECK(model_schedule(m, 1, MODEL_PREV_SLEEP, now + 30000) == NULL);
		CHECK_EQ_U(x->se.sum_exec_runtime - sum0, skip ? 30000 : 10000);
		CHECK(model_check_invariants(m, NULL) == 0);
		model_free(m);
	}
}

/*
 * model_config.block_clock_after (replay --block-clock after): X runs on CPU
 * 0, wakes Y there 10 us after its switch-in (the enqueue's update_curr()
 * charges X: one sched_stat_runtime; X keeps the CPU, slice-protected) and
 * blocks with a clock read 500 ns before that wakeup's (the caller's median
 * lead).  Kept clock: the dequeue sees no delta, no emission, X's runtime
 * stays.  After: the read is 1 ns past the rq's clock, as the kernel's
 * update_rq_clock() under the rq lock the enqueue held first: X charged 1 ns,
 * one more emission, Y charged from there.  A block whose read is past the
 * clock is the same either way.
 */
static void test_block_clock_after(void)
{
	for (int after = 0; after < 2; after++) {
		struct model_config cfg = { .nr_cpus = 1, .hz = 250, .seed = 3 };
		struct model *m;
		struct model_task *x, *y;
		uint64_t t0 = 1000000000ULL, sum0, n0 = 0, n1 = 0;

		cfg.profile = model_profile_find("6.18");
		cfg.block_clock_after = after;
		m = model_new(&cfg, NULL);
		CHECK(m != NULL);
		if (!m)
			return;
		x = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 0, NULL);
		y = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 0, NULL);
		CHECK_EQ_S(model_task_start_runnable(m, x, 0, t0), 0);
		CHECK_EQ_S(model_task_start_sleeping(m, y, 0), 0);
		CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, t0) == x);
		CHECK_EQ_S(model_try_to_wake_up(m, y, 0, 0, MODEL_WF_TTWU, t0 + 10000), 1);
		CHECK(!model_clock_skip_pending(m, 0));
		CHECK(model_curr(m, 0) == x);
		sum0 = x->se.sum_exec_runtime;
		CHECK(model_counter_get(m, "sched_stat_runtime", &n0));
		CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, t0 + 9500) == y);
		CHECK(model_counter_get(m, "sched_stat_runtime", &n1));
		CHECK_EQ_U(n1 - n0, after ? 1 : 0);
		CHECK_EQ_U(x->se.sum_exec_runtime - sum0, after ? 1 : 0);
		/* Y blocks 20 us on: charged from the read either way */
		sum0 = y->se.sum_exec_runtime;
		CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, t0 + 30000) == NULL);
		CHECK_EQ_U(y->se.sum_exec_runtime - sum0, after ? 19999 : 20000);
		CHECK(model_check_invariants(m, NULL) == 0);
		model_free(m);
	}
}

int main(void)
{
	test_protect_min_slice();
	test_lag_clamp();
	test_pipe_pingpong();
	test_resched_unprotected();
	test_fork_no_preempt();
	test_fork_short_slice();
	test_buddy_wins_pick();
	test_handoff_buddy_ignored();
	test_delayed_winner();
	test_protect_shrinks_on_wakeup();
	test_reweight_curr();
	test_reweight_ratchet();
	test_next_buddy_whatif();
	test_no_run_to_parity();
	test_feature_not_in_profile();
	test_vlag_vprot_union();
	test_initial_lag();
	test_sched_features_text();
	test_idle_clock_skip();
	test_block_clock_after();
	return check_done("wakeup618");
}
