// SPDX-License-Identifier: GPL-2.0
/*
 * The machine and the core's entry points (kernel/sched/core.c:
 * sched_init(), wake_up_new_task(), try_to_wake_up() / ttwu_runnable() /
 * ttwu_do_activate(), __schedule() / try_to_block_task(), sched_tick(),
 * set_task_cpu(), move_queued_task(), sched_move_task(), set_user_nice()),
 * reduced to what the fair class sees.  The caller owns time: every entry
 * point takes `now` and updates the CPU's rq clock from it, as the kernel's
 * update_rq_clock() does at the same places.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"

/* ---- clocks ---------------------------------------------------------- */

/* sched_clock_cpu(): one clock for the whole machine, the caller's. */
u64 sched_clock_cpu(const struct model *m, int cpu)
{
	(void)cpu;
	return m->now;
}

void model_advance_time(struct model *m, u64 now)
{
	if (now > m->now) {
		m->now = now;
		m->jiffies = (unsigned long)(now / m->tick_nsec);
	}
}

/*
 * The time @rq's clock_task leaves out up to @now (model_config.clock_left):
 * linear between the points, looked up from the last point used (the clock
 * only moves forward, so that is a step or two).
 */
static u64 rq_clock_left(struct rq *rq, u64 now)
{
	const struct model_clock_point *p = rq->left;
	u32 i = rq->left_i;

	if (!rq->left_n || now <= p[0].at)
		return 0;
	if (now >= p[rq->left_n - 1].at)
		return p[rq->left_n - 1].left_ns;
	if (p[i].at > now)
		i = 0;
	while (p[i + 1].at <= now)   /* p[i].at <= now < p[last].at */
		i++;
	rq->left_i = i;
	return p[i].left_ns + (u64)((double)(p[i + 1].left_ns - p[i].left_ns) *
				    (double)(now - p[i].at) / (double)(p[i + 1].at - p[i].at));
}

/* @rq's rq_clock_task() at @now (the clock less the left-out time) */
u64 rq_clock_task_at(struct rq *rq, u64 now)
{
	return now - rq_clock_left(rq, now);
}

/*
 * update_rq_clock(): clock_task is the clock less the time it leaves out
 * (update_rq_clock_task(): IRQ and steal time, model_config.clock_left;
 * none by default), clock_pelt follows clock_task (update_rq_clock_pelt():
 * no capacity or frequency scaling, so equal to it); an idle rq also records
 * the idle clocks migrate_se_pelt_lag() extrapolates from
 * (update_idle_rq_clock_pelt(): clock_pelt synced to clock_task).
 */
void update_rq_clock(struct model *m, struct rq *rq, u64 now)
{
	model_advance_time(m, now);
	if ((s64)(now - rq->clock) > 0) {
		u64 task = rq_clock_task_at(rq, now);

		rq->clock = now;
		if (task > rq->clock_task)   /* rounding never takes it back */
			rq->clock_task = task;
		rq->clock_pelt = rq->clock_task;
	}
	if (!rq->curr && !rq->other_class) {
		rq->clock_idle = rq->clock;
		rq->clock_pelt_idle = rq->clock_pelt;
	}
}

/* sched_rng(): per-CPU xorshift32 seeded from model_config.seed. */
u32 sched_rng(struct rq *rq)
{
	u64 x = rq->rnd_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rq->rnd_state = x;
	return (u32)(x >> 16);
}

/* ---- nr_running, placement ------------------------------------------- */

/* add_nr_running(): a second runnable task marks the root domain overloaded. */
void add_nr_running(struct model *m, struct rq *rq, unsigned int count)
{
	unsigned int prev = rq->nr_running;

	rq->nr_running += count;
	if (prev < 2 && rq->nr_running >= 2) {
		model_note_overload(m, true, MODEL_OVERLOAD_ENQUEUE, rq);
		m->rd_overloaded = true;
	}
}

/* the analysis record of a change of rd->overloaded (model_overload_info()) */
void model_note_overload(struct model *m, bool set, enum model_overload_site site,
			 const struct rq *rq)
{
	struct model_overload_change *c = set ? &m->rd_overload_set : &m->rd_overload_clear;

	if (set)
		m->rd_overload_sets++;
	else
		m->rd_overload_clears++;
	c->site = site;
	c->cpu = rq->cpu;
	c->at = rq->clock;
}

void sub_nr_running(struct model *m, struct rq *rq, unsigned int count)
{
	(void)m;
	rq->nr_running -= count;
}

/* set_task_rq(): the task's entity hangs below its group's entity on @cpu. */
static void set_task_rq(struct model_task *p, int cpu)
{
	p->se.cfs_rq = p->tg->cfs_rq[cpu];
	p->se.parent = p->tg->se[cpu];
	p->se.depth = p->se.parent ? p->se.parent->depth + 1 : 0;
}

/* set_task_cpu(): sched_migrate_task fires here, before migrate_task_rq_fair(). */
void set_task_cpu(struct model *m, struct model_task *p, int new_cpu)
{
	if (p->cpu != new_cpu) {
		COUNT(m, sched_migrate_task);
		migrate_task_rq_fair(m, p, new_cpu);
	}
	p->cpu = new_cpu;
	set_task_rq(p, new_cpu);
}

void activate_task(struct model *m, struct rq *rq, struct model_task *p, int flags)
{
	if (task_on_rq_migrating(p))
		flags |= ENQUEUE_MIGRATED;
	enqueue_task_fair(m, rq, p, flags);
	p->on_rq = TASK_ON_RQ_QUEUED;
}

void deactivate_task(struct model *m, struct rq *rq, struct model_task *p, int flags)
{
	p->on_rq = (flags & DEQUEUE_SLEEP) ? 0 : TASK_ON_RQ_MIGRATING;
	dequeue_task_fair(m, rq, p, flags);
}

/*
 * wakeup_preempt(): a fair task woke on @rq.  Against a fair curr the
 * class decides; an idle CPU is always preempted; a non-fair curr never.
 */
/*
 * wakeup_preempt() (check_preempt_curr() before 6.10).  When it leaves a
 * queued curr with need_resched set, a __schedule() is coming: the kernel
 * requests that it skip its clock update (rq_clock_skip_update(),
 * RQCF_REQ_SKIP), so that __schedule() runs on the clock of this wakeup.
 * prev's final update_curr() then sees no delta (no sched_stat_runtime) and
 * the time until the switch is charged to next, whose exec_start is that
 * clock.  Other clock updates in between (a tick) still happen.
 */
void wakeup_preempt(struct model *m, struct rq *rq, struct model_task *p, int flags)
{
	if (rq->other_class)
		return;
	if (rq->curr)
		check_preempt_wakeup_fair(m, rq, p, flags);
	else
		resched_curr(m, rq);
	if (sched_feat(m, CLOCK_SKIP_UPDATE) && rq->curr && rq->curr->on_rq && rq->need_resched)
		rq->clock_skip_req = true;
	/*
	 * The kernel's test is task_on_rq_queued(donor), and the idle task is
	 * on_rq (init_idle()): a wakeup onto an idle CPU requests the skip
	 * too, and the wakee is charged from this clock (model_config.
	 * idle_clock_skip; the capture traces: the first charge of a task
	 * switched in from idle exceeds its run by the sched_wakeup ->
	 * sched_switch delay).
	 */
	if (sched_feat(m, CLOCK_SKIP_UPDATE) && m->idle_clock_skip && !rq->curr && rq->need_resched)
		rq->clock_skip_req = true;
}

/* ---- machine --------------------------------------------------------- */

static unsigned int ilog2_u(unsigned int x)
{
	unsigned int r = 0;

	while (x >>= 1)
		r++;
	return r;
}

static void resolve_behaviour(struct model *m)
{
	unsigned int i;
	const struct model_variant *v;

	m->b.vflags = 0;
	m->b.tg_ratelimit_ns = (u64)m->prof.tg_load_avg_ratelimit_ns;
	m->b.nr_hooks = 0;
	for (i = 0; i < m->variants.n; i++) {
		v = m->variants.v[i];
		m->b.vflags |= v->flags;
		if (v->tg_ratelimit_ns != MODEL_TG_RATELIMIT_KEEP)
			m->b.tg_ratelimit_ns = (u64)v->tg_ratelimit_ns;
		if (v->update_cfs_group)
			m->b.hooks[m->b.nr_hooks++] = v;
	}
}

/*
 * The variants' then the caller's sched feature toggles over the profile's
 * column, as writes to /sys/kernel/debug/sched/features would leave
 * sysctl_sched_features (sched_feat_set(): later writes win).
 */
static int apply_sched_features(struct model *m, const struct model_config *cfg,
				struct sr_error *err)
{
	struct model_sched_features *f = &m->sched_features;
	char msg[700];

	for (unsigned int i = 0; i < m->variants.n; i++)
		model_sched_features_merge(f, &m->variants.v[i]->sched_features);
	model_sched_features_merge(f, &cfg->sched_features);
	if (model_sched_features_check(&m->prof, f, msg, sizeof(msg)) < 0) {
		sr_error_set(err, 22, "%s", msg);
		return -1;
	}
	for (unsigned int i = 0; i < NR_MODEL_FEATS; i++) {
		if (f->set >> i & 1)
			m->prof.feat[i] = 1;
		if (f->clear >> i & 1)
			m->prof.feat[i] = 0;
	}
	return 0;
}

struct model *model_new(const struct model_config *cfg, struct sr_error *err)
{
	struct model *m;
	unsigned int cpu, hz;
	int max_node = 0;

	if (!cfg || cfg->nr_cpus < 1 || cfg->nr_cpus > MODEL_MAX_CPUS) {
		sr_error_set(err, 22, "model: nr_cpus must be 1..%d (got %u)", MODEL_MAX_CPUS,
			     cfg ? cfg->nr_cpus : 0);
		return NULL;
	}
	hz = cfg->hz ? cfg->hz : 250;
	if (hz < 24 || hz > 10000) {
		sr_error_set(err, 22,
			     "model: HZ %u outside 24..10000 (kernels use 100, 250, 300 or 1000)",
			     hz);
		return NULL;
	}
	if (cfg->cpu_node) {
		for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
			if (cfg->cpu_node[cpu] < 0 || cfg->cpu_node[cpu] >= (int)cfg->nr_cpus) {
				sr_error_set(err, 22, "model: CPU %u has invalid NUMA node %d", cpu,
					     cfg->cpu_node[cpu]);
				return NULL;
			}
			if (cfg->cpu_node[cpu] > max_node)
				max_node = cfg->cpu_node[cpu];
		}
	}

	m = calloc(1, sizeof(*m));
	if (!m)
		goto nomem;
	m->prof = *(cfg->profile ? cfg->profile : model_profile_default());
	if (cfg->variants)
		m->variants = *cfg->variants;
	else
		model_variant_set_init(&m->variants);
	resolve_behaviour(m);
	if (apply_sched_features(m, cfg, err) < 0) {
		free(m);
		return NULL;
	}

	m->nr_cpus = cfg->nr_cpus;
	m->nr_nodes = max_node + 1;
	m->hz = hz;
	m->tick_nsec = (1000000000ULL + hz / 2) / hz;
	m->balance_moves_tasks = cfg->balance_moves_tasks;
	m->newidle_moves_tasks = cfg->newidle_moves_tasks;
	m->exit_keeps_autogroup = cfg->exit_keeps_autogroup;
	m->others_pelt = !cfg->no_others_pelt;
	m->rt_capacity = !cfg->fixed_cpu_capacity;
	m->idle_moves_cpus = cfg->idle_moves_tasks ? UINT64_MAX : 0;
	m->vcpu_pack = cfg->vcpu_pack;
	m->vcpu_pack_flat = cfg->vcpu_pack_flat;
	m->newidle_ratio0 = cfg->newidle_ratio_given && cfg->newidle_ratio <= 1024 ?
			    cfg->newidle_ratio : 512;
	m->idle_clock_skip = cfg->idle_clock_skip;
	m->block_clock_after = cfg->block_clock_after;
	m->cfs_initial_credit = cfg->cfs_initial_credit;
	m->cfs_initial_credit_tasks = cfg->cfs_initial_credit_tasks;
	m->migrate_hook = cfg->migrate_hook;
	m->stopper_hook = cfg->stopper_hook;
	m->stat_runtime_hook = cfg->stat_runtime_hook;
	m->hook_ctx = cfg->hook_ctx;

	/* update_sysctl(): SCHED_TUNABLESCALING_LOG */
	m->factor = 1 + ilog2_u(m->nr_cpus < 8 ? m->nr_cpus : 8);
	m->sysctl_sched_base_slice = (u64)m->prof.base_slice_ns * m->factor;
	m->sysctl_sched_latency = (u64)m->prof.sched_latency_ns * m->factor;
	m->sysctl_sched_min_granularity = (u64)m->prof.min_granularity_ns * m->factor;
	m->sysctl_sched_wakeup_granularity = (u64)m->prof.wakeup_granularity_ns * m->factor;
	m->sysctl_sched_idle_min_granularity = (u64)m->prof.idle_min_granularity_ns;
	m->sched_nr_latency = (unsigned int)m->prof.sched_nr_latency;
	m->sysctl_sched_migration_cost = (u64)m->prof.migration_cost_ns;
	m->newidle_domain_cost_ns = cfg->newidle_domain_cost_ns ? cfg->newidle_domain_cost_ns :
				    (u64)m->prof.newidle_domain_cost_ns;
	m->blocked_cost_per_cfs_rq_ns = cfg->blocked_cost_per_cfs_rq_ns ?
					cfg->blocked_cost_per_cfs_rq_ns :
					(u64)m->prof.blocked_cost_per_cfs_rq_ns;

	m->tl_rng = (cfg->seed ^ 0x9E3779B97F4A7C15ULL) | 1;
	m->tg_writes_node = calloc((size_t)m->nr_nodes, sizeof(*m->tg_writes_node));
	/* kzalloc()ed sched_domain_shared: no scan until the first periodic balance */
	m->nr_idle_scan = calloc((size_t)m->nr_nodes, sizeof(*m->nr_idle_scan));
	m->rqs = calloc(m->nr_cpus, sizeof(*m->rqs));
	if (!m->tg_writes_node || !m->nr_idle_scan || !m->rqs)
		goto nomem;

	for (cpu = 0; cfg->clock_left && cpu < m->nr_cpus; cpu++) {
		const struct model_clock_left *cl = &cfg->clock_left[cpu];
		struct rq *rq = &m->rqs[cpu];

		for (u32 i = 1; i < cl->n; i++)
			if (cl->v[i].at <= cl->v[i - 1].at || cl->v[i].left_ns < cl->v[i - 1].left_ns ||
			    cl->v[i].left_ns - cl->v[i - 1].left_ns > cl->v[i].at - cl->v[i - 1].at) {
				sr_error_set(err, 22, "model: CPU %u: clock_left point %u (at %" PRIu64
					     " ns, %" PRIu64 " ns left out) out of order or growing "
					     "faster than the clock", cpu, i, cl->v[i].at,
					     cl->v[i].left_ns);
				goto fail;
			}
		if (!cl->n)
			continue;
		if (!(rq->left = malloc(cl->n * sizeof(*rq->left))))
			goto nomem;
		memcpy(rq->left, cl->v, cl->n * sizeof(*rq->left));
		rq->left_n = cl->n;
	}
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct rq *rq = &m->rqs[cpu];

		rq->model = m;
		rq->cpu = (int)cpu;
		rq->node = cfg->cpu_node ? cfg->cpu_node[cpu] : 0;
		init_cfs_rq(m, &rq->cfs, rq, &m->root_task_group);
		/* sched_init(): avg_idle starts at 2 * migration_cost */
		rq->avg_idle = 2 * m->sysctl_sched_migration_cost;
		rq->max_idle_balance_cost = m->sysctl_sched_migration_cost;
		rq->rnd_state = (cfg->seed + 0x51ED2701ULL * (cpu + 1)) | 1;
	}

	m->root_task_group.shares = NICE_0_LOAD;   /* ROOT_TASK_GROUP_LOAD */
	init_cfs_bandwidth(&m->root_task_group.cfs_bandwidth);
	if (tg_alloc_percpu(m, &m->root_task_group, err))
		goto fail;
	m->root_task_group.name = strdup("/");
	if (!m->root_task_group.name)
		goto nomem;
	if (build_sched_domains(m, err))
		goto fail;
	return m;

nomem:
	sr_error_set(err, 12, "model: out of memory");
fail:
	model_free(m);
	return NULL;
}

void model_free(struct model *m)
{
	struct model_task *t, *tn;
	struct task_group *g, *gn;

	if (!m)
		return;
	for (t = m->tasks; t; t = tn) {
		tn = t->next_alloc;
		free(t->cpus_mask);
		free(t);
	}
	for (g = m->groups; g; g = gn) {
		gn = g->next_alloc;
		tg_free(m, g);
		free(g);
	}
	for (unsigned int c = 0; m->rqs && c < m->nr_cpus; c++)
		free(m->rqs[c].left);
	if (m->rqs)
		free_sched_domains(m);
	tg_free(m, &m->root_task_group);
	free(m->rqs);
	free(m->tg_writes_node);
	free(m->nr_idle_scan);
	free(m);
}

unsigned int model_nr_cpus(const struct model *m)
{
	return m->nr_cpus;
}

unsigned int model_hz(const struct model *m)
{
	return m->hz;
}

const struct model_profile *model_profile(const struct model *m)
{
	return &m->prof;
}

const struct model_sched_features *model_sched_features(const struct model *m)
{
	return &m->sched_features;
}

void model_print_settings(const struct model *m, FILE *out)
{
	char sfb[MODEL_SCHED_FEATURES_TEXT];
	const char *sft;

	fprintf(out, "kernel profile %s: %s\n", m->prof.name, m->prof.description);
	model_profile_print_toggled(&m->prof, &m->sched_features, out);
	fprintf(out, "machine: %u CPUs, %d NUMA node(s), HZ=%u (TICK_NSEC %llu), tunable factor %u\n",
		m->nr_cpus, m->nr_nodes, m->hz, (unsigned long long)m->tick_nsec, m->factor);
	if (sched_feat(m, EEVDF))
		fprintf(out, "effective: base_slice %llu ns\n",
			(unsigned long long)m->sysctl_sched_base_slice);
	else
		fprintf(out, "effective: latency %llu ns, min_granularity %llu ns, "
			"wakeup_granularity %llu ns\n",
			(unsigned long long)m->sysctl_sched_latency,
			(unsigned long long)m->sysctl_sched_min_granularity,
			(unsigned long long)m->sysctl_sched_wakeup_granularity);
	fprintf(out, "effective: tg->load_avg rate limit %llu ns\n",
		(unsigned long long)m->b.tg_ratelimit_ns);
	sft = model_sched_features_text(&m->sched_features, sfb, sizeof(sfb));
	if (sft)
		fprintf(out, "sched_features toggled: %s\n", sft);
	fprintf(out, "variants: %s (flags 0x%x)\n", m->variants.n ? m->variants.name : "base",
		m->b.vflags);
	fprintf(out, "balancing %s tasks\n", m->balance_moves_tasks ? "moves" : "never moves");
	if (m->idle_clock_skip)
		fprintf(out, "clock: a wakeup onto an idle CPU skips the next clock update "
			"(rq_clock_skip_update(), the idle task on_rq)\n");
	if (m->vcpu_pack)
		fprintf(out, "placement: the capture kernel's sched_vcpu_pack (vcpu_pack_room(), "
			"measured; not mainline)\n");
}

/* ---- groups ---------------------------------------------------------- */

struct model_group *model_root_group(struct model *m)
{
	return (struct model_group *)&m->root_task_group;
}

void model_group_set_autogroup(struct model_group *g, bool autogroup)
{
	((struct task_group *)g)->autogroup = autogroup;
}

const char *model_group_name(const struct model_group *g)
{
	return ((const struct task_group *)g)->name;
}

static int check_shares(unsigned long shares, struct sr_error *err)
{
	if (shares < MIN_SHARES || shares > MAX_SHARES) {
		sr_error_set(err, 22, "model: cpu.shares %lu outside %lu..%lu", shares, MIN_SHARES,
			     MAX_SHARES);
		return -1;
	}
	return 0;
}

struct model_group *model_group_new(struct model *m, struct model_group *parent,
				    unsigned long shares, const char *name, struct sr_error *err)
{
	struct task_group *tg;

	if (check_shares(shares, err))
		return NULL;
	tg = calloc(1, sizeof(*tg));
	if (!tg) {
		sr_error_set(err, 12, "model: out of memory creating group %s", name ? name : "?");
		return NULL;
	}
	tg->parent = parent ? (struct task_group *)parent : &m->root_task_group;
	tg->depth = tg->parent->depth + 1;
	init_cfs_bandwidth(&tg->cfs_bandwidth);
	tg->shares = scale_load(shares);
	tg->name = strdup(name ? name : "");
	if (!tg->name || tg_alloc_percpu(m, tg, err)) {
		if (!tg->name)
			sr_error_set(err, 12, "model: out of memory creating group %s",
				     name ? name : "?");
		tg_free(m, tg);
		free(tg);
		return NULL;
	}
	tg->next_alloc = m->groups;
	m->groups = tg;
	/* list_add_rcu(&tg->siblings, &parent->children): newest first */
	tg->sibling = tg->parent->children;
	tg->parent->children = tg;
	return (struct model_group *)tg;
}

/*
 * sched_group_set_shares(): new shares (nothing to do if unchanged); on
 * every CPU, level by level from the group entity up, refresh the entity's
 * load (UPDATE_TG) and its weight - update_cfs_group() at every level, as
 * __sched_group_set_shares() does, not only for the group itself.
 */
int model_group_set_shares(struct model *m, struct model_group *g, unsigned long shares,
			   uint64_t now, struct sr_error *err)
{
	struct task_group *tg = (struct task_group *)g;
	unsigned int cpu;

	if (check_shares(shares, err))
		return -1;
	if (tg == &m->root_task_group) {
		sr_error_set(err, 22, "model: the root group's shares cannot change");
		return -1;
	}
	if (tg->shares == scale_load(shares))
		return 0;
	tg->shares = scale_load(shares);
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct rq *rq = &m->rqs[cpu];
		struct sched_entity *se = tg->se[cpu];

		update_rq_clock(m, rq, now);
		for_each_sched_entity(se) {
			update_load_avg(m, cfs_rq_of(se), se, UPDATE_TG);
			update_cfs_group(m, se, MODEL_SITE_SET_SHARES, cfs_rq_of(se)->nr_running);
		}
	}
	return 0;
}

/* ---- tasks ----------------------------------------------------------- */

struct model_task *model_task_new(struct model *m, struct model_group *g, int nice,
				  enum model_policy policy, uint32_t id, struct sr_error *err)
{
	struct model_task *p;

	if (nice < -20 || nice > 19) {
		sr_error_set(err, 22, "model: task %u: nice %d outside -20..19", id, nice);
		return NULL;
	}
	if (!model_policy_is_fair(policy)) {
		sr_error_set(err, 22, "model: task %u: policy %d is not a fair policy", id, policy);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		sr_error_set(err, 12, "model: out of memory creating task %u", id);
		return NULL;
	}
	p->se.task = p;
	p->nice = nice;
	p->policy = policy;
	p->cpu = -1;
	p->allowed_cpu = -1;
	p->recent_used_cpu = -1;
	p->state = TS_NEW;
	p->tg = g ? (struct task_group *)g : &m->root_task_group;
	p->id = id;
	p->first_enqueue = true;
	reweight_task_fair(m, NULL, p, nice);   /* set_load_weight() */
	init_entity_runnable_average(m, &p->se);
	p->next_alloc = m->tasks;
	m->tasks = p;
	return p;
}

uint32_t model_task_id(const struct model_task *t)
{
	return t->id;
}

void model_task_set_priv(struct model_task *t, void *priv)
{
	t->priv = priv;
}

void *model_task_priv(const struct model_task *t)
{
	return t->priv;
}

void model_task_info(const struct model_task *t, struct model_task_info *out)
{
	memset(out, 0, sizeof(*out));
	switch (t->state) {
	case TS_NEW:
		out->state = MODEL_TASK_NEW;
		break;
	case TS_DEAD:
		out->state = MODEL_TASK_DEAD;
		break;
	case TS_SLEEPING:
		out->state = t->on_rq ? MODEL_TASK_DELAYED : MODEL_TASK_SLEEPING;
		break;
	default:
		out->state = t->on_rq ? MODEL_TASK_QUEUED : MODEL_TASK_SLEEPING;
		break;
	}
	out->cpu = t->cpu;
	out->running = t->cpu >= 0 && t->se.cfs_rq && t->se.cfs_rq->rq->curr == t;
	out->nice = t->nice;
	out->weight = t->se.load.weight;
	out->vruntime = t->se.vruntime;
	out->deadline = t->se.deadline;
	out->slice = t->se.slice;
	out->vlag = t->se.vlag;
	out->sum_exec_runtime = t->se.sum_exec_runtime;
	out->load_avg = t->se.avg.load_avg;
	out->runnable_avg = t->se.avg.runnable_avg;
	out->util_avg = t->se.avg.util_avg;
	out->load_sum = t->se.avg.load_sum;
	out->period_contrib = t->se.avg.period_contrib;
	out->last_update_time = t->se.avg.last_update_time;
	out->group = (const struct model_group *)t->tg;
	out->throttled = t->throttled;
}

static int check_cpu(const struct model *m, int cpu, const char *what, struct sr_error *err)
{
	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus) {
		sr_error_set(err, 22, "model: %s: CPU %d outside 0..%u", what, cpu, m->nr_cpus - 1);
		return -1;
	}
	return 0;
}

int model_task_start_runnable(struct model *m, struct model_task *p, int cpu, uint64_t now)
{
	struct rq *rq;

	if (p->state != TS_NEW || check_cpu(m, cpu, "start_runnable", NULL))
		return -1;
	p->cpu = cpu;
	set_task_rq(p, cpu);
	p->state = TS_RUNNING;
	rq = &m->rqs[cpu];
	update_rq_clock(m, rq, now);
	/* no history: attaches with the initial load, placed at zero lag
	 * (CFS: at min_vruntime) */
	p->first_enqueue = false;
	activate_task(m, rq, p, ENQUEUE_NOCLOCK);
	wakeup_preempt(m, rq, p, 0);
	return 0;
}

int model_task_start_sleeping(struct model *m, struct model_task *p, int cpu)
{
	if (p->state != TS_NEW || check_cpu(m, cpu, "start_sleeping", NULL))
		return -1;
	p->cpu = cpu;
	set_task_rq(p, cpu);
	p->state = TS_SLEEPING;
	p->first_enqueue = false;
	/* CFS: a sleeper with an absolute vruntime at its queue's floor */
	p->se.vruntime = p->se.cfs_rq->min_vruntime;
	/* its lag from before the trace: 0, or inferred (model_expect_wakeup()) */
	p->se.no_history = 1;
	return 0;
}

int model_task_set_initial_credit(struct model_task *p, bool on)
{
	if (p->state != TS_SLEEPING || !p->se.no_history || p->on_rq)
		return -1;
	p->initial_credit = on;
	return 0;
}

int model_task_set_pelt(struct model_task *p, const struct model_pelt_init *v)
{
	if ((p->state != TS_SLEEPING && p->state != TS_NEW) || p->on_rq ||
	    p->se.avg.last_update_time || !v || v->period_contrib >= 1024 ||
	    v->util_sum > UINT32_MAX || ((v->running || v->queued) && p->state != TS_NEW) ||
	    (v->running && v->queued))
		return -1;
	p->se.avg.load_sum = v->load_sum;
	p->se.avg.runnable_sum = v->runnable_sum;
	p->se.avg.util_sum = (u32)v->util_sum;
	p->se.avg.period_contrib = v->period_contrib;
	p->se.avg.load_avg = v->load_avg;
	p->se.avg.runnable_avg = v->runnable_avg;
	p->se.avg.util_avg = v->util_avg;
	p->pelt_init = true;
	p->pelt_init_running = v->running;
	p->pelt_init_queued = v->queued;
	p->pelt_init_lut = v->last_update_time;
	return 0;
}

/*
 * The traced kernel's blocked task is still attached to the cfs_rq of the
 * CPU it last ran on: dequeue_entity() updated its se.avg and left it there,
 * the queue's sums decay with it (update_blocked_averages()), and only a
 * wakeup elsewhere removes it (migrate_task_rq_fair() ->
 * remove_entity_load_avg()).  So its se.avg, aged blocked to @now, is
 * attached now as attach_entity_cfs_rq() attaches a task that enters the
 * class or group (attach_entity_load_avg(): the sums rebuilt on the queue's
 * period; update_tg_load_avg(); propagate_entity_cfs_rq() up to the root,
 * through the group entities' propagated load and util and tg->load_avg).
 * Its first wakeup then ages it and does not attach it again (its
 * last_update_time is not 0).
 *
 * The attach belongs to the kernel's history before the trace: the model's
 * counters are left as they were, and update_tg_load_avg()'s 1 ms rate
 * limit neither applies to it nor starts from it (each queue's last
 * tg->load_avg write stays at 0, long before @now).
 */
int model_task_attach_blocked(struct model *m, struct model_task *p, uint64_t now)
{
	u64 *saved, ratelimit = m->b.tg_ratelimit_ns;
	size_t nsaved = NR_MODEL_COUNTERS + (size_t)m->nr_nodes;
	struct sched_entity *se = &p->se;

	if (p->state != TS_SLEEPING || p->on_rq || !p->pelt_init || se->avg.last_update_time ||
	    p->cpu < 0 || (unsigned int)p->cpu >= m->nr_cpus)
		return -1;
	if (!(saved = malloc(nsaved * sizeof(*saved))))
		return -1;
	memcpy(saved, m->counters, sizeof(m->counters));
	memcpy(saved + NR_MODEL_COUNTERS, m->tg_writes_node, (size_t)m->nr_nodes * sizeof(*saved));
	update_rq_clock(m, &m->rqs[p->cpu], now);
	pelt_init_age(m, se, cfs_rq_clock_pelt(cfs_rq_of(se)));
	m->b.tg_ratelimit_ns = 0;
	attach_entity_cfs_rq(m, se);
	m->b.tg_ratelimit_ns = ratelimit;
	for (struct sched_entity *e = se; e; e = e->parent)
		cfs_rq_of(e)->last_update_tg_load_avg = 0;
	memcpy(m->counters, saved, sizeof(m->counters));
	memcpy(m->tg_writes_node, saved + NR_MODEL_COUNTERS, (size_t)m->nr_nodes * sizeof(*saved));
	free(saved);
	return 0;
}

void model_expect_wakeup(struct model *m, enum model_wakeup_expect e)
{
	m->expect = e;
	m->lag_result = MODEL_INITIAL_LAG_NONE;
	m->lag_vlag = 0;
	m->lag_weight = 0;
}

enum model_initial_lag model_initial_lag_last(const struct model *m, int64_t *vlag,
					      unsigned long *weight)
{
	if (vlag)
		*vlag = m->lag_vlag;
	if (weight)
		*weight = m->lag_weight;
	return m->lag_result;
}

/*
 * wake_up_new_task(): sched_fork() put the child on the parent's CPU
 * (task_fork_fair() places it there under CFS); it starts on @cpu without a
 * migration event; its utilisation is extrapolated and it is enqueued with
 * ENQUEUE_INITIAL, then may preempt.
 */
int model_wake_up_new_task(struct model *m, struct model_task *p, int parent_cpu, int cpu,
			   uint64_t now)
{
	struct rq *rq;

	if (p->state != TS_NEW || check_cpu(m, cpu, "wake_up_new_task", NULL))
		return -1;
	if (parent_cpu < 0 || (unsigned int)parent_cpu >= m->nr_cpus)
		parent_cpu = cpu;

	/* sched_fork() / sched_cgroup_fork() */
	p->cpu = parent_cpu;
	set_task_rq(p, parent_cpu);
	if (!sched_feat(m, EEVDF)) {
		update_rq_clock(m, &m->rqs[parent_cpu], now);
		task_fork_fair(m, p, parent_cpu);
	}

	/* wake_up_new_task() */
	p->state = TS_RUNNING;
	p->recent_used_cpu = parent_cpu;
	p->cpu = cpu;                 /* __set_task_cpu(): no sched_migrate_task */
	set_task_rq(p, cpu);
	rq = &m->rqs[cpu];
	if (vflag(m, V48_ATTACH)) {
		/* v4.8: post_init before the enqueue updates the rq clock */
		model_advance_time(m, now);
		post_init_entity_util_avg(m, p);
		update_rq_clock(m, rq, now);
	} else {
		update_rq_clock(m, rq, now);
		post_init_entity_util_avg(m, p);
	}
	activate_task(m, rq, p, ENQUEUE_NOCLOCK | (sched_feat(m, EEVDF) ? ENQUEUE_INITIAL : 0));
	COUNT(m, sched_wakeup_new);
	wakeup_preempt(m, rq, p, MODEL_WF_FORK);
	return 0;
}

/* ttwu_update_avg_idle() lives in balance.c with the rest of avg_idle. */

int model_finish_delayed_pick(struct model *m, struct model_task *p, uint64_t now)
{
	int ret = model_finish_delayed_dequeue(m, p, now);

	if (ret == 1 && sched_feat(m, DELAY_ZERO)) {
		p->se.vlag = 0;
		vlag_written(m, &p->se);
	}
	return ret;
}

int model_finish_delayed_dequeue(struct model *m, struct model_task *p, uint64_t now)
{
	struct rq *rq;

	if (p->state == TS_NEW || p->state == TS_DEAD || p->cpu < 0)
		return -1;
	rq = &m->rqs[p->cpu];
	if (rq->curr == p)
		return -1;
	if (!p->on_rq || !p->se.sched_delayed)
		return 0;
	update_rq_clock(m, rq, now);
	dequeue_entities(m, rq, &p->se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
	return 1;
}

static bool class_carry(struct model *m, struct model_task *p, bool restore, uint64_t now);

int model_try_to_wake_up(struct model *m, struct model_task *p, int cpu, int waker_cpu,
			 int wake_flags, uint64_t now)
{
	struct rq *rq;
	int en_flags = ENQUEUE_WAKEUP | ENQUEUE_NOCLOCK;
	enum model_wakeup_expect expect = m->expect;

	(void)waker_cpu;
	m->expect = MODEL_EXPECT_NONE;   /* this wakeup's only */
	if (p->state == TS_NEW || p->state == TS_DEAD)
		return -1;

	if (p->on_rq) {
		/* ttwu_runnable(): still queued (running, preempted or delayed) */
		rq = &m->rqs[p->cpu];
		update_rq_clock(m, rq, now);
		if (p->se.sched_delayed)
			enqueue_task_fair(m, rq, p, ENQUEUE_NOCLOCK | ENQUEUE_DELAYED);
		if (rq->curr != p)
			wakeup_preempt(m, rq, p, wake_flags);
		p->state = TS_RUNNING;
		COUNT(m, sched_wakeup);
		return 0;
	}

	if (check_cpu(m, cpu, "try_to_wake_up", NULL))
		return -1;
	if (p->class_prev)
		class_carry(m, p, false, now);
	if (p->cpu < 0) {
		p->cpu = cpu;
		set_task_rq(p, cpu);
	} else if (p->cpu != cpu) {
		/* the old rq is not locked: its clock stays; sched_clock is now */
		model_advance_time(m, now);
		set_task_cpu(m, p, cpu);
		en_flags |= ENQUEUE_MIGRATED;
	}

	if (p->wake_migrated) {
		en_flags |= ENQUEUE_MIGRATED;
		p->wake_migrated = false;
	}

	/* ttwu_do_activate() */
	rq = &m->rqs[cpu];
	update_rq_clock(m, rq, now);
	p->state = TS_RUNNING;
	/* the traced outcome for an entity without history it places (place_initial_lag()) */
	m->expect = expect;
	m->expect_task = expect != MODEL_EXPECT_NONE ? p : NULL;
	activate_task(m, rq, p, en_flags);
	m->expect = MODEL_EXPECT_NONE;
	m->expect_task = NULL;
	wakeup_preempt(m, rq, p, wake_flags);
	COUNT(m, sched_wakeup);
	ttwu_update_avg_idle(m, rq);
	return 1;
}

/*
 * __schedule()'s rq_lock() before its update_rq_clock(): with
 * model_config.block_clock_after, a block's clock read that the caller put at
 * or before the rq's last update (its median lead before the switch, an
 * enqueue's charge after it) comes 1 ns after that update, as the kernel's
 * does under the rq lock the enqueue held first.
 */
static u64 rq_lock_clock(const struct model *m, const struct rq *rq, enum model_prev prev_mode,
			 u64 now)
{
	if (m->block_clock_after && rq->curr && prev_mode != MODEL_PREV_RUNNABLE &&
	    (s64)(now - rq->clock) <= 0)
		return rq->clock + 1;
	return now;
}

/*
 * __schedule(): the current fair task blocks (try_to_block_task(): DELAY_DEQUEUE
 * may keep it queued), then pick_next_task(); a dying task is finished off
 * by task_dead_fair() in finish_task_switch().
 */
struct model_task *model_schedule(struct model *m, int cpu, enum model_prev prev_mode,
				  uint64_t now)
{
	struct rq *rq;
	struct model_task *prev, *next;

	if (check_cpu(m, cpu, "schedule", NULL))
		return NULL;
	rq = &m->rqs[cpu];
	/* RQCF_REQ_SKIP -> RQCF_ACT_SKIP: keep the clock (see wakeup_preempt()) */
	if (!rq->clock_skip_req)
		update_rq_clock(m, rq, rq_lock_clock(m, rq, prev_mode, now));
	rq->clock_skip_req = false;
	prev = rq->curr;

	if (rq->other_class) {
		rq->need_resched = false;
		return NULL;
	}

	/*
	 * 6.18's throttle: a task picked from a throttled hierarchy is
	 * dequeued on its return to user space (throttle_cfs_rq_work()), which
	 * the model puts at this, its next __schedule() (bandwidth.c).  A task
	 * that blocks first takes its work along: the pick that runs it next
	 * sets it again if its hierarchy is still throttled.
	 */
	if (prev && prev->throttle_work) {
		if (prev_mode == MODEL_PREV_RUNNABLE)
			throttle_cfs_rq_work(m, prev);
		prev->throttle_work = false;
	}

	if (prev && prev_mode != MODEL_PREV_RUNNABLE) {
		int flags = DEQUEUE_SLEEP | DEQUEUE_NOCLOCK;

		if (prev_mode == MODEL_PREV_SPECIAL || prev_mode == MODEL_PREV_DEAD)
			flags |= DEQUEUE_SPECIAL;
		prev->state = prev_mode == MODEL_PREV_DEAD ? TS_DEAD : TS_SLEEPING;
		if (dequeue_task_fair(m, rq, prev, flags))   /* block_task() */
			prev->on_rq = 0;
	}

	next = pick_next_task_fair(m, rq, prev, prev != NULL);
	if (!next && prev)
		put_prev_task_fair(m, rq, prev);   /* put_prev_set_next_task(prev, idle) */
	/* a throttled pick runs only until its throttle work (above) */
	rq->need_resched = next && next->throttle_work;

	if (next != prev || rq->switch_pending)
		COUNT(m, sched_switch);
	rq->switch_pending = false;
	rq->curr = next;

	if (!next && prev) {
		/*
		 * The idle task runs: update_idle_rq_clock_pelt(); the idle
		 * loop's tick_nohz_idle_stop_tick() stops the tick and calls
		 * nohz_balance_enter_idle() - unless tick_nohz_next_event()
		 * found the CPU's next timer within a tick (model_idle_tick()).
		 */
		rq->clock_idle = rq->clock;
		rq->clock_pelt_idle = rq->clock_pelt;
		if (!rq->idle_tick_kept)
			nohz_balance_enter_idle(m, rq);
	}
	if (prev && prev_mode == MODEL_PREV_DEAD)
		task_dead_fair(m, prev);
	return next;
}

/*
 * What model_yield_to() and model_preempt_for() need: a fair curr on @cpu
 * other than @p, and @p queued there, runnable, not delayed (yield_to()'s
 * task_is_running(), same rq), and before 6.18 not below a throttled queue
 * (yield_to_task_fair()'s throttled_hierarchy() test, made here, before the
 * rq clock is updated: the kernel's yield_task_fair() updates it only when
 * the yield happens).  model_yield_to() needs an EEVDF profile as well.
 */
static bool hand_over_possible(const struct model *m, const struct rq *rq, int cpu,
			       const struct model_task *p)
{
	return !rq->other_class && rq->curr && rq->curr != p &&
	       p->cpu == cpu && p->on_rq == TASK_ON_RQ_QUEUED && !p->se.sched_delayed &&
	       p->state == TS_RUNNING && !entity_throttled_pre618(m, &p->se);
}

/*
 * yield_to(p, preempt) (kernel/sched/syscalls.c, 6.12) for a @p queued on
 * the yielder's own CPU: the fair class's yield_to_task_fair() makes @p the
 * next buddy and yields curr; schedule() is the caller's model_schedule()
 * with MODEL_PREV_RUNNABLE.  Not done (0, nothing changed): @p running,
 * asleep or delayed (!task_is_running()), on another CPU, a non-fair task
 * holding the CPU, curr the only task (-ESRCH), @p below a throttled queue
 * before 6.18 (yield_to_task_fair() false), or a CFS profile (6.1's
 * yield sets the skip buddy, which the model's CFS pick does not have).
 */
int model_yield_to(struct model *m, int cpu, struct model_task *p, uint64_t now)
{
	struct rq *rq;

	if (check_cpu(m, cpu, "yield_to", NULL))
		return -1;
	rq = &m->rqs[cpu];
	if (!sched_feat(m, EEVDF) || !hand_over_possible(m, rq, cpu, p) || rq->nr_running == 1)
		return 0;
	update_rq_clock(m, rq, now);
	return yield_to_task_fair(m, rq, p) ? 1 : 0;
}

/*
 * The trace's decision imposed on the model, not one of its own: @p queued
 * on @cpu is to run next, as if the wakeup had preempted curr.  With
 * @charge (model_preempt_for()) curr is charged up to @now (update_curr() of
 * its queue: a sched_stat_runtime the kernel, whose preemption at the wakeup
 * skipped the clock, did not emit; model_preempt_for_skip() has the
 * kernel's accounting).  @p is made the next buddy at every
 * level (set_next_buddy(), which the profiles' wakeup path never does:
 * NEXT_BUDDY is off through 6.18; marked handoff_buddy, so that 6.18.33's
 * wakeup check, which reads buddies, passes it over) and curr is rescheduled (resched_curr(),
 * rq_clock_skip_update() as in wakeup_preempt()).  pick_next_entity() then
 * takes @p if eligible (PICK_BUDDY), else pick_eevdf() decides - curr
 * again, or a third task.  On a CFS profile the buddies are those the
 * kernel's check_preempt_wakeup() leaves when it preempts (6.1; @p's entity
 * where its hierarchy meets curr's the next buddy, curr's there the last one
 * with sched_nr_latency entities queued: set_preempt_buddies_cfs()), and
 * pick_next_entity_cfs() takes the buddy unless it is more than the wakeup
 * granularity behind the leftmost entity; below that level each group picks
 * its own leftmost.  curr's vruntime and deadline are those update_curr()
 * leaves.  Conditions and return values as model_yield_to():
 * before 6.18 a @p below a throttled queue is refused (0), as the kernel's
 * wakeup check returns early for it - the hierarchy cannot run, so a buddy
 * set there (the levels up to the dequeued group entity) would only be left
 * behind for a later pick.
 */
static int preempt_for(struct model *m, int cpu, struct model_task *p, uint64_t now, bool charge)
{
	struct sched_entity *se = &p->se;
	struct rq *rq;

	if (check_cpu(m, cpu, "preempt_for", NULL))
		return -1;
	rq = &m->rqs[cpu];
	if (!hand_over_possible(m, rq, cpu, p))
		return 0;
	if (charge) {
		update_rq_clock(m, rq, now);
		update_curr(m, cfs_rq_of(&rq->curr->se));
	}
	if (!sched_feat(m, EEVDF)) {
		/* CFS: the buddies the kernel's preempting wakeup leaves */
		set_preempt_buddies_cfs(m, rq, p);
	} else {
		set_next_buddy(&p->se);
		for_each_sched_entity(se) {
			if (cfs_rq_of(se)->next == se)    /* the levels set_next_buddy() set */
				se->handoff_buddy = 1;
		}
	}
	resched_curr(m, rq);
	if (sched_feat(m, CLOCK_SKIP_UPDATE))
		rq->clock_skip_req = true;
	return 1;
}

int model_preempt_for(struct model *m, int cpu, struct model_task *p, uint64_t now)
{
	return preempt_for(m, cpu, p, now, true);
}

/*
 * model_preempt_for() as the kernel accounted the preemption it stands for,
 * a wakeup preemption at the hand-off's wakeup: that wakeup's enqueue ran
 * update_curr() (curr and @p in one queue: curr's sched_stat_runtime),
 * wakeup_preempt() requested the clock skip (rq_clock_skip_update()) and
 * __schedule() ran on that clock, so put_prev_entity()'s update_curr() saw
 * no delta (no second sched_stat_runtime) and the time up to the switch
 * went to @p (its exec_start is that clock).  So neither the rq clock nor
 * curr is updated here: curr keeps what its last update_curr() gave it, and
 * the coming __schedule() runs on the rq's last clock (the hand-off
 * wakeup's, unless a later event on this rq moved it).  Buddy, resched and
 * return values as model_preempt_for().
 */
int model_preempt_for_skip(struct model *m, int cpu, struct model_task *p)
{
	return preempt_for(m, cpu, p, 0, false);
}

/*
 * Whether the current fair task on @cpu keeps the CPU against @p (queued on
 * @cpu) whatever @p's deadline, as 6.17+'s pick with slice protection
 * decides (__pick_eevdf(protect): curr eligible and protect_slice()): at
 * the level where their hierarchies meet (find_matching_se(), as
 * check_preempt_wakeup_fair()), curr's entity is eligible (entity_eligible())
 * and protected.  On the state the last update_curr() left: nothing is
 * charged.  1 kept, 0 not (a CFS profile, no protection in its pick, no
 * fair curr, @p not queued there), -1 on a bad CPU.
 */
int model_curr_protected(struct model *m, int cpu, struct model_task *p)
{
	struct sched_entity *se, *pse;
	struct rq *rq;

	if (check_cpu(m, cpu, "curr_protected", NULL))
		return -1;
	rq = &m->rqs[cpu];
	if (!sched_feat(m, EEVDF) || !pick_protects(m) || !hand_over_possible(m, rq, cpu, p))
		return 0;
	se = &rq->curr->se;
	pse = &p->se;
	find_matching_se(&se, &pse);
	if (!se || !pse || !se->on_rq)
		return 0;
	return entity_eligible(cfs_rq_of(se), se) && protect_slice(m, se) ? 1 : 0;
}

int model_charge_curr(struct model *m, int cpu, uint64_t at)
{
	struct rq *rq;

	if (check_cpu(m, cpu, "charge_curr", NULL))
		return -1;
	rq = &m->rqs[cpu];
	if (!rq->curr || rq->other_class || !rq->curr->on_rq)
		return 0;
	update_rq_clock(m, rq, at);
	update_curr(m, cfs_rq_of(&rq->curr->se));
	return 1;
}

bool model_need_resched(const struct model *m, int cpu)
{
	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return false;
	return m->rqs[cpu].need_resched;
}

bool model_clock_skip_pending(const struct model *m, int cpu)
{
	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return false;
	return m->rqs[cpu].clock_skip_req;
}

bool model_clock_skip_cancel(struct model *m, int cpu)
{
	bool was;

	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return false;
	was = m->rqs[cpu].clock_skip_req;
	m->rqs[cpu].clock_skip_req = false;
	return was;
}

struct model_task *model_curr(const struct model *m, int cpu)
{
	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return NULL;
	return m->rqs[cpu].curr;
}

unsigned int model_nr_queued(const struct model *m, int cpu)
{
	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return 0;
	return m->rqs[cpu].cfs.h_nr_queued;
}

void model_idle_tick(struct model *m, int cpu, bool kept)
{
	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return;
	m->rqs[cpu].idle_tick_kept = kept;
}

void model_idle_tick_stop(struct model *m, int cpu)
{
	struct rq *rq;

	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return;
	rq = &m->rqs[cpu];
	/* tick_nohz_stop_tick() -> nohz_balance_enter_idle() on an idle CPU */
	if (!rq->curr && !rq->other_class && !rq->nohz_idle)
		nohz_balance_enter_idle(m, rq);
}

/*
 * sched_tick(): the fair curr's task_tick; then the balance trigger
 * (periodic balance when due, with its update_blocked_averages) and the nohz
 * kick that refreshes idle CPUs' blocked load.
 */
void model_tick(struct model *m, int cpu, uint64_t now)
{
	struct rq *rq;

	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return;
	rq = &m->rqs[cpu];
	update_rq_clock(m, rq, now);
	COUNT(m, tick);
	if (rq->curr)
		task_tick_fair(m, rq, rq->curr);
	else if (rq->other_class && sched_feat(m, STAT_RUNTIME_OTHER_CLASS))
		COUNT(m, sched_stat_runtime_rt_dl);   /* update_curr_common() of RT/DL */
	others_tick(m, rq);   /* task_tick_rt() / task_tick_dl(): avg_rt / avg_dl */
	rq->idle_balance = !rq->curr && !rq->other_class;
	sched_balance_trigger(m, rq);
}

void model_other_class(struct model *m, int cpu, bool running, enum model_other_cls cls,
		       uint64_t now)
{
	struct rq *rq;

	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus || (running && cls > MODEL_OTHER_STOP))
		return;
	rq = &m->rqs[cpu];
	update_rq_clock(m, rq, now);
	if (running) {
		if (rq->other_class)
			return;
		if (rq->curr) {
			put_prev_task_fair(m, rq, rq->curr);
			rq->curr = NULL;
		}
		COUNT(m, sched_switch);
		/* set_next_task_rt() / _dl(): from another class, not running */
		others_set_next(m, rq, -1, (int)cls);
		rq->other_class = true;
		rq->need_resched = false;
		add_nr_running(m, rq, 1);
		nohz_balance_exit_idle(m, rq);
	} else {
		if (!rq->other_class)
			return;
		/* put_prev_task_rt() / _dl(): the class's signal, running */
		others_switch(m, rq, rq->other_cls, -1);
		rq->other_class = false;
		sub_nr_running(m, rq, 1);
		if (sched_feat(m, STAT_RUNTIME_OTHER_CLASS))
			COUNT(m, sched_stat_runtime_rt_dl);   /* put_prev_task_rt() */
		rq->switch_pending = true;
		rq->need_resched = true;
	}
}

void model_other_class_handover(struct model *m, int cpu, enum model_other_cls cls,
				uint64_t now)
{
	struct rq *rq;

	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus || cls > MODEL_OTHER_STOP)
		return;
	rq = &m->rqs[cpu];
	if (!rq->other_class)
		return;
	update_rq_clock(m, rq, now);
	/* the leaving task's put_prev_task_rt() (its dequeue's, if it blocks) */
	if (sched_feat(m, STAT_RUNTIME_OTHER_CLASS))
		COUNT(m, sched_stat_runtime_rt_dl);
	/* ... its signal (running), then the coming one's set_next_task() */
	others_set_next(m, rq, rq->other_cls, (int)cls);
}

/*
 * move_queued_task() / detach_task() + attach_task(): a queued task moves
 * with DO_DETACH / attach; a sleeping one only changes CPU (its load is
 * removed from the old queue and attaches at its next wakeup).
 */
int model_migrate_task(struct model *m, struct model_task *p, int dst_cpu, uint64_t now)
{
	struct rq *src, *dst;

	if (check_cpu(m, dst_cpu, "migrate", NULL) || p->state == TS_NEW || p->state == TS_DEAD)
		return -1;
	if (p->cpu == dst_cpu)
		return 0;
	src = &m->rqs[p->cpu];
	if (src->curr == p)
		return -1;
	dst = &m->rqs[dst_cpu];
	update_rq_clock(m, src, now);
	if (!p->on_rq) {
		set_task_cpu(m, p, dst_cpu);
		p->wake_migrated = true;
		return 0;
	}
	deactivate_task(m, src, p, DEQUEUE_NOCLOCK);
	set_task_cpu(m, p, dst_cpu);
	update_rq_clock(m, dst, now);
	activate_task(m, dst, p, ENQUEUE_NOCLOCK);
	wakeup_preempt(m, dst, p, 0);
	return 0;
}

/*
 * detach_tasks() + attach_tasks() of sched_balance_rq(), for tasks the
 * caller chose (a traced pass): the source's clock once, each detach_task()
 * in order, then the destination's clock once and attach_task() from the
 * head of the list detach_task() built with list_add(): last detached first.
 */
int model_migrate_tasks(struct model *m, struct model_task *const *ts, unsigned int n,
			int dst_cpu, uint64_t now)
{
	struct rq *src, *dst;
	unsigned int i;

	if (n == 0 || n > SCHED_NR_MIGRATE_BREAK || check_cpu(m, dst_cpu, "migrate", NULL))
		return -1;
	for (i = 0; i < n; i++) {
		const struct model_task *p = ts[i];

		if (p->state == TS_NEW || p->state == TS_DEAD || p->on_rq != TASK_ON_RQ_QUEUED ||
		    p->cpu < 0 || p->cpu == dst_cpu || p->cpu != ts[0]->cpu ||
		    m->rqs[p->cpu].curr == p)
			return -1;
		for (unsigned int j = 0; j < i; j++)
			if (ts[j] == p)
				return -1;
	}
	src = &m->rqs[ts[0]->cpu];
	dst = &m->rqs[dst_cpu];
	update_rq_clock(m, src, now);
	for (i = 0; i < n; i++) {
		/* detach_task() */
		deactivate_task(m, src, ts[i], DEQUEUE_NOCLOCK);
		set_task_cpu(m, ts[i], dst_cpu);
	}
	update_rq_clock(m, dst, now);
	while (i--) {
		/* attach_task() */
		activate_task(m, dst, ts[i], ENQUEUE_NOCLOCK);
		wakeup_preempt(m, dst, ts[i], 0);
	}
	return 0;
}

/* sched_move_task(). */
/*
 * sched_move_task(): dequeue (update_curr) and put_prev, change the group,
 * enqueue and set_next again, resched.  The kernel does all of it even when
 * the group does not change (sched_autogroup_exit_task() of a cgroup's task).
 */
static void sched_move_task(struct model *m, struct model_task *p, struct task_group *tg,
			    uint64_t now)
{
	struct rq *rq = &m->rqs[p->cpu];
	bool queued, running;

	update_rq_clock(m, rq, now);
	queued = p->on_rq == TASK_ON_RQ_QUEUED;
	running = rq->curr == p;
	if (queued)
		dequeue_task_fair(m, rq, p, DEQUEUE_SAVE | DEQUEUE_MOVE | DEQUEUE_NOCLOCK);
	if (running)
		put_prev_task_fair(m, rq, p);
	p->tg = tg;
	task_change_group_fair(m, p);
	if (queued)
		enqueue_task_fair(m, rq, p, ENQUEUE_RESTORE | ENQUEUE_MOVE | ENQUEUE_NOCLOCK);
	if (running) {
		set_next_task_fair(m, rq, p, false);   /* sched_change: not a pick */
		resched_curr(m, rq);
	}
}

int model_task_move_group(struct model *m, struct model_task *p, struct model_group *g,
			  uint64_t now)
{
	struct task_group *tg = g ? (struct task_group *)g : &m->root_task_group;

	if (p->state == TS_DEAD)
		return -1;
	if (p->tg == tg)
		return 0;
	if (p->state == TS_NEW || p->cpu < 0) {
		p->tg = tg;
		return 0;
	}
	sched_move_task(m, p, tg, now);
	return 0;
}

void model_set_traced_newidle(struct model *m, struct model_task *p, int cpu)
{
	m->traced_newidle = p;
	m->traced_newidle_cpu = cpu;
	m->traced_newidle_done = false;
}

bool model_traced_newidle_done(const struct model *m)
{
	return m->traced_newidle_done;
}

const struct model_newidle_info *model_last_newidle(const struct model *m)
{
	return &m->last_newidle;
}

void model_overload_info(const struct model *m, struct model_overload_info *out)
{
	out->overloaded = m->rd_overloaded;
	out->sets = m->rd_overload_sets;
	out->clears = m->rd_overload_clears;
	out->last_set = m->rd_overload_set;
	out->last_clear = m->rd_overload_clear;
}

void model_other_class_put_prev(struct model *m, int cpu)
{
	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return;
	if (sched_feat(m, STAT_RUNTIME_OTHER_CLASS))
		COUNT(m, sched_stat_runtime_rt_dl);
}

void model_set_newidle_moves(struct model *m, bool on)
{
	m->newidle_moves_tasks = on;
}

void model_set_idle_moves(struct model *m, uint64_t cpus)
{
	m->idle_moves_cpus = cpus;
}

static void drop_cpus_mask(struct model_task *p)
{
	free(p->cpus_mask);
	p->cpus_mask = NULL;
	p->nr_cpus_allowed = 0;
}

void model_task_set_pinned(struct model_task *p, bool pinned)
{
	drop_cpus_mask(p);
	p->pinned = pinned;
	p->allowed_cpu = -1;
}

void model_task_set_allowed_cpu(struct model *m, struct model_task *p, int cpu)
{
	if (cpu >= (int)m->nr_cpus)
		cpu = -1;
	drop_cpus_mask(p);
	p->pinned = cpu >= 0;
	p->allowed_cpu = cpu;
}

/*
 * set_cpus_allowed_common() -> cpumask_copy(&p->cpus_mask, new_mask) and
 * p->nr_cpus_allowed = cpumask_weight(new_mask) (kernel/sched/core.c),
 * restricted to the model's CPUs as the kernel restricts a mask to
 * cpu_active_mask (__set_cpus_allowed_ptr_locked()).  One CPU and all CPUs
 * keep the model's own forms (model_task_set_allowed_cpu()), so a caller
 * giving those behaves exactly as before the mask; none is -EINVAL.
 */
int model_task_set_allowed_mask(struct model *m, struct model_task *p, const uint64_t *mask,
				unsigned int nbits, struct sr_error *err)
{
	unsigned int words = (m->nr_cpus + 63) / 64, n = 0, c;
	int first = -1;
	uint64_t *copy;

	for (c = 0; c < m->nr_cpus && c < nbits; c++)
		if (mask[c / 64] >> (c % 64) & 1) {
			if (first < 0)
				first = (int)c;
			n++;
		}
	if (!n) {
		sr_error_set(err, 22, "model: task %u's affinity mask allows none of the "
			     "model's %u CPUs", p->id, m->nr_cpus);
		return -1;
	}
	if (n == 1 || n == m->nr_cpus) {
		model_task_set_allowed_cpu(m, p, n == 1 ? first : -1);
		return 0;
	}
	copy = calloc(words, sizeof(*copy));
	if (!copy) {
		sr_error_set(err, 12, "model: out of memory for task %u's affinity mask", p->id);
		return -1;
	}
	for (c = 0; c < m->nr_cpus && c < nbits; c++)
		if (mask[c / 64] >> (c % 64) & 1)
			copy[c / 64] |= 1ULL << (c % 64);
	drop_cpus_mask(p);
	p->pinned = false;
	p->allowed_cpu = -1;
	p->cpus_mask = copy;
	p->nr_cpus_allowed = (int)n;
	return 0;
}

bool model_task_cpu_allowed(const struct model *m, const struct model_task *p, int cpu)
{
	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return false;
	if (p->pinned)
		return cpu == (p->allowed_cpu >= 0 ? p->allowed_cpu : p->cpu);
	return task_mask_allows(p, cpu);
}

/*
 * cpumask_any_and_distribute(cpu_active_mask, &p->cpus_mask) (lib/cpumask.c)
 * run on @cpu: the first allowed CPU after @cpu's distribute_cpu_mask_prev,
 * wrapping round, which becomes the new prev (the per-CPU variable starts at
 * 0, so a CPU's first pick skips CPU 0).  The model's CPUs are all active.
 */
static int any_and_distribute(struct model *m, const struct model_task *p, int cpu)
{
	struct rq *rq = &m->rqs[cpu];
	unsigned int i, c;

	for (i = 1; i <= m->nr_cpus; i++) {
		c = ((unsigned int)rq->distribute_prev + i) % m->nr_cpus;
		if (model_task_cpu_allowed(m, p, (int)c)) {
			rq->distribute_prev = (int)c;
			return (int)c;
		}
	}
	return -1;
}

/*
 * sched_setaffinity() -> __set_cpus_allowed_ptr_locked() (kernel/sched/
 * core.c): an unchanged mask returns early; else dest_cpu =
 * cpumask_any_and_distribute() of the new mask on the caller's CPU, the mask
 * is set (set_cpus_allowed_common(), here model_task_set_allowed_cpu() /
 * _mask()), and affine_move_task() moves the task if its CPU is not allowed
 * any more.
 */
int model_task_set_affinity(struct model *m, struct model_task *p, int caller_cpu, int cpu,
			    const uint64_t *mask, unsigned int nbits, bool move, uint64_t now,
			    int *stop_dst, struct sr_error *err)
{
	uint64_t before[MODEL_MAX_CPUS / 64] = { 0 };
	unsigned int c;
	bool same = true;
	int dst;
	struct rq *rq;

	*stop_dst = -1;
	/* the mask before and after, each read by model_task_cpu_allowed() */
	for (c = 0; c < m->nr_cpus; c++)
		if (model_task_cpu_allowed(m, p, (int)c))
			before[c / 64] |= 1ULL << (c % 64);
	if (cpu < 0 && mask) {
		if (model_task_set_allowed_mask(m, p, mask, nbits, err) < 0)
			return -1;
	} else {
		model_task_set_allowed_cpu(m, p, cpu);
	}
	for (c = 0; c < m->nr_cpus && same; c++)
		same = (bool)(before[c / 64] >> (c % 64) & 1) == model_task_cpu_allowed(m, p, (int)c);
	if (same)
		return 0;
	if (caller_cpu < 0 || (unsigned int)caller_cpu >= m->nr_cpus)
		caller_cpu = p->cpu >= 0 ? p->cpu : 0;
	dst = any_and_distribute(m, p, caller_cpu);
	/* affine_move_task(): nothing to do while task_cpu(p) is allowed */
	if (!move || dst < 0 || p->cpu < 0 || p->state == TS_NEW || p->state == TS_DEAD ||
	    model_task_cpu_allowed(m, p, p->cpu))
		return 0;
	rq = &m->rqs[p->cpu];
	if (rq->curr == p) {
		/* running: its CPU's stopper moves it (migration_cpu_stop()) */
		if (p->cpu == caller_cpu)
			*stop_dst = dst;       /* the caller's stop_one_cpu() */
		else
			stop_one_cpu_affine(m, p, dst, caller_cpu, now);
		return 0;
	}
	/* queued: move_queued_task(); asleep: its wakeup's select_fallback_rq() */
	if (p->on_rq == TASK_ON_RQ_QUEUED && !p->throttled) {
		int from = p->cpu;

		model_advance_time(m, now);
		if (model_migrate_task(m, p, dst, now) == 0 && m->migrate_hook)
			m->migrate_hook(m->hook_ctx, p->id, from, dst, now);
	}
	return 0;
}

/*
 * do_exit() -> sched_autogroup_exit_task() -> sched_move_task(p, true):
 * sched_change_group() takes the task's cgroup's group, then
 * autogroup_task_group(), which keeps the session's autogroup only while
 * task_wants_autogroup() - false once PF_EXITING is set (kernel/sched/
 * autogroup.c).  So a task of an autogroup leaves it for the root task group:
 * task_change_group_fair() detaches its load from the autogroup's queue
 * (detach_entity_cfs_rq(): the queue's sums, the propagation, a rate-limited
 * update_tg_load_avg()) and attaches it to the root's.
 */
int model_task_exit_move(struct model *m, struct model_task *p, uint64_t now)
{
	struct task_group *tg;

	if (p->state == TS_DEAD || p->state == TS_NEW || p->cpu < 0)
		return -1;
	tg = p->tg;
	if (tg->autogroup && !m->exit_keeps_autogroup)
		tg = &m->root_task_group;
	sched_move_task(m, p, tg, now);
	p->exiting = true;
	return 0;
}

/*
 * The shape set_user_nice() and rt_mutex_setprio() share (kernel/sched/
 * core.c): dequeue the task with @flags if queued, put it if running, change
 * it (@nice: a new weight, reweight_task_fair(); NO_NICE: p->prio only, the
 * weight stays), enqueue it with the matching ENQUEUE_ flags, set it again,
 * then prio_changed_fair(): @lower (the new prio is lower) reschedules a
 * running task, a queued one may preempt the current (wakeup_preempt(), no
 * wake flags).  The rq clock is updated first.
 */
#define NO_NICE 100
static void change_queued_task(struct model *m, struct model_task *p, unsigned int flags,
			       int nice, bool lower, uint64_t now)
{
	struct rq *rq = &m->rqs[p->cpu];
	bool queued, running;

	update_rq_clock(m, rq, now);
	queued = p->on_rq == TASK_ON_RQ_QUEUED;
	running = rq->curr == p;
	if (queued)
		dequeue_task_fair(m, rq, p, flags);
	if (running)
		put_prev_task_fair(m, rq, p);
	if (nice != NO_NICE) {
		p->nice = nice;
		reweight_task_fair(m, rq, p, nice);
	}
	/* DEQUEUE_SAVE / _MOVE / _NOCLOCK are ENQUEUE_RESTORE / _MOVE / _NOCLOCK */
	if (queued)
		enqueue_task_fair(m, rq, p, flags);
	if (running)
		set_next_task_fair(m, rq, p, false);   /* sched_change: not a pick */

	/* prio_changed_fair(): a lower priority yields, a higher may preempt */
	if (!queued || rq->cfs.nr_running == 1)
		return;
	if (running) {
		if (lower)
			resched_curr(m, rq);
	} else {
		wakeup_preempt(m, rq, p, 0);
	}
}

int model_task_set_nice(struct model *m, struct model_task *p, int nice, uint64_t now)
{
	if (nice < -20 || nice > 19 || p->state == TS_DEAD)
		return -1;
	if (nice == p->nice)
		return 0;   /* set_user_nice(): task_nice(p) == nice, nothing to do */
	if (p->state == TS_NEW || p->cpu < 0) {
		p->nice = nice;
		reweight_task_fair(m, NULL, p, nice);
		p->se.avg.load_avg = scale_load_down(p->se.load.weight);
		return 0;
	}
	change_queued_task(m, p, DEQUEUE_SAVE | DEQUEUE_NOCLOCK, nice, nice > p->nice, now);
	return 0;
}

/*
 * rt_mutex_setprio() of a fair task to a fair prio (100..139): p->prio
 * changes, static_prio and the load weight do not; the task is requeued
 * (DEQUEUE_SAVE | DEQUEUE_MOVE) and prio_changed_fair() runs.  Its own
 * update_curr() calls are the dequeue's and put_prev's.  An unchanged prio
 * does nothing: rt_mutex_setprio() goes to out_unlock on prio == p->prio
 * (before its trace_sched_pi_setprio(), so a trace never shows one; its
 * DEQUEUE_MOVE drop for oldprio == prio serves only the deadline class).
 */
int model_task_pi_setprio(struct model *m, struct model_task *p, int oldprio, int newprio,
			  uint64_t now)
{
	if (oldprio < 100 || oldprio > 139 || newprio < 100 || newprio > 139 ||
	    p->state == TS_DEAD)
		return -1;
	if (p->state == TS_NEW || p->cpu < 0 || oldprio == newprio)
		return 0;
	change_queued_task(m, p, DEQUEUE_SAVE | DEQUEUE_MOVE | DEQUEUE_NOCLOCK, NO_NICE,
			   newprio > oldprio, now);
	return 0;
}
#undef NO_NICE

/*
 * A queued fair task leaves the fair class (__sched_setscheduler() or
 * rt_mutex_setprio() -> __setscheduler_class(), then check_class_changed()):
 * the sched_change dequeue (DEQUEUE_SAVE | DEQUEUE_MOVE) and
 * switched_from_fair() -> detach_task_cfs_rq(), its load off its cfs_rq.
 * The new class's enqueue is not modelled: from here the model has it
 * asleep, as a task that is no longer fair.  -1 for a task not queued here
 * (running, asleep, delayed, dead or never placed).
 */
int model_task_switched_from_fair(struct model *m, struct model_task *p, uint64_t now)
{
	struct rq *rq;

	if (p->state != TS_RUNNING || p->cpu < 0 || p->on_rq != TASK_ON_RQ_QUEUED ||
	    p->se.sched_delayed)
		return -1;
	rq = &m->rqs[p->cpu];
	if (rq->curr == p)
		return -1;
	update_rq_clock(m, rq, now);
	dequeue_task_fair(m, rq, p, DEQUEUE_SAVE | DEQUEUE_MOVE | DEQUEUE_NOCLOCK);
	p->on_rq = 0;
	p->state = TS_SLEEPING;
	detach_entity_cfs_rq(m, &p->se);
	p->class_left = true;
	return 0;
}

/*
 * A sleeping fair task leaves the fair class (an RT boost of a blocked
 * holder, sched_setscheduler() of a sleeper): 6.12's rt_mutex_setprio()
 * first finishes a delayed dequeue (prev_class != next_class &&
 * se.sched_delayed: dequeue_task(DEQUEUE_SLEEP | DEQUEUE_DELAYED |
 * DEQUEUE_NOCLOCK)), then switched_from_fair() -> detach_task_cfs_rq()
 * (nothing to detach if it never was attached).  -1 for a task not asleep.
 */
int model_task_switched_from_fair_asleep(struct model *m, struct model_task *p, uint64_t now)
{
	struct rq *rq;

	if (p->state != TS_SLEEPING || p->cpu < 0 || p->class_left ||
	    (p->on_rq && !p->se.sched_delayed))
		return -1;
	rq = &m->rqs[p->cpu];
	if (rq->curr == p)
		return -1;
	update_rq_clock(m, rq, now);
	if (p->on_rq) {
		dequeue_entities(m, rq, &p->se, DEQUEUE_SLEEP | DEQUEUE_DELAYED | DEQUEUE_NOCLOCK);
		p->on_rq = 0;
	}
	detach_entity_cfs_rq(m, &p->se);
	p->class_left = true;
	return 0;
}

int model_task_set_class_prev(struct model_task *p, struct model_task *from)
{
	if (!p || !from || p == from || p->state == TS_DEAD || p->on_rq || p->class_prev)
		return -1;
	p->class_prev = from;
	return 0;
}

/*
 * @p is the fair entity of a thread that an earlier fair entity of the model
 * (p->class_prev) stood for until a class change (a priority-inheritance
 * boost, sched_setscheduler()): in the kernel the same sched_entity, which
 * the RT interval leaves alone.  Called at @p's first wakeup, before its
 * enqueue.  The kernel's rt_mutex_setprio() / __sched_setscheduler() at the
 * change back re-enqueues it (ENQUEUE_RESTORE | ENQUEUE_MOVE: enqueue_entity()
 * -> update_load_avg() ages se.avg blocked over the RT interval, se->on_rq
 * being 0 there; place_entity() uses the vlag, and with PLACE_REL_DEADLINE the
 * relative deadline, that dequeue_entity() saved at the change to RT) and
 * check_class_changed() -> switched_to_fair() -> attach_task_cfs_rq()
 * attaches that aged se.avg (6.12 core.c, fair.c).  So @p takes over the old
 * entity's se.avg - aged blocked from its last update and attached at the
 * enqueue, as a migrated task's (pelt_init_age(), DO_ATTACH) - its vlag and
 * deadline.  An old entity still attached (asleep at the change: the model
 * did not detach it, switched_from_fair() did) is detached here first.  One
 * still queued or delayed is left alone, and @p starts fresh as before.
 * Before 5 Dec 2026 every record started as a new task (load_avg at its
 * weight, lag 0).
 *
 * @restore: @p is enqueued by the class change itself
 * (model_task_switched_to_fair(): ENQUEUE_RESTORE, then switched_to_fair()),
 * so its se.avg keeps the old entity's last_update_time - enqueue_entity()'s
 * update_load_avg() ages it blocked and, last_update_time being set, does
 * not attach it (DO_ATTACH attaches only a never-attached entity) - and the
 * caller attaches it after the enqueue as attach_task_cfs_rq() does.  True
 * if the PELT was carried that way (the caller's attach is due).
 */
static bool class_carry(struct model *m, struct model_task *p, bool restore, uint64_t now)
{
	struct model_task *f = p->class_prev;
	bool carried = false;

	p->class_prev = NULL;
	if (!f || f->on_rq || f->se.sched_delayed || f->state == TS_NEW || f->cpu < 0 ||
	    p->se.avg.last_update_time || p->pelt_init) {
		return false;
	}
	if (!f->class_left && f->se.avg.last_update_time) {
		update_rq_clock(m, &m->rqs[f->cpu], now);
		detach_entity_cfs_rq(m, &f->se);
		f->class_left = true;
	}
	if (f->se.avg.last_update_time) {
		p->se.avg = f->se.avg;
		p->pelt_init = !restore;
		p->pelt_init_running = false;
		p->pelt_init_queued = false;
		p->pelt_init_lut = f->se.avg.last_update_time;
		if (!restore)
			p->se.avg.last_update_time = 0;
		p->first_enqueue = false;
		f->se.avg.last_update_time = 0;    /* carried: not attached twice */
		carried = restore;
	}
	p->se.vlag = f->se.vlag;
	p->se.rel_deadline = f->se.rel_deadline;
	p->se.deadline = f->se.deadline;
	p->se.vruntime = f->se.vruntime;
	p->se.no_history = 0;
	return carried;
}

/*
 * The part of a class change into fair both forms share: @p asleep, not
 * delayed, and detached (it left the class itself, or never attached),
 * re-homed to @cpu - the record's CPU so far is the model's guess (where
 * it was started asleep); the kernel's task is on @cpu, the CPU of its RT
 * interval, and the change moves nothing: no migration, nothing attached to
 * move - with @cpu's clock updated and its entity made ready: the one that
 * left itself (switched_from_fair*(): detached, last_update_time kept) or
 * the carried one (class_carry() with restore).  -1 if @p cannot change
 * (@what names the caller), else whether switched_to_fair()'s attach is due.
 */
static int class_enter(struct model *m, struct model_task *p, int cpu, const char *what,
		       uint64_t now)
{
	bool attach;

	if (p->state != TS_SLEEPING || p->on_rq || p->se.sched_delayed ||
	    (p->se.avg.last_update_time && !p->class_left) || check_cpu(m, cpu, what, NULL))
		return -1;
	p->cpu = cpu;
	set_task_rq(p, cpu);
	update_rq_clock(m, &m->rqs[cpu], now);
	attach = p->class_left ? p->se.avg.last_update_time != 0 :
		 p->class_prev && class_carry(m, p, true, now);
	p->class_left = false;
	p->wake_migrated = false;
	return attach;
}

/*
 * The class change back into the fair class of @p, runnable on @cpu
 * (rt_mutex_setprio()'s deboost, __sched_setscheduler() to a fair policy;
 * 6.12 core.c): the queued-change enqueue - enqueue_task() with the
 * DEQUEUE_SAVE | DEQUEUE_MOVE | DEQUEUE_NOCLOCK of the dequeue, i.e.
 * ENQUEUE_RESTORE | ENQUEUE_MOVE | ENQUEUE_NOCLOCK, no ENQUEUE_WAKEUP, no
 * ENQUEUE_MIGRATED (the task stays on its rq) - then check_class_changed()
 * -> switched_to_fair(): attach_task_cfs_rq() (the entity's load joins its
 * cfs_rq after the enqueue, so the enqueue's update_cfs_group() does not see
 * it) and the class change's resched rule: running, resched_curr();
 * queued, wakeup_preempt() with no wake flags.  Not a wakeup: no
 * sched_wakeup counted, no ttwu_update_avg_idle().  With @running the
 * caller has @p current on @cpu (its RT interval just ended there).  An
 * entity with no carried PELT (no earlier fair record, or one still
 * queued) is attached by the enqueue's DO_ATTACH as a new entity, as
 * before, and not again.  @p itself may be the entity that left
 * (model_task_switched_from_fair*()): the same round trip on one task.  -1
 * for a task not asleep, delayed, or attached and never left.
 */
int model_task_switched_to_fair(struct model *m, struct model_task *p, int cpu, bool running,
				uint64_t now)
{
	int attach = class_enter(m, p, cpu, "switched_to_fair", now);
	struct rq *rq;

	if (attach < 0)
		return -1;
	rq = &m->rqs[cpu];
	p->state = TS_RUNNING;
	activate_task(m, rq, p, ENQUEUE_RESTORE | ENQUEUE_MOVE | ENQUEUE_NOCLOCK);
	if (attach)
		attach_entity_cfs_rq(m, &p->se);
	if (running)
		resched_curr(m, rq);
	else
		wakeup_preempt(m, rq, p, 0);
	return 0;
}

/*
 * The class change into fair of @p asleep (6.12 __sched_setscheduler() /
 * rt_mutex_setprio() with !queued: no enqueue; check_class_changed() ->
 * switched_to_fair() -> attach_task_cfs_rq() -> attach_entity_cfs_rq():
 * update_load_avg() ages the entity, attach_entity_load_avg() adds it to
 * the cfs_rq as blocked load, propagate_entity_cfs_rq(); no resched, the
 * task is not queued).  The carried entity (class_carry() with restore:
 * last_update_time kept) is attached here; the wakeup's enqueue then only
 * ages it (DO_ATTACH attaches a never-attached entity only).
 */
int model_task_switched_to_fair_asleep(struct model *m, struct model_task *p, int cpu,
				       uint64_t now)
{
	int attach = class_enter(m, p, cpu, "switched_to_fair_asleep", now);

	if (attach < 0)
		return -1;
	if (attach)
		attach_entity_cfs_rq(m, &p->se);
	return 0;
}
