// SPDX-License-Identifier: GPL-2.0
/*
 * Machine facts a trace from another tool does not state: HZ and the tick
 * phase, from the cadence of sched_stat_runtime; and the --cgroup-map file.
 *
 * HZ.  A fair task that keeps running is charged by update_curr() at every
 * tick (task_tick_fair() -> entity_tick()), so while it stays on its CPU
 * its sched_stat_runtime events recur every TICK_NSEC.  Other charges
 * (enqueue_entity(), check_preempt_wakeup_fair(), dequeue, put_prev) come at
 * arbitrary times.  Two independent tests read that:
 *
 * The tick grid (helper hz33, 3 Dec 2026).  The tick fires on a grid of
 * TICK_NSEC per CPU: tick_setup_sched_timer() starts it at
 * tick_init_jiffy_update(), a multiple of TICK_NSEC (plus the per-CPU
 * sched_skew_tick offset), and tick_nohz_restart() forwards the stopped
 * timer from its last expiry, so the phase survives NO_HZ idle.  A charge
 * of a CPU's running task with no switch, wakeup, migration or fork within
 * HZ_LONE_NS on that CPU ("lone") is a tick's, or noise at any phase; so
 * for the true period the lone charges of each CPU concentrate at one phase
 * (mean resultant length >= HZ_GRID_CONC, Rayleigh Z >= HZ_GRID_Z) and for
 * 100/200/250/300 against each other they do not.  A divisor of the true
 * period (1 and 2 ms of 4 ms) concentrates as well, and so does a multiple
 * if the workload samples the ticks periodically; those are told by the
 * grid points that fall between two consecutive charges of a running task
 * (no switch between): a tick there would have charged it, so the true
 * grid's points there are all charged (at the interval's end, within
 * period/HZ_GRID_W before it and HZ_GRID_LATE times that after: the VM's
 * late ticks, 50..573 us at 4 ms) and a divisor's are mostly missed.  The HZ is the one
 * concentrated candidate not refuted (>= 3 points missed, over 1 in
 * HZ_GRID_MISS), if >= HZ_GRID_TESTS of its points were tested and at most
 * 1 in HZ_GRID_MISS missed.
 *
 * The tick spacing (helper hzc32): the spacing of consecutive charges of a
 * CPU's running task with no sched_switch between, and the HZ is the
 * candidate whose period holds a peak of them (within HZ_TOL) standing
 * HZ_PEAK_OVER times over the spacings as close 10 % below and above it:
 * the other charges spread over all spacings, the ticks do not.  It wins
 * with >= HZ_MIN_TICKS spacings over that background and twice any other
 * candidate's.  The charges' runtime (~TICK_NSEC for a tick) was the rule
 * before 3 Dec 2026 (helper hzc32): on make -j, first charges after a
 * switch-in of 1 and 2 ms tied with the 4 ms ticks, and forkexec's 1 ms
 * charges (also first ones after a switch-in) made a HZ=250 trace read as
 * 1000.
 *
 * The grid's answer first (it needs no task to run a whole period), else the
 * spacing's; if both answer and differ, HZ is not inferable.
 *
 * Tick phase.  Ticks stay on one grid per CPU across NO_HZ idle periods
 * (tick_nohz_restart() forwards the timer on the old grid), so the phase of
 * a CPU's ticks is the circular mean of (ts mod TICK_NSEC) over its
 * tick-charged events (a runtime of one period).  The grid that infers HZ
 * holds a phase per CPU too: the median of its lone charges near their
 * circular mean (helper hz34, 3 Dec 2026; within 2.7 us of the CPU's traced
 * hardirq ticks on every bundled capture, where the full-period charges'
 * mean is up to 30 us off, and forkexec, hackbench-shares, small-hackbench
 * have no full-period charge).  The simulation ticks busy CPUs on the
 * grid's phase where it holds, else on the charges' mean (--tick-phase
 * grid, the default; sim_run.c, tick_phase_of()).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <schedreplay/cli.h>

#include "workload_local.h"

/*
 * Every HZ the kernel's Kconfig offers on the architectures traced in the
 * field: kernel/Kconfig.hz (100, 250, 300, 1000: x86, arm64, ...) and
 * arch/arm/Kconfig's own choice (also 200 and 500).  A 32-bit ARM board's
 * trace at HZ=200 (5 ms ticks) was taken for 250 before 200 was here
 * (arm-trappy in ../shared/traces-external: sched_stat_runtime +24 %).
 * Neighbours are >= 20 % apart, far outside HZ_TOL.
 */
static const unsigned int hz_candidates[] = { 100, 200, 250, 300, 500, 1000 };
#define NR_HZ (sizeof(hz_candidates) / sizeof(hz_candidates[0]))
#define HZ_TOL 0.02
#define HZ_MAX_SAMPLES (1u << 20)

struct hz_sample {
	uint64_t ts;
	int32_t cpu;
	uint8_t cand;
};

/* A CPU's last charge of its running task since its last switch. */
struct hz_cpu {
	int32_t pid;        /* 0: none since the last switch */
	uint64_t ts;
	uint64_t near_ts;   /* its last switch, wakeup, migration or fork */
	bool near_seen;
	/* tick_grid()'s, for one candidate at a time */
	double gx, gy;
	uint32_t gn;
	uint64_t phase;     /* ns mod the period; valid if gn >= HZ_GRID_CPU_MIN */
};

/* A charge of a CPU's running task, for the tick grid. */
struct hz_charge {
	uint64_t ts;
	uint64_t prev;      /* the task's charge before, no switch between; 0: none */
	int32_t cpu;
	bool lone;          /* no switch, wakeup, ... within HZ_LONE_NS on its CPU */
};

#define HZ_LONE_NS 20000
#define HZ_GRID_CPU_MIN 3   /* lone charges of a CPU for its phase */
#define HZ_GRID_CONC 0.5
#define HZ_GRID_Z 10
#define HZ_GRID_W 20        /* a charge within period/20 of a point is on it */
#define HZ_GRID_LATE 3      /* ... or up to 3 times that late after it (VM: 50..573 us) */
#define HZ_GRID_TESTS 8
#define HZ_GRID_MISS 20

#define HZ_HIST_US 12000
#define HZ_MIN_TICKS 10
#define HZ_PEAK_OVER 3

struct wl_hz_probe {
	struct hz_sample *s;
	uint32_t n, cap;
	uint64_t total;
	struct hz_cpu *cpu;
	uint32_t ncpu;
	struct hz_charge *ch;
	uint32_t nch, chcap;
	uint64_t spacings;
	uint32_t hist[HZ_HIST_US];
};

struct wl_hz_probe *wl_hz_probe_new(void)
{
	return calloc(1, sizeof(struct wl_hz_probe));
}

void wl_hz_probe_free(struct wl_hz_probe *p)
{
	if (!p)
		return;
	free(p->s);
	free(p->cpu);
	free(p->ch);
	free(p);
}

static struct hz_cpu *hz_cpu_get(struct wl_hz_probe *p, int cpu)
{
	if (cpu < 0 || cpu >= 4096)
		return NULL;
	if ((uint32_t)cpu >= p->ncpu) {
		uint32_t n = (uint32_t)cpu + 1;
		struct hz_cpu *v = realloc(p->cpu, n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + p->ncpu, 0, (n - p->ncpu) * sizeof(*v));
		p->cpu = v;
		p->ncpu = n;
	}
	return &p->cpu[cpu];
}

void wl_hz_probe_switch(struct wl_hz_probe *p, int cpu)
{
	if (cpu >= 0 && (uint32_t)cpu < p->ncpu)
		p->cpu[cpu].pid = 0;
}

static bool hz_near(uint64_t a, uint64_t b)
{
	return (a > b ? a - b : b - a) <= HZ_LONE_NS;
}

int wl_hz_probe_near(struct wl_hz_probe *p, int cpu, uint64_t ts)
{
	struct hz_cpu *c;

	if (cpu < 0 || cpu >= 4096)
		return 0;
	if (!(c = hz_cpu_get(p, cpu)))
		return -1;
	c->near_ts = ts;
	c->near_seen = true;
	/* the charges just before it on this CPU are its own (dequeue, put_prev, enqueue) */
	for (uint32_t i = p->nch; i-- > 0 && p->ch[i].ts + HZ_LONE_NS >= ts;)
		if (p->ch[i].cpu == cpu)
			p->ch[i].lone = false;
	return 0;
}

int wl_hz_probe_add(struct wl_hz_probe *p, int cpu, uint64_t ts, uint64_t runtime, int32_t pid)
{
	struct hz_cpu *c = pid > 0 ? hz_cpu_get(p, cpu) : NULL;

	p->total++;
	if (c) {
		bool cont = c->pid == pid && ts > c->ts;

		if (cont) {
			p->spacings++;
			if ((ts - c->ts) / 1000 < HZ_HIST_US)
				p->hist[(ts - c->ts) / 1000]++;
		}
		if (p->nch < HZ_MAX_SAMPLES) {
			if (p->nch == p->chcap &&
			    wl_vec_grow((void **)&p->ch, &p->chcap, sizeof(*p->ch), p->nch + 1))
				return -1;
			p->ch[p->nch++] = (struct hz_charge){
				.ts = ts, .prev = cont ? c->ts : 0, .cpu = cpu,
				.lone = !(c->near_seen && hz_near(ts, c->near_ts)),
			};
		}
		c->pid = pid;
		c->ts = ts;
	}
	for (unsigned int i = 0; i < NR_HZ; i++) {
		double period = 1e9 / hz_candidates[i];

		if (fabs((double)runtime - period) > HZ_TOL * period)
			continue;
		if (p->n >= HZ_MAX_SAMPLES)
			return 0;     /* enough for the phase */
		if (p->n == p->cap && wl_vec_grow((void **)&p->s, &p->cap, sizeof(*p->s), p->n + 1))
			return -1;
		p->s[p->n++] = (struct hz_sample){ .ts = ts, .cpu = cpu, .cand = (uint8_t)i };
	}
	return 0;
}

static int cand_of(unsigned int hz)
{
	for (unsigned int i = 0; i < NR_HZ; i++)
		if (hz_candidates[i] == hz)
			return (int)i;
	return -1;
}

/* The phase (ns mod @per) of the circular mean (@x, @y). */
static uint64_t mean_phase(double x, double y, uint64_t per)
{
	double ang = atan2(y, x);

	if (ang < 0)
		ang += 2 * M_PI;
	return (uint64_t)(ang / (2 * M_PI) * (double)per) % per;
}

/* Circular mean of ts mod period over the candidate's samples, per CPU. */
static bool tick_phase(struct wl_hz_probe *p, int cand, unsigned int hz, struct wl_facts *f)
{
	double sx[64] = { 0 }, sy[64] = { 0 };
	uint64_t n[64] = { 0 }, period = 1000000000ull / hz, all = 0;
	double gx = 0, gy = 0;

	if (cand < 0)
		return false;
	for (uint32_t i = 0; i < p->n; i++) {
		const struct hz_sample *s = &p->s[i];
		double a;

		if (s->cand != cand)
			continue;
		a = 2 * M_PI * (double)(s->ts % period) / (double)period;
		if (s->cpu >= 0 && s->cpu < 64) {
			sx[s->cpu] += cos(a);
			sy[s->cpu] += sin(a);
			n[s->cpu]++;
		}
		gx += cos(a);
		gy += sin(a);
		all++;
	}
	if (!all)
		return false;
	for (int c = 0; c < 64; c++)
		f->tick_phase_ns[c] = n[c] >= 4 ? mean_phase(sx[c], sy[c], period) :
				      mean_phase(gx, gy, period);
	return true;
}

/* Spacings in [from, to] us. */
static uint64_t hist_sum(const struct wl_hz_probe *p, unsigned int from, unsigned int to)
{
	uint64_t n = 0;

	for (unsigned int i = from; i <= to && i < HZ_HIST_US; i++)
		n += p->hist[i];
	return n;
}

/*
 * The tick's signature: spacings of one period, within HZ_TOL, against
 * the spacings in windows as wide 10 % below and above it (charges at
 * wakeups and dequeues, spread over all spacings).  @bg: their mean.
 */
static uint64_t tick_peak(const struct wl_hz_probe *p, unsigned int cand, uint64_t *bg)
{
	unsigned int per = 1000000 / hz_candidates[cand], w = (unsigned int)(HZ_TOL * per);

	*bg = (hist_sum(p, per * 9 / 10 - w, per * 9 / 10 + w) +
	       hist_sum(p, per * 11 / 10 - w, per * 11 / 10 + w) + 1) / 2;
	return hist_sum(p, per - w, per + w);
}

/* The tick grid's figures for one candidate: see the head of this file. */
struct hz_grid {
	uint64_t lone;      /* lone charges of CPUs with a phase */
	uint64_t on;        /* ... of them within period/HZ_GRID_W of their CPU's phase */
	uint64_t tested;    /* grid points between two charges of a running task */
	uint64_t missed;    /* ... with no charge on them */
	double conc;        /* mean resultant length of the lone charges' phases */
	double z;           /* Rayleigh's Z summed over the CPUs: ~1 per CPU at random */
	bool fits;          /* they concentrate */
};

/* ns from @ts to the nearest point of the grid (@phase mod @per) */
static uint64_t grid_dist(uint64_t ts, uint64_t phase, uint64_t per)
{
	uint64_t r = (ts + per - phase) % per;

	return r < per - r ? r : per - r;
}

/* grid points (@phase mod @per) in (lo, hi] */
static uint64_t grid_points(uint64_t lo, uint64_t hi, uint64_t phase, uint64_t per)
{
	return hi <= lo ? 0 : (hi + per - phase) / per - (lo + per - phase) / per;
}

static void tick_grid(struct wl_hz_probe *p, unsigned int cand, struct hz_grid *g)
{
	uint64_t per = 1000000000ull / hz_candidates[cand], w = per / HZ_GRID_W;
	double sum = 0;

	memset(g, 0, sizeof(*g));
	for (uint32_t c = 0; c < p->ncpu; c++) {
		p->cpu[c].gx = p->cpu[c].gy = 0;
		p->cpu[c].gn = 0;
	}
	for (uint32_t i = 0; i < p->nch; i++) {
		struct hz_cpu *c = &p->cpu[p->ch[i].cpu];
		double a = 2 * M_PI * (double)(p->ch[i].ts % per) / (double)per;

		if (!p->ch[i].lone)
			continue;
		c->gx += cos(a);
		c->gy += sin(a);
		c->gn++;
	}
	for (uint32_t c = 0; c < p->ncpu; c++) {
		struct hz_cpu *k = &p->cpu[c];
		double r = hypot(k->gx, k->gy);

		if (k->gn < HZ_GRID_CPU_MIN)
			continue;
		sum += r;
		g->z += r * r / k->gn;
		g->lone += k->gn;
		k->phase = mean_phase(k->gx, k->gy, per);
	}
	g->conc = g->lone ? sum / (double)g->lone : 0;
	g->fits = g->conc >= HZ_GRID_CONC && g->z >= HZ_GRID_Z;
	if (!g->fits)
		return;
	for (uint32_t i = 0; i < p->nch; i++) {
		const struct hz_charge *ch = &p->ch[i];
		const struct hz_cpu *k = &p->cpu[ch->cpu];
		uint64_t n, x;

		if (k->gn < HZ_GRID_CPU_MIN)
			continue;
		if (ch->lone && grid_dist(ch->ts, k->phase, per) <= w)
			g->on++;
		if (!ch->prev)
			continue;
		/*
		 * The task ran from ch->prev to ch->ts, charged at neither end
		 * between: a tick at a point in (prev + w, ts - late) would have
		 * charged it.  A point from w before ts to HZ_GRID_LATE w after
		 * it is its charge's (a tick's interrupt comes late on a VM).
		 */
		n = grid_points(ch->prev + w, ch->ts + w, k->phase, per);
		if (!n)
			continue;
		g->tested += n;
		x = ch->ts + w - (ch->ts + w + per - k->phase) % per;   /* the last point <= ts + w */
		g->missed += n - (x + HZ_GRID_LATE * w >= ch->ts && x > ch->prev + w);
	}
}

static bool grid_refuted(const struct hz_grid *g)
{
	return g->missed >= 3 && g->missed * HZ_GRID_MISS > g->tested;
}

static bool other_fits(const struct hz_grid *g, unsigned int fit)
{
	for (unsigned int i = 0; i < NR_HZ; i++)
		if (g[i].fits && i != fit)
			return true;
	return false;
}

/*
 * The tick grid's HZ, or 0 with the reason in @why.  Candidates run from
 * the shortest period: a refuted one is named in the answer.
 */
static unsigned int grid_decide(struct wl_hz_probe *p, struct hz_grid *g, char *why, size_t len)
{
	unsigned int fit = NR_HZ, nfit = 0, other = NR_HZ, best = 0;
	size_t o;

	for (unsigned int i = 0; i < NR_HZ; i++) {
		tick_grid(p, i, &g[i]);
		if (g[i].conc > g[best].conc)
			best = i;
		if (!g[i].fits || grid_refuted(&g[i]))
			continue;
		if (nfit++ == 0)
			fit = i;
		else if (other == NR_HZ)
			other = i;
	}
	if (nfit == 0) {
		for (unsigned int i = NR_HZ; i-- > 0;)
			if (g[i].fits) {
				snprintf(why, len, "the lone charges fit only refuted grids (1/%u s: %llu of "
					 "%llu points in a task's runs missed)", hz_candidates[i],
					 (unsigned long long)g[i].missed, (unsigned long long)g[i].tested);
				return 0;
			}
		snprintf(why, len, "%llu lone charges at no one phase of a period (closest: 1/%u s, "
			 "concentration %.2f, z-score %.0f; %.2f and %d needed)",
			 (unsigned long long)g[best].lone, hz_candidates[best], g[best].conc,
			 g[best].z, HZ_GRID_CONC, HZ_GRID_Z);
		return 0;
	}
	if (nfit > 1) {
		snprintf(why, len, "the lone charges fit the grids of 1/%u and 1/%u s, neither refuted",
			 hz_candidates[fit], hz_candidates[other]);
		return 0;
	}
	if (g[fit].tested < HZ_GRID_TESTS) {
		snprintf(why, len, "the lone charges fit the 1/%u s grid, but only %llu of its points "
			 "fell in a task's runs (%d needed)", hz_candidates[fit],
			 (unsigned long long)g[fit].tested, HZ_GRID_TESTS);
		return 0;
	}
	if (g[fit].missed * HZ_GRID_MISS > g[fit].tested) {
		snprintf(why, len, "the lone charges fit the 1/%u s grid, but %llu of its %llu points "
			 "in a task's runs missed (1 in %d at most)", hz_candidates[fit],
			 (unsigned long long)g[fit].missed, (unsigned long long)g[fit].tested, HZ_GRID_MISS);
		return 0;
	}
	o = (size_t)snprintf(why, len, "%llu of %llu lone sched_stat_runtime charges within %u us of "
			     "one phase mod %u us (1/%u s) per CPU (concentration %.2f); %llu of %llu "
			     "grid points in a task's runs charged",
			     (unsigned long long)g[fit].on, (unsigned long long)g[fit].lone,
			     1000000 / hz_candidates[fit] / HZ_GRID_W, 1000000 / hz_candidates[fit],
			     hz_candidates[fit], g[fit].conc,
			     (unsigned long long)(g[fit].tested - g[fit].missed),
			     (unsigned long long)g[fit].tested);
	for (unsigned int i = 0, n = 0; i < NR_HZ; i++)
		if (g[i].fits && i != fit && o < len)
			o += (size_t)snprintf(why + o, len - o, "%s1/%u s: %llu of %llu", n++ ? ", " : " (",
					      hz_candidates[i],
					      (unsigned long long)(g[i].tested - g[i].missed),
					      (unsigned long long)g[i].tested);
	if (o < len && other_fits(g, fit))
		snprintf(why + o, len - o, ")");
	return hz_candidates[fit];
}

/* The tick spacing's HZ, or 0 with the reason in @why. */
static unsigned int spacing_decide(const struct wl_hz_probe *p, char *why, size_t len)
{
	uint64_t peak[NR_HZ], bg[NR_HZ], ex[NR_HZ];
	unsigned int best = 0, second = NR_HZ;

	for (unsigned int i = 0; i < NR_HZ; i++) {
		peak[i] = tick_peak(p, i, &bg[i]);
		/* a peak counts only standing HZ_PEAK_OVER times over its surroundings */
		ex[i] = peak[i] >= HZ_PEAK_OVER * bg[i] ? peak[i] - bg[i] : 0;
		if (ex[i] > ex[best] || (ex[i] == ex[best] && peak[i] > peak[best]))
			best = i;
	}
	for (unsigned int i = 0; i < NR_HZ; i++)
		if (i != best && peak[i] > 0 && (second == NR_HZ || ex[i] > ex[second] ||
						 (ex[i] == ex[second] && peak[i] > peak[second])))
			second = i;
	if (ex[best] >= HZ_MIN_TICKS && (second == NR_HZ || ex[best] >= 2 * ex[second])) {
		snprintf(why, len, "%llu of %llu spacings of a running task's sched_stat_runtime "
			 "events are %u us (1/%u s), %llu at +-10 %%",
			 (unsigned long long)peak[best], (unsigned long long)p->spacings,
			 1000000 / hz_candidates[best], hz_candidates[best], (unsigned long long)bg[best]);
		return hz_candidates[best];
	}
	if (ex[best] >= HZ_MIN_TICKS)
		snprintf(why, len, "of %llu spacings of a running task's sched_stat_runtime events, "
			 "%llu at 1/%u s and %llu at 1/%u s over %llu and %llu at +-10 %%: neither "
			 "twice the other", (unsigned long long)p->spacings, (unsigned long long)peak[best],
			 hz_candidates[best], (unsigned long long)peak[second], hz_candidates[second],
			 (unsigned long long)bg[best], (unsigned long long)bg[second]);
	else
		snprintf(why, len, "of %llu spacings of a running task's sched_stat_runtime events, "
			 "at most %llu at one period over its +-10 %%; %d needed",
			 (unsigned long long)p->spacings, (unsigned long long)ex[best], HZ_MIN_TICKS);
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The phase of CPU @c's ticks on the grid of @per: the median offset of its
 * lone charges within @per / HZ_GRID_W of their circular mean @m (the
 * grid's phase, tick_grid()), from @m.  A late tick, or a lone charge of
 * another kind near the grid, moves the mean, not the median (as
 * ticks_phase() for the traced ticks).  @off: room for the CPU's lone
 * charges.
 */
static uint64_t grid_cpu_phase(const struct wl_hz_probe *p, int32_t c, uint64_t m, uint64_t per,
			       int64_t *off)
{
	int64_t w = (int64_t)(per / HZ_GRID_W), h = (int64_t)(per / 2);
	uint32_t n = 0;

	for (uint32_t i = 0; i < p->nch; i++) {
		int64_t o;

		if (!p->ch[i].lone || p->ch[i].cpu != c)
			continue;
		o = (int64_t)((p->ch[i].ts + per - m + per / 2) % per) - h;     /* in [-per/2, per/2) */
		if (o >= -w && o <= w)
			off[n++] = o;
	}
	if (!n)
		return m;
	qsort(off, n, sizeof(*off), cmp_i64);
	return (uint64_t)((int64_t)(m + per) + off[n / 2]) % per;
}

/*
 * The tick grid's phase per CPU (grid_cpu_phase()), if the grid of
 * candidate @cand holds as grid_decide() requires of the HZ it infers
 * (concentrated, >= HZ_GRID_TESTS points tested, at most 1 in HZ_GRID_MISS
 * missed): a CPU's ticks stay on one grid (tick_nohz_restart() forwards the
 * stopped tick_sched_timer from its last expiry).  A CPU with fewer than
 * HZ_GRID_CPU_MIN lone charges takes the circular mean of all CPUs' lone
 * charges.  0: no phase (the grid does not hold), 1: the phase, -1: out of
 * memory.
 */
static int grid_phase(struct wl_hz_probe *p, int cand, struct wl_facts *f)
{
	struct hz_grid g;
	uint64_t per, all;
	uint32_t most = 0;
	double x = 0, y = 0;
	int64_t *off;

	if (cand < 0)
		return 0;
	tick_grid(p, (unsigned int)cand, &g);
	if (!g.fits || g.tested < HZ_GRID_TESTS || g.missed * HZ_GRID_MISS > g.tested)
		return 0;
	per = 1000000000ull / hz_candidates[cand];
	for (uint32_t c = 0; c < p->ncpu; c++) {
		x += p->cpu[c].gx;
		y += p->cpu[c].gy;
		if (p->cpu[c].gn > most)
			most = p->cpu[c].gn;
	}
	if (!(off = malloc((most ? most : 1) * sizeof(*off))))
		return -1;
	all = mean_phase(x, y, per);
	f->tick_phase_grid_cpus = 0;
	for (uint32_t c = 0; c < 64; c++) {
		f->tick_phase_grid_ns[c] = all;
		if (c < p->ncpu && p->cpu[c].gn >= HZ_GRID_CPU_MIN) {
			f->tick_phase_grid_ns[c] = grid_cpu_phase(p, (int32_t)c, p->cpu[c].phase, per, off);
			f->tick_phase_grid_cpus |= 1ull << c;
		}
	}
	free(off);
	return 1;
}

int wl_hz_probe_decide(struct wl_hz_probe *p, unsigned int forced_hz, unsigned int sidecar_hz,
		       struct wl_facts *f)
{
	char gw[256], sw[200], inf[sizeof(gw) + sizeof(sw) + 64];
	struct hz_grid g[NR_HZ];
	unsigned int gh = grid_decide(p, g, gw, sizeof(gw)), sh = spacing_decide(p, sw, sizeof(sw));
	unsigned int inferred = 0;
	int r;

	/*
	 * Two answers: the grid's stands if it refutes the spacing's (a
	 * periodic wakeup's charges make a spacing peak; their period's grid
	 * points in a task's runs go uncharged), else neither does.
	 */
	if (gh && sh && gh != sh && !(g[cand_of(sh)].fits && grid_refuted(&g[cand_of(sh)]))) {
		snprintf(inf, sizeof(inf), "not inferable (the tick grid gives 1/%u s, the tick "
			 "spacing 1/%u s)", gh, sh);
	} else if (gh && sh && gh != sh) {
		inferred = gh;
		snprintf(inf, sizeof(inf), "tick grid: %s; the tick spacing's 1/%u s refuted", gw, sh);
	} else if (gh) {
		inferred = gh;
		snprintf(inf, sizeof(inf), "tick grid: %s", gw);
	} else if (sh) {
		inferred = sh;
		snprintf(inf, sizeof(inf), "tick spacing: %s", sw);
	} else if (!f->has_stat_runtime) {
		/* both reasons would count charges of a trace that has none */
		snprintf(inf, sizeof(inf), "not inferable: the trace has no sched_stat_runtime "
			 "(the tick's charges of running tasks show HZ)");
	} else {
		snprintf(inf, sizeof(inf), "not inferable (tick grid: %s; tick spacing: %s)", gw, sw);
	}
	if (forced_hz) {
		f->hz = forced_hz;
		f->hz_src = WL_FACT_OPTION;
		snprintf(f->hz_how, sizeof(f->hz_how), "--hz %u; trace: %s", forced_hz, inf);
	} else if (sidecar_hz) {
		f->hz = sidecar_hz;
		f->hz_src = WL_FACT_SIDECAR;
		snprintf(f->hz_how, sizeof(f->hz_how), "kernel.hz; trace: %s", inf);
	} else if (inferred) {
		f->hz = inferred;
		f->hz_src = WL_FACT_TRACE;
		snprintf(f->hz_how, sizeof(f->hz_how), "inferred: %s", inf);
	} else {
		f->hz = 250;
		f->hz_src = WL_FACT_DEFAULT;
		snprintf(f->hz_how, sizeof(f->hz_how), "assumed 250: %s (use --hz)", inf);
	}
	f->tick_phase_known = tick_phase(p, cand_of(f->hz), f->hz, f);
	if ((r = grid_phase(p, cand_of(f->hz), f)) < 0)
		return -1;
	f->tick_phase_grid_known = r > 0;
	return 0;
}

/* ---- --cgroup-map ------------------------------------------------------ */

/*
 * A map's cgroup path in the kernel's spelling (cgroup_path(): one '/'
 * between names, none at the end but the root's), in place.  A group is
 * matched by its path as the trace and the sidecar spell it, so a 'quota
 * /a/' or 'shares /a//b' line used to match nothing and was dropped without
 * a word.  False if @s is not absolute.
 */
static bool cgmap_path(char *s)
{
	size_t o = 0;

	if (s[0] != '/')
		return false;
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '/' && o > 0 && s[o - 1] == '/')
			continue;
		s[o++] = s[i];
	}
	if (o > 1 && s[o - 1] == '/')
		o--;
	s[o] = '\0';
	return true;
}

/*
 * A '.' or '..' component of a map's path (after cgmap_path()).  The
 * kernel's cgroup_path() never writes one (kernfs refuses those names, so
 * no cgroup has them), and a map's path is matched as a string: '/a/../b'
 * matched no group and the line had no effect without a word.  Refused
 * rather than resolved, since a map that says '..' was most likely built
 * from another path; the error gives the resolved path to write instead.
 * 0, or -1 with @err set.
 */
static int cgmap_dots(const char *file, unsigned int lineno, const char *s,
		      struct sr_error *err)
{
	char fix[4096], esc[256], fesc[256];
	const char *dot = NULL;
	size_t o = 0;
	bool above = false;

	for (const char *c = s + 1; *c; ) {
		size_t n = strcspn(c, "/");

		if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.')) {
			if (!dot || n == 2)
				dot = n == 1 ? "." : "..";
			if (n == 2) {
				/* back to the '/' before the last name */
				if (o == 0)
					above = true;
				while (o > 0 && fix[--o] != '/')
					;
			}
		} else if (o + 1 + n < sizeof(fix)) {
			fix[o++] = '/';
			memcpy(fix + o, c, n);
			o += n;
		}
		c += n + (c[n] == '/');
	}
	if (!dot)
		return 0;
	if (o == 0)
		fix[o++] = '/';
	fix[o] = '\0';
	sr_esc(esc, sizeof(esc), s, SR_ESC_TEXT);
	sr_esc(fesc, sizeof(fesc), fix, SR_ESC_TEXT);
	if (above)
		sr_error_set(err, EINVAL, "%s:%u: cgroup path '%s' has a '..' above the root: "
			     "write the path as the kernel spells it, from '/' without '.' or '..'",
			     file, lineno, esc);
	else
		sr_error_set(err, EINVAL, "%s:%u: cgroup path '%s' has a '%s' component: write it "
			     "as the kernel spells it, '%s' (paths are matched as written)",
			     file, lineno, esc, dot, fesc);
	return -1;
}

/*
 * The group path @a of a 'quota' (@quota) or 'shares' line, in place: in
 * the kernel's spelling (cgmap_path(), cgmap_dots()), not the root, which
 * the kernel gives no entity and so neither a weight nor a limit
 * (sched_group_set_shares(), tg_set_cfs_bandwidth()), and the group's only
 * such line (with two, one won without a word).  0, or -1 with @err set.
 */
static int cgmap_group_path(const struct wl_cgmap *map, bool quota, const char *file,
			    unsigned int lineno, char *a, struct sr_error *err)
{
	const char *kw = quota ? "quota" : "shares";
	unsigned int first = 0;

	if (!cgmap_path(a)) {
		sr_error_set(err, EINVAL, "%s:%u: expected '%s'", file, lineno,
			     quota ? "quota /cgroup/path QUOTA_US [PERIOD_US]" :
			     "shares /cgroup/path N");
		return -1;
	}
	if (cgmap_dots(file, lineno, a, err))
		return -1;
	if (!strcmp(a, "/")) {
		sr_error_set(err, EINVAL, "%s:%u: the root cgroup '/' %s; name a group below it",
			     file, lineno, quota ? "takes no quota (the kernel refuses it)" :
			     "has no shares (the kernel refuses them)");
		return -1;
	}
	for (size_t i = 0; !quota && i < map->nr_shares && !first; i++)
		if (!strcmp(map->shares[i].path, a))
			first = map->shares[i].line;
	for (size_t i = 0; quota && i < map->nr_quota && !first; i++)
		if (!strcmp(map->quota[i].path, a))
			first = map->quota[i].line;
	if (first) {
		sr_error_set(err, EINVAL, "%s:%u: a second '%s' line for %s (the first is line %u): "
			     "keep one", file, lineno, kw, a, first);
		return -1;
	}
	return 0;
}

/* by pid, then line: a pid's lines next to each other, the first one first */
static int cmp_cgmap_entry(const void *a, const void *b)
{
	const struct wl_cgmap_entry *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * fgets() with the length read: the next line of @f into @buf (@size bytes,
 * NUL-terminated), up to and with its LF, at most @size - 1 bytes.  The
 * length, or -1 at the end of the file (or a read error: ferror()).  With
 * fgets() a NUL byte inside a line hid the rest of it: "PID /a<NUL>x" was a
 * line too long, a last line "shares /a 512<NUL>junk" read as its head.
 */
static ssize_t cgmap_line(FILE *f, char *buf, size_t size)
{
	size_t n = 0;
	int c;

	while (n + 1 < size && (c = getc(f)) != EOF) {
		buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	buf[n] = '\0';
	return n ? (ssize_t)n : -1;
}

int wl_cgmap_load(const char *file, struct wl_cgmap *map, struct sr_error *err)
{
	FILE *f = fopen(file, "r");
	char line[4096], *nul;
	unsigned int lineno = 0;
	ssize_t got;

	memset(map, 0, sizeof(*map));
	if (!f) {
		/* the option named, as --dump-events' and --svg's are */
		sr_error_set(err, errno, "--cgroup-map %s: %s", file, strerror(errno));
		return -1;
	}
	while ((got = cgmap_line(f, line, sizeof(line))) >= 0) {
		char a[4096], b[4096], n[4096], extra;
		long pid;
		unsigned long shares;
		char *end;
		int k;

		lineno++;
		/* a longer line was read in pieces: its tail was "line N+1" */
		if (line[got - 1] != '\n') {
			int c = getc(f);

			if (c != EOF) {
				sr_error_set(err, EINVAL, "%s:%u: line longer than %zu characters",
					     file, lineno, sizeof(line) - 2);
				goto fail;
			}
		}
		/* a text file has none; the line's string ended there */
		if ((nul = memchr(line, '\0', (size_t)got))) {
			sr_error_set(err, EINVAL, "%s:%u: a NUL byte inside the line, at column %zu: "
				     "the map is a text file", file, lineno, (size_t)(nul - line) + 1);
			goto fail;
		}
		/*
		 * CR LF (a file saved on Windows) reads as LF.  A CR anywhere
		 * else is an error: a file with CR line ends (classic Mac OS)
		 * read as one line, and "expected 'PID /cgroup/path'" did not
		 * say why.
		 */
		{
			size_t len = strlen(line);
			char *cr;

			if (len >= 2 && line[len - 2] == '\r' && line[len - 1] == '\n') {
				line[len - 2] = '\n';
				line[len - 1] = '\0';
			} else if (len >= 1 && line[len - 1] == '\r') {
				line[len - 1] = '\0';  /* the last line, CR without LF */
			}
			if ((cr = strchr(line, '\r'))) {
				sr_error_set(err, EINVAL, "%s:%u: a carriage return (\\r) inside the "
					     "line, at column %zu: lines end in LF or CR LF (a file "
					     "with CR line ends reads as one line)", file, lineno,
					     (size_t)(cr - line) + 1);
				goto fail;
			}
		}
		if (line[0] == '#' || strspn(line, " \t\n") == strlen(line))
			continue;
		/*
		 * A keyword, then blanks, then the path.  sscanf()'s ' ' matches
		 * no blank too, so "shares/a 512" read as "shares /a 512" at
		 * exit 0, and "quota/a 1000" likewise.
		 */
		{
			size_t kw = !strncmp(line, "shares", 6) ? 6 : !strncmp(line, "quota", 5) ? 5 : 0;

			if (kw && !strchr(" \t\n", line[kw])) {
				sr_error_set(err, EINVAL, "%s:%u: no blank after '%.*s', at column %zu: "
					     "expected '%.*s /cgroup/path ...'", file, lineno,
					     (int)kw, line, kw + 1, (int)kw, line);
				goto fail;
			}
		}
		/* every number checked whole: "%lu" took -1 as 2^64-1, strtol saturated */
		k = sscanf(line, "shares %4095s %4095s %c", a, n, &extra);
		if (k >= 2) {
			void *p;

			errno = 0;
			shares = strtoul(n, &end, 10);
			if (k == 3 || errno || *end || n[0] == '-' || shares < 2 || shares > 262144) {
				sr_error_set(err, EINVAL, "%s:%u: shares must be one number in 2..262144 "
					     "after the path", file, lineno);
				goto fail;
			}
			if (cgmap_group_path(map, false, file, lineno, a, err))
				goto fail;
			p = realloc(map->shares, (map->nr_shares + 1) * sizeof(*map->shares));
			if (!p)
				goto oom;
			map->shares = p;
			if (!(map->shares[map->nr_shares].path = strdup(a)))
				goto oom;
			map->shares[map->nr_shares].line = lineno;
			map->shares[map->nr_shares++].shares = shares;
			continue;
		}
		k = sscanf(line, "quota %4095s %4095s %4095s %c", a, n, b, &extra);
		if (k >= 2) {
			long q, per = 100000;
			void *p;

			/* tg_set_cfs_bandwidth(): period 1 ms..1 s, quota >= 1 ms or -1 */
			errno = 0;
			q = strtol(n, &end, 10);
			if (k == 4 || errno || *end || (q != -1 && (q < 1000 || q > 1000000000L))) {
				sr_error_set(err, EINVAL, "%s:%u: quota must be -1 (no limit) or "
					     "1000..1000000000 us after the path", file, lineno);
				goto fail;
			}
			if (k == 3) {
				errno = 0;
				per = strtol(b, &end, 10);
				if (errno || *end || per < 1000 || per > 1000000) {
					sr_error_set(err, EINVAL, "%s:%u: period must be 1000..1000000 us "
						     "after the quota", file, lineno);
					goto fail;
				}
			}
			if (cgmap_group_path(map, true, file, lineno, a, err))
				goto fail;
			p = realloc(map->quota, (map->nr_quota + 1) * sizeof(*map->quota));
			if (!p)
				goto oom;
			map->quota = p;
			if (!(map->quota[map->nr_quota].path = strdup(a)))
				goto oom;
			map->quota[map->nr_quota].line = lineno;
			map->quota[map->nr_quota].quota_us = q;
			map->quota[map->nr_quota++].period_us = q < 0 ? -1 : per;
			continue;
		}
		errno = 0;
		/*
		 * TRACE_PID_MAX_LIMIT: PID_MAX_LIMIT, above the largest pid a kernel
		 * gives (and the replay's stand-in migration/0)
		 */
		if (sscanf(line, "%4095s %4095s %c", a, b, &extra) != 2 ||
		    (pid = strtol(a, &end, 10)) <= 0 || errno || *end || pid >= TRACE_PID_MAX_LIMIT ||
		    !cgmap_path(b)) {
			sr_error_set(err, EINVAL,
				     "%s:%u: expected 'PID /cgroup/path', 'shares /cgroup/path N' or "
				     "'quota /cgroup/path QUOTA_US [PERIOD_US]'",
				     file, lineno);
			goto fail;
		}
		if (cgmap_dots(file, lineno, b, err))
			goto fail;
		void *p = realloc(map->e, (map->n + 1) * sizeof(*map->e));

		if (!p)
			goto oom;
		map->e = p;
		map->e[map->n].pid = (int32_t)pid;
		map->e[map->n].line = lineno;
		map->e[map->n].used = false;
		if (!(map->e[map->n].path = strdup(b)))
			goto oom;
		map->n++;
	}
	/* a directory opens, and its first read fails: that was an empty map, exit 0 */
	if (ferror(f)) {
		int e = errno;

		sr_error_set(err, e, "%s: %s", file, strerror(e));
		goto fail;
	}
	fclose(f);
	/* a pid in two groups: the last line won, without a word */
	if (map->n > 1) {
		qsort(map->e, map->n, sizeof(*map->e), cmp_cgmap_entry);
		for (size_t i = 1; i < map->n; i++)
			if (map->e[i].pid == map->e[i - 1].pid) {
				sr_error_set(err, EINVAL, "%s:%u: PID %d is mapped already (line %u): "
					     "one line per PID", file, map->e[i].line,
					     (int)map->e[i].pid, map->e[i - 1].line);
				goto fail_closed;
			}
	}
	return 0;
oom:
	sr_error_set(err, ENOMEM, "%s: out of memory", file);
fail:
	fclose(f);
fail_closed:
	wl_cgmap_release(map);
	return -1;
}

void wl_cgmap_release(struct wl_cgmap *map)
{
	for (size_t i = 0; i < map->n; i++)
		free(map->e[i].path);
	for (size_t i = 0; i < map->nr_shares; i++)
		free(map->shares[i].path);
	for (size_t i = 0; i < map->nr_quota; i++)
		free(map->quota[i].path);
	free(map->e);
	free(map->shares);
	free(map->quota);
	memset(map, 0, sizeof(*map));
}
