// SPDX-License-Identifier: GPL-2.0
/*
 * `schedreplay replay`: extract the workload of a trace, replay it through
 * the model under one variant or several, print predicted next to measured.
 *
 * The runs are chosen as `schedreplay whatif` chooses them (whatif_select())
 * and replayed by the same runner (whatif_run(): one run in this thread,
 * several in parallel threads), so a run of `replay` and the same run of
 * `whatif` are the same numbers.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/cli.h>
#include <schedreplay/model.h>
#include <schedreplay/sim.h>
#include <schedreplay/whatif.h>
#include <schedreplay/workload.h>

#include "cmd_runs.h"
#include "replay_progress.h"

static void usage(FILE *f, bool all)
{
	fprintf(f,
"usage: schedreplay replay [options] TRACE.dat\n"
"\n"
"Extract each task's behaviour from the trace, replay it through the model of\n"
"the fair scheduler on the trace's CPUs, and print the predicted event counts,\n"
"wakeup-latency and run-queue-wait percentiles next to the measured ones, with\n"
"relative errors.\n"
"(This --help sums up the replay's rules in one line; --help-all lists them.)\n"
"\n"
"runs and the traced machine (default: one run, base; as whatif's)\n");
	run_opts_help(f, RUN_OPTS_RUNS, "replay", all);
	fprintf(f, "the model (as whatif's and validate's)\n");
	run_opts_help(f, RUN_OPTS_MODEL, "replay", all);
	fprintf(f,
"output and diagnostics\n"
"  --json              JSON output (schema in docs/replay.md)\n"
"  --placement-check   placement trace: count how often the model's\n"
"                      select_task_rq_fair() chooses the traced CPU where the\n"
"                      simulated state is the trace's\n"
"  --settings          print every profile setting (as toggled by\n"
"                      --sched-feature)\n"
"  --top N             groups shown per key in text output (default 10, 0 = all)\n"
"  --dump-events FILE  write every simulated event as text (debugging; one run\n"
"                      only)\n"
"  --dump-wake-records with --dump-events: also a 'replay_op:' line naming the\n"
"                      trace's wake record (wakee, sched_waking time) each\n"
"                      replayed wake delivers, the early ones, and what each\n"
"                      hand-off wait became (a waker the trace shows preempted\n"
"                      by its wakee, waiting for the wakee's block: slept,\n"
"                      handed over, ...; analysis; docs/replay.md, \"Output\")\n"
"  --dump-samples FILE write every latency sample of both sides, one per line:\n"
"                      its path and, for a predicted one, what its wakeup\n"
"                      stands for (a trace wake record delivered on time, an\n"
"                      early wake's stand-in - blocked and woken at once -, a\n"
"                      hand-off reply, ...) and that\n"
"                      record's traced time and latency (analysis; one run\n"
"                      only; docs/replay.md, \"Output\")\n"
"  --sched-debug-shift MS  the task groups' comparison with the sidecar's\n"
"                      sched_debug reads probes the model MS ms (signed, up to\n"
"                      +-10000) after each read's time: a check of the probe's\n"
"                      alignment (default 0; the replay is unchanged;\n"
"                      docs/replay.md, \"Task groups against the kernel's\n"
"                      sched/debug\")\n"
"  a dump FILE that is a FIFO waits for its reader to open it, as 'tee FIFO'\n"
"  does; a reader that closes early ends the replay with SIGPIPE\n"
"\n"
"Wakeup latency and run-queue wait have the definitions of 'schedreplay report'\n"
"for both sides (docs/report.md, \"Definitions\").\n"
"Several runs: the JSON 'variants' and 'relative_errors' maps have one entry per\n"
"run, named as --variant gave it; 'schedreplay whatif' compares them with base.\n"
"Exit status: 0 success, also on a trace with lost events (a warning on stderr\n"
"says what they left out); 1 failure (one line on stderr: an unreadable or\n"
"corrupted trace, no sched_switch in it); 2 bad usage.\n");
}

static int print_json(const struct wl_workload *wl, const struct whatif_result *res,
		      const struct replay_config *rc, const char *why)
{
	json_t *root = json_object(), *vars = json_object(), *errs = json_object();
	int ret = -1;

	if (!root || !vars || !errs || replay_json_add_workload(root, wl, rc)) {
		fprintf(stderr, "schedreplay replay: out of memory\n");
		json_decref(root);
		json_decref(vars);
		json_decref(errs);
		return -1;
	}
	json_object_set_new(root, "profile",
			    replay_json_profile(replay_result_profile(whatif_run_result(res, 0)), why,
						replay_result_sched_features(whatif_run_result(res, 0))));
	json_object_set_new(root, "placement",
			    json_string(replay_value_to_name(replay_placement_names, rc->placement)));
	if (replay_uses_model_placement(rc))
		json_object_set_new(root, "vcpu_pack", replay_json_vcpu_pack(wl, rc));
	for (unsigned int i = 0; i < whatif_nr_runs(res); i++) {
		const struct replay_result *run = whatif_run_result(res, i);

		json_object_set_new(vars, whatif_run_name(res, i), replay_json_variant(run));
		json_object_set_new(errs, whatif_run_name(res, i), replay_json_errors(wl, run));
	}
	json_object_set_new(root, "variants", vars);
	/* the kernel's own PELT at the end, where the sidecar has it (docs/replay.md) */
	if (wl_sched_snapshot(wl, true)) {
		json_t *pelt = json_object();

		for (unsigned int i = 0; pelt && i < whatif_nr_runs(res); i++) {
			struct replay_pelt_cmp c;

			if (replay_pelt_compare(wl, whatif_run_result(res, i), &c) < 0) {
				json_decref(pelt);
				pelt = NULL;
				break;
			}
			json_object_set_new(pelt, whatif_run_name(res, i), replay_pelt_json(&c));
			replay_pelt_cmp_release(&c);
		}
		json_object_set_new(root, "pelt_at_end", pelt);
	}
	/* the kernel's group queues during the capture, where the sidecar has them */
	if (wl_sched_debug(wl)) {
		json_t *gk = json_object();

		for (unsigned int i = 0; gk && i < whatif_nr_runs(res); i++) {
			struct replay_groups_cmp c;
			json_t *j;

			if (replay_groups_compare(wl, whatif_run_result(res, i),
						  rc->sched_debug_shift_ns, &c) < 0) {
				json_decref(gk);
				gk = NULL;
				break;
			}
			j = replay_groups_json(wl, whatif_run_result(res, i), &c);
			replay_groups_cmp_release(&c);
			if (!j) {
				json_decref(gk);
				gk = NULL;
				break;
			}
			json_object_set_new(gk, whatif_run_name(res, i), j);
		}
		json_object_set_new(root, "groups_vs_kernel", gk);
	}
	json_object_set_new(root, "measured", replay_json_measured(wl));
	json_object_set_new(root, "relative_errors", errs);
	if (json_dumpf(root, stdout, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10)) ||
	    fputc('\n', stdout) == EOF)
		fprintf(stderr, "schedreplay replay: writing the output failed\n");
	else
		ret = 0;
	json_decref(root);
	return ret;
}

/* The text report shows up to REPLAY_TEXT_RUNS runs side by side. */
#define REPLAY_TEXT_RUNS 16

static void print_text(const struct wl_workload *wl, const struct whatif_result *res,
		       const struct replay_text_opts *to, int64_t shift_ns)
{
	const char *names[REPLAY_TEXT_RUNS];
	const struct replay_result *runs[REPLAY_TEXT_RUNS];
	unsigned int n = whatif_nr_runs(res);

	for (unsigned int first = 0; first < n; first += REPLAY_TEXT_RUNS) {
		unsigned int k = n - first < REPLAY_TEXT_RUNS ? n - first : REPLAY_TEXT_RUNS;

		if (n > REPLAY_TEXT_RUNS)
			printf("%sruns %u-%u of %u\n", first ? "\n" : "", first + 1, first + k, n);
		for (unsigned int i = 0; i < k; i++) {
			names[i] = whatif_run_name(res, first + i);
			runs[i] = whatif_run_result(res, first + i);
		}
		replay_print_text(stdout, wl, names, runs, k, to);
	}
	for (unsigned int i = 0; wl_sched_snapshot(wl, true) && i < n; i++) {
		struct replay_pelt_cmp c;

		if (replay_pelt_compare(wl, whatif_run_result(res, i), &c) < 0) {
			fprintf(stderr, "schedreplay replay: out of memory\n");
			return;
		}
		replay_pelt_text(stdout, n > 1 ? whatif_run_name(res, i) : NULL, &c);
		replay_pelt_cmp_release(&c);
	}
	/* the kernel's group queues during the capture (docs/replay.md) */
	for (unsigned int i = 0; wl_sched_debug(wl) && i < n; i++) {
		struct replay_groups_cmp c;

		if (replay_groups_compare(wl, whatif_run_result(res, i), shift_ns,
					  &c) < 0) {
			fprintf(stderr, "schedreplay replay: out of memory\n");
			return;
		}
		replay_groups_text(stdout, n > 1 ? whatif_run_name(res, i) : NULL, wl, &c);
		replay_groups_cmp_release(&c);
	}
}

/* --dump-samples: a measured sample (the extraction's latency machine) */
struct measured_dump {
	FILE *f;
	const char *comm_prefix;       /* --comm: as the predicted side's filter */
};

static void dump_measured(void *ctx, const struct lat_sample *smp)
{
	const struct measured_dump *d = ctx;

	if (d->comm_prefix && strncmp(smp->comm, d->comm_prefix, strlen(d->comm_prefix)) != 0)
		return;
	/* a write error is seen at the end (cli_output_error()) */
	(void)replay_dump_sample(d->f, smp, REPLAY_SAMPLE_MEASURED, UINT64_MAX, UINT64_MAX);
}

/* Close a --dump-* file @f written to @path: 0, or -1 with the message printed. */
static int close_dump(FILE *f, const char *path, const char *what)
{
	int e = cli_output_error(f);

	if (fclose(f) != 0 && !e)
		e = errno ? errno : EIO;
	if (!e)
		return 0;
	/* the dump was cut short at exit 0 */
	fprintf(stderr, "schedreplay replay: %s: writing the %s failed: %s\n", cli_esc(path), what,
		strerror(e));
	return -1;
}

/*
 * Whether --dump-samples @sdump and --dump-events @dump are one file under
 * two names ('x' and './x', a link): the usage line printed.  Both were
 * opened and their streams written over each other at exit 0.
 */
static bool same_dumps(const char *sdump, const char *dump)
{
	if (!dump || !cli_output_is_input(dump, &sdump, 1))
		return false;
	cli_usage("replay", "--dump-samples %s and --dump-events %s are the same file", cli_esc(sdump),
		  cli_esc(dump));
	return true;
}

int cmd_replay(int argc, char **argv)
{
	static const struct option own[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "placement-check", no_argument, NULL, 'Q' },
		{ "settings", no_argument, NULL, 'T' },
		{ "top", required_argument, NULL, 't' },
		{ "dump-events", required_argument, NULL, 'D' },
		{ "dump-wake-records", no_argument, NULL, 'W' },
		{ "dump-samples", required_argument, NULL, 'S' },
		{ "sched-debug-shift", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ "help-all", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_opts o;
	struct replay_text_opts to = { .top = 10 };
	struct whatif_config wc = { 0 };
	struct whatif_selection runs = { 0 };
	const char *dump = NULL, *sdump = NULL, *why = NULL;
	struct measured_dump md = { 0 };
	bool json = false, dump_ops = false;
	struct sr_error err = { 0 };
	struct replay_progress prog;
	struct wl_workload *wl = NULL;
	struct whatif_result *res = NULL;
	FILE *dumpf = NULL, *sdumpf = NULL;
	int c, r, e, ret = SR_EXIT_FAIL;

	if (run_opts_init(&o, "replay", argc, RUN_OPTS_RUNS | RUN_OPTS_MODEL, own) < 0)
		return SR_EXIT_FAIL;
	optind = 1;
	opterr = 0;     /* cli_getopt_error(): getopt's messages print the option raw */
	while ((c = getopt_long(argc, argv, ":h", o.lo, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'Q': o.rc.placement_check = true; break;
		case 'T': to.show_settings = true; break;
		case 't': {
			char *end;
			long v;

			/* as report's and whatif's --top: atoi() took "abc" as 0 (all) */
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 0 || v > INT_MAX) {
				cli_usage("replay", "--top takes 0..%d (0: all), not '%s'", INT_MAX,
					  cli_esc(optarg));
				goto usage;
			}
			to.top = (int)v;
			break;
		}
		case 'D':
			if (!cli_path_arg("replay", "--dump-events", optarg, "file"))
				goto usage;
			dump = optarg;
			break;
		case 'W': dump_ops = true; break;
		case 'K': {
			char *end;
			double v;

			errno = 0;
			v = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(v >= -10000 && v <= 10000)) {
				cli_usage("replay", "--sched-debug-shift takes -10000..10000 (ms), not '%s'",
					  cli_esc(optarg));
				goto usage;
			}
			o.rc.sched_debug_shift_ns = (int64_t)llround(v * 1e6);
			break;
		}
		case 'S':
			if (!cli_path_arg("replay", "--dump-samples", optarg, "file"))
				goto usage;
			sdump = optarg;
			break;
		case 'h':
		case 'H':
			usage(stdout, c == 'H');
			ret = SR_EXIT_OK;
			goto out;
		case '?':
		case ':':
			cli_getopt_error("replay", c, argv, o.lo);
			goto usage;
		default:
			r = run_opts_parse(&o, c, optarg);
			if (r == -2)
				goto out;
			if (r <= 0)
				goto usage;
		}
	}
	if (optind != argc - 1) {
		cli_usage("replay", "one TRACE.dat expected");
		goto usage;
	}
	/* the runs: what was asked for, in the order asked, each once; else base */
	if (run_opts_select(&o, false, false, &runs, &err) < 0) {
		fprintf(stderr, "schedreplay replay: %s\n", err.msg);
		goto usage;
	}
	if (dump_ops && !dump) {
		cli_usage("replay", "--dump-wake-records writes into the --dump-events file; "
			  "no --dump-events given");
		goto usage;
	}
	if (dump && runs.n > 1) {
		cli_usage("replay", "--dump-events writes one run's events; %u runs asked for",
			  runs.n);
		goto usage;
	}
	if (sdump && runs.n > 1) {
		cli_usage("replay", "--dump-samples writes one run's samples; %u runs asked for",
			  runs.n);
		goto usage;
	}
	if (sdump && dump && !strcmp(sdump, dump)) {
		cli_usage("replay", "--dump-samples and --dump-events name the same file %s",
			  cli_esc(sdump));
		goto usage;
	}
	if (run_opts_finish(&o) < 0)
		goto usage;
	/* the check of the trace's placement: nothing to check under the model's */
	if (o.rc.placement_check && o.rc.placement == REPLAY_PLACEMENT_MODEL) {
		cli_usage("replay", "--placement-check checks the model's choice against the "
			  "trace's placement (--placement trace); with --placement model it does nothing");
		goto usage;
	}
	for (int k = 0; k < 2; k++) {
		const char *out = k ? sdump : dump;
		char scpath[PATH_MAX + 8];
		const char *in[] = { argv[optind], o.wo.cgroup_map,
				     cli_sidecar_read(scpath, sizeof(scpath), argv[optind],
						      o.wo.sidecar, o.wo.no_sidecar) };

		if (out && cli_output_clash("replay", k ? "--dump-samples" : "--dump-events", out,
					    cli_output_is_input(out, in, 3) ||
					    cli_output_is_input(out, o.loaded, o.nr_loaded)))
			goto usage;
	}
	/* before the extraction: it failed only after it (fuzz41) */
	if (dump && cli_output_check("replay", "--dump-events", dump))
		goto out;
	/* the measured samples are written as the extraction measures them */
	if (sdump) {
		if (same_dumps(sdump, dump))
			goto usage;
		if (!(sdumpf = fopen(sdump, "w"))) {
			fprintf(stderr, "schedreplay replay: --dump-samples %s: %s\n", cli_esc(sdump),
				strerror(errno));
			goto out;
		}
		/* again, now that it exists (neither did before) */
		if (same_dumps(sdump, dump))
			goto usage;
		(void)replay_dump_sample_header(sdumpf);
		md.f = sdumpf;
		md.comm_prefix = o.rc.comm_prefix;
		o.wo.sample_sink = dump_measured;
		o.wo.sample_ctx = &md;
		o.rc.sample_dump = sdumpf;
	}
	replay_progress_init(&prog, "extracting");
	o.wo.progress = replay_progress_extract;
	o.wo.progress_ctx = &prog;
	wl = wl_extract(argv[optind], &o.wo, &err);
	replay_progress_done(&prog);
	if (!wl)
		goto fail;
	run_warn_lost("replay", argv[optind], wl, NULL);
	run_warn_initial_pelt("replay", argv[optind], &o, wl);
	run_warn_clock_task("replay", argv[optind], &o, wl);
	/* a --comm that matches nothing compared empty tables at exit 0 */
	if (cli_filter_check("replay", argv[optind], wl_measured_latency(wl), o.rc.comm_prefix, -1))
		goto usage;
	/* a toggle the trace's kernel lacks: before any run (it was a run's exit 1) */
	if (run_opts_check_features(&o, argv[optind], wl, &runs) < 0)
		goto usage;
	if (dump && !(dumpf = fopen(dump, "w"))) {
		fprintf(stderr, "schedreplay replay: --dump-events %s: %s\n", cli_esc(dump), strerror(errno));
		goto out;
	}
	o.rc.dump = dumpf;
	o.rc.dump_ops = dump_ops;
	replay_progress_init(&prog, "replaying");
	o.rc.progress = replay_progress_sim;      /* used when there is one run */
	o.rc.progress_ctx = &prog;
	replay_profile_for(wl, &o.rc, &why);
	wc.replay = &o.rc;
	wc.threads = o.threads;
	wc.sets = runs.sets;
	wc.nr_sets = runs.n;
	if (runs.n > 1) {
		wc.progress = replay_progress_runs;
		wc.progress_ctx = &prog;
		prog.run_events = wl_counts(wl)->events;
	}
	res = whatif_run(wl, &wc, &err);
	replay_progress_done(&prog);
	if (!res) {
		fprintf(stderr, "schedreplay replay: %s: %s\n", cli_esc(argv[optind]), err.msg);
		goto out;
	}
	if (json) {
		if (print_json(wl, res, &o.rc, why) < 0)
			goto out;
	} else {
		char pw[200];
		bool on = replay_vcpu_pack_for(wl, &o.rc, pw, sizeof(pw));

		to.profile_why = why;
		to.no_bandwidth = o.rc.no_bandwidth;
		to.wake_clock_traced = o.rc.wake_clock == REPLAY_WAKE_CLOCK_TRACED;
		to.affinity_inferred = o.rc.affinity == REPLAY_AFFINITY_INFERRED;
		to.ticks_traced = o.rc.ticks == REPLAY_TICKS_TRACED;
		to.tick_phase = o.rc.tick_phase;
		if (replay_uses_model_placement(&o.rc)) {
			to.vcpu_pack_on = on;
			to.vcpu_pack_why = pw;
		}
		print_text(wl, res, &to, o.rc.sched_debug_shift_ns);
	}
	/* a full disk: the text report's lost output ended in exit 1 without a word */
	if ((e = cli_output_error(stdout)) != 0) {
		fprintf(stderr, "schedreplay replay: writing the output failed: %s\n", strerror(e));
		goto out;
	}
	if (dumpf) {
		r = close_dump(dumpf, dump, "event dump");
		dumpf = NULL;
		if (r)
			goto out;
	}
	if (sdumpf) {
		r = close_dump(sdumpf, sdump, "sample dump");
		sdumpf = NULL;
		if (r)
			goto out;
	}
	ret = SR_EXIT_OK;
	goto out;

usage:          /* the one line is printed (cli_usage()) */
	ret = SR_EXIT_USAGE;
	goto out;
fail:
	fprintf(stderr, "schedreplay replay: %s\n", err.msg);
	ret = SR_EXIT_FAIL;
out:
	if (dumpf)
		fclose(dumpf);
	if (sdumpf)
		fclose(sdumpf);
	whatif_result_free(res);
	wl_free(wl);
	whatif_selection_release(&runs);
	run_opts_release(&o);
	return ret;
}
