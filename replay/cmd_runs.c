// SPDX-License-Identifier: GPL-2.0
/* The options `replay` and `whatif` share: see cmd_runs.h. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <schedreplay/cli.h>
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

void cli_getopt_error(const char *cmd, int c, char *const *argv, const struct option *lo)
{
	fprintf(stderr, "schedreplay %s: %s\n", cmd, cli_getopt_what(c, argv, lo));
}

int run_opts_init(struct run_opts *o, const char *cmd, int argc)
{
	struct sr_error err = { 0 };

	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->profile = "auto";
	replay_config_default(&o->rc);
	/* at most one spec per argument */
	o->specs = calloc((size_t)argc + 1, sizeof(*o->specs));
	o->cat = variant_catalog_new(&err);
	if (!o->specs || !o->cat) {
		fprintf(stderr, "schedreplay %s: %s\n", cmd, o->cat ? "out of memory" : err.msg);
		run_opts_release(o);
		return -1;
	}
	return 0;
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
	fprintf(stderr, "schedreplay %s: %s, not '%s'\n", o->cmd, what, cli_esc(arg));
	return -1;
}

int run_opts_parse(struct run_opts *o, int opt, const char *arg)
{
	struct sr_error err = { 0 };
	unsigned long long v;

	switch (opt) {
	case RUN_OPT_VARIANT:
		/* "" ran base without a word; "a,,b" is already an error */
		if (!*arg)
			return bad(o, "--variant takes a name or a composition A,B", arg);
		o->specs[o->nr_specs++] = arg;
		return 1;
	case RUN_OPT_ALL:
		o->all = true;
		return 1;
	case RUN_OPT_PLUGIN:
	case RUN_OPT_VFILE:
		if ((opt == RUN_OPT_PLUGIN ? variant_catalog_load_plugin(o->cat, arg, &err)
					   : variant_catalog_load_json(o->cat, arg, &err)) < 0) {
			fprintf(stderr, "schedreplay %s: %s\n", o->cmd, err.msg);
			return -2;
		}
		return 1;
	case RUN_OPT_THREADS:
		if (parse_ulong(arg, 0, 4096, &v) < 0)
			return bad(o, "--threads takes 0..4096 (0: the CPUs)", arg);
		o->threads = (unsigned int)v;
		return 1;
	case RUN_OPT_PROFILE:
		o->profile = arg;
		return 1;
	case RUN_OPT_PLACEMENT:
		if (!strcmp(arg, "trace"))
			o->rc.placement = REPLAY_PLACEMENT_TRACE;
		else if (!strcmp(arg, "model"))
			o->rc.placement = REPLAY_PLACEMENT_MODEL;
		else
			return bad(o, "--placement is trace or model", arg);
		return 1;
	case RUN_OPT_COMM:
		o->wo.comm_prefix = o->rc.comm_prefix = arg;
		return 1;
	case RUN_OPT_HZ:
		/* the model's range (model_new()): 10..23 passed here and failed after extraction */
		if (parse_ulong(arg, 24, 10000, &v) < 0)
			return bad(o, "--hz takes 24..10000", arg);
		o->wo.hz = (unsigned int)v;
		return 1;
	case RUN_OPT_CGMAP:
		o->wo.cgroup_map = arg;
		return 1;
	case RUN_OPT_SIDECAR:
		o->wo.sidecar = arg;
		return 1;
	case RUN_OPT_NO_SIDECAR:
		o->wo.no_sidecar = true;
		return 1;
	case RUN_OPT_VCPU_PACK:
	case RUN_OPT_NO_VCPU_PACK:
		o->rc.vcpu_pack = opt == RUN_OPT_VCPU_PACK ? REPLAY_VCPU_PACK_ON : REPLAY_VCPU_PACK_OFF;
		return 1;
	case RUN_OPT_NO_BANDWIDTH:
		o->rc.no_bandwidth = true;
		return 1;
	case RUN_OPT_STRICT_COSTS:             /* the default's old switch, kept for scripts */
		o->wo.all_preempt_costs = false;
		return 1;
	case RUN_OPT_PREEMPT_COSTS:
		if (wl_preempt_costs_parse(arg, &o->wo.all_preempt_costs) < 0)
			return bad(o, "--preempt-costs takes strict or all", arg);
		return 1;
	case RUN_OPT_EARLY_WAKES:
		if (replay_early_wakes_parse(arg, &o->rc.early_wakes) < 0)
			return bad(o, "--early-wakes takes sample, nosample or nocost", arg);
		return 1;
	case RUN_OPT_STOP_AT_END:
		o->rc.stop_at_end = true;
		return 1;
	case RUN_OPT_HANDOFF:
		if (replay_handoff_parse(arg, &o->rc.handoff) < 0)
			return bad(o, "--handoff takes sleep, preempt, skip or yield", arg);
		return 1;
	case RUN_OPT_CHANNELS:
		if (replay_channels_parse(arg, &o->wo.channels, &o->rc.channel_strict) < 0)
			return bad(o, "--channels takes auto, off or strict", arg);
		return 1;
	case RUN_OPT_SEED: {
		char *end;

		errno = 0;
		o->rc.seed = strtoull(arg, &end, 0);
		if (errno || end == arg || *end || *arg == '-')
			return bad(o, "--seed takes an unsigned integer", arg);
		return 1;
	}
	}
	return 0;
}

int run_opts_finish(struct run_opts *o)
{
	/* as report: --no-sidecar silently won over the file named */
	if (o->wo.sidecar && o->wo.no_sidecar) {
		fprintf(stderr, "schedreplay %s: --sidecar and --no-sidecar exclude each other\n",
			o->cmd);
		return -1;
	}
	if (!strcmp(o->profile, "auto"))
		return 0;
	o->rc.profile = model_profile_find(o->profile);
	if (o->rc.profile)
		return 0;
	fprintf(stderr, "schedreplay %s: unknown profile '%s' (known:", o->cmd,
		cli_esc(o->profile));
	for (unsigned int i = 0; i < model_profile_count(); i++)
		fprintf(stderr, " %s", model_profile_name(model_profile_at(i)));
	fprintf(stderr, ", auto)\n");
	return -1;
}

int run_opts_select(const struct run_opts *o, bool base_first, bool all_by_default,
		    struct whatif_selection *out, struct sr_error *err)
{
	return whatif_select(o->cat, base_first, o->all || (all_by_default && !o->nr_specs),
			     o->specs, o->nr_specs, out, err);
}

void run_opts_release(struct run_opts *o)
{
	variant_catalog_free(o->cat);
	free(o->specs);
	o->cat = NULL;
	o->specs = NULL;
}

int cli_output_error(FILE *f)
{
	int earlier = ferror(f);

	errno = 0;
	if (fflush(f) != 0)
		return errno ? errno : EIO;
	return earlier ? EIO : 0;
}

bool cli_output_is_input(const char *out, const char *const *in, size_t n)
{
	struct stat so, si;

	if (!out || stat(out, &so) < 0 || !S_ISREG(so.st_mode))
		return false;
	for (size_t i = 0; i < n; i++)
		if (in[i] && stat(in[i], &si) == 0 && si.st_dev == so.st_dev &&
		    si.st_ino == so.st_ino)
			return true;
	return false;
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
