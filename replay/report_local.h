/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `schedreplay report`: read a trace once, feed the latency machine, print
 * text (schbench layout) or JSON (the schema of docs/report.md).
 *   report.c       collect: reader -> counts, lost events, latency machine
 *   report_text.c  text output
 *   report_json.c  JSON output
 *   cmd_report.c   options, exit codes
 */
#ifndef SCHEDREPLAY_REPORT_LOCAL_H
#define SCHEDREPLAY_REPORT_LOCAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <schedreplay/error.h>
#include <schedreplay/latency.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/trace.h>

#define REPORT_SCHEMA_VERSION 1
#define REPORT_MAX_WARNINGS 16

struct report_opts {
	const char *path;
	const char *buffer;            /* NULL: choose */
	enum trace_backend backend;    /* who reads the records (default native) */
	/*
	 * trace_open_opts.repair: TRACE_REPAIR_IDLE_EXIT by default (switches
	 * out of idle the kernel did not trace are restored); 0 with
	 * --no-repair (the raw stream).
	 */
	unsigned int repair;
	bool json;
	const char *comm_prefix;       /* NULL: any */
	int32_t pid;                   /* -1: any */
	bool by[LAT_NR_KEYS];          /* extra groupings (comm always) */
	int cgroup_root;               /* -1: any hierarchy */
	int top;                       /* groups/tasks in text output; 0 = all */
	enum lat_start_mode start_mode;
	/*
	 * The capture sidecar: NULL = TRACE.json if it exists; no_sidecar
	 * ignores it. It seeds every task's cpu cgroup and says which
	 * cgroup_attach_task moves are the cpu hierarchy's.
	 */
	const char *sidecar;
	bool no_sidecar;
	/*
	 * Write every final sample that passes the filter to this file, one
	 * line each (format in docs/report.md); NULL: none.
	 */
	const char *samples_path;
	/* called once the machine exists, before any event (cgroup seeding) */
	int (*prepare)(struct lat_machine *m, void *ctx, struct sr_error *err);
	void *prepare_ctx;
};

void report_opts_default(struct report_opts *o);

struct report_count {
	const char *name;
	uint64_t count;
};

struct report_data {
	struct trace_reader *reader;
	const struct trace_info *info;
	struct lat_machine *lat;
	struct report_count *counts;
	size_t nr_counts;
	uint64_t events;
	uint64_t sched_events;          /* decoded sched/cgroup events */
	uint64_t lost_total;
	uint64_t *lost_per_cpu;         /* [nr_cpus] */
	bool *lost_unknown_per_cpu;
	int nr_cpus;
	bool lost_unknown;
	struct sidecar_lost_cmp lost_sc; /* the sidecar's lost-event counters against the trace */
	double read_seconds;            /* wall time of the pass over the events */
	struct sidecar *sc;             /* NULL if none was used */
	char sidecar_note[512];         /* which sidecar, or why none */
	size_t sidecar_seeded;          /* tasks whose cgroup it gave */
	bool sidecar_id_checked;        /* its trace_id equals the trace's TRACEID */
	char cgroup_policy[256];        /* which cgroup_attach_task moves are followed */
	uint64_t restored;              /* switches the repair stage restored, all CPUs */
	FILE *samples;                  /* --samples FILE, open during the pass */
	uint64_t samples_written;
	bool samples_failed;
	int samples_errno;              /* the first failed write's errno (0: none known) */
	char warnings[REPORT_MAX_WARNINGS][SIDECAR_LOST_TEXT + 64];
	int nr_warnings;
};

/* Read the whole trace. On error fills @err; report_data_release() always. */
int report_collect(const struct report_opts *o, struct report_data *d, struct sr_error *err);
void report_data_release(struct report_data *d);
uint64_t report_count_of(const struct report_data *d, const char *name);

int report_print_text(FILE *out, const struct report_data *d, const struct report_opts *o);
int report_print_json(FILE *out, const struct report_data *d, const struct report_opts *o,
		      struct sr_error *err);

/* Text of the latency definition, shared by --help, text and JSON output. */
extern const char report_latency_definition[];
/* The repair rule (TRACE_REPAIR_IDLE_EXIT), for text and JSON output. */
extern const char report_repair_rule[];

/*
 * What the capture sidecar says of @cpu's switches out of idle: 1 flagged
 * untraced, 0 counted and traced, -1 unknown (no sidecar, or one without
 * trace.idle_switches).
 */
int report_sidecar_idle_exit_untraced(const struct report_data *d, int cpu);

#endif /* SCHEDREPLAY_REPORT_LOCAL_H */
