// SPDX-License-Identifier: GPL-2.0
/*
 * A what-if figure over the model's seeds.
 *
 * On a saturated trace the replay is chaotic: the model's random draws
 * (NI_RANDOM's newidle dice, the mechanical-cost draws) move latency
 * percentiles and even counts from one seed to the next.  With --seeds N
 * every figure is the median over the seeds, as `schedreplay validate`
 * takes it (the lower middle one for an even N, so that it is a value one
 * run produced), and a variant's change is "within the seeds" when its seed
 * range [min, max] overlaps base's: some seed of the variant lands where
 * some seed of base does, so at N seeds the change cannot be told from the
 * replay's own noise.
 *
 * The JSON side (whatif_seeds.h) takes the same statistics leaf by leaf over
 * the seeds' JSON trees, so every number of `replay --json`'s variant map
 * is a median without a list of its keys here.
 */
#include <math.h>
#include <stdlib.h>

#include <jansson.h>

#include <schedreplay/whatif.h>

#include "whatif_seeds.h"

struct ranked {
	double v;
	unsigned int s;        /* seed index: ties keep seed order */
};

static int by_value(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->s < y->s ? -1 : x->s > y->s;
}

/* Rank run @i's seeds by @fn; false if a seed has no figure. */
static bool rank_seeds(const struct whatif_result *r, unsigned int i, whatif_figure_fn fn,
		       const void *ctx, struct ranked *v)
{
	unsigned int n = whatif_nr_seeds(r);

	for (unsigned int s = 0; s < n; s++) {
		v[s].v = fn(r, i, s, ctx);
		v[s].s = s;
		if (isnan(v[s].v))
			return false;
	}
	qsort(v, n, sizeof(*v), by_value);
	return true;
}

void whatif_figure_get(const struct whatif_result *r, unsigned int i, whatif_figure_fn fn,
		       const void *ctx, struct whatif_figure *out)
{
	struct ranked v[WHATIF_MAX_SEEDS];
	unsigned int n = whatif_nr_seeds(r);

	if (!rank_seeds(r, i, fn, ctx, v)) {
		out->median = out->min = out->max = NAN;
		return;
	}
	out->median = v[(n - 1) / 2].v;
	out->min = v[0].v;
	out->max = v[n - 1].v;
}

unsigned int whatif_figure_median_seed(const struct whatif_result *r, unsigned int i,
				       whatif_figure_fn fn, const void *ctx)
{
	struct ranked v[WHATIF_MAX_SEEDS];

	if (!rank_seeds(r, i, fn, ctx, v))
		return 0;
	return v[(whatif_nr_seeds(r) - 1) / 2].s;
}

bool whatif_figure_within_seeds(const struct whatif_result *r, const struct whatif_figure *v,
				const struct whatif_figure *base)
{
	/* [a, b] and [c, d] overlap iff a <= d and c <= b; NAN compares false */
	return whatif_nr_seeds(r) > 1 && v->min <= base->max && base->min <= v->max;
}

/* ---- JSON trees ---------------------------------------------------------- */

static json_t *number_stat(json_t *const *t, unsigned int n, enum whatif_seed_stat st)
{
	struct ranked v[WHATIF_MAX_SEEDS];
	unsigned int pick;

	for (unsigned int s = 0; s < n; s++) {
		if (!json_is_number(t[s]))
			return json_null();     /* a seed without the figure: none */
		v[s].v = json_number_value(t[s]);
		v[s].s = s;
	}
	qsort(v, n, sizeof(*v), by_value);
	pick = st == WHATIF_SEEDS_MIN ? 0 : st == WHATIF_SEEDS_MAX ? n - 1 : (n - 1) / 2;
	/* the seed's own member: its type (integer or real) and text unchanged */
	return json_incref(t[v[pick].s]);
}

json_t *whatif_json_seeds(json_t *const *t, unsigned int n, enum whatif_seed_stat st)
{
	json_t *sub[WHATIF_MAX_SEEDS], *out;
	bool objects = true, arrays = true, numbers = false;
	size_t len = 0;

	if (!n || n > WHATIF_MAX_SEEDS || !t[0])
		return NULL;
	for (unsigned int s = 0; s < n; s++) {
		objects &= json_is_object(t[s]);
		arrays &= json_is_array(t[s]) && json_array_size(t[s]) == json_array_size(t[0]);
		numbers |= json_is_number(t[s]);
	}
	if (numbers)
		return number_stat(t, n, st);
	if (objects) {
		const char *key;
		json_t *val;

		out = json_object();
		/* every member any seed has, over the seeds that have it */
		for (unsigned int s = 0; out && s < n; s++) {
			json_object_foreach(t[s], key, val) {
				unsigned int m = 0;
				json_t *one;

				if (json_object_get(out, key))
					continue;
				for (unsigned int k = 0; k < n; k++)
					if ((sub[m] = json_object_get(t[k], key)))
						m++;
				one = whatif_json_seeds(sub, m, st);
				if (one)
					json_object_set_new(out, key, one);
			}
		}
		if (out && st != WHATIF_SEEDS_MEDIAN && json_object_size(out) == 0) {
			json_decref(out);
			return NULL;
		}
		return out;
	}
	if (arrays) {
		len = json_array_size(t[0]);
		out = json_array();
		for (size_t e = 0; out && e < len; e++) {
			json_t *one;

			for (unsigned int s = 0; s < n; s++)
				sub[s] = json_array_get(t[s], e);
			one = whatif_json_seeds(sub, n, st);
			json_array_append_new(out, one ? one : json_null());
		}
		return out;
	}
	/* strings, booleans, arrays that differ: the first seed's, in the median only */
	return st == WHATIF_SEEDS_MEDIAN ? json_incref(t[0]) : NULL;
}
