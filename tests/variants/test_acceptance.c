// SPDX-License-Identifier: GPL-2.0
/*
 * Issue 6's acceptance on the make -j + latency-probe captures (traces/
 * make-probe*.dat): for the 6.5 profile (the CFS kernel the seed measured)
 * and the capture kernel's profile, under --placement model and trace:
 *
 *   C1 cfs-group-tick-only: p50 of the latency group >= 1 tick (1/HZ) while
 *      base stays far below it (<= 1/4 tick)
 *   C2 cfs-group-no-dequeue: p95 of the latency group above base
 *   C3 aaron-skip: p50, p95, p99 of the latency group within the hardware's
 *      run-to-run spread of base (the spread of the measured percentiles
 *      over the captures given, relative to their median)
 *   C4 update_cfs_group: aaron-skip < base, cfs-group-tick-only < aaron-skip
 *   C5 tg_load_avg_writes: aaron-delay < base, tg-ratelimit < base (on a
 *      profile with the rate limit, tg-ratelimit is base: equal)
 *
 * The first trace is replayed; the others only give the run-to-run spread.
 * It prints the table of docs/variants.md ("Acceptance") and checks it
 * against EXPECTED: one line per criterion and configuration that must hold
 * ("C1 6.5 model").  A line that does not hold fails the test; a criterion
 * that holds but is not listed is reported (update EXPECTED and the docs).
 *
 * usage: test_variants_acceptance EXPECTED TRACE [MORE_CAPTURES...]
 */
#include <inttypes.h>
#include <stdlib.h>

#include <schedreplay/sim.h>
#include <schedreplay/whatif.h>
#include <schedreplay/workload.h>

#include "check.h"

enum { V_BASE, V_SKIP, V_NODEQ, V_TICK, V_DELAY, V_RL, NR_V };
static const char *const vnames[NR_V] = {
	"base", "aaron-skip", "cfs-group-no-dequeue", "cfs-group-tick-only", "aaron-delay",
	"tg-ratelimit",
};

#define NR_CRIT 5
static const char *const crit_names[NR_CRIT] = { "C1", "C2", "C3", "C4", "C5" };

static char expected[64][32];
static int nr_expected;

static bool is_expected(const char *line)
{
	for (int i = 0; i < nr_expected; i++)
		if (!strcmp(expected[i], line))
			return true;
	return false;
}

static int load_expected(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f) && nr_expected < 64) {
		line[strcspn(line, "#\n")] = '\0';
		while (strlen(line) && line[strlen(line) - 1] == ' ')
			line[strlen(line) - 1] = '\0';
		if (strlen(line) >= sizeof(expected[0])) {
			fprintf(stderr, "%s: line too long: %s\n", path, line);
			fclose(f);
			return -1;
		}
		if (line[0])
			memcpy(expected[nr_expected++], line, strlen(line) + 1);
	}
	fclose(f);
	return 0;
}

/* The latency group: the cgroup whose path ends in "/latency". */
static const struct sr_hist *latency_group(const struct lat_machine *lat)
{
	for (size_t i = 0; lat && i < lat_nr_groups(lat, LAT_BY_CGROUP); i++) {
		const struct lat_group *g = lat_group_at(lat, LAT_BY_CGROUP, i);
		size_t n = strlen(g->key);

		if (n >= 8 && !strcmp(g->key + n - 8, "/latency"))
			return &g->lat[LAT_WAKEUP];
	}
	return NULL;
}

static const double pcts[3] = { 50, 95, 99 };

static void percentiles(const struct sr_hist *h, uint64_t out[3])
{
	if (h && h->count)
		sr_hist_percentiles(h, pcts, 3, out, NULL);
	else
		out[0] = out[1] = out[2] = 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t count(const struct replay_result *r, const char *name)
{
	uint64_t v = 0;

	replay_count_get(r, name, &v);
	return v;
}

int main(int argc, char **argv)
{
	struct sr_error err = { 0 };
	struct wl_options wo = { 0 };
	struct model_variant_set sets[NR_V];
	struct wl_workload *wl;
	double spread[3] = { 0, 0, 0 };
	uint64_t meas[16][3];
	int nr_meas = 0;
	unsigned int hz;

	if (argc < 3) {
		fprintf(stderr, "usage: %s EXPECTED TRACE [MORE_CAPTURES...]\n", argv[0]);
		return 2;
	}
	if (load_expected(argv[1]) < 0)
		return 1;
	/* the hardware's run-to-run spread of the latency group's percentiles */
	for (int i = 2; i < argc && nr_meas < 16; i++) {
		struct wl_workload *w = wl_extract(argv[i], &wo, &err);

		if (!w) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
		percentiles(latency_group(wl_measured_latency(w)), meas[nr_meas]);
		printf("measured %s: latency group p50 %.1f p95 %.1f p99 %.1f us\n", argv[i],
		       meas[nr_meas][0] / 1e3, meas[nr_meas][1] / 1e3, meas[nr_meas][2] / 1e3);
		nr_meas++;
		wl_free(w);
	}
	for (int k = 0; k < 3 && nr_meas > 1; k++) {
		uint64_t v[16];

		for (int i = 0; i < nr_meas; i++)
			v[i] = meas[i][k];
		qsort(v, nr_meas, sizeof(v[0]), cmp_u64);
		spread[k] = v[nr_meas / 2] ? (double)(v[nr_meas - 1] - v[0]) / v[nr_meas / 2] : 0;
	}
	printf("run-to-run spread over %d captures: p50 %.0f%%, p95 %.0f%%, p99 %.0f%%\n\n",
	       nr_meas, 100 * spread[0], 100 * spread[1], 100 * spread[2]);

	wl = wl_extract(argv[2], &wo, &err);
	if (!wl) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	hz = wl_facts(wl)->hz ? wl_facts(wl)->hz : 250;
	for (int i = 0; i < NR_V; i++)
		if (model_variant_set_parse(&sets[i], vnames[i], &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
	printf("| profile | placement | latency p50/p95/p99 us: base | aaron-skip | no-dequeue | tick-only "
	       "| update_cfs_group base/skip/tick | tg writes base/delay/ratelimit | C1 C2 C3 C4 C5 |\n"
	       "|---|---|---|---|---|---|---|---|---|\n");
	for (int prof = 0; prof < 2; prof++) {
		for (int pl = 0; pl < 2; pl++) {
			struct replay_config rc;
			struct whatif_config wc = { .replay = &rc, .sets = sets, .nr_sets = NR_V };
			struct whatif_result *r;
			uint64_t lat[NR_V][3];
			bool ok[NR_CRIT];
			const char *pname;
			double tick = 1e9 / hz;

			replay_config_default(&rc);
			rc.profile = prof == 0 ? model_profile_find("6.5") : NULL;
			rc.placement = pl ? REPLAY_PLACEMENT_TRACE : REPLAY_PLACEMENT_MODEL;
			r = whatif_run(wl, &wc, &err);
			if (!r) {
				fprintf(stderr, "%s\n", err.msg);
				check_failures++;
				continue;
			}
			pname = model_profile_name(replay_result_profile(whatif_run_result(r, 0)));
			for (int v = 0; v < NR_V; v++)
				percentiles(latency_group(replay_latency(whatif_run_result(r, v))), lat[v]);
#define RES(v) whatif_run_result(r, v)
			ok[0] = lat[V_TICK][0] >= tick && lat[V_BASE][0] <= tick / 4;
			ok[1] = lat[V_NODEQ][1] > lat[V_BASE][1];
			ok[2] = nr_meas > 1;
			for (int k = 0; k < 3; k++)
				ok[2] = ok[2] && lat[V_BASE][k] &&
					fabs((double)lat[V_SKIP][k] - (double)lat[V_BASE][k]) / lat[V_BASE][k] <= spread[k];
			ok[3] = count(RES(V_SKIP), "update_cfs_group") < count(RES(V_BASE), "update_cfs_group") &&
				count(RES(V_TICK), "update_cfs_group") < count(RES(V_SKIP), "update_cfs_group");
			{
				uint64_t wb = count(RES(V_BASE), "tg_load_avg_writes");
				uint64_t wd = count(RES(V_DELAY), "tg_load_avg_writes");
				uint64_t wr = count(RES(V_RL), "tg_load_avg_writes");
				bool has_rl = count(RES(V_BASE), "update_tg_load_avg.ratelimited") > 0;

				ok[4] = wd < wb && (has_rl ? wr == wb : wr < wb);
				printf("| %s | %s |", pname, pl ? "trace" : "model");
				for (int v = 0; v < 4; v++)
					printf(" %.0f/%.0f/%.0f |", lat[v][0] / 1e3, lat[v][1] / 1e3, lat[v][2] / 1e3);
				printf(" %" PRIu64 "/%" PRIu64 "/%" PRIu64 " | %" PRIu64 "/%" PRIu64 "/%" PRIu64 " |",
				       count(RES(V_BASE), "update_cfs_group"), count(RES(V_SKIP), "update_cfs_group"),
				       count(RES(V_TICK), "update_cfs_group"), wb, wd, wr);
			}
#undef RES
			for (int c = 0; c < NR_CRIT; c++)
				printf(" %s", ok[c] ? "yes" : "no");
			printf(" |\n");
			for (int c = 0; c < NR_CRIT; c++) {
				char line[64];

				snprintf(line, sizeof(line), "%s %s %s", crit_names[c],
					 prof == 0 ? "6.5" : "capture", pl ? "trace" : "model");
				if (is_expected(line)) {
					check_count++;
					if (!ok[c]) {
						check_failures++;
						fprintf(stderr, "acceptance: '%s' no longer holds\n", line);
					}
				} else if (ok[c]) {
					fprintf(stderr, "acceptance: '%s' holds now: add it to %s and docs/variants.md\n",
						line, argv[1]);
				}
			}
			whatif_result_free(r);
		}
	}
	wl_free(wl);
	return check_done("variants_acceptance");
}
