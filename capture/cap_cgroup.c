// SPDX-License-Identifier: GPL-2.0
/*
 * cpu cgroups for the workload groups.
 *
 * cgroup v1 (a hierarchy with the cpu controller, as on the development
 * machines) takes cpu.shares; cgroup v2 takes cpu.weight. The kernel maps both
 * onto the same task-group weight: shares are the weight directly, and v2's
 * weight w becomes w * 1024 / 100 (sched_weight_from_cgroup, rounded to the
 * closest), so weight 100 = shares 1024. A spec given in the other unit is
 * converted with that rule and the sidecar records both numbers.
 *
 * A --group quota= becomes the group's CPU bandwidth limit: v1
 * cpu.cfs_period_us then cpu.cfs_quota_us, v2 cpu.max "QUOTA PERIOD" (both
 * in us). Only the group's own directory gets it: the run directory above
 * stays unlimited, so nothing else (the capture, other groups) shares it,
 * and the kernel checks a v1 child's limit against its parent's
 * (__cfs_schedulable), which an unlimited parent always passes. The
 * sidecar's cgroup section reads it back from the same files.
 *
 * Layout: <root>/schedreplay-<pid>/<group>. The run directory holds no tasks
 * (v2's no-internal-process rule); removing it kills what is still inside.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cap_local.h"

static bool has_token(const char *list, const char *tok)
{
	size_t n = strlen(tok);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, tok, n) && (p[n] == ',' || p[n] == '\0' || p[n] == ' ' ||
					    p[n] == '\n'))
			return true;
		p = strpbrk(p, ", ");
		if (p)
			p++;
	}
	return false;
}

int cap_cgroup_detect(struct cap_cgroup_host *h, struct sr_error *err)
{
	char *text = cap_read_file("/proc/self/mountinfo", NULL);
	char v2root[4096] = "";
	char *line, *save = NULL;

	memset(h, 0, sizeof(*h));
	if (!text) {
		sr_error_set(err, errno, "/proc/self/mountinfo: %s", strerror(errno));
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char mnt[4096], fstype[64], super[1024];
		const char *sep = strstr(line, " - ");
		int field = 0;
		const char *p = line;

		if (!sep)
			continue;
		/* the 5th field is the mount point */
		while (field < 4 && p) {
			p = strchr(p, ' ');
			if (p)
				p++;
			field++;
		}
		if (!p || sscanf(p, "%4095s", mnt) != 1)
			continue;
		if (sscanf(sep + 3, "%63s %*s %1023s", fstype, super) != 2)
			continue;
		if (!strcmp(fstype, "cgroup") && has_token(super, "cpu") && !h->version) {
			h->version = 1;
			snprintf(h->root, sizeof(h->root), "%s", mnt);
		} else if (!strcmp(fstype, "cgroup2") && !v2root[0]) {
			snprintf(v2root, sizeof(v2root), "%s", mnt);
		}
	}
	free(text);
	if (h->version)
		return 0;
	if (v2root[0]) {
		char path[4096 + 32], ctl[1024];

		snprintf(path, sizeof(path), "%s/cgroup.controllers", v2root);
		if (cap_read_line(path, ctl, sizeof(ctl)) == 0 && has_token(ctl, "cpu")) {
			h->version = 2;
			snprintf(h->root, sizeof(h->root), "%s", v2root);
			return 0;
		}
	}
	sr_error_set(err, ENODEV,
		     "no cgroup hierarchy with the cpu controller is mounted (needed by --group)");
	return -1;
}

static unsigned long shares_from_weight(unsigned long w)
{
	unsigned long s = (w * 1024 + 50) / 100;

	return s < 2 ? 2 : s > 262144 ? 262144 : s;
}

static unsigned long weight_from_shares(unsigned long s)
{
	unsigned long w = (s * 100 + 512) / 1024;

	return w < 1 ? 1 : w > 10000 ? 10000 : w;
}

static int remove_run_dir(const char *root, const char *run, const struct cap_options *logopt);

/*
 * mkdir <root>/<run>.  @run carries our pid: one that exists is a killed
 * capture's of the same pid, removed (with a warning) and made again.
 */
static int make_run_dir(const char *root, const char *run, const struct cap_options *logopt,
			struct sr_error *err)
{
	char path[4096 + 300];
	int r;

	snprintf(path, sizeof(path), "%s/%s", root, run);
	r = mkdir(path, 0755);
	if (r < 0 && errno == EEXIST && remove_run_dir(root, run, logopt) == 0) {
		cap_log(logopt, true, "removed cgroup %s left by a killed capture with the same pid",
			path);
		r = mkdir(path, 0755);
	}
	if (r < 0) {
		sr_error_set(err, errno, "cannot create cgroup %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int cap_cgroup_create_run(struct cap_cgroup_host *h, const char *run,
			  const struct cap_options *logopt, struct sr_error *err)
{
	char path[4096 + 300], ctl[1024];

	if (make_run_dir(h->root, run, logopt, err) < 0)
		return -1;
	if (h->version == 2) {
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", h->root);
		if (cap_read_line(path, ctl, sizeof(ctl)) < 0 || !has_token(ctl, "cpu")) {
			if (cap_write_file(path, "+cpu") < 0) {
				sr_error_set(err, errno, "cannot enable the cpu controller in %s: %s",
					     path, strerror(errno));
				return -1;
			}
			h->enabled_root_cpu = true;
		}
		snprintf(path, sizeof(path), "%s/%s/cgroup.subtree_control", h->root, run);
		if (cap_write_file(path, "+cpu") < 0) {
			sr_error_set(err, errno, "cannot enable the cpu controller in %s: %s", path,
				     strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * Why a limit can be refused before the kernel sees it: the kernel without
 * CONFIG_CFS_BANDWIDTH has no bandwidth files at all, which a write would
 * only report as ENOENT on a path the user never named.
 */
static int bandwidth_file(const char *dir, const char *file, const struct cap_group *g,
			  char *path, size_t size, struct sr_error *err)
{
	snprintf(path, size, "%s/%s", dir, file);
	if (access(path, F_OK) == 0)
		return 0;
	sr_error_set(err, ENOTSUP, "--group %s: quota needs CPU bandwidth control, which this "
		     "kernel lacks (no %s: CONFIG_CFS_BANDWIDTH is off); drop quota= from --group",
		     g->name, path);
	return -1;
}

int cap_cgroup_set_bandwidth(int version, const char *dir, const struct cap_group *g,
			     struct cap_cgroup_set *set, struct sr_error *err)
{
	char qpath[4096 + 64], ppath[4096 + 64], val[128];
	long long q = -1, p = -1;

	set->quota_us = set->period_us = -1;
	if (!g->quota_us && !g->period_us)
		return 0;
	if (version == 1) {
		/*
		 * tg_set_cfs_bandwidth() checks quota and period each on its own
		 * (>= 1 ms, period <= 1 s), so the order of the two writes does
		 * not matter; the period first keeps the limit at its final
		 * rate from the moment it exists.
		 */
		if (bandwidth_file(dir, "cpu.cfs_quota_us", g, qpath, sizeof(qpath), err) < 0 ||
		    bandwidth_file(dir, "cpu.cfs_period_us", g, ppath, sizeof(ppath), err) < 0)
			return -1;
		if (g->period_us) {
			snprintf(val, sizeof(val), "%lu", g->period_us);
			if (cap_write_file(ppath, val) < 0)
				goto write_err_p;
		}
		snprintf(val, sizeof(val), "%lld", g->quota_us ? g->quota_us : -1);
		if (cap_write_file(qpath, val) < 0)
			goto write_err_q;
		if (cap_read_line(qpath, val, sizeof(val)) == 0)
			q = strtoll(val, NULL, 10);
		if (cap_read_line(ppath, val, sizeof(val)) == 0)
			p = strtoll(val, NULL, 10);
	} else {
		/* cpu.max "QUOTA PERIOD", QUOTA "max" for none (cpu_period_quota_parse) */
		if (bandwidth_file(dir, "cpu.max", g, qpath, sizeof(qpath), err) < 0)
			return -1;
		if (g->quota_us > 0)
			snprintf(val, sizeof(val), "%lld %lu", g->quota_us,
				 g->period_us ? g->period_us : 100000UL);
		else
			snprintf(val, sizeof(val), "max %lu", g->period_us ? g->period_us : 100000UL);
		if (cap_write_file(qpath, val) < 0)
			goto write_err_q;
		if (cap_read_line(qpath, val, sizeof(val)) == 0) {
			char tok[32];

			if (sscanf(val, "%31s %lld", tok, &p) == 2)
				q = strcmp(tok, "max") ? strtoll(tok, NULL, 10) : -1;
		}
	}
	if (q > 0) {
		set->quota_us = q;
		set->period_us = p;
	}
	return 0;
write_err_p:
	snprintf(qpath, sizeof(qpath), "%s", ppath);
write_err_q:
	sr_error_set(err, errno, "--group %s: cannot write %s to %s: %s", g->name, val, qpath,
		     strerror(errno));
	return -1;
}

int cap_cgroup_create_group(struct cap_cgroup_host *h, const char *run,
			    const struct cap_group *g, struct cap_cgroup_set *set,
			    struct sr_error *err)
{
	char path[4096 + 400], val[64];
	const char *file;
	unsigned long v;

	snprintf(path, sizeof(path), "%s/%s/%s", h->root, run, g->name);
	if (mkdir(path, 0755) < 0) {
		sr_error_set(err, errno, "cannot create cgroup %s: %s", path, strerror(errno));
		return -1;
	}
	if (h->version == 1) {
		v = g->shares ? g->shares : g->weight ? shares_from_weight(g->weight) : 1024;
		file = "cpu.shares";
	} else {
		v = g->weight ? g->weight : g->shares ? weight_from_shares(g->shares) : 100;
		file = "cpu.weight";
	}
	snprintf(path, sizeof(path), "%s/%s/%s/%s", h->root, run, g->name, file);
	snprintf(val, sizeof(val), "%lu", v);
	if (cap_write_file(path, val) < 0) {
		sr_error_set(err, errno, "cannot write %s to %s: %s", val, path, strerror(errno));
		return -1;
	}
	/* Report what the kernel kept (it clamps and rounds). */
	if (cap_read_line(path, val, sizeof(val)) == 0)
		v = strtoul(val, NULL, 10);
	if (h->version == 1) {
		set->shares = v;
		set->weight = weight_from_shares(v);
	} else {
		set->weight = v;
		set->shares = shares_from_weight(v);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", h->root, run, g->name);
	return cap_cgroup_set_bandwidth(h->version, path, g, set, err);
}

/*
 * Move @pid into the cgroup directory @dir (its cgroup.procs): the cpu groups and the tracking
 * cgroup alike.
 */
static int write_procs(const char *dir, pid_t pid, struct sr_error *err)
{
	char path[4096 + 400 + 16], val[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(val, sizeof(val), "%d", (int)pid);
	if (cap_write_file(path, val) < 0) {
		sr_error_set(err, errno, "cannot move pid %d into %s: %s", (int)pid, path,
			     strerror(errno));
		return -1;
	}
	return 0;
}

int cap_cgroup_attach(const struct cap_cgroup_host *h, const char *run, const char *group,
		      pid_t pid, struct sr_error *err)
{
	char dir[4096 + 400];

	snprintf(dir, sizeof(dir), "%s/%s/%s", h->root, run, group);
	return write_procs(dir, pid, err);
}

/* SIGKILL every task in @dir's cgroup.procs; returns how many were found. */
static int kill_cgroup_tasks(const char *dir)
{
	char path[4096 + 32];
	char *text, *p;
	int n = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	text = cap_read_file(path, NULL);
	if (!text)
		return 0;
	for (p = text; *p;) {
		char *end;
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
			n++;
		p = end;
		while (*p == '\n')
			p++;
	}
	free(text);
	return n;
}

/*
 * Lift a group's bandwidth limit: a SIGKILLed task of a throttled group only
 * exits once the group runs again, up to a period (1 s at most) later, and
 * the limit dies with the directory anyway. Errors are ignored: no such file
 * means no limit.
 */
static void lift_bandwidth_limit(const char *dir)
{
	char path[4096 + 32];

	snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
	if (access(path, F_OK) == 0) {
		cap_write_file(path, "-1");
		return;
	}
	snprintf(path, sizeof(path), "%s/cpu.max", dir);
	if (access(path, F_OK) == 0)
		cap_write_file(path, "max");
}

/* Remove one group directory, killing its tasks and waiting for them to leave. */
static int remove_group_dir(const char *dir, const struct cap_options *logopt)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int tries, killed = 0;

	lift_bandwidth_limit(dir);

	for (tries = 0; tries < 300; tries++) {   /* up to 3 s */
		int n = kill_cgroup_tasks(dir);

		if (tries == 0)
			killed = n;
		if (rmdir(dir) == 0 || errno == ENOENT) {
			if (killed)
				cap_log(logopt, true, "killed %d task(s) left in cgroup %s", killed, dir);
			return 0;
		}
		if (errno != EBUSY)
			break;
		nanosleep(&ts, NULL);
	}
	cap_log(logopt, true, "cannot remove cgroup %s: %s", dir, strerror(errno));
	return -1;
}

/* The first subdirectory of @path into @sub: true, else false (none, or unreadable). */
static bool first_subdir(const char *path, char *sub, size_t size)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(path);

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' ||
		    snprintf(sub, size, "%s/%s", path, de->d_name) >= (int)size)
			continue;
		found = lstat(sub, &st) == 0 && S_ISDIR(st.st_mode);
	}
	closedir(d);
	return found;
}

/*
 * Remove @path and every cgroup below it, deepest first: a workload may make
 * cgroups of its own inside its group (a container runtime, a test harness:
 * GROUP/sub), and rmdir() of a cgroup with children fails with EBUSY. Before
 * 3 Dec 2026 only the groups one level down were removed: GROUP/sub kept
 * GROUP and the run's directory, the capture exited 0 with two warnings
 * and --cleanup could not remove them either. One child at a time, the
 * directory closed before descending: one descriptor at most, as before (a
 * capture at its open-file limit still cleans up: env/nofile-4). @depth
 * bounds the walk.
 */
static int remove_cgroup_tree(const char *path, int depth, const struct cap_options *logopt)
{
	char sub[4096 + 600];
	int ret = 0;

	while (depth < 64 && first_subdir(path, sub, sizeof(sub)))
		if (remove_cgroup_tree(sub, depth + 1, logopt) < 0) {
			ret = -1;
			break;
		}
	if (remove_group_dir(path, logopt) < 0)
		ret = -1;
	return ret;
}

static int remove_run_dir(const char *root, const char *run, const struct cap_options *logopt)
{
	char path[4096 + 300];

	snprintf(path, sizeof(path), "%s/%s", root, run);
	return remove_cgroup_tree(path, 0, logopt);
}

int cap_cgroup_remove_run(struct cap_cgroup_host *h, const char *run,
			  const struct cap_options *logopt)
{
	int ret = remove_run_dir(h->root, run, logopt);

	if (h->enabled_root_cpu) {
		char path[4096 + 32];

		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", h->root);
		if (cap_write_file(path, "-cpu") < 0)
			cap_log(logopt, true, "could not disable the cpu controller again in %s: %s",
				path, strerror(errno));
		h->enabled_root_cpu = false;
	}
	return ret;
}

/* Remove the run directories under @root whose capture is gone. */
static int cleanup_root(const char *root, const struct cap_options *logopt)
{
	struct dirent *de;
	int removed = 0;
	DIR *d = opendir(root);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		pid_t pid = cap_name_pid(de->d_name, NULL);

		if (!pid || cap_pid_is_capture(pid))
			continue;
		if (remove_run_dir(root, de->d_name, logopt) == 0) {
			cap_log(logopt, true, "removed cgroup %s/%s left by a killed capture", root,
				de->d_name);
			removed++;
		}
	}
	closedir(d);
	return removed;
}

int cap_cgroup_cleanup_leftovers(const struct cap_options *logopt)
{
	struct cap_cgroup_host h;
	struct sr_error err;
	char track[4096];
	int removed = 0;

	if (cap_cgroup_detect(&h, &err) == 0)
		removed += cleanup_root(h.root, logopt);
	if (cap_track_detect(track, sizeof(track)) == 0)
		removed += cleanup_root(track, logopt);
	return removed;
}

/* ---- the tracking cgroup ---- */

int cap_track_detect(char *root, size_t size)
{
	char *text = cap_read_file("/proc/self/mountinfo", NULL);
	char v1[4096] = "";
	char *line, *save = NULL;
	int found = -1;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line && found < 0;
	     line = strtok_r(NULL, "\n", &save)) {
		char mroot[4096], mnt[4096], fstype[64], opts[1024], path[4200], ctl[1024];
		const char *sep = strstr(line, " - ");

		/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE SUPEROPTS" */
		if (!sep || sscanf(line, "%*s %*s %*s %4095s %4095s", mroot, mnt) != 2 ||
		    sscanf(sep + 3, "%63s %*s %1023s", fstype, opts) != 2)
			continue;
		/* the hierarchy's root, and a plain path (no \040 escapes) */
		if (strcmp(mroot, "/") || strchr(mnt, '\\'))
			continue;
		if (!strcmp(fstype, "cgroup2")) {
			snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
			if (cap_read_line(path, ctl, sizeof(ctl)) < 0)
				ctl[0] = '\0';
			if (has_token(ctl, "cpu") || has_token(ctl, "cpuset"))
				continue;
			snprintf(root, size, "%s", mnt);
			found = 0;
		} else if (!strcmp(fstype, "cgroup") && !v1[0] && !has_token(opts, "cpu") &&
			   !has_token(opts, "cpuset") &&
			   (has_token(opts, "freezer") || has_token(opts, "pids"))) {
			snprintf(v1, sizeof(v1), "%s", mnt);
		}
	}
	free(text);
	if (found < 0 && v1[0]) {
		snprintf(root, size, "%s", v1);
		found = 0;
	}
	return found;
}

int cap_track_create(const char *root, const char *run, const struct cap_options *logopt,
		     struct sr_error *err)
{
	return make_run_dir(root, run, logopt, err);
}

int cap_track_attach(const char *root, const char *run, pid_t pid, struct sr_error *err)
{
	char dir[4096 + 400];

	snprintf(dir, sizeof(dir), "%s/%s", root, run);
	return write_procs(dir, pid, err);
}

int cap_track_remove(const char *root, const char *run, const struct cap_options *logopt)
{
	return remove_run_dir(root, run, logopt);
}

int cap_cgroup_of_task(const struct cap_cgroup_host *h, pid_t tgid, pid_t tid, char *buf,
		       size_t size)
{
	char path[128];
	char *text, *line, *save = NULL;
	int ret = -1;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/cgroup", (int)tgid, (int)tid);
	text = cap_read_file(path, NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = '\0';
		if ((h->version == 1 && has_token(c1 + 1, "cpu")) ||
		    (h->version == 2 && !strncmp(line, "0:", 2) && c1[1] == '\0')) {
			snprintf(buf, size, "%s", c2 + 1);
			ret = 0;
			break;
		}
	}
	free(text);
	return ret;
}

static int read_ulong(const char *dir, const char *file, long long *v)
{
	char path[4096 + 64], line[128];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (cap_read_line(path, line, sizeof(line)) < 0)
		return -1;
	if (!strncmp(line, "max", 3)) {
		*v = -1;
		return 0;
	}
	*v = strtoll(line, NULL, 10);
	return 0;
}

static int count_lines(const char *dir, const char *file)
{
	char path[4096 + 64];
	char *text = NULL, *p;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	text = cap_read_file(path, NULL);
	if (!text)
		return -1;
	for (p = text; *p; p++)
		if (*p == '\n')
			n++;
	free(text);
	return n;
}

static int walk(const struct cap_cgroup_host *h, const char *dir, const char *rel, int depth,
		json_t *out)
{
	json_t *g = json_object();
	struct dirent *de;
	long long v;
	DIR *d;
	int n;

	if (!g || json_array_append_new(out, g))
		return -1;
	json_object_set_new(g, "path", json_string(rel[0] ? rel : "/"));
	if (h->version == 1) {
		if (read_ulong(dir, "cpu.shares", &v) == 0)
			json_object_set_new(g, "shares", json_integer(v));
		if (read_ulong(dir, "cpu.cfs_quota_us", &v) == 0 && v >= 0) {
			json_object_set_new(g, "quota_us", json_integer(v));
			if (read_ulong(dir, "cpu.cfs_period_us", &v) == 0)
				json_object_set_new(g, "period_us", json_integer(v));
		}
	} else {
		char path[4096 + 32], line[128];

		if (read_ulong(dir, "cpu.weight", &v) == 0)
			json_object_set_new(g, "weight", json_integer(v));
		snprintf(path, sizeof(path), "%s/cpu.max", dir);
		if (cap_read_line(path, line, sizeof(line)) == 0 && strncmp(line, "max", 3)) {
			long long quota = 0, period = 0;

			if (sscanf(line, "%lld %lld", &quota, &period) == 2) {
				json_object_set_new(g, "quota_us", json_integer(quota));
				json_object_set_new(g, "period_us", json_integer(period));
			}
		}
	}
	if (read_ulong(dir, "cpu.idle", &v) == 0)
		json_object_set_new(g, "idle", json_integer(v));
	n = count_lines(dir, h->version == 1 ? "tasks" : "cgroup.threads");
	if (n >= 0)
		json_object_set_new(g, "nr_tasks", json_integer(n));
	if (depth >= 16)
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char sub[4096], subrel[4096];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >= sizeof(sub) ||
		    (size_t)snprintf(subrel, sizeof(subrel), "%s/%s", rel, de->d_name) >=
			    sizeof(subrel))
			continue;
		if (stat(sub, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		walk(h, sub, subrel, depth + 1, out);
	}
	closedir(d);
	return 0;
}

/*
 * The hierarchy id of the cpu controller as /proc/self/cgroup numbers it
 * ("1:cpu:/" on cgroup v1; v2's unified hierarchy is 0). cgroup_attach_task
 * reports it as dst_root, so readers can follow only cpu-controller moves.
 * -1 if it cannot be read.
 */
static int cpu_hierarchy_id(const struct cap_cgroup_host *h)
{
	char line[4096];
	FILE *f;
	int id = -1;

	if (h->version == 2)
		return 0;
	f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return -1;
	while (id < 0 && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		char *tok, *save = NULL;

		if (!c1 || !c2)
			continue;
		*c2 = '\0';
		for (tok = strtok_r(c1 + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			if (!strcmp(tok, "cpu"))
				id = atoi(line);
	}
	fclose(f);
	return id;
}

json_t *cap_cgroup_hierarchy(const struct cap_cgroup_host *h)
{
	json_t *out = json_object();
	json_t *groups = json_array();

	if (!out || !groups) {
		json_decref(out);
		json_decref(groups);
		return NULL;
	}
	json_object_set_new(out, "version", json_integer(h->version));
	json_object_set_new(out, "cpu_mount", h->version ? json_string(h->root) : json_null());
	/* cgroup_attach_task's dst_root: which moves concern the cpu controller. */
	json_object_set_new(out, "hierarchy_id", h->version ? json_integer(cpu_hierarchy_id(h))
							   : json_null());
	if (h->version)
		walk(h, h->root, "", 0, groups);
	json_object_set_new(out, "groups", groups);
	return out;
}
