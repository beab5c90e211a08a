// SPDX-License-Identifier: GPL-2.0
/*
 * schedreplay whatif [options] TRACE
 *
 * One trace, many variants: extract the workload once, replay it under every
 * variant asked for (in parallel threads), print the seed-post tables, JSON
 * or an SVG of the latency CDFs.  See docs/variants.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <schedreplay/cli.h>
#include <schedreplay/profile.h>
#include <schedreplay/sim.h>
#include <schedreplay/whatif.h>
#include <schedreplay/workload.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: schedreplay whatif [options] TRACE\n\n"
		"Replay one trace under several model variants and compare them with each\n"
		"other and with what the trace measured: bookkeeping-call counts, wakeup\n"
		"latency percentiles (overall, per cgroup, per comm) and the predicted CPU\n"
		"share of the bookkeeping on a given machine.  base is always the first run.\n\n"
		"variants (default: --all-variants)\n"
		"  --variant A[,B...]     one run of the composition A+B (repeatable: one run each)\n"
		"  --all-variants         one run per variant (registered and loaded)\n"
		"  --plugin PATH          load variants from a plugin (.so)\n"
		"  --variants-file FILE   load variants from a JSON file\n"
		"replay\n"
		"  --profile auto|NAME    kernel profile (default auto: from the trace's kernel)\n"
		"  --placement trace|model  (default trace)\n"
		"  --comm PREFIX          latency of comms starting with PREFIX only\n"
		"  --hz N, --cgroup-map FILE, --sidecar FILE, --no-sidecar   machine facts\n"
		"  --seed N               the model's random seed\n"
		"  --threads N            parallel runs (default: the CPUs available)\n"
		"output\n"
		"  --machine NAME|FILE    cost model: one-socket (default), two-socket or a JSON file\n"
		"  --json                 JSON (the keys of 'schedreplay replay --json' plus\n"
		"                         cpu_share and change_pct per variant)\n"
		"  --svg FILE             latency CDF plot (log x axis), one curve per run + measured\n"
		"  --svg-cgroup PATH, --svg-comm COMM   plot one group instead of all wakeups\n"
		"  --top N                cgroups and comms shown in text (default 6; 0 = all)\n"
		"  --noise TRACE          another capture of the same workload (repeatable): mark\n"
		"                         latency changes within the measured run-to-run spread\n"
		"  --print-machine NAME   print a built-in machine file and exit\n");
}

struct progress_ctx {
	bool tty;
};

static void progress(void *ctx, unsigned int done, unsigned int total)
{
	const struct progress_ctx *p = ctx;

	if (!p->tty)
		return;
	fprintf(stderr, "\rwhat-if: %u/%u runs done%s", done, total, done == total ? "\n" : "");
	fflush(stderr);
}

#define MAX_RUNS 256
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

int cmd_whatif(int argc, char **argv)
{
	enum { O_ALL = 256, O_PLUGIN, O_VFILE, O_PROFILE, O_PLACEMENT, O_COMM, O_HZ, O_CGMAP,
	       O_SIDECAR, O_NO_SIDECAR, O_SEED, O_THREADS, O_MACHINE, O_JSON, O_SVG,
	       O_SVG_CGROUP, O_SVG_COMM, O_TOP, O_PRINT_MACHINE, O_NOISE };
	static const struct option opts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "all-variants", no_argument, NULL, O_ALL },
		{ "plugin", required_argument, NULL, O_PLUGIN },
		{ "variants-file", required_argument, NULL, O_VFILE },
		{ "profile", required_argument, NULL, O_PROFILE },
		{ "placement", required_argument, NULL, O_PLACEMENT },
		{ "comm", required_argument, NULL, O_COMM },
		{ "hz", required_argument, NULL, O_HZ },
		{ "cgroup-map", required_argument, NULL, O_CGMAP },
		{ "sidecar", required_argument, NULL, O_SIDECAR },
		{ "no-sidecar", no_argument, NULL, O_NO_SIDECAR },
		{ "seed", required_argument, NULL, O_SEED },
		{ "threads", required_argument, NULL, O_THREADS },
		{ "machine", required_argument, NULL, O_MACHINE },
		{ "json", no_argument, NULL, O_JSON },
		{ "svg", required_argument, NULL, O_SVG },
		{ "svg-cgroup", required_argument, NULL, O_SVG_CGROUP },
		{ "svg-comm", required_argument, NULL, O_SVG_COMM },
		{ "top", required_argument, NULL, O_TOP },
		{ "print-machine", required_argument, NULL, O_PRINT_MACHINE },
		{ "noise", required_argument, NULL, O_NOISE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *specs[MAX_RUNS];
	unsigned int nr_specs = 0;
	const char *noise_paths[MAX_NOISE];
	struct wl_workload *noise_wl[MAX_NOISE] = { NULL };
	const struct lat_machine *noise_lat[MAX_NOISE];
	unsigned int nr_noise = 0;
	bool all = false, json = false;
	const char *profile = NULL, *svg = NULL, *machine_name = "one-socket";
	struct whatif_report_opts ro = { .top = 6 };
	struct wl_options wo = { 0 };
	struct replay_config rc;
	struct whatif_config wc = { 0 };
	struct cost_machine machine;
	struct progress_ctx pc = { .tty = isatty(2) };
	struct sr_error err = { 0 };
	struct variant_catalog *cat = NULL;
	struct wl_workload *wl = NULL;
	struct whatif_result *res = NULL;
	struct whatif_selection runs = { 0 };
	unsigned long v;
	int opt, ret = SR_EXIT_FAIL;

	replay_config_default(&rc);
	cat = variant_catalog_new(&err);
	if (!cat)
		goto fail;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "v:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'v':
			if (nr_specs == MAX_RUNS) {
				fprintf(stderr, "schedreplay whatif: at most %d --variant\n", MAX_RUNS);
				goto usage_fail;
			}
			specs[nr_specs++] = optarg;
			break;
		case O_ALL:
			all = true;
			break;
		case O_PLUGIN:
			if (variant_catalog_load_plugin(cat, optarg, &err) < 0)
				goto fail;
			break;
		case O_VFILE:
			if (variant_catalog_load_json(cat, optarg, &err) < 0)
				goto fail;
			break;
		case O_PROFILE:
			profile = optarg;
			break;
		case O_PLACEMENT:
			if (!strcmp(optarg, "trace")) {
				rc.placement = REPLAY_PLACEMENT_TRACE;
			} else if (!strcmp(optarg, "model")) {
				rc.placement = REPLAY_PLACEMENT_MODEL;
			} else {
				fprintf(stderr, "schedreplay whatif: --placement trace|model, not '%s'\n",
					optarg);
				goto usage_fail;
			}
			break;
		case O_COMM:
			rc.comm_prefix = optarg;
			wo.comm_prefix = optarg;
			break;
		case O_HZ:
			if (parse_uint(optarg, 10000, &v) < 0 || v < 1) {
				fprintf(stderr, "schedreplay whatif: --hz takes 1..10000\n");
				goto usage_fail;
			}
			wo.hz = (unsigned int)v;
			break;
		case O_CGMAP:
			wo.cgroup_map = optarg;
			break;
		case O_SIDECAR:
			wo.sidecar = optarg;
			break;
		case O_NO_SIDECAR:
			wo.no_sidecar = true;
			break;
		case O_SEED:
			if (parse_uint(optarg, ~0ul, &v) < 0) {
				fprintf(stderr, "schedreplay whatif: --seed takes an unsigned integer\n");
				goto usage_fail;
			}
			rc.seed = v;
			break;
		case O_THREADS:
			if (parse_uint(optarg, 4096, &v) < 0) {
				fprintf(stderr, "schedreplay whatif: --threads takes 0..4096\n");
				goto usage_fail;
			}
			wc.threads = (unsigned int)v;
			break;
		case O_MACHINE:
			machine_name = optarg;
			break;
		case O_JSON:
			json = true;
			break;
		case O_SVG:
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
				fprintf(stderr, "schedreplay whatif: --top takes a count (0 = all)\n");
				goto usage_fail;
			}
			ro.top = (int)v;
			break;
		case O_PRINT_MACHINE: {
			const struct cost_machine *m = cost_machine_builtin(optarg);

			if (!m) {
				fprintf(stderr, "schedreplay whatif: no built-in machine '%s' (one-socket, two-socket)\n",
					optarg);
				goto usage_fail;
			}
			variant_catalog_free(cat);
			return cost_machine_write_json(m, stdout) < 0 ? SR_EXIT_FAIL : SR_EXIT_OK;
		}
		case O_NOISE:
			if (nr_noise == MAX_NOISE) {
				fprintf(stderr, "schedreplay whatif: at most %d --noise\n", MAX_NOISE);
				goto usage_fail;
			}
			noise_paths[nr_noise++] = optarg;
			break;
		case 'h':
			usage(stdout);
			variant_catalog_free(cat);
			return SR_EXIT_OK;
		default:
			goto usage_fail;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "schedreplay whatif: %s\n",
			optind == argc ? "a TRACE is needed" : "one TRACE only");
		goto usage_fail;
	}
	if (ro.svg_cgroup && ro.svg_comm) {
		fprintf(stderr, "schedreplay whatif: --svg-cgroup or --svg-comm, not both\n");
		goto usage_fail;
	}
	if (profile && strcmp(profile, "auto")) {
		rc.profile = model_profile_find(profile);
		if (!rc.profile) {
			fprintf(stderr, "schedreplay whatif: unknown profile '%s' (", profile);
			for (unsigned int i = 0; i < model_profile_count(); i++)
				fprintf(stderr, "%s%s", i ? ", " : "",
					model_profile_name(model_profile_at(i)));
			fprintf(stderr, ", auto)\n");
			goto usage_fail;
		}
	}
	if (cost_machine_resolve(machine_name, &machine, &err) < 0)
		goto fail;

	/* the runs: base first, then what was asked for (by default all), each once */
	if (whatif_select(cat, true, all || !nr_specs, specs, nr_specs, &runs, &err) < 0)
		goto fail;

	wl = wl_extract(argv[optind], &wo, &err);
	if (!wl)
		goto fail;
	/* the other captures: only their measured latency is used */
	for (unsigned int i = 0; i < nr_noise; i++) {
		struct wl_options no = wo;

		no.progress = NULL;
		noise_wl[i] = wl_extract(noise_paths[i], &no, &err);
		if (!noise_wl[i])
			goto fail;
		noise_lat[i] = wl_measured_latency(noise_wl[i]);
	}
	ro.noise = noise_lat;
	ro.nr_noise = nr_noise;
	ro.noise_paths = noise_paths;
	replay_profile_for(wl, &rc, &ro.profile_why);
	wc.replay = &rc;
	wc.sets = runs.sets;
	wc.nr_sets = runs.n;
	wc.machine = &machine;
	wc.progress = progress;
	wc.progress_ctx = &pc;
	res = whatif_run(wl, &wc, &err);
	if (!res)
		goto fail;
	if (svg) {
		FILE *f = fopen(svg, "w");

		if (!f) {
			sr_error_set(&err, errno, "%s: %s", svg, strerror(errno));
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
	if (fflush(stdout) != 0) {
		sr_error_set(&err, errno, "cannot write the report: %s", strerror(errno));
		goto fail;
	}
	ret = SR_EXIT_OK;
	goto out;

usage_fail:
	ret = SR_EXIT_USAGE;
	fprintf(stderr, "(see 'schedreplay whatif --help')\n");
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
	variant_catalog_free(cat);
	return ret;
}
