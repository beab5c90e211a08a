// SPDX-License-Identifier: GPL-2.0
/*
 * The other classes' PELT signals (model/pelt_others.c; off with
 * model_config.no_others_pelt): rq->avg_rt / avg_dl at the kernel's update
 * points - set_next_task_rt() from another class (not running),
 * task_tick_rt() and put_prev_task_rt() (running), the DL equivalents,
 * update_blocked_averages()'s __update_blocked_others() (running as the
 * current class says) - against the same sequence of ___update_load_sum()
 * / ___update_load_avg(sa, 1) steps (the arithmetic the 6.12.117 vectors
 * check, tests/model/test_pelt.c), with literal values; and
 * others_have_blocked(): rq->has_blocked_load stays set while avg_rt
 * decays and is cleared by the update that finds it 0.
 */
#include "check.h"
#include "sched.h"

#define T0 1000000000ULL      /* 1 s: not on a 1024 ns boundary */
#define MS 1000000ULL

/* the kernel's update_rt_rq_load_avg() step on a reference sched_avg */
static void ref_step(struct sched_avg *sa, uint64_t now, int running)
{
	if (___update_load_sum(now, sa, (unsigned long)running, (unsigned long)running, running))
		___update_load_avg(sa, 1);
}

static void check_same(const struct sched_avg *a, const struct sched_avg *b)
{
	CHECK_EQ_U(a->last_update_time, b->last_update_time);
	CHECK_EQ_U(a->load_sum, b->load_sum);
	CHECK_EQ_U(a->runnable_sum, b->runnable_sum);
	CHECK_EQ_U(a->util_sum, b->util_sum);
	CHECK_EQ_U(a->period_contrib, b->period_contrib);
	CHECK_EQ_U(a->load_avg, b->load_avg);
	CHECK_EQ_U(a->runnable_avg, b->runnable_avg);
	CHECK_EQ_U(a->util_avg, b->util_avg);
}

static struct model *new_model(bool others)
{
	struct model_config cfg = { .nr_cpus = 2, .hz = 250, .seed = 5, .no_others_pelt = !others };
	struct model *m = model_new(&cfg, NULL);

	CHECK(m != NULL);
	return m;
}

/* an RT task runs 10 ms on idle CPU 0, a tick at 4 ms */
static void rt_run(struct model *m, struct sched_avg *ref)
{
	memset(ref, 0, sizeof(*ref));
	model_other_class(m, 0, true, MODEL_OTHER_RT, T0);
	ref_step(ref, T0, 0);                    /* set_next_task_rt() */
	model_tick(m, 0, T0 + 4 * MS);
	ref_step(ref, T0 + 4 * MS, 1);           /* task_tick_rt() */
	model_other_class(m, 0, false, MODEL_OTHER_RT, T0 + 10 * MS);
	ref_step(ref, T0 + 10 * MS, 1);          /* put_prev_task_rt() */
}

static void test_rt_run(void)
{
	struct model *m = new_model(true);
	struct sched_avg ref;

	rt_run(m, &ref);
	check_same(&m->rqs[0].avg_rt, &ref);
	/* 10 ms (9.54 periods of 1024 us) from nothing: 1024 (1 - y^9.54) = 191 */
	CHECK_EQ_U(m->rqs[0].avg_rt.util_avg, 191);
	CHECK_EQ_U(model_cpu_util_rt(m, 0), 191);
	CHECK_EQ_U(m->rqs[0].avg_dl.util_avg, 0);
	CHECK_EQ_U(m->rqs[1].avg_rt.last_update_time, 0);   /* CPU 1 untouched */
	model_free(m);

	/* with no_others_pelt: no signal */
	m = new_model(false);
	rt_run(m, &ref);
	CHECK_EQ_U(m->rqs[0].avg_rt.last_update_time, 0);
	CHECK_EQ_U(model_cpu_util_rt(m, 0), 0);
	model_free(m);
}

/*
 * After the run CPU 0 goes idle with its blocked load pending
 * (nohz_balance_enter_idle()); update_blocked_averages() every 16 ms
 * decays avg_rt (running 0) and keeps has_blocked_load set while it is
 * non-zero; the first update that finds it 0 clears the flag.  With
 * no_others_pelt (no fair load either) the first update clears it.
 */
static unsigned int blocked_steps(bool others, unsigned long *util_before_last)
{
	struct model *m = new_model(others);
	struct sched_avg ref;
	struct rq *rq = &m->rqs[0];
	unsigned int steps = 0;

	rt_run(m, &ref);
	rq->has_blocked_load = true;
	*util_before_last = 0;
	for (uint64_t t = T0 + 26 * MS; steps < 1000; t += 16 * MS) {
		unsigned long before = rq->avg_rt.util_avg;

		model_advance_time(m, t);
		sched_balance_update_blocked_averages(m, 0);
		steps++;
		if (others) {
			ref_step(&ref, t, 0);
			check_same(&rq->avg_rt, &ref);
			CHECK_EQ_U(rq->has_blocked_load, rq->avg_rt.util_avg != 0);
		}
		if (!rq->has_blocked_load) {
			*util_before_last = before;
			break;
		}
	}
	model_free(m);
	return steps;
}

static void test_has_blocked(void)
{
	unsigned long last;

	/*
	 * 191 decays to 0 in 16 updates: 266 ms after the run (26 + 15 x 16)
	 * is 253.7 periods, 7.93 half-lives (191 / 2^7.93 < 1); at 250 ms,
	 * 7.45 half-lives, it still reads 1
	 */
	CHECK_EQ_U(blocked_steps(true, &last), 16);
	CHECK_EQ_U(last, 1);
	CHECK_EQ_U(blocked_steps(false, &last), 1);
}

/*
 * update_blocked_averages() while an RT task holds CPU 1:
 * update_other_load_avgs() counts the time as running, and the flag stays.
 */
static void test_blocked_running(void)
{
	struct model *m = new_model(true);
	struct sched_avg ref;

	memset(&ref, 0, sizeof(ref));
	model_other_class(m, 1, true, MODEL_OTHER_RT, T0);
	ref_step(&ref, T0, 0);
	m->rqs[1].has_blocked_load = true;
	model_advance_time(m, T0 + 6 * MS);
	sched_balance_update_blocked_averages(m, 1);
	ref_step(&ref, T0 + 6 * MS, 1);
	check_same(&m->rqs[1].avg_rt, &ref);
	CHECK(m->rqs[1].avg_rt.util_avg > 0);
	CHECK(m->rqs[1].has_blocked_load);
	model_free(m);
}

/*
 * RT hands CPU 0 to DL (put_prev_task_rt() running, set_next_task_dl()
 * not running), DL leaves (put_prev_task_dl() running); then the stopper
 * runs 2 ms: neither signal is touched (the stop class has none).
 */
static void test_handover_dl_stop(void)
{
	struct model *m = new_model(true);
	struct sched_avg rt, dl;
	struct rq *rq = &m->rqs[0];

	memset(&rt, 0, sizeof(rt));
	memset(&dl, 0, sizeof(dl));
	model_other_class(m, 0, true, MODEL_OTHER_RT, T0);
	ref_step(&rt, T0, 0);
	model_other_class_handover(m, 0, MODEL_OTHER_DL, T0 + 5 * MS);
	ref_step(&rt, T0 + 5 * MS, 1);
	ref_step(&dl, T0 + 5 * MS, 0);
	/* no periodic balance due at this tick (its blocked update would
	 * bring avg_rt to the tick too) */
	rq->next_balance = m->jiffies + 1000;
	model_tick(m, 0, T0 + 7 * MS);
	ref_step(&dl, T0 + 7 * MS, 1);           /* task_tick_dl() */
	model_other_class(m, 0, false, MODEL_OTHER_RT, T0 + 8 * MS);
	ref_step(&dl, T0 + 8 * MS, 1);
	check_same(&rq->avg_rt, &rt);
	check_same(&rq->avg_dl, &dl);
	CHECK(rq->avg_dl.util_sum > 0);
	CHECK_EQ_U(model_cpu_util_dl(m, 0), rq->avg_dl.util_avg);

	model_other_class(m, 0, true, MODEL_OTHER_STOP, T0 + 20 * MS);
	model_tick(m, 0, T0 + 21 * MS);
	model_other_class(m, 0, false, MODEL_OTHER_RT, T0 + 22 * MS);
	check_same(&rq->avg_rt, &rt);
	check_same(&rq->avg_dl, &dl);
	/* the class is the call's: an RT task next is RT; a class out of
	 * range does nothing */
	model_other_class(m, 0, true, (enum model_other_cls)7, T0 + 30 * MS);
	CHECK(!rq->other_class);
	model_other_class(m, 0, true, MODEL_OTHER_RT, T0 + 30 * MS);
	CHECK(rq->other_class);
	CHECK_EQ_U(rq->other_cls, MODEL_OTHER_RT);
	model_other_class_handover(m, 0, (enum model_other_cls)7, T0 + 31 * MS);
	CHECK_EQ_U(rq->other_cls, MODEL_OTHER_RT);
	model_free(m);
}

int main(void)
{
	test_rt_run();
	test_has_blocked();
	test_blocked_running();
	test_handover_dl_stop();
	return check_done("model_pelt_others");
}
