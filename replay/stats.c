// SPDX-License-Identifier: GPL-2.0
/* Log-linear latency histograms and nearest-rank percentiles: see stats.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/stats.h>

const double sr_std_pct[SR_NR_STD_PCT] = { 50, 75, 90, 95, 99, 99.5, 99.9 };
const char *const sr_std_pct_key[SR_NR_STD_PCT] = { "p50", "p75", "p90", "p95", "p99",
						    "p99_5", "p99_9" };

/*
 * The list's first capacity, in samples (128 bytes). Doubling from 8 took a
 * task's hundred wakeup samples through five allocations (1,100 in the report
 * of 1 s of hackbench, 0.14 M instructions); the list still turns dense at
 * the same sizes (its capacities are those of before from 64 on).
 */
#define SR_HIST_LIST_FIRST 64

static inline void bounds(unsigned g, unsigned b, uint64_t *lo, uint64_t *hi)
{
	unsigned shift;

	if (g == 0) {
		*lo = *hi = b;
		return;
	}
	shift = g - 1;
	*lo = ((uint64_t)(SR_HIST_SUB + b)) << shift;
	*hi = *lo + ((1ull << shift) - 1);
}

void sr_hist_bucket_bounds(uint64_t v, uint64_t *lo, uint64_t *hi)
{
	unsigned g, b;

	sr_hist_locate(v, &g, &b);
	bounds(g, b, lo, hi);
}

void sr_hist_init(struct sr_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void sr_hist_release(struct sr_hist *h)
{
	if (!h)
		return;
	if (h->group)
		for (unsigned g = 0; g < SR_HIST_GROUPS; g++)
			free(h->group[g]);
	free(h->group);
	free(h->ids);
	memset(h, 0, sizeof(*h));
}

static inline unsigned id_of(unsigned g, unsigned b)
{
	return g << SR_HIST_SUB_BITS | b;
}

/* Dense: group g's counters exist (they do before a sample of it is noted). */
static int alloc_group(struct sr_hist *h, unsigned g)
{
	if (h->have >> g & 1)
		return 0;
	if (!(h->group[g] = calloc(SR_HIST_SUB, sizeof(*h->group[g]))))
		return -1;
	h->have |= 1ull << g;
	return 0;
}

static void count_n(struct sr_hist *h, unsigned id, uint64_t n)
{
	uint32_t *c = &h->group[id >> SR_HIST_SUB_BITS][id & (SR_HIST_SUB - 1)];

	if (n > UINT32_MAX - *c) {
		*c = UINT32_MAX;
		h->saturated = true;
	} else {
		*c += (uint32_t)n;
	}
}

/*
 * The list's samples into counters: the dense form, with room for
 * SR_HIST_PEND noted buckets. On failure nothing has changed.
 */
static int to_dense(struct sr_hist *h)
{
	uint32_t **group = calloc(SR_HIST_GROUPS, sizeof(*group));
	uint16_t *ids;

	if (!group)
		return -1;
	for (unsigned g = 0; g < SR_HIST_GROUPS; g++) {
		if (!(h->have >> g & 1))
			continue;
		if (!(group[g] = calloc(SR_HIST_SUB, sizeof(*group[g])))) {
			while (g--)
				free(group[g]);
			free(group);
			return -1;
		}
	}
	h->group = group;
	for (uint32_t i = 0; i < h->nids; i++)
		count_n(h, h->ids[i], 1);
	h->nids = 0;
	h->dense = true;
	h->sorted = false;
	/* the list was at least SR_HIST_PEND long, or is grown to it here */
	ids = realloc(h->ids, SR_HIST_PEND * sizeof(*ids));
	if (ids) {
		h->ids = ids;
		h->ids_cap = SR_HIST_PEND;
	} else if (h->ids_cap < SR_HIST_PEND) {
		h->ids_cap = 0;        /* no room to note: counted at once (add_dense) */
	} else {
		h->ids_cap = SR_HIST_PEND;
	}
	return 0;
}

/*
 * Room for one more sample in the list (of group @g): doubled, as long as
 * the list stays within the memory of the counters of the groups it has
 * seen; beyond that the dense form. 0 list, 1 dense, -1 out of memory.
 */
static int list_room(struct sr_hist *h, unsigned g)
{
	uint64_t have = h->have | 1ull << g;
	uint32_t cap = h->ids_cap ? h->ids_cap * 2 : SR_HIST_LIST_FIRST;
	uint16_t *ids;

	if ((uint64_t)cap * sizeof(*ids) >
	    (uint64_t)__builtin_popcountll(have) * SR_HIST_SUB * sizeof(uint32_t)) {
		uint64_t old = h->have;

		h->have = have;
		if (to_dense(h)) {
			h->have = old;
			return -1;
		}
		return 1;
	}
	ids = realloc(h->ids, cap * sizeof(*ids));
	if (!ids)
		return -1;
	h->ids = ids;
	h->ids_cap = cap;
	return 0;
}

/* The list in ascending order: bucket ids are below 2^13. */
static void sort_ids(uint16_t *a, uint32_t n)
{
	uint16_t stack[1024], *tmp = n <= 1024 ? stack : malloc(n * sizeof(*tmp));
	uint32_t lo[SR_HIST_SUB], hi[64];

	if (n <= 32 || !tmp) {
		/* short lists; or a long one without memory for the radix sort */
		for (uint32_t i = 1; i < n; i++) {
			uint16_t x = a[i];
			uint32_t j = i;

			for (; j && a[j - 1] > x; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		if (tmp != stack)
			free(tmp);
		return;
	}
	/* two-digit LSD radix: the bucket (7 bits), then the group (6 bits) */
	memset(lo, 0, sizeof(lo));
	memset(hi, 0, sizeof(hi));
	for (uint32_t i = 0; i < n; i++) {
		lo[a[i] & (SR_HIST_SUB - 1)]++;
		hi[a[i] >> SR_HIST_SUB_BITS]++;
	}
	for (uint32_t i = 0, s = 0, t; i < SR_HIST_SUB; i++) {
		t = lo[i];
		lo[i] = s;
		s += t;
	}
	for (uint32_t i = 0, s = 0, t; i < 64; i++) {
		t = hi[i];
		hi[i] = s;
		s += t;
	}
	for (uint32_t i = 0; i < n; i++)
		tmp[lo[a[i] & (SR_HIST_SUB - 1)]++] = a[i];
	for (uint32_t i = 0; i < n; i++)
		a[hi[tmp[i] >> SR_HIST_SUB_BITS]++] = tmp[i];
	if (tmp != stack)
		free(tmp);
}

static bool settled(const struct sr_hist *h)
{
	return h->dense ? !h->nids : h->sorted || h->nids < 2;
}

void sr_hist_settle(const struct sr_hist *ch)
{
	/* no histogram is defined const: the cast changes representation only */
	struct sr_hist *h = (struct sr_hist *)ch;

	if (settled(h))
		return;   /* concurrent readers of a settled histogram only read */
	if (!h->dense) {
		sort_ids(h->ids, h->nids);
		h->sorted = true;
		return;
	}
	for (uint32_t i = 0; i < h->nids; i++)
		count_n(h, h->ids[i], 1);
	h->nids = 0;
}

/* @s's long double sum is @ld from now on */
static void sum_set_big(struct sr_sum *s, long double ld)
{
	memcpy(s->ld, &ld, sizeof(ld));
	s->big = true;
	s->sum = UINT64_MAX;
}

void sr_sum_big(struct sr_sum *s, uint64_t v)
{
	/* the first sum past 2^64 - 1 (the one before it was exact), or a later one */
	sum_set_big(s, s->big ? sr_sum_value(s) + v : (long double)(s->sum - v) + (long double)v);
}

void sr_sum_merge(struct sr_sum *dst, const struct sr_sum *src)
{
	uint64_t sum;

	if (!dst->big && !src->big && !__builtin_add_overflow(dst->sum, src->sum, &sum))
		dst->sum = sum;
	else
		sum_set_big(dst, sr_sum_value(dst) + sr_sum_value(src));
}

int sr_hist_add_grow(struct sr_hist *h, uint64_t v)
{
	unsigned g, b;

	sr_hist_locate(v, &g, &b);
	if (!h->dense) {
		int r = h->nids < h->ids_cap ? 0 : list_room(h, g);

		if (r < 0)
			return -1;
		if (!r) {
			h->have |= 1ull << g;
			h->ids[h->nids++] = (uint16_t)id_of(g, b);
			h->sorted = false;
			goto stats;
		}
	}
	/* dense: its counters exist before it is noted, so settling cannot fail */
	if (alloc_group(h, g))
		return -1;
	if (h->nids == h->ids_cap) {
		sr_hist_settle(h);
		if (!h->ids_cap) {
			count_n(h, id_of(g, b), 1);
			goto stats;
		}
	}
	h->ids[h->nids++] = (uint16_t)id_of(g, b);
stats:
	sr_hist_add_value(h, v);
	return 0;
}

uint64_t sr_hist_bucket_value(const struct sr_hist *h, const struct sr_hist_bucket *bk)
{
	uint64_t mid = bk->lo + (bk->hi - bk->lo + 1) / 2;

	if (bk->lo < SR_HIST_SUB)
		mid = bk->lo;          /* exact buckets: one value each */
	if (mid < h->min)
		mid = h->min;
	if (mid > h->max)
		mid = h->max;
	return mid;
}

bool sr_hist_next_bucket(const struct sr_hist *h, size_t *pos, struct sr_hist_bucket *out)
{
	unsigned id;

	if (!h->dense) {
		size_t i = *pos, j;

		if (i >= h->nids)
			return false;
		id = h->ids[i];
		for (j = i + 1; j < h->nids && h->ids[j] == id; j++)
			;
		out->count = j - i;
		*pos = j;
	} else {
		for (id = (unsigned)*pos; id < SR_HIST_GROUPS * SR_HIST_SUB; id++) {
			unsigned g = id >> SR_HIST_SUB_BITS;

			if (!(h->have >> g & 1)) {
				id = id_of(g, SR_HIST_SUB - 1);   /* the next group */
				continue;
			}
			if (h->group[g][id & (SR_HIST_SUB - 1)])
				break;
		}
		if (id >= SR_HIST_GROUPS * SR_HIST_SUB)
			return false;
		out->count = h->group[id >> SR_HIST_SUB_BITS][id & (SR_HIST_SUB - 1)];
		*pos = id + 1;
	}
	bounds(id >> SR_HIST_SUB_BITS, id & (SR_HIST_SUB - 1), &out->lo, &out->hi);
	return true;
}

int sr_hist_merge(struct sr_hist *dst, const struct sr_hist *src)
{
	struct sr_hist_bucket bk;
	size_t pos = 0;

	if (!src->count)
		return 0;
	sr_hist_settle(src);
	if (!dst->dense && to_dense(dst))
		return -1;
	sr_hist_settle(dst);
	/* the groups first: a failure leaves dst as it was */
	for (unsigned g = 0; g < SR_HIST_GROUPS; g++)
		if ((src->have >> g & 1) && alloc_group(dst, g))
			return -1;
	while (sr_hist_next_bucket(src, &pos, &bk)) {
		unsigned g, b;

		sr_hist_locate(bk.lo, &g, &b);
		count_n(dst, id_of(g, b), bk.count);
	}
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (!dst->count || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	sr_sum_merge(&dst->sum, &src->sum);
	dst->saturated |= src->saturated;
	return 0;
}

/* rank of percentile p among n samples: ceil(p / 100 * n), at least 1 */
static uint64_t rank_of(double p, uint64_t n)
{
	long double r;
	uint64_t k;

	if (p <= 0)
		return 1;
	if (p >= 100)
		return n;
	/* p/100*n computed in long double, then ceil; a tiny slack absorbs the
	 * binary representation of p (99.9 is not exact) */
	r = (long double)p * (long double)n / 100.0L;
	k = (uint64_t)ceill(r - 1e-9L);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return k;
}

void sr_hist_percentiles(const struct sr_hist *h, const double *p, size_t n, uint64_t *out,
			 uint64_t *below)
{
	struct sr_hist_bucket bk;
	uint64_t cum = 0, rank;
	size_t i = 0, pos = 0;

	sr_hist_settle(h);
	if (!h->count) {
		for (size_t j = 0; j < n; j++) {
			out[j] = 0;
			if (below)
				below[j] = 0;
		}
		return;
	}
	/* once per percentile, not per bucket: rank_of() computes in long double */
	rank = n ? rank_of(p[0], h->count) : 0;
	while (i < n && sr_hist_next_bucket(h, &pos, &bk)) {
		cum += bk.count;
		while (i < n && cum >= rank) {
			uint64_t mid = sr_hist_bucket_value(h, &bk);

			/* the first and last ranks are the exact extremes */
			if (rank == 1)
				mid = h->min;
			if (rank == h->count)
				mid = h->max;
			out[i] = mid;
			if (below)
				below[i] = cum;
			if (++i < n)
				rank = rank_of(p[i], h->count);
		}
	}
	/* only reachable if counts saturated: report the maximum */
	for (; i < n; i++) {
		out[i] = h->max;
		if (below)
			below[i] = h->count;
	}
}

uint64_t sr_hist_percentile(const struct sr_hist *h, double p)
{
	uint64_t v;

	sr_hist_percentiles(h, &p, 1, &v, NULL);
	return v;
}

double sr_hist_mean(const struct sr_hist *h)
{
	return h->count ? (double)(sr_sum_value(&h->sum) / (long double)h->count) : 0.0;
}

uint64_t sr_percentile_sorted(const uint64_t *sorted, size_t n, double p)
{
	if (!n)
		return 0;
	return sorted[rank_of(p, n) - 1];
}

unsigned int sr_seeds_rank(const double *v, unsigned int n, unsigned int *imin, unsigned int *imax)
{
	unsigned int med = 0;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int rank = 0;

		/* the runs before @i in (figure, index) order */
		for (unsigned int k = 0; k < n; k++)
			rank += v[k] < v[i] || (v[k] == v[i] && k < i);
		if (rank == 0 && imin)
			*imin = i;
		if (rank == n - 1 && imax)
			*imax = i;
		if (rank == (n - 1) / 2)
			med = i;
	}
	return med;
}

static void swap_u64(uint64_t *a, uint64_t *b)
{
	uint64_t t = *a;

	*a = *b;
	*b = t;
}

static void insertion_sort_u64(uint64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Move @v[i] down the max-heap @v[0..n). */
static void sift_down_u64(uint64_t *v, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			return;
		if (c + 1 < n && v[c + 1] > v[c])
			c++;
		if (v[i] >= v[c])
			return;
		swap_u64(&v[i], &v[c]);
		i = c;
	}
}

static void heap_sort_u64(uint64_t *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down_u64(v, i, n);
	for (size_t end = n; end > 1; end--) {
		swap_u64(&v[0], &v[end - 1]);
		sift_down_u64(v, 0, end - 1);
	}
}

#define SORT_SHORT 16      /* runs this short: insertion sort */

void sr_sort_u64(uint64_t *v, size_t n)
{
	unsigned int depth = 0;

	for (size_t m = n; m > 1; m >>= 1)
		depth += 2;
	/* quicksort the smaller part, loop on the larger: O(log n) stack */
	while (n > SORT_SHORT) {
		uint64_t pivot;
		size_t i, j;

		if (!depth--) {
			heap_sort_u64(v, n);
			return;
		}
		/* median of three into v[0]: v[n/2] <= v[0] <= v[n-1] */
		if (v[n / 2] > v[n - 1])
			swap_u64(&v[n / 2], &v[n - 1]);
		if (v[0] > v[n - 1])
			swap_u64(&v[0], &v[n - 1]);
		if (v[n / 2] > v[0])
			swap_u64(&v[n / 2], &v[0]);
		pivot = v[0];
		/* Hoare partition: v[1..j] <= pivot <= v[j+1..n) */
		i = 0;
		j = n;
		for (;;) {
			while (v[++i] < pivot)
				;
			while (v[--j] > pivot)
				;
			if (i >= j)
				break;
			swap_u64(&v[i], &v[j]);
		}
		swap_u64(&v[0], &v[j]);
		/* v[0..j) <= pivot = v[j] <= v[j+1..n) */
		if (j < n - j - 1) {
			sr_sort_u64(v, j);
			v += j + 1;
			n -= j + 1;
		} else {
			sr_sort_u64(v + j + 1, n - j - 1);
			n = j;
		}
	}
	insertion_sort_u64(v, n);
}
