// SPDX-License-Identifier: GPL-2.0
/*
 * Model speed: the cost of an enqueue + dequeue of a task three group levels
 * deep (the hot path of every wakeup and sleep), and a replay-like event
 * loop through the public API (wakeups, blocks, ticks, preemption on 8
 * CPUs).  Prints ns/op and ops/s; the target is a few hundred ns per
 * enqueue+dequeue and >= 1M events/s for the whole replay.
 */
#include <stdio.h>
#include <time.h>

#include "sched.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* enqueue_task_fair + dequeue_task_fair of one task, @depth groups deep,
 * with 3 other tasks queued at that depth (their groups stay queued). */
static double bench_enqueue_dequeue(const char *profile, int depth, long iters)
{
	struct model_config cfg = { .nr_cpus = 8, .hz = 250, .seed = 1 };
	struct model_group *g = NULL;
	struct model_task *t, *o[3];
	struct model *m;
	struct rq *rq;
	uint64_t now = 1000000000ULL;
	double t0, t1;
	long i;
	int d;

	cfg.profile = model_profile_find(profile);
	m = model_new(&cfg, NULL);
	g = model_root_group(m);
	for (d = 0; d < depth; d++)
		g = model_group_new(m, g, 1024, "g", NULL);
	t = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, 0, NULL);
	for (d = 0; d < 3; d++) {
		o[d] = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, (uint32_t)d + 1, NULL);
		model_wake_up_new_task(m, o[d], 0, 0, now);
	}
	model_schedule(m, 0, MODEL_PREV_RUNNABLE, now);
	model_task_start_sleeping(m, t, 0);
	rq = &m->rqs[0];

	t0 = now_s();
	for (i = 0; i < iters; i++) {
		now += 1000;
		update_rq_clock(m, rq, now);
		t->state = TS_RUNNING;
		activate_task(m, rq, t, ENQUEUE_WAKEUP | ENQUEUE_NOCLOCK);
		now += 1000;
		update_rq_clock(m, rq, now);
		t->state = TS_SLEEPING;
		if (dequeue_task_fair(m, rq, t, DEQUEUE_SLEEP | DEQUEUE_NOCLOCK | DEQUEUE_SPECIAL))
			t->on_rq = 0;
	}
	t1 = now_s();
	if (model_check_invariants(m, NULL))
		fprintf(stderr, "bench: invariants broken\n");
	model_free(m);
	return (t1 - t0) * 1e9 / iters;
}

/* A replay-like loop through the public API: 64 tasks in 4 groups on 8 CPUs. */
static double bench_events(const char *profile, long events, uint64_t *switches)
{
	struct model_config cfg = { .nr_cpus = 8, .hz = 250, .seed = 2 };
	struct model_group *g[4];
	struct model_task *t[64];
	struct model *m;
	uint64_t now = 1000000000ULL, next_tick = now, x = 88172645463325252ULL;
	double t0, t1;
	long e = 0;
	int i, cpu;

	cfg.profile = model_profile_find(profile);
	m = model_new(&cfg, NULL);
	g[0] = model_group_new(m, NULL, 1024, "/a", NULL);
	g[1] = model_group_new(m, g[0], 1024, "/a/b", NULL);
	g[2] = model_group_new(m, g[1], 1024, "/a/b/c", NULL);
	g[3] = model_group_new(m, NULL, 1024, "/d", NULL);
	for (i = 0; i < 64; i++) {
		t[i] = model_task_new(m, g[i % 4], 0, MODEL_POLICY_NORMAL, (uint32_t)i, NULL);
		model_wake_up_new_task(m, t[i], i % 8, i % 8, now);
	}

	t0 = now_s();
	while (e < events) {
		struct model_task_info info;
		struct model_task *p;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		now += 2000 + x % 20000;
		while (next_tick <= now) {
			for (cpu = 0; cpu < 8; cpu++)
				if (model_curr(m, cpu)) {
					model_tick(m, cpu, next_tick);
					e++;
				}
			next_tick += 4000000;
		}
		p = t[x % 64];
		model_task_info(p, &info);
		cpu = (int)((x >> 8) % 8);
		if (info.state == MODEL_TASK_SLEEPING) {
			model_try_to_wake_up(m, p, (x >> 16) % 4 ? info.cpu : cpu, cpu, MODEL_WF_TTWU, now);
			e++;
		} else if (model_curr(m, cpu)) {
			model_schedule(m, cpu, MODEL_PREV_SLEEP, now);
			e++;
		}
		for (cpu = 0; cpu < 8; cpu++)
			if (model_need_resched(m, cpu)) {
				model_schedule(m, cpu, MODEL_PREV_RUNNABLE, now);
				e++;
			}
	}
	t1 = now_s();
	model_counter_get(m, "sched_switch", switches);
	model_free(m);
	return e / (t1 - t0);
}

int main(void)
{
	static const char *profiles[] = { "6.18", "6.5" };
	int p, d;

	printf("model benchmark (enqueue_task_fair + dequeue_task_fair, 3 siblings queued)\n");
	for (p = 0; p < 2; p++) {
		double base = bench_enqueue_dequeue(profiles[p], 0, 2000000);

		for (d = 0; d <= 3; d++) {
			double ns = d ? bench_enqueue_dequeue(profiles[p], d, 2000000) : base;

			printf("  profile %-4s depth %d: %7.1f ns per enqueue+dequeue  %6.2f M ops/s  (x%.2f of depth 0)\n",
			       profiles[p], d, ns, 1e3 / ns, ns / base);
		}
	}
	printf("model benchmark (public API event loop, 64 tasks, 4 groups, 8 CPUs)\n");
	for (p = 0; p < 2; p++) {
		uint64_t sw = 0;
		double eps = bench_events(profiles[p], 3000000, &sw);

		printf("  profile %-4s: %6.2f M model events/s (%llu switches)\n", profiles[p],
		       eps / 1e6, (unsigned long long)sw);
	}
	return 0;
}
