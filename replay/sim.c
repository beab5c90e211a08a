// SPDX-License-Identifier: GPL-2.0
/*
 * The replay simulation (see sim.h): a discrete-event loop over the trace's
 * CPUs driving the model through model.h.
 *
 * Two sources of events are merged in time order: the workload's timed list
 * (external wakeups, forks, traced migrations, cgroup moves, RT/DL CPU
 * intervals: already sorted) and a heap of the simulation's own events
 * (a running task finishes its current RUN op, a tick, a reschedule that
 * takes effect after its mechanical cost).  Heap entries are invalidated
 * lazily with per-CPU generation numbers.  Ties: the timed list first, then
 * heap entries in insertion order, so a run is deterministic.
 *
 * The file's parts, in order (each under a `---- name` rule):
 *   dump ops      the --dump-wake-records `replay_op:` lines
 *   heap          the simulation's own events
 *   helpers       a CPU's state, its ticks (grid or traced), arming a
 *                 reschedule or a RUN op's end, charging the current task, the
 *                 reply and clock leads, the CPU a wakeup goes to (--placement,
 *                 traced_cpu()), the mechanical costs drawn per path (sim_cost())
 *   scheduling    a CPU's schedule(): the model's pick, the switch event, a
 *                 wakeup's reschedule after its path's cost or the traced run
 *                 (resched_after*()), the wake-list flush, newidle pulls
 *   wakeups and forks  wake_task() (placement, the model's ttwu, queued
 *                 moves, initial lag), its callers sim_wake_now(), the stand-in
 *                 wakeups of early wakes, reply and hand-off wakes
 *   channels      READ/WRITE ops on sim_chan.h's channels; the re-pairing of
 *                 a reader's channel wakes is sim_chanpair.c's
 *   wake records reaching their target  sim_deliver_wake() (early wakes,
 *                 --early-charge), sim_do_fork()
 *   heap events, the run  sim_loop(), sim_start()
 * A task's own work (its ops, sim_run_ops()) is sim_work.c's; the non-fair
 * classes' CPU time, the stopper and the model's hooks sim_class.c's; the
 * timed list (external wakeups and forks, traced migrations, cgroup moves,
 * RT/DL intervals, balance passes), the CPU bandwidth timers and the CPU
 * stalls sim_timed.c's; set-up, the event sink and the results sim_run.c's.
 * The stand-ins of early wakes (sim_deliver_wake(), sim_early_standin_wake()
 * here, block_op() in sim_work.c) and the mechanical costs (sim_cost(),
 * resched_after*() here, waker_cost() in sim_work.c) run through several
 * parts: they share the scheduling and wakeup paths' state at every step, with
 * no narrower interface to split along.  What the files share is declared in
 * sim_local.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <schedreplay/model.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/sim.h>

#include "calib.h"
#include "sim_local.h"

/*
 * replay --dump-wake-records: one `replay_op:` line in the event dump, in
 * the dump's line shape, at simulated time @now on @cpu (docs/replay.md,
 * "Output").  Analysis only: nothing else depends on it.
 */
void sim_dump_op(struct sim *s, int cpu, uint64_t now, const char *fmt, ...)
{
	va_list ap;

	if (!s->cfg.dump || !s->cfg.dump_ops)
		return;
	fprintf(s->cfg.dump, "[%03d] %" PRIu64 ".%09" PRIu64 ": replay_op: ", cpu < 0 ? 0 : cpu,
		now / 1000000000, now % 1000000000);
	va_start(ap, fmt);
	vfprintf(s->cfg.dump, fmt, ap);
	va_end(ap);
	fputc('\n', s->cfg.dump);
}

/*
 * `newidle pid=P next=N outcome=O ...`: the model's sched_balance_newidle() at
 * a block to idle of pid P (the pick found N, 0: idle), if one ran since
 * model_last_newidle()'s seq was @ni_seq (else outcome=none): the entry
 * test's inputs, the walk, rd->overloaded after the pass, and who set and
 * cleared the overload last (model_overload_info(): site:cpu:time, the
 * counts of sets and clears so far).  @cls: "rt" (a non-fair block, the
 * second charge's line: tests/replay/newidle_rt.py) or "fair".
 */
void sim_dump_newidle(struct sim *s, int cpu, uint64_t now, int pid, int next, uint64_t ni_seq,
		      const char *cls)
{
	static const char *const why[] = { "traced", "nosd", "notoverloaded", "shortidle", "ran" };
	static const char *const site[] = { "none", "enqueue", "newidle", "periodic", "nohz" };
	const struct model_newidle_info *ni = model_last_newidle(s->m);
	struct model_overload_info ov;
	char tail[256];

	if (!s->cfg.dump || !s->cfg.dump_ops)
		return;
	model_overload_info(s->m, &ov);
	/* the overload's last set and clear, the line's end either way */
	snprintf(tail, sizeof(tail), "set=%s:%d:%" PRIu64 " clear=%s:%d:%" PRIu64 " sets=%" PRIu64
		 " clears=%" PRIu64 " class=%s", site[ov.last_set.site], ov.last_set.cpu,
		 ov.last_set.at, site[ov.last_clear.site], ov.last_clear.cpu, ov.last_clear.at,
		 ov.sets, ov.clears, cls);
	if (ni->seq == ni_seq || ni->cpu != cpu)
		sim_dump_op(s, cpu, now, "newidle pid=%d next=%d outcome=none overloaded=%d %s", pid,
			    next, ov.overloaded, tail);
	else
		sim_dump_op(s, cpu, now, "newidle pid=%d next=%d outcome=%s blocked=%d "
			    "overloaded=%d avg_idle=%" PRIu64 " max_cost=%" PRIu64 " ratio=%u "
			    "balanced=%u diceskip=%u after=%d %s",
			    pid, next, why[ni->outcome], ni->blocked_update, ni->rd_overloaded,
			    ni->avg_idle, ni->max_newidle_lb_cost, ni->newidle_ratio,
			    ni->balanced, ni->dice_skipped, ni->rd_overloaded_after, tail);
}

/*
 * `KIND pid=P trace=T waker=W`: what became of wake record @w (its wakee
 * @ti, the trace's sched_waking time, the waker's pid, -1 for an external
 * wake)
 */
static void dump_wake_op(struct sim *s, const char *kind, int cpu, uint64_t now, uint32_t ti,
			 const struct wl_wake *w)
{
	sim_dump_op(s, cpu, now, "%s pid=%d trace=%" PRIu64 " waker=%d", kind, s->wt[ti].pid, w->ts,
		    w->waker != WL_NONE && w->waker < s->nr_tasks ? s->wt[w->waker].pid : -1);
}

/* ---- heap ------------------------------------------------------------- */

int sim_heap_push(struct sim *s, uint64_t t, uint8_t kind, int cpu, uint32_t gen)
{
	struct sim_hev *h;
	size_t i;

	if (s->nheap == s->heap_cap) {
		size_t ncap = s->heap_cap ? s->heap_cap * 2 : 256;
		void *p = realloc(s->heap, ncap * sizeof(*s->heap));

		if (!p)
			return -1;
		s->heap = p;
		s->heap_cap = ncap;
	}
	h = s->heap;
	i = s->nheap++;
	struct sim_hev e = { .t = t, .seq = s->heap_seq++, .kind = kind, .cpu = (int16_t)cpu,
			     .gen = gen };
	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (hev_less(&h[p], &e))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = e;
	return 0;
}

static struct sim_hev heap_pop(struct sim *s)
{
	struct sim_hev *h = s->heap, top = h[0], last = h[--s->nheap];
	size_t i = 0, n = s->nheap;

	while (1) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const struct sim_hev *mv = &last;

		if (l < n && hev_less(&h[l], mv)) {
			m = l;
			mv = &h[l];
		}
		if (r < n && hev_less(&h[r], mv))
			m = r;
		if (m == i)
			break;
		h[i] = h[m];
		i = m;
	}
	if (n)
		h[i] = last;
	return top;
}

/* ---- helpers ---------------------------------------------------------- */

const struct wl_op *sim_cur_op(const struct sim *s, const struct sim_task *t, uint32_t ti)
{
	if (t->op >= s->wt[ti].nr_ops)
		return NULL;
	return &s->ops[s->wt[ti].first_op + t->op];
}

bool sim_cpu_busy(const struct sim_cpu *c)
{
	return c->curr >= 0 || c->other >= 0;
}

/* Idle, and no reschedule pending that would end the idle. */
bool sim_cpu_idle(const struct sim_cpu *c)
{
	return !sim_cpu_busy(c) && c->resched_at == UINT64_MAX;
}

/*
 * Where a placed task goes when the trace's balancer has pulled it
 * (t->pull_cpu): there, if that CPU is idle already, else @cpu; the pull is
 * used up either way once it has been honoured or placement agrees with it.
 */
static int take_traced_pull(struct sim *s, struct sim_task *t, int cpu)
{
	if (t->pull_cpu >= 0 && t->pull_cpu != cpu && sim_cpu_idle(&s->cpus[t->pull_cpu])) {
		cpu = t->pull_cpu;
		t->pull_cpu = -1;
		s->notes[SIM_NOTE_PULL_AT_PLACE]++;
	} else if (t->pull_cpu == cpu) {
		t->pull_cpu = -1;
	}
	return cpu;
}

/*
 * --ticks traced: the tick of period @k (grid point g = phase + k / HZ) on
 * @cpu: the trace's own tick of that period (wl_traced_ticks(): at most one
 * per period, within wl_tick_window() of g), else g.  Increasing in @k.
 */
static uint64_t traced_tick(const struct sim *s, int cpu, uint64_t k, bool *traced)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	uint64_t p = s->tick_ns, g = s->phase[cpu % 64] % p + k * p, lo, hi;
	uint32_t a = 0, b = c->tt_n;

	wl_tick_window(s->facts->hz, &lo, &hi);
	while (a < b) {                 /* the first at or after g - lo */
		uint32_t m = a + (b - a) / 2;

		if (c->tt[m] + lo < g)
			a = m + 1;
		else
			b = m;
	}
	*traced = a < c->tt_n && c->tt[a] <= g + hi;
	return *traced ? c->tt[a] : g;
}

/* The CPU's first tick after @now; *traced: the trace's own (--ticks traced). */
static uint64_t next_tick(const struct sim *s, int cpu, uint64_t now, bool *traced)
{
	uint64_t p = s->tick_ns, ph = s->phase[cpu % 64] % p, t;

	*traced = false;
	if (s->cpus[cpu].tt_n) {
		/* the current period's tick if the trace's comes later, else the next's */
		for (uint64_t k = now < ph ? 0 : (now - ph) / p;; k++)
			if ((t = traced_tick(s, cpu, k, traced)) > now)
				return t;
	}
	if (now < ph)
		return ph;
	t = ph + ((now - ph) / p + 1) * p;
	return t;
}

int sim_arm_tick(struct sim *s, int cpu, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t t;

	if (c->tick_armed || c->stalled)
		return 0;           /* a stalled CPU's tick comes at the stall's end */
	c->tick_armed = true;
	t = next_tick(s, cpu, now, &c->tick_traced);
	return sim_heap_push(s, t, HEV_TICK, cpu, ++c->gen_tick);
}

/*
 * The switch after a tick at @t that set need_resched on @cpu comes this
 * long after it: tick_switch_ns, or under --ticks traced a delay drawn from
 * the trace's own tick -> switch delays (calib_draw_tick()), where it has
 * CALIB_MIN_SAMPLES of them (not under --no-costs: a mechanical cost).
 */
static uint64_t tick_switch_delay(struct sim *s, int cpu, uint64_t t)
{
	uint64_t d;

	if (s->cfg.ticks != REPLAY_TICKS_TRACED || s->cfg.no_costs)
		return s->facts->tick_switch_ns;
	d = calib_draw_tick(s->calib, cpu, t, s->cfg.seed);
	if (d == UINT64_MAX) {
		s->notes[SIM_NOTE_TICK_SWITCH_FIXED]++;
		return s->facts->tick_switch_ns;
	}
	s->notes[SIM_NOTE_TICK_SWITCH_DRAWN]++;
	return d;
}

/*
 * @cpu runs a task past its EXIT_MOVE whose EXIT is still to come: under
 * --exit-preempt defer nothing preempts it there - not a wakeup, a tick, a
 * migration's or a bandwidth timer's resched - as do_exit() has no
 * preemption point from sched_move_task() to do_task_dead() on a
 * preempt=none kernel; its EXIT's __schedule() honours the resched
 * (docs/replay.md, "Exits").  A task whose ops ran out there (its exit not
 * traced) is preempted as any other.
 */
static bool exit_deferred(const struct sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	return s->cfg.exit_preempt == REPLAY_EXIT_PREEMPT_DEFER && c->curr >= 0 && c->other < 0 &&
	       s->tasks[c->curr].exiting && s->tasks[c->curr].op < s->wt[c->curr].nr_ops;
}

/* --resched-at syscall-exit: task @ti is inside a traced read or write (kernel mode) */
static bool in_kernel_section(const struct sim *s, uint32_t ti)
{
	return s->cfg.resched_at == REPLAY_RESCHED_SYSCALL_EXIT && s->tasks[ti].in_sys;
}

int sim_arm_resched(struct sim *s, int cpu, uint64_t at)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (exit_deferred(s, cpu))
		return 0;
	if (c->stalled) {
		c->stall_resched = true;    /* the CPU runs nothing until the stall ends */
		return 0;
	}
	if (c->curr >= 0 && c->other < 0 && in_kernel_section(s, (uint32_t)c->curr)) {
		/*
		 * need_resched is set and the task is in kernel mode: on a
		 * preempt=none kernel nothing switches it before its return to
		 * user space (its exit mark, sim_run_ops()).  A resched other than
		 * its own wakee's (a remote wakeup's IPI, a tick, a migration)
		 * comes no earlier than its own cost there (resched_due).
		 */
		if (c->resched_deferred) {
			if (!c->resched_due || at < c->resched_due)
				c->resched_due = at;
			return 0;
		}
		s->notes[SIM_NOTE_RESCHED_DEFERRED_OTHER]++;
		c->resched_due = at;
		c->resched_deferred = true;
		c->resched_at = UINT64_MAX;
		c->gen_resched++;
		return 0;
	}
	if (c->resched_at != UINT64_MAX && c->resched_at <= at)
		return 0;
	c->resched_at = at;
	return sim_heap_push(s, at, HEV_RESCHED, cpu, ++c->gen_resched);
}

/* Charge the current task's RUN progress up to @now. */
void sim_charge(struct sim *s, int cpu, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (c->curr >= 0 && c->other < 0 && now > c->run_start) {
		struct sim_task *t = &s->tasks[c->curr];
		uint64_t d = now - c->run_start;

		/* a stalled CPU's task is current, charged by the model, and does no work */
		if (!c->stalled)
			t->run_left = t->run_left > d ? t->run_left - d : 0;
		s->busy_ns += d;
	}
	c->run_start = now;
}

/*
 * How long before the BLOCK a hand-off waiter waits for its wakee's reply
 * comes: the trace's sync tail (a waker that sleeps right after a sync
 * wakeup runs that long in between), and never less than switch_lead_ns.
 * The kernel's reply is a wakeup in the wakee's write() (pipe_write()'s
 * wake_up_interruptible_sync_poll() -> try_to_wake_up(): sched_waking); its
 * sleep is a later __schedule() (pipe_read()'s wait_event_*() ->
 * schedule()), which reads the rq clock and dequeues it (update_curr():
 * the sched_stat_runtime) switch_lead_ns before its sched_switch.  So the
 * waiter cannot be switched in less than that after the reply - a sync
 * tail under 20 samples reads 0 (hackbench-chan, small-chan, forkexec),
 * which put the reply at the block's switch and the waiter's switch-in at
 * the instant it was woken.  A trace with neither fact (no
 * sched_stat_runtime: small-nowaking) floors it at its shortest local
 * preemption (the preempt_local path's lowest calibrated quantile, in the
 * trace's own latency definition): the kernel's quickest way from a local
 * enqueue to the wakee's switch-in (wakeup_preempt() -> resched_curr(), the
 * waker's __schedule() at its next preemption point); the replier's way
 * (return from its write(), its read(), the block's __schedule()) is no
 * shorter.  Before 3 Dec 2026 (helper zf32) it was 0 there: ~38 replies of
 * 0 us a run on small-nowaking, where the trace's local wakeups of a waker
 * that then sleeps take 3.5 us and more.
 */
uint64_t sim_reply_tail(const struct sim *s)
{
	if (s->facts->sync_tail_ns || s->facts->switch_lead_ns)
		return s->facts->sync_tail_ns > s->facts->switch_lead_ns ?
			s->facts->sync_tail_ns : s->facts->switch_lead_ns;
	/* neither fact: the shortest local wakeup -> switch-in the trace shows */
	return calib_path_min(s->calib, WL_PATH_PREEMPT_LOCAL);
}

/*
 * A task that a hand-off waiter waits for, in the RUN right before the
 * BLOCK the waiter waits for: its reply is due sim_reply_tail() before that
 * block (see sim_handoff_release()).
 */
bool sim_reply_due(const struct sim *s, const struct sim_task *t)
{
	return t->waiter != WL_NONE && !t->waiter_signal && sim_reply_tail(s) &&
	       t->op + 1 == t->waiter_op && t->run_left > 0;
}

/*
 * Task @t's RUN op reached the point its HEV_OP_DONE was armed for, and was
 * charged up to it: the end of the RUN, where nothing is left - or, for a
 * task a hand-off waiter waits for (sim_reply_due()), the point its reply is
 * sent, sim_reply_tail() before the end: that tail is still to run (the kernel's
 * wakee writes, then reads and sleeps; sim_run_ops() sends the reply and runs the
 * tail up to the BLOCK).  Leaving nothing there lost the tail, and the reply
 * came at the BLOCK itself: its waiter was woken and switched in at one
 * instant (a 0 us sample).
 */
static void op_done_left(const struct sim *s, struct sim_task *t)
{
	if (!sim_reply_due(s, t))
		t->run_left = 0;
	else if (t->run_left > sim_reply_tail(s))
		t->run_left = sim_reply_tail(s);
}

/*
 * --behind-lead: the clock lead a block's __schedule() keeps after the
 * enqueue of a wakee queued behind the blocking task: 0 (off); the trace's
 * clock lead (switch_lead_ns, all); in a trace without one (no
 * sched_stat_runtime to measure it from) the queued path's lowest
 * calibrated quantile, the shortest wakeup -> switch-in behind a running
 * task the trace shows, which covers the same stretch (the waker's unlock,
 * the blocker's rq_lock(), clock read, dequeue, pick, context switch).
 */
static uint64_t behind_lead(const struct sim *s)
{
	if (s->cfg.behind_lead == REPLAY_BEHIND_LEAD_OFF)
		return 0;
	if (s->facts->switch_lead_ns)
		return s->cfg.behind_lead == REPLAY_BEHIND_LEAD_ALL ? s->facts->switch_lead_ns : 0;
	return calib_path_min(s->calib, WL_PATH_QUEUED);
}

/* Whether task @ti's ops from its current RUN on reach a sleep before more work. */
static bool blocks_next(const struct sim *s, uint32_t ti)
{
	const struct sim_task *t = &s->tasks[ti];
	const struct wl_task *wt = &s->wt[ti];

	for (uint32_t op = t->op + 1; op < wt->nr_ops; op++) {
		const struct wl_op *o = &s->ops[wt->first_op + op];

		switch (o->kind) {
		case WL_OP_BLOCK:
		case WL_OP_EXIT:
			return true;
		case WL_OP_WAKE:
		case WL_OP_COMM:
		case WL_OP_WAKE_OTHER:
		case WL_OP_EXEC_BALANCE:
		case WL_OP_NICE:
		case WL_OP_PI_SETPRIO:
		case WL_OP_AFFINITY:
			continue;
		default:
			return false;
		}
	}
	return false;
}

/*
 * A wakee was queued on busy @cpu at @now without preempting its current
 * task.  If that task's RUN ends sooner than behind_lead() from here and a
 * block follows, its __schedule() there cannot switch before the lead: the
 * kernel's try_to_wake_up() enqueued under the rq lock (ttwu_queue() ->
 * rq_lock() -> ttwu_do_activate(), sched_wakeup), so the blocker's
 * __schedule() took rq_lock() after it, then read the clock, dequeued,
 * picked and switched (pick_next_task(), context_switch()).  The task runs
 * on to @now + lead (spinning on the lock, then in __schedule() itself).
 * Off, a block right after the wakeup switched the wakee in at once: ~43
 * wakeups a run under 0.5 us on small-nowaking, whose trace's fastest such
 * switch-in takes 1.64 us.
 */
static int schedule_rq_lock(struct sim *s, int cpu, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t lead = behind_lead(s);
	struct sim_task *t;
	const struct wl_op *op;

	if (!lead || c->curr < 0 || c->other >= 0 || c->resched_deferred ||
	    (c->resched_at == UINT64_MAX && model_need_resched(s->m, cpu)))
		return 0;
	t = &s->tasks[c->curr];
	op = sim_cur_op(s, t, (uint32_t)c->curr);
	if (!op || op->kind != WL_OP_RUN || t->run_left == SIM_FOREVER || sim_reply_due(s, t) ||
	    t->wo_wait != WL_NONE || !blocks_next(s, (uint32_t)c->curr))
		return 0;
	/* a preemption armed sooner takes it first (with nothing left to run) */
	if (c->resched_at != UINT64_MAX)
		lead = c->resched_at > now ? (c->resched_at - now < lead ? c->resched_at - now : lead) : 0;
	sim_charge(s, cpu, now);
	if (t->run_left >= lead)
		return 0;
	t->run_left = lead;
	s->notes[SIM_NOTE_BEHIND_LEAD]++;
	return sim_arm_op_done(s, cpu, now);
}

/* (Re)arm the event at which the current task finishes its RUN op. */
int sim_arm_op_done(struct sim *s, int cpu, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_task *t;

	c->gen_op++;
	if (c->curr < 0 || c->other >= 0 || c->stalled)
		return 0;
	t = &s->tasks[c->curr];
	if (t->run_left == SIM_FOREVER)
		return 0;
	if (sim_reply_due(s, t)) {
		/* stop where the reply to a hand-off waiter is sent */
		uint64_t tail = sim_reply_tail(s);

		return sim_heap_push(s, now + (t->run_left > tail ? t->run_left - tail : 0),
				     HEV_OP_DONE, cpu, c->gen_op);
	}
	return sim_heap_push(s, now + t->run_left, HEV_OP_DONE, cpu, c->gen_op);
}

/*
 * Under placement trace with state_placement or placement_check: the traced
 * decision @w (its trace time: sched_waking, or sched_wakeup_new for a
 * fork), compared with the model's.  The model's
 * select_task_rq_fair() runs for every traced decision, so that what the
 * kernel's keeps per task (recent_used_cpu, the wakee flips) evolves as the
 * kernel's did.  When every simulated CPU is idle or busy as the trace's
 * was then, the traced CPU stands (and the model's choice is counted
 * against it: placement_check); otherwise, with state_placement, the
 * model's choice on the simulated state replaces it, and the task is marked
 * displaced (traced_cpu(): later traced wakeups on its previous CPU keep
 * the simulation's previous CPU).
 */
static int state_placement_cpu(struct sim *s, struct sim_task *t, int traced, int waker_cpu,
			       int flags, const struct wl_wake *w, uint64_t now)
{
	bool fork = flags & MODEL_WF_FORK, same = true, any_idle = false;
	uint64_t asked0 = 0, asked1 = 0;
	int c, cpu;

	/* the capture kernel's packing step asked at this decision (sched_vcpu_pack) */
	model_counter_get(s->m, "vcpu_pack_room", &asked0);
	cpu = model_select_task_rq(s->m, t->mt, waker_cpu >= 0 ? waker_cpu : traced, flags, now);
	model_counter_get(s->m, "vcpu_pack_room", &asked1);
	if (cpu < 0 || cpu >= s->nr_cpus)
		cpu = traced;
	for (c = 0; c < s->nr_cpus; c++) {
		bool there = wl_cpu_idle_at_any(s->wl, c, w->ts);

		same = same && sim_cpu_idle(&s->cpus[c]) == there;
		any_idle = any_idle || there;
	}
	if (same) {
		enum sim_note_id base = fork ? SIM_NOTE_PC_FORK_MATCH : SIM_NOTE_PC_WAKE_MATCH;

		s->notes[base]++;
		s->notes[base + 1] += cpu == traced;
		if (any_idle) {
			s->notes[base + 2]++;
			s->notes[base + 3] += sim_cpu_idle(&s->cpus[traced]);
			s->notes[base + 4] += sim_cpu_idle(&s->cpus[cpu]);
			if (asked1 > asked0 && waker_cpu >= 0) {
				s->notes[SIM_NOTE_PC_PACK_ASKED]++;
				s->notes[SIM_NOTE_PC_PACK_KERNEL] += traced == waker_cpu;
				s->notes[SIM_NOTE_PC_PACK_MODEL] += cpu == waker_cpu;
			}
		}
		/*
		 * A non-sync wakeup of a task free to move whose previous CPU
		 * was idle: wake_affine() returns prev or an idle waking CPU,
		 * and select_idle_sibling() an idle target, so the kernel's
		 * select_task_rq_fair() as written cannot choose a busy CPU.
		 */
		if (!fork && !(w->flags & WL_WAKE_SYNC) && s->wt[t - s->tasks].multi_cpu &&
		    w->prev_cpu >= 0 && w->prev_cpu < s->nr_cpus &&
		    sim_cpu_idle(&s->cpus[w->prev_cpu])) {
			s->notes[SIM_NOTE_PC_PREV_IDLE]++;
			s->notes[SIM_NOTE_PC_PREV_IDLE_BUSY] += !sim_cpu_idle(&s->cpus[traced]);
		}
		return traced;
	}
	s->notes[SIM_NOTE_PC_DIVERGED]++;
	if (!s->cfg.state_placement || (fork && !s->cfg.state_placement_forks) || cpu == traced)
		return traced;
	s->notes[SIM_NOTE_PC_MOVED]++;
	t->displaced = true;
	return cpu;
}

static int placement_cpu(struct sim *s, struct sim_task *t, int traced, int waker_cpu,
			 int flags, const struct wl_wake *w, uint64_t now)
{
	int cpu;

	if (s->cfg.placement == REPLAY_PLACEMENT_TRACE && w && t->mt &&
	    traced >= 0 && traced < s->nr_cpus &&
	    (s->cfg.state_placement || s->cfg.placement_check))
		return state_placement_cpu(s, t, traced, waker_cpu, flags, w, now);
	/*
	 * A wake with no trace record and no traced CPU (@traced < 0: a
	 * channel's own wake, chan_wake()) has no choice of the trace's to
	 * follow: the model's select_task_rq_fair() places it, under either
	 * placement, as the kernel placed every wakeup.
	 */
	if (s->cfg.placement == REPLAY_PLACEMENT_MODEL || (!w && traced < 0)) {
		cpu = model_select_task_rq(s->m, t->mt, waker_cpu >= 0 ? waker_cpu : traced, flags,
					   now);
		if (cpu >= 0 && cpu < s->nr_cpus)
			return cpu;
	}
	if (traced >= 0 && traced < s->nr_cpus)
		return traced;
	if (!w && t->cpu >= 0 && t->cpu < s->nr_cpus)
		return t->cpu;
	return waker_cpu >= 0 && waker_cpu < s->nr_cpus ? waker_cpu : 0;
}

/*
 * --placement trace: the CPU the trace chose for wake @w - except for a task
 * the simulation's own newidle balance moved (replay_config.idle_pull,
 * sim_model_schedule()): while the trace keeps waking it on its previous
 * CPU (select_task_rq() returned prev), it stays on the simulation's
 * previous CPU, where the pull put it.  Sent back by number, every pulled
 * task migrated twice (hackbench-shares: sched_migrate_task +77 %).  A
 * traced wakeup that moves it elsewhere ends that.
 */
static int traced_cpu(struct sim_task *t, const struct wl_wake *w)
{
	if (sim_traced_keeps_displaced(t, w))
		return t->cpu;
	if (w->cpu >= 0)
		t->displaced = false;
	return w->cpu;
}

/* Whether @cpu's switches out of idle are restored ones in the measured stream. */
static bool restored_cpu(const struct sim *s, int cpu)
{
	return cpu >= 0 && cpu < 64 && (s->facts->idle_exit_restored >> cpu & 1);
}

/*
 * How long @cpu has been idle at @now (since its last simulated switch to
 * idle), for the idle path's residency band; UINT64_MAX if it has not
 * switched to idle yet or replay_config.idle_residency is off.
 */
static uint64_t idle_residency(const struct sim *s, int cpu, uint64_t now)
{
	uint64_t since;

	if (s->cfg.idle_residency != REPLAY_IDLE_RESIDENCY_ON || cpu < 0 || cpu >= s->nr_cpus)
		return UINT64_MAX;
	since = s->cpus[cpu].idle_since;
	if (since == UINT64_MAX)
		return UINT64_MAX;
	/* capped as the extraction caps it (the last band), not UINT64_MAX's "unknown" */
	return now <= since ? 0 : now - since > WL_IDLE_NS_MAX ? WL_IDLE_NS_MAX : now - since;
}

/*
 * The mechanical cost of a wakeup onto @cpu at @now that takes @path here;
 * the idle path draws from @cpu's own samples (calib.h: on a CPU whose idle
 * exits are restored, what its measurement shows is early by the idle exit),
 * of the residency band of its idle time under --idle-residency on.
 */
uint64_t sim_cost(struct sim *s, enum wl_path path, enum calib_ctx ctx, int cpu,
		  uint32_t task, uint32_t seq, uint64_t now)
{
	if (s->cfg.no_costs)
		return 0;
	s->path_count[path]++;
	return calib_draw_cpu(s->calib, path, ctx, cpu, restored_cpu(s, cpu),
			      path == WL_PATH_IDLE ? idle_residency(s, cpu, now) : UINT64_MAX,
			      task, seq, s->cfg.seed);
}

/* ---- scheduling -------------------------------------------------------- */

/*
 * --exec-balance-at traced: the workload has each exec's sched_exec() point
 * (WL_OP_EXEC_BALANCE); the exec's COMM then does not balance
 */
bool sim_exec_marked(const struct sim *s)
{
	return s->cfg.exec_balance_at == REPLAY_EXEC_BALANCE_TRACED &&
	       (s->facts->exec_marks_traced || s->facts->exec_marks_lead ||
		s->facts->exec_marks_at_exec);
}

/*
 * --resched-at traced: the waker current on @cpu, which just woke @task
 * there delivering wake record @wake, has as its next ops at most one RUN and
 * then the hand-off WAIT for @task (the trace switched it out runnable for
 * this wakee at that point): the CPU time it has left to that WAIT, else
 * UINT64_MAX.
 */
static uint64_t traced_switch_run(const struct sim *s, int cpu, uint32_t task,
				  const struct wl_wake *wake)
{
	const struct sim_cpu *c = &s->cpus[cpu];
	const struct sim_task *w;
	const struct wl_task *wt;
	uint64_t run = 0;
	uint32_t op;

	/*
	 * Only a wakeup the trace shows as this path's uncontested sample: the
	 * waker switched out for it with no later decision point (another
	 * wakeup there, a tick) before (workload_finish.c, uncontest_costs()).
	 */
	if (!wake || wake->path != WL_PATH_PREEMPT_LOCAL || wake->contested)
		return UINT64_MAX;
	if (c->curr < 0 || c->other >= 0)
		return UINT64_MAX;
	w = &s->tasks[c->curr];
	wt = &s->wt[c->curr];
	if (!sim_wait_follows(s, (uint32_t)c->curr, w->op))
		return UINT64_MAX;
	for (op = w->op; op < wt->nr_ops; op++) {
		const struct wl_op *o = &s->ops[wt->first_op + op];

		if (o->kind == WL_OP_RUN)
			run = op == w->op ? w->run_left : o->value;
		else if (o->kind == WL_OP_WAIT)
			return o->arg == task && run != SIM_FOREVER ? run : UINT64_MAX;
	}
	return UINT64_MAX;
}

/*
 * After a wakeup, fork or migration onto @cpu: if the model set
 * need_resched, the switch happens after the path's mechanical cost (none
 * if @no_cost: an early wake's stand-in wakeup under --early-wakes nocost),
 * and not before @not_before (0: no bound; a wakeup onto a CPU running idle,
 * with or without its switch out pending, that the traced interrupt queued
 * with later ones: the end of that flush, wl_wake.flush_ns).  @w: the wake
 * record a wakeup delivers (--resched-at traced), else NULL.
 */
static int resched_after_hold(struct sim *s, int cpu, bool was_idle, int waker_cpu,
			      enum calib_ctx ctx, uint32_t task, uint32_t seq, uint64_t not_before,
			      bool no_cost, const struct wl_wake *w, uint64_t now)
{
	enum wl_path path;
	uint64_t at;

	if (!model_need_resched(s->m, cpu))
		return 0;
	if (!was_idle && exit_deferred(s, cpu))
		/*
		 * The task preempted is past its EXIT_MOVE, whose
		 * sched_move_task() set need_resched already (the wakeup check
		 * returned at once: check_preempt_wakeup_fair()): no cost is
		 * drawn, its final __schedule() picks (sim_arm_resched()).
		 */
		return 0;
	if (was_idle)
		path = WL_PATH_IDLE;
	else if (waker_cpu == cpu)
		path = WL_PATH_PREEMPT_LOCAL;
	else
		path = WL_PATH_PREEMPT_REMOTE;
	if (path == WL_PATH_PREEMPT_REMOTE && s->in_standin &&
	    (s->cfg.standin_skip == REPLAY_STANDIN_SKIP_LOCAL ||
	     s->cfg.standin_skip == REPLAY_STANDIN_SKIP_DROP_LOCAL)) {
		/*
		 * --standin-skip local: a stand-in's preemption lands at the
		 * preempted task's return to user space on its own CPU (the
		 * trace's waker ran elsewhere, but this wakeup stands for the
		 * block's own, no IPI to wait for): the local path's cost.
		 */
		path = WL_PATH_PREEMPT_LOCAL;
		s->notes[SIM_NOTE_STANDIN_LOCAL]++;
	}
	at = now + (no_cost ? 0 : sim_cost(s, path, ctx, cpu, task, seq, now));
	if (path == WL_PATH_PREEMPT_LOCAL && ctx == CALIB_CTX_TASK && !no_cost &&
	    (s->cfg.resched_at == REPLAY_RESCHED_TRACED ||
	     s->cfg.resched_at == REPLAY_RESCHED_NEXT_WAKE)) {
		uint64_t run = traced_switch_run(s, cpu, task, w);

		if (run != UINT64_MAX) {
			/*
			 * The trace switched this waker out for this wakee
			 * after the RUN it has left: that run (the rest of
			 * its write, its return to user space, __schedule())
			 * was this wakeup's mechanism, measured.  It runs on
			 * to its hand-off WAIT, which switches it (sim_run_ops());
			 * the drawn cost bounds it only if something delays
			 * that run.
			 */
			at += run;
			s->notes[SIM_NOTE_RESCHED_TRACED]++;
		}
	}
	if (path == WL_PATH_PREEMPT_LOCAL && ctx == CALIB_CTX_TASK) {
		struct sim_cpu *c = &s->cpus[cpu];

		if (c->curr >= 0 && c->other < 0 && in_kernel_section(s, (uint32_t)c->curr)) {
			/*
			 * The waker, current here, is inside a traced read or
			 * write: resched_curr_lazy() only set TIF_NEED_RESCHED
			 * (preempt=none), honoured at its return to user space,
			 * its exit mark (sim_run_ops()); a resched armed before is
			 * honoured there too.
			 */
			if (!c->resched_deferred) {
				s->notes[SIM_NOTE_RESCHED_DEFERRED]++;
				c->resched_due = 0;
			}
			/* its own wakee's: the cost was the rest of the call */
			if (c->resched_at != UINT64_MAX &&
			    (!c->resched_due || c->resched_at < c->resched_due))
				c->resched_due = c->resched_at;
			c->resched_deferred = true;
			c->resched_at = UINT64_MAX;
			c->gen_resched++;
			return 0;
		}
	}
	if (not_before) {
		struct sim_cpu *c = &s->cpus[cpu];

		c->flush_end = not_before;      /* sched_ttwu_pending_last() */
		if (at < not_before) {
			at = not_before;
			/* an idle exit held: not a later member of a flush already armed there */
			if (c->resched_at == UINT64_MAX || c->resched_at > at)
				s->notes[SIM_NOTE_FLUSH_HOLD]++;
		}
	}
	return sim_arm_resched(s, cpu, at);
}

/*
 * The last wakeup of a wake-list flush (wake record @w, delivered at the end
 * its earlier members hold the idle exit of @cpu to), onto @cpu still
 * running idle with that idle exit pending (flush_last()): the kernel's
 * sched_ttwu_pending() enqueues every member under the rq lock, and only
 * after the interrupt do the idle loop's need_resched check and
 * schedule_idle() -> __schedule() pick.  So the switch follows this last
 * enqueue by the idle exit: under --flush-last cost|lead the switch armed
 * there (the hold, or this wakeup's own resched_after_hold()) is moved to no
 * earlier than @now + this wakee's own idle-path cost (cost: waking ->
 * switch-in, measured; on a CPU whose idle exits are restored, its waking ->
 * sched_wakeup) or the trace's __schedule() clock lead (lead), whichever
 * member the pick takes.  Under held (the default) a wakee queued at the
 * held end is switched in at once: 0 us (idle-io: 32.5 a run, 2 measured).
 */
static bool flush_last(const struct sim *s, int cpu, const struct wl_wake *w)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	return s->cfg.flush_last != REPLAY_FLUSH_LAST_HELD && !s->cfg.no_flush_hold &&
	       !s->cfg.no_costs && w && !w->flush_ns &&
	       w->waker == WL_NONE && w->cpu == cpu && c->flush_end == w->ts && !sim_cpu_busy(c) &&
	       c->resched_at != UINT64_MAX && model_need_resched(s->m, cpu);
}

static int sched_ttwu_pending_last(struct sim *s, int cpu, enum calib_ctx ctx, uint32_t task,
				   uint32_t seq, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t at;

	c->flush_end = 0;
	if (sim_cpu_busy(c) || c->resched_at == UINT64_MAX)
		return 0;
	at = now + (s->cfg.flush_last == REPLAY_FLUSH_LAST_LEAD ? s->facts->switch_lead_ns :
		    sim_cost(s, WL_PATH_IDLE, ctx, cpu, task, seq, now));
	if (at <= c->resched_at)
		return 0;
	s->notes[SIM_NOTE_FLUSH_TAIL]++;
	c->resched_at = at;
	return sim_heap_push(s, at, HEV_RESCHED, cpu, ++c->gen_resched);
}

/* The same, with no interrupt to wait for. */
int sim_resched_after(struct sim *s, int cpu, bool was_idle, int waker_cpu,
		      enum calib_ctx ctx, uint32_t task, uint32_t seq, uint64_t now)
{
	return resched_after_hold(s, cpu, was_idle, waker_cpu, ctx, task, seq, 0, false, NULL, now);
}

/* The comm, pid and prio a switch or wakeup shows for @who on @cpu (-1: the idle task). */
static void ident(const struct sim *s, int32_t who, int cpu, char *comm, int32_t *pid,
		  int32_t *prio)
{
	if (who >= 0) {
		memcpy(comm, s->tasks[who].comm, TRACE_COMM_LEN);
		*pid = s->wt[who].pid;
		*prio = s->tasks[who].prio;
	} else if (who == SIM_SYNTH_STOPPER) {
		snprintf(comm, TRACE_COMM_LEN, "migration/%u", (unsigned int)cpu % 10000u);
		*pid = SIM_SYNTH_STOPPER_PID + cpu;
		*prio = 0;
	} else {
		snprintf(comm, TRACE_COMM_LEN, "swapper/%u", (unsigned int)cpu % 10000u);
		*pid = 0;
		*prio = 120;
	}
}

/*
 * Whether the switch from idle on @cpu at @now is the start's switch-in that
 * --start-switch counts apart: the CPU's first switch, at the trace's first
 * timestamp, on a CPU the trace starts with a task running (WL_INIT_RUNNING),
 * under apart any such CPU, under lost one whose lost-events window is at the
 * start (replay_config.start_switch).
 */
static bool start_switch_apart(const struct sim *s, int cpu, int32_t prev, uint64_t now)
{
	bool running = false;

	if (s->cfg.start_switch == REPLAY_START_SWITCH_COUNT || prev != -1 ||
	    s->cpus[cpu].switched || now != wl_first_ts(s->wl))
		return false;
	/*
	 * only where the trace starts the CPU with a task running (its switch
	 * in before the trace); a CPU whose first record is a switch from idle
	 * (its first task queued there) holds the switch the simulation's
	 * matches
	 */
	for (uint32_t i = 0; i < s->nr_tasks && !running; i++)
		running = s->wt[i].init_state == WL_INIT_RUNNING && s->wt[i].init_cpu == cpu;
	if (!running)
		return false;
	if (s->cfg.start_switch == REPLAY_START_SWITCH_APART)
		return true;
	for (uint32_t i = 0; i < wl_nr_lost_windows(s->wl); i++) {
		const struct wl_lost_window *w = wl_lost_window(s->wl, i);

		if (w->cpu == cpu && w->at_start)
			return true;
	}
	return false;
}

int sim_emit_switch(struct sim *s, int cpu, int32_t prev, int64_t prev_state,
		    enum trace_task_state prev_run, bool preempt, int32_t next, uint64_t now)
{
	struct trace_event ev;
	struct trace_sched_switch *sw = &ev.u.sched_switch;
	int ret;

	s->in_start_switch = start_switch_apart(s, cpu, prev, now);

	if (next == -1 && prev != -1)
		s->cpus[cpu].idle_since = now;    /* idle_residency() */
	if (prev == -1 && restored_cpu(s, cpu)) {
		/* the counterpart of a switch the reader's repair restored */
		s->switch_restored++;
		if (sim_unseen(s, cpu, now))
			s->restored_unseen++;
	} else if (prev == -1 && cpu < 64 && (s->facts->idle_exit_untraced >> cpu & 1)) {
		/*
		 * Not restored (the raw stream): the tracer would not have
		 * recorded it (wl_facts.idle_exit_untraced).
		 */
		s->in_start_switch = false;
		return 0;
	}
	sim_event_init(s, &ev, TRACE_EV_SCHED_SWITCH, cpu, now, 0);
	ident(s, prev, cpu, sw->prev_comm, &sw->prev_pid, &sw->prev_prio);
	ev.common_pid = sw->prev_pid;
	sw->prev_state = prev_state;
	sw->prev_run = prev_run;
	sw->prev_preempt = preempt;
	ident(s, next, cpu, sw->next_comm, &sw->next_pid, &sw->next_prio);
	ret = sim_emit(s, &ev);
	s->in_start_switch = false;
	s->cpus[cpu].switched = true;
	return ret;
}

/* A deferred traced migration of queued task @ti (see WL_T_MIGRATE). */
static int apply_pending_migration(struct sim *s, uint32_t ti, uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];
	int from = t->cpu, dst = t->pending_cpu;

	t->pending_cpu = -1;
	if (dst == from || model_migrate_task(s->m, t->mt, dst, now) < 0)
		return 0;
	t->cpu = dst;
	if (sim_emit_migrate(s, ti, from, dst, dst, now))
		return -1;
	if (model_need_resched(s->m, dst))
		return sim_arm_resched(s, dst, now);
	return 0;
}

/*
 * --idle-tick short: whether idle CPU @cpu keeps its tick for the trace's
 * idle interval @iv (tick_nohz_idle_stop_tick() -> tick_nohz_next_event():
 * the tick stays when the CPU's next timer event is at most TICK_NSEC away;
 * can_stop_idle_tick() aside).  The trace shows that timer only through what
 * it wakes: the interval must be at most a tick long and end at a wake raised
 * on the CPU itself in interrupt/softirq context (WL_IDLE_END_LOCAL).  A
 * remote wake (another CPU's, by IPI) says nothing of the CPU's own timers:
 * the tick stops.  --idle-tick any drops that condition: tick52's captures
 * (docs/validation-log.md, "The kept idle ticks, seen directly") show the
 * kernel's short idles keeping their tick whatever wake ended them.
 */
static bool idle_tick_kept(const struct sim *s, int cpu, const struct wl_idle *iv)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	return s->cfg.idle_tick != REPLAY_IDLE_TICK_STOP && c->other < 0 && !c->stalled &&
	       iv && iv->end - iv->start <= s->tick_ns &&
	       (iv->ended_by == WL_IDLE_END_LOCAL || s->cfg.idle_tick == REPLAY_IDLE_TICK_ANY);
}

/*
 * `OP cpu=C kept=K iv=START-END ended_by=E` (--idle-tick short, analysis
 * only): the rule's decision and the trace idle interval @iv it read (iv=0-0
 * ended_by=- when none), OP idle_entry at a switch that left the CPU idle
 * (the nohz mask: model_idle_tick()), idle_tick at the first tick of an idle
 * CPU (HEV_TICK): tests/replay/idle_ticks.py matches them to the kernel's.
 */
static void dump_idle_rule(struct sim *s, int cpu, uint64_t now, const char *op,
			   const struct wl_idle *iv)
{
	static const char *const end[] = { "none", "local", "remote" };

	if (!s->cfg.dump || !s->cfg.dump_ops)
		return;
	sim_dump_op(s, cpu, now, "%s cpu=%d kept=%d iv=%" PRIu64 "-%" PRIu64 " ended_by=%s", op, cpu,
		    idle_tick_kept(s, cpu, iv), iv ? iv->start : 0, iv ? iv->end : 0,
		    iv && iv->ended_by < 3 ? end[iv->ended_by] : "-");
}

/*
 * The same at a switch on @cpu at @now that may leave it idle: the trace's
 * idle interval holding @now, or else the next one if it starts within a
 * tick (the simulation went idle a little earlier than the trace).
 */
static const struct wl_idle *idle_at_entry(const struct sim *s, int cpu, uint64_t now)
{
	const struct wl_idle *iv = wl_cpu_idle_next(s->wl, cpu, now);

	if (iv && iv->start > now && iv->start - now > s->tick_ns)
		iv = NULL;
	return iv;
}

/*
 * model_schedule() at @now on @cpu.  Under placement trace, its newidle
 * balance may pull a waiting task only while the trace shows the CPU busy:
 * the simulation, not the kernel, left it idle next to waiting tasks (a
 * CPU the trace shows idle too did not pull in the kernel, or its pull is
 * a traced migration).
 */
struct model_task *sim_model_schedule(struct sim *s, int cpu, enum model_prev how,
				      uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	const struct wl_idle *iv = NULL;
	struct model_task *next;

	if (s->cfg.idle_tick != REPLAY_IDLE_TICK_STOP) {
		iv = idle_at_entry(s, cpu, now);
		model_idle_tick(s->m, cpu, idle_tick_kept(s, cpu, iv));
	}

	if (s->cfg.placement == REPLAY_PLACEMENT_TRACE && s->cfg.idle_pull)
		model_set_newidle_moves(s->m, !wl_cpu_idle_at(s->wl, cpu, now,
							       &s->idle_cursor[cpu % 64]));
	/*
	 * --standin-skip drop: the task blocks (or exits) with a clock skip
	 * pending that only an early wake's stand-in wakeup asked for.  On the
	 * preempt=none capture kernel that preemption would have landed at
	 * its return to user space, before it could block in a later system
	 * call, and that __schedule() would have taken the skip: this one
	 * updates the clock (update_rq_clock()), its dequeue charges its run.
	 */
	if (c->skip_standin && how != MODEL_PREV_RUNNABLE && c->curr >= 0 &&
	    (s->cfg.standin_skip == REPLAY_STANDIN_SKIP_DROP ||
	     s->cfg.standin_skip == REPLAY_STANDIN_SKIP_DROP_LOCAL ||
	     (s->cfg.standin_skip == REPLAY_STANDIN_SKIP_DROP_OWN &&
	      c->skip_standin == SIM_SKIP_STANDIN_OWN)) &&
	    model_clock_skip_cancel(s->m, cpu))
		s->notes[SIM_NOTE_STANDIN_SKIP_DROPPED]++;
	c->skip_standin = 0;         /* this __schedule() takes any request */
	next = model_schedule(s->m, cpu, how, now);
	if (!next && s->cfg.idle_tick != REPLAY_IDLE_TICK_STOP)
		dump_idle_rule(s, cpu, now, "idle_entry", iv);
	return next;
}

/*
 * Traced balancer pulls of tasks the simulation has not forked or woken
 * yet (WL_T_MIGRATE of a task the trace had queued): the kernel moved the
 * task, waiting on the CPU its fork or wakeup put it on, to a CPU that went
 * idle (forkexec: xargs's children, queued on the parent's CPU, pulled by
 * the other when it idled).  Applied at the trace time they were dropped,
 * the task not existing or asleep here.  Kept as what they were, "that
 * CPU, idle, takes it": at the fork or wakeup if that CPU is idle then,
 * else when it goes idle while the task still waits there (before the
 * model's pick); dropped when the task runs first.
 */
int sim_pull_note(struct sim *s, uint32_t ti, int cpu)
{
	struct sim_task *t = &s->tasks[ti];

	if (t->pull_cpu < 0) {
		if (s->nr_pulls == s->cap_pulls) {
			uint32_t ncap = s->cap_pulls ? 2 * s->cap_pulls : 64;
			uint32_t *p = realloc(s->pulls, ncap * sizeof(*p));

			if (!p)
				return -1;
			s->pulls = p;
			s->cap_pulls = ncap;
		}
		s->pulls[s->nr_pulls++] = ti;
	}
	t->pull_cpu = cpu;
	return 0;
}

/* @cpu is about to go idle: take a waiting task the trace's balancer pulled there. */
static int pull_waiting(struct sim *s, int cpu, uint64_t now)
{
	uint32_t k = 0;
	int ret = 0;

	for (uint32_t i = 0; i < s->nr_pulls; i++) {
		uint32_t ti = s->pulls[i];
		struct sim_task *t = &s->tasks[ti];
		int from = t->cpu;

		if (t->pull_cpu < 0)
			continue;                      /* done: dropped from the list */
		s->pulls[k++] = ti;
		if (ret || t->pull_cpu != cpu || t->st != SIM_QUEUED || from == cpu || !t->mt ||
		    model_migrate_task(s->m, t->mt, cpu, now) < 0)
			continue;
		t->cpu = cpu;
		t->pull_cpu = -1;
		k--;
		s->notes[SIM_NOTE_PULL_AT_IDLE]++;
		ret = sim_emit_migrate(s, ti, from, cpu, cpu, now) ? -1 : 1;
	}
	s->nr_pulls = k;
	return ret < 0 ? -1 : 0;
}

/*
 * --newidle-pulls block.  A traced newidle pull (struct wl_newidle) is the
 * kernel's sched_balance_newidle() in the __schedule() of a task X that
 * blocked or exited with no fair task left on its CPU: __schedule() ->
 * pick_next_task() -> pick_next_task_fair() (or balance_fair() from
 * prev_balance()), which finds the cfs_rq empty (X dequeued by then) and
 * balances before it picks: sched_balance_newidle() -> sched_balance_rq()
 * with CPU_NEWLY_IDLE detaches a task queued on the busiest CPU
 * (detach_task(): deactivate_task() there, set_task_cpu(), which writes the
 * sched_migrate_task in X's context), attaches it here, and the pick takes
 * it (kernel/sched/fair.c, 6.12).  So the move belongs to X's block on the
 * destination, not to its trace time: applied there when the simulation's
 * block comes within REPLAY_NEWIDLE_WINDOW_NS of the trace time, no other
 * fair task is queued on the CPU (else the kernel would not have balanced:
 * sched_balance_newidle() runs only when the pick found nothing) and the
 * task waits queued on another CPU (not running there: a running task is
 * not detached, can_migrate_task() -> task_on_cpu()).  Otherwise the pull
 * is applied at its trace time as any traced migration (a block later than
 * the trace time holds it until the window ends: HEV_NEWIDLE).
 */
enum { SIM_NI_PENDING = 0, SIM_NI_DONE, SIM_NI_HELD, SIM_NI_OVER };

/*
 * Traced newidle pull @r, pending or held, is given up for its block: applied
 * now as any traced migration at its trace time.  0, or -1 on error.
 */
static int newidle_as_timed(struct sim *s, uint32_t r, uint64_t now)
{
	s->ni_state[r] = SIM_NI_OVER;
	s->notes[SIM_NOTE_NEWIDLE_AT_TIME]++;
	return sim_apply_traced_migration(s, wl_timed_at(s->wl, wl_newidle_at(s->wl, r)->timed), now);
}

/* The traced newidle pull of timed entry @e, WL_NONE if it is none. */
uint32_t sim_newidle_of_timed(const struct sim *s, const struct wl_timed *e)
{
	uint32_t ti = (uint32_t)(e - wl_timed_at(s->wl, 0)), lo = 0, hi = wl_nr_newidle(s->wl);

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (wl_newidle_at(s->wl, mid)->timed < ti)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < wl_nr_newidle(s->wl) && wl_newidle_at(s->wl, lo)->timed == ti ? lo : WL_NONE;
}

/*
 * Task @x blocks or exits on @cpu (before the model's pick, with @x still
 * its current): the traced newidle pull of that block, if any, handed to
 * the model's sched_balance_newidle() of this __schedule()
 * (model_set_traced_newidle()); *@r its index, WL_NONE if none was.  A held
 * one whose conditions fail here is applied now as at its trace time.  0,
 * or -1 on error.
 */
static int newidle_at_block(struct sim *s, int cpu, uint32_t x, uint64_t now, uint32_t *rp)
{
	struct sim_task *xt = &s->tasks[x];
	uint32_t k = xt->op ? xt->op - 1 : 0, r;    /* the BLOCK / EXIT op: passed already */
	const struct wl_newidle *p;
	const struct wl_timed *e;
	struct sim_task *t;
	bool window;
	uint8_t st;

	*rp = WL_NONE;
	while (xt->ni_cur != WL_NONE && wl_newidle_at(s->wl, xt->ni_cur)->block_op < k) {
		r = xt->ni_cur;
		xt->ni_cur = s->ni_next[r];
		/* held for a block passed without it (not a BLOCK op here) */
		if (s->ni_state[r] == SIM_NI_HELD && newidle_as_timed(s, r, now))
			return -1;
	}
	r = xt->ni_cur;
	if (r == WL_NONE || (p = wl_newidle_at(s->wl, r))->block_op != k)
		return 0;
	xt->ni_cur = s->ni_next[r];
	st = s->ni_state[r];
	if (st != SIM_NI_PENDING && st != SIM_NI_HELD)
		return 0;
	e = wl_timed_at(s->wl, p->timed);
	t = e->task < s->nr_tasks ? &s->tasks[e->task] : NULL;
	window = s->cfg.newidle_pulls == REPLAY_NEWIDLE_PULLS_HOLD ||
		 (now <= e->ts ? e->ts - now <= REPLAY_NEWIDLE_WINDOW_NS :
		  st == SIM_NI_HELD && now - e->ts <= REPLAY_NEWIDLE_WINDOW_NS);
	if (t && t->st == SIM_RUNNING)
		s->notes[SIM_NOTE_NEWIDLE_RUNNING]++;
	if (!window || e->cpu != cpu || !t || !t->mt || t->st != SIM_QUEUED || t->cpu == cpu ||
	    model_nr_queued(s->m, cpu) > 1) {
		if (st == SIM_NI_PENDING)
			return 0;            /* at its trace time, as any traced migration */
		return newidle_as_timed(s, r, now);   /* held: as at its trace time, now */
	}
	model_set_traced_newidle(s->m, t->mt, cpu);
	*rp = r;
	return 0;
}

/*
 * After the model's pick on @cpu for traced newidle pull @r
 * (newidle_at_block()): the migration its sched_balance_newidle() made,
 * emitted in the blocker's context; if the pick took another task, the
 * pull is left to its trace time (held: applied now).  0, or -1 on error.
 */
static int newidle_after_pick(struct sim *s, int cpu, uint32_t r, int from, uint64_t now)
{
	const struct wl_timed *e = wl_timed_at(s->wl, wl_newidle_at(s->wl, r)->timed);
	bool done = model_traced_newidle_done(s->m);
	uint8_t st = s->ni_state[r];

	model_set_traced_newidle(s->m, NULL, -1);
	if (!done)
		return st == SIM_NI_PENDING ? 0 : newidle_as_timed(s, r, now);
	s->ni_state[r] = SIM_NI_DONE;
	s->notes[st == SIM_NI_HELD ? SIM_NOTE_NEWIDLE_LATE : SIM_NOTE_NEWIDLE_EARLY]++;
	s->tasks[e->task].cpu = cpu;
	if (sim_emit_migrate(s, e->task, from, cpu, cpu, now))
		return -1;
	/* the detach's update_curr() on the source (its request may end there) */
	return sim_arm_source_resched(s, from, now);
}

/*
 * The trace time of traced newidle pull @e (wl_newidle index @r): 1 if it
 * was applied at its block already or is held for it, 0 to apply it as any
 * traced migration, -1 on error.
 */
int sim_newidle_at_time(struct sim *s, const struct wl_timed *e, uint32_t r)
{
	const struct wl_newidle *p = wl_newidle_at(s->wl, r);
	const struct sim_task *xt = p->blocker < s->nr_tasks ? &s->tasks[p->blocker] : NULL;
	const struct sim_task *t = e->task < s->nr_tasks ? &s->tasks[e->task] : NULL;

	switch (s->ni_state[r]) {
	case SIM_NI_DONE:
		return 1;
	case SIM_NI_PENDING:
		break;
	default:
		return 0;                     /* HEV_NEWIDLE's window end */
	}
	if (xt && t && s->cfg.newidle_pulls == REPLAY_NEWIDLE_PULLS_HOLD &&
	    xt->st != SIM_DEAD && xt->op <= p->block_op && e->cpu >= 0 && e->cpu < s->nr_cpus) {
		/* hold: the block comes later here, however much: held for it */
		s->ni_state[r] = SIM_NI_HELD;
		s->notes[SIM_NOTE_NEWIDLE_HELD]++;
		return 1;
	}
	if (xt && t && xt->ni_cur == r && xt->cpu == e->cpu &&
	    (xt->st == SIM_RUNNING || xt->st == SIM_QUEUED) && xt->op <= p->block_op &&
	    t->st == SIM_QUEUED && e->cpu >= 0 && e->cpu < s->nr_cpus) {
		/* the block comes later here: held for it, up to the window's end */
		s->ni_state[r] = SIM_NI_HELD;
		s->notes[SIM_NOTE_NEWIDLE_HELD]++;
		if (sim_heap_push(s, e->ts + REPLAY_NEWIDLE_WINDOW_NS, HEV_NEWIDLE, e->cpu, r))
			return -1;
		return 1;
	}
	if (t && t->st == SIM_RUNNING)
		s->notes[SIM_NOTE_NEWIDLE_RUNNING]++;
	s->ni_state[r] = SIM_NI_OVER;
	s->notes[SIM_NOTE_NEWIDLE_AT_TIME]++;
	return 0;
}

/*
 * __schedule() on @cpu: the current fair task leaves as @how says, the model
 * picks the next one.  @block_state is the raw prev_state for SLEEP/DEAD;
 * for RUNNABLE, SIM_STATE_YIELD makes the switch a voluntary one (yield_to()
 * calls schedule() with the task running: prev_state 0, "R", not the
 * preemption's "R+").
 */
int sim_schedule_lead(struct sim *s, int cpu, enum model_prev how, int64_t block_state,
		      uint64_t lead, uint64_t now)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int32_t prev = c->curr, next;
	struct model_task *mt;
	uint32_t ni = WL_NONE;       /* a traced newidle pull handed to the pick */
	int ni_from = -1;
	uint64_t clk = now > lead ? now - lead : now;   /* this __schedule()'s clock read */
	uint64_t ni_seq;

	sim_charge(s, cpu, now);
	c->resched_at = UINT64_MAX;
	c->gen_resched++;
	c->resched_deferred = false;
	if (prev >= 0)
		s->tasks[prev].resched_at_block = s->tasks[prev].resched_after_wake = false;
	if (c->other >= 0) {
		/* an RT/DL task holds the CPU: the fair pick waits for it */
		return 0;
	}
	/*
	 * __schedule() read the clock @lead (switch_lead_ns, or a block's own:
	 * sim_block_lead()) before the switch the trace shows: prev is charged up
	 * to then, next from then (the model's clocks never go back, so this
	 * is at most the time since its last update on this CPU).
	 */
	if (s->ni_state && prev >= 0 && how != MODEL_PREV_RUNNABLE &&
	    newidle_at_block(s, cpu, (uint32_t)prev, clk, &ni))
		return -1;
	if (ni != WL_NONE)
		ni_from = s->tasks[wl_timed_at(s->wl, wl_newidle_at(s->wl, ni)->timed)->task].cpu;
	if (s->nr_pulls && (prev < 0 || how != MODEL_PREV_RUNNABLE) &&
	    model_nr_queued(s->m, cpu) <= (prev >= 0 ? 1u : 0u) && pull_waiting(s, cpu, now))
		return -1;
	ni_seq = model_last_newidle(s->m)->seq;
	mt = sim_model_schedule(s, cpu, how, clk);
	if (ni != WL_NONE && newidle_after_pick(s, cpu, ni, ni_from, clk))
		return -1;
	next = mt ? (int32_t)model_task_id(mt) : -1;
	if (prev >= 0 && how != MODEL_PREV_RUNNABLE)
		sim_dump_newidle(s, cpu, now, s->wt[prev].pid, next >= 0 ? s->wt[next].pid : 0, ni_seq,
				 "fair");
	if (prev >= 0) {
		struct sim_task *pt = &s->tasks[prev];

		if (how == MODEL_PREV_RUNNABLE && next != prev)
			pt->st = SIM_QUEUED;
		if (next != prev && pt->wo_wait != WL_NONE)
			pt->wo_out = true;        /* its write-on ends: see writeon_bound() */
		if (pt->hold_cpu >= 0 && pt->op >= pt->hold_op && pt->st != SIM_DEAD &&
		    (how == MODEL_PREV_RUNNABLE || pt->wait_asleep || pt->op > pt->hold_op)) {
			/*
			 * --queued-moves position: past the point where the
			 * trace moved it: preempted, it moves now (after the
			 * switch: apply_pending_migration()); asleep in a WAIT,
			 * at its release; asleep in a traced block past that
			 * point, the trace's wakeup places it.  Asleep in the
			 * block right before it (the trace moved it queued
			 * after that block's wakeup), the wakeup places it
			 * there (wake_task()).
			 */
			if (pt->hold_cpu != pt->cpu && (how == MODEL_PREV_RUNNABLE || pt->wait_asleep)) {
				pt->pending_cpu = pt->hold_cpu;
				s->notes[SIM_NOTE_MOVE_HELD_APPLIED]++;
			}
			pt->hold_cpu = -1;
		}
		if (how != MODEL_PREV_RUNNABLE) {
			/* --queued-moves wait: a WAIT's sleep keeps it for the release */
			if (s->cfg.queued_moves != REPLAY_QUEUED_MOVES_TIME && pt->wait_asleep &&
			    pt->pending_cpu >= 0 &&
			    pt->pending_cpu != pt->cpu) {
				pt->move_cpu = pt->pending_cpu;
				s->notes[SIM_NOTE_WAIT_PULL]++;
			}
			pt->pending_cpu = -1;     /* asleep: its wakeup places it */
		}
	}
	if (next != prev) {
		enum trace_task_state run = TRACE_STATE_RUNNING;
		int64_t state = 0;
		bool preempt = false;

		if (prev >= 0) {
			switch (how) {
			case MODEL_PREV_RUNNABLE:
				if (block_state != SIM_STATE_YIELD) {
					state = s->facts->preempt_state;
					preempt = true;
				}
				break;
			case MODEL_PREV_SLEEP:
			case MODEL_PREV_SPECIAL:
				state = block_state;
				run = TRACE_STATE_SLEEPING;
				break;
			case MODEL_PREV_DEAD:
				state = block_state;
				run = TRACE_STATE_DEAD;
				break;
			}
		}
		if (sim_emit_switch(s, cpu, prev, state, run, preempt, next, now))
			return -1;
		c->curr = next;
		if (next >= 0) {
			struct sim_task *nt = &s->tasks[next];

			nt->st = SIM_RUNNING;
			nt->cpu = cpu;
			nt->wait_asleep = false;
			if (nt->pull_cpu >= 0) {
				/* it ran where it was before the pulling CPU idled */
				nt->pull_cpu = -1;
				s->notes[SIM_NOTE_PULL_DROPPED]++;
			}
		}
	}
	c->run_start = now;
	if (c->curr >= 0 && model_need_resched(s->m, cpu) && c->resched_at == UINT64_MAX) {
		/*
		 * Picked from a throttled hierarchy (CPU bandwidth): the task
		 * runs until its return to user space, where its throttle work
		 * dequeues it; that is its next __schedule() here, after the
		 * local preemption path's cost.
		 */
		s->notes[SIM_NOTE_BW_THROTTLE_PICKS]++;
		if (sim_arm_resched(s, cpu, now + sim_cost(s, WL_PATH_PREEMPT_LOCAL, CALIB_CTX_TASK, cpu,
							   (uint32_t)c->curr, s->tasks[c->curr].op, now)))
			return -1;
	}
	if (prev >= 0 && prev != next && s->tasks[prev].st == SIM_QUEUED &&
	    s->tasks[prev].pending_cpu >= 0 && apply_pending_migration(s, (uint32_t)prev, now))
		return -1;
	if (c->curr >= 0) {
		if (sim_arm_tick(s, cpu, now))
			return -1;
		if (next != prev || how != MODEL_PREV_RUNNABLE)
			return sim_run_ops(s, cpu, now);
		return sim_arm_op_done(s, cpu, now);
	}
	c->gen_op++;
	return 0;
}

int sim_schedule_ex(struct sim *s, int cpu, enum model_prev how, int64_t block_state,
		    uint64_t now)
{
	return sim_schedule_lead(s, cpu, how, block_state, s->facts->switch_lead_ns, now);
}

/*
 * --block-lead traced: a BLOCK's __schedule() read the clock where the trace
 * shows its dequeue's charge (its last sched_stat_runtime in that run), so
 * the time from there to its switch is the next task's (set_next_entity()
 * starts its exec_start at that clock), also where an untraced stall sits
 * in between; median: switch_lead_ns for every block.
 */
uint64_t sim_block_lead(const struct sim *s, const struct wl_op *op)
{
	uint64_t lead = wl_block_lead_ns(op);

	if (s->cfg.block_lead != REPLAY_BLOCK_LEAD_TRACED || lead == UINT64_MAX)
		return s->facts->switch_lead_ns;
	return lead;
}

int sim_do_schedule(struct sim *s, int cpu, enum model_prev how, uint64_t now)
{
	return sim_schedule_ex(s, cpu, how, 0, now);
}

/* ---- wakeups and forks ---------------------------------------------------- */

/* sim_emit_wake_event() of @who, a task or SIM_SYNTH_STOPPER (of @target_cpu) */
int sim_emit_wake_of(struct sim *s, enum trace_event_type type, int32_t who, int cpu,
		     int target_cpu, int32_t common_pid, uint64_t now)
{
	struct trace_event ev;

	sim_event_init(s, &ev, type, cpu, now, common_pid);
	ident(s, who, target_cpu, ev.u.wakeup.comm, &ev.u.wakeup.pid, &ev.u.wakeup.prio);
	ev.u.wakeup.target_cpu = target_cpu;
	ev.u.wakeup.success = 1;
	return sim_emit(s, &ev);
}

int sim_emit_wake_event(struct sim *s, enum trace_event_type type, uint32_t ti, int cpu,
			int target_cpu, int32_t common_pid, uint64_t now)
{
	return sim_emit_wake_of(s, type, (int32_t)ti, cpu, target_cpu, common_pid, now);
}

int sim_emit_migrate(struct sim *s, uint32_t ti, int from, int to, int cpu, uint64_t now)
{
	struct trace_event ev;

	sim_event_init(s, &ev, TRACE_EV_SCHED_MIGRATE_TASK, cpu, now, 0);
	memcpy(ev.u.migrate.comm, s->tasks[ti].comm, TRACE_COMM_LEN);
	ev.u.migrate.pid = s->wt[ti].pid;
	ev.u.migrate.prio = s->tasks[ti].prio;
	ev.u.migrate.orig_cpu = from;
	ev.u.migrate.dest_cpu = to;
	return sim_emit(s, &ev);
}

int32_t sim_cpu_pid(const struct sim *s, int cpu)
{
	const struct sim_cpu *c;

	if (cpu < 0 || cpu >= s->nr_cpus)
		return 0;
	c = &s->cpus[cpu];
	if (c->other >= 0)
		return s->wt[c->other].pid;
	return c->curr >= 0 ? s->wt[c->curr].pid : 0;
}

/*
 * --wake-clock traced: a local wakeup (the waker on the target CPU) reads
 * the rq clock wl_facts.wake_clock_ns after its sched_waking, as the capture
 * kernel's enqueue did; the model's clocks never go back, so the later
 * events of this CPU read at least that clock.
 */
uint64_t sim_wake_clock_delay(const struct sim *s, int waker_cpu, int cpu)
{
	if (s->cfg.wake_clock != REPLAY_WAKE_CLOCK_TRACED || waker_cpu < 0 || waker_cpu != cpu)
		return 0;
	return s->facts->wake_clock_ns;
}

/*
 * --initial-lag infer: what the trace shows wake record @w's wakeup check
 * decide, where the simulation replays it as the trace made it: a local
 * wakeup by a fair task that is running on the target CPU here too.  The
 * wakee switched in at the waker's next switch, the waker runnable (a local
 * preemption path, no other decision point before it: uncontested):
 * preempted.  It waited behind the running task (queued) and the waker did
 * not sleep right after it (not a sync wake, where a preemption the check
 * asked for would be lost in the block): not preempted.  Else unknown.
 */
static enum model_wakeup_expect traced_check(const struct sim *s, const struct wl_wake *w,
					     int cpu)
{
	if (!w || w->src != WL_SRC_TASK || w->waker == WL_NONE || w->waker_cpu != w->cpu ||
	    (w->flags & (WL_WAKE_NEW | WL_WAKE_SPURIOUS | WL_WAKE_ON_CPU)) ||
	    s->cpus[cpu].curr != (int32_t)w->waker)
		return MODEL_EXPECT_NONE;
	if (w->path == WL_PATH_PREEMPT_LOCAL && !w->contested)
		return MODEL_EXPECT_PREEMPT;
	if (w->path == WL_PATH_QUEUED && !(w->flags & WL_WAKE_SYNC))
		return MODEL_EXPECT_NO_PREEMPT;
	return MODEL_EXPECT_NONE;
}

/* --initial-lag infer: what the wakeup of @ti made of an entity without history (notes, dump). */
static void initial_lag_seen(struct sim *s, uint32_t ti, enum model_wakeup_expect want, int cpu,
			     bool resched_before, uint64_t now)
{
	static const char *const what[] = {
		[MODEL_INITIAL_LAG_NONE] = "none", [MODEL_INITIAL_LAG_ZERO] = "zero",
		[MODEL_INITIAL_LAG_SET] = "set", [MODEL_INITIAL_LAG_INFEASIBLE] = "infeasible",
	};
	int64_t vlag;
	unsigned long weight;
	enum model_initial_lag r = model_initial_lag_last(s->m, &vlag, &weight);

	if (r == MODEL_INITIAL_LAG_NONE)
		return;
	s->notes[SIM_NOTE_INITIAL_LAG_MET]++;
	if (r == MODEL_INITIAL_LAG_SET)
		s->notes[vlag > 0 ? SIM_NOTE_INITIAL_LAG_POSITIVE : SIM_NOTE_INITIAL_LAG_NEGATIVE]++;
	else if (r == MODEL_INITIAL_LAG_INFEASIBLE)
		s->notes[SIM_NOTE_INITIAL_LAG_INFEASIBLE]++;
	if (!resched_before &&
	    model_need_resched(s->m, cpu) != (want == MODEL_EXPECT_PREEMPT))
		s->notes[SIM_NOTE_INITIAL_LAG_OTHERWISE]++;
	sim_dump_op(s, cpu, now, "initial-lag pid=%d want=%s result=%s vlag=%" PRId64 " weight=%lu",
		    s->wt[ti].pid, want == MODEL_EXPECT_PREEMPT ? "preempt" : "no-preempt", what[r],
		    vlag, weight);
}

/* wake_task()'s @seq (the cost draw) of a wakeup without a wake record */
#define SIM_SEQ_REPLY           0x40000000u  /* a hand-off waiter's release */
#define SIM_SEQ_CHANNEL         0x50000000u  /* a channel wake (--channels) */

/*
 * --queued-moves: where the wakeup of @t places it instead of @cpu (the
 * placement's), and in *@hold the CPU the trace's balancer moved it to
 * after it, queued (-1: none).
 */
static int queued_move_cpu(struct sim *s, struct sim_task *t, int cpu, const struct wl_wake *w,
			   int *hold)
{
	if (t->hold_cpu >= 0 && t->op >= t->hold_op) {
		/*
		 * --queued-moves position: the wakeup that brings it to the
		 * point where the trace's balancer moved it, queued, before it
		 * ran: woken as traced, then moved (wake_task()).
		 */
		*hold = t->hold_cpu;
		t->hold_cpu = -1;
		t->move_cpu = -1;
	}
	if (t->move_cpu >= 0) {
		/*
		 * --queued-moves wait: the trace's balancer moved it while it slept in
		 * a hand-off WAIT here (runnable in the kernel): the wake that
		 * releases it has no traced CPU, it goes where the trace
		 * moved it.  A traced wake record places it as traced.
		 */
		if (!w && t->move_cpu != cpu) {
			cpu = t->move_cpu;
			s->notes[SIM_NOTE_WAIT_PULL_PLACED]++;
		}
		t->move_cpu = -1;
	}
	return cpu;
}

/*
 * Before the wakeup of @t onto @cpu (the trace's @traced under --placement
 * trace) by wake record @w: the model's state of it (@before: delayed,
 * asleep) against the trace's wake path; a dequeue the kernel had completed
 * and the model has not is completed here.
 */
static void delayed_before_wake(struct sim *s, struct sim_task *t,
				const struct model_task_info *before, int cpu, int traced,
				const struct wl_wake *w, uint64_t now)
{
	enum wl_kpath kpath = WL_KPATH_UNKNOWN;

	/*
	 * --placement trace: the trace wakes the task on another CPU than the
	 * model's, where the model still has it delayed (DELAY_DEQUEUE).  A
	 * task still queued is requeued in place (ttwu_runnable()), so the
	 * kernel's had left its queue - picked as delayed, or its lag spent -
	 * before this wakeup: complete that dequeue, and the wakeup goes where
	 * the trace sent it instead of silently keeping the model's CPU.
	 */
	if (s->cfg.placement == REPLAY_PLACEMENT_TRACE && before->state == MODEL_TASK_DELAYED &&
	    before->cpu >= 0 && cpu != before->cpu && w && w->prev_cpu >= 0 &&
	    w->prev_cpu != traced && model_finish_delayed_dequeue(s->m, t->mt, now) == 1)
		s->notes[SIM_NOTE_DELAYED_MOVED]++;
	if (w && (before->state == MODEL_TASK_DELAYED || before->state == MODEL_TASK_SLEEPING))
		kpath = wl_wake_traced_path(s->wl, (uint32_t)(w - wl_wake(s->wl, 0)));
	if (kpath != WL_KPATH_UNKNOWN) {
		/* the wake path agreement (docs/replay.md, "Mechanical costs") */
		s->notes[SIM_NOTE_KPATH_KNOWN]++;
		if (kpath == WL_KPATH_ASLEEP && before->state == MODEL_TASK_DELAYED)
			s->notes[SIM_NOTE_KPATH_ASLEEP_DELAYED]++;
		else if (kpath == WL_KPATH_DELAYED && before->state == MODEL_TASK_SLEEPING)
			s->notes[SIM_NOTE_KPATH_DELAYED_ASLEEP]++;
	}
	/*
	 * --wake-path traced: the trace shows this local wakeup enqueue a task
	 * fully asleep (wl_wake_traced_path()), the model still has it delayed:
	 * the kernel's pick had completed its dequeue since its block
	 * (pick_next_entity() -> dequeue_entities() with DEQUEUE_DELAYED, at a
	 * lag pick_eevdf() found eligible, which DELAY_ZERO zeroed); complete
	 * it here at lag 0, and the wakeup places it as a sleeper instead of
	 * requeueing it in place.
	 */
	if (s->cfg.wake_path == REPLAY_WAKE_PATH_TRACED && kpath == WL_KPATH_ASLEEP &&
	    before->state == MODEL_TASK_DELAYED && model_finish_delayed_pick(s->m, t->mt, now) == 1)
		s->notes[SIM_NOTE_WAKE_PATH_DEQUEUED]++;
}

/* WL_OP_NICE @op of task @ti: set_user_nice() in the model, the prio its events show */
void sim_set_nice(struct sim *s, uint32_t ti, const struct wl_op *op, uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];
	int nice = (int)(int64_t)op->value;

	if (!t->mt || model_task_set_nice(s->m, t->mt, nice, now))
		s->notes[SIM_NOTE_BAD_NICE]++;
	else
		t->prio = 120 + nice;
}

/*
 * WL_OP_PI_SETPRIO @op made by the running task: rt_mutex_setprio() of the
 * task it names in the model (a requeue at its weight), the prio that task's
 * events show from here.
 */
int sim_pi_setprio(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op, uint64_t now)
{
	struct sim_task *p = op->arg < s->nr_tasks ? &s->tasks[op->arg] : NULL;

	if (!p || !p->mt ||
	    model_task_pi_setprio(s->m, p->mt, op->aux + 100, (int)op->value, now)) {
		s->notes[SIM_NOTE_BAD_PI]++;
		return 0;
	}
	p->prio = (int)op->value;
	/*
	 * A boost of a task queued on another CPU: prio_changed_fair()'s
	 * wakeup_preempt() there sets need_resched on that CPU, which the
	 * kernel's resched_curr() delivers by IPI (the remote path's cost).
	 */
	if (p->cpu >= 0 && p->cpu != cpu &&
	    sim_resched_after(s, p->cpu, false, cpu, CALIB_CTX_TASK, ti, 0x50000000u | s->tasks[ti].op,
			      now))
		return -1;
	return 0;
}

/*
 * Task @ti's ops after its current one are work and then a BLOCK: a waiter
 * that boosted the rt_mutex's holder (task_blocks_on_rt_mutex()) goes on to
 * rt_mutex_slowlock_block() -> schedule() in the same system call, so on a
 * preempt=none kernel the boost's resched is taken by that block.
 */
static bool runs_then(const struct sim *s, uint32_t ti, uint8_t kind)
{
	const struct wl_task *wt = &s->wt[ti];

	for (uint32_t op = s->tasks[ti].op + 1; op < wt->nr_ops; op++) {
		uint8_t k = s->ops[wt->first_op + op].kind;

		if (k == kind)
			return true;
		if (k != WL_OP_RUN)
			return false;
	}
	return false;
}

bool sim_runs_then_blocks(const struct sim *s, uint32_t ti)
{
	return runs_then(s, ti, WL_OP_BLOCK);
}

/*
 * Task @ti's ops after its current one are work and then a WAKE: the holder
 * that deboosted itself at its unlock (rt_mutex_slowunlock(), futex_unlock_pi()
 * -> mark_wakeup_next_waiter() -> rt_mutex_adjust_prio()) wakes the top
 * waiter next in the same call, with preemption disabled from before the
 * deboost to after wake_up_q() (rt_mutex_wake_up_q()'s preempt_enable()):
 * the deboost's resched_curr() is taken after that wake, never before.
 */
bool sim_runs_then_wakes(const struct sim *s, uint32_t ti)
{
	return runs_then(s, ti, WL_OP_WAKE);
}

/*
 * The nice changes the trace showed at the switch-in after blocked task
 * @ti's sleep (WL_OP_NICE right after its BLOCK): made while it slept
 * (renice, setpriority() by another task), so set_user_nice() reweighted it
 * before this wakeup's enqueue and place_entity() (its lag scaled by the
 * new weight, its deadline by the new slice share).  The ops themselves are
 * no-ops when reached.
 */
static void nice_before_wake(struct sim *s, uint32_t ti, uint64_t now)
{
	const struct wl_task *wt = &s->wt[ti];

	for (uint32_t op = s->tasks[ti].op; op < wt->nr_ops; op++) {
		const struct wl_op *o = &s->ops[wt->first_op + op];

		if (o->kind != WL_OP_NICE)
			break;
		sim_set_nice(s, ti, o, now);
	}
}

/*
 * try_to_wake_up() of blocked task @ti onto the CPU placement picks (the
 * trace's @traced CPU under --placement trace).  @seq draws the cost.
 */
static int wake_task(struct sim *s, uint32_t ti, int traced, int waker_cpu, int wcpu, int flags,
		     enum calib_ctx ctx, uint32_t seq, unsigned int how, const struct wl_wake *w,
		     uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];
	struct model_task_info before, after;
	int cpu;
	bool was_idle, idle_curr, nr_before[2], skip_before, flush_tail;
	int block_cpu = t->cpu;      /* a stand-in's: where its task has just blocked */
	int hold = -1, ret;
	enum model_wakeup_expect expect;

	if (w)
		dump_wake_op(s, "wake", wcpu, now, ti, w);
	/*
	 * What this wakeup stands for (--dump-samples): a wake record, its
	 * stand-in, a traced race; without one, a hand-off reply or an
	 * untraced channel wake (their cost draws' @seq tags, below).
	 */
	t->lat_ts = now;
	t->lat_wake = w ? (uint32_t)(w - s->wakes) : WL_NONE;
	t->lat_origin = (how & SIM_WAKE_STANDIN) ? REPLAY_SAMPLE_STANDIN :
			(how & SIM_WAKE_WAKING_EMITTED) ? REPLAY_SAMPLE_RACE :
			w ? REPLAY_SAMPLE_WAKE :
			(seq & 0xf0000000u) == SIM_SEQ_REPLY ? REPLAY_SAMPLE_REPLY :
			(seq & 0xf0000000u) == SIM_SEQ_CHANNEL ? REPLAY_SAMPLE_CHANNEL :
			REPLAY_SAMPLE_OTHER;
	/* the trace may have lost this wakeup's records: not compared (sim_unseen()) */
	s->in_lost_wake = w && w->in_lost;
	nice_before_wake(s, ti, now);
	if (!(how & SIM_WAKE_WAKING_EMITTED) &&
	    sim_emit_wake_event(s, TRACE_EV_SCHED_WAKING, ti, wcpu, t->cpu, sim_cpu_pid(s, wcpu), now))
		return -1;
	model_task_info(t->mt, &before);
	cpu = placement_cpu(s, t, traced, wcpu, flags, w, now);
	cpu = take_traced_pull(s, t, cpu);
	cpu = queued_move_cpu(s, t, cpu, w, &hold);
	t->wait_asleep = false;
	delayed_before_wake(s, t, &before, cpu, traced, w, now);
	was_idle = sim_cpu_idle(&s->cpus[cpu]);
	idle_curr = !sim_cpu_busy(&s->cpus[cpu]);
	/* need_resched before, on each CPU the wakeup can land on (--standin-skip) */
	nr_before[0] = model_need_resched(s->m, cpu);
	nr_before[1] = model_need_resched(s->m, before.cpu);
	skip_before = model_clock_skip_pending(s->m, cpu);
	expect = s->cfg.initial_lag != REPLAY_INITIAL_LAG_ZERO ? traced_check(s, w, cpu) :
		 MODEL_EXPECT_NONE;
	if (expect != MODEL_EXPECT_NONE)
		model_expect_wakeup(s->m, expect);
	if (model_try_to_wake_up(s->m, t->mt, cpu, waker_cpu, flags,
				 now + sim_wake_clock_delay(s, waker_cpu, cpu)) < 0) {
		s->notes[SIM_NOTE_BAD_WAKE]++;
		s->in_lost_wake = false;
		return 0;
	}
	if (expect != MODEL_EXPECT_NONE)
		initial_lag_seen(s, ti, expect, cpu, nr_before[0], now);
	model_task_info(t->mt, &after);
	/*
	 * --idle-clock local: a wakeup from another CPU onto an idle one went
	 * through the wake list (ttwu_queue_wakelist(): an idle target always
	 * does), so the kernel's enqueue, and the clock its skip keeps, came
	 * with the IPI on the target, close to the switch; the model enqueues
	 * at the waking.  Its skip request is withdrawn: charged from the
	 * switch as under update.  A fork's wake_up_new_task() enqueues from
	 * the parent's CPU and keeps it.
	 */
	if (s->cfg.idle_clock == REPLAY_IDLE_CLOCK_LOCAL && after.cpu == cpu && was_idle &&
	    wcpu != cpu && !(flags & MODEL_WF_FORK) && !skip_before &&
	    model_clock_skip_cancel(s->m, cpu))
		s->notes[SIM_NOTE_IDLE_CLOCK_REMOTE]++;
	if (after.cpu != before.cpu && before.cpu >= 0 &&
	    sim_emit_migrate(s, ti, before.cpu, after.cpu, wcpu, now))
		return -1;
	if (after.cpu != cpu) {      /* a delayed task requeues on its own CPU */
		was_idle = sim_cpu_idle(&s->cpus[after.cpu]);
		idle_curr = !sim_cpu_busy(&s->cpus[after.cpu]);
	}
	/*
	 * An early wake's stand-in that set need_resched on a running CPU
	 * made its clock skip request (wakeup_preempt()); a request made
	 * while need_resched was already set is the earlier resched's.
	 */
	if (s->in_standin && !(after.cpu == cpu ? nr_before[0] : nr_before[1]) &&
	    model_clock_skip_pending(s->m, after.cpu))
		s->cpus[after.cpu].skip_standin = after.cpu == block_cpu ? SIM_SKIP_STANDIN_OWN :
					       SIM_SKIP_STANDIN_OTHER;
	t->st = SIM_QUEUED;
	t->cpu = after.cpu;
	t->waiting = WL_NONE;
	s->woke_cpu = after.cpu;     /* waker_cost() */
	s->woke_idle = was_idle;
	if (t->standin) {            /* woken otherwise: its stand-in no longer work left */
		t->standin = false;
		s->standins_pending--;
	}
	if (sim_emit_wake_event(s, TRACE_EV_SCHED_WAKEUP, ti, after.cpu, after.cpu,
				sim_cpu_pid(s, after.cpu), now))
		return -1;
	/* the preemption it causes is the target CPU's, traced */
	s->in_lost_wake = false;
	flush_tail = !(how & SIM_WAKE_NO_COST) && flush_last(s, after.cpu, w);
	ret = resched_after_hold(s, after.cpu, was_idle, wcpu, ctx, ti, seq,
				 !s->cfg.no_flush_hold && idle_curr && w && w->flush_ns &&
				 w->waker == WL_NONE && after.cpu == w->cpu ? w->ts + w->flush_ns : 0,
				 how & SIM_WAKE_NO_COST, w, now);
	if (!ret && flush_tail)
		ret = sched_ttwu_pending_last(s, after.cpu, ctx, ti, seq, now);
	if (!ret && !was_idle && t->st == SIM_QUEUED && t->cpu == after.cpu)
		ret = schedule_rq_lock(s, after.cpu, now);
	if (ret || hold < 0 || hold == t->cpu || t->st != SIM_QUEUED ||
	    model_migrate_task(s->m, t->mt, hold, now) < 0)
		return ret;
	/* the held move (--queued-moves position): the balancer pulls it, queued */
	s->notes[SIM_NOTE_MOVE_HELD_APPLIED]++;
	if (sim_emit_migrate(s, ti, t->cpu, hold, hold, now))
		return -1;
	t->cpu = hold;
	if (model_need_resched(s->m, hold))
		return sim_arm_resched(s, hold, now);
	return 0;
}

/* try_to_wake_up() of a blocked task by wake record @wi (@how: wake_task()'s). */
int sim_wake_now(struct sim *s, uint32_t wi, int waker_cpu, unsigned int how, uint64_t now)
{
	const struct wl_wake *w = &s->wakes[wi];
	int flags = MODEL_WF_TTWU | (w->flags & WL_WAKE_SYNC ? MODEL_WF_SYNC : 0);

	int wcpu = waker_cpu >= 0 ? waker_cpu : w->waker_cpu;

	return wake_task(s, w->target, traced_cpu(&s->tasks[w->target], w), waker_cpu,
			 wcpu, flags,
			 calib_ctx_of_wake(w), w->seq, how, w, now);
}

/*
 * The stand-in of a non-sync early wake @wi (docs/replay.md, "Early wakes"):
 * its target @ti has just blocked at the block @wi ends and is woken at once.
 * In the trace it slept there and this wake woke it (a measured sample);
 * here the wake came first, so what this wakeup takes is the simulated
 * path's only: mostly a wait behind the task the block's pick switched in
 * (the wakeup check keeps it), else a preemption's cost, rarely an idle
 * exit (docs/validation-log.md, "What a stand-in's sample is").
 * replay_config.early_wakes says whether it is a latency sample
 * (REPLAY_EARLY_NOSAMPLE: the interval its sched_waking opens ends with
 * none) and whether it costs that mechanism (REPLAY_EARLY_NOCOST: no); the
 * events are the same in those modes.  REPLAY_EARLY_SLEEP delivers it later:
 * after the sleep the trace shows for this block (the sleep_ns of the
 * block's traced wake, which the channel pairing may have exchanged for
 * @wi), from the waker's CPU (HEV_STANDIN, standin_fire()).
 */
int sim_early_standin_wake(struct sim *s, uint32_t ti, uint32_t wi, uint64_t now)
{
	enum replay_early_wakes mode = s->cfg.early_wakes;

	s->notes[SIM_NOTE_EARLY_STANDIN]++;
	dump_wake_op(s, "standin", s->tasks[ti].cpu, now, ti, &s->wakes[wi]);
	if (mode == REPLAY_EARLY_SLEEP) {
		const struct sim_task *t = &s->tasks[ti];
		uint32_t traced = s->ops[s->wt[ti].first_op + t->op - 1].arg;
		uint32_t sleep = s->wakes[traced != WL_NONE ? traced : wi].sleep_ns;
		int wcpu = s->wakes[wi].waker_cpu >= 0 ? s->wakes[wi].waker_cpu : t->cpu;

		if (sleep) {
			s->notes[SIM_NOTE_EARLY_SLEEP]++;
			s->tasks[ti].standin = true;
			s->standins_pending++;
			return sim_heap_push(s, now + sleep, HEV_STANDIN, wcpu, wi);
		}
	}
	if (mode == REPLAY_EARLY_NOCOST)
		s->notes[SIM_NOTE_EARLY_NOCOST]++;
	s->in_standin = true;
	if (sim_wake_now(s, wi, s->wakes[wi].waker_cpu,
			 SIM_WAKE_STANDIN | (mode == REPLAY_EARLY_NOCOST ? SIM_WAKE_NO_COST : 0), now)) {
		s->in_standin = false;
		return -1;
	}
	s->in_standin = false;
	if (mode == REPLAY_EARLY_NOSAMPLE)
		lat_machine_mute_pending(s->lat, s->wt[ti].pid);
	return 0;
}

/*
 * HEV_STANDIN: the stand-in wakeup of wake @wi, its traced sleep over
 * (sim_early_standin_wake()).  Dropped when something else woke the task first
 * (wake_task() then cleared sim_task.standin and the pending count: a
 * dropped stand-in is no work left, and the task may by now wait on a
 * stand-in of a later block).
 */
static int standin_fire(struct sim *s, uint32_t wi, uint64_t now)
{
	struct sim_task *t = &s->tasks[s->wakes[wi].target];

	if (!t->standin || t->st != SIM_BLOCKED || t->waiting != wi) {
		s->notes[SIM_NOTE_EARLY_SLEEP_DROPPED]++;
		return 0;
	}
	return sim_wake_now(s, wi, s->wakes[wi].waker_cpu, SIM_WAKE_STANDIN, now);
}

/*
 * The wakeup of task @xi, asleep in a hand-off WAIT, by its wakee running on
 * @cpu (a sync wake: the wakee's write, then its read).  The trace shows
 * @xi runnable there (switched out for that wakee): no wakeup, so under
 * --handoff-replies nosample its interval gives no sample
 * (replay_config.handoff_replies).
 */
static int reply_wake(struct sim *s, uint32_t xi, int cpu, uint64_t now)
{
	if (wake_task(s, xi, s->tasks[xi].cpu, cpu, cpu, MODEL_WF_TTWU | MODEL_WF_SYNC,
		      CALIB_CTX_TASK, SIM_SEQ_REPLY | s->handoff_wakes++, 0, NULL, now))
		return -1;
	if (s->cfg.handoff_replies == REPLAY_REPLIES_NOSAMPLE &&
	    lat_machine_mute_pending(s->lat, s->wt[xi].pid) > 0)
		s->notes[SIM_NOTE_REPLY_MUTED]++;
	return 0;
}

/*
 * Task @yi (running on @cpu) has just passed an op, or (@reply) is at the
 * point where its reply is due: wake a task sleeping in a hand-off WAIT for
 * it (see WL_OP_WAIT).  The reply comes sim_reply_tail() before the block the
 * waiter waits for - the kernel's wakee writes, then reads and sleeps - so
 * the woken waiter may preempt it, and its next message may then come
 * before that read: the block is not slept (released_block).
 */
int sim_handoff_release(struct sim *s, uint32_t yi, int cpu, bool reply, uint64_t now)
{
	struct sim_task *y = &s->tasks[yi];
	uint32_t xi = y->waiter;

	if (xi == WL_NONE || (!reply && y->op <= y->waiter_op))
		return 0;
	if (reply)
		y->released_block = y->waiter_op;
	y->waiter = WL_NONE;
	if (s->tasks[xi].st != SIM_BLOCKED || s->tasks[xi].waiting != WL_NONE)
		return 0;
	return reply_wake(s, xi, cpu, now);
}

/* ---- channels (WL_OP_READ / WL_OP_WRITE, sim_chan.h) ---------------- */

/*
 * A task that sleeps in a channel READ or WRITE has blocked: a task asleep
 * in a hand-off WAIT for it (the block the trace showed it reach) goes on.
 * Kept asleep, the waiter could be the writer the channel waits for.
 */
static int chan_release_waiter(struct sim *s, uint32_t yi, int cpu, uint64_t now)
{
	struct sim_task *y = &s->tasks[yi];
	uint32_t xi = y->waiter;

	if (xi == WL_NONE)
		return 0;
	y->waiter = WL_NONE;
	if (s->tasks[xi].st != SIM_BLOCKED || s->tasks[xi].waiting != WL_NONE ||
	    s->tasks[xi].chan_asleep)
		return 0;
	s->notes[SIM_NOTE_CHAN_WAIT_RELEASED]++;
	return reply_wake(s, xi, cpu, now);
}

/* Task @ti, current on @cpu, sleeps in its channel op (retried when it runs again). */
static int chan_sleep(struct sim *s, int cpu, uint32_t ti, enum sim_note_id why, uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];

	s->notes[why]++;
	t->st = SIM_BLOCKED;
	t->waiting = WL_NONE;
	t->chan_asleep = true;
	if (chan_release_waiter(s, ti, cpu, now))
		return -1;
	return sim_schedule_ex(s, cpu, MODEL_PREV_SLEEP, 1 /* S: TASK_INTERRUPTIBLE */, now);
}

/*
 * A channel op of the task on @cpu wakes task @ti asleep on the channel
 * (WF_SYNC: wake_up_interruptible_sync_poll() in pipe_write()/pipe_read(),
 * sock_def_readable(), unix_write_space()).  With the trace's own wake of it
 * inside this write (@wi), that wake's CPU, cost draw and context; else the
 * CPU the model's select_task_rq_fair() picks (wake_affine(),
 * select_idle_sibling(): the kernel's choice for every wakeup; the trace has
 * none for this one).  Until 4 Dec 2026 the task's previous CPU, as the
 * hand-off replies: a CPU left idle while the wakee queued behind a busy one
 * (docs/validation-log.md, "The channel replay's lost switches").
 */
static int chan_wake(struct sim *s, uint32_t ti, uint32_t wi, int cpu, uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];
	int flags = MODEL_WF_TTWU | MODEL_WF_SYNC;

	t->chan_asleep = false;
	if (wi != WL_NONE && s->wakes[wi].target == ti) {
		const struct wl_wake *w = &s->wakes[wi];

		return wake_task(s, ti, traced_cpu(t, w), cpu, cpu, flags, calib_ctx_of_wake(w),
				 w->seq, 0, w, now);
	}
	/* no traced CPU: placed by the model (placement_cpu()) */
	return wake_task(s, ti, -1, cpu, cpu, flags, CALIB_CTX_TASK,
			 SIM_SEQ_CHANNEL | s->chan_wakes++, 0, NULL, now);
}

/*
 * `KIND pid=P rw=read|write ch=C bytes=N fill=F trace=T slept=0|1`: channel
 * op @co of task @ti (its channel's fill after it, the trace time of its
 * place, whether the task sleeps there); KIND `chan` a READ/WRITE done,
 * `chanblock` the trace's sleep inside one (slept: under --channels auto,
 * whether the channel kept it; under strict always 0, the op decides),
 * `chansleep` a READ/WRITE of an empty (full) channel that sleeps (strict).
 * Analysis only (tests/replay/chan_fill.py).
 */
static void dump_chan_op(struct sim *s, const char *kind, int cpu, uint64_t now, uint32_t ti,
			 const struct wl_op *op, const struct wl_chan_op *co, int slept)
{
	sim_dump_op(s, cpu, now, "%s pid=%d rw=%s ch=%" PRIu32 " bytes=%" PRIu64 " fill=%" PRId64
		    " trace=%" PRIu64 " slept=%d", kind, s->wt[ti].pid,
		    op->kind == WL_OP_READ ? "read" : "write", co->chan, co->bytes,
		    s->chans.c[co->chan].fill, co->ts, slept);
}

/*
 * Trace-paced channels: task @ti on @cpu has passed a BLOCK the trace shows
 * inside a channel read or write (WL_BLOCK_CHANNEL; its READ/WRITE op
 * follows): it sleeps there only if the channel is still empty (full), until
 * a write (read) changes that.  1: go on, 0: asleep, -1: error.
 */
int sim_chan_wait(struct sim *s, int cpu, uint32_t ti, uint64_t now)
{
	struct sim_task *t = &s->tasks[ti];
	const struct wl_op *op = sim_cur_op(s, t, ti);
	const struct wl_chan_op *co;

	if (!op || (op->kind != WL_OP_READ && op->kind != WL_OP_WRITE))
		return 1;
	co = wl_chan_op(s->wl, op->arg);
	if (co->chan >= s->chans.nr)
		return 1;
	if (s->cfg.channel_strict) {
		/* the trace's sleep point: the READ/WRITE that follows decides */
		dump_chan_op(s, "chanblock", cpu, now, ti, op, co, 0);
		return 1;
	}
	if (op->kind == WL_OP_READ ? sim_chan_wait_read(&s->chans, co->chan, ti) :
	    sim_chan_wait_write(&s->chans, co->chan, ti, co->bytes)) {
		dump_chan_op(s, "chanblock", cpu, now, ti, op, co, 1);
		return chan_sleep(s, cpu, ti, op->kind == WL_OP_READ ? SIM_NOTE_CHAN_READ_SLEPT :
				  SIM_NOTE_CHAN_WRITE_SLEPT, now) ? -1 : 0;
	}
	dump_chan_op(s, "chanblock", cpu, now, ti, op, co, 0);
	return 1;
}

/*
 * WL_OP_READ / WL_OP_WRITE of task @ti on @cpu: 1 done (the caller goes to
 * the next op), 0 asleep on the channel (the op is retried when it runs
 * again), -1 on error.
 */
int sim_chan_op(struct sim *s, int cpu, uint32_t ti, const struct wl_op *op, uint64_t now)
{
	const struct wl_chan_op *co = wl_chan_op(s->wl, op->arg);
	uint32_t ci = co->chan, wk;

	if (ci >= s->chans.nr)
		return 1;
	if (op->kind == WL_OP_READ) {
		bool was_full = sim_chan_was_full(&s->chans, ci);
		unsigned int nth = 0;
		uint64_t room;

		if (!s->cfg.channel_strict) {
			sim_chan_take(&s->chans, ci, co->bytes);
		} else if (!sim_chan_read(&s->chans, ci, ti, co->bytes ? co->bytes : 1)) {
			dump_chan_op(s, "chansleep", cpu, now, ti, op, co, 1);
			return chan_sleep(s, cpu, ti, SIM_NOTE_CHAN_READ_SLEPT, now) ? -1 : 0;
		}
		dump_chan_op(s, "chan", cpu, now, ti, op, co, 0);
		s->tasks[ti].op++;
		sim_task_enter_op(s, ti);
		room = sim_chan_room(&s->chans, ci);
		while ((wk = sim_chan_read_wakes(&s->chans, ci, was_full, nth++, &room)) !=
		       WL_NONE) {
			s->notes[SIM_NOTE_CHAN_WAKE_WRITER]++;
			if (chan_wake(s, wk, WL_NONE, cpu, now))
				return -1;
		}
		return 1;
	}
	if (!s->cfg.channel_strict) {
		sim_chan_put(&s->chans, ci, co->bytes);
	} else if (!sim_chan_write(&s->chans, ci, ti, co->bytes)) {
		dump_chan_op(s, "chansleep", cpu, now, ti, op, co, 1);
		return chan_sleep(s, cpu, ti, SIM_NOTE_CHAN_WRITE_SLEPT, now) ? -1 : 0;
	}
	dump_chan_op(s, "chan", cpu, now, ti, op, co, 0);
	s->tasks[ti].op++;
	sim_task_enter_op(s, ti);
	if ((wk = sim_chan_reader_to_wake(&s->chans, ci)) != WL_NONE) {
		s->notes[SIM_NOTE_CHAN_WAKE_READER]++;
		if (chan_wake(s, wk, co->wake, cpu, now))
			return -1;
	}
	/* a pipe writer that slept in this write wakes the next one (sim_chan.h) */
	if ((wk = sim_chan_write_done(&s->chans, ci, ti)) != WL_NONE) {
		s->notes[SIM_NOTE_CHAN_WAKE_WRITER]++;
		if (chan_wake(s, wk, WL_NONE, cpu, now))
			return -1;
	}
	return 1;
}

/* ---- wake records reaching their target (early wakes), forks -------------- */

/*
 * Early wake @w still wakes its task at the block it ends (sim_run_ops()'s
 * WL_OP_BLOCK): a race in the trace (the waking came while the task was on
 * its CPU) or the stand-in of a non-sync wake: the task blocks and is woken
 * at once, a wakeup with its own enqueue.  Else (sync, or
 * --skip-early-blocks) the block is skipped: no sleep, no wakeup.
 */
bool sim_early_wake_wakes(const struct sim *s, const struct wl_wake *w)
{
	return (w->flags & WL_WAKE_ON_CPU) ||
	       (!s->cfg.skip_early_blocks && !(w->flags & WL_WAKE_SYNC));
}

/*
 * --early-charge local: early wake @w of @t, made by its waker's WAKE op on
 * @waker_cpu.  The capture kernel enqueued @t then; where it did so on the
 * waker's CPU in the waker's task group, that enqueue's update_curr()
 * (enqueue_entity()) charged the waker, current there, at the wakeup's
 * clock: the model's charge with its sched_stat_runtime
 * (model_charge_curr()).  The wake stays early: nothing is enqueued.  Only
 * where the replay makes no wakeup of its own for this wake record
 * (sim_early_wake_wakes()): a stand-in's or a race's wakeup enqueues the task,
 * and that enqueue's update_curr() is this record's charge (the kernel's
 * try_to_wake_up() enqueues once, one update_curr() per wakeup: charging
 * here too emitted two sched_stat_runtime for one wakeup).
 */
static int early_charge(struct sim *s, const struct wl_wake *w, const struct sim_task *t,
			int waker_cpu, uint64_t now)
{
	int r;

	if (sim_early_wake_wakes(s, w) || waker_cpu < 0 || w->cpu != waker_cpu ||
	    w->waker >= s->nr_tasks || s->tasks[w->waker].group != t->group ||
	    s->cpus[waker_cpu].curr != (int32_t)w->waker)
		return 0;
	r = model_charge_curr(s->m, waker_cpu, now + sim_wake_clock_delay(s, waker_cpu, waker_cpu));
	if (r > 0)
		s->notes[SIM_NOTE_EARLY_CHARGED]++;
	return r < 0 ? -1 : 0;
}

/* A wake record reaches its target (from a WAKE op or at its trace time). */

int sim_deliver_wake(struct sim *s, uint32_t wi, int waker_cpu, uint64_t now)
{
	const struct wl_wake *w = &s->wakes[wi];
	uint32_t ti = w->target;
	struct sim_task *t = &s->tasks[ti];
	int wcpu = waker_cpu >= 0 ? waker_cpu : w->waker_cpu;

	t->woken_by = WL_NONE;       /* a WAKE op sets it after this */
	/*
	 * The assumed wake of a fork the trace does not record
	 * (wl_task.fork_assumed): the child is born here, by sim_do_fork(), from
	 * the CPU of the wake (the switch-in's), its parent the task credited
	 * there (wl_task.fork_parent, or none: pid 0).
	 */
	if (!t->mt && t->st == SIM_UNBORN && s->wt[ti].fork_assumed && wi == s->wt[ti].init_wake) {
		uint32_t pi = s->wt[ti].fork_parent;

		return sim_do_fork(s, ti, wcpu, pi < s->nr_tasks ? s->wt[pi].pid : 0, now);
	}
	if (!t->mt || t->st == SIM_DEAD) {
		if (!(w->flags & WL_WAKE_SPURIOUS))
			s->early[wi] = 1;      /* the task is not born yet in the simulation */
		return 0;
	}
	if (w->flags & WL_WAKE_SPURIOUS) {
		/* The target was on a CPU or queued in the trace. */
		if (t->st == SIM_BLOCKED) {
			s->notes[SIM_NOTE_SPURIOUS_DROPPED]++;
			return 0;
		}
		if (sim_emit_wake_event(s, TRACE_EV_SCHED_WAKING, ti, wcpu, t->cpu, sim_cpu_pid(s, wcpu), now))
			return -1;
		model_try_to_wake_up(s->m, t->mt, t->cpu, waker_cpu, MODEL_WF_TTWU, now);
		return sim_emit_wake_event(s, TRACE_EV_SCHED_WAKEUP, ti, t->cpu, t->cpu,
					   sim_cpu_pid(s, t->cpu), now);
	}
	if ((t->st == SIM_BLOCKED && t->waiting == wi) || sim_chan_wakes_sleeper(s, ti, wi, waker_cpu))
		return sim_wake_now(s, wi, waker_cpu, 0, now);
	/* Not at that block yet: it will not sleep there (see run_ops). */
	s->early[wi] = 1;
	if (s->cfg.early_charge == REPLAY_EARLY_CHARGE_LOCAL && early_charge(s, w, t, waker_cpu, now))
		return -1;
	dump_wake_op(s, "early", wcpu, now, ti, w);
	sim_chan_push(s, wi);
	s->notes[SIM_NOTE_EARLY_WAKE]++;
	return 0;
}

/*
 * --placement model: the CPU a child forked on @parent_cpu is born on when
 * both it and its parent are pinned (model_task_set_pinned(): the trace shows
 * each on one CPU only, the same one) and the child was woken at least once
 * (a placement that kept it there; a child that only ran and exited shows no
 * mask), else -1.  A child inherits its
 * parent's affinity (dup_task_struct() copies cpus_mask) and select_task_rq()
 * (kernel/sched/core.c) skips the class's placement for a task allowed on one
 * CPU: it is born on that CPU, its parent's.  Placed by the fork's slow path
 * instead, such a child was put on the idle CPU and, pinned, stayed there:
 * pipe-pinned-run2 (both tasks of `taskset -c 1 perf bench sched pipe` on CPU
 * 1) ran its two tasks on two CPUs, sched_switch +99.3 %.
 */

/*
 * A model setter's failure @e: true when it is the model's "mask allows
 * none of the model's CPUs" (EINVAL), which the callers take as all CPUs;
 * anything else (out of memory) is kept in s->fail, s->oom set, and the run
 * stops with that line (fuzz51: the fallback hid ENOMEM as "all CPUs").
 */
bool sim_aff_none_of_ours(struct sim *s, const struct sr_error *e)
{
	if (e->code == EINVAL)
		return true;
	s->fail = *e;
	if (!s->fail.msg[0])
		sr_error_set(&s->fail, ENOMEM, "replay: out of memory");
	s->oom = true;
	return false;
}

/*
 * The model's mask of a task: @cpu (one CPU, or -1 all) or, with @cpu -1 and
 * @mask, that mask of several CPUs (model_task_set_allowed_mask(), which
 * keeps the "one CPU or all" form when the mask is one of those within the
 * replay's CPUs).  A mask naming none of the replay's CPUs (a sidecar whose
 * topology disagrees with the trace's) allows all, as the "one CPU or all"
 * form took a CPU past the model's; out of memory stops the run (s->oom).
 */
static void set_allowed(struct sim *s, struct model_task *mt, int cpu, const uint64_t *mask)
{
	struct sr_error e = { 0 };

	if (cpu < 0 && mask &&
	    (model_task_set_allowed_mask(s->m, mt, mask, SIDECAR_MASK_WORDS * 64, &e) == 0 ||
	     !sim_aff_none_of_ours(s, &e)))
		return;
	model_task_set_allowed_cpu(s->m, mt, cpu);
}

void sim_task_set_affinity(struct sim *s, uint32_t ti)
{
	const struct wl_task *wt = &s->wt[ti];

	if (wt->aff_src == WL_AFF_INFERRED || s->cfg.affinity == REPLAY_AFFINITY_INFERRED) {
		model_task_set_pinned(s->tasks[ti].mt, !wt->multi_cpu);
		return;
	}
	set_allowed(s, s->tasks[ti].mt, wt->aff_cpu, wt->aff_mask);
	s->notes[wt->aff_src == WL_AFF_END_READ ? SIM_NOTE_AFF_END_READ :
		 wt->aff_src == WL_AFF_START_READ ? SIM_NOTE_AFF_START_READ : SIM_NOTE_AFF_FORK]++;
	s->notes[SIM_NOTE_AFF_PINNED] += wt->aff_cpu >= 0;
}

/* The parent of forked task @wt: the traced fork's, or the one an assumed fork credits. */
static uint32_t parent_of(const struct wl_task *wt)
{
	return wt->fork_assumed ? wt->fork_parent : wt->parent;
}

static int inherited_pin_cpu(const struct sim *s, uint32_t ci, int parent_cpu)
{
	const struct wl_task *wt = &s->wt[ci], *pw;
	const struct sim_task *pt;
	uint32_t pi = parent_of(wt);

	/* a recorded mask: its one CPU (or the slow path for all) */
	if (wt->aff_src != WL_AFF_INFERRED && s->cfg.affinity == REPLAY_AFFINITY_CAPTURED)
		return s->cfg.placement == REPLAY_PLACEMENT_MODEL ? wt->aff_cpu : -1;
	if (s->cfg.placement != REPLAY_PLACEMENT_MODEL || wt->multi_cpu ||
	    wt->nr_wakes <= (wt->init_wake != WL_NONE) ||
	    pi == WL_NONE || pi >= s->nr_tasks || parent_cpu < 0 || parent_cpu >= s->nr_cpus)
		return -1;
	pw = &s->wt[pi];
	pt = &s->tasks[pi];
	if (pw->multi_cpu || !pt->mt || pt->cpu != parent_cpu ||
	    (pw->init_cpu >= 0 && wt->init_cpu >= 0 && pw->init_cpu != wt->init_cpu))
		return -1;
	return parent_cpu;
}

/*
 * The model refused the fork of @ci at @now (@e: its error, or an empty one
 * for a refusal without a message): the run stops with that line, naming
 * the child, the time and @cpu (the parent's for model_task_new(), left out
 * if -1: none; the child's for model_wake_up_new_task()), in s->fail.
 */
static int fork_failed(struct sim *s, uint32_t ci, int cpu, const struct sr_error *e, uint64_t now)
{
	char on_cpu[24] = "";

	s->fail = *e;
	if (!s->fail.msg[0])
		sr_error_set(&s->fail, EINVAL, "the model refused the new task's wakeup");
	if (cpu >= 0)
		snprintf(on_cpu, sizeof(on_cpu), " on CPU %d", cpu);
	sr_error_prefix(&s->fail, "replay: fork of pid %d (%s) at %" PRIu64 ".%09" PRIu64 " s%s",
			(int)s->wt[ci].pid, s->tasks[ci].comm, now / 1000000000u, now % 1000000000u,
			on_cpu);
	return -1;
}

int sim_do_fork(struct sim *s, uint32_t ci, int parent_cpu, int32_t parent_pid, uint64_t now)
{
	struct sim_task *c = &s->tasks[ci];
	const struct wl_task *wt = &s->wt[ci];
	struct trace_event ev;
	int cpu, r;
	bool was_idle;
	struct sr_error err = { 0 };
	uint32_t pi = parent_of(wt);
	/*
	 * A fork the trace does not record (wl_task.fork_assumed): its
	 * sched_process_fork and sched_wakeup_new are written, counted apart
	 * (sim_emit()), and its wakeup gives no latency sample, as the trace
	 * has none of them.
	 */
	bool assumed = wt->fork_assumed;

	if (c->mt || wt->cls != WL_CLASS_FAIR)
		return 0;
	c->mt = model_task_new(s->m, s->groups[c->group], wt->nice, MODEL_POLICY_NORMAL, ci, &err);
	if (!c->mt)
		return fork_failed(s, ci, parent_cpu, &err, now);
	sim_task_set_affinity(s, ci);
	sim_event_init(s, &ev, TRACE_EV_SCHED_PROCESS_FORK, parent_cpu >= 0 ? parent_cpu : 0, now,
		       parent_pid);
	ev.u.fork.parent_pid = parent_pid;
	snprintf(ev.u.fork.parent_comm, TRACE_COMM_LEN, "%s",
		 pi < s->nr_tasks ? s->tasks[pi].comm : "");
	ev.u.fork.child_pid = wt->pid;
	memcpy(ev.u.fork.child_comm, c->comm, TRACE_COMM_LEN);
	s->in_fork_assumed = assumed;
	r = sim_emit(s, &ev);
	s->in_fork_assumed = false;
	if (r)
		return -1;
	cpu = inherited_pin_cpu(s, ci, parent_cpu);
	if (cpu < 0)
		cpu = placement_cpu(s, c, wt->init_cpu, parent_cpu, MODEL_WF_FORK,
				    wt->init_wake != WL_NONE ? &s->wakes[wt->init_wake] : NULL, now);
	cpu = take_traced_pull(s, c, cpu);
	was_idle = sim_cpu_idle(&s->cpus[cpu]);
	if (model_wake_up_new_task(s->m, c->mt, parent_cpu >= 0 ? parent_cpu : cpu, cpu, now))
		return fork_failed(s, ci, cpu, &err, now);
	c->st = SIM_QUEUED;
	c->cpu = cpu;
	c->op = 0;
	s->woke_cpu = cpu;           /* waker_cost() */
	s->woke_idle = was_idle;
	sim_task_enter_op(s, ci);
	s->in_fork_assumed = assumed;
	r = sim_emit_wake_event(s, TRACE_EV_SCHED_WAKEUP_NEW, ci, cpu, cpu, sim_cpu_pid(s, cpu), now);
	s->in_fork_assumed = false;
	if (r)
		return -1;
	if (assumed && lat_machine_mute_pending(s->lat, wt->pid) > 0)
		s->notes[SIM_NOTE_FORK_MUTED]++;
	return sim_resched_after(s, cpu, was_idle, parent_cpu, CALIB_CTX_FORK, ci,
				 wt->init_wake != WL_NONE ? s->wakes[wt->init_wake].seq : 0, now);
}

/* ---- heap events ---------------------------------------------------------- */

static int heap_event(struct sim *s, const struct sim_hev *h)
{
	struct sim_cpu *c = &s->cpus[h->cpu];
	int cpu = h->cpu;

	switch (h->kind) {
	case HEV_OP_DONE:
		if (h->gen != c->gen_op || c->curr < 0 || c->other >= 0)
			return 0;
		sim_charge(s, cpu, h->t);
		op_done_left(s, &s->tasks[c->curr]);
		return sim_run_ops(s, cpu, h->t);
	case HEV_TICK:
		if (h->gen != c->gen_tick)
			return 0;
		c->tick_armed = false;
		if (!sim_cpu_busy(c)) {
			const struct wl_idle *iv;

			/*
			 * NO_HZ: an idle CPU stops its tick - unless its next
			 * timer is within a tick (tick_nohz_next_event()
			 * retains it), a local wake ending a short trace idle
			 * standing in for that timer (--idle-tick short:
			 * idle_tick_kept()).  The tick's sched_tick() ->
			 * sched_balance_trigger() runs the idle CPU's periodic
			 * balance.  Not re-armed: an interval that short holds
			 * at most this one.  Otherwise the idle loop stops the
			 * tick now, joining the nohz mask if it had kept it.
			 */
			if (s->cfg.idle_tick == REPLAY_IDLE_TICK_STOP)
				return 0;
			iv = wl_cpu_idle_interval(s->wl, cpu, h->t);
			dump_idle_rule(s, cpu, h->t, "idle_tick", iv);
			if (idle_tick_kept(s, cpu, iv)) {
				s->notes[SIM_NOTE_IDLE_TICK]++;
				model_tick(s->m, cpu, h->t);
			} else if (c->other < 0 && !c->stalled) {
				model_idle_tick_stop(s->m, cpu);
			}
			return 0;
		}
		s->notes[SIM_NOTE_TICK_TRACED] += c->tick_traced;
		if (s->cfg.placement == REPLAY_PLACEMENT_TRACE && s->cfg.nohz_pull)
			sim_nohz_pull_cpus(s, h->t);
		s->in_tick = true;
		model_tick(s->m, cpu, h->t);
		s->in_tick = false;
		if (sim_arm_tick(s, cpu, h->t))
			return -1;
		/*
		 * The switch comes at the return from the interrupt (or, on a
		 * preempt=none kernel, from the system call it hit); its
		 * __schedule() reads the clock then (tick_switch_delay()
		 * later), so prev's last update_curr() charges that time.
		 */
		if (model_need_resched(s->m, cpu) && c->other < 0)
			return sim_arm_resched(s, cpu, h->t + tick_switch_delay(s, cpu, h->t));
		return 0;
	case HEV_BW_TIMER:
		return sim_bw_timer(s, h->t);
	case HEV_STOPPER:
		return sim_run_stopper(s, cpu, h->t);
	case HEV_STANDIN:
		return standin_fire(s, h->gen, h->t);
	case HEV_NEWIDLE:
		/* a held newidle pull whose block did not come in the window */
		if (!s->ni_state || h->gen >= wl_nr_newidle(s->wl) ||
		    s->ni_state[h->gen] != SIM_NI_HELD)
			return 0;
		return newidle_as_timed(s, h->gen, h->t);
	case HEV_RESCHED:
		if (h->gen != c->gen_resched)
			return 0;
		c->resched_at = UINT64_MAX;
		if (c->stalled) {
			c->stall_resched = true;
			return 0;
		}
		if (c->other >= 0 || !model_need_resched(s->m, cpu))
			return 0;
		return sim_do_schedule(s, cpu, MODEL_PREV_RUNNABLE, h->t);
	case HEV_STALL_IN:
		return sim_stall_in(s, cpu, h->t, (uint32_t)h->gen);
	case HEV_STALL_OUT:
		return sim_stall_out(s, cpu, h->t);
	default:
		return 0;
	}
}

/* ---- the run ---------------------------------------------------------------- */

/* A runnable task has traced work left (a scan of every task: once). */
static bool traced_work_left(const struct sim *s)
{
	if (s->standins_pending)    /* a blocked task's stand-in wakeup to come */
		return true;
	for (uint32_t i = 0; i < s->nr_tasks; i++) {
		const struct sim_task *t = &s->tasks[i];

		if ((t->st == SIM_QUEUED || t->st == SIM_RUNNING) && sim_cur_op(s, t, i))
			return true;
	}
	return false;
}

/*
 * Past the trace end: something is left to run, a CPU running or about to
 * run a fair task, or a queued one.  No timed event is left and tasks
 * without traced work sleep when they get the CPU (sim_run_ops()), so once every
 * CPU is idle with nothing queued no event can make work again.
 */
static bool work_left(struct sim *s)
{
	for (int c = 0; c < s->nr_cpus; c++)
		if (!sim_cpu_idle(&s->cpus[c]) || model_nr_queued(s->m, c))
			return true;
	/* a stand-in wakeup still to come (--early-wakes sleep) */
	if (s->standins_pending)
		return true;
	/* tasks throttled by CPU bandwidth come back at a period timer */
	return s->bw_groups && model_nr_throttled(s->m);
}

/*
 * The loop reaches the trace end with work left: the tasks that ran on
 * beyond their traced work (running at the trace end) stop there, at @end,
 * and the others go on.  An RT/DL task holding a CPU at the trace end
 * leaves it then too: its demand past the trace is as unknown.
 */
static int pass_end(struct sim *s, uint64_t end)
{
	s->past_end = true;
	for (int c = 0; c < s->nr_cpus; c++)
		if (s->cpus[c].other >= 0 &&
		    sim_other_out(s, c, (uint32_t)s->cpus[c].other, true, end, NULL))
			return -1;
	for (int c = 0; c < s->nr_cpus; c++) {
		struct sim_cpu *cp = &s->cpus[c];

		if (cp->curr < 0 || cp->other >= 0 || sim_cur_op(s, &s->tasks[cp->curr],
								 (uint32_t)cp->curr))
			continue;
		/* its OP_DONE event, at @end: sim_run_ops() finds no op, it sleeps */
		cp->gen_op++;
		if (sim_heap_push(s, end, HEV_OP_DONE, c, cp->gen_op))
			return -1;
	}
	return 0;
}

int sim_loop(struct sim *s)
{
	uint32_t ti = 0, nt = wl_nr_timed(s->wl);
	uint64_t end = wl_last_ts(s->wl), first = wl_first_ts(s->wl), steps = 0;
	/* past the end: the span once more (saturating: timestamps near 2^64) */
	uint64_t limit = end - first > UINT64_MAX - end ? UINT64_MAX : end + (end - first);
	double span = end > first ? (double)(end - first) : 1;

	s->end_ts = end;
	while (1) {
		const struct wl_timed *e = ti < nt ? wl_timed_at(s->wl, ti) : NULL;
		bool heap = s->nheap > 0 && (!e || s->heap[0].t < e->ts);
		uint64_t now = heap ? s->heap[0].t : e ? e->ts : UINT64_MAX;

		/* the sidecar's sched_debug reads before this event (changes nothing) */
		if (s->sd && sim_group_probe(s, now, false))
			return -1;
		if (now > end) {
			if (s->cfg.stop_at_end || !work_left(s))
				break;
			if (!s->past_end) {
				/* as the trace ends, with nothing of it left */
				if (!traced_work_left(s))
					break;
				if (pass_end(s, end))
					return -1;
				continue;       /* what it did may end the work */
			}
			if (now == UINT64_MAX) {
				/* runnable work and no event that would run it */
				s->notes[SIM_NOTE_WORK_STUCK]++;
				break;
			}
			if (now > limit) {
				s->notes[SIM_NOTE_WORK_CAPPED]++;
				break;
			}
			if (s->end_ts == end)
				s->notes[SIM_NOTE_RAN_PAST_END]++;
			s->end_ts = now;
		}
		if (heap) {
			struct sim_hev h = heap_pop(s);

			if (heap_event(s, &h))
				return -1;
		} else {
			ti++;
			if (sim_timed(s, e, ti < nt ? wl_timed_at(s->wl, ti) : NULL))
				return -1;
		}
		if (sim_bw_arm(s))
			return -1;
		if (s->cfg.progress && !(++steps & ((1u << 18) - 1)))
			s->cfg.progress(s->cfg.progress_ctx,
					(double)((now < end ? now : end) - first) / span);
	}
	if (s->sd && sim_group_probe(s, end, true))
		return -1;
	for (int c = 0; c < s->nr_cpus; c++)
		sim_charge(s, c, s->end_ts);
	sim_join_unmade(s);
	return 0;
}

/*
 * The machine at the first trace timestamp: RT/DL tasks that held a CPU
 * (their first interval event is a switch-out) hold it again, and every CPU
 * picks from what setup() queued.
 */
int sim_start(struct sim *s)
{
	uint64_t first = wl_first_ts(s->wl);
	uint32_t nt = wl_nr_timed(s->wl), seen = 0;
	bool *decided = calloc((size_t)s->nr_cpus, sizeof(bool));

	if (!decided)
		return -1;
	for (uint32_t i = 0; i < nt && seen < (uint32_t)s->nr_cpus; i++) {
		const struct wl_timed *e = wl_timed_at(s->wl, i);

		if ((e->kind != WL_T_OTHER_IN && e->kind != WL_T_OTHER_OUT) || e->cpu < 0 ||
		    e->cpu >= s->nr_cpus || decided[e->cpu])
			continue;
		decided[e->cpu] = true;
		seen++;
		if (e->kind == WL_T_OTHER_OUT) {
			s->cpus[e->cpu].other = (int32_t)e->task;
			model_other_class(s->m, e->cpu, true, sim_other_kind(s, e->cpu, (int32_t)e->task),
					  first);
		}
	}
	free(decided);
	if (sim_bw_arm(s) || sim_stalls_arm(s))
		return -1;
	for (int c = 0; c < s->nr_cpus; c++) {
		if (s->cpus[c].other >= 0) {
			if (sim_arm_tick(s, c, first))
				return -1;
			continue;
		}
		if (sim_do_schedule(s, c, MODEL_PREV_RUNNABLE, first))
			return -1;
	}
	return 0;
}
