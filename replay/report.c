// SPDX-License-Identifier: GPL-2.0
/* One pass over a trace for `schedreplay report`: see report_local.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <schedreplay/cli.h>

#include "report_local.h"

const char report_latency_definition[] =
	"wakeup latency: from the first sched_waking (or sched_wakeup_new for a new task) of a "
	"task that is not on a CPU and has no pending wakeup, to the sched_switch that puts it "
	"on a CPU; wakings of a running task or of one with a pending wakeup start nothing; "
	"the sample belongs to next_comm of that sched_switch; without sched_waking in the "
	"trace, sched_wakeup starts the interval. run-queue wait: from a sched_switch with "
	"prev_state R/R+ (preemption) to the task's next sched_switch in. A task that left its "
	"CPU without a sched_switch (the CPU then seen idle, or the task woken, switched in or "
	"migrated elsewhere: latency_definition.untraced_switches) is off it from its last "
	"event there, and its first sched_waking after that starts its interval.";

const char report_repair_rule[] =
	"a CPU whose current task per its sched_switch records (or per its last event, when "
	"that is in idle's context) is idle (pid 0) and an event "
	"whose common_pid is a task T != 0 on it: T was switched in without a record; a "
	"sched_switch idle -> T (prev_state R) is restored at ts - runtime of T's first "
	"sched_stat_runtime there (its exec_start) if that lies within [max(T's last wakeup or "
	"migration, the CPU's previous event), T's first event there]; else at that lower bound "
	"if T was woken while the CPU was idle, else at T's first event there. On the capture "
	"kernel exec_start is usually the rq clock of the wakeup (wakeup_preempt() skips "
	"__schedule()'s clock update), so most switches go to the lower bound: early by the idle "
	"exit, a few microseconds (docs/report.md).";

int report_sidecar_idle_exit_untraced(const struct report_data *d, int cpu)
{
	if (!d->sc || cpu < 0 || cpu >= d->sc->nr_cpus || d->sc->cpus[cpu].to_idle < 0)
		return -1;
	return d->sc->cpus[cpu].idle_exit_untraced;
}

void report_opts_default(struct report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pid = -1;
	o->cgroup_root = -1;
	o->top = 10;
	o->start_mode = LAT_START_AUTO;
	o->by[LAT_BY_COMM] = true;
	o->repair = TRACE_REPAIR_IDLE_EXIT;
}

static void warn(struct report_data *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct report_data *d, const char *fmt, ...)
{
	va_list ap;

	if (d->nr_warnings == REPORT_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(d->warnings[d->nr_warnings++], sizeof(d->warnings[0]), fmt, ap);
	va_end(ap);
}

uint64_t report_count_of(const struct report_data *d, const char *name)
{
	uint64_t n = 0;

	for (size_t i = 0; i < d->nr_counts; i++)
		if (!strcmp(d->counts[i].name, name))
			n += d->counts[i].count;
	return n;
}

static int cmp_count(const void *a, const void *b)
{
	const struct report_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * The sidecar of the trace: the explicit file, or TRACE.dat.json (the trace's
 * path + ".json") if present.  A sidecar that does not load, or that names
 * another trace (TRACEID) or describes another CPU count
 * (sidecar_check_trace()), is an error: silently
 * grouping by the wrong machine's cgroups would be worse.
 */
static int load_sidecar(const struct report_opts *o, struct report_data *d,
			struct sr_error *err)
{
	const struct trace_info *in = d->info;
	struct sr_error e = { 0 };

	if (o->no_sidecar) {
		snprintf(d->sidecar_note, sizeof(d->sidecar_note), "none (--no-sidecar)");
		return 0;
	}
	d->sc = o->sidecar ? sidecar_load(o->sidecar, &e) : sidecar_load_for_trace(o->path, &e);
	if (!d->sc) {
		if (!o->sidecar && e.code == ENOENT) {
			snprintf(d->sidecar_note, sizeof(d->sidecar_note),
				 "none (%s.json not found)", o->path);
			return 0;
		}
		sr_error_set(err, e.code ? e.code : EINVAL, "%s: sidecar: %s (%s)", o->path, e.msg,
			     o->sidecar ? "--no-sidecar ignores sidecars" :
			     "--sidecar FILE names another, --no-sidecar ignores it");
		return -1;
	}
	if (sidecar_check_trace(d->sc, in, o->path, &d->sidecar_id_checked, err))
		return -1;
	return 0;
}

/*
 * cgroup-v1 cpu hierarchy without its id (sidecars before the hierarchy_id
 * field): moves into the paths it had at the
 * start, or below the cgroup of one of the capture's groups (a workload that
 * makes its own sub-groups; the capture created those cgroups in the cpu
 * hierarchy only).
 */
static bool follow_known_cgroup(void *ctx, const struct trace_cgroup_attach_task *g)
{
	const struct sidecar *sc = ctx;
	char path[4096];

	if (g->dst_path_len >= sizeof(path))
		return false;
	memcpy(path, g->dst_path, g->dst_path_len);
	path[g->dst_path_len] = '\0';
	if (sidecar_find_cgroup(sc, path))
		return true;
	for (size_t i = 0; i < sc->nr_groups; i++) {
		const char *cg = sc->groups[i].cgroup;
		size_t n = cg ? strlen(cg) : 0;

		if (n > 1 && !strncmp(path, cg, n) && path[n] == '/')
			return true;
	}
	return false;
}

/* Which cgroup_attach_task moves the machine follows, and why. */
static void cgroup_policy(const struct report_opts *o, struct report_data *d,
			  struct lat_config *cfg)
{
	const struct sidecar *sc = d->sc;

	cfg->cgroup_root = o->cgroup_root;
	if (o->cgroup_root >= 0) {
		snprintf(d->cgroup_policy, sizeof(d->cgroup_policy), "hierarchy %d (--cgroup-root)",
			 o->cgroup_root);
	} else if (sc && sc->cgroup_version && sc->cgroup_hierarchy_id >= 0) {
		cfg->cgroup_root = sc->cgroup_hierarchy_id;
		snprintf(d->cgroup_policy, sizeof(d->cgroup_policy),
			 "hierarchy %d (the cpu controller's, from the sidecar)",
			 sc->cgroup_hierarchy_id);
	} else if (sc && sc->cgroup_version == 2) {
		/* the unified hierarchy is hierarchy 0 (cgrp_dfl_root) */
		cfg->cgroup_root = 0;
		snprintf(d->cgroup_policy, sizeof(d->cgroup_policy),
			 "hierarchy 0 (cgroup v2, from the sidecar)");
	} else if (sc && sc->cgroup_version == 1) {
		/*
		 * The sidecar lists the cpu hierarchy's cgroups but not its id:
		 * a move in another v1 hierarchy (memory, systemd, ...) into a
		 * path the cpu hierarchy lacks is not a cpu cgroup change.
		 */
		cfg->cgroup_follow = follow_known_cgroup;
		cfg->cgroup_follow_ctx = d->sc;
		snprintf(d->cgroup_policy, sizeof(d->cgroup_policy),
			 "cgroup v1: moves into the %zu cgroups of the sidecar's cpu hierarchy "
			 "or below its groups' cgroups, any hierarchy id (--cgroup-root ID "
			 "picks one)", sc->nr_cgroups);
	} else {
		snprintf(d->cgroup_policy, sizeof(d->cgroup_policy), "any hierarchy%s",
			 sc ? " (the sidecar found no cpu controller)" : "");
	}
}

static int seed_cgroups(struct report_data *d, struct sr_error *err)
{
	const struct sidecar *sc = d->sc;

	if (!sc)
		return 0;
	for (size_t i = 0; i < sc->nr_tasks; i++) {
		if (lat_tgid_seed(d->lat, sc->tasks[i].pid, sc->tasks[i].tgid)) {
			sr_error_set(err, ENOMEM, "out of memory");
			return -1;
		}
		if (!sc->tasks[i].cgroup)
			continue;
		if (lat_cgroup_seed(d->lat, sc->tasks[i].pid, sc->tasks[i].cgroup)) {
			sr_error_set(err, ENOMEM, "out of memory");
			return -1;
		}
		d->sidecar_seeded++;
	}
	snprintf(d->sidecar_note, sizeof(d->sidecar_note), "%s (%zu tasks' cgroups%s)",
		 sc->path, d->sidecar_seeded,
		 d->sidecar_id_checked ? ", trace id matches" : ", no trace id to check");
	return 0;
}

/*
 * Comms and paths as in the text report (cli.h, sr_esc()): a tab, a newline
 * or a terminal escape would break the tab-separated line; a byte that is
 * not UTF-8 is written \xNN too.
 */
static void put_field(FILE *f, const char *s)
{
	char buf[CLI_ESC_MAX + 4];

	sr_esc(buf, sizeof(buf), s, SR_ESC_TEXT);
	fputs(buf, f);
}

/* A write to --samples failed: its errno kept for the error line (ENOSPC, ...). */
static void sample_failed(struct report_data *d)
{
	if (!d->samples_failed)
		d->samples_errno = errno;
	d->samples_failed = true;
}

/* The --samples sink: one line per final sample of the filtered set. */
static void write_sample(void *ctx, const struct lat_sample *s)
{
	struct report_data *d = ctx;

	if (!lat_filter_match(d->lat, s->comm, s->pid))
		return;
	if (fprintf(d->samples, "%s\t%d\t%d\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%s\t",
		    s->kind == LAT_WAKEUP ? "wakeup" : "runq", s->pid, s->cpu, s->start_ts,
		    s->end_ts, s->latency_ns, trace_event_type_name(s->start_event)) < 0)
		sample_failed(d);
	put_field(d->samples, s->comm);
	fputc('\t', d->samples);
	put_field(d->samples, s->cgroup ? s->cgroup : "");
	if (fputc('\n', d->samples) == EOF)
		sample_failed(d);
	d->samples_written++;
}

/*
 * The reader merges the CPUs by time, so its stream only goes back when one
 * CPU's records do: a damaged page header or record (a timestamp or time
 * extend), or pages out of order. Reading on would count the same interval
 * twice or a negative one, and the replay would simulate the jump.  Cold
 * and apart: the per-event callbacks below then need no saved registers.
 */
static __attribute__((cold, noinline)) void
time_goes_back(const char *path, const struct trace_event *ev, int prev_cpu, uint64_t prev_ts,
	       struct sr_error *err)
{
	char where[64];

	sr_error_set(err, EINVAL, "%s: corrupted data: %s: event at %" PRIu64 ".%09" PRIu64
		     " s is earlier than the one before it (CPU %d, %" PRIu64 ".%09" PRIu64
		     " s): the timestamps go back", path, trace_event_where(ev, where, sizeof(where)),
		     ev->ts / 1000000000, ev->ts % 1000000000, prev_cpu, prev_ts / 1000000000,
		     prev_ts % 1000000000);
}

/*
 * A day without one event on any CPU: Linux runs kernel threads (RCU, the
 * vmstat and writeback workers) every few seconds, so sched_switch never
 * pauses that long; a record timestamp with a high bit flipped does (the
 * last page of a CPU, where no later page shows the time going back).
 */
#define REPORT_MAX_GAP_NS (86400ull * 1000000000)

static __attribute__((cold, noinline)) void
gap_too_long(const char *path, const struct trace_event *ev, uint64_t prev_ts,
	     struct sr_error *err)
{
	char where[64];

	sr_error_set(err, EINVAL, "%s: corrupted data: %s: event at %" PRIu64 ".%09" PRIu64
		     " s comes %" PRIu64 " s after the one before it, with no event on any CPU in "
		     "between: a damaged timestamp", path, trace_event_where(ev, where, sizeof(where)),
		     ev->ts / 1000000000, ev->ts % 1000000000, (ev->ts - prev_ts) / 1000000000);
}

/*
 * A CPU number of TRACE_MAX_CPUS or more (trace_event_impossible_cpu()):
 * replay refuses it, so report does too. Before 2 Dec 2026 report read on
 * with exit 0: a sched_wakeup with target_cpu=5000 in a 2-CPU trace took
 * its task as woken onto another CPU, leaving its own untraced. In a
 * trace.dat, a CPU number at or above its CPU count (@limit: the kernel's
 * nr_cpu_ids) is damage, the line replay gives: before 3 Dec 2026 report
 * read a target_cpu of 2 in a 2-CPU trace.dat at exit 0, its header still
 * saying "2 CPUs".
 */
static __attribute__((cold, noinline)) void
cpu_too_high(const char *path, const struct trace_info *in, int32_t limit,
	     const struct trace_event *ev, struct sr_error *err)
{
	struct trace_bad_value b;
	struct sr_error e = { 0 };
	char where[64];

	trace_event_where(ev, where, sizeof(where));
	if (limit < TRACE_MAX_CPUS && trace_event_cpu_past(ev, limit, &b)) {
		trace_cpu_past_error(ev, &b, in, where, &e);
		sr_error_set(err, e.code, "%s: %s", path, e.msg);
		return;
	}
	sr_error_set(err, EINVAL, "%s: %s: %s names CPU %d: report, as replay, takes at most %d "
		     "CPUs (corrupted data, or a larger machine)", path, where,
		     ev->name ? ev->name : "an event", trace_event_impossible_cpu(ev),
		     TRACE_MAX_CPUS);
}

/*
 * A pid, prio or CPU number no kernel writes (trace_event_bad_value()):
 * replay refuses it, so report does too. Before 3 Dec 2026 report read on
 * with exit 0: every next_pid of a trace set to -2^31 gave "0 total
 * samples", a negative target_cpu a task woken nowhere.
 */
static __attribute__((cold, noinline)) void
bad_value(const char *path, const struct trace_event *ev, const struct trace_bad_value *b,
	  struct sr_error *err)
{
	struct sr_error e = { 0 };
	char where[64];

	trace_bad_value_error(ev, b, trace_event_where(ev, where, sizeof(where)), &e);
	sr_error_set(err, e.code, "%s: %s", path, e.msg);
}

/*
 * An event on a CPU the sidecar lists offline: replay refuses it
 * (sidecar_event_offline_cpu(), the same line), so report does too.  Before
 * 2 Dec 2026 report counted it at exit 0: a wakeup onto an offline CPU, a
 * latency sample of a CPU the kernel never ran.  -1 (error set) or 0.
 */
static __attribute__((cold, noinline)) int
offline_event(const char *path, const struct sidecar *sc, const struct trace_event *ev,
	      struct sr_error *err)
{
	struct sr_error e = { 0 };
	char where[64];

	if (sidecar_event_offline_cpu(sc, ev, trace_event_where(ev, where, sizeof(where)), &e) < 0)
		return 0;
	sr_error_set(err, e.code, "%s: %s", path, e.msg);
	return -1;
}

/* The state of the pass over the events: trace_consume()'s context. */
struct pass {
	const struct report_opts *o;
	struct report_data *d;
	struct sr_error *err;
	uint64_t prev_ts;
	int prev_cpu;
	int32_t cpu_limit;      /* trace_cpu_limit(): no event names a CPU from here up */
	bool sc_offline;        /* the sidecar lists offline CPUs: check each event */
};

/* What every event gets: the order and gap checks (then a loss before it). */
static inline __attribute__((always_inline)) int
pass_order(struct pass *p, const struct trace_event *ev)
{
	struct trace_bad_value bad;

	if (ev->ts < p->prev_ts) {
		time_goes_back(p->o->path, ev, p->prev_cpu, p->prev_ts, p->err);
		return -1;
	}
	if (p->prev_ts && ev->ts - p->prev_ts > REPORT_MAX_GAP_NS) {
		gap_too_long(p->o->path, ev, p->prev_ts, p->err);
		return -1;
	}
	if (__builtin_expect(trace_event_bad_value(ev, &bad), 0)) {
		bad_value(p->o->path, ev, &bad, p->err);
		return -1;
	}
	if (__builtin_expect(trace_event_cpu_from(ev, p->cpu_limit) >= 0, 0)) {
		cpu_too_high(p->o->path, p->d->info, p->cpu_limit, ev, p->err);
		return -1;
	}
	if (__builtin_expect(p->sc_offline, 0) && offline_event(p->o->path, p->d->sc, ev, p->err))
		return -1;
	p->prev_ts = ev->ts;
	p->prev_cpu = ev->cpu;
	return 0;
}

static inline __attribute__((always_inline)) int
pass_event(struct pass *p, const struct trace_event *ev, uint64_t lost)
{
	if (pass_order(p, ev))
		return -1;
	if (lost)
		lat_machine_lost(p->d->lat, ev->cpu, lost);
	return 0;
}

/*
 * The latency machine's entry for the type: the reader's decoder has already
 * dispatched on it (trace_consume()). Its -1 (out of memory) returns as it
 * is, a tail call: report_collect() names the error, the only one a
 * callback returns without setting it. An event after lost ones goes
 * through name##_lost(), out of line: with no call but the tail call left,
 * the callback saves no registers (its push/pop pairs were ~6 of its ~25
 * instructions per event).
 */
#define PASS_TYPED(name, feed)                                                  \
	static __attribute__((noinline, cold)) int                              \
	name##_lost(struct pass *p, const struct trace_event *ev, uint64_t lost) \
	{                                                                       \
		lat_machine_lost(p->d->lat, ev->cpu, lost);                     \
		p->d->sched_events++;                                           \
		return feed(p->d->lat, ev);                                     \
	}                                                                       \
	static int name(void *ctx, const struct trace_event *ev, uint64_t lost) \
	{                                                                       \
		struct pass *p = ctx;                                           \
                                                                                \
		if (pass_order(p, ev))                                          \
			return -1;                                              \
		if (lost)                                                       \
			return name##_lost(p, ev, lost);                        \
		p->d->sched_events++;                                           \
		return feed(p->d->lat, ev);                                     \
	}
PASS_TYPED(pass_switch, lat_machine_feed_switch)
PASS_TYPED(pass_wakeup, lat_machine_feed_wakeup)
PASS_TYPED(pass_stat_runtime, lat_machine_feed_stat_runtime)

static int pass_other(void *ctx, const struct trace_event *ev, uint64_t lost)
{
	struct pass *p = ctx;

	if (pass_event(p, ev, lost))
		return -1;
	/* the syscall events are counted by name only, as any other event */
	if (ev->type == TRACE_EV_OTHER || trace_event_is_syscall(ev->type))
		return 0;
	p->d->sched_events++;
	return lat_machine_feed(p->d->lat, ev);
}

int report_collect(const struct report_opts *o, struct report_data *d, struct sr_error *err)
{
	struct trace_open_opts topts = { .buffer = o->buffer, .backend = o->backend,
					 .repair = o->repair };
	struct lat_config cfg;
	struct sr_error perr = { 0 };
	struct pass p = { .o = o, .d = d, .err = &perr };
	const struct trace_consumer cons = {
		.sched_switch = pass_switch,
		.sched_wakeup = pass_wakeup,
		.sched_stat_runtime = pass_stat_runtime,
		.other = pass_other,
		.ctx = &p,
	};
	struct timespec t0, t1;
	const char *name;
	uint64_t count;
	int ret;

	memset(d, 0, sizeof(*d));
	d->reader = trace_open(o->path, &topts, err);
	if (!d->reader)
		return -1;
	d->info = trace_get_info(d->reader);
	if (load_sidecar(o, d, err))
		return -1;
	p.sc_offline = sidecar_nr_offline(d->sc) > 0;
	p.cpu_limit = trace_cpu_limit(d->info);
	lat_config_default(&cfg);
	cfg.start_mode = o->start_mode;
	cfg.comm_prefix = o->comm_prefix;
	cfg.pid = o->pid;
	cgroup_policy(o, d, &cfg);
	for (int k = 0; k < LAT_NR_KEYS; k++)
		cfg.group_by[k] = o->by[k];
	/* the output reads the distributions in this thread, and few of them */
	cfg.settle_when_read = true;
	cfg.infer_lost_switches = true;
	/* the wakeup paths' own latency (report_text.c's table, lat_json_paths()) */
	cfg.path_latency = true;
	if (o->samples_path) {
		d->samples = fopen(o->samples_path, "w");
		if (!d->samples) {
			sr_error_set(err, errno, "%s: cannot write the samples: %s", o->samples_path,
				     strerror(errno));
			return -1;
		}
		fprintf(d->samples, "# kind\tpid\tcpu\tstart_ns\tend_ns\tlatency_ns\tstart_event"
			"\tcomm\tcgroup\n");
		cfg.sink = write_sample;
		cfg.sink_ctx = d;
	}
	d->lat = lat_machine_new(&cfg, err);
	if (!d->lat)
		return -1;
	if (seed_cgroups(d, err))
		return -1;
	if (o->prepare && o->prepare(d->lat, o->prepare_ctx, err))
		return -1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = trace_consume(d->reader, &cons, &perr);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	d->read_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (ret < 0) {
		if (perr.msg[0] && err)
			*err = perr;
		else
			sr_error_set(err, ENOMEM, "%s: out of memory", o->path);
		return -1;
	}
	if (lat_machine_finish(d->lat, d->info->last_ts)) {
		sr_error_set(err, ENOMEM, "%s: out of memory", o->path);
		return -1;
	}
	if (d->samples) {
		/*
		 * The reason, as replay's --dump-samples gives it: "/dev/full:
		 * writing the samples failed" did not say the disk was full
		 * (fuzz41). The first failed write's errno, else the flush's or
		 * the close's (a buffered write fails there first).
		 */
		int e = d->samples_errno, bad = d->samples_failed | ferror(d->samples);

		errno = 0;
		if (fflush(d->samples)) {
			bad = 1;
			if (!e)
				e = errno;
		}
		errno = 0;
		if (fclose(d->samples)) {
			bad = 1;
			if (!e)
				e = errno;
		}
		d->samples = NULL;
		if (bad) {
			sr_error_set(err, e ? e : EIO, "%s: writing the samples failed: %s",
				     o->samples_path, strerror(e ? e : EIO));
			return -1;
		}
	}
	d->events = trace_events_read(d->reader);
	for (int c = 0; d->info->repair_cpus && c < d->info->repair_nr_cpus; c++)
		d->restored += d->info->repair_cpus[c].restored;

	for (size_t i = 0; trace_event_count_at(d->reader, i, &name, &count); i++)
		d->nr_counts++;
	d->counts = calloc(d->nr_counts ? d->nr_counts : 1, sizeof(*d->counts));
	d->nr_cpus = trace_nr_cpus(d->reader);
	d->lost_per_cpu = calloc((size_t)d->nr_cpus + 1, sizeof(*d->lost_per_cpu));
	d->lost_unknown_per_cpu = calloc((size_t)d->nr_cpus + 1, sizeof(bool));
	if (!d->counts || !d->lost_per_cpu || !d->lost_unknown_per_cpu) {
		sr_error_set(err, ENOMEM, "%s: out of memory", o->path);
		return -1;
	}
	for (size_t i = 0; trace_event_count_at(d->reader, i, &name, &count); i++)
		d->counts[i] = (struct report_count){ name, count };
	qsort(d->counts, d->nr_counts, sizeof(*d->counts), cmp_count);

	for (int c = 0; c < d->nr_cpus; c++) {
		d->lost_per_cpu[c] = trace_lost_events(d->reader, c, &d->lost_unknown_per_cpu[c]);
		d->lost_total += d->lost_per_cpu[c];
		d->lost_unknown |= d->lost_unknown_per_cpu[c];
		if (d->lost_per_cpu[c])
			warn(d, "CPU %d: %s%" PRIu64 " events lost (ring buffer overrun); latency "
			     "intervals spanning the gap were dropped", c,
			     d->lost_unknown_per_cpu[c] ? "at least " : "", d->lost_per_cpu[c]);
	}
	/*
	 * The sidecar's counters against the trace's gaps: events the kernel
	 * dropped without a mark (dropped_events, commit_overrun) read as a
	 * complete trace, "lost: none" at exit 0.
	 */
	sidecar_lost_compare(d->sc, d->lost_per_cpu, d->lost_unknown_per_cpu, d->nr_cpus,
			     &d->lost_sc);
	for (int i = 0; i < d->lost_sc.nr_text; i++)
		warn(d, "%s", d->lost_sc.text[i]);

	if (!d->events) {
		sr_error_set(err, EINVAL, "%s: buffer '%s' holds no events", o->path,
			     d->info->buffer);
		return -1;
	}
	if (!report_count_of(d, "sched_switch")) {
		if (d->info->buffer_also)
			sr_error_set(err, EINVAL, "%s: no sched_switch events in buffer '%s' (%" PRIu64
				     " events of other types); other buffers hold sched events: %s "
				     "(--buffer NAME reads one)", o->path, d->info->buffer, d->events,
				     d->info->buffer_also);
		else
			sr_error_set(err, EINVAL, "%s: no sched_switch events in buffer '%s' (%" PRIu64
				     " events of other types; capture with sched:sched_switch "
				     "enabled)", o->path, d->info->buffer, d->events);
		return -1;
	}
	if (!report_count_of(d, "sched_waking")) {
		if (report_count_of(d, "sched_wakeup"))
			warn(d, "no sched_waking events: sched_wakeup starts the wakeup latency "
			     "interval (later than sched_waking, so latencies are shorter)");
		else
			warn(d, "no sched_waking or sched_wakeup events: no wakeup latency");
	}
	return 0;
}

void report_data_release(struct report_data *d)
{
	if (!d)
		return;
	lat_machine_free(d->lat);
	trace_close(d->reader);
	sidecar_free(d->sc);
	if (d->samples)
		fclose(d->samples);
	free(d->counts);
	free(d->lost_per_cpu);
	free(d->lost_unknown_per_cpu);
	memset(d, 0, sizeof(*d));
}
