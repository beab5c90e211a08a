// SPDX-License-Identifier: GPL-2.0
/*
 * Weights and the runtime -> virtual runtime scaling (kernel/sched/core.c
 * sched_prio_to_weight[], sched_prio_to_wmult[]; kernel/sched/fair.c
 * __update_inv_weight(), __calc_delta(), calc_delta_fair()).
 *
 * The tables are facts: nice n has weight 1024 / 1.25^n (rounded so that
 * neighbouring levels differ by ~10% of CPU), and wmult = 2^32 / weight.
 */
#include "sched.h"

const int sched_prio_to_weight[40] = {
	/* -20 */ 88761, 71755, 56483, 46273, 36291,
	/* -15 */ 29154, 23254, 18705, 14949, 11916,
	/* -10 */  9548,  7620,  6100,  4904,  3906,
	/*  -5 */  3121,  2501,  1991,  1586,  1277,
	/*   0 */  1024,   820,   655,   526,   423,
	/*   5 */   335,   272,   215,   172,   137,
	/*  10 */   110,    87,    70,    56,    45,
	/*  15 */    36,    29,    23,    18,    15,
};

const u32 sched_prio_to_wmult[40] = {
	/* -20 */     48388,     59856,     76040,     92818,    118348,
	/* -15 */    147320,    184698,    229616,    287308,    360437,
	/* -10 */    449829,    563644,    704093,    875809,   1099582,
	/*  -5 */   1376151,   1717300,   2157191,   2708050,   3363326,
	/*   0 */   4194304,   5237765,   6557202,   8165337,  10153587,
	/*   5 */  12820798,  15790321,  19976592,  24970740,  31350126,
	/*  10 */  39045157,  49367440,  61356676,  76695844,  95443717,
	/*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

static int fls32(u32 x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

/*
 * __update_inv_weight(): the lazily computed 2^32 / w of a weight whose
 * inv_weight was zeroed by update_load_*().  Computed as (2^32 - 1) / w, so a
 * group entity of weight 1024 gets 4194303 where a nice-0 task, which keeps
 * the table value 2^32 / 1024 = 4194304, does not recompute it.
 */
static void __update_inv_weight(struct load_weight *lw)
{
	unsigned long w;

	if (lw->inv_weight)
		return;

	w = scale_load_down(lw->weight);
	if (w >= WMULT_CONST)
		lw->inv_weight = 1;
	else if (!w)
		lw->inv_weight = WMULT_CONST;
	else
		lw->inv_weight = (u32)(WMULT_CONST / w);
}

/*
 * __calc_delta(): delta_exec * weight / lw->weight without a division:
 *
 *   delta_exec * (weight * lw->inv_weight) >> 32
 *
 * keeping the factor within 32 bits by shifting it (and the final shift)
 * down when it has high bits; the final product uses 128 bits.
 */
u64 __calc_delta(u64 delta_exec, unsigned long weight, struct load_weight *lw)
{
	u64 fact = scale_load_down(weight);
	u32 fact_hi = (u32)(fact >> 32);
	int shift = WMULT_SHIFT;
	int fs;

	__update_inv_weight(lw);

	if (fact_hi) {
		fs = fls32(fact_hi);
		shift -= fs;
		fact >>= fs;
	}

	fact = (u64)(u32)fact * lw->inv_weight;

	fact_hi = (u32)(fact >> 32);
	if (fact_hi) {
		fs = fls32(fact_hi);
		shift -= fs;
		fact >>= fs;
	}

	return (u64)(((unsigned __int128)delta_exec * fact) >> shift);
}

/* calc_delta_fair(): wall time -> virtual time of @se (delta * NICE_0 / w). */
u64 calc_delta_fair(u64 delta, struct sched_entity *se)
{
	if (se->load.weight != NICE_0_LOAD)
		delta = __calc_delta(delta, NICE_0_LOAD, &se->load);
	return delta;
}
