// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline of a cfs_rq: the kernel's augmented rb-tree of queued
 * entities (kernel/sched/fair.c __enqueue_entity(), __dequeue_entity(),
 * __pick_first_entity(), __pick_root_entity(), min_vruntime_update()).
 *
 * Order: EEVDF sorts by deadline (6.8+, 2227a957e1d5), CFS by vruntime; both
 * compare with a signed difference so wrapping u64 clocks order correctly.
 * rb_add() puts an entity after every entity with an equal key; a per-queue
 * insertion counter (tl_seq) reproduces that tie order, so the in-order
 * sequence is exactly the kernel's.
 *
 * Augmentation: every node keeps the minimum vruntime and minimum slice of
 * its subtree, which pick_eevdf() uses to prune ineligible subtrees and
 * cfs_rq_min_slice() reads at the root.
 *
 * The tree itself is a treap (a binary search tree balanced by random
 * priorities from the machine's seeded generator) rather than a red-black
 * tree: every pick the kernel makes depends only on the in-order sequence and
 * the subtree minima, never on the shape, so the results are identical and
 * the code is shorter.  Expected depth O(log n); no allocation.
 */
#include "sched.h"

static inline s64 tl_key(const struct model *m, const struct sched_entity *se)
{
	return (s64)(sched_feat(m, EEVDF) ? se->deadline : se->vruntime);
}

/*
 * a before b in the kernel's rb-tree order (key, then insertion order).  The
 * key is the one the entity had when it was inserted (tl_keyv): the kernel
 * changes a queued entity's deadline just before erasing it
 * (PLACE_REL_DEADLINE in dequeue_entity()), which an rb-tree tolerates.
 */
static inline bool tl_less(const struct model *m, const struct sched_entity *a,
			   const struct sched_entity *b)
{
	s64 d = (s64)((u64)a->tl_keyv - (u64)b->tl_keyv);

	(void)m;
	if (d != 0)
		return d < 0;
	return a->tl_seq < b->tl_seq;
}

/* min_vruntime_update(): recompute the augmented minima of @se. */
static inline void tl_update(struct sched_entity *se)
{
	struct sched_entity *l = se->tl_left, *r = se->tl_right;

	se->min_vruntime = se->vruntime;
	se->min_slice = se->slice;
	se->max_slice = se->slice;
	if (r) {
		if ((s64)(se->min_vruntime - r->min_vruntime) > 0)
			se->min_vruntime = r->min_vruntime;
		if (r->min_slice < se->min_slice)
			se->min_slice = r->min_slice;
		if (r->max_slice > se->max_slice)
			se->max_slice = r->max_slice;
	}
	if (l) {
		if ((s64)(se->min_vruntime - l->min_vruntime) > 0)
			se->min_vruntime = l->min_vruntime;
		if (l->min_slice < se->min_slice)
			se->min_slice = l->min_slice;
		if (l->max_slice > se->max_slice)
			se->max_slice = l->max_slice;
	}
}

static u32 tl_rand(struct model *m)
{
	/* xorshift64*: deterministic, seeded from model_config.seed */
	u64 x = m->tl_rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	m->tl_rng = x;
	return (u32)((x * 0x2545F4914F6CDD1DULL) >> 32);
}

/* Split @t into (< @se) and (>= @se) in timeline order. */
static void tl_split(const struct model *m, struct sched_entity *t, const struct sched_entity *se,
		     struct sched_entity **l, struct sched_entity **r)
{
	if (!t) {
		*l = *r = NULL;
		return;
	}
	if (tl_less(m, t, se)) {
		tl_split(m, t->tl_right, se, &t->tl_right, r);
		*l = t;
	} else {
		tl_split(m, t->tl_left, se, l, &t->tl_left);
		*r = t;
	}
	tl_update(t);
}

static struct sched_entity *tl_merge(struct sched_entity *l, struct sched_entity *r)
{
	if (!l)
		return r;
	if (!r)
		return l;
	if (l->tl_prio > r->tl_prio) {
		l->tl_right = tl_merge(l->tl_right, r);
		tl_update(l);
		return l;
	}
	r->tl_left = tl_merge(l, r->tl_left);
	tl_update(r);
	return r;
}

static struct sched_entity *tl_insert(const struct model *m, struct sched_entity *t,
				      struct sched_entity *se)
{
	if (!t)
		return se;
	if (se->tl_prio > t->tl_prio) {
		tl_split(m, t, se, &se->tl_left, &se->tl_right);
		tl_update(se);
		return se;
	}
	if (tl_less(m, se, t))
		t->tl_left = tl_insert(m, t->tl_left, se);
	else
		t->tl_right = tl_insert(m, t->tl_right, se);
	tl_update(t);
	return t;
}

static struct sched_entity *tl_erase(const struct model *m, struct sched_entity *t,
				     struct sched_entity *se)
{
	if (!t)
		return NULL;   /* not found: a model bug; invariants catch it */
	if (t == se)
		return tl_merge(t->tl_left, t->tl_right);
	if (tl_less(m, se, t))
		t->tl_left = tl_erase(m, t->tl_left, se);
	else
		t->tl_right = tl_erase(m, t->tl_right, se);
	tl_update(t);
	return t;
}

/* __enqueue_entity(): into the tree and into the avg_vruntime sums (EEVDF). */
void __enqueue_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (sched_feat(m, EEVDF))
		avg_vruntime_add(cfs_rq, se);
	se->tl_left = se->tl_right = NULL;
	se->tl_seq = ++cfs_rq->tl_seq;
	se->tl_keyv = tl_key(m, se);
	se->tl_prio = tl_rand(m);
	se->min_vruntime = se->vruntime;
	se->min_slice = se->slice;
	se->max_slice = se->slice;
	cfs_rq->tl_root = tl_insert(m, cfs_rq->tl_root, se);
}

void __dequeue_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	cfs_rq->tl_root = tl_erase(m, cfs_rq->tl_root, se);
	se->tl_left = se->tl_right = NULL;
	if (sched_feat(m, EEVDF))
		avg_vruntime_sub(cfs_rq, se);
}

/*
 * __enqueue_entity() again for an entity just taken out with
 * __dequeue_entity(), its insertion order, key and priority kept: a treap's
 * shape is set by its keys and priorities, so the tree is exactly as before
 * (a trial pick without side effects: fair.c's initial lag inference).
 */
void __restore_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (sched_feat(m, EEVDF))
		avg_vruntime_add(cfs_rq, se);
	se->tl_left = se->tl_right = NULL;
	se->min_vruntime = se->vruntime;
	se->min_slice = se->slice;
	se->max_slice = se->slice;
	cfs_rq->tl_root = tl_insert(m, cfs_rq->tl_root, se);
}

struct sched_entity *__pick_root_entity(struct cfs_rq *cfs_rq)
{
	return cfs_rq->tl_root;
}

struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq)
{
	struct sched_entity *se = cfs_rq->tl_root;

	if (!se)
		return NULL;
	while (se->tl_left)
		se = se->tl_left;
	return se;
}

/* The in-order successor of @se (rb_next()), or NULL. */
struct sched_entity *__pick_next_entity(struct model *m, struct cfs_rq *cfs_rq,
					struct sched_entity *se)
{
	struct sched_entity *t = cfs_rq->tl_root, *succ = NULL;

	if (se->tl_right) {
		t = se->tl_right;
		while (t->tl_left)
			t = t->tl_left;
		return t;
	}
	while (t && t != se) {
		if (tl_less(m, se, t)) {
			succ = t;
			t = t->tl_left;
		} else {
			t = t->tl_right;
		}
	}
	return succ;
}

/*
 * min_vruntime_cb_propagate(): @se's slice (or vruntime) changed in place;
 * refresh the minima on the path from the root to it.
 */
static bool tl_propagate(const struct model *m, struct sched_entity *t, struct sched_entity *se)
{
	bool found;

	if (!t)
		return false;
	if (t == se) {
		tl_update(t);
		return true;
	}
	if (tl_less(m, se, t))
		found = tl_propagate(m, t->tl_left, se);
	else
		found = tl_propagate(m, t->tl_right, se);
	if (found)
		tl_update(t);
	return found;
}

void min_vruntime_cb_propagate(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	tl_propagate(m, cfs_rq->tl_root, se);
}

static int tl_walk(struct sched_entity *t, int (*fn)(struct sched_entity *, void *), void *arg)
{
	int ret;

	if (!t)
		return 0;
	ret = tl_walk(t->tl_left, fn, arg);
	if (ret)
		return ret;
	ret = fn(t, arg);
	if (ret)
		return ret;
	return tl_walk(t->tl_right, fn, arg);
}

/* Visit the queued entities in timeline order; stops at a non-zero return. */
int timeline_walk(struct cfs_rq *cfs_rq, int (*fn)(struct sched_entity *, void *), void *arg)
{
	return tl_walk(cfs_rq->tl_root, fn, arg);
}
