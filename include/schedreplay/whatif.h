/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What-if: the seed patches (and any other variant) compared side by side on
 * one trace.
 *
 * Four parts, each a small module of replay/:
 *
 *   - The variant catalog (variant_plugin*.c): the registered variants of
 *     model/variants.c plus external ones, from plugins (plugin.h) and from
 *     JSON files (flags by name and tunables).  It resolves
 *     "aaron-skip,no-tg-ratelimit" into a struct model_variant_set.
 *   - The cost model (costmodel.c): per-call costs in ns of the bookkeeping
 *     functions the seed patches change, from a JSON machine file or a
 *     built-in default (one-socket, two-socket), turned into a predicted CPU
 *     share per function from the model's counters and the simulated busy
 *     time.
 *   - The latency CDF plot (svg_cdf.c): a self-contained SVG.
 *   - The what-if run and report (whatif*.c): the runs the variant options
 *     select (whatif_select(), replay's too), one workload, many variants in
 *     parallel threads, each figure the median over --seeds, a table of base
 *     vs each variant with % change, JSON with the same "variants" map as
 *     `schedreplay replay --json`.
 *
 * Errors: struct sr_error, one line naming the file and what is wrong; the
 * functions never print (except the *_print/_write ones, to the FILE given)
 * and never exit.
 */
#ifndef SCHEDREPLAY_WHATIF_H
#define SCHEDREPLAY_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <schedreplay/error.h>
#include <schedreplay/variant.h>

/* ---- the variant catalog ---------------------------------------------- */

struct variant_catalog;

/* An empty catalog: the registered variants only. */
struct variant_catalog *variant_catalog_new(struct sr_error *err);
/* Free it and unload its plugins (their variants become invalid).  NULL ok. */
void variant_catalog_free(struct variant_catalog *c);

/*
 * Load a plugin (plugin.h) from @path: only that file (a name without '/'
 * means ./NAME).  Every variant it offers is checked (ABI version, struct
 * size, name syntax, known flags, unique name) and added.  -1 on error.
 */
int variant_catalog_load_plugin(struct variant_catalog *c, const char *path,
				struct sr_error *err);
/*
 * Load variants from a JSON file: one object, or {"variants": [objects]},
 * each {"name", "description", optional "origin", "touches", "flags": [flag
 * names as in variant.h without MODEL_V_, e.g. "SKIP_CG_DEQUEUE_TASK"],
 * "tg_ratelimit_ns": -1 (profile's) | 0 (off) | ns}.  Unknown keys and flag
 * names are errors.  -1 on error (message names the file and the key).
 */
int variant_catalog_load_json(struct variant_catalog *c, const char *path,
			      struct sr_error *err);

/* Where a catalog entry comes from. */
enum variant_source {
	VARIANT_SOURCE_BUILTIN,      /* model/variants.c */
	VARIANT_SOURCE_PLUGIN,
	VARIANT_SOURCE_JSON,
};

/* All variants, registered ones first, in registration/loading order. */
unsigned int variant_catalog_count(const struct variant_catalog *c);
const struct model_variant *variant_catalog_at(const struct variant_catalog *c, unsigned int i,
					       enum variant_source *src, const char **file);
const struct model_variant *variant_catalog_find(const struct variant_catalog *c,
						 const char *name);
/*
 * Parse "name[,name...]" over the whole catalog into @set ("base" adds
 * nothing).  -1 on an unknown name (message lists the known ones) or more
 * than MODEL_VARIANT_SET_MAX parts.
 */
int variant_catalog_parse_set(const struct variant_catalog *c, struct model_variant_set *set,
			      const char *spec, struct sr_error *err);

/* Flag names (variant.h without MODEL_V_); NULL for an unknown bit. */
const char *variant_flag_name(uint32_t bit);
/* The bit of a flag name (case-insensitive, MODEL_V_ prefix optional); 0 if unknown. */
uint32_t variant_flag_from_name(const char *name);
/* All flag bits this build knows. */
uint32_t variant_flags_known(void);
/*
 * Check one externally defined variant (plugin or JSON): name syntax
 * [a-z0-9][a-z0-9.+_-]*, description present, known flags, rate limit >= -1.
 */
int variant_check(const struct model_variant *v, struct sr_error *err);

/*
 * The runs a command line asks for (whatif_select.c), shared by `schedreplay
 * whatif` and `schedreplay replay` so that both name and order runs alike:
 * base first if @base_first; then, if @all, one run per catalog variant in
 * catalog order (registered, then plugins and JSON files in loading order);
 * then one run per spec "A[,B...]" (a composition is one run).  A run asked
 * twice is one run; nothing asked is one base run.  -1 on an unknown name
 * (the message lists the known ones).  Release with
 * whatif_selection_release() (NULL-safe, idempotent).
 */
struct whatif_selection {
	struct model_variant_set *sets;
	unsigned int n;
};
int whatif_select(const struct variant_catalog *c, bool base_first, bool all,
		  const char *const *specs, unsigned int nr_specs, struct whatif_selection *out,
		  struct sr_error *err);
void whatif_selection_release(struct whatif_selection *s);

/* ---- the cost model ---------------------------------------------------- */

/*
 * Per-call costs (ns) of the functions whose CPU share the report predicts.
 * X(id, "json key", "what one unit is")
 */
#define COST_ITEMS(X)                                                                 \
	X(update_cfs_group, "update_cfs_group",                                      \
	  "one update_cfs_group() call on a group entity, without its reweight "     \
	  "and without the tg->load_avg read")                                       \
	X(reweight_entity, "reweight_entity",                                         \
	  "one reweight_entity(): dequeue/enqueue the entity's load and weight")     \
	X(update_load_avg, "update_load_avg",                                         \
	  "one update_load_avg(): PELT of the entity and its cfs_rq, propagation")   \
	X(update_tg_load_avg, "update_tg_load_avg",                                   \
	  "one update_tg_load_avg() call that gets past the root check, without "   \
	  "the write (rate-limit clock read, 1/64 test)")                            \
	X(tg_read_local, "tg_load_avg_read_local",                                    \
	  "a read of a tg->load_avg line last written on the same node")            \
	X(tg_read_remote, "tg_load_avg_read_remote",                                  \
	  "a read of a tg->load_avg line last written on another node")             \
	X(tg_write_local, "tg_load_avg_write_local",                                  \
	  "an atomic add to a tg->load_avg line last held on the same node")        \
	X(tg_write_remote, "tg_load_avg_write_remote",                                \
	  "an atomic add to a tg->load_avg line last held on another node")         \
	X(tg_access_own, "tg_load_avg_access_own",                                    \
	  "a read or write that finds the line still in this CPU's cache")          \
	X(update_blocked_averages, "update_blocked_averages",                         \
	  "one update_blocked_averages() run (all leaf cfs_rqs of one CPU)")

enum cost_item {
#define COST_ENUM(id, key, what) COST_##id,
	COST_ITEMS(COST_ENUM)
#undef COST_ENUM
	COST_NR_ITEMS
};

#define COST_MAX_NODES 64

struct cost_machine {
	char name[64];
	char description[256];
	unsigned int nodes;                  /* NUMA nodes the costs assume */
	double ns[COST_NR_ITEMS];
	char source[COST_NR_ITEMS][256];     /* where each number comes from */
};

/* "cost" key and one-line meaning of an item. */
const char *cost_item_key(enum cost_item i);
const char *cost_item_meaning(enum cost_item i);

/* The documented defaults: "one-socket", "two-socket"; NULL if unknown. */
const struct cost_machine *cost_machine_builtin(const char *name);
unsigned int cost_machine_builtin_count(void);
const struct cost_machine *cost_machine_builtin_at(unsigned int i);
/*
 * Load a machine file: {"name", "description", "nodes", "costs_ns": {key:
 * number or {"ns": number, "source": "..."}}}; keys missing from costs_ns take
 * the value of the built-in named by an optional "defaults" key ("one-socket"
 * when absent).  Unknown keys are errors.  @out is filled; -1 on error.
 */
int cost_machine_load(const char *path, struct cost_machine *out, struct sr_error *err);
/*
 * "one-socket", "two-socket" or a file path: 0, -1 on a file that cannot be
 * read or is wrong, -2 on a name without '/' that is neither a built-in nor
 * an existing file (a bad option value: the message lists the built-ins).
 */
int cost_machine_resolve(const char *name_or_path, struct cost_machine *out,
			 struct sr_error *err);
/* Write @m as a machine file (the format cost_machine_load reads). */
int cost_machine_write_json(const struct cost_machine *m, FILE *out);

/*
 * What the cost model needs from one variant's run: a counter lookup over
 * the model's counters (model_counter_get, or a copy of them) and the
 * simulated busy time (ns, summed over CPUs).
 */
typedef bool (*cost_counter_fn)(const void *ctx, const char *name, uint64_t *value);

/* The predicted time per function, ns, and as a share of the busy time. */
enum cost_function {
	COST_FN_UPDATE_CFS_GROUP,       /* update_cfs_group + reweight + tg reads */
	COST_FN_UPDATE_LOAD_AVG,        /* update_load_avg + update_tg_load_avg + tg writes */
	COST_FN_UPDATE_BLOCKED_AVERAGES,
	COST_NR_FUNCTIONS
};
const char *cost_function_name(enum cost_function f);

struct cost_estimate {
	double fn_ns[COST_NR_FUNCTIONS];
	double fn_share[COST_NR_FUNCTIONS];  /* fn_ns / (busy_ns + total_ns), 0..1 */
	double total_ns, total_share;
	/* the tg->load_avg traffic the estimate assumed */
	uint64_t tg_reads, tg_writes;
	double tg_remote_fraction;           /* of reads and writes */
	double tg_own_fraction;              /* found in the CPU's own cache */
	unsigned int nodes_active;           /* nodes that wrote tg->load_avg */
	bool per_node;                       /* MODEL_V_TG_LOAD_PER_NODE */
	bool spread_assumed;                 /* writes spread evenly over the nodes */
	unsigned int nodes;                  /* nodes the estimate priced */
	uint64_t busy_ns;
};
/*
 * Estimate from one run's counters.  @nr_cpus and @nr_nodes are the model
 * machine's; @per_node says whether the variant keeps tg->load_avg per node.
 */
void cost_estimate(const struct cost_machine *m, cost_counter_fn get, const void *ctx,
		   uint64_t busy_ns, unsigned int nr_cpus, unsigned int nr_nodes,
		   bool per_node, struct cost_estimate *out);
/*
 * The same for a replay whose model had fewer NUMA nodes than the machine
 * file (a trace from a one-node machine priced for a two-socket server):
 * the CPUs are taken as spread evenly over m->nodes nodes, so the writes
 * are too (p_n = 1 / nodes); the estimate says so (spread_assumed).
 */
void cost_estimate_for(const struct cost_machine *m, cost_counter_fn get, const void *ctx,
		       uint64_t busy_ns, unsigned int nr_cpus, unsigned int model_nodes,
		       bool per_node, struct cost_estimate *out);

/* ---- the latency CDF plot ---------------------------------------------- */

struct sr_hist;

/*
 * A curve: sorted (ascending) latencies in ns, or a histogram of them
 * (stats.h: each bucket is drawn at its midpoint, within 0.4 % of every
 * sample in it -- invisible on a log axis).
 */
struct svg_cdf_curve {
	const char *label;
	const uint64_t *sorted_ns;
	size_t n;
	const struct sr_hist *hist;          /* used instead when not NULL */
	bool measured;                       /* drawn thicker and dashed, in black */
};
/*
 * A self-contained SVG (no script, no external font or style): x = latency in
 * µs on a log scale (decades from the data), y = cumulative fraction 0..1,
 * a legend with each curve's p50/p99.  Curves with n == 0 are listed in the
 * legend as "no samples".  -1 if writing fails.
 */
int svg_cdf_write(FILE *out, const char *title, const struct svg_cdf_curve *curves,
		  size_t nr_curves, struct sr_error *err);

/* ---- the what-if run ---------------------------------------------------- */

struct wl_workload;      /* workload.h */
struct replay_config;    /* sim.h */
struct replay_result;

/* Model seeds per variant at most (as `schedreplay validate --seeds`). */
#define WHATIF_MAX_SEEDS 15

struct whatif_config {
	/* profile, placement, comm filter, seed, costs: as for one replay
	 * (its .variants is ignored; .progress and .dump are used only when
	 * there is one run: they would interleave between threads); NULL:
	 * defaults */
	const struct replay_config *replay;
	/* the runs, in report order; runs[0] is the reference ("base") */
	const struct model_variant_set *sets;
	unsigned int nr_sets;
	/*
	 * Model seeds per set: each set is replayed with seeds replay->seed ..
	 * replay->seed + seeds - 1 (0 or 1: once, with replay->seed), every
	 * (set, seed) run a job of the same thread pool.  At most
	 * WHATIF_MAX_SEEDS.
	 */
	unsigned int seeds;
	unsigned int threads;                /* 0: the CPUs this process may use */
	const struct cost_machine *machine;  /* NULL: "one-socket" */
	/* called after each run completes (from a worker thread, serialised) */
	void (*progress)(void *ctx, unsigned int done, unsigned int total);
	void *progress_ctx;
};

struct whatif_result;

/*
 * Replay @wl once per variant set and seed, in parallel threads (replay_run()
 * reads the workload only and has no global state).  The result does not
 * depend on the number of threads.  NULL on error: the first failing run's message,
 * prefixed with its variant name.  The result refers to @wl, @cfg->sets and
 * their variants (plugins stay loaded): they must outlive it.
 */
struct whatif_result *whatif_run(const struct wl_workload *wl, const struct whatif_config *cfg,
				 struct sr_error *err);
void whatif_result_free(struct whatif_result *r);

unsigned int whatif_nr_runs(const struct whatif_result *r);
/* "base", "aaron-skip", "aaron-skip,no-tg-ratelimit", ... */
const char *whatif_run_name(const struct whatif_result *r, unsigned int i);
const struct model_variant_set *whatif_run_set(const struct whatif_result *r, unsigned int i);
/* Run @i's replay with the first seed (whatif_replay_config()->seed). */
const struct replay_result *whatif_run_result(const struct whatif_result *r, unsigned int i);
/* The cost model's estimate for run @i, first seed (whatif_config.machine). */
const struct cost_estimate *whatif_run_cost(const struct whatif_result *r, unsigned int i);
/* Seeds per run (1 or more) and run @i's replay and estimate with the first
 * seed + @s, @s < whatif_nr_seeds(). */
unsigned int whatif_nr_seeds(const struct whatif_result *r);
const struct replay_result *whatif_seed_result(const struct whatif_result *r, unsigned int i,
					       unsigned int s);
const struct cost_estimate *whatif_seed_cost(const struct whatif_result *r, unsigned int i,
					     unsigned int s);
const struct cost_machine *whatif_machine(const struct whatif_result *r);
/* Wall time of all runs together, threads used, and trace events replayed
 * per run (the workload's event count). */
double whatif_wall_seconds(const struct whatif_result *r);
unsigned int whatif_threads(const struct whatif_result *r);
uint64_t whatif_trace_events(const struct whatif_result *r);

/* The replay configuration the runs shared (.variants is NULL). */
const struct replay_config *whatif_replay_config(const struct whatif_result *r);

/* Relative change of @v against @base in %, NAN if base is 0. */
double whatif_change_pct(double v, double base);

/*
 * One figure of one run over its seeds (whatif_seeds.c): the median (the
 * lower middle one for an even number of seeds, as `schedreplay validate`),
 * min and max of @fn over the run's seeds.  @fn returns the figure of run
 * @i's seed @s, NAN when that run has none (a latency group without
 * samples); then the figure is NAN: a median needs every seed.
 */
typedef double (*whatif_figure_fn)(const struct whatif_result *r, unsigned int i,
				   unsigned int s, const void *ctx);
struct whatif_figure {
	double median, min, max;
};
void whatif_figure_get(const struct whatif_result *r, unsigned int i, whatif_figure_fn fn,
		       const void *ctx, struct whatif_figure *out);
/*
 * Whether a variant's figure is not distinguishable from base's by the
 * replay's own chaos: with more than one seed, its seed range [min, max]
 * overlaps base's.  False with one seed (nothing to tell).
 */
bool whatif_figure_within_seeds(const struct whatif_result *r, const struct whatif_figure *v,
				const struct whatif_figure *base);
/*
 * The seed whose figure is the median (the first such seed), e.g. the run
 * the SVG plots; 0 with one seed.
 */
unsigned int whatif_figure_median_seed(const struct whatif_result *r, unsigned int i,
				       whatif_figure_fn fn, const void *ctx);

struct whatif_report_opts {
	const char *profile_why;     /* how the profile was chosen (sim.h) */
	int top;                     /* comms and cgroups shown in text; 0: all */
	/* the SVG's distribution: a cgroup path or comm (NULL: "all") */
	const char *svg_cgroup;
	const char *svg_comm;
	/*
	 * Other captures of the same workload (their measured latency, e.g.
	 * wl_measured_latency() of each): the hardware's run-to-run spread of
	 * each percentile, (max - min) / median over this trace and them.  A
	 * variant's change within that spread is marked "~" in text and the
	 * spreads are in the JSON ("noise").  NULL/0: none.
	 */
	const struct lat_machine *const *noise;
	unsigned int nr_noise;
	const char *const *noise_paths;      /* for the JSON; may be NULL */
};

struct lat_machine;
/*
 * The run-to-run spread of percentile @pct (0..100) of a latency group
 * (@key/@name as in latency.h; @name NULL: all wakeups) over @measured and
 * @o's noise captures: (max - min) / median; NAN with fewer than two
 * captures that have samples.  In the other captures a cgroup is found by
 * its path, else by its last component if that is unique (capture paths
 * carry a pid).
 */
double whatif_noise_spread(const struct lat_machine *measured, const struct whatif_report_opts *o,
			   int key, const char *name, double pct);

/* The seed-post style tables (whatif_report.c). */
int whatif_print_text(FILE *out, const struct wl_workload *wl, const struct whatif_result *r,
		      const struct whatif_report_opts *o);
/*
 * JSON: the members of `schedreplay replay --json` ("trace", "facts",
 * "profile", "variants": {name: {"counts", "wakeup_latency_us",
 * "runqueue_wait_us", "long_waits", "simulation"}}, "measured") plus, per variant, "cpu_share" (cost model) and
 * "change_pct" against the reference, and "whatif": {machine, threads, ...}.
 * With several seeds every number under a variant is the seeds' median, and
 * each variant adds "seeds_min", "seeds_max" (the same members) and
 * "change_within_seed_range" (the shape of change_pct, booleans);
 * "whatif" adds "seeds": {first, count, definition}.  docs/variants.md.
 */
int whatif_print_json(FILE *out, const struct wl_workload *wl, const struct whatif_result *r,
		      const struct whatif_report_opts *o, struct sr_error *err);
/* The latency CDF of every run plus the measured one (svg_cdf_write); with
 * several seeds, per run the seed whose p99 of the plotted group is the median. */
int whatif_write_svg(FILE *out, const struct wl_workload *wl, const struct whatif_result *r,
		     const struct whatif_report_opts *o, struct sr_error *err);

#endif /* SCHEDREPLAY_WHATIF_H */
