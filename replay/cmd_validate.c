// SPDX-License-Identifier: GPL-2.0
/*
 * `schedreplay validate`: replay every trace of a directory against the
 * per-trace thresholds kept in the repository (traces/thresholds.json) and
 * fail if any predicted figure is further from the measured one than its
 * threshold allows.  --markdown prints the table of docs/validation.md.
 *
 * thresholds.json: {"schema": "schedreplay-thresholds", "version": 1,
 *   "goal": {metric: max |relative error|},       (issue goals, reported)
 *   "traces": {"NAME.dat": {
 *       "skip": "why"                              (not replayed), or
 *       "series": "make-probe",                    (repeated captures: spread)
 *       "latency_group": {"cgroup_suffix": "/latency"} | {"comm": "PREFIX"} | {},
 *       "max_rel_error": {metric: max |relative error|}, "why": "...",
 *       "groups_vs_kernel": {"max_tg_load_avg_median_abs": N,     (optional: held where
 *           "max_weight_median_abs": N, "min_queued_agree": F}}}}  the sidecar has sched_debug)
 * metrics: sched_switch, sched_stat_runtime, sched_wakeup, sched_migrate_task,
 * p50, p95, p99 (of the latency group; "all" if the group is {}).
 *
 * The prediction is the median over --seeds runs (model seeds 1..N, default
 * 15): on a saturated trace the replay is chaotic (NI_RANDOM's dice alone move
 * small-hackbench's sched_switch error between -14 % and +9 %), so one run
 * would test the seed's luck, not the model; with 5 seeds four goals still
 * flip against 15 (docs/validation.md, "Achieved").  The seeds' min..max
 * error is reported next to it.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <schedreplay/cli.h>
#include <schedreplay/model.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/sim.h>
#include <schedreplay/workload.h>

#include "cmd_runs.h"
#include "replay_progress.h"

#define NR_METRICS 7
static const char *const metric[NR_METRICS] = {
	"sched_switch", "sched_stat_runtime", "sched_wakeup", "sched_migrate_task",
	"p50", "p95", "p99",
};
static const double pct_of[3] = { 50, 95, 99 };

/*
 * Informational rows, never held to a limit (like the duration): the latency
 * group's run-queue wait p50, p95, p99 (us), its samples over LAT_LONG_NS,
 * and its wakeup latencies over LAT_LONG_NS, where starvation shows.
 */
enum { RQ_P50, RQ_P95, RQ_P99, RQ_LONG, WAKE_LONG, NR_RQ };
static const char *const rq_row[NR_RQ] = {
	"rq wait p50 (us)", "rq wait p95 (us)", "rq wait p99 (us)", "rq waits > 10 ms",
	"wakeups > 10 ms",
};
/*
 * --json: runqueue_wait_us.KEY for the percentiles, long_waits.KEY for the
 * counts (the replay's JSON names: sim.h, replay_json_long_waits())
 */
static const char *const rq_key[NR_RQ] = {
	"p50", "p95", "p99", "runqueue_wait", "wakeup_latency",
};

struct result {
	char name[256];
	char series[64];
	char group[300];
	bool skipped, failed_run;
	bool no_start_snapshot;          /* no usable sched_at_start (--initial-pelt) */
	bool no_stat_runtime;            /* no sched_stat_runtime (--clock-task traced) */
	char why[512];
	double meas[NR_METRICS], pred[NR_METRICS], err[NR_METRICS], limit[NR_METRICS];
	double err_lo[NR_METRICS], err_hi[NR_METRICS];   /* over the seeds */
	bool have[NR_METRICS], over[NR_METRICS];
	/*
	 * Of sched_switch: switches out of idle the reader's repair restored
	 * (measured) and the simulation's counterpart (the median run's).
	 */
	double meas_restored, pred_restored;
	/*
	 * The traced work's duration in ms: the trace's span, and when the
	 * simulation had done it (replay_end_ts(); median and range over the
	 * seeds).  Shown, not held to a limit.
	 */
	double dur_meas, dur_pred, dur_lo, dur_hi;
	unsigned int dur_unfinished;   /* seeds whose run stopped with work left */
	/*
	 * rq_row[]: measured, the seeds' median, min and max; rq_meas_have: the
	 * trace has the figure (p50..p99: run-queue wait samples; the counts:
	 * always); rq_have: so has every seed's run.  Run-queue wait samples of
	 * the group, measured and the seeds' median, min and max.  rq_absent:
	 * the latency group is not in the trace (no row has a figure).
	 */
	double rq_meas[NR_RQ], rq_pred[NR_RQ], rq_lo[NR_RQ], rq_hi[NR_RQ];
	bool rq_meas_have[NR_RQ], rq_have[NR_RQ], rq_absent;
	double rq_samples_meas, rq_samples_pred, rq_samples_lo, rq_samples_hi;
	/*
	 * The latency percentiles on the measured distribution (metric 4 + k):
	 * the share of measured samples at or below the predicted value (%),
	 * and the measured samples inside the goal's band, measured value x
	 * (1 -/+ goal), with the shares at its ends (%).  A percentile on a
	 * knee of a bimodal distribution has a band of a few samples: there a
	 * miss of the goal is a rank error of a few samples, not a different
	 * distribution (docs/validation.md).  have_q: computed (goal and
	 * measured samples).
	 */
	bool have_q[3];
	double q_pred[3], band_q_lo[3], band_q_hi[3];
	uint64_t band_n[3], n_meas;
	uint64_t off_n[3];           /* measured samples strictly between prediction and band */
	/* the model's placement is consulted: whether it packs (sched_vcpu_pack), why */
	bool pack_shown, pack_on;
	char pack_why[200];
	/*
	 * Where the sidecar has sched/debug reads: the groups comparison's
	 * headline (replay_groups_compare()), the seeds' median and range of
	 * the pooled median |model - kernel| of tg_load_avg and of the group
	 * weight (groups other than the root) and of the pairs whose
	 * h_nr_queued the model has as the kernel; the trace's runnable set
	 * against the kernel (the same for every seed).  Information, not a
	 * goal; held only to thresholds.json's optional "groups_vs_kernel"
	 * limits (NAN: none).
	 */
	bool sd_have;
	unsigned int sd_reads, sd_pairs, sd_trace_eq, sd_trace_in;
	double sd_tg, sd_tg_lo, sd_tg_hi, sd_w, sd_w_lo, sd_w_hi;
	double sd_model_eq, sd_model_eq_lo, sd_model_eq_hi;
	double sd_lim_tg, sd_lim_w, sd_lim_q;
	bool sd_over_tg, sd_over_w, sd_over_q;
};

/* thresholds.json's optional per-trace "groups_vs_kernel" limits */
static const char *const sd_limit_key[3] = {
	"max_tg_load_avg_median_abs", "max_weight_median_abs", "min_queued_agree",
};

static bool sd_over(const struct result *r)
{
	return r->sd_over_tg || r->sd_over_w || r->sd_over_q;
}

/* (predicted - measured) / measured; 0 for nothing measured */
static double rel(double pred, double meas)
{
	return meas > 0 ? (pred - meas) / meas : 0;
}

/* The latency group on one side: each kind's distribution (NULL: absent) and samples over LAT_LONG_NS */
struct lgroup {
	const struct sr_hist *h[LAT_NR_KINDS];
	uint64_t over_long[LAT_NR_KINDS];
};

static struct lgroup find_group(const struct lat_machine *lat, json_t *grp, char *label, size_t n)
{
	const char *suffix = json_string_value(json_object_get(grp, "cgroup_suffix"));
	const char *comm = json_string_value(json_object_get(grp, "comm"));
	enum lat_group_key key = suffix ? LAT_BY_CGROUP : LAT_BY_COMM;
	struct lgroup lg;

	memset(&lg, 0, sizeof(lg));
	if (!suffix && !comm) {
		snprintf(label, n, "all");
		for (int k = 0; k < LAT_NR_KINDS; k++) {
			lg.h[k] = lat_get_all(lat, k);
			lg.over_long[k] = lat_get_all_over_long(lat, k);
		}
		return lg;
	}
	for (size_t i = 0; i < lat_nr_groups(lat, key); i++) {
		const struct lat_group *g = lat_group_at(lat, key, i);
		size_t kl = strlen(g->key);

		if (suffix ? (kl >= strlen(suffix) && !strcmp(g->key + kl - strlen(suffix), suffix)) :
			     !strncmp(g->key, comm, strlen(comm))) {
			snprintf(label, n, "%s=%s", suffix ? "cgroup" : "comm", g->key);
			for (int k = 0; k < LAT_NR_KINDS; k++) {
				lg.h[k] = &g->lat[k];
				lg.over_long[k] = g->over_long[k];
			}
			return lg;
		}
	}
	snprintf(label, n, "%s %s (absent)", suffix ? "cgroup *" : "comm", suffix ? suffix : comm);
	return lg;
}

/*
 * Measured samples of @h whose value is at or below @ns (@strict: below),
 * each sample standing at its bucket's value (sr_hist_bucket_value(), what
 * sr_hist_percentile() returns for it).  With one rule for the prediction's
 * place and both ends of the band, a prediction within the goal of the
 * measured percentile lies in the band, and one outside it outside or on
 * its edge.
 */
static uint64_t hist_at_or_below(const struct sr_hist *h, double ns, bool strict)
{
	struct sr_hist_bucket b;
	size_t pos = 0;
	uint64_t n = 0;

	sr_hist_settle(h);
	while (sr_hist_next_bucket(h, &pos, &b)) {
		double v = (double)sr_hist_bucket_value(h, &b);

		if (strict ? v >= ns : v > ns)
			break;
		n += b.count;
	}
	return n;
}

/* pct_of[@k] of @h in us; 0 without samples */
static double pct_us(const struct sr_hist *h, int k)
{
	return h && h->count ? (double)sr_hist_percentile(h, pct_of[k]) / 1e3 : 0;
}

/*
 * --seeds: at most 64 (the replays of one trace's seeds are held in stack
 * arrays of this size); 15 by default, the seeds thresholds.json's limits
 * were set on (--first-seed 1).
 */
#define MAX_SEEDS 64       /* "--seeds takes 1..64" (parse_from_1()) */
#define DEFAULT_SEEDS 15

/*
 * One trace's entry, before anything runs: a limit that is not a number (a
 * string, null, an object) used to mean "no limit" and a negative one
 * "always over", both silently; a group key of another type meant "all".
 * 0 if usable, else -1 with the JSON path and the reason in @why.
 */
static int check_spec(json_t *spec, const char *name, char *why, size_t n)
{
	json_t *lim = json_object_get(spec, "max_rel_error");
	json_t *grp = json_object_get(spec, "latency_group");
	const char *key;
	json_t *v;

	if (!json_is_object(spec)) {
		snprintf(why, n, "traces.\"%s\" is not an object", name);
		return -1;
	}
	if (lim && !json_is_object(lim)) {
		snprintf(why, n, "traces.\"%s\".max_rel_error is not an object", name);
		return -1;
	}
	json_object_foreach(lim, key, v) {
		int i;

		for (i = 0; i < NR_METRICS && strcmp(key, metric[i]); i++)
			;
		if (i == NR_METRICS) {
			snprintf(why, n, "traces.\"%s\".max_rel_error.%s: unknown metric (sched_switch, "
				 "sched_stat_runtime, sched_wakeup, sched_migrate_task, p50, p95, p99)",
				 name, key);
			return -1;
		}
		/* a fraction: 0.05 is 5 %; printed as a percentage, so x100 must stay finite */
		if (!json_is_number(v) || !(json_number_value(v) >= 0) ||
		    !isfinite(json_number_value(v) * 100)) {
			snprintf(why, n, "traces.\"%s\".max_rel_error.%s: not a fraction >= 0 (e.g. "
				 "0.05 for 5 %%)", name, key);
			return -1;
		}
	}
	if (grp && !json_is_object(grp)) {
		snprintf(why, n, "traces.\"%s\".latency_group is not an object", name);
		return -1;
	}
	json_object_foreach(grp, key, v) {
		if ((strcmp(key, "comm") && strcmp(key, "cgroup_suffix")) || !json_is_string(v)) {
			snprintf(why, n, "traces.\"%s\".latency_group.%s: expected \"comm\" or "
				 "\"cgroup_suffix\" with a string", name, key);
			return -1;
		}
	}
	{
		json_t *gk = json_object_get(spec, "groups_vs_kernel");

		if (gk && !json_is_object(gk)) {
			snprintf(why, n, "traces.\"%s\".groups_vs_kernel is not an object", name);
			return -1;
		}
		json_object_foreach(gk, key, v) {
			int i;

			for (i = 0; i < 3 && strcmp(key, sd_limit_key[i]); i++)
				;
			if (i == 3) {
				snprintf(why, n, "traces.\"%s\".groups_vs_kernel.%s: unknown limit "
					 "(max_tg_load_avg_median_abs, max_weight_median_abs, "
					 "min_queued_agree)", name, key);
				return -1;
			}
			if (!json_is_number(v) || !(json_number_value(v) >= 0) ||
			    !isfinite(json_number_value(v)) || (i == 2 && json_number_value(v) > 1)) {
				snprintf(why, n, "traces.\"%s\".groups_vs_kernel.%s: not %s", name, key,
					 i == 2 ? "a fraction 0..1 of the (read, CPU, group) pairs" :
					 "a number >= 0 (load units; the weight in cpu.shares units)");
				return -1;
			}
		}
	}
	for (const char *const *k = (const char *const[]){ "skip", "series", NULL }; *k; k++)
		if (json_object_get(spec, *k) && !json_is_string(json_object_get(spec, *k))) {
			snprintf(why, n, "traces.\"%s\".%s is not a string", name, *k);
			return -1;
		}
	return 0;
}

/* The seeds' figures @v[0..n): their median (sr_seeds_rank()), min and max */
static double seeds_median(const double *v, unsigned int n, double *lo, double *hi)
{
	unsigned int imin, imax, med = sr_seeds_rank(v, n, &imin, &imax);

	*lo = v[imin];
	*hi = v[imax];
	return v[med];
}

/*
 * A skip reason, cut to 500 bytes on a character boundary: the reason is
 * UTF-8 (jansson read it), and a cut inside a character made --suggest's
 * JSON string of it invalid ("skip": null).
 */
static void skip_reason(char why[512], const char *s)
{
	size_t n = strlen(s);

	if (n > 500)
		for (n = 500; n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80; n--)
			;
	snprintf(why, 512, "%.*s", (int)n, s);
}

/*
 * The prediction: @seeds replays of @wl with model seeds from @rc's up,
 * each metric's figures of every seed into @pred (@have_pred: every seed's
 * run has the metric); the informational rows and the duration, measured
 * and the seeds' median and range, into @r.
 * -1 when a replay failed (@r says why).
 */
static int predict_seeds(struct wl_workload *wl, struct replay_config *rc, unsigned int seeds,
			 json_t *grp, struct result *r, double pred[NR_METRICS][MAX_SEEDS],
			 bool have_pred[NR_METRICS])
{
	const uint64_t seed0 = rc->seed;
	struct sr_error err = { 0 };
	struct replay_result *res;
	const struct sr_hist *ph, *prq;
	struct lgroup pg;
	double restored[MAX_SEEDS], dur[MAX_SEEDS];
	double rq[NR_RQ][MAX_SEEDS], rq_samples[MAX_SEEDS];
	double sd_tg[MAX_SEEDS], sd_w[MAX_SEEDS], sd_meq[MAX_SEEDS];
	const struct sidecar_sched_debug *sdr = wl_sched_debug(wl);
	char gl[300];

	for (int i = 0; i < NR_METRICS; i++)
		have_pred[i] = true;
	for (unsigned int sd = 0; sd < seeds; sd++) {
		rc->seed = seed0 + sd;
		if (!(res = replay_run(wl, rc, &err))) {
			r->failed_run = true;
			snprintf(r->why, sizeof(r->why), "%.500s", err.msg);
			return -1;
		}
		for (int i = 0; i < 4; i++) {
			uint64_t p = 0;

			replay_count_get(res, metric[i], &p);
			pred[i][sd] = (double)p;
		}
		{
			uint64_t p = 0;

			replay_count_get(res, "sched_switch_restored", &p);
			restored[sd] = (double)p;
		}
		dur[sd] = (double)(replay_end_ts(res) - wl_first_ts(wl)) / 1e6;
		r->dur_unfinished += replay_work_unfinished(res);
		pg = find_group(replay_latency(res), grp, gl, sizeof(gl));
		ph = pg.h[LAT_WAKEUP];
		prq = pg.h[LAT_RUNQ_WAIT];
		for (int k = 0; k < 3; k++) {
			r->rq_have[k] &= prq && prq->count;
			rq[k][sd] = pct_us(prq, k);
		}
		rq[RQ_LONG][sd] = (double)pg.over_long[LAT_RUNQ_WAIT];
		rq[WAKE_LONG][sd] = (double)pg.over_long[LAT_WAKEUP];
		rq_samples[sd] = prq ? (double)prq->count : 0;
		for (int k = 0; k < 3; k++) {
			have_pred[4 + k] &= ph && ph->count;
			pred[4 + k][sd] = pct_us(ph, k);
		}
		if (sdr && sdr->available) {
			struct replay_groups_cmp gc;

			if (replay_groups_compare(wl, res, rc->sched_debug_shift_ns, &gc) < 0) {
				replay_result_free(res);
				r->failed_run = true;
				snprintf(r->why, sizeof(r->why), "out of memory comparing the groups "
					 "with sched/debug");
				return -1;
			}
			r->sd_have = gc.queued.pairs > 0 || gc.tg_load_pairs > 0;
			r->sd_reads = gc.reads_in_window;
			r->sd_pairs = gc.queued.pairs;
			r->sd_trace_eq = gc.queued.trace_eq;
			r->sd_trace_in = gc.queued.trace_in;
			sd_tg[sd] = gc.tg_load_median_abs;
			sd_w[sd] = gc.weight_median_abs;
			sd_meq[sd] = gc.queued.model_eq;
			replay_groups_cmp_release(&gc);
		}
		replay_result_free(res);
	}
	if (r->sd_have) {
		r->sd_tg = seeds_median(sd_tg, seeds, &r->sd_tg_lo, &r->sd_tg_hi);
		r->sd_w = seeds_median(sd_w, seeds, &r->sd_w_lo, &r->sd_w_hi);
		r->sd_model_eq = seeds_median(sd_meq, seeds, &r->sd_model_eq_lo, &r->sd_model_eq_hi);
	}
	/* the restored part of the run whose sched_switch is the median */
	r->pred_restored = restored[sr_seeds_rank(pred[0], seeds, NULL, NULL)];
	for (int k = 0; k < NR_RQ; k++)
		r->rq_pred[k] = seeds_median(rq[k], seeds, &r->rq_lo[k], &r->rq_hi[k]);
	r->rq_samples_pred = seeds_median(rq_samples, seeds, &r->rq_samples_lo, &r->rq_samples_hi);
	r->dur_meas = (double)(wl_last_ts(wl) - wl_first_ts(wl)) / 1e6;
	r->dur_pred = seeds_median(dur, seeds, &r->dur_lo, &r->dur_hi);
	return 0;
}

/*
 * Each latency percentile placed on the measured distribution @mh: where
 * the prediction falls in it and the measured samples within the goal's
 * band (struct result's have_q..off_n).
 */
static void place_on_measured(struct result *r, const struct sr_hist *mh, json_t *goal)
{
	r->n_meas = mh ? mh->count : 0;
	for (int k = 0; k < 3; k++) {
		json_t *g = json_object_get(goal, metric[4 + k]);
		double gv = json_is_number(g) ? json_number_value(g) : NAN, m = r->meas[4 + k];
		uint64_t lo, hi, le, lt;

		r->have_q[k] = r->have[4 + k] && !isnan(gv) && r->n_meas;
		if (!r->have_q[k])
			continue;
		/* the figures are whole ns in us: back to ns exactly */
		le = hist_at_or_below(mh, round(r->pred[4 + k] * 1e3), false);
		lt = hist_at_or_below(mh, round(r->pred[4 + k] * 1e3), true);
		r->q_pred[k] = 100.0 * (double)le / (double)r->n_meas;
		lo = hist_at_or_below(mh, round(m * 1e3) * (1 - gv), true);
		hi = hist_at_or_below(mh, round(m * 1e3) * (1 + gv), false);
		r->off_n[k] = le < lo ? lo - le : lt > hi ? lt - hi : 0;
		r->band_n[k] = hi - lo;
		r->band_q_lo[k] = 100.0 * (double)lo / (double)r->n_meas;
		r->band_q_hi[k] = 100.0 * (double)hi / (double)r->n_meas;
	}
}

/*
 * The optional "groups_vs_kernel" limits of a trace's entry against its
 * headline; limits on a trace without sched/debug reads fail it (they
 * could not be checked).
 */
static void sd_limits(struct result *r, json_t *gk)
{
	double *lim[3] = { &r->sd_lim_tg, &r->sd_lim_w, &r->sd_lim_q };

	for (int i = 0; i < 3; i++) {
		json_t *v = json_object_get(gk, sd_limit_key[i]);

		*lim[i] = json_is_number(v) ? json_number_value(v) : NAN;
	}
	if (json_object_size(gk) && !r->sd_have) {
		r->failed_run = true;
		snprintf(r->why, sizeof(r->why), "groups_vs_kernel limits, but the sidecar has no "
			 "sched/debug reads inside the trace to hold them to");
		return;
	}
	r->sd_over_tg = !isnan(r->sd_lim_tg) && !(r->sd_tg <= r->sd_lim_tg);
	r->sd_over_w = !isnan(r->sd_lim_w) && !(r->sd_w <= r->sd_lim_w);
	r->sd_over_q = !isnan(r->sd_lim_q) && r->sd_pairs &&
		       r->sd_model_eq < r->sd_lim_q * r->sd_pairs;
}

static void run_one(const char *dir, const char *name, json_t *spec, json_t *goal,
		    const struct replay_config *base, const struct wl_options *wo, unsigned int seeds,
		    struct result *r)
{
	char path[4096];
	struct sr_error err = { 0 };
	struct wl_workload *wl;
	struct replay_config rc = *base;
	json_t *lim = json_object_get(spec, "max_rel_error");
	json_t *grp = json_object_get(spec, "latency_group");
	struct lgroup mg;
	const struct sr_hist *mh, *mrq;
	double pred[NR_METRICS][MAX_SEEDS];
	bool have_pred[NR_METRICS];

	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->series, sizeof(r->series), "%s",
		 json_string_value(json_object_get(spec, "series")) ?: "");
	if (json_is_string(json_object_get(spec, "skip"))) {
		r->skipped = true;
		skip_reason(r->why, json_string_value(json_object_get(spec, "skip")));
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	wl = wl_extract(path, wo, &err);
	if (!wl) {
		r->failed_run = true;
		snprintf(r->why, sizeof(r->why), "%.500s", err.msg);
		return;
	}
	run_warn_lost_sidecar("validate", path, wl);
	{
		const struct sidecar_sched *s0 = wl_sched_snapshot(wl, false);

		r->no_start_snapshot = !s0 || !s0->available;
	}
	r->no_stat_runtime = !wl_facts(wl)->has_stat_runtime;
	mg = find_group(wl_measured_latency(wl), grp, r->group, sizeof(r->group));
	mh = mg.h[LAT_WAKEUP];
	/*
	 * A latency group no task of the trace is in (a misspelt comm or
	 * cgroup): its percentiles' limits were skipped and the trace passed.
	 */
	if (!mh && (json_object_get(lim, "p50") || json_object_get(lim, "p95") ||
		    json_object_get(lim, "p99"))) {
		r->failed_run = true;
		snprintf(r->why, sizeof(r->why), "latency_group %.300s matches nothing in the trace: "
			 "its p50/p95/p99 limits cannot be checked", r->group);
		wl_free(wl);
		return;
	}
	mrq = mg.h[LAT_RUNQ_WAIT];
	for (int k = 0; k < 3; k++)
		r->rq_meas[k] = pct_us(mrq, k);
	r->rq_meas[RQ_LONG] = (double)mg.over_long[LAT_RUNQ_WAIT];
	r->rq_meas[WAKE_LONG] = (double)mg.over_long[LAT_WAKEUP];
	r->rq_samples_meas = mrq ? (double)mrq->count : 0;
	r->rq_absent = !mrq;
	for (int k = 0; k < NR_RQ; k++)
		r->rq_have[k] = r->rq_meas_have[k] = mrq && (k >= RQ_LONG || mrq->count);
	r->pack_shown = replay_uses_model_placement(&rc);
	r->pack_on = replay_vcpu_pack_for(wl, &rc, r->pack_why, sizeof(r->pack_why));
	for (int i = 0; i < 4; i++)
		r->meas[i] = (double)replay_measured_count(wl, metric[i]);
	r->meas_restored = (double)replay_measured_count(wl, "sched_switch_restored");
	for (int k = 0; k < 3; k++)
		r->meas[4 + k] = pct_us(mh, k);
	if (predict_seeds(wl, &rc, seeds, grp, r, pred, have_pred) < 0) {
		wl_free(wl);
		return;
	}
	for (int i = 0; i < NR_METRICS; i++) {
		json_t *l = json_object_get(lim, metric[i]);
		double lo, hi;

		r->limit[i] = json_is_number(l) ? json_number_value(l) : NAN;
		r->have[i] = r->meas[i] > 0 && have_pred[i] && (i < 4 || (mh && mh->count));
		if (!r->have[i])
			continue;
		r->pred[i] = seeds_median(pred[i], seeds, &lo, &hi);
		r->err[i] = rel(r->pred[i], r->meas[i]);
		r->err_lo[i] = rel(lo, r->meas[i]);
		r->err_hi[i] = rel(hi, r->meas[i]);
		r->over[i] = !isnan(r->limit[i]) && fabs(r->err[i]) > r->limit[i];
	}
	place_on_measured(r, mh, goal);
	sd_limits(r, json_object_get(spec, "groups_vs_kernel"));
	wl_free(wl);
}

/*
 * The informational rows (rq_row[]): measured, median, error, the seeds'
 * range; no threshold, no goal.  A count with nothing measured has no
 * relative error: the seeds' range of the count instead.
 */
static void print_rq_rows(const struct result *r)
{
	for (int k = 0; k < NR_RQ; k++) {
		printf("|  |  | %s |", rq_row[k]);
		if (r->rq_absent) {
			/* the latency group's "(absent)": no figure, as its held rows */
			printf(" - | - | - | | | |\n");
			continue;
		}
		if (!r->rq_meas_have[k]) {
			printf(" 0 samples | - | - | | | |\n");
			continue;
		}
		if (!r->rq_have[k]) {
			/* a seed's run has none of the group's waits: no median, the trace's figure */
			printf(" %.1f | - | - | | | |\n", r->rq_meas[k]);
			continue;
		}
		printf(k < RQ_LONG ? " %.1f | %.1f |" : " %.0f | %.0f |", r->rq_meas[k], r->rq_pred[k]);
		if (r->rq_meas[k] > 0)
			printf(" %+.1f%% | %+.0f..%+.0f%% | | |\n", rel(r->rq_pred[k], r->rq_meas[k]) * 100,
			       rel(r->rq_lo[k], r->rq_meas[k]) * 100, rel(r->rq_hi[k], r->rq_meas[k]) * 100);
		else
			printf(" - | %.0f..%.0f | | |\n", r->rq_lo[k], r->rq_hi[k]);
	}
}

static void print_markdown(const struct result *r, size_t n, json_t *goal)
{
	printf("| trace | latency group | metric | measured | predicted | error | seeds | threshold | goal |\n");
	printf("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
	for (size_t t = 0; t < n; t++) {
		if (r[t].skipped || r[t].failed_run) {
			printf("| %s | | %s: %s | | | | | | |\n", cli_esc_md(r[t].name),
			       r[t].skipped ? "skipped" : "FAILED", cli_esc_md(r[t].why));
			continue;
		}
		for (int i = 0; i < NR_METRICS; i++) {
			json_t *g = json_object_get(goal, metric[i]);

			printf("| %s | %s | %s%s |", i ? "" : cli_esc_md(r[t].name),
			       i ? "" : cli_esc_md(r[t].group), metric[i],
			       i >= 4 ? " (us)" : "");
			if (!r[t].have[i]) {
				printf(" - | - | - | | | |\n");
				continue;
			}
			if (i == 0 && (r[t].meas_restored || r[t].pred_restored))
				printf(" %.0f (%.0f restored) | %.0f (%.0f) |", r[t].meas[i],
				       r[t].meas_restored, r[t].pred[i], r[t].pred_restored);
			else
				printf(i >= 4 ? " %.1f | %.1f |" : " %.0f | %.0f |", r[t].meas[i],
				       r[t].pred[i]);
			printf(" %+.1f%%%s |", r[t].err[i] * 100, r[t].over[i] ? " **over**" : "");
			printf(" %+.0f..%+.0f%% |", r[t].err_lo[i] * 100, r[t].err_hi[i] * 100);
			if (isnan(r[t].limit[i]))
				printf(" |");
			else
				printf(" %.0f%% |", r[t].limit[i] * 100);
			printf(json_is_number(g) ? " %.0f%% |\n" : " |\n",
			       json_is_number(g) ? json_number_value(g) * 100 : 0);
		}
		printf("|  |  | duration (ms) | %.1f | %.1f | %+.1f%% | %+.0f..%+.0f%% | | |",
		       r[t].dur_meas, r[t].dur_pred, rel(r[t].dur_pred, r[t].dur_meas) * 100,
		       rel(r[t].dur_lo, r[t].dur_meas) * 100, rel(r[t].dur_hi, r[t].dur_meas) * 100);
		if (r[t].dur_unfinished)
			printf(" %u of the seeds' runs stopped with work left |", r[t].dur_unfinished);
		putchar('\n');
		print_rq_rows(&r[t]);
		if (r[t].sd_have)
			printf("|  |  | groups vs sched/debug (%u reads) | trace = kernel %u of %u "
			       "(%u within the read) | model = kernel %.0f of %u | tg_load_avg "
			       "median \\|m-k\\| %.1f, weight %.1f | %.1f..%.1f, %.1f..%.1f | %s | |\n",
			       r[t].sd_reads, r[t].sd_trace_eq, r[t].sd_pairs, r[t].sd_trace_in,
			       r[t].sd_model_eq, r[t].sd_pairs, r[t].sd_tg, r[t].sd_w, r[t].sd_tg_lo,
			       r[t].sd_tg_hi, r[t].sd_w_lo, r[t].sd_w_hi,
			       sd_over(&r[t]) ? "**over**" : "");
	}
	/* run-to-run spread of repeated captures, next to the model's error */
	printf("\nRun-to-run spread of the hardware (repeated captures of one workload) next to the "
	       "model's error:\n\n| series | metric | measured min..max | spread | model error range |\n"
	       "|---|---|---|---:|---|\n");
	for (size_t t = 0; t < n; t++) {
		bool first = true;

		if (!r[t].series[0] || r[t].skipped || r[t].failed_run)
			continue;
		for (size_t u = 0; u < t; u++)
			if (!strcmp(r[u].series, r[t].series))
				first = false;
		if (!first)
			continue;
		for (int i = 0; i < NR_METRICS; i++) {
			double lo = INFINITY, hi = -INFINITY, elo = INFINITY, ehi = -INFINITY, sum = 0;
			int k = 0;

			for (size_t u = t; u < n; u++) {
				if (strcmp(r[u].series, r[t].series) || !r[u].have[i] || r[u].skipped ||
				    r[u].failed_run)
					continue;
				lo = fmin(lo, r[u].meas[i]);
				hi = fmax(hi, r[u].meas[i]);
				elo = fmin(elo, r[u].err[i]);
				ehi = fmax(ehi, r[u].err[i]);
				sum += r[u].meas[i];
				k++;
			}
			if (k < 2)
				continue;
			printf("| %s (%d runs) | %s | %.1f..%.1f | %.1f%% | %+.1f%%..%+.1f%% |\n",
			       cli_esc_md(r[t].series),
			       k, metric[i], lo, hi, (hi - lo) / (sum / k) * 100, elo * 100, ehi * 100);
		}
	}
	/* the percentiles that miss their goal, on the measured distribution */
	printf("\nLatency percentiles that miss their goal, on the measured distribution: where the "
	       "predicted value falls (the share of measured samples at or below it) and how many "
	       "measured samples lie within the goal of the measured value:\n\n"
	       "| trace | metric | measured (us) | predicted (us) | error | predicted at measured "
	       "| goal band on measured | samples in band | samples from band |\n"
	       "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
	for (size_t t = 0; t < n; t++)
		for (int k = 0; k < 3; k++) {
			json_t *g = json_object_get(goal, metric[4 + k]);

			if (r[t].skipped || r[t].failed_run || !r[t].have_q[k] ||
			    fabs(r[t].err[4 + k]) <= json_number_value(g))
				continue;
			printf("| %s | %s | %.1f | %.1f | %+.1f%% | %.2f%% | %.2f..%.2f%% | %" PRIu64
			       " of %" PRIu64 " | %" PRIu64 " |\n", cli_esc_md(r[t].name), metric[4 + k],
			       r[t].meas[4 + k],
			       r[t].pred[4 + k], r[t].err[4 + k] * 100, r[t].q_pred[k], r[t].band_q_lo[k],
			       r[t].band_q_hi[k], r[t].band_n[k], r[t].n_meas, r[t].off_n[k]);
		}
}

/*
 * @s as a JSON string (the suggested thresholds are printed by hand): as it
 * is, so that the entry round-trips (sr_json_string()'s "\\" and "\\xNN",
 * read back, were another name, and a backslash of a skip reason doubled on
 * every round); the trace names are UTF-8 (checked where DIR is read), the
 * reasons read from thresholds.json.
 */
static void put_json_str(const char *s)
{
	json_t *j = json_string(s);
	char *t = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	fputs(t ? t : "null", stdout);
	free(t);
	json_decref(j);
}

static json_t *jnum(double v)
{
	return isnan(v) ? json_null() : json_real(round(v * 1e6) / 1e6);
}

/*
 * An informational figure in --json, with the held metrics' field names:
 * {measured, predicted (the seeds' median), error, seeds_error_min,
 * seeds_error_max}; the errors are null where nothing was measured (a count
 * of 0), all but measured where a seed's run has no figure (@pred NAN).
 */
static json_t *info_json(double meas, double pred, double lo, double hi)
{
	json_t *e = json_object();
	bool rel_ok = meas > 0 && !isnan(pred);

	json_object_set_new(e, "measured", jnum(meas));
	json_object_set_new(e, "predicted", jnum(pred));
	json_object_set_new(e, "error", rel_ok ? jnum(rel(pred, meas)) : json_null());
	json_object_set_new(e, "seeds_error_min", rel_ok ? jnum(rel(lo, meas)) : json_null());
	json_object_set_new(e, "seeds_error_max", rel_ok ? jnum(rel(hi, meas)) : json_null());
	return e;
}

/* the seeds thresholds.json's limits were set on: 1..DEFAULT_SEEDS */
static bool default_seeds(const struct replay_config *rc, unsigned int seeds)
{
	return rc->seed == 1 && seeds == DEFAULT_SEEDS;
}

/*
 * --json: {"ok": bool, "goal": {...}, ["seeds": {"first", "count"}: not the
 * limits' 1..15,] "traces": {NAME: {"skipped"|"failed": why} |
 * {"latency_group", "series", "metrics": {metric: {measured, predicted, error,
 * seeds_error_min, seeds_error_max, limit, over}}, "sched_switch_restored":
 * {measured, predicted}, "duration_ms": {measured, predicted, seeds_min,
 * seeds_max, runs_unfinished}, "runqueue_wait_us": {"p50"|"p95"|"p99"|"samples": I |
 * null}, "long_waits": {"over_us": 10000, "runqueue_wait"|"wakeup_latency": I |
 * null}}}}, I = {measured, predicted, error, seeds_error_min, seeds_error_max}
 * (info_json(); the latency group's, never held to a limit, null where the
 * group is absent; long_waits: its samples over LAT_LONG_NS, as the replay's
 * long_waits): duration is the trace's span and the
 * simulation's time for the traced work (replay_end_ts()); runs_unfinished
 * counts the seeds' runs that stopped with work left (replay_work_unfinished()).
 */
/*
 * --json's "groups_vs_kernel" of a trace with sched/debug reads: {"reads",
 * "pairs", "tg_load_avg_median_abs" | "weight_median_abs" |
 * "model_queued_eq_kernel": {"predicted", "seeds_min", "seeds_max",
 * "limit", "over"}, "trace_queued_eq_kernel", "trace_queued_within_read"}
 */
static json_t *sd_json(const struct result *r)
{
	const double v[3][4] = {
		{ r->sd_tg, r->sd_tg_lo, r->sd_tg_hi, r->sd_lim_tg },
		{ r->sd_w, r->sd_w_lo, r->sd_w_hi, r->sd_lim_w },
		{ r->sd_model_eq, r->sd_model_eq_lo, r->sd_model_eq_hi, r->sd_lim_q },
	};
	const bool over[3] = { r->sd_over_tg, r->sd_over_w, r->sd_over_q };
	const char *const key[3] = {
		"tg_load_avg_median_abs", "weight_median_abs", "model_queued_eq_kernel",
	};
	json_t *o = json_pack("{s:I, s:I, s:I, s:I}", "reads", (json_int_t)r->sd_reads, "pairs",
			      (json_int_t)r->sd_pairs, "trace_queued_eq_kernel",
			      (json_int_t)r->sd_trace_eq, "trace_queued_within_read",
			      (json_int_t)r->sd_trace_in);

	for (int i = 0; o && i < 3; i++)
		json_object_set_new(o, key[i], json_pack("{s:o, s:o, s:o, s:o, s:b}", "predicted",
							 jnum(v[i][0]), "seeds_min", jnum(v[i][1]),
							 "seeds_max", jnum(v[i][2]), "limit",
							 jnum(v[i][3]), "over", over[i]));
	return o;
}

static int print_json(const struct result *r, size_t n, json_t *goal, bool ok,
		      const struct replay_config *rc, unsigned int seeds)
{
	json_t *root = json_object(), *tr = json_object();
	int ret = 0;
	char sfb[MODEL_SCHED_FEATURES_TEXT];
	const char *sft;

	if (!root || !tr) {
		json_decref(root);
		json_decref(tr);
		return -1;
	}
	json_object_set_new(root, "ok", json_boolean(ok));
	json_object_set(root, "goal", goal ? goal : json_null());
	/* --sched-feature toggles over every trace's profile (none: no key) */
	sft = model_sched_features_text(&rc->sched_features, sfb, sizeof(sfb));
	if (sft)
		json_object_set_new(root, "sched_features", json_string(sft));
	/* --variant: the set every trace was replayed with (none: no key) */
	if (rc->variants)
		json_object_set_new(root, "variant", json_string(rc->variants->name));
	/* --seeds / --first-seed other than the limits' 1..15 (else no key) */
	if (!default_seeds(rc, seeds))
		json_object_set_new(root, "seeds", json_pack("{s:I,s:I}", "first",
							  (json_int_t)rc->seed, "count",
							  (json_int_t)seeds));
	for (size_t t = 0; t < n; t++) {
		json_t *o = json_object(), *m = json_object(), *rs = json_object();

		if (r[t].skipped || r[t].failed_run) {
			json_object_set_new(o, r[t].skipped ? "skipped" : "failed", sr_json_string(r[t].why));
			json_decref(m);
			json_decref(rs);
			json_object_set_new(tr, r[t].name, o);   /* UTF-8: the thresholds' key */
			continue;
		}
		json_object_set_new(o, "latency_group", sr_json_string(r[t].group));
		json_object_set_new(o, "series", r[t].series[0] ? sr_json_string(r[t].series) : json_null());
		for (int i = 0; i < NR_METRICS; i++) {
			json_t *e = json_object();

			if (!r[t].have[i]) {
				json_object_set_new(m, metric[i], json_null());
				json_decref(e);
				continue;
			}
			json_object_set_new(e, "measured", jnum(r[t].meas[i]));
			json_object_set_new(e, "predicted", jnum(r[t].pred[i]));
			json_object_set_new(e, "error", jnum(r[t].err[i]));
			json_object_set_new(e, "seeds_error_min", jnum(r[t].err_lo[i]));
			json_object_set_new(e, "seeds_error_max", jnum(r[t].err_hi[i]));
			json_object_set_new(e, "limit", jnum(r[t].limit[i]));
			json_object_set_new(e, "over", json_boolean(r[t].over[i]));
			if (i >= 4 && r[t].have_q[i - 4]) {
				const int k = i - 4;

				json_object_set_new(e, "predicted_at_measured_pct", jnum(r[t].q_pred[k]));
				json_object_set_new(e, "goal_band", json_pack(
					"{s:o, s:o, s:I, s:I, s:I}", "measured_pct_lo", jnum(r[t].band_q_lo[k]),
					"measured_pct_hi", jnum(r[t].band_q_hi[k]),
					"samples", (json_int_t)r[t].band_n[k],
					"samples_from_predicted",
					(json_int_t)r[t].off_n[k],
					"of", (json_int_t)r[t].n_meas));
			}
			json_object_set_new(m, metric[i], e);
		}
		json_object_set_new(o, "metrics", m);
		json_object_set_new(rs, "measured", jnum(r[t].meas_restored));
		json_object_set_new(rs, "predicted", jnum(r[t].pred_restored));
		json_object_set_new(o, "sched_switch_restored", rs);
		{
			json_t *d = json_object();

			json_object_set_new(d, "measured", jnum(r[t].dur_meas));
			json_object_set_new(d, "predicted", jnum(r[t].dur_pred));
			json_object_set_new(d, "seeds_min", jnum(r[t].dur_lo));
			json_object_set_new(d, "seeds_max", jnum(r[t].dur_hi));
			json_object_set_new(d, "runs_unfinished", json_integer(r[t].dur_unfinished));
			json_object_set_new(o, "duration_ms", d);
		}
		{
			json_t *q = json_object(), *lw = json_object();

			for (int k = 0; k < NR_RQ; k++)
				json_object_set_new(k < RQ_LONG ? q : lw, rq_key[k],
						    !r[t].rq_meas_have[k] ? json_null() :
						    r[t].rq_have[k] ?
						    info_json(r[t].rq_meas[k], r[t].rq_pred[k], r[t].rq_lo[k],
							      r[t].rq_hi[k]) :
						    info_json(r[t].rq_meas[k], NAN, NAN, NAN));
			json_object_set_new(q, "samples", r[t].rq_absent ? json_null() :
					    info_json(r[t].rq_samples_meas, r[t].rq_samples_pred,
						      r[t].rq_samples_lo, r[t].rq_samples_hi));
			json_object_set_new(o, "runqueue_wait_us", q);
			json_object_set_new(lw, "over_us", json_integer(LAT_LONG_NS / 1000));
			json_object_set_new(o, "long_waits", lw);
		}
		if (r[t].pack_shown)
			json_object_set_new(o, "vcpu_pack", json_pack("{s:b, s:s}", "on", r[t].pack_on,
								      "why", r[t].pack_why));
		if (r[t].sd_have)
			json_object_set_new(o, "groups_vs_kernel", sd_json(&r[t]));
		json_object_set_new(tr, r[t].name, o);   /* UTF-8: the thresholds' key */
	}
	json_object_set_new(root, "traces", tr);
	if (json_dumpf(root, stdout, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(8)) || fputc('\n', stdout) == EOF)
		ret = -1;
	json_decref(root);
	return ret;
}

static void usage(FILE *f, bool all)
{
	fprintf(f,
"usage: schedreplay validate [--markdown | --json | --suggest] [options]\n"
"\n"
"Replay every trace.dat of DIR (default: traces) and compare predicted with\n"
"measured counts and latency percentiles against the per-trace thresholds of\n"
"FILE (default: DIR/thresholds.json). Exit 1 if any threshold is exceeded, a\n"
"trace has no entry, or no trace was validated; FILE's traces missing from DIR\n"
"are named in a warning.\n"
"The output is a text table, or one of --markdown, --json and --suggest.\n"
"(This --help sums up the replay's rules in one line; --help-all lists them.)\n"
"\n"
"  --dir DIR           the traces (default: traces)\n"
"  --thresholds FILE   the thresholds (default: DIR/thresholds.json)\n"
"  --markdown          the table of docs/validation.md\n"
"  --json              the same figures for scripts (docs/validation.md)\n"
"  --suggest           max_rel_error entries (achieved error x 1.25 + 5%%) for\n"
"                      the traces of DIR, a JSON object keyed by file name (a\n"
"                      name that is not UTF-8 is refused: no JSON key can hold\n"
"                      it)\n"
"  --seeds N           the prediction is the median of N replays with model seeds\n"
"                      S..S+N-1 (N 1..64, default 15; the seeds' error range is\n"
"                      shown)\n"
"  --first-seed S      the first of those seeds (default 1: the seeds the\n"
"                      limits of thresholds.json were set on; another window\n"
"                      shows how much a goal met depends on them)\n"
"  --variant V[,V...]  replay every trace with that variant set (schedreplay\n"
"                      variants; built-in ones) against the same measured\n"
"                      figures and limits: does the capture kernel behave as the\n"
"                      set does?  Text and --json only (the json's \"variant\"\n"
"                      key)\n"
"the model (as replay's and whatif's; the defaults are what thresholds.json\n"
"holds)\n");
	run_opts_help(f, RUN_OPTS_MODEL, "validate", all);
	fprintf(f,
"\n"
"sched_switch counts the switches out of idle the kernel did not trace and the\n"
"reader restored (shown as \"restored\"; --no-repair reads the raw stream).\n"
"Each of the replay's rules defaults to the value measured best on these traces;\n"
"the docs/replay.md section its option names describes the other values and\n"
"how they measured (every investigation's figures: docs/validation-log.md).\n"
"Each replay runs on past the trace end until the traced work is done (the\n"
"duration row, --json's duration_ms: the trace's span and the simulation's time\n"
"for that work); --stop-at-end stops at the trace end instead, with the work not\n"
"done by then missing from the counts.\n"
"The latency group's run-queue wait p50/p95/p99 and its run-queue waits and\n"
"wakeup latencies over 10 ms are shown beside (--json: runqueue_wait_us {p50,\n"
"p95, p99, samples}, long_waits {over_us, runqueue_wait, wakeup_latency}), never\n"
"held to a limit, never in --suggest.\n"
"Each latency percentile is also placed on the measured distribution:\n"
"--markdown's last table lists the percentiles that miss their goal with the\n"
"share of measured samples at or below the prediction and the measured samples\n"
"within the goal of the measured value (--json: predicted_at_measured_pct,\n"
"goal_band {measured_pct_lo, measured_pct_hi, samples, of,\n"
"samples_from_predicted}): on a knee of a bimodal distribution a miss is a few\n"
"samples of rank.\n"
"Where the model's placement is used (--placement model, --state-placement*), it\n"
"packs as the capture kernel's sched_vcpu_pack when the trace's sidecar says\n"
"that kernel had it (--vcpu-pack / --no-vcpu-pack force it); the text output and\n"
"--json say which and why.\n"
"A trace whose sidecar has the kernel's sched/debug reads also shows replay's\n"
"groups comparison in brief (the seeds' median and range of the median\n"
"|model - kernel| of tg_load_avg and of the group weight, the pairs whose\n"
"h_nr_queued the model has as the kernel, and the trace's own runnable set\n"
"against the kernel; --markdown's \"groups vs sched/debug\" row, --json's\n"
"groups_vs_kernel): information, held only to a trace entry's optional\n"
"\"groups_vs_kernel\": {\"max_tg_load_avg_median_abs\", \"max_weight_median_abs\",\n"
"\"min_queued_agree\"} (docs/validation.md).\n");
}

/*
 * The thresholds file @tpath, checked before anything runs: its schema, its
 * version and its goals.  The root (the caller releases it), its "traces"
 * and its "goal"; NULL with the message printed.  @tfile and @dir as given:
 * a missing default file gets a hint.
 */
static json_t *load_thresholds(const char *tpath, const char *tfile, const char *dir,
			       json_t **traces, json_t **goal)
{
	json_error_t je;
	json_t *root, *ver, *v;
	const char *key;
	int i = 0;

	/*
	 * The default DIR/thresholds.json as a FIFO (or a device): its open()
	 * waited for a writer nobody had started, a hang (fuzz40, vdir
	 * thresh-fifo).  One named by --thresholds is read as named: a pipe
	 * (--thresholds <(...)) or a FIFO the user feeds.
	 */
	if (!tfile) {
		struct stat st;

		if (stat(tpath, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "schedreplay validate: %s: not a regular file (a %s): name "
				"it with --thresholds to read it anyway\n", cli_esc(tpath),
				S_ISFIFO(st.st_mode) ? "FIFO" : S_ISSOCK(st.st_mode) ? "socket" :
				"device");
			return NULL;
		}
	}
	/* a trace's entry (or a limit) given twice: jansson kept the last, silently */
	root = json_load_file(tpath, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		struct sr_error jerr;

		/* the file named as validate's messages name it (cli_esc()) */
		sr_error_set_json_named(&jerr, tpath, cli_esc(tpath), &je);
		fprintf(stderr, "schedreplay validate: %s%s\n", jerr.msg,
			jerr.code != EIO || tfile ? "" :
			!strcmp(dir, "traces") ?
			" (the default --dir is ./traces: run it in the source tree, or give --dir)" :
			" (each trace of --dir needs an entry with its limits: write them into "
			"DIR/thresholds.json or give --thresholds FILE; traces/thresholds.json of the "
			"source tree is an example)");
		return NULL;
	}
	*traces = json_object_get(root, "traces");
	*goal = json_object_get(root, "goal");
	if (strcmp(json_string_value(json_object_get(root, "schema")) ?: "", "schedreplay-thresholds") ||
	    !json_is_object(*traces)) {
		fprintf(stderr, "schedreplay validate: %s: not a thresholds file (schema "
			"\"schedreplay-thresholds\" with a \"traces\" object)\n", cli_esc(tpath));
		goto bad;
	}
	/*
	 * The goals (reported, not enforced: the markdown's goal column and its
	 * "goals met"): a goal of another type or a string number was no goal,
	 * silently; a version this validate does not know read as version 1.
	 */
	ver = json_object_get(root, "version");
	if (ver && (!json_is_integer(ver) || json_integer_value(ver) != 1)) {
		fprintf(stderr, "schedreplay validate: %s: \"version\" is not 1, the only one "
			"this schedreplay reads\n", cli_esc(tpath));
		goto bad;
	}
	if (*goal && !json_is_object(*goal)) {
		fprintf(stderr, "schedreplay validate: %s: \"goal\" is not an object\n",
			cli_esc(tpath));
		goto bad;
	}
	json_object_foreach(*goal, key, v) {
		for (i = 0; i < NR_METRICS && strcmp(key, metric[i]); i++)
			;
		if (i == NR_METRICS || !json_is_number(v) || !(json_number_value(v) >= 0) ||
		    !isfinite(json_number_value(v) * 100))
			break;
	}
	if (key) {
		fprintf(stderr, "schedreplay validate: %s: goal.%s: %s\n", cli_esc(tpath), cli_esc(key),
			i == NR_METRICS ? "unknown metric (sched_switch, sched_stat_runtime, "
			"sched_wakeup, sched_migrate_task, p50, p95, p99)" :
			"not a fraction >= 0 (e.g. 0.05 for 5 %)");
		goto bad;
	}
	return root;
bad:
	json_decref(root);
	return NULL;
}

/*
 * The .dat files of @dir into *@names, *@nn of them, sorted by name.  The
 * caller frees the names, also those listed before a failure.  -1 with the
 * message printed.
 */
static int list_traces(const char *dir, char ***names, size_t *nn)
{
	struct dirent *de;
	char **v;
	DIR *d;

	if (!(d = opendir(dir))) {
		fprintf(stderr, "schedreplay validate: %s: %s\n", cli_esc(dir), strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char **p;

		if (l < 5 || strcmp(de->d_name + l - 4, ".dat"))
			continue;
		/*
		 * A trace's name is its key in thresholds.json, which can hold
		 * UTF-8 only: such a trace had "no entry" that could be added,
		 * and --suggest printed a key (\xNN) naming another file.
		 */
		if (!sr_utf8_valid(de->d_name)) {
			fprintf(stderr, "schedreplay validate: %s/%s: the file name is not UTF-8, so "
				"no key of thresholds.json can name it: rename the file\n",
				cli_esc(dir), cli_esc(de->d_name));
			closedir(d);
			return -1;
		}
		if (!(p = realloc(*names, (*nn + 1) * sizeof(**names))) ||
		    !(p[*nn] = strdup(de->d_name))) {
			if (p)
				*names = p;     /* the caller frees the *nn names so far */
			closedir(d);
			fprintf(stderr, "schedreplay validate: out of memory\n");
			return -1;
		}
		*names = p;
		(*nn)++;
	}
	closedir(d);
	v = *names;
	/* sorted by name: output order does not depend on the directory */
	for (size_t i = 1; i < *nn; i++)
		for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			char *t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return 0;
}

/*
 * The thresholds' traces that are not in DIR: a subset of the traces
 * (a directory of some of them) is validated with a warning naming the
 * others; none at all (a wrong --dir, an empty one) passed, exit 0: it
 * is -1 (the message printed) when nothing else failed (@ok).
 */
static int warn_missing(json_t *traces, char **names, size_t nn, size_t validated, bool ok,
			const char *dir, const char *tpath)
{
	const char *key;
	json_t *spec;
	size_t missing = 0;
	char list[300] = "";

	json_object_foreach(traces, key, spec) {
		bool found = false;

		for (size_t i = 0; i < nn && !found; i++)
			found = !strcmp(names[i], key);
		if (found || json_is_string(json_object_get(spec, "skip")))
			continue;
		if (missing++ < 3)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%.80s",
				 missing > 1 ? ", " : "", key);
	}
	if (!validated && ok) {
		fprintf(stderr, "schedreplay validate: %s: no trace validated (%zu .dat files, "
			"none with an entry of %s that is not skipped)\n", cli_esc(dir), nn,
			cli_esc(tpath));
		return -1;
	}
	if (missing)
		fprintf(stderr, "schedreplay validate: warning: %zu trace(s) of %s not in %s, "
			"not validated: %s%s\n", missing, cli_esc(tpath), cli_esc(dir), cli_esc(list),
			missing > 3 ? ", ..." : "");
	return 0;
}

/* --suggest: max_rel_error entries for thresholds.json */
static void print_suggest(const struct result *res, size_t n)
{
	/* achieved error plus a margin: |e| * 1.25 + 5 %, rounded up to 1 % */
	printf("{\n");
	for (size_t t = 0; t < n; t++) {
		const struct result *r = &res[t];

		printf("    ");
		put_json_str(r->name);
		printf(": { ");
		if (r->skipped || r->failed_run) {
			printf("\"skip\": ");
			put_json_str(r->skipped ? r->why : "replay failed");
			printf(" }%s\n", t + 1 < n ? "," : "");
			continue;
		}
		printf("\"max_rel_error\": {");
		for (int k = 0, f = 0; k < NR_METRICS; k++)
			if (r->have[k])
				printf("%s \"%s\": %.2f", f++ ? "," : "", metric[k],
				       ceil((fabs(r->err[k]) * 1.25 + 0.05) * 100) / 100);
		printf(" } }%s\n", t + 1 < n ? "," : "");
	}
	printf("}\n");
}

/* a limit of the groups' headline in the text: "(no limit)" or "limit X[ OVER]" */
static void sd_lim_text(double lim, bool over, bool pct)
{
	if (isnan(lim))
		printf("  (no limit)");
	else if (pct)
		printf("  limit >= %.0f%%%s", lim * 100, over ? "  OVER" : "");
	else
		printf("  limit <= %g%s", lim, over ? "  OVER" : "");
}

/* The groups comparison's headline of a trace with sched/debug reads (information) */
static void print_sd_text(const struct result *r)
{
	if (!r->sd_have)
		return;
	printf("  groups vs sched/debug (%u reads; median over seeds, their range; "
	       "information, not a goal):\n", r->sd_reads);
	printf("    %-30s %8.1f (%.1f..%.1f)", "tg_load_avg median |m-k|", r->sd_tg, r->sd_tg_lo,
	       r->sd_tg_hi);
	sd_lim_text(r->sd_lim_tg, r->sd_over_tg, false);
	printf("\n    %-30s %8.1f (%.1f..%.1f)", "se.load.weight median |m-k|", r->sd_w, r->sd_w_lo,
	       r->sd_w_hi);
	sd_lim_text(r->sd_lim_w, r->sd_over_w, false);
	printf("\n    %-30s %8.0f of %u (%.1f%%; %.0f..%.0f)", "h_nr_queued model = kernel",
	       r->sd_model_eq, r->sd_pairs, r->sd_pairs ? 100.0 * r->sd_model_eq / r->sd_pairs : 0,
	       r->sd_model_eq_lo, r->sd_model_eq_hi);
	sd_lim_text(r->sd_lim_q, r->sd_over_q, true);
	printf("\n    %-30s %8u of %u at the read's time, %u within the read\n",
	       "trace = kernel (runnable)", r->sd_trace_eq, r->sd_pairs, r->sd_trace_in);
}

/* The text table; @failed: the verdict of the last line */
static void print_text(const struct result *res, size_t n, const struct replay_config *rc,
		       unsigned int seeds, bool failed)
{
	char sfb[MODEL_SCHED_FEATURES_TEXT];
	const char *sft = model_sched_features_text(&rc->sched_features, sfb, sizeof(sfb));

	if (seeds > 1)
		printf("predicted = the median of %u replays (one per model seed); ", seeds);
	else
		printf("predicted = one replay; ");
	printf("measured = the trace; error = (predicted - measured) / measured, held to the "
	       "trace's limit (OVER: exceeded); each trace's counts are the whole trace's, its "
	       "percentiles the wakeup latency of its latency group (thresholds.json)\n");
	if (!default_seeds(rc, seeds))
		printf("model seeds %llu..%llu (the limits were set on seeds 1..%d)\n",
		       (unsigned long long)rc->seed, (unsigned long long)rc->seed + seeds - 1,
		       DEFAULT_SEEDS);
	if (sft)
		printf("sched_features: %s (toggled over each trace's profile)\n", sft);
	if (rc->variants)
		printf("variant: %s (every trace replayed with it; the limits are the base "
		       "model's)\n", rc->variants->name);
	for (size_t t = 0; t < n; t++) {
		const struct result *r = &res[t];

		if (r->skipped) {
			printf("%-28s skipped: %s\n", cli_esc(r->name), cli_esc(r->why));
			continue;
		}
		if (r->failed_run) {
			printf("%-28s FAIL: %s\n", cli_esc(r->name), cli_esc(r->why));
			continue;
		}
		printf("%-28s %s\n", cli_esc(r->name), cli_esc(r->group));
		if (r->pack_shown)
			printf("  placement: vcpu_pack %s (%s)\n", r->pack_on ? "on" : "off",
			       r->pack_why);
		for (int k = 0; k < NR_METRICS; k++) {
			if (!r->have[k])
				continue;
			/* as --markdown: counts as integers, the percentiles in us */
			char label[32], lim[16];

			snprintf(label, sizeof(label), "%s%s", metric[k], k >= 4 ? " (us)" : "");
			/* no limit: "-", not a 0 % one */
			if (isnan(r->limit[k]))
				snprintf(lim, sizeof(lim), "%6s", "-");
			else
				snprintf(lim, sizeof(lim), "%5.0f%%", r->limit[k] * 100);
			printf(k >= 4 ? "  %-20s measured %12.1f predicted %12.1f error %+8.1f%%  limit %s%s\n" :
			       "  %-20s measured %12.0f predicted %12.0f error %+8.1f%%  limit %s%s\n",
			       label, r->meas[k], r->pred[k], r->err[k] * 100, lim,
			       r->over[k] ? "  OVER" : "");
			if (k == 0 && (r->meas_restored || r->pred_restored))
				printf("    %-18s measured %12.0f predicted %12.0f (switches out of idle "
				       "the kernel did not trace, restored by the reader)\n",
				       "of them restored", r->meas_restored, r->pred_restored);
		}
		printf("  %-20s measured %12.1f predicted %12.1f error %+8.1f%%  (no limit: the "
		       "simulation's time for the traced work)%s\n", "duration (ms)", r->dur_meas,
		       r->dur_pred, rel(r->dur_pred, r->dur_meas) * 100,
		       r->dur_unfinished ? "  WORK LEFT in some seeds' runs" : "");
		for (int k = 0; k < NR_RQ; k++) {
			if (!r->rq_meas_have[k])
				continue;
			if (!r->rq_have[k]) {
				/* a seed's run has none of the group's waits */
				printf("  %-20s measured %12.1f predicted %12s %15s  (no limit)\n",
				       rq_row[k], r->rq_meas[k], "-", "");
				continue;
			}
			/* the counts as integers, as --markdown has them */
			printf(k < RQ_LONG ? "  %-20s measured %12.1f predicted %12.1f " :
			       "  %-20s measured %12.0f predicted %12.0f ", rq_row[k],
			       r->rq_meas[k], r->rq_pred[k]);
			if (r->rq_meas[k] > 0)
				printf("error %+8.1f%%", rel(r->rq_pred[k], r->rq_meas[k]) * 100);
			else
				printf("%15s", "");
			printf("  (no limit)\n");
		}
		print_sd_text(r);
	}
	printf("%s\n", failed ? "validate: FAILED" : "validate: all within thresholds");
}

/*
 * --seeds N (1..MAX_SEEDS) and --first-seed S (1..2^63): @arg as a number
 * from 1 to @max, or 0 with the usage error "@rule, not '@arg'" printed.
 */
static unsigned long long parse_from_1(const char *arg, unsigned long long max, const char *rule)
{
	char *e;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &e, 10);
	if (errno || e == arg || *e || *arg == '-' || v < 1 || v > max) {
		cli_usage("validate", "%s, not '%s'", rule, cli_esc(arg));
		return 0;
	}
	return v;
}

int cmd_validate(int argc, char **argv)
{
	static const struct option own[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "thresholds", required_argument, NULL, 't' },
		{ "markdown", no_argument, NULL, 'm' },
		{ "suggest", no_argument, NULL, 's' },
		{ "seeds", required_argument, NULL, 'S' },
		{ "first-seed", required_argument, NULL, 'F' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "help-all", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = "traces", *tfile = NULL;
	struct whatif_selection vsel = { 0 };    /* --variant's one set */
	char tpath[4096], why[700];
	bool markdown = false, suggest = false, as_json = false;
	unsigned int seeds = DEFAULT_SEEDS;
	unsigned long long first_seed = 1;
	struct run_opts o;
	struct replay_progress prog;
	json_t *root = NULL, *traces, *goal;
	struct result *res = NULL;
	size_t n = 0;
	int c, pr, werr, ret = SR_EXIT_OK;
	char **names = NULL;
	size_t nn = 0, validated = 0;

	if (run_opts_init(&o, "validate", argc, RUN_OPTS_MODEL | RUN_OPTS_VARIANT, own) < 0)
		return SR_EXIT_FAIL;
	optind = 1;
	opterr = 0;     /* cli_getopt_error(): getopt's messages print the option raw */
	while ((c = getopt_long(argc, argv, ":h", o.lo, NULL)) != -1) {
		switch (c) {
		case 'd':
		case 't':
			if (!cli_path_arg("validate", c == 'd' ? "--dir" : "--thresholds", optarg,
					  c == 'd' ? "directory" : "file")) {
				ret = SR_EXIT_USAGE;
				goto out;
			}
			if (c == 'd')
				dir = optarg;
			else
				tfile = optarg;
			break;
		case 'm': markdown = true; break;
		case 's': suggest = true; break;
		case 'S':
			if (!(seeds = (unsigned int)parse_from_1(optarg, MAX_SEEDS,
								 "--seeds takes 1..64"))) {
				ret = SR_EXIT_USAGE;
				goto out;
			}
			break;
		case 'F':
			if (!(first_seed = parse_from_1(optarg, 1ull << 63,
							"--first-seed takes a seed from 1"))) {
				ret = SR_EXIT_USAGE;
				goto out;
			}
			break;
		case 'j': as_json = true; break;
		case 'h':
		case 'H':
			usage(stdout, c == 'H');
			goto out;
		case '?':
		case ':':
			cli_getopt_error("validate", c, argv, o.lo);
			ret = SR_EXIT_USAGE;
			goto out;
		default:
			pr = run_opts_parse(&o, c, optarg);
			if (pr == 1)
				break;
			ret = pr == -2 ? SR_EXIT_FAIL : SR_EXIT_USAGE;
			goto out;
		}
	}
	if (run_opts_finish(&o) < 0) {
		ret = SR_EXIT_USAGE;
		goto out;
	}
	o.rc.seed = first_seed;
	/* one output format: --json --markdown printed the markdown, exit 1 */
	if (markdown + suggest + as_json > 1) {
		ret = cli_usage("validate", "--markdown, --json and --suggest are three outputs; "
				"give one of them");
		goto out;
	}
	if (optind != argc) {
		ret = cli_usage("validate", "unexpected argument '%s'", cli_esc(argv[optind]));
		goto out;
	}
	/*
	 * --variant: every trace replayed with that set; its errors against the
	 * hardware's figures say whether the capture kernel behaved as the set
	 * does (a kernel rule the base profile lacks: vlag-vprot-union).  The
	 * limits are the base model's, so --markdown (docs/validation.md's
	 * tables) and --suggest (thresholds.json) stay the base model's.
	 */
	if (o.nr_specs) {
		struct sr_error verr = { 0 };

		if (markdown || suggest) {
			ret = cli_usage("validate", "--variant is for the text and --json outputs: "
					"--markdown and --suggest are the base model's");
			goto out;
		}
		/* an unknown name is a bad option value: exit 2, as replay's and whatif's */
		if (run_opts_select(&o, false, false, &vsel, &verr) < 0) {
			fprintf(stderr, "schedreplay validate: %s\n", verr.msg);
			ret = SR_EXIT_USAGE;
			goto out;
		}
		if (vsel.sets[0].n)
			o.rc.variants = &vsel.sets[0];
	}
	snprintf(tpath, sizeof(tpath), "%s", tfile ? tfile : dir);
	if (!tfile)
		snprintf(tpath, sizeof(tpath), "%s/thresholds.json", dir);
	root = load_thresholds(tpath, tfile, dir, &traces, &goal);
	if (!root) {
		ret = SR_EXIT_FAIL;
		goto out;
	}
	if (list_traces(dir, &names, &nn) < 0) {
		ret = SR_EXIT_FAIL;
		goto out;
	}
	res = calloc(nn ? nn : 1, sizeof(*res));
	if (!res) {
		fprintf(stderr, "schedreplay validate: out of memory\n");
		ret = SR_EXIT_FAIL;
		goto out;
	}
	/* a few seconds per trace set: progress as replay's, on a terminal after a second */
	replay_progress_init(&prog, "validating");
	prog.unit = "traces";
	for (size_t i = 0; i < nn; i++) {
		json_t *spec = json_object_get(traces, names[i]);
		struct result *r = &res[n++];

		replay_progress_runs(&prog, (unsigned int)i, (unsigned int)nn);

		if (!spec && suggest)
			spec = json_object_get(root, "default_entry");
		if (!spec) {
			snprintf(r->name, sizeof(r->name), "%s", names[i]);
			r->failed_run = true;
			snprintf(r->why, sizeof(r->why), "no entry in %.400s: add its thresholds", tpath);
			ret = SR_EXIT_FAIL;
			continue;
		}
		if (check_spec(spec, names[i], why, sizeof(why))) {
			replay_progress_done(&prog);
			fprintf(stderr, "schedreplay validate: %s: %s\n", cli_esc(tpath), cli_esc(why));
			ret = SR_EXIT_FAIL;
			goto out;
		}
		run_one(dir, names[i], spec, goal, &o.rc, &o.wo, seeds, r);
		if (r->failed_run)
			ret = SR_EXIT_FAIL;
		else if (!r->skipped)
			validated++;
		for (int k = 0; k < NR_METRICS; k++)
			if (r->over[k])
				ret = SR_EXIT_FAIL;
		if (!r->skipped && !r->failed_run && sd_over(r))
			ret = SR_EXIT_FAIL;
	}
	replay_progress_done(&prog);
	/*
	 * One line each, counting the traces it concerns - per trace, as
	 * replay and whatif warn, it would be a line for most of traces/:
	 * --initial-pelt kernel|attached given where the sidecar has no usable
	 * start snapshot (every capture before it was recorded: the asleep
	 * tasks take the model's guess); --clock-task traced where the trace
	 * has no sched_stat_runtime (no charge chain, no left-out time: the
	 * model's clock_task is the simulation's, as under wall; it said
	 * nothing, fuzz42's leftover).
	 */
	{
		unsigned int ran = 0, no_snap = 0, no_stat = 0;

		for (size_t i = 0; i < n; i++) {
			if (res[i].skipped || res[i].failed_run)
				continue;
			ran++;
			no_snap += res[i].no_start_snapshot;
			no_stat += res[i].no_stat_runtime;
		}
		if (o.initial_pelt_given && o.rc.initial_pelt != REPLAY_INITIAL_PELT_GUESS && no_snap)
			fprintf(stderr, "schedreplay validate: warning: --initial-pelt %s: %u of %u "
				"traces have no usable start snapshot (sidecar sched_at_start); their "
				"tasks asleep at the start take the model's guess\n",
				replay_value_to_name(replay_initial_pelt_names, o.rc.initial_pelt),
				no_snap, ran);
		if (o.rc.clock_task == REPLAY_CLOCK_TASK_TRACED && no_stat)
			fprintf(stderr, "schedreplay validate: warning: --clock-task traced: %u of %u "
				"traces have no sched_stat_runtime events, so no left-out clock_task time "
				"is measured there: their model's clock_task is the simulation's time, as "
				"under wall\n", no_stat, ran);
	}
	if (warn_missing(traces, names, nn, validated, ret == SR_EXIT_OK, dir, tpath) < 0) {
		ret = SR_EXIT_FAIL;
		goto out;
	}
	if (suggest) {
		print_suggest(res, n);
		ret = SR_EXIT_OK;
	} else if (markdown) {
		print_markdown(res, n, goal);
	} else if (as_json) {
		if (print_json(res, n, goal, ret == SR_EXIT_OK, &o.rc, seeds))
			ret = SR_EXIT_FAIL;
	} else {
		print_text(res, n, &o.rc, seeds, ret != SR_EXIT_OK);
	}
	/* `validate --markdown > v.md` on a full disk: a cut table and exit 0 */
	if ((werr = cli_output_error(stdout)) != 0) {
		fprintf(stderr, "schedreplay validate: writing the output failed: %s\n",
			strerror(werr));
		ret = SR_EXIT_FAIL;
	}
out:
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	free(res);
	json_decref(root);
	whatif_selection_release(&vsel);
	run_opts_release(&o);
	return ret;
}
