// SPDX-License-Identifier: GPL-2.0
/*
 * `whatif --seeds N` on traces/make-probe.dat (6.18, trace placement): the
 * replay is chaotic there, so the seeds differ and a wrong median shows.
 *   - the statistics themselves on made-up figures (median = lower middle,
 *     min, max, NAN when a seed lacks the figure, the median seed, overlap);
 *   - a 3-seed run's seed s is the 1-seed run with --seed 1 + s;
 *   - every number of every variant's JSON is the median of the three
 *     single-seed runs' values at the same key, seeds_min/seeds_max their
 *     min and max, and with 2 seeds the median is the lower one;
 *   - change_pct is the change of the medians;
 *   - tg-ratelimit, which 6.18's own rate limit makes base's twin, changes
 *     nothing and every change is within base's seed range, in JSON and
 *     text; lazy-blocked-update's update_blocked_averages fall (-35.8 %) is
 *     outside it, in JSON and text.
 *
 * usage: test_variants_whatif_seeds TRACES_DIR/make-probe.dat
 */
#include <inttypes.h>
#include <stdlib.h>

#include <jansson.h>

#include <schedreplay/profile.h>
#include <schedreplay/sim.h>
#include <schedreplay/whatif.h>
#include <schedreplay/workload.h>

#include "check.h"
#include "whatif_fixture.h"

static const char *const specs[] = { "base", "tg-ratelimit", "lazy-blocked-update", "aaron-skip" };
#define NR_SPECS (sizeof(specs) / sizeof(specs[0]))

/* ---- the statistics on made-up figures ------------------------------------ */

static const double *fake_values;

static double fake_fig(const struct whatif_result *r, unsigned int i, unsigned int s,
		       const void *ctx)
{
	(void)r;
	(void)i;
	(void)ctx;
	return fake_values[s];
}

static void test_figures(const struct whatif_result *r3)
{
	static const double v[3] = { 5, 1, 3 }, tie[3] = { 2, 2, 1 }, hole[3] = { 1, NAN, 3 };
	struct whatif_figure f, a = { 2, 1, 2 }, b = { 3, 2, 3 }, c = { 3, 2.5, 3 };

	CHECK_EQ_U(whatif_nr_seeds(r3), 3);
	fake_values = v;
	whatif_figure_get(r3, 0, fake_fig, NULL, &f);
	CHECK_NEAR(f.median, 3, 0);
	CHECK_NEAR(f.min, 1, 0);
	CHECK_NEAR(f.max, 5, 0);
	CHECK_EQ_U(whatif_figure_median_seed(r3, 0, fake_fig, NULL), 2);
	fake_values = tie;          /* the median 2 is seeds 0 and 1's: the first */
	CHECK_EQ_U(whatif_figure_median_seed(r3, 0, fake_fig, NULL), 0);
	fake_values = hole;
	whatif_figure_get(r3, 0, fake_fig, NULL, &f);
	CHECK(isnan(f.median) && isnan(f.min) && isnan(f.max));
	/* overlap: [1, 2] touches [2, 3], not [2.5, 3] */
	CHECK(whatif_figure_within_seeds(r3, &a, &b));
	CHECK(whatif_figure_within_seeds(r3, &b, &a));
	CHECK(!whatif_figure_within_seeds(r3, &a, &c));
	CHECK(!whatif_figure_within_seeds(r3, &c, &a));
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *report_json(const struct wl_workload *wl, const struct whatif_result *r)
{
	struct sr_error err = { 0 };
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	json_error_t jerr;
	json_t *root;

	CHECK_EQ_S(whatif_print_json(f, wl, r, NULL, &err), 0);
	fclose(f);
	root = buf ? json_loads(buf, 0, &jerr) : NULL;
	CHECK(root != NULL);
	free(buf);
	return root;
}

static char *report_text(const struct wl_workload *wl, const struct whatif_result *r)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	struct whatif_report_opts o = { .top = 6 };

	CHECK_EQ_S(whatif_print_text(f, wl, r, &o), 0);
	fclose(f);
	return buf;
}

static int leaves;      /* numeric leaves compared */

static int cmp_json_num(const void *a, const void *b)
{
	double x = json_number_value(*(json_t *const *)a), y = json_number_value(*(json_t *const *)b);

	return x < y ? -1 : x > y;
}

/*
 * @med, @lo, @hi (the n-seed report's median, seeds_min, seeds_max at
 * @path) against the single-seed reports' values @one[0..n) there.
 */
static void same_stats(json_t *med, json_t *lo, json_t *hi, json_t **one, unsigned int n,
		       const char *path)
{
	json_t *sorted[3];
	bool numbers = true;

	for (unsigned int s = 0; s < n; s++)
		numbers &= json_is_number(one[s]);
	if (json_is_object(one[0])) {
		const char *key;
		json_t *val;

		json_object_foreach(one[0], key, val) {
			json_t *sub[3];
			char p[1024];

			for (unsigned int s = 0; s < n; s++)
				sub[s] = json_object_get(one[s], key);
			snprintf(p, sizeof(p), "%s.%s", path, key);
			if (sub[n - 1] && (n < 3 || sub[1]))
				same_stats(json_object_get(med, key), json_object_get(lo, key),
					   json_object_get(hi, key), sub, n, p);
		}
		return;
	}
	if (!numbers) {
		bool any_null = false;

		for (unsigned int s = 0; s < n; s++)
			any_null |= json_is_null(one[s]);
		if (any_null && json_is_number(one[0]))
			CHECK_MSG(json_is_null(med), "%s: a seed has null, the median is not", path);
		return;
	}
	memcpy(sorted, one, n * sizeof(*one));
	qsort(sorted, n, sizeof(*sorted), cmp_json_num);
	leaves++;
	CHECK_MSG(json_is_number(med) && json_number_value(med) == json_number_value(sorted[(n - 1) / 2]),
		  "%s: median %.10g, seeds' values sorted %.10g %.10g%s", path, json_number_value(med),
		  json_number_value(sorted[0]), json_number_value(sorted[1]), n > 2 ? " ..." : "");
	CHECK_MSG(json_is_number(lo) && json_number_value(lo) == json_number_value(sorted[0]),
		  "%s: seeds_min %.10g, expected %.10g", path, json_number_value(lo),
		  json_number_value(sorted[0]));
	CHECK_MSG(json_is_number(hi) && json_number_value(hi) == json_number_value(sorted[n - 1]),
		  "%s: seeds_max %.10g, expected %.10g", path, json_number_value(hi),
		  json_number_value(sorted[n - 1]));
}

/* @multi (n seeds) against the single-seed reports @one[0..n), every variant. */
static void check_medians(json_t *multi, json_t **one, unsigned int n)
{
	json_t *mv = json_object_get(multi, "variants");
	const char *name;
	json_t *v;

	json_object_foreach(mv, name, v) {
		static const char *const parts[] = { "counts", "wakeup_latency_us",
						     "runqueue_wait_us", "long_waits", "simulation",
						     "cpu_share", "errors" };

		for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++) {
			json_t *sub[3];
			char path[256];

			for (unsigned int s = 0; s < n; s++)
				sub[s] = json_object_get(json_object_get(json_object_get(one[s], "variants"),
									 name), parts[p]);
			CHECK_MSG(sub[0] != NULL, "%s: no %s", name, parts[p]);
			if (!sub[0])
				continue;
			snprintf(path, sizeof(path), "%s.%s", name, parts[p]);
			same_stats(json_object_get(v, parts[p]),
				   json_object_get(json_object_get(v, "seeds_min"), parts[p]),
				   json_object_get(json_object_get(v, "seeds_max"), parts[p]), sub, n, path);
		}
	}
}

/* Every non-null leaf of @t is 0 (@want_zero) or true. */
static void all_leaves(json_t *t, bool want_zero, const char *path, int *seen)
{
	const char *key;
	json_t *val;

	if (json_is_object(t)) {
		json_object_foreach(t, key, val) {
			char p[1024];

			snprintf(p, sizeof(p), "%s.%s", path, key);
			all_leaves(val, want_zero, p, seen);
		}
		return;
	}
	if (json_is_null(t))
		return;
	(*seen)++;
	if (want_zero)
		CHECK_MSG(json_is_number(t) && json_number_value(t) == 0, "%s: change %g, expected 0",
			  path, json_number_value(t));
	else
		CHECK_MSG(json_is_true(t), "%s: not within base's seed range", path);
}

static double count_of(json_t *report, const char *variant, const char *key)
{
	return json_number_value(json_object_get(json_object_get(json_object_get(
		json_object_get(report, "variants"), variant), "counts"), key));
}

static double median3(double a, double b, double c)
{
	double v[3] = { a, b, c }, t;

	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (v[j] < v[i]) {
				t = v[i];
				v[i] = v[j];
				v[j] = t;
			}
	return v[1];
}

/* The text row of @variant in the table whose header contains @column. */
static const char *text_row(const char *text, const char *column, const char *variant,
			    char *line, size_t size)
{
	const char *p = text ? strstr(text, column) : NULL;
	size_t len = strlen(variant);

	while (p && (p = strchr(p, '\n'))) {
		p++;
		if (!strncmp(p, variant, len) && p[len] == ' ') {
			const char *e = strchr(p, '\n');

			snprintf(line, size, "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
			return line;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct sr_error err = { 0 };
	struct model_variant_set sets[NR_SPECS];
	struct variant_catalog *cat;
	struct whatif_result *r3, *r2, *one[3];
	json_t *j3, *j2, *jone[3];
	struct replay_config rc;
	struct wl_workload *wl;
	char *text, line[1024];

	if (argc != 2) {
		fprintf(stderr, "usage: %s make-probe.dat\n", argv[0]);
		return 2;
	}
	cat = variant_catalog_new(&err);
	if (!cat)
		fprintf(stderr, "%s\n", err.msg);
	wl = cat ? whatif_fixture(cat, specs, NR_SPECS, sets, argv[1]) : NULL;
	if (!wl) {
		variant_catalog_free(cat);
		return 1;
	}
	replay_config_default(&rc);
	rc.profile = model_profile_find("6.18");
	{
		struct whatif_config wc = { .replay = &rc, .sets = sets, .nr_sets = NR_SPECS,
					    .threads = 2 };

		rc.seed = 1;
		wc.seeds = 3;
		r3 = whatif_run(wl, &wc, &err);
		wc.seeds = 2;
		r2 = whatif_run(wl, &wc, &err);
		wc.seeds = 1;
		for (int k = 0; k < 3; k++) {
			rc.seed = 1 + (uint64_t)k;
			one[k] = whatif_run(wl, &wc, &err);
		}
		wc.seeds = WHATIF_MAX_SEEDS + 1;
		CHECK(whatif_run(wl, &wc, &err) == NULL);
		CHECK_CONTAINS(err.msg, "at most 15");
	}
	if (!r3 || !r2 || !one[0] || !one[1] || !one[2]) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	test_figures(r3);
	CHECK_EQ_U(whatif_nr_seeds(one[0]), 1);
	/* seed s of the 3-seed run is the run with --seed 1 + s */
	for (unsigned int i = 0; i < NR_SPECS; i++)
		for (unsigned int s = 0; s < 3; s++)
			CHECK_EQ_U(replay_busy_ns(whatif_seed_result(r3, i, s)),
				   replay_busy_ns(whatif_run_result(one[s], i)));
	j3 = report_json(wl, r3);
	j2 = report_json(wl, r2);
	for (int k = 0; k < 3; k++)
		jone[k] = report_json(wl, one[k]);
	/* the seeds differ on this trace, or the medians below prove nothing */
	CHECK(count_of(jone[0], "base", "update_blocked_averages") !=
	      count_of(jone[1], "base", "update_blocked_averages") ||
	      count_of(jone[1], "base", "update_blocked_averages") !=
	      count_of(jone[2], "base", "update_blocked_averages"));

	check_medians(j3, jone, 3);
	CHECK_MSG(leaves > 4000, "only %d numbers compared", leaves);
	leaves = 0;
	check_medians(j2, jone, 2);          /* the lower middle of two: the smaller */
	CHECK_MSG(leaves > 4000, "only %d numbers compared", leaves);

	/* change_pct: the change of the medians */
	{
		static const char *const keys[] = { "sched_switch", "update_cfs_group",
						    "update_blocked_averages", "tg_load_avg_writes" };

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			double b = median3(count_of(jone[0], "base", keys[k]),
					   count_of(jone[1], "base", keys[k]),
					   count_of(jone[2], "base", keys[k]));
			double v = median3(count_of(jone[0], "aaron-skip", keys[k]),
					   count_of(jone[1], "aaron-skip", keys[k]),
					   count_of(jone[2], "aaron-skip", keys[k]));
			json_t *c = json_object_get(json_object_get(json_object_get(json_object_get(
				json_object_get(j3, "variants"), "aaron-skip"), "change_pct"), "counts"),
				keys[k]);

			CHECK_NEAR(json_real_value(c), (v - b) / b * 100, 1e-4);
		}
	}

	/* tg-ratelimit is base's twin on 6.18: all 0, all within */
	{
		json_t *v = json_object_get(json_object_get(j3, "variants"), "tg-ratelimit");
		int zeros = 0, withins = 0;

		all_leaves(json_object_get(v, "change_pct"), true, "tg-ratelimit.change_pct", &zeros);
		all_leaves(json_object_get(v, "change_within_seed_range"), false,
			   "tg-ratelimit.change_within_seed_range", &withins);
		CHECK_MSG(zeros > 100 && zeros == withins, "%d changes, %d within", zeros, withins);
	}
	/* lazy-blocked-update's fall of update_blocked_averages is not chaos */
	{
		json_t *v = json_object_get(json_object_get(j3, "variants"), "lazy-blocked-update");
		json_t *c = json_object_get(json_object_get(v, "change_pct"), "counts");
		json_t *w = json_object_get(json_object_get(v, "change_within_seed_range"), "counts");

		CHECK_NEAR(json_real_value(json_object_get(c, "update_blocked_averages")), -34.2857,
			   1e-4);
		CHECK(json_is_false(json_object_get(w, "update_blocked_averages")));
		CHECK_EQ_U(json_integer_value(json_object_get(json_object_get(
			json_object_get(v, "seeds_min"), "counts"), "update_blocked_averages")), 421);
		CHECK_EQ_U(json_integer_value(json_object_get(json_object_get(
			json_object_get(v, "seeds_max"), "counts"), "update_blocked_averages")), 443);
	}
	CHECK_EQ_U(json_integer_value(json_object_get(json_object_get(json_object_get(j3, "whatif"),
								       "seeds"), "count")), 3);
	CHECK(json_object_get(json_object_get(jone[0], "whatif"), "seeds") == NULL);
	CHECK(json_object_get(json_object_get(json_object_get(jone[0], "variants"), "base"),
			      "seeds_min") == NULL);

	/* the text: the same marks */
	text = report_text(wl, r3);
	CHECK_CONTAINS(text, "the median over model seeds 1..3");
	CHECK(text_row(text, "update_blocked_averages", "lazy-blocked-update", line, sizeof(line)));
	CHECK_CONTAINS(line, " 437 (-34.3%) ");
	CHECK(text_row(text, "update_blocked_averages", "tg-ratelimit", line, sizeof(line)));
	CHECK_CONTAINS(line, "665 (+0.0%)~");
	{
		/* every change of every tg-ratelimit row is marked */
		int rows = 0, changes = 0;

		for (const char *p = text; p && (p = strstr(p, "\ntg-ratelimit ")); p++) {
			const char *e = strchr(p + 1, '\n');

			rows++;
			for (const char *q = strstr(p, "%)"); q && (!e || q < e); q = strstr(q + 1, "%)")) {
				changes++;
				CHECK_MSG(q[2] == '~', "unmarked change in: %.*s", (int)(e - p - 1), p + 1);
			}
		}
		CHECK_MSG(rows >= 10 && changes >= 40, "%d tg-ratelimit rows, %d changes", rows, changes);
	}
	free(text);
	text = report_text(wl, one[0]);
	CHECK(text && !strstr(text, "model seeds"));
	CHECK(text_row(text, "update_blocked_averages", "tg-ratelimit", line, sizeof(line)));
	CHECK(!strchr(line, '~'));
	free(text);

	json_decref(j3);
	json_decref(j2);
	for (int k = 0; k < 3; k++) {
		json_decref(jone[k]);
		whatif_result_free(one[k]);
	}
	whatif_result_free(r3);
	whatif_result_free(r2);
	wl_free(wl);
	variant_catalog_free(cat);
	return check_done("variants_whatif_seeds");
}
