// SPDX-License-Identifier: GPL-2.0
/*
 * The PELT signals of the other classes: rq->avg_rt and rq->avg_dl
 * (kernel/sched/pelt.c update_rt_rq_load_avg(), update_dl_rq_load_avg(),
 * update_other_load_avgs(); kernel/sched/fair.c others_have_blocked(),
 * __update_blocked_others()), kept unless model_config.no_others_pelt
 * (the model before others51, 6 Dec 2026).
 *
 * Each is a sched_avg whose load, runnable and running are all 1 while the
 * CPU runs a task of that class and 0 otherwise: util_avg is the decayed
 * fraction of time the CPU spent in the class (0..1024).  The kernel
 * updates them only at the class's own points - set_next_task_rt() when
 * the CPU comes from another class (running 0: the time before was not
 * RT), put_prev_task_rt() and task_tick_rt() (running 1), the DL
 * equivalents - and from update_blocked_averages(), which decays both
 * with running = "the current task is of that class".  While either
 * util_avg is non-zero, others_have_blocked() keeps rq->has_blocked_load
 * set, so an idle CPU that ran RT work keeps getting blocked updates
 * (nohz idle balance's update_nohz_stats()) until the signal reaches 0.
 *
 * Not modelled: avg_irq (update_irq_load_avg(): IRQ time, which no trace
 * holds) and the HW pressure signal (no arch pressure on the VMs): both 0.
 * The stop class has no signal (its time counts as not RT, not DL).
 */
#include "sched.h"

/* one class's signal: load = runnable = running = @running, averaged by 1 */
static int update_class_avg(u64 now, struct sched_avg *sa, int running)
{
	if (!___update_load_sum(now, sa, (unsigned long)running, (unsigned long)running, running))
		return 0;
	___update_load_avg(sa, 1);
	return 1;
}

/* update_rt_rq_load_avg() */
int update_rt_rq_load_avg(u64 now, struct rq *rq, int running)
{
	return update_class_avg(now, &rq->avg_rt, running);
}

/* update_dl_rq_load_avg() */
int update_dl_rq_load_avg(u64 now, struct rq *rq, int running)
{
	return update_class_avg(now, &rq->avg_dl, running);
}

/* the class of rq->curr as update_other_load_avgs() sees it */
static int curr_other_cls(const struct rq *rq)
{
	return rq->other_class ? rq->other_cls : -1;
}

/*
 * update_other_load_avgs(): both signals to rq_clock_pelt(), running as
 * the current task's class says (the IRQ and HW pressure terms are 0).
 */
bool update_other_load_avgs(struct model *m, struct rq *rq)
{
	u64 now = rq->clock_pelt;
	int cls = curr_other_cls(rq);

	if (!m->others_pelt)
		return false;
	return (update_rt_rq_load_avg(now, rq, cls == MODEL_OTHER_RT) |
		update_dl_rq_load_avg(now, rq, cls == MODEL_OTHER_DL)) != 0;
}

/* others_have_blocked(): cpu_util_rt() or cpu_util_dl() non-zero. */
bool others_have_blocked(const struct model *m, const struct rq *rq)
{
	if (!m->others_pelt)
		return false;
	return rq->avg_rt.util_avg || rq->avg_dl.util_avg;
}

/*
 * __schedule()'s put_prev_task() of the non-fair task leaving (class
 * @prev_cls) and set_next_task(first) of the one coming (@next_cls, -1: a
 * fair task or idle): put_prev_task_rt() / put_prev_task_dl() update the
 * leaving class's signal as running; set_next_task_rt() / _dl() update
 * the coming class's as not running unless the CPU was already in that
 * class (rq->curr's class: put_prev_task() has just updated it).
 */
void others_switch(struct model *m, struct rq *rq, int prev_cls, int next_cls)
{
	u64 now = rq->clock_pelt;

	if (!m->others_pelt)
		return;
	if (prev_cls == MODEL_OTHER_RT)
		update_rt_rq_load_avg(now, rq, 1);
	else if (prev_cls == MODEL_OTHER_DL)
		update_dl_rq_load_avg(now, rq, 1);
	if (next_cls == prev_cls)
		return;
	if (next_cls == MODEL_OTHER_RT)
		update_rt_rq_load_avg(now, rq, 0);
	else if (next_cls == MODEL_OTHER_DL)
		update_dl_rq_load_avg(now, rq, 0);
}

/*
 * A non-fair task of class @next_cls takes the CPU from one of class
 * @prev_cls (-1: a fair task or idle): others_switch(), then it is the CPU's
 * current class (rq->other_cls).
 */
void others_set_next(struct model *m, struct rq *rq, int prev_cls, int next_cls)
{
	others_switch(m, rq, prev_cls, next_cls);
	rq->other_cls = (uint8_t)next_cls;
}

/* task_tick_rt() / task_tick_dl(): the current class's signal, running. */
void others_tick(struct model *m, struct rq *rq)
{
	if (!m->others_pelt || !rq->other_class)
		return;
	if (rq->other_cls == MODEL_OTHER_RT)
		update_rt_rq_load_avg(rq->clock_pelt, rq, 1);
	else if (rq->other_cls == MODEL_OTHER_DL)
		update_dl_rq_load_avg(rq->clock_pelt, rq, 1);
}

unsigned long model_cpu_util_rt(const struct model *m, int cpu)
{
	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return 0;
	return m->rqs[cpu].avg_rt.util_avg;
}

unsigned long model_cpu_util_dl(const struct model *m, int cpu)
{
	if (cpu < 0 || (unsigned int)cpu >= m->nr_cpus)
		return 0;
	return m->rqs[cpu].avg_dl.util_avg;
}
