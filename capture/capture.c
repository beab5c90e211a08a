// SPDX-License-Identifier: GPL-2.0
/*
 * One capture session, start to finish. The order matters:
 *
 *   validate everything that needs no privileges  (nothing changed on failure)
 *   create the instance (proves root + tracefs), remove leftovers of killed runs
 *   create the cgroups, fork the workloads held on a pipe, move them in
 *   snapshot the machine (tasks, cgroups, topology ...) before tracing starts
 *   start the per-CPU streamers, tracing on, start marker, release workloads
 *   wait: all commands exited | duration over | SIGINT/SIGTERM
 *   end marker, tracing off, stop the workloads' process groups
 *   drain the streamers, read the per-CPU lost-event counters
 *   assemble OUT.dat, read it back, write OUT.dat.json
 *   remove instance, cgroups, scratch files            (on every path)
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <schedreplay/sidecar.h>
#include <schedreplay/tracelibs.h>

#include "cap_local.h"

#ifndef SCHEDREPLAY_VERSION
#define SCHEDREPLAY_VERSION "0.1.0"
#endif

#define MARK_START "schedreplay-capture: start"
#define MARK_END "schedreplay-capture: end"

/* The events every capture records (issue 3; the model's inputs). */
static const char *const core_events[][2] = {
	{ "sched", "sched_switch" },       { "sched", "sched_waking" },
	{ "sched", "sched_wakeup" },       { "sched", "sched_wakeup_new" },
	{ "sched", "sched_process_fork" }, { "sched", "sched_process_exec" },
	{ "sched", "sched_process_exit" }, { "sched", "sched_migrate_task" },
	{ "sched", "sched_stat_runtime" }, { "cgroup", "cgroup_attach_task" },
	/* tells a fair task's priority-inheritance boost from a nice change */
	{ "sched", "sched_pi_setprio" },
	/*
	 * The last NR_AFFINITY_EVENTS, left out with --no-affinity: a task's
	 * sched_setaffinity() calls (who set whose mask, and whether it took:
	 * ret).  The mask itself is in user memory, which no tracepoint
	 * dereferences; the replay infers it (docs/replay.md, "Affinity").
	 * Rare and cheap: two records per call.
	 */
	{ "syscalls", "sys_enter_sched_setaffinity" },
	{ "syscalls", "sys_exit_sched_setaffinity" },
};
#define NR_CORE_EVENTS (sizeof(core_events) / sizeof(core_events[0]))
#define NR_AFFINITY_EVENTS 2

void cap_log(const struct cap_options *opt, bool warning, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!opt || !opt->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	opt->log(opt->log_ctx, warning, line);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- --group parsing and validation ---- */

void cap_group_release(struct cap_group *g)
{
	if (!g)
		return;
	free(g->name);
	free(g->command);
	memset(g, 0, sizeof(*g));
}

static bool valid_name(const char *s, size_t len)
{
	if (!len || len > 64 || s[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.-", s[i]))
			return false;
	return true;
}

/*
 * The kernel's limits on a CPU bandwidth limit (tg_set_cfs_bandwidth(), the
 * same for v1 cpu.cfs_quota_us/cpu.cfs_period_us and v2 cpu.max): period
 * 1 ms..1 s, quota at least 1 ms and at most max_cfs_runtime = MAX_BW us
 * (2^(64 - BW_SHIFT) - 1, BW_SHIFT 20), or none (-1 on v1, "max" on v2).
 */
#define CAP_BW_MIN_US 1000ULL
#define CAP_BW_MAX_PERIOD_US 1000000ULL
#define CAP_BW_MAX_QUOTA_US ((1ULL << 44) - 1)

/*
 * A number of us at *@pp, ended by one of @stops (or the string's end):
 * 0 and *@pp moved past it if it is in lo..hi, 1 if it is not (overflow
 * included), -1 if it is no plain decimal number.
 */
static int parse_us(const char **pp, const char *stops, unsigned long long lo,
		    unsigned long long hi, unsigned long long *out)
{
	const char *p = *pp;
	char *end;

	errno = 0;
	*out = strtoull(p, &end, 10);
	if (end == p || (errno && errno != ERANGE) || !isdigit((unsigned char)*p) ||
	    (*end && !strchr(stops, *end)))
		return -1;
	if (errno == ERANGE || *out < lo || *out > hi)
		return 1;
	*pp = end;
	return 0;
}

/*
 * quota=QUOTA_US[/PERIOD_US], QUOTA_US also -1 or max (no limit); *endp is
 * set after the value. Returns 0, or -1 with @err set.
 */
static int parse_quota(const char *spec, const char *val, const char **endp,
		       struct cap_group *g, struct sr_error *err)
{
	unsigned long long q, per;
	const char *p = val;
	int r;

	if (!strncmp(p, "max", 3) || !strncmp(p, "-1", 2)) {
		g->quota_us = -1;
		p += p[0] == 'm' ? 3 : 2;
	} else {
		r = parse_us(&p, "/=,", CAP_BW_MIN_US, CAP_BW_MAX_QUOTA_US, &q);
		if (r < 0)
			goto syntax;
		if (r > 0) {
			sr_error_set(err, ERANGE, "--group '%s': quota must be 1000..%llu us "
				     "(1 ms or more), or -1 or max for no limit", spec,
				     CAP_BW_MAX_QUOTA_US);
			return -1;
		}
		g->quota_us = (long long)q;
	}
	if (*p == '/') {
		p++;
		r = parse_us(&p, "=,", CAP_BW_MIN_US, CAP_BW_MAX_PERIOD_US, &per);
		if (r < 0)
			goto syntax;
		if (r > 0) {
			sr_error_set(err, ERANGE, "--group '%s': the quota period must be "
				     "1000..1000000 us (1 ms to 1 s)", spec);
			return -1;
		}
		g->period_us = (unsigned long)per;
	}
	if (*p != '=' && *p != ',')
		goto syntax;
	*endp = p;
	return 0;
syntax:
	sr_error_set(err, EINVAL, "--group '%s': expected quota=QUOTA_US[/PERIOD_US] (or -1 or "
		     "max) followed by =CMD, e.g. quota=20000/100000=CMD", spec);
	return -1;
}

int cap_group_parse(const char *spec, struct cap_group *g, struct sr_error *err)
{
	const char *colon = strchr(spec, ':');
	const char *eq = strchr(spec, '=');
	const char *name_end, *cmd;

	memset(g, 0, sizeof(*g));
	if (!eq) {
		sr_error_set(err, EINVAL, "--group '%s': expected NAME:shares=N=CMD, "
			     "NAME:weight=N=CMD, NAME:quota=Q[/P]=CMD or NAME=CMD", spec);
		return -1;
	}
	if (colon && colon < eq) {
		/* NAME:KEY=VALUE[,KEY=VALUE...]=CMD: the first '=' after a value
		 * starts the command, a ',' the next key */
		const char *key = colon + 1;
		bool seen_quota = false;

		name_end = colon;
		for (;;) {
			const char *keq = strchr(key, '='), *val;
			size_t klen;

			if (!keq) {
				sr_error_set(err, EINVAL, "--group '%s': expected KEY=VALUE after '%.*s'",
					     spec, (int)(key - spec), spec);
				return -1;
			}
			klen = (size_t)(keq - key);
			val = keq + 1;
			if (klen == 5 && !strncmp(key, "quota", 5)) {
				if (seen_quota) {
					sr_error_set(err, EINVAL, "--group '%s': quota given twice", spec);
					return -1;
				}
				seen_quota = true;
				if (parse_quota(spec, val, &val, g, err) < 0)
					return -1;
			} else if (klen == 6 && (!strncmp(key, "shares", 6) ||
						 !strncmp(key, "weight", 6))) {
				bool is_shares = key[0] == 's';
				unsigned long v;
				char *end;

				errno = 0;
				v = strtoul(val, &end, 10);
				if (end == val || (*end != '=' && *end != ',') || errno || *val == '-') {
					sr_error_set(err, EINVAL, "--group '%s': the value after %.*s= must "
						     "be a number followed by =CMD", spec, (int)klen, key);
					return -1;
				}
				if (g->shares || g->weight) {
					sr_error_set(err, EINVAL, "--group '%s': give one of shares or "
						     "weight, once", spec);
					return -1;
				}
				if (is_shares) {
					if (v < 2 || v > 262144) {
						sr_error_set(err, ERANGE, "--group '%s': shares must be "
							     "2..262144", spec);
						return -1;
					}
					g->shares = v;
				} else {
					if (v < 1 || v > 10000) {
						sr_error_set(err, ERANGE, "--group '%s': weight must be "
							     "1..10000", spec);
						return -1;
					}
					g->weight = v;
				}
				val = end;
			} else {
				sr_error_set(err, EINVAL, "--group '%s': unknown key '%.*s' (shares, weight "
					     "or quota)", spec, (int)klen, key);
				return -1;
			}
			if (*val == '=') {
				cmd = val + 1;
				break;
			}
			key = val + 1;   /* after the ',' */
		}
	} else {
		name_end = eq;
		cmd = eq + 1;
	}
	if (!valid_name(spec, (size_t)(name_end - spec))) {
		sr_error_set(err, EINVAL, "--group '%s': the name must be 1-64 characters of "
			     "[A-Za-z0-9_.-]", spec);
		return -1;
	}
	cmd += strspn(cmd, " \t");
	if (!*cmd) {
		sr_error_set(err, EINVAL, "--group '%s': no command after '='", spec);
		return -1;
	}
	g->name = strndup(spec, (size_t)(name_end - spec));
	g->command = strdup(cmd);
	if (!g->name || !g->command) {
		cap_group_release(g);
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	return 0;
}

static int check_command(const char *what, char **argv, struct sr_error *err)
{
	if (cap_command_check(argv[0]) < 0) {
		sr_error_set(err, errno, "%s: command '%s' not found or not executable", what,
			     argv[0]);
		return -1;
	}
	return 0;
}

static bool valid_event(const char *ev)
{
	const char *colon = strchr(ev, ':');

	if (!colon || colon == ev || !colon[1] || strchr(colon + 1, ':'))
		return false;
	for (const char *p = ev; *p; p++)
		if (p != colon && !isalnum((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

int cap_validate(const struct cap_options *opt, struct sr_error *err)
{
	char dir[4096];
	struct stat st;
	size_t i, j;

	if (!opt->output || !*opt->output) {
		sr_error_set(err, EINVAL, "no output file (-o OUT.dat)");
		return -1;
	}
	/*
	 * A directory (or "DIR/") passed the check below and the capture ran its
	 * whole workload before writing OUT failed: say so before recording.
	 */
	if ((stat(opt->output, &st) == 0 && S_ISDIR(st.st_mode)) ||
	    opt->output[strlen(opt->output) - 1] == '/') {
		sr_error_set(err, EISDIR, "%s: is a directory, not a trace file name (-o OUT.dat)",
			     opt->output);
		return -1;
	}
	/*
	 * The file is written next to OUT and renamed over it: a FIFO or a
	 * device node (-o /dev/null as root) would be replaced by a regular
	 * file, not written into.
	 */
	if (stat(opt->output, &st) == 0 && !S_ISREG(st.st_mode)) {
		sr_error_set(err, EINVAL, "%s: is not a regular file (a FIFO or device node would "
			     "be replaced, not written into); name a trace file with -o", opt->output);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", opt->output);
	if (access(dirname(dir), W_OK) < 0) {
		snprintf(dir, sizeof(dir), "%s", opt->output);
		sr_error_set(err, errno, "%s: cannot write into %s: %s", opt->output, dirname(dir),
			     strerror(errno));
		return -1;
	}
	if (isnan(opt->duration_s) || opt->duration_s < 0 || opt->duration_s > 86400) {
		sr_error_set(err, EINVAL, "duration must be between 0 and 86400 s");
		return -1;
	}
	if (!opt->nr_groups && !opt->argv && opt->duration_s == 0) {
		sr_error_set(err, EINVAL, "nothing to record: give a command, --group or --duration");
		return -1;
	}
	for (i = 0; i < opt->nr_groups; i++) {
		const struct cap_group *g = &opt->groups[i];
		bool shell;
		char **argv;
		int ret;

		/* a library caller's group does not come through cap_group_parse */
		if ((g->quota_us != 0 && g->quota_us != -1 &&
		     (g->quota_us < (long long)CAP_BW_MIN_US ||
		      (unsigned long long)g->quota_us > CAP_BW_MAX_QUOTA_US)) ||
		    (g->period_us && (g->period_us < CAP_BW_MIN_US ||
				      g->period_us > CAP_BW_MAX_PERIOD_US))) {
			sr_error_set(err, ERANGE, "--group %s: quota %lld us per period %lu us is "
				     "outside the kernel's limits (quota 1000..%llu or -1, period "
				     "1000..1000000)", g->name, g->quota_us, g->period_us,
				     CAP_BW_MAX_QUOTA_US);
			return -1;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(opt->groups[j].name, g->name)) {
				sr_error_set(err, EINVAL, "--group name '%s' given twice", g->name);
				return -1;
			}
		argv = cap_command_argv(g->command, &shell);
		if (!argv) {
			sr_error_set(err, EINVAL, "--group %s: empty command", g->name);
			return -1;
		}
		ret = check_command(g->name, argv, err);
		cap_argv_free(argv);
		if (ret < 0)
			return -1;
	}
	if (opt->argv && (!opt->argv[0] || check_command("command", opt->argv, err) < 0)) {
		if (!opt->argv[0])
			sr_error_set(err, EINVAL, "empty command after --");
		return -1;
	}
	for (i = 0; i < opt->nr_events; i++)
		if (!valid_event(opt->events[i])) {
			sr_error_set(err, EINVAL, "--event '%s': expected SYSTEM:EVENT", opt->events[i]);
			return -1;
		}
	return 0;
}

/* ---- the session ---- */

struct session {
	const struct cap_options *opt;
	char run[64];
	char *tmp_prefix;
	struct cap_trace *t;
	struct cap_funcs *funcs;
	struct cap_cgroup_host cg;
	bool cg_created;
	char track[4096];          /* the tracking cgroup's hierarchy (cap_track_detect()) */
	bool track_created;
	struct cap_proc *procs;
	size_t nr_procs;
	struct cap_cgroup_set *set;   /* per group: what the kernel kept */
	struct cap_cpu_stats *stats;
	json_t *side;              /* the sidecar under construction */
	json_t *tasks;
	json_t *events, *events_missing;
	double t_start, t_end;
	time_t wall_start;         /* for the sidecar: when, in calendar time */
	bool interrupted, aborted;
	uint64_t trace_id;
	int claim_fd;              /* OUT.partial, locked: claim_output() */
	struct stat claim_st;      /* ... its file */
	char partial[4200];        /* ... its path */
	struct cap_sched_debug sd; /* debugfs's sched/debug (cap_sched_debug.c) */
	json_t *sd_reads;          /* its reads, for the sidecar's "sched_debug" */
	char sd_why[512];          /* why there are none */
};

/* OUT.partial is still the file claim_output() locked */
static bool partial_is_ours(const struct session *s)
{
	struct stat st;

	return stat(s->partial, &st) == 0 && st.st_dev == s->claim_st.st_dev &&
	       st.st_ino == s->claim_st.st_ino;
}

/*
 * Claim OUT for this capture: OUT.partial, created if need be and held
 * under flock() until the session ends.  The trace.dat is assembled in that
 * file and renamed to OUT, the lock going with it.  A second capture to the
 * same -o finds it locked and stops before it touches anything: until 3 Dec
 * 2026 each removed the other's OUT.partial at its start ("cannot rename
 * OUT.partial", or a trace and a sidecar of two different captures).  A
 * partial file nobody holds is a killed capture's: taken over (truncated
 * when the trace is written).  The file is checked to be still the one
 * locked: one whose holder removed it between our open() and flock() is not.
 */
static int claim_output(struct session *s, struct sr_error *err)
{
	const char *path = s->partial;

	snprintf(s->partial, sizeof(s->partial), "%s.partial", s->opt->output);
	for (int tries = 0; tries < 8; tries++) {
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644), e;

		if (fd < 0) {
			sr_error_set(err, errno, "%s: %s", path, strerror(errno));
			return -1;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			e = errno;
			close(fd);
			if (e == EWOULDBLOCK)
				sr_error_set(err, EBUSY, "%s: another capture is writing it (it holds "
					     "%s); give this one another -o", s->opt->output, path);
			else
				sr_error_set(err, e, "%s: cannot lock it: %s", path, strerror(e));
			return -1;
		}
		if (fstat(fd, &s->claim_st) == 0 && partial_is_ours(s)) {
			s->claim_fd = fd;
			return 0;
		}
		close(fd);
	}
	sr_error_set(err, EBUSY, "%s: another capture keeps replacing it; give this one "
		     "another -o", path);
	return -1;
}

/* Our OUT.partial if it is still there (not renamed to OUT): removed. */
static void release_output(struct session *s)
{
	if (s->claim_fd < 0)
		return;
	if (partial_is_ours(s))
		unlink(s->partial);
	close(s->claim_fd);
	s->claim_fd = -1;
}

static void session_cleanup(struct session *s)
{
	size_t i;

	if (s->procs) {
		cap_procs_kill(s->procs, s->nr_procs, 1.0);
		for (i = 0; i < s->nr_procs; i++)
			cap_proc_release_resources(&s->procs[i]);
		free(s->procs);
		s->procs = NULL;
	}
	if (s->funcs) {
		cap_funcs_destroy(s->funcs);
		s->funcs = NULL;
	}
	cap_sched_debug_close(&s->sd);
	json_decref(s->sd_reads);
	s->sd_reads = NULL;
	if (s->t) {
		cap_trace_unlink_files(s->t);
		cap_trace_destroy(s->t);
		s->t = NULL;
	}
	if (s->cg_created) {
		cap_cgroup_remove_run(&s->cg, s->run, s->opt);
		s->cg_created = false;
	}
	if (s->track_created) {
		cap_track_remove(s->track, s->run, s->opt);
		s->track_created = false;
	}
	/* reap whatever the subreaper collected */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	if (s->stats && s->t == NULL) {
		/* stats outlive the trace handle only for the sidecar */
	}
	free(s->tmp_prefix);
	s->tmp_prefix = NULL;
	free(s->set);
	s->set = NULL;
	json_decref(s->side);
	json_decref(s->tasks);
	json_decref(s->events);
	json_decref(s->events_missing);
	s->side = s->tasks = s->events = s->events_missing = NULL;
	release_output(s);
}

static int enable_events(struct session *s, struct sr_error *err)
{
	size_t i;

	s->events = json_array();
	s->events_missing = json_array();
	if (!s->events || !s->events_missing) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < NR_CORE_EVENTS - (s->opt->no_affinity ? NR_AFFINITY_EVENTS : 0); i++) {
		char full[128];

		snprintf(full, sizeof(full), "%s:%s", core_events[i][0], core_events[i][1]);
		if (cap_trace_enable(s->t, core_events[i][0], core_events[i][1]) < 0) {
			cap_log(s->opt, true, "event %s not available on this kernel (%s); "
				"recording without it", full, strerror(errno));
			json_array_append_new(s->events_missing, json_string(full));
		} else {
			json_array_append_new(s->events, json_string(full));
		}
	}
	for (i = 0; i < s->opt->nr_events; i++) {
		char sys[128], ev[128];
		const char *e = s->opt->events[i];
		const char *colon = strchr(e, ':');
		bool seen = false;
		size_t k;
		json_t *v;

		/* a core event or one given twice is recorded and listed once */
		json_array_foreach(s->events, k, v)
			seen = seen || !strcmp(json_string_value(v), e);
		if (seen)
			continue;
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - e), e);
		snprintf(ev, sizeof(ev), "%s", colon + 1);
		if (cap_trace_enable(s->t, sys, ev) < 0) {
			sr_error_set(err, errno, "--event %s: no such event in %s/events", e,
				     sr_tracefs->tracing_dir());
			return -1;
		}
		json_array_append_new(s->events, json_string(e));
	}
	return 0;
}

static int setup_procs(struct session *s, struct sr_error *err)
{
	const struct cap_options *opt = s->opt;
	size_t i, n = opt->nr_groups + (opt->argv ? 1 : 0);

	s->procs = calloc(n ? n : 1, sizeof(*s->procs));
	s->set = calloc(opt->nr_groups + 1, sizeof(*s->set));
	if (!s->procs || !s->set) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		s->procs[i].go_fd = s->procs[i].err_fd = -1;
	if (opt->nr_groups) {
		if (cap_cgroup_detect(&s->cg, err) < 0)
			return -1;
		if (cap_cgroup_create_run(&s->cg, s->run, opt, err) < 0) {
			s->cg_created = true;   /* remove what part was made */
			return -1;
		}
		s->cg_created = true;
		for (i = 0; i < opt->nr_groups; i++)
			if (cap_cgroup_create_group(&s->cg, s->run, &opt->groups[i], &s->set[i],
						    err) < 0)
				return -1;
	} else {
		/* still record which cgroup every task is in */
		struct sr_error ignore;

		if (cap_cgroup_detect(&s->cg, &ignore) < 0)
			s->cg.version = 0;
	}
	/*
	 * Every workload in the tracking cgroup (cap_local.h): a process that
	 * clears its environment and leaves its process group is still found
	 * there after a SIGKILL of the capture.  Without one (no such hierarchy,
	 * or it cannot be made) the workloads run as before, untracked.
	 */
	if (cap_track_detect(s->track, sizeof(s->track)) == 0) {
		struct sr_error terr = { 0 };

		if (cap_track_create(s->track, s->run, opt, &terr) == 0)
			s->track_created = true;
		else
			cap_log(opt, true, "%s; a workload that leaves its process group may "
				"outlive a killed capture", terr.msg);
	}
	for (i = 0; i < n; i++) {
		struct cap_proc *p = &s->procs[i];
		bool shell = false;

		s->nr_procs = i + 1;
		if (i < opt->nr_groups) {
			p->label = opt->groups[i].name;
			p->group = opt->groups[i].name;
			p->argv = cap_command_argv(opt->groups[i].command, &shell);
		} else {
			size_t argc = 0;

			p->label = "command";
			while (opt->argv[argc])
				argc++;
			p->argv = calloc(argc + 1, sizeof(char *));
			for (size_t a = 0; p->argv && a < argc; a++)
				if (!(p->argv[a] = strdup(opt->argv[a]))) {
					cap_argv_free(p->argv);
					p->argv = NULL;
					break;
				}
		}
		if (!p->argv) {
			sr_error_set(err, ENOMEM, "out of memory");
			return -1;
		}
		if (cap_proc_spawn(p, err) < 0)
			return -1;
		if (s->track_created && cap_track_attach(s->track, s->run, p->pid, err) < 0)
			return -1;
		if (p->group && cap_cgroup_attach(&s->cg, s->run, p->group, p->pid, err) < 0)
			return -1;
	}
	return 0;
}

/*
 * Every asynchronous signal whose default action ends the process
 * (signal(7)), SIGPIPE and SIGXFSZ aside (cmd_capture.c ignores them: a
 * failed write says why), and the real-time ones: under its default action
 * SIGUSR1, SIGALRM, ... killed the capture with its instance, cgroups,
 * workloads and scratch files left behind.  Each now ends the recording as
 * SIGINT does.
 */
static const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
	SIGPROF, SIGXCPU, SIGIO, SIGPWR, SIGSTKFLT,
};

void cap_add_stop_signals(sigset_t *set)
{
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(set, stop_signals[i]);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
}

/* "SIGUSR1", "SIGRTMIN+3": the name a user sent it by */
static const char *signal_name(int sig, char *buf, size_t n)
{
	const char *abbrev;

	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, n, "SIGRTMIN+%d", sig - SIGRTMIN);
	else if ((abbrev = sigabbrev_np(sig)))
		snprintf(buf, n, "SIG%s", abbrev);
	else
		snprintf(buf, n, "signal %d", sig);
	return buf;
}

/*
 * debugfs's sched/debug (cap_sched_debug.c): found or mounted at the start
 * (nothing fails the capture: without it the sidecar says why), read before
 * tracing is on, during the recording with --sched-debug-every, and before
 * it is off.
 */
static void sched_debug_start(struct session *s)
{
	if (s->opt->no_sched_debug) {
		snprintf(s->sd_why, sizeof(s->sd_why), "not read (--no-sched-debug)");
		return;
	}
	if (cap_sched_debug_open(&s->sd, s->sd_why, sizeof(s->sd_why)) < 0) {
		cap_log(s->opt, true, "no run-queue state in the sidecar: %s", s->sd_why);
		return;
	}
	if (!(s->sd_reads = json_array())) {
		cap_sched_debug_close(&s->sd);
		snprintf(s->sd_why, sizeof(s->sd_why), "out of memory");
		return;
	}
}

static void sched_debug_read(struct session *s, const char *at)
{
	json_t *r;

	if (!s->sd_reads || !(r = cap_sched_debug_read(&s->sd, at)))
		return;
	json_array_append_new(s->sd_reads, r);
}

/* The sidecar's "sched_debug"; closes (unmounts) the source. */
static json_t *sched_debug_json(struct session *s)
{
	json_t *o;

	if (!s->sd_reads) {
		cap_sched_debug_close(&s->sd);
		return json_pack("{s:b, s:s}", "available", false, "reason", s->sd_why);
	}
	o = json_pack("{s:b, s:s, s:b, s:i, s:O}", "available", true, "source", s->sd.path,
		      "mounted_for_capture", s->sd.mounted, "every_ms",
		      (int)s->opt->sched_debug_every_ms, "reads", s->sd_reads);
	if (o && s->sd.values > CAP_SCHED_DEBUG_MAX_VALUES)
		json_object_set_new(o, "note", json_string(
			"periodic reads stopped at the sidecar's bound for them"));
	cap_sched_debug_close(&s->sd);
	return o;
}

/*
 * Wait for the end: every command exited, the duration elapsed, a signal,
 * or a CPU's stream failed (checked each second at the latest: a disk that
 * filled ends the recording then, not at the duration's end).
 */
static void wait_for_end(struct session *s)
{
	const struct cap_options *opt = s->opt;
	double deadline = opt->duration_s > 0 ? s->t_start + opt->duration_s : 0;
	double every = opt->sched_debug_every_ms * 1e-3;
	double next_read = every > 0 ? s->t_start + every : 0;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	cap_add_stop_signals(&set);
	for (;;) {
		double now = now_s(), left = 1.0;
		struct timespec ts;
		int sig, cpu = -1, e;

		if (s->nr_procs && cap_procs_reap(s->procs, s->nr_procs, now - s->t_start) ==
					   (int)s->nr_procs)
			break;
		if ((e = cap_trace_stream_failed(s->t, &cpu))) {
			cap_log(opt, true, "CPU %d: streaming failed (%s): ending the recording early",
				cpu, strerror(e));
			break;
		}
		if (deadline) {
			if (now >= deadline)
				break;
			if (deadline - now < left)
				left = deadline - now;
		}
		if (next_read && s->sd_reads) {
			if (now >= next_read) {
				sched_debug_read(s, "during");
				while (next_read <= now)
					next_read += every;
			}
			if (next_read - now < left)
				left = next_read - now;
		}
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		sig = sigtimedwait(&set, NULL, &ts);
		if (sig > 0 && sig != SIGCHLD) {
			char name[32];

			cap_log(opt, true, "%s: ending the recording early",
				signal_name(sig, name, sizeof(name)));
			s->interrupted = true;
			break;
		}
	}
}

/* A second stop signal while finishing: skip writing, just clean up. */
static bool abort_requested(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;

	sigemptyset(&set);
	cap_add_stop_signals(&set);
	return sigtimedwait(&set, NULL, &zero) > 0;
}

/* The error of a capture whose files a signal stopped (abort_requested()). */
static void set_not_written(const struct session *s, struct sr_error *err)
{
	sr_error_set(err, EINTR, "%s: %s not written", s->interrupted ? "interrupted twice" :
		     "interrupted while finishing", s->opt->output);
}

static json_t *proc_json(const struct session *s, size_t i)
{
	const struct cap_proc *p = &s->procs[i];
	const struct cap_options *opt = s->opt;
	json_t *o = json_object(), *argv = json_array();

	for (char **a = p->argv; a && *a; a++)
		json_array_append_new(argv, json_string(*a));
	json_object_set_new(o, "name", json_string(p->label));
	if (p->group) {
		char path[512];

		snprintf(path, sizeof(path), "/%s/%s", s->run, p->group);
		json_object_set_new(o, "cgroup", json_string(path));
		json_object_set_new(o, "shares", json_integer((json_int_t)s->set[i].shares));
		json_object_set_new(o, "weight", json_integer((json_int_t)s->set[i].weight));
		/* as in the cgroup section, which the replay reads */
		if (s->set[i].quota_us > 0) {
			json_object_set_new(o, "quota_us", json_integer(s->set[i].quota_us));
			json_object_set_new(o, "period_us", json_integer(s->set[i].period_us));
		}
		json_object_set_new(o, "command", json_string(opt->groups[i].command));
	} else {
		json_object_set_new(o, "cgroup", json_null());
	}
	json_object_set_new(o, "argv", argv);
	json_object_set_new(o, "pid", json_integer(p->pid));
	json_object_set_new(o, "stopped_at_end", json_boolean(p->killed));
	if (p->exited && WIFEXITED(p->status))
		json_object_set_new(o, "exit_status", json_integer(WEXITSTATUS(p->status)));
	else if (p->exited && WIFSIGNALED(p->status))
		json_object_set_new(o, "signal", json_integer(WTERMSIG(p->status)));
	if (!p->killed && p->exited && p->end_s >= 0)
		json_object_set_new(o, "ended_after_s", json_real(p->end_s));
	return o;
}

static json_t *lost_json(const struct session *s, int n, const struct cap_readback *rb,
			 uint64_t *total)
{
	json_t *o = json_object(), *per = json_array();
	uint64_t overrun = 0, dropped = 0, commit = 0;

	for (int cpu = 0; cpu < n; cpu++) {
		const struct cap_cpu_stats *st = &s->stats[cpu];

		overrun += st->overrun;
		dropped += st->dropped;
		commit += st->commit_overrun;
		json_array_append_new(per, json_pack("{s:i, s:I, s:I, s:I, s:I, s:I}", "cpu", cpu,
						     "overrun", (json_int_t)st->overrun,
						     "commit_overrun", (json_int_t)st->commit_overrun,
						     "dropped_events", (json_int_t)st->dropped,
						     "read_events", (json_int_t)st->read_events,
						     "entries_left", (json_int_t)st->entries));
	}
	*total = overrun + dropped + commit;
	json_object_set_new(o, "per_cpu", per);
	json_object_set_new(o, "overrun", json_integer((json_int_t)overrun));
	json_object_set_new(o, "commit_overrun", json_integer((json_int_t)commit));
	json_object_set_new(o, "dropped_events", json_integer((json_int_t)dropped));
	json_object_set_new(o, "pages_with_missed_events",
			    json_integer(rb ? (json_int_t)rb->missed_pages : 0));
	json_object_set_new(o, "any", json_boolean(*total || (rb && rb->missed_pages)));
	return o;
}

/*
 * Per CPU, sched_switch from and to idle. They pair up (within one) on a
 * kernel that traces every switch; a CPU that leaves idle without a traced
 * switch makes each wakeup onto it look as long as the task's next traced
 * switch-in, so the readers must know.
 */
static bool idle_exit_untraced(const struct cap_readback *rb, int cpu)
{
	return rb->to_idle[cpu] >= 10 && rb->from_idle[cpu] * 2 < rb->to_idle[cpu];
}

/*
 * capture.starttime: this process's start (stat field 22, USER_HZ ticks
 * after boot), which its entry in sched_at_start / sched_at_end has too: a
 * later capture whose process reuses the pid lists another start there
 * (sched_snap_owner_check()).  null if unreadable.
 */
static json_t *self_starttime(void)
{
	char *stat = cap_read_file("/proc/self/stat", NULL);
	long long v = cap_sched_starttime(stat);

	free(stat);
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *idle_json(const struct cap_readback *rb)
{
	json_t *a = json_array();

	for (int cpu = 0; a && cpu < rb->nr_cpus; cpu++)
		json_array_append_new(a, json_pack("{s:i, s:I, s:I, s:b}", "cpu", cpu,
						   "from_idle", (json_int_t)rb->from_idle[cpu],
						   "to_idle", (json_int_t)rb->to_idle[cpu],
						   "idle_exit_untraced", idle_exit_untraced(rb, cpu)));
	return a;
}

int cap_sidecar_dump(const struct cap_options *opt, json_t *side, const char *part,
		     const char *path, struct sr_error *err)
{
	char *text = json_dumps(side, JSON_INDENT(1) | JSON_ENSURE_ASCII);
	struct sr_error over = { 0 };
	size_t len;
	FILE *f;
	int e = 0;

	if (!text) {
		sr_error_set(err, ENOMEM, "%s: cannot write the sidecar: out of memory", path);
		return -1;
	}
	len = strlen(text);
	/*
	 * Counted as sidecar_load() counts it: above about 100 000 threads
	 * (tasks_at_start) report and replay would refuse the file.  Nothing
	 * of it can go without a fact the readers use (each thread's cgroup,
	 * policy, nice and CPU at the start), so it is written whole, and said.
	 */
	if (sidecar_text_check(path, text, len, &over) < 0)
		cap_log(opt, true, "%s: report and replay will refuse it (give them --no-sidecar, "
			"without its facts: the tasks' cgroups at the start, the CPU topology, HZ; "
			"or capture with fewer threads on the machine)", over.msg);
	errno = 0;
	if (!(f = fopen(part, "w")))
		e = errno ? errno : EIO;
	else {
		if (fwrite(text, 1, len, f) != len)
			e = errno ? errno : EIO;
		if (fclose(f) != 0 && !e)
			e = errno ? errno : EIO;
		if (!e && rename(part, path) < 0)
			e = errno ? errno : EIO;
		if (e)
			unlink(part);
	}
	free(text);
	if (e) {
		sr_error_set(err, e, "%s: cannot write the sidecar: %s", path, strerror(e));
		return -1;
	}
	return 0;
}

static int write_sidecar(struct session *s, const struct cap_readback *rb, json_t *funcs,
			 json_t *lost, json_t *load_start, struct sr_error *err)
{
	const struct cap_options *opt = s->opt;
	json_t *side = json_object(), *trace = json_object(), *cap = json_object();
	json_t *groups = json_array(), *cmdline = json_array();
	char id[32], *path = NULL, *clock, *base, *tmp = NULL;
	struct stat st;

	if (!side || !trace || !cap || !groups || !cmdline ||
	    asprintf(&path, "%s.json", opt->output) < 0 || !(tmp = strdup(opt->output))) {
		json_decref(side);
		json_decref(trace);
		json_decref(cap);
		json_decref(groups);
		json_decref(cmdline);
		json_decref(funcs);
		json_decref(lost);
		json_decref(load_start);
		free(tmp);
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	base = basename(tmp);
	snprintf(id, sizeof(id), "0x%016llx", (unsigned long long)s->trace_id);
	clock = cap_trace_clock(s->t);
	json_object_set_new(side, "schema", json_string("schedreplay-sidecar"));
	json_object_set_new(side, "schema_version", json_integer(1));

	json_object_set_new(trace, "file", json_string(base));
	json_object_set_new(trace, "trace_id", json_string(id));
	json_object_set_new(trace, "format", json_string("trace.dat v6"));
	json_object_set_new(trace, "instance", json_string(s->run));
	json_object_set_new(trace, "clock", clock ? json_string(clock) : json_null());
	json_object_set_new(trace, "buffer_kb_per_cpu", json_integer((json_int_t)opt->buffer_kb));
	json_object_set_new(trace, "page_size", json_integer(cap_trace_page_size(s->t)));
	json_object_set_new(trace, "nr_cpus", json_integer(cap_trace_nr_cpus(s->t)));
	json_object_set_new(trace, "events", json_incref(s->events));
	json_object_set_new(trace, "events_missing", json_incref(s->events_missing));
	json_object_set_new(trace, "start_ts", rb->have_start ?
			    json_integer((json_int_t)rb->start_ts) : json_null());
	json_object_set_new(trace, "end_ts", rb->have_end ?
			    json_integer((json_int_t)rb->end_ts) : json_null());
	json_object_set_new(trace, "start_marker", json_string(MARK_START));
	json_object_set_new(trace, "end_marker", json_string(MARK_END));
	json_object_set_new(trace, "duration_s", rb->have_start && rb->have_end ?
			    json_real((double)(rb->end_ts - rb->start_ts) * 1e-9) : json_null());
	json_object_set_new(trace, "records", json_integer((json_int_t)rb->events));
	json_object_set_new(trace, "records_per_event", json_incref(rb->per_event));
	json_object_set_new(trace, "idle_switches", idle_json(rb));
	if (stat(opt->output, &st) == 0)
		json_object_set_new(trace, "bytes", json_integer((json_int_t)st.st_size));
	json_object_set_new(side, "trace", trace);
	free(clock);

	for (int a = 0; a < opt->cmdline_argc; a++)
		json_array_append_new(cmdline, json_string(opt->cmdline[a]));
	json_object_set_new(cap, "tool", json_string("schedreplay " SCHEDREPLAY_VERSION));
	json_object_set_new(cap, "command_line", cmdline);
	json_object_set_new(cap, "pid", json_integer(getpid()));
	json_object_set_new(cap, "starttime", self_starttime());
	json_object_set_new(cap, "wall_clock_start", json_integer((json_int_t)s->wall_start));
	json_object_set_new(cap, "duration_requested_s", opt->duration_s > 0 ?
			    json_real(opt->duration_s) : json_null());
	json_object_set_new(cap, "interrupted", json_boolean(s->interrupted));
	json_object_set_new(cap, "loadavg_start", load_start);
	json_object_set_new(cap, "loadavg_end", cap_machine_loadavg());
	json_object_set_new(side, "capture", cap);

	json_object_set_new(side, "kernel", cap_machine_kernel());
	json_object_set_new(side, "config", cap_machine_config());
	json_object_set_new(side, "cpus", cap_machine_cpus());
	json_object_set_new(side, "tunables", cap_machine_tunables());
	json_object_set_new(side, "autogroup", json_incref(json_object_get(s->side, "autogroup")));
	json_object_set_new(side, "cgroup", json_incref(json_object_get(s->side, "cgroup")));
	json_object_set_new(side, "tasks_at_start", json_incref(s->tasks));
	for (size_t i = 0; i < s->nr_procs; i++)
		if (s->procs[i].group)
			json_array_append_new(groups, proc_json(s, i));
	json_object_set_new(side, "groups", groups);
	json_object_set_new(side, "command", s->opt->argv ? proc_json(s, s->nr_procs - 1) :
			    json_null());
	json_object_set_new(side, "lost", lost);
	json_object_set_new(side, "function_counts", funcs);
	json_object_set_new(side, "sched_at_start",
			    json_incref(json_object_get(s->side, "sched_at_start")));
	json_object_set_new(side, "sched_at_end",
			    json_incref(json_object_get(s->side, "sched_at_end")));
	json_object_set_new(side, "sched_debug",
			    json_incref(json_object_get(s->side, "sched_debug")));
	json_object_set_new(side, "cpu_time",
			    cap_cpu_time_json(json_object_get(s->side, "cpu_time_start"),
					      json_object_get(s->side, "cpu_time_end")));

	/*
	 * Written next to it and renamed, as the trace.dat is: a capture
	 * killed or out of space while writing left a truncated sidecar,
	 * which the readers refuse along with its complete trace.
	 */
	{
		char *part = NULL;
		int r;

		if (asprintf(&part, "%s.json", s->tmp_prefix) < 0) {
			sr_error_set(err, ENOMEM, "%s: cannot write the sidecar: %s", path,
				     strerror(ENOMEM));
			r = -1;
			part = NULL;
		} else {
			r = cap_sidecar_dump(opt, side, part, path, err);
		}
		free(part);
		if (r < 0) {
			json_decref(side);
			free(path);
			free(tmp);
			return -1;
		}
	}
	json_decref(side);
	free(path);
	free(tmp);
	return 0;
}

/* Unique event systems of the enabled events, for the trace.dat formats. */
static size_t event_systems(const json_t *events, const char **out, size_t max, char *store,
			    size_t store_size)
{
	size_t n = 0, used = 0, i;
	json_t *e;

	json_array_foreach(events, i, e) {
		const char *full = json_string_value(e);
		size_t len = strcspn(full, ":");
		bool seen = false;

		for (size_t k = 0; k < n; k++)
			if (strlen(out[k]) == len && !strncmp(out[k], full, len))
				seen = true;
		if (seen || n == max || used + len + 1 > store_size)
			continue;
		memcpy(store + used, full, len);
		store[used + len] = '\0';
		out[n++] = store + used;
		used += len + 1;
	}
	return n;
}

/* Clocks whose timestamps are nanoseconds (trace-cmd's list, plus boot). */
static bool is_ns_clock(const char *c)
{
	return !strcmp(c, "local") || !strcmp(c, "global") || !strcmp(c, "perf") ||
	       !strncmp(c, "mono", 4) || !strcmp(c, "boot") || !strcmp(c, "tai");
}

static int finish(struct session *s, struct cap_result *res, struct sr_error *err)
{
	const struct cap_options *opt = s->opt;
	int n = cap_trace_nr_cpus(s->t);
	const char *systems[64];
	char sysbuf[2048];
	const char **files = calloc(n, sizeof(*files));
	const char **evnames = calloc(json_array_size(s->events) + 1, sizeof(*evnames));
	struct cap_readback rb = { 0 };
	struct cap_tracedat td;
	char *saved = NULL, *cmdlines = NULL, *uname_s = NULL, *trace_clock = NULL;
	char *old_sidecar = NULL;
	json_t *funcs, *lost, *load_start;
	uint64_t lost_total = 0;
	int ret = -1;

	load_start = json_incref(json_object_get(s->side, "loadavg_start"));
	funcs = cap_funcs_finish(s->funcs);
	s->stats = calloc(n, sizeof(*s->stats));
	if (!files || !s->stats || !evnames) {
		sr_error_set(err, ENOMEM, "out of memory");
		goto out;
	}
	if (cap_trace_read_stats(s->t, s->stats, err) < 0)
		goto out;
	if (s->aborted || abort_requested()) {
		set_not_written(s, err);
		goto out;
	}
	for (int cpu = 0; cpu < n; cpu++)
		files[cpu] = cap_trace_cpu_file(s->t, cpu);
	saved = sr_tracefs->instance_file_read(NULL, "saved_cmdlines", NULL);
	cmdlines = cap_machine_cmdlines(saved, s->tasks);
	uname_s = cap_machine_uname_string();
	{
		char *c = cap_trace_clock(s->t);

		/*
		 * The TRACECLOCK option only for clocks that do not count
		 * nanoseconds (counter, x86-tsc, ...): readers assume ns
		 * without it, and libtracecmd (1.3 to at least 1.5) leaks
		 * the clock name of v6 files that carry it. The sidecar
		 * always names the clock.
		 */
		if (c && !is_ns_clock(c) && asprintf(&trace_clock, "[%s]", c) < 0)
			trace_clock = NULL;
		free(c);
	}
	memset(&td, 0, sizeof(td));
	td.tracing_dir = sr_tracefs->tracing_dir();
	td.nr_systems = event_systems(s->events, systems, 64, sysbuf, sizeof(sysbuf));
	td.systems = systems;
	for (size_t k = 0; k < json_array_size(s->events); k++)
		evnames[td.nr_events++] = json_string_value(json_array_get(s->events, k));
	td.events = evnames;
	td.cmdlines = cmdlines;
	td.nr_cpus = n;
	td.cpu_files = files;
	td.page_size = cap_trace_page_size(s->t);
	td.trace_clock = trace_clock;
	td.stats = s->stats;
	td.uname = uname_s;
	td.version = "schedreplay " SCHEDREPLAY_VERSION;
	td.trace_id = s->trace_id;
	if (asprintf(&old_sidecar, "%s.json", opt->output) < 0) {
		old_sidecar = NULL;
		sr_error_set(err, ENOMEM, "out of memory");
		goto out;
	}
	td.unlink_before_rename = old_sidecar;
	if (cap_tracedat_write(opt->output, &td, err) < 0)
		goto out;
	if (abort_requested())
		goto aborted;
	if (cap_readback(opt->output, n, MARK_START, MARK_END, &rb, err) < 0)
		goto out;
	if (rb.missing_cmdlines) {
		/*
		 * Name every task of the records (cap_readback.c says why): the
		 * cmdlines section precedes the data, so the file is written
		 * again with the completed section and read back again.
		 */
		unsigned long long added = rb.missing_comms;
		char *all = NULL;

		if (asprintf(&all, "%s%s", cmdlines ? cmdlines : "", rb.missing_cmdlines) < 0) {
			sr_error_set(err, ENOMEM, "out of memory");
			goto out;
		}
		free(cmdlines);
		cmdlines = all;
		td.cmdlines = cmdlines;
		cap_readback_release(&rb);
		if (cap_tracedat_write(opt->output, &td, err) < 0 ||
		    cap_readback(opt->output, n, MARK_START, MARK_END, &rb, err) < 0)
			goto out;
		if (rb.missing_cmdlines) {
			sr_error_set(err, EINVAL, "%s: %llu comms still missing after the rewrite",
				     opt->output, (unsigned long long)rb.missing_comms);
			goto out;
		}
		cap_log(opt, false, "named %llu task(s) from the records (absent from the "
			"kernel's saved_cmdlines)", (unsigned long long)added);
	}
	if (abort_requested())
		goto aborted;
	lost = lost_json(s, n, &rb, &lost_total);
	res->events = rb.events;
	res->lost = lost_total;
	if (rb.have_start && rb.have_end)
		res->duration_s = (double)(rb.end_ts - rb.start_ts) * 1e-9;
	{
		struct stat st;

		if (stat(opt->output, &st) == 0)
			res->bytes = (uint64_t)st.st_size;
	}
	for (int cpu = 0; cpu < n; cpu++)
		if (idle_exit_untraced(&rb, cpu))
			cap_log(opt, true, "CPU %d: %llu switches to idle but %llu from idle were "
				"traced; this kernel does not trace that CPU leaving idle (the "
				"sidecar's trace.idle_switches says so)", cpu,
				(unsigned long long)rb.to_idle[cpu],
				(unsigned long long)rb.from_idle[cpu]);
	if (!rb.have_start || !rb.have_end)
		cap_log(opt, true, "the %s marker is missing from the trace (lost?)",
			rb.have_start ? "end" : "start");
	ret = write_sidecar(s, &rb, funcs, lost, load_start, err);
	funcs = NULL;
	load_start = NULL;
	if (ret == 0 && (lost_total || rb.missed_pages)) {
		for (int cpu = 0; cpu < n; cpu++)
			if (s->stats[cpu].overrun || s->stats[cpu].dropped ||
			    s->stats[cpu].commit_overrun)
				cap_log(opt, true, "LOST EVENTS on CPU %d: overrun %llu, dropped %llu, "
					"commit overrun %llu (raise --buffer-kb)", cpu,
					(unsigned long long)s->stats[cpu].overrun,
					(unsigned long long)s->stats[cpu].dropped,
					(unsigned long long)s->stats[cpu].commit_overrun);
		if (rb.missed_pages)
			cap_log(opt, true, "LOST EVENTS: %llu page(s) of the trace report missed events",
				(unsigned long long)rb.missed_pages);
		if (opt->strict) {
			sr_error_set(err, EIO, "%s: %llu events lost (--strict); the files are kept "
				     "for inspection", opt->output, (unsigned long long)lost_total);
			ret = -1;
		}
	}
	goto out;
aborted:
	/* a signal while the files were written (a second one, or the first
	 * after the recording had ended): none of them stays */
	unlink(opt->output);
	set_not_written(s, err);
out:
	json_decref(funcs);
	json_decref(load_start);
	cap_readback_release(&rb);
	if (s->stats)
		cap_cpu_stats_release(s->stats, n);
	free(s->stats);
	s->stats = NULL;
	free(files);
	free(evnames);
	free(saved);
	free(cmdlines);
	free(uname_s);
	free(trace_clock);
	free(old_sidecar);
	return ret;
}

/*
 * Scratch files of a killed capture to the same output: OUT.tmp-<pid>.* whose
 * pid is no longer a capture (its OUT.partial is ours now: claim_output()).
 */
static void remove_stale_scratch(const struct cap_options *opt)
{
	char dirbuf[4096], basebuf[4096], path[8300];
	const char *dir, *base;
	struct dirent *de;
	size_t blen;
	DIR *d;

	snprintf(dirbuf, sizeof(dirbuf), "%s", opt->output);
	snprintf(basebuf, sizeof(basebuf), "%s", opt->output);
	dir = dirname(dirbuf);
	base = basename(basebuf);
	blen = strlen(base);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *p = de->d_name;
		long pid;

		if (strncmp(p, base, blen) || strncmp(p + blen, ".tmp-", 5))
			continue;
		pid = strtol(p + blen + 5, NULL, 10);
		if (pid <= 0 || cap_pid_is_capture((pid_t)pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, p);
		if (unlink(path) == 0)
			cap_log(opt, true, "removed %s left by a killed capture", path);
	}
	closedir(d);
}

int cap_run(const struct cap_options *opt, struct cap_result *res, struct sr_error *err)
{
	struct session s = { .opt = opt, .claim_fd = -1 };
	bool autogroup = false;
	json_t *ag;
	size_t i;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (cap_validate(opt, err) < 0)
		return -1;
	/* capture's two libraries, before anything is touched */
	if (!sr_tracefs_load(err) || !sr_tracecmd_load(err))
		return -1;
	if (geteuid() != 0) {
		sr_error_set(err, EPERM, "capture needs root (it creates a tracefs instance and "
			     "cgroups); run it as root or with sudo");
		return -1;
	}
	snprintf(s.run, sizeof(s.run), CAP_NAME_PREFIX "%d", (int)getpid());
	if (asprintf(&s.tmp_prefix, "%s.tmp-%d", opt->output, (int)getpid()) < 0) {
		s.tmp_prefix = NULL;
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	/* Proves tracefs + privileges before anything else is touched. */
	s.t = cap_trace_create(s.run, opt->tracing_dir, opt, err);
	if (!s.t || claim_output(&s, err) < 0)
		goto out;
	cap_trace_cleanup_leftovers(sr_tracefs->tracing_dir(), opt);
	cap_cgroup_cleanup_leftovers(opt);
	cap_workload_cleanup_leftovers(opt);
	cap_sched_debug_cleanup_leftovers(opt);
	remove_stale_scratch(opt);
	if (getrandom(&s.trace_id, sizeof(s.trace_id), 0) != sizeof(s.trace_id))
		s.trace_id = ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL);

	if (cap_trace_setup(s.t, opt->buffer_kb, opt->clock ? opt->clock : "local", err) < 0)
		goto out;
	if (enable_events(&s, err) < 0)
		goto out;
	/* Orphans of the workloads are re-parented to us and reaped here. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (setup_procs(&s, err) < 0)
		goto out;

	{
		char fn_prefix[4200];

		snprintf(fn_prefix, sizeof(fn_prefix), "%s.fn", s.tmp_prefix);
		s.funcs = cap_funcs_start(s.run, sr_tracefs->tracing_dir(), fn_prefix, opt);
	}
	if (cap_trace_start_streams(s.t, s.tmp_prefix, err) < 0)
		goto out;

	/*
	 * The machine as the trace starts: after the streaming threads exist (so the
	 * capture's own threads are in the pid -> cgroup map too; they do appear in
	 * the trace) and before tracing is on (so these reads are not traced).
	 */
	errno = 0;
	s.side = json_object();
	s.tasks = cap_machine_tasks(&s.cg, &autogroup);
	if (!s.side || !s.tasks) {
		int e = errno ? errno : ENOMEM;

		sr_error_set(err, e, "cannot snapshot /proc: %s%s", strerror(e), cap_errno_hint(e));
		goto out;
	}
	ag = json_pack("{s:b}", "enabled", autogroup);
	json_object_set_new(ag, "note", json_string(
		"autogroups apply to tasks in the root cpu cgroup only; each task's autogroup "
		"id is in tasks_at_start"));
	json_object_set_new(s.side, "autogroup", ag);
	json_object_set_new(s.side, "cgroup", cap_cgroup_hierarchy(&s.cg));
	json_object_set_new(s.side, "loadavg_start", cap_machine_loadavg());
	/* the kernel's own PELT and counters of every thread, read untraced too */
	json_object_set_new(s.side, "sched_at_start", cap_sched_snapshot());
	/* the run queues' and groups' state too (debugfs's sched/debug), untraced */
	sched_debug_start(&s);
	sched_debug_read(&s, "start");
	cap_log(opt, false, "recording %zu event(s) on %d CPU(s) into %s (instance %s)",
		json_array_size(s.events), cap_trace_nr_cpus(s.t), opt->output, s.run);
	/* /proc/stat's irq, softirq and steal: read around the traced window */
	json_object_set_new(s.side, "cpu_time_start", cap_cpu_time_read());
	if (cap_trace_on(s.t, true) < 0) {
		sr_error_set(err, errno, "%s: cannot turn tracing on: %s", s.run, strerror(errno));
		goto out;
	}
	cap_funcs_on(s.funcs, true);
	cap_trace_mark(s.t, MARK_START);
	s.t_start = now_s();
	s.wall_start = time(NULL);
	for (i = 0; i < s.nr_procs; i++)
		if (cap_proc_release(&s.procs[i], err) < 0) {
			cap_trace_on(s.t, false);
			goto out;
		}
	wait_for_end(&s);
	/* traced, so that its time (sched_clk) falls inside the trace */
	sched_debug_read(&s, "end");
	json_object_set_new(s.side, "sched_debug", sched_debug_json(&s));
	cap_trace_mark(s.t, MARK_END);
	s.t_end = now_s();
	cap_trace_on(s.t, false);
	json_object_set_new(s.side, "cpu_time_end", cap_cpu_time_read());
	cap_funcs_on(s.funcs, false);
	/*
	 * Before the workloads are stopped: their threads are still alive, a
	 * blocked one with the PELT of its last dequeue (the replay compares
	 * it, docs/replay.md "PELT at the capture's end").
	 */
	json_object_set_new(s.side, "sched_at_end", cap_sched_snapshot());
	res->interrupted = s.interrupted;
	cap_procs_kill(s.procs, s.nr_procs, 1.0);
	for (i = 0; i < s.nr_procs; i++) {
		const struct cap_proc *p = &s.procs[i];

		if (!p->killed && p->exited && !(WIFEXITED(p->status) && !WEXITSTATUS(p->status))) {
			res->workload_failed++;
			cap_log(opt, true, "%s exited with %s %d", p->label,
				WIFEXITED(p->status) ? "status" : "signal",
				WIFEXITED(p->status) ? WEXITSTATUS(p->status) : WTERMSIG(p->status));
		}
	}
	if (cap_trace_stop_streams(s.t, err) < 0)
		goto out;
	ret = finish(&s, res, err);
	if (s.funcs) {
		cap_funcs_destroy(s.funcs);   /* finish() consumed its result */
		s.funcs = NULL;
	}
out:
	session_cleanup(&s);
	return ret;
}

static void leftover_log(void *ctx, bool warning, const char *line)
{
	(void)ctx;
	(void)warning;
	(void)line;
}

int cap_cleanup_leftovers(const char *tracing_dir,
			  void (*log)(void *ctx, bool warning, const char *line),
			  void *log_ctx, struct sr_error *err)
{
	struct cap_options o = { .log = log ? log : leftover_log, .log_ctx = log_ctx };
	const char *dir;
	int n;

	if (!sr_tracefs_load(err))
		return -1;
	/* without root nothing can be removed: "removed 0" would say all is clean */
	if (geteuid() != 0) {
		sr_error_set(err, EPERM, "--cleanup needs root (it removes tracefs instances and "
			     "cgroups); run it as root or with sudo");
		return -1;
	}
	/* the same check as a capture's: a plain directory is no tracefs */
	if (cap_trace_resolve_dir(tracing_dir, err) < 0)
		return -1;
	dir = sr_tracefs->tracing_dir();
	n = cap_trace_cleanup_leftovers(dir, &o);
	n += cap_cgroup_cleanup_leftovers(&o);
	n += cap_workload_cleanup_leftovers(&o);
	n += cap_sched_debug_cleanup_leftovers(&o);
	return n;
}
