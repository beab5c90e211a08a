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

#include <jansson.h>

#include <schedreplay/stats.h>
#include <schedreplay/whatif.h>

#include "whatif_seeds.h"

/* Run @i's figure of each seed in @v; false if a seed has none. */
static bool seed_figures(const struct whatif_result *r, unsigned int i, whatif_figure_fn fn,
			 const void *ctx, double *v)
{
	for (unsigned int s = 0; s < whatif_nr_seeds(r); s++) {
		v[s] = fn(r, i, s, ctx);
		if (isnan(v[s]))
			return false;
	}
	return true;
}

void whatif_figure_get(const struct whatif_result *r, unsigned int i, whatif_figure_fn fn,
		       const void *ctx, struct whatif_figure *out)
{
	double v[WHATIF_MAX_SEEDS];
	unsigned int imin, imax, med;

	if (!seed_figures(r, i, fn, ctx, v)) {
		out->median = out->min = out->max = NAN;
		return;
	}
	med = sr_seeds_rank(v, whatif_nr_seeds(r), &imin, &imax);
	out->median = v[med];
	out->min = v[imin];
	out->max = v[imax];
}

unsigned int whatif_figure_median_seed(const struct whatif_result *r, unsigned int i,
				       whatif_figure_fn fn, const void *ctx)
{
	double v[WHATIF_MAX_SEEDS];

	if (!seed_figures(r, i, fn, ctx, v))
		return 0;
	return sr_seeds_rank(v, whatif_nr_seeds(r), NULL, NULL);
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
	double v[WHATIF_MAX_SEEDS];
	unsigned int imin, imax, med;

	for (unsigned int s = 0; s < n; s++) {
		if (!json_is_number(t[s]))
			return json_null();     /* a seed without the figure: none */
		v[s] = json_number_value(t[s]);
	}
	med = sr_seeds_rank(v, n, &imin, &imax);
	/* the seed's own member: its type (integer or real) and text unchanged */
	return json_incref(t[st == WHATIF_SEEDS_MIN ? imin : st == WHATIF_SEEDS_MAX ? imax : med]);
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
