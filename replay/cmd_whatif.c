// SPDX-License-Identifier: GPL-2.0
/*
 * schedreplay whatif [options] TRACE
 *
 * One trace, many variants: extract the workload once, replay it under every
 * variant asked for (in parallel threads), print the seed-post tables, JSON
 * or an SVG of the latency CDFs.  See docs/variants.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <schedreplay/cli.h>
#include <schedreplay/profile.h>
#include <schedreplay/sim.h>
#include <schedreplay/whatif.h>
#include <schedreplay/workload.h>

#include "cmd_runs.h"
#include "replay_progress.h"

static void usage(FILE *f, bool all)
{
	fprintf(f,
		"usage: schedreplay whatif [options] TRACE\n\n"
		"Replay one trace under several model variants and compare them with each\n"
		"other and with what the trace measured: bookkeeping-call counts, wakeup\n"
		"latency percentiles (overall, per cgroup, per comm) and the predicted CPU\n"
		"share of the bookkeeping on a given machine.  base is always the first run.\n"
		"(This --help sums up the replay's rules in one line; --help-all lists them.)\n\n"
		"runs and the traced machine (default: base, then every variant; as replay's)\n");
	run_opts_help(f, RUN_OPTS_RUNS, "whatif", all);
	fprintf(f, "the model (as replay's and validate's)\n");
	run_opts_help(f, RUN_OPTS_MODEL, "whatif", all);
	fprintf(f,
		"the model's seeds (whatif's own)\n"
		"  --seeds N           replay every variant with seeds S..S+N-1 (S = --seed;\n"
		"                      1..15, default 1): every figure is the median over the\n"
		"                      seeds (the lower middle one for an even N), a change\n"
		"                      whose seed range overlaps base's is marked ~ (the\n"
		"                      replay's own chaos); the SVG draws, per run, the seed\n"
		"                      whose p99 is the median\n"
		"output\n"
		"  --machine NAME|FILE cost model: one-socket (default), two-socket or a JSON\n"
		"                      file\n"
		"  --json              JSON: the keys of 'schedreplay replay --json' but\n"
		"                      relative_errors (each run has errors instead, and\n"
		"                      cpu_share and change_pct), plus whatif (docs/variants.md)\n"
		"  --svg FILE          latency CDF plot (log x axis), one curve per run and one\n"
		"                      for the measured\n"
		"  --svg-cgroup PATH, --svg-comm COMM  with --svg: plot one group instead of all\n"
		"                      wakeups\n"
		"  --top N             cgroups and comms shown in text (default 6; 0 = all)\n"
		"  --noise TRACE       another capture of the same workload (repeatable): mark\n"
		"                      latency changes within the measured run-to-run spread\n"
		"  --print-machine NAME  print a built-in machine file and exit\n"
		"\n"
		"Exit status: 0 success, also on a trace with lost events (a warning on stderr\n"
		"says what they left out); 1 failure (one line on stderr: an unreadable or\n"
		"corrupted trace, no sched_switch in it); 2 bad usage.\n");
}

#define MAX_NOISE 64

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > max || *s == '-')
		return -1;
	*out = v;
	return 0;
}

/*
 * Are @a and @b two regular files of the same bytes (a copy of one capture)?
 * false when either cannot be read: the extraction names that error.
 */
static bool same_content(const char *a, const char *b)
{
	int fa = open(a, O_RDONLY | O_NONBLOCK), fb = open(b, O_RDONLY | O_NONBLOCK);
	struct stat sa, sb;
	bool same = false;
	static char ba[65536], bb[65536];

	if (fa < 0 || fb < 0 || fstat(fa, &sa) || fstat(fb, &sb) || !S_ISREG(sa.st_mode) ||
	    !S_ISREG(sb.st_mode) || sa.st_size != sb.st_size)
		goto out;
	for (;;) {
		ssize_t na = read(fa, ba, sizeof(ba)), nb, got = 0;

		if (na < 0)
			goto out;
		while (got < na && (nb = read(fb, bb + got, (size_t)(na - got))) > 0)
			got += nb;
		if (got != na || memcmp(ba, bb, (size_t)na))
			goto out;
		if (!na)
			break;
	}
	same = true;
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/*
 * Whether the group --svg-comm or --svg-cgroup names is in the trace: a comm
 * one of its tasks had (exact, as the plot's group key) or a task group of
 * the workload.  One that names nothing drew an empty plot at exit 0.
 */
static bool svg_group_known(const struct wl_workload *wl, const struct whatif_report_opts *ro)
{
	const struct lat_machine *m = wl_measured_latency(wl);
	enum lat_group_key key = ro->svg_comm ? LAT_BY_COMM : LAT_BY_CGROUP;
	const char *name = ro->svg_comm ? ro->svg_comm : ro->svg_cgroup;

	for (size_t i = 0; i < lat_nr_groups(m, key); i++)
		if (!strcmp(lat_group_at(m, key, i)->key, name))
			return true;
	if (ro->svg_comm) {
		for (size_t i = 0; i < lat_nr_tasks(m); i++)
			if (!strcmp(lat_task_at(m, i)->comm, name))
				return true;
		return false;
	}
	for (uint32_t i = 0; i < wl_nr_groups(wl); i++)
		if (!strcmp(wl_group(wl, i)->path, name))
			return true;
	return false;
}

int cmd_whatif(int argc, char **argv)
{
	enum { O_MACHINE = 256, O_JSON, O_SVG, O_SVG_CGROUP, O_SVG_COMM, O_TOP, O_PRINT_MACHINE,
	       O_NOISE, O_SEEDS };
	static const struct option own[] = {
		{ "machine", required_argument, NULL, O_MACHINE },
		{ "json", no_argument, NULL, O_JSON },
		{ "svg", required_argument, NULL, O_SVG },
		{ "svg-cgroup", required_argument, NULL, O_SVG_CGROUP },
		{ "svg-comm", required_argument, NULL, O_SVG_COMM },
		{ "top", required_argument, NULL, O_TOP },
		{ "print-machine", required_argument, NULL, O_PRINT_MACHINE },
		{ "noise", required_argument, NULL, O_NOISE },
		{ "seeds", required_argument, NULL, O_SEEDS },
		{ "help", no_argument, NULL, 'h' },
		{ "help-all", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	const char *noise_paths[MAX_NOISE];
	struct wl_workload *noise_wl[MAX_NOISE] = { NULL };
	const struct lat_machine *noise_lat[MAX_NOISE];
	unsigned int nr_noise = 0, seeds = 1;
	bool json = false;
	const char *svg = NULL, *machine_name = "one-socket";
	struct whatif_report_opts ro = { .top = 6 };
	struct run_opts o;
	struct whatif_config wc = { 0 };
	struct cost_machine machine;
	struct replay_progress pc;
	struct sr_error err = { 0 };
	struct wl_workload *wl = NULL;
	struct whatif_result *res = NULL;
	struct whatif_selection runs = { 0 };
	unsigned long v;
	int opt, r, e, ret = SR_EXIT_FAIL;

	if (run_opts_init(&o, "whatif", argc, RUN_OPTS_RUNS | RUN_OPTS_MODEL, own) < 0)
		return SR_EXIT_FAIL;
	optind = 1;
	opterr = 0;     /* cli_getopt_error(): getopt's messages print the option raw */
	while ((opt = getopt_long(argc, argv, ":h", o.lo, NULL)) != -1) {
		switch (opt) {
		case O_MACHINE:
			machine_name = optarg;
			break;
		case O_JSON:
			json = true;
			break;
		case O_SVG:
			if (!cli_path_arg("whatif", "--svg", optarg, "file"))
				goto usage_fail;
			svg = optarg;
			break;
		case O_SVG_CGROUP:
			ro.svg_cgroup = optarg;
			break;
		case O_SVG_COMM:
			ro.svg_comm = optarg;
			break;
		case O_TOP:
			if (parse_uint(optarg, 1000000, &v) < 0) {
				cli_usage("whatif", "--top takes a count (0 = all), not '%s'",
					  cli_esc(optarg));
				goto usage_fail;
			}
			ro.top = (int)v;
			break;
		case O_PRINT_MACHINE: {
			const struct cost_machine *m = cost_machine_builtin(optarg);

			if (!m) {
				cli_usage("whatif", "no built-in machine '%s' (one-socket, two-socket)",
					  cli_esc(optarg));
				goto usage_fail;
			}
			run_opts_release(&o);
			/* unflushed, a full disk gave exit 0 */
			int werr = cost_machine_write_json(m, stdout) < 0 ? EIO : 0;

			if (!werr)
				werr = cli_output_error(stdout);
			if (werr) {
				fprintf(stderr, "schedreplay whatif: cannot write the machine file: %s\n",
					strerror(werr));
				return SR_EXIT_FAIL;
			}
			return SR_EXIT_OK;
		}
		case O_NOISE:
			if (nr_noise == MAX_NOISE) {
				cli_usage("whatif", "at most %d --noise", MAX_NOISE);
				goto usage_fail;
			}
			if (!cli_path_arg("whatif", "--noise", optarg, "file"))
				goto usage_fail;
			noise_paths[nr_noise++] = optarg;
			break;
		case O_SEEDS:
			if (parse_uint(optarg, WHATIF_MAX_SEEDS, &v) < 0 || v < 1) {
				cli_usage("whatif", "--seeds takes 1..%d, not '%s'", WHATIF_MAX_SEEDS,
					  cli_esc(optarg));
				goto usage_fail;
			}
			seeds = (unsigned int)v;
			break;
		case 'h':
		case 'H':
			usage(stdout, opt == 'H');
			run_opts_release(&o);
			return SR_EXIT_OK;
		case '?':
		case ':':
			cli_getopt_error("whatif", opt, argv, o.lo);
			goto usage_fail;
		default:
			r = run_opts_parse(&o, opt, optarg);
			if (r == -2)
				goto out;
			if (r <= 0)
				goto usage_fail;
		}
	}
	if (optind + 1 != argc) {
		cli_usage("whatif", "%s", optind == argc ? "a TRACE is needed" : "one TRACE only");
		goto usage_fail;
	}
	if (ro.svg_cgroup && ro.svg_comm) {
		cli_usage("whatif", "--svg-cgroup or --svg-comm, not both");
		goto usage_fail;
	}
	/* they choose what the plot shows: without a plot they would do nothing */
	if ((ro.svg_cgroup || ro.svg_comm) && !svg) {
		cli_usage("whatif", "%s needs --svg FILE", ro.svg_comm ? "--svg-comm" : "--svg-cgroup");
		goto usage_fail;
	}
	if (run_opts_finish(&o) < 0)
		goto usage_fail;
	/*
	 * A --noise capture that is the trace itself, or one capture given
	 * twice (two names of one file): a "run-to-run spread" of 0 from a
	 * capture compared with itself, every change marked outside it, at
	 * exit 0 (fuzz40)
	 */
	for (unsigned int i = 0; i < nr_noise; i++) {
		const char *trace = argv[optind];

		if (cli_output_is_input(noise_paths[i], &trace, 1)) {
			cli_usage("whatif", "--noise %s is the trace itself: name another capture "
				  "of the same workload", cli_esc(noise_paths[i]));
			goto usage_fail;
		}
		if (cli_output_is_input(noise_paths[i], noise_paths, i)) {
			cli_usage("whatif", "--noise %s names a capture given already: each "
				  "capture once", cli_esc(noise_paths[i]));
			goto usage_fail;
		}
		/* a copy of a file is the same capture under another inode (fuzz41) */
		if (same_content(noise_paths[i], trace)) {
			cli_usage("whatif", "--noise %s is a copy of the trace (the same bytes): "
				  "name another capture of the same workload", cli_esc(noise_paths[i]));
			goto usage_fail;
		}
		for (unsigned int j = 0; j < i; j++)
			if (same_content(noise_paths[i], noise_paths[j])) {
				cli_usage("whatif", "--noise %s is a copy of --noise %s (the same "
					  "bytes): each capture once", cli_esc(noise_paths[i]),
					  cli_esc(noise_paths[j]));
				goto usage_fail;
			}
	}
	if (svg) {
		char scpath[PATH_MAX + 8];
		/* what is read: a built-in machine name is no file, TRACE.json only
		 * when no --sidecar/--no-sidecar replaces it, each --noise trace's own */
		const char *in[] = { argv[optind], o.wo.cgroup_map,
				     cost_machine_builtin(machine_name) ? NULL : machine_name,
				     cli_sidecar_read(scpath, sizeof(scpath), argv[optind],
						      o.wo.sidecar, o.wo.no_sidecar) };
		bool clash;

		clash = cli_output_is_input(svg, in, 4) ||
			cli_output_is_input(svg, noise_paths, nr_noise) ||
			cli_output_is_input(svg, o.loaded, o.nr_loaded);
		/* each --noise capture reads its own sidecar (no --sidecar for it) */
		for (unsigned int i = 0; i < nr_noise && !clash; i++) {
			in[3] = cli_sidecar_read(scpath, sizeof(scpath), noise_paths[i], NULL,
						 o.wo.no_sidecar);
			clash = cli_output_is_input(svg, in + 3, 1);
		}
		if (cli_output_clash("whatif", "--svg", svg, clash))
			goto usage_fail;
		/* before the runs: a missing directory failed after all of them (fuzz41) */
		if (cli_output_check("whatif", "--svg", svg)) {
			ret = SR_EXIT_FAIL;
			goto out;
		}
	}
	switch (cost_machine_resolve(machine_name, &machine, &err)) {
	case 0:
		break;
	case -2:                        /* a mistyped built-in name: exit 2, as --profile's */
		cli_usage("whatif", "--machine: %s", err.msg);
		goto usage_fail;
	default:
		goto fail;
	}

	/* the runs: base first, then what was asked for (by default all), each once */
	if (run_opts_select(&o, true, true, &runs, &err) < 0) {
		/* an unknown variant is a bad option value: exit 2, as replay's */
		fprintf(stderr, "schedreplay whatif: %s\n", err.msg);
		goto usage_fail;
	}

	wl = wl_extract(argv[optind], &o.wo, &err);
	if (!wl)
		goto fail;
	/* a --comm that matches nothing compared empty tables at exit 0 */
	if (cli_filter_check("whatif", argv[optind], wl_measured_latency(wl), o.rc.comm_prefix, -1)) {
		ret = SR_EXIT_USAGE;
		goto out;
	}
	/* a toggle the trace's kernel lacks: before any run (it was a run's exit 1) */
	if (run_opts_check_features(&o, argv[optind], wl, &runs) < 0)
		goto usage_fail;
	if (svg && (ro.svg_comm || ro.svg_cgroup) && !svg_group_known(wl, &ro)) {
		fprintf(stderr, "schedreplay whatif: --svg-%s '%s' names no %s of %s (see "
			"'schedreplay report --by %s')\n", ro.svg_comm ? "comm" : "cgroup",
			cli_esc(ro.svg_comm ? ro.svg_comm : ro.svg_cgroup),
			ro.svg_comm ? "task's comm" : "task group", cli_esc(argv[optind]),
			ro.svg_comm ? "comm" : "cgroup");
		ret = SR_EXIT_USAGE;
		goto out;
	}
	/* the report shows no trace header: say it here, as report and replay do */
	run_warn_lost("whatif", argv[optind], wl, NULL);
	run_warn_initial_pelt("whatif", argv[optind], &o, wl);
	run_warn_clock_task("whatif", argv[optind], &o, wl);
	/* the other captures: only their measured latency is used */
	for (unsigned int i = 0; i < nr_noise; i++) {
		struct wl_options no = o.wo;

		/* --sidecar names the main trace's: each other capture has its own */
		no.sidecar = NULL;
		no.progress = NULL;
		noise_wl[i] = wl_extract(noise_paths[i], &no, &err);
		if (!noise_wl[i])
			goto fail;
		/*
		 * The capture's TRACEID (random per recording, kept by trace-cmd
		 * convert): one capture in another container or compression
		 * compared with itself, a spread of 0 at exit 0 (fuzz41)
		 */
		for (unsigned int j = 0; j <= i; j++) {
			const struct trace_info *a = wl_trace_info(noise_wl[i]);
			const struct trace_info *b = wl_trace_info(j < i ? noise_wl[j] : wl);

			if (!a->has_trace_id || !b->has_trace_id || a->trace_id != b->trace_id)
				continue;
			if (j < i)
				cli_usage("whatif", "--noise %s has the TRACEID 0x%016" PRIx64 " of "
					  "--noise %s: one capture (converted or copied); each "
					  "capture once", cli_esc(noise_paths[i]), a->trace_id,
					  cli_esc(noise_paths[j]));
			else
				cli_usage("whatif", "--noise %s has the trace's TRACEID 0x%016" PRIx64
					  ": the same capture (converted or copied); name another "
					  "capture of the same workload", cli_esc(noise_paths[i]),
					  a->trace_id);
			goto usage_fail;
		}
		/* its spread marks the variants' changes: partial, it must say so too */
		run_warn_lost("whatif", noise_paths[i], noise_wl[i],
			      "its measured spread (--noise) is partial");
		noise_lat[i] = wl_measured_latency(noise_wl[i]);
	}
	ro.noise = noise_lat;
	ro.nr_noise = nr_noise;
	ro.noise_paths = noise_paths;
	replay_profile_for(wl, &o.rc, &ro.profile_why);
	wc.replay = &o.rc;
	wc.threads = o.threads;
	wc.sets = runs.sets;
	wc.nr_sets = runs.n;
	wc.seeds = seeds;
	wc.machine = &machine;
	replay_progress_init(&pc, "what-if");
	wc.progress = replay_progress_runs;
	wc.progress_ctx = &pc;
	pc.run_events = wl_counts(wl)->events;
	res = whatif_run(wl, &wc, &err);
	replay_progress_done(&pc);
	if (!res)
		goto fail;
	if (svg) {
		FILE *f = fopen(svg, "w");

		if (!f) {
			sr_error_set(&err, errno, "--svg %s: %s", svg, strerror(errno));
			goto fail;
		}
		if (whatif_write_svg(f, wl, res, &ro, &err) < 0) {
			fclose(f);
			sr_error_prefix(&err, "%s", svg);
			goto fail;
		}
		if (fclose(f) != 0) {
			sr_error_set(&err, errno, "%s: %s", svg, strerror(errno));
			goto fail;
		}
	}
	if (json) {
		if (whatif_print_json(stdout, wl, res, &ro, &err) < 0)
			goto fail;
	} else if (whatif_print_text(stdout, wl, res, &ro) < 0) {
		sr_error_set(&err, EIO, "cannot write the report");
		goto fail;
	}
	if ((e = cli_output_error(stdout)) != 0) {
		sr_error_set(&err, e, "cannot write the report: %s", strerror(e));
		goto fail;
	}
	ret = SR_EXIT_OK;
	goto out;

usage_fail:     /* the one line is printed (cli_usage()) */
	ret = SR_EXIT_USAGE;
	goto out;
fail:
	fprintf(stderr, "schedreplay whatif: %s\n", err.msg);
	ret = SR_EXIT_FAIL;
out:
	whatif_result_free(res);
	wl_free(wl);
	for (unsigned int i = 0; i < nr_noise; i++)
		wl_free(noise_wl[i]);
	whatif_selection_release(&runs);
	run_opts_release(&o);
	return ret;
}
