// SPDX-License-Identifier: GPL-2.0
/*
 * The what-if run: one extracted workload, many variants, in parallel.
 *
 * replay_run() (sim.h) reads the workload and nothing global, so the runs
 * are independent: a small pool of threads takes the next (variant, seed)
 * job from an atomic counter and writes its result into its own slot.  The results do
 * not depend on the number of threads or their interleaving, only the wall
 * time does.  The cost model is applied afterwards, per run, from the run's
 * counters and simulated busy time.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <schedreplay/sim.h>
#include <schedreplay/whatif.h>

/* One variant's runs, one per model seed (seed - first seed = index). */
struct whatif_run {
	const struct model_variant_set *set;
	struct replay_result *res[WHATIF_MAX_SEEDS];
	struct sr_error err[WHATIF_MAX_SEEDS];
	struct cost_estimate cost[WHATIF_MAX_SEEDS];
};

struct whatif_result {
	struct whatif_run *runs;
	unsigned int nr;
	unsigned int seeds;
	unsigned int threads;
	double wall_seconds;
	uint64_t trace_events;
	struct cost_machine machine;
	struct replay_config cfg;           /* as run (variants: per run) */
};

struct pool {
	const struct wl_workload *wl;
	struct replay_config cfg;           /* shared template (read-only) */
	struct whatif_run *runs;
	unsigned int nr, seeds;             /* jobs: nr x seeds */
	atomic_uint next;
	atomic_bool failed;
	pthread_mutex_t lock;               /* serialises progress */
	unsigned int done;
	void (*progress)(void *ctx, unsigned int done, unsigned int total);
	void *progress_ctx;
};

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	unsigned int i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->nr * p->seeds) {
		struct replay_config cfg = p->cfg;
		struct whatif_run *run = &p->runs[i / p->seeds];
		unsigned int s = i % p->seeds;

		if (atomic_load(&p->failed))
			break;
		cfg.variants = run->set;
		cfg.seed = p->cfg.seed + s;
		run->res[s] = replay_run(p->wl, &cfg, &run->err[s]);
		if (!run->res[s])
			atomic_store(&p->failed, true);
		pthread_mutex_lock(&p->lock);
		p->done++;
		if (p->progress)
			p->progress(p->progress_ctx, p->done, p->nr * p->seeds);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

static unsigned int usable_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned int)CPU_COUNT(&set);
	return 1;
}

static bool count_of(const void *ctx, const char *name, uint64_t *value)
{
	return replay_count_get(ctx, name, value);
}

/* NUMA nodes of the model's machine (the workload's CPU-to-node map). */
static unsigned int model_nodes(const struct wl_workload *wl, unsigned int nr_cpus)
{
	const int *node = wl_cpu_nodes(wl);
	int max = 0;

	for (unsigned int c = 0; node && c < nr_cpus; c++)
		if (node[c] > max)
			max = node[c];
	return (unsigned int)max + 1;
}

double whatif_change_pct(double v, double base)
{
	if (base == 0)
		return NAN;
	return (v - base) / base * 100.0;
}

struct whatif_result *whatif_run(const struct wl_workload *wl, const struct whatif_config *cfg,
				 struct sr_error *err)
{
	struct whatif_result *r;
	struct pool p;
	pthread_t *tids = NULL;
	unsigned int nthreads, started = 0;
	double t0;

	if (!cfg->sets || cfg->nr_sets == 0) {
		sr_error_set(err, EINVAL, "what-if: no variants to run");
		return NULL;
	}
	if (cfg->seeds > WHATIF_MAX_SEEDS) {
		sr_error_set(err, EINVAL, "what-if: %u seeds, at most %d", cfg->seeds,
			     WHATIF_MAX_SEEDS);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->runs = calloc(cfg->nr_sets, sizeof(*r->runs)))) {
		free(r);
		sr_error_set(err, ENOMEM, "what-if: out of memory");
		return NULL;
	}
	r->nr = cfg->nr_sets;
	r->seeds = cfg->seeds ? cfg->seeds : 1;
	r->machine = cfg->machine ? *cfg->machine : *cost_machine_builtin("one-socket");
	r->trace_events = wl_counts(wl)->events;
	for (unsigned int i = 0; i < r->nr; i++)
		r->runs[i].set = &cfg->sets[i];

	memset(&p, 0, sizeof(p));
	p.wl = wl;
	if (cfg->replay)
		p.cfg = *cfg->replay;
	else
		replay_config_default(&p.cfg);
	/* per-run progress and dumps would interleave between threads; one
	 * run is replayed in this thread (nthreads = min(threads, runs)) */
	if (r->nr * r->seeds > 1) {
		p.cfg.progress = NULL;
		p.cfg.progress_ctx = NULL;
		p.cfg.dump = NULL;
		p.cfg.sample_dump = NULL;
	}
	p.runs = r->runs;
	p.nr = r->nr;
	p.seeds = r->seeds;
	p.progress = cfg->progress;
	p.progress_ctx = cfg->progress_ctx;
	atomic_init(&p.next, 0);
	atomic_init(&p.failed, false);
	pthread_mutex_init(&p.lock, NULL);
	r->cfg = p.cfg;
	r->cfg.variants = NULL;
	r->cfg.progress = NULL;       /* the caller's, valid only during the run */
	r->cfg.progress_ctx = NULL;
	r->cfg.dump = NULL;
	r->cfg.sample_dump = NULL;

	nthreads = cfg->threads ? cfg->threads : usable_cpus();
	if (nthreads > r->nr * r->seeds)
		nthreads = r->nr * r->seeds;
	t0 = now_seconds();
	if (nthreads > 1)
		tids = calloc(nthreads - 1, sizeof(*tids));
	for (unsigned int t = 0; tids && t + 1 < nthreads; t++) {
		if (pthread_create(&tids[t], NULL, worker, &p) != 0)
			break;
		started++;
	}
	worker(&p);                 /* this thread works too */
	for (unsigned int t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
	free(tids);
	pthread_mutex_destroy(&p.lock);
	r->threads = started + 1;
	r->wall_seconds = now_seconds() - t0;

	if (atomic_load(&p.failed)) {
		/* report the run that failed, not one that was cancelled after it */
		sr_error_set(err, EIO, "what-if: a replay failed without a message");
		for (unsigned int j = 0; j < r->nr * r->seeds; j++) {
			const struct whatif_run *run = &r->runs[j / r->seeds];
			unsigned int s = j % r->seeds;

			if (!run->res[s] && run->err[s].msg[0]) {
				*err = run->err[s];
				if (r->seeds > 1)
					sr_error_prefix(err, "variant %s, seed %llu",
							whatif_run_name(r, j / r->seeds),
							(unsigned long long)(r->cfg.seed + s));
				else
					sr_error_prefix(err, "variant %s", whatif_run_name(r, j / r->seeds));
				break;
			}
		}
		whatif_result_free(r);
		return NULL;
	}
	for (unsigned int i = 0; i < r->nr; i++) {
		struct whatif_run *run = &r->runs[i];

		for (unsigned int s = 0; s < r->seeds; s++)
			cost_estimate_for(&r->machine, count_of, run->res[s],
					  replay_busy_ns(run->res[s]), replay_nr_cpus(run->res[s]),
					  model_nodes(wl, replay_nr_cpus(run->res[s])),
					  model_variant_set_flags(run->set) & MODEL_V_TG_LOAD_PER_NODE,
					  &run->cost[s]);
	}
	return r;
}

void whatif_result_free(struct whatif_result *r)
{
	if (!r)
		return;
	for (unsigned int i = 0; i < r->nr; i++)
		for (unsigned int s = 0; s < r->seeds; s++)
			replay_result_free(r->runs[i].res[s]);
	free(r->runs);
	free(r);
}

unsigned int whatif_nr_runs(const struct whatif_result *r)
{
	return r->nr;
}

const char *whatif_run_name(const struct whatif_result *r, unsigned int i)
{
	const struct model_variant_set *s = r->runs[i].set;

	return s->n == 0 || !s->name[0] ? "base" : s->name;
}

const struct model_variant_set *whatif_run_set(const struct whatif_result *r, unsigned int i)
{
	return r->runs[i].set;
}

const struct replay_result *whatif_run_result(const struct whatif_result *r, unsigned int i)
{
	return r->runs[i].res[0];
}

const struct cost_estimate *whatif_run_cost(const struct whatif_result *r, unsigned int i)
{
	return &r->runs[i].cost[0];
}

unsigned int whatif_nr_seeds(const struct whatif_result *r)
{
	return r->seeds;
}

const struct replay_result *whatif_seed_result(const struct whatif_result *r, unsigned int i,
					       unsigned int s)
{
	return r->runs[i].res[s];
}

const struct cost_estimate *whatif_seed_cost(const struct whatif_result *r, unsigned int i,
					     unsigned int s)
{
	return &r->runs[i].cost[s];
}

const struct cost_machine *whatif_machine(const struct whatif_result *r)
{
	return &r->machine;
}

double whatif_wall_seconds(const struct whatif_result *r)
{
	return r->wall_seconds;
}

unsigned int whatif_threads(const struct whatif_result *r)
{
	return r->threads;
}

uint64_t whatif_trace_events(const struct whatif_result *r)
{
	return r->trace_events;
}

const struct replay_config *whatif_replay_config(const struct whatif_result *r)
{
	return &r->cfg;
}
