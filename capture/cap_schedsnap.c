// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own per-thread scheduler state, read from
 * /proc/<pid>/task/<tid>/sched (CONFIG_SCHED_DEBUG's proc_sched_show_task())
 * and the state letter of /proc/<pid>/task/<tid>/stat, once just before
 * tracing starts and once just after it stops (the workloads still alive):
 * the sidecar's "sched_at_start" / "sched_at_end" (docs/capture.md), with
 * each thread's Cpus_allowed_list of /proc/<pid>/task/<tid>/status.  The
 * replay compares the model's PELT of each thread with the kernel's
 * se.avg at the end (docs/replay.md "PELT at the capture's end").
 *
 * Nothing here fails a capture: a thread gone between the directory read
 * and the file read is skipped, a field the kernel does not print is null,
 * and a kernel without the files gives {"available": false, "reason"}.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cap_local.h"

/*
 * The fields kept (sidecar.h's enum sidecar_sched_field: their keys are
 * sidecar_sched_key()'s): the name proc_sched_show_task() prints, and
 * whether the value is printed as SPLIT_NS() milliseconds ("%Ld.%06ld") to
 * be stored as nanoseconds.
 */
static const struct {
	const char *proc;
	bool ms;
} fields[SIDECAR_SCHED_NR] = {
	[SIDECAR_SCHED_WEIGHT] = { "se.load.weight", false },
	[SIDECAR_SCHED_LOAD_SUM] = { "se.avg.load_sum", false },
	[SIDECAR_SCHED_RUNNABLE_SUM] = { "se.avg.runnable_sum", false },
	[SIDECAR_SCHED_UTIL_SUM] = { "se.avg.util_sum", false },
	[SIDECAR_SCHED_LOAD_AVG] = { "se.avg.load_avg", false },
	[SIDECAR_SCHED_RUNNABLE_AVG] = { "se.avg.runnable_avg", false },
	[SIDECAR_SCHED_UTIL_AVG] = { "se.avg.util_avg", false },
	[SIDECAR_SCHED_LAST_UPDATE] = { "se.avg.last_update_time", false },
	[SIDECAR_SCHED_UTIL_EST] = { "se.avg.util_est", false },
	[SIDECAR_SCHED_EXEC_START] = { "se.exec_start", true },
	[SIDECAR_SCHED_SUM_EXEC] = { "se.sum_exec_runtime", true },
	[SIDECAR_SCHED_NR_MIGRATIONS] = { "se.nr_migrations", false },
	[SIDECAR_SCHED_NR_SWITCHES] = { "nr_switches", false },
	[SIDECAR_SCHED_NR_VOLUNTARY] = { "nr_voluntary_switches", false },
	[SIDECAR_SCHED_NR_INVOLUNTARY] = { "nr_involuntary_switches", false },
	[SIDECAR_SCHED_POLICY] = { "policy", false },
	[SIDECAR_SCHED_PRIO] = { "prio", false },
	[SIDECAR_SCHED_SLICE] = { "se.slice", false },
};

/* "123", "-5": a whole number; *end past it. */
static bool parse_int(const char *p, const char **end, int64_t *v)
{
	char *e;
	long long x;

	errno = 0;
	x = strtoll(p, &e, 10);
	if (e == p || errno)
		return false;
	*v = x;
	*end = e;
	return true;
}

/*
 * SPLIT_NS(): "%Ld.%06ld" of ns / 1e6 and ns % 1e6 (a negative value's
 * remainder printed without its sign: "-3.000500" is -3 ms - 500 ns).
 */
static bool parse_ms(const char *p, const char **end, int64_t *v)
{
	int64_t ms, frac = 0;
	int digits = 0;
	bool neg = *p == '-';

	if (!parse_int(p, &p, &ms))
		return false;
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p) && digits < 6; p++, digits++)
			frac = frac * 10 + (*p - '0');
		if (digits != 6 || isdigit((unsigned char)*p))
			return false;
	}
	if (ms > INT64_MAX / 1000000 - 1 || ms < INT64_MIN / 1000000 + 1)
		return false;
	*v = ms * 1000000 + (neg ? -frac : frac);
	*end = p;
	return true;
}

int cap_sched_parse(const char *text, struct cap_sched *out)
{
	const char *line = text;
	int found = 0;

	memset(out, 0, sizeof(*out));
	while (line && *line) {
		const char *nl = strchr(line, '\n'), *colon, *p;
		size_t nlen;

		/* "name   :   value"; a line cut short has no value and is left out */
		colon = memchr(line, ':', nl ? (size_t)(nl - line) : strlen(line));
		if (colon && nl) {
			nlen = (size_t)(colon - line);
			while (nlen && line[nlen - 1] == ' ')
				nlen--;
			for (int f = 0; f < SIDECAR_SCHED_NR; f++) {
				int64_t v;

				if (out->have[f] || strlen(fields[f].proc) != nlen ||
				    memcmp(line, fields[f].proc, nlen))
					continue;
				for (p = colon + 1; *p == ' '; p++)
					;
				/*
				 * past what the kernel prints (a garbled line): null,
				 * not a sidecar the replay refuses (fuzz41)
				 */
				if ((fields[f].ms ? parse_ms(p, &p, &v) : parse_int(p, &p, &v)) &&
				    p == nl && sidecar_sched_in_range(f, v)) {
					out->v[f] = v;
					out->have[f] = true;
					found++;
				}
				break;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return found;
}

/* The state letter of a /proc/.../stat text (after "comm) "), or 0. */
char cap_sched_state(const char *stat_text)
{
	const char *p = stat_text ? strrchr(stat_text, ')') : NULL;

	return p && p[1] == ' ' && isalpha((unsigned char)p[2]) ? p[2] : 0;
}

/*
 * Field @field (4 and up) of a /proc/.../stat text, -1 if the text is cut
 * short or the field is not a number of at most @max.  The comm (field 2)
 * may hold spaces and parentheses, so fields are counted from the last
 * ')': the state letter after it is field 3.
 */
static long long stat_field(const char *stat_text, int field, long long max)
{
	const char *p = stat_text ? strrchr(stat_text, ')') : NULL;
	char *e;
	long long v;

	if (!p || p[1] != ' ')
		return -1;
	p += 2;                                 /* field 3 */
	for (int f = 3; f < field; f++) {
		p = strchr(p, ' ');
		if (!p)
			return -1;
		p++;
	}
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	v = strtoll(p, &e, 10);
	if (errno || v > max || (*e != ' ' && *e != '\n' && *e))
		return -1;
	return v;
}

/*
 * Field 39 of a /proc/.../stat text, "processor" (do_task_stat():
 * task_cpu(task)): the CPU the thread last ran on, which for a sleeping
 * fair thread is the CPU of the cfs_rq its blocked load stays attached to
 * until it wakes elsewhere (migrate_task_rq_fair()).  -1 if the text is
 * cut short or the field is not a CPU number.
 */
int cap_sched_cpu(const char *stat_text)
{
	return (int)stat_field(stat_text, 39, 65535);
}

/*
 * Field 22 of a /proc/.../stat text, "starttime" (do_task_stat():
 * task->start_boottime in USER_HZ ticks): with the pid it names one thread
 * of one boot - a pid reused later has a later start.  -1 if the text is
 * cut short or the field is not a number.
 */
long long cap_sched_starttime(const char *stat_text)
{
	return stat_field(stat_text, 22, LLONG_MAX);
}

/*
 * The "Cpus_allowed_list:" line of a /proc/.../status text
 * (task_cpus_allowed(): the task's cpus_mask as a list, "0-3", "1",
 * "0,2-3") copied into @out; false if the line is absent, empty, longer
 * than @len - 1 or holds anything but digits, ',' and '-'.
 */
bool cap_sched_cpus_allowed(const char *status_text, char *out, size_t len)
{
	static const char key[] = "Cpus_allowed_list:";
	const char *p = status_text, *e;
	size_t n;

	while (p && strncmp(p, key, sizeof(key) - 1)) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p || !len)
		return false;
	for (p += sizeof(key) - 1; *p == ' ' || *p == '\t'; p++)
		;
	for (e = p; isdigit((unsigned char)*e) || *e == ',' || *e == '-'; e++)
		;
	n = (size_t)(e - p);
	if (!n || n >= len || (*e && *e != '\n'))
		return false;
	memcpy(out, p, n);
	out[n] = 0;
	return true;
}

json_t *cap_sched_task_json(int pid, int tgid, char state, int cpu, long long starttime,
			    const struct cap_sched *s)
{
	char st[2] = { state, 0 };
	json_t *o = json_pack("{s:i, s:i}", "pid", pid, "tgid", tgid);

	if (!o)
		return NULL;
	json_object_set_new(o, "state", state ? json_string(st) : json_null());
	json_object_set_new(o, "cpu", cpu >= 0 ? json_integer(cpu) : json_null());
	json_object_set_new(o, "starttime", starttime >= 0 ? json_integer(starttime) : json_null());
	for (int f = 0; f < SIDECAR_SCHED_NR; f++)
		json_object_set_new(o, sidecar_sched_key(f),
				    s->have[f] ? json_integer((json_int_t)s->v[f]) : json_null());
	return o;
}

static json_t *not_available(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static json_t *not_available(const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return json_pack("{s:b, s:s}", "available", false, "reason", why);
}

/* One thread's entry, or NULL if it is gone. */
static json_t *read_thread(int tgid, int tid)
{
	char path[96], list[256], *sched, *stat, *status;
	struct cap_sched s;
	long long starttime;
	char state;
	int cpu;
	json_t *o;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", tgid, tid);
	if (!(sched = cap_read_file(path, NULL)))
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", tgid, tid);
	stat = cap_read_file(path, NULL);
	state = cap_sched_state(stat);
	cpu = cap_sched_cpu(stat);
	starttime = cap_sched_starttime(stat);
	free(stat);
	cap_sched_parse(sched, &s);
	free(sched);
	o = cap_sched_task_json(tid, tgid, state, cpu, starttime, &s);
	/* its allowed CPUs (docs/capture.md "Affinity"); null if unreadable */
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", tgid, tid);
	status = cap_read_file(path, NULL);
	if (o)
		json_object_set_new(o, "cpus_allowed",
				    cap_sched_cpus_allowed(status, list, sizeof(list)) ?
				    json_string(list) : json_null());
	free(status);
	return o;
}

static int64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

struct snap_walk {
	json_t *tasks;
	size_t n;                      /* threads met */
};

/* One thread into the snapshot; 1 (stop) past CAP_SCHED_MAX_THREADS. */
static int snap_one(int tgid, int tid, void *arg)
{
	struct snap_walk *w = arg;
	json_t *o;

	if (++w->n > CAP_SCHED_MAX_THREADS)
		return 1;
	if ((o = read_thread(tgid, tid)))
		json_array_append_new(w->tasks, o);
	return 0;
}

/*
 * Drop from @tasks (entries with "pid") every entry whose pid a later entry
 * has too, keeping the last read; returns how many went.  /proc/TGID/task
 * lists a group's threads in its thread-list order (proc_task_readdir()):
 * a multithreaded exec (de_thread()) during the walk gives the exec'ing
 * thread the leader's pid, and a walk that read the leader while listing
 * its threads then met the thread under the same pid (before snap50, which
 * lists each process whole, then reads its leader last); a pid reused
 * during the walk does the same.
 * The replay refuses a snapshot that lists a pid twice (sidecar.c), which
 * a busy machine's capture must not write (robust49).  Walked from the last
 * entry back with the pids met in a jansson object as a hash set: O(n) (a
 * pairwise scan took 47 ms at CAP_SCHED_MAX_THREADS entries, inside the
 * start read, before tracing begins).  (size_t)-1 when out of memory.
 */
size_t cap_sched_dedup(json_t *tasks)
{
	json_t *seen = json_object();
	size_t removed = 0;

	if (!seen)
		return (size_t)-1;
	for (size_t i = json_array_size(tasks); i-- > 0;) {
		char key[24];

		snprintf(key, sizeof(key), "%" JSON_INTEGER_FORMAT,
			 json_integer_value(json_object_get(json_array_get(tasks, i), "pid")));
		if (json_object_get(seen, key)) {
			json_array_remove(tasks, i);    /* the later entries keep their place */
			removed++;
		} else if (json_object_set_new(seen, key, json_true())) {
			json_decref(seen);
			return (size_t)-1;
		}
	}
	json_decref(seen);
	return removed;
}

json_t *cap_sched_snapshot(void)
{
	char probe[64];
	struct snap_walk w = { 0 };
	int64_t t0 = mono_ns();
	int r;

	snprintf(probe, sizeof(probe), "/proc/%d/sched", (int)getpid());
	if (access(probe, R_OK) < 0)
		return not_available("%s: %s (a kernel without CONFIG_SCHED_DEBUG has no "
				     "per-task sched file)", probe, strerror(errno));
	if (!(w.tasks = json_array()))
		return NULL;
	if ((r = cap_for_each_thread(snap_one, &w)) < 0) {
		int e = errno;

		json_decref(w.tasks);
		return not_available("/proc: %s", strerror(e));
	}
	if (r > 0) {
		json_decref(w.tasks);
		return not_available("more than %d threads: left out to keep the sidecar "
				     "within its bounds (docs/capture.md)", CAP_SCHED_MAX_THREADS);
	}
	if (cap_sched_dedup(w.tasks) == (size_t)-1) {
		json_decref(w.tasks);
		return NULL;
	}
	return json_pack("{s:b, s:I, s:o}", "available", true, "read_us",
			 (json_int_t)((mono_ns() - t0) / 1000), "tasks", w.tasks);
}
