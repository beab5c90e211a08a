/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-Entity Load Tracking arithmetic (kernel/sched/pelt.c, pelt.h), exact
 * to the bit.  See pelt.c for the mathematics.
 */
#ifndef SCHEDREPLAY_MODEL_PELT_H
#define SCHEDREPLAY_MODEL_PELT_H

#include <stdint.h>

#include "pelt_table.h"   /* generated: LOAD_AVG_PERIOD, LOAD_AVG_MAX, runnable_avg_yN_inv */

/* include/linux/sched.h struct sched_avg (64-bit layout of the fields used) */
struct sched_avg {
	uint64_t last_update_time;   /* ns, advanced in 1024 ns units */
	uint64_t load_sum;           /* se: unweighted; cfs_rq: weighted by w */
	uint64_t runnable_sum;       /* << SCHED_CAPACITY_SHIFT */
	uint32_t util_sum;           /* << SCHED_CAPACITY_SHIFT */
	uint32_t period_contrib;     /* 1024 ns units into the current period */
	unsigned long load_avg;
	unsigned long runnable_avg;
	unsigned long util_avg;
};

uint64_t decay_load(uint64_t val, uint64_t n);
uint32_t __accumulate_pelt_segments(uint64_t periods, uint32_t d1, uint32_t d3);
uint32_t accumulate_sum(uint64_t delta, struct sched_avg *sa, unsigned long load,
			unsigned long runnable, int running);
int ___update_load_sum(uint64_t now, struct sched_avg *sa, unsigned long load,
		       unsigned long runnable, int running);
/* ___update_load_avg() with an explicit divider (the kernel's is
 * get_pelt_divider(sa); the v4.8 variant divides by LOAD_AVG_MAX). */
void ___update_load_avg_div(struct sched_avg *sa, unsigned long load, uint32_t divider);
void ___update_load_avg(struct sched_avg *sa, unsigned long load);
uint32_t get_pelt_divider(const struct sched_avg *sa);

#endif
