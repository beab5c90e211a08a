// SPDX-License-Identifier: GPL-2.0
/*
 * The model's task-group bookkeeping against the kernel's own: each read of
 * debugfs's sched/debug in the sidecar (print_cfs_rq() per CPU and group
 * queue) inside the trace window against the model's group queues at the
 * same point of the simulation (docs/replay.md "Task groups against the
 * kernel's sched/debug").  Both sides are values as of the queue's last
 * update: the kernel prints cfs_rq->avg, tg_load_avg_contrib, tg->load_avg
 * and the group entity's weight as update_load_avg(), update_tg_load_avg()
 * and update_cfs_group() last wrote them, not aged to the read; the probe
 * (model_group_queue_read()) reads the model's stored values the same way.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <schedreplay/model.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/sim.h>

#include "sim_local.h"

static const char *const field_names[REPLAY_GF_NR] = {
	"load_avg", "util_avg", "runnable_avg", "tg_load_avg_contrib", "tg_load_avg",
	"se.load.weight", "se.avg.load_avg", "se.avg.util_avg", "h_nr_queued",
};

/* the sidecar's field of each compared one */
static const int field_sd[REPLAY_GF_NR] = {
	SIDECAR_SD_LOAD_AVG, SIDECAR_SD_UTIL_AVG, SIDECAR_SD_RUNNABLE_AVG, SIDECAR_SD_TG_CONTRIB,
	SIDECAR_SD_TG_LOAD_AVG, SIDECAR_SD_SE_WEIGHT, SIDECAR_SD_SE_LOAD_AVG,
	SIDECAR_SD_SE_UTIL_AVG, SIDECAR_SD_H_NR_QUEUED,
};

const char *replay_group_field_name(int f)
{
	return f >= 0 && f < REPLAY_GF_NR ? field_names[f] : NULL;
}

/* The read's place on the trace clock, moved by @shift (saturating). */
static uint64_t read_time(const struct sidecar_sd_read *rd, int64_t shift)
{
	if (shift < 0)
		return rd->sched_clk < (uint64_t)-shift ? 0 : rd->sched_clk - (uint64_t)-shift;
	return rd->sched_clk > UINT64_MAX - (uint64_t)shift ? UINT64_MAX :
	       rd->sched_clk + (uint64_t)shift;
}

static bool in_window(const struct wl_workload *wl, uint64_t t)
{
	return t >= wl_first_ts(wl) && t <= wl_last_ts(wl);
}

/* One probe of (@read, @g, @c) appended; 0 also where the model has no such queue. */
static int probe_one(struct sim *s, uint32_t read, uint32_t g, int c, uint64_t after_ns,
		     bool at_agree)
{
	struct replay_group_probe *p;

	if (s->nr_probes == s->cap_probes) {
		size_t cap = s->cap_probes ? 2 * s->cap_probes : 64;
		void *n = realloc(s->probes, cap * sizeof(*s->probes));

		if (!n)
			return -1;
		s->probes = n;
		s->cap_probes = cap;
	}
	p = &s->probes[s->nr_probes];
	if (model_group_queue_read(s->m, s->groups[g], c, &p->q) < 0)
		return 0;
	p->read = read;
	p->group = g;
	p->cpu = c;
	p->after_ns = after_ns;
	p->at_agree = at_agree;
	s->nr_probes++;
	return 0;
}

/*
 * CPU @c's block of read @read on the trace clock (--sched-debug-at): the
 * read's time, moved by the shift, plus the CPU's offset inside the read.
 * The kernel prints the header, then each online CPU's queues in turn
 * (print_cpu() over for_each_online_cpu(), kernel/sched/debug.c): CPU N's
 * block later than CPU N-1's.
 */
static uint64_t cpu_read_time(const struct sim *s, uint32_t read, int c, uint64_t *off,
			      bool *at_agree)
{
	const struct sidecar_sd_read *rd = &s->sd->reads[read];
	uint64_t t = read_time(rd, s->cfg.sched_debug_shift_ns);
	enum replay_sched_debug_at at = s->cfg.sched_debug_at;
	uint32_t ns;

	*off = 0;
	*at_agree = false;
	if ((at == REPLAY_SD_AT_AGREE || at == REPLAY_SD_AT_CPU) &&
	    wl_sd_cpu_agree_ns(s->wl, read, c, &ns)) {
		*off = ns;
		/* unshifted: the trace's moment is the model's */
		*at_agree = !s->cfg.sched_debug_shift_ns;
	} else if ((at == REPLAY_SD_AT_ORDER || at == REPLAY_SD_AT_CPU) && s->nr_cpus > 0) {
		*off = rd->read_ns / (uint64_t)s->nr_cpus * (uint64_t)c;
	}
	return t > UINT64_MAX - *off ? UINT64_MAX : t + *off;
}

static int probe_cmp(const void *key, const void *elt);

/* --sched-debug-at other than start: each CPU at its own moment; sorted at the end */
static int group_probe_cpus(struct sim *s, uint64_t now, bool at_end)
{
	uint32_t ng = wl_nr_groups(s->wl);

	if (!s->sd_cpu_next && !(s->sd_cpu_next = calloc((size_t)s->nr_cpus, sizeof(size_t))))
		return -1;
	for (int c = 0; c < s->nr_cpus; c++)
		while (s->sd_cpu_next[c] < s->sd->nr_reads) {
			uint32_t read = (uint32_t)s->sd_cpu_next[c];
			uint64_t t0 = read_time(&s->sd->reads[read], s->cfg.sched_debug_shift_ns), off;
			bool agree;

			if (!at_end && cpu_read_time(s, read, c, &off, &agree) >= now)
				break;
			if (at_end)
				cpu_read_time(s, read, c, &off, &agree);
			/* at the end, the model as it ends for a block the trace ended before */
			if (at_end && t0 > now)
				break;
			/* the read itself inside the trace, as start takes it: the same pairs */
			if (in_window(s->wl, t0))
				for (uint32_t g = 0; g < ng; g++)
					if (probe_one(s, read, g, c, off, agree))
						return -1;
			s->sd_cpu_next[c]++;
		}
	if (at_end && s->nr_probes)
		qsort(s->probes, s->nr_probes, sizeof(*s->probes), probe_cmp);
	return 0;
}

int sim_group_probe(struct sim *s, uint64_t now, bool at_end)
{
	uint32_t ng = wl_nr_groups(s->wl);

	if (s->cfg.sched_debug_at != REPLAY_SD_AT_START)
		return group_probe_cpus(s, now, at_end);
	while (s->sd_next < s->sd->nr_reads) {
		const struct sidecar_sd_read *rd = &s->sd->reads[s->sd_next];
		uint64_t t = read_time(rd, s->cfg.sched_debug_shift_ns);

		if (!at_end && t >= now)
			break;
		if (at_end && t > now)
			break;
		if (in_window(s->wl, t)) {
			for (uint32_t g = 0; g < ng; g++)
				for (int c = 0; c < s->nr_cpus; c++)
					if (probe_one(s, (uint32_t)s->sd_next, g, c, 0, false))
						return -1;
		}
		s->sd_next++;
	}
	return 0;
}

/* The workload's group of the kernel's @path ("/autogroup-N": autogroup-N), or WL_NONE. */
static uint32_t group_of(const struct wl_workload *wl, const char *path)
{
	for (uint32_t g = 0; g < wl_nr_groups(wl); g++) {
		const struct wl_group *wg = wl_group(wl, g);

		if (!strcmp(wg->path, path) ||
		    (wg->autogroup && path[0] == '/' && !strcmp(wg->path, path + 1)))
			return g;
	}
	return WL_NONE;
}

/* the model's value of field @f; false when it has none (the root's entity) */
static bool model_value(const struct model_group_queue *q, int f, double *v)
{
	switch (f) {
	case REPLAY_GF_LOAD_AVG: *v = (double)q->load_avg; return true;
	case REPLAY_GF_UTIL_AVG: *v = (double)q->util_avg; return true;
	case REPLAY_GF_RUNNABLE_AVG: *v = (double)q->runnable_avg; return true;
	case REPLAY_GF_TG_CONTRIB: *v = (double)q->tg_load_avg_contrib; return true;
	case REPLAY_GF_TG_LOAD_AVG: *v = (double)q->tg_load_avg; return true;
	/* in cpu.shares units: scale_load_down() of both sides */
	case REPLAY_GF_SE_WEIGHT: *v = (double)q->se_weight / 1024.0; return q->have_se;
	case REPLAY_GF_SE_LOAD_AVG: *v = (double)q->se_load_avg; return q->have_se;
	case REPLAY_GF_SE_UTIL_AVG: *v = (double)q->se_util_avg; return q->have_se;
	case REPLAY_GF_H_NR_QUEUED: *v = (double)q->h_nr_queued; return true;
	}
	return false;
}

static bool kernel_value(const struct sidecar_sd_row *row, int f, double *v)
{
	int k = field_sd[f];

	if (!row->have[k])
		return false;
	*v = (double)row->v[k];
	if (f == REPLAY_GF_SE_WEIGHT)
		*v /= 1024.0;
	return true;
}

/* (read, group, cpu) order: the order sim_group_probe() appends them in (start) or sorts them to */
static int probe_cmp(const void *key, const void *elt)
{
	const struct replay_group_probe *a = key, *b = elt;

	if (a->read != b->read)
		return a->read < b->read ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

static const struct replay_group_probe *probe_find(const struct replay_group_probe *p, size_t n,
						   uint32_t read, uint32_t group, int cpu)
{
	struct replay_group_probe key = { .read = read, .group = group, .cpu = cpu };

	return n ? bsearch(&key, p, n, sizeof(*p), probe_cmp) : NULL;
}

/*
 * Every (read, CPU, path) with a kernel row and a probe: @fn(@ctx, ...) once
 * each.  The probes are sorted by (read, group, cpu) as sim_group_probe()
 * takes them (reads in order, then groups, then CPUs): a binary search.
 */
typedef int (*pair_fn)(void *ctx, uint32_t read, const struct sidecar_sd_row *row, uint32_t group,
		       const struct replay_group_probe *pr);

static int for_each_pair(const struct wl_workload *wl, const struct replay_result *r, void *ctx,
			 pair_fn fn, unsigned int *unmodelled)
{
	const struct sidecar_sched_debug *sd = wl_sched_debug(wl);
	const struct replay_group_probe *p;
	size_t np;

	p = replay_group_probes(r, &np);
	for (size_t i = 0; sd && i < sd->nr_reads; i++)
		for (size_t j = 0; j < sd->reads[i].nr_rows; j++) {
			const struct sidecar_sd_row *row = &sd->reads[i].rows[j];
			uint32_t g = group_of(wl, sd->paths[row->path]);
			const struct replay_group_probe *pr;

			if (g == WL_NONE) {
				/* a read the probe took (inside the window) of a path without a group */
				if (unmodelled && probe_find(p, np, (uint32_t)i, 0, row->cpu))
					(*unmodelled)++;
				continue;
			}
			if (!(pr = probe_find(p, np, (uint32_t)i, g, row->cpu)))
				continue;
			if (fn(ctx, (uint32_t)i, row, g, pr))
				return -1;
		}
	return 0;
}

struct collect_ctx {
	struct replay_groups_cmp *c;
	uint32_t path;                 /* sidecar path index being collected */
	double *err, *kern;
	double sum[REPLAY_GF_NR];
	unsigned int n[REPLAY_GF_NR];
	size_t cap;
	int f;
};

static int collect_one(void *vctx, uint32_t read, const struct sidecar_sd_row *row, uint32_t group,
		       const struct replay_group_probe *pr)
{
	const struct model_group_queue *q = &pr->q;
	struct collect_ctx *x = vctx;
	double mv, kv;

	(void)read;
	(void)group;
	if (row->path != x->path || !model_value(q, x->f, &mv) || !kernel_value(row, x->f, &kv))
		return 0;
	x->err[x->n[x->f]] = fabs(mv - kv);
	x->kern[x->n[x->f]] = kv;
	x->sum[x->f] += mv - kv;
	x->n[x->f]++;
	return 0;
}

static int nothing(void *ctx, uint32_t read, const struct sidecar_sd_row *row, uint32_t group,
		   const struct replay_group_probe *pr)
{
	(void)ctx;
	(void)read;
	(void)row;
	(void)group;
	(void)pr;
	return 0;
}

/* The trace's count of the pair (at the read's own time, not shifted). */
static bool trace_queued(const struct wl_workload *wl, uint32_t read, uint32_t group, int cpu,
			 struct wl_sd_queued *tq)
{
	return wl_sd_trace_queued(wl, read, group, cpu, tq);
}

struct queued_ctx {
	const struct wl_workload *wl;
	struct replay_groups_queued *q;
};

static int queued_one(void *vctx, uint32_t read, const struct sidecar_sd_row *row, uint32_t group,
		      const struct replay_group_probe *pr)
{
	const struct model_group_queue *mq = &pr->q;
	struct queued_ctx *x = vctx;
	struct replay_groups_queued *q = x->q;
	struct wl_sd_queued tq;
	int64_t k, kr;
	bool meq, teq, tin;

	if (!row->have[SIDECAR_SD_H_NR_QUEUED] || !trace_queued(x->wl, read, group, row->cpu, &tq))
		return 0;
	k = row->v[SIDECAR_SD_H_NR_QUEUED];
	/* what the trace can show: the queue less its delayed dequeues (6.14+) */
	kr = row->have[SIDECAR_SD_H_NR_RUNNABLE] ? row->v[SIDECAR_SD_H_NR_RUNNABLE] : k;
	meq = (int64_t)mq->h_nr_queued == k;
	teq = tq.at == kr;
	tin = tq.lo <= kr && kr <= tq.hi;
	q->pairs++;
	q->model_eq += meq;
	q->trace_eq += teq;
	q->trace_in += tin;
	/*
	 * A probe placed where the trace's runnable set equals the kernel's on
	 * the CPU's whole block (--sched-debug-at agree, cpu): the model's
	 * mismatch is then split against the trace at that moment, = kr.
	 */
	if (pr->at_agree) {
		q->at_agree++;
		tq.at = (uint16_t)(kr < 0 ? 0 : kr > UINT16_MAX ? UINT16_MAX : kr);
		teq = true;
	}
	q->trace_eq_queued += tq.at == k;
	if (row->have[SIDECAR_SD_H_NR_RUNNABLE]) {
		q->runnable_pairs++;
		q->delayed += k > kr;
	}
	if (!meq) {
		if (teq && (int64_t)mq->h_nr_queued == tq.at && k > kr) {
			q->mm_delayed++;
		} else if (teq) {
			q->mm_drift++;
		} else if (tin) {
			q->mm_read++;
			q->mm_read_model_at += mq->h_nr_queued == tq.at;
		} else {
			q->mm_trace_ne++;
		}
	}
	return 0;
}

/* the pooled |model - kernel| of tg_load_avg and the weight, groups other than the root */
struct headline_ctx {
	const struct sidecar_sched_debug *sd;
	double *tg, *w;
	unsigned int ntg, nw;
};

static int headline_one(void *vctx, uint32_t read, const struct sidecar_sd_row *row, uint32_t group,
			const struct replay_group_probe *pr)
{
	const struct model_group_queue *q = &pr->q;
	struct headline_ctx *x = vctx;
	double mv, kv;

	(void)read;
	if (group == 0)
		return 0;
	if (model_value(q, REPLAY_GF_TG_LOAD_AVG, &mv) && kernel_value(row, REPLAY_GF_TG_LOAD_AVG, &kv))
		x->tg[x->ntg++] = fabs(mv - kv);
	if (model_value(q, REPLAY_GF_SE_WEIGHT, &mv) && kernel_value(row, REPLAY_GF_SE_WEIGHT, &kv))
		x->w[x->nw++] = fabs(mv - kv);
	return 0;
}

int replay_groups_compare(const struct wl_workload *wl, const struct replay_result *r,
			  int64_t shift_ns, struct replay_groups_cmp *out)
{
	const struct sidecar_sched_debug *sd = wl_sched_debug(wl);
	size_t rows = 0;
	struct collect_ctx x;

	memset(out, 0, sizeof(*out));
	out->shift_ns = shift_ns;
	out->tg_load_median_abs = out->weight_median_abs = NAN;
	if (!sd || !sd->available) {
		snprintf(out->reason, sizeof(out->reason), "%s",
			 !sd ? "the sidecar has no sched_debug" :
			 sd->reason ? sd->reason : "sched_debug not recorded");
		return 0;
	}
	out->available = true;
	out->reads_total = (unsigned int)sd->nr_reads;
	for (size_t i = 0; i < sd->nr_reads; i++) {
		out->reads_in_window += in_window(wl, read_time(&sd->reads[i], shift_ns));
		rows += sd->reads[i].nr_rows;
	}
	if (for_each_pair(wl, r, NULL, nothing, &out->unmodelled_rows))
		return -1;
	memset(&x, 0, sizeof(x));
	x.c = out;
	x.err = malloc((rows + 1) * sizeof(double));
	x.kern = malloc((rows + 1) * sizeof(double));
	if (sd->nr_paths)
		out->paths = calloc(sd->nr_paths, sizeof(*out->paths));
	if (!x.err || !x.kern || (sd->nr_paths && !out->paths))
		goto nomem;
	for (uint32_t pi = 0; pi < sd->nr_paths; pi++) {
		uint32_t g = group_of(wl, sd->paths[pi]);
		struct replay_group_path *gp = &out->paths[out->nr_paths];
		bool any = false;

		if (g == WL_NONE)
			continue;
		gp->sd_path = pi;
		gp->group = g;
		for (int f = 0; f < REPLAY_GF_NR; f++) {
			struct replay_group_stat *st = &gp->st[f];
			unsigned int n;

			memset(x.n, 0, sizeof(x.n));
			memset(x.sum, 0, sizeof(x.sum));
			x.path = pi;
			x.f = f;
			if (for_each_pair(wl, r, &x, collect_one, NULL))
				goto nomem;
			n = x.n[f];
			st->n = n;
			if (!n)
				continue;
			any = true;
			qsort(x.err, n, sizeof(double), replay_cmp_double);
			qsort(x.kern, n, sizeof(double), replay_cmp_double);
			st->median = replay_rank_sorted(x.err, n, 0.5);
			st->p95 = replay_rank_sorted(x.err, n, 0.95);
			st->mean_signed = x.sum[f] / n;
			st->kernel_median = replay_rank_sorted(x.kern, n, 0.5);
		}
		if (any)
			out->nr_paths++;
	}
	{
		struct queued_ctx qx = { .wl = wl, .q = &out->queued };
		/* x.err and x.kern hold rows + 1 values each: reused for the headline */
		struct headline_ctx hx = { .sd = sd, .tg = x.err, .w = x.kern };

		if (for_each_pair(wl, r, &qx, queued_one, NULL) ||
		    for_each_pair(wl, r, &hx, headline_one, NULL))
			goto nomem;
		out->tg_load_pairs = hx.ntg;
		out->weight_pairs = hx.nw;
		if (hx.ntg) {
			qsort(hx.tg, hx.ntg, sizeof(double), replay_cmp_double);
			out->tg_load_median_abs = replay_rank_sorted(hx.tg, hx.ntg, 0.5);
		}
		if (hx.nw) {
			qsort(hx.w, hx.nw, sizeof(double), replay_cmp_double);
			out->weight_median_abs = replay_rank_sorted(hx.w, hx.nw, 0.5);
		}
	}
	free(x.err);
	free(x.kern);
	return 0;
nomem:
	free(x.err);
	free(x.kern);
	replay_groups_cmp_release(out);
	return -1;
}

void replay_groups_cmp_release(struct replay_groups_cmp *c)
{
	free(c->paths);
	c->paths = NULL;
	c->nr_paths = 0;
}

void replay_groups_text(FILE *out, const char *run_name, const struct wl_workload *wl,
			const struct replay_groups_cmp *c)
{
	const struct sidecar_sched_debug *sd = wl_sched_debug(wl);

	fprintf(out, "\nTask groups against the kernel's sched/debug%s%s%s",
		run_name ? " (" : "", run_name ? run_name : "", run_name ? ")" : "");
	if (!c->available) {
		fprintf(out, ": not compared: %s\n", c->reason);
		return;
	}
	fprintf(out, " (%u of %u reads inside the trace", c->reads_in_window, c->reads_total);
	if (c->shift_ns)
		fprintf(out, ", shifted by %+.3f ms", (double)c->shift_ns / 1e6);
	fprintf(out, ")\n  each side's values as of the queue's last update (not aged to the read); "
		"se.load.weight in cpu.shares units (/1024)\n");
	if (c->unmodelled_rows)
		fprintf(out, "  %u kernel rows of groups the replay does not model, left out\n",
			c->unmodelled_rows);
	fprintf(out, "  %-28s %-20s %5s %9s %9s %10s %9s\n", "group", "|model - kernel|", "pairs",
		"median", "p95", "mean(m-k)", "kernel");
	for (unsigned int i = 0; i < c->nr_paths; i++) {
		const struct replay_group_path *gp = &c->paths[i];

		for (int f = 0; f < REPLAY_GF_NR; f++) {
			const struct replay_group_stat *st = &gp->st[f];

			if (!st->n)
				continue;
			fprintf(out, "  %-28s %-20s %5u %9.1f %9.1f %10.1f %9.1f\n",
				sd->paths[gp->sd_path], field_names[f], st->n, st->median, st->p95,
				st->mean_signed, st->kernel_median);
		}
	}
	replay_groups_queued_text(out, &c->queued);
}

void replay_groups_queued_text(FILE *out, const struct replay_groups_queued *q)
{
	unsigned int mm = q->pairs - q->model_eq;

	if (!q->pairs)
		return;
	fprintf(out, "  h_nr_queued three ways, %u (read, CPU, group) pairs: model = kernel %u; "
		"the trace's runnable set = kernel %s %u at the read's sched_clk, %u within the "
		"read's span (= h_nr_queued %u)\n", q->pairs, q->model_eq,
		q->runnable_pairs ? "h_nr_runnable" : "h_nr_queued", q->trace_eq, q->trace_in,
		q->trace_eq_queued);
	if (q->runnable_pairs)
		fprintf(out, "    kernel h_nr_queued > h_nr_runnable (delayed dequeues, which no trace "
			"event shows) at %u of %u\n", q->delayed, q->runnable_pairs);
	if (q->at_agree)
		fprintf(out, "    %u pairs probed where the trace equals the kernel on the CPU's block "
			"(--sched-debug-at): their mismatches split against the trace there\n",
			q->at_agree);
	fprintf(out, "    the model's %u mismatches: the trace agrees with the kernel at the read's "
		"sched_clk at %u (the replay drifted: %u; the model = the trace, without the "
		"kernel's delayed dequeues: %u), only later in the read at %u (the model = the "
		"trace at sched_clk: %u), disagrees over the read at %u\n", mm,
		q->mm_drift + q->mm_delayed, q->mm_drift, q->mm_delayed, q->mm_read,
		q->mm_read_model_at, q->mm_trace_ne);
}

struct json_pairs_ctx {
	const struct wl_workload *wl;
	const struct sidecar_sched_debug *sd;
	json_t *arr;
};

static int json_pair(void *vctx, uint32_t read, const struct sidecar_sd_row *row, uint32_t group,
		     const struct replay_group_probe *pr)
{
	const struct model_group_queue *q = &pr->q;
	struct json_pairs_ctx *x = vctx;
	json_t *o = json_object(), *k = json_object(), *m = json_object();

	if (!o || !k || !m) {
		json_decref(o);
		json_decref(k);
		json_decref(m);
		return -1;
	}
	for (int f = 0; f < REPLAY_GF_NR; f++) {
		double mv, kv;

		if (kernel_value(row, f, &kv))
			json_object_set_new(k, field_names[f], json_real(kv));
		if (model_value(q, f, &mv))
			json_object_set_new(m, field_names[f], json_real(mv));
	}
	json_object_set_new(o, "read", json_integer(read));
	json_object_set_new(o, "sched_clk", json_integer((json_int_t)x->sd->reads[read].sched_clk));
	json_object_set_new(o, "cpu", json_integer(row->cpu));
	/* the model's probe: ns after sched_clk (+ the shift), --sched-debug-at */
	json_object_set_new(o, "probe_after_ns", json_integer((json_int_t)pr->after_ns));
	json_object_set_new(o, "path", json_string(x->sd->paths[row->path]));
	json_object_set_new(o, "kernel", k);
	json_object_set_new(o, "model", m);
	{
		struct wl_sd_queued tq;
		uint32_t cns;

		/* cpu_agrees_after_ns: the CPU's whole block (--sched-debug-at agree, cpu) */
		if (trace_queued(x->wl, read, group, row->cpu, &tq))
			json_object_set_new(o, "trace", json_pack("{s:I, s:I, s:I, s:o, s:o}", "h_nr_queued",
								  (json_int_t)tq.at, "h_nr_queued_lo",
								  (json_int_t)tq.lo, "h_nr_queued_hi",
								  (json_int_t)tq.hi, "agrees_after_ns",
								  tq.agree_ns == UINT32_MAX ? json_null() :
								  json_integer((json_int_t)tq.agree_ns),
								  "cpu_agrees_after_ns",
								  wl_sd_cpu_agree_ns(x->wl, read, row->cpu, &cns) ?
								  json_integer((json_int_t)cns) : json_null()));
	}
	if (row->have[SIDECAR_SD_H_NR_RUNNABLE])
		json_object_set_new(k, "h_nr_runnable",
				    json_real((double)row->v[SIDECAR_SD_H_NR_RUNNABLE]));
	return json_array_append_new(x->arr, o);
}

json_t *replay_groups_queued_json(const struct replay_groups_queued *q)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			 "probed_at_trace_agree", (json_int_t)q->at_agree, "pairs",
			 (json_int_t)q->pairs, "model_eq_kernel", (json_int_t)q->model_eq,
			 "trace_eq_kernel", (json_int_t)q->trace_eq, "trace_within_read",
			 (json_int_t)q->trace_in, "trace_eq_kernel_queued",
			 (json_int_t)q->trace_eq_queued, "runnable_pairs",
			 (json_int_t)q->runnable_pairs, "kernel_delayed", (json_int_t)q->delayed,
			 "model_ne_drift", (json_int_t)q->mm_drift, "model_ne_delayed",
			 (json_int_t)q->mm_delayed, "model_ne_read_later", (json_int_t)q->mm_read,
			 "model_ne_read_later_model_eq_trace", (json_int_t)q->mm_read_model_at,
			 "model_ne_trace_ne", (json_int_t)q->mm_trace_ne);
}

json_t *replay_groups_json(const struct wl_workload *wl, const struct replay_result *r,
			   const struct replay_groups_cmp *c)
{
	const struct sidecar_sched_debug *sd = wl_sched_debug(wl);
	json_t *o, *groups, *pairs;
	struct json_pairs_ctx x;

	if (!c->available)
		return json_pack("{s:b, s:s}", "available", 0, "reason", c->reason);
	o = json_pack("{s:b, s:I, s:I, s:I, s:I}", "available", 1, "reads",
		      (json_int_t)c->reads_in_window, "reads_total", (json_int_t)c->reads_total,
		      "shift_ns", (json_int_t)c->shift_ns, "unmodelled_rows",
		      (json_int_t)c->unmodelled_rows);
	if (!o)
		return NULL;
	groups = json_object();
	for (unsigned int i = 0; groups && i < c->nr_paths; i++) {
		const struct replay_group_path *gp = &c->paths[i];
		json_t *g = json_object();

		for (int f = 0; g && f < REPLAY_GF_NR; f++) {
			const struct replay_group_stat *st = &gp->st[f];

			if (!st->n)
				continue;
			json_object_set_new(g, field_names[f],
					    json_pack("{s:I, s:f, s:f, s:f, s:f}", "pairs", (json_int_t)st->n,
						      "median_abs", st->median, "p95_abs", st->p95,
						      "mean_signed", st->mean_signed, "kernel_median",
						      st->kernel_median));
		}
		json_object_set_new(groups, sd->paths[gp->sd_path], g);
	}
	json_object_set_new(o, "groups", groups);
	json_object_set_new(o, "queued", replay_groups_queued_json(&c->queued));
	json_object_set_new(o, "headline", json_pack("{s:o, s:I, s:o, s:I}", "tg_load_avg_median_abs",
						     isnan(c->tg_load_median_abs) ? json_null() :
						     json_real(c->tg_load_median_abs),
						     "tg_load_avg_pairs", (json_int_t)c->tg_load_pairs,
						     "weight_median_abs",
						     isnan(c->weight_median_abs) ? json_null() :
						     json_real(c->weight_median_abs),
						     "weight_pairs", (json_int_t)c->weight_pairs));
	x.wl = wl;
	x.sd = sd;
	x.arr = pairs = json_array();
	if (!pairs || for_each_pair(wl, r, &x, json_pair, NULL)) {
		json_decref(pairs);
		json_decref(o);
		return NULL;
	}
	json_object_set_new(o, "pairs", pairs);
	return o;
}
