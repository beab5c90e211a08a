/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workload extraction, private: the workload object and the pieces of the
 * extraction pass shared between workload*.c and calib.c.
 *
 *   workload.c        the builder: one state machine over the event stream
 *   workload_finish.c the passes over the whole workload after the stream
 *                     (workload_builder.h: the builder's state they share)
 *   workload_facts.c  machine facts: HZ and tick phase from sched_stat_runtime,
 *                     cgroups from the sidecar / --cgroup-map
 *   workload_read.c   wl_extract(): reader -> builder (+ latency machine)
 *   calib.c           mechanical-cost calibration from the wake records
 */
#ifndef SCHEDREPLAY_WORKLOAD_LOCAL_H
#define SCHEDREPLAY_WORKLOAD_LOCAL_H

#include <schedreplay/latency.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/workload.h>

#include "calib.h"

/* Growable arrays: every allocation checked by the caller. */
#define WL_VEC(type) struct { type *v; uint32_t n, cap; }
int wl_vec_grow(void **v, uint32_t *cap, size_t elem, uint32_t need);
#define WL_VEC_PUSH(vec, err_label)                                                   \
	do {                                                                          \
		if ((vec).n == (vec).cap &&                                           \
		    wl_vec_grow((void **)&(vec).v, &(vec).cap, sizeof(*(vec).v), (vec).n + 1)) \
			goto err_label;                                               \
	} while (0)

enum wl_note_id {
	WL_NOTE_LOST,
	WL_NOTE_NO_WAKING,
	WL_NOTE_NO_WAKEUP,
	WL_NOTE_WAKEUP_NO_SUCCESS,
	WL_NOTE_NO_STAT_RUNTIME,
	WL_NOTE_WAKE_IDLE,
	WL_NOTE_WAKE_HARDIRQ,
	WL_NOTE_WAKE_SOFTIRQ,
	WL_NOTE_WAKE_KSOFTIRQD,
	WL_NOTE_WAKE_WAKELIST,
	WL_NOTE_WAKE_NONFAIR,
	WL_NOTE_WAKE_UNKNOWN,
	WL_NOTE_WAKE_OF_NONFAIR,
	WL_NOTE_MISSING_WAKEUP,
	WL_NOTE_FORK_ASSUMED,
	WL_NOTE_HANDOFF,
	WL_NOTE_HANDOFF_ONEOFF,
	WL_NOTE_HANDOFF_LATER,
	WL_NOTE_HANDOFF_SIGNAL,
	WL_NOTE_SELF_MIGRATE,
	WL_NOTE_SWITCH_MISMATCH,
	WL_NOTE_LOST_IDLE_SWITCH,
	WL_NOTE_LOST_SWITCH_ELSEWHERE,
	WL_NOTE_LOST_SWITCH_OTHER,
	WL_NOTE_LOST_SWITCH_REMOTE,
	WL_NOTE_LOST_SWITCH_STAMPED,
	WL_NOTE_PID_REUSE,
	WL_NOTE_PREEXIST,
	WL_NOTE_WAKEUP_MIGRATED,
	WL_NOTE_RUNNING_MIGRATE,
	WL_NOTE_PI_BOOST,
	WL_NOTE_NICE,
	WL_NOTE_PI_REQUEUE,
	WL_NOTE_PI_UNPLACED,
	WL_NOTE_PI_FAIR,
	WL_NOTE_PI_RT_BOOST,
	WL_NOTE_PI_RT_FIRST,
	WL_NOTE_PI_RT_KEPT,
	WL_NOTE_PI_RT_QUEUED,
	WL_NOTE_DEBOOST_CHARGE,
	WL_NOTE_CLASS_SPLIT,
	WL_NOTE_CLASS_SPLIT_PI,
	WL_NOTE_PI_NICE,
	WL_NOTE_PI_OPEN,
	WL_NOTE_EXT_FORK,
	WL_NOTE_CGROUP_OTHER_ROOT,
	WL_NOTE_RACE_WAKE,
	WL_NOTE_WAKING_NO_WAKEUP,
	WL_NOTE_EXIT_MOVE_RETRACTED,
	WL_NOTE_BALANCE_PASS,
	WL_NOTE_CGMAP_UNMATCHED,
	WL_NOTE_CGMAP_PID_UNMATCHED,
	WL_NOTE_NEWIDLE_PULL,
	WL_NOTE_NEWIDLE_EXIT,
	WL_NOTE_CPU_STALL,
	WL_NOTE_CPU_STEAL,
	WL_NOTE_NR
};

struct wl_workload {
	struct trace_info info;       /* strings owned by strs below */
	char *info_strs[9];            /* [6]: kernel release from the sidecar, [7]: its
					  sched_vcpu_pack= value, [8]: buffer_also */
	struct sidecar_func *funcs;    /* the sidecar's function counts, copied */
	size_t nr_funcs;
	int *cpu_node;                 /* NUMA node per CPU (sidecar), NULL if unknown */
	char *sidecar_path;
	struct sidecar_sched sched_snap[2]; /* the sidecar's sched_at_start, sched_at_end */
	struct wl_aff_call *aff_calls;  /* sched_setaffinity() calls that took */
	uint32_t nr_aff_calls;
	bool aff_data;                 /* the trace records them and the sidecar's reads
					  carry Cpus_allowed_list: aff_cpu / aff_src apply */
	struct sidecar_sched_debug sched_debug; /* the sidecar's sched_debug reads */
	struct wl_unseen *unseen;      /* sched_snap[0]'s threads the trace never shows */
	/* the trace's queued counts at the sched/debug reads (workload_sdq.c):
	   [sdq_nreads][sdq_ng][sdq_nc] of {at, lo, hi}; sdq_taken per read */
	uint16_t *sdq;
	uint32_t *sdq_agree;           /* [sdq_nreads][sdq_ng][sdq_nc]: wl_sd_queued.agree_ns */
	uint32_t *sdq_cpu_agree;       /* [sdq_nreads][sdq_nc]: wl_sd_cpu_agree_ns() */
	uint8_t *sdq_taken;
	uint32_t sdq_nreads, sdq_ng, sdq_nc;
	uint32_t nr_unseen;
	struct sidecar_lost_cmp *lost_sc; /* the sidecar's lost-event counters against the
					     trace's gaps (wl_extract()); NULL: not compared */
	struct wl_facts facts;
	struct wl_counts counts;
	uint64_t first_ts, last_ts;

	struct wl_task *tasks;
	uint32_t nr_tasks;
	/* the tasks by (pid, first_ts, index): wl_task_of_pid()'s binary search */
	struct wl_pid_ix { int32_t pid; uint32_t task; uint64_t first_ts; } *by_pid;
	struct wl_op *ops;
	uint32_t nr_ops;
	struct wl_wake *wakes;
	uint32_t nr_wakes;
	struct wl_wake_kpath *kpath;   /* by wake index: wl_wake_traced_path() */
	uint32_t nr_kpath;
	struct wl_timed *timed;
	uint32_t nr_timed;
	struct wl_newidle *newidle;    /* traced newidle pulls, by timed index */
	uint32_t nr_newidle;
	struct wl_stall *stalls;       /* CPU stalls (wl_options.cpu_stalls) */
	uint32_t nr_stalls;
	struct wl_group *groups;
	uint32_t nr_groups;
	struct wl_channel *channels;   /* docs/replay.md, "Channels" */
	uint32_t nr_channels;
	struct wl_chan_op *chan_ops;
	uint32_t nr_chan_ops;
	char **strings;
	uint32_t nr_strings;

	uint64_t notes[WL_NOTE_NR];

	/* the trace's idle intervals, sorted by CPU then start (wl_cpu_idle_at()) */
	struct wl_idle *idle;
	uint32_t nr_idle;
	uint32_t *idle_first;          /* [nr_cpus + 1]: each CPU's first interval */

	/* the gaps of lost events, sorted by CPU then start (wl_in_lost_window()) */
	struct wl_lost_window *lost;
	uint32_t nr_lost;
	uint32_t nr_lost_wakes;       /* wakes marked in_lost (lost_finish()) */

	/* the reader's repair counts per CPU (info.repair_cpus points here), NULL: none */
	struct trace_repair_cpu *repair;

	struct lat_machine *measured; /* may be NULL (builder-only tests) */
	struct wl_calib calib;

	/*
	 * The trace's ticks placed in the grid's periods (wl_traced_ticks(),
	 * workload_ticks.c), sorted by CPU then time; tick_first [nr_cpus + 1]:
	 * each CPU's first.  nr_ticks_found: every tick found, placed or not.
	 */
	uint64_t *ticks;
	uint32_t nr_ticks;
	uint32_t *tick_first;
	uint32_t nr_ticks_found;
	/* the grid phase of each CPU < 64 from its own ticks (bit set: known) */
	uint64_t tick_phase_traced[64];
	uint64_t tick_phase_traced_mask;
	/* per CPU (nr_cpus): the time clock_task left out (workload_steal.c) */
	struct wl_clock_left_cpu {
		struct wl_clock_point *pts;
		uint32_t n;
		struct wl_clock_left st;
	} *clock_left;
};

/* A tick the trace shows (workload_ticks.c) */
struct wl_tick_rec {
	uint64_t ts;
	int cpu;
};

/* workload_facts.c: HZ / tick phase inference from sched_stat_runtime. */
struct wl_hz_probe;
struct wl_hz_probe *wl_hz_probe_new(void);
void wl_hz_probe_free(struct wl_hz_probe *p);
/* A fair task's sched_stat_runtime of @runtime ns at @ts on @cpu. */
int wl_hz_probe_add(struct wl_hz_probe *p, int cpu, uint64_t ts, uint64_t runtime, int32_t pid);
void wl_hz_probe_switch(struct wl_hz_probe *p, int cpu);
/* A switch, wakeup, migration or fork at @ts on @cpu: its charges are not the tick's. */
int wl_hz_probe_near(struct wl_hz_probe *p, int cpu, uint64_t ts);
/*
 * Decide: fills facts->hz / hz_src / hz_how and the tick phases, honouring
 * @forced_hz (option, > 0) and @sidecar_hz (> 0) in that order.  0, or -1
 * out of memory.
 */
int wl_hz_probe_decide(struct wl_hz_probe *p, unsigned int forced_hz, unsigned int sidecar_hz,
		       struct wl_facts *facts);

/* The cgroup map file of --cgroup-map: see docs/replay.md. */
struct wl_cgmap_entry {
	int32_t pid;
	unsigned int line;     /* its line in the file */
	bool used;             /* a task alive at the trace start took its group */
	char *path;
};
struct wl_cgmap {
	struct wl_cgmap_entry *e;      /* by pid (one line per pid) */
	size_t n;
	struct { char *path; unsigned long shares; unsigned int line; } *shares;
	size_t nr_shares;
	/* "quota /path Q P": quota_us -1 = no limit (overrides the sidecar's) */
	struct { char *path; long quota_us, period_us; unsigned int line; } *quota;
	size_t nr_quota;
};
int wl_cgmap_load(const char *file, struct wl_cgmap *map, struct sr_error *err);
void wl_cgmap_release(struct wl_cgmap *map);

/*
 * workload_chan.c: channels from the syscall events (docs/replay.md,
 * "Channels").  The builder calls the hooks during the pass; placeholder ops
 * (WL_OP_READ / WL_OP_WRITE, arg = record) mark where each read's or write's
 * bytes move; wl_chanb_finish() turns them into the workload's channel ops or
 * kind 0 (dropped by the builder's compaction).
 */
enum wl_sys_kind { WL_SYS_READ = 0, WL_SYS_WRITE = 1 };
struct wl_chanb;
struct wl_chanb *wl_chanb_new(void);
void wl_chanb_free(struct wl_chanb *cb);
/* sys_enter_read/write of task @t (a fair task current on its CPU), its fd and count */
int wl_chanb_enter(struct wl_chanb *cb, uint32_t t, enum wl_sys_kind kind, int64_t fd,
		   uint64_t count);
/*
 * Its sys_exit: the record, or WL_NONE (also when @ret exceeds the enter's
 * count: a damaged record, void, counted in facts.chan.damaged); *need_op
 * when the caller must place the record's placeholder op here
 * (wl_chanb_set_op()).
 */
uint32_t wl_chanb_exit(struct wl_chanb *cb, uint32_t t, enum wl_sys_kind kind, int64_t ret,
		       uint64_t ts, bool *need_op);
/*
 * Task @t sleeps (its BLOCK op at @block_op): the record it sleeps inside,
 * the first time, else WL_NONE; the caller places the placeholder after it.
 */
uint32_t wl_chanb_block(struct wl_chanb *cb, uint32_t t, uint32_t block_op, uint64_t ts);
void wl_chanb_set_op(struct wl_chanb *cb, uint32_t rec, uint32_t op);
enum wl_sys_kind wl_chanb_kind(const struct wl_chanb *cb, uint32_t rec);
/* @waker's WAKE op @wake_op (wake record @wake) at @ts, inside its open record if any */
int wl_chanb_wake(struct wl_chanb *cb, uint32_t waker, uint32_t wake, uint32_t wake_op, uint64_t ts);
/* lost events: the records in progress are unreliable */
void wl_chanb_lost(struct wl_chanb *cb);
struct wl_chanb_task {
	struct wl_op *ops;
	uint32_t nr_ops;
	uint32_t parent;
	uint8_t cls;
};
/*
 * Resolve (see workload_chan.c); sets wl->channels, chan_ops, facts.chan
 * (facts.chan.syscalls, set by the caller, says whether all four syscall
 * events occur: without them every record is dropped).  -1 on ENOMEM.
 */
int wl_chanb_finish(struct wl_chanb *cb, struct wl_chanb_task *tasks, uint32_t nr_tasks,
		    uint32_t nr_wakes, struct wl_workload *wl);

#endif /* SCHEDREPLAY_WORKLOAD_LOCAL_H */
