/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A growable array of samples (ns) and its nearest-rank quantiles, as
 * calib.c takes them: for the analysis tools built with the tests
 * (idle_residency.c, waker_costs.c).  Header-only: each tool is one file.
 */
#ifndef SCHEDREPLAY_TESTS_SAMPLE_CELL_H
#define SCHEDREPLAY_TESTS_SAMPLE_CELL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct cell {
	uint64_t *v;
	size_t n, cap;
};

/* Append @v; -1 on ENOMEM (the cell unchanged). */
static inline int cell_add(struct cell *c, uint64_t v)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		uint64_t *nv = realloc(c->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		c->v = nv;
		c->cap = cap;
	}
	c->v[c->n++] = v;
	return 0;
}

static inline int cell_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort the samples (before cell_q_us()). */
static inline void cell_sort(struct cell *c)
{
	if (c->n)
		qsort(c->v, c->n, sizeof(*c->v), cell_cmp_u64);
}

/* The nearest-rank @p quantile of a sorted, non-empty cell, in us. */
static inline double cell_q_us(const struct cell *c, double p)
{
	size_t r = (size_t)(p * (double)c->n + 0.999999999);

	if (r < 1)
		r = 1;
	if (r > c->n)
		r = c->n;
	return (double)c->v[r - 1] / 1000.0;
}

#endif /* SCHEDREPLAY_TESTS_SAMPLE_CELL_H */
