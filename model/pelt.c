// SPDX-License-Identifier: GPL-2.0
/*
 * Per-Entity Load Tracking: the arithmetic of kernel/sched/pelt.c.
 *
 * Time is cut into periods of 1024 units of 1024 ns ("a period is 1024us",
 * about 1 ms).  Let u_i be the part of period p_i (i periods ago) during which
 * the object was runnable.  The load is the geometric series
 *
 *     u_0 + u_1 y + u_2 y^2 + ...,      y^32 = 1/2,
 *
 * so a period 32 ms ago weighs half as much as the current one.  Because the
 * series is geometric, rolling into a new period only needs the old sum
 * multiplied by y, then the new period's contribution added.
 *
 * All of it is fixed point: y^n is a 32-bit fraction from the generated
 * table runnable_avg_yN_inv[] (n < 32), and y^n for larger n is
 * 2^-(n/32) * y^(n%32).  A sum of a fully runnable object converges to
 * LOAD_AVG_MAX (47742 = 1024 (1 + y + y^2 + ...) in these integers); the
 * *_avg values are the sums divided by the sum's largest possible value at
 * the current position in the period, LOAD_AVG_MAX - 1024 + period_contrib.
 *
 * The model uses the same types and truncations as the 64-bit kernel, so
 * every value matches the kernel's bit for bit (tests/model checks 12000
 * update steps recorded from 6.12.117).
 */
#include "pelt.h"

#define PELT_MIN_DIVIDER_ (LOAD_AVG_MAX - 1024)

/* (val * mul) >> 32 with the exact 96-bit product: mul_u64_u32_shr(). */
static uint64_t mul_u64_u32_shr(uint64_t val, uint32_t mul, unsigned int shift)
{
	return (uint64_t)(((unsigned __int128)val * mul) >> shift);
}

/*
 * decay_load(): val * y^n.
 *
 * y^n = (1/2)^(n/32) * y^(n%32): the whole half-lives are a shift, the rest a
 * table lookup.  After 63 half-lives (n > 2016) anything below 2^64 is 0.
 */
uint64_t decay_load(uint64_t val, uint64_t n)
{
	unsigned int local_n;

	if (n > LOAD_AVG_PERIOD * 63)
		return 0;

	local_n = (unsigned int)n;
	if (local_n >= LOAD_AVG_PERIOD) {
		val >>= local_n / LOAD_AVG_PERIOD;
		local_n %= LOAD_AVG_PERIOD;
	}
	return mul_u64_u32_shr(val, runnable_avg_yN_inv[local_n], 32);
}

/*
 * __accumulate_pelt_segments(): the contribution of an interval that crossed
 * @periods period boundaries.  On a time line with the boundaries B1..Bp:
 *
 *   last update          B1        B2   ...   Bp         now
 *        |----- d1 ------|-------- d2 ---------|--- d3 ---|
 *
 *   d1: what was left of the period current at the last update
 *       (1024 - period_contrib units); by now it is @periods periods old,
 *       so it counts d1 * y^p;
 *   d2: the p - 1 whole periods in between, each 1024 units, the n-th one
 *       back weighted y^n: 1024 * (y + ... + y^(p-1)), which is the
 *       infinite series LOAD_AVG_MAX minus its first term (1024) minus its
 *       tail from p on (LOAD_AVG_MAX * y^p);
 *   d3: the part of the new current period elapsed so far, weight 1.
 *
 * The result is a u32, as in the kernel (it is at most LOAD_AVG_MAX).
 */
uint32_t __accumulate_pelt_segments(uint64_t periods, uint32_t d1, uint32_t d3)
{
	uint32_t c1, c2, c3 = d3;

	c1 = (uint32_t)decay_load((uint64_t)d1, periods);
	c2 = (uint32_t)(LOAD_AVG_MAX - decay_load(LOAD_AVG_MAX, periods) - 1024);

	return c1 + c2 + c3;
}

/*
 * accumulate_sum(): advance the sums by @delta units of 1024 ns.
 *
 * If no boundary was crossed, the whole delta is added undecayed.  Otherwise
 * the old sums decay by y^periods and the three segments above are added.
 * The contribution is weighted by @load for load_sum, by @runnable (a count,
 * << 10) for runnable_sum, and counted << 10 in util_sum while @running.
 * Returns the number of period boundaries crossed.
 */
uint32_t accumulate_sum(uint64_t delta, struct sched_avg *sa, unsigned long load,
			unsigned long runnable, int running)
{
	uint32_t contrib = (uint32_t)delta;   /* periods == 0: delta < 1024 */
	uint64_t periods;

	delta += sa->period_contrib;
	periods = delta / 1024;

	if (periods) {
		sa->load_sum = decay_load(sa->load_sum, periods);
		sa->runnable_sum = decay_load(sa->runnable_sum, periods);
		sa->util_sum = (uint32_t)decay_load((uint64_t)sa->util_sum, periods);

		delta %= 1024;
		/* With load == 0, runnable and running are 0 too: no contribution. */
		if (load)
			contrib = __accumulate_pelt_segments(periods,
					1024 - sa->period_contrib, (uint32_t)delta);
	}
	sa->period_contrib = (uint32_t)delta;

	if (load)
		sa->load_sum += load * contrib;
	if (runnable)
		sa->runnable_sum += runnable * contrib << 10;
	if (running)
		sa->util_sum += contrib << 10;

	return (uint32_t)periods;
}

/*
 * ___update_load_sum(): bring @sa up to @now (ns).  Time is counted in 1024 ns
 * units; the sub-unit remainder stays in last_update_time for next time.  A
 * clock that went backwards resets last_update_time and changes nothing else.
 * Returns 1 only when a period boundary was crossed: only then do the *_avg
 * values need recomputing (___update_load_avg()).
 */
int ___update_load_sum(uint64_t now, struct sched_avg *sa, unsigned long load,
		       unsigned long runnable, int running)
{
	uint64_t delta = now - sa->last_update_time;

	if ((int64_t)delta < 0) {
		sa->last_update_time = now;
		return 0;
	}

	delta >>= 10;
	if (!delta)
		return 0;

	sa->last_update_time += delta << 10;

	/*
	 * running implies runnable implies load; an entity that was dequeued
	 * while still cfs_rq->curr (or an emptied cfs_rq) has load 0.
	 */
	if (!load)
		runnable = running = 0;

	if (!accumulate_sum(delta, sa, load, runnable, running))
		return 0;

	return 1;
}

/*
 * get_pelt_divider(): the largest value a *_sum can have at this position of
 * the current period: LOAD_AVG_MAX * y + period_contrib
 * = LOAD_AVG_MAX - 1024 + period_contrib (46718 .. 47741).  Dividing by it
 * instead of LOAD_AVG_MAX keeps an always-running entity at exactly its
 * weight instead of oscillating in [1002, 1024) (625ed2bf049d).
 */
uint32_t get_pelt_divider(const struct sched_avg *sa)
{
	return PELT_MIN_DIVIDER_ + sa->period_contrib;
}

void ___update_load_avg_div(struct sched_avg *sa, unsigned long load, uint32_t divider)
{
	sa->load_avg = (unsigned long)((load * sa->load_sum) / divider);
	sa->runnable_avg = (unsigned long)(sa->runnable_sum / divider);
	sa->util_avg = sa->util_sum / divider;
}

/* ___update_load_avg(): *_avg = *_sum / divider; load_avg weighted by @load. */
void ___update_load_avg(struct sched_avg *sa, unsigned long load)
{
	___update_load_avg_div(sa, load, get_pelt_divider(sa));
}
