/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay simulation, private:
 *   sim.c           the event loop: scheduling, wakeups, forks, ticks, the run
 *   sim_work.c      a task's own work: its ops (sim_run_ops())
 *   sim_class.c     the non-fair classes' CPU time, the stopper, class changes
 *   sim_timed.c     the timed list, the bandwidth timers, CPU stalls
 *   sim_run.c       replay_run(): model set-up, initial state, the event sink,
 *                   the result object
 *   sim_chan.c      the channels' fill and sleepers (sim_chan.h)
 *   sim_chanpair.c  a reader's channel wakes re-paired with its sleeps
 *                   (--channel-wakes, --channel-races, --channel-burst)
 */
#ifndef SCHEDREPLAY_SIM_LOCAL_H
#define SCHEDREPLAY_SIM_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include <schedreplay/latency.h>
#include <schedreplay/model.h>
#include <schedreplay/sim.h>
#include <schedreplay/workload.h>

#include "calib.h"
#include "sim_chan.h"

struct wl_calib;

#define SIM_FOREVER UINT64_MAX

enum sim_task_state {
	SIM_UNBORN = 0,   /* not forked yet (or not a fair task) */
	SIM_QUEUED,       /* runnable, not running */
	SIM_RUNNING,
	SIM_BLOCKED,
	SIM_DEAD,
};

struct sim_task {
	struct model_task *mt;
	uint32_t ni_cur;           /* --newidle-pulls block: its first traced newidle pull
				      (wl_newidle index) whose block it has not passed,
				      WL_NONE: none (newidle_at_block()) */
	uint32_t op;               /* current op (relative to the task's first) */
	uint64_t run_left;         /* ns left of the current RUN op */
	int32_t prio;              /* the prio its events show: the workload's, 120 + nice
				      after a WL_OP_NICE */
	uint32_t waiting;          /* BLOCKED: the wake that ends it, WL_NONE: none */
	uint32_t waiter;           /* a task sleeping in a hand-off WAIT for this one */
	uint32_t waiter_op;        /* ... until this task has passed this op */
	bool waiter_signal;        /* ... a WAKE op (WL_WAIT_SIGNAL): no early reply */
	uint32_t released_block;   /* BLOCK before which it woke its waiter (its reply) */
	uint32_t handed_op;        /* the hand-off WAIT at which it left the CPU to its wakee */
	uint32_t woken_by;         /* the task whose WAKE op delivered its latest wake record */
	uint64_t woken_ns;         /* ... and the clock that wakeup's enqueue read there */
	uint32_t wo_wait;          /* --handoff writeon*: the one-way WAIT it wrote on past, WL_NONE */
	bool wo_out;               /* ... and it left its CPU since (its dependency is checked) */
	bool wo_woke;              /* ... and it made a wakeup since (writeon: its bound) */
	uint32_t chan_head;        /* its channel wakes delivered early, oldest first */
	uint32_t chan_tail;        /* (WL_WAKE_CHANNEL; linked by sim.chan_next) */
	uint32_t join_owed;        /* --join-reply: a wake it makes at its BLOCK op join_owed_blk
				      for the other task of a join (sim_join.c), WL_NONE: none */
	uint32_t join_owed_blk;
	uint32_t join_skip;        /* --join-reply: its join wake of this task went to the other
				      task: its hand-off WAITs for it are passed up to its next
				      BLOCK, WL_NONE: none */
	int pending_cpu;           /* a traced migration that found it running: at its next preemption */
	int pull_cpu;              /* a traced pull of it before its fork/wakeup here: when that CPU idles */
	int move_cpu;              /* --queued-moves wait: a traced migration while it sleeps in a
				      hand-off WAIT: the untraced wake that releases it places it there */
	int hold_cpu;              /* --queued-moves position: a traced migration at a point of its
				      work it has not reached here (hold_op): at its first
				      switch-out past that point */
	uint32_t hold_op;
	uint32_t pass_done;        /* the traced balance pass (WL_T_PASS_ID) that moved it with its
				      first migration (balance_pass()), 0 none */
	uint32_t group;
	int cpu;
	uint8_t st;                /* enum sim_task_state */
	bool exiting;              /* past its EXIT_MOVE: the resched it set waits for its EXIT */
	bool resched_at_block;     /* its PI requeue (WL_OP_PI_SETPRIO) asked for a resched
				      in the system call it blocks in next: taken there */
	bool resched_after_wake;   /* its own PI deboost (WL_OP_PI_SETPRIO) asked for a resched
				      that waits for the wake of the top waiter its unlock makes
				      next (mark_wakeup_next_waiter()'s preempt_disable()) */
	bool exec_balanced;        /* --placement model: sched_exec() ran for its current COMM op */
	bool displaced;            /* moved by the simulation's newidle pull (traced_cpu()) */
	bool chan_asleep;          /* BLOCKED in a READ or WRITE of a channel (sim_chan.h) */
	bool standin;              /* BLOCKED: a HEV_STANDIN for its waiting wake is pending */
	bool in_sys;               /* between its WL_OP_SYSCALL enter and exit marks */
	bool wait_asleep;          /* BLOCKED in a hand-off WAIT (wait_sleep()) */
	/*
	 * Its latest wakeup (wake_task()), for --dump-samples: the simulated
	 * time of its sched_waking, the wake record it delivered (WL_NONE: a
	 * hand-off reply, an untraced channel wake) and enum replay_sample_origin.
	 */
	uint8_t lat_origin;
	uint32_t lat_wake;
	uint64_t lat_ts;
	char comm[TRACE_COMM_LEN];
};

enum { SIM_SKIP_STANDIN_NONE = 0, SIM_SKIP_STANDIN_OTHER, SIM_SKIP_STANDIN_OWN };

struct sim_cpu {
	int32_t curr;              /* fair task running, -1 none */
	int32_t other;             /* RT/DL task holding the CPU, -1 none */
	bool other_out_blocked;    /* other's WL_T_OTHER_OUT handed straight to the next RT/DL
				      task (sim_other_in()) was a block */
	int32_t stopper;           /* the workload's migration/N of this CPU, -1 none */
	uint64_t run_start;        /* curr's progress charged up to here */
	uint64_t resched_at;       /* pending delayed reschedule, UINT64_MAX none */
	uint64_t idle_since;       /* its last switch to idle, UINT64_MAX none yet */
	uint64_t flush_end;        /* the end of the wake-list flush its pending idle exit
				      was held for (resched_after_hold()), 0 none */
	uint32_t gen_op, gen_tick, gen_resched;
	bool tick_armed;
	bool switched;             /* a sched_switch was written on it (start_switch_apart()) */
	bool tick_traced;          /* ... at the trace's own tick of its period (--ticks traced) */
	const uint64_t *tt;        /* --ticks traced: the trace's ticks here (wl_traced_ticks()) */
	uint32_t tt_n;
	bool resched_deferred;     /* --resched-at syscall-exit: curr's preemption by its
				      wakee waits for its system call's exit mark */
	uint64_t resched_due;      /* ... and the earliest another resched's cost allows, 0 none */
	bool stalled;              /* --cpu-stalls traced: inside a traced stall (HEV_STALL_IN/OUT) */
	bool stall_resched;        /* ... a resched was asked of it then: at the stall's end */
	uint8_t skip_standin;      /* the model's pending clock skip here was asked for by an early
				      wake's stand-in wakeup that set need_resched (--standin-skip):
				      SIM_SKIP_STANDIN_OWN on the CPU its task blocked on (the
				      task preempted is that block's pick), _OTHER elsewhere */
};

/* HEV_STANDIN: gen = the wake index (--early-wakes sleep), cpu = its waker's CPU */
/* HEV_NEWIDLE: gen = the wl_newidle index of a held pull, cpu = its destination */
/* HEV_STALL_IN/OUT: gen = the wl_stall index, cpu = its CPU */
enum { HEV_OP_DONE = 1, HEV_TICK, HEV_RESCHED, HEV_BW_TIMER, HEV_STOPPER, HEV_STANDIN,
       HEV_NEWIDLE, HEV_STALL_IN, HEV_STALL_OUT };

struct sim_hev {
	uint64_t t;
	uint64_t seq;
	uint32_t gen;
	uint8_t kind;
	int16_t cpu;
};

static inline bool hev_less(const struct sim_hev *a, const struct sim_hev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

enum sim_note_id {
	SIM_NOTE_EARLY_WAKE,
	SIM_NOTE_EARLY_STANDIN,
	SIM_NOTE_EARLY_MUTED,
	SIM_NOTE_EARLY_NOCOST,
	SIM_NOTE_EARLY_SLEEP,
	SIM_NOTE_EARLY_SLEEP_DROPPED,
	SIM_NOTE_BLOCK_SKIPPED,
	SIM_NOTE_SPURIOUS_DROPPED,
	SIM_NOTE_MIGRATE_SKIPPED,
	SIM_NOTE_MIGRATE_DEFERRED,
	SIM_NOTE_WAIT_PULL,
	SIM_NOTE_WAIT_PULL_PLACED,
	SIM_NOTE_MOVE_HELD,
	SIM_NOTE_MOVE_HELD_APPLIED,
	SIM_NOTE_NEWIDLE_EARLY,
	SIM_NOTE_NEWIDLE_LATE,
	SIM_NOTE_NEWIDLE_HELD,
	SIM_NOTE_NEWIDLE_AT_TIME,
	SIM_NOTE_NEWIDLE_RUNNING,
	SIM_NOTE_BALANCE_PASS,
	SIM_NOTE_DELAYED_MOVED,
	SIM_NOTE_KPATH_KNOWN,
	SIM_NOTE_KPATH_ASLEEP_DELAYED,
	SIM_NOTE_KPATH_DELAYED_ASLEEP,
	SIM_NOTE_WAKE_PATH_DEQUEUED,
	SIM_NOTE_INITIAL_LAG_MET,
	SIM_NOTE_INITIAL_LAG_POSITIVE,
	SIM_NOTE_INITIAL_LAG_NEGATIVE,
	SIM_NOTE_INITIAL_LAG_INFEASIBLE,
	SIM_NOTE_INITIAL_LAG_OTHERWISE,
	SIM_NOTE_AFF_END_READ,          /* a task's mask at its start, by wl_aff_source */
	SIM_NOTE_AFF_START_READ,
	SIM_NOTE_AFF_FORK,
	SIM_NOTE_AFF_PINNED,
	SIM_NOTE_AFFINITY,              /* WL_OP_AFFINITY replayed */
	SIM_NOTE_INITIAL_CREDIT_LONG,
	SIM_NOTE_INITIAL_CREDIT_FIRST,
	SIM_NOTE_INITIAL_CREDIT_UNKNOWN,
	SIM_NOTE_INITIAL_CREDIT_SHORT,
	SIM_NOTE_INITIAL_PELT,
	SIM_NOTE_INITIAL_PELT_ATTACHED,
	SIM_NOTE_INITIAL_PELT_NO_CPU,
	SIM_NOTE_INITIAL_PELT_OTHER_CPU,
	SIM_NOTE_INITIAL_PELT_WOKEN,
	SIM_NOTE_INITIAL_PELT_RUNNING,
	SIM_NOTE_INITIAL_PELT_QUEUED,
	SIM_NOTE_INITIAL_PELT_MOVED,
	SIM_NOTE_INITIAL_PELT_UNSEEN,
	SIM_NOTE_INITIAL_PELT_UNSEEN_NO_GROUP,
	SIM_NOTE_INITIAL_PELT_UNSEEN_LEFT,
	SIM_NOTE_EARLY_CHARGED,
	SIM_NOTE_FLUSH_HOLD,
	SIM_NOTE_FLUSH_TAIL,
	SIM_NOTE_BEHIND_LEAD,
	SIM_NOTE_OTHER_MISMATCH,
	SIM_NOTE_BAD_WAKE,
	SIM_NOTE_BAD_NICE,
	SIM_NOTE_BAD_PI,
	SIM_NOTE_MOVE_FAILED,
	SIM_NOTE_UNDELIVERED,
	SIM_NOTE_OPS_DONE,
	SIM_NOTE_RAN_PAST_END,
	SIM_NOTE_WORK_CAPPED,
	SIM_NOTE_WORK_STUCK,
	SIM_NOTE_HANDOFF_WAIT,
	SIM_NOTE_REPLY_MUTED,
	SIM_NOTE_CLASS_CARRY,
	SIM_NOTE_CLASS_MUTED,
	SIM_NOTE_FORK_MUTED,
	SIM_NOTE_CLASS_LEAVE,
	SIM_NOTE_CLASS_LEAVE_LATE,
	SIM_NOTE_CLASS_LEAVE_ASLEEP,
	SIM_NOTE_CLASS_LEAVE_RUN_ON,
	SIM_NOTE_CLASS_LEAVE_RUNNING,
	SIM_NOTE_CLASS_IN_PLACE,
	SIM_NOTE_CLASS_QUEUED,
	SIM_NOTE_CLASS_ENTER_ASLEEP,
	SIM_NOTE_HANDOFF_BUSY,
	SIM_NOTE_HANDOFF_NO_BLOCK,
	SIM_NOTE_IDLE_PULL,
	SIM_NOTE_NOHZ_PULL,
	SIM_NOTE_PULL_AT_PLACE,
	SIM_NOTE_PULL_AT_IDLE,
	SIM_NOTE_PULL_DROPPED,
	SIM_NOTE_CHANNEL_REPAIRED,
	SIM_NOTE_CHANNEL_RACES,
	SIM_NOTE_HANDOFF_ONEWAY,
	SIM_NOTE_HANDOFF_LATER,
	SIM_NOTE_HANDOFF_LATER_OVER,
	SIM_NOTE_JOIN_WAKES,
	SIM_NOTE_JOIN_DEFERRED,
	SIM_NOTE_JOIN_UNMADE,
	SIM_NOTE_HANDOFF_OVER,
	SIM_NOTE_HANDOFF_OVER_SLEPT,
	SIM_NOTE_HANDOFF_WRITEON,
	SIM_NOTE_CHAN_READ_SLEPT,
	SIM_NOTE_CHAN_WRITE_SLEPT,
	SIM_NOTE_CHAN_WAKE_READER,
	SIM_NOTE_CHAN_WAKE_WRITER,
	SIM_NOTE_CHAN_WAIT_RELEASED,
	SIM_NOTE_WAKER_COST_REMOVED,
	SIM_NOTE_WAKER_COST_ADDED,
	/* placement_check / state_placement: wakeups, then forks (same order) */
	SIM_NOTE_PC_WAKE_MATCH,
	SIM_NOTE_PC_WAKE_AGREE,
	SIM_NOTE_PC_WAKE_IDLE,
	SIM_NOTE_PC_WAKE_IDLE_KERNEL,
	SIM_NOTE_PC_WAKE_IDLE_MODEL,
	SIM_NOTE_PC_FORK_MATCH,
	SIM_NOTE_PC_FORK_AGREE,
	SIM_NOTE_PC_FORK_IDLE,
	SIM_NOTE_PC_FORK_IDLE_KERNEL,
	SIM_NOTE_PC_FORK_IDLE_MODEL,
	SIM_NOTE_PC_PREV_IDLE,
	SIM_NOTE_PC_PREV_IDLE_BUSY,
	SIM_NOTE_PC_PACK_ASKED,
	SIM_NOTE_PC_PACK_KERNEL,
	SIM_NOTE_PC_PACK_MODEL,
	SIM_NOTE_PC_DIVERGED,
	SIM_NOTE_PC_MOVED,
	SIM_NOTE_BW_GROUPS,
	SIM_NOTE_BW_OFF,
	SIM_NOTE_BW_THROTTLE_PICKS,
	SIM_NOTE_RESCHED_DEFERRED,
	SIM_NOTE_RESCHED_DEFERRED_OTHER,
	SIM_NOTE_RESCHED_AT_EXIT,
	SIM_NOTE_RESCHED_TRACED,
	SIM_NOTE_TICK_MARK,
	SIM_NOTE_TICK_MARK_PREEMPT,
	SIM_NOTE_RESCHED_AT_WAIT,
	SIM_NOTE_RESCHED_WAKE,
	SIM_NOTE_RESCHED_WAKE_IN_CALL,
	SIM_NOTE_STANDIN_SKIP_DROPPED,
	SIM_NOTE_STANDIN_LOCAL,
	SIM_NOTE_IDLE_CLOCK_REMOTE,
	SIM_NOTE_STANDIN_BLOCK_PREEMPT,
	SIM_NOTE_TICK_TRACED,
	SIM_NOTE_IDLE_TICK,
	SIM_NOTE_TICK_SWITCH_DRAWN,
	SIM_NOTE_TICK_SWITCH_FIXED,
	SIM_NOTE_CPU_STALL,
	SIM_NOTE_CPU_STEAL,
	SIM_NOTE_NR
};

struct sim {
	struct replay_config cfg;
	/* the sidecar's sched_debug reads, probed in the loop (group_check.c); NULL: none */
	const struct sidecar_sched_debug *sd;
	size_t sd_next;
	/* --sched-debug-at other than start: each CPU's next read to probe (nr_cpus) */
	size_t *sd_cpu_next;
	struct replay_group_probe *probes;
	size_t nr_probes, cap_probes;
	const struct wl_workload *wl;
	const struct wl_facts *facts;
	const struct wl_task *wt;
	const struct wl_op *ops;
	const struct wl_wake *wakes;
	const struct wl_calib *calib;
	uint32_t nr_tasks;
	int nr_cpus;
	bool past_end;             /* the loop has passed the trace's last timestamp */
	uint32_t standins_pending; /* HEV_STANDIN events not fired yet (work left) */
	int woke_cpu;              /* the CPU wake_task() last put its task on (-1: none) */
	bool woke_idle;            /* ... and that CPU was idle then */
	uint64_t end_ts;           /* when the simulation ended (>= the trace's end) */

	struct model *m;
	struct model_group **groups;
	struct sim_task *tasks;
	struct sim_cpu *cpus;
	uint8_t *early;            /* per wake: delivered before its block */
	/*
	 * Which wake ends which BLOCK: the trace's pairing, except that
	 * channel wakes (WL_WAKE_CHANNEL) of one reader are re-paired in the
	 * order the simulated writers deliver them (chan_*() in sim.c).
	 */
	uint32_t *block_wake;      /* per op (global index): the wake ending that BLOCK;
				      NULL without replay_config.channel_wakes */
	uint32_t *wake_block;      /* per wake: the op (task-relative) of the BLOCK it ends */
	uint32_t *chan_next;       /* per wake: the next in its target's chan_head list */
	uint8_t *chan_race;        /* per wake, replay_config.channel_races: a race wake
				      (WL_WAKE_ON_CPU) of a channel pair, re-paired as
				      WL_WAKE_CHANNEL wakes are; NULL without the option */
	uint32_t *join_sib;        /* per wake, --join-reply: the other task of its join (the one
				      that makes it if not done), WL_NONE: no join; NULL without */
	uint32_t *join_blk;        /* ... and the BLOCK op ending that task's work of the round */
	uint32_t *pulls;           /* tasks with a pull_cpu (may hold stale entries) */
	/*
	 * --newidle-pulls block: per traced newidle pull (wl_newidle index) its
	 * state (SIM_NI_*), the next pull of the same blocker (WL_NONE: none);
	 * NULL under time
	 */
	uint8_t *ni_state;
	uint32_t *ni_next;
	uint32_t nr_pulls, cap_pulls;
	uint32_t handoff_wakes;    /* hand-off wakeups so far (their cost draws) */
	/* the class wake an in-place hand-over took (class_in_place()), WL_NONE if none */
	uint32_t class_handed;
	struct sim_chans chans;    /* the workload's channels (none: nr 0) */
	uint32_t chan_wakes;       /* channel wakeups without a traced wake so far (cost draws) */

	struct sim_hev *heap;
	size_t nheap, heap_cap;
	uint64_t heap_seq;

	/* CPU bandwidth: groups with a limit in the model; the timer event armed (UINT64_MAX: none) */
	uint32_t bw_groups;
	uint64_t bw_armed;

	uint64_t tick_ns;
	uint64_t phase[64];
	uint32_t idle_cursor[64];  /* wl_cpu_idle_at() cursors */

	struct lat_machine *lat;
	uint64_t ev_count[TRACE_EV_NR_TYPES];
	uint64_t events;
	uint64_t switch_restored;  /* idle exits on CPUs whose idle exits the trace has restored */
	/*
	 * Of ev_count, switch_restored and the model's sched_stat_runtime: the
	 * events the trace could not have held (docs/replay.md, "Lost
	 * events"), written on a CPU inside one of its lost-events windows
	 * (wl_in_lost_window()) or by the wakeup of a wake marked in_lost
	 * (in_lost_wake: from its sched_waking to its sched_wakeup).  Not
	 * compared: collect() subtracts them.
	 */
	uint64_t ev_unseen[TRACE_EV_NR_TYPES];
	uint64_t restored_unseen;
	uint64_t stat_unseen;
	bool in_lost_wake;
	/*
	 * The sched_process_fork or sched_wakeup_new of a fork the trace does
	 * not record (wl_task.fork_assumed) is being written (sim_do_fork()): not
	 * in ev_count (the trace could not hold it); the sched_wakeup_new
	 * counted in forks_assumed
	 */
	bool in_fork_assumed;
	uint64_t forks_assumed;
	/* the start's switch-in of a CPU counted apart is being written (--start-switch) */
	bool in_start_switch;
	/* an early wake's stand-in wakeup is being delivered (--standin-skip) */
	bool in_standin;
	bool in_tick;              /* inside model_tick(): its nohz idle balance (--nohz-pull) */
	uint64_t busy_ns;
	uint64_t path_count[WL_PATH_NR];
	uint64_t notes[SIM_NOTE_NR];
	uint64_t *samples;
	size_t nr_samples, cap_samples;
	/*
	 * The CPU whose stopper runs the model's active balance work at this
	 * moment (sim_run_stopper() around model_cpu_stop()), -1 none: the CPU a
	 * sched_migrate_task of that work is emitted on.
	 */
	int stopper_cpu;
	bool oom;
	/* the error that stopped the run when the model gave one (replay_run() returns it) */
	struct sr_error fail;
};

/* sim.c */
int sim_start(struct sim *s);
int sim_loop(struct sim *s);
/*
 * The stopper of a CPU whose migration/N the workload does not have (no
 * sched_switch of it in the trace) when the model's active balance runs it
 * (sim_run_stopper()): comm "migration/N", RT prio 0 as the trace shows a stop
 * class task, pid SIM_SYNTH_STOPPER_PID + N - PID_MAX_LIMIT and above, never
 * a kernel pid.  A task index for sim_emit_switch() and sim_emit_wake_event().
 */
#define SIM_SYNTH_STOPPER     (-2)
#define SIM_SYNTH_STOPPER_PID 4194304
/* sim_schedule_ex()'s @block_state of a RUNNABLE that is a yield, not a preemption */
#define SIM_STATE_YIELD INT64_MIN
/* wake_task()'s @how */
#define SIM_WAKE_WAKING_EMITTED 1u   /* its sched_waking is already emitted */
#define SIM_WAKE_NO_COST        2u   /* no mechanical cost (--early-wakes nocost) */
#define SIM_WAKE_STANDIN        4u   /* an early wake's stand-in (--dump-samples' origin) */
/* --dump-wake-records: one `replay_op:` line at @now on @cpu (nothing else depends on it). */
void sim_dump_op(struct sim *s, int cpu, uint64_t now, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* --dump-wake-records: the `newidle` line of a block to idle of @pid on @cpu. */
void sim_dump_newidle(struct sim *s, int cpu, uint64_t now, int pid, int next, uint64_t ni_seq,
		      const char *cls);
/* Push a heap event of @kind on @cpu at @t (@gen: the CPU's generation it is valid for). */
int sim_heap_push(struct sim *s, uint64_t t, uint8_t kind, int cpu, uint32_t gen);
/* The op task @ti (@t) is at, NULL past its last. */
const struct wl_op *sim_cur_op(const struct sim *s, const struct sim_task *t, uint32_t ti);
/* @c runs a task or holds a reschedule. */
bool sim_cpu_busy(const struct sim_cpu *c);
/* Idle, and no reschedule pending that would end the idle. */
bool sim_cpu_idle(const struct sim_cpu *c);
/* Arm @cpu's next tick after @now (grid or traced). */
int sim_arm_tick(struct sim *s, int cpu, uint64_t now);
/* Arm a reschedule of @cpu that takes effect at @at. */
int sim_arm_resched(struct sim *s, int cpu, uint64_t at);
/* Charge the current task's RUN progress up to @now. */
void sim_charge(struct sim *s, int cpu, uint64_t now);
/* How long before its BLOCK a hand-off waiter's reply comes (the trace's sync tail). */
uint64_t sim_reply_tail(const struct sim *s);
/* Task @t is in the RUN before the BLOCK a hand-off waiter waits for: its reply is due. */
bool sim_reply_due(const struct sim *s, const struct sim_task *t);
/* (Re)arm the event at which the current task finishes its RUN op. */
int sim_arm_op_done(struct sim *s, int cpu, uint64_t now);
/* The mechanical cost of a wakeup onto @cpu at @now that takes @path (calib.h). */
uint64_t sim_cost(struct sim *s, enum wl_path path, enum calib_ctx ctx, int cpu,
		  uint32_t task, uint32_t seq, uint64_t now);
/* --exec-balance-at traced with the workload's WL_OP_EXEC_BALANCE marks. */
bool sim_exec_marked(const struct sim *s);
/* A wakeup's reschedule of @cpu after its path's cost, with no interrupt to wait for. */
int sim_resched_after(struct sim *s, int cpu, bool was_idle, int waker_cpu,
		      enum calib_ctx ctx, uint32_t task, uint32_t seq, uint64_t now);
/* Emit the sched_switch on @cpu from @prev to @next (tasks, -1 idle, SIM_SYNTH_STOPPER). */
int sim_emit_switch(struct sim *s, int cpu, int32_t prev, int64_t prev_state,
		    enum trace_task_state prev_run, bool preempt, int32_t next, uint64_t now);
/* model_schedule() at @now on @cpu (under placement trace, newidle pulls only where traced). */
struct model_task *sim_model_schedule(struct sim *s, int cpu, enum model_prev how,
				      uint64_t now);
/* Note a traced pull of task @ti the simulation has not forked or woken yet. */
int sim_pull_note(struct sim *s, uint32_t ti, int cpu);
/* The traced newidle pull of timed entry @e, WL_NONE if it is none. */
uint32_t sim_newidle_of_timed(const struct sim *s, const struct wl_timed *e);
/* Traced newidle pull @e (index @r) at its trace time: 1 handled, 0 a plain migration, -1 error. */
int sim_newidle_at_time(struct sim *s, const struct wl_timed *e, uint32_t r);
/* __schedule() on @cpu after the switch's lead (@block_state: prev_state, SIM_STATE_YIELD). */
int sim_schedule_lead(struct sim *s, int cpu, enum model_prev how, int64_t block_state,
		      uint64_t lead, uint64_t now);
/* __schedule() on @cpu with @block_state the prev_state for SLEEP/DEAD (SIM_STATE_YIELD). */
int sim_schedule_ex(struct sim *s, int cpu, enum model_prev how, int64_t block_state,
		    uint64_t now);
/* --block-lead traced: the lead of BLOCK @op's __schedule() before its switch. */
uint64_t sim_block_lead(const struct sim *s, const struct wl_op *op);
/* __schedule() on @cpu: the current fair task leaves as @how says. */
int sim_do_schedule(struct sim *s, int cpu, enum model_prev how, uint64_t now);
/* sim_emit_wake_event() of @who, a task or SIM_SYNTH_STOPPER (of @target_cpu). */
int sim_emit_wake_of(struct sim *s, enum trace_event_type type, int32_t who, int cpu,
		     int target_cpu, int32_t common_pid, uint64_t now);
/* Emit sched_waking or sched_wakeup (@type) of task @ti on @cpu. */
int sim_emit_wake_event(struct sim *s, enum trace_event_type type, uint32_t ti, int cpu,
			int target_cpu, int32_t common_pid, uint64_t now);
/* Emit sched_migrate_task of task @ti from @from to @to, on @cpu. */
int sim_emit_migrate(struct sim *s, uint32_t ti, int from, int to, int cpu, uint64_t now);
/* The pid running on @cpu (0: idle). */
int32_t sim_cpu_pid(const struct sim *s, int cpu);
/* --wake-clock traced: the rq clock's delay of a wakeup on @cpu made from @waker_cpu. */
uint64_t sim_wake_clock_delay(const struct sim *s, int waker_cpu, int cpu);
/* WL_OP_NICE @op of task @ti: set_user_nice() in the model. */
void sim_set_nice(struct sim *s, uint32_t ti, const struct wl_op *op, uint64_t now);
/* WL_OP_PI_SETPRIO @op made by the running task: rt_mutex_setprio() of its target. */
int sim_pi_setprio(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op, uint64_t now);
/* Task @ti's ops after its current one are work and then a BLOCK. */
bool sim_runs_then_blocks(const struct sim *s, uint32_t ti);
/* Task @ti's ops after its current one are work and then a WAKE. */
bool sim_runs_then_wakes(const struct sim *s, uint32_t ti);
/* try_to_wake_up() of a blocked task by wake record @wi (@how: SIM_WAKE_*). */
int sim_wake_now(struct sim *s, uint32_t wi, int waker_cpu, unsigned int how, uint64_t now);
/* The stand-in of non-sync early wake @wi: its target @ti just blocked at the block @wi ends. */
int sim_early_standin_wake(struct sim *s, uint32_t ti, uint32_t wi, uint64_t now);
/* Task @yi on @cpu passed an op (or @reply is due): wake a task in a hand-off WAIT for it. */
int sim_handoff_release(struct sim *s, uint32_t yi, int cpu, bool reply, uint64_t now);
/* Task @ti on @cpu passed a BLOCK inside a channel read or write: 1 go on, 0 asleep, -1 error. */
int sim_chan_wait(struct sim *s, int cpu, uint32_t ti, uint64_t now);
/* WL_OP_READ / WL_OP_WRITE of task @ti on @cpu: 1 done, 0 asleep on the channel, -1 on error. */
int sim_chan_op(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op, uint64_t now);
/* Early wake @w still wakes its task at the block it ends. */
bool sim_early_wake_wakes(const struct sim *s, const struct wl_wake *w);
/* Wake record @wi reaches its target (from a WAKE op or at its trace time). */
int sim_deliver_wake(struct sim *s, uint32_t wi, int waker_cpu, uint64_t now);
/* A model setter's failure @e is "none of the model's CPUs" (taken as all); else kept, s->oom. */
bool sim_aff_none_of_ours(struct sim *s, const struct sr_error *e);
/* Task @ci forked by @parent_pid on @parent_cpu at @now (wake_up_new_task()). */
int sim_do_fork(struct sim *s, uint32_t ci, int parent_cpu, int32_t parent_pid, uint64_t now);

/* sim_work.c */
/* --resched-at syscall-exit: task @ti's ops from @op are at most a RUN then a hand-off WAIT. */
bool sim_wait_follows(const struct sim *s, uint32_t ti, uint32_t op);
/* The current task of @cpu executes its ops from where it is. */
int sim_run_ops(struct sim *s, int cpu, uint64_t now);

/* sim_class.c */
/* model_config.migrate_hook: the model's balancer moved a queued task */
void sim_model_migrated(void *ctx, uint32_t id, int from, int to, uint64_t now);
/* model_config.stopper_hook: an active balance queued stopper work on @cpu */
void sim_model_stopper(void *ctx, int cpu, int waker_cpu, uint64_t now);
/* WL_OP_MIGRATE: stopper @stopper moves task @ti from @cpu to @dst. */
int sim_self_migrate(struct sim *s, int cpu, uint32_t ti, uint32_t stopper, int dst,
		     uint64_t now);
/* --placement model: sched_exec() at task @ti's exec on @cpu: 1 stays, 0 moved, -1 error. */
int sim_sched_exec(struct sim *s, int cpu, uint32_t ti, uint64_t now);
/* WL_OP_AFFINITY of task @ti running on @cpu: its sched_setaffinity(). */
int sim_affinity_op(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op, uint64_t now);
/* The class of the non-fair task @who taking @cpu (model_other_class()'s argument). */
enum model_other_cls sim_other_kind(const struct sim *s, int cpu, int32_t who);
/* A non-fair task @ti takes @cpu at @now (the fair task's time stolen from here). */
int sim_other_in(struct sim *s, int cpu, uint32_t ti, uint64_t now);
/* Non-fair task @ti leaves @cpu (@blocked: it sleeps); @next: the timed entry after. */
int sim_other_out(struct sim *s, int cpu, uint32_t ti, bool blocked, uint64_t now,
		  const struct wl_timed *next);
/* --nohz-pull: the CPUs whose nohz idle balance kicked at @now may move tasks. */
void sim_nohz_pull_cpus(struct sim *s, uint64_t now);
/* The stopper work the model queued on @cpu, as the kernel's trace shows it. */
int sim_run_stopper(struct sim *s, int cpu, uint64_t now);

/* sim_timed.c */
/* --migrate-resched both: a migration's dequeue on @from set need_resched there. */
int sim_arm_source_resched(struct sim *s, int from, uint64_t now);
/* WL_T_MIGRATE @e applied under --placement trace at its trace time. */
int sim_apply_traced_migration(struct sim *s, const struct wl_timed *e, uint64_t now);
/* Timed entry @e at its time (@next: the one after, NULL none). */
int sim_timed(struct sim *s, const struct wl_timed *e, const struct wl_timed *next);
/* One heap event at the model's earliest bandwidth timer (none without a limit). */
int sim_bw_arm(struct sim *s);
/* The bandwidth period and slack timers due at @now: refill, distribute, unthrottle. */
int sim_bw_timer(struct sim *s, uint64_t now);
/* --cpu-stalls traced: stall @i of @cpu begins at @now. */
int sim_stall_in(struct sim *s, int cpu, uint64_t now, uint32_t i);
/* The stall of @cpu ends at @now: the tick it missed comes. */
int sim_stall_out(struct sim *s, int cpu, uint64_t now);
/* The stalls' heap events, at the start (before the loop). */
int sim_stalls_arm(struct sim *s);

/*
 * Wake @w keeps displaced task @t on the simulation's previous CPU (sim.c's
 * traced_cpu(), sim_chanpair.c's --channel-burst).
 */
static inline bool sim_traced_keeps_displaced(const struct sim_task *t, const struct wl_wake *w)
{
	return t->displaced && w->cpu >= 0 && w->cpu == w->prev_cpu &&
	       !(w->flags & WL_WAKE_NEW) && t->cpu >= 0;
}

/* sim_chanpair.c */
/* The pairing tables, at set-up (one of the channel_wakes/_races/_burst options). */
int sim_bind_blocks(struct sim *s);
/* The wake that ends task @ti's BLOCK op @k (the trace's, without the tables). */
uint32_t sim_block_wake(const struct sim *s, uint32_t ti, uint32_t k);
/* Channel wake @wi came before its reader reached its sleep: queue it. */
void sim_chan_push(struct sim *s, uint32_t wi);
/* Task @ti reaches BLOCK @k, which wake @wi ends: the wake that ends it now. */
uint32_t sim_chan_take_early(struct sim *s, uint32_t ti, uint32_t k, uint32_t wi);
/* Wake @wi (made on @waker_cpu, -1: at its trace time) ends task @ti's current sleep. */
bool sim_chan_wakes_sleeper(struct sim *s, uint32_t ti, uint32_t wi, int waker_cpu);

/* sim_join.c (--join-reply) */
/* The joins' tables, at set-up. */
int sim_join_init(struct sim *s);
/* Task @ti is at its WAKE of wake @w: true if the join's other task makes it instead. */
bool sim_join_defer(struct sim *s, uint32_t ti, uint32_t w);
/* Task @ti is at a BLOCK op: the join wake it makes there first, WL_NONE: none. */
uint32_t sim_join_owed(struct sim *s, uint32_t ti);
/*
 * At the end of the run: the deferred wakes never made (the task that owed one
 * did not reach its BLOCK before the replay ended), counted in a note, not lost
 * silently.
 */
void sim_join_unmade(struct sim *s);

/* sim_run.c */
void sim_event_init(struct sim *s, struct trace_event *ev, enum trace_event_type type, int cpu,
		    uint64_t ts, int32_t common_pid);
int sim_emit(struct sim *s, const struct trace_event *ev);
/* An event written on @cpu at @ts now is one the trace could not have held (ev_unseen). */
bool sim_unseen(const struct sim *s, int cpu, uint64_t ts);
/* Set run_left for the op the task now points at. */
void sim_task_enter_op(struct sim *s, uint32_t ti);

/* group_check.c: probe the reads up to @now (before its events; @at_end: up to the end) */
int sim_group_probe(struct sim *s, uint64_t now, bool at_end);

/*
 * Task @ti's allowed CPUs from its start: the workload's (wl_task.aff_src,
 * docs/replay.md "Affinity"), or without affinity data one traced CPU =
 * pinned (model_task_set_pinned()).
 */
void sim_task_set_affinity(struct sim *s, uint32_t ti);

#endif /* SCHEDREPLAY_SIM_LOCAL_H */
