// SPDX-License-Identifier: GPL-2.0
/*
 * The simulation on hand-built workloads: what must hold whatever the
 * model decides (conservation of forks and wakes, CPU time never exceeding
 * the machine), identical results for identical input, and a trace replayed
 * twice giving byte-identical JSON.
 */
#include <schedreplay/sim.h>
#include <schedreplay/workload.h>

#include "check_replay.h"

#define MS 1000000ull
#define US 1000ull

static struct wl_workload *build(const struct trace_event *ev, size_t n)
{
	struct sr_error err = { 0 };
	struct wl_builder *b = wl_builder_new(NULL, NULL, NULL, &err);

	if (!b)
		fprintf(stderr, "%s\n", err.msg), exit(2);
	for (size_t i = 0; i < n; i++)
		if (wl_builder_event(b, &ev[i], 0, &err))
			fprintf(stderr, "%s\n", err.msg), exit(2);
	return wl_builder_finish(b, &err);
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

int main(int argc, char **argv)
{
	if (argc > 1) {
		if (test_trace(argv[1]))
			return 2;
		CHECK_DONE();
	}
	test_pingpong();
	CHECK_DONE();
}
