// SPDX-License-Identifier: GPL-2.0
/* `schedreplay report`: measured wakeup latency and event counts of a trace.dat. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/cli.h>

#include "cmd_runs.h"
#include "report_local.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: schedreplay report [options] TRACE.dat\n"
		"\n"
		"Event counts, wakeup latency percentiles (overall, per comm, per task) and\n"
		"per-task run time, switches, preemptions, run-queue waits and migrations of a\n"
		"trace-cmd trace.dat (v6 or v7, compressed or not, top-level or instance buffer),\n"
		"or of ftrace text (tracefs `trace`, `trace-cmd report -N` or `-R` output).\n"
		"\n"
		"options:\n"
		"  --json             JSON on stdout (schema: docs/report.md)\n"
		"  --comm PREFIX      only samples and tasks whose comm starts with PREFIX\n"
		"  --pid PID          only samples and tasks of PID\n"
		"  --by KEY           also group by KEY: comm (default, always on), pid, cgroup;\n"
		"                     may be repeated\n"
		"  --cgroup-root ID   follow cgroup_attach_task of hierarchy ID only (default:\n"
		"                     the sidecar's cpu hierarchy, else every hierarchy; exit 2\n"
		"                     if neither the trace nor the sidecar has hierarchy ID)\n"
		"  --sidecar FILE     capture sidecar to use (default: TRACE.dat.json, the\n"
		"                     trace's name + .json, if it exists): seeds each task's\n"
		"                     cpu cgroup for --by cgroup; an event on a CPU it lists\n"
		"                     offline is an error (as replay's)\n"
		"  --no-sidecar       ignore TRACE.dat.json\n"
		"  --samples FILE     write every sample (after the filters) to FILE, one per\n"
		"                     line: kind pid cpu start_ns end_ns latency_ns start_event\n"
		"                     comm cgroup (tab-separated; kind wakeup or runq)\n"
		"  --buffer NAME      read buffer NAME ('' = top level; default: the buffer\n"
		"                     whose first records are sched events)\n"
		"  --reader NAME      who reads the records: native (default; own page decoder)\n"
		"                     or libtracecmd (after the same validation of the file)\n"
		"  --start MODE       what starts a wakeup interval: auto (default), waking,\n"
		"                     wakeup\n"
		"  --top N            groups and tasks shown in text (default 10, 0 = all)\n"
		"  --allow-lost       exit 0 even if the kernel lost events (results are partial)\n"
		"  --no-repair        the raw event stream: do not restore switches out of idle\n"
		"                     that the kernel did not trace (see Definitions)\n"
		"  -h, --help         this text\n"
		"\n"
		"Definitions:\n"
		"  Wakeup latency: from the first sched_waking (or sched_wakeup_new for a new\n"
		"  task) of a task that is not on a CPU and has no pending wakeup, to the\n"
		"  sched_switch that puts it on a CPU. Wakings of a running task, or of one with\n"
		"  a pending wakeup, start nothing. A sample belongs to the comm shown as\n"
		"  next_comm in that sched_switch. Without sched_waking in the trace,\n"
		"  sched_wakeup starts the interval (the output says so).\n"
		"  Run-queue wait: from a sched_switch that leaves the task runnable\n"
		"  (prev_state R or R+, a preemption) to its next sched_switch onto a CPU.\n"
		"  Percentiles 50 75 90 95 99 99.5 99.9, min, max in microseconds: nearest rank\n"
		"  (the smallest sample with at least p%% of the samples <= it) read from a\n"
		"  log-linear histogram, 128 buckets per power of two, relative error <= 0.4%%;\n"
		"  min and max are exact.\n"
		"\n"
		"Exit status: 0 success; 1 unreadable or corrupted trace, no sched events, or\n"
		"events lost (partial results are printed with a warning; --allow-lost gives 0);\n"
		"2 bad usage (also a --comm or --pid that matches no task of the trace, or a\n"
		"--cgroup-root hierarchy it does not have).\n");
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/*
 * --cgroup-root ID must name a hierarchy the trace has: one that a
 * cgroup_attach_task of the trace moved a task into, or the sidecar's cpu
 * hierarchy (v2: the unified one, 0).  Else one line (exit 2) naming the
 * trace's hierarchies.
 */
static int cgroup_root_check(const struct report_opts *o, const struct report_data *d)
{
	uint64_t seen = lat_get_summary(d->lat)->cgroup_roots_seen;
	const struct sidecar *sc = d->sc;
	int id = o->cgroup_root;
	char list[256] = "";
	size_t n = 0;

	if (seen & (1ull << (id < 63 ? id : 63)))
		return 0;
	if (sc && ((sc->cgroup_version && sc->cgroup_hierarchy_id == id) ||
		   (sc->cgroup_version == 2 && id == 0)))
		return 0;
	for (int i = 0; i < 64; i++) {
		if (seen & (1ull << i))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s%d", n ? ", " : "",
					      i == 63 ? ">= " : "", i);
		if (n >= sizeof(list))
			break;
	}
	fprintf(stderr, "schedreplay report: --cgroup-root %d: no cgroup_attach_task of %s is in "
		"hierarchy %d (%s%s; see 'schedreplay report --help')\n", id, cli_esc(o->path), id,
		seen ? "its hierarchies: " : "it moves no task in any hierarchy", list);
	return -1;
}

int cmd_report(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_COMM, OPT_PID, OPT_BY, OPT_BUFFER, OPT_TOP, OPT_START,
	       OPT_ALLOW_LOST, OPT_CGROUP_ROOT, OPT_READER, OPT_SIDECAR, OPT_NO_SIDECAR, OPT_SAMPLES,
	       OPT_NO_REPAIR };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "comm", required_argument, NULL, OPT_COMM },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "by", required_argument, NULL, OPT_BY },
		{ "buffer", required_argument, NULL, OPT_BUFFER },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "start", required_argument, NULL, OPT_START },
		{ "allow-lost", no_argument, NULL, OPT_ALLOW_LOST },
		{ "cgroup-root", required_argument, NULL, OPT_CGROUP_ROOT },
		{ "reader", required_argument, NULL, OPT_READER },
		{ "sidecar", required_argument, NULL, OPT_SIDECAR },
		{ "no-sidecar", no_argument, NULL, OPT_NO_SIDECAR },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "no-repair", no_argument, NULL, OPT_NO_REPAIR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o;
	struct report_data d;
	struct sr_error err = { 0 };
	bool allow_lost = false;
	int c, rc, e, li = -1;
	long v;
	const char *want = "?";   /* what the option being parsed takes, for bad_value */

	report_opts_default(&o);
	optind = 1;
	opterr = 0;
	/* li: the long option just parsed, for the messages (argv[optind - 1] was its value) */
	while ((c = getopt_long(argc, argv, ":h", longopts, (li = -1, &li))) != -1) {
		switch (c) {
		case OPT_JSON:
			o.json = true;
			break;
		case OPT_COMM:
			o.comm_prefix = optarg;
			break;
		case OPT_PID:
			want = "a PID, 0..2147483647";
			if (parse_int(optarg, 0, INT32_MAX, &v))
				goto bad_value;
			o.pid = (int32_t)v;
			break;
		case OPT_BY:
			want = "comm, pid or cgroup";
			if (!strcmp(optarg, "comm"))
				o.by[LAT_BY_COMM] = true;
			else if (!strcmp(optarg, "pid"))
				o.by[LAT_BY_PID] = true;
			else if (!strcmp(optarg, "cgroup"))
				o.by[LAT_BY_CGROUP] = true;
			else
				goto bad_value;
			break;
		case OPT_BUFFER:
			o.buffer = optarg;
			break;
		case OPT_TOP:
			want = "a count, 0..2147483647, 0 = all";
			if (parse_int(optarg, 0, INT32_MAX, &v))
				goto bad_value;
			o.top = (int)v;
			break;
		case OPT_START:
			want = "auto, waking or wakeup";
			if (!strcmp(optarg, "auto"))
				o.start_mode = LAT_START_AUTO;
			else if (!strcmp(optarg, "waking"))
				o.start_mode = LAT_START_WAKING;
			else if (!strcmp(optarg, "wakeup"))
				o.start_mode = LAT_START_WAKEUP;
			else
				goto bad_value;
			break;
		case OPT_ALLOW_LOST:
			allow_lost = true;
			break;
		case OPT_SIDECAR:
			if (!cli_path_arg("report", "--sidecar", optarg, "file"))
				return SR_EXIT_USAGE;
			o.sidecar = optarg;
			break;
		case OPT_SAMPLES:
			if (!cli_path_arg("report", "--samples", optarg, "file"))
				return SR_EXIT_USAGE;
			o.samples_path = optarg;
			break;
		case OPT_NO_SIDECAR:
			o.no_sidecar = true;
			break;
		case OPT_NO_REPAIR:
			o.repair = 0;
			break;
		case OPT_READER:
			want = "native or libtracecmd";
			if (trace_backend_parse(optarg, &o.backend))
				goto bad_value;
			break;
		case OPT_CGROUP_ROOT:
			want = "a cgroup hierarchy ID, 0..2147483647";
			if (parse_int(optarg, 0, INT32_MAX, &v))
				goto bad_value;
			o.cgroup_root = (int)v;
			break;
		case 'h':
			usage(stdout);
			return SR_EXIT_OK;
		default:    /* '?', or ':' (the option string's leading ':'): a value missing */
			cli_getopt_error("report", c, argv, longopts);
			return SR_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		return cli_usage("report", "%s", optind == argc ? "no trace file given" :
				 "one trace file at a time");
	}
	o.path = argv[optind];
	if (o.sidecar && o.no_sidecar) {
		return cli_usage("report", "--sidecar and --no-sidecar exclude each other");
	}

	if (o.samples_path) {
		char scpath[PATH_MAX + 8];
		const char *in[] = { o.path, cli_sidecar_read(scpath, sizeof(scpath), o.path,
							      o.sidecar, o.no_sidecar) };

		if (cli_output_clash("report", "--samples", o.samples_path,
				     cli_output_is_input(o.samples_path, in, 2)))
			return SR_EXIT_USAGE;
	}
	if (report_collect(&o, &d, &err)) {
		fprintf(stderr, "schedreplay report: %s\n", err.msg);
		report_data_release(&d);
		return SR_EXIT_FAIL;
	}
	/* a filter that matches nothing printed empty tables at exit 0 */
	if (cli_filter_check("report", o.path, d.lat, o.comm_prefix, o.pid)) {
		report_data_release(&d);
		return SR_EXIT_USAGE;
	}
	/* a hierarchy the trace never moved a task in followed nothing, at exit 0 */
	if (o.cgroup_root >= 0 && cgroup_root_check(&o, &d)) {
		report_data_release(&d);
		return SR_EXIT_USAGE;
	}
	for (int i = 0; i < d.nr_warnings; i++)
		fprintf(stderr, "schedreplay report: %s: warning: %s\n", cli_esc(o.path),
			cli_esc(d.warnings[i]));
	rc = o.json ? report_print_json(stdout, &d, &o, &err) : report_print_text(stdout, &d, &o);
	/* the reason too (ENOSPC: "writing the output failed" alone, fuzz41) */
	if ((e = cli_output_error(stdout)) != 0 || rc) {
		fprintf(stderr, "schedreplay report: writing the output failed: %s\n",
			strerror(e ? e : EIO));
		report_data_release(&d);
		return SR_EXIT_FAIL;
	}
	rc = SR_EXIT_OK;
	if (d.lost_total && !allow_lost) {
		fprintf(stderr, "schedreplay report: %s: %s%llu events lost: the results above are "
			"partial (--allow-lost accepts them)\n", cli_esc(o.path), d.lost_unknown ? ">= " : "",
			(unsigned long long)d.lost_total);
		rc = SR_EXIT_FAIL;
	} else if ((d.lost_sc.unmarked || d.lost_sc.pages_unmarked) && !allow_lost) {
		/* lost without a mark in the trace: partial all the same */
		if (d.lost_sc.unmarked)
			fprintf(stderr, "schedreplay report: %s: %llu events lost by the sidecar's "
				"count, none marked in the trace: the results above are partial "
				"(--allow-lost accepts them)\n", cli_esc(o.path),
				(unsigned long long)d.lost_sc.unmarked);
		else
			fprintf(stderr, "schedreplay report: %s: events lost by the sidecar's "
				"flagged pages, none marked in the trace: the results above are "
				"partial (--allow-lost accepts them)\n", cli_esc(o.path));
		rc = SR_EXIT_FAIL;
	}
	report_data_release(&d);
	return rc;

bad_value:
	/* "bad value 'x' for --top" alone did not say what --top takes */
	return cli_usage("report", "bad value '%s' for --%s (it takes %s)", cli_esc(optarg),
			 li >= 0 ? longopts[li].name : "?", want);
}
