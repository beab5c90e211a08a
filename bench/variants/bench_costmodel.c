// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model on a seed-like load: is it comparable with the seed's
 * profile (~20% of cycles in update_cfs_group and ~10% in update_load_avg
 * for netperf UDP_RR with 224 threads on a two-socket server)?
 *
 * No such trace exists here, so the model is driven by the closed-loop
 * driver of the tests (tests/variants/minisim.c): CPUS CPUs split over two
 * nodes, 2 x CPUS tasks in one cgroup, each running RUN_US and sleeping
 * SLEEP_US (a request/response pair), MIGRATE% of wakeups on another CPU
 * (UDP_RR wakeups move between CPUs), the 6.5 profile (the seed's kernel, no
 * rate limit).  Each variant's counters are priced with a machine file.
 *
 * usage: bench_costmodel [MACHINE (default two-socket)] [CPUS 32] [RUN_US 10]
 *                        [SLEEP_US 20] [MIGRATE 50] [MS 200]
 * Prints figures; never fails on them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/whatif.h>

#include "minisim.h"

static bool get(const void *ctx, const char *name, uint64_t *v)
{
	return model_counter_get(ctx, name, v);
}

int main(int argc, char **argv)
{
	static const char *const vars[] = {
		"base", "tg-ratelimit", "aaron-node", "aaron-delay", "aaron-skip", "aaron-series",
		"cfs-group-tick-only",
	};
	struct cost_machine cm;
	struct sr_error err = { 0 };
	unsigned int cpus = argc > 2 ? (unsigned int)atoi(argv[2]) : 32;
	uint64_t run = argc > 3 ? strtoull(argv[3], NULL, 10) : 10;
	uint64_t sleep = argc > 4 ? strtoull(argv[4], NULL, 10) : 20;
	unsigned int migrate = argc > 5 ? (unsigned int)atoi(argv[5]) : 50;
	uint64_t ms = argc > 6 ? strtoull(argv[6], NULL, 10) : 200;

	if (cost_machine_resolve(argc > 1 ? argv[1] : "two-socket", &cm, &err) < 0) {
		fprintf(stderr, "bench_costmodel: %s\n", err.msg);
		return 1;
	}
	if (cpus < 2 || cpus > 64) {
		fprintf(stderr, "bench_costmodel: CPUS 2..64\n");
		return 2;
	}
	printf("cost model on a seed-like load: %u CPUs / 2 nodes, %u tasks in one cgroup, "
	       "run %llu us, sleep %llu us, %u%% wakeups migrate, %llu ms, profile 6.5, machine %s\n",
	       cpus, 2 * cpus, (unsigned long long)run, (unsigned long long)sleep, migrate,
	       (unsigned long long)ms, cm.name);
	printf("%-20s %12s %12s | %8s %8s %8s %8s %7s\n", "variant", "ucg/CPU-s", "writes/CPU-s",
	       "ucg", "ula", "uba", "total", "remote");
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		struct minisim_cfg c = {
			.profile = "6.5", .variants = vars[i], .nr_cpus = cpus, .nr_nodes = 2,
			.nr_hogs = 2 * cpus, .hog_run_min = run * 1000, .hog_run_max = run * 1000,
			.hog_sleep_min = sleep * 1000, .hog_sleep_max = sleep * 1000,
			.hog_migrate_pct = migrate, .duration = ms * 1000000, .seed = 42,
		};
		struct minisim_result r;
		struct cost_estimate e;
		double cpu_s;

		if (minisim_run(&c, &r, &err) < 0) {
			fprintf(stderr, "bench_costmodel: %s: %s\n", vars[i], err.msg);
			return 1;
		}
		cpu_s = r.busy_ns / 1e9;
		cost_estimate(&cm, get, r.m, r.busy_ns, cpus, 2,
			      (model_variant_find(vars[i])->flags & MODEL_V_TG_LOAD_PER_NODE) != 0, &e);
		printf("%-20s %12.0f %12.0f | %7.1f%% %7.1f%% %7.1f%% %7.1f%% %6.0f%%\n", vars[i],
		       minisim_counter(&r, "update_cfs_group") / cpu_s,
		       minisim_counter(&r, "tg_load_avg_writes") / cpu_s,
		       100 * e.fn_share[COST_FN_UPDATE_CFS_GROUP],
		       100 * e.fn_share[COST_FN_UPDATE_LOAD_AVG],
		       100 * e.fn_share[COST_FN_UPDATE_BLOCKED_AVERAGES], 100 * e.total_share,
		       100 * e.tg_remote_fraction);
		minisim_result_free(&r);
	}
	return 0;
}
