/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workload extraction: one pass over a trace turns what each task did into a
 * causal workload that a simulation can replay under a different scheduler.
 *
 * Each fair task becomes a list of operations along its OWN CPU work:
 *
 *   RUN(ns)      CPU time on a CPU, merged across preemptions (preemption is
 *                the scheduler's decision, not the task's)
 *   WAKE(w)      the task woke another task here: "woken by W after X ns of
 *                W's own work" is the position of the WAKE op in W's list
 *   FORK(child)  the task created a child here
 *   BLOCK(w)     the task slept (S, D, I, ... raw state kept); wake record w
 *                is what ended the sleep in the trace (or none)
 *   COMM(s)      exec changed the task's comm
 *   EXIT         the task died (its last sched_switch showed X or Z)
 *   EXIT_MOVE    do_exit() re-set its task group (sched_move_task())
 *   READ(c, n)   it read up to n bytes from channel c (a pipe or socket whose
 *                writers the trace links to it: syscall events); with the
 *                channel empty it sleeps until a WRITE
 *   WRITE(c, n)  it wrote n bytes into channel c, waking a reader asleep in a
 *                READ of c; with c full it sleeps until a READ makes room
 *   WAIT(t, i)   a hand-off: it goes on only once task t has passed its
 *                BLOCK op i, else it sleeps until then
 *   MIGRATE(c)   the stopper moved it to CPU c here (sched_exec(), affinity)
 *   WAKE_OTHER   it woke an RT/DL task here (the stopper of a MIGRATE next)
 *   SYSCALL      a position only: a traced read/write began or returned
 *                (--resched-at syscall-exit)
 *   EXEC_BALANCE a position only: where the kernel's sched_exec() decided
 *                before an exec (--placement model)
 *   AFFINITY(c)  its sched_setaffinity() call c took here (a capture that
 *                records the calls: docs/replay.md, "Affinity")
 *
 * What ends a block is a wake record: either a WAKE op of another fair task
 * (the waking ran in that task's own context: common_pid = that task, it was
 * current on that CPU, and not in hardirq/softirq/NMI context), or an
 * EXTERNAL event at an absolute trace time (an idle CPU, an interrupt, a
 * softirq, an RT/DL task, or a waker the trace cannot show).
 *
 * Things that are not the tasks' own decisions happen at their trace times
 * and are kept on one time-ordered list (struct wl_timed): external wakeups,
 * migrations of queued tasks, cgroup moves, and the CPU intervals of RT/DL
 * tasks (time stolen from the fair class).
 *
 * The same pass measures what the hardware did (event counts, wakeup
 * latency through latency.h, the mechanical-cost calibration of calib.h) and
 * infers the machine facts the model needs (CPUs, HZ, tick phase, kernel
 * release), saying how each was found; it also finds each CPU's own ticks
 * (wl_traced_ticks(), for --ticks traced) and the windows a CPU's lost
 * events leave (wl_lost_window()).
 *
 * A workload is immutable after extraction and may be replayed by several
 * threads at once (sim.h).  Memory: O(ops + wakes + tasks), ~16 bytes per op
 * and ~40 bytes per wakeup.
 */
#ifndef SCHEDREPLAY_WORKLOAD_H
#define SCHEDREPLAY_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedreplay/error.h>
#include <schedreplay/trace.h>

#define WL_NONE UINT32_MAX

struct lat_sample;              /* latency.h */
struct wl_workload;

enum wl_op_kind {
	WL_OP_RUN = 1,    /* value = ns of CPU work */
	WL_OP_WAKE,       /* arg = wake index */
	WL_OP_FORK,       /* arg = child task index */
	WL_OP_BLOCK,      /* arg = wake index ending it or WL_NONE; value = raw prev_state;
			     aux = WL_BLOCK_SLEEP or WL_BLOCK_SPECIAL */
	WL_OP_COMM,       /* arg = string index (wl_string()); aux WL_COMM_EXEC: at the
			     task's sched_process_exec (else a rename seen in a switch) */
	WL_OP_EXIT,       /* value = raw prev_state of the last switch */
	WL_OP_WAIT,       /* hand-off: arg = task index, value = index in that task's ops of a
			     BLOCK it must have passed before this task goes on (else it
			     sleeps until then) - see docs/replay.md */
	WL_OP_MIGRATE,    /* the task had the stopper (task value, an RT task) move it to CPU
			     arg here: sched_exec() balancing, an affinity change */
	WL_OP_EXIT_MOVE,  /* do_exit()'s sched_autogroup_exit_task() -> sched_move_task():
			     at the task's first sched_stat_runtime after its
			     sched_process_exit (else right before its EXIT) */
	WL_OP_WAKE_OTHER, /* arg = RT/DL task index: this task woke it on its own CPU here,
			     the stopper of a WL_OP_MIGRATE that follows (sched_exec():
			     stop_one_cpu()); value & 1: its sched_waking, & 2: its
			     sched_wakeup (WL_T_OTHER_WAKE entries with WL_T_WAKE_TIED) */
	WL_OP_READ,       /* arg = channel op index (wl_chan_op()): read from a channel */
	WL_OP_WRITE,      /* arg = channel op index: write into a channel */
	WL_OP_SYSCALL,    /* a position only: aux WL_SYSCALL_ENTER / WL_SYSCALL_EXIT, the
			     task's traced syscalls:sys_{enter,exit}_{read,write} (arg: 0
			     read, 1 write); made only with wl_options.syscall_marks */
	WL_OP_PREEMPT,    /* a position only: the trace switched the task out runnable here
			     at a tick (its CPU's tick charge, then put_prev's, then the
			     sched_switch, no wakeup onto that CPU in between; not a
			     hand-off); made only with wl_options.tick_marks */
	WL_OP_EXEC_BALANCE, /* a position only: sched_exec()'s point in the task's work
			     before the WL_COMM_EXEC that follows (bprm_execve());
			     made only with wl_options.exec_marks (docs/replay.md,
			     "Exec balancing at the kernel's point") */
	WL_OP_NICE,       /* set_user_nice(): the task's nice became (int64_t)value here.
			     The trace shows a fair prio (100..139) other than the one
			     its ops so far give it: at a switch-out, the change was
			     made in the run that ends there (the op sits after that
			     run's work); at a switch-in, while it slept or waited (the
			     op sits after its BLOCK, and the simulation applies it
			     before the wakeup's enqueue, as the kernel's reweight
			     came before it).  A position otherwise, like WL_OP_COMM */
	WL_OP_PI_SETPRIO, /* rt_mutex_setprio() of fair task arg from prio aux + 100 to
			     prio value (both 100..139), made here by this task (a
			     waiter blocking on the rt_mutex it holds, or the holder's
			     unlock): a requeue at the same weight
			     (model_task_pi_setprio()); the trace's sched_pi_setprio */
	WL_OP_AFFINITY,   /* sched_setaffinity() that took (sys_exit ret 0) by this task:
			     arg = index of wl_aff_calls(), whose target and new CPU
			     (one CPU or all) the extraction inferred (docs/replay.md,
			     "Affinity"); made only from traces that record the call */
};

/* WL_OP_COMM aux: the comm changed at an exec (the place of sched_exec()) or by a rename */
enum { WL_COMM_RENAME = 0, WL_COMM_EXEC = 1 };

/*
 * WL_OP_EXEC_BALANCE aux: where it was put - at the trace's exec stopper move
 * (its WAKE_OTHER, else its MIGRATE), wl_facts.exec_lead_ns of work before
 * the exec, or at the exec (no lead measured)
 */
enum { WL_EXEC_AT_STOPPER = 0, WL_EXEC_AT_LEAD = 1, WL_EXEC_AT_EXEC = 2 };

/* WL_OP_SYSCALL aux: where in the task's work the system call began or returned */
enum { WL_SYSCALL_ENTER = 0, WL_SYSCALL_EXIT = 1 };

enum { WL_BLOCK_SLEEP = 0, WL_BLOCK_SPECIAL = 1 };
/*
 * WL_OP_BLOCK aux flag: the sleep was inside a read or write of a modelled
 * channel and the wake that ended it came from the channel's other end (a
 * write for a reader, a read for a writer): the READ/WRITE op that follows
 * decides whether the task sleeps; the BLOCK itself is only a position
 * (hand-off WAITs count it as passed).
 */
#define WL_BLOCK_CHANNEL 0x2

/*
 * WL_OP_WAKE aux flag: the trace shows this wake in the same kernel entry (one
 * system call) as the waker's previous wake: no switch of the waker between
 * the two, and its TIF_NEED_RESCHED set at this waking and on each of its
 * events since the previous wake's (set there or by that wake's own wakeup
 * preemption).  Its return to user space in between would have cleared it:
 * exit_to_user_mode_loop() calls schedule() for it, and __schedule() clears
 * it even where it picks the same task.  Hackbench's readiness barrier, one
 * write() waking every child; a socket read waking its blocked writers.
 * --resched-at next-wake leaves such a wake to the call (docs/replay.md,
 * "Mechanical costs").  Where the kernel set no need_resched before the wake
 * the trace cannot tell, and the flag is not set.
 */
#define WL_WAKE_OP_IN_CALL 0x1

/*
 * WL_OP_WAIT aux: the wakee never wakes the waker in the whole trace (a one-way
 * flow); WL_WAIT_SIGNAL: the WAIT's value is the wakee's WAKE op it waits for,
 * not a BLOCK (wl_options.handoff_signals)
 */
/*
 * WL_WAIT_LATER (wl_options.reply_in_run): the wakee ends the waker's sleep
 * after it, but never in the run the waker's wake began (it slept first: a
 * message thread that its last worker wakes, that sleeps on a timer and then
 * wakes the workers again); nothing the waker does after its wake depends on
 * that run, so a waker the model did not preempt goes on (docs/replay.md,
 * "Hand-offs").
 */
enum { WL_WAIT_PINGPONG = 0, WL_WAIT_ONEWAY = 1, WL_WAIT_SIGNAL = 2, WL_WAIT_LATER = 3 };

struct wl_op {
	uint8_t kind;                  /* enum wl_op_kind */
	uint8_t aux;
	uint16_t lead8;                /* WL_OP_BLOCK: wl_block_lead_ns(); else 0 */
	uint32_t arg;
	uint64_t value;
};

/*
 * A BLOCK's own switch lead: the time from the blocking task's last
 * sched_stat_runtime in that run (its dequeue's update_curr(), at the clock
 * __schedule() read) to its sched_switch, in 8 ns units plus one; 0 when the
 * trace shows no such charge.  Saturates at 524 us.
 */
#define WL_BLOCK_LEAD_UNIT_NS 8u
static inline uint16_t wl_block_lead_pack(uint64_t ns)
{
	uint64_t u = ns / WL_BLOCK_LEAD_UNIT_NS + 1;

	return u > UINT16_MAX ? UINT16_MAX : (uint16_t)u;
}

/* The BLOCK's traced lead in ns, or UINT64_MAX when unknown. */
static inline uint64_t wl_block_lead_ns(const struct wl_op *op)
{
	return op->lead8 ? (uint64_t)(op->lead8 - 1) * WL_BLOCK_LEAD_UNIT_NS : UINT64_MAX;
}

/* Why a wake happened, as far as the trace can tell. */
enum wl_wake_src {
	WL_SRC_TASK = 0,       /* a fair task in its own context: a WAKE op */
	WL_SRC_IDLE,           /* the waking ran on an idle CPU (timer, device) */
	WL_SRC_HARDIRQ,        /* hardirq or NMI context */
	WL_SRC_SOFTIRQ,        /* softirq context (timers, network RX, ...) */
	WL_SRC_NONFAIR,        /* an RT or DL task */
	WL_SRC_UNKNOWN,        /* a waker the trace does not show running there */
	WL_SRC_NR
};

/* How the wakeup was served on the hardware (calibration path). */
enum wl_path {
	WL_PATH_IDLE = 0,      /* target CPU idle: latency is all mechanism */
	WL_PATH_PREEMPT_LOCAL, /* target CPU's current switched out R+ for it; waker on it */
	WL_PATH_PREEMPT_REMOTE,/* the same from another CPU (resched IPI) */
	WL_PATH_QUEUED,        /* waited behind the running task (scheduling delay) */
	WL_PATH_NONE,          /* no sample: spurious wake, task already on a CPU, trace end */
	WL_PATH_NR
};

enum {
	WL_WAKE_ENDS_BLOCK = 0x01,  /* this wake ended a BLOCK of the target */
	WL_WAKE_SPURIOUS   = 0x02,  /* the target was running or queued */
	WL_WAKE_NO_WAKING  = 0x04,  /* no sched_waking: timed at sched_wakeup */
	WL_WAKE_NEW        = 0x08,  /* sched_wakeup_new of a forked task */
	WL_WAKE_ON_CPU     = 0x10,  /* the target was on a CPU at the waking */
	WL_WAKE_SYNC       = 0x20,  /* replayed as WF_SYNC: the waker sleeps (or hands off)
				       right after it (docs/replay.md) */
	WL_WAKE_RESTORED   = 0x40,  /* its latency ends at a switch out of idle that the
				       kernel did not trace and the reader's repair
				       restored (trace_event.synthetic): early by about
				       the idle exit (docs/report.md) */
	WL_WAKE_CHANNEL    = 0x80,  /* ends a sleep of a task that several tasks keep
				       waking (a reader of a pipe or socket with several
				       writers): any such wake may end any such sleep,
				       in the order they come (docs/replay.md) */
};

struct wl_wake {
	uint64_t ts;           /* trace time of sched_waking (or sched_wakeup) */
	uint64_t latency;      /* measured ns to the switch-in, 0 if none */
	uint32_t target;       /* task index */
	uint32_t waker;        /* task index of the causing task, or WL_NONE */
	uint32_t seq;          /* n-th wake of the target (0-based), for cost draws */
	int16_t cpu;           /* CPU the trace enqueued the target on, -1 unknown */
	int16_t waker_cpu;     /* CPU the waking ran on */
	int16_t prev_cpu;      /* the target's CPU before the wakeup (task_cpu() that
				  select_task_rq() saw; the parent's for a fork), -1 unknown */
	uint8_t flags;         /* WL_WAKE_* */
	/*
	 * One byte for the four below (bit-fields): the record stays 48 bytes,
	 * as before idle_ns and sleep_ns; the extraction writes one record per
	 * wakeup, and its fresh memory is a large part of its time.
	 */
	uint8_t src : 3;       /* enum wl_wake_src (WL_SRC_NR <= 8) */
	uint8_t path : 3;      /* enum wl_path (measured; WL_PATH_NR <= 8) */
	uint8_t contested : 1; /* a preemption sample whose CPU saw a later decision
				  point (another wakeup, a tick) before its switch-in
				  (--preempt-costs strict; docs/replay.md) */
	uint8_t in_lost : 1;   /* an external wake assumed for a switch-in with no
				  wakeup in the trace, and a lost-events window
				  (struct wl_lost_window) overlaps the sleep it ends:
				  its wakeup may be among the lost records, so the
				  events of this wake are not compared (docs/replay.md,
				  "Lost events") */
	uint32_t flush_ns;     /* an external wakeup raised on its target CPU in one
				  interrupt with later ones (a wake-list flush,
				  sched_ttwu_pending()): the last of them is flush_ns
				  after it; that CPU cannot switch before (0: none) */
	uint32_t idle_ns;      /* an idle-path sample: how long its CPU had been idle
				  at ts (since its last switch to idle; 0 if that came
				  after ts; saturates at WL_IDLE_NS_MAX), else
				  WL_IDLE_NS_UNKNOWN (docs/replay.md, "Idle residency") */
	uint32_t sleep_ns;     /* a wake ending a BLOCK: ns from that block's traced
				  switch-out to ts (the sleep the trace shows before
				  this wake; saturates at UINT32_MAX), else 0
				  (--early-wakes sleep; docs/replay.md "Early wakes") */
};
_Static_assert(WL_SRC_NR <= 8 && WL_PATH_NR <= 8, "struct wl_wake: src and path are 3 bits");
#define WL_IDLE_NS_UNKNOWN UINT32_MAX
#define WL_IDLE_NS_MAX (UINT32_MAX - 1)

enum wl_task_class { WL_CLASS_FAIR = 0, WL_CLASS_RT, WL_CLASS_DL };

enum wl_init_state {
	WL_INIT_NEW = 0,       /* forked during the trace: starts at its FORK */
	WL_INIT_RUNNING,       /* was current on init_cpu at the trace start */
	WL_INIT_RUNNABLE,      /* was queued on init_cpu */
	WL_INIT_SLEEPING,      /* was blocked (its first wake ends the initial sleep) */
};

struct wl_task {
	int32_t pid;
	int32_t prio;          /* first prio seen (120 + nice; < 100 RT; -1 DL) */
	int nice;
	uint8_t cls;           /* enum wl_task_class */
	uint8_t init_state;    /* enum wl_init_state */
	int16_t init_cpu;
	uint32_t init_wake;    /* WL_INIT_SLEEPING: wake ending the first sleep, or WL_NONE */
	uint32_t group;        /* initial group index */
	uint32_t parent;       /* forking task, WL_NONE if pre-existing */
	uint32_t first_op;
	uint32_t nr_ops;
	uint32_t nr_wakes;     /* wakes targeting this task */
	uint64_t first_ts;     /* when the task first appeared */
	uint64_t runtime_ns;   /* measured on-CPU time in the trace */
	char comm[TRACE_COMM_LEN]; /* comm at its first appearance */
	bool running_at_end;   /* on a CPU when the trace ended (its last RUN is cut short) */
	uint64_t class_leave_ts; /* a fair record that ends queued at a boost to the RT class: its
				    WL_T_CLASS_LEAVE's time (runnable up to there), 0 none */
	uint32_t class_prev;   /* the record of the same pid that a class change ended where
				  this one begins (class_split(), pi_rt_first()), WL_NONE: none */
	bool multi_cpu;        /* the trace shows it on more than one CPU (else it may be
				  pinned: the simulation's balancer leaves it alone) */
	/*
	 * First seen at a switch-in, started asleep and woken there by an
	 * assumed wake (init_wake), in a trace that records sched_wakeup or
	 * sched_waking but no fork (trace_info.records_forks false): most
	 * likely forked, so that wake is taken as wake_up_new_task()'s.  The
	 * simulation creates the task there, by its fork path (sim_do_fork()),
	 * writes its sched_process_fork and sched_wakeup_new, counted apart
	 * (the trace could not hold them), with no latency sample
	 * (docs/replay.md, "Forks the trace does not record").
	 */
	bool fork_assumed;
	/*
	 * fork_assumed: the parent credited (docs/replay.md, "Forks the trace
	 * does not record"): the task running on the CPU of the assumed wake,
	 * the switch-in's prev (it gave the CPU to the child), WL_NONE when
	 * that CPU was idle (the parent ran elsewhere: not identified).
	 */
	uint32_t fork_parent;
	/*
	 * The trace's own counts of it, against the kernel's counters in the
	 * sidecar's sched_at_start / sched_at_end (replay_pelt_compare()):
	 * traced sched_switch records with it as prev (restored ones not
	 * counted), its sched_stat_runtime summed, its sched_migrate_task.
	 */
	uint32_t traced_switch_out, traced_migrations;
	uint64_t traced_stat_runtime_ns;
	/* its last traced switch out asleep (trace ns, CPU), -1 CPU if none */
	uint64_t last_block_ts;
	int16_t last_block_cpu;
	/*
	 * Its allowed CPUs from its start in the trace (before any
	 * WL_OP_AFFINITY on it), in the model's "one CPU or all" form:
	 * aff_cpu >= 0 that CPU only, -1 all; aff_src says where it came
	 * from (WL_AFF_INFERRED: the trace carries no affinity data, and
	 * multi_cpu decides as before).
	 */
	int16_t aff_cpu;
	uint8_t aff_src;       /* enum wl_aff_source */
	/*
	 * With aff_cpu -1: a mask of several CPUs but not all, when a read
	 * says so (SIDECAR_MASK_WORDS words, the workload's sidecar reads
	 * own it; bit n: CPU n); NULL: all CPUs
	 */
	const uint64_t *aff_mask;
};

/* Where a task's allowed CPUs came from (docs/replay.md, "Affinity"). */
enum wl_aff_source {
	WL_AFF_INFERRED = 0,   /* no affinity data: one traced CPU = pinned (multi_cpu) */
	WL_AFF_END_READ,       /* the sidecar's sched_at_end Cpus_allowed_list */
	WL_AFF_START_READ,     /* the sidecar's sched_at_start Cpus_allowed_list */
	WL_AFF_FORK,           /* its parent's at the fork (dup_task_struct()) */
	WL_AFF_RUN_CPUS,       /* after a sched_setaffinity(), the task exited before the
				  end: WL_AFF_MIN_WAKES wakeups on one CPU only (it and the
				  children it forked after the call) */
	WL_AFF_NONE,           /* a call whose mask nothing tells: all CPUs */
	WL_AFF_NR
};
const char *wl_aff_source_name(int src);

/* WL_AFF_RUN_CPUS: this many wakeups after the call, all on one CPU, pin it there */
#define WL_AFF_MIN_WAKES 20

/* A sched_setaffinity() that took (WL_OP_AFFINITY). */
struct wl_aff_call {
	uint64_t ts;           /* its sys_exit_sched_setaffinity */
	uint32_t caller, target; /* task indices (target: the pid argument, 0 = the caller) */
	int16_t cpu;           /* the new mask: that CPU only, -1 all (or mask) */
	uint8_t src;           /* enum wl_aff_source */
	const uint64_t *mask;  /* cpu -1: several CPUs but not all (as wl_task.aff_mask), NULL all */
};
const struct wl_aff_call *wl_aff_calls(const struct wl_workload *wl, uint32_t *n);

/* How a machine fact was found. */
enum wl_fact_source {
	WL_FACT_DEFAULT = 0,   /* nothing said; a default was used */
	WL_FACT_TRACE,         /* read or inferred from the trace */
	WL_FACT_SIDECAR,       /* the capture's sidecar */
	WL_FACT_OPTION,        /* the command line */
	WL_FACT_PLATFORM,      /* LISA's platform.json next to the trace (wl_platform) */
};

/*
 * The machine description LISA (ARM's Linux Integrated System Analysis)
 * writes next to its traces, platform.json: per cluster ("clusters": name ->
 * CPUs) the CPU capacity of its energy model ("nrg_model": name -> "cpu" ->
 * "cap_max", 1024 for the biggest), "cpus_count".  wl_extract() reads the
 * one in the trace's directory when no sidecar is read; the capacity fact
 * (wl_facts.capacity_how) uses it where it describes the trace's CPUs.
 */
#define WL_PLATFORM_MAX_CPUS 64
struct wl_platform {
	const char *path;      /* the file read */
	int cpus_count;        /* its "cpus_count", -1 if absent */
	int nr_cpus;           /* entries of capacity[]: highest CPU named + 1 */
	int capacity[WL_PLATFORM_MAX_CPUS]; /* per CPU, -1: named by no cluster */
	char clusters[120];    /* "big 1-2 1024, little 0,3-5 447" (as read) */
	char release[80];      /* its "kernel": {"release": ...}, "" if none */
};
/*
 * @dir_of's directory's platform.json into @p: 1 read, 0 none there, -1 not
 * usable (@why says why: not JSON, no clusters or capacities, a CPU out of
 * range or in two clusters).  @p->path is malloc()ed (freed by the caller).
 */
int wl_platform_read(const char *dir_of, struct wl_platform *p, char *why, size_t why_size);

struct wl_group {
	const char *path;      /* "/" root, "/a/b", "autogroup-N" */
	uint32_t parent;       /* WL_NONE for the root */
	unsigned long shares;  /* cgroup v1 cpu.shares (1024 default) */
	bool autogroup;
	/*
	 * CPU bandwidth limit (cgroup v1 cpu.cfs_quota_us / cpu.cfs_period_us,
	 * v2 cpu.max): quota_us > 0 and period_us > 0, else -1 (none).  From
	 * --cgroup-map ("quota /path Q P"; Q = -1 removes a sidecar's limit),
	 * else the sidecar; bw_src says which (WL_FACT_DEFAULT: none).
	 */
	long quota_us, period_us;
	enum wl_fact_source bw_src;
	/*
	 * Where the trace shows the group's period boundaries: the trace-clock
	 * phase (0..period) of the switch-ins that end its tasks' throttled
	 * waits (a wait runnable of over a quarter period; at a boundary the
	 * period timer unthrottles them all at once), -1 if fewer than 3 (then
	 * the simulation assumes 0); from the lower tail of those switch-ins,
	 * which come late on a busy CPU.  Counted for the group with the
	 * quota (a task's nearest limited ancestor).
	 */
	int64_t bw_phase_ns;
	uint32_t bw_phase_samples;
};

/*
 * A channel: a pipe or unix stream socket the syscall events let the
 * extraction follow (docs/replay.md, "Channels").  Its read end is one task's
 * fd; its writers' fds are linked to it by the wakes the trace shows inside
 * their writes (a sched_waking by the writer between its sys_enter_write and
 * sys_exit_write of a task asleep in a read of the channel), and, for writes
 * that wake nobody, by the same fd in the same writer or in a sibling (a task
 * forked by the same task: fd tables are copied at fork).
 */
struct wl_channel {
	uint32_t reader;       /* task index of the read end */
	int64_t rfd;           /* its fd */
	uint64_t capacity;     /* bytes: the fill at which a traced write blocked (the
				  largest such); UINT64_MAX when no write blocked */
	uint64_t init_fill;    /* bytes in it at the trace start: what the trace's reads
				  took before its writes had put it there */
	uint32_t nr_writers;   /* tasks whose writes feed it */
	uint64_t bytes;        /* written in the trace */
	uint64_t wake_fill;    /* bytes: the fill a traced read left when it woke a writer
				  asleep in a write of the channel (the largest such);
				  UINT64_MAX when no read did */
	uint32_t cap_from;     /* the channel whose capacity and wake fill these are:
				  this one's own traced write sleeps, else (none slept
				  here) a channel sharing a writer task with it whose
				  did (docs/replay.md, "Channels"); WL_NONE: none known */
};

/* The operand of a WL_OP_READ / WL_OP_WRITE. */
struct wl_chan_op {
	uint32_t chan;         /* channel index */
	uint32_t wake;         /* WRITE: the trace's wake of the reader inside this
				  write (its placement, cost draw and latency sample
				  when the simulated reader is asleep too), else WL_NONE */
	uint64_t bytes;        /* moved in the trace (the syscall's return value) */
	uint64_t ts;           /* the trace time of the op's place: the wake it became,
				  the sleep inside the syscall, else its exit (analysis:
				  replay --dump-wake-records) */
};

/* Channel extraction (wl_options.channels), counts for the facts. */
struct wl_chan_stats {
	bool syscalls;         /* the trace has the four syscalls:sys_{enter,exit}_{read,write} */
	bool modelled;         /* channels were extracted (syscalls, and not --channels off) */
	uint32_t channels;     /* channels modelled */
	uint32_t unlinked_channels; /* read ends linked to a writer but not modelled: the
				       reads take more than the linked writes put there
				       (by more than a default pipe's capacity), or no
				       write resolves to them (a write whose (writer or
				       sibling, fd) is linked to several read ends is
				       left out, write by write) */
	uint64_t reads, writes;     /* syscalls of fair tasks with bytes moved */
	uint64_t reads_modelled, writes_modelled; /* of them, READ / WRITE ops */
	uint64_t wakes_explained;   /* traced wakes now made by a WRITE or READ op */
	uint64_t blocks_explained;  /* traced sleeps now decided by a READ or WRITE op */
	uint64_t damaged;           /* reads/writes left out: ret larger than their count
				       (or than MAX_RW_COUNT): a damaged trace */
	uint8_t events_seen;        /* a bit per syscall event with records: sys_enter_read 1,
				       sys_exit_read 2, sys_enter_write 4, sys_exit_write 8 */
	bool requested;             /* --channels auto|strict (wl_options.channels) */
	bool marks_requested;       /* --resched-at syscall-exit (wl_options.syscall_marks) */
};

enum wl_timed_kind {
	WL_T_EXT_WAKE = 1,     /* arg = wake index; an external wakeup */
	WL_T_EXT_FORK,         /* arg = child; a fork no traced fair task performed */
	WL_T_MIGRATE,          /* task, cpu = dest: the trace moved a queued/sleeping task;
				  arg: its load-balance pass (WL_T_PASS_*), 0 if on its own */
	WL_T_MOVE_GROUP,       /* task, arg = group */
	WL_T_OTHER_IN,         /* cpu, task: an RT/DL task takes the CPU */
	WL_T_OTHER_OUT,        /* cpu, task: it leaves (aux: 1 if it blocked) */
	/* aux & WL_T_TIED on OTHER_IN/OUT: the interval is a stopper's, replayed by the
	   WL_OP_MIGRATE of the task it moved instead of at its trace time */
	WL_T_OTHER_WAKE,       /* task (RT/DL), cpu, aux = the event type (sched_waking or
				  sched_wakeup[_new]); arg & WL_T_WAKE_TIED: replayed by the
				  waker's WL_OP_WAKE_OTHER instead of at its trace time */
	WL_T_OTHER_MIGRATE,    /* task (RT/DL), cpu = dest */
	WL_T_CLASS_LEAVE,      /* task (fair, queued in the trace; asleep with aux
				  WL_T_CLASS_ASLEEP): it leaves the fair class here
				  (switched_from_fair(): a record of the same pid in the
				  RT class goes on; docs/replay.md, "Class changes"); its
				  ops end */
	WL_T_CLASS_ENTER,      /* task (a fair record that starts asleep), cpu: the
				  sleeping task is switched to the fair class here
				  (switched_to_fair() -> attach_task_cfs_rq(): its load
				  joins cpu's cfs_rq while it sleeps); its next traced
				  wake wakes it */
};

#define WL_T_TIED 0x2
/*
 * aux & WL_T_CLASS_WAKE on EXT_WAKE: the enqueue of a task switched to the
 * fair class (switched_to_fair(), a record of the same pid in the new class:
 * docs/replay.md, "Class changes"), not a wakeup: no latency sample
 */
#define WL_T_CLASS_WAKE 0x1
/* aux & WL_T_CLASS_ASLEEP on CLASS_LEAVE: the task was asleep in the trace at the change */
#define WL_T_CLASS_ASLEEP 0x1
#define WL_T_WAKE_TIED 0x1u
/*
 * WL_T_MIGRATE.arg of the migrations of one traced load-balance pass that
 * moved several tasks (detach_tasks(): consecutive sched_migrate_task from
 * one CPU to another, written on one CPU with only sched_stat_runtime
 * between them): the pass's id (1, 2, ... in the trace's order) in
 * WL_T_PASS_ID, and WL_T_PASS_LAST on its last migration.  The kernel
 * attaches such a pass's tasks after the last detach, last-detached first
 * (attach_tasks()): replay_config.balance_attach.  docs/replay.md,
 * "Balance passes".
 */
#define WL_T_PASS_ID 0x7fffffffu
#define WL_T_PASS_LAST 0x80000000u
/* the most migrations one pass holds: sched_nr_migrate_break, after which
   detach_tasks() stops, attaches and balances again (LBF_NEED_BREAK) */
#define WL_PASS_TASKS_MAX 32u
struct wl_timed {
	uint64_t ts;
	uint32_t task;
	uint32_t arg;
	int16_t cpu;
	uint8_t kind;          /* enum wl_timed_kind */
	uint8_t aux;
	/*
	 * WL_T_MIGRATE of a task the trace had queued (aux 0): where in its
	 * work the task was, the index (relative to its first op) of the RUN
	 * it was preempted in, or of the op it had still to start
	 * (replay_config.queued_moves POSITION); else 0.
	 */
	uint32_t op;
};


struct wl_facts {
	unsigned int nr_cpus;
	enum wl_fact_source cpus_src;
	char cpus_how[160];
	unsigned int hz;
	enum wl_fact_source hz_src;
	char hz_how[600];
	const char *release;   /* kernel release (uname), NULL if unknown */
	enum wl_fact_source release_src;
	char release_how[160];
	/*
	 * Release unknown: a release the kernel is older than, from what its
	 * trace shows ("4.3": formats without sched_waking; "4.14": a numeric
	 * prev_state in the older layout); NULL if none. Static.
	 */
	const char *release_before;
	/*
	 * The value of the capture kernel's boot option sched_vcpu_pack= (the
	 * vendor packing, docs/model.md "Placement on the capture kernel") in
	 * the sidecar's kernel.cmdline, e.g. "15"; NULL if the sidecar has no
	 * cmdline or the option is not in it.
	 */
	const char *vcpu_pack;
	uint64_t tick_phase_ns[64]; /* per CPU (< 64): ticks fire at phase + k / HZ */
	bool tick_phase_known;  /* from full-period charges (0 used where not, by default) */
	/*
	 * The tick grid's phase per CPU, if the grid holds at hz (the test
	 * that infers HZ): the median of each CPU in tick_phase_grid_cpus's
	 * lone charges near their circular mean, all CPUs' mean for the
	 * others.  The simulation's where tick_phase_known is false under
	 * --tick-phase grid (replay_config.tick_phase).
	 */
	uint64_t tick_phase_grid_ns[64];
	bool tick_phase_grid_known;
	uint64_t tick_phase_grid_cpus;
	enum wl_fact_source groups_src;
	char groups_how[200];
	/*
	 * CPU capacity: the model runs every CPU at SCHED_CAPACITY_SCALE (1024),
	 * with no capacity or frequency invariance in PELT and no
	 * capacity-aware placement or balancing (misfit, asym packing, EAS).
	 * capacity_src/how say where that holds: the sidecar's cpu_capacity
	 * values (all 1024), or the sidecar or the trace showing CPUs of
	 * another capacity (capacity_asym: the replay's placement and PELT
	 * are then an approximation), or nothing recorded (assumed).
	 */
	enum wl_fact_source capacity_src;
	bool capacity_asym;
	char capacity_how[512];
	int64_t preempt_state;  /* raw prev_state of a preempted task in this trace ("R+",
				   or "R" on a kernel that only shows that) */
	/*
	 * __schedule() reads the rq clock this long before the sched_switch
	 * tracepoint fires (dequeue, pick, put/set): the kernel charges that
	 * time to the next task, the trace's timestamps to the previous one.
	 * Median over blocking switches of switch - prev's sched_stat_runtime
	 * (the dequeue's update_curr()) right before it; 0 if < 20 samples.
	 */
	uint64_t switch_lead_ns;
	uint32_t switch_lead_samples;
	/*
	 * A tick that ends curr's slice switches at the return from the
	 * interrupt: median of switch - the tick's sched_stat_runtime over
	 * preemption switches preceded by two sched_stat_runtime of prev (the
	 * tick's, then put_prev's); 0 if < 20 samples.
	 */
	uint64_t tick_switch_ns;
	uint32_t tick_switch_samples;
	/*
	 * sched_exec() decides at bprm_execve()'s start, before the binary is
	 * loaded; sched_process_exec fires at the end of exec_binprm(): the
	 * median CPU work of a task from its exec stopper's sched_waking (the
	 * kernel's move, tied to its work: WL_OP_WAKE_OTHER) to its exec
	 * (exec_lead_samples execs; 0 and 0 if none).  With
	 * wl_options.exec_marks: the execs whose WL_OP_EXEC_BALANCE sits at
	 * the traced stopper move (exec_marks_traced), exec_lead_ns before the
	 * exec (exec_marks_lead: the work since the segment's start if less),
	 * or at the exec (exec_marks_at_exec: no lead measured).
	 */
	uint64_t exec_lead_ns;
	uint32_t exec_lead_samples;
	uint32_t exec_marks_traced, exec_marks_lead, exec_marks_at_exec;
	/*
	 * Affinity (docs/replay.md, "Affinity"): aff_events the trace has
	 * sched_setaffinity() events recorded (the sidecar's trace.events or a
	 * record), aff_reads the sidecar's reads carry Cpus_allowed_list; with
	 * both (aff_data) the tasks' masks by source (enum wl_aff_source:
	 * aff_tasks[WL_AFF_INFERRED] no source covers them), how many are
	 * pinned, and the calls that took by the source of their mask.
	 */
	bool aff_events, aff_reads, aff_data;
	uint32_t aff_tasks[WL_AFF_NR], aff_pinned, aff_calls[WL_AFF_NR];
	/*
	 * A local wakeup (the waker wakes a task onto its own CPU) reads the rq
	 * clock this long after its sched_waking: try_to_wake_up() traces the
	 * waking first, then selects the CPU and enqueues; the enqueue's
	 * update_curr() (or wakeup_preempt()'s, for a task still queued as
	 * delayed) charges the waker up to that clock, and a preempting wakee
	 * is charged from it (the skipped clock).  Median over local wakes of
	 * the waker's sched_stat_runtime - the sched_waking before it (no
	 * sched_wakeup or switch between); 0 if < 20 samples.  Used by
	 * replay_config.wake_clock (--wake-clock traced).
	 */
	uint64_t wake_clock_ns;
	uint32_t wake_clock_samples;
	/*
	 * CPUs (bit n: CPU n < 64) whose switches out of idle the kernel does
	 * not trace (sidecar trace.idle_switches[].idle_exit_untraced; this
	 * machine's CPU 1, docs/capture.md).  Unless the reader's repair
	 * restored them (idle_exit_restored), the simulation does not emit
	 * them either, so that its counts and latencies have the trace's
	 * definition (wl_options.no_repair, or a repair that found nothing).
	 */
	uint64_t idle_exit_untraced;
	/*
	 * CPUs (bit n) whose switches out of idle the stream shows mostly as
	 * restored by the reader's repair (TRACE_REPAIR_IDLE_EXIT: more
	 * synthetic than traced idle -> task switches there).  The simulation
	 * emits its idle exits there, counts them as "restored"
	 * (sched_switch_restored) and draws their cost from that CPU's own
	 * idle-path samples, which end at restored switches (calib.h).
	 */
	uint64_t idle_exit_restored;
	/*
	 * A waker that sleeps right after a wakeup (WL_WAKE_SYNC ending in a
	 * BLOCK) runs this long in between: median; 0 if < 20 samples.  A
	 * hand-off wait is released this long before the wakee's block (its
	 * reply comes before its own wait).
	 */
	uint64_t sync_tail_ns;
	uint32_t sync_tail_samples;
	bool has_sched_waking;
	bool has_stat_runtime;
	bool has_cgroup_attach;
	bool all_preempt_costs;     /* wl_options.all_preempt_costs: the calibration's rule */
	struct wl_chan_stats chan;
};

/* Trace-visible counts, measured. */
struct wl_counts {
	/*
	 * Every sched_switch of the stream, the restored ones included: the
	 * simulation predicts the complete switch stream.  Of them,
	 * sched_switch_restored are not records of the file but switches out
	 * of idle the reader's repair restored (trace_event.synthetic).
	 */
	uint64_t sched_switch;
	uint64_t sched_switch_restored;
	uint64_t sched_waking;
	uint64_t sched_wakeup;
	uint64_t sched_wakeup_new;
	uint64_t sched_migrate_task;
	uint64_t sched_stat_runtime;      /* all classes (RT/DL too since 6.8) */
	uint64_t sched_stat_runtime_fair; /* tasks of the fair class only */
	uint64_t sched_process_fork;
	uint64_t sched_process_exit;
	uint64_t events;                  /* records of the file read (restored switches not
					     included) */
	uint64_t lost_events;
};

/* wl_options.unseen_nomig */
enum wl_unseen_nomig {
	WL_UNSEEN_NOMIG_QUEUED,
	WL_UNSEEN_NOMIG_IDLE,
	WL_UNSEEN_NOMIG_ALL_IDLE,
};

/*
 * wl_options.flush_scope: which wakes join a wake-list flush besides the base
 * members (a wake with no traced waker on its idle target CPU itself, in idle
 * or hardirq context): bit WL_FLUSH_SCOPE_SOFTIRQ adds a softirq-context wake
 * on the idle task, WL_FLUSH_SCOPE_MIGRATE lets a wake migrating onto the
 * interrupted CPU (its sched_waking naming the previous CPU, then
 * sched_migrate_task) join instead of ending the run.
 */
enum wl_flush_scope {
	WL_FLUSH_SCOPE_BASE = 0,
	WL_FLUSH_SCOPE_SOFTIRQ = 1,
	WL_FLUSH_SCOPE_MIGRATE = 2,
	WL_FLUSH_SCOPE_BOTH = 3,
};

struct wl_options {
	unsigned int hz;              /* 0: sidecar, else inferred, else 250 */
	const char *comm_prefix;      /* latency samples of these comms only; NULL: all */
	const char *cgroup_map;       /* FILE: "pid cgroup-path [shares]" lines, or NULL */
	const char *sidecar;          /* NULL: TRACE.json next to the trace if present */
	bool no_sidecar;              /* ignore any sidecar */
	/*
	 * A trace.dat's buffer to read ("" the top level), NULL: the one whose
	 * first records hold the most sched events (trace_open_opts.buffer)
	 */
	const char *buffer;
	/*
	 * LISA's platform.json next to the trace (wl_extract() sets it when it
	 * reads no sidecar), NULL: none; platform_bad: one that is there but
	 * could not be used, and why (NULL: none).
	 */
	const struct wl_platform *platform;
	const char *platform_bad;
	/*
	 * The kernel release of that platform.json (kernel.release), where it
	 * describes the trace's CPUs, when neither a sidecar nor the trace
	 * names one: read unless no_platform_release (--no-platform-release;
	 * docs/replay.md, "Machine facts").
	 */
	bool no_platform_release;
	/*
	 * Read the raw event stream: without the reader's repair of switches
	 * out of idle the kernel did not trace (TRACE_REPAIR_IDLE_EXIT, on by
	 * default; see docs/replay.md, "Untraced idle exits").
	 */
	bool no_repair;
	/*
	 * Pipes and sockets from the syscall events (docs/replay.md,
	 * "Channels"): WL_CHANNELS_OFF (default: measured worse on the
	 * hackbench captures, docs/validation-log.md "Eleventh pass") ignores
	 * those events (the workload of a trace without them);
	 * WL_CHANNELS_AUTO extracts them when the trace has
	 * sys_{enter,exit}_{read,write}.
	 */
	enum wl_channels { WL_CHANNELS_OFF = 0, WL_CHANNELS_AUTO } channels;
	/*
	 * --preempt-costs (docs/replay.md, "Mechanical costs").  Default
	 * (strict): a preemption sample whose CPU saw a later decision point
	 * (a wakeup onto it, a tick) before the switch counts as a cost only
	 * within the longest uncontested sample of its path and waker
	 * context; beyond, it is queued (scheduling delay).  true (all):
	 * every preempting-path sample is a cost, the calibration before
	 * the seventeenth pass (docs/validation-log.md, "The free group's p99
	 * after a boundary").
	 */
	bool all_preempt_costs;
	/*
	 * Mark each traced read and write of a fair task (the four
	 * syscalls:sys_{enter,exit}_{read,write}) in its work as WL_OP_SYSCALL
	 * positions: where its return to user space is, for
	 * replay_config.resched_at (--resched-at syscall-exit).  Off: no such
	 * op (the workload of before; the ops split the RUNs, so the cost
	 * draws seeded by op index change with them).
	 */
	bool syscall_marks;
	/*
	 * Mark each switch out of a fair task that the trace shows as a tick's
	 * preemption (WL_OP_PREEMPT) in its work, for
	 * replay_config.tick_preempt_at (--tick-preempt-at traced).  Off: no
	 * such op (the ops split the RUNs, as syscall_marks').
	 */
	bool tick_marks;
	/*
	 * Put each exec's sched_exec() point (WL_OP_EXEC_BALANCE) in the
	 * task's work: at the kernel's exec stopper move where the trace shows
	 * one, else wl_facts.exec_lead_ns of work before the exec's COMM; for
	 * --placement model (replay_config.placement).  Off: no such op.
	 */
	bool exec_marks;
	/*
	 * Find the CPU stalls (struct wl_stall) and take each out of the work
	 * of the task current through it, for replay_config.cpu_stalls
	 * (--cpu-stalls traced).  Off: the stall is the task's work, as before.
	 */
	bool cpu_stalls;
	/*
	 * With cpu_stalls, also the gaps whose charge falls short of them (the
	 * steal time clock_task left out: wl_stall.steal), for
	 * --cpu-stalls steal.  Off: such a gap is the task's work.
	 */
	bool cpu_steal;
	/*
	 * A task never seen before that is switched in on a CPU where a switch
	 * to idle was traced earlier starts asleep, woken externally at that
	 * switch-in (the kernel picks idle only with an empty queue, so it was
	 * woken after, untraced; docs/replay.md, "Tasks first seen at a
	 * switch-in").  --unseen-queued (for comparison): queued there since
	 * the trace start, as before 3 Dec 2026.
	 */
	bool unseen_queued;
	/*
	 * The same task in a trace that records no sched_migrate_task
	 * (--unseen-nomig; enum wl_unseen_nomig): queued there since the trace
	 * start (WL_UNSEEN_NOMIG_QUEUED, the default: it may have been moved
	 * there untraced), or started asleep and woken at that switch-in where
	 * the CPU was idle before it - a traced switch to idle there, or this
	 * switch's prev is idle (WL_UNSEEN_NOMIG_IDLE) -, or only where every
	 * CPU of the trace was (WL_UNSEEN_NOMIG_ALL_IDLE).  docs/replay.md,
	 * "Tasks first seen at a switch-in".
	 */
	int unseen_nomig;
	/*
	 * A softirq-context wake written while the CPU's current is its
	 * ksoftirqd thread is a WAKE op of that thread (run_ksoftirqd() runs
	 * the softirqs in its own context), not an external wake at its trace
	 * time (--ksoftirqd-wakes ops|timed).
	 */
	bool ksoftirqd_ops;
	/*
	 * The wake-list flush's scope (--flush-scope; enum wl_flush_scope, a
	 * bit set): base (0, the default) as before 5 Dec 2026; softirq: a
	 * softirq-context wake on the idle task is a member too (the kernel's
	 * irq_exit() runs the softirqs before the idle loop's schedule_idle());
	 * migrate: a sched_waking or sched_migrate_task raised on the CPU in
	 * idle or interrupt context does not end the run, so a wake migrating
	 * onto it joins (ttwu_queue() enqueues there at once).  Experimental:
	 * docs/replay.md, "Wake-list flushes".
	 */
	int flush_scope;
	/*
	 * In a trace without sched_waking, a sched_wakeup on its own idle
	 * target CPU in idle or hardirq context (the wake list's IPI,
	 * sched_ttwu_pending()) is a WAKE op of the one fair task current on
	 * another CPU, where that task has woken the wakee in its own context
	 * before, at its point of that task's run; otherwise (the default) an
	 * external wake at its trace time (--wakelist-ops, experimental:
	 * docs/replay.md, "Wake-list wakes without sched_waking").
	 */
	bool wakelist_ops;
	/*
	 * A waker preempted by its wakee that runs again before the wakee
	 * blocked, the wakee having woken other tasks meanwhile, waits for the
	 * wakee's last such wake (WL_WAIT_SIGNAL; --handoff-signals,
	 * experimental: docs/replay.md, "Hand-offs").  Off: no such wait.
	 */
	bool handoff_signals;
	/*
	 * A wake whose waker exits right after it (at most the sync bound of
	 * its own work, no other wake or fork in between: a child's
	 * exit_notify() -> do_notify_parent() -> __wake_up_parent(), a
	 * __wake_up_sync_key() of the parent's wait_chldexit) is sync
	 * (WL_WAKE_SYNC), as a wake whose waker sleeps right after: an early
	 * one skips the block it ends, as do_wait() finds the zombie and
	 * does not schedule() (--exit-wake-sync, experimental: docs/replay.md,
	 * "Early wakes").  Off: only a waker's sleep or hand-off makes it sync.
	 */
	bool exit_wake_sync;
	/*
	 * A pair's hand-off WAITs are ping-pong (WL_WAIT_PINGPONG) only if a
	 * reply of the wakee Y ends a sleep its waker X went to right after
	 * waking it, made in the run X's wake began (no sleep of Y between);
	 * a pair whose replies all came after such a sleep of Y has its WAITs
	 * marked WL_WAIT_LATER: a waker the model did not preempt there goes
	 * on (--reply-in-run, experimental: docs/validation-log.md, helper
	 * pw45).  Off: any wake of X by Y ending that sleep is a reply.
	 */
	bool reply_in_run;
	/*
	 * Called with every measured latency sample once final (the
	 * extraction's latency machine, wl_measured_latency(): its
	 * lat_config.sink; replay --dump-samples); NULL: none.
	 */
	void (*sample_sink)(void *ctx, const struct lat_sample *s);
	void *sample_ctx;
	/* Progress: called about every 2^18 events with the fraction of the
	 * trace's time span done; may be NULL. */
	void (*progress)(void *ctx, uint64_t events_done, double fraction);
	void *progress_ctx;
};

struct lat_machine;   /* latency.h */
struct wl_calib;      /* calib.h */

/*
 * Read @path once and build the workload, the measured statistics and the
 * cost calibration.  NULL on error (@err names the file, and the CPU, offset
 * and timestamp when the trace is at fault).  Recoverable oddities (lost
 * events, unknown tasks, missing event types) are not errors: they are
 * approximated and listed (wl_note_at()).
 */
struct wl_workload *wl_extract(const char *path, const struct wl_options *opt,
			       struct sr_error *err);
void wl_free(struct wl_workload *wl);

/* ---- building a workload from events (wl_extract() uses it; tests too) */

struct wl_builder;
struct sidecar;
/*
 * @info: the trace description (cpus, uname); may be NULL for tests.
 * @sc: the capture's sidecar (cgroups, HZ, tasks), may be NULL.  Both must
 * outlive the builder; the workload copies what it keeps.
 */
struct wl_builder *wl_builder_new(const struct trace_info *info, const struct sidecar *sc,
				  const struct wl_options *opt, struct sr_error *err);
/* Feed one event (in timestamp order); -1 only on allocation failure. */
int wl_builder_event(struct wl_builder *b, const struct trace_event *ev, uint64_t lost_before,
		     struct sr_error *err);
/* Finish; the builder is consumed (freed) in all cases. */
struct wl_workload *wl_builder_finish(struct wl_builder *b, struct sr_error *err);
void wl_builder_free(struct wl_builder *b);

/* ---- read access ------------------------------------------------------ */

const struct wl_facts *wl_facts(const struct wl_workload *wl);
const struct wl_counts *wl_counts(const struct wl_workload *wl);
const struct trace_info *wl_trace_info(const struct wl_workload *wl);
uint64_t wl_first_ts(const struct wl_workload *wl);
uint64_t wl_last_ts(const struct wl_workload *wl);

uint32_t wl_nr_tasks(const struct wl_workload *wl);
const struct wl_task *wl_task(const struct wl_workload *wl, uint32_t i);
/*
 * The task of @pid that had appeared by @ts and appeared last (pid reuse), else
 * the first of @pid; NULL if no task had @pid.  A binary search of the tasks
 * sorted by (pid, first appearance): O(log tasks + tasks sharing @pid).
 */
const struct wl_task *wl_task_of_pid(const struct wl_workload *wl, int32_t pid, uint64_t ts);
const struct wl_op *wl_task_ops(const struct wl_workload *wl, uint32_t i);

uint32_t wl_nr_wakes(const struct wl_workload *wl);
const struct wl_wake *wl_wake(const struct wl_workload *wl, uint32_t i);

/*
 * The capture kernel's path of a local wakeup (the waker wakes a task onto
 * its own CPU; docs/replay.md "Mechanical costs", --wake-path), read from
 * the trace.  try_to_wake_up() of a task still queued as delayed
 * (DELAY_DEQUEUE) takes ttwu_runnable(): requeue_delayed_entity(), then
 * wakeup_preempt() -> check_preempt_wakeup_fair(), whose update_curr()
 * writes the waker's sched_stat_runtime, and the sched_wakeup follows it
 * at once (capture machine: p50 ~280 ns).  A task fully asleep is enqueued:
 * enqueue_entity()'s update_curr() writes the sched_stat_runtime first, and
 * the rest of the enqueue (place_entity(), the tree, the load sums, every
 * level of its hierarchy) and wakeup_preempt() come before the sched_wakeup
 * (0.55-1.3 us).  So the charge falls late in the waking -> wakeup interval
 * for a delayed wakee, early for an asleep one.  A wake record whose
 * sched_waking was followed on its CPU by the waker's sched_stat_runtime
 * and then the wakee's sched_wakeup, nothing else between (a
 * sched_migrate_task aside), has a lead (waking -> charge) and a gap
 * (charge -> wakeup): delayed if lead > gap, else asleep.  Unknown for other
 * wakes.  The ratio, not a time: the times scale with the machine and the
 * task's hierarchy (charge -> wakeup of a delayed wakee ~280 ns on a pinned
 * pipe, 400-850 ns on hog-timer; of an asleep one 550-650 and 900-2000 ns).
 */
enum wl_kpath { WL_KPATH_UNKNOWN = 0, WL_KPATH_ASLEEP, WL_KPATH_DELAYED };
struct wl_wake_kpath {
	uint32_t wake;         /* wake record index */
	uint32_t lead_ns;      /* its sched_waking -> the waker's sched_stat_runtime */
	uint32_t gap_ns;       /* that sched_stat_runtime -> the wakee's sched_wakeup */
};
enum wl_kpath wl_wake_traced_path(const struct wl_workload *wl, uint32_t wake);
/* Local wakes with a traced path: *asleep and *delayed of them (either may be NULL). */
void wl_wake_traced_paths(const struct wl_workload *wl, uint32_t *asleep, uint32_t *delayed);

uint32_t wl_nr_timed(const struct wl_workload *wl);
const struct wl_timed *wl_timed_at(const struct wl_workload *wl, uint32_t i);

/*
 * A traced newidle pull: a queued task's sched_migrate_task (orig_cpu !=
 * dest_cpu) written on its destination in the context of the task that
 * switches out to the moved task right after, not runnable - the newidle
 * balance of that task's __schedule() (pick_next_task_fair() ->
 * sched_balance_newidle(), kernel/sched/fair.c).  replay_config.newidle_pulls;
 * docs/replay.md, "Traced newidle pulls".
 */
struct wl_newidle {
	uint32_t timed;        /* its WL_T_MIGRATE (the moved task, the destination) */
	uint32_t blocker;      /* the task whose block or exit pulled it */
	uint32_t block_op;     /* ... that BLOCK or EXIT op (index from its first op) */
};
/* In trace order (by timed index). */
uint32_t wl_nr_newidle(const struct wl_workload *wl);
const struct wl_newidle *wl_newidle_at(const struct wl_workload *wl, uint32_t i);

/*
 * A CPU stall (wl_options.cpu_stalls): a busy CPU that wrote no event for
 * longer than WL_STALL_TICKS tick periods, its fair task current before and
 * after, the gap ended by that task's own sched_stat_runtime (the first tick
 * it took again).  A busy CPU's tick charges its task every 1/HZ
 * (sched_tick() -> task_tick_fair() -> update_curr()), so the CPU did not run
 * the guest then: a stalled vCPU (docs/replay.md, "CPU stalls").  The
 * kernel charged the whole gap to that task (no steal time reported); the
 * extraction takes it out of the task's work.  With wl_options.cpu_steal
 * also a gap whose charges fall short of it by more than a tick period: the
 * vCPU ran the task for the charge after the gap's last event, then the
 * rest was steal that clock_task left out; the stall is that rest (start =
 * end - steal), and the extraction takes it out of the task's work.
 */
#define WL_STALL_TICKS 3u
struct wl_stall {
	uint64_t start;        /* the CPU's last event before the gap (a steal stall:
				  the gap's end less its steal) */
	uint64_t end;          /* the task's charge that ends it */
	uint64_t steal;        /* 0: charged; else the time clock_task left out (end - start) */
	uint32_t task;         /* the task current through it */
	int cpu;
};
/* In the order their ends were read (by end time per CPU). */
uint32_t wl_nr_stalls(const struct wl_workload *wl);
const struct wl_stall *wl_stall_at(const struct wl_workload *wl, uint32_t i);

uint32_t wl_nr_channels(const struct wl_workload *wl);
const struct wl_channel *wl_channel(const struct wl_workload *wl, uint32_t i);
const struct wl_chan_op *wl_chan_op(const struct wl_workload *wl, uint32_t i);
/* "auto", "off" -> *out; -1 (out unchanged) for anything else. */
int wl_channels_parse(const char *name, enum wl_channels *out);
/* --preempt-costs: "strict" -> false, "all" -> true (wl_options.all_preempt_costs); -1 else. */
int wl_preempt_costs_parse(const char *name, bool *all);

uint32_t wl_nr_groups(const struct wl_workload *wl);
const struct wl_group *wl_group(const struct wl_workload *wl, uint32_t i);

const char *wl_string(const struct wl_workload *wl, uint32_t i);

/*
 * What the first wake onto an idle CPU in its idle interval was (the event
 * that ended the interval, as far as the trace shows it): none traced; raised
 * on that CPU in hardirq/softirq context or by its idle task (a local timer or
 * device: the CPU's own next event); or raised elsewhere (a remote wake: an
 * IPI or a wake-list flush; a fork).  An RT/DL task's wake is classified by
 * its own sched_waking's CPU and context.  A trace without sched_waking has
 * only the sched_wakeup's context (a wake-list flush's IPI looks local).
 */
enum wl_idle_end {
	WL_IDLE_END_NONE = 0,
	WL_IDLE_END_LOCAL,
	WL_IDLE_END_REMOTE,
};

/* An interval during which the trace shows a CPU idle (pid 0 current). */
struct wl_idle {
	uint64_t start, end;
	int cpu;
	uint8_t ended_by;      /* enum wl_idle_end */
};
/*
 * Whether the trace shows @cpu idle at @ts.  *cursor (start at 0, one per
 * CPU) makes calls with non-decreasing @ts O(1) amortized.  An idle exit
 * the kernel did not trace ends at the CPU's next event in a task's
 * context.
 */
bool wl_cpu_idle_at(const struct wl_workload *wl, int cpu, uint64_t ts, uint32_t *cursor);
/* The same for @ts in any order (a binary search). */
bool wl_cpu_idle_at_any(const struct wl_workload *wl, int cpu, uint64_t ts);
/* ... and that interval itself, NULL when @cpu is not idle at @ts */
const struct wl_idle *wl_cpu_idle_interval(const struct wl_workload *wl, int cpu, uint64_t ts);
/* @cpu's first idle interval that ends after @ts (it may start after @ts), or NULL */
const struct wl_idle *wl_cpu_idle_next(const struct wl_workload *wl, int cpu, uint64_t ts);

/*
 * A gap of lost events (ring-buffer overrun) on one CPU: the trace holds no
 * record of that CPU in [from, to).  @to is the first record after the gap,
 * @from the one after the CPU's last record before it (at most @to: a gap
 * between two records of one timestamp is empty), or the trace's first
 * timestamp when the CPU had none (an overwritten start: @at_start).  @events: how many
 * the kernel counted, TRACE_LOST_UNKNOWN if it did not say.  Sorted by CPU,
 * then @from.
 */
struct wl_lost_window {
	uint64_t from, to;
	uint64_t events;
	int cpu;
	bool at_start;         /* the CPU had no record before the gap */
};
uint32_t wl_nr_lost_windows(const struct wl_workload *wl);
/* How many wakes are marked in_lost. */
uint32_t wl_nr_lost_wakes(const struct wl_workload *wl);
const struct wl_lost_window *wl_lost_window(const struct wl_workload *wl, uint32_t i);
/*
 * Whether the trace could not hold a record of @cpu at @ts: @ts lies in one
 * of @cpu's lost-events windows (a binary search).
 */
bool wl_in_lost_window(const struct wl_workload *wl, int cpu, uint64_t ts);

/*
 * The trace's own ticks on @cpu (replay_config.ticks, --ticks traced;
 * docs/replay.md, "Traced ticks"): each a hardirq sched_stat_runtime of the
 * running task that no hardirq wakeup follows (workload_ticks.c), at most one
 * per tick period of its grid (wl_traced_tick_phase() + k / HZ), within
 * wl_tick_window() of its grid point; ascending, *n of them (NULL, 0: none:
 * no tick phase known, no context flags in the trace, a CPU of 64 or more).
 */
const uint64_t *wl_traced_ticks(const struct wl_workload *wl, int cpu, uint32_t *n);
/*
 * The grid phase of @cpu's ticks from its traced ticks (their median offset,
 * 0..1/HZ), the grid the simulation ticks on under --ticks traced; false if
 * it has fewer than 4 (the facts' tick_phase_ns then).
 */
bool wl_traced_tick_phase(const struct wl_workload *wl, int cpu, uint64_t *phase);
/* Every tick found, in a period's window or not (the first of a period or not). */
uint32_t wl_nr_ticks_found(const struct wl_workload *wl);
/* A traced tick of grid point g is in [g - *lo, g + *hi] (100 and 700 us at HZ <= 1000). */
void wl_tick_window(unsigned int hz, uint64_t *lo, uint64_t *hi);

/*
 * The time rq_clock_task() left out of each CPU's clock (IRQ and steal time:
 * update_rq_clock_task()), measured from chains of one task's consecutive
 * sched_stat_runtime charges with no switch of it between, both written in
 * the same kind of context: each pair's trace interval minus its runtime,
 * counted when over a 5 us slack (workload_steal.c; docs/replay.md
 * "Left-out clock_task time").  Runs too short to show such a chain
 * contribute nothing.
 */
struct wl_clock_point {
	uint64_t ts;                /* trace ns */
	uint64_t left_ns;           /* cumulative left-out time at ts */
};
struct wl_clock_left {
	uint64_t left_ns;           /* the CPU's total */
	uint64_t chain_ns;          /* trace time covered by the chains' pairs */
	uint64_t span_ns;           /* the trace's first to last event */
	uint32_t pairs, gaps;       /* pairs read; pairs over the slack */
	uint32_t skipped;           /* pairs not counted: the second charge may have read a
				       wakeup's skipped clock (need_resched after a wakeup) */
	uint64_t max_gap_ns;
	/*
	 * The sidecar's /proc/stat deltas over the capture (its "cpu_time"),
	 * in ns: steal, and irq + softirq; proc_stat false where it has none.
	 */
	bool proc_stat;
	uint64_t proc_steal_ns, proc_irq_ns;
};
/* @cpu's totals; false (zeroes) for a CPU outside the facts' nr_cpus. */
bool wl_clock_left(const struct wl_workload *wl, int cpu, struct wl_clock_left *out);
/*
 * @cpu's timeline, *n points ascending in ts, linear between them, constant
 * after the last (0 before the first); NULL, 0: nothing left out seen.
 */
const struct wl_clock_point *wl_clock_left_points(const struct wl_workload *wl, int cpu,
						  uint32_t *n);
/* The timeline's value at @ts. */
uint64_t wl_clock_left_at(const struct wl_workload *wl, int cpu, uint64_t ts);

/* NUMA node of each CPU from the sidecar (nr_cpus entries), NULL if unknown. */
const int *wl_cpu_nodes(const struct wl_workload *wl);
/* The sidecar's bookkeeping-function counts (only those captured): *iter from 0. */
bool wl_sidecar_func_next(const struct wl_workload *wl, unsigned int *iter, const char **name,
			  int64_t *count);
/*
 * The sidecar's count of the bookkeeping function @name, not traceable ones
 * included: true if the sidecar's function counts list @name, *count -1 when
 * it was not traceable on that kernel (inlined).  False without function
 * counts (none recorded, or the tracer was unavailable).
 */
bool wl_sidecar_func_get(const struct wl_workload *wl, const char *name, int64_t *count);
/* The sidecar used, NULL if none. */
const char *wl_sidecar_path(const struct wl_workload *wl);
/*
 * The sidecar's lost-event counters against the trace's gaps
 * (sidecar_lost_compare(), made by wl_extract()): NULL when there was no
 * sidecar (or it has no "lost" object).  Its text lines are the warnings
 * replay and whatif print.
 */
struct sidecar_lost_cmp;
const struct sidecar_lost_cmp *wl_lost_sidecar(const struct wl_workload *wl);
/*
 * The sidecar's snapshot of the kernel's per-thread sched state at the
 * capture's start (@at_end false) or end (sidecar_at_start / _at_end,
 * copied): NULL when the sidecar has none (older captures, no sidecar).
 */
struct sidecar_sched;
const struct sidecar_sched *wl_sched_snapshot(const struct wl_workload *wl, bool at_end);
/*
 * The sidecar's reads of debugfs's sched/debug (the kernel's group queues,
 * sidecar_sched_debug, copied): NULL when the sidecar has none.
 */
struct sidecar_sched_debug;
const struct sidecar_sched_debug *wl_sched_debug(const struct wl_workload *wl);
/*
 * The threads of the start snapshot the trace never shows (no task of
 * their pid): asleep through the whole trace, in the kernel their blocked
 * load still sits on the cfs_rq of the CPU they last ran on and decays
 * there (replay --initial-pelt all holds them: docs/replay.md).  @snap
 * indexes wl_sched_snapshot(wl, false)->tasks; @group is the workload's group
 * of the thread's cgroup (tasks_at_start), or of its autogroup in the root
 * cgroup, when a traced task uses it, else WL_NONE (not in tasks_at_start, or
 * a group no traced task is in: the replay has no such group).  In snapshot
 * order (by pid); NULL, *@n 0 without a start snapshot.
 */
struct wl_unseen {
	uint32_t snap;
	uint32_t group;
};
const struct wl_unseen *wl_unseen_threads(const struct wl_workload *wl, uint32_t *n);

/*
 * The trace's own runnable set at sched/debug read @read (an index of
 * wl_sched_debug()->reads) on @cpu, in workload group @group: the fair
 * tasks the trace's states have running or queued there in that group or
 * a group below it (what the kernel prints as h_nr_queued), at the read's
 * sched_clk (@at: after the last event at or before it) and the least and
 * most over the read's span [sched_clk, sched_clk + read_us] (@lo, @hi),
 * and when in the span it first matches the kernel's row (@agree_ns).
 * Tasks first seen after the read that were running or queued from the
 * trace's start are counted on their first CPU.  False where there is no
 * such count (no sidecar reads, a read outside the trace, a CPU past the
 * sidecar's).  replay/workload_sdq.c; docs/replay.md "Task groups against
 * the kernel's sched/debug".
 */
struct wl_sd_queued {
	uint16_t at, lo, hi;
	/*
	 * ns after the read's sched_clk at which the trace's count first
	 * equals the kernel's (h_nr_runnable where printed, else h_nr_queued):
	 * 0 at the read's own time, UINT32_MAX never within the span or no
	 * kernel row of the queue
	 */
	uint32_t agree_ns;
};
bool wl_sd_trace_queued(const struct wl_workload *wl, uint32_t read, uint32_t group, int cpu,
			struct wl_sd_queued *out);
/*
 * Where read @read printed @cpu's block, as far as the trace shows it: *ns
 * after the read's sched_clk, the first moment within the read's span at
 * which the trace's count equals the kernel's on every group of that CPU
 * the kernel printed (the kernel prints the header, then CPU by CPU:
 * print_cpu() over for_each_online_cpu(), kernel/sched/debug.c).  False
 * where the trace never agrees on all of them within the span, or there is
 * nothing to compare.
 */
bool wl_sd_cpu_agree_ns(const struct wl_workload *wl, uint32_t read, int cpu, uint32_t *ns);

/* The measured wakeup latency (the same state machine as `report`). */
const struct lat_machine *wl_measured_latency(const struct wl_workload *wl);
/* The mechanical-cost calibration (calib.h). */
const struct wl_calib *wl_calibration(const struct wl_workload *wl);

/*
 * Approximations made, one sentence each with its count: *iter starts at 0;
 * false when done.
 */
bool wl_note_at(const struct wl_workload *wl, unsigned int *iter, const char **text,
		uint64_t *count);

const char *wl_wake_src_name(enum wl_wake_src s);
const char *wl_path_name(enum wl_path p);
const char *wl_fact_source_name(enum wl_fact_source s);

#endif /* SCHEDREPLAY_WORKLOAD_H */
