// SPDX-License-Identifier: GPL-2.0
/*
 * model_check_invariants(): the structural truths the kernel keeps (some as
 * SCHED_WARN_ON()s), checked over the whole machine.  For tests and
 * debugging; O(entities).
 */
#include "sched.h"

struct tl_check {
	const struct model *m;
	const struct sched_entity *prev;
	unsigned long weight;      /* full-resolution sum */
	long avg_load;             /* scaled-down sum */
	s64 avg_vruntime;
	unsigned int n;
	bool order_ok, aug_ok;
	u64 origin;
};

static int tl_visit(struct sched_entity *se, void *arg)
{
	struct tl_check *c = arg;
	bool eevdf = sched_feat(c->m, EEVDF);
	u64 mv = se->vruntime, ms = se->slice;

	if (c->prev) {
		s64 d = eevdf ? (s64)(se->deadline - c->prev->deadline) :
				(s64)(se->vruntime - c->prev->vruntime);
		if (d < 0)
			c->order_ok = false;
	}
	if (se->tl_left) {
		if ((s64)(mv - se->tl_left->min_vruntime) > 0)
			mv = se->tl_left->min_vruntime;
		if (se->tl_left->min_slice < ms)
			ms = se->tl_left->min_slice;
	}
	if (se->tl_right) {
		if ((s64)(mv - se->tl_right->min_vruntime) > 0)
			mv = se->tl_right->min_vruntime;
		if (se->tl_right->min_slice < ms)
			ms = se->tl_right->min_slice;
	}
	if (mv != se->min_vruntime || ms != se->min_slice)
		c->aug_ok = false;
	c->prev = se;
	c->weight += se->load.weight;
	c->avg_load += (long)scale_load_down(se->load.weight);
	c->avg_vruntime += (s64)(se->vruntime - c->origin) * (s64)scale_load_down(se->load.weight);
	c->n++;
	return 0;
}

#define BAD(...) do { sr_error_set(err, 5, __VA_ARGS__); return -1; } while (0)

/*
 * CFS bandwidth: a throttled queue is on its pool's throttled list with no
 * runtime left; throttle_count counts the throttled queues from it up to the
 * root; a throttled, empty queue has its PELT clock stopped and is off the
 * leaf list; limbo tasks are dequeued tasks of a throttled hierarchy.
 */
static int check_bandwidth(const struct model *m, const struct cfs_rq *cfs_rq, const char *gname,
			   struct sr_error *err)
{
	const struct cfs_rq *q;
	const struct sched_entity *se;
	const struct model_task *p;
	int cpu = cfs_rq->rq->cpu, count = cfs_rq->throttled;
	bool listed = false;

	if (!cfs_bandwidth_used(m) && (cfs_rq->throttle_count || cfs_rq->limbo_head))
		BAD("cpu %d group %s: throttled with no quota anywhere", cpu, gname);
	for (se = cfs_rq->se; se; se = se->parent)
		count += cfs_rq_of(se)->throttled;
	if (count != cfs_rq->throttle_count)
		BAD("cpu %d group %s: throttle_count %d, %d throttled queues at or above it", cpu,
		    gname, cfs_rq->throttle_count, count);
	if (cfs_rq->throttled) {
		for (q = cfs_rq->tg->cfs_bandwidth.throttled_head; q; q = q->throttled_next)
			listed |= q == cfs_rq;
		if (!listed)
			BAD("cpu %d group %s: throttled but not on the throttled list", cpu, gname);
		if (cfs_rq->runtime_remaining > 0)
			BAD("cpu %d group %s: throttled with %lld ns of runtime", cpu, gname,
			    (long long)cfs_rq->runtime_remaining);
	}
	if (cfs_rq->throttle_count && !cfs_rq->nr_running &&
	    (cfs_rq->on_list || !cfs_rq->pelt_clock_throttled))
		BAD("cpu %d group %s: throttled and empty but %s", cpu, gname,
		    cfs_rq->on_list ? "on the leaf list" : "its PELT clock runs");
	for (p = cfs_rq->limbo_head; p; p = p->limbo_next) {
		if (!p->throttled || p->se.on_rq || p->on_rq != TASK_ON_RQ_QUEUED ||
		    cfs_rq_of(&p->se) != cfs_rq)
			BAD("cpu %d group %s: limbo task %u: throttled %d, se queued %d, on_rq %d", cpu,
			    gname, p->id, p->throttled, p->se.on_rq, p->on_rq);
		if (!cfs_rq->throttle_count)
			BAD("cpu %d group %s: limbo task %u in a hierarchy not throttled", cpu, gname,
			    p->id);
	}
	return 0;
}

static int check_cfs_rq(const struct model *m, struct cfs_rq *cfs_rq, const char *gname,
			struct sr_error *err)
{
	struct tl_check c = { .m = m, .order_ok = true, .aug_ok = true,
			      .origin = cfs_rq_origin(m, cfs_rq) };
	int cpu = cfs_rq->rq->cpu;
	unsigned long weight;
	unsigned int n;

	timeline_walk(cfs_rq, tl_visit, &c);
	weight = c.weight;
	n = c.n;
	if (cfs_rq->curr && cfs_rq->curr->on_rq) {
		weight += cfs_rq->curr->load.weight;
		n++;
	}
	if (!c.order_ok)
		BAD("cpu %d group %s: timeline out of order", cpu, gname);
	if (!c.aug_ok)
		BAD("cpu %d group %s: timeline min_vruntime/min_slice stale", cpu, gname);
	if (weight != cfs_rq->load.weight)
		BAD("cpu %d group %s: queued weights sum to %lu, cfs_rq load.weight %lu", cpu,
		    gname, weight, cfs_rq->load.weight);
	if (n != cfs_rq->nr_running)
		BAD("cpu %d group %s: %u queued entities, nr_running %u", cpu, gname, n,
		    cfs_rq->nr_running);
	if (sched_feat(m, EEVDF)) {
		if (c.avg_load != cfs_rq->avg_load)
			BAD("cpu %d group %s: tree weights %ld, avg_load %ld", cpu, gname,
			    c.avg_load, cfs_rq->avg_load);
		if (c.avg_vruntime != cfs_rq->avg_vruntime)
			BAD("cpu %d group %s: tree sum(key*w) %lld, avg_vruntime %lld", cpu, gname,
			    (long long)c.avg_vruntime, (long long)cfs_rq->avg_vruntime);
		if (cfs_rq->h_nr_runnable + cfs_rq->h_nr_delayed != cfs_rq->h_nr_queued)
			BAD("cpu %d group %s: h_nr_runnable %u + h_nr_delayed %u != h_nr_queued %u",
			    cpu, gname, cfs_rq->h_nr_runnable, cfs_rq->h_nr_delayed,
			    cfs_rq->h_nr_queued);
	}
	if (cfs_rq->h_nr_queued > (1u << 30) || cfs_rq->nr_running > (1u << 30))
		BAD("cpu %d group %s: negative count (h_nr_queued %u)", cpu, gname,
		    cfs_rq->h_nr_queued);
	if (cfs_rq->avg.load_avg > (1UL << 40) || cfs_rq->avg.util_avg > (1UL << 40) ||
	    cfs_rq->avg.load_sum > (1ULL << 60) || cfs_rq->avg.runnable_sum > (1ULL << 60))
		BAD("cpu %d group %s: load sums wrapped below zero (load_avg %lu)", cpu, gname,
		    cfs_rq->avg.load_avg);
	/* before 6.18 a throttled hierarchy is off the list, queued or not */
	if (cfs_rq->nr_running && !cfs_rq->on_list &&
	    (sched_feat(m, TASK_BASED_THROTTLE) || !throttled_hierarchy(m, cfs_rq)))
		BAD("cpu %d group %s: non-empty cfs_rq not on leaf_cfs_rq_list", cpu, gname);
	if (check_bandwidth(m, cfs_rq, gname, err))
		return -1;
	if (cfs_rq->se) {
		struct sched_entity *gse = cfs_rq->se;

		/* before 6.18 the throttle dequeued it (throttle_cfs_rq()) */
		if (cfs_rq->nr_running && !gse->on_rq &&
		    (sched_feat(m, TASK_BASED_THROTTLE) || !cfs_rq_throttled(m, cfs_rq)))
			BAD("cpu %d group %s: queue has %u entities but its group entity is not queued",
			    cpu, gname, cfs_rq->nr_running);
		if (!sched_feat(m, TASK_BASED_THROTTLE) && cfs_rq_throttled(m, cfs_rq) &&
		    gse->on_rq)
			BAD("cpu %d group %s: throttled (before 6.18) with its group entity queued",
			    cpu, gname);
		if (!sched_feat(m, TASK_BASED_THROTTLE) && throttled_hierarchy(m, cfs_rq) &&
		    !cfs_rq->pelt_clock_throttled)
			BAD("cpu %d group %s: throttled hierarchy (before 6.18) with its PELT clock running",
			    cpu, gname);
		if (gse->on_rq && !cfs_rq->nr_running && !gse->sched_delayed)
			BAD("cpu %d group %s: group entity queued over an empty queue", cpu, gname);
		if (cfs_rq->on_list && !cfs_rq_of(gse)->on_list)
			BAD("cpu %d group %s: on leaf list without its parent", cpu, gname);
	}
	return 0;
}

/* Tasks whose own entity is queued on @cpu: rq->cfs_tasks. */
static unsigned int tasks_on_cpu(const struct model *m, int cpu)
{
	const struct model_task *p;
	unsigned int n = 0;

	for (p = m->tasks; p; p = p->next_alloc)
		if (p->se.on_rq && p->cpu == cpu)
			n++;
	return n;
}

/* Tasks queued below each cfs_rq, computed from the tasks themselves. */
static unsigned int tasks_below(const struct model *m, const struct cfs_rq *cfs_rq)
{
	const struct model_task *p;
	unsigned int n = 0;

	for (p = m->tasks; p; p = p->next_alloc) {
		const struct sched_entity *se = &p->se;

		if (!p->on_rq || p->throttled || p->cpu != cfs_rq->rq->cpu)
			continue;
		/* up to an entity that is off its queue: a group entity
		 * dequeued by a throttle before 6.18 hides the tasks below it */
		for (; se && se->on_rq; se = se->parent)
			if (cfs_rq_of(se) == cfs_rq)
				n++;
	}
	return n;
}

/* Before 6.18: tasks queued on their own queue below a group entity that is off. */
static unsigned int tasks_hidden(const struct model *m)
{
	const struct model_task *p;
	unsigned int n = 0;

	for (p = m->tasks; p; p = p->next_alloc) {
		const struct sched_entity *se = &p->se;

		if (!p->on_rq || !se->on_rq)
			continue;
		while (se && se->on_rq)
			se = se->parent;
		n += se != NULL;
	}
	return n;
}

int model_check_invariants(const struct model *m, struct sr_error *err)
{
	const struct task_group *tg;
	unsigned int cpu;

	if (!sched_feat(m, TASK_BASED_THROTTLE) && model_nr_throttled(m) != tasks_hidden(m))
		BAD("%u tasks queued below a dequeued group entity, model_nr_throttled() %u",
		    tasks_hidden(m), model_nr_throttled(m));

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct rq *rq = &m->rqs[cpu];
		const struct model_task *p;
		unsigned int listed = 0;
		struct cfs_rq *c;
		const struct sched_entity *se;

		if (check_cfs_rq(m, &rq->cfs, "/", err))
			return -1;
		/* update_cpu_capacity(): 1 .. 1024; 1024 with fixed_cpu_capacity */
		if (rq->cpu_capacity < 1 || rq->cpu_capacity > SCHED_CAPACITY_SCALE ||
		    (!m->rt_capacity && rq->cpu_capacity != SCHED_CAPACITY_SCALE))
			BAD("cpu %u: cpu_capacity %lu", cpu, rq->cpu_capacity);
		if (m->sgc_capacity && (m->sgc_capacity[rq->node] < 1 ||
		    m->sgc_capacity[rq->node] > SCHED_CAPACITY_SCALE * m->nr_cpus))
			BAD("node %d: sgc capacity %lu", rq->node, m->sgc_capacity[rq->node]);
		if (rq->nr_running != rq->cfs.h_nr_queued + (rq->other_class ? 1 : 0))
			BAD("cpu %u: nr_running %u, fair queued %u", cpu, rq->nr_running,
			    rq->cfs.h_nr_queued);
		if (tasks_below(m, &rq->cfs) != rq->cfs.h_nr_queued)
			BAD("cpu %u: %u tasks queued, h_nr_queued %u", cpu, tasks_below(m, &rq->cfs),
			    rq->cfs.h_nr_queued);
		for (p = rq->cfs_tasks_head; p; p = p->cfs_next)
			listed++;
		/*
		 * 6.18 dequeues a throttled task, so cfs_tasks holds exactly the
		 * tasks the root counts; before 6.18 tasks below a throttled
		 * queue stay on it (their entities stay queued) while the root
		 * no longer counts them, so only their own queued entities can be
		 * counted.
		 */
		if (sched_feat(m, TASK_BASED_THROTTLE) && listed != rq->cfs.h_nr_queued)
			BAD("cpu %u: cfs_tasks has %u tasks, h_nr_queued %u", cpu, listed,
			    rq->cfs.h_nr_queued);
		if (!sched_feat(m, TASK_BASED_THROTTLE) && listed != tasks_on_cpu(m, (int)cpu))
			BAD("cpu %u: cfs_tasks has %u tasks, %u queued", cpu, listed,
			    tasks_on_cpu(m, (int)cpu));
		if (rq->curr) {
			for (se = &rq->curr->se; se; se = se->parent)
				if (cfs_rq_of(se)->curr != se)
					BAD("cpu %u: task %u running but not curr of its queues", cpu,
					    rq->curr->id);
			if (!rq->curr->on_rq)
				BAD("cpu %u: running task %u is not queued", cpu, rq->curr->id);
		}
		/* leaf list order: a child before its parent */
		for (c = rq->leaf_head; c; c = c->leaf_next) {
			const struct cfs_rq *q;

			for (q = c->leaf_next; q; q = q->leaf_next)
				if (q->se && cfs_rq_of(q->se) == c)
					BAD("cpu %u: leaf list has group %s after its parent", cpu,
					    q->tg->name);
		}
	}

	for (tg = m->groups; tg; tg = tg->next_alloc) {
		long contrib = 0, nodes = 0;
		int n;

		for (cpu = 0; cpu < m->nr_cpus; cpu++) {
			if (check_cfs_rq(m, tg->cfs_rq[cpu], tg->name, err))
				return -1;
			if (tasks_below(m, tg->cfs_rq[cpu]) != tg->cfs_rq[cpu]->h_nr_queued)
				BAD("cpu %u group %s: %u tasks queued below, h_nr_queued %u", cpu,
				    tg->name, tasks_below(m, tg->cfs_rq[cpu]),
				    tg->cfs_rq[cpu]->h_nr_queued);
			contrib += (long)tg->cfs_rq[cpu]->tg_load_avg_contrib;
		}
		if (contrib != tg->load_avg)
			BAD("group %s: tg->load_avg %ld, sum of contributions %ld", tg->name,
			    tg->load_avg, contrib);
		for (n = 0; n < m->nr_nodes; n++)
			nodes += tg->node_load_avg[n];
		if (nodes != tg->load_avg)
			BAD("group %s: per-node load_avg sums to %ld, tg->load_avg %ld", tg->name,
			    nodes, tg->load_avg);
	}
	return 0;
}
