// SPDX-License-Identifier: GPL-2.0
/*
 * The time rq_clock_task() left out on each CPU (wl_clock_left(),
 * docs/replay.md "Left-out clock_task time").
 *
 * The kernel's update_rq_clock_task() advances rq->clock_task by the rq
 * clock's delta minus the IRQ time (CONFIG_IRQ_TIME_ACCOUNTING) and the
 * steal time (CONFIG_PARAVIRT_TIME_ACCOUNTING, paravirt_steal_clock())
 * accumulated since its last update, and update_curr() charges the running
 * task now - exec_start on that clock (exec_start = now after it), which
 * sched_stat_runtime reports.  So two consecutive charges of one task on
 * its CPU with no switch of it in between, at trace times t0 < t1, the
 * second with runtime r, say that clock_task left out
 *
 *     gap = (t1 - t0) - r
 *
 * of the trace clock's interval, up to the difference of the two charges'
 * lags (the clock read before the event is written).  Those lags are alike
 * (update_rq_clock() then update_curr(), a few hundred ns apart) in task,
 * softirq and hardirq context: gaps of pairs with no left-out time scatter
 * by a couple of us whatever the contexts (pelt-mix, 5 %-95 %: tick -> tick
 * -1.4..+1.6 us, task -> task -0.6..+0.6 us, tick -> task from -2.0 us, its
 * upper tail the skipped clocks below).  So every pair counts, not only the
 * pairs written in the same kind of context (on make-probe those, tick ->
 * tick, cover 2 % of the trace, every pair 17 %).  A pair counts its whole
 * gap when that is over WL_CLOCK_LEFT_SLACK_NS, else nothing: the total is
 * a lower bound (with IRQ_TIME_ACCOUNTING, a tick's own few us of IRQ time
 * per interval are not counted; the capture kernel has it unset, so there
 * it is steal time only).
 *
 * A charge that read a skipped clock (rq_clock_skip_update(): the
 * __schedule() after a wakeup_preempt() that rescheduled keeps the
 * wakeup's clock) charges too little, and the task's next charge makes it
 * up: a gap, then a negative one.  So a pair's gap is held until the
 * chain's next pair, whose gap below -slack is taken off it.  Usually the
 * next charge never comes: that __schedule() switches the task out (on
 * make-probe an hrtimer wakeup of the probe in the tick's interval, then
 * cc1's put_prev charge 8-10 us short, the wakeup's clock, then the switch:
 * 0.98 % "left out" on CPU 0 that is not).  So a pair whose second charge
 * shows need_resched set (TRACE_FLAG_NEED_RESCHED*) after a wakeup onto the
 * CPU in its interval does not count.
 *
 * What breaks a chain: a switch on the CPU, a charge of the task written on
 * another CPU (a remote update_curr(): the task's exec_start moved on a
 * clock this CPU's chain did not read), lost events.  Runs shorter than two charges of one task (a wakeup -> block
 * that is charged once, at its dequeue) show no chain and contribute
 * nothing: on a CPU that only runs such tasks the left-out time is unknown
 * (the chains' share of the trace's span says how much was seen).
 *
 * The timeline: per CPU the points (t0, C) and (t1, C + gap) of each
 * counted pair, C the cumulative left-out time before it; between points
 * it is linear (the time left out is spread over the pair's interval: the
 * trace does not say where in it the vCPU was stolen), after the last one
 * constant.  Its slope is at most 1 (gap <= t1 - t0, r >= 0), so trace
 * time minus it never goes back.
 */
#include <stdlib.h>
#include <string.h>

#include "workload_builder.h"

/* common_flags: need_resched set (enum trace_flag_type: NEED_RESCHED_LAZY, NEED_RESCHED) */
#define TF_RESCHED (0x02 | 0x04)

struct wl_steal_cpu {
	int32_t pid;                 /* the chain's task (0: none) */
	uint64_t ts;                 /* its last charge here */
	uint64_t left;               /* cumulative left-out time so far */
	bool woken;                  /* a wakeup onto the CPU since the chain's last charge */
	bool held;                   /* a pair's gap waits for the chain's next pair */
	uint64_t h_t0, h_t1, h_gap;
	WL_VEC(struct wl_clock_point) pts;
	struct wl_clock_left st;
};

struct wl_steal {
	struct wl_steal_cpu *cpu;
	int n;
};

static struct wl_steal_cpu *steal_cpu(struct wl_builder *b, int cpu)
{
	struct wl_steal *s = b->steal;

	if (cpu < 0 || cpu >= TRACE_MAX_CPUS)
		return NULL;
	if (!s && !(s = b->steal = calloc(1, sizeof(*s))))
		return NULL;
	if (cpu >= s->n) {
		struct wl_steal_cpu *p = realloc(s->cpu, (size_t)(cpu + 1) * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + s->n, 0, (size_t)(cpu + 1 - s->n) * sizeof(*p));
		s->cpu = p;
		s->n = cpu + 1;
	}
	return &s->cpu[cpu];
}

static int push_point(struct wl_steal_cpu *c, uint64_t ts, uint64_t left)
{
	if (c->pts.n && c->pts.v[c->pts.n - 1].ts == ts)
		return 0;                   /* the previous pair's end is this one's start */
	WL_VEC_PUSH(c->pts, oom);
	c->pts.v[c->pts.n++] = (struct wl_clock_point){ .ts = ts, .left_ns = left };
	return 0;
oom:
	return -1;
}

/* The held pair, its gap less @undo (a skipped clock's), into the timeline. */
static int flush_held(struct wl_steal_cpu *c, uint64_t undo)
{
	uint64_t gap;

	if (!c->held)
		return 0;
	c->held = false;
	gap = c->h_gap > undo ? c->h_gap - undo : 0;
	if (gap <= WL_CLOCK_LEFT_SLACK_NS)
		return 0;
	if (push_point(c, c->h_t0, c->left) || push_point(c, c->h_t1, c->left + gap))
		return -1;
	c->left += gap;
	c->st.gaps++;
	if (gap > c->st.max_gap_ns)
		c->st.max_gap_ns = gap;
	return 0;
}

int wl_steal_event(struct wl_builder *b, const struct trace_event *ev, bool lost_before)
{
	const struct trace_sched_stat_runtime *r = &ev->u.stat_runtime;
	struct wl_steal_cpu *c;

	if (ev->synthetic)
		return 0;
	if (!(c = steal_cpu(b, ev->cpu)))
		return -1;
	if (lost_before || ev->type == TRACE_EV_SCHED_SWITCH) {
		c->pid = 0;
		return flush_held(c, 0);
	}
	if ((ev->type == TRACE_EV_SCHED_WAKEUP || ev->type == TRACE_EV_SCHED_WAKEUP_NEW) &&
	    ev->u.wakeup.target_cpu >= 0 && ev->u.wakeup.target_cpu < b->steal->n)
		b->steal->cpu[ev->u.wakeup.target_cpu].woken = true;
	if (ev->type != TRACE_EV_SCHED_STAT_RUNTIME || r->pid <= 0)
		return 0;
	if (ev->common_pid != r->pid) {
		/* a remote update_curr() (or one for another task): its CPU's chain ends */
		for (int k = 0; k < b->steal->n; k++)
			if (b->steal->cpu[k].pid == r->pid) {
				b->steal->cpu[k].pid = 0;
				if (flush_held(&b->steal->cpu[k], 0))
					return -1;
			}
		return 0;
	}
	if (c->pid != r->pid && flush_held(c, 0))
		return -1;
	if (c->pid == r->pid && ev->ts > c->ts) {
		uint64_t dt = ev->ts - c->ts;
		int64_t gap = (int64_t)dt - (int64_t)r->runtime;

		c->st.pairs++;
		c->st.chain_ns += dt;
		if (flush_held(c, gap < -(int64_t)WL_CLOCK_LEFT_SLACK_NS ? (uint64_t)-gap : 0))
			return -1;
		if (c->woken && (ev->common_flags & TF_RESCHED))
			c->st.skipped++;    /* may have read a wakeup's skipped clock */
		else if (gap > WL_CLOCK_LEFT_SLACK_NS) {
			c->held = true;
			c->h_t0 = c->ts;
			c->h_t1 = ev->ts;
			c->h_gap = (uint64_t)gap;
		}
	}
	c->pid = r->pid;
	c->woken = false;
	c->ts = ev->ts;
	return 0;
}

/* (@a1 - @a0) + (@b1 - @b0) USER_HZ ticks in ns, a counter that went back as 0, saturated */
static uint64_t ticks_ns(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1, long hz)
{
	double ns = ((double)(a1 > a0 ? a1 - a0 : 0) + (double)(b1 > b0 ? b1 - b0 : 0)) *
		    (1e9 / (double)(hz > 0 ? hz : 100));

	return ns >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)ns;
}

int wl_steal_finish(struct wl_builder *b)
{
	struct wl_workload *wl = b->wl;
	unsigned int n = wl->facts.nr_cpus;
	struct wl_steal *s = b->steal;

	if (!n)
		return 0;
	if (!(wl->clock_left = calloc(n, sizeof(*wl->clock_left))))
		return -1;
	for (int k = 0; s && k < s->n; k++)
		if (flush_held(&s->cpu[k], 0))
			return -1;
	for (unsigned int k = 0; k < n; k++) {
		struct wl_clock_left_cpu *o = &wl->clock_left[k];

		o->st.span_ns = b->last_ts - b->first_ts;
		if (b->sc && b->sc->cpu_time && (int)k < b->sc->nr_cpus && b->sc->cpu_time[k].have) {
			const struct sidecar_cpu_time *ct = &b->sc->cpu_time[k];

			o->st.proc_stat = true;
			o->st.proc_steal_ns = ticks_ns(ct->steal[0], ct->steal[1], 0, 0,
						       b->sc->cpu_time_user_hz);
			o->st.proc_irq_ns = ticks_ns(ct->irq[0], ct->irq[1], ct->softirq[0],
						     ct->softirq[1], b->sc->cpu_time_user_hz);
		}
		if (!s || (int)k >= s->n)
			continue;
		o->st.pairs = s->cpu[k].st.pairs;
		o->st.gaps = s->cpu[k].st.gaps;
		o->st.skipped = s->cpu[k].st.skipped;
		o->st.chain_ns = s->cpu[k].st.chain_ns;
		o->st.max_gap_ns = s->cpu[k].st.max_gap_ns;
		o->st.left_ns = s->cpu[k].left;
		o->pts = s->cpu[k].pts.v;          /* handed over */
		o->n = s->cpu[k].pts.n;
		s->cpu[k].pts.v = NULL;
		s->cpu[k].pts.n = 0;
	}
	return 0;
}

void wl_steal_free(struct wl_builder *b)
{
	if (!b->steal)
		return;
	for (int k = 0; k < b->steal->n; k++)
		free(b->steal->cpu[k].pts.v);
	free(b->steal->cpu);
	free(b->steal);
	b->steal = NULL;
}

bool wl_clock_left(const struct wl_workload *wl, int cpu, struct wl_clock_left *out)
{
	memset(out, 0, sizeof(*out));
	if (cpu < 0 || !wl->clock_left || (unsigned int)cpu >= wl->facts.nr_cpus)
		return false;
	*out = wl->clock_left[cpu].st;
	return true;
}

const struct wl_clock_point *wl_clock_left_points(const struct wl_workload *wl, int cpu,
						  uint32_t *n)
{
	*n = 0;
	if (cpu < 0 || !wl->clock_left || (unsigned int)cpu >= wl->facts.nr_cpus)
		return NULL;
	*n = wl->clock_left[cpu].n;
	return wl->clock_left[cpu].pts;
}

uint64_t wl_clock_left_at(const struct wl_workload *wl, int cpu, uint64_t ts)
{
	uint32_t n, lo = 0, hi;
	const struct wl_clock_point *p = wl_clock_left_points(wl, cpu, &n);

	if (!n || ts <= p[0].ts)
		return 0;
	if (ts >= p[n - 1].ts)
		return p[n - 1].left_ns;
	hi = n - 1;                         /* p[lo].ts < ts < p[hi].ts */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p[mid].ts <= ts)
			lo = mid;
		else
			hi = mid;
	}
	return p[lo].left_ns + (uint64_t)((double)(p[hi].left_ns - p[lo].left_ns) *
					  (double)(ts - p[lo].ts) / (double)(p[hi].ts - p[lo].ts));
}
