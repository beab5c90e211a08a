// SPDX-License-Identifier: GPL-2.0
/*
 * --join-reply (experimental; docs/replay.md, "Hand-offs", and
 * docs/validation-log.md, helper lag45): a task X that wakes two tasks Y and Z
 * in one run and sleeps until one of them answers is a join when the program
 * has the last of the two to finish answer (schedreplay-probe's message thread
 * and its workers: `atomic_fetch_sub(&pending) == 1` before the FUTEX_WAKE).
 * The trace shows the kernel's order: the replier is the one that ran second.
 * The workload pins the reply to the trace's replier Y, so a simulation that
 * runs Y first makes Y answer with Z still queued, and Y answers with the
 * first runner's lag (larger: it ran first because its deadline came first).
 *
 * With the option, Y's WAKE of X is made by Z instead when Z has not reached
 * the BLOCK that ends its work of the round: Z makes it at that block (the
 * model's own check decides whether X preempts Z there), and Y goes on past
 * its hand-off WAITs for X up to its next BLOCK.  sim_join_init() finds the
 * joins at set-up (sim.join_sib, sim.join_blk: allocated only under the
 * option); the loop (sim.c) asks sim_join_defer() at a WAKE op and
 * sim_join_owed() at a BLOCK op.  Nothing here schedules or emits.
 */
#include <stdlib.h>

#include "sim_local.h"

/* The first BLOCK op of task @ti after op @k (task-relative), WL_NONE if none. */
static uint32_t next_block(const struct sim *s, uint32_t ti, uint32_t k)
{
	const struct wl_task *t = &s->wt[ti];

	for (uint32_t j = k + 1; j < t->nr_ops; j++)
		if (s->ops[t->first_op + j].kind == WL_OP_BLOCK)
			return j;
	return WL_NONE;
}

/* Task @ti wakes @x by a WAKE op in (@from, @to) (task-relative). */
static bool wakes_in(const struct sim *s, uint32_t ti, uint32_t from, uint32_t to, uint32_t x)
{
	const struct wl_task *t = &s->wt[ti];

	for (uint32_t j = from + 1; j < to && j < t->nr_ops; j++) {
		const struct wl_op *op = &s->ops[t->first_op + j];

		if (op->kind == WL_OP_WAKE && s->wakes[op->arg].target == x)
			return true;
	}
	return false;
}

/*
 * An ordinary traced wake of one fair task by another: no spurious or new
 * task's wake, nor a channel wake (WL_WAKE_CHANNEL: X's sleeps are ended by
 * either task, as a join's are) that the channel options re-pair
 * (sim.block_wake, sim_chanpair.c: the first to come ends the sleep there).
 */
static bool plain_wake(const struct sim *s, uint32_t w)
{
	const struct wl_wake *wk = &s->wakes[w];

	return wk->src == WL_SRC_TASK && wk->waker != WL_NONE && wk->waker < s->nr_tasks &&
	       wk->target < s->nr_tasks && wk->waker != wk->target &&
	       !(wk->flags & (WL_WAKE_SPURIOUS | WL_WAKE_NEW)) &&
	       !(s->block_wake && (wk->flags & WL_WAKE_CHANNEL)) &&
	       s->wt[wk->target].cls == WL_CLASS_FAIR && s->wt[wk->waker].cls == WL_CLASS_FAIR;
}

/*
 * For wake @w of X by Y (Y's WAKE op @ky): the other task Z that X woke in the
 * run before the BLOCK @w ends, if X woke exactly Y and Z there, Y's wake of X
 * comes in the run Y's wake by X began, and Z's run after its wake by X has
 * no wake of X; *zblk is the BLOCK ending Z's run.  WL_NONE: no join.
 */
static uint32_t join_of(const struct sim *s, const uint32_t *blk, uint32_t w, uint32_t ky,
			uint32_t *zblk)
{
	const struct wl_wake *wk = &s->wakes[w];
	uint32_t x = wk->target, y = wk->waker, b = blk[w];
	const struct wl_task *xt = &s->wt[x];
	uint32_t wy = WL_NONE, wz = WL_NONE, z = WL_NONE, by, bz, bz2, wz2;

	if (b == WL_NONE || b == 0)
		return WL_NONE;
	for (uint32_t j = b; j-- > 0;) {
		const struct wl_op *op = &s->ops[xt->first_op + j];

		if (op->kind == WL_OP_BLOCK || op->kind == WL_OP_EXIT)
			break;
		if (op->kind != WL_OP_WAKE || !plain_wake(s, op->arg))
			continue;
		if (s->wakes[op->arg].target == y && wy == WL_NONE) {
			wy = op->arg;
		} else if (s->wakes[op->arg].target != y && z == WL_NONE) {
			z = s->wakes[op->arg].target;
			wz = op->arg;
		} else if (s->wakes[op->arg].target != y && s->wakes[op->arg].target != z) {
			return WL_NONE;    /* a third wakee: not the two-task join */
		}
	}
	if (wy == WL_NONE || z == WL_NONE || z == x)
		return WL_NONE;
	by = blk[wy];
	bz = blk[wz];
	if (by == WL_NONE || by >= ky || next_block(s, y, by) < ky || bz == WL_NONE)
		return WL_NONE;
	bz2 = next_block(s, z, bz);
	if (bz2 == WL_NONE || wakes_in(s, z, bz, bz2, x))
		return WL_NONE;
	/* the trace's Z finished first: its block before Y's wake (the wake ending it tells) */
	wz2 = s->ops[s->wt[z].first_op + bz2].arg;
	if (wz2 >= wl_nr_wakes(s->wl) || !s->wakes[wz2].sleep_ns ||
	    s->wakes[wz2].ts - s->wakes[wz2].sleep_ns >= wk->ts)
		return WL_NONE;
	*zblk = bz2;
	return z;
}

struct join_key {
	uint32_t x, y, z;
};

static int cmp_join_key(const void *a, const void *b)
{
	const struct join_key *p = a, *q = b;

	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	if (p->y != q->y)
		return p->y < q->y ? -1 : 1;
	return p->z < q->z ? -1 : p->z > q->z;
}

/*
 * Keep the joins whose two tasks both answer: a wake of X by Y with Z the
 * other is kept only if some join wake of X is Z's with Y the other (the
 * last to finish is now one, now the other).  A pair where only Y ever
 * answers is the program's order, not a join's.  The kept ones are counted.
 */
static int join_keep_mutual(struct sim *s, uint32_t nw)
{
	struct join_key *k = malloc((nw ? nw : 1) * sizeof(*k));
	size_t n = 0;

	if (!k)
		return -1;
	for (uint32_t w = 0; w < nw; w++)
		if (s->join_sib[w] != WL_NONE)
			k[n++] = (struct join_key){ s->wakes[w].target, s->wakes[w].waker,
						    s->join_sib[w] };
	qsort(k, n, sizeof(*k), cmp_join_key);
	for (uint32_t w = 0; w < nw; w++) {
		struct join_key q;

		if (s->join_sib[w] == WL_NONE)
			continue;
		q = (struct join_key){ s->wakes[w].target, s->join_sib[w], s->wakes[w].waker };
		if (!bsearch(&q, k, n, sizeof(*k), cmp_join_key)) {
			s->join_sib[w] = s->join_blk[w] = WL_NONE;
			continue;
		}
		s->notes[SIM_NOTE_JOIN_WAKES]++;
	}
	free(k);
	return 0;
}

int sim_join_init(struct sim *s)
{
	uint32_t nw = wl_nr_wakes(s->wl);
	uint32_t *blk = malloc((nw ? nw : 1) * sizeof(*blk));

	s->join_sib = malloc((nw ? nw : 1) * sizeof(*s->join_sib));
	s->join_blk = malloc((nw ? nw : 1) * sizeof(*s->join_blk));
	if (!blk || !s->join_sib || !s->join_blk) {
		free(blk);
		return -1;
	}
	for (uint32_t w = 0; w < nw; w++)
		blk[w] = s->join_sib[w] = s->join_blk[w] = WL_NONE;
	for (uint32_t i = 0; i < s->nr_tasks; i++) {
		const struct wl_task *t = &s->wt[i];

		s->tasks[i].join_owed = s->tasks[i].join_skip = WL_NONE;
		for (uint32_t k = 0; k < t->nr_ops; k++) {
			const struct wl_op *op = &s->ops[t->first_op + k];

			if (op->kind == WL_OP_BLOCK && op->arg < nw && !(op->aux & WL_BLOCK_CHANNEL))
				blk[op->arg] = k;
		}
	}
	for (uint32_t i = 0; i < s->nr_tasks; i++) {
		const struct wl_task *t = &s->wt[i];

		for (uint32_t k = 0; k < t->nr_ops; k++) {
			const struct wl_op *op = &s->ops[t->first_op + k];
			uint32_t zb = WL_NONE, z;

			if (op->kind != WL_OP_WAKE || op->arg >= nw || !plain_wake(s, op->arg) ||
			    s->wakes[op->arg].waker != i)
				continue;
			if ((z = join_of(s, blk, op->arg, k, &zb)) == WL_NONE)
				continue;
			s->join_sib[op->arg] = z;
			s->join_blk[op->arg] = zb;
		}
	}
	free(blk);
	return join_keep_mutual(s, nw);
}

bool sim_join_defer(struct sim *s, uint32_t ti, uint32_t w)
{
	uint32_t z;
	struct sim_task *zt;

	if (!s->join_sib || (z = s->join_sib[w]) == WL_NONE)
		return false;
	zt = &s->tasks[z];
	/* Z has blocked past its round's work (asleep at it: op is past it), or is gone */
	if (!zt->mt || zt->st == SIM_DEAD || zt->op > s->join_blk[w] || zt->join_owed != WL_NONE)
		return false;
	zt->join_owed = w;
	zt->join_owed_blk = s->join_blk[w];
	s->tasks[ti].join_skip = s->wakes[w].target;
	s->notes[SIM_NOTE_JOIN_DEFERRED]++;
	return true;
}

uint32_t sim_join_owed(struct sim *s, uint32_t ti)
{
	struct sim_task *t = &s->tasks[ti];
	uint32_t w = t->join_owed;

	if (!s->join_sib || w == WL_NONE || t->op != t->join_owed_blk)
		return WL_NONE;
	t->join_owed = WL_NONE;
	return w;
}

void sim_join_unmade(struct sim *s)
{
	if (!s->join_sib)
		return;
	for (uint32_t i = 0; i < s->nr_tasks; i++)
		if (s->tasks[i].join_owed != WL_NONE)
			s->notes[SIM_NOTE_JOIN_UNMADE]++;
}
