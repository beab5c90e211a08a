// SPDX-License-Identifier: GPL-2.0
/*
 * Balancing and blocked load (kernel/sched/fair.c: sched_balance_newidle(),
 * sched_balance_update_blocked_averages() / __update_blocked_fair(),
 * update_newidle_cost(), sched_balance_domains(), sched_balance_rq() with
 * its helpers (6.1: load_balance()), sched_balance_trigger(),
 * nohz_balancer_kick(), _nohz_idle_balance(), update_nohz_stats(),
 * nohz_newidle_balance(), nohz_balance_{enter,exit}_idle(),
 * list_add_leaf_cfs_rq(); kernel/sched/core.c ttwu_do_activate()'s avg_idle;
 * and, for --placement model, select_task_rq_fair()).
 *
 * What is exact: when each of these runs, the gates (avg_idle against
 * max_newidle_lb_cost, rd->overloaded, NI_RANDOM, jiffies-based intervals,
 * the nohz blocked-load period and per-jiffy limit), and what
 * update_blocked_averages() does to every cfs_rq.
 *
 * What is simplified (docs/model.md): the topology is one MC domain per NUMA
 * node (all CPUs of the node share the LLC; no SMT level) plus one NUMA
 * domain over all CPUs; the cost of a newidle pass is the profile's estimate
 * (a per-domain constant plus a per-cfs_rq cost for the blocked update), not
 * sched_clock.
 *
 * sched_balance_rq() (load_balance() in 6.1) is the kernel's arithmetic on
 * that topology: group statistics and group_classify() (has_spare,
 * fully_busy, overloaded), sched_balance_find_src_group()'s decision tree
 * with imbalance_pct, prefer-sibling and the NUMA allowance,
 * calculate_imbalance()'s migrate_task / migrate_util / migrate_load,
 * sched_balance_find_src_rq(), detach_tasks() with task_h_load() and
 * shr_bound(), can_migrate_task() per profile (LB_* flags), the
 * nr_balance_failed / balance_interval outcomes, and active balance
 * (need_active_balance(), the stopper's active_load_balance_cpu_stop()
 * with detach_one_task()).  Not modelled: CPU capacities other than 1024
 * (no RT/IRQ pressure, no asymmetry: no misfit, asym-packing or
 * reduced-capacity cases), SMT, affinity masks other than "one CPU"
 * (pinned: so no LBF_DST_PINNED retry - the one CPU of a task pinned to the
 * source is never in the destination group - but LBF_SOME_PINNED marks the
 * parent's group imbalanced, sg_imbalanced()), util_est
 * and NUMA balancing (fbq types, locality).  Under --placement trace
 * periodic passes, and newidle passes unless the replay asks for a pull
 * (idle_pull), are dry runs: the same decisions without moving anything; a
 * dry newidle pass that would have pulled still ends the domain walk and
 * counts as a success for NI_RANDOM, and a dry active balance only decides
 * whether the stopper would have moved a task (for nr_balance_failed).
 */
#include <stdlib.h>
#include <string.h>

#include "sched.h"

/* sd_init(): imbalance_pct of a domain without SMT (MC, NUMA) */
#define SD_IMBALANCE_PCT 117
/* sd_init(): cache_nice_tries of an SD_SHARE_LLC domain and of a NUMA one */
#define SD_CACHE_NICE_TRIES_LLC  1
#define SD_CACHE_NICE_TRIES_NUMA 2
/* kernel/sched/fair.c NUMA_IMBALANCE_MIN: tasks allowed apart between nodes */
#define NUMA_IMBALANCE_MIN 2
/* kernel/sched/fair.c: MAX_PINNED_INTERVAL, the interval cap (ms) when all are pinned */

/* ---- leaf_cfs_rq_list ------------------------------------------------ */

/*
 * list_add_leaf_cfs_rq(): the per-CPU list of cfs_rqs with load to decay,
 * ordered so that a child comes before its parent (update_blocked_averages()
 * walks it bottom-up, so a child's decay propagates up in one pass).  The
 * kernel builds it with tmp_alone_branch; here a cfs_rq is added together
 * with every missing ancestor, each inserted right before its parent, which
 * keeps the same invariant (on list => all ancestors on list).
 */
static void leaf_insert_before(struct rq *rq, struct cfs_rq *cfs_rq, struct cfs_rq *next)
{
	cfs_rq->leaf_next = next;
	if (next) {
		cfs_rq->leaf_prev = next->leaf_prev;
		if (next->leaf_prev)
			next->leaf_prev->leaf_next = cfs_rq;
		else
			rq->leaf_head = cfs_rq;
		next->leaf_prev = cfs_rq;
	} else {
		cfs_rq->leaf_prev = rq->leaf_tail;
		if (rq->leaf_tail)
			rq->leaf_tail->leaf_next = cfs_rq;
		else
			rq->leaf_head = cfs_rq;
		rq->leaf_tail = cfs_rq;
	}
}

static struct cfs_rq *parent_cfs_rq(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->se ? cfs_rq_of(cfs_rq->se) : NULL;
}

void list_add_leaf_cfs_rq(struct cfs_rq *cfs_rq)
{
	struct cfs_rq *parent;

	if (cfs_rq->on_list)
		return;
	parent = parent_cfs_rq(cfs_rq);
	if (parent)
		list_add_leaf_cfs_rq(parent);   /* ancestors first (depth <= groups) */
	leaf_insert_before(cfs_rq->rq, cfs_rq, parent);
	cfs_rq->on_list = true;
	if (parent)
		parent->nr_children_on_list++;
}

void list_del_leaf_cfs_rq(struct cfs_rq *cfs_rq)
{
	struct rq *rq = cfs_rq->rq;
	struct cfs_rq *parent;

	if (!cfs_rq->on_list)
		return;
	if (cfs_rq->leaf_prev)
		cfs_rq->leaf_prev->leaf_next = cfs_rq->leaf_next;
	else
		rq->leaf_head = cfs_rq->leaf_next;
	if (cfs_rq->leaf_next)
		cfs_rq->leaf_next->leaf_prev = cfs_rq->leaf_prev;
	else
		rq->leaf_tail = cfs_rq->leaf_prev;
	cfs_rq->leaf_prev = cfs_rq->leaf_next = NULL;
	cfs_rq->on_list = false;
	parent = parent_cfs_rq(cfs_rq);
	if (parent)
		parent->nr_children_on_list--;
}

/* ---- rq->cfs_tasks (most recently run first) ------------------------- */

void cfs_tasks_add(struct rq *rq, struct model_task *p)
{
	p->cfs_prev = NULL;
	p->cfs_next = rq->cfs_tasks_head;
	if (rq->cfs_tasks_head)
		rq->cfs_tasks_head->cfs_prev = p;
	else
		rq->cfs_tasks_tail = p;
	rq->cfs_tasks_head = p;
}

void cfs_tasks_del(struct rq *rq, struct model_task *p)
{
	if (p->cfs_prev)
		p->cfs_prev->cfs_next = p->cfs_next;
	else
		rq->cfs_tasks_head = p->cfs_next;
	if (p->cfs_next)
		p->cfs_next->cfs_prev = p->cfs_prev;
	else
		rq->cfs_tasks_tail = p->cfs_prev;
	p->cfs_prev = p->cfs_next = NULL;
}

void cfs_tasks_move_front(struct rq *rq, struct model_task *p)
{
	if (rq->cfs_tasks_head == p)
		return;
	cfs_tasks_del(rq, p);
	cfs_tasks_add(rq, p);
}

/* ---- topology -------------------------------------------------------- */

/*
 * build_sched_domains()'s imb_numa_nr (topology.c), computed before
 * degenerate domains are dropped.  The first domain above the LLC is not the
 * model's NUMA domain but the NODE level sched_init_numa() always adds (6.1:
 * also DIE/PKG), which spans the CPU's node: with the node as the LLC,
 * nr_llcs = node span / LLC span = 1, so imb = max(1, node CPUs >> 3)
 * (12.5% of the node).  Every domain above it gets imb x max(1, span /
 * span of the first NUMA domain); the model's one NUMA domain is that first
 * NUMA domain, factor 1.  So: max(1, CPUs of this CPU's node / 8), not the
 * number of nodes.
 */
static void set_imb_numa_nr(struct model *m, struct rq *rq)
{
	unsigned int cpu, node_cpus = 0, imb;
	int i;

	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		node_cpus += m->rqs[cpu].node == rq->node;
	imb = node_cpus >> 3;
	if (!imb)
		imb = 1;
	for (i = 0; i < rq->nr_sd; i++)
		if (rq->sd[i].numa)
			rq->sd[i].imb_numa_nr = imb;
}

int build_sched_domains(struct model *m, struct sr_error *err)
{
	unsigned int cpu, other;

	m->lb_cpus = calloc(m->nr_cpus, 1);
	m->sgc_imbalance = calloc((size_t)m->nr_nodes, 1);
	if (!m->lb_cpus || !m->sgc_imbalance) {
		model_err(err, 12, "model: out of memory building sched domains");
		return -1;
	}

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct rq *rq = &m->rqs[cpu];
		int level;

		for (level = 0; level < 2; level++) {
			struct sched_domain *sd = &rq->sd[rq->nr_sd];
			int n = 0;

			if (level == 1 && m->nr_nodes < 2)
				break;
			sd->span = calloc(m->nr_cpus, sizeof(int));
			if (!sd->span) {
				model_err(err, 12, "model: out of memory building sched domains");
				return -1;
			}
			for (other = 0; other < m->nr_cpus; other++)
				if (level == 1 || m->rqs[other].node == rq->node)
					sd->span[n++] = (int)other;
			/* a domain of one CPU is degenerate: the kernel drops it */
			if (n < 2) {
				free(sd->span);
				sd->span = NULL;
				continue;
			}
			sd->name = level ? "NUMA" : "MC";
			sd->numa = level == 1;
			sd->span_weight = n;
			/* sd_init(): intervals in ms scale with the span */
			sd->min_interval = (unsigned int)n;
			sd->max_interval = 2 * (unsigned int)n;
			sd->balance_interval = (unsigned int)n;
			sd->busy_factor = (unsigned int)m->prof.sd_busy_factor;
			sd->last_balance = m->jiffies;
			sd->last_decay_max_lb_cost = m->jiffies;
			/* NI_RANDOM starts at a 50% success rate (sd_init()) */
			sd->newidle_call = 512;
			sd->newidle_success = 256;
			sd->newidle_ratio = 512;
			sd->cache_nice_tries = sd->numa ? SD_CACHE_NICE_TRIES_NUMA :
							  SD_CACHE_NICE_TRIES_LLC;
			sd->imbalance_pct = SD_IMBALANCE_PCT;
			sd->share_llc = !sd->numa;
			rq->nr_sd++;
		}
		set_imb_numa_nr(m, rq);
		if (rq->nr_sd)
			rq->sd[rq->nr_sd - 1].top = true;
		rq->next_balance = m->jiffies;
	}
	return 0;
}

void free_sched_domains(struct model *m)
{
	unsigned int cpu;
	int i;

	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		for (i = 0; i < MODEL_MAX_DOMAINS; i++)
			free(m->rqs[cpu].sd[i].span);
	free(m->lb_cpus);
	m->lb_cpus = NULL;
	free(m->sgc_imbalance);
	m->sgc_imbalance = NULL;
}

static unsigned long msecs_to_jiffies(const struct model *m, unsigned long ms)
{
	return (ms * m->hz + 999) / 1000;
}

static inline bool time_after(unsigned long a, unsigned long b)
{
	return (long)(b - a) < 0;
}

static inline bool time_after_eq(unsigned long a, unsigned long b)
{
	return (long)(a - b) >= 0;
}

/*
 * max_load_balance_interval (init_sched_fair_class() /
 * update_max_interval()): HZ * num_online_cpus() / 10 jiffies, the cap of
 * every balance interval - 100 ms per CPU.
 */
static unsigned long max_load_balance_interval(const struct model *m)
{
	return (unsigned long)m->hz * m->nr_cpus / 10;
}

/* get_sd_balance_interval(): busy CPUs balance busy_factor times less often. */
static unsigned long get_sd_balance_interval(const struct model *m, const struct sched_domain *sd,
					     bool cpu_busy)
{
	unsigned long interval = sd->balance_interval;
	unsigned long max_lb = max_load_balance_interval(m);

	if (cpu_busy)
		interval *= sd->busy_factor;
	interval = msecs_to_jiffies(m, interval);
	if (cpu_busy)
		interval -= 1;
	if (max_lb < 1)
		max_lb = 1;
	if (interval < 1)
		interval = 1;
	if (interval > max_lb)
		interval = max_lb;
	return interval;
}

static void update_next_balance(const struct model *m, const struct sched_domain *sd,
				unsigned long *next_balance)
{
	unsigned long interval = get_sd_balance_interval(m, sd, false);
	unsigned long next = sd->last_balance + interval;

	if (time_after(*next_balance, next))
		*next_balance = next;
}

/* ---- avg_idle -------------------------------------------------------- */

/*
 * ttwu_do_activate(): how long this CPU stayed idle after a newidle pass,
 * as a running average (1/8 weight per sample), capped at twice the
 * largest newidle cost.  Newidle compares it with the cost of balancing.
 */
void ttwu_update_avg_idle(struct model *m, struct rq *rq)
{
	u64 delta, max;
	s64 diff;

	(void)m;
	if (!rq->idle_stamp)
		return;
	delta = rq->clock - rq->idle_stamp;
	max = 2 * rq->max_idle_balance_cost;
	diff = (s64)(delta - rq->avg_idle);
	rq->avg_idle += (u64)(diff / 8);
	if (rq->avg_idle > max)
		rq->avg_idle = max;
	rq->idle_stamp = 0;
}

/* ---- blocked load ---------------------------------------------------- */

static bool cfs_rq_has_blocked(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->avg.load_avg || cfs_rq->avg.util_avg;
}

/* cfs_rq_is_decayed(): nothing left to decay here or below: off the list. */
static bool cfs_rq_is_decayed(const struct model *m, const struct cfs_rq *cfs_rq)
{
	if (cfs_rq->load.weight)
		return false;
	if (!load_avg_is_decayed(&cfs_rq->avg))
		return false;
	if (cfs_rq->nr_children_on_list)
		return false;
	if (sched_feat(m, TG_CONTRIB_NOT_DECAYED) && cfs_rq->tg_load_avg_contrib)
		return false;
	if (vflag(m, DELAY_REMOVED_LOAD) && cfs_rq->prop_removed_sum)
		return false;
	return true;
}

/*
 * __update_blocked_fair(): bottom-up over the leaf list, decay every cfs_rq,
 * push the change into tg->load_avg (rate-limited) and into the group
 * entity's parent (propagation) - but no update_cfs_group(): group weights
 * are not refreshed on this path.  Returns the number of cfs_rqs visited
 * (the cost model charges per cfs_rq).
 */
static unsigned int __update_blocked_fair(struct model *m, struct rq *rq, bool *done)
{
	struct cfs_rq *cfs_rq, *next;
	unsigned int visited = 0;

	for (cfs_rq = rq->leaf_head; cfs_rq; cfs_rq = next) {
		struct sched_entity *se;

		next = cfs_rq->leaf_next;
		visited++;
		if (update_cfs_rq_load_avg(m, cfs_rq_clock_pelt(cfs_rq), cfs_rq)) {
			update_tg_load_avg(m, cfs_rq);
			if (vflag(m, DELAY_REMOVED_LOAD))
				fold_removed_propagate(m, cfs_rq);
		}
		se = cfs_rq->se;
		if (se && !skip_blocked_update(se))
			update_load_avg(m, cfs_rq_of(se), se, UPDATE_TG);
		/* list_del may change next's neighbours, not next itself */
		if (cfs_rq_is_decayed(m, cfs_rq))
			list_del_leaf_cfs_rq(cfs_rq);
		if (cfs_rq_has_blocked(cfs_rq))
			*done = false;
	}
	return visited;
}

static unsigned int update_blocked_averages(struct model *m, int cpu)
{
	struct rq *rq = &m->rqs[cpu];
	bool done = true;
	unsigned int visited;

	COUNT(m, update_blocked_averages);
	rq->last_blocked_load_update_tick = m->jiffies;
	update_rq_clock(m, rq, m->now);
	visited = __update_blocked_fair(m, rq, &done);
	if (done)
		rq->has_blocked_load = false;
	return visited;
}

void sched_balance_update_blocked_averages(struct model *m, int cpu)
{
	update_blocked_averages(m, cpu);
}

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
 * delayed tasks like any other), the ineligible soft limit, affinity (the
 * model's pinned tasks allow only their CPU, so there is never another CPU
 * of the local group to retry with: no LBF_DST_PINNED), not running, and
 * cache cold - or hot but the domain has failed more than cache_nice_tries
 * balances in a row.  LBF_ALL_PINNED is cleared only by a task that passes
 * the affinity test, so a pass whose candidates were all delayed or
 * ineligible counts as "all pinned", as in the kernel.  No per-CPU kthreads,
 * no proxy execution, no NUMA locality in the model.
 */
static bool can_migrate_task(struct model *m, struct model_task *p, struct lb_env *env)
{
	struct sched_domain *sd = env->sd;

	if (p->se.sched_delayed && sched_feat(m, LB_DELAYED_LOAD_ONLY) &&
	    env->migration_type != migrate_load)
		return false;
	/*
	 * lb_throttled_hierarchy(): never onto a CPU where the task's group is
	 * throttled (CFS bandwidth).  The model throttles as 6.18 does
	 * (model/bandwidth.c), so 6.18's destination-only test is used for
	 * every profile; 6.12's throttled_lb_pair() also refused a throttled
	 * source, whose tasks 6.18 keeps runnable until they leave for limbo.
	 */
	if (throttled_hierarchy(m, p->tg->cfs_rq[env->dst_rq->cpu]))
		return false;
	if (sched_feat(m, LB_INELIGIBLE_SOFT_LIMIT) && !sd->nr_balance_failed &&
	    task_is_ineligible_on_dst_cpu(m, p, env->dst_rq->cpu))
		return false;
	if (p->pinned) {
		env->flags |= LBF_SOME_PINNED;
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
	if (task_hot(m, p, env->dry_run ? m->now : env->src_rq->clock_task, env->dst_rq) &&
	    sd->nr_balance_failed <= sd->cache_nice_tries) {
		COUNT(m, load_balance_hot);
		return false;
	}
	return true;
}

static bool available_idle_cpu(const struct model *m, int cpu);
static unsigned long cpu_load(const struct model *m, int cpu);

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
static unsigned long cpu_util_cfs(const struct model *m, int cpu)
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

/* The fair tasks the balancer counts on a CPU (sum_h_nr_running, find_src_rq). */
static unsigned int lb_h_nr(const struct model *m, const struct rq *rq)
{
	return sched_feat(m, LB_RUNNABLE_COUNTS) ? rq->cfs.h_nr_runnable : rq->cfs.h_nr_queued;
}

static bool group_has_cpu(const struct model *m, const struct sched_domain *sd, int g, int cpu);

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
static bool sg_imbalanced(const struct model *m, const struct sched_domain *sd, int g)
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
 * balance below it failed because of pinned tasks) is imbalanced.  The asym
 * packing, SMT balance and misfit types need asymmetric CPUs or SMT, which
 * the model does not have.
 */
static enum group_type group_classify(unsigned int pct, bool sg_imbalanced,
				      unsigned int nr_running, unsigned int weight,
				      unsigned long capacity, unsigned long util,
				      unsigned long runnable)
{
	if (nr_running > weight &&
	    (capacity * 100 < util * pct || capacity * pct < runnable * 100))
		return group_overloaded;
	if (sg_imbalanced)
		return group_imbalanced;
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
 * the group's CPUs still in env->cpus; capacity and weight of the whole
 * group.  avg_load (load per 1024 of capacity) only for an overloaded group.
 * At the root domain, a CPU with nr_running > 1 sets *overloaded.
 */
static void update_sg_lb_stats(struct model *m, struct lb_env *env, int g, struct sg_lb_stats *sgs,
			       bool *overloaded)
{
	struct sched_domain *sd = env->sd;
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
	}
	sgs->group_capacity = (unsigned long)sgs->group_weight * SCHED_CAPACITY_SCALE;
	sgs->group_type = group_classify(sd->imbalance_pct, sg_imbalanced(m, sd, g),
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
 * update_sd_pick_busiest(); the domain's total load and capacity.  The root
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
 * (force_balance), before any of these.  Prefer-sibling with spare local capacity and a
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
 * cpu_load() per capacity, skipping a CPU whose single fair task outweighs
 * the whole imbalance (its capacity is never reduced here); migrate_util the
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
		unsigned long capacity = SCHED_CAPACITY_SCALE, load, util;
		unsigned int nr;

		if (!group_has_cpu(m, sd, g, cpu) || !m->lb_cpus[cpu])
			continue;
		nr = lb_h_nr(m, rq);
		if (!nr)
			continue;
		switch (env->migration_type) {
		case migrate_load:
			load = cpu_load(m, cpu);
			if (nr == 1 && load > (unsigned long)env->imbalance)
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
 * migrate_misfit.  On the model's symmetric CPUs of capacity 1024 only the
 * imbalanced one can hold: a task-count imbalance that failed more than
 * cache_nice_tries + 2 times in a row - the same test in 6.1, 6.12 and 6.18.
 */
static bool need_active_balance(const struct lb_env *env)
{
	return env->migration_type == migrate_task &&
	       env->sd->nr_balance_failed > env->sd->cache_nice_tries + 2;
}

/*
 * detach_one_task(): the first task from the tail of src's cfs_tasks (the
 * least recently run) that can_migrate_task() lets go, with LBF_ACTIVE_LB:
 * no cache-hot test, and the task the stopper preempted is a candidate like
 * any queued one (it is at the head, the most recently run, so it goes only
 * if no other task may).  Dry: the task that would go, nothing detached.
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
 * keeps one non-fair task per CPU, so nr_running is one short then).
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
	model_other_class(m, rq->cpu, true, now);
	p = active_load_balance_cpu_stop(m, rq, false, true);
	model_other_class(m, rq->cpu, false, now);
	return p;
}

int model_cpu_stop(struct model *m, int cpu, uint64_t now)
{
	struct rq *rq;

	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return -1;
	rq = &m->rqs[cpu];
	if (!rq->active_balance)
		return 0;
	model_advance_time(m, now);
	update_rq_clock(m, rq, now);
	return active_load_balance_cpu_stop(m, rq, false, rq->other_class) != NULL;
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

#define MAX_PINNED_INTERVAL 512

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
 *   here, out_one_pinned instead: no reset, the interval grows.  (On the
 *   model's states that case cannot arise: a pass fails without being
 *   all-pinned only when a task passed the affinity test and stayed, which
 *   is the running task - unpinned, then - or a cache-hot one, and hot
 *   tasks go once nr_balance_failed exceeds cache_nice_tries, before
 *   need_active_balance()'s cache_nice_tries + 2.  The test is kept in the
 *   kernel's place.)
 *
 * Without task moves (--placement trace: periodic balancing, and newidle
 * balancing unless newidle_moves_tasks is set) the pass is a dry run: the same decisions, nr_balance_failed and interval updates,
 * nothing moved, 0 returned.  Returns the number of tasks moved.
 */
int sched_balance_rq(struct model *m, struct rq *this_rq, struct sched_domain *sd,
		     enum cpu_idle_type idle, struct lb_env *env)
{
	bool moves = m->balance_moves_tasks || (idle == CPU_NEWLY_IDLE && m->newidle_moves_tasks);
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
		 * (LBF_DST_PINNED, the retry with another CPU of the local
		 * group, cannot be set: a pinned task's one CPU is this source.)
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
		if (need_active_balance(env)) {
			env->need_active_balance = true;
			COUNT(m, lb_active_needed);
			/*
			 * "Don't kick the active_load_balance_cpu_stop, if the
			 * curr task on busiest CPU can't be moved to this_cpu":
			 * a pinned fair task, the idle task (its own CPU only)
			 * or a non-fair task, whose affinity the model does not
			 * know - taken as pinned, as the per-CPU kthreads that
			 * most RT tasks of the traces are (unreachable here:
			 * see above).
			 */
			if (!busiest->curr || busiest->curr->pinned)
				goto out_one_pinned;
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

/* ---- newidle --------------------------------------------------------- */

static void update_newidle_stats(struct sched_domain *sd, unsigned int success)
{
	sd->newidle_call++;
	sd->newidle_success += success;
	/* a window of 1024 calls, halved when full: a decaying success rate */
	if (sd->newidle_call >= 1024) {
		sd->newidle_ratio = sd->newidle_success;
		sd->newidle_call /= 2;
		sd->newidle_success /= 2;
	}
}

/*
 * update_newidle_cost(): track the largest newidle cost per domain; decay it
 * by ~1% (253/256) at most once per second.  True when it decayed.
 */
static bool update_newidle_cost(struct model *m, struct sched_domain *sd, u64 cost,
				unsigned int success)
{
	unsigned long next_decay = sd->last_decay_max_lb_cost + m->hz;

	if (cost)
		update_newidle_stats(sd, success);
	if (cost > sd->max_newidle_lb_cost) {
		sd->max_newidle_lb_cost = cost;
		sd->last_decay_max_lb_cost = m->jiffies;
	} else if (time_after(m->jiffies, next_decay)) {
		/* the kernel's ~1 % per second: 253/256 */
		sd->max_newidle_lb_cost = (sd->max_newidle_lb_cost * 253) / 256;
		sd->last_decay_max_lb_cost = m->jiffies;
		return true;
	}
	return false;
}

#define NOHZ_STATS_KICK   0x1
#define NOHZ_BALANCE_KICK 0x2
#define NOHZ_NEXT_KICK    0x4

static void _nohz_idle_balance(struct model *m, struct rq *this_rq, unsigned int flags,
			       bool this_idle);

/*
 * nohz_newidle_balance(): going idle without balancing, and idle CPUs have
 * blocked load due for an update: this CPU refreshes them from its idle
 * loop (NOHZ_NEWILB_KICK, since v5.13) unless it expects to wake soon.
 */
static void nohz_newidle_balance(struct model *m, struct rq *this_rq)
{
	if (this_rq->avg_idle < m->sysctl_sched_migration_cost)
		return;
	if (!m->nohz.has_blocked || time_after(m->nohz.next_blocked, m->jiffies))
		return;
	COUNT(m, nohz_stats_kick);
	/* run from this CPU's idle loop (nohz_run_idle_balance()): it is idle */
	_nohz_idle_balance(m, this_rq, NOHZ_STATS_KICK, true);
}

/*
 * sched_balance_newidle(): the CPU found nothing to run.  If balancing is
 * worth it (some CPU is overloaded and this one expects to stay idle longer
 * than balancing the lowest domain costs), refresh this CPU's blocked load
 * and try each domain while the expected idle time covers the accumulated
 * cost.  Variants: lazy blocked update (only right before the first domain
 * actually balanced) and the pre-5.16 entry test.
 * Returns > 0 if fair tasks are now queued here.
 */
int sched_balance_newidle(struct model *m, struct rq *this_rq)
{
	unsigned long next_balance = m->jiffies + m->hz;
	struct sched_domain *sd;
	u64 curr_cost = 0, pending_cost = 0;
	bool blocked_done = false;
	struct lb_env env;
	int pulled_task = 0;
	bool would_pull;
	int i;

	COUNT(m, newidle_balance);
	this_rq->idle_stamp = this_rq->clock;

	sd = this_rq->nr_sd ? &this_rq->sd[0] : NULL;
	if (!sd) {
		COUNT(m, newidle_balance_skip);
		goto out;
	}
	if (vflag(m, NEWIDLE_PRE_5_16)) {
		if (this_rq->avg_idle < m->sysctl_sched_migration_cost || !m->rd_overloaded) {
			update_next_balance(m, sd, &next_balance);
			COUNT(m, newidle_balance_skip);
			goto out;
		}
	} else if (!m->rd_overloaded || this_rq->avg_idle < sd->max_newidle_lb_cost) {
		update_next_balance(m, sd, &next_balance);
		COUNT(m, newidle_balance_skip);
		goto out;
	}
	COUNT(m, newidle_balance_run);

	if (!vflag(m, LAZY_BLOCKED_NEWIDLE)) {
		COUNT(m, update_blocked_averages_newidle);
		pending_cost = update_blocked_averages(m, this_rq->cpu) * m->blocked_cost_per_cfs_rq_ns;
		blocked_done = true;
	}

	for (i = 0; i < this_rq->nr_sd; i++) {
		unsigned int weight = 1;
		u64 domain_cost;

		sd = &this_rq->sd[i];
		update_next_balance(m, sd, &next_balance);
		if (this_rq->avg_idle < curr_cost + sd->max_newidle_lb_cost)
			break;

		if (sched_feat(m, NI_RANDOM)) {
			/* a 1k-sided die: balance in proportion to the success rate */
			u32 d1k = sched_rng(this_rq) % 1024;

			weight = 1 + sd->newidle_ratio;
			if (d1k > weight) {
				update_newidle_stats(sd, 0);
				COUNT(m, newidle_balance_random_skip);
				continue;
			}
			weight = (1024 + weight / 2) / weight;
		}

		if (!blocked_done) {
			COUNT(m, update_blocked_averages_newidle);
			pending_cost += update_blocked_averages(m, this_rq->cpu) *
					m->blocked_cost_per_cfs_rq_ns;
			blocked_done = true;
		}
		COUNT(m, newidle_balance_domains);
		pulled_task = sched_balance_rq(m, this_rq, sd, CPU_NEWLY_IDLE, &env);
		/*
		 * A dry run (--placement trace) moves nothing and returns 0, but
		 * the kernel would have pulled env.detached tasks: its success
		 * feeds NI_RANDOM's newidle_ratio and stops the domain walk as a
		 * real pull would; the caller still gets 0 (nothing is queued).
		 */
		would_pull = env.dry_run ? env.detached > 0 : pulled_task > 0;
		domain_cost = pending_cost + m->newidle_domain_cost_ns;
		pending_cost = 0;
		curr_cost += domain_cost;
		update_newidle_cost(m, sd, domain_cost, weight * would_pull);
		if (would_pull || !env.continue_balancing)
			break;
	}

	if (curr_cost > this_rq->max_idle_balance_cost)
		this_rq->max_idle_balance_cost = curr_cost;
	if (this_rq->cfs.h_nr_queued && !pulled_task)
		pulled_task = 1;

out:
	if (time_after(this_rq->next_balance, next_balance))
		this_rq->next_balance = next_balance;
	if (pulled_task) {
		this_rq->idle_stamp = 0;
		COUNT(m, newidle_balance_pulled);
	} else {
		nohz_newidle_balance(m, this_rq);
	}
	return pulled_task;
}

/* ---- periodic balance and nohz --------------------------------------- */

/*
 * sched_balance_domains(): the regular visit of every domain - decay the
 * newidle costs (and the rq-wide max with them) and balance each domain
 * whose interval has passed.
 */
static void sched_balance_domains(struct model *m, struct rq *rq, bool idle)
{
	bool busy = !idle;
	unsigned long next_balance = m->jiffies + 60UL * m->hz;
	bool update_next = false, need_decay = false, continue_balancing = true;
	struct lb_env env;
	u64 max_cost = 0;
	int i;

	COUNT(m, periodic_balance);
	for (i = 0; i < rq->nr_sd; i++) {
		struct sched_domain *sd = &rq->sd[i];
		unsigned long interval;

		need_decay = update_newidle_cost(m, sd, 0, 0);
		max_cost += sd->max_newidle_lb_cost;
		/* should_we_balance() said no at a lower level: only decay */
		if (!continue_balancing) {
			if (need_decay)
				continue;
			break;
		}
		interval = get_sd_balance_interval(m, sd, busy);
		if (time_after_eq(m->jiffies, sd->last_balance + interval)) {
			if (sched_balance_rq(m, rq, sd, idle ? CPU_IDLE : CPU_NOT_IDLE, &env)) {
				idle = !rq->curr && !rq->cfs.h_nr_queued;
				busy = !idle;
			}
			continue_balancing = env.continue_balancing;
			sd->last_balance = m->jiffies;
			interval = get_sd_balance_interval(m, sd, busy);
		}
		if (time_after(next_balance, sd->last_balance + interval)) {
			next_balance = sd->last_balance + interval;
			update_next = true;
		}
	}
	if (need_decay)
		rq->max_idle_balance_cost = max_u64(m->sysctl_sched_migration_cost, max_cost);
	if (update_next)
		rq->next_balance = next_balance;
}

/* update_nohz_stats(): an idle CPU's blocked load, at most once a jiffy. */
static bool update_nohz_stats(struct model *m, struct rq *rq)
{
	if (!rq->has_blocked_load)
		return false;
	if (!rq->nohz_idle)
		return false;
	if (!time_after(m->jiffies, rq->last_blocked_load_update_tick))
		return true;
	COUNT(m, update_blocked_averages_nohz);
	update_blocked_averages(m, rq->cpu);
	return rq->has_blocked_load;
}

/*
 * _nohz_idle_balance(): on behalf of every tickless idle CPU, starting after
 * this one and ending with it, refresh its blocked load (NOHZ_STATS_KICK)
 * and balance it if due (NOHZ_BALANCE_KICK); every pass, NOHZ_NEXT_KICK
 * alone included, collects the idle CPUs' earliest next_balance.
 * @this_idle: this CPU is idle although the model still has its previous
 * task as curr (the NEWILB pass runs from the idle loop after __schedule()).
 */
static void _nohz_idle_balance(struct model *m, struct rq *this_rq, unsigned int flags,
			       bool this_idle)
{
	unsigned long now = m->jiffies;
	unsigned long next_balance = now + 60UL * m->hz;
	bool has_blocked_load = false, update_next = false;
	unsigned int i;

	if (flags & NOHZ_STATS_KICK)
		m->nohz.has_blocked = false;
	if (flags & NOHZ_NEXT_KICK)
		m->nohz.needs_update = false;
	for (i = 1; i <= m->nr_cpus; i++) {
		struct rq *rq = &m->rqs[((unsigned int)this_rq->cpu + i) % m->nr_cpus];

		if (!rq->nohz_idle)
			continue;
		if (!(rq == this_rq && this_idle) && !available_idle_cpu(m, rq->cpu))
			continue;
		if (flags & NOHZ_STATS_KICK)
			has_blocked_load |= update_nohz_stats(m, rq);
		if (time_after_eq(m->jiffies, rq->next_balance)) {
			if (flags & NOHZ_BALANCE_KICK)
				sched_balance_domains(m, rq, true);
		}
		if (time_after(next_balance, rq->next_balance)) {
			next_balance = rq->next_balance;
			update_next = true;
		}
	}
	if (update_next)
		m->nohz.next_balance = next_balance;
	if (flags & NOHZ_STATS_KICK)
		m->nohz.next_blocked = now + msecs_to_jiffies(m, (unsigned long)m->prof.nohz_blocked_period_ms);
	if (has_blocked_load)
		m->nohz.has_blocked = true;
}

/*
 * nohz_balance_enter_idle(): the tick stops on an idle CPU.  It has blocked
 * load to decay from now on; a CPU without sched domains (a single CPU)
 * never joins the nohz mask nor raises nohz.has_blocked.
 */
void nohz_balance_enter_idle(struct model *m, struct rq *rq)
{
	rq->has_blocked_load = true;
	if (!rq->nohz_idle) {
		if (!rq->nr_sd)
			return;   /* on_null_domain() */
		rq->nohz_idle = true;
		m->nohz.nr_cpus++;
		m->nohz.needs_update = true;
	}
	m->nohz.has_blocked = true;
}

void nohz_balance_exit_idle(struct model *m, struct rq *rq)
{
	if (!rq->nohz_idle)
		return;
	rq->nohz_idle = false;
	m->nohz.nr_cpus--;
}

/* The LLC's nr_busy_cpus: CPUs of this node (the model's LLC) not in the
 * nohz mask; 0 if the node has a single CPU (no sd_llc_shared). */
static unsigned int llc_nr_busy_cpus(const struct model *m, const struct rq *rq)
{
	unsigned int i, n = 0, busy = 0;

	for (i = 0; i < m->nr_cpus; i++) {
		if (m->rqs[i].node != rq->node)
			continue;
		n++;
		busy += !m->rqs[i].nohz_idle;
	}
	return n > 1 ? busy : 0;
}

/*
 * nohz_balancer_kick(): a busy CPU's tick asks an idle CPU to refresh the
 * idle CPUs' blocked load (NOHZ_STATS_KICK, every LOAD_AVG_PERIOD ms) and,
 * once nohz.next_balance is due, to balance for them (NOHZ_BALANCE_KICK)
 * when this CPU has two tasks or its LLC has more than one busy CPU; after a
 * CPU entered the mask, to collect next_balance (NOHZ_NEXT_KICK).  The
 * misfit, reduced-capacity and asym-packing kicks need asymmetric CPUs,
 * which the model does not have.  The kicked CPU is the first idle CPU of
 * the mask other than this one (find_new_ilb()); the model runs its work at
 * once instead of by IPI.
 */
void nohz_balancer_kick(struct model *m, struct rq *rq)
{
	unsigned int flags = 0;
	unsigned int i;
	struct rq *ilb = NULL;

	if (rq->idle_balance)
		return;
	nohz_balance_exit_idle(m, rq);
	if (!m->nohz.nr_cpus)
		return;
	if (m->nohz.has_blocked && time_after(m->jiffies, m->nohz.next_blocked))
		flags = NOHZ_STATS_KICK;
	if (!time_after(m->nohz.next_balance, m->jiffies) &&
	    (rq->nr_running >= 2 || llc_nr_busy_cpus(m, rq) > 1))
		flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
	if (m->nohz.needs_update)
		flags |= NOHZ_NEXT_KICK;
	if (!flags)
		return;

	/* kick_ilb() */
	if (flags & NOHZ_BALANCE_KICK)
		m->nohz.next_balance = m->jiffies + 1;
	for (i = 0; i < m->nr_cpus; i++) {
		struct rq *r = &m->rqs[i];

		if (r != rq && r->nohz_idle && available_idle_cpu(m, r->cpu)) {
			ilb = r;
			break;
		}
	}
	if (!ilb)
		return;
	if (flags & NOHZ_STATS_KICK)
		COUNT(m, nohz_stats_kick);
	_nohz_idle_balance(m, ilb, flags, false);
}

/*
 * sched_balance_trigger(): SCHED_SOFTIRQ when the CPU's next_balance is due
 * (the softirq refreshes this CPU's blocked load, then balances), then the
 * nohz kick.
 */
void sched_balance_trigger(struct model *m, struct rq *rq)
{
	if (!rq->nr_sd)
		return;
	if (time_after_eq(m->jiffies, rq->next_balance)) {
		COUNT(m, update_blocked_averages_periodic);
		update_blocked_averages(m, rq->cpu);
		sched_balance_domains(m, rq, rq->idle_balance);
	}
	nohz_balancer_kick(m, rq);
}

/* ---- placement for --placement model --------------------------------- */

static bool available_idle_cpu(const struct model *m, int cpu)
{
	const struct rq *rq = &m->rqs[cpu];

	return !rq->curr && !rq->other_class && !rq->cfs.h_nr_queued;
}

static bool cpus_share_cache(const struct model *m, int a, int b)
{
	return m->rqs[a].node == m->rqs[b].node;
}

static unsigned long cpu_load(const struct model *m, int cpu)
{
	return m->rqs[cpu].cfs.avg.load_avg;
}

/*
 * record_wakee(): the waker (@curr, the task current on the waking CPU - in
 * an interrupt the interrupted task, as in the kernel) counts how often it
 * switches between wakees; the count halves once a second (HZ jiffies).
 */
static void record_wakee(struct model *m, struct model_task *curr, const struct model_task *p)
{
	if (!curr)
		return;
	if (time_after(m->jiffies, curr->wakee_flip_decay_ts + m->hz)) {
		curr->wakee_flips >>= 1;
		curr->wakee_flip_decay_ts = m->jiffies;
	}
	if (curr->last_wakee != p) {
		curr->last_wakee = p;
		curr->wakee_flips++;
	}
}

/*
 * wake_wide(): an M:N waker/wakee relation (the one that flips more does so
 * at least llc_size times as often as the other, which flips at least
 * llc_size times) spreads instead of pulling the wakee to the waker's LLC.
 */
static bool wake_wide(const struct model_task *curr, const struct model_task *p, int llc_size)
{
	unsigned int master = curr ? curr->wakee_flips : 0, slave = p->wakee_flips;

	if (master < slave) {
		unsigned int t = master;

		master = slave;
		slave = t;
	}
	return !(slave < (unsigned int)llc_size || master < slave * (unsigned int)llc_size);
}

static int llc_size(const struct model *m, int cpu)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < m->nr_cpus; i++)
		n += cpus_share_cache(m, cpu, (int)i);
	return n;
}

/*
 * wake_affine(): WA_IDLE (an idle waker CPU sharing the cache wins, a sync
 * wakeup from a CPU running only the waker wins, an idle prev wins), then
 * WA_WEIGHT (compare the loads with the task moved, prev biased by half the
 * domain's imbalance_pct of 117).  No task_h_load: the task's own load_avg.
 */
static int wake_affine(struct model *m, struct model_task *p, int this_cpu, int prev_cpu,
		       bool sync)
{
	unsigned long task_load = p->se.avg.load_avg;
	s64 this_eff_load, prev_eff_load;

	if (available_idle_cpu(m, this_cpu) && cpus_share_cache(m, this_cpu, prev_cpu))
		return available_idle_cpu(m, prev_cpu) ? prev_cpu : this_cpu;
	if (sync && m->rqs[this_cpu].nr_running == 1)
		return this_cpu;
	if (available_idle_cpu(m, prev_cpu))
		return prev_cpu;

	this_eff_load = (s64)cpu_load(m, this_cpu) + (s64)task_load;
	if (sync) {
		struct model_task *curr = m->rqs[this_cpu].curr;
		s64 cl = curr ? (s64)curr->se.avg.load_avg : 0;

		this_eff_load = this_eff_load > cl ? this_eff_load - cl : 0;
	}
	prev_eff_load = (s64)cpu_load(m, prev_cpu) - (s64)task_load;
	if (prev_eff_load < 0)
		prev_eff_load = 0;
	this_eff_load *= 100;
	prev_eff_load *= 100 + (SD_IMBALANCE_PCT - 100) / 2;
	if (sync)
		prev_eff_load += 1;
	return this_eff_load < prev_eff_load ? this_cpu : prev_cpu;
}

/*
 * select_idle_cpu(): scan the LLC from target + 1 round to target for an idle
 * CPU; with SIS_UTIL at most nr_idle_scan CPUs, none when it is 0 (the LLC
 * is busy: "unlikely to have an idle CPU").  -1 if none was found.
 */
static int select_idle_cpu(struct model *m, const struct model_task *p, int target)
{
	int nr = INT32_MAX;
	unsigned int i;

	if (sched_feat(m, SIS_UTIL)) {
		nr = m->nr_idle_scan[m->rqs[target].node] + 1;
		if (nr == 1)
			return -1;
	}
	for (i = 1; i <= m->nr_cpus; i++) {
		int cpu = (int)(((unsigned int)target + i) % m->nr_cpus);

		if (!cpus_share_cache(m, cpu, target) || (p->pinned && cpu != p->cpu))
			continue;
		if (--nr <= 0)
			return -1;
		if (available_idle_cpu(m, cpu))
			return cpu;
	}
	return -1;
}

/*
 * select_idle_sibling(): an idle target; an idle prev sharing its cache; the
 * task's recent_used_cpu if idle and sharing the cache (the task's
 * recent_used_cpu becomes prev on the way); then select_idle_cpu() over the
 * LLC; else target.  No SMT (no idle-core search), no per-CPU-kthread
 * stacking rule (the model does not know which wakers are kthreads), no
 * asymmetric capacities.
 */
static int select_idle_sibling(struct model *m, struct model_task *p, int prev, int target)
{
	int recent, i;

	if (available_idle_cpu(m, target))
		return target;
	if (prev != target && cpus_share_cache(m, prev, target) && available_idle_cpu(m, prev))
		return prev;
	recent = p->recent_used_cpu;
	p->recent_used_cpu = prev;
	if (recent >= 0 && (unsigned int)recent < m->nr_cpus && recent != prev &&
	    recent != target && cpus_share_cache(m, recent, target) &&
	    available_idle_cpu(m, recent) && !p->pinned)
		return recent;
	i = select_idle_cpu(m, p, target);
	return i >= 0 ? i : target;
}

/*
 * The fork slow path, sched_balance_find_dst_cpu(): from the highest domain
 * with SD_BALANCE_FORK (every domain) down, pick the least busy group
 * (sched_balance_find_dst_group()), then a CPU in it
 * (sched_balance_find_dst_group_cpu()), and continue below that CPU.  The
 * model's groups are single CPUs in MC and nodes in NUMA.  Group statistics
 * are update_sg_wakeup_stats()'s for a task not attached anywhere yet (a new
 * child): load, util (capped per CPU) and runnable of the root cfs_rqs,
 * nr_running, idle CPUs; classified by group_classify() with
 * imbalance_pct 117 (has spare capacity < fully busy < imbalanced <
 * overloaded; an imbalanced group - sg_imbalanced() - is never picked over
 * an equal one and keeps the task local: "not used in the slow wakeup
 * path"; no misfit, asym-packing or SMT groups here).
 */
struct fork_sg_stats {
	unsigned long load, util, runnable, capacity, avg_load;
	unsigned int nr_running, idle_cpus, weight;
	enum group_type type;
};

static bool group_has_cpu(const struct model *m, const struct sched_domain *sd, int g, int cpu)
{
	return sd->numa ? m->rqs[cpu].node == g : cpu == g;
}

static void update_sg_wakeup_stats(const struct model *m, const struct sched_domain *sd, int g,
				   struct fork_sg_stats *sgs)
{
	int i;

	memset(sgs, 0, sizeof(*sgs));
	for (i = 0; i < sd->span_weight; i++) {
		const struct rq *rq = &m->rqs[sd->span[i]];

		if (!group_has_cpu(m, sd, g, sd->span[i]))
			continue;
		sgs->load += rq->cfs.avg.load_avg;
		sgs->util += cpu_util_cfs(m, sd->span[i]);
		sgs->runnable += rq->cfs.avg.runnable_avg;
		sgs->nr_running += rq->nr_running;
		if (!rq->nr_running && !rq->curr && !rq->other_class)
			sgs->idle_cpus++;
		sgs->capacity += SCHED_CAPACITY_SCALE;
		sgs->weight++;
	}
	sgs->type = group_classify(SD_IMBALANCE_PCT, sg_imbalanced(m, sd, g), sgs->nr_running,
				   sgs->weight, sgs->capacity,
				   sgs->util, sgs->runnable);
	if (sgs->type == group_fully_busy || sgs->type == group_overloaded)
		sgs->avg_load = sgs->load * SCHED_CAPACITY_SCALE / sgs->capacity;
}

/* update_pick_idlest(): whether @sgs is idler than the idlest so far. */
static bool update_pick_idlest(const struct fork_sg_stats *idlest, const struct fork_sg_stats *sgs)
{
	if (sgs->type != idlest->type)
		return sgs->type < idlest->type;
	if (sgs->type == group_imbalanced)
		return false;   /* "not used in the slow wakeup path" */
	if (sgs->type != group_has_spare)
		return idlest->avg_load > sgs->avg_load;
	if (idlest->idle_cpus != sgs->idle_cpus)
		return sgs->idle_cpus > idlest->idle_cpus;
	return idlest->util > sgs->util;
}

/* sched_balance_find_dst_group(): the group to move to, -1 to stay local. */
static int find_dst_group(const struct model *m, const struct sched_domain *sd, int this_cpu)
{
	struct fork_sg_stats local = { 0 }, idlest = { .avg_load = ~0UL, .type = group_overloaded };
	struct fork_sg_stats sgs;
	int g, nr_groups = sd->numa ? m->nr_nodes : (int)m->nr_cpus, best = -1;
	unsigned long imbalance = SCHED_CAPACITY_SCALE * (SD_IMBALANCE_PCT - 100) / 100;

	for (g = 0; g < nr_groups; g++) {
		bool in_span = false;
		int i;

		for (i = 0; i < sd->span_weight; i++)
			in_span = in_span || group_has_cpu(m, sd, g, sd->span[i]);
		if (!in_span)
			continue;
		if (group_has_cpu(m, sd, g, this_cpu)) {
			update_sg_wakeup_stats(m, sd, g, &local);
			continue;
		}
		update_sg_wakeup_stats(m, sd, g, &sgs);
		if (update_pick_idlest(&idlest, &sgs)) {
			idlest = sgs;
			best = g;
		}
	}
	if (best < 0 || local.type < idlest.type)
		return -1;
	if (local.type > idlest.type)
		return best;
	if (local.type == group_imbalanced)
		return -1;      /* "not used in the slow wakeup path" */
	if (local.type != group_has_spare) {
		if (sd->numa && idlest.avg_load + imbalance >= local.avg_load)
			return -1;
		if (idlest.avg_load >= local.avg_load + imbalance)
			return -1;
		if (100 * local.avg_load <= SD_IMBALANCE_PCT * idlest.avg_load)
			return -1;
		return best;
	}
	return local.idle_cpus >= idlest.idle_cpus ? -1 : best;
}

/*
 * sched_balance_find_dst_group_cpu(): a single CPU; else the most recently
 * idled idle CPU (no cpuidle exit latencies in the model), else the least
 * loaded one.
 */
static int find_dst_group_cpu(const struct model *m, const struct sched_domain *sd, int g,
			      int this_cpu)
{
	unsigned long min_load = ~0UL;
	u64 latest = 0;
	int i, least = this_cpu, shallowest = -1, n = 0, only = -1;

	for (i = 0; i < sd->span_weight; i++) {
		int cpu = sd->span[i];

		if (!group_has_cpu(m, sd, g, cpu))
			continue;
		n++;
		only = cpu;
		if (available_idle_cpu(m, cpu)) {
			if (shallowest < 0 || m->rqs[cpu].idle_stamp > latest) {
				latest = m->rqs[cpu].idle_stamp;
				shallowest = cpu;
			}
		} else if (shallowest < 0 && cpu_load(m, cpu) < min_load) {
			min_load = cpu_load(m, cpu);
			least = cpu;
		}
	}
	if (n == 1)
		return only;
	return shallowest >= 0 ? shallowest : least;
}

static int find_idlest_cpu(struct model *m, int this_cpu)
{
	int level = m->rqs[this_cpu].nr_sd - 1, cpu = this_cpu, new_cpu = this_cpu;

	while (level >= 0) {
		const struct sched_domain *sd = &m->rqs[cpu].sd[level];
		int g = find_dst_group(m, sd, cpu), weight;

		if (g < 0) {
			level--;
			continue;
		}
		new_cpu = find_dst_group_cpu(m, sd, g, cpu);
		if (new_cpu == cpu) {
			level--;
			continue;
		}
		/* continue in the largest domain of new_cpu below this one */
		weight = sd->span_weight;
		cpu = new_cpu;
		for (level = m->rqs[cpu].nr_sd - 1; level >= 0; level--)
			if (m->rqs[cpu].sd[level].span_weight < weight)
				break;
	}
	return new_cpu;
}

/*
 * vcpu_pack_room(): the capture kernel's vendor placement step (boot option
 * sched_vcpu_pack=15 on 6.18.44-fc-v857; not in mainline).  Its kallsyms/BTF
 * entry is `bool vcpu_pack_room(struct task_struct *p, int cpu)`; its source
 * is not available, so this is NOT the kernel's code but the rule measured
 * with tests/replay/placement_probe.c on that kernel (docs/model.md,
 * "Placement on the capture kernel (measured)", "The sweep", 2026-11-30
 * 11:22-11:33): beside an idle CPU, a wakeup or fork stays on the waker's
 * (parent's) CPU when that CPU runs nothing but the waker and its
 * utilisation is below a cut U that grows with how long the idle CPU has
 * idled.
 *
 * "Nothing but the waker": one runnable fair task (h_nr_runnable == 1:
 * delayed sleepers do not count - the probe read "queued" from the trace,
 * where a delayed task has blocked), no RT/DL task; with another task there
 * 3 035 of 3 071 wakeups and 65 of 65 forks took the idle CPU.  And the
 * waker is not exiting: a parent woken by its exiting child
 * (do_notify_parent()) kept the idle CPU in 361 of 388 (mode e), 127 of 133
 * and 51 of 61 (mx, vx) while futex and exec wakeups of the same minutes
 * were packed.  The model knows "exiting" from do_exit()'s sched_move_task()
 * (model_task_exit_move()); whether the kernel tests PF_EXITING or something
 * that goes with it is not known.
 *
 * Utilisation, 0..1024: cpu_util_cfs(cpu) + task_util(p).  Decided on the
 * sweep's own decisions, replayed through this model (its PELT on the
 * probe's traces; docs/model.md): with p's util_avg added, one cut
 * separates 84.5 % of the 12 042 waker-alone futex wakeups (82.9 % without)
 * and the table below reproduces the exec wakeups' 67.5 % (45.7 %).  A
 * fork's child has util_avg 0 here (post_init_entity_util_avg() runs after
 * the choice); a freshly forked waker brings its post_init value to its CPU.
 *
 * U by idle time: no quantity the model keeps explains it: the wakee's and
 * the idle CPU's utilisation decay by a few units over 1-10 ms, and
 * rq->avg_idle is capped at 2 x max_idle_balance_cost (1 ms here) while U
 * still rises from 2 to 5 ms.  So U is tabulated from the sweep's table
 * (docs/model.md, "The cut depends on how long the previous CPU has
 * idled"): the utilisation at which half of its not-queued futex wakeups
 * went to the idle prev, interpolated linearly between the midpoints of its
 * utilisation bins (< 250: 125, 250-500: 375, 500-650: 575, 650-700: 675,
 * >= 700: 700 and above), by the previous CPU's idle time X:
 *   1 ms: 8 % at 125, 54 % at 375                 -> 125 + 250 x 42/46 = 355
 *   2 ms: 25.5 % at 375, 56.6 % at 575            -> 375 + 200 x 24.5/31.1 = 533
 *   3 ms: 39 % at 575, 96 % at 675                -> 575 + 100 x 11/57 = 594
 *   5 ms: 43 % at 675, 99 % at >= 700             -> 680 (10 ms row: 39 % at 675,
 *                                                    2/3 above: the same cut)
 * and below 1 ms the probe's on-period tables (11:05 g/s: 88 of 95 to the
 * idle prev under 100 us; 11:08 f/s: 61 of 61 under 130 us): no packing at
 * 100 us and less.  Between the points U is interpolated linearly, beyond
 * 5 ms it stays at 680 (not measured past 10 ms).  An idle CPU that has not
 * idled since the model started (no idle_stamp) counts as idle long.  The
 * utilisation is the busy-time estimate's there (placement_probe.py), not
 * the model's; replayed through the model the same rule agrees with the
 * kernel on 89.9 % of the sweep's 17 749 futex wakeups (mainline: 48.5 %).
 */
static const struct {
	u64 idle_ns;        /* how long the idle CPU has been idle */
	unsigned long cut;  /* U: pack below this utilisation (of 1024) */
} vcpu_pack_cut[] = {
	{  100000,   0 },
	{ 1000000, 355 },
	{ 2000000, 533 },
	{ 3000000, 594 },
	{ 5000000, 680 },
};

#define NR_VCPU_PACK_CUT (sizeof(vcpu_pack_cut) / sizeof(vcpu_pack_cut[0]))

/* U (0..1024) for an idle CPU idle for @idle_ns. */
static unsigned long vcpu_pack_util_cut(u64 idle_ns)
{
	unsigned int i;

	if (idle_ns <= vcpu_pack_cut[0].idle_ns)
		return vcpu_pack_cut[0].cut;
	for (i = 1; i < NR_VCPU_PACK_CUT; i++) {
		u64 x0 = vcpu_pack_cut[i - 1].idle_ns, x1 = vcpu_pack_cut[i].idle_ns;
		unsigned long y0 = vcpu_pack_cut[i - 1].cut, y1 = vcpu_pack_cut[i].cut;

		if (idle_ns <= x1)
			return y0 + (unsigned long)((idle_ns - x0) * (y1 - y0) / (x1 - x0));
	}
	return vcpu_pack_cut[NR_VCPU_PACK_CUT - 1].cut;
}

/*
 * Whether @p fits on @cpu (the waker's) beside @idle_cpu, idle since its
 * newidle pass (idle_stamp) - the idle prev of a wakeup, the idlest CPU of a
 * fork, as the probe set them up.  The kernel's takes (p, cpu) only: where it
 * reads the idle time from is not known.
 */
static bool vcpu_pack_room(struct model *m, const struct model_task *p, int cpu, int idle_cpu,
			   u64 now)
{
	u64 stamp = m->rqs[idle_cpu].idle_stamp, idle_ns = ~0ULL;

	if (stamp)
		idle_ns = now > stamp ? now - stamp : 0;

	COUNT(m, vcpu_pack_room);
	if (m->rqs[cpu].cfs.h_nr_runnable != 1 || m->rqs[cpu].other_class || !m->rqs[cpu].curr ||
	    m->rqs[cpu].curr->exiting)
		return false;
	return cpu_util_cfs(m, cpu) + p->se.avg.util_avg < vcpu_pack_util_cut(idle_ns);
}

/*
 * The sched_vcpu_pack step after mainline's choice @new_cpu: a task mainline
 * puts on an idle CPU other than the waker's stays on the waker's CPU if
 * vcpu_pack_room() says so.
 */
static int vcpu_pack(struct model *m, const struct model_task *p, int waker_cpu, int new_cpu,
		     u64 now)
{
	if (!m->vcpu_pack || new_cpu == waker_cpu || !available_idle_cpu(m, new_cpu) ||
	    !vcpu_pack_room(m, p, waker_cpu, new_cpu, now))
		return new_cpu;
	COUNT(m, vcpu_pack_room_packed);
	return waker_cpu;
}

/*
 * select_task_rq_fair() on the model's topology (one LLC per node): a fork
 * takes the slow path (find_idlest_cpu() above); a wakeup records the wakee
 * for the task current on the waking CPU, then - unless wake_wide() - lets
 * wake_affine() choose between the waking CPU and prev when both share a
 * domain (always: the top domain spans every CPU), and select_idle_sibling()
 * looks for an idle CPU around that choice.  A wake_wide() wakeup has no
 * SD_BALANCE_WAKE domain to balance in either (sched_domain flags), so it
 * takes the fast path from prev too.  With model_config.vcpu_pack the
 * capture kernel's packing step (vcpu_pack() above) follows, for wakeups and
 * forks.
 */
int model_select_task_rq(struct model *m, struct model_task *p, int waker_cpu, int wake_flags,
			 uint64_t now)
{
	int prev = p->cpu, new_cpu;
	bool want_affine;

	model_advance_time(m, now);
	if (waker_cpu < 0 || (unsigned int)waker_cpu >= m->nr_cpus)
		waker_cpu = prev >= 0 ? prev : 0;
	if (prev < 0)
		prev = waker_cpu;
	if (p->pinned && p->cpu >= 0)
		return p->cpu;
	if (wake_flags & MODEL_WF_FORK)
		return vcpu_pack(m, p, waker_cpu, find_idlest_cpu(m, waker_cpu), now);
	record_wakee(m, m->rqs[waker_cpu].curr, p);
	want_affine = !wake_wide(m->rqs[waker_cpu].curr, p, llc_size(m, waker_cpu));
	new_cpu = prev;
	if (want_affine && waker_cpu != prev)
		new_cpu = wake_affine(m, p, waker_cpu, prev, wake_flags & MODEL_WF_SYNC);
	return vcpu_pack(m, p, waker_cpu, select_idle_sibling(m, p, prev, new_cpu), now);
}
