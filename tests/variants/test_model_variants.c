// SPDX-License-Identifier: GPL-2.0
/*
 * The variants' mechanisms on the model alone (the closed-loop driver of
 * minisim.h: a make -j like group of hogs and a probe group, 2 or 4 CPUs),
 * for the CFS profile the seed measured (6.5) and the capture kernel's
 * (6.18):
 *
 *   - update_cfs_group calls fall under aaron-skip, further under
 *     cfs-group-no-dequeue, further under cfs-group-tick-only; the calls a
 *     variant removed are counted as skipped; base skips none;
 *   - a plugin hook and flags are the same thing: the example plugin's
 *     example-top-level-skip equals cfs-group-tick-only counter for counter
 *     in a one-level hierarchy (every group entity is at depth 0);
 *   - a JSON variant's flags equal the composition of the registered
 *     variants with those flags ("cfs-group-tick-only,aaron-node");
 *   - the tg rate limit: tg-ratelimit writes tg->load_avg less often than
 *     6.5's base; no-tg-ratelimit more often than 6.18's base;
 *   - aaron-node changes nothing but the accounting: identical counters and
 *     latencies, writes split per node, one read per node;
 *   - no-decay-first-enqueue differs from the v4.8 attach path it was
 *     written against only in a new task's first load: 1024 vs 1002, and
 *     nothing at all in a run without forks.
 *
 * usage: test_variants_model DATA_DIR EXAMPLE_PLUGIN.so
 */
#include <inttypes.h>

#include <schedreplay/whatif.h>

#include "check.h"
#include "minisim.h"

static struct minisim_cfg base_cfg(const char *profile, const char *variants)
{
	return (struct minisim_cfg){
		.profile = profile, .variants = variants,
		.nr_cpus = 2, .nr_nodes = 1, .nr_hogs = 8, .nr_probes = 4,
		.hog_run_min = 1000000, .hog_run_max = 8000000,
		.hog_sleep_min = 50000, .hog_sleep_max = 500000,
		.probe_period = 1000000, .probe_run = 100000,
		.hog_migrate_pct = 30,
		.duration = 3000000000ull, .seed = 42,
	};
}

static int run(const struct minisim_cfg *c, struct minisim_result *r)
{
	struct sr_error err = { 0 };

	if (minisim_run(c, r, &err) < 0) {
		fprintf(stderr, "minisim (%s, %s): %s\n", c->profile,
			c->set ? c->set->name : c->variants, err.msg);
		check_failures++;
		return -1;
	}
	return 0;
}

/* Every counter of @a equals @b's, except names starting with @except. */
static void check_same_counters(const struct minisim_result *a, const struct minisim_result *b,
				const char *except, const char *what)
{
	unsigned int it = 0;
	const char *name;
	uint64_t va, vb;

	while (model_counter_next(a->m, &it, &name, &va)) {
		if (except && !strncmp(name, except, strlen(except)))
			continue;
		vb = 0;
		model_counter_get(b->m, name, &vb);
		check_count++;
		if (va != vb) {
			check_failures++;
			fprintf(stderr, "%s: counter %s differs: %" PRIu64 " vs %" PRIu64 "\n", what,
				name, va, vb);
		}
	}
}

static void check_same_latency(const struct minisim_result *a, const struct minisim_result *b,
			       const char *what)
{
	check_count++;
	if (a->nr_probe_lat != b->nr_probe_lat ||
	    memcmp(a->probe_lat, b->probe_lat, a->nr_probe_lat * sizeof(uint64_t)) ||
	    a->nr_hog_lat != b->nr_hog_lat ||
	    memcmp(a->hog_lat, b->hog_lat, a->nr_hog_lat * sizeof(uint64_t))) {
		check_failures++;
		fprintf(stderr, "%s: latency samples differ\n", what);
	}
}

static void test_cfs_group_calls(const char *profile)
{
	static const char *const order[] = {
		"base", "aaron-skip", "cfs-group-no-dequeue", "cfs-group-tick-only",
	};
	uint64_t calls[4], skipped[4];

	for (int i = 0; i < 4; i++) {
		struct minisim_cfg c = base_cfg(profile, order[i]);
		struct minisim_result r;

		if (run(&c, &r) < 0)
			return;
		calls[i] = minisim_counter(&r, "update_cfs_group");
		skipped[i] = minisim_counter(&r, "update_cfs_group.skipped");
		fprintf(stderr, "  %s %-22s update_cfs_group %8" PRIu64 " skipped %8" PRIu64
				" tick %6" PRIu64 "\n", profile, order[i], calls[i], skipped[i],
			minisim_counter(&r, "tick"));
		if (i == 3) {
			/* tick-only: one call per tick and group level of curr */
			CHECK(calls[i] <= minisim_counter(&r, "tick"));
			CHECK(calls[i] > 0);
		}
		minisim_result_free(&r);
	}
	CHECK_EQ_U(skipped[0], 0);
	for (int i = 1; i < 4; i++) {
		CHECK(calls[i] < calls[i - 1]);
		CHECK(skipped[i] > 0);
	}
	/* the seed's intent: aaron-skip removes a large part, tick-only nearly all */
	CHECK(calls[1] < calls[0] * 3 / 4);
	CHECK(calls[3] < calls[0] / 5);
}

static void test_hook_equals_flags(const struct variant_catalog *cat, const char *profile)
{
	struct model_variant_set set;
	struct sr_error err = { 0 };
	struct minisim_cfg a = base_cfg(profile, "cfs-group-tick-only");
	struct minisim_cfg b = base_cfg(profile, NULL);
	struct minisim_result ra, rb;

	CHECK_EQ_S(variant_catalog_parse_set(cat, &set, "example-top-level-skip", &err), 0);
	b.set = &set;
	if (run(&a, &ra) < 0)
		return;
	if (run(&b, &rb) == 0) {
		/*
		 * but the function entries: a hook is asked about group
		 * entities only (its context is a group entity's), so the
		 * task entities' entries at the sites it removes stay, where
		 * the built-in flags remove the site for both
		 */
		check_same_counters(&ra, &rb, "update_cfs_group.entries",
				    "plugin hook vs tick-only flags");
		CHECK(minisim_counter(&ra, "update_cfs_group.entries") <
		      minisim_counter(&rb, "update_cfs_group.entries"));
		/* tick-only: entity_tick() is the one site left, its task
		 * entity's entry once a tick (the minisim's CPUs are never
		 * idle at a tick) */
		CHECK_EQ_U(minisim_counter(&ra, "update_cfs_group.entries"),
			   minisim_counter(&ra, "update_cfs_group") +
			   minisim_counter(&ra, "tick"));
		check_same_latency(&ra, &rb, "plugin hook vs tick-only flags");
		CHECK(minisim_counter(&rb, "update_cfs_group.skipped") > 0);
		minisim_result_free(&rb);
	}
	minisim_result_free(&ra);
}

static void test_json_equals_composition(const struct variant_catalog *cat)
{
	struct model_variant_set set;
	struct sr_error err = { 0 };
	struct minisim_cfg a = base_cfg("6.18", "cfs-group-tick-only,aaron-node");
	struct minisim_cfg b = base_cfg("6.18", NULL);
	struct minisim_result ra, rb;

	a.nr_cpus = b.nr_cpus = 4;
	a.nr_nodes = b.nr_nodes = 2;
	CHECK_EQ_S(variant_catalog_parse_set(cat, &set, "json-tick-only-nodes", &err), 0);
	b.set = &set;
	if (run(&a, &ra) < 0)
		return;
	if (run(&b, &rb) == 0) {
		check_same_counters(&ra, &rb, NULL, "JSON flags vs composition");
		check_same_latency(&ra, &rb, "JSON flags vs composition");
		minisim_result_free(&rb);
	}
	minisim_result_free(&ra);
}

static void test_ratelimit(void)
{
	struct minisim_cfg c;
	struct minisim_result r;
	uint64_t w65_base, w65_rl, w618_base, w618_norl, c618_base, c618_norl;

	c = base_cfg("6.5", "base");
	if (run(&c, &r) < 0)
		return;
	w65_base = minisim_counter(&r, "tg_load_avg_writes");
	CHECK_EQ_U(minisim_counter(&r, "update_tg_load_avg.ratelimited"), 0);
	minisim_result_free(&r);
	c = base_cfg("6.5", "tg-ratelimit");
	if (run(&c, &r) < 0)
		return;
	w65_rl = minisim_counter(&r, "tg_load_avg_writes");
	CHECK(minisim_counter(&r, "update_tg_load_avg.ratelimited") > 0);
	minisim_result_free(&r);
	/*
	 * 6.18: many short sleeps per millisecond, so that the 1 ms rate limit
	 * holds back writes (with base_cfg() it skips a few per cent, less than
	 * the two runs' schedules differ by).
	 */
	c = base_cfg("6.18", "base");
	c.probe_period = 100000;
	c.probe_run = 10000;
	c.nr_probes = 8;
	if (run(&c, &r) < 0)
		return;
	w618_base = minisim_counter(&r, "tg_load_avg_writes");
	c618_base = minisim_counter(&r, "update_tg_load_avg");
	CHECK(minisim_counter(&r, "update_tg_load_avg.ratelimited") > 0);
	minisim_result_free(&r);
	c = base_cfg("6.18", "no-tg-ratelimit");
	c.probe_period = 100000;
	c.probe_run = 10000;
	c.nr_probes = 8;
	if (run(&c, &r) < 0)
		return;
	w618_norl = minisim_counter(&r, "tg_load_avg_writes");
	c618_norl = minisim_counter(&r, "update_tg_load_avg");
	CHECK_EQ_U(minisim_counter(&r, "update_tg_load_avg.ratelimited"), 0);
	minisim_result_free(&r);
	fprintf(stderr, "  tg_load_avg_writes: 6.5 base %" PRIu64 " tg-ratelimit %" PRIu64
			"; 6.18 base %" PRIu64 " no-tg-ratelimit %" PRIu64 "\n",
		w65_base, w65_rl, w618_base, w618_norl);
	CHECK(w65_rl < w65_base);
	/*
	 * The two 6.18 runs schedule differently (the rate limit changes the
	 * shares), so their call counts differ: compare writes per call.
	 */
	fprintf(stderr, "  calls 6.18 base %" PRIu64 " no-tg-ratelimit %" PRIu64 "\n", c618_base, c618_norl);
	CHECK(c618_base > 0 && c618_norl > 0);
	CHECK(w618_norl * c618_base > w618_base * c618_norl);
}

static void test_node(const char *profile)
{
	struct minisim_cfg a = base_cfg(profile, "base"), b = base_cfg(profile, "aaron-node");
	struct minisim_result ra, rb;

	a.nr_cpus = b.nr_cpus = 4;
	a.nr_nodes = b.nr_nodes = 2;
	if (run(&a, &ra) < 0)
		return;
	if (run(&b, &rb) == 0) {
		uint64_t w = minisim_counter(&rb, "tg_load_avg_writes");
		uint64_t n0 = minisim_counter(&rb, "tg_load_avg_writes.node0");
		uint64_t n1 = minisim_counter(&rb, "tg_load_avg_writes.node1");

		check_same_counters(&ra, &rb, "tg_load_avg_reads", "aaron-node vs base");
		check_same_latency(&ra, &rb, "aaron-node vs base");
		CHECK_EQ_U(n0 + n1, w);
		CHECK(n0 > 0 && n1 > 0);
		/* calc_group_shares() reads every node's counter */
		CHECK_EQ_U(minisim_counter(&rb, "tg_load_avg_reads"),
			   2 * minisim_counter(&ra, "tg_load_avg_reads"));
		minisim_result_free(&rb);
	}
	minisim_result_free(&ra);
}

/* The seed figure at the variant level (same scenario as tests/model/test_tg.c). */
static unsigned long first_load(const char *profile, const char *variants)
{
	struct model_variant_set vs;
	struct model_config mc = { .nr_cpus = 2, .hz = 250, .seed = 1 };
	struct model_task_info info = { 0 };
	struct sr_error err = { 0 };
	struct model_task *a, *b;
	struct model *m;

	model_variant_set_init(&vs);
	if (model_variant_set_parse(&vs, variants, &err) < 0)
		return 0;
	mc.profile = model_profile_find(profile);
	mc.variants = &vs;
	m = model_new(&mc, &err);
	if (!m)
		return 0;
	a = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 1, NULL);
	b = model_task_new(m, NULL, 0, MODEL_POLICY_NORMAL, 2, NULL);
	/* CPU 0's clock is updated at 1 s; the fork onto it comes 1 ms later */
	model_wake_up_new_task(m, a, 0, 0, 1000000000ull);
	model_wake_up_new_task(m, b, 1, 0, 1001000000ull);
	model_task_info(b, &info);
	{
		/* the counters say the same: two forks, the second one aged or not */
		uint64_t n = 0, sum = 0;

		model_counter_get(m, "new_task_first_load.count", &n);
		model_counter_get(m, "new_task_first_load.sum", &sum);
		CHECK_EQ_U(n, 2);
		CHECK_EQ_U(sum, 1024 + info.load_avg);
	}
	model_free(m);
	return info.load_avg;
}

static void test_first_enqueue(const char *profile)
{
	struct minisim_cfg a = base_cfg(profile, "v4.8-attach");
	struct minisim_cfg b = base_cfg(profile, "no-decay-first-enqueue");
	struct minisim_result ra, rb;

	CHECK_EQ_U(first_load(profile, "v4.8-attach"), 1002);
	CHECK_EQ_U(first_load(profile, "no-decay-first-enqueue"), 1024);
	CHECK_EQ_U(first_load(profile, "base"), 1024);
	/* no forks: no new task, no difference at all */
	if (run(&a, &ra) < 0)
		return;
	if (run(&b, &rb) == 0) {
		check_same_counters(&ra, &rb, NULL, "no-decay-first-enqueue vs v4.8-attach");
		check_same_latency(&ra, &rb, "no-decay-first-enqueue vs v4.8-attach");
		minisim_result_free(&rb);
	}
	minisim_result_free(&ra);
}

int main(int argc, char **argv)
{
	struct sr_error err = { 0 };
	struct variant_catalog *cat;
	char path[4096];

	if (argc != 3) {
		fprintf(stderr, "usage: %s DATA_DIR EXAMPLE_PLUGIN.so\n", argv[0]);
		return 2;
	}
	cat = variant_catalog_new(&err);
	snprintf(path, sizeof(path), "%s/good.json", argv[1]);
	if (!cat || variant_catalog_load_plugin(cat, argv[2], &err) < 0 ||
	    variant_catalog_load_json(cat, path, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		variant_catalog_free(cat);
		return 1;
	}
	test_cfs_group_calls("6.5");
	test_cfs_group_calls("6.18");
	test_hook_equals_flags(cat, "6.5");
	test_hook_equals_flags(cat, "6.18");
	test_json_equals_composition(cat);
	test_ratelimit();
	test_node("6.5");
	test_node("6.18");
	test_first_enqueue("6.5");
	test_first_enqueue("6.18");
	variant_catalog_free(cat);
	return check_done("variants_model");
}
