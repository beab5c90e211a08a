// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU capacity in the balancer (model/balance.c, off with
 * model_config.fixed_cpu_capacity): update_cpu_capacity() /
 * scale_rt_capacity() = 1024 - avg_rt - avg_dl util_avg (floor 1),
 * refreshed by update_group_capacity() for the balancing CPU's local group
 * (a newidle balance only once sgc->next_update is due), and a balance
 * decision it flips: a CPU of reduced capacity running one fair task
 * beside an idle CPU (sched_reduced_capacity(): a misfit group,
 * migrate_load, need_active_balance()'s reduced-capacity clause).  Values
 * from kernel/sched/fair.c 6.12.118.
 */
#include "check.h"
#include "sched.h"

#define T0 1000000000ULL      /* 1 s: jiffy 250 at HZ 250 */
#define MS 1000000ULL

static struct model *mk(bool fixed)
{
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 5,
				    .fixed_cpu_capacity = fixed, .balance_moves_tasks = true };
	struct model *m = model_new(&cfg, NULL);

	CHECK(m != NULL);
	return m;
}

/* an RT task runs 10 ms on idle CPU 0 (a tick at 4 ms): avg_rt util 191 */
static void rt_run(struct model *m)
{
	model_other_class(m, 0, true, MODEL_OTHER_RT, T0);
	model_tick(m, 0, T0 + 4 * MS);
	model_other_class(m, 0, false, MODEL_OTHER_RT, T0 + 10 * MS);
	CHECK_EQ_U(m->rqs[0].avg_rt.util_avg, 191);
}

/*
 * 1024 - 191 = 833, set when CPU 0 balances (its MC group is the local
 * one), not before (the tick's balance at 4 ms saw 81: 943); check_cpu_capacity(): 833 x 117 = 97461 < 1024 x 100:
 * reduced.  DL adds: 833 - 100 = 733; RT + DL >= 1024: 1.
 * next_update = jiffies + msecs_to_jiffies(balance_interval 2 ms) = +1.
 * A newidle balance before then keeps the old capacity; at it, refreshes.
 * Fixed: 1024 whatever the signals.
 */
static void test_scale_rt_capacity(bool fixed)
{
	struct model *m = mk(fixed);
	struct rq *rq0 = &m->rqs[0];
	struct sched_domain *sd = &rq0->sd[0];
	struct lb_env env;
	unsigned long j;

	CHECK_EQ_U(capacity_of(m, 0), 1024);
	rt_run(m);
	/* the tick's periodic balance at 4 ms refreshed it then (avg_rt 81) */
	CHECK_EQ_U(capacity_of(m, 0), fixed ? 1024 : 943);
	model_advance_time(m, T0 + 10 * MS);
	j = m->jiffies;
	sched_balance_rq(m, rq0, sd, CPU_IDLE, &env);
	CHECK_EQ_U(capacity_of(m, 0), fixed ? 1024 : 833);
	CHECK_EQ_U(sgc_capacity(m, sd, 0), fixed ? 1024 : 833);
	CHECK_EQ_U(capacity_of(m, 1), 1024);
	CHECK_EQ_U(check_cpu_capacity(rq0, sd), !fixed);
	CHECK_EQ_U(rq0->sgc_next_update, j + 1);

	/* newidle before next_update: kept; at it: refreshed */
	rq0->avg_dl.util_avg = 100;
	sched_balance_rq(m, rq0, sd, CPU_NEWLY_IDLE, &env);
	CHECK_EQ_U(capacity_of(m, 0), fixed ? 1024 : 833);
	model_advance_time(m, T0 + 14 * MS);
	CHECK(m->jiffies >= j + 1);
	sched_balance_rq(m, rq0, sd, CPU_NEWLY_IDLE, &env);
	CHECK_EQ_U(capacity_of(m, 0), fixed ? 1024 : 733);

	/* used >= max: 1 */
	rq0->avg_dl.util_avg = 1024 - 191;
	sched_balance_rq(m, rq0, sd, CPU_IDLE, &env);
	CHECK_EQ_U(capacity_of(m, 0), fixed ? 1024 : 1);
	model_free(m);
}

/*
 * After rt_run(): fair task A forked onto CPU 0 and running there alone,
 * 2 ms later, CPU 0's root load / util / runnable 500; CPU 0's own busy
 * balance (nothing to pull from idle CPU 1) refreshes its capacity.
 */
static struct model_task *one_task_rig(struct model *m)
{
	struct rq *rq0 = &m->rqs[0];
	struct model_task *a;
	struct lb_env env;
	uint64_t now = T0 + 10 * MS;

	a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	model_wake_up_new_task(m, a, 0, 0, now);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);
	model_advance_time(m, now + 2 * MS);
	rq0->cfs.avg.load_avg = 500;
	rq0->cfs.avg.util_avg = 500;
	rq0->cfs.avg.runnable_avg = 500;
	CHECK_EQ_S(sched_balance_rq(m, rq0, &rq0->sd[0], CPU_NOT_IDLE, &env), 0);
	return a;
}

/*
 * CPU 0 ran RT for 10 ms (capacity 833 after its own balance) and now runs
 * fair task A alone (root load 500); CPU 1 is idle and balances (CPU_IDLE).
 * rt: group {0} has one fair task on a reduced-capacity CPU:
 * group_misfit_task, misfit load 500 -> force_balance, migrate_load,
 * imbalance 500; find_src_rq() keeps CPU 0 (load 500 not above 500, and
 * its capacity is reduced anyway); nothing detaches (A runs alone);
 * need_active_balance(): idle destination, one fair task, 833 x 117 =
 * 97461 < 1024 x 100 -> the stopper pushes A to CPU 1.
 * fixed: group {0} has spare capacity with a single fair task: balanced,
 * nothing happens.
 */
static void test_reduced_capacity_active(bool fixed)
{
	struct model *m = mk(fixed);
	struct rq *rq0 = &m->rqs[0], *rq1 = &m->rqs[1];
	struct model_task *a;
	struct lb_env env;

	rt_run(m);
	a = one_task_rig(m);
	CHECK_EQ_U(capacity_of(m, 0), fixed ? 1024 : 833);

	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_IDLE, &env), 0);
	if (fixed) {
		CHECK_EQ_U(env.busiest_stat.group_type, group_has_spare);
		CHECK_EQ_U(env.need_active_balance, 0);
		CHECK_EQ_S(a->cpu, 0);
		CHECK_EQ_U(m->counters[MC_lb_active_needed], 0);
	} else {
		CHECK_EQ_U(env.busiest_stat.group_type, group_misfit_task);
		CHECK_EQ_U(env.busiest_stat.group_misfit_task_load, 500);
		CHECK_EQ_U(env.busiest_stat.group_capacity, 833);
		CHECK_EQ_U(env.migration_type, migrate_load);
		CHECK_EQ_S(env.imbalance_found, 500);
		CHECK(env.src_rq == rq0);
		CHECK_EQ_U(env.need_active_balance, 1);
		CHECK_EQ_U(m->counters[MC_lb_active_needed], 1);
		CHECK_EQ_U(m->counters[MC_lb_active_pushed], 1);
		CHECK_EQ_S(a->cpu, 1);
	}
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * A newly idle destination is not enough when the source's capacity is not
 * below the destination's by imbalance_pct: both CPUs reduced alike (CPU 1
 * ran the same RT) - the misfit group still forces migrate_load, but
 * need_active_balance()'s 833 x 117 < 833 x 100 fails: no push.
 */
static void test_both_reduced(void)
{
	struct model *m = mk(false);
	struct rq *rq0 = &m->rqs[0], *rq1 = &m->rqs[1];
	struct model_task *a;
	struct lb_env env;

	rt_run(m);
	rq1->avg_rt = rq0->avg_rt;
	a = one_task_rig(m);
	CHECK_EQ_S(sched_balance_rq(m, rq1, &rq1->sd[0], CPU_IDLE, &env), 0);
	CHECK_EQ_U(capacity_of(m, 1), 833);
	CHECK_EQ_U(env.busiest_stat.group_type, group_misfit_task);
	CHECK_EQ_U(env.need_active_balance, 0);
	CHECK_EQ_S(a->cpu, 0);
	model_free(m);
}

int main(void)
{
	test_scale_rt_capacity(false);
	test_scale_rt_capacity(true);
	test_reduced_capacity_active(false);
	test_reduced_capacity_active(true);
	test_both_reduced();
	return check_done("model_cpu_capacity");
}
