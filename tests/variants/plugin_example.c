// SPDX-License-Identifier: GPL-2.0
/*
 * An example schedreplay plugin (include/schedreplay/plugin.h), built by
 * CMake and loaded by the tests: two variants, one with an update_cfs_group()
 * hook and one that is only flags and a tunable.
 *
 *   example-top-level-skip  update_cfs_group() is not called for group
 *                           entities directly under the root (depth 0) on
 *                           the enqueue/dequeue paths; the tick keeps them
 *                           fresh.  A what-if: how much of the reweighting
 *                           happens at the top level of a two-level
 *                           hierarchy?
 *   example-ratelimit-4ms   the tg->load_avg rate limit at 4 ms instead of 1.
 */
#include <schedreplay/plugin.h>

static bool keep_below_top(const struct model_hook_cfs_group *c)
{
	if (c->site == MODEL_SITE_ENTITY_TICK || c->site == MODEL_SITE_SET_SHARES)
		return true;
	return c->depth > 0;
}

static const struct model_variant top_level_skip = {
	.name = "example-top-level-skip",
	.origin = "tests/variants/plugin_example.c (an example, not a posted patch)",
	.description = "no update_cfs_group() for depth-0 group entities on enqueue/dequeue paths; "
		       "the tick still updates them",
	.touches = "enqueue_entity, dequeue_entity, enqueue_task_fair, dequeue_task_fair",
	.flags = 0,
	.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	.update_cfs_group = keep_below_top,
};

static const struct model_variant ratelimit_4ms = {
	.name = "example-ratelimit-4ms",
	.origin = "tests/variants/plugin_example.c",
	.description = "update_tg_load_avg() at most once per 4 ms per cfs_rq",
	.touches = "update_tg_load_avg",
	.tg_ratelimit_ns = 4000000,
};

static const struct model_variant *const variants[] = { &top_level_skip, &ratelimit_4ms };

SCHEDREPLAY_PLUGIN_EXPORT const struct schedreplay_plugin *schedreplay_plugin(void)
{
	static const struct schedreplay_plugin plugin = {
		SCHEDREPLAY_PLUGIN_HEADER_INIT,
		.name = "example",
		.variants = variants,
		.nr_variants = sizeof(variants) / sizeof(variants[0]),
	};
	return &plugin;
}
