// SPDX-License-Identifier: GPL-2.0
/*
 * Speed and memory of `schedreplay report` against the tools it replaces.
 *
 *   bench_report SCHEDREPLAY TRACE...
 *
 * For each trace, best of RUNS runs (wall clock), or RUNS_SHORT runs when
 * trace-cmd reads the trace in under SHORT_S seconds (a 1 s trace: the
 * report takes ~5 ms there, and 5 runs on a loaded 2-CPU machine left the
 * ratio to trace-cmd anywhere between 8x and 12x); each kind in turn so that
 * load from other processes hits all of them alike:
 *   report      `schedreplay report TRACE > /dev/null` as a process: the number
 *               the goals refer to (>= 20x trace-cmd report, >= 3.5 M events/s)
 *   report/tc   the same with `--reader libtracecmd`
 *   reader      the reader alone in-process (trace_open + trace_next loop),
 *               native backend
 *   reader/tc   the same with the libtracecmd backend (validation pass,
 *               tracecmd_open, tracecmd_read_data, same decoder)
 *   bare loop   libtracecmd: tracecmd_open + tracecmd_iterate_events reading
 *               one field (next_pid of sched_switch) per event
 *   trace-cmd   `trace-cmd report -i TRACE > /dev/null`
 * Added columns (the goals' ratios above are unchanged):
 *   cpu         the report process's user + system CPU time (best run), and
 *   x tc cpu    trace-cmd's CPU time over it: less sensitive to other
 *               processes' load than wall clock, and blind to idle waits
 *   bare/p      the bare loop as a process (this program re-executed with
 *               `bare TRACE BUFFER`): exec and dynamic linking included, as
 *               they are in `report` and `trace-cmd`; x bare/p its ratio
 * and the peak RSS of the report process (getrusage of the child), which must
 * not grow with the trace's length: it is O(tasks + CPUs), so the number of
 * tasks in the trace is printed next to it.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include <schedreplay/trace.h>

#include "report_local.h"

#define RUNS 5
#define RUNS_SHORT 30
#define SHORT_S 0.2

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s;               /* user + system seconds of the last run() */

/*
 * The timed processes start with posix_spawn() (a vfork-style clone), as a
 * shell's small fork would start them. fork() and exec from this program
 * (BENCH_FORK=1, the method before 30 Nov 2026) time more than the tools:
 * by then it has loaded libtracecmd and read every trace in process, and
 * fork() copies its page tables and exec tears them down inside the timed
 * interval - on this VM ~0.6 ms added to every run of either tool (a 3 ms
 * report read as 3.6-3.7 ms, trace-cmd's 79 ms as 80), which biases the
 * ratio against the faster tool.
 */
static bool use_spawn;
extern char **environ;

/* Run argv with stdout and stderr to /dev/null; wall seconds, peak RSS in KiB. */
static double run(char *const argv[], long *maxrss_kb)
{
	struct rusage ru;
	double t0;
	int status;
	pid_t pid;

	fflush(stdout);
	if (use_spawn) {
		posix_spawn_file_actions_t fa;
		int err;

		if (posix_spawn_file_actions_init(&fa))
			return -1;
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
		t0 = now();
		err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
		if (err)
			return -1;
	} else {
		t0 = now();
		pid = fork();
		if (pid == 0) {
			if (!freopen("/dev/null", "w", stdout) ||
			    !freopen("/dev/null", "w", stderr))
				_exit(127);
			execvp(argv[0], argv);
			_exit(127);
		}
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return -1;
	if (maxrss_kb)
		*maxrss_kb = ru.ru_maxrss;
	cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		(double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return -1;
	return now() - t0;
}

static uint64_t reader_events;
static long base_rss, peak_rss[64];

static double reader_only(const char *path, enum trace_backend be)
{
	struct sr_error err;
	struct trace_event ev;
	double t0 = now();
	struct trace_reader *r = trace_open(path, &(struct trace_open_opts){ .backend = be },
					    &err);
	uint64_t n = 0;

	if (!r) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	while (trace_next(r, &ev, &err) == 1)
		n++;
	trace_close(r);
	reader_events = n;
	return now() - t0;
}

struct bare {
	struct tep_format_field *field;
	int id;
	uint64_t n, sum;
};

static int bare_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct bare *b = data;
	unsigned long long v;

	(void)cpu;
	b->n++;
	if (tep_data_type(tracecmd_get_tep(h), rec) == b->id &&
	    !tep_read_number_field(b->field, rec->data, &v))
		b->sum += v;
	return 0;
}

static double bare_loop(const char *path, const char *buffer)
{
	double t0 = now();
	struct tracecmd_input *top = tracecmd_open(path, 0), *h = top;
	struct tep_event *ev;
	struct bare b = { 0 };

	if (!top)
		return -1;
	if (buffer[0]) {
		for (int i = 0; i < tracecmd_buffer_instances(top); i++)
			if (!strcmp(tracecmd_buffer_instance_name(top, i), buffer))
				h = tracecmd_buffer_instance_handle(top, i);
	}
	ev = tep_find_event_by_name(tracecmd_get_tep(h), "sched", "sched_switch");
	if (!ev || !(b.field = tep_find_field(ev, "next_pid"))) {
		tracecmd_close(top);
		return -1;
	}
	b.id = ev->id;
	tracecmd_iterate_events(h, NULL, 0, bare_cb, &b);
	if (h != top)
		tracecmd_close(h);
	tracecmd_close(top);
	return now() - t0;
}

static double best(double a, double b)
{
	return a < 0 ? b : (b < 0 || a < b) ? a : b;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "bare")) {
		/* the bare loop as a process of its own (column bare/p) */
		tracecmd_set_loglevel(TEP_LOG_NONE);
		return bare_loop(argv[2], argv[3]) < 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: bench_report SCHEDREPLAY TRACE...\n"
			"       bench_report bare TRACE BUFFER\n");
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	use_spawn = !(getenv("BENCH_FORK") && !strcmp(getenv("BENCH_FORK"), "1"));
	printf("timed processes started with %s\n",
	       use_spawn ? "posix_spawn() (BENCH_FORK=1: fork() and exec)" : "fork() and exec (BENCH_FORK=1)");
	/*
	 * Peak RSS first, while this process is still small: a forked child's
	 * ru_maxrss includes what it inherited before exec. The baseline is the
	 * same binary printing its version.
	 */
	{
		char *ver[] = { argv[1], "--version", NULL };

		run(ver, &base_rss);
		for (int i = 2; i < argc && i - 2 < 64; i++) {
			char *rep[] = { argv[1], "report", "--allow-lost", argv[i], NULL };

			run(rep, &peak_rss[i - 2]);
		}
	}
	printf("peak RSS of `schedreplay --version`: %ld KiB\n", base_rss);
	printf("%-26s %9s %6s | %8s %8s %8s %8s %8s %9s | %6s %6s %6s | %8s %5s | %7s %8s %8s "
	       "%8s\n", "trace", "events", "MB", "report", "rep/tc", "reader", "rdr/tc", "bare",
	       "trace-cmd", "x tc", "x bare", "tc/nat", "RSS KiB", "tasks", "cpu", "x tc cpu",
	       "bare/p", "x bare/p");
	for (int i = 2; i < argc; i++) {
		const char *path = argv[i];
		char *rep[] = { argv[1], "report", "--allow-lost", (char *)path, NULL };
		char *rep_tc[] = { argv[1], "report", "--allow-lost", "--reader", "libtracecmd",
				   (char *)path, NULL };
		char *tc[] = { "trace-cmd", "report", "-i", (char *)path, NULL };
		double t_rep = -1, t_rep_tc = -1, t_rd = -1, t_rd_tc = -1, t_bare = -1, t_tc = -1;
		double c_rep = -1, c_tc = -1, t_bare_p = -1;
		int runs = RUNS;
		long rss = 0, r;
		struct sr_error err;
		struct trace_reader *tr = trace_open(path, NULL, &err);
		char buffer[256];
		char *bare_p[] = { argv[0], "bare", (char *)path, NULL, NULL };
		FILE *f = fopen(path, "rb");
		double mb = 0, ev;
		size_t tasks;
		const char *base = strrchr(path, '/');

		if (!tr) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
		snprintf(buffer, sizeof(buffer), "%s", trace_get_info(tr)->buffer);
		bare_p[3] = buffer;
		trace_close(tr);
		if (f) {
			fseek(f, 0, SEEK_END);
			mb = (double)ftell(f) / 1e6;
			fclose(f);
		}
		rss = i - 2 < 64 ? peak_rss[i - 2] : 0;
		for (int k = 0; k < runs; k++) {
			t_rep = best(t_rep, run(rep, &r));
			c_rep = best(c_rep, cpu_s);
			t_rep_tc = best(t_rep_tc, run(rep_tc, NULL));
			t_rd_tc = best(t_rd_tc, reader_only(path, TRACE_BACKEND_LIBTRACECMD));
			t_rd = best(t_rd, reader_only(path, TRACE_BACKEND_NATIVE));
			t_bare = best(t_bare, bare_loop(path, buffer));
			t_bare_p = best(t_bare_p, run(bare_p, NULL));
			/* the ratio's denominator: as many runs as the numerator */
			t_tc = best(t_tc, run(tc, NULL));
			c_tc = best(c_tc, cpu_s);
			/* a short trace: more runs against the noise of a few ms */
			if (k == 0 && t_tc > 0 && t_tc < SHORT_S)
				runs = RUNS_SHORT;
		}
		{
			struct report_opts o;
			struct report_data d;

			report_opts_default(&o);
			o.path = path;
			report_collect(&o, &d, &err);
			tasks = d.lat ? lat_nr_tasks(d.lat) : 0;
			report_data_release(&d);
		}
		ev = (double)reader_events;
		printf("%-26s %9" PRIu64 " %6.1f | %7.4fs %7.4fs %7.4fs %7.4fs %7.4fs %8.4fs | %5.1fx "
		       "%5.2fx %5.2fx | %8ld %5zu | %6.1fms %7.1fx %7.4fs %7.2fx\n",
		       base ? base + 1 : path, reader_events, mb, t_rep, t_rep_tc, t_rd, t_rd_tc,
		       t_bare, t_tc, t_tc / t_rep, t_bare / t_rep, t_rep_tc / t_rep, rss, tasks,
		       c_rep * 1e3, c_tc / c_rep, t_bare_p, t_bare_p / t_rep);
		printf("%-26s %9s %6s | %7.2fM %7.2fM %7.2fM %7.2fM %7.2fM %8.2fM   events/s\n", "",
		       "", "", ev / t_rep / 1e6, ev / t_rep_tc / 1e6, ev / t_rd / 1e6,
		       ev / t_rd_tc / 1e6, ev / t_bare / 1e6, ev / t_tc / 1e6);
	}
	printf("x tc: trace-cmd report time / report time; x bare: bare libtracecmd loop / report;\n"
	       "tc/nat: report --reader libtracecmd / report (native); cpu: report's user+sys;\n"
	       "x tc cpu: trace-cmd's user+sys / report's; bare/p: the bare loop as a process\n");
	return 0;
}
