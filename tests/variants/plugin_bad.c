// SPDX-License-Identifier: GPL-2.0
/*
 * Broken plugins for the loader's error paths, one per -DBAD_* definition:
 * BAD_ABI (another ABI version), BAD_SIZE (another struct size), BAD_FLAGS
 * (an unknown flag bit), BAD_NAME (a name scripts could not use), BAD_DUP
 * (a registered variant's name), BAD_NONE (no entry symbol at all),
 * BAD_SFBIT (a sched_features bit past profile_table.h's features),
 * BAD_SFSWITCH (the bit of a model switch: EEVDF, the table's first, not
 * toggleable), BAD_SFBOTH (PLACE_LAG, the second, both set and cleared).
 */
#include <schedreplay/plugin.h>

#ifdef BAD_NONE
SCHEDREPLAY_PLUGIN_EXPORT int not_a_plugin(void);
SCHEDREPLAY_PLUGIN_EXPORT int not_a_plugin(void)
{
	return 0;
}
#else
static const struct model_variant v = {
#if defined(BAD_NAME)
	.name = "Bad Name",
#elif defined(BAD_DUP)
	.name = "aaron-skip",
#else
	.name = "bad-plugin-variant",
#endif
	.description = "a broken plugin for the tests",
#ifdef BAD_FLAGS
	.flags = 1u << 30,
#endif
	.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
#if defined(BAD_SFBIT)
	.sched_features = { .set = 1ull << 63 },
#elif defined(BAD_SFSWITCH)
	.sched_features = { .clear = 1ull << 0 },
#elif defined(BAD_SFBOTH)
	.sched_features = { .set = 1ull << 1, .clear = 1ull << 1 },
#endif
};

static const struct model_variant *const list[] = { &v };

SCHEDREPLAY_PLUGIN_EXPORT const struct schedreplay_plugin *schedreplay_plugin(void)
{
	static const struct schedreplay_plugin p = {
#ifdef BAD_ABI
		.abi_version = SCHEDREPLAY_PLUGIN_ABI_VERSION + 1,
#else
		.abi_version = SCHEDREPLAY_PLUGIN_ABI_VERSION,
#endif
#ifdef BAD_SIZE
		.variant_size = (uint32_t)sizeof(struct model_variant) + 8,
#else
		.variant_size = (uint32_t)sizeof(struct model_variant),
#endif
		.name = "bad",
		.variants = list,
		.nr_variants = 1,
	};
	return &p;
}
#endif
