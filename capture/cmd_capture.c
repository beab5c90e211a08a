// SPDX-License-Identifier: GPL-2.0
/* schedreplay capture: the command line of the capture stage (docs/capture.md). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/capture.h>
#include <schedreplay/cli.h>

static void usage(FILE *f)
{
	fprintf(f,
"usage: schedreplay capture -o OUT.dat [options] [-- CMD ARGS...]\n"
"\n"
"Record the scheduler events of a workload into OUT.dat (a standard trace.dat)\n"
"and the machine's metadata into OUT.dat.json. Needs root and tracefs.\n"
"Recording ends when CMD and every group's command have exited, when the\n"
"duration is over, or on SIGINT, SIGTERM or any signal that would otherwise\n"
"end it (SIGHUP, SIGUSR1, SIGALRM, ...): the files are still written.\n"
"\n"
"options:\n"
"  -o, --output FILE        the trace.dat to write (the sidecar is FILE.json)\n"
"  -d, --duration SEC       stop after SEC seconds (> 0, at most 86400; the\n"
"                           workloads are stopped)\n"
"  -b, --buffer-kb N        per-CPU ring buffer in KB (16..4194304, default\n"
"                           4096); the buffer is streamed to disk, so it only\n"
"                           needs to absorb bursts\n"
"  -g, --group NAME:shares=N=CMD\n"
"  -g, --group NAME:weight=N=CMD\n"
"  -g, --group NAME:quota=Q[/P]=CMD\n"
"  -g, --group NAME:shares=N,quota=Q[/P]=CMD\n"
"  -g, --group NAME=CMD     run CMD in cpu cgroup NAME with that cgroup-v1\n"
"                           cpu.shares (2..262144) or cgroup-v2 cpu.weight\n"
"                           (1..10000; converted if the host has the other\n"
"                           version: weight 100 = shares 1024), and with a CPU\n"
"                           bandwidth limit of Q us per period P us (v1\n"
"                           cpu.cfs_quota_us/cfs_period_us, v2 cpu.max; Q >= 1000\n"
"                           or -1/max for none, P 1000..1000000, default 100000;\n"
"                           needs CONFIG_CFS_BANDWIDTH). Keys are joined by ','.\n"
"                           CMD is split on blanks, or run with /bin/sh -c if it\n"
"                           has shell syntax. Repeatable.\n"
"  -e, --event SYSTEM:EVENT record this event too (repeatable)\n"
"      --syscalls           record the read/write system calls too\n"
"                           (sys_enter_read, sys_exit_read, sys_enter_write,\n"
"                           sys_exit_write: fd, bytes asked and done), which\n"
"                           replay's channel model reads (--channels,\n"
"                           docs/replay.md); every task's, so the trace grows by\n"
"                           ~4 records per read+write pair\n"
"      --sched-debug-every MS\n"
"                           read the kernel's run-queue state (debugfs\n"
"                           sched/debug: each group queue's PELT, tg->load_avg,\n"
"                           the group entity's weight) every MS ms (10..60000)\n"
"                           as well as at the start and end; each read costs\n"
"                           ~1 ms of CPU here, traced as the capture's\n"
"      --no-sched-debug     do not read it at all (by default it is read at the\n"
"                           start and end; debugfs is mounted for the capture\n"
"                           if it is not, and unmounted after)\n"
"      --no-affinity        do not record sched_setaffinity() calls (recorded by\n"
"                           default: syscalls:sys_{enter,exit}_sched_setaffinity,\n"
"                           two records per call, rare; replay infers each task's\n"
"                           allowed CPUs from them and the sidecar's\n"
"                           Cpus_allowed_list at the start and end)\n"
"      --strict             fail (exit 1) if any event was lost\n"
"      --clock NAME         trace clock (default local)\n"
"      --tracing-dir DIR    tracefs mount to use (default: the mounted one)\n"
"      --cleanup            only remove what killed captures left behind\n"
"  -q, --quiet              no progress lines\n"
"  -h, --help               this text\n"
"\n"
"Always recorded: sched_switch, sched_waking, sched_wakeup, sched_wakeup_new,\n"
"sched_process_fork, sched_process_exec, sched_process_exit, sched_migrate_task,\n"
"sched_stat_runtime, cgroup_attach_task, sched_pi_setprio, and (unless\n"
"--no-affinity) syscalls:sys_enter_sched_setaffinity, sys_exit_sched_setaffinity.\n");
}

/*
 * --syscalls: the system calls whose records give a pipe's or socket's fill
 * level (docs/replay.md, "Channels"): what a task asked to read or write
 * (fd, count) and what it did (ret).
 */
static const char *const syscall_events[] = {
	"syscalls:sys_enter_read", "syscalls:sys_exit_read",
	"syscalls:sys_enter_write", "syscalls:sys_exit_write",
};
#define NR_SYSCALL_EVENTS (sizeof(syscall_events) / sizeof(syscall_events[0]))

/* Append the --syscalls events not already given with -e. */
static void add_syscall_events(struct cap_options *opt)
{
	for (size_t i = 0; i < NR_SYSCALL_EVENTS; i++) {
		size_t j;

		for (j = 0; j < opt->nr_events; j++)
			if (!strcmp(opt->events[j], syscall_events[i]))
				break;
		if (j == opt->nr_events)
			opt->events[opt->nr_events++] = (char *)syscall_events[i];
	}
}

static void print_log(void *ctx, bool warning, const char *line)
{
	bool quiet = *(bool *)ctx;

	if (quiet && !warning)
		return;
	fprintf(stderr, "schedreplay capture: %s%s\n", warning ? "warning: " : "", cli_esc(line));
}

int cmd_capture(int argc, char **argv)
{
	enum { OPT_STRICT = 256, OPT_CLOCK, OPT_TRACING_DIR, OPT_CLEANUP, OPT_SYSCALLS,
	       OPT_NO_SCHED_DEBUG, OPT_SCHED_DEBUG_EVERY, OPT_NO_AFFINITY };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "group", required_argument, NULL, 'g' },
		{ "event", required_argument, NULL, 'e' },
		{ "syscalls", no_argument, NULL, OPT_SYSCALLS },
		{ "no-sched-debug", no_argument, NULL, OPT_NO_SCHED_DEBUG },
		{ "no-affinity", no_argument, NULL, OPT_NO_AFFINITY },
		{ "sched-debug-every", required_argument, NULL, OPT_SCHED_DEBUG_EVERY },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "tracing-dir", required_argument, NULL, OPT_TRACING_DIR },
		{ "cleanup", no_argument, NULL, OPT_CLEANUP },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cap_options opt = { .buffer_kb = 4096, .cmdline = argv, .cmdline_argc = argc };
	struct cap_group *groups = NULL;
	struct cap_result res;
	struct sr_error err = { 0 };
	sigset_t block;
	bool quiet = false, cleanup = false, syscalls = false, buffer_given = false;
	int c, ret = SR_EXIT_USAGE;
	size_t i;

	/* each -e takes an argument; --syscalls adds its events once */
	opt.events = calloc((size_t)argc + NR_SYSCALL_EVENTS + 1, sizeof(char *));
	groups = calloc((size_t)argc + 1, sizeof(*groups));
	if (!opt.events || !groups) {
		fprintf(stderr, "schedreplay capture: out of memory\n");
		free(opt.events);
		free(groups);
		return SR_EXIT_FAIL;
	}
	opt.groups = groups;
	opt.log = print_log;
	opt.log_ctx = &quiet;
	optind = 1;
	/* '+': stop at the first non-option, so CMD's own options stay its own */
	opterr = 0;     /* cli_getopt_error(): getopt's messages print the option raw */
	while ((c = getopt_long(argc, argv, "+:o:d:b:g:e:qh", longopts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'o':
			opt.output = optarg;
			break;
		case 'd':
			errno = 0;
			opt.duration_s = strtod(optarg, &end);
			if (end == optarg || *end || errno || isnan(opt.duration_s) ||
			    opt.duration_s <= 0 || opt.duration_s > 86400) {
				cli_usage("capture", "--duration takes seconds > 0 (and at most 86400), "
					  "not '%s'", cli_esc(optarg));
				goto out;
			}
			break;
		case 'b':
			buffer_given = true;
			errno = 0;
			opt.buffer_kb = strtoul(optarg, &end, 10);
			if (end == optarg || *end || errno || *optarg == '-' || opt.buffer_kb < 16 ||
			    opt.buffer_kb > (1UL << 22)) {
				cli_usage("capture", "--buffer-kb takes 16..4194304, not '%s'",
					  cli_esc(optarg));
				goto out;
			}
			break;
		case 'g':
			if (cap_group_parse(optarg, &groups[opt.nr_groups], &err) < 0) {
				cli_usage("capture", "%s", err.msg);
				goto out;
			}
			opt.nr_groups++;
			break;
		case 'e':
			opt.events[opt.nr_events++] = optarg;
			break;
		case OPT_SYSCALLS:
			syscalls = true;
			break;
		case OPT_NO_SCHED_DEBUG:
			opt.no_sched_debug = true;
			break;
		case OPT_NO_AFFINITY:
			opt.no_affinity = true;
			break;
		case OPT_SCHED_DEBUG_EVERY: {
			unsigned long ms;

			errno = 0;
			ms = strtoul(optarg, &end, 10);
			if (end == optarg || *end || errno || *optarg == '-' || ms < 10 ||
			    ms > 60000) {
				cli_usage("capture", "--sched-debug-every takes 10..60000 ms, not '%s'",
					  cli_esc(optarg));
				goto out;
			}
			opt.sched_debug_every_ms = (unsigned int)ms;
			break;
		}
		case OPT_STRICT:
			opt.strict = true;
			break;
		case OPT_CLOCK:
			opt.clock = optarg;
			break;
		case OPT_TRACING_DIR:
			opt.tracing_dir = optarg;
			break;
		case OPT_CLEANUP:
			cleanup = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout);
			ret = SR_EXIT_OK;
			goto out;
		default:
			cli_getopt_error("capture", c, argv, longopts);
			goto out;
		}
	}
	if (syscalls)
		add_syscall_events(&opt);
	if (optind < argc) {
		/* "-- CMD ARGS" (getopt consumed the "--") or a bare CMD */
		opt.argv = &argv[optind];
	}
	if (cleanup && (opt.output || opt.duration_s > 0 || buffer_given || opt.nr_groups ||
			opt.nr_events || syscalls || opt.strict || opt.clock || opt.argv ||
			opt.no_sched_debug || opt.sched_debug_every_ms || opt.no_affinity)) {
		/* they were ignored: -o, -g or a command looked like a capture */
		cli_usage("capture", "--cleanup takes no other option than --tracing-dir and -q; "
			  "it only removes what killed captures left behind");
		goto out;
	}
	if (cleanup) {
		int n = cap_cleanup_leftovers(opt.tracing_dir, print_log, &quiet, &err);

		if (n < 0) {
			fprintf(stderr, "schedreplay capture: %s\n", err.msg);
			ret = SR_EXIT_FAIL;
		} else {
			if (!quiet)
				fprintf(stderr, "schedreplay capture: removed %d leftover(s)\n", n);
			ret = SR_EXIT_OK;
		}
		goto out;
	}
	if (!opt.output) {
		cli_usage("capture", "-o OUT.dat is required");
		goto out;
	}
	if (cap_validate(&opt, &err) < 0) {
		fprintf(stderr, "schedreplay capture: %s\n", err.msg);
		goto out;
	}

	/* Signals are taken synchronously by the session (sigtimedwait); block
	 * them before it starts threads, which inherit the mask. SIGQUIT ends
	 * the recording as SIGINT does: its default action killed the capture
	 * with its instance, cgroups and workloads left behind. */
	sigemptyset(&block);
	cap_add_stop_signals(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, NULL);
	/* A write to a stderr pipe whose reader is gone (| head) or past
	 * RLIMIT_FSIZE fails with EPIPE/EFBIG instead of killing the capture
	 * before it cleans up (the workloads get the default actions back). */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	if (cap_run(&opt, &res, &err) < 0) {
		fprintf(stderr, "schedreplay capture: %s\n", err.msg);
		ret = SR_EXIT_FAIL;
	} else {
		if (!quiet)
			fprintf(stderr, "schedreplay capture: wrote %s (%llu records, %.1f MB, %.3f s%s) "
				"and %s.json; lost events: %llu\n", cli_esc(opt.output),
				(unsigned long long)res.events, (double)res.bytes / 1e6, res.duration_s,
				res.interrupted ? ", interrupted" : "", cli_esc(opt.output),
				(unsigned long long)res.lost);
		ret = SR_EXIT_OK;
	}
	/* A signal that came while the files were written was taken as the
	 * end of recording (or skipped the writing): unblocking it must not
	 * turn the result into a death by that signal. The signals stay
	 * blocked until the exit: one that comes after this drain (the capture
	 * is done) would kill it as well. */
	{
		struct timespec zero = { 0, 0 };

		sigdelset(&block, SIGCHLD);
		while (sigtimedwait(&block, NULL, &zero) > 0)
			;
	}
out:
	for (i = 0; i < opt.nr_groups; i++)
		cap_group_release(&groups[i]);
	free(groups);
	free(opt.events);
	return ret;
}
