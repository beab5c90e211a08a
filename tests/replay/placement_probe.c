// SPDX-License-Identifier: GPL-2.0
/*
 * Controlled workloads for measuring the capture kernel's wakeup and fork
 * placement (docs/model.md, "Placement on the capture kernel (measured)").
 * Run by tests/replay/placement-probe.sh, which traces them through a tracefs
 * instance and reads the decisions from the trace (placement_probe.py): the
 * chosen CPU is sched_wakeup's / sched_wakeup_new's target_cpu, and how long
 * the other CPU had been idle is read from its sched_switch events, so a task
 * of another user of the machine that runs in between only removes a sample.
 *
 * Every sample sets up one decision on a 2-CPU machine: the task to place last
 * ran on CPU 0 (or, for forks, CPU 0 last ran a helper), CPU 0 then idles for
 * about X us, and the waker (forker) runs on CPU 1.  Mainline's
 * select_task_rq_fair() places every such task on the idle CPU 0
 * (wake_affine_idle() returns an idle prev; select_idle_sibling() returns an
 * idle prev; sched_balance_find_dst_group() prefers the group with spare
 * capacity), so each sample placed on CPU 1 is a decision mainline cannot make.
 *
 *   placement_probe [-w US] MODE STYLE N X...
 *   MODE   f  the waker wakes the task with FUTEX_WAKE (not WF_SYNC)
 *          p  the waker writes a byte to a pipe the task reads (WF_SYNC)
 *          e  the task waits in waitpid() for a child on CPU 1 that exits
 *             (do_notify_parent(): WF_SYNC) - forkexec's xargs
 *          g  as f, but the waker runs on CPU 0 until the task blocked there
 *             and then moves itself to CPU 1 (sched_setaffinity(): CPU 0's
 *             migration stopper pushes it), so CPU 0's last task before
 *             idling is the stopper - as after forkexec's sched_exec()
 *          v  the task vforks a child that moves to CPU 1 and execs
 *             /bin/true there after the X us: the exec wakes the task
 *             (complete(), not WF_SYNC) - forkexec's xargs (posix_spawn)
 *          m  as v, but the child starts on CPU 0 (the task is pinned there
 *             through the vfork(); the child unpins it) and is pushed to CPU
 *             1 by CPU 0's stopper - forkexec's sched_exec() migration
 *          k  the task on CPU 1 forks a child that exits at once
 *   STYLE  b  the waker spins through the X us (CPU 1 busy throughout)
 *          s  the waker sleeps through them (nanosleep; CPU 1 idle too)
 *   N      samples per X; X in microseconds
 *   -w US  the task spins US microseconds each time it runs (default 0), to
 *          give it utilisation (forkexec's xargs runs ~100-400 us per wakeup)
 * The task to place is named pw<MODE><STYLE><X> (e.g. pwfb1000), so the
 * analysis groups by comm.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char mode, style;
static long nsamples, x_us, work_us;
static int pfd[2];

/* Shared between threads, and with a forked child in mode e (MAP_SHARED). */
struct shared {
	atomic_int ready;	/* the task is about to block (sample number) */
	atomic_int go;		/* the waker woke it (sample number) */
	atomic_int helper;	/* mode k: the helper on CPU 0 ran (sample number) */
	atomic_int blocked;	/* mode g: the task is in futex_wait() */
};
static struct shared *sh;

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void spin_us(long us)
{
	uint64_t end = now_ns() + (uint64_t)us * 1000;

	while (now_ns() < end)
		;
}

static void sleep_us(long us)
{
	struct timespec t = { us / 1000000, (us % 1000000) * 1000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &t, &t) == EINTR)
		;
}

static void wait_x(void)
{
	if (style == 'b')
		spin_us(x_us);
	else
		sleep_us(x_us);
}

static void futex_wait(atomic_int *a, int val)
{
	syscall(SYS_futex, a, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(atomic_int *a)
{
	syscall(SYS_futex, a, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Allowed CPUs: bit i = CPU i.  Setting {0} from CPU 1 migrates the caller
 * before the call returns (affine_move_task() waits for the stopper). */
static void pin(unsigned mask)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	for (int c = 0; c < 2; c++)
		if (mask & (1u << c))
			CPU_SET(c, &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		die("sched_setaffinity");
}

static void set_comm(const char *prefix)
{
	char name[48];          /* PR_SET_NAME keeps the first 15 bytes */

	snprintf(name, sizeof(name), "%s%c%c%ld", prefix, mode, style, x_us);
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

/* Modes f and p: the waker, pinned to CPU 1. */
static void *waker(void *arg)
{
	(void)arg;
	pin(2);
	set_comm("pr");
	for (int i = 1; i <= nsamples; i++) {
		int r;

		if (mode == 'g')
			pin(1);
		while ((r = atomic_load(&sh->ready)) < i)
			if (style == 's' || mode == 'g')
				futex_wait(&sh->ready, r);
		if (mode == 'g') {
			/* until the task blocked: it does next */
			while (!atomic_load(&sh->blocked))
				;
			pin(2);
		}
		wait_x();
		if (mode == 'p') {
			if (write(pfd[1], "x", 1) != 1)
				die("write");
		} else {
			atomic_store(&sh->go, i);
			futex_wake(&sh->go);
		}
	}
	return NULL;
}

/* Modes f and p: the task to place; blocks on CPU 0 each round. */
static void run_wake(void)
{
	pthread_t t;

	atomic_store(&sh->ready, 0);
	atomic_store(&sh->go, 0);
	if (mode == 'p' && pipe(pfd))
		die("pipe");
	if (pthread_create(&t, NULL, waker, NULL))
		die("pthread_create");
	set_comm("pw");
	for (int i = 1; i <= nsamples; i++) {
		char c;

		spin_us(work_us);
		pin(1);
		pin(3);
		atomic_store(&sh->blocked, 0);
		atomic_store(&sh->ready, i);
		if (style == 's' || mode == 'g')
			futex_wake(&sh->ready);
		if (mode == 'p') {
			if (read(pfd[0], &c, 1) != 1)
				die("read");
		} else {
			int g;

			while ((g = atomic_load(&sh->go)) < i) {
				atomic_store(&sh->blocked, 1);
				futex_wait(&sh->go, g);
			}
		}
	}
	pthread_join(t, NULL);
	if (mode == 'p') {
		close(pfd[0]);
		close(pfd[1]);
	}
}

/* Mode e: the task waits on CPU 0 for a child on CPU 1 that exits. */
static void run_exit(void)
{
	set_comm("pw");
	for (int i = 1; i <= nsamples; i++) {
		pid_t pid;

		spin_us(work_us);
		atomic_store(&sh->ready, 0);
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			pin(2);
			set_comm("pc");
			while (!atomic_load(&sh->ready))
				;
			wait_x();
			_exit(0);
		}
		pin(1);
		pin(3);
		atomic_store(&sh->ready, 1);
		if (waitpid(pid, NULL, 0) != pid)
			die("waitpid");
	}
}

/* Mode v: the task waits on CPU 0 in vfork() for a child on CPU 1 that
 * execs.  The child writes nothing but its own stack frame and locals of
 * this function, as vfork() allows in practice on Linux. */
static void run_vfork(void)
{
	set_comm("pw");
	for (int i = 1; i <= nsamples; i++) {
		pid_t pid;

		spin_us(work_us);
		pin(1);
		if (mode == 'v')
			pin(3);
		pid = vfork();
		if (pid < 0)
			die("vfork");
		if (pid == 0) {
			cpu_set_t s;

			CPU_ZERO(&s);
			CPU_SET(0, &s);
			CPU_SET(1, &s);
			if (mode == 'm')
				sched_setaffinity(getppid(), sizeof(s), &s);
			CPU_CLR(0, &s);
			sched_setaffinity(0, sizeof(s), &s);
			prctl(PR_SET_NAME, "pcv", 0, 0, 0);
			wait_x();
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, NULL, 0) != pid)
			die("waitpid");
	}
}

/* Mode k: a helper pinned to CPU 0 runs briefly, then the task on CPU 1
 * forks X us later. */
static void *helper(void *arg)
{
	(void)arg;
	pin(1);
	set_comm("ph");
	for (int i = 1; i <= nsamples; i++) {
		int g;

		while ((g = atomic_load(&sh->go)) < i)
			futex_wait(&sh->go, g);
		spin_us(20);
		atomic_store(&sh->helper, i);
	}
	return NULL;
}

static void run_fork(void)
{
	pthread_t t;

	atomic_store(&sh->go, 0);
	atomic_store(&sh->helper, 0);
	if (pthread_create(&t, NULL, helper, NULL))
		die("pthread_create");
	set_comm("pw");
	for (int i = 1; i <= nsamples; i++) {
		pid_t pid;

		pin(2);
		pin(3);
		atomic_store(&sh->go, i);
		futex_wake(&sh->go);
		while (atomic_load(&sh->helper) < i)
			;
		wait_x();
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, NULL, 0) != pid)
			die("waitpid");
	}
	pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "-w")) {
		work_us = strtol(argv[2], NULL, 10);
		argv += 2;
		argc -= 2;
	}
	if (argc < 5 || !strchr("fpgevmk", argv[1][0]) || !strchr("bs", argv[2][0])) {
		fprintf(stderr, "usage: placement_probe [-w US] f|p|g|e|v|m|k b|s N X_us...\n");
		return 2;
	}
	mode = argv[1][0];
	style = argv[2][0];
	nsamples = strtol(argv[3], NULL, 10);
	if (nsamples <= 0 || work_us < 0) {
		fprintf(stderr, "placement_probe: N must be > 0 and -w >= 0\n");
		return 2;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap");
	for (int a = 4; a < argc; a++) {
		char *end;

		x_us = strtol(argv[a], &end, 10);
		if (*end || x_us < 0) {
			fprintf(stderr, "placement_probe: bad idle time '%s' (us)\n", argv[a]);
			return 2;
		}
		if (mode == 'e')
			run_exit();
		else if (mode == 'v' || mode == 'm')
			run_vfork();
		else if (mode == 'k')
			run_fork();
		else
			run_wake();
	}
	return 0;
}
