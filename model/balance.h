// SPDX-License-Identifier: GPL-2.0
/*
 * What the two halves of the balancer share (private to model/):
 * model/balance.c (topology, blocked load, newidle, periodic and nohz
 * balancing, placement) and model/balance_rq.c (sched_balance_rq() and
 * active balance).
 */
#ifndef SCHEDREPLAY_MODEL_BALANCE_H
#define SCHEDREPLAY_MODEL_BALANCE_H

#include "sched.h"

/* sd_init(): imbalance_pct of a domain without SMT (MC, NUMA) */
#define SD_IMBALANCE_PCT 117

/* balance.c */
/* Nothing runs or is queued on @cpu (available_idle_cpu(); no vCPU preemption). */
bool available_idle_cpu(const struct model *m, int cpu);
/* cpu_load(): the root cfs_rq's load_avg. */
unsigned long cpu_load(const struct model *m, int cpu);
/* Group @g of @sd holds @cpu: the CPU itself at MC, its node at NUMA. */
bool group_has_cpu(const struct model *m, const struct sched_domain *sd, int g, int cpu);

/*
 * The fair tasks the balancer counts on a CPU (sum_h_nr_running,
 * find_src_rq, sched_reduced_capacity(), need_active_balance(), the nohz
 * kick's reduced-capacity test): h_nr_queued, h_nr_runnable since v6.14.
 */
static inline unsigned int lb_h_nr(const struct model *m, const struct rq *rq)
{
	return sched_feat(m, LB_RUNNABLE_COUNTS) ? rq->cfs.h_nr_runnable : rq->cfs.h_nr_queued;
}

/* balance_rq.c */
unsigned long cpu_util_cfs(const struct model *m, int cpu);
bool sg_imbalanced(const struct model *m, const struct sched_domain *sd, int g);
enum group_type group_classify(unsigned int pct, bool sg_imbalanced, unsigned long misfit_load,
			       unsigned int nr_running,
			       unsigned int weight, unsigned long capacity, unsigned long util,
			       unsigned long runnable);

#endif
