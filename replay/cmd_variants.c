// SPDX-License-Identifier: GPL-2.0
/*
 * schedreplay variants [--json] [--flags] [--plugin PATH]... [--variants-file FILE]...
 *
 * Lists the model variants: the registered ones (model/variants.c) and any
 * loaded from plugins or JSON files, with origin, the exact behaviour change,
 * the kernel functions touched, flags and rate-limit override.  Scripts use
 * the JSON form (a list of objects with at least "name" and "description").
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include <schedreplay/cli.h>
#include <schedreplay/whatif.h>

static const char *source_name(enum variant_source s)
{
	switch (s) {
	case VARIANT_SOURCE_BUILTIN: return "builtin";
	case VARIANT_SOURCE_PLUGIN:  return "plugin";
	case VARIANT_SOURCE_JSON:    return "json";
	}
	return "?";
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: schedreplay variants [--json] [--flags] [--sched-features]\n"
		"                            [--plugin PATH]... [--variants-file FILE]...\n\n"
		"List the model variants (the seed patches as model configuration), with\n"
		"origin, behaviour change and the kernel functions they touch.\n\n"
		"  --json                a JSON list of objects (name, description, origin,\n"
		"                        touches, flags, tg_ratelimit_ns, hook, source, file)\n"
		"  --flags               list the behaviour flag names JSON variant files use\n"
		"                        (text; not with --json or --sched-features)\n"
		"  --sched-features      list the scheduler features --sched-feature and\n"
		"                        \"sched_features\" may toggle, with each profile's default\n"
		"                        (text; not with --json)\n"
		"  --plugin PATH         also load the variants of a plugin (.so, see\n"
		"                        docs/variants.md)\n"
		"  --variants-file FILE  also load variants from a JSON file\n");
}

static void print_ratelimit(FILE *out, int64_t ns)
{
	if (ns == MODEL_TG_RATELIMIT_KEEP)
		fprintf(out, "the profile's");
	else if (ns == 0)
		fprintf(out, "off");
	else
		fprintf(out, "%" PRId64 " ns", ns);
}

static void print_text(const struct variant_catalog *c, FILE *out)
{
	for (unsigned int i = 0; i < variant_catalog_count(c); i++) {
		enum variant_source src;
		const char *file;
		const struct model_variant *v = variant_catalog_at(c, i, &src, &file);
		bool any = false;
		char sfb[MODEL_SCHED_FEATURES_TEXT];
		const char *sft;

		fprintf(out, "%s%s", i ? "\n" : "", v->name);
		if (src != VARIANT_SOURCE_BUILTIN)
			fprintf(out, "  (%s %s)", source_name(src), cli_esc(file));
		/* a plugin's or a JSON file's text ("\u001b" in JSON): one line each */
		fprintf(out, "\n  %s\n", cli_esc(v->description));
		if (v->origin && *v->origin)
			fprintf(out, "  origin:  %s\n", cli_esc(v->origin));
		if (v->touches && *v->touches)
			fprintf(out, "  touches: %s\n", cli_esc(v->touches));
		fprintf(out, "  flags:   ");
		for (uint32_t bit = 1; bit; bit <<= 1) {
			if (!(v->flags & bit))
				continue;
			fprintf(out, "%s%s", any ? " " : "", variant_flag_name(bit));
			any = true;
		}
		fprintf(out, "%s\n", any ? "" : "-");
		sft = model_sched_features_text(&v->sched_features, sfb, sizeof(sfb));
		if (sft)
			fprintf(out, "  sched_features: %s\n", sft);
		fprintf(out, "  tg rate limit: ");
		print_ratelimit(out, v->tg_ratelimit_ns);
		fprintf(out, "%s\n", v->update_cfs_group ? "\n  hook: update_cfs_group()" : "");
	}
}

static int set_str(json_t *o, const char *k, const char *v)
{
	/* a plugin's bytes need not be UTF-8: json_string() refused them */
	return json_object_set_new(o, k, sr_json_string(v));
}

static json_t *to_json(const struct variant_catalog *c)
{
	json_t *list = json_array();

	if (!list)
		return NULL;
	for (unsigned int i = 0; i < variant_catalog_count(c); i++) {
		enum variant_source src;
		const char *file;
		const struct model_variant *v = variant_catalog_at(c, i, &src, &file);
		json_t *o = json_object(), *flags = json_array();
		int bad = !o || !flags;
		char sfb[MODEL_SCHED_FEATURES_TEXT];
		const char *sft;

		for (uint32_t bit = 1; !bad && bit; bit <<= 1)
			if (v->flags & bit)
				bad |= json_array_append_new(flags, json_string(variant_flag_name(bit)));
		if (!bad) {
			bad |= set_str(o, "name", v->name);
			bad |= set_str(o, "description", v->description);
			bad |= set_str(o, "origin", v->origin);
			bad |= set_str(o, "touches", v->touches);
			bad |= json_object_set_new(o, "flags", flags);
			flags = NULL;
			bad |= json_object_set_new(o, "tg_ratelimit_ns",
						   json_integer(v->tg_ratelimit_ns));
			bad |= json_object_set_new(o, "hook", json_boolean(v->update_cfs_group));
			sft = model_sched_features_text(&v->sched_features, sfb, sizeof(sfb));
			if (sft)
				bad |= set_str(o, "sched_features", sft);
			bad |= set_str(o, "source", source_name(src));
			bad |= set_str(o, "file", file);
		}
		json_decref(flags);
		if (bad || json_array_append_new(list, o) < 0) {
			if (!bad)
				o = NULL;
			json_decref(o);
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

int cmd_variants(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "flags", no_argument, NULL, 'f' },
		{ "sched-features", no_argument, NULL, 's' },
		{ "plugin", required_argument, NULL, 'p' },
		{ "variants-file", required_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sr_error err = { 0 };
	struct variant_catalog *c;
	bool json = false, flags = false, feats = false;
	int opt, ret = SR_EXIT_OK;

	c = variant_catalog_new(&err);
	if (!c) {
		fprintf(stderr, "schedreplay variants: %s\n", err.msg);
		return SR_EXIT_FAIL;
	}
	optind = 1;
	opterr = 0;     /* cli_getopt_error(): getopt's messages print the option raw */
	while ((opt = getopt_long(argc, argv, ":jfsp:V:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'f':
			flags = true;
			break;
		case 's':
			feats = true;
			break;
		case 'p':
			if (variant_catalog_load_plugin(c, optarg, &err) < 0)
				goto fail;
			break;
		case 'V':
			if (variant_catalog_load_json(c, optarg, &err) < 0)
				goto fail;
			break;
		case 'h':
			usage(stdout);
			variant_catalog_free(c);
			return SR_EXIT_OK;
		default:
			/* the whole usage on stderr: the one line that mattered scrolled away */
			cli_getopt_error("variants", opt, argv, opts);
			variant_catalog_free(c);
			return SR_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		cli_usage("variants", "unexpected argument '%s'", cli_esc(argv[optind]));
		variant_catalog_free(c);
		return SR_EXIT_USAGE;
	}
	/*
	 * Three listings, one at a time: --flags --json printed the text list
	 * and --sched-features --flags only the features, at exit 0 (fuzz40)
	 */
	if ((feats && flags) || ((feats || flags) && json)) {
		cli_usage("variants", "%s: one listing at a time (--json is the variant list's)",
			  feats && flags ? "--flags with --sched-features" :
			  feats ? "--sched-features with --json" : "--flags with --json");
		variant_catalog_free(c);
		return SR_EXIT_USAGE;
	}
	if (feats) {
		model_sched_features_list(stdout);
	} else if (flags) {
		for (uint32_t bit = 1; bit; bit <<= 1)
			if (variant_flag_name(bit))
				printf("%s\n", variant_flag_name(bit));
	} else if (json) {
		json_t *list = to_json(c);

		if (!list || json_dumpf(list, stdout, JSON_INDENT(2)) < 0) {
			sr_error_set(&err, 0, "cannot write JSON");
			json_decref(list);
			goto fail;
		}
		putchar('\n');
		json_decref(list);
	} else {
		print_text(c, stdout);
	}
	if (fflush(stdout) != 0) {
		sr_error_set(&err, 0, "cannot write the output");
		goto fail;
	}
	variant_catalog_free(c);
	return ret;

fail:
	fprintf(stderr, "schedreplay variants: %s\n", err.msg);
	variant_catalog_free(c);
	return SR_EXIT_FAIL;
}
