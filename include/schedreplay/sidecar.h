/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture sidecar (OUT.dat.json, written by `schedreplay capture`):
 * the facts about the capture machine that a trace.dat does not carry.
 * The full schema is in docs/capture.md; this loader returns what the later
 * stages use, already validated, so they never touch JSON.
 *
 * Unknown facts are explicit: hz == 0, cpus[i].numa_node == -1, a task's
 * cgroup NULL, shares == -1, funcs_available false with funcs_reason.
 */
#ifndef SCHEDREPLAY_SIDECAR_H
#define SCHEDREPLAY_SIDECAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedreplay/error.h>

#define SIDECAR_SCHEMA_VERSION 1

struct sidecar_cpu {
	int cpu;
	bool listed;                      /* cpus.topology has its entry (once) */
	bool online;
	int package, die, cluster, core;  /* -1 if unknown */
	int numa_node;                    /* -1 if unknown */
	int capacity;                     /* cpu_capacity (1024 = biggest), -1 if absent */
	char *smt_siblings;               /* cpulist, e.g. "0,4"; NULL if unknown */
	/* The kernel did not trace this CPU's switches out of idle (many
	 * sched_switch to idle, few or none from it): a wakeup onto it while
	 * idle has no traced switch-in; take the task's first record on the
	 * CPU instead. False when unknown. */
	bool idle_exit_untraced;
	long long from_idle, to_idle;     /* the counts behind it, -1 if unknown */
};

/* A cgroup of the cpu hierarchy as it was at the start of the capture. */
struct sidecar_cgroup {
	char *path;            /* "/" or "/a/b", as in /proc/<pid>/cgroup */
	long shares;           /* v1 cpu.shares, or v2 weight converted; -1 unknown */
	long weight;           /* v2 cpu.weight, or v1 shares converted; -1 unknown */
	long quota_us, period_us; /* bandwidth limit, -1 if none */
	int nr_tasks;          /* -1 if unknown */
};

/* A workload group the capture ran (--group), or the "-- CMD" command. */
struct sidecar_group {
	char *name;
	char *cgroup;          /* NULL for the plain command */
	long shares, weight;   /* -1 for the plain command */
	char *command;         /* as given (NULL for the plain command) */
	int pid;
	int exit_status;       /* -1 if it did not exit by itself */
	int signal;            /* 0 if none */
	bool stopped_at_end;   /* still running when the recording ended */
};

struct sidecar_task {
	int pid, tgid;
	char *comm;
	char *cgroup;          /* cpu-controller path, NULL if unknown */
	int autogroup;         /* autogroup id, -1 if none (kernel thread) or unknown */
	int nice;
	int cpu;               /* the CPU it last ran on at the read (stat field 39), -1 unknown */
	char policy[12];       /* "normal", "batch", "idle", "fifo", "rr", "deadline", ... */
};

struct sidecar_func {
	char *name;            /* report name: update_curr, newidle_balance, ... */
	int64_t count;         /* -1: not traceable on that kernel (inlined) */
};

/*
 * The kernel's own per-thread scheduler state (CONFIG_SCHED_DEBUG's
 * /proc/<pid>/task/<tid>/sched), read by the capture just before tracing
 * starts and just after it stops, the workloads still alive: the sidecar's
 * "sched_at_start" / "sched_at_end" (docs/capture.md).  The fields, in the
 * sidecar's order; sidecar_sched_key() names each one's key.  Units as the
 * kernel keeps them: weight is se.load.weight (scaled: 1048576 for nice 0
 * on 64-bit), the sums and averages se.avg's, last_update_time the ns of
 * the cfs_rq's PELT clock, exec_start_ns / sum_exec_runtime_ns / slice_ns ns.
 */
enum sidecar_sched_field {
	SIDECAR_SCHED_WEIGHT, SIDECAR_SCHED_LOAD_SUM, SIDECAR_SCHED_RUNNABLE_SUM,
	SIDECAR_SCHED_UTIL_SUM, SIDECAR_SCHED_LOAD_AVG, SIDECAR_SCHED_RUNNABLE_AVG,
	SIDECAR_SCHED_UTIL_AVG, SIDECAR_SCHED_LAST_UPDATE, SIDECAR_SCHED_UTIL_EST,
	SIDECAR_SCHED_EXEC_START, SIDECAR_SCHED_SUM_EXEC, SIDECAR_SCHED_NR_MIGRATIONS,
	SIDECAR_SCHED_NR_SWITCHES, SIDECAR_SCHED_NR_VOLUNTARY, SIDECAR_SCHED_NR_INVOLUNTARY,
	SIDECAR_SCHED_POLICY, SIDECAR_SCHED_PRIO, SIDECAR_SCHED_SLICE, SIDECAR_SCHED_NR
};
const char *sidecar_sched_key(int field);   /* NULL past SIDECAR_SCHED_NR */
/*
 * Is @v a value proc_sched_show_task() can print for @field?  The loader
 * refuses a sidecar with one that is not; the capture writes null for it.
 */
bool sidecar_sched_in_range(int field, int64_t v);

struct sidecar_sched_task {
	int pid, tgid;
	char state;                      /* R, S, D, ... of /proc/.../stat; 0 unknown */
	/*
	 * task_cpu() at the read (stat field 39): for a sleeping thread the CPU
	 * whose cfs_rq still holds its blocked load; -1 unknown (absent in
	 * sidecars written before 2026-12-04, or not printed)
	 */
	int cpu;
	/*
	 * the thread's start (stat field 22, USER_HZ ticks after boot): with
	 * the pid, one thread of one boot; -1 unknown (absent in sidecars
	 * written before 2026-12-05, or null)
	 */
	int64_t starttime;
	/*
	 * "cpus_allowed", /proc/.../status's Cpus_allowed_list (the task's
	 * cpus_mask): how many of the CPUs 0..nr_cpus-1 it allows and the
	 * lowest of them; nr_allowed -1 unknown (absent in sidecars written
	 * before 2026-12-05, or null)
	 */
	int nr_allowed, allowed_cpu;
	/*
	 * The mask itself when it allows several of the CPUs 0..nr_cpus-1
	 * but not all (bit n of word n / 64: CPU n, SIDECAR_MASK_WORDS
	 * words); NULL otherwise (one CPU, all, unknown): the model's
	 * p->cpus_mask (model_task_set_allowed_mask())
	 */
	uint64_t *allowed_mask;
	int64_t v[SIDECAR_SCHED_NR];
	bool have[SIDECAR_SCHED_NR];     /* false: null (the kernel did not print it) */
};

/*
 * A kernel CPU list ("0-3", "1", "0,2-3": bitmap_print_to_pagebuf()'s
 * form) against the CPUs 0..@nr_cpus-1: how many of those it names
 * (*@nr, CPUs past them ignored) and the lowest (*@first, -1 if none).
 * -1 if it is not such a list (empty, a range backwards, ranges not
 * ascending or overlapping, a number past 65535, any other character).
 */
int sidecar_cpulist_parse(const char *list, int nr_cpus, int *nr, int *first);
/* The words of a sidecar task's allowed_mask: MODEL_MAX_CPUS (4096) bits. */
#define SIDECAR_MASK_WORDS 64
/*
 * sidecar_cpulist_parse() that also sets, in @mask (SIDECAR_MASK_WORDS
 * words, cleared first; may be NULL), the bit of each CPU it names below
 * @nr_cpus and below SIDECAR_MASK_WORDS x 64.
 */
int sidecar_cpulist_mask(const char *list, int nr_cpus, int *nr, int *first, uint64_t *mask);

struct sidecar_sched {
	bool listed;                     /* the sidecar has the object (newer captures) */
	bool available;
	char *reason;                    /* why not, when listed and unavailable */
	size_t nr_tasks;
	struct sidecar_sched_task *tasks; /* sorted by pid */
};
/* Free the tasks' allowed_mask of @s (the tasks array stays). */
void sidecar_sched_masks_free(struct sidecar_sched *s);

/*
 * "sched_debug" (docs/capture.md): reads of debugfs's sched/debug, the
 * kernel's group queues (print_cfs_rq()) per CPU.  The fields the replay
 * compares (sidecar_sd_key() names each; older kernels' names mapped: 6.5's
 * per-queue nr_running / h_nr_running for nr_queued / h_nr_queued).  A row
 * is one cfs_rq[CPU]:PATH block of one read; PATH indexes paths[].
 */
enum {
	SIDECAR_SD_LOAD_AVG, SIDECAR_SD_RUNNABLE_AVG, SIDECAR_SD_UTIL_AVG,
	SIDECAR_SD_TG_CONTRIB, SIDECAR_SD_TG_LOAD_AVG, SIDECAR_SD_SE_WEIGHT,
	SIDECAR_SD_SE_LOAD_AVG, SIDECAR_SD_SE_UTIL_AVG, SIDECAR_SD_NR_QUEUED,
	SIDECAR_SD_H_NR_QUEUED,
	/* 6.14+: h_nr_queued less the delayed-dequeue entities (not read from older kernels) */
	SIDECAR_SD_H_NR_RUNNABLE, SIDECAR_SD_NR
};
const char *sidecar_sd_key(int field);     /* NULL past SIDECAR_SD_NR */

enum sidecar_sd_at { SIDECAR_SD_START, SIDECAR_SD_DURING, SIDECAR_SD_END };

struct sidecar_sd_row {
	int cpu;
	uint32_t path;                   /* index of sidecar_sched_debug.paths */
	int64_t v[SIDECAR_SD_NR];
	bool have[SIDECAR_SD_NR];        /* false: the kernel did not print it */
};

struct sidecar_sd_read {
	enum sidecar_sd_at at;
	uint64_t sched_clk;              /* header.sched_clk: sched_clock(), trace clock local */
	uint64_t read_ns;                /* read_us x 1000: how long the read took (its
					    header first, then CPU by CPU); 0 if absent */
	size_t nr_rows;
	struct sidecar_sd_row *rows;
};

struct sidecar_sched_debug {
	bool listed;                     /* the sidecar has the object (2026-12-05 on) */
	bool available;
	char *reason;                    /* why not, when listed and unavailable */
	long every_ms;                   /* 0: start and end reads only */
	size_t nr_paths;
	char **paths;                    /* cgroup paths as the kernel prints them */
	size_t nr_reads;
	struct sidecar_sd_read *reads;   /* in the sidecar's order */
};
/* A deep copy of @from into @to (zeroed); -1 on ENOMEM (@to then released). */
int sidecar_sched_debug_copy(struct sidecar_sched_debug *to,
			     const struct sidecar_sched_debug *from);
void sidecar_sched_debug_release(struct sidecar_sched_debug *sd);

struct sidecar_cpu_time {
	bool have;                     /* listed in both reads */
	uint64_t irq[2], softirq[2], steal[2];  /* [0] at the start, [1] at the end */
};

struct sidecar {
	char *path;                    /* the file it was loaded from */
	int schema_version;

	/* trace */
	char *trace_file;              /* basename of the trace.dat it belongs to */
	uint64_t trace_id;             /* the trace.dat's TRACEID option */
	char *clock;                   /* trace clock, e.g. "local" */
	bool have_window;
	uint64_t start_ts, end_ts;     /* recording window, trace-clock ns */
	long buffer_kb;

	/* kernel */
	char *kernel_release, *kernel_version, *machine;
	char *kernel_cmdline;          /* the capture machine's /proc/cmdline; NULL if absent */
	int hz;                        /* CONFIG_HZ, 0 if unknown */
	char *no_hz;                   /* "idle", "full", "periodic"; NULL if unknown */
	char *preempt;                 /* "none", "voluntary", "full", "lazy", "rt"; NULL */

	/* CPUs */
	int nr_cpus;
	int nr_cpu_ids;                /* cpus.possible's last CPU + 1 (else nr_cpus) */
	struct sidecar_cpu *cpus;      /* indexed by CPU number */
	int nr_numa_nodes;             /* 0 if unknown */

	/* groups and tasks */
	bool autogroup_enabled;
	int cgroup_version;            /* 1, 2, 0 if no cpu controller */
	int cgroup_hierarchy_id;       /* the cpu controller's hierarchy id (cgroup_attach_task's
					  dst_root); -1 if the sidecar predates the field */
	size_t nr_cgroups;
	struct sidecar_cgroup *cgroups;
	size_t nr_groups;
	struct sidecar_group *groups;  /* the capture's groups, then the command */
	bool affinity_recorded;        /* trace.events lists syscalls:sys_exit_sched_setaffinity */
	int capture_pid;               /* capture.pid, the process that read the snapshots; 0 */
	int64_t capture_starttime;     /* capture.starttime, its stat field 22; -1 unknown */
	size_t nr_tasks;
	struct sidecar_task *tasks;    /* sorted by pid */

	/* bookkeeping-function counts */
	bool funcs_available;
	char *funcs_reason;            /* why not, when unavailable */
	size_t nr_funcs;
	struct sidecar_func *funcs;

	/* lost events: the kernel's counters at the end of the capture */
	bool lost_listed;              /* the sidecar has a "lost" object */
	uint64_t lost_events;          /* overrun + dropped + commit overrun */
	uint64_t lost_overrun, lost_dropped, lost_commit_overrun;
	uint64_t missed_pages;         /* pages the capture's read of its trace found flagged */
	uint64_t *lost_per_cpu;        /* [nr_cpus] overrun + dropped + commit overrun of each
					  CPU; NULL if lost.per_cpu is absent */

	/* the kernel's per-thread sched state at the start and at the end */
	struct sidecar_sched sched_start, sched_end;
	/* the kernel's group queues read during the capture */
	struct sidecar_sched_debug sched_debug;

	/*
	 * "cpu_time": each CPU's /proc/stat irq, softirq and steal (USER_HZ
	 * ticks) at the capture's start and end; cpu_time NULL when the
	 * sidecar has none (older sidecars, or the reads failed).
	 */
	long cpu_time_user_hz;
	struct sidecar_cpu_time *cpu_time;   /* [nr_cpus], by CPU number */
};

/*
 * The sidecar's lost-event counters against the gaps the trace marks
 * (sidecar_lost_compare()).  The kernel marks a page after an overrun
 * (ring_buffer_read_page()'s RB_MISSED_EVENTS, with the count), never an
 * event dropped when the buffer was full (dropped_events, not overwrite
 * mode) or a commit overrun: those are missing from the trace at points it
 * does not show.  Every reader trusts the trace's gaps (the only ones it can
 * place); the comparison says where the sidecar disagrees.
 */
#define SIDECAR_LOST_TEXT 768
#define SIDECAR_LOST_CPUS 64           /* CPUs listed by number (more are counted) */
struct sidecar_lost_cmp {
	bool compared;                 /* a sidecar with a "lost" object */
	bool per_cpu;                  /* compared CPU by CPU (lost.per_cpu listed) */
	/* the sidecar's counters (its copy: the comparison outlives the sidecar) */
	uint64_t overrun, dropped, commit_overrun, total, missed_pages;
	uint64_t sidecar_cpu[SIDECAR_LOST_CPUS]; /* per CPU, when per_cpu */
	int nr_sidecar_cpus;
	uint64_t trace_total;          /* the trace's lost events (a gap of unknown size: 1) */
	bool trace_unknown;            /* a gap without a count */
	/*
	 * The events the sidecar counts on CPUs where the trace marks no gap
	 * (without per-CPU counts: its total, when the trace marks none), and
	 * those CPUs (none listed without per-CPU counts).
	 */
	uint64_t unmarked;
	int unmarked_cpu[SIDECAR_LOST_CPUS], nr_unmarked_cpus;
	/* the trace's lost events on CPUs where the sidecar counts none */
	uint64_t uncounted;
	bool uncounted_unknown;        /* a gap of unknown size among them */
	int uncounted_cpu[SIDECAR_LOST_CPUS], nr_uncounted_cpus;
	/* the capture's read of its trace found flagged pages; this one has no gap */
	bool pages_unmarked;
	/* one line per disagreement (without "warning: ") */
	char text[3][SIDECAR_LOST_TEXT];
	int nr_text;
};

/*
 * Compare @sc's lost-event counters with the trace's gaps: @trace_lost[c]
 * events lost before records of CPU c (TRACE_LOST_UNKNOWN-sized gaps counted
 * 1, *@trace_unknown[c] set) for @nr_cpus CPUs.  @sc NULL: nothing compared.
 */
void sidecar_lost_compare(const struct sidecar *sc, const uint64_t *trace_lost,
			  const bool *trace_unknown, int nr_cpus, struct sidecar_lost_cmp *out);
/*
 * The comparison as the JSON outputs' trace.lost_events_sidecar (report and
 * replay; schema in docs/report.md): null when nothing was compared.
 */
struct json_t;
struct json_t *sidecar_lost_json(const struct sidecar_lost_cmp *c);
/* Whether the comparison found a disagreement (a warning to print). */
static inline bool sidecar_lost_disagree(const struct sidecar_lost_cmp *c)
{
	return c->nr_text > 0;
}

/*
 * Load and validate a sidecar. Returns NULL with @err set ("FILE: what is
 * wrong at which key") on a missing file (err->code ENOENT), bad JSON, another
 * schema, or a newer schema version.
 */
struct sidecar *sidecar_load(const char *path, struct sr_error *err);

/*
 * The sidecar of a trace: TRACE.json. Returns NULL with err->code ENOENT
 * when there is none (a trace from another tool), other codes on bad files.
 */
struct sidecar *sidecar_load_for_trace(const char *trace_path, struct sr_error *err);

/*
 * Is @sc the capture's sidecar of the trace @trace_path (header @in)?  0 if
 * nothing says otherwise; -1 with @err set when it names another trace (its
 * trace_id against the header's TRACEID) or describes another CPU count
 * than the header's (cpus.topology): another capture's cgroups, HZ and
 * topology would be taken for this trace's.  *@id_checked (may be NULL):
 * both had an id, and they agree.
 */
/*
 * The largest sidecar sidecar_load() takes (docs/capture.md): bytes, and
 * JSON values counted as 1 + commas + open brackets outside strings (an upper
 * bound, counted before parsing).  A real sidecar is about 150 bytes and 8.4
 * values per thread of tasks_at_start: a machine of about 100 000 threads.
 */
#define SIDECAR_MAX_BYTES (16u << 20)
#define SIDECAR_MAX_VALUES (1u << 20)
/*
 * function_counts.counts: an entry count is 0..2^53 (compared as doubles,
 * exact below it), or null (not traceable); the loader refuses other values.
 */
#define SIDECAR_FUNC_COUNT_MAX (1LL << 53)
/*
 * Sidecar text @text (@len bytes) against those bounds, counted as
 * sidecar_load() counts a file: 0, or -1 with the loader's one-line error
 * ("@path: N bytes, over the sidecar maximum of 16 MiB", "@path: more than
 * 1048576 JSON values in its first N bytes, ...").  The capture checks the
 * sidecar it writes with it.
 */
int sidecar_text_check(const char *path, const char *text, size_t len, struct sr_error *err);

struct trace_info;
int sidecar_check_trace(const struct sidecar *sc, const struct trace_info *in,
			const char *trace_path, bool *id_checked, struct sr_error *err);

void sidecar_free(struct sidecar *sc);

/*
 * Offline CPUs (cpus.topology[].online false: present but not online when
 * the capture started; the kernel schedules nothing there).  The replay
 * simulates CPUs 0..sidecar_last_online_cpu(): the online ones.  An offline
 * CPU below an online one (a hole, e.g. `nosmt`) cannot be left out that way
 * and is an error (-1 with @err naming it); -1 too when no CPU is online.
 */
int sidecar_last_online_cpu(const struct sidecar *sc, struct sr_error *err);
/* How many CPUs @sc lists offline (0 for NULL): 0 spares the per-event check. */
int sidecar_nr_offline(const struct sidecar *sc);
/*
 * An event on a CPU @sc lists offline: the first CPU @ev names
 * (trace_event_cpus(): its own, a wakeup's target, a migration's ends) that
 * @sc lists offline, or -1.  When there is one, @err gets the one line replay
 * and report both print ("@where: EVENT at T s names CPU N, which sidecar F
 * lists offline: ..."; @where: the event's place in the file, "CPU 0, file
 * offset 4096").  The kernel runs, wakes and migrates nothing on an offline
 * CPU, so such an event contradicts the sidecar.
 */
struct trace_event;
int32_t sidecar_event_offline_cpu(const struct sidecar *sc, const struct trace_event *ev,
				  const char *where, struct sr_error *err);

/* Lookups (NULL / -1 when unknown). */
const struct sidecar_task *sidecar_task(const struct sidecar *sc, int pid);
const char *sidecar_cgroup_of(const struct sidecar *sc, int pid);
const struct sidecar_cgroup *sidecar_find_cgroup(const struct sidecar *sc, const char *path);
const struct sidecar_group *sidecar_find_group(const struct sidecar *sc, const char *name);
const struct sidecar_sched_task *sidecar_sched_find(const struct sidecar_sched *s, int pid);
/* Asleep at the read: the state letter S, D or I (an idle kernel thread). */
bool sidecar_sched_asleep(const struct sidecar_sched_task *k);
/*
 * The count of bookkeeping function @name among the @nr counts @funcs (a
 * sidecar's funcs, or the workload's copy of them): true if they list
 * @name, *count -1 when it was not traceable on that kernel (inlined).
 */
bool sidecar_funcs_get(const struct sidecar_func *funcs, size_t nr, const char *name,
		       int64_t *count);

#endif /* SCHEDREPLAY_SIDECAR_H */
