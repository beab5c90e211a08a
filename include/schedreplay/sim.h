/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replay: run an extracted workload (workload.h) through the scheduler model
 * (model.h) on the trace's N CPUs, as a discrete-event simulation, and
 * predict what the trace would have shown.
 *
 * The simulation owns time; the model owns every scheduling decision:
 *
 *   - a task's CPU work (RUN ops) advances only while it is the model's
 *     current on a CPU and no RT/DL task holds that CPU;
 *   - task-caused wakeups and forks happen when the waker reaches the op;
 *     external ones at their trace times; a wake that arrives before its
 *     target reached the block it ends is delivered at the block (the task
 *     blocks and is woken at once; skip_early_blocks: it does not sleep);
 *   - ticks every 1/HZ on busy CPUs only (NO_HZ idle), on each CPU's tick
 *     grid as inferred from the trace (ticks traced: at the trace's own
 *     ticks where it shows them);
 *   - RT/DL tasks take their CPUs at their traced times (stolen time);
 *   - placement: REPLAY_PLACEMENT_TRACE puts every wakeup and fork on the
 *     CPU the trace shows and applies the traced migrations of queued
 *     tasks; REPLAY_PLACEMENT_MODEL asks model_select_task_rq() and lets the
 *     model's balancing move tasks;
 *   - mechanical costs (calib.h): a wakeup that finds its CPU idle is
 *     switched in after an idle-path cost, a wakeup preemption takes effect
 *     after a preempt-path cost, both drawn from the trace's own calibrated
 *     distributions at a quantile fixed by the wake's identity, so every
 *     variant sees the same hardware (resched_at traced, the default: a
 *     waker the trace shows preempted by its wakee is switched out at its
 *     traced switch point instead).
 *
 * The simulation emits the same struct trace_event records the kernel would
 * (sched_switch with prev_state, sched_waking, sched_wakeup(_new),
 * sched_migrate_task, sched_process_fork, sched_stat_runtime,
 * cgroup_attach_task) and feeds them
 * to the latency machine of latency.h: predicted and measured latencies have
 * one definition, and the predicted event counts come from the same stream.
 *
 * replay_run() has no global state and only reads the workload: several
 * threads may replay one workload with different configurations at once.
 * The same workload and configuration give identical results.
 *
 * The replay's reports are here too: replay_print_text() (the text of
 * `schedreplay replay`) and replay_json_*() (its JSON), and the names
 * tables of its options (replay_X_names[], replay_name_to_value()).
 */
#ifndef SCHEDREPLAY_SIM_H
#define SCHEDREPLAY_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <schedreplay/error.h>
#include <schedreplay/latency.h>
#include <schedreplay/model.h>
#include <schedreplay/profile.h>
#include <schedreplay/trace.h>
#include <schedreplay/variant.h>
#include <schedreplay/workload.h>

/*
 * The names of an enum's values, as the command line takes them (--handoff
 * NAME, ...) and the output prints them: a table ended by a NULL name, in
 * the order --help and a usage error list them.  One table per enum,
 * declared after it (replay_handoff_names[], ...): the options' parsing,
 * their --help values, their usage errors and the reports read the same
 * names.
 */
struct replay_name {
	const char *name;
	int value;
};

/* The value @names gives @name (NULL: none), or -1. */
int replay_name_to_value(const struct replay_name *names, const char *name);
/* The name @names gives @value, or NULL. */
const char *replay_value_to_name(const struct replay_name *names, int value);

enum replay_placement {
	REPLAY_PLACEMENT_TRACE = 0,
	REPLAY_PLACEMENT_MODEL,
};
extern const struct replay_name replay_placement_names[];

/*
 * The capture kernel's vendor packing in the model's placement
 * (model_config.vcpu_pack): AUTO is on when the sidecar's kernel cmdline has
 * sched_vcpu_pack= and the profile comes from the trace (an explicit
 * --profile is a mainline kernel: off).  It changes only what the model's
 * select_task_rq_fair() chooses (placement model, state_placement,
 * placement_check).
 */
enum replay_vcpu_pack {
	REPLAY_VCPU_PACK_AUTO = 0,
	REPLAY_VCPU_PACK_OFF,
	REPLAY_VCPU_PACK_ON,
};

/*
 * replay_config.vcpu_pack_cut: vcpu_pack_room()'s utilisation cut - growing
 * with how long the idle CPU has idled, as the probe's sweep measured it
 * (IDLE, the default), or its long-idle value at every idle time (FLAT;
 * experimental: docs/validation-log.md, "The packing's idle-time cut").
 */
enum replay_vcpu_pack_cut {
	REPLAY_VCPU_PACK_CUT_IDLE = 0,
	REPLAY_VCPU_PACK_CUT_FLAT,
};
extern const struct replay_name replay_vcpu_pack_cut_names[];

/* replay_config.handoff: what a hand-off WAIT the model did not preempt at becomes. */
enum replay_handoff {
	REPLAY_HANDOFF_SLEEP = 0,
	REPLAY_HANDOFF_PREEMPT,
	REPLAY_HANDOFF_YIELD,
	REPLAY_HANDOFF_SKIP,
	REPLAY_HANDOFF_WRITEON,
	REPLAY_HANDOFF_WRITEON_PRE,
	REPLAY_HANDOFF_SKIP_WAKE,
};
extern const struct replay_name replay_handoff_names[];

/*
 * replay_config.early_wakes: what the stand-in block of a non-sync early wake
 * does about latency.  A wake that reaches its target before the target
 * reached the BLOCK it ends, and is not sync (WL_WAKE_SYNC), is delivered at
 * that block: the target still blocks there and is woken at once (the block
 * stands for writes the trace does not show; docs/replay.md "Early wakes").
 * In the trace the target slept there and was woken (a measured sample);
 * the stand-in's wakeup is its counterpart, with the simulated path's
 * mechanism (often an idle exit) as its value.
 *   SAMPLE   that wakeup is a latency sample like any other (the default;
 *            the others were measured worse: docs/validation-log.md, "Early
 *            wakes' stand-in samples");
 *   NOSAMPLE the block and the wakeup stay (every count as with SAMPLE) but
 *            its wakeup interval gives no sample (lat_machine_mute_pending());
 *   NOCOST   the wakeup is a sample, but costs no mechanical path cost (no
 *            idle exit, no preemption cost): a CPU the block left idle picks
 *            the task again at once;
 *   SLEEP    the wakeup is a sample, delivered not at once but after the
 *            sleep the trace shows for that block (struct wl_wake.sleep_ns
 *            of the block's traced wake), from the waker's CPU as before:
 *            the wakeup check sees a task that really slept.  Dropped if
 *            something else woke the task meanwhile.
 */
enum replay_early_wakes {
	REPLAY_EARLY_SAMPLE = 0,
	REPLAY_EARLY_NOSAMPLE,
	REPLAY_EARLY_NOCOST,
	REPLAY_EARLY_SLEEP,
};
extern const struct replay_name replay_early_wakes_names[];

/*
 * replay_config.start_switch: the simulation's switch out of idle at the
 * trace's first timestamp that puts a CPU's first task on it (the start
 * state: the task the trace shows running there, or the model's pick of
 * the queued ones) is compared with the trace's switches (COUNT); is
 * counted apart with the lost-events windows' events, on a CPU whose
 * window is at the start (LOST, the default: its stream begins after lost
 * records, which held the kernel's switch to that task); or on every CPU
 * (APART: no trace holds the switch that made its first current current;
 * docs/replay.md, "Lost events").
 */
enum replay_start_switch {
	REPLAY_START_SWITCH_COUNT = 0,
	REPLAY_START_SWITCH_LOST,
	REPLAY_START_SWITCH_APART,
};
extern const struct replay_name replay_start_switch_names[];

/*
 * replay_config.channel_burst: a reader with several writers asleep on its
 * BLOCK, waiting for the wake record of the writer the trace shows ending
 * it, and reached by another writer's channel wake (WL_WAKE_CHANNEL) for a
 * later sleep (the kernel's pipe_write() wakes rd_wait whoever writes: the
 * record's message is in the pipe).  OFF (the default): it sleeps on until
 * its own record comes, unless channel_wakes.  PLACE: the two wakes
 * exchange sleeps (as channel_wakes) only when the waker is running on its
 * CPU and the record's wakeup goes to that CPU: a wakee queued behind, or
 * preempting, the write burst that freed it (the convoy the trace shows);
 * PREV: only when the waker is running on the CPU the reader last ran on
 * (the reader's own CPU), wherever the wakeup goes; OWN: both (the reader
 * asleep on the burst's CPU and woken there: no migration).  Nothing else of
 * channel_wakes: a reader reaching a sleep does not take a later sleep's
 * early message.  Experimental: docs/validation-log.md ("A reader freed
 * only by the write burst running on its CPU").
 */
enum replay_channel_burst {
	REPLAY_CHANNEL_BURST_OFF = 0,
	REPLAY_CHANNEL_BURST_PLACE,
	REPLAY_CHANNEL_BURST_PREV,
	REPLAY_CHANNEL_BURST_OWN,
};
extern const struct replay_name replay_channel_burst_names[];

/*
 * replay_config.handoff_replies: the wakeup of a waker asleep in a hand-off
 * WAIT, by its wakee's reply (sim_handoff_release(); docs/replay.md,
 * "Hand-offs").  The trace shows that waker switched out runnable for its
 * wakee at the WAIT (preempted by it): it never slept, and its wait to run
 * again is a run-queue wait there, no wakeup-latency sample.  The replay's
 * waker sleeps where its wakee had not passed its block yet, and is woken.
 *   SAMPLE   that wakeup is a latency sample like any other (the replay's
 *            before 4 Dec 2026);
 *   NOSAMPLE its wakeup interval ends with no sample
 *            (lat_machine_mute_pending()), as the measured side has none:
 *            every event stays.
 */
enum replay_handoff_replies {
	REPLAY_REPLIES_SAMPLE = 0,
	REPLAY_REPLIES_NOSAMPLE,
};
extern const struct replay_name replay_handoff_replies_names[];

/*
 * replay_config.exit_preempt: a resched (a wakeup's, a tick's, a migration's,
 * a bandwidth timer's) of a CPU whose current task is past its EXIT_MOVE
 * (do_exit()'s sched_move_task(), which set need_resched itself).  do_exit()
 * has no preemption point from there to do_task_dead() on a preempt=none
 * kernel (docs/replay.md, "Exits").
 *   DEFER  none arms a preemption: the exiting task runs on to its EXIT,
 *          whose final __schedule() honours the resched (the default);
 *   NOW    each reschedules that CPU as for any other task (a wakeup after
 *          the path's cost), the default until 2 Dec 2026, for
 *          comparisons: docs/validation.md, "Goals met, pass by pass".
 */
enum replay_exit_preempt {
	REPLAY_EXIT_PREEMPT_DEFER = 0,
	REPLAY_EXIT_PREEMPT_NOW,
};
extern const struct replay_name replay_exit_preempt_names[];

/*
 * replay_config.cpu_stalls: the trace's CPU stalls (struct wl_stall, a busy
 * CPU that took no tick for over WL_STALL_TICKS periods: a stalled vCPU;
 * docs/replay.md, "CPU stalls").
 *   OFF     not looked for: the stall is its task's work;
 *   TRACED  taken out of that work (wl_options.cpu_stalls) and replayed at
 *           the trace's times: the CPU runs nothing and takes no tick, its
 *           current task (the simulation's) stays current and is charged
 *           the stall at its next update_curr(), as the kernel's was; a
 *           resched asked of the CPU then waits for the stall's end, where
 *           the tick the CPU missed comes (the default since 5 Dec 2026);
 *   STEAL   as TRACED, and a busy CPU's event-free gap whose charge falls
 *           short of it (steal time clock_task left out: struct
 *           wl_stall.steal) is replayed the same way from the gap's end
 *           less its steal to its end, with the CPU's clock_task and
 *           clock_pelt stopped through it (update_rq_clock_task() takes
 *           the steal off the delta that clock_task and
 *           update_rq_clock_pelt() advance by): the task is not charged it
 *           (experimental; docs/replay.md, "CPU stalls").
 */
enum replay_cpu_stalls {
	REPLAY_CPU_STALLS_OFF = 0,
	REPLAY_CPU_STALLS_TRACED,
	REPLAY_CPU_STALLS_STEAL,
};
extern const struct replay_name replay_cpu_stalls_names[];

/*
 * replay_config.resched_at: when a waker preempted by its own wakee (the
 * wakeup check set need_resched on the waker's CPU: resched_curr_lazy(),
 * TIF_NEED_RESCHED on the preempt=none capture kernel) is switched out.
 *   COST          after the local preemption path's drawn cost, wherever
 *                 that falls in the waker's work (the default);
 *   SYSCALL_EXIT  where the waker is inside a traced read or write (the
 *                 workload's WL_OP_SYSCALL marks: wl_options.syscall_marks),
 *                 at that system call's exit position in its work, its
 *                 return to user space (exit_to_user_mode_loop() ->
 *                 schedule()): its further wakes and work of the same call
 *                 come first; a block or a hand-off WAIT before it wins, and
 *                 no other resched of that CPU (a tick, a remote wakeup)
 *                 switches it earlier (those come at the exit, not before
 *                 their own drawn cost).  Elsewhere, and on traces without
 *                 the syscall events, as COST.  docs/replay.md, "Mechanical
 *                 costs".
 *   TRACED        where the trace shows this waker switched out runnable for
 *                 this wakee (its next ops are one RUN, then the hand-off WAIT
 *                 for the wakee), at that point of its work: its traced run
 *                 since the wakeup was this wakeup's mechanism, and the
 *                 drawn cost only bounds it from behind (armed after that
 *                 run).  Elsewhere as COST.
 *   NEXT_WAKE     as TRACED, and a task whose CPU has a switch armed and not
 *                 yet due (need_resched set: a wakee's preemption, a tick, a
 *                 remote wakeup) is switched out when it reaches its next
 *                 wake instead of making it: on the preempt=none capture
 *                 kernel TIF_NEED_RESCHED is honoured at the return to user
 *                 space of the system call that set it
 *                 (exit_to_user_mode_loop() -> schedule()), which comes
 *                 before the next call's wake, each wake taken as its own
 *                 call (hackbench's writes, one pipe per receiver) unless
 *                 the trace shows it in the call of the task's previous
 *                 wake (WL_WAKE_OP_IN_CALL: the flag kept set between
 *                 them), where it is left to that call.  Experimental.
 */
enum replay_resched_at {
	REPLAY_RESCHED_COST = 0,
	REPLAY_RESCHED_SYSCALL_EXIT,
	REPLAY_RESCHED_TRACED,
	REPLAY_RESCHED_NEXT_WAKE,
};
extern const struct replay_name replay_resched_at_names[];

/*
 * replay_config.tick_preempt_at: where in a task's work a tick's preemption
 * lands.
 *   MODEL   at the simulated tick's switch (tick_switch_delay() after the
 *           tick that set need_resched), wherever that falls in the work
 *           (the default);
 *   TRACED  as MODEL, and where the trace shows the task switched out
 *           runnable by a tick (the workload's WL_OP_PREEMPT marks:
 *           wl_options.tick_marks), the replay's task reaching that point of
 *           its work gets the update_curr() the kernel's tick made there
 *           (sched_tick() -> task_tick_fair() -> entity_tick() ->
 *           update_curr()): if the model's request has run out (or a
 *           resched is already pending), it is switched out there.  The
 *           model decides whether the tick preempts; the trace only places
 *           the decision in the work.  Experimental.  docs/replay.md,
 *           "Mechanical costs" ("Tick preemptions at the traced point").
 */
enum replay_tick_preempt_at {
	REPLAY_TICK_PREEMPT_MODEL = 0,
	REPLAY_TICK_PREEMPT_TRACED,
};
extern const struct replay_name replay_tick_preempt_at_names[];

/*
 * replay_config.exec_balance_at: where in an exec'ing task's work the
 * --placement model's sched_exec() decides (docs/replay.md, "Exec balancing
 * at the kernel's point").
 *   EXEC    at the trace's sched_process_exec (the default), which fires at
 *           the end of exec_binprm(), after the binary is loaded;
 *   TRACED  at the kernel's point as far as the trace tells it: where the
 *           trace shows the kernel's exec stopper move (sched_exec() ->
 *           stop_one_cpu(), its WL_OP_WAKE_OTHER), there; else the trace's
 *           measured lead (wl_facts.exec_lead_ns: the median work from
 *           those moves to their exec) before the exec (the workload's
 *           WL_OP_EXEC_BALANCE marks: wl_options.exec_marks).  sched_exec()
 *           runs at bprm_execve()'s start, before exec_binprm().
 *           Experimental: measured, it moves fewer execs than EXEC, the
 *           model's state at that point differs (docs/validation-log.md,
 *           "Exec balancing at the kernel's point").
 */
/*
 * replay_config.affinity: where a task's allowed CPUs come from
 * (docs/replay.md, "Affinity").
 *   CAPTURED  the capture's sched_setaffinity() calls and Cpus_allowed_list
 *             reads where the trace has them (the default; traces without
 *             them are replayed as under INFERRED);
 *   INFERRED  a task the trace shows on one CPU only is pinned there, every
 *             other is free (the rule before 5 Dec 2026).
 */
enum replay_affinity {
	REPLAY_AFFINITY_CAPTURED = 0,
	REPLAY_AFFINITY_INFERRED,
};
extern const struct replay_name replay_affinity_names[];

enum replay_exec_balance_at {
	REPLAY_EXEC_BALANCE_EXEC = 0,
	REPLAY_EXEC_BALANCE_TRACED,
};
extern const struct replay_name replay_exec_balance_at_names[];

/*
 * replay_config.standin_skip: the clock skip and the preemption of an early
 * wake's stand-in wakeup (docs/replay.md, "Early wakes").  The stand-in's
 * target T blocks and is woken at once; where its wakeup preempts the task
 * N the block's pick switched in, wakeup_preempt() asks N's CPU to skip its
 * next clock update (rq_clock_skip_update()).  If N blocks before that
 * preemption lands (within the drawn cost), its block's __schedule() keeps
 * the skipped clock: its dequeue charges it nothing (no sched_stat_runtime)
 * and its run goes to the next task.  On the preempt=none capture kernel N,
 * just switched in, returns to user space before it can block in a later
 * system call, and the preemption lands there.
 *   KEEP        as any other wakeup;
 *   DROP        a block does not keep a skip that only a stand-in's wakeup
 *               asked for (it set need_resched there): its __schedule()
 *               updates the clock, N is charged its run;
 *   LOCAL       the stand-in's preemption lands after the local preemption
 *               path's drawn cost (N's return to user space on its own
 *               CPU, no IPI to wait for), also where the trace's waker ran
 *               on another CPU;
 *   DROP_LOCAL  both;
 *   DROP_OWN    DROP only where the stand-in's wakeup preempted the task its
 *               own block switched in (the wakeup on the CPU the task
 *               blocked on), the case the inference is about; elsewhere,
 *               a task running since before may block in the same system
 *               call as the kernel's could, and keeps the skip;
 *   BLOCK_PREEMPT a task that reaches a block while a preemption only a
 *               stand-in's wakeup asked for is pending (its cost not yet
 *               over) is preempted there first, on the skipped clock (the
 *               kernel's would have landed at its return to user space,
 *               before that system call), and blocks when it next runs:
 *               the wakee switches in when it did under KEEP;
 *   BLOCK_CHARGE  BLOCK_PREEMPT, with the clock updated at that preemption:
 *               the task's run up to the block is charged to it (the work
 *               the kernel's task did after its preemption, up to its
 *               block), not to the wakee (the default since the
 *               thirty-third pass: docs/validation-log.md).
 */
enum replay_standin_skip {
	REPLAY_STANDIN_SKIP_KEEP = 0,
	REPLAY_STANDIN_SKIP_DROP,
	REPLAY_STANDIN_SKIP_LOCAL,
	REPLAY_STANDIN_SKIP_DROP_LOCAL,
	REPLAY_STANDIN_SKIP_DROP_OWN,
	REPLAY_STANDIN_SKIP_BLOCK_PREEMPT,
	REPLAY_STANDIN_SKIP_BLOCK_CHARGE,
};
extern const struct replay_name replay_standin_skip_names[];

/*
 * replay_config.queued_moves: a traced migration of a task the trace had
 * queued (the balancer moved it while it waited).  TIME (the default): at its
 * trace time, on the task's simulated state then - applied if queued,
 * deferred to its next preemption if running (dropped if it sleeps first),
 * and if asleep kept only as a pull by that CPU if it is idle at the
 * wakeup.  WAIT: also, a task the simulation has asleep in a hand-off WAIT
 * (runnable in the kernel: its next work waits for its wakee's), or that
 * sleeps in one with such a deferred move, is moved by it: the untraced
 * wake that releases it places it on the migration's CPU.  POSITION: WAIT,
 * and a migration of a task the simulation has asleep in a traced block at
 * or before the point of its work where the trace moved it (wl_timed.op: it
 * runs behind, or has not had the wakeup the trace showed before the move)
 * waits for that point: applied right after the wakeup that brings the task
 * there, else at its first preemption (or WAIT sleep, as WAIT) past it;
 * dropped if it sleeps in a later traced block first (the trace's wakeup
 * places it).  docs/replay.md, "Traced migrations".
 */
enum replay_queued_moves {
	REPLAY_QUEUED_MOVES_TIME = 0,
	REPLAY_QUEUED_MOVES_WAIT,
	REPLAY_QUEUED_MOVES_POSITION,
};
extern const struct replay_name replay_queued_moves_names[];

/*
 * replay_config.newidle_pulls: a traced newidle pull (struct wl_newidle: the
 * migration the kernel's sched_balance_newidle() made in the __schedule() of
 * a task that blocked or exited with no fair task left on its CPU).  TIME
 * (the default): applied at its trace time as any traced migration of a
 * queued task.  BLOCK: at the simulation's block (or exit) of that task on
 * the destination, before the model's pick, if that block comes within
 * REPLAY_NEWIDLE_WINDOW_NS of the trace time, no other fair task is queued
 * there and the moved task waits queued on another CPU; a block that comes
 * later holds the migration up to the window's end, where it is applied as
 * under TIME.  HOLD: BLOCK without the window - a pull whose block the
 * simulation has not reached at its trace time (the task unborn, asleep
 * before it, running or queued) is held for that block however late it
 * comes, and applied there (if the pulled task waits queued on another CPU
 * and no other fair task is queued there) or else as under TIME, then.
 * docs/replay.md, "Traced newidle pulls".
 */
enum replay_newidle_pulls {
	REPLAY_NEWIDLE_PULLS_TIME = 0,
	REPLAY_NEWIDLE_PULLS_BLOCK,
	REPLAY_NEWIDLE_PULLS_HOLD,
};
extern const struct replay_name replay_newidle_pulls_names[];
#define REPLAY_NEWIDLE_WINDOW_NS 200000u

/*
 * replay_config.wake_clock: the clock a local wakeup (the waker wakes a task
 * onto its own CPU) reads in the model: the sched_waking's time (waking), or
 * wl_facts.wake_clock_ns after it (traced, the default: where
 * try_to_wake_up()'s enqueue reads the rq clock on the capture kernel, so
 * the waker is charged up to there and a preempting wakee from there;
 * docs/replay.md, "Mechanical costs").
 */
enum replay_wake_clock {
	REPLAY_WAKE_CLOCK_WAKING = 0,
	REPLAY_WAKE_CLOCK_TRACED,
};
extern const struct replay_name replay_wake_clock_names[];

/*
 * replay_config.block_lead: the clock a block's __schedule() reads, before
 * its traced sched_switch: wl_facts.switch_lead_ns (median, the default), or
 * where the trace shows that block's own dequeue charge (traced:
 * wl_block_lead_ns(); the time from there to the switch is the next task's,
 * as set_next_entity() starts its exec_start there; experimental:
 * docs/replay.md, "Mechanical costs").
 */
enum replay_block_lead {
	REPLAY_BLOCK_LEAD_MEDIAN = 0,
	REPLAY_BLOCK_LEAD_TRACED,
};
extern const struct replay_name replay_block_lead_names[];

/*
 * replay_config.block_clock: a block whose __schedule() clock read falls at
 * or before the rq's last clock update (an enqueue charged the blocker after
 * the median lead before its switch): keeps that clock (keep: no delta, no
 * sched_stat_runtime of its dequeue), or reads 1 ns after it (after, the
 * default: model_config.block_clock_after; docs/replay.md, "Mechanical
 * costs").
 */
enum replay_block_clock {
	REPLAY_BLOCK_CLOCK_KEEP = 0,
	REPLAY_BLOCK_CLOCK_AFTER,
};
extern const struct replay_name replay_block_clock_names[];

/*
 * replay_config.rt_charge: an RT/DL task's block to idle charges its run once
 * (one, the default: its dequeue's update_curr_rt()), or, where the model's
 * newidle pass of the pick that follows (balance_fair() ->
 * sched_balance_newidle()) ran update_blocked_averages(), a second time, as
 * the kernel's put_prev_task_rt() charges the clock that update moved
 * (newidle; experimental: docs/replay.md, "RT/DL blocks and the newidle
 * pass").
 */
enum replay_rt_charge {
	REPLAY_RT_CHARGE_ONE = 0,
	REPLAY_RT_CHARGE_NEWIDLE,
};
extern const struct replay_name replay_rt_charge_names[];

/*
 * replay_config.idle_tick: an idle CPU stops its tick (stop, the default), or
 * keeps it where the trace's idle interval containing the tick is at most
 * one tick long and ends at a wakeup raised on that CPU in interrupt/softirq
 * context (short; wl_idle.ended_by): the kernel's tick_nohz_next_event()
 * retains the tick when the CPU's next timer event is within TICK_NSEC, and
 * that local wakeup stands in for the event.  That tick runs sched_tick() on
 * the idle CPU (its periodic balance, which recomputes rd->overloaded), and
 * the CPU stays out of the nohz idle mask while it keeps its tick
 * (model_idle_tick()).  Experimental: docs/replay.md, "Idle ticks".
 */
enum replay_idle_tick {
	REPLAY_IDLE_TICK_STOP = 0,
	REPLAY_IDLE_TICK_SHORT,
	REPLAY_IDLE_TICK_ANY,   /* short, whatever wake ended the idle */
};
extern const struct replay_name replay_idle_tick_names[];

/*
 * replay_config.wake_path: a wakeup whose trace shows the capture kernel
 * enqueue a fully asleep task (wl_wake_traced_path(): a local wake, its
 * waker's sched_stat_runtime in the first half of its sched_waking ->
 * sched_wakeup) where the model still has that task queued as delayed
 * (DELAY_DEQUEUE): requeued in place (model, the default), or its delayed
 * dequeue completed first at lag 0, as the kernel's pick had done since
 * its block (traced: model_finish_delayed_pick(); the wakeup then places
 * it as a sleeper; experimental: docs/replay.md, "Mechanical costs").
 */
enum replay_wake_path {
	REPLAY_WAKE_PATH_MODEL = 0,
	REPLAY_WAKE_PATH_TRACED,
};
extern const struct replay_name replay_wake_path_names[];

/*
 * replay_config.initial_lag: the lag of an entity the trace shows no history
 * of (a task asleep at the trace start, a group's per-CPU entity) at its
 * first placement.  ZERO (the default): 0.  INFER: where that placement is a
 * local wakeup whose trace shows the check's outcome (the wakee preempting
 * its waker: a local preemption path, uncontested; not preempting: queued,
 * not a sync wake), the stored lag closest to 0 within the kernel's clamp
 * that makes the model's check decide the same (model_expect_wakeup();
 * experimental: docs/replay.md, "The start of the capture"; under a CFS
 * profile the vruntime nearest its placement that gives the traced outcome:
 * place_initial_cfs()).  CREDIT: a CFS profile's task asleep at the trace
 * start is placed at its first wakeup as a long sleeper, min_vruntime less
 * the sleeper credit (place_entity(); model_config.cfs_initial_credit), then
 * as under INFER where the trace shows the outcome; an EEVDF profile's as
 * under ZERO.  CREDIT_LONG: as CREDIT, but the credit only for a task whose
 * sleep across the trace start the trace shows to be long, or gives no
 * reason to think short (its first wakeup a sleeper credit or more after the
 * start, or at least half its traced sleep time in sleeps of a credit or
 * more: the sleep the start falls in is picked in proportion to its length;
 * docs/replay.md "The start of the capture"); the others keep the floor
 * (model_config.cfs_initial_credit_tasks).
 */
enum replay_initial_lag {
	REPLAY_INITIAL_LAG_ZERO = 0,
	REPLAY_INITIAL_LAG_INFER,
	REPLAY_INITIAL_LAG_CREDIT,
	REPLAY_INITIAL_LAG_CREDIT_LONG,
};
extern const struct replay_name replay_initial_lag_names[];

/*
 * replay_config.initial_pelt: the PELT of a task asleep at the trace start.
 * GUESS: init_entity_runnable_average()'s, attached at its first wakeup.
 * KERNEL (GUESS where the sidecar has no start snapshot or not that
 * thread): the kernel's own se.avg from the sidecar's
 * sched_at_start (its last update before the trace), its last_update_time
 * mapped to the trace clock by the CPU's offset at the capture's end
 * (replay_kernel_clock_offsets()) and aged from there to that first wakeup
 * (model_task_set_pelt(); docs/replay.md "PELT at the capture's end").
 * ATTACHED: KERNEL's values, and the task's se.avg attached at the trace
 * start to the queue of the CPU the start snapshot has it on (its cpu, else
 * tasks_at_start's) where the trace first shows it on that CPU, as the
 * kernel's blocked task stays attached to its last CPU's cfs_rq
 * (model_task_attach_blocked()); its first wakeup does not attach it again,
 * one elsewhere removes it from there.  A task the trace first shows on
 * another CPU (it moved after the read) is attached at its first wakeup.
 * ALL (the default since 2026-12-05): ATTACHED, and the start snapshot's
 * threads the trace never shows (wl_unseen_threads()) held as model tasks
 * that never wake, attached blocked at the start to their CPU's queue in
 * their group; a task the read has runnable but not running on the CPU the
 * trace starts it on takes the read aged loaded and runnable, not running;
 * one read runnable on another CPU than the trace's first, aged as read
 * to the start and attached on the trace's CPU, as a migration would attach
 * it; every read's last_update_time mapped by its read CPU's clock offset.
 */
enum replay_initial_pelt {
	REPLAY_INITIAL_PELT_GUESS = 0,
	REPLAY_INITIAL_PELT_KERNEL,
	REPLAY_INITIAL_PELT_ATTACHED,
	REPLAY_INITIAL_PELT_ALL,
};
extern const struct replay_name replay_initial_pelt_names[];

/*
 * replay_config.sched_debug_at: the moment the task groups' comparison
 * probes the model for each CPU's block of a sched/debug read (group_check.c;
 * it changes nothing in the replay).  The kernel prints the read's header,
 * then CPU by CPU (print_cpu() over for_each_online_cpu(), kernel/sched/
 * debug.c), so a CPU's queues are as of a moment inside the read's span
 * [sched_clk, sched_clk + read_us].
 */
enum replay_sched_debug_at {
	REPLAY_SD_AT_START = 0,   /* every CPU at the read's header.sched_clk (zeroed config) */
	REPLAY_SD_AT_ORDER,       /* CPU N at sched_clk + read_us * N / nr_cpus */
	REPLAY_SD_AT_AGREE,       /* the trace's first agreement on the CPU's block, else start */
	REPLAY_SD_AT_CPU,         /* the trace's first agreement, else as order (the default) */
};
extern const struct replay_name replay_sched_debug_at_names[];

/*
 * replay_config.idle_clock: the clock a task woken onto an idle CPU is
 * charged from.  update: the idle CPU's __schedule() updates
 * the rq clock, the wakee is charged from its switch-in.  skip: the
 * kernel's wakeup_preempt() requests rq_clock_skip_update() there too (the
 * idle task is on_rq: init_idle()), so the wakee is charged from the
 * wakeup's enqueue (model_config.idle_clock_skip).  local: skip, except for
 * a wakeup from another CPU (ttwu_queue_wakelist(): the kernel's enqueue
 * ran on the target at the IPI, close to the switch; the model's at the
 * waking): that one's request is withdrawn (the default).  docs/replay.md,
 * "Mechanical costs".
 */
/*
 * replay_config.clock_task: the model's rq_clock_task().  wall: the
 * simulation's time, as the clock (the default).  traced: that less the
 * time the trace shows the CPU's clock_task left out so far (IRQ and steal
 * time: wl_clock_left_points(), model_config.clock_left).  docs/replay.md,
 * "Left-out clock_task time".
 */
enum replay_clock_task {
	REPLAY_CLOCK_TASK_WALL = 0,
	REPLAY_CLOCK_TASK_TRACED,
};
extern const struct replay_name replay_clock_task_names[];

/*
 * replay_config.others_pelt: the model's rq->avg_rt / avg_dl, the RT/DL
 * PELT signals that keep an idle CPU's blocked load pending
 * (model_config.no_others_pelt; docs/model.md "The other classes' PELT
 * signals").  off: none (the model before others51).  on: kept (the
 * default).
 */
enum replay_others_pelt {
	REPLAY_OTHERS_PELT_OFF = 0,
	REPLAY_OTHERS_PELT_ON,
};
extern const struct replay_name replay_others_pelt_names[];

/*
 * replay_config.cpu_capacity: each CPU's capacity in the model's balancer
 * and wake_affine (model_config.fixed_cpu_capacity; docs/model.md "CPU
 * capacity").  fixed: 1024 for every CPU (the model before cap52).  rt:
 * the kernel's update_cpu_capacity() / scale_rt_capacity(), 1024 less the
 * CPU's avg_rt and avg_dl util_avg.
 */
enum replay_cpu_capacity {
	REPLAY_CPU_CAPACITY_FIXED = 0,
	REPLAY_CPU_CAPACITY_RT,
};
extern const struct replay_name replay_cpu_capacity_names[];

enum replay_idle_clock {
	REPLAY_IDLE_CLOCK_UPDATE = 0,
	REPLAY_IDLE_CLOCK_SKIP,
	REPLAY_IDLE_CLOCK_LOCAL,
};
extern const struct replay_name replay_idle_clock_names[];

/*
 * replay_config.early_charge: a wake record a task's WAKE op delivers before
 * its target reached the block it ends (an early wake: nothing is enqueued,
 * the wake is kept for that block) was, in the capture kernel, a wakeup
 * whose enqueue on the target CPU ran update_curr() there
 * (enqueue_entity()): where that CPU is the waker's and both are in one
 * task group, the waker was charged, with its sched_stat_runtime.  off (the
 * default): not charged; local: charged at the wakeup's clock
 * (model_charge_curr(); experimental: docs/replay.md, "Early wakes"), where
 * the replay makes no wakeup of its own for that record (its block skipped:
 * a sync wake, or skip_early_blocks); a stand-in's or a race's wakeup
 * enqueues the task later, and that enqueue's update_curr() is the record's
 * one charge.
 */
enum replay_early_charge {
	REPLAY_EARLY_CHARGE_OFF = 0,
	REPLAY_EARLY_CHARGE_LOCAL,
};
extern const struct replay_name replay_early_charge_names[];

/*
 * replay_config.flush_last: the last wakeup of a wake-list flush (an
 * interrupt's external wakeups onto its own idle CPU, wl_wake.flush_ns),
 * queued at the end its earlier members hold the idle exit to.  held (the
 * default): the switch stays where it was armed (the flush end, or this
 * wakeup's own cost if earlier), so a wakee queued at that instant can be
 * switched in at once (0 us: idle-io, ~32 a run); cost: the switch follows
 * it by its own idle-path cost, as the kernel's idle loop exits
 * (schedule_idle()) only after sched_ttwu_pending() queued the whole flush;
 * lead: by the trace's __schedule() clock lead (switch_lead_ns).
 * Experimental (docs/replay.md, "Wake-list flushes").
 */
enum replay_flush_last {
	REPLAY_FLUSH_LAST_HELD = 0,
	REPLAY_FLUSH_LAST_COST,
	REPLAY_FLUSH_LAST_LEAD,
};
extern const struct replay_name replay_flush_last_names[];

/*
 * replay_config.behind_lead: a wakee queued on a busy CPU whose current task
 * then blocks is switched in by that task's __schedule(), which takes the rq
 * lock only after the waker's enqueue released it, then reads the clock,
 * dequeues, picks and switches: the switch comes a clock lead after the
 * wakeup at least.  off: the block switches at its own instant, however
 * soon after the wakeup (0 ns where the trace has no clock lead:
 * small-nowaking; the default); fallback: in a trace without a clock
 * lead (no sched_stat_runtime: switch_lead_ns 0), a current whose run ends
 * less than a lead after the wakeup, before a block, runs on to it, the
 * lead the queued path's lowest calibrated quantile (the shortest wakeup ->
 * switch-in behind a running task the trace shows); all: in every trace,
 * with the trace's own lead (switch_lead_ns) where it has one.
 * Experimental: faithful, but fallback exceeds small-nowaking's p50 limit
 * (docs/replay.md, "Behind a blocking current").
 */
enum replay_behind_lead {
	REPLAY_BEHIND_LEAD_OFF = 0,
	REPLAY_BEHIND_LEAD_FALLBACK,
	REPLAY_BEHIND_LEAD_ALL,
};
extern const struct replay_name replay_behind_lead_names[];

/*
 * replay_config.migrate_resched: a traced migration of a queued task (a
 * balance pull) dequeues it from its source CPU, whose update_curr() there
 * may end the running task's request or protection and set need_resched
 * (resched_curr(): an IPI to that CPU).  dest (the default): only the
 * destination's reschedule is armed; the source's waits for its task's next
 * operation.  both: the source's too, after the remote preemption path's
 * cost (experimental: docs/replay.md, "Mechanical costs").
 */
enum replay_migrate_resched {
	REPLAY_MIGRATE_RESCHED_DEST = 0,
	REPLAY_MIGRATE_RESCHED_BOTH,
};
extern const struct replay_name replay_migrate_resched_names[];

/*
 * replay_config.balance_attach: under placement trace, the migrations of a
 * traced load-balance pass that moved several queued tasks (WL_T_PASS_ID).
 *   TRACE   each is applied on its own at its trace time, in trace order
 *           (the default);
 *   KERNEL  the pass's tasks the simulation has queued on the source are
 *           detached in trace order and attached last-detached first, as
 *           detach_tasks() + attach_tasks() (model_migrate_tasks()), at the
 *           pass's first migration.  docs/replay.md, "Balance passes".
 */
enum replay_balance_attach {
	REPLAY_BALANCE_ATTACH_TRACE = 0,
	REPLAY_BALANCE_ATTACH_KERNEL,
};
extern const struct replay_name replay_balance_attach_names[];

enum replay_waker_costs {
	REPLAY_WAKER_TRACED = 0,
	REPLAY_WAKER_PLACED,
	REPLAY_WAKER_FOLLOW,
};
extern const struct replay_name replay_waker_costs_names[];

/*
 * When a busy CPU ticks (--ticks): GRID, the default: every 1/HZ on the
 * CPU's grid (wl_facts.tick_phase_ns), a tick that reschedules switching
 * wl_facts.tick_switch_ns later; TRACED: at the trace's own tick of that
 * period where it shows one (wl_traced_ticks(): the capture VM's ticks come
 * up to 600 us late), on the grid elsewhere, and a rescheduling tick's
 * switch after a delay drawn from the trace's tick -> switch delays
 * (calib_draw_tick(); tick_switch_ns under CALIB_MIN_SAMPLES of them).
 * The machine's timing: the same for every variant.
 */
enum replay_ticks {
	REPLAY_TICKS_GRID = 0,
	REPLAY_TICKS_TRACED,
};
extern const struct replay_name replay_ticks_names[];

/*
 * Each CPU's tick phase (--tick-phase): GRID, the default, the tick grid's
 * (wl_facts.tick_phase_grid_ns, where the grid holds at the HZ), as
 * tick_sched_timer fires on one grid per CPU, else the full-period charges'
 * mean (wl_facts.tick_phase_ns), else 0; ZERO: that mean, else 0 ns (the
 * rule until the twenty-sixth pass, for comparisons).  docs/replay.md,
 * "Tick grid phase".
 */
enum replay_tick_phase {
	REPLAY_TICK_PHASE_ZERO = 0,
	REPLAY_TICK_PHASE_GRID,
};
extern const struct replay_name replay_tick_phase_names[];

/*
 * Where the simulation's tick phases come from under @mode, by the order
 * above: the one rule of the simulation, replay's HZ line and its JSON
 * facts.tick_phase_from (replay_tick_phase_from_names[]: "zero",
 * "charges", "tick grid").
 */
enum replay_tick_phase_from {
	REPLAY_TICK_FROM_ZERO = 0,
	REPLAY_TICK_FROM_CHARGES,
	REPLAY_TICK_FROM_GRID,
};
extern const char *const replay_tick_phase_from_names[];
enum replay_tick_phase_from replay_tick_phase_from(const struct wl_facts *f,
						   enum replay_tick_phase mode);

/* replay_config.idle_residency (--idle-residency on|off; below) */
enum replay_idle_residency {
	REPLAY_IDLE_RESIDENCY_OFF = 0,
	REPLAY_IDLE_RESIDENCY_ON,
};
extern const struct replay_name replay_idle_residency_names[];

struct replay_config {
	/* NULL: the profile for the trace's kernel release, else the default */
	const struct model_profile *profile;
	const struct model_variant_set *variants;  /* NULL: base */
	enum replay_placement placement;
	enum replay_vcpu_pack vcpu_pack;
	enum replay_vcpu_pack_cut vcpu_pack_cut;
	/* --newidle-ratio: NI_RANDOM's starting newidle_ratio, 0..1024; -1: sd_init()'s 512 */
	int newidle_ratio;
	const char *comm_prefix;       /* latency samples of these comms; NULL: all */
	uint64_t seed;                 /* the model's RNG (NI_RANDOM, tree priorities) */
	/* --sched-feature toggles over the profile (model_config's) */
	struct model_sched_features sched_features;
	bool no_costs;                 /* ablation: zero mechanical costs */
	/*
	 * Ablation: groups with a CPU bandwidth limit (wl_group.quota_us) are
	 * replayed unthrottled (--no-bandwidth); by default the model throttles
	 * them (model_group_set_bandwidth(), docs/model.md "CFS bandwidth").
	 */
	bool no_bandwidth;
	/*
	 * A wake that reaches its target before the target reached the block
	 * it ends: false (default) = the target still blocks there and is
	 * woken at once; true = the block is skipped (the condition was
	 * already true).  See docs/replay.md.
	 */
	bool skip_early_blocks;
	/* the latency of the blocks skip_early_blocks keeps for non-sync wakes (above) */
	enum replay_early_wakes early_wakes;
	/* the start's switch-in on each CPU compared or counted apart (above) */
	enum replay_start_switch start_switch;
	/* the wakeup of a waker asleep in a hand-off WAIT (above) */
	enum replay_handoff_replies handoff_replies;
	/* a resched of a CPU running a task past its EXIT_MOVE (above) */
	enum replay_exit_preempt exit_preempt;
	/* the trace's CPU stalls (above) */
	enum replay_cpu_stalls cpu_stalls;
	/* when a waker preempted by its wakee is switched out (above) */
	enum replay_resched_at resched_at;
	/* where a tick's preemption lands in the work (above) */
	enum replay_tick_preempt_at tick_preempt_at;
	/* where --placement model's sched_exec() decides in the work (above) */
	enum replay_exec_balance_at exec_balance_at;
	enum replay_affinity affinity;
	/* an early wake's stand-in: its clock skip and preemption (above) */
	enum replay_standin_skip standin_skip;
	/* the clock of a local wakeup's enqueue (above) */
	enum replay_wake_clock wake_clock;
	/* the clock of a block's __schedule() (above) */
	enum replay_block_lead block_lead;
	/* a block's clock read before the rq's last update (above) */
	enum replay_block_clock block_clock;
	/* an RT/DL block's second charge after a newidle blocked update (above) */
	enum replay_rt_charge rt_charge;
	/* an idle CPU's tick where its trace idle is short (above) */
	enum replay_idle_tick idle_tick;
	/* a traced fully asleep wakee the model has delayed (above) */
	enum replay_wake_path wake_path;
	enum replay_initial_lag initial_lag;   /* the start's lags (--initial-lag) */
	enum replay_initial_pelt initial_pelt; /* the start's PELT (--initial-pelt) */
	/* replay --sched-debug-shift: the group probes' times moved (a check of their alignment) */
	int64_t sched_debug_shift_ns;
	/* --sched-debug-at: each CPU's probe within the read (above) */
	enum replay_sched_debug_at sched_debug_at;
	/* an early wake's charge of its waker (above) */
	enum replay_early_charge early_charge;
	/* the source CPU's reschedule after a traced migration (above) */
	enum replay_migrate_resched migrate_resched;
	/* the clock a wakee of an idle CPU is charged from (above) */
	enum replay_idle_clock idle_clock;
	/* the model's RT/DL PELT signals (above) */
	enum replay_others_pelt others_pelt;
	/* the model's per-CPU capacity (above) */
	enum replay_cpu_capacity cpu_capacity;
	/* the model's clock_task: the wall clock or less the traced left-out time (above) */
	enum replay_clock_task clock_task;
	/* the traced load-balance passes of several tasks (above) */
	enum replay_balance_attach balance_attach;
	/*
	 * The idle path's cost is drawn from the table of the idle residency
	 * band of its CPU (how long it had been idle at the wakeup, calib.h
	 * CALIB_IDLE_BANDS), where that band has enough samples (--idle-residency
	 * on; docs/replay.md, "Idle residency").
	 */
	enum replay_idle_residency idle_residency;
	/*
	 * The waker's CPU time after a wakeup or fork follows the simulated
	 * locality (--waker-costs placed|follow): where the simulation's
	 * wakeup is local and the trace's remote, the waker's next RUN loses
	 * a drawn remote cost (calib_draw_waker()); where the simulation's is
	 * remote and the trace's local, it gains one.  REPLAY_WAKER_PLACED:
	 * only where the simulation put the wakee on another CPU than the
	 * trace did; REPLAY_WAKER_FOLLOW: also where the waker itself runs on
	 * another CPU than in the trace.  REPLAY_WAKER_TRACED (the default):
	 * the waker's RUN ops as traced (docs/replay.md, "The waker's side").
	 */
	enum replay_waker_costs waker_costs;
	/* when a busy CPU ticks and a rescheduling tick switches (above) */
	enum replay_ticks ticks;
	/* the tick phase where the full-period charges give none (above) */
	enum replay_tick_phase tick_phase;
	/*
	 * By default a CPU that a traced interrupt queued several external
	 * wakeups onto while idle (a wake-list flush: wl_wake.flush_ns)
	 * switches out of idle no earlier than the last of them, as the kernel
	 * enqueues a whole flush before idle's schedule().  Ablation
	 * (--no-flush-hold): after the first one's cost, as before 1 Dec 2026
	 * (docs/validation-log.md, "small-nowaking's p95 and small-hackbench's p50").
	 */
	bool no_flush_hold;
	/* ... and the flush's last wakeup (above) */
	enum replay_flush_last flush_last;
	/* a wakee queued behind a current that blocks at once (above) */
	enum replay_behind_lead behind_lead;
	/*
	 * Under placement trace, a CPU the simulation leaves idle while the
	 * trace shows it busy pulls a cache-cold waiting task as the kernel's
	 * newidle balance would (model_config.newidle_moves_tasks), and a
	 * pulled task stays where it was pulled while the trace wakes it on its
	 * previous CPU.  Off by default: its effect in docs/validation-log.md
	 * ("Second pass", "Fourth pass").
	 */
	bool idle_pull;
	/*
	 * Under placement trace, an idle CPU's own balance (the nohz idle
	 * balance a busy CPU's tick kicks) moves the queued tasks the model's
	 * sched_balance_rq(CPU_IDLE) picks (model_config.idle_moves_tasks),
	 * pulled tasks staying where they were pulled as under idle_pull.
	 * Experimental, off by default (docs/replay.md, "Nohz idle pulls").
	 */
	bool nohz_pull;
	/*
	 * Under placement trace, the traced balancer migrations of tasks the
	 * trace had queued (replay_queued_moves; docs/replay.md, "Traced
	 * migrations").  Experimental; TIME the default.
	 */
	enum replay_queued_moves queued_moves;
	/*
	 * Under placement trace, the traced newidle pulls
	 * (replay_newidle_pulls).  Experimental; TIME the default.
	 */
	enum replay_newidle_pulls newidle_pulls;
	/*
	 * A reader with several writers (WL_WAKE_CHANNEL) is woken by
	 * whichever simulated writer comes first, and a reader reaching a
	 * sleep with another writer's message already there reads it: the
	 * trace's pairing of each sleep with one writer is not kept.  Off by
	 * default: see docs/validation-log.md ("Seventh pass (hackbench dependencies)").
	 */
	bool channel_wakes;
	/*
	 * channel_wakes, and: a reader's wake that the trace shows racing with
	 * its sleep (WL_WAKE_ON_CPU: the writer's waking came while the reader
	 * was still going to sleep on its CPU) from one of its channel writers is
	 * a channel wake too - the kernel's pipe_write()/sock_def_readable()
	 * wakes the reader's wait queue whichever writer it is, racing or not.
	 * Off by default: docs/validation-log.md ("hackbench-chan-run2's p95:
	 * a stall of the readers and its backlog").
	 */
	bool channel_races;
	/* a reader freed early only by the burst on its CPU (above); OFF by default */
	enum replay_channel_burst channel_burst;
	/*
	 * A hand-off WAIT in a one-way flow (WL_WAIT_ONEWAY) is not slept
	 * when the model did not preempt the waker: the waker goes on with its
	 * work, as the kernel's writer does.  Off by default: see
	 * docs/validation-log.md ("Seventh pass (hackbench dependencies)").
	 */
	bool oneway_no_wait;
	/*
	 * With --reply-in-run: at a WL_WAIT_LATER WAIT the model did not
	 * preempt the waker at, it hands over to its wakee as at any hand-off
	 * WAIT (--handoff) unless the kernel's pick could not have switched it
	 * out for the wakee there: its entity eligible and slice-protected
	 * (model_curr_protected()); only then does it go on (--later-handover,
	 * experimental: docs/validation-log.md, helper mp45).  Off: it always
	 * goes on.
	 */
	bool later_handover;
	/*
	 * A wake of X by Y, where X woke Y and one other task Z in one run and
	 * slept until one of them answered, is made by whichever of the two
	 * finishes its work of the round last (a join: the probe's message
	 * thread and its workers' pending counter): Z at the BLOCK ending its
	 * work when it has not reached it at Y's wake, and Y then passes its
	 * hand-off WAITs for X (--join-reply, experimental: replay/sim_join.c,
	 * docs/validation-log.md, helper lag45).  Off: the trace's waker makes it.
	 */
	bool join_reply;
	/*
	 * A hand-off WAIT the model did not preempt the waker at, with the
	 * wakee queued behind it on its CPU: REPLAY_HANDOFF_PREEMPT (the
	 * default of replay_config_default()) the wakee preempts the waker
	 * there (model_preempt_for(): the waker stays queued with its
	 * vruntime and deadline); REPLAY_HANDOFF_YIELD the waker yields to it
	 * (model_yield_to(): its request given up); REPLAY_HANDOFF_SKIP as
	 * PREEMPT on the kernel's clock for that preemption
	 * (model_preempt_for_skip(): the waker not charged at the hand-off, so
	 * no sched_stat_runtime there; the time to the switch goes to the
	 * wakee); REPLAY_HANDOFF_SLEEP the
	 * waker sleeps until the wakee passed the block and wakes it (the
	 * behaviour before the tenth pass); REPLAY_HANDOFF_WRITEON and
	 * REPLAY_HANDOFF_WRITEON_PRE (experimental) at a one-way WAIT the
	 * waker writes on up to its next wakeup (after it, before it), then
	 * hands over, the WAIT's dependency kept; REPLAY_HANDOFF_SKIP_WAKE
	 * (experimental) as SKIP, the waker first charged up to the hand-off's
	 * own wakeup where the simulation made no enqueue there (its wake of
	 * the wakee reached it before its block: an early wake), as the
	 * kernel's enqueue did (model_charge_curr()).  See docs/replay.md
	 * ("Hand-offs") and docs/validation-log.md ("Tenth pass").
	 */
	enum replay_handoff handoff;
	/*
	 * Channels (the workload's WL_OP_READ/WL_OP_WRITE, docs/replay.md
	 * "Channels"): false (default, trace-paced) a task sleeps in a channel
	 * op only where the trace shows it slept inside that read or write, and
	 * only if the channel is still empty (full) there; true (strict) every
	 * read of an empty channel and every write to a full one sleeps, as in
	 * the kernel.
	 */
	bool channel_strict;
	/*
	 * Under placement trace, a wakeup or fork whose simulated CPUs are not
	 * idle and busy as the trace's were at that decision (its sched_waking
	 * or sched_wakeup_new) goes where the model's select_task_rq_fair()
	 * puts it on the simulated state; one whose state matches keeps the
	 * traced CPU.  state_placement_forks: forks too (else wakeups only).
	 * Off by default: docs/validation-log.md, "Seventh pass (placement)".
	 */
	bool state_placement;
	bool state_placement_forks;
	/*
	 * Diagnostic (notes): at each traced wakeup and fork whose simulated
	 * idle/busy state matches the trace's, whether the model's
	 * select_task_rq_fair() on that state chooses the traced CPU.
	 */
	bool placement_check;
	/*
	 * Stop at the trace's last timestamp with whatever traced work the
	 * simulation has not done yet (as replays did before 2026-11-30).  By
	 * default the simulation runs on past the trace end until the traced
	 * work is done (at most the trace's span again), so that counts and
	 * latencies are those of the same work whether the simulated machine
	 * is slower or faster than the traced one; replay_end_ts() says how
	 * long that took.  docs/replay.md, "The end of a replay".
	 */
	bool stop_at_end;
	bool keep_samples;             /* keep every "all" latency sample (replay_samples) */
	/*
	 * Called with every predicted latency sample once final (wakeup and
	 * run-queue wait, any comm: lat_config.sink); NULL: none.
	 */
	void (*sample_sink)(void *ctx, const struct lat_sample *s);
	void *sample_ctx;
	/*
	 * Every predicted latency sample as a line (replay --dump-samples,
	 * replay_dump_sample()), with the wake record it replays; NULL: none.
	 */
	FILE *sample_dump;
	/* every synthetic event, as text (debugging); NULL: none */
	FILE *dump;
	/*
	 * With dump: also a `replay_op:` line for what the simulation did with
	 * each wake record and hand-off WAIT (replay --dump-wake-records;
	 * docs/replay.md, "Output"): analysis only, no effect on the run.
	 */
	bool dump_ops;
	/* called about every 2^18 simulated events with the fraction done */
	void (*progress)(void *ctx, double fraction);
	void *progress_ctx;
};

void replay_config_default(struct replay_config *cfg);

/*
 * What a latency sample's wakeup stands for (replay --dump-samples;
 * docs/replay.md, "Output"): MEASURED, a sample of the trace; else a
 * predicted one, whose wakeup delivered a trace wake record to its task
 * asleep at the block that record ends (WAKE), was an early wake's stand-in
 * (STANDIN: the record reached its task before that block; docs/replay.md,
 * "Early wakes"), a traced race (RACE: woken on its CPU in the trace), a
 * hand-off waiter's reply (REPLY) or a channel wake no record stands for
 * (CHANNEL), none of them with a wake record; a fork's first wakeup (FORK);
 * OTHER: none of these (a task's RT/DL wakeup replayed at its trace time).
 */
enum replay_sample_origin {
	REPLAY_SAMPLE_MEASURED = 0,
	REPLAY_SAMPLE_WAKE,
	REPLAY_SAMPLE_STANDIN,
	REPLAY_SAMPLE_RACE,
	REPLAY_SAMPLE_REPLY,
	REPLAY_SAMPLE_CHANNEL,
	REPLAY_SAMPLE_FORK,
	REPLAY_SAMPLE_OTHER,
};

/*
 * One latency sample @smp as a --dump-samples line of @f (tab-separated:
 * side, kind, pid, cpu, start_ns, end_ns, latency_ns, start_event, path,
 * origin, trace_start_ns, trace_latency_ns, comm, cgroup; side "measured"
 * for REPLAY_SAMPLE_MEASURED, else "predicted"; path and origin "-" for a
 * run-queue wait).  @trace_start / @trace_lat:
 * the trace wake record's sched_waking (or sched_wakeup) time and measured
 * latency, or UINT64_MAX ("-") without one.  replay_dump_sample_header()
 * writes the header line.  -1 on a write error.
 */
int replay_dump_sample(FILE *f, const struct lat_sample *smp, enum replay_sample_origin origin,
		       uint64_t trace_start, uint64_t trace_lat);
int replay_dump_sample_header(FILE *f);
/*
 * --channels: "auto" (channels from the syscall events, trace-paced), "strict"
 * (the same, replay_config.channel_strict), "off" (wl_options.channels off):
 * -1 (outputs unchanged) for anything else.
 */
int replay_channels_parse(const char *name, enum wl_channels *wl, bool *strict);

/* The profile a configuration resolves to for @wl, and why (static text). */
const struct model_profile *replay_profile_for(const struct wl_workload *wl,
					       const struct replay_config *cfg, const char **why);

/*
 * Whether the model's placement packs as the capture kernel's sched_vcpu_pack
 * does for @wl under @cfg, and why (one sentence into @why, @len bytes; may
 * be NULL).
 */
/*
 * CPU bandwidth limits (wl_group.quota_us): whether the simulation models
 * them, and one phrase saying how (the facts' "bandwidth:" lines).
 */
bool replay_bandwidth_modelled(const struct replay_config *cfg);
const char *replay_bandwidth_status(const struct replay_config *cfg);

bool replay_vcpu_pack_for(const struct wl_workload *wl, const struct replay_config *cfg,
			  char *why, size_t len);
/* Whether @cfg consults the model's select_task_rq_fair() at all. */
bool replay_uses_model_placement(const struct replay_config *cfg);

struct replay_result;

/* Replay @wl once.  NULL on error (err filled). */
struct replay_result *replay_run(const struct wl_workload *wl, const struct replay_config *cfg,
				 struct sr_error *err);
void replay_result_free(struct replay_result *r);

/* The predicted latency machine (all, by comm, by cgroup; lat_get_*). */
const struct lat_machine *replay_latency(const struct replay_result *r);

/*
 * Counts by name.  Trace-visible ones are counted from the emitted events:
 * sched_switch, sched_waking, sched_wakeup, sched_wakeup_new,
 * sched_migrate_task; sched_stat_runtime is the model's count of update_curr
 * calls that emit it (fair tasks only); those the trace could not have held
 * are left out (replay_count_unseen()); then every model counter by its
 * kernel-function name (model.h).  *iter starts at 0.
 */
bool replay_count_next(const struct replay_result *r, unsigned int *iter, const char **name,
		       uint64_t *value);
bool replay_count_get(const struct replay_result *r, const char *name, uint64_t *value);
/*
 * Of a trace-visible count @name (the five above, sched_switch_restored,
 * sched_stat_runtime): the predicted events the trace could not have held,
 * left out of replay_count_get()'s value - written on a CPU inside one of its
 * lost-events windows (wl_lost_window()), or the sched_waking, sched_wakeup,
 * sched_migrate_task and enqueue's sched_stat_runtime of a wake marked
 * in_lost (struct wl_wake).  0 for a trace without lost events.
 */
uint64_t replay_count_unseen(const struct replay_result *r, const char *name);
/*
 * Those counts in the order the reports list them (sched_switch,
 * sched_switch_restored, sched_waking, sched_wakeup, sched_wakeup_new,
 * sched_migrate_task, sched_stat_runtime), zeros included: the value of
 * replay_count_unseen() for each name.  *iter starts at 0.
 */
bool replay_unseen_next(const struct replay_result *r, unsigned int *iter, const char **name,
			uint64_t *value);
/* The replayed trace has lost-events windows (replay_count_unseen() may be > 0). */
bool replay_lost_windows(const struct replay_result *r);

/*
 * When the simulation ended: the trace's last timestamp, or later when the
 * traced work took longer to do in the simulation (replay_config.stop_at_end
 * off); the predicted duration is this minus the trace's first timestamp.
 */
uint64_t replay_end_ts(const struct replay_result *r);
/*
 * The simulation stopped with traced work left (at twice the trace's span,
 * or with runnable tasks and no event to run them): replay_end_ts() is then
 * where it stopped, not when the work was done.  Never with stop_at_end.
 */
bool replay_work_unfinished(const struct replay_result *r);
/* Time CPUs spent running fair tasks in the simulation, ns summed over CPUs. */
uint64_t replay_busy_ns(const struct replay_result *r);
unsigned int replay_nr_cpus(const struct replay_result *r);
/* The profile used. */
const struct model_profile *replay_result_profile(const struct replay_result *r);
/* The sched feature toggles the run applied over the profile (none: zero). */
const struct model_sched_features *replay_result_sched_features(const struct replay_result *r);
/* Synthetic events emitted; wall time of the run in seconds. */
uint64_t replay_events(const struct replay_result *r);
double replay_seconds(const struct replay_result *r);
/* With keep_samples: the "all" wakeup latencies (ns), ascending. */
const uint64_t *replay_samples(const struct replay_result *r, size_t *n);
/*
 * Workload task @task's model state when the simulation ended
 * (model_task_info(), its group NULL): false if the simulation made no
 * model task of it, or the sidecar has no available end snapshot (the only
 * reader is replay_pelt_compare(), so it is not kept then).  A task asleep
 * at the end holds the PELT of its last update.
 */
struct model_task_info;
bool replay_task_end(const struct replay_result *r, uint32_t task, struct model_task_info *out);
/* What the simulation had to approximate, one sentence each. */
bool replay_note_next(const struct replay_result *r, unsigned int *iter, const char **text,
		      uint64_t *count);


/* ---- task groups against the kernel's sched/debug (group_check.c) ------- */

/*
 * The model's group queues at each read of the sidecar's sched_debug inside
 * the trace window (docs/replay.md "Task groups against the kernel's
 * sched/debug"): a probe in the simulation's event order, before the first
 * event after the read's sched_clk (+ replay_config.sched_debug_shift_ns,
 * + the CPU's offset under replay_config.sched_debug_at), for every group
 * the replay modelled and every CPU.  It changes nothing.
 */
struct replay_group_probe {
	uint32_t read;                 /* index of sidecar_sched_debug.reads */
	uint32_t group;                /* the workload's group */
	int cpu;
	/* the probe's time after the read's (shifted) sched_clk (--sched-debug-at) */
	uint64_t after_ns;
	/* placed where the trace's runnable set equals the kernel's on the CPU's block */
	bool at_agree;
	struct model_group_queue q;
};
/* The probes of a run, in order (NULL, 0 without the sidecar's sched_debug). */
const struct replay_group_probe *replay_group_probes(const struct replay_result *r, size_t *n);

enum {
	REPLAY_GF_LOAD_AVG, REPLAY_GF_UTIL_AVG, REPLAY_GF_RUNNABLE_AVG, REPLAY_GF_TG_CONTRIB,
	REPLAY_GF_TG_LOAD_AVG, REPLAY_GF_SE_WEIGHT, REPLAY_GF_SE_LOAD_AVG, REPLAY_GF_SE_UTIL_AVG,
	REPLAY_GF_H_NR_QUEUED, REPLAY_GF_NR
};
const char *replay_group_field_name(int f);

struct replay_group_stat {
	unsigned int n;                /* (read, CPU) pairs with both values */
	double median, p95;            /* |model - kernel| (nearest rank) */
	double mean_signed;            /* mean of model - kernel */
	double kernel_median;          /* the kernel's median, for scale */
};

struct replay_group_path {
	uint32_t sd_path;              /* index of sidecar_sched_debug.paths */
	uint32_t group;                /* the workload's group */
	struct replay_group_stat st[REPLAY_GF_NR];
};

/*
 * The queued counts three ways: the model's h_nr_queued, the kernel's, and
 * the trace's own runnable set at the read (wl_sd_trace_queued(): at the
 * read's sched_clk, and its least / most over the read's span), over the
 * pairs that have all three.  The trace cannot show a delayed dequeue (a
 * task asleep that the kernel keeps queued, 6.12+ DELAY_DEQUEUE), so the
 * trace is held to the kernel's h_nr_runnable (h_nr_queued less those,
 * 6.14+; h_nr_queued where the kernel does not print it).  The model's
 * mismatches split by whether the trace agrees with the kernel at the
 * read's sched_clk (the replay's runnable set drifted from the trace's, or
 * it has the trace's but not the kernel's delayed dequeues) or only later
 * in the read (the kernel printed that CPU's queue later: the read's
 * placement), or not at all.
 */
struct replay_groups_queued {
	unsigned int pairs;
	unsigned int model_eq;         /* model = kernel h_nr_queued */
	unsigned int trace_eq;         /* trace at sched_clk = kernel h_nr_runnable */
	unsigned int trace_in;         /* ... within the trace's least..most over the read */
	unsigned int trace_eq_queued;  /* trace at sched_clk = kernel h_nr_queued */
	unsigned int runnable_pairs;   /* pairs with the kernel's h_nr_runnable (6.14+) */
	unsigned int delayed;          /* kernel h_nr_queued > h_nr_runnable (delayed dequeues) */
	/*
	 * pairs probed where the trace equals the kernel on the CPU's block
	 * (--sched-debug-at agree, cpu): the split below takes the trace there
	 * rather than at sched_clk
	 */
	unsigned int at_agree;
	/* model != kernel h_nr_queued: */
	/* "at sched_clk": at the probe's moment where at_agree placed it there */
	unsigned int mm_drift;         /* trace at sched_clk = kernel, model != trace */
	unsigned int mm_delayed;       /* trace at sched_clk = kernel, model = trace: the kernel's
					  delayed dequeues the model does not hold */
	unsigned int mm_read;          /* trace = kernel only later in the read */
	unsigned int mm_read_model_at; /* ... of them model = the trace at sched_clk */
	unsigned int mm_trace_ne;      /* the trace disagrees over the whole read */
};

struct replay_groups_cmp {
	bool available;
	char reason[160];
	unsigned int reads_total, reads_in_window;
	int64_t shift_ns;
	struct replay_group_path *paths;
	unsigned int nr_paths;
	unsigned int unmodelled_rows;  /* kernel rows of paths the replay has no group of */
	struct replay_groups_queued queued;
	/*
	 * The headline (validate): median |model - kernel| of tg_load_avg and
	 * of se.load.weight (cpu.shares units) over every pair of the groups
	 * other than the root, and their counts; NAN without pairs.
	 */
	double tg_load_median_abs, weight_median_abs;
	unsigned int tg_load_pairs, weight_pairs;
};
/* 0, or -1 on ENOMEM. */
int replay_groups_compare(const struct wl_workload *wl, const struct replay_result *r,
			  int64_t shift_ns, struct replay_groups_cmp *out);
void replay_groups_cmp_release(struct replay_groups_cmp *c);
void replay_groups_text(FILE *out, const char *run_name, const struct wl_workload *wl,
			const struct replay_groups_cmp *c);
struct json_t *replay_groups_json(const struct wl_workload *wl, const struct replay_result *r,
				  const struct replay_groups_cmp *c);
/* The h_nr_queued three ways: text lines (nothing without pairs), and a JSON object. */
void replay_groups_queued_text(FILE *out, const struct replay_groups_queued *q);
struct json_t *replay_groups_queued_json(const struct replay_groups_queued *q);

/* ---- PELT against the kernel's own values (pelt_check.c) ----------------- */

/*
 * The model's PELT of each thread against the kernel's se.avg in the
 * sidecar's sched_at_end (docs/replay.md "PELT at the capture's end").  A
 * thread is compared when it is in the end snapshot and the trace, a fair
 * task, in the start snapshot or forked in the trace, asleep (S/D) at the
 * end read, its nr_switches delta equals its traced switches out (nothing
 * of it ran outside the traced window), and the model has it asleep at
 * the end of the simulation; the others are counted by the first reason
 * they fail.  Classes: threads alive before the trace (their model PELT
 * starts from a guess) and threads forked in it (the kernel's fork rules).
 */
enum replay_pelt_excl {
	REPLAY_PELT_EX_NOT_TRACED,     /* in the end snapshot, not in the trace */
	REPLAY_PELT_EX_NOT_FAIR,       /* RT/DL in the trace */
	REPLAY_PELT_EX_NO_START,       /* alive before the trace, not in the start snapshot */
	REPLAY_PELT_EX_RUNNING,        /* not S/D at the end read */
	REPLAY_PELT_EX_SWITCHES,       /* nr_switches delta != traced switches out */
	REPLAY_PELT_EX_NO_VALUES,      /* a kernel value null */
	REPLAY_PELT_EX_MODEL,          /* the model has it queued, delayed or gone at its end */
	REPLAY_PELT_EX_NR
};
enum { REPLAY_PELT_PRE, REPLAY_PELT_BORN, REPLAY_PELT_CLASSES };
enum { REPLAY_PELT_UTIL, REPLAY_PELT_LOAD, REPLAY_PELT_RUNNABLE, REPLAY_PELT_METRICS };

struct replay_pelt_stat {
	unsigned int n;
	double median, p95, max;       /* |model - kernel|, in the kernel's units (1024 = full) */
	double mean_signed;            /* mean of model - kernel */
	double within_1pct;            /* share with |model - kernel| <= 10.24 */
};

struct replay_pelt_row {               /* one compared thread */
	int pid;
	char comm[16];
	int cls;                       /* REPLAY_PELT_PRE / _BORN */
	long kernel[REPLAY_PELT_METRICS], model[REPLAY_PELT_METRICS];
	int cpu;                       /* of its last traced block, -1 none */
	int64_t clock_offset_ns;       /* that block's trace ns - the kernel's se.exec_start */
	int64_t left_ns;               /* the time clock_task left out there up to that block,
					  as the trace shows it (wl_clock_left_at()) */
	int64_t update_after_block_ns; /* se.avg.last_update_time - se.exec_start: > 0 when
					  the kernel's last PELT update came after its last
					  accounting (a delayed dequeue completed later) */
};

/* Per CPU: the trace clock against the kernel's rq_clock_task (se.exec_start). */
#define REPLAY_PELT_CPUS 64
struct replay_pelt_clock {
	unsigned int n;                /* compared threads whose last block was there */
	int64_t median_ns, min_ns, max_ns; /* trace ns - clock_task ns */
	int64_t less_left_min_ns, less_left_max_ns; /* ... less the row's left_ns */
};

struct replay_pelt_cmp {
	bool available;                /* the sidecar has both snapshots */
	char reason[160];              /* why not */
	unsigned int in_end;           /* threads in the end snapshot */
	unsigned int excluded[REPLAY_PELT_EX_NR];
	struct replay_pelt_stat st[REPLAY_PELT_CLASSES][REPLAY_PELT_METRICS];
	struct replay_pelt_row *rows;
	unsigned int nr_rows;
	/*
	 * The counters as cross-checks of the trace, for every fair thread in
	 * the trace and in both snapshots (or forked in the trace): the
	 * kernel's delta equal to the trace's count, or not.
	 */
	struct replay_pelt_clock clock[REPLAY_PELT_CPUS];
	unsigned int nr_clock_cpus;
	unsigned int updated_after_block; /* rows with update_after_block_ns > 2048 */
	unsigned int checked;
	unsigned int switch_mismatch, migrate_mismatch, runtime_mismatch;
	int64_t switch_max_diff, migrate_max_diff, runtime_max_diff_ns; /* kernel - trace */
	int switch_worst_pid, migrate_worst_pid, runtime_worst_pid;
};

/* 0, or -1 on ENOMEM; @out->available false when there is nothing to compare. */
int replay_pelt_compare(const struct wl_workload *wl, const struct replay_result *r,
			struct replay_pelt_cmp *out);
void replay_pelt_cmp_release(struct replay_pelt_cmp *c);
/* The section of replay's text output (after the run's tables). */
void replay_pelt_text(FILE *out, const char *run_name, const struct replay_pelt_cmp *c);
/* The JSON object of replay --json's "pelt_at_end" (docs/replay.md). */
struct json_t;
struct json_t *replay_pelt_json(const struct replay_pelt_cmp *c);
const char *replay_pelt_excl_name(int reason);
/* qsort() order of doubles, and the nearest-rank percentile @q (0..1) of sorted @v[@n]
 * (0 if empty): pelt_check.c's, shared with group_check.c */
int replay_cmp_double(const void *a, const void *b);
double replay_rank_sorted(const double *v, unsigned int n, double q);
/*
 * Per CPU, the trace clock minus the kernel's rq_clock_task, from the
 * model-independent part of the comparison: the median over the threads
 * the comparison would take (asleep at the end read, nothing untraced) of
 * their last traced block's time minus their se.exec_start at the end.
 * have[c] false where no thread gives one.  Returns how many CPUs have one.
 */
/*
 * The same, each thread's offset less the time the trace shows its CPU's
 * clock_task left out up to its last block (wl_clock_left_at()): the
 * offsets as at the trace start, where the model's clock under
 * --clock-task traced is the trace's.
 */
int replay_kernel_clock_offsets_start(const struct wl_workload *wl, int64_t *off, bool *have,
				      int nr_cpus);
int replay_kernel_clock_offsets(const struct wl_workload *wl, int64_t *off, bool *have,
				int nr_cpus);

/* ---- reports (replay_json.c, replay_text.c) ------------------------------ */

#include <jansson.h>

/*
 * JSON pieces of `schedreplay replay --json` (docs/replay.md), reusable by
 * the what-if report so that both print the same keys.  Each returns a new
 * reference, NULL on ENOMEM.
 */
/* S = {"samples", "min", "p50", "p75", "p90", "p95", "p99", "p99_5", "p99_9", "max", "mean"} (µs) */
json_t *replay_json_dist(const struct sr_hist *h);
/* {"all": S, "by_comm": {comm: S}, "by_cgroup": {path: S}} of @kind's samples */
json_t *replay_json_latency(const struct lat_machine *lat, enum lat_kind kind);
/*
 * {"over_us": 10000, "wakeup_latency"|"runqueue_wait": {"all": n, "by_comm":
 * {comm: n}, "by_cgroup": {path: n}}}: samples over LAT_LONG_NS, for the
 * groups replay_json_latency() shows
 */
json_t *replay_json_long_waits(const struct lat_machine *lat);
/*
 * {"counts": {...}, "wakeup_latency_us": {...}, "runqueue_wait_us": {...},
 * "long_waits": {...}, "simulation": {...}} of one run
 */
json_t *replay_json_variant(const struct replay_result *r);
/* {"counts": {...}, "wakeup_latency_us", "runqueue_wait_us", "long_waits"} measured by the trace */
json_t *replay_json_measured(const struct wl_workload *wl);
/* {"trace": {...}, "facts": {...}, "calibration": {...}, "approximations": [...]} members */
/* @cfg (may be NULL: the defaults) says whether CPU bandwidth limits are modelled */
int replay_json_add_workload(json_t *root, const struct wl_workload *wl,
			     const struct replay_config *cfg);
/* {"name", "why", "settings": {NAME: value}} */
/* @f: the sched feature toggles applied ("sched_features", only if any); may be NULL */
json_t *replay_json_profile(const struct model_profile *p, const char *why,
			    const struct model_sched_features *f);
/* {"on", "why"}: replay_vcpu_pack_for() of @wl under @cfg */
json_t *replay_json_vcpu_pack(const struct wl_workload *wl, const struct replay_config *cfg);
/*
 * Relative errors (predicted - measured) / measured of a run against the
 * trace: {"counts": {name: e}, "wakeup_latency_us": {"all": {"p50": e, ...},
 * "by_comm": {...}, "by_cgroup": {...}}}; null where measured is 0.
 */
json_t *replay_json_errors(const struct wl_workload *wl, const struct replay_result *r);

/*
 * Text of the lost-events windows for the reports: "CPU 0 [11310.198361,
 * 11310.198500) (an unknown number lost), ..." (at most 4, then "and N
 * more"), into @buf.
 */
void replay_lost_windows_text(const struct wl_workload *wl, char *buf, size_t len);
/*
 * The predicted events not compared, "sched_switch 1, sched_waking 8, ..."
 * (the nonzero ones of replay_unseen_next(), in its order), into @buf; its total
 * returned.
 */
uint64_t replay_unseen_text(const struct replay_result *r, char *buf, size_t len);

/* The trace-visible counts compared with the measured ones, in this order. */
#define REPLAY_NR_COMPARED 5
extern const char *const replay_compared_counts[REPLAY_NR_COMPARED];
/*
 * The bookkeeping functions whose entries the sidecar's function counts
 * (function tracer, docs/capture.md) measure, compared like with like: each
 * with the model counter of the same entries (update_cfs_group.entries: task
 * entities too, where update_cfs_group counts group entities only).  @key is
 * the report name (the sidecar's and the counters'); its name in a profile's
 * kernel is the profile's (model_profile_func_name()).
 */
struct replay_func {
	const char *key, *predicted;
};
#define REPLAY_NR_FUNCS 9
extern const struct replay_func replay_funcs[REPLAY_NR_FUNCS];
/*
 * The sidecar's count of replay_funcs[@i], under its report name or its name
 * in any profile's kernel (a sidecar keyed by symbol): false if not listed, *count -1 if
 * not traceable (inlined): no measured count, never a 0.
 */
bool replay_func_measured(const struct wl_workload *wl, int i, int64_t *count);
/* The sidecar has a count of one of replay_funcs (traceable or not). */
bool replay_has_func_counts(const struct wl_workload *wl);
/* The kernel's name of replay_funcs[@i] on the kernel of profile @p (6.10+: the new name). */
const char *replay_func_name(const struct model_profile *p, int i);
/* The measured value of a compared count (sched_stat_runtime: fair tasks only). */
uint64_t replay_measured_count(const struct wl_workload *wl, const char *name);
/*
 * The trace has not one event of the compared count @name (sched_stat_runtime:
 * of any class): not recorded by its capture, not in its kernel, or none
 * happened - its 0 is no measurement to judge a prediction by.
 */
bool replay_count_untraced(const struct wl_workload *wl, const char *name);
/*
 * Of the measured wakeup-latency samples of the "all" row (what --comm/--pid
 * select), those of RT/DL tasks: replayed at their trace times, so the
 * prediction repeats them (docs/replay.md, "Wakeup latency of RT/DL tasks").
 */
uint64_t replay_nonfair_samples(const struct wl_workload *wl);
/*
 * The comms every task with wakeup samples in whose row (the rows group
 * samples by the comm at the sample time) is an RT/DL one (and there is
 * one): the wakeups and switch-ins of such tasks are replayed at their trace
 * times, so a comm group of them repeats the trace's samples (workload.c,
 * WL_NOTE_WAKE_OF_NONFAIR).  The text reports of replay and whatif mark such
 * a comm's rows with REPLAY_NONFAIR_COMM_MARK.  replay_nonfair_comms() fills
 * @out (the comm strings are the workload's; valid while it is), -1 when
 * out of memory; replay_nonfair_comm() asks it of one comm (NULL: none).
 */
struct replay_nonfair_comms {
	const char **comm;           /* sorted */
	size_t n;
};
int replay_nonfair_comms(const struct wl_workload *wl, struct replay_nonfair_comms *out);
bool replay_nonfair_comm(const struct replay_nonfair_comms *s, const char *comm);
void replay_nonfair_comms_free(struct replay_nonfair_comms *s);
#define REPLAY_NONFAIR_COMM_MARK "(RT/DL: replayed as traced, not predicted)"
/*
 * The line replay's and whatif's text print under the `all` rows:
 * "  (N of the measured samples are wakeups of RT/DL tasks, ...; the other
 * M (fair tasks') are predicted)", N = replay_nonfair_samples(); nothing if
 * N is 0.
 */
void replay_text_nonfair_note(FILE *out, const struct wl_workload *wl);
/*
 * The line both print there for a trace with neither sched_waking nor
 * sched_wakeup: no measured latency, and the predicted samples are the
 * wakeups the extraction assumed at switch-ins (WL_NOTE_NO_WAKEUP), nothing
 * to hold a patch's latency against; nothing for other traces.
 */
void replay_text_no_wakeup_note(FILE *out, const struct wl_workload *wl);

/* Text report of one or more runs of one workload next to the measurement. */
struct replay_text_opts {
	const char *profile_why;
	/* with vcpu_pack_why: the model's placement packs (sched_vcpu_pack) or not, and why */
	bool vcpu_pack_on;
	const char *vcpu_pack_why;
	bool show_settings;
	int top;                       /* groups shown per key; 0 = all */
	bool no_bandwidth;             /* replay_config.no_bandwidth: the facts say so */
	bool wake_clock_traced;        /* replay_config.wake_clock traced: the facts say its delay */
	bool ticks_traced;             /* replay_config.ticks traced: the facts and costs say so */
	enum replay_tick_phase tick_phase;  /* replay_config.tick_phase: the HZ line says its source */
	bool affinity_inferred;        /* replay_config.affinity inferred: the facts say so */
};
void replay_print_text(FILE *out, const struct wl_workload *wl, const char *const *names,
		       const struct replay_result *const *runs, unsigned int nr_runs,
		       const struct replay_text_opts *o);

#endif /* SCHEDREPLAY_SIM_H */
