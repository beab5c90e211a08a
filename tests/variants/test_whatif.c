// SPDX-License-Identifier: GPL-2.0
/*
 * The what-if run on real traces (traces/small-*.dat):
 *   - it is the replay: each run equals replay_run() with the same
 *     configuration, counter for counter and percentile for percentile;
 *   - the number of threads changes nothing but the wall time;
 *   - the cost estimate uses the run's own busy time and counters;
 *   - the JSON has the replay's "variants" map (same count keys, same
 *     values) plus cpu_share and change_pct, whose numbers are checked;
 *   - the SVG has one curve per run plus the measured one.
 *
 * usage: test_variants_whatif TRACE DATA_DIR EXAMPLE_PLUGIN.so
 */
#include <inttypes.h>
#include <stdlib.h>

#include <jansson.h>

#include <schedreplay/sim.h>
#include <schedreplay/whatif.h>
#include <schedreplay/workload.h>

#include "check.h"
#include "whatif_fixture.h"

static const char *const specs[] = {
	"base", "aaron-skip", "cfs-group-tick-only", "aaron-skip,no-tg-ratelimit",
	"example-top-level-skip", "json-tick-only-nodes", "aaron-series",
};
#define NR_SPECS (sizeof(specs) / sizeof(specs[0]))

static void same_run(const struct replay_result *a, const struct replay_result *b,
		     const char *what)
{
	unsigned int it = 0;
	const char *name;
	uint64_t va, vb;
	const struct sr_hist *ha = lat_get_all(replay_latency(a), LAT_WAKEUP);
	const struct sr_hist *hb = lat_get_all(replay_latency(b), LAT_WAKEUP);

	while (replay_count_next(a, &it, &name, &va)) {
		vb = UINT64_MAX;
		replay_count_get(b, name, &vb);
		check_count++;
		if (va != vb) {
			check_failures++;
			fprintf(stderr, "%s: %s %" PRIu64 " vs %" PRIu64 "\n", what, name, va, vb);
		}
	}
	CHECK_EQ_U(replay_busy_ns(a), replay_busy_ns(b));
	CHECK_EQ_U(ha->count, hb->count);
	for (int p = 0; p < SR_NR_STD_PCT; p++)
		CHECK_EQ_U(sr_hist_percentile(ha, sr_std_pct[p]), sr_hist_percentile(hb, sr_std_pct[p]));
}

static void test_json(const struct wl_workload *wl, const struct whatif_result *r)
{
	struct sr_error err = { 0 };
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	json_t *root, *vars, *base_counts, *direct;
	json_error_t jerr;
	const char *key;
	json_t *val;

	CHECK_EQ_S(whatif_print_json(f, wl, r, NULL, &err), 0);
	fclose(f);
	root = json_loads(buf, 0, &jerr);
	CHECK(root != NULL);
	free(buf);
	if (!root)
		return;
	vars = json_object_get(root, "variants");
	CHECK_EQ_U(json_object_size(vars), whatif_nr_runs(r));
	CHECK(json_object_get(root, "measured") != NULL);
	CHECK(json_object_get(root, "profile") != NULL);
	CHECK(json_object_get(root, "trace") != NULL);
	/* the replay's own JSON of the reference run: the same keys and values */
	{
		/* through text at the replay's precision, as a user compares them */
		json_t *d = replay_json_variant(whatif_run_result(r, 0));
		char *text = json_dumps(d, JSON_REAL_PRECISION(10));

		direct = text ? json_loads(text, 0, &jerr) : NULL;
		free(text);
		json_decref(d);
	}
	base_counts = json_object_get(json_object_get(vars, "base"), "counts");
	CHECK(json_equal(base_counts, json_object_get(direct, "counts")));
	CHECK(json_equal(json_object_get(json_object_get(vars, "base"), "wakeup_latency_us"),
			 json_object_get(direct, "wakeup_latency_us")));
	json_decref(direct);
	for (unsigned int i = 0; i < whatif_nr_runs(r); i++) {
		json_t *v = json_object_get(vars, whatif_run_name(r, i));
		json_t *counts = json_object_get(v, "counts");
		json_t *chg = json_object_get(json_object_get(v, "change_pct"), "counts");
		json_t *share = json_object_get(json_object_get(v, "cpu_share"), "share");
		const struct cost_estimate *e = whatif_run_cost(r, i);

		CHECK(v != NULL);
		if (!v)
			continue;
		/* every variant has the same count keys as the reference */
		CHECK_EQ_U(json_object_size(counts), json_object_size(base_counts));
		json_object_foreach(base_counts, key, val)
			CHECK(json_object_get(counts, key) != NULL);
		/* change_pct is (v - base) / base x 100 */
		json_object_foreach(counts, key, val) {
			double b = (double)json_integer_value(json_object_get(base_counts, key));
			double x = (double)json_integer_value(val);
			json_t *c = json_object_get(chg, key);

			if (b == 0)
				CHECK(json_is_null(c));
			else
				CHECK_NEAR(json_real_value(c), (x - b) / b * 100, 1e-4);
		}
		CHECK_NEAR(json_real_value(json_object_get(share, "total")), e->total_share, 1e-9);
		CHECK_NEAR(json_real_value(json_object_get(share, "update_cfs_group")),
			   e->fn_share[COST_FN_UPDATE_CFS_GROUP], 1e-9);
	}
	json_decref(root);
}

static void test_svg(const struct wl_workload *wl, const struct whatif_result *r)
{
	struct sr_error err = { 0 };
	struct whatif_report_opts o = { 0 };
	char *buf = NULL;
	size_t size = 0, n = 0;
	FILE *f = open_memstream(&buf, &size);

	CHECK_EQ_S(whatif_write_svg(f, wl, r, &o, &err), 0);
	fclose(f);
	for (const char *p = buf ? strstr(buf, "<polyline") : NULL; p; p = strstr(p + 1, "<polyline"))
		n++;
	CHECK_EQ_U(n, whatif_nr_runs(r) + 1);
	CHECK_CONTAINS(buf, "</svg>");
	free(buf);
	/* a cgroup nobody has: every curve empty, still a valid picture */
	o.svg_cgroup = "/no/such/group";
	buf = NULL;
	f = open_memstream(&buf, &size);
	CHECK_EQ_S(whatif_write_svg(f, wl, r, &o, &err), 0);
	fclose(f);
	CHECK(buf && !strstr(buf, "<polyline"));
	CHECK_CONTAINS(buf, "no samples");
	free(buf);
}

int main(int argc, char **argv)
{
	struct sr_error err = { 0 };
	struct model_variant_set sets[NR_SPECS];
	struct variant_catalog *cat;
	struct whatif_result *r1, *r3;
	struct replay_config rc;
	struct wl_workload *wl;
	char path[4096];

	if (argc != 4) {
		fprintf(stderr, "usage: %s TRACE DATA_DIR EXAMPLE_PLUGIN.so\n", argv[0]);
		return 2;
	}
	CHECK(isnan(whatif_change_pct(1, 0)));
	CHECK_NEAR(whatif_change_pct(150, 100), 50, 1e-12);
	CHECK_NEAR(whatif_change_pct(0, 100), -100, 1e-12);

	cat = variant_catalog_new(&err);
	snprintf(path, sizeof(path), "%s/good.json", argv[2]);
	if (!cat || variant_catalog_load_plugin(cat, argv[3], &err) < 0 ||
	    variant_catalog_load_json(cat, path, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	wl = whatif_fixture(cat, specs, NR_SPECS, sets, argv[1]);
	if (!wl) {
		variant_catalog_free(cat);
		return 1;
	}
	for (int profile = 0; profile < 2; profile++) {
		struct whatif_config wc = { .replay = &rc, .sets = sets, .nr_sets = NR_SPECS };

		replay_config_default(&rc);
		rc.profile = model_profile_find(profile ? "6.5" : "6.18");
		rc.placement = profile ? REPLAY_PLACEMENT_MODEL : REPLAY_PLACEMENT_TRACE;
		wc.threads = 1;
		r1 = whatif_run(wl, &wc, &err);
		wc.threads = 3;
		r3 = whatif_run(wl, &wc, &err);
		CHECK(r1 && r3);
		if (!r1 || !r3) {
			fprintf(stderr, "%s\n", err.msg);
			whatif_result_free(r1);
			whatif_result_free(r3);
			continue;
		}
		CHECK_EQ_U(whatif_threads(r1), 1);
		CHECK_EQ_U(whatif_threads(r3), 3);
		CHECK_EQ_U(whatif_nr_runs(r1), NR_SPECS);
		CHECK_STR(whatif_run_name(r1, 0), "base");
		CHECK_STR(whatif_run_name(r1, 3), "aaron-skip,no-tg-ratelimit");
		for (unsigned int i = 0; i < NR_SPECS; i++) {
			struct replay_config one = rc;
			struct replay_result *direct;
			const struct cost_estimate *e = whatif_run_cost(r1, i);

			same_run(whatif_run_result(r1, i), whatif_run_result(r3, i), "1 vs 3 threads");
			one.variants = &sets[i];
			direct = replay_run(wl, &one, &err);
			CHECK(direct != NULL);
			if (direct) {
				same_run(whatif_run_result(r1, i), direct, "what-if vs replay_run");
				replay_result_free(direct);
			}
			CHECK_EQ_U(e->busy_ns, replay_busy_ns(whatif_run_result(r1, i)));
			CHECK_NEAR(e->total_share, e->total_ns / (e->busy_ns + e->total_ns), 1e-12);
			CHECK_EQ_U(e->per_node, i == 5 || i == 6);
		}
		test_json(wl, r1);
		test_svg(wl, r1);
		whatif_result_free(r1);
		whatif_result_free(r3);
	}
	/* run-to-run spread: none without other captures, 0 against itself */
	{
		const struct lat_machine *meas = wl_measured_latency(wl);
		const struct lat_machine *noise[2] = { meas, meas };
		struct whatif_report_opts o = { .noise = noise, .nr_noise = 2 };
		struct whatif_report_opts none = { 0 };

		CHECK(isnan(whatif_noise_spread(meas, &none, LAT_BY_COMM, NULL, 50)));
		CHECK_NEAR(whatif_noise_spread(meas, &o, LAT_BY_COMM, NULL, 50), 0, 0);
		CHECK_NEAR(whatif_noise_spread(meas, &o, LAT_BY_CGROUP, "/srfix", 99), 0, 0);
		CHECK(isnan(whatif_noise_spread(meas, &o, LAT_BY_CGROUP, "/no/such", 50)));
	}

	/* no runs: an error, not a crash */
	{
		struct whatif_config wc = { .sets = sets, .nr_sets = 0 };

		CHECK(whatif_run(wl, &wc, &err) == NULL);
		CHECK_CONTAINS(err.msg, "no variants");
	}
	wl_free(wl);
	variant_catalog_free(cat);
	return check_done("variants_whatif");
}
