// SPDX-License-Identifier: GPL-2.0
/* Percentiles: the nearest-rank definition and the histogram's error bound. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <schedreplay/stats.h>

static int failures;

#define EQ(what, got, want)                                                                \
	do {                                                                               \
		uint64_t g_ = (got), w_ = (want);                                          \
		if (g_ != w_) {                                                            \
			fprintf(stderr, "FAIL %s:%d: %s: got %" PRIu64 ", expected %" PRIu64 "\n", \
				__FILE__, __LINE__, what, g_, w_);                         \
			failures++;                                                        \
		}                                                                          \
	} while (0)

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

int main(void)
{
	static const uint64_t ten[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct sr_hist h, a, b;
	uint64_t lo, hi;

	/* nearest rank: rank ceil(p/100 * n) */
	EQ("p0 of 1..10", sr_percentile_sorted(ten, 10, 0), 1);
	EQ("p10 of 1..10", sr_percentile_sorted(ten, 10, 10), 1);
	EQ("p11 of 1..10", sr_percentile_sorted(ten, 10, 11), 2);
	EQ("p50 of 1..10", sr_percentile_sorted(ten, 10, 50), 5);
	EQ("p90 of 1..10", sr_percentile_sorted(ten, 10, 90), 9);
	EQ("p99 of 1..10", sr_percentile_sorted(ten, 10, 99), 10);
	EQ("p100 of 1..10", sr_percentile_sorted(ten, 10, 100), 10);
	EQ("p50 of nothing", sr_percentile_sorted(ten, 0, 50), 0);

	/* bucket layout: exact below 128, then 128 buckets per power of two */
	sr_hist_bucket_bounds(127, &lo, &hi);
	EQ("127 lo", lo, 127);
	EQ("127 hi", hi, 127);
	sr_hist_bucket_bounds(255, &lo, &hi);
	EQ("255 lo", lo, 255);
	EQ("255 hi", hi, 255);
	sr_hist_bucket_bounds(256, &lo, &hi);
	EQ("256 lo", lo, 256);
	EQ("256 hi", hi, 257);
	sr_hist_bucket_bounds(1003, &lo, &hi);
	EQ("1003 lo", lo, 1000);
	EQ("1003 hi", hi, 1003);
	sr_hist_bucket_bounds(UINT64_MAX, &lo, &hi);
	EQ("max hi", hi, UINT64_MAX);

	/* small values are exact: the histogram equals the definition */
	sr_hist_init(&h);
	for (int i = 0; i < 10; i++)
		sr_hist_add(&h, ten[i]);
	EQ("hist p50", sr_hist_percentile(&h, 50), 5);
	EQ("hist p90", sr_hist_percentile(&h, 90), 9);
	EQ("hist p99", sr_hist_percentile(&h, 99), 10);
	EQ("hist min", h.min, 1);
	EQ("hist max", h.max, 10);
	EQ("hist count", h.count, 10);
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
				failures++;
			}
			EQ("merged == whole", sr_hist_percentile(&a, p), g);
		}
		EQ("min exact", sr_hist_percentile(&h, 0), v[0]);
		EQ("max exact", sr_hist_percentile(&h, 100), v[n - 1]);
		EQ("merged count", a.count, n);
		free(v);
		sr_hist_release(&h);
		sr_hist_release(&a);
		sr_hist_release(&b);
	}
	if (!failures)
		printf("stats: all checks passed\n");
	return failures ? 1 : 0;
}
