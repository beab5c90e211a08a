/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workload extraction, private to the builder: its state, shared by
 * workload.c (the pass over the event stream, wl_builder_event()) and
 * workload_finish.c (the passes over the whole workload after it,
 * wl_builder_finish()).
 */
#ifndef SCHEDREPLAY_WORKLOAD_BUILDER_H
#define SCHEDREPLAY_WORKLOAD_BUILDER_H

#include "workload_local.h"

/* A CPU's current task: a task index, or one of these. */
#define CUR_IDLE    (-1)
#define CUR_UNKNOWN (-2)

enum tstate_kind { TS_NEW, TS_RUNNING, TS_QUEUED, TS_BLOCKED, TS_DEAD };

struct tstate {
	int32_t aff_pid;             /* its sched_setaffinity() under way: the target pid, 0 none */
	uint32_t aff_fork_call;      /* a forked child: the last call on its parent before, or
					WL_NONE (the parent's mask from its start) */
	uint32_t aff_last;           /* the last call on it so far, WL_NONE none */
	uint8_t st;
	bool initial_sleep;          /* BLOCKED since before the trace */
	int16_t ow_cpu;              /* a non-fair task's pending sched_waking: its CPU + 1 (0: none) */
	bool ow_local;               /* ... in interrupt/softirq context or the idle task's */
	int16_t cpu;
	uint32_t group;
	uint32_t block_op;           /* BLOCKED: index in ops of the BLOCK, or WL_NONE */
	uint32_t waking;             /* a sched_waking awaiting its sched_wakeup */
	uint32_t init_migrate;       /* first event a sched_migrate_task: its timed entry */
	uint32_t lat_wake;           /* awaiting its switch-in (calibration) */
	int32_t lat_curr;            /* target CPU's current at sched_wakeup */
	uint32_t lat_switches;       /* the target CPU's switch count then */
	uint32_t lat_wakeups;        /* ... its wakeup count (this one included) */
	uint32_t lat_stats;          /* ... its current's sched_stat_runtime count */
	uint64_t lat_idle_since;     /* ... idle then: since when (else UINT64_MAX) */
	uint64_t mark;               /* RUNNING: end of the last op cut */
	uint64_t runnable_since;     /* QUEUED by a switch-out while runnable: its time */
	uint64_t cut_ts;             /* QUEUED by another task current on its CPU: then */
	uint32_t cut_ops;            /* ... and its ops.n then */
	uint32_t cut_by;             /* ... by that task (WL_NONE: none) */
	uint32_t cut_by_op;          /* ... whose placeholder op (kind 0) is its run from the
					untraced switch to then (lost_switch_decided()) */
	uint32_t run_wakee;          /* RUNNING: last sleeper it woke since its switch-in */
	uint32_t handoff_to;         /* QUEUED: preempted by run_wakee (a hand-off) */
	uint32_t handoff_from;       /* the task that handed off to this one */
	uint32_t handoff_ops0;       /* ... its own ops.n then (handoff_signal()) */
	bool exiting;                /* sched_process_exit seen, its EXIT_MOVE not yet placed */
	uint32_t move_op;            /* its EXIT_MOVE placed: that op's index + 1 (0: none), until
					it is switched out (retract_exit_move()) or exits */
	uint64_t move_ts;            /* ... that op's charge (sched_move_task()): then */
	bool exited;                 /* sched_process_exit seen (in its context) */
	uint64_t blocked_ts;         /* BLOCKED by a switch-out: then (0: since the trace start) */
	bool exit_queued;            /* QUEUED by a preemption after that: it runs again */
	int16_t seen_cpu;            /* the first CPU the trace showed it on, -1 none yet */
	int8_t nice;                 /* the nice its ops so far give it (WL_OP_NICE) */
	bool prio_unknown;           /* first seen as an event's context: its prio is a guess */
	int16_t pi_prio;             /* p->prio set by its last sched_pi_setprio while boosted
					within the fair range, else -1 (on_pi_setprio()) */
	bool pi_rt;                  /* its last sched_pi_setprio boosted it to an RT/DL prio */
	char comm[TRACE_COMM_LEN];   /* comm as of the last event naming it */
	WL_VEC(struct wl_op) ops;
};

struct cpu_track {
	int32_t curr;                /* task index, CUR_IDLE or CUR_UNKNOWN */
	int32_t lost_task;           /* the last task lost_switch() blocked here as idle, or -1 */
	uint64_t lost_ts;            /* ... at this time: the CPU was idle after it */
	int32_t stat_pid;            /* the last event here was this pid's sched_stat_runtime */
	uint64_t stat_ts;
	int32_t stat2_pid;           /* ... and the one before it, too (a tick's) */
	uint64_t stat2_ts;
	/*
	 * The pids of the last two charges of a task in its own context here
	 * since the last switch (a tick's, then put_prev's:
	 * tick_preempt_mark()), other events in between (a system call's exit)
	 * not minding, unlike stat_pid/stat2_pid; their times are stat_ts and
	 * stat2_ts; and the CPU's wakeups count at each.
	 */
	int32_t tk_pid, tk2_pid;
	uint32_t tk_wakeups, tk2_wakeups;
	uint64_t stat_clk;           /* ... the rq clock it charged up to (clk_read()) */
	uint64_t clk;                /* the time of the last charge here, 0: unknown */
	int32_t wclk_pid;            /* a local sched_waking by this pid (the CPU's task) awaits */
	uint64_t wclk_ts;            /* ... its update_curr(): wake_clock_ns; its ts */
	bool wp_on;                  /* a local sched_waking's path awaits (wake_path_seen()): */
	uint32_t wp_wake;            /* ... its wake record, */
	int32_t wp_waker, wp_pid;    /* ... the waker and the wakee, */
	uint64_t wp_ts;              /* ... the waking's time, */
	uint64_t wp_rt_ts;           /* ... the waker's sched_stat_runtime after it (0: none yet) */
	/*
	 * a running task deboosted here to the fair class (pi_rt_first()), 0:
	 * none; the next event here, if that task's sched_stat_runtime in its
	 * own context, is the RT class's charge of its dequeue (rt_mutex_setprio()
	 * -> update_curr_rt(), written after sched_pi_setprio): not a fair event
	 */
	int32_t deboost_pid;
	uint32_t other_in;           /* timed index of the RT/DL switch-in running here */
	uint32_t other_prev;         /* the fair task it preempted (switched out runnable) */
	bool other_tied;             /* that interval moved other_prev (WL_OP_MIGRATE) */
	uint32_t rtw_task;           /* RT/DL task a fair curr woke here last, WL_NONE */
	uint32_t rtw_by;             /* ... that curr */
	uint32_t rtw_waking;         /* ... timed index of its sched_waking (of its
	                                sched_wakeup in a trace without wakings) */
	uint32_t rtw_wakeup;         /* ... and of its sched_wakeup, WL_NONE */
	uint32_t switches;           /* sched_switch events seen on this CPU */
	uint32_t wakeups;            /* sched_wakeup(_new) events targeting it */
	uint32_t curr_stats;         /* sched_stat_runtime events of its current task */
	bool idle_open;              /* idle since idle_since (an open wl_idle) */
	uint64_t idle_since;
	uint8_t idle_wake;           /* the open interval's first wake onto this CPU:
	                                enum wl_idle_end (idle_wake_seen()) */
	bool known_once;             /* curr has been known at some point */
	bool idle_seen;              /* a switch to idle was read here: its queue was empty */
	uint64_t idle_exits_traced;  /* idle -> task sched_switch records */
	uint64_t idle_exits_restored;/* ... restored by the reader's repair (synthetic) */
#define WL_FLUSH_MAX 16u
	uint32_t flush[WL_FLUSH_MAX];/* external wakes raised here for here in one
				      interrupt so far (wake_flush_add()) */
	uint32_t flush_n;
	bool rec_seen;               /* a record of this CPU was read (not a restored switch) */
	uint64_t rec_ts;             /* ... the last one's timestamp */
	uint64_t rec_charged;        /* --cpu-stalls: its current task's charges written on other
					CPUs since (remote update_curr()s; stall_seen()) */
	bool rec_switched;           /* ... a restored switch here since (stall_seen()) */
	uint32_t pass_last;          /* timed index of the WL_T_MIGRATE this CPU's last event
					(sched_stat_runtime aside) pushed, WL_NONE: none
					(pass_track()) */
	uint32_t pass_n;             /* ... the migrations of its pass so far */
	int16_t pass_orig;           /* ... its orig_cpu */
	uint32_t ni_timed;           /* timed index of a queued task's migration onto this
					CPU written here in a fair curr's context, WL_NONE:
					none; a newidle pull if this CPU's next event (its
					sched_stat_runtime aside) switches that curr out to
					the moved task (newidle_track()) */
	int32_t ni_prev;             /* ... that curr */
	uint32_t ni_n;               /* ... migrations here since (1: a single pull) */
	uint32_t nr_waker;           /* the task of this CPU's last task-context sched_waking,
					WL_NONE after a switch here (in_call_track()) */
	bool nr_held;                /* ... TIF_NEED_RESCHED set since that wake (at its
					waking or its own sched_wakeup) on every event here */
};

/* The extraction writes one per wakeup: keep it in 48 bytes (struct wl_wake). */
_Static_assert(sizeof(struct wl_wake) == 48, "struct wl_wake grew");

/* A missing wakeup assumed at a switch-in (WL_NOTE_MISSING_WAKEUP), for lost_finish(). */
struct wl_missing_wake {
	uint32_t wake;
	uint64_t since;              /* the sleep it ends began then (the trace start: unknown) */
};

struct wl_builder {
	struct wl_options opt;
	const struct sidecar *sc;
	int sc_last_online;          /* sidecar_last_online_cpu(), -1 without a sidecar */
	int sc_offline;              /* the sidecar's offline CPUs (all above sc_last_online) */
	int32_t cpu_limit;           /* trace_cpu_limit(): no event names a CPU from here up */
	int idle_seen_cpus;          /* CPUs whose cpu_track.idle_seen is set */
	struct wl_workload *wl;

	WL_VEC(struct wl_task) tasks;
	WL_VEC(struct tstate) ts;
	WL_VEC(struct wl_wake) wakes;
	WL_VEC(struct wl_timed) timed;
	WL_VEC(struct wl_newidle) newidle;
	WL_VEC(struct wl_stall) stalls;
	WL_VEC(struct wl_idle) idle;
	WL_VEC(struct wl_lost_window) lost;
	WL_VEC(struct wl_wake_kpath) kpath;   /* local wakes' traced paths (wl_wake_traced_path()) */
	WL_VEC(struct wl_missing_wake) missing;
	WL_VEC(struct wl_group) groups;
	/* per group: trace-clock offsets in its period of throttle-ending switch-ins */
	WL_VEC(uint64_t) *bw_unthrottle;
	uint32_t bw_unthrottle_n;
	WL_VEC(char *) strings;

	uint32_t *pid_map;           /* pid -> task index + 1; 0 = none */
	struct lat_old_task old_named; /* the measured side's last (pid 0: none) */
	size_t pid_cap;
	struct cpu_track *cpus;
	int nr_cpus;
	uint32_t nr_passes;          /* load-balance passes of several tasks so far (pass_track()) */

	struct wl_hz_probe *hz;
	struct wl_chanb *chan;       /* channels (workload_chan.c), NULL: --channels off */
	uint8_t sys_seen;            /* bit per syscall event type seen (1 << enter + 2 * kind) */
	WL_VEC(struct wl_aff_call) aff; /* sched_setaffinity() calls that took */
	bool aff_seen;               /* a sys_{enter,exit}_sched_setaffinity record seen */
	struct wl_cgmap cgmap;
	int cg_root;                 /* cpu hierarchy id of cgroup_attach_task, -1 undecided */
	bool started;
	uint64_t first_ts, last_ts;
	bool saw_r_plus, saw_r;      /* preempted tasks shown as "R+" / as "R" */
	bool dead_ops;               /* some ops are kind 0: drop_dead_ops() at the end */
#define WL_LEAD_BUCKET_NS 50u
#define WL_LEAD_BUCKETS 200u     /* up to 10 us */
	uint32_t lead_hist[WL_LEAD_BUCKETS];
	/* a rescheduling tick's charge -> its switch: the return from the
	 * interrupt, 10-30 us on the development VM, so a wider range */
#define WL_TICK_BUCKET_NS 250u
#define WL_TICK_BUCKETS 4000u    /* up to 1 ms */
	uint32_t tick_hist[WL_TICK_BUCKETS];
	uint32_t tail_hist[WL_LEAD_BUCKETS];
	uint32_t wclk_hist[WL_LEAD_BUCKETS];
	/* the trace's ticks and their switches (workload_ticks.c) */
	struct wl_tick_cpu *tick_cpus;
	int tick_ncpus;
	WL_VEC(struct wl_tick_rec) tick_found;
	WL_VEC(uint64_t) tick_delays;
	/* the time clock_task left out, per CPU (workload_steal.c) */
	struct wl_steal *steal;
	/* the trace's runnable set at the sidecar's sched/debug reads (workload_sdq.c) */
	struct wl_sdq *sdq;
};

/*
 * workload_ticks.c: the trace's own ticks (--ticks traced).  Every event of
 * the stream, @lost_before as wl_builder_event()'s; at the stream's end;
 * and after facts_finish() (the grid): the ticks placed in their periods
 * (wl_workload.ticks) and the tick -> switch table (calib_build_tick()).
 * -1 on ENOMEM.
 */
int wl_ticks_event(struct wl_builder *b, const struct trace_event *ev, bool lost_before);
int wl_ticks_stream_end(struct wl_builder *b);
int wl_ticks_finish(struct wl_builder *b);

/*
 * workload_steal.c: the time rq_clock_task() left out per CPU, from chains
 * of one task's charges (wl_clock_left()).  Every event of the stream,
 * @lost_before as wl_builder_event()'s; after facts_finish() (nr_cpus):
 * the timelines handed to the workload.  -1 on ENOMEM.
 */
#define WL_CLOCK_LEFT_SLACK_NS 5000
int wl_steal_event(struct wl_builder *b, const struct trace_event *ev, bool lost_before);
int wl_steal_finish(struct wl_builder *b);
void wl_steal_free(struct wl_builder *b);

/*
 * workload_sdq.c: the trace's own queued-task counts at the sidecar's
 * sched/debug reads (wl_sd_trace_queued()).  _init() at the builder's start
 * (nothing without the sidecar's reads); _before() with each event's time
 * before the event is applied, _after() once it is; _finish() after the
 * stream, before the groups and tasks move to the workload.  -1 on ENOMEM.
 */
int wl_sdq_init(struct wl_builder *b);
int wl_sdq_before(struct wl_builder *b, uint64_t ts);
int wl_sdq_after(struct wl_builder *b, uint64_t ts);
int wl_sdq_finish(struct wl_builder *b);
void wl_sdq_free(struct wl_builder *b);
/*
 * The builder found at this event that task @t left its CPU asleep (or
 * dead) at @from, before now, a switch the kernel did not trace: the
 * snapshots taken since @from counted it running or queued, wrongly.
 */
int wl_sdq_retract(struct wl_builder *b, uint32_t t, uint64_t from);
/*
 * Exiting task @t's EXIT_MOVE placed at its charge at @from was retracted
 * (retract_exit_move()): the snapshots taken since @from counted it in the
 * root task group, but it was still in its autogroup then.
 */
int wl_sdq_unmove(struct wl_builder *b, uint32_t t, uint64_t from);

/*
 * workload.c: a cgroup path's length in the kernel's spelling (trailing '/'
 * dropped, "/a/b/" is "/a/b"); 0 for the root ("", "/", "//").
 */
size_t wl_group_path_len(const char *path, size_t len);

/*
 * workload.c: the cgroup a task alive at the trace start is in (the kernel's
 * task_group(): its cpu cgroup, in the root cgroup its session's autogroup,
 * sched_autogroup_fork()): the --cgroup-map PID line (*@line, else NULL),
 * then the sidecar's tasks_at_start; in the root cgroup, the autogroup of
 * tasks_at_start when the sidecar says autogroups are on (written to @name,
 * *@autogroup set).  NULL: the root group (also a pid with no map line and
 * no tasks_at_start entry).  The rule of every task the replay starts
 * before the trace, traced or not (wl_unseen_threads()).
 */
#define WL_AUTOGROUP_NAME 32
const char *wl_initial_cgroup(struct wl_builder *b, int32_t pid, char name[WL_AUTOGROUP_NAME],
			      bool *autogroup, struct wl_cgmap_entry **line);

/*
 * The end of the event stream (workload.c): the tasks still running have
 * their last RUN cut at the last event, the CPUs idle then their idle
 * intervals closed, and the measured latencies closed.  -1 on ENOMEM.
 */
int wl_builder_stream_end(struct wl_builder *b);

#endif /* SCHEDREPLAY_WORKLOAD_BUILDER_H */
