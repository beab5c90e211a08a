// SPDX-License-Identifier: GPL-2.0
/*
 * The replay simulation (sim.c), the classes above the fair one: the CPU time
 * RT, DL and the stop class take from the fair tasks (sim_other_in(),
 * sim_other_out(): the model's RT/DL PELT signals, model_other_class()), an RT
 * interval handed over in place to its task's fair record (class_in_place():
 * switched_to_fair()), and the stopper thread (cpu_stopper_thread() of the
 * stop class): stop_one_cpu() at an exec or an affinity change
 * (sched_exec(), sched_setaffinity() -> migration_cpu_stop() ->
 * move_queued_task(): sim_sched_exec(), sim_affinity_op(),
 * sim_self_migrate()), and the active balances the model queues
 * (sim_model_stopper(), sim_run_stopper()).  The model's hooks are here too:
 * sim_model_migrated() emits the balancer's moves.  The RT/DL intervals of
 * the workload's timed list come in through sim_timed.c.
 */
#include <schedreplay/model.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/sim.h>

#include "calib.h"
#include "sim_local.h"

/* ---- RT / DL: stolen time --------------------------------------------------- */

/* The stopper's move of @ti from @cpu to @dst, with the stopper holding @cpu. */
static int stopper_move(struct sim *s, int cpu, uint32_t ti, int dst, uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];
	bool was_idle;

	if (dst == cpu)
		return 0;
	was_idle = sim_cpu_idle(&s->cpus[dst]);
	if (model_migrate_task(s->m, t->mt, dst, now) != 0) {
		s->notes[SIM_NOTE_MIGRATE_SKIPPED]++;
		return 0;
	}
	t->cpu = dst;
	return sim_emit_migrate(s, ti, cpu, dst, cpu, now) ||
	       sim_resched_after(s, dst, was_idle, cpu, CALIB_CTX_FORK, ti, 0x20000000u | t->op, now) ?
	       -1 : 0;
}

/*
 * WL_OP_MIGRATE: the stopper @stopper preempts task @ti on @cpu, moves it to
 * @dst and sleeps again, as the trace showed at this point of the task's
 * work (the stopper's interval is not replayed at its trace time then).
 * move_queued_task() activates the task on @dst's queue from @cpu and sends
 * the resched IPI, as wake_up_new_task() does for a child - no wake list -
 * so an idle @dst's cost is drawn from the fork context's samples
 * (calib.h, CALIB_CTX_FORK): where @dst's switches out of idle are restored,
 * the measured task starts at the move (its runtime is charged from the
 * rq clock of the move), and a task-context wakeup's idle exit would be
 * charged twice (forkexec, CPU 1: the exec-balanced children's move -> vfork
 * release p50 171 us in the trace, 202 us in the replay before).
 */
int sim_self_migrate(struct sim *s, int cpu, uint32_t ti, uint32_t stopper, int dst,
		     uint64_t now)
{
	if (stopper >= s->nr_tasks || sim_other_in(s, cpu, stopper, now) ||
	    stopper_move(s, cpu, ti, dst, now))
		return -1;
	return sim_other_out(s, cpu, stopper, true, now, NULL);
}

static int32_t stopper_task(const struct sim *s, int cpu);
static int synth_stopper_move(struct sim *s, int cpu, uint32_t ti, int dst, uint64_t now);

/*
 * --placement model: sched_exec() (kernel/sched/core.c) at task @ti's exec on
 * @cpu: select_task_rq_fair() with WF_EXEC (model_select_task_rq(), the slow
 * path with the running task left out); another CPU chosen, stop_one_cpu()
 * wakes @cpu's stopper from the task (sched_waking, sched_wakeup), which
 * preempts it and moves it there (migration_cpu_stop() -> move_queued_task(),
 * sim_self_migrate()).  The decision is made at the trace's sched_process_exec,
 * where the kernel makes it at bprm_execve()'s start, before the binary is
 * loaded (forkexec: 160 us of the task's work earlier); --exec-balance-at
 * traced makes it at the workload's WL_OP_EXEC_BALANCE, that point as far as
 * the trace tells it.  1 if it stays, 0 if moved (it left the CPU), -1 on
 * error.
 */
static int stop_one_cpu_move(struct sim *s, int cpu, uint32_t ti, int dst, uint64_t now);

int sim_sched_exec(struct sim *s, int cpu, uint32_t ti, uint64_t now)
{
	int dst = model_select_task_rq(s->m, s->tasks[ti].mt, cpu, MODEL_WF_EXEC, now);

	if (dst == cpu || dst < 0 || dst >= s->nr_cpus)
		return 1;
	return stop_one_cpu_move(s, cpu, ti, dst, now);
}

/*
 * WL_OP_AFFINITY of task @ti running on @cpu: its sched_setaffinity() took
 * (docs/replay.md, "Affinity").  The target's mask becomes the call's and,
 * under --placement model, the model moves the target off a CPU the new mask
 * leaves out as affine_move_task() does (model_task_set_affinity(): the
 * destination is cpumask_any_and_distribute() of the mask on @cpu): a queued
 * target at once (move_queued_task(), sim_model_migrated()), one running on
 * another CPU by that CPU's stopper (sim_model_stopper()), the caller itself
 * by its own (stop_one_cpu() -> migration_cpu_stop()); a sleeping one takes
 * the mask at its next placement.  Under trace placement the trace's own
 * moves (WL_OP_MIGRATE, traced migrations) are replayed instead.  A mask
 * naming none of the replay's CPUs is retried as all CPUs, as set_allowed()
 * takes it; the model out of memory is an error (s->fail).  1 it stays, 0
 * moved (it left the CPU), -1 on error.
 */
int sim_affinity_op(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op, uint64_t now)
{
	uint32_t n;
	const struct wl_aff_call *c = wl_aff_calls(s->wl, &n);
	struct sim_task *t = &s->tasks[ti];
	struct model_task *mt;
	struct sr_error e = { 0 };
	bool move = s->cfg.placement == REPLAY_PLACEMENT_MODEL;
	int dst, r;

	t->op++;
	sim_task_enter_op(s, ti);
	if (s->cfg.affinity != REPLAY_AFFINITY_CAPTURED || op->arg >= n ||
	    (c += op->arg)->target >= s->nr_tasks || !(mt = s->tasks[c->target].mt))
		return 1;
	/* move_queued_task()'s set_task_cpu() runs on the caller's CPU */
	s->stopper_cpu = cpu;
	r = model_task_set_affinity(s->m, mt, cpu, c->cpu, c->cpu < 0 ? c->mask : NULL,
				    SIDECAR_MASK_WORDS * 64, move, now, &dst, &e);
	if (r < 0) {
		if (!sim_aff_none_of_ours(s, &e)) {
			s->stopper_cpu = -1;
			return -1;
		}
		r = model_task_set_affinity(s->m, mt, cpu, -1, NULL, 0, move, now, &dst, NULL);
	}
	s->stopper_cpu = -1;
	s->notes[SIM_NOTE_AFFINITY]++;
	if (r < 0 || dst < 0 || c->target != ti || dst >= s->nr_cpus)
		return 1;
	return stop_one_cpu_move(s, cpu, ti, dst, now);
}

/*
 * stop_one_cpu(): task @ti on @cpu wakes @cpu's stopper (sched_waking,
 * sched_wakeup), which preempts it and moves it to @dst
 * (migration_cpu_stop() -> move_queued_task(), sim_self_migrate()).  0 (it left
 * the CPU) or -1 on error.
 */
static int stop_one_cpu_move(struct sim *s, int cpu, uint32_t ti, int dst, uint64_t now)
{
	int32_t st = stopper_task(s, cpu);

	if (sim_emit_wake_of(s, TRACE_EV_SCHED_WAKING, st, cpu, cpu, s->wt[ti].pid, now) ||
	    sim_emit_wake_of(s, TRACE_EV_SCHED_WAKEUP, st, cpu, cpu, s->wt[ti].pid, now))
		return -1;
	if (st == SIM_SYNTH_STOPPER)
		return synth_stopper_move(s, cpu, ti, dst, now) < 0 ? -1 : 0;
	return sim_self_migrate(s, cpu, ti, (uint32_t)st, dst, now) < 0 ? -1 : 0;
}

/*
 * The class of the non-fair task @who taking @cpu, for the model's RT/DL
 * PELT signals (model_other_class()'s argument; none with
 * model_config.no_others_pelt): the stopper (the workload's migration/N or
 * the stand-in) has none.
 */
enum model_other_cls sim_other_kind(const struct sim *s, int cpu, int32_t who)
{
	if (who == SIM_SYNTH_STOPPER || who == s->cpus[cpu].stopper)
		return MODEL_OTHER_STOP;
	if (who >= 0 && (uint32_t)who < s->nr_tasks && s->wt[who].cls == WL_CLASS_DL)
		return MODEL_OTHER_DL;
	return MODEL_OTHER_RT;
}

/*
 * A non-fair task @who (a task, or SIM_SYNTH_STOPPER) takes @cpu from its
 * fair task or idle: the sched_switch ("R+" for a task it preempts), that
 * task put back queued (model_other_class(): update_curr(),
 * put_prev_task_fair()).  The caller has charged the run up to @now.
 */
static int nonfair_in(struct sim *s, int cpu, int32_t who, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int32_t prev = c->curr >= 0 ? c->curr : -1;

	if (sim_emit_switch(s, cpu, prev, prev >= 0 ? s->facts->preempt_state : 0,
			    TRACE_STATE_RUNNING, prev >= 0, who, now))
		return -1;
	if (prev >= 0)
		s->tasks[prev].st = SIM_QUEUED;
	model_other_class(s->m, cpu, true, sim_other_kind(s, cpu, who), now);
	c->curr = -1;
	c->gen_op++;
	return 0;
}

/*
 * The non-fair task @who leaves @cpu (@blocked: it sleeps, else it is
 * preempted) and the model picks the next fair task, which runs on.
 */
static int nonfair_out(struct sim *s, int cpu, int32_t who, bool blocked, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	const struct model_newidle_info *ni = model_last_newidle(s->m);
	uint64_t ni_seq = ni->seq;
	struct model_task *mt;
	int32_t next_task;

	model_other_class(s->m, cpu, false, MODEL_OTHER_RT, now);
	c->resched_at = UINT64_MAX;
	c->resched_deferred = false;
	mt = sim_model_schedule(s, cpu, MODEL_PREV_RUNNABLE, now);
	next_task = mt ? (int32_t)model_task_id(mt) : -1;
	if (blocked && who >= 0 && (uint32_t)who < s->nr_tasks) {
		/*
		 * The newidle pass of the pick after a non-fair task's block
		 * (balance_fair()): whether it ran update_blocked_averages(),
		 * whose rq clock update put_prev_task_rt() charges as a
		 * second sched_stat_runtime (tests/replay/newidle_rt.py)
		 */
		if (s->cfg.rt_charge == REPLAY_RT_CHARGE_NEWIDLE && ni->seq != ni_seq &&
		    ni->cpu == cpu && ni->blocked_update)
			model_other_class_put_prev(s->m, cpu);
		sim_dump_newidle(s, cpu, now, s->wt[who].pid, next_task >= 0 ? s->wt[next_task].pid : 0,
				 ni_seq, "rt");
	}
	if (sim_emit_switch(s, cpu, who, blocked ? 1 : s->facts->preempt_state,
			    blocked ? TRACE_STATE_SLEEPING : TRACE_STATE_RUNNING, !blocked, next_task, now))
		return -1;
	c->curr = next_task;
	c->run_start = now;
	if (next_task >= 0) {
		s->tasks[next_task].st = SIM_RUNNING;
		s->tasks[next_task].cpu = cpu;
		return sim_run_ops(s, cpu, now);
	}
	return 0;
}

int sim_other_in(struct sim *s, int cpu, uint32_t ti, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];

	sim_charge(s, cpu, now);
	if (c->other >= 0) {
		/*
		 * RT to RT: the one leaving blocked (sim_other_out(): a waiter
		 * blocking on the PI mutex of the holder it boosted) or was
		 * preempted; __schedule()'s put_prev_task_rt() charges it
		 */
		bool blocked = c->other_out_blocked;

		c->other_out_blocked = false;
		model_other_class_handover(s->m, cpu, sim_other_kind(s, cpu, (int32_t)ti), now);
		if (sim_emit_switch(s, cpu, c->other, blocked ? 1 : 0,
				    blocked ? TRACE_STATE_SLEEPING : TRACE_STATE_RUNNING, !blocked,
				    (int32_t)ti, now))
			return -1;
		c->other = (int32_t)ti;
		return 0;
	}
	if (nonfair_in(s, cpu, (int32_t)ti, now))
		return -1;
	c->other = (int32_t)ti;
	return sim_arm_tick(s, cpu, now);
}

/*
 * The RT task @ti, running on @cpu, is switched to the fair class in its own
 * context at @now (the end of an RT boost at its unlock: rt_mutex_setprio()
 * -> __setscheduler_class(), put_prev_task_rt(), the fair enqueue and
 * set_next_task_fair(), then check_class_changed() -> switched_to_fair(),
 * which reschedules it), and @next, the entry after its WL_T_OTHER_OUT, is
 * the class wake (WL_T_CLASS_WAKE) of the fair record of its pid on @cpu at
 * @now (pi_rt_first()): the CPU is handed over in place.  The RT interval
 * ends (model_other_class()), the fair record is enqueued by the class
 * change's enqueue (model_task_switched_to_fair(): ENQUEUE_RESTORE |
 * ENQUEUE_MOVE, switched_to_fair()'s attach and resched_curr(); until 6 Dec
 * 2026 the model's wakeup enqueue) - no sched_waking / sched_wakeup, no idle
 * exit's cost, no latency sample: the task never left its CPU - and __schedule()'s fair
 * pick decides: the same task, and no sched_switch is written (the kernel's
 * pick of prev writes none); another, and the holder is switched out
 * preempted.  The class wake is taken (s->class_handed: sim_timed() skips it).
 * 1 if handed over, 0 if @next is not such a wake, -1 on error.
 */
static int class_in_place(struct sim *s, int cpu, uint32_t ti, uint64_t now,
			  const struct wl_timed *next)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_task *f;
	struct model_task *mt;
	int32_t picked;
	uint32_t fi;

	if (!next || next->kind != WL_T_EXT_WAKE || !(next->aux & WL_T_CLASS_WAKE) ||
	    next->cpu != cpu || next->ts != now || next->task >= s->nr_tasks ||
	    s->wt[next->task].pid != s->wt[ti].pid)
		return 0;
	fi = next->task;
	f = &s->tasks[fi];
	if (!f->mt || f->st != SIM_BLOCKED || f->waiting != next->arg)
		return 0;
	c->other = -1;
	model_other_class(s->m, cpu, false, MODEL_OTHER_RT, now);
	if (model_task_switched_to_fair(s->m, f->mt, cpu, true, now) < 0) {
		s->notes[SIM_NOTE_BAD_WAKE]++;
		return nonfair_out(s, cpu, (int32_t)ti, false, now) ? -1 : 1;
	}
	s->class_handed = next->arg;
	s->notes[SIM_NOTE_CLASS_IN_PLACE]++;
	f->st = SIM_QUEUED;
	f->cpu = cpu;
	f->waiting = WL_NONE;
	c->resched_at = UINT64_MAX;
	c->resched_deferred = false;
	mt = sim_model_schedule(s, cpu, MODEL_PREV_RUNNABLE, now);
	picked = mt ? (int32_t)model_task_id(mt) : -1;
	if (picked != (int32_t)fi &&
	    sim_emit_switch(s, cpu, (int32_t)fi, s->facts->preempt_state, TRACE_STATE_RUNNING, true,
			    picked, now))
		return -1;
	c->curr = picked;
	c->run_start = now;
	if (picked < 0)
		return 1;
	s->tasks[picked].st = SIM_RUNNING;
	s->tasks[picked].cpu = cpu;
	return sim_run_ops(s, cpu, now) ? -1 : 1;
}

int sim_other_out(struct sim *s, int cpu, uint32_t ti, bool blocked, uint64_t now,
		  const struct wl_timed *next)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int r;

	if (c->other != (int32_t)ti) {
		s->notes[SIM_NOTE_OTHER_MISMATCH]++;
		return 0;
	}
	if (next && next->kind == WL_T_OTHER_IN && next->cpu == cpu && next->ts == now) {
		/* handed straight to the next RT task (other_in), which writes the switch */
		c->other_out_blocked = blocked;
		return 0;
	}
	if (!blocked && (r = class_in_place(s, cpu, ti, now, next)) != 0)
		return r < 0 ? -1 : 0;
	c->other = -1;
	return nonfair_out(s, cpu, (int32_t)ti, blocked, now);
}

/*
 * --nohz-pull: the CPUs whose nohz idle balance, kicked from a busy CPU's
 * tick at @now (nohz_balancer_kick() -> _nohz_idle_balance() ->
 * sched_balance_rq(CPU_IDLE)), may move tasks: those the simulation, not
 * the trace, has idle then (as --idle-pull's newidle balance: a CPU the
 * trace shows idle too did not pull in the kernel, or its pull is a traced
 * migration).
 */
void sim_nohz_pull_cpus(struct sim *s, uint64_t now)
{
	uint64_t cpus = 0;

	for (int c = 0; c < s->nr_cpus && c < 64; c++)
		if (!wl_cpu_idle_at(s->wl, c, now, &s->idle_cursor[c]))
			cpus |= UINT64_C(1) << c;
	model_set_idle_moves(s->m, cpus);
}

void sim_model_migrated(void *ctx, uint32_t id, int from, int to, uint64_t now)
{
	struct sim *s = ctx;

	if (id >= s->nr_tasks)
		return;
	s->tasks[id].cpu = to;
	if (s->cfg.placement == REPLAY_PLACEMENT_TRACE) {
		s->tasks[id].displaced = true;
		s->notes[s->in_tick ? SIM_NOTE_NOHZ_PULL : SIM_NOTE_IDLE_PULL]++;
	}
	/*
	 * set_task_cpu() runs where the balancing runs: on the destination,
	 * except for the model's active balance, whose work runs on the
	 * source CPU's stopper (active_load_balance_cpu_stop(): s->stopper_cpu
	 * while sim_run_stopper() runs it).  A pull by another CPU's balance while
	 * the trace's own stopper interval holds the source is the puller's.
	 */
	if (sim_emit_migrate(s, id, from, to, s->stopper_cpu >= 0 ? s->stopper_cpu : to, now))
		s->oom = true;
	/*
	 * attach_task() ends in wakeup_preempt(): the destination's resched
	 * (an idle CPU pulled for by another CPU's nohz balance is kicked and
	 * leaves idle).  Without this a task pulled onto an idle CPU stayed
	 * queued there until something else scheduled that CPU.
	 */
	if (to >= 0 && to < s->nr_cpus && s->cpus[to].other < 0 &&
	    sim_resched_after(s, to, sim_cpu_idle(&s->cpus[to]), from, CALIB_CTX_TASK, id,
			      0x40000000u | s->tasks[id].op, now))
		s->oom = true;
}

/*
 * @cpu's stopper: the workload's migration/N, else SIM_SYNTH_STOPPER (the
 * kernel has one per CPU whether or not the trace saw it run).
 */
static int32_t stopper_task(const struct sim *s, int cpu)
{
	return s->cpus[cpu].stopper >= 0 ? s->cpus[cpu].stopper : SIM_SYNTH_STOPPER;
}

/*
 * model_config.stopper_hook: an active balance on @waker_cpu queued stopper
 * work on @cpu (stop_one_cpu_nowait(), kernel/stop_machine.c: the work is
 * queued and the stopper woken).  Waking migration/N shows as the kernel's
 * sched_waking and sched_wakeup on the waker's CPU; the stopper runs from
 * the event queue at the same time (sim_run_stopper()).
 */
void sim_model_stopper(void *ctx, int cpu, int waker_cpu, uint64_t now)
{
	struct sim *s = ctx;
	int32_t st;

	if (cpu < 0 || cpu >= s->nr_cpus)
		return;
	st = stopper_task(s, cpu);
	if (waker_cpu >= 0 && waker_cpu < s->nr_cpus &&
	    (sim_emit_wake_of(s, TRACE_EV_SCHED_WAKING, st, waker_cpu, cpu,
			      sim_cpu_pid(s, waker_cpu), now) ||
	     sim_emit_wake_of(s, TRACE_EV_SCHED_WAKEUP, st, waker_cpu, cpu,
			      sim_cpu_pid(s, waker_cpu), now)))
		s->oom = true;
	if (sim_heap_push(s, now, HEV_STOPPER, cpu, 0))
		s->oom = true;
}

/*
 * active_load_balance_cpu_stop() on @cpu's stopper: the task it moves is
 * emitted on @cpu (s->stopper_cpu, sim_model_migrated()).  @over_other: the
 * stopper preempted an RT task, which the model's nr_running counts instead
 * of it (model_cpu_stop()).
 */
static int cpu_stop_work(struct sim *s, int cpu, bool over_other, uint64_t now)
{
	int ret;

	s->stopper_cpu = cpu;
	ret = model_cpu_stop(s->m, cpu, over_other, now);
	s->stopper_cpu = -1;
	return ret < 0 ? -1 : 0;
}

/*
 * The stopper without a migration/N in the workload: sim_other_in() and
 * sim_other_out()'s switches (nonfair_in(), nonfair_out()) for
 * SIM_SYNTH_STOPPER, which holds no c->other, the work between them - the fair
 * task running on @cpu is put back (model_other_class(): update_curr(),
 * put_prev_task_fair()) and queued as any task a non-fair one preempts,
 * so detach_one_task() may push it; the stopper sleeps and the model picks
 * the next task.
 */
static int synth_stopper(struct sim *s, int cpu, uint64_t now)
{
	sim_charge(s, cpu, now);
	if (nonfair_in(s, cpu, SIM_SYNTH_STOPPER, now) || cpu_stop_work(s, cpu, false, now))
		return -1;
	return nonfair_out(s, cpu, SIM_SYNTH_STOPPER, true, now);
}

/* sched_exec()'s move by the stand-in stopper: as synth_stopper(). */
static int synth_stopper_move(struct sim *s, int cpu, uint32_t ti, int dst, uint64_t now)
{
	sim_charge(s, cpu, now);
	if (nonfair_in(s, cpu, SIM_SYNTH_STOPPER, now) || stopper_move(s, cpu, ti, dst, now))
		return -1;
	return nonfair_out(s, cpu, SIM_SYNTH_STOPPER, true, now);
}

/*
 * The stopper work the model queued on @cpu, as the kernel's trace shows it
 * (cpu_stopper_thread() of the stop class, above every other: it always
 * preempts): sched_switch from the CPU's task (preempted, "R+") to
 * migration/N, sched_migrate_task of the task model_cpu_stop() moves (the
 * migrate hook), sched_switch from migration/N (sleeping) to the next task
 * the model picks - the same switches, counted the same way, as any
 * non-fair task's interval (sim_other_in() / sim_other_out()).  Without a
 * migration/N in the workload the same with SIM_SYNTH_STOPPER
 * (synth_stopper()).  An RT task holding the CPU is preempted and gets it
 * back (the fair side is unchanged: its task was queued already); the
 * trace's own migration/N holding it does the work in its interval.
 */
int sim_run_stopper(struct sim *s, int cpu, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int32_t st = stopper_task(s, cpu), held = c->other;

	if (held >= 0 && held == st)
		return cpu_stop_work(s, cpu, false, now);
	if (held >= 0) {
		sim_charge(s, cpu, now);
		if (sim_emit_switch(s, cpu, held, s->facts->preempt_state, TRACE_STATE_RUNNING, true, st,
				    now) ||
		    cpu_stop_work(s, cpu, true, now))
			return -1;
		return sim_emit_switch(s, cpu, st, 1, TRACE_STATE_SLEEPING, false, held, now);
	}
	if (st == SIM_SYNTH_STOPPER)
		return synth_stopper(s, cpu, now);
	if (sim_other_in(s, cpu, (uint32_t)st, now) || cpu_stop_work(s, cpu, false, now))
		return -1;
	return sim_other_out(s, cpu, (uint32_t)st, true, now, NULL);
}
