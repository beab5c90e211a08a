// SPDX-License-Identifier: GPL-2.0
/* The options `replay`, `whatif` and `validate` share: see cmd_runs.h. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <schedreplay/cli.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/model.h>
#include <schedreplay/profile.h>

#include "cmd_runs.h"

/* The long options of @lo whose name starts with @name's first @len bytes. */
static int long_matches(const struct option *lo, const char *name, size_t len,
			const struct option **match)
{
	int n = 0;

	for (; lo && lo->name; lo++) {
		if (strncmp(lo->name, name, len))
			continue;
		if (strlen(lo->name) == len) {    /* exact: never ambiguous */
			*match = lo;
			return 1;
		}
		if (!n++)
			*match = lo;
	}
	return n;
}

const char *cli_getopt_what(int c, char *const *argv, const struct option *lo)
{
	static char msg[CLI_ESC_MAX + 128];
	const char *arg = argv[optind - 1];
	const struct option *m = NULL;
	char shortopt[3] = { '-', (char)optopt, 0 };
	size_t len;
	int nm;

	/*
	 * Was it the long option argv[optind - 1]?  getopt_long() leaves optind
	 * on a group of short options while more follow in it ("-xj"), so
	 * argv[optind - 1] is then the argument before ("unknown option
	 * 'replay'"), and optopt the letter.  A long one sets optopt to 0
	 * (unknown, ambiguous) or to its value (a value missing, or given to
	 * an option without one: "--json=3").
	 */
	if (!strncmp(arg, "--", 2)) {
		len = strcspn(arg + 2, "=");
		nm = long_matches(lo, arg + 2, len, &m);
		if (c != ':' && optopt &&
		    !(arg[2 + len] == '=' && nm == 1 && m->has_arg == no_argument && m->val == optopt))
			nm = -1;    /* a short option after it */
	} else {
		nm = -1;
	}
	if (nm < 0)
		snprintf(msg, sizeof(msg), "%s '%s'",
			 c == ':' ? "a value is missing after option" : "unknown option",
			 cli_esc(shortopt));
	else if (c == ':' && nm == 1)
		/* "--vari" of "--variants-file": the option that takes the value */
		snprintf(msg, sizeof(msg), "a value is missing after option '--%s'", m->name);
	else if (c == ':')
		snprintf(msg, sizeof(msg), "a value is missing after option '%s'", cli_esc(arg));
	else if (optopt)
		snprintf(msg, sizeof(msg), "option '--%s' takes no value, not '%s'", m->name,
			 cli_esc(arg));
	else if (nm > 1)
		snprintf(msg, sizeof(msg), "ambiguous option '%s' (--%s, ...: spell it out)",
			 cli_esc(arg), m->name);
	else
		snprintf(msg, sizeof(msg), "unknown option '%s'", cli_esc(arg));
	return msg;
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "schedreplay%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'schedreplay%s%s --help')\n", cmd ? " " : "", cmd ? cmd : "");
	return SR_EXIT_USAGE;
}

void cli_getopt_error(const char *cmd, int c, char *const *argv, const struct option *lo)
{
	cli_usage(cmd, "%s", cli_getopt_what(c, argv, lo));
}

/* A decimal in [min, max] (no sign), or -1. */
static int parse_ulong(const char *s, unsigned long long min, unsigned long long max,
		       unsigned long long *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int bad(const struct run_opts *o, const char *what, const char *arg)
{
	cli_usage(o->cmd, "%s, not '%s'", what, cli_esc(arg));
	return -1;
}

/*
 * The options' actions (run_opt_table[].set): 0, -1 bad usage (one line
 * printed), -2 failure (one line printed).
 */
static int set_variant(struct run_opts *o, const char *arg)
{
	/* "" ran base without a word; "a,,b" is already an error */
	if (!*arg)
		return bad(o, "--variant takes a name or a composition A,B", arg);
	if (!(o->groups & RUN_OPTS_RUNS) && o->nr_specs) {     /* RUN_OPTS_VARIANT: one set */
		cli_usage(o->cmd, "--variant given twice ('%s', '%s'): give one set, e.g. "
			  "--variant a,b", cli_esc(o->specs[0]), cli_esc(arg));
		return -1;
	}
	o->specs[o->nr_specs++] = arg;
	return 0;
}

/* --plugin (@plugin) or --variants-file: its variants into the catalog */
static int load_variants(struct run_opts *o, const char *arg, bool plugin)
{
	struct sr_error err = { 0 };

	if ((plugin ? variant_catalog_load_plugin(o->cat, arg, &err) :
		      variant_catalog_load_json(o->cat, arg, &err)) < 0) {
		fprintf(stderr, "schedreplay %s: %s\n", o->cmd, err.msg);
		return -2;
	}
	o->loaded[o->nr_loaded++] = arg;
	return 0;
}

static int set_plugin(struct run_opts *o, const char *arg)
{
	return load_variants(o, arg, true);
}

static int set_vfile(struct run_opts *o, const char *arg)
{
	return load_variants(o, arg, false);
}

/* --sched-feature NAME|NO_NAME: the kernel's debugfs syntax; the profile is checked by model_new() */
static int set_sched_feature(struct run_opts *o, const char *arg)
{
	char msg[700];

	if (model_sched_feature_parse(&o->rc.sched_features, arg, msg, sizeof(msg)) < 0) {
		cli_usage(o->cmd, "--sched-feature: %s", msg);
		return -1;
	}
	return 0;
}

static int set_threads(struct run_opts *o, const char *arg)
{
	unsigned long long v;

	if (parse_ulong(arg, 0, 4096, &v) < 0)
		return bad(o, "--threads takes 0..4096 (0: the CPUs)", arg);
	o->threads = (unsigned int)v;
	return 0;
}

static int set_comm(struct run_opts *o, const char *arg)
{
	o->wo.comm_prefix = o->rc.comm_prefix = arg;
	return 0;
}

static int set_hz(struct run_opts *o, const char *arg)
{
	unsigned long long v;

	/* the model's range (model_new()): 10..23 passed here and failed after extraction */
	if (parse_ulong(arg, 24, 10000, &v) < 0)
		return bad(o, "--hz takes 24..10000", arg);
	o->wo.hz = (unsigned int)v;
	return 0;
}

static int set_newidle_ratio(struct run_opts *o, const char *arg)
{
	unsigned long long v;

	if (parse_ulong(arg, 0, 1024, &v) < 0)
		return bad(o, "--newidle-ratio takes 0..1024", arg);
	o->rc.newidle_ratio = (int)v;
	return 0;
}

static int set_seed(struct run_opts *o, const char *arg)
{
	char *end;

	errno = 0;
	o->rc.seed = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || *arg == '-')
		return bad(o, "--seed takes an unsigned integer", arg);
	return 0;
}

static int set_placement(struct run_opts *o, const char *arg)
{
	int v = replay_name_to_value(replay_placement_names, arg);

	if (v < 0)
		return bad(o, "--placement is trace or model", arg);
	o->rc.placement = (enum replay_placement)v;
	return 0;
}

/* both: the last one won, silently (as --sidecar with --no-sidecar, refused) */
static int vcpu_pack_given(struct run_opts *o, enum replay_vcpu_pack v)
{
	if (o->rc.vcpu_pack != REPLAY_VCPU_PACK_AUTO && o->rc.vcpu_pack != v)
		return cli_usage(o->cmd, "--vcpu-pack and --no-vcpu-pack exclude each other"), -1;
	o->rc.vcpu_pack = v;
	return 0;
}

static int set_vcpu_pack(struct run_opts *o, const char *arg)
{
	(void)arg;
	return vcpu_pack_given(o, REPLAY_VCPU_PACK_ON);
}

static int set_no_vcpu_pack(struct run_opts *o, const char *arg)
{
	(void)arg;
	return vcpu_pack_given(o, REPLAY_VCPU_PACK_OFF);
}
/*
 * --preempt-costs given twice, or with its old name --strict-preempt-costs,
 * with two values: the last one won, silently.  The same value twice is
 * harmless (scripts that add the old switch to an explicit strict).
 */
static int preempt_costs_given(struct run_opts *o, const char *arg)
{
	if (o->preempt_costs && strcmp(o->preempt_costs, arg))
		return cli_usage(o->cmd, "--preempt-costs %s and %s exclude each other "
				 "(--strict-preempt-costs is --preempt-costs strict)",
				 o->preempt_costs, arg), -1;
	o->preempt_costs = arg;
	return 0;
}

static int set_strict_costs(struct run_opts *o, const char *arg)
{
	(void)arg;
	/* the default's old switch, kept for scripts */
	if (preempt_costs_given(o, "strict") < 0)
		return -1;
	o->wo.all_preempt_costs = false;
	return 0;
}

/* not an AT_ENUM: a second, different value is refused (preempt_costs_given()) */
static int set_preempt_costs(struct run_opts *o, const char *arg)
{
	if (wl_preempt_costs_parse(arg, &o->wo.all_preempt_costs) < 0)
		return bad(o, "--preempt-costs takes strict or all", arg);
	return preempt_costs_given(o, o->wo.all_preempt_costs ? "all" : "strict");
}

/* not an AT_ENUM: one name sets two fields (strict: auto plus channel_strict) */
static int set_channels(struct run_opts *o, const char *arg)
{
	if (replay_channels_parse(arg, &o->wo.channels, &o->rc.channel_strict) < 0)
		return bad(o, "--channels takes auto, off or strict", arg);
	return 0;
}

static int set_state_placement(struct run_opts *o, const char *arg)
{
	(void)arg;
	o->rc.state_placement = o->rc.state_placement_forks = true;
	return 0;
}

/*
 * One shared option: --NAME [ARG] in @groups.  set() does what it says;
 * without one, the field at offset @at of struct run_opts (AT()) is set: a
 * bool to true (a flag: no @arg), a const char * to the value, or, with
 * @names, an enum to the value its table gives the name (AT_ENUM(); any
 * other name is a usage error that lists the table's, and --help shows
 * them as the value: "a|b|c", in the table's order).  help: its
 * --help text, lines without their indent, the first one after @synopsis
 * (default "--NAME ARG"); NULL: described in another's.  heading: a
 * section title printed before the option (the options after it, up to
 * the next heading, are that section's).
 */
struct run_opt {
	const char *name;
	const char *arg;                /* the value in --help; NULL: takes none (or @names) */
	unsigned int groups;
	int (*set)(struct run_opts *o, const char *arg);
	const struct replay_name *names;
	size_t at;
	const char *synopsis;
	const char *heading;
	bool brief;                     /* with .heading: the short --help summarises the section */
	const char *help;
};

#define AT(field) .at = offsetof(struct run_opts, field)
/* an enum set by @names: stored as an int, so it must be one in size (or no build) */
#define AT_ENUM(field) AT(field) + \
	0 * sizeof(char[sizeof(((struct run_opts *)0)->field) == sizeof(int) ? 1 : -1])

static const struct replay_name unseen_nomig_names[] = {
	{ "queued", WL_UNSEEN_NOMIG_QUEUED },
	{ "idle", WL_UNSEEN_NOMIG_IDLE },
	{ "all-idle", WL_UNSEEN_NOMIG_ALL_IDLE },
	{ NULL, 0 }
};

static const struct replay_name flush_scope_names[] = {
	{ "base", WL_FLUSH_SCOPE_BASE },
	{ "softirq", WL_FLUSH_SCOPE_SOFTIRQ },
	{ "migrate", WL_FLUSH_SCOPE_MIGRATE },
	{ "both", WL_FLUSH_SCOPE_BOTH },
	{ NULL, 0 }
};

static const struct run_opt run_opt_table[] = {
	{ "variant", "SPEC", RUN_OPTS_RUNS | RUN_OPTS_VARIANT, set_variant, .help =
	  "a run under SPEC: a variant (base, aaron-skip, ...:\n"
	  "'schedreplay variants') or a composition\n"
	  "aaron-skip,no-tg-ratelimit; repeatable: one run each" },
	{ "all-variants", NULL, RUN_OPTS_RUNS, AT(all), .help =
	  "one run per variant (registered, then loaded ones);\n"
	  "with --variant, its runs after them (one each)" },
	{ "plugin", "PATH", RUN_OPTS_RUNS, set_plugin, .help =
	  "load variants from a plugin (.so; docs/variants.md)" },
	{ "variants-file", "F", RUN_OPTS_RUNS, set_vfile, .help =
	  "load variants from a JSON file (flags and tunables)" },
	{ "threads", "N", RUN_OPTS_RUNS, set_threads, .help =
	  "parallel runs when there are several (default: the CPUs)" },
	{ "comm", "PREFIX", RUN_OPTS_RUNS, set_comm, .help =
	  "latency samples of comms starting with PREFIX only (exit 2\n"
	  "if no task of the trace has such a comm)" },
	{ "hz", "N", RUN_OPTS_RUNS, set_hz, .help =
	  "CONFIG_HZ of the traced machine (else sidecar, else inferred)" },
	{ "cgroup-map", "FILE", RUN_OPTS_RUNS, AT(wo.cgroup_map), .help =
	  "task groups: lines 'PID /cgroup/path', 'shares /path N' and\n"
	  "'quota /path QUOTA_US [PERIOD_US]' (CPU bandwidth limit, period\n"
	  "100000 by default; QUOTA_US -1: none, overriding the sidecar's);\n"
	  "paths as the kernel spells them (no '.' or '..'; CR LF read as LF)" },
	{ "sidecar", "FILE", RUN_OPTS_RUNS, AT(wo.sidecar), .help =
	  "the capture sidecar (default: TRACE.dat.json if present;\n"
	  "not with --no-sidecar; at most 16 MiB). CPUs it lists offline\n"
	  "are not simulated; an event on one is an error" },
	{ "no-sidecar", NULL, RUN_OPTS_RUNS, AT(wo.no_sidecar), .help =
	  "ignore any sidecar" },
	{ "buffer", "NAME", RUN_OPTS_RUNS, AT(wo.buffer), .help =
	  "replay buffer NAME of a trace.dat ('' = top level; default:\n"
	  "the buffer whose first records hold the most sched events;\n"
	  "the others with sched events are named in a note)" },
	{ "seed", "N", RUN_OPTS_RUNS, set_seed, .help =
	  "the model's random seed (default 1)" },
	{ "profile", "NAME", RUN_OPTS_MODEL, AT(profile), .help =    /* resolved: run_opts_finish() */
	  "kernel profile: auto (from the trace's kernel release, else its\n"
	  "age as the trace shows it, else 6.18), 6.18, 6.12, 6.5, 6.1" },
	{ "sched-feature", "[NO_]NAME", RUN_OPTS_MODEL, set_sched_feature, .help =
	  "set (NAME) or clear (NO_NAME) a scheduler feature over the\n"
	  "profile, as 'echo NO_NAME > /sys/kernel/debug/sched/features';\n"
	  "repeatable, later wins; only features of the profile's kernel\n"
	  "features.h the model implements both ways ('schedreplay\n"
	  "variants --sched-features' lists them)" },
	{ "placement", "MODE", RUN_OPTS_MODEL, set_placement, .help =
	  "trace (default): wakeups, forks and migrations as traced;\n"
	  "model: the model's select_task_rq and balancing" },
	{ "vcpu-pack", NULL, RUN_OPTS_MODEL, set_vcpu_pack,
	  .synopsis = "--vcpu-pack, --no-vcpu-pack", .help =
	  "the model's placement packs as the capture kernel's\n"
	  "sched_vcpu_pack (docs/model.md); default: on when the sidecar's\n"
	  "kernel cmdline has sched_vcpu_pack= and no --profile is given;\n"
	  "only where the model places tasks (--placement model,\n"
	  "--state-placement*, replay's --placement-check): no effect\n"
	  "otherwise" },
	{ "no-vcpu-pack", NULL, RUN_OPTS_MODEL, set_no_vcpu_pack, .help = NULL },
	{ "newidle-ratio", "N", RUN_OPTS_MODEL, set_newidle_ratio, .help =
	  "NI_RANDOM's starting newidle_ratio per domain, 0..1024: how\n"
	  "many of 1024 newidle balances run until the domain has seen\n"
	  "512 more (default: sd_init()'s 512, freshly built domains;\n"
	  "experimental: docs/validation-log.md, \"Newidle pulls and\n"
	  "NI_RANDOM's starting ratio\")" },
	{ "vcpu-pack-cut", NULL, RUN_OPTS_MODEL,
	  .names = replay_vcpu_pack_cut_names, AT_ENUM(rc.vcpu_pack_cut), .help =
	  "the packing's utilisation cut grows with how long the idle\n"
	  "CPU has idled, as the probe's sweep measured it (idle, the\n"
	  "default), or is its long-idle value (680) at every idle time\n"
	  "(flat; experimental: docs/validation-log.md, \"The packing's\n"
	  "idle-time cut\")" },
	{ "no-bandwidth", NULL, RUN_OPTS_MODEL, AT(rc.no_bandwidth), .help =
	  "ablation: groups with a CPU bandwidth limit (sidecar or\n"
	  "replay's and whatif's --cgroup-map quota) run unthrottled\n"
	  "(default: modelled)" },
	{ "handoff", NULL, RUN_OPTS_MODEL,
	  .names = replay_handoff_names, AT_ENUM(rc.handoff),
	  .heading =
	  "the replay's rules (how the trace's work is replayed where the trace does not\n"
	  "show what the kernel did; the defaults measured best, the others are kept for\n"
	  "comparison, each measured in docs/validation-log.md)",
	  .brief = true,
	  .help =
	  "a waker\n"
	  "the model did not preempt at its hand-off, its wakee queued\n"
	  "behind it: leaves runnable as if preempted by it on the\n"
	  "kernel's clock for that preemption (skip, the default: not\n"
	  "charged at the hand-off, no sched_stat_runtime there), the\n"
	  "same charged there (preempt), yields to it (yield_to(); EEVDF\n"
	  "profiles, on CFS it sleeps), or sleeps until the wakee passed\n"
	  "its block; experimental: at a one-way hand-off it writes on\n"
	  "up to its next wakeup, then hands over (after that wakeup:\n"
	  "writeon, before it: writeon-pre); or skip with the waker\n"
	  "charged up to its wakeup of the wakee where that wake came\n"
	  "before the wakee's block here, as the kernel's enqueue charged\n"
	  "it (skip-wake; experimental) (docs/replay.md, \"Hand-offs\")" },
	{ "exit-preempt", NULL, RUN_OPTS_MODEL,
	  .names = replay_exit_preempt_names, AT_ENUM(rc.exit_preempt), .help =
	  "a wakeup, tick or migration onto a CPU whose task is past its\n"
	  "exit's sched_move_task() (do_exit() ->\n"
	  "sched_autogroup_exit_task(), which set need_resched there)\n"
	  "arms no preemption: the task runs on to its final\n"
	  "__schedule() (defer, the default: no preemption point there\n"
	  "on a preempt=none kernel), or reschedules after the path's\n"
	  "cost (now, for comparisons; docs/replay.md, \"Exits\")" },
	{ "cpu-stalls", NULL, RUN_OPTS_MODEL,
	  .names = replay_cpu_stalls_names, AT_ENUM(rc.cpu_stalls), .help =
	  "a busy CPU that took no tick for over three tick periods, its\n"
	  "task's own charge ending the gap (a stalled vCPU): that task's\n"
	  "work (off), or taken out of its work and replayed at the\n"
	  "trace's times: the CPU runs nothing and takes no tick, its\n"
	  "current task is charged the stall as the kernel's was, a\n"
	  "preemption waits for the stall's end (traced, the default:\n"
	  "docs/replay.md, \"CPU stalls\"); steal: also the gaps whose\n"
	  "charge falls short of them (steal time clock_task left out),\n"
	  "replayed the same way for the steal, the CPU's clock_task and\n"
	  "PELT clock stopped then (the task is not charged it)" },
	{ "resched-at", NULL, RUN_OPTS_MODEL,
	  .names = replay_resched_at_names, AT_ENUM(rc.resched_at), .help =
	  "when a waker that its wakee preempts is switched out:\n"
	  "after the local preemption path's drawn cost (cost), or, where\n"
	  "the trace shows it inside a read or write\n"
	  "(syscalls:sys_{enter,exit}_{read,write}), at that call's exit in\n"
	  "its work, its return to user space, as on the preempt=none capture\n"
	  "kernel: its further wakes in the call come first, a block before\n"
	  "it wins (syscall-exit; experimental, measured, not adopted:\n"
	  "docs/replay.md, \"Mechanical costs\"), or, where the trace shows\n"
	  "this wakee preempting this waker, at the waker's traced switch\n"
	  "point, its traced run since the wakeup being the mechanism,\n"
	  "elsewhere as cost (traced, the default), or as traced and a task\n"
	  "with a switch armed is switched out at its next wake, taken as\n"
	  "its next system call's unless the trace shows it in the call of\n"
	  "the task's previous wake (next-wake; experimental)" },
	{ "tick-preempt-at", NULL, RUN_OPTS_MODEL,
	  .names = replay_tick_preempt_at_names, AT_ENUM(rc.tick_preempt_at), .help =
	  "where a tick's preemption lands in the work: at the simulated\n"
	  "tick's switch (model, the default), or also, where the trace\n"
	  "shows the task switched out runnable by a tick, at that point of\n"
	  "its work: the kernel's tick update_curr() is made there and the\n"
	  "task leaves if its request has run out (traced; experimental:\n"
	  "docs/replay.md, \"Mechanical costs\")" },
	{ "affinity", NULL, RUN_OPTS_MODEL,
	  .names = replay_affinity_names, AT_ENUM(rc.affinity), .help =
	  "where a task's allowed CPUs come from: the capture's\n"
	  "sched_setaffinity() calls and Cpus_allowed_list reads where the\n"
	  "trace has them (captured, the default; other traces as inferred),\n"
	  "or one traced CPU = pinned there, else free (inferred; the rule\n"
	  "before 5 Dec 2026): docs/replay.md, \"Affinity\"" },
	{ "exec-balance-at", NULL, RUN_OPTS_MODEL,
	  .names = replay_exec_balance_at_names, AT_ENUM(rc.exec_balance_at), .help =
	  "--placement model: where an exec's sched_exec() decides: at the\n"
	  "trace's sched_process_exec (exec, the default), or at the\n"
	  "kernel's point: the traced exec stopper move, else the trace's\n"
	  "measured lead before the exec (traced; experimental:\n"
	  "docs/replay.md, \"Exec balancing at the kernel's point\");\n"
	  "traced without --placement model is a usage error" },
	{ "wake-clock", NULL, RUN_OPTS_MODEL,
	  .names = replay_wake_clock_names, AT_ENUM(rc.wake_clock), .help =
	  "the clock a local wakeup (onto the waker's own CPU) reads:\n"
	  "the median delay the trace shows from the sched_waking to the\n"
	  "waker's sched_stat_runtime, where the capture kernel's enqueue\n"
	  "charged the waker (traced, the default: the waker is charged up\n"
	  "to there, a wakee it lets preempt it from there), or the\n"
	  "sched_waking's own (waking; docs/replay.md, \"Mechanical costs\")" },
	{ "block-lead", NULL, RUN_OPTS_MODEL,
	  .names = replay_block_lead_names, AT_ENUM(rc.block_lead), .help =
	  "the clock a block's __schedule() reads before its switch: the\n"
	  "median delay the trace shows from a blocking task's\n"
	  "sched_stat_runtime to its sched_switch (median, the default), or\n"
	  "that block's own (traced: the time from its charge to its switch,\n"
	  "an untraced stall included, is the next task's, as on the\n"
	  "capture kernel; experimental: docs/replay.md, \"Mechanical costs\")" },
	{ "block-clock", NULL, RUN_OPTS_MODEL,
	  .names = replay_block_clock_names, AT_ENUM(rc.block_clock), .help =
	  "a block whose __schedule() clock read falls at or before the\n"
	  "CPU's last clock update (an enqueue charged the blocker within\n"
	  "the lead before its switch): keeps that clock, its dequeue sees\n"
	  "no delta and emits no sched_stat_runtime (keep), or reads 1 ns\n"
	  "after it, as the kernel's update_rq_clock() under the rq lock\n"
	  "the enqueue held first (after, the default; docs/replay.md,\n"
	  "\"Mechanical costs\")" },
	{ "rt-charge", NULL, RUN_OPTS_MODEL,
	  .names = replay_rt_charge_names, AT_ENUM(rc.rt_charge), .help =
	  "an RT/DL task's block to idle: charged once (one, the default),\n"
	  "or a second time where the model's newidle pass of the pick\n"
	  "that follows ran update_blocked_averages(), as the kernel's\n"
	  "put_prev_task_rt() charges the rq clock that update moved\n"
	  "(newidle; the RT/DL sched_stat_runtime row only; experimental:\n"
	  "docs/replay.md, \"RT/DL blocks and the newidle pass\")" },
	{ "idle-tick", NULL, RUN_OPTS_MODEL,
	  .names = replay_idle_tick_names, AT_ENUM(rc.idle_tick), .help =
	  "an idle CPU's tick: stopped (stop, the default), or run where\n"
	  "the trace's idle interval holding it is at most one tick long\n"
	  "and ends at a wakeup raised on that CPU in interrupt context\n"
	  "(short: the kernel keeps the tick when its next timer is within\n"
	  "a tick, and the CPU stays out of the nohz idle mask; the idle\n"
	  "tick's periodic balance clears rd->overloaded), or at most one\n"
	  "tick long whatever wakeup ended it (any; experimental:\n"
	  "docs/replay.md, \"Idle ticks\")" },
	{ "wake-path", NULL, RUN_OPTS_MODEL,
	  .names = replay_wake_path_names, AT_ENUM(rc.wake_path), .help =
	  "a local wakeup whose trace shows the capture kernel enqueue a\n"
	  "fully asleep task (the waker's sched_stat_runtime in the first\n"
	  "half of sched_waking -> sched_wakeup) where the model still has\n"
	  "the task queued as delayed: requeued in place (model, the\n"
	  "default), or its delayed dequeue completed first at lag 0, as\n"
	  "the kernel's pick had done (traced; experimental:\n"
	  "docs/replay.md, \"Mechanical costs\")" },
	{ "flush-last", NULL, RUN_OPTS_MODEL,
	  .names = replay_flush_last_names, AT_ENUM(rc.flush_last), .help =
	  "the last wakeup of a wake-list flush, queued on its idle CPU at\n"
	  "the end the flush holds the idle exit to: switched in at that\n"
	  "end (held, the default: 0 us where it is picked), or the switch\n"
	  "comes no earlier than its own idle-path cost after it (cost) or\n"
	  "the trace's __schedule() clock lead (lead), as the kernel's idle\n"
	  "loop leaves only after the whole flush is queued (experimental:\n"
	  "docs/replay.md, \"Wake-list flushes\")" },
	{ "flush-scope", NULL, RUN_OPTS_MODEL,
	  .names = flush_scope_names, AT_ENUM(wo.flush_scope), .help =
	  "which wakes a wake-list flush holds its idle CPU's exit for:\n"
	  "wakes with no traced waker raised on that CPU for it in idle or\n"
	  "hardirq context (base, the default); softirq-context wakes on\n"
	  "the idle task too (softirq: irq_exit() runs them before the idle\n"
	  "loop's schedule_idle()); a wake migrating onto the CPU joins\n"
	  "instead of ending the run (migrate); both (experimental:\n"
	  "docs/replay.md, \"Wake-list flushes\")" },
	{ "behind-lead", NULL, RUN_OPTS_MODEL,
	  .names = replay_behind_lead_names, AT_ENUM(rc.behind_lead), .help =
	  "a wakee queued on a busy CPU whose current task blocks less than\n"
	  "a __schedule() clock lead later: switched in at the block (off,\n"
	  "the default), or that switch comes a lead after the wakeup, as\n"
	  "the block's rq lock follows the waker's enqueue: in a trace\n"
	  "without a clock lead (no sched_stat_runtime), its shortest\n"
	  "wakeup -> switch-in behind a running task (fallback), or in\n"
	  "every trace, with its clock lead where it has one (all)\n"
	  "(experimental: docs/replay.md, \"Behind a blocking current\")" },
	{ "initial-lag", NULL, RUN_OPTS_MODEL,
	  .names = replay_initial_lag_names, AT_ENUM(rc.initial_lag), .help =
	  "the lag of a task asleep at the trace start, and of a task\n"
	  "group's entity on a CPU, at its first placement: 0 (zero, the\n"
	  "default), or, where that is a local wakeup whose trace shows\n"
	  "whether the wakee preempted its waker, the lag closest to 0\n"
	  "within the kernel's clamp that makes the model's wakeup check\n"
	  "decide the same (infer; experimental: docs/replay.md, \"The\n"
	  "start of the capture\"; with a CFS profile (6.1) the vruntime\n"
	  "nearest its placement that does), or, with a CFS profile, a task\n"
	  "asleep at the start placed at its first wakeup as a long\n"
	  "sleeper, the full sleeper credit below min_vruntime, then as\n"
	  "infer where the trace shows the outcome (credit; as zero under\n"
	  "EEVDF; experimental), or as credit but the credit only for a\n"
	  "task whose first wakeup came a sleeper credit or more after the\n"
	  "start, or with half its traced sleep time or more in sleeps that\n"
	  "long, or no other sleep traced (credit-long; experimental)" },
	{ "initial-pelt", NULL, RUN_OPTS_MODEL,
	  .names = replay_initial_pelt_names, AT_ENUM(rc.initial_pelt), .help =
	  "the PELT of a task asleep at the trace start (or at the\n"
	  "start snapshot's read, woken before the trace): the kernel's own\n"
	  "se.avg from the sidecar's start snapshot, aged from its last\n"
	  "update (kernel; the guess where the sidecar has none), the\n"
	  "same attached at the start to the queue of the CPU that last\n"
	  "ran it, as the kernel's blocked load stays there (attached),\n"
	  "that and the read's threads the trace never shows held asleep\n"
	  "on their queues, a thread read runnable aged queued or running,\n"
	  "or on another CPU, to the start (all, the default),\n"
	  "or the model's guess, a new task's (guess) (docs/replay.md\n"
	  "\"The PELT of the tasks alive at the start\")" },
	{ "sched-debug-at", NULL, RUN_OPTS_MODEL,
	  .names = replay_sched_debug_at_names, AT_ENUM(rc.sched_debug_at), .help =
	  "where the task groups' comparison with the sidecar's\n"
	  "sched/debug reads probes the model for each CPU's block of a\n"
	  "read (the replay is unchanged): at the read's sched_clk (start),\n"
	  "CPU N at sched_clk + read_us * N / nr_cpus, the kernel printing\n"
	  "CPU by CPU (order), at the first moment in the read at which\n"
	  "the trace's runnable set equals the kernel's counts on every\n"
	  "group of that CPU, else start (agree), or that, else as order\n"
	  "(cpu, the default) (docs/replay.md \"Task groups against the\n"
	  "kernel's sched/debug\")" },
	{ "early-charge", NULL, RUN_OPTS_MODEL,
	  .names = replay_early_charge_names, AT_ENUM(rc.early_charge), .help =
	  "a wake that reaches its task before the block it ends (an\n"
	  "early wake: nothing enqueued) charges nobody (off, the default),\n"
	  "or, where the trace enqueued the task on the waker's CPU in the\n"
	  "waker's task group, charges the waker there, with its\n"
	  "sched_stat_runtime, as the capture kernel's enqueue did, where\n"
	  "the replay skips the block it ends (no wakeup of its own there;\n"
	  "local; experimental: docs/replay.md, \"Early wakes\")" },
	{ "idle-clock", NULL, RUN_OPTS_MODEL,
	  .names = replay_idle_clock_names, AT_ENUM(rc.idle_clock), .help =
	  "the clock a task woken onto an idle CPU is charged from:\n"
	  "the wakeup's enqueue, as the capture kernel, whose idle task is\n"
	  "on_rq so that wakeup_preempt() skips the next clock update\n"
	  "(skip), that except for a wakeup from another CPU, enqueued by\n"
	  "the kernel at the IPI (local, the default), or its switch-in\n"
	  "(update; docs/replay.md, \"Mechanical costs\")" },
	{ "others-pelt", NULL, RUN_OPTS_MODEL,
	  .names = replay_others_pelt_names, AT_ENUM(rc.others_pelt), .help =
	  "the model's RT/DL PELT signals (rq->avg_rt, avg_dl), decayed\n"
	  "by update_blocked_averages(), which keeps an idle CPU's blocked\n"
	  "load pending while they are non-zero: kept, as the kernel\n"
	  "(on, the default), or none, the model before 6 Dec 2026 (off;\n"
	  "docs/model.md, \"The other classes' PELT signals\")" },
	{ "cpu-capacity", NULL, RUN_OPTS_MODEL,
	  .names = replay_cpu_capacity_names, AT_ENUM(rc.cpu_capacity), .help =
	  "each CPU's capacity in the model's balancer, nohz kick and\n"
	  "wake_affine: the kernel's scale_rt_capacity(), 1024 less the\n"
	  "CPU's avg_rt and avg_dl (rt, the default), or 1024 for every\n"
	  "CPU, the model before 6 Dec 2026 (fixed; docs/model.md, \"CPU\n"
	  "capacity\")" },
	{ "clock-task", NULL, RUN_OPTS_MODEL,
	  .names = replay_clock_task_names, AT_ENUM(rc.clock_task), .help =
	  "the model's rq_clock_task(), which update_curr()'s charges,\n"
	  "slices, bandwidth and PELT read: the simulation's time (wall, the\n"
	  "default), or that less the time the trace shows each CPU's\n"
	  "clock_task left out so far, IRQ and steal time, from its charge\n"
	  "chains (traced; measured, not adopted: docs/replay.md,\n"
	  "\"Left-out clock_task time\")" },
	{ "migrate-resched", NULL, RUN_OPTS_MODEL,
	  .names = replay_migrate_resched_names, AT_ENUM(rc.migrate_resched), .help =
	  "a traced migration of a queued task (a balance pull) sets\n"
	  "need_resched where the model says so: armed on the destination\n"
	  "only (dest, the default: the source's waits for its task's next\n"
	  "operation), or on the source too, whose dequeue charged the running\n"
	  "task (its request or protection may end there: resched_curr()'s\n"
	  "IPI), after the remote preemption path's cost (both; experimental:\n"
	  "docs/replay.md, \"Mechanical costs\")" },
	{ "start-switch", NULL, RUN_OPTS_MODEL,
	  .names = replay_start_switch_names, AT_ENUM(rc.start_switch), .help =
	  "the simulation's switch out of idle at the trace's first\n"
	  "timestamp that puts a CPU's first task on it (the start state;\n"
	  "no trace holds the kernel's switch to the task it starts with)\n"
	  "is compared (count), counted apart with the lost-events\n"
	  "windows' events on a CPU whose window is at the start, its\n"
	  "stream begun after lost records (lost, the default), or on\n"
	  "every CPU (apart; docs/replay.md, \"Lost events\")" },
	{ "skip-early-blocks", NULL, RUN_OPTS_MODEL, AT(rc.skip_early_blocks), .help =
	  "a wake that arrives before its block skips the block\n"
	  "(default: the task blocks and is woken at once)" },
	{ "early-wakes", NULL, RUN_OPTS_MODEL,
	  .names = replay_early_wakes_names, AT_ENUM(rc.early_wakes), .help =
	  "the wakeup of such a block (a non-sync\n"
	  "wake: the task blocks and is woken at once, a stand-in\n"
	  "wakeup for writes the trace does not show) is a\n"
	  "latency sample (sample, the default), is not counted as one\n"
	  "(nosample: every event stays), costs no idle exit or\n"
	  "preemption cost (nocost), or comes after the sleep the trace\n"
	  "shows for that block, not at once (sleep); measured, not\n"
	  "adopted (docs/replay.md, \"Early wakes\")" },
	{ "handoff-replies", NULL, RUN_OPTS_MODEL,
	  .names = replay_handoff_replies_names, AT_ENUM(rc.handoff_replies), .help =
	  "the wakeup of a waker asleep in a hand-off wait (for its\n"
	  "wakee's block) by its\n"
	  "wakee's reply (the trace shows that waker runnable there, not\n"
	  "asleep: no wakeup) is a latency sample (sample) or not\n"
	  "(nosample: every event stays) (docs/replay.md, \"Hand-offs\")" },
	{ "standin-skip", NULL, RUN_OPTS_MODEL,
	  .names = replay_standin_skip_names, AT_ENUM(rc.standin_skip), .help =
	  "an early wake's stand-in wakeup (its task blocked and woken at\n"
	  "once) that preempts the task the\n"
	  "block's pick switched in: its clock skip and preemption as any\n"
	  "wakeup's (keep); a block of that task before the\n"
	  "preemption lands does not keep the skip, its dequeue charges its\n"
	  "run (drop); the preemption lands after the local path's cost,\n"
	  "the return to user space on its own CPU (local); both\n"
	  "(drop-local); drop only where the task preempted is the one\n"
	  "the block switched in (drop-own); a block reached before the\n"
	  "preemption lands is preempted there first (block-preempt), and\n"
	  "charged its run there (block-charge, the default;\n"
	  "docs/replay.md, \"Early wakes\")" },
	{ "channels", "auto|off|strict", RUN_OPTS_MODEL, set_channels, .help =
	  "pipes and sockets from the syscall events, where the\n"
	  "trace has them (auto: a traced sleep in a read or write is slept\n"
	  "only if the channel is still empty or full there; strict: every\n"
	  "read of an empty channel sleeps; off, the default: ignored;\n"
	  "docs/replay.md, \"Channels\")" },
	{ "channel-wakes", NULL, RUN_OPTS_MODEL, AT(rc.channel_wakes), .help =
	  "a reader with several writers is woken by whichever writer\n"
	  "comes first here, not the trace's (docs/replay.md)" },
	{ "channel-races", NULL, RUN_OPTS_MODEL, AT(rc.channel_races), .help =
	  "--channel-wakes, and a writer's wake that raced with its\n"
	  "reader's sleep in the trace is re-paired too (docs/replay.md)" },
	{ "channel-burst", NULL, RUN_OPTS_MODEL,
	  .names = replay_channel_burst_names, AT_ENUM(rc.channel_burst), .help =
	  "a reader with several writers asleep waiting\n"
	  "for its traced writer is freed by another writer's wake only\n"
	  "when that writer is running on the CPU the wakeup goes to\n"
	  "(place), on the CPU the reader last ran on (prev), or both\n"
	  "(own): the write burst on its CPU; off, the default: not (nothing else of\n"
	  "--channel-wakes; experimental, docs/replay.md)" },
	{ "oneway-no-wait", NULL, RUN_OPTS_MODEL, AT(rc.oneway_no_wait), .help =
	  "a waker the model does not preempt in a one-way flow writes\n"
	  "on instead of waiting for its wakee (docs/replay.md)" },
	{ "balance-attach", NULL, RUN_OPTS_MODEL,
	  .names = replay_balance_attach_names, AT_ENUM(rc.balance_attach), .help =
	  "placement trace: a traced\n"
	  "load-balance pass that moved several queued tasks (consecutive\n"
	  "sched_migrate_task between one pair of CPUs) moves each at its\n"
	  "own migration, in trace order (trace-order, the default), or\n"
	  "detaches them in trace order and attaches them last-detached\n"
	  "first, as the kernel's detach_tasks() + attach_tasks()\n"
	  "(kernel-order; measured, not adopted: docs/replay.md,\n"
	  "\"Balance passes\")" },
	{ "queued-moves", NULL, RUN_OPTS_MODEL,
	  .names = replay_queued_moves_names, AT_ENUM(rc.queued_moves), .help =
	  "placement trace: a traced migration of a task the\n"
	  "trace had queued is applied at its trace time to the simulated\n"
	  "state then (time, the default); wait: also to a task asleep here\n"
	  "in a hand-off wait (runnable in the kernel): the wake that\n"
	  "releases it places it there; position: wait, and one that comes\n"
	  "before the task has reached the point of its work where the trace\n"
	  "moved it waits for that point (experimental, measured, not\n"
	  "adopted: docs/replay.md, \"Traced migrations\")" },
	{ "newidle-pulls", NULL, RUN_OPTS_MODEL,
	  .names = replay_newidle_pulls_names, AT_ENUM(rc.newidle_pulls), .help =
	  "placement trace: a traced\n"
	  "newidle pull (a queued task's migration written on its destination\n"
	  "by the task that blocks there and switches to it) is applied at its\n"
	  "trace time (time, the default) or at the simulation's block of\n"
	  "that task, before the pick, within 200 us of it (block), or however\n"
	  "late it comes (hold) (measured, not adopted: docs/replay.md,\n"
	  "\"Traced newidle pulls\")" },
	{ "idle-pull", NULL, RUN_OPTS_MODEL, AT(rc.idle_pull), .help =
	  "placement trace: a CPU the simulation (not the trace) leaves idle\n"
	  "pulls a cache-cold waiting task (newidle balance)" },
	{ "nohz-pull", NULL, RUN_OPTS_MODEL, AT(rc.nohz_pull), .help =
	  "placement trace: an idle CPU's nohz idle balance, kicked by a busy\n"
	  "CPU's tick (nohz_balancer_kick()), moves the queued tasks the\n"
	  "model's sched_balance_rq() picks (default: only the trace's pulls;\n"
	  "experimental: docs/replay.md, \"Nohz idle pulls\")" },
	{ "state-placement", NULL, RUN_OPTS_MODEL, set_state_placement, .help =
	  "placement trace: a wakeup or fork whose simulated CPUs are not\n"
	  "idle/busy as the trace's were goes where the model's\n"
	  "select_task_rq_fair() puts it (--state-placement-wakes: wakeups only)" },
	{ "state-placement-wakes", NULL, RUN_OPTS_MODEL, AT(rc.state_placement) },
	{ "stop-at-end", NULL, RUN_OPTS_MODEL, AT(rc.stop_at_end), .help =
	  "stop at the trace end even if the traced work is not done (by\n"
	  "default the simulation runs on until it is, and the duration\n"
	  "row says how long that took; docs/replay.md)" },
	{ "no-platform-release", NULL, RUN_OPTS_MODEL, AT(wo.no_platform_release), .help =
	  "do not take the kernel release of LISA's platform.json beside a\n"
	  "trace without a sidecar or UNAME option (kernel.release, where it\n"
	  "names the trace's CPUs; read by default since 5 Dec 2026: the\n"
	  "profile under --profile auto; docs/replay.md, \"Machine facts\")" },
	{ "unseen-queued", NULL, RUN_OPTS_MODEL, AT(wo.unseen_queued), .help =
	  "a task first seen at its switch-in on a CPU that went idle\n"
	  "before is queued since the trace start (by default it was woken,\n"
	  "untraced, at that switch-in: docs/replay.md, \"Tasks first seen\n"
	  "at a switch-in\")" },
	{ "unseen-nomig", NULL, RUN_OPTS_MODEL,
	  .names = unseen_nomig_names, AT_ENUM(wo.unseen_nomig), .help =
	  "in a trace without sched_migrate_task, a task first seen at its\n"
	  "switch-in: queued there since the trace start (default), woken\n"
	  "untraced at that switch-in where its CPU was idle before (idle:\n"
	  "a switch to idle traced there, or the switch's prev is idle), or\n"
	  "only where every CPU was (all-idle); docs/replay.md, \"Tasks\n"
	  "first seen at a switch-in\"" },
	{ "ksoftirqd-ops", NULL, RUN_OPTS_MODEL, AT(wo.ksoftirqd_ops), .help =
	  "a softirq-context wake written while ksoftirqd/N is the CPU's\n"
	  "current is a WAKE op of that thread, at its point of ksoftirqd's\n"
	  "run (run_ksoftirqd()), not an external wake at its trace time\n"
	  "(experimental, measured, not adopted: docs/replay.md, \"Softirq\n"
	  "wakes in ksoftirqd\")" },
	{ "wakelist-ops", NULL, RUN_OPTS_MODEL, AT(wo.wakelist_ops), .help =
	  "in a trace without sched_waking, a wakeup traced on its idle\n"
	  "target CPU in idle or hardirq context (the wake list's IPI) is a\n"
	  "WAKE op of the one fair task current on another CPU that has\n"
	  "woken that task before, at its point of that task's run, not an\n"
	  "external wake at its trace time (experimental: docs/replay.md,\n"
	  "\"Wake-list wakes without sched_waking\")" },
	{ "handoff-signals", NULL, RUN_OPTS_MODEL, AT(wo.handoff_signals), .help =
	  "a waker preempted by its wakee that runs again before the wakee\n"
	  "blocked, the wakee having woken others meanwhile, waits for the\n"
	  "wakee's last such wake (a barrier's wake-all; experimental:\n"
	  "docs/replay.md, \"Hand-offs\")" },
	{ "exit-wake-sync", NULL, RUN_OPTS_MODEL, AT(wo.exit_wake_sync), .help =
	  "a wake whose waker exits right after it (a child's wake of\n"
	  "its parent from exit_notify(): __wake_up_parent(), WF_SYNC) is\n"
	  "sync as one whose waker sleeps: arriving early, it skips the\n"
	  "block it ends (do_wait() finds the zombie and does not sleep;\n"
	  "experimental: docs/replay.md, \"Early wakes\")" },
	{ "reply-in-run", NULL, RUN_OPTS_MODEL, AT(wo.reply_in_run), .help =
	  "a hand-off pair is a ping-pong only if the wakee's reply to\n"
	  "its waker's sleep came in the run the waker's wake began (no\n"
	  "sleep of the wakee between); a waker of a pair whose replies\n"
	  "all came later goes on if not preempted (experimental:\n"
	  "docs/validation-log.md, helper pw45)" },
	{ "later-handover", NULL, RUN_OPTS_MODEL, AT(rc.later_handover), .help =
	  "with --reply-in-run: a waker not preempted at a wake whose\n"
	  "wakee answers only after a sleep of its own hands over to it\n"
	  "(--handoff) unless it is eligible and slice-protected, which\n"
	  "the kernel's pick cannot switch out; alone it changes nothing\n"
	  "(experimental: docs/validation-log.md, helper mp45)" },
	{ "join-reply", NULL, RUN_OPTS_MODEL, AT(rc.join_reply), .help =
	  "a task that woke two tasks in one run and sleeps until one\n"
	  "answers is woken by whichever of the two finishes last, not\n"
	  "always by the trace's (a join: schedreplay-probe's message\n"
	  "thread and workers; experimental: docs/validation-log.md,\n"
	  "helper lag45)" },
	{ "no-repair", NULL, RUN_OPTS_MODEL, AT(wo.no_repair), .help =
	  "the raw event stream: the switches out of idle the kernel did\n"
	  "not trace are not restored (docs/report.md, \"Untraced switches\n"
	  "out of idle\")" },

	{ "no-costs", NULL, RUN_OPTS_MODEL, AT(rc.no_costs),
	  .heading =
	  "the machine's mechanical costs (calibrated from the trace, per path; identical\n"
	  "for every variant: docs/replay.md, \"Mechanical costs\")",
	  .help =
	  "ablation: no mechanical costs in the simulation" },
	{ "preempt-costs", "strict|all", RUN_OPTS_MODEL, set_preempt_costs, .help =
	  "strict (default): the cost calibration counts a\n"
	  "traced wakeup as queued, not a preemption, if a later wakeup\n"
	  "onto its CPU or a tick came before the switch and it waited\n"
	  "longer than any wakeup without one, and a preemption path\n"
	  "(local, remote) with fewer than 20 samples keeps its own\n"
	  "table; all: every preempting-path sample is a cost, and such\n"
	  "a path borrows the other's (docs/replay.md, \"Mechanical\n"
	  "costs\"); --strict-preempt-costs is accepted for strict" },
	{ "strict-preempt-costs", NULL, RUN_OPTS_MODEL, set_strict_costs, .help = NULL },
	{ "idle-residency", NULL, RUN_OPTS_MODEL,
	  .names = replay_idle_residency_names, AT_ENUM(rc.idle_residency), .help =
	  "on: a wakeup onto an idle CPU draws its idle-exit\n"
	  "cost from the samples of the CPU's idle residency band (how long\n"
	  "it had been idle: <5, 5-20, 20-50, 50-200, 200-1000, >1000 us;\n"
	  "adjacent bands merged until each has 20 samples) (default: off;\n"
	  "measured, not adopted: docs/replay.md, \"Idle residency\")" },
	{ "waker-costs", NULL, RUN_OPTS_MODEL,
	  .names = replay_waker_costs_names, AT_ENUM(rc.waker_costs), .help =
	  "placed: a waker's CPU time after a wakeup or fork loses the\n"
	  "calibrated cost of a remote wakeup (the IPI, the remote enqueue)\n"
	  "where the trace's was remote and the simulation's is local, and\n"
	  "gains it where the trace's was local and the simulation's remote,\n"
	  "when the simulation put the wakee on another CPU than the trace;\n"
	  "follow: also when the waker runs on another CPU than traced\n"
	  "(default: traced: the waker's runs as traced; docs/replay.md,\n"
	  "\"The waker's side\")" },
	{ "no-flush-hold", NULL, RUN_OPTS_MODEL, AT(rc.no_flush_hold), .help =
	  "ablation: a CPU that one traced interrupt queued several\n"
	  "wakeups onto while idle (a wake-list flush) leaves idle after\n"
	  "the first one's cost (default: only after the last of them,\n"
	  "as the kernel; docs/replay.md, \"Mechanical costs\")" },
	{ "ticks", NULL, RUN_OPTS_MODEL,
	  .names = replay_ticks_names, AT_ENUM(rc.ticks), .help =
	  "a busy CPU ticks every 1/HZ on its grid and a tick that\n"
	  "reschedules switches the timing line's slice-ending tick delay\n"
	  "later\n"
	  "(grid, the default), or at the trace's own tick of each period\n"
	  "where it shows one (a hardirq sched_stat_runtime of the running\n"
	  "task, up to 700 us late on the VM of the bundled traces) and\n"
	  "such a switch after a delay drawn from the trace's tick ->\n"
	  "switch delays\n"
	  "(traced; experimental: docs/replay.md, \"Traced ticks\")" },
	{ "tick-phase", NULL, RUN_OPTS_MODEL,
	  .names = replay_tick_phase_names, AT_ENUM(rc.tick_phase), .help =
	  "each CPU's tick phase: its phase of the tick grid that infers\n"
	  "HZ where that holds, else the mean of the full-period\n"
	  "sched_stat_runtime charges, else 0 (grid, the default), or that\n"
	  "mean, else 0 ns (zero, an older rule kept for comparison;\ndocs/replay.md, \"Tick\n"
	  "grid phase\")" },
};

#define NR_RUN_OPTS (sizeof(run_opt_table) / sizeof(run_opt_table[0]))

/*
 * @names' names in their table's order, @sep between two of them and @last
 * before the last one: "a|b|c" (--help), "a, b or c" (a usage error).
 */
static void names_list(char *buf, size_t size, const struct replay_name *names,
		       const char *sep, const char *last)
{
	size_t n = 0;

	buf[0] = 0;
	for (const struct replay_name *v = names; v->name && n < size; v++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
				      v == names ? "" : v[1].name ? sep : last, v->name);
}

/* "--NAME takes a, b or c, not 'ARG'": @d's names, in its table's order */
static int bad_name(const struct run_opts *o, const struct run_opt *d, const char *arg)
{
	char names[192], what[256];

	names_list(names, sizeof(names), d->names, ", ", " or ");
	snprintf(what, sizeof(what), "--%s takes %s", d->name, names);
	return bad(o, what, arg);
}

int run_opts_init(struct run_opts *o, const char *cmd, int argc, unsigned int groups,
		  const struct option *own)
{
	struct sr_error err = { 0 };
	bool variants = groups & (RUN_OPTS_RUNS | RUN_OPTS_VARIANT);
	size_t n = 0, nown = 0;

	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->groups = groups;
	o->profile = "auto";
	replay_config_default(&o->rc);
	while (own[nown].name)
		nown++;
	o->lo = calloc(NR_RUN_OPTS + nown + 1, sizeof(*o->lo));
	if (variants) {
		/* at most one spec per argument */
		o->specs = calloc((size_t)argc + 1, sizeof(*o->specs));
		o->loaded = calloc((size_t)argc + 1, sizeof(*o->loaded));
		o->cat = variant_catalog_new(&err);
	}
	if (!o->lo || (variants && (!o->specs || !o->loaded || !o->cat))) {
		fprintf(stderr, "schedreplay %s: %s\n", cmd,
			variants && !o->cat ? err.msg : "out of memory");
		run_opts_release(o);
		return -1;
	}
	for (size_t i = 0; i < NR_RUN_OPTS; i++) {
		const struct run_opt *d = &run_opt_table[i];

		if (d->groups & groups)
			o->lo[n++] = (struct option){ d->name, d->arg || d->names ?
						      required_argument : no_argument,
						      NULL, RUN_OPT_BASE + (int)i };
	}
	memcpy(o->lo + n, own, (nown + 1) * sizeof(*own));
	return 0;
}

int run_opts_parse(struct run_opts *o, int opt, const char *arg)
{
	const struct run_opt *d;
	int r;

	if (opt < RUN_OPT_BASE || opt >= RUN_OPT_BASE + (int)NR_RUN_OPTS)
		return 0;
	d = &run_opt_table[opt - RUN_OPT_BASE];
	/* --plugin, --variants-file, --cgroup-map, --sidecar */
	if (d->arg && (!strcmp(d->arg, "PATH") || !strcmp(d->arg, "F") || !strcmp(d->arg, "FILE"))) {
		char name[48];

		snprintf(name, sizeof(name), "--%s", d->name);
		if (!cli_path_arg(o->cmd, name, arg, "file"))
			return -1;
	}
	if (d->names) {
		int v = replay_name_to_value(d->names, arg);

		if (v < 0)
			return bad_name(o, d, arg);
		*(int *)((char *)o + d->at) = v;
		if (d->at == offsetof(struct run_opts, rc.initial_pelt))
			o->initial_pelt_given = true;
		return 1;
	}
	if (!d->set) {
		if (d->arg)
			*(const char **)((char *)o + d->at) = arg;
		else
			*(bool *)((char *)o + d->at) = true;
		return 1;
	}
	r = d->set(o, arg);
	return r < 0 ? r : 1;
}

/*
 * One option: its synopsis in a column of 20, the text re-flowed at column 22 up to 79
 * (a line break in the table's text is a space here); a synopsis of 20 or more has the
 * text start on the next line.
 */
static void run_opt_print(FILE *f, const struct run_opt *d)
{
	const char *h = d->help, *arg = d->arg;
	char left[112], names[96];    /* the longest: --standin-skip and its values */
	int col;

	if (d->names) {
		names_list(names, sizeof(names), d->names, "|", "|");
		arg = names;
	}
	if (d->synopsis)
		snprintf(left, sizeof(left), "%s", d->synopsis);
	else
		snprintf(left, sizeof(left), "--%s%s%s", d->name, arg ? " " : "", arg ? arg : "");
	if (strlen(left) < 20)
		col = fprintf(f, "  %-20s", left);
	else
		col = fprintf(f, "  %s\n%22s", left, "") - (int)strlen(left) - 3;
	for (bool first = true; *h; first = false) {
		size_t len;

		while (*h == ' ' || *h == '\n')
			h++;
		len = strcspn(h, " \n");
		if (!len)
			break;
		if (!first && col + 1 + (int)len > 79) {
			col = fprintf(f, "\n%22s", "") - 1;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", (int)len, h);
		h += len;
	}
	fputc('\n', f);
}

void run_opts_help(FILE *f, unsigned int groups, const char *cmd, bool all)
{
	bool hide = false;

	for (size_t i = 0; i < NR_RUN_OPTS; i++) {
		const struct run_opt *d = &run_opt_table[i];

		if (!(d->groups & groups))
			continue;
		if (d->heading) {
			fprintf(f, "%s\n", d->heading);
			hide = d->brief && !all;
			if (hide) {
				unsigned int n = 0;

				for (size_t j = i; j < NR_RUN_OPTS && (j == i ||
				     !run_opt_table[j].heading); j++)
					n += (run_opt_table[j].groups & groups) &&
					     run_opt_table[j].help;
				fprintf(f, "  %u options (--handoff, --channels, ...), each one rule where the\n"
					"  trace leaves a choice; their defaults are what validate measured\n"
					"  best: 'schedreplay %s --help-all' lists them\n", n, cmd);
			}
		}
		if (d->help && !hide)
			run_opt_print(f, d);
	}
}

int run_opts_finish(struct run_opts *o)
{
	/* as report: --no-sidecar silently won over the file named */
	char known[256] = "";

	/* --resched-at syscall-exit's positions: made only then (they split the RUN ops) */
	o->wo.syscall_marks = o->rc.resched_at == REPLAY_RESCHED_SYSCALL_EXIT;
	/* --tick-preempt-at traced's positions, the same */
	o->wo.tick_marks = o->rc.tick_preempt_at == REPLAY_TICK_PREEMPT_TRACED;
	o->wo.cpu_stalls = o->rc.cpu_stalls != REPLAY_CPU_STALLS_OFF;
	o->wo.cpu_steal = o->rc.cpu_stalls == REPLAY_CPU_STALLS_STEAL;
	/* --exec-balance-at traced's positions, the same (only where they are used) */
	o->wo.exec_marks = o->rc.placement == REPLAY_PLACEMENT_MODEL &&
			   o->rc.exec_balance_at == REPLAY_EXEC_BALANCE_TRACED;
	if (o->wo.sidecar && o->wo.no_sidecar) {
		cli_usage(o->cmd, "--sidecar and --no-sidecar exclude each other");
		return -1;
	}
	/*
	 * The options of the trace's placement ("placement trace:" in --help)
	 * did nothing with --placement model, without a word.
	 */
	if (o->rc.placement == REPLAY_PLACEMENT_MODEL) {
		const char *what = o->rc.state_placement ? (o->rc.state_placement_forks ?
			"--state-placement" : "--state-placement-wakes") :
			o->rc.idle_pull ? "--idle-pull" :
			o->rc.nohz_pull ? "--nohz-pull" :
			o->rc.queued_moves == REPLAY_QUEUED_MOVES_WAIT ? "--queued-moves wait" :
			o->rc.queued_moves == REPLAY_QUEUED_MOVES_POSITION ? "--queued-moves position" :
			o->rc.newidle_pulls == REPLAY_NEWIDLE_PULLS_BLOCK ? "--newidle-pulls block" :
			o->rc.newidle_pulls == REPLAY_NEWIDLE_PULLS_HOLD ? "--newidle-pulls hold" :
			o->rc.balance_attach == REPLAY_BALANCE_ATTACH_KERNEL ?
			"--balance-attach kernel-order" : NULL;

		if (what) {
			cli_usage(o->cmd, "%s is an option of --placement trace (the trace's placement); "
				  "with --placement model it does nothing", what);
			return -1;
		}
	}
	/*
	 * sched_exec() is --placement model's (sim.c runs it only then): under
	 * the trace's placement an exec stays on its traced CPU, and
	 * --exec-balance-at traced did nothing at exit 0 (inp38's fuzz round).
	 */
	if (o->rc.exec_balance_at == REPLAY_EXEC_BALANCE_TRACED &&
	    o->rc.placement != REPLAY_PLACEMENT_MODEL) {
		cli_usage(o->cmd, "--exec-balance-at traced moves --placement model's sched_exec(); "
			  "under --placement trace (the default) an exec stays on its traced CPU "
			  "and it does nothing");
		return -1;
	}
	if (!strcmp(o->profile, "auto"))
		return 0;
	o->rc.profile = model_profile_find(o->profile);
	if (o->rc.profile) {
		char msg[700];

		/* an explicit profile: a toggle its kernel lacks is bad usage (auto: per trace) */
		if (model_sched_features_check(o->rc.profile, &o->rc.sched_features, msg,
					       sizeof(msg)) < 0) {
			cli_usage(o->cmd, "--sched-feature: %s", msg);
			return -1;
		}
		return 0;
	}
	for (unsigned int i = 0; i < model_profile_count(); i++)
		snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s ",
			 model_profile_name(model_profile_at(i)));
	cli_usage(o->cmd, "unknown profile '%s' (known: %sauto)", cli_esc(o->profile), known);
	return -1;
}

int run_opts_select(const struct run_opts *o, bool base_first, bool all_by_default,
		    struct whatif_selection *out, struct sr_error *err)
{
	return whatif_select(o->cat, base_first, o->all || (all_by_default && !o->nr_specs),
			     o->specs, o->nr_specs, out, err);
}

/* The variants file or plugin @v came from (NULL: built in). */
static const char *variant_file(const struct variant_catalog *cat, const struct model_variant *v)
{
	for (unsigned int i = 0; i < variant_catalog_count(cat); i++) {
		const char *file = NULL;

		if (variant_catalog_at(cat, i, NULL, &file) == v)
			return file;
	}
	return NULL;
}

int run_opts_check_features(const struct run_opts *o, const char *trace,
			    const struct wl_workload *wl, const struct whatif_selection *runs)
{
	const char *why, *release = wl_facts(wl)->release;
	const struct model_profile *p = replay_profile_for(wl, &o->rc, &why);
	const char *name = model_sched_features_missing(p, &o->rc.sched_features);
	char src[600] = "--sched-feature";

	for (unsigned int r = 0; !name && r < runs->n; r++)
		for (unsigned int i = 0; !name && i < runs->sets[r].n; i++) {
			const struct model_variant *v = runs->sets[r].v[i];

			name = model_sched_features_missing(p, &v->sched_features);
			if (name) {
				const char *file = variant_file(o->cat, v);

				/* the file too: the check came after every file loaded */
				snprintf(src, sizeof(src), "%s%svariant '%s' (sched_features)",
					 file ? cli_esc(file) : "", file ? ": " : "",
					 cli_esc(v->name));
			}
		}
	if (!name)
		return 0;
	cli_usage(o->cmd, "%s: %s's kernel profile is %s (%s%s%s), whose "
		  "kernel/sched/features.h has no %s ('schedreplay variants --sched-features' "
		  "lists each profile's)", src, cli_esc(trace), model_profile_name(p),
		  o->rc.profile ? "--profile" : "--profile auto",
		  !o->rc.profile && release ? ", kernel " : "",
		  !o->rc.profile && release ? cli_esc(release) : "", name);
	return -1;
}

void run_opts_release(struct run_opts *o)
{
	variant_catalog_free(o->cat);
	free(o->specs);
	free(o->loaded);
	free(o->lo);
	o->cat = NULL;
	o->specs = NULL;
	o->loaded = NULL;
	o->lo = NULL;
}

/* An errno a failed write() leaves: ENOSPC, EDQUOT, EFBIG, EPIPE or EIO; else 0. */
static int write_errno(int e)
{
	return e == ENOSPC || e == EDQUOT || e == EFBIG || e == EPIPE || e == EIO ? e : 0;
}

int cli_output_error(FILE *f)
{
	int earlier = ferror(f), last = write_errno(errno);

	errno = 0;
	if (fflush(f) != 0)
		return errno ? errno : EIO;
	/*
	 * Only an earlier write failed (stdio dropped that buffer and went on):
	 * every later write to the stream failed again and set errno, and a
	 * library call that succeeds never clears it, so a write errno still
	 * there is the stream's; else EIO.
	 */
	return earlier ? (last ? last : EIO) : 0;
}

int cli_output_check(const char *cmd, const char *opt, const char *path)
{
	struct stat st;
	char *dir = NULL, *slash;
	int e = 0;

	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			e = EISDIR;
		else if (access(path, W_OK))
			e = errno;
	} else if (errno != ENOENT) {
		e = errno;
	} else if (!(dir = strdup(path))) {
		e = ENOMEM;
	} else {
		/* a dangling link's target is created by fopen(): its directory then */
		slash = strrchr(dir, '/');
		if (!slash)
			strcpy(dir, ".");
		else if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (stat(dir, &st))
			e = errno;
		else if (!S_ISDIR(st.st_mode))
			e = ENOTDIR;
		else if (access(dir, W_OK | X_OK))
			e = errno;
	}
	free(dir);
	if (!e)
		return 0;
	fprintf(stderr, "schedreplay %s: %s %s: %s\n", cmd, opt, cli_esc(path), strerror(e));
	return -1;
}

bool cli_path_arg(const char *cmd, const char *opt, const char *arg, const char *what)
{
	if (arg && *arg)
		return true;
	cli_usage(cmd, "%s takes a %s name, not ''", opt, what);
	return false;
}

bool cli_output_is_stdout(const char *out)
{
	struct stat so, si;

	return out && stat(out, &so) == 0 && (S_ISREG(so.st_mode) || S_ISFIFO(so.st_mode)) &&
	       fstat(STDOUT_FILENO, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino;
}

bool cli_output_clash(const char *cmd, const char *opt, const char *out, bool is_input)
{
	if (is_input)
		cli_usage(cmd, "%s %s is an input file; it would be overwritten", opt, cli_esc(out));
	else if (cli_output_is_stdout(out))
		cli_usage(cmd, "%s %s is the file standard output goes to; the two would be "
			  "written over each other", opt, cli_esc(out));
	else
		return false;
	return true;
}

bool cli_output_is_input(const char *out, const char *const *in, size_t n)
{
	struct stat so, si;

	/*
	 * A file or a FIFO: one FIFO under two names interleaved the two
	 * streams (or fed an input its output).  Not a device: two dumps into
	 * /dev/null are fine.
	 */
	if (!out || stat(out, &so) < 0 || !(S_ISREG(so.st_mode) || S_ISFIFO(so.st_mode)))
		return false;
	for (size_t i = 0; i < n; i++)
		if (in[i] && stat(in[i], &si) == 0 && si.st_dev == so.st_dev &&
		    si.st_ino == so.st_ino)
			return true;
	return false;
}

void run_warn_lost(const char *cmd, const char *trace, const struct wl_workload *wl,
		   const char *what)
{
	uint64_t n = wl_counts(wl)->lost_events;

	if (n)
		fprintf(stderr, "schedreplay %s: %s: warning: >= %llu events lost (ring-buffer "
			"overrun): %s\n", cmd, cli_esc(trace), (unsigned long long)n,
			what ? what : "the measured figures miss them, and the predicted events "
			"inside each CPU's lost-events window are not compared");
	run_warn_lost_sidecar(cmd, trace, wl);
	/* a trace.dat of several buffers: one is replayed, never a mix (buf52) */
	if (wl_trace_info(wl)->buffer_also)
		fprintf(stderr, "schedreplay %s: %s: note: replayed %s%s%s; not replayed, with sched "
			"events too: %s (--buffer NAME picks the buffer)\n", cmd, cli_esc(trace),
			wl_trace_info(wl)->buffer[0] ? "buffer '" : "the top-level buffer",
			cli_esc(wl_trace_info(wl)->buffer), wl_trace_info(wl)->buffer[0] ? "'" : "",
			cli_esc(wl_trace_info(wl)->buffer_also));
}

void run_warn_lost_sidecar(const char *cmd, const char *trace, const struct wl_workload *wl)
{
	const struct sidecar_lost_cmp *c = wl_lost_sidecar(wl);

	for (int i = 0; c && i < c->nr_text; i++)
		fprintf(stderr, "schedreplay %s: %s: warning: %s\n", cmd, cli_esc(trace),
			cli_esc(c->text[i]));
}

void run_warn_initial_pelt(const char *cmd, const char *trace, const struct run_opts *o,
			   const struct wl_workload *wl)
{
	const struct sidecar_sched *s0 = wl_sched_snapshot(wl, false);
	const char *sc = wl_sidecar_path(wl), *head = "schedreplay", *tail;
	const char *v = replay_value_to_name(replay_initial_pelt_names, o->rc.initial_pelt);

	if (!o->initial_pelt_given || o->rc.initial_pelt == REPLAY_INITIAL_PELT_GUESS ||
	    (s0 && s0->available))
		return;
	tail = "; the tasks asleep at the trace start take the model's guess";
	if (!sc)
		fprintf(stderr, "%s %s: %s: warning: --initial-pelt %s: no sidecar (none found, "
			"or --no-sidecar)%s\n", head, cmd, cli_esc(trace), v, tail);
	else if (!s0 || !s0->listed)
		fprintf(stderr, "%s %s: %s: warning: --initial-pelt %s: sidecar %s has no "
			"sched_at_start (an older capture)%s\n", head, cmd, cli_esc(trace), v,
			cli_esc(sc), tail);
	else
		fprintf(stderr, "%s %s: %s: warning: --initial-pelt %s: sidecar %s's "
			"sched_at_start is not available (%s)%s\n", head, cmd, cli_esc(trace), v,
			cli_esc(sc), cli_esc(s0->reason ? s0->reason : "not recorded"), tail);
}

/*
 * --clock-task traced on a trace without sched_stat_runtime: no charge
 * chain, so no left-out time (workload_steal.c) and the model's clock_task
 * is the simulation's time, as under wall - said nothing (fuzz42).
 */
void run_warn_clock_task(const char *cmd, const char *trace, const struct run_opts *o,
			 const struct wl_workload *wl)
{
	if (o->rc.clock_task != REPLAY_CLOCK_TASK_TRACED || wl_facts(wl)->has_stat_runtime)
		return;
	fprintf(stderr, "schedreplay %s: %s: warning: --clock-task traced: the trace has no "
		"sched_stat_runtime events, so no left-out clock_task time is measured: the model's "
		"clock_task is the simulation's time, as under wall\n", cmd, cli_esc(trace));
}

const char *cli_sidecar_read(char *buf, size_t size, const char *trace, const char *sidecar,
			     bool no_sidecar)
{
	if (sidecar || no_sidecar)
		return sidecar;
	snprintf(buf, size, "%s.json", trace);
	return buf;
}

static int cmp_comm(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct comms of @m's tasks (their last comm), 0 if out of memory. */
static size_t nr_comms(const struct lat_machine *m)
{
	size_t n = lat_nr_tasks(m), k = 0;
	const char **v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++)
		v[i] = lat_task_at(m, i)->comm;
	qsort(v, n, sizeof(*v), cmp_comm);
	for (size_t i = 0; i < n; i++)
		k += !i || strcmp(v[i - 1], v[i]);
	free(v);
	return k;
}

int cli_filter_check(const char *cmd, const char *path, const struct lat_machine *m,
		     const char *comm_prefix, int32_t pid)
{
	size_t n = lat_nr_tasks(m), len = comm_prefix ? strlen(comm_prefix) : 0, nr_pid = 0;
	const char *pid_comm = NULL;
	bool comm_hit = !len, both = false;

	if (!len && pid < 0)
		return 0;
	/* a sample of a comm the task left by exec matches too */
	if (lat_get_all(m, LAT_WAKEUP)->count || lat_get_all(m, LAT_RUNQ_WAIT)->count)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct lat_task *t = lat_task_at(m, i);
		bool c = !len || !strncmp(t->comm, comm_prefix, len);

		comm_hit |= c;
		if (pid < 0 || t->pid == pid) {
			both |= c;
			if (pid >= 0) {
				nr_pid++;
				pid_comm = t->comm;
			}
		}
	}
	if (both)
		return 0;
	/* with --pid too, the comm may be one a task of that pid had before an exec */
	if (!comm_hit && pid < 0)
		fprintf(stderr, "schedreplay %s: --comm '%s' matches no task in %s (%zu comms; see "
			"'schedreplay report')\n", cmd, cli_esc(comm_prefix), cli_esc(path), nr_comms(m));
	else if (!nr_pid)
		fprintf(stderr, "schedreplay %s: --pid %d matches no task in %s (%zu tasks; see "
			"'schedreplay report --by pid')\n", cmd, (int)pid, cli_esc(path), n);
	else
		fprintf(stderr, "schedreplay %s: --comm '%s' and --pid %d together match no task "
			"in %s (pid %d is '%s')\n", cmd, cli_esc(comm_prefix), (int)pid, cli_esc(path),
			(int)pid, cli_esc(pid_comm));
	return -1;
}
