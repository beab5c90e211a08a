// SPDX-License-Identifier: GPL-2.0
/*
 * pi_boost: a workload whose fair tasks boost each other by priority
 * inheritance, for the captures that check sched_pi_setprio (traces/
 * small-pi.dat, tests/capture/live.sh pi).
 *
 *   pi_boost [--rt-waiter] [SECONDS]      (default 1)
 *
 * Two threads share one PTHREAD_PRIO_INHERIT mutex (a PI futex: the kernel's
 * rt_mutex). "pi-holder" runs 10 nice levels below the one pi_boost was
 * started at, at most 19 (setpriority() on its own tid, a set_user_nice()),
 * and holds the mutex for 4 ms every 8 ms; "pi-waiter", at the starting
 * nice, wants it every ~1 ms for ~50 us.  Started at nice 0 (traces/
 * small-pi.dat) that is nice 10 against 0; under `nice ctest` 19 against 10:
 * with both at one nice no boost would ever be made.  On one CPU (taskset) the waiter
 * preempts the holder once its slice protection is over, blocks on the
 * mutex, and rt_mutex_setprio() boosts the holder from prio 130 to 120 until
 * it unlocks: the holder's switches in that window show prio 120 at its
 * nice-10 weight.  The spins read CLOCK_MONOTONIC (the vDSO): a thread CPU
 * clock read would charge the task (update_curr()) and write a
 * sched_stat_runtime every few microseconds.  With --rt-waiter the waiter
 * runs SCHED_FIFO at priority 1 (needs CAP_SYS_NICE): each boost makes the
 * holder an RT task at prio 98 until its unlock (rt_mutex_setprio() ->
 * __setscheduler_class(): the RT class for the boost, switched_to_fair() at
 * the deboost), the RT-over-fair boost no capture of traces/ has (docs/
 * replay.md, "Class changes").  Exits 0, or 1 with a
 * one-line reason.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock;
static atomic_bool stop;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* spin for @ns of wall time (preempted or not) */
static void spin(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static void nap(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

static int holder_nice;

static void *holder(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "pi-holder");
	if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), holder_nice)) {
		fprintf(stderr, "pi_boost: setpriority(%d): %s\n", holder_nice, strerror(errno));
		exit(1);
	}
	while (!atomic_load(&stop)) {
		pthread_mutex_lock(&lock);
		spin(4000000);
		pthread_mutex_unlock(&lock);
		nap(4000000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	bool rt_waiter = argc > 1 && !strcmp(argv[1], "--rt-waiter");
	const char *arg = argc > 1 + rt_waiter ? argv[1 + rt_waiter] : NULL;
	double secs = arg ? atof(arg) : 1.0;
	pthread_mutexattr_t a;
	pthread_t h;
	struct timespec t0, t;
	int err, nice0;

	if (argc > 2 + rt_waiter || (arg && arg[0] == '-')) {
		fprintf(stderr, "pi_boost: usage: pi_boost [--rt-waiter] [SECONDS], not '%s'\n",
			argv[argc - 1]);
		return 1;
	}
	if (!(secs > 0 && secs <= 3600)) {
		fprintf(stderr, "pi_boost: SECONDS must be in (0, 3600], got '%s'\n", arg);
		return 1;
	}
	errno = 0;
	nice0 = getpriority(PRIO_PROCESS, 0);   /* -1 is a nice level too: errno tells */
	if (errno) {
		fprintf(stderr, "pi_boost: getpriority: %s\n", strerror(errno));
		return 1;
	}
	holder_nice = nice0 + 10 < 19 ? nice0 + 10 : 19;
	if (holder_nice == nice0) {
		fprintf(stderr, "pi_boost: started at nice %d: no lower nice level is left for "
			"the holder, so no boost; start it at nice 18 or below\n", nice0);
		return 1;
	}
	if ((err = pthread_mutexattr_init(&a)) ||
	    (err = pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT)) ||
	    (err = pthread_mutex_init(&lock, &a))) {
		fprintf(stderr, "pi_boost: a PTHREAD_PRIO_INHERIT mutex: %s\n", strerror(err));
		return 1;
	}
	if ((err = pthread_create(&h, NULL, holder, NULL))) {
		fprintf(stderr, "pi_boost: pthread_create: %s\n", strerror(err));
		return 1;
	}
	prctl(PR_SET_NAME, "pi-waiter");
	if (rt_waiter) {
		struct sched_param sp = { .sched_priority = 1 };

		if ((err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))) {
			fprintf(stderr, "pi_boost: --rt-waiter: SCHED_FIFO 1 for the waiter: %s "
				"(needs CAP_SYS_NICE: run as root)\n", strerror(err));
			atomic_store(&stop, true);
			pthread_join(h, NULL);
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		nap(1000000);
		pthread_mutex_lock(&lock);
		spin(50000);
		pthread_mutex_unlock(&lock);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < secs);
	atomic_store(&stop, true);
	pthread_join(h, NULL);
	return 0;
}
