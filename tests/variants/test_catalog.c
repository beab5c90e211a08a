// SPDX-License-Identifier: GPL-2.0
/*
 * The variant catalog: registered names, flag names, JSON variant files and
 * plugins (good and every kind of broken), composition with --variant a,b.
 *
 * usage: test_variants_catalog DATA_DIR EXAMPLE.so BAD_ABI.so BAD_SIZE.so
 *        BAD_FLAGS.so BAD_NAME.so BAD_DUP.so BAD_NONE.so BAD_SFBIT.so
 *        BAD_SFSWITCH.so BAD_SFBOTH.so
 */
#include <stddef.h>
#include <stdlib.h>

#include <schedreplay/plugin.h>
#include <schedreplay/whatif.h>

#include "check.h"

/* The names scripts rely on (issue 6), "base" first. */
static const char *const fixed_names[] = {
	"base", "tg-ratelimit", "no-tg-ratelimit", "aaron-node", "aaron-delay", "aaron-skip",
	"aaron-series", "cfs-group-no-dequeue", "cfs-group-tick-only", "lazy-blocked-update",
	"no-decay-first-enqueue", "update-curr-before-place", "vlag-vprot-union",
};
#define NR_FIXED (sizeof(fixed_names) / sizeof(fixed_names[0]))

static const char *data_dir;

static const char *data(const char *name)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/%s", data_dir, name);
	return buf;
}

static void test_flags(void)
{
	uint32_t known = variant_flags_known();

	/* every bit up to the highest known one has a name: none forgotten */
	CHECK(known != 0);
	CHECK_EQ_U(known & (known + 1), 0);
	for (uint32_t bit = 1; bit && bit <= known; bit <<= 1) {
		const char *n = variant_flag_name(bit);

		CHECK(n != NULL);
		CHECK_EQ_U(variant_flag_from_name(n), bit);
	}
	CHECK(variant_flag_name(1u << 31) == NULL);
	CHECK_EQ_U(variant_flag_from_name("model_v_skip_cg_dequeue_task"),
		   MODEL_V_SKIP_CG_DEQUEUE_TASK);
	CHECK_EQ_U(variant_flag_from_name("TG_LOAD_PER_NODE"), MODEL_V_TG_LOAD_PER_NODE);
	CHECK_EQ_U(variant_flag_from_name("NO_SUCH_FLAG"), 0);
	CHECK_EQ_U(variant_flag_from_name(NULL), 0);
}

/*
 * The plugin ABI is struct model_variant and struct model_hook_cfs_group as
 * compiled into a plugin.  If this test fails, variant.h changed the layout:
 * bump SCHEDREPLAY_PLUGIN_ABI_VERSION in plugin.h and update these values.
 */
static void test_abi_pinned(void)
{
	CHECK_EQ_U(SCHEDREPLAY_PLUGIN_ABI_VERSION, 2);
	if (sizeof(void *) == 8) {
		CHECK_EQ_U(sizeof(struct model_variant), 72);
		CHECK_EQ_U(offsetof(struct model_variant, sched_features), 56);
		CHECK_EQ_U(offsetof(struct model_variant, flags), 32);
		CHECK_EQ_U(offsetof(struct model_variant, tg_ratelimit_ns), 40);
		CHECK_EQ_U(offsetof(struct model_variant, update_cfs_group), 48);
	}
	CHECK_EQ_U(sizeof(struct model_hook_cfs_group), 16);
	CHECK_EQ_U(offsetof(struct model_hook_cfs_group, nr_running), 4);
	CHECK_EQ_U(offsetof(struct model_hook_cfs_group, depth), 8);
	CHECK_EQ_U(offsetof(struct model_hook_cfs_group, cpu), 12);
	CHECK_EQ_U(MODEL_SITE_ENQUEUE_ENTITY, 0);
	CHECK_EQ_U(MODEL_SITE_SET_SHARES, 5);
	CHECK_EQ_U(MODEL_V_UPDATE_CURR_BEFORE_PLACE, 1u << 11);
	CHECK_EQ_U(MODEL_V_VLAG_VPROT_UNION, 1u << 12);
}

static void test_registered(void)
{
	struct sr_error err = { 0 };
	struct variant_catalog *c = variant_catalog_new(&err);
	enum variant_source src;
	const char *file;

	CHECK(c != NULL);
	if (!c)
		return;
	CHECK(variant_catalog_count(c) >= NR_FIXED);
	CHECK_STR(variant_catalog_at(c, 0, &src, &file)->name, "base");
	for (size_t i = 0; i < NR_FIXED; i++) {
		const struct model_variant *v = variant_catalog_find(c, fixed_names[i]);

		CHECK(v != NULL);
		if (!v) {
			fprintf(stderr, "  missing registered variant '%s'\n", fixed_names[i]);
			continue;
		}
		CHECK_STR(v->name, fixed_names[i]);
		CHECK(v->description && *v->description);
		CHECK(v->origin && *v->origin);
		CHECK(v->touches && *v->touches);
		CHECK_EQ_S(variant_check(v, &err), 0);
	}
	for (unsigned int i = 0; i < variant_catalog_count(c); i++) {
		CHECK(variant_catalog_at(c, i, &src, &file) != NULL);
		CHECK_EQ_U(src, VARIANT_SOURCE_BUILTIN);
		CHECK(file == NULL);
	}
	CHECK(variant_catalog_at(c, variant_catalog_count(c), NULL, NULL) == NULL);
	variant_catalog_free(c);
}

static void test_json(void)
{
	struct sr_error err = { 0 };
	struct variant_catalog *c = variant_catalog_new(&err);
	unsigned int base_count = variant_catalog_count(c);
	const struct model_variant *v;
	enum variant_source src;
	const char *file;

	CHECK_EQ_S(variant_catalog_load_json(c, data("good.json"), &err), 0);
	CHECK_EQ_U(variant_catalog_count(c), base_count + 2);
	v = variant_catalog_find(c, "json-skip-dequeue-2ms");
	CHECK(v != NULL);
	if (v) {
		CHECK_EQ_U(v->flags, MODEL_V_SKIP_CG_DEQUEUE_ENTITY);
		CHECK_EQ_S(v->tg_ratelimit_ns, 2000000);
		CHECK_STR(v->origin, "a what-if, not posted");
		CHECK(v->update_cfs_group == NULL);
	}
	v = variant_catalog_find(c, "json-tick-only-nodes");
	CHECK(v != NULL);
	if (v) {
		CHECK_EQ_U(v->flags, MODEL_V_SKIP_CG_ENQUEUE_ENTITY | MODEL_V_SKIP_CG_DEQUEUE_ENTITY |
				     MODEL_V_SKIP_CG_ENQUEUE_TASK | MODEL_V_SKIP_CG_DEQUEUE_TASK |
				     MODEL_V_TG_LOAD_PER_NODE);
		CHECK_EQ_S(v->tg_ratelimit_ns, MODEL_TG_RATELIMIT_KEEP);
		CHECK(v->origin == NULL);
	}
	v = variant_catalog_at(c, base_count, &src, &file);
	CHECK(v && !strcmp(v->name, "json-skip-dequeue-2ms"));
	CHECK_EQ_U(src, VARIANT_SOURCE_JSON);
	CHECK_CONTAINS(file, "good.json");

	CHECK_EQ_S(variant_catalog_load_json(c, data("single.json"), &err), 0);
	v = variant_catalog_find(c, "json-no-ratelimit");
	CHECK(v && v->tg_ratelimit_ns == 0 && v->flags == 0);

	/* loading the same file twice: names are unique */
	CHECK_EQ_S(variant_catalog_load_json(c, data("single.json"), &err), -1);
	CHECK_CONTAINS(err.msg, "already defined");

	/* broken files: one-line messages naming file and key; nothing added */
	base_count = variant_catalog_count(c);
	CHECK_EQ_S(variant_catalog_load_json(c, data("bad_key.json"), &err), -1);
	CHECK_CONTAINS(err.msg, "bad_key.json");
	CHECK_CONTAINS(err.msg, "\"tg_ratelimit\"");
	CHECK(variant_catalog_find(c, "json-ok-first") == NULL);
	CHECK_EQ_S(variant_catalog_load_json(c, data("bad_flag.json"), &err), -1);
	CHECK_CONTAINS(err.msg, "SKIP_CG_EVERYWHERE");
	CHECK_EQ_S(variant_catalog_load_json(c, data("dup.json"), &err), -1);
	CHECK_CONTAINS(err.msg, "'aaron-skip' is already defined");
	CHECK_EQ_S(variant_catalog_load_json(c, data("bad_syntax.json"), &err), -1);
	CHECK_CONTAINS(err.msg, "bad_syntax.json:");
	CHECK_EQ_S(variant_catalog_load_json(c, data("bad_ratelimit.json"), &err), -1);
	CHECK_CONTAINS(err.msg, "tg_ratelimit_ns");
	CHECK_EQ_S(variant_catalog_load_json(c, data("does-not-exist.json"), &err), -1);
	CHECK_CONTAINS(err.msg, "does-not-exist.json");
	CHECK_EQ_U(variant_catalog_count(c), base_count);
	variant_catalog_free(c);
}

static void test_plugins(char **so)
{
	struct sr_error err = { 0 };
	struct variant_catalog *c = variant_catalog_new(&err);
	unsigned int base_count = variant_catalog_count(c);
	const struct model_variant *v;
	enum variant_source src;
	const char *file;

	CHECK_EQ_S(variant_catalog_load_plugin(c, so[0], &err), 0);
	if (err.msg[0])
		fprintf(stderr, "  %s\n", err.msg);
	CHECK_EQ_U(variant_catalog_count(c), base_count + 2);
	v = variant_catalog_find(c, "example-top-level-skip");
	CHECK(v != NULL && v->update_cfs_group != NULL);
	if (v && v->update_cfs_group) {
		struct model_hook_cfs_group ctx = { .site = MODEL_SITE_ENQUEUE_ENTITY, .depth = 0 };

		CHECK(!v->update_cfs_group(&ctx));
		ctx.depth = 1;
		CHECK(v->update_cfs_group(&ctx));
		ctx.depth = 0;
		ctx.site = MODEL_SITE_ENTITY_TICK;
		CHECK(v->update_cfs_group(&ctx));
	}
	v = variant_catalog_at(c, base_count + 1, &src, &file);
	CHECK(v && !strcmp(v->name, "example-ratelimit-4ms") && v->tg_ratelimit_ns == 4000000);
	CHECK_EQ_U(src, VARIANT_SOURCE_PLUGIN);
	CHECK_STR(file, so[0]);
	/* the same plugin twice: its names clash, nothing added */
	CHECK_EQ_S(variant_catalog_load_plugin(c, so[0], &err), -1);
	CHECK_CONTAINS(err.msg, "already defined");
	CHECK_EQ_U(variant_catalog_count(c), base_count + 2);

	CHECK_EQ_S(variant_catalog_load_plugin(c, so[1], &err), -1);
	CHECK_CONTAINS(err.msg, "plugin ABI version 3, this schedreplay speaks version 2");
	CHECK_EQ_S(variant_catalog_load_plugin(c, so[2], &err), -1);
	CHECK_CONTAINS(err.msg, "struct model_variant is 80 bytes");
	CHECK_EQ_S(variant_catalog_load_plugin(c, so[3], &err), -1);
	CHECK_CONTAINS(err.msg, "flag bits 0x40000000");
	CHECK_EQ_S(variant_catalog_load_plugin(c, so[4], &err), -1);
	CHECK_CONTAINS(err.msg, "'Bad Name'");
	CHECK_EQ_S(variant_catalog_load_plugin(c, so[5], &err), -1);
	CHECK_CONTAINS(err.msg, "'aaron-skip' is already defined");
	CHECK_EQ_S(variant_catalog_load_plugin(c, so[6], &err), -1);
	CHECK_CONTAINS(err.msg, "not a schedreplay plugin");
	/* sched_features bits the loader must refuse, not ignore (fuzz37: read
	 * at exit 0 before, the unknown bit dropped, the model switch refused
	 * later as "no EEVDF" in 6.18, set and clear both kept) */
	CHECK_EQ_S(variant_catalog_load_plugin(c, so[7], &err), -1);
	CHECK_CONTAINS(err.msg, "sched_features bit 63 names no feature");
	CHECK_EQ_S(variant_catalog_load_plugin(c, so[8], &err), -1);
	CHECK_CONTAINS(err.msg, "sched_features bit 0 is EEVDF, a model switch");
	CHECK_EQ_S(variant_catalog_load_plugin(c, so[9], &err), -1);
	CHECK_CONTAINS(err.msg, "both sets and clears PLACE_LAG");
	CHECK_EQ_S(variant_catalog_load_plugin(c, "/nonexistent/plugin.so", &err), -1);
	CHECK_CONTAINS(err.msg, "/nonexistent/plugin.so: cannot load plugin");
	/* a bare name is ./NAME, never a library-path search */
	CHECK_EQ_S(variant_catalog_load_plugin(c, "libc.so.6", &err), -1);
	CHECK_CONTAINS(err.msg, "libc.so.6: cannot load plugin");
	CHECK_EQ_U(variant_catalog_count(c), base_count + 2);

	/* composition across sources */
	{
		struct model_variant_set set;

		CHECK_EQ_S(variant_catalog_parse_set(c, &set, "aaron-skip, example-ratelimit-4ms",
						     &err), 0);
		CHECK_EQ_U(set.n, 2);
		CHECK(set.n == 2 && set.v[1] == variant_catalog_find(c, "example-ratelimit-4ms"));
		CHECK_EQ_U(model_variant_set_flags(&set),
			   variant_catalog_find(c, "aaron-skip")->flags);
	}
	variant_catalog_free(c);
}

static void test_parse_set(void)
{
	struct sr_error err = { 0 };
	struct variant_catalog *c = variant_catalog_new(&err);
	struct model_variant_set set;

	CHECK_EQ_S(variant_catalog_parse_set(c, &set, "aaron-skip,no-tg-ratelimit", &err), 0);
	CHECK_EQ_U(set.n, 2);
	if (set.n == 2) {
		CHECK_STR(set.v[0]->name, "aaron-skip");
		CHECK_STR(set.v[1]->name, "no-tg-ratelimit");
	}
	CHECK_EQ_U(model_variant_set_flags(&set),
		   model_variant_find("aaron-skip")->flags |
		   model_variant_find("no-tg-ratelimit")->flags);
	CHECK_EQ_S(variant_catalog_parse_set(c, &set, "base", &err), 0);
	CHECK_EQ_U(set.n, 0);
	CHECK_EQ_S(variant_catalog_parse_set(c, &set, "aaron-skp", &err), -1);
	CHECK_CONTAINS(err.msg, "unknown variant 'aaron-skp'");
	CHECK_CONTAINS(err.msg, "aaron-skip");
	CHECK_EQ_S(variant_catalog_parse_set(c, &set, "aaron-skip,,base", &err), -1);
	CHECK_CONTAINS(err.msg, "empty name");
	variant_catalog_free(c);
}

int main(int argc, char **argv)
{
	if (argc != 12) {
		fprintf(stderr, "usage: %s DATA_DIR EXAMPLE.so BAD_ABI.so BAD_SIZE.so BAD_FLAGS.so "
				"BAD_NAME.so BAD_DUP.so BAD_NONE.so BAD_SFBIT.so BAD_SFSWITCH.so "
				"BAD_SFBOTH.so\n", argv[0]);
		return 2;
	}
	data_dir = argv[1];
	test_flags();
	test_abi_pinned();
	test_registered();
	test_json();
	test_plugins(argv + 2);
	test_parse_set();
	return check_done("variants_catalog");
}
