// SPDX-License-Identifier: GPL-2.0
/*
 * The public API: errors are one line and never crash, counters iterate with
 * the stable names the replay JSON uses, settings print, runs are
 * deterministic for a seed, a profile names the functions 6.10 renamed as
 * its kernel does.
 */
#include <string.h>

#include "check.h"
#include "sched.h"

static void test_errors(void)
{
	struct sr_error err = { 0 };
	struct model_config cfg = { .nr_cpus = 0 };
	static const int bad_nodes[2] = { 0, -1 };
	struct model *m;

	CHECK(model_new(&cfg, &err) == NULL);
	CHECK(strstr(err.msg, "nr_cpus") != NULL);
	cfg.nr_cpus = 2;
	cfg.cpu_node = bad_nodes;
	CHECK(model_new(&cfg, &err) == NULL);
	CHECK(strstr(err.msg, "CPU 1") != NULL);
	cfg.cpu_node = NULL;
	cfg.hz = 7;
	CHECK(model_new(&cfg, &err) == NULL);
	cfg.hz = 0;
	m = model_new(&cfg, &err);
	CHECK(m != NULL);
	CHECK_EQ_U(model_hz(m), 250);
	CHECK(model_group_new(m, NULL, 1, "/x", &err) == NULL);
	CHECK(strstr(err.msg, "cpu.shares") != NULL);
	CHECK(model_task_new(m, NULL, 20, MODEL_POLICY_NORMAL, 9, &err) == NULL);
	CHECK(strstr(err.msg, "task 9") != NULL);
	CHECK(model_group_set_shares(m, model_root_group(m), 100, 0, &err) == -1);
	{
		/* a name with control characters: the message stays one line (error.h) */
		struct model_group *g = model_group_new(m, NULL, 1024, "/a\nb\x1b[31m", &err);

		CHECK(g != NULL);
		CHECK(model_group_set_bandwidth(m, g, 1000000, 0, 0, 0, &err) == -1);
		CHECK_MSG(!strcmp(err.msg, "model: group /a?b?[31m: period 0 ns outside 1 ms..1 s"),
			  "got '%s'", err.msg);
	}
	{
		struct model_task *t = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, &err);

		CHECK(model_wake_up_new_task(m, t, 0, 5, 1000) == -1);
		CHECK(model_try_to_wake_up(m, t, 0, 0, MODEL_WF_TTWU, 1000) == -1);   /* NEW */
		CHECK(model_wake_up_new_task(m, t, 0, 1, 1000) == 0);
		CHECK(model_wake_up_new_task(m, t, 0, 1, 1000) == -1);
		CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, 2000) == t);
		CHECK(model_migrate_task(m, t, 0, 3000) == -1);   /* running */
		CHECK(model_schedule(m, 1, MODEL_PREV_DEAD, 4000) == NULL);
		CHECK(model_try_to_wake_up(m, t, 0, 0, MODEL_WF_TTWU, 5000) == -1);
		CHECK(model_check_invariants(m, &err) == 0);
	}
	model_free(m);
	model_free(NULL);
}

static void test_counters(void)
{
	static const char *stable[] = {
		"sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_migrate_task",
		"sched_stat_runtime", "update_curr", "update_load_avg", "update_cfs_group",
		"reweight_entity", "update_tg_load_avg", "tg_load_avg_writes",
		"propagate_entity_load_avg", "update_blocked_averages", "newidle_balance",
		"place_entity", "wakeup_preempt", "tick",
	};
	static const int nodes[4] = { 0, 0, 1, 1 };
	struct model_config cfg = { .nr_cpus = 4, .cpu_node = nodes };
	struct model *m = model_new(&cfg, NULL);
	const char *name;
	uint64_t v;
	unsigned int it = 0, i, n = 0;
	bool node1 = false;

	for (i = 0; i < sizeof(stable) / sizeof(stable[0]); i++) {
		const char *got;

		CHECK_MSG(model_counter_get(m, stable[i], &v), "counter %s missing", stable[i]);
		/* and in this order, first */
		it = i;
		CHECK(model_counter_next(m, &it, &got, &v) && !strcmp(got, stable[i]));
	}
	it = 0;
	while (model_counter_next(m, &it, &name, &v)) {
		n++;
		if (!strcmp(name, "tg_load_avg_writes.node1"))
			node1 = true;
	}
	CHECK(node1);
	CHECK_EQ_U(n, NR_MODEL_COUNTERS + 2);
	CHECK(!model_counter_get(m, "nonsense", &v));
	model_free(m);
}

static uint64_t run_once(uint64_t seed, uint64_t *ula)
{
	struct model_config cfg = { .nr_cpus = 2, .seed = seed };
	struct model *m = model_new(&cfg, NULL);
	struct model_task *t[8];
	uint64_t now = 1000000, sw = 0;
	int i, r;

	for (i = 0; i < 8; i++) {
		t[i] = model_task_new(m, NULL, i - 4, MODEL_POLICY_NORMAL, (uint32_t)i, NULL);
		model_wake_up_new_task(m, t[i], 0, i % 2, now);
	}
	for (r = 0; r < 2000; r++) {
		now += 997000;
		for (i = 0; i < 2; i++) {
			model_tick(m, i, now);
			if (model_need_resched(m, i) || !model_curr(m, i))
				model_schedule(m, i, r % 3 ? MODEL_PREV_RUNNABLE : MODEL_PREV_SLEEP, now);
		}
		for (i = 0; i < 8; i++)
			model_try_to_wake_up(m, t[i], (r + i) % 2, 0, MODEL_WF_TTWU, now);
	}
	model_counter_get(m, "sched_switch", &sw);
	model_counter_get(m, "update_load_avg", ula);
	{
		char buf[8192];
		FILE *f = fmemopen(buf, sizeof(buf), "w");

		model_print_settings(m, f);
		fclose(f);
		CHECK(strstr(buf, "kernel profile 6.18") != NULL);
		CHECK(strstr(buf, "base_slice 1400000 ns") != NULL);   /* 0.70 ms x 2 (2 CPUs) */
	}
	model_free(m);
	return sw;
}

static void test_deterministic(void)
{
	uint64_t a1, a2, u1, u2;

	a1 = run_once(1, &u1);
	a2 = run_once(1, &u2);
	CHECK_EQ_U(a1, a2);
	CHECK_EQ_U(u1, u2);
	CHECK(a1 > 1000);
}

static uint64_t counter(const struct model *m, const char *name)
{
	uint64_t v = 0;

	CHECK(model_counter_get(m, name, &v));
	return v;
}

/*
 * model_task_exit_move(): do_exit() -> sched_autogroup_exit_task() ->
 * sched_move_task() with the group unchanged.  For the running task: its
 * dequeue charges it (one sched_stat_runtime), it is put and set again
 * (still current, still queued) and resched_curr() asks for the switch its
 * final __schedule() makes.  For a queued task: requeued, no resched.  A new
 * (not yet woken) or dead task: -1.
 */
static void test_exit_move(void)
{
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 3 };
	struct model *m = model_new(&cfg, NULL);
	struct model_task *t, *u, *n;
	uint64_t now = 1000000000ULL, stat0;

	CHECK(m != NULL);
	t = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	u = model_task_new(m, NULL, 19, MODEL_POLICY_NORMAL, 2, NULL);   /* never preempts t */
	n = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	CHECK(model_task_exit_move(m, n, now) == -1);             /* new */
	CHECK(model_wake_up_new_task(m, t, 0, 0, now) == 0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == t);
	CHECK(model_wake_up_new_task(m, u, 0, 0, now + 1000) == 0);
	CHECK_EQ_U(model_nr_queued(m, 0), 2);
	CHECK(!model_need_resched(m, 0));
	CHECK(model_curr(m, 0) == t);
	/* the queued one: requeued (its dequeue's update_curr() charges t), no resched */
	CHECK(model_task_exit_move(m, u, now + 50000) == 0);
	CHECK_EQ_U(model_nr_queued(m, 0), 2);
	CHECK(!model_need_resched(m, 0));
	CHECK(model_curr(m, 0) == t);
	/* the running one: charged once, still current and queued, resched */
	stat0 = counter(m, "sched_stat_runtime");
	CHECK(model_task_exit_move(m, t, now + 100000) == 0);
	CHECK_EQ_U(counter(m, "sched_stat_runtime"), stat0 + 1);
	CHECK(model_curr(m, 0) == t);
	CHECK_EQ_U(model_nr_queued(m, 0), 2);
	CHECK(model_need_resched(m, 0));
	CHECK(model_check_invariants(m, NULL) == 0);
	/* its exit: U runs, T is dead */
	CHECK(model_schedule(m, 0, MODEL_PREV_DEAD, now + 108000) == u);
	CHECK(model_task_exit_move(m, t, now + 200000) == -1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * model_task_exit_move() of an autogroup's task (sched_autogroup_exit_task()
 * -> sched_move_task() -> sched_change_group(): autogroup_task_group() gives
 * the root task group, task_wants_autogroup() being false for PF_EXITING).
 * T, alone in group G on CPU 0, runs 20 ms, then exits.  G an autogroup: T
 * leaves G's queue for the root's at the move, its load detached there and
 * then (G's load_avg and util_avg exactly 0, nothing queued in G; the root
 * still holds T, running).  G a cgroup's group, or exit_keeps_autogroup
 * (the model before): T stays in G, with its load.
 */
static void exit_move_group(bool autogroup, bool keep, bool *left)
{
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 3,
				    .exit_keeps_autogroup = keep };
	struct model *m = model_new(&cfg, NULL);
	struct model_group *g;
	struct model_group_queue gq, rq;
	struct model_task *t;
	uint64_t now = 1000000000ULL;

	CHECK(m != NULL);
	g = model_group_new(m, NULL, 1024, "autogroup-1", NULL);
	CHECK(g != NULL);
	model_group_set_autogroup(g, autogroup);
	t = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 1, NULL);
	CHECK(model_wake_up_new_task(m, t, 0, 0, now) == 0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == t);
	CHECK(model_group_queue_read(m, g, 0, &gq) == 0);
	CHECK_EQ_U(gq.h_nr_queued, 1);
	CHECK(model_task_exit_move(m, t, now + 20000000) == 0);
	CHECK(model_group_queue_read(m, g, 0, &gq) == 0);
	CHECK(model_group_queue_read(m, model_root_group(m), 0, &rq) == 0);
	CHECK_EQ_U(rq.h_nr_queued, 1);
	CHECK(model_curr(m, 0) == t);
	*left = gq.h_nr_queued == 0;
	if (*left) {
		CHECK_EQ_U(gq.load_avg, 0);
		CHECK_EQ_U(gq.util_avg, 0);
		CHECK_EQ_U(rq.nr_queued, 1);    /* T itself, no group entity */
	} else {
		CHECK_EQ_U(gq.h_nr_queued, 1);
		CHECK(gq.load_avg > 300);      /* 20 ms loaded from new */
	}
	CHECK(model_check_invariants(m, NULL) == 0);
	CHECK(model_schedule(m, 0, MODEL_PREV_DEAD, now + 20010000) == NULL);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

static void test_exit_move_autogroup(void)
{
	bool left;

	exit_move_group(true, false, &left);
	CHECK(left);
	exit_move_group(true, true, &left);
	CHECK(!left);
	exit_move_group(false, false, &left);
	CHECK(!left);
}

/*
 * model_finish_delayed_dequeue(): X ran 2 ms ahead of Y and Z on CPU 0 and
 * sleeps ineligible, so it stays queued, delayed (6.18 DELAY_DEQUEUE).  A
 * wakeup onto CPU 1 then requeues it on CPU 0 (ttwu_runnable(): a queued
 * task is not moved) - what a trace that shows it moving at that wakeup
 * contradicts.  Finishing the dequeue first (as the kernel does when the
 * entity is picked) takes it off CPU 0's queue (2 queued left) and the
 * wakeup then migrates it to CPU 1.  A running task: -1; a task not delayed:
 * 0, nothing done.
 */
static void test_finish_delayed(bool finish)
{
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 3 };
	struct model *m = model_new(&cfg, NULL);
	struct model_task *t[3], *x, *y;
	struct model_task_info info;
	uint64_t now = 1000000000ULL;
	int i;

	CHECK(m != NULL);
	for (i = 0; i < 3; i++) {
		t[i] = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, (uint32_t)(i + 1), NULL);
		CHECK(model_wake_up_new_task(m, t[i], 0, 0, now) == 0);
	}
	x = model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	CHECK(model_finish_delayed_dequeue(m, x, now) == -1);     /* running */
	now += 2000000;
	y = model_schedule(m, 0, MODEL_PREV_SLEEP, now);
	CHECK(y != NULL && y != x);
	CHECK(model_finish_delayed_dequeue(m, y, now) == -1);     /* running */
	model_task_info(x, &info);
	CHECK_EQ_U(info.state, MODEL_TASK_DELAYED);
	CHECK_EQ_U(model_nr_queued(m, 0), 3);
	now += 1000000;
	if (finish) {
		CHECK(model_finish_delayed_dequeue(m, x, now) == 1);
		model_task_info(x, &info);
		CHECK_EQ_U(info.state, MODEL_TASK_SLEEPING);
		CHECK_EQ_U(model_nr_queued(m, 0), 2);
		CHECK(model_finish_delayed_dequeue(m, x, now) == 0);  /* no longer delayed */
		CHECK(model_check_invariants(m, NULL) == 0);
	}
	CHECK(model_try_to_wake_up(m, x, 1, -1, 0, now) == (finish ? 1 : 0));
	model_task_info(x, &info);
	CHECK_EQ_S(info.cpu, finish ? 1 : 0);
	CHECK_EQ_U(info.state, MODEL_TASK_QUEUED);
	CHECK_EQ_U(model_nr_queued(m, 0), finish ? 2 : 3);
	CHECK_EQ_U(model_nr_queued(m, 1), finish ? 1 : 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/* profile_table.h's function names: the kernel's name by profile, not by the profile's name */
static void test_func_names(void)
{
	static const struct { const char *profile, *func, *name; } cases[] = {
		{ "6.1", "newidle_balance", "newidle_balance" },
		{ "6.5", "newidle_balance", "newidle_balance" },
		{ "6.12", "newidle_balance", "sched_balance_newidle" },
		{ "6.18", "newidle_balance", "sched_balance_newidle" },
		{ "6.5", "update_blocked_averages", "update_blocked_averages" },
		{ "6.12", "update_blocked_averages", "sched_balance_update_blocked_averages" },
		{ "6.18", "update_cfs_group", "update_cfs_group" },
		{ "6.1", "place_entity", "place_entity" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct model_profile *p = model_profile_find(cases[i].profile);

		CHECK(p != NULL);
		if (p)
			CHECK_STR(model_profile_func_name(p, cases[i].func), cases[i].name);
	}
}

/*
 * model_task_set_pelt() (replay --initial-pelt kernel): a task started asleep
 * takes the kernel's se.avg (all three averages 512, on the sums' scale)
 * last updated one half-life (32 periods of 1024 us) before its first
 * wakeup; that wakeup ages it with no contribution, so it attaches with 256
 * each (the guess, init_entity_runnable_average(), attaches util 0 and the
 * full load).  A task given it before model_task_start_runnable() (asleep at
 * the capture's read, woken before the trace starts) is aged and attached
 * the same way by that start's enqueue; one read running is aged loaded and
 * running, one read queued (--initial-pelt all) loaded and runnable but
 * not running.  Refused once it woke or started, or both running and queued.
 */
static void test_set_pelt(void)
{
	struct model_config cfg = { .nr_cpus = 1, .hz = 250, .seed = 3 };
	struct model *m = model_new(&cfg, NULL);
	struct model_task *t, *g, *n, *r, *q;
	struct model_task_info ti, gi, ni, ri, qi;
	uint64_t now = 1000000000ULL, lut = now - 32ULL * 1024 * 1024;
	uint32_t pc = (uint32_t)((lut >> 10) & 1023), div = 47742 - 1024 + pc;
	struct model_pelt_init v = {
		.load_sum = div / 2, .runnable_sum = 512ULL * div, .util_sum = 512ULL * div,
		.period_contrib = pc, .load_avg = 512, .runnable_avg = 512, .util_avg = 512,
		.last_update_time = lut,
	};

	CHECK(m != NULL);
	t = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	g = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	n = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	CHECK(model_task_set_pelt(n, &v) == 0);              /* before its start */
	CHECK(model_task_start_runnable(m, n, 0, now) == 0);
	model_task_info(n, &ni);
	CHECK_MSG(ni.util_avg >= 254 && ni.util_avg <= 256, "util_avg %lu", ni.util_avg);
	CHECK_MSG(ni.load_avg >= 254 && ni.load_avg <= 256, "load_avg %lu", ni.load_avg);
	CHECK(model_task_set_pelt(n, &v) == -1);             /* started */
	/* read running since lut: aged loaded and running, 512 y^32 + 1024 (1 - y^32) */
	r = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 4, NULL);
	v.running = true;
	CHECK(model_task_set_pelt(r, &v) == 0);
	CHECK(model_task_start_runnable(m, r, 0, now) == 0);
	model_task_info(r, &ri);
	CHECK_MSG(ri.util_avg >= 766 && ri.util_avg <= 770, "util_avg %lu", ri.util_avg);
	CHECK_MSG(ri.runnable_avg >= 766 && ri.runnable_avg <= 770, "runnable_avg %lu",
		  ri.runnable_avg);
	/*
	 * read runnable but not running (queued behind its CPU's current task)
	 * since lut: loaded and runnable, not running - load and runnable go
	 * 512 -> 766..770 as r's did, util decays 512 -> 254..256 as asleep
	 */
	q = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 5, NULL);
	v.queued = true;
	CHECK(model_task_set_pelt(q, &v) == -1);             /* running and queued */
	v.running = false;
	CHECK(model_task_set_pelt(q, &v) == 0);
	CHECK(model_task_start_runnable(m, q, 0, now) == 0);
	model_task_info(q, &qi);
	CHECK_MSG(qi.util_avg >= 254 && qi.util_avg <= 256, "util_avg %lu", qi.util_avg);
	CHECK_MSG(qi.runnable_avg >= 766 && qi.runnable_avg <= 770, "runnable_avg %lu",
		  qi.runnable_avg);
	CHECK_MSG(qi.load_avg >= 766 && qi.load_avg <= 770, "load_avg %lu", qi.load_avg);
	CHECK(model_task_start_sleeping(m, t, 0) == 0);
	CHECK(model_task_start_sleeping(m, g, 0) == 0);
	CHECK(model_task_set_pelt(g, &v) == -1);             /* queued, but asleep */
	v.queued = false;
	v.running = true;
	CHECK(model_task_set_pelt(g, &v) == -1);             /* running, but asleep */
	v.running = false;
	v.period_contrib = 1024;
	CHECK(model_task_set_pelt(t, &v) == -1);             /* out of range */
	v.period_contrib = pc;
	CHECK(model_task_set_pelt(t, &v) == 0);
	CHECK(model_try_to_wake_up(m, t, 0, -1, MODEL_WF_TTWU, now) == 1);
	CHECK(model_try_to_wake_up(m, g, 0, -1, MODEL_WF_TTWU, now) == 1);
	model_task_info(t, &ti);
	model_task_info(g, &gi);
	/* y^32 = 1/2 in fixed point: 255 or 256 */
	CHECK_MSG(ti.util_avg >= 254 && ti.util_avg <= 256, "util_avg %lu", ti.util_avg);
	CHECK_MSG(ti.runnable_avg >= 254 && ti.runnable_avg <= 256, "runnable_avg %lu",
		  ti.runnable_avg);
	CHECK_MSG(ti.load_avg >= 254 && ti.load_avg <= 256, "load_avg %lu", ti.load_avg);
	CHECK_EQ_U(gi.util_avg, 0);
	CHECK(model_task_set_pelt(t, &v) == -1);             /* awake */
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * model_task_attach_blocked(): the kernel's blocked task stays attached to
 * the queue of its last CPU.  Two CPUs, a group /g (shares 1024): task a in
 * /g and task r in the root, both asleep on CPU 0 with the kernel's se.avg
 * of test_set_pelt() (512 each, last updated one half-life before @now),
 * attached at @now: aged to 256 each, CPU 0's /g queue holds a's, the group
 * entity takes its util and runnable (update_tg_cfs_util/_runnable()) and a
 * load from the propagated load_sum, the root queue holds r's and the group
 * entity's, tg->load_avg the /g queue's load, and no counter moved.  a then
 * wakes on CPU 0 (aged, not attached twice: the /g queue still holds one
 * task's util), r wakes on CPU 1 (removed from CPU 0's root queue, attached
 * on CPU 1's).  Refused twice, and for a task without the kernel's se.avg.
 */
static void test_attach_blocked(void)
{
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 3 };
	struct model *m = model_new(&cfg, NULL);
	struct model_group *g;
	struct model_task *a, *r, *n;
	struct task_group *tg;
	uint64_t now = 1000000000ULL, lut = now - 32ULL * 1024 * 1024, c0 = 0, c1 = 0, v;
	uint32_t pc = (uint32_t)((lut >> 10) & 1023), div = 47742 - 1024 + pc;
	struct model_pelt_init pi = {
		.load_sum = div / 2, .runnable_sum = 512ULL * div, .util_sum = 512ULL * div,
		.period_contrib = pc, .load_avg = 512, .runnable_avg = 512, .util_avg = 512,
		.last_update_time = lut,
	};
	struct cfs_rq *root0, *root1, *g0;
	unsigned int iter = 0;
	const char *name;

	CHECK(m != NULL);
	if (!m)
		return;
	g = model_group_new(m, NULL, 1024, "/g", NULL);
	tg = (struct task_group *)g;
	a = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 1, NULL);
	r = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	n = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	CHECK(model_task_start_sleeping(m, a, 0) == 0 && model_task_set_pelt(a, &pi) == 0);
	CHECK(model_task_start_sleeping(m, r, 0) == 0 && model_task_set_pelt(r, &pi) == 0);
	CHECK(model_task_start_sleeping(m, n, 0) == 0);
	CHECK(model_task_attach_blocked(m, n, now) == -1);     /* the guess: not attached */
	while (model_counter_next(m, &iter, &name, &v))
		c0 += v;
	CHECK(model_task_attach_blocked(m, a, now) == 0);
	CHECK(model_task_attach_blocked(m, r, now) == 0);
	CHECK(model_task_attach_blocked(m, r, now) == -1);     /* attached already */
	iter = 0;
	while (model_counter_next(m, &iter, &name, &v))
		c1 += v;
	CHECK_EQ_U(c1, c0);
	root0 = &m->rqs[0].cfs;
	root1 = &m->rqs[1].cfs;
	g0 = tg->cfs_rq[0];
	/* aged 32 periods: 512 * y^32 */
	CHECK_EQ_U(a->se.avg.util_avg, 255);
	CHECK_EQ_U(a->se.avg.load_avg, 255);
	CHECK_EQ_U(g0->avg.util_avg, 255);
	CHECK_EQ_U(g0->avg.load_avg, 255);
	CHECK_EQ_U(g0->avg.runnable_avg, 255);
	CHECK_EQ_U(tg->se[0]->avg.util_avg, 255);
	CHECK_EQ_U(tg->se[0]->avg.runnable_avg, 255);
	CHECK_EQ_U(tg->se[0]->avg.load_avg, 254);   /* from the propagated load_sum */
	CHECK_EQ_U(root0->avg.util_avg, 510);
	CHECK_EQ_U(root0->avg.load_avg, 509);
	CHECK_EQ_U(root1->avg.util_avg, 0);
	CHECK_EQ_U((uint64_t)tg->load_avg, 255);
	CHECK_EQ_U(g0->last_update_tg_load_avg, 0);
	CHECK_EQ_U(a->se.avg.last_update_time, root0->avg.last_update_time);
	/* a wakes where it sleeps: aged, not attached again */
	CHECK(model_try_to_wake_up(m, a, 0, -1, MODEL_WF_TTWU, now + 1000) == 1);
	CHECK_EQ_U(g0->avg.util_avg, a->se.avg.util_avg);
	CHECK(g0->avg.util_avg >= 254 && g0->avg.util_avg <= 256);
	/* r wakes on CPU 1: removed from CPU 0's queue at its next update */
	CHECK(model_try_to_wake_up(m, r, 1, -1, MODEL_WF_TTWU, now + 2000) == 1);
	CHECK_EQ_U(root0->removed.nr, 1);
	CHECK_EQ_U(root1->avg.util_avg, r->se.avg.util_avg);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/* the runtimes stat_runtime_hook reports (test_clock_left()) */
static uint64_t hook_runtime[4];
static unsigned int hook_n;

static void record_runtime(void *ctx, int cpu, uint32_t id, uint64_t runtime, uint64_t now)
{
	(void)ctx, (void)cpu, (void)id, (void)now;
	if (hook_n < 4)
		hook_runtime[hook_n++] = runtime;
}

/*
 * model_config.clock_left: CPU 0's clock_task leaves out 1 ms between 2 and
 * 6 ms (linearly: a quarter of each ns).  A task switched in at 1 ms is
 * charged at 4 ms its 3 ms less the 0.5 ms left out by then (2.5 ms) and at
 * 8 ms 4 ms less the other 0.5 ms (3.5 ms); without the points 3 and 4 ms.
 * task_hot()'s and every other reader's clock_task is rq_clock_task_at().
 * Points growing faster than the clock are refused.
 */
static void test_clock_left(void)
{
	static const struct model_clock_point pts[] = { { 2000000, 0 }, { 6000000, 1000000 } };
	static const struct model_clock_point bad[] = { { 2000000, 0 }, { 3000000, 1000001 } };
	struct model_clock_left cl[1] = { { pts, 2 } };
	struct sr_error err = { 0 };

	for (int with = 0; with < 2; with++) {
		struct model_config cfg = { .nr_cpus = 1, .stat_runtime_hook = record_runtime };
		struct model_task_info mi;
		struct model *m;
		struct model_task *t;

		cfg.clock_left = with ? cl : NULL;
		hook_n = 0;
		m = model_new(&cfg, &err);
		CHECK(m != NULL);
		if (!m)
			return;
		t = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
		CHECK(model_wake_up_new_task(m, t, 0, 0, 1000000) == 0);
		CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, 1000000) == t);
		CHECK(model_charge_curr(m, 0, 4000000) == 1);
		CHECK(model_charge_curr(m, 0, 8000000) == 1);
		CHECK_EQ_U(hook_n, 2);
		CHECK_EQ_U(hook_runtime[0], with ? 2500000 : 3000000);
		CHECK_EQ_U(hook_runtime[1], with ? 3500000 : 4000000);
		model_task_info(t, &mi);
		CHECK_EQ_U(mi.sum_exec_runtime, with ? 6000000 : 7000000);
		CHECK_EQ_U(rq_clock_task_at(&m->rqs[0], 3000000), with ? 2750000 : 3000000);
		CHECK_EQ_U(m->rqs[0].clock_task, with ? 7000000 : 8000000);
		CHECK_EQ_U(m->rqs[0].clock_pelt, m->rqs[0].clock_task);
		CHECK_EQ_U(m->rqs[0].clock, 8000000);
		model_free(m);
	}
	{
		struct model_config cfg = { .nr_cpus = 1 };

		cl[0].v = bad;
		cfg.clock_left = cl;
		CHECK(model_new(&cfg, &err) == NULL);
		CHECK(strstr(err.msg, "growing faster than the clock") != NULL);
	}
}

/*
 * model_task_set_class_prev(): a nice-10 thread queued behind C is boosted to
 * RT (A's record leaves the fair class: dequeued DEQUEUE_SAVE, detached) and
 * 3 ms later deboosted; its new fair record B is the same sched_entity in
 * the kernel: B's first wakeup takes over A's se.avg aged blocked over the
 * 3 ms (below A's, not a new task's load at its weight) and A's saved vlag.
 * Without the link B starts as a new task: load_avg at its weight, lag 0.
 */
/*
 * The boost both class-change tests start from: C (nice 0) runs on CPU 0,
 * A (nice 10) queued behind it, both in @g (NULL: root), and B created for
 * A's fair record after the change.  A leaves the fair class 5 ms in
 * (switched_from_fair()); its info in @ia.
 */
static struct model *class_boost(bool grouped, struct model_group **g, struct model_task **a,
				 struct model_task **b, struct model_task_info *ia, uint64_t now)
{
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 3 };
	struct model *m = model_new(&cfg, NULL);
	struct model_task *c;

	CHECK(m != NULL);
	*g = grouped ? model_group_new(m, NULL, 1024, "/g", NULL) : NULL;
	CHECK(!grouped || *g != NULL);
	c = model_task_new(m, *g, 0, MODEL_POLICY_NORMAL, 1, NULL);
	*a = model_task_new(m, *g, 10, MODEL_POLICY_NORMAL, 2, NULL);
	*b = model_task_new(m, *g, 10, MODEL_POLICY_NORMAL, 3, NULL);
	CHECK(model_wake_up_new_task(m, c, 0, 0, now) == 0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == c);
	CHECK(model_wake_up_new_task(m, *a, 0, 0, now + 1000) == 0);
	CHECK(model_curr(m, 0) == c);
	CHECK(model_task_switched_from_fair(m, *a, now + 5000000) == 0);
	model_task_info(*a, ia);
	CHECK(ia->vlag > 0);                  /* it waited behind C */
	CHECK(ia->load_avg > 0);
	return m;
}

static void test_class_carry(void)
{
	for (int link = 0; link <= 1; link++) {
		struct model_group *g;
		struct model_task *a, *b;
		struct model_task_info ia, ib;
		uint64_t now = 1000000000ULL;
		struct model *m = class_boost(false, &g, &a, &b, &ia, now);

		CHECK(model_task_start_sleeping(m, b, 0) == 0);
		if (link) {
			CHECK(model_task_set_class_prev(b, a) == 0);
			CHECK(model_task_set_class_prev(b, a) == -1);   /* linked already */
		}
		CHECK(model_try_to_wake_up(m, b, 0, 0, MODEL_WF_TTWU, now + 8000000) == 1);
		model_task_info(b, &ib);
		if (link) {
			CHECK(ib.load_avg < ia.load_avg);
			CHECK(ib.load_avg > ia.load_avg * 9 / 10);
			CHECK_EQ_U(ib.vlag, ia.vlag);
		} else {
			CHECK(ib.load_avg >= ia.load_avg);
			CHECK_EQ_U(ib.vlag, 0);
		}
		CHECK(model_check_invariants(m, NULL) == 0);
		model_free(m);
	}
}

/*
 * model_task_switched_to_fair(): the class change back into fair (6.12
 * rt_mutex_setprio()'s deboost: ENQUEUE_RESTORE | ENQUEUE_MOVE, then
 * switched_to_fair()).  A nice-10 task A queued behind C in group /g is
 * boosted (switched_from_fair()) and 3 ms later its fair record B is
 * switched back on CPU 0 - once by the class change (B started asleep on
 * CPU 1: re-homed, not migrated), once (the reference, B started on CPU 0)
 * by the wakeup the replay used before.  The entity's
 * PELT, vlag and placement are the same (the enqueue ages the carried
 * se.avg blocked, switched_to_fair() attaches it once: the group queue's
 * load is the same), the relative deadline is A's; the class change counts
 * no sched_wakeup or migration and stays on CPU 0.  Then the running form:
 * resched_curr() on its CPU.
 */
static void test_switched_to_fair(void)
{
	struct model_task_info ref = { 0 }, ia = { 0 };
	struct model_group_queue qref = { 0 };

	for (int restore = 0; restore <= 1; restore++) {
		struct model_group *g;
		struct model_task *c, *a, *b;
		struct model_task_info ib;
		struct model_group_queue q;
		uint64_t now = 1000000000ULL, wk0, wk1, mig0, mig1;
		struct model *m = class_boost(true, &g, &a, &b, &ia, now);

		c = model_curr(m, 0);
		/* the reference on CPU 0 (a wakeup from CPU 1 would migrate it) */
		CHECK(model_task_start_sleeping(m, b, restore) == 0);
		CHECK(model_task_set_class_prev(b, a) == 0);
		CHECK(model_counter_get(m, "sched_wakeup", &wk0));
		CHECK(model_counter_get(m, "sched_migrate_task", &mig0));
		if (restore) {
			CHECK(model_task_switched_to_fair(m, c, 0, false, now + 8000000) == -1);
			CHECK(model_task_switched_to_fair(m, b, 0, false, now + 8000000) == 0);
			CHECK(model_task_switched_to_fair(m, b, 0, false, now + 8000000) == -1);
		} else {
			CHECK(model_try_to_wake_up(m, b, 0, 0, MODEL_WF_TTWU, now + 8000000) == 1);
		}
		CHECK(model_counter_get(m, "sched_wakeup", &wk1));
		CHECK(model_counter_get(m, "sched_migrate_task", &mig1));
		model_task_info(b, &ib);
		CHECK(model_group_queue_read(m, g, 0, &q) == 0);
		CHECK(ib.cpu == 0);
		CHECK(ib.state == MODEL_TASK_QUEUED);
		CHECK_EQ_U(ib.vlag, ia.vlag);
		CHECK_EQ_U(ib.deadline - ib.vruntime, ia.deadline);   /* PLACE_REL_DEADLINE */
		CHECK(ib.load_avg < ia.load_avg && ib.load_avg > ia.load_avg * 9 / 10);
		if (restore) {
			CHECK_EQ_U(wk1 - wk0, 0);       /* not a wakeup */
			CHECK_EQ_U(mig1 - mig0, 0);     /* the change moves nothing */
			CHECK_EQ_U(ib.load_avg, ref.load_avg);
			CHECK_EQ_U(ib.util_avg, ref.util_avg);
			CHECK_EQ_U(ib.load_sum, ref.load_sum);
			CHECK_EQ_U(ib.vruntime, ref.vruntime);
			CHECK_EQ_U(ib.deadline, ref.deadline);
			CHECK_EQ_U(q.load_avg, qref.load_avg);     /* attached once */
			CHECK_EQ_U(q.util_avg, qref.util_avg);
		} else {
			CHECK_EQ_U(wk1 - wk0, 1);
			CHECK_EQ_U(mig1 - mig0, 0);
			ref = ib;
			qref = q;
		}
		CHECK(model_check_invariants(m, NULL) == 0);
		model_free(m);
	}

	/* running: its RT interval ends on CPU 0, switched_to_fair() reschedules */
	{
		struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 3 };
		struct model *m = model_new(&cfg, NULL);
		struct model_task *a, *b;
		uint64_t now = 1000000000ULL;

		CHECK(m != NULL);
		a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
		b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
		CHECK(model_task_start_sleeping(m, a, 0) == 0);
		CHECK(model_task_start_sleeping(m, b, 0) == 0);
		CHECK(model_try_to_wake_up(m, a, 0, 0, MODEL_WF_TTWU, now) == 1);
		CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);
		CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now + 2000000) == NULL);
		CHECK(model_task_set_class_prev(b, a) == 0);
		model_other_class(m, 0, true, MODEL_OTHER_RT, now + 3000000);
		model_other_class(m, 0, false, MODEL_OTHER_RT, now + 4000000);
		CHECK(model_task_switched_to_fair(m, b, 0, true, now + 4000000) == 0);
		CHECK(model_need_resched(m, 0));
		CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now + 4000000) == b);
		CHECK(model_check_invariants(m, NULL) == 0);
		model_free(m);
	}
}

/*
 * model_task_switched_to_fair_asleep(): A (class_boost(), in /g) left fair
 * queued at 5 ms; its record B, asleep, is switched back to fair at 8 ms:
 * switched_to_fair() attaches the carried entity then, as blocked load -
 * B's load_avg / util_avg / load_sum equal the queued change's at 8 ms
 * (test_switched_to_fair()'s reference: aged blocked the same 3 ms) and the
 * group queue on CPU 0 gains exactly B's load_avg; B's wakeup at the same
 * instant attaches nothing more (the queue's load_avg unchanged) and places
 * it with A's vlag.  A second change, or one of a queued task, is refused.
 */
static void test_switched_to_fair_asleep(void)
{
	struct model_group *g;
	struct model_task *a, *b, *c;
	struct model_task_info ia, ib, iw;
	struct model_group_queue q0, q1, q2;
	uint64_t now = 1000000000ULL, t = now + 8000000, wk0, wk1;
	struct model *m = class_boost(true, &g, &a, &b, &ia, now);

	c = model_curr(m, 0);
	CHECK(model_task_start_sleeping(m, b, 1) == 0);
	CHECK(model_task_set_class_prev(b, a) == 0);
	/* the queue at 8 ms without B: A's load went with its detach at 5 ms */
	model_tick(m, 0, t);
	CHECK(model_group_queue_read(m, g, 0, &q0) == 0);
	CHECK(model_task_switched_to_fair_asleep(m, c, 0, t) == -1);   /* queued */
	CHECK(model_task_switched_to_fair_asleep(m, b, 0, t) == 0);
	CHECK(model_task_switched_to_fair_asleep(m, b, 0, t) == -1);   /* attached */
	model_task_info(b, &ib);
	CHECK(model_group_queue_read(m, g, 0, &q1) == 0);
	CHECK(ib.cpu == 0);
	CHECK(ib.state == MODEL_TASK_SLEEPING);
	CHECK(ib.load_avg < ia.load_avg && ib.load_avg > ia.load_avg * 9 / 10);
	CHECK_EQ_U(q1.load_avg, q0.load_avg + ib.load_avg);
	CHECK(model_counter_get(m, "sched_wakeup", &wk0));
	CHECK(model_try_to_wake_up(m, b, 0, 0, MODEL_WF_TTWU, t) == 1);
	CHECK(model_counter_get(m, "sched_wakeup", &wk1));
	CHECK_EQ_U(wk1 - wk0, 1);
	model_task_info(b, &iw);
	CHECK(model_group_queue_read(m, g, 0, &q2) == 0);
	CHECK_EQ_U(q2.load_avg, q1.load_avg);      /* attached once, at the change */
	CHECK_EQ_U(iw.load_avg, ib.load_avg);
	CHECK_EQ_U(iw.vlag, ia.vlag);
	CHECK(model_check_invariants(m, NULL) == 0);
	/* literal (seed 3, the 6.12.118 PELT arithmetic): B aged blocked 3 ms, the queue's gain */
	CHECK_EQ_U(ib.load_avg, 103);
	CHECK_EQ_U(ib.util_avg, 45);
	CHECK_EQ_U(ib.load_sum, 44036);
	CHECK_EQ_U(q0.load_avg, 1023);
	CHECK_EQ_U(q1.load_avg, 1126);
	model_free(m);
}

/*
 * model_task_switched_from_fair_asleep(): A ran 6 ms ahead of C and blocked
 * ineligible, so DELAY_DEQUEUE kept it queued; an RT boost of the blocked
 * holder (6.12 rt_mutex_setprio(): DEQUEUE_SLEEP | DEQUEUE_DELAYED first,
 * then switched_from_fair()) takes it off the queue and detaches it; its
 * fair record B then takes over the entity at the change back (the carry
 * skipped a delayed entity before 6 Dec 2026: B started fresh).
 */
static void test_switched_from_fair_asleep(void)
{
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 3 };
	struct model *m = model_new(&cfg, NULL);
	struct model_task *a, *b, *c;
	struct model_task_info ia, ib;
	uint64_t now = 1000000000ULL;

	CHECK(m != NULL);
	a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	c = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 3, NULL);
	CHECK(model_wake_up_new_task(m, a, 0, 0, now) == 0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == a);
	CHECK(model_wake_up_new_task(m, c, 0, 0, now + 1000) == 0);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now + 6000000) == c);
	model_task_info(a, &ia);
	CHECK(ia.state == MODEL_TASK_DELAYED);
	CHECK(model_task_switched_from_fair(m, a, now + 6500000) == -1);   /* not queued runnable */
	CHECK(model_task_switched_from_fair_asleep(m, a, now + 6500000) == 0);
	CHECK(model_task_switched_from_fair_asleep(m, a, now + 6500000) == -1);  /* left */
	model_task_info(a, &ia);
	CHECK(ia.state == MODEL_TASK_SLEEPING);
	CHECK_EQ_U(model_nr_queued(m, 0), 1);
	CHECK(ia.load_avg > 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	CHECK(model_task_start_sleeping(m, b, 0) == 0);
	CHECK(model_task_set_class_prev(b, a) == 0);
	CHECK(model_task_switched_to_fair(m, b, 0, false, now + 8000000) == 0);
	model_task_info(b, &ib);
	CHECK(ib.load_avg < ia.load_avg && ib.load_avg > ia.load_avg * 9 / 10);
	CHECK_EQ_U(ib.vlag, ia.vlag);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

int main(void)
{
	test_class_carry();
	test_switched_to_fair();
	test_switched_to_fair_asleep();
	test_switched_from_fair_asleep();
	test_set_pelt();
	test_attach_blocked();
	test_clock_left();
	test_func_names();
	test_errors();
	test_counters();
	test_deterministic();
	test_exit_move();
	test_exit_move_autogroup();
	test_finish_delayed(false);
	test_finish_delayed(true);
	return check_done("model_api");
}
