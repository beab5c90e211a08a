// SPDX-License-Identifier: GPL-2.0
/*
 * What a tg->load_avg access costs on this machine: the numbers a cost-model
 * machine file needs (docs/variants.md, "Cost model").
 *
 *   own      an atomic add to a line this CPU already holds
 *   pingpong an atomic add to a line the other CPU wrote last: two threads
 *            pinned to CPU A and B take turns (each add moves the line once);
 *            the cost of one transfer = elapsed / adds
 *   hammer   both threads add as fast as they can (update_tg_load_avg from
 *            every CPU at once): ns per add per thread
 *
 * usage: bench_cacheline [CPU_A CPU_B] [ITERATIONS]
 * Prints figures (the minimum of 5 rounds); never fails on speed.  Run it on
 * an idle machine.  On a VM the vCPUs may share a core (then "pingpong" is
 * an SMT-sibling transfer): say so next to the figure.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Alignas(128) atomic_ulong line;
static _Alignas(128) atomic_int go;
static unsigned long iterations = 400000;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

struct arg {
	int cpu;
	unsigned long parity;   /* pingpong: add when line % 2 == parity */
	int mode;               /* 0 pingpong, 1 hammer */
	double ns;
};

static void *worker(void *p)
{
	struct arg *a = p;
	double t0;

	if (pin(a->cpu) != 0)
		fprintf(stderr, "bench_cacheline: cannot pin to CPU %d (running unpinned)\n", a->cpu);
	while (!atomic_load(&go))
		;
	t0 = now_ns();
	if (a->mode == 0) {
		for (unsigned long i = 0; i < iterations; i++) {
			while ((atomic_load_explicit(&line, memory_order_acquire) & 1) != a->parity)
				;
			atomic_fetch_add(&line, 1);
		}
	} else {
		for (unsigned long i = 0; i < iterations; i++)
			atomic_fetch_add(&line, 1);
	}
	a->ns = now_ns() - t0;
	return NULL;
}

static double run_pair(int cpu_a, int cpu_b, int mode)
{
	struct arg a = { .cpu = cpu_a, .parity = 0, .mode = mode };
	struct arg b = { .cpu = cpu_b, .parity = 1, .mode = mode };
	pthread_t ta, tb;

	atomic_store(&line, 0);
	atomic_store(&go, 0);
	if (pthread_create(&ta, NULL, worker, &a) || pthread_create(&tb, NULL, worker, &b)) {
		fprintf(stderr, "bench_cacheline: cannot create threads\n");
		exit(1);
	}
	atomic_store(&go, 1);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	if (mode == 0)   /* 2 x iterations adds, each after a transfer */
		return (a.ns > b.ns ? a.ns : b.ns) / (2.0 * iterations);
	return (a.ns + b.ns) / (2.0 * iterations);
}

int main(int argc, char **argv)
{
	int cpu_a = 0, cpu_b = 1;
	double t0, own, pp, hammer;

	if (argc >= 3) {
		cpu_a = atoi(argv[1]);
		cpu_b = atoi(argv[2]);
	}
	if (argc >= 4)
		iterations = strtoul(argv[3], NULL, 10);
	pin(cpu_a);
	t0 = now_ns();
	for (unsigned long i = 0; i < iterations; i++)
		atomic_fetch_add(&line, 1);
	own = (now_ns() - t0) / iterations;
	/*
	 * The minimum of several rounds: a spinning thread that loses its CPU
	 * to another task inflates a round by whole time slices, never deflates
	 * it.  On a busy machine even the minimum can be inflated: check that
	 * both CPUs are idle.
	 */
	pp = hammer = 1e30;
	for (int round = 0; round < 5; round++) {
		double a = run_pair(cpu_a, cpu_b, 0), b = run_pair(cpu_a, cpu_b, 1);

		pp = a < pp ? a : pp;
		hammer = b < hammer ? b : hammer;
	}
	printf("cacheline: CPUs %d,%d, %lu iterations\n", cpu_a, cpu_b, iterations);
	printf("  own      %7.1f ns per atomic add (line in this CPU's cache) -> tg_load_avg_access_own\n", own);
	printf("  pingpong %7.1f ns per transfer + add (the other CPU wrote last) -> tg_load_avg_write_local%s\n",
	       pp, " (or _remote if the CPUs are on different nodes)");
	printf("  hammer   %7.1f ns per add, both CPUs adding at once\n", hammer);
	printf("  ratio pingpong/own = %.1f\n", pp / own);
	return 0;
}
