// SPDX-License-Identifier: GPL-2.0
/*
 * The replay simulation (sim.c), the events that come at their trace times
 * rather than from the simulation's own state:
 *   timed events  the workload's timed list (sim_timed(), merged in time
 *                 order with the heap by sim_loop()): external wakeups and
 *                 forks (sim_deliver_wake(), sim_do_fork()), traced
 *                 migrations under --placement trace (a balancer's move,
 *                 sim_apply_traced_migration(); a whole load-balance
 *                 pass, balance_pass(): detach_tasks() / attach_tasks()),
 *                 cgroup moves, RT/DL intervals (sim_class.c's
 *                 sim_other_in(), sim_other_out())
 *   CPU bandwidth timers  the model's period and slack timers as heap
 *                 events (sched_cfs_period_timer(), sched_cfs_slack_timer())
 *   CPU stalls    --cpu-stalls traced: a vCPU that runs nothing for a while
 *                 (its tick comes late, at the stall's end)
 */
#include <string.h>

#include <schedreplay/model.h>
#include <schedreplay/sim.h>

#include "calib.h"
#include "sim_local.h"

/* ---- timed events --------------------------------------------------------- */

/*
 * --balance-attach kernel-order: WL_T_MIGRATE @e is the first migration of a
 * traced load-balance pass (WL_T_PASS_ID in its arg) that the simulation
 * meets.  The kernel detached the pass's tasks one by one with the source
 * locked, then attached them last-detached first (detach_tasks(),
 * attach_tasks() in kernel/sched/fair.c): the EEVDF placement of each
 * (place_entity(): its lag, inflated by the queue's weight, V including the
 * ones attached before) depends on that order.  The tasks of the pass the
 * simulation has queued (not running) on the source CPU of the first of them
 * move here as one pass, in the trace's order, with model_migrate_tasks();
 * their own migrations later do nothing (sim_task.pass_done).  The others
 * (running here, asleep, on another CPU) keep the rule of a migration on its
 * own, at their trace times.  The whole pass at its first migration's time
 * (the passes last 2-23 us in the bundled traces): the source cannot pick a
 * task the pass took (in the kernel it waits for the lock), and the
 * destination is busy balancing.  1 if done, 0 if fewer than two tasks
 * qualify (the caller moves @e's task on its own), -1 on error.
 */
static int balance_pass(struct sim *s, const struct wl_timed *e, uint64_t now)
{
	struct model_task *mts[WL_PASS_TASKS_MAX];
	uint32_t tis[WL_PASS_TASKS_MAX], id = e->arg & WL_T_PASS_ID, nt = wl_nr_timed(s->wl);
	uint32_t i = (uint32_t)(e - wl_timed_at(s->wl, 0));
	unsigned int n = 0;
	int from = -1, dst = e->cpu;

	for (; i < nt && n < WL_PASS_TASKS_MAX; i++) {
		const struct wl_timed *f = wl_timed_at(s->wl, i);
		struct model_task_info info;
		struct sim_task *t;
		bool dup = false;

		if (f->kind != WL_T_MIGRATE || (f->arg & WL_T_PASS_ID) != id)
			continue;
		t = f->task < s->nr_tasks ? &s->tasks[f->task] : NULL;
		for (unsigned int k = 0; k < n; k++)
			dup |= tis[k] == f->task;
		if (t && !dup && !f->aux && f->cpu == dst && t->mt && t->st == SIM_QUEUED &&
		    s->wt[f->task].cls == WL_CLASS_FAIR) {
			model_task_info(t->mt, &info);
			if (from < 0 && info.cpu != dst)
				from = info.cpu;
			if (!info.running && info.cpu == from) {
				tis[n] = f->task;
				mts[n++] = t->mt;
			}
		}
		if (f->arg & WL_T_PASS_LAST)
			break;
	}
	if (n < 2)
		return 0;
	if (model_migrate_tasks(s->m, mts, n, dst, now) < 0)
		return 0;
	s->notes[SIM_NOTE_BALANCE_PASS]++;
	for (unsigned int k = 0; k < n; k++) {
		s->tasks[tis[k]].cpu = dst;
		s->tasks[tis[k]].pass_done = id;
		if (sim_emit_migrate(s, tis[k], from, dst, dst, now))
			return -1;
	}
	if (sim_arm_source_resched(s, from, now))
		return -1;
	/* the balancer runs on the destination CPU: no IPI, no idle exit */
	if (model_need_resched(s->m, dst) && sim_arm_resched(s, dst, now))
		return -1;
	return 1;
}

/*
 * --migrate-resched both: a migration dequeued a task from @from, and that
 * dequeue's update_curr() set need_resched there (the running task's request
 * or protection ended): resched_curr() sends @from an IPI, which switches at
 * the remote preemption path's cost, not at its task's next operation.
 */
int sim_arm_source_resched(struct sim *s, int from, uint64_t now)
{
	const struct sim_cpu *c;
	uint32_t ti;

	if (s->cfg.migrate_resched != REPLAY_MIGRATE_RESCHED_BOTH || from < 0 ||
	    from >= s->nr_cpus)
		return 0;
	c = &s->cpus[from];
	if (c->curr < 0 || c->other >= 0 || c->resched_at != UINT64_MAX || c->resched_deferred ||
	    !model_need_resched(s->m, from))
		return 0;
	ti = (uint32_t)c->curr;
	if (s->tasks[ti].exiting)
		return 0;
	return sim_arm_resched(s, from, now + sim_cost(s, WL_PATH_PREEMPT_REMOTE, CALIB_CTX_TASK, from, ti,
						       s->tasks[ti].op, now));
}

/*
 * WL_T_MIGRATE: a traced sched_migrate_task of task @e->task to @e->cpu
 * (a balancer's move), applied under --placement trace to the simulated
 * state at its trace time: moved if the task is queued here, else
 * deferred, held or noted as the rules below say.  0, or -1 on error.
 */
int sim_apply_traced_migration(struct sim *s, const struct wl_timed *e, uint64_t now)
{
	struct sim_task *t = e->task < s->nr_tasks ? &s->tasks[e->task] : NULL;
	struct model_task_info info;
	int from;

	if (t && (e->arg & WL_T_PASS_ID) && t->pass_done == (e->arg & WL_T_PASS_ID))
		return 0;      /* moved with its pass (balance_pass()) */
	if (s->ni_state) {
		uint32_t r = sim_newidle_of_timed(s, e);
		int h = r == WL_NONE ? 0 : sim_newidle_at_time(s, e, r);

		if (h)
			return h < 0 ? -1 : 0;
	}
	if (s->cfg.placement == REPLAY_PLACEMENT_TRACE &&
	    s->cfg.balance_attach == REPLAY_BALANCE_ATTACH_KERNEL && t && !e->aux &&
	    (e->arg & WL_T_PASS_ID) && t->st == SIM_QUEUED && e->cpu >= 0 &&
	    e->cpu < s->nr_cpus) {
		int r = balance_pass(s, e, now);

		if (r < 0)
			return -1;
		/*
		 * @e's own task not among those moved (not seen: the
		 * simulation's queued state and the model's curr agree)
		 * falls through to the rule of a migration on its own
		 * rather than being dropped
		 */
		if (r && t->pass_done == (e->arg & WL_T_PASS_ID))
			return 0;
	}
	if (t && !e->aux && s->cfg.placement == REPLAY_PLACEMENT_TRACE &&
	    s->cfg.queued_moves != REPLAY_QUEUED_MOVES_TIME)
		t->hold_cpu = -1;       /* superseded */
	if (s->cfg.placement == REPLAY_PLACEMENT_TRACE &&
	    s->cfg.queued_moves == REPLAY_QUEUED_MOVES_POSITION && t && t->mt && !e->aux &&
	    t->st == SIM_BLOCKED && !t->wait_asleep && t->op <= e->op &&
	    e->cpu >= 0 && e->cpu < s->nr_cpus && s->wt[e->task].cls == WL_CLASS_FAIR) {
		/*
		 * The simulation has the task asleep in a traced block
		 * at or before the point of its work where the trace's
		 * balancer moved it (it runs behind, or has not had the
		 * wakeup the trace showed before the move): the move
		 * waits for that point (wake_task(), sim_schedule_ex()), as
		 * the stopper's moves that belong to the task's work
		 * (WL_OP_MIGRATE) do.  As sim_pull_note() ("that CPU takes
		 * it if idle at the wakeup") a saturated destination
		 * never did: a task the trace then shows never asleep
		 * stayed on its old CPU for good (hackbench-shares'
		 * pipe sender 8356 in 6 of 15 seeds).  Queued or
		 * running here, the move is applied as under time:
		 * holding those too lost more moves than it placed.
		 */
		t->hold_cpu = e->cpu;
		t->hold_op = e->op;
		t->pending_cpu = -1;
		t->move_cpu = -1;
		s->notes[SIM_NOTE_MOVE_HELD]++;
		return 0;
	}
	if (s->cfg.placement == REPLAY_PLACEMENT_TRACE &&
	    s->cfg.queued_moves != REPLAY_QUEUED_MOVES_TIME && t && !e->aux &&
	    t->st == SIM_BLOCKED && t->wait_asleep && e->cpu >= 0 && e->cpu < s->nr_cpus &&
	    s->wt[e->task].cls == WL_CLASS_FAIR) {
		/*
		 * The trace's balancer moved it while it waited, queued;
		 * here it sleeps in a hand-off WAIT, which the kernel's
		 * task did not (runnable there, its next work waiting
		 * for its wakee's): the release wakes it there
		 * (wake_task()).  As sim_pull_note() ("that CPU takes it if
		 * idle") a saturated destination never did, and a task
		 * the trace never shows asleep stayed on its old CPU.
		 */
		if (t->move_cpu < 0 || t->move_cpu != e->cpu)
			s->notes[SIM_NOTE_WAIT_PULL]++;
		t->move_cpu = e->cpu == t->cpu ? -1 : e->cpu;
		return 0;
	}
	if (s->cfg.placement == REPLAY_PLACEMENT_TRACE && t && !e->aux &&
	    (t->st == SIM_UNBORN || t->st == SIM_BLOCKED) && e->cpu >= 0 && e->cpu < s->nr_cpus &&
	    s->wt[e->task].cls == WL_CLASS_FAIR) {
		/*
		 * The trace's balancer pulled it while it waited after
		 * its fork or wakeup; here it is not forked or woken
		 * yet: pull_waiting().
		 */
		return sim_pull_note(s, e->task, e->cpu);
	}
	if (s->cfg.placement != REPLAY_PLACEMENT_TRACE || !t || !t->mt || e->aux)
		return 0;
	/*
	 * A later traced migration supersedes one still deferred:
	 * the trace moved the task away and back while the
	 * simulation had it running (hog-timer: a hog pulled to the
	 * other CPU and pushed back 0.2 ms later ended on the wrong
	 * CPU when the first move was applied after the second).
	 */
	if (t->pending_cpu >= 0 && t->st == SIM_RUNNING && e->cpu == t->cpu) {
		t->pending_cpu = -1;
		return 0;
	}
	if (t->st == SIM_RUNNING && e->cpu >= 0 && e->cpu < s->nr_cpus && e->cpu != t->cpu) {
		/*
		 * The balancer moved it while it waited in the trace;
		 * here it runs: it moves when it next waits.
		 */
		t->pending_cpu = e->cpu;
		s->notes[SIM_NOTE_MIGRATE_DEFERRED]++;
		return 0;
	}
	if (t->st != SIM_QUEUED) {
		s->notes[SIM_NOTE_MIGRATE_SKIPPED]++;
		return 0;
	}
	model_task_info(t->mt, &info);
	from = info.cpu;
	if (from == e->cpu || e->cpu < 0 || e->cpu >= s->nr_cpus)
		return 0;
	bool was_idle = sim_cpu_idle(&s->cpus[e->cpu]);

	if (model_migrate_task(s->m, t->mt, e->cpu, now) < 0) {
		s->notes[SIM_NOTE_MIGRATE_SKIPPED]++;
		return 0;
	}
	t->cpu = e->cpu;
	if (sim_emit_migrate(s, e->task, from, e->cpu, e->cpu, now))
		return -1;
	if (sim_arm_source_resched(s, from, now))
		return -1;
	/* the balancer runs on the destination CPU: no IPI, no idle exit */
	if (model_need_resched(s->m, e->cpu))
		return sim_arm_resched(s, e->cpu, now);
	(void)was_idle;
	return 0;
}

/*
 * The class wake (WL_T_CLASS_WAKE) @e of a fair record switched to the fair
 * class while queued, not running (class_split() of a queued record, the
 * deboost of a queued RT record: pi_rt_first()): the kernel's
 * __sched_setscheduler() / rt_mutex_setprio() enqueue it on its CPU with
 * ENQUEUE_RESTORE | ENQUEUE_MOVE and check_class_changed() ->
 * switched_to_fair() attaches it and calls wakeup_preempt(rq, p, 0)
 * (model_task_switched_to_fair(.., false, ..)): no sched_waking /
 * sched_wakeup, no placement, no wakeup cost or latency sample.  Until
 * class52 it went through the wakeup (sim_deliver_wake()).  1 if done, 0 if the
 * record is not waiting for @e on a CPU of the replay (the wakeup follows),
 * -1 on error.
 */
static int class_enqueue(struct sim *s, const struct wl_timed *e, uint64_t now)
{
	struct sim_task *f;
	int cpu = e->cpu;

	if (e->task >= s->nr_tasks || cpu < 0 || cpu >= s->nr_cpus)
		return 0;
	f = &s->tasks[e->task];
	if (!f->mt || f->st != SIM_BLOCKED || f->waiting != e->arg ||
	    model_task_switched_to_fair(s->m, f->mt, cpu, false, now) < 0)
		return 0;
	s->notes[SIM_NOTE_CLASS_QUEUED]++;
	f->st = SIM_QUEUED;
	f->cpu = cpu;
	f->waiting = WL_NONE;
	/* done either way: 0 would send the record on to sim_deliver_wake() */
	if (model_need_resched(s->m, cpu) && sim_arm_resched(s, cpu, now))
		return -1;
	return 1;
}

int sim_timed(struct sim *s, const struct wl_timed *e, const struct wl_timed *next)
{
	uint64_t now = e->ts;
	struct sim_task *t = e->task < s->nr_tasks ? &s->tasks[e->task] : NULL;

	switch (e->kind) {
	case WL_T_EXT_WAKE:
		/* taken by an in-place hand-over (class_in_place()) */
		if ((e->aux & WL_T_CLASS_WAKE) && e->arg == s->class_handed) {
			s->class_handed = WL_NONE;
			return 0;
		}
		if (e->aux & WL_T_CLASS_WAKE) {
			int r = class_enqueue(s, e, now);

			if (r)
				return r < 0 ? -1 : 0;
		}
		if (sim_deliver_wake(s, e->arg, -1, now))
			return -1;
		/* switched_to_fair()'s enqueue, not a wakeup (WL_T_CLASS_WAKE) */
		if ((e->aux & WL_T_CLASS_WAKE) && t &&
		    lat_machine_mute_pending(s->lat, s->wt[e->task].pid) > 0)
			s->notes[SIM_NOTE_CLASS_MUTED]++;
		return 0;
	case WL_T_EXT_FORK:
		return sim_do_fork(s, e->arg, e->cpu, 0, now);
	case WL_T_MIGRATE:
		return sim_apply_traced_migration(s, e, now);
	case WL_T_MOVE_GROUP: {
		struct trace_event ev;
		const char *path = wl_group(s->wl, e->arg)->path;

		if (!t)
			return 0;
		t->group = e->arg;
		if (t->mt && t->st != SIM_DEAD &&
		    model_task_move_group(s->m, t->mt, s->groups[e->arg], now) < 0)
			s->notes[SIM_NOTE_MOVE_FAILED]++;
		sim_event_init(s, &ev, TRACE_EV_CGROUP_ATTACH_TASK, t->cpu >= 0 ? t->cpu : 0, now, 0);
		ev.u.cgroup_attach.pid = s->wt[e->task].pid;
		ev.u.cgroup_attach.dst_path = path;
		ev.u.cgroup_attach.dst_path_len = strlen(path);
		memcpy(ev.u.cgroup_attach.comm, t->comm, TRACE_COMM_LEN);
		return sim_emit(s, &ev);
	}
	case WL_T_CLASS_LEAVE:
		if (e->aux & WL_T_CLASS_ASLEEP) {
			/*
			 * asleep in the trace: rt_mutex_setprio() finishes a
			 * delayed dequeue, switched_from_fair() detaches; only
			 * where the simulation has it asleep too, at its last
			 * block (no wake to wait for: a record behind the trace
			 * would be woken as a fair task after the detach)
			 */
			if (t && t->mt && t->st == SIM_BLOCKED && t->waiting == WL_NONE &&
			    t->op + 1 >= s->wt[e->task].nr_ops &&
			    model_task_switched_from_fair_asleep(s->m, t->mt, now) == 0)
				s->notes[SIM_NOTE_CLASS_LEAVE_ASLEEP]++;
			return 0;
		}
		if (t && t->st == SIM_RUNNING && t->run_left == SIM_FOREVER && t->cpu >= 0 &&
		    s->cpus[t->cpu].curr == (int32_t)e->task && s->cpus[t->cpu].other < 0 &&
		    !s->wt[e->task].running_at_end) {
			/* ran on past its work (ops_done()) and is still running: it sleeps */
			s->notes[SIM_NOTE_CLASS_LEAVE_RUNNING]++;
			t->st = SIM_BLOCKED;
			t->waiting = WL_NONE;
			return sim_schedule_ex(s, t->cpu, MODEL_PREV_SLEEP, 1 /* S */, now);
		}
		if (!t || !t->mt || t->st != SIM_QUEUED ||
		    model_task_switched_from_fair(s->m, t->mt, now)) {
			s->notes[SIM_NOTE_CLASS_LEAVE_LATE]++;
			return 0;
		}
		s->notes[SIM_NOTE_CLASS_LEAVE]++;
		t->st = SIM_BLOCKED;
		t->waiting = WL_NONE;
		return 0;
	case WL_T_OTHER_IN:
		/*
		 * A stopper interval tied to the move it made (WL_OP_MIGRATE):
		 * with --placement trace replayed there, with model not at all
		 * (sched_exec() decides and runs the stopper itself)
		 */
		if (e->cpu < 0 || e->cpu >= s->nr_cpus || e->aux & WL_T_TIED)
			return 0;
		return sim_other_in(s, e->cpu, e->task, now);
	case WL_T_OTHER_OUT:
		if (e->cpu < 0 || e->cpu >= s->nr_cpus || e->aux & WL_T_TIED)
			return 0;
		return sim_other_out(s, e->cpu, e->task, e->aux & 1, now, next);
	case WL_T_OTHER_WAKE: {
		int cpu = e->cpu >= 0 && e->cpu < s->nr_cpus ? e->cpu : 0;

		if (e->arg & WL_T_WAKE_TIED)
			return 0;      /* its waker's WL_OP_WAKE_OTHER emits it */

		return sim_emit_wake_event(s, (enum trace_event_type)e->aux, e->task, cpu, cpu,
					   sim_cpu_pid(s, cpu), now);
	}
	case WL_T_CLASS_ENTER:
		/*
		 * switched to fair asleep: switched_to_fair() ->
		 * attach_task_cfs_rq() attaches the carried entity to the
		 * cfs_rq of its CPU now (before class52: at its first wakeup)
		 */
		if (t && t->mt && t->st == SIM_BLOCKED && e->cpu >= 0 && e->cpu < s->nr_cpus &&
		    model_task_switched_to_fair_asleep(s->m, t->mt, e->cpu, now) == 0) {
			s->notes[SIM_NOTE_CLASS_ENTER_ASLEEP]++;
			t->cpu = e->cpu;
		}
		return 0;
	case WL_T_OTHER_MIGRATE:
		return sim_emit_migrate(s, e->task, s->tasks[e->task].cpu, e->cpu,
					e->cpu >= 0 ? e->cpu : 0, now);
	default:
		return 0;
	}
}

/* ---- CPU bandwidth timers ---------------------------------------------- */

/* One heap event at the model's earliest bandwidth timer (none without a limit). */
int sim_bw_arm(struct sim *s)
{
	uint64_t t;

	if (!s->bw_groups)
		return 0;
	t = model_next_timer(s->m);
	if (t >= s->bw_armed)
		return 0;
	s->bw_armed = t;
	return sim_heap_push(s, t, HEV_BW_TIMER, 0, 0);
}

/*
 * The period and slack timers due at @now: refill, distribute, unthrottle.
 * An idle CPU that got tasks back reschedules after the idle path's cost
 * (the kernel's unthrottle of a remote CPU is an IPI, done synchronously
 * here); a busy one at its next reschedule point.
 */
int sim_bw_timer(struct sim *s, uint64_t now)
{
	if (now != s->bw_armed)
		return 0;              /* a stale event: a newer one is armed */
	s->bw_armed = UINT64_MAX;
	model_run_timers(s->m, now);
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct sim_cpu *c = &s->cpus[cpu];

		if (!model_need_resched(s->m, cpu) || c->other >= 0)
			continue;
		if (sim_cpu_busy(c)) {
			if (sim_arm_resched(s, cpu, now))
				return -1;
		} else if (sim_arm_resched(s, cpu, now + sim_cost(s, WL_PATH_IDLE, CALIB_CTX_HARDIRQ, cpu,
							 0x30000000u | (uint32_t)cpu,
							 (uint32_t)(now / 1000), now))) {
			return -1;
		}
	}
	return 0;
}

/* ---- CPU stalls ----------------------------------------------------------- */

/*
 * --cpu-stalls traced: a traced stall of @cpu begins (struct wl_stall, its
 * trace time).  The vCPU runs nothing: the current task's work stops (its
 * progress charged up to here, none after: sim_charge()), its RUN's end, the
 * tick and a pending resched are withdrawn; the model's task stays current,
 * its exec_start where it was, so the next update_curr() charges it the
 * stall, as the kernel's did (no steal time reported: clock_task ran on).
 * A steal stall (--cpu-stalls steal, wl_stall.steal) is the same, but the
 * model's clock_task and clock_pelt stand still through it (its points in
 * model_config.clock_left, clock_left_for()), so nothing is charged for it.
 * Other CPUs still wake tasks onto it (the model's enqueue updates its
 * queue, as the kernel's remote ttwu did); their preemption waits.
 */
int sim_stall_in(struct sim *s, int cpu, uint64_t now, uint32_t i)
{
	struct sim_cpu *c = &s->cpus[cpu];
	const struct wl_stall *st = wl_stall_at(s->wl, i);

	if (c->stalled)
		return 0;
	if (st && st->steal)
		s->notes[SIM_NOTE_CPU_STEAL]++;
	else
		s->notes[SIM_NOTE_CPU_STALL]++;
	sim_charge(s, cpu, now);
	c->stalled = true;
	c->gen_op++;
	c->gen_tick++;
	c->tick_armed = false;
	if (c->resched_at != UINT64_MAX) {
		c->stall_resched = true;
		c->resched_at = UINT64_MAX;
		c->gen_resched++;
	}
	return 0;
}

/*
 * The stall ends: the tick it missed comes now (the expired tick timer
 * fires as the vCPU runs again; its update_curr() charges the stall, and
 * a task whose request ran out is preempted: tick_switch_delay() after),
 * then the grid's; the current task's work goes on, and a resched asked
 * for meanwhile is made.
 */
int sim_stall_out(struct sim *s, int cpu, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (!c->stalled)
		return 0;
	c->stalled = false;
	c->run_start = now;
	c->tick_armed = true;
	if (sim_heap_push(s, now, HEV_TICK, cpu, ++c->gen_tick) || sim_arm_op_done(s, cpu, now))
		return -1;
	if (c->stall_resched) {
		c->stall_resched = false;
		if (model_need_resched(s->m, cpu))
			return sim_arm_resched(s, cpu, now);
	}
	return 0;
}

/* The stalls' heap events, at the start (before the loop). */
int sim_stalls_arm(struct sim *s)
{
	if (s->cfg.cpu_stalls == REPLAY_CPU_STALLS_OFF)
		return 0;
	for (uint32_t i = 0; i < wl_nr_stalls(s->wl); i++) {
		const struct wl_stall *st = wl_stall_at(s->wl, i);

		if (st->cpu < 0 || st->cpu >= s->nr_cpus || st->end <= st->start)
			continue;
		if (sim_heap_push(s, st->start, HEV_STALL_IN, st->cpu, i) ||
		    sim_heap_push(s, st->end, HEV_STALL_OUT, st->cpu, i))
			return -1;
	}
	return 0;
}
