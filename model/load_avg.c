// SPDX-License-Identifier: GPL-2.0
/*
 * Load tracking of entities and cfs_rqs (kernel/sched/fair.c, the
 * CONFIG_SMP PELT part: update_load_avg(), update_cfs_rq_load_avg(),
 * attach/detach/remove_entity_load_avg(), propagate_entity_load_avg() and
 * update_tg_cfs_{util,runnable,load}(); kernel/sched/pelt.c
 * __update_load_avg_{se,blocked_se,cfs_rq}()).
 *
 * A cfs_rq's sums are the sums of its entities' (runnable and blocked): an
 * entity's load stays in its cfs_rq while it sleeps and decays there; it
 * leaves by detach (queued migration, cgroup move) or by "removal" (wakeup
 * migration, exit), which is recorded in cfs_rq->removed and subtracted at
 * that cfs_rq's next update, because the waker does not hold its lock.
 *
 * A group entity's load is derived from its group cfs_rq: attach, detach and
 * removal below it are propagated up one level at a time
 * (add_tg_cfs_propagate() -> propagate_entity_load_avg()).
 *
 * Kernel quirks kept for exactness: the "sum >= avg * PELT_MIN_DIVIDER"
 * re-clamps are done in u32 (max_t(u32, ...)) even for 64-bit sums.
 */
#include "sched.h"

static inline u32 pelt_divider(const struct model *m, const struct sched_avg *sa)
{
	return get_pelt_divider_model(sa, vflag(m, V48_ATTACH));
}

/*
 * cfs_rq_clock_pelt(): no capacity or frequency invariance, so PELT time is
 * the rq's task clock, less the time the queue spent throttled and empty
 * (6.18: its clock stops then, pelt_clock_throttled).
 */
u64 cfs_rq_clock_pelt(const struct cfs_rq *cfs_rq)
{
	if (cfs_rq->pelt_clock_throttled)
		return cfs_rq->throttled_clock_pelt - cfs_rq->throttled_clock_pelt_time;
	return cfs_rq->rq->clock_pelt - cfs_rq->throttled_clock_pelt_time;
}

/* Unsigned subtract clamped at 0 (sub_positive()). */
#define sub_positive(ptr, val) do {                         \
	__typeof__(*(ptr)) _val = (val), _var = *(ptr), _res; \
	_res = _var - _val;                                   \
	if (_res > _var)                                      \
		_res = 0;                                     \
	*(ptr) = _res;                                        \
} while (0)

/* Signed add clamped at 0 on underflow (add_positive()). */
#define add_positive(ptr, val) do {                         \
	__typeof__(*(ptr)) _var = *(ptr), _res;               \
	long long _val = (val);                               \
	_res = _var + (__typeof__(*(ptr)))_val;               \
	if (_val < 0 && _res > _var)                          \
		_res = 0;                                     \
	*(ptr) = _res;                                        \
} while (0)

static inline u64 max_u32_clamp(u64 sum, u64 floor)
{
	/* max_t(u32, sum, floor): both truncated to 32 bits, as the kernel */
	u32 a = (u32)sum, b = (u32)floor;

	return a > b ? a : b;
}

bool load_avg_is_decayed(const struct sched_avg *sa)
{
	return !sa->load_sum && !sa->util_sum && !sa->runnable_sum;
}

/* se_update_runnable(): a group entity is as runnable as its queue. */
void se_update_runnable(struct sched_entity *se)
{
	struct model *m;

	if (entity_is_task(se))
		return;
	m = model_of(se->my_q);
	if (sched_feat(m, RUNNABLE_EXCL_DELAYED))
		se->runnable_weight = (long)(se->my_q->h_nr_queued - se->my_q->h_nr_delayed);
	else
		se->runnable_weight = (long)se->my_q->h_nr_queued;
}

/* __update_load_avg_blocked_se(): age an entity that is not queued. */
static int __update_load_avg_blocked_se(struct model *m, u64 now, struct sched_entity *se)
{
	if (___update_load_sum(now, &se->avg, 0, 0, 0)) {
		___update_load_avg_div(&se->avg, se_weight(se), pelt_divider(m, &se->avg));
		return 1;
	}
	return 0;
}

/*
 * __update_load_avg_se(): load = queued (a delayed entity is still queued),
 * runnable = se_runnable() (0 while delayed), running = is cfs_rq->curr.
 */
static int __update_load_avg_se(struct model *m, u64 now, struct cfs_rq *cfs_rq,
				struct sched_entity *se)
{
	if (___update_load_sum(now, &se->avg, !!se->on_rq, (unsigned long)se_runnable(se),
			       cfs_rq->curr == se)) {
		___update_load_avg_div(&se->avg, se_weight(se), pelt_divider(m, &se->avg));
		return 1;
	}
	return 0;
}

/*
 * __update_load_avg_cfs_rq(): load = the queue's scaled-down weight,
 * runnable = runnable tasks below (6.12.y excludes delayed ones), running =
 * the queue has a curr.  The average uses weight 1: load_sum is already
 * weighted.
 */
static int __update_load_avg_cfs_rq(struct model *m, u64 now, struct cfs_rq *cfs_rq)
{
	unsigned long runnable = cfs_rq->h_nr_queued;

	if (sched_feat(m, RUNNABLE_EXCL_DELAYED))
		runnable = cfs_rq->h_nr_queued - cfs_rq->h_nr_delayed;
	if (___update_load_sum(now, &cfs_rq->avg, scale_load_down(cfs_rq->load.weight),
			       runnable, cfs_rq->curr != NULL)) {
		___update_load_avg_div(&cfs_rq->avg, 1, pelt_divider(m, &cfs_rq->avg));
		return 1;
	}
	return 0;
}

/*
 * add_tg_cfs_propagate(): a change of @runnable_sum (unweighted load_sum
 * units) below this cfs_rq must reach its group entity.  With the aaron-delay
 * variant a pending removed sum is folded in here, at the next real change.
 */
static void add_tg_cfs_propagate(struct model *m, struct cfs_rq *cfs_rq, long runnable_sum)
{
	if (vflag(m, DELAY_REMOVED_LOAD) && cfs_rq->prop_removed_sum) {
		runnable_sum += cfs_rq->prop_removed_sum;
		cfs_rq->prop_removed_sum = 0;
	}
	cfs_rq->propagate = 1;
	cfs_rq->prop_runnable_sum += runnable_sum;
}

/* aaron-delay: __update_blocked_fair() folds a pending removed sum. */
void fold_removed_propagate(struct model *m, struct cfs_rq *cfs_rq)
{
	if (cfs_rq->prop_removed_sum)
		add_tg_cfs_propagate(m, cfs_rq, 0);
}

/*
 * update_cfs_rq_load_avg(): apply pending removals, then age the cfs_rq.
 * Returns "decayed": the load changed, so tg->load_avg may need an update.
 */
int update_cfs_rq_load_avg(struct model *m, u64 now, struct cfs_rq *cfs_rq)
{
	unsigned long removed_load, removed_util, removed_runnable;
	struct sched_avg *sa = &cfs_rq->avg;
	int decayed = 0;

	if (cfs_rq->removed.nr) {
		unsigned long r;
		u32 divider = pelt_divider(m, &cfs_rq->avg);
		long prop;

		removed_util = cfs_rq->removed.util_avg;
		removed_load = cfs_rq->removed.load_avg;
		removed_runnable = cfs_rq->removed.runnable_avg;
		cfs_rq->removed.util_avg = 0;
		cfs_rq->removed.load_avg = 0;
		cfs_rq->removed.runnable_avg = 0;
		cfs_rq->removed.nr = 0;

		r = removed_load;
		sub_positive(&sa->load_avg, r);
		sub_positive(&sa->load_sum, (u64)r * divider);
		sa->load_sum = max_u32_clamp(sa->load_sum, (u64)sa->load_avg * PELT_MIN_DIVIDER);

		r = removed_util;
		sub_positive(&sa->util_avg, r);
		sub_positive(&sa->util_sum, (u32)(r * divider));
		sa->util_sum = (u32)max_u32_clamp(sa->util_sum, (u64)sa->util_avg * PELT_MIN_DIVIDER);

		r = removed_runnable;
		sub_positive(&sa->runnable_avg, r);
		sub_positive(&sa->runnable_sum, (u64)r * divider);
		sa->runnable_sum = max_u32_clamp(sa->runnable_sum,
						 (u64)sa->runnable_avg * PELT_MIN_DIVIDER);

		/* removed_runnable is the unweighted removed load: estimate the
		 * removed load_sum from it */
		prop = -(long)(removed_runnable * divider) >> SCHED_CAPACITY_SHIFT;
		if (vflag(m, DELAY_REMOVED_LOAD)) {
			/* RFC 3/4: wait for the next propagation, don't "decay" */
			cfs_rq->prop_removed_sum += prop;
		} else {
			add_tg_cfs_propagate(m, cfs_rq, prop);
			decayed = 1;
		}
	}

	decayed |= __update_load_avg_cfs_rq(m, now, cfs_rq);
	return decayed;
}

/*
 * update_tg_cfs_util() / update_tg_cfs_runnable(): a group entity's util and
 * runnable simply mirror its group cfs_rq; the parent gets the difference.
 * The divider is the parent's: entity and queue share a period position.
 */
static void update_tg_cfs_util(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
			       struct cfs_rq *gcfs_rq)
{
	long delta_sum, delta_avg = (long)(gcfs_rq->avg.util_avg - se->avg.util_avg);
	u32 new_sum, divider;

	if (!delta_avg)
		return;
	divider = pelt_divider(m, &cfs_rq->avg);
	se->avg.util_avg = gcfs_rq->avg.util_avg;
	new_sum = (u32)(se->avg.util_avg * divider);
	delta_sum = (long)new_sum - (long)se->avg.util_sum;
	se->avg.util_sum = new_sum;

	add_positive(&cfs_rq->avg.util_avg, delta_avg);
	add_positive(&cfs_rq->avg.util_sum, delta_sum);
	cfs_rq->avg.util_sum = (u32)max_u32_clamp(cfs_rq->avg.util_sum,
						  (u64)cfs_rq->avg.util_avg * PELT_MIN_DIVIDER);
}

static void update_tg_cfs_runnable(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
				   struct cfs_rq *gcfs_rq)
{
	long delta_sum, delta_avg = (long)(gcfs_rq->avg.runnable_avg - se->avg.runnable_avg);
	u64 new_sum;
	u32 divider;

	if (!delta_avg)
		return;
	divider = pelt_divider(m, &cfs_rq->avg);
	se->avg.runnable_avg = gcfs_rq->avg.runnable_avg;
	new_sum = (u64)se->avg.runnable_avg * divider;
	delta_sum = (long)new_sum - (long)se->avg.runnable_sum;
	se->avg.runnable_sum = new_sum;

	add_positive(&cfs_rq->avg.runnable_avg, delta_avg);
	add_positive(&cfs_rq->avg.runnable_sum, delta_sum);
	cfs_rq->avg.runnable_sum = max_u32_clamp(cfs_rq->avg.runnable_sum,
						 (u64)cfs_rq->avg.runnable_avg * PELT_MIN_DIVIDER);
}

/*
 * update_tg_cfs_load(): the group entity's load_sum follows the propagated
 * change of its queue's runnable sum.  Added load: clip at the divider
 * (runnable can't exceed always).  Removed load: estimate the queue's
 * remaining unweighted sum as load_sum / weight, assuming all tasks were
 * equally runnable, without inflating the entity.  Never below its running
 * sum.  The weight applied is the entity's current one.
 */
static void update_tg_cfs_load(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
			       struct cfs_rq *gcfs_rq)
{
	long delta_avg, running_sum, runnable_sum = gcfs_rq->prop_runnable_sum;
	unsigned long load_avg;
	u64 load_sum = 0;
	s64 delta_sum;
	u32 divider;

	if (!runnable_sum)
		return;
	gcfs_rq->prop_runnable_sum = 0;
	divider = pelt_divider(m, &cfs_rq->avg);

	if (runnable_sum >= 0) {
		runnable_sum += (long)se->avg.load_sum;
		if (runnable_sum > (long)divider)
			runnable_sum = (long)divider;
	} else {
		if (scale_load_down(gcfs_rq->load.weight))
			load_sum = gcfs_rq->avg.load_sum / scale_load_down(gcfs_rq->load.weight);
		runnable_sum = (long)min_u64(se->avg.load_sum, load_sum);
	}

	running_sum = (long)(se->avg.util_sum >> SCHED_CAPACITY_SHIFT);
	if (running_sum > runnable_sum)
		runnable_sum = running_sum;

	load_sum = se_weight(se) * (u64)runnable_sum;
	load_avg = (unsigned long)(load_sum / divider);

	delta_avg = (long)(load_avg - se->avg.load_avg);
	if (!delta_avg)
		return;
	delta_sum = (s64)load_sum - (s64)se_weight(se) * (s64)se->avg.load_sum;

	se->avg.load_sum = (u64)runnable_sum;
	se->avg.load_avg = load_avg;
	add_positive(&cfs_rq->avg.load_avg, delta_avg);
	add_positive(&cfs_rq->avg.load_sum, delta_sum);
	cfs_rq->avg.load_sum = max_u32_clamp(cfs_rq->avg.load_sum,
					     (u64)cfs_rq->avg.load_avg * PELT_MIN_DIVIDER);
}

/* propagate_entity_load_avg(): pull a pending change of the group's queue
 * into the group entity and pass it on to the parent.  1 if it did. */
static int propagate_entity_load_avg(struct model *m, struct sched_entity *se)
{
	struct cfs_rq *cfs_rq, *gcfs_rq;

	COUNT(m, propagate_entity_load_avg_entries);
	if (entity_is_task(se))
		return 0;
	COUNT(m, propagate_entity_load_avg_calls);
	gcfs_rq = group_cfs_rq(se);
	if (!gcfs_rq->propagate)
		return 0;
	gcfs_rq->propagate = 0;
	COUNT(m, propagate_entity_load_avg);

	cfs_rq = cfs_rq_of(se);
	add_tg_cfs_propagate(m, cfs_rq, gcfs_rq->prop_runnable_sum);

	update_tg_cfs_util(m, cfs_rq, se, gcfs_rq);
	update_tg_cfs_runnable(m, cfs_rq, se, gcfs_rq);
	update_tg_cfs_load(m, cfs_rq, se, gcfs_rq);
	return 1;
}

/* skip_blocked_update(): a group entity with nothing to decay or propagate. */
bool skip_blocked_update(struct sched_entity *se)
{
	struct cfs_rq *gcfs_rq = group_cfs_rq(se);

	if (se->avg.load_avg || se->avg.util_avg)
		return false;
	if (gcfs_rq->propagate)
		return false;
	return true;
}

void enqueue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	cfs_rq->avg.load_avg += se->avg.load_avg;
	cfs_rq->avg.load_sum += se_weight(se) * se->avg.load_sum;
}

void dequeue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	sub_positive(&cfs_rq->avg.load_avg, se->avg.load_avg);
	sub_positive(&cfs_rq->avg.load_sum, se_weight(se) * se->avg.load_sum);
	cfs_rq->avg.load_sum = max_u32_clamp(cfs_rq->avg.load_sum,
					     (u64)cfs_rq->avg.load_avg * PELT_MIN_DIVIDER);
}

/*
 * attach_entity_load_avg(): join @cfs_rq's sums.  The entity adopts the
 * queue's period position (otherwise the two would decay at different
 * boundaries) and its sums are rebuilt from its averages for that position;
 * the unweighted load_sum is load_avg * divider / w (at least 1).
 *
 * v4.8 (MODEL_V_V48_ATTACH): no alignment, sums kept as they are.
 */
void attach_entity_load_avg(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u32 divider = pelt_divider(m, &cfs_rq->avg);

	COUNT(m, attach_entity_load_avg);
	if (!vflag(m, V48_ATTACH)) {
		se->avg.last_update_time = cfs_rq->avg.last_update_time;
		se->avg.period_contrib = cfs_rq->avg.period_contrib;

		se->avg.util_sum = (u32)(se->avg.util_avg * divider);
		se->avg.runnable_sum = (u64)se->avg.runnable_avg * divider;
		se->avg.load_sum = (u64)se->avg.load_avg * divider;
		if (se_weight(se) < se->avg.load_sum)
			se->avg.load_sum = se->avg.load_sum / se_weight(se);
		else
			se->avg.load_sum = 1;
	} else {
		se->avg.last_update_time = cfs_rq->avg.last_update_time;
	}

	enqueue_load_avg(cfs_rq, se);
	cfs_rq->avg.util_avg += se->avg.util_avg;
	cfs_rq->avg.util_sum += se->avg.util_sum;
	cfs_rq->avg.runnable_avg += se->avg.runnable_avg;
	cfs_rq->avg.runnable_sum += se->avg.runnable_sum;

	add_tg_cfs_propagate(m, cfs_rq, (long)se->avg.load_sum);
}

/* detach_entity_load_avg(): leave @cfs_rq's sums (clamped, re-floored). */
void detach_entity_load_avg(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	COUNT(m, detach_entity_load_avg);
	dequeue_load_avg(cfs_rq, se);
	sub_positive(&cfs_rq->avg.util_avg, se->avg.util_avg);
	sub_positive(&cfs_rq->avg.util_sum, se->avg.util_sum);
	cfs_rq->avg.util_sum = (u32)max_u32_clamp(cfs_rq->avg.util_sum,
						  (u64)cfs_rq->avg.util_avg * PELT_MIN_DIVIDER);
	sub_positive(&cfs_rq->avg.runnable_avg, se->avg.runnable_avg);
	sub_positive(&cfs_rq->avg.runnable_sum, se->avg.runnable_sum);
	cfs_rq->avg.runnable_sum = max_u32_clamp(cfs_rq->avg.runnable_sum,
						 (u64)cfs_rq->avg.runnable_avg * PELT_MIN_DIVIDER);

	add_tg_cfs_propagate(m, cfs_rq, -(long)se->avg.load_sum);
}

/*
 * A task's se.avg from the capture's kernel (model_task_set_pelt()), last
 * updated at pelt_init_lut: blocked since, so aged with no contribution up
 * to @now as __update_load_avg_blocked_se() ages it - or, read running
 * (pelt_init_running), loaded, runnable and running since, as
 * __update_load_avg_se() ages the current entity; read queued behind
 * another (pelt_init_queued), loaded and runnable but not running, as it
 * ages a queued entity that is not cfs_rq->curr - and left unattached
 * (last_update_time 0) for the attach that follows.
 */
void pelt_init_age(struct model *m, struct sched_entity *se, u64 now)
{
	unsigned long on = se->task->pelt_init_running || se->task->pelt_init_queued;
	int running = se->task->pelt_init_running;

	se->task->pelt_init = false;
	se->avg.last_update_time = se->task->pelt_init_lut;
	if (now > se->avg.last_update_time && ___update_load_sum(now, &se->avg, on, on, running))
		___update_load_avg_div(&se->avg, se_weight(se), pelt_divider(m, &se->avg));
	se->avg.last_update_time = 0;
}

/*
 * update_load_avg(): age @se (unless it was never attached, or
 * SKIP_AGE_LOAD), then its cfs_rq, pull propagation from below, then exactly
 * one of: attach (DO_ATTACH and never attached: a new or migrated task),
 * detach (DO_DETACH: a queued task migrating away), or update tg->load_avg
 * if the queue's load changed and UPDATE_TG asks for it.
 */
void update_load_avg(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	u64 now = cfs_rq_clock_pelt(cfs_rq);
	int decayed;
	bool age = se->avg.last_update_time && !(flags & SKIP_AGE_LOAD), first;

	COUNT(m, update_load_avg);
	if (flags & UPDATE_TG)
		COUNT(m, update_load_avg_update_tg);
	if (flags & SKIP_AGE_LOAD)
		COUNT(m, update_load_avg_skip_age);
	if (flags & DO_ATTACH)
		COUNT(m, update_load_avg_do_attach);
	if (flags & DO_DETACH)
		COUNT(m, update_load_avg_do_detach);
	if (!flags)
		COUNT(m, update_load_avg_none);

	/* Matt Fleming 2016: don't age a new task on its first enqueue. */
	first = se->task && se->task->first_enqueue;
	if (first) {
		if (vflag(m, NO_DECAY_FIRST_ENQUEUE) && se->sum_exec_runtime == 0)
			age = false;
		se->task->first_enqueue = false;
	}

	if (age)
		__update_load_avg_se(m, now, cfs_rq, se);

	decayed = update_cfs_rq_load_avg(m, now, cfs_rq);
	/*
	 * A group entity is attached once, with zero load, when its group
	 * comes online (online_fair_sched_group() -> attach_entity_cfs_rq():
	 * last_update_time and period_contrib copied from the parent queue),
	 * so its first enqueue only ages it and takes the propagated load of
	 * its queue; it is never attached again by DO_ATTACH.  The model
	 * creates groups before its clock starts, so the online attach
	 * happens here, at the entity's first PELT update: aging zero sums
	 * from the creation time changes nothing, and an entity aged along
	 * with its queue ends on the queue's clock and period boundary.
	 * (Attaching it here instead added its propagated load to the parent
	 * queue twice: once by update_tg_cfs_load(), once by the attach.)
	 */
	if (!entity_is_task(se) && !se->avg.last_update_time) {
		se->avg.last_update_time = cfs_rq->avg.last_update_time;
		se->avg.period_contrib = cfs_rq->avg.period_contrib;
	}
	decayed |= propagate_entity_load_avg(m, se);
	if (decayed)
		COUNT(m, update_load_avg_decayed);

	if (!se->avg.last_update_time && (flags & DO_ATTACH) && entity_is_task(se)) {
		/*
		 * A task started asleep with the kernel's se.avg of the capture
		 * (model_task_set_pelt()): blocked since its last update there,
		 * so aged with no contribution up to now first, as
		 * __update_load_avg_blocked_se() ages it.
		 */
		if (se->task->pelt_init)
			pelt_init_age(m, se, now);
		attach_entity_load_avg(m, cfs_rq, se);
		update_tg_load_avg(m, cfs_rq);
	} else if (flags & DO_DETACH) {
		detach_entity_load_avg(m, cfs_rq, se);
		update_tg_load_avg(m, cfs_rq);
	} else if (decayed) {
		if (flags & UPDATE_TG)
			update_tg_load_avg(m, cfs_rq);
	}
	/* the load a forked task enters with: the seed's 1024 vs 1002 */
	if (first) {
		COUNT(m, new_task_first_load_n);
		m->counters[MC_new_task_first_load_sum] += se->avg.load_avg;
	}
}

/* sync_entity_load_avg(): age a dequeued entity to its queue's last update
 * (without the queue's lock: the queue is not updated). */
void sync_entity_load_avg(struct model *m, struct sched_entity *se)
{
	__update_load_avg_blocked_se(m, cfs_rq_of(se)->avg.last_update_time, se);
}

/* remove_entity_load_avg(): catch up, then queue the removal for the
 * cfs_rq's owner to apply at its next update_cfs_rq_load_avg(). */
void remove_entity_load_avg(struct model *m, struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	COUNT(m, remove_entity_load_avg);
	sync_entity_load_avg(m, se);
	cfs_rq->removed.nr++;
	cfs_rq->removed.util_avg += se->avg.util_avg;
	cfs_rq->removed.load_avg += se->avg.load_avg;
	cfs_rq->removed.runnable_avg += se->avg.runnable_avg;
}

/*
 * migrate_se_pelt_lag(): the source CPU is idle, so its clock (and the
 * entity's last sync) may be stale: age the entity to an estimate of now,
 * clock_pelt_idle + time since the CPU went idle, unless the queue's own
 * last update is later.
 */
void migrate_se_pelt_lag(struct model *m, struct sched_entity *se)
{
	struct cfs_rq *cfs_rq;
	struct rq *rq;
	u64 now, lut;

	if (load_avg_is_decayed(&se->avg))
		return;
	cfs_rq = cfs_rq_of(se);
	rq = rq_of(cfs_rq);
	if (rq->curr || rq->other_class)
		return;   /* not idle: the clock is fresh enough */

	now = rq->clock_pelt_idle;
	lut = cfs_rq->avg.last_update_time;
	if (now < lut)
		now = lut;
	else
		now += sched_clock_cpu(m, rq->cpu) - rq->clock_idle;
	__update_load_avg_blocked_se(m, now, se);
}

/*
 * propagate_entity_cfs_rq(): after an attach or detach outside the enqueue
 * path, update every ancestor so the change reaches the root.
 *
 * Before 6.18 (6.1.192, 6.12.117) the change stops at a throttled queue:
 * nothing at all if the entity's own queue is throttled, else the walk ends
 * after update_load_avg() of the entity queued on a throttled queue.  The
 * load stays pending in that queue's propagation (add_tg_cfs_propagate())
 * and reaches its parent when unthrottle_cfs_rq() enqueues the group entity
 * again.  6.18 walks to the root, a throttled queue's PELT clock being
 * stopped only while it is empty.  In both, a queue whose PELT clock is
 * stopped stays off the leaf list (6.1/6.12: !throttled_hierarchy(), which
 * pelt_clock_throttled equals there).
 */
void propagate_entity_cfs_rq(struct model *m, struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	bool stop_at_throttled = !sched_feat(m, TASK_BASED_THROTTLE);

	if (stop_at_throttled && cfs_rq_throttled(m, cfs_rq))
		return;
	if (!cfs_rq->pelt_clock_throttled)
		list_add_leaf_cfs_rq(cfs_rq);
	se = se->parent;
	for_each_sched_entity(se) {
		cfs_rq = cfs_rq_of(se);
		update_load_avg(m, cfs_rq, se, UPDATE_TG);
		if (stop_at_throttled && cfs_rq_throttled(m, cfs_rq))
			break;
		if (!cfs_rq->pelt_clock_throttled)
			list_add_leaf_cfs_rq(cfs_rq);
	}
}

void detach_entity_cfs_rq(struct model *m, struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	if (!se->avg.last_update_time)
		return;
	update_load_avg(m, cfs_rq, se, 0);
	detach_entity_load_avg(m, cfs_rq, se);
	update_tg_load_avg(m, cfs_rq);
	propagate_entity_cfs_rq(m, se);
}

void attach_entity_cfs_rq(struct model *m, struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	update_load_avg(m, cfs_rq, se, sched_feat(m, ATTACH_AGE_LOAD) ? 0 : SKIP_AGE_LOAD);
	attach_entity_load_avg(m, cfs_rq, se);
	update_tg_load_avg(m, cfs_rq);
	propagate_entity_cfs_rq(m, se);
}
