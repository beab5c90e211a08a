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
 * Group g = 0 holds values 0..127 one per bucket. For v >= 128 with
 * k = floor(log2 v), group g = k - 6 holds [2^k, 2^(k+1)) in 128 buckets of
 * width 2^(k-7): bucket (v >> (k - 7)) - 128.
 */
static inline void locate(uint64_t v, unsigned *g, unsigned *b)
{
	unsigned k, shift;

	if (v < SR_HIST_SUB) {
		*g = 0;
		*b = (unsigned)v;
		return;
	}
	k = 63u - (unsigned)__builtin_clzll(v);
	shift = k - SR_HIST_SUB_BITS;
	*g = shift + 1;
	*b = (unsigned)(v >> shift) - SR_HIST_SUB;
}

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

	locate(v, &g, &b);
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
	for (unsigned g = 0; g < SR_HIST_GROUPS; g++)
		free(h->group[g]);
	memset(h, 0, sizeof(*h));
}

static int alloc_group(struct sr_hist *h, unsigned g)
{
	if (h->have >> g & 1)
		return 0;
	if (!(h->group[g] = calloc(SR_HIST_SUB, sizeof(*h->group[g]))))
		return -1;
	h->have |= 1ull << g;
	return 0;
}

static void count_n(struct sr_hist *h, unsigned g, unsigned b, uint64_t n)
{
	uint32_t *grp = h->group[g];

	if (n > UINT32_MAX - grp[b]) {
		grp[b] = UINT32_MAX;
		h->saturated = true;
	} else {
		grp[b] += (uint32_t)n;
	}
}

static int add_n(struct sr_hist *h, unsigned g, unsigned b, uint64_t n)
{
	if (alloc_group(h, g))
		return -1;
	count_n(h, g, b, n);
	return 0;
}

void sr_hist_settle(const struct sr_hist *ch)
{
	/* no histogram is defined const: the cast changes representation only */
	struct sr_hist *h = (struct sr_hist *)ch;

	if (!h->npend)
		return;   /* settled: concurrent readers of a settled histogram only read */
	for (unsigned i = 0; i < h->npend; i++) {
		unsigned p = h->pend[i];

		count_n(h, p >> SR_HIST_SUB_BITS, p & (SR_HIST_SUB - 1), 1);
	}
	h->npend = 0;
}

int sr_hist_add(struct sr_hist *h, uint64_t v)
{
	unsigned g, b;

	locate(v, &g, &b);
	/* its counters exist before it is noted: settling cannot fail */
	if (alloc_group(h, g))
		return -1;
	if (h->npend == SR_HIST_PEND)
		sr_hist_settle(h);
	h->pend[h->npend++] = (uint16_t)(g << SR_HIST_SUB_BITS | b);
	if (!h->count || v < h->min)
		h->min = v;
	if (!h->count || v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
	return 0;
}

int sr_hist_merge(struct sr_hist *dst, const struct sr_hist *src)
{
	if (!src->count)
		return 0;
	sr_hist_settle(src);
	sr_hist_settle(dst);
	for (unsigned g = 0; g < SR_HIST_GROUPS; g++) {
		if (!src->group[g])
			continue;
		for (unsigned b = 0; b < SR_HIST_SUB; b++)
			if (src->group[g][b] && add_n(dst, g, b, src->group[g][b]))
				return -1;
	}
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (!dst->count || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
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
	uint64_t cum = 0;
	size_t i = 0;

	sr_hist_settle(h);
	if (!h->count) {
		for (size_t j = 0; j < n; j++) {
			out[j] = 0;
			if (below)
				below[j] = 0;
		}
		return;
	}
	for (unsigned g = 0; g < SR_HIST_GROUPS && i < n; g++) {
		if (!h->group[g])
			continue;
		for (unsigned b = 0; b < SR_HIST_SUB && i < n; b++) {
			uint64_t lo, hi, mid;

			if (!h->group[g][b])
				continue;
			cum += h->group[g][b];
			while (i < n && cum >= rank_of(p[i], h->count)) {
				uint64_t rank = rank_of(p[i], h->count);

				bounds(g, b, &lo, &hi);
				mid = lo + (hi - lo + 1) / 2;
				if (g == 0)
					mid = lo;
				if (mid < h->min)
					mid = h->min;
				if (mid > h->max)
					mid = h->max;
				/* the first and last ranks are the exact extremes */
				if (rank == 1)
					mid = h->min;
				if (rank == h->count)
					mid = h->max;
				out[i] = mid;
				if (below)
					below[i] = cum;
				i++;
			}
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
	return h->count ? (double)(h->sum / (long double)h->count) : 0.0;
}

uint64_t sr_percentile_sorted(const uint64_t *sorted, size_t n, double p)
{
	if (!n)
		return 0;
	return sorted[rank_of(p, n) - 1];
}
