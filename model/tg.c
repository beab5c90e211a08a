// SPDX-License-Identifier: GPL-2.0
/*
 * Task groups and their shares (kernel/sched/fair.c update_tg_load_avg(),
 * calc_group_shares(), update_cfs_group(), reweight_entity(),
 * sched_group_set_shares(); kernel/sched/core.c sched_create_group()).
 *
 * A task group has a cfs_rq and a group entity on every CPU.  The weight of
 * the group entity on a CPU is the CPU's share of the group's shares,
 * proportional to the group's load there:
 *
 *                   tg->shares * grq->load
 *   ge->weight = -----------------------------
 *                \Sum_cpu grq[cpu]->load
 *
 * The sum over CPUs is tg->load_avg, maintained incrementally from every
 * cfs_rq's load_avg (its "contribution") - the global, contended atomic the
 * seed patches are about.  To stay responsive when a group just became busy
 * on this CPU, the local term uses max(instantaneous weight, load_avg).
 */
#include <stdlib.h>
#include <string.h>

#include "sched.h"

/*
 * tg->load_avg as calc_group_shares() reads it.  With per-node counters
 * (aaron-node) the value is the sum of the nodes (identical numbers; each
 * node is a separate cache line to read).
 */
long tg_load_avg_read(struct model *m, struct task_group *tg)
{
	long sum = 0;
	int n;

	if (!vflag(m, TG_LOAD_PER_NODE) || !tg->node_load_avg) {
		m->counters[MC_tg_load_avg_reads]++;
		return tg->load_avg;
	}
	for (n = 0; n < m->nr_nodes; n++)
		sum += tg->node_load_avg[n];
	m->counters[MC_tg_load_avg_reads] += (u64)m->nr_nodes;
	return sum;
}

/*
 * update_tg_load_avg(): fold this cfs_rq's load_avg change into
 * tg->load_avg, but only if it moved by more than 1/64 of the last value
 * folded in, and (6.7+, 1528c661c24b) at most once per ms per cfs_rq by
 * sched_clock.  Writes go to the executing CPU's node with aaron-node.
 */
void update_tg_load_avg(struct model *m, struct cfs_rq *cfs_rq)
{
	struct task_group *tg = cfs_rq->tg;
	long delta;
	u64 now;
	int node;

	COUNT(m, update_tg_load_avg_entries);
	if (tg == &m->root_task_group)
		return;
	COUNT(m, update_tg_load_avg);

	now = sched_clock_cpu(m, rq_of(cfs_rq)->cpu);
	if (m->b.tg_ratelimit_ns && now - cfs_rq->last_update_tg_load_avg < m->b.tg_ratelimit_ns) {
		COUNT(m, update_tg_load_avg_ratelimited);
		return;
	}

	delta = (long)cfs_rq->avg.load_avg - (long)cfs_rq->tg_load_avg_contrib;
	if (labs(delta) > (long)(cfs_rq->tg_load_avg_contrib / 64)) {
		node = rq_of(cfs_rq)->node;
		tg->load_avg += delta;
		if (tg->node_load_avg)
			tg->node_load_avg[node] += delta;
		cfs_rq->tg_load_avg_contrib = cfs_rq->avg.load_avg;
		cfs_rq->last_update_tg_load_avg = now;
		COUNT(m, tg_load_avg_writes);
		m->tg_writes_node[node]++;
	}
}

/*
 * calc_group_shares(): tg->shares * load / tg_weight where
 *   load      = max(grq->load.weight (scaled down), grq->avg.load_avg)
 *   tg_weight = tg->load_avg - this cfs_rq's contribution + load,
 * i.e. the global sum with this CPU's stale contribution replaced by the
 * fresher local value; clamped to [MIN_SHARES (unscaled), tg->shares].
 * The result is a full-resolution weight.
 */
long calc_group_shares(struct model *m, struct cfs_rq *cfs_rq)
{
	long tg_weight, tg_shares, load, shares;
	struct task_group *tg = cfs_rq->tg;

	tg_shares = (long)tg->shares;
	load = (long)scale_load_down(cfs_rq->load.weight);
	if ((long)cfs_rq->avg.load_avg > load)
		load = (long)cfs_rq->avg.load_avg;

	tg_weight = tg_load_avg_read(m, tg);
	tg_weight -= (long)cfs_rq->tg_load_avg_contrib;
	tg_weight += load;

	shares = tg_shares * load;
	if (tg_weight)
		shares /= tg_weight;

	if (shares < (long)MIN_SHARES)
		shares = (long)MIN_SHARES;
	if (shares > tg_shares)
		shares = tg_shares;
	return shares;
}

/*
 * Does a built-in variant remove the update_cfs_group() call at @site?  Its
 * patch removes the call whatever the entity, a task entity's too (the
 * function-entry count update_cfs_group.entries).
 */
static bool cfs_group_site_removed(const struct model *m, enum model_cfs_group_site site,
				   unsigned int nr_running_before)
{
	switch (site) {
	case MODEL_SITE_ENQUEUE_ENTITY:
		if (vflag(m, SKIP_CG_ENQUEUE_ENTITY))
			return true;
		if (vflag(m, SKIP_CG_FIRST_ENQUEUE) && nr_running_before == 0)
			return true;
		break;
	case MODEL_SITE_DEQUEUE_ENTITY:
		if (vflag(m, SKIP_CG_DEQUEUE_ENTITY))
			return true;
		break;
	case MODEL_SITE_ENQUEUE_TASK:
		if (vflag(m, SKIP_CG_ENQUEUE_TASK))
			return true;
		break;
	case MODEL_SITE_DEQUEUE_TASK:
		if (vflag(m, SKIP_CG_DEQUEUE_TASK))
			return true;
		break;
	default:
		break;
	}
	return false;
}

/*
 * Does a variant remove this update_cfs_group() call of a group entity?  The
 * built-in ones, then the plugins' hooks (asked about group entities only).
 */
static bool cfs_group_site_skipped(struct model *m, struct sched_entity *se,
				   enum model_cfs_group_site site, unsigned int nr_running_before)
{
	struct model_hook_cfs_group ctx;
	unsigned int i;

	if (cfs_group_site_removed(m, site, nr_running_before))
		return true;
	if (!m->b.nr_hooks)
		return false;
	ctx.site = site;
	ctx.nr_running = nr_running_before;
	ctx.depth = se->depth;
	ctx.cpu = rq_of(cfs_rq_of(se))->cpu;
	for (i = 0; i < m->b.nr_hooks; i++)
		if (!m->b.hooks[i]->update_cfs_group(&ctx))
			return true;
	return false;
}

/*
 * update_cfs_group(): recompute a group entity's weight from its queue.
 * 6.12: nothing for an emptied queue (it keeps its weight, which matters for
 * DELAY_DEQUEUE), reweight only if the weight changed.  <= 6.5: always
 * reweight (re-deriving load_avg from load_sum even if unchanged).
 * @site / @nr_running_before identify the call for the variants.
 */
void update_cfs_group(struct model *m, struct sched_entity *se, enum model_cfs_group_site site,
		      unsigned int nr_running_before)
{
	struct cfs_rq *gcfs_rq = group_cfs_rq(se);
	long shares;

	if (!gcfs_rq) {
		/* the kernel enters it for a task entity too and returns at once */
		if (!cfs_group_site_removed(m, site, nr_running_before))
			COUNT(m, update_cfs_group_entries);
		return;
	}
	if (cfs_group_site_skipped(m, se, site, nr_running_before)) {
		COUNT(m, update_cfs_group_skipped);
		return;
	}
	COUNT(m, update_cfs_group);
	COUNT(m, update_cfs_group_entries);
	if (sched_feat(m, CFS_GROUP_KEEP_EMPTY) && !gcfs_rq->load.weight)
		return;
	/* before 6.18 a throttled hierarchy keeps its weight (6.18 dropped the test) */
	if (!sched_feat(m, TASK_BASED_THROTTLE) && throttled_hierarchy(m, gcfs_rq))
		return;

	shares = calc_group_shares(m, gcfs_rq);
	if (sched_feat(m, CFS_GROUP_ALWAYS_REWEIGHT) || se->load.weight != (unsigned long)shares) {
		if (se->load.weight != (unsigned long)shares)
			COUNT(m, update_cfs_group_reweight);
		reweight_entity(m, cfs_rq_of(se), se, (unsigned long)shares);
	}
}

/*
 * reweight_entity(): change @se's weight in place.  A queued entity leaves
 * the queue's load and tree while it changes; EEVDF keeps its lag and
 * relative deadline (reweight_eevdf()), a sleeping one scales its stored lag
 * (vlag is V - v, and lag = w vlag must stay).  load_avg is re-derived from
 * the unweighted load_sum with the new weight.
 */
void reweight_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
		     unsigned long weight)
{
	bool curr = cfs_rq->curr == se;
	bool place = sched_feat(m, EEVDF) && sched_feat(m, REWEIGHT_PLACE);
	bool rel_vprot = false;
	u64 avruntime = 0;
	s64 vprot = 0;
	u32 divider;

	COUNT(m, reweight_entity);
	if (se->on_rq) {
		if (sched_feat(m, REWEIGHT_UPDATE_CURR_ALWAYS) || curr)
			update_curr(m, cfs_rq);
		if (place) {
			/*
			 * 6.18: the entity leaves the queue keeping its lag
			 * (clamped) and relative deadline, and is placed again
			 * with its new weight.
			 */
			update_entity_lag(m, cfs_rq, se);
			se->deadline -= se->vruntime;
			se->rel_deadline = 1;
			cfs_rq->nr_running--;
		} else if (sched_feat(m, EEVDF)) {
			avruntime = avg_vruntime(m, cfs_rq);
		}
		/* 6.17+: curr's protected rest is virtual time too */
		if (curr && sched_feat(m, PROTECT_VPROT) && protect_slice(m, se)) {
			vprot = (s64)(se->vprot - se->vruntime);
			rel_vprot = true;
		}
		if (sched_feat(m, EEVDF) && !curr)
			__dequeue_entity(m, cfs_rq, se);
		update_load_sub(&cfs_rq->load, se->load.weight);
	}
	dequeue_load_avg(cfs_rq, se);

	if (place) {
		se->vlag = se->vlag * (s64)se->load.weight / (s64)weight;
		vlag_written(m, se);
		if (se->rel_deadline)
			se->deadline = (u64)((s64)se->deadline * (s64)se->load.weight / (s64)weight);
		if (rel_vprot)
			vprot = vprot * (s64)se->load.weight / (s64)weight;
	} else if (sched_feat(m, EEVDF)) {
		if (se->on_rq) {
			reweight_eevdf(m, se, avruntime, weight);
			if (rel_vprot)
				se->vprot = se->vruntime +
					(u64)(vprot * (s64)se->load.weight / (s64)weight);
		} else {
			se->vlag = se->vlag * (s64)se->load.weight / (s64)weight;
			vlag_written(m, se);
		}
	}

	update_load_set(&se->load, weight);

	divider = get_pelt_divider_model(&se->avg, vflag(m, V48_ATTACH));
	se->avg.load_avg = (unsigned long)(se_weight(se) * se->avg.load_sum / divider);

	enqueue_load_avg(cfs_rq, se);
	if (se->on_rq) {
		if (place) {
			place_entity_eevdf(m, cfs_rq, se, 0);
			if (rel_vprot)
				se->vprot = se->vruntime + (u64)vprot;
		}
		update_load_add(&cfs_rq->load, se->load.weight);
		if (sched_feat(m, EEVDF) && !curr)
			__enqueue_entity(m, cfs_rq, se);
		if (place)
			cfs_rq->nr_running++;
	}
}

#define ROOT_VRUNTIME_UPTIME ((u64)1 << 42)

void init_cfs_rq(struct model *m, struct cfs_rq *cfs_rq, struct rq *rq, struct task_group *tg)
{
	memset(cfs_rq, 0, sizeof(*cfs_rq));
	cfs_rq->rq = rq;
	cfs_rq->tg = tg;
	/* init_cfs_rq(): both origins start just below the wrap point */
	cfs_rq->zero_vruntime = (u64)(-(1LL << 20));
	cfs_rq->min_vruntime = (u64)(-(1LL << 20));
	/*
	 * Only the vlag-vprot-union variant reads a vruntime as an absolute value (a lag
	 * written over curr's protection is compared with it).  The kernel's
	 * root queues were made at boot and their clock has run since: a
	 * trace's root queue is far above any lag (2^42 ns, 73 minutes, stands
	 * for it); the groups a capture makes start where the kernel's do.
	 */
	if (vflag(m, VLAG_VPROT_UNION) && tg == &m->root_task_group) {
		cfs_rq->zero_vruntime += ROOT_VRUNTIME_UPTIME;
		cfs_rq->min_vruntime += ROOT_VRUNTIME_UPTIME;
	}
	/*
	 * No h_load computed yet.  The model's jiffies start at 0, so 0 would
	 * read as "computed this jiffy" during the first tick and task_h_load()
	 * would see h_load 0; the kernel avoids it because jiffies start at
	 * INITIAL_JIFFIES, never 0 at boot.  -1 is a jiffy the model never reaches.
	 */
	cfs_rq->last_h_load_update = (unsigned long)-1;
}

/*
 * alloc_fair_sched_group() + init_tg_cfs_entry(): per-CPU queues and group
 * entities of a new group (the root has only queues: rq->cfs).
 */
int tg_alloc_percpu(struct model *m, struct task_group *tg, struct sr_error *err)
{
	unsigned int cpu;

	tg->cfs_rq = calloc(m->nr_cpus, sizeof(*tg->cfs_rq));
	tg->se = calloc(m->nr_cpus, sizeof(*tg->se));
	tg->node_load_avg = calloc((size_t)m->nr_nodes, sizeof(*tg->node_load_avg));
	if (!tg->cfs_rq || !tg->se || !tg->node_load_avg)
		goto nomem;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct rq *rq = &m->rqs[cpu];
		struct cfs_rq *cfs_rq;
		struct sched_entity *se;

		if (!tg->parent) {
			tg->cfs_rq[cpu] = &rq->cfs;
			continue;
		}
		cfs_rq = calloc(1, sizeof(*cfs_rq));
		se = calloc(1, sizeof(*se));
		if (!cfs_rq || !se) {
			free(cfs_rq);
			free(se);
			goto nomem;
		}
		init_cfs_rq(m, cfs_rq, rq, tg);
		cfs_rq->se = se;
		tg->cfs_rq[cpu] = cfs_rq;
		tg->se[cpu] = se;

		se->my_q = cfs_rq;
		se->parent = tg->parent->se[cpu];            /* NULL under the root */
		se->cfs_rq = tg->parent->cfs_rq[cpu];
		se->depth = se->parent ? se->parent->depth + 1 : 0;
		/* a group entity starts at NICE_0_LOAD (init_tg_cfs_entry()), never at 0 */
		update_load_set(&se->load, NICE_0_LOAD);
		init_entity_runnable_average(m, se);
		/* its lag from before the trace: 0, or inferred (model_expect_wakeup()) */
		se->no_history = 1;
	}
	return 0;
nomem:
	sr_error_set(err, 12, "out of memory allocating task group %s", tg->name ? tg->name : "?");
	return -1;
}

void tg_free(struct model *m, struct task_group *tg)
{
	unsigned int cpu;

	if (!tg)
		return;
	if (tg->parent) {
		for (cpu = 0; cpu < m->nr_cpus; cpu++) {
			if (tg->cfs_rq)
				free(tg->cfs_rq[cpu]);
			if (tg->se)
				free(tg->se[cpu]);
		}
	}
	free(tg->name);
	free(tg->node_load_avg);
	free(tg->cfs_rq);
	free(tg->se);
}

int model_group_queue_read(const struct model *m, const struct model_group *g, int cpu,
			   struct model_group_queue *out)
{
	const struct task_group *tg = (const struct task_group *)g;
	const struct cfs_rq *cfs_rq;
	const struct sched_entity *se;

	memset(out, 0, sizeof(*out));
	if (!tg || cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return -1;
	cfs_rq = tg->cfs_rq[cpu];
	out->load_avg = cfs_rq->avg.load_avg;
	out->util_avg = cfs_rq->avg.util_avg;
	out->runnable_avg = cfs_rq->avg.runnable_avg;
	out->tg_load_avg_contrib = cfs_rq->tg_load_avg_contrib;
	/* tg_load_avg_read() without its read counter: a probe changes nothing */
	if (vflag(m, TG_LOAD_PER_NODE) && tg->node_load_avg) {
		for (int n = 0; n < m->nr_nodes; n++)
			out->tg_load_avg += tg->node_load_avg[n];
	} else {
		out->tg_load_avg = tg->load_avg;
	}
	se = tg->se ? tg->se[cpu] : NULL;
	if (se) {
		out->have_se = true;
		out->se_weight = se->load.weight;
		out->se_load_avg = se->avg.load_avg;
		out->se_util_avg = se->avg.util_avg;
	}
	out->nr_queued = cfs_rq->nr_running;
	out->h_nr_queued = cfs_rq->h_nr_queued;
	out->on_list = cfs_rq->on_list;
	out->last_update_time = cfs_rq->avg.last_update_time;
	return 0;
}
