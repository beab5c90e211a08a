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
 * sched_balance_rq() (load_balance() in 6.1; model/balance_rq.c) is the kernel's arithmetic on
 * that topology: group statistics and group_classify() (has_spare,
 * fully_busy, misfit - a CPU of RT/DL-reduced capacity -, imbalanced,
 * overloaded), sched_balance_find_src_group()'s decision tree
 * with imbalance_pct, prefer-sibling and the NUMA allowance,
 * calculate_imbalance()'s migrate_task / migrate_util / migrate_load,
 * sched_balance_find_src_rq(), detach_tasks() with task_h_load() and
 * shr_bound(), can_migrate_task() per profile (LB_* flags), the
 * nr_balance_failed / balance_interval outcomes, and active balance
 * (need_active_balance(), the stopper's active_load_balance_cpu_stop()
 * with detach_one_task()).  Affinity: a task's mask (one CPU, all, or
 * several: p->cpus_mask) is honoured by can_migrate_task() (LBF_SOME_PINNED
 * marks the parent's group imbalanced, sg_imbalanced(); LBF_DST_PINNED's
 * retry with another CPU of the local group, which only the NUMA level's
 * node groups can offer) and by the placement paths below.  CPU capacity
 * is 1024 less the CPU's avg_rt and avg_dl (scale_rt_capacity(), below;
 * the reduced-capacity misfit group, active balance and nohz kick on
 * symmetric CPUs), 1024 with model_config.fixed_cpu_capacity.  Not
 * modelled: IRQ and HW pressure, asymmetric CPUs (asymmetric misfit,
 * asym-packing), SMT, util_est and NUMA balancing (fbq types, locality).  Under --placement trace
 * periodic passes, and newidle passes unless the replay asks for a pull
 * (idle_pull), are dry runs: the same decisions without moving anything; a
 * dry newidle pass that would have pulled still ends the domain walk and
 * counts as a success for NI_RANDOM, and a dry active balance only decides
 * whether the stopper would have moved a task (for nr_balance_failed).
 */
#include <stdlib.h>
#include <string.h>

#include "balance.h"

/* sd_init(): cache_nice_tries of an SD_SHARE_LLC domain and of a NUMA one */
#define SD_CACHE_NICE_TRIES_LLC  1
#define SD_CACHE_NICE_TRIES_NUMA 2

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
	m->sgc_capacity = calloc((size_t)m->nr_nodes, sizeof(*m->sgc_capacity));
	m->sgc_next_update = calloc((size_t)m->nr_nodes, sizeof(*m->sgc_next_update));
	if (!m->lb_cpus || !m->sgc_imbalance || !m->sgc_capacity || !m->sgc_next_update) {
		sr_error_set(err, 12, "model: out of memory building sched domains");
		return -1;
	}

	/*
	 * sched_init(): rq->cpu_capacity 1024; build_sched_groups(): a
	 * group's sgc->capacity 1024 per CPU; init_sched_groups_capacity()'s
	 * update_group_capacity() set next_update at boot, long before a
	 * trace starts: due at once
	 */
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		m->rqs[cpu].cpu_capacity = SCHED_CAPACITY_SCALE;
		m->rqs[cpu].sgc_next_update = m->jiffies;
		m->sgc_capacity[m->rqs[cpu].node] += SCHED_CAPACITY_SCALE;
	}
	for (other = 0; other < (unsigned int)m->nr_nodes; other++)
		m->sgc_next_update[other] = m->jiffies;

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
				sr_error_set(err, 12,
					     "model: out of memory building sched domains");
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
			/*
			 * NI_RANDOM starts at a 50% success rate (sd_init()), or
			 * at model_config.newidle_ratio: a machine's domains
			 * carry their history (--newidle-ratio)
			 */
			sd->newidle_call = 512;
			sd->newidle_success = m->newidle_ratio0 / 2;
			sd->newidle_ratio = m->newidle_ratio0;
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
	free(m->sgc_capacity);
	m->sgc_capacity = NULL;
	free(m->sgc_next_update);
	m->sgc_next_update = NULL;
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

/* ---- CPU capacity ------------------------------------------------------ */

/* capacity_of(): rq->cpu_capacity. */
unsigned long capacity_of(const struct model *m, int cpu)
{
	return m->rqs[cpu].cpu_capacity;
}

/*
 * The sgc->capacity of group @g of @sd: a CPU's own at the MC level
 * (update_cpu_capacity() writes the single-CPU group's sgc with
 * rq->cpu_capacity), the node's sgc at the NUMA level - as last
 * refreshed by a CPU of that node balancing there, stale in between.
 */
unsigned long sgc_capacity(const struct model *m, const struct sched_domain *sd, int g)
{
	return sd->numa ? m->sgc_capacity[g] : m->rqs[g].cpu_capacity;
}

/*
 * scale_rt_capacity(): the capacity the fair class has left on @cpu,
 * arch_scale_cpu_capacity() (1024: symmetric CPUs; the HW pressure that
 * get_actual_cpu_capacity() subtracts is 0, no arch pressure on the VMs)
 * less cpu_util_rt() + cpu_util_dl(), 1 if those reach it.  The IRQ term
 * (cpu_util_irq(), scale_irq_capacity()) is 0: no trace holds IRQ time,
 * and scale_irq_capacity(free, 0, max) = free * max / max = free exactly.
 * With model_config.fixed_cpu_capacity, 1024 (the model before cap52).
 */
static unsigned long scale_rt_capacity(const struct model *m, int cpu)
{
	const struct rq *rq = &m->rqs[cpu];
	unsigned long max = SCHED_CAPACITY_SCALE, used;

	if (!m->rt_capacity)
		return max;
	used = rq->avg_rt.util_avg + rq->avg_dl.util_avg;
	if (used >= max)
		return 1;
	return max - used;
}

/*
 * update_cpu_capacity(): rq->cpu_capacity = scale_rt_capacity(), at least
 * 1, also the capacity of @cpu's own group in @sd (the sgc of the MC
 * level's single-CPU group, read back through rq->cpu_capacity; at a NUMA
 * domain without a child - a node of one CPU - the node's sgc).  The
 * kernel's min_capacity / max_capacity only serve asymmetric CPUs.
 */
static void update_cpu_capacity(struct model *m, const struct sched_domain *sd, int cpu)
{
	unsigned long capacity = scale_rt_capacity(m, cpu);

	if (!capacity)
		capacity = 1;
	m->rqs[cpu].cpu_capacity = capacity;
	if (sd->numa)
		m->sgc_capacity[m->rqs[cpu].node] = capacity;
}

/*
 * update_group_capacity(), which update_sd_lb_stats() calls for the local
 * group (the balancing CPU's) on every periodic / idle balance and on a
 * newidle one once sgc->next_update is due: next_update = jiffies +
 * balance_interval in jiffies (get_sd_balance_interval() of a CPU not
 * busy: 1 .. max_load_balance_interval); a domain without a child (the
 * lowest: MC, or NUMA over a one-CPU node) takes update_cpu_capacity();
 * the NUMA domain over an MC one sums its child's
 * groups' sgc->capacity, i.e. the node's CPUs' cpu_capacity (the MC
 * domain is not SD_OVERLAP).
 */
void update_group_capacity(struct model *m, struct sched_domain *sd, int cpu)
{
	struct rq *rq = &m->rqs[cpu];
	unsigned long interval = get_sd_balance_interval(m, sd, false);
	bool child = sd != &rq->sd[0];
	unsigned long capacity = 0;
	unsigned int i;

	if (sd->numa)
		m->sgc_next_update[rq->node] = m->jiffies + interval;
	else
		rq->sgc_next_update = m->jiffies + interval;
	if (!child) {
		update_cpu_capacity(m, sd, cpu);
		return;
	}
	for (i = 0; i < m->nr_cpus; i++)
		if (m->rqs[i].node == rq->node)
			capacity += m->rqs[i].cpu_capacity;
	m->sgc_capacity[rq->node] = capacity;
}

/*
 * update_sd_lb_stats()'s gate for update_group_capacity(): not a newidle
 * balance, or the local group's sgc->next_update is due.
 */
void update_local_group_capacity(struct model *m, struct sched_domain *sd, int cpu,
				 enum cpu_idle_type idle)
{
	unsigned long next = sd->numa ? m->sgc_next_update[m->rqs[cpu].node] :
					m->rqs[cpu].sgc_next_update;

	if (idle != CPU_NEWLY_IDLE || time_after_eq(m->jiffies, next))
		update_group_capacity(m, sd, cpu);
}

/*
 * check_cpu_capacity(): the capacity side activity left is noticeably
 * reduced - rq->cpu_capacity * imbalance_pct < 1024 * 100 (below 876 with
 * 117).
 */
bool check_cpu_capacity(const struct rq *rq, const struct sched_domain *sd)
{
	return rq->cpu_capacity * sd->imbalance_pct < SCHED_CAPACITY_SCALE * 100;
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
	/* __update_blocked_others(): the RT/DL signals first (model/pelt_others.c) */
	update_other_load_avgs(m, rq);
	if (others_have_blocked(m, rq))
		done = false;
	visited = __update_blocked_fair(m, rq, &done);
	if (done)
		rq->has_blocked_load = false;
	return visited;
}

void sched_balance_update_blocked_averages(struct model *m, int cpu)
{
	update_blocked_averages(m, cpu);
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
	struct model_newidle_info *ni = &m->last_newidle;

	COUNT(m, newidle_balance);
	this_rq->idle_stamp = this_rq->clock;
	ni->seq++;
	ni->cpu = this_rq->cpu;
	ni->outcome = MODEL_NEWIDLE_TRACED;
	ni->rd_overloaded = m->rd_overloaded;
	ni->blocked_update = false;
	ni->avg_idle = this_rq->avg_idle;
	ni->max_newidle_lb_cost = this_rq->nr_sd ? this_rq->sd[0].max_newidle_lb_cost : 0;
	ni->newidle_ratio = this_rq->nr_sd ? this_rq->sd[0].newidle_ratio : 0;
	ni->balanced = 0;
	ni->dice_skipped = 0;

	if (m->traced_newidle && m->traced_newidle_cpu == this_rq->cpu) {
		/*
		 * A traced newidle pull (model_set_traced_newidle()): the
		 * trace shows this balance's detach_task() + attach_task() of
		 * that task; its decisions (domains, costs) are not replayed.
		 */
		struct model_task *p = m->traced_newidle;

		m->traced_newidle = NULL;
		if (p->on_rq == TASK_ON_RQ_QUEUED && p->state != TS_NEW && p->state != TS_DEAD &&
		    p->cpu >= 0 && p->cpu != this_rq->cpu && m->rqs[p->cpu].curr != p) {
			struct rq *src = &m->rqs[p->cpu];

			update_rq_clock(m, src, this_rq->clock);
			deactivate_task(m, src, p, DEQUEUE_NOCLOCK);    /* detach_task() */
			set_task_cpu(m, p, this_rq->cpu);
			activate_task(m, this_rq, p, ENQUEUE_NOCLOCK);  /* attach_task() */
			wakeup_preempt(m, this_rq, p, 0);
			m->traced_newidle_done = true;
			this_rq->idle_stamp = 0;
			COUNT(m, newidle_balance_pulled);
			ni->rd_overloaded_after = m->rd_overloaded;
			return 1;
		}
	}

	sd = this_rq->nr_sd ? &this_rq->sd[0] : NULL;
	ni->outcome = !sd ? MODEL_NEWIDLE_NO_SD : !m->rd_overloaded ? MODEL_NEWIDLE_NOT_OVERLOADED
								    : MODEL_NEWIDLE_SHORT_IDLE;
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
	ni->outcome = MODEL_NEWIDLE_RAN;

	if (!vflag(m, LAZY_BLOCKED_NEWIDLE)) {
		COUNT(m, update_blocked_averages_newidle);
		pending_cost = update_blocked_averages(m, this_rq->cpu) * m->blocked_cost_per_cfs_rq_ns;
		blocked_done = true;
		ni->blocked_update = true;
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
				ni->dice_skipped++;
				continue;
			}
			weight = (1024 + weight / 2) / weight;
		}

		if (!blocked_done) {
			COUNT(m, update_blocked_averages_newidle);
			pending_cost += update_blocked_averages(m, this_rq->cpu) *
					m->blocked_cost_per_cfs_rq_ns;
			blocked_done = true;
			ni->blocked_update = true;
		}
		COUNT(m, newidle_balance_domains);
		ni->balanced++;
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
	ni->rd_overloaded_after = m->rd_overloaded;
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
			if (flags & NOHZ_BALANCE_KICK) {
				m->lb_site = MODEL_OVERLOAD_NOHZ;
				sched_balance_domains(m, rq, true);
				m->lb_site = MODEL_OVERLOAD_NONE;
			}
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
 * when this CPU has two tasks, or a fair task on a CPU of reduced capacity
 * (check_cpu_capacity() against the lowest domain: RT/DL time left it
 * below 1024 * 100 / 117), or its LLC has more than one busy CPU; after a
 * CPU entered the mask, to collect next_balance (NOHZ_NEXT_KICK).  The
 * misfit and asym-packing kicks need asymmetric CPUs, which the model
 * does not have.  The kicked CPU is the first idle CPU of
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
	    (rq->nr_running >= 2 ||
	     (lb_h_nr(m, rq) >= 1 && rq->nr_sd && check_cpu_capacity(rq, &rq->sd[0])) ||
	     llc_nr_busy_cpus(m, rq) > 1))
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

bool available_idle_cpu(const struct model *m, int cpu)
{
	const struct rq *rq = &m->rqs[cpu];

	return !rq->curr && !rq->other_class && !rq->cfs.h_nr_queued;
}

static bool cpus_share_cache(const struct model *m, int a, int b)
{
	return m->rqs[a].node == m->rqs[b].node;
}

unsigned long cpu_load(const struct model *m, int cpu)
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
 * domain's imbalance_pct of 117; each side scaled by the other CPU's
 * capacity_of(), wake_affine_weight()'s cross-multiplication).  No
 * task_h_load: the task's own load_avg.
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
	this_eff_load *= (s64)capacity_of(m, prev_cpu);
	prev_eff_load *= 100 + (SD_IMBALANCE_PCT - 100) / 2;
	prev_eff_load *= (s64)capacity_of(m, this_cpu);
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

		/* cpumask_and(cpus, sched_domain_span(sd), p->cpus_ptr) */
		if (!cpus_share_cache(m, cpu, target) || (p->pinned && cpu != p->cpu) ||
		    !task_mask_allows(p, cpu))
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
	    available_idle_cpu(m, recent) && !p->pinned && task_mask_allows(p, recent))
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

bool group_has_cpu(const struct model *m, const struct sched_domain *sd, int g, int cpu)
{
	return sd->numa ? m->rqs[cpu].node == g : cpu == g;
}

/*
 * The task a sched_exec() balance places is running on its CPU: the group
 * statistics leave it out (cpu_load_without(), cpu_util_without(),
 * cpu_runnable_without(), task_running_on_cpu(), idle_cpu_without()).  A
 * fork's child is attached nowhere: nothing to leave out (@without NULL).
 */
struct sg_without {
	const struct model_task *p;
	unsigned long h_load;       /* task_h_load(p) */
};

static unsigned long lsub_positive(unsigned long a, unsigned long b)
{
	return a > b ? a - b : 0;
}

static void update_sg_wakeup_stats(const struct model *m, const struct sched_domain *sd, int g,
				   const struct sg_without *without, struct fork_sg_stats *sgs)
{
	int i;

	memset(sgs, 0, sizeof(*sgs));
	for (i = 0; i < sd->span_weight; i++) {
		int cpu = sd->span[i];
		const struct rq *rq = &m->rqs[cpu];
		const struct model_task *p = without ? without->p : NULL;
		unsigned long load = rq->cfs.avg.load_avg, util = rq->cfs.avg.util_avg;
		unsigned long runnable = rq->cfs.avg.runnable_avg;
		unsigned int local = 0, nr_running;

		if (!group_has_cpu(m, sd, g, cpu))
			continue;
		if (p && p->cpu == cpu) {
			load = lsub_positive(load, without->h_load);
			util = lsub_positive(util, p->se.avg.util_avg);
			runnable = lsub_positive(runnable, p->se.avg.runnable_avg);
			local = p->on_rq == TASK_ON_RQ_QUEUED;
		} else {
			p = NULL;
		}
		nr_running = rq->nr_running - local;
		sgs->load += load;
		sgs->util += util < SCHED_CAPACITY_SCALE ? util : SCHED_CAPACITY_SCALE;
		sgs->runnable += runnable;
		sgs->nr_running += nr_running;
		if (!nr_running && (!rq->curr || rq->curr == p) && !rq->other_class)
			sgs->idle_cpus++;
		sgs->weight++;
	}
	sgs->capacity = sgc_capacity(m, sd, g);
	sgs->type = group_classify(SD_IMBALANCE_PCT, sg_imbalanced(m, sd, g), 0, sgs->nr_running,
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

/* cpumask_intersects(sched_group_span(group), p->cpus_ptr) */
static bool group_allowed(const struct model *m, const struct sched_domain *sd, int g,
			  const struct model_task *p)
{
	int i;

	if (!p->cpus_mask)
		return true;
	for (i = 0; i < sd->span_weight; i++)
		if (group_has_cpu(m, sd, g, sd->span[i]) && task_mask_allows(p, sd->span[i]))
			return true;
	return false;
}

/*
 * sched_balance_find_dst_group(): the group to move to, -1 to stay local.
 * A group with none of @p's allowed CPUs is skipped, the local one too
 * ("The local group has been skipped because of CPU affinity": then the
 * idlest allowed group is taken as it is).
 */
static int find_dst_group(const struct model *m, const struct sched_domain *sd, int this_cpu,
			  const struct model_task *p, const struct sg_without *without)
{
	bool have_local = false;
	struct fork_sg_stats local = { 0 }, idlest = { .avg_load = ~0UL, .type = group_overloaded };
	struct fork_sg_stats sgs;
	int g, nr_groups = sd->numa ? m->nr_nodes : (int)m->nr_cpus, best = -1;
	unsigned long imbalance = SCHED_CAPACITY_SCALE * (SD_IMBALANCE_PCT - 100) / 100;

	for (g = 0; g < nr_groups; g++) {
		bool in_span = false;
		int i;

		for (i = 0; i < sd->span_weight; i++)
			in_span = in_span || group_has_cpu(m, sd, g, sd->span[i]);
		if (!in_span || !group_allowed(m, sd, g, p))
			continue;
		if (group_has_cpu(m, sd, g, this_cpu)) {
			update_sg_wakeup_stats(m, sd, g, without, &local);
			have_local = true;
			continue;
		}
		update_sg_wakeup_stats(m, sd, g, without, &sgs);
		if (update_pick_idlest(&idlest, &sgs)) {
			idlest = sgs;
			best = g;
		}
	}
	if (best < 0)
		return -1;
	if (!have_local && p->cpus_mask)
		return best;
	if (local.type < idlest.type)
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
 * sched_balance_find_dst_group_cpu(): a single CPU; else, among @p's allowed
 * CPUs of the group ("Traverse only the allowed CPUs"), the most recently
 * idled idle CPU (no cpuidle exit latencies in the model), else the least
 * loaded one.
 */
static int find_dst_group_cpu(const struct model *m, const struct sched_domain *sd, int g,
			      int this_cpu, const struct model_task *p)
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
		if (!task_mask_allows(p, cpu))
			continue;
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

static int find_idlest_cpu(struct model *m, const struct model_task *p, int this_cpu,
			   const struct sg_without *without)
{
	int level = m->rqs[this_cpu].nr_sd - 1, cpu = this_cpu, new_cpu = this_cpu;

	while (level >= 0) {
		const struct sched_domain *sd = &m->rqs[cpu].sd[level];
		int g = find_dst_group(m, sd, cpu, p, without), weight;

		if (g < 0) {
			level--;
			continue;
		}
		new_cpu = find_dst_group_cpu(m, sd, g, cpu, p);
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
	/* model_config.vcpu_pack_flat: the long-idle cut whatever the idle time */
	if (m->vcpu_pack_flat)
		idle_ns = ~0ULL;
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
 * select_fallback_rq() (kernel/sched/core.c), for a task whose mask is
 * several CPUs but not all: the first allowed CPU of @cpu's node, else the
 * first allowed CPU (the model's CPUs are all online and active; the cpuset
 * and "possible" fallbacks that widen the mask cannot arise: the mask
 * allows some CPU of the model, model_task_set_allowed_mask()).
 */
static int select_fallback_rq(const struct model *m, const struct model_task *p, int cpu)
{
	unsigned int c;

	for (c = 0; c < m->nr_cpus; c++)
		if (m->rqs[c].node == m->rqs[cpu].node && task_mask_allows(p, (int)c))
			return (int)c;
	for (c = 0; c < m->nr_cpus; c++)
		if (task_mask_allows(p, (int)c))
			return (int)c;
	return cpu;
}

/* select_task_rq(): "if (unlikely(!is_cpu_allowed(p, cpu))) select_fallback_rq()" */
static int select_task_rq_allowed(struct model *m, const struct model_task *p, int prev, int cpu)
{
	if (task_mask_allows(p, cpu))
		return cpu;
	return select_fallback_rq(m, p, prev);
}

static int select_task_rq_fair(struct model *m, struct model_task *p, int prev, int waker_cpu,
			       int wake_flags, uint64_t now);

int model_select_task_rq(struct model *m, struct model_task *p, int waker_cpu, int wake_flags,
			 uint64_t now)
{
	int prev = p->cpu;

	if (waker_cpu < 0 || (unsigned int)waker_cpu >= m->nr_cpus)
		waker_cpu = prev >= 0 ? prev : 0;
	if (prev < 0)
		prev = waker_cpu;
	/*
	 * select_task_rq(): only a task allowed more than one CPU goes through
	 * the class's select_task_rq(), else cpumask_any(p->cpus_ptr) - a
	 * pinned task's CPU (its current one for the "pinned where it is"
	 * form, which has none before its first placement: then the class
	 * places it, as before)
	 */
	if (task_nr_cpus_allowed(m, p) == 1 && (p->allowed_cpu >= 0 || p->cpu >= 0 || !p->pinned)) {
		model_advance_time(m, now);
		return p->allowed_cpu >= 0 ? p->allowed_cpu : p->cpu >= 0 ? p->cpu : 0;
	}
	return select_task_rq_allowed(m, p, prev,
				      select_task_rq_fair(m, p, prev, waker_cpu, wake_flags, now));
}

/*
 * select_task_rq_fair() on the model's topology (one LLC per node): a fork
 * takes the slow path (find_idlest_cpu() above), and so does an exec
 * (sched_exec(): WF_EXEC, SD_BALANCE_EXEC on every domain, from the task's
 * own CPU, the running task left out of the statistics; no vcpu_pack step:
 * the capture kernel's packing was measured for wakeups and forks only);
 * a wakeup records the wakee
 * for the task current on the waking CPU, then - unless wake_wide() - lets
 * wake_affine() choose between the waking CPU and prev when both share a
 * domain (always: the top domain spans every CPU), and select_idle_sibling()
 * looks for an idle CPU around that choice.  A wake_wide() wakeup has no
 * SD_BALANCE_WAKE domain to balance in either (sched_domain flags), so it
 * takes the fast path from prev too.  With model_config.vcpu_pack the
 * capture kernel's packing step (vcpu_pack() above) follows, for wakeups and
 * forks.
 *
 * Only for a task allowed more than one CPU (model_select_task_rq(): core.c's
 * one-CPU shortcut); a mask of several CPUs is honoured where the kernel's
 * is: wake_affine only for a waker CPU
 * the task allows (want_affine), select_idle_sibling()'s recent_used_cpu and
 * select_idle_cpu() scan, the fork / exec slow path's groups and CPUs.  The
 * idle target and the idle prev of select_idle_sibling() are not tested
 * against the mask (the kernel does not either: select_fallback_rq() mends
 * a prev the mask no longer allows), nor the vendor vcpu_pack() step, whose
 * source is not known: its waker CPU goes through select_fallback_rq() too.
 */
static int select_task_rq_fair(struct model *m, struct model_task *p, int prev, int waker_cpu,
			       int wake_flags, uint64_t now)
{
	int new_cpu;
	bool want_affine;

	model_advance_time(m, now);
	if (wake_flags & MODEL_WF_FORK)
		return vcpu_pack(m, p, waker_cpu, find_idlest_cpu(m, p, waker_cpu, NULL), now);
	if (wake_flags & MODEL_WF_EXEC) {
		struct sg_without without = { .p = p, .h_load = task_h_load(m, p) };

		COUNT(m, sched_exec);
		new_cpu = find_idlest_cpu(m, p, prev, &without);
		if (new_cpu != prev)
			COUNT(m, sched_exec_moved);
		return new_cpu;
	}
	record_wakee(m, m->rqs[waker_cpu].curr, p);
	want_affine = !wake_wide(m->rqs[waker_cpu].curr, p, llc_size(m, waker_cpu)) &&
		      task_mask_allows(p, waker_cpu);
	new_cpu = prev;
	if (want_affine && waker_cpu != prev)
		new_cpu = wake_affine(m, p, waker_cpu, prev, wake_flags & MODEL_WF_SYNC);
	return vcpu_pack(m, p, waker_cpu, select_idle_sibling(m, p, prev, new_cpu), now);
}
