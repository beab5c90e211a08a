/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny closed-loop driver of the model for the variant tests: a make -j
 * like group of CPU hogs and a latency-probe group of short periodic tasks,
 * on a few CPUs, every task on a fixed home CPU, ticks at HZ on busy CPUs,
 * no mechanical costs.  It is NOT the replay (replay/ replays a trace with
 * causality and calibrated costs); it exists so that each variant's
 * mechanism can be pinned on the model alone, with exact inputs, whatever
 * the state of the traces.
 */
#ifndef SCHEDREPLAY_TESTS_VARIANTS_MINISIM_H
#define SCHEDREPLAY_TESTS_VARIANTS_MINISIM_H

#include <stdint.h>
#include <stdlib.h>

#include <schedreplay/model.h>

struct minisim_cfg {
	const char *profile;          /* "6.5", "6.18", ... */
	const char *variants;         /* "aaron-skip,no-tg-ratelimit" */
	const struct model_variant_set *set; /* instead of @variants if not NULL */
	unsigned int nr_cpus;
	unsigned int nr_nodes;        /* CPUs split in contiguous blocks */
	unsigned int nr_hogs;         /* in /build */
	unsigned int nr_probes;       /* in /probe */
	uint64_t hog_run_min, hog_run_max;     /* ns */
	uint64_t hog_sleep_min, hog_sleep_max; /* ns */
	uint64_t probe_period, probe_run;      /* ns */
	unsigned int hog_migrate_pct; /* a hog wakes on another CPU this often (0..100) */
	bool nested;                  /* /sr/build and /sr/probe (else /build, /probe) */
	/*
	 * schbench-like probes: every probe_fanout-th probe is a message
	 * thread (periodic); when its burst ends it wakes the next
	 * probe_fanout - 1 probes (workers), which otherwise sleep.  0: every
	 * probe is periodic on its own.
	 */
	unsigned int probe_fanout;
	bool probe_spread;            /* probes on CPUs (i % nr_cpus) from 0, not after the hogs */
	bool probe_root;              /* probes in the root group, not a cgroup */
	uint64_t duration;            /* ns */
	/*
	 * Tasks of the probe group that behave like the hogs (a latency
	 * service that is also busy), on CPUs counted down from the last one.
	 */
	unsigned int nr_probe_hogs;
	/* the probe tasks all on CPU 0 and the probe-group hogs all on the
	 * last CPU: the latency group busy only where the probes are not */
	bool probe_split;
	unsigned int build_shares, probe_shares;  /* cpu.shares; 0: 1024 */
	/* called before each probe wakeup (investigations; may be NULL) */
	void (*on_probe_wake)(void *ctx, struct model *m, struct model_task *t, int cpu);
	/* ... and right after it: the enqueue and the preemption check are done */
	void (*on_probe_woken)(void *ctx, struct model *m, struct model_task *t, int cpu);
	void *ctx;
	uint64_t seed;
};

struct minisim_result {
	uint64_t *probe_lat;          /* sorted ns, malloc'd */
	size_t nr_probe_lat;
	uint64_t *hog_lat;
	size_t nr_hog_lat;
	uint64_t busy_ns;             /* summed over CPUs */
	struct model *m;              /* for counters; free with minisim_result_free */
};

static inline uint64_t minisim_rnd(uint64_t *s)
{
	/* xorshift64*: deterministic, seeded */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static inline uint64_t minisim_uniform(uint64_t *s, uint64_t lo, uint64_t hi)
{
	return hi > lo ? lo + minisim_rnd(s) % (hi - lo + 1) : lo;
}

static inline int minisim_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* nearest rank */
static inline uint64_t minisim_pct(const uint64_t *v, size_t n, double p)
{
	size_t k = (size_t)(p * (double)n + 0.999999999);

	if (!n)
		return 0;
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

static inline uint64_t minisim_counter(const struct minisim_result *r, const char *name)
{
	uint64_t v = 0;

	model_counter_get(r->m, name, &v);
	return v;
}

void minisim_result_free(struct minisim_result *r);
/* 0 on success; -1 with @err on a model error. */
int minisim_run(const struct minisim_cfg *cfg, struct minisim_result *r, struct sr_error *err);

#endif
