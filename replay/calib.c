// SPDX-License-Identifier: GPL-2.0
/*
 * Mechanical-cost calibration: per-path latency distributions of the
 * measured wakeups (see calib.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/stats.h>

#include "calib.h"

/* Nearest rank: the smallest sample with at least p of the samples <= it. */
static uint64_t rank(const uint64_t *s, uint64_t n, double p)
{
	uint64_t r = (uint64_t)(p * (double)n + 0.999999999);

	if (r < 1)
		r = 1;
	if (r > n)
		r = n;
	return s[r - 1];
}

enum calib_ctx calib_ctx_of(enum wl_wake_src src)
{
	switch (src) {
	case WL_SRC_HARDIRQ:
	case WL_SRC_IDLE:
		return CALIB_CTX_HARDIRQ;
	case WL_SRC_SOFTIRQ:
		return CALIB_CTX_SOFTIRQ;
	default:
		return CALIB_CTX_TASK;
	}
}

enum calib_ctx calib_ctx_of_wake(const struct wl_wake *w)
{
	if (w->flags & WL_WAKE_NEW)
		return CALIB_CTX_FORK;
	return calib_ctx_of((enum wl_wake_src)w->src);
}

const char *calib_ctx_name(enum calib_ctx ctx)
{
	static const char *const n[CALIB_CTX_NR] = { "task", "hardirq", "softirq", "fork" };

	return ctx < CALIB_CTX_NR ? n[ctx] : "?";
}

/* Lower bounds of the idle residency bands, us */
static const uint32_t band_lo_us[CALIB_IDLE_BANDS] = { 0, 5, 20, 50, 200, 1000 };

int calib_idle_band(uint64_t idle_ns)
{
	if (idle_ns >= WL_IDLE_NS_UNKNOWN)
		return -1;
	for (int b = CALIB_IDLE_BANDS - 1; b > 0; b--)
		if (idle_ns >= (uint64_t)band_lo_us[b] * 1000)
			return b;
	return 0;
}

const char *calib_idle_band_name(int band)
{
	static const char *const n[CALIB_IDLE_BANDS] = {
		"<5", "5-20", "20-50", "50-200", "200-1000", ">1000"
	};

	return band >= 0 && band < CALIB_IDLE_BANDS ? n[band] : "?";
}

unsigned int calib_idle_band_lo_us(int band)
{
	return band >= 0 && band < CALIB_IDLE_BANDS ? band_lo_us[band] : 0;
}

void calib_bands_name(const struct calib_bands *cb, int g, char *buf, size_t size)
{
	unsigned int lo = band_lo_us[cb->lo[g]];

	if (cb->hi[g] + 1 >= CALIB_IDLE_BANDS)
		snprintf(buf, size, ">%u", lo);
	else if (!lo)
		snprintf(buf, size, "<%u", band_lo_us[cb->hi[g] + 1]);
	else
		snprintf(buf, size, "%u-%u", lo, band_lo_us[cb->hi[g] + 1]);
}

/* Which samples a table is built from; -1 in a field: any. */
struct calib_sel {
	int path, ctx;
	int cpu;                     /* the wake's CPU */
	int restored;                /* 1: ends at a restored switch, 0: at a traced one */
	int band_lo, band_hi;        /* idle residency bands (unknown: in none) */
};

static bool selected(const struct wl_wake *w, const struct calib_sel *sel)
{
	/* a measured sample has a path; 0 ns is one (a restored switch at its wakeup) */
	return w->path == sel->path &&
	       (sel->ctx < 0 || (int)calib_ctx_of_wake(w) == sel->ctx) &&
	       (sel->cpu < 0 || w->cpu == sel->cpu) &&
	       (sel->restored < 0 || !!(w->flags & WL_WAKE_RESTORED) == sel->restored) &&
	       (sel->band_lo < 0 || (calib_idle_band(w->idle_ns) >= sel->band_lo &&
				     calib_idle_band(w->idle_ns) <= sel->band_hi));
}

/*
 * The wakes a table is built from: @wakes[@idx[0 .. n)], one path's
 * (calib_build()'s by_path()).
 */
struct wake_set {
	const struct wl_wake *wakes;
	const uint32_t *idx;
	uint32_t n;
};

static int fill_table(struct calib_path *cp, uint64_t *buf, uint64_t k, long double sum);

/* One table from the samples of @ws that @sel picks. */
static int build_sel(struct calib_path *cp, const struct wake_set *ws,
		     const struct calib_sel *sel, uint64_t *buf)
{
	uint64_t k = 0;
	long double sum = 0;

	cp->fallback = -1;
	for (uint32_t i = 0; i < ws->n; i++) {
		const struct wl_wake *w = &ws->wakes[ws->idx[i]];

		if (selected(w, sel)) {
			buf[k++] = w->latency;
			sum += w->latency;
		}
	}
	return fill_table(cp, buf, k, sum);
}

/* The table of the @k samples in @buf (sorted here), @sum their sum. */
static int fill_table(struct calib_path *cp, uint64_t *buf, uint64_t k, long double sum)
{
	cp->fallback = -1;
	if (!k)
		return 0;
	if (!(cp->q = malloc(CALIB_Q * sizeof(*cp->q))))
		return -1;
	sr_sort_u64(buf, k);
	cp->n = k;
	cp->mean = (uint64_t)(sum / k);
	cp->p50 = rank(buf, k, 0.50);
	cp->p90 = rank(buf, k, 0.90);
	cp->p99 = rank(buf, k, 0.99);
	cp->max = buf[k - 1];
	for (int i = 0; i < CALIB_Q; i++) {
		uint64_t v = buf[(uint64_t)(((double)i + 0.5) / CALIB_Q * (double)k)];

		cp->q[i] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	}
	return 0;
}

static int build_one(struct calib_path *cp, const struct wake_set *ws, int p, int ctx,
		     uint64_t *buf)
{
	const struct calib_sel sel = { .path = p, .ctx = ctx, .cpu = -1, .restored = -1,
				       .band_lo = -1 };

	return build_sel(cp, ws, &sel, buf);
}

/*
 * Split the table of the samples @sel picks by idle residency
 * (CALIB_IDLE_BANDS): adjacent bands merged from the shortest until each
 * group has CALIB_MIN_SAMPLES, a short last group joined to the one before.
 */
static int build_bands(struct calib_bands *cb, const struct wake_set *ws, struct calib_sel sel,
		       uint64_t *buf)
{
	uint64_t cnt[CALIB_IDLE_BANDS] = { 0 }, acc = 0;
	int nr = 0;

	memset(cb, 0, sizeof(*cb));
	for (uint32_t i = 0; i < ws->n; i++) {
		const struct wl_wake *w = &ws->wakes[ws->idx[i]];
		int r = calib_idle_band(w->idle_ns);

		if (r >= 0 && selected(w, &sel))
			cnt[r]++;
	}
	for (int r = 0; r < CALIB_IDLE_BANDS; r++) {
		acc += cnt[r];
		cb->group_of[r] = (uint8_t)nr;
		if (acc >= CALIB_MIN_SAMPLES) {
			cb->hi[nr++] = (uint8_t)r;
			if (nr < CALIB_IDLE_BANDS)
				cb->lo[nr] = (uint8_t)(r + 1);
			acc = 0;
		}
	}
	if (nr < 2) {
		memset(cb, 0, sizeof(*cb));
		return 0;
	}
	/* the bands after the last full group (too few samples) join it */
	for (int r = cb->hi[nr - 1] + 1; r < CALIB_IDLE_BANDS; r++)
		cb->group_of[r] = (uint8_t)(nr - 1);
	cb->hi[nr - 1] = CALIB_IDLE_BANDS - 1;
	cb->nr = (uint8_t)nr;
	for (int g = 0; g < nr; g++) {
		sel.band_lo = cb->lo[g];
		sel.band_hi = cb->hi[g];
		if (build_sel(&cb->g[g], ws, &sel, buf))
			return -1;
	}
	return 0;
}

/*
 * The idle path per CPU and per kind (traced / restored switch-in), each
 * split by residency: (2 + CPUs) x contexts tables, each a scan of the
 * samples and its split up to CALIB_IDLE_BANDS more - of the idle path's
 * samples only (@ws: calib_build()'s by_path()), not of every wake.
 */
static int build_idle_of(struct wl_calib *c, const struct wake_set *ws, unsigned int nr_cpus,
			 uint64_t *buf)
{
	for (int k = 0; k < 2; k++)
		for (int x = 0; x <= CALIB_CTX_NR; x++) {
			const struct calib_sel sel = { .path = WL_PATH_IDLE,
				.ctx = x == CALIB_CTX_ALL ? -1 : x, .cpu = -1, .restored = k,
				.band_lo = -1 };

			if (build_sel(&c->idle_kind[k][x], ws, &sel, buf) ||
			    (x < CALIB_CTX_NR &&
			     build_bands(&c->idle_band_kind[k][x], ws, sel, buf)))
				return -1;
		}
	if (!nr_cpus)
		return 0;
	if (!(c->idle_cpu = calloc(nr_cpus, sizeof(*c->idle_cpu))) ||
	    !(c->idle_band_cpu = calloc(nr_cpus, sizeof(*c->idle_band_cpu))))
		return -1;
	c->nr_cpus = nr_cpus;
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
		for (int x = 0; x <= CALIB_CTX_NR; x++) {
			const struct calib_sel sel = { .path = WL_PATH_IDLE,
				.ctx = x == CALIB_CTX_ALL ? -1 : x, .cpu = (int)cpu, .restored = -1,
				.band_lo = -1 };

			if (build_sel(&c->idle_cpu[cpu][x], ws, &sel, buf) ||
			    (x < CALIB_CTX_NR &&
			     build_bands(&c->idle_band_cpu[cpu][x], ws, sel, buf)))
				return -1;
		}
	return 0;
}

/*
 * The samples of @wakes grouped by path, each path's in their order in
 * @wakes (a stable counting sort of their indices, 4 bytes each, not copies
 * of the 48-byte records): path p's are (*out)[off[p] .. off[p] + cnt[p]).  Every table is of one path, and
 * scanning that path's samples only gives it the same samples in the same
 * order as a scan of every wake - which, once per table (4 paths x (1 +
 * contexts)), was most of calib_build()'s time: the wakes are the
 * extraction's largest array.
 */
static int by_path(const struct wl_wake *wakes, uint32_t n, uint32_t **out,
		   uint32_t off[WL_PATH_NONE], uint32_t cnt[WL_PATH_NONE])
{
	uint32_t at[WL_PATH_NONE], m = 0;

	for (int p = 0; p < WL_PATH_NONE; p++)
		cnt[p] = 0;
	for (uint32_t i = 0; i < n; i++)
		if (wakes[i].path < WL_PATH_NONE)
			cnt[wakes[i].path]++;
	for (int p = 0; p < WL_PATH_NONE; p++) {
		off[p] = at[p] = m;
		m += cnt[p];
	}
	if (!(*out = malloc((m ? m : 1) * sizeof(**out))))
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (wakes[i].path < WL_PATH_NONE)
			(*out)[at[wakes[i].path]++] = i;
	return 0;
}

int calib_build(struct wl_calib *c, const struct wl_wake *wakes, uint32_t n,
		unsigned int nr_cpus, bool uncontested)
{
	uint64_t *buf = malloc((n ? n : 1) * sizeof(*buf));
	uint32_t off[WL_PATH_NONE], cnt[WL_PATH_NONE];
	uint32_t *pw = NULL;

	memset(c, 0, sizeof(*c));
	if (!buf)
		return -1;
	if (by_path(wakes, n, &pw, off, cnt))
		goto oom;
	for (int p = 0; p < WL_PATH_NONE; p++) {
		const struct wake_set ws = { .wakes = wakes, .idx = pw + off[p], .n = cnt[p] };

		if (build_one(&c->path[p], &ws, p, -1, buf))
			goto oom;
		for (int x = 0; x < CALIB_CTX_NR; x++)
			if (build_one(&c->ctx[p][x], &ws, p, x, buf))
				goto oom;
		if (p == WL_PATH_IDLE && build_idle_of(c, &ws, nr_cpus, buf))
			goto oom;
	}
	free(pw);
	free(buf);
	/*
	 * Few samples on a path: borrow the nearest path's distribution (local
	 * and remote preemption first from each other, then from idle).  With
	 * uncontested samples a preemption path with samples of its own keeps
	 * them, however few: local and remote preemption differ by the resched
	 * IPI and the remote enqueue (the remote p50 is 6-19 us above the local
	 * one on every bundled trace with sched_waking and both paths, 1.5-6x),
	 * so the other one's table is off by the mechanism itself, more than a
	 * small table is off by its sampling (small-chan: 16 remote samples,
	 * p50 14.5 us, had drawn local's 4.0 us).  Without uncontest_costs() a
	 * small table can be mostly waits for a later tick or wakeup, not
	 * mechanism (bw-hogs-run3: 3 of its 18 remote samples are 3.7-4.0 ms),
	 * and CALIB_MIN_SAMPLES is what dilutes them.  The idle path keeps
	 * borrowing under CALIB_MIN_SAMPLES: its samples are of two kinds,
	 * traced and restored switches out of idle (calib.h), which a small
	 * pool over all CPUs mixes at random.
	 */
	static const int8_t order[WL_PATH_NR][3] = {
		[WL_PATH_IDLE] = { WL_PATH_PREEMPT_REMOTE, WL_PATH_PREEMPT_LOCAL, -1 },
		[WL_PATH_PREEMPT_LOCAL] = { WL_PATH_PREEMPT_REMOTE, WL_PATH_IDLE, -1 },
		[WL_PATH_PREEMPT_REMOTE] = { WL_PATH_PREEMPT_LOCAL, WL_PATH_IDLE, -1 },
	};
	for (int p = WL_PATH_IDLE; p <= WL_PATH_PREEMPT_REMOTE; p++) {
		if (c->path[p].n >= CALIB_MIN_SAMPLES ||
		    (uncontested && p != WL_PATH_IDLE && c->path[p].n))
			continue;
		for (int k = 0; k < 3 && order[p][k] >= 0; k++)
			if (c->path[order[p][k]].n >= CALIB_MIN_SAMPLES) {
				c->path[p].fallback = order[p][k];
				break;
			}
	}
	for (int p = WL_PATH_IDLE; p <= WL_PATH_PREEMPT_REMOTE; p++)
		if (c->path[p].n)
			c->any = true;
	return 0;
oom:
	free(pw);
	free(buf);
	calib_release(c);
	return -1;
}

static void release_bands(struct calib_bands *cb)
{
	for (int g = 0; g < CALIB_IDLE_BANDS; g++) {
		free(cb->g[g].q);
		cb->g[g].q = NULL;
	}
	cb->nr = 0;
}

void calib_release(struct wl_calib *c)
{
	if (!c)
		return;
	free(c->tick.q);
	c->tick.q = NULL;
	for (int x = 0; x < CALIB_WAKER_CTX_NR; x++)
		for (int l = 0; l < CALIB_WAKER_LOC_NR; l++) {
			free(c->waker[x][l].q);
			c->waker[x][l].q = NULL;
		}
	for (int p = 0; p < WL_PATH_NR; p++) {
		free(c->path[p].q);
		c->path[p].q = NULL;
		for (int x = 0; x < CALIB_CTX_NR; x++) {
			free(c->ctx[p][x].q);
			c->ctx[p][x].q = NULL;
		}
	}
	for (int k = 0; k < 2; k++)
		for (int x = 0; x <= CALIB_CTX_NR; x++) {
			free(c->idle_kind[k][x].q);
			c->idle_kind[k][x].q = NULL;
		}
	for (int k = 0; k < 2; k++)
		for (int x = 0; x < CALIB_CTX_NR; x++)
			release_bands(&c->idle_band_kind[k][x]);
	for (unsigned int cpu = 0; c->idle_cpu && cpu < c->nr_cpus; cpu++)
		for (int x = 0; x <= CALIB_CTX_NR; x++)
			free(c->idle_cpu[cpu][x].q);
	for (unsigned int cpu = 0; c->idle_band_cpu && cpu < c->nr_cpus; cpu++)
		for (int x = 0; x < CALIB_CTX_NR; x++)
			release_bands(&c->idle_band_cpu[cpu][x]);
	free(c->idle_cpu);
	free(c->idle_band_cpu);
	c->idle_cpu = NULL;
	c->idle_band_cpu = NULL;
	c->nr_cpus = 0;
}

uint64_t calib_path_min(const struct wl_calib *c, enum wl_path path)
{
	const struct calib_path *p = &c->path[path];

	return p->q && p->n >= CALIB_MIN_SAMPLES ? p->q[0] : 0;
}

const struct calib_path *calib_effective(const struct wl_calib *c, enum wl_path path,
					 enum calib_ctx ctx)
{
	const struct calib_path *cp;

	if (path >= WL_PATH_NR)
		return NULL;
	if (ctx < CALIB_CTX_NR && c->ctx[path][ctx].n >= CALIB_MIN_SAMPLES)
		return &c->ctx[path][ctx];
	if (ctx == CALIB_CTX_FORK && c->ctx[path][CALIB_CTX_TASK].n >= CALIB_MIN_SAMPLES)
		return &c->ctx[path][CALIB_CTX_TASK];
	cp = &c->path[path];
	if (cp->fallback >= 0)
		cp = &c->path[cp->fallback];
	return cp->n ? cp : NULL;
}

const struct calib_path *calib_effective_cpu(const struct wl_calib *c, enum wl_path path,
					     enum calib_ctx ctx, int cpu, bool restored_cpu,
					     uint64_t idle_ns)
{
	if (path == WL_PATH_IDLE && ctx < CALIB_CTX_NR && cpu >= 0) {
		const struct calib_path *k = c->idle_kind[restored_cpu];
		const struct calib_path *t = (unsigned int)cpu < c->nr_cpus ? c->idle_cpu[cpu] : NULL;
		int r = calib_idle_band(idle_ns);
		const struct calib_bands *bt = t && c->idle_band_cpu && r >= 0 ?
			&c->idle_band_cpu[cpu][ctx] : NULL;
		const struct calib_bands *bk = r >= 0 ? &c->idle_band_kind[restored_cpu][ctx] : NULL;

		if (t && t[ctx].n >= CALIB_MIN_SAMPLES)
			return bt && bt->nr >= 2 ? &bt->g[bt->group_of[r]] : &t[ctx];
		if (k[ctx].n >= CALIB_MIN_SAMPLES)
			return bk && bk->nr >= 2 ? &bk->g[bk->group_of[r]] : &k[ctx];
		if (t && t[CALIB_CTX_ALL].n >= CALIB_MIN_SAMPLES)
			return &t[CALIB_CTX_ALL];
		if (k[CALIB_CTX_ALL].n >= CALIB_MIN_SAMPLES)
			return &k[CALIB_CTX_ALL];
	}
	return calib_effective(c, path, ctx);
}

/*
 * A draw's salt fills the top 4 bits of its hash input and keeps the draws
 * of one wakeup from different tables independent: a path's own table
 * takes the path (0..WL_PATH_NR-1), a waker table WL_PATH_NR + 1 + its
 * context (0..CALIB_WAKER_CTX_NR-1, calib_draw_waker()), the tick table
 * SALT_TICK.  Salts that
 * reached 16 would wrap onto another table's.
 */
#define SALT_TICK 15
_Static_assert(WL_PATH_NR + 1 + CALIB_WAKER_CTX_NR <= SALT_TICK,
	       "draw salts: the waker tables' stay below the tick's, within 4 bits");

/*
 * @seed's share of a draw's hash input: none for seed 1 (the default
 * seed's draws), and an odd multiplier keeps every seed's apart.
 */
static uint64_t seed_term(uint64_t seed)
{
	return (seed - 1) * 0xd6e8feb86659fd93ull;
}

/* The quantile a draw's hash picks (from its top 53 bits) */
static unsigned int hash_quantile(uint64_t h)
{
	return (unsigned int)((h >> 11) % CALIB_Q);
}

/* The quantile index of draw (@task, @seq) under @seed from @salt's table */
static unsigned int draw_index(uint64_t salt, uint32_t task, uint32_t seq, uint64_t seed)
{
	uint64_t h = calib_mix(((uint64_t)task << 32 | seq) ^ (salt << 60) ^ seed_term(seed));

	return hash_quantile(h);
}

static uint64_t draw(const struct calib_path *cp, enum wl_path path, uint32_t task, uint32_t seq,
		     uint64_t seed)
{
	return cp->q[draw_index((uint64_t)path, task, seq, seed)];
}

uint64_t calib_draw_cpu(const struct wl_calib *c, enum wl_path path, enum calib_ctx ctx,
			int cpu, bool restored_cpu, uint64_t idle_ns, uint32_t task, uint32_t seq,
			uint64_t seed)
{
	const struct calib_path *cp = calib_effective_cpu(c, path, ctx, cpu, restored_cpu,
							  idle_ns);

	return cp ? draw(cp, path, task, seq, seed) : 0;
}

uint64_t calib_draw_seeded(const struct wl_calib *c, enum wl_path path, enum calib_ctx ctx,
			   uint32_t task, uint32_t seq, uint64_t seed)
{
	return calib_draw_cpu(c, path, ctx, -1, false, UINT64_MAX, task, seq, seed);
}

uint64_t calib_draw(const struct wl_calib *c, enum wl_path path, enum calib_ctx ctx,
		    uint32_t task, uint32_t seq)
{
	return calib_draw_seeded(c, path, ctx, task, seq, 1);
}

/* ---- the waker's side (calib.h, wl_calib.waker) -------------------------- */

struct waker_buf {
	uint64_t *v;
	uint64_t n, cap;
	long double sum;
};

static int waker_add(struct waker_buf *b, uint64_t v)
{
	if (b->n == b->cap) {
		uint64_t cap = b->cap ? 2 * b->cap : 256;
		uint64_t *nv = realloc(b->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		b->v = nv;
		b->cap = cap;
	}
	b->v[b->n++] = v;
	b->sum += v;
	return 0;
}

int calib_build_waker(struct wl_calib *c, const struct wl_workload *wl)
{
	struct waker_buf b[CALIB_WAKER_CTX_NR][CALIB_WAKER_LOC_NR];
	int ret = -1;

	memset(b, 0, sizeof(b));
	for (uint32_t ti = 0; ti < wl_nr_tasks(wl); ti++) {
		const struct wl_task *tk = wl_task(wl, ti);
		const struct wl_op *ops = wl_task_ops(wl, ti);

		for (uint32_t k = 0; k + 2 < tk->nr_ops; k++) {
			const struct wl_wake *w;
			int x;

			if (ops[k + 1].kind != WL_OP_RUN || ops[k + 2].kind != WL_OP_BLOCK)
				continue;
			if (ops[k].kind == WL_OP_WAKE) {
				w = wl_wake(wl, ops[k].arg);
				x = CALIB_WAKER_TASK;
			} else if (ops[k].kind == WL_OP_FORK && ops[k].arg < wl_nr_tasks(wl) &&
				   wl_task(wl, ops[k].arg)->init_wake != WL_NONE) {
				w = wl_wake(wl, wl_task(wl, ops[k].arg)->init_wake);
				x = CALIB_WAKER_FORK;
			} else {
				continue;
			}
			if (w->cpu < 0 || w->waker_cpu < 0 || (w->flags & WL_WAKE_SPURIOUS) ||
			    ops[k + 1].value > CALIB_WAKER_MAX_NS)
				continue;
			if (waker_add(&b[x][w->cpu == w->waker_cpu ? CALIB_WAKER_LOCAL :
					    w->path == WL_PATH_IDLE ? CALIB_WAKER_REMOTE_IDLE :
					    CALIB_WAKER_REMOTE_BUSY], ops[k + 1].value))
				goto out;
		}
	}
	for (int x = 0; x < CALIB_WAKER_CTX_NR; x++)
		for (int l = 0; l < CALIB_WAKER_LOC_NR; l++)
			if (fill_table(&c->waker[x][l], b[x][l].v, b[x][l].n, b[x][l].sum))
				goto out;
	ret = 0;
out:
	for (int x = 0; x < CALIB_WAKER_CTX_NR; x++)
		for (int l = 0; l < CALIB_WAKER_LOC_NR; l++)
			free(b[x][l].v);
	return ret;
}

uint64_t calib_draw_waker(const struct wl_calib *c, int ctx, int cls, uint32_t task,
			  uint32_t seq, uint64_t seed)
{
	const struct calib_path *loc, *rem;
	unsigned int i;

	if (ctx < 0 || ctx >= CALIB_WAKER_CTX_NR || cls < CALIB_WAKER_REMOTE_IDLE ||
	    cls > CALIB_WAKER_REMOTE_BUSY)
		return 0;
	loc = &c->waker[ctx][CALIB_WAKER_LOCAL];
	rem = &c->waker[ctx][cls];
	if (ctx == CALIB_WAKER_FORK && (loc->n < CALIB_MIN_SAMPLES || rem->n < CALIB_MIN_SAMPLES)) {
		loc = &c->waker[CALIB_WAKER_TASK][CALIB_WAKER_LOCAL];
		rem = &c->waker[CALIB_WAKER_TASK][cls];
	}
	if (loc->n < CALIB_MIN_SAMPLES || rem->n < CALIB_MIN_SAMPLES)
		return 0;
	/* another salt than the wakee's own cost draws (path < WL_PATH_NR) */
	i = draw_index((uint64_t)(WL_PATH_NR + 1 + ctx), task, seq, seed);
	return rem->q[i] > loc->q[i] ? rem->q[i] - loc->q[i] : 0;
}

/* ---- the tick's switch (wl_calib.tick) ---------------------------------- */

int calib_build_tick(struct wl_calib *c, uint64_t *v, uint64_t n)
{
	long double sum = 0;

	for (uint64_t i = 0; i < n; i++)
		sum += v[i];
	return fill_table(&c->tick, v, n, sum);
}

uint64_t calib_draw_tick(const struct wl_calib *c, int cpu, uint64_t t, uint64_t seed)
{
	uint64_t h;

	if (c->tick.n < CALIB_MIN_SAMPLES)
		return UINT64_MAX;
	h = calib_mix(calib_mix(t) ^ ((uint64_t)(uint32_t)cpu << 32) ^
		      ((uint64_t)SALT_TICK << 60) ^ seed_term(seed));
	return c->tick.q[hash_quantile(h)];
}
