// SPDX-License-Identifier: GPL-2.0
/*
 * Regression tests of the fidelity review (docs/model.md "Fidelity review"):
 * one constructed scenario per discrepancy found between the model and the
 * kernel source (6.12.117 for the EEVDF profiles, 6.1.192 for CFS), each
 * with the value the kernel's code gives, derived in the comment.  Every one
 * of them failed before its fix.
 */
#include <string.h>

#include "check.h"
#include "sched.h"

#define T0 1000000000ULL          /* 1 s: jiffy 250 at HZ=250 */
#define TICK 4000000ULL

static struct model *mk(const char *profile, unsigned int nr_cpus, const int *nodes)
{
	struct model_config cfg = { .nr_cpus = nr_cpus, .cpu_node = nodes, .hz = 250, .seed = 7 };

	cfg.profile = model_profile_find(profile);
	return model_new(&cfg, NULL);
}

static struct model_task *fork_on(struct model *m, uint32_t id, int cpu, uint64_t now)
{
	struct model_task *t = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, id, NULL);

	model_wake_up_new_task(m, t, cpu, cpu, now);
	return t;
}

/*
 * rd->overloaded is set by add_nr_running() when a CPU reaches two tasks and
 * cleared only by update_sd_lb_stats() when the root domain is balanced
 * (fair.c: set_rd_overloaded(env->dst_rq->rd, sg_overloaded), sg_overloaded
 * = some CPU with nr_running > 1).  The model never cleared it, so every
 * later newidle pass went past its entry test.
 *
 * CPU 0 runs a and b (overloaded), CPU 1 runs c.  a exits (a sleeper would
 * stay queued, delayed, having run ahead of b): one task per CPU.  CPU 0's first tick is due for the periodic balance (next_balance =
 * jiffy 0): its MC domain is the root domain, nobody has two tasks ->
 * overloaded is cleared.  When c then sleeps, CPU 1's newidle pass stops at
 * !rd->overloaded: no update_blocked_averages().
 */
static void test_rd_overloaded_cleared(void)
{
	struct model *m = mk("6.18", 2, NULL);
	struct model_task *a, *c;

	a = fork_on(m, 1, 0, T0);
	fork_on(m, 2, 0, T0);
	c = fork_on(m, 3, 1, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0) == c);
	CHECK(m->rd_overloaded);

	model_schedule(m, 0, MODEL_PREV_DEAD, T0 + 1000000);    /* a exits, b runs */
	CHECK(m->rd_overloaded);                                   /* not recomputed yet */
	model_tick(m, 0, T0 + TICK);
	CHECK_EQ_U(m->counters[MC_update_blocked_averages_periodic], 1);
	CHECK(!m->rd_overloaded);
	CHECK_EQ_U(m->counters[MC_rd_overloaded_cleared], 1);

	CHECK(model_schedule(m, 1, MODEL_PREV_SLEEP, T0 + TICK + 1000) == NULL);
	CHECK_EQ_U(m->counters[MC_newidle_balance_skip], 1);
	CHECK_EQ_U(m->counters[MC_newidle_balance_run], 0);
	CHECK_EQ_U(m->counters[MC_update_blocked_averages_newidle], 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * sched_balance_rq() tunes sd->balance_interval (sd_init(): min_interval =
 * span weight, max_interval = 2 x span weight, in ms): a periodic balance
 * that finds the domain balanced doubles it (out_balanced/out_one_pinned),
 * one that finds an imbalance resets it to min_interval.  The model kept
 * the initial value, so busy CPUs balanced (and refreshed their blocked
 * load) twice as often as the kernel.
 *
 * 2 CPUs, HZ=250.  CPU 0 busy with one task, CPU 1 with one: the tick at
 * jiffy 251 balances MC (balanced) -> interval 2 -> 4 ms; the busy interval
 * is msecs_to_jiffies(4 * busy_factor 16 = 64 ms) - 1 = 15 jiffies (it was
 * 32 ms -> 8 - 1 = 7), so next_balance = 251 + 15 = 266.  Then CPU 1 gets
 * three queued tasks: at jiffy 266 CPU 0 sees an imbalance (3 >= 1 + 2) ->
 * interval back to 2 ms -> next_balance = 266 + 7.
 */
static void test_balance_interval(void)
{
	struct model *m = mk("6.18", 2, NULL);
	struct rq *rq0 = &m->rqs[0];
	uint64_t t = T0 + TICK;   /* jiffy 251 */
	int i;

	fork_on(m, 1, 0, T0);
	fork_on(m, 2, 1, T0);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0);
	CHECK_EQ_U(rq0->sd[0].balance_interval, 2);

	model_tick(m, 0, t);
	CHECK_EQ_U(m->jiffies, 251);
	CHECK_EQ_U(rq0->sd[0].balance_interval, 4);
	CHECK_EQ_U(rq0->sd[0].last_balance, 251);
	CHECK_EQ_U(rq0->next_balance, 251 + 15);
	CHECK_EQ_U(m->counters[MC_balance_interval_doubled], 1);

	/* no further balance (and no blocked-load refresh) before jiffy 266 */
	for (i = 0; i < 14; i++) {
		t += TICK;
		model_tick(m, 0, t);
	}
	CHECK_EQ_U(m->counters[MC_update_blocked_averages_periodic], 1);

	for (i = 0; i < 2; i++)
		fork_on(m, (uint32_t)(10 + i), 1, t);
	CHECK_EQ_U(model_nr_queued(m, 1), 3);
	t += TICK;                 /* jiffy 266 */
	model_tick(m, 0, t);
	CHECK_EQ_U(m->counters[MC_update_blocked_averages_periodic], 2);
	CHECK_EQ_U(rq0->sd[0].balance_interval, 2);
	CHECK_EQ_U(rq0->next_balance, 266 + 7);
	CHECK_EQ_U(m->counters[MC_balance_interval_reset], 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * should_we_balance(): periodically only one CPU per local group balances a
 * domain - the first idle CPU of the group, else its first CPU.  With two
 * nodes {0,1} {2,3} the NUMA domain's groups are the nodes: busy CPU 1 with
 * idle CPU 0 beside it does not balance NUMA (out_balanced: the interval
 * doubles, 4 -> 8 ms, and rd->overloaded, a root-domain statistic, is not
 * recomputed); once CPU 0 is busy too, CPU 1 is still not the group's first
 * CPU, and CPU 0's tick balances NUMA and clears the stale overloaded flag.
 */
static void test_should_we_balance(void)
{
	static const int nodes[4] = { 0, 0, 1, 1 };
	struct model *m = mk("6.18", 4, nodes);
	struct rq *rq0 = &m->rqs[0], *rq1 = &m->rqs[1];
	uint64_t t = T0 + TICK;

	CHECK_EQ_U(rq1->nr_sd, 2);
	CHECK(rq1->sd[1].numa && rq1->sd[1].top && !rq1->sd[0].top);
	fork_on(m, 1, 1, T0);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0);
	m->rd_overloaded = true;    /* stale, as left by an earlier burst */

	model_tick(m, 1, t);
	CHECK_EQ_U(rq1->sd[0].balance_interval, 4);   /* MC: balanced */
	CHECK_EQ_U(rq1->sd[1].balance_interval, 8);   /* NUMA: not CPU 1's turn */
	CHECK(m->rd_overloaded);

	fork_on(m, 2, 0, t);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, t);
	t += 40 * TICK;
	model_tick(m, 1, t);
	CHECK(m->rd_overloaded);
	model_tick(m, 0, t);
	CHECK(!m->rd_overloaded);
	CHECK_EQ_U(rq0->sd[1].balance_interval, 8);
	model_free(m);
}

/*
 * nohz_balancer_kick(): once nohz.next_balance is due, a busy CPU kicks a
 * full idle balance (NOHZ_STATS_KICK | NOHZ_BALANCE_KICK) not only when it
 * has two tasks but also when its LLC has more than one busy CPU
 * (sd_llc_shared->nr_busy_cpus > 1).  The model had only the first test.
 *
 * 4 CPUs, one LLC: CPUs 0 and 1 run a task each, 2 and 3 are idle in the
 * nohz mask.  Stats are not due (next_blocked ahead) but next_balance is:
 * CPU 0's tick (nr_running 1) kicks.  kick_ilb() sets next_balance =
 * jiffy + 1; the ilb balances CPUs 2 and 3 (their next_balance, 0, is due):
 * each finds MC balanced (nobody has 2 tasks), interval 4 -> 8 ms, next
 * balance 251 + msecs_to_jiffies(8) = 253, which becomes nohz.next_balance.
 * With CPU 1 idle as well (one busy CPU) there is no kick.
 */
static void test_nohz_llc_busy_kick(void)
{
	int busy1;

	for (busy1 = 0; busy1 <= 1; busy1++) {
		struct model *m = mk("6.18", 4, NULL);
		int cpu;

		for (cpu = 0; cpu < 4; cpu++) {
			fork_on(m, (uint32_t)cpu + 1, cpu, T0);
			model_schedule(m, cpu, MODEL_PREV_RUNNABLE, T0);
		}
		for (cpu = busy1 ? 2 : 1; cpu < 4; cpu++)
			model_schedule(m, cpu, MODEL_PREV_SLEEP, T0 + 1000000);
		CHECK_EQ_U(m->nohz.nr_cpus, busy1 ? 2 : 3);
		m->nohz.next_blocked = m->jiffies + 100;   /* stats not due */
		m->nohz.next_balance = m->jiffies;         /* balance due */
		m->nohz.needs_update = false;
		m->counters[MC_periodic_balance] = 0;
		m->counters[MC_nohz_stats_kick] = 0;

		model_tick(m, 0, T0 + TICK);
		CHECK_EQ_U(m->jiffies, 251);
		if (busy1) {
			CHECK_EQ_U(m->counters[MC_nohz_stats_kick], 1);
			/* CPU 0's own softirq (its next_balance 0 is due) + CPUs 2, 3 */
			CHECK_EQ_U(m->counters[MC_periodic_balance], 3);
			CHECK_EQ_U(m->rqs[2].sd[0].balance_interval, 8);
			CHECK_EQ_U(m->rqs[2].next_balance, 253);
			CHECK_EQ_U(m->nohz.next_balance, 253);
		} else {
			CHECK_EQ_U(m->counters[MC_nohz_stats_kick], 0);
			CHECK_EQ_U(m->counters[MC_periodic_balance], 1);   /* CPU 0's own */
			CHECK_EQ_U(m->nohz.next_balance, 250);
		}
		model_free(m);
	}
}

/*
 * NOHZ_NEXT_KICK: a CPU that entered the nohz mask sets nohz.needs_update;
 * the next busy tick kicks an ilb pass that only collects the idle CPUs'
 * earliest next_balance into nohz.next_balance (no stats, no balance).
 */
static void test_nohz_next_kick(void)
{
	struct model *m = mk("6.18", 2, NULL);

	fork_on(m, 1, 0, T0);
	fork_on(m, 2, 1, T0);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0);
	model_schedule(m, 1, MODEL_PREV_SLEEP, T0 + 1000000);
	CHECK(m->nohz.needs_update);
	m->nohz.next_blocked = m->jiffies + 100;
	m->nohz.next_balance = m->jiffies + 100;
	m->rqs[1].next_balance = 300;
	model_tick(m, 0, T0 + TICK);
	CHECK(!m->nohz.needs_update);
	CHECK_EQ_U(m->nohz.next_balance, 300);
	CHECK_EQ_U(m->counters[MC_nohz_stats_kick], 0);
	CHECK_EQ_U(m->counters[MC_update_blocked_averages], 1);   /* CPU 0's own softirq */
	model_free(m);
}

/*
 * nohz_balance_enter_idle() returns before touching nohz.has_blocked when
 * the CPU has no sched domain (on_null_domain(): a 1-CPU machine), so
 * nohz_newidle_balance() never kicks a blocked-load pass there.  The model
 * raised has_blocked and counted a NEWILB kick at the second idle entry.
 */
static void test_nohz_single_cpu(void)
{
	struct model *m = mk("6.18", 1, NULL);
	struct model_task *a = fork_on(m, 1, 0, T0);

	model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0);
	model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 1000000);
	CHECK(!m->nohz.has_blocked);
	model_try_to_wake_up(m, a, 0, -1, MODEL_WF_TTWU, T0 + 100000000);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 100000000);
	model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 101000000);
	CHECK_EQ_U(m->counters[MC_nohz_stats_kick], 0);
	CHECK(!m->nohz.has_blocked);
	model_free(m);
}

/*
 * NOHZ_NEWILB_KICK runs _nohz_idle_balance(NOHZ_STATS_KICK) from the idle
 * loop, after __schedule(): this CPU is idle then, and if it is still in the
 * nohz mask (no busy tick since its last idle period: the mask is left only
 * at a busy tick) its own blocked load is refreshed too.  The model saw its
 * previous task as curr and skipped it.
 *
 * CPU 1 idles at jiffy 250 (enters the mask), its task runs again 49 ms
 * later for 1 ms, no tick, and sleeps at jiffy 262: rd->overloaded is not
 * set, so newidle skips; stats are due (next_blocked 0) -> NEWILB pass ->
 * update_nohz_stats(CPU 1): one update_blocked_averages().
 */
static void test_newilb_includes_this_cpu(void)
{
	struct model *m = mk("6.18", 2, NULL);
	struct model_task *c;

	fork_on(m, 1, 0, T0);
	c = fork_on(m, 2, 1, T0);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0);
	model_schedule(m, 1, MODEL_PREV_SLEEP, T0 + 1000000);
	CHECK(m->rqs[1].nohz_idle);
	CHECK_EQ_U(m->counters[MC_nohz_stats_kick], 0);   /* has_blocked was 0 */
	model_try_to_wake_up(m, c, 1, -1, MODEL_WF_TTWU, T0 + 50000000);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0 + 50000000);
	CHECK(m->rqs[1].nohz_idle);
	CHECK(model_schedule(m, 1, MODEL_PREV_SLEEP, T0 + 51000000) == NULL);
	CHECK_EQ_U(m->jiffies, 262);
	CHECK_EQ_U(m->counters[MC_newidle_balance_skip], 2);
	CHECK_EQ_U(m->counters[MC_nohz_stats_kick], 1);
	CHECK_EQ_U(m->counters[MC_update_blocked_averages_nohz], 1);
	CHECK_EQ_U(m->rqs[1].last_blocked_load_update_tick, 262);
	CHECK_EQ_U(m->nohz.next_blocked, 262 + 8);
	model_free(m);
}

/*
 * CFS sched_slice() with BASE_SLICE (6.1 fair.c): the floor is
 * sysctl_sched_idle_min_granularity (0.75 ms, not scaled) for a SCHED_IDLE
 * entity only if its queue is not all-idle (!sched_idle_cfs_rq()); else the
 * normal min_granularity (0.75 ms x factor 2 = 1.5 ms on 2 CPUs).  The model
 * ignored the second condition.
 *
 * Group /g (cpu.shares 2) holds two SCHED_IDLE tasks next to a nice-0 task
 * in the root: the computed slice is 12 ms x 3/6 x 2048/(1048576 + 2048),
 * far below either floor, so sched_slice() returns the floor: 1.5 ms for the
 * all-idle /g queue, 0.75 ms once a normal task joins /g.
 */
static void test_cfs_idle_min_granularity(void)
{
	struct model *m = mk("6.5", 2, NULL);
	struct model_group *g = model_group_new(m, NULL, 2, "/g", NULL);
	struct model_task *i1 = model_task_new(m, g, 0, MODEL_POLICY_IDLE, 1, NULL);
	struct model_task *i2 = model_task_new(m, g, 0, MODEL_POLICY_IDLE, 2, NULL);
	struct model_task *n = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	struct model_task *n2 = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 4, NULL);

	model_wake_up_new_task(m, n, 0, 0, T0);
	model_wake_up_new_task(m, i1, 0, 0, T0);
	model_wake_up_new_task(m, i2, 0, 0, T0);
	CHECK_EQ_U(m->sysctl_sched_min_granularity, 1500000);
	CHECK_EQ_U(cfs_rq_of(&i1->se)->idle_nr_running, 2);
	CHECK_EQ_U(sched_slice(m, cfs_rq_of(&i1->se), &i1->se), 1500000);
	model_wake_up_new_task(m, n2, 0, 0, T0);
	CHECK_EQ_U(sched_slice(m, cfs_rq_of(&i1->se), &i1->se), 750000);
	model_free(m);
}

/*
 * set_user_nice() returns at once when the nice value does not change: no
 * dequeue/put/enqueue/set, so no update_curr() or update_load_avg().
 */
static void test_set_same_nice(void)
{
	struct model *m = mk("6.18", 2, NULL);
	struct model_task *a = fork_on(m, 1, 0, T0);
	uint64_t before[NR_MODEL_COUNTERS];

	model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0);
	memcpy(before, m->counters, sizeof(before));
	CHECK_EQ_S(model_task_set_nice(m, a, 0, T0 + 1000000), 0);
	CHECK(!memcmp(before, m->counters, sizeof(before)));
	CHECK_EQ_S(model_task_set_nice(m, a, 5, T0 + 1000000), 0);
	CHECK_EQ_U(m->counters[MC_dequeue_task_fair], before[MC_dequeue_task_fair] + 1);
	model_free(m);
}

/*
 * rt_mutex_setprio() leaves at out_unlock when the prio does not change (no
 * requeue, no prio_changed_fair()); a change requeues the task once.
 */
static void test_pi_same_prio(void)
{
	struct model *m = mk("6.18", 2, NULL);
	struct model_task *a = fork_on(m, 1, 0, T0);
	struct model_task *b = fork_on(m, 2, 0, T0);
	uint64_t before[NR_MODEL_COUNTERS];

	model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0);
	memcpy(before, m->counters, sizeof(before));
	CHECK_EQ_S(model_task_pi_setprio(m, b, 120, 120, T0 + 1000000), 0);
	CHECK(!memcmp(before, m->counters, sizeof(before)));
	CHECK_EQ_S(model_task_pi_setprio(m, b, 120, 110, T0 + 1000000), 0);
	CHECK_EQ_U(m->counters[MC_dequeue_task_fair], before[MC_dequeue_task_fair] + 1);
	(void)a;
	model_free(m);
}

/*
 * __sched_group_set_shares(): unchanged shares return at once; otherwise on
 * every CPU each level from the group entity up gets update_load_avg(
 * UPDATE_TG) and update_cfs_group() (6.12 and 6.1 alike).  The model
 * called update_cfs_group() only for the group's own entity.
 *
 * /a/b on 2 CPUs, a task running in /a/b on CPU 0: changing b's shares is
 * 2 levels x 2 CPUs = 4 update_load_avg() and 4 update_cfs_group() calls.
 */
static void test_set_shares_levels(void)
{
	struct model *m = mk("6.18", 2, NULL);
	struct model_group *a = model_group_new(m, NULL, 1024, "/a", NULL);
	struct model_group *b = model_group_new(m, a, 1024, "/a/b", NULL);
	struct model_task *t = model_task_new(m, b, 0, MODEL_POLICY_NORMAL, 1, NULL);
	uint64_t ula, ucg;

	model_wake_up_new_task(m, t, 0, 0, T0);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0);
	ula = m->counters[MC_update_load_avg];
	ucg = m->counters[MC_update_cfs_group];
	CHECK_EQ_S(model_group_set_shares(m, b, 1024, T0 + 1000000, NULL), 0);
	CHECK_EQ_U(m->counters[MC_update_load_avg], ula);
	CHECK_EQ_U(m->counters[MC_update_cfs_group], ucg);
	CHECK_EQ_S(model_group_set_shares(m, b, 512, T0 + 1000000, NULL), 0);
	CHECK_EQ_U(m->counters[MC_update_load_avg], ula + 4);
	CHECK_EQ_U(m->counters[MC_update_cfs_group], ucg + 4);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * A group entity is attached, with zero load, when its group comes online
 * (online_fair_sched_group() -> attach_entity_cfs_rq()), so its
 * last_update_time is set long before its first enqueue.  At that enqueue
 * update_load_avg(UPDATE_TG | DO_ATTACH) only ages it and pulls the load its
 * queue propagates (update_tg_cfs_load(): the new task's load_sum, one full
 * divider, times the entity's weight) - the DO_ATTACH branch does not run.
 * The model created group entities unattached, so the first enqueue added
 * the propagated load to the parent queue and then attached the entity's
 * load a second time: a nice-0 task forked into /a/b made the root queue's
 * load_avg 2048 and /a's 2048 (the kernel: 1024 each), inflating the
 * parents' shares of tg->load_avg for some 100 ms.
 *
 * Expected: the task enters at 1024 (post_init + attach); every queue on
 * CPU 0 was first updated at T0, so all share one divider and each level
 * carries exactly 1024: se load_avg = 1024 x min(div + 0, div) / div.
 */
static void test_group_entity_online_attach(void)
{
	struct model *m = mk("6.18", 2, NULL);
	struct model_group *a = model_group_new(m, NULL, 1024, "/a", NULL);
	struct model_group *b = model_group_new(m, a, 1024, "/a/b", NULL);
	struct task_group *ta = (struct task_group *)a, *tb = (struct task_group *)b;
	struct model_task *t = model_task_new(m, b, 0, MODEL_POLICY_NORMAL, 1, NULL);

	model_wake_up_new_task(m, t, 0, 0, T0);
	CHECK_EQ_U(tb->cfs_rq[0]->avg.load_avg, 1024);
	CHECK_EQ_U(tb->se[0]->avg.load_avg, 1024);
	CHECK_EQ_U(ta->cfs_rq[0]->avg.load_avg, 1024);
	CHECK_EQ_U(ta->se[0]->avg.load_avg, 1024);
	CHECK_EQ_U(m->rqs[0].cfs.avg.load_avg, 1024);
	/* on the queue's clock and period boundary, as if aged since creation */
	CHECK_EQ_U(tb->se[0]->avg.last_update_time, ta->cfs_rq[0]->avg.last_update_time);
	CHECK_EQ_U(tb->se[0]->avg.period_contrib, ta->cfs_rq[0]->avg.period_contrib);
	/* tg->load_avg sees one task's worth at each level */
	CHECK_EQ_S(tb->load_avg, 1024);
	CHECK_EQ_S(ta->load_avg, 1024);
	/* the second CPU's entities: untouched until their first enqueue */
	CHECK_EQ_U(ta->se[1]->avg.last_update_time, 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

int main(void)
{
	test_rd_overloaded_cleared();
	test_balance_interval();
	test_should_we_balance();
	test_nohz_llc_busy_kick();
	test_nohz_next_kick();
	test_nohz_single_cpu();
	test_newilb_includes_this_cpu();
	test_cfs_idle_min_granularity();
	test_set_same_nice();
	test_pi_same_prio();
	test_set_shares_levels();
	test_group_entity_online_attach();
	return check_done("fidelity");
}
