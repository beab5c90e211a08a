/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mechanical costs of the machine, calibrated from the trace itself.
 *
 * A measured wakeup latency is scheduling delay plus mechanical cost: the
 * wakeup path, the resched IPI, leaving idle, the context switch.  Every
 * measured wakeup is classified by the path it took (workload.h, enum
 * wl_path):
 *
 *   idle            the target CPU was idle at sched_wakeup and the next
 *                   switch on it put the task on: the whole latency is
 *                   mechanism (IPI, idle exit, switch);
 *   preempt_local   the target CPU's current was switched out R+ for it,
 *   preempt_remote  waker on the same CPU, or on another one (resched IPI);
 *                   the latency is the time from wakeup_preempt() setting
 *                   need_resched to the switch: mechanism (plus, on a lazy-
 *                   preemption kernel, the wait for the next tick);
 *   queued          it waited behind the running task: scheduling delay,
 *                   kept for reference only (the simulation produces it).
 *
 * Each path keeps its distribution as CALIB_Q quantiles (not only a mean),
 * and one per waker context (calib_ctx): a wakeup from a task takes effect
 * when the waker's system call or sleep reaches __schedule() (2-5 us on the
 * capture machine), one from a hardirq at the interrupt's return (10-16 us:
 * the rest of the handler), one from a softirq in between.  A hog preempted
 * by a timer and a ping-pong partner preempted by its peer take the same
 * path but not the same time, so a path's mixed table drawn for either gave
 * each the other's cost (hog-timer: the timer group's p50 -43 %).  A context
 * table with fewer than CALIB_MIN_SAMPLES samples falls back to the path's.
 * The simulation draws the cost of a wakeup from the distribution of the
 * path it takes IN THE SIMULATION, at a quantile given by a hash of the
 * wakee and its wake sequence number: deterministic, and identical for every
 * variant (a variant changes policy, not hardware).
 */
#ifndef SCHEDREPLAY_CALIB_H
#define SCHEDREPLAY_CALIB_H

#include <stdbool.h>
#include <stdint.h>

#include <schedreplay/workload.h>

#define CALIB_Q 1024
#define CALIB_MIN_SAMPLES 20

struct calib_path {
	uint64_t n;                  /* measured samples on this path */
	uint64_t mean, p50, p90, p99, max; /* ns */
	/* q[i] = sample at quantile (i + 0.5) / CALIB_Q; NULL if n == 0 */
	uint32_t *q;
	int8_t fallback;             /* path whose table is used when n is small, or -1 */
};

/* Who ran the waking (from enum wl_wake_src). */
enum calib_ctx {
	CALIB_CTX_TASK = 0,          /* a task (fair, RT/DL, unknown) */
	CALIB_CTX_HARDIRQ,           /* hardirq/NMI, or an idle CPU's interrupt */
	CALIB_CTX_SOFTIRQ,
	CALIB_CTX_NR
};

struct wl_calib {
	struct calib_path path[WL_PATH_NR];
	struct calib_path ctx[WL_PATH_NR][CALIB_CTX_NR];  /* by waker context */
	bool any;                    /* at least one mechanical path has samples */
};

/* Build from the wake records (latency and path filled).  -1 on ENOMEM. */
int calib_build(struct wl_calib *c, const struct wl_wake *wakes, uint32_t n);
void calib_release(struct wl_calib *c);

enum calib_ctx calib_ctx_of(enum wl_wake_src src);
const char *calib_ctx_name(enum calib_ctx ctx);

/*
 * The cost in ns of a wakeup of task @task (its @seq-th wake) from context
 * @ctx that takes @path in the simulation.  0 if nothing was calibrated for
 * the path.
 */
uint64_t calib_draw(const struct wl_calib *c, enum wl_path path, enum calib_ctx ctx,
		    uint32_t task, uint32_t seq);
/*
 * The same with the run's seed: seed 1 draws exactly calib_draw()'s
 * quantile; another seed another one, the same for every variant.
 */
uint64_t calib_draw_seeded(const struct wl_calib *c, enum wl_path path, enum calib_ctx ctx,
			   uint32_t task, uint32_t seq, uint64_t seed);

/* The table actually used for @path from @ctx (after fallbacks), or NULL. */
const struct calib_path *calib_effective(const struct wl_calib *c, enum wl_path path,
					 enum calib_ctx ctx);

/* splitmix64: the deterministic hash behind every draw. */
static inline uint64_t calib_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

#endif /* SCHEDREPLAY_CALIB_H */
