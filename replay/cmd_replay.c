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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/cli.h>
#include <schedreplay/model.h>
#include <schedreplay/sim.h>
#include <schedreplay/whatif.h>
#include <schedreplay/workload.h>

#include "replay_progress.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: schedreplay replay [options] TRACE.dat\n"
"\n"
"Extract each task's behaviour from the trace, replay it through the model of\n"
"the fair scheduler on the trace's CPUs, and print the predicted event counts\n"
"and wakeup-latency percentiles next to the measured ones, with relative errors.\n"
"\n"
"  --variant SPEC      a run under SPEC: base (default), aaron-skip, or a composition\n"
"                      aaron-skip,no-tg-ratelimit; repeatable: one run each\n"
"  --all-variants      one run per variant (registered, then loaded ones)\n"
"  --plugin PATH       load variants from a plugin (.so; docs/variants.md)\n"
"  --variants-file F   load variants from a JSON file (flags and tunables)\n"
"  --threads N         parallel runs when there are several (default: the CPUs)\n"
"  --profile NAME      kernel profile: auto (from the trace's kernel), 6.18, 6.5, ...\n"
"  --placement MODE    trace (default): wakeups, forks and migrations as traced;\n"
"                      model: the model's select_task_rq and balancing\n"
"  --json              JSON output (schema in docs/replay.md)\n"
"  --comm PREFIX       latency samples of comms starting with PREFIX only\n"
"  --hz N              CONFIG_HZ of the traced machine (else sidecar, else inferred)\n"
"  --cgroup-map FILE   task groups: lines 'PID /cgroup/path' and 'shares /path N'\n"
"  --sidecar FILE      the capture sidecar (default: TRACE.dat.json if present)\n"
"  --no-sidecar        ignore any sidecar\n"
"  --seed N            the model's random seed (default 1)\n"
"  --no-costs          ablation: no mechanical costs in the simulation\n"
"  --skip-early-blocks a wake that arrives before its block skips the block\n"
"                      (default: the task blocks and is woken at once)\n"
"  --idle-pull         placement trace: a CPU the simulation (not the trace) leaves idle\n"
"                      pulls a cache-cold waiting task (newidle balance)\n"
"  --settings          print every profile setting\n"
"  --top N             groups shown per key in text output (default 10, 0 = all)\n"
"  --dump-events FILE  write every simulated event as text (debugging; one run only)\n"
"\n"
"Wakeup latency has the definition of 'schedreplay report' for both sides.\n"
"Several runs: the JSON 'variants' and 'relative_errors' maps have one entry per\n"
"run, named as --variant gave it; 'schedreplay whatif' compares them with base.\n");
}

/* "what-if: 3/14 runs done" while several runs replay (terminal only). */
static void runs_progress(void *ctx, unsigned int done, unsigned int total)
{
	const struct replay_progress *p = ctx;

	if (!p->tty)
		return;
	fprintf(stderr, "\rreplaying: %u/%u runs done%s", done, total, done == total ? "\n" : "");
	fflush(stderr);
}

static int print_json(const struct wl_workload *wl, const struct whatif_result *res,
		      const struct replay_config *rc, const char *why)
{
	json_t *root = json_object(), *vars = json_object(), *errs = json_object();
	int ret = -1;

	if (!root || !vars || !errs || replay_json_add_workload(root, wl)) {
		fprintf(stderr, "schedreplay replay: out of memory\n");
		json_decref(root);
		json_decref(vars);
		json_decref(errs);
		return -1;
	}
	json_object_set_new(root, "profile",
			    replay_json_profile(replay_result_profile(whatif_run_result(res, 0)), why));
	json_object_set_new(root, "placement",
			    json_string(rc->placement == REPLAY_PLACEMENT_TRACE ? "trace" : "model"));
	for (unsigned int i = 0; i < whatif_nr_runs(res); i++) {
		const struct replay_result *run = whatif_run_result(res, i);

		json_object_set_new(vars, whatif_run_name(res, i), replay_json_variant(run));
		json_object_set_new(errs, whatif_run_name(res, i), replay_json_errors(wl, run));
	}
	json_object_set_new(root, "variants", vars);
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
		       const struct replay_text_opts *to)
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
}

int cmd_replay(int argc, char **argv)
{
	enum { O_ALL = 256, O_PLUGIN, O_VFILE, O_THREADS };
	static const struct option lo[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "all-variants", no_argument, NULL, O_ALL },
		{ "plugin", required_argument, NULL, O_PLUGIN },
		{ "variants-file", required_argument, NULL, O_VFILE },
		{ "threads", required_argument, NULL, O_THREADS },
		{ "profile", required_argument, NULL, 'p' },
		{ "placement", required_argument, NULL, 'P' },
		{ "json", no_argument, NULL, 'j' },
		{ "comm", required_argument, NULL, 'c' },
		{ "hz", required_argument, NULL, 'z' },
		{ "cgroup-map", required_argument, NULL, 'g' },
		{ "sidecar", required_argument, NULL, 's' },
		{ "no-sidecar", no_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 'r' },
		{ "no-costs", no_argument, NULL, 'C' },
		{ "skip-early-blocks", no_argument, NULL, 'K' },
		{ "idle-pull", no_argument, NULL, 'I' },
		{ "settings", no_argument, NULL, 'T' },
		{ "top", required_argument, NULL, 't' },
		{ "dump-events", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct wl_options wo = { 0 };
	struct replay_config rc;
	struct replay_text_opts to = { .top = 10 };
	struct whatif_config wc = { 0 };
	struct whatif_selection runs = { 0 };
	const char **specs = NULL;
	unsigned int nr_specs = 0;
	const char *profile = "auto", *dump = NULL, *why = NULL;
	bool json = false, all = false;
	struct sr_error err = { 0 };
	struct replay_progress prog;
	struct variant_catalog *cat = NULL;
	struct wl_workload *wl = NULL;
	struct whatif_result *res = NULL;
	FILE *dumpf = NULL;
	int c, ret = SR_EXIT_FAIL;
	char *end;

	replay_config_default(&rc);
	/* at most one spec per argument */
	specs = calloc((size_t)argc + 1, sizeof(*specs));
	cat = variant_catalog_new(&err);
	if (!specs || !cat) {
		fprintf(stderr, "schedreplay replay: %s\n", cat ? "out of memory" : err.msg);
		free(specs);
		variant_catalog_free(cat);
		return SR_EXIT_FAIL;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'v': specs[nr_specs++] = optarg; break;
		case O_ALL: all = true; break;
		case O_PLUGIN:
			if (variant_catalog_load_plugin(cat, optarg, &err) < 0)
				goto fail;
			break;
		case O_VFILE:
			if (variant_catalog_load_json(cat, optarg, &err) < 0)
				goto fail;
			break;
		case O_THREADS:
			errno = 0;
			wc.threads = (unsigned int)strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || *optarg == '-' || wc.threads > 4096) {
				fprintf(stderr, "schedreplay replay: --threads wants 0..4096 (0: the CPUs), not '%s'\n", optarg);
				goto usage;
			}
			break;
		case 'p': profile = optarg; break;
		case 'P':
			if (!strcmp(optarg, "trace"))
				rc.placement = REPLAY_PLACEMENT_TRACE;
			else if (!strcmp(optarg, "model"))
				rc.placement = REPLAY_PLACEMENT_MODEL;
			else {
				fprintf(stderr, "schedreplay replay: --placement is trace or model, not '%s'\n", optarg);
				goto usage;
			}
			break;
		case 'j': json = true; break;
		case 'c': wo.comm_prefix = rc.comm_prefix = optarg; break;
		case 'z':
			wo.hz = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || wo.hz < 10 || wo.hz > 10000) {
				fprintf(stderr, "schedreplay replay: --hz wants a number in 10..10000, not '%s'\n", optarg);
				goto usage;
			}
			break;
		case 'g': wo.cgroup_map = optarg; break;
		case 's': wo.sidecar = optarg; break;
		case 'S': wo.no_sidecar = true; break;
		case 'r':
			rc.seed = strtoull(optarg, &end, 0);
			if (*end) {
				fprintf(stderr, "schedreplay replay: --seed wants a number, not '%s'\n", optarg);
				goto usage;
			}
			break;
		case 'C': rc.no_costs = true; break;
		case 'K': rc.skip_early_blocks = true; break;
		case 'I': rc.idle_pull = true; break;
		case 'T': to.show_settings = true; break;
		case 't': to.top = atoi(optarg); break;
		case 'D': dump = optarg; break;
		case 'h':
			usage(stdout);
			ret = SR_EXIT_OK;
			goto out;
		default:
			usage(stderr);
			goto usage_quiet;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "schedreplay replay: one TRACE.dat expected (see --help)\n");
		goto usage_quiet;
	}
	/* the runs: what was asked for, in the order asked, each once; else base */
	if (whatif_select(cat, false, all, specs, nr_specs, &runs, &err) < 0) {
		fprintf(stderr, "schedreplay replay: %s\n", err.msg);
		goto usage_quiet;
	}
	if (dump && runs.n > 1) {
		fprintf(stderr, "schedreplay replay: --dump-events writes one run's events; %u runs asked for\n",
			runs.n);
		goto usage_quiet;
	}
	if (strcmp(profile, "auto") && !(rc.profile = model_profile_find(profile))) {
		fprintf(stderr, "schedreplay replay: unknown profile '%s' (known:", profile);
		for (unsigned int i = 0; i < model_profile_count(); i++)
			fprintf(stderr, " %s", model_profile_name(model_profile_at(i)));
		fprintf(stderr, ", auto)\n");
		goto usage_quiet;
	}
	replay_progress_init(&prog, "extracting");
	wo.progress = replay_progress_extract;
	wo.progress_ctx = &prog;
	wl = wl_extract(argv[optind], &wo, &err);
	replay_progress_done(&prog);
	if (!wl)
		goto fail;
	if (dump && !(dumpf = fopen(dump, "w"))) {
		fprintf(stderr, "schedreplay replay: %s: %s\n", dump, strerror(errno));
		goto out;
	}
	rc.dump = dumpf;
	replay_progress_init(&prog, "replaying");
	rc.progress = replay_progress_sim;        /* used when there is one run */
	rc.progress_ctx = &prog;
	replay_profile_for(wl, &rc, &why);
	wc.replay = &rc;
	wc.sets = runs.sets;
	wc.nr_sets = runs.n;
	if (runs.n > 1) {
		wc.progress = runs_progress;
		wc.progress_ctx = &prog;
	}
	res = whatif_run(wl, &wc, &err);
	replay_progress_done(&prog);
	if (!res) {
		fprintf(stderr, "schedreplay replay: %s: %s\n", argv[optind], err.msg);
		goto out;
	}
	if (json) {
		if (print_json(wl, res, &rc, why) < 0)
			goto out;
	} else {
		to.profile_why = why;
		print_text(wl, res, &to);
	}
	ret = fflush(stdout) ? SR_EXIT_FAIL : SR_EXIT_OK;
	goto out;

usage:
	fprintf(stderr, "(see 'schedreplay replay --help')\n");
usage_quiet:
	ret = SR_EXIT_USAGE;
	goto out;
fail:
	fprintf(stderr, "schedreplay replay: %s\n", err.msg);
	ret = SR_EXIT_FAIL;
out:
	if (dumpf)
		fclose(dumpf);
	whatif_result_free(res);
	wl_free(wl);
	whatif_selection_release(&runs);
	variant_catalog_free(cat);
	free(specs);
	return ret;
}
