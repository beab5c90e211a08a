// SPDX-License-Identifier: GPL-2.0
/* Percentiles: the nearest-rank definition and the histogram's error bound. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/stats.h>

#include "../common/check.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* xorshift64*: reproducible values without libc's rand() */
static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

/*
 * sr_sort_u64(): the array qsort() gives, on the shapes that take its
 * different paths: empty, one, short (insertion sort only), sorted,
 * reversed, all equal, few distinct values (hackbench's pair keys: long runs
 * of one key), a saw-tooth that defeats median-of-three (heapsort past the
 * depth limit), the extremes 0 and UINT64_MAX, and random.
 */
static void test_sort_u64(void)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 15, 16, 17, 100, 1000, 40000 };

	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t n = sizes[si];

		for (int shape = 0; shape < 7; shape++) {
			uint64_t *a = malloc((n ? n : 1) * sizeof(*a));
			uint64_t *b = malloc((n ? n : 1) * sizeof(*b));
			char what[96];

			if (!a || !b) {
				fprintf(stderr, "out of memory\n");
				exit(1);
			}
			for (size_t i = 0; i < n; i++) {
				switch (shape) {
				case 0: a[i] = rng(); break;
				case 1: a[i] = i; break;
				case 2: a[i] = n - i; break;
				case 3: a[i] = 42; break;
				case 4: a[i] = (uint64_t)(rng() % 5) << 32 | (rng() % 3); break;
				case 5: a[i] = i % 2 ? i : n - i; break;
				default: a[i] = rng() % 3 ? (rng() % 2 ? UINT64_MAX : 0) : rng(); break;
				}
			}
			memcpy(b, a, n * sizeof(*a));
			if (n)
				qsort(b, n, sizeof(*b), cmp_u64);
			sr_sort_u64(a, n);
			snprintf(what, sizeof(what), "sr_sort_u64: %zu values, shape %d, as qsort()",
				 n, shape);
			CHECK_EQ_U_AS(what, (unsigned long long)!memcmp(a, b, n * sizeof(*a)), 1);
			free(a);
			free(b);
		}
	}
}

/*
 * Two forms (stats.h): a list of buckets until it would outgrow the counters
 * of the powers of two it has seen, then counters. Both give the same
 * buckets, percentiles and "below" counts.
 */
static void check_buckets(const char *what, const struct sr_hist *h)
{
	struct sr_hist_bucket bk;
	uint64_t total = 0, prev_hi = 0, first_lo = 0;
	size_t pos = 0;
	bool first = true;

	sr_hist_settle(h);
	while (sr_hist_next_bucket(h, &pos, &bk)) {
		if (!bk.count || bk.hi < bk.lo || (!first && bk.lo <= prev_hi)) {
			fprintf(stderr, "FAIL %s: bucket [%" PRIu64 ", %" PRIu64 "] x %" PRIu64
				" after one ending at %" PRIu64 "\n", what, bk.lo, bk.hi, bk.count,
				prev_hi);
			check_failures++;
		}
		if (first)
			first_lo = bk.lo;
		first = false;
		prev_hi = bk.hi;
		total += bk.count;
	}
	CHECK_EQ_U_AS(what, total, h->count);
	if (h->count) {
		CHECK_EQ_U_AS("the first bucket holds min", first_lo <= h->min && sr_hist_percentile(h, 0) ==
		   h->min, 1);
		CHECK_EQ_U_AS("the last bucket holds max", h->max <= prev_hi, 1);
	}
}

static void test_forms(void)
{
	struct sr_hist l, d, e;
	uint64_t pl[SR_NR_STD_PCT], pd[SR_NR_STD_PCT], bl[SR_NR_STD_PCT], bd[SR_NR_STD_PCT];

	/* one power of two [1024, 2048): 256 samples are a list, the 257th makes counters */
	sr_hist_init(&l);
	for (int i = 0; i < 256; i++)
		sr_hist_add(&l, 1024 + (uint64_t)(i * 7 % 1024));
	CHECK_EQ_U_AS("256 samples in one group: list", l.dense, 0);
	CHECK_EQ_U_AS("list within one group's counters", l.ids_cap * sizeof(uint16_t) <= 512, 1);
	sr_hist_add(&l, 1500);
	CHECK_EQ_U_AS("257 samples in one group: dense", l.dense, 1);
	check_buckets("dense after conversion", &l);
	CHECK_EQ_U_AS("count after conversion", l.count, 257);
	sr_hist_release(&l);

	/* random spreads: the list of each size against the same samples as counters */
	for (int round = 0; round < 200; round++) {
		size_t n = 1 + rng() % (round < 100 ? 300 : 6000);
		unsigned span = 1 + rng() % 34;

		sr_hist_init(&l);
		sr_hist_init(&d);
		sr_hist_init(&e);
		for (size_t i = 0; i < n; i++) {
			uint64_t v = rng() % (1ull << span);

			sr_hist_add(&l, v);
			/* the list never takes more than the counters it stands for */
			if (!l.dense && (uint64_t)l.ids_cap * sizeof(uint16_t) >
			    (uint64_t)__builtin_popcountll(l.have) * SR_HIST_SUB * sizeof(uint32_t) &&
			    l.ids_cap > 8) {
				fprintf(stderr, "FAIL: list of %u ids for %d groups\n", l.ids_cap,
					__builtin_popcountll(l.have));
				check_failures++;
			}
		}
		sr_hist_merge(&d, &l);          /* counters */
		CHECK_EQ_U_AS("merge makes counters", d.dense, 1);
		check_buckets("list", &l);
		check_buckets("dense", &d);
		sr_hist_percentiles(&l, sr_std_pct, SR_NR_STD_PCT, pl, bl);
		sr_hist_percentiles(&d, sr_std_pct, SR_NR_STD_PCT, pd, bd);
		for (int i = 0; i < SR_NR_STD_PCT; i++) {
			CHECK_EQ_U_AS("list p == dense p", pl[i], pd[i]);
			CHECK_EQ_U_AS("list below == dense below", bl[i], bd[i]);
		}
		/* settling a settled histogram writes nothing */
		if (!l.dense && l.nids) {
			uint16_t *copy = malloc(l.nids * sizeof(*copy));

			memcpy(copy, l.ids, l.nids * sizeof(*copy));
			e = l;
			sr_hist_settle(&l);
			CHECK_EQ_U_AS("settled twice: same list", e.ids == l.ids && e.nids == l.nids &&
			   e.ids_cap == l.ids_cap && e.sorted == l.sorted, 1);
			CHECK_EQ_U_AS("settled twice: same ids", memcmp(copy, l.ids, l.nids * sizeof(*copy)), 0);
			for (uint32_t i = 1; i < l.nids; i++)
				if (l.ids[i - 1] > l.ids[i]) {
					fprintf(stderr, "FAIL: settled list not ascending at %u\n", i);
					check_failures++;
					break;
				}
			free(copy);
			sr_hist_init(&e);
		}
		/* adding after settling: still the same distribution as the counters */
		sr_hist_add(&l, 77);
		sr_hist_add(&d, 77);
		sr_hist_percentiles(&l, sr_std_pct, SR_NR_STD_PCT, pl, bl);
		sr_hist_percentiles(&d, sr_std_pct, SR_NR_STD_PCT, pd, bd);
		for (int i = 0; i < SR_NR_STD_PCT; i++)
			CHECK_EQ_U_AS("after one more: list p == dense p", pl[i], pd[i]);
		sr_hist_release(&l);
		sr_hist_release(&d);
		sr_hist_release(&e);
	}
}

/*
 * The mean is that of a long double sum of the values in the order they came
 * (struct sr_sum: an integer sum until 2^64, then long double): below,
 * across and far above 2^64, added one by one and merged. The reference is
 * the long double sum itself; the means must be equal, not close.
 */
static void test_sum(void)
{
	static const uint64_t big[] = { UINT64_MAX / 3, UINT64_MAX / 3, UINT64_MAX / 3 + 7,
					1, 12345, UINT64_MAX, 3, UINT64_MAX - 1, 999999937, 0 };
	const size_t nb = sizeof(big) / sizeof(big[0]);

	for (int round = 0; round < 200; round++) {
		struct sr_hist h, a, b;
		long double ref = 0, ref_a = 0, ref_b = 0;
		size_t n = 1 + rng() % 40;

		sr_hist_init(&h);
		sr_hist_init(&a);
		sr_hist_init(&b);
		for (size_t i = 0; i < n; i++) {
			/* mostly huge values, so that most rounds pass 2^64 at some point */
			uint64_t v = round % 4 == 0 ? rng() % 1000000 : rng() % 3 ? big[rng() % nb] :
				rng();

			sr_hist_add(&h, v);
			ref += v;
			sr_hist_add(i < n / 2 ? &a : &b, v);
			*(i < n / 2 ? &ref_a : &ref_b) += v;
		}
		CHECK_EQ_U_AS("mean of the long double sum", sr_hist_mean(&h) == (double)(ref / n), 1);
		sr_hist_merge(&a, &b);
		CHECK_EQ_U_AS("merged mean: a's sum + b's sum in long double",
			      sr_hist_mean(&a) == (double)((ref_a + ref_b) / n), 1);
		if (round % 4 == 0)
			CHECK_EQ_U_AS("small values: the integer sum", h.sum.big, 0);
		sr_hist_release(&h);
		sr_hist_release(&a);
		sr_hist_release(&b);
	}
}

/*
 * sr_seeds_rank(): runs ordered by figure, ties by run index; the median is
 * rank (n - 1) / 2.  Exact indices, ties included.
 */
static void test_seeds_rank(void)
{
	static const double tie5[] = { 7, 5, 5, 9, 5 };    /* ranks: 3 0 1 4 2 */
	static const double tie4[] = { 2, 1, 2, 1 };       /* ranks: 2 0 3 1 */
	static const double one[] = { 3.5 };
	unsigned int lo = 99, hi = 99;

	CHECK_EQ_U_AS("5 runs, three tie at the median: the last of them by index",
		      sr_seeds_rank(tie5, 5, &lo, &hi), 4);
	CHECK_EQ_U_AS("5 runs: the minimum is the first of the ties", lo, 1);
	CHECK_EQ_U_AS("5 runs: the maximum", hi, 3);
	CHECK_EQ_U_AS("4 runs: the lower middle, the second 1", sr_seeds_rank(tie4, 4, &lo, &hi), 3);
	CHECK_EQ_U_AS("4 runs: min, the first 1", lo, 1);
	CHECK_EQ_U_AS("4 runs: max, the last 2", hi, 2);
	CHECK_EQ_U_AS("one run", sr_seeds_rank(one, 1, &lo, &hi), 0);
	CHECK_EQ_U_AS("one run: min", lo, 0);
	CHECK_EQ_U_AS("one run: max", hi, 0);
	CHECK_EQ_U_AS("NULL min and max: 7 5 5, the second 5", sr_seeds_rank(tie5, 3, NULL, NULL), 2);
}

/*
 * sr_hist_percentiles() fills exactly @n outputs: of 1..10 (exact buckets)
 * p50, p90, p99 are the ranks 5, 9, 10 (nearest rank), each with as many
 * samples at or below it; the entry after the last is left alone.
 */
static void test_percentiles_bounds(void)
{
	const double p[3] = { 50, 90, 99 };
	uint64_t out[4] = { 0, 0, 0, 0xdeadbeef }, below[4] = { 0, 0, 0, 0xfeed };
	struct sr_hist h;

	sr_hist_init(&h);
	for (uint64_t v = 1; v <= 10; v++)
		sr_hist_add(&h, v);
	sr_hist_percentiles(&h, p, 3, out, below);
	CHECK_EQ_U_AS("p50", out[0], 5);
	CHECK_EQ_U_AS("p90", out[1], 9);
	CHECK_EQ_U_AS("p99", out[2], 10);
	CHECK_EQ_U_AS("below p50", below[0], 5);
	CHECK_EQ_U_AS("below p90", below[1], 9);
	CHECK_EQ_U_AS("below p99", below[2], 10);
	CHECK_EQ_U_AS("out[n] untouched", out[3], 0xdeadbeef);
	CHECK_EQ_U_AS("below[n] untouched", below[3], 0xfeed);
	sr_hist_release(&h);
}

int main(void)
{
	test_percentiles_bounds();
	static const uint64_t ten[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct sr_hist h, a, b;
	uint64_t lo, hi;

	/* nearest rank: rank ceil(p/100 * n) */
	CHECK_EQ_U_AS("p0 of 1..10", sr_percentile_sorted(ten, 10, 0), 1);
	CHECK_EQ_U_AS("p10 of 1..10", sr_percentile_sorted(ten, 10, 10), 1);
	CHECK_EQ_U_AS("p11 of 1..10", sr_percentile_sorted(ten, 10, 11), 2);
	CHECK_EQ_U_AS("p50 of 1..10", sr_percentile_sorted(ten, 10, 50), 5);
	CHECK_EQ_U_AS("p90 of 1..10", sr_percentile_sorted(ten, 10, 90), 9);
	CHECK_EQ_U_AS("p99 of 1..10", sr_percentile_sorted(ten, 10, 99), 10);
	CHECK_EQ_U_AS("p100 of 1..10", sr_percentile_sorted(ten, 10, 100), 10);
	CHECK_EQ_U_AS("p50 of nothing", sr_percentile_sorted(ten, 0, 50), 0);

	/* bucket layout: exact below 128, then 128 buckets per power of two */
	sr_hist_bucket_bounds(127, &lo, &hi);
	CHECK_EQ_U_AS("127 lo", lo, 127);
	CHECK_EQ_U_AS("127 hi", hi, 127);
	sr_hist_bucket_bounds(255, &lo, &hi);
	CHECK_EQ_U_AS("255 lo", lo, 255);
	CHECK_EQ_U_AS("255 hi", hi, 255);
	sr_hist_bucket_bounds(256, &lo, &hi);
	CHECK_EQ_U_AS("256 lo", lo, 256);
	CHECK_EQ_U_AS("256 hi", hi, 257);
	sr_hist_bucket_bounds(1003, &lo, &hi);
	CHECK_EQ_U_AS("1003 lo", lo, 1000);
	CHECK_EQ_U_AS("1003 hi", hi, 1003);
	sr_hist_bucket_bounds(UINT64_MAX, &lo, &hi);
	CHECK_EQ_U_AS("max hi", hi, UINT64_MAX);

	/* small values are exact: the histogram equals the definition */
	sr_hist_init(&h);
	for (int i = 0; i < 10; i++)
		sr_hist_add(&h, ten[i]);
	CHECK_EQ_U_AS("hist p50", sr_hist_percentile(&h, 50), 5);
	CHECK_EQ_U_AS("hist p90", sr_hist_percentile(&h, 90), 9);
	CHECK_EQ_U_AS("hist p99", sr_hist_percentile(&h, 99), 10);
	CHECK_EQ_U_AS("hist min", h.min, 1);
	CHECK_EQ_U_AS("hist max", h.max, 10);
	CHECK_EQ_U_AS("hist count", h.count, 10);
	sr_hist_release(&h);

	/* random spreads from 1 ns to 2^40 ns: error <= value / 256; min, max exact */
	for (int round = 0; round < 20; round++) {
		size_t n = 1 + rng() % 20000;
		uint64_t *v = malloc(n * sizeof(*v));
		unsigned span = 1 + rng() % 40;

		sr_hist_init(&h);
		sr_hist_init(&a);
		sr_hist_init(&b);
		for (size_t i = 0; i < n; i++) {
			v[i] = rng() % (1ull << span);
			sr_hist_add(&h, v[i]);
			sr_hist_add(i & 1 ? &a : &b, v[i]);
		}
		sr_hist_merge(&a, &b);
		qsort(v, n, sizeof(*v), cmp_u64);
		for (double p = 0; p <= 100; p += 0.5) {
			uint64_t e = sr_percentile_sorted(v, n, p), g = sr_hist_percentile(&h, p);
			uint64_t err = g > e ? g - e : e - g;

			if (err * 256 > e) {
				fprintf(stderr, "FAIL: n %zu p%.1f: histogram %" PRIu64 ", exact %" PRIu64
					", error above 1/256\n", n, p, g, e);
				check_failures++;
			}
			CHECK_EQ_U_AS("merged == whole", sr_hist_percentile(&a, p), g);
		}
		CHECK_EQ_U_AS("min exact", sr_hist_percentile(&h, 0), v[0]);
		CHECK_EQ_U_AS("max exact", sr_hist_percentile(&h, 100), v[n - 1]);
		CHECK_EQ_U_AS("merged count", a.count, n);
		free(v);
		sr_hist_release(&h);
		sr_hist_release(&a);
		sr_hist_release(&b);
	}
	test_forms();
	test_sum();
	test_seeds_rank();
	test_sort_u64();
	if (!check_failures)
		printf("stats: all checks passed\n");
	return check_failures ? 1 : 0;
}
