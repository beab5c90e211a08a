// SPDX-License-Identifier: GPL-2.0
/*
 * The trace's own ticks (replay_config.ticks, --ticks traced; docs/replay.md,
 * "Traced ticks").
 *
 * The capture machine (a VM) delivers its scheduler tick late now and then
 * (50-600 us after its grid point on 1-7 of 20-40 ticks per CPU on the
 * hackbench captures of 2 Dec 2026), and the kernel switches at the return
 * from the interrupt or from the system call the tick hit, 5-500 us after
 * it.  The simulation ticks every CPU on its grid (wl_facts.tick_phase_ns)
 * and switches tick_switch_ns after a tick that reschedules.  This file
 * reads both from the trace, for the simulation to use instead.
 *
 * A tick.  sched_tick() -> task_tick_fair() -> entity_tick() ->
 * update_curr() charges the running task from the timer interrupt, so its
 * sched_stat_runtime is written in hardirq context (TRACE_FLAG_HARDIRQ in
 * common_flags) with the task itself as common_pid.  The only other hardirq
 * charge of the running task is a wakeup's onto its CPU from an interrupt
 * (the wake list's IPI, sched_ttwu_pending(); an hrtimer's wakeup):
 * enqueue_task_fair() or wakeup_preempt() charges curr, then the
 * sched_wakeup(_new) is written, also in hardirq.  So a traced tick is such
 * a charge whose CPU's next event other than sched_stat_runtime is not a
 * hardirq sched_wakeup(_new) within WL_TICK_WAKE_NS.  The grid of a CPU
 * with WL_TICK_PHASE_MIN of them is theirs (ticks_phase(): the facts'
 * phase, a mean of the tick-like charges, is unknown on several captures,
 * and pulled late by the late ticks on others), else the facts'.  Per CPU,
 * each tick period of that grid keeps the first tick in [grid - lo, grid + hi]
 * (wl_tick_window()): a tick is never early (the grid is a median, a few
 * us off), and the latest seen is 604 us late.
 *
 * Its switch.  A tick that rescheduled set TIF_NEED_RESCHED after its
 * charge: the first event on the CPU after the tick shows it
 * (TRACE_FLAG_NEED_RESCHED, or the lazy one) where the tick's own did not,
 * unless that event is a wakeup or a wakeup onto the CPU was written on
 * another CPU in between (a remote enqueue: its wakeup_preempt() may have
 * set it; hog-timer's probe wakeups, 300 us - 2 ms after the tick).  The
 * delay is then the tick to the CPU's next switch, if that switches the
 * ticked task out runnable (R, R+) before the CPU's next tick; a block
 * first or another tick first gives no sample.  The delays
 * are the calibration's tick table (calib_build_tick()).
 *
 * Without common_flags (an ftrace text: the reader does not keep its flag
 * column) nothing is found.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload_builder.h"

/* common_flags bits of the ftrace ring buffer (enum trace_flag_type) */
#define TF_NEED_RESCHED_LAZY 0x02
#define TF_NEED_RESCHED      0x04
#define TF_HARDIRQ           0x08

/* Ticks of a CPU that give its grid (wl_traced_tick_phase()) */
#define WL_TICK_PHASE_MIN 4u

/* A hardirq charge followed this soon by a hardirq wakeup there is that wakeup's. */
#define WL_TICK_WAKE_NS 10000u

struct wl_tick_cpu {
	bool cand;                   /* a hardirq charge of curr waits for the next event */
	bool cand_seen_next;         /* ... the event after it was seen */
	bool cand_nr;                /* ... need_resched before it (its own flags) */
	bool cand_sets_nr;           /* ... the event after it shows need_resched set */
	bool cand_woken;             /* ... a wakeup onto this CPU came in between (any CPU's) */
	int32_t cand_pid;
	uint64_t cand_ts;
	bool wait;                   /* a tick that rescheduled waits for its switch */
	int32_t wait_pid;
	uint64_t wait_ts;
};

static bool is_wakeup(const struct trace_event *ev)
{
	return ev->type == TRACE_EV_SCHED_WAKEUP || ev->type == TRACE_EV_SCHED_WAKEUP_NEW;
}

static struct wl_tick_cpu *tick_cpu(struct wl_builder *b, int cpu)
{
	if (cpu < 0 || cpu >= TRACE_MAX_CPUS)
		return NULL;
	if (cpu >= b->tick_ncpus) {
		struct wl_tick_cpu *p = realloc(b->tick_cpus, (size_t)(cpu + 1) * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + b->tick_ncpus, 0, (size_t)(cpu + 1 - b->tick_ncpus) * sizeof(*p));
		b->tick_cpus = p;
		b->tick_ncpus = cpu + 1;
	}
	return &b->tick_cpus[cpu];
}

/* The pending charge of @c is a tick: kept, and waits for its switch if it rescheduled. */
static int confirm(struct wl_builder *b, struct wl_tick_cpu *c, int cpu)
{
	WL_VEC_PUSH(b->tick_found, oom);
	b->tick_found.v[b->tick_found.n++] = (struct wl_tick_rec){ .ts = c->cand_ts, .cpu = cpu };
	c->wait = c->cand_sets_nr && !c->cand_nr;     /* a new tick ends an older wait */
	c->wait_pid = c->cand_pid;
	c->wait_ts = c->cand_ts;
	c->cand = false;
	return 0;
oom:
	return -1;
}

int wl_ticks_event(struct wl_builder *b, const struct trace_event *ev, bool lost_before)
{
	struct wl_tick_cpu *c;

	if (ev->synthetic)
		return 0;                   /* a restored switch out of idle: no record */
	if (is_wakeup(ev) && ev->u.wakeup.target_cpu >= 0 && ev->u.wakeup.target_cpu != ev->cpu &&
	    ev->u.wakeup.target_cpu < b->tick_ncpus)
		/* its wakeup_preempt() may set need_resched there (a remote enqueue, written here) */
		b->tick_cpus[ev->u.wakeup.target_cpu].cand_woken = true;
	if (!(c = tick_cpu(b, ev->cpu)))
		return -1;
	if (lost_before)
		c->cand = c->wait = false;  /* what came in between is unknown */
	if (c->cand) {
		if (!c->cand_seen_next) {
			c->cand_seen_next = true;
			c->cand_sets_nr = (ev->common_flags & (TF_NEED_RESCHED | TF_NEED_RESCHED_LAZY)) &&
					  !is_wakeup(ev) && !c->cand_woken;
		}
		/*
		 * Decided at the next event other than a charge, or at a charge
		 * too late to be the same wakeup's (a CPU hog's next tick)
		 */
		if (ev->type != TRACE_EV_SCHED_STAT_RUNTIME || ev->ts - c->cand_ts >= WL_TICK_WAKE_NS) {
			if (is_wakeup(ev) && (ev->common_flags & TF_HARDIRQ) &&
			    ev->ts - c->cand_ts < WL_TICK_WAKE_NS)
				c->cand = false;    /* that wakeup's charge */
			else if (confirm(b, c, ev->cpu))
				return -1;
		}
	}
	if (ev->type == TRACE_EV_SCHED_SWITCH && c->wait) {
		const struct trace_sched_switch *sw = &ev->u.sched_switch;

		if (sw->prev_pid == c->wait_pid && sw->prev_run == TRACE_STATE_RUNNING &&
		    ev->ts >= c->wait_ts) {
			WL_VEC_PUSH(b->tick_delays, oom);
			b->tick_delays.v[b->tick_delays.n++] = ev->ts - c->wait_ts;
		}
		c->wait = false;
	}
	if (ev->type == TRACE_EV_SCHED_STAT_RUNTIME && !c->cand && (ev->common_flags & TF_HARDIRQ) &&
	    ev->common_pid > 0 && ev->u.stat_runtime.pid == ev->common_pid) {
		c->cand = true;
		c->cand_seen_next = false;
		c->cand_nr = ev->common_flags & (TF_NEED_RESCHED | TF_NEED_RESCHED_LAZY);
		c->cand_sets_nr = false;
		c->cand_woken = false;
		c->cand_pid = ev->common_pid;
		c->cand_ts = ev->ts;
	}
	return 0;
oom:
	return -1;
}

int wl_ticks_stream_end(struct wl_builder *b)
{
	for (int cpu = 0; cpu < b->tick_ncpus; cpu++)
		if (b->tick_cpus[cpu].cand && confirm(b, &b->tick_cpus[cpu], cpu))
			return -1;
	return 0;
}

void wl_tick_window(unsigned int hz, uint64_t *lo, uint64_t *hi)
{
	uint64_t p = 1000000000ull / (hz ? hz : 250);

	/* [grid - 100 us, grid + 700 us] at HZ <= 1000; within a tenth and half a period above */
	*lo = p / 10 < 100000 ? p / 10 : 100000;
	*hi = p / 2 < 700000 ? p / 2 : 700000;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct wl_tick_rec *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The grid phase of the @n ticks at @t (ascending) of one CPU: the median
 * offset of each from the grid of their circular mean (a late tick moves the
 * mean, not the median).  @off: room for @n.
 */
static uint64_t ticks_phase(const struct wl_tick_rec *t, uint32_t n, uint64_t p, int64_t *off)
{
	double x = 0, y = 0, a;
	uint64_t m;

	for (uint32_t i = 0; i < n; i++) {
		a = 2 * M_PI * (double)(t[i].ts % p) / (double)p;
		x += cos(a);
		y += sin(a);
	}
	a = atan2(y, x);
	if (a < 0)
		a += 2 * M_PI;
	m = (uint64_t)(a / (2 * M_PI) * (double)p) % p;
	for (uint32_t i = 0; i < n; i++)    /* in [-p/2, p/2) */
		off[i] = (int64_t)((t[i].ts + p - m + p / 2) % p) - (int64_t)(p / 2);
	qsort(off, n, sizeof(*off), cmp_i64);
	return (uint64_t)((int64_t)(m + p) + off[n / 2]) % p;
}

int wl_ticks_finish(struct wl_builder *b)
{
	struct wl_workload *wl = b->wl;
	const struct wl_facts *f = &wl->facts;
	unsigned int n = f->nr_cpus;
	uint64_t p = 1000000000ull / (f->hz ? f->hz : 250), lo, hi;
	int64_t *off = NULL;
	uint32_t k = 0;

	wl->nr_ticks_found = b->tick_found.n;
	if (calib_build_tick(&wl->calib, b->tick_delays.v, b->tick_delays.n))
		return -1;
	if (!n)
		return 0;
	if (!(wl->tick_first = calloc(n + 1, sizeof(*wl->tick_first))))
		return -1;
	if (!b->tick_found.n)
		return 0;
	wl_tick_window(f->hz, &lo, &hi);
	qsort(b->tick_found.v, b->tick_found.n, sizeof(*b->tick_found.v), cmp_rec);
	if (!(wl->ticks = malloc(b->tick_found.n * sizeof(*wl->ticks))) ||
	    !(off = malloc(b->tick_found.n * sizeof(*off)))) {
		free(off);
		return -1;
	}
	for (uint32_t i = 0, c = 0; c < n; c++) {
		uint64_t ph, last = UINT64_MAX;
		uint32_t first;

		wl->tick_first[c] = k;
		for (; i < b->tick_found.n && (unsigned int)b->tick_found.v[i].cpu < c; i++)
			;
		for (first = i; i < b->tick_found.n && (unsigned int)b->tick_found.v[i].cpu == c; i++)
			;
		/*
		 * The grid: the CPU's own ticks' (the facts' phase is a mean of
		 * tick-like charges, unknown on several captures: phase 0),
		 * else the facts'; none, none placed.  CPUs < 64: the
		 * simulation's grid.
		 */
		if (c >= 64)
			continue;
		if (i - first >= WL_TICK_PHASE_MIN) {
			ph = ticks_phase(b->tick_found.v + first, i - first, p, off);
			wl->tick_phase_traced[c] = ph;
			wl->tick_phase_traced_mask |= 1ull << c;
		} else if (f->tick_phase_known) {
			ph = f->tick_phase_ns[c] % p;
		} else {
			continue;
		}
		for (uint32_t j = first; j < i; j++) {
			uint64_t t = b->tick_found.v[j].ts, per;

			if (t + lo < ph)
				continue;
			per = (t + lo - ph) / p;
			if (t > ph + per * p + hi || per == last)
				continue;           /* out of its window, or not its period's first */
			last = per;
			wl->ticks[k++] = t;
		}
	}
	free(off);
	wl->tick_first[n] = k;
	wl->nr_ticks = k;
	return 0;
}

bool wl_traced_tick_phase(const struct wl_workload *wl, int cpu, uint64_t *phase)
{
	if (cpu < 0 || cpu >= 64 || !(wl->tick_phase_traced_mask >> cpu & 1))
		return false;
	*phase = wl->tick_phase_traced[cpu];
	return true;
}

const uint64_t *wl_traced_ticks(const struct wl_workload *wl, int cpu, uint32_t *n)
{
	*n = 0;
	if (cpu < 0 || !wl->tick_first || (unsigned int)cpu >= wl->facts.nr_cpus || !wl->ticks)
		return NULL;
	*n = wl->tick_first[cpu + 1] - wl->tick_first[cpu];
	return wl->ticks + wl->tick_first[cpu];
}

uint32_t wl_nr_ticks_found(const struct wl_workload *wl)
{
	return wl->nr_ticks_found;
}
