// SPDX-License-Identifier: GPL-2.0
/*
 * CFS bandwidth control (kernel/sched/fair.c, CONFIG_CFS_BANDWIDTH, as in
 * 6.18.35: the task-based throttle of Aaron Lu's series).
 *
 * A task group with a quota has a pool (struct cfs_bandwidth) of `quota` ns
 * per `period` ns.  Each of its per-CPU queues runs on a local allowance,
 * runtime_remaining, which update_curr() docks; when it reaches 0 the queue
 * asks the pool for a slice (sched_cfs_bandwidth_slice(), 5 ms) plus its
 * deficit; when the pool is empty the queue is throttled until the period
 * timer refills the pool and hands runtime out again:
 *
 *     pool:  quota ----5ms--> cpu0 ----5ms--> cpu1 ... 0: throttle
 *            ^ period timer: runtime = quota (burst 0), distribute to the
 *              throttled queues (each gets its deficit + 1 ns), unthrottle
 *
 * Throttling (6.18): throttle_cfs_rq() only marks the queue and counts it in
 * throttle_count down its subtree (tg_throttle_down()); its entities stay
 * queued.  A task picked from a throttled hierarchy gets a task_work
 * (task_throttle_setup_work()) that dequeues it to its queue's
 * throttled_limbo_list on its return to user space
 * (throttle_cfs_rq_work()); unthrottling (tg_unthrottle_up()) enqueues the
 * limbo tasks again.  The model cannot see user space: the work runs at the
 * task's next __schedule() (model_schedule()), which the pick that set it
 * requests at once (need_resched) - see docs/model.md, "CFS bandwidth".
 *
 * Before 6.18 (profiles 6.1, 6.5, 6.12: !TASK_BASED_THROTTLE) the queue
 * itself leaves: throttle_cfs_rq() dequeues its group entity, and the
 * ancestors' entities the dequeue empties, taking its h_nr_* counts off
 * every level above and its tasks off rq->nr_running; tg_throttle_down()
 * stops the PELT clock of the whole subtree at once; enqueue_task_fair() and
 * dequeue_entities() stop at a throttled queue; unthrottle_cfs_rq() enqueues
 * the group entity again (throttle_cfs_rq_pre618(),
 * unthrottle_cfs_rq_pre618() below).  The tasks stay queued on their own
 * queues throughout; none is ever in limbo.
 *
 * Timers are the caller's events (model_next_timer(), model_run_timers()).
 * Remote unthrottles, IPIs in the kernel (unthrottle_cfs_rq_async()), are
 * done synchronously at the timer's time.
 */
#include <string.h>

#include "sched.h"

#define NSEC_PER_USEC 1000ULL

/* sysctl_sched_cfs_bandwidth_slice: 5000 us */
static u64 sched_cfs_bandwidth_slice(void)
{
	return 5000 * NSEC_PER_USEC;
}

/* a cfs_rq won't donate quota below this amount */
static const u64 min_cfs_rq_runtime = 1 * NSEC_PER_MSEC;
/* minimum remaining period time to redistribute slack quota */
static const u64 min_bandwidth_expiration = 2 * NSEC_PER_MSEC;
/* how long we wait to gather additional slack before distributing */
static const u64 cfs_bandwidth_slack_period = 5 * NSEC_PER_MSEC;

static struct cfs_bandwidth *tg_cfs_bandwidth(struct task_group *tg)
{
	return &tg->cfs_bandwidth;
}

void init_cfs_bandwidth(struct cfs_bandwidth *cfs_b)
{
	memset(cfs_b, 0, sizeof(*cfs_b));
	cfs_b->quota = RUNTIME_INF;
	cfs_b->period = 100 * NSEC_PER_MSEC;   /* default_cfs_period() */
}

/*
 * hrtimer_forward(): move @expires past @now in whole @interval steps;
 * returns the number of steps (overruns), 0 if @now is before @expires.
 */
static u64 hrtimer_forward(u64 *expires, u64 now, u64 interval)
{
	u64 orun = 1;
	s64 delta = (s64)(now - *expires);

	if (delta < 0)
		return 0;
	if ((u64)delta >= interval) {
		orun = (u64)delta / interval;
		*expires += orun * interval;
		if (*expires > now)
			return orun;
		orun++;
	}
	*expires += interval;
	return orun;
}

/* start_cfs_bandwidth(): arm the period timer on its grid, if not armed. */
static void start_cfs_bandwidth(struct model *m, struct cfs_bandwidth *cfs_b)
{
	if (cfs_b->period_active)
		return;
	cfs_b->period_active = true;
	hrtimer_forward(&cfs_b->period_expires, m->now, cfs_b->period);
}

/*
 * __refill_cfs_bandwidth_runtime(): runtime += quota, capped at quota +
 * burst.  With burst 0 the pool is exactly quota after every refill: unused
 * runtime does not carry over.
 */
static void __refill_cfs_bandwidth_runtime(struct cfs_bandwidth *cfs_b)
{
	if (cfs_b->quota == RUNTIME_INF)
		return;
	cfs_b->runtime += cfs_b->quota;
	if (cfs_b->runtime > cfs_b->quota + cfs_b->burst)
		cfs_b->runtime = cfs_b->quota + cfs_b->burst;
	cfs_b->runtime_snap = cfs_b->runtime;
}

/*
 * __assign_cfs_rq_runtime(): take from the pool what brings the queue to
 * @target_runtime (runtime_remaining <= 0 here, so that is target plus the
 * deficit), or what is left.  Returns whether the queue has runtime now.
 */
static bool __assign_cfs_rq_runtime(struct model *m, struct cfs_bandwidth *cfs_b,
				    struct cfs_rq *cfs_rq, u64 target_runtime)
{
	u64 min_amount, amount = 0;

	BW_COUNT(m, assign_cfs_rq_runtime);
	min_amount = target_runtime - (u64)cfs_rq->runtime_remaining;
	if (cfs_b->quota == RUNTIME_INF) {
		amount = min_amount;
	} else {
		start_cfs_bandwidth(m, cfs_b);
		if (cfs_b->runtime > 0) {
			amount = min_u64(cfs_b->runtime, min_amount);
			cfs_b->runtime -= amount;
			cfs_b->idle = false;
		}
	}
	cfs_rq->runtime_remaining += (s64)amount;
	return cfs_rq->runtime_remaining > 0;
}

/* assign_cfs_rq_runtime(): one bandwidth slice (5 ms) for the queue. */
static bool assign_cfs_rq_runtime(struct model *m, struct cfs_rq *cfs_rq)
{
	return __assign_cfs_rq_runtime(m, tg_cfs_bandwidth(cfs_rq->tg), cfs_rq,
				       sched_cfs_bandwidth_slice());
}

/*
 * __account_cfs_rq_runtime(), from update_curr() at every level
 * (account_cfs_rq_runtime() in sched.h): dock the time run; out of local
 * runtime, ask for a slice; none left: reschedule, so that put_prev / pick
 * throttle the queue.
 */
void __account_cfs_rq_runtime(struct model *m, struct cfs_rq *cfs_rq, u64 delta_exec)
{
	cfs_rq->runtime_remaining -= (s64)delta_exec;
	if (cfs_rq->runtime_remaining > 0)
		return;
	if (cfs_rq->throttled)
		return;
	if (!assign_cfs_rq_runtime(m, cfs_rq) && cfs_rq->curr)
		resched_curr(m, rq_of(cfs_rq));
}

/* ---- throttling -------------------------------------------------------- */

/*
 * walk_tg_tree_from(): @down before a group's children, @up after them;
 * children newest first (tg->children is built with list_add_rcu()).
 */
static void walk_tg_tree_from(struct task_group *tg, int cpu,
			      void (*down)(struct model *, struct cfs_rq *),
			      void (*up)(struct model *, struct cfs_rq *), struct model *m)
{
	struct task_group *c;

	if (down)
		down(m, tg->cfs_rq[cpu]);
	for (c = tg->children; c; c = c->sibling)
		walk_tg_tree_from(c, cpu, down, up, m);
	if (up)
		up(m, tg->cfs_rq[cpu]);
}

/*
 * tg_throttle_down() before 6.18, at throttle_count 0 -> 1: the subtree
 * leaves the hierarchy with the throttled queue, so every queue in it stops
 * its PELT clock now, queued entities or not (cfs_rq_clock_pelt() tests
 * throttle_count in 6.1/6.12 pelt.h; the model's pelt_clock_throttled is
 * then exactly throttle_count != 0), and leaves the leaf list
 * (update_blocked_averages() does not decay it).  6.5+: a queue with
 * entities starts its own throttled-time clock (throttled_clock_self, ns of
 * rq clock).
 */
static void tg_throttle_down_pre618(struct model *m, struct cfs_rq *cfs_rq)
{
	struct rq *rq = rq_of(cfs_rq);

	cfs_rq->throttled_clock_pelt = rq->clock_pelt;
	cfs_rq->pelt_clock_throttled = true;
	list_del_leaf_cfs_rq(cfs_rq);
	if (sched_feat(m, THROTTLED_TIME_NONEMPTY) && cfs_rq->nr_running)
		cfs_rq->throttled_clock_self = rq->clock;
}

/*
 * tg_throttle_down(): one more throttled queue above (or at) this one.  A
 * queue with nothing queued stops its PELT clock now and leaves the leaf
 * list; one with entities does so when the last leaves (dequeue_entity()).
 */
static void tg_throttle_down(struct model *m, struct cfs_rq *cfs_rq)
{
	if (cfs_rq->throttle_count++)
		return;
	if (!sched_feat(m, TASK_BASED_THROTTLE)) {
		tg_throttle_down_pre618(m, cfs_rq);
		return;
	}
	if (!cfs_rq->nr_running) {
		list_del_leaf_cfs_rq(cfs_rq);
		cfs_rq->throttled_clock_pelt = rq_of(cfs_rq)->clock_pelt;
		cfs_rq->pelt_clock_throttled = true;
	}
}

/*
 * record_throttle_clock(): 6.18, a task of a throttled hierarchy left
 * (dequeue_entities()); 6.5/6.12, a queue of a throttled hierarchy got its
 * first entity (enqueue_entity()): cpu.stat's throttled time, and the
 * queue's own, start now (rq clock, ns).
 */
void record_throttle_clock(struct cfs_rq *cfs_rq)
{
	u64 clock = rq_of(cfs_rq)->clock;

	if (cfs_rq->throttled && !cfs_rq->throttled_clock)
		cfs_rq->throttled_clock = clock;
	if (!cfs_rq->throttled_clock_self)
		cfs_rq->throttled_clock_self = clock;
}

/* dequeue_entity(): the last entity of a queue in a throttled hierarchy left. */
void throttled_cfs_rq_emptied(struct model *m, struct cfs_rq *cfs_rq)
{
	if (!throttled_hierarchy(m, cfs_rq))
		return;
	list_del_leaf_cfs_rq(cfs_rq);
	cfs_rq->throttled_clock_pelt = rq_of(cfs_rq)->clock_pelt;
	cfs_rq->pelt_clock_throttled = true;
}

/* enqueue_entity(): the first entity came: the PELT clock runs again. */
void throttled_cfs_rq_filled(struct cfs_rq *cfs_rq)
{
	if (!cfs_rq->pelt_clock_throttled)
		return;
	cfs_rq->throttled_clock_pelt_time += rq_of(cfs_rq)->clock_pelt -
					     cfs_rq->throttled_clock_pelt;
	cfs_rq->pelt_clock_throttled = false;
}

static void throttled_list_add_tail(struct cfs_bandwidth *cfs_b, struct cfs_rq *cfs_rq)
{
	cfs_rq->throttled_next = NULL;
	cfs_rq->throttled_prev = cfs_b->throttled_tail;
	if (cfs_b->throttled_tail)
		cfs_b->throttled_tail->throttled_next = cfs_rq;
	else
		cfs_b->throttled_head = cfs_rq;
	cfs_b->throttled_tail = cfs_rq;
}

static void throttled_list_del(struct cfs_bandwidth *cfs_b, struct cfs_rq *cfs_rq)
{
	if (cfs_rq->throttled_prev)
		cfs_rq->throttled_prev->throttled_next = cfs_rq->throttled_next;
	else
		cfs_b->throttled_head = cfs_rq->throttled_next;
	if (cfs_rq->throttled_next)
		cfs_rq->throttled_next->throttled_prev = cfs_rq->throttled_prev;
	else
		cfs_b->throttled_tail = cfs_rq->throttled_prev;
	cfs_rq->throttled_prev = cfs_rq->throttled_next = NULL;
}

/* the hierarchical counts a throttled queue takes off (or puts back on) the levels above */
struct h_nr_delta {
	unsigned int queued, runnable, idle, delayed;
};

static struct h_nr_delta h_nr_delta_of(const struct cfs_rq *cfs_rq)
{
	struct h_nr_delta d = {
		.queued = cfs_rq->h_nr_queued, .runnable = cfs_rq->h_nr_runnable,
		.idle = cfs_rq->idle_h_nr_running, .delayed = cfs_rq->h_nr_delayed,
	};
	return d;
}

static void h_nr_sub(struct cfs_rq *qcfs_rq, const struct h_nr_delta *d)
{
	qcfs_rq->h_nr_queued -= d->queued;
	qcfs_rq->h_nr_runnable -= d->runnable;
	qcfs_rq->idle_h_nr_running -= d->idle;
	qcfs_rq->h_nr_delayed -= d->delayed;
}

static void h_nr_add(struct cfs_rq *qcfs_rq, const struct h_nr_delta *d)
{
	qcfs_rq->h_nr_queued += d->queued;
	qcfs_rq->h_nr_runnable += d->runnable;
	qcfs_rq->idle_h_nr_running += d->idle;
	qcfs_rq->h_nr_delayed += d->delayed;
}

/*
 * The dequeue half of throttle_cfs_rq() before 6.18 (6.1.192 and 6.12.117
 * fair.c): the queue's group entity is dequeued as a sleeper, and each
 * ancestor's entity while the queue it leaves is empty (loop 1); the levels
 * above get their load and runnable refreshed (update_load_avg() without
 * UPDATE_TG, so no tg->load_avg write; loop 2).  Every level loses the
 * queue's h_nr_queued (the kernel's h_nr_running in 6.1/6.5), h_nr_runnable
 * and h_nr_delayed (6.12.117 has both), idle_h_nr_running; the rq its
 * h_nr_queued tasks (sub_nr_running()).  An entity already off its queue
 * (throttled on deactivation: the dequeue that emptied the queue came
 * first) ends the walk: the levels above never counted the queue.
 *
 * 6.12 passes DEQUEUE_SPECIAL so that the entity is not delayed
 * (DELAY_DEQUEUE), and DEQUEUE_DELAYED for one that already is, finishing
 * its delayed dequeue; 6.1/6.5 pass DEQUEUE_SLEEP alone, the same thing
 * without delayed entities.  The kernel's cfs_rq_is_idle() promotion of
 * idle_h_nr_running is left out, as in the model's enqueue/dequeue paths
 * (the model has no SCHED_IDLE groups).
 */
static void throttle_cfs_rq_pre618(struct model *m, struct cfs_rq *cfs_rq)
{
	struct rq *rq = rq_of(cfs_rq);
	struct sched_entity *se = cfs_rq->se;
	struct h_nr_delta d = h_nr_delta_of(cfs_rq);

	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);
		int flags = DEQUEUE_SLEEP | DEQUEUE_SPECIAL;

		if (!se->on_rq)
			goto done;
		if (se->sched_delayed)
			flags |= DEQUEUE_DELAYED;
		dequeue_entity(m, qcfs_rq, se, flags);
		h_nr_sub(qcfs_rq, &d);
		if (qcfs_rq->load.weight) {
			se = se->parent;
			break;
		}
	}
	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		if (!se->on_rq)
			goto done;
		update_load_avg(m, qcfs_rq, se, 0);
		se_update_runnable(se);
		h_nr_sub(qcfs_rq, &d);
	}
	sub_nr_running(m, rq, d.queued);
done:
	/*
	 * cpu.stat's throttled time starts now; 6.5+ only if the queue has
	 * entities (an empty one starts it at its first enqueue:
	 * record_throttle_clock() from enqueue_entity()).
	 */
	if (!sched_feat(m, THROTTLED_TIME_NONEMPTY) || cfs_rq->nr_running)
		cfs_rq->throttled_clock = rq->clock;
}

/*
 * throttle_cfs_rq(): ask for 1 ns first (the pool may have been refilled
 * since the queue ran dry); if there is none, the queue goes on the pool's
 * throttled list and its subtree counts it (tg_throttle_down()).  6.18: no
 * entity is dequeued here; before: the group entity is
 * (throttle_cfs_rq_pre618()).  Returns whether it throttled.
 */
bool throttle_cfs_rq(struct model *m, struct cfs_rq *cfs_rq)
{
	struct cfs_bandwidth *cfs_b = tg_cfs_bandwidth(cfs_rq->tg);

	if (__assign_cfs_rq_runtime(m, cfs_b, cfs_rq, 1))
		return false;
	throttled_list_add_tail(cfs_b, cfs_rq);
	walk_tg_tree_from(cfs_rq->tg, rq_of(cfs_rq)->cpu, tg_throttle_down, NULL, m);
	if (!sched_feat(m, TASK_BASED_THROTTLE))
		throttle_cfs_rq_pre618(m, cfs_rq);
	cfs_rq->throttled = 1;
	BW_COUNT(m, throttle_cfs_rq);
	return true;
}

/*
 * check_enqueue_throttle(), from enqueue_entity() when a queue gets its
 * first entity: a group waking with its quota spent is throttled at once
 * (update_curr() cannot, it has no curr).
 */
void check_enqueue_throttle(struct model *m, struct cfs_rq *cfs_rq)
{
	if (!cfs_bandwidth_used(m))
		return;
	if (!cfs_rq->runtime_enabled || cfs_rq->curr)
		return;
	if (cfs_rq_throttled(m, cfs_rq))
		return;
	account_cfs_rq_runtime(m, cfs_rq, 0);
	if (cfs_rq->runtime_remaining <= 0)
		throttle_cfs_rq(m, cfs_rq);
}

/* ---- the throttled tasks (6.18) ---------------------------------------- */

static void limbo_add(struct cfs_rq *cfs_rq, struct model_task *p)
{
	rq_of(cfs_rq)->model->nr_throttled_tasks++;
	p->limbo_prev = NULL;
	p->limbo_next = cfs_rq->limbo_head;
	if (cfs_rq->limbo_head)
		cfs_rq->limbo_head->limbo_prev = p;
	cfs_rq->limbo_head = p;
}

static void limbo_del(struct model_task *p)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);

	rq_of(cfs_rq)->model->nr_throttled_tasks--;
	if (p->limbo_prev)
		p->limbo_prev->limbo_next = p->limbo_next;
	else if (cfs_rq->limbo_head == p)
		cfs_rq->limbo_head = p->limbo_next;
	if (p->limbo_next)
		p->limbo_next->limbo_prev = p->limbo_prev;
	p->limbo_prev = p->limbo_next = NULL;
}

/*
 * task_throttle_setup_work(): the task picked from a throttled hierarchy
 * will be dequeued on its way back to user space.  Not for an exiting task
 * (no return to user space).  The model runs the work at the task's next
 * __schedule() and asks for that at once: the caller sets need_resched.
 */
void task_throttle_setup_work(struct model *m, struct model_task *p)
{
	(void)m;
	if (p->throttle_work || p->exiting)
		return;
	p->throttle_work = true;
}

/*
 * throttle_cfs_rq_work(): the task is still in a throttled hierarchy (else
 * the period timer was quicker, or it moved): dequeue it (DEQUEUE_THROTTLE:
 * never delayed) onto its queue's limbo list.  p->on_rq stays queued: the
 * core still sees a runnable task; only the fair class has let go of it.
 */
void throttle_cfs_rq_work(struct model *m, struct model_task *p)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);

	p->throttle_work = false;
	if (p->exiting || !cfs_rq->throttle_count || p->throttled || !p->se.on_rq)
		return;
	dequeue_task_fair(m, &m->rqs[p->cpu], p, DEQUEUE_SLEEP | DEQUEUE_THROTTLE);
	limbo_add(cfs_rq, p);
	p->throttled = true;
	BW_COUNT(m, throttle_cfs_rq_work);
	resched_curr(m, &m->rqs[p->cpu]);
}

/*
 * dequeue_throttled_task(): a limbo task is dequeued again (group change,
 * nice, migration): off the list; migrating, its load leaves the old queue.
 */
void dequeue_throttled_task(struct model *m, struct model_task *p, int flags)
{
	limbo_del(p);
	if (flags & DEQUEUE_SLEEP) {
		p->throttled = false;
		return;
	}
	if (task_on_rq_migrating(p))
		detach_entity_cfs_rq(m, &p->se);
}

/*
 * enqueue_throttled_task(): a limbo task enqueued into a throttled
 * hierarchy goes straight to that queue's limbo list (true); anywhere else
 * it is enqueued for real (false).
 */
bool enqueue_throttled_task(struct model *m, struct model_task *p)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);

	if (throttled_hierarchy(m, cfs_rq) && m->rqs[p->cpu].curr != p) {
		limbo_add(cfs_rq, p);
		return true;
	}
	p->throttled = false;
	return false;
}

/* ---- unthrottling ----------------------------------------------------- */

/*
 * tg_unthrottle_up(): one throttled queue fewer above; at zero the PELT
 * clock runs again (the throttled time is cut out of cfs_rq_clock_pelt())
 * and the limbo tasks are enqueued again, newest first (list_add()).
 */
static void tg_unthrottle_up(struct model *m, struct cfs_rq *cfs_rq)
{
	struct rq *rq = rq_of(cfs_rq);
	struct model_task *p;

	if (--cfs_rq->throttle_count)
		return;
	throttled_cfs_rq_filled(cfs_rq);
	if (cfs_rq->throttled_clock_self) {
		cfs_rq->throttled_clock_self_time += rq->clock - cfs_rq->throttled_clock_self;
		cfs_rq->throttled_clock_self = 0;
	}
	while ((p = cfs_rq->limbo_head)) {
		limbo_del(p);
		p->throttled = false;
		enqueue_task_fair(m, rq, p, ENQUEUE_WAKEUP);
	}
	/* !cfs_rq_is_decayed(): something queued or left to decay */
	if (cfs_rq->load.weight || !load_avg_is_decayed(&cfs_rq->avg))
		list_add_leaf_cfs_rq(cfs_rq);
}

/*
 * The enqueue half of unthrottle_cfs_rq() before 6.18, after the subtree's
 * throttle_count went down (tg_unthrottle_up(), which also restarted the
 * PELT clocks: the throttled time, in rq_clock_pelt() ns, is added to
 * throttled_clock_pelt_time and so cut out of cfs_rq_clock_pelt()).
 *
 * An empty queue has no entity to enqueue; if it is on the leaf list (load
 * left to decay) its branch is completed.  Otherwise its group entity is
 * enqueued as a wakeup (ENQUEUE_WAKEUP: CFS places it with the sleeper
 * credit, EEVDF with its lag), and each ancestor's entity that is not queued
 * (loop 1); 6.12 first finishes the delayed dequeue of an entity still
 * delayed.  Every level gets the queue's h_nr_* counts back; the walk ends
 * at a queue that is itself throttled (its own group entity stays off, and
 * the levels above it never see the tasks: no add_nr_running()).  The
 * levels above the enqueued ones are refreshed with UPDATE_TG (loop 2).
 * Returns false when the kernel returns before its idle-CPU resched check
 * (the empty queue that is off the leaf list).
 */
static bool unthrottle_cfs_rq_pre618(struct model *m, struct cfs_rq *cfs_rq)
{
	struct rq *rq = rq_of(cfs_rq);
	struct sched_entity *se = cfs_rq->se;
	struct h_nr_delta d;

	if (!cfs_rq->load.weight) {
		if (!cfs_rq->on_list)
			return false;
		/* the model's list_add_leaf_cfs_rq() adds the missing ancestors itself */
		list_add_leaf_cfs_rq(cfs_rq);
		return true;
	}
	d = h_nr_delta_of(cfs_rq);
	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		if (se->sched_delayed)
			dequeue_entity(m, qcfs_rq, se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
		else if (se->on_rq)
			break;
		enqueue_entity(m, qcfs_rq, se, ENQUEUE_WAKEUP);
		h_nr_add(qcfs_rq, &d);
		if (cfs_rq_throttled(m, qcfs_rq))
			return true;
	}
	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		update_load_avg(m, qcfs_rq, se, UPDATE_TG);
		se_update_runnable(se);
		h_nr_add(qcfs_rq, &d);
		if (cfs_rq_throttled(m, qcfs_rq))
			return true;
	}
	add_nr_running(m, rq, d.queued);
	return true;
}

/*
 * unthrottle_cfs_rq(): only with runtime; off the throttled list (its
 * throttled time into cpu.stat), the subtree counts down
 * (tg_unthrottle_up()); an idle CPU that now has tasks reschedules.
 */
static void unthrottle_cfs_rq(struct model *m, struct cfs_rq *cfs_rq, u64 now)
{
	struct rq *rq = rq_of(cfs_rq);
	struct cfs_bandwidth *cfs_b = tg_cfs_bandwidth(cfs_rq->tg);

	if (cfs_rq->runtime_enabled && cfs_rq->runtime_remaining <= 0)
		return;
	cfs_rq->throttled = 0;
	update_rq_clock(m, rq, now);
	if (cfs_rq->throttled_clock) {
		cfs_b->throttled_time += rq->clock - cfs_rq->throttled_clock;
		cfs_rq->throttled_clock = 0;
	}
	throttled_list_del(cfs_b, cfs_rq);
	BW_COUNT(m, unthrottle_cfs_rq);
	walk_tg_tree_from(cfs_rq->tg, rq->cpu, NULL, tg_unthrottle_up, m);
	if (!sched_feat(m, TASK_BASED_THROTTLE) && !unthrottle_cfs_rq_pre618(m, cfs_rq))
		return;
	if (!rq->curr && !rq->other_class && rq->cfs.nr_running)
		resched_curr(m, rq);
}

/*
 * distribute_cfs_runtime(): in throttle order, give each throttled queue
 * its deficit + 1 ns while the pool lasts, unthrottling those that then
 * have runtime.  Returns whether a queue is left throttled.
 */
static bool distribute_cfs_runtime(struct model *m, struct cfs_bandwidth *cfs_b, u64 now)
{
	struct cfs_rq *cfs_rq, *next;
	u64 runtime, remaining = 1;
	bool throttled = false;

	BW_COUNT(m, distribute_cfs_runtime);
	for (cfs_rq = cfs_b->throttled_head; cfs_rq; cfs_rq = next) {
		next = cfs_rq->throttled_next;
		if (!remaining) {
			throttled = true;
			break;
		}
		if (!cfs_rq->throttled)
			continue;
		runtime = (u64)(-cfs_rq->runtime_remaining) + 1;
		if (runtime > cfs_b->runtime)
			runtime = cfs_b->runtime;
		cfs_b->runtime -= runtime;
		remaining = cfs_b->runtime;
		cfs_rq->runtime_remaining += (s64)runtime;
		if (cfs_rq->runtime_remaining > 0)
			unthrottle_cfs_rq(m, cfs_rq, now);
		else
			throttled = true;
	}
	return throttled;
}

/*
 * do_sched_cfs_period_timer(): refill; a pool nobody drew from for a whole
 * period (idle) stops its timer (returns true) unless queues are throttled;
 * throttled queues get the new runtime.
 */
static bool do_sched_cfs_period_timer(struct model *m, struct cfs_bandwidth *cfs_b,
				      u64 overrun, u64 now)
{
	bool throttled;

	if (cfs_b->quota == RUNTIME_INF)
		return true;
	throttled = cfs_b->throttled_head != NULL;
	cfs_b->nr_periods += overrun;
	__refill_cfs_bandwidth_runtime(cfs_b);
	if (cfs_b->idle && !throttled)
		return true;
	if (!throttled) {
		cfs_b->idle = true;
		return false;
	}
	cfs_b->nr_throttled += overrun;
	while (throttled && cfs_b->runtime > 0)
		throttled = distribute_cfs_runtime(m, cfs_b, now);
	cfs_b->idle = false;
	return false;
}

/* sched_cfs_period_timer(): forward the expiry past now; stop when idle. */
static void sched_cfs_period_timer(struct model *m, struct cfs_bandwidth *cfs_b, u64 now)
{
	u64 overrun;
	bool idle = false;

	BW_COUNT(m, sched_cfs_period_timer);
	while ((overrun = hrtimer_forward(&cfs_b->period_expires, now, cfs_b->period)))
		idle = do_sched_cfs_period_timer(m, cfs_b, overrun, now);
	if (idle)
		cfs_b->period_active = false;
}

/* ---- slack ------------------------------------------------------------ */

/* runtime_refresh_within(): is the period timer due within @min_expire? */
static bool runtime_refresh_within(const struct cfs_bandwidth *cfs_b, u64 now, u64 min_expire)
{
	return (s64)(cfs_b->period_expires - now) < (s64)min_expire;
}

/* start_cfs_slack_bandwidth(): distribute returned slack in 5 ms, unless a refill comes first. */
static void start_cfs_slack_bandwidth(struct cfs_bandwidth *cfs_b, u64 now)
{
	if (runtime_refresh_within(cfs_b, now, cfs_bandwidth_slack_period +
				   min_bandwidth_expiration))
		return;
	if (cfs_b->slack_started)
		return;
	cfs_b->slack_started = true;
	cfs_b->slack_expires = now + cfs_bandwidth_slack_period;
}

/*
 * __return_cfs_rq_runtime(), from dequeue_entity() when a queue empties
 * (return_cfs_rq_runtime() in sched.h): all but 1 ms of its local runtime
 * goes back to the pool; if queues are throttled and the pool now holds more
 * than a slice, the slack timer will hand it out.
 */
void __return_cfs_rq_runtime(struct model *m, struct cfs_rq *cfs_rq)
{
	struct cfs_bandwidth *cfs_b;
	s64 slack_runtime;

	slack_runtime = cfs_rq->runtime_remaining - (s64)min_cfs_rq_runtime;
	if (slack_runtime <= 0)
		return;
	cfs_b = tg_cfs_bandwidth(cfs_rq->tg);
	if (cfs_b->quota != RUNTIME_INF) {
		cfs_b->runtime += (u64)slack_runtime;
		if (cfs_b->runtime > sched_cfs_bandwidth_slice() && cfs_b->throttled_head)
			start_cfs_slack_bandwidth(cfs_b, m->now);
	}
	cfs_rq->runtime_remaining -= slack_runtime;
	BW_COUNT(m, return_cfs_rq_runtime);
}

/* do_sched_cfs_slack_timer(): distribute the pool if no refill is within 2 ms. */
static void do_sched_cfs_slack_timer(struct model *m, struct cfs_bandwidth *cfs_b, u64 now)
{
	BW_COUNT(m, sched_cfs_slack_timer);
	cfs_b->slack_started = false;
	if (runtime_refresh_within(cfs_b, now, min_bandwidth_expiration))
		return;
	if (cfs_b->quota == RUNTIME_INF || cfs_b->runtime <= sched_cfs_bandwidth_slice())
		return;
	distribute_cfs_runtime(m, cfs_b, now);
}

/* ---- the caller's timer events ---------------------------------------- */

static void bw_timer_min(const struct task_group *tg, u64 *t)
{
	const struct cfs_bandwidth *cfs_b = &tg->cfs_bandwidth;

	if (cfs_b->period_active && cfs_b->period_expires < *t)
		*t = cfs_b->period_expires;
	if (cfs_b->slack_started && cfs_b->slack_expires < *t)
		*t = cfs_b->slack_expires;
}

/*
 * Tasks a throttle keeps from running: 6.18, those on limbo lists; before,
 * the sum of every throttled queue's h_nr_queued (a throttled queue below
 * another has its group entity off that one, so no task counts twice).
 */
unsigned int model_nr_throttled(const struct model *m)
{
	const struct task_group *tg;
	unsigned int cpu, n = 0;

	if (sched_feat(m, TASK_BASED_THROTTLE))
		return m->nr_throttled_tasks;
	if (!cfs_bandwidth_used(m))
		return 0;
	for (tg = m->groups; tg; tg = tg->next_alloc)
		for (cpu = 0; cpu < m->nr_cpus; cpu++) {
			const struct cfs_rq *cfs_rq = tg->cfs_rq[cpu];

			if (cfs_rq->throttled)
				n += cfs_rq->h_nr_queued;
		}
	return n;
}

uint64_t model_next_timer(const struct model *m)
{
	const struct task_group *tg;
	u64 t = UINT64_MAX;

	if (!cfs_bandwidth_used(m))
		return t;
	for (tg = m->groups; tg; tg = tg->next_alloc)
		bw_timer_min(tg, &t);
	return t;
}

/*
 * Run every bandwidth timer due at @now, earliest first (a slack timer and
 * a period timer of one group due together: the slack one first, as armed
 * earlier), until none is due.
 */
void model_run_timers(struct model *m, uint64_t now)
{
	struct task_group *tg;
	int guard = 0;
	u64 t;

	if (!cfs_bandwidth_used(m))
		return;
	model_advance_time(m, now);
	while ((t = model_next_timer(m)) <= now && ++guard < 1000000) {
		for (tg = m->groups; tg; tg = tg->next_alloc) {
			struct cfs_bandwidth *cfs_b = &tg->cfs_bandwidth;

			if (cfs_b->slack_started && cfs_b->slack_expires == t) {
				do_sched_cfs_slack_timer(m, cfs_b, now);
				break;
			}
			if (cfs_b->period_active && cfs_b->period_expires == t) {
				sched_cfs_period_timer(m, cfs_b, now);
				break;
			}
		}
	}
}

/* ---- configuration and queries ---------------------------------------- */

/*
 * tg_set_cfs_bandwidth(): new quota and period; the pool is refilled, the
 * period timer started on its grid, every queue's local runtime reset (and
 * a throttled one unthrottled).
 */
int model_group_set_bandwidth(struct model *m, struct model_group *g, uint64_t quota_ns,
			      uint64_t period_ns, uint64_t timer_phase_ns, uint64_t now,
			      struct sr_error *err)
{
	struct task_group *tg = (struct task_group *)g;
	struct cfs_bandwidth *cfs_b;
	bool enabled = quota_ns != 0, was;
	unsigned int cpu;

	if (!tg || tg == &m->root_task_group) {
		sr_error_set(err, 22, "model: the root group has no bandwidth limit");
		return -1;
	}
	if (period_ns < NSEC_PER_MSEC || period_ns > 1000 * NSEC_PER_MSEC) {
		sr_error_set(err, 22, "model: group %s: period %llu ns outside 1 ms..1 s", tg->name,
			     (unsigned long long)period_ns);
		return -1;
	}
	if (enabled && quota_ns < NSEC_PER_MSEC) {
		sr_error_set(err, 22, "model: group %s: quota %llu ns below 1 ms", tg->name,
			     (unsigned long long)quota_ns);
		return -1;
	}
	cfs_b = tg_cfs_bandwidth(tg);
	was = cfs_b->quota != RUNTIME_INF;
	model_advance_time(m, now);
	if (enabled && !was)
		m->cfs_bandwidth_used++;      /* cfs_bandwidth_usage_inc() */
	if (!cfs_b->period_active)
		cfs_b->period_expires = timer_phase_ns % period_ns;
	cfs_b->period = period_ns;
	cfs_b->quota = enabled ? quota_ns : RUNTIME_INF;
	cfs_b->burst = 0;
	__refill_cfs_bandwidth_runtime(cfs_b);
	if (enabled)
		start_cfs_bandwidth(m, cfs_b);
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct cfs_rq *cfs_rq = tg->cfs_rq[cpu];

		update_rq_clock(m, &m->rqs[cpu], now);
		cfs_rq->runtime_enabled = enabled;
		cfs_rq->runtime_remaining = 0;
		if (cfs_rq->throttled)
			unthrottle_cfs_rq(m, cfs_rq, now);
	}
	if (!enabled && was)
		m->cfs_bandwidth_used--;      /* cfs_bandwidth_usage_dec() */
	return 0;
}

int model_group_bandwidth(const struct model_group *g, struct model_bandwidth_info *out)
{
	const struct task_group *tg = (const struct task_group *)g;
	const struct cfs_bandwidth *cfs_b;

	memset(out, 0, sizeof(*out));
	if (!tg || !tg->parent)
		return -1;
	cfs_b = &tg->cfs_bandwidth;
	out->quota_ns = cfs_b->quota == RUNTIME_INF ? 0 : cfs_b->quota;
	out->period_ns = cfs_b->period;
	out->runtime_ns = cfs_b->runtime;
	out->period_active = cfs_b->period_active;
	out->period_expires = cfs_b->period_expires;
	out->nr_periods = cfs_b->nr_periods;
	out->nr_throttled = cfs_b->nr_throttled;
	out->throttled_time_ns = cfs_b->throttled_time;
	return 0;
}

int model_group_cfs_rq_info(const struct model *m, const struct model_group *g, int cpu,
			    struct model_cfs_rq_info *out)
{
	const struct task_group *tg = (const struct task_group *)g;
	const struct cfs_rq *cfs_rq;

	memset(out, 0, sizeof(*out));
	if (!tg || cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return -1;
	cfs_rq = tg->cfs_rq[cpu];
	out->nr_running = cfs_rq->nr_running;
	out->h_nr_queued = cfs_rq->h_nr_queued;
	out->load_weight = cfs_rq->load.weight;
	out->runtime_remaining = cfs_rq->runtime_remaining;
	out->runtime_enabled = cfs_rq->runtime_enabled;
	out->throttled = cfs_rq->throttled;
	out->on_list = cfs_rq->on_list;
	out->pelt_clock_throttled = cfs_rq->pelt_clock_throttled;
	out->throttle_count = cfs_rq->throttle_count;
	out->group_se_queued = cfs_rq->se && cfs_rq->se->on_rq;
	return 0;
}
