/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command-line options `schedreplay replay` and `schedreplay whatif`
 * share: which runs (variants, plugins, variant files), which model
 * (profile, placement, seed) and which machine facts (HZ, cgroup map,
 * sidecar, comm filter).  One parser, so the two commands cannot drift apart
 * in names, ranges or messages.
 *
 * Use: put RUN_OPTS_LONG in the command's getopt_long table, call
 * run_opts_parse() from its `default:` case, run_opts_finish() after the
 * loop, run_opts_release() at the end.
 */
#ifndef SCHEDREPLAY_CMD_RUNS_H
#define SCHEDREPLAY_CMD_RUNS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <schedreplay/latency.h>
#include <schedreplay/sim.h>
#include <schedreplay/whatif.h>
#include <schedreplay/workload.h>

/* getopt_long values of the shared options (above any short option). */
enum {
	RUN_OPT_VARIANT = 1000, RUN_OPT_ALL, RUN_OPT_PLUGIN, RUN_OPT_VFILE, RUN_OPT_THREADS,
	RUN_OPT_PROFILE, RUN_OPT_PLACEMENT, RUN_OPT_COMM, RUN_OPT_HZ, RUN_OPT_CGMAP,
	RUN_OPT_SIDECAR, RUN_OPT_NO_SIDECAR, RUN_OPT_SEED, RUN_OPT_VCPU_PACK, RUN_OPT_NO_VCPU_PACK,
	RUN_OPT_STOP_AT_END, RUN_OPT_HANDOFF, RUN_OPT_CHANNELS, RUN_OPT_NO_BANDWIDTH,
	RUN_OPT_STRICT_COSTS, RUN_OPT_PREEMPT_COSTS, RUN_OPT_EARLY_WAKES,
};

#define RUN_OPTS_LONG                                                            \
	{ "variant", required_argument, NULL, RUN_OPT_VARIANT },                 \
	{ "all-variants", no_argument, NULL, RUN_OPT_ALL },                      \
	{ "plugin", required_argument, NULL, RUN_OPT_PLUGIN },                   \
	{ "variants-file", required_argument, NULL, RUN_OPT_VFILE },             \
	{ "threads", required_argument, NULL, RUN_OPT_THREADS },                 \
	{ "profile", required_argument, NULL, RUN_OPT_PROFILE },                 \
	{ "placement", required_argument, NULL, RUN_OPT_PLACEMENT },             \
	{ "comm", required_argument, NULL, RUN_OPT_COMM },                       \
	{ "hz", required_argument, NULL, RUN_OPT_HZ },                           \
	{ "cgroup-map", required_argument, NULL, RUN_OPT_CGMAP },                \
	{ "sidecar", required_argument, NULL, RUN_OPT_SIDECAR },                 \
	{ "no-sidecar", no_argument, NULL, RUN_OPT_NO_SIDECAR },                 \
	{ "seed", required_argument, NULL, RUN_OPT_SEED },                       \
	{ "vcpu-pack", no_argument, NULL, RUN_OPT_VCPU_PACK },                   \
	{ "no-vcpu-pack", no_argument, NULL, RUN_OPT_NO_VCPU_PACK },             \
	{ "stop-at-end", no_argument, NULL, RUN_OPT_STOP_AT_END },               \
	{ "no-bandwidth", no_argument, NULL, RUN_OPT_NO_BANDWIDTH },             \
	{ "handoff", required_argument, NULL, RUN_OPT_HANDOFF },               \
	{ "channels", required_argument, NULL, RUN_OPT_CHANNELS },               \
	{ "strict-preempt-costs", no_argument, NULL, RUN_OPT_STRICT_COSTS },     \
	{ "preempt-costs", required_argument, NULL, RUN_OPT_PREEMPT_COSTS },     \
	{ "early-wakes", required_argument, NULL, RUN_OPT_EARLY_WAKES }

struct run_opts {
	const char *cmd;                 /* "replay", "whatif": for messages */
	struct wl_options wo;            /* extraction: hz, cgroup map, sidecar, comm */
	struct replay_config rc;         /* profile, placement, comm, seed */
	unsigned int threads;            /* 0: the CPUs */
	struct variant_catalog *cat;     /* registered + loaded variants */
	const char **specs;              /* the --variant arguments, in order */
	unsigned int nr_specs;
	bool all;                        /* --all-variants */
	const char *profile;             /* "auto" or a profile name */
};

/* Defaults; room for up to @argc --variant specs.  -1 (message printed). */
int run_opts_init(struct run_opts *o, const char *cmd, int argc);

/*
 * Handle @opt (a getopt_long value) with @arg: 1 handled, 0 not a shared
 * option, -1 bad usage (message printed; exit SR_EXIT_USAGE), -2 failure
 * (message printed; exit SR_EXIT_FAIL), e.g. a plugin that does not load.
 */
int run_opts_parse(struct run_opts *o, int opt, const char *arg);

/* After parsing: resolve the profile name.  -1 bad usage (message printed). */
int run_opts_finish(struct run_opts *o);

/*
 * The runs asked for (whatif_select()): base first if @base_first; every
 * variant if --all-variants, or if @all_by_default and no --variant.
 */
int run_opts_select(const struct run_opts *o, bool base_first, bool all_by_default,
		    struct whatif_selection *out, struct sr_error *err);

void run_opts_release(struct run_opts *o);

/*
 * Whether the output file @out is one of the @n input files @in (the same
 * file, by device and inode; NULL entries and missing files are none):
 * `whatif --svg run.dat run.dat` overwrote the trace it had just read.
 * Shared by report, replay and whatif.
 */
bool cli_output_is_input(const char *out, const char *const *in, size_t n);
/*
 * The sidecar file a command reads for @trace: @sidecar when named, none under
 * --no-sidecar, else TRACE.json (sidecar_load_for_trace()'s), written to @buf.
 * The input list of cli_output_is_input().
 */
const char *cli_sidecar_read(char *buf, size_t size, const char *trace, const char *sidecar,
			     bool no_sidecar);
/*
 * 0 when everything written to @f has reached it (flushed), else the errno to
 * report: fflush()'s, or EIO when only an earlier write failed (its errno is
 * gone by now: strerror(errno) would name whatever ran since).
 */
int cli_output_error(FILE *f);

/*
 * The filters --comm @comm_prefix and --pid @pid (NULL and -1: none given)
 * against the tasks of the trace @path that @m (the measured latency machine,
 * finished, its filter set from the same options) saw: 0 if a task or a
 * sample matches, else -1 with one line on stderr naming the option, its
 * value and what the trace has.  A --comm naming no task of the trace printed
 * empty tables at exit 0.  @cmd: "report", "replay", "whatif".
 * Shared by report, replay and whatif.
 */
int cli_filter_check(const char *cmd, const char *path, const struct lat_machine *m,
		     const char *comm_prefix, int32_t pid);

#endif /* SCHEDREPLAY_CMD_RUNS_H */
