// SPDX-License-Identifier: GPL-2.0
/*
 * sched_balance_rq()'s arithmetic (model/balance.c) on small constructed
 * states: group types, the migration type and imbalance of
 * calculate_imbalance(), the queue sched_balance_find_src_rq() picks, which
 * tasks detach_tasks() takes, can_migrate_task() per profile, and the
 * nr_balance_failed / balance_interval outcomes.  Every expected value is
 * derived in the comment from the kernel's formulas (kernel/sched/fair.c,
 * 6.12.117 and 6.18.35).
 *
 * States are built with the model's API (forks, schedules), then the PELT
 * averages the balancer reads are set directly (root cfs_rq load/util/
 * runnable, a task's load_avg/util_avg) so that the arithmetic has round
 * numbers.  Time then advances past sysctl_sched_migration_cost (500 us) so
 * that queued tasks are cache cold unless a case wants them hot.
 */
#include <string.h>

#include "check.h"
#include "sched.h"

#define T0 1000000000ULL

static struct model *mk(const char *profile, unsigned int nr_cpus, const int *nodes, bool moves)
{
	struct model_config cfg = { .nr_cpus = nr_cpus, .cpu_node = nodes, .hz = 250, .seed = 3 };

	cfg.profile = model_profile_find(profile);
	cfg.balance_moves_tasks = moves;
	return model_new(&cfg, NULL);
}

static struct model_task *fork_on(struct model *m, uint32_t id, int cpu, uint64_t now)
{
	struct model_task *t = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, id, NULL);

	model_wake_up_new_task(m, t, cpu, cpu, now);
	return t;
}

static void set_cpu(struct model *m, int cpu, unsigned long load, unsigned long util,
		    unsigned long runnable)
{
	m->rqs[cpu].cfs.avg.load_avg = load;
	m->rqs[cpu].cfs.avg.util_avg = util;
	m->rqs[cpu].cfs.avg.runnable_avg = runnable;
}

/* The first queued task of @cpu that is not running, from the tail of cfs_tasks. */
static struct model_task *tail_queued(struct model *m, int cpu)
{
	struct model_task *p;

	for (p = m->rqs[cpu].cfs_tasks_tail; p; p = p->cfs_prev)
		if (p != m->rqs[cpu].curr)
			return p;
	return NULL;
}

/*
 * Newly idle CPU 1 beside CPU 0 running A with B, C queued (2 CPUs, one MC
 * domain of single-CPU groups, imbalance_pct 117).
 * Local (CPU 1): nr_running 0 < weight 1: has_spare, 1 idle CPU.
 * Busiest (CPU 0): nr_running 3 > 1 and util 900 x 117 = 105300 > 1024 x
 * 100: overloaded (with util 800: 93600 < 102400 and runnable 800 x 100 <
 * 1024 x 117: has_spare - still a busiest group: it has fair tasks).
 * find_src_group(): local not busier, busiest overloaded (or spare with 3
 * fair tasks and an idle destination): calculate_imbalance().  Local has
 * spare, the domain is the LLC (no migrate_util), busiest is one CPU:
 * migrate_task, sibling_imbalance() = 3 - 0 = 3, >> 1 = 1.
 * find_src_rq(): CPU 0.  detach_tasks(): the tail of cfs_tasks first - the
 * least recently run queued task - and a newly idle pass stops after one.
 */
static void test_newidle_migrate_task(const char *profile, unsigned long util)
{
	struct model *m = mk(profile, 2, NULL, true);
	struct model_task *a, *b, *c, *want;
	struct rq *rq0 = &m->rqs[0], *rq1 = &m->rqs[1];
	struct lb_env env;
	uint64_t now = T0;

	a = fork_on(m, 1, 0, now);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);
	b = fork_on(m, 2, 0, now + 100000);
	c = fork_on(m, 3, 0, now + 200000);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 3000, util, util);
	want = tail_queued(m, 0);
	CHECK(want == b || want == c);
	rq1->sd[0].balance_interval = 4;

	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NEWLY_IDLE, &env), 1);
	CHECK_EQ_U(env.local_stat.group_type, group_has_spare);
	CHECK_EQ_U(env.local_stat.idle_cpus, 1);
	CHECK_EQ_U(env.busiest_stat.group_type, util >= 900 ? group_overloaded : group_has_spare);
	CHECK_EQ_U(env.busiest_stat.sum_nr_running, 3);
	CHECK_EQ_U(env.busiest_stat.sum_h_nr_running, 3);
	CHECK_EQ_S(env.busiest_group, 0);
	CHECK_EQ_U(env.migration_type, migrate_task);
	CHECK_EQ_S(env.imbalance_found, 1);
	CHECK(env.src_rq == rq0);
	CHECK_EQ_U(env.detached, 1);
	CHECK_EQ_S(want->cpu, 1);
	CHECK_EQ_U(model_nr_queued(m, 0), 2);
	CHECK_EQ_U(model_nr_queued(m, 1), 1);
	CHECK_EQ_U(m->counters[MC_lb_migrate_task], 1);
	CHECK_EQ_U(m->counters[MC_load_balance_moved], 1);
	/*
	 * "We were unbalanced, so reset the balancing interval": newidle too
	 * (4 -> min_interval 2 ms); only nr_balance_failed is periodic-only.
	 */
	CHECK_EQ_U(rq1->sd[0].min_interval, 2);
	CHECK_EQ_U(rq1->sd[0].balance_interval, 2);
	CHECK_EQ_U(rq1->sd[0].nr_balance_failed, 0);
	(void)c;
	model_free(m);
}

/*
 * A busy destination (CPU_NOT_IDLE: CPU 1 runs one task, util 300: has
 * spare) against overloaded CPU 0 (three tasks, util 1000).  6.6+
 * sibling_imbalance() is 0 for a busy destination: imbalance 0, balanced
 * (nr_balance_failed 0, interval doubled 2 -> 4 ms).  6.1 takes busiest -
 * local nr_running = 3 - 1 = 2, >> 1 = 1: migrate_task, imbalance found
 * (interval back to min 2 ms), and one queued task moves.
 */
static void test_busy_dst_sibling(const char *profile, bool imbalanced)
{
	struct model *m = mk(profile, 2, NULL, true);
	struct rq *rq1 = &m->rqs[1];
	struct lb_env env;
	uint64_t now = T0;

	fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	fork_on(m, 2, 0, now);
	fork_on(m, 3, 0, now);
	fork_on(m, 4, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 3000, 1000, 1000);
	set_cpu(m, 1, 1000, 300, 300);
	rq1->sd[0].balance_interval = 2;

	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NOT_IDLE, &env), imbalanced ? 1 : 0);
	CHECK_EQ_U(env.local_stat.group_type, group_has_spare);
	CHECK_EQ_U(env.busiest_stat.group_type, group_overloaded);
	CHECK_EQ_S(env.imbalance_found, imbalanced ? 1 : 0);
	CHECK_EQ_U(rq1->sd[0].balance_interval, imbalanced ? 2 : 4);
	CHECK_EQ_U(m->counters[MC_balance_interval_doubled], imbalanced ? 0 : 1);
	CHECK_EQ_U(m->counters[MC_balance_interval_reset], imbalanced ? 1 : 0);
	CHECK_EQ_U(model_nr_queued(m, 1), imbalanced ? 2 : 1);
	model_free(m);
}

/*
 * migrate_load between two overloaded CPUs, periodic, busy destination.
 * CPU 0: A running, B and C queued, load 3000, util 1000; CPU 1: D running,
 * E queued, load 2000, util 1000.  Both overloaded (2-3 tasks > 1 CPU,
 * 1000 x 117 > 102400): avg_load = load x 1024 / 1024: 3000 and 2000.
 * find_src_group(): local < busiest, local 2000 < domain (5000 x 1024 /
 * 2048 = 2500), 100 x 3000 = 300000 > 117 x 2000 = 234000: imbalanced.
 * calculate_imbalance(): migrate_load, min((3000 - 2500) x 1024,
 * (2500 - 2000) x 1024) / 1024 = 500 (load units).
 * find_src_rq(): CPU 0 (3 fair tasks, so not the single-task skip).
 * detach_tasks(): B and C have load_avg 1000: task_h_load = 1000 x 3000 /
 * 3001 = 999 (root group: h_load is the root load 3000).  Pass 1
 * (nr_balance_failed 0): shr_bound(999, 0) = 999 > 500 for both, nothing
 * moves: failed, nr_balance_failed 1, interval reset.  Pass 2:
 * shr_bound(999, 1) = 499 <= 500: the tail task moves, 500 - 999 < 0 stops.
 */
static void test_migrate_load_shr_bound(void)
{
	struct model *m = mk("6.18", 2, NULL, true);
	struct model_task *a, *b, *c, *want;
	struct rq *rq1 = &m->rqs[1];
	struct lb_env env;
	uint64_t now = T0;

	a = fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	b = fork_on(m, 2, 0, now);
	c = fork_on(m, 3, 0, now);
	fork_on(m, 4, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	fork_on(m, 5, 1, now);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 3000, 1000, 1000);
	set_cpu(m, 1, 2000, 1000, 1000);
	b->se.avg.load_avg = 1000;
	c->se.avg.load_avg = 1000;
	CHECK(model_curr(m, 0) == a);
	CHECK_EQ_U(task_h_load(m, b), 999);

	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NOT_IDLE, &env), 0);
	CHECK_EQ_U(env.local_stat.group_type, group_overloaded);
	CHECK_EQ_U(env.busiest_stat.group_type, group_overloaded);
	CHECK_EQ_U(env.local_stat.avg_load, 2000);
	CHECK_EQ_U(env.busiest_stat.avg_load, 3000);
	CHECK_EQ_U(env.sds_avg_load, 2500);
	CHECK_EQ_U(env.migration_type, migrate_load);
	CHECK_EQ_S(env.imbalance_found, 500);
	CHECK_EQ_U(env.detached, 0);
	CHECK_EQ_U(rq1->sd[0].nr_balance_failed, 1);
	CHECK_EQ_U(rq1->sd[0].balance_interval, rq1->sd[0].min_interval);
	CHECK_EQ_U(m->counters[MC_lb_failed], 1);
	CHECK_EQ_U(m->counters[MC_balance_interval_reset], 1);

	want = tail_queued(m, 0);
	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NOT_IDLE, &env), 1);
	CHECK_EQ_S(env.imbalance_found, 500);
	CHECK_EQ_S(env.imbalance, 500 - 999);
	CHECK_EQ_S(want->cpu, 1);
	CHECK_EQ_U(rq1->sd[0].nr_balance_failed, 0);
	CHECK_EQ_U(m->counters[MC_lb_migrate_load], 2);
	model_free(m);
}

/*
 * Two overloaded CPUs within imbalance_pct: local load 2000, busiest 2300.
 * 100 x 2300 = 230000 <= 117 x 2000 = 234000: balanced, nothing computed,
 * nr_balance_failed back to 0, interval doubled (2 -> 4 ms).
 */
static void test_within_imbalance_pct(void)
{
	struct model *m = mk("6.18", 2, NULL, true);
	struct rq *rq1 = &m->rqs[1];
	struct lb_env env;
	uint64_t now = T0;

	fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	fork_on(m, 2, 0, now);
	fork_on(m, 3, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	fork_on(m, 4, 1, now);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 2300, 1000, 1000);
	set_cpu(m, 1, 2000, 1000, 1000);
	rq1->sd[0].nr_balance_failed = 1;
	rq1->sd[0].balance_interval = 2;
	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NOT_IDLE, &env), 0);
	CHECK(env.have_stats);
	CHECK_EQ_S(env.busiest_group, 0);
	CHECK_EQ_S(env.imbalance_found, 0);
	CHECK_EQ_U(rq1->sd[0].nr_balance_failed, 0);
	CHECK_EQ_U(rq1->sd[0].balance_interval, 4);
	/* 2400: 240000 > 234000 - imbalanced */
	set_cpu(m, 0, 2400, 1000, 1000);
	sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NOT_IDLE, &env);
	CHECK_EQ_U(env.migration_type, migrate_load);
	/* min((2400 - 2200) x 1024, (2200 - 2000) x 1024) / 1024 = 200 */
	CHECK_EQ_S(env.imbalance_found, 200);
	CHECK_EQ_U(rq1->sd[0].balance_interval, 2);
	model_free(m);
}

/*
 * NUMA: 4 CPUs, nodes {0, 0, 1, 1}; the NUMA domain's groups are the nodes,
 * imb_numa_nr = max(1, 2 CPUs per node >> 3) = 1 (computed on the NODE level,
 * one LLC, factor 1 for the NUMA level).  CPU 2 (idle, first idle CPU of
 * node 1: should_we_balance() lets it) balances the NUMA domain.
 *
 * (a) Node 0 overloaded: CPU 0 runs A with B, C queued, CPU 1 runs D with E
 * queued; util 1000 and 1010: 5 tasks > 2 CPUs, 2048 x 100 < 2010 x 117.  Node
 * 1: CPU 3 runs F, util 300: 1 task < 2 CPUs, has spare, 1 idle CPU.  Node 0
 * has an MC domain (2 CPUs): prefer-sibling; sibling_imbalance() = 5 - 1 = 4
 * > 1: force.  calculate_imbalance(): local spare, busiest overloaded, not
 * an LLC: migrate_util, max(2048, 300) - 300 = 1748.  find_src_rq()
 * (migrate_util): max(util, runnable) capped at 1024: CPU 0 (util 1000,
 * runnable 1500) -> 1024 beats CPU 1's 1010 (6.1's util alone: CPU 1).  detach_tasks(): util 400 each: B and C
 * (1748 - 800 = 948 left), then CPU 0 has one task: an idle destination
 * does not steal the last one.  Two tasks move to CPU 2.  Newly idle, the
 * pass stops after the first task (CONFIG_PREEMPTION): 1748 - 400 = 1348.
 *
 * (b) Node 0 has spare capacity: CPU 0 runs A with B queued, util 150, CPU
 * 1 idle (2 tasks = 2 CPUs, util 150 x 117 < 204800).  Node 1 all idle.
 * sibling_imbalance() = 2 - 0 = 2 > 1: force; migrate_task 2, then
 * adjust_numa_imbalance(2, 0 + 1 tasks, imb_numa_nr 1): 1 <= 1 and 2 <=
 * NUMA_IMBALANCE_MIN: 0 - the pair stays together: balanced.  With a third
 * task on CPU 1: 3 - 0 = 3 > 2 stays, >> 1 = 1: migrate_task 1.
 *
 * (c) The case that tells imb_numa_nr 1 from 2: node 1 already runs one task
 * (CPU 3), node 0 three light tasks (CPU 0: A + B queued, CPU 1: C; 3 > 2
 * CPUs but util 100 + 50 and runnable below the limits: has spare).
 * sibling_imbalance() = 3 - 1 = 2 > 1: force; adjust_numa_imbalance(2, 1 +
 * 1, imb_numa_nr 1): 2 > 1, the imbalance stays 2, >> 1 = 1: migrate_task
 * 1, B moves to CPU 2.  (With imb_numa_nr 2, the node count, it would be 0:
 * balanced.)
 */
/*
 * imb_numa_nr by node size (build_sched_domains(), kernel/sched/topology.c):
 * the first domain above the LLC (here the NODE level, spanning one node
 * that is also the LLC: nr_llcs = 1) sets imb = max(1, span >> 3), and the
 * model's NUMA domain inherits it with factor 1.  Nodes of 15 and 16 CPUs:
 * 15 >> 3 = 1, 16 >> 3 = 2; a node of 7 CPUs: max(1, 0) = 1.  Each CPU gets
 * its own node's value.
 */
static void check_imb_numa_nr(struct model *m, int cpu, unsigned int want)
{
	struct rq *rq = &m->rqs[cpu];
	int i, numa = 0;

	for (i = 0; i < rq->nr_sd; i++) {
		if (rq->sd[i].numa) {
			numa++;
			CHECK_EQ_U(rq->sd[i].imb_numa_nr, want);
		} else {
			CHECK_EQ_U(rq->sd[i].imb_numa_nr, 0);
		}
	}
	CHECK_EQ_S(numa, 1);
}

static void test_imb_numa_nr_node_size(void)
{
	int nodes[31];
	struct model *m;
	int i;

	for (i = 0; i < 31; i++)
		nodes[i] = i < 15 ? 0 : 1;          /* 15 + 16 CPUs */
	m = mk("6.18", 31, nodes, true);
	check_imb_numa_nr(m, 0, 1);
	check_imb_numa_nr(m, 14, 1);
	check_imb_numa_nr(m, 15, 2);
	check_imb_numa_nr(m, 30, 2);
	model_free(m);
	for (i = 0; i < 23; i++)
		nodes[i] = i < 16 ? 0 : 1;          /* 16 + 7 CPUs */
	m = mk("6.1", 23, nodes, true);
	check_imb_numa_nr(m, 0, 2);
	check_imb_numa_nr(m, 22, 1);
	model_free(m);
}

static const int numa_nodes[4] = { 0, 0, 1, 1 };

static void test_numa_migrate_util(const char *profile, enum cpu_idle_type idle)
{
	bool newidle = idle == CPU_NEWLY_IDLE, v61 = !strcmp(profile, "6.1");
	struct model *m = mk(profile, 4, numa_nodes, true);
	struct model_task *b, *c, *e;
	struct rq *rq2 = &m->rqs[2];
	struct lb_env env;
	uint64_t now = T0;

	CHECK_EQ_S(rq2->nr_sd, 2);
	CHECK_EQ_U(rq2->sd[1].imb_numa_nr, 1);
	CHECK_EQ_U(rq2->sd[0].imb_numa_nr, 0);   /* MC: not a NUMA domain */
	fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	b = fork_on(m, 2, 0, now);
	c = fork_on(m, 3, 0, now);
	fork_on(m, 4, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	e = fork_on(m, 5, 1, now);
	fork_on(m, 6, 3, now);
	model_schedule(m, 3, MODEL_PREV_RUNNABLE, now);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 3000, 1000, 1500);
	set_cpu(m, 1, 2000, 1010, 1010);
	set_cpu(m, 2, 0, 0, 0);
	set_cpu(m, 3, 1000, 300, 300);
	b->se.avg.util_avg = 400;
	c->se.avg.util_avg = 400;
	e->se.avg.util_avg = 400;

	if (v61) {
		/*
		 * 6.1 (no LB_UTIL_BOOST): find_src_rq() by util alone picks CPU 1
		 * (1010 > 1000); E (util 400) moves, 1748 - 400 = 1348, then CPU 1
		 * has one task left: an idle destination does not take it.
		 */
		CHECK_EQ_S(sched_balance_rq(m, rq2, &rq2->sd[1], idle, &env), 1);
		CHECK_EQ_U(env.migration_type, migrate_util);
		CHECK_EQ_S(env.imbalance_found, 1748);
		CHECK_EQ_S(env.imbalance, 1348);
		CHECK(env.src_rq == &m->rqs[1]);
		CHECK_EQ_S(e->cpu, 2);
		CHECK_EQ_U(model_nr_queued(m, 0), 3);
		model_free(m);
		return;
	}
	CHECK_EQ_S(sched_balance_rq(m, rq2, &rq2->sd[1], idle, &env), newidle ? 1 : 2);
	CHECK_EQ_U(env.local_stat.group_type, group_has_spare);
	CHECK_EQ_U(env.local_stat.group_weight, 2);
	CHECK_EQ_U(env.busiest_stat.group_type, group_overloaded);
	CHECK_EQ_S(env.busiest_group, 0);
	CHECK_EQ_U(env.migration_type, migrate_util);
	CHECK_EQ_S(env.imbalance_found, 1748);
	CHECK_EQ_S(env.imbalance, newidle ? 1348 : 948);
	CHECK(env.src_rq == &m->rqs[0]);
	CHECK_EQ_S((b->cpu == 2) + (c->cpu == 2), newidle ? 1 : 2);
	CHECK_EQ_U(model_nr_queued(m, 0), newidle ? 2 : 1);
	CHECK_EQ_U(m->counters[MC_lb_migrate_util], 1);
	/* CPU 3 is busy and not the first idle CPU of node 1: another CPU balances */
	sched_balance_rq(m, &m->rqs[3], &m->rqs[3].sd[1], CPU_NOT_IDLE, &env);
	CHECK(!env.continue_balancing);
	CHECK(!env.have_stats);
	model_free(m);
}

enum numa_case { NUMA_PAIR, NUMA_THIRD, NUMA_LOCAL_BUSY };

static void test_numa_allowance(const char *profile, enum numa_case nc)
{
	struct model *m = mk(profile, 4, numa_nodes, true);
	struct model_task *b;
	struct rq *rq2 = &m->rqs[2];
	struct lb_env env;
	bool third = nc != NUMA_PAIR, local_busy = nc == NUMA_LOCAL_BUSY;
	uint64_t now = T0;

	CHECK_EQ_U(rq2->sd[1].imb_numa_nr, 1);
	fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	b = fork_on(m, 2, 0, now);
	if (third) {
		fork_on(m, 3, 1, now);
		model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	}
	if (local_busy) {
		fork_on(m, 4, 3, now);
		model_schedule(m, 3, MODEL_PREV_RUNNABLE, now);
	}
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 2000, local_busy ? 100 : 150, local_busy ? 100 : 150);
	set_cpu(m, 1, third ? 1000 : 0, third ? 50 : 0, third ? 50 : 0);
	set_cpu(m, 2, 0, 0, 0);
	set_cpu(m, 3, local_busy ? 1000 : 0, local_busy ? 50 : 0, local_busy ? 50 : 0);
	sched_balance_rq(m, rq2, &rq2->sd[1], CPU_IDLE, &env);
	CHECK_EQ_U(env.local_stat.group_type, group_has_spare);
	CHECK_EQ_U(env.local_stat.sum_nr_running, local_busy ? 1 : 0);
	CHECK_EQ_U(env.busiest_stat.group_type, group_has_spare);
	CHECK_EQ_U(env.busiest_stat.sum_nr_running, third ? 3 : 2);
	CHECK_EQ_U(env.migration_type, migrate_task);
	CHECK_EQ_S(env.imbalance_found, third ? 1 : 0);
	CHECK_EQ_U(model_nr_queued(m, 2), third ? 1 : 0);
	if (local_busy)
		CHECK_EQ_S(b->cpu, 2);
	model_free(m);
}

/*
 * A dry newidle pass (--placement trace: the model moves nothing) still
 * counts what the kernel would have done.  4 CPUs, nodes {0, 0, 1, 1},
 * profile 6.5 (NI_RANDOM off: weight 1, no die).  CPU 3 runs F with G, H
 * queued, util 1000: overloaded; CPU 2 goes newly idle, rd overloaded and
 * avg_idle 10 ms above every cost.  MC domain (CPUs 2-3): migrate_task,
 * 6.1-style sibling difference (LB_SIBLING_IMBALANCE off in 6.5) 3 - 0 =
 * 3 >> 1 = 1: the kernel pulls one task, so update_newidle_cost() records a
 * success (one more call and one more success) and the walk stops before the NUMA
 * domain (no call there).  Nothing moved: CPU 2 stays empty, 0 returned.
 */
static void test_newidle_dry_success(void)
{
	struct model *m = mk("6.5", 4, numa_nodes, false);
	struct rq *rq2 = &m->rqs[2];
	uint64_t now = T0;

	fork_on(m, 1, 3, now);
	model_schedule(m, 3, MODEL_PREV_RUNNABLE, now);
	fork_on(m, 2, 3, now);
	fork_on(m, 3, 3, now);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 3, 3000, 1000, 1000);
	m->rd_overloaded = true;
	rq2->avg_idle = 10000000;
	/* sd_init() starts every domain at 512 calls, 256 successes */
	CHECK_EQ_U(rq2->sd[0].newidle_call, 512);
	CHECK_EQ_S(sched_balance_newidle(m, rq2), 0);
	CHECK_EQ_U(rq2->sd[0].newidle_call, 513);
	CHECK_EQ_U(rq2->sd[0].newidle_success, 257);
	CHECK_EQ_U(rq2->sd[1].newidle_call, 512);
	CHECK_EQ_U(model_nr_queued(m, 2), 0);
	CHECK_EQ_U(model_nr_queued(m, 3), 3);
	CHECK_EQ_U(m->counters[MC_lb_migrate_task], 1);
	model_free(m);
}

/*
 * prefer_sibling from a one-CPU busiest node: nodes {0, 1, 1}.  CPU 0 runs
 * an RT task (model_other_class()) with fair task A queued: nr_running 2,
 * one fair task; CPUs 1 and 2 idle, CPU 1 balances the NUMA domain.
 * 6.18 (and 6.5+): the busiest node group carries SD_PREFER_SIBLING, one CPU
 * or not; sibling_imbalance() with unequal groups (local 2 CPUs, busiest 1):
 * (2 x (2 x 2 - 1 x 0) + 2 + 1) / 3 = 3 > 1: force; calculate_imbalance():
 * busiest has spare (2 tasks > 1 CPU but util 100), migrate_task
 * 3, adjust_numa_imbalance(3, 0 + 1, 1) = 3 (> NUMA_IMBALANCE_MIN), >> 1 =
 * 1: A moves to CPU 1.  (Without the flag: busiest not overloaded with a
 * single fair task: balanced.)  6.1: prefer_sibling from the NUMA domain's
 * child, the local node's MC (2 CPUs): also set; force as 2 > 0 + 1; but
 * the 6.1 difference 2 - 0 = 2 is allowed by adjust_numa_imbalance(2, 1,
 * 1) = 0: balanced.  6.5 has the flag but 6.1's difference: balanced too.
 */
static const int numa_nodes_1_2[3] = { 0, 1, 1 };

static void test_prefer_sibling_one_cpu_node(const char *profile, bool moves)
{
	struct model *m = mk(profile, 3, numa_nodes_1_2, true);
	struct model_task *a;
	struct rq *rq1 = &m->rqs[1];
	struct lb_env env;
	uint64_t now = T0;

	a = fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	model_other_class(m, 0, true, MODEL_OTHER_RT, now + 100000);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 1000, 100, 100);
	set_cpu(m, 1, 0, 0, 0);
	set_cpu(m, 2, 0, 0, 0);
	CHECK_EQ_S(rq1->nr_sd, 2);
	sched_balance_rq(m, rq1, &rq1->sd[1], CPU_IDLE, &env);
	CHECK_EQ_U(env.busiest_stat.sum_nr_running, 2);
	CHECK_EQ_U(env.busiest_stat.sum_h_nr_running, 1);
	CHECK_EQ_U(env.busiest_stat.group_type, group_has_spare);
	CHECK_EQ_U(env.migration_type, migrate_task);
	CHECK_EQ_S(env.imbalance_found, moves ? 1 : 0);
	CHECK_EQ_S(a->cpu, moves ? 1 : 0);
	model_free(m);
}

/*
 * sibling_imbalance()'s "take advantage of an empty group" (6.6+,
 * kernel/sched/fair.c): nodes {0, 1, 1, 1, 1}; CPU 0, alone and idle on node
 * 0, balances the NUMA domain; node 1 runs A on CPU 1 and B on CPU 2 (util
 * 100 each: has spare, 2 idle CPUs).  Unequal groups: (2 x (1 x 2 - 4 x 0)
 * + 1 + 4) / (1 + 4) = 9 / 5 = 1, raised to 2 as the local group is empty
 * and busiest runs more than one task: 2 > 1 forces the balance;
 * calculate_imbalance(): both have spare, prefer_sibling: migrate_task 2,
 * adjust_numa_imbalance(2, 0 + 1, imb_numa_nr 1) = 0 (a pair may stay):
 * nothing moves, but the balance went through calculate_imbalance().
 * (Without the raise: 1 is not > 1, and local's 1 idle CPU <= busiest's 2 +
 * 1 returns balanced before calculate_imbalance().)
 */
static const int numa_nodes_1_4[5] = { 0, 1, 1, 1, 1 };

static void test_sibling_imbalance_empty_local(void)
{
	struct model *m = mk("6.18", 5, numa_nodes_1_4, true);
	struct model_task *a, *b;
	struct rq *rq0 = &m->rqs[0];
	struct lb_env env;
	uint64_t now = T0;

	a = fork_on(m, 1, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	b = fork_on(m, 2, 2, now);
	model_schedule(m, 2, MODEL_PREV_RUNNABLE, now);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 1, 1000, 100, 100);
	set_cpu(m, 2, 1000, 100, 100);
	CHECK_EQ_S(rq0->nr_sd, 1);
	CHECK_EQ_U(rq0->sd[0].imb_numa_nr, 1);
	sched_balance_rq(m, rq0, &rq0->sd[0], CPU_IDLE, &env);
	CHECK_EQ_U(env.busiest_stat.sum_nr_running, 2);
	CHECK_EQ_U(env.busiest_stat.group_type, group_has_spare);
	CHECK_EQ_U(env.busiest_stat.idle_cpus, 2);
	CHECK_EQ_U(env.local_stat.idle_cpus, 1);
	CHECK_EQ_U(env.migration_type, migrate_task);   /* calculate_imbalance() ran */
	CHECK_EQ_S(env.imbalance_found, 0);
	CHECK_EQ_S(a->cpu, 1);
	CHECK_EQ_S(b->cpu, 2);
	model_free(m);
}

/*
 * The 6.1 / 6.5 difference: nodes {0, 0, 1}, destination CPU 2 alone on
 * node 1 (its MC domain degenerate: 6.1's NUMA domain has no child, so no
 * prefer_sibling; 6.5 takes the busiest group's flag: set).  Node 0: CPU 0
 * runs A with B queued, CPU 1 runs C; util 100 + 50: has spare, 0 idle CPUs.
 * 6.5: 3 > 0 + 1 forces; migrate_task 3 - 0 = 3, adjust_numa_imbalance(3,
 * 1, 1) = 3, >> 1 = 1: B moves to CPU 2.  6.1: busiest has spare and 2
 * CPUs, local idle CPUs 1 <= 0 + 1: balanced.
 */
static const int numa_nodes_2_1[3] = { 0, 0, 1 };

static void test_prefer_sibling_one_cpu_local(const char *profile, bool moves)
{
	struct model *m = mk(profile, 3, numa_nodes_2_1, true);
	struct model_task *b;
	struct rq *rq2 = &m->rqs[2];
	struct lb_env env;
	uint64_t now = T0;

	fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	b = fork_on(m, 2, 0, now);
	fork_on(m, 3, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 2000, 100, 100);
	set_cpu(m, 1, 1000, 50, 50);
	set_cpu(m, 2, 0, 0, 0);
	CHECK_EQ_S(rq2->nr_sd, 1);
	sched_balance_rq(m, rq2, &rq2->sd[0], CPU_IDLE, &env);
	CHECK_EQ_U(env.busiest_stat.sum_nr_running, 3);
	CHECK_EQ_U(env.busiest_stat.group_type, group_has_spare);
	CHECK_EQ_S(env.imbalance_found, moves ? 1 : 0);
	CHECK_EQ_S(b->cpu, moves ? 2 : 0);
	model_free(m);
}

/*
 * task_h_load() through a group: root load 2000, the group's entity 1000,
 * the group's queue 1000, the task 500.  h_load(root) = 2000; h_load(/g) =
 * 2000 x 1000 / (2000 + 1) = 999; task = 500 x 999 / (1000 + 1) = 499.
 * The queues' h_load is cached for the jiffy: a new root load in the same
 * jiffy changes nothing but the task's own share; the next jiffy
 * recomputes (root 4000: h(/g) = 4000 x 1000 / 4001 = 999 -> 499 still;
 * gse 2000: 4000 x 2000 / 4001 = 1999, task 500 x 1999 / 1001 = 998).
 */
static void test_task_h_load(void)
{
	struct model *m = mk("6.18", 2, NULL, true);
	struct model_group *g = model_group_new(m, NULL, 1024, "/g", NULL);
	struct model_task *p = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 1, NULL);
	struct task_group *tg = (struct task_group *)g;
	uint64_t now = T0;

	model_wake_up_new_task(m, p, 0, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	m->rqs[0].cfs.avg.load_avg = 2000;
	tg->se[0]->avg.load_avg = 1000;
	tg->cfs_rq[0]->avg.load_avg = 1000;
	p->se.avg.load_avg = 500;
	CHECK_EQ_U(task_h_load(m, p), 499);
	CHECK_EQ_U(tg->cfs_rq[0]->h_load, 999);
	tg->se[0]->avg.load_avg = 2000;
	CHECK_EQ_U(task_h_load(m, p), 499);            /* cached this jiffy */
	p->se.avg.load_avg = 1000;
	CHECK_EQ_U(task_h_load(m, p), 1000 * 999 / 1001);
	p->se.avg.load_avg = 500;
	m->rqs[0].cfs.avg.load_avg = 4000;
	model_advance_time(m, now + 4000000);          /* next jiffy */
	CHECK_EQ_U(task_h_load(m, p), 998);
	model_free(m);
}

/*
 * task_h_load() in the first jiffy (now 1 ms: jiffy 0): a fresh cfs_rq has
 * not computed h_load yet, so the root's h_load is its load 2000 and the
 * task's 500 x 2000 / 2001 = 499 - not 0, as it would be if a calloc'd
 * last_h_load_update of 0 read as "computed this jiffy".
 */
static void test_task_h_load_first_jiffy(void)
{
	struct model *m = mk("6.18", 2, NULL, true);
	struct model_task *p = fork_on(m, 1, 0, 1000000);

	model_schedule(m, 0, MODEL_PREV_RUNNABLE, 1000000);
	CHECK_EQ_U(m->jiffies, 0);
	m->rqs[0].cfs.avg.load_avg = 2000;
	p->se.avg.load_avg = 500;
	CHECK_EQ_U(task_h_load(m, p), 499);
	CHECK_EQ_U(m->rqs[0].cfs.h_load, 2000);
	model_free(m);
}

/*
 * DELAY_DEQUEUE and can_migrate_task().  CPU 0: X ran 2 ms ahead of the
 * other two and sleeps: not eligible, it stays queued, delayed; Y runs, Z
 * is queued and pinned.  CPU 1 newly idle, CPU 0's util 1000: overloaded
 * (3 queued > 1 CPU), migrate_task (sibling 3 - 0 = 3 >> 1 = 1).
 * 6.12.117 has no delayed test: X (cold, 1 ms after it stopped) moves, still
 * delayed, to CPU 1 (dequeued without DEQUEUE_SLEEP: the entity leaves, the
 * flag stays; enqueued as a new task: h_nr_delayed there).  6.18: a delayed
 * task moves only under migrate_load: nothing can move (Z pinned, Y
 * running): failed.  6.18 also counts only runnable tasks (h_nr_runnable
 * 2: X excluded).
 */
static struct model_task *delayed_rig(struct model *m, struct model_task **y, struct model_task **z,
				      uint64_t *now)
{
	struct model_task *t[3], *x, *next;
	int i;

	for (i = 0; i < 3; i++)
		t[i] = fork_on(m, (uint32_t)(i + 1), 0, *now);
	x = model_schedule(m, 0, MODEL_PREV_RUNNABLE, *now);
	*now += 2000000;
	next = model_schedule(m, 0, MODEL_PREV_SLEEP, *now);
	CHECK(x && x->se.sched_delayed && x->se.on_rq);
	*y = next;
	*z = NULL;
	for (i = 0; i < 3; i++)
		if (t[i] != x && t[i] != next)
			*z = t[i];
	model_task_set_pinned(*z, true);
	*now += 1000000;
	model_advance_time(m, *now);
	return x;
}

static void test_delayed_migrate_task(const char *profile, bool moves_delayed)
{
	struct model *m = mk(profile, 2, NULL, true);
	struct model_task *x, *y, *z;
	struct rq *rq0 = &m->rqs[0], *rq1 = &m->rqs[1];
	struct lb_env env;
	uint64_t now = T0;

	x = delayed_rig(m, &y, &z, &now);
	CHECK_EQ_U(rq0->cfs.h_nr_delayed, 1);
	set_cpu(m, 0, 3000, 1000, 1000);
	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NEWLY_IDLE, &env), moves_delayed ? 1 : 0);
	CHECK_EQ_U(env.migration_type, migrate_task);
	CHECK_EQ_U(env.busiest_stat.sum_h_nr_running, moves_delayed ? 3 : 2);
	CHECK_EQ_S(x->cpu, moves_delayed ? 1 : 0);
	CHECK(x->se.sched_delayed);
	CHECK_EQ_U(rq1->cfs.h_nr_delayed, moves_delayed ? 1 : 0);
	CHECK_EQ_U(rq0->cfs.h_nr_delayed, moves_delayed ? 0 : 1);
	CHECK_EQ_U(rq1->cfs.h_nr_runnable, 0);
	CHECK_EQ_S(y->cpu, 0);
	CHECK_EQ_S(z->cpu, 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	if (moves_delayed) {
		/* CPU 1 picks it: the delayed dequeue completes there, nothing runs */
		CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, now) == NULL);
		CHECK(!x->se.on_rq && !x->se.sched_delayed);
		CHECK_EQ_U(model_nr_queued(m, 1), 0);
	}
	model_free(m);
}

/*
 * 6.18, migrate_load: the same CPU 0 (Y running, Z pinned, X delayed with
 * load 400) against CPU 1 running two tasks; loads 3000 / 2000, util 1000
 * each: imbalance 500 as in test_migrate_load_shr_bound().  CPU 0 has two
 * runnable tasks, so find_src_rq() does not skip it; the walk refuses Z
 * (pinned) and Y (running).  X, delayed because it was not eligible, meets
 * the ineligible soft limit first (CPU 1's queue has entities, the domain
 * has not failed): pass 1 fails (nr_balance_failed 1); pass 2 takes X:
 * task_h_load = 400 x 3000 / 3001 = 399, shr_bound(399, 1) = 199 <= 500,
 * 500 - 399 = 101 left.  X arrives on CPU 1 still delayed; attach_task()'s
 * wakeup check does not preempt for a delayed task (WAKEUP_PICK_NEXT).
 */
static void test_delayed_migrate_load(void)
{
	struct model *m = mk("6.18", 2, NULL, true);
	struct model_task *x, *y, *z;
	struct rq *rq1 = &m->rqs[1];
	struct lb_env env;
	uint64_t now = T0, preempt0;

	fork_on(m, 10, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	fork_on(m, 11, 1, now);
	x = delayed_rig(m, &y, &z, &now);
	set_cpu(m, 0, 3000, 1000, 1000);
	set_cpu(m, 1, 2000, 1000, 1000);
	x->se.avg.load_avg = 400;
	/* pass 1: X is not eligible (that is why it was delayed) and CPU 1's
	 * queue has entities: the soft limit holds it while nothing failed */
	CHECK(!entity_eligible(cfs_rq_of(&x->se), &x->se));
	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NOT_IDLE, &env), 0);
	CHECK_EQ_S(x->cpu, 0);
	CHECK_EQ_U(rq1->sd[0].nr_balance_failed, 1);
	preempt0 = m->counters[MC_wakeup_preempt];
	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NOT_IDLE, &env), 1);
	CHECK_EQ_U(env.migration_type, migrate_load);
	CHECK_EQ_S(env.imbalance_found, 500);
	CHECK_EQ_S(env.imbalance, 500 - 399);
	CHECK_EQ_S(x->cpu, 1);
	CHECK(x->se.sched_delayed && x->se.on_rq);
	CHECK_EQ_U(rq1->cfs.h_nr_delayed, 1);
	CHECK_EQ_U(m->counters[MC_wakeup_preempt], preempt0);
	CHECK_EQ_S(y->cpu, 0);
	CHECK_EQ_S(z->cpu, 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * lb_throttled_hierarchy() (6.18 can_migrate_task()): the state of
 * test_newidle_migrate_task() with A, B, C in group /a (quota 10 ms per
 * 100 ms) and /a's queue on CPU 1 throttled (the pool emptied, then
 * throttle_cfs_rq(), which asks for 1 ns first and gets none).  The walk
 * refuses B and C before the affinity test, so nothing moves and the pass
 * counts as all pinned; with /a unthrottled on CPU 1 the same pass moves one
 * task (test_newidle_migrate_task()).
 */
static void test_throttled_dst(bool throttled)
{
	struct model *m = mk("6.18", 2, NULL, true);
	struct model_group *g = model_group_new(m, model_root_group(m), 1024, "a", NULL);
	struct task_group *tg = (struct task_group *)g;
	struct model_task *a, *b, *c;
	struct rq *rq1 = &m->rqs[1];
	struct lb_env env;
	uint64_t now = T0;

	CHECK(g != NULL);
	CHECK(model_group_set_bandwidth(m, g, 10000000, 100000000, 0, now, NULL) == 0);
	a = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 1, NULL);
	b = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 2, NULL);
	c = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 3, NULL);
	model_wake_up_new_task(m, a, 0, 0, now);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);
	model_wake_up_new_task(m, b, 0, 0, now + 100000);
	model_wake_up_new_task(m, c, 0, 0, now + 200000);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 3000, 900, 900);
	if (throttled) {
		tg->cfs_bandwidth.runtime = 0;
		CHECK(throttle_cfs_rq(m, tg->cfs_rq[1]));
		CHECK(throttled_hierarchy(m, tg->cfs_rq[1]));
		CHECK(!throttled_hierarchy(m, tg->cfs_rq[0]));
	}
	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NEWLY_IDLE, &env), throttled ? 0 : 1);
	CHECK_EQ_U(env.migration_type, migrate_task);
	CHECK_EQ_U(env.detached, throttled ? 0 : 1);
	CHECK_EQ_U(m->counters[MC_lb_all_pinned], throttled ? 1 : 0);
	CHECK_EQ_U(model_nr_queued(m, 1), throttled ? 0 : 1);
	CHECK_EQ_S(b->cpu + c->cpu, throttled ? 0 : 1);
	model_free(m);
}

/*
 * calculate_imbalance()'s second early return (kernel/sched/fair.c: local
 * below overloaded, "if (local->avg_load >= sds->avg_load) { env->imbalance
 * = 0; return; }") on a redo after an all-pinned source.  4 CPUs, one MC
 * domain of single-CPU groups; CPU 0 (busy, periodic balance) runs one task,
 * load 1000, util 900: fully busy; CPU 1 two pinned tasks, load 3000;
 * CPU 2 two tasks of load 100, load 1500 (both overloaded, util 1000);
 * CPU 3 idle.  Pass 1: busiest CPU 1, migrate_load, domain average 5500 x
 * 1024 / 4096 = 1375, imbalance min(3000 - 1375, 1375 - 1000) = 375; both
 * tasks pinned: CPU 1 leaves the mask, redo.  Pass 2 (CPUs 0, 2, 3):
 * busiest CPU 2 (1500 > 1000), average 2500 x 1024 / 3072 = 833 <= 1000:
 * imbalance 0, balanced; CPU 2 keeps its tasks, one migrate_load balance.
 * (Keeping pass 1's 375 would pull from CPU 2.)
 */
static void test_redo_local_above_average(void)
{
	struct model *m = mk("6.18", 4, NULL, true);
	struct model_task *a, *b, *c, *d;
	struct rq *rq0 = &m->rqs[0];
	struct lb_env env;
	uint64_t now = T0;

	fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	a = fork_on(m, 2, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	b = fork_on(m, 3, 1, now);
	model_task_set_pinned(a, true);
	model_task_set_pinned(b, true);
	c = fork_on(m, 4, 2, now);
	model_schedule(m, 2, MODEL_PREV_RUNNABLE, now);
	d = fork_on(m, 5, 2, now);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 1000, 900, 900);
	set_cpu(m, 1, 3000, 1000, 1500);
	set_cpu(m, 2, 1500, 1000, 1500);
	set_cpu(m, 3, 0, 0, 0);
	c->se.avg.load_avg = 100;
	d->se.avg.load_avg = 100;
	CHECK_EQ_S(sched_balance_rq(m, rq0, &rq0->sd[0], CPU_NOT_IDLE, &env), 0);
	CHECK_EQ_U(m->counters[MC_lb_all_pinned], 1);
	CHECK_EQ_U(m->counters[MC_lb_migrate_load], 1);
	CHECK_EQ_S(env.imbalance_found, 375);
	CHECK_EQ_U(env.local_stat.group_type, group_fully_busy);
	CHECK_EQ_U(env.busiest_stat.group_type, group_overloaded);
	CHECK_EQ_U(env.busiest_stat.group_load, 1500);
	CHECK_EQ_S(env.imbalance, 0);
	CHECK_EQ_S(c->cpu, 2);
	CHECK_EQ_S(d->cpu, 2);
	CHECK_EQ_U(model_nr_queued(m, 2), 2);
	model_free(m);
}

/*
 * group_is_overloaded()'s runnable test (kernel/sched/fair.c: overloaded when
 * more tasks than CPUs and capacity x imbalance_pct < runnable x 100,
 * strictly) at its boundary, which needs a group of 25 CPUs (capacity x 117
 * a multiple of 100): 50 CPUs, nodes of 25; node 1 runs 26 tasks (CPU 25
 * two), util 800 per CPU (20000 x 117 < 25600 x 100: the util test says
 * no).  Runnable 29952 in all (1198 per CPU, 1200 on CPU 25): 25600 x 117 =
 * 2995200 = 29952 x 100, not below: not overloaded, and
 * group_has_capacity() (its runnable test equally strict, then 2560000 >
 * 2340000) gives has spare.  One more (29953): overloaded.  CPU 0, idle on
 * the idle node 0, balances the NUMA domain (a dry run: nothing moves).
 */
static void test_overloaded_runnable_boundary(unsigned long extra, enum group_type want)
{
	int nodes[50], i;
	struct model *m;
	struct rq *rq0;
	struct lb_env env;
	uint64_t now = T0;

	for (i = 0; i < 50; i++)
		nodes[i] = i < 25 ? 0 : 1;
	m = mk("6.18", 50, nodes, false);
	rq0 = &m->rqs[0];
	for (i = 25; i < 50; i++) {
		fork_on(m, (uint32_t)i, i, now);
		model_schedule(m, i, MODEL_PREV_RUNNABLE, now);
	}
	fork_on(m, 50, 25, now);
	now += 2000000;
	model_advance_time(m, now);
	for (i = 25; i < 50; i++)
		set_cpu(m, i, 1000, 800, 1198);
	set_cpu(m, 25, 1000, 800, 1200 + extra);
	CHECK_EQ_S(rq0->nr_sd, 2);
	sched_balance_rq(m, rq0, &rq0->sd[1], CPU_IDLE, &env);
	CHECK_EQ_U(env.busiest_stat.group_weight, 25);
	CHECK_EQ_U(env.busiest_stat.sum_nr_running, 26);
	CHECK_EQ_U(env.busiest_stat.group_util, 20000);
	CHECK_EQ_U(env.busiest_stat.group_runnable, 29952 + extra);
	CHECK_EQ_U(env.busiest_stat.group_type, want);
	model_free(m);
}

/*
 * The ineligible soft limit (6.18: task_is_ineligible_on_dst_cpu()).  CPU
 * 0: E ran 2 ms, was preempted, and is queued ahead of the average
 * (ineligible); A runs.  CPU 1 runs two tasks (its queue has entities).
 * Loads 3000 / 2000, util 1000: migrate_load 500; E's load 400 -> 399.
 * 6.18 pass 1 (nr_balance_failed 0): E refused; nothing else movable (A
 * runs): failed, nr_balance_failed 1.  Pass 2: E moves.  6.12: E moves at
 * pass 1.
 */
static void test_ineligible_soft_limit(const char *profile, bool soft_limit)
{
	struct model *m = mk(profile, 2, NULL, true);
	struct model_task *e, *a, *t1, *t2;
	struct rq *rq1 = &m->rqs[1];
	struct lb_env env;
	uint64_t now = T0;

	fork_on(m, 10, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	fork_on(m, 11, 1, now);
	t1 = fork_on(m, 1, 0, now);
	t2 = fork_on(m, 2, 0, now);
	e = model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	now += 2000000;
	a = model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	CHECK(a != e && (a == t1 || a == t2));
	CHECK(!entity_eligible(cfs_rq_of(&e->se), &e->se));
	now += 1000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 3000, 1000, 1000);
	set_cpu(m, 1, 2000, 1000, 1000);
	e->se.avg.load_avg = 400;

	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NOT_IDLE, &env), soft_limit ? 0 : 1);
	CHECK_EQ_S(env.imbalance_found, 500);
	CHECK_EQ_S(e->cpu, soft_limit ? 0 : 1);
	CHECK_EQ_U(rq1->sd[0].nr_balance_failed, soft_limit ? 1 : 0);
	if (soft_limit) {
		CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_NOT_IDLE, &env), 1);
		CHECK_EQ_S(e->cpu, 1);
		CHECK_EQ_U(rq1->sd[0].nr_balance_failed, 0);
	}
	model_free(m);
}

/*
 * Every candidate pinned (LBF_ALL_PINNED): CPU 0 runs A with B queued, both
 * pinned; CPU 1 idle (periodic, CPU_IDLE): migrate_task 1, no task passes
 * the affinity test; CPU 0 leaves env->cpus, only the local CPU remains:
 * out_all_pinned - nr_balance_failed 0, and the interval doubles past
 * max_interval (4 ms) up to MAX_PINNED_INTERVAL (512): 4 -> 8.
 * Then the cache-hot case: B not pinned but ran 100 us ago (hot, nr_balance
 * _failed 0 <= cache_nice_tries 1): failed, nr_balance_failed 1, interval
 * back to min 2 ms; again: 2 > 1 ... not yet (1 <= 1): failed, 2; the third
 * pass (2 > 1) moves the hot task.
 */
static void test_pinned_and_hot(void)
{
	struct model *m = mk("6.18", 2, NULL, true);
	struct model_task *a, *b;
	struct rq *rq1 = &m->rqs[1];
	struct sched_domain *sd = &rq1->sd[0];
	struct lb_env env;
	uint64_t now = T0;

	b = fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	a = fork_on(m, 2, 0, now);
	now += 400000;
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);   /* B queued, ran until now */
	model_task_set_pinned(a, true);
	model_task_set_pinned(b, true);
	now += 100000;
	model_advance_time(m, now);
	set_cpu(m, 0, 2000, 1000, 1000);
	sd->balance_interval = sd->max_interval;
	CHECK_EQ_S(sched_balance_rq(m, rq1, sd, CPU_IDLE, &env), 0);
	CHECK_EQ_U(env.migration_type, migrate_task);
	CHECK(env.flags & LBF_ALL_PINNED);
	CHECK_EQ_U(m->counters[MC_lb_all_pinned], 1);
	CHECK_EQ_U(sd->nr_balance_failed, 0);
	CHECK_EQ_U(sd->balance_interval, 8);

	model_task_set_pinned(b, false);
	CHECK_EQ_S(sched_balance_rq(m, rq1, sd, CPU_IDLE, &env), 0);
	CHECK_EQ_U(sd->nr_balance_failed, 1);
	CHECK_EQ_U(sd->balance_interval, sd->min_interval);
	CHECK_EQ_S(sched_balance_rq(m, rq1, sd, CPU_IDLE, &env), 0);
	CHECK_EQ_U(sd->nr_balance_failed, 2);
	CHECK_EQ_S(sched_balance_rq(m, rq1, sd, CPU_IDLE, &env), 1);
	CHECK_EQ_S(b->cpu, 1);
	CHECK_EQ_U(sd->nr_balance_failed, 0);
	CHECK_EQ_U(m->counters[MC_load_balance_hot], 2);
	model_free(m);
}

/*
 * A task migrated by its wakeup is no longer cache hot (enqueue_entity(),
 * kernel/sched/fair.c: ENQUEUE_MIGRATED sets se->exec_start = 0, so
 * task_hot()'s clock_task - exec_start is never below the migration cost).
 * B runs on CPU 0 until T0 + 400 us and sleeps; A runs on CPU 1; B wakes on
 * CPU 1 50 us later (queued behind A).  CPU 2, idle, balances at once:
 * migrate_task 1 (single-CPU groups, 2 - 0 = 2, >> 1), B is the one
 * movable task and cold: it moves, no hot refusal.  (With B's exec_start
 * kept, 50 us < 500 us: hot, refused while nr_balance_failed 0 <=
 * cache_nice_tries 1.)
 */
static void test_migrated_not_hot(void)
{
	struct model *m = mk("6.18", 3, NULL, true);
	struct model_task *a, *b;
	struct rq *rq2 = &m->rqs[2];
	struct lb_env env;
	uint64_t now = T0;

	b = fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	now += 400000;
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now) == NULL);
	a = fork_on(m, 2, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	now += 50000;
	CHECK_EQ_S(model_try_to_wake_up(m, b, 1, 1, MODEL_WF_TTWU, now), 1);
	CHECK_EQ_S(b->cpu, 1);
	CHECK_EQ_U(b->se.exec_start, 0);
	CHECK(model_curr(m, 1) == a);
	set_cpu(m, 1, 2000, 1000, 1000);
	CHECK_EQ_S(sched_balance_rq(m, rq2, &rq2->sd[0], CPU_IDLE, &env), 1);
	CHECK_EQ_U(env.migration_type, migrate_task);
	CHECK_EQ_U(m->counters[MC_load_balance_hot], 0);
	CHECK_EQ_S(b->cpu, 2);
	CHECK_EQ_S(a->cpu, 1);
	model_free(m);
}

/*
 * The active-balance state: CPU 0 runs A with B queued and pinned, 2 ms
 * on (both cold), CPU 0's root queue at load 2000, util and runnable 1000.
 */
static struct model *active_rig(const char *profile, bool moves, struct model_task **a,
				struct model_task **b, uint64_t *now)
{
	struct model *m = mk(profile, 2, NULL, moves);

	*a = fork_on(m, 1, 0, *now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, *now);
	*b = fork_on(m, 2, 0, *now);
	model_task_set_pinned(*b, true);
	*now += 2000000;
	model_advance_time(m, *now);
	set_cpu(m, 0, 2000, 1000, 1000);
	return m;
}

/*
 * Active balance (need_active_balance(), active_load_balance_cpu_stop()).
 * CPU 0 runs A with B queued and pinned; A may run on CPU 1.  Each periodic
 * pass of CPU 1 (CPU_IDLE) finds a task-count imbalance (local idle, has
 * spare; busiest CPU 0 overloaded: 2 tasks, util 1000 x 117 > 1024 x 100;
 * migrate_task, sibling_imbalance() 2 >> 1 = 1) and moves nothing (B
 * pinned, A running): nr_balance_failed 1, 2, 3, 4, the interval back to
 * min_interval each time.  At 4 > cache_nice_tries 1 + 2 the kernel queues
 * the stopper on CPU 0 (need_active_balance(): the imbalanced case, the same
 * in 6.1, 6.12 and 6.18).  Without a stopper hook the model runs it at
 * once: the stop class preempts A (put back, one sched_switch), and
 * detach_one_task() walks cfs_tasks from the tail - B refused (pinned),
 * then A, now queued: it moves to CPU 1 (load_balance.moved 1), and the
 * push resets nr_balance_failed to 0 ("Active balancing done").  The pass
 * itself moved nothing (returns 0) and still resets the interval.  CPU 0's
 * stopper left need_resched: its __schedule() runs B (a second switch).
 */
static void test_active_balance_push(const char *profile)
{
	struct model_task *a, *b;
	uint64_t now = T0, switches;
	struct model *m = active_rig(profile, true, &a, &b, &now);
	struct rq *rq0 = &m->rqs[0], *rq1 = &m->rqs[1];
	struct sched_domain *sd = &rq1->sd[0];
	struct lb_env env;
	int i;

	CHECK(model_curr(m, 0) == a);
	for (i = 1; i <= 3; i++) {
		CHECK_EQ_S(sched_balance_rq(m, rq1, sd, CPU_IDLE, &env), 0);
		CHECK_EQ_U(env.migration_type, migrate_task);
		CHECK_EQ_U(sd->nr_balance_failed, (unsigned int)i);
		CHECK_EQ_U(env.need_active_balance, 0);
		CHECK_EQ_U(sd->balance_interval, sd->min_interval);
	}
	switches = m->counters[MC_sched_switch];
	sd->balance_interval = 8;
	CHECK_EQ_S(sched_balance_rq(m, rq1, sd, CPU_IDLE, &env), 0);
	CHECK_EQ_U(env.need_active_balance, 1);
	CHECK_EQ_U(env.active_balance, 1);
	CHECK_EQ_U(sd->nr_balance_failed, 0);
	CHECK_EQ_U(sd->balance_interval, sd->min_interval);
	CHECK_EQ_S(a->cpu, 1);
	CHECK_EQ_S(b->cpu, 0);
	CHECK(!rq0->active_balance);
	CHECK(model_curr(m, 0) == NULL);
	CHECK(model_need_resched(m, 0));
	CHECK(model_need_resched(m, 1));
	CHECK_EQ_U(model_nr_queued(m, 0), 1);
	CHECK_EQ_U(model_nr_queued(m, 1), 1);
	CHECK_EQ_U(m->counters[MC_lb_active_needed], 1);
	CHECK_EQ_U(m->counters[MC_lb_active_started], 1);
	CHECK_EQ_U(m->counters[MC_lb_active_pushed], 1);
	CHECK_EQ_U(m->counters[MC_lb_active_failed], 0);
	CHECK_EQ_U(m->counters[MC_load_balance_moved], 1);
	CHECK_EQ_U(m->counters[MC_sched_switch] - switches, 1);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == b);
	CHECK_EQ_U(m->counters[MC_sched_switch] - switches, 2);
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, now) == a);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * 6.18: the stopper's lb_env is zero-initialised but for its fields, so its
 * migration type is migrate_load, and LB_DELAYED_LOAD_ONLY lets a delayed
 * task go.  delayed_rig(): CPU 0 runs Y, Z queued and pinned, X delayed.
 * The periodic passes of CPU 1 are migrate_task (two runnable tasks on CPU
 * 0: h_nr_runnable), which refuses X (delayed), Z (pinned) and Y (running):
 * nr_balance_failed 1..4.  At 4 the stopper preempts Y, and
 * detach_one_task() meets X before Y from the tail of cfs_tasks (Y ran
 * last: head): X moves, still delayed; Y stays on CPU 0, queued.
 */
static void test_active_balance_delayed(void)
{
	struct model *m = mk("6.18", 2, NULL, true);
	struct model_task *x, *y, *z;
	struct rq *rq1 = &m->rqs[1];
	struct sched_domain *sd = &rq1->sd[0];
	struct lb_env env;
	uint64_t now = T0;
	int i;

	x = delayed_rig(m, &y, &z, &now);
	set_cpu(m, 0, 3000, 1000, 1000);
	for (i = 1; i <= 4; i++) {
		CHECK_EQ_S(sched_balance_rq(m, rq1, sd, CPU_IDLE, &env), 0);
		CHECK_EQ_U(env.migration_type, migrate_task);
		CHECK_EQ_U(env.need_active_balance, i == 4);
		CHECK_EQ_U(sd->nr_balance_failed, i == 4 ? 0 : (unsigned int)i);
	}
	CHECK_EQ_S(x->cpu, 1);
	CHECK(x->se.sched_delayed && x->se.on_rq);
	CHECK_EQ_S(y->cpu, 0);
	CHECK(y->se.on_rq && model_curr(m, 0) == NULL);
	CHECK_EQ_S(z->cpu, 0);
	CHECK_EQ_U(m->counters[MC_lb_active_pushed], 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * LBF_SOME_PINNED -> group_imbalanced.  4 CPUs on 2 nodes (MC {0,1} and
 * {2,3} under one NUMA domain).  CPU 0 runs A with B queued and pinned and
 * C queued and cache hot (it ran at this instant).  CPU 1's periodic MC
 * pass: migrate_task, imbalance 3 >> 1 = 1; B refused (pinned: SOME_PINNED),
 * C refused (hot: nr_balance_failed 0 <= cache_nice_tries 1; it passed the
 * affinity test: ALL_PINNED cleared), A running: nothing moved with
 * imbalance 1 left -> the parent's local group, node 0 at the NUMA level,
 * gets sgc->imbalance = 1; nr_balance_failed 1.  1 ms later (C cold) CPU
 * 2's NUMA pass: node 0 (3 tasks on 2 CPUs, util 1000 of 2048: not
 * overloaded; without the flag has_spare) is group_imbalanced, busier than
 * local node 1 (idle, has_spare): force_balance, migrate_task with
 * imbalance 1; find_src_rq(): CPU 0 (3 fair tasks); C moves to CPU 2.  The
 * NUMA pass has no parent: the flag stays.  Then B unpinned: CPU 1's MC
 * pass moves B (a move is not out_balanced: flag kept); the next finds CPU
 * 0 with one task (balanced, not all pinned): the flag is cleared.
 * @local_busy: CPU 3 runs D with E queued (util 200: node 1 still has
 * spare, one idle CPU).  Then only the imbalanced type forces the pull:
 * prefer-sibling's sibling_imbalance() is 3 - 2 = 1, not above 1, and the
 * has-spare test (local idle CPUs 1 <= busiest's 1 + 1) would call it
 * balanced.
 */
static void test_group_imbalanced(bool local_busy)
{
	static const int nodes[4] = { 0, 0, 1, 1 };
	struct model *m = mk("6.18", 4, nodes, true);
	struct model_task *a, *b, *c;
	struct rq *rq1 = &m->rqs[1], *rq2 = &m->rqs[2];
	struct lb_env env;
	uint64_t now = T0;

	CHECK_EQ_S(rq2->nr_sd, 2);
	if (local_busy) {
		fork_on(m, 4, 3, now);
		model_schedule(m, 3, MODEL_PREV_RUNNABLE, now);
		fork_on(m, 5, 3, now);
	}
	a = fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	b = fork_on(m, 2, 0, now);
	c = fork_on(m, 3, 0, now);
	model_task_set_pinned(b, true);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 3000, 1000, 1000);
	set_cpu(m, 1, 0, 0, 0);
	c->se.exec_start = now;   /* cache hot on CPU 0 */
	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_IDLE, &env), 0);
	CHECK_EQ_U(env.migration_type, migrate_task);
	CHECK_EQ_S(env.imbalance_found, 1);
	CHECK_EQ_U(env.flags & (LBF_SOME_PINNED | LBF_ALL_PINNED), LBF_SOME_PINNED);
	CHECK_EQ_U(rq1->sd[0].nr_balance_failed, 1);
	CHECK_EQ_U(m->sgc_imbalance[0], 1);
	CHECK_EQ_U(m->sgc_imbalance[1], 0);

	now += 1000000;
	model_advance_time(m, now);
	set_cpu(m, 3, local_busy ? 400 : 0, local_busy ? 200 : 0, local_busy ? 200 : 0);
	CHECK_EQ_S(sched_balance_rq(m, rq2, &rq2->sd[1], CPU_IDLE, &env), 1);
	CHECK_EQ_U(env.local_stat.idle_cpus, local_busy ? 1 : 2);
	CHECK_EQ_S(env.busiest_group, 0);
	CHECK_EQ_U(env.busiest_stat.group_type, group_imbalanced);
	CHECK_EQ_U(env.local_stat.group_type, group_has_spare);
	CHECK_EQ_U(env.migration_type, migrate_task);
	CHECK_EQ_S(env.imbalance_found, 1);
	CHECK_EQ_S(c->cpu, 2);
	CHECK_EQ_S(a->cpu, 0);
	CHECK_EQ_S(b->cpu, 0);
	CHECK_EQ_U(m->sgc_imbalance[0], 1);

	model_task_set_pinned(b, false);
	set_cpu(m, 0, 2000, 1000, 1000);
	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_IDLE, &env), 1);
	CHECK_EQ_S(b->cpu, 1);
	CHECK_EQ_U(m->sgc_imbalance[0], 1);
	set_cpu(m, 0, 1000, 1000, 1000);
	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_IDLE, &env), 0);
	CHECK_EQ_S(env.busiest_group, 0);
	CHECK_EQ_S(env.imbalance_found, 0);
	CHECK_EQ_U(m->sgc_imbalance[0], 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * With a stopper hook (the replay) the work is queued, not run: CPU 0's
 * rq->active_balance is set with push_cpu 1 and the hook hears (0, 1).  A
 * second failing pass while it is pending finds busiest->active_balance
 * set and queues nothing more (the kernel's guard).  model_cpu_stop() on
 * CPU 0 with the stopper holding it (model_other_class()) then moves A;
 * nr_balance_failed (5 by then) goes to 0; a second call has nothing queued.
 */
static int hook_cpu = -1, hook_waker = -1, hook_calls;

static void stopper_hook(void *ctx, int cpu, int waker_cpu, uint64_t now)
{
	(void)ctx;
	(void)now;
	hook_cpu = cpu;
	hook_waker = waker_cpu;
	hook_calls++;
}

static void test_active_balance_hook(void)
{
	struct model_task *a, *b;
	uint64_t now = T0;
	struct model *m = active_rig("6.18", true, &a, &b, &now);
	struct rq *rq0 = &m->rqs[0], *rq1 = &m->rqs[1];
	struct sched_domain *sd = &rq1->sd[0];
	struct lb_env env;
	int i;

	m->stopper_hook = stopper_hook;
	for (i = 1; i <= 5; i++)
		sched_balance_rq(m, rq1, sd, CPU_IDLE, &env);
	CHECK_EQ_S(hook_calls, 1);
	CHECK_EQ_S(hook_cpu, 0);
	CHECK_EQ_S(hook_waker, 1);
	CHECK(rq0->active_balance);
	CHECK_EQ_S(rq0->push_cpu, 1);
	CHECK_EQ_U(env.need_active_balance, 1);
	CHECK_EQ_U(env.active_balance, 0);
	CHECK_EQ_U(m->counters[MC_lb_active_needed], 2);
	CHECK_EQ_U(m->counters[MC_lb_active_started], 1);
	CHECK_EQ_U(sd->nr_balance_failed, 5);
	CHECK(model_curr(m, 0) == a);
	model_other_class(m, 0, true, MODEL_OTHER_RT, now);
	CHECK_EQ_S(model_cpu_stop(m, 0, false, now), 1);
	CHECK_EQ_S(a->cpu, 1);
	CHECK_EQ_U(sd->nr_balance_failed, 0);
	CHECK(!rq0->active_balance);
	CHECK_EQ_S(model_cpu_stop(m, 0, false, now), 0);
	model_other_class(m, 0, false, MODEL_OTHER_RT, now);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == b);
	CHECK_EQ_U(m->counters[MC_lb_active_pushed], 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * out_one_pinned: the busiest CPU's running task may not run here.  4 CPUs
 * on 2 nodes ({0,1}, {2,3}).  CPU 0 runs A; CPU 1 runs an RT task
 * (model_other_class()) with C queued; node 1 idle.  CPU 2's NUMA pass
 * (CPU_IDLE): node 0 has 3 tasks on 2 CPUs (A, the RT task, C: sum_nr_running
 * 3), util 250 and runnable 250 of 2048 - has spare; node 1 has spare and
 * sibling_imbalance() 3 - 0 = 3 > 1 forces the balance; calculate_imbalance():
 * prefer-sibling migrate_task 3, adjust_numa_imbalance(3, 0 + 1, imb_numa_nr
 * 1) keeps it (3 > NUMA_IMBALANCE_MIN 2), >> 1 = 1.  find_src_rq() for
 * migrate_task: the most fair tasks, CPU 0 and CPU 1 one each, the first
 * kept: CPU 0, nr_running 1 - detach_tasks() is skipped, LBF_ALL_PINNED
 * stays set, nothing moves: nr_balance_failed 1, 2, 3, 4, 5, the interval
 * back to min_interval each time.  At 5 > cache_nice_tries 2 + 2
 * need_active_balance() holds.  @pinned: A may not run on CPU 2 ->
 * out_one_pinned: no stopper, nr_balance_failed stays 5, and with
 * LBF_ALL_PINNED the interval doubles (min_interval 4 -> 8).  Unpinned,
 * the stopper preempts A and pushes it to CPU 2: nr_balance_failed 0.
 */
static void test_active_balance_one_pinned(const char *profile, bool pinned)
{
	struct model *m = mk(profile, 4, numa_nodes, true);
	struct model_task *a, *c;
	struct rq *rq2 = &m->rqs[2];
	struct sched_domain *sd = &rq2->sd[1];
	struct lb_env env;
	uint64_t now = T0;
	int i;

	a = fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	c = fork_on(m, 2, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	model_other_class(m, 1, true, MODEL_OTHER_RT, now);
	model_task_set_pinned(a, pinned);
	model_task_set_pinned(c, true);
	now += 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 1000, 100, 100);
	set_cpu(m, 1, 1000, 150, 150);
	set_cpu(m, 2, 0, 0, 0);
	set_cpu(m, 3, 0, 0, 0);
	CHECK_EQ_U(sd->cache_nice_tries, 2);
	for (i = 1; i <= 5; i++) {
		CHECK_EQ_S(sched_balance_rq(m, rq2, sd, CPU_IDLE, &env), 0);
		CHECK_EQ_U(env.busiest_stat.group_type, group_has_spare);
		CHECK_EQ_U(env.busiest_stat.sum_nr_running, 3);
		CHECK_EQ_U(env.migration_type, migrate_task);
		CHECK_EQ_S(env.imbalance_found, 1);
		CHECK(env.src_rq == &m->rqs[0]);
		CHECK_EQ_U(env.need_active_balance, i == 5);
		if (i < 5) {
			CHECK_EQ_U(sd->nr_balance_failed, (unsigned int)i);
			CHECK_EQ_U(sd->balance_interval, sd->min_interval);
		}
	}
	CHECK_EQ_U(m->counters[MC_lb_active_needed], 1);
	CHECK_EQ_U(m->counters[MC_lb_all_pinned], 0);
	if (pinned) {
		CHECK_EQ_U(env.active_balance, 0);
		CHECK(env.flags & LBF_ALL_PINNED);
		CHECK_EQ_U(m->counters[MC_lb_active_started], 0);
		CHECK_EQ_U(sd->nr_balance_failed, 5);
		CHECK_EQ_U(sd->balance_interval, 2 * sd->min_interval);
		CHECK(!m->rqs[0].active_balance);
		CHECK(model_curr(m, 0) == a);
		CHECK_EQ_S(a->cpu, 0);
	} else {
		CHECK_EQ_U(env.active_balance, 1);
		CHECK_EQ_U(m->counters[MC_lb_active_started], 1);
		CHECK_EQ_U(m->counters[MC_lb_active_pushed], 1);
		CHECK_EQ_U(sd->nr_balance_failed, 0);
		CHECK_EQ_U(sd->balance_interval, sd->min_interval);
		CHECK_EQ_S(a->cpu, 2);
	}
	CHECK_EQ_S(c->cpu, 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * detach_one_task()'s order for the task the stopper preempted.  The
 * kernel's cfs_tasks is most recently run first: an enqueue adds at the
 * head (account_entity_enqueue()), a pick moves the task to the head
 * (__set_next_task_fair()), and detach_one_task() walks from the tail.
 * B runs, A is forked and picked 400 us later (A, B: head to tail), B
 * 4 ms later (B, A), A 4 ms after that: A, B again, by A's pick.  The
 * stopper's work is queued on CPU 0 for CPU 1 (rq->active_balance,
 * push_cpu) and the stopper preempts A (model_other_class()): A is queued
 * again, still at the head, so B goes and A stays.  @later: C is forked on
 * CPU 0 while A runs (C, A, B) and B is pinned: the walk refuses B and
 * takes A - the preempted task before C, which never ran, as the kernel's.
 */
static void test_active_balance_order(const char *profile, bool later)
{
	struct model *m = mk(profile, 2, NULL, true);
	struct model_task *a, *b, *c = NULL;
	struct rq *rq0 = &m->rqs[0];
	uint64_t now = T0;

	b = fork_on(m, 1, 0, now);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == b);
	a = fork_on(m, 2, 0, now);
	now += 400000;
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);
	now += 4000000;
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == b);
	CHECK(rq0->cfs_tasks_head == b && rq0->cfs_tasks_tail == a);
	now += 4000000;
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);
	CHECK(rq0->cfs_tasks_head == a && rq0->cfs_tasks_tail == b);
	if (later) {
		c = fork_on(m, 3, 0, now);
		model_task_set_pinned(b, true);
		CHECK(rq0->cfs_tasks_head == c && c->cfs_next == a && a->cfs_next == b);
	}
	CHECK(model_curr(m, 0) == a);
	now += 1000000;
	rq0->active_balance = true;
	rq0->push_cpu = 1;
	model_other_class(m, 0, true, MODEL_OTHER_RT, now);
	CHECK(model_curr(m, 0) == NULL);
	CHECK_EQ_S(model_cpu_stop(m, 0, false, now), 1);
	CHECK_EQ_S(a->cpu, (later ? 1 : 0));
	CHECK_EQ_S(b->cpu, (later ? 0 : 1));
	if (c)
		CHECK_EQ_S(c->cpu, 0);
	CHECK(!rq0->active_balance);
	CHECK_EQ_U(m->counters[MC_lb_active_pushed], 1);
	model_other_class(m, 0, false, MODEL_OTHER_RT, now);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * The stopper over an RT task (model_cpu_stop() with over_other): the model
 * keeps one non-fair task per CPU, so its nr_running counts the RT task
 * holding CPU 0 and not the stopper that preempted it; the kernel's counts
 * both.  With no fair task there the kernel's nr_running is 2 > 1:
 * detach_one_task() runs and finds nothing (alb_failed: active_balance.failed
 * 1).  The stopper alone (the model's non-fair task itself, over_other
 * false) is nr_running 1: nothing to look at, no count.  Then A, queued
 * behind the RT task (it preempted A), is pushed to CPU 1.
 */
static void test_active_balance_over_rt(void)
{
	struct model *m = mk("6.18", 2, NULL, true);
	struct rq *rq0 = &m->rqs[0];
	struct model_task *a;
	uint64_t now = T0;

	model_other_class(m, 0, true, MODEL_OTHER_RT, now);
	rq0->active_balance = true;
	rq0->push_cpu = 1;
	CHECK_EQ_S(model_cpu_stop(m, 0, true, now), 0);
	CHECK_EQ_U(m->counters[MC_lb_active_failed], 1);
	CHECK(!rq0->active_balance);
	rq0->active_balance = true;
	CHECK_EQ_S(model_cpu_stop(m, 0, false, now), 0);
	CHECK_EQ_U(m->counters[MC_lb_active_failed], 1);
	CHECK(!rq0->active_balance);
	model_other_class(m, 0, false, MODEL_OTHER_RT, now);

	a = fork_on(m, 1, 0, now);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);
	now += 1000000;
	model_other_class(m, 0, true, MODEL_OTHER_RT, now);
	rq0->active_balance = true;
	CHECK_EQ_S(model_cpu_stop(m, 0, true, now), 1);
	CHECK_EQ_S(a->cpu, 1);
	CHECK_EQ_U(m->counters[MC_lb_active_pushed], 1);
	model_other_class(m, 0, false, MODEL_OTHER_RT, now);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * Dry (--placement trace: no stopper runs): test_active_balance_push()'s
 * passes.  At pass 4 the stopper would have pushed A, so nr_balance_failed
 * goes back to 0 as the kernel's would; nothing moves, A still runs on
 * CPU 0 and no work stays queued.
 */
static void test_active_balance_dry(void)
{
	struct model_task *a, *b;
	uint64_t now = T0, switches;
	struct model *m = active_rig("6.18", false, &a, &b, &now);
	struct rq *rq0 = &m->rqs[0], *rq1 = &m->rqs[1];
	struct sched_domain *sd = &rq1->sd[0];
	struct lb_env env;
	int i;

	switches = m->counters[MC_sched_switch];
	for (i = 1; i <= 4; i++) {
		CHECK_EQ_S(sched_balance_rq(m, rq1, sd, CPU_IDLE, &env), 0);
		CHECK(env.dry_run);
		CHECK_EQ_U(sd->nr_balance_failed, i == 4 ? 0 : (unsigned int)i);
	}
	CHECK_EQ_U(env.active_balance, 1);
	CHECK(model_curr(m, 0) == a);
	CHECK_EQ_S(a->cpu, 0);
	CHECK(!rq0->active_balance);
	CHECK_EQ_U(m->counters[MC_lb_active_pushed], 1);
	CHECK_EQ_U(m->counters[MC_load_balance_moved], 0);
	CHECK_EQ_U(m->counters[MC_sched_switch], switches);
	(void)b;
	model_free(m);
}

/*
 * Dry run (--placement trace): the periodic pass decides as the kernel
 * would and moves nothing.  test_newidle_migrate_task()'s state, periodic
 * (CPU_IDLE), from nr_balance_failed 1: a cold task would move ->
 * nr_balance_failed 0, reported as detached, nothing moved, 0 returned,
 * interval reset.  With the queued tasks hot (task_hot() is overridden only
 * once nr_balance_failed 1 exceeds cache_nice_tries 1, which it does not):
 * nothing would move, failed again, nr_balance_failed 2.
 */
static void test_dry_run(bool hot)
{
	struct model *m = mk("6.18", 2, NULL, false);
	struct rq *rq1 = &m->rqs[1];
	struct lb_env env;
	uint64_t now = T0;

	fork_on(m, 1, 0, now);
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	fork_on(m, 2, 0, now);
	now += 300000;
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);   /* the other runs, one queued */
	now += hot ? 100000 : 2000000;
	model_advance_time(m, now);
	set_cpu(m, 0, 2000, 1000, 1000);
	rq1->sd[0].nr_balance_failed = 1;
	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_IDLE, &env), 0);
	CHECK(env.dry_run);
	CHECK_EQ_S(env.imbalance_found, 1);
	CHECK_EQ_U(env.detached, hot ? 0 : 1);
	CHECK_EQ_U(rq1->sd[0].nr_balance_failed, hot ? 2 : 0);
	CHECK_EQ_U(model_nr_queued(m, 0), 2);
	CHECK_EQ_U(m->counters[MC_load_balance_moved], 0);
	CHECK_EQ_U(m->counters[MC_sched_migrate_task], 0);
	CHECK_EQ_U(rq1->sd[0].balance_interval, rq1->sd[0].min_interval);
	model_free(m);
}

/*
 * Ties between fully busy groups (update_sd_pick_busiest()): 3 CPUs on 3
 * nodes (single-CPU nodes: no MC domain, the NUMA domain's groups are
 * CPUs), CPU 0 idle, CPUs 1 and 2 running one task each at util 950 (one
 * task per CPU, 1024 x 100 < 950 x 117: fully busy; avg_load not computed:
 * 0 for both).  Groups are visited 0, 1, 2: since 5fd6d7f43958 (v6.5-rc1;
 * profiles 6.5, 6.12, 6.18) the later one stays on a tie (CPU 2), 6.1 keeps
 * the first (CPU 1).  Then a busiest group with a single
 * fair task is balanced.
 */
static void test_fully_busy_tie(const char *profile, int want)
{
	static const int nodes[3] = { 0, 1, 2 };
	struct model *m = mk(profile, 3, nodes, true);
	struct lb_env env;
	uint64_t now = T0;

	CHECK_EQ_S(m->rqs[0].nr_sd, 1);
	fork_on(m, 1, 1, now);
	model_schedule(m, 1, MODEL_PREV_RUNNABLE, now);
	fork_on(m, 2, 2, now);
	model_schedule(m, 2, MODEL_PREV_RUNNABLE, now);
	model_advance_time(m, now + 2000000);
	set_cpu(m, 1, 1000, 950, 950);
	set_cpu(m, 2, 1000, 950, 950);
	CHECK_EQ_S(sched_balance_rq(m, &m->rqs[0], &m->rqs[0].sd[0], CPU_IDLE, &env), 0);
	CHECK_EQ_U(env.busiest_stat.group_type, group_fully_busy);
	CHECK_EQ_S(env.busiest_group, want);
	CHECK_EQ_S(env.imbalance_found, 0);
	model_free(m);
}

int main(void)
{
	test_newidle_migrate_task("6.18", 900);
	test_newidle_migrate_task("6.18", 800);
	test_newidle_migrate_task("6.12", 900);
	test_busy_dst_sibling("6.18", false);
	test_busy_dst_sibling("6.12", false);
	test_busy_dst_sibling("6.1", true);
	test_migrate_load_shr_bound();
	test_within_imbalance_pct();
	test_imb_numa_nr_node_size();
	test_numa_migrate_util("6.18", CPU_IDLE);
	test_numa_migrate_util("6.18", CPU_NEWLY_IDLE);
	test_numa_migrate_util("6.1", CPU_IDLE);
	test_numa_allowance("6.18", NUMA_PAIR);
	test_numa_allowance("6.18", NUMA_THIRD);
	test_numa_allowance("6.18", NUMA_LOCAL_BUSY);
	test_numa_allowance("6.1", NUMA_LOCAL_BUSY);
	test_newidle_dry_success();
	test_task_h_load_first_jiffy();
	test_prefer_sibling_one_cpu_node("6.18", true);
	test_prefer_sibling_one_cpu_node("6.5", false);
	test_prefer_sibling_one_cpu_node("6.1", false);
	test_prefer_sibling_one_cpu_local("6.5", true);
	test_prefer_sibling_one_cpu_local("6.18", true);
	test_prefer_sibling_one_cpu_local("6.1", false);
	test_sibling_imbalance_empty_local();
	test_task_h_load();
	test_delayed_migrate_task("6.12", true);
	test_delayed_migrate_task("6.18", false);
	test_delayed_migrate_load();
	test_ineligible_soft_limit("6.18", true);
	test_ineligible_soft_limit("6.12", false);
	test_throttled_dst(false);
	test_throttled_dst(true);
	test_pinned_and_hot();
	test_migrated_not_hot();
	test_overloaded_runnable_boundary(0, group_has_spare);
	test_overloaded_runnable_boundary(1, group_overloaded);
	test_redo_local_above_average();
	test_active_balance_push("6.18");
	test_active_balance_push("6.12");
	test_active_balance_push("6.1");
	test_active_balance_delayed();
	test_active_balance_hook();
	test_active_balance_dry();
	test_active_balance_one_pinned("6.18", true);
	test_active_balance_one_pinned("6.18", false);
	test_active_balance_one_pinned("6.12", true);
	test_active_balance_one_pinned("6.1", true);
	test_active_balance_order("6.18", false);
	test_active_balance_order("6.18", true);
	test_active_balance_order("6.12", false);
	test_active_balance_order("6.12", true);
	test_active_balance_over_rt();
	test_group_imbalanced(false);
	test_group_imbalanced(true);
	test_dry_run(false);
	test_dry_run(true);
	test_fully_busy_tie("6.18", 2);
	test_fully_busy_tie("6.1", 1);
	test_fully_busy_tie("6.5", 2);
	return check_done("load_balance");
}
