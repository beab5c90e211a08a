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
 * A path with fewer than CALIB_MIN_SAMPLES samples borrows another path's
 * table; with uncontested samples (--preempt-costs strict) a preemption
 * path borrows only when it has none of its own, see calib_build().
 * The simulation draws the cost of a wakeup from the distribution of the
 * path it takes IN THE SIMULATION, at a quantile given by a hash of the
 * wakee and its wake sequence number: deterministic, and identical for every
 * variant (a variant changes policy, not hardware).
 *
 * The idle path is also kept per CPU (idle_cpu), because what a CPU's
 * measurement shows differs by CPU: where the kernel traces the switch out
 * of idle, the sample is the real idle exit (IPI, leaving the idle loop,
 * the switch: 5-15 us on the capture machine); where it does not and the
 * reader's repair restored the switch (WL_WAKE_RESTORED), the restored
 * switch sits at the wakeup, early by that idle exit, and the sample is
 * the waking -> wakeup time (~1 us).  A simulated idle wakeup on CPU c
 * draws from c's own table, so that its latency has the definition c's
 * measurement has.  Fallbacks (< CALIB_MIN_SAMPLES): the pool of the
 * samples of the same kind (traced or restored) and context on every CPU,
 * then c's table over all contexts, then that pool over all contexts, then
 * the path's tables (the context matters more than the CPU: on a restored
 * CPU a hardirq's sample is ~1 us, a task's ~20 us).
 */
#ifndef SCHEDREPLAY_CALIB_H
#define SCHEDREPLAY_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedreplay/workload.h>

#define CALIB_Q 1024
#define CALIB_MIN_SAMPLES 20

struct calib_path {
	uint64_t n;                  /* measured samples on this path */
	uint64_t mean, p50, p90, p99, max; /* ns */
	/* q[i] = sample at quantile (i + 0.5) / CALIB_Q; NULL if n == 0 */
	uint32_t *q;
	int8_t fallback;             /* path whose table is used (n == 0; idle: n small), or -1 */
};

/* Who ran the waking (from enum wl_wake_src), or a fork. */
enum calib_ctx {
	CALIB_CTX_TASK = 0,          /* a task (fair, RT/DL, unknown) */
	CALIB_CTX_HARDIRQ,           /* hardirq/NMI, or an idle CPU's interrupt */
	CALIB_CTX_SOFTIRQ,
	/*
	 * wake_up_new_task() of a forked child (sched_wakeup_new): no wake
	 * list, the parent's CPU activates the child and sends the resched
	 * IPI, so a restored switch out of idle lands at the sched_wakeup_new
	 * itself (forkexec, CPU 1: 0 us against 40 us traced on CPU 0), where
	 * a remote wakeup's restored switch follows the target CPU's own
	 * sched_wakeup, after the IPI.  A fork table with too few samples
	 * falls back to the task one.  The simulation draws a stopper's
	 * move onto an idle CPU (move_queued_task(): the same remote
	 * activation and IPI) from it too.
	 */
	CALIB_CTX_FORK,
	CALIB_CTX_NR
};

/* Index of the all-contexts table in the per-CPU / per-kind idle tables. */
#define CALIB_CTX_ALL CALIB_CTX_NR

/*
 * Idle residency bands: how long the target CPU had been idle at the waking
 * (wl_wake.idle_ns), below 5, 20, 50, 200, 1000 us and above.  On the
 * capture machine a wakeup onto a CPU idle for less than 5 us costs less than
 * one onto a CPU idle for 5-50 us, and that one less than one idle for longer
 * (docs/validation-log.md, "Idle residency and the idle-exit cost").  An idle
 * table of a CPU or of a kind, per context, is split by residency: adjacent
 * bands are merged, from the shortest, until each group has
 * CALIB_MIN_SAMPLES samples of known residency (a short last group joins the
 * one before); fewer than two groups: not split.  Under
 * replay_config.idle_residency the idle path draws from the group of its
 * residency in the table it would use (calib_effective_cpu()).
 */
#define CALIB_IDLE_BANDS 6
/* The band of a residency in ns; -1 for WL_IDLE_NS_UNKNOWN (UINT64_MAX too). */
int calib_idle_band(uint64_t idle_ns);
/* "<5", "5-20", ... ">1000" (us) */
const char *calib_idle_band_name(int band);
/* The lower bound of @band in us (0 for the first) */
unsigned int calib_idle_band_lo_us(int band);

/* A table split by idle residency (above). */
struct calib_bands {
	uint8_t nr;                  /* groups; < 2: not split */
	uint8_t group_of[CALIB_IDLE_BANDS];  /* band -> group */
	uint8_t lo[CALIB_IDLE_BANDS], hi[CALIB_IDLE_BANDS];  /* group -> its bands */
	struct calib_path g[CALIB_IDLE_BANDS];
};
/* Group @g's residency range in us: "<20", "20-200", ">200" */
void calib_bands_name(const struct calib_bands *cb, int g, char *buf, size_t size);

/* The waker tables' axes (wl_calib.waker): context, then the trace's locality. */
enum { CALIB_WAKER_TASK = 0, CALIB_WAKER_FORK = 1, CALIB_WAKER_CTX_NR };
enum { CALIB_WAKER_LOCAL = 0, CALIB_WAKER_REMOTE_IDLE = 1, CALIB_WAKER_REMOTE_BUSY = 2,
       CALIB_WAKER_LOC_NR };

struct wl_calib {
	struct calib_path path[WL_PATH_NR];
	struct calib_path ctx[WL_PATH_NR][CALIB_CTX_NR];  /* by waker context */
	/* the idle path: per CPU (by context, then [CALIB_CTX_ALL]) */
	unsigned int nr_cpus;
	struct calib_path (*idle_cpu)[CALIB_CTX_NR + 1];  /* [nr_cpus] */
	/* the idle path's samples pooled by kind: [0] traced, [1] restored switch-in */
	struct calib_path idle_kind[2][CALIB_CTX_NR + 1];
	/* ... split by idle residency (idle_cpu's and idle_kind's per-context tables) */
	struct calib_bands (*idle_band_cpu)[CALIB_CTX_NR];  /* [nr_cpus] */
	struct calib_bands idle_band_kind[2][CALIB_CTX_NR];
	bool any;                    /* at least one mechanical path has samples */
	/*
	 * The waker's side (calib_build_waker()): the waker's CPU time from a
	 * wakeup or fork it did to its next op, when that op is a block (its
	 * system call returned to sleep: the run is the wakeup's own work and
	 * the return), by context (CALIB_WAKER_TASK / _FORK) and by the trace's
	 * locality: [CALIB_WAKER_LOCAL], remote onto an idle CPU, remote onto
	 * a busy one.  A remote wakeup costs its waker the remote enqueue or
	 * the wake list's queueing and the IPI (ttwu_queue_wakelist(),
	 * __smp_call_single_queue(), send_call_function_single_ipi(); on a VM
	 * a VM exit); the replay keeps that time in the waker's RUN ops.
	 */
	struct calib_path waker[CALIB_WAKER_CTX_NR][CALIB_WAKER_LOC_NR];
	/*
	 * A tick that rescheduled -> the switch of the task it ticked
	 * (workload_ticks.c): the kernel switches at the return from the
	 * interrupt, or, on a preempt=none kernel, at the return from the
	 * system call the tick hit.  --ticks traced draws it
	 * (calib_draw_tick()).
	 */
	struct calib_path tick;
};

/*
 * A waker's run longer than this is not a wakeup's mechanism but the waker's
 * own work before its block (hackbench's senders: p50 34-147 us local and
 * remote alike), left out of the waker tables: the remote wakeup's own cost
 * on the capture machine is under 40 us (the fork tables' p90 ~36 us).
 */
#define CALIB_WAKER_MAX_NS 50000u

/*
 * Build from the wake records (latency and path filled; an idle sample's
 * CPU is the wake's cpu) of a machine of @nr_cpus CPUs.  @uncontested: the
 * preemption samples went through uncontest_costs() (--preempt-costs strict),
 * so a preemption path keeps its own table however few its samples.  -1 on
 * ENOMEM.
 */
int calib_build(struct wl_calib *c, const struct wl_wake *wakes, uint32_t n,
		unsigned int nr_cpus, bool uncontested);
void calib_release(struct wl_calib *c);

/*
 * The waker's side tables (wl_calib.waker) from the ops of @wl's tasks: every
 * WAKE op (a task's own wakeup of a fair task, not spurious) or FORK op whose
 * next op is a RUN that a BLOCK follows gives that RUN's length.  -1 on
 * ENOMEM.
 */
struct wl_workload;
int calib_build_waker(struct wl_calib *c, const struct wl_workload *wl);
/*
 * The waker's extra CPU time for a remote wakeup of class @cls
 * (CALIB_WAKER_REMOTE_*) from context @ctx, against a local one: the
 * difference of the remote and the local table at one quantile, drawn as
 * calib_draw_seeded() draws (a hash of @task, @seq and @seed), 0 if negative
 * or when a table has fewer than CALIB_MIN_SAMPLES samples (a fork's tables
 * fall back to the task ones first).
 */
uint64_t calib_draw_waker(const struct wl_calib *c, int ctx, int cls, uint32_t task,
			  uint32_t seq, uint64_t seed);

/* The tick table (wl_calib.tick) from @n delays in ns (@v is sorted in place).  -1 on ENOMEM. */
int calib_build_tick(struct wl_calib *c, uint64_t *v, uint64_t n);
/*
 * The delay of a rescheduling tick's switch on @cpu for the tick at @t: a
 * quantile of the tick table at a hash of @cpu, @t and @seed (another salt
 * than the wakeups' draws: deterministic, the same for every variant).
 * UINT64_MAX when the table has fewer than CALIB_MIN_SAMPLES samples.
 */
uint64_t calib_draw_tick(const struct wl_calib *c, int cpu, uint64_t t, uint64_t seed);

enum calib_ctx calib_ctx_of(enum wl_wake_src src);
/* The context of a wake record: CALIB_CTX_FORK for a forked child's first wakeup. */
enum calib_ctx calib_ctx_of_wake(const struct wl_wake *w);
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

/*
 * The same for a wakeup onto CPU @cpu (-1: unknown: the path's tables, as
 * calib_draw_seeded()), @restored_cpu saying
 * whether that CPU's switches out of idle are restored ones
 * (wl_facts.idle_exit_restored): the idle path draws from the CPU's table
 * (see above); seed 1 draws the quantile calib_draw() draws.  @idle_ns: how
 * long @cpu had been idle at the wakeup, UINT64_MAX unknown or not to be
 * used: the idle path draws from the residency group of the table it uses
 * when that table is split (see CALIB_IDLE_BANDS).
 */
uint64_t calib_draw_cpu(const struct wl_calib *c, enum wl_path path, enum calib_ctx ctx,
			int cpu, bool restored_cpu, uint64_t idle_ns, uint32_t task, uint32_t seq,
			uint64_t seed);

/*
 * The shortest sample of @path's own table (its lowest quantile, ns): the
 * trace's quickest wakeup -> switch-in on that path; 0 under
 * CALIB_MIN_SAMPLES (no fallback: a floor, not a draw).
 */
uint64_t calib_path_min(const struct wl_calib *c, enum wl_path path);

/* The table actually used for @path from @ctx (after fallbacks), or NULL. */
const struct calib_path *calib_effective(const struct wl_calib *c, enum wl_path path,
					 enum calib_ctx ctx);
/* ... for a wakeup onto @cpu (calib_draw_cpu()). */
const struct calib_path *calib_effective_cpu(const struct wl_calib *c, enum wl_path path,
					     enum calib_ctx ctx, int cpu, bool restored_cpu,
					     uint64_t idle_ns);

/* splitmix64: the deterministic hash behind every draw. */
static inline uint64_t calib_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

#endif /* SCHEDREPLAY_CALIB_H */
