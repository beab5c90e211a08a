/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interfaces between the files of the capture stage:
 *   capture.c     the session: order of steps, waiting, cleanup on every path
 *   cap_trace.c   the tracefs instance, its events and the per-CPU streamers
 *   cap_tracedat.c  assembling a trace.dat (v6) from the streamed pages
 *   cap_readback.c  reading the written file back (counts, start/end markers,
 *                   comms missing from the cmdlines)
 *   cap_cgroup.c  cpu cgroups (v1 cpu.shares or v2 cpu.weight, bandwidth
 *                 limits), leftovers
 *   cap_workload.c  the workloads: spawn held, release, wait, kill by group
 *   cap_machine.c the sidecar's machine metadata (kernel, topology, tasks ...)
 *   cap_funcs.c   bookkeeping-function call counts when the host allows them
 */
#ifndef SCHEDREPLAY_CAP_LOCAL_H
#define SCHEDREPLAY_CAP_LOCAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include <schedreplay/capture.h>
#include <schedreplay/error.h>
#include <schedreplay/sidecar.h>

/* ---- logging (capture.c) ---- */
void cap_log(const struct cap_options *opt, bool warning, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Write the sidecar @side to @part (JSON_INDENT(1), ASCII), then rename it
 * to @path.  A sidecar over the loader's bounds (SIDECAR_MAX_BYTES,
 * SIDECAR_MAX_VALUES: report and replay refuse it) is still written, with
 * one warning through @opt's log saying so and what to do.  0, or -1 with
 * @err set (@part removed).
 */
int cap_sidecar_dump(const struct cap_options *opt, json_t *side, const char *part,
		     const char *path, struct sr_error *err);

/* ---- small file helpers (cap_util.c) ---- */
/* Read a whole file (tracefs/proc files report size 0, so read to EOF).
 * Returns a NUL-terminated buffer (caller frees) or NULL with errno set. */
char *cap_read_file(const char *path, size_t *len);
/* Read a file's first line without the newline into @buf; -1 + errno on failure. */
int cap_read_line(const char *path, char *buf, size_t size);
int cap_write_file(const char *path, const char *text);
/* " (raise the open-file limit: ulimit -n)" for EMFILE/ENFILE, else "". */
const char *cap_errno_hint(int e);
int cap_write_all(int fd, const void *buf, size_t len);
/* "name-<pid>" style names: the pid if @name is PREFIX<digits>[suffix], else 0. */
pid_t cap_name_pid(const char *name, const char **suffix);
/* True if @pid runs a schedreplay binary (its comm), i.e. a live capture. */
bool cap_pid_is_capture(pid_t pid);

/* ---- tracefs instance and streaming (cap_trace.c) ---- */
struct cap_trace;

struct cap_cpu_stats {
	int cpu;
	uint64_t entries, overrun, commit_overrun, dropped, read_events, bytes;
	char *text;              /* the stats file as read, "CPU: N\n" first */
};

/* Use @tracing_dir (NULL: the mounted tracefs), checked to be a tracefs mount. */
int cap_trace_resolve_dir(const char *tracing_dir, struct sr_error *err);
/* An instance @name left by a killed capture (same pid) is removed first. */
struct cap_trace *cap_trace_create(const char *name, const char *tracing_dir,
				   const struct cap_options *logopt, struct sr_error *err);
/* Destroys the instance (also when recording was never started). NULL ok. */
void cap_trace_destroy(struct cap_trace *t);
const char *cap_trace_name(const struct cap_trace *t);
const char *cap_trace_instance_dir(const struct cap_trace *t);
int cap_trace_setup(struct cap_trace *t, unsigned long buffer_kb, const char *clock,
		    struct sr_error *err);
/* Enable system:event; returns 0, or -1 with errno ENOENT if it does not exist. */
int cap_trace_enable(struct cap_trace *t, const char *system, const char *event);
/* Set the tracer ("function") and its filter; for cap_funcs.c. */
int cap_trace_set_tracer(struct cap_trace *t, const char *tracer, const char *filter,
			 struct sr_error *err);
/* Start one streaming thread per CPU, writing raw pages to @prefix.cpuN. */
int cap_trace_start_streams(struct cap_trace *t, const char *prefix, struct sr_error *err);
int cap_trace_on(struct cap_trace *t, bool on);
/* Write @text into the instance's trace_marker (an ftrace:print record). */
int cap_trace_mark(struct cap_trace *t, const char *text);
/* Stop the streamers, drain what is left, close the files. */
int cap_trace_stop_streams(struct cap_trace *t, struct sr_error *err);
/*
 * The errno of a CPU's stream that failed while recording (a full disk, a
 * write error), 0 if none; *@cpu its CPU.  The recording loop ends the
 * recording on it (cap_trace_stop_streams() then reports it).
 */
int cap_trace_stream_failed(const struct cap_trace *t, int *cpu);
int cap_trace_nr_cpus(const struct cap_trace *t);
int cap_trace_page_size(const struct cap_trace *t);
const char *cap_trace_cpu_file(const struct cap_trace *t, int cpu);
uint64_t cap_trace_cpu_bytes(const struct cap_trace *t, int cpu);
void cap_trace_unlink_files(struct cap_trace *t);
/* Per-CPU stats of the instance; @stats has cap_trace_nr_cpus() entries. */
int cap_trace_read_stats(struct cap_trace *t, struct cap_cpu_stats *stats, struct sr_error *err);
void cap_cpu_stats_release(struct cap_cpu_stats *s, int n);
/* Current trace clock name of the instance ("local"), caller frees. */
char *cap_trace_clock(struct cap_trace *t);
/* Remove instances of dead captures; returns how many. */
int cap_trace_cleanup_leftovers(const char *tracing_dir,
				const struct cap_options *logopt);

/* ---- trace.dat writer (cap_tracedat.c) ---- */
struct cap_tracedat {
	const char *tracing_dir;     /* header_page, event formats, printk_formats */
	const char *const *systems;  /* event systems whose formats are saved */
	size_t nr_systems;
	/*
	 * The recorded "system:event" names: of the "syscalls" system only
	 * theirs are saved (its ~700 formats are ~390 KB; every other system's
	 * are saved whole); NULL: all
	 */
	const char *const *events;
	size_t nr_events;
	const char *cmdlines;        /* "pid comm\n" lines */
	int nr_cpus;
	const char *const *cpu_files;/* raw ring-buffer pages per CPU */
	int page_size;               /* ring-buffer sub-buffer size */
	const char *trace_clock;     /* the trace_clock file, "[local] global ..." */
	const struct cap_cpu_stats *stats; /* per CPU, NULL: none */
	const char *uname;           /* "sysname nodename release machine" */
	const char *version;         /* writer name and version */
	uint64_t trace_id;
	/* removed just before the file is renamed into place, NULL: none (the
	 * previous capture's sidecar: a new trace never pairs with an old one) */
	const char *unlink_before_rename;
};
int cap_tracedat_write(const char *path, const struct cap_tracedat *td, struct sr_error *err);

/* ---- reading back (cap_readback.c) ---- */
struct cap_readback {
	uint64_t events;
	uint64_t missed_pages;       /* pages that report missed events */
	json_t *per_event;           /* {"sched_switch": N, ...} */
	bool have_start, have_end;
	uint64_t start_ts, end_ts;   /* marker timestamps, trace clock ns */
	uint64_t first_ts, last_ts;
	/* per CPU: sched_switch from idle (prev_pid 0) and to idle (next_pid 0) */
	int nr_cpus;
	uint64_t *from_idle, *to_idle;
	/*
	 * "pid comm" lines for the pids whose comm the records give but the
	 * file's cmdlines section lacks (latest comm); NULL if none
	 */
	char *missing_cmdlines;
	uint64_t missing_comms;
};
int cap_readback(const char *path, int nr_cpus, const char *start_mark, const char *end_mark,
		 struct cap_readback *rb, struct sr_error *err);
void cap_readback_release(struct cap_readback *rb);

/* ---- cgroups (cap_cgroup.c) ---- */
struct cap_cgroup_host {
	int version;               /* 1 or 2, 0: no cpu controller */
	char root[4096];           /* mount point of the cpu controller hierarchy */
	bool enabled_root_cpu;     /* v2: we enabled +cpu in the root's subtree_control */
};
int cap_cgroup_detect(struct cap_cgroup_host *h, struct sr_error *err);
/* What the kernel kept of a group's settings (it clamps and rounds). */
struct cap_cgroup_set {
	unsigned long shares, weight;
	long long quota_us, period_us;   /* -1: no bandwidth limit */
};
/* Create ROOT/<run>/ and ROOT/<run>/<group> with the group's weight and
 * bandwidth limit. */
int cap_cgroup_create_run(struct cap_cgroup_host *h, const char *run,
			  const struct cap_options *logopt, struct sr_error *err);
int cap_cgroup_create_group(struct cap_cgroup_host *h, const char *run,
			    const struct cap_group *g, struct cap_cgroup_set *set,
			    struct sr_error *err);
/*
 * Write @g's bandwidth limit (quota_us, period_us) into the cgroup directory
 * @dir of a cgroup-v@version hierarchy and read back what the kernel kept
 * into @set; nothing is touched when @g gives neither. Fails with ENOTSUP
 * when the kernel has no CPU bandwidth control (CONFIG_CFS_BANDWIDTH: no
 * cpu.cfs_quota_us / cpu.max file). Returns 0, or -1 with @err set.
 */
int cap_cgroup_set_bandwidth(int version, const char *dir, const struct cap_group *g,
			     struct cap_cgroup_set *set, struct sr_error *err);
int cap_cgroup_attach(const struct cap_cgroup_host *h, const char *run, const char *group,
		      pid_t pid, struct sr_error *err);
/* Kill what is left in the run's groups and remove them. Returns 0 or -1. */
int cap_cgroup_remove_run(struct cap_cgroup_host *h, const char *run,
			  const struct cap_options *logopt);
int cap_cgroup_cleanup_leftovers(const struct cap_options *logopt);
/*
 * The tracking cgroup: every workload process is put into <root>/<run> of a
 * hierarchy without the cpu and cpuset controllers (so its scheduling is
 * untouched: a cgroup v2 hierarchy whose cgroup.controllers has neither, else
 * a v1 freezer or pids hierarchy), where its children stay whatever they do
 * to their environment or process group; --cleanup and the next capture kill
 * what a SIGKILLed capture's workloads left there, the end of a capture what
 * its own left.  cap_track_detect(): 0 with @root set, -1 if the host has no
 * such hierarchy (then only the process group, the subreaper and
 * CAP_WORKLOAD_ENV find them).
 */
int cap_track_detect(char *root, size_t size);
int cap_track_create(const char *root, const char *run, const struct cap_options *logopt,
		     struct sr_error *err);
int cap_track_attach(const char *root, const char *run, pid_t pid, struct sr_error *err);
/* Kill what is left in <root>/<run> and remove it. Returns 0 or -1. */
int cap_track_remove(const char *root, const char *run, const struct cap_options *logopt);
/* The cpu-controller cgroup path of a task as /proc/<pid>/cgroup shows it. */
int cap_cgroup_of_task(const struct cap_cgroup_host *h, pid_t tgid, pid_t tid,
		       char *buf, size_t size);
/* The cpu hierarchy as JSON: [{"path", "shares"|"weight", ...}]. */
json_t *cap_cgroup_hierarchy(const struct cap_cgroup_host *h);

/* ---- workloads (cap_workload.c) ---- */
struct cap_proc {
	const char *label;          /* group name, or "command" */
	const char *group;          /* cgroup group name or NULL */
	char **argv;                /* owned */
	pid_t pid;
	int go_fd, err_fd;
	bool running, exited;
	int status;                 /* waitpid status */
	bool killed;                /* stopped by us at the end */
	bool group_stopped;         /* its process group got SIGKILL: never again
				     * (the pgid could be reused later) */
	double end_s;               /* seconds after release when it exited */
};
/* Build argv from a group command: split on blanks, or sh -c if it has shell syntax. */
char **cap_command_argv(const char *command, bool *uses_shell);
void cap_argv_free(char **argv);
/* Resolve argv[0] in PATH; 0 if executable, -1 with errno otherwise. */
int cap_command_check(const char *file);
int cap_proc_spawn(struct cap_proc *p, struct sr_error *err);
int cap_proc_release(struct cap_proc *p, struct sr_error *err);
/* Reap exited children; returns how many of @procs finished. */
int cap_procs_reap(struct cap_proc *procs, size_t n, double now_s);
/* SIGTERM each process group, wait up to @grace_s, then SIGKILL. */
void cap_procs_kill(struct cap_proc *procs, size_t n, double grace_s);
void cap_proc_release_resources(struct cap_proc *p);
/* Every workload process runs with CAP_WORKLOAD_ENV=<capture pid>. */
#define CAP_WORKLOAD_ENV "SCHEDREPLAY_CAPTURE_PID"
/* SIGKILL processes whose CAP_WORKLOAD_ENV names a capture that is gone
 * (the descendants of a SIGKILLed capture's command); returns how many. */
int cap_workload_cleanup_leftovers(const struct cap_options *logopt);

/* ---- machine metadata (cap_machine.c) ---- */
json_t *cap_machine_kernel(void);
json_t *cap_machine_config(void);
json_t *cap_machine_cpus(void);
json_t *cap_machine_tunables(void);
/*
 * @fn(tgid, tid, @arg) for every thread of /proc/<tgid>/task/<tid> (a
 * process gone meanwhile skipped), each process's leader after its other
 * threads: the first non-zero return of @fn (which stops the walk; keep it
 * > 0), 0, or -1 with errno if /proc cannot be read (or out of memory).
 * cap_for_each_thread_in(): the same under @proc (a test's tree).
 */
int cap_for_each_thread(int (*fn)(int tgid, int tid, void *arg), void *arg);
int cap_for_each_thread_in(const char *proc, int (*fn)(int tgid, int tid, void *arg), void *arg);
json_t *cap_machine_tasks(const struct cap_cgroup_host *h, bool *autogroup_enabled);
/* cap_machine_tasks() of the tree @proc (a test's) in place of /proc */
json_t *cap_machine_tasks_in(const char *proc, const struct cap_cgroup_host *h,
			     bool *autogroup_enabled);
json_t *cap_machine_loadavg(void);
char *cap_machine_uname_string(void);
/* "pid comm" lines for the trace.dat: the kernel's saved_cmdlines, the tasks
 * alive at the start (@start_tasks from cap_machine_tasks) and those alive now. */
char *cap_machine_cmdlines(const char *saved_cmdlines, json_t *start_tasks);

/* ---- function counts (cap_funcs.c) ---- */
struct cap_funcs;
/* Never fails the capture: on any obstacle returns a handle that only
 * reports "unavailable" with the reason. */
struct cap_funcs *cap_funcs_start(const char *run_name, const char *tracing_dir,
				  const char *tmp_prefix, const struct cap_options *logopt);
void cap_funcs_on(struct cap_funcs *f, bool on);
/* Stop, count, remove the instance; returns the sidecar object. */
json_t *cap_funcs_finish(struct cap_funcs *f);
void cap_funcs_destroy(struct cap_funcs *f);


/* ---- the kernel's per-thread sched state (cap_schedsnap.c) ---- */
/*
 * Past this many threads a snapshot is left out ({"available": false}):
 * 2 snapshots of 23 values a thread stay under a tenth of the sidecar's
 * SIDECAR_MAX_VALUES.
 */
#define CAP_SCHED_MAX_THREADS 2048
struct cap_sched {
	int64_t v[SIDECAR_SCHED_NR];       /* ns for the SPLIT_NS() fields */
	bool have[SIDECAR_SCHED_NR];       /* printed, and parsed whole */
};
/* Parse a /proc/<pid>/sched text; returns how many fields it found. */
int cap_sched_parse(const char *text, struct cap_sched *out);
/* The state letter (R, S, D, ...) of a /proc/<pid>/stat text, 0 if none. */
char cap_sched_state(const char *stat_text);
/* Its field 39, the CPU it last ran on (task_cpu()), -1 if none. */
int cap_sched_cpu(const char *stat_text);
/* Its field 22, the thread's start in USER_HZ ticks after boot, -1 if none. */
long long cap_sched_starttime(const char *stat_text);
json_t *cap_sched_task_json(int pid, int tgid, char state, int cpu, long long starttime,
			    const struct cap_sched *s);
/* The Cpus_allowed_list of a /proc/<pid>/status text into @out, false if none. */
bool cap_sched_cpus_allowed(const char *status_text, char *out, size_t len);
/* Every thread's: {"available": true, "read_us", "tasks": [...]} or
 * {"available": false, "reason"}; NULL only when out of memory. */
json_t *cap_sched_snapshot(void);
/* Drop the entries of @tasks whose pid a later one has, keeping the last
 * read (a thread list walked during an exec); returns how many went,
 * (size_t)-1 when out of memory. */
size_t cap_sched_dedup(json_t *tasks);

/* ---- the kernel's run-queue state from debugfs (cap_sched_debug.c) ---- */
/*
 * Periodic reads stop past this many values in all (a read of 2 CPUs and
 * ten groups holds ~600): a quarter of the sidecar's SIDECAR_MAX_VALUES.
 */
#define CAP_SCHED_DEBUG_MAX_VALUES (SIDECAR_MAX_VALUES / 4)
struct cap_sched_debug {
	char mnt[512];                 /* debugfs: the mounted one, or ours */
	char path[600];                /* mnt + /sched/debug */
	bool mounted;                  /* we mounted it: unmount at close */
	bool open;
	size_t values;                 /* parsed so far, all reads */
	unsigned int reads;
};
/*
 * A sched/debug text as {"header": {NAME: v}, "cpus": [{"cpu", "fields":
 * {NAME: v}, "cfs_rqs": [{"path", "fields"}]}]}; *@values the numbers kept.
 * NULL only when out of memory.
 */
json_t *cap_sched_debug_parse(const char *text, size_t *values);
/* Find or mount debugfs; -1 with @why (unavailable: the sidecar says so). */
int cap_sched_debug_open(struct cap_sched_debug *d, char *why, size_t n);
/* One read, tagged @at ("start", "during", "end"); NULL if it failed or the
 * values' bound is reached. */
json_t *cap_sched_debug_read(struct cap_sched_debug *d, const char *at);
/* Unmount our debugfs mount, if any. */
void cap_sched_debug_close(struct cap_sched_debug *d);
/* Unmount the debugfs mounts of killed captures; how many. */
int cap_sched_debug_cleanup_leftovers(const struct cap_options *logopt);

/* ---- cap_cputime.c: the sidecar's "cpu_time" ---- */

#define CAP_CPU_TIME_MAX 4096
struct cap_cpu_time {
	int cpu;
	uint64_t irq, softirq, steal;   /* USER_HZ ticks */
};
/*
 * The per-CPU lines of a /proc/stat text into @out (room for @max): how
 * many, or -1 if a cpuN line lacks the steal column or there are too many.
 */
int cap_proc_stat_parse(const char *text, struct cap_cpu_time *out, int max);
/* [{"cpu", "irq", "softirq", "steal"}, ...] now, or {"unreadable": why}. */
json_t *cap_cpu_time_read(void);
/*
 * The sidecar's "cpu_time" from two reads: {"available": true, "source",
 * "user_hz", "at_start", "at_end"}, or {"available": false, "reason"}.
 */
json_t *cap_cpu_time_json(json_t *start, json_t *end);

#endif /* SCHEDREPLAY_CAP_LOCAL_H */
