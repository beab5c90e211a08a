// SPDX-License-Identifier: GPL-2.0
/*
 * EEVDF: virtual time, lag, eligibility, placement and the pick (kernel 6.6+,
 * exact as of 6.12.117; kernel/sched/fair.c avg_vruntime() ... pick_eevdf()).
 *
 * Fair schedulers conserve lag.  With lag_i = w_i (V - v_i), \Sum lag_i = 0
 * gives the zero-lag virtual time as the weighted average of the queued
 * entities' vruntimes:
 *
 *         \Sum w_i v_i
 *     V = ------------
 *          \Sum w_i
 *
 * v_i are u64 that wrap, so the sums are kept relative to an origin v0
 * (zero_vruntime, or min_vruntime without ZERO_VRUNTIME):
 *
 *     avg_vruntime = \Sum (v_i - v0) w_i,   avg_load = \Sum w_i
 *
 * over the entities in the tree (curr is added on the fly), with scaled-down
 * weights w (nice 0 = 1024) to keep the products near 44 bits.
 *
 * An entity is eligible when its lag is >= 0, i.e. V >= v_i; the comparison
 * is done without the division (which would lose precision):
 *
 *     \Sum (v_j - v0) w_j >= (v_i - v0) \Sum w_j
 */
#include "sched.h"

/* The origin of a cfs_rq's relative sums (v0). */
u64 cfs_rq_origin(const struct model *m, const struct cfs_rq *cfs_rq)
{
	return sched_feat(m, ZERO_VRUNTIME) ? cfs_rq->zero_vruntime : cfs_rq->min_vruntime;
}

static inline s64 entity_key(const struct model *m, const struct cfs_rq *cfs_rq,
			     const struct sched_entity *se)
{
	return (s64)(se->vruntime - cfs_rq_origin(m, cfs_rq));
}

/* entity_before(): the tree order (deadline for EEVDF, vruntime for CFS). */
bool entity_before(const struct model *m, const struct sched_entity *a,
		   const struct sched_entity *b)
{
	if (sched_feat(m, EEVDF))
		return (s64)(a->deadline - b->deadline) < 0;
	return (s64)(a->vruntime - b->vruntime) < 0;
}

void avg_vruntime_add(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct model *m = model_of_rq(cfs_rq->rq);
	unsigned long weight = scale_load_down(se->load.weight);
	s64 key = entity_key(m, cfs_rq, se);

	cfs_rq->avg_vruntime += key * (s64)weight;
	cfs_rq->avg_load += (long)weight;
}

void avg_vruntime_sub(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct model *m = model_of_rq(cfs_rq->rq);
	unsigned long weight = scale_load_down(se->load.weight);
	s64 key = entity_key(m, cfs_rq, se);

	cfs_rq->avg_vruntime -= key * (s64)weight;
	cfs_rq->avg_load -= (long)weight;
}

/*
 * update_zero_vruntime(): move the origin by @delta; every key shrinks by
 * delta, so avg_vruntime' = avg_vruntime - delta * avg_load.
 */
static void update_zero_vruntime(struct cfs_rq *cfs_rq, s64 delta)
{
	cfs_rq->avg_vruntime -= cfs_rq->avg_load * delta;
	cfs_rq->zero_vruntime += (u64)delta;
}

/*
 * avg_vruntime(): V, rounded towards -inf (a negative numerator is biased by
 * weight - 1 before the truncating division) so that an entity placed at V is
 * eligible.  With ZERO_VRUNTIME (6.12.117, 6.19) the origin then moves to V;
 * vanilla kernels leave the state unchanged and return min_vruntime + delta.
 */
u64 avg_vruntime(struct model *m, struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	long weight = cfs_rq->avg_load;
	s64 delta = 0;

	if (curr && !curr->on_rq)
		curr = NULL;

	if (weight) {
		s64 runtime = cfs_rq->avg_vruntime;

		if (curr) {
			unsigned long w = scale_load_down(curr->load.weight);

			runtime += entity_key(m, cfs_rq, curr) * (s64)w;
			weight += (long)w;
		}
		if (runtime < 0)
			runtime -= (weight - 1);
		delta = runtime / weight;
	} else if (curr) {
		delta = entity_key(m, cfs_rq, curr);
	}

	if (sched_feat(m, ZERO_VRUNTIME)) {
		update_zero_vruntime(cfs_rq, delta);
		return cfs_rq->zero_vruntime;
	}
	return cfs_rq->min_vruntime + (u64)delta;
}

/*
 * entity_lag(): vlag = V - v, clamped: lag beyond the bound is an artefact of
 * V moving when entities join or leave with non-zero lag.  The bound is two
 * slices, at least a tick, of this entity's virtual time (6.6-6.18.0), or with
 * LAG_CLAMP_MAX_SLICE (6e3c0a4e1ad1 "sched/fair: Fix lag clamp", mainline
 * 2026, in 6.18-stable by April 2026) the longest slice queued on its cfs_rq
 * plus a tick, after EEVDF's steady-state bound -r_max < lag < max(r_max, q)
 * with the tick as the quantum q.
 */
u64 entity_lag_bound(struct model *m, struct sched_entity *se)
{
	/* se's own slice: it is queued at every entity_lag() call, not yet at a placement's */
	if (sched_feat(m, LAG_CLAMP_MAX_SLICE))
		return max_u64(cfs_rq_max_slice(cfs_rq_of(se)), se->slice) + m->tick_nsec;
	return max_u64(2 * se->slice, m->tick_nsec);
}

s64 entity_lag(struct model *m, u64 avruntime, struct sched_entity *se)
{
	s64 vlag, limit;

	vlag = (s64)(avruntime - se->vruntime);
	limit = (s64)calc_delta_fair(entity_lag_bound(m, se), se);
	if (vlag < -limit)
		return -limit;
	if (vlag > limit)
		return limit;
	return vlag;
}

void update_entity_lag(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	se->vlag = entity_lag(m, avg_vruntime(m, cfs_rq), se);
	vlag_written(m, se);
}

/* vruntime_eligible(): V >= vruntime, without dividing (see the top). */
int vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime)
{
	struct model *m = model_of_rq(cfs_rq->rq);
	struct sched_entity *curr = cfs_rq->curr;
	s64 avg = cfs_rq->avg_vruntime;
	long load = cfs_rq->avg_load;

	if (curr && curr->on_rq) {
		unsigned long weight = scale_load_down(curr->load.weight);

		avg += entity_key(m, cfs_rq, curr) * (s64)weight;
		load += (long)weight;
	}
	return avg >= (s64)(vruntime - cfs_rq_origin(m, cfs_rq)) * load;
}

int entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return vruntime_eligible(cfs_rq, se->vruntime);
}

/* cfs_rq_min_slice(): the shortest slice queued here (curr included). */
u64 cfs_rq_min_slice(struct cfs_rq *cfs_rq)
{
	struct sched_entity *root = __pick_root_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	u64 min_slice = ~0ULL;

	if (curr && curr->on_rq)
		min_slice = curr->slice;
	if (root)
		min_slice = min_u64(min_slice, root->min_slice);
	return min_slice;
}

/* cfs_rq_max_slice(): the longest slice queued here (curr included). */
u64 cfs_rq_max_slice(struct cfs_rq *cfs_rq)
{
	struct sched_entity *root = __pick_root_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	u64 max_slice = 0;

	if (curr && curr->on_rq)
		max_slice = curr->slice;
	if (root)
		max_slice = max_u64(max_slice, root->max_slice);
	return max_slice;
}

/*
 * Slice protection (RUN_TO_PARITY): once picked, curr keeps the CPU against
 * wakeups and picks until it has run a protected amount of virtual time.
 *
 * 6.6-6.16 (no PROTECT_VPROT): set_next_entity() stashes the deadline in
 * vlag (unused while running); curr is protected while the two still match,
 * i.e. until its request runs out (update_deadline() moves the deadline) -
 * a whole slice.
 *
 * 6.17+ (PROTECT_VPROT, "sched/fair: Limit run to parity to the min slice of
 * enqueued entities"): the protection is a vruntime, se->vprot.  With
 * RUN_TO_PARITY it ends at the deadline or after the shortest slice queued
 * on the cfs_rq, whichever is first (so a task with a short slice never
 * waits a long slice); without it after one normalized base slice (a
 * minimum quantum).  Protected while vruntime < vprot.
 */
void set_protect_slice(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 slice, vprot = se->deadline;

	if (!sched_feat(m, PROTECT_VPROT)) {
		se->vlag = (s64)se->deadline;
		return;
	}
	slice = sched_feat(m, RUN_TO_PARITY) ? cfs_rq_min_slice(cfs_rq) :
		(u64)m->prof.base_slice_ns;   /* normalized_sysctl_sched_base_slice */
	slice = min_u64(slice, se->slice);
	if (slice != se->slice) {
		u64 v = se->vruntime + calc_delta_fair(slice, se);

		if ((s64)(v - vprot) < 0)
			vprot = v;
	}
	se->vprot = vprot;
}

/*
 * update_protect_slice() (6.17+): a shorter-slice entity was enqueued without
 * preempting: curr's protection shrinks to that slice from now, so the
 * newcomer's lag stays within its slice (+ tick).
 */
void update_protect_slice(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 v = se->vruntime + calc_delta_fair(cfs_rq_min_slice(cfs_rq), se);

	(void)m;
	if ((s64)(v - se->vprot) < 0)
		se->vprot = v;
}

bool protect_slice(const struct model *m, const struct sched_entity *se)
{
	if (sched_feat(m, PROTECT_VPROT))
		return (s64)(se->vruntime - se->vprot) < 0;
	return se->vlag == (s64)se->deadline;
}

void cancel_protect_slice(const struct model *m, struct sched_entity *se)
{
	if (!protect_slice(m, se))
		return;
	if (sched_feat(m, PROTECT_VPROT))
		se->vprot = se->vruntime;
	else
		se->vlag = (s64)se->deadline + 1;
}

/*
 * pick_eevdf(): the eligible entity with the earliest virtual deadline.
 *
 * The tree is sorted by deadline and each node knows the minimum vruntime
 * below it; an eligible entity exists in a subtree iff its minimum vruntime
 * is eligible (eligibility is monotonic in vruntime).  So: go left while the
 * left subtree holds an eligible entity, else take this node if eligible,
 * else go right.  curr (not in the tree) competes if eligible; with
 * @protect a protected curr keeps the CPU.
 */
struct sched_entity *__pick_eevdf(struct model *m, struct cfs_rq *cfs_rq, bool protect)
{
	struct sched_entity *node = cfs_rq->tl_root;
	struct sched_entity *se = __pick_first_entity(cfs_rq);
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_entity *best = NULL;

	if (cfs_rq->nr_running == 1)
		return curr && curr->on_rq ? curr : se;

	if (curr && (!curr->on_rq || !entity_eligible(cfs_rq, curr)))
		curr = NULL;

	if (protect && curr && protect_slice(m, curr))
		return curr;

	if (se && entity_eligible(cfs_rq, se)) {
		best = se;
		goto found;
	}

	while (node) {
		struct sched_entity *left = node->tl_left;

		if (left && vruntime_eligible(cfs_rq, left->min_vruntime)) {
			node = left;
			continue;
		}
		if (entity_eligible(cfs_rq, node)) {
			best = node;
			break;
		}
		node = node->tl_right;
	}
found:
	if (!best || (curr && entity_before(m, curr, best)))
		best = curr;
	return best;
}

/*
 * pick_eevdf(): with slice protection as the profile's kernel applies it at
 * a pick: 6.17+ always (protect_slice() is also the NO_RUN_TO_PARITY minimum
 * quantum), before only with RUN_TO_PARITY.
 */
bool pick_protects(const struct model *m)
{
	return sched_feat(m, PROTECT_VPROT) || sched_feat(m, RUN_TO_PARITY);
}

struct sched_entity *pick_eevdf(struct model *m, struct cfs_rq *cfs_rq)
{
	return __pick_eevdf(m, cfs_rq, pick_protects(m));
}

/*
 * update_deadline(): once curr's vruntime reaches its deadline it has
 * consumed its request: a new one starts, vd = v + r / w, and the caller
 * reschedules.
 */
bool update_deadline(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if ((s64)(se->vruntime - se->deadline) < 0)
		return false;

	if (!se->custom_slice)
		se->slice = m->sysctl_sched_base_slice;
	se->deadline = se->vruntime + calc_delta_fair(se->slice, se);
	avg_vruntime(m, cfs_rq);   /* ZERO_VRUNTIME: recentre the origin */
	return true;
}

/* place_entity()'s inflation of a stored lag @vlag for @se joining @cfs_rq (below). */
s64 place_lag(struct cfs_rq *cfs_rq, struct sched_entity *se, s64 vlag)
{
	struct sched_entity *curr = cfs_rq->curr;
	long load = cfs_rq->avg_load;

	if (curr && curr->on_rq)
		load += (long)scale_load_down(curr->load.weight);
	vlag *= load + (long)scale_load_down(se->load.weight);
	if (!load)
		load = 1;
	return vlag / load;
}

/*
 * place_entity() (EEVDF): put @se at V - lag.
 *
 * Adding an entity with virtual lag vl moves V by w_i vl / (W + w_i), so the
 * lag it ends up with is smaller than vl.  To keep the lag it had when it
 * left, the stored lag is inflated first:  vl_i = (W + w_i) vl'_i / W.
 * A forked task (ENQUEUE_INITIAL) starts with half a slice, as the others are
 * on average halfway through theirs; with PLACE_REL_DEADLINE an entity that
 * migrated keeps its relative deadline.
 */
void place_entity_eevdf(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	u64 vslice, vruntime = avg_vruntime(m, cfs_rq);
	s64 lag = 0;

	COUNT(m, place_entity);
	if (!se->custom_slice)
		se->slice = m->sysctl_sched_base_slice;
	vslice = calc_delta_fair(se->slice, se);

	if (sched_feat(m, PLACE_LAG) && cfs_rq->nr_running)
		lag = place_lag(cfs_rq, se, se->vlag);

	se->vruntime = vruntime - (u64)lag;

	if (sched_feat(m, PLACE_REL_DEADLINE) && se->rel_deadline) {
		se->deadline += se->vruntime;
		se->rel_deadline = 0;
		return;
	}

	if (sched_feat(m, PLACE_DEADLINE_INITIAL) && (flags & ENQUEUE_INITIAL))
		vslice /= 2;

	se->deadline = se->vruntime + vslice;
}

/*
 * reweight_eevdf(): change the weight of a queued entity keeping its lag and
 * its relative deadline.  Lag w (V - v) is preserved and reweighting at a
 * non-zero-lag point leaves V unchanged (the kernel's corollaries), so
 *
 *     v' = V - (V - v) w / w'           d' = V + (d - V) w / w'
 *
 * with the lag clamped first as entity_lag() does.
 */
void reweight_eevdf(struct model *m, struct sched_entity *se, u64 avruntime, unsigned long weight)
{
	unsigned long old_weight = se->load.weight;
	s64 vlag, vslice;

	if (avruntime != se->vruntime) {
		vlag = entity_lag(m, avruntime, se);
		vlag = vlag * (s64)old_weight / (s64)weight;
		se->vruntime = avruntime - (u64)vlag;
	}

	vslice = (s64)(se->deadline - avruntime);
	vslice = vslice * (s64)old_weight / (s64)weight;
	se->deadline = avruntime + (u64)vslice;
}
