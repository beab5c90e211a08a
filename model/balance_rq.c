// SPDX-License-Identifier: GPL-2.0
/*
 * Moving tasks (kernel/sched/fair.c sched_balance_rq(), load_balance() in
 * 6.1, with its helpers): group statistics (update_sg_lb_stats(),
 * group_classify(), update_sd_pick_busiest(), update_sd_lb_stats()),
 * sched_balance_find_src_group(), calculate_imbalance(),
 * sched_balance_find_src_rq(), detach_tasks() / can_migrate_task() /
 * task_h_load(), and active balance (need_active_balance(),
 * active_load_balance_cpu_stop(), detach_one_task()).  model/balance.c
 * calls it from newidle and periodic balancing; what is exact and what is
 * simplified is described there and in docs/model.md ("Task moving").
 */
#include <string.h>

#include "balance.h"

/* kernel/sched/fair.c NUMA_IMBALANCE_MIN: tasks allowed apart between nodes */
#define NUMA_IMBALANCE_MIN 2
/* kernel/sched/fair.c MAX_PINNED_INTERVAL: the interval cap (ms) when all are pinned */
#define MAX_PINNED_INTERVAL 512

/* ---- moving tasks: sched_balance_rq() -------------------------------- */

/*
 * task_hot(): a task that ran on @src less than sysctl_sched_migration_cost
 * ago is cache hot (a buddy too, when the destination is busy).  Idle-policy
 * tasks never are; the model has no SMT level and no core scheduling.
 */
static bool task_hot(struct model *m, struct model_task *p, u64 src_clock_task, struct rq *dst)
{
	if (p->policy == MODEL_POLICY_IDLE)
		return false;
	if (sched_feat(m, CACHE_HOT_BUDDY) && dst->nr_running && cfs_rq_of(&p->se)->next == &p->se)
		return true;
	if (!m->sysctl_sched_migration_cost)
		return false;
	return (s64)(src_clock_task - p->se.exec_start) < (s64)m->sysctl_sched_migration_cost;
}

/*
 * update_cfs_rq_h_load() / task_h_load(): the share of the root queue's load
 * that a task contributes through its groups.  Top down, each group queue
 * gets h_load = parent h_load x group se load_avg / (parent load_avg + 1);
 * a task's is its load_avg x its queue's h_load / (queue load_avg + 1).  The
 * values are cached per jiffy (last_h_load_update), as in the kernel, which
 * walks up to the first ancestor already computed this jiffy and down again;
 * the recursion here visits the same queues.  A task of the root group gets
 * load_avg x L / (L + 1), L the root queue's load_avg.
 */
static void update_cfs_rq_h_load(struct model *m, struct cfs_rq *cfs_rq)
{
	struct cfs_rq *parent;

	if (cfs_rq->last_h_load_update == m->jiffies)
		return;
	if (!cfs_rq->se) {
		cfs_rq->h_load = cfs_rq->avg.load_avg;
	} else {
		parent = cfs_rq_of(cfs_rq->se);
		update_cfs_rq_h_load(m, parent);
		cfs_rq->h_load = (unsigned long)((u64)parent->h_load * cfs_rq->se->avg.load_avg /
						 (parent->avg.load_avg + 1));
	}
	cfs_rq->last_h_load_update = m->jiffies;
}

unsigned long task_h_load(struct model *m, struct model_task *p)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);

	update_cfs_rq_h_load(m, cfs_rq);
	return (unsigned long)((u64)p->se.avg.load_avg * cfs_rq->h_load / (cfs_rq->avg.load_avg + 1));
}

/*
 * task_is_ineligible_on_dst_cpu() (LB_INELIGIBLE_SOFT_LIMIT): with PLACE_LAG
 * a task that is not eligible on its queue would carry its negative lag to
 * the destination, so it is held back while its group's queue there has
 * entities, until the domain has failed a balance.  6.18.35 reads the task
 * group's cfs_rq on the destination (later mainline reads the root queue).
 */
static bool task_is_ineligible_on_dst_cpu(struct model *m, struct model_task *p, int dst_cpu)
{
	struct cfs_rq *dst_cfs_rq = p->tg->cfs_rq[dst_cpu];

	return sched_feat(m, PLACE_LAG) && dst_cfs_rq->nr_running &&
	       !entity_eligible(cfs_rq_of(&p->se), &p->se);
}

/*
 * can_migrate_task(), in the kernel's order: a delayed task only under
 * migrate_load (LB_DELAYED_LOAD_ONLY; 6.12.117 has no such test and moves
 * delayed tasks like any other), the ineligible soft limit, affinity (a
 * pinned task allows only its CPU, so there is never another CPU of the
 * local group to retry with; a several-CPU mask may offer one:
 * LBF_DST_PINNED, dst_pinned()), not running, and
 * cache cold - or hot but the domain has failed more than cache_nice_tries
 * balances in a row.  LBF_ALL_PINNED is cleared only by a task that passes
 * the affinity test, so a pass whose candidates were all delayed or
 * ineligible counts as "all pinned", as in the kernel.  No per-CPU kthreads,
 * no proxy execution, no NUMA locality in the model.
 */
static int group_of(const struct model *m, const struct sched_domain *sd, int cpu);

/*
 * can_migrate_task()'s affinity test for a mask of several CPUs
 * (p->cpus_mask) that leaves out the destination: LBF_SOME_PINNED; then,
 * unless the pass is newly idle, active, or has a retry CPU already, the
 * first CPU of the local group still in the pass's CPUs (env->dst_grpmask
 * and env->cpus: m->lb_cpus) that the task allows becomes new_dst_cpu
 * (LBF_DST_PINNED), for sched_balance_rq()'s retry.
 */
static void dst_pinned(struct model *m, const struct model_task *p, struct lb_env *env)
{
	const struct sched_domain *sd = env->sd;
	int i, local_g = group_of(m, sd, env->dst_rq->cpu);

	env->flags |= LBF_SOME_PINNED;
	if (env->idle == CPU_NEWLY_IDLE || (env->flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)))
		return;
	for (i = 0; i < sd->span_weight; i++) {
		int cpu = sd->span[i];

		if (m->lb_cpus[cpu] && group_of(m, sd, cpu) == local_g &&
		    task_mask_allows(p, cpu)) {
			env->flags |= LBF_DST_PINNED;
			env->new_dst_cpu = cpu;
			return;
		}
	}
}

static bool can_migrate_task(struct model *m, struct model_task *p, struct lb_env *env)
{
	struct sched_domain *sd = env->sd;

	if (p->se.sched_delayed && sched_feat(m, LB_DELAYED_LOAD_ONLY) &&
	    env->migration_type != migrate_load)
		return false;
	/*
	 * lb_throttled_hierarchy() (6.18): never onto a CPU where the task's
	 * group is throttled (CFS bandwidth).  Before 6.18 throttled_lb_pair()
	 * also refuses a throttled source: its tasks are off the rq with their
	 * group entity, while 6.18 keeps them runnable until they leave for
	 * limbo.
	 */
	if (throttled_hierarchy(m, p->tg->cfs_rq[env->dst_rq->cpu]))
		return false;
	if (!sched_feat(m, TASK_BASED_THROTTLE) &&
	    throttled_hierarchy(m, p->tg->cfs_rq[env->src_rq->cpu]))
		return false;
	if (sched_feat(m, LB_INELIGIBLE_SOFT_LIMIT) && !sd->nr_balance_failed &&
	    task_is_ineligible_on_dst_cpu(m, p, env->dst_rq->cpu))
		return false;
	if (p->pinned) {
		env->flags |= LBF_SOME_PINNED;
		return false;
	}
	if (!task_mask_allows(p, env->dst_rq->cpu)) {
		dst_pinned(m, p, env);
		return false;
	}
	env->flags &= ~LBF_ALL_PINNED;
	/*
	 * task_on_cpu().  An active balance runs on the source CPU's stopper,
	 * which has preempted that CPU's task: no fair task is running there
	 * then (rq->curr is NULL).  A dry active balance (no stopper runs)
	 * still finds the task it would have preempted as curr, and treats it
	 * as the stopper would find it: queued.
	 */
	if (env->src_rq->curr == p && !(env->dry_run && (env->flags & LBF_ACTIVE_LB)))
		return false;
	/* "Aggressive migration if active balance": no cache-hot test */
	if (env->flags & LBF_ACTIVE_LB)
		return true;
	if (task_hot(m, p, env->dry_run ? rq_clock_task_at(env->src_rq, m->now) :
			    env->src_rq->clock_task, env->dst_rq) &&
	    sd->nr_balance_failed <= sd->cache_nice_tries) {
		COUNT(m, load_balance_hot);
		return false;
	}
	return true;
}


/* shr_bound(): a shift that never reaches the width of the type (BITS_PER_TYPE - 1). */
static unsigned long shr_bound(unsigned long val, unsigned int shift)
{
	const unsigned int max_shift = (unsigned int)(sizeof(val) * 8 - 1);

	return val >> (shift < max_shift ? shift : max_shift);
}

/* attach_task(): the moved task joins dst as a migrating enqueue and may preempt. */
static void attach_task(struct model *m, struct rq *rq, struct model_task *p, int from)
{
	activate_task(m, rq, p, ENQUEUE_NOCLOCK);
	wakeup_preempt(m, rq, p, 0);
	COUNT(m, load_balance_moved);
	if (m->migrate_hook)
		m->migrate_hook(m->hook_ctx, p->id, from, rq->cpu, m->now);
}

/*
 * detach_tasks() + attach_tasks(): walk src's cfs_tasks from the tail (least
 * recently run first), up to loop_max tasks; a task that cannot move, or
 * whose load (util) shifted right by nr_balance_failed exceeds what is left
 * of the imbalance, goes to the head of the list (list_move()).  Per
 * migration type a moved task takes max(task_h_load(), 1) off a load
 * imbalance, its util_avg off a util imbalance (task_util_est(): the model
 * has no util_est), 1 off a task count.  Stops when the imbalance is used
 * up, when an idle destination would leave src with one task ("don't steal
 * all"), and after one task for a newly idle destination (CONFIG_PREEMPTION:
 * the capture kernel's PREEMPT_DYNAMIC has it).  The kernel attaches the
 * detached tasks last first (a list built with list_add()).
 *
 * Dry run (--placement trace: the trace, not the model, moves tasks): the
 * same walk without changing anything, so nr_balance_failed and the
 * balance interval follow what the kernel would have decided.  A dry walk
 * visits each task once; the kernel may revisit the rotated ones when
 * loop_max (from nr_running, RT tasks included) exceeds the list, and they
 * fail again unless detaching others changed their eligibility.
 */
static unsigned int detach_attach_tasks(struct model *m, struct lb_env *env)
{
	struct model_task *detached[SCHED_NR_MIGRATE_BREAK];
	struct rq *src = env->src_rq;
	struct model_task *p, *cursor = src->cfs_tasks_tail;
	unsigned int n = 0, nr_running = src->nr_running;
	unsigned long load, util;

	if (src->nr_running <= 1) {
		env->flags &= ~LBF_ALL_PINNED;
		return 0;
	}
	if (env->imbalance <= 0)
		return 0;

	while (env->dry_run ? cursor != NULL : src->cfs_tasks_head != NULL) {
		if (env->idle != CPU_NOT_IDLE && nr_running <= 1)
			break;
		env->loop++;
		if (env->loop > env->loop_max)
			break;
		if (env->loop > env->loop_break) {
			env->loop_break += SCHED_NR_MIGRATE_BREAK;
			env->flags |= LBF_NEED_BREAK;
			break;
		}
		p = env->dry_run ? cursor : src->cfs_tasks_tail;
		cursor = p->cfs_prev;

		if (!can_migrate_task(m, p, env))
			goto next;

		switch (env->migration_type) {
		case migrate_load:
			load = task_h_load(m, p);
			if (load < 1)
				load = 1;
			/* LB_MIN (off in every profile) would skip load < 16 here */
			if (shr_bound(load, env->sd->nr_balance_failed) > (unsigned long)env->imbalance)
				goto next;
			env->imbalance -= (long)load;
			break;
		case migrate_util:
			util = p->se.avg.util_avg;
			if (shr_bound(util, env->sd->nr_balance_failed) > (unsigned long)env->imbalance)
				goto next;
			env->imbalance -= (long)util;
			break;
		case migrate_task:
			env->imbalance--;
			break;
		}

		/* detach_task() */
		nr_running--;
		if (!env->dry_run) {
			deactivate_task(m, src, p, DEQUEUE_NOCLOCK);
			set_task_cpu(m, p, env->dst_rq->cpu);
			detached[n] = p;
		}
		n++;
		if (env->idle == CPU_NEWLY_IDLE)
			break;
		if (env->imbalance <= 0)
			break;
		continue;
next:
		if (!env->dry_run)
			cfs_tasks_move_front(src, p);
	}

	if (!env->dry_run && n) {
		/* attach_tasks(): the destination's clock once, then last in first */
		unsigned int i = n;

		update_rq_clock(m, env->dst_rq, m->now);
		while (i--)
			attach_task(m, env->dst_rq, detached[i], src->cpu);
	}
	return n;
}

/*
 * should_we_balance(): a newly idle CPU balances unless something got
 * queued on it meanwhile.  Periodically, one CPU per local group does: the
 * first idle CPU of the group, else its first CPU.  The model's MC groups
 * are single CPUs (no SMT level), so only the NUMA level, whose groups are
 * the nodes, can say no.
 */
static bool should_we_balance(struct model *m, struct lb_env *env)
{
	struct rq *this_rq = env->dst_rq;
	struct sched_domain *sd = env->sd;
	int i, first = -1;

	if (!m->lb_cpus[this_rq->cpu])
		return false;
	if (env->idle == CPU_NEWLY_IDLE)
		return this_rq->nr_running == 0;
	if (!sd->numa)
		return true;
	for (i = 0; i < sd->span_weight; i++) {
		int cpu = sd->span[i];

		if (m->rqs[cpu].node != this_rq->node || !m->lb_cpus[cpu])
			continue;
		if (first < 0)
			first = cpu;
		if (available_idle_cpu(m, cpu))
			return cpu == this_rq->cpu;
	}
	return first == this_rq->cpu;
}

/* cpu_util_cfs(): the root cfs_rq's util_avg capped at the capacity (no util_est). */
unsigned long cpu_util_cfs(const struct model *m, int cpu)
{
	unsigned long util = m->rqs[cpu].cfs.avg.util_avg;

	return util < SCHED_CAPACITY_SCALE ? util : SCHED_CAPACITY_SCALE;
}

/* cpu_util_cfs_boost(): the same with runnable_avg as a floor (LB_UTIL_BOOST). */
static unsigned long cpu_util_cfs_boost(const struct model *m, int cpu)
{
	unsigned long util = m->rqs[cpu].cfs.avg.util_avg;
	unsigned long runnable = m->rqs[cpu].cfs.avg.runnable_avg;

	if (sched_feat(m, LB_UTIL_BOOST) && runnable > util)
		util = runnable;
	return util < SCHED_CAPACITY_SCALE ? util : SCHED_CAPACITY_SCALE;
}

/* The group of @sd holding @cpu: the CPU itself in MC, its node in NUMA. */
static int group_of(const struct model *m, const struct sched_domain *sd, int cpu)
{
	return sd->numa ? m->rqs[cpu].node : cpu;
}

/*
 * sg_imbalanced(): group @g of @sd has its sgc->imbalance set.  The flag
 * lives in the sched_group_capacity shared by every CPU's copy of the
 * group; only the NUMA level's groups (nodes) have a child domain whose
 * balancing sets it (sched_balance_rq(): LBF_SOME_PINNED), the MC level's
 * single-CPU groups never.
 */
bool sg_imbalanced(const struct model *m, const struct sched_domain *sd, int g)
{
	return sd->numa && m->sgc_imbalance[g];
}

/*
 * group_is_overloaded() / group_has_capacity() / group_classify(): more
 * tasks than CPUs and utilisation or runnable beyond the capacity (with the
 * imbalance_pct margin) is overloaded; fewer tasks than CPUs, or enough
 * utilisation headroom and runnable within it, has spare capacity; the rest
 * is fully busy.  Between overloaded and the rest, a group whose
 * sched_group_capacity carries the imbalance flag (sg_imbalanced(): a
 * balance below it failed because of pinned tasks) is imbalanced, and
 * then one with a misfit load (on symmetric CPUs: a CPU whose capacity
 * RT/DL time reduced, running one fair task; update_sg_lb_stats()) is
 * misfit.  The asym packing and SMT balance types need asymmetric CPUs or
 * SMT, which the model does not have.
 */
enum group_type group_classify(unsigned int pct, bool sg_imbalanced, unsigned long misfit_load,
			       unsigned int nr_running,
			       unsigned int weight, unsigned long capacity, unsigned long util,
			       unsigned long runnable)
{
	if (nr_running > weight &&
	    (capacity * 100 < util * pct || capacity * pct < runnable * 100))
		return group_overloaded;
	if (sg_imbalanced)
		return group_imbalanced;
	if (misfit_load)
		return group_misfit_task;
	if (nr_running < weight)
		return group_has_spare;
	if (capacity * pct < runnable * 100)
		return group_fully_busy;
	if (capacity * 100 > util * pct)
		return group_has_spare;
	return group_fully_busy;
}

/*
 * update_sg_lb_stats(): load (root cfs_rq load_avg), util, runnable, tasks
 * (nr_running; fair: lb_h_nr()), idle CPUs (nothing queued and idle) over
 * the group's CPUs still in env->cpus; capacity (its sgc->capacity:
 * sgc_capacity()) and weight of the whole group.  avg_load (load per 1024
 * of capacity) only for an overloaded group.  At the root domain, a CPU
 * with nr_running > 1 sets *overloaded.  In a non-local group, for an idle
 * or newly idle destination, a busy CPU with one fair task and reduced
 * capacity (sched_reduced_capacity(): check_cpu_capacity()) makes the
 * group misfit with the highest such cpu_load() (group_misfit_task_load;
 * the kernel's non-SD_ASYM_CPUCAPACITY branch).
 */
static void update_sg_lb_stats(struct model *m, struct lb_env *env, int g, struct sg_lb_stats *sgs,
			       bool *overloaded)
{
	struct sched_domain *sd = env->sd;
	bool local = g == group_of(m, sd, env->dst_rq->cpu);
	int i;

	memset(sgs, 0, sizeof(*sgs));
	for (i = 0; i < sd->span_weight; i++) {
		int cpu = sd->span[i];
		const struct rq *rq = &m->rqs[cpu];

		if (!group_has_cpu(m, sd, g, cpu))
			continue;
		sgs->group_weight++;
		if (!m->lb_cpus[cpu])
			continue;
		sgs->group_load += cpu_load(m, cpu);
		sgs->group_util += cpu_util_cfs(m, cpu);
		sgs->group_runnable += rq->cfs.avg.runnable_avg;
		sgs->sum_h_nr_running += lb_h_nr(m, rq);
		sgs->sum_nr_running += rq->nr_running;
		if (!rq->nr_running && available_idle_cpu(m, cpu)) {
			sgs->idle_cpus++;
			continue;
		}
		if (sd->top && rq->nr_running > 1)
			*overloaded = true;
		if (local || env->idle == CPU_NOT_IDLE)
			continue;
		/* sched_reduced_capacity(): one fair task */
		if (lb_h_nr(m, rq) == 1 && check_cpu_capacity(rq, sd) &&
		    sgs->group_misfit_task_load < cpu_load(m, cpu))
			sgs->group_misfit_task_load = cpu_load(m, cpu);
	}
	sgs->group_capacity = sgc_capacity(m, sd, g);
	sgs->group_type = group_classify(sd->imbalance_pct, sg_imbalanced(m, sd, g),
					 sgs->group_misfit_task_load,
					 sgs->sum_nr_running, sgs->group_weight,
					 sgs->group_capacity, sgs->group_util, sgs->group_runnable);
	if (sgs->group_type == group_overloaded)
		sgs->avg_load = sgs->group_load * SCHED_CAPACITY_SCALE / sgs->group_capacity;
}

/*
 * update_sd_pick_busiest(): a group with fair tasks to pull; a heavier type
 * wins; overloaded: the higher avg_load; fully busy: an avg_load at least as
 * high (not computed for these: 0, so the last one examined - the comment
 * in the kernel says the first, its code keeps the later on a tie since
 * 5fd6d7f43958 "Keep a fully_busy SMT sched group as busiest" (v6.5-rc1),
 * LB_FULLY_BUSY_LAST; 6.1 keeps the first); spare: fewer idle CPUs, then
 * more tasks.  The first candidate is
 * compared with init_sd_lb_stats()'s (spare, UINT_MAX idle CPUs).
 */
static bool update_sd_pick_busiest(const struct model *m, const struct sg_lb_stats *busiest,
				   const struct sg_lb_stats *sgs)
{
	if (!sgs->sum_h_nr_running)
		return false;
	if (sgs->group_type != busiest->group_type)
		return sgs->group_type > busiest->group_type;
	switch (sgs->group_type) {
	case group_overloaded:
		return sgs->avg_load > busiest->avg_load;
	case group_imbalanced:
		return false;   /* "Select the 1st imbalanced group" */
	case group_misfit_task:
		/* "If we have more than one misfit sg go with the biggest misfit" */
		return sgs->group_misfit_task_load > busiest->group_misfit_task_load;
	case group_fully_busy:
		if (!sched_feat(m, LB_FULLY_BUSY_LAST))
			return sgs->avg_load > busiest->avg_load;   /* 6.1: the first stays */
		return sgs->avg_load >= busiest->avg_load;
	case group_has_spare:
		if (sgs->idle_cpus > busiest->idle_cpus)
			return false;
		if (sgs->idle_cpus == busiest->idle_cpus &&
		    sgs->sum_nr_running <= busiest->sum_nr_running)
			return false;
		return true;
	}
	return false;
}

/*
 * update_idle_cpu_scan() (SIS_UTIL), from update_sd_lb_stats(): a periodic
 * (not newidle) balance of the LLC domain sets how many CPUs
 * select_idle_cpu() may scan, from the LLC's summed utilisation.  With x the
 * mean utilisation per CPU (0..1024) and pct the domain's imbalance_pct
 * (117), the share of the LLC scanned is 1 - (x * pct / 100 / 1024)^2: all of
 * it when idle, none once x reaches 1024 * 100 / 117 (the utilisation at
 * which the balancer calls a group overloaded).  The kernel's integer steps:
 * tmp = x^2 pct^2 / (10000 * 1024) capped at 1024, nr = weight * (1024 -
 * tmp) / 1024 rounded down; so on 2 CPUs nr = 2 only below x = 28, 1 up to
 * x = 619, 0 from 620.  The model has no util_est in cpu_util_cfs()
 * (UTIL_EST would take the larger).
 */
void update_idle_cpu_scan(struct model *m, const struct rq *this_rq,
			  const struct sched_domain *sd, bool newly_idle)
{
	u64 sum_util = 0, x, tmp, y;
	int i;

	if (!sched_feat(m, SIS_UTIL) || newly_idle || sd->numa)
		return;
	for (i = 0; i < sd->span_weight; i++)
		sum_util += cpu_util_cfs(m, sd->span[i]);
	x = sum_util / (u64)sd->span_weight;
	tmp = x * x * SD_IMBALANCE_PCT * SD_IMBALANCE_PCT / (10000 * SCHED_CAPACITY_SCALE);
	if (tmp > SCHED_CAPACITY_SCALE)
		tmp = SCHED_CAPACITY_SCALE;
	y = (SCHED_CAPACITY_SCALE - tmp) * (u64)sd->span_weight / SCHED_CAPACITY_SCALE;
	m->nr_idle_scan[this_rq->node] = (int)y;
}

static bool in_span(const struct model *m, const struct sched_domain *sd, int cpu)
{
	return sd->numa || m->rqs[cpu].node == m->rqs[sd->span[0]].node;
}

/*
 * update_sd_lb_stats(): every group of the domain, the local one (this
 * CPU's) first, then in the order the kernel builds them (by CPU, wrapping
 * around from this one); the busiest non-local group by
 * update_sd_pick_busiest(); the domain's total load and capacity.  The local
 * group's capacity is refreshed first (update_group_capacity(), on a
 * newidle balance only once its sgc->next_update is due).  The root
 * domain's pass recomputes rd->overloaded - the only place it is cleared.
 */
static void update_sd_lb_stats(struct model *m, struct lb_env *env)
{
	struct sched_domain *sd = env->sd;
	int this_cpu = env->dst_rq->cpu, n = (int)m->nr_cpus, local_g = group_of(m, sd, this_cpu);
	bool overloaded = false;
	struct sg_lb_stats sgs;
	int k, j;

	memset(&env->busiest_stat, 0, sizeof(env->busiest_stat));
	env->busiest_stat.idle_cpus = UINT32_MAX;
	env->busiest_stat.group_type = group_has_spare;
	env->busiest_group = -1;
	env->total_load = env->total_capacity = 0;
	for (k = 0; k < n; k++) {
		int cpu = (this_cpu + k) % n, g;
		bool first = true;
		struct sg_lb_stats *st;

		if (!in_span(m, sd, cpu))
			continue;
		g = group_of(m, sd, cpu);
		for (j = 0; j < k && first; j++) {
			int c = (this_cpu + j) % n;

			first = !(in_span(m, sd, c) && group_of(m, sd, c) == g);
		}
		if (!first)
			continue;
		st = g == local_g ? &env->local_stat : &sgs;
		if (g == local_g)
			update_local_group_capacity(m, sd, this_cpu, env->idle);
		update_sg_lb_stats(m, env, g, st, &overloaded);
		if (g != local_g && update_sd_pick_busiest(m, &env->busiest_stat, &sgs)) {
			env->busiest_stat = sgs;
			env->busiest_group = g;
		}
		env->total_load += st->group_load;
		env->total_capacity += st->group_capacity;
	}
	if (sd->top) {
		if (m->rd_overloaded && !overloaded)
			COUNT(m, rd_overloaded_cleared);
		if (m->rd_overloaded != overloaded)
			model_note_overload(m, overloaded, env->idle == CPU_NEWLY_IDLE ?
					    MODEL_OVERLOAD_NEWIDLE : m->lb_site == MODEL_OVERLOAD_NOHZ ?
					    MODEL_OVERLOAD_NOHZ : MODEL_OVERLOAD_PERIODIC, env->dst_rq);
		m->rd_overloaded = overloaded;
	}
	env->have_stats = true;
}

/*
 * sds->prefer_sibling.  Since 43726bdedd29 (v6.5-rc1,
 * LB_PREFER_SIBLING_BUSIEST) it is the busiest group's SD_PREFER_SIBLING:
 * at the NUMA level every non-local node group carries it, a one-CPU node
 * included: build_group_from_child_sched_domain() copies the flags of the
 * sibling's child domain before degenerate domains are dropped, and
 * cpu_attach_domain()'s clearing loop for a destroyed bottom domain clears
 * only the first (local) group.  The MC level's single-CPU groups have no
 * child, so no flag.  6.1 reads the
 * balancing domain's child instead: the NUMA domain's child is the local
 * node's MC domain, which exists only when the local node has 2 CPUs or more.
 */
static bool prefer_sibling(const struct model *m, const struct lb_env *env)
{
	if (!env->sd->numa || env->busiest_group < 0)
		return false;
	if (sched_feat(m, LB_PREFER_SIBLING_BUSIEST))
		return true;
	return env->local_stat.group_weight > 1;
}

/*
 * sibling_imbalance() (LB_SIBLING_IMBALANCE, v6.6+): for an idle
 * destination, the task difference that evens nr_running per core between
 * the groups (cores = CPUs: no SMT), rounded, and 2 to take an empty group's
 * resources; 0 when the destination is busy.  6.1 took busiest - local
 * nr_running whatever the destination.
 */
static long sibling_imbalance(const struct model *m, const struct lb_env *env)
{
	const struct sg_lb_stats *busiest = &env->busiest_stat, *local = &env->local_stat;
	long nb, nl, imb;

	if (!sched_feat(m, LB_SIBLING_IMBALANCE)) {
		imb = (long)busiest->sum_nr_running - (long)local->sum_nr_running;
		return imb > 0 ? imb : 0;
	}
	if (env->idle == CPU_NOT_IDLE || !busiest->sum_nr_running)
		return 0;
	nb = busiest->group_weight;
	nl = local->group_weight;
	if (nb == nl) {
		imb = (long)busiest->sum_nr_running - (long)local->sum_nr_running;
		return imb > 0 ? imb : 0;
	}
	imb = nl * busiest->sum_nr_running - nb * local->sum_nr_running;
	if (imb < 0)
		imb = 0;
	imb = (2 * imb + nl + nb) / (nl + nb);
	if (imb <= 1 && local->sum_nr_running == 0 && busiest->sum_nr_running > 1)
		imb = 2;
	return imb;
}

/*
 * adjust_numa_imbalance(): between nodes, while the destination would run
 * at most imb_numa_nr tasks, an imbalance of up to NUMA_IMBALANCE_MIN
 * tasks is allowed (a communicating pair stays together).
 */
static long adjust_numa_imbalance(long imbalance, unsigned int dst_running, unsigned int imb_numa_nr)
{
	if (dst_running > imb_numa_nr)
		return imbalance;
	if (imbalance <= NUMA_IMBALANCE_MIN)
		return 0;
	return imbalance;
}

/*
 * calculate_imbalance(), for the types the model produces.
 *
 * Busiest group misfit (a CPU of reduced capacity, symmetric CPUs):
 * migrate_load, the misfit load (that CPU's cpu_load()).
 *
 * Busiest group imbalanced: migrate_task, one task.
 *
 * Local group with spare capacity:
 * - busiest overloaded and the domain not an LLC (NUMA): migrate_util, the
 *   local group's spare capacity max(capacity, util) - util; an idle
 *   destination with none left asks for one task;
 * - busiest a single CPU, or prefer-sibling: migrate_task, half the
 *   sibling_imbalance() (rounded down);
 * - else migrate_task, half the difference in idle CPUs;
 *   across nodes first adjust_numa_imbalance() with local nr_running + 1.
 * Local fully busy or overloaded (busiest overloaded): migrate_load, in
 * load units (root cfs_rq load_avg summed over the group):
 *   imbalance = min((busiest avg_load - domain avg_load) x busiest capacity,
 *                   (domain avg_load - local avg_load) x local capacity) / 1024
 * with avg_load = load x 1024 / capacity - nothing if local is already at or
 * above busiest or the domain average.
 */
static void calculate_imbalance(const struct model *m, struct lb_env *env)
{
	struct sg_lb_stats *local = &env->local_stat, *busiest = &env->busiest_stat;
	struct sched_domain *sd = env->sd;

	if (busiest->group_type == group_misfit_task) {
		/* not SD_ASYM_CPUCAPACITY: move the reduced-capacity CPU's load */
		env->migration_type = migrate_load;
		env->imbalance = (long)busiest->group_misfit_task_load;
		return;
	}
	if (busiest->group_type == group_imbalanced) {
		/* group-wide averages mean nothing under affinity: move any one task */
		env->migration_type = migrate_task;
		env->imbalance = 1;
		return;
	}
	if (local->group_type == group_has_spare) {
		if (busiest->group_type > group_fully_busy && !sd->share_llc) {
			env->migration_type = migrate_util;
			env->imbalance = (long)((local->group_capacity > local->group_util ?
						 local->group_capacity : local->group_util) -
						local->group_util);
			if (env->idle != CPU_NOT_IDLE && env->imbalance == 0) {
				env->migration_type = migrate_task;
				env->imbalance = 1;
			}
			return;
		}
		env->migration_type = migrate_task;
		if (busiest->group_weight == 1 || prefer_sibling(m, env)) {
			env->imbalance = sibling_imbalance(m, env);
		} else {
			long d = (long)local->idle_cpus - (long)busiest->idle_cpus;

			env->imbalance = d > 0 ? d : 0;
		}
		if (sd->numa)
			env->imbalance = adjust_numa_imbalance(env->imbalance, local->sum_nr_running + 1,
							       sd->imb_numa_nr);
		env->imbalance >>= 1;
		return;
	}

	if (local->group_type < group_overloaded) {
		local->avg_load = local->group_load * SCHED_CAPACITY_SCALE / local->group_capacity;
		if (local->avg_load >= busiest->avg_load) {
			env->imbalance = 0;
			return;
		}
		env->sds_avg_load = env->total_load * SCHED_CAPACITY_SCALE / env->total_capacity;
		if (local->avg_load >= env->sds_avg_load) {
			env->imbalance = 0;
			return;
		}
	}
	env->migration_type = migrate_load;
	{
		unsigned long a = (busiest->avg_load - env->sds_avg_load) * busiest->group_capacity;
		unsigned long b = (env->sds_avg_load - local->avg_load) * local->group_capacity;

		env->imbalance = (long)((a < b ? a : b) / SCHED_CAPACITY_SCALE);
	}
}

/*
 * sched_balance_find_src_group(): the kernel's decision matrix for the
 * types the model has.  Balanced (no pull) when: no busiest group; local
 * heavier than busiest; both overloaded and local avg_load not below
 * busiest's, or not below the domain's, or busiest within imbalance_pct
 * (117 %) of local; busiest not overloaded and this CPU busy; busiest of
 * several CPUs with at most one idle CPU fewer than local; busiest with a
 * single fair task.  An imbalanced busiest group is always balanced
 * (force_balance), before any of these, and so is a misfit one (a CPU of
 * reduced capacity).  Prefer-sibling with spare local capacity and a
 * sibling_imbalance() above 1 forces the computation.  Without EAS the
 * rd->overutilized test does not apply.  Returns the busiest group, -1 if
 * balanced or the computed imbalance is 0.
 */
static int sched_balance_find_src_group(struct model *m, struct lb_env *env)
{
	struct sg_lb_stats *local = &env->local_stat, *busiest = &env->busiest_stat;

	update_sd_lb_stats(m, env);
	update_idle_cpu_scan(m, env->dst_rq, env->sd, env->idle == CPU_NEWLY_IDLE);
	if (env->busiest_group < 0)
		goto out_balanced;
	/* "Misfit tasks should be dealt with regardless of the avg load" */
	if (busiest->group_type == group_misfit_task)
		goto force_balance;
	if (busiest->group_type == group_imbalanced)
		goto force_balance;
	if (local->group_type > busiest->group_type)
		goto out_balanced;
	if (local->group_type == group_overloaded) {
		if (local->avg_load >= busiest->avg_load)
			goto out_balanced;
		env->sds_avg_load = env->total_load * SCHED_CAPACITY_SCALE / env->total_capacity;
		if (local->avg_load >= env->sds_avg_load)
			goto out_balanced;
		if (100 * busiest->avg_load <= env->sd->imbalance_pct * local->avg_load)
			goto out_balanced;
	}
	if (prefer_sibling(m, env) && local->group_type == group_has_spare &&
	    (sched_feat(m, LB_SIBLING_IMBALANCE) ? sibling_imbalance(m, env) > 1 :
	     busiest->sum_nr_running > local->sum_nr_running + 1))
		goto force_balance;
	if (busiest->group_type != group_overloaded) {
		if (env->idle == CPU_NOT_IDLE)
			goto out_balanced;
		if (busiest->group_weight > 1 && local->idle_cpus <= busiest->idle_cpus + 1)
			goto out_balanced;
		if (busiest->sum_h_nr_running == 1)
			goto out_balanced;
	}
force_balance:
	calculate_imbalance(m, env);
	return env->imbalance ? env->busiest_group : -1;
out_balanced:
	env->imbalance = 0;
	return -1;
}

/*
 * sched_balance_find_src_rq(): the CPU of the busiest group to pull from,
 * by migration type (ties: the lowest CPU): migrate_load the highest
 * cpu_load() per capacity_of(), skipping a CPU whose single fair task
 * outweighs the whole imbalance unless its capacity is reduced
 * (check_cpu_capacity()); migrate_util the
 * highest utilisation (cpu_util_cfs_boost()) among CPUs with two fair tasks
 * or more; migrate_task the most fair tasks.  No NUMA-balancing (fbq)
 * classes, no asymmetric capacities.
 */
static struct rq *sched_balance_find_src_rq(struct model *m, struct lb_env *env, int g)
{
	struct sched_domain *sd = env->sd;
	struct rq *busiest = NULL;
	unsigned long busiest_util = 0, busiest_load = 0, busiest_capacity = 1;
	unsigned int busiest_nr = 0;
	int i;

	for (i = 0; i < sd->span_weight; i++) {
		int cpu = sd->span[i];
		struct rq *rq = &m->rqs[cpu];
		unsigned long capacity = capacity_of(m, cpu), load, util;
		unsigned int nr;

		if (!group_has_cpu(m, sd, g, cpu) || !m->lb_cpus[cpu])
			continue;
		nr = lb_h_nr(m, rq);
		if (!nr)
			continue;
		switch (env->migration_type) {
		case migrate_load:
			load = cpu_load(m, cpu);
			if (nr == 1 && load > (unsigned long)env->imbalance &&
			    !check_cpu_capacity(rq, sd))
				break;
			if (load * busiest_capacity > busiest_load * capacity) {
				busiest_load = load;
				busiest_capacity = capacity;
				busiest = rq;
			}
			break;
		case migrate_util:
			util = cpu_util_cfs_boost(m, cpu);
			if (nr <= 1)
				continue;
			if (busiest_util < util) {
				busiest_util = util;
				busiest = rq;
			}
			break;
		case migrate_task:
			if (busiest_nr < nr) {
				busiest_nr = nr;
				busiest = rq;
			}
			break;
		}
	}
	return busiest;
}

/*
 * need_active_balance(): the kernel's reasons are asym packing
 * (asym_active_balance()), "imbalanced" (imbalanced_active_balance()), an
 * idle destination beside a source with one fair task whose capacity other
 * classes or IRQs reduced (check_cpu_capacity(); the one fair task is
 * h_nr_running in 6.1, h_nr_queued in 6.12, h_nr_runnable in 6.18), and
 * migrate_misfit.  On the model's symmetric CPUs two can hold: the
 * imbalanced one, a task-count imbalance that failed more than
 * cache_nice_tries + 2 times in a row - the same test in 6.1, 6.12 and
 * 6.18 - and the reduced-capacity one: an idle or newly idle destination,
 * one fair task on the source (lb_h_nr()), the source's capacity reduced
 * and capacity_of(src) * imbalance_pct < capacity_of(dst) * 100.
 */
static bool need_active_balance(const struct model *m, const struct lb_env *env)
{
	const struct sched_domain *sd = env->sd;

	if (env->migration_type == migrate_task &&
	    sd->nr_balance_failed > sd->cache_nice_tries + 2)
		return true;
	return env->idle != CPU_NOT_IDLE && lb_h_nr(m, env->src_rq) == 1 &&
	       check_cpu_capacity(env->src_rq, sd) &&
	       env->src_rq->cpu_capacity * sd->imbalance_pct <
	       env->dst_rq->cpu_capacity * 100;
}

/*
 * detach_one_task(): the first task from the tail of src's cfs_tasks (the
 * least recently run) that can_migrate_task() lets go, with LBF_ACTIVE_LB:
 * no cache-hot test, and the task the stopper preempted is a candidate like
 * any queued one (its pick moved it to the head, the most recently run end
 * - __set_next_task_fair() - so it goes only if no task queued before that
 * pick may; a task enqueued since is ahead of it: account_entity_enqueue()
 * adds at the head).  Dry: the task that would go, nothing detached.
 */
static struct model_task *detach_one_task(struct model *m, struct lb_env *env)
{
	struct model_task *p;

	for (p = env->src_rq->cfs_tasks_tail; p; p = p->cfs_prev) {
		if (!can_migrate_task(m, p, env))
			continue;
		if (!env->dry_run) {
			deactivate_task(m, env->src_rq, p, DEQUEUE_NOCLOCK);
			set_task_cpu(m, p, env->dst_rq->cpu);
		}
		return p;
	}
	return NULL;
}

/*
 * active_load_balance_cpu_stop(), the stopper work an active balance queued
 * on @busiest_rq (rq->active_balance, push_cpu): if the work is still
 * pending and a task besides the stopper is there (nr_running > 1 with the
 * stopper counted), take the lowest domain of the push CPU that spans this
 * CPU and detach_one_task() with LBF_ACTIVE_LB, idle CPU_IDLE and, as the
 * kernel's zero-initialised lb_env, migrate_load (so 6.18's
 * LB_DELAYED_LOAD_ONLY lets a delayed task go); a push resets that
 * domain's nr_balance_failed ("Active balancing done").  The work is no
 * longer pending either way; the task attaches to the push CPU last
 * (attach_one_task(): its clock, enqueue, wakeup_preempt()).
 *
 * @stopper_counted: the stopper is in nr_running (it holds the CPU as the
 * model's non-fair task); false for a dry pass (--placement trace: no
 * stopper runs, the move is only decided, for nr_balance_failed) and when
 * a non-fair task held the CPU already (the stopper preempts it; the model
 * keeps one non-fair task per CPU, so nr_running is one short then:
 * run_cpu_stop(), model_cpu_stop() with over_other).
 * Returns the task moved (dry: that would move), NULL if none.
 */
static struct model_task *active_load_balance_cpu_stop(struct model *m, struct rq *busiest_rq,
						       bool dry, bool stopper_counted)
{
	struct rq *target_rq = &m->rqs[busiest_rq->push_cpu];
	struct model_task *p = NULL;
	struct sched_domain *sd = NULL;
	struct lb_env env;
	int i;

	if (!busiest_rq->active_balance)
		goto out_unlock;
	if (busiest_rq->nr_running + !stopper_counted <= 1)
		goto out_unlock;
	for (i = 0; i < target_rq->nr_sd && !sd; i++)
		if (m->rqs[busiest_rq->cpu].node == target_rq->node || target_rq->sd[i].numa)
			sd = &target_rq->sd[i];
	if (sd) {
		memset(&env, 0, sizeof(env));
		env.sd = sd;
		env.dst_rq = target_rq;
		env.src_rq = busiest_rq;
		env.idle = CPU_IDLE;
		env.flags = LBF_ACTIVE_LB;
		env.migration_type = migrate_load;
		env.dry_run = dry;
		if (!dry)
			update_rq_clock(m, busiest_rq, m->now);
		p = detach_one_task(m, &env);
		if (p) {
			COUNT(m, lb_active_pushed);
			sd->nr_balance_failed = 0;
		} else {
			COUNT(m, lb_active_failed);
		}
	}
out_unlock:
	busiest_rq->active_balance = false;
	if (p && !dry) {
		update_rq_clock(m, target_rq, m->now);
		attach_task(m, target_rq, p, busiest_rq->cpu);
	}
	return p;
}

/*
 * The stop class's preemption of @cpu's task and the stopper work on it
 * (kernel/stop_machine.c cpu_stopper_thread() running
 * active_load_balance_cpu_stop()): the task running there is put back
 * (put_prev_task_fair(), charged by update_curr()) as for any non-fair task
 * taking the CPU (model_other_class()), counted as a sched_switch; the
 * stopper's exit leaves need_resched for the caller's __schedule(), whose
 * switch is counted there.  A non-fair task already on the CPU is preempted
 * by the stopper and gets the CPU back: no fair state changes.
 */
static struct model_task *run_cpu_stop(struct model *m, struct rq *rq, uint64_t now)
{
	struct model_task *p;

	if (rq->other_class)
		return active_load_balance_cpu_stop(m, rq, false, false);
	model_other_class(m, rq->cpu, true, MODEL_OTHER_STOP, now);
	p = active_load_balance_cpu_stop(m, rq, false, true);
	model_other_class(m, rq->cpu, false, MODEL_OTHER_STOP, now);
	return p;
}

/*
 * migration_cpu_stop() (kernel/sched/core.c) for affine_move_task(): @rq's
 * stopper moves the task queued there (the stopper's preemption put it back
 * if it ran) to the CPU the affinity change chose, by __migrate_task() ->
 * move_queued_task(), which leaves a task whose mask no longer allows that
 * CPU.  A task that left @rq or went to sleep meanwhile is not moved (the
 * kernel sets p->wake_cpu for a sleeper; the model's wakeup places it within
 * its mask through select_task_rq()).  The move is reported through
 * migrate_hook.  1 if it moved.
 */
static int migration_cpu_stop(struct model *m, struct rq *rq, uint64_t now)
{
	struct model_task *p = rq->affine_task;
	int dst = rq->affine_dst;

	rq->affine_task = NULL;
	if (!p || p->cpu != rq->cpu || p->on_rq != TASK_ON_RQ_QUEUED || p->throttled ||
	    rq->curr == p || !model_task_cpu_allowed(m, p, dst) ||
	    model_migrate_task(m, p, dst, now) < 0)
		return 0;
	if (m->migrate_hook)
		m->migrate_hook(m->hook_ctx, p->id, rq->cpu, dst, now);
	return 1;
}

/*
 * affine_move_task() for @p running on another CPU than the caller's
 * (@waker_cpu): stop_one_cpu_nowait(task_cpu(p), migration_cpu_stop) - the
 * work waits on p's CPU for its stopper, which stopper_hook's caller runs
 * (model_cpu_stop()); without a hook the stopper runs at once, as
 * run_cpu_stop() does for an active balance.
 */
void stop_one_cpu_affine(struct model *m, struct model_task *p, int dst, int waker_cpu, u64 now)
{
	struct rq *rq = &m->rqs[p->cpu];

	rq->affine_task = p;
	rq->affine_dst = dst;
	if (m->stopper_hook) {
		m->stopper_hook(m->hook_ctx, rq->cpu, waker_cpu, now);
		return;
	}
	update_rq_clock(m, rq, now);
	if (rq->other_class) {
		migration_cpu_stop(m, rq, now);
		return;
	}
	model_other_class(m, rq->cpu, true, MODEL_OTHER_STOP, now);
	migration_cpu_stop(m, rq, now);
	model_other_class(m, rq->cpu, false, MODEL_OTHER_STOP, now);
}

int model_cpu_stop(struct model *m, int cpu, bool over_other, uint64_t now)
{
	struct rq *rq;
	int moved;

	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return -1;
	rq = &m->rqs[cpu];
	if (!rq->active_balance && !rq->affine_task)
		return 0;
	model_advance_time(m, now);
	update_rq_clock(m, rq, now);
	/* the stopper's works in the order they were queued: an affinity move first */
	moved = rq->affine_task ? migration_cpu_stop(m, rq, now) : 0;
	if (!rq->active_balance)
		return moved;
	return moved +
	       (active_load_balance_cpu_stop(m, rq, false, rq->other_class && !over_other) != NULL);
}

/* Active balance moves a running task only when the model places tasks. */
static bool moves_running(const struct model *m)
{
	return m->balance_moves_tasks;
}

/*
 * stop_one_cpu_nowait(): queue active_load_balance_cpu_stop() on the
 * busiest CPU's stopper.  The caller that follows the CPUs (the replay:
 * model_config.stopper_hook) runs it there (model_cpu_stop(), between the
 * stopper's switch in and out); without one it runs at once (run_cpu_stop()).
 * A dry pass (no stopper: --placement trace, where the trace's migrations are
 * replayed) only decides whether a task would have moved, for the domain's
 * nr_balance_failed.
 */
static void stop_one_cpu_nowait(struct model *m, struct rq *busiest, bool dry)
{
	if (dry)
		active_load_balance_cpu_stop(m, busiest, true, false);
	else if (m->stopper_hook)
		m->stopper_hook(m->hook_ctx, busiest->cpu, busiest->push_cpu, m->now);
	else
		run_cpu_stop(m, busiest, m->now);
}

/* Every CPU still in env->cpus belongs to the local group (cpumask_subset()). */
static bool lb_cpus_in_local_group(const struct model *m, const struct lb_env *env)
{
	const struct sched_domain *sd = env->sd;
	int i, local_g = group_of(m, sd, env->dst_rq->cpu);

	for (i = 0; i < sd->span_weight; i++)
		if (m->lb_cpus[sd->span[i]] && group_of(m, sd, sd->span[i]) != local_g)
			return false;
	return true;
}


/*
 * sched_balance_rq() (load_balance() before 6.10): check that this CPU is
 * balanced within @sd and pull tasks if not.  @env is caller storage; on
 * return it holds what the pass found (group statistics, migration type,
 * imbalance, tasks detached).
 *
 * Outcomes, as the kernel's:
 * - balanced (should_we_balance() says another CPU balances, no busiest
 *   group or queue, or a zero imbalance): nr_balance_failed = 0 and, unless
 *   newly idle, balance_interval doubles up to max_interval;
 * - every candidate refused before the affinity test (LBF_ALL_PINNED): the
 *   busiest CPU leaves env->cpus and the pass is redone while CPUs outside
 *   the local group remain; else as balanced, but the interval may double up
 *   to 512 ms;
 * - an imbalance: tasks moved -> nr_balance_failed = 0, none moved ->
 *   nr_balance_failed + 1 (periodic only); either way balance_interval back
 *   to min_interval.  When nothing moved and need_active_balance(), the
 *   busiest CPU's stopper is queued (unless work is already pending there)
 *   to push one task here - the running one included, which it preempts -
 *   and a push resets nr_balance_failed (stop_one_cpu_nowait(),
 *   active_load_balance_cpu_stop()); if the task running there may not run
 *   here, out_one_pinned instead: no reset, the interval grows.  (It does
 *   arise: a busiest CPU whose one task runs pinned skips detach_tasks(),
 *   LBF_ALL_PINNED stays set, and after cache_nice_tries + 2 failures
 *   need_active_balance() holds and the pinned curr sends the pass to
 *   out_one_pinned, the interval doubling past max_interval as the
 *   kernel's does: test_active_balance_one_pinned().)
 *
 * Without task moves (--placement trace: periodic balancing, newidle
 * balancing unless newidle_moves_tasks is set, an idle CPU's unless
 * idle_moves_tasks is, for that CPU) the pass is a dry run: the same decisions, nr_balance_failed and interval updates,
 * nothing moved, 0 returned.  Returns the number of tasks moved.
 */
int sched_balance_rq(struct model *m, struct rq *this_rq, struct sched_domain *sd,
		     enum cpu_idle_type idle, struct lb_env *env)
{
	bool moves = m->balance_moves_tasks || (idle == CPU_NEWLY_IDLE && m->newidle_moves_tasks) ||
		     (idle == CPU_IDLE && this_rq->cpu < 64 && (m->idle_moves_cpus >> this_rq->cpu & 1));
	/* sd->parent: the NUMA domain above an MC one, if there are nodes */
	bool sd_parent = sd - this_rq->sd + 1 < this_rq->nr_sd;
	struct rq *busiest;
	unsigned int ld_moved = 0;
	int i, g;

	memset(env, 0, sizeof(*env));
	env->sd = sd;
	env->dst_rq = this_rq;
	env->idle = idle;
	env->loop_break = SCHED_NR_MIGRATE_BREAK;
	env->dry_run = !moves;
	env->busiest_group = -1;
	env->continue_balancing = true;
	memset(m->lb_cpus, 0, m->nr_cpus);
	for (i = 0; i < sd->span_weight; i++)
		m->lb_cpus[sd->span[i]] = 1;

redo:
	if (!should_we_balance(m, env)) {
		env->continue_balancing = false;
		goto out_balanced;
	}
	g = sched_balance_find_src_group(m, env);
	if (g < 0)
		goto out_balanced;
	busiest = sched_balance_find_src_rq(m, env, g);
	if (!busiest)
		goto out_balanced;

	switch (env->migration_type) {
	case migrate_load:
		COUNT(m, lb_migrate_load);
		break;
	case migrate_util:
		COUNT(m, lb_migrate_util);
		break;
	case migrate_task:
		COUNT(m, lb_migrate_task);
		break;
	}
	env->src_rq = busiest;
	env->imbalance_found = env->imbalance;
	env->flags |= LBF_ALL_PINNED;
	if (busiest->nr_running > 1) {
		env->loop_max = busiest->nr_running < SYSCTL_SCHED_NR_MIGRATE ?
				busiest->nr_running : SYSCTL_SCHED_NR_MIGRATE;
more_balance:
		if (!env->dry_run)
			update_rq_clock(m, busiest, m->now);
		ld_moved += detach_attach_tasks(m, env);
		if (env->flags & LBF_NEED_BREAK) {
			env->flags &= ~LBF_NEED_BREAK;
			goto more_balance;
		}
		/*
		 * LBF_DST_PINNED: a task of a several-CPU mask refused this
		 * CPU but allows another of the local group (only at the NUMA
		 * level: the model's MC groups are single CPUs): that CPU
		 * leaves the pass's CPUs and becomes the destination, and the
		 * walk starts again (a pinned task's one CPU is this source:
		 * it never sets the flag).
		 */
		if ((env->flags & LBF_DST_PINNED) && env->imbalance > 0) {
			m->lb_cpus[env->dst_rq->cpu] = 0;
			env->dst_rq = &m->rqs[env->new_dst_cpu];
			env->flags &= ~LBF_DST_PINNED;
			env->loop = 0;
			env->loop_break = SCHED_NR_MIGRATE_BREAK;
			goto more_balance;
		}
		/*
		 * "We failed to reach balance because of affinity": the
		 * parent's local group (this node, at the NUMA level) becomes
		 * imbalanced for the CPUs that balance it.
		 */
		if (sd_parent && (env->flags & LBF_SOME_PINNED) && env->imbalance > 0)
			m->sgc_imbalance[this_rq->node] = 1;
		if (env->flags & LBF_ALL_PINNED) {
			m->lb_cpus[busiest->cpu] = 0;
			if (!lb_cpus_in_local_group(m, env)) {
				env->loop = 0;
				env->loop_break = SCHED_NR_MIGRATE_BREAK;
				goto redo;
			}
			goto out_all_pinned;
		}
	}
	env->detached = ld_moved;

	if (!ld_moved) {
		COUNT(m, lb_failed);
		if (idle != CPU_NEWLY_IDLE)
			sd->nr_balance_failed++;
		if (need_active_balance(m, env)) {
			env->need_active_balance = true;
			COUNT(m, lb_active_needed);
			/*
			 * "Don't kick the active_load_balance_cpu_stop, if the
			 * curr task on busiest CPU can't be moved to this_cpu":
			 * a pinned fair task, the idle task (its own CPU only)
			 * or a non-fair task, whose affinity the model does not
			 * know - taken as pinned, as the per-CPU kthreads that
			 * most RT tasks of the traces are (see above: a pinned
			 * running task reaches it).
			 */
			if (!busiest->curr || busiest->curr->pinned)
				goto out_one_pinned;
			if (!task_mask_allows(busiest->curr, this_rq->cpu)) {
				env->flags |= LBF_ALL_PINNED;
				goto out_one_pinned;
			}
			env->flags &= ~LBF_ALL_PINNED;
			if (!busiest->active_balance) {
				busiest->active_balance = true;
				busiest->push_cpu = this_rq->cpu;
				env->active_balance = true;
				COUNT(m, lb_active_started);
			}
			if (env->active_balance)
				stop_one_cpu_nowait(m, busiest, !moves_running(m));
		}
	} else {
		sd->nr_balance_failed = 0;
	}
	/*
	 * "We were unbalanced, so reset the balancing interval".  The kernel
	 * tests likely(!active_balance) || need_active_balance(): true here
	 * whenever it started the stopper too, since need_active_balance() is
	 * read again at once, before the remote stopper can have reset
	 * nr_balance_failed (a run of it in this call, below, comes first in
	 * the model and is therefore not looked at).
	 */
	sd->balance_interval = sd->min_interval;
	COUNT(m, balance_interval_reset);
	return env->dry_run ? 0 : (int)ld_moved;

out_balanced:
	/*
	 * Balanced although affinity may have got in the way: clear the
	 * parent group's flag, unless every task here was pinned (then let the
	 * parent level try).
	 */
	if (sd_parent && !(env->flags & LBF_ALL_PINNED))
		m->sgc_imbalance[this_rq->node] = 0;
out_all_pinned:
	if (env->flags & LBF_ALL_PINNED)
		COUNT(m, lb_all_pinned);
	env->imbalance = 0;
	sd->nr_balance_failed = 0;
out_one_pinned:
	/* newidle disregards intervals: it must not inflate them */
	if (idle == CPU_NEWLY_IDLE)
		return 0;
	if (((env->flags & LBF_ALL_PINNED) && sd->balance_interval < MAX_PINNED_INTERVAL) ||
	    sd->balance_interval < sd->max_interval) {
		sd->balance_interval *= 2;
		COUNT(m, balance_interval_doubled);
	}
	return 0;
}
