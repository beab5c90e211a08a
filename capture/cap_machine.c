// SPDX-License-Identifier: GPL-2.0
/*
 * Machine metadata for the sidecar: what the model needs to replay a trace
 * on the machine it came from, read from /proc and sysfs at capture time.
 * Anything that cannot be read is recorded as such, with the reason, rather
 * than guessed: {"unreadable": "<path>: <strerror>"}.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <zlib.h>

#include "cap_local.h"

static json_t *unreadable(const char *path, int e)
{
	char why[1200];

	snprintf(why, sizeof(why), "%s: %s", path, strerror(e));
	return json_pack("{s:s}", "unreadable", why);
}

json_t *cap_machine_kernel(void)
{
	struct utsname u;
	char cmdline[4096];
	json_t *k;

	if (uname(&u) < 0)
		return unreadable("uname", errno);
	k = json_pack("{s:s, s:s, s:s, s:s, s:s}", "sysname", u.sysname, "nodename", u.nodename,
		      "release", u.release, "version", u.version, "machine", u.machine);
	if (k && cap_read_line("/proc/cmdline", cmdline, sizeof(cmdline)) == 0)
		json_object_set_new(k, "cmdline", json_string(cmdline));
	return k;
}

char *cap_machine_uname_string(void)
{
	struct utsname u;
	char *s;

	if (uname(&u) < 0)
		return NULL;
	/* trace-cmd's UNAME option: "sysname nodename release machine" */
	if (asprintf(&s, "%s %s %s %s", u.sysname, u.nodename, u.release, u.machine) < 0)
		return NULL;
	return s;
}

/* ---- kernel configuration ---- */

static char *read_gz(const char *path)
{
	gzFile gz = gzopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *buf, *tmp;
	int r;

	if (!gz)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		if (cap - n < 4096) {
			tmp = realloc(buf, cap * 2);
			if (!tmp) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = tmp;
			cap *= 2;
		}
		r = gzread(gz, buf + n, (unsigned)(cap - n - 1));
		if (r < 0) {
			free(buf);
			buf = NULL;
			errno = EIO;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	gzclose(gz);
	if (buf)
		buf[n] = '\0';
	return buf;
}

/* The value of CONFIG_<name> ("y", "250", ...) or NULL if not set. */
static const char *config_value(const char *text, const char *name, char *buf, size_t size)
{
	char key[128];
	const char *p = text;
	size_t klen;

	klen = (size_t)snprintf(key, sizeof(key), "CONFIG_%s=", name);
	while ((p = strstr(p, key))) {
		if (p == text || p[-1] == '\n') {
			size_t len = strcspn(p + klen, "\n");

			snprintf(buf, size, "%.*s", (int)len, p + klen);
			if (buf[0] == '"') {   /* strings are quoted */
				memmove(buf, buf + 1, strlen(buf));
				buf[strcspn(buf, "\"")] = '\0';
			}
			return buf;
		}
		p += klen;
	}
	return NULL;
}

static bool config_on(const char *text, const char *name)
{
	char v[16];

	return config_value(text, name, v, sizeof(v)) && !strcmp(v, "y");
}

json_t *cap_machine_config(void)
{
	static const char *const keep[] = {
		"HZ", "NO_HZ_COMMON", "NO_HZ_IDLE", "NO_HZ_FULL", "HZ_PERIODIC", "SMP",
		"NR_CPUS", "NUMA", "SCHED_SMT", "SCHED_MC", "SCHED_CLUSTER", "FAIR_GROUP_SCHED",
		"CFS_BANDWIDTH", "RT_GROUP_SCHED", "SCHED_AUTOGROUP", "SCHEDSTATS", "SCHED_DEBUG",
		"UCLAMP_TASK", "UCLAMP_TASK_GROUP", "SCHED_CORE", "SCHED_CLASS_EXT",
		"PREEMPT_NONE", "PREEMPT_VOLUNTARY", "PREEMPT", "PREEMPT_LAZY", "PREEMPT_RT",
		"PREEMPT_DYNAMIC", "CGROUP_SCHED", "IRQ_TIME_ACCOUNTING", "PARAVIRT",
		"PARAVIRT_TIME_ACCOUNTING",
		"VIRT_CPU_ACCOUNTING_GEN", "ENERGY_MODEL", "CPU_FREQ", "GENERIC_SCHED_CLOCK",
	};
	struct utsname u;
	char path[512], v[128], dbg[256];
	char *text = NULL;
	json_t *c, *vals;
	const char *src = "/proc/config.gz";

	c = json_object();
	if (!c)
		return NULL;
	text = read_gz(src);
	if (!text && uname(&u) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		text = cap_read_file(path, NULL);
		src = path;
	}
	if (!text) {
		json_object_set_new(c, "source", json_null());
		json_object_set_new(c, "hz", json_null());
		json_object_set_new(c, "no_hz", json_null());
		json_object_set_new(c, "unavailable",
				    json_string("neither /proc/config.gz nor /boot/config-<release> "
						"is readable"));
	} else {
		json_object_set_new(c, "source", json_string(src));
		json_object_set_new(c, "hz", config_value(text, "HZ", v, sizeof(v)) ?
				    json_integer(strtol(v, NULL, 10)) : json_null());
		json_object_set_new(c, "no_hz", json_string(
			config_on(text, "NO_HZ_FULL") ? "full" :
			config_on(text, "NO_HZ_IDLE") ? "idle" : "periodic"));
		json_object_set_new(c, "preempt", json_string(
			config_on(text, "PREEMPT_RT") ? "rt" :
			config_on(text, "PREEMPT_LAZY") ? "lazy" :
			config_on(text, "PREEMPT") ? "full" :
			config_on(text, "PREEMPT_VOLUNTARY") ? "voluntary" : "none"));
		json_object_set_new(c, "preempt_dynamic", json_boolean(config_on(text, "PREEMPT_DYNAMIC")));
		vals = json_object();
		for (size_t i = 0; vals && i < sizeof(keep) / sizeof(keep[0]); i++)
			json_object_set_new(vals, keep[i],
					    config_value(text, keep[i], v, sizeof(v)) ?
					    json_string(v) : json_null());
		json_object_set_new(c, "values", vals);
		free(text);
	}
	/* The boot-time choice of a dynamic preemption model. */
	if (cap_read_line("/sys/kernel/debug/sched/preempt", dbg, sizeof(dbg)) == 0)
		json_object_set_new(c, "preempt_runtime", json_string(dbg));
	else
		json_object_set_new(c, "preempt_runtime",
				    unreadable("/sys/kernel/debug/sched/preempt", errno));
	return c;
}

/* ---- CPUs and topology ---- */

static json_t *sysfs_int(const char *dir, const char *file)
{
	char path[512], line[64];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (cap_read_line(path, line, sizeof(line)) < 0)
		return json_null();
	return json_integer(strtol(line, NULL, 10));
}

static json_t *sysfs_str(const char *dir, const char *file)
{
	char path[512], line[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (cap_read_line(path, line, sizeof(line)) < 0)
		return json_null();
	return json_string(line);
}

static int cpu_node(int cpu)
{
	char path[128];
	struct dirent *de;
	int node = -1;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) && isdigit((unsigned char)de->d_name[4]))
			node = atoi(de->d_name + 4);
	closedir(d);
	return node;
}

json_t *cap_machine_cpus(void)
{
	const char *base = "/sys/devices/system/cpu";
	json_t *c = json_object(), *topo = json_array(), *nodes = json_array();
	int cpu;

	if (!c || !topo || !nodes) {
		json_decref(c);
		json_decref(topo);
		json_decref(nodes);
		return NULL;
	}
	json_object_set_new(c, "possible", sysfs_str(base, "possible"));
	json_object_set_new(c, "online", sysfs_str(base, "online"));
	json_object_set_new(c, "present", sysfs_str(base, "present"));
	for (cpu = 0; cpu < 8192; cpu++) {
		char dir[128], tdir[160];
		struct stat st;
		json_t *e;
		json_t *online;

		snprintf(dir, sizeof(dir), "%s/cpu%d", base, cpu);
		if (stat(dir, &st) < 0)
			break;
		snprintf(tdir, sizeof(tdir), "%s/topology", dir);
		online = sysfs_int(dir, "online");      /* cpu0 often has no 'online' */
		e = json_pack("{s:i, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i}",
			      "cpu", cpu,
			      "online", json_is_null(online) ? 1 : (int)json_integer_value(online),
			      "package", sysfs_int(tdir, "physical_package_id"),
			      "die", sysfs_int(tdir, "die_id"),
			      "cluster", sysfs_int(tdir, "cluster_id"),
			      "core", sysfs_int(tdir, "core_id"),
			      "smt_siblings", sysfs_str(tdir, "thread_siblings_list"),
			      "core_siblings", sysfs_str(tdir, "core_siblings_list"),
			      "capacity", sysfs_int(dir, "cpu_capacity"),
			      "numa_node", cpu_node(cpu));
		json_decref(online);
		if (e)
			json_array_append_new(topo, e);
	}
	json_object_set_new(c, "count", json_integer(cpu));
	json_object_set_new(c, "topology", topo);
	for (int node = 0; node < 1024; node++) {
		char dir[128];
		struct stat st;

		snprintf(dir, sizeof(dir), "/sys/devices/system/node/node%d", node);
		if (stat(dir, &st) < 0)
			continue;
		json_array_append_new(nodes, json_pack("{s:i, s:o, s:o}", "node", node,
						       "cpus", sysfs_str(dir, "cpulist"),
						       "distance", sysfs_str(dir, "distance")));
	}
	json_object_set_new(c, "numa_nodes", nodes);
	return c;
}

/* ---- scheduler tunables ---- */

static void add_dir_files(json_t *out, const char *dir, const char *prefix)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		json_object_set_new(out, dir, unreadable(dir, errno));
		return;
	}
	while ((de = readdir(d))) {
		char path[1024];
		struct stat st;
		char *text;

		if (de->d_name[0] == '.' || (prefix && strncmp(de->d_name, prefix, strlen(prefix))))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		text = cap_read_file(path, NULL);
		if (!text) {
			json_object_set_new(out, path, unreadable(path, errno));
			continue;
		}
		text[strcspn(text, "\n")] = '\0';
		json_object_set_new(out, path, json_pack("{s:s}", "value", text));
		free(text);
	}
	closedir(d);
}

json_t *cap_machine_tunables(void)
{
	static const char *const singles[] = {
		"/proc/sys/kernel/numa_balancing", "/proc/sys/kernel/timer_migration",
		"/sys/kernel/mm/transparent_hugepage/enabled",
	};
	json_t *t = json_object();

	if (!t)
		return NULL;
	add_dir_files(t, "/proc/sys/kernel", "sched_");
	for (size_t i = 0; i < sizeof(singles) / sizeof(singles[0]); i++) {
		char line[256];

		if (cap_read_line(singles[i], line, sizeof(line)) == 0)
			json_object_set_new(t, singles[i], json_pack("{s:s}", "value", line));
		else if (errno != ENOENT)
			json_object_set_new(t, singles[i], unreadable(singles[i], errno));
	}
	/* debugfs: base_slice_ns, migration_cost_ns, features, ... (root, and
	 * often locked down) */
	add_dir_files(t, "/sys/kernel/debug/sched", NULL);
	return t;
}

/* ---- tasks alive at the start ---- */

static const char *policy_name(int policy)
{
	switch (policy) {
	case 0: return "normal";
	case 1: return "fifo";
	case 2: return "rr";
	case 3: return "batch";
	case 5: return "idle";
	case 6: return "deadline";
	case 7: return "ext";
	default: return "unknown";
	}
}

/* Fields of /proc/<tgid>/task/<tid>/stat after the comm (which may hold ')'). */
static int task_stat(const char *proc, pid_t tgid, pid_t tid, int *nice, int *policy, int *cpu,
		     unsigned *rt_prio)
{
	char path[4200];
	char *text = NULL, *p;
	long v[40];
	int i;

	snprintf(path, sizeof(path), "%s/%d/task/%d/stat", proc, (int)tgid, (int)tid);
	text = cap_read_file(path, NULL);
	if (!text)
		return -1;
	p = strrchr(text, ')');
	if (!p || p[1] != ' ') {
		free(text);
		return -1;
	}
	p += 2;
	/* p is at field 3 (state); take fields 4..41 */
	p = strchr(p, ' ');
	for (i = 0; p && i < 38; i++)
		v[i] = strtol(p + 1, &p, 10);
	free(text);
	if (i < 38)
		return -1;
	/* field n is v[n - 4] */
	*nice = (int)v[19 - 4];
	*cpu = (int)v[39 - 4];
	*rt_prio = (unsigned)v[40 - 4];
	*policy = (int)v[41 - 4];
	return 0;
}

/*
 * Each process's threads, its leader last: /proc/TGID/task is listed whole
 * first (proc_task_readdir(), thread-list order, the leader first), then
 * the threads other than the leader are handed to @fn, then the leader.  A
 * multithreaded exec (de_thread(): the exec'ing thread takes the leader's
 * pid, the others die) during the walk of one process then gives either the
 * old threads' entries and the exec'ing thread under the leader's pid (the
 * process listed with threads: the sidecar check leaves its leader out), or
 * the exec'ing thread under the leader's pid alone, read after the exec as
 * the trace sees it.  Leader first, an exec between its read and its
 * threads' left the old leader listed without a thread, a process the check
 * took as single-threaded though its pid named another task_struct next
 * (snap50).  @tids/@cap: the caller's buffer, grown here.
 */
static int for_each_thread_of(const char *proc, int tgid, int **tids, size_t *cap,
			      int (*fn)(int tgid, int tid, void *arg), void *arg)
{
	char path[4096];
	struct dirent *te;
	bool leader = false;
	size_t n = 0;
	DIR *td;
	int r = 0;

	snprintf(path, sizeof(path), "%s/%d/task", proc, tgid);
	if (!(td = opendir(path)))
		return 0;       /* exited meanwhile */
	while ((te = readdir(td))) {
		int tid;

		if (!isdigit((unsigned char)te->d_name[0]))
			continue;
		if ((tid = atoi(te->d_name)) == tgid) {
			leader = true;
			continue;
		}
		if (n == *cap) {
			size_t c = *cap ? *cap * 2 : 64;
			int *t = realloc(*tids, c * sizeof(*t));

			if (!t) {
				closedir(td);
				errno = ENOMEM;
				return -1;
			}
			*tids = t;
			*cap = c;
		}
		(*tids)[n++] = tid;
	}
	closedir(td);
	for (size_t i = 0; !r && i < n; i++)
		r = fn(tgid, (*tids)[i], arg);
	if (!r && leader)
		r = fn(tgid, tgid, arg);
	return r;
}

int cap_for_each_thread_in(const char *proc, int (*fn)(int tgid, int tid, void *arg), void *arg)
{
	struct dirent *pe;
	DIR *pd = opendir(proc);
	int *tids = NULL;
	size_t cap = 0;
	int r = 0;

	if (!pd)
		return -1;
	while (!r && (pe = readdir(pd)))
		if (isdigit((unsigned char)pe->d_name[0]))
			r = for_each_thread_of(proc, atoi(pe->d_name), &tids, &cap, fn, arg);
	closedir(pd);
	free(tids);
	return r;
}

int cap_for_each_thread(int (*fn)(int tgid, int tid, void *arg), void *arg)
{
	return cap_for_each_thread_in("/proc", fn, arg);
}

struct tasks_walk {
	const char *proc;              /* "/proc", or a test's tree */
	const struct cap_cgroup_host *h;
	json_t *tasks;
	int tgid;                      /* the process whose autogroup is below */
	int ag_id, ag_nice;
};

/* One thread of tasks_at_start (skipped if it exited meanwhile). */
static int tasks_one(int tgid, int tid, void *arg)
{
	struct tasks_walk *w = arg;
	char comm[64] = "", cg[4096] = "", cpath[4200];
	int nice = 0, policy = 0, cpu = -1;
	unsigned rt_prio = 0;
	json_t *e;

	if (tgid != w->tgid) {
		char ag[128] = "";

		w->tgid = tgid;
		w->ag_id = -1;
		w->ag_nice = 0;
		snprintf(cpath, sizeof(cpath), "%s/%d/autogroup", w->proc, tgid);
		/* "/autogroup-7 nice 0"; empty for kernel threads */
		if (cap_read_line(cpath, ag, sizeof(ag)) == 0)
			sscanf(ag, "/autogroup-%d nice %d", &w->ag_id, &w->ag_nice);
	}
	snprintf(cpath, sizeof(cpath), "%s/%d/task/%d/comm", w->proc, tgid, tid);
	if (cap_read_line(cpath, comm, sizeof(comm)) < 0)
		return 0;
	if (task_stat(w->proc, tgid, tid, &nice, &policy, &cpu, &rt_prio) < 0)
		return 0;
	e = json_pack("{s:i, s:i, s:s, s:s, s:i, s:i}", "pid", tid, "tgid", tgid, "comm", comm,
		      "policy", policy_name(policy), "nice", nice, "cpu", cpu);
	if (!e)
		return 0;
	if (rt_prio)
		json_object_set_new(e, "rt_priority", json_integer(rt_prio));
	if (w->h->version && cap_cgroup_of_task(w->h, tgid, tid, cg, sizeof(cg)) == 0)
		json_object_set_new(e, "cgroup", json_string(cg));
	else
		json_object_set_new(e, "cgroup", json_null());
	if (w->ag_id >= 0) {
		json_object_set_new(e, "autogroup", json_integer(w->ag_id));
		json_object_set_new(e, "autogroup_nice", json_integer(w->ag_nice));
	}
	json_array_append_new(w->tasks, e);
	return 0;
}

json_t *cap_machine_tasks(const struct cap_cgroup_host *h, bool *autogroup_enabled)
{
	return cap_machine_tasks_in("/proc", h, autogroup_enabled);
}

json_t *cap_machine_tasks_in(const char *proc, const struct cap_cgroup_host *h,
			     bool *autogroup_enabled)
{
	struct tasks_walk w = { .proc = proc, .h = h, .tasks = json_array(), .tgid = -1 };
	char line[64], path[4200];

	snprintf(path, sizeof(path), "%s/sys/kernel/sched_autogroup_enabled", proc);
	*autogroup_enabled = cap_read_line(path, line, sizeof(line)) == 0 && atoi(line) == 1;
	/*
	 * The walk meets a pid twice where a thread exec'd (de_thread()) or a
	 * pid was reused during it, as the sched snapshots' walk does
	 * (cap_sched_dedup()): the replay refuses tasks_at_start listing a pid
	 * twice (fuzz50), so the last read is kept here too
	 */
	if (!w.tasks || cap_for_each_thread_in(proc, tasks_one, &w) < 0 ||
	    cap_sched_dedup(w.tasks) == (size_t)-1) {
		json_decref(w.tasks);
		return NULL;
	}
	return w.tasks;
}

json_t *cap_machine_loadavg(void)
{
	char line[256];
	double l1, l5, l15;
	int run, total;

	if (cap_read_line("/proc/loadavg", line, sizeof(line)) < 0)
		return unreadable("/proc/loadavg", errno);
	if (sscanf(line, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &run, &total) != 5)
		return json_pack("{s:s}", "text", line);
	return json_pack("{s:f, s:f, s:f, s:i, s:i}", "load1", l1, "load5", l5, "load15", l15,
			 "runnable", run, "tasks", total);
}

/* ---- cmdlines for the trace.dat ---- */

struct cmdline_buf {
	char *text;
	size_t len, cap;
	int *pids;
	size_t nr, pcap;
};

static bool cl_has(const struct cmdline_buf *b, int pid)
{
	for (size_t i = 0; i < b->nr; i++)
		if (b->pids[i] == pid)
			return true;
	return false;
}

static int cl_add(struct cmdline_buf *b, int pid, const char *comm)
{
	size_t need = strlen(comm) + 24;

	if (pid <= 0 || cl_has(b, pid))
		return 0;
	if (b->len + need >= b->cap) {
		size_t cap = (b->cap + need) * 2;
		char *t = realloc(b->text, cap);

		if (!t)
			return -1;
		b->text = t;
		b->cap = cap;
	}
	if (b->nr == b->pcap) {
		size_t cap = b->pcap ? b->pcap * 2 : 256;
		int *p = realloc(b->pids, cap * sizeof(*p));

		if (!p)
			return -1;
		b->pids = p;
		b->pcap = cap;
	}
	b->pids[b->nr++] = pid;
	b->len += (size_t)snprintf(b->text + b->len, b->cap - b->len, "%d %s\n", pid, comm);
	return 0;
}

/* One thread alive now into the list: 1 when out of memory (stops the walk). */
static int cmdline_one(int tgid, int tid, void *arg)
{
	char cpath[64], comm[64];

	snprintf(cpath, sizeof(cpath), "/proc/%d/task/%d/comm", tgid, tid);
	return cap_read_line(cpath, comm, sizeof(comm)) == 0 &&
	       cl_add(arg, tid, comm) < 0;
}

char *cap_machine_cmdlines(const char *saved, json_t *start_tasks)
{
	struct cmdline_buf b = { 0 };
	json_t *task;
	size_t i;
	const char *p;

	/* The kernel's saved_cmdlines first: they are the comms the trace saw. */
	for (p = saved; p && *p;) {
		size_t len = strcspn(p, "\n");
		char line[128];
		int pid;
		char comm[64];

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		if (sscanf(line, "%d %63[^\n]", &pid, comm) == 2 && cl_add(&b, pid, comm) < 0)
			goto nomem;
		p += len;
		if (*p)
			p++;
	}
	/* Then the tasks alive at the start, then those alive now. */
	json_array_foreach(start_tasks, i, task) {
		const char *comm = json_string_value(json_object_get(task, "comm"));

		if (comm && cl_add(&b, (int)json_integer_value(json_object_get(task, "pid")),
				   comm) < 0)
			goto nomem;
	}
	/* an unreadable /proc (-1) leaves the list as it is */
	if (cap_for_each_thread(cmdline_one, &b) > 0)
		goto nomem;
	free(b.pids);
	if (!b.text)
		b.text = strdup("");
	return b.text;
nomem:
	free(b.pids);
	free(b.text);
	return NULL;
}
