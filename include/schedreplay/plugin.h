/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plugin API: model variants from a shared object (`--plugin PATH`).
 *
 * A plugin is a shared object that defines ONE function with the fixed name
 * SCHEDREPLAY_PLUGIN_ENTRY ("schedreplay_plugin").  schedreplay dlopen()s the
 * file (RTLD_NOW | RTLD_LOCAL, only from the path given: a name without a '/'
 * is read as ./NAME, never searched in the library path), calls the entry
 * once and keeps the object loaded until it exits.  The entry returns a
 * pointer to a static, const description:
 *
 *	#include <schedreplay/plugin.h>
 *
 *	static bool only_deep(const struct model_hook_cfs_group *c)
 *	{
 *		return c->depth > 0;      // keep update_cfs_group() below level 0
 *	}
 *	static const struct model_variant mine = {
 *		.name = "my-variant",
 *		.origin = "my mail, 1 Jan 2027",
 *		.description = "no update_cfs_group() for top-level group entities",
 *		.touches = "enqueue_entity, dequeue_entity",
 *		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
 *		.update_cfs_group = only_deep,
 *	};
 *	static const struct model_variant *const list[] = { &mine };
 *	SCHEDREPLAY_PLUGIN_EXPORT const struct schedreplay_plugin *schedreplay_plugin(void)
 *	{
 *		static const struct schedreplay_plugin p = {
 *			SCHEDREPLAY_PLUGIN_HEADER_INIT,
 *			.name = "example",
 *			.variants = list,
 *			.nr_variants = 1,
 *		};
 *		return &p;
 *	}
 *
 *	cc -shared -fPIC -I include -o my.so my.c
 *	schedreplay variants --plugin ./my.so
 *
 * A plugin variant is exactly a registered one (schedreplay/variant.h): flags
 * that name the seed patches' variation points, a tg rate-limit override and
 * an optional update_cfs_group() hook, called by the model with the call
 * site, the cfs_rq's nr_running before accounting, the group entity's depth
 * and the CPU.  Hooks run concurrently when variants run in parallel
 * threads: they must be pure functions of their argument (no writable
 * static state).  A plugin needs nothing from the schedreplay binary (it
 * links against nothing of ours), so the same .so works with any build of the
 * same ABI version.
 *
 * Versioning.  SCHEDREPLAY_PLUGIN_ABI_VERSION changes whenever struct
 * model_variant, struct model_hook_cfs_group, the meaning of a flag bit or
 * struct schedreplay_plugin changes incompatibly; the loader rejects a plugin
 * built for another version, or whose sizeof(struct model_variant) differs,
 * with a message that names both versions.  Flags unknown to the loader are
 * rejected rather than ignored.
 */
#ifndef SCHEDREPLAY_PLUGIN_H
#define SCHEDREPLAY_PLUGIN_H

#include <stdint.h>

#include <schedreplay/variant.h>

#define SCHEDREPLAY_PLUGIN_ABI_VERSION 2u   /* 2: model_variant.sched_features */
#define SCHEDREPLAY_PLUGIN_ENTRY "schedreplay_plugin"

#define SCHEDREPLAY_PLUGIN_EXPORT __attribute__((visibility("default")))

struct schedreplay_plugin {
	uint32_t abi_version;          /* SCHEDREPLAY_PLUGIN_ABI_VERSION */
	uint32_t variant_size;         /* sizeof(struct model_variant) */
	const char *name;              /* the plugin's name, for messages */
	const struct model_variant *const *variants;
	unsigned int nr_variants;      /* 1..MODEL_VARIANT_SET_MAX */
};

#define SCHEDREPLAY_PLUGIN_HEADER_INIT                              \
	.abi_version = SCHEDREPLAY_PLUGIN_ABI_VERSION,              \
	.variant_size = (uint32_t)sizeof(struct model_variant)

/* The one entry symbol every plugin defines. */
typedef const struct schedreplay_plugin *(*schedreplay_plugin_entry_fn)(void);
SCHEDREPLAY_PLUGIN_EXPORT const struct schedreplay_plugin *schedreplay_plugin(void);

#endif /* SCHEDREPLAY_PLUGIN_H */
