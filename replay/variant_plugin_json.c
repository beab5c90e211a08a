// SPDX-License-Identifier: GPL-2.0
/*
 * Variants defined in JSON files: flags by name and tunables, no code.
 *
 *	{"variants": [{
 *		"name": "skip-dequeue-2ms",
 *		"description": "RFC 4/4 dequeue skip with a 2 ms tg rate limit",
 *		"origin": "what-if, not posted",
 *		"touches": "dequeue_entity, update_tg_load_avg",
 *		"flags": ["SKIP_CG_DEQUEUE_ENTITY"],
 *		"tg_ratelimit_ns": 2000000,
 *		"sched_features": ["NO_RUN_TO_PARITY"]
 *	}]}
 *
 * "sched_features" toggles scheduler features over the profile in the
 * kernel's debugfs syntax (NAME / NO_NAME, model_sched_feature_parse());
 * whether the profile's kernel has them is checked when a run starts.
 *
 * A file may also hold a single variant object.  Every key is checked: a
 * misspelt key or flag name is an error naming the file, the variant and the
 * key, never a silently different experiment.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <schedreplay/whatif.h>

#include "variant_plugin.h"

static const char *const variant_keys[] = {
	"name", "description", "origin", "touches", "flags", "tg_ratelimit_ns", "comment",
	"sched_features",
};

static int dup_string(json_t *obj, const char *key, bool required, char **out,
		      const char *vname, struct sr_error *err)
{
	json_t *s = json_object_get(obj, key);

	*out = NULL;
	if (!s) {
		if (!required)
			return 0;
		sr_error_set(err, EINVAL, "variant '%s': missing \"%s\"", vname, key);
		return -1;
	}
	if (!json_is_string(s)) {
		sr_error_set(err, EINVAL, "variant '%s': \"%s\" must be a string", vname, key);
		return -1;
	}
	*out = strdup(json_string_value(s));
	if (!*out) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	return 0;
}

static void owned_free(struct model_variant *v)
{
	if (!v)
		return;
	free((char *)v->name);
	free((char *)v->origin);
	free((char *)v->description);
	free((char *)v->touches);
	free(v);
}

/* One variant object -> a heap model_variant (strings owned). */
static struct model_variant *variant_from_json(json_t *obj, size_t index, struct sr_error *err)
{
	struct model_variant *v;
	char *name = NULL, *desc = NULL, *origin = NULL, *touches = NULL;
	char label[96];
	const char *key;
	json_t *val, *flags;

	if (!json_is_object(obj)) {
		sr_error_set(err, EINVAL, "variant #%zu is not an object", index);
		return NULL;
	}
	val = json_object_get(obj, "name");
	snprintf(label, sizeof(label), "%s", json_is_string(val) ? json_string_value(val) : "?");
	json_object_foreach(obj, key, val) {
		bool ok = false;

		for (size_t i = 0; i < sizeof(variant_keys) / sizeof(variant_keys[0]); i++)
			ok |= !strcmp(key, variant_keys[i]);
		if (!ok) {
			sr_error_set(err, EINVAL,
				     "variant '%s': unknown key \"%s\" (known: name, description, origin, touches, flags, tg_ratelimit_ns, sched_features, comment)",
				     label, key);
			return NULL;
		}
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		sr_error_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	v->tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP;
	if (dup_string(obj, "name", true, &name, label, err) < 0)
		goto fail;
	v->name = name;
	if (dup_string(obj, "description", true, &desc, label, err) < 0)
		goto fail;
	v->description = desc;
	if (dup_string(obj, "origin", false, &origin, label, err) < 0)
		goto fail;
	v->origin = origin;
	if (dup_string(obj, "touches", false, &touches, label, err) < 0)
		goto fail;
	v->touches = touches;

	flags = json_object_get(obj, "flags");
	if (flags) {
		size_t i;
		json_t *f;

		if (!json_is_array(flags)) {
			sr_error_set(err, EINVAL, "variant '%s': \"flags\" must be a list of names",
				     label);
			goto fail;
		}
		json_array_foreach(flags, i, f) {
			uint32_t bit = json_is_string(f) ?
					       variant_flag_from_name(json_string_value(f)) : 0;

			if (!bit) {
				sr_error_set(err, EINVAL,
					     "variant '%s': unknown flag %s%s%s (see 'schedreplay variants --flags')",
					     label, json_is_string(f) ? "\"" : "#",
					     json_is_string(f) ? json_string_value(f) : "non-string",
					     json_is_string(f) ? "\"" : "");
				goto fail;
			}
			v->flags |= bit;
		}
	}
	val = json_object_get(obj, "sched_features");
	if (val) {
		size_t i;
		json_t *f;
		char msg[700];

		if (!json_is_array(val)) {
			sr_error_set(err, EINVAL,
				     "variant '%s': \"sched_features\" must be a list of NAME or NO_NAME",
				     label);
			goto fail;
		}
		json_array_foreach(val, i, f) {
			if (!json_is_string(f)) {
				sr_error_set(err, EINVAL,
					     "variant '%s': \"sched_features\" #%zu is not a string",
					     label, i);
				goto fail;
			}
			if (model_sched_feature_parse(&v->sched_features, json_string_value(f),
						      msg, sizeof(msg)) < 0) {
				sr_error_set(err, EINVAL, "variant '%s': %s", label, msg);
				goto fail;
			}
		}
	}
	val = json_object_get(obj, "tg_ratelimit_ns");
	if (val) {
		if (!json_is_integer(val) || json_integer_value(val) < MODEL_TG_RATELIMIT_KEEP) {
			sr_error_set(err, EINVAL,
				     "variant '%s': \"tg_ratelimit_ns\" must be an integer: -1 (the profile's), 0 (off) or a period in ns",
				     label);
			goto fail;
		}
		v->tg_ratelimit_ns = (int64_t)json_integer_value(val);
	}
	return v;

fail:
	owned_free(v);
	return NULL;
}

int variant_catalog_load_json(struct variant_catalog *c, const char *path,
			      struct sr_error *err)
{
	json_error_t jerr;
	json_t *root, *list;
	size_t i;
	json_t *obj;
	unsigned int nr_before = catalog_nr_external(c);
	int ret = 0;

	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		sr_error_set_json(err, path, &jerr);
		return -1;
	}
	list = json_object_get(root, "variants");
	if (list && json_object_size(root) != 1) {
		sr_error_set(err, EINVAL, "%s: a file with \"variants\" must hold nothing else",
			     path);
		json_decref(root);
		return -1;
	}
	if (!list) {
		list = json_array();
		if (!list || json_array_append(list, root) < 0) {
			json_decref(list);
			json_decref(root);
			sr_error_set(err, ENOMEM, "%s: out of memory", path);
			return -1;
		}
		json_decref(root);
		root = list;
	} else if (!json_is_array(list) || json_array_size(list) == 0) {
		sr_error_set(err, EINVAL, "%s: \"variants\" must be a non-empty list", path);
		json_decref(root);
		return -1;
	}
	json_array_foreach(list, i, obj) {
		struct model_variant *v = variant_from_json(obj, i, err);

		if (!v) {
			sr_error_prefix(err, "%s", path);
			ret = -1;
			break;
		}
		if (catalog_add_external(c, v, v, VARIANT_SOURCE_JSON, path, err) < 0) {
			ret = -1;
			break;
		}
	}
	if (ret < 0)
		catalog_truncate(c, nr_before);
	json_decref(root);
	return ret;
}
