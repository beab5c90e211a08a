// SPDX-License-Identifier: GPL-2.0
/*
 * The runs a command asks for: `schedreplay whatif` and `schedreplay replay`
 * take the same variant options (--variant A[,B], --all-variants, --plugin,
 * --variants-file) and turn them into the list of variant sets that
 * whatif_run() replays.  One resolution, so both commands name and order
 * their runs the same way.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/whatif.h>

static const char *set_name(const struct model_variant_set *s)
{
	return s->n == 0 || !s->name[0] ? "base" : s->name;
}

static int add(struct whatif_selection *sel, unsigned int *cap, const struct model_variant_set *s,
	       struct sr_error *err)
{
	for (unsigned int i = 0; i < sel->n; i++)
		if (!strcmp(set_name(&sel->sets[i]), set_name(s)))
			return 0;       /* asked twice: one run */
	if (sel->n == *cap) {
		unsigned int ncap = *cap ? 2 * *cap : 16;
		struct model_variant_set *n = realloc(sel->sets, ncap * sizeof(*n));

		if (!n) {
			sr_error_set(err, ENOMEM, "out of memory");
			return -1;
		}
		sel->sets = n;
		*cap = ncap;
	}
	sel->sets[sel->n++] = *s;
	return 0;
}

int whatif_select(const struct variant_catalog *c, bool base_first, bool all,
		  const char *const *specs, unsigned int nr_specs, struct whatif_selection *out,
		  struct sr_error *err)
{
	struct model_variant_set s;
	unsigned int cap = 0;

	out->sets = NULL;
	out->n = 0;
	model_variant_set_init(&s);
	if (base_first && add(out, &cap, &s, err) < 0)
		goto fail;
	for (unsigned int i = 0; all && i < variant_catalog_count(c); i++) {
		const struct model_variant *v = variant_catalog_at(c, i, NULL, NULL);

		if (variant_catalog_parse_set(c, &s, v->name, err) < 0 || add(out, &cap, &s, err) < 0)
			goto fail;
	}
	for (unsigned int i = 0; i < nr_specs; i++)
		if (variant_catalog_parse_set(c, &s, specs[i], err) < 0 || add(out, &cap, &s, err) < 0)
			goto fail;
	if (!out->n) {                 /* nothing asked: base */
		model_variant_set_init(&s);
		if (add(out, &cap, &s, err) < 0)
			goto fail;
	}
	return 0;
fail:
	whatif_selection_release(out);
	return -1;
}

void whatif_selection_release(struct whatif_selection *s)
{
	if (!s)
		return;
	free(s->sets);
	s->sets = NULL;
	s->n = 0;
}
