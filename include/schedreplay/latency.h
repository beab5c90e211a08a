/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wakeup latency and per-task scheduling statistics, from a stream of
 * decoded sched events (struct trace_event of trace.h).
 *
 * The machine depends on nothing but those structs: the trace reader feeds it
 * measured events and the replay simulator feeds it the events it predicts,
 * so measured and predicted latencies share this one definition.
 *
 * Wakeup latency: from the first sched_waking (or sched_wakeup_new for a new
 * task) of a task that is not on a CPU and has no pending wakeup, to the
 * sched_switch that puts it on a CPU. A waking of a task that is on a CPU, or
 * that already has a pending wakeup, starts nothing. The sample belongs to
 * the comm shown as next_comm in that sched_switch (and to the task's pid and
 * cgroup at that moment). If the trace has no sched_waking at all,
 * sched_wakeup starts the interval instead (lat_summary.start_event says
 * which one was used; see LAT_START_AUTO for how this is decided in one pass).
 *
 * Run-queue wait: from a sched_switch that leaves the task runnable
 * (prev_state R or R+: a preemption) to the sched_switch that puts it back on
 * a CPU. Kept apart from wakeup latency.
 *
 * Per task (an instance of a pid between its fork and its exit: a reused pid
 * is a new task, and an exiting task whose pid a fork took before its last
 * switch keeps its CPU's events until that switch, or its switch-in there
 * if preempted, struct lat_old_task; a thread whose execve took its
 * leader's pid goes on under that pid, struct lat_pid_change): time on CPU
 * inside the trace, sched_stat_runtime sum,
 * switches in, preemptions, migrations, both distributions.
 *
 * Per group (comm, pid, cgroup: lat_config.group_by, struct lat_group): both
 * distributions.  Per wakeup sample: its path, what the target CPU did from
 * the wakeup to the switch-in (enum lat_path), counted and, per path, its
 * latency distribution.
 *
 * Tasks alive before the trace are handled from the first event that names
 * them; a CPU's current task before its first sched_switch is taken from the
 * common_pid of its events. Idle (pid 0) is not a task.
 */
#ifndef SCHEDREPLAY_LATENCY_H
#define SCHEDREPLAY_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedreplay/error.h>
#include <schedreplay/stats.h>
#include <schedreplay/trace.h>

enum lat_start_mode {
	/*
	 * Decide from the stream: sched_wakeup starts intervals until the first
	 * sched_waking is seen; then the intervals and samples that sched_wakeup
	 * started are dropped and only sched_waking counts from there on. Samples
	 * are held back (up to LAT_PROVISIONAL_MAX) until this is decided, so the
	 * result equals LAT_START_WAKING on a trace with sched_waking and
	 * LAT_START_WAKEUP on one without.
	 */
	LAT_START_AUTO = 0,
	LAT_START_WAKING,              /* only sched_waking (and wakeup_new) start */
	LAT_START_WAKEUP,              /* only sched_wakeup (and wakeup_new) start */
};

#define LAT_PROVISIONAL_MAX 65536

enum lat_kind { LAT_WAKEUP = 0, LAT_RUNQ_WAIT = 1, LAT_NR_KINDS };

/* Grouping keys; any combination can be enabled. */
enum lat_group_key {
	LAT_BY_COMM = 0,               /* next_comm of the sched_switch */
	LAT_BY_PID,                    /* decimal pid */
	LAT_BY_CGROUP,                 /* cgroup path ("" if unknown) */
	LAT_NR_KEYS
};

struct lat_task {
	int32_t pid;
	char comm[TRACE_COMM_LEN];     /* last comm seen (exec changes it) */
	const char *cgroup;            /* current cgroup path; NULL if unknown */
	uint64_t first_ts, last_ts;    /* first and last event naming the task */
	bool exited;                   /* its final switch (X/Z) was seen */
	bool reused;                   /* its pid came back as a new task */
	uint64_t runtime_ns;           /* on CPU inside the trace (switch to switch) */
	uint64_t stat_runtime_ns;      /* sum of sched_stat_runtime.runtime */
	uint64_t nr_stat_runtime;
	uint64_t switches;             /* times switched in */
	uint64_t preemptions;          /* switched out with prev_state R / R+ */
	uint64_t migrations;           /* sched_migrate_task events */
	uint64_t wakings_running;      /* wakings ignored: on a CPU */
	uint64_t wakings_pending;      /* wakings ignored: wakeup already pending */
	struct sr_hist lat[LAT_NR_KINDS];
};

/*
 * How a wakeup got its CPU (docs/replay.md, "Wakeup paths"): what the
 * target CPU did between the wakeup and the wakee's switch-in.  The target
 * is the sched_wakeup's (or sched_wakeup_new's) target_cpu - sched_waking's
 * is the task's previous CPU - and its current task and switch count are
 * taken at that event.  LOCAL: the waker's CPU (the sched_waking's event
 * CPU; where the interval starts at sched_wakeup, that of the task's
 * sched_waking right before it if there is one, else the sched_wakeup's)
 * is the target; REMOTE: it is another.
 *   IDLE     the target was idle, and the wakee is the first task switched
 *            in there;
 *   PREEMPT  the task current on the target was switched out runnable
 *            (R/R+) straight to the wakee;
 *   BEHIND   that task ran on, was switched out not runnable (blocked,
 *            dead), then the wakee;
 *   QUEUED   one or more other switches on the target came first (also
 *            when the target was idle at the wakeup: idle+queued; an
 *            inferred untraced switch counts as one);
 *   MOVED    the wakee was switched in on another CPU;
 *   NEW      a forked task's first wakeup (sched_wakeup_new), any path;
 *   UNKNOWN  the target or its current task was not known (no sched_wakeup
 *            with a target_cpu, the CPU's state lost).
 * Only LAT_WAKEUP samples have one (a run-queue wait's is UNKNOWN).
 */
enum lat_path {
	LAT_PATH_IDLE = 0,
	LAT_PATH_PREEMPT_LOCAL,
	LAT_PATH_PREEMPT_REMOTE,
	LAT_PATH_BEHIND_LOCAL,
	LAT_PATH_BEHIND_REMOTE,
	LAT_PATH_QUEUED_LOCAL,
	LAT_PATH_QUEUED_REMOTE,
	LAT_PATH_MOVED,
	LAT_PATH_NEW,
	LAT_PATH_UNKNOWN,
	LAT_PATH_NR
};

/* "idle", "preempt_local", ... "behind_current_local", ... "unknown" */
const char *lat_path_name(enum lat_path p);

/*
 * The percentiles a path's own latency is shown by (lat_config.path_latency:
 * replay's and report's tables, lat_json_paths()): p50, p95, p99.
 */
#define LAT_PATH_NR_PCT 3
extern const double lat_path_pct[LAT_PATH_NR_PCT];
extern const char *const lat_path_pct_key[LAT_PATH_NR_PCT];   /* "p50", "p95", "p99" */

/* The samples of @p (counts by enum lat_path, LAT_PATH_NR of them) */
static inline uint64_t lat_paths_total(const uint64_t *p)
{
	uint64_t n = 0;

	for (int i = 0; i < LAT_PATH_NR; i++)
		n += p[i];
	return n;
}

/*
 * The local wakeups onto a busy CPU: preempt, behind_current and queued,
 * local (a local idle+queued - a waking in idle's context, a switch before
 * the wakee's - among them: rare).  Their preempting share is the kernel's
 * local wakeup-preemption rate (docs/validation.md, gap 3).
 */
static inline uint64_t lat_paths_local_busy(const uint64_t *p)
{
	return p[LAT_PATH_PREEMPT_LOCAL] + p[LAT_PATH_BEHIND_LOCAL] + p[LAT_PATH_QUEUED_LOCAL];
}

struct lat_sample {
	enum lat_kind kind;
	const struct lat_task *task;
	int32_t pid;
	const char *comm;              /* next_comm of the ending sched_switch */
	const char *cgroup;            /* NULL if unknown */
	int cpu;                       /* where it was switched in */
	uint64_t start_ts, end_ts;     /* ns */
	uint64_t latency_ns;
	enum trace_event_type start_event; /* WAKING, WAKEUP, WAKEUP_NEW or SWITCH */
	enum lat_path path;            /* LAT_WAKEUP: how it got its CPU */
};

/*
 * Switches the kernel did not trace (lat_config.infer_lost_switches).  A
 * task T is current on CPU c per the stream and then:
 *   LAT_LOST_IDLE        c is seen idle (an event in idle's context, a
 *                        sched_switch out of idle): a CPU idles only with
 *                        nothing runnable, so T blocked;
 *   LAT_LOST_WOKEN       T's sched_wakeup puts it on another CPU: a task
 *                        still on its runqueue is woken where it is, so T
 *                        had blocked;
 *   LAT_LOST_SWITCHED_IN T is switched in on another CPU (taken as blocked,
 *                        its wake untraced too);
 *   LAT_LOST_MIGRATED    sched_migrate_task moves T off c: blocked if a
 *                        sched_waking of T came since its last event there
 *                        (a wakeup's placement), else preempted (a
 *                        migration moves queued tasks only);
 *   LAT_LOST_OTHER       an event on c in another task N's context (any
 *                        event, or a sched_switch whose prev is N): c runs
 *                        N, so T left it.  Blocked or preempted is decided
 *                        by T's next event (reported then, not before):
 *                        switched in by a task on c, or migrated, with no
 *                        wake in between -> preempted (a queued task is
 *                        only picked or moved); woken, switched in out of
 *                        idle or elsewhere, back in its context without a
 *                        switch-in, or never seen again -> blocked; a
 *                        waking of T since its last event, or its
 *                        sched_process_exit, decides at once (blocked,
 *                        dead).
 * T left c at its last event there: the last event on c in T's context, its
 * switch-in, or a sched_stat_runtime of T written on another CPU (a remote
 * update_curr() of c's runqueue: T was still c's current then).  That is the
 * least it ran; the switch is taken as traced there (state S, or X after
 * T's sched_process_exit; R for a preemption): T's run time ends there, and
 * a sched_waking of T that came after it starts a wakeup interval (it was
 * asleep, not on the CPU).  For LAT_LOST_OTHER a later bound replaces it
 * when N's first sched_stat_runtime on c in its own context comes before
 * any sched_switch there: N ran from its exec_start, that event's time
 * minus its runtime (set_next_entity() starts it at N's switch-in), kept
 * within [T's last event, the revealing event].  c is idle afterwards
 * (LAT_LOST_IDLE), runs N (LAT_LOST_OTHER) or is unknown (the others: its
 * next event in a task's context names its current).
 */
enum lat_lost_reason {
	LAT_LOST_IDLE = 0,
	LAT_LOST_WOKEN,
	LAT_LOST_SWITCHED_IN,
	LAT_LOST_MIGRATED,
	LAT_LOST_OTHER,
	LAT_LOST_NR
};

struct lat_lost_switch {
	int cpu;                       /* the CPU T left */
	int32_t pid;                   /* T */
	uint64_t ts;                   /* T's last event there (or N's exec_start): the switch */
	uint64_t seen_ts;              /* the event that revealed it */
	enum lat_lost_reason reason;
	bool runnable;                 /* preempted (R), not blocked */
	bool dead;                     /* after T's sched_process_exit (X) */
	bool remote_stamp;             /* ts is a remote sched_stat_runtime's */
	bool stamped;                  /* LAT_LOST_OTHER: ts is N's exec_start (its first
					  sched_stat_runtime there): N ran from ts on */
};

/*
 * A non-leader thread T's execve (de_thread(): exchange_tids()): T takes its
 * thread group leader L's pid @new_pid, L (past its sched_process_exit, a
 * zombie reaped there) takes T's @old_pid.  Revealed by sched_process_exec
 * (old_pid != pid), or earlier by an event of one naming the other's pid
 * (L's last sched_switch naming @old_pid, T's events naming @new_pid).
 * The machine moves T's state to @new_pid; L, if still current on another
 * CPU (@leader_cpu, else -1), keeps running there as @old_pid until its
 * last switch; so does L preempted after its sched_process_exit
 * (@leader_queued): it runs again as @old_pid.  Else it is dead (its last
 * switch seen, or not traced): de_thread() released it.
 */
struct lat_pid_change {
	int32_t old_pid, new_pid;
	int cpu;                       /* T's CPU (the event's), -1 not on one */
	int leader_cpu;
	bool leader_queued;
	uint64_t ts;                   /* the revealing event */
};

/*
 * An event naming @pid taken for the pid's old task, not its live one
 * (lat_config.old_task): a task preempted after its sched_process_exit
 * (exit_notify() may free the pid before the task's last switch) whose pid
 * a fork took since; its switch-in on the CPU it is queued on, or a
 * migration off it, is its own unless the event's comm is the new task's
 * and not the old one's.
 */
struct lat_old_task {
	int32_t pid;
	int cpu;                       /* the event's CPU */
	enum trace_event_type ev;      /* SCHED_SWITCH (its next) or SCHED_MIGRATE_TASK */
	uint64_t ts;
};

struct lat_config {
	enum lat_start_mode start_mode;
	bool group_by[LAT_NR_KEYS];    /* LAT_BY_COMM is always on */
	/* sample filter for the "all" and group distributions (tasks keep all) */
	const char *comm_prefix;       /* NULL: any */
	int32_t pid;                   /* -1: any */
	/* cgroup_attach_task of this hierarchy only; -1: any hierarchy */
	int cgroup_root;
	/*
	 * Optional further filter of cgroup_attach_task (after cgroup_root):
	 * false ignores the move, e.g. a move in another cgroup-v1 hierarchy
	 * into a path the cpu hierarchy does not have. NULL follows all.
	 */
	bool (*cgroup_follow)(void *ctx, const struct trace_cgroup_attach_task *g);
	void *cgroup_follow_ctx;
	/* called for every sample once it is final (after the AUTO decision) */
	void (*sink)(void *ctx, const struct lat_sample *s);
	void *sink_ctx;
	/*
	 * false (default): lat_machine_finish() settles every distribution
	 * (stats.h, "Settling"), so that threads may then share them and only
	 * read. true: each is settled by its first reader (sr_hist_percentiles()
	 * and the other readers of stats.h do it), for a machine read by one
	 * thread that reads a few of its distributions: the text report prints
	 * ten of the tasks, and sorting every task's list was 0.4 M of the 24 M
	 * instructions of the report of 1 s of hackbench.
	 */
	bool settle_when_read;
	/*
	 * Keep, per task, its samples per by-comm group (lat_task_comm_next()):
	 * for the workload's measured machine (the RT/DL mark of a comm,
	 * sim.h); off by default, so that report's per-sample path stays as it
	 * was.
	 */
	bool comm_tallies;
	/*
	 * Keep the wakeup latency of `all` and of each by-cgroup group per
	 * path too (lat_get_all_path_latency(), lat_group.path_lat: one or two
	 * more histogram adds per wakeup sample): for replay's wakeup paths;
	 * off by default, so that report's per-sample path stays as it was.
	 */
	bool path_latency;
	/*
	 * Infer the switches the kernel did not trace (enum lat_lost_reason):
	 * on for a measured trace (report, the workload extraction), off for
	 * a simulated stream, which has none.  @lost_switch, if set, is told
	 * of each one as it is inferred (before the event that revealed it
	 * is counted; LAT_LOST_OTHER: before the event of T that decided it,
	 * maybe long after the revealing one, or in lat_machine_lost() or
	 * lat_machine_finish()); -1 from it is an allocation failure (the
	 * feed returns -1).
	 */
	bool infer_lost_switches;
	int (*lost_switch)(void *ctx, const struct lat_lost_switch *ls);
	void *lost_switch_ctx;
	/*
	 * Optional: told of each pid exchange of a multithreaded exec (struct
	 * lat_pid_change) as the machine makes it, before the event that
	 * revealed it is counted; -1 from it is an allocation failure.
	 */
	int (*pid_change)(void *ctx, const struct lat_pid_change *pc);
	void *pid_change_ctx;
	/*
	 * Optional: told of each event taken for the old task of its pid
	 * (struct lat_old_task), before the event is counted; -1 from it is
	 * an allocation failure.
	 */
	int (*old_task)(void *ctx, const struct lat_old_task *ot);
	void *old_task_ctx;
};

/* Fill @cfg with the defaults (AUTO, by comm, no filter, any root). */
void lat_config_default(struct lat_config *cfg);

/*
 * A long wait: a sample over LAT_LONG_NS (10 ms, 2.5 ticks at HZ=250), where
 * starvation shows.  Counted exactly as the samples come (lat_group.over_long,
 * lat_get_all_over_long()): 10 ms falls inside a histogram bucket, so the
 * histogram could only bound the count.
 */
#define LAT_LONG_NS 10000000ull

struct lat_group {
	const char *key;
	struct sr_hist lat[LAT_NR_KINDS];
	uint64_t over_long[LAT_NR_KINDS];   /* samples > LAT_LONG_NS */
	uint64_t paths[LAT_PATH_NR];        /* its LAT_WAKEUP samples by path */
	/*
	 * A by-cgroup group's LAT_WAKEUP samples by path, their latency
	 * ([LAT_PATH_NR]) with lat_config.path_latency; else (and for the other
	 * keys) NULL
	 */
	struct sr_hist *path_lat;
};

struct lat_summary {
	enum trace_event_type start_event;  /* SCHED_WAKING or SCHED_WAKEUP */
	bool start_decided_by_stream;       /* AUTO mode */
	uint64_t events;                    /* fed */
	uint64_t intervals_dropped_lost;    /* pending at a lost-events gap */
	uint64_t provisional_dropped;       /* sched_wakeup samples dropped by AUTO */
	uint64_t samples_muted;             /* wakeup intervals ended with no sample (muted) */
	uint64_t intervals_revealed;        /* ended at the task's first event after an
					     * untraced switch-in (revealed_run()) */
	uint64_t wakings_running, wakings_pending;
	uint64_t lost_gaps;
	uint64_t cgroup_moves;              /* cgroup_attach_task followed */
	uint64_t cgroup_moves_ignored;      /* of another hierarchy / filtered out */
	uint64_t cgroup_roots_seen;         /* bit N: a cgroup_attach_task into hierarchy N
					     * (0..62; bit 63: any id >= 63), followed or not */
	uint64_t lost_switches[LAT_LOST_NR];/* inferred untraced switches, by reason */
	uint64_t lost_switches_remote;      /* ... at a remote sched_stat_runtime */
	uint64_t lost_switch_wakings;       /* wakings after the switch: intervals started */
	uint64_t lost_switch_preempted;     /* inferred as preemptions (R) */
	uint64_t lost_switch_stamped;       /* LAT_LOST_OTHER at N's exec_start */
};

struct lat_machine;

struct lat_machine *lat_machine_new(const struct lat_config *cfg, struct sr_error *err);
void lat_machine_free(struct lat_machine *m);

/*
 * Seed the cgroup of @pid (before feeding events; e.g. from the capture
 * sidecar). Forked children inherit their parent's; cgroup_attach_task
 * events of the configured hierarchy move tasks.
 */
int lat_cgroup_seed(struct lat_machine *m, int32_t pid, const char *path);

/*
 * Seed the thread group id of @pid at the trace's start (the sidecar's
 * tasks_at_start), before feeding events. A multithreaded exec's pid
 * exchange, read from the stream when no sched_process_exec confirms it,
 * is only taken between two tasks that can share one thread group (the
 * exec'ing thread's tgid is the leader's pid): without the seed, an
 * untraced switch between two unrelated tasks looked like one. Forked
 * children inherit what their parent's tells. 0, or -1 when memory runs
 * out.
 */
int lat_tgid_seed(struct lat_machine *m, int32_t pid, int32_t tgid);

/* Feed one event, in timestamp order. -1 only when memory runs out. */
int lat_machine_feed(struct lat_machine *m, const struct trace_event *ev);

/*
 * lat_machine_feed() of an event whose type the caller has already
 * dispatched: sched_switch; sched_waking, sched_wakeup or sched_wakeup_new;
 * sched_stat_runtime (e.g. from a trace_consumer's callbacks).
 */
int lat_machine_feed_switch(struct lat_machine *m, const struct trace_event *ev);
int lat_machine_feed_wakeup(struct lat_machine *m, const struct trace_event *ev);
int lat_machine_feed_stat_runtime(struct lat_machine *m, const struct trace_event *ev);

/*
 * The wakeup interval now open for @pid (started by its last sched_waking
 * or sched_wakeup) ends at its switch-in with no sample: counted in
 * lat_summary.samples_muted instead.  It stays open until then, so a waking
 * meanwhile still finds a pending wakeup and starts nothing.  For a
 * simulated stream whose producer knows a wakeup stands for no wait (the
 * replay's --early-wakes nosample); the definition of every other sample
 * is unchanged.  1 if an interval was open, else 0 (nothing done).
 */
int lat_machine_mute_pending(struct lat_machine *m, int32_t pid);

/*
 * @n events (TRACE_LOST_UNKNOWN: unknown) were lost on @cpu before the next
 * event: every pending interval is dropped (its start or end may be in the
 * gap) and the CPU's current task becomes unknown.
 */
void lat_machine_lost(struct lat_machine *m, int cpu, uint64_t n);

/* End of stream at @end_ts: close run times, settle AUTO. -1 on ENOMEM. */
int lat_machine_finish(struct lat_machine *m, uint64_t end_ts);

/* Results, valid after lat_machine_finish() until lat_machine_free(). */
const struct lat_summary *lat_get_summary(const struct lat_machine *m);
const struct sr_hist *lat_get_all(const struct lat_machine *m, enum lat_kind kind);
/* Samples of lat_get_all(@kind) over LAT_LONG_NS. */
uint64_t lat_get_all_over_long(const struct lat_machine *m, enum lat_kind kind);
/* The samples of lat_get_all(LAT_WAKEUP) by enum lat_path (LAT_PATH_NR of them). */
const uint64_t *lat_get_all_paths(const struct lat_machine *m);
/*
 * The samples of lat_get_all(LAT_WAKEUP) of path @p: their latency (same
 * buckets and percentiles; count = lat_get_all_paths()[@p]).  Empty unless
 * lat_config.path_latency.
 */
const struct sr_hist *lat_get_all_path_latency(const struct lat_machine *m, enum lat_path p);
struct json_t;
/*
 * {"all": P, "by_cgroup": {path: P}}, P = {"samples": n, "idle": n,
 * "preempt_local": n, ... (every enum lat_path by lat_path_name()),
 * "local_busy": n, "local_busy_preempt": n, "latency_us": {path: {"samples",
 * "p50", "p95", "p99"}}}: the wakeup-latency samples by how they got their
 * CPU (docs/replay.md, "Wakeup paths"; latency_us is empty unless
 * lat_config.path_latency).  A new reference; NULL on ENOMEM.  latency_json.c
 */
struct json_t *lat_json_paths(const struct lat_machine *m);
size_t lat_nr_tasks(const struct lat_machine *m);
const struct lat_task *lat_task_at(const struct lat_machine *m, size_t i); /* creation order */
/*
 * The by-comm groups task @lt (of @m) has samples of @kind in, and how many:
 * a sample goes to the group of the task's comm at the sample time (the
 * next_comm of the switch that ends it), so a renamed task's samples may be
 * in several groups; only the samples the filter passed.  *@it from 0; false
 * after the last.  Order: the groups' first samples of the task (any kind).
 * Needs lat_config.comm_tallies (without it: none).
 */
bool lat_task_comm_next(const struct lat_machine *m, const struct lat_task *lt, size_t *it,
			enum lat_kind kind, const char **comm, uint64_t *n);
size_t lat_nr_groups(const struct lat_machine *m, enum lat_group_key key);
const struct lat_group *lat_group_at(const struct lat_machine *m, enum lat_group_key key,
				     size_t i);
/* The group of @key named @k (a comm or a cgroup path), or NULL */
const struct lat_group *lat_group_find(const struct lat_machine *m, enum lat_group_key key,
				       const char *k);
/* Does a sample of this comm/pid pass the configured filter? */
bool lat_filter_match(const struct lat_machine *m, const char *comm, int32_t pid);

#endif /* SCHEDREPLAY_LATENCY_H */
