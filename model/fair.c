// SPDX-License-Identifier: GPL-2.0
/*
 * The fair class's entry points and the entity operations beneath them
 * (kernel/sched/fair.c: update_curr(), enqueue_entity(), dequeue_entity(),
 * enqueue_task_fair(), dequeue_entities(), set_next_entity(),
 * put_prev_entity(), pick_task_fair(), pick_next_task_fair(), entity_tick(),
 * task_tick_fair(), check_preempt_wakeup_fair(), migrate_task_rq_fair(),
 * task_dead_fair(), task_fork_fair(), task_change_group_fair(),
 * reweight_task_fair()).
 *
 * The call order is the kernel's, call for call, because the counts of
 * update_curr(), update_load_avg() and update_cfs_group() - and the moments
 * tg->load_avg is read and written - are what the model predicts.  Where
 * 6.12 (EEVDF) and <= 6.5 (CFS) differ, both are here, selected by the
 * profile (sched_feat(m, EEVDF)); cfs.c and eevdf.c hold the policy parts.
 */
#include <string.h>

#include "sched.h"

void resched_curr(struct model *m, struct rq *rq)
{
	(void)m;
	rq->need_resched = true;
}

/* ---- update_curr ----------------------------------------------------- */

/*
 * did_preempt_short() (6.12): PREEMPT_SHORT - an unprotected curr that is no
 * longer eligible yields at the next update_curr().
 */
static bool did_preempt_short(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *curr)
{
	if (!sched_feat(m, PREEMPT_SHORT))
		return false;
	if (protect_slice(m, curr))
		return false;
	return !entity_eligible(cfs_rq, curr);
}

/*
 * Whether update_curr() reschedules besides an expired request: 6.17+
 * (RESCHED_UNPROTECTED) as soon as curr's protected period is over, so the
 * next pick decides; 6.12 only for did_preempt_short().
 */
static bool curr_protection_over(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *curr)
{
	if (sched_feat(m, RESCHED_UNPROTECTED))
		return !protect_slice(m, curr);
	return did_preempt_short(m, cfs_rq, curr);
}

/*
 * update_curr(): charge the time curr ran since exec_start: wall time to
 * sum_exec_runtime, virtual time (delta * NICE_0 / w) to vruntime.  At the
 * task level this is what emits sched_stat_runtime.  EEVDF: a request that
 * ran out starts a new one and reschedules; CFS: min_vruntime follows.
 */
void update_curr(struct model *m, struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	struct rq *rq = rq_of(cfs_rq);
	s64 delta_exec;
	bool resched = false;

	COUNT(m, update_curr);
	if (!curr)
		return;

	delta_exec = (s64)(rq->clock_task - curr->exec_start);
	if (delta_exec <= 0)
		return;
	curr->exec_start = rq->clock_task;
	curr->sum_exec_runtime += (u64)delta_exec;

	curr->vruntime += calc_delta_fair((u64)delta_exec, curr);
	if (sched_feat(m, EEVDF)) {
		resched = update_deadline(m, cfs_rq, curr);
		if (!sched_feat(m, ZERO_VRUNTIME))
			update_min_vruntime(m, cfs_rq);
	} else {
		update_min_vruntime(m, cfs_rq);
	}

	if (entity_is_task(curr)) {
		COUNT(m, sched_stat_runtime);
		if (m->stat_runtime_hook)
			m->stat_runtime_hook(m->hook_ctx, rq->cpu, task_of(curr)->id,
					     (u64)delta_exec, rq->clock);
	}
	account_cfs_rq_runtime(m, cfs_rq, (u64)delta_exec);

	if (!sched_feat(m, EEVDF))
		return;
	if (cfs_rq->nr_running == 1)
		return;
	if (resched || curr_protection_over(m, cfs_rq, curr)) {
		resched_curr(m, rq);
		COUNT(m, update_curr_resched);
		clear_buddies(cfs_rq, curr);
	}
}

/* ---- buddies --------------------------------------------------------- */

void set_next_buddy(struct sched_entity *se)
{
	for_each_sched_entity(se) {
		if (!se->on_rq)
			return;
		if (se->task && se->task->policy == MODEL_POLICY_IDLE)
			return;
		cfs_rq_of(se)->next = se;
		se->handoff_buddy = 0;
	}
}

void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_entity *s;

	if (cfs_rq->last == se) {
		for (s = se; s; s = s->parent) {
			if (cfs_rq_of(s)->last != s)
				break;
			cfs_rq_of(s)->last = NULL;
		}
	}
	if (cfs_rq->next == se) {
		for (s = se; s; s = s->parent) {
			if (cfs_rq_of(s)->next != s)
				break;
			cfs_rq_of(s)->next = NULL;
		}
	}
}

/* ---- yield ----------------------------------------------------------- */

/*
 * yield_task_fair() (6.12, EEVDF): curr gives up the rest of its request.
 * Only while eligible (v <= V): its vruntime jumps to its deadline and
 * update_deadline() starts a new request, vd' = vd + r / w (r = base slice,
 * w = its weight), so it stays queued with its lag lowered by vd - v and an
 * earlier-deadline entity picked before it.  An ineligible curr keeps
 * everything (the kernel's guard against a vruntime running away when it is
 * picked anyway).  The task's own entity only: its groups keep theirs.  The
 * clock update __schedule() would make is skipped (rq_clock_skip_update()).
 */
void yield_task_fair(struct model *m, struct rq *rq)
{
	struct model_task *curr = rq->curr;
	struct sched_entity *se = &curr->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	if (rq->nr_running == 1)
		return;
	clear_buddies(cfs_rq, se);
	update_curr(m, cfs_rq);
	if (sched_feat(m, CLOCK_SKIP_UPDATE))
		rq->clock_skip_req = true;
	if (entity_eligible(cfs_rq, se)) {
		se->vruntime = se->deadline;
		update_deadline(m, cfs_rq, se);
	}
}

/*
 * yield_to_task_fair() (6.12): @p becomes the next buddy at every level
 * (pick_next_entity() takes it where it is eligible), then curr yields.
 * False if @p is not queued, or (before 6.18) queued below a throttled
 * queue: its entity is queued there but the hierarchy is not runnable, so
 * no buddy is set and curr keeps its deadline.
 */
bool yield_to_task_fair(struct model *m, struct rq *rq, struct model_task *p)
{
	if (!p->se.on_rq || entity_throttled_pre618(m, &p->se))
		return false;
	set_next_buddy(&p->se);
	yield_task_fair(m, rq);
	return true;
}

/* ---- new tasks ------------------------------------------------------- */

/*
 * init_entity_runnable_average(): a task starts as if it had always been
 * runnable (load_avg = its weight) until it has history; a group entity
 * starts empty.  v4.8 also set period_contrib = 1023 and a full load_sum.
 */
void init_entity_runnable_average(struct model *m, struct sched_entity *se)
{
	struct sched_avg *sa = &se->avg;

	memset(sa, 0, sizeof(*sa));
	if (entity_is_task(se)) {
		sa->load_avg = scale_load_down(se->load.weight);
		if (vflag(m, V48_ATTACH)) {
			sa->period_contrib = 1023;
			sa->load_sum = LOAD_AVG_MAX;
		}
	}
}

/*
 * post_init_entity_util_avg(): a new task's utilisation is extrapolated
 * from its queue's, capped at half the CPU capacity the queue leaves free,
 * so a burst of forks cannot claim more than the CPU has.
 */
void post_init_entity_util_avg(struct model *m, struct model_task *p)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	struct sched_avg *sa = &se->avg;
	long cap = (long)(SCHED_CAPACITY_SCALE - (long)cfs_rq->avg.util_avg) / 2;

	if (cap > 0) {
		if (cfs_rq->avg.util_avg != 0) {
			unsigned long w = sched_feat(m, POST_INIT_UTIL_FULL_WEIGHT) ?
					  se->load.weight : se_weight(se);

			sa->util_avg = cfs_rq->avg.util_avg * w;
			sa->util_avg /= (cfs_rq->avg.load_avg + 1);
			if (sa->util_avg > (unsigned long)cap)
				sa->util_avg = (unsigned long)cap;
		} else {
			sa->util_avg = (unsigned long)cap;
		}
	}
	sa->runnable_avg = sa->util_avg;

	if (vflag(m, V48_ATTACH)) {
		/* 7dc603c9028e: attach here, at the rq clock as it stands (it is
		 * updated only by the enqueue that follows), so the first enqueue
		 * ages the entity over the gap. */
		update_cfs_rq_load_avg(m, cfs_rq_clock_pelt(cfs_rq), cfs_rq);
		attach_entity_load_avg(m, cfs_rq, se);
		update_tg_load_avg(m, cfs_rq);
		se->avg.util_sum = (u32)(se->avg.util_avg * LOAD_AVG_MAX);
	}
}

/*
 * task_fork_fair(): CFS places the child on the parent's queue at fork,
 * one virtual slice after min_vruntime (START_DEBIT) or after the parent,
 * and stores its vruntime relative to that queue; EEVDF places at enqueue.
 */
void task_fork_fair(struct model *m, struct model_task *p, int parent_cpu)
{
	struct sched_entity *se = &p->se, *curr;
	struct cfs_rq *cfs_rq;
	struct rq *rq;

	if (sched_feat(m, EEVDF))
		return;
	rq = &m->rqs[parent_cpu];
	cfs_rq = p->tg->cfs_rq[parent_cpu];
	curr = cfs_rq->curr;
	/* place on the parent's queue: the child's se points there for now */
	se->cfs_rq = cfs_rq;
	se->parent = p->tg->se[parent_cpu];
	if (curr) {
		update_curr(m, cfs_rq);
		se->vruntime = curr->vruntime;
	}
	place_entity_cfs(m, cfs_rq, se, 1);
	se->vruntime -= cfs_rq->min_vruntime;
	(void)rq;
}

/* ---- enqueue --------------------------------------------------------- */

static void account_entity_enqueue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_add(&cfs_rq->load, se->load.weight);
	if (entity_is_task(se))
		cfs_tasks_add(rq_of(cfs_rq), task_of(se));
	cfs_rq->nr_running++;
	if (se->task && se->task->policy == MODEL_POLICY_IDLE)
		cfs_rq->idle_nr_running++;
}

static void account_entity_dequeue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_sub(&cfs_rq->load, se->load.weight);
	if (entity_is_task(se))
		cfs_tasks_del(rq_of(cfs_rq), task_of(se));
	cfs_rq->nr_running--;
	if (se->task && se->task->policy == MODEL_POLICY_IDLE)
		cfs_rq->idle_nr_running--;
}

static void place_initial_lag(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *pse);

/*
 * An entity placed for the first time since the model began may take its
 * stored lag from the trace's outcome of the wakeup that places it
 * (model_expect_wakeup(): place_initial_lag()).
 */
static void place_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
			 int flags)
{
	if (se->no_history) {
		se->no_history = 0;
		/* not under --initial-lag credit(-long), whose EEVDF lags stay 0 */
		if (m->expect_task && (flags & ENQUEUE_WAKEUP) && !m->cfs_initial_credit &&
		    !m->cfs_initial_credit_tasks)
			place_initial_lag(m, cfs_rq, se);
	}
	place_entity_eevdf(m, cfs_rq, se, flags);
}

/*
 * enqueue_entity()'s "nr_queued == 1" block, shared by both policies: a
 * queue's first entity checks its bandwidth (check_enqueue_throttle()), puts
 * the queue on the leaf list, and (6.18) restarts a PELT clock a throttle
 * stopped.
 */
static void enqueue_first_entity(struct model *m, struct cfs_rq *cfs_rq)
{
	if (cfs_bandwidth_used(m))
		check_enqueue_throttle(m, cfs_rq);
	if (!sched_feat(m, TASK_BASED_THROTTLE)) {
		/*
		 * Before 6.18 a throttled hierarchy stays off the leaf list
		 * (its PELT clock is stopped); 6.5+ starts the throttled-time
		 * clocks of a queue that was throttled empty.
		 */
		if (!throttled_hierarchy(m, cfs_rq))
			list_add_leaf_cfs_rq(cfs_rq);
		else if (sched_feat(m, THROTTLED_TIME_NONEMPTY))
			record_throttle_clock(cfs_rq);
		return;
	}
	list_add_leaf_cfs_rq(cfs_rq);
	if (cfs_rq->pelt_clock_throttled)
		throttled_cfs_rq_filled(cfs_rq);
}

/*
 * enqueue_entity() (6.12): curr is placed before update_curr() (so the
 * time it ran is not charged against its new position), everyone else after
 * the load and weight updates, because the weight sets the virtual slice.
 * The update-curr-before-place variant always updates first.
 */
static void enqueue_entity_eevdf(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
				 int flags)
{
	bool curr = cfs_rq->curr == se;
	bool late_place = !curr || vflag(m, UPDATE_CURR_BEFORE_PLACE);
	unsigned int nr_before = cfs_rq->nr_running;

	if (!late_place)
		place_entity(m, cfs_rq, se, flags);

	update_curr(m, cfs_rq);
	update_load_avg(m, cfs_rq, se, UPDATE_TG | DO_ATTACH);
	se_update_runnable(se);
	update_cfs_group(m, se, MODEL_SITE_ENQUEUE_ENTITY, nr_before);

	if (late_place)
		place_entity(m, cfs_rq, se, flags);

	account_entity_enqueue(cfs_rq, se);
	if (flags & ENQUEUE_MIGRATED)
		se->exec_start = 0;
	if (!curr)
		__enqueue_entity(m, cfs_rq, se);
	se->on_rq = 1;

	if (cfs_rq->nr_running == 1)
		enqueue_first_entity(m, cfs_rq);
}

/*
 * enqueue_entity() (<= 6.5): an entity that did not sleep (new, migrated,
 * moved) carries a vruntime relative to its old queue; make it absolute
 * (curr before update_curr(), others after).  Sleepers are placed with the
 * sleeper credit after accounting.
 */
static void enqueue_entity_cfs(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
			       int flags)
{
	bool renorm = !(flags & ENQUEUE_WAKEUP) || (flags & ENQUEUE_MIGRATED);
	bool curr = cfs_rq->curr == se;
	bool late = !curr || vflag(m, UPDATE_CURR_BEFORE_PLACE);
	unsigned int nr_before = cfs_rq->nr_running;

	if (renorm && !late)
		se->vruntime += cfs_rq->min_vruntime;
	update_curr(m, cfs_rq);
	if (renorm && late)
		se->vruntime += cfs_rq->min_vruntime;

	update_load_avg(m, cfs_rq, se, UPDATE_TG | DO_ATTACH);
	se_update_runnable(se);
	update_cfs_group(m, se, MODEL_SITE_ENQUEUE_ENTITY, nr_before);
	account_entity_enqueue(cfs_rq, se);

	if (flags & ENQUEUE_WAKEUP) {
		bool first = se->no_history && se->task;

		place_entity_cfs(m, cfs_rq, se, 0);
		/*
		 * the first placement of a sleeper from before the model: under
		 * --initial-lag infer or credit, the vruntime nearest it that
		 * gives the traced outcome where the trace shows one
		 */
		if (first) {
			se->no_history = 0;
			if (m->expect_task)
				place_initial_cfs(m, cfs_rq, se);
		}
	}
	if (flags & ENQUEUE_MIGRATED)
		se->exec_start = 0;
	if (!curr)
		__enqueue_entity(m, cfs_rq, se);
	se->on_rq = 1;

	if (cfs_rq->nr_running == 1)
		enqueue_first_entity(m, cfs_rq);
}

void enqueue_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	COUNT(m, enqueue_entity);
	if (sched_feat(m, EEVDF))
		enqueue_entity_eevdf(m, cfs_rq, se, flags);
	else
		enqueue_entity_cfs(m, cfs_rq, se, flags);
}

/* set_delayed() / clear_delayed(): a delayed task is queued but not runnable
 * at every level above it - up to a throttled queue before 6.18 (6.12.117:
 * the levels above it do not count the throttled queue's tasks). */
static bool stops_at_throttled(struct model *m, struct cfs_rq *cfs_rq)
{
	return !sched_feat(m, TASK_BASED_THROTTLE) && cfs_rq_throttled(m, cfs_rq);
}

static void set_delayed(struct model *m, struct sched_entity *se)
{
	se->sched_delayed = 1;
	if (!entity_is_task(se))
		return;
	for_each_sched_entity(se) {
		struct cfs_rq *cfs_rq = cfs_rq_of(se);

		cfs_rq->h_nr_runnable--;
		cfs_rq->h_nr_delayed++;
		if (stops_at_throttled(m, cfs_rq))
			break;
	}
}

static void clear_delayed(struct model *m, struct sched_entity *se)
{
	se->sched_delayed = 0;
	if (!entity_is_task(se))
		return;
	for_each_sched_entity(se) {
		struct cfs_rq *cfs_rq = cfs_rq_of(se);

		cfs_rq->h_nr_runnable++;
		cfs_rq->h_nr_delayed--;
		if (stops_at_throttled(m, cfs_rq))
			break;
	}
}

/*
 * requeue_delayed_entity(): a delayed entity is woken (or a task is enqueued
 * below a delayed group entity).  With DELAY_ZERO a positive lag it earned
 * while delayed is dropped: it is re-placed at zero lag.
 */
static void requeue_delayed_entity(struct model *m, struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	COUNT(m, requeue_delayed_entity);
	if (sched_feat(m, DELAY_ZERO)) {
		update_entity_lag(m, cfs_rq, se);
		if (se->vlag > 0) {
			cfs_rq->nr_running--;
			if (se != cfs_rq->curr)
				__dequeue_entity(m, cfs_rq, se);
			se->vlag = 0;
			vlag_written(m, se);
			place_entity(m, cfs_rq, se, 0);
			if (se != cfs_rq->curr)
				__enqueue_entity(m, cfs_rq, se);
			cfs_rq->nr_running++;
		}
	}
	update_load_avg(m, cfs_rq, se, 0);
	clear_delayed(m, se);
}

/*
 * enqueue_task_fair(): enqueue the entities that are not queued yet, bottom
 * up (loop 1); the ancestors that already were get their load, runnable
 * count and weight refreshed (loop 2, no update_curr()).  Before 6.18 both
 * loops end at a throttled queue (enqueue_throttle: the rq's nr_running
 * does not count the task until unthrottle_cfs_rq()).
 */
void enqueue_task_fair(struct model *m, struct rq *rq, struct model_task *p, int flags)
{
	struct cfs_rq *cfs_rq;
	struct sched_entity *se = &p->se;
	unsigned int idle_h_nr_running = p->policy == MODEL_POLICY_IDLE;
	unsigned int h_nr_delayed = 0;
	bool task_new = !(flags & ENQUEUE_WAKEUP);
	u64 slice = 0;
	bool eevdf = sched_feat(m, EEVDF);

	/*
	 * p->throttled, not task_is_throttled(): 6.18 tests the flag behind
	 * cfs_bandwidth_used(), but a task that left the fair class from a
	 * limbo list keeps it (dequeue_throttled_task() without DEQUEUE_SLEEP)
	 * and may come back after the last quota was removed; the kernel would
	 * then enqueue it for real with the flag still set, and its next
	 * dequeue with a quota set again would take dequeue_throttled_task()
	 * for a queued entity.  With no quota nothing is throttled, so
	 * enqueue_throttled_task() clears the flag and the task is enqueued
	 * for real - the kernel's own rule for a throttled task enqueued into
	 * a hierarchy that is not throttled.  With a quota, as 6.18.
	 */
	if (p->throttled && enqueue_throttled_task(m, p))
		return;
	COUNT(m, enqueue_task_fair);
	if (flags & ENQUEUE_DELAYED) {
		requeue_delayed_entity(m, se);
		return;
	}
	if (task_new)
		h_nr_delayed = !!se->sched_delayed;

	for_each_sched_entity(se) {
		if (se->on_rq) {
			if (se->sched_delayed)
				requeue_delayed_entity(m, se);
			break;
		}
		cfs_rq = cfs_rq_of(se);
		if (eevdf && slice) {
			se->slice = slice;
			se->custom_slice = 1;
		}
		enqueue_entity(m, cfs_rq, se, flags);
		if (eevdf)
			slice = cfs_rq_min_slice(cfs_rq);

		if (!h_nr_delayed)
			cfs_rq->h_nr_runnable++;
		cfs_rq->h_nr_queued++;
		cfs_rq->idle_h_nr_running += idle_h_nr_running;
		cfs_rq->h_nr_delayed += h_nr_delayed;
		/* before 6.18: end at a throttled queue, its entity is off */
		if (stops_at_throttled(m, cfs_rq))
			return;
		flags = ENQUEUE_WAKEUP;
	}

	for_each_sched_entity(se) {
		unsigned int nr_before;

		cfs_rq = cfs_rq_of(se);
		nr_before = cfs_rq->nr_running;
		update_load_avg(m, cfs_rq, se, UPDATE_TG);
		se_update_runnable(se);
		update_cfs_group(m, se, MODEL_SITE_ENQUEUE_TASK, nr_before);

		if (eevdf) {
			se->slice = slice;
			if (se != cfs_rq->curr)
				min_vruntime_cb_propagate(m, cfs_rq, se);
			slice = cfs_rq_min_slice(cfs_rq);
		}
		if (!h_nr_delayed)
			cfs_rq->h_nr_runnable++;
		cfs_rq->h_nr_queued++;
		cfs_rq->idle_h_nr_running += idle_h_nr_running;
		cfs_rq->h_nr_delayed += h_nr_delayed;
		if (stops_at_throttled(m, cfs_rq))
			return;
	}

	add_nr_running(m, rq, 1);
}

/* ---- dequeue --------------------------------------------------------- */

static void finish_delayed_dequeue_entity(struct model *m, struct sched_entity *se)
{
	clear_delayed(m, se);
	if (sched_feat(m, DELAY_ZERO) && se->vlag > 0) {
		se->vlag = 0;
		vlag_written(m, se);
	}
}

/*
 * dequeue_entity() (6.12).  With DELAY_DEQUEUE a sleeping entity that is
 * not eligible (negative lag) stays queued, "delayed", so that it cannot
 * shed its negative lag by sleeping: it competes until picked or woken.
 * Returns false when it was delayed.
 */
static bool dequeue_entity_eevdf(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
				 int flags)
{
	bool sleep = flags & DEQUEUE_SLEEP;
	int action = UPDATE_TG;

	update_curr(m, cfs_rq);
	clear_buddies(cfs_rq, se);

	if (!(flags & DEQUEUE_DELAYED)) {
		bool delay = sleep && !(flags & (DEQUEUE_SPECIAL | DEQUEUE_THROTTLE));

		if (sched_feat(m, DELAY_DEQUEUE) && delay && !entity_eligible(cfs_rq, se)) {
			update_load_avg(m, cfs_rq, se, 0);
			set_delayed(m, se);
			COUNT(m, delayed_dequeue);
			return false;
		}
	}

	if (entity_is_task(se) && task_on_rq_migrating(task_of(se)))
		action |= DO_DETACH;

	update_load_avg(m, cfs_rq, se, action);
	se_update_runnable(se);
	update_entity_lag(m, cfs_rq, se);
	if (sched_feat(m, PLACE_REL_DEADLINE) && !sleep) {
		se->deadline -= se->vruntime;
		se->rel_deadline = 1;
	}
	if (se != cfs_rq->curr)
		__dequeue_entity(m, cfs_rq, se);
	se->on_rq = 0;
	account_entity_dequeue(cfs_rq, se);
	/* return excess runtime on last dequeue */
	return_cfs_rq_runtime(m, cfs_rq);

	update_cfs_group(m, se, MODEL_SITE_DEQUEUE_ENTITY, cfs_rq->nr_running);

	if (flags & DEQUEUE_DELAYED)
		finish_delayed_dequeue_entity(m, se);
	if (!sched_feat(m, ZERO_VRUNTIME) &&
	    (flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE)
		update_min_vruntime(m, cfs_rq);
	if (!cfs_rq->nr_running && throttled_hierarchy(m, cfs_rq) &&
	    sched_feat(m, TASK_BASED_THROTTLE))
		throttled_cfs_rq_emptied(m, cfs_rq);
	return true;
}

/* dequeue_entity() (<= 6.5): an entity that does not sleep leaves with its
 * vruntime relative to min_vruntime. */
static bool dequeue_entity_cfs(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
			       int flags)
{
	int action = UPDATE_TG;

	if (entity_is_task(se) && task_on_rq_migrating(task_of(se)))
		action |= DO_DETACH;

	update_curr(m, cfs_rq);
	update_load_avg(m, cfs_rq, se, action);
	se_update_runnable(se);
	clear_buddies(cfs_rq, se);
	if (se != cfs_rq->curr)
		__dequeue_entity(m, cfs_rq, se);
	se->on_rq = 0;
	account_entity_dequeue(cfs_rq, se);
	if (!(flags & DEQUEUE_SLEEP))
		se->vruntime -= cfs_rq->min_vruntime;
	return_cfs_rq_runtime(m, cfs_rq);

	update_cfs_group(m, se, MODEL_SITE_DEQUEUE_ENTITY, cfs_rq->nr_running);
	if ((flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE)
		update_min_vruntime(m, cfs_rq);
	if (!cfs_rq->nr_running && throttled_hierarchy(m, cfs_rq) &&
	    sched_feat(m, TASK_BASED_THROTTLE))
		throttled_cfs_rq_emptied(m, cfs_rq);
	return true;
}

bool dequeue_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	COUNT(m, dequeue_entity);
	if (sched_feat(m, EEVDF))
		return dequeue_entity_eevdf(m, cfs_rq, se, flags);
	return dequeue_entity_cfs(m, cfs_rq, se, flags);
}

/*
 * dequeue_entities(): dequeue bottom up while the queue left behind is
 * empty (loop 1), then refresh the ancestors (loop 2).  A sleeping task
 * whose siblings remain nominates its parent as next buddy.
 * Returns -1 if the task was delayed (it stays queued), 1 when dequeued,
 * 0 when the walk ended at a throttled queue (before 6.18: the levels above
 * and the rq never counted the task).
 */
int dequeue_entities(struct model *m, struct rq *rq, struct sched_entity *se, int flags)
{
	bool task_sleep = flags & DEQUEUE_SLEEP;
	bool task_delayed = flags & DEQUEUE_DELAYED;
	bool task_throttled = flags & DEQUEUE_THROTTLE;
	struct model_task *p = NULL;
	unsigned int idle_h_nr_running = 0;
	unsigned int h_nr_queued = 0;
	unsigned int h_nr_delayed = 0;
	struct cfs_rq *cfs_rq;
	u64 slice = 0;
	bool eevdf = sched_feat(m, EEVDF);
	int ret = 0;

	COUNT(m, dequeue_task_fair);
	if (entity_is_task(se)) {
		p = task_of(se);
		h_nr_queued = 1;
		idle_h_nr_running = p->policy == MODEL_POLICY_IDLE;
		if (!task_sleep && !task_delayed)
			h_nr_delayed = !!se->sched_delayed;
	}

	for_each_sched_entity(se) {
		cfs_rq = cfs_rq_of(se);

		if (!dequeue_entity(m, cfs_rq, se, flags)) {
			if (p && &p->se == se)
				return -1;
			slice = cfs_rq_min_slice(cfs_rq);
			break;
		}

		if (!h_nr_delayed)
			cfs_rq->h_nr_runnable -= h_nr_queued;
		cfs_rq->h_nr_queued -= h_nr_queued;
		cfs_rq->idle_h_nr_running -= idle_h_nr_running;
		cfs_rq->h_nr_delayed -= h_nr_delayed;
		if (task_throttled && throttled_hierarchy(m, cfs_rq))
			record_throttle_clock(cfs_rq);
		if (stops_at_throttled(m, cfs_rq))
			goto out;

		if (cfs_rq->load.weight) {
			if (eevdf)
				slice = cfs_rq_min_slice(cfs_rq);
			se = se->parent;
			/* before 6.18: no buddy inside a throttled hierarchy */
			if (task_sleep && se &&
			    (sched_feat(m, TASK_BASED_THROTTLE) || !throttled_hierarchy(m, cfs_rq)))
				set_next_buddy(se);
			break;
		}
		flags |= DEQUEUE_SLEEP;
		flags &= ~(DEQUEUE_DELAYED | DEQUEUE_SPECIAL);
	}

	for_each_sched_entity(se) {
		unsigned int nr_before;

		cfs_rq = cfs_rq_of(se);
		nr_before = cfs_rq->nr_running;
		update_load_avg(m, cfs_rq, se, UPDATE_TG);
		se_update_runnable(se);
		update_cfs_group(m, se, MODEL_SITE_DEQUEUE_TASK, nr_before);

		if (eevdf) {
			se->slice = slice;
			if (se != cfs_rq->curr)
				min_vruntime_cb_propagate(m, cfs_rq, se);
			slice = cfs_rq_min_slice(cfs_rq);
		}
		if (!h_nr_delayed)
			cfs_rq->h_nr_runnable -= h_nr_queued;
		cfs_rq->h_nr_queued -= h_nr_queued;
		cfs_rq->idle_h_nr_running -= idle_h_nr_running;
		cfs_rq->h_nr_delayed -= h_nr_delayed;
		if (task_throttled && throttled_hierarchy(m, cfs_rq))
			record_throttle_clock(cfs_rq);
		if (stops_at_throttled(m, cfs_rq))
			goto out;
	}

	sub_nr_running(m, rq, h_nr_queued);
	ret = 1;
out:
	if (p && task_delayed) {
		/* __block_task(): the delayed task is finally off the queue */
		p->on_rq = 0;
	}
	return ret;
}

/* dequeue_task_fair(): false if the task stays queued (delayed). */
bool dequeue_task_fair(struct model *m, struct rq *rq, struct model_task *p, int flags)
{
	if (task_is_throttled(m, p)) {
		dequeue_throttled_task(m, p, flags);
		return true;
	}
	return dequeue_entities(m, rq, &p->se, flags) >= 0;
}

/* ---- switching entities ---------------------------------------------- */

/*
 * set_next_entity(): @se becomes its queue's curr: out of the tree (curr is
 * kept outside it), load updated; EEVDF marks its slice protected
 * (RUN_TO_PARITY).  Its run starts now.
 */
static void set_next_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
			    bool first)
{
	COUNT(m, set_next_entity);
	clear_buddies(cfs_rq, se);
	if (se->on_rq) {
		__dequeue_entity(m, cfs_rq, se);
		update_load_avg(m, cfs_rq, se, UPDATE_TG);
		/* 6.17+: only a real pick (not a sched_change re-set) protects */
		if (sched_feat(m, EEVDF) && (first || !sched_feat(m, PROTECT_VPROT)))
			set_protect_slice(m, cfs_rq, se);
	}
	se->exec_start = rq_of(cfs_rq)->clock_task;
	cfs_rq->curr = se;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

/* put_prev_entity(): a still-queued curr goes back into the tree. */
static void put_prev_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *prev)
{
	COUNT(m, put_prev_entity);
	if (prev->on_rq)
		update_curr(m, cfs_rq);
	/* throttle cfs_rqs exceeding runtime */
	check_cfs_rq_runtime(m, cfs_rq);
	if (prev->on_rq) {
		__enqueue_entity(m, cfs_rq, prev);
		update_load_avg(m, cfs_rq, prev, 0);
	}
	cfs_rq->curr = NULL;
}

/*
 * pick_next_entity() (6.12): the next buddy if eligible, else pick_eevdf()
 * (@protect: curr's slice protection holds); a delayed entity that wins the
 * pick is dequeued for good (NULL: pick again).  6.18.33+ calls it from the
 * wakeup-preemption check as well (WAKEUP_PICK_NEXT, @wakeup): there a
 * buddy that only model_preempt_for() set is not one the kernel had (its
 * traced hand-off was a preemption, which leaves no buddy), so it is
 * passed over.
 */
static struct sched_entity *pick_next_entity(struct model *m, struct rq *rq,
					     struct cfs_rq *cfs_rq, bool protect, bool wakeup)
{
	struct sched_entity *se;

	COUNT(m, pick_next_entity);
	if (sched_feat(m, PICK_BUDDY) && cfs_rq->next && entity_eligible(cfs_rq, cfs_rq->next) &&
	    !(wakeup && cfs_rq->next->handoff_buddy)) {
		COUNT(m, pick_buddy);
		return cfs_rq->next;
	}
	se = __pick_eevdf(m, cfs_rq, protect);
	if (se && se->sched_delayed) {
		dequeue_entities(m, rq, se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
		return NULL;
	}
	return se;
}

/*
 * pick_task_fair(): descend from the root queue, picking at every level.  A
 * queue out of runtime is throttled on the way (check_cfs_rq_runtime()):
 * 6.18 picks on and gives the task its throttle work; before 6.18 the
 * throttle took the queue's entity off and the pick starts again from the
 * root (6.12.117 'goto again'; 6.1's pick_next_task_fair() checks only the
 * levels with a curr and falls back to its 'simple' pick, the same choice
 * once the entity is off).
 */
static struct model_task *pick_task_fair(struct model *m, struct rq *rq)
{
	struct sched_entity *se;
	struct cfs_rq *cfs_rq;
	int guard = 0;
	bool throttled;

again:
	cfs_rq = &rq->cfs;
	if (!cfs_rq->nr_running)
		return NULL;
	if (++guard > 1000000)
		return NULL;   /* cannot happen: every retry dequeues a delayed entity */
	throttled = false;

	do {
		struct sched_entity *curr = cfs_rq->curr;

		if (curr && curr->on_rq)
			update_curr(m, cfs_rq);
		else
			curr = NULL;
		if (!sched_feat(m, TASK_BASED_THROTTLE)) {
			/* before 6.18 the throttle dequeued a group entity: pick again */
			if (check_cfs_rq_runtime(m, cfs_rq))
				goto again;
		} else {
			throttled |= check_cfs_rq_runtime(m, cfs_rq);
		}
		if (sched_feat(m, EEVDF)) {
			se = pick_next_entity(m, rq, cfs_rq, pick_protects(m), false);
			if (!se)
				goto again;
		} else {
			COUNT(m, pick_next_entity);
			se = pick_next_entity_cfs(m, cfs_rq, curr);
		}
		cfs_rq = group_cfs_rq(se);
	} while (cfs_rq);

	if (throttled)
		task_throttle_setup_work(m, task_of(se));
	return task_of(se);
}

/* is_same_group(): both entities on one queue? */
static struct cfs_rq *is_same_group(struct sched_entity *se, struct sched_entity *pse)
{
	if (se->cfs_rq == pse->cfs_rq)
		return se->cfs_rq;
	return NULL;
}

void put_prev_task_fair(struct model *m, struct rq *rq, struct model_task *prev)
{
	struct sched_entity *se = &prev->se;

	(void)rq;
	for_each_sched_entity(se)
		put_prev_entity(m, cfs_rq_of(se), se);
}

void set_next_task_fair(struct model *m, struct rq *rq, struct model_task *p, bool first)
{
	struct sched_entity *se = &p->se;

	for_each_sched_entity(se)
		set_next_entity(m, cfs_rq_of(se), se, first);
	if (task_on_rq_queued(p))
		cfs_tasks_move_front(rq, p);
}

/*
 * pick_next_task_fair(): pick; if the previous task was a fair task, put and
 * set only the levels where the two hierarchies differ.  Nothing runnable:
 * newidle balance, and pick again if it pulled something.
 * @prev_fair: @prev is a fair task still attached as curr on its queues.
 */
struct model_task *pick_next_task_fair(struct model *m, struct rq *rq, struct model_task *prev,
				       bool prev_fair)
{
	struct sched_entity *se;
	struct model_task *p;
	int new_tasks;

	COUNT(m, pick_next_task_fair);
again:
	p = pick_task_fair(m, rq);
	if (!p)
		goto idle;
	se = &p->se;

	if (!prev_fair) {
		set_next_task_fair(m, rq, p, true);
		return p;
	}
	if (prev != p) {
		struct sched_entity *pse = &prev->se;
		struct cfs_rq *cfs_rq;

		while (!(cfs_rq = is_same_group(se, pse))) {
			int se_depth = se->depth;
			int pse_depth = pse->depth;

			if (se_depth <= pse_depth) {
				put_prev_entity(m, cfs_rq_of(pse), pse);
				pse = pse->parent;
			}
			if (se_depth >= pse_depth) {
				set_next_entity(m, cfs_rq_of(se), se, true);
				se = se->parent;
			}
		}
		put_prev_entity(m, cfs_rq, pse);
		set_next_entity(m, cfs_rq, se, true);
		if (task_on_rq_queued(p))
			cfs_tasks_move_front(rq, p);   /* __set_next_task_fair() */
	}
	return p;

idle:
	new_tasks = sched_balance_newidle(m, rq);
	if (new_tasks > 0)
		goto again;
	return NULL;
}

/* ---- tick ------------------------------------------------------------ */

/*
 * entity_tick(): charge runtime, refresh the running entity's load and
 * tg->load_avg, and its group weight.  CFS also checks the slice here.
 */
static void entity_tick(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *curr)
{
	update_curr(m, cfs_rq);
	update_load_avg(m, cfs_rq, curr, UPDATE_TG);
	update_cfs_group(m, curr, MODEL_SITE_ENTITY_TICK, cfs_rq->nr_running);
	if (!sched_feat(m, EEVDF) && cfs_rq->nr_running > 1)
		check_preempt_tick(m, cfs_rq, curr);
}

void task_tick_fair(struct model *m, struct rq *rq, struct model_task *curr)
{
	struct sched_entity *se = &curr->se;
	bool before = rq->need_resched;

	for_each_sched_entity(se)
		entity_tick(m, cfs_rq_of(se), se);
	if (sched_feat(m, EEVDF) && !before && rq->need_resched)
		COUNT(m, tick_resched);
}

/* ---- wakeup preemption ---------------------------------------------- */

/* find_matching_se(): walk both up to siblings on a common cfs_rq (also cfs.c's). */
void find_matching_se(struct sched_entity **se, struct sched_entity **pse)
{
	int se_depth = (*se)->depth, pse_depth = (*pse)->depth;

	while (se_depth > pse_depth) {
		se_depth--;
		*se = (*se)->parent;
	}
	while (pse_depth > se_depth) {
		pse_depth--;
		*pse = (*pse)->parent;
	}
	while (cfs_rq_of(*se) != cfs_rq_of(*pse)) {
		*se = (*se)->parent;
		*pse = (*pse)->parent;
	}
}

static bool se_is_idle(const struct sched_entity *se)
{
	if (entity_is_task(se))
		return se->task->policy == MODEL_POLICY_IDLE;
	return group_cfs_rq(se)->tg->idle != 0;
}

/*
 * do_preempt_short() (6.12): @pse asks for a shorter slice and is eligible,
 * and would win against curr without its protection.
 */
static bool do_preempt_short(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *pse,
			     struct sched_entity *se)
{
	if (!sched_feat(m, PREEMPT_SHORT))
		return false;
	if (pse->slice >= se->slice)
		return false;
	if (!entity_eligible(cfs_rq, pse))
		return false;
	if (entity_before(m, pse, se))
		return true;
	if (!entity_eligible(cfs_rq, se))
		return true;
	return false;
}

/*
 * The 6.18.33+ decision after update_curr() (check_preempt_wakeup_fair() of
 * 6.18.35, see below): true if @pse preempts @se; *@short_pre tells whether
 * curr's protection is to be cancelled.
 */
static bool preempt_wakeup_pick(struct model *m, struct rq *rq, struct cfs_rq *cfs_rq,
				struct sched_entity *se, struct sched_entity *pse,
				const struct model_task *p, int wake_flags, bool *short_pre)
{
	struct sched_entity *nse;
	int guard = 0;

	*short_pre = sched_feat(m, PREEMPT_SHORT) && pse->slice < se->slice;
	if (!*short_pre) {
		/* exec often follows fork; a delayed task is not eligible */
		if ((wake_flags & MODEL_WF_FORK) || pse->sched_delayed)
			return false;
		/* set_preempt_buddy(): keep an earlier-deadline buddy */
		if (sched_feat(m, NEXT_BUDDY) &&
		    !(cfs_rq->next && entity_before(m, cfs_rq->next, pse))) {
			set_next_buddy(pse);
			if (wake_flags & MODEL_WF_SYNC) {
				/* preempt_sync() */
				u64 threshold = m->sysctl_sched_migration_cost;
				s64 delta = (s64)(rq->clock_task - se->exec_start);

				if (delta < 0)
					delta = 0;
				/* WF_RQ_SELECTED: select_task_rq() ran the class's
				 * (p->nr_cpus_allowed > 1) */
				if (task_nr_cpus_allowed(m, p) > 1)
					threshold >>= 2;
				return entity_before(m, pse, se) && (u64)delta >= threshold;
			}
		}
	}
	do {
		nse = pick_next_entity(m, rq, cfs_rq, !*short_pre, true);
		if (nse == pse)
			return true;
	} while (!nse && cfs_rq->nr_running && ++guard < 1000000);
	if (sched_feat(m, RUN_TO_PARITY) && sched_feat(m, PROTECT_VPROT))
		update_protect_slice(m, cfs_rq, se);
	return false;
}

/*
 * check_preempt_wakeup_fair(): at the level where the woken task's and
 * curr's hierarchies meet, charge curr's runtime and preempt if EEVDF would
 * now pick the woken side.
 *
 * 6.12: a shorter-slice wakee that would win cancels curr's protection, then
 * pick_eevdf() (with protection) decides.  6.17+ (PROTECT_VPROT): a
 * shorter-slice wakee makes the pick ignore the protection
 * (__pick_eevdf(!do_preempt_short)); if it still does not win, curr's
 * protection shrinks to the shortest slice (update_protect_slice()); if it
 * wins, the protection is cancelled.
 *
 * 6.18.33+ (WAKEUP_PICK_NEXT, the stable backport of e837456fdca8
 * "sched/fair: Reimplement NEXT_BUDDY to align with EEVDF goals" with its
 * fixes; 6.18.35 fair.c): a forked wakee, or one still delayed at the check
 * (migrated or reniced; try_to_wake_up() requeues a delayed task first),
 * never preempts unless its slice is shorter; otherwise the decision is
 * pick_next_entity() itself (the eligible next buddy first; a delayed winner
 * is dequeued and the pick repeated), and a pick that does not give the
 * wakee shrinks curr's protection.
 * With NEXT_BUDDY (off in every profile: capture machine's sched_features)
 * the wakee becomes the buddy unless an earlier-deadline buddy is set, and a
 * WF_SYNC wakeup that made it the buddy is decided by preempt_sync(): curr's
 * runtime since exec_start against migration_cost (quartered with
 * WF_RQ_SELECTED, which select_task_rq() sets for a task allowed on several
 * CPUs).  update_curr() has just reset exec_start, so that runtime is 0 and
 * such a wakeup never preempts, in the kernel as here.
 */
void check_preempt_wakeup_fair(struct model *m, struct rq *rq, struct model_task *p, int wake_flags)
{
	struct model_task *curr = rq->curr;
	struct sched_entity *se = &curr->se, *pse = &p->se;
	struct cfs_rq *cfs_rq;
	bool cse_is_idle, pse_is_idle, preempt_short = false;

	if (!sched_feat(m, EEVDF)) {
		check_preempt_wakeup_cfs(m, rq, p, wake_flags);
		return;
	}
	if (se == pse)
		return;
	/* attach_tasks() and the like enqueue and then check: a throttled task cannot run */
	if (task_is_throttled(m, p) || entity_throttled_pre618(m, pse))
		return;
	if (sched_feat(m, NEXT_BUDDY) && !sched_feat(m, WAKEUP_PICK_NEXT) &&
	    !(wake_flags & MODEL_WF_FORK) && !pse->sched_delayed)
		set_next_buddy(pse);
	if (rq->need_resched)
		return;
	if (!sched_feat(m, WAKEUP_PREEMPTION))
		return;

	COUNT(m, wakeup_preempt_check);
	find_matching_se(&se, &pse);
	cse_is_idle = se_is_idle(se);
	pse_is_idle = se_is_idle(pse);
	if (cse_is_idle && !pse_is_idle) {
		/* an idle entity gets no slice protection against a non-idle one */
		preempt_short = true;
		goto preempt;
	}
	if (cse_is_idle != pse_is_idle)
		return;
	if (p->policy != MODEL_POLICY_NORMAL)
		return;

	cfs_rq = cfs_rq_of(se);
	update_curr(m, cfs_rq);
	if (sched_feat(m, WAKEUP_PICK_NEXT)) {
		if (preempt_wakeup_pick(m, rq, cfs_rq, se, pse, p, wake_flags, &preempt_short))
			goto preempt;
		return;
	}
	if (sched_feat(m, PROTECT_VPROT)) {
		preempt_short = sched_feat(m, PREEMPT_SHORT) && pse->slice < se->slice;
		if (__pick_eevdf(m, cfs_rq, !preempt_short) == pse)
			goto preempt;
		if (sched_feat(m, RUN_TO_PARITY) && preempt_short)
			update_protect_slice(m, cfs_rq, se);
		return;
	}
	if (do_preempt_short(m, cfs_rq, pse, se))
		cancel_protect_slice(m, se);
	if (pick_eevdf(m, cfs_rq) == pse)
		goto preempt;
	return;

preempt:
	if (preempt_short)
		cancel_protect_slice(m, se);
	resched_curr(m, rq);
	COUNT(m, wakeup_preempt);
}

/* ---- the lag from before the trace (model_expect_wakeup()) ----------- */

/*
 * check_preempt_wakeup_fair()'s decision after its update_curr(), for @pse
 * (queued for the trial) against curr's entity @se on @cfs_rq, as the
 * profile's kernel makes it; 6.18.33+: the next buddy first, a delayed
 * winner taken out and the pick repeated (pick_next_entity()).  No side
 * effects: the delayed entities taken out are put back as they were.
 */
static bool wakeup_pick_trial(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
			      struct sched_entity *pse)
{
	bool short_pre = sched_feat(m, PREEMPT_SHORT) && pse->slice < se->slice;
	struct sched_entity *out[8], *nse;
	int n = 0;

	if (!sched_feat(m, WAKEUP_PICK_NEXT)) {
		if (sched_feat(m, PROTECT_VPROT))
			return __pick_eevdf(m, cfs_rq, !short_pre) == pse;
		return __pick_eevdf(m, cfs_rq, pick_protects(m) &&
				    !do_preempt_short(m, cfs_rq, pse, se)) == pse;
	}
	for (;;) {
		struct sched_entity *next = cfs_rq->next;

		if (sched_feat(m, PICK_BUDDY) && next && entity_eligible(cfs_rq, next) &&
		    !next->handoff_buddy) {
			nse = next;
			break;
		}
		nse = __pick_eevdf(m, cfs_rq, !short_pre);
		if (!nse || !nse->sched_delayed || nse == cfs_rq->curr || n == 8)
			break;
		__dequeue_entity(m, cfs_rq, nse);
		cfs_rq->nr_running--;
		out[n++] = nse;
	}
	while (n--) {
		__restore_entity(m, cfs_rq, out[n]);
		cfs_rq->nr_running++;
	}
	return nse == pse;
}

/* Would @pse, placed with stored lag @vlag, preempt @se?  The tree, sums and RNG as before. */
static bool lag_trial(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
		      struct sched_entity *pse, u64 avruntime, u64 vslice, s64 vlag)
{
	u64 rng = m->tl_rng, seq = cfs_rq->tl_seq;
	bool win;

	pse->vruntime = avruntime - (u64)place_lag(cfs_rq, pse, vlag);
	pse->deadline = pse->vruntime + vslice;
	__enqueue_entity(m, cfs_rq, pse);
	cfs_rq->nr_running++;
	win = wakeup_pick_trial(m, cfs_rq, se, pse);
	cfs_rq->nr_running--;
	__dequeue_entity(m, cfs_rq, pse);
	m->tl_rng = rng;
	cfs_rq->tl_seq = seq;
	return win;
}

/*
 * place_initial_lag(): @pse, never placed since the model began, is being
 * placed on @cfs_rq by a wakeup whose check the caller knows from the trace
 * (m->expect).  Where it is the entity that meets curr's at that check
 * (find_matching_se()) and the check's other conditions hold, its stored lag
 * becomes the one closest to 0 within the kernel's clamp (entity_lag():
 * +-calc_delta_fair(bound)) under which the check decides as the trace: a
 * bisection over the lag, each step a trial placement (place_entity()'s
 * inflation) and pick.  Larger lags place it earlier (vruntime and deadline)
 * and lower V, so the outcome is monotonic in the lag; the bisection keeps
 * one lag on each side and returns the winning (PREEMPT) or losing
 * (NO_PREEMPT) one.  The entity's lag is otherwise left at 0.
 */
static void place_initial_lag(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *pse)
{
	struct rq *rq = cfs_rq->rq;
	struct model_task *p = m->expect_task;
	struct sched_entity *se, *wse;
	bool want = m->expect == MODEL_EXPECT_PREEMPT;
	u64 avruntime, vslice;
	s64 limit, lo, hi, lag = 0;

	if (!sched_feat(m, EEVDF) || !sched_feat(m, PLACE_LAG) ||
	    !sched_feat(m, WAKEUP_PREEMPTION) || sched_feat(m, NEXT_BUDDY) ||
	    m->expect == MODEL_EXPECT_NONE)
		return;
	if (!rq->curr || rq->curr == p || rq->other_class || rq->need_resched ||
	    !cfs_rq->nr_running || p->policy != MODEL_POLICY_NORMAL || task_is_throttled(m, p))
		return;
	se = &rq->curr->se;
	wse = &p->se;
	find_matching_se(&se, &wse);
	if (wse != pse || cfs_rq->curr != se || se_is_idle(se) || se_is_idle(pse) ||
	    entity_throttled_pre618(m, pse))
		return;

	if (!pse->custom_slice)
		pse->slice = m->sysctl_sched_base_slice;
	vslice = calc_delta_fair(pse->slice, pse);
	avruntime = avg_vruntime(m, cfs_rq);
	limit = (s64)calc_delta_fair(entity_lag_bound(m, pse), pse);
	m->lag_result = MODEL_INITIAL_LAG_ZERO;
	if (lag_trial(m, cfs_rq, se, pse, avruntime, vslice, 0) == want)
		goto out;
	if (lag_trial(m, cfs_rq, se, pse, avruntime, vslice, want ? limit : -limit) != want) {
		m->lag_result = MODEL_INITIAL_LAG_INFEASIBLE;
		goto out;
	}
	/* lo loses, hi wins */
	lo = want ? 0 : -limit;
	hi = want ? limit : 0;
	while (hi - lo > 1) {
		s64 mid = lo + (hi - lo) / 2;

		if (lag_trial(m, cfs_rq, se, pse, avruntime, vslice, mid))
			hi = mid;
		else
			lo = mid;
	}
	lag = want ? hi : lo;
	m->lag_result = MODEL_INITIAL_LAG_SET;
out:
	pse->vlag = lag;
	vlag_written(m, pse);
	m->lag_vlag = lag;
	m->lag_weight = pse->load.weight;
}

/* ---- migration, exit, group and weight changes ------------------------ */

/*
 * migrate_task_rq_fair(): a waking task leaves its CPU: its load is removed
 * from the old queue (lazily, see remove_entity_load_avg()), aged to now if
 * that CPU was idle, and it will attach afresh on the new queue.  A queued
 * migration detached at dequeue already.  CFS: a waking task's vruntime is
 * made relative to the old queue.
 */
void migrate_task_rq_fair(struct model *m, struct model_task *p, int new_cpu)
{
	struct sched_entity *se = &p->se;

	(void)new_cpu;
	if (!sched_feat(m, EEVDF) && p->state == TS_SLEEPING && !p->on_rq)
		se->vruntime -= cfs_rq_of(se)->min_vruntime;

	if (!task_on_rq_migrating(p)) {
		remove_entity_load_avg(m, se);
		migrate_se_pelt_lag(m, se);
	}
	se->avg.last_update_time = 0;
}

/* task_dead_fair(): a delayed dying task is dequeued, then its load removed. */
void task_dead_fair(struct model *m, struct model_task *p)
{
	struct sched_entity *se = &p->se;

	if (se->sched_delayed)
		dequeue_entities(m, &m->rqs[p->cpu], se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
	remove_entity_load_avg(m, se);
}

/*
 * task_change_group_fair(): cgroup move - detach from the old group's queue
 * (load and propagation), attach to the new one.  CFS keeps a sleeping
 * task's vruntime meaningful across queues by placing and normalising it.
 */
void task_change_group_fair(struct model *m, struct model_task *p)
{
	struct sched_entity *se = &p->se;
	bool cfs_sleeper = !sched_feat(m, EEVDF) && !p->on_rq && se->sum_exec_runtime;

	if (p->state == TS_NEW)
		return;
	if (cfs_sleeper) {
		place_entity_cfs(m, cfs_rq_of(se), se, 0);
		se->vruntime -= cfs_rq_of(se)->min_vruntime;
	}
	detach_entity_cfs_rq(m, se);
	se->avg.last_update_time = 0;
	/* set_task_rq() */
	se->cfs_rq = p->tg->cfs_rq[p->cpu];
	se->parent = p->tg->se[p->cpu];
	se->depth = se->parent ? se->parent->depth + 1 : 0;
	attach_entity_cfs_rq(m, se);
	if (cfs_sleeper)
		se->vruntime += cfs_rq_of(se)->min_vruntime;
}

/* reweight_task_fair(): new nice level; a task keeps the table inverse. */
void reweight_task_fair(struct model *m, struct rq *rq, struct model_task *p, int nice)
{
	struct sched_entity *se = &p->se;
	int idx = nice + 20;
	unsigned long weight = scale_load((unsigned long)sched_prio_to_weight[idx]);
	u32 inv = sched_prio_to_wmult[idx];

	(void)rq;
	if (p->policy == MODEL_POLICY_IDLE) {
		weight = scale_load(WEIGHT_IDLEPRIO);
		inv = WMULT_IDLEPRIO;
	}
	if (p->state == TS_NEW || p->cpu < 0) {
		se->load.weight = weight;
		se->load.inv_weight = inv;
		return;
	}
	reweight_entity(m, cfs_rq_of(se), se, weight);
	se->load.inv_weight = inv;
}
