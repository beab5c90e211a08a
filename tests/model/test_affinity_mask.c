// SPDX-License-Identifier: GPL-2.0
/*
 * A task's cpus_mask of several CPUs but not all (model_task_set_allowed_mask()):
 * an exact case of select_idle_sibling()'s scan and the fork slow path on
 * four CPUs, LBF_DST_PINNED's retry on two nodes, and an invariant over
 * random wakeups, forks, sleeps, ticks and balances on a 4- and an 8-CPU
 * machine: a task allowed {2,3} is never placed or moved elsewhere.
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "sched.h"

static struct model *mk(unsigned int nr_cpus, const int *nodes, bool moves, uint64_t seed)
{
	static struct model_variant_set vs;
	struct model_config cfg = { .nr_cpus = nr_cpus, .cpu_node = nodes, .hz = 250,
				    .seed = seed };

	model_variant_set_parse(&vs, "base", NULL);
	cfg.profile = model_profile_find("6.18");
	cfg.variants = &vs;
	cfg.balance_moves_tasks = moves;
	return model_new(&cfg, NULL);
}

static uint64_t mask_of(unsigned int a, unsigned int b)
{
	return 1ULL << a | 1ULL << b;
}

/* The forms: none refused, one CPU and all CPUs are the old ones. */
static void test_forms(void)
{
	struct model *m = mk(4, NULL, false, 1);
	struct model_task *p = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	uint64_t w;
	struct sr_error err = { 0 };

	w = 0;
	CHECK_EQ_S(model_task_set_allowed_mask(m, p, &w, 64, &err), -1);
	CHECK(strstr(err.msg, "allows none") != NULL);
	w = 1ULL << 40;                         /* past the model's CPUs: none */
	CHECK_EQ_S(model_task_set_allowed_mask(m, p, &w, 64, NULL), -1);
	w = 1ULL << 2;
	CHECK_EQ_S(model_task_set_allowed_mask(m, p, &w, 64, NULL), 0);
	CHECK(p->pinned && p->allowed_cpu == 2 && !p->cpus_mask);
	w = 0xf | 1ULL << 40;
	CHECK_EQ_S(model_task_set_allowed_mask(m, p, &w, 64, NULL), 0);
	CHECK(!p->pinned && p->allowed_cpu == -1 && !p->cpus_mask);
	w = mask_of(2, 3);
	CHECK_EQ_S(model_task_set_allowed_mask(m, p, &w, 64, NULL), 0);
	CHECK(!p->pinned && p->cpus_mask && p->nr_cpus_allowed == 2);
	CHECK(!model_task_cpu_allowed(m, p, 0) && !model_task_cpu_allowed(m, p, 1));
	CHECK(model_task_cpu_allowed(m, p, 2) && model_task_cpu_allowed(m, p, 3));
	CHECK(!model_task_cpu_allowed(m, p, 4));
	w = mask_of(2, 3);
	CHECK_EQ_S(model_task_set_allowed_mask(m, p, &w, 3, NULL), 0);  /* nbits cuts CPU 3 */
	CHECK(p->pinned && p->allowed_cpu == 2 && !p->cpus_mask);
	model_task_set_allowed_cpu(m, p, -1);
	CHECK(!p->cpus_mask && !p->pinned);
	model_free(m);
}

/* Run a new task @t on @cpu. */
static void run_on(struct model *m, struct model_task *t, int cpu, uint64_t now)
{
	model_wake_up_new_task(m, t, cpu, cpu, now);
	CHECK(model_schedule(m, cpu, MODEL_PREV_RUNNABLE, now) == t);
}

/*
 * Four CPUs, one LLC.  P (allowed {2,3}) slept on CPU 2; A runs on CPU 2,
 * B on CPU 3; CPUs 0 and 1 idle; select_idle_cpu() may scan them all.
 * A wakes P: target = prev = 2 busy; recent_used_cpu 1 is idle but not
 * allowed; the scan from CPU 3 round to 2 passes 0 and 1 (idle, not in
 * the mask): P stays on 2 (with the mask of all CPUs it went to 0).  An
 * interrupt on idle CPU 0 wakes P: CPU 0 is not allowed, so no
 * wake_affine (want_affine false) - prev 2 is the target, and still no
 * allowed idle CPU.  B sleeps: the scan finds 3.  A fork from CPU 0 with
 * CPUs 0, 1, 3 idle: the slow path skips the groups {0}, {1} and takes 3;
 * with all CPUs allowed the child stays on its parent's idle group.  A
 * choice the mask leaves out (a prev the mask no longer has) goes to
 * select_fallback_rq(): the first allowed CPU of prev's node.
 */
static void test_select_idle_sibling_mask(void)
{
	struct model *m = mk(4, NULL, false, 1);
	struct model_task *p, *a, *b, *c, *f;
	uint64_t now = 1000000000ULL, w = mask_of(2, 3), all = 0xf;

	p = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	a = model_task_new(m, NULL, -20, MODEL_POLICY_NORMAL, 2, NULL);
	b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	c = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 4, NULL);
	f = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 5, NULL);
	run_on(m, p, 2, now);
	now += 100000;
	model_schedule(m, 2, MODEL_PREV_SLEEP, now);
	run_on(m, a, 2, now);
	run_on(m, b, 3, now);
	m->nr_idle_scan[0] = 4;

	CHECK_EQ_S(model_select_task_rq(m, p, 2, MODEL_WF_TTWU, now), 0);    /* all allowed */
	CHECK_EQ_S(model_task_set_allowed_mask(m, p, &w, 64, NULL), 0);
	p->recent_used_cpu = 1;
	CHECK_EQ_S(model_select_task_rq(m, p, 2, MODEL_WF_TTWU, now), 2);
	CHECK_EQ_S(p->recent_used_cpu, 2);
	CHECK_EQ_S(model_select_task_rq(m, p, 0, MODEL_WF_TTWU, now), 2);
	now += 100000;
	model_schedule(m, 3, MODEL_PREV_SLEEP, now);                          /* B sleeps */
	CHECK_EQ_S(model_select_task_rq(m, p, 2, MODEL_WF_TTWU, now), 3);
	CHECK_EQ_S(model_select_task_rq(m, p, 0, MODEL_WF_TTWU, now), 3);

	/* fork from a parent on CPU 0: its own group is skipped too */
	run_on(m, c, 0, now);
	CHECK_EQ_S(model_select_task_rq(m, f, 0, MODEL_WF_FORK, now), 1);   /* all: idle 1 */
	CHECK_EQ_S(model_task_set_allowed_mask(m, f, &w, 64, NULL), 0);
	CHECK_EQ_S(model_select_task_rq(m, f, 0, MODEL_WF_FORK, now), 3);

	/* select_fallback_rq(): prev 0 not allowed, every candidate busy */
	model_try_to_wake_up(m, b, 3, 3, MODEL_WF_TTWU, now);
	CHECK(model_schedule(m, 3, MODEL_PREV_RUNNABLE, now) == b);
	p->cpu = 0;
	p->recent_used_cpu = -1;
	CHECK_EQ_S(model_select_task_rq(m, p, 1, MODEL_WF_TTWU, now), 2);
	p->cpu = 2;
	CHECK_EQ_S(model_task_set_allowed_mask(m, p, &all, 64, NULL), 0);
	CHECK(!p->cpus_mask);
	model_free(m);
}

/*
 * LBF_DST_PINNED on two nodes {0,1} {2,3}: CPU 2 runs X and has Q1 and Q2
 * queued (allowed {1,2}), CPU 3 runs Y; CPUs 0 and 1 are idle.  CPU 0's
 * NUMA-level balance finds node 1 busiest and CPU 2 its busiest CPU; the
 * queued tasks refuse CPU 0 (LBF_SOME_PINNED) but allow CPU 1 of the local
 * node: the pass retries with CPU 1 as its destination and moves one there
 * (X, allowed {2,3} by then, never moves).
 */
static void test_dst_pinned(void)
{
	static const int nodes[4] = { 0, 0, 1, 1 };
	struct model *m = mk(4, nodes, true, 5);
	struct model_task *x, *y, *q1, *q2;
	uint64_t now = 1000000000ULL, w = mask_of(1, 2);
	struct lb_env env;
	struct rq *rq0 = &m->rqs[0];
	int moved;

	x = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	y = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	q1 = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	q2 = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 4, NULL);
	CHECK(rq0->nr_sd == 2 && rq0->sd[1].numa);
	run_on(m, x, 2, now);
	run_on(m, y, 3, now);
	model_wake_up_new_task(m, q1, 2, 2, now);
	model_wake_up_new_task(m, q2, 2, 2, now);
	CHECK_EQ_S(model_task_set_allowed_mask(m, q1, &w, 64, NULL), 0);
	CHECK_EQ_S(model_task_set_allowed_mask(m, q2, &w, 64, NULL), 0);
	for (int i = 0; i < 50; i++) {
		now += 4000000;
		model_tick(m, 2, now);
		model_tick(m, 3, now);
		model_schedule(m, 2, MODEL_PREV_RUNNABLE, now);
	}
	/* X, allowed {2,3} (Y's mask), stays; one of Q1, Q2 runs, one is queued */
	w = mask_of(2, 3);
	CHECK_EQ_S(model_task_set_allowed_mask(m, x, &w, 64, NULL), 0);
	CHECK_EQ_U(model_nr_queued(m, 2), 3);
	now += 10000000;                     /* cache cold (task_hot()) */
	model_tick(m, 2, now);
	model_tick(m, 3, now);
	rq0->sd[1].nr_balance_failed = 1;
	moved = sched_balance_rq(m, rq0, &rq0->sd[1], CPU_IDLE, &env);
	CHECK_EQ_S(moved, 1);
	CHECK_EQ_S(env.dst_rq->cpu, 1);
	CHECK((env.flags & LBF_SOME_PINNED) != 0);
	CHECK_EQ_U(model_nr_queued(m, 1), 1);
	CHECK_EQ_U(model_nr_queued(m, 0), 0);
	CHECK(q1->cpu == 1 || q2->cpu == 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/* what the hooks saw */
static struct { int migrated, from, to, stopped, stop_cpu, waker; } hk;

static void on_migrate(void *ctx, uint32_t id, int from, int to, uint64_t now)
{
	(void)ctx; (void)id; (void)now;
	hk.migrated++;
	hk.from = from;
	hk.to = to;
}

static void on_stopper(void *ctx, int cpu, int waker_cpu, uint64_t now)
{
	(void)ctx; (void)now;
	hk.stopped++;
	hk.stop_cpu = cpu;
	hk.waker = waker_cpu;
}

static struct model *mk_hooked(unsigned int nr_cpus, bool stopper)
{
	static struct model_variant_set vs;
	struct model_config cfg = { .nr_cpus = nr_cpus, .hz = 250, .seed = 1 };

	model_variant_set_parse(&vs, "base", NULL);
	cfg.profile = model_profile_find("6.18");
	cfg.variants = &vs;
	cfg.balance_moves_tasks = true;
	cfg.migrate_hook = on_migrate;
	cfg.stopper_hook = stopper ? on_stopper : NULL;
	return model_new(&cfg, NULL);
}

/*
 * model_task_set_affinity() on four CPUs, called from C running on CPU 0:
 * R runs on CPU 2 with Q queued behind it, P runs on CPU 3, S sleeps on
 * CPU 1.  CPU 0's distribute cursor starts at 0, so its first pick skips
 * CPU 0 (cpumask_any_and_distribute()).
 *  1. C's own mask {1,2}: dest 1 (first after 0), C running on the
 *     caller's CPU: *stop_dst = 1, no hook; the same mask again: nothing,
 *     cursor kept.
 *  2. Q's mask {0,1}: cursor 1 -> wraps to 0; Q is queued on CPU 2: moved
 *     to 0 at once (move_queued_task()), reported through migrate_hook.
 *  3. P's mask {1,2}: cursor 0 -> 1; P runs on CPU 3: stopper work queued
 *     on CPU 3 (stopper_hook with waker 0); model_cpu_stop() moves it to 1.
 *  4. S's mask {2,3}: cursor 1 -> 2, but S sleeps: not moved; its wakeup
 *     from CPU 1 goes to 2 or 3 (select_fallback_rq() if need be).
 *  5. R's mask {0,1} without @move (trace placement): the mask is set,
 *     nothing moves.
 *  6. CPU 3's cursor is its own: P's mask {0,1,2} from CPU 3 is unchanged
 *     for CPU 1 (allowed): no move.
 * Without a stopper_hook the running task's move is done at once.
 */
static void test_set_affinity(void)
{
	struct model *m = mk_hooked(4, true);
	struct model_task *c, *r, *q, *p, *sl;
	uint64_t now = 1000000000ULL, w;
	int dst;

	c = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	r = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	q = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	p = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 4, NULL);
	sl = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 5, NULL);
	run_on(m, c, 0, now);
	run_on(m, r, 2, now);
	run_on(m, p, 3, now);
	run_on(m, sl, 1, now);
	now += 100000;
	model_schedule(m, 1, MODEL_PREV_SLEEP, now);     /* before Q: no newidle pull */
	model_wake_up_new_task(m, q, 2, 2, now);
	CHECK(q->cpu == 2 && model_curr(m, 2) == r);
	memset(&hk, 0, sizeof(hk));
	CHECK_EQ_S(task_nr_cpus_allowed(m, c), 4);

	/* 1 */
	w = mask_of(1, 2);
	CHECK_EQ_S(model_task_set_affinity(m, c, 0, -1, &w, 64, true, now, &dst, NULL), 0);
	CHECK_EQ_S(dst, 1);
	CHECK_EQ_S(task_nr_cpus_allowed(m, c), 2);
	CHECK(hk.migrated == 0 && hk.stopped == 0 && c->cpu == 0);
	CHECK_EQ_S(m->rqs[0].distribute_prev, 1);
	CHECK_EQ_S(model_task_set_affinity(m, c, 0, -1, &w, 64, true, now, &dst, NULL), 0);
	CHECK_EQ_S(dst, -1);
	CHECK_EQ_S(m->rqs[0].distribute_prev, 1);

	/* 2 */
	w = mask_of(0, 1);
	CHECK_EQ_S(model_task_set_affinity(m, q, 0, -1, &w, 64, true, now, &dst, NULL), 0);
	CHECK_EQ_S(dst, -1);
	CHECK_EQ_S(q->cpu, 0);
	CHECK(hk.migrated == 1 && hk.from == 2 && hk.to == 0);
	CHECK_EQ_U(model_nr_queued(m, 2), 1);
	CHECK_EQ_S(m->rqs[0].distribute_prev, 0);

	/* 3 */
	w = mask_of(1, 2);
	CHECK_EQ_S(model_task_set_affinity(m, p, 0, -1, &w, 64, true, now, &dst, NULL), 0);
	CHECK_EQ_S(dst, -1);
	CHECK(hk.stopped == 1 && hk.stop_cpu == 3 && hk.waker == 0);
	CHECK(m->rqs[3].affine_task == p && m->rqs[3].affine_dst == 1 && p->cpu == 3);
	model_other_class(m, 3, true, MODEL_OTHER_RT, now);
	CHECK_EQ_S(model_cpu_stop(m, 3, false, now), 1);
	model_other_class(m, 3, false, MODEL_OTHER_RT, now);
	CHECK(p->cpu == 1 && !m->rqs[3].affine_task);
	CHECK(hk.migrated == 2 && hk.from == 3 && hk.to == 1);
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, now) == p);
	CHECK(model_schedule(m, 3, MODEL_PREV_RUNNABLE, now) == NULL);

	/* 4 */
	w = mask_of(2, 3);
	CHECK_EQ_S(model_task_set_affinity(m, sl, 0, -1, &w, 64, true, now, &dst, NULL), 0);
	CHECK(dst == -1 && sl->cpu == 1 && hk.migrated == 2);
	CHECK_EQ_S(m->rqs[0].distribute_prev, 2);
	dst = model_select_task_rq(m, sl, 1, MODEL_WF_TTWU, now);
	CHECK(dst == 2 || dst == 3);

	/* 5 */
	w = mask_of(0, 1);
	CHECK_EQ_S(model_task_set_affinity(m, r, 0, -1, &w, 64, false, now, &dst, NULL), 0);
	CHECK(dst == -1 && r->cpu == 2 && hk.migrated == 2 && hk.stopped == 1);
	CHECK(!model_task_cpu_allowed(m, r, 2) && model_task_cpu_allowed(m, r, 1));

	/* 6 */
	w = mask_of(0, 1) | 1ULL << 2;
	CHECK_EQ_S(model_task_set_affinity(m, p, 3, -1, &w, 64, true, now, &dst, NULL), 0);
	CHECK(dst == -1 && p->cpu == 1 && m->rqs[3].distribute_prev == 1);
	CHECK_EQ_S(task_nr_cpus_allowed(m, p), 3);

	/* one CPU and the error case */
	CHECK_EQ_S(model_task_set_affinity(m, p, 1, 3, NULL, 0, true, now, &dst, NULL), 0);
	CHECK(dst == 3 && p->pinned && task_nr_cpus_allowed(m, p) == 1);
	w = 0;
	CHECK_EQ_S(model_task_set_affinity(m, p, 1, -1, &w, 64, true, now, &dst, NULL), -1);
	CHECK(p->pinned && p->allowed_cpu == 3);
	/*
	 * a mask of none of the model's CPUs (CPUs 4..) is EINVAL, unchanged:
	 * replay/sim.c's affinity_op() takes that code, and that code only, as
	 * "all CPUs" (anything else, ENOMEM, stops the replay; fuzz51)
	 */
	{
		struct sr_error e = { 0 };

		w = 1ULL << 4 | 1ULL << 40;
		CHECK_EQ_S(model_task_set_affinity(m, p, 1, -1, &w, 64, true, now, &dst, &e), -1);
		CHECK_EQ_S(e.code, EINVAL);
		CHECK(p->pinned && p->allowed_cpu == 3 && dst == -1);
		CHECK_EQ_S(model_task_set_affinity(m, p, 1, -1, NULL, 0, true, now, &dst, NULL), 0);
		CHECK(!p->pinned && task_nr_cpus_allowed(m, p) == 4);
		CHECK_EQ_S(model_task_set_affinity(m, p, 1, 3, NULL, 0, true, now, &dst, NULL), 0);
	}
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);

	/* no stopper_hook: the stopper runs at once */
	m = mk_hooked(4, false);
	p = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	run_on(m, p, 3, now);
	memset(&hk, 0, sizeof(hk));
	CHECK_EQ_S(model_task_set_affinity(m, p, 0, 2, NULL, 0, true, now, &dst, NULL), 0);
	CHECK(dst == -1 && p->cpu == 2 && hk.migrated == 1 && hk.stopped == 0);
	CHECK(model_schedule(m, 2, MODEL_PREV_RUNNABLE, now) == p);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * select_task_rq()'s read of p->nr_cpus_allowed: on one CPU every task is
 * allowed one CPU and skips the class (no record_wakee()).
 */
static void test_one_cpu_select(void)
{
	struct model *m = mk(1, NULL, false, 1);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct model_task *b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	uint64_t now = 1000000000ULL;

	run_on(m, a, 0, now);
	model_wake_up_new_task(m, b, 0, 0, now);
	CHECK_EQ_S(task_nr_cpus_allowed(m, b), 1);
	now += 100000;
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now) == b);
	CHECK_EQ_S(model_select_task_rq(m, a, 0, MODEL_WF_TTWU, now), 0);
	CHECK(b->last_wakee == NULL && b->wakee_flips == 0);
	model_free(m);
}

/*
 * The invariant: over random wakeups (from random wakers), forks, sleeps,
 * preemptions, ticks and balances of every kind the model runs (newidle,
 * periodic at each level, active through the stopper), the tasks allowed
 * {2,3} are never on another CPU.  Some of them change mask midway to
 * {2,3} while running or asleep elsewhere: they must not be moved
 * elsewhere afterwards (a running task leaves by the caller's stopper, so
 * the test moves them itself, as the replay does).
 */
static unsigned long long rng_state;

static unsigned int rnd(unsigned int n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(rng_state >> 33) % n;
}

#define NT 24

static void invariant_run(unsigned int nr_cpus, const int *nodes, uint64_t seed,
			  unsigned int steps)
{
	struct model *m = mk(nr_cpus, nodes, true, seed);
	struct model_task *t[NT];
	bool masked[NT], started[NT];
	uint64_t now = 1000000000ULL, w = mask_of(2, 3);
	unsigned int i, step, violations = 0, placed = 0, balances = 0;
	unsigned int affinity_changes = 0, running_moves = 0, other_moves = 0;

	rng_state = seed;
	for (i = 0; i < NT; i++) {
		t[i] = model_task_new(m, NULL, (int)rnd(11) - 5, MODEL_POLICY_NORMAL, i + 1, NULL);
		masked[i] = i % 3 == 0;
		started[i] = false;
		if (masked[i])
			CHECK_EQ_S(model_task_set_allowed_mask(m, t[i], &w, 64, NULL), 0);
	}
	for (step = 0; step < steps; step++) {
		unsigned int k = rnd(NT), cpu = rnd(nr_cpus);
		struct model_task *p = t[k];
		int dst;

		now += 20000 + rnd(400000);
		switch (rnd(7)) {
		case 0:                                  /* fork (first start) */
			if (started[k])
				break;
			dst = model_select_task_rq(m, p, (int)cpu, MODEL_WF_FORK, now);
			placed++;
			if (masked[k] && dst != 2 && dst != 3)
				violations++;
			model_wake_up_new_task(m, p, (int)cpu, dst, now);
			started[k] = true;
			break;
		case 1:                                  /* wakeup */
			if (!started[k] || p->on_rq || p->state == TS_DEAD)
				break;
			dst = model_select_task_rq(m, p, (int)cpu, MODEL_WF_TTWU |
						   (rnd(2) ? MODEL_WF_SYNC : 0), now);
			placed++;
			if (masked[k] && dst != 2 && dst != 3)
				violations++;
			model_try_to_wake_up(m, p, dst, (int)cpu, MODEL_WF_TTWU, now);
			break;
		case 2:                                  /* the current on a CPU sleeps */
			if (model_curr(m, (int)cpu))
				model_schedule(m, (int)cpu, MODEL_PREV_SLEEP, now);
			break;
		case 3:                                  /* a preemption point */
			model_schedule(m, (int)cpu, MODEL_PREV_RUNNABLE, now);
			break;
		case 4: {                                /* a balance at some level */
			struct rq *rq = &m->rqs[cpu];
			struct lb_env env;
			int lvl = (int)rnd((unsigned int)rq->nr_sd);
			enum cpu_idle_type idle = rq->curr ? CPU_NOT_IDLE : CPU_IDLE;

			sched_balance_rq(m, rq, &rq->sd[lvl], idle, &env);
			balances++;
			for (unsigned int c = 0; c < nr_cpus; c++)
				if (m->rqs[c].active_balance) {
					model_other_class(m, (int)c, true, MODEL_OTHER_RT, now);
					model_cpu_stop(m, (int)c, false, now);
					model_other_class(m, (int)c, false, MODEL_OTHER_RT, now);
					model_schedule(m, (int)c, MODEL_PREV_RUNNABLE, now);
				}
			break;
		}
		case 5: {                                /* sched_setaffinity(): {2,3} or all */
			int caller = (int)cpu, sdst;
			bool running = started[k] && p->cpu >= 0 && model_curr(m, p->cpu) == p;

			if (running && rnd(2))
				caller = p->cpu;         /* the task changes its own mask */
			masked[k] = !masked[k];
			CHECK_EQ_S(model_task_set_affinity(m, p, caller, -1,
							   masked[k] ? &w : NULL, 64, true, now,
							   &sdst, NULL), 0);
			affinity_changes++;
			if (sdst >= 0) {
				/* the caller's stop_one_cpu(): its stopper moves it */
				CHECK(running && caller == p->cpu && masked[k]);
				model_other_class(m, caller, true, MODEL_OTHER_RT, now);
				CHECK_EQ_S(model_migrate_task(m, p, sdst, now), 0);
				model_other_class(m, caller, false, MODEL_OTHER_RT, now);
				model_schedule(m, caller, MODEL_PREV_RUNNABLE, now);
				running_moves++;
			} else if (running && masked[k] && p->cpu != 2 && p->cpu != 3) {
				violations++;
			} else if (running && masked[k]) {
				/* moved by another CPU's stopper, or allowed where it is */
				other_moves += model_curr(m, p->cpu) != p;
			}
			break;
		}
		default:                                 /* ticks everywhere */
			for (unsigned int c = 0; c < nr_cpus; c++) {
				model_tick(m, (int)c, now);
				if (model_need_resched(m, (int)c))
					model_schedule(m, (int)c, MODEL_PREV_RUNNABLE, now);
			}
			break;
		}
		/* a sleeper keeps its old CPU until its next placement */
		for (i = 0; i < NT; i++)
			if (masked[i] && started[i] && t[i]->on_rq && t[i]->cpu >= 0 &&
			    t[i]->cpu != 2 && t[i]->cpu != 3)
				violations++;
	}
	CHECK_EQ_U(violations, 0);
	CHECK(affinity_changes > steps / 10);
	CHECK(running_moves > 0);
	CHECK(placed > steps / 16);
	CHECK(balances > steps / 10);
	CHECK(m->counters[MC_load_balance_moved] > 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	printf("invariant %u CPUs seed %llu: %u affinity changes, %u own-CPU stopper moves, "
	       "%u by another CPU's stopper\n", nr_cpus, (unsigned long long)seed,
	       affinity_changes, running_moves, other_moves);
	model_free(m);
}

static void test_invariant(void)
{
	static const int nodes8[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };

	for (uint64_t s = 1; s <= 6; s++) {
		invariant_run(4, NULL, s, 4000);
		invariant_run(8, NULL, s, 4000);
		invariant_run(8, nodes8, s, 4000);
	}
}

int main(void)
{
	test_forms();
	test_select_idle_sibling_mask();
	test_dst_pinned();
	test_set_affinity();
	test_one_cpu_select();
	test_invariant();
	return check_done("affinity_mask");
}
