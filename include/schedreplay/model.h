/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler model: an instrumented C model of the Linux fair scheduler
 * (PELT, task groups and shares, EEVDF and CFS, tick, newidle balance and
 * blocked load, task placement and load balancing, CFS bandwidth control),
 * driven the way kernel/sched/core.c drives the fair class.
 *
 * The caller owns time and events; the model owns scheduling decisions.
 *
 *   - The caller passes the current time `now` (ns, monotonic, one clock for
 *     all CPUs: the trace clock) to every call.  The model keeps each CPU's
 *     rq clock, jiffies (now / TICK_NSEC) and sched_clock from it.
 *   - The caller reports what happens: forks, wakeups (onto the CPU it
 *     chooses, or one model_select_task_rq() chooses), the running task
 *     blocking or exiting, ticks every 1/HZ on busy CPUs, migrations, cgroup
 *     moves, nice changes, time stolen by RT/DL tasks.
 *   - The bandwidth timers (period and slack) are events of the caller's
 *     loop: model_next_timer() says when, model_run_timers() runs them.
 *   - The model decides what runs: after any call, model_need_resched(cpu)
 *     says the kernel would have set TIF_NEED_RESCHED on that CPU; the caller
 *     then calls model_schedule() (the kernel's __schedule()) when the CPU
 *     would reach it (immediately, or after its mechanical latency), and gets
 *     the task that runs next (NULL: the CPU goes idle; newidle balance has
 *     already run).
 *
 * Nothing here allocates after setup: tasks and groups are allocated when
 * created; events are allocation-free.  Functions that can fail take a
 * struct sr_error (may be NULL) and return -1 or NULL; they never print or
 * exit.  All randomness (NI_RANDOM, tree priorities) comes from
 * model_config.seed, so a run is reproducible bit for bit.
 *
 * Counters are named after the kernel functions they count (see
 * model_counter_next()); the kernel profile and the variants are described
 * in profile.h and variant.h.  See docs/model.md.
 */
#ifndef SCHEDREPLAY_MODEL_H
#define SCHEDREPLAY_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <schedreplay/error.h>
#include <schedreplay/profile.h>
#include <schedreplay/variant.h>

struct model;            /* one machine: runqueues, task groups, tasks */
struct model_task;       /* a task (owned by the model; freed with it) */
struct model_group;      /* a task group (cgroup or autogroup) */

#define MODEL_MAX_CPUS 4096

/*
 * The time a CPU's rq_clock_task() leaves out of its rq clock (IRQ and steal
 * time, update_rq_clock_task()), as data: @n points ascending in @at (the
 * caller's clock, ns), @left_ns cumulative, linear between points, 0 before
 * the first and constant after the last; it may grow at most as fast as the
 * clock (left_ns[i+1] - left_ns[i] <= at[i+1] - at[i]).
 */
struct model_clock_point {
	uint64_t at;
	uint64_t left_ns;
};
struct model_clock_left {
	const struct model_clock_point *v;
	uint32_t n;
};

struct model_config {
	unsigned int nr_cpus;            /* 1..MODEL_MAX_CPUS */
	const int *cpu_node;             /* NUMA node of each CPU; NULL: all node 0 */
	unsigned int hz;                 /* CONFIG_HZ; 0 means 250 */
	const struct model_profile *profile;  /* NULL: model_profile_default() */
	const struct model_variant_set *variants; /* NULL: "base" */
	uint64_t seed;                   /* NI_RANDOM and tree priorities */
	/*
	 * debugfs-style toggles (--sched-feature) over the profile's column,
	 * applied after the variants' own "sched_features"; model_new() fails
	 * if one does not exist in the profile's kernel.
	 */
	struct model_sched_features sched_features;
	/*
	 * Let the model's balancing move tasks (--placement model): newidle
	 * and periodic balance pull queued tasks.  When false (--placement
	 * trace) balancing runs for its bookkeeping (update_blocked_averages,
	 * costs, counters) but never moves a task: the trace's migrations are
	 * replayed instead.
	 */
	bool balance_moves_tasks;
	/*
	 * Newidle balance pulls even without balance_moves_tasks: a CPU
	 * about to go idle takes a cache-cold queued task from a busier one,
	 * as sched_balance_newidle() would (--placement trace: where the
	 * simulation, unlike the trace, leaves a CPU idle next to waiting
	 * tasks).  The balancer never moves pinned tasks (model_task_set_pinned)
	 * nor cache-hot ones (task_hot(): ran less than the migration cost
	 * ago) while its periodic balance has not failed cache_nice_tries times.
	 */
	bool newidle_moves_tasks;
	/*
	 * The same for an idle CPU's own balance (CPU_IDLE: the nohz idle
	 * balance a busy CPU's tick kicks, nohz_balancer_kick() ->
	 * _nohz_idle_balance()) when balance_moves_tasks is false: it moves
	 * queued tasks (task_hot() and cache_nice_tries as the kernel; no
	 * active balance), where it is otherwise a dry run; for every CPU until
	 * model_set_idle_moves() says otherwise.
	 */
	bool idle_moves_tasks;
	/*
	 * Optional: called when the model's balancing moves a queued task
	 * (@id = model_task_id()), so that the caller can follow it (and
	 * emit its sched_migrate_task).  Wakeup and traced migrations are the
	 * caller's own and are not reported.
	 */
	void (*migrate_hook)(void *ctx, uint32_t id, int from, int to, uint64_t now);
	/*
	 * Optional: an active balance on @waker_cpu queued stopper work on
	 * @cpu (stop_one_cpu_nowait(), which wakes the stopper) at @now; so
	 * does an affinity change of a task running on @cpu
	 * (model_task_set_affinity()).  The
	 * caller runs it: the stopper
	 * (a non-fair task: the trace's migration/N, or a stand-in when the
	 * trace has none - the kernel's always preempts) takes @cpu
	 * (model_other_class(cpu, true)), model_cpu_stop() does the work
	 * (moving a task reports it through migrate_hook), the stopper leaves
	 * (model_other_class(cpu, false), then model_schedule()).  NULL: the
	 * model runs all of that at once inside the balance that queued it.
	 * Only with balance_moves_tasks (no stopper runs otherwise).
	 */
	void (*stopper_hook)(void *ctx, int cpu, int waker_cpu, uint64_t now);
	/*
	 * Cost the model charges to newidle balancing, in ns, used only for
	 * the kernel's own avg_idle / max_newidle_lb_cost gates (the model
	 * cannot measure sched_clock).  0 selects the profile's values.
	 */
	uint64_t newidle_domain_cost_ns;
	uint64_t blocked_cost_per_cfs_rq_ns;
	/*
	 * Optional: called for every sched_stat_runtime the modelled kernel
	 * would emit from a fair task's update_curr() (@id = model_task_id(),
	 * @runtime = the delta in ns, @now = the rq clock it was charged up
	 * to: rq->clock, the simulation's time, which clock_task may trail by
	 * the time it left out, model_config.clock_left).  For event dumps and analysis; NULL: none (no cost).
	 */
	void (*stat_runtime_hook)(void *ctx, int cpu, uint32_t id, uint64_t runtime, uint64_t now);
	void *hook_ctx;
	/*
	 * The capture kernel's vendor packing (boot option sched_vcpu_pack=,
	 * not in mainline; docs/model.md "Placement on the capture kernel"):
	 * model_select_task_rq() keeps a wakeup or fork on the waker's
	 * (parent's) CPU instead of the idle CPU mainline chose when
	 * vcpu_pack_room() says the waker's CPU has room.  false: mainline.
	 * Only model_select_task_rq() reads it.
	 */
	bool vcpu_pack;
	bool vcpu_pack_flat;    /* vcpu_pack_room()'s cut at its long-idle value at any idle time */
	/*
	 * model_task_exit_move() keeps an autogroup's task in its autogroup
	 * (the model before pirt51, 6 Dec 2026); false: the kernel's move to
	 * the root task group (task_wants_autogroup(): PF_EXITING).
	 */
	bool exit_keeps_autogroup;
	/*
	 * No rq->avg_rt / rq->avg_dl (the model before others51, 6 Dec 2026).
	 * false (the default): the kernel's PELT signals of the time each CPU
	 * ran an RT / DL task (update_rt_rq_load_avg() /
	 * update_dl_rq_load_avg() at put_prev_task_rt(), set_next_task_rt(),
	 * task_tick_rt() and the DL equivalents), decayed by
	 * update_blocked_averages() (__update_blocked_others()), which keeps
	 * rq->has_blocked_load set while either is non-zero
	 * (others_have_blocked()).  true: no such signals, a CPU's blocked
	 * load is its cfs_rqs' alone.  avg_irq and the HW pressure signal are
	 * 0 either way (no IRQ time in a trace).
	 */
	bool no_others_pelt;
	/*
	 * false (the default): each CPU's capacity as the kernel's balancer
	 * sees it, update_cpu_capacity() / scale_rt_capacity(): 1024 less
	 * avg_rt and avg_dl util_avg (floor 1), refreshed for the balancing
	 * CPU's local group by update_sd_lb_stats() (update_group_capacity()),
	 * read by group capacity, capacity_of(), check_cpu_capacity() (reduced
	 * capacity: misfit groups, active balance, the nohz kick) and
	 * wake_affine_weight().  true: every CPU 1024, the model before cap52
	 * (6 Dec 2026).  Either way no IRQ or HW pressure term.
	 */
	bool fixed_cpu_capacity;
	/*
	 * NI_RANDOM's starting newidle_ratio per domain (0..1024, the success
	 * rate per 1024 newidle balances; newidle_success = ratio / 2 of
	 * newidle_call = 512) when newidle_ratio_given; else sd_init()'s 512.
	 */
	bool newidle_ratio_given;
	unsigned int newidle_ratio;
	/*
	 * wakeup_preempt() requests the clock skip (rq_clock_skip_update())
	 * on an idle CPU too: the kernel's idle task is on_rq (init_idle()
	 * sets TASK_ON_RQ_QUEUED), so the __schedule() that leaves idle keeps
	 * the wakeup's clock and the wakee is charged from its enqueue, not
	 * from its switch-in.  false: the clock is updated at that switch
	 * (the model before this option).  Experimental (--idle-clock).
	 */
	bool idle_clock_skip;
	/*
	 * A block's __schedule() whose clock read (the caller's @now) falls
	 * at or before the rq's last clock update reads 1 ns after it: the
	 * kernel's update_rq_clock() there runs under the rq lock, after
	 * every enqueue that updated the clock before it, so the dequeue's
	 * update_curr() always sees a delta and emits sched_stat_runtime.
	 * false: the clock stays (no delta, no emission).  Not with a clock
	 * skip pending.  replay's default (--block-clock after).
	 */
	bool block_clock_after;
	/*
	 * CFS profiles: a task asleep since before the model began (no
	 * history, model_task_start_sleeping()) is placed at its first wakeup
	 * as a long sleeper (place_entity(): the sleeper credit below
	 * min_vruntime, GENTLE_FAIR_SLEEPERS' half latency, whatever its own
	 * vruntime): the kernel's had slept for an unknown time, the model's
	 * starts at the queue's floor.  false: it keeps the floor (no credit
	 * beyond what the floor's advance since the start gives).  No effect
	 * on EEVDF profiles (and no lag inferred there either: replay's
	 * --initial-lag credit is zero under EEVDF).
	 */
	bool cfs_initial_credit;
	/*
	 * CFS profiles: as cfs_initial_credit, but only for the tasks
	 * model_task_set_initial_credit() marked (replay --initial-lag
	 * credit-long); the others keep the floor.  No effect on EEVDF
	 * profiles (no lag inferred there either).
	 */
	bool cfs_initial_credit_tasks;
	/*
	 * Per CPU (nr_cpus entries; NULL: none), the time rq_clock_task()
	 * leaves out: update_rq_clock() sets clock_task (and clock_pelt, which
	 * follows it) to the clock minus it, so update_curr()'s charges,
	 * slices, bandwidth runtime and PELT do not count it, as the kernel's
	 * with IRQ_TIME_ACCOUNTING / PARAVIRT_TIME_ACCOUNTING.  Copied by
	 * model_new(), which fails on points out of order or growing faster
	 * than the clock.  (--clock-task traced.)
	 */
	const struct model_clock_left *clock_left;
};

/* Create a machine; NULL on error (err filled). */
struct model *model_new(const struct model_config *cfg, struct sr_error *err);
/* Free the machine, its groups and tasks.  Accepts NULL. */
void model_free(struct model *m);

unsigned int model_nr_cpus(const struct model *m);
unsigned int model_hz(const struct model *m);
const struct model_profile *model_profile(const struct model *m);
/* The sched feature toggles applied over it (variants' and the caller's). */
const struct model_sched_features *model_sched_features(const struct model *m);
/* Print the effective settings (profile, tunables after CPU scaling, variants). */
void model_print_settings(const struct model *m, FILE *out);

/* ---- task groups ----------------------------------------------------- */

/* The root task group (always exists). */
struct model_group *model_root_group(struct model *m);
/*
 * A new task group under @parent with cgroup v1 cpu.shares @shares (the
 * unscaled value, 2..262144; 1024 is the default).  An autogroup is a task
 * group under the root with shares 1024 (nice 0).  @name is copied.
 */
struct model_group *model_group_new(struct model *m, struct model_group *parent,
				    unsigned long shares, const char *name,
				    struct sr_error *err);
/* sched_group_set_shares(): change cpu.shares at @now. */
int model_group_set_shares(struct model *m, struct model_group *g, unsigned long shares,
			   uint64_t now, struct sr_error *err);
const char *model_group_name(const struct model_group *g);
/*
 * Mark @g an autogroup (a session's group of the root cgroup).  An exiting
 * task of an autogroup leaves it for the root task group at do_exit()'s
 * sched_move_task() (model_task_exit_move()), as the kernel's
 * sched_change_group() -> autogroup_task_group() does: task_wants_autogroup()
 * is false for PF_EXITING.
 */
void model_group_set_autogroup(struct model_group *g, bool autogroup);

/*
 * CPU bandwidth control (CONFIG_CFS_BANDWIDTH; docs/model.md "CFS
 * bandwidth"): tg_set_cfs_bandwidth() at @now.  @quota_ns per @period_ns
 * (cgroup v1 cpu.cfs_quota_us / cfs_period_us, x 1000; the kernel's limits:
 * period 1 ms..1 s, quota >= 1 ms); @quota_ns 0 removes the limit.  Burst 0.
 * The period timer runs on the grid @timer_phase_ns + k * @period_ns of the
 * caller's clock (the kernel's hrtimer keeps the grid it had when the quota
 * was set; the caller says where that is).  The pool starts full, every
 * queue with no runtime and not throttled.
 */
int model_group_set_bandwidth(struct model *m, struct model_group *g, uint64_t quota_ns,
			      uint64_t period_ns, uint64_t timer_phase_ns, uint64_t now,
			      struct sr_error *err);

struct model_bandwidth_info {
	uint64_t quota_ns, period_ns;  /* quota 0: no limit */
	uint64_t runtime_ns;           /* cfs_b->runtime: left in the pool */
	bool period_active;
	uint64_t period_expires;       /* next period timer expiry (valid if active) */
	uint64_t nr_periods, nr_throttled, throttled_time_ns;   /* cpu.stat */
};
/* The group's pool; -1 for the root group. */
int model_group_bandwidth(const struct model_group *g, struct model_bandwidth_info *out);

struct model_cfs_rq_info {
	unsigned int nr_running, h_nr_queued;
	unsigned long load_weight;
	int64_t runtime_remaining;     /* ns */
	bool runtime_enabled, throttled, on_list, pelt_clock_throttled;
	int throttle_count;
	bool group_se_queued;          /* its group entity is on the parent's queue */
};
/* The group's queue on @cpu; -1 on a bad CPU. */
int model_group_cfs_rq_info(const struct model *m, const struct model_group *g, int cpu,
			    struct model_cfs_rq_info *out);

/*
 * A group's queue on a CPU as the kernel's sched/debug prints it
 * (print_cfs_rq()), read-only: each value as of its last update, as the
 * kernel keeps it.  The kernel fields mirrored: cfs_rq->avg.load_avg /
 * util_avg / runnable_avg, cfs_rq->tg_load_avg_contrib, tg->load_avg (the
 * sum of the nodes' counters under aaron-node, read without counting a read),
 * tg->se[cpu]->load.weight (calc_group_shares()'s last result, scaled:
 * 1048576 = nice 0 on 64-bit) and tg->se[cpu]->avg.load_avg / util_avg, the
 * queue's nr_queued / h_nr_queued and whether it is on the leaf list (the
 * kernel prints only those).  The root group has no entity (have_se false).
 */
struct model_group_queue {
	unsigned long load_avg, util_avg, runnable_avg;
	unsigned long tg_load_avg_contrib;
	long tg_load_avg;
	bool have_se;
	unsigned long se_weight, se_load_avg, se_util_avg;
	unsigned int nr_queued, h_nr_queued;
	bool on_list;
	uint64_t last_update_time;     /* avg.last_update_time, the queue's PELT clock */
};
/* The group's queue on @cpu; -1 on a bad CPU or group.  Changes nothing. */
int model_group_queue_read(const struct model *m, const struct model_group *g, int cpu,
			   struct model_group_queue *out);

/*
 * The bandwidth timers (period and slack, hrtimers in the kernel) are
 * events of the caller's loop: model_next_timer() is the earliest pending
 * expiry (UINT64_MAX: none; it changes after any call), model_run_timers()
 * runs those due at or before @now (refill, distribute, unthrottle), after
 * which need_resched may be set on any CPU.
 */
uint64_t model_next_timer(const struct model *m);
void model_run_timers(struct model *m, uint64_t now);
/* Tasks kept from running by CPU bandwidth throttling, all CPUs: 6.18, on a
 * throttled_limbo_list; before 6.18, queued below a throttled queue. */
unsigned int model_nr_throttled(const struct model *m);

/* ---- tasks ------------------------------------------------------------ */

enum model_policy {
	MODEL_POLICY_NORMAL = 0,
	MODEL_POLICY_BATCH  = 3,
	MODEL_POLICY_IDLE   = 5,
};

/* Whether @policy (a SCHED_* number) is one of fair_sched_class's, the model's tasks. */
static inline bool model_policy_is_fair(long policy)
{
	return policy == MODEL_POLICY_NORMAL || policy == MODEL_POLICY_BATCH ||
	       policy == MODEL_POLICY_IDLE;
}

/*
 * A task in state TASK_NEW, in group @g (NULL: root), with @nice (-20..19).
 * It is not on any CPU until model_wake_up_new_task() or
 * model_task_start_sleeping()/model_task_start_runnable().
 */
struct model_task *model_task_new(struct model *m, struct model_group *g, int nice,
				  enum model_policy policy, uint32_t id,
				  struct sr_error *err);
/* The caller's id and an opaque pointer for the caller. */
uint32_t model_task_id(const struct model_task *t);
void model_task_set_priv(struct model_task *t, void *priv);
void *model_task_priv(const struct model_task *t);

enum model_task_state {
	MODEL_TASK_NEW,       /* created, never enqueued */
	MODEL_TASK_QUEUED,    /* on a runqueue (running or waiting) */
	MODEL_TASK_DELAYED,   /* asleep but still queued (DELAY_DEQUEUE) */
	MODEL_TASK_SLEEPING,  /* blocked, not queued */
	MODEL_TASK_DEAD,      /* exited */
};

struct model_task_info {
	enum model_task_state state;
	int cpu;                       /* task_cpu(); -1 before the first placement */
	bool running;                  /* rq->curr on its CPU */
	int nice;
	unsigned long weight;          /* se.load.weight (scaled, 1048576 = nice 0) */
	uint64_t vruntime, deadline, slice;
	int64_t vlag;
	uint64_t sum_exec_runtime;     /* ns */
	unsigned long load_avg, runnable_avg, util_avg;
	uint64_t load_sum;
	uint32_t period_contrib;
	uint64_t last_update_time;
	const struct model_group *group;
	bool throttled;                /* in its group's throttled_limbo_list (state QUEUED) */
};
void model_task_info(const struct model_task *t, struct model_task_info *out);

/*
 * Tasks that exist before the trace starts.  start_runnable enqueues the task
 * on @cpu as a wakeup would (it becomes current when picked); start_sleeping
 * only places it on @cpu, blocked and not yet attached (its load attaches at
 * its first wakeup, as for a migrated task).
 */
int model_task_start_runnable(struct model *m, struct model_task *t, int cpu, uint64_t now);
int model_task_start_sleeping(struct model *m, struct model_task *t, int cpu);
/*
 * The sleeper credit place_entity() gives @t under a CFS profile, ns: how far
 * below min_vruntime a long sleeper is placed (sched_latency, halved under
 * GENTLE_FAIR_SLEEPERS; min_granularity for SCHED_IDLE).  0 under EEVDF,
 * which keeps a lag instead.
 */
uint64_t model_sleeper_credit_ns(const struct model *m, const struct model_task *t);
/*
 * Mark @t, started sleeping (model_task_start_sleeping()) and not yet woken,
 * as a long sleeper before the trace: under model_config.cfs_initial_credit_tasks
 * its first wakeup gives it the full sleeper credit.  -1 if @t is not such a task.
 */
int model_task_set_initial_credit(struct model_task *t, bool on);

/*
 * The lag from before the trace (replay --initial-lag infer; docs/replay.md
 * "The start of the capture").  An entity never placed since the model began
 * (a task started sleeping, a group's per-CPU entity) had a lag in the
 * kernel that the trace does not show; it is placed at lag 0 unless the
 * caller tells the next model_try_to_wake_up() what the kernel's wakeup
 * check decided (MODEL_EXPECT_PREEMPT: the wakee preempted the running task;
 * MODEL_EXPECT_NO_PREEMPT: it did not).  If that wakeup places such an
 * entity where the wakee's hierarchy meets the running task's
 * (find_matching_se()) and the check at lag 0 decides otherwise, the entity
 * gets the stored lag closest to 0, within the kernel's lag clamp
 * (entity_lag()), under which check_preempt_wakeup_fair()'s pick decides as
 * the trace: the smallest positive lag that makes the wakee win, the
 * largest negative one that makes it lose.  None in the clamp: lag 0.
 * model_initial_lag_last() says what the last wakeup made of it (*vlag: the
 * stored lag chosen, virtual ns of that entity; *weight: its weight).
 */
enum model_wakeup_expect {
	MODEL_EXPECT_NONE = 0,
	MODEL_EXPECT_PREEMPT,
	MODEL_EXPECT_NO_PREEMPT,
};
enum model_initial_lag {
	MODEL_INITIAL_LAG_NONE = 0,    /* no entity without history met curr at that check */
	MODEL_INITIAL_LAG_ZERO,        /* lag 0 gives the traced outcome: kept */
	MODEL_INITIAL_LAG_SET,         /* a non-zero lag was needed and chosen */
	MODEL_INITIAL_LAG_INFEASIBLE,  /* no lag within the clamp gives it: lag 0 */
};
/*
 * The PELT a task started asleep had in the traced kernel (its se.avg at its
 * last update before the trace; replay --initial-pelt kernel): set in
 * place of init_entity_runnable_average()'s guess, after
 * model_task_start_sleeping() and before its first wakeup, which ages it
 * from @v->last_update_time (the model's clock, ns) with no contribution
 * and attaches it; or before model_task_start_runnable() of a task that was
 * asleep until the start (woken just before it), whose enqueue there ages
 * and attaches it the same way; @running: the task was on its CPU from
 * @v->last_update_time on (the snapshot read it running), so that ageing
 * counts it loaded, runnable and running, as __update_load_avg_se() of the
 * current entity does; @queued: it was runnable but not running (queued
 * behind its CPU's current task) from then on, aged loaded and runnable,
 * not running, as __update_load_avg_se() ages a queued entity that is not
 * cfs_rq->curr (both only before model_task_start_runnable()).  -1 if the
 * task is not such a task, both flags are set, or a value is out of range
 * (period_contrib >= 1024, util_sum beyond 32 bits).
 */
struct model_pelt_init {
	uint64_t load_sum, runnable_sum, util_sum;
	uint32_t period_contrib;
	unsigned long load_avg, runnable_avg, util_avg;
	uint64_t last_update_time;
	bool running;
	bool queued;
};
int model_task_set_pelt(struct model_task *t, const struct model_pelt_init *v);
/*
 * A task given the kernel's se.avg (model_task_set_pelt()) attached at once,
 * at @now (the trace's start, before any event), to the queue of the CPU it
 * was started asleep on, as the kernel's blocked task stays attached to its
 * last CPU's cfs_rq (dequeue_entity() keeps it there; update_blocked_averages()
 * decays it; migrate_task_rq_fair() removes it at a wakeup elsewhere): aged
 * blocked to @now, then attach_entity_cfs_rq() - the queue's sums, its group
 * entities' propagated load and util, tg->load_avg.  Its first wakeup ages it
 * and does not attach it again.  No counter moves.  -1 if it was not given
 * the kernel's se.avg, is attached already, or out of memory.
 */
int model_task_attach_blocked(struct model *m, struct model_task *t, uint64_t now);
void model_expect_wakeup(struct model *m, enum model_wakeup_expect e);
enum model_initial_lag model_initial_lag_last(const struct model *m, int64_t *vlag,
					      unsigned long *weight);

/* ---- events (the core's entry points) --------------------------------- */

/*
 * wake_up_new_task(): the task forked by the task running on @parent_cpu
 * starts on @cpu (the trace's CPU, or model_select_task_rq(MODEL_WF_FORK)).
 * Counts sched_wakeup_new; may set need_resched on @cpu.
 */
int model_wake_up_new_task(struct model *m, struct model_task *t, int parent_cpu, int cpu,
			   uint64_t now);

#define MODEL_WF_SYNC  0x10   /* the waker is about to sleep (WF_SYNC) */
#define MODEL_WF_FORK  0x08
#define MODEL_WF_TTWU  0x04
#define MODEL_WF_EXEC  0x02   /* sched_exec(): the running task balanced at its exec */
/*
 * try_to_wake_up() onto @cpu.  A sleeping task is enqueued (migrating first,
 * with remove_entity_load_avg and a sched_migrate_task count, if @cpu is not
 * its CPU); a delayed task is requeued on its own CPU (ttwu_runnable, @cpu
 * is ignored as in 6.12); a queued or running task only counts a
 * sched_wakeup.  @waker_cpu is where the wakeup runs (for WF_SYNC / placement;
 * -1 if from an interrupt on @cpu).  Returns 1 if the task was enqueued, 0 if
 * it was already queued, -1 on misuse (dead or new task).
 */
int model_try_to_wake_up(struct model *m, struct model_task *t, int cpu, int waker_cpu,
			 int wake_flags, uint64_t now);
/*
 * The dequeue of a delayed (DELAY_DEQUEUE) sleeper completed at @now, as
 * the kernel completes it when the entity is picked or its lag is spent
 * (dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED) -> __block_task()):
 * for a caller that knows the kernel had done so - a trace that moves the
 * task at its wakeup, which ttwu_runnable() never does for a queued task.
 * Returns 1 if the task was delayed and is now off its queue, 0 if it was
 * not delayed (nothing done), -1 if it is running or not a live task.
 */
int model_finish_delayed_dequeue(struct model *m, struct model_task *t, uint64_t now);
/*
 * The same, for a caller that knows the kernel's pick completed that dequeue
 * some time before @now: pick_next_entity() takes a delayed entity only when
 * pick_eevdf() found it eligible (lag >= 0), and DELAY_ZERO then drops the
 * positive part, so the task left its queue at lag 0 whatever its lag at
 * @now (dequeue_entity() with DEQUEUE_DELAYED).  Without DELAY_ZERO the lag
 * at @now is kept.  Returns as model_finish_delayed_dequeue().
 */
int model_finish_delayed_pick(struct model *m, struct model_task *t, uint64_t now);

/* How the previous task leaves the CPU in __schedule(). */
enum model_prev {
	MODEL_PREV_RUNNABLE,  /* preempted or yielding: stays queued ("R", "R+") */
	MODEL_PREV_SLEEP,     /* blocks (S, D, I): dequeue, maybe delayed */
	MODEL_PREV_SPECIAL,   /* stopped/traced/parked (T, t, P): never delayed */
	MODEL_PREV_DEAD,      /* exits (Z, X): dequeue, then task_dead_fair */
};
/*
 * __schedule() on @cpu: the current fair task (if any) leaves as @prev says,
 * then the model picks the next task (newidle balance runs if nothing is
 * runnable).  Clears need_resched.  Returns the task now current (may be the
 * same task), NULL if the CPU goes idle or a non-fair task holds it.
 * Counts sched_switch when the task changes.
 */
struct model_task *model_schedule(struct model *m, int cpu, enum model_prev prev, uint64_t now);

/*
 * yield_to() of the current fair task on @cpu in favour of @p, queued on
 * @cpu and not running: @p becomes the next buddy and curr gives up the
 * rest of its request (yield_to_task_fair(), EEVDF profiles only).  Returns
 * 1 if it yielded (call model_schedule(MODEL_PREV_RUNNABLE) next: @p runs
 * if eligible, else the EEVDF pick, which may be curr again), 0 if nothing
 * was done, -1 on a bad CPU.
 */
int model_yield_to(struct model *m, int cpu, struct model_task *p, uint64_t now);

/*
 * A preemption of the current fair task on @cpu by @p (queued on @cpu, not
 * running) that the model's own check did not decide - a decision imposed
 * from outside (the trace's): curr is charged, @p becomes the next buddy
 * (which no EEVDF profile's wakeup path sets: NEXT_BUDDY is off;
 * pick_next_entity() takes it if eligible, else pick_eevdf() decides; the
 * wakeup-preemption check of 6.18.33+ ignores it; on a CFS profile the
 * buddies a preempting check_preempt_wakeup() leaves, from the level where
 * the hierarchies of @p and curr meet, and the CFS pick takes the buddy
 * within the wakeup granularity) and need_resched is set.
 * curr keeps its vruntime and deadline.  Returns as model_yield_to(); as
 * there, before 6.18 a @p below a throttled group queue is refused (0).
 */
int model_preempt_for(struct model *m, int cpu, struct model_task *p, uint64_t now);
/*
 * The same hand-over on the kernel's clock for a wakeup preemption: curr is
 * not charged and the rq clock not updated (the clock skip: the coming
 * __schedule() runs on the rq's last clock, the wakeup's), so curr's last
 * sched_stat_runtime stays the wakeup's and the time up to the switch is
 * charged to @p.  Returns as model_preempt_for().
 */
int model_preempt_for_skip(struct model *m, int cpu, struct model_task *p);
/*
 * Whether the current fair task on @cpu keeps the CPU against @p queued on
 * @cpu at a pick with slice protection (6.17+ __pick_eevdf(protect)): at
 * the level where their hierarchies meet, curr's entity is eligible and
 * protected.  Nothing is charged.  1 kept, 0 not (CFS profiles, a pick
 * without protection, no fair curr, @p not queued there), -1 on a bad CPU.
 */
int model_curr_protected(struct model *m, int cpu, struct model_task *p);
/*
 * update_curr() of the current fair task on @cpu at @at (the rq clock moved
 * to @at, never back): the charge the enqueue of a local wakeup at @at made
 * (enqueue_entity() -> update_curr()) where the simulation made no enqueue.
 * Returns 1 if a fair task was charged, 0 if none is current, -1 on a bad
 * CPU.
 */
int model_charge_curr(struct model *m, int cpu, uint64_t at);

/* TIF_NEED_RESCHED on @cpu, as set by the model. */
bool model_need_resched(const struct model *m, int cpu);
/*
 * RQCF_REQ_SKIP on @cpu: a wakeup_preempt() (or a yield, a hand-over) asked
 * the next __schedule() there to keep the rq clock (rq_clock_skip_update()).
 */
bool model_clock_skip_pending(const struct model *m, int cpu);
/*
 * Withdraw that request: the next __schedule() on @cpu updates the clock.
 * For a caller that knows the __schedule() the request was made for came
 * first in the kernel (it consumed the request: __schedule() clears
 * RQCF_ACT_SKIP) and the one the model is about to run is a later one.
 * Returns whether a request was pending.
 */
bool model_clock_skip_cancel(struct model *m, int cpu);
/* The current fair task on @cpu, NULL if idle or a non-fair task runs. */
struct model_task *model_curr(const struct model *m, int cpu);
/* Fair tasks queued on @cpu (rq->cfs.h_nr_queued, delayed ones included). */
unsigned int model_nr_queued(const struct model *m, int cpu);

/*
 * NO_HZ idle: whether @cpu keeps its tick while idle (@kept: the kernel's
 * tick_nohz_next_event() found its next timer within TICK_NSEC, so
 * tick_nohz_idle_stop_tick() leaves the tick running and does not call
 * nohz_balance_enter_idle()).  It holds for the CPU's later switches to idle
 * until changed (false at start: every idle entry stops the tick and joins
 * the nohz mask).
 */
void model_idle_tick(struct model *m, int cpu, bool kept);
/*
 * An idle @cpu that kept its tick stops it now (the idle loop's next
 * tick_nohz_idle_stop_tick() found no timer within a tick): outside the nohz
 * mask, it joins (tick_nohz_stop_tick() -> nohz_balance_enter_idle()); a busy
 * CPU or one already in the mask is left alone.
 */
void model_idle_tick_stop(struct model *m, int cpu);

/* sched_tick() on @cpu at @now (the caller ticks busy CPUs every 1/HZ). */
void model_tick(struct model *m, int cpu, uint64_t now);

/*
 * The class of a non-fair task taking @cpu (model_other_class(),
 * model_other_class_handover()): RT, DL, or the stop class (no PELT
 * signal).  Its RT/DL signal is kept unless model_config.no_others_pelt.
 */
enum model_other_cls { MODEL_OTHER_RT = 0, MODEL_OTHER_DL, MODEL_OTHER_STOP };

/*
 * A non-fair task of class @cls (RT/DL/stopper) takes @cpu at @now (the fair
 * current, if any, is put back: it stays queued) or gives it back (@running
 * false: @cls is not used).  While it runs the fair tasks see the time
 * stolen; on release need_resched is set so the caller calls
 * model_schedule().  Nothing is done for a @cpu or @cls out of range.
 */
void model_other_class(struct model *m, int cpu, bool running, enum model_other_cls cls,
		       uint64_t now);

/* @cpu's rq->avg_rt / avg_dl util_avg (0 with model_config.no_others_pelt). */
unsigned long model_cpu_util_rt(const struct model *m, int cpu);
unsigned long model_cpu_util_dl(const struct model *m, int cpu);

/*
 * The non-fair task holding @cpu hands it straight to another non-fair task
 * at @now (RT to RT: __schedule() -> put_prev_task_rt() -> update_curr_rt()
 * charges the one leaving, the CPU stays out of the fair class's hands):
 * the charge's sched_stat_runtime under STAT_RUNTIME_OTHER_CLASS.  Nothing
 * if no non-fair task holds @cpu; the coming task's class is @cls (nothing
 * is done for a @cls out of range).
 */
void model_other_class_handover(struct model *m, int cpu, enum model_other_cls cls,
				uint64_t now);

/*
 * Move a queued, not running task to @dst_cpu (load balancer, affinity,
 * or a traced sched_migrate_task): dequeue with DO_DETACH, set_task_cpu,
 * enqueue with ENQUEUE_MIGRATED, wakeup_preempt on @dst_cpu.  A sleeping
 * task is only re-homed (its load is removed from the old CPU and attaches at
 * the next wakeup).  Counts sched_migrate_task.  -1 if the task is running.
 */
int model_migrate_task(struct model *m, struct model_task *t, int dst_cpu, uint64_t now);

/*
 * One load-balance pass moving the @n queued, not running tasks @ts (all on
 * one CPU, in the order the balancer took them) to @dst_cpu, as
 * detach_tasks() + attach_tasks(): each is dequeued with DO_DETACH and
 * set_task_cpu() in that order, then, with the destination's clock updated
 * once, enqueued (ENQUEUE_MIGRATED) last-detached first, each with
 * wakeup_preempt(), so that each is placed after the ones attached before
 * it.  Counts sched_migrate_task per task.  -1 and nothing moved if a task
 * is not queued, is running, is not on the first one's CPU, is on @dst_cpu
 * already, or appears twice, or if @n is 0 or above 32 (sched_nr_migrate_break).
 */
int model_migrate_tasks(struct model *m, struct model_task *const *ts, unsigned int n,
			int dst_cpu, uint64_t now);

/*
 * Run the stopper work an active balance queued on @cpu (model_config.
 * stopper_hook): active_load_balance_cpu_stop(), moving at most one queued
 * fair task (the one the stopper preempted included) to the CPU that asked.
 * Call it while the stopper holds @cpu for the model (model_other_class());
 * @over_other: another non-fair task held @cpu already and the stopper
 * preempted it - the model's nr_running counts that task, so the stopper is
 * added to it for the test of a task to move.  Returns 1 if a task moved, 0
 * if not (or nothing was queued: a later balance may have found it done),
 * -1 on a bad CPU.
 */
int model_cpu_stop(struct model *m, int cpu, bool over_other, uint64_t now);

/* Change model_config.newidle_moves_tasks from now on (per __schedule() call). */
void model_set_newidle_moves(struct model *m, bool on);
/*
 * A traced newidle pull (replay --newidle-pulls): the next
 * sched_balance_newidle() of @cpu (a __schedule() there that found no fair
 * task after its prev's dequeue) first pulls @p if @p is still queued, not
 * running, on another CPU - detach_task() there, attach_task() here - and
 * the pick takes it; NULL clears.  model_traced_newidle_done(): whether the
 * last one set was pulled.
 */
void model_set_traced_newidle(struct model *m, struct model_task *p, int cpu);
bool model_traced_newidle_done(const struct model *m);
/*
 * The last sched_balance_newidle() of the model (analysis: replay
 * --dump-wake-records' `newidle` line).  @seq counts the calls (0: none yet);
 * @outcome is why it stopped or that it ran: the entry test's inputs
 * (rd->overloaded, this rq's avg_idle, the lowest domain's
 * max_newidle_lb_cost, read before the walk) and whether it ran
 * update_blocked_averages() (the rq clock update the kernel's
 * put_prev_task_rt() then charges).
 */
enum model_newidle_outcome {
	MODEL_NEWIDLE_TRACED,      /* a traced pull (model_set_traced_newidle()) */
	MODEL_NEWIDLE_NO_SD,       /* no domain */
	MODEL_NEWIDLE_NOT_OVERLOADED, /* !rd->overloaded */
	MODEL_NEWIDLE_SHORT_IDLE,  /* avg_idle < max_newidle_lb_cost (or the pre-5.16 test) */
	MODEL_NEWIDLE_RAN,         /* past the entry test */
};
struct model_newidle_info {
	uint64_t seq;
	int cpu;
	enum model_newidle_outcome outcome;
	bool rd_overloaded;
	bool blocked_update;       /* update_blocked_averages() ran */
	uint64_t avg_idle;
	uint64_t max_newidle_lb_cost;
	unsigned int newidle_ratio;   /* the lowest domain's NI_RANDOM ratio at entry */
	unsigned int balanced;        /* domains balanced (sched_balance_rq()) */
	unsigned int dice_skipped;    /* domains NI_RANDOM's die skipped */
	bool rd_overloaded_after;     /* rd->overloaded when the pass returned */
};
const struct model_newidle_info *model_last_newidle(const struct model *m);
/*
 * Who set and who cleared the root domain's overload flag last (analysis:
 * replay --dump-wake-records' `newidle` line).  Set by add_nr_running() (a
 * CPU reaching two runnable tasks, any class: ENQUEUE) or by a root-domain
 * update_sd_lb_stats() that found a CPU with nr_running > 1; cleared only by
 * the latter.  That pass's caller: a newidle walk (sched_balance_newidle()),
 * a CPU's own periodic balance (sched_balance_domains() from the softirq),
 * or the nohz idle balance on behalf of a tickless CPU (_nohz_idle_balance()).
 * @sets counts every set (each enqueue that takes a CPU to two runnable
 * tasks, the flag set or not, and each walk that set it), @clears the walks
 * that cleared it; @at: the model clock of that CPU.
 */
enum model_overload_site {
	MODEL_OVERLOAD_NONE,
	MODEL_OVERLOAD_ENQUEUE,    /* add_nr_running() */
	MODEL_OVERLOAD_NEWIDLE,    /* update_sd_lb_stats() of a newidle walk */
	MODEL_OVERLOAD_PERIODIC,   /* ... of a CPU's own periodic balance */
	MODEL_OVERLOAD_NOHZ,       /* ... of the nohz idle balance */
};
struct model_overload_change {
	enum model_overload_site site;
	int cpu;
	uint64_t at;
};
struct model_overload_info {
	bool overloaded;
	uint64_t sets, clears;
	struct model_overload_change last_set, last_clear;
};
void model_overload_info(const struct model *m, struct model_overload_info *out);
/*
 * put_prev_task_rt() / _dl() of a non-fair task that blocked on @cpu, after a
 * pick whose newidle pass moved the rq clock: one more sched_stat_runtime of
 * the RT/DL class (replay --rt-charge newidle).
 */
void model_other_class_put_prev(struct model *m, int cpu);
/*
 * Change for which CPUs (bit n: CPU n; CPUs 64 and up never) an idle CPU's
 * own balance moves tasks under model_config.idle_moves_tasks, from now on
 * (per tick: its nohz idle balance runs from a busy CPU's model_tick()).
 */
void model_set_idle_moves(struct model *m, uint64_t cpus);

/*
 * The task may only run on its current CPU (nr_cpus_allowed == 1: per-CPU
 * kernel threads, tasks pinned by affinity): the balancer never moves it and
 * model_select_task_rq() keeps it where it is.
 */
void model_task_set_pinned(struct model_task *t, bool pinned);

/*
 * The task's cpus_mask, in the model's "one CPU or all" form: @cpu >= 0
 * allows that CPU only (set_cpus_allowed_ptr() to one CPU: every placement,
 * model_select_task_rq() included, returns it, as select_task_rq() in
 * kernel/sched/core.c does for nr_cpus_allowed == 1, and the balancer
 * leaves the task alone); -1 (or a CPU past the model's) allows all.  It
 * does not move the task: a caller whose task runs or is queued elsewhere
 * moves it (the stopper of affine_move_task()).
 */
void model_task_set_allowed_cpu(struct model *m, struct model_task *t, int cpu);
/*
 * The task's cpus_mask in full (set_cpus_allowed_ptr()): bit n of
 * @mask[n / 64] allows CPU n, for n < @nbits; CPUs past the model's are
 * dropped.  A mask of one CPU or of every CPU is model_task_set_allowed_cpu()
 * (the same behaviour, to the byte); one of several CPUs but not all is kept
 * as p->cpus_mask and honoured where the kernel honours it for a fair task:
 * select_task_rq_fair()'s wake_affine target, select_idle_sibling()'s
 * recent_used_cpu and select_idle_cpu() scan, sched_balance_find_dst_group()
 * / _group_cpu() at fork and exec, select_fallback_rq() when the choice is
 * not allowed, and the balancer's can_migrate_task() (LBF_SOME_PINNED,
 * LBF_DST_PINNED's retry, the active balance's test).  Like
 * model_task_set_allowed_cpu() it does not move the task.  -1 (error set):
 * a mask allowing none of the model's CPUs, or out of memory.
 */
int model_task_set_allowed_mask(struct model *m, struct model_task *t, const uint64_t *mask,
				unsigned int nbits, struct sr_error *err);
/*
 * sched_setaffinity(@t) called from @caller_cpu (__set_cpus_allowed_ptr_locked()
 * and affine_move_task(), kernel/sched/core.c): the mask becomes @cpu
 * (model_task_set_allowed_cpu()) or, with @cpu -1 and @mask, @mask
 * (model_task_set_allowed_mask()).  If it changed, the destination is
 * cpumask_any_and_distribute() of the new mask on @caller_cpu (a per-CPU
 * cursor: the first allowed CPU after that CPU's previous pick), and with
 * @move a task whose CPU the mask leaves out is moved there as the kernel
 * moves it: queued, by move_queued_task() at once; running on another CPU,
 * by that CPU's stopper (migration_cpu_stop(), queued through stopper_hook,
 * else run at once); asleep, not at all (its next placement goes through
 * select_fallback_rq()).  Running on @caller_cpu (it changes its own mask),
 * *@stop_dst is set to the destination: the caller runs its stopper
 * (stop_one_cpu()) and moves it (model_migrate_task() while the stopper
 * holds the CPU).  Moves are reported through migrate_hook, except that
 * one.  *@stop_dst is -1 otherwise.  -1 (error set, nothing changed): a
 * mask allowing none of the model's CPUs, or out of memory.
 */
int model_task_set_affinity(struct model *m, struct model_task *t, int caller_cpu, int cpu,
			    const uint64_t *mask, unsigned int nbits, bool move, uint64_t now,
			    int *stop_dst, struct sr_error *err);
/* cpumask_test_cpu(@cpu, t->cpus_ptr) as the model holds the task's mask (tests). */
bool model_task_cpu_allowed(const struct model *m, const struct model_task *t, int cpu);

/* sched_move_task(): the task moves to group @g (cgroup_attach_task). */
int model_task_move_group(struct model *m, struct model_task *t, struct model_group *g,
			  uint64_t now);
/*
 * do_exit() -> sched_autogroup_exit_task() -> sched_move_task()
 * (CONFIG_SCHED_AUTOGROUP, every distribution kernel): the exiting task is
 * dequeued (update_curr: a sched_stat_runtime), put, moved, enqueued and set
 * again, and need_resched is set; its final __schedule() follows.  The group
 * is unchanged for a task of a cgroup; a task of an autogroup
 * (model_group_set_autogroup()) moves to the root task group (PF_EXITING:
 * task_wants_autogroup() is false), its load detached from the autogroup's
 * queue there and then, unless model_config.exit_keeps_autogroup.
 */
/* From then on the task is exiting (PF_EXITING): a wakeup it makes is do_notify_parent()'s. */
int model_task_exit_move(struct model *m, struct model_task *t, uint64_t now);
/* set_user_nice(). */
int model_task_set_nice(struct model *m, struct model_task *t, int nice, uint64_t now);
/*
 * rt_mutex_setprio() of fair task @t from prio @oldprio to @newprio, both
 * 100..139 (a priority-inheritance boost or its end, sched_pi_setprio): a
 * requeue at the same weight and prio_changed_fair().  -1 for a prio outside
 * 100..139 or a dead task.
 */
int model_task_pi_setprio(struct model *m, struct model_task *t, int oldprio, int newprio,
			  uint64_t now);
/*
 * Queued (not running) fair task @t leaves the fair class
 * (sched_setscheduler() to an RT policy, a priority-inheritance boost to an
 * RT prio: check_class_changed() -> switched_from_fair()): dequeued and its
 * load detached; the model then has it asleep.  -1 if it is not queued.
 */
int model_task_switched_from_fair(struct model *m, struct model_task *t, uint64_t now);
/*
 * Sleeping fair task @t leaves the fair class (an RT boost of a blocked
 * holder): a delayed entity is dequeued first (rt_mutex_setprio()'s
 * DEQUEUE_SLEEP | DEQUEUE_DELAYED), then its load detached
 * (switched_from_fair()).  -1 if it is not asleep (or delayed) or left already.
 */
int model_task_switched_from_fair_asleep(struct model *m, struct model_task *t, uint64_t now);
/*
 * @t stands for the same thread as the fair task @from before a class change
 * (fair -> RT -> fair): at @t's first wakeup it takes over @from's PELT
 * (aged blocked over the RT interval, then attached), vlag and deadline, as
 * the kernel's one sched_entity keeps them (class_carry()).  -1 if @t is
 * queued, dead or already linked.
 */
int model_task_set_class_prev(struct model_task *t, struct model_task *from);
/*
 * Sleeping fair task @t enters the fair class runnable on @cpu (the end of an
 * RT boost, rt_mutex_setprio(); sched_setscheduler() to a fair policy): the
 * class change's enqueue (ENQUEUE_RESTORE | ENQUEUE_MOVE, not a wakeup),
 * switched_to_fair()'s attach of a carried entity (model_task_set_class_prev())
 * and its resched - resched_curr() if @running (@t current on @cpu, its RT
 * interval ended there), else wakeup_preempt() with no wake flags.  @t may
 * also be a task that left the class itself (model_task_switched_from_fair*()).
 * -1 if @t is not asleep, is delayed, or is attached and never left.
 */
int model_task_switched_to_fair(struct model *m, struct model_task *t, int cpu, bool running,
				uint64_t now);
/*
 * Sleeping fair task @t enters the fair class asleep on @cpu (sched_setscheduler()
 * to a fair policy, or a deboost, of a blocked task): check_class_changed()
 * -> switched_to_fair() -> attach_task_cfs_rq() attaches its entity's load
 * (the carried one, model_task_set_class_prev(), or its own if it left the
 * class itself) to @cpu's cfs_rq at the change, as blocked load; its later
 * wakeup enqueues it without attaching again.  Nothing carried: nothing
 * attached (its first wakeup attaches it, as before).  -1 if @t is not
 * asleep, is delayed, or is attached and never left.
 */
int model_task_switched_to_fair_asleep(struct model *m, struct model_task *t, int cpu,
				       uint64_t now);

/*
 * --placement model: the CPU select_task_rq_fair() would choose for @t,
 * woken (MODEL_WF_TTWU, optionally | MODEL_WF_SYNC) by a task on @waker_cpu,
 * or forked (MODEL_WF_FORK) by a task on @waker_cpu, or (MODEL_WF_EXEC) @t
 * running on its CPU at its exec (sched_exec(); @waker_cpu unused).  A wakeup records the
 * wakee for the task current on @waker_cpu (record_wakee()) and updates
 * @t's recent_used_cpu, as the kernel's does.  A documented simplification
 * of the kernel (docs/model.md: SIS_UTIL without util_est, no SMT, LLC =
 * NUMA node, no vcpu_is_preempted()).  With model_config.vcpu_pack, the
 * capture kernel's vcpu_pack_room() step follows mainline's choice.
 */
int model_select_task_rq(struct model *m, struct model_task *t, int waker_cpu,
			 int wake_flags, uint64_t now);

/* ---- counters --------------------------------------------------------- */

/*
 * Iterate the counters as (name, value) pairs: *iter starts at 0; returns
 * false when done.  Names are stable (the replay JSON uses them): the event
 * names sched_switch, sched_wakeup, sched_wakeup_new, sched_migrate_task,
 * sched_stat_runtime, and the kernel function names update_curr,
 * update_load_avg, update_cfs_group, reweight_entity, update_tg_load_avg,
 * tg_load_avg_writes, propagate_entity_load_avg, update_blocked_averages,
 * newidle_balance, place_entity, wakeup_preempt, tick, followed by
 * finer-grained ones and per-NUMA-node tg_load_avg_writes.nodeN.
 */
bool model_counter_next(const struct model *m, unsigned int *iter, const char **name,
			uint64_t *value);
/* One counter by name; false if unknown. */
bool model_counter_get(const struct model *m, const char *name, uint64_t *value);
/* Zero every counter (e.g. after a warm-up). */
void model_counters_reset(struct model *m);

/*
 * Check the model's invariants (weights sum to cfs_rq loads, avg_vruntime
 * equals its entities' sum, counts consistent, no negative sums); 0 if all
 * hold, else -1 with the first violation in err.  O(tasks); for tests.
 */
int model_check_invariants(const struct model *m, struct sr_error *err);

#endif /* SCHEDREPLAY_MODEL_H */
