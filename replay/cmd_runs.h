/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command-line options the commands that replay share, in one table
 * (run_opt_table[] in cmd_runs.c: name, value, --help text and what it
 * sets), in three groups:
 *   RUN_OPTS_RUNS   which runs (variants, plugins, variant files, threads,
 *                   seed) of which trace's machine (HZ, cgroup map,
 *                   sidecar, comm filter): replay, whatif;
 *   RUN_OPTS_MODEL  how a trace is replayed (profile, placement, costs,
 *                   hand-offs, channels, ablations): replay, whatif and
 *                   validate; --help shows them in three sections (the
 *                   model, the replay's rules, the machine's mechanical
 *                   costs: the table's headings);
 *   RUN_OPTS_VARIANT  --variant alone, given once (one set for every run):
 *                   validate, whose --help words it for itself.
 * One table, so the commands cannot drift apart in names, ranges, messages
 * or help: a new option is one entry there, and every command of its group
 * takes it and documents it.
 *
 * Use: run_opts_init() with the command's groups and its own long options
 * (values below RUN_OPT_BASE), getopt_long() on o.lo, run_opts_parse() from
 * the `default:` case, run_opts_finish() after the loop, run_opts_help() in
 * --help, run_opts_release() at the end.
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

enum { RUN_OPTS_RUNS = 1, RUN_OPTS_MODEL = 2, RUN_OPTS_VARIANT = 4 };

/* getopt_long values of the shared options: RUN_OPT_BASE + their index */
#define RUN_OPT_BASE 1000

struct run_opts {
	const char *cmd;                 /* "replay", "whatif", "validate": for messages */
	unsigned int groups;             /* run_opts_init()'s */
	struct option *lo;               /* getopt_long's table: the shared options, the command's */
	struct wl_options wo;            /* extraction: hz, cgroup map, sidecar, comm, repair */
	struct replay_config rc;         /* profile, placement, comm, seed, the rules */
	unsigned int threads;            /* 0: the CPUs */
	struct variant_catalog *cat;     /* registered + loaded variants (RUN_OPTS_RUNS,
					    RUN_OPTS_VARIANT) */
	const char **specs;              /* the --variant arguments, in order */
	unsigned int nr_specs;
	const char **loaded;             /* the --plugin and --variants-file paths: inputs
					    an output file must not overwrite (a loaded
					    plugin truncated under its mapping: SIGBUS) */
	unsigned int nr_loaded;
	bool all;                        /* --all-variants */
	bool initial_pelt_given;         /* --initial-pelt given (run_warn_initial_pelt()) */
	const char *preempt_costs;       /* the --preempt-costs value given, "strict" for
					    --strict-preempt-costs; NULL: none */
	const char *profile;             /* "auto" or a profile name */
};

/*
 * Defaults; the long options of @groups followed by @own (ended by a zero
 * entry; its values below RUN_OPT_BASE) in o->lo; room for up to @argc
 * --variant specs.  -1 (message printed).
 */
int run_opts_init(struct run_opts *o, const char *cmd, int argc, unsigned int groups,
		  const struct option *own);

/*
 * Handle @opt (a getopt_long value) with @arg: 1 handled, 0 not a shared
 * option, -1 bad usage (one line printed: cli_usage(); exit SR_EXIT_USAGE),
 * -2 failure (message printed; exit SR_EXIT_FAIL), e.g. a plugin that does
 * not load.
 */
int run_opts_parse(struct run_opts *o, int opt, const char *arg);

/* After parsing: resolve the profile name.  -1 bad usage (message printed). */
int run_opts_finish(struct run_opts *o);

/* The --help lines of the options of @groups, in the table's order. */
/*
 * The table's options of @groups as --help prints them; without @all, a
 * section marked brief (the replay's rules) is one summary line naming
 * 'schedreplay @cmd --help-all'.
 */
void run_opts_help(FILE *f, unsigned int groups, const char *cmd, bool all);

/*
 * The runs asked for (whatif_select()): base first if @base_first; every
 * variant if --all-variants, or if @all_by_default and no --variant.
 */
int run_opts_select(const struct run_opts *o, bool base_first, bool all_by_default,
		    struct whatif_selection *out, struct sr_error *err);

/*
 * Before replaying @trace (@wl extracted from it): each run of @runs, its
 * variants' sched feature toggles then --sched-feature's (as model_new()
 * merges them), against the profile the trace resolves to (--profile auto:
 * the trace's kernel).  0, or -1 with one usage line naming the trace, its
 * profile and the feature (exit SR_EXIT_USAGE); it was the run's failure,
 * exit 1, after the extraction.
 */
int run_opts_check_features(const struct run_opts *o, const char *trace,
			    const struct wl_workload *wl, const struct whatif_selection *runs);

void run_opts_release(struct run_opts *o);

/*
 * The sidecar's lost-event counters where they disagree with the trace's
 * gaps (wl_lost_sidecar()): one "schedreplay CMD: TRACE: warning: ..." line
 * each on stderr.
 */
/*
 * replay and whatif replay what a trace with lost events holds (issue 5) and
 * say so: one line on stderr per trace the kernel marked lost events in,
 * saying what of the results they touch (@what; NULL: the replay's measured
 * and compared figures), then the sidecar's lost-event comparisons.  Their
 * exit status is unchanged (report's is 1 without --allow-lost).
 */
void run_warn_lost(const char *cmd, const char *trace, const struct wl_workload *wl,
		   const char *what);
void run_warn_lost_sidecar(const char *cmd, const char *trace, const struct wl_workload *wl);
/*
 * --initial-pelt kernel given, but the trace's sidecar has no usable start
 * snapshot (an older capture, a kernel without the file, --no-sidecar): one
 * "warning:" line saying the model's guess is used, which was silent (fuzz41).
 */
void run_warn_initial_pelt(const char *cmd, const char *trace, const struct run_opts *o,
			   const struct wl_workload *wl);
/* --clock-task traced where the trace has no sched_stat_runtime: a warning line */
void run_warn_clock_task(const char *cmd, const char *trace, const struct run_opts *o,
			 const struct wl_workload *wl);

/*
 * Whether the output file @out is one of the @n input files @in (the same
 * regular file or FIFO, by device and inode; NULL entries, missing files and
 * devices are none): `whatif --svg run.dat run.dat` overwrote the trace it
 * had just read.
 * Shared by report, replay and whatif.
 */
bool cli_output_is_input(const char *out, const char *const *in, size_t n);
/*
 * Whether @arg, the value of option @opt of command @cmd that names a file
 * (@what: "file") or a directory, is a name: '' is a usage error (one line,
 * false).  An empty name reached open() as "": "schedreplay replay: : No
 * such file or directory" did not say which option, and validate --dir ''
 * read "/thresholds.json".
 */
bool cli_path_arg(const char *cmd, const char *opt, const char *arg, const char *what);
/*
 * Whether the output file @out is the regular file or FIFO standard output
 * writes to (`replay --dump-samples out.txt TRACE > out.txt`): opened again,
 * it was written from offset 0 over the report, both cut at exit 0 (in a
 * FIFO, the two streams interleaved).  A pipe or a terminal is no clash.
 */
bool cli_output_is_stdout(const char *out);
/*
 * The usage error of output file @out, the value of option @opt of @cmd,
 * where it would be written over an input (@is_input: cli_output_is_input()
 * found it among the command's inputs) or over standard output's file
 * (cli_output_is_stdout()): one line printed, true; false if neither.
 * Shared by replay's dumps, report --samples and whatif --svg.
 */
bool cli_output_clash(const char *cmd, const char *opt, const char *out, bool is_input);
/*
 * The sidecar file a command reads for @trace: @sidecar when named, none under
 * --no-sidecar, else TRACE.json (sidecar_load_for_trace()'s), written to @buf.
 * The input list of cli_output_is_input().
 */
const char *cli_sidecar_read(char *buf, size_t size, const char *trace, const char *sidecar,
			     bool no_sidecar);
/*
 * 0 when everything written to @f has reached it (flushed), else the errno to
 * report: fflush()'s, or when only an earlier write failed (stdio dropped
 * that buffer) the write errno still in errno (ENOSPC, EDQUOT, EFBIG, EPIPE,
 * EIO), else EIO.  Call it right after the output, before anything else can
 * fail.
 */
int cli_output_error(FILE *f);
/*
 * Can the output file @path of option @opt be created or written, as far as
 * a check without opening it tells (a FIFO's open() would wait for its
 * reader): it exists and is writable and no directory, or its directory
 * exists and is writable. 0, or -1 after printing "schedreplay CMD: OPT
 * PATH: REASON", the line the later fopen() would have printed after the
 * whole extraction (fuzz41).
 */
int cli_output_check(const char *cmd, const char *opt, const char *path);

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
