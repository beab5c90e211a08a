// SPDX-License-Identifier: GPL-2.0
/*
 * The replay simulation (sim.c), a task's own work: sim_run_ops() executes the
 * current task's ops from where it is (docs/replay.md, "Workload"), each op
 * as the kernel path it stands for on the task's own CPU:
 *   RUN            the task's CPU time (its end is a heap event, sim.c)
 *   WAKE           try_to_wake_up() by the running task (sim_deliver_wake(),
 *                  the waker's cost: waker_cost())
 *   BLOCK          __schedule() with the task going to sleep (block_op():
 *                  early wakes that still wake it, the channels' sleeps,
 *                  --join-reply's owed wakes)
 *   hand-off WAIT  the waiter's sleep until its wakee replies (wait_op(),
 *                  wait_check(), --handoff writeon*)
 *   syscall and tick marks, EXIT (do_exit() -> __schedule(), ops_done())
 * and the ops the other files hold: forks (sim_do_fork()), READ/WRITE
 * (sim_chan_op()), MIGRATE, EXEC_BALANCE and AFFINITY (sim_class.c).
 * Scheduling, wakeups and the mechanical costs are sim.c's.
 */
#include <inttypes.h>
#include <stdio.h>

#include <schedreplay/model.h>
#include <schedreplay/sim.h>

#include "calib.h"
#include "sim_local.h"

/* What a hand-off WAIT's dependency is checked after (wait_check()). */
enum wait_after {
	WAIT_AFTER_NONE,       /* the WAIT reached */
	WAIT_AFTER_HANDOVER,   /* the waker ran again after handing over at it */
	WAIT_AFTER_WRITEON,    /* the end of a write-on past it (--handoff writeon*) */
};

/*
 * `wait pid=P y=Y kind=KIND[-after-handover|-after-writeon]`: what became of
 * task @ti's hand-off WAIT for task @yi (WL_NONE: none, y=-1)
 */
static void dump_wait_op(struct sim *s, int cpu, uint64_t now, uint32_t ti, uint32_t yi,
			 const char *kind, enum wait_after after)
{
	static const char *const suffix[] = {
		[WAIT_AFTER_NONE] = "",
		[WAIT_AFTER_HANDOVER] = "-after-handover",
		[WAIT_AFTER_WRITEON] = "-after-writeon",
	};

	sim_dump_op(s, cpu, now, "wait pid=%d y=%d kind=%s%s", s->wt[ti].pid,
		    yi != WL_NONE ? s->wt[yi].pid : -1, kind, suffix[after]);
}

/* ---- a task's own work ----------------------------------------------------- */

/* --handoff writeon or writeon-pre (experimental) */
static bool writeon(const struct sim *s)
{
	return s->cfg.handoff == REPLAY_HANDOFF_WRITEON || s->cfg.handoff == REPLAY_HANDOFF_WRITEON_PRE;
}

/*
 * replay_config.handoff.  Task @ti, running on @cpu, has reached hand-off WAIT
 * @op (the point where the trace switched it out runnable after waking its
 * wakee Y) and the model did not preempt it at that wakeup.  The kernel had:
 * Y preempted it there, it stayed queued with its vruntime and deadline, Y
 * ran, read and slept, and it ran on.  Rather than a sleep that Y ends (a
 * sleep and a wakeup the kernel did not have, and a placement that clips its
 * lag and gives it a fresh deadline), it leaves runnable for Y, the switch
 * the trace shows: REPLAY_HANDOFF_PREEMPT as if the wakeup had preempted it
 * (model_preempt_for(): Y the next buddy, its state kept),
 * REPLAY_HANDOFF_SKIP the same on the clock of the kernel's preemption at
 * the wakeup (model_preempt_for_skip(): not charged here, no
 * sched_stat_runtime at the hand-off; REPLAY_HANDOFF_SKIP_WAKE charged up
 * to its wakeup of Y first), REPLAY_HANDOFF_YIELD as the kernel's
 * yield_to() (model_yield_to(): Y the
 * next buddy, the rest of its request given up).  Only with Y queued, not
 * running, on the same CPU, and once per WAIT (handed_op): if it runs
 * again before Y passed its block (Y not eligible, so not the pick; Y
 * preempted or moved), the old sleep follows; so does it when Y runs on
 * another CPU or sleeps.  With --handoff writeon*, at a one-way WAIT, no
 * hand-over here: it writes on (wo_wait, writeon_bound()).  1: done (the
 * caller schedules), 2: it writes on, 0: neither.
 */
static int handoff_over(struct sim *s, uint32_t ti, const struct wl_op *op, int cpu, uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];
	uint32_t yi = op->arg;
	struct sim_task *y = yi < s->nr_tasks ? &s->tasks[yi] : NULL;
	int r;

	if (s->cfg.handoff == REPLAY_HANDOFF_SLEEP || !y || y->op > op->value ||
	    t->handed_op == t->op || y->st != SIM_QUEUED || y->cpu != cpu || !y->mt ||
	    y->waiter != WL_NONE || (s->cfg.oneway_no_wait && op->aux == WL_WAIT_ONEWAY))
		return 0;
	if (op->aux == WL_WAIT_LATER) {
		/*
		 * --reply-in-run: it goes on, unless (--later-handover) the
		 * kernel's pick could have switched it out for Y: not both
		 * eligible and protected (helper mp45).
		 */
		if (!s->cfg.later_handover)
			return 0;
		r = model_curr_protected(s->m, cpu, y->mt);
		if (r != 0)
			return r < 0 ? -1 : 0;
		s->notes[SIM_NOTE_HANDOFF_LATER_OVER]++;
	}
	if (writeon(s) && op->aux == WL_WAIT_ONEWAY) {
		/* it writes on: writeon_bound() ends that */
		t->wo_wait = t->op;
		t->wo_out = false;
		t->wo_woke = false;
		s->notes[SIM_NOTE_HANDOFF_WRITEON]++;
		return 2;
	}
	if (s->cfg.handoff == REPLAY_HANDOFF_SKIP_WAKE && y->woken_by == ti && y->woken_ns <= now) {
		/*
		 * The kernel's preemption at the wakeup followed that
		 * wakeup's enqueue, whose update_curr() charged the waker
		 * (enqueue_entity()); a simulated wake that found the wakee
		 * short of its block (early) enqueued nothing: charge it to
		 * there, so that only the time since goes to the wakee.
		 */
		r = model_charge_curr(s->m, cpu, y->woken_ns);
		if (r < 0)
			return -1;
	}
	r = s->cfg.handoff == REPLAY_HANDOFF_YIELD ? model_yield_to(s->m, cpu, y->mt, now) :
	    s->cfg.handoff == REPLAY_HANDOFF_SKIP || s->cfg.handoff == REPLAY_HANDOFF_SKIP_WAKE ?
		model_preempt_for_skip(s->m, cpu, y->mt) : model_preempt_for(s->m, cpu, y->mt, now);
	if (r <= 0)
		return r;
	t->handed_op = t->op;
	s->notes[SIM_NOTE_HANDOFF_OVER]++;
	return 1;
}

/*
 * Task @ti sleeps in hand-off WAIT @op (of its wakee @yi) until the wakee has
 * passed the block the WAIT names; the wakee wakes it (sim_handoff_release()).
 */
static int wait_sleep(struct sim *s, int cpu, uint32_t ti, uint32_t yi, const struct wl_op *op,
		      uint64_t now)
{
	struct sim_task *t = &s->tasks[ti], *y = &s->tasks[yi];

	y->waiter = ti;
	y->waiter_op = (uint32_t)op->value;
	y->waiter_signal = op->aux == WL_WAIT_SIGNAL;
	t->st = SIM_BLOCKED;
	t->waiting = WL_NONE;
	t->wait_asleep = true;
	if (y->st == SIM_RUNNING && y->cpu != cpu && y->cpu >= 0 &&
	    s->cpus[y->cpu].curr == (int32_t)yi) {
		/* its reply may be due before its current RUN ends */
		sim_charge(s, y->cpu, now);
		if (sim_arm_op_done(s, y->cpu, now))
			return -1;
	}
	return sim_schedule_ex(s, cpu, MODEL_PREV_SLEEP, 1 /* S */, now);
}

/*
 * The dependency of task @ti (current on @cpu) on hand-off WAIT @op, checked
 * when it reaches the WAIT (@after: WAIT_AFTER_NONE, or _HANDOVER when it
 * runs again after handing over there) or at the end of a write-on past it
 * (WAIT_AFTER_WRITEON): it goes on if its wakee has passed the block the
 * WAIT names (or cannot: a channel sleep stands for that block, another
 * waiter holds the wakee, a one-way flow under --oneway-no-wait), else it
 * sleeps until then.  -1 error, 0 it goes on, 1 it slept (the CPU is
 * rescheduled).
 */
static int wait_check(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op,
		      enum wait_after after, uint64_t now)
{
	uint32_t yi = op->arg;
	struct sim_task *y = yi < s->nr_tasks ? &s->tasks[yi] : NULL;

	if (!y || y->op > op->value || y->st == SIM_UNBORN || y->st == SIM_DEAD) {
		/* the wakee is past that block already */
		dump_wait_op(s, cpu, now, ti, y ? yi : WL_NONE, "passed", after);
		return 0;
	}
	if (y->st == SIM_BLOCKED && y->chan_asleep) {
		/* it sleeps in a channel op: the block the wait stands for */
		s->notes[SIM_NOTE_CHAN_WAIT_RELEASED]++;
		return 0;
	}
	if (op->aux == WL_WAIT_LATER) {
		/*
		 * Not preempted, and the wakee answers only after a sleep of
		 * its own (--reply-in-run): nothing here waits for its run;
		 * the sleep its reply ends carries the dependency.
		 */
		s->notes[SIM_NOTE_HANDOFF_LATER]++;
		dump_wait_op(s, cpu, now, ti, yi, "later", WAIT_AFTER_NONE);
		return 0;
	}
	if (s->cfg.oneway_no_wait && op->aux == WL_WAIT_ONEWAY) {
		/*
		 * Not preempted, in a one-way flow: nothing after this point
		 * depends on the wakee's work (it never answers), so the
		 * writer writes on, as the kernel's does
		 * (replay_config.oneway_no_wait).
		 */
		s->notes[SIM_NOTE_HANDOFF_ONEWAY]++;
		dump_wait_op(s, cpu, now, ti, yi, "oneway", WAIT_AFTER_NONE);
		return 0;
	}
	if (y->waiter != WL_NONE) {
		s->notes[SIM_NOTE_HANDOFF_BUSY]++;
		dump_wait_op(s, cpu, now, ti, yi, "busy", WAIT_AFTER_NONE);
		return 0;
	}
	s->notes[SIM_NOTE_HANDOFF_WAIT]++;
	dump_wait_op(s, cpu, now, ti, yi, "slept", after);
	if (after == WAIT_AFTER_HANDOVER)
		s->notes[SIM_NOTE_HANDOFF_OVER_SLEPT]++;
	return wait_sleep(s, cpu, ti, yi, op, now) ? -1 : 1;
}

/*
 * --handoff writeon: the end of task @ti's write-on past a one-way WAIT
 * (wo_wait): that WAIT's dependency is checked now (wait_check()).
 */
static int writeon_resolve(struct sim *s, int cpu, uint32_t ti, uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];
	const struct wl_op *op = &s->ops[s->wt[ti].first_op + t->wo_wait];

	t->wo_wait = WL_NONE;
	t->wo_out = false;
	return wait_check(s, cpu, ti, op, WAIT_AFTER_WRITEON, now);
}

/*
 * --handoff writeon / writeon-pre: task @ti, current on @cpu, wrote on past a
 * one-way WAIT (wo_wait) and has reached its next wakeup (after it with
 * writeon, before it with writeon-pre) or its next hand-off WAIT without
 * leaving its CPU.  The kernel's writer would meet the wakeup preemption
 * check there again; the pending hand-over is made now if the WAIT's wakee
 * is still queued behind it on this CPU and has not passed its block (as
 * --handoff preempt: model_preempt_for(), charged here, for X ran on since
 * the WAIT's wakeup); else, or when X is picked again, the WAIT's dependency
 * is checked (writeon_resolve()).  -1 error, 0 X goes on, 1 X left the CPU.
 */
static int writeon_bound(struct sim *s, int cpu, uint32_t ti, uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];
	const struct wl_op *op = &s->ops[s->wt[ti].first_op + t->wo_wait];
	uint32_t yi = op->arg;
	struct sim_task *y = yi < s->nr_tasks ? &s->tasks[yi] : NULL;
	uint32_t w = t->wo_wait;

	if (y && y->op <= op->value && y->st == SIM_QUEUED && y->cpu == cpu && y->mt &&
	    y->waiter == WL_NONE) {
		int r = model_preempt_for(s->m, cpu, y->mt, now);

		if (r < 0)
			return -1;
		if (r > 0) {
			s->notes[SIM_NOTE_HANDOFF_OVER]++;
			dump_wait_op(s, cpu, now, ti, yi, "handover", WAIT_AFTER_NONE);
			if (sim_schedule_ex(s, cpu, MODEL_PREV_RUNNABLE, 0, now))
				return -1;
			/*
			 * Switched out (and maybe back in, its sim_run_ops()
			 * checked the WAIT then): done.  Picked again at once
			 * (Y not the pick): the WAIT is checked now.
			 */
			if (s->cpus[cpu].curr != (int32_t)ti || t->wo_wait != w || t->wo_out)
				return 1;
		}
	}
	return writeon_resolve(s, cpu, ti, now);
}

/*
 * replay_config.waker_costs.  Task @ti, on @cpu, has just woken or
 * forked the wakee of wake record @w, which wake_task() / sim_do_fork() put on
 * s->woke_cpu (-1: no wakeup happened now: early, spurious, not born).  The
 * trace's waker spent a remote wakeup's cost in the RUN after the wakeup
 * (the remote enqueue or the wake list's queueing and the IPI:
 * ttwu_queue_wakelist(), __smp_call_single_queue(),
 * send_call_function_single_ipi(); a VM exit on a VM): where the simulated
 * locality differs from the trace's, that RUN loses (traced remote,
 * simulated local) or gains (traced local, simulated remote) a cost drawn
 * for the remote class (target idle or busy: the trace's when removed, the
 * simulation's when added) by calib_draw_waker(), seeded as the other
 * mechanical costs and the same for every variant.  Only a RUN that follows
 * the wakeup directly; a removal leaves at least 1 ns of it.  Under
 * REPLAY_WAKER_PLACED only a wakee the simulation put on another CPU than
 * the trace's counts; under REPLAY_WAKER_FOLLOW also a waker that runs on
 * another CPU than the trace's.
 */
static void waker_cost(struct sim *s, uint32_t ti, int cpu, int ctx, const struct wl_wake *w)
{
	struct sim_task *t = &s->tasks[ti];
	bool traced_remote, sim_remote;
	uint64_t d;

	if (s->cfg.waker_costs == REPLAY_WAKER_TRACED || s->woke_cpu < 0 || !w || w->cpu < 0 ||
	    w->waker_cpu < 0 || t->run_left == 0 ||
	    (s->cfg.waker_costs == REPLAY_WAKER_PLACED && s->woke_cpu == w->cpu))
		return;
	traced_remote = w->cpu != w->waker_cpu;
	sim_remote = s->woke_cpu != cpu;
	if (traced_remote == sim_remote)
		return;
	if (traced_remote) {
		d = calib_draw_waker(s->calib, ctx, w->path == WL_PATH_IDLE ?
				     CALIB_WAKER_REMOTE_IDLE : CALIB_WAKER_REMOTE_BUSY,
				     w->target, w->seq, s->cfg.seed);
		t->run_left = t->run_left > d ? t->run_left - d : 1;
		s->notes[SIM_NOTE_WAKER_COST_REMOVED]++;
	} else {
		d = calib_draw_waker(s->calib, ctx, s->woke_idle ? CALIB_WAKER_REMOTE_IDLE :
				     CALIB_WAKER_REMOTE_BUSY, w->target, w->seq, s->cfg.seed);
		t->run_left += d;
		s->notes[SIM_NOTE_WAKER_COST_ADDED]++;
	}
}

/* the system call task @ti enters at op @op has its exit mark in the trace */
static bool exit_mark_follows(const struct sim *s, uint32_t ti, uint32_t op)
{
	const struct wl_task *w = &s->wt[ti];

	for (op++; op < w->nr_ops; op++) {
		const struct wl_op *o = &s->ops[w->first_op + op];

		if (o->kind == WL_OP_SYSCALL)
			return o->aux == WL_SYSCALL_EXIT;
		if (o->kind == WL_OP_EXIT)
			return false;
	}
	return false;
}

/*
 * --resched-at syscall-exit: task @ti's ops from @op on are at most one RUN
 * (the exit path's work after the exit mark, up to the switch the trace
 * shows) and zero-time ops, then a hand-off WAIT: the trace's switch point.
 */
bool sim_wait_follows(const struct sim *s, uint32_t ti, uint32_t op)
{
	const struct wl_task *w = &s->wt[ti];
	bool run = false;

	for (; op < w->nr_ops; op++) {
		uint8_t k = s->ops[w->first_op + op].kind;

		if (k == WL_OP_WAIT)
			return true;
		if (k == WL_OP_RUN && !run)
			run = true;
		else if (k != WL_OP_COMM && k != WL_OP_EXEC_BALANCE && k != WL_OP_NICE &&
			 k != WL_OP_PI_SETPRIO && k != WL_OP_AFFINITY)
			return false;
	}
	return false;
}

/*
 * WL_OP_WAKE of task @ti on @cpu: it wakes the op's wakee (try_to_wake_up())
 * and pays the waker's side of that wakeup (waker_cost()); in a write-on
 * (--handoff writeon) the wakeup after its bound hands over
 * (writeon_bound()).  1 passed (the caller goes to the next op), 0 sim_run_ops()
 * is done, -1 on error.
 */
static int wake_op(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op, uint64_t now)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	struct sim_task *t = &s->tasks[ti];
	struct sim_task *y = &s->tasks[s->wakes[op->arg].target];
	int r;

	t->op++;
	sim_task_enter_op(s, ti);
	s->woke_cpu = -1;
	if (sim_deliver_wake(s, op->arg, cpu, now) || sim_handoff_release(s, ti, cpu, false, now))
		return -1;
	if (s->cfg.handoff == REPLAY_HANDOFF_SKIP_WAKE) {
		/* the clock its enqueue read (handoff_over()) */
		y->woken_by = ti;
		y->woken_ns = now + sim_wake_clock_delay(s, cpu, cpu);
	}
	waker_cost(s, ti, cpu, CALIB_WAKER_TASK, &s->wakes[op->arg]);
	if (t->wo_wait == WL_NONE || t->wo_out)
		return 1;
	t->wo_woke = true;
	if (s->cfg.handoff == REPLAY_HANDOFF_WRITEON && c->curr == (int32_t)ti &&
	    c->other < 0 && !model_need_resched(s->m, cpu)) {
		/*
		 * Its next wakeup did not preempt it either:
		 * the pending hand-over (writeon_bound()).
		 */
		if ((r = writeon_bound(s, cpu, ti, now)) < 0)
			return -1;
		if (r > 0)
			return 0;
	}
	return 1;
}

/*
 * WL_OP_SYSCALL of task @ti on @cpu: a traced read or write begins or
 * returns (--resched-at syscall-exit).  At its return to user space with
 * need_resched set by its wakee in the call, exit_to_user_mode_loop()'s
 * schedule(), here.  1 passed (the caller goes to the next op), 0 it left
 * the CPU, -1 on error.
 */
static int syscall_op(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_task *t = &s->tasks[ti];
	bool exit_resched;

	t->in_sys = op->aux == WL_SYSCALL_ENTER && exit_mark_follows(s, ti, t->op);
	exit_resched = !t->in_sys && c->resched_deferred;
	if (exit_resched)
		c->resched_deferred = false;
	t->op++;
	sim_task_enter_op(s, ti);
	if (!exit_resched || !model_need_resched(s->m, cpu))
		return 1;
	if (sim_wait_follows(s, ti, t->op)) {
		/*
		 * The trace switched it out at that hand-off
		 * WAIT, after the exit path's work: it runs on
		 * to it, where it leaves (the WAIT below).
		 */
		c->resched_deferred = true;
		s->notes[SIM_NOTE_RESCHED_AT_WAIT]++;
		return 1;
	}
	s->notes[SIM_NOTE_RESCHED_AT_EXIT]++;
	if (c->resched_due > now)
		return sim_arm_resched(s, cpu, c->resched_due) ? -1 : 1;
	return sim_do_schedule(s, cpu, MODEL_PREV_RUNNABLE, now);
}

/*
 * WL_OP_PREEMPT of task @ti on @cpu: the trace switched it out runnable here
 * at a tick (--tick-preempt-at traced).  The kernel's tick there made
 * update_curr() (sched_tick() -> task_tick_fair() -> entity_tick()), whose
 * update_deadline() asks for the resched once the request has run out: the
 * model makes that charge here, and a task whose request has run out (or
 * whose CPU has a resched pending, not one left to a system call's exit)
 * leaves here, the tick's switch at the traced point of its work.  The model
 * decides whether it is preempted; its grid ticks go on as before.  1 passed
 * (the caller goes to the next op), 0 it left the CPU, -1 on error.
 */
static int tick_mark_op(struct sim *s, int cpu, uint32_t ti, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_task *t = &s->tasks[ti];

	t->op++;
	sim_task_enter_op(s, ti);
	if (s->cfg.tick_preempt_at != REPLAY_TICK_PREEMPT_TRACED || c->curr != (int32_t)ti ||
	    c->other >= 0 || c->resched_deferred || t->in_sys || t->exiting ||
	    model_nr_queued(s->m, cpu) < 2)
		return 1;
	s->notes[SIM_NOTE_TICK_MARK]++;
	if (!model_need_resched(s->m, cpu)) {
		sim_charge(s, cpu, now);
		if (model_charge_curr(s->m, cpu, now) < 0)
			return -1;
		if (!model_need_resched(s->m, cpu))
			return 1;
	}
	s->notes[SIM_NOTE_TICK_MARK_PREEMPT]++;
	sim_dump_op(s, cpu, now, "tickmark pid=%d", s->wt[ti].pid);
	return sim_do_schedule(s, cpu, MODEL_PREV_RUNNABLE, now);
}

/*
 * WL_OP_WAIT of task @ti on @cpu, a waker at its hand-off to its wakee
 * (docs/replay.md, "Hand-offs"): 1 passed (the caller goes to the next op),
 * 0 it left the CPU or sleeps there (sim_run_ops() is done), -1 on error.
 */
static int wait_op(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op, uint64_t now)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	struct sim_task *t = &s->tasks[ti];
	uint32_t yi = op->arg;
	struct sim_task *y = yi < s->nr_tasks ? &s->tasks[yi] : NULL;
	int r;

	if (model_need_resched(s->m, cpu) && c->resched_deferred && !t->in_sys) {
		/* --resched-at syscall-exit: its exit's schedule() */
		dump_wait_op(s, cpu, now, ti, yi, "preempted", WAIT_AFTER_NONE);
		return sim_do_schedule(s, cpu, MODEL_PREV_RUNNABLE, now);
	}
	if (y && y->op <= op->value && model_need_resched(s->m, cpu)) {
		/*
		 * A preemption is on its way: the waker reached
		 * the point where the trace switched it out, and
		 * the rest of its system call since the wakeup
		 * (the RUN before this op) was that wakeup's
		 * mechanism.  It leaves runnable now; the wait is
		 * checked again when it runs next.
		 */
		dump_wait_op(s, cpu, now, ti, yi, "preempted", WAIT_AFTER_NONE);
		return sim_do_schedule(s, cpu, MODEL_PREV_RUNNABLE, now);
	}
	switch (handoff_over(s, ti, op, cpu, now)) {
	case -1:
		return -1;
	case 2:
		/* one-way, --handoff writeon*: it writes on */
		dump_wait_op(s, cpu, now, ti, yi, "writeon", WAIT_AFTER_NONE);
		t->op++;
		sim_task_enter_op(s, ti);
		return 1;
	case 1:
		dump_wait_op(s, cpu, now, ti, yi, "handover", WAIT_AFTER_NONE);
		/* the wait is checked again when it runs next */
		return sim_schedule_ex(s, cpu, MODEL_PREV_RUNNABLE,
				       s->cfg.handoff == REPLAY_HANDOFF_YIELD ?
				       SIM_STATE_YIELD : 0, now);
	default:
		break;
	}
	t->op++;
	sim_task_enter_op(s, ti);
	r = wait_check(s, cpu, ti, op, t->handed_op == t->op - 1 ?
		       WAIT_AFTER_HANDOVER : WAIT_AFTER_NONE, now);
	return r < 0 ? -1 : r > 0 ? 0 : 1;
}

/*
 * WL_OP_BLOCK of task @ti on @cpu: it sleeps (try_to_block_task() and
 * __schedule()) until its wake, unless that wake came early (before the
 * block here: it sleeps and is woken at once, or skips the block), or the
 * block is a channel's (sim_chan_wait()).  1 passed (the caller goes to the
 * next op), 0 it left the CPU (sim_run_ops() is done), -1 on error.
 */
static int block_op(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op, uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];
	uint32_t wi;
	enum model_prev how = op->aux == WL_BLOCK_SPECIAL ? MODEL_PREV_SPECIAL :
		MODEL_PREV_SLEEP;

	if (s->join_sib) {
		/*
		 * --join-reply: the last of a join's two tasks to finish
		 * makes the wake (the probe's worker that brings its
		 * pending counter to 0, futex_wake() before its
		 * futex_wait()); a preemption it brings lands before the
		 * block, which comes when it runs next.
		 */
		uint32_t jw = sim_join_owed(s, ti);

		t->join_skip = WL_NONE;
		if (jw != WL_NONE) {
			s->woke_cpu = -1;
			if (sim_deliver_wake(s, jw, cpu, now))
				return -1;
			waker_cost(s, ti, cpu, CALIB_WAKER_TASK, &s->wakes[jw]);
			sim_dump_op(s, cpu, now, "joinwake pid=%d trace=%" PRIu64, s->wt[ti].pid,
				    s->wakes[jw].ts);
			if (model_need_resched(s->m, cpu))
				return sim_do_schedule(s, cpu, MODEL_PREV_RUNNABLE, now);
		}
	}
	if ((s->cfg.standin_skip == REPLAY_STANDIN_SKIP_BLOCK_PREEMPT ||
	     s->cfg.standin_skip == REPLAY_STANDIN_SKIP_BLOCK_CHARGE) &&
	    s->cpus[cpu].skip_standin && s->cpus[cpu].resched_at != UINT64_MAX &&
	    model_need_resched(s->m, cpu)) {
		/*
		 * --standin-skip block-preempt: a preemption only
		 * a stand-in's wakeup asked for is pending; the
		 * kernel's would have landed at this task's
		 * return to user space, before the system call
		 * it blocks in: preempted here (on the skipped
		 * clock), it blocks when it next runs.
		 * block-charge: its work so far is what the
		 * kernel's task ran after that preemption, up
		 * to this block: charged here (the clock
		 * updated), not to the wakee.
		 */
		s->notes[SIM_NOTE_STANDIN_BLOCK_PREEMPT]++;
		if (s->cfg.standin_skip == REPLAY_STANDIN_SKIP_BLOCK_CHARGE)
			model_clock_skip_cancel(s->m, cpu);
		return sim_do_schedule(s, cpu, MODEL_PREV_RUNNABLE, now);
	}
	if (op->aux & WL_BLOCK_CHANNEL) {
		/*
		 * A sleep in a channel op, ended in the trace by
		 * the channel's other end: the READ/WRITE that
		 * follows sleeps if the channel says so.  Passed
		 * here (a hand-off waiter for it goes on).
		 */
		t->op++;
		sim_task_enter_op(s, ti);
		if (sim_handoff_release(s, ti, cpu, false, now))
			return -1;
		/* -1 error, 0 asleep, 1 the channel let it go on */
		return sim_chan_wait(s, cpu, ti, now);
	}
	wi = sim_block_wake(s, ti, t->op);

	if (wi != WL_NONE && !s->early[wi])
		wi = sim_chan_take_early(s, ti, t->op, wi);
	t->op++;
	sim_task_enter_op(s, ti);
	if (sim_handoff_release(s, ti, cpu, false, now))
		return -1;
	if (wi != WL_NONE && s->early[wi] && t->released_block == t->op - 1) {
		s->early[wi] = 0;
		t->released_block = WL_NONE;
		s->notes[SIM_NOTE_HANDOFF_NO_BLOCK]++;
		sim_dump_op(s, cpu, now, "noblock pid=%d trace=%" PRIu64, s->wt[ti].pid,
			    s->wakes[wi].ts);
		return 1;
	}
	if (wi != WL_NONE && s->early[wi]) {
		const struct wl_wake *w = &s->wakes[wi];

		s->early[wi] = 0;
		if (sim_early_wake_wakes(s, w)) {
			/*
			 * The task still sleeps there and is woken at
			 * once (the trace raced like this, or: a block
			 * in the trace is evidence of a dependency the
			 * trace may not show, see docs/replay.md).
			 */
			bool race = w->flags & WL_WAKE_ON_CPU;

			/*
			 * A race in the trace: the waking came
			 * while it was still on its CPU (no
			 * latency sample).  Else the waker only
			 * ran ahead in the simulation: the wakeup
			 * follows the sleep, as it did in the
			 * trace.
			 */
			if (race && sim_emit_wake_event(s, TRACE_EV_SCHED_WAKING, ti, cpu, cpu,
							s->wt[ti].pid, now))
				return -1;
			t->st = SIM_BLOCKED;
			t->waiting = wi;
			if (sim_schedule_lead(s, cpu, how, (int64_t)op->value,
					      sim_block_lead(s, op), now))
				return -1;
			if (t->st != SIM_BLOCKED || t->waiting != wi)
				return 0;
			if (race)
				return sim_wake_now(s, wi, cpu, SIM_WAKE_WAKING_EMITTED, now);
			return sim_early_standin_wake(s, ti, wi, now);
		}
		/*
		 * The condition was true before it slept: no
		 * sleep, and no wakeup either.  The kernel's
		 * waker wakes only tasks on the wait queue
		 * (__wake_up_common(): pipe_write() on
		 * pipe->rd_wait, sock_def_readable(),
		 * futex_wake()), and a reader that finds its
		 * data (pipe_read() with the pipe not empty)
		 * never joins it: no try_to_wake_up(), no
		 * sched_waking or sched_wakeup.
		 */
		s->notes[SIM_NOTE_BLOCK_SKIPPED]++;
		sim_dump_op(s, cpu, now, "skipblock pid=%d trace=%" PRIu64, s->wt[ti].pid,
			    w->ts);
		return 1;
	}
	t->st = SIM_BLOCKED;
	t->waiting = wi;
	return sim_schedule_lead(s, cpu, how, (int64_t)op->value, sim_block_lead(s, op), now);
}

/*
 * --resched-at next-wake: the current task @ti of @cpu is at its wake @op
 * with a switch armed on its CPU and not yet due.  On the preempt=none
 * capture kernel resched_curr() only set TIF_NEED_RESCHED, honoured at the
 * return to user space of the system call it is in (exit_to_user_mode_loop()
 * -> schedule()); that wake, taken as the next call's, comes after it.  Not
 * inside a traced read or write (--resched-at syscall-exit's marks), nor past
 * an EXIT_MOVE (its final __schedule() picks), nor at a wake the trace shows
 * in the call of the task's previous one (WL_WAKE_OP_IN_CALL: the kernel's
 * flag stayed set from that wake to this one, so it had not returned to user
 * space): it has no return to user space before it.
 */
static bool exit_to_user_mode_loop(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op,
				   uint64_t now)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	if (s->cfg.resched_at != REPLAY_RESCHED_NEXT_WAKE || c->resched_at == UINT64_MAX ||
	    c->resched_at <= now || c->resched_deferred || s->tasks[ti].exiting ||
	    s->tasks[ti].in_sys || !model_need_resched(s->m, cpu))
		return false;
	if (op->aux & WL_WAKE_OP_IN_CALL) {
		s->notes[SIM_NOTE_RESCHED_WAKE_IN_CALL]++;
		return false;
	}
	return true;
}

/*
 * Current task @ti of @cpu has no op left: it runs on to the trace end if
 * the trace ended while it ran, or while it is runnable if its fair record
 * ends queued at a boost to the RT class (WL_T_CLASS_LEAVE, later), else it
 * sleeps for good.  sim_run_ops() is done:
 * 0, or -1 on error.
 */
static int ops_done(struct sim *s, int cpu, uint32_t ti, uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];

	if (s->wt[ti].running_at_end && !s->past_end) {
		/*
		 * The trace ended while it ran: it runs on, up to the trace
		 * end; past it (the others finishing their traced work) its
		 * demand is unknown, so it stops there.
		 */
		t->run_left = SIM_FOREVER;
		return sim_arm_op_done(s, cpu, now);
	}
	if (s->wt[ti].class_leave_ts > now && !s->past_end) {
		/*
		 * Its fair record ends queued at a boost to the RT class (the
		 * trace: preempted by the RT waiter it woke, then boosted by
		 * it; class_split()): it was runnable up to there, its work
		 * going on in its RT record.  It runs on until it is
		 * preempted or the boost comes (WL_T_CLASS_LEAVE), rather
		 * than sleep and leave its CPU idle.
		 */
		s->notes[SIM_NOTE_CLASS_LEAVE_RUN_ON]++;
		t->run_left = SIM_FOREVER;
		return sim_arm_op_done(s, cpu, now);
	}
	/*
	 * Its traced work is done, earlier than in the trace, and the trace
	 * does not say it ran at the end (it was queued, or a filtered capture
	 * never showed it leave): no known demand is left.
	 */
	if (!s->past_end)
		s->notes[SIM_NOTE_OPS_DONE]++;
	t->st = SIM_BLOCKED;
	t->waiting = WL_NONE;
	return sim_schedule_ex(s, cpu, MODEL_PREV_SLEEP, 1 /* S */, now);
}

/*
 * The current task of @cpu executes its ops from where it is, until a RUN op
 * with time left (then its completion is armed), a block or an exit.
 */
int sim_run_ops(struct sim *s, int cpu, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int r;

	while (c->curr >= 0 && c->other < 0) {
		uint32_t ti = (uint32_t)c->curr;
		struct sim_task *t = &s->tasks[ti];
		const struct wl_op *op = sim_cur_op(s, t, ti);

		if (t->wo_wait != WL_NONE &&
		    (t->wo_out || (op && (op->kind == WL_OP_WAIT ||
					  (op->kind == WL_OP_WAKE &&
					   (t->wo_woke ||
					    s->cfg.handoff == REPLAY_HANDOFF_WRITEON_PRE)))))) {
			/*
			 * The end of a write-on (--handoff writeon*): it left
			 * its CPU since, or it is at its bound - its next
			 * WAIT, its next wakeup (writeon-pre) or the one after
			 * (writeon: the next one was made, and a preemption
			 * it brought has not come yet).  With a preemption
			 * on its way it leaves there, runnable, as at a WAIT.
			 */
			if (!t->wo_out && model_need_resched(s->m, cpu)) {
				dump_wait_op(s, cpu, now, ti, s->ops[s->wt[ti].first_op + t->wo_wait].arg,
					     "preempted", WAIT_AFTER_NONE);
				return sim_do_schedule(s, cpu, MODEL_PREV_RUNNABLE, now);
			}
			r = t->wo_out ? writeon_resolve(s, cpu, ti, now) : writeon_bound(s, cpu, ti, now);
			if (r < 0)
				return -1;
			if (r > 0)
				return 0;
			continue;
		}
		if (!op)
			return ops_done(s, cpu, ti, now);
		switch (op->kind) {
		case WL_OP_RUN:
			if (sim_reply_due(s, t) && t->run_left <= sim_reply_tail(s) &&
			    sim_handoff_release(s, ti, cpu, true, now))
				return -1;
			if (c->curr != (int32_t)ti || c->other >= 0)
				return 0;
			if (t->run_left > 0)
				goto armed;
			break;
		case WL_OP_READ:
		case WL_OP_WRITE:
			/* -1 error, 0 asleep on the channel, 1 done: the next op */
			if ((r = sim_chan_op(s, cpu, ti, op, now)) <= 0)
				return r;
			continue;
		case WL_OP_WAKE:
			if (s->join_sib && sim_join_defer(s, ti, op->arg)) {
				/*
				 * --join-reply: the join's other task has not
				 * finished its work; it makes this wake at its
				 * block (block_op()).
				 */
				sim_dump_op(s, cpu, now, "joindefer pid=%d z=%d trace=%" PRIu64,
					    s->wt[ti].pid, s->wt[s->join_sib[op->arg]].pid,
					    s->wakes[op->arg].ts);
				t->op++;
				sim_task_enter_op(s, ti);
				continue;
			}
			if (exit_to_user_mode_loop(s, cpu, ti, op, now)) {
				s->notes[SIM_NOTE_RESCHED_WAKE]++;
				sim_dump_op(s, cpu, now, "nextwake pid=%d trace=%" PRIu64,
					    s->wt[ti].pid, s->wakes[op->arg].ts);
				return sim_do_schedule(s, cpu, MODEL_PREV_RUNNABLE, now);
			}
			/*
			 * a PI deboost's resched held for this wake: armed by
			 * it (the wakee here) or by the next RUN
			 */
			t->resched_after_wake = false;
			/* -1 error, 0 it handed over, 1 the next op */
			if ((r = wake_op(s, cpu, ti, op, now)) <= 0)
				return r;
			continue;
		case WL_OP_FORK:
			t->op++;
			sim_task_enter_op(s, ti);
			s->woke_cpu = -1;
			if (sim_do_fork(s, op->arg, cpu, s->wt[ti].pid, now))
				return -1;
			waker_cost(s, ti, cpu, CALIB_WAKER_FORK, op->arg < s->nr_tasks &&
				   s->wt[op->arg].init_wake != WL_NONE ?
				   &s->wakes[s->wt[op->arg].init_wake] : NULL);
			continue;
		case WL_OP_COMM:
		case WL_OP_EXEC_BALANCE:
			/* an exec balances here unless the workload marks its point */
			if ((op->kind == WL_OP_EXEC_BALANCE ? sim_exec_marked(s) :
			     op->aux == WL_COMM_EXEC && !sim_exec_marked(s)) &&
			    s->cfg.placement == REPLAY_PLACEMENT_MODEL && !t->exec_balanced) {
				/* -1 error, 0 it left the CPU, 1 it stays: the op next */
				t->exec_balanced = true;
				if ((r = sim_sched_exec(s, cpu, ti, now)) <= 0)
					return r;
			}
			t->exec_balanced = false;
			if (op->kind == WL_OP_COMM)
				snprintf(t->comm, TRACE_COMM_LEN, "%s", wl_string(s->wl, op->arg));
			break;
		case WL_OP_SYSCALL:
			/* -1 error, 0 it left the CPU, 1 the next op */
			if ((r = syscall_op(s, cpu, ti, op, now)) <= 0)
				return r;
			continue;
		case WL_OP_PREEMPT:
			/* -1 error, 0 it left the CPU, 1 the next op */
			if ((r = tick_mark_op(s, cpu, ti, now)) <= 0)
				return r;
			continue;
		case WL_OP_AFFINITY:
			/* -1 error, 0 it left the CPU, 1 the next op */
			sim_charge(s, cpu, now);
			if ((r = sim_affinity_op(s, cpu, ti, op, now)) <= 0)
				return r;
			continue;
		case WL_OP_MIGRATE: {
			int dst = (int)op->arg;

			t->op++;
			sim_task_enter_op(s, ti);
			if (s->cfg.placement != REPLAY_PLACEMENT_TRACE || dst < 0 || dst >= s->nr_cpus)
				continue;
			return sim_self_migrate(s, cpu, ti, (uint32_t)op->value, dst, now);
		}
		case WL_OP_WAIT:
			if (s->join_sib && op->arg == t->join_skip) {
				/* --join-reply: its wake of that task went to the other */
				t->op++;
				sim_task_enter_op(s, ti);
				continue;
			}
			/* -1 error, 0 it left the CPU or sleeps, 1 passed */
			if ((r = wait_op(s, cpu, ti, op, now)) <= 0)
				return r;
			continue;
		case WL_OP_BLOCK:
			/* -1 error, 0 it left the CPU, 1 no sleep: the next op */
			if ((r = block_op(s, cpu, ti, op, now)) <= 0)
				return r;
			/*
			 * No sleep after all (its wake came first): a PI boost's
			 * resched left for this block is taken at the return to
			 * user space instead, armed at the next RUN.
			 */
			t->resched_at_block = false;
			continue;
		case WL_OP_NICE:
			/*
			 * set_user_nice() in this run: the model dequeues,
			 * reweights and requeues it (reweight_task_fair(),
			 * charged to here first); prio_changed_fair()'s
			 * resched_curr() for a lower priority is honoured below,
			 * as a wakeup's by this task would be.  A no-op when
			 * nice_before_wake() applied it already.
			 */
			sim_charge(s, cpu, now);
			sim_set_nice(s, ti, op, now);
			break;
		case WL_OP_PI_SETPRIO:
			/*
			 * rt_mutex_setprio() of another task made in this run:
			 * its dequeue charges this CPU's current first when the
			 * task is queued here; prio_changed_fair()'s
			 * resched_curr() or wakeup_preempt() is honoured below.
			 */
			sim_charge(s, cpu, now);
			r = model_need_resched(s->m, cpu);
			if (sim_pi_setprio(s, cpu, ti, op, now))
				return -1;
			if (!r && model_need_resched(s->m, cpu)) {
				if (sim_runs_then_blocks(s, ti))
					t->resched_at_block = true;
				else if (op->arg == ti && sim_runs_then_wakes(s, ti))
					t->resched_after_wake = true;
			}
			break;
		case WL_OP_EXIT_MOVE:
			/*
			 * do_exit()'s sched_move_task(): its dequeue charges the
			 * task, its resched_curr() is honoured by the final
			 * __schedule() of the EXIT that follows (no preemption
			 * point in between on a preempt=none kernel).
			 */
			sim_charge(s, cpu, now);
			if (model_task_exit_move(s->m, t->mt, now) == 0)
				t->exiting = true;
			break;
		case WL_OP_WAKE_OTHER:
			/*
			 * the stopper this task wakes on its CPU (its WL_OP_MIGRATE
			 * follows); under --placement model sched_exec() decides
			 * and wakes the stopper itself
			 */
			if (op->arg < s->nr_tasks && s->cfg.placement == REPLAY_PLACEMENT_TRACE &&
			    (((op->value & 1) && sim_emit_wake_event(s, TRACE_EV_SCHED_WAKING, op->arg, cpu,
								   cpu, s->wt[ti].pid, now)) ||
			     ((op->value & 2) && sim_emit_wake_event(s, TRACE_EV_SCHED_WAKEUP, op->arg, cpu,
								   cpu, s->wt[ti].pid, now))))
				return -1;
			break;
		case WL_OP_EXIT:
			t->op++;
			if (sim_handoff_release(s, ti, cpu, false, now))
				return -1;
			t->st = SIM_DEAD;
			return sim_schedule_ex(s, cpu, MODEL_PREV_DEAD, (int64_t)op->value, now);
		default:
			break;
		}
		t->op++;
		sim_task_enter_op(s, ti);
	}
	return 0;
armed:
	if (model_need_resched(s->m, cpu) && s->cpus[cpu].resched_at == UINT64_MAX &&
	    !s->cpus[cpu].resched_deferred && !s->tasks[c->curr].exiting &&
	    !s->tasks[c->curr].resched_at_block && !s->tasks[c->curr].resched_after_wake) {
		/* A wakeup by this task preempts it: the local path's cost. */
		uint32_t ti = (uint32_t)c->curr;

		if (sim_arm_resched(s, cpu, now + sim_cost(s, WL_PATH_PREEMPT_LOCAL, CALIB_CTX_TASK, cpu, ti,
							   s->tasks[ti].op, now)))
			return -1;
	}
	return sim_arm_op_done(s, cpu, now);
}
