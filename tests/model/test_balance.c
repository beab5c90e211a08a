// SPDX-License-Identifier: GPL-2.0
/*
 * Newidle balance gates, update_blocked_averages() on the leaf list, nohz
 * blocked-load refresh, avg_idle, and the pulls of --placement model.
 */
#include <string.h>

#include "check.h"
#include "sched.h"

static bool pack_flat;     /* model_config.vcpu_pack_flat for mk_pack()'s models */

static struct model *mk_pack(const char *variants, bool moves, bool vcpu_pack)
{
	static struct model_variant_set vs;
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 11 };

	model_variant_set_parse(&vs, variants, NULL);
	cfg.profile = model_profile_find("6.18");
	cfg.variants = &vs;
	cfg.balance_moves_tasks = moves;
	cfg.vcpu_pack = vcpu_pack;
	cfg.vcpu_pack_flat = pack_flat;
	return model_new(&cfg, NULL);
}

static struct model *mk(const char *variants, bool moves)
{
	return mk_pack(variants, moves, false);
}

/*
 * CPU 0 runs two tasks (rd->overloaded), CPU 1 one task in a group; when it
 * blocks, CPU 1 goes newly idle: avg_idle (1 ms initially) exceeds
 * max_newidle_lb_cost (0): blocked averages are updated and a domain
 * balanced; the cost then recorded (3 us + per cfs_rq) gates the next pass.
 */
static void test_newidle(const char *variants, bool lazy)
{
	struct model *m = mk(variants, false);
	struct model_group *g = model_group_new(m, NULL, 1024, "/g", NULL);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	struct model_task *c = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 3, NULL);
	uint64_t now = 1000000000ULL;
	struct rq *rq1;

	model_wake_up_new_task(m, a, 0, 0, now);
	model_wake_up_new_task(m, b, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	CHECK(m->rd_overloaded);
	model_wake_up_new_task(m, c, 1, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	now += 2000000;
	rq1 = &m->rqs[1];
	rq1->sd[0].newidle_ratio = 1023;   /* NI_RANDOM: always balance */
	CHECK(model_schedule(m, 1, MODEL_PREV_SLEEP, now) == NULL);
	CHECK_EQ_U(m->counters[MC_newidle_balance], 1);
	CHECK_EQ_U(m->counters[MC_newidle_balance_run], 1);
	CHECK_EQ_U(rq1->idle_stamp, now);
	if (!lazy) {
		/* the group's cfs_rq and the root are on CPU 1's leaf list */
		CHECK_EQ_U(m->counters[MC_update_blocked_averages_newidle], 1);
		CHECK_EQ_U(rq1->sd[0].max_newidle_lb_cost, 3000 + 2 * 150);
	} else {
		/* lazy: only if a domain is balanced; NI_RANDOM (ratio 512/1024)
		 * decides, with the seeded generator */
		CHECK(m->counters[MC_update_blocked_averages_newidle] ==
		      m->counters[MC_newidle_balance_domains]);
	}
	/* A wakeup 100 us later: avg_idle = 1 ms + (100 us - 1 ms) / 8 */
	model_try_to_wake_up(m, c, 1, 0, MODEL_WF_TTWU, now + 100000);
	CHECK_EQ_U(rq1->avg_idle, 1000000 - 900000 / 8);
	CHECK_EQ_U(rq1->idle_stamp, 0);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now + 100000);
	/* short idle periods drive avg_idle below the cost: newidle skips */
	{
		int i;
		uint64_t skips0 = m->counters[MC_newidle_balance_skip];

		for (i = 0; i < 60; i++) {
			now += 200000;
			model_schedule(m, 1, MODEL_PREV_SLEEP, now);
			model_try_to_wake_up(m, c, 1, 0, MODEL_WF_TTWU, now + 1000);
			model_schedule(m, 1, MODEL_PREV_RUNNABLE, now + 1000);
		}
		CHECK_MSG(rq1->avg_idle < rq1->sd[0].max_newidle_lb_cost || lazy,
			  "avg_idle %llu cost %llu", (unsigned long long)rq1->avg_idle,
			  (unsigned long long)rq1->sd[0].max_newidle_lb_cost);
		CHECK(m->counters[MC_newidle_balance_skip] > skips0 || lazy);
	}
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/* The pre-5.16 entry test: avg_idle below migration_cost skips outright. */
static void test_newidle_pre516(void)
{
	struct model *m = mk("newidle-pre-5.16", false);
	struct rq *rq1 = &m->rqs[1];

	m->rd_overloaded = true;
	rq1->avg_idle = 400000;          /* < 500 us */
	sched_balance_newidle(m, rq1);
	CHECK_EQ_U(m->counters[MC_newidle_balance_skip], 1);
	rq1->avg_idle = 600000;
	rq1->sd[0].max_newidle_lb_cost = 700000;   /* not an entry test before 5.16 */
	sched_balance_newidle(m, rq1);
	CHECK_EQ_U(m->counters[MC_newidle_balance_run], 1);
	CHECK_EQ_U(m->counters[MC_update_blocked_averages], 1);
	CHECK_EQ_U(m->counters[MC_newidle_balance_domains], 0);   /* per-domain gate */
	model_free(m);
}

/*
 * Blocked load: a task sleeps in a group on CPU 1 which goes idle; the
 * busy CPU 0's ticks kick nohz stats updates every 32 ms (once per jiffy
 * per CPU at most); the group's load decays and the cfs_rqs leave the leaf
 * list once fully decayed.
 */
static void test_blocked_load(void)
{
	struct model *m = mk("base", false);
	struct model_group *g = model_group_new(m, NULL, 1024, "/g", NULL);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *c = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 3, NULL);
	struct task_group *tg = (struct task_group *)g;
	uint64_t now = 1000000000ULL, nohz;
	unsigned long l0;
	int i;

	model_wake_up_new_task(m, a, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	model_wake_up_new_task(m, c, 1, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	for (i = 0; i < 25; i++) {
		now += 4000000;
		model_tick(m, 0, now);
		model_tick(m, 1, now);
	}
	model_schedule(m, 1, MODEL_PREV_SLEEP, now);
	CHECK(m->rqs[1].nohz_idle);
	CHECK(tg->cfs_rq[1]->on_list);
	l0 = tg->cfs_rq[1]->avg.load_avg;
	CHECK(l0 > 900);
	nohz = m->counters[MC_update_blocked_averages_nohz];
	for (i = 0; i < 250 * 3; i++) {    /* 3 s of ticks on CPU 0 only */
		now += 4000000;
		model_tick(m, 0, now);
	}
	/*
	 * One stats pass per 32 ms (a kick when jiffies > next_blocked: every
	 * 9 jiffies at 250 Hz) while CPU 1 has blocked load; load_avg ~1000
	 * needs ~10 half-lives (~320 ms) to reach 0, then CPU 1 reports no
	 * blocked load and the kicks stop (its sums may still be non-zero:
	 * the cfs_rq leaves the leaf list only at a later update).
	 */
	CHECK_MSG(m->counters[MC_update_blocked_averages_nohz] - nohz >= 9 &&
		  m->counters[MC_update_blocked_averages_nohz] - nohz <= 13,
		  "nohz updates %llu", (unsigned long long)(m->counters[MC_update_blocked_averages_nohz] - nohz));
	CHECK_EQ_U(tg->cfs_rq[1]->avg.load_avg, 0);
	CHECK_EQ_S(tg->load_avg, 0);
	CHECK(!m->rqs[1].has_blocked_load);
	CHECK(!m->nohz.has_blocked);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/* --placement model: a newly idle CPU pulls a queued task. */
static void test_pull(void)
{
	struct model *m = mk("base", true);
	struct model_task *t[3];
	uint64_t now = 1000000000ULL;
	int i;

	for (i = 0; i < 3; i++) {
		t[i] = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, (uint32_t)i, NULL);
		model_wake_up_new_task(m, t[i], 0, i ? 0 : 1, now);
	}
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	CHECK_EQ_U(model_nr_queued(m, 0), 2);
	/* make sure NI_RANDOM lets the domain run */
	m->rqs[1].sd[0].newidle_ratio = 1023;
	now += 1000000;
	CHECK(model_schedule(m, 1, MODEL_PREV_SLEEP, now) != NULL);
	CHECK_EQ_U(model_nr_queued(m, 0), 1);
	CHECK_EQ_U(model_nr_queued(m, 1), 1);
	CHECK_EQ_U(m->counters[MC_load_balance_moved], 1);
	CHECK_EQ_U(m->counters[MC_sched_migrate_task], 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	/* placement helper: a wakeup from CPU 1 of a task last on CPU 0 */
	CHECK(model_select_task_rq(m, t[0], 1, MODEL_WF_TTWU, now) >= 0);
	CHECK_EQ_S(model_select_task_rq(m, t[0], 0, MODEL_WF_FORK, now), 0 + (model_curr(m, 0) ? 0 : 0));
	model_free(m);
}

/*
 * Under --placement trace the replay lets only a newly idle CPU pull
 * (model_set_newidle_moves()), and only what the kernel would move:
 * can_migrate_task()'s task_hot() (ran on its CPU less than
 * sysctl_sched_migration_cost, 500 us, ago) and pinned tasks.  CPU 0 runs
 * A (nice -20, picked first) with B queued; B last ran until 1 ms.  CPU 1's
 * task C sleeps 100 us later: B is hot, nothing moves.  C sleeps again 2 ms
 * later: B is cold and moves.  Pinned, it would not have.
 */
static void test_pull_cache_hot(bool pinned)
{
	struct model *m = mk("base", false);
	struct model_task *a, *b, *c;
	uint64_t t = 1000000000ULL;
	uint64_t hot0;

	model_set_newidle_moves(m, true);
	b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	a = model_task_new(m, NULL, -20, MODEL_POLICY_NORMAL, 2, NULL);
	c = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	model_task_set_pinned(b, pinned);
	CHECK(model_wake_up_new_task(m, b, 0, 0, t) == 0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, t) == b);
	CHECK(model_wake_up_new_task(m, c, 1, 1, t) == 0);
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, t) == c);
	t += 1000000;
	CHECK(model_wake_up_new_task(m, a, 0, 0, t) == 0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, t) == a);      /* B queued, ran until now */
	CHECK_EQ_U(model_nr_queued(m, 0), 2);

	hot0 = m->counters[MC_load_balance_hot];
	m->rqs[1].sd[0].newidle_ratio = 1023;                          /* NI_RANDOM: balance */
	CHECK(model_schedule(m, 1, MODEL_PREV_SLEEP, t + 100000) == NULL);
	CHECK_EQ_U(model_nr_queued(m, 0), 2);
	CHECK_EQ_U(m->counters[MC_load_balance_moved], 0);
	CHECK_EQ_U(m->counters[MC_load_balance_hot], hot0 + (pinned ? 0 : 1));

	t += 2000000;
	CHECK(model_try_to_wake_up(m, c, 1, 1, MODEL_WF_TTWU, t) == 1);     /* enqueued */
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, t) == c);
	m->rqs[1].sd[0].newidle_ratio = 1023;
	m->rqs[1].avg_idle = 1000000;                                  /* past the cost gate */
	if (pinned) {
		CHECK(model_schedule(m, 1, MODEL_PREV_SLEEP, t + 100000) == NULL);
		CHECK_EQ_U(model_nr_queued(m, 0), 2);
		CHECK_EQ_U(m->counters[MC_load_balance_moved], 0);
	} else {
		CHECK(model_schedule(m, 1, MODEL_PREV_SLEEP, t + 100000) == b);
		CHECK_EQ_U(model_nr_queued(m, 0), 1);
		CHECK_EQ_U(m->counters[MC_load_balance_moved], 1);
		CHECK_EQ_U(m->counters[MC_sched_migrate_task], 1);
	}
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * SIS_UTIL (update_idle_cpu_scan()): the number of CPUs select_idle_cpu()
 * may scan, from the LLC's mean utilisation x (util_avg capped at 1024):
 * weight * (1024 - min(x^2 * 117^2 / (10000 * 1024), 1024)) / 1024.  On two
 * CPUs: 2 up to x = 27, 1 from 28 to 619, 0 from 620.  Newidle balancing does
 * not write it.
 */
static void test_idle_cpu_scan(void)
{
	static const struct {
		unsigned int nr_cpus;
		unsigned long util[4];
		int nr;
	} cases[] = {
		{ 2, { 0, 0 }, 2 },       { 2, { 27, 27 }, 2 },     { 2, { 28, 28 }, 1 },
		{ 2, { 619, 619 }, 1 },   { 2, { 620, 620 }, 0 },   { 2, { 1024, 0 }, 1 },
		{ 2, { 2000, 200 }, 1 },  /* 2000 counts as 1024: x = 612 */
		{ 4, { 300, 300, 300, 300 }, 3 }, { 4, { 1024, 1024, 1024, 0 }, 0 },
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		static struct model_variant_set vs;
		struct model_config cfg = { .nr_cpus = cases[k].nr_cpus, .hz = 250, .seed = 11 };
		struct model *m;
		unsigned int i;

		model_variant_set_parse(&vs, "base", NULL);
		cfg.profile = model_profile_find("6.18");
		cfg.variants = &vs;
		m = model_new(&cfg, NULL);
		CHECK_EQ_S(m->nr_idle_scan[0], 0);     /* kzalloc()ed until the first balance */
		for (i = 0; i < cases[k].nr_cpus; i++)
			m->rqs[i].cfs.avg.util_avg = cases[k].util[i];
		update_idle_cpu_scan(m, &m->rqs[0], &m->rqs[0].sd[0], true);
		CHECK_EQ_S(m->nr_idle_scan[0], 0);
		update_idle_cpu_scan(m, &m->rqs[0], &m->rqs[0].sd[0], false);
		CHECK_EQ_S(m->nr_idle_scan[0], cases[k].nr);
		model_free(m);
	}
}

/*
 * select_idle_sibling() as the kernel orders it, on two CPUs.  Task P last
 * ran on CPU 0, where A (nice -20) now runs; CPU 1 is idle.  A wakes P:
 * prev = target = 0 is busy, so only recent_used_cpu or select_idle_cpu()
 * can find CPU 1 - and select_idle_cpu() scans nothing when nr_idle_scan is
 * 0 (P stays beside the idle CPU, as the capture kernel kept xargs), the
 * other CPU when it is 1.  recent_used_cpu (CPU 1) is taken once, then
 * becomes prev.  An idle waking CPU wins (WA_IDLE).  wake_wide() (A flips
 * between >= 2x as many wakees as P, P >= llc_size = 2) skips wake_affine():
 * with B (nice 19) running on CPU 1, A's heavy CPU 0 loses the load
 * comparison and P is pulled to the waker's CPU 1, unless wide.
 */
static void test_select_idle_sibling(void)
{
	struct model *m = mk("base", false);
	struct model_task *p, *a, *b, *q;
	uint64_t now = 1000000000ULL;

	p = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 0, NULL);
	a = model_task_new(m, NULL, -20, MODEL_POLICY_NORMAL, 1, NULL);
	b = model_task_new(m, NULL, 19, MODEL_POLICY_NORMAL, 2, NULL);
	q = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	model_wake_up_new_task(m, p, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	now += 100000;
	model_schedule(m, 0, MODEL_PREV_SLEEP, now);           /* P sleeps, CPU 0 idle */
	model_wake_up_new_task(m, a, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	CHECK(model_curr(m, 0) != NULL);
	CHECK_EQ_S(p->recent_used_cpu, 0);                  /* wake_up_new_task(): the parent's */

	m->nr_idle_scan[0] = 0;
	CHECK_EQ_S(model_select_task_rq(m, p, 0, MODEL_WF_TTWU, now), 0);
	m->nr_idle_scan[0] = 1;
	CHECK_EQ_S(model_select_task_rq(m, p, 0, MODEL_WF_TTWU, now), 1);
	m->nr_idle_scan[0] = 0;
	p->recent_used_cpu = 1;
	CHECK_EQ_S(model_select_task_rq(m, p, 0, MODEL_WF_TTWU, now), 1);
	CHECK_EQ_S(p->recent_used_cpu, 0);
	CHECK_EQ_S(model_select_task_rq(m, p, 0, MODEL_WF_TTWU, now), 0);
	/* record_wakee(): A switched wakees once (P), then once more (Q) */
	CHECK_EQ_U(a->wakee_flips, 1);
	CHECK_EQ_S(model_select_task_rq(m, q, 0, MODEL_WF_FORK, now), 1);
	CHECK_EQ_U(a->wakee_flips, 1);                       /* forks are not wakeups */
	/* an idle waking CPU (an interrupt on CPU 1) */
	CHECK_EQ_S(model_select_task_rq(m, p, 1, MODEL_WF_TTWU, now), 1);

	model_wake_up_new_task(m, b, 1, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	CHECK(model_curr(m, 1) != NULL);
	p->recent_used_cpu = 0;
	CHECK_EQ_S(model_select_task_rq(m, p, 1, MODEL_WF_TTWU, now), 1);
	CHECK_EQ_U(b->wakee_flips, 1);
	b->wakee_flips = 4;
	p->wakee_flips = 2;
	CHECK_EQ_S(model_select_task_rq(m, p, 1, MODEL_WF_TTWU, now), 0);
	p->wakee_flips = 1;                                  /* P flips < llc_size: affine */
	CHECK_EQ_S(model_select_task_rq(m, p, 1, MODEL_WF_TTWU, now), 1);
	/* the flips halve once HZ jiffies have passed since the last decay */
	now += 2000000000ULL;
	b->wakee_flip_decay_ts = m->jiffies;
	CHECK_EQ_S(model_select_task_rq(m, q, 1, MODEL_WF_TTWU, now), 1);
	CHECK_EQ_U(b->wakee_flips, 3);                       /* 4 >> 1, + 1 for Q */
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * wake_affine_weight() (kernel/sched/fair.c) at its tie: the waker's CPU
 * wins only when this_eff_load = (load(this) + task) x 100 is strictly
 * below prev_eff_load = (load(prev) - task) x (100 + 17 / 2 = 108); equal,
 * the task stays on prev.  Both CPUs busy (no idle CPU for
 * select_idle_sibling(): it keeps the target), P's load 100, prev's 1100
 * (1000 x 108 = 108000): this at 980 -> 1080 x 100 = 108000, equal: CPU 0
 * (prev); this at 979 -> 107900 < 108000: CPU 1 (the waker's).
 */
static void test_wake_affine_tie(void)
{
	struct model *m = mk("base", false);
	struct model_task *p, *a, *b;
	uint64_t now = 1000000000ULL;

	p = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 0, NULL);
	a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	model_wake_up_new_task(m, p, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	now += 100000;
	model_schedule(m, 0, MODEL_PREV_SLEEP, now);           /* P sleeps on CPU 0 */
	model_wake_up_new_task(m, a, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	model_wake_up_new_task(m, b, 1, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	m->nr_idle_scan[0] = 0;
	p->recent_used_cpu = 0;
	p->se.avg.load_avg = 100;
	m->rqs[0].cfs.avg.load_avg = 1100;
	m->rqs[1].cfs.avg.load_avg = 980;
	CHECK_EQ_S(model_select_task_rq(m, p, 1, MODEL_WF_TTWU, now), 0);
	m->rqs[1].cfs.avg.load_avg = 979;
	CHECK_EQ_S(model_select_task_rq(m, p, 1, MODEL_WF_TTWU, now), 1);
	model_free(m);
}

/*
 * The fork slow path (sched_balance_find_dst_cpu() over single-CPU MC
 * groups), on states set directly: the child goes to the other CPU only when
 * that group is of a lighter type (an idle CPU has spare capacity and one
 * more idle CPU), or, both fully busy, when it is lighter by more than the
 * imbalance margin (117 %).  Two busy CPUs that both
 * have spare capacity keep the child local whatever their loads (the old
 * model took the least loaded CPU).
 */
static void test_fork_slow_path(void)
{
	static const struct {
		unsigned int nr0, nr1;
		unsigned long util0, util1, load0, load1;
		int cpu;
	} cases[] = {
		{ 1, 0, 300, 0, 1024, 0, 1 },          /* CPU 1 idle: more idle CPUs */
		{ 1, 1, 300, 300, 3000, 100, 0 },      /* both spare, no idle CPU: local */
		{ 2, 1, 1000, 300, 2048, 1024, 1 },    /* local overloaded, other spare */
		{ 1, 2, 300, 1000, 1024, 2048, 0 },    /* local spare, other overloaded */
		{ 1, 1, 950, 950, 2048, 1024, 1 },     /* both fully busy, 2048 > 1.17 x 1024 */
		{ 1, 1, 950, 950, 2048, 1900, 0 },     /* within 117 % */
		{ 1, 1, 950, 950, 1100, 1000, 0 },     /* 1100 <= 1.17 x 1000 */
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct model *m = mk("base", false);
		struct model_task *c = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 9, NULL);

		m->rqs[0].nr_running = cases[k].nr0;
		m->rqs[1].nr_running = cases[k].nr1;
		m->rqs[0].cfs.avg.util_avg = cases[k].util0;
		m->rqs[1].cfs.avg.util_avg = cases[k].util1;
		m->rqs[0].cfs.avg.runnable_avg = cases[k].util0;
		m->rqs[1].cfs.avg.runnable_avg = cases[k].util1;
		m->rqs[0].cfs.avg.load_avg = cases[k].load0;
		m->rqs[1].cfs.avg.load_avg = cases[k].load1;
		if (model_select_task_rq(m, c, 0, MODEL_WF_FORK, 1000000) != cases[k].cpu)
			fprintf(stderr, "fork case %zu:\n", k);
		CHECK_EQ_S(model_select_task_rq(m, c, 0, MODEL_WF_FORK, 1000000), cases[k].cpu);
		m->rqs[0].nr_running = m->rqs[1].nr_running = 0;
		model_free(m);
	}
}

/*
 * sched_exec() (MODEL_WF_EXEC, --placement model): the slow path from the
 * exec'ing task's own CPU with that running task left out of its CPU's
 * statistics (update_sg_wakeup_stats()'s *_without() and
 * task_running_on_cpu()).  E runs on CPU 0: alone there, with CPU 1 idle,
 * both groups have one idle CPU and E stays (the wakeup path would have taken
 * idle CPU 1); with Q queued behind it CPU 0 is not idle without E and E goes
 * to idle CPU 1; with CPU 1 running a task instead, E alone stays (more idle
 * CPUs here).
 */
static int exec_case(bool queued0, bool busy1)
{
	struct model *m = mk("base", true);
	struct model_task *e = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *q = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	struct model_task *b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	uint64_t now = 1000000000ULL;
	int cpu;

	model_wake_up_new_task(m, e, 0, 0, now);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == e);
	if (queued0)
		model_wake_up_new_task(m, q, 0, 0, now);
	if (busy1) {
		model_wake_up_new_task(m, b, 1, 1, now);
		CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, now) == b);
	}
	now += 2000000;
	cpu = model_select_task_rq(m, e, 0, MODEL_WF_EXEC, now);
	CHECK_EQ_U(m->counters[MC_sched_exec], 1);
	CHECK_EQ_U(m->counters[MC_sched_exec_moved], cpu != 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
	return cpu;
}

static void test_exec_balance(void)
{
	CHECK_EQ_S(exec_case(false, false), 0);
	CHECK_EQ_S(exec_case(true, false), 1);
	CHECK_EQ_S(exec_case(false, true), 0);
}

/*
 * The capture kernel's sched_vcpu_pack step (vcpu_pack_room(), docs/model.md
 * "The sweep"), at cells of the measured table: P last ran on CPU 0, which
 * went idle (newidle: idle_stamp) X before the wakeup; the waker W runs on
 * CPU 1 with CPU 1's utilisation set to the cell's; P's own util_avg is 4
 * (the probe's wakee: a few units).  Packed (1) when W's CPU runs only W and
 * util + 4 < U(X): U = 355 at 1 ms, 533 at 2 ms, 594 at 3 ms, 680 from 5 ms,
 * 0 up to 100 us, linear in between.  Expected outcome next to what the
 * capture kernel did in that cell (idle prev chosen / wakeups).
 */
enum pack_beside { PACK_ALONE, PACK_QUEUED, PACK_DELAYED, PACK_EXITING };

static int pack_case(bool vcpu_pack, uint64_t idle_ns, unsigned long util1,
		     enum pack_beside beside, int flags)
{
	struct model *m = mk_pack("base", false, vcpu_pack);
	struct model_task *p = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *w = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	struct model_task *q = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	struct model_task *c = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 4, NULL);
	uint64_t now = 1000000000ULL, t0;
	int cpu;

	model_wake_up_new_task(m, p, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	model_wake_up_new_task(m, w, 1, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	t0 = now + 50000;
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, t0) == NULL);   /* P blocks, CPU 0 idles */
	CHECK_EQ_U(m->rqs[0].idle_stamp, t0);
	if (beside == PACK_QUEUED)
		model_wake_up_new_task(m, q, 1, 1, t0);                  /* waits behind W */
	if (beside == PACK_EXITING)
		CHECK(model_task_exit_move(m, w, t0) == 0);              /* do_exit() */
	CHECK_EQ_U(m->rqs[1].nr_running, beside == PACK_QUEUED ? 2 : 1);
	if (beside == PACK_DELAYED) {
		/* a sleeper kept queued by DELAY_DEQUEUE: queued, not runnable */
		m->rqs[1].nr_running++;
		m->rqs[1].cfs.h_nr_queued++;
		m->rqs[1].cfs.h_nr_delayed++;
	}
	m->rqs[1].cfs.avg.util_avg = util1;
	p->se.avg.util_avg = 4;
	cpu = model_select_task_rq(m, flags & MODEL_WF_FORK ? c : p, 1, flags, t0 + idle_ns);
	if (vcpu_pack)
		CHECK_EQ_U(m->counters[MC_vcpu_pack_room], 1);
	CHECK_EQ_U(m->counters[MC_vcpu_pack_room_packed], cpu == 1);
	if (beside == PACK_DELAYED) {
		m->rqs[1].nr_running--;
		m->rqs[1].cfs.h_nr_queued--;
		m->rqs[1].cfs.h_nr_delayed--;
	}
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
	return cpu == 1;
}

/*
 * --vcpu-pack-cut flat (model_config.vcpu_pack_flat): the long-idle cut U =
 * 680 at every idle time of the idle CPU - at 50 us, 1 ms and 10 ms alike a
 * waker's CPU at 575 (+ 4) packs and one at 680 (+ 4) does not; with the
 * sweep's cut (the default) the 50 us and 1 ms cases do not pack.
 */
static void test_vcpu_pack_flat(void)
{
	static const uint64_t idle_us[] = { 50, 1000, 10000 };
	size_t k;

	pack_flat = true;
	for (k = 0; k < sizeof(idle_us) / sizeof(idle_us[0]); k++) {
		CHECK_EQ_S(pack_case(true, idle_us[k] * 1000, 575, PACK_ALONE, MODEL_WF_TTWU), 1);
		CHECK_EQ_S(pack_case(true, idle_us[k] * 1000, 675, PACK_ALONE, MODEL_WF_TTWU), 1);
		CHECK_EQ_S(pack_case(true, idle_us[k] * 1000, 680, PACK_ALONE, MODEL_WF_TTWU), 0);
		CHECK_EQ_S(pack_case(true, idle_us[k] * 1000, 575, PACK_QUEUED, MODEL_WF_TTWU), 0);
	}
	pack_flat = false;
	CHECK_EQ_S(pack_case(true, 50000, 575, PACK_ALONE, MODEL_WF_TTWU), 0);
	CHECK_EQ_S(pack_case(true, 1000000, 575, PACK_ALONE, MODEL_WF_TTWU), 0);
}

/*
 * model_config.newidle_ratio (--newidle-ratio): every domain starts at the
 * given ratio with newidle_success = ratio / 2 of newidle_call = 512 (the
 * same rate), else at sd_init()'s 512 / 256.  With ratio 0 NI_RANDOM runs a
 * newidle balance only when its 1k-sided die shows 0 or 1: of 200 newidle
 * passes that pass the entry tests, at most a handful balance a domain.
 */
static struct model *mk_ratio(bool given, unsigned int ratio)
{
	static struct model_variant_set vs;
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 11 };

	model_variant_set_parse(&vs, "base", NULL);
	cfg.profile = model_profile_find("6.18");
	cfg.variants = &vs;
	cfg.newidle_ratio_given = given;
	cfg.newidle_ratio = ratio;
	return model_new(&cfg, NULL);
}

static void test_newidle_ratio(void)
{
	struct model *m = mk_ratio(true, 64);
	struct sched_domain *sd = &m->rqs[0].sd[0];
	struct model_task *a, *b;
	uint64_t now = 1000000000ULL;
	int i;

	CHECK_EQ_U(sd->newidle_ratio, 64);
	CHECK_EQ_U(sd->newidle_success, 32);
	CHECK_EQ_U(sd->newidle_call, 512);
	CHECK_EQ_U(m->rqs[1].sd[0].newidle_ratio, 64);
	model_free(m);
	m = mk_ratio(false, 64);
	sd = &m->rqs[0].sd[0];
	CHECK_EQ_U(sd->newidle_ratio, 512);
	CHECK_EQ_U(sd->newidle_success, 256);
	model_free(m);

	m = mk_ratio(true, 0);
	a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	model_wake_up_new_task(m, a, 0, 0, now);
	model_wake_up_new_task(m, b, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	for (i = 0; i < 200; i++) {
		m->rd_overloaded = true;
		m->rqs[1].avg_idle = 1000000;
		sched_balance_newidle(m, &m->rqs[1]);
	}
	CHECK(m->counters[MC_newidle_balance_random_skip] >= 190);
	model_free(m);
}

/*
 * update_newidle_stats() (kernel/sched/fair.c, the NI_RANDOM window): every
 * newidle pass of a domain counts a call and adds its success; at 1024
 * calls the ratio becomes the successes so far and both counts are halved.
 * A domain at 1023 calls and 701 successes, balanced once with nothing to
 * pull (CPU 0 runs its only task): call 1024, success 701 + 0 -> ratio 701,
 * call 512, success 701 / 2 = 350.  The next pass counts from there: 513 /
 * 350.
 */
static void test_newidle_stats_window(void)
{
	struct model *m = mk_ratio(true, 1023);   /* NI_RANDOM: always balance */
	struct sched_domain *sd = &m->rqs[1].sd[0];
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	uint64_t now = 1000000000ULL;

	model_wake_up_new_task(m, a, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	sd->newidle_call = 1023;
	sd->newidle_success = 701;
	m->rd_overloaded = true;
	m->rqs[1].avg_idle = 10000000;
	CHECK_EQ_S(sched_balance_newidle(m, &m->rqs[1]), 0);
	CHECK_EQ_U(m->counters[MC_newidle_balance_domains], 1);
	CHECK_EQ_U(sd->newidle_ratio, 701);
	CHECK_EQ_U(sd->newidle_call, 512);
	CHECK_EQ_U(sd->newidle_success, 350);
	/* the ratio is now 701: the die (0..1023) may skip; either way one call */
	m->rd_overloaded = true;
	m->rqs[1].avg_idle = 10000000;
	sched_balance_newidle(m, &m->rqs[1]);
	CHECK_EQ_U(sd->newidle_call, 513);
	CHECK_EQ_U(sd->newidle_success, 350);
	model_free(m);
}

/*
 * model_overload_info(), the record of who set and cleared rd->overloaded
 * (kernel/sched/sched.h add_nr_running(): prev_nr < 2 && nr_running >= 2;
 * fair.c update_sd_lb_stats(): at !env->sd->parent, set_rd_overloaded() to
 * "a CPU with nr_running > 1").  Two tasks woken on CPU 0: the second
 * enqueue sets it (site enqueue, CPU 0, sets 1).  CPU 1's newidle pass with
 * the die always letting the walk run (ratio 1023): CPU 0 still has 2
 * runnable, the walk keeps the flag (after=1, no clear).  Both of CPU 0's
 * tasks sleep: CPU 0's own newidle pass (its delayed entities dequeued by
 * the pick first) clears it (site newidle, CPU 0, clears 1; before 1, after
 * 0).  One task woken back: 1 runnable, no set.  Set again by hand: CPU 1's
 * pass clears it (newidle, CPU 1, clears 2); set again, CPU 0's tick a
 * second later runs its due periodic balance, which clears it (periodic,
 * CPU 0, at the tick's clock, clears 3).  The other task woken on CPU 0 sets
 * it (sets 2).
 */
static void test_overload_record(void)
{
	struct model *m = mk_ratio(true, 1023);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	const struct model_newidle_info *ni = model_last_newidle(m);
	struct model_overload_info ov;
	uint64_t now = 1000000000ULL;

	model_overload_info(m, &ov);
	CHECK(!ov.overloaded);
	CHECK_EQ_U(ov.sets, 0);
	CHECK_EQ_U(ov.last_set.site, MODEL_OVERLOAD_NONE);
	model_wake_up_new_task(m, a, 0, 0, now);
	model_overload_info(m, &ov);
	CHECK_EQ_U(ov.sets, 0);
	model_wake_up_new_task(m, b, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	model_overload_info(m, &ov);
	CHECK(ov.overloaded);
	CHECK_EQ_U(ov.sets, 1);
	CHECK_EQ_U(ov.clears, 0);
	CHECK_EQ_U(ov.last_set.site, MODEL_OVERLOAD_ENQUEUE);
	CHECK_EQ_S(ov.last_set.cpu, 0);

	m->rqs[1].avg_idle = 10000000;
	sched_balance_newidle(m, &m->rqs[1]);
	CHECK_EQ_U(ni->outcome, MODEL_NEWIDLE_RAN);
	CHECK_EQ_U(ni->balanced, 1);
	CHECK(ni->rd_overloaded && ni->rd_overloaded_after);
	model_overload_info(m, &ov);
	CHECK(ov.overloaded);
	CHECK_EQ_U(ov.clears, 0);

	now += 1000000;
	m->rqs[0].avg_idle = 10000000;
	model_schedule(m, 0, MODEL_PREV_SLEEP, now);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now + 1000) == NULL);
	CHECK_EQ_U(m->rqs[0].nr_running, 0);
	CHECK_EQ_S(ni->cpu, 0);
	CHECK(ni->rd_overloaded && !ni->rd_overloaded_after);
	model_overload_info(m, &ov);
	CHECK(!ov.overloaded);
	CHECK_EQ_U(ov.clears, 1);
	CHECK_EQ_U(ov.last_clear.site, MODEL_OVERLOAD_NEWIDLE);
	CHECK_EQ_S(ov.last_clear.cpu, 0);
	model_try_to_wake_up(m, a, 0, 0, MODEL_WF_TTWU, now + 2000);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now + 2000);
	model_overload_info(m, &ov);
	CHECK(!ov.overloaded);
	CHECK_EQ_U(ov.sets, 1);

	m->rd_overloaded = true;
	m->rqs[1].avg_idle = 10000000;
	sched_balance_newidle(m, &m->rqs[1]);
	model_overload_info(m, &ov);
	CHECK(!ov.overloaded);
	CHECK_EQ_U(ov.clears, 2);
	CHECK_EQ_U(ov.last_clear.site, MODEL_OVERLOAD_NEWIDLE);
	CHECK_EQ_S(ov.last_clear.cpu, 1);

	m->rd_overloaded = true;
	now += 1000000000ULL;
	model_tick(m, 0, now);
	model_overload_info(m, &ov);
	CHECK(!ov.overloaded);
	CHECK_EQ_U(ov.clears, 3);
	CHECK_EQ_U(ov.last_clear.site, MODEL_OVERLOAD_PERIODIC);
	CHECK_EQ_S(ov.last_clear.cpu, 0);
	CHECK_EQ_U(ov.last_clear.at, now);

	model_try_to_wake_up(m, b, 0, 0, MODEL_WF_TTWU, now + 1000);
	model_overload_info(m, &ov);
	CHECK(ov.overloaded);
	CHECK_EQ_U(ov.sets, 2);
	CHECK_EQ_U(ov.last_set.site, MODEL_OVERLOAD_ENQUEUE);
	CHECK_EQ_S(ov.last_set.cpu, 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * The decay of max_newidle_lb_cost (update_newidle_cost() called with cost 0
 * by sched_balance_domains(), kernel/sched/fair.c): at most once per HZ
 * jiffies after last_decay_max_lb_cost, strictly after (time_after()), the
 * cost becomes cost x 253 / 256, and the rq's max_idle_balance_cost the
 * larger of sysctl_sched_migration_cost (500 us) and the domains' sum.  CPU
 * 0 busy, its periodic balance due at the tick to jiffy 251 (hz 250):
 * last decay at jiffy 1: next_decay 251, not after -> unchanged; at jiffy
 * 0: next_decay 250 < 251 -> 1000000 x 253 / 256 = 988281, the rq's max
 * 988281 (> 500000), last decay 251.  A cost of 400000 decays to 395312 and
 * the rq's max to 500000.
 */
static void test_newidle_cost_decay(unsigned long last, uint64_t cost, uint64_t want,
				    uint64_t want_rq)
{
	struct model *m = mk("base", false);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct rq *rq0 = &m->rqs[0];
	uint64_t now = 1000000000ULL;

	model_wake_up_new_task(m, a, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	CHECK_EQ_S(rq0->nr_sd, 1);
	rq0->next_balance = 0;
	rq0->max_idle_balance_cost = 7;
	rq0->sd[0].max_newidle_lb_cost = cost;
	rq0->sd[0].last_decay_max_lb_cost = last;
	model_tick(m, 0, now + 4000000);
	CHECK_EQ_U(m->jiffies, 251);
	CHECK_EQ_U(m->counters[MC_periodic_balance], 1);
	CHECK_EQ_U(rq0->sd[0].max_newidle_lb_cost, want);
	CHECK_EQ_U(rq0->sd[0].last_decay_max_lb_cost, want == cost ? last : 251);
	CHECK_EQ_U(rq0->max_idle_balance_cost, want_rq);
	model_free(m);
}

static void test_vcpu_pack_room(void)
{
	static const struct {
		uint64_t idle_us;
		unsigned long util1;
		int packed;
		const char *kernel;   /* the sweep's cell: idle prev chosen / wakeups */
	} cells[] = {
		{ 1000, 125, 1, "6/79" },      { 1000, 375, 0, "52/97" },
		{ 1000, 575, 0, "57/57" },
		{ 2000, 125, 1, "166/1914" },  { 2000, 375, 1, "237/931" },
		{ 2000, 575, 0, "138/244" },   { 2000, 675, 0, "164/182" },
		{ 3000, 375, 1, "4/69" },      { 3000, 575, 1, "20/51" },
		{ 3000, 675, 0, "22/23" },
		{ 5000, 375, 1, "9/752" },     { 5000, 575, 1, "33/214" },
		{ 5000, 675, 1, "56/130" },    { 5000, 720, 0, "168/169" },
		{ 10000, 575, 1, "6/50" },     { 10000, 720, 0, "2/3" },
		{ 50, 0, 0, "11:05 g/s < 100 us: 88/95" },
	};
	size_t k;

	for (k = 0; k < sizeof(cells) / sizeof(cells[0]); k++) {
		int got = pack_case(true, cells[k].idle_us * 1000, cells[k].util1, PACK_ALONE,
				    MODEL_WF_TTWU);

		if (got != cells[k].packed)
			fprintf(stderr, "vcpu_pack cell %zu: idle %llu us, util %lu (kernel %s)\n", k,
				(unsigned long long)cells[k].idle_us, cells[k].util1, cells[k].kernel);
		CHECK_EQ_S(got, cells[k].packed);
		/* mainline (the option off) takes the idle prev in every cell */
		CHECK_EQ_S(pack_case(false, cells[k].idle_us * 1000, cells[k].util1, PACK_ALONE,
				     MODEL_WF_TTWU), 0);
	}
	/* the cut, exactly: U(1.5 ms) = 355 + (533 - 355) / 2 = 444; util + 4 < U */
	CHECK_EQ_S(pack_case(true, 1500000, 439, PACK_ALONE, MODEL_WF_TTWU), 1);
	CHECK_EQ_S(pack_case(true, 1500000, 440, PACK_ALONE, MODEL_WF_TTWU), 0);
	/* U(550 us) = 355 x 450 / 900 = 177 */
	CHECK_EQ_S(pack_case(true, 550000, 172, PACK_ALONE, MODEL_WF_TTWU), 1);
	CHECK_EQ_S(pack_case(true, 550000, 173, PACK_ALONE, MODEL_WF_TTWU), 0);
	/* another task queued beside the waker: mainline (3 035 of 3 071) */
	CHECK_EQ_S(pack_case(true, 5000000, 125, PACK_QUEUED, MODEL_WF_TTWU), 0);
	/* a delayed sleeper beside the waker does not count; an exiting waker
	 * (do_notify_parent(): 361 of 388 to the idle prev) does not pack */
	CHECK_EQ_S(pack_case(true, 5000000, 125, PACK_DELAYED, MODEL_WF_TTWU), 1);
	CHECK_EQ_S(pack_case(true, 5000000, 125, PACK_EXITING, MODEL_WF_TTWU | MODEL_WF_SYNC), 0);
	/* sync wakeups too (pipe writes were packed) */
	CHECK_EQ_S(pack_case(true, 5000000, 125, PACK_ALONE, MODEL_WF_TTWU | MODEL_WF_SYNC), 1);
	/*
	 * Forks from W on CPU 1 (mode k, CPU 0 idle 2-5 ms): not queued, util
	 * < 700 stays (5 of 750 to the idle CPU), >= 700 goes (47 of 59);
	 * queued goes (65 of 65).  The child's util_avg is 0 at the choice.
	 */
	CHECK_EQ_S(pack_case(true, 3000000, 125, PACK_ALONE, MODEL_WF_FORK), 1);
	CHECK_EQ_S(pack_case(true, 5000000, 675, PACK_ALONE, MODEL_WF_FORK), 1);
	CHECK_EQ_S(pack_case(true, 5000000, 720, PACK_ALONE, MODEL_WF_FORK), 0);
	CHECK_EQ_S(pack_case(true, 3000000, 125, PACK_QUEUED, MODEL_WF_FORK), 0);
	CHECK_EQ_S(pack_case(false, 3000000, 125, PACK_ALONE, MODEL_WF_FORK), 0);
}

/*
 * NO_HZ idle (model_idle_tick()): a CPU going idle with its tick kept
 * (tick_nohz_next_event() found a timer within TICK_NSEC, so
 * tick_nohz_idle_stop_tick() did not stop it) stays out of the nohz mask;
 * when the tick stops later it joins (tick_nohz_stop_tick() ->
 * nohz_balance_enter_idle()); without model_idle_tick() every idle entry
 * joins at once.
 */
static void test_idle_tick_kept(void)
{
	struct model *m = mk("base", false);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	uint64_t now = 1000000000ULL;

	model_wake_up_new_task(m, a, 1, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	model_tick(m, 1, now + 4000000);
	CHECK(!m->rqs[1].nohz_idle);
	model_idle_tick(m, 1, true);
	model_schedule(m, 1, MODEL_PREV_SLEEP, now + 5000000);
	CHECK(!m->rqs[1].nohz_idle);              /* tick kept: not in the mask */
	CHECK_EQ_U(m->nohz.nr_cpus, 0);
	model_tick(m, 1, now + 8000000);          /* the kept idle tick */
	CHECK(!m->rqs[1].nohz_idle);
	model_idle_tick(m, 1, false);             /* only the next entry's rule */
	CHECK(!m->rqs[1].nohz_idle);
	model_idle_tick_stop(m, 1);               /* the tick stops now */
	CHECK(m->rqs[1].nohz_idle);
	CHECK_EQ_U(m->nohz.nr_cpus, 1);
	CHECK(m->rqs[1].has_blocked_load);
	model_idle_tick_stop(m, 1);               /* once */
	CHECK_EQ_U(m->nohz.nr_cpus, 1);
	/* woken: its busy tick leaves the mask; the next idle entry stops the tick */
	model_try_to_wake_up(m, a, 1, -1, MODEL_WF_TTWU, now + 9000000);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now + 9000000);
	model_idle_tick_stop(m, 1);               /* busy: nothing */
	CHECK(m->rqs[1].nohz_idle);               /* until its busy tick */
	model_tick(m, 1, now + 12000000);
	CHECK(!m->rqs[1].nohz_idle);
	model_schedule(m, 1, MODEL_PREV_SLEEP, now + 13000000);
	CHECK(m->rqs[1].nohz_idle);
	CHECK_EQ_U(m->nohz.nr_cpus, 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

int main(void)
{
	test_idle_tick_kept();
	test_newidle("base", false);
	test_newidle("lazy-blocked-update", true);
	test_newidle_pre516();
	test_blocked_load();
	test_pull();
	test_pull_cache_hot(false);
	test_pull_cache_hot(true);
	test_idle_cpu_scan();
	test_select_idle_sibling();
	test_wake_affine_tie();
	test_fork_slow_path();
	test_exec_balance();
	test_vcpu_pack_room();
	test_vcpu_pack_flat();
	test_newidle_ratio();
	test_newidle_stats_window();
	test_overload_record();
	test_newidle_cost_decay(1, 1000000, 1000000, 7);
	test_newidle_cost_decay(0, 1000000, 988281, 988281);
	test_newidle_cost_decay(0, 400000, 395312, 500000);
	return check_done("balance");
}
