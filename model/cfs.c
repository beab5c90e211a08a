// SPDX-License-Identifier: GPL-2.0
/*
 * CFS as in the <= 6.5 kernels the seed patches were written against (exact
 * for 6.1.192; kernel/sched/fair.c update_min_vruntime(), sched_slice(),
 * place_entity(), check_preempt_tick(), pick_next_entity(),
 * wakeup_preempt_entity(), check_preempt_wakeup()).
 *
 * Every entity's vruntime advances by delta * NICE_0 / w while it runs; the
 * queue runs the entity with the smallest vruntime.  min_vruntime, a
 * monotonic floor of the queue's vruntimes, anchors placement: a waking
 * sleeper gets at most half a latency period of credit below it, a new task
 * starts one virtual slice after it (START_DEBIT), and entities leaving a
 * queue other than by sleeping carry their vruntime relative to it.
 */
#include "sched.h"

/*
 * update_min_vruntime() of vanilla EEVDF (6.6 - 6.18 without zero_vruntime):
 * min_vruntime is the origin of avg_vruntime, so moving it forward by delta
 * shifts every key: avg_vruntime -= avg_load * delta.  The tree's minimum
 * vruntime is the root's augmentation.
 */
static void update_min_vruntime_eevdf(struct cfs_rq *cfs_rq)
{
	struct sched_entity *se = __pick_root_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	u64 vruntime = cfs_rq->min_vruntime;
	s64 delta;

	if (curr) {
		if (curr->on_rq)
			vruntime = curr->vruntime;
		else
			curr = NULL;
	}
	if (se) {
		if (!curr || (s64)(se->min_vruntime - vruntime) < 0)
			vruntime = se->min_vruntime;
	}
	delta = (s64)(vruntime - cfs_rq->min_vruntime);
	if (delta > 0) {
		cfs_rq->avg_vruntime -= cfs_rq->avg_load * delta;
		cfs_rq->min_vruntime = vruntime;
	}
}

/* update_min_vruntime(): min of curr and the leftmost, never decreasing. */
void update_min_vruntime(struct model *m, struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_entity *leftmost;
	u64 vruntime = cfs_rq->min_vruntime;

	if (sched_feat(m, EEVDF)) {
		update_min_vruntime_eevdf(cfs_rq);
		return;
	}
	leftmost = __pick_first_entity(cfs_rq);
	if (curr) {
		if (curr->on_rq)
			vruntime = curr->vruntime;
		else
			curr = NULL;
	}
	if (leftmost) {
		if (!curr)
			vruntime = leftmost->vruntime;
		else if ((s64)(leftmost->vruntime - vruntime) < 0)
			vruntime = leftmost->vruntime;
	}
	if ((s64)(vruntime - cfs_rq->min_vruntime) > 0)
		cfs_rq->min_vruntime = vruntime;
}

/* __sched_period(): latency, stretched beyond sched_nr_latency tasks. */
static u64 __sched_period(struct model *m, unsigned long nr_running)
{
	if (nr_running > m->sched_nr_latency)
		return nr_running * m->sysctl_sched_min_granularity;
	return m->sysctl_sched_latency;
}

/*
 * sched_slice(): the wall-time share of the period for @se, p * w / W at
 * every level of the hierarchy (ALT_PERIOD: the period is sized by the CPU's
 * total runnable count), at least min_granularity (BASE_SLICE).
 */
u64 sched_slice(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	unsigned int nr_running = rq_of(cfs_rq)->cfs.h_nr_queued;   /* ALT_PERIOD */
	struct sched_entity *init_se = se;
	u64 slice, min_gran;

	slice = __sched_period(m, nr_running + !se->on_rq);

	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);
		struct load_weight lw = qcfs_rq->load;

		if (!se->on_rq)
			update_load_add(&lw, se->load.weight);
		slice = __calc_delta(slice, se->load.weight, se->on_rq ? &qcfs_rq->load : &lw);
	}

	/* BASE_SLICE: an idle entity gets the short minimum, unless everything
	 * queued here is idle (sched_idle_cfs_rq()) */
	if (init_se->task && init_se->task->policy == MODEL_POLICY_IDLE &&
	    !(cfs_rq->nr_running && cfs_rq->nr_running == cfs_rq->idle_nr_running))
		min_gran = m->sysctl_sched_idle_min_granularity;
	else
		min_gran = m->sysctl_sched_min_granularity;
	return max_u64(slice, min_gran);
}

static u64 sched_vslice(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return calc_delta_fair(sched_slice(m, cfs_rq, se), se);
}

/* entity_is_long_sleeper(): asleep for more than 2^63 / 1024 ns (~104 days). */
static bool entity_is_long_sleeper(struct sched_entity *se)
{
	u64 sleep_time;

	if (se->exec_start == 0)
		return false;
	sleep_time = rq_of(cfs_rq_of(se))->clock_task;
	if (sleep_time <= se->exec_start)
		return false;
	sleep_time -= se->exec_start;
	return sleep_time > ((1ULL << 63) / scale_load_down(NICE_0_LOAD));
}

/* place_entity()'s sleeper credit (CFS): half a latency period (GENTLE_FAIR_SLEEPERS) */
static u64 sleeper_thresh(const struct model *m, const struct sched_entity *se)
{
	u64 thresh;

	if (se->task && se->task->policy == MODEL_POLICY_IDLE)
		thresh = m->sysctl_sched_min_granularity;
	else
		thresh = m->sysctl_sched_latency;
	if (sched_feat(m, GENTLE_FAIR_SLEEPERS))
		thresh >>= 1;
	return thresh;
}

uint64_t model_sleeper_credit_ns(const struct model *m, const struct model_task *t)
{
	return sched_feat(m, EEVDF) ? 0 : sleeper_thresh(m, &t->se);
}

/*
 * place_entity() (CFS): a new entity (initial) starts a virtual slice after
 * min_vruntime with START_DEBIT, so forking cannot gain time; a waking one is
 * credited at most half a latency period (GENTLE_FAIR_SLEEPERS) below
 * min_vruntime, and never moved backwards from its own vruntime.
 */
void place_entity_cfs(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se, int initial)
{
	u64 vruntime = cfs_rq->min_vruntime;

	COUNT(m, place_entity);
	if (initial && sched_feat(m, START_DEBIT))
		vruntime += sched_vslice(m, cfs_rq, se);

	if (!initial)
		vruntime -= sleeper_thresh(m, se);

	/*
	 * model_config.cfs_initial_credit: a task asleep since before the
	 * model began, at its first wakeup, as a long sleeper (its sleep is
	 * not in the model; the kernel's gave it the credit unless it slept
	 * less than the floor's advance by the credit); cfs_initial_credit_tasks:
	 * only a task the caller took to be one (model_task_set_initial_credit())
	 */
	if (!initial && se->no_history && se->task &&
	    (m->cfs_initial_credit || (m->cfs_initial_credit_tasks && se->task->initial_credit)))
		se->vruntime = vruntime;
	else if (entity_is_long_sleeper(se))
		se->vruntime = vruntime;
	else if ((s64)(vruntime - se->vruntime) > 0)
		se->vruntime = vruntime;
}

/*
 * --initial-lag infer under a CFS profile (model_expect_wakeup()): @pse,
 * asleep since before the model began, was just placed by the local wakeup
 * whose check the trace shows (m->expect, for m->expect_task).  Where it is
 * the entity that meets curr's at that check (find_matching_se()) and the
 * check's other conditions hold (check_preempt_wakeup(): no resched pending,
 * both tasks SCHED_NORMAL, WAKEUP_PREEMPTION, no NEXT_BUDDY), its vruntime
 * becomes the one closest to its placement that gives the traced outcome of
 * wakeup_preempt_entity(): for a preemption, wakeup_gran() + 1 ns before
 * curr's, no lower than place_entity()'s sleeper credit allows (a long
 * sleeper's min_vruntime - thresh: else infeasible, left as placed); for no
 * preemption, exactly wakeup_gran() before curr's.  The shift (placed -
 * chosen, positive for a preemption) is the model's lag_vlag.
 */
static u64 wakeup_gran(struct model *m, struct sched_entity *se);

void place_initial_cfs(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *pse)
{
	struct rq *rq = cfs_rq->rq;
	struct model_task *p = m->expect_task;
	struct sched_entity *se, *wse;
	bool want = m->expect == MODEL_EXPECT_PREEMPT;
	u64 floor, v, was = pse->vruntime;
	s64 gran;

	if (sched_feat(m, EEVDF) || !sched_feat(m, WAKEUP_PREEMPTION) ||
	    sched_feat(m, NEXT_BUDDY) || m->expect == MODEL_EXPECT_NONE || !p)
		return;
	if (!rq->curr || rq->curr == p || rq->other_class || rq->need_resched ||
	    p->policy != MODEL_POLICY_NORMAL || rq->curr->policy != MODEL_POLICY_NORMAL)
		return;
	se = &rq->curr->se;
	wse = &p->se;
	find_matching_se(&se, &wse);
	if (wse != pse || cfs_rq->curr != se)
		return;
	floor = cfs_rq->min_vruntime - sleeper_thresh(m, pse);
	gran = (s64)wakeup_gran(m, pse);
	m->lag_result = MODEL_INITIAL_LAG_ZERO;
	if ((wakeup_preempt_entity(m, se, pse) == 1) == want)
		goto out;
	v = want ? se->vruntime - (u64)gran - 1 : se->vruntime - (u64)gran;
	if (want && (s64)(v - floor) < 0) {
		m->lag_result = MODEL_INITIAL_LAG_INFEASIBLE;
		goto out;
	}
	pse->vruntime = v;
	m->lag_result = MODEL_INITIAL_LAG_SET;
out:
	m->lag_vlag = (s64)(was - pse->vruntime);
	m->lag_weight = pse->load.weight;
}

/*
 * check_preempt_tick(): curr has run longer than its slice, or at least
 * min_granularity while more than a slice (in virtual time) ahead of the
 * leftmost: reschedule.
 */
void check_preempt_tick(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *curr)
{
	u64 ideal_runtime, delta_exec;
	struct sched_entity *se;
	s64 delta;

	ideal_runtime = sched_slice(m, cfs_rq, curr);
	delta_exec = curr->sum_exec_runtime - curr->prev_sum_exec_runtime;
	if (delta_exec > ideal_runtime) {
		resched_curr(m, rq_of(cfs_rq));
		COUNT(m, tick_resched);
		clear_buddies(cfs_rq, curr);
		return;
	}
	if (delta_exec < m->sysctl_sched_min_granularity)
		return;

	se = __pick_first_entity(cfs_rq);
	if (!se)
		return;
	delta = (s64)(curr->vruntime - se->vruntime);
	if (delta < 0)
		return;
	if ((u64)delta > ideal_runtime) {
		resched_curr(m, rq_of(cfs_rq));
		COUNT(m, tick_resched);
	}
}

static u64 wakeup_gran(struct model *m, struct sched_entity *se)
{
	return calc_delta_fair(m->sysctl_sched_wakeup_granularity, se);
}

/*
 * wakeup_preempt_entity(): -1 if @se is not before @curr, 1 if it is more
 * than the wakeup granularity (in @se's virtual time) before it, else 0.
 */
int wakeup_preempt_entity(struct model *m, struct sched_entity *curr, struct sched_entity *se)
{
	s64 gran, vdiff = (s64)(curr->vruntime - se->vruntime);

	if (vdiff <= 0)
		return -1;
	gran = (s64)wakeup_gran(m, se);
	if (vdiff > gran)
		return 1;
	return 0;
}

/*
 * pick_next_entity() (CFS): the leftmost (or curr if it is before it),
 * unless the next buddy, then the last buddy, is within the wakeup
 * granularity of it.  (The skip buddy is only set by sched_yield(), which the
 * model does not replay.)
 */
struct sched_entity *pick_next_entity_cfs(struct model *m, struct cfs_rq *cfs_rq,
					  struct sched_entity *curr)
{
	struct sched_entity *left = __pick_first_entity(cfs_rq);
	struct sched_entity *se;

	if (!left || (curr && entity_before(m, curr, left)))
		left = curr;
	se = left;

	if (cfs_rq->next && wakeup_preempt_entity(m, cfs_rq->next, left) < 1) {
		se = cfs_rq->next;
		COUNT(m, pick_buddy);
	} else if (cfs_rq->last && wakeup_preempt_entity(m, cfs_rq->last, left) < 1) {
		se = cfs_rq->last;
		COUNT(m, pick_buddy);
	}
	return se;
}

void set_last_buddy(struct sched_entity *se)
{
	for_each_sched_entity(se) {
		if (!se->on_rq)
			return;
		if (se->task && se->task->policy == MODEL_POLICY_IDLE)
			return;
		cfs_rq_of(se)->last = se;
	}
}

/*
 * check_preempt_wakeup() (CFS): preempt when the woken entity is more than
 * the wakeup granularity behind curr, at the level where their hierarchies
 * meet; buddies steer the next pick (NEXT_BUDDY off by default, LAST_BUDDY
 * on with >= sched_nr_latency entities).
 */
void check_preempt_wakeup_cfs(struct model *m, struct rq *rq, struct model_task *p, int wake_flags)
{
	struct model_task *curr = rq->curr;
	struct sched_entity *se = &curr->se, *pse = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	bool scale = cfs_rq->nr_running >= m->sched_nr_latency;
	bool next_buddy_marked = false;

	if (se == pse)
		return;
	if (entity_throttled_pre618(m, pse))
		return;
	if (sched_feat(m, NEXT_BUDDY) && scale && !(wake_flags & MODEL_WF_FORK)) {
		set_next_buddy(pse);
		next_buddy_marked = true;
	}
	if (rq->need_resched)
		return;
	if (curr->policy == MODEL_POLICY_IDLE && p->policy != MODEL_POLICY_IDLE)
		goto preempt;
	if (p->policy != MODEL_POLICY_NORMAL || !sched_feat(m, WAKEUP_PREEMPTION))
		return;

	COUNT(m, wakeup_preempt_check);
	find_matching_se(&se, &pse);
	update_curr(m, cfs_rq_of(se));
	if (wakeup_preempt_entity(m, se, pse) == 1) {
		if (!next_buddy_marked)
			set_next_buddy(pse);
		goto preempt;
	}
	return;

preempt:
	resched_curr(m, rq);
	COUNT(m, wakeup_preempt);
	if (!se->on_rq)
		return;
	if (sched_feat(m, LAST_BUDDY) && scale && entity_is_task(se))
		set_last_buddy(se);
}

/*
 * The buddies check_preempt_wakeup() leaves when @p's wakeup preempts curr
 * by the wakeup granularity (its 'wakeup_preempt_entity() == 1' branch; the
 * NEXT_BUDDY feature is off): @p the next buddy, and curr's entity where
 * their hierarchies meet the last buddy (LAST_BUDDY, with at least
 * sched_nr_latency entities on curr's queue).  For a preemption the trace
 * shows and the model's own check did not decide (model_preempt_for()).
 */
void set_preempt_buddies_cfs(struct model *m, struct rq *rq, struct model_task *p)
{
	struct sched_entity *se = &rq->curr->se, *pse = &p->se;
	bool scale = cfs_rq_of(se)->nr_running >= m->sched_nr_latency;

	find_matching_se(&se, &pse);
	set_next_buddy(pse);
	if (se->on_rq && sched_feat(m, LAST_BUDDY) && scale && entity_is_task(se))
		set_last_buddy(se);
}
