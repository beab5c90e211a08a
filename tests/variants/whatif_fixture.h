/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The what-if tests' start: the runs @specs[0..n) resolved in @cat into
 * @sets, and the workload of @trace.  NULL (the message printed) if the
 * trace does not extract; a spec that does not resolve is a failed check.
 */
#ifndef SCHEDREPLAY_TESTS_WHATIF_FIXTURE_H
#define SCHEDREPLAY_TESTS_WHATIF_FIXTURE_H

#include <schedreplay/whatif.h>
#include <schedreplay/workload.h>

#include "check.h"

static inline struct wl_workload *whatif_fixture(const struct variant_catalog *cat,
						 const char *const *specs, size_t n,
						 struct model_variant_set *sets, const char *trace)
{
	struct sr_error err = { 0 };
	struct wl_options wo = { 0 };
	struct wl_workload *wl;

	for (size_t i = 0; i < n; i++)
		CHECK_EQ_S(variant_catalog_parse_set(cat, &sets[i], specs[i], &err), 0);
	wl = wl_extract(trace, &wo, &err);
	if (!wl)
		fprintf(stderr, "%s\n", err.msg);
	return wl;
}

#endif /* SCHEDREPLAY_TESTS_WHATIF_FIXTURE_H */
