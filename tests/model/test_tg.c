// SPDX-License-Identifier: GPL-2.0
/*
 * Task groups and new tasks: the seed's 1024 vs 1002 figure, calc_group_shares()
 * worked examples, reweight preserving lag and relative deadline, and
 * __calc_delta() for a task (table inverse) vs a group entity (computed).
 */
#include <string.h>

#include "check.h"
#include "sched.h"

static struct model *mk(const char *profile, const char *variants, unsigned int cpus)
{
	static struct model_variant_set vs;
	struct model_config cfg = { .nr_cpus = cpus, .hz = 250, .seed = 7 };
	struct sr_error err = { 0 };
	struct model *m;

	if (model_variant_set_parse(&vs, variants, &err))
		fprintf(stderr, "%s\n", err.msg);
	cfg.profile = model_profile_find(profile);
	cfg.variants = &vs;
	m = model_new(&cfg, &err);
	if (!m)
		fprintf(stderr, "model_new: %s\n", err.msg);
	return m;
}

/*
 * The seed figure: a nice-0 task forked (by a parent on CPU 1) onto CPU 0
 * 1 ms after CPU 0's clock was last updated.  v4.8 attach: attached at the stale clock with period_contrib
 * 1023, aged over one period boundary while not yet queued: 1024 -> 1002.
 * Current attach path (and Matt Fleming's patch on v4.8): exactly 1024.
 */
static unsigned long first_load(const char *profile, const char *variants)
{
	struct model *m = mk(profile, variants, 2);
	struct model_task *a, *b;
	struct model_task_info info;
	uint64_t t0 = 1000000000ULL;

	a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	model_wake_up_new_task(m, a, 0, 0, t0);         /* the rq clock is t0 */
	model_wake_up_new_task(m, b, 1, 0, t0 + 1000000);
	model_task_info(b, &info);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
	return info.load_avg;
}

static void test_seed_figure(void)
{
	CHECK_EQ_U(first_load("6.18", "v4.8-attach"), 1002);
	CHECK_EQ_U(first_load("6.5", "v4.8-attach"), 1002);
	CHECK_EQ_U(first_load("6.18", "base"), 1024);
	CHECK_EQ_U(first_load("6.5", "base"), 1024);
	CHECK_EQ_U(first_load("6.18", "no-decay-first-enqueue"), 1024);
	CHECK_EQ_U(first_load("6.5", "no-decay-first-enqueue"), 1024);
	/* the divider explains the number: 1024 * decay_load(47742, 1) / 47742 */
	CHECK_EQ_U(1024 * decay_load(LOAD_AVG_MAX, 1) / LOAD_AVG_MAX, 1002);
}

/*
 * calc_group_shares(): shares * load / (tg->load_avg - contrib + load),
 * load = max(weight, load_avg), clamped to [2, shares].
 */
static void test_calc_group_shares(void)
{
	struct model *m = mk("6.18", "base", 2);
	struct model_group *ga = model_group_new(m, NULL, 1024, "/a", NULL);
	struct model_group *gb = model_group_new(m, NULL, 2048, "/b", NULL);
	struct task_group *a = (struct task_group *)ga, *b = (struct task_group *)gb;
	struct cfs_rq *a0 = a->cfs_rq[0], *b0 = b->cfs_rq[0];

	/* one nice-0 task on CPU 0 in each group, nothing elsewhere */
	a0->load.weight = NICE_0_LOAD;
	a0->avg.load_avg = 512;
	a0->tg_load_avg_contrib = 512;
	a->load_avg = 512;
	b0->load.weight = NICE_0_LOAD;
	b0->avg.load_avg = 512;
	b0->tg_load_avg_contrib = 512;
	b->load_avg = 512;
	/* the UP case: the whole group's shares go to this CPU */
	CHECK_EQ_S(calc_group_shares(m, a0), 1048576);
	CHECK_EQ_S(calc_group_shares(m, b0), 2097152);

	/* another CPU contributes 1024: tg_weight = 1536 - 512 + 1024 = 2048 */
	a->load_avg += 1024;
	b->load_avg += 1024;
	CHECK_EQ_S(calc_group_shares(m, a0), 524288);
	CHECK_EQ_S(calc_group_shares(m, b0), 1048576);

	/* load_avg above the instantaneous weight: load = 1500,
	 * tg_weight = 1536 - 512 + 1500 = 2524 -> 1048576 * 1500 / 2524 */
	a0->avg.load_avg = 1500;
	CHECK_EQ_S(calc_group_shares(m, a0), 1048576L * 1500 / 2524);

	/* an empty queue with no load: clamped up to MIN_SHARES (unscaled 2) */
	a0->load.weight = 0;
	a0->avg.load_avg = 0;
	CHECK_EQ_S(calc_group_shares(m, a0), 2);

	/* a stale, too small tg->load_avg cannot give more than the shares */
	b0->load.weight = 3 * NICE_0_LOAD;
	b0->avg.load_avg = 0;
	b->load_avg = 0;
	b0->tg_load_avg_contrib = 0;
	CHECK_EQ_S(calc_group_shares(m, b0), 2097152);

	/* reads counted: 6 calls above, one node */
	CHECK_EQ_U(m->counters[MC_tg_load_avg_reads], 7);
	a0->tg_load_avg_contrib = 0;
	a->load_avg = 0;
	b->load_avg = 0;
	b0->load.weight = 0;
	model_free(m);
}

/*
 * update_cfs_group() on a group entity whose share changes (the worked
 * example above: 1048576 * 1024 / 2048 = 524288), then again with nothing
 * changed: 6.12+ reweights only on a change; 6.1 always reweights
 * (CFS_GROUP_ALWAYS_REWEIGHT) but update_cfs_group.reweighted counts only
 * the call that changed the weight.
 */
static void test_update_cfs_group_reweight_count(void)
{
	const char *profiles[] = { "6.18", "6.1" };

	for (int i = 0; i < 2; i++) {
		struct model *m = mk(profiles[i], "base", 2);
		struct task_group *a = (struct task_group *)model_group_new(m, NULL, 1024, "/a", NULL);
		struct cfs_rq *a0 = a->cfs_rq[0];
		struct sched_entity *gse = a->se[0];

		CHECK_EQ_U(gse->load.weight, NICE_0_LOAD);
		a0->load.weight = NICE_0_LOAD;
		a0->avg.load_avg = 512;
		a0->tg_load_avg_contrib = 512;
		a->load_avg = 512 + 1024;
		update_cfs_group(m, gse, MODEL_SITE_ENTITY_TICK, 1);
		CHECK_EQ_U(gse->load.weight, 524288);
		CHECK_EQ_U(m->counters[MC_update_cfs_group_reweight], 1);
		CHECK_EQ_U(m->counters[MC_reweight_entity], 1);
		update_cfs_group(m, gse, MODEL_SITE_ENTITY_TICK, 1);
		CHECK_EQ_U(gse->load.weight, 524288);
		CHECK_EQ_U(m->counters[MC_update_cfs_group_reweight], 1);
		CHECK_EQ_U(m->counters[MC_reweight_entity], i ? 2 : 1);
		a0->load.weight = 0;
		a0->avg.load_avg = 0;
		a0->tg_load_avg_contrib = 0;
		a->load_avg = 0;
		model_free(m);
	}
}

/* update_tg_load_avg(): the 1/64 threshold and the 1 ms rate limit. */
static void test_update_tg_load_avg(void)
{
	const char *variants[] = { "no-tg-ratelimit", "tg-ratelimit" };
	int v;

	for (v = 0; v < 2; v++) {
		struct model *m = mk("6.18", variants[v], 1);
		struct task_group *a = (struct task_group *)model_group_new(m, NULL, 1024, "/a", NULL);
		struct cfs_rq *c = a->cfs_rq[0];

		m->now = 10000000;
		c->avg.load_avg = 640;
		update_tg_load_avg(m, c);
		CHECK_EQ_S(a->load_avg, 640);
		/* +10 is not more than 640/64 = 10: no write */
		m->now = 10200000;
		c->avg.load_avg = 650;
		update_tg_load_avg(m, c);
		CHECK_EQ_S(a->load_avg, 640);
		/* +11 is: written - unless within 1 ms of the last write (10 ms) */
		m->now = 10500000;
		c->avg.load_avg = 651;
		update_tg_load_avg(m, c);
		CHECK_EQ_S(a->load_avg, v ? 640 : 651);
		m->now = 11000000;   /* exactly 1 ms later: allowed */
		update_tg_load_avg(m, c);
		CHECK_EQ_S(a->load_avg, 651);
		CHECK_EQ_U(m->counters[MC_tg_load_avg_writes], 2);
		CHECK_EQ_U(m->counters[MC_update_tg_load_avg], 4);
		CHECK_EQ_U(m->counters[MC_update_tg_load_avg_ratelimited], v ? 2 : 0);
		CHECK_EQ_U(m->tg_writes_node[0], 2);
		c->avg.load_avg = 0;
		c->tg_load_avg_contrib = 0;
		a->load_avg = 0;
		a->node_load_avg[0] = 0;
		model_free(m);
	}
}

/*
 * reweight_entity() on a queued entity (EEVDF): lag w (V - v) and the
 * relative deadline (d - V) w are preserved, V does not move.
 */
static void test_reweight_preserves_lag_profile(const char *profile)
{
	struct model *m = mk(profile, "base", 1);
	struct model_task *t[3];
	struct sched_entity *se;
	struct cfs_rq *cfs_rq;
	uint64_t now = 1000000000ULL, V, V2, v, d;
	unsigned long w = NICE_0_LOAD, w2 = NICE_0_LOAD / 4;
	int64_t lag, lag2;
	int i;

	for (i = 0; i < 3; i++) {
		t[i] = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, (uint32_t)i, NULL);
		model_wake_up_new_task(m, t[i], 0, 0, now);
	}
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	for (i = 1; i <= 5; i++) {   /* 20 ms of ticks and preemptions */
		now += 4000000;
		model_tick(m, 0, now);
		if (model_need_resched(m, 0))
			model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	}
	cfs_rq = &m->rqs[0].cfs;
	se = NULL;
	for (i = 0; i < 3; i++)
		if (cfs_rq->curr != &t[i]->se)
			se = &t[i]->se;
	V = avg_vruntime(m, cfs_rq);
	v = se->vruntime;
	d = se->deadline;
	lag = (int64_t)(V - v);
	CHECK(lag != 0);

	reweight_entity(m, cfs_rq, se, w2);
	V2 = avg_vruntime(m, cfs_rq);
	lag2 = (int64_t)(V2 - se->vruntime);
	/*
	 * 6.12 (reweight_eevdf()): v' = V - (V - v) w / w', d' = V + (d - V) w / w'
	 * (exact integers).  6.18 re-places the entity (update_entity_lag(),
	 * place_entity()): the same up to the rounding of the lag inflation.
	 */
	if (!strcmp(profile, "6.12")) {
		CHECK_EQ_S((int64_t)(V - se->vruntime), lag * (int64_t)w / (int64_t)w2);
		CHECK_EQ_S((int64_t)(se->deadline - V), (int64_t)(d - V) * (int64_t)w / (int64_t)w2);
	} else {
		CHECK_MSG(llabs((int64_t)(V - se->vruntime) - lag * (int64_t)w / (int64_t)w2) <= 4,
			  "v' off by %lld", (long long)((int64_t)(V - se->vruntime) -
							lag * (int64_t)w / (int64_t)w2));
		CHECK_MSG(llabs((int64_t)(se->deadline - se->vruntime) -
				(int64_t)(d - v) * (int64_t)w / (int64_t)w2) <= 1,
			  "relative deadline not scaled");
	}
	/* lag (w * vlag) preserved to within the rounding of V */
	CHECK_MSG(llabs(lag2 * (int64_t)w2 - lag * (int64_t)w) <= 4 * (int64_t)w2,
		  "lag*w before %lld after %lld", (long long)(lag * (int64_t)w),
		  (long long)(lag2 * (int64_t)w2));
	CHECK_MSG(llabs((int64_t)(V2 - V)) <= 1, "V moved from %llu to %llu",
		  (unsigned long long)V, (unsigned long long)V2);
	CHECK_EQ_U(se->load.weight, w2);
	CHECK(model_check_invariants(m, NULL) == 0);

	/* a sleeping entity scales its stored lag instead */
	se->on_rq = 1;
	model_free(m);
}

static void test_reweight_preserves_lag(void)
{
	test_reweight_preserves_lag_profile("6.12");
	test_reweight_preserves_lag_profile("6.18");
}

/* __calc_delta(): tasks keep 2^32/w from the table, groups compute (2^32-1)/w. */
static void test_calc_delta_task_vs_group(void)
{
	struct model *m = mk("6.18", "base", 1);
	struct task_group *a = (struct task_group *)model_group_new(m, NULL, 1024, "/a", NULL);
	struct model_task *t = model_task_new(m, (struct model_group *)a, 0, MODEL_POLICY_NORMAL,
					      1, NULL);
	struct sched_entity *gse = a->se[0];

	CHECK_EQ_U(t->se.load.weight, NICE_0_LOAD);
	CHECK_EQ_U(t->se.load.inv_weight, 4194304);
	CHECK_EQ_U(gse->load.weight, NICE_0_LOAD);
	/* at NICE_0_LOAD calc_delta_fair() is the identity for both ... */
	CHECK_EQ_U(calc_delta_fair(1000000, &t->se), 1000000);
	CHECK_EQ_U(calc_delta_fair(1000000, gse), 1000000);
	/* ... but a group entity at 2048 computes 0xffffffff / 2048 = 2097151
	 * where a task would use 2^32 / 2048 = 2097152 */
	update_load_set(&gse->load, 2 * NICE_0_LOAD);
	CHECK_EQ_U(calc_delta_fair(1000000, gse), 499999);
	CHECK_EQ_U(gse->load.inv_weight, 2097151);
	/* and a nice-0 task's 1 ms slice against weight 2048 (table inverse) */
	{
		struct load_weight lw = { .weight = 2 * NICE_0_LOAD, .inv_weight = 2097152 };

		CHECK_EQ_U(__calc_delta(1000000, NICE_0_LOAD, &lw), 500000);
	}
	/* a nice-5 task keeps the table value 12820798 after reweighting */
	model_task_set_nice(m, t, 5, 0);
	CHECK_EQ_U(t->se.load.weight, 335 * 1024);
	CHECK_EQ_U(t->se.load.inv_weight, 12820798);
	CHECK_EQ_U(calc_delta_fair(1000000, &t->se), 3056716);
	model_free(m);
}

/*
 * __update_inv_weight() / __calc_delta() (kernel/sched/fair.c) off the common
 * path, values worked out by hand from the kernel's definitions (the 6.12
 * vectors only hold realistic weights):
 * - a weight of 0 takes inv_weight = WMULT_CONST = 2^32 - 1: 1024 * (2^32 - 1)
 *   has 10 high bits, so fact = (2^32 - 1) and shift = 22:
 *   1000 * (2^32 - 1) >> 22 = 1023999;
 * - scale_load_down(w) >= WMULT_CONST takes inv_weight = 1:
 *   2^40 * (1024 * 1) >> 32 = 2^18;
 * - a weight argument whose scaled-down value has high bits (2^44 >> 10 =
 *   2^34: fls(4) = 3) is shifted first: fact = 2^31, shift 29; times the
 *   nice-0 inverse 2^22 gives 2^53, fls(2^21) = 22: fact = 2^31, shift 7,
 *   so 3 * 2^31 >> 7 = 3 * 2^24 = 3 * 2^44 / 2^20.
 */
static void test_calc_delta_extremes(void)
{
	struct load_weight zero = { .weight = 0, .inv_weight = 0 };
	struct load_weight huge = { .weight = (unsigned long)1 << 42, .inv_weight = 0 };
	struct load_weight nice0 = { .weight = NICE_0_LOAD, .inv_weight = 4194304 };

	CHECK_EQ_U(__calc_delta(1000, NICE_0_LOAD, &zero), 1023999);
	CHECK_EQ_U(zero.inv_weight, 0xffffffffu);
	CHECK_EQ_U(__calc_delta((u64)1 << 40, NICE_0_LOAD, &huge), (u64)1 << 18);
	CHECK_EQ_U(huge.inv_weight, 1);
	CHECK_EQ_U(__calc_delta(3, (unsigned long)1 << 44, &nice0), 3 * ((u64)1 << 24));
	CHECK_EQ_U(nice0.inv_weight, 4194304);
}

int main(void)
{
	test_seed_figure();
	test_calc_delta_extremes();
	test_calc_group_shares();
	test_update_tg_load_avg();
	test_update_cfs_group_reweight_count();
	test_reweight_preserves_lag();
	test_calc_delta_task_vs_group();
	return check_done("tg");
}
