// SPDX-License-Identifier: GPL-2.0
/*
 * Controlled workloads for measuring the capture kernel's wakeup preemption
 * (docs/model.md, "Wakeup preemption on the capture kernel").  Every thread
 * is pinned to one CPU (-c, default 1).  Run under capture, e.g.
 *   schedreplay capture -o pipe.dat -- wakeup_workloads pipe -n 20000 -r 0
 *
 *   pipe     two threads (pp-a, pp-b) ping-pong a byte over two pipes (sync
 *            wakeups): -n rounds, -r us of busy work per message
 *   eventfd  the same over two eventfds (ef-a, ef-b; non-sync wakeups)
 *   hogtick  a user-space hog and a ticker that sleeps -s us (nanosleep) and
 *            works -r us, for -t seconds
 *   twohogs  two hogs for -t seconds
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static int cpu = 1, rounds = 20000;
static double run_us, sleep_us = 1000, secs = 2;
static int pfd[2][2], efd[2];
static volatile int stop;

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* Busy work in user space. */
static void spin(double us)
{
	uint64_t end = now_ns() + (uint64_t)(us * 1000);

	while (now_ns() < end)
		;
}

static void pin(const char *name)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
	prctl(PR_SET_NAME, name);
}

static void xfer(int fd, void *buf, size_t len, int out)
{
	ssize_t r = out ? write(fd, buf, len) : read(fd, buf, len);

	if (r != (ssize_t)len) {
		perror(out ? "write" : "read");
		exit(1);
	}
}

static void *pipe_peer(void *arg)
{
	long me = (long)arg;
	char c = 0;

	pin(me ? "pp-b" : "pp-a");
	for (int i = 0; i < rounds; i++) {
		if (me == 0) {
			spin(run_us);
			xfer(pfd[0][1], &c, 1, 1);
			xfer(pfd[1][0], &c, 1, 0);
		} else {
			xfer(pfd[0][0], &c, 1, 0);
			spin(run_us);
			xfer(pfd[1][1], &c, 1, 1);
		}
	}
	return NULL;
}

static void *efd_peer(void *arg)
{
	long me = (long)arg;
	uint64_t v = 1;

	pin(me ? "ef-b" : "ef-a");
	for (int i = 0; i < rounds; i++) {
		if (me == 0) {
			spin(run_us);
			v = 1;
			xfer(efd[0], &v, sizeof(v), 1);
			xfer(efd[1], &v, sizeof(v), 0);
		} else {
			xfer(efd[0], &v, sizeof(v), 0);
			spin(run_us);
			v = 1;
			xfer(efd[1], &v, sizeof(v), 1);
		}
	}
	return NULL;
}

static void *hog(void *arg)
{
	(void)arg;
	pin("hog");
	while (!stop)
		;
	return NULL;
}

static void *hog_timed(void *arg)
{
	uint64_t end = now_ns() + (uint64_t)(secs * 1e9);

	(void)arg;
	pin("hog2");
	while (now_ns() < end)
		;
	stop = 1;
	return NULL;
}

static void *ticker(void *arg)
{
	struct timespec ts = { 0, (long)(sleep_us * 1000) };
	uint64_t end = now_ns() + (uint64_t)(secs * 1e9);

	(void)arg;
	pin("ticker");
	while (now_ns() < end) {
		nanosleep(&ts, NULL);
		spin(run_us);
	}
	stop = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*fn[2])(void *) = { NULL, NULL };
	const char *mode;
	pthread_t t[2];
	int o;

	if (argc < 2) {
		fprintf(stderr, "usage: %s pipe|eventfd|hogtick|twohogs [-c CPU] [-n ROUNDS] "
			"[-r WORK_US] [-s SLEEP_US] [-t SECONDS]\n", argv[0]);
		return 2;
	}
	mode = argv[1];
	while ((o = getopt(argc - 1, argv + 1, "c:n:r:s:t:")) != -1) {
		switch (o) {
		case 'c': cpu = atoi(optarg); break;
		case 'n': rounds = atoi(optarg); break;
		case 'r': run_us = atof(optarg); break;
		case 's': sleep_us = atof(optarg); break;
		case 't': secs = atof(optarg); break;
		default: return 2;
		}
	}
	if (!strcmp(mode, "pipe")) {
		if (pipe(pfd[0]) || pipe(pfd[1]))
			return perror("pipe"), 1;
		fn[0] = fn[1] = pipe_peer;
	} else if (!strcmp(mode, "eventfd")) {
		efd[0] = eventfd(0, 0);
		efd[1] = eventfd(0, 0);
		if (efd[0] < 0 || efd[1] < 0)
			return perror("eventfd"), 1;
		fn[0] = fn[1] = efd_peer;
	} else if (!strcmp(mode, "hogtick")) {
		fn[0] = hog;
		fn[1] = ticker;
	} else if (!strcmp(mode, "twohogs")) {
		fn[0] = hog;
		fn[1] = hog_timed;
	} else {
		fprintf(stderr, "%s: unknown workload '%s'\n", argv[0], mode);
		return 2;
	}
	for (long i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, fn[i], (void *)i))
			return perror("pthread_create"), 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
