/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seeds' statistics of JSON trees (whatif_seeds.c), for the what-if
 * JSON report: one tree per seed in, one tree out.
 */
#ifndef SCHEDREPLAY_WHATIF_SEEDS_H
#define SCHEDREPLAY_WHATIF_SEEDS_H

#include <jansson.h>

enum whatif_seed_stat {
	WHATIF_SEEDS_MEDIAN,   /* the lower middle one for an even count */
	WHATIF_SEEDS_MIN,
	WHATIF_SEEDS_MAX,
};

/*
 * The trees @t[0..n) of the same figures from n seeds' runs (n <=
 * WHATIF_MAX_SEEDS) folded into one, leaf by leaf: a number becomes the
 * seeds' median, min or max (the chosen seed's own JSON value, so integers
 * stay integers), null if a seed has null or no number there; an object has
 * every member any seed has, over the seeds that have it; arrays of equal
 * length go element by element.  Other leaves (strings, booleans) are the
 * first seed's in the median and left out of min and max, as are objects
 * left empty.  A new reference, or NULL (nothing for min/max, or out of
 * memory).
 */
json_t *whatif_json_seeds(json_t *const *t, unsigned int n, enum whatif_seed_stat st);

#endif /* SCHEDREPLAY_WHATIF_SEEDS_H */
