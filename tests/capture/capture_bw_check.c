// SPDX-License-Identifier: GPL-2.0
/*
 * Checks a live capture of a --group with a CPU bandwidth limit (live.sh
 * mode quota):
 *   - the sidecar's groups[] entry and its cgroup section (which the replay
 *     reads) both record QUOTA_US per PERIOD_US for the group's cgroup,
 *   - no other cgroup of the run (the run directory above it, the other
 *     groups) has a limit: it was not inherited or spread,
 *   - the group's CPU time in the trace (the sched_stat_runtime sums of
 *     `schedreplay report --json`, tasks[].stat_runtime_ns, over the tasks in
 *     the group's cgroup: the very deltas update_curr() charges to the
 *     group's bandwidth, account_cfs_rq_runtime()) is what the limit allows
 *     over the recording window W:
 *
 *       lo = Q * (floor(W/P) - 1) - ncpu * (slice + tick)
 *       hi = Q * (ceil(W/P) + 1)  + ncpu * (slice + tick)
 *
 *     W holds at least floor(W/P) - 1 whole periods, in each of which an
 *     always-runnable group gets its whole quota Q (unless other load keeps
 *     it from 20 % of one CPU out of ncpu: with weight 1024 against nice-0
 *     tasks, over 9 of them on 2 CPUs), and it touches at most
 *     ceil(W/P) + 1 periods, in none of which it can get more than Q from the
 *     pool. Per CPU the kernel lets a group overrun by up to a tick (the
 *     throttle is noticed in update_curr() at the next tick or switch) and
 *     keeps up to a bandwidth slice (sched_cfs_bandwidth_slice_us, 5 ms by
 *     default) of local runtime across a period boundary, since local slices
 *     no longer expire (kernel 5.4); both are paid back from later periods,
 *     so they only move the window's edges.  The group's workload must want
 *     far more than Q/P (two busy loops want 2 CPUs): without the limit it
 *     gets what other load leaves (near ncpu on a quiet machine, 54 % of one
 *     CPU in a trial on a busy one) and the check fails.
 * Usage: capture_bw_check SIDECAR REPORT_JSON GROUP QUOTA_US PERIOD_US
 * Prints the measured share and every failed check with both sides; exit 0
 * only if all pass.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "check_fail.h"

static long long int_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

static double slice_us_of(json_t *side)
{
	json_t *t = json_object_get(json_object_get(side, "tunables"),
				    "/proc/sys/kernel/sched_cfs_bandwidth_slice_us");
	const char *v = json_string_value(json_object_get(t, "value"));

	return v ? atof(v) : 5000.0;   /* the kernel's default */
}

int main(int argc, char **argv)
{
	json_t *side, *rep, *g = NULL, *cg, *v;
	const char *path = NULL;
	long long quota, period;
	double w_s, tick_us, slice_us, ran_us = 0, lo, hi, share;
	int ncpu, hz, ntasks = 0;
	char run[512];
	size_t i;

	if (argc != 6) {
		fprintf(stderr, "usage: %s SIDECAR REPORT_JSON GROUP QUOTA_US PERIOD_US\n", argv[0]);
		return 2;
	}
	quota = atoll(argv[4]);
	period = atoll(argv[5]);
	side = json_load_file(argv[1], 0, NULL);
	rep = json_load_file(argv[2], 0, NULL);
	if (!side || !rep || quota <= 0 || period <= 0) {
		fprintf(stderr, "FAIL: cannot load %s or %s, or bad quota/period\n", argv[1], argv[2]);
		return 1;
	}

	json_array_foreach(json_object_get(side, "groups"), i, v)
	{
		const char *name = json_string_value(json_object_get(v, "name"));

		if (name && !strcmp(name, argv[3]))
			g = v;
	}
	if (!g || !(path = json_string_value(json_object_get(g, "cgroup")))) {
		fprintf(stderr, "FAIL: no group '%s' with a cgroup in %s\n", argv[3], argv[1]);
		return 1;
	}
	if (int_of(g, "quota_us") != quota || int_of(g, "period_us") != period)
		FAILF("groups[%s]: quota_us %lld period_us %lld, expected %lld %lld", argv[3],
		      int_of(g, "quota_us"), int_of(g, "period_us"), quota, period);

	/* the cgroup section: the group has the limit, nothing else of the run */
	snprintf(run, sizeof(run), "%s", path);
	if (strrchr(run, '/'))
		*strrchr(run, '/') = '\0';
	{
		bool found = false;

		json_array_foreach(json_object_get(json_object_get(side, "cgroup"), "groups"), i, cg) {
			const char *p = json_string_value(json_object_get(cg, "path"));

			if (!p)
				continue;
			if (!strcmp(p, path)) {
				found = true;
				if (int_of(cg, "quota_us") != quota || int_of(cg, "period_us") != period)
					FAILF("cgroup %s: quota_us %lld period_us %lld, expected %lld %lld",
					      p, int_of(cg, "quota_us"), int_of(cg, "period_us"), quota,
					      period);
			} else if (!strncmp(p, run, strlen(run)) && json_object_get(cg, "quota_us")) {
				FAILF("cgroup %s of the run has quota_us %lld: only %s should", p,
				      int_of(cg, "quota_us"), path);
			}
		}
		if (!found)
			FAILF("cgroup %s not in the sidecar's cgroup section", path);
	}

	/* the group's CPU time against what the limit allows */
	w_s = json_real_value(json_object_get(json_object_get(side, "trace"), "duration_s"));
	ncpu = (int)int_of(json_object_get(side, "trace"), "nr_cpus");
	hz = (int)int_of(json_object_get(side, "config"), "hz");
	if (hz <= 0)
		hz = 100;   /* the coarsest tick: the widest bounds */
	tick_us = 1e6 / hz;
	slice_us = slice_us_of(side);
	if (w_s <= 0 || ncpu <= 0) {
		fprintf(stderr, "FAIL: no trace.duration_s or trace.nr_cpus in %s\n", argv[1]);
		return 1;
	}
	json_array_foreach(json_object_get(rep, "tasks"), i, v) {
		const char *p = json_string_value(json_object_get(v, "cgroup"));

		if (p && !strcmp(p, path)) {
			ran_us += (double)int_of(v, "stat_runtime_ns") / 1e3;
			ntasks++;
		}
	}
	lo = (double)quota * (floor(w_s * 1e6 / (double)period) - 1) - ncpu * (slice_us + tick_us);
	hi = (double)quota * (ceil(w_s * 1e6 / (double)period) + 1) + ncpu * (slice_us + tick_us);
	share = ran_us / (w_s * 1e6);
	printf("group %s: %d task(s) ran %.1f ms in %.3f s = %.1f%% of one CPU (limit %.1f%%; "
	       "allowed %.1f..%.1f ms: %d CPUs, tick %.0f us, slice %.0f us)\n", path, ntasks,
	       ran_us / 1e3, w_s, share * 100, 100.0 * (double)quota / (double)period, lo / 1e3,
	       hi / 1e3, ncpu, tick_us, slice_us);
	if (ntasks == 0)
		FAILF("no task of %s in %s", path, argv[2]);
	if (ran_us < lo || ran_us > hi)
		FAILF("group %s ran %.1f ms, expected %.1f..%.1f ms", path, ran_us / 1e3, lo / 1e3,
		      hi / 1e3);
	json_decref(side);
	json_decref(rep);
	return failures ? 1 : 0;
}
