/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared assertions (tests/common/check.h) under the names the replay
 * tests use, and helpers that build struct trace_event records by hand.
 */
#ifndef SCHEDREPLAY_TESTS_REPLAY_CHECK_H
#define SCHEDREPLAY_TESTS_REPLAY_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/trace.h>

#include "../common/check.h"

/* the replay tests' names for the shared checks */
#define CHECK_EQ(a, b) CHECK_EQ_S(a, b)
#define CHECK_DONE() return check_done(__FILE__)

/* ---- hand-built events ---------------------------------------------------- */

static inline struct trace_event ev_base(enum trace_event_type type, uint64_t ts, int cpu,
					 int common_pid)
{
	struct trace_event e;

	memset(&e, 0, sizeof(e));
	e.type = type;
	e.ts = ts;
	e.cpu = cpu;
	e.common_pid = common_pid;
	e.name = trace_event_type_name(type);
	return e;
}

/* prev_state: 'R' (preempted, R+), 'S', 'D', 'X' */
static inline struct trace_event ev_switch(uint64_t ts, int cpu, int prev, char state, int prev_prio,
					   int next, int next_prio)
{
	struct trace_event e = ev_base(TRACE_EV_SCHED_SWITCH, ts, cpu, prev);
	struct trace_sched_switch *s = &e.u.sched_switch;

	snprintf(s->prev_comm, TRACE_COMM_LEN, prev ? "task%d" : "swapper/%d", prev ? prev : cpu);
	snprintf(s->next_comm, TRACE_COMM_LEN, next ? "task%d" : "swapper/%d", next ? next : cpu);
	s->prev_pid = prev;
	s->next_pid = next;
	s->prev_prio = prev_prio;
	s->next_prio = next_prio;
	switch (state) {
	case 'R': s->prev_state = 0x100; s->prev_run = TRACE_STATE_RUNNING; s->prev_preempt = true; break;
	case 'S': s->prev_state = 1; s->prev_run = TRACE_STATE_SLEEPING; break;
	case 'D': s->prev_state = 2; s->prev_run = TRACE_STATE_SLEEPING; break;
	case 'X': s->prev_state = 0x10; s->prev_run = TRACE_STATE_DEAD; break;
	}
	return e;
}

static inline struct trace_event ev_wake(enum trace_event_type type, uint64_t ts, int cpu,
					 int common_pid, uint8_t flags, int pid, int prio,
					 int target_cpu)
{
	struct trace_event e = ev_base(type, ts, cpu, common_pid);

	e.common_flags = flags;
	snprintf(e.u.wakeup.comm, TRACE_COMM_LEN, "task%d", pid);
	e.u.wakeup.pid = pid;
	e.u.wakeup.prio = prio;
	e.u.wakeup.target_cpu = target_cpu;
	e.u.wakeup.success = 1;
	return e;
}

static inline struct trace_event ev_fork(uint64_t ts, int cpu, int parent, int child)
{
	struct trace_event e = ev_base(TRACE_EV_SCHED_PROCESS_FORK, ts, cpu, parent);

	snprintf(e.u.fork.parent_comm, TRACE_COMM_LEN, "task%d", parent);
	snprintf(e.u.fork.child_comm, TRACE_COMM_LEN, "task%d", child);
	e.u.fork.parent_pid = parent;
	e.u.fork.child_pid = child;
	return e;
}

static inline struct trace_event ev_runtime(uint64_t ts, int cpu, int pid, uint64_t runtime)
{
	struct trace_event e = ev_base(TRACE_EV_SCHED_STAT_RUNTIME, ts, cpu, pid);

	snprintf(e.u.stat_runtime.comm, TRACE_COMM_LEN, "task%d", pid);
	e.u.stat_runtime.pid = pid;
	e.u.stat_runtime.runtime = runtime;
	return e;
}

static inline struct trace_event ev_migrate(uint64_t ts, int cpu, int pid, int from, int to)
{
	struct trace_event e = ev_base(TRACE_EV_SCHED_MIGRATE_TASK, ts, cpu, 0);

	snprintf(e.u.migrate.comm, TRACE_COMM_LEN, "task%d", pid);
	e.u.migrate.pid = pid;
	e.u.migrate.prio = 120;
	e.u.migrate.orig_cpu = from;
	e.u.migrate.dest_cpu = to;
	return e;
}

/* sched_pi_setprio of @pid written in @common_pid's context */
static inline struct trace_event ev_pi_setprio(uint64_t ts, int cpu, int common_pid, int pid,
					       int oldprio, int newprio)
{
	struct trace_event e = ev_base(TRACE_EV_SCHED_PI_SETPRIO, ts, cpu, common_pid);

	snprintf(e.u.pi_setprio.comm, TRACE_COMM_LEN, "task%d", pid);
	e.u.pi_setprio.pid = pid;
	e.u.pi_setprio.oldprio = oldprio;
	e.u.pi_setprio.newprio = newprio;
	return e;
}

static inline struct trace_event ev_exec(uint64_t ts, int cpu, int pid, const char *file)
{
	struct trace_event e = ev_base(TRACE_EV_SCHED_PROCESS_EXEC, ts, cpu, pid);

	e.u.exec.filename = file;
	e.u.exec.filename_len = strlen(file);
	e.u.exec.pid = pid;
	e.u.exec.old_pid = pid;
	return e;
}

/*
 * small-pirt's cycle in @ev (16 at least; the count): fair holder 10 (nice
 * 10) on CPU 0 preempted at 2 ms by the RT waiter 11, which boosts it to 98
 * (sched_pi_setprio in 11's context) and blocks; 10 runs boosted, deboosts
 * itself at its unlock at 4 ms (98 -> 130) and sleeps at 5 ms.  Without
 * @setprio the two sched_pi_setprio are left out.
 */
static inline size_t ev_pirt_cycle(struct trace_event *ev, bool setprio)
{
	const uint64_t ms = 1000000;
	size_t n = 0;

	ev[n++] = ev_switch(1 * ms, 0, 0, 'R', 120, 10, 130);
	ev[n++] = ev_switch(1 * ms + 1000, 1, 0, 'R', 120, 11, 98);
	ev[n++] = ev_switch(1 * ms + 2000, 1, 11, 'S', 98, 0, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 2 * ms, 0, 0, 0, 11, 98, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 2 * ms + 1000, 0, 0, 0, 11, 98, 0);
	ev[n++] = ev_switch(2 * ms + 2000, 0, 10, 'R', 130, 11, 98);
	if (setprio)
		ev[n++] = ev_pi_setprio(2 * ms + 10000, 0, 11, 10, 130, 98);
	ev[n++] = ev_switch(2 * ms + 11000, 0, 11, 'S', 98, 10, 98);
	if (setprio)
		ev[n++] = ev_pi_setprio(4 * ms, 0, 10, 10, 98, 130);
	ev[n++] = ev_switch(5 * ms, 0, 10, 'S', 130, 0, 120);
	return n;
}

/*
 * A fair task 10 (nice 0) on CPU 0 that is SCHED_FIFO from 2 ms (its
 * switch-out at 98, no event for the change), runs as RT at 3 ms and is
 * SCHED_OTHER again while asleep: its wake at 5 ms shows 120; it runs fair
 * and sleeps at 6 ms.
 */
static inline size_t ev_class_change_asleep(struct trace_event *ev)
{
	const uint64_t ms = 1000000;
	size_t n = 0;

	ev[n++] = ev_switch(1 * ms, 0, 0, 'R', 120, 10, 120);
	ev[n++] = ev_switch(2 * ms, 0, 10, 'S', 98, 0, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 3 * ms, 0, 0, 0, 10, 98, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * ms + 2000, 0, 0, 0, 10, 98, 0);
	ev[n++] = ev_switch(3 * ms + 5000, 0, 0, 'R', 120, 10, 98);
	ev[n++] = ev_switch(3 * ms + 60000, 0, 10, 'S', 98, 0, 120);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 5 * ms, 0, 0, 0, 10, 120, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 5 * ms + 2000, 0, 0, 0, 10, 120, 0);
	ev[n++] = ev_switch(5 * ms + 5000, 0, 0, 'R', 120, 10, 120);
	ev[n++] = ev_switch(6 * ms, 0, 10, 'S', 120, 0, 120);
	return n;
}

/*
 * ev_pirt_cycle()'s boost, then the boosted holder 10 is preempted queued at
 * 3 ms + 2 us by RT task 12 (prio 90), and deboosted (98 -> 130) at 3.5 ms
 * from CPU 1 while still queued (the waiter gave up: its rt_mutex_adjust_prio
 * chain walk); 12 sleeps at 4 ms, 10 runs fair and sleeps at 5 ms.
 */
static inline size_t ev_pirt_queued(struct trace_event *ev)
{
	const uint64_t ms = 1000000;
	size_t n = ev_pirt_cycle(ev, true) - 2;   /* up to 10's boosted switch-in */

	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, 3 * ms, 0, 10, 0, 12, 90, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, 3 * ms + 1000, 0, 10, 0, 12, 90, 0);
	ev[n++] = ev_switch(3 * ms + 2000, 0, 10, 'R', 98, 12, 90);
	ev[n++] = ev_pi_setprio(3 * ms + 500000, 1, 0, 10, 98, 130);
	ev[n++] = ev_switch(4 * ms, 0, 12, 'S', 90, 10, 130);
	ev[n++] = ev_switch(5 * ms, 0, 10, 'S', 130, 0, 120);
	return n;
}

#endif
