/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency distributions in bounded memory, and their percentiles.
 *
 * Histogram (struct sr_hist): log-linear, as fio's and schbench's. Values are
 * nanoseconds. Below 128 ns every value has its own bucket (exact). Above,
 * each power of two [2^k, 2^(k+1)) is split into 128 equal buckets, so a
 * bucket [lo, lo + w) has w / lo <= 1/128. A percentile is reported as the
 * midpoint of its bucket, clamped to the exact minimum and maximum, which
 * bounds the relative error by 1/256 (0.39 %) -- and makes p0 and p100 exact.
 *
 * Two forms, one set of buckets. A histogram starts as a list: the bucket
 * (2 bytes) of each sample in ids[]. Once the list would take more memory
 * than the counters of the powers of two it has seen (512 bytes each, 128
 * 32-bit counters), it becomes dense: 128 counters per power of two in
 * group[], allocated when the power receives its first sample. Memory
 * therefore depends on the spread of the values, never on how many there
 * are: at most 58 x 512 bytes of counters (+ 58 pointers, + 32 bytes of
 * noted buckets). A task's distribution of a hundred samples spread over
 * fifteen powers of two takes 200 bytes instead of 7.5 KiB: the report of
 * a short trace touched 700 KiB of counters, 40 % of its page faults.
 *
 * Batched counting (dense form). A task's counters are spread over
 * kilobytes, so counting one sample is a cache miss, and the latency machine
 * counts each sample in three or four histograms. sr_hist_add() therefore
 * notes the sample's bucket in ids[] and counts SR_HIST_PEND noted buckets
 * in group[] in one go, where the misses overlap.
 *
 * Settling: sr_hist_settle() counts the noted buckets (dense) or sorts the
 * list, and settling a settled histogram writes nothing, so that threads
 * sharing a settled histogram only read it. Every function below settles
 * first; code that walks the buckets itself uses sr_hist_next_bucket(), after
 * sr_hist_settle(). count, min, max and sum are always current.
 *
 * Percentile definition (nearest rank): the p-th percentile of n samples is
 * the smallest sample x such that at least p % of the samples are <= x, that
 * is the sample of rank ceil(p / 100 * n) (rank 1 for p = 0) in ascending
 * order. sr_percentile_sorted() computes it exactly on a sorted array;
 * sr_hist_percentile() returns the bucket of that same sample.
 *
 * Also here: struct sr_sum (a histogram's sum of values, as the long double
 * sum of them) and sr_seeds_rank() (the median and extreme runs of the model
 * seeds of validate and whatif --seeds).
 */
#ifndef SCHEDREPLAY_STATS_H
#define SCHEDREPLAY_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SR_HIST_SUB_BITS 7
#define SR_HIST_SUB (1u << SR_HIST_SUB_BITS)       /* buckets per power of two */
#define SR_HIST_GROUPS (64 - SR_HIST_SUB_BITS + 1)  /* group 0: exact values < 128 */
#define SR_HIST_PEND 16                             /* dense: buckets noted, not yet counted */

/*
 * A sum of values (ns) as a long double sum of them in their order gives it:
 * exact in @sum while it fits in 64 bits, as the long double sum is (a long
 * double holds every integer below 2^64); once a value carries it past that,
 * @big is set and the sum continues, rounded, in @ld. So the result is that
 * of the long double sum throughout, with an integer add per value instead
 * of an x87 load, add and store. Once @big, @sum stays UINT64_MAX, so that
 * every value but 0 (which changes no long double sum) overflows it and the
 * add needs no other field; @ld is bytes, so that the struct is 8-aligned
 * and @sum can share a cache line with the histogram's other fields.
 */
struct sr_sum {
	uint64_t sum;
	bool big;
	unsigned char ld[sizeof(long double)];
};

/* The sum past 2^64 - 1: @v was added to @s->sum with wrap-around already. */
void sr_sum_big(struct sr_sum *s, uint64_t v);

static inline void sr_sum_add(struct sr_sum *s, uint64_t v)
{
	if (__builtin_expect(__builtin_add_overflow(s->sum, v, &s->sum), 0))
		sr_sum_big(s, v);
}

static inline long double sr_sum_value(const struct sr_sum *s)
{
	long double ld;

	if (!s->big)
		return (long double)s->sum;
	memcpy(&ld, s->ld, sizeof(ld));
	return ld;
}

/* @dst += @src, as the long double sum of both parts. */
void sr_sum_merge(struct sr_sum *dst, const struct sr_sum *src);

/* What sr_hist_add() reads and writes comes first: the first 64 bytes. */
struct sr_hist {
	uint64_t count;
	uint64_t min, max;             /* exact; valid if count > 0 */
	uint64_t have;                 /* bit g: a sample in group g (list), group[g] (dense) */
	/* (g << SR_HIST_SUB_BITS) | bucket: every sample (list), noted ones (dense) */
	uint16_t *ids;
	uint32_t nids, ids_cap;
	bool saturated;                /* a bucket reached UINT32_MAX */
	bool dense;                    /* counters in group[]; else the list in ids[] */
	bool sorted;                   /* list: ids[] ascending */
	struct sr_sum sum;             /* for the mean */
	uint32_t **group;              /* dense: [SR_HIST_GROUPS], group[g] if bit g of have */
};

/* The percentiles every report shows, in this order. */
#define SR_NR_STD_PCT 7
extern const double sr_std_pct[SR_NR_STD_PCT];        /* 50 75 90 95 99 99.5 99.9 */
extern const char *const sr_std_pct_key[SR_NR_STD_PCT]; /* "p50" ... "p99_9" */

void sr_hist_init(struct sr_hist *h);
/* Free the counters; the struct can be reused after sr_hist_init(). */
void sr_hist_release(struct sr_hist *h);
/*
 * Value @v's bucket: group @g (the power of two; 0 for v < 128) and bucket
 * @b in it. Group 0 holds values 0..127 one per bucket. For v >= 128 with
 * k = floor(log2 v), group g = k - 6 holds [2^k, 2^(k+1)) in 128 buckets of
 * width 2^(k-7): bucket (v >> (k - 7)) - 128.
 */
static inline void sr_hist_locate(uint64_t v, unsigned *g, unsigned *b)
{
	unsigned shift;

	if (v < SR_HIST_SUB) {
		*g = 0;
		*b = (unsigned)v;
		return;
	}
	shift = 63u - (unsigned)__builtin_clzll(v) - SR_HIST_SUB_BITS;
	*g = shift + 1;
	*b = (unsigned)(v >> shift) - SR_HIST_SUB;
}

/* count, min, max and sum of sr_hist_add(h, v) */
static inline void sr_hist_add_value(struct sr_hist *h, uint64_t v)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (!h->count || v > h->max)
		h->max = v;
	h->count++;
	sr_sum_add(&h->sum, v);
}

/* sr_hist_add() when a list must grow or a group's counters be allocated. */
int sr_hist_add_grow(struct sr_hist *h, uint64_t v);

/*
 * Add one value (ns). Returns -1 only if memory runs out. Inline while
 * there is room to note the bucket (nearly always): the latency machine adds
 * each sample to three histograms, and the calls were a quarter of their cost.
 */
static inline int sr_hist_add(struct sr_hist *h, uint64_t v)
{
	unsigned g, b;

	sr_hist_locate(v, &g, &b);
	if (h->nids >= h->ids_cap || (h->dense && !(h->have >> g & 1)))
		return sr_hist_add_grow(h, v);
	if (!h->dense) {
		h->have |= 1ull << g;
		h->sorted = false;
	}
	h->ids[h->nids++] = (uint16_t)(g << SR_HIST_SUB_BITS | b);
	sr_hist_add_value(h, v);
	return 0;
}
/*
 * Count the noted buckets in group[], or sort the list (see Settling). It
 * changes how *h is stored, not what it describes, hence const; not
 * concurrently with another call on the same histogram (the functions below
 * call it).
 */
void sr_hist_settle(const struct sr_hist *h);
/* dst += src. Returns -1 only if memory runs out. */
int sr_hist_merge(struct sr_hist *dst, const struct sr_hist *src);

/* Nearest-rank percentile (0 <= p <= 100); 0 if empty. */
uint64_t sr_hist_percentile(const struct sr_hist *h, double p);
/*
 * Several percentiles in one pass; @p ascending. @below[i] (may be NULL) gets
 * the number of samples in buckets up to the one of @out[i], which the text
 * report prints per line as schbench does.
 */
void sr_hist_percentiles(const struct sr_hist *h, const double *p, size_t n, uint64_t *out,
			 uint64_t *below);
double sr_hist_mean(const struct sr_hist *h);

/* Exact nearest-rank percentile of @n ascending samples; 0 if n == 0. */
uint64_t sr_percentile_sorted(const uint64_t *sorted, size_t n, double p);

/*
 * The distribution S of the JSON reports (report, replay, whatif: one
 * definition, docs/report.md): {"samples", "min", "p50", "p75", "p90", "p95",
 * "p99", "p99_5", "p99_9", "max", "mean"} in microseconds, null values when
 * there are no samples.  A new jansson object (stats_json.c), NULL if out of
 * memory.
 */
struct json_t;
struct json_t *sr_hist_json(const struct sr_hist *h);

/*
 * The non-empty buckets in ascending order, of a settled histogram: *@pos = 0
 * before the first call; true while a bucket was stored in *@out.
 */
struct sr_hist_bucket {
	uint64_t lo, hi;               /* the values it holds, inclusive */
	uint64_t count;
};
bool sr_hist_next_bucket(const struct sr_hist *h, size_t *pos, struct sr_hist_bucket *out);
/*
 * The value that stands for bucket @bk of @h: the one sr_hist_percentile()
 * returns for a rank in it (its middle, clamped to the histogram's min and
 * max; the first and last ranks return the exact min and max instead).
 * Non-decreasing over the buckets in order.
 */
uint64_t sr_hist_bucket_value(const struct sr_hist *h, const struct sr_hist_bucket *bk);

/*
 * Rank statistics over a handful of runs (the model seeds of `validate` and
 * `whatif --seeds`): the runs ordered by figure @v[0..n), ties by run index.
 * Returns the index of the median run (rank (n - 1) / 2: the lower middle one
 * for an even n, so the median is a figure one run produced) and stores the
 * indices of ranks 0 and n - 1 in *@imin and *@imax (either may be NULL).
 * n >= 1; no NaN in @v.
 */
unsigned int sr_seeds_rank(const double *v, unsigned int n, unsigned int *imin, unsigned int *imax);

/*
 * Sort @v[0..n) ascending, in place: the order qsort() with a u64 comparison
 * gives (values have no identity, so any correct sort gives the same array),
 * without its indirect call per comparison nor its merge buffer: an
 * introsort (median-of-three quicksort, insertion sort of short runs,
 * heapsort past 2 log2 n levels), no allocation.
 */
void sr_sort_u64(uint64_t *v, size_t n);

/* Bucket bounds of value @v: [*lo, *hi]. Exposed for tests. */
void sr_hist_bucket_bounds(uint64_t v, uint64_t *lo, uint64_t *hi);

#endif /* SCHEDREPLAY_STATS_H */
