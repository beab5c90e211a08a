/* SPDX-License-Identifier: GPL-2.0 */
/* Private to the variant catalog (variant_plugin*.c). */
#ifndef SCHEDREPLAY_REPLAY_VARIANT_PLUGIN_H
#define SCHEDREPLAY_REPLAY_VARIANT_PLUGIN_H

#include <schedreplay/whatif.h>

/*
 * Add one external variant after variant_check() and a uniqueness check.
 * @owned (may be NULL; its strings are heap copies) is freed with the
 * catalog, and at once if adding fails.  Messages are prefixed with @file.
 */
int catalog_add_external(struct variant_catalog *c, const struct model_variant *v,
			 struct model_variant *owned, enum variant_source src, const char *file,
			 struct sr_error *err);

/* External entries so far, and dropping the ones after the first @nr_ext
 * (a file is loaded all or nothing). */
unsigned int catalog_nr_external(const struct variant_catalog *c);
void catalog_truncate(struct variant_catalog *c, unsigned int nr_ext);

#endif
