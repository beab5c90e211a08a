// SPDX-License-Identifier: GPL-2.0
/* The variant tests' closed-loop model driver: see minisim.h. */
#include <stdbool.h>
#include <string.h>

#include "minisim.h"

struct ms_task {
	struct model_task *t;
	int cpu;
	bool probe;                /* in the probe group */
	bool periodic;             /* a probe task (not a probe-group hog) */
	bool sleeping;
	uint64_t remaining;   /* ns of the current burst left */
	uint64_t wake_at;     /* when sleeping */
	uint64_t woke_at;     /* waiting for its first switch-in since this wake */
	bool waiting;
};

struct ms_lat {
	uint64_t *v;
	size_t n, cap;
};

static int lat_add(struct ms_lat *l, uint64_t v)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		uint64_t *n = realloc(l->v, cap * sizeof(*n));

		if (!n)
			return -1;
		l->v = n;
		l->cap = cap;
	}
	l->v[l->n++] = v;
	return 0;
}

void minisim_result_free(struct minisim_result *r)
{
	if (!r)
		return;
	free(r->probe_lat);
	free(r->hog_lat);
	model_free(r->m);
	memset(r, 0, sizeof(*r));
}

/* A task got the CPU: its first switch-in since a wakeup is a latency sample. */
static int switched_in(struct model_task *n, uint64_t now, struct ms_lat *probe,
		       struct ms_lat *hog)
{
	struct ms_task *t = n ? model_task_priv(n) : NULL;

	if (!t || !t->waiting)
		return 0;
	t->waiting = false;
	return lat_add(t->periodic ? probe : hog, now - t->woke_at);
}

int minisim_run(const struct minisim_cfg *cfg, struct minisim_result *r, struct sr_error *err)
{
	unsigned int nr = cfg->nr_hogs + cfg->nr_probes + cfg->nr_probe_hogs;
	struct model_variant_set vs;
	struct model_config mc = { 0 };
	struct ms_task *tasks = calloc(nr, sizeof(*tasks));
	struct ms_lat probe = { 0 }, hog = { 0 };
	uint64_t now = 0, since[64] = { 0 }, next_tick[64], seed = cfg->seed | 1;
	uint64_t tick = 1000000000ull / 250;
	int node[64];
	struct model_group *g_build, *g_probe;
	struct model *m;

	memset(r, 0, sizeof(*r));
	if (!tasks || cfg->nr_cpus > 64) {
		free(tasks);
		sr_error_set(err, 0, "minisim: bad configuration");
		return -1;
	}
	if (cfg->set) {
		vs = *cfg->set;
	} else {
		model_variant_set_init(&vs);
		if (model_variant_set_parse(&vs, cfg->variants, err) < 0) {
			free(tasks);
			return -1;
		}
	}
	for (unsigned int c = 0; c < cfg->nr_cpus; c++)
		node[c] = cfg->nr_nodes > 1 ? (int)(c * cfg->nr_nodes / cfg->nr_cpus) : 0;
	mc.nr_cpus = cfg->nr_cpus;
	mc.cpu_node = node;
	mc.hz = 250;
	mc.profile = model_profile_find(cfg->profile);
	mc.variants = &vs;
	mc.seed = cfg->seed;
	m = model_new(&mc, err);
	if (!m) {
		free(tasks);
		return -1;
	}
	r->m = m;
	{
		struct model_group *parent = model_root_group(m);

		if (cfg->nested && !(parent = model_group_new(m, parent, 1024, "/sr", err)))
			goto fail;
		g_build = model_group_new(m, parent, cfg->build_shares ? cfg->build_shares : 1024,
					  cfg->nested ? "/sr/build" : "/build", err);
		g_probe = model_group_new(m, parent, cfg->probe_shares ? cfg->probe_shares : 1024,
					  cfg->nested ? "/sr/probe" : "/probe", err);
	}
	if (!g_build || !g_probe)
		goto fail;
	for (unsigned int i = 0; i < nr; i++) {
		struct ms_task *t = &tasks[i];

		t->probe = i >= cfg->nr_hogs;
		t->periodic = t->probe && i < cfg->nr_hogs + cfg->nr_probes;
		t->cpu = (int)((t->probe && cfg->probe_spread ? i - cfg->nr_hogs : i) % cfg->nr_cpus);
		if (t->probe && !t->periodic)       /* probe-group hogs: from the last CPU down */
			t->cpu = cfg->probe_split ? (int)cfg->nr_cpus - 1 :
				 (int)(cfg->nr_cpus - 1 -
				       (i - cfg->nr_hogs - cfg->nr_probes) % cfg->nr_cpus);
		else if (t->periodic && cfg->probe_split)
			t->cpu = 0;
		t->t = model_task_new(m, t->probe ? (cfg->probe_root ? model_root_group(m) : g_probe) :
				      g_build, 0, MODEL_POLICY_NORMAL, i, err);
		if (!t->t || model_task_start_sleeping(m, t->t, t->cpu) < 0)
			goto fail;
		model_task_set_priv(t->t, t);
		t->sleeping = true;
		t->wake_at = minisim_uniform(&seed, 0, 2000000);
		if (t->periodic && cfg->probe_fanout > 1 && (i - cfg->nr_hogs) % cfg->probe_fanout)
			t->wake_at = UINT64_MAX;      /* a worker: woken by its message thread */
	}
	for (unsigned int c = 0; c < cfg->nr_cpus; c++)
		next_tick[c] = tick;

	while (now < cfg->duration) {
		uint64_t next = cfg->duration;

		for (unsigned int i = 0; i < nr; i++)
			if (tasks[i].sleeping && tasks[i].wake_at < next)
				next = tasks[i].wake_at;
		for (unsigned int c = 0; c < cfg->nr_cpus; c++) {
			struct model_task *cur = model_curr(m, (int)c);

			if (cur) {
				struct ms_task *t = model_task_priv(cur);

				if (since[c] + t->remaining < next)
					next = since[c] + t->remaining;
				if (next_tick[c] < next)
					next = next_tick[c];
			}
		}
		now = next;
		/* run time */
		for (unsigned int c = 0; c < cfg->nr_cpus; c++) {
			struct model_task *cur = model_curr(m, (int)c);

			if (cur) {
				struct ms_task *t = model_task_priv(cur);
				uint64_t ran = now - since[c];

				t->remaining -= ran < t->remaining ? ran : t->remaining;
				r->busy_ns += ran;
			}
			since[c] = now;
		}
		/* ticks (NO_HZ: only busy CPUs tick; the tick keeps its phase) */
		for (unsigned int c = 0; c < cfg->nr_cpus; c++) {
			if (next_tick[c] > now)
				continue;
			if (model_curr(m, (int)c))
				model_tick(m, (int)c, now);
			while (next_tick[c] <= now)
				next_tick[c] += tick;
		}
		/* bursts that ended: the task blocks */
		for (unsigned int c = 0; c < cfg->nr_cpus; c++) {
			struct model_task *cur = model_curr(m, (int)c);
			struct ms_task *t = cur ? model_task_priv(cur) : NULL;

			if (!t || t->remaining)
				continue;
			t->sleeping = true;
			t->wake_at = now + (t->periodic ? cfg->probe_period :
					    minisim_uniform(&seed, cfg->hog_sleep_min, cfg->hog_sleep_max));
			if (t->periodic && cfg->probe_fanout > 1) {
				unsigned int k = (unsigned int)(t - tasks) - cfg->nr_hogs;

				if (k % cfg->probe_fanout) {
					t->wake_at = UINT64_MAX;  /* a worker waits for its message */
				} else {
					/* a message thread wakes its workers now */
					for (unsigned int w = 1; w < cfg->probe_fanout &&
					     cfg->nr_hogs + k + w < nr; w++) {
						struct ms_task *wt = &tasks[cfg->nr_hogs + k + w];

						if (wt->sleeping)
							wt->wake_at = now;
					}
				}
			}
			if (switched_in(model_schedule(m, (int)c, MODEL_PREV_SLEEP, now), now,
					&probe, &hog) < 0)
				goto nomem;
		}
		/* wakeups due */
		for (unsigned int i = 0; i < nr; i++) {
			struct ms_task *t = &tasks[i];

			if (!t->sleeping || t->wake_at > now)
				continue;
			t->sleeping = false;
			t->remaining = t->periodic ? cfg->probe_run :
				       minisim_uniform(&seed, cfg->hog_run_min, cfg->hog_run_max);
			t->woke_at = now;
			t->waiting = true;
			/* a wakeup migration: remove_entity_load_avg() on the old CPU */
			if (!t->probe && cfg->nr_cpus > 1 &&
			    minisim_uniform(&seed, 1, 100) <= cfg->hog_migrate_pct)
				t->cpu = (int)((t->cpu + 1 + minisim_uniform(&seed, 0, cfg->nr_cpus - 2)) %
					       cfg->nr_cpus);
			if (t->periodic && cfg->on_probe_wake)
				cfg->on_probe_wake(cfg->ctx, m, t->t, t->cpu);
			if (model_try_to_wake_up(m, t->t, t->cpu, -1, MODEL_WF_TTWU, now) < 0) {
				sr_error_set(err, 0, "minisim: wakeup refused");
				goto fail;
			}
			if (t->periodic && cfg->on_probe_woken)
				cfg->on_probe_woken(cfg->ctx, m, t->t, t->cpu);
		}
		/* the scheduler runs where the model asked for it */
		for (unsigned int c = 0; c < cfg->nr_cpus; c++) {
			struct model_task *cur = model_curr(m, (int)c), *n;

			if (!model_need_resched(m, (int)c) && (cur || !model_nr_queued(m, (int)c)))
				continue;
			n = model_schedule(m, (int)c, MODEL_PREV_RUNNABLE, now);
			if (n != cur && switched_in(n, now, &probe, &hog) < 0)
				goto nomem;
		}
	}
	if (probe.n)
		qsort(probe.v, probe.n, sizeof(uint64_t), minisim_cmp_u64);
	if (hog.n)
		qsort(hog.v, hog.n, sizeof(uint64_t), minisim_cmp_u64);
	r->probe_lat = probe.v;
	r->nr_probe_lat = probe.n;
	r->hog_lat = hog.v;
	r->nr_hog_lat = hog.n;
	free(tasks);
	return 0;

nomem:
	sr_error_set(err, 0, "minisim: out of memory");
fail:
	free(probe.v);
	free(hog.v);
	free(tasks);
	model_free(m);
	r->m = NULL;
	return -1;
}
