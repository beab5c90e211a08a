// SPDX-License-Identifier: GPL-2.0
/*
 * A fork the model refuses stops the replay with the model's line, naming the
 * child, the time and the CPU (do_fork(), replay/sim.c; until class52 the
 * error was dropped and the run ended as "replay: out of memory").  Linked
 * with -Wl,--wrap=model_task_new: the wrapper fails for nice 5, the child's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/error.h>
#include <schedreplay/model.h>
#include <schedreplay/sim.h>
#include <schedreplay/workload.h>

#include "check_replay.h"

#define MS 1000000ull
#define US 1000ull

struct model_task *__real_model_task_new(struct model *m, struct model_group *g, int nice,
					 enum model_policy policy, uint32_t id,
					 struct sr_error *err);
struct model_task *__wrap_model_task_new(struct model *m, struct model_group *g, int nice,
					 enum model_policy policy, uint32_t id,
					 struct sr_error *err);

static unsigned int refused;

struct model_task *__wrap_model_task_new(struct model *m, struct model_group *g, int nice,
					 enum model_policy policy, uint32_t id,
					 struct sr_error *err)
{
	if (nice == 5) {
		refused++;
		sr_error_set(err, ENOMEM, "model: out of memory creating task %u", id);
		return NULL;
	}
	return __real_model_task_new(m, g, nice, policy, id, err);
}

int main(void)
{
	struct trace_event ev[16];
	size_t n = 0;
	uint64_t t = 1 * MS;
	struct sr_error err = { 0 };
	struct wl_builder *b = wl_builder_new(NULL, NULL, NULL, &err);
	struct wl_workload *wl;
	struct replay_config rc;
	struct replay_result *r;

	CHECK(b != NULL);
	if (!b)
		CHECK_DONE();
	/* parent 100 (nice 0) on CPU 0 forks 101 (nice 5), which runs on CPU 1 */
	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 100, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 0, 120);
	ev[n++] = ev_fork(t + 10 * US, 0, 100, 101);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t + 11 * US, 0, 100, 0, 101, 125, 1);
	ev[n++] = ev_switch(t + 30 * US, 1, 0, 'R', 120, 101, 125);
	ev[n++] = ev_switch(t + 300 * US, 1, 101, 'S', 125, 0, 120);
	ev[n++] = ev_switch(t + 400 * US, 0, 100, 'S', 120, 0, 120);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ(wl_builder_event(b, &ev[i], 0, &err), 0);
	wl = wl_builder_finish(b, &err);
	CHECK(wl != NULL);
	if (!wl)
		CHECK_DONE();
	replay_config_default(&rc);
	r = replay_run(wl, &rc, &err);
	CHECK(r == NULL);
	CHECK_EQ(refused, 1);
	fprintf(stderr, "error: %s\n", err.msg);
	CHECK(strstr(err.msg, "replay: fork of pid 101 (task101) at 0.00101") == err.msg);
	CHECK(strstr(err.msg, " s on CPU 0: model: out of memory creating task ") != NULL);
	CHECK_EQ(err.code, ENOMEM);
	replay_result_free(r);
	wl_free(wl);
	CHECK_DONE();
}
