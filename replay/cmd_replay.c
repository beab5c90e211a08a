// SPDX-License-Identifier: GPL-2.0
/*
 * `schedreplay replay`: extract the workload of a trace, replay it through
 * the model with one variant, print predicted next to measured.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/cli.h>
#include <schedreplay/model.h>
#include <schedreplay/sim.h>
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
"  --variant SPEC      model variant(s), e.g. base, aaron-skip,no-tg-ratelimit\n"
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
"  --dump-events FILE  write every simulated event as text (debugging)\n"
"\n"
"Wakeup latency has the definition of 'schedreplay report' for both sides.\n");
}

int cmd_replay(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "variant", required_argument, NULL, 'v' },
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
	struct model_variant_set vs;
	const char *variant = "base", *profile = "auto", *dump = NULL, *why = NULL;
	bool json = false;
	struct sr_error err = { 0 };
	struct replay_progress prog;
	struct wl_workload *wl = NULL;
	struct replay_result *res = NULL;
	FILE *dumpf = NULL;
	int c, ret = SR_EXIT_FAIL;
	char *end;

	replay_config_default(&rc);
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'v': variant = optarg; break;
		case 'p': profile = optarg; break;
		case 'P':
			if (!strcmp(optarg, "trace"))
				rc.placement = REPLAY_PLACEMENT_TRACE;
			else if (!strcmp(optarg, "model"))
				rc.placement = REPLAY_PLACEMENT_MODEL;
			else {
				fprintf(stderr, "schedreplay replay: --placement is trace or model, not '%s'\n", optarg);
				return SR_EXIT_USAGE;
			}
			break;
		case 'j': json = true; break;
		case 'c': wo.comm_prefix = rc.comm_prefix = optarg; break;
		case 'z':
			wo.hz = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || wo.hz < 10 || wo.hz > 10000) {
				fprintf(stderr, "schedreplay replay: --hz wants a number in 10..10000, not '%s'\n", optarg);
				return SR_EXIT_USAGE;
			}
			break;
		case 'g': wo.cgroup_map = optarg; break;
		case 's': wo.sidecar = optarg; break;
		case 'S': wo.no_sidecar = true; break;
		case 'r':
			rc.seed = strtoull(optarg, &end, 0);
			if (*end) {
				fprintf(stderr, "schedreplay replay: --seed wants a number, not '%s'\n", optarg);
				return SR_EXIT_USAGE;
			}
			break;
		case 'C': rc.no_costs = true; break;
		case 'K': rc.skip_early_blocks = true; break;
		case 'I': rc.idle_pull = true; break;
		case 'T': to.show_settings = true; break;
		case 't': to.top = atoi(optarg); break;
		case 'D': dump = optarg; break;
		case 'h': usage(stdout); return SR_EXIT_OK;
		default: usage(stderr); return SR_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "schedreplay replay: one TRACE.dat expected (see --help)\n");
		return SR_EXIT_USAGE;
	}
	model_variant_set_init(&vs);
	if (model_variant_set_parse(&vs, variant, &err)) {
		fprintf(stderr, "schedreplay replay: %s\n", err.msg);
		return SR_EXIT_USAGE;
	}
	rc.variants = &vs;
	if (strcmp(profile, "auto") && !(rc.profile = model_profile_find(profile))) {
		fprintf(stderr, "schedreplay replay: unknown profile '%s' (known:", profile);
		for (unsigned int i = 0; i < model_profile_count(); i++)
			fprintf(stderr, " %s", model_profile_name(model_profile_at(i)));
		fprintf(stderr, ", auto)\n");
		return SR_EXIT_USAGE;
	}
	replay_progress_init(&prog, "extracting");
	wo.progress = replay_progress_extract;
	wo.progress_ctx = &prog;
	wl = wl_extract(argv[optind], &wo, &err);
	replay_progress_done(&prog);
	if (!wl) {
		fprintf(stderr, "schedreplay replay: %s\n", err.msg);
		return SR_EXIT_FAIL;
	}
	if (dump && !(dumpf = fopen(dump, "w"))) {
		fprintf(stderr, "schedreplay replay: %s: %s\n", dump, strerror(errno));
		goto out;
	}
	rc.dump = dumpf;
	replay_progress_init(&prog, "replaying");
	rc.progress = replay_progress_sim;
	rc.progress_ctx = &prog;
	replay_profile_for(wl, &rc, &why);
	res = replay_run(wl, &rc, &err);
	replay_progress_done(&prog);
	if (!res) {
		fprintf(stderr, "schedreplay replay: %s: %s\n", argv[optind], err.msg);
		goto out;
	}
	if (json) {
		json_t *root = json_object(), *vars = json_object(), *errs = json_object();

		if (!root || !vars || !errs || replay_json_add_workload(root, wl)) {
			fprintf(stderr, "schedreplay replay: out of memory\n");
			json_decref(root);
			json_decref(vars);
			json_decref(errs);
			goto out;
		}
		json_object_set_new(root, "profile", replay_json_profile(replay_result_profile(res), why));
		json_object_set_new(root, "placement",
				    json_string(rc.placement == REPLAY_PLACEMENT_TRACE ? "trace" : "model"));
		json_object_set_new(vars, vs.n ? vs.name : "base", replay_json_variant(res));
		json_object_set_new(root, "variants", vars);
		json_object_set_new(root, "measured", replay_json_measured(wl));
		json_object_set_new(errs, vs.n ? vs.name : "base", replay_json_errors(wl, res));
		json_object_set_new(root, "relative_errors", errs);
		if (json_dumpf(root, stdout, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10)) ||
		    fputc('\n', stdout) == EOF) {
			json_decref(root);
			fprintf(stderr, "schedreplay replay: writing the output failed\n");
			goto out;
		}
		json_decref(root);
	} else {
		const char *names[1] = { vs.n ? vs.name : "base" };
		const struct replay_result *runs[1] = { res };

		to.profile_why = why;
		replay_print_text(stdout, wl, names, runs, 1, &to);
	}
	ret = fflush(stdout) ? SR_EXIT_FAIL : SR_EXIT_OK;
out:
	if (dumpf)
		fclose(dumpf);
	replay_result_free(res);
	wl_free(wl);
	return ret;
}
