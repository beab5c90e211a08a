// SPDX-License-Identifier: GPL-2.0
/*
 * The variant catalog: the registered variants (model/variants.c) plus
 * external ones from plugins (include/schedreplay/plugin.h) and JSON files
 * (variant_plugin_json.c), behind one lookup by name.
 *
 * Plugins are loaded the way libtraceevent loads its plugins: one fixed entry
 * symbol, only from the path the user gave (never searched in the library
 * path), checked before anything of it is used.  What a plugin offers is
 * exactly a struct model_variant, so the model needs no knowledge of where a
 * variant came from; a plugin stays loaded until the catalog is freed, which
 * must outlive every run that uses its variants.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <schedreplay/cli.h>
#include <schedreplay/plugin.h>
#include <schedreplay/whatif.h>

#include "variant_plugin.h"

struct catalog_entry {
	const struct model_variant *v;
	enum variant_source src;
	char *file;                     /* owned copy of the path */
	struct model_variant *owned;    /* JSON variants: freed with the catalog */
};

struct variant_catalog {
	struct catalog_entry *ext;      /* external variants, in loading order */
	unsigned int nr_ext, cap_ext;
	void **dl;                      /* dlopen handles */
	unsigned int nr_dl, cap_dl;
};

/*
 * The flag names users write in JSON files and see in `variants --json`: the
 * enum names of schedreplay/variant.h without MODEL_V_.  A flag added there
 * and not here is reported as unknown by variant_check() (the test
 * variants_flags checks that every bit up to the highest one is named).
 */
#define FLAG(x) { MODEL_V_##x, #x }
static const struct {
	uint32_t bit;
	const char *name;
} flag_names[] = {
	FLAG(TG_LOAD_PER_NODE),
	FLAG(DELAY_REMOVED_LOAD),
	FLAG(SKIP_CG_FIRST_ENQUEUE),
	FLAG(SKIP_CG_DEQUEUE_ENTITY),
	FLAG(SKIP_CG_DEQUEUE_TASK),
	FLAG(SKIP_CG_ENQUEUE_ENTITY),
	FLAG(SKIP_CG_ENQUEUE_TASK),
	FLAG(LAZY_BLOCKED_NEWIDLE),
	FLAG(NEWIDLE_PRE_5_16),
	FLAG(V48_ATTACH),
	FLAG(NO_DECAY_FIRST_ENQUEUE),
	FLAG(UPDATE_CURR_BEFORE_PLACE),
	FLAG(VLAG_VPROT_UNION),
};
#undef FLAG

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const char *variant_flag_name(uint32_t bit)
{
	for (size_t i = 0; i < ARRAY_SIZE(flag_names); i++)
		if (flag_names[i].bit == bit)
			return flag_names[i].name;
	return NULL;
}

uint32_t variant_flag_from_name(const char *name)
{
	if (!name)
		return 0;
	if (!strncasecmp(name, "MODEL_V_", 8))
		name += 8;
	for (size_t i = 0; i < ARRAY_SIZE(flag_names); i++)
		if (!strcasecmp(flag_names[i].name, name))
			return flag_names[i].bit;
	return 0;
}

uint32_t variant_flags_known(void)
{
	uint32_t all = 0;

	for (size_t i = 0; i < ARRAY_SIZE(flag_names); i++)
		all |= flag_names[i].bit;
	return all;
}

static bool name_ok(const char *s)
{
	if (!s || !(islower((unsigned char)*s) || isdigit((unsigned char)*s)))
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    !strchr(".+_-", *s))
			return false;
	return true;
}

int variant_check(const struct model_variant *v, struct sr_error *err)
{
	char msg[160];
	uint32_t unknown;

	if (!v) {
		sr_error_set(err, EINVAL, "variant is NULL");
		return -1;
	}
	if (!name_ok(v->name) || strlen(v->name) > 64) {
		sr_error_set(err, EINVAL,
			     "variant name '%s' is not [a-z0-9][a-z0-9.+_-]* (at most 64 characters)",
			     v->name ? v->name : "(null)");
		return -1;
	}
	if (!v->description || !*v->description) {
		sr_error_set(err, EINVAL, "variant '%s' has no description", v->name);
		return -1;
	}
	unknown = v->flags & ~variant_flags_known();
	if (unknown) {
		sr_error_set(err, EINVAL,
			     "variant '%s' sets flag bits 0x%x that this schedreplay does not know",
			     v->name, unknown);
		return -1;
	}
	if (model_sched_features_valid(&v->sched_features, msg, sizeof(msg)) < 0) {
		sr_error_set(err, EINVAL, "variant '%s': %s", v->name, msg);
		return -1;
	}
	if (v->tg_ratelimit_ns < MODEL_TG_RATELIMIT_KEEP) {
		sr_error_set(err, EINVAL,
			     "variant '%s': tg_ratelimit_ns %lld (use -1 for the profile's, 0 for none)",
			     v->name, (long long)v->tg_ratelimit_ns);
		return -1;
	}
	return 0;
}

struct variant_catalog *variant_catalog_new(struct sr_error *err)
{
	struct variant_catalog *c = calloc(1, sizeof(*c));

	if (!c)
		sr_error_set(err, ENOMEM, "variant catalog: out of memory");
	return c;
}

static void entry_free(struct catalog_entry *e)
{
	free(e->file);
	if (e->owned) {
		free((char *)e->owned->name);
		free((char *)e->owned->origin);
		free((char *)e->owned->description);
		free((char *)e->owned->touches);
		free(e->owned);
	}
}

void variant_catalog_free(struct variant_catalog *c)
{
	if (!c)
		return;
	for (unsigned int i = 0; i < c->nr_ext; i++)
		entry_free(&c->ext[i]);
	free(c->ext);
	for (unsigned int i = 0; i < c->nr_dl; i++)
		dlclose(c->dl[i]);
	free(c->dl);
	free(c);
}

unsigned int variant_catalog_count(const struct variant_catalog *c)
{
	return model_variant_count() + (c ? c->nr_ext : 0);
}

const struct model_variant *variant_catalog_at(const struct variant_catalog *c, unsigned int i,
					       enum variant_source *src, const char **file)
{
	unsigned int nr_builtin = model_variant_count();

	if (i < nr_builtin) {
		if (src)
			*src = VARIANT_SOURCE_BUILTIN;
		if (file)
			*file = NULL;
		return model_variant_at(i);
	}
	i -= nr_builtin;
	if (!c || i >= c->nr_ext)
		return NULL;
	if (src)
		*src = c->ext[i].src;
	if (file)
		*file = c->ext[i].file;
	return c->ext[i].v;
}

const struct model_variant *variant_catalog_find(const struct variant_catalog *c,
						 const char *name)
{
	const struct model_variant *v = model_variant_find(name);

	if (v || !c)
		return v;
	for (unsigned int i = 0; i < c->nr_ext; i++)
		if (!strcmp(c->ext[i].v->name, name))
			return c->ext[i].v;
	return NULL;
}


static const struct model_variant *catalog_at(const void *c, unsigned int i)
{
	return variant_catalog_at(c, i, NULL, NULL);
}

/*
 * Add one checked external variant.  @owned (may be NULL) is freed with the
 * catalog, also when adding fails.
 */
int catalog_add_external(struct variant_catalog *c, const struct model_variant *v,
			 struct model_variant *owned, enum variant_source src, const char *file,
			 struct sr_error *err)
{
	struct catalog_entry e = { .v = v, .src = src, .owned = owned };

	if (variant_check(v, err) < 0)
		goto fail_prefix;
	if (variant_catalog_find(c, v->name)) {
		sr_error_set(err, EEXIST, "variant '%s' is already defined (names are unique)",
			     v->name);
		goto fail_prefix;
	}
	if (c->nr_ext == c->cap_ext) {
		unsigned int cap = c->cap_ext ? 2 * c->cap_ext : 8;
		struct catalog_entry *n = realloc(c->ext, cap * sizeof(*n));

		if (!n) {
			sr_error_set(err, ENOMEM, "out of memory");
			goto fail_prefix;
		}
		c->ext = n;
		c->cap_ext = cap;
	}
	e.file = strdup(file);
	if (!e.file) {
		sr_error_set(err, ENOMEM, "out of memory");
		goto fail_prefix;
	}
	c->ext[c->nr_ext++] = e;
	return 0;

fail_prefix:
	sr_error_prefix(err, "%s", file);
	e.file = NULL;
	entry_free(&e);
	return -1;
}

unsigned int catalog_nr_external(const struct variant_catalog *c)
{
	return c->nr_ext;
}

void catalog_truncate(struct variant_catalog *c, unsigned int nr_ext)
{
	while (c->nr_ext > nr_ext)
		entry_free(&c->ext[--c->nr_ext]);
}

static int keep_handle(struct variant_catalog *c, void *h, struct sr_error *err)
{
	if (c->nr_dl == c->cap_dl) {
		unsigned int cap = c->cap_dl ? 2 * c->cap_dl : 4;
		void **n = realloc(c->dl, cap * sizeof(*n));

		if (!n) {
			sr_error_set(err, ENOMEM, "out of memory");
			return -1;
		}
		c->dl = n;
		c->cap_dl = cap;
	}
	c->dl[c->nr_dl++] = h;
	return 0;
}

int variant_catalog_load_plugin(struct variant_catalog *c, const char *path,
				struct sr_error *err)
{
	const struct schedreplay_plugin *p;
	schedreplay_plugin_entry_fn entry;
	unsigned int nr_before = c->nr_ext;
	char *local = NULL;
	const char *open_path = path;
	void *h, *sym;

	/* Never search LD_LIBRARY_PATH and friends: only the file named. */
	if (!strchr(path, '/')) {
		local = malloc(strlen(path) + 3);
		if (!local) {
			sr_error_set(err, ENOMEM, "%s: out of memory", path);
			return -1;
		}
		strcpy(local, "./");
		strcat(local, path);
		open_path = local;
	}
	/*
	 * dlopen() maps the file: a FIFO (or a terminal) can never be one, and
	 * its open() waited for a writer that could not help (fuzz40: a hang,
	 * then "failed to map segment").  A missing file is dlopen()'s error.
	 */
	{
		struct stat st;

		if (stat(open_path, &st) == 0 && !S_ISREG(st.st_mode)) {
			sr_error_set(err, EINVAL, "%s: cannot load plugin: not a regular file (a "
				     "plugin is a shared object, which dlopen() maps)", path);
			free(local);
			return -1;
		}
	}
	dlerror();
	h = dlopen(open_path, RTLD_NOW | RTLD_LOCAL);
	free(local);
	if (!h) {
		const char *why = dlerror();

		sr_error_set(err, ENOENT, "%s: cannot load plugin: %s", path,
			     why ? why : "dlopen failed");
		return -1;
	}
	if (keep_handle(c, h, err) < 0) {
		dlclose(h);
		sr_error_prefix(err, "%s", path);
		return -1;
	}
	dlerror();
	sym = dlsym(h, SCHEDREPLAY_PLUGIN_ENTRY);
	if (!sym) {
		sr_error_set(err, ENOENT,
			     "%s: not a schedreplay plugin (no '%s' symbol; see include/schedreplay/plugin.h)",
			     path, SCHEDREPLAY_PLUGIN_ENTRY);
		return -1;
	}
	entry = (schedreplay_plugin_entry_fn)sym;
	p = entry();
	if (!p) {
		sr_error_set(err, EINVAL, "%s: %s() returned NULL", path, SCHEDREPLAY_PLUGIN_ENTRY);
		return -1;
	}
	if (p->abi_version != SCHEDREPLAY_PLUGIN_ABI_VERSION) {
		sr_error_set(err, EPROTO,
			     "%s: plugin built for plugin ABI version %u, this schedreplay speaks version %u: rebuild it against this include/schedreplay/plugin.h",
			     path, p->abi_version, SCHEDREPLAY_PLUGIN_ABI_VERSION);
		return -1;
	}
	if (p->variant_size != sizeof(struct model_variant)) {
		sr_error_set(err, EPROTO,
			     "%s: plugin's struct model_variant is %u bytes, this schedreplay's is %zu (same ABI version %u, different headers): rebuild it",
			     path, p->variant_size, sizeof(struct model_variant),
			     SCHEDREPLAY_PLUGIN_ABI_VERSION);
		return -1;
	}
	if (!p->variants || p->nr_variants == 0 || p->nr_variants > 256) {
		sr_error_set(err, EINVAL, "%s: plugin '%s' offers %u variants (1..256 expected)", path,
			     p->name ? p->name : "?", p->nr_variants);
		return -1;
	}
	for (unsigned int i = 0; i < p->nr_variants; i++) {
		if (catalog_add_external(c, p->variants[i], NULL, VARIANT_SOURCE_PLUGIN, path,
					 err) < 0) {
			/* all or nothing: drop what this plugin added */
			catalog_truncate(c, nr_before);
			return -1;
		}
	}
	return 0;
}

int variant_catalog_parse_set(const struct variant_catalog *c, struct model_variant_set *set,
			      const char *spec, struct sr_error *err)
{
	char *copy, *rest, *tok;
	int ret = 0;

	model_variant_set_init(set);
	if (!spec || !*spec)
		return 0;
	copy = strdup(spec);
	if (!copy) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	/* strsep, not strtok: "a,,b" has an empty part, which is an error */
	rest = copy;
	while ((tok = strsep(&rest, ",")) != NULL) {
		const struct model_variant *v;
		char *end;

		while (isspace((unsigned char)*tok))
			tok++;
		end = tok + strlen(tok);
		while (end > tok && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (!*tok) {
			char esc[256];

			/* as typed, escaped: a byte not UTF-8 is \xNN (cli.h) */
			sr_esc(esc, sizeof(esc), spec, SR_ESC_TEXT);
			sr_error_set(err, EINVAL, "--variant '%s': an empty name in the list (names "
				     "separated by commas; see 'schedreplay variants')", esc);
			ret = -1;
			break;
		}
		if (!strcmp(tok, "base"))
			continue;
		v = variant_catalog_find(c, tok);
		if (!v) {
			char esc[256];

			/* as typed, escaped: a byte not UTF-8 is \xNN (cli.h) */
			sr_esc(esc, sizeof(esc), tok, SR_ESC_TEXT);
			model_variant_unknown(err, tok, esc, catalog_at, c, variant_catalog_count(c));
			ret = -1;
			break;
		}
		/*
		 * A name twice, or more than compose: one line that says where
		 * to look, as the other errors of a --variant list (it ended
		 * at "given twice": fuzz40)
		 */
		if (model_variant_set_add(set, v, err) < 0) {
			char esc[256], msg[SR_ERROR_MSG_MAX];

			sr_esc(esc, sizeof(esc), spec, SR_ESC_TEXT);
			if (err) {
				snprintf(msg, sizeof(msg), "%s", err->msg);
				sr_error_set(err, err->code, "--variant '%s': %s (see 'schedreplay "
					     "variants')", esc, msg);
			}
			ret = -1;
			break;
		}
	}
	free(copy);
	return ret;
}
