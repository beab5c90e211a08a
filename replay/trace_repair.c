// SPDX-License-Identifier: GPL-2.0
/*
 * The reader's repair stage (trace_repair.h): restores sched_switch records
 * the kernel did not write, so that every consumer of trace_next() — the
 * report's latency machine, the replay's workload extraction — sees one
 * complete switch stream and needs no special case of its own.
 *
 * TRACE_REPAIR_IDLE_EXIT. Some kernels do not trace a CPU's switch out of
 * idle: on the development VM (6.18.44, booted with sched_vcpu_pack=15
 * cpuidle_haltpoll.force=1) CPU 1 has thousands of `task ==> swapper/1` and
 * no `swapper/1 ==> task`, while CPU 0 pairs up exactly. Detection uses only
 * the stream: while a CPU's current task per its sched_switch records is idle
 * (pid 0), every event on it is written in idle's context (common_pid 0:
 * interrupts, the wakeups they do). An event whose common_pid is a task T
 * means T is current there, so T was switched in without a record.
 *
 * When T was switched in. Bounds: not before T's last wakeup (or migration)
 * nor before the CPU's previous event (which ran in idle's context): the
 * lower bound; and not after T's first event there. T's first
 * sched_stat_runtime on the CPU gives ts - runtime, T's exec_start
 * (update_curr() reports now - exec_start; set_next_entity() sets exec_start
 * when T is switched in): used when it lies within the bounds. Measured on
 * CPU 0, whose switches out of idle this machine does trace (docs/report.md,
 * tests/reader test_repair truth), it rarely does:
 *   - before the lower bound (the usual case): when a wakeup makes idle
 *     reschedule, wakeup_preempt() asks __schedule() to skip its rq clock
 *     update (rq_clock_skip_update()), so exec_start is the rq clock of the
 *     wakeup, not of the switch. The switch is put at the lower bound.
 *   - after T's first event: runtime is rq_clock_task() time, which leaves
 *     out IRQ and steal time. The exec_start evidence is then unusable: the
 *     switch is put at the lower bound if T's wakeup came while the CPU was
 *     idle (the switch follows it within the idle exit), else at T's first
 *     event, the one time T surely ran.
 *   - no sched_stat_runtime of T before T leaves the CPU (or within the
 *     window's bounds): the same choice.
 * So a restored switch is early by about the idle exit (CPU 0 ground truth:
 * p50 2-13 us, p1 -22 to -54 us, never late), where T's first event would be
 * late by up to milliseconds (T runs silently until it blocks).
 *
 * Order. The restored switch lies before T's first event there, and possibly
 * before events of other CPUs read since the lower bound. So events are held
 * in a FIFO while a switch restored later could precede them: while some CPU
 * is idle (a restored switch there lies after its last event), and while a
 * restored switch has no time yet (it lies after its lower bound). Restored
 * switches wait in a short list, each tagged with the held event it precedes
 * (the first one later than its time, or T's first event there). The window is
 * bounded in trace time and events (trace.h); an event forced out by the
 * bounds raises a floor that later restored switches are not put below.
 *
 * Memory: O(held events + tasks + CPUs); the held events are bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_repair.h"

struct rp_ent {
	struct trace_event ev;
	uint64_t lost_before;
	uint64_t seq;                  /* input order */
	char *str;                     /* owned copy of the event's string, if any */
	size_t str_cap;
};

struct rp_syn {
	struct trace_event ev;
	uint64_t seq_before;           /* delivered right before this held event */
};

/* What the stage knows of a task: for the restored switch's next_* and bounds. */
struct rp_task {
	int32_t pid;                   /* INT32_MIN: empty slot */
	bool comm_known, prio_known, woken;
	char comm[TRACE_COMM_LEN];
	int32_t prio;
	uint64_t wake_ts;              /* last waking/wakeup/wakeup_new/migration */
};

/* A switch-in seen on an idle CPU whose time is not fixed yet. */
struct rp_open {
	bool open;
	int32_t pid;
	bool comm_known, prio_known;
	char comm[TRACE_COMM_LEN];
	int32_t prio;
	uint64_t lo;                   /* ns: its wakeup, the CPU's previous event */
	bool woken;                    /* its wakeup (or migration) came after the CPU went idle */
	uint64_t first;                /* ns: its first event on the CPU */
	uint64_t first_seq;
	uint64_t first_offset;
	bool first_offset_in_stream;
	bool first_offset_is_line;
};

struct rp_cpu {
	int32_t curr;                  /* per the repaired stream: -1 unknown, 0 idle */
	bool seen;
	uint64_t last_ts;              /* its last event */
	uint64_t idle_since;           /* its last switch to idle */
	struct rp_open s;
};

struct tr_repair {
	unsigned int mode;
	int nr_cpus;
	uint16_t switch_id;
	struct tr_repair_limits lim;
	struct rp_cpu *cpu;
	struct trace_repair_cpu *st;
	struct rp_ent *ring;           /* held events, FIFO; cap is a power of two */
	size_t cap, head, n, held_max;
	int nr_open;                   /* CPUs with an open switch-in */
	int nr_idle;                   /* CPUs seen, idle per the stream (curr 0) */
	uint64_t next_seq;
	uint64_t newest_ts;
	uint64_t floor;                /* ts of the last event delivered */
	struct rp_syn *syn;            /* restored, by (seq_before, ts, cpu) */
	size_t nsyn, syn_cap;
	struct rp_task *tasks;         /* open addressing by pid */
	size_t tasks_cap, nr_tasks;
	bool ended;
};

struct tr_repair *tr_repair_new(unsigned int mode, int nr_cpus, uint16_t switch_id,
				const struct tr_repair_limits *lim)
{
	struct tr_repair *rp = calloc(1, sizeof(*rp));

	if (!rp)
		return NULL;
	rp->mode = mode;
	rp->nr_cpus = nr_cpus > 0 ? nr_cpus : 0;
	rp->switch_id = switch_id;
	rp->lim.hold_ns = lim && lim->hold_ns ? lim->hold_ns : TRACE_REPAIR_HOLD_NS;
	rp->lim.hold_events = lim && lim->hold_events ? lim->hold_events : TRACE_REPAIR_HOLD_EVENTS;
	rp->cpu = calloc((size_t)rp->nr_cpus + 1, sizeof(*rp->cpu));
	rp->st = calloc((size_t)rp->nr_cpus + 1, sizeof(*rp->st));
	if (!rp->cpu || !rp->st) {
		tr_repair_free(rp);
		return NULL;
	}
	for (int c = 0; c < rp->nr_cpus; c++)
		rp->cpu[c].curr = -1;
	return rp;
}

void tr_repair_free(struct tr_repair *rp)
{
	if (!rp)
		return;
	for (size_t i = 0; i < rp->cap; i++)
		free(rp->ring[i].str);
	free(rp->ring);
	free(rp->syn);
	free(rp->tasks);
	free(rp->cpu);
	free(rp->st);
	free(rp);
}

const struct trace_repair_cpu *tr_repair_stats(const struct tr_repair *rp)
{
	return rp->st;
}

size_t tr_repair_held(const struct tr_repair *rp)
{
	return rp->n;
}

size_t tr_repair_held_max(const struct tr_repair *rp)
{
	return rp->held_max;
}

/* ---- tasks ---------------------------------------------------------------- */

static inline size_t task_slot(const struct tr_repair *rp, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (rp->tasks_cap - 1);

	while (rp->tasks[i].pid != INT32_MIN && rp->tasks[i].pid != pid)
		i = (i + 1) & (rp->tasks_cap - 1);
	return i;
}

static struct rp_task *task_find(const struct tr_repair *rp, int32_t pid)
{
	size_t i;

	if (!rp->tasks_cap)
		return NULL;
	i = task_slot(rp, pid);
	return rp->tasks[i].pid == pid ? &rp->tasks[i] : NULL;
}

/* The table doubled: -1 if memory runs out (the table is unchanged then). */
static __attribute__((noinline)) int tasks_grow(struct tr_repair *rp)
{
	size_t cap = rp->tasks_cap ? rp->tasks_cap * 2 : 256;
	struct rp_task *old = rp->tasks, *t = malloc(cap * sizeof(*t));
	size_t old_cap = rp->tasks_cap;

	if (!t)
		return -1;
	for (size_t i = 0; i < cap; i++)
		t[i].pid = INT32_MIN;
	rp->tasks = t;
	rp->tasks_cap = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].pid != INT32_MIN)
			rp->tasks[task_slot(rp, old[i].pid)] = old[i];
	free(old);
	return 0;
}

static inline struct rp_task *task_get(struct tr_repair *rp, int32_t pid)
{
	size_t i = rp->tasks_cap ? task_slot(rp, pid) : 0;

	if (!rp->tasks_cap || rp->tasks[i].pid != pid) {
		/* a new task: room first (the table stays at most half full) */
		if ((rp->nr_tasks + 1) * 2 > rp->tasks_cap) {
			if (tasks_grow(rp))
				return NULL;
			i = task_slot(rp, pid);
		}
		memset(&rp->tasks[i], 0, sizeof(rp->tasks[i]));
		rp->tasks[i].pid = pid;
		rp->nr_tasks++;
	}
	return &rp->tasks[i];
}

/*
 * Remember @pid's comm (and prio if @prio_known); a wakeup at @wake_ts if set.
 * Inlined: one or two calls per event, whose arguments are mostly constants.
 */
static inline __attribute__((always_inline)) int task_note(struct tr_repair *rp, int32_t pid, const char *comm, bool prio_known,
		     int32_t prio, bool wake, uint64_t wake_ts)
{
	struct rp_task *t;

	if (pid <= 0)
		return 0;
	if (!(t = task_get(rp, pid)))
		return -1;
	if (comm && comm[0]) {
		memcpy(t->comm, comm, TRACE_COMM_LEN);
		t->comm[TRACE_COMM_LEN - 1] = '\0';
		t->comm_known = true;
	}
	if (prio_known) {
		t->prio = prio;
		t->prio_known = true;
	}
	if (wake) {
		t->wake_ts = wake_ts;
		t->woken = true;
	}
	return 0;
}

/*
 * @type is ev->type: a constant where the caller knows it (the typed
 * tr_repair_pass_*() below), which folds this switch away.
 */
static inline __attribute__((always_inline)) int
note_tasks(struct tr_repair *rp, const struct trace_event *ev, enum trace_event_type type)
{
	switch (type) {
	case TRACE_EV_SCHED_WAKING:
	case TRACE_EV_SCHED_WAKEUP:
	case TRACE_EV_SCHED_WAKEUP_NEW:
		return task_note(rp, ev->u.wakeup.pid, ev->u.wakeup.comm, true, ev->u.wakeup.prio,
				 true, ev->ts);
	case TRACE_EV_SCHED_MIGRATE_TASK:
		/* it can only be switched in on its new CPU after this */
		return task_note(rp, ev->u.migrate.pid, ev->u.migrate.comm, true, ev->u.migrate.prio,
				 true, ev->ts);
	case TRACE_EV_SCHED_SWITCH:
		return task_note(rp, ev->u.sched_switch.prev_pid, ev->u.sched_switch.prev_comm, true,
				 ev->u.sched_switch.prev_prio, false, 0) ||
			task_note(rp, ev->u.sched_switch.next_pid, ev->u.sched_switch.next_comm, true,
				  ev->u.sched_switch.next_prio, false, 0);
	case TRACE_EV_SCHED_STAT_RUNTIME:
		return task_note(rp, ev->u.stat_runtime.pid, ev->u.stat_runtime.comm, false, 0,
				 false, 0);
	case TRACE_EV_SCHED_PROCESS_FORK:
		return task_note(rp, ev->u.fork.child_pid, ev->u.fork.child_comm, false, 0, false, 0);
	case TRACE_EV_SCHED_PROCESS_EXIT:
		return task_note(rp, ev->u.exit.pid, ev->u.exit.comm, true, ev->u.exit.prio, false, 0);
	case TRACE_EV_CGROUP_ATTACH_TASK:
		return task_note(rp, ev->u.cgroup_attach.pid, ev->u.cgroup_attach.comm, false, 0,
				 false, 0);
	case TRACE_EV_SCHED_PI_SETPRIO:
		/* p->prio from here on (a restored switch shows it) */
		return task_note(rp, ev->u.pi_setprio.pid, ev->u.pi_setprio.comm, true,
				 ev->u.pi_setprio.newprio, false, 0);
	default:
		return 0;
	}
}

/* ---- restoring a switch ---------------------------------------------------- */

static inline struct rp_ent *held(const struct tr_repair *rp, size_t i)
{
	return &rp->ring[(rp->head + i) & (rp->cap - 1)];
}

/*
 * Fix the time of CPU @c's open switch-in at @est (from sched_stat_runtime if
 * @by_stat, else T's first event there) and queue the synthetic event. @by is
 * the event that settled it (NULL at the bounds or the end): a name for T if
 * none was known.
 */
static int resolve(struct tr_repair *rp, int c, uint64_t est, bool by_stat,
		   const struct trace_event *by)
{
	struct rp_open *s = &rp->cpu[c].s;
	struct trace_repair_cpu *st = &rp->st[c];
	struct rp_syn y;
	struct trace_sched_switch *sw = &y.ev.u.sched_switch;
	size_t k, pos;

	if (rp->nsyn == rp->syn_cap) {
		size_t cap = rp->syn_cap ? rp->syn_cap * 2 : 8;
		struct rp_syn *a = realloc(rp->syn, cap * sizeof(*a));

		if (!a)
			return -1;     /* nothing changed: the switch stays open */
		rp->syn = a;
		rp->syn_cap = cap;
	}
	if (by_stat && est >= s->lo && est <= s->first) {
		st->at_stat_runtime++;
	} else if (by_stat && est < s->lo) {
		/* exec_start before T could run: the rq clock of the wakeup */
		st->stat_before_bound++;
		st->at_lower_bound++;
		est = s->lo;
	} else {
		/*
		 * ts - runtime after T's first event (runtime is rq_clock_task
		 * time: IRQ and steal time are not in it), or no stat_runtime:
		 * T's wakeup if it came while the CPU was idle (measured on
		 * traced switches, the switch follows it within the idle exit),
		 * else the one time T surely ran.
		 */
		st->stat_after_first += by_stat;
		if (s->woken) {
			st->at_lower_bound++;
			est = s->lo;
		} else {
			st->at_first_event++;
			est = s->first;
		}
	}
	if (est < rp->floor) {
		est = rp->floor;
		st->clamped_to_window++;
	}
	st->restored++;

	memset(&y, 0, sizeof(y));
	y.ev.type = TRACE_EV_SCHED_SWITCH;
	y.ev.cpu = c;
	y.ev.ts = est;
	y.ev.offset = s->first_offset;
	y.ev.offset_in_stream = s->first_offset_in_stream;
	y.ev.offset_is_line = s->first_offset_is_line;
	y.ev.common_pid = 0;
	y.ev.id = rp->switch_id;
	y.ev.name = "sched_switch";
	y.ev.synthetic = true;
	snprintf(sw->prev_comm, TRACE_COMM_LEN, "swapper/%d", c);
	sw->prev_pid = 0;
	sw->prev_prio = 120;           /* what the kernel prints for idle */
	sw->prev_state = 0;            /* TASK_RUNNING: "R" */
	sw->prev_run = TRACE_STATE_RUNNING;
	sw->next_pid = s->pid;
	sw->next_prio = s->prio_known ? s->prio : 120;
	if (s->comm_known)
		memcpy(sw->next_comm, s->comm, TRACE_COMM_LEN);
	else if (by && by->type == TRACE_EV_SCHED_STAT_RUNTIME)
		memcpy(sw->next_comm, by->u.stat_runtime.comm, TRACE_COMM_LEN);
	else if (by && by->type == TRACE_EV_SCHED_SWITCH && by->u.sched_switch.prev_pid == s->pid)
		memcpy(sw->next_comm, by->u.sched_switch.prev_comm, TRACE_COMM_LEN);
	else
		snprintf(sw->next_comm, TRACE_COMM_LEN, "<...>");
	if (!s->prio_known && by && by->type == TRACE_EV_SCHED_SWITCH &&
	    by->u.sched_switch.prev_pid == s->pid)
		sw->next_prio = by->u.sched_switch.prev_prio;
	sw->next_comm[TRACE_COMM_LEN - 1] = '\0';

	/*
	 * Its place: before the first held event later than it, and at the
	 * latest before T's first event there (held: it is not delivered
	 * while the switch is open). Scanned back from there: the span from
	 * the lower bound to T's first event is short.
	 */
	k = (size_t)(s->first_seq - held(rp, 0)->seq);
	y.seq_before = s->first_seq;
	while (k > 0 && held(rp, k - 1)->ev.ts > est)
		y.seq_before = held(rp, --k)->seq;

	for (pos = rp->nsyn; pos > 0; pos--) {
		const struct rp_syn *p = &rp->syn[pos - 1];

		if (p->seq_before < y.seq_before ||
		    (p->seq_before == y.seq_before &&
		     (p->ev.ts < y.ev.ts || (p->ev.ts == y.ev.ts && p->ev.cpu < y.ev.cpu))))
			break;
	}
	memmove(&rp->syn[pos + 1], &rp->syn[pos], (rp->nsyn - pos) * sizeof(*rp->syn));
	rp->syn[pos] = y;
	rp->nsyn++;
	s->open = false;
	rp->nr_open--;
	return 0;
}

/*
 * Follow one input event, in input order: held already (@seq its place in the
 * FIFO), or passing through (@passing: it opens no switch-in, so nothing
 * refers to @seq). A passing event comes while nothing is held, so no CPU
 * has an open switch-in either (the event that opened one is held until it
 * is resolved): the tests of open switch-ins are compiled out then.
 */
static inline __attribute__((always_inline)) int
observe(struct tr_repair *rp, const struct trace_event *ev, uint64_t lost_before, uint64_t seq,
	enum trace_event_type type, const bool passing)
{
	struct rp_cpu *pc;
	int c = ev->cpu;
	bool was_idle;

	if (c < 0 || c >= rp->nr_cpus)
		return note_tasks(rp, ev, type);
	pc = &rp->cpu[c];
	was_idle = pc->seen && pc->curr == 0;
	if (lost_before) {
		/* whatever ran in the gap is unknown, and so is the current task */
		if (!passing && pc->s.open && resolve(rp, c, 0, false, NULL))
			return -1;
		pc->curr = -1;
	}
	if (pc->curr != 0 && ev->common_pid == 0 && type != TRACE_EV_SCHED_SWITCH) {
		/*
		 * An event in idle's context (pid 0, an interrupt on the idle
		 * task) shows the CPU idle now: its current was not known yet
		 * (no sched_switch there since the trace start or a loss), or
		 * it left untraced (the guest agent's tokio-rt-worker, whose
		 * switches out are not traced: the latency machine's "seen
		 * idle").  Until 3 Dec 2026 only a switch to idle did, and a
		 * task switched in after such an event was taken as running
		 * since its first event (hackbench-shares-run3: 1523, woken
		 * onto idle CPU 1 at 179.434 ms, ran from its first event 47
		 * us later, and its wakeup sample was 1.72 ms long); until 4
		 * Dec, after a known task, nothing was restored (bw-hogs-run3's
		 * kworker/1:2, woken by an interrupt after tokio-rt-worker's
		 * untraced exit, measured to its next traced switch-in, 645 ms).
		 * A switch-in still open there is decided first, without its
		 * run time: the task left before reporting it.
		 */
		if (!passing && pc->s.open && resolve(rp, c, 0, false, NULL))
			return -1;
		pc->curr = 0;
		pc->idle_since = ev->ts;
	}
	if (!passing && (rp->mode & TRACE_REPAIR_IDLE_EXIT) && pc->curr == 0 &&
	    ev->common_pid > 0) {
		const struct rp_task *t = task_find(rp, ev->common_pid);
		struct rp_open *s = &pc->s;

		rp->nr_open += !s->open;
		s->open = true;
		s->pid = ev->common_pid;
		s->lo = pc->seen ? pc->last_ts : 0;
		s->comm_known = t && t->comm_known;
		s->prio_known = t && t->prio_known;
		s->woken = t && t->woken && t->wake_ts >= pc->idle_since;
		if (t) {
			memcpy(s->comm, t->comm, TRACE_COMM_LEN);
			s->prio = t->prio;
			if (t->woken && t->wake_ts > s->lo)
				s->lo = t->wake_ts;
		}
		if (s->lo > ev->ts)
			s->lo = ev->ts;
		s->first = ev->ts;
		s->first_seq = seq;
		s->first_offset = ev->offset;
		s->first_offset_in_stream = ev->offset_in_stream;
		s->first_offset_is_line = ev->offset_is_line;
		pc->curr = ev->common_pid;
	}
	/* after the snapshot: T's name as it was before it ran (an exec renames it) */
	if (note_tasks(rp, ev, type))
		return -1;
	if (!passing && pc->s.open) {
		if (type == TRACE_EV_SCHED_STAT_RUNTIME && ev->u.stat_runtime.pid == pc->s.pid) {
			uint64_t rt = ev->u.stat_runtime.runtime;

			if (resolve(rp, c, rt <= ev->ts ? ev->ts - rt : 0, true, ev))
				return -1;
		} else if (type == TRACE_EV_SCHED_SWITCH) {
			/* it leaves the CPU without having reported its run time */
			if (resolve(rp, c, 0, false, ev))
				return -1;
		}
	}
	if (type == TRACE_EV_SCHED_SWITCH) {
		rp->st[c].traced_to_idle += ev->u.sched_switch.next_pid == 0;
		rp->st[c].traced_from_idle += ev->u.sched_switch.prev_pid == 0;
		pc->curr = ev->u.sched_switch.next_pid;
		if (!pc->curr)
			pc->idle_since = ev->ts;
	}
	pc->last_ts = ev->ts;
	pc->seen = true;
	rp->nr_idle += (pc->curr == 0) - was_idle;
	return 0;
}

/* ---- the FIFO ------------------------------------------------------------- */

/*
 * 64 slots first (~10 KiB): the 1 s hackbench trace holds at most 36 events,
 * an extract of the same workload 238; calloc() of 256 slots touched 38 KiB,
 * seven page faults of the report's 190.
 */
static int ring_grow(struct tr_repair *rp)
{
	size_t cap = rp->cap ? rp->cap * 2 : 64;
	struct rp_ent *a = calloc(cap, sizeof(*a));

	if (!a)
		return -1;
	/* every old slot, held ones first: free slots keep their string buffers */
	for (size_t i = 0; i < rp->cap; i++)
		a[i] = rp->ring[(rp->head + i) % rp->cap];
	free(rp->ring);
	rp->ring = a;
	rp->cap = cap;
	rp->head = 0;
	return 0;
}

static int copy_string(struct rp_ent *e, const char *s, size_t len)
{
	if (len + 1 > e->str_cap) {
		size_t cap = len + 1 > 64 ? len + 1 : 64;
		char *p = realloc(e->str, cap);

		if (!p)
			return -1;
		e->str = p;
		e->str_cap = cap;
	}
	if (len)
		memcpy(e->str, s, len);
	e->str[len] = '\0';
	return 0;
}

/* Copy @ev into the FIFO's next slot as input number @seq. */
static int hold(struct tr_repair *rp, const struct trace_event *ev, uint64_t lost_before,
		uint64_t seq)
{
	struct rp_ent *e;
	char *str;
	size_t str_cap;

	if (rp->n == rp->cap && ring_grow(rp))
		return -1;
	e = held(rp, rp->n);
	str = e->str;
	str_cap = e->str_cap;
	e->ev = *ev;
	e->ev.synthetic = false;
	e->str = str;
	e->str_cap = str_cap;
	if (ev->type == TRACE_EV_SCHED_PROCESS_EXEC &&
	    copy_string(e, ev->u.exec.filename ? ev->u.exec.filename : "",
			ev->u.exec.filename ? ev->u.exec.filename_len : 0))
		return -1;
	if (ev->type == TRACE_EV_CGROUP_ATTACH_TASK &&
	    copy_string(e, ev->u.cgroup_attach.dst_path ? ev->u.cgroup_attach.dst_path : "",
			ev->u.cgroup_attach.dst_path ? ev->u.cgroup_attach.dst_path_len : 0))
		return -1;
	e->lost_before = lost_before;
	e->seq = seq;
	rp->n++;
	if (rp->n > rp->held_max)
		rp->held_max = rp->n;
	return 0;
}

int tr_repair_push(struct tr_repair *rp, const struct trace_event *ev, uint64_t lost_before)
{
	uint64_t seq = rp->next_seq;

	if (hold(rp, ev, lost_before, seq))
		return -1;
	rp->next_seq++;
	if (ev->ts > rp->newest_ts)
		rp->newest_ts = ev->ts;
	const struct trace_event *h = &held(rp, rp->n - 1)->ev;

	return observe(rp, h, lost_before, seq, h->type, false);
}

int tr_repair_end(struct tr_repair *rp)
{
	rp->ended = true;
	for (int c = 0; c < rp->nr_cpus; c++)
		if (rp->cpu[c].s.open && resolve(rp, c, 0, false, NULL))
			return -1;
	return 0;
}

/* Which CPU's open switch-in was revealed by held event @seq; -1 if none. */
static int open_at(const struct tr_repair *rp, uint64_t seq)
{
	if (!rp->nr_open)
		return -1;
	for (int c = 0; c < rp->nr_cpus; c++)
		if (rp->cpu[c].s.open && rp->cpu[c].s.first_seq == seq)
			return c;
	return -1;
}

/* Events up to this time cannot follow a switch restored later. */
static uint64_t safe_until(const struct tr_repair *rp)
{
	uint64_t b = UINT64_MAX;

	if (!(rp->mode & TRACE_REPAIR_IDLE_EXIT) || (!rp->nr_open && !rp->nr_idle))
		return b;
	for (int c = 0; c < rp->nr_cpus; c++) {
		const struct rp_cpu *pc = &rp->cpu[c];

		if (pc->s.open) {
			if (pc->s.lo < b)
				b = pc->s.lo;
		} else if (pc->curr == 0 && pc->seen && pc->last_ts < b) {
			b = pc->last_ts;
		}
	}
	return b;
}

/*
 * The common case, without a copy in and out of the FIFO: nothing is held, so
 * no switch is open and none waits; unless @ev reveals one (a task's event on
 * a CPU that is idle per the stream), observing it cannot restore a switch,
 * and it leaves at once if tr_repair_pop() would let it, which is decided by
 * the same test. Else it is held as tr_repair_push() would.
 */
static inline __attribute__((always_inline)) int
repair_pass(struct tr_repair *rp, struct trace_event *ev, uint64_t lost_before,
	    enum trace_event_type type)
{
	uint64_t seq = rp->next_seq;
	int c = ev->cpu;

	ev->synthetic = false;
	if (rp->n || rp->nsyn ||
	    ((rp->mode & TRACE_REPAIR_IDLE_EXIT) && c >= 0 && c < rp->nr_cpus && !lost_before &&
	     rp->cpu[c].curr == 0 && ev->common_pid > 0))
		return tr_repair_push(rp, ev, lost_before);
	rp->next_seq++;
	if (ev->ts > rp->newest_ts)
		rp->newest_ts = ev->ts;
	if (observe(rp, ev, lost_before, seq, type, true))
		return -1;
	/* tr_repair_pop()'s test with this event alone held */
	if (!(rp->ended || 1 > rp->lim.hold_events ||
	      (rp->newest_ts > ev->ts && rp->newest_ts - ev->ts > rp->lim.hold_ns)) &&
	    ev->ts > safe_until(rp))
		return hold(rp, ev, lost_before, seq);
	if (!rp->held_max)
		rp->held_max = 1;
	if (ev->ts > rp->floor)
		rp->floor = ev->ts;
	return 1;
}

int tr_repair_pass(struct tr_repair *rp, struct trace_event *ev, uint64_t lost_before)
{
	return repair_pass(rp, ev, lost_before, ev->type);
}

int tr_repair_pass_switch(struct tr_repair *rp, struct trace_event *ev, uint64_t lost_before)
{
	return repair_pass(rp, ev, lost_before, TRACE_EV_SCHED_SWITCH);
}

/* sched_waking, sched_wakeup and sched_wakeup_new are noted alike */
int tr_repair_pass_wakeup(struct tr_repair *rp, struct trace_event *ev, uint64_t lost_before)
{
	return repair_pass(rp, ev, lost_before, TRACE_EV_SCHED_WAKEUP);
}

int tr_repair_pass_stat_runtime(struct tr_repair *rp, struct trace_event *ev,
				uint64_t lost_before)
{
	return repair_pass(rp, ev, lost_before, TRACE_EV_SCHED_STAT_RUNTIME);
}

int tr_repair_pop(struct tr_repair *rp, struct trace_event *ev, uint64_t *lost_before)
{
	for (;;) {
		struct rp_ent *f;
		bool force;
		int c;

		if (!rp->n)
			return 0;
		f = held(rp, 0);
		force = rp->ended || rp->n > rp->lim.hold_events ||
			(rp->newest_ts > f->ev.ts && rp->newest_ts - f->ev.ts > rp->lim.hold_ns);
		if (rp->nsyn && rp->syn[0].seq_before == f->seq) {
			/* another idle CPU's switch restored later could still precede it */
			if (!force && rp->syn[0].ev.ts > safe_until(rp))
				return 0;
			*ev = rp->syn[0].ev;
			*lost_before = 0;
			rp->nsyn--;
			memmove(&rp->syn[0], &rp->syn[1], rp->nsyn * sizeof(*rp->syn));
			if (ev->ts > rp->floor)
				rp->floor = ev->ts;
			return 1;
		}
		c = open_at(rp, f->seq);
		if (c >= 0) {
			if (!force)
				return 0;
			/* the bounds: no sched_stat_runtime in time, T's first event it is */
			if (resolve(rp, c, 0, false, NULL))
				return -1;
			continue;
		}
		if (!force && f->ev.ts > safe_until(rp))
			return 0;
		*ev = f->ev;
		*lost_before = f->lost_before;
		if (ev->type == TRACE_EV_SCHED_PROCESS_EXEC)
			ev->u.exec.filename = f->str;
		else if (ev->type == TRACE_EV_CGROUP_ATTACH_TASK)
			ev->u.cgroup_attach.dst_path = f->str;
		rp->head = (rp->head + 1) & (rp->cap - 1);
		/* usually 1 event is held: reuse the first slots, hot in cache */
		if (!--rp->n)
			rp->head = 0;
		if (ev->ts > rp->floor)
			rp->floor = ev->ts;
		return 1;
	}
}
