// SPDX-License-Identifier: GPL-2.0
/*
 * The latency distribution S of every JSON report (stats.h): one writer, so
 * report, replay and whatif cannot disagree on its keys or units.
 */
#include <jansson.h>

#include <schedreplay/stats.h>

/* Microseconds with nanosecond resolution. */
static json_t *jus(uint64_t ns)
{
	return json_real((double)ns / 1000.0);
}

json_t *sr_hist_json(const struct sr_hist *h)
{
	json_t *o = json_object();
	uint64_t v[SR_NR_STD_PCT];

	if (!o)
		return NULL;
	/* jansson integers are signed 64-bit; a sample count fits */
	json_object_set_new(o, "samples", json_integer((json_int_t)h->count));
	if (!h->count) {
		json_object_set_new(o, "min", json_null());
		for (int i = 0; i < SR_NR_STD_PCT; i++)
			json_object_set_new(o, sr_std_pct_key[i], json_null());
		json_object_set_new(o, "max", json_null());
		json_object_set_new(o, "mean", json_null());
		return o;
	}
	sr_hist_percentiles(h, sr_std_pct, SR_NR_STD_PCT, v, NULL);
	json_object_set_new(o, "min", jus(h->min));
	for (int i = 0; i < SR_NR_STD_PCT; i++)
		json_object_set_new(o, sr_std_pct_key[i], jus(v[i]));
	json_object_set_new(o, "max", jus(h->max));
	json_object_set_new(o, "mean", json_real(sr_hist_mean(h) / 1000.0));
	return o;
}
