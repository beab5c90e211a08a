// SPDX-License-Identifier: GPL-2.0
/*
 * What-if throughput: variants x trace events per second, with one thread
 * and with every CPU this process may use, and the parallel speedup.
 *
 * usage: bench_whatif TRACE [PROFILE]
 * Runs base plus every registered variant (one run each).  Prints figures;
 * never fails on speed.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <schedreplay/sim.h>
#include <schedreplay/whatif.h>
#include <schedreplay/workload.h>

static int run(const struct wl_workload *wl, const struct replay_config *rc,
	       const struct model_variant_set *sets, unsigned int n, unsigned int threads,
	       double *evps, double *wall)
{
	struct whatif_config wc = { .replay = rc, .sets = sets, .nr_sets = n, .threads = threads };
	struct sr_error err = { 0 };
	struct whatif_result *r = whatif_run(wl, &wc, &err);

	if (!r) {
		fprintf(stderr, "bench_whatif: %s\n", err.msg);
		return -1;
	}
	*wall = whatif_wall_seconds(r);
	*evps = (double)whatif_trace_events(r) * whatif_nr_runs(r) / *wall;
	printf("  %2u thread%s: %u runs x %llu trace events in %.3f s = %.2f M events/s "
	       "(%.2f M/s per run)\n", whatif_threads(r), whatif_threads(r) == 1 ? " " : "s",
	       whatif_nr_runs(r), (unsigned long long)whatif_trace_events(r), *wall, *evps / 1e6,
	       *evps / 1e6 / whatif_threads(r));
	whatif_result_free(r);
	return 0;
}

int main(int argc, char **argv)
{
	struct wl_options wo = { 0 };
	struct replay_config rc;
	struct sr_error err = { 0 };
	struct model_variant_set sets[MODEL_VARIANT_SET_MAX * 4];
	struct wl_workload *wl;
	unsigned int n = 0, cpus = 1;
	double e1, w1, en, wn;
	cpu_set_t cs;

	if (argc < 2) {
		fprintf(stderr, "usage: %s TRACE [PROFILE]\n", argv[0]);
		return 2;
	}
	wl = wl_extract(argv[1], &wo, &err);
	if (!wl) {
		fprintf(stderr, "bench_whatif: %s\n", err.msg);
		return 1;
	}
	replay_config_default(&rc);
	if (argc > 2)
		rc.profile = model_profile_find(argv[2]);
	for (unsigned int i = 0; i < model_variant_count() && n < sizeof(sets) / sizeof(sets[0]); i++)
		if (model_variant_set_parse(&sets[n], model_variant_at(i)->name, &err) == 0)
			n++;
	if (sched_getaffinity(0, sizeof(cs), &cs) == 0)
		cpus = (unsigned int)CPU_COUNT(&cs);
	printf("what-if: %s, %u variants, profile %s\n", argv[1], n,
	       argc > 2 ? argv[2] : "auto");
	if (run(wl, &rc, sets, n, 1, &e1, &w1) < 0 || run(wl, &rc, sets, n, cpus, &en, &wn) < 0) {
		wl_free(wl);
		return 1;
	}
	printf("  speedup %.2fx on %u CPUs\n", w1 / wn, cpus);
	wl_free(wl);
	return 0;
}
