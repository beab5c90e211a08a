// SPDX-License-Identifier: GPL-2.0
/*
 * An investigation tool for docs/variants.md ("C1"): drive the model with the
 * closed-loop driver of the tests (a make -j like group of hogs and a
 * schbench-like latency group: message threads waking workers) and print,
 * per update_cfs_group variant, the weight the latency group's entity
 * carries when a latency task is woken (before the wakeup's own update),
 * how often it is below the CFS preemption threshold (341/1024 with the
 * sleeper credit and wakeup granularity of 6.5), the wakeup preemptions and
 * the latency group's percentiles.  Reads the model's private state
 * (model/sched.h): it is a probe, not an API user.
 *
 * usage: probe_weights PROFILE CPUS HOGS HOG_RUN_MS PROBES FANOUT PERIOD_US WORK_US NESTED ROOT
 *                      [PROBE_HOGS [PROBE_SHARES [BUILD_SHARES [SPLIT]]]]
 *   e.g. probe_weights 6.5 2 8 20 3 3 2000 100 1 0   (like traces/make-probe.dat)
 *        probe_weights 6.5 32 64 10 34 17 5000 100 1 0
 *        probe_weights 6.5 2 8 20 3 3 2000 100 1 0 2  (2 busy tasks in the probe group)
 *        probe_weights 6.5 2 8 20 3 3 2000 100 1 0 3 1024 1024 1
 *            (SPLIT 1: probes on CPU 0, the 3 busy probe-group tasks on CPU 1)
 *
 * The rows of docs/variants.md's C1 table, in order:
 *        probe_weights 6.5 2 8 20 3 3 2000 100 1 0
 *        probe_weights 6.5 2 8 20 6 3 2000 100 1 0
 *        probe_weights 6.5 2 8 20 9 9 2000 100 1 0
 *        probe_weights 6.5 2 8 20 3 3 2000 100 1 0 N 1024 1024 1     N = 1, 2, 3
 *        probe_weights 6.5 2 8 20 3 3 2000 100 1 0 0 S 1024          S = 512, 384 (360..450)
 *        probe_weights 6.5 2 8 20 3 3 2000 100 1 0 0 1024 4096
 *   and the many-CPU shapes of the text:
 *        probe_weights 6.5 32 64 10 34 17 5000 100 1 0   (root: last argument 1)
 *        probe_weights 6.5 32 32 10 18 9 5000 50 1 0
 *
 * Per variant: the latency group entity's weight at a probe wakeup before
 * the wakeup's own update ("at wake") and right after the wakeup, i.e. the
 * weight check_preempt_wakeup() used ("decided"); the share of decisions
 * below 341; the mean of what the other CPUs contribute to the group's
 * tg->load_avg at the decision (tg->load_avg - this cfs_rq's contribution:
 * calc_group_shares() gives 1024 x L / (O + L), so a weight below 341 with L
 * >= 1024 needs O >= 2048); wakeup preemptions and the probe percentiles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minisim.h"
#include "sched.h"

struct acc {
	double sum_w, sum_wd, sum_o;
	unsigned long n, small, nd, small_d;
};

static unsigned long group_weight(const struct model_task *t, int cpu)
{
	if (t->tg->se && t->tg->se[cpu])
		return scale_load_down(t->tg->se[cpu]->load.weight);
	return 1024;
}

static void on_wake(void *ctx, struct model *m, struct model_task *t, int cpu)
{
	struct acc *a = ctx;
	unsigned long w = group_weight(t, cpu);

	(void)m;
	a->sum_w += w;
	a->n++;
	a->small += w < 341;
}

static void on_woken(void *ctx, struct model *m, struct model_task *t, int cpu)
{
	struct acc *a = ctx;
	unsigned long w = group_weight(t, cpu);

	(void)m;
	a->sum_wd += w;
	a->nd++;
	a->small_d += w < 341;
	if (t->tg->cfs_rq && t->tg->cfs_rq[cpu])
		a->sum_o += (double)(t->tg->load_avg - t->tg->cfs_rq[cpu]->tg_load_avg_contrib);
}

int main(int argc, char **argv)
{
	static const char *const vars[] = {
		"base", "aaron-skip", "cfs-group-no-dequeue", "cfs-group-tick-only",
	};

	if (argc < 11 || argc > 15) {
		fprintf(stderr, "usage: %s PROFILE CPUS HOGS HOG_RUN_MS PROBES FANOUT PERIOD_US "
				"WORK_US NESTED ROOT [PROBE_HOGS [PROBE_SHARES [BUILD_SHARES [SPLIT]]]]\n",
			argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		struct acc a = { 0 };
		struct minisim_cfg c = {
			.profile = argv[1], .variants = vars[i], .nr_cpus = (unsigned)atoi(argv[2]),
			.nr_nodes = 1, .nr_hogs = (unsigned)atoi(argv[3]),
			.hog_run_min = 500000ull * atoi(argv[4]), .hog_run_max = 1000000ull * atoi(argv[4]),
			.hog_sleep_min = 20000, .hog_sleep_max = 500000, .hog_migrate_pct = 20,
			.nr_probes = (unsigned)atoi(argv[5]), .probe_fanout = (unsigned)atoi(argv[6]),
			.probe_period = 1000ull * atoi(argv[7]), .probe_run = 1000ull * atoi(argv[8]),
			.nested = atoi(argv[9]), .probe_root = atoi(argv[10]), .probe_spread = true,
			.duration = 5000000000ull, .seed = 42, .on_probe_wake = on_wake,
			.on_probe_woken = on_woken, .ctx = &a,
			.nr_probe_hogs = argc > 11 ? (unsigned)atoi(argv[11]) : 0,
			.probe_shares = argc > 12 ? (unsigned)atoi(argv[12]) : 0,
			.build_shares = argc > 13 ? (unsigned)atoi(argv[13]) : 0,
			.probe_split = argc > 14 && atoi(argv[14]),
		};
		struct minisim_result r;
		struct sr_error err = { 0 };

		if (c.nr_cpus < 1 || c.nr_cpus > 64 || minisim_run(&c, &r, &err) < 0) {
			fprintf(stderr, "probe_weights: %s\n", err.msg[0] ? err.msg : "CPUS 1..64");
			return 1;
		}
		printf("%-20s weight at wake %4.0f (<341 %5.1f%%) decided %4.0f (<341 %5.1f%%) "
		       "O %5.0f  wakeup_preempt %6llu | p50 %7.1f p95 %7.1f p99 %7.1f us\n",
		       vars[i], a.n ? a.sum_w / a.n : 0, a.n ? 100.0 * a.small / a.n : 0,
		       a.nd ? a.sum_wd / a.nd : 0, a.nd ? 100.0 * a.small_d / a.nd : 0,
		       a.nd ? a.sum_o / a.nd : 0,
		       (unsigned long long)minisim_counter(&r, "wakeup_preempt"),
		       minisim_pct(r.probe_lat, r.nr_probe_lat, .5) / 1e3,
		       minisim_pct(r.probe_lat, r.nr_probe_lat, .95) / 1e3,
		       minisim_pct(r.probe_lat, r.nr_probe_lat, .99) / 1e3);
		minisim_result_free(&r);
	}
	return 0;
}
