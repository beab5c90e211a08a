// SPDX-License-Identifier: GPL-2.0
/*
 * The function-entry counters (model/counters.h: update_cfs_group.entries,
 * update_tg_load_avg.entries, propagate_entity_load_avg.entries): what a
 * function tracer counts of these functions, the calls that return at once
 * included, so that replay compares the sidecar's measured function counts
 * like with like (docs/replay.md, "Function counts").  The model-defined
 * counters beside them keep their meaning: update_cfs_group of group
 * entities, update_tg_load_avg of non-root queues, propagate_entity_load_avg
 * .calls of group entities.  Each expected number is derived in the comment
 * from the 6.18 call chain (the same operations as model_fidelity618).
 */
#include <string.h>

#include "check.h"
#include "sched.h"

#define T0 1000000000ULL          /* 1 s */
#define MS 1000000ULL

static u64 snap[NR_MODEL_COUNTERS];

static void take(const struct model *m)
{
	memcpy(snap, m->counters, sizeof(snap));
}

#define D(m, c) ((m)->counters[MC_##c] - snap[MC_##c])

static struct model *mk(const char *variants)
{
	static struct model_variant_set vs;
	struct model_config cfg = { .nr_cpus = 1, .hz = 250, .seed = 7 };

	CHECK(model_variant_set_parse(&vs, variants, NULL) == 0);
	cfg.profile = model_profile_find("6.18");
	cfg.variants = &vs;
	return model_new(&cfg, NULL);
}

static struct model_task *new_task(struct model *m, struct model_group *g, uint32_t id)
{
	struct model_task *t = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, id, NULL);

	CHECK(t != NULL);
	return t;
}

/*
 * A task in the root group: its entity is a task entity on the root queue,
 * so every call of the three returns at once in the kernel.
 * wake_up_new_task(t) -> enqueue_task_fair() -> enqueue_entity(root, t):
 * update_load_avg(UPDATE_TG|DO_ATTACH) -> propagate_entity_load_avg(t)
 * [entry, task: returns 0], attach -> update_tg_load_avg(root) [entry,
 * root: returns]; update_cfs_group(t) [entry, task: returns].
 */
static void test_root_task(void)
{
	struct model *m = mk("base");
	struct model_task *t = new_task(m, model_root_group(m), 1);

	take(m);
	CHECK_EQ_U(model_wake_up_new_task(m, t, 0, 0, T0), 0);
	CHECK_EQ_U(D(m, update_cfs_group_entries), 1);
	CHECK_EQ_U(D(m, update_cfs_group), 0);
	CHECK_EQ_U(D(m, update_tg_load_avg_entries), 1);
	CHECK_EQ_U(D(m, update_tg_load_avg), 0);
	CHECK_EQ_U(D(m, propagate_entity_load_avg_entries), 1);
	CHECK_EQ_U(D(m, propagate_entity_load_avg_calls), 0);
	CHECK_EQ_U(D(m, update_load_avg), 1);
	model_free(m);
}

/*
 * Group /a (shares 1024) and task a in it, one CPU.  wake_up_new_task(a):
 *   enqueue_entity(/a, a): update_load_avg(UPDATE_TG|DO_ATTACH) ->
 *     propagate_entity_load_avg(a) [entry, task], attach ->
 *     update_tg_load_avg(/a) [entry, counted]; update_cfs_group(a) [entry,
 *     task: returns];
 *   enqueue_entity(root, /a's se): update_load_avg(UPDATE_TG|DO_ATTACH) ->
 *     propagate_entity_load_avg(/a) [entry, group: propagates a's attach]
 *     -> decayed -> update_tg_load_avg(root) [entry, root: returns];
 *     update_cfs_group(/a) [entry, counted].
 * Entries 2 each; the model-defined counts 1 each.
 * Then the tick at 1 ms: entity_tick() at a's level and /a's, each
 * update_load_avg(UPDATE_TG) [2 propagate entries, 1 of a group entity]
 * and update_cfs_group() [2 entries, 1 of a group entity].
 */
static void test_group_task(void)
{
	struct model *m = mk("base");
	struct model_group *g = model_group_new(m, model_root_group(m), 1024, "a", NULL);
	struct model_task *a;

	CHECK(g != NULL);
	a = new_task(m, g, 1);
	take(m);
	CHECK_EQ_U(model_wake_up_new_task(m, a, 0, 0, T0), 0);
	CHECK_EQ_U(D(m, update_cfs_group_entries), 2);
	CHECK_EQ_U(D(m, update_cfs_group), 1);
	CHECK_EQ_U(D(m, update_tg_load_avg_entries), 2);
	CHECK_EQ_U(D(m, update_tg_load_avg), 1);
	CHECK_EQ_U(D(m, propagate_entity_load_avg_entries), 2);
	CHECK_EQ_U(D(m, propagate_entity_load_avg_calls), 1);
	CHECK_EQ_U(D(m, propagate_entity_load_avg), 1);

	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);
	take(m);
	model_tick(m, 0, T0 + 1 * MS);
	CHECK_EQ_U(D(m, update_cfs_group_entries), 2);
	CHECK_EQ_U(D(m, update_cfs_group), 1);
	CHECK_EQ_U(D(m, propagate_entity_load_avg_entries), 2);
	CHECK_EQ_U(D(m, propagate_entity_load_avg_calls), 1);
	/* every update_tg_load_avg() call is an entry, a root one or not */
	CHECK(D(m, update_tg_load_avg_entries) >= D(m, update_tg_load_avg));
	model_free(m);
}

/*
 * cfs-group-tick-only removes the call sites in enqueue_entity() and the
 * enqueue/dequeue loops: the kernel function is not entered there at all,
 * for a task entity no more than for a group one.  wake_up_new_task(a) in /a
 * reaches update_cfs_group() at two enqueue_entity() sites: no entry; the
 * group entity's call is the one counted as skipped.  The tick's sites stay.
 */
static void test_site_removed(void)
{
	struct model *m = mk("cfs-group-tick-only");
	struct model_group *g = model_group_new(m, model_root_group(m), 1024, "a", NULL);
	struct model_task *a;

	CHECK(g != NULL);
	a = new_task(m, g, 1);
	take(m);
	CHECK_EQ_U(model_wake_up_new_task(m, a, 0, 0, T0), 0);
	CHECK_EQ_U(D(m, update_cfs_group_entries), 0);
	CHECK_EQ_U(D(m, update_cfs_group), 0);
	CHECK_EQ_U(D(m, update_cfs_group_skipped), 1);

	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);
	take(m);
	model_tick(m, 0, T0 + 1 * MS);
	CHECK_EQ_U(D(m, update_cfs_group_entries), 2);
	CHECK_EQ_U(D(m, update_cfs_group), 1);
	model_free(m);
}

/* The replay's names for them: model_counter_get() by the counters' names. */
static void test_names(void)
{
	struct model *m = mk("base");
	struct model_task *t = new_task(m, model_root_group(m), 1);
	uint64_t v = 0;

	model_wake_up_new_task(m, t, 0, 0, T0);
	CHECK(model_counter_get(m, "update_cfs_group.entries", &v) && v == 1);
	CHECK(model_counter_get(m, "update_tg_load_avg.entries", &v) && v == 1);
	CHECK(model_counter_get(m, "propagate_entity_load_avg.entries", &v) && v == 1);
	CHECK(model_counter_get(m, "update_cfs_group", &v) && v == 0);
	model_free(m);
}

int main(void)
{
	test_root_task();
	test_group_task();
	test_site_removed();
	test_names();
	return check_done("func_entries");
}
