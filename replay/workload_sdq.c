// SPDX-License-Identifier: GPL-2.0
/*
 * The trace's own runnable set at each read of debugfs's sched/debug in the
 * sidecar (docs/replay.md "Task groups against the kernel's sched/debug"):
 * per read, CPU and task group, how many fair tasks the trace's states have
 * on that CPU in that group or below it (running, or switched out runnable /
 * woken and not yet run), the count print_cfs_rq() prints as h_nr_queued
 * (cfs_rq->h_nr_queued: every task entity below the queue, the running one
 * included, enqueue_task_fair() / dequeue_entities()).  Independent of the
 * model: it checks the capture (the read's place, header.sched_clk) and the
 * reader against the kernel.
 *
 * Three counts per (read, CPU, group): at the read's sched_clk (the states
 * after the last event at or before it, as the simulation's probe sits
 * before the first event after it), and the least and most over the read
 * itself, [sched_clk, sched_clk + read_us]: the kernel prints the header
 * first and then CPU by CPU, so a CPU's queues are printed somewhere in
 * that span.  A task the trace first shows after the read but which was
 * running or queued when the trace began (wl_task.init_state) is counted on
 * its first CPU in its first group.  An autogroup's exiting task is counted
 * in the root task group from its EXIT_MOVE's charge on (do_exit() ->
 * sched_autogroup_exit_task() -> sched_move_task(): sched_change_group()
 * takes autogroup_task_group(), and task_wants_autogroup() is false once
 * PF_EXITING is set), as the model moves it (model_task_exit_move()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/sidecar.h>

#include "workload_builder.h"

/* a counted task at one snapshot */
struct wl_sdq_ent {
	uint32_t task;
	uint32_t group;
	int16_t cpu;
	bool exit_root;              /* an autogroup's task past its EXIT_MOVE: in the root */
};

/* the states at one time: a read's sched_clk (first) or after an event inside its span */
struct wl_sdq_snap {
	uint32_t read;
	uint64_t ts;
	uint32_t first, n;           /* its entries */
};

/*
 * A task's stint the builder corrected afterwards: the snapshots taken
 * before the correction (index below @snaps) at or after @from counted it
 * wrongly: as running or queued (a switch the kernel did not trace), or, if
 * @unmove, in the root task group (its EXIT_MOVE retracted)
 */
struct wl_sdq_retract {
	uint32_t task;
	uint32_t snaps;
	uint64_t from;
	bool unmove;
};

struct wl_sdq {
	const struct sidecar_sched_debug *sd;
	int nc;
	uint32_t next;               /* the next read to take */
	uint32_t open;               /* a read whose span is not over, WL_NONE */
	uint64_t now;                /* the event being applied */
	WL_VEC(struct wl_sdq_ent) ent;
	WL_VEC(struct wl_sdq_snap) snap;
	WL_VEC(struct wl_sdq_retract) ret;
};

static bool sdq_counted(const struct wl_builder *b, const struct wl_sdq *q, uint32_t t)
{
	const struct tstate *s = &b->ts.v[t];

	return (s->st == TS_RUNNING || s->st == TS_QUEUED) && b->tasks.v[t].cls == WL_CLASS_FAIR &&
	       !s->pi_rt && s->cpu >= 0 && s->cpu < q->nc;
}

/* A snapshot of read @read's states at @ts: every counted task. */
static int sdq_snap(struct wl_builder *b, struct wl_sdq *q, uint32_t read, uint64_t ts)
{
	struct wl_sdq_snap *sn;

	WL_VEC_PUSH(q->snap, oom);
	sn = &q->snap.v[q->snap.n++];
	sn->read = read;
	sn->ts = ts;
	sn->first = q->ent.n;
	sn->n = 0;
	for (uint32_t t = 0; t < b->ts.n; t++) {
		const struct tstate *s = &b->ts.v[t];

		if (!sdq_counted(b, q, t))
			continue;
		WL_VEC_PUSH(q->ent, oom);
		q->ent.v[q->ent.n++] = (struct wl_sdq_ent){
			.task = t, .group = s->group, .cpu = s->cpu,
			.exit_root = s->move_op && s->group < b->groups.n &&
				     b->groups.v[s->group].autogroup };
		q->snap.v[q->snap.n - 1].n++;
	}
	return 0;
oom:
	return -1;
}

int wl_sdq_init(struct wl_builder *b)
{
	const struct sidecar_sched_debug *sd = b->sc ? &b->sc->sched_debug : NULL;
	struct wl_sdq *q;

	if (!sd || !sd->listed || !sd->available || !sd->nr_reads || b->sc->nr_cpus <= 0)
		return 0;
	if (!(q = calloc(1, sizeof(*q))))
		return -1;
	q->sd = sd;
	q->nc = b->sc->nr_cpus;
	q->open = WL_NONE;
	b->sdq = q;
	return 0;
}

static uint64_t read_end(const struct sidecar_sd_read *rd)
{
	return rd->sched_clk + rd->read_ns;
}

int wl_sdq_before(struct wl_builder *b, uint64_t ts)
{
	struct wl_sdq *q = b->sdq;

	if (!q)
		return 0;
	q->now = ts;
	if (q->open != WL_NONE && ts > read_end(&q->sd->reads[q->open]))
		q->open = WL_NONE;
	while (q->next < q->sd->nr_reads && q->sd->reads[q->next].sched_clk < ts) {
		uint32_t i = q->next++;

		/* a read before the trace's first record is outside it (the start read) */
		if (q->sd->reads[i].sched_clk < b->first_ts)
			continue;
		if (sdq_snap(b, q, i, q->sd->reads[i].sched_clk))
			return -1;
		if (read_end(&q->sd->reads[i]) >= ts)
			q->open = i;
	}
	return 0;
}

int wl_sdq_after(struct wl_builder *b, uint64_t ts)
{
	struct wl_sdq *q = b->sdq;

	if (!q || q->open == WL_NONE || ts > read_end(&q->sd->reads[q->open]))
		return 0;
	return sdq_snap(b, q, q->open, ts);
}

static int sdq_correct(struct wl_builder *b, uint32_t t, uint64_t from, bool unmove)
{
	struct wl_sdq *q = b->sdq;

	if (!q || !q->snap.n || q->snap.v[q->snap.n - 1].ts < from)
		return 0;           /* no snapshot since: nothing counted it */
	WL_VEC_PUSH(q->ret, oom);
	q->ret.v[q->ret.n++] = (struct wl_sdq_retract){ .task = t, .snaps = q->snap.n, .from = from,
							.unmove = unmove };
	return 0;
oom:
	return -1;
}

int wl_sdq_retract(struct wl_builder *b, uint32_t t, uint64_t from)
{
	return sdq_correct(b, t, from, false);
}

int wl_sdq_unmove(struct wl_builder *b, uint32_t t, uint64_t from)
{
	return sdq_correct(b, t, from, true);
}

void wl_sdq_free(struct wl_builder *b)
{
	struct wl_sdq *q = b->sdq;

	if (!q)
		return;
	free(q->ent.v);
	free(q->snap.v);
	free(q->ret.v);
	free(q);
	b->sdq = NULL;
}

/* Whether an earlier record of @t's pid exists (a class change's second record). */
static bool sdq_later_record(const struct wl_builder *b, uint32_t t)
{
	for (uint32_t u = 0; u < b->tasks.n; u++)
		if (u != t && b->tasks.v[u].pid == b->tasks.v[t].pid &&
		    b->tasks.v[u].first_ts < b->tasks.v[t].first_ts)
			return true;
	return false;
}

/*
 * Whether entry @e of snapshot @si was corrected: (!@unmove) retracted, the
 * builder found at a later event that the task had left its CPU asleep at
 * @from, before the snapshot (a switch the kernel did not trace:
 * lost_switch(), lost_switch_decided()); (@unmove) its exit's move to the
 * root, placed at a charge at @from, was not sched_move_task()'s
 * (retract_exit_move()).
 */
static bool sdq_corrected(const struct wl_sdq *q, const struct wl_sdq_ent *e, uint32_t si,
			  bool unmove)
{
	for (uint32_t k = 0; k < q->ret.n; k++)
		if (q->ret.v[k].task == e->task && q->ret.v[k].unmove == unmove &&
		    si < q->ret.v[k].snaps && q->snap.v[si].ts >= q->ret.v[k].from)
			return true;
	return false;
}

/*
 * The kernel's count the trace can show for each (group, CPU) of read @read
 * into @kern ([groups][nc]; -1 where the kernel printed no such queue):
 * h_nr_runnable (6.14+), else h_nr_queued.  The kernel's path names the
 * group as group_check.c's group_of() maps it.  -1 when there is nothing
 * to compare (the caller then keeps no agreement time).
 */
static int sdq_kernel(const struct wl_builder *b, const struct wl_sdq *q, uint32_t read,
		      int64_t *kern, size_t per)
{
	const struct sidecar_sd_read *rd = &q->sd->reads[read];
	int n = 0;

	for (size_t x = 0; x < per; x++)
		kern[x] = -1;
	for (size_t j = 0; j < rd->nr_rows; j++) {
		const struct sidecar_sd_row *row = &rd->rows[j];
		const char *path = q->sd->paths[row->path];
		int f = row->have[SIDECAR_SD_H_NR_RUNNABLE] ? SIDECAR_SD_H_NR_RUNNABLE :
			SIDECAR_SD_H_NR_QUEUED;

		if (!row->have[f] || row->cpu < 0 || row->cpu >= q->nc)
			continue;
		for (uint32_t g = 0; g < b->groups.n; g++) {
			const struct wl_group *wg = &b->groups.v[g];

			if (!strcmp(wg->path, path) ||
			    (wg->autogroup && path[0] == '/' && !strcmp(wg->path, path + 1))) {
				kern[(size_t)g * (size_t)q->nc + (size_t)row->cpu] = row->v[f];
				n++;
				break;
			}
		}
	}
	return n ? 0 : -1;
}

static void sat_add(uint16_t *x, uint32_t d)
{
	uint32_t v = (uint32_t)*x + d;

	*x = v > UINT16_MAX ? UINT16_MAX : (uint16_t)v;
}

/* @ts's distance from read @read's sched_clk, in the tables' uint32 (UINT32_MAX: never) */
static uint32_t sdq_since(const struct wl_sdq *q, uint32_t read, uint64_t ts)
{
	uint64_t d = ts - q->sd->reads[read].sched_clk;

	return d >= UINT32_MAX ? UINT32_MAX - 1 : (uint32_t)d;
}

/*
 * After the stream: the workload's dense table (wl->sdq: [reads][groups][nc]
 * of {at, lo, hi}) from the snapshots less the retracted entries, with the
 * tasks the trace showed only after a read that were running or queued from
 * the start.  Before the groups and tasks move to the workload.  -1 on ENOMEM.
 */
int wl_sdq_finish(struct wl_builder *b)
{
	struct wl_sdq *q = b->sdq;
	struct wl_workload *wl = b->wl;
	uint32_t ng = b->groups.n, nr, nc;
	uint32_t *cnt = NULL;
	int64_t *kbuf = NULL;
	bool *late = NULL;
	int ret = -1;
	size_t per;

	if (!q)
		return 0;
	nr = (uint32_t)q->sd->nr_reads;
	nc = (uint32_t)q->nc;
	per = (size_t)ng * nc;
	if (!(wl->sdq = calloc(nr * per * 3 + 1, sizeof(*wl->sdq))) ||
	    !(wl->sdq_taken = calloc(nr + 1, sizeof(*wl->sdq_taken))) ||
	    !(cnt = calloc(per + 1, sizeof(*cnt))) ||
	    !(wl->sdq_agree = calloc(nr * per + 1, sizeof(*wl->sdq_agree))) ||
	    !(wl->sdq_cpu_agree = calloc((size_t)nr * nc + 1, sizeof(*wl->sdq_cpu_agree))) ||
	    !(kbuf = calloc(per + 1, sizeof(*kbuf))) ||
	    !(late = calloc(b->tasks.n + 1, sizeof(*late))))
		goto oom;
	/* the tasks shown only after the trace's start, running or queued since it */
	for (uint32_t t = 0; t < b->tasks.n; t++) {
		const struct wl_task *k = &b->tasks.v[t];

		late[t] = (k->init_state == WL_INIT_RUNNING || k->init_state == WL_INIT_RUNNABLE) &&
			  k->cls == WL_CLASS_FAIR && k->init_cpu >= 0 && (uint32_t)k->init_cpu < nc &&
			  k->group < ng && !sdq_later_record(b, t);
	}
	wl->sdq_nreads = nr;
	wl->sdq_ng = ng;
	wl->sdq_nc = nc;
	for (size_t x = 0; x < (size_t)nr * nc; x++)
		wl->sdq_cpu_agree[x] = UINT32_MAX;
	for (uint32_t si = 0; si < q->snap.n;) {
		uint32_t read = q->snap.v[si].read;
		int64_t *kern = kbuf;
		bool first = true;

		if (sdq_kernel(b, q, read, kern, per))
			kern = NULL;
		for (; si < q->snap.n && q->snap.v[si].read == read; si++) {
			const struct wl_sdq_snap *sn = &q->snap.v[si];

			memset(cnt, 0, per * sizeof(*cnt));
			for (uint32_t e = sn->first; e < sn->first + sn->n; e++) {
				const struct wl_sdq_ent *en = &q->ent.v[e];
				uint32_t g0 = en->group;

				if (sdq_corrected(q, en, si, false))
					continue;
				if (en->exit_root && g0 < ng && !sdq_corrected(q, en, si, true))
					g0 = b->groups.v[g0].parent;    /* the root */
				for (uint32_t g = g0; g != WL_NONE && g < ng; g = b->groups.v[g].parent)
					cnt[(size_t)g * nc + (uint32_t)en->cpu]++;
			}
			for (uint32_t t = 0; t < b->tasks.n; t++) {
				const struct wl_task *k = &b->tasks.v[t];

				if (!late[t] || sn->ts >= k->first_ts)
					continue;
				for (uint32_t g = k->group; g != WL_NONE && g < ng;
				     g = b->groups.v[g].parent)
					cnt[(size_t)g * nc + (uint32_t)k->init_cpu]++;
			}
			for (size_t x = 0; x < per; x++) {
				uint16_t *c = wl->sdq + ((size_t)read * per + x) * 3;
				uint32_t *ag = wl->sdq_agree + (size_t)read * per + x;
				uint16_t v = 0;

				sat_add(&v, cnt[x]);
				if (first) {
					c[0] = c[1] = c[2] = v;
					*ag = UINT32_MAX;
				} else {
					if (v < c[1])
						c[1] = v;
					if (v > c[2])
						c[2] = v;
				}
				if (*ag == UINT32_MAX && kern && kern[x] == (int64_t)v)
					*ag = sdq_since(q, read, sn->ts);
			}
			/* each CPU's block: the first snapshot agreeing on all its printed groups */
			for (uint32_t c = 0; kern && c < nc; c++) {
				uint32_t *ca = wl->sdq_cpu_agree + (size_t)read * nc + c;
				unsigned int rows = 0, eq = 0;

				if (*ca != UINT32_MAX)
					continue;
				for (uint32_t g = 0; g < ng; g++) {
					size_t x = (size_t)g * nc + c;

					if (kern[x] < 0)
						continue;
					rows++;
					eq += kern[x] == (int64_t)(cnt[x] > UINT16_MAX ? UINT16_MAX : cnt[x]);
				}
				if (rows && eq == rows)
					*ca = sdq_since(q, read, sn->ts);
			}
			first = false;
		}
		wl->sdq_taken[read] = 1;
	}
	ret = 0;
oom:
	free(cnt);
	free(kbuf);
	free(late);
	return ret;
}

bool wl_sd_trace_queued(const struct wl_workload *wl, uint32_t read, uint32_t group, int cpu,
			struct wl_sd_queued *out)
{
	const uint16_t *x;

	if (!wl->sdq || read >= wl->sdq_nreads || !wl->sdq_taken[read] || group >= wl->sdq_ng ||
	    cpu < 0 || (uint32_t)cpu >= wl->sdq_nc)
		return false;
	x = wl->sdq + (((size_t)read * wl->sdq_ng + group) * wl->sdq_nc + (uint32_t)cpu) * 3;
	out->at = x[0];
	out->lo = x[1];
	out->hi = x[2];
	out->agree_ns = wl->sdq_agree[((size_t)read * wl->sdq_ng + group) * wl->sdq_nc + (uint32_t)cpu];
	return true;
}

bool wl_sd_cpu_agree_ns(const struct wl_workload *wl, uint32_t read, int cpu, uint32_t *ns)
{
	uint32_t v;

	if (!wl->sdq || read >= wl->sdq_nreads || !wl->sdq_taken[read] || cpu < 0 ||
	    (uint32_t)cpu >= wl->sdq_nc)
		return false;
	v = wl->sdq_cpu_agree[(size_t)read * wl->sdq_nc + (uint32_t)cpu];
	if (v == UINT32_MAX)
		return false;
	*ns = v;
	return true;
}
