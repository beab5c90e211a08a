// SPDX-License-Identifier: GPL-2.0
/*
 * The simulation on hand-built workloads: what must hold whatever the
 * model decides (conservation of forks and wakes, CPU time never exceeding
 * the machine), identical results for identical input, and a trace replayed
 * twice giving byte-identical JSON.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/model.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/sim.h>

#include "sched.h"     /* model/: struct model_profile, FEAT_NI_RANDOM */
#include <schedreplay/workload.h>

#include "calib.h"
#include "check_replay.h"
#include "text_cell.h"

#define MS 1000000ull
#define US 1000ull

static struct wl_workload *build_sc(const struct trace_event *ev, size_t n,
				    const struct sidecar *sc)
{
	struct sr_error err = { 0 };
	struct wl_builder *b = wl_builder_new(NULL, sc, NULL, &err);

	if (!b)
		fprintf(stderr, "%s\n", err.msg), exit(2);
	for (size_t i = 0; i < n; i++)
		if (wl_builder_event(b, &ev[i], 0, &err))
			fprintf(stderr, "%s\n", err.msg), exit(2);
	return wl_builder_finish(b, &err);
}

/*
 * The workload of @ev read as a trace @info describes (NULL: none) under
 * extraction options @o, NULL (a check failed) on error.
 */
static struct wl_workload *build_info(const struct trace_event *ev, size_t n,
				      const struct trace_info *info, const struct wl_options *o)
{
	struct sr_error err = { 0 };
	struct wl_builder *b = wl_builder_new(info, NULL, o, &err);
	struct wl_workload *wl = NULL;

	CHECK(b != NULL);
	for (size_t i = 0; b && i < n; i++)
		CHECK_EQ(wl_builder_event(b, &ev[i], 0, &err), 0);
	if (b)
		wl = wl_builder_finish(b, &err);
	CHECK(wl != NULL);
	return wl;
}

/* The workload of @ev under extraction options @o, NULL (a check failed) on error. */
static struct wl_workload *build_opts(const struct trace_event *ev, size_t n,
				      const struct wl_options *o)
{
	return build_info(ev, n, NULL, o);
}

static struct wl_workload *build(const struct trace_event *ev, size_t n)
{
	return build_sc(ev, n, NULL);
}

static uint64_t count(const struct replay_result *r, const char *name)
{
	uint64_t v = 0;

	CHECK(replay_count_get(r, name, &v));
	return v;
}

/*
 * A parent on CPU 0 forks a child that ping-pongs with it across CPUs 0
 * and 1: 20 rounds of 100 us of work and a wake of the other side.
 */
static void test_pingpong(void)
{
	struct trace_event ev[256];
	size_t n = 0;
	uint64_t t = 1 * MS;
	struct wl_workload *wl;
	struct replay_result *r1, *r2;
	struct replay_config rc;
	struct sr_error err = { 0 };

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 100, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 0, 120);   /* CPU 1 idle */
	ev[n++] = ev_fork(t + 10 * US, 0, 100, 101);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t + 11 * US, 0, 100, 0, 101, 120, 1);
	ev[n++] = ev_switch(t + 30 * US, 1, 0, 'R', 120, 101, 120);
	t += 30 * US;
	for (int i = 0; i < 20; i++) {
		/* child works, wakes nobody yet; parent blocks; child wakes parent */
		ev[n++] = ev_switch(t + 5 * US, 0, 100, 'S', 120, 0, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 100 * US, 1, 101, 0, 100, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 110 * US, 0, 0, 0x08, 100, 120, 0);
		ev[n++] = ev_switch(t + 120 * US, 0, 0, 'R', 120, 100, 120);
		ev[n++] = ev_switch(t + 125 * US, 1, 101, 'S', 120, 0, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 220 * US, 0, 100, 0, 101, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 230 * US, 1, 0, 0x08, 101, 120, 1);
		ev[n++] = ev_switch(t + 240 * US, 1, 0, 'R', 120, 101, 120);
		t += 240 * US;
	}
	/*
	 * The trace goes on a little after the last switch-in: the replay's
	 * timeline may drift by a cost draw (the child's fork samples are too
	 * few: it draws from CPU 1's wakeups, 1 us more) and must not lose the
	 * last sample to the trace end.
	 */
	ev[n++] = ev_runtime(t + 50 * US, 1, 101, 50 * US);
	wl = build(ev, n);
	CHECK(wl != NULL);
	replay_config_default(&rc);
	r1 = replay_run(wl, &rc, &err);
	r2 = replay_run(wl, &rc, &err);
	CHECK(r1 && r2);
	if (!r1 || !r2) {
		fprintf(stderr, "replay: %s\n", err.msg);
		return;
	}
	/* identical input, identical output */
	{
		unsigned int i1 = 0, i2 = 0;
		const char *n1, *n2;
		uint64_t v1, v2;

		while (replay_count_next(r1, &i1, &n1, &v1)) {
			CHECK(replay_count_next(r2, &i2, &n2, &v2));
			CHECK(!strcmp(n1, n2));
			CHECK_EQ(v1, v2);
		}
	}
	/* every fork and every wake of the workload happens exactly once */
	CHECK_EQ(count(r1, "sched_wakeup_new"), 1);
	CHECK_EQ(count(r1, "sched_wakeup"), wl_counts(wl)->sched_wakeup);
	/* the two tasks' 40 blocks each cost two switches, at least */
	CHECK(count(r1, "sched_switch") >= 80);
	/*
	 * Work is conserved: every op's CPU time is simulated (a task whose
	 * ops end while it runs runs on to the trace end, so busy time may be
	 * larger), and never more than the machine has.
	 */
	{
		uint64_t work = 0;

		for (uint32_t i = 0; i < wl_nr_tasks(wl); i++)
			work += wl_task(wl, i)->runtime_ns;
		if (replay_busy_ns(r1) > 2 * (wl_last_ts(wl) - wl_first_ts(wl)) ||
		    replay_busy_ns(r1) + 300 * US < work)
			fprintf(stderr, "busy %llu ns, work %llu ns\n",
				(unsigned long long)replay_busy_ns(r1), (unsigned long long)work);
		CHECK(replay_busy_ns(r1) <= 2 * (wl_last_ts(wl) - wl_first_ts(wl)));
		CHECK(replay_busy_ns(r1) + 300 * US >= work);
	}
	/* one latency sample per wake of a blocked task and for the fork */
	CHECK_EQ(lat_get_all(replay_latency(r1), LAT_WAKEUP)->count,
		 lat_get_all(wl_measured_latency(wl), LAT_WAKEUP)->count);
	replay_result_free(r1);
	replay_result_free(r2);
	wl_free(wl);
}

/* A trace replayed twice: byte-identical JSON. */
static int test_trace(const char *path)
{
	struct sr_error err = { 0 };
	struct wl_workload *wl = wl_extract(path, NULL, &err);
	struct replay_config rc;
	char *s[2] = { NULL, NULL };

	if (!wl) {
		fprintf(stderr, "%s: %s\n", path, err.msg);
		return 2;
	}
	replay_config_default(&rc);
	for (int k = 0; k < 2; k++) {
		struct replay_result *r = replay_run(wl, &rc, &err);
		json_t *j;

		CHECK(r != NULL);
		if (!r)
			break;
		j = replay_json_variant(r);
		json_object_set_new(j, "errors", replay_json_errors(wl, r));
		s[k] = json_dumps(j, JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
		json_decref(j);
		replay_result_free(r);
	}
	CHECK(s[0] && s[1] && !strcmp(s[0], s[1]));
	free(s[0]);
	free(s[1]);
	wl_free(wl);
	return 0;
}

static uint64_t note_count(const struct replay_result *r, const char *prefix)
{
	unsigned int it = 0;
	const char *text;
	uint64_t v;

	while (replay_note_next(r, &it, &text, &v))
		if (!strncmp(text, prefix, strlen(prefix)))
			return v;
	return 0;
}

/*
 * A pipe ping-pong on CPU 0 as the kernel ran it on preempt=none: 200 wakes
 * 201, is preempted 2 us later (leaving "R"), 201 works 3 us and sleeps,
 * 200 resumes; 30 rounds.  The trace never shows 200 waiting for 201, but
 * each round hands off: whatever the model decides at each wakeup, 200
 * never runs ahead of 201 (no early wake), every traced wake happens, and
 * each round costs at least its two switches.
 */
static void test_handoff_pingpong(void)
{
	struct trace_event ev[256];
	size_t n = 0;
	uint64_t t = 1 * MS;
	struct wl_workload *wl;
	struct replay_result *r;
	struct replay_config rc;
	struct sr_error err = { 0 };

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 200, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 0, 120);
	for (int i = 0; i < 30; i++) {
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 3 * US, 0, 200, 0, 201, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 3 * US, 0, 200, 0, 201, 120, 0);
		ev[n++] = ev_switch(t + 5 * US, 0, 200, 'R', 120, 201, 120);
		ev[n++] = ev_switch(t + 8 * US, 0, 201, 'S', 120, 200, 120);
		t += 8 * US;
	}
	wl = build(ev, n);
	CHECK(wl != NULL);
	replay_config_default(&rc);
	r = replay_run(wl, &rc, &err);
	CHECK(r != NULL);
	if (!r) {
		fprintf(stderr, "replay: %s\n", err.msg);
		wl_free(wl);
		return;
	}
	CHECK_EQ(note_count(r, "wakes that reached their target before"), 0);
	CHECK(count(r, "sched_wakeup") >= 30);
	CHECK(count(r, "sched_switch") >= 60);
	replay_result_free(r);
	wl_free(wl);
}

/*
 * 301 is woken at 1 ms, preempts 300 and runs 1 ms; at 2 ms 300 takes the
 * CPU back and runs to the trace end (10 ms), 301 queued.  301's work ends
 * at its RUN: in the simulation it must not run on forever (it was not
 * running at the end), so 300 gets its 9 ms.
 */
static void test_ops_done_queued(void)
{
	struct trace_event ev[16];
	size_t n = 0;
	struct wl_workload *wl;
	struct replay_result *r;
	struct replay_config rc;
	struct sr_error err = { 0 };

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 300, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 1 * MS, 0, 0, 0x08, 301, 120, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 1 * MS, 0, 0, 0x08, 301, 120, 0);
	ev[n++] = ev_switch(1 * MS + 1 * US, 0, 300, 'R', 120, 301, 120);
	ev[n++] = ev_switch(2 * MS, 0, 301, 'R', 120, 300, 120);
	ev[n++] = ev_runtime(10 * MS, 0, 300, 8 * MS);
	wl = build(ev, n);
	CHECK(wl != NULL);
	CHECK(!wl_task(wl, 1)->running_at_end || !wl_task(wl, 0)->running_at_end);
	replay_config_default(&rc);
	rc.no_costs = true;
	r = replay_run(wl, &rc, &err);
	CHECK(r != NULL);
	if (!r) {
		wl_free(wl);
		return;
	}
	CHECK_EQ(note_count(r, "tasks that did all their traced work"), 1);
	/* CPU 0 busy from 1 ms to the end: both tasks' work, no more */
	CHECK_EQ(replay_busy_ns(r), 9 * MS);
	replay_result_free(r);
	wl_free(wl);
}

/* The p50 (ns) of the wakeup latency of comm @comm. */
static uint64_t comm_p50(const struct lat_machine *lat, const char *comm)
{
	for (size_t i = 0; i < lat_nr_groups(lat, LAT_BY_COMM); i++) {
		const struct lat_group *g = lat_group_at(lat, LAT_BY_COMM, i);

		if (!strcmp(g->key, comm))
			return sr_hist_percentile(&g->lat[LAT_WAKEUP], 50);
	}
	return UINT64_MAX;
}

/*
 * The repaired stream (docs/replay.md, "Untraced idle exits"): task 41 is
 * woken 25 times from a hardirq on idle CPU 0, whose switches out of idle
 * are traced 20 us later; task 40 likewise on CPU 1, whose switches out of
 * idle the kernel did not trace and the repair restored 1 us after the
 * wakeup.  The simulation emits CPU 1's idle exits too, counts them as
 * restored, and draws each CPU's idle cost from its own samples: the
 * predicted latencies are each CPU's measured ones.
 */
static void test_restored_idle_exits(void)
{
	struct trace_event ev[512];
	size_t n = 0;
	uint64_t t = 1 * MS;
	struct wl_workload *wl;
	struct replay_result *r;
	struct replay_config rc;
	struct sr_error err = { 0 };

	ev[n++] = ev_switch(t, 0, 41, 'S', 120, 0, 120);
	ev[n++] = ev_switch(t, 1, 40, 'S', 120, 0, 120);
	for (int i = 0; i < 25; i++) {
		t += 1 * MS;
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 0, 0, 0x08, 41, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 0, 0, 0x08, 41, 120, 0);
		ev[n++] = ev_switch(t + 20 * US, 0, 0, 'R', 120, 41, 120);
		ev[n++] = ev_switch(t + 100 * US, 0, 41, 'S', 120, 0, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 300 * US, 1, 0, 0x08, 40, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 300 * US, 1, 0, 0x08, 40, 120, 1);
		ev[n] = ev_switch(t + 301 * US, 1, 0, 'R', 120, 40, 120);
		ev[n++].synthetic = true;
		ev[n++] = ev_switch(t + 380 * US, 1, 40, 'S', 120, 0, 120);
	}
	wl = build(ev, n);
	CHECK(wl != NULL);
	CHECK_EQ(wl_counts(wl)->sched_switch, 102);
	CHECK_EQ(wl_counts(wl)->sched_switch_restored, 25);
	CHECK_EQ(wl_facts(wl)->idle_exit_restored, 0x2);
	replay_config_default(&rc);
	r = replay_run(wl, &rc, &err);
	CHECK(r != NULL);
	if (!r) {
		wl_free(wl);
		return;
	}
	/*
	 * every switch, the restored ones' counterparts among them; plus the
	 * simulation's start, where both tasks (running at the trace start)
	 * are switched in and block at once: 2 more each way, 1 on CPU 1
	 */
	CHECK_EQ(count(r, "sched_switch"), 104);
	CHECK_EQ(count(r, "sched_switch_restored"), 26);
	CHECK_EQ(comm_p50(replay_latency(r), "task41"), 20 * US);
	CHECK_EQ(comm_p50(replay_latency(r), "task40"), 1 * US);
	replay_result_free(r);
	wl_free(wl);
}

/*
 * The time of the first dump line on CPU @cpu at or after @from that contains
 * @needle, in ns; UINT64_MAX if none.
 */
static uint64_t dump_find(const char *dump, int cpu, uint64_t from, const char *needle)
{
	const char *line = dump;
	char tag[8];

	snprintf(tag, sizeof(tag), "[%03d]", cpu);
	while (line && *line) {
		const char *end = strchr(line, '\n');
		unsigned long long sec, nsec;

		if (!strncmp(line, tag, 5) && sscanf(line + 5, " %llu.%llu", &sec, &nsec) == 2 &&
		    sec * 1000000000ull + nsec >= from) {
			size_t len = end ? (size_t)(end - line) : strlen(line);
			char buf[256];

			if (len >= sizeof(buf))
				len = sizeof(buf) - 1;
			memcpy(buf, line, len);
			buf[len] = 0;
			if (strstr(buf, needle))
				return sec * 1000000000ull + nsec;
		}
		line = end ? end + 1 : NULL;
	}
	return UINT64_MAX;
}

/*
 * One replay of a scenario, its result and every synthetic event as text:
 * run_begin() replays @wl under @rc, checks that it ran (false if not: skip
 * the checks of its output) and, with SR_TEST_DUMP set, prints the events;
 * run_end() frees what it made, whatever run_begin() returned.
 */
struct run {
	struct replay_result *r;
	char *dump;
};

static bool run_begin(struct run *x, const struct wl_workload *wl, struct replay_config *rc)
{
	struct sr_error err = { 0 };
	size_t len = 0;
	FILE *f;

	*x = (struct run){ NULL, NULL };
	f = open_memstream(&x->dump, &len);
	CHECK(f != NULL);
	if (!f)
		return false;
	rc->dump = f;
	x->r = replay_run(wl, rc, &err);
	rc->dump = NULL;
	fclose(f);
	CHECK_MSG(x->r != NULL, "replay: %s", err.msg);
	CHECK(x->dump != NULL);
	if (x->r && x->dump && getenv("SR_TEST_DUMP"))
		fputs(x->dump, stderr);
	return x->r && x->dump;
}

static void run_end(struct run *x)
{
	replay_result_free(x->r);
	free(x->dump);
}

/*
 * Replays events @ev[0..@n) under the default rules (@nocost: without the
 * mechanical costs) into @x; *@wl is their workload (wl_free() it, and
 * run_end() @x, either way).  False when either step failed (checked).
 */
static bool run_events(struct run *x, struct wl_workload **wl, const struct trace_event *ev,
		       size_t n, bool nocost)
{
	struct replay_config rc;

	*x = (struct run){ NULL, NULL };
	*wl = build(ev, n);
	CHECK(*wl != NULL);
	if (!*wl)
		return false;
	replay_config_default(&rc);
	rc.no_costs = nocost;
	return run_begin(x, *wl, &rc);
}

/*
 * Exec balancing onto a CPU whose switches out of idle are restored (docs/
 * replay.md, "Untraced idle exits"): parent 70 on CPU 0 forks 25 children
 * onto idle CPU 1, each restored at its sched_wakeup_new (0 us: the fork
 * context's samples), and wakes task 71 there 25 times, restored 35 us
 * after the waking (the task context's).  At 30 ms the stopper (60) moves
 * 70 itself to idle CPU 1, restored at the move.  move_queued_task() enqueues
 * from the source CPU as wake_up_new_task() does, so the move's idle cost
 * is the fork context's: 70 runs on CPU 1 at the move, not 35 us later.
 */
static void test_stopper_move_restored(void)
{
	struct trace_event ev[256], e;
	size_t n = 0;
	uint64_t t = 1 * MS, m = 30 * MS, moved, in;
	struct wl_workload *wl;
	struct replay_config rc;
	struct run x;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 70, 120);
	ev[n++] = ev_switch(t, 1, 71, 'S', 120, 0, 120);
	for (int i = 0; i < 25; i++) {
		t += 1 * MS;
		ev[n++] = ev_fork(t, 0, 70, 100 + i);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t, 0, 70, 0, 100 + i, 120, 1);
		ev[n] = ev_switch(t, 1, 0, 'R', 120, 100 + i, 120);
		ev[n++].synthetic = true;
		ev[n++] = ev_switch(t + 50 * US, 1, 100 + i, 'X', 120, 0, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 300 * US, 0, 70, 0, 71, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 300 * US, 0, 70, 0, 71, 120, 1);
		ev[n] = ev_switch(t + 335 * US, 1, 0, 'R', 120, 71, 120);
		ev[n++].synthetic = true;
		ev[n++] = ev_switch(t + 385 * US, 1, 71, 'S', 120, 0, 120);
	}
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, m - 4 * US, 0, 70, 0, 60, 0, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, m - 3 * US, 0, 70, 0, 60, 0, 0);
	ev[n++] = ev_switch(m, 0, 70, 'R', 120, 60, 0);
	e = ev_migrate(m + 5 * US, 0, 70, 0, 1);
	e.common_pid = 60;
	ev[n++] = e;
	ev[n] = ev_switch(m + 5 * US, 1, 0, 'R', 120, 70, 120);
	ev[n++].synthetic = true;
	ev[n++] = ev_switch(m + 10 * US, 0, 60, 'S', 0, 0, 120);
	ev[n++] = ev_switch(m + 205 * US, 1, 70, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	CHECK_EQ(wl_facts(wl)->idle_exit_restored, 0x2);
	if (!wl)
		return;
	replay_config_default(&rc);
	if (run_begin(&x, wl, &rc)) {
		moved = dump_find(x.dump, 0, 0, "sched_migrate_task: task70:70 orig_cpu=0 dest_cpu=1");
		in = dump_find(x.dump, 1, moved, "==> task70:70");
		CHECK(moved != UINT64_MAX && in != UINT64_MAX);
		/* the fork context's 0 us, not the task context's 35 us */
		CHECK_EQ(in - moved, 0);
	}
	run_end(&x);
	wl_free(wl);
}

/* The value @names gives @name, as the command line sets it (checked: it has one). */
static int named(const struct replay_name *names, const char *name)
{
	int v = replay_name_to_value(names, name);

	CHECK(v >= 0);
	return v;
}

/*
 * A tick at @t on CPU 0 switches *@cur out for *@other: the tick's hardirq
 * charge of *@cur (@runtime), its put_prev charge 15 us later, the switch
 * (R) 20 us after the tick; the two swap.  Returns the new count of @ev.
 */
static size_t tick_switch(struct trace_event *ev, size_t n, uint64_t t, uint64_t runtime,
			  int *cur, int *other)
{
	int x = *cur;

	ev[n] = ev_runtime(t, 0, x, runtime);
	ev[n++].common_flags = 0x08 | 0x01;              /* hardirq, irqs off */
	ev[n] = ev_runtime(t + 15 * US, 0, x, 15 * US);
	ev[n++].common_flags = 0x04 | 0x01;              /* need_resched set */
	ev[n++] = ev_switch(t + 20 * US, 0, x, 'R', 120, *other, 120);
	*cur = *other;
	*other = x;
	return n;
}

/*
 * --ticks traced (docs/replay.md, "Traced ticks").  Two hogs, 40 and 41,
 * share CPU 0; the trace ticks it every 4 ms at 0.5 ms + k * 4 ms (a hardirq
 * sched_stat_runtime of the running one), ticks 10 and 20 come 300 us late,
 * and every tick switches the ticked hog out 20 us after it (its put_prev
 * charge with need_resched set at 15 us).  A hardirq charge at 42.2 ms with
 * a hardirq wakeup of 42 (a sleeper, the wake list's IPI onto CPU 0) right
 * after it is that wakeup's, not a tick.  Extraction: 30 ticks placed, the late ones at
 * their own times; 30 tick -> switch delays of 20 us.  The simulation under
 * traced ticks has each hog's tick charge at the traced times (the late ones
 * 300 us after their grid points, none at those grid points) and a
 * rescheduling tick's switch 20 us after it; under grid (the default) at the
 * facts' grid points (the mean phase of the 4 ms charges: 19 us after the
 * ticks' own, pulled by the two late ones) and at once (tick_switch_ns 0:
 * no sample under 10 us).
 */
static void test_traced_ticks(void)
{
	struct trace_event ev[256];
	size_t n = 0;
	uint64_t t0 = 1 * MS, grid = 500 * US, late[2] = { 0, 0 };
	int cur = 40, other = 41;
	struct wl_workload *wl;
	const uint64_t *tt;
	uint32_t nt = 0;
	uint64_t ph = 0;

	ev[n++] = ev_switch(t0, 1, 0, 'R', 120, 42, 120);
	ev[n++] = ev_switch(t0 + 5 * US, 1, 42, 'S', 120, 0, 120);
	ev[n++] = ev_switch(t0, 0, 0, 'R', 120, 40, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t0 + 10 * US, 0, 40, 0, 41, 120, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t0 + 11 * US, 0, 40, 0, 41, 120, 0);
	for (int k = 1; k <= 30; k++) {
		uint64_t t = grid + (uint64_t)k * 4 * MS + (k == 10 || k == 20 ? 300 * US : 0);

		if (k == 10 || k == 20)
			late[k / 20] = t;
		if (k == 11) {
			/* a wakeup's charge from an interrupt: not a tick */
			ev[n] = ev_runtime(t - 2 * MS, 0, cur, 1 * MS);
			ev[n++].common_flags = 0x08 | 0x01;
			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t - 2 * MS + 2 * US, 0, cur, 0x08, 42,
					  120, 0);
			ev[n++] = ev_switch(t - 2 * MS + 30 * US, 0, cur, 'R', 120, 42, 120);
			ev[n++] = ev_switch(t - 2 * MS + 40 * US, 0, 42, 'S', 120, cur, 120);
		}
		n = tick_switch(ev, n, t, 4 * MS, &cur, &other);
	}
	CHECK(n <= sizeof(ev) / sizeof(ev[0]));
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	tt = wl_traced_ticks(wl, 0, &nt);
	CHECK_EQ(wl_nr_ticks_found(wl), 30);
	CHECK_EQ(nt, 30);
	CHECK(wl_traced_tick_phase(wl, 0, &ph));
	CHECK_EQ(ph, grid);
	CHECK(nt == 30 && tt[9] == late[0] && tt[19] == late[1]);
	CHECK_EQ(wl_calibration(wl)->tick.n, 30);
	CHECK_EQ(wl_calibration(wl)->tick.p50, 20 * US);
	/* the 20 us delays are counted (up to 1 ms): the fixed delay is their median */
	CHECK_EQ(wl_facts(wl)->tick_switch_samples, 30);
	CHECK_EQ(wl_facts(wl)->tick_switch_ns, 20125);
	CHECK(wl_facts(wl)->tick_phase_known && wl_facts(wl)->tick_phase_ns[0] > grid);
	for (int traced = 0; traced < 2; traced++) {
		struct replay_config rc;
		struct run x;

		replay_config_default(&rc);
		rc.ticks = traced ? REPLAY_TICKS_TRACED : REPLAY_TICKS_GRID;
		if (run_begin(&x, wl, &rc)) {
			for (int i = 0; i < 2; i++) {
				/* the grid: the traced ticks' own, or the facts' (a mean: 19 us late) */
				uint64_t g = late[i] - 300 * US - grid + wl_facts(wl)->tick_phase_ns[0];
				uint64_t at = dump_find(x.dump, 0, g, "sched_stat_runtime");
				uint64_t sw = dump_find(x.dump, 0, at, "sched_switch");

				/* the tick's charge: at the late tick, or at its grid point */
				CHECK_EQ(at, traced ? late[i] : g);
				/* a switch 20 us after it: the drawn delay, or the facts' median */
				CHECK_EQ(sw - at, traced ? 20 * US : wl_facts(wl)->tick_switch_ns);
			}
		}
		run_end(&x);
	}
	wl_free(wl);
}

/*
 * --tick-preempt-at traced (docs/replay.md, "Mechanical costs").  Two hogs,
 * 40 and 41, share CPU 0 from 1 ms; the trace ticks it at 3.5 ms + k * 4 ms
 * (a hardirq charge of the running hog, its put_prev charge 15 us later) and
 * every tick switches the ticked hog out runnable 20 us after it, so each
 * switch is a tick preemption: the extraction marks it (wl_options.tick_marks)
 * at that point of the hog's work, the first after 2.52 ms of 40's work, the
 * next after 4 ms of 41's.  Replayed on a grid at multiples of 4 ms
 * (--tick-phase zero), model (the default) switches at the grid's ticks (the
 * hogs' requests have run out by then): 4 ms, 8 ms; traced switches where
 * the trace did, at 3.52 ms and 7.52 ms, the update_curr() made at the mark
 * finding the request run out before the grid's tick comes.
 */
static void test_tick_preempt_at(void)
{
	struct trace_event ev[128];
	size_t n = 0;
	uint64_t t0 = 1 * MS;
	int cur = 40, other = 41;

	ev[n++] = ev_switch(t0, 0, 0, 'R', 120, 40, 120);
	/* 41 woken from a hardirq: not 40's wakee (no hand-off) */
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t0 + 10 * US, 0, 40, 0x08, 41, 120, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t0 + 11 * US, 0, 40, 0x08, 41, 120, 0);
	for (int k = 0; k < 12; k++) {
		uint64_t t = 3500 * US + (uint64_t)k * 4 * MS;

		/* not a whole period: no phase from the charges */
		n = tick_switch(ev, n, t, 3 * MS, &cur, &other);
	}
	ev[n++] = ev_switch(52 * MS, 0, cur, 'S', 120, other, 120);
	ev[n++] = ev_switch(53 * MS, 0, other, 'S', 120, 0, 120);
	CHECK(n <= sizeof(ev) / sizeof(ev[0]));
	for (int traced = 0; traced < 2; traced++) {
		struct wl_options o = { .tick_marks = traced };
		struct wl_workload *wl = build_opts(ev, n, &o);
		uint32_t marks = 0;
		struct replay_config rc;
		struct run x;

		if (!wl)
			return;
		for (uint32_t i = 0; i < wl_nr_tasks(wl); i++)
			for (uint32_t k = 0; k < wl_task(wl, i)->nr_ops; k++) {
				marks += wl_task_ops(wl, i)[k].kind == WL_OP_PREEMPT;
			}
		/* each of the 12 tick switches (a RUN of the hog before each) */
		CHECK_EQ(marks, traced ? 12u : 0u);
		replay_config_default(&rc);
		rc.no_costs = true;
		rc.tick_phase = named(replay_tick_phase_names, "zero");
		if (traced)
			rc.tick_preempt_at = named(replay_tick_preempt_at_names, "traced");
		if (run_begin(&x, wl, &rc)) {
			uint64_t s1 = dump_find(x.dump, 0, t0 + 1 * US, "task40:40 [120] R");
			uint64_t s2 = dump_find(x.dump, 0, t0 + 1 * US, "task41:41 [120] R");

			CHECK_EQ(s1, traced ? 3520 * US : 4 * MS);
			CHECK_EQ(s2, traced ? 7520 * US : 8 * MS);
		}
		run_end(&x);
		wl_free(wl);
	}
}

/*
 * --tick-phase (docs/replay.md, "Tick grid phase").  Hog 40 runs alone on
 * CPU 0 from 1 ms to 101 ms, charged at its ticks at 1.3 ms + k * 4 ms with
 * a runtime of 1 ms (no charge of a whole period: the facts' phase unknown),
 * 2 us late but for every fifth, 300 us late (the VM's late ticks).  The
 * tick grid infers HZ 250 and its phase, 1.302 ms (the median of the lone
 * charges near their mean, which the late ones pull 60 us later).  The
 * simulation ticks CPU 0 on the grid's phase under grid (the default), on
 * multiples of 4 ms under zero: its first tick charge from 50 ms at
 * 53.302 ms, or at 52 ms; the default is grid's.
 */
static void test_tick_phase_grid(void)
{
	struct trace_event ev[64];
	size_t n = 0;
	struct wl_workload *wl;

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 40, 120);
	for (int k = 1; k <= 24; k++)
		ev[n++] = ev_runtime(1300 * US + (uint64_t)k * 4 * MS + (k % 5 ? 2 : 300) * US, 0, 40,
				     1 * MS);
	ev[n++] = ev_switch(101 * MS, 0, 40, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	CHECK_EQ(wl_facts(wl)->hz, 250);
	CHECK(!wl_facts(wl)->tick_phase_known);
	CHECK(wl_facts(wl)->tick_phase_grid_known);
	CHECK_EQ(wl_facts(wl)->tick_phase_grid_ns[0], 1302 * US);
	CHECK_EQ(wl_facts(wl)->tick_phase_grid_cpus, 1);
	for (int grid = 0; grid < 3; grid++) {
		struct replay_config rc;
		struct run x;

		replay_config_default(&rc);
		if (grid < 2)	/* 2: the default */
			rc.tick_phase = named(replay_tick_phase_names, grid ? "grid" : "zero");
		if (run_begin(&x, wl, &rc))
			CHECK_EQ(dump_find(x.dump, 0, 50 * MS, "sched_stat_runtime"),
				 grid ? 53302 * US : 52 * MS);
		run_end(&x);
	}
	wl_free(wl);
}

/*
 * The waker's side of a wakeup (docs/replay.md, "The waker's side"): parent
 * 70 on CPU 0 forks 40 children, 1 ms apart.  The even ones the trace puts
 * on CPU 0 (local): 70 runs 5 us after the fork and blocks, the child runs
 * 50 us and exits; the odd ones on idle CPU 1 (remote): 70 runs 25 us after
 * the fork - the remote activation and the IPI - and blocks.  A hardirq
 * wakes 70 500 us after each fork.  The calibration keeps the waker's run
 * per locality (5 and 25 us, 20 samples each).  Under --placement model
 * (the model puts the children on idle CPU 1) the simulated locality
 * differs from the trace's for the local forks: with --waker-costs follow
 * each of them adds the drawn difference (25 - 5 = 20 us) to the parent's
 * run before its block; traced (the default) keeps the 5 us.  With a hog
 * on CPU 1 (@hog) the remote forks wait there behind it and the model puts
 * the children on CPU 0 instead: each remote one loses the 20 us.
 */
static uint64_t parent_runs(const char *dump, uint64_t t0, int cpu, int first)
{
	uint64_t sum = 0;

	for (int i = first; i < 40; i += 2) {
		uint64_t f = t0 + (uint64_t)(i + 1) * MS;
		uint64_t fork = dump_find(dump, cpu, f, "sched_process_fork");
		uint64_t out = dump_find(dump, cpu, fork, "sched_switch: task70:70");

		CHECK(fork != UINT64_MAX && out != UINT64_MAX);
		if (fork == UINT64_MAX || out == UINT64_MAX)
			return 0;
		sum += out - fork;
	}
	return sum;
}

static void test_waker_costs_on(bool hog)
{
	static struct trace_event ev[512];
	size_t n = 0;
	uint64_t t0 = 1 * MS, t = t0, run[3] = { 0 }, added[3] = { 0 }, removed[3] = { 0 };
	int cls;
	const struct wl_calib *c;
	struct wl_workload *wl;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 70, 120);
	ev[n++] = ev_switch(t, 1, 71, 'S', 120, hog ? 72 : 0, 120);
	for (int i = 0; i < 40; i++) {
		int child = 100 + i, remote = i & 1;
		uint64_t block;

		t += 1 * MS;
		ev[n++] = ev_fork(t, 0, 70, child);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t, 0, 70, 0, child, 120, remote);
		block = t + (remote ? 25 : 5) * US;
		if (remote && hog) {
			/* onto CPU 1 busy with hog 72: it runs when 72 is preempted */
			ev[n++] = ev_switch(block, 0, 70, 'S', 120, 0, 120);
			ev[n++] = ev_switch(t + 100 * US, 1, 72, 'R', 120, child, 120);
			ev[n++] = ev_switch(t + 150 * US, 1, child, 'X', 120, 72, 120);
		} else if (remote) {
			ev[n++] = ev_switch(t + 20 * US, 1, 0, 'R', 120, child, 120);
			ev[n++] = ev_switch(block, 0, 70, 'S', 120, 0, 120);
			ev[n++] = ev_switch(t + 70 * US, 1, child, 'X', 120, 0, 120);
		} else {
			ev[n++] = ev_switch(block, 0, 70, 'S', 120, child, 120);
			ev[n++] = ev_switch(block + 50 * US, 0, child, 'X', 120, 0, 120);
		}
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 500 * US, 0, 0, 0x08, 70, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 500 * US, 0, 0, 0x08, 70, 120, 0);
		ev[n++] = ev_switch(t + 510 * US, 0, 0, 'R', 120, 70, 120);
	}
	ev[n++] = ev_switch(t + 1 * MS, 0, 70, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	c = wl_calibration(wl);
	cls = hog ? CALIB_WAKER_REMOTE_BUSY : CALIB_WAKER_REMOTE_IDLE;
	CHECK_EQ(c->waker[CALIB_WAKER_FORK][CALIB_WAKER_LOCAL].n, 20);
	CHECK_EQ(c->waker[CALIB_WAKER_FORK][CALIB_WAKER_LOCAL].p50, 5 * US);
	CHECK_EQ(c->waker[CALIB_WAKER_FORK][cls].n, 20);
	CHECK_EQ(c->waker[CALIB_WAKER_FORK][cls].p50, 25 * US);
	CHECK_EQ(calib_draw_waker(c, CALIB_WAKER_FORK, cls, 7, 0, 1), 20 * US);
	for (int m = 0; m < 3; m++) {
		static const enum replay_waker_costs mode[3] = { REPLAY_WAKER_TRACED,
			REPLAY_WAKER_PLACED, REPLAY_WAKER_FOLLOW };
		struct replay_config rc;
		struct run x;

		replay_config_default(&rc);
		rc.placement = REPLAY_PLACEMENT_MODEL;
		rc.waker_costs = mode[m];
		if (run_begin(&x, wl, &rc)) {
			added[m] = note_count(x.r, "wakeups and forks local in the trace, remote");
			removed[m] = note_count(x.r, "wakeups and forks remote in the trace, local");
			run[m] = parent_runs(x.dump, t0, 0, hog ? 1 : 0);
		}
		run_end(&x);
	}
	CHECK_EQ(added[0] + removed[0], 0);
	if (!hog) {
		/* 20 local forks made remote: 20 x 5 us as traced, 20 x 25 us following */
		CHECK_EQ(added[1], 20);
		CHECK_EQ(added[2], 20);
		CHECK_EQ(run[0], 20 * 5 * US);
		CHECK_EQ(run[1], 20 * 25 * US);
		CHECK_EQ(run[2], 20 * 25 * US);
	} else {
		/* 20 remote forks made local: 20 x 25 us as traced, 20 x 5 us following */
		CHECK_EQ(removed[1], 20);
		CHECK_EQ(removed[2], 20);
		CHECK_EQ(run[0], 20 * 25 * US);
		CHECK_EQ(run[1], 20 * 5 * US);
		CHECK_EQ(run[2], 20 * 5 * US);
	}
	wl_free(wl);
}

/*
 * A wake-list flush onto a CPU whose switches out of idle are restored
 * (docs/replay.md, "Mechanical costs"; the small-nowaking capture, which has
 * no sched_waking): one interrupt on idle CPU 1 queues tasks 81, 82 and 83,
 * 1 us apart, and CPU 1 runs 83 - restored at its wakeup, so the idle cost
 * is 0 us.  The kernel enqueues the whole flush before idle's schedule():
 * the simulated CPU 1 leaves idle at the flush's last wakeup (+2 us), not
 * at the first one's 0 us (--no-flush-hold); the extraction records the
 * flush (flush_ns 2 and 1 us, 0 for the last).
 */
static void test_flush_hold(void)
{
	struct trace_event ev[512];
	size_t n = 0;
	uint64_t t = 1 * MS, t1 = 0;
	struct wl_workload *wl;
	uint32_t members = 0;

	ev[n++] = ev_switch(t, 0, 90, 'S', 120, 0, 120);
	ev[n++] = ev_switch(t, 1, 81, 'S', 120, 82, 120);
	ev[n++] = ev_switch(t + 1 * US, 1, 82, 'S', 120, 83, 120);
	ev[n++] = ev_switch(t + 2 * US, 1, 83, 'S', 120, 0, 120);
	for (int i = 0; i < 25; i++) {
		t += 1 * MS;
		if (!t1)
			t1 = t;
		for (int k = 0; k < 3; k++)
			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + (uint64_t)k * US, 1, 0, 0x08,
					  81 + k, 120, 1);
		ev[n] = ev_switch(t + 2 * US, 1, 0, 'R', 120, 83, 120);
		ev[n++].synthetic = true;
		ev[n++] = ev_switch(t + 102 * US, 1, 83, 'S', 120, 81, 120);
		ev[n++] = ev_switch(t + 202 * US, 1, 81, 'S', 120, 82, 120);
		ev[n++] = ev_switch(t + 302 * US, 1, 82, 'S', 120, 0, 120);
	}
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	CHECK_EQ(wl_facts(wl)->idle_exit_restored, 0x2);
	for (uint32_t i = 0; i < wl_nr_wakes(wl); i++) {
		const struct wl_wake *w = wl_wake(wl, i);

		if (w->ts >= t1 && w->ts < t1 + 1 * MS) {
			CHECK_EQ(w->flush_ns, (uint32_t)(t1 + 2 * US - w->ts));
			members++;
		}
	}
	CHECK_EQ(members, 3);
	for (int hold = 0; hold <= 1; hold++) {
		struct replay_config rc;
		struct run x;
		uint64_t in;

		replay_config_default(&rc);
		rc.no_flush_hold = !hold;
		if (run_begin(&x, wl, &rc)) {
			{
				unsigned int it = 0;
				const char *tx;
				uint64_t cnt;

				/* one note per idle exit held (25 flushes), not per member (50) */
				while (replay_note_next(x.r, &it, &tx, &cnt))
					if (strstr(tx, "idle exits held"))
						CHECK_EQ(cnt, 25);
			}
			in = dump_find(x.dump, 1, t1, "sched_switch: swapper/1:0 [120] R ==>");
			CHECK(in != UINT64_MAX);
			CHECK_EQ(in - t1, hold ? 2 * US : 0);
		}
		run_end(&x);
	}
	wl_free(wl);
}

/*
 * --exit-preempt (docs/replay.md, "Exits"): task 50 runs alone on CPU 0 from
 * 1 ms (its slice protection long spent), exits (its sched_process_exit at
 * 10 ms, its EXIT_MOVE's charge at 10.01 ms), wakes its parent 40 (nice
 * -20: the earliest deadline) there at 10.02 ms and runs on to its last
 * switch at 10.05 ms.  The EXIT_MOVE left need_resched set: under now the
 * wakeup preempts 50 at once (no costs), and 40 runs from 10.02 ms; under
 * defer (the default) nothing is armed and 40 runs from 50's exit, 10.05 ms,
 * as in the trace.  Then the same with 50's last switch at 15 ms: the tick
 * at 12 ms does not preempt it either (arm_resched()), 40 runs from 15 ms.
 */
static void test_exit_preempt_at(uint64_t exit_at)
{
	struct trace_event ev[16], e;
	size_t n = 0;
	struct wl_workload *wl;

	ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(1 * MS, 0, 40, 'S', 100, 50, 120);
	e = ev_base(TRACE_EV_SCHED_PROCESS_EXIT, 10 * MS, 0, 50);
	e.u.exit.pid = 50;
	ev[n++] = e;
	ev[n++] = ev_runtime(10 * MS + 10 * US, 0, 50, 1 * MS);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 10 * MS + 20 * US, 0, 50, 0, 40, 100, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 10 * MS + 21 * US, 0, 50, 0, 40, 100, 0);
	ev[n++] = ev_switch(exit_at, 0, 50, 'X', 120, 40, 100);
	ev[n++] = ev_switch(exit_at + 1 * MS, 0, 40, 'S', 100, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	for (int defer = 0; defer <= 1; defer++) {
		struct replay_config rc;
		struct run x;

		replay_config_default(&rc);
		rc.no_costs = true;
		rc.exit_preempt = named(replay_exit_preempt_names, defer ? "defer" : "now");
		if (run_begin(&x, wl, &rc))
			CHECK_EQ(dump_find(x.dump, 0, 10 * MS, "==> task40:40"),
				 defer ? exit_at : 10 * MS + 20 * US);
		run_end(&x);
	}
	wl_free(wl);
}

static void test_exit_preempt(void)
{
	test_exit_preempt_at(10 * MS + 50 * US);
	test_exit_preempt_at(15 * MS);
}

/*
 * --cpu-stalls (docs/replay.md, "CPU stalls"): task 50 runs alone on CPU 0
 * from 1 ms, its ticks charging it at 4 and 8 ms; then CPU 0 writes nothing
 * for 50 ms (a stalled vCPU).  At 20 ms task 60 on CPU 1 wakes task 51 onto
 * CPU 0 (the remote update_curr() charges 50 12 ms there); at 58 ms 50's
 * tick charges it the rest, 38 ms, and 51 runs from 58.02 ms to 59.02 ms;
 * 50 runs on to 70 ms and sleeps.  Under off the stall is 50's work: 51's
 * wakeup preempts it at 20 ms (no costs), ticks come every 4 ms.  Under
 * traced the extraction takes the 50 ms out of 50's work and the CPU runs
 * nothing from 8 to 58 ms: 51 waits until 58 ms, no tick is charged in
 * between, the tick at 58 ms charges 50 the stall (the charge and the
 * earlier one at the wakeup make 50 ms, sched_stat_runtime of the model),
 * and 50 sleeps about when the trace's does (its work: 7 + 11 ms).  The
 * extraction finds no stall without the option, nor with it when the
 * charges do not cover the gap (steal time left out of clock_task).
 */
static void test_cpu_stalls(void)
{
	struct trace_event ev[32];
	size_t n = 0;
	struct wl_options o = { .hz = 250 };

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120);
	ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 60, 120);
	ev[n++] = ev_runtime(4 * MS, 0, 50, 3 * MS);
	ev[n++] = ev_runtime(4 * MS + 1 * US, 1, 60, 3 * MS);
	ev[n++] = ev_runtime(8 * MS, 0, 50, 4 * MS);
	ev[n++] = ev_runtime(8 * MS + 1 * US, 1, 60, 4 * MS);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 20 * MS, 1, 60, 0, 51, 120, 0);
	ev[n] = ev_runtime(20 * MS + 1 * US, 1, 50, 12 * MS);
	ev[n++].common_pid = 60;
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 20 * MS + 2 * US, 1, 60, 0, 51, 120, 0);
	ev[n++] = ev_runtime(21 * MS, 1, 60, 13 * MS);
	ev[n++] = ev_switch(21 * MS, 1, 60, 'S', 120, 0, 120);
	ev[n++] = ev_runtime(58 * MS, 0, 50, 38 * MS);
	ev[n++] = ev_runtime(58 * MS + 20 * US, 0, 50, 20 * US);
	ev[n++] = ev_switch(58 * MS + 20 * US, 0, 50, 'R', 120, 51, 120);
	ev[n++] = ev_runtime(59 * MS + 20 * US, 0, 51, 1 * MS);
	ev[n++] = ev_switch(59 * MS + 20 * US, 0, 51, 'S', 120, 50, 120);
	ev[n++] = ev_runtime(62 * MS, 0, 50, 3 * MS);
	ev[n++] = ev_runtime(66 * MS, 0, 50, 4 * MS);
	ev[n++] = ev_runtime(70 * MS, 0, 50, 4 * MS);
	ev[n++] = ev_switch(70 * MS, 0, 50, 'S', 120, 0, 120);
	for (int traced = 0; traced <= 2; traced++) {
		struct trace_event e2[32];
		struct wl_workload *wl;
		struct replay_config rc;
		struct run x;

		memcpy(e2, ev, n * sizeof(*ev));
		if (traced == 2)       /* 38 ms of steal left out: charged 1 ms */
			e2[11].u.stat_runtime.runtime = 1 * MS;
		o.cpu_stalls = traced > 0;
		wl = build_opts(e2, n, &o);
		if (!wl)
			return;
		CHECK_EQ(wl_nr_stalls(wl), (traced == 1 ? 1u : 0u));
		if (traced == 1) {
			const struct wl_stall *st = wl_stall_at(wl, 0);

			CHECK_EQ(st->cpu, 0);
			CHECK_EQ(st->start, 8 * MS);
			CHECK_EQ(st->end, 58 * MS);
		}
		replay_config_default(&rc);
		rc.no_costs = true;
		rc.cpu_stalls = named(replay_cpu_stalls_names, traced == 1 ? "traced" : "off");
		if (run_begin(&x, wl, &rc) && traced < 2) {
			uint64_t in = dump_find(x.dump, 0, 10 * MS, "==> task51:51");
			uint64_t tick = dump_find(x.dump, 0, 9 * MS, "comm=task50 pid=50 runtime=");
			uint64_t out = dump_find(x.dump, 0, 60 * MS, "task50:50 [120] S ==>");

			if (traced) {
				const char *l = strstr(x.dump, "[000] 0.058000000: sched_stat_runtime: "
							      "comm=task50 pid=50 runtime=");
				unsigned long long rt = 0;

				CHECK_EQ(in, 58 * MS);
				/* the wakeup's update_curr() at 20 ms, then the tick at the end */
				CHECK_EQ(tick, 20 * MS);
				CHECK(l != NULL);
				if (l)
					CHECK_EQ(sscanf(strstr(l, "runtime=") + 8, "%llu", &rt), 1);
				CHECK_EQ(rt, 38 * MS);
				CHECK(dump_find(x.dump, 0, 20 * MS + 1, "comm=task50 pid=50") == 58 * MS);
			} else {
				CHECK(in < 21 * MS);
				CHECK(tick < 13 * MS);
			}
			CHECK(out != UINT64_MAX && out > 66 * MS && out < 74 * MS);
		}
		run_end(&x);
		wl_free(wl);
	}
}

/*
 * --cpu-stalls steal (docs/replay.md, "CPU stalls"): task 50 runs alone on
 * CPU 0 from 1 ms, its ticks charging it at 4 and 8 ms; then CPU 0 writes
 * nothing until 58 ms, where 50's tick charges it 2 ms: the vCPU ran it from
 * 8 to 10 ms, then 48 ms were steal that clock_task left out.  50 runs on to
 * 70 ms and sleeps.  Under steal the extraction takes the 48 ms (10 -> 58
 * ms) as a steal stall out of 50's work, and the simulation's CPU runs
 * nothing and takes no tick then, its clock_task stopped: no charge inside
 * it, 50's charges add up to the trace's 21 ms (not 69), each written at
 * the simulation's time, and 50 sleeps about when the trace's does.  Under
 * traced no stall is found (the charge is short of the gap) and the ticks
 * charge 50 every 4 ms through the gap, 69 ms in all.  A gap that
 * begins with a switch to idle and ends with the task's charge (the reader's
 * restored switch out of idle in between: bw-hogs-run3) is no stall.
 */
static void test_cpu_steal(void)
{
	struct trace_event ev[16];
	size_t n = 0;
	struct wl_options o = { .hz = 250, .cpu_stalls = true };

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120);
	ev[n++] = ev_runtime(4 * MS, 0, 50, 3 * MS);
	ev[n++] = ev_runtime(8 * MS, 0, 50, 4 * MS);
	ev[n++] = ev_runtime(58 * MS, 0, 50, 2 * MS);
	ev[n++] = ev_runtime(62 * MS, 0, 50, 4 * MS);
	ev[n++] = ev_runtime(66 * MS, 0, 50, 4 * MS);
	ev[n++] = ev_runtime(70 * MS, 0, 50, 4 * MS);
	ev[n++] = ev_switch(70 * MS, 0, 50, 'S', 120, 0, 120);
	for (int steal = 0; steal <= 1; steal++) {
		struct wl_workload *wl;
		struct replay_config rc;
		struct run x;

		o.cpu_steal = steal;
		wl = build_opts(ev, n, &o);
		if (!wl)
			return;
		CHECK_EQ(wl_nr_stalls(wl), (steal ? 1u : 0u));
		if (steal && wl_nr_stalls(wl) == 1) {
			const struct wl_stall *st = wl_stall_at(wl, 0);

			CHECK_EQ(st->cpu, 0);
			CHECK_EQ(st->start, 10 * MS);
			CHECK_EQ(st->end, 58 * MS);
			CHECK_EQ(st->steal, 48 * MS);
		}
		replay_config_default(&rc);
		rc.no_costs = true;
		rc.cpu_stalls = named(replay_cpu_stalls_names, steal ? "steal" : "traced");
		if (run_begin(&x, wl, &rc)) {
			uint64_t tick = dump_find(x.dump, 0, 10 * MS + 1, "comm=task50 pid=50 runtime=");
			uint64_t out = dump_find(x.dump, 0, 60 * MS, "task50:50 [120] S ==>");

			unsigned long long sum = 0, rt;

			for (const char *l = x.dump; (l = strstr(l, "comm=task50 pid=50 runtime=")); l++)
				if (sscanf(l + 27, "%llu", &rt) == 1)
					sum += rt;
			if (steal) {
				CHECK(tick >= 58 * MS && tick <= 62 * MS);   /* none inside the steal */
				CHECK(sum >= 21 * MS - 10 * US && sum <= 21 * MS + 10 * US);
			} else {
				CHECK(tick < 15 * MS);
				CHECK(sum >= 69 * MS - 10 * US && sum <= 69 * MS + 10 * US);
			}
			CHECK(out != UINT64_MAX && out > 66 * MS && out < 74 * MS);
		}
		run_end(&x);
		wl_free(wl);
	}
	/*
	 * a switch to idle at 8 ms, the reader's restored switch out of idle at
	 * 29 ms (synthetic: the kernel did not trace it), the task's charge at 30
	 * ms: the CPU idled, no stall
	 */
	{
		struct trace_event e2[8];
		size_t m = 0;
		struct wl_workload *wl;

		e2[m++] = ev_switch(1 * MS, 0, 0, 'R', 120, 50, 120);
		e2[m++] = ev_runtime(4 * MS, 0, 50, 3 * MS);
		e2[m++] = ev_runtime(8 * MS, 0, 50, 4 * MS);
		e2[m++] = ev_switch(8 * MS, 0, 50, 'R', 120, 0, 120);
		e2[m] = ev_switch(29 * MS, 0, 0, 'R', 120, 50, 120);
		e2[m++].synthetic = true;
		e2[m++] = ev_runtime(30 * MS, 0, 50, 1 * MS);
		e2[m++] = ev_switch(30 * MS, 0, 50, 'S', 120, 0, 120);
		o.cpu_steal = true;
		wl = build_opts(e2, m, &o);
		if (wl) {
			CHECK_EQ(wl_nr_stalls(wl), 0u);
			wl_free(wl);
		}
	}
}

/*
 * --resched-at syscall-exit (docs/replay.md, "Mechanical costs"): leader 60
 * runs alone on CPU 0 from 1 ms (its protection long spent); at 10 ms one
 * write() (its sys_enter_write / sys_exit_write) wakes its four children
 * 61-64 (nice -20: each would preempt it) 2 us apart on its own CPU, as
 * hackbench's readiness barrier, and the trace switches 60 out after the
 * call's exit (preempt=none: at the return to user space).  Under cost (no
 * costs) the first wake switches 60 out at once, before it woke the other
 * three; under syscall-exit it wakes all four and leaves at its exit mark,
 * 10.010 ms.  Without the syscall events (the marks) syscall-exit is cost.
 */
static struct trace_event ev_sys(enum trace_event_type type, uint64_t ts, int cpu, int pid,
				 int64_t ret)
{
	struct trace_event e = ev_base(type, ts, cpu, pid);

	e.u.syscall.fd = 4;
	e.u.syscall.count = 1;
	e.u.syscall.ret = ret;
	return e;
}

static void test_resched_at_syscall_exit(void)
{
	struct trace_event ev[48];
	size_t n = 0;
	uint64_t t = 10 * MS;

	ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 61, 100);
	for (int k = 0; k < 4; k++)
		ev[n++] = ev_switch(1 * MS + (uint64_t)(k + 1) * US, 0, 61 + k, 'S', 100,
				    k < 3 ? 62 + k : 60, k < 3 ? 100 : 120);
	ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_WRITE, t, 0, 60, 0);
	for (int k = 0; k < 4; k++) {
		uint64_t w = t + (uint64_t)(1 + 2 * k) * US;

		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, w, 0, 60, 0, 61 + k, 100, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, w + 500, 0, 60, 0, 61 + k, 100, 0);
	}
	ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_WRITE, t + 10 * US, 0, 60, 1);
	ev[n++] = ev_switch(t + 12 * US, 0, 60, 'R', 120, 61, 100);
	for (int k = 0; k < 4; k++)
		ev[n++] = ev_switch(t + (uint64_t)(20 + 10 * k) * US, 0, 61 + k, 'S', 100,
				    k < 3 ? 62 + k : 60, k < 3 ? 100 : 120);
	ev[n++] = ev_switch(11 * MS, 0, 60, 'S', 120, 0, 120);
	for (int marks = 0; marks <= 1; marks++) {
		struct wl_options o = { .syscall_marks = marks };
		struct wl_workload *wl = build_opts(ev, n, &o);

		if (!wl)
			return;
		for (int sx = 0; sx <= 1; sx++) {
			struct replay_config rc;
			struct run x;

			replay_config_default(&rc);
			rc.no_costs = true;
			rc.resched_at = named(replay_resched_at_names, sx ? "syscall-exit" : "cost");
			if (run_begin(&x, wl, &rc)) {
				uint64_t out = dump_find(x.dump, 0, t, "task60:60 [120] R");
				uint64_t last = dump_find(x.dump, 0, t, "sched_waking: task64:64");

				if (marks && sx) {
					/* all four wakes, then the switch at the exit */
					CHECK_EQ(out, t + 10 * US);
					CHECK_EQ(last, t + 7 * US);
				} else {
					/* the first wake's preemption, at once */
					CHECK_EQ(out, t + 1 * US);
					CHECK(last > out && last != UINT64_MAX);
				}
			}
			run_end(&x);
		}
		wl_free(wl);
	}
}

/*
 * --resched-at next-wake and a wake-all in one system call (WL_WAKE_OP_IN_CALL,
 * docs/replay.md, "Mechanical costs"): leader 60 on CPU 0 first wakes task 65
 * (nice -20) 30 times, switched out for it 3 us after each wake (the local
 * preemption path's calibrated cost), then wakes its four children 61-64 (nice
 * -20: each would preempt it) 0.5 us apart, as hackbench's readiness barrier,
 * with no syscall events; the trace switches it out for 61 at 10.012 ms.  With
 * TIF_NEED_RESCHED (common_flags 0x04) set from 61's sched_wakeup on, the trace
 * shows the four wakes in one kernel entry: next-wake leaves 62-64 to the
 * call, 60 wakes all four before its switch (the note counts the three).
 * Without the flag (a trace that does not show the call) next-wake switches 60
 * out at its second wake, before it woke 62: each wake its own call.
 */
static void test_resched_next_wake_in_call(void)
{
	struct trace_event ev[160];
	size_t n;
	uint64_t t = 10 * MS;
	struct wl_workload *wl[2];

	for (int flag = 0; flag <= 1; flag++) {
		n = 0;
		ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 0, 120);
		ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 61, 100);
		for (int k = 0; k < 4; k++)
			ev[n++] = ev_switch(1 * MS + (uint64_t)(k + 1) * US, 0, 61 + k, 'S', 100,
					    k < 3 ? 62 + k : 60, k < 3 ? 100 : 120);
		for (int k = 0; k < 30; k++) {
			uint64_t r = 2 * MS + (uint64_t)k * 200 * US;

			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, r, 0, 60, 0x01, 65, 100, 0);
			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, r + 300, 0, 60, 0x05, 65, 100, 0);
			ev[n++] = ev_switch(r + 3 * US, 0, 60, 'R', 120, 65, 100);
			ev[n++] = ev_switch(r + 8 * US, 0, 65, 'S', 100, 60, 120);
		}
		for (int k = 0; k < 4; k++) {
			uint64_t w = t + 1 * US + (uint64_t)k * 500;

			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, w, 0, 60, k && flag ? 0x05 : 0x01,
					  61 + k, 100, 0);
			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, w + 200, 0, 60, flag ? 0x05 : 0x01,
					  61 + k, 100, 0);
		}
		ev[n++] = ev_switch(t + 12 * US, 0, 60, 'R', 120, 61, 100);
		for (int k = 0; k < 4; k++)
			ev[n++] = ev_switch(t + (uint64_t)(20 + 10 * k) * US, 0, 61 + k, 'S', 100,
					    k < 3 ? 62 + k : 60, k < 3 ? 100 : 120);
		ev[n++] = ev_switch(11 * MS, 0, 60, 'S', 120, 0, 120);
		wl[flag] = build(ev, n);
		CHECK(wl[flag] != NULL);
	}
	for (int flag = 0; flag <= 1; flag++) {
		struct replay_config rc;
		struct run x;

		if (!wl[flag])
			continue;
		for (uint32_t i = 0; i < wl_nr_tasks(wl[flag]); i++) {
			const struct wl_op *ops = wl_task_ops(wl[flag], i);
			uint32_t k = 0;

			if (wl_task(wl[flag], i)->pid != 60)
				continue;
			for (uint32_t o = 0; o < wl_task(wl[flag], i)->nr_ops; o++)
				if (ops[o].kind == WL_OP_WAKE) {
					bool barrier = wl_wake(wl[flag], ops[o].arg)->ts >= t;

					/* the flag from the barrier's second wake on, where the trace shows it */
					CHECK_EQ(!!(ops[o].aux & WL_WAKE_OP_IN_CALL), flag && barrier && k > 0);
					k += barrier;
				}
			CHECK_EQ(k, 4);
		}
		replay_config_default(&rc);
		rc.resched_at = named(replay_resched_at_names, "next-wake");
		if (run_begin(&x, wl[flag], &rc)) {
			uint64_t out = dump_find(x.dump, 0, t, "task60:60 [120] R");
			uint64_t w62 = dump_find(x.dump, 0, t, "sched_waking: task62:62");
			uint64_t w64 = dump_find(x.dump, 0, t, "sched_waking: task64:64");

			CHECK(out != UINT64_MAX && w62 != UINT64_MAX && w64 != UINT64_MAX);
			if (flag) {
				CHECK(w64 < out);
				CHECK_EQ(note_count(x.r, "wakes with a switch armed on their CPU and not yet due NOT"), 3);
			} else {
				CHECK_EQ(out, t + 1 * US + 500);
				CHECK(w62 > out);
			}
		}
		run_end(&x);
		wl_free(wl[flag]);
	}
}

/*
 * The flush hold under --placement model: a member the model places off the
 * flush's CPU (CPU 0 idle, its previous CPU) is not held to the end of CPU
 * 1's flush (review of 1 Dec 2026).
 */
static void test_flush_hold_model(void)
{
	struct trace_event ev[512];
	size_t n = 0;
	uint64_t t = 1 * MS, t1;
	struct wl_workload *wl;

	/* 81-83 last ran on CPU 0; an interrupt on idle CPU 1 wakes them there, 10 us apart */
	ev[n++] = ev_switch(t, 1, 90, 'S', 120, 0, 120);
	ev[n++] = ev_switch(t, 0, 81, 'S', 120, 82, 120);
	ev[n++] = ev_switch(t + 1 * US, 0, 82, 'S', 120, 83, 120);
	ev[n++] = ev_switch(t + 2 * US, 0, 83, 'S', 120, 0, 120);
	t += 1 * MS;
	t1 = t;
	for (int k = 0; k < 3; k++)
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + (uint64_t)k * 10 * US, 1, 0, 0x08,
				  81 + k, 120, 1);
	ev[n++] = ev_switch(t + 30 * US, 1, 0, 'R', 120, 83, 120);
	ev[n++] = ev_switch(t + 140 * US, 1, 83, 'S', 120, 81, 120);
	ev[n++] = ev_switch(t + 240 * US, 1, 81, 'S', 120, 82, 120);
	ev[n++] = ev_switch(t + 340 * US, 1, 82, 'S', 120, 0, 120);
	wl = build(ev, n);
	if (!wl)
		return;
	for (int hold = 0; hold <= 1; hold++) {
		struct replay_config rc;
		struct run x;

		replay_config_default(&rc);
		rc.no_flush_hold = !hold;
		rc.no_costs = true;
		rc.placement = REPLAY_PLACEMENT_MODEL;
		if (run_begin(&x, wl, &rc)) {
			uint64_t w0 = dump_find(x.dump, 0, t1, "sched_wakeup:");
			uint64_t in0 = dump_find(x.dump, 0, t1, "sched_switch: swapper/0:0 [120] R ==>");
			uint64_t in1 = dump_find(x.dump, 1, t1, "sched_switch: swapper/1:0 [120] R ==>");

			/*
			 * The model puts 81 on idle CPU 0 (prev 0, wake_affine_idle()) at
			 * +0 us; only CPU 1 is in the traced interrupt's flush (ends +20 us):
			 * CPU 0 must leave idle at once (no costs), CPU 1 at +20 us.
			 */
			CHECK_EQ(w0 - t1, 0);
			CHECK_EQ(in0 - t1, 0);
			CHECK_EQ(in1 - t1, hold ? 20 * US : 10 * US);
		}
		run_end(&x);
	}
	wl_free(wl);
}

/*
 * A traced balancer pull of a child the simulation has not forked yet
 * (docs/replay.md, "Traced migrations"): CPU 0's switches out of idle take
 * 50 us (25 wakes of task 51), so parent 52, woken on idle CPU 0 at 30 ms,
 * runs 50 us later in the simulation than the trace's 1 us, and forks child
 * 53 onto CPU 0 after the trace's CPU 1 (idle since its task 54 slept)
 * pulled it.  The pull is kept: the child goes to idle CPU 1 at its fork
 * instead of waiting 1 ms behind its parent.
 */
static void test_pull_before_fork(void)
{
	struct trace_event ev[256];
	size_t n = 0;
	uint64_t t = 1 * MS, w = 30 * MS;
	struct wl_workload *wl;
	struct replay_result *r;
	struct replay_config rc;
	struct sr_error err = { 0 };

	ev[n++] = ev_switch(t, 0, 51, 'S', 120, 0, 120);
	ev[n++] = ev_switch(t, 1, 54, 'R', 120, 54, 120);
	for (int i = 0; i < 25; i++) {
		t += 1 * MS;
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 0, 0, 0x08, 51, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 0, 0, 0x08, 51, 120, 0);
		ev[n++] = ev_switch(t + 50 * US, 0, 0, 'R', 120, 51, 120);
		ev[n++] = ev_switch(t + 100 * US, 0, 51, 'S', 120, 0, 120);
	}
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, w, 0, 0, 0x08, 52, 120, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, w, 0, 0, 0x08, 52, 120, 0);
	ev[n++] = ev_switch(w + 1 * US, 0, 0, 'R', 120, 52, 120);
	ev[n++] = ev_fork(w + 2 * US, 0, 52, 53);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, w + 2 * US, 0, 52, 0, 53, 120, 0);
	ev[n++] = ev_switch(w + 3 * US, 1, 54, 'S', 120, 0, 120);
	ev[n++] = ev_migrate(w + 4 * US, 1, 53, 0, 1);
	ev[n++] = ev_switch(w + 5 * US, 1, 0, 'R', 120, 53, 120);
	ev[n++] = ev_switch(w + 200 * US, 1, 53, 'X', 120, 0, 120);
	ev[n++] = ev_switch(w + 1 * MS, 0, 52, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	replay_config_default(&rc);
	r = replay_run(wl, &rc, &err);
	CHECK(r != NULL);
	if (!r) {
		wl_free(wl);
		return;
	}
	CHECK_EQ(note_count(r, "traced balancer pulls of tasks not yet forked or woken here: placed"), 1);
	/* the child ran on CPU 1 at once: a 0-cost placement of an idle CPU's pull */
	CHECK(comm_p50(replay_latency(r), "task53") < 60 * US);
	replay_result_free(r);
	wl_free(wl);
}

/*
 * A reader with two writers (replay_config.channel_wakes).  Reader 60 sleeps
 * on idle CPU 2; writer 61 runs on CPU 0 and writes (wakes 60) 300 us into
 * each round; writer 62 is woken from a hardirq on idle CPU 1 at the start of
 * the round, ran 500 us later on the hardware (its idle exit), works 10 us and
 * writes.  The trace pairs 60's first sleep of a round with 61, its second
 * with 62.  Without costs, 62 writes at 10 us: without the option 60 sleeps
 * on until 61's write at 300 us (62's message waits, an early wake); with it
 * 62's write ends the sleep and 61's the next.  Four rounds; in the first 60
 * sleeps since before the trace (no BLOCK to pair): 3 re-paired sleeps.
 */
/* run_notes()' configuration, @burst: replay_config.channel_burst (test_channel_burst()) */
static struct replay_result *run_notes_burst(const struct wl_workload *wl, bool channel,
					     bool oneway, bool stop_at_end,
					     enum replay_channel_burst burst)
{
	struct replay_config rc;
	struct sr_error err = { 0 };
	struct replay_result *r;

	replay_config_default(&rc);
	rc.no_costs = true;
	rc.channel_wakes = channel;
	rc.channel_burst = burst;
	rc.oneway_no_wait = oneway;
	rc.stop_at_end = stop_at_end;
	/* the waits these tests count are slept (test_handoff_modes() has the others) */
	rc.handoff = REPLAY_HANDOFF_SLEEP;
	/*
	 * A preempted waker switched at once (no costs): under the default
	 * --resched-at traced it first runs its traced 2 us to the switch,
	 * which moves the later wakeups' lags and so the scenario's decisions.
	 */
	rc.resched_at = REPLAY_RESCHED_COST;
	r = replay_run(wl, &rc, &err);
	if (!r)
		fprintf(stderr, "replay: %s\n", err.msg);
	return r;
}

static struct replay_result *run_notes(const struct wl_workload *wl, bool channel, bool oneway,
					bool stop_at_end)
{
	return run_notes_burst(wl, channel, oneway, stop_at_end, REPLAY_CHANNEL_BURST_OFF);
}

/*
 * test_channel_wakes()' rounds with reader 60 on CPU @rcpu (2 there; 1 in
 * test_channel_burst(): the CPU writer 62 runs on).
 */
static size_t channel_events(struct trace_event *ev, int rcpu)
{
	size_t n = 0;

	ev[n++] = ev_runtime(1 * MS, 0, 61, 1000);
	ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(1 * MS, 2, 0, 'R', 120, 0, 120);
	for (int k = 0; k < 4; k++) {
		uint64_t t = (uint64_t)(2 + k) * MS;

		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 1, 0, 0x08, 62, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 1, 0, 0x08, 62, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 300 * US, 0, 61, 0, 60, 120, rcpu);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 300 * US, 0, 61, 0, 60, 120, rcpu);
		ev[n++] = ev_switch(t + 302 * US, rcpu, 0, 'R', 120, 60, 120);
		ev[n++] = ev_switch(t + 310 * US, rcpu, 60, 'S', 120, 0, 120);
		ev[n++] = ev_switch(t + 500 * US, 1, 0, 'R', 120, 62, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 510 * US, 1, 62, 0, 60, 120, rcpu);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 510 * US, 1, 62, 0, 60, 120, rcpu);
		if (rcpu == 1) {
			/* 60 preempts its waker 62 on CPU 1, 62 sleeps after it */
			ev[n++] = ev_switch(t + 512 * US, 1, 62, 'R', 120, 60, 120);
			ev[n++] = ev_switch(t + 520 * US, 1, 60, 'S', 120, 62, 120);
			ev[n++] = ev_switch(t + 525 * US, 1, 62, 'S', 120, 0, 120);
		} else {
			ev[n++] = ev_switch(t + 512 * US, rcpu, 0, 'R', 120, 60, 120);
			ev[n++] = ev_switch(t + 515 * US, 1, 62, 'S', 120, 0, 120);
			ev[n++] = ev_switch(t + 520 * US, rcpu, 60, 'S', 120, 0, 120);
		}
	}
	ev[n++] = ev_runtime(7 * MS, 0, 61, 1000);
	return n;
}

static void test_channel_wakes(void)
{
	struct trace_event ev[256];
	size_t n = channel_events(ev, 2);
	struct wl_workload *wl;
	struct replay_result *r;

	wl = build(ev, n);
	CHECK(wl != NULL);
	for (int on = 0; on < 2; on++) {
		r = run_notes(wl, on, false, false);
		CHECK(r != NULL);
		if (!r)
			break;
		/*
		 * Off: 62's four writes come early (the last three skip a
		 * sync block of 60).  On: only the first, when 60 still
		 * sleeps since before the trace; the other three end a sleep,
		 * and 60 sleeps twice per round as in the trace (+2 switches
		 * per round).  A write that finds 60 not asleep wakes nobody
		 * (60 reads it without sleeping: no sched_waking/wakeup, as
		 * pipe_write() finds no waiter on rd_wait): 12 traced wakeups
		 * less the blocks not slept, 8 off and 11 on.
		 */
		CHECK_EQ(note_count(r, "sleeps of a reader with several writers"), on ? 3 : 0);
		CHECK_EQ(note_count(r, "wakes that reached their target before"), on ? 1 : 4);
		CHECK_EQ(note_count(r, "blocks not slept because"), on ? 1 : 4);
		CHECK_EQ(count(r, "sched_wakeup"), on ? 11 : 8);
		CHECK_EQ(count(r, "sched_switch"), on ? 23 : 17);
		replay_result_free(r);
	}
	wl_free(wl);
}

/*
 * replay_config.channel_burst on test_channel_wakes()' rounds.  Reader 60 on
 * CPU 2: 62's early write is made on CPU 1, neither the CPU 60 last ran on
 * nor the one its wakeup goes to: no mode frees 60 (as off: 4 early wakes).
 * Reader 60 on CPU 1, the CPU 62 writes on (its burst): 62's
 * write finds 60 asleep there on 61's record, and every mode frees it in
 * the three rounds whose first sleep is a traced BLOCK (as --channel-wakes
 * on CPU 2: 3 re-paired, 1 early); off leaves 60 asleep (4 early).
 */
static void test_channel_burst(void)
{
	static const enum replay_channel_burst modes[] = {
		REPLAY_CHANNEL_BURST_OFF, REPLAY_CHANNEL_BURST_PLACE,
		REPLAY_CHANNEL_BURST_PREV, REPLAY_CHANNEL_BURST_OWN,
	};
	struct trace_event ev[256];

	for (int rcpu = 1; rcpu <= 2; rcpu++) {
		size_t n = channel_events(ev, rcpu);
		struct wl_workload *wl = build(ev, n);

		CHECK(wl != NULL);
		if (!wl)
			return;
		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			struct replay_result *r =
				run_notes_burst(wl, false, false, false, modes[i]);
			bool frees = rcpu == 1 && modes[i] != REPLAY_CHANNEL_BURST_OFF;

			CHECK(r != NULL);
			if (!r)
				break;
			CHECK_EQ(note_count(r, "sleeps of a reader with several writers"),
				 frees ? 3 : 0);
			CHECK_EQ(note_count(r, "wakes that reached their target before"),
				 frees ? 1 : 4);
			replay_result_free(r);
		}
		wl_free(wl);
	}
}

/*
 * The writes of test_oneway_no_wait() and test_end_rt_hold(): writer 70 on
 * CPU 0 (CPU 1 idle) wakes reader 71 every 100 us from 2 ms; the kernel
 * preempted 70 each time, 71 ran 10 us and slept.
 */
static size_t oneway_events(struct trace_event *ev)
{
	size_t n = 0;

	ev[n++] = ev_runtime(1 * MS, 0, 70, 1000);
	ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 0, 120);
	for (int k = 0; k < 10; k++) {
		uint64_t t = 2 * MS + (uint64_t)k * 100 * US;

		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 0, 70, 0, 71, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 0, 70, 0, 71, 120, 0);
		ev[n++] = ev_switch(t + 2 * US, 0, 70, 'R', 120, 71, 120);
		ev[n++] = ev_switch(t + 12 * US, 0, 71, 'S', 120, 70, 120);
	}
	return n;
}

/*
 * A one-way hand-off (replay_config.oneway_no_wait): writer 70 runs on CPU 0
 * and writes to reader 71 every 100 us; the kernel preempted 70 each time
 * (71 ran 10 us and slept), and 71 never answers.  Where the model does not
 * preempt 70, 70 sleeps at its WAIT until 71's block without the option, and
 * writes on with it.
 */
static void test_oneway_no_wait(void)
{
	struct trace_event ev[256];
	size_t n;
	struct wl_workload *wl;
	struct replay_result *r;
	uint64_t slept[4] = { 0 }, on_wait[4] = { 0 };

	n = oneway_events(ev);
	ev[n++] = ev_runtime(4 * MS, 0, 70, 1000);
	wl = build(ev, n);
	CHECK(wl != NULL);
	for (int k = 0; k < 4; k++) {
		bool on = k & 1, stop = k >> 1;

		r = run_notes(wl, false, on, stop);
		CHECK(r != NULL);
		if (!r)
			break;
		slept[k] = note_count(r, "hand-off waits slept");
		on_wait[k] = note_count(r, "hand-off waits not slept: a one-way");
		/*
		 * Off: the model does not preempt 70 at the first write (70
		 * runs alone, eligible and protected): 70 sleeps at its WAIT
		 * until 71 blocks and 71 wakes it (a wakeup the trace does not
		 * have); later the model preempts it but for one more WAIT.
		 * On: 70 writes on; 71, queued behind it, is not woken again
		 * (its messages are there when it runs) and 70's slice ends
		 * only at the tick at the trace end (4 ms, HZ 250).  With
		 * stop_at_end that is all; by default 71 then does its
		 * traced work, 0.1 ms past the trace end: it reads the nine
		 * messages queued for it without sleeping (nobody waited:
		 * no wakeup; the one wakeup is the first write's, which found
		 * 71 asleep), then 70, past its traced work, sleeps.  Off,
		 * everything was done by the end.
		 */
		CHECK_EQ(slept[k], on ? 0 : 2);
		CHECK_EQ(on_wait[k], on ? 10 : 0);
		CHECK_EQ(count(r, "sched_wakeup"), on ? 1 : 12);
		CHECK_EQ(count(r, "sched_switch"), on ? (stop ? 2 : 4) : 21);
		CHECK_EQ(replay_end_ts(r), on && !stop ? 4100 * US : 4 * MS);
		CHECK_EQ(note_count(r, "the traced work took longer than the trace"), on && !stop);
		replay_result_free(r);
	}
	wl_free(wl);
}

/*
 * The end of a replay with an RT task holding a CPU over it
 * (replay_config.stop_at_end off).  The one-way hand-off above with
 * --oneway-no-wait, and an RT task (80, prio 49) that takes CPU 0 at
 * 3.95 ms and holds it past the trace end (4 ms).  In the replay writer 70
 * writes on, finishes its traced work at 3.85 ms and sleeps (the trace had
 * it queued at the end), reader 71 reads its ten messages and is preempted
 * by 80 at 3.95 ms right before its last sleep (it read all ten without
 * sleeping: one wakeup, the first write's).  With stop_at_end that is
 * all (3 switches).  By default 71's last sleep is traced work left: at the
 * trace end 80 leaves CPU 0 (its demand past the trace is unknown) and 71
 * sleeps, two more switches, both at 4 ms, so the replay ends there - not
 * at the cap (8 ms) with 80 still ticking on CPU 0 and 71 queued.
 */
static void test_end_rt_hold(void)
{
	struct trace_event ev[256];
	size_t n;
	struct wl_workload *wl;
	struct replay_result *r;

	n = oneway_events(ev);
	ev[n++] = ev_switch(3950 * US, 0, 70, 'R', 120, 80, 49);
	ev[n++] = ev_switch(4 * MS, 1, 0, 'R', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	for (int stop = 0; stop < 2; stop++) {
		r = run_notes(wl, false, true, stop);
		CHECK(r != NULL);
		if (!r)
			break;
		CHECK_EQ(note_count(r, "the traced work was not done by twice"), 0);
		CHECK_EQ(note_count(r, "the traced work took longer than the trace"), 0);
		CHECK_EQ(replay_end_ts(r), 4 * MS);
		CHECK_EQ(count(r, "sched_wakeup"), 1);
		CHECK_EQ(count(r, "sched_switch"), stop ? 3 : 5);
		replay_result_free(r);
	}
	wl_free(wl);
}

/* The events of test_placement_check() (described there) and test_vcpu_pack(). */
static size_t placement_events(struct trace_event *ev)
{
	size_t n = 0;

	ev[n++] = ev_switch(200 * US, 1, 0, 'R', 120, 53, 120);
	ev[n++] = ev_switch(400 * US, 1, 53, 'S', 120, 0, 120);
	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 51, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 10 * MS, 0, 51, 0, 52, 120, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 10 * MS, 0, 51, 0, 52, 120, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 50 * MS, 0, 51, 0, 53, 120, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 50 * MS, 0, 51, 0, 53, 120, 0);
	ev[n++] = ev_switch(52 * MS, 0, 51, 'S', 120, 52, 120);
	ev[n++] = ev_switch(53 * MS, 0, 52, 'S', 120, 53, 120);
	ev[n++] = ev_switch(54 * MS, 0, 53, 'S', 120, 0, 120);
	return n;
}

/*
 * The placement check (replay_config.placement_check): task 53 runs on
 * CPU 1 until 0.4 ms, then CPU 1 idles; task 51 runs on CPU 0 from 1 ms and
 * wakes task 52 at 10 ms and task 53 at 50 ms, both of which the trace's
 * kernel queues beside it on CPU 0 (they run when 51 sleeps at 52 ms).  The
 * simulation reaches both wakeups in the trace's state (CPU 0 busy, CPU 1
 * idle): two matched wakeups with an idle CPU, where the kernel chose the
 * busy one both times.  The model keeps 52 on CPU 0 (the trace shows it on
 * one CPU only: treated as pinned; and SIS_UTIL's nr_idle_scan is still the
 * kzalloc()ed 0 at 10 ms, before the first periodic balance of the LLC) and
 * sends 53 to its idle previous CPU 1 (wake_affine()'s WA_IDLE, then
 * select_idle_sibling()'s idle target), where the capture kernel did not.
 * 53's wakeup is also counted as one select_task_rq_fair() as written
 * cannot make: not sync, a task seen on two CPUs, its previous CPU idle, a
 * busy CPU chosen.  The traced CPU stands either way, with or without
 * state_placement (the states match); without either, no such notes.
 */
static void test_placement_check(void)
{
	struct trace_event ev[16];
	size_t n;
	struct wl_workload *wl;
	struct replay_config rc;
	struct sr_error err = { 0 };

	n = placement_events(ev);
	wl = build(ev, n);
	CHECK(wl != NULL);
	for (int mode = 0; mode < 3; mode++) {
		struct replay_result *r;

		replay_config_default(&rc);
		rc.placement_check = mode == 1;
		rc.state_placement = rc.state_placement_forks = mode == 2;
		r = replay_run(wl, &rc, &err);
		CHECK(r != NULL);
		if (!r)
			continue;
		CHECK_EQ(note_count(r, "placement check: traced wakeups whose"), mode ? 2 : 0);
		CHECK_EQ(note_count(r, "placement check: of them, the model's"), mode ? 1 : 0);
		CHECK_EQ(note_count(r, "placement check: of the matched wakeups"), mode ? 2 : 0);
		CHECK_EQ(note_count(r, "placement check: of them, the traced kernel chose an idle"), 0);
		CHECK_EQ(note_count(r, "placement check: of them, the model chose an idle"), mode ? 1 : 0);
		/* 53's wakeup contradicts select_task_rq_fair() as written */
		CHECK_EQ(note_count(r, "placement check: matched non-sync wakeups"), mode ? 1 : 0);
		CHECK_EQ(note_count(r, "placement check: of them, the traced kernel chose a busy"),
			 mode ? 1 : 0);
		CHECK_EQ(note_count(r, "traced wakeups and forks whose simulated"), 0);
		CHECK_EQ(count(r, "sched_migrate_task"), 1);   /* 53: CPU 1 -> 0, as traced */
		replay_result_free(r);
	}
	wl_free(wl);
}

/*
 * The capture kernel's sched_vcpu_pack in the model's placement: on by
 * default when the sidecar's kernel cmdline has the option as a word and the
 * profile comes from the trace; forced by replay_config.vcpu_pack.  Where the
 * model's placement is consulted, the room test is asked at a decision
 * beside an idle CPU (placement_events()' second wakeup: 53's previous CPU 1
 * idle, the waker 51 alone on CPU 0), and never when off.
 */
static void test_vcpu_pack(void)
{
	static const struct {
		const char *cmdline;
		const char *value;
	} cl[] = {
		{ "quiet sched_vcpu_pack=15 rdinit=/process_api", "15" },
		{ "sched_vcpu_pack=3", "3" },
		{ "quiet nosched_vcpu_pack=15", NULL },
		{ "quiet sched_vcpu_pack=0", NULL },            /* zero: off */
		{ "quiet -- sched_vcpu_pack=15", NULL },        /* init's arguments */
		{ "sched_vcpu_pack=7 -- x", "7" },
		{ "quiet", NULL },
		{ NULL, NULL },
	};
	struct trace_event ev[16];
	size_t n;
	struct replay_config rc;
	struct sr_error err = { 0 };
	char why[200];

	n = placement_events(ev);
	for (size_t k = 0; k < sizeof(cl) / sizeof(cl[0]); k++) {
		struct sidecar sc = { 0 };
		struct wl_workload *wl;
		const char *v;

		sc.kernel_release = (char *)"6.18.44-fc-v857";
		sc.kernel_cmdline = (char *)cl[k].cmdline;
		wl = build_sc(ev, n, &sc);
		CHECK(wl != NULL);
		if (!wl)
			continue;
		v = wl_facts(wl)->vcpu_pack;
		CHECK_MSG(v == cl[k].value || (v && cl[k].value && !strcmp(v, cl[k].value)),
			  "cmdline \"%s\": got %s, expected %s", cl[k].cmdline ? cl[k].cmdline : "(none)",
			  v ? v : "(none)", cl[k].value ? cl[k].value : "(none)");
		replay_config_default(&rc);
		CHECK(replay_vcpu_pack_for(wl, &rc, why, sizeof(why)) == (cl[k].value != NULL));
		if (cl[k].value)
			CHECK(strstr(why, "sched_vcpu_pack=") != NULL);
		rc.profile = model_profile_find("6.18");      /* a mainline kernel chosen */
		CHECK(!replay_vcpu_pack_for(wl, &rc, why, sizeof(why)));
		rc.vcpu_pack = REPLAY_VCPU_PACK_ON;
		CHECK(replay_vcpu_pack_for(wl, &rc, NULL, 0));
		rc.vcpu_pack = REPLAY_VCPU_PACK_OFF;
		rc.profile = NULL;
		CHECK(!replay_vcpu_pack_for(wl, &rc, why, sizeof(why)));
		CHECK(!strcmp(why, "--no-vcpu-pack"));
		if (k == 0) {
			for (int on = 0; on < 2; on++) {
				struct replay_result *r;

				replay_config_default(&rc);
				rc.placement_check = true;
				rc.vcpu_pack = on ? REPLAY_VCPU_PACK_AUTO : REPLAY_VCPU_PACK_OFF;
				CHECK(replay_uses_model_placement(&rc));
				r = replay_run(wl, &rc, &err);
				CHECK(r != NULL);
				if (!r)
					continue;
				CHECK_EQ(count(r, "vcpu_pack_room"), on ? 1 : 0);
				/* matched, beside the idle CPU 1: the trace kept 53 on the
				 * waker's CPU 0, and so does the rule (51 has run 49 ms
				 * there, util ~670, 53 ran 200 us: below U = 680 for
				 * CPU 1's 49.6 ms of idle) */
				CHECK_EQ(note_count(r, "placement check: matched wakeups and forks where"),
					 on ? 1 : 0);
				CHECK_EQ(note_count(r, "placement check: of them, the traced kernel kept"),
					 on ? 1 : 0);
				CHECK_EQ(note_count(r, "placement check: of them, vcpu_pack_room() kept"),
					 on ? 1 : 0);
				/* traced placement: the decisions themselves are the trace's */
				CHECK_EQ(count(r, "sched_migrate_task"), 1);
				replay_result_free(r);
			}
			replay_config_default(&rc);
			CHECK(!replay_uses_model_placement(&rc));
		}
		wl_free(wl);
	}
}

/*
 * The two hand-overs of replay_config.handoff on the model alone, one CPU
 * (base slice 0.70 ms x 1, 6.18 profile).  W and X start runnable; W runs
 * first and its slice ends at the tick (4 ms); X runs, 100 us later wakes Y
 * (asleep, lag 0) without being preempted (X is protected, Y's deadline is
 * later).  Then model_preempt_for(Y): X is charged and keeps its deadline,
 * Y is picked, nobody is placed.  model_yield_to(Y): X, eligible (W ran
 * 4 ms ahead of it), gives up its request: vruntime = its deadline, deadline
 * one more slice (0.70 ms at nice 0) later; Y is picked.
 * model_preempt_for_skip(Y), the kernel's clock for a preemption at the
 * wakeup: X is not charged for the 2 us since the wakeup (vruntime, runtime
 * as the wakeup left them, no sched_stat_runtime at the hand-off nor at the
 * switch), the switch runs on the wakeup's clock, so Y, blocking 10 us
 * after the switch, is charged 12 us (the others: 10 us, and X one
 * sched_stat_runtime more).
 */
static void handoff_model_setup(struct model **mp, struct model_task *t[3], uint64_t *now)
{
	struct model_config cfg = { .nr_cpus = 1 };
	struct model *m = model_new(&cfg, NULL);
	struct model_task *first;

	*mp = m;
	CHECK(m != NULL);
	if (!m)
		return;
	for (uint32_t i = 0; i < 3; i++)
		t[i] = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, i, NULL);
	*now = 1 * MS;
	CHECK_EQ(model_task_start_runnable(m, t[0], 0, *now), 0);
	CHECK_EQ(model_task_start_runnable(m, t[1], 0, *now), 0);
	CHECK_EQ(model_task_start_sleeping(m, t[2], 0), 0);
	first = model_schedule(m, 0, MODEL_PREV_RUNNABLE, *now);
	if (first == t[1]) {           /* W is whichever runs first */
		t[1] = t[0];
		t[0] = first;
	}
	*now = 4 * MS;
	model_tick(m, 0, *now);
	CHECK(model_need_resched(m, 0));
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, *now) == t[1]);
	*now += 100 * US;
	CHECK_EQ(model_try_to_wake_up(m, t[2], 0, 0, MODEL_WF_TTWU | MODEL_WF_SYNC, *now), 1);
	CHECK(!model_need_resched(m, 0));
	*now += 2 * US;
}

static void test_handoff_model(void)
{
	for (int mode = 0; mode < 3; mode++) {
		const bool yield = mode == 1, skip = mode == 2;
		struct model *m;
		struct model_task *t[3];
		struct model_task_info before, after, y0, y1;
		uint64_t now, placed0, placed1, sw0, sw1, st0, st1;

		handoff_model_setup(&m, t, &now);
		if (!m)
			return;
		model_task_info(t[1], &before);
		model_task_info(t[2], &y0);
		CHECK(model_counter_get(m, "place_entity", &placed0));
		CHECK(model_counter_get(m, "sched_switch", &sw0));
		CHECK(model_counter_get(m, "sched_stat_runtime", &st0));
		/* X ran 2 us since its last update_curr() (the wakeup's) */
		CHECK_EQ(yield ? model_yield_to(m, 0, t[2], now) :
			 skip ? model_preempt_for_skip(m, 0, t[2]) : model_preempt_for(m, 0, t[2], now), 1);
		model_task_info(t[1], &after);
		if (skip) {
			CHECK_EQ(after.vruntime, before.vruntime);
			CHECK_EQ(after.deadline, before.deadline);
			CHECK(model_need_resched(m, 0));
		} else if (yield) {
			CHECK_EQ(after.vruntime, before.deadline);
			CHECK_EQ(after.deadline, before.deadline + 700 * US);
			CHECK(!model_need_resched(m, 0));   /* yield_to() calls schedule() */
		} else {
			CHECK_EQ(after.vruntime, before.vruntime + 2 * US);
			CHECK_EQ(after.deadline, before.deadline);
			CHECK(model_need_resched(m, 0));
		}
		CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == t[2]);
		model_task_info(t[1], &after);
		CHECK(after.state == MODEL_TASK_QUEUED && !after.running);
		CHECK_EQ(after.sum_exec_runtime, before.sum_exec_runtime + (skip ? 0 : 2 * US));
		CHECK(model_counter_get(m, "sched_stat_runtime", &st1));
		CHECK_EQ(st1, st0 + (skip ? 0 : 1));
		CHECK(model_counter_get(m, "place_entity", &placed1));
		CHECK(model_counter_get(m, "sched_switch", &sw1));
		CHECK_EQ(placed1, placed0);
		CHECK_EQ(sw1, sw0 + 1);
		/* Y runs 10 us and blocks: charged from the switch's rq clock */
		CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now + 10 * US) == t[1]);
		model_task_info(t[2], &y1);
		CHECK_EQ(y1.sum_exec_runtime, y0.sum_exec_runtime + (skip ? 12 : 10) * US);
		/* not for a running task, the current one, or on another CPU */
		CHECK_EQ(model_preempt_for(m, 0, t[2], now), 0);
		CHECK_EQ(model_yield_to(m, 0, t[2], now), 0);
		CHECK_EQ(model_yield_to(m, 1, t[1], now), -1);
		CHECK_EQ(model_check_invariants(m, NULL), 0);
		model_free(m);
	}
}

/*
 * model_charge_curr() (--handoff skip-wake): handoff_model_setup()'s X ran
 * 2 us since the wakeup's update_curr(); charged at 1 us of it (the point a
 * hand-off's own wakeup had, where the simulation enqueued nothing), it gains
 * 1 us of vruntime and runtime and one sched_stat_runtime; the skip hand-over
 * that follows gives Y the rest: Y, blocking 10 us after the switch, is
 * charged 11 us (12 without the charge, test_handoff_model()).  A charge at
 * a time the rq clock has passed charges nothing more (the clock never goes
 * back); none on an idle CPU (0) or a bad one (-1).
 */
static void test_charge_curr(void)
{
	struct model *m;
	struct model_task *t[3];
	struct model_task_info before, after, y0, y1;
	uint64_t now, st0, st1;

	handoff_model_setup(&m, t, &now);
	if (!m)
		return;
	model_task_info(t[1], &before);
	model_task_info(t[2], &y0);
	CHECK(model_counter_get(m, "sched_stat_runtime", &st0));
	CHECK_EQ(model_charge_curr(m, 0, now - 1 * US), 1);
	model_task_info(t[1], &after);
	CHECK_EQ(after.vruntime, before.vruntime + 1 * US);
	CHECK_EQ(after.sum_exec_runtime, before.sum_exec_runtime + 1 * US);
	CHECK(model_counter_get(m, "sched_stat_runtime", &st1));
	CHECK_EQ(st1, st0 + 1);
	/* the clock is at now - 1 us: an earlier charge adds nothing */
	CHECK_EQ(model_charge_curr(m, 0, now - 2 * US), 1);
	model_task_info(t[1], &after);
	CHECK_EQ(after.sum_exec_runtime, before.sum_exec_runtime + 1 * US);
	CHECK_EQ(model_preempt_for_skip(m, 0, t[2]), 1);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, now) == t[2]);
	model_task_info(t[1], &after);
	CHECK_EQ(after.sum_exec_runtime, before.sum_exec_runtime + 1 * US);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now + 10 * US) == t[1]);
	model_task_info(t[2], &y1);
	CHECK_EQ(y1.sum_exec_runtime, y0.sum_exec_runtime + 11 * US);
	CHECK_EQ(model_charge_curr(m, 1, now), -1);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now + 20 * US) == t[0]);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, now + 30 * US) == NULL);
	CHECK_EQ(model_charge_curr(m, 0, now + 40 * US), 0);
	CHECK_EQ(model_check_invariants(m, NULL), 0);
	model_free(m);
}

/*
 * replay_config.handoff on the writes of oneway_events() (without
 * oneway_no_wait: the waits are kept).  The model does not preempt writer 70
 * at its first write (it runs alone, eligible and protected) nor at its last;
 * it preempts it at the others.  sleep (the default): at those two WAITs 70
 * sleeps ("S") until 71 blocks and 71 wakes it, two wakeups the trace does
 * not have (test_oneway_no_wait()).  preempt and yield: 71 is queued behind
 * 70 on CPU 0, so 70 leaves runnable ("R+", the switch the trace has, 2 us
 * after the wakeup where the trace switched it out) and 71 runs; no sleep,
 * no wakeup of 70; when 70 runs again 71 has slept and its WAIT is passed.
 * skip: the first WAIT is handed over as under preempt, without its
 * update_curr() of 70 (the kernel's preemption at the wakeup skipped the
 * clock: no sched_stat_runtime there) and with the 2 us to the switch
 * charged to 71, not 70; with that lag the model itself preempts 70 at the
 * last wakeup (its switch at the wakeup, 0.002900, on the skipped clock:
 * no sched_stat_runtime either).  21 sched_stat_runtime against 23.
 * The model side (vruntime and deadline kept or the request given up, no
 * placement) is test_handoff_model()'s.
 */
static void test_handoff_modes(void)
{
	static const char first_wait[] = "[000] 0.002002000: sched_switch: task70:70 [120] ";
	static const char last_wait[] = "[000] 0.002902000: sched_switch: task70:70 [120] ";
	static const char last_wake[] = "[000] 0.002900000: sched_switch: task70:70 [120] R+ ==> task71:71";
	struct trace_event ev[256];
	size_t n;
	struct wl_workload *wl;
	uint64_t stat[REPLAY_HANDOFF_SKIP + 1] = { 0 };

	n = oneway_events(ev);
	ev[n++] = ev_runtime(4 * MS, 0, 70, 1000);
	wl = build(ev, n);
	CHECK(wl != NULL);
	for (int mode = REPLAY_HANDOFF_SLEEP; wl && mode <= REPLAY_HANDOFF_SKIP; mode++) {
		struct replay_config rc;
		struct run x;
		char *p;
		bool on = mode != REPLAY_HANDOFF_SLEEP;
		/* yield_to() schedules voluntarily: "R"; the preemption's "R+" */
		const char *want = mode == REPLAY_HANDOFF_YIELD ? "R ==> task71:71" :
			on ? "R+ ==> task71:71" : "S ==> task71:71";

		replay_config_default(&rc);
		rc.no_costs = true;
		rc.handoff = (enum replay_handoff)mode;
		/* the scenario's decisions with the waker switched at once (run_notes()) */
		rc.resched_at = REPLAY_RESCHED_COST;
		if (!run_begin(&x, wl, &rc)) {
			run_end(&x);
			break;
		}
		CHECK_EQ(note_count(x.r, "hand-off waits slept"), on ? 0 : 2);
		CHECK_EQ(note_count(x.r, "hand-off waits not slept: the waker, not preempted"),
			 mode == REPLAY_HANDOFF_SKIP ? 1 : on ? 2 : 0);
		CHECK_EQ(note_count(x.r, "hand-offs left runnable, then slept"), 0);
		CHECK_EQ(count(x.r, "sched_wakeup"), on ? 10 : 12);
		CHECK_EQ(count(x.r, "sched_switch"), 21);
		p = strstr(x.dump, first_wait);
		CHECK_MSG(p && !strncmp(p + strlen(first_wait), want, strlen(want)),
			  "mode %d: the first WAIT's switch: %.60s", mode, p ? p : "(none)");
		p = strstr(x.dump, last_wait);
		if (mode == REPLAY_HANDOFF_SKIP)
			CHECK(!p && strstr(x.dump, last_wake));
		else
			CHECK_MSG(p && !strncmp(p + strlen(last_wait), want, strlen(want)),
				  "mode %d: the last WAIT's switch: %.60s", mode, p ? p : "(none)");
		CHECK_EQ(strstr(x.dump, "sched_waking: task70:70") != NULL, !on);
		stat[mode] = count(x.r, "sched_stat_runtime");
		run_end(&x);
	}
	CHECK_EQ(stat[REPLAY_HANDOFF_SLEEP], 23);
	CHECK_EQ(stat[REPLAY_HANDOFF_PREEMPT], 23);
	CHECK_EQ(stat[REPLAY_HANDOFF_YIELD], 23);
	CHECK_EQ(stat[REPLAY_HANDOFF_SKIP], 21);
	wl_free(wl);
}

/*
 * replay_config.handoff on the CFS profile of old kernels (6.1; replay's
 * profile for a trace such as arm-lisa's trace.txt, whose sh is preempted
 * by the kworker it wakes 337 times).  On oneway_events() the CFS model
 * never preempts writer 70 at a write: 71 wakes at most 100 us behind it,
 * within the 2 ms wakeup granularity (2 CPUs).  sleep and yield (yield_to()
 * is EEVDF's only): at each of the 10 WAITs 70 sleeps ("S") and 71 wakes
 * it: 20 wakeups, 10 the trace does not have.  preempt and skip: 71 queued
 * behind 70 on CPU 0, 70 leaves runnable ("R+", the trace's switch, 2 us
 * after the wakeup) with 71 the next buddy, which the CFS pick takes: no
 * sleep, no wakeup of 70, the trace's 10 wakeups and 21 switches; skip
 * charges 70 nothing at the hand-off (21 sched_stat_runtime, 31 for
 * preempt: the wakeup's charge, its switch on the skipped clock).  sleep
 * and yield: 41, each WAIT's block charging 70 after the wakeup's charge
 * (replay_config.block_clock after, the default: the kernel's block reads
 * its clock under the rq lock after that enqueue's update).  Before the CFS
 * hand-over, preempt and skip slept as sleep.
 */
static void test_handoff_modes_cfs(void)
{
	static const char wait[] = "[000] 0.002502000: sched_switch: task70:70 [120] ";
	struct trace_event ev[256];
	size_t n;
	struct wl_workload *wl;

	n = oneway_events(ev);
	ev[n++] = ev_runtime(4 * MS, 0, 70, 1000);
	wl = build(ev, n);
	CHECK(wl != NULL);
	for (int mode = REPLAY_HANDOFF_SLEEP; wl && mode <= REPLAY_HANDOFF_SKIP; mode++) {
		const bool on = mode == REPLAY_HANDOFF_PREEMPT || mode == REPLAY_HANDOFF_SKIP;
		const char *want = on ? "R+ ==> task71:71" : "S ==> task71:71";
		struct replay_config rc;
		struct run x;
		char *p;

		replay_config_default(&rc);
		rc.no_costs = true;
		rc.handoff = (enum replay_handoff)mode;
		rc.profile = model_profile_find("6.1");
		CHECK(rc.profile != NULL);
		if (!run_begin(&x, wl, &rc)) {
			run_end(&x);
			break;
		}
		CHECK_EQ(note_count(x.r, "hand-off waits slept"), on ? 0 : 10);
		CHECK_EQ(note_count(x.r, "hand-off waits not slept: the waker, not preempted"), on ? 10 : 0);
		CHECK_EQ(note_count(x.r, "hand-offs left runnable, then slept"), 0);
		CHECK_EQ(count(x.r, "sched_wakeup"), on ? 10 : 20);
		CHECK_EQ(count(x.r, "sched_switch"), 21);
		CHECK_EQ(count(x.r, "sched_stat_runtime"),
			 mode == REPLAY_HANDOFF_SKIP ? 21 : on ? 31 : 41);
		p = strstr(x.dump, wait);
		CHECK_MSG(p && !strncmp(p + strlen(wait), want, strlen(want)),
			  "mode %d: the sixth WAIT's switch: %.60s", mode, p ? p : "(none)");
		CHECK_EQ(strstr(x.dump, "sched_waking: task70:70") != NULL, !on);
		run_end(&x);
	}
	wl_free(wl);
}

/* The trace time (ns) of the first line of @dump with @what, UINT64_MAX if none. */
static uint64_t dump_first_at(const char *dump, const char *what)
{
	const char *p = strstr(dump, what), *l;

	if (!p)
		return UINT64_MAX;
	for (l = p; l > dump && l[-1] != '\n'; l--)
		;
	/* "[000] 0.000205000: sched_switch: ..." */
	return (uint64_t)(strtod(l + 6, NULL) * 1e9 + 0.5);
}

static int ev_ts_order(const void *a, const void *b)
{
	const struct trace_event *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/*
 * replay_config.initial_lag credit-long (profile 6.1, one CPU: sched_latency
 * 6 ms, sleeper credit 3 ms, wakeup granularity 1 ms).  Hog 100 runs from
 * the start.  Tasks 300 and 200, asleep at the start, are woken by
 * interrupts at 0.2 and 0.5 ms (no traced outcome to infer from) and then
 * run 0.2 ms at a time: 300 sleeps 10.2 ms between its runs (the start more
 * likely fell in such a sleep: a long sleeper), 200 0.8 ms or 1.8 ms (all
 * its traced sleep time in sleeps under a credit: short).  Under credit both
 * are placed a credit below min_vruntime at their first wakeup and preempt
 * the hog at once; under credit-long 300 does, 200 keeps its floor (0, the
 * hog 0.3 ms ahead, within the granularity) and waits for the hog's tick, as
 * both do under zero.  Checked: the notes and each one's first switch-in.
 */
static void test_initial_credit_long(void)
{
	struct trace_event ev[512];
	struct wl_workload *wl;
	size_t n = 0;

	ev[n++] = ev_switch(100 * US, 0, 0, 'R', 120, 100, 120);
	ev[n++] = ev_runtime(40 * MS, 0, 100, 100 * US);
	for (uint64_t t = 200 * US; t < 40 * MS; t += 10400 * US) {
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 0, 100, 0x08 /* hardirq */, 300, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 1 * US, 0, 100, 0x08 /* hardirq */, 300, 120, 0);
		ev[n++] = ev_switch(t + 5 * US, 0, 100, 'R', 120, 300, 120);
		ev[n++] = ev_switch(t + 205 * US, 0, 300, 'S', 120, 100, 120);
	}
	for (uint64_t t = 500 * US; t < 40 * MS; t += 1000 * US) {
		uint64_t k = (t + 10400 * US - 200 * US) % (10400 * US);

		if (k < 250 * US || k > 10400 * US - 250 * US)
			continue;      /* its run would overlap 300's */
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 0, 100, 0x08 /* hardirq */, 200, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 1 * US, 0, 100, 0x08 /* hardirq */, 200, 120, 0);
		ev[n++] = ev_switch(t + 5 * US, 0, 100, 'R', 120, 200, 120);
		ev[n++] = ev_switch(t + 205 * US, 0, 200, 'S', 120, 100, 120);
	}
	qsort(ev, n, sizeof(ev[0]), ev_ts_order);
	wl = build(ev, n);
	CHECK(wl != NULL);
	for (int mode = REPLAY_INITIAL_LAG_ZERO; wl && mode <= REPLAY_INITIAL_LAG_CREDIT_LONG; mode++) {
		const bool cl = mode == REPLAY_INITIAL_LAG_CREDIT_LONG;
		const bool credit = mode == REPLAY_INITIAL_LAG_CREDIT;
		struct replay_config rc;
		struct run x;
		uint64_t t3, t2;

		if (mode == REPLAY_INITIAL_LAG_INFER)
			continue;
		replay_config_default(&rc);
		rc.no_costs = true;
		rc.initial_lag = (enum replay_initial_lag)mode;
		rc.profile = model_profile_find("6.1");
		CHECK(rc.profile != NULL);
		if (!run_begin(&x, wl, &rc)) {
			run_end(&x);
			break;
		}
		CHECK_EQ(note_count(x.r, "fair tasks asleep at the trace start given the full sleeper credit"),
			 cl ? 1 : 0);
		CHECK_EQ(note_count(x.r, "fair tasks asleep at the trace start NOT given the credit"),
			 cl ? 1 : 0);
		t3 = dump_first_at(x.dump, "==> task300:300");
		t2 = dump_first_at(x.dump, "==> task200:200");
		CHECK_MSG(credit || cl ? t3 < 300 * US : t3 > 1 * MS && t3 != UINT64_MAX,
			  "mode %d: 300 first switched in at %" PRIu64 " ns", mode, t3);
		CHECK_MSG(credit ? t2 < 600 * US : t2 > 1 * MS && t2 != UINT64_MAX,
			  "mode %d: 200 first switched in at %" PRIu64 " ns", mode, t2);
		run_end(&x);
	}
	wl_free(wl);
}

/* The JSON distribution at @path ("runqueue_wait_us", "all", ...; NULL-ended), or NULL. */
static json_t *jget(json_t *o, ...)
{
	va_list ap;
	const char *k;

	va_start(ap, o);
	while (o && (k = va_arg(ap, const char *)))
		o = json_object_get(o, k);
	va_end(ap);
	return o;
}

/*
 * The run-queue wait, predicted: fair hog 100 runs on the one CPU from 1 ms
 * to 121 ms.  Every 10 ms from 10 ms an interrupt wakes fair task 101, which
 * runs 300 us and sleeps; at 105 ms RT task 80 takes the CPU for 12 ms.
 * Whether the model preempts 100 at 101's wakeup or at the next tick, 101
 * then runs its 300 us (less than a slice) and sleeps, so each of 100's
 * run-queue waits is 101's run time, 300 us, and the RT interval, replayed at
 * its trace time, is one wait of 12 ms: 10 waits of 300 us and one of 12 ms,
 * measured and predicted (the sum pins every value: ten waits >= 300 us that
 * sum to 3 ms), one of them over 10 ms.  A model that preempted 101 early, or
 * a replay that lost the preemption's prev_state R, changes count or sum.
 */
static void test_runq_wait(void)
{
	struct trace_event ev[64];
	size_t n = 0;
	struct wl_workload *wl;
	struct replay_result *r;
	struct replay_config rc;
	struct sr_error err = { 0 };

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 100, 120);
	for (int i = 1; i <= 10; i++) {
		uint64_t t = (uint64_t)i * 10 * MS;

		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 0, 100, 0x08, 101, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 2 * US, 0, 100, 0x08, 101, 120, 0);
		ev[n++] = ev_switch(t + 4 * US, 0, 100, 'R', 120, 101, 120);
		ev[n++] = ev_switch(t + 304 * US, 0, 101, 'S', 120, 100, 120);
		if (i == 10) {
			ev[n++] = ev_switch(105 * MS, 0, 100, 'R', 120, 80, 49);
			ev[n++] = ev_switch(117 * MS, 0, 80, 'S', 49, 100, 120);
		}
	}
	ev[n++] = ev_runtime(121 * MS, 0, 100, 4 * MS);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	replay_config_default(&rc);
	r = replay_run(wl, &rc, &err);
	CHECK(r != NULL);
	if (!r) {
		fprintf(stderr, "replay: %s\n", err.msg);
		wl_free(wl);
		return;
	}
	for (int side = 0; side < 2; side++) {
		const struct lat_machine *lat = side ? replay_latency(r) : wl_measured_latency(wl);
		const struct sr_hist *h = lat_get_all(lat, LAT_RUNQ_WAIT);

		CHECK_EQ(h->count, 11);
		CHECK_EQ(h->min, 300 * US);
		CHECK_EQ(h->max, 12 * MS);
		CHECK_EQ(h->sum.sum, 10 * 300 * US + 12 * MS);
		CHECK_EQ(lat_get_all_over_long(lat, LAT_RUNQ_WAIT), 1);
		CHECK_EQ(lat_get_all_over_long(lat, LAT_WAKEUP), 0);
		if (h->count != 11 || h->sum.sum != 10 * 300 * US + 12 * MS)
			fprintf(stderr, "%s run-queue wait: %llu samples, min %llu max %llu sum %llu ns\n",
				side ? "predicted" : "measured", (unsigned long long)h->count,
				(unsigned long long)h->min, (unsigned long long)h->max,
				(unsigned long long)h->sum.sum);
	}
	/* the JSON: runqueue_wait_us and long_waits beside wakeup_latency_us, both sides */
	{
		json_t *v = replay_json_variant(r), *m = replay_json_measured(wl);
		json_t *e = replay_json_errors(wl, r);

		for (int side = 0; side < 2; side++) {
			json_t *o = side ? v : m;

			CHECK_EQ(json_integer_value(jget(o, "runqueue_wait_us", "all", "samples", NULL)), 11);
			CHECK(json_real_value(jget(o, "runqueue_wait_us", "all", "max", NULL)) == 12000.0);
			CHECK_EQ(json_integer_value(jget(o, "runqueue_wait_us", "by_comm", "task100",
							 "samples", NULL)), 11);
			CHECK(jget(o, "runqueue_wait_us", "by_cgroup", NULL) != NULL);
			CHECK(jget(o, "wakeup_latency_us", "all", "p99", NULL) != NULL);
			CHECK_EQ(json_integer_value(jget(o, "long_waits", "over_us", NULL)), 10000);
			CHECK_EQ(json_integer_value(jget(o, "long_waits", "runqueue_wait", "all", NULL)), 1);
			CHECK_EQ(json_integer_value(jget(o, "long_waits", "runqueue_wait", "by_comm",
							 "task100", NULL)), 1);
			/* a missing key reads as 0: that it is there first */
			CHECK(json_is_integer(jget(o, "long_waits", "wakeup_latency", "by_comm",
						   "task101", NULL)));
			CHECK_EQ(json_integer_value(jget(o, "long_waits", "wakeup_latency", "by_comm",
							 "task101", NULL)), 0);
			CHECK(json_is_integer(jget(o, "long_waits", "wakeup_latency", "all", NULL)));
			CHECK_EQ(json_integer_value(jget(o, "long_waits", "wakeup_latency", "all", NULL)), 0);
		}
		CHECK(json_is_real(jget(e, "runqueue_wait_us", "all", "samples", NULL)));
		CHECK(json_real_value(jget(e, "runqueue_wait_us", "all", "samples", NULL)) == 0.0);
		CHECK(json_is_real(jget(e, "runqueue_wait_us", "by_comm", "task100", "p99", NULL)));
		json_decref(v);
		json_decref(m);
		json_decref(e);
	}
	replay_result_free(r);
	wl_free(wl);
}

/*
 * long_waits per group, of each kind: task 100 runs from 1 ms; at 2 ms it
 * wakes task 101, which the trace switches in only at 14 ms, preempting 100
 * (a wakeup latency of 12 ms - 2 us, over 10 ms), and 101 sleeps at 14.3 ms
 * (100's run-queue wait: 300 us, not over).  Measured: the wakeup latency's
 * long count is 101's 1, the run-queue wait's is 100's 0, in each group and
 * in all; a JSON that gave one kind's counts for the other fails.
 */
static void test_long_waits_by_group(void)
{
	struct trace_event ev[8];
	size_t n = 0;
	struct wl_workload *wl;
	json_t *m, *cg;
	const char *key;
	json_t *v;
	int ncg = 0;

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 100, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 100, 0, 101, 120, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 2 * US, 0, 100, 0, 101, 120, 0);
	ev[n++] = ev_switch(14 * MS, 0, 100, 'R', 120, 101, 120);
	ev[n++] = ev_switch(14 * MS + 300 * US, 0, 101, 'S', 120, 100, 120);
	ev[n++] = ev_runtime(20 * MS, 0, 100, 5 * MS);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	m = replay_json_measured(wl);
	CHECK(m != NULL);
	if (!m) {
		wl_free(wl);
		return;
	}
	CHECK(json_is_integer(jget(m, "long_waits", "wakeup_latency", "by_comm", "task101", NULL)));
	CHECK_EQ(json_integer_value(jget(m, "long_waits", "wakeup_latency", "by_comm", "task101",
					 NULL)), 1);
	CHECK(json_is_integer(jget(m, "long_waits", "runqueue_wait", "by_comm", "task100", NULL)));
	CHECK_EQ(json_integer_value(jget(m, "long_waits", "runqueue_wait", "by_comm", "task100",
					 NULL)), 0);
	CHECK_EQ(json_integer_value(jget(m, "long_waits", "wakeup_latency", "all", NULL)), 1);
	CHECK(json_is_integer(jget(m, "long_waits", "runqueue_wait", "all", NULL)));
	CHECK_EQ(json_integer_value(jget(m, "long_waits", "runqueue_wait", "all", NULL)), 0);
	/* both tasks in one cgroup (the root): 1 long wakeup latency, 0 long run-queue waits */
	for (int k = 0; k < 2; k++) {
		cg = jget(m, "long_waits", k ? "runqueue_wait" : "wakeup_latency", "by_cgroup", NULL);
		CHECK(json_is_object(cg));
		ncg = 0;
		json_object_foreach(cg, key, v) {
			ncg++;
			CHECK(json_is_integer(v));
			CHECK_MSG(json_integer_value(v) == (k ? 0 : 1), "%s cgroup %s: %lld",
				  k ? "runqueue_wait" : "wakeup_latency", key,
				  (long long)json_integer_value(v));
		}
		CHECK_EQ(ncg, 1);
	}
	CHECK_EQ(json_integer_value(jget(m, "runqueue_wait_us", "by_comm", "task100", "samples",
					 NULL)), 1);
	CHECK_EQ(json_integer_value(jget(m, "wakeup_latency_us", "by_comm", "task101", "samples",
					 NULL)), 1);
	json_decref(m);
	wl_free(wl);
}

/*
 * The text report's percentage cells keep their width whatever the error: one
 * decimal where it fits, an exponent where %+.1f would not (an error of
 * +12 345 678.9 % pushed every later column right).
 */
static void test_pct_cell(void)
{
	static const struct { int width; double pct; const char *want; } c[] = {
		{ 10, 12.34, "     +12.3%" },
		{ 10, -100.0, "    -100.0%" },
		{ 10, 999999.94, " +999999.9%" },
		{ 10, 999999.96, " +1.00e+06%" },
		{ 10, 12345678.9, " +1.23e+07%" },
		{ 9, 99999.9, " +99999.9%" },
		{ 9, 123456.0, " +1.2e+05%" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char buf[64] = "";
		FILE *f = fmemopen(buf, sizeof(buf), "w");

		CHECK(f != NULL);
		if (!f)
			return;
		replay_text_pct_cell(f, c[i].width, c[i].pct);
		fclose(f);
		CHECK_MSG(!strcmp(buf, c[i].want), "width %d, %g %%: '%s', expected '%s'", c[i].width,
			  c[i].pct, buf, c[i].want);
	}
}

/* A switch from or to the stopper migration/@cpu (RT prio 0, pid 10 + @cpu). */
static struct trace_event ev_stopper_switch(uint64_t ts, int cpu, int prev, char state, int next)
{
	int st = 10 + cpu;
	struct trace_event e = ev_switch(ts, cpu, prev ? prev : st, state, prev ? 120 : 0,
					 next ? next : st, next ? 120 : 0);

	if (!prev)
		snprintf(e.u.sched_switch.prev_comm, TRACE_COMM_LEN, "migration/%d", cpu);
	if (!next)
		snprintf(e.u.sched_switch.next_comm, TRACE_COMM_LEN, "migration/%d", cpu);
	return e;
}

/* How many lines of @text contain every one of the NULL-terminated strings. */
static int lines_with(const char *text, ...)
{
	int n = 0;

	for (const char *l = text; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		char line[512];
		bool all = true;
		va_list ap;

		snprintf(line, sizeof(line), "%.*s", (int)len, l);
		va_start(ap, text);
		for (const char *w; (w = va_arg(ap, const char *));)
			all = all && strstr(line, w);
		va_end(ap);
		n += all;
		l = e ? e + 1 : NULL;
	}
	return n;
}

/* Each of @lines (NULL-ended) stands in exactly one line of @text. */
static void check_lines_once(const char *text, const char *const *lines)
{
	for (; *lines; lines++)
		CHECK_EQ_U_AS(*lines, lines_with(text, *lines, NULL), 1);
}

/*
 * A pull during the trace's own stopper interval is the puller's.  CPU 1
 * runs 54 and 55 (seen there only: pinned); CPU 0 runs 51 (seen on CPU 1
 * at the end: it may move) and its child 52 (CPU 0 only: pinned), and
 * migration/0 holds CPU 0 from 8 to 11 ms (a traced stopper interval,
 * replayed as an RT task's).  Under --placement model 55 is done at once
 * and 54 at 9.6 ms; CPU 1's newidle balance then pulls 51, queued behind
 * migration/0 since 4 ms (cold): set_task_cpu() runs on CPU 1, and the
 * sched_migrate_task is emitted there, not on CPU 0 because migration/0
 * held it (the replay's earlier test, "the source's RT task is its
 * stopper", said CPU 0).
 */
static void test_pull_under_traced_stopper(void)
{
	struct trace_event ev[64];
	size_t n = 0;
	struct wl_workload *wl;
	struct replay_config rc;
	struct run x;

	ev[n++] = ev_switch(50 * US, 1, 0, 'R', 120, 55, 120);
	ev[n++] = ev_switch(90 * US, 1, 55, 'R', 120, 54, 120);
	ev[n++] = ev_switch(100 * US, 0, 0, 'R', 120, 51, 120);
	ev[n++] = ev_fork(200 * US, 0, 51, 52);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, 200 * US, 0, 51, 0, 52, 120, 0);
	ev[n++] = ev_switch(4 * MS, 0, 51, 'R', 120, 52, 120);
	ev[n] = ev_wake(TRACE_EV_SCHED_WAKING, 8 * MS, 0, 52, 0, 10, 0, 0);
	snprintf(ev[n++].u.wakeup.comm, TRACE_COMM_LEN, "migration/0");
	ev[n++] = ev_stopper_switch(8 * MS, 0, 52, 'R', 0);
	ev[n++] = ev_switch(9500 * US, 1, 54, 'S', 120, 55, 120);
	ev[n++] = ev_switch(9600 * US, 1, 55, 'S', 120, 0, 120);
	ev[n++] = ev_stopper_switch(11 * MS, 0, 0, 'S', 51);
	ev[n++] = ev_switch(15 * MS, 0, 51, 'R', 120, 52, 120);
	ev[n++] = ev_switch(20 * MS, 0, 52, 'S', 120, 51, 120);
	ev[n++] = ev_switch(22 * MS, 0, 51, 'R', 120, 0, 120);
	ev[n++] = ev_migrate(22 * MS, 1, 51, 0, 1);
	ev[n++] = ev_switch(22100 * US, 1, 0, 'R', 120, 51, 120);
	ev[n++] = ev_switch(23 * MS, 1, 51, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	replay_config_default(&rc);
	rc.no_costs = true;
	rc.placement = REPLAY_PLACEMENT_MODEL;
	if (run_begin(&x, wl, &rc)) {
		static const char *const once[] = {
			"[001] 0.009600000: sched_migrate_task: task51:51 orig_cpu=0 dest_cpu=1",
			/* inside migration/0's interval */
			"[000] 0.008000000: sched_switch: task52:52 [120] R+ ==> migration/0:10",
			"[000] 0.011000000: sched_switch: migration/0:10 [0] S ==> task52:52",
			NULL
		};

		CHECK_EQ(lines_with(x.dump, "sched_migrate_task", NULL), 1);
		check_lines_once(x.dump, once);
	}
	run_end(&x);
	wl_free(wl);
}

/*
 * sched_exec() under --placement model.  CPU 1 runs 90 until 1.8 ms; on
 * CPU 0 70 (nice 19, CPU 0 only: pinned) forks 80 at 1 ms and sleeps; 80
 * wakes it at 1.5 ms (too light to preempt: it waits behind 80); at 2 ms the
 * trace's migration/0 (pid 10) moves 80 to CPU 1, where it execs at 2.1 ms
 * and exits at 3 ms.  Under the model's placement the traced stopper
 * interval is not replayed; at 80's exec (the point of its work after 1.04
 * ms of it here: the trace time shifted by the replay's start) CPU 0 is busy
 * without 80 (70 queued) and CPU 1 idle: sched_exec() moves it through CPU
 * 0's stopper, which 80 wakes - the workload's migration/0: 80 R+, the move
 * emitted on CPU 0, the stopper sleeping and handing CPU 0 to 70.  Before,
 * the traced stopper preempted 70 at 2 ms and moved nothing, and 80 was
 * pulled by CPU 1's balance later.
 */
/*
 * The events of test_exec_balance_model(): 70 forks 80 on CPU 0 at 1 ms and
 * sleeps; 80 runs from 1.01 ms, wakes 70 at 1.5 ms; at 2 ms 80 wakes
 * migration/0, which moves it to CPU 1 (idle since 1.8 ms), where it execs
 * /bin/true at 2.1 ms (90 us of work after the move) and exits at 3 ms.
 * The new count.
 */
static size_t exec_move_events(struct trace_event *ev)
{
	struct trace_event e;
	size_t n = 0;

	ev[n++] = ev_switch(50 * US, 1, 0, 'R', 120, 90, 120);
	ev[n++] = ev_switch(100 * US, 0, 0, 'R', 120, 70, 139);
	ev[n++] = ev_fork(1 * MS, 0, 70, 80);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, 1 * MS, 0, 70, 0, 80, 120, 0);
	ev[n++] = ev_switch(1010 * US, 0, 70, 'S', 139, 80, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 1500 * US, 0, 80, 0, 70, 139, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 1500 * US, 0, 80, 0, 70, 139, 0);
	ev[n++] = ev_switch(1800 * US, 1, 90, 'S', 120, 0, 120);
	ev[n] = ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 80, 0, 10, 0, 0);
	snprintf(ev[n++].u.wakeup.comm, TRACE_COMM_LEN, "migration/0");
	ev[n] = ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS, 0, 80, 0, 10, 0, 0);
	snprintf(ev[n++].u.wakeup.comm, TRACE_COMM_LEN, "migration/0");
	ev[n++] = ev_stopper_switch(2 * MS, 0, 80, 'R', 0);
	e = ev_migrate(2005 * US, 0, 80, 0, 1);
	e.common_pid = 10;
	ev[n++] = e;
	e = ev_stopper_switch(2010 * US, 0, 0, 'S', 70);
	e.u.sched_switch.next_prio = 139;
	ev[n++] = e;
	ev[n++] = ev_switch(2010 * US, 1, 0, 'R', 120, 80, 120);
	ev[n++] = ev_exec(2100 * US, 1, 80, "/bin/true");
	ev[n++] = ev_switch(3 * MS, 1, 80, 'X', 120, 0, 120);
	ev[n++] = ev_switch(6 * MS, 0, 70, 'S', 139, 0, 120);
	return n;
}

static void test_exec_balance_model(void)
{
	struct trace_event ev[64];
	size_t n = exec_move_events(ev);
	struct wl_workload *wl;
	struct replay_config rc;
	struct run x;

	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	replay_config_default(&rc);
	rc.no_costs = true;
	rc.placement = REPLAY_PLACEMENT_MODEL;
	if (run_begin(&x, wl, &rc)) {
		static const char *const once[] = {
			"sched_waking: migration/0:10 [0] CPU:000",
			"sched_switch: task80:80 [120] R+ ==> migration/0:10",
			"[000] 0.002040000: sched_migrate_task: task80:80 orig_cpu=0 dest_cpu=1",
			"sched_switch: migration/0:10 [0] S ==> task70:70",
			NULL
		};

		CHECK_EQ(count(x.r, "sched_exec"), 1);
		CHECK_EQ(count(x.r, "sched_exec.moved"), 1);
		CHECK_EQ(lines_with(x.dump, "sched_migrate_task", "task80", NULL), 1);
		CHECK_EQ(lines_with(x.dump, "sched_waking: migration/0", NULL), 1);
		check_lines_once(x.dump, once);
	}
	run_end(&x);
	wl_free(wl);
}

/*
 * --placement model, a pinned pair (inherited_pin_cpu()): 70 runs on CPU 1
 * only and forks 80 there at 1 ms; the two ping-pong on CPU 1 (70 sleeps, 80
 * runs and wakes it, 80 sleeps) five times while CPU 0 idles.  Neither is
 * ever on CPU 0, so the model pins both, and the child, inheriting its
 * parent's one-CPU mask, is born on CPU 1: every switch stays there.  Before,
 * the fork's slow path put 80 on idle CPU 0, where, pinned, it stayed, and
 * each hand-off crossed CPUs through idle (pipe-pinned-run2: sched_switch
 * +99.3 %).  A child the trace shows on two CPUs is placed by the slow path.
 */
static size_t pinned_pair_events(struct trace_event *ev, bool child_moves)
{
	size_t n = 0;

	ev[n++] = ev_switch(50 * US, 0, 0, 'R', 120, 90, 120);
	ev[n++] = ev_switch(60 * US, 0, 90, 'S', 120, 0, 120);
	ev[n++] = ev_switch(100 * US, 1, 0, 'R', 120, 70, 120);
	ev[n++] = ev_fork(1 * MS, 1, 70, 80);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, 1 * MS, 1, 70, 0, 80, 120, 1);
	for (int i = 0; i < 5; i++) {
		uint64_t t = 1100 * US + (uint64_t)i * 200 * US;

		ev[n++] = ev_switch(t, 1, 70, 'S', 120, 80, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 50 * US, 1, 80, 0, 70, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 50 * US, 1, 80, 0, 70, 120, 1);
		ev[n++] = ev_switch(t + 60 * US, 1, 80, 'S', 120, 70, 120);
	}
	if (child_moves) {
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 2200 * US, 1, 70, 0, 80, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 2200 * US, 0, 70, 0, 80, 120, 0);
		ev[n++] = ev_switch(2210 * US, 0, 0, 'R', 120, 80, 120);
		ev[n++] = ev_switch(2300 * US, 0, 80, 'S', 120, 0, 120);
	}
	ev[n++] = ev_switch(3 * MS, 1, 70, 'S', 120, 0, 120);
	return n;
}

static void test_fork_pinned_parent(void)
{
	for (int moves = 0; moves < 2; moves++) {
		struct trace_event ev[64];
		size_t n = pinned_pair_events(ev, moves);
		struct wl_workload *wl = build(ev, n);
		struct replay_config rc;
		struct run x;

		CHECK(wl != NULL);
		if (!wl)
			continue;
		replay_config_default(&rc);
		rc.no_costs = true;
		rc.placement = REPLAY_PLACEMENT_MODEL;
		if (run_begin(&x, wl, &rc)) {
			/* pinned: born beside its parent; else the slow path's idle CPU 0 */
			CHECK_EQ(lines_with(x.dump, moves ? "[000] " : "[001] ",
					    "sched_wakeup_new: task80:80 [120] CPU:00", NULL), 1);
			if (!moves) {
				CHECK_EQ(lines_with(x.dump, "[000] ", "task80", NULL), 0);
				CHECK_EQ(lines_with(x.dump, "[000] ", "task70", NULL), 0);
				CHECK_EQ(lines_with(x.dump, "sched_switch: task70:70 [120] S ==> "
						    "task80:80", NULL), 5);
			}
		}
		run_end(&x);
		wl_free(wl);
	}
}

/*
 * --exec-balance-at traced: 80's exec balances where the trace shows the
 * kernel's sched_exec() stopper move (at 2 ms, after 990 us of its work),
 * 90 us of work before its exec (the lead measured from that move); with
 * exec (the default) at the exec, after 1080 us.
 */
static void test_exec_balance_traced(void)
{
	for (int traced = 0; traced < 2; traced++) {
		struct trace_event ev[64];
		size_t n = exec_move_events(ev);
		struct wl_options o = { .exec_marks = traced };
		struct wl_workload *wl = build_opts(ev, n, &o);
		const struct wl_facts *f;
		struct replay_config rc;
		struct run x;

		if (!wl)
			continue;
		f = wl_facts(wl);
		CHECK_EQ(f->exec_lead_ns, 90 * US);
		CHECK_EQ(f->exec_lead_samples, 1);
		CHECK_EQ(f->exec_marks_traced, (unsigned)traced);
		replay_config_default(&rc);
		rc.no_costs = true;
		rc.placement = REPLAY_PLACEMENT_MODEL;
		rc.exec_balance_at = traced ? REPLAY_EXEC_BALANCE_TRACED : REPLAY_EXEC_BALANCE_EXEC;
		if (run_begin(&x, wl, &rc)) {
			/* the replay starts at the trace's first event: 50 us earlier */
			CHECK_EQ(count(x.r, "sched_exec"), 1);
			CHECK_EQ(count(x.r, "sched_exec.moved"), 1);
			CHECK_EQ(lines_with(x.dump, "sched_migrate_task", "task80", NULL), 1);
			CHECK_EQ(lines_with(x.dump, traced ? "[000] 0.001950000: sched_migrate_task: "
					    "task80:80 orig_cpu=0 dest_cpu=1" :
					    "[000] 0.002040000: sched_migrate_task: "
					    "task80:80 orig_cpu=0 dest_cpu=1", NULL), 1);
			CHECK_EQ(lines_with(x.dump, "[000] 0.001950000: sched_waking: migration/0",
					    NULL), (unsigned)traced);
		}
		run_end(&x);
		wl_free(wl);
	}
}

/*
 * The tasks of CPU 0 in test_active_balance_synth() and
 * test_stopper_over_rt(), after @n events: 51 runs from 100 us, 52 (nice
 * 19) from 100 ms, 51 again from 200 ms; at 201 ms the trace moves 51 to
 * CPU 1 (it may move; 52 never leaves CPU 0: pinned), where it runs
 * 201.1-202 ms; 52 runs again on CPU 0 202-203 ms.  The new count.
 */
static size_t cpu0_51_52_events(struct trace_event *ev, size_t n)
{
	ev[n++] = ev_switch(100 * US, 0, 0, 'R', 120, 51, 120);
	ev[n++] = ev_switch(100 * MS, 0, 51, 'R', 120, 52, 139);
	ev[n++] = ev_switch(200 * MS, 0, 52, 'R', 139, 51, 120);
	ev[n++] = ev_switch(201 * MS, 0, 51, 'R', 120, 0, 120);
	ev[n++] = ev_migrate(201 * MS, 1, 51, 0, 1);
	ev[n++] = ev_switch(201100 * US, 1, 0, 'R', 120, 51, 120);
	ev[n++] = ev_switch(202 * MS, 1, 51, 'S', 120, 0, 120);
	ev[n++] = ev_switch(202 * MS, 0, 0, 'R', 120, 52, 139);
	ev[n++] = ev_switch(203 * MS, 0, 52, 'S', 139, 0, 120);
	return n;
}

/*
 * The model's active balance without a migration/N in the workload
 * (--placement model).  CPU 0 runs 51 (seen on CPU 1 at the end: it may
 * move) and 52 (nice 19, CPU 0 only: pinned); CPU 1 runs 54 (pinned) until
 * 10 ms, then idles.  52 runs one tick, 4-8 ms (EEVDF: 51 is ineligible
 * once its vruntime passes 52's; 52's then grows 1024/15 times faster, so
 * 51 runs on for some 270 ms).  From 10 ms CPU 1's nohz balances find a
 * task-count imbalance and nothing to move (51 running, 52 pinned):
 * nr_balance_failed 1..4, then need_active_balance() queues CPU 0's stopper
 * (24 ms).  As the kernel's stop class it preempts 51 - a stand-in
 * migration/0 (pid 4194304, prio 0), woken from CPU 1 and switched to and
 * from on CPU 0 - and detach_one_task() refuses 52 (pinned) and pushes 51,
 * emitted on CPU 0 where the stopper runs; CPU 0 goes on with 52, CPU 1
 * runs 51.  Before, the work ran without preempting: 51 stayed curr,
 * nothing moved (active_balance.failed 1).  sched_switch: the tasks' and
 * the idle task's 8 and the stopper's 2, counted as the kernel's.
 */
static void test_active_balance_synth(void)
{
	struct trace_event ev[64];
	size_t n = 0;
	struct wl_workload *wl;
	struct replay_config rc;
	struct run x;

	ev[n++] = ev_switch(50 * US, 1, 0, 'R', 120, 54, 120);
	ev[n++] = ev_switch(10 * MS, 1, 54, 'S', 120, 0, 120);
	n = cpu0_51_52_events(ev, n);
	wl = build(ev, n);
	CHECK(wl != NULL);
	replay_config_default(&rc);
	rc.no_costs = true;
	rc.placement = REPLAY_PLACEMENT_MODEL;
	if (run_begin(&x, wl, &rc)) {
		static const char *const once[] = {
			"[001] 0.024000000: sched_waking: migration/0:4194304 [0] CPU:000",
			"[001] 0.024000000: sched_wakeup: migration/0:4194304 [0] CPU:000",
			"[000] 0.024000000: sched_switch: task51:51 [120] R+ ==> migration/0:4194304 [0]",
			"[000] 0.024000000: sched_migrate_task: task51:51 orig_cpu=0 dest_cpu=1",
			"[000] 0.024000000: sched_switch: migration/0:4194304 [0] S ==> task52:52 [139]",
			"[001] 0.024000000: sched_switch: swapper/1:0 [120] R ==> task51:51",
			NULL
		};

		CHECK_EQ(count(x.r, "sched_balance_rq.failed"), 5);
		CHECK_EQ(count(x.r, "sched_balance_rq.active_needed"), 1);
		CHECK_EQ(count(x.r, "sched_balance_rq.active_started"), 1);
		CHECK_EQ(count(x.r, "active_balance.pushed"), 1);
		CHECK_EQ(count(x.r, "active_balance.failed"), 0);
		CHECK_EQ(count(x.r, "sched_switch"), 10);
		CHECK_EQ(lines_with(x.dump, "sched_migrate_task", NULL), 1);
		CHECK_EQ(lines_with(x.dump, "migration/0", NULL), 4);
		check_lines_once(x.dump, once);
	}
	run_end(&x);
	wl_free(wl);
}

/*
 * The model's active balance queues a stopper on a CPU an RT task takes at
 * the same timestamp (run_stopper()'s RT-held path), --placement model.
 * CPUs 1 and 2 idle from 10 ms while CPU 0 runs 51 (movable) and 52
 * (pinned): their nohz balances fail at 12, 16, 20 and 24 ms; at 24 ms CPU
 * 2's starts CPU 0's stand-in stopper, which pushes 51 to CPU 2 (as in
 * test_active_balance_synth()), and CPU 1's finds it pending: its
 * nr_balance_failed stays 4.  CPU 1 runs RT 60 from 25 ms (no nohz balance
 * of it since); 57 (nice 19, CPU 2 only: pinned) wakes on CPU 2 at 26 ms
 * and is queued behind 51 at 33 ms.  At 33 ms, in the trace's order, 60
 * sleeps - CPU 1's newidle balance finds 51 running and 57 pinned, nr_balance_failed 4: need_active_balance()
 * queues CPU 2's stopper, woken from CPU 1 - and RT 61 takes CPU 2 (51 "R+").
 * Then the stopper runs: it preempts 61 ("R+"), pushes 51 (emitted on CPU
 * 2), sleeps and hands CPU 2 back to 61; CPU 1 runs 51; at 33.5 ms 61 sleeps
 * and 57 runs.  Since cap52 (the kernel's scale_rt_capacity()), CPU 1's 8 ms
 * of RT 60 left its capacity reduced (10 ms give avg_rt 191, 8 ms about 160:
 * below 1024 x 100 / 117 = 876, as CPU 1's own balance last refreshed it): when
 * 57 sleeps at 47.99 ms, CPU 2's idle balance at 48 ms finds CPU 1 a misfit
 * group (one fair task on a reduced CPU) and its stopper pushes 51 to CPU 2
 * (need_active_balance()'s reduced-capacity clause): one more active balance
 * needed, started and pushed, one more migration, three more switches.
 * sched_switch 25 (22 with --cpu-capacity fixed), the two of the stopper at
 * 33 ms among them.
 * The profile has NI_RANDOM off, so every newidle balance runs whatever the
 * seed: with it on, this needed one chosen seed (987654321: seeds 1..39 skip
 * the balance at 33 ms and never reach the path).  Run with two seeds.
 */
static void test_stopper_over_rt(uint64_t seed)
{
	struct trace_event ev[64];
	size_t n = 0;
	struct wl_workload *wl;
	struct replay_config rc;
	struct model_profile prof;
	const char *why;
	struct run x;

	ev[n++] = ev_switch(50 * US, 1, 0, 'R', 120, 54, 120);
	ev[n++] = ev_switch(60 * US, 2, 0, 'R', 120, 56, 120);
	ev[n++] = ev_switch(10 * MS, 1, 54, 'S', 120, 0, 120);
	ev[n++] = ev_switch(10 * MS, 2, 56, 'S', 120, 0, 120);
	ev[n++] = ev_switch(25 * MS, 1, 0, 'R', 120, 60, 49);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 26 * MS, 2, 0, 0, 57, 139, 2);
	ev[n++] = ev_switch(26 * MS + 10 * US, 2, 0, 'R', 120, 57, 139);
	ev[n++] = ev_switch(33 * MS, 1, 60, 'S', 49, 0, 120);
	ev[n++] = ev_switch(33 * MS, 2, 57, 'R', 139, 61, 49);
	ev[n++] = ev_switch(33500 * US, 2, 61, 'S', 49, 57, 139);
	ev[n++] = ev_switch(45 * MS, 2, 57, 'S', 139, 0, 120);
	n = cpu0_51_52_events(ev, n);
	/* in time order, stable: CPU 1's switch at 33 ms before CPU 2's */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && ev[j - 1].ts > ev[j].ts; j--) {
			struct trace_event e = ev[j];

			ev[j] = ev[j - 1];
			ev[j - 1] = e;
		}
	wl = build(ev, n);
	CHECK(wl != NULL);
	replay_config_default(&rc);
	rc.no_costs = true;
	rc.placement = REPLAY_PLACEMENT_MODEL;
	prof = *replay_profile_for(wl, &rc, &why);
	prof.feat[FEAT_NI_RANDOM] = 0;
	rc.profile = &prof;
	rc.seed = seed;
	if (run_begin(&x, wl, &rc)) {
		static const char *const once[] = {
			"[001] 0.033000000: sched_waking: migration/2:4194306 [0] CPU:002",
			"[001] 0.033000000: sched_wakeup: migration/2:4194306 [0] CPU:002",
			"[002] 0.033000000: sched_switch: task51:51 [120] R+ ==> task61:61 [49]",
			"[002] 0.033000000: sched_switch: task61:61 [49] R+ ==> migration/2:4194306 [0]",
			"[002] 0.033000000: sched_migrate_task: task51:51 orig_cpu=2 dest_cpu=1",
			"[002] 0.033000000: sched_switch: migration/2:4194306 [0] S ==> task61:61 [49]",
			"[001] 0.033000000: sched_switch: swapper/1:0 [120] R ==> task51:51 [120]",
			"[002] 0.033500000: sched_switch: task61:61 [49] S ==> task57:57 [139]",
			NULL
		};

		static const char *const reduced[] = {
			"[001] 0.048000000: sched_switch: task51:51 [120] R+ ==> migration/1:4194305 [0]",
			"[001] 0.048000000: sched_migrate_task: task51:51 orig_cpu=1 dest_cpu=2",
			"[002] 0.048000000: sched_switch: swapper/2:0 [120] R ==> task51:51 [120]",
			NULL
		};

		CHECK_EQ(count(x.r, "newidle_balance.ni_random_skip"), 0);
		CHECK_EQ(count(x.r, "sched_balance_rq.active_needed"), 4);
		CHECK_EQ(count(x.r, "sched_balance_rq.active_started"), 3);
		CHECK_EQ(count(x.r, "active_balance.pushed"), 3);
		CHECK_EQ(count(x.r, "active_balance.failed"), 0);
		CHECK_EQ(count(x.r, "sched_switch"), 25);
		CHECK_EQ(lines_with(x.dump, "sched_migrate_task", NULL), 3);
		CHECK_EQ(lines_with(x.dump, "migration/2", NULL), 4);
		check_lines_once(x.dump, reduced);
		check_lines_once(x.dump, once);
	}
	run_end(&x);
	wl_free(wl);
}

/* The wakeup latencies (ns) of task @pid that a replay predicted, in order (replay_config.sample_sink). */
struct pid_samples {
	int32_t pid;
	unsigned int n;
	uint64_t ns[64];
	uint64_t start[64];            /* their start_ts (the sched_waking) */
};

static void pid_sample(void *ctx, const struct lat_sample *smp)
{
	struct pid_samples *ps = ctx;

	if (smp->kind == LAT_WAKEUP && smp->pid == ps->pid && ps->n < 64) {
		ps->start[ps->n] = smp->start_ts;
		ps->ns[ps->n++] = smp->latency_ns;
	}
}

/*
 * A non-sync early wake (replay_config.early_wakes; docs/replay.md, "Early
 * wakes").  Reader 60 on CPU 2 is woken by an interrupt each round (2 us idle
 * exit), works 100 us and sleeps; writer 62 on CPU 1 is woken by an interrupt
 * at the same instant but left idle 500 us later on the hardware, works
 * 10 us, wakes 60 and works on 50 us (not sync: no sleep right after it).
 * 60 runs 10 us and sleeps.  Before the rounds 25 interrupt wakeups of 64 on
 * CPU 2 (2 us each) fill the interrupt idle-exit pool: with 4 samples of its
 * own on CPU 1, 62 draws from that pool, 2 us in rounds 1-3 (500 us in round
 * 4), so it runs ahead and its wake reaches 60 while 60 still runs its
 * 100 us: 60 blocks there and is woken at once (the stand-in), on idle CPU 2
 * (the idle path: 2 us).  The trace has 8 samples of 60, 2 per round.
 */
static size_t early_events(struct trace_event *ev)
{
	size_t n = 0;
	uint64_t t = 1 * MS;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(t, 2, 0, 'R', 120, 0, 120);
	for (int k = 0; k < 25; k++) {
		t += 20 * US;
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 2, 0, 0x08, 64, 120, 2);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 2, 0, 0x08, 64, 120, 2);
		ev[n++] = ev_switch(t + 2 * US, 2, 0, 'R', 120, 64, 120);
		ev[n++] = ev_switch(t + 7 * US, 2, 64, 'S', 120, 0, 120);
	}
	for (int k = 0; k < 4; k++) {
		t = 2 * MS + (uint64_t)k * MS;
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 1, 0, 0x08, 62, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 1, 0, 0x08, 62, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 2, 0, 0x08, 60, 120, 2);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 2, 0, 0x08, 60, 120, 2);
		ev[n++] = ev_switch(t + 2 * US, 2, 0, 'R', 120, 60, 120);
		ev[n++] = ev_switch(t + 102 * US, 2, 60, 'S', 120, 0, 120);
		ev[n++] = ev_switch(t + 500 * US, 1, 0, 'R', 120, 62, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 510 * US, 1, 62, 0, 60, 120, 2);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 510 * US, 2, 0, 0x08, 60, 120, 2);
		ev[n++] = ev_switch(t + 512 * US, 2, 0, 'R', 120, 60, 120);
		ev[n++] = ev_switch(t + 522 * US, 2, 60, 'S', 120, 0, 120);
		ev[n++] = ev_switch(t + 560 * US, 1, 62, 'S', 120, 0, 120);
	}
	ev[n++] = ev_runtime(7 * MS, 0, 0, 1);
	return n;
}

/* A replay of @wl under replay_config.early_wakes @mode, @ps's task's samples into @ps. */
static struct replay_result *run_early(const struct wl_workload *wl, enum replay_early_wakes mode,
				       struct pid_samples *ps)
{
	struct replay_config rc;
	struct sr_error err = { 0 };
	struct replay_result *r;

	replay_config_default(&rc);
	rc.early_wakes = mode;
	rc.sample_sink = pid_sample;
	rc.sample_ctx = ps;
	r = replay_run(wl, &rc, &err);
	CHECK(r != NULL);
	if (!r)
		fprintf(stderr, "replay: %s\n", err.msg);
	return r;
}

/*
 * The three modes on early_events(): the same events (74 switches, 37
 * wakeups) and the same 3 stand-ins; sample: 60's 8 samples, the stand-ins'
 * 2 us of idle exit among them; nosample: those 3 not counted (5, and 34 of
 * 37 in all); nocost: 8, the stand-ins' 0 us (the CPU re-picks 60 at once).
 */
static void test_early_wakes(void)
{
	static const uint64_t want[3][8] = {
		{ 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000 },
		{ 2000, 2000, 2000, 2000, 2000 },
		{ 2000, 0, 2000, 0, 2000, 0, 2000, 2000 },
	};
	static const unsigned int want_n[3] = { 8, 5, 8 };
	struct trace_event ev[512];
	struct wl_workload *wl = build(ev, early_events(ev));

	CHECK(wl != NULL);
	if (!wl)
		return;
	/* measured: 64's 25, 62's 4 and 60's 8, as the replay's all (sample) */
	CHECK_EQ(lat_get_all(wl_measured_latency(wl), LAT_WAKEUP)->count, 25 + 4 + 8);
	for (int mode = REPLAY_EARLY_SAMPLE; mode <= REPLAY_EARLY_NOCOST; mode++) {
		struct pid_samples ps = { .pid = 60 };
		struct replay_result *r = run_early(wl, (enum replay_early_wakes)mode, &ps);

		if (!r)
			continue;
		CHECK_EQ(count(r, "sched_switch"), 74);
		CHECK_EQ(count(r, "sched_wakeup"), 37);
		CHECK_EQ(note_count(r, "early wakes neither sync nor a race"), 3);
		CHECK_EQ(note_count(r, "wakeup latency samples not counted"),
			 mode == REPLAY_EARLY_NOSAMPLE ? 3 : 0);
		CHECK_EQ(note_count(r, "of those stand-in wakeups, given no"),
			 mode == REPLAY_EARLY_NOCOST ? 3 : 0);
		CHECK_EQ(lat_get_all(replay_latency(r), LAT_WAKEUP)->count,
			 mode == REPLAY_EARLY_NOSAMPLE ? 34 : 37);
		CHECK_EQ(ps.n, want_n[mode]);
		for (unsigned int i = 0; i < ps.n && i < 8; i++)
			CHECK_EQ(ps.ns[i], want[mode][i]);
		replay_result_free(r);
	}
	wl_free(wl);
}

/*
 * --standin-skip (docs/replay.md, "Early wakes").  Calibration first, from
 * 1.6 ms: 20 remote preemptions on CPU 3 (66 on CPU 1 wakes 67, nice -20,
 * which preempts 65 30 us later) and 20 local ones on CPU 0 (68 wakes 69,
 * nice -20, switched in 0.5 us later).  Then 4 rounds as early_events()'s,
 * 5 ms apart: 60 (nice -20) works 100 us alone on CPU 2 and sleeps; 62 on
 * CPU 1 wakes it onto CPU 3 late on the hardware; 61 (nice 0) has run on
 * CPU 3 for 3.5 ms (its slice protection spent) and sleeps 3 us after 60's
 * block.  In the replay 62 runs ahead (its idle exit from the interrupt
 * pool) and its wake reaches 60 before 60's block: the stand-in wakes 60
 * at once, from 62's CPU 1 onto CPU 3, where it preempts 61 and asks for
 * the clock skip.  keep: the remote cost (30 us) lands after 61's block,
 * which keeps the skip: 61's dequeue emits no sched_stat_runtime.  drop:
 * that block updates the clock, one sched_stat_runtime more per round, the
 * switches unchanged.  local: the preemption lands after 0.5 us, before the
 * block: 61 is switched out runnable (one switch more per round), runs again
 * after 60 and blocks on a clock of its own (one sched_stat_runtime more).
 * drop-local: as local, the skip taken by the preemption.  drop-own: as
 * keep (61 is not the task 60's block switched in: that is CPU 2's idle).
 * block-preempt: 61 is preempted at its block instead, and blocks after 60;
 * block-charge: the same, 61 charged its run at that preemption.
 */
static size_t standin_skip_events(struct trace_event *ev)
{
	size_t n = 0;
	uint64_t t = 1 * MS;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(t, 2, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(t, 3, 0, 'R', 120, 0, 120);
	for (int k = 0; k < 25; k++) {
		t += 20 * US;
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 2, 0, 0x08, 64, 120, 2);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 2, 0, 0x08, 64, 120, 2);
		ev[n++] = ev_switch(t + 2 * US, 2, 0, 'R', 120, 64, 120);
		ev[n++] = ev_switch(t + 7 * US, 2, 64, 'S', 120, 0, 120);
	}
	t = 1600 * US;
	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 68, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 66, 120);
	ev[n++] = ev_switch(t, 3, 0, 'R', 120, 65, 120);
	for (int k = 0; k < 20; k++) {
		uint64_t u = 1610 * US + (uint64_t)k * 40 * US;

		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, u + 34 * US, 0, 68, 0, 69, 100, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, u + 34 * US, 0, 68, 0, 69, 100, 0);
		ev[n++] = ev_switch(u + 34 * US + 500, 0, 68, 'R', 120, 69, 100);
		ev[n++] = ev_switch(u + 37 * US, 0, 69, 'S', 100, 68, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, u, 1, 66, 0, 67, 100, 3);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, u, 1, 66, 0, 67, 100, 3);
		ev[n++] = ev_switch(u + 30 * US, 3, 65, 'R', 120, 67, 100);
		ev[n++] = ev_switch(u + 32 * US, 3, 67, 'S', 100, 65, 120);
	}
	ev[n++] = ev_switch(2450 * US, 0, 68, 'S', 120, 0, 120);
	ev[n++] = ev_switch(2450 * US, 1, 66, 'S', 120, 0, 120);
	ev[n++] = ev_switch(2450 * US, 3, 65, 'S', 120, 0, 120);
	for (int k = 0; k < 4; k++) {
		t = 6 * MS + (uint64_t)k * 5 * MS;
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t - 3500 * US, 3, 0, 0x08, 61, 120, 3);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t - 3500 * US, 3, 0, 0x08, 61, 120, 3);
		ev[n++] = ev_switch(t - 3498 * US, 3, 0, 'R', 120, 61, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 1, 0, 0x08, 62, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 1, 0, 0x08, 62, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 2, 0, 0x08, 60, 100, 2);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 2, 0, 0x08, 60, 100, 2);
		ev[n++] = ev_switch(t + 2 * US, 2, 0, 'R', 120, 60, 100);
		ev[n++] = ev_switch(t + 102 * US, 2, 60, 'S', 100, 0, 120);
		ev[n++] = ev_switch(t + 105 * US, 3, 61, 'S', 120, 0, 120);
		ev[n++] = ev_switch(t + 500 * US, 1, 0, 'R', 120, 62, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 510 * US, 1, 62, 0, 60, 100, 3);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 510 * US, 3, 0, 0x08, 60, 100, 3);
		ev[n++] = ev_switch(t + 512 * US, 3, 0, 'R', 120, 60, 100);
		ev[n++] = ev_switch(t + 522 * US, 3, 60, 'S', 100, 0, 120);
		ev[n++] = ev_switch(t + 560 * US, 1, 62, 'S', 120, 0, 120);
	}
	ev[n++] = ev_runtime(23 * MS, 0, 0, 1);
	/* into time order, stably (the order written at one instant) */
	for (size_t i = 1; i < n; i++) {
		struct trace_event e = ev[i];
		size_t j = i;

		for (; j > 0 && ev[j - 1].ts > e.ts; j--)
			ev[j] = ev[j - 1];
		ev[j] = e;
	}
	return n;
}

static void test_standin_skip(void)
{
	struct trace_event ev[512];
	struct wl_workload *wl = build(ev, standin_skip_events(ev));
	uint64_t sw[7] = { 0 }, st[7] = { 0 }, dropped[7] = { 0 }, local[7] = { 0 }, bp[7] = { 0 };

	CHECK(wl != NULL);
	if (!wl)
		return;
	for (int mode = REPLAY_STANDIN_SKIP_KEEP; mode <= REPLAY_STANDIN_SKIP_BLOCK_CHARGE; mode++) {
		struct replay_config rc;
		struct sr_error err = { 0 };
		struct replay_result *r;

		replay_config_default(&rc);
		rc.standin_skip = (enum replay_standin_skip)mode;
		r = replay_run(wl, &rc, &err);
		CHECK(r != NULL);
		if (!r)
			continue;
		sw[mode] = count(r, "sched_switch");
		st[mode] = count(r, "sched_stat_runtime");
		dropped[mode] = note_count(r, "blocks whose __schedule() updated the clock");
		local[mode] = note_count(r, "preemptions by an early wake's stand-in");
		bp[mode] = note_count(r, "blocks reached with a preemption pending");
		CHECK(note_count(r, "early wakes neither sync nor a race") >= 4);
		replay_result_free(r);
	}
	/* drop: the 4 blocks on the stand-in's skip charge their run, nothing else moves */
	CHECK_EQ(dropped[REPLAY_STANDIN_SKIP_KEEP], 0);
	CHECK_EQ(dropped[REPLAY_STANDIN_SKIP_DROP], 4);
	CHECK_EQ(sw[REPLAY_STANDIN_SKIP_DROP], sw[REPLAY_STANDIN_SKIP_KEEP]);
	CHECK_EQ(st[REPLAY_STANDIN_SKIP_DROP], st[REPLAY_STANDIN_SKIP_KEEP] + 4);
	/* local: the 4 preemptions land before the block: a switch and a charge more each */
	CHECK_EQ(local[REPLAY_STANDIN_SKIP_KEEP], 0);
	CHECK(local[REPLAY_STANDIN_SKIP_LOCAL] >= 4);
	CHECK_EQ(sw[REPLAY_STANDIN_SKIP_LOCAL], sw[REPLAY_STANDIN_SKIP_KEEP] + 4);
	CHECK_EQ(st[REPLAY_STANDIN_SKIP_LOCAL], st[REPLAY_STANDIN_SKIP_KEEP] + 4);
	/* both: the preemption took the skip, none left for a block */
	CHECK_EQ(dropped[REPLAY_STANDIN_SKIP_DROP_LOCAL], 0);
	CHECK_EQ(sw[REPLAY_STANDIN_SKIP_DROP_LOCAL], sw[REPLAY_STANDIN_SKIP_LOCAL]);
	CHECK_EQ(st[REPLAY_STANDIN_SKIP_DROP_LOCAL], st[REPLAY_STANDIN_SKIP_LOCAL]);
	/* drop-own: the preempted 61 runs on CPU 3, not 60's block's CPU 2: kept as keep's */
	CHECK_EQ(dropped[REPLAY_STANDIN_SKIP_DROP_OWN], 0);
	CHECK_EQ(sw[REPLAY_STANDIN_SKIP_DROP_OWN], sw[REPLAY_STANDIN_SKIP_KEEP]);
	CHECK_EQ(st[REPLAY_STANDIN_SKIP_DROP_OWN], st[REPLAY_STANDIN_SKIP_KEEP]);
	/*
	 * block-preempt: 61 reaches its block with the preemption pending:
	 * switched out runnable there (a switch more per round), on the
	 * skipped clock (no charge there); its later block reads its clock
	 * past that (block_clock after, the default) and charges 61: a charge
	 * more per round
	 */
	CHECK_EQ(bp[REPLAY_STANDIN_SKIP_KEEP], 0);
	CHECK_EQ(bp[REPLAY_STANDIN_SKIP_BLOCK_PREEMPT], 4);
	CHECK_EQ(sw[REPLAY_STANDIN_SKIP_BLOCK_PREEMPT], sw[REPLAY_STANDIN_SKIP_KEEP] + 4);
	CHECK_EQ(st[REPLAY_STANDIN_SKIP_BLOCK_PREEMPT], st[REPLAY_STANDIN_SKIP_KEEP] + 4);
	/* block-charge: the same switches, and that preemption charges 61's run too */
	CHECK_EQ(bp[REPLAY_STANDIN_SKIP_BLOCK_CHARGE], 4);
	CHECK_EQ(sw[REPLAY_STANDIN_SKIP_BLOCK_CHARGE], sw[REPLAY_STANDIN_SKIP_KEEP] + 4);
	CHECK_EQ(st[REPLAY_STANDIN_SKIP_BLOCK_CHARGE], st[REPLAY_STANDIN_SKIP_KEEP] + 8);
	wl_free(wl);
}

/*
 * --early-wakes sleep on early_events(): 60's traced sleep in each round is
 * 408 us (its switch-out at +102 us, the waking at +510 us: the workload's
 * sleep_ns), so each of the 3 stand-in wakeups is delivered 408 us after the
 * block, not at it: its sched_waking 408 us later than under sample, the
 * same 2 us idle exit; the other samples and every count unchanged.  A
 * stand-in delivered is no work left (wake_task() clears the pending
 * count): the run ends at the trace end, not stuck past it.
 */
static void test_early_wakes_sleep(void)
{
	struct trace_event ev[512];
	struct wl_workload *wl = build(ev, early_events(ev));
	struct pid_samples ps[2] = { { .pid = 60 }, { .pid = 60 } };
	unsigned int standins = 0;

	CHECK(wl != NULL);
	if (!wl)
		return;
	for (uint32_t i = 0; i < wl_nr_wakes(wl); i++) {
		const struct wl_wake *w = wl_wake(wl, i);

		if (w->waker != WL_NONE && wl_task(wl, w->target)->pid == 60)
			CHECK_EQ(w->sleep_ns, 408 * US);
	}
	for (int k = 0; k < 2; k++) {
		struct replay_result *r = run_early(wl, k ? REPLAY_EARLY_SLEEP : REPLAY_EARLY_SAMPLE,
						    &ps[k]);

		if (!r)
			continue;
		CHECK_EQ(count(r, "sched_switch"), 74);
		CHECK_EQ(count(r, "sched_wakeup"), 37);
		CHECK_EQ(note_count(r, "early wakes neither sync nor a race"), 3);
		CHECK_EQ(note_count(r, "of those stand-in wakeups, delivered after"), k ? 3 : 0);
		CHECK_EQ(note_count(r, "of those, dropped: the task was woken"), 0);
		CHECK_EQ(replay_end_ts(r), 7 * MS);
		CHECK(!replay_work_unfinished(r));
		replay_result_free(r);
	}
	CHECK_EQ(ps[0].n, 8);
	CHECK_EQ(ps[1].n, 8);
	for (unsigned int i = 0; i < ps[0].n && i < ps[1].n; i++) {
		uint64_t d = ps[1].start[i] - ps[0].start[i];

		CHECK(d == 0 || d == 408 * US);
		standins += d == 408 * US;
		CHECK_EQ(ps[1].ns[i], ps[0].ns[i]);
	}
	CHECK_EQ(standins, 3);
	wl_free(wl);
}

/*
 * --early-wakes sleep with --channel-wakes (chan_wakes_sleeper()).  Reader
 * 60 on CPU 2 has two writers; every 1 ms an interrupt wakes all three on
 * idle CPUs, and the trace ran the writers late (idle exits of 500 and
 * 600 us).  60 works 100 us and sleeps (block X); 62 on CPU 1 works 10 us,
 * wakes 60 (not sync: 50 us more follow) and sleeps; 60 runs 10 us and
 * sleeps (block Y); 61 on CPU 0 works 150 us, wakes 60 (sync) and sleeps;
 * 60 runs 10 us and sleeps (block Z) until the next round's interrupt.
 * 4 rounds: each writer wakes 60 four times, so both writers' wakes are
 * channel wakes.
 */
static size_t standin_chan_events(struct trace_event *ev)
{
	size_t n = 0;

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(1 * MS, 2, 0, 'R', 120, 0, 120);
	for (int k = 0; k < 4; k++) {
		uint64_t t = 2 * MS + (uint64_t)k * MS;

		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 0, 0, 0x08, 61, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 0, 0, 0x08, 61, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 1, 0, 0x08, 62, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 1, 0, 0x08, 62, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, 2, 0, 0x08, 60, 120, 2);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 2, 0, 0x08, 60, 120, 2);
		ev[n++] = ev_switch(t + 2 * US, 2, 0, 'R', 120, 60, 120);
		ev[n++] = ev_switch(t + 102 * US, 2, 60, 'S', 120, 0, 120);
		ev[n++] = ev_switch(t + 500 * US, 1, 0, 'R', 120, 62, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 510 * US, 1, 62, 0, 60, 120, 2);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 510 * US, 1, 62, 0, 60, 120, 2);
		ev[n++] = ev_switch(t + 512 * US, 2, 0, 'R', 120, 60, 120);
		ev[n++] = ev_switch(t + 522 * US, 2, 60, 'S', 120, 0, 120);
		ev[n++] = ev_switch(t + 560 * US, 1, 62, 'S', 120, 0, 120);
		ev[n++] = ev_switch(t + 600 * US, 0, 0, 'R', 120, 61, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 750 * US, 0, 61, 0, 60, 120, 2);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 750 * US, 0, 61, 0, 60, 120, 2);
		ev[n++] = ev_switch(t + 752 * US, 2, 0, 'R', 120, 60, 120);
		ev[n++] = ev_switch(t + 755 * US, 0, 61, 'S', 120, 0, 120);
		ev[n++] = ev_switch(t + 762 * US, 2, 60, 'S', 120, 0, 120);
	}
	ev[n++] = ev_runtime(7 * MS, 0, 0, 1);
	return n;
}

/*
 * A stand-in pending (--early-wakes sleep) spends its block's wake: another
 * channel wake does not end that sleep.  On standin_chan_events() without
 * costs the writers run at the interrupt: 62's wake comes at +10 us while
 * 60 still works (early, not sync), so at block X (+100 us) 60 sleeps on
 * its stand-in, due 408 us later (the block's traced sleep).  61's wake
 * comes at +150 us: it must not end X's sleep in exchange for Y's
 * (chan_wakes_sleeper() refuses while sim_task.standin is set); it is early
 * too, and Y is not slept (61's wake is sync).  So 8 early wakes, 4
 * stand-ins delivered, none dropped, no sleep paired again; per round 60
 * is switched in twice and each writer once (32 switches), the three
 * interrupt wakeups and the stand-in (16 wakeups); the run ends at the
 * trace end.  Were the exchange made, 61's wake would end X's sleep at
 * once and the stand-in would be dropped.
 */
static void test_standin_chan(void)
{
	struct trace_event ev[256];
	struct wl_workload *wl = build(ev, standin_chan_events(ev));
	struct replay_config rc;
	struct sr_error err = { 0 };
	struct replay_result *r;
	unsigned int nsync = 0, nasync = 0;

	CHECK(wl != NULL);
	if (!wl)
		return;
	for (uint32_t i = 0; i < wl_nr_wakes(wl); i++) {
		const struct wl_wake *w = wl_wake(wl, i);

		if (w->waker == WL_NONE)
			continue;
		CHECK(w->flags & WL_WAKE_CHANNEL);
		nsync += wl_task(wl, w->waker)->pid == 61 && (w->flags & WL_WAKE_SYNC);
		nasync += wl_task(wl, w->waker)->pid == 62 && !(w->flags & WL_WAKE_SYNC);
	}
	CHECK_EQ(nsync, 4);
	CHECK_EQ(nasync, 4);
	replay_config_default(&rc);
	rc.no_costs = true;
	rc.channel_wakes = true;
	rc.early_wakes = REPLAY_EARLY_SLEEP;
	r = replay_run(wl, &rc, &err);
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ(note_count(r, "wakes that reached their target before"), 8);
		CHECK_EQ(note_count(r, "of those stand-in wakeups, delivered after"), 4);
		CHECK_EQ(note_count(r, "of those, dropped: the task was woken"), 0);
		CHECK_EQ(note_count(r, "blocks not slept because"), 4);
		CHECK_EQ(note_count(r, "sleeps of a reader with several writers"), 0);
		CHECK_EQ(count(r, "sched_switch"), 32);
		CHECK_EQ(count(r, "sched_wakeup"), 16);
		CHECK_EQ(replay_end_ts(r), 7 * MS);
		CHECK(!replay_work_unfinished(r));
		replay_result_free(r);
	} else {
		fprintf(stderr, "replay: %s\n", err.msg);
	}
	wl_free(wl);
}

/*
 * A trace without sched_waking (kernels before 4.3): its wakeup intervals
 * start at sched_wakeup, on both sides (docs/replay.md, "Synthetic events":
 * predicted and measured latency share one definition).  Each of 4 rounds an interrupt wakes fair task 100 on idle
 * CPU 0 (5 us to its switch-in, 50 us of work) and RT task 200 (prio 96) on
 * idle CPU 1 (3 us, 100 us of work).  The simulation emits a sched_waking
 * before every fair wakeup but an RT wake as the trace has it (only
 * sched_wakeup, at its trace time): a predicted machine that settled on
 * sched_waking at the first fair one started no interval for 200, whose 4
 * samples were missing (arm-trappy: 107 of 413, FastMixer's 81 among them).
 * 200's switch-ins are at their trace times: its samples are the trace's.
 * Its wakeups end its sleeps in the extraction too (nonfair_woken()).
 */
static void test_no_waking_rt_samples(void)
{
	struct trace_event ev[64];
	size_t n = 0;
	struct wl_workload *wl;

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 0, 120);
	for (int k = 0; k < 4; k++) {
		uint64_t t = 2 * MS + (uint64_t)k * MS;

		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 0, 0, 0x08, 100, 120, 0);
		ev[n++] = ev_switch(t + 5 * US, 0, 0, 'R', 120, 100, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 10 * US, 1, 0, 0x08, 200, 96, 1);
		ev[n++] = ev_switch(t + 13 * US, 1, 0, 'R', 120, 200, 96);
		ev[n++] = ev_switch(t + 55 * US, 0, 100, 'S', 120, 0, 120);
		ev[n++] = ev_switch(t + 113 * US, 1, 200, 'S', 96, 0, 120);
	}
	ev[n++] = ev_runtime(7 * MS, 0, 0, 1);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	CHECK_EQ(lat_get_summary(wl_measured_latency(wl))->start_event, TRACE_EV_SCHED_WAKEUP);
	CHECK_EQ(lat_get_all(wl_measured_latency(wl), LAT_WAKEUP)->count, 8);
	/*
	 * 200's wakeups end its sleeps: its switch-ins are not ones "with no
	 * wakeup recorded", each with a stand-in wake record (4 of them, never
	 * delivered: before 1 Dec 2026); the wake records are 100's 4.
	 */
	{
		unsigned int it = 0;
		const char *text;
		uint64_t v, missing = 0, of_rt = 0;

		while (wl_note_at(wl, &it, &text, &v)) {
			if (strstr(text, "with no wakeup recorded"))
				missing = v;
			if (strstr(text, "wakeups of RT/DL tasks"))
				of_rt = v;
		}
		CHECK_EQ(missing, 0);
		CHECK_EQ(of_rt, 4);
		CHECK_EQ(wl_nr_wakes(wl), 4);
	}
	for (int placement = 0; placement < 2; placement++) {
		struct pid_samples ps = { .pid = 200 };
		struct replay_config rc;
		struct sr_error err = { 0 };
		struct replay_result *r;

		replay_config_default(&rc);
		rc.placement = placement ? REPLAY_PLACEMENT_MODEL : REPLAY_PLACEMENT_TRACE;
		rc.sample_sink = pid_sample;
		rc.sample_ctx = &ps;
		r = replay_run(wl, &rc, &err);
		CHECK(r != NULL);
		if (!r) {
			fprintf(stderr, "replay: %s\n", err.msg);
			continue;
		}
		CHECK_EQ(lat_get_summary(replay_latency(r))->start_event, TRACE_EV_SCHED_WAKEUP);
		CHECK_EQ(note_count(r, "wakes delivered early whose block the task never"), 0);
		CHECK_EQ(lat_get_all(replay_latency(r), LAT_WAKEUP)->count, 8);
		CHECK_EQ(ps.n, 4);
		for (unsigned int i = 0; i < ps.n && i < 4; i++)
			CHECK_EQ(ps.ns[i], 3 * US);
		replay_result_free(r);
	}
	wl_free(wl);
}

/*
 * Pid reuse across classes: RT task 300 (prio 96) is woken once and exits;
 * a fair task takes pid 300 and is woken twice.  The RT/DL samples of the
 * "all" row are the first task's one, not all three (before 1 Dec 2026 the
 * pid's first workload task classed every latency task of that pid).
 */
static void test_rt_samples_pid_reuse(void)
{
	struct trace_event ev[16];
	size_t n = 0;
	struct wl_workload *wl;

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 0, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS, 0, 0, 0x08, 300, 96, 0);
	ev[n++] = ev_switch(2 * MS + 5 * US, 0, 0, 'R', 120, 300, 96);
	ev[n++] = ev_switch(2 * MS + 50 * US, 0, 300, 'X', 96, 0, 120);
	for (int k = 0; k < 2; k++) {
		uint64_t t = 3 * MS + (uint64_t)k * MS;

		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 0, 0, 0x08, 300, 120, 0);
		ev[n++] = ev_switch(t + 5 * US, 0, 0, 'R', 120, 300, 120);
		ev[n++] = ev_switch(t + 60 * US, 0, 300, 'S', 120, 0, 120);
	}
	ev[n++] = ev_runtime(6 * MS, 0, 0, 1);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	CHECK_EQ(lat_get_all(wl_measured_latency(wl), LAT_WAKEUP)->count, 3);
	CHECK_EQ(replay_nonfair_samples(wl), 1);
	CHECK(wl_task_of_pid(wl, 300, 2 * MS) && wl_task_of_pid(wl, 300, 2 * MS)->cls != WL_CLASS_FAIR);
	CHECK(wl_task_of_pid(wl, 300, 3 * MS) && wl_task_of_pid(wl, 300, 3 * MS)->cls == WL_CLASS_FAIR);
	CHECK(wl_task_of_pid(wl, 300, 0) == wl_task_of_pid(wl, 300, 2 * MS));
	CHECK(wl_task_of_pid(wl, 301, 3 * MS) == NULL);
	wl_free(wl);
}

/* One wakeup of @pid (prio @prio) on CPU 0 at @t under comm @comm: its wake, switch-in, sleep. */
static size_t comm_cycle(struct trace_event *ev, uint64_t t, int pid, int prio, const char *comm)
{
	ev[0] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, 0, 0, 0x08, pid, prio, 0);
	snprintf(ev[0].u.wakeup.comm, TRACE_COMM_LEN, "%s", comm);
	ev[1] = ev_switch(t + 5 * US, 0, 0, 'R', 120, pid, prio);
	snprintf(ev[1].u.sched_switch.next_comm, TRACE_COMM_LEN, "%s", comm);
	ev[2] = ev_switch(t + 40 * US, 0, pid, 'S', prio, 0, 120);
	snprintf(ev[2].u.sched_switch.prev_comm, TRACE_COMM_LEN, "%s", comm);
	return 3;
}

/*
 * The RT/DL comm mark follows the samples' grouping: a sample is in the
 * group of the task's comm at the sample time, so a task renamed A -> B -> C
 * is under B as well.  Fair task 100 is woken once as each of A, B, C; RT
 * task 200 once as B; RT task 300 once as each of D, E, F.  B has a fair
 * sample: not marked; E has only RT ones: marked.  (Until 1 Dec 2026 a task
 * was under its first or last comm only: B was marked, E was not.)
 */

/* replay_nonfair_comms()' mark of @comm, the set built anew (each comm once) */
static bool comm_marked(const struct wl_workload *wl, const char *comm)
{
	struct replay_nonfair_comms m;
	bool r;

	if (replay_nonfair_comms(wl, &m) < 0)
		return false;
	for (size_t i = 1; i < m.n; i++)
		CHECK(strcmp(m.comm[i - 1], m.comm[i]) < 0);
	r = replay_nonfair_comm(&m, comm);
	replay_nonfair_comms_free(&m);
	return r;
}
static void test_rt_comm_renamed(void)
{
	static const char *const fair[] = { "A", "B", "C" }, *const rt[] = { "D", "E", "F" };
	struct trace_event ev[32];
	size_t n = 0;
	uint64_t t = 2 * MS;
	struct wl_workload *wl;
	const struct lat_machine *ml;
	const struct lat_group *b;

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 0, 120);
	for (int k = 0; k < 3; k++, t += MS) {
		n += comm_cycle(&ev[n], t, 100, 120, fair[k]);
		n += comm_cycle(&ev[n], t + 200 * US, 300, 96, rt[k]);
	}
	n += comm_cycle(&ev[n], t, 200, 96, "B");
	ev[n++] = ev_runtime(t + MS, 0, 0, 1);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	ml = wl_measured_latency(wl);
	b = lat_group_find(ml, LAT_BY_COMM, "B");
	CHECK(b != NULL);
	CHECK_EQ(b ? b->lat[LAT_WAKEUP].count : 0, 2);
	CHECK_EQ(replay_nonfair_samples(wl), 4);
	CHECK(!comm_marked(wl, "A"));
	CHECK(!comm_marked(wl, "B"));
	CHECK(!comm_marked(wl, "C"));
	CHECK(comm_marked(wl, "D"));
	CHECK(comm_marked(wl, "E"));
	CHECK(comm_marked(wl, "F"));
	CHECK(!comm_marked(wl, "G"));
	wl_free(wl);
	/*
	 * --comm: the RT/DL count is of the samples the filter passed, each by
	 * its own comm (until 1 Dec 2026 the filter was asked of the task's last
	 * comm, F: 300's sample under E or D was not counted).
	 */
	for (int k = 0; k < 2; k++) {
		struct wl_options o = { .comm_prefix = rt[k] };
		struct sr_error err = { 0 };
		struct wl_builder *bld = wl_builder_new(NULL, NULL, &o, &err);

		CHECK(bld != NULL);
		if (!bld)
			return;
		for (size_t i = 0; i < n; i++)
			CHECK(!wl_builder_event(bld, &ev[i], 0, &err));
		wl = wl_builder_finish(bld, &err);
		CHECK(wl != NULL);
		if (!wl)
			return;
		CHECK_EQ(lat_get_all(wl_measured_latency(wl), LAT_WAKEUP)->count, 1);
		CHECK_EQ(replay_nonfair_samples(wl), 1);
		CHECK(comm_marked(wl, rt[k]));
		wl_free(wl);
	}
}

/*
 * A trace of unknown release with an upper bound (the kernel line's
 * "before"): the profile's reason names that bound, 4.3 for a trace.dat whose
 * formats have sched_wakeup but no sched_waking, 4.14 for ftrace text in the
 * old prev_state layout (until 1 Dec 2026 both said "older than 4.14").
 */
static void test_profile_why_release_bound(void)
{
	static const struct {
		struct trace_info info;
		const char *bound, *why;
	} c[] = {
		{ { .format = "trace.dat", .has_sched_wakeup_format = true }, "4.3",
		  "kernel release unknown, older than 4.3 by the trace (kernel line): CFS, profile 6.1 " },
		{ { .format = "text", .prev_state_before = "4.14" }, "4.14",
		  "kernel release unknown, older than 4.14 by the trace (kernel line): CFS, profile 6.1 " },
	};
	struct trace_event ev[2];

	ev[0] = ev_switch(1 * MS, 0, 0, 'R', 120, 10, 120);
	ev[1] = ev_switch(2 * MS, 0, 10, 'S', 120, 0, 120);
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct sr_error err = { 0 };
		struct wl_builder *b = wl_builder_new(&c[k].info, NULL, NULL, &err);
		struct wl_workload *wl;
		struct replay_config rc;
		const char *why = NULL;

		CHECK(b != NULL);
		if (!b)
			return;
		for (size_t i = 0; i < 2; i++)
			CHECK(!wl_builder_event(b, &ev[i], 0, &err));
		wl = wl_builder_finish(b, &err);
		CHECK(wl != NULL);
		if (!wl)
			return;
		CHECK(wl_facts(wl)->release == NULL);
		CHECK(wl_facts(wl)->release_before && !strcmp(wl_facts(wl)->release_before, c[k].bound));
		replay_config_default(&rc);
		CHECK(replay_profile_for(wl, &rc, &why) == model_profile_find("6.1"));
		CHECK(why && !strncmp(why, c[k].why, strlen(c[k].why)));
		if (why && strncmp(why, c[k].why, strlen(c[k].why)))
			fprintf(stderr, "  why: %s\n", why);
		/*
		 * --profile: the profile the trace maps to is plain "chosen",
		 * another one says what auto would take (a 6.18 replay of
		 * this trace is not a 6.18 capture's)
		 */
		rc.profile = model_profile_find("6.1");
		CHECK(replay_profile_for(wl, &rc, &why) == rc.profile);
		CHECK(why && !strcmp(why, "chosen with --profile"));
		rc.profile = model_profile_find("6.18");
		CHECK(replay_profile_for(wl, &rc, &why) == rc.profile);
		CHECK(why && !strncmp(why, "chosen with --profile; auto would take 6.1 for the trace's "
				      "kernel", 65));
		wl_free(wl);
	}
}

/*
 * A fork the trace does not record (wl_task.fork_assumed): 13, first seen
 * at its switch-in on CPU 0 after the CPU went idle, in a trace with
 * sched_wakeup and sched_migrate_task but no fork.  Its assumed wake is
 * written as sched_wakeup_new, counted apart ("sched_wakeup_new_assumed"),
 * with no sched_waking and no latency sample: the compared counts are 10's
 * wake only, as the trace's.  It is replayed through the fork path, as a
 * traced fork (do_fork() -> model_wake_up_new_task()): born there, with a
 * new task's initial load (post_init_entity_util_avg(): the model's
 * new_task_first_load counter, 1024 for nice 0), its sched_process_fork
 * written (not counted) with the parent credited: 10, which switched out
 * for it (@from_idle false), or none (pid 0) when 13 is switched in from
 * idle (10 slept at 4 ms).  With forks recorded (@forks) it is an
 * ordinary assumed wake of a task asleep since the start: counted and
 * sampled, no fork.
 */
static void test_fork_assumed_replay(bool forks, bool from_idle)
{
	struct trace_info info = { .records_migrations = true, .records_forks = forks };
	struct trace_event ev[8];
	struct pid_samples ps = { .pid = 13 };
	struct replay_config rc;
	struct wl_workload *wl;
	struct run x;
	uint64_t v = 0;
	size_t n = 0;

	ev[n++] = ev_runtime(1 * MS, 0, 10, 1 * MS);
	ev[n++] = ev_switch(2 * MS, 0, 10, 'S', 120, 0, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS, 0, 0, 0x08, 10, 120, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS, 0, 0, 0x08, 10, 120, 0);
	ev[n++] = ev_switch(3 * MS + 10000, 0, 0, 'R', 120, 10, 120);
	if (from_idle) {
		ev[n++] = ev_switch(4 * MS, 0, 10, 'S', 120, 0, 120);
		ev[n++] = ev_switch(5 * MS, 0, 0, 'R', 120, 13, 120);
	} else {
		ev[n++] = ev_switch(5 * MS, 0, 10, 'S', 120, 13, 120);
	}
	ev[n++] = ev_switch(6 * MS, 0, 13, 'S', 120, 0, 120);
	wl = build_info(ev, n, &info, NULL);
	if (!wl)
		return;
	replay_config_default(&rc);
	rc.sample_sink = pid_sample;
	rc.sample_ctx = &ps;
	if (run_begin(&x, wl, &rc)) {
		struct replay_result *r = x.r;

		CHECK_EQ(count(r, "sched_wakeup"), forks ? 2 : 1);
		CHECK_EQ(count(r, "sched_waking"), forks ? 2 : 1);
		CHECK_EQ(count(r, "sched_wakeup_new"), 0);
		/* its sched_process_fork is not counted (no row: none traced) */
		v = 0;
		replay_count_get(r, "sched_process_fork", &v);
		CHECK_EQ(v, 0);
		CHECK_EQ(replay_count_get(r, "sched_wakeup_new_assumed", &v), !forks);
		CHECK_EQ(v, forks ? 0 : 1);
		CHECK_EQ(ps.n, forks ? 1 : 0);
		/* the fork path: a new task's initial load, one fork written */
		CHECK_EQ(count(r, "new_task_first_load.count"), forks ? 0 : 1);
		CHECK_EQ(count(r, "new_task_first_load.sum"), forks ? 0 : 1024);
		CHECK_EQ(lines_with(x.dump, "[000] ", from_idle ? "sched_process_fork: pid=0 " :
				    "sched_process_fork: pid=10 ", "child=task13:13", NULL),
			 forks ? 0 : 1);
		CHECK_EQ(lines_with(x.dump, "[000] ", "sched_wakeup_new: task13:13 [120] CPU:00",
				    NULL), forks ? 0 : 1);
		CHECK_EQ(lines_with(x.dump, "sched_waking: task13:13", NULL), forks ? 1 : 0);
	}
	run_end(&x);
	wl_free(wl);
}

/* The workload's task of @pid (first one), or NULL */
static const struct wl_task *task_of_pid(const struct wl_workload *wl, int32_t pid)
{
	for (uint32_t i = 0; i < wl_nr_tasks(wl); i++)
		if (wl_task(wl, i)->pid == pid)
			return wl_task(wl, i);
	return NULL;
}

/*
 * A trace without sched_waking whose task 100 is first seen in the
 * migration of its wakeup (try_to_wake_up() -> set_task_cpu() traces
 * sched_migrate_task before sched_wakeup): task 300, running on CPU 1 since
 * the start, moves 100 from CPU 1 to idle CPU 0 and wakes it there; 100
 * runs 40 us and sleeps.  100 slept before the trace (wakeup_migrated()):
 * one measured sample and one predicted, where 100 started runnable and the
 * wakeup was a spurious one before (arm-trappy's adbd).  Task 101, first
 * seen in a migration onto CPU 0 that its switch-in there follows (a
 * balancer's pull), stays runnable at the start.
 */
static void test_wakeup_migrated(void)
{
	struct trace_event ev[32];
	size_t n = 0;
	struct wl_workload *wl;
	const struct wl_task *t;
	struct replay_config rc;
	struct sr_error err = { 0 };
	struct replay_result *r;

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 300, 120);
	ev[n] = ev_migrate(2 * MS, 1, 100, 1, 0);
	ev[n++].common_pid = 300;
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 20 * US, 1, 300, 0, 100, 120, 0);
	ev[n++] = ev_switch(2 * MS + 25 * US, 0, 0, 'R', 120, 100, 120);
	ev[n++] = ev_switch(2 * MS + 65 * US, 0, 100, 'S', 120, 0, 120);
	ev[n++] = ev_migrate(3 * MS, 0, 101, 1, 0);
	ev[n++] = ev_switch(3 * MS + 5 * US, 0, 0, 'R', 120, 101, 120);
	ev[n++] = ev_switch(3 * MS + 50 * US, 0, 101, 'S', 120, 0, 120);
	ev[n++] = ev_switch(4 * MS, 1, 300, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	CHECK_EQ(lat_get_all(wl_measured_latency(wl), LAT_WAKEUP)->count, 1);
	t = task_of_pid(wl, 100);
	CHECK(t != NULL);
	if (t) {
		CHECK_EQ(t->init_state, WL_INIT_SLEEPING);
		CHECK(t->init_wake != WL_NONE);
		if (t->init_wake != WL_NONE)
			CHECK_EQ(wl_wake(wl, t->init_wake)->latency, 5 * US);
	}
	t = task_of_pid(wl, 101);
	CHECK(t != NULL);
	if (t)
		CHECK_EQ(t->init_state, WL_INIT_RUNNABLE);
	replay_config_default(&rc);
	r = replay_run(wl, &rc, &err);
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ(lat_get_all(replay_latency(r), LAT_WAKEUP)->count, 1);
		CHECK_EQ(count(r, "sched_wakeup"), 1);
		replay_result_free(r);
	} else {
		fprintf(stderr, "replay: %s\n", err.msg);
	}
	wl_free(wl);
}

/*
 * Lost events (docs/replay.md, "Lost events"): CPU 0's records before
 * 1.1 ms are lost while CPU 1 is traced from 1 ms, as small-lost's.  CPU 1's
 * tasks are switched in three times with no wakeup (their waker ran on CPU 0:
 * its sched_waking, sched_wakeup and the enqueue's sched_stat_runtime went
 * into CPU 0's lost records).  The simulation wakes them at their switch-ins
 * and CPU 0 runs 63 from the trace start: those events are counted apart
 * (replay_count_unseen()), and the compared counts are the trace's.
 */
static void test_lost_windows(void)
{
	struct trace_event ev[32];
	uint64_t lost[32] = { 0 };
	size_t n = 0;
	struct sr_error err = { 0 };
	struct wl_builder *b;
	struct wl_workload *wl;
	struct replay_result *r;
	struct replay_config rc;
	uint32_t in_lost = 0;

	ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 61, 120);
	ev[n++] = ev_runtime(1 * MS + 10 * US, 1, 61, 10 * US);
	ev[n++] = ev_switch(1 * MS + 10 * US, 1, 61, 'S', 120, 62, 120);
	ev[n++] = ev_switch(1 * MS + 20 * US, 1, 62, 'S', 120, 61, 120);  /* no wakeups */
	ev[n++] = ev_switch(1 * MS + 30 * US, 1, 61, 'S', 120, 62, 120);
	ev[n++] = ev_switch(1 * MS + 40 * US, 1, 62, 'S', 120, 61, 120);
	ev[n++] = ev_switch(1 * MS + 50 * US, 1, 61, 'S', 120, 0, 120);
	lost[n] = 50;
	ev[n++] = ev_switch(1 * MS + 100 * US, 0, 63, 'S', 120, 0, 120);  /* CPU 0's first */
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 1 * MS + 200 * US, 1, 0, 0, 61, 120, 1);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 1 * MS + 201 * US, 1, 0, 0, 61, 120, 1);
	ev[n++] = ev_switch(1 * MS + 210 * US, 1, 0, 'R', 120, 61, 120);
	ev[n++] = ev_runtime(1 * MS + 250 * US, 1, 61, 40 * US);
	ev[n++] = ev_switch(1 * MS + 250 * US, 1, 61, 'S', 120, 0, 120);
	b = wl_builder_new(NULL, NULL, NULL, &err);
	CHECK(b != NULL);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ(wl_builder_event(b, &ev[i], lost[i], &err), 0);
	wl = wl_builder_finish(b, &err);
	CHECK(wl != NULL);
	CHECK_EQ(wl_nr_lost_windows(wl), 1);
	for (uint32_t i = 0; i < wl_nr_wakes(wl); i++)
		in_lost += wl_wake(wl, i)->in_lost;
	CHECK_EQ(in_lost, 3);
	CHECK_EQ(replay_measured_count(wl, "sched_wakeup"), 1);
	replay_config_default(&rc);
	r = replay_run(wl, &rc, &err);
	CHECK(r != NULL);
	/* the trace's 9 switches; CPU 0's switch-in of 63 at the trace start is in its window */
	CHECK_EQ(count(r, "sched_switch"), 9);
	CHECK_EQ(replay_count_unseen(r, "sched_switch"), 1);
	/* the traced wakeup compared, the three assumed ones apart */
	CHECK_EQ(count(r, "sched_wakeup"), 1);
	CHECK_EQ(replay_count_unseen(r, "sched_wakeup"), 3);
	CHECK_EQ(replay_count_unseen(r, "sched_waking"), 3);
	/*
	 * each assumed wakeup's enqueue charged CPU 1's current (update_curr());
	 * 62's block at the switch-in of 61, whose wake is assumed there, charges
	 * it 1 ns more (block_clock after, the default: the clock under the rq
	 * lock, after the enqueue's)
	 */
	CHECK_EQ(replay_count_unseen(r, "sched_stat_runtime"), 3);
	CHECK_EQ(count(r, "sched_stat_runtime"), 5);
	CHECK(replay_lost_windows(r));
	replay_result_free(r);
	wl_free(wl);
}

/*
 * A traced load-balance pass (docs/replay.md, "Balance passes"): task 90
 * runs on CPU 0 with 91 and 92 queued behind it; at 1.05 ms idle CPU 1
 * pulls 91, then 92 (detach_tasks(): two sched_migrate_task written on
 * CPU 1), and runs them.
 * Both waited, so both left CPU 0 with a positive lag.  The kernel attaches
 * them last-detached first (attach_tasks()): 92 onto the empty queue, then
 * 91 with its lag inflated by 92's weight (place_entity()), which puts 91
 * before 92 in eligibility and deadline: CPU 1 runs 91's work first.
 * Attached in trace order (the default), 92 is the one placed second and
 * preempts 91 (placement at 0 cost: no samples), whose work then ends last.
 * The extraction links the two migrations as one pass (WL_T_PASS_*).
 */
static void test_balance_attach(void)
{
	struct trace_event ev[64];
	size_t n = 0;
	uint64_t p = 1050 * US;
	struct wl_workload *wl;
	uint32_t first = WL_NONE, last = WL_NONE;

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 90, 120);
	ev[n++] = ev_switch(1 * MS, 1, 93, 'S', 120, 0, 120);
	ev[n++] = ev_migrate(p, 1, 91, 0, 1);
	ev[n++] = ev_migrate(p + 1 * US, 1, 92, 0, 1);
	ev[n++] = ev_switch(p + 3 * US, 1, 0, 'R', 120, 91, 120);
	ev[n++] = ev_switch(p + 500 * US, 1, 91, 'S', 120, 92, 120);
	ev[n++] = ev_switch(p + 1000 * US, 1, 92, 'S', 120, 0, 120);
	ev[n++] = ev_runtime(2 * MS, 0, 90, 1 * MS);
	ev[n++] = ev_runtime(3 * MS, 0, 90, 1 * MS);
	ev[n++] = ev_switch(3 * MS, 0, 90, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	for (uint32_t i = 0; i < wl_nr_timed(wl); i++) {
		const struct wl_timed *e = wl_timed_at(wl, i);

		if (e->kind != WL_T_MIGRATE)
			continue;
		if (first == WL_NONE)
			first = i;
		else
			last = i;
	}
	CHECK(first != WL_NONE && last != WL_NONE);
	if (first == WL_NONE || last == WL_NONE) {
		wl_free(wl);
		return;
	}
	CHECK_EQ(wl_timed_at(wl, first)->arg, 1);
	CHECK_EQ(wl_timed_at(wl, last)->arg, 1 | WL_T_PASS_LAST);
	for (int kernel = 0; kernel <= 1; kernel++) {
		struct replay_config rc;
		struct run x;
		uint64_t out91, out92;

		replay_config_default(&rc);
		rc.balance_attach = kernel ? REPLAY_BALANCE_ATTACH_KERNEL : REPLAY_BALANCE_ATTACH_TRACE;
		if (run_begin(&x, wl, &rc)) {
			CHECK(dump_find(x.dump, 1, 0, "orig_cpu=0 dest_cpu=1") != UINT64_MAX);
			out91 = dump_find(x.dump, 1, p, "task91:91 [120] S ==>");
			out92 = dump_find(x.dump, 1, p, "task92:92 [120] S ==>");
			CHECK(out91 != UINT64_MAX && out92 != UINT64_MAX);
			/* kernel order: the first detached does its work first; trace order: the last */
			CHECK(kernel ? out91 < out92 : out92 < out91);
			CHECK_EQ(note_count(x.r, "traced load-balance passes replayed"), (uint64_t)kernel);
		}
		run_end(&x);
	}
	wl_free(wl);
}

/*
 * replay --dump-wake-records (replay_config.dump_ops): a replayed wake's
 * `replay_op: wake` line names the trace's wake record - the wakee's pid,
 * the trace time of its sched_waking (not the wakeup's or the switch-in's),
 * the waker's pid - so that sender_state.py can match it to the capture.
 * Task 201 sleeps on CPU 1; task 200, running on CPU 0, wakes it at 2 ms
 * and 3 ms (sched_wakeup 4 us, the switch-in 10 us later); a wake from
 * idle CPU 1's interrupt (common_pid 0) at 4 ms has no waker.
 */
static void test_dump_wake_records(void)
{
	struct trace_event ev[64];
	size_t n = 0;
	struct wl_workload *wl;
	struct replay_config rc;
	struct run x;

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 200, 120);
	ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 201, 120);
	ev[n++] = ev_switch(1 * MS + 50 * US, 1, 201, 'S', 120, 0, 120);
	for (int k = 2; k <= 3; k++) {
		uint64_t w = (uint64_t)k * MS;

		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, w, 0, 200, 0, 201, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, w + 4 * US, 1, 0, 0, 201, 120, 1);
		ev[n++] = ev_switch(w + 10 * US, 1, 0, 'R', 120, 201, 120);
		ev[n++] = ev_switch(w + 60 * US, 1, 201, 'S', 120, 0, 120);
		ev[n++] = ev_runtime(w + 100 * US, 0, 200, 1 * MS);
	}
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 4 * MS, 1, 0, 0x08, 201, 120, 1);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 4 * MS + 2 * US, 1, 0, 0x08, 201, 120, 1);
	ev[n++] = ev_switch(4 * MS + 10 * US, 1, 0, 'R', 120, 201, 120);
	ev[n++] = ev_switch(4 * MS + 60 * US, 1, 201, 'S', 120, 0, 120);
	ev[n++] = ev_runtime(5 * MS, 0, 200, 1 * MS);
	ev[n++] = ev_switch(5 * MS, 0, 200, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	replay_config_default(&rc);
	rc.dump_ops = true;
	if (run_begin(&x, wl, &rc)) {
		CHECK(strstr(x.dump, "replay_op: wake pid=201 trace=2000000 waker=200\n") != NULL);
		CHECK(strstr(x.dump, "replay_op: wake pid=201 trace=3000000 waker=200\n") != NULL);
		CHECK(strstr(x.dump, "replay_op: wake pid=201 trace=4000000 waker=-1\n") != NULL);
		/* each line precedes its wake's sched_waking, on the waker's CPU */
		CHECK(dump_find(x.dump, 0, 2 * MS, "replay_op: wake pid=201 trace=2000000") <
		      dump_find(x.dump, 0, 2 * MS, "sched_waking: comm=task201"));
	}
	run_end(&x);
	/* without dump_ops: no replay_op line */
	replay_config_default(&rc);
	if (run_begin(&x, wl, &rc))
		CHECK(!strstr(x.dump, "replay_op:"));
	run_end(&x);
	wl_free(wl);
}

/*
 * The ping-pong of --wake-clock and --wake-path (docs/replay.md, "Mechanical
 * costs"): task 80 on CPU 0 wakes task 81 there 30 times and is preempted
 * by it, as perf bench sched pipe pinned to one CPU.  Each round the trace
 * shows the waker's sched_stat_runtime @lead ns after the sched_waking and
 * the sched_wakeup @gap ns after that: a charge late in the interval is
 * check_preempt_wakeup_fair()'s after requeue_delayed_entity() (a delayed
 * wakee), an early one enqueue_entity()'s (a wakee fully asleep).  The
 * first sched_waking in *@first_wake.
 */
static struct wl_workload *pingpong_paths(uint64_t lead, uint64_t gap, uint64_t *first_wake)
{
	struct trace_event ev[256];
	size_t n = 0;
	uint64_t t = 1 * MS;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 80, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 0, 120);
	ev[n++] = ev_fork(t + 10 * US, 0, 80, 81);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t + 11 * US, 0, 80, 0, 81, 120, 0);
	ev[n++] = ev_switch(t + 20 * US, 0, 80, 'R', 120, 81, 120);
	ev[n++] = ev_switch(t + 25 * US, 0, 81, 'S', 120, 80, 120);
	t += 25 * US;
	*first_wake = t + 6 * US;
	for (int i = 0; i < 30; i++) {
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 6 * US, 0, 80, 0, 81, 120, 0);
		ev[n++] = ev_runtime(t + 6 * US + lead, 0, 80, 6 * US);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 6 * US + lead + gap, 0, 80, 0, 81, 120, 0);
		ev[n++] = ev_switch(t + 7 * US, 0, 80, 'R', 120, 81, 120);
		ev[n++] = ev_runtime(t + 13 * US + 500, 0, 81, 7 * US);
		ev[n++] = ev_switch(t + 14 * US, 0, 81, 'S', 120, 80, 120);
		t += 14 * US;
	}
	ev[n++] = ev_switch(t + 50 * US, 0, 80, 'S', 120, 0, 120);
	return build(ev, n);
}

/*
 * --wake-clock traced (docs/replay.md, "Mechanical costs"): task 80 on CPU 0
 * wakes task 81 there 30 times and is preempted by it, as perf bench sched
 * pipe pinned to one CPU; the trace shows the waker's sched_stat_runtime
 * (the enqueue's update_curr()) 400 ns after each sched_waking.  The facts
 * keep that delay (the 400-450 ns bucket: 425 ns, 30 samples); with it the
 * model charges the waker up to 425 ns after the waking, 425 ns more than at
 * the waking (the default), and the wakee from there.
 */
static uint64_t first_charge(const char *dump, int cpu, uint64_t from, int pid)
{
	char needle[48];
	uint64_t at;
	const char *p;
	unsigned long long v = 0;

	snprintf(needle, sizeof(needle), "pid=%d runtime=", pid);
	at = dump_find(dump, cpu, from, needle);
	if (at == UINT64_MAX)
		return UINT64_MAX;
	/* the line dump_find() matched: the first with that time and needle */
	for (p = strstr(dump, needle); p; p = strstr(p + 1, needle)) {
		const char *bol = p;
		unsigned long long sec, nsec;

		while (bol > dump && bol[-1] != '\n')
			bol--;
		if (sscanf(bol + 5, " %llu.%llu", &sec, &nsec) == 2 &&
		    sec * 1000000000ull + nsec == at && sscanf(p + strlen(needle), "%llu", &v) == 1)
			return v;
	}
	return UINT64_MAX;
}

static void test_wake_clock(void)
{
	uint64_t first_wake;
	struct wl_workload *wl;
	uint64_t charge[2] = { 0, 0 };

	/* the charge 400 ns after each waking, the wakeup 300 ns after it */
	wl = pingpong_paths(400, 300, &first_wake);
	CHECK(wl != NULL);
	if (!wl)
		return;
	CHECK_EQ(wl_facts(wl)->wake_clock_ns, 425);
	CHECK_EQ(wl_facts(wl)->wake_clock_samples, 30);
	for (int traced = 0; traced <= 1; traced++) {
		struct replay_config rc;
		struct run x;

		replay_config_default(&rc);
		rc.no_costs = true;
		rc.wake_clock = named(replay_wake_clock_names, traced ? "traced" : "waking");
		if (run_begin(&x, wl, &rc))
			charge[traced] = first_charge(x.dump, 0, first_wake, 80);
		CHECK(charge[traced] != UINT64_MAX);
		run_end(&x);
	}
	CHECK_EQ(charge[1], charge[0] + 425);
	CHECK(replay_name_to_value(replay_wake_clock_names, "sometimes") < 0);
	wl_free(wl);
}

/*
 * --block-lead traced (docs/replay.md, "Mechanical costs"): the ping-pong of
 * test_wake_clock().  At round 10 the wakee's block shows its dequeue's
 * charge (sched_stat_runtime) 40 us before its sched_switch, an untraced
 * stall inside __schedule(), as on the pinned pipe captures: the kernel
 * charged the stall to the next task (its exec_start is the clock the
 * block's __schedule() read), so the waker's next charge is 46 us.  At
 * round 20 the stall comes between the block's clock read and its charge's
 * event: the charge (7 us) says the clock was read 30 us before its event
 * (clk_read()).  The BLOCK ops keep the leads (8 ns units); with the median
 * lead (the default) the model charges the stall to the blocking task, with
 * the block's own to the waker.
 */
static void test_block_lead(void)
{
	struct trace_event ev[256];
	size_t n = 0;
	uint64_t t = 1 * MS, stall_block = 0;
	struct wl_workload *wl;
	const struct wl_task *wk;
	uint64_t charge80[2] = { 0, 0 }, charge81[2] = { 0, 0 };
	uint32_t nblock = 0, nlead = 0, nread = 0;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 80, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 0, 120);
	ev[n++] = ev_fork(t + 10 * US, 0, 80, 81);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t + 11 * US, 0, 80, 0, 81, 120, 0);
	ev[n++] = ev_switch(t + 20 * US, 0, 80, 'R', 120, 81, 120);
	ev[n++] = ev_switch(t + 25 * US, 0, 81, 'S', 120, 80, 120);
	t += 25 * US;
	for (int i = 0, carry = 0; i < 30; i++) {
		uint64_t stall = i == 10 || i == 20 ? (i == 10 ? 40 : 30) * US : 0;
		uint64_t late = i == 20 ? stall : 0;    /* the charge's event, after the stall */

		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 6 * US, 0, 80, 0, 81, 120, 0);
		ev[n++] = ev_runtime(t + 6 * US + 400, 0, 80, 6 * US + (uint64_t)carry);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 6 * US + 700, 0, 80, 0, 81, 120, 0);
		ev[n++] = ev_switch(t + 7 * US, 0, 80, 'R', 120, 81, 120);
		ev[n++] = ev_runtime(t + 13 * US + 500 + late, 0, 81, 7 * US);
		ev[n++] = ev_switch(t + 14 * US + stall, 0, 81, 'S', 120, 80, 120);
		if (i == 10)
			stall_block = t + 14 * US + stall;
		carry = (int)stall;
		t += 14 * US + stall;
	}
	ev[n++] = ev_switch(t + 50 * US, 0, 80, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	wk = task_of_pid(wl, 81);
	CHECK(wk != NULL);
	for (uint32_t i = 0; wk && i < wl_nr_tasks(wl); i++) {
		const struct wl_op *ops = wl_task_ops(wl, i);

		if (wl_task(wl, i) != wk)
			continue;
		for (uint32_t k = 0; k < wk->nr_ops; k++) {
			if (ops[k].kind != WL_OP_BLOCK)
				continue;
			nblock++;
			if (wl_block_lead_ns(&ops[k]) == 40 * US + 496)
				nlead++;
			else if (wl_block_lead_ns(&ops[k]) == 30 * US + 600)
				nread++;     /* 80's charge at +6.4 us, 81's 7 us: read at +13.4 */
			else
				CHECK(wl_block_lead_ns(&ops[k]) == 496 ||
				      wl_block_lead_ns(&ops[k]) == UINT64_MAX);
		}
	}
	CHECK(nblock >= 30);
	CHECK_EQ(nlead, 1);
	CHECK_EQ(nread, 1);
	for (int traced = 0; traced <= 1; traced++) {
		struct replay_config rc;
		struct run x;

		/* with the trace's costs, as test_wake_path(): its hand-off replies */
		replay_config_default(&rc);
		rc.block_lead = named(replay_block_lead_names, traced ? "traced" : "median");
		if (run_begin(&x, wl, &rc)) {
			/* 81's charge at the stalled block, 80's at its next wakeup */
			charge81[traced] = first_charge(x.dump, 0, stall_block - 45 * US, 81);
			charge80[traced] = first_charge(x.dump, 0, stall_block - 30 * US, 80);
		}
		CHECK(charge80[traced] != UINT64_MAX && charge81[traced] != UINT64_MAX);
		run_end(&x);
	}
	/* the stall moves from the blocking task to the next: 40 us less the median lead */
	CHECK(charge81[0] > 45 * US && charge81[1] < 8 * US);
	CHECK(charge80[1] > 45 * US && charge80[0] < 8 * US);
	CHECK(replay_name_to_value(replay_block_lead_names, "sometimes") < 0);
	wl_free(wl);
}

static void test_wake_path(void)
{
	struct wl_workload *wl;
	uint32_t asleep = 0, delayed = 0;
	uint64_t first_wake, known[2] = { 0, 0 }, disagree[2] = { 0, 0 }, done[2] = { 0, 0 };
	unsigned int preempted[2] = { 0, 0 };

	/* charge 400 ns after the waking, wakeup 250 ns after the charge: delayed */
	wl = pingpong_paths(400, 250, &first_wake);
	CHECK(wl != NULL);
	if (wl) {
		wl_wake_traced_paths(wl, &asleep, &delayed);
		CHECK_EQ(asleep, 0);
		CHECK_EQ(delayed, 30);
		wl_free(wl);
	}
	/* charge 250 ns after, wakeup 600 ns after it: fully asleep */
	wl = pingpong_paths(250, 600, &first_wake);
	CHECK(wl != NULL);
	if (!wl)
		return;
	wl_wake_traced_paths(wl, &asleep, &delayed);
	CHECK_EQ(asleep, 30);
	CHECK_EQ(delayed, 0);
	for (int traced = 0; traced <= 1; traced++) {
		struct replay_config rc;
		struct run x;

		/*
		 * With the trace's costs: where the model misses a
		 * preemption, 80 sleeps at its hand-off WAIT and 81's reply
		 * comes switch_lead_ns (500 ns) before 81's block; without
		 * costs 80 would preempt 81 there at once, 81's block would
		 * be released, and the rounds would run the other way round
		 * (80 preempted by 81's wakes, no wakeup of a sleeper left).
		 * The local preemption cost (1 us) lets 81 block first, as
		 * the trace shows.
		 */
		replay_config_default(&rc);
		rc.wake_path = named(replay_wake_path_names, traced ? "traced" : "model");
		if (run_begin(&x, wl, &rc)) {
			known[traced] = note_count(x.r, "wakeups of a sleeper whose trace shows");
			disagree[traced] = note_count(x.r, "... of them fully asleep in the trace");
			done[traced] = note_count(x.r, "local wakeups the trace shows enqueueing");
		}
		for (const char *p = x.dump; p && (p = strstr(p, "task80:80 [120] R+ ==> task81:81")); p++)
			preempted[traced]++;
		run_end(&x);
	}
	/*
	 * The model keeps 81 delayed at most of its wakes (it blocks ineligible,
	 * ahead of 80): requeued in place, it misses 4 of the 30 preemptions the
	 * trace shows.  The agreement is the same under both (counted before
	 * the option acts); under traced each such wake completes the dequeue at
	 * lag 0 first, and 81 preempts at every wake, as in the trace.
	 */
	CHECK_EQ(known[0], 29);
	CHECK_EQ(known[1], 29);
	CHECK(disagree[0] >= 20);
	CHECK_EQ(disagree[1], 29);
	CHECK_EQ(done[0], 0);
	CHECK_EQ(done[1], 29);
	CHECK(preempted[0] < 30);
	CHECK_EQ(preempted[1], 30);
	CHECK(replay_name_to_value(replay_wake_path_names, "sometimes") < 0);
	wl_free(wl);
}

/*
 * --idle-clock (docs/replay.md, "Mechanical costs"): task 81 sleeps on CPU 1
 * and is woken 30 times onto it while it is idle, alternately by task 80
 * running on CPU 0 (a remote wakeup) and by an interrupt on CPU 1 itself;
 * each time it is switched in 20 us after the waking and runs 10 us.  With
 * the skip the model charges each run from the wakeup's enqueue (the idle
 * exit included), so 81's charges exceed update's; local withdraws the
 * remote wakeups' skips only, between the two.
 */
static uint64_t sum_charges(const char *dump, int pid)
{
	char needle[48];
	uint64_t sum = 0;
	unsigned long long v;

	snprintf(needle, sizeof(needle), "pid=%d runtime=", pid);
	for (const char *p = strstr(dump, needle); p; p = strstr(p + 1, needle))
		if (sscanf(p + strlen(needle), "%llu", &v) == 1)
			sum += v;
	return sum;
}

static void test_idle_clock(void)
{
	struct trace_event ev[256];
	size_t n = 0;
	uint64_t t = 1 * MS, sum[3] = { 0, 0, 0 };
	struct wl_workload *wl;
	static const char *const mode[3] = { "update", "skip", "local" };

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 80, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 81, 120);
	ev[n++] = ev_switch(t + 5 * US, 1, 81, 'S', 120, 0, 120);
	for (int i = 0; i < 30; i++) {
		int wcpu = i & 1 ? 1 : 0, wpid = i & 1 ? 0 : 80;

		t += 100 * US;
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, wcpu, wpid, 0, 81, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 15 * US, 1, 0, 0, 81, 120, 1);
		ev[n++] = ev_switch(t + 20 * US, 1, 0, 'R', 120, 81, 120);
		ev[n++] = ev_runtime(t + 30 * US, 1, 81, 25 * US);
		ev[n++] = ev_switch(t + 30 * US, 1, 81, 'S', 120, 0, 120);
	}
	ev[n++] = ev_switch(t + 200 * US, 0, 80, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	for (int k = 0; k < 3; k++) {
		struct replay_config rc;
		struct run x;

		replay_config_default(&rc);
		rc.idle_clock = named(replay_idle_clock_names, mode[k]);
		if (run_begin(&x, wl, &rc))
			sum[k] = sum_charges(x.dump, 81);
		run_end(&x);
	}
	/* 30 runs of 10 us, plus each one's idle exit under skip */
	CHECK(sum[0] >= 300 * US - 30 * 2 * US && sum[0] <= 300 * US + 30 * 2 * US);
	CHECK(sum[1] >= sum[0] + 30 * 5 * US);
	CHECK(sum[2] > sum[0] + 15 * 5 * US && sum[2] < sum[1] - 15 * 5 * US);
	CHECK(replay_name_to_value(replay_idle_clock_names, "sometimes") < 0);
	wl_free(wl);
}

/*
 * --migrate-resched both (docs/replay.md, "Mechanical costs"): task 90 runs
 * alone on CPU 1 from 1 ms and forks 91 and 92 there (queued: a fork never
 * preempts on 6.18); 90's request ends 1.4 ms into its run.  At 2.8 ms idle
 * CPU 0 pulls 92 (sched_migrate_task): the dequeue's update_curr() on CPU 1
 * finds 90's request over with 91 still queued, and reschedules CPU 1.  The
 * trace has 90 run on to its block at 3.5 ms.  dest (the default) arms only
 * CPU 0, so 90 also runs to 3.5 ms in the model; both arms CPU 1 too, where
 * 91 (the earlier deadline) preempts 90 right after the pull.
 */
static void test_migrate_resched(void)
{
	struct trace_event ev[32];
	size_t n = 0;
	uint64_t t = 1 * MS, pull = 2800 * US;
	struct wl_workload *wl;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 0, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 90, 120);
	ev[n++] = ev_fork(t + 10 * US, 1, 90, 91);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t + 11 * US, 1, 90, 0, 91, 120, 1);
	ev[n++] = ev_fork(t + 20 * US, 1, 90, 92);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t + 21 * US, 1, 90, 0, 92, 120, 1);
	ev[n++] = ev_migrate(pull, 0, 92, 1, 0);
	ev[n++] = ev_switch(pull + 5 * US, 0, 0, 'R', 120, 92, 120);
	ev[n++] = ev_switch(pull + 100 * US, 0, 92, 'S', 120, 0, 120);
	ev[n++] = ev_switch(3500 * US, 1, 90, 'S', 120, 91, 120);
	ev[n++] = ev_switch(3600 * US, 1, 91, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	for (int both = 0; both <= 1; both++) {
		struct replay_config rc;
		struct run x;
		uint64_t out = UINT64_MAX;

		replay_config_default(&rc);
		rc.no_costs = true;
		rc.migrate_resched = named(replay_migrate_resched_names, both ? "both" : "dest");
		if (run_begin(&x, wl, &rc))
			out = dump_find(x.dump, 1, pull, "sched_switch: task90:90");
		if (both)
			CHECK(out >= pull && out < pull + 50 * US);
		else
			CHECK(out >= 3400 * US && out != UINT64_MAX);
		run_end(&x);
	}
	CHECK(replay_name_to_value(replay_migrate_resched_names, "source") < 0);
	wl_free(wl);
}

/*
 * The time clock_task left out (wl_clock_left(), workload_steal.c).  Hog 40
 * runs on CPU 0 from 1 ms, charged by ticks every 4 ms: the tick at 9 ms
 * charges 100 us less than its interval (steal: counted), the one at 17 ms
 * 3 us less (under the 5 us slack: not), a task-context charge at 22 ms
 * 50 us less and the next tick 50 us more (a skipped clock made up: netted
 * to nothing).  A remote charge of 40 written on CPU 1 at 26.5 ms ends the
 * chain: the tick at 29 ms, 200 us short, pairs with nothing.  Then 40 is
 * switched out at 30 ms and CPU 0's next task 41 shows one tick pair 30 us
 * short (33 -> 37 ms), then a wakeup onto CPU 0 and 41's charge with
 * need_resched set 20 us short (a skipped clock, maybe: not counted) before
 * its switch.  CPU 1 runs nothing: no pairs.
 */
static void test_clock_left(void)
{
	struct trace_event ev[64];
	size_t n = 0;
	struct wl_workload *wl;
	const struct wl_clock_point *p;
	struct wl_clock_left l;
	uint32_t np = 0;

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 40, 120);
	ev[n++] = ev_switch(1 * MS, 1, 0, 'R', 120, 0, 120);
	ev[n++] = ev_runtime(1 * MS + 10 * US, 0, 40, 10 * US);
	ev[n++] = ev_runtime(5 * MS, 0, 40, 4 * MS - 10 * US);
	ev[n++] = ev_runtime(9 * MS, 0, 40, 4 * MS - 100 * US);     /* 100 us left out */
	ev[n++] = ev_runtime(13 * MS, 0, 40, 4 * MS);
	ev[n++] = ev_runtime(17 * MS, 0, 40, 4 * MS - 3 * US);      /* under the slack */
	ev[n++] = ev_runtime(21 * MS, 0, 40, 4 * MS);
	ev[n++] = ev_runtime(22 * MS, 0, 40, 1 * MS - 50 * US);     /* a skipped clock ... */
	ev[n++] = ev_runtime(25 * MS, 0, 40, 3 * MS + 50 * US);     /* ... made up */
	ev[n] = ev_runtime(26500 * US, 1, 0, 1500 * US);            /* remote, on CPU 1 */
	ev[n++].u.stat_runtime.pid = 40;
	ev[n++] = ev_runtime(29 * MS, 0, 40, 2500 * US - 200 * US); /* no pair: chain ended */
	ev[n++] = ev_switch(30 * MS, 0, 40, 'S', 120, 41, 120);
	ev[n++] = ev_runtime(33 * MS, 0, 41, 3 * MS);
	ev[n++] = ev_runtime(37 * MS, 0, 41, 4 * MS - 30 * US);     /* 30 us left out */
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 37500 * US, 1, 0, 0x08, 42, 120, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 37501 * US, 1, 0, 0x08, 42, 120, 0);
	ev[n] = ev_runtime(37600 * US, 0, 41, 600 * US - 20 * US);  /* the wakeup's clock? */
	ev[n++].common_flags = 0x04;
	ev[n++] = ev_switch(37700 * US, 0, 41, 'R', 120, 42, 120);
	ev[n++] = ev_switch(38 * MS, 0, 42, 'S', 120, 0, 120);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return;
	CHECK(wl_clock_left(wl, 0, &l));
	CHECK_EQ(l.left_ns, 130 * US);
	CHECK_EQ(l.gaps, 2);
	CHECK_EQ(l.max_gap_ns, 100 * US);
	CHECK_EQ(l.pairs, 9);            /* 7 of 40 up to the remote charge, 2 of 41 */
	CHECK_EQ(l.skipped, 1);
	CHECK_EQ(l.chain_ns, 24 * MS - 10 * US + 4 * MS + 600 * US);
	CHECK_EQ(l.span_ns, 37 * MS);
	p = wl_clock_left_points(wl, 0, &np);
	CHECK_EQ(np, 4);
	CHECK(np == 4 && p[0].ts == 5 * MS && p[0].left_ns == 0 && p[1].ts == 9 * MS &&
	      p[1].left_ns == 100 * US && p[2].ts == 33 * MS && p[2].left_ns == 100 * US &&
	      p[3].ts == 37 * MS && p[3].left_ns == 130 * US);
	CHECK_EQ(wl_clock_left_at(wl, 0, 4 * MS), 0);
	CHECK_EQ(wl_clock_left_at(wl, 0, 7 * MS), 50 * US);
	CHECK_EQ(wl_clock_left_at(wl, 0, 20 * MS), 100 * US);
	CHECK_EQ(wl_clock_left_at(wl, 0, 34 * MS), 100 * US + 7500);
	CHECK_EQ(wl_clock_left_at(wl, 0, 99 * MS), 130 * US);
	CHECK(wl_clock_left(wl, 1, &l));
	CHECK_EQ(l.left_ns, 0);
	CHECK_EQ(l.pairs, 0);
	CHECK(!wl_clock_left(wl, 2, &l));
	CHECK(!l.proc_stat);
	wl_free(wl);
	{
		/* a sidecar's /proc/stat reads: their deltas next to the trace's figure */
		struct sidecar_cpu_time ct[2] = {
			{ .have = true, .steal = { 400, 403 }, .softirq = { 10, 12 } },
			{ .have = false },
		};
		struct sidecar_cpu cpus[2] = {
			{ .cpu = 0, .listed = true, .online = true, .numa_node = -1 },
			{ .cpu = 1, .listed = true, .online = true, .numa_node = -1 },
		};
		struct sidecar sc = { .path = (char *)"test.json", .nr_cpus = 2, .cpus = cpus,
				      .cpu_time = ct, .cpu_time_user_hz = 100 };

		wl = build_sc(ev, n, &sc);
		CHECK(wl != NULL);
		if (!wl)
			return;
		CHECK(wl_clock_left(wl, 0, &l) && l.proc_stat);
		CHECK_EQ(l.proc_steal_ns, 30 * MS);
		CHECK_EQ(l.proc_irq_ns, 20 * MS);
		CHECK_EQ(l.left_ns, 130 * US);
		CHECK(wl_clock_left(wl, 1, &l) && !l.proc_stat);
		wl_free(wl);
	}
}

/*
 * The workload of @ev with a 2-CPU sidecar whose start read allows task 100
 * both CPUs; @recorded: its trace.events lists the sched_setaffinity() events.
 */
static struct wl_workload *build_aff(const struct trace_event *ev, size_t n, bool recorded)
{
	struct sidecar_cpu cpus[2] = {
		{ .cpu = 0, .listed = true, .online = true, .numa_node = -1 },
		{ .cpu = 1, .listed = true, .online = true, .numa_node = -1 },
	};
	struct sidecar_sched_task rd = { .pid = 100, .tgid = 100, .state = 'R', .cpu = 0,
					 .starttime = -1, .nr_allowed = 2, .allowed_cpu = 0 };
	struct sidecar sc = { .path = (char *)"test.json", .nr_cpus = 2, .cpus = cpus,
			      .affinity_recorded = recorded };

	sc.sched_start.listed = sc.sched_start.available = true;
	sc.sched_start.nr_tasks = 1;
	sc.sched_start.tasks = &rd;
	return build_sc(ev, n, &sc);
}

/*
 * Affinity from the capture (docs/replay.md, "Affinity"): parent 100 runs
 * on CPU 0, calls sched_setaffinity(0, {1}) (sys_enter / sys_exit ret 0),
 * sleeps, is woken onto CPU 1, forks 101 there and the two ping-pong on
 * CPU 1 for 20 rounds, as `taskset -c 1 perf bench sched pipe` whose
 * taskset ran on CPU 0 first (pipe-pinned).  The start read allows 100 both
 * CPUs; neither is alive at the end.  Under --placement model with the
 * affinity data the call pins 100 (its and its child's 41 wakeups after the
 * call, all on CPU 1) and 101 inherits it: both run on CPU 1, a switch per
 * hand-off as under trace placement (the third run; the stopper's move of 100
 * adds 3).  The control (the same sidecar without the events recorded:
 * today's inference) has 100 seen on two CPUs, free, and 101 born on the
 * idle CPU 0: each hand-off goes through idle on both CPUs (85 switches
 * against 52).
 */
static void test_affinity_capture(void)
{
	struct trace_event ev[256];
	size_t n = 0;
	uint64_t t = 1 * MS, sw[4] = { 0, 0, 0, 0 }, meas = 0;
	struct trace_event e;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 100, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 0, 120);
	e = ev_base(TRACE_EV_SYS_ENTER_SCHED_SETAFFINITY, t + 5 * US, 0, 100);
	e.u.syscall.fd = 0;
	e.u.syscall.count = 8;
	ev[n++] = e;
	e = ev_base(TRACE_EV_SYS_EXIT_SCHED_SETAFFINITY, t + 6 * US, 0, 100);
	ev[n++] = e;
	ev[n++] = ev_switch(t + 10 * US, 0, 100, 'S', 120, 0, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 50 * US, 1, 0, 0x08, 100, 120, 1);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 51 * US, 1, 0, 0x08, 100, 120, 1);
	ev[n++] = ev_switch(t + 60 * US, 1, 0, 'R', 120, 100, 120);
	ev[n++] = ev_fork(t + 70 * US, 1, 100, 101);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t + 71 * US, 1, 100, 0, 101, 120, 1);
	t += 80 * US;
	for (int i = 0; i < 20; i++) {
		ev[n++] = ev_switch(t + 5 * US, 1, 100, 'S', 120, 101, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 100 * US, 1, 101, 0, 100, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 101 * US, 1, 101, 0, 100, 120, 1);
		ev[n++] = ev_switch(t + 120 * US, 1, 101, 'S', 120, 100, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 220 * US, 1, 100, 0, 101, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 221 * US, 1, 100, 0, 101, 120, 1);
		t += 240 * US;
	}
	ev[n++] = ev_runtime(t + 50 * US, 1, 100, 50 * US);
	for (int control = 0; control <= 3; control++) {
		struct replay_config rc;
		struct replay_result *r;
		struct sr_error err = { 0 };
		struct wl_workload *wl = build_aff(ev, n, control != 1);

		CHECK(wl != NULL);
		if (!wl)
			return;
		meas = wl_counts(wl)->sched_switch;
		if (control == 3) {
			/* --affinity inferred: the data ignored, as the control */
			replay_config_default(&rc);
			rc.placement = REPLAY_PLACEMENT_MODEL;
			rc.affinity = REPLAY_AFFINITY_INFERRED;
			r = replay_run(wl, &rc, &err);
			CHECK(r != NULL);
			if (r) {
				CHECK_EQ(count(r, "sched_switch"), sw[1]);
				CHECK_EQ(note_count(r, "sched_setaffinity() calls replayed"), 0);
				replay_result_free(r);
			}
			wl_free(wl);
			continue;
		}
		CHECK_EQ(wl_task(wl, 0)->aff_src, control == 1 ? WL_AFF_INFERRED : WL_AFF_START_READ);
		CHECK_EQ(wl_task(wl, 1)->aff_src, control == 1 ? WL_AFF_INFERRED : WL_AFF_FORK);
		CHECK_EQ(wl_task(wl, 1)->aff_cpu, control == 1 ? -1 : 1);
		/* the call's mask from the CPUs run on (41 wakeups on CPU 1), the facts' counts */
		CHECK_EQ(wl_facts(wl)->aff_data, control != 1);
		CHECK_EQ(wl_facts(wl)->aff_calls[WL_AFF_RUN_CPUS], control == 1 ? 0 : 1);
		CHECK_EQ(wl_facts(wl)->aff_pinned, control == 1 ? 0 : 1);
		replay_config_default(&rc);
		rc.placement = control == 2 ? REPLAY_PLACEMENT_TRACE : REPLAY_PLACEMENT_MODEL;
		r = replay_run(wl, &rc, &err);
		CHECK(r != NULL);
		if (!r) {
			fprintf(stderr, "replay: %s\n", err.msg);
			wl_free(wl);
			return;
		}
		sw[control] = count(r, "sched_switch");
		CHECK_EQ(note_count(r, "sched_setaffinity() calls replayed"), control == 1 ? 0 : 1);
		replay_result_free(r);
		wl_free(wl);
	}
	fprintf(stderr, "affinity: measured %llu, replayed %llu, control %llu, trace placement %llu switches\n",
		(unsigned long long)meas, (unsigned long long)sw[0], (unsigned long long)sw[1], (unsigned long long)sw[2]);
	/* a call that failed (ret -EINVAL) changes nothing: 101 inherits the start read's all */
	ev[3].u.syscall.ret = -22;
	{
		struct wl_workload *wl = build_aff(ev, n, true);
		uint32_t nc = 99;

		CHECK(wl != NULL);
		if (wl) {
			wl_aff_calls(wl, &nc);
			CHECK_EQ(nc, 0);
			CHECK_EQ(wl_task(wl, 1)->aff_src, WL_AFF_FORK);
			CHECK_EQ(wl_task(wl, 1)->aff_cpu, -1);
			wl_free(wl);
		}
	}
	/* as trace placement (49 of the 44 measured here) within 10 %; the control +93 % */
	CHECK(sw[0] * 10 <= sw[2] * 11 && sw[0] * 10 >= sw[2] * 9);
	CHECK(sw[1] * 2 > sw[2] * 3);
}

/*
 * The workload of @ev with a 2-CPU sidecar that records the affinity events,
 * whose start read has 100 running on CPU 0 (both CPUs allowed) and 101 in
 * state @st101 on CPU @cpu101, pinned there.
 */
static struct wl_workload *build_aff2(const struct trace_event *ev, size_t n, char st101,
				      int cpu101)
{
	struct sidecar_cpu cpus[2] = {
		{ .cpu = 0, .listed = true, .online = true, .numa_node = -1 },
		{ .cpu = 1, .listed = true, .online = true, .numa_node = -1 },
	};
	struct sidecar_sched_task rd[2] = {
		{ .pid = 100, .tgid = 100, .state = 'R', .cpu = 0, .starttime = -1,
		  .nr_allowed = 2, .allowed_cpu = 0 },
		{ .pid = 101, .tgid = 101, .state = st101, .cpu = cpu101, .starttime = -1,
		  .nr_allowed = 1, .allowed_cpu = cpu101 },
	};
	struct sidecar sc = { .path = (char *)"test.json", .nr_cpus = 2, .cpus = cpus,
			      .affinity_recorded = true };

	sc.sched_start.listed = sc.sched_start.available = true;
	sc.sched_start.nr_tasks = 2;
	sc.sched_start.tasks = rd;
	return build_sc(ev, n, &sc);
}

/* 100's sched_setaffinity(101, 8 bytes) on CPU 0: its sys_enter, else its sys_exit (ret 0) */
static struct trace_event ev_setaff_101(uint64_t ts, bool enter)
{
	struct trace_event e = ev_base(enter ? TRACE_EV_SYS_ENTER_SCHED_SETAFFINITY :
				       TRACE_EV_SYS_EXIT_SCHED_SETAFFINITY, ts, 0, 100);

	if (enter) {
		e.u.syscall.fd = 101;
		e.u.syscall.count = 8;
	}
	return e;
}

/*
 * 22 rounds from @t of 101 (prio @prio) on @cpu: it runs 50 us and sleeps, an
 * interrupt wakes it 100 us later and it runs 10 us after; the new count.
 */
static size_t aff_rounds_101(struct trace_event *ev, size_t n, int cpu, int prio, uint64_t t)
{
	for (int i = 0; i < 22; i++) {
		ev[n++] = ev_switch(t + 50 * US, cpu, 101, 'S', prio, 0, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 150 * US, cpu, 0, 0x08, 101, prio, cpu);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 151 * US, cpu, 0, 0x08, 101, prio, cpu);
		ev[n++] = ev_switch(t + 160 * US, cpu, 0, 'R', 120, 101, prio);
		t += 160 * US;
	}
	ev[n++] = ev_runtime(t + 10 * US, cpu, 101, 10 * US);
	return n;
}

/*
 * The replay of @wl under --placement model without costs, its one replayed
 * call, and the time of the dump's @needle on @cpu (a sched_migrate_task),
 * which must be within the call's microsecond (5-7 us after 1 ms); UINT64_MAX
 * if the replay failed (checked).
 */
static uint64_t aff_run_move(struct run *x, const struct wl_workload *wl, int cpu,
			     const char *needle)
{
	struct replay_config rc;
	uint64_t mv;

	replay_config_default(&rc);
	rc.placement = REPLAY_PLACEMENT_MODEL;
	rc.no_costs = true;
	if (!run_begin(x, wl, &rc))
		return UINT64_MAX;
	CHECK_EQ(note_count(x->r, "sched_setaffinity() calls replayed"), 1);
	mv = dump_find(x->dump, cpu, 0, needle);
	CHECK_MSG(mv >= 1 * MS + 5 * US && mv <= 1 * MS + 7 * US, "move at %llu",
		  (unsigned long long)mv);
	return mv;
}

/*
 * sched_setaffinity() by 100 (running on CPU 0) on another task, 101
 * (model_task_set_affinity()), replayed under --placement model (no costs).
 *
 * @running false, a queued target: 101 (nice 19, so it does not preempt; its
 * start read pins it to CPU 0) is woken on CPU 0 at 2 us and queued behind
 * 100; at 5 us 100 sets 101's mask to {1} (ret 0) and the kernel's
 * move_queued_task() moves it to idle CPU 1 (sched_migrate_task on CPU 0, the
 * caller's), where it runs 22 rounds woken by interrupts (its wakeups after
 * the call, all on CPU 1, give the call's mask).  The replay has 101 queued on
 * CPU 0 at the call (preempted there by 100 just before): the model moves it
 * at the call, the sched_migrate_task emitted on CPU 0, and idle CPU 1 runs it
 * at once; it never runs on CPU 0 again.
 *
 * @running true, a target running on another CPU: 101 (pinned to CPU 1) runs
 * on CPU 1; at 5 us 100 sets its mask to {0}: CPU 1's stopper preempts 101 and
 * moves it to CPU 0 (affine_move_task() -> stop_one_cpu_nowait(1,
 * migration_cpu_stop)), where it runs 22 rounds once 100 sleeps.  The replay:
 * the stopper's sched_waking on CPU 0 (the caller's), the switch to
 * migration/1 on CPU 1 and sched_migrate_task there (1 -> 0), within the
 * call's microsecond; 101 never runs on CPU 1 again.
 *
 * Before cpus50 only a caller's own move was replayed: both fail, no move at
 * the call.
 */
static void test_affinity_other(bool running)
{
	struct trace_event ev[160];
	size_t n = 0;
	uint64_t t = 1 * MS, mv;
	int from = running ? 1 : 0, to = 1 - from, prio = running ? 120 : 139;
	char needle[80];
	struct wl_workload *wl;
	struct run x;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 100, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, running ? 101 : 0, 120);
	if (!running) {
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 2 * US, 0, 100, 0, 101, prio, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 2 * US + 500, 0, 100, 0, 101, prio, 0);
	}
	ev[n++] = ev_setaff_101(t + 5 * US, true);
	if (running)
		ev[n++] = ev_switch(t + 5 * US + 500, 1, 101, 'R', prio, 0, 120);
	ev[n++] = ev_migrate(t + 5 * US + 600, from, 101, from, to);
	ev[n++] = ev_setaff_101(t + 6 * US, false);
	if (running) {
		ev[n++] = ev_runtime(t + 20 * US, 0, 100, 20 * US);
		ev[n++] = ev_switch(t + 20 * US, 0, 100, 'S', 120, 101, prio);
	} else {
		ev[n++] = ev_switch(t + 20 * US, 1, 0, 'R', 120, 101, prio);
	}
	n = aff_rounds_101(ev, n, to, prio, t + 20 * US);
	if (!running)
		ev[n++] = ev_runtime(t + 3600 * US, 0, 100, 3600 * US);
	wl = build_aff2(ev, n, running ? 'R' : 'S', from);
	CHECK(wl != NULL);
	if (!wl)
		return;
	CHECK_EQ(wl_task(wl, 1)->aff_cpu, from);
	snprintf(needle, sizeof(needle), "sched_migrate_task: task101:101 orig_cpu=%d dest_cpu=%d",
		 from, to);
	mv = aff_run_move(&x, wl, running ? from : 0, needle);
	if (mv != UINT64_MAX) {
		/* never switched in on the old CPU after the move */
		CHECK_EQ(dump_find(x.dump, from, mv, "==> task101:101"), UINT64_MAX);
		if (running) {
			CHECK_EQ(dump_find(x.dump, 0, 1 * MS, "sched_waking: migration/1"), mv);
			CHECK_EQ(dump_find(x.dump, 1, 1 * MS, "task101:101 [120] R+ ==> migration/1"),
				 mv);
			CHECK(dump_find(x.dump, 0, mv, "==> task101:101") != UINT64_MAX);
		} else {
			CHECK_EQ(dump_find(x.dump, 1, 0, "==> task101:101"), mv);
		}
	}
	run_end(&x);
	wl_free(wl);
}

/*
 * A nice change in the replay (WL_OP_NICE).  Hogs 10 and 11 share CPU 0;
 * 10's first switch-out shows prio 139 (a setpriority() to nice 19 in its
 * first run), 11 blocks after 6 ms of work and 10 after 9.  Replayed with the
 * change, 10 weighs 15 against 11's 1024 from its first switch-out on:
 * 11 runs its 6 ms to its block before 10 runs again (at the latest 10 ms +
 * a tick), where at equal weights (the control: the trace without the
 * change) they share the CPU and 11 blocks later.  10's switches show 139.
 * Then 10 sleeps and is switched in at 110 (reniced while asleep): its
 * sched_waking already shows 110 (nice_before_wake()).
 */
static void test_nice_change(void)
{
	uint64_t blk[2] = { UINT64_MAX, UINT64_MAX };

	for (int control = 0; control <= 1; control++) {
		int p19 = control ? 120 : 139, p110 = control ? 120 : 110;
		struct trace_event ev[16];
		size_t n = 0;
		struct wl_workload *wl;
		struct replay_config rc;
		struct run x;

		ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 10, 120);
		ev[n++] = ev_switch(4 * MS, 0, 10, 'R', p19, 11, 120);
		ev[n++] = ev_switch(7 * MS, 0, 11, 'R', 120, 10, p19);
		ev[n++] = ev_switch(10 * MS, 0, 10, 'R', p19, 11, 120);
		ev[n++] = ev_switch(13 * MS, 0, 11, 'S', 120, 10, p19);
		ev[n++] = ev_switch(16 * MS, 0, 10, 'S', p19, 0, 120);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 20 * MS, 0, 0, 0, 10, p110, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 20 * MS + 1000, 0, 0, 0, 10, p110, 0);
		ev[n++] = ev_switch(20 * MS + 5000, 0, 0, 'R', 120, 10, p110);
		ev[n++] = ev_switch(21 * MS, 0, 10, 'S', p110, 0, 120);
		wl = build(ev, n);
		CHECK(wl != NULL);
		if (!wl)
			continue;
		replay_config_default(&rc);
		rc.no_costs = true;
		if (run_begin(&x, wl, &rc)) {
			blk[control] = dump_find(x.dump, 0, 0, "task11:11 [120] S ==>");
			CHECK_EQ(dump_find(x.dump, 0, 0, "task10:10 [139]") != UINT64_MAX, !control);
			CHECK_EQ(dump_find(x.dump, 0, 15 * MS, "sched_waking: task10:10 [110]") !=
				 UINT64_MAX, !control);
			CHECK_EQ(count(x.r, "reweight_entity") > 0, !control);
		}
		run_end(&x);
		wl_free(wl);
	}
	CHECK(blk[0] != UINT64_MAX && blk[1] != UINT64_MAX);
	CHECK(blk[0] <= 10 * MS + 4 * MS);
	CHECK(blk[0] < blk[1]);
}

/* the lines of CPU @cpu's dump in [@from, @to) holding @needle */
static int dump_count(const char *dump, int cpu, uint64_t from, uint64_t to, const char *needle)
{
	int n = 0;

	for (uint64_t at = from; (at = dump_find(dump, cpu, at, needle)) < to; at++)
		n++;
	return n;
}

/*
 * Priority inheritance between fair tasks (WL_OP_PI_SETPRIO): task 11 (nice
 * 0) preempts 10 (nice 10), blocks on the PI futex 10 holds and boosts it to
 * prio 120 (sched_pi_setprio in 11's context); 10 unlocks, is deboosted and
 * wakes 11.  The boost is a requeue at nice 10's weight: the dequeue charges
 * 11, the running task (a sched_stat_runtime before its block's), no
 * reweight_entity, and 10's switches show prio 120 while boosted.  Without the
 * pi events (control) the switches at 120 read as nice changes: two
 * set_user_nice() reweights, and no charge of 11 before its block.
 */
static void test_pi_requeue(void)
{
	for (int control = 0; control <= 1; control++) {
		struct trace_event ev[16];
		size_t n = 0;
		struct wl_workload *wl;
		struct run x;

		ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 10, 130);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 2 * MS, 0, 10, 0x08, 11, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * MS + 1000, 0, 10, 0x08, 11, 120, 0);
		ev[n++] = ev_switch(2 * MS + 5000, 0, 10, 'R', 130, 11, 120);
		if (!control)
			ev[n++] = ev_pi_setprio(2 * MS + 100000, 0, 11, 10, 130, 120);
		ev[n++] = ev_switch(2 * MS + 102000, 0, 11, 'S', 120, 10, 120);
		if (!control)
			ev[n++] = ev_pi_setprio(3 * MS, 0, 10, 10, 120, 130);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS + 1000, 0, 10, 0, 11, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 2000, 0, 10, 0, 11, 120, 0);
		ev[n++] = ev_switch(3 * MS + 10000, 0, 10, 'R', 130, 11, 120);
		ev[n++] = ev_switch(3 * MS + 200000, 0, 11, 'S', 120, 10, 130);
		ev[n++] = ev_switch(3 * MS + 900000, 0, 10, 'S', 130, 0, 120);
		if (run_events(&x, &wl, ev, n, true)) {
			uint64_t blk = dump_find(x.dump, 0, 2 * MS, "task11:11 [120] S ==>");

			CHECK(blk < 3 * MS);
			CHECK_EQ(count(x.r, "reweight_entity"), control ? 2 : 0);
			/* boosted, 10 shows prio 120 from the switch-in after 11's block */
			if (!control)
				CHECK_EQ(dump_find(x.dump, 0, 2 * MS, "==> task10:10 [120]"), blk);
			/* the requeue's charge of 11, before its block's switch */
			CHECK_EQ(dump_count(x.dump, 0, 2 * MS, blk, "sched_stat_runtime: comm=task11"),
				 control ? 0 : 1);
			/* its resched is taken by the block: 11 is not preempted first */
			CHECK(dump_find(x.dump, 0, 2 * MS, "task11:11 [120] R+") > blk);
		}
		run_end(&x);
		wl_free(wl);
	}
}

/*
 * A fair task first seen RT-boosted (its switch-in at prio 98): the replay
 * ran its whole trace as an RT interval (control, no sched_pi_setprio), which
 * writes no sched_stat_runtime.  With the deboost (98 -> 120) in its own
 * context at 2 ms, it is RT until there (the CPU's RT interval ends) and a
 * fair task from there, charged by the model as the kernel's
 * switched_to_fair() task is: handed over in place (class_in_place(): the
 * kernel's pick takes the same task and writes no sched_switch), its next
 * switch its sleep at prio 120.
 */
static void test_pi_rt_first_replay(void)
{
	for (int control = 0; control <= 1; control++) {
		struct trace_event ev[16];
		size_t n = 0;
		struct wl_workload *wl;
		struct run x;

		ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 10, 98);
		if (!control)
			ev[n++] = ev_pi_setprio(2 * MS, 0, 10, 10, 98, 120);
		ev[n++] = ev_switch(3 * MS, 0, 10, 'S', control ? 98 : 120, 0, 120);
		if (run_events(&x, &wl, ev, n, true)) {
			uint64_t in = dump_find(x.dump, 0, 2 * MS, "==> task10:10 [120]");

			if (control) {
				CHECK_EQ(in, UINT64_MAX);
				CHECK_EQ(dump_count(x.dump, 0, 0, UINT64_MAX,
						    "sched_stat_runtime: comm=task10"), 0);
			} else {
				CHECK_EQ(in, UINT64_MAX);
				CHECK(dump_count(x.dump, 0, 2 * MS, UINT64_MAX,
						 "sched_stat_runtime: comm=task10") > 0);
				CHECK(dump_find(x.dump, 0, 2 * MS, "task10:10 [120] S ==>") < UINT64_MAX);
			}
		}
		run_end(&x);
		wl_free(wl);
	}
}

/*
 * A fair task that becomes SCHED_FIFO while it runs (its switch-out at 98, no
 * event for the change) and is then woken at 98 while a fair task (12) runs
 * on its CPU: the kernel's RT task takes the CPU at once, and the replay
 * switches it in at its traced time (an RT task's interval), charged nothing
 * by the model.  Before the fix it stayed fair for life: woken as a fair task
 * at prio 120, queued behind 12 or preempting it as the model decides, and
 * charged by the model.
 */
static void test_class_change_replay(void)
{
	struct trace_event ev[16];
	size_t n = 0;
	struct wl_workload *wl;
	struct run x;

	ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 10, 120);
	ev[n++] = ev_switch(2 * MS, 0, 10, 'S', 98, 12, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS, 0, 12, 0, 10, 98, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 2000, 0, 12, 0, 10, 98, 0);
	ev[n++] = ev_switch(3 * MS + 5000, 0, 12, 'R', 120, 10, 98);
	ev[n++] = ev_switch(3 * MS + 60000, 0, 10, 'S', 98, 12, 120);
	ev[n++] = ev_switch(5 * MS, 0, 12, 'S', 120, 0, 120);
	if (run_events(&x, &wl, ev, n, true)) {
		CHECK_EQ(dump_find(x.dump, 0, 2 * MS + 1, "==> task10:10 [98]"), 3 * MS + 5000);
		CHECK_EQ(dump_count(x.dump, 0, 2 * MS + 1, UINT64_MAX,
				    "sched_stat_runtime: comm=task10"), 0);
	}
	run_end(&x);
	wl_free(wl);
}

/*
 * test_class_change_pi's events replayed: the fair holder 10, queued at the
 * RT waiter's boost, leaves the fair queue there (switched_from_fair()) and
 * runs as RT to its deboost, which comes while it runs (its unlock in its
 * own context): rt_mutex_setprio() switches it to the fair class in place -
 * switched_to_fair() reschedules it, the fair pick takes the same task and
 * __schedule() writes no sched_switch - so from the deboost to its sleep at
 * 5 ms the replay writes no switch, no wake of 10 and no sample
 * (class_in_place()).  Before: an RT switch-out of 10 to idle, a
 * sched_waking / sched_wakeup of the fair record (its sample muted) and its
 * switch-in, after an idle exit's cost; before rt46, the old fair record
 * stayed queued and was switched in at the deboost too.
 */
static void test_class_change_pi_replay(void)
{
	struct trace_event ev[16];
	struct wl_workload *wl;
	struct run x;

	if (run_events(&x, &wl, ev, ev_pirt_cycle(ev, true), true)) {
		uint64_t out = dump_find(x.dump, 0, 4 * MS, "task10:10 [130] S ==>");

		CHECK(out != UINT64_MAX && out >= 4 * MS);
		CHECK_EQ(dump_count(x.dump, 0, 4 * MS, out, "sched_switch:"), 0);
		CHECK_EQ(dump_count(x.dump, 0, 4 * MS, UINT64_MAX, "==> task10:10"), 0);
		CHECK_EQ(dump_count(x.dump, 0, 4 * MS, UINT64_MAX, "task10:10 [98] R"), 0);
		CHECK_EQ(dump_count(x.dump, 0, 4 * MS, UINT64_MAX, "sched_waking: task10:10"), 0);
		CHECK_EQ(dump_count(x.dump, 0, 4 * MS, UINT64_MAX, "sched_wakeup: task10:10"), 0);
		CHECK_EQ(note_count(x.r, "RT intervals of a running task switched to the fair class"), 1);
		CHECK_EQ(note_count(x.r, "wakeup latency samples not counted: the stand-in wakeups that enqueue"), 0);
		CHECK_EQ(note_count(x.r, "fair tasks queued where the trace switched them"), 1);
		/* the deboosted record is the holder's sched_entity (class_carry()) */
		CHECK_EQ(note_count(x.r, "fair records of a thread switched back"), 1);
	}
	run_end(&x);
	wl_free(wl);
}

/*
 * The hand-over in place where the fair pick takes another task: 12 (nice 0)
 * was woken at 3 ms while the RT-boosted holder ran, so at the deboost
 * __schedule()'s fair pick prefers it to the holder back at nice 10 (an
 * earlier deadline): the holder is switched out preempted ("R+" at its
 * fair prio 130) to 12 at the deboost, with no wake of the holder.  Before:
 * an RT switch-out of 10 (at 98), a wake and a later switch-in of its fair
 * record.
 */
static void test_class_in_place_other_pick(void)
{
	struct trace_event ev[24], cyc[16];
	size_t n = 0, m = ev_pirt_cycle(cyc, true);
	struct wl_workload *wl;
	struct run x;

	for (size_t i = 0; i < m; i++) {
		if (cyc[i].ts == 4 * MS) {
			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 3 * MS, 0, 10, 0, 12, 120, 0);
			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * MS + 1000, 0, 10, 0, 12, 120, 0);
		}
		ev[n++] = cyc[i];
	}
	ev[n - 1] = ev_switch(5 * MS, 0, 10, 'S', 130, 12, 120);
	ev[n++] = ev_switch(6 * MS, 0, 12, 'S', 120, 0, 120);
	if (run_events(&x, &wl, ev, n, true)) {
		CHECK_EQ(dump_find(x.dump, 0, 4 * MS, "task10:10 [130] R+ ==> task12:12"), 4 * MS);
		CHECK_EQ(dump_count(x.dump, 0, 4 * MS, UINT64_MAX, "task10:10 [98]"), 0);
		CHECK_EQ(dump_count(x.dump, 0, 4 * MS, UINT64_MAX, "sched_waking: task10:10"), 0);
		CHECK_EQ(note_count(x.r, "RT intervals of a running task switched to the fair class"), 1);
	}
	run_end(&x);
	wl_free(wl);
}

/*
 * small-pirt's cycle: the RT waiter 11 blocks on the PI mutex of the holder it
 * has just boosted and hands its CPU straight to it (RT to RT).  The kernel's
 * __schedule() writes the waiter's block ("S", as the trace's switch), and
 * its dequeue -> update_curr_rt() charges the waiter: a sched_stat_runtime
 * under STAT_RUNTIME_OTHER_CLASS (6.8+), the model's
 * sched_stat_runtime_rt_dl.  Before: the switch was written "R+" (the block
 * not carried from the RT switch-out to the switch-in that wrote it) and
 * the hand-over charged nothing: the count of a run whose waiter blocks to
 * idle instead (the control: the CPU's RT interval released there, charged
 * at its put_prev_task_rt()) was one more.
 */
static void test_rt_block_handover(void)
{
	uint64_t rtdl[2] = { 0, 0 };

	for (int control = 0; control <= 1; control++) {
		struct trace_event ev[16];
		size_t n = ev_pirt_cycle(ev, true);
		struct wl_workload *wl;
		struct run x;

		if (control) {
			/* 11 blocks to idle; 10, boosted, switched in 1 us later */
			size_t i = 0;

			while (i < n && ev[i].ts != 2 * MS + 11000)
				i++;
			CHECK(i + 1 < n);
			if (i + 1 >= n)
				return;
			memmove(&ev[i + 2], &ev[i + 1], (n - i - 1) * sizeof(ev[0]));
			ev[i] = ev_switch(2 * MS + 11000, 0, 11, 'S', 98, 0, 120);
			ev[i + 1] = ev_switch(2 * MS + 12000, 0, 0, 'R', 120, 10, 98);
			n++;
		}
		if (run_events(&x, &wl, ev, n, true)) {
			if (!control) {
				CHECK_EQ(dump_find(x.dump, 0, 2 * MS, "task11:11 [98] S ==> task10:10 [98]"),
					 2 * MS + 11000);
				CHECK_EQ(dump_count(x.dump, 0, 2 * MS, 4 * MS, "task11:11 [98] R"), 0);
			}
			rtdl[control] = count(x.r, "sched_stat_runtime_rt_dl");
		}
		run_end(&x);
		wl_free(wl);
	}
	/* the control's RT interval of 10 is charged at its switch-in's release too */
	CHECK(rtdl[0] > 0);
	CHECK_EQ(rtdl[0], rtdl[1]);
}

/*
 * The fair holder 10 does its traced work (1.002 ms) sooner than the trace:
 * woken onto idle CPU 0 at 0.9 ms, it is switched in at 1 ms in the trace,
 * at once in the replay (no costs), so its work is done at 1.902 ms, before
 * the RT waiter's wake at 2 ms.  Its fair record ends queued at the boost
 * (2.010 ms; class_split()'s WL_T_CLASS_LEAVE): it was runnable up to there
 * - the trace has it preempted by the waiter's switch-in - so it runs on
 * and is switched out "R+" to the waiter at 2.002 ms, then leaves the fair
 * queue at the boost.  Before: it slept at 1.902 ms ("S" to idle) and the
 * waiter came from idle - small-pirt's 59 extra idle round trips.
 */
static void test_class_leave_run_on(void)
{
	struct trace_event ev[24], cyc[16];
	size_t n = 0, m = ev_pirt_cycle(cyc, true);
	struct wl_workload *wl;
	struct run x;

	ev[n++] = ev_switch(500000, 0, 12, 'S', 120, 0, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 900000, 0, 0, 0, 10, 130, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 901000, 0, 0, 0, 10, 130, 0);
	for (size_t i = 0; i < m; i++) {
		ev[n] = cyc[i];
		/* the holder wakes the waiter (its release of what the waiter waits on) */
		if (ev[n].type == TRACE_EV_SCHED_WAKING || ev[n].type == TRACE_EV_SCHED_WAKEUP)
			ev[n].common_pid = 10;
		n++;
	}
	if (run_events(&x, &wl, ev, n, true)) {
		CHECK(dump_find(x.dump, 0, 0, "==> task10:10 [130]") < 1 * MS);
		CHECK_EQ(dump_find(x.dump, 0, 0, "task10:10 [130] R+ ==> task11:11 [98]"), 2 * MS + 2000);
		CHECK_EQ(dump_count(x.dump, 0, 0, 4 * MS, "task10:10 [130] S"), 0);
		CHECK_EQ(dump_count(x.dump, 0, 1 * MS, 4 * MS, "==> swapper/0:0"), 0);
		CHECK_EQ(note_count(x.r, "fair tasks whose traced work ran out before the boost"), 1);
		CHECK_EQ(note_count(x.r, "fair tasks queued where the trace switched them"), 1);
	}
	run_end(&x);
	wl_free(wl);
}

/*
 * ev_pirt_queued(): the RT holder deboosted while queued behind RT task 12
 * is enqueued on CPU 0 by the class change (class_enqueue():
 * model_task_switched_to_fair(.., false, ..)), not woken: no sched_wakeup of
 * 10 after its boost, it runs when 12 sleeps at 4 ms.
 */
static void test_class_queued_enqueue(void)
{
	struct trace_event ev[24];
	size_t n = ev_pirt_queued(ev);
	struct wl_workload *wl;
	struct run x;

	if (run_events(&x, &wl, ev, n, true)) {
		CHECK_EQ(note_count(x.r, "fair records switched to the fair class while queued"), 1);
		CHECK_EQ(note_count(x.r, "wakes that reached their target before"), 0);
		CHECK_EQ(note_count(x.r, "wakes delivered early whose block"), 0);
		CHECK_EQ(dump_count(x.dump, 0, 2 * MS + 20000, 5 * MS, "sched_wakeup: task10:10"), 0);
		CHECK_EQ(dump_count(x.dump, 1, 2 * MS + 20000, 5 * MS, "sched_wakeup: task10:10"), 0);
		CHECK_EQ(dump_find(x.dump, 0, 3 * MS, "task12:12 [90] S ==> task10:10 [130]"), 4 * MS);
	}
	run_end(&x);
	wl_free(wl);
}

/*
 * A fair task (10, nice 0) that is SCHED_FIFO from 2 ms (its switch-out at
 * 98) and SCHED_OTHER again while asleep (its wake at 5 ms shows 120):
 * the fair record after the change is attached to CPU 0's queue at the
 * change (WL_T_CLASS_ENTER: model_task_switched_to_fair_asleep()), once;
 * its wake then enqueues it (ev_class_change_asleep()).
 */
static void test_class_enter_asleep(void)
{
	struct trace_event ev[16];
	size_t n = ev_class_change_asleep(ev);
	struct wl_workload *wl;
	struct run x;

	if (run_events(&x, &wl, ev, n, true)) {
		CHECK_EQ(note_count(x.r, "fair records switched to the fair class while asleep"), 1);
		CHECK(dump_find(x.dump, 0, 5 * MS, "==> task10:10 [120]") < 6 * MS);
	}
	run_end(&x);
	wl_free(wl);
}

/*
 * The holder's own deboost at its unlock asks for a resched (prio_changed_fair():
 * running, its prio lowered, another task queued: 12, nice 19), which the
 * kernel takes only after the unlock's wake of the top waiter (11):
 * mark_wakeup_next_waiter() disables preemption before the deboost,
 * rt_mutex_wake_up_q() enables it after wake_up_q().  Before the fix the
 * replay switched 10 out to 12 3 us after the deboost and 11's wake came
 * 500 us late, after 12's run.
 */
static void test_pi_deboost_wake_first(void)
{
	for (int nocost = 0; nocost <= 1; nocost++) {
		struct trace_event ev[16];
		size_t n = 0;
		struct wl_workload *wl;
		struct run x;

		ev[n++] = ev_switch(1 * MS, 0, 0, 'R', 120, 10, 130);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 1 * MS + 100000, 0, 10, 0, 12, 139, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 1 * MS + 101000, 0, 10, 0, 12, 139, 0);
		ev[n++] = ev_pi_setprio(1 * MS + 300000, 0, 10, 10, 120, 130);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 1 * MS + 305000, 0, 10, 0, 11, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 1 * MS + 306000, 0, 10, 0, 11, 120, 0);
		ev[n++] = ev_switch(1 * MS + 308000, 0, 10, 'R', 130, 11, 120);
		ev[n++] = ev_switch(1 * MS + 500000, 0, 11, 'S', 120, 12, 139);
		ev[n++] = ev_switch(2 * MS, 0, 12, 'S', 139, 10, 130);
		ev[n++] = ev_switch(2 * MS + 500000, 0, 10, 'S', 130, 0, 120);
		if (run_events(&x, &wl, ev, n, nocost)) {
			uint64_t wake = dump_find(x.dump, 0, 0, "sched_waking: task11:11");
			uint64_t out = dump_find(x.dump, 0, 0, "task10:10 [130] R");

			CHECK(wake < 1 * MS + 310000);
			CHECK(out != UINT64_MAX && wake <= out);
		}
		run_end(&x);
		wl_free(wl);
	}
}

/*
 * --idle-tick short and any (idle_tick_kept()): 300 on CPU 1 runs 0.5 ms, then
 * sleeps 3.9 ms (under a 4 ms tick), ten times, while 200 keeps CPU 0 busy.
 * Each sleep ends at a hardirq (0x08) wake raised on CPU 1 (its own timer: the tick
 * is kept, the idle ticks run) or at 200's wake from CPU 0 (remote: the tick
 * stops, none runs; any runs them too); stop runs none either way.
 */
static uint64_t idle_ticks_run(bool local, enum replay_idle_tick mode, uint64_t *ticks)
{
	struct trace_event ev[128];
	size_t n = 0;
	uint64_t t = 1 * MS, v = UINT64_MAX;
	int cpu = local ? 1 : 0, pid = local ? 0 : 200, flags = local ? 0x08 : 0;
	struct wl_workload *wl;
	struct replay_config rc;
	struct run x;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 200, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 300, 120);
	for (int i = 0; i < 10; i++) {
		ev[n++] = ev_switch(t + 500 * US, 1, 300, 'S', 120, 0, 120);
		t += 4400 * US;
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t - 10 * US, cpu, pid, flags, 300, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t - 8 * US, cpu, pid, flags, 300, 120, 1);
		ev[n++] = ev_switch(t, 1, 0, 'R', 120, 300, 120);
	}
	ev[n++] = ev_runtime(t + 100 * US, 0, 200, t);
	wl = build(ev, n);
	CHECK(wl != NULL);
	if (!wl)
		return v;
	replay_config_default(&rc);
	rc.idle_tick = mode;
	if (run_begin(&x, wl, &rc)) {
		v = note_count(x.r, "ticks run on an idle CPU");
		*ticks = count(x.r, "tick");
	}
	run_end(&x);
	wl_free(wl);
	return v;
}

static void test_idle_tick_local(void)
{
	uint64_t stop_ticks, ticks, remote_ticks, stop_remote;

	CHECK_EQ(idle_ticks_run(true, REPLAY_IDLE_TICK_STOP, &stop_ticks), 0);
	CHECK_EQ(idle_ticks_run(false, REPLAY_IDLE_TICK_STOP, &stop_remote), 0);
	CHECK_EQ(idle_ticks_run(false, REPLAY_IDLE_TICK_SHORT, &remote_ticks), 0);
	CHECK_EQ(remote_ticks, stop_remote);
	CHECK_EQ(idle_ticks_run(true, REPLAY_IDLE_TICK_SHORT, &ticks), 10);   /* one per sleep */
	CHECK_EQ(ticks, stop_ticks + 10);
	/* any: the remote wakes' sleeps keep their tick too, the local ones as under short */
	CHECK_EQ(idle_ticks_run(false, REPLAY_IDLE_TICK_ANY, &remote_ticks), 10);
	CHECK_EQ(remote_ticks, stop_remote + 10);
	CHECK_EQ(idle_ticks_run(true, REPLAY_IDLE_TICK_ANY, &remote_ticks), 10);
	CHECK_EQ(remote_ticks, ticks);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		if (test_trace(argv[1]))
			return 2;
		CHECK_DONE();
	}
	test_pingpong();
	test_nice_change();
	test_affinity_capture();
	test_affinity_other(false);
	test_affinity_other(true);
	test_pi_requeue();
	test_pi_deboost_wake_first();
	test_pi_rt_first_replay();
	test_class_change_replay();
	test_class_change_pi_replay();
	for (int k = 0; k < 4; k++)
		test_fork_assumed_replay(k & 1, k & 2);
	test_class_in_place_other_pick();
	test_rt_block_handover();
	test_class_leave_run_on();
	test_class_queued_enqueue();
	test_class_enter_asleep();
	test_handoff_pingpong();
	test_idle_tick_local();
	test_ops_done_queued();
	test_restored_idle_exits();
	test_pull_before_fork();
	test_stopper_move_restored();
	test_traced_ticks();
	test_clock_left();
	test_tick_phase_grid();
	test_tick_preempt_at();
	test_waker_costs_on(false);
	test_waker_costs_on(true);
	test_flush_hold();
	test_exit_preempt();
	test_cpu_stalls();
	test_cpu_steal();
	test_resched_at_syscall_exit();
	test_resched_next_wake_in_call();
	test_flush_hold_model();
	test_channel_wakes();
	test_channel_burst();
	test_early_wakes();
	test_early_wakes_sleep();
	test_standin_skip();
	test_standin_chan();
	test_no_waking_rt_samples();
	test_rt_samples_pid_reuse();
	test_rt_comm_renamed();
	test_profile_why_release_bound();
	test_wakeup_migrated();
	test_oneway_no_wait();
	test_handoff_model();
	test_charge_curr();
	test_handoff_modes();
	test_handoff_modes_cfs();
	test_initial_credit_long();
	test_end_rt_hold();
	test_placement_check();
	test_vcpu_pack();
	test_runq_wait();
	test_long_waits_by_group();
	test_pct_cell();
	test_pull_under_traced_stopper();
	test_active_balance_synth();
	test_exec_balance_model();
	test_fork_pinned_parent();
	test_exec_balance_traced();
	test_stopper_over_rt(1);
	test_stopper_over_rt(987654321);
	test_lost_windows();
	test_balance_attach();
	test_dump_wake_records();
	test_wake_clock();
	test_block_lead();
	test_idle_clock();
	test_wake_path();
	test_migrate_resched();
	CHECK_DONE();
}
