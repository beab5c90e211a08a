// SPDX-License-Identifier: GPL-2.0
/*
 * Profiles (lookup, release mapping, settings) and variants (registry,
 * composition, errors, hooks) and the direction of each variant's effect on
 * the model's own counters for one fixed workload.
 */
#include <string.h>

#include "check.h"
#include "sched.h"

static void test_profiles(void)
{
	const char *why = NULL;
	struct model_setting s;
	unsigned int it = 0, n = 0;
	bool saw_eevdf = false, saw_rl = false;
	char buf[16384];
	FILE *f;

	CHECK(model_profile_count() >= 4);
	CHECK(model_profile_find("6.5") != NULL);
	CHECK(model_profile_find("6.18") == model_profile_default());
	CHECK(model_profile_find("7.0") == NULL);
	CHECK(model_profile_for_release("6.18.3-cloud-amd64", &why) == model_profile_find("6.18"));
	CHECK(why != NULL);
	CHECK(model_profile_for_release("6.5.0-rc1", NULL) == model_profile_find("6.5"));
	CHECK(model_profile_for_release("6.1.0-27-amd64", NULL) == model_profile_find("6.1"));
	CHECK(model_profile_for_release("5.15.0", NULL) == model_profile_find("6.1"));
	CHECK(model_profile_for_release("6.8.0-45-generic", NULL) == model_profile_find("6.12"));
	CHECK(model_profile_for_release("linux", NULL) == NULL);

	while (model_profile_setting_next(model_profile_find("6.5"), &it, &s)) {
		n++;
		CHECK(s.reason && *s.reason);
		if (!strcmp(s.name, "EEVDF")) {
			saw_eevdf = true;
			CHECK_EQ_S(s.value, 0);
		}
		if (!strcmp(s.name, "tg_load_avg_ratelimit_ns")) {
			saw_rl = true;
			CHECK_EQ_S(s.value, 0);
		}
	}
	CHECK(saw_eevdf && saw_rl);
	CHECK_EQ_U(n, NR_MODEL_FEATS + 12);
	CHECK_EQ_S(model_profile_find("6.18")->tg_load_avg_ratelimit_ns, 1000000);
	CHECK_EQ_S(model_profile_find("6.18")->feat[FEAT_EEVDF], 1);

	f = fmemopen(buf, sizeof(buf), "w");
	model_profile_print(model_profile_find("6.18"), f);
	fclose(f);
	CHECK(strstr(buf, "DELAY_DEQUEUE") && strstr(buf, "1528c661c24b"));
}

static void test_registry(void)
{
	static const char *fixed[] = {
		"base", "tg-ratelimit", "no-tg-ratelimit", "aaron-node", "aaron-delay",
		"aaron-skip", "aaron-series", "cfs-group-no-dequeue", "cfs-group-tick-only",
		"lazy-blocked-update", "no-decay-first-enqueue", "update-curr-before-place",
		"vlag-vprot-union",
	};
	struct model_variant_set set;
	struct sr_error err = { 0 };
	unsigned int i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		const struct model_variant *v = model_variant_find(fixed[i]);

		CHECK_MSG(v != NULL, "variant %s missing", fixed[i]);
		if (v)
			CHECK(v->description && *v->description && v->origin && v->touches);
	}
	CHECK(model_variant_at(0) == model_variant_find("base"));
	CHECK(model_variant_set_parse(&set, "aaron-skip, no-tg-ratelimit", &err) == 0);
	CHECK_EQ_U(set.n, 2);
	CHECK(!strcmp(set.name, "aaron-skip,no-tg-ratelimit"));
	CHECK_EQ_U(model_variant_set_flags(&set),
		   MODEL_V_SKIP_CG_FIRST_ENQUEUE | MODEL_V_SKIP_CG_DEQUEUE_ENTITY);
	CHECK(model_variant_set_parse(&set, "base", &err) == 0 && set.n == 0);
	CHECK(!strcmp(set.name, "base"));
	CHECK(model_variant_set_parse(&set, "aaron-skip,bogus", &err) == -1);
	CHECK(strstr(err.msg, "bogus") != NULL);
	/* the library's rejection says where to look, as the CLI's --variant: one line */
	CHECK(strstr(err.msg, "known: base, ") != NULL && strstr(err.msg, "aaron-skip") != NULL);
	CHECK(strstr(err.msg, "see 'schedreplay variants'") != NULL && !strchr(err.msg, '\n'));
	CHECK(strstr(err.msg, "did you mean") == NULL);
	CHECK(model_variant_set_parse(&set, "aaron_skip", &err) == -1);
	CHECK_MSG(strstr(err.msg, "did you mean 'aaron-skip'?") != NULL, "%s", err.msg);
	CHECK(model_variant_set_parse(&set, "aaron-skip,aaron-skip", &err) == -1);
	CHECK(model_variant_find("aaron-series")->flags ==
	      (model_variant_find("aaron-node")->flags | model_variant_find("aaron-delay")->flags |
	       model_variant_find("aaron-skip")->flags));
}

static unsigned int hook_calls;

static bool no_tick_reweight(const struct model_hook_cfs_group *ctx)
{
	hook_calls++;
	return ctx->site != MODEL_SITE_ENTITY_TICK;
}

static const struct model_variant plugin_like = {
	.name = "test-no-tick-reweight",
	.origin = "tests/model",
	.description = "skip update_cfs_group() at the tick (hook)",
	.touches = "entity_tick",
	.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	.update_cfs_group = no_tick_reweight,
};

struct counts {
	uint64_t cfs_group, writes, switches, reads, skipped, writes_node1, ula;
};

/* A fixed workload: 24 tasks in three levels of groups waking on random
 * CPUs (so load is removed and migrated), 2 nodes x 2 CPUs, 2 s. */
static struct counts run(const char *profile, const struct model_variant_set *vs)
{
	static const int nodes[4] = { 0, 0, 1, 1 };
	struct model_config cfg = { .nr_cpus = 4, .cpu_node = nodes, .hz = 250, .seed = 42 };
	struct model_group *g[3];
	struct model_task *t[24];
	struct counts c;
	struct model *m;
	uint64_t now = 1000000000ULL, next_tick = now, x = 0x1234567ULL;
	int i, cpu;

	cfg.profile = model_profile_find(profile);
	cfg.variants = vs;
	m = model_new(&cfg, NULL);
	g[0] = model_group_new(m, NULL, 1024, "/a", NULL);
	g[1] = model_group_new(m, g[0], 1024, "/a/b", NULL);
	g[2] = model_group_new(m, NULL, 512, "/c", NULL);
	for (i = 0; i < 24; i++) {
		t[i] = model_task_new(m, g[i % 3], 0, MODEL_POLICY_NORMAL, (uint32_t)i, NULL);
		model_wake_up_new_task(m, t[i], i % 4, i % 4, now);
	}
	while (now < 3000000000ULL) {
		struct model_task_info info;
		struct model_task *p;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		now += 20000 + x % 200000;
		while (next_tick <= now) {
			for (cpu = 0; cpu < 4; cpu++)
				if (model_curr(m, cpu))
					model_tick(m, cpu, next_tick);
			next_tick += 4000000;
		}
		p = t[x % 24];
		model_task_info(p, &info);
		cpu = (int)((x >> 8) % 4);
		if (info.state == MODEL_TASK_SLEEPING)
			model_try_to_wake_up(m, p, (x >> 20) % 2 ? info.cpu : cpu, cpu, MODEL_WF_TTWU, now);
		else if (model_curr(m, cpu))
			model_schedule(m, cpu, MODEL_PREV_SLEEP, now);
		for (cpu = 0; cpu < 4; cpu++)
			if (model_need_resched(m, cpu))
				model_schedule(m, cpu, MODEL_PREV_RUNNABLE, now);
	}
	CHECK(model_check_invariants(m, NULL) == 0);
	model_counter_get(m, "update_cfs_group", &c.cfs_group);
	model_counter_get(m, "tg_load_avg_writes", &c.writes);
	model_counter_get(m, "sched_switch", &c.switches);
	model_counter_get(m, "tg_load_avg_reads", &c.reads);
	model_counter_get(m, "update_cfs_group.skipped", &c.skipped);
	model_counter_get(m, "tg_load_avg_writes.node1", &c.writes_node1);
	model_counter_get(m, "update_load_avg", &c.ula);
	model_free(m);
	return c;
}

static struct counts run_named(const char *profile, const char *spec)
{
	struct model_variant_set vs;

	model_variant_set_parse(&vs, spec, NULL);
	return run(profile, &vs);
}

static void test_effects(const char *profile)
{
	struct counts base = run_named(profile, "base");
	struct counts skip = run_named(profile, "aaron-skip");
	struct counts nodeq = run_named(profile, "cfs-group-no-dequeue");
	struct counts tick = run_named(profile, "cfs-group-tick-only");
	struct counts node = run_named(profile, "aaron-node");
	struct counts delay = run_named(profile, "aaron-delay");
	struct counts rl = run_named(profile, "tg-ratelimit");
	struct model_variant_set vs;

	fprintf(stderr, "%s: update_cfs_group base %llu skip %llu no-dequeue %llu tick-only %llu; "
		"tg writes base %llu delay %llu ratelimit %llu\n", profile,
		(unsigned long long)base.cfs_group, (unsigned long long)skip.cfs_group,
		(unsigned long long)nodeq.cfs_group, (unsigned long long)tick.cfs_group,
		(unsigned long long)base.writes, (unsigned long long)delay.writes,
		(unsigned long long)rl.writes);
	CHECK(base.switches > 1000);
	CHECK(skip.cfs_group < base.cfs_group);
	CHECK(nodeq.cfs_group < skip.cfs_group);
	CHECK(tick.cfs_group < nodeq.cfs_group);
	CHECK(tick.skipped > nodeq.skipped && nodeq.skipped > skip.skipped && base.skipped == 0);
	/* per node: same numbers, same decisions; writes split, reads doubled */
	CHECK_EQ_U(node.writes, base.writes);
	CHECK_EQ_U(node.switches, base.switches);
	CHECK_EQ_U(node.reads, 2 * base.reads);
	CHECK(node.writes_node1 > 0 && node.writes_node1 < node.writes);
	CHECK(delay.writes < base.writes);
	if (!strcmp(profile, "6.5"))
		CHECK(rl.writes < base.writes);   /* 6.5 has no rate limit of its own */
	else
		CHECK_EQ_U(rl.writes, base.writes);

	/* an external variant with a hook composes with a registered one */
	model_variant_set_parse(&vs, "aaron-skip", NULL);
	CHECK(model_variant_set_add(&vs, &plugin_like, NULL) == 0);
	hook_calls = 0;
	{
		struct counts h = run(profile, &vs);

		CHECK(hook_calls > 0);
		CHECK(h.cfs_group < skip.cfs_group);
	}
}

int main(void)
{
	test_profiles();
	test_registry();
	test_effects("6.5");
	test_effects("6.18");
	return check_done("variants");
}
