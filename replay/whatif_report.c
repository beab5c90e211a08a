// SPDX-License-Identifier: GPL-2.0
/*
 * What-if reports: the seed posts' tables (per metric the reference value
 * and each variant's value with its % change), JSON with the replay's own
 * keys, and the latency CDF plot.
 *
 * In the text tables a row is a run.  The "measured" row is what the trace
 * shows; the reference row (base) carries its error against the measurement
 * in brackets, every other row its change against the reference.  Latencies
 * are nearest-rank percentiles from the histograms of stats.h, in µs.
 *
 * With several model seeds (whatif_config.seeds) every figure is the seeds'
 * median (whatif_seeds.c) and a change whose seed range overlaps base's is
 * marked "~" after its bracket; the JSON adds the seeds' min and max trees
 * and, per change, whether it is within base's seed range.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <schedreplay/cli.h>
#include <schedreplay/latency.h>
#include <schedreplay/profile.h>
#include <schedreplay/sim.h>
#include <schedreplay/stats.h>
#include <schedreplay/whatif.h>

#include "whatif_seeds.h"

#define CELL 21   /* "1234567890 (+12.3%)" */

static const char *const trace_counts[] = {
	"sched_switch", "sched_wakeup", "sched_migrate_task", "sched_stat_runtime",
};
static const char *const book_counts[][4] = {
	{ "update_cfs_group", "update_cfs_group.reweighted", "update_load_avg",
	  "update_tg_load_avg" },
	{ "tg_load_avg_writes", "tg_load_avg_reads", "update_blocked_averages",
	  "newidle_balance" },
	{ "wakeup_preempt", "place_entity", "tick", "reweight_entity" },
};
#define NR_BOOK_TABLES (sizeof(book_counts) / sizeof(book_counts[0]))

static const double lat_pct[] = { 50, 95, 99, 99.9 };
#define NR_LAT_PCT 4

static uint64_t count(const struct replay_result *res, const char *name)
{
	uint64_t v = 0;

	replay_count_get(res, name, &v);
	return v;
}

static int label_width(const struct whatif_result *r)
{
	size_t w = strlen("run-to-run spread");     /* the widest row label that is not a run */

	for (unsigned int i = 0; i < whatif_nr_runs(r); i++)
		if (strlen(whatif_run_name(r, i)) > w)
			w = strlen(whatif_run_name(r, i));
	return (int)w;
}

/*
 * A cell: @value, its @change (text, "" for none) and @mark after it: with
 * several seeds "~" (within base's seed range) or " ", so that the columns
 * stay aligned; "" with one seed.
 */
static void put_cell_text_w(FILE *out, int w, const char *value, const char *change,
			    const char *mark)
{
	char buf[80];

	snprintf(buf, sizeof(buf), "%s%s%s", value, change, mark);
	fprintf(out, "  %*s", w, buf);
}

static void put_cell_text(FILE *out, const char *value, const char *change, const char *mark)
{
	put_cell_text_w(out, CELL - 2, value, change, mark);
}

/*
 * The width of the column named @name: a cell's, or the name's where that is
 * wider (update_cfs_group.reweighted), as header() prints it
 */
static int col_width(const char *name)
{
	return strlen(name) > CELL - 2 ? (int)strlen(name) : CELL - 2;
}

/* put_cell_text() with the change a percentage @pct (none if NAN), @w wide. */
static void put_cell_w(FILE *out, int w, const char *value, double pct, const char *mark)
{
	char p[24] = "";

	if (!isnan(pct))
		snprintf(p, sizeof(p), " (%+.1f%%)", pct);
	put_cell_text_w(out, w, value, p, mark);
}

static void put_cell(FILE *out, const char *value, double pct, const char *mark)
{
	put_cell_w(out, CELL - 2, value, pct, mark);
}

static void put_u64_w(FILE *out, int w, uint64_t v, double pct, const char *mark)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	put_cell_w(out, w, buf, pct, mark);
}

static void put_u64(FILE *out, uint64_t v, double pct, const char *mark)
{
	put_u64_w(out, CELL - 2, v, pct, mark);
}

/* The mark after a change (put_cell()); @within: whatif_figure_within_seeds(). */
static const char *seed_mark(const struct whatif_result *r, bool within)
{
	return whatif_nr_seeds(r) < 2 ? "" : within ? "~" : " ";
}

/* ---- figures of one seed's run (whatif_figure_fn) ------------------------ */

static double fig_count(const struct whatif_result *r, unsigned int i, unsigned int s,
			const void *name)
{
	return (double)count(whatif_seed_result(r, i, s), name);
}

/* The forks' mean first load; NAN without forks. */
static double fig_first_load(const struct whatif_result *r, unsigned int i, unsigned int s,
			     const void *unused)
{
	const struct replay_result *res = whatif_seed_result(r, i, s);
	uint64_t n = count(res, "new_task_first_load.count");

	(void)unused;
	return n ? (double)count(res, "new_task_first_load.sum") / n : NAN;
}

/* The cost estimate: fn_ns[f], fn_share[f] (f = COST_NR_FUNCTIONS: the total), tg remote fraction. */
struct cost_fig {
	int f;
	enum { COST_FIG_NS, COST_FIG_SHARE, COST_FIG_REMOTE } what;
};

static double fig_cost(const struct whatif_result *r, unsigned int i, unsigned int s,
		       const void *ctx)
{
	const struct cost_fig *c = ctx;
	const struct cost_estimate *e = whatif_seed_cost(r, i, s);

	if (c->what == COST_FIG_REMOTE)
		return e->tg_remote_fraction;
	if (c->what == COST_FIG_NS)
		return c->f < COST_NR_FUNCTIONS ? e->fn_ns[c->f] : e->total_ns;
	return c->f < COST_NR_FUNCTIONS ? e->fn_share[c->f] : e->total_share;
}

/*
 * A table's title and column names; a title wider than the label column
 * (a cgroup's path, a long comm) goes on a line of its own, so that the
 * column names stay over their columns.
 */
static void header(FILE *out, int lw, const char *title, const char *const *cols, int n)
{
	if ((int)strlen(title) > lw)
		fprintf(out, "\n%s\n%-*s", title, lw, "");
	else
		fprintf(out, "\n%-*s", lw, title);
	for (int i = 0; i < n; i++)
		fprintf(out, "  %*s", col_width(cols[i]), cols[i]);
	fputc('\n', out);
}

static void count_table(FILE *out, const struct wl_workload *wl, const struct whatif_result *r,
			int lw, const char *title, const char *const *names, int n, bool measured)
{
	header(out, lw, title, names, n);
	if (measured) {
		fprintf(out, "%-*s", lw, "measured");
		for (int k = 0; k < n; k++)
			put_u64_w(out, col_width(names[k]), replay_measured_count(wl, names[k]), NAN,
				  seed_mark(r, false));
		fputc('\n', out);
	}
	for (unsigned int i = 0; i < whatif_nr_runs(r); i++) {
		fprintf(out, "%-*s", lw, whatif_run_name(r, i));
		for (int k = 0; k < n; k++) {
			struct whatif_figure v, b;
			double against, pct;

			whatif_figure_get(r, i, fig_count, names[k], &v);
			whatif_figure_get(r, 0, fig_count, names[k], &b);
			against = i == 0 ? (measured ? (double)replay_measured_count(wl, names[k]) : NAN) :
					   b.median;
			pct = isnan(against) ? NAN : whatif_change_pct(v.median, against);
			put_u64_w(out, col_width(names[k]), (uint64_t)v.median, pct,
				  seed_mark(r, i && !isnan(pct) && whatif_figure_within_seeds(r, &v, &b)));
		}
		fputc('\n', out);
	}
}

/* A group's histogram in a latency machine, NULL if absent. */
static const struct sr_hist *group_hist(const struct lat_machine *lat, enum lat_group_key key,
					const char *name)
{
	if (!lat)
		return NULL;
	if (!name)
		return lat_get_all(lat, LAT_WAKEUP);
	for (size_t i = 0; i < lat_nr_groups(lat, key); i++) {
		const struct lat_group *g = lat_group_at(lat, key, i);

		if (!strcmp(g->key, name))
			return &g->lat[LAT_WAKEUP];
	}
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A group of another capture of the same workload: the same key, or else
 * the one group whose last path component matches (cgroup paths carry the
 * capturing process's pid: /schedreplay-24914/latency vs
 * /schedreplay-25571/latency).
 */
static const struct sr_hist *noise_group_hist(const struct lat_machine *lat,
					      enum lat_group_key key, const char *name)
{
	const struct sr_hist *h = group_hist(lat, key, name), *found = NULL;
	const char *base;
	int matches = 0;

	if (h || !name || key != LAT_BY_CGROUP)
		return h;
	base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	for (size_t i = 0; *base && i < lat_nr_groups(lat, key); i++) {
		const struct lat_group *g = lat_group_at(lat, key, i);
		const char *b = strrchr(g->key, '/') ? strrchr(g->key, '/') + 1 : g->key;

		if (!strcmp(b, base)) {
			found = &g->lat[LAT_WAKEUP];
			matches++;
		}
	}
	return matches == 1 ? found : NULL;
}

double whatif_noise_spread(const struct lat_machine *measured, const struct whatif_report_opts *o,
			   int key, const char *name, double pct)
{
	uint64_t v[65];
	size_t n = 0;

	for (unsigned int i = 0; i <= (o ? o->nr_noise : 0) && n < 65; i++) {
		const struct lat_machine *lat = i == 0 ? measured : o->noise[i - 1];
		const struct sr_hist *h = i == 0 ? group_hist(lat, (enum lat_group_key)key, name) :
					  noise_group_hist(lat, (enum lat_group_key)key, name);

		if (h && h->count)
			v[n++] = sr_hist_percentile(h, pct);
	}
	if (n < 2)
		return NAN;
	qsort(v, n, sizeof(v[0]), cmp_u64);
	return v[n / 2] ? (double)(v[n - 1] - v[0]) / (double)v[n / 2] : NAN;
}

/* Percentile @pct of a latency group's wakeups (NAN: no samples), or its samples (@pct < 0). */
struct lat_fig {
	enum lat_group_key key;
	const char *name;
	double pct;
};

static double fig_lat(const struct whatif_result *r, unsigned int i, unsigned int s,
		      const void *ctx)
{
	const struct lat_fig *f = ctx;
	const struct sr_hist *h = group_hist(replay_latency(whatif_seed_result(r, i, s)), f->key,
					     f->name);

	if (f->pct < 0)
		return h ? (double)h->count : 0;
	return h && h->count ? (double)sr_hist_percentile(h, f->pct) : NAN;
}

/*
 * A latency row: samples and the percentiles @v (ns; NAN: "-"), each with
 * its change against @a (NAN: none); @spread (may be NULL) marks changes
 * within the run-to-run spread with "~" inside the bracket, @within (may be
 * NULL) those within base's seed range with "~" after it.
 */
static void lat_row(FILE *out, const struct whatif_result *r, int lw, const char *label,
		    double samples, const double *v, const double *a, const double *spread,
		    const bool *within)
{
	fprintf(out, "%-*s", lw, label);
	put_u64(out, (uint64_t)samples, NAN, seed_mark(r, false));
	for (int k = 0; k < NR_LAT_PCT; k++) {
		double pct = !isnan(v[k]) && !isnan(a[k]) ? whatif_change_pct(v[k], a[k]) : NAN;
		char val[32], p[24] = "";

		if (isnan(v[k])) {
			put_cell(out, "-", NAN, seed_mark(r, false));
			continue;
		}
		if (!isnan(pct))
			snprintf(p, sizeof(p), " (%+.1f%%%s)", pct,
				 spread && !isnan(spread[k]) && fabs(pct) <= 100 * spread[k] ? "~" : "");
		snprintf(val, sizeof(val), "%.1f", v[k] / 1000.0);
		put_cell_text(out, val, p, seed_mark(r, within && within[k] && !isnan(pct)));
	}
	fputc('\n', out);
}

static void lat_table(FILE *out, const struct wl_workload *wl, const struct whatif_result *r,
		      int lw, enum lat_group_key key, const char *name, const char *title,
		      const struct whatif_report_opts *o)
{
	static const char *const cols[] = { "samples", "p50 us", "p95 us", "p99 us", "p99.9 us" };
	const struct sr_hist *meas = group_hist(wl_measured_latency(wl), key, name);
	struct whatif_figure base[NR_LAT_PCT];
	double spread[NR_LAT_PCT], mv[NR_LAT_PCT], none[NR_LAT_PCT];
	bool any = false;

	for (int k = 0; k < NR_LAT_PCT; k++) {
		struct lat_fig f = { key, name, lat_pct[k] };

		spread[k] = whatif_noise_spread(wl_measured_latency(wl), o, key, name, lat_pct[k]);
		any |= !isnan(spread[k]);
		mv[k] = meas && meas->count ? (double)sr_hist_percentile(meas, lat_pct[k]) : NAN;
		none[k] = NAN;
		whatif_figure_get(r, 0, fig_lat, &f, &base[k]);
	}
	header(out, lw, title, cols, 5);
	lat_row(out, r, lw, "measured", meas ? (double)meas->count : 0, mv, none, NULL, NULL);
	if (any) {
		fprintf(out, "%-*s  %*s", lw, "run-to-run spread", CELL - 2, "");
		for (int k = 0; k < NR_LAT_PCT; k++) {
			char buf[24];

			snprintf(buf, sizeof(buf), isnan(spread[k]) ? "-" : "%.0f%%", 100 * spread[k]);
			put_cell(out, buf, NAN, seed_mark(r, false));
		}
		fputc('\n', out);
	}
	for (unsigned int i = 0; i < whatif_nr_runs(r); i++) {
		struct lat_fig fs = { key, name, -1 };
		struct whatif_figure samples;
		double v[NR_LAT_PCT], a[NR_LAT_PCT];
		bool within[NR_LAT_PCT];

		for (int k = 0; k < NR_LAT_PCT; k++) {
			struct lat_fig f = { key, name, lat_pct[k] };
			struct whatif_figure fig;

			whatif_figure_get(r, i, fig_lat, &f, &fig);
			v[k] = fig.median;
			a[k] = i == 0 ? mv[k] : base[k].median;
			within[k] = i && whatif_figure_within_seeds(r, &fig, &base[k]);
		}
		whatif_figure_get(r, i, fig_lat, &fs, &samples);
		lat_row(out, r, lw, whatif_run_name(r, i), samples.median, v, a, i ? spread : NULL,
			within);
	}
}

/*
 * Wakeup paths (docs/replay.md, "Wakeup paths"): the shares, in %, of all
 * wakeup samples whose target CPU was idle, whose wakee preempted the task
 * current there, waited behind it, or was queued behind other switches
 * (local and remote together), and the local wakeups onto a busy CPU that
 * preempted, of those local wakeups (replay's "local busy: preempt").
 */
enum { PF_IDLE, PF_PREEMPT, PF_BEHIND, PF_QUEUED, PF_LOCAL_PREEMPT, NR_PF };

static double path_share(const uint64_t *p, int what)
{
	uint64_t t = lat_paths_total(p), lb = lat_paths_local_busy(p), n;

	switch (what) {
	case PF_IDLE:
		n = p[LAT_PATH_IDLE];
		break;
	case PF_PREEMPT:
		n = p[LAT_PATH_PREEMPT_LOCAL] + p[LAT_PATH_PREEMPT_REMOTE];
		break;
	case PF_BEHIND:
		n = p[LAT_PATH_BEHIND_LOCAL] + p[LAT_PATH_BEHIND_REMOTE];
		break;
	case PF_QUEUED:
		n = p[LAT_PATH_QUEUED_LOCAL] + p[LAT_PATH_QUEUED_REMOTE];
		break;
	default:
		return lb ? 100.0 * (double)p[LAT_PATH_PREEMPT_LOCAL] / (double)lb : NAN;
	}
	return t ? 100.0 * (double)n / (double)t : NAN;
}

static double fig_path(const struct whatif_result *r, unsigned int i, unsigned int s,
		       const void *ctx)
{
	return path_share(lat_get_all_paths(replay_latency(whatif_seed_result(r, i, s))),
			  *(const int *)ctx);
}

/* A row of shares @v (NAN: "-"), each with its change in points against @a (NAN: none). */
static void paths_row(FILE *out, const struct whatif_result *r, int lw, const char *label,
		      const double *v, const double *a, const bool *within)
{
	fprintf(out, "%-*s", lw, label);
	for (int k = 0; k < NR_PF; k++) {
		char val[32], p[24] = "";

		if (isnan(v[k])) {
			put_cell(out, "-", NAN, seed_mark(r, false));
			continue;
		}
		if (!isnan(a[k]))
			snprintf(p, sizeof(p), " (%+.1f)", v[k] - a[k]);
		snprintf(val, sizeof(val), "%.1f%%", v[k]);
		put_cell_text(out, val, p, seed_mark(r, within && within[k] && !isnan(a[k])));
	}
	fputc('\n', out);
}

static void paths_table(FILE *out, const struct wl_workload *wl, const struct whatif_result *r,
			int lw)
{
	static const char *const cols[NR_PF] = { "idle", "preempt", "behind current", "queued",
						 "local preempt" };
	static const int what[NR_PF] = { PF_IDLE, PF_PREEMPT, PF_BEHIND, PF_QUEUED,
					 PF_LOCAL_PREEMPT };
	const uint64_t *m = lat_get_all_paths(wl_measured_latency(wl));
	struct whatif_figure base[NR_PF];
	double mv[NR_PF], none[NR_PF];

	for (int k = 0; k < NR_PF; k++) {
		mv[k] = path_share(m, what[k]);
		none[k] = NAN;
		whatif_figure_get(r, 0, fig_path, &what[k], &base[k]);
	}
	header(out, lw, "wakeup paths, all", cols, NR_PF);
	paths_row(out, r, lw, "measured", mv, none, NULL);
	for (unsigned int i = 0; i < whatif_nr_runs(r); i++) {
		double v[NR_PF], a[NR_PF];
		bool within[NR_PF];

		for (int k = 0; k < NR_PF; k++) {
			struct whatif_figure fig;

			whatif_figure_get(r, i, fig_path, &what[k], &fig);
			v[k] = fig.median;
			a[k] = i == 0 ? mv[k] : base[k].median;
			within[k] = i && whatif_figure_within_seeds(r, &fig, &base[k]);
		}
		paths_row(out, r, lw, whatif_run_name(r, i), v, a, within);
	}
	fprintf(out, "  (%% of the wakeup samples by what the target CPU did until the wakee's "
		"switch-in; local preempt: %% of the local wakeups onto a busy CPU that preempted; "
		"brackets: points; replay's \"Wakeup paths\" has every class)\n");
}

struct group_rank {
	const char *key;
	uint64_t n;
};

static int by_count_desc(const void *a, const void *b)
{
	const struct group_rank *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* The groups of @key, most measured samples first (predicted if none measured). */
static void group_tables(FILE *out, const struct wl_workload *wl, const struct whatif_result *r,
			 int lw, enum lat_group_key key, const char *what, int top,
			 const struct whatif_report_opts *o)
{
	const struct lat_machine *ref = replay_latency(whatif_run_result(r, 0));
	const struct lat_machine *meas = wl_measured_latency(wl);
	size_t n = lat_nr_groups(ref, key), shown = 0;
	struct group_rank *g = calloc(n ? n : 1, sizeof(*g));
	struct replay_nonfair_comms marks;
	bool marked;

	if (!g)
		return;
	/* out of memory: the tables without the mark */
	marked = key == LAT_BY_COMM && replay_nonfair_comms(wl, &marks) == 0;
	for (size_t i = 0; i < n; i++) {
		const struct lat_group *lg = lat_group_at(ref, key, i);
		const struct sr_hist *m = group_hist(meas, key, lg->key);

		g[i].key = lg->key;
		g[i].n = m && m->count ? m->count : lg->lat[LAT_WAKEUP].count;
	}
	qsort(g, n, sizeof(*g), by_count_desc);
	for (size_t i = 0; i < n && (top <= 0 || (int)shown < top); i++) {
		char title[160];

		if (!g[i].n)
			continue;
		snprintf(title, sizeof(title), "%s %s", what, g[i].key[0] ? cli_esc(g[i].key) : "?");
		lat_table(out, wl, r, lw, key, g[i].key, title, o);
		if (marked && replay_nonfair_comm(&marks, g[i].key))
			fprintf(out, "  " REPLAY_NONFAIR_COMM_MARK "\n");
		shown++;
	}
	if (n > shown)
		fprintf(out, "\n(%zu more %ss; --top 0 shows all)\n", n - shown, what);
	if (marked)
		replay_nonfair_comms_free(&marks);
	free(g);
}

/* The load new tasks enter with (the seed's 1024 vs 1002). */
static void new_task_table(FILE *out, const struct whatif_result *r, int lw)
{
	static const char *const cols[] = { "forks", "mean first load" };
	struct whatif_figure ref;

	whatif_figure_get(r, 0, fig_first_load, NULL, &ref);
	header(out, lw, "new tasks (model)", cols, 2);
	for (unsigned int i = 0; i < whatif_nr_runs(r); i++) {
		struct whatif_figure n, mean;
		double pct;
		char buf[32];

		whatif_figure_get(r, i, fig_count, "new_task_first_load.count", &n);
		whatif_figure_get(r, i, fig_first_load, NULL, &mean);
		pct = i && !isnan(mean.median) && !isnan(ref.median) ?
		      whatif_change_pct(mean.median, ref.median) : NAN;
		fprintf(out, "%-*s", lw, whatif_run_name(r, i));
		put_u64(out, (uint64_t)n.median, NAN, seed_mark(r, false));
		snprintf(buf, sizeof(buf), isnan(mean.median) ? "-" : "%.1f", mean.median);
		put_cell(out, buf, pct, seed_mark(r, !isnan(pct) &&
					     whatif_figure_within_seeds(r, &mean, &ref)));
		fputc('\n', out);
	}
}

/* One cell of the cost table: the median share, the change of the median ns. */
static void cost_cell(FILE *out, const struct whatif_result *r, unsigned int i, int f)
{
	struct cost_fig ns = { f, COST_FIG_NS }, share = { f, COST_FIG_SHARE };
	struct whatif_figure v, b, sh;
	double pct;
	char buf[32];

	whatif_figure_get(r, i, fig_cost, &ns, &v);
	whatif_figure_get(r, 0, fig_cost, &ns, &b);
	whatif_figure_get(r, i, fig_cost, &share, &sh);
	pct = i ? whatif_change_pct(v.median, b.median) : NAN;
	snprintf(buf, sizeof(buf), "%.3g%%", 100 * sh.median);
	put_cell(out, buf, pct, seed_mark(r, !isnan(pct) && whatif_figure_within_seeds(r, &v, &b)));
}

static void cost_table(FILE *out, const struct whatif_result *r, int lw)
{
	static const char *const cols[] = { "update_cfs_group", "update_load_avg",
					    "update_blocked_avg", "total", "tg line remote" };
	const struct cost_machine *m = whatif_machine(r);
	const struct cost_estimate *ref = whatif_run_cost(r, 0);
	struct cost_fig remote = { 0, COST_FIG_REMOTE };

	fprintf(out, "\npredicted CPU share of the bookkeeping on machine '%s' (%u node%s)%s\n",
		cli_esc(m->name), m->nodes, m->nodes == 1 ? "" : "s",
		ref->spread_assumed ? ":\n  the trace has fewer NUMA nodes: its CPUs are taken as spread "
				      "evenly over the machine's" : "");
	header(out, lw, "% of CPU time", cols, 5);
	for (unsigned int i = 0; i < whatif_nr_runs(r); i++) {
		struct whatif_figure rf;
		char buf[32];

		fprintf(out, "%-*s", lw, whatif_run_name(r, i));
		for (int f = 0; f <= COST_NR_FUNCTIONS; f++)     /* COST_NR_FUNCTIONS: the total */
			cost_cell(out, r, i, f);
		whatif_figure_get(r, i, fig_cost, &remote, &rf);
		snprintf(buf, sizeof(buf), "%.0f%%", 100 * rf.median);
		put_cell(out, buf, NAN, seed_mark(r, false));
		fputc('\n', out);
	}
}

int whatif_print_text(FILE *out, const struct wl_workload *wl, const struct whatif_result *r,
		      const struct whatif_report_opts *o)
{
	const struct replay_result *ref = whatif_run_result(r, 0);
	const struct replay_config *cfg = whatif_replay_config(r);
	const struct trace_info *ti = wl_trace_info(wl);
	int lw = label_width(r);
	char sfb[MODEL_SCHED_FEATURES_TEXT];
	const char *sft;
	unsigned int seeds = whatif_nr_seeds(r);
	double evps = whatif_wall_seconds(r) > 0 ?
		      (double)whatif_trace_events(r) * whatif_nr_runs(r) * seeds /
		      whatif_wall_seconds(r) : 0;

	fprintf(out, "schedreplay what-if: %s\n", ti && ti->path ? cli_esc(ti->path) : "?");
	fprintf(out, "  profile %s (%s)\n  placement %s, %u CPUs, HZ %u\n",
		model_profile_name(replay_result_profile(ref)),
		o && o->profile_why ? o->profile_why : "chosen explicitly",
		replay_value_to_name(replay_placement_names, cfg->placement),
		replay_nr_cpus(ref), wl_facts(wl)->hz);
	/* replay's capacity: line where it matters: CPUs of another capacity */
	if (wl_facts(wl)->capacity_asym)
		fprintf(out, "  capacity: %s\n",
			wl_facts(wl)->capacity_how);
	sft = model_sched_features_text(&cfg->sched_features, sfb, sizeof(sfb));
	if (sft)
		fprintf(out, "  sched_features %s (toggled over the profile; variants may add theirs)\n",
			sft);
	if (replay_uses_model_placement(cfg)) {
		char why[200];
		bool on = replay_vcpu_pack_for(wl, cfg, why, sizeof(why));

		fprintf(out, "  placement: vcpu_pack %s (%s)\n", on ? "on" : "off", why);
	}
	if (cfg->comm_prefix)
		fprintf(out, "  latency of comms starting with '%s' only\n", cli_esc(cfg->comm_prefix));
	if (seeds > 1) {
		fprintf(out, "  %u runs x %u seeds in %u threads: %.2f s wall, %.2f M trace events/s "
			     "(runs x seeds x events / wall time)\n",
			whatif_nr_runs(r), seeds, whatif_threads(r), whatif_wall_seconds(r), evps / 1e6);
		fprintf(out, "  every figure: the median over model seeds %llu..%llu%s\n"
			     "  ~ after a change: its seed range [min, max] overlaps base's (not "
			     "distinguishable from the replay's own chaos at %u seeds)\n",
			(unsigned long long)cfg->seed, (unsigned long long)(cfg->seed + seeds - 1),
			seeds % 2 ? "" : " (the lower middle one)", seeds);
	} else {
		fprintf(out, "  %u runs in %u threads: %.2f s wall, %.2f M trace events/s "
			     "(variants x events / wall time)\n",
			whatif_nr_runs(r), whatif_threads(r), whatif_wall_seconds(r), evps / 1e6);
	}
	fprintf(out, "  reference: %s (its brackets: error against the measurement; "
		     "every other row: change against it)\n", whatif_run_name(r, 0));

	count_table(out, wl, r, lw, "trace-visible counts", trace_counts, 4, true);
	for (size_t t = 0; t < NR_BOOK_TABLES; t++)
		count_table(out, wl, r, lw, t == 0 ? "bookkeeping calls (model)" : "", book_counts[t],
			    4, false);
	new_task_table(out, r, lw);
	if (o && o->nr_noise)
		fprintf(out, "\n(~%s: a change within the run-to-run spread of that measured percentile "
			     "over this trace and %u other capture%s)\n",
			seeds > 1 ? " inside a latency change's bracket" : "", o->nr_noise,
			o->nr_noise == 1 ? "" : "s");
	lat_table(out, wl, r, lw, LAT_BY_COMM, NULL, "wakeup latency, all", o);
	replay_text_nonfair_note(out, wl);
	replay_text_no_wakeup_note(out, wl);
	paths_table(out, wl, r, lw);
	group_tables(out, wl, r, lw, LAT_BY_CGROUP, "cgroup", o ? o->top : 0, o);
	group_tables(out, wl, r, lw, LAT_BY_COMM, "comm", o ? o->top : 0, o);
	cost_table(out, r, lw);
	return ferror(out) ? -1 : 0;
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *jpct(double pct)
{
	return isnan(pct) ? json_null() : json_real(round(pct * 1e4) / 1e4);
}

/*
 * What change_pct and change_within_seed_range hold for one figure: the
 * change of run @i's median against base's (null if base's is 0 or a
 * median is missing), or whether run @i's seed range overlaps base's (null
 * where there is no change).
 */
static json_t *change_leaf(const struct whatif_result *r, unsigned int i, whatif_figure_fn fn,
			   const void *ctx, bool within)
{
	struct whatif_figure v, b;
	double pct;

	whatif_figure_get(r, i, fn, ctx, &v);
	whatif_figure_get(r, 0, fn, ctx, &b);
	pct = isnan(v.median) || isnan(b.median) ? NAN : whatif_change_pct(v.median, b.median);
	if (!within)
		return jpct(pct);
	return isnan(pct) ? json_null() : json_boolean(whatif_figure_within_seeds(r, &v, &b));
}

static json_t *dist_change(const struct whatif_result *r, unsigned int i, enum lat_group_key key,
			   const char *name, bool within)
{
	json_t *o = json_object();

	for (int k = 0; o && k < SR_NR_STD_PCT; k++) {
		struct lat_fig f = { key, name, sr_std_pct[k] };

		json_object_set_new(o, sr_std_pct_key[k], change_leaf(r, i, fig_lat, &f, within));
	}
	return o;
}

/* The groups of run @i's first seed that have wakeups. */
static json_t *groups_change(const struct whatif_result *r, unsigned int i, enum lat_group_key key,
			     bool within)
{
	const struct lat_machine *lat = replay_latency(whatif_run_result(r, i));
	json_t *o = json_object();

	for (size_t g = 0; o && g < lat_nr_groups(lat, key); g++) {
		const struct lat_group *lg = lat_group_at(lat, key, g);

		char kb[CLI_ESC_MAX + 4];

		if (lg->lat[LAT_WAKEUP].count)
			json_object_set_new(o, lg->key[0] ? sr_json_key(lg->key, kb, sizeof(kb)) : "?",
					    dist_change(r, i, key, lg->key, within));
	}
	return o;
}

/* "change_pct" (@within false) or "change_within_seed_range" of run @i. */
static json_t *change_json(const struct whatif_result *r, unsigned int i, bool within)
{
	json_t *o = json_object(), *c = json_object(), *l = json_object();
	unsigned int it = 0;
	const char *name;
	uint64_t v;

	if (!o || !c || !l) {
		json_decref(o);
		json_decref(c);
		json_decref(l);
		return NULL;
	}
	while (replay_count_next(whatif_run_result(r, i), &it, &name, &v))
		json_object_set_new(c, name, change_leaf(r, i, fig_count, name, within));
	json_object_set_new(o, "counts", c);
	json_object_set_new(l, "all", dist_change(r, i, LAT_BY_COMM, NULL, within));
	json_object_set_new(l, "by_comm", groups_change(r, i, LAT_BY_COMM, within));
	json_object_set_new(l, "by_cgroup", groups_change(r, i, LAT_BY_CGROUP, within));
	json_object_set_new(o, "wakeup_latency_us", l);
	return o;
}

static json_t *cost_json(const struct cost_estimate *e)
{
	json_t *o = json_object(), *fn = json_object(), *ns = json_object();

	if (!o || !fn || !ns) {
		json_decref(o);
		json_decref(fn);
		json_decref(ns);
		return NULL;
	}
	for (int f = 0; f < COST_NR_FUNCTIONS; f++) {
		json_object_set_new(fn, cost_function_name(f), json_real(e->fn_share[f]));
		json_object_set_new(ns, cost_function_name(f), json_real(e->fn_ns[f]));
	}
	json_object_set_new(fn, "total", json_real(e->total_share));
	json_object_set_new(ns, "total", json_real(e->total_ns));
	json_object_set_new(o, "share", fn);
	json_object_set_new(o, "ns", ns);
	json_object_set_new(o, "busy_ns", json_integer((json_int_t)e->busy_ns));
	json_object_set_new(o, "tg_load_avg_remote_fraction", json_real(e->tg_remote_fraction));
	json_object_set_new(o, "tg_load_avg_own_fraction", json_real(e->tg_own_fraction));
	json_object_set_new(o, "nodes", json_integer(e->nodes));
	json_object_set_new(o, "spread_assumed", json_boolean(e->spread_assumed));
	json_object_set_new(o, "per_node", json_boolean(e->per_node));
	return o;
}

static json_t *machine_json(const struct cost_machine *m)
{
	json_t *o = json_object(), *c = json_object();

	if (!o || !c) {
		json_decref(o);
		json_decref(c);
		return NULL;
	}
	json_object_set_new(o, "name", json_string(m->name));
	json_object_set_new(o, "description", json_string(m->description));
	json_object_set_new(o, "nodes", json_integer(m->nodes));
	for (int i = 0; i < COST_NR_ITEMS; i++)
		json_object_set_new(c, cost_item_key(i), json_real(m->ns[i]));
	json_object_set_new(o, "costs_ns", c);
	return o;
}

/*
 * A run's figures as `replay --json` has them plus cpu_share and errors; with
 * several seeds each number is the seeds' median and "seeds_min",
 * "seeds_max" carry the same members with the seeds' min and max.
 */
static json_t *variant_json(const struct wl_workload *wl, const struct whatif_result *r,
			    unsigned int i)
{
	json_t *t[WHATIF_MAX_SEEDS] = { NULL }, *v = NULL, *lo, *hi;
	unsigned int n = whatif_nr_seeds(r);

	for (unsigned int s = 0; s < n; s++) {
		const struct replay_result *res = whatif_seed_result(r, i, s);

		if (!(t[s] = replay_json_variant(res)))
			goto out;
		json_object_set_new(t[s], "cpu_share", cost_json(whatif_seed_cost(r, i, s)));
		json_object_set_new(t[s], "errors", replay_json_errors(wl, res));
	}
	if (n == 1)
		return t[0];
	v = whatif_json_seeds(t, n, WHATIF_SEEDS_MEDIAN);
	lo = whatif_json_seeds(t, n, WHATIF_SEEDS_MIN);
	hi = whatif_json_seeds(t, n, WHATIF_SEEDS_MAX);
	if (!v || !lo || !hi) {
		json_decref(v);
		json_decref(lo);
		json_decref(hi);
		v = NULL;
		goto out;
	}
	json_object_set_new(v, "seeds_min", lo);
	json_object_set_new(v, "seeds_max", hi);
out:
	for (unsigned int s = 0; s < n; s++)
		json_decref(t[s]);
	return v;
}

int whatif_print_json(FILE *out, const struct wl_workload *wl, const struct whatif_result *r,
		      const struct whatif_report_opts *o, struct sr_error *err)
{
	const struct replay_result *ref = whatif_run_result(r, 0);
	const struct replay_config *cfg = whatif_replay_config(r);
	json_t *root = json_object(), *vars = json_object(), *w = json_object(), *order = json_array();
	int ret = -1;

	if (!root || !vars || !w || !order)
		goto nomem;
	if (replay_json_add_workload(root, wl, cfg) < 0)
		goto nomem;
	json_object_set_new(root, "profile", replay_json_profile(replay_result_profile(ref),
								 o ? o->profile_why : NULL,
								 replay_result_sched_features(ref)));
	json_object_set_new(root, "placement",
			    json_string(replay_value_to_name(replay_placement_names, cfg->placement)));
	if (replay_uses_model_placement(cfg))
		json_object_set_new(root, "vcpu_pack", replay_json_vcpu_pack(wl, cfg));
	for (unsigned int i = 0; i < whatif_nr_runs(r); i++) {
		json_t *v = variant_json(wl, r, i);

		if (!v)
			goto nomem;
		json_object_set_new(v, "change_pct", change_json(r, i, false));
		if (whatif_nr_seeds(r) > 1)
			json_object_set_new(v, "change_within_seed_range", change_json(r, i, true));
		json_object_set_new(vars, whatif_run_name(r, i), v);
		json_array_append_new(order, json_string(whatif_run_name(r, i)));
	}
	json_object_set_new(root, "variants", vars);
	vars = NULL;
	json_object_set_new(root, "measured", replay_json_measured(wl));
	if (o && o->nr_noise) {
		json_t *nz = json_object(), *paths = json_array(), *all = json_object(),
		       *byc = json_object();
		const struct lat_machine *meas = wl_measured_latency(wl);

		for (unsigned int i = 0; paths && i < o->nr_noise; i++)
			json_array_append_new(paths, o->noise_paths ? sr_json_string(o->noise_paths[i]) :
							      json_null());
		for (int k = 0; all && k < SR_NR_STD_PCT; k++) {
			double sp = whatif_noise_spread(meas, o, LAT_BY_COMM, NULL, sr_std_pct[k]);

			json_object_set_new(all, sr_std_pct_key[k], isnan(sp) ? json_null() : json_real(sp));
		}
		for (size_t g = 0; byc && g < lat_nr_groups(meas, LAT_BY_CGROUP); g++) {
			const struct lat_group *lg = lat_group_at(meas, LAT_BY_CGROUP, g);
			json_t *one = json_object();
			char kb[CLI_ESC_MAX + 4];

			for (int k = 0; one && k < SR_NR_STD_PCT; k++) {
				double sp = whatif_noise_spread(meas, o, LAT_BY_CGROUP, lg->key,
								sr_std_pct[k]);

				json_object_set_new(one, sr_std_pct_key[k],
						    isnan(sp) ? json_null() : json_real(sp));
			}
			json_object_set_new(byc, lg->key[0] ? sr_json_key(lg->key, kb, sizeof(kb)) : "?",
					    one);
		}
		json_object_set_new(nz, "captures", paths);
		json_object_set_new(nz, "definition", json_string(
			"(max - min) / median of the measured percentile over this trace and the captures"));
		json_object_set_new(nz, "all", all);
		json_object_set_new(nz, "by_cgroup", byc);
		json_object_set_new(root, "noise", nz);
	}
	json_object_set_new(w, "reference", json_string(whatif_run_name(r, 0)));
	json_object_set_new(w, "order", order);
	order = NULL;
	json_object_set_new(w, "machine", machine_json(whatif_machine(r)));
	json_object_set_new(w, "threads", json_integer(whatif_threads(r)));
	json_object_set_new(w, "runs", json_integer(whatif_nr_runs(r)));
	json_object_set_new(w, "wall_seconds", json_real(whatif_wall_seconds(r)));
	json_object_set_new(w, "trace_events", json_integer((json_int_t)whatif_trace_events(r)));
	if (whatif_nr_seeds(r) > 1) {
		json_t *sd = json_object();

		json_object_set_new(sd, "first", json_integer((json_int_t)cfg->seed));
		json_object_set_new(sd, "count", json_integer(whatif_nr_seeds(r)));
		json_object_set_new(sd, "definition", json_string(
			"every figure of a variant is the median over the seeds (the lower middle one "
			"for an even count); seeds_min and seeds_max hold the seeds' range; "
			"change_pct is the change of the medians; change_within_seed_range: the "
			"variant's seed range [min, max] overlaps base's"));
		json_object_set_new(w, "seeds", sd);
	}
	json_object_set_new(root, "whatif", w);
	w = NULL;
	/* the flags of `schedreplay replay --json`: the same text for the same numbers */
	if (json_dumpf(root, out, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10)) < 0 ||
	    fputc('\n', out) == EOF) {
		sr_error_set(err, EIO, "cannot write the JSON report");
		goto out;
	}
	ret = 0;
	goto out;
nomem:
	sr_error_set(err, ENOMEM, "what-if JSON: out of memory");
out:
	json_decref(order);
	json_decref(w);
	json_decref(vars);
	json_decref(root);
	return ret;
}

/* ---- SVG ----------------------------------------------------------------- */

int whatif_write_svg(FILE *out, const struct wl_workload *wl, const struct whatif_result *r,
		     const struct whatif_report_opts *o, struct sr_error *err)
{
	enum lat_group_key key = LAT_BY_COMM;
	const char *name = NULL, *what = "all wakeups";
	const struct trace_info *ti = wl_trace_info(wl);
	const struct replay_config *cfg = whatif_replay_config(r);
	unsigned int n = whatif_nr_runs(r);
	struct svg_cdf_curve *c = calloc(n + 1, sizeof(*c));
	char title[512];
	int ret;

	if (!c) {
		sr_error_set(err, ENOMEM, "SVG: out of memory");
		return -1;
	}
	if (o && o->svg_cgroup) {
		key = LAT_BY_CGROUP;
		name = o->svg_cgroup;
		what = "cgroup";
	} else if (o && o->svg_comm) {
		key = LAT_BY_COMM;
		name = o->svg_comm;
		what = "comm";
	}
	c[0].label = "measured";
	c[0].measured = true;
	c[0].hist = group_hist(wl_measured_latency(wl), key, name);
	for (unsigned int i = 0; i < n; i++) {
		/*
		 * With several seeds, the run of the seed whose p99 is the median:
		 * a curve one run drew (percentile-wise medians need not be one
		 * distribution), and the legend's p99 is the table's.
		 */
		struct lat_fig p99 = { key, name, 99 };
		unsigned int s = whatif_figure_median_seed(r, i, fig_lat, &p99);

		c[i + 1].label = whatif_run_name(r, i);
		c[i + 1].hist = group_hist(replay_latency(whatif_seed_result(r, i, s)), key, name);
	}
	/* a group no run has is an empty curve ("no samples"), not an error */
	for (unsigned int i = 0; i <= n; i++)
		if (!c[i].hist)
			c[i].n = 0;
	snprintf(title, sizeof(title), "wakeup latency CDF: %s%s%s -- %s, profile %s, placement %s",
		 what, name ? " " : "", name ? name : "",
		 ti && ti->path ? ti->path : "?",
		 model_profile_name(replay_result_profile(whatif_run_result(r, 0))),
		 replay_value_to_name(replay_placement_names, cfg->placement));
	ret = svg_cdf_write(out, title, c, n + 1, err);
	free(c);
	return ret;
}
