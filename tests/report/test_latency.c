// SPDX-License-Identifier: GPL-2.0
/*
 * The wakeup-latency machine on hand-built event sequences, each with its
 * exact expected samples: waking while running, pending wakeups, missing
 * sched_waking, the AUTO decision, new tasks, pid reuse, preemption waits,
 * tasks running before the trace, exec comm changes, lost events, cgroups.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <schedreplay/latency.h>

static int failures;

#define EQ(what, got, want)                                                                \
	do {                                                                               \
		uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                      \
		if (g_ != w_) {                                                            \
			fprintf(stderr, "FAIL %s:%d: %s: %s: got %" PRIu64 ", expected %" PRIu64 "\n", \
				__FILE__, __LINE__, current, what, g_, w_);                \
			failures++;                                                        \
		}                                                                          \
	} while (0)

static const char *current;

struct got {
	int n;
	struct {
		enum lat_kind kind;
		int32_t pid;
		char comm[16];
		uint64_t lat, start_ts, end_ts;
		enum trace_event_type start;
		enum lat_path path;
	} s[64];
};

static void sink(void *ctx, const struct lat_sample *s)
{
	struct got *g = ctx;

	if (g->n == 64)
		return;
	g->s[g->n].kind = s->kind;
	g->s[g->n].pid = s->pid;
	snprintf(g->s[g->n].comm, 16, "%s", s->comm);
	g->s[g->n].lat = s->latency_ns;
	g->s[g->n].start_ts = s->start_ts;
	g->s[g->n].end_ts = s->end_ts;
	g->s[g->n].start = s->start_event;
	g->s[g->n].path = s->path;
	g->n++;
}

static struct lat_machine *m;
static struct got got;
static bool infer;                     /* lat_config.infer_lost_switches, as report sets it */
static bool path_lat;                  /* lat_config.path_latency, as replay sets it */
static bool no_cgroups;                /* no by-cgroup groups (replay has them) */

static void begin(const char *name, enum lat_start_mode mode)
{
	struct lat_config cfg;

	current = name;
	memset(&got, 0, sizeof(got));
	lat_config_default(&cfg);
	cfg.start_mode = mode;
	cfg.group_by[LAT_BY_CGROUP] = !no_cgroups;
	cfg.sink = sink;
	cfg.sink_ctx = &got;
	cfg.infer_lost_switches = infer;
	cfg.path_latency = path_lat;
	m = lat_machine_new(&cfg, NULL);
}

static void feed(struct trace_event *ev)
{
	if (lat_machine_feed(m, ev))
		EQ("feed", 1, 0);
}

static void sw(uint64_t ts, int cpu, int32_t prev, enum trace_task_state st, int32_t next,
	       const char *next_comm)
{
	struct trace_event ev = { .type = TRACE_EV_SCHED_SWITCH, .cpu = cpu, .ts = ts,
				  .common_pid = prev };

	ev.u.sched_switch.prev_pid = prev;
	ev.u.sched_switch.prev_run = st;
	ev.u.sched_switch.prev_preempt = st == TRACE_STATE_RUNNING;
	snprintf(ev.u.sched_switch.prev_comm, 16, "p%d", prev);
	ev.u.sched_switch.next_pid = next;
	snprintf(ev.u.sched_switch.next_comm, 16, "%s", next_comm);
	feed(&ev);
}

static void wake(enum trace_event_type t, uint64_t ts, int cpu, int32_t waker, int32_t pid)
{
	struct trace_event ev = { .type = t, .cpu = cpu, .ts = ts, .common_pid = waker };

	ev.u.wakeup.pid = pid;
	ev.u.wakeup.success = 1;
	snprintf(ev.u.wakeup.comm, 16, "w%d", pid);
	feed(&ev);
}

/* a wake event of @pid onto @target (its target_cpu) */
static void wake_to(enum trace_event_type t, uint64_t ts, int cpu, int32_t waker, int32_t pid,
		    int target)
{
	struct trace_event ev = { .type = t, .cpu = cpu, .ts = ts, .common_pid = waker };

	ev.u.wakeup.pid = pid;
	ev.u.wakeup.success = 1;
	ev.u.wakeup.target_cpu = target;
	snprintf(ev.u.wakeup.comm, 16, "w%d", pid);
	feed(&ev);
}

/* sched_waking of @pid on the waker's CPU @cpu (target_cpu: its previous CPU, 3), sched_wakeup onto @target */
static void waking_to(uint64_t ts, int cpu, int32_t waker, int32_t pid, int target)
{
	wake_to(TRACE_EV_SCHED_WAKING, ts, cpu, waker, pid, 3);
	wake_to(TRACE_EV_SCHED_WAKEUP, ts + 1, cpu, waker, pid, target);
}

/* The wakeup samples' paths in got (in order) against @want, and the machine's counts */
static void expect_paths(const enum lat_path *want, int n)
{
	uint64_t cnt[LAT_PATH_NR] = { 0 };
	const uint64_t *all = lat_get_all_paths(m);
	int k = 0;

	for (int i = 0; i < got.n; i++) {
		if (got.s[i].kind != LAT_WAKEUP)
			continue;
		if (k < n && got.s[i].path != want[k]) {
			fprintf(stderr, "FAIL %s: wakeup sample %d (pid %d): path %s, expected %s\n",
				current, k, (int)got.s[i].pid, lat_path_name(got.s[i].path),
				lat_path_name(want[k]));
			failures++;
		}
		k++;
	}
	EQ("wakeup samples", k, n);
	for (int i = 0; i < n; i++)
		cnt[want[i]]++;
	for (int p = 0; p < LAT_PATH_NR; p++)
		EQ(lat_path_name(p), all[p], cnt[p]);
	EQ("paths total", lat_paths_total(all), n);
}

/*
 * Path @p's latency histogram (lat_config.path_latency): its samples, and its
 * p50 and p99 (ns; exact below 128 ns)
 */
static void expect_path_lat(enum lat_path p, uint64_t n, uint64_t p50, uint64_t p99)
{
	const struct sr_hist *h = lat_get_all_path_latency(m, p);
	char what[64];

	snprintf(what, sizeof(what), "%s: samples", lat_path_name(p));
	EQ(what, h->count, n);
	snprintf(what, sizeof(what), "%s: p50", lat_path_name(p));
	EQ(what, sr_hist_percentile(h, 50), p50);
	snprintf(what, sizeof(what), "%s: p99", lat_path_name(p));
	EQ(what, sr_hist_percentile(h, 99), p99);
}

static void stat_rt(uint64_t ts, int cpu, int32_t ctx, int32_t pid, uint64_t runtime)
{
	struct trace_event ev = { .type = TRACE_EV_SCHED_STAT_RUNTIME, .cpu = cpu, .ts = ts,
				  .common_pid = ctx };

	ev.u.stat_runtime.pid = pid;
	ev.u.stat_runtime.runtime = runtime;
	snprintf(ev.u.stat_runtime.comm, 16, "p%d", pid);
	feed(&ev);
}

static void fork_ev(uint64_t ts, int cpu, int32_t parent, int32_t child)
{
	struct trace_event ev = { .type = TRACE_EV_SCHED_PROCESS_FORK, .cpu = cpu, .ts = ts,
				  .common_pid = parent };

	ev.u.fork.parent_pid = parent;
	ev.u.fork.child_pid = child;
	snprintf(ev.u.fork.child_comm, 16, "c%d", child);
	feed(&ev);
}

/* sched_process_exit with the tracepoint's group_dead (6.16+; -1: no such field) */
static void exit_gd(uint64_t ts, int cpu, int32_t pid, int32_t group_dead)
{
	/* do_exit() writes it in the exiting task's context */
	struct trace_event ev = { .type = TRACE_EV_SCHED_PROCESS_EXIT, .cpu = cpu, .ts = ts,
				  .common_pid = pid };

	ev.u.exit.pid = pid;
	ev.u.exit.group_dead = group_dead;
	snprintf(ev.u.exit.comm, 16, "p%d", pid);
	feed(&ev);
}

/* a thread's exit (group_dead false) */
static void exit_ev(uint64_t ts, int cpu, int32_t pid)
{
	exit_gd(ts, cpu, pid, 0);
}

static void exec_ev(uint64_t ts, int cpu, int32_t pid, int32_t old_pid)
{
	/* exec_binprm() writes it in the exec'ing task's context, its new pid */
	struct trace_event ev = { .type = TRACE_EV_SCHED_PROCESS_EXEC, .cpu = cpu, .ts = ts,
				  .common_pid = pid };

	ev.u.exec.filename = "/bin/true";
	ev.u.exec.filename_len = 9;
	ev.u.exec.pid = pid;
	ev.u.exec.old_pid = old_pid;
	feed(&ev);
}

static void attach(uint64_t ts, int cpu, int32_t pid, const char *path)
{
	struct trace_event ev = { .type = TRACE_EV_CGROUP_ATTACH_TASK, .cpu = cpu, .ts = ts,
				  .common_pid = pid };

	ev.u.cgroup_attach.pid = pid;
	ev.u.cgroup_attach.dst_path = path;
	ev.u.cgroup_attach.dst_path_len = strlen(path);
	feed(&ev);
}

static void attach_root(uint64_t ts, int cpu, int32_t pid, int root, const char *path)
{
	/* written by another task (a cgroup manager), which is current on @cpu */
	struct trace_event ev = { .type = TRACE_EV_CGROUP_ATTACH_TASK, .cpu = cpu, .ts = ts,
				  .common_pid = 99 };

	ev.u.cgroup_attach.pid = pid;
	ev.u.cgroup_attach.dst_root = root;
	ev.u.cgroup_attach.dst_path = path;
	ev.u.cgroup_attach.dst_path_len = strlen(path);
	feed(&ev);
}

/* A cgroup_follow callback: every path but "/x" (not NUL-terminated in events). */
static bool follow_not_x(void *ctx, const struct trace_cgroup_attach_task *g)
{
	(void)ctx;
	return !(g->dst_path_len == 2 && !memcmp(g->dst_path, "/x", 2));
}

static const struct lat_task *task_of(int32_t pid, int nth)
{
	for (size_t i = 0; i < lat_nr_tasks(m); i++) {
		const struct lat_task *t = lat_task_at(m, i);

		if (t->pid == pid && nth-- == 0)
			return t;
	}
	return NULL;
}

static void end(uint64_t ts)
{
	EQ("finish", lat_machine_finish(m, ts), 0);
}

#define W TRACE_EV_SCHED_WAKING
#define U TRACE_EV_SCHED_WAKEUP
#define N TRACE_EV_SCHED_WAKEUP_NEW
#define S TRACE_STATE_SLEEPING
#define R TRACE_STATE_RUNNING
#define X TRACE_STATE_DEAD

/*
 * A task switched in without a sched_switch record shows up by its own
 * events (revealed_run()): its wakeup interval, or run-queue wait, ends at
 * the first of them, not at its next traced switch-in.  The shapes of the
 * bundled captures: make-probe's kworker/1:1, woken by the guest agent's
 * tokio-rt-worker on CPU 1, ran 10 us later with neither switch traced and
 * was measured at 601 ms (its next wakeup's switch-in); bw-hogs-run3's
 * kworker/1:2, woken by an interrupt on idle CPU 1, switched in untraced
 * and shown by its sched_stat_runtime, at 645 ms.
 */
/* @pid's @k-th sample of kind @kind in got (its latency), or UINT64_MAX */
static uint64_t sample_of(int32_t pid, enum lat_kind kind, int k)
{
	for (int i = 0; i < got.n; i++)
		if (got.s[i].pid == pid && got.s[i].kind == kind && k-- == 0)
			return got.s[i].lat;
	return UINT64_MAX;
}

static void test_revealed_runs(void)
{
	const struct lat_task *t;

	infer = true;           /* as report and the replay's extraction set it */
	begin("revealed: another task's switch-in untraced, then the wakee's", LAT_START_AUTO);
	sw(10, 1, 0, S, 70, "t70");
	wake(W, 100, 1, 68, 300);               /* 68's event: 70 left untraced */
	wake(W, 110, 1, 300, 70);               /* 300's event: 68 left, 300 runs */
	stat_rt(112, 1, 300, 300, 4);
	sw(118, 1, 300, S, 70, "t70");
	wake(W, 500000, 0, 7, 300);             /* the next wakeup of 300 */
	sw(600000, 1, 70, R, 300, "kw");
	end(600100);
	t = task_of(300, 0);
	EQ("samples of 300", t ? t->lat[LAT_WAKEUP].count : 0, 2);
	EQ("sample 1 ends at 300's first event", sample_of(300, LAT_WAKEUP, 0), 10);
	EQ("  on an unknown path", got.n >= 1 && got.s[0].pid == 300 ? got.s[0].path : 0,
	   LAT_PATH_UNKNOWN);
	EQ("sample 2 is the next wakeup's", sample_of(300, LAT_WAKEUP, 1), 100000);
	EQ("no pending waking ignored", t ? t->wakings_pending : 1, 0);
	EQ("revealed", lat_get_summary(m)->intervals_revealed, 1);
	lat_machine_free(m);

	begin("revealed: on a CPU idle per the stream, by its sched_stat_runtime", LAT_START_AUTO);
	sw(10, 1, 5, S, 0, "swapper/1");
	wake(W, 100, 1, 0, 400);                /* an interrupt wakes 400 */
	wake(U, 103, 1, 0, 400);
	stat_rt(116, 1, 400, 400, 14);          /* 400 runs: switched in untraced */
	sw(118, 1, 400, S, 0, "swapper/1");
	wake(W, 200000, 1, 0, 400);
	sw(200020, 1, 0, S, 400, "kw2");
	end(200100);
	EQ("samples", got.n, 2);
	EQ("sample 1 ends at its first event", sample_of(400, LAT_WAKEUP, 0), 16);
	EQ("sample 2", sample_of(400, LAT_WAKEUP, 1), 20);
	lat_machine_free(m);

	begin("revealed: by its own switch out", LAT_START_AUTO);
	sw(10, 1, 5, S, 0, "swapper/1");
	wake(W, 100, 1, 0, 400);
	sw(130, 1, 400, S, 0, "swapper/1");
	end(200);
	EQ("samples", got.n, 1);
	EQ("to the switch out", sample_of(400, LAT_WAKEUP, 0), 30);
	lat_machine_free(m);

	begin("revealed: a preempted task's run-queue wait", LAT_START_AUTO);
	sw(10, 0, 0, S, 500, "a");
	sw(20, 0, 500, R, 600, "b");            /* 500 preempted */
	stat_rt(50, 0, 500, 500, 3);            /* 500 runs again: 600 left untraced */
	sw(60, 0, 500, S, 600, "b");
	end(100);
	t = task_of(500, 0);
	EQ("run-queue wait to its first event", t ? t->lat[LAT_RUNQ_WAIT].count : 0, 1);
	EQ("  of", sample_of(500, LAT_RUNQ_WAIT, 0), 30);
	lat_machine_free(m);
	infer = false;
}

int main(void)
{
	const struct lat_task *t;

	begin("basic", LAT_START_AUTO);
	wake(W, 1000, 0, 50, 100);
	sw(1500, 0, 50, S, 100, "worker");
	end(2000);
	EQ("samples", got.n, 1);
	EQ("latency", got.s[0].lat, 500);
	EQ("start", got.s[0].start, W);
	EQ("start_ts is the waking", got.s[0].start_ts, 1000);
	EQ("end_ts is the switch-in", got.s[0].end_ts, 1500);
	EQ("comm is next_comm", strcmp(got.s[0].comm, "worker"), 0);
	EQ("all", lat_get_all(m, LAT_WAKEUP)->count, 1);
	t = task_of(100, 0);
	EQ("runtime to the end", t->runtime_ns, 500);
	EQ("switches", t->switches, 1);
	lat_machine_free(m);

	begin("waking of a running task starts nothing", LAT_START_AUTO);
	sw(100, 0, 0, S, 100, "a");
	wake(W, 200, 1, 7, 100);
	sw(300, 0, 100, S, 0, "swapper");
	wake(W, 400, 1, 7, 100);
	sw(450, 0, 0, S, 100, "a");
	end(500);
	EQ("samples", got.n, 1);
	EQ("latency", got.s[0].lat, 50);
	EQ("wakings_running", task_of(100, 0)->wakings_running, 1);
	EQ("runtime", task_of(100, 0)->runtime_ns, 200 + 50);
	lat_machine_free(m);

	begin("a pending wakeup keeps the first waking", LAT_START_AUTO);
	wake(W, 100, 1, 7, 100);
	wake(W, 150, 1, 7, 100);
	sw(300, 0, 0, S, 100, "a");
	end(300);
	EQ("samples", got.n, 1);
	EQ("latency from the first waking", got.s[0].lat, 200);
	EQ("wakings_pending", task_of(100, 0)->wakings_pending, 1);
	lat_machine_free(m);

	/*
	 * lat_machine_mute_pending() (the replay's --early-wakes nosample):
	 * the interval stays open (a waking meanwhile starts nothing) and its
	 * switch-in gives no sample; the next interval is a sample again.
	 */
	begin("a muted wakeup interval ends with no sample", LAT_START_AUTO);
	sw(50, 0, 0, S, 100, "a");
	EQ("nothing open for a running task", lat_machine_mute_pending(m, 100), 0);
	sw(80, 0, 100, S, 0, "swapper");
	EQ("nothing open for an asleep task", lat_machine_mute_pending(m, 100), 0);
	EQ("nor for an unknown pid", lat_machine_mute_pending(m, 555), 0);
	wake(W, 100, 1, 7, 100);
	EQ("muted", lat_machine_mute_pending(m, 100), 1);
	wake(W, 150, 1, 7, 100);
	sw(300, 0, 0, S, 100, "a");
	EQ("no sample", got.n, 0);
	sw(320, 0, 100, S, 0, "swapper");
	wake(W, 400, 1, 7, 100);
	sw(450, 0, 0, S, 100, "a");
	end(450);
	EQ("samples", got.n, 1);
	EQ("the next one counts", got.s[0].lat, 50);
	EQ("all", lat_get_all(m, LAT_WAKEUP)->count, 1);
	EQ("the waking meanwhile found it pending", task_of(100, 0)->wakings_pending, 1);
	EQ("samples_muted", lat_get_summary(m)->samples_muted, 1);
	EQ("switches in", task_of(100, 0)->switches, 3);
	lat_machine_free(m);

	begin("no sched_waking: sched_wakeup starts", LAT_START_AUTO);
	wake(U, 100, 1, 7, 100);
	sw(180, 0, 0, S, 100, "a");
	EQ("held back until decided", got.n, 0);
	end(200);
	EQ("samples", got.n, 1);
	EQ("latency", got.s[0].lat, 80);
	EQ("start", got.s[0].start, U);
	EQ("summary start", lat_get_summary(m)->start_event, U);
	lat_machine_free(m);

	begin("AUTO drops what sched_wakeup opened once sched_waking appears", LAT_START_AUTO);
	wake(U, 50, 1, 7, 200);
	sw(55, 1, 7, S, 201, "early");     /* 201 was never woken: no sample */
	wake(W, 60, 1, 7, 300);
	wake(U, 61, 1, 7, 300);            /* ignored once sched_waking is known */
	sw(70, 0, 0, S, 200, "b");
	sw(100, 1, 201, S, 300, "c");
	end(100);
	EQ("samples", got.n, 1);
	EQ("pid", got.s[0].pid, 300);
	EQ("latency from sched_waking", got.s[0].lat, 40);
	EQ("dropped", lat_get_summary(m)->provisional_dropped, 1);
	EQ("summary start", lat_get_summary(m)->start_event, W);
	lat_machine_free(m);

	begin("forced sched_wakeup mode ignores sched_waking", LAT_START_WAKEUP);
	wake(W, 10, 1, 7, 100);
	wake(U, 20, 1, 7, 100);
	sw(50, 0, 0, S, 100, "a");
	end(50);
	EQ("samples", got.n, 1);
	EQ("latency from sched_wakeup", got.s[0].lat, 30);
	lat_machine_free(m);

	begin("new task: sched_wakeup_new starts", LAT_START_AUTO);
	fork_ev(5, 0, 1, 400);
	wake(N, 10, 0, 1, 400);
	sw(35, 1, 0, S, 400, "child");
	end(40);
	EQ("samples", got.n, 1);
	EQ("latency", got.s[0].lat, 25);
	EQ("start", got.s[0].start, N);
	lat_machine_free(m);

	begin("pid reuse is a new task", LAT_START_AUTO);
	sw(10, 0, 0, S, 500, "old");
	sw(20, 0, 500, X, 0, "swapper");
	fork_ev(30, 1, 1, 500);
	wake(N, 31, 1, 1, 500);
	sw(40, 0, 0, S, 500, "new");
	end(50);
	EQ("tasks", lat_nr_tasks(m), 3);   /* 500, 1, 500 again */
	t = task_of(500, 0);
	EQ("old exited", t->exited, 1);
	EQ("old reused", t->reused, 1);
	EQ("old runtime", t->runtime_ns, 10);
	t = task_of(500, 1);
	EQ("new exists", t != NULL, 1);
	EQ("new switches", t->switches, 1);
	EQ("new runtime", t->runtime_ns, 10);
	EQ("new comm", strcmp(t->comm, "new"), 0);
	EQ("samples", got.n, 1);
	EQ("latency of the new task", got.s[0].lat, 9);
	lat_machine_free(m);

	begin("fork of a live pid (exit not seen) is a new task", LAT_START_AUTO);
	sw(10, 0, 0, S, 600, "a");
	fork_ev(20, 1, 1, 600);
	end(30);
	EQ("two tasks of 600", task_of(600, 1) != NULL, 1);
	lat_machine_free(m);

	begin("preemption: run-queue wait, not wakeup latency", LAT_START_AUTO);
	sw(0, 0, 0, S, 100, "a");
	sw(10, 0, 100, R, 101, "b");
	sw(40, 0, 101, S, 100, "a");
	end(50);
	EQ("samples", got.n, 1);
	EQ("kind", got.s[0].kind, LAT_RUNQ_WAIT);
	EQ("wait", got.s[0].lat, 30);
	EQ("preemptions", task_of(100, 0)->preemptions, 1);
	EQ("no wakeup sample", lat_get_all(m, LAT_WAKEUP)->count, 0);
	EQ("runq", lat_get_all(m, LAT_RUNQ_WAIT)->count, 1);
	lat_machine_free(m);

	/*
	 * Long waits (LAT_LONG_NS): strictly over 10 ms, of each kind, per group
	 * and in total.  100 waits exactly 10 ms (not long), 101 waits 10 ms + 1 ns
	 * runnable, then 100 waits 10 ms + 1 ns for its wakeup.
	 */
	begin("long waits: over 10 ms, per kind and group", LAT_START_AUTO);
	sw(0, 0, 0, S, 100, "a");
	sw(10, 0, 100, R, 101, "b");
	sw(10 + LAT_LONG_NS, 0, 101, R, 100, "a");
	sw(10 + 2 * LAT_LONG_NS + 1, 0, 100, S, 101, "b");
	wake(W, 3 * LAT_LONG_NS, 1, 7, 100);
	sw(4 * LAT_LONG_NS + 1, 0, 101, S, 100, "a");
	end(5 * LAT_LONG_NS);
	EQ("runq samples", lat_get_all(m, LAT_RUNQ_WAIT)->count, 2);
	EQ("runq over 10 ms", lat_get_all_over_long(m, LAT_RUNQ_WAIT), 1);
	EQ("wakeup over 10 ms", lat_get_all_over_long(m, LAT_WAKEUP), 1);
	for (size_t i = 0; i < lat_nr_groups(m, LAT_BY_COMM); i++) {
		const struct lat_group *g = lat_group_at(m, LAT_BY_COMM, i);
		bool a = !strcmp(g->key, "a");

		EQ(a ? "a: runq over 10 ms" : "b: runq over 10 ms", g->over_long[LAT_RUNQ_WAIT], !a);
		EQ(a ? "a: wakeup over 10 ms" : "b: wakeup over 10 ms", g->over_long[LAT_WAKEUP], a);
	}
	EQ("comm groups", lat_nr_groups(m, LAT_BY_COMM), 2);
	EQ("cgroup groups", lat_nr_groups(m, LAT_BY_CGROUP), 1);
	EQ("cgroup runq over 10 ms", lat_group_at(m, LAT_BY_CGROUP, 0)->over_long[LAT_RUNQ_WAIT], 1);
	lat_machine_free(m);

	begin("a task running before the trace, seen through common_pid", LAT_START_AUTO);
	wake(W, 5, 1, 700, 800);           /* 700 runs on CPU 1 */
	wake(W, 7, 0, 9, 700);             /* so waking it starts nothing */
	sw(20, 1, 700, S, 800, "x");
	end(20);
	EQ("wakings_running", task_of(700, 0)->wakings_running, 1);
	EQ("runtime since the CPU's first event", task_of(700, 0)->runtime_ns, 15);
	EQ("samples", got.n, 1);
	EQ("latency of 800", got.s[0].lat, 15);
	lat_machine_free(m);

	begin("exec changes the comm a sample belongs to", LAT_START_AUTO);
	wake(W, 0, 1, 7, 100);
	sw(10, 0, 0, S, 100, "sh");
	sw(20, 0, 100, S, 0, "swapper");
	wake(W, 30, 1, 7, 100);
	sw(50, 0, 0, S, 100, "hackbench");
	end(60);
	EQ("groups", lat_nr_groups(m, LAT_BY_COMM), 2);
	EQ("comm sh", strcmp(got.s[0].comm, "sh"), 0);
	EQ("comm hackbench", strcmp(got.s[1].comm, "hackbench"), 0);
	EQ("task comm is the last", strcmp(task_of(100, 0)->comm, "hackbench"), 0);
	lat_machine_free(m);

	begin("lost events drop open intervals", LAT_START_AUTO);
	wake(W, 0, 1, 7, 100);
	lat_machine_lost(m, 0, 42);
	sw(10, 0, 0, S, 100, "a");
	end(10);
	EQ("samples", got.n, 0);
	EQ("dropped", lat_get_summary(m)->intervals_dropped_lost, 1);
	lat_machine_free(m);

	begin("after a gap the CPU's next current runs from its first event", LAT_START_AUTO);
	sw(10, 0, 0, S, 10, "a");
	lat_machine_lost(m, 0, 1);
	stat_rt(30, 0, 11, 11, 5);
	sw(40, 0, 11, S, 0, "swapper");
	end(50);
	EQ("runtime from the guess, not from the CPU's first event", task_of(11, 0)->runtime_ns, 10);
	lat_machine_free(m);

	/*
	 * An untraced switch to idle: 10 is switched in at 10 on CPU 0,
	 * charged at 12 (its last event there), woken by 7 at 20 (its
	 * waking finds it "running"), and CPU 0 is seen idle at 30; it is
	 * switched in again at 50.  Inferred (report): it slept from 12, the
	 * waking is a 30 ns sample, 2 + 10 ns on CPU.  Not inferred: the
	 * run before the switch is dropped and the waking starts nothing.
	 */
	for (int k = 0; k < 2; k++) {
		infer = k == 0;
		begin(infer ? "untraced switch to idle, inferred" : "untraced switch to idle, raw",
		      LAT_START_AUTO);
		sw(10, 0, 0, S, 10, "a");
		stat_rt(12, 0, 10, 10, 2);
		wake(W, 20, 1, 7, 10);
		wake(W, 30, 0, 0, 12);          /* in idle's context on CPU 0 */
		sw(50, 0, 0, S, 10, "a");
		end(60);
		EQ("runtime", task_of(10, 0)->runtime_ns, infer ? 2 + 10 : 10);
		EQ("samples of 10", task_of(10, 0)->lat[LAT_WAKEUP].count, infer ? 1 : 0);
		EQ("the waking's sample", task_of(10, 0)->lat[LAT_WAKEUP].max, infer ? 30 : 0);
		EQ("wakings_running", task_of(10, 0)->wakings_running, infer ? 0 : 1);
		EQ("inferred", lat_get_summary(m)->lost_switches[LAT_LOST_IDLE], infer ? 1 : 0);
		lat_machine_free(m);
	}
	infer = false;

	/*
	 * Pid reuse while the old task is still in do_exit(): the pid is freed
	 * at exit_notify() (release_task(), or the parent's wait()), before the
	 * task's last switch (do_task_dead()), so a fork elsewhere may take it
	 * first.  500 runs on CPU 0 from 10, exits at 20; 1 forks a new 500 on
	 * CPU 1 at 30 (sched_wakeup_new at 31); the old 500 switches out dead
	 * at 40; the new one runs on CPU 1 from 45.  The old task's last
	 * switch is its own (30 ns on CPU), not the new task's: the new one
	 * keeps its sched_wakeup_new sample (14 ns) and is one task.
	 */
	/*
	 * (k & 2: the new task runs first, at 35, its switch-in restored by
	 * the reader's repair of an untraced idle exit: synthetic, before the
	 * old task's last switch.)
	 */
	for (int k = 0; k < 4; k++) {
		bool early = k & 2;
		uint64_t in = early ? 35 : 45;

		infer = k & 1;
		begin(early ? (infer ? "pid reused, new task in before the old task's last switch, inferred" :
				       "pid reused, new task in before the old task's last switch") :
			      (infer ? "pid reused before the old task's last switch, inferred" :
				       "pid reused before the old task's last switch"), LAT_START_AUTO);
		sw(10, 0, 0, S, 500, "old");
		exit_ev(20, 0, 500);
		fork_ev(30, 1, 1, 500);
		wake(N, 31, 1, 1, 500);
		if (early) {
			sw(33, 1, 1, S, 0, "swapper");
			sw(in, 1, 0, R, 500, "new");    /* restored */
			stat_rt(38, 1, 500, 500, 3);
		}
		stat_rt(39, 0, 500, 500, 29);           /* the old task's */
		sw(40, 0, 500, X, 0, "swapper");
		if (!early)
			sw(in, 1, 1, S, 500, "new");
		end(50);
		EQ("tasks", lat_nr_tasks(m), 3);   /* 500, 1, 500 again */
		t = task_of(500, 0);
		EQ("old exited", t->exited, 1);
		EQ("old runtime", t->runtime_ns, 30);
		EQ("old switches", t->switches, 1);
		t = task_of(500, 1);
		EQ("new exists", t != NULL, 1);
		if (t) {
			EQ("new not exited", t->exited, 0);
			EQ("new switches", t->switches, 1);
			EQ("new runtime", t->runtime_ns, 50 - in);
			EQ("new stat_runtime", t->stat_runtime_ns, early ? 3 : 0);
		}
		EQ("old stat_runtime", task_of(500, 0)->stat_runtime_ns, 29);
		EQ("samples", got.n, 1);
		EQ("the new task's sched_wakeup_new sample", got.s[0].lat, in - 31);
		lat_machine_free(m);
	}
	infer = false;

	/*
	 * The same with the old task's last switch not traced: CPU 0 is seen
	 * idle at 60 (a wakeup in idle's context).  The old task left at its
	 * last event (39), dead; the new task, running on CPU 1, is untouched.
	 */
	infer = true;
	begin("pid reused before the old task's untraced last switch", LAT_START_AUTO);
	sw(10, 0, 0, S, 500, "old");
	exit_ev(20, 0, 500);
	fork_ev(30, 1, 1, 500);
	wake(N, 31, 1, 1, 500);
	sw(35, 1, 1, S, 500, "new");
	stat_rt(39, 0, 500, 500, 29);
	wake(W, 60, 0, 0, 77);
	end(70);
	EQ("seen idle", lat_get_summary(m)->lost_switches[LAT_LOST_IDLE], 1);
	EQ("old runtime", task_of(500, 0)->runtime_ns, 29);
	EQ("old exited", task_of(500, 0)->exited, 1);
	t = task_of(500, 1);
	EQ("new exists", t != NULL, 1);
	if (t) {
		EQ("new not exited", t->exited, 0);
		EQ("new runtime", t->runtime_ns, 35);
	}
	EQ("tasks", lat_nr_tasks(m), 4);   /* 500, 1, 500 again, 77 */
	lat_machine_free(m);
	infer = false;

	/*
	 * An untraced switch left open (LAT_LOST_OTHER, undecided), and the pid
	 * reused with no event of the old task since (its exit and last switch
	 * not traced: the guest agent's tokio-rt-worker threads).  500 runs on
	 * CPU 0 from 10 (last event 12); 7 acts there at 20: 500 left at 12,
	 * blocked or preempted not known yet.  A new 500 is forked at 30, runs
	 * on CPU 1 from 40 (last event 42), and 8 acts there at 50; 7 switches
	 * the new 500 in on CPU 0 at 60.  The old switch is the old task's,
	 * closed at the reuse (it exited: blocked); the new one's open switch
	 * was on CPU 1, so the switch-in on CPU 0 says it blocked (no
	 * run-queue wait from the old task's 12), and it ran 2 + 10 ns.
	 */
	infer = true;
	begin("pid reused while the old task's untraced switch is open", LAT_START_AUTO);
	sw(10, 0, 0, S, 500, "old");
	stat_rt(12, 0, 500, 500, 2);
	wake(W, 20, 0, 7, 99);
	fork_ev(30, 1, 1, 500);
	wake(N, 31, 1, 1, 500);
	sw(40, 1, 1, S, 500, "new");
	stat_rt(42, 1, 500, 500, 2);
	wake(W, 50, 1, 8, 98);
	sw(60, 0, 7, S, 500, "new");
	end(70);
	EQ("switches found", lat_get_summary(m)->lost_switches[LAT_LOST_OTHER], 2);
	EQ("preempted", lat_get_summary(m)->lost_switch_preempted, 0);
	EQ("old runtime", task_of(500, 0)->runtime_ns, 2);
	t = task_of(500, 1);
	EQ("new exists", t != NULL, 1);
	if (t) {
		EQ("new runtime", t->runtime_ns, 2 + 10);
		EQ("new preemptions", t->preemptions, 0);
		EQ("new: no run-queue wait", t->lat[LAT_RUNQ_WAIT].count, 0);
	}
	EQ("no run-queue wait at all", lat_get_all(m, LAT_RUNQ_WAIT)->count, 0);
	lat_machine_free(m);
	infer = false;

	/*
	 * The old task preempted after its exit (do_exit() goes on past
	 * exit_notify(), which freed the pid): 500 runs on CPU 0 from 10,
	 * exits at 20, is preempted by 7 (R, at 25, or at 33 after the fork),
	 * and a fork on CPU 1 takes pid 500 at 30 (sched_wakeup_new at 31).
	 * The old task is queued on CPU 0: 7's switch to 500 there at 40 is
	 * its own (a run-queue wait of 40 - 25 or 40 - 33), and so is its
	 * last switch, X at 42.  The new one runs on CPU 1 from 35 (its
	 * sched_wakeup_new sample, 4) and blocks at 45.  (k & 2: the new task
	 * runs on CPU 0 instead, 36..38, preempted: its comm tells its
	 * switch-in there from the old task's.)  Main gave the switch-in at
	 * 40 and the X to the new task (killed, its run on CPU 1 cut, a third
	 * task for what followed) and left the old one queued forever.
	 */
	for (int k = 0; k < 8; k++) {
		bool early = k & 1, same_cpu = k & 2;
		uint64_t pre = early ? 25 : 33;

		infer = k & 4;
		begin(k == 0 ? "old task preempted after its exit, pid reused" :
		      k == 1 ? "old task preempted after its exit, then pid reused" :
		      k == 2 ? "old task preempted after its exit, pid reused, new one on its CPU" :
		      k == 3 ? "old task preempted after its exit, then pid reused, new one on its CPU" :
		      k == 4 ? "old task preempted after its exit, pid reused, inferred" :
		      k == 5 ? "old task preempted after its exit, then pid reused, inferred" :
		      k == 6 ? "old task preempted after its exit, pid reused, new one on its CPU, inferred" :
			       "old task preempted after its exit, then pid reused, new one on its CPU, inferred",
		      LAT_START_AUTO);
		sw(10, 0, 0, S, 500, "old");
		exit_ev(20, 0, 500);
		if (early)
			sw(pre, 0, 500, R, 7, "other");
		fork_ev(30, 1, 1, 500);
		wake(N, 31, 1, 1, 500);
		if (!early)
			sw(pre, 0, 500, R, 7, "other");
		if (same_cpu) {
			sw(36, 0, 7, R, 500, "w500");   /* the new task's comm */
			sw(38, 0, 500, R, 7, "other");
		} else {
			sw(35, 1, 1, S, 500, "w500");
		}
		sw(40, 0, 7, S, 500, "p500");
		sw(42, 0, 500, X, 0, "swapper");
		if (!same_cpu)
			sw(45, 1, 500, S, 0, "swapper");
		end(50);
		EQ("tasks", lat_nr_tasks(m), 4);       /* 500, 1, 500 again, 7 */
		t = task_of(500, 0);
		EQ("old exited", t->exited, 1);
		EQ("old runtime", t->runtime_ns, pre - 10 + 2);
		EQ("old switches", t->switches, 2);
		EQ("old preemptions", t->preemptions, 1);
		EQ("old run-queue wait", t->lat[LAT_RUNQ_WAIT].count, 1);
		EQ("old run-queue wait's", t->lat[LAT_RUNQ_WAIT].max, 40 - pre);
		t = task_of(500, 1);
		EQ("new exists", t != NULL, 1);
		if (t) {
			EQ("new not exited", t->exited, 0);
			EQ("new switches", t->switches, 1);
			EQ("new runtime", t->runtime_ns, same_cpu ? 2 : 10);
			EQ("new sched_wakeup_new sample", t->lat[LAT_WAKEUP].count, 1);
			EQ("new sched_wakeup_new sample's", t->lat[LAT_WAKEUP].max, same_cpu ? 5 : 4);
		}
		EQ("no third task 500", task_of(500, 2) == NULL, 1);
		lat_machine_free(m);
	}
	infer = false;

	/*
	 * Multithreaded exec (de_thread()): thread 101 of leader 100 execs.
	 * The leader exited first (sched_process_exit, its last switch X at
	 * 22); at exchange_tids() the thread takes pid 100: the exec at 40
	 * says pid 100, old_pid 101, in its context on CPU 0, where 101 runs.
	 * The thread is one task, 100 from then: its run from 12 on CPU 0, its
	 * stat_runtime chain (30 - 18 = 12, 45 - 15 = 30), its cgroup, its
	 * wakeup at 60.  Main took the exec as another task's event: 101 left
	 * untraced at 30 and a third task 100 ran from 40.
	 */
	for (int k = 0; k < 2; k++) {
		infer = k;
		begin(infer ? "multithreaded exec, leader exited, inferred" :
			      "multithreaded exec, leader exited", LAT_START_AUTO);
		sw(10, 1, 0, S, 100, "lead");
		sw(12, 0, 0, S, 101, "thr");
		attach(13, 0, 101, "/g");
		exit_ev(20, 1, 100);
		sw(22, 1, 100, X, 0, "swapper");
		stat_rt(30, 0, 101, 101, 18);
		exec_ev(40, 0, 100, 101);
		stat_rt(45, 0, 100, 100, 15);
		sw(50, 0, 100, S, 0, "swapper");
		wake(W, 60, 1, 0, 100);
		sw(70, 0, 0, S, 100, "true");
		end(80);
		EQ("tasks", lat_nr_tasks(m), 2);        /* the leader, the thread */
		EQ("no untraced switch", lat_get_summary(m)->lost_switches[LAT_LOST_OTHER], 0);
		t = task_of(100, 0);
		EQ("leader exited", t->exited, 1);
		EQ("leader runtime", t->runtime_ns, 12);
		t = task_of(100, 1);
		EQ("thread is 100", t != NULL, 1);
		EQ("no task 101", task_of(101, 0) == NULL, 1);
		if (t) {
			EQ("thread not exited", t->exited, 0);
			EQ("thread runtime", t->runtime_ns, 38 + 10);
			EQ("thread switches", t->switches, 2);
			EQ("thread stat_runtime", t->stat_runtime_ns, 33);
			EQ("thread first_ts", t->first_ts, 12);
			EQ("thread cgroup", t->cgroup && !strcmp(t->cgroup, "/g"), 1);
		}
		EQ("samples", got.n, 1);
		EQ("the thread's wakeup", got.s[0].lat, 10);
		EQ("of pid 100", got.s[0].pid, 100);
		lat_machine_free(m);
	}
	infer = false;

	/*
	 * The thread sleeps in de_thread() until the leader's exit_notify()
	 * wakes it (32: its wakeup sample, 8, opens in 101's name); the
	 * leader, now a zombie, still runs on CPU 1 when the thread takes its
	 * pid, and its last switch (45) names the thread's old tid 101
	 * (exchange_tids()): the first event that tells.  The leader's run
	 * ends there (10..45); the thread is 100 from then, preempted in
	 * 100's name at 50 (a run-queue wait of 100, 5) before its exec at 58.
	 * (A capture on a 6.18 kernel of this machine showed this order.)
	 * Main took the leader's switch for the thread's (killed: X), and
	 * the thread's events from 47 for a third task.
	 */
	for (int k = 0; k < 2; k++) {
		infer = k;
		begin(infer ? "multithreaded exec, leader still running, inferred" :
			      "multithreaded exec, leader still running", LAT_START_AUTO);
		sw(10, 1, 0, S, 100, "lead");
		sw(12, 0, 0, S, 101, "thr");
		sw(20, 0, 101, S, 0, "swapper");
		exit_ev(30, 1, 100);
		wake(W, 32, 1, 100, 101);
		wake(U, 33, 1, 100, 101);
		sw(40, 0, 0, S, 101, "thr");
		stat_rt(41, 1, 100, 100, 31);
		sw(45, 1, 101, X, 0, "swapper");
		stat_rt(47, 0, 100, 100, 7);
		sw(50, 0, 100, R, 7, "other");
		sw(55, 0, 7, S, 100, "thr");
		exec_ev(58, 0, 100, 101);
		sw(60, 0, 100, S, 0, "swapper");
		end(70);
		EQ("tasks", lat_nr_tasks(m), 3);        /* the leader, the thread, 7 */
		EQ("no untraced switch", lat_get_summary(m)->lost_switches[LAT_LOST_OTHER] +
		   lat_get_summary(m)->lost_switches[LAT_LOST_SWITCHED_IN], 0);
		t = task_of(101, 0);                    /* the leader, with the tid it got */
		EQ("leader", t != NULL, 1);
		if (t) {
			EQ("leader exited", t->exited, 1);
			EQ("leader runtime", t->runtime_ns, 35);
			EQ("leader stat_runtime", t->stat_runtime_ns, 31);
			EQ("leader first_ts", t->first_ts, 10);
		}
		EQ("one task 101", task_of(101, 1) == NULL, 1);
		t = task_of(100, 0);
		EQ("thread", t != NULL, 1);
		if (t) {
			EQ("thread first_ts", t->first_ts, 12);
			EQ("thread not exited", t->exited, 0);
			EQ("thread runtime", t->runtime_ns, 8 + 10 + 5);
			EQ("thread switches", t->switches, 3);
			EQ("thread preemptions", t->preemptions, 1);
			EQ("thread stat_runtime", t->stat_runtime_ns, 7);
		}
		EQ("one task 100", task_of(100, 1) == NULL, 1);
		EQ("samples", got.n, 2);
		EQ("wakeup", got.s[0].lat, 8);
		EQ("in 101's name", got.s[0].pid, 101);
		EQ("run-queue wait", got.s[1].lat, 5);
		EQ("in 100's name", got.s[1].pid, 100);
		lat_machine_free(m);
	}
	infer = false;

	/*
	 * The leader, past its sched_process_exit (20), preempted after it
	 * (R at 22: exit_notify() made it a zombie, and do_exit() ran on):
	 * on no CPU when the thread takes its pid at the exec (40).  It is
	 * queued, not dead: it runs again under the thread's old tid 101
	 * (45, after a run-queue wait of 23) and its last switch (X at 47)
	 * names 101.  One leader task (runtime 12 + 2, exited), one thread
	 * task.  Main marked the leader dead at the exec, dropped its wait,
	 * and made its last run a third task 101.  (k & 2: a sched_stat_runtime
	 * of the thread names 100 at 35, before the exec: the exchange is
	 * found there, the queued leader's pid in the thread's context.)
	 */
	for (int k = 0; k < 4; k++) {
		bool named = k & 2;

		infer = k & 1;
		begin(k == 0 ? "multithreaded exec, leader queued after its exit" :
		      k == 1 ? "multithreaded exec, leader queued after its exit, inferred" :
		      k == 2 ? "multithreaded exec, leader queued after its exit, found early" :
			       "multithreaded exec, leader queued after its exit, found early, inferred",
		      LAT_START_AUTO);
		sw(10, 1, 0, S, 100, "lead");
		sw(12, 0, 0, S, 101, "thr");
		exit_ev(20, 1, 100);
		sw(22, 1, 100, R, 7, "other");
		stat_rt(30, 0, 101, 101, 18);
		if (named)
			stat_rt(35, 0, 100, 100, 5);
		exec_ev(40, 0, 100, 101);
		sw(45, 1, 7, S, 101, "lead");
		sw(47, 1, 101, X, 0, "swapper");
		sw(50, 0, 100, S, 0, "swapper");
		end(60);
		EQ("tasks", lat_nr_tasks(m), 3);        /* the leader, the thread, 7 */
		t = task_of(101, 0);                    /* the leader, with the tid it got */
		EQ("leader", t != NULL, 1);
		if (t) {
			EQ("leader first_ts", t->first_ts, 10);
			EQ("leader exited", t->exited, 1);
			EQ("leader runtime", t->runtime_ns, 12 + 2);
			EQ("leader switches", t->switches, 2);
			EQ("leader preemptions", t->preemptions, 1);
			EQ("leader's run-queue wait", t->lat[LAT_RUNQ_WAIT].count, 1);
		}
		EQ("one task 101", task_of(101, 1) == NULL, 1);
		t = task_of(100, 0);
		EQ("thread", t != NULL, 1);
		if (t) {
			EQ("thread first_ts", t->first_ts, 12);
			EQ("thread not exited", t->exited, 0);
			EQ("thread runtime", t->runtime_ns, 38);
			EQ("thread stat_runtime", t->stat_runtime_ns, named ? 23 : 18);
		}
		EQ("one task 100", task_of(100, 1) == NULL, 1);
		EQ("samples", got.n, 1);
		EQ("run-queue wait", got.s[0].lat, 23);
		EQ("in 101's name", got.s[0].pid, 101);
		lat_machine_free(m);
	}
	infer = false;

	/*
	 * The leader's CPU lost events after its exit (its last switch in the
	 * gap): on no CPU and not runnable at the exec, dead.  Its exit is
	 * real (de_thread() released it): exited, its run to the gap.
	 */
	for (int k = 0; k < 2; k++) {
		infer = k;
		begin(infer ? "multithreaded exec, leader lost after its exit, inferred" :
			      "multithreaded exec, leader lost after its exit", LAT_START_AUTO);
		sw(10, 1, 0, S, 100, "lead");
		sw(12, 0, 0, S, 101, "thr");
		exit_ev(20, 1, 100);
		lat_machine_lost(m, 1, 5);
		sw(25, 1, 0, S, 7, "other");
		stat_rt(30, 0, 101, 101, 18);
		exec_ev(40, 0, 100, 101);
		sw(50, 0, 100, S, 0, "swapper");
		end(60);
		EQ("tasks", lat_nr_tasks(m), 3);        /* the leader, the thread, 7 */
		t = task_of(100, 0);
		EQ("leader exited", t->exited, 1);
		EQ("leader: no task 101", task_of(101, 0) == NULL, 1);
		t = task_of(100, 1);
		EQ("thread", t != NULL, 1);
		if (t)
			EQ("thread runtime", t->runtime_ns, 38);
		lat_machine_free(m);
	}
	infer = false;

	/*
	 * An event of an exited, queued task 100 on CPU 0, whose current per
	 * the stream is 101, and no exec: the exchange of a multithreaded
	 * exec, or a switch from 101 to 100 the trace did not show.  What the
	 * two tasks' groups tell decides (exchange_possible()); a capture of
	 * stop 47 gave a VM agent's thread an exited shell's record (k 0).
	 *   k 0: 100's exit was its group's last (group_dead): no exchange;
	 *   k 1: 101 is a thread of group 1 (the sidecar): no exchange;
	 *   k 2: 101 is a group's leader: no exchange;
	 *   k 3: 100 is a thread of group 1: it cannot be the leader either;
	 *   k 4: 101 is a thread of group 100: the exchange, as before;
	 *   k 5: 101 forked by 100, which led its group: the exchange;
	 *   k 6: 101 forked by a thread of group 1: no exchange;
	 *   k 7: the kernel has no group_dead, nothing seeded: the exchange.
	 * A kernel without group_dead (before 6.16), nothing seeded: what the
	 * trace's forks and execs tell of 101 (snap50):
	 *   k 8: 101 exec'd as its group's leader (pid == old_pid): no exchange;
	 *   k 9: 101 forked by 50, forked by 40 after 40's exec (a leader):
	 *        101 is of group 101, 50 or 40: no exchange;
	 *   k 10: 101 forked by 50, forked by 100: 101 can be of group 100:
	 *        the exchange;
	 *   k 11: 101 forked by 50, which exec'd as its leader after: a
	 *        leader then too, 101 of group 101 or 50: no exchange.
	 */
	for (int k = 0; k < 24; k++) {
		int v = k >> 1;
		bool exch = v == 4 || v == 5 || v == 7 || v == 10;
		/* its fork, or switch-in */
		uint64_t thr_first = v == 5 || v == 6 ? 11 : v == 9 ? 5 : v == 10 ? 4 :
				     v == 11 ? 2 : 12;
		uint64_t lead_first = v == 10 ? 1 : 10;

		infer = k & 1;
		static char name[96];

		snprintf(name, sizeof(name), "an exited task's event under another's current, "
			 "case %d%s", v, infer ? ", inferred" : "");
		begin(name, LAT_START_AUTO);
		if (v == 1)
			lat_tgid_seed(m, 101, 1);
		if (v == 2)
			lat_tgid_seed(m, 101, 101);
		if (v == 3)
			lat_tgid_seed(m, 100, 1);
		if (v == 4 || v == 5)
			lat_tgid_seed(m, 100, 100);
		if (v == 4)
			lat_tgid_seed(m, 101, 100);
		if (v == 6)
			lat_tgid_seed(m, 50, 1);
		if (v == 9 || v == 10) {
			/* on CPU 0 from 1: 40 (after its exec) or 100 forks 50, which forks 101 */
			int32_t top = v == 9 ? 40 : 100;
			uint64_t ts = 1;

			sw(ts++, 0, 0, S, top, v == 9 ? "p40" : "lead");
			if (v == 9)
				exec_ev(ts++, 0, top, top);
			fork_ev(ts++, 0, top, 50);
			sw(ts++, 0, top, S, 50, "p50");
			fork_ev(ts++, 0, 50, 101);
			sw(ts, 0, 50, S, 0, "swapper");
		}
		if (v == 11) {
			sw(1, 0, 0, S, 50, "p50");
			fork_ev(2, 0, 50, 101);
			exec_ev(3, 0, 50, 50);
			sw(4, 0, 50, S, 0, "swapper");
		}
		sw(10, 1, 0, S, 100, "lead");
		if (v == 5)
			fork_ev(11, 1, 100, 101);
		if (v == 6)
			fork_ev(11, 1, 50, 101);
		sw(12, 0, 0, S, 101, "thr");
		if (v == 8)
			exec_ev(13, 0, 101, 101);
		exit_gd(20, 1, 100, v == 0 ? 1 : v >= 7 ? -1 : 0);
		sw(22, 1, 100, R, 7, "other");
		stat_rt(30, 0, 101, 101, 18);
		stat_rt(35, 0, 100, 100, 5);
		sw(40, 0, 100, X, 0, "swapper");
		end(60);
		t = task_of(101, 0);
		if (exch) {
			/* the thread is 100 from 35; the leader's record took 101 */
			EQ("exchange: 101 is the leader's record", t && t->first_ts == lead_first, 1);
			t = task_of(100, 0);
			EQ("exchange: 100 is the thread's", t && t->first_ts == thr_first, 1);
		} else {
			EQ("101 is the thread", t && t->first_ts == thr_first && !t->exited, 1);
			t = task_of(100, 0);
			EQ("100 is the exited task", t && t->first_ts == lead_first && t->exited, 1);
		}
		lat_machine_free(m);
	}
	infer = false;

	begin("cgroups: seeded, inherited at fork, moved by attach", LAT_START_AUTO);
	lat_cgroup_seed(m, 100, "/a");
	fork_ev(1, 0, 100, 101);
	wake(N, 2, 0, 100, 101);
	sw(3, 1, 0, S, 101, "kid");
	attach(4, 1, 101, "/b");
	sw(5, 1, 101, S, 0, "swapper");
	wake(W, 6, 0, 100, 101);
	sw(9, 1, 0, S, 101, "kid");
	end(10);
	EQ("cgroup groups", lat_nr_groups(m, LAT_BY_CGROUP), 2);
	EQ("first in /a", strcmp(lat_group_at(m, LAT_BY_CGROUP, 0)->key, "/a"), 0);
	EQ("then /b", strcmp(lat_group_at(m, LAT_BY_CGROUP, 1)->key, "/b"), 0);
	EQ("task cgroup", strcmp(task_of(101, 0)->cgroup, "/b"), 0);
	lat_machine_free(m);

	begin("cgroups: root and follow filters, counted", LAT_START_AUTO);
	{
		struct lat_config cfg;

		lat_machine_free(m);
		lat_config_default(&cfg);
		cfg.group_by[LAT_BY_CGROUP] = true;
		cfg.cgroup_root = 3;
		cfg.cgroup_follow = follow_not_x;
		m = lat_machine_new(&cfg, NULL);
	}
	lat_cgroup_seed(m, 100, "/a");
	attach_root(1, 2, 100, 2, "/b");     /* another hierarchy: ignored */
	attach_root(2, 2, 100, 3, "/x");     /* the callback says no: ignored */
	attach_root(3, 2, 100, 3, "/c");     /* followed */
	wake(W, 4, 1, 7, 100);
	sw(6, 0, 0, S, 100, "t");
	end(6);
	EQ("moves followed", lat_get_summary(m)->cgroup_moves, 1);
	EQ("moves ignored", lat_get_summary(m)->cgroup_moves_ignored, 2);
	EQ("task cgroup", strcmp(task_of(100, 0)->cgroup, "/c"), 0);
	EQ("one cgroup group", lat_nr_groups(m, LAT_BY_CGROUP), 1);
	if (lat_nr_groups(m, LAT_BY_CGROUP) == 1)
		EQ("sample in /c", strcmp(lat_group_at(m, LAT_BY_CGROUP, 0)->key, "/c"), 0);
	lat_machine_free(m);

	begin("filter by comm prefix keeps tasks, filters groups", LAT_START_AUTO);
	{
		struct lat_config cfg;

		lat_machine_free(m);
		lat_config_default(&cfg);
		cfg.comm_prefix = "hack";
		m = lat_machine_new(&cfg, NULL);
	}
	wake(W, 0, 1, 7, 100);
	sw(10, 0, 0, S, 100, "hackbench");
	wake(W, 0, 1, 7, 200);
	sw(20, 1, 7, S, 200, "other");
	end(20);
	EQ("all counts the match only", lat_get_all(m, LAT_WAKEUP)->count, 1);
	EQ("task of the other comm kept", task_of(200, 0)->lat[LAT_WAKEUP].count, 1);
	lat_machine_free(m);

	path_lat = true;
	begin("wakeup paths: every class", LAT_START_AUTO);
	{
		static const enum lat_path want[] = {
			LAT_PATH_IDLE, LAT_PATH_PREEMPT_LOCAL, LAT_PATH_PREEMPT_REMOTE,
			LAT_PATH_BEHIND_LOCAL, LAT_PATH_BEHIND_REMOTE, LAT_PATH_BEHIND_LOCAL,
			LAT_PATH_QUEUED_LOCAL, LAT_PATH_IDLE, LAT_PATH_QUEUED_REMOTE,
			LAT_PATH_MOVED, LAT_PATH_NEW, LAT_PATH_UNKNOWN,
		};
		const struct lat_group *g;

		sw(1, 0, 0, R, 10, "a");        /* CPU 0 runs 10, CPU 1 20, CPU 3 30 */
		sw(2, 1, 0, R, 20, "b");        /* CPU 2: no event, idle */
		sw(3, 3, 0, R, 30, "c");
		waking_to(100, 0, 10, 101, 2);          /* remote, onto idle CPU 2 */
		sw(110, 2, 0, R, 101, "t");             /* idle */
		waking_to(200, 0, 10, 102, 0);          /* local */
		sw(210, 0, 10, R, 102, "t");            /* preempt_local */
		sw(220, 0, 102, S, 10, "a");
		waking_to(300, 0, 10, 103, 1);          /* remote, onto CPU 1 running 20 */
		sw(310, 1, 20, R, 103, "t");            /* preempt_remote */
		sw(320, 1, 103, S, 20, "b");
		waking_to(400, 0, 10, 104, 0);
		sw(410, 0, 10, S, 104, "t");            /* behind_current_local */
		waking_to(500, 0, 104, 105, 1);
		sw(510, 1, 20, S, 105, "t");            /* behind_current_remote */
		waking_to(600, 0, 104, 106, 0);
		waking_to(602, 0, 104, 107, 0);
		sw(610, 0, 104, S, 107, "t");           /* behind_current_local */
		sw(620, 0, 107, S, 106, "t");           /* one switch ahead: queued_local */
		sw(650, 2, 101, S, 0, "swapper/2");
		waking_to(700, 1, 105, 108, 2);         /* both onto idle CPU 2 */
		waking_to(702, 1, 105, 109, 2);
		sw(710, 2, 0, R, 109, "t");             /* idle */
		sw(720, 2, 109, S, 108, "t");           /* idle+queued: queued_remote */
		waking_to(800, 1, 105, 110, 3);         /* onto CPU 3 ... */
		sw(810, 2, 108, S, 110, "t");           /* ... in on CPU 2: moved */
		wake_to(N, 900, 1, 105, 111, 1);
		sw(910, 1, 105, R, 111, "t");           /* new */
		wake(W, 950, 0, 106, 112);              /* no sched_wakeup: no target */
		sw(960, 3, 30, R, 112, "t");            /* unknown */
		end(1000);
		expect_paths(want, (int)(sizeof(want) / sizeof(want[0])));
		g = lat_group_find(m, LAT_BY_COMM, "t");
		EQ("comm t's group", g != NULL, 1);
		if (g) {
			EQ("group t: idle", g->paths[LAT_PATH_IDLE], 2);
			EQ("group t: behind_current_local", g->paths[LAT_PATH_BEHIND_LOCAL], 2);
			EQ("group t: samples", lat_paths_total(g->paths), 12);
		}
		EQ("run-queue waits", lat_get_all(m, LAT_RUNQ_WAIT)->count, 2);
		EQ("local busy", lat_paths_local_busy(lat_get_all_paths(m)), 4);
		/* each path's latencies (ns): the waking to the switch-in */
		expect_path_lat(LAT_PATH_IDLE, 2, 8, 10);               /* 101: 10, 109: 8 */
		expect_path_lat(LAT_PATH_PREEMPT_LOCAL, 1, 10, 10);
		expect_path_lat(LAT_PATH_PREEMPT_REMOTE, 1, 10, 10);
		expect_path_lat(LAT_PATH_BEHIND_LOCAL, 2, 8, 10);       /* 104: 10, 107: 8 */
		expect_path_lat(LAT_PATH_BEHIND_REMOTE, 1, 10, 10);
		expect_path_lat(LAT_PATH_QUEUED_LOCAL, 1, 20, 20);      /* 106: 600 -> 620 */
		expect_path_lat(LAT_PATH_QUEUED_REMOTE, 1, 20, 20);     /* 108: 700 -> 720 */
		expect_path_lat(LAT_PATH_MOVED, 1, 10, 10);
		expect_path_lat(LAT_PATH_NEW, 1, 10, 10);
		expect_path_lat(LAT_PATH_UNKNOWN, 1, 10, 10);
		/* and the by-cgroup group's (every sample's cgroup unknown) */
		g = lat_group_find(m, LAT_BY_CGROUP, "(unknown)");
		EQ("cgroup group", g && g->path_lat, 1);
		if (g && g->path_lat) {
			EQ("cgroup: idle samples", g->path_lat[LAT_PATH_IDLE].count, 2);
			EQ("cgroup: idle p50", sr_hist_percentile(&g->path_lat[LAT_PATH_IDLE], 50), 8);
			EQ("cgroup: queued_local p50",
			   sr_hist_percentile(&g->path_lat[LAT_PATH_QUEUED_LOCAL], 50), 20);
			EQ("cgroup: new samples", g->path_lat[LAT_PATH_NEW].count, 1);
		}
	}
	lat_machine_free(m);

	begin("wakeup paths: a trace without sched_waking (local: the sched_wakeup's CPU)",
	      LAT_START_AUTO);
	{
		static const enum lat_path want[] = { LAT_PATH_PREEMPT_LOCAL, LAT_PATH_BEHIND_REMOTE };

		sw(1, 0, 0, R, 10, "a");
		wake_to(U, 10, 0, 10, 50, 0);
		sw(20, 0, 10, R, 50, "t");
		wake_to(U, 30, 1, 0, 51, 0);
		sw(40, 0, 50, S, 51, "t");
		end(50);
		EQ("start: sched_wakeup", got.s[0].start, U);
		expect_paths(want, 2);
		/* the held-back (provisional) samples keep their path's latency too */
		expect_path_lat(LAT_PATH_PREEMPT_LOCAL, 1, 10, 10);
		expect_path_lat(LAT_PATH_BEHIND_REMOTE, 1, 10, 10);
		expect_path_lat(LAT_PATH_IDLE, 0, 0, 0);
	}
	lat_machine_free(m);

	/* all's path latency without the cgroups it is otherwise built from */
	no_cgroups = true;
	begin("wakeup paths: latency per path without cgroup groups", LAT_START_AUTO);
	{
		sw(1, 0, 0, R, 10, "a");
		waking_to(10, 0, 10, 50, 0);
		sw(30, 0, 10, R, 50, "t");              /* preempt_local, 20 */
		sw(40, 0, 50, S, 10, "a");
		waking_to(100, 0, 10, 51, 1);           /* onto CPU 1, no event yet: idle */
		sw(105, 1, 0, R, 51, "t");              /* idle, 5 */
		end(200);
		expect_path_lat(LAT_PATH_PREEMPT_LOCAL, 1, 20, 20);
		expect_path_lat(LAT_PATH_IDLE, 1, 5, 5);
		EQ("no cgroup groups", lat_nr_groups(m, LAT_BY_CGROUP), 0);
	}
	lat_machine_free(m);
	no_cgroups = false;
	path_lat = false;

	begin("wakeup paths: no latency per path unless asked (report's machine)",
	      LAT_START_AUTO);
	{
		sw(1, 0, 0, R, 10, "a");
		waking_to(10, 0, 10, 50, 0);
		sw(30, 0, 10, R, 50, "t");
		end(50);
		EQ("preempt_local", lat_get_all_paths(m)[LAT_PATH_PREEMPT_LOCAL], 1);
		expect_path_lat(LAT_PATH_PREEMPT_LOCAL, 0, 0, 0);
		EQ("no cgroup path latency",
		   lat_group_find(m, LAT_BY_CGROUP, "(unknown)") &&
		   !lat_group_find(m, LAT_BY_CGROUP, "(unknown)")->path_lat, 1);
	}
	lat_machine_free(m);

	begin("wakeup paths: start at sched_wakeup, the waker's CPU from the sched_waking before it",
	      LAT_START_WAKEUP);
	{
		/* a simulated stream: sched_waking on the waker's CPU, sched_wakeup on the target */
		static const enum lat_path want[] = { LAT_PATH_PREEMPT_REMOTE, LAT_PATH_PREEMPT_LOCAL };

		sw(1, 0, 0, R, 10, "a");
		sw(2, 1, 0, R, 20, "b");
		wake_to(W, 10, 1, 20, 50, 0);
		wake_to(U, 10, 0, 0, 50, 0);
		sw(20, 0, 10, R, 50, "t");
		wake_to(W, 30, 0, 50, 51, 0);
		wake_to(U, 30, 0, 50, 51, 0);
		sw(40, 0, 50, R, 51, "t");
		end(50);
		EQ("start: sched_wakeup", got.s[0].start, U);
		expect_paths(want, 2);
	}
	lat_machine_free(m);

	infer = true;
	begin("wakeup paths: an inferred untraced switch is a switch ahead", LAT_START_AUTO);
	{
		static const enum lat_path want[] = { LAT_PATH_QUEUED_LOCAL };

		sw(1, 0, 0, R, 10, "a");
		waking_to(100, 0, 10, 60, 0);
		stat_rt(110, 0, 70, 70, 5);             /* CPU 0 runs 70: 10 left untraced */
		sw(120, 0, 70, R, 60, "t");
		end(130);
		EQ("inferred", lat_get_summary(m)->lost_switches[LAT_LOST_OTHER], 1);
		expect_paths(want, 1);
	}
	lat_machine_free(m);
	infer = false;

	test_revealed_runs();

	if (!failures)
		printf("latency: all checks passed\n");
	return failures ? 1 : 0;
}
