// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeup preemption and slice protection of the capture kernel (profile
 * 6.18: PROTECT_VPROT, RESCHED_UNPROTECTED, LAG_CLAMP_MAX_SLICE) against
 * 6.12, and rq_clock_skip_update() after a preempting wakeup
 * (CLOCK_SKIP_UPDATE, every profile).  Expected values follow from the
 * 6.18 fair.c rules written out in docs/model.md.
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

int main(void)
{
	test_protect_min_slice();
	test_lag_clamp();
	test_pipe_pingpong();
	test_resched_unprotected();
	return check_done("wakeup618");
}
