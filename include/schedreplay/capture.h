/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Capture: record the scheduler events of a real workload into a standard
 * trace.dat (read by trace-cmd report, KernelShark and schedreplay's reader)
 * plus a JSON sidecar of machine metadata (OUT.dat.json, see sidecar.h and
 * docs/capture.md).
 *
 * What a capture changes on the host, and undoes on every exit path:
 *   - a tracefs instance "schedreplay-<pid>" (never the top-level buffer),
 *   - cpu cgroups "<cpu controller root>/schedreplay-<pid>/<group>",
 *   - the workloads, each in its own process group.
 * A later capture removes what a killed one left behind (cap_cleanup_leftovers).
 *
 * The library never prints and never exits; progress and warnings go through
 * the optional log callback, failures come back as an sr_error.
 */
#ifndef SCHEDREPLAY_CAPTURE_H
#define SCHEDREPLAY_CAPTURE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedreplay/error.h>

/* Prefix of every tracefs instance and cgroup a capture creates. */
#define CAP_NAME_PREFIX "schedreplay-"

/*
 * One --group NAME:KEY=VALUE[,KEY=VALUE]=CMD (keys shares or weight, and
 * quota), or NAME=CMD.
 */
struct cap_group {
	char *name;           /* [A-Za-z0-9_.-]{1,64} */
	unsigned long shares; /* cgroup v1 cpu.shares, 0 if given as weight */
	unsigned long weight; /* cgroup v2 cpu.weight, 0 if given as shares */
	/*
	 * CPU bandwidth limit (v1 cpu.cfs_quota_us / cpu.cfs_period_us, v2
	 * cpu.max), in us: quota_us 0 = not given (the bandwidth files are not
	 * touched), -1 = no limit ("max"), else 1000..2^44-1; period_us 0 = not
	 * given (the kernel's default, 100000), else 1000..1000000.
	 */
	long long quota_us;
	unsigned long period_us;
	char *command;        /* as given; run by execvp or /bin/sh -c */
};

struct cap_options {
	const char *output;          /* OUT.dat; the sidecar is OUT.dat.json */
	double duration_s;           /* 0: until the commands exit */
	unsigned long buffer_kb;     /* per-CPU ring buffer of the instance */
	const char *clock;           /* trace clock, NULL: "local" */
	struct cap_group *groups;
	size_t nr_groups;
	char **events;               /* extra "system:event", NULL-terminated or NULL */
	size_t nr_events;
	char **argv;                 /* the "-- CMD ARGS" command, or NULL */
	bool strict;                 /* lost events make the capture fail */
	const char *tracing_dir;     /* NULL: the mounted tracefs (mounted if needed) */
	bool no_sched_debug;         /* do not read debugfs's sched/debug */
	bool no_affinity;            /* do not record sched_setaffinity() calls */
	unsigned int sched_debug_every_ms;  /* 0: at the start and end only */
	char **cmdline;              /* capture's own argv, stored in the sidecar */
	int cmdline_argc;
	/* Progress and warnings (one line, no newline); may be NULL. */
	void (*log)(void *ctx, bool warning, const char *line);
	void *log_ctx;
};

/* What a finished capture measured, for the command's summary line. */
struct cap_result {
	uint64_t events;          /* records in the written trace.dat */
	uint64_t bytes;           /* size of the trace.dat */
	uint64_t lost;            /* sum of per-CPU overrun + dropped events */
	double duration_s;        /* between the start and end markers */
	bool interrupted;         /* ended by SIGINT/SIGTERM */
	int workload_failed;      /* number of commands that exited non-zero */
};

/*
 * Parse one --group argument into @g (strings are allocated; free with
 * cap_group_release). Returns 0, or -1 with @err set.
 */
int cap_group_parse(const char *spec, struct cap_group *g, struct sr_error *err);
void cap_group_release(struct cap_group *g);

/*
 * Check everything that can be checked without touching the host: output
 * path, duration, groups (unique names, weights in range), commands found,
 * extra events well-formed. Returns 0, or -1 with @err set.
 */
int cap_validate(const struct cap_options *opt, struct sr_error *err);

/*
 * Add to @set the signals that end a recording: SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT and every other asynchronous signal whose default action would
 * end the capture (SIGUSR1, SIGALRM, ..., the real-time ones; SIGPIPE and
 * SIGXFSZ are ignored instead).  The caller of cap_run() blocks them with
 * SIGCHLD; the session takes them with sigtimedwait().
 */
void cap_add_stop_signals(sigset_t *set);

/*
 * Run one capture. The stop signals (cap_add_stop_signals()) and SIGCHLD
 * must be blocked in every thread of the caller, and SIGPIPE and SIGXFSZ ignored
 * (cmd_capture does both); the first SIGINT/SIGTERM/SIGHUP/SIGQUIT ends the
 * recording early and the files are still written, one while they are
 * written stops the writing (no OUT). Returns 0 on success (@res filled), -1
 * with @err set.
 */
int cap_run(const struct cap_options *opt, struct cap_result *res, struct sr_error *err);

/*
 * Remove the instances and cgroups of captures whose process no longer runs
 * (prefix CAP_NAME_PREFIX + pid), killing the tasks still in such cgroups.
 * @tracing_dir may be NULL. Returns the number of objects removed, or -1.
 */
int cap_cleanup_leftovers(const char *tracing_dir,
			  void (*log)(void *ctx, bool warning, const char *line),
			  void *log_ctx, struct sr_error *err);

#endif /* SCHEDREPLAY_CAPTURE_H */
