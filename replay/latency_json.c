// SPDX-License-Identifier: GPL-2.0
/*
 * The wakeup paths of a latency machine as JSON (latency.h,
 * lat_json_paths()): one writer for report, replay and whatif, so that the
 * measured and the predicted paths cannot disagree on their keys.
 */
#include <stdint.h>

#include <jansson.h>

#include <schedreplay/cli.h>
#include <schedreplay/latency.h>

static json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)(v > INT64_MAX ? INT64_MAX : v));
}

/* P of lat_json_paths() */
static json_t *paths_json(const uint64_t *p)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "samples", jint(lat_paths_total(p)));
	for (int i = 0; i < LAT_PATH_NR; i++)
		json_object_set_new(o, lat_path_name(i), jint(p[i]));
	json_object_set_new(o, "local_busy", jint(lat_paths_local_busy(p)));
	json_object_set_new(o, "local_busy_preempt", jint(p[LAT_PATH_PREEMPT_LOCAL]));
	return o;
}

/*
 * {path: {samples, p50, p95, p99}} of lat_json_paths(): the wakeup latency
 * (µs) of each path's samples of `all` (@ph NULL) or of a by-cgroup group
 * (@ph its lat_group.path_lat), percentiles as wakeup_latency_us' (null
 * without samples)
 */
static json_t *path_latency_json(const struct lat_machine *lat, const struct sr_hist *ph)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	for (int i = 0; i < LAT_PATH_NR; i++) {
		const struct sr_hist *h = ph ? &ph[i] : lat_get_all_path_latency(lat, i);
		json_t *e = json_object();
		uint64_t v[LAT_PATH_NR_PCT];

		if (!e) {
			json_decref(o);
			return NULL;
		}
		json_object_set_new(e, "samples", jint(h->count));
		if (h->count)
			sr_hist_percentiles(h, lat_path_pct, LAT_PATH_NR_PCT, v, NULL);
		for (int k = 0; k < LAT_PATH_NR_PCT; k++)
			json_object_set_new(e, lat_path_pct_key[k],
					    h->count ? json_real((double)v[k] / 1000.0) : json_null());
		json_object_set_new(o, lat_path_name(i), e);
	}
	return o;
}

json_t *lat_json_paths(const struct lat_machine *lat)
{
	json_t *o = json_object(), *g = json_object();

	if (!o || !g) {
		json_decref(o);
		json_decref(g);
		return NULL;
	}
	json_object_set_new(o, "all", paths_json(lat_get_all_paths(lat)));
	json_object_set_new(json_object_get(o, "all"), "latency_us", path_latency_json(lat, NULL));
	for (size_t i = 0; i < lat_nr_groups(lat, LAT_BY_CGROUP); i++) {
		const struct lat_group *lg = lat_group_at(lat, LAT_BY_CGROUP, i);
		char kb[CLI_ESC_MAX + 4];
		json_t *e;

		if (!lg->lat[LAT_WAKEUP].count)
			continue;
		e = paths_json(lg->paths);
		if (e && lg->path_lat)
			json_object_set_new(e, "latency_us", path_latency_json(lat, lg->path_lat));
		json_object_set_new(g, lg->key[0] ? sr_json_key(lg->key, kb, sizeof(kb)) : "?", e);
	}
	json_object_set_new(o, "by_cgroup", g);
	return o;
}
