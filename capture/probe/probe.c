// SPDX-License-Identifier: GPL-2.0
/*
 * schedreplay-probe: a latency-sensitive request/response workload that
 * measures its own wakeup latency, in the manner of schbench.
 *
 * Each message thread runs rounds: sleep the think interval, then wake each
 * of its worker threads with a futex, noting the time just before each wake
 * call. A woken worker notes the time as soon as it runs again; the difference
 * is its wakeup latency (the wake call, the scheduler's choice, the context
 * switch: what sched_waking -> sched_switch shows in a trace, plus the
 * syscall). The worker then does a fixed amount of computation (calibrated at
 * start, so it is CPU work, not wall time) and reports done; the round ends
 * when every worker has. Latencies go into per-thread log-linear histograms
 * (as fio and schbench keep them: fixed memory, mergeable, relative error
 * below 1/256) and are reported as percentiles in microseconds.
 *
 * SIGINT/SIGTERM end the run early and still print the results, so a capture
 * that stops its workloads at the end of --duration still gets them.
 *
 * Thread names (comm): "probe-msg" for message threads, "probe-worker" for
 * workers; only the workers' wakeups are the measured latency.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Histogram of nanosecond values: exact below 2^SUB_BITS, then each power of
 * two is split into 2^SUB_BITS linear buckets (relative width 2^-SUB_BITS). */
#define SUB_BITS 8
#define SUB (1u << SUB_BITS)
#define MAX_BITS 44                          /* ~4.9 hours in ns */
#define NR_BUCKETS (SUB + (MAX_BITS - SUB_BITS) * SUB)

struct hist {
	uint64_t b[NR_BUCKETS];
	uint64_t n, max;
	double sum;
};

static unsigned bucket_of(uint64_t v)
{
	unsigned msb;

	if (v < SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb >= MAX_BITS)
		return NR_BUCKETS - 1;
	return SUB + (msb - SUB_BITS) * SUB + (unsigned)((v >> (msb - SUB_BITS)) & (SUB - 1));
}

/* Middle of bucket @i in ns. */
static double bucket_value(unsigned i)
{
	unsigned msb, sub;

	if (i < SUB)
		return i;
	msb = (i - SUB) / SUB + SUB_BITS;
	sub = (i - SUB) % SUB;
	return ((double)(SUB + sub) + 0.5) * (double)(1ull << (msb - SUB_BITS));
}

static void hist_add(struct hist *h, uint64_t v)
{
	h->b[bucket_of(v)]++;
	h->n++;
	h->sum += (double)v;
	if (v > h->max)
		h->max = v;
}

static void hist_merge(struct hist *into, const struct hist *h)
{
	for (unsigned i = 0; i < NR_BUCKETS; i++)
		into->b[i] += h->b[i];
	into->n += h->n;
	into->sum += h->sum;
	if (h->max > into->max)
		into->max = h->max;
}

/* Smallest value v such that at least q of the samples are <= v (nearest rank). */
static double hist_pct(const struct hist *h, double q)
{
	uint64_t rank, seen = 0;

	if (!h->n)
		return 0;
	rank = (uint64_t)ceil(q * (double)h->n);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < NR_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			double v = bucket_value(i);

			return v > (double)h->max ? (double)h->max : v;
		}
	}
	return (double)h->max;
}

struct worker {
	struct msg *m;
	pthread_t thread;
	_Atomic uint32_t go;         /* futex: 0 wait, 1 run, 2 exit */
	_Atomic uint64_t wake_ns;    /* time of the wake call */
	struct hist hist;
};

struct msg {
	pthread_t thread;
	struct worker *workers;
	int nr_workers;
	_Atomic uint32_t pending;    /* futex: workers still in the round */
	uint64_t rounds;
};

static struct {
	int msgs, workers;
	double runtime_s, interval_us, work_us;
	bool json;
	const char *output;
} cfg = { 1, 2, 5.0, 2000, 100, false, NULL };

static atomic_bool stop;
static double iters_per_us;
static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static long futex(_Atomic uint32_t *addr, int op, uint32_t val)
{
	return syscall(SYS_futex, (uint32_t *)addr, op, val, NULL, NULL, 0);
}

/* A fixed amount of integer work (xorshift mixing), not a wall-clock spin,
 * so being preempted makes the request slower rather than shorter. */
static void work(uint64_t iters)
{
	uint64_t x = 88172645463325252ull;

	for (uint64_t i = 0; i < iters; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	sink = x;
}

/* The calling thread's own CPU time: what it ran, not what it waited. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Iterations of work() per microsecond of this thread's CPU time.  Timed on
 * the thread's CPU clock, not the wall clock: a probe started beside CPU
 * hogs (at nice 10, say) is preempted during the 20 ms run, and a wall-clock
 * calibration then took the others' time for its own - one capture's
 * workers computed 6 us per request for `-w 300` (traces/README.md, "Nice
 * captures").
 */
static void calibrate(void)
{
	uint64_t iters = 1 << 16, t0, dt;

	for (;;) {
		t0 = cpu_ns();
		work(iters);
		dt = cpu_ns() - t0;
		if (dt > 20 * 1000 * 1000 || iters > (1ull << 40))
			break;
		iters *= 2;
	}
	iters_per_us = (double)iters / ((double)dt / 1000.0);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t iters = (uint64_t)(cfg.work_us * iters_per_us);

	/* distinct comms, so a trace's latency of the workers can be selected */
	pthread_setname_np(pthread_self(), "probe-worker");

	for (;;) {
		uint32_t g;

		while ((g = atomic_load(&w->go)) == 0)
			futex(&w->go, FUTEX_WAIT_PRIVATE, 0);
		if (g == 2)
			break;
		hist_add(&w->hist, now_ns() - atomic_load(&w->wake_ns));
		work(iters);
		atomic_store(&w->go, 0);
		if (atomic_fetch_sub(&w->m->pending, 1) == 1)
			futex(&w->m->pending, FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

static void *msg_main(void *arg)
{
	struct msg *m = arg;
	struct timespec think = {
		.tv_sec = (time_t)(cfg.interval_us / 1e6),
		.tv_nsec = (long)fmod(cfg.interval_us * 1000.0, 1e9),
	};
	uint64_t end = now_ns() + (uint64_t)(cfg.runtime_s * 1e9);

	pthread_setname_np(pthread_self(), "probe-msg");

	while (!atomic_load(&stop) && now_ns() < end) {
		uint32_t p;

		if (cfg.interval_us > 0)
			nanosleep(&think, NULL);
		atomic_store(&m->pending, (uint32_t)m->nr_workers);
		for (int i = 0; i < m->nr_workers; i++) {
			struct worker *w = &m->workers[i];

			atomic_store(&w->wake_ns, now_ns());
			atomic_store(&w->go, 1);
			futex(&w->go, FUTEX_WAKE_PRIVATE, 1);
		}
		while ((p = atomic_load(&m->pending)) != 0)
			futex(&m->pending, FUTEX_WAIT_PRIVATE, p);
		m->rounds++;
	}
	for (int i = 0; i < m->nr_workers; i++) {
		atomic_store(&m->workers[i].go, 2);
		futex(&m->workers[i].go, FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop, true);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: schedreplay-probe [-m MSG_THREADS] [-t WORKERS] [-r SECONDS] [-i INTERVAL_US]\n"
"                         [-w WORK_US] [--json] [-o FILE]\n"
"\n"
"A request/response workload measuring its own wakeup latency (schbench-like).\n"
"Each message thread sleeps INTERVAL_US, wakes its WORKERS (futex), and waits\n"
"until each has done WORK_US of calibrated computation. Wakeup latency = time\n"
"from the wake call to the worker running. Prints percentiles in microseconds.\n"
"\n"
"  -m, --message-threads N  (default 1)\n"
"  -t, --workers N          workers per message thread (default 2)\n"
"  -r, --runtime SEC        (default 5; SIGINT/SIGTERM end it early)\n"
"  -i, --interval US        think time between rounds (default 2000)\n"
"  -w, --work US            computation per request (default 100)\n"
"      --json               JSON instead of text\n"
"  -o, --output FILE        write the results to FILE instead of stdout\n");
}

static int parse_num(const char *s, double min, double max, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return end != s && !*end && !errno && *out >= min && *out <= max ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "message-threads", required_argument, NULL, 'm' },
		{ "workers", required_argument, NULL, 't' },
		{ "runtime", required_argument, NULL, 'r' },
		{ "interval", required_argument, NULL, 'i' },
		{ "work", required_argument, NULL, 'w' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const double qs[] = { 0.50, 0.75, 0.90, 0.95, 0.99, 0.999 };
	static const char *const qn[] = { "p50", "p75", "p90", "p95", "p99", "p99.9" };
	struct sigaction sa = { .sa_handler = on_signal };
	struct hist *all;
	struct msg *msgs;
	uint64_t t0, rounds = 0;
	double v, elapsed;
	FILE *out = stdout;
	int c;

	while ((c = getopt_long(argc, argv, "m:t:r:i:w:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
		case 't':
			if (parse_num(optarg, 1, 1024, &v) < 0 || v != floor(v)) {
				fprintf(stderr, "schedreplay-probe: -%c: expected 1..1024\n", c);
				return 2;
			}
			*(c == 'm' ? &cfg.msgs : &cfg.workers) = (int)v;
			break;
		case 'r':
			if (parse_num(optarg, 0.001, 86400, &cfg.runtime_s) < 0) {
				fprintf(stderr, "schedreplay-probe: -r: expected seconds > 0\n");
				return 2;
			}
			break;
		case 'i':
		case 'w':
			if (parse_num(optarg, 0, 1e7, c == 'i' ? &cfg.interval_us : &cfg.work_us) < 0) {
				fprintf(stderr, "schedreplay-probe: -%c: expected 0..1e7 us\n", c);
				return 2;
			}
			break;
		case 'j':
			cfg.json = true;
			break;
		case 'o':
			cfg.output = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "schedreplay-probe: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (cfg.output) {
		out = fopen(cfg.output, "w");
		if (!out) {
			fprintf(stderr, "schedreplay-probe: %s: %s\n", cfg.output, strerror(errno));
			return 1;
		}
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	calibrate();

	msgs = calloc((size_t)cfg.msgs, sizeof(*msgs));
	all = calloc(1, sizeof(*all));
	if (!msgs || !all) {
		fprintf(stderr, "schedreplay-probe: out of memory\n");
		return 1;
	}
	t0 = now_ns();
	for (int i = 0; i < cfg.msgs; i++) {
		struct msg *m = &msgs[i];

		m->nr_workers = cfg.workers;
		m->workers = calloc((size_t)cfg.workers, sizeof(*m->workers));
		if (!m->workers) {
			fprintf(stderr, "schedreplay-probe: out of memory\n");
			return 1;
		}
		for (int k = 0; k < cfg.workers; k++) {
			m->workers[k].m = m;
			if (pthread_create(&m->workers[k].thread, NULL, worker_main, &m->workers[k])) {
				fprintf(stderr, "schedreplay-probe: cannot create threads\n");
				return 1;
			}
		}
		if (pthread_create(&m->thread, NULL, msg_main, m)) {
			fprintf(stderr, "schedreplay-probe: cannot create threads\n");
			return 1;
		}
	}
	for (int i = 0; i < cfg.msgs; i++) {
		pthread_join(msgs[i].thread, NULL);
		for (int k = 0; k < cfg.workers; k++) {
			pthread_join(msgs[i].workers[k].thread, NULL);
			hist_merge(all, &msgs[i].workers[k].hist);
		}
		rounds += msgs[i].rounds;
		free(msgs[i].workers);
	}
	elapsed = (double)(now_ns() - t0) * 1e-9;

	if (cfg.json) {
		fprintf(out, "{\"tool\": \"schedreplay-probe\", \"message_threads\": %d, "
			"\"workers\": %d, \"interval_us\": %g, \"work_us\": %g, "
			"\"runtime_s\": %.6f, \"rounds\": %llu, \"samples\": %llu, "
			"\"requests_per_s\": %.1f, \"wakeup_latency_us\": {",
			cfg.msgs, cfg.workers, cfg.interval_us, cfg.work_us, elapsed,
			(unsigned long long)rounds, (unsigned long long)all->n,
			elapsed > 0 ? (double)all->n / elapsed : 0.0);
		for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
			fprintf(out, "\"%s\": %.3f, ", qn[i], hist_pct(all, qs[i]) / 1000.0);
		fprintf(out, "\"max\": %.3f, \"mean\": %.3f}}\n", (double)all->max / 1000.0,
			all->n ? all->sum / (double)all->n / 1000.0 : 0.0);
	} else {
		fprintf(out, "schedreplay-probe: %d message thread(s) x %d worker(s), %.3f s, "
			"%llu requests (%.1f/s)\nwakeup latency (us):",
			cfg.msgs, cfg.workers, elapsed, (unsigned long long)all->n,
			elapsed > 0 ? (double)all->n / elapsed : 0.0);
		for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
			fprintf(out, " %s %.1f", qn[i], hist_pct(all, qs[i]) / 1000.0);
		fprintf(out, " max %.1f\n", (double)all->max / 1000.0);
	}
	if (out != stdout)
		fclose(out);
	free(msgs);
	free(all);
	return 0;
}
