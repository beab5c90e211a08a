// SPDX-License-Identifier: GPL-2.0
/*
 * Checks a live capture and the host after it (used by live.sh):
 *   - the sidecar loads and belongs to the trace (same trace id),
 *   - the trace reads with libtracecmd: the recording window's markers, the
 *     core events, a sched_switch of every group's command,
 *   - the window lasted between MIN and MAX seconds,
 *   - each group ran in its cgroup (pid -> cgroup map at the start),
 *   - nothing is left: no instance, no cgroup, no process of any group.
 * Usage: capture_check TRACE MIN_S MAX_S [interrupted]
 * Prints every failed check with both sides; exit 0 only if all pass.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <trace-cmd.h>

#include <schedreplay/sidecar.h>

#include "check_fail.h"

struct counts {
	long switches, stat_runtime, wakeups, prints;
	int *pids;
	long *pid_switches;
	size_t nr_pids;
};

static int count(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct counts *c = data;
	struct tep_event *e = tep_find_event_by_record(tracecmd_get_tep(h), r);
	unsigned long long pid;

	(void)cpu;
	if (!e)
		return 0;
	if (!strcmp(e->name, "sched_switch")) {
		c->switches++;
		if (tep_get_field_val(NULL, e, "prev_pid", r, &pid, 0) == 0)
			for (size_t i = 0; i < c->nr_pids; i++)
				if (c->pids[i] == (int)pid)
					c->pid_switches[i]++;
	} else if (!strcmp(e->name, "sched_stat_runtime")) {
		c->stat_runtime++;
	} else if (!strcmp(e->name, "sched_wakeup")) {
		c->wakeups++;
	} else if (!strcmp(e->name, "print")) {
		c->prints++;
	}
	return 0;
}

static bool alive(int pid)
{
	char path[64], buf[512];
	FILE *f;
	char *p;

	if (pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	/* a zombie is dead; it waits for whoever reaps orphans */
	p = p ? strrchr(buf, ')') : NULL;
	return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

int main(int argc, char **argv)
{
	struct counts c = { 0 };
	struct sr_error err;
	struct sidecar *sc;
	struct tracecmd_input *h;
	json_t *root;
	json_error_t jerr;
	char path[4096];
	const char *instance, *cgmount;
	double min_s, max_s, dur;
	bool interrupted;
	struct stat st;

	if (argc < 4) {
		fprintf(stderr, "usage: capture_check TRACE MIN_S MAX_S [interrupted]\n");
		return 2;
	}
	min_s = atof(argv[2]);
	max_s = atof(argv[3]);
	interrupted = argc > 4 && !strcmp(argv[4], "interrupted");

	sc = sidecar_load_for_trace(argv[1], &err);
	if (!sc) {
		fprintf(stderr, "FAIL: %s\n", err.msg);
		return 1;
	}
	snprintf(path, sizeof(path), "%s.json", argv[1]);
	root = json_load_file(path, 0, &jerr);
	if (!root) {
		fprintf(stderr, "FAIL: %s: %s\n", path, jerr.text);
		return 1;
	}
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "FAIL: %s does not open with libtracecmd\n", argv[1]);
		return 1;
	}
	if (tracecmd_get_traceid(h) != sc->trace_id)
		FAILF("trace id %llx != sidecar %llx", tracecmd_get_traceid(h),
		      (unsigned long long)sc->trace_id);
	c.nr_pids = sc->nr_groups;
	c.pids = calloc(c.nr_pids + 1, sizeof(int));
	c.pid_switches = calloc(c.nr_pids + 1, sizeof(long));
	if (!c.pids || !c.pid_switches)
		return 1;
	for (size_t i = 0; i < sc->nr_groups; i++)
		c.pids[i] = sc->groups[i].pid;
	tracecmd_iterate_events(h, NULL, 0, count, &c);
	tracecmd_close(h);

	if (!sc->have_window)
		FAILF("no start/end markers in the sidecar");
	dur = (double)(sc->end_ts - sc->start_ts) * 1e-9;
	if (dur < min_s || dur > max_s)
		FAILF("recording window %.3f s, expected %.3f..%.3f s", dur, min_s, max_s);
	if (c.prints != 2)
		FAILF("%ld print records, expected the 2 markers", c.prints);
	if (c.switches <= 0 || c.stat_runtime <= 0 || c.wakeups <= 0)
		FAILF("core events missing: sched_switch %ld sched_stat_runtime %ld sched_wakeup %ld",
		      c.switches, c.stat_runtime, c.wakeups);
	for (int cpu = 0; cpu < sc->nr_cpus; cpu++)
		if (sc->cpus[cpu].to_idle < 0 || sc->cpus[cpu].from_idle < 0)
			FAILF("no trace.idle_switches entry for CPU %d", cpu);
	if (sc->hz <= 0)
		FAILF("no HZ in the sidecar");
	if (sc->nr_cpus != (int)sysconf(_SC_NPROCESSORS_CONF))
		FAILF("sidecar has %d CPUs, the host %ld", sc->nr_cpus,
		      sysconf(_SC_NPROCESSORS_CONF));
	if (json_is_true(json_object_get(json_object_get(root, "capture"), "interrupted")) !=
	    interrupted)
		FAILF("capture.interrupted is not %s", interrupted ? "true" : "false");

	/*
	 * The kernel's per-thread sched state at both ends (docs/capture.md): read
	 * where the host has /proc/<pid>/sched, with each group still running at the
	 * end in the end read (taken before the workloads are stopped); else said
	 * unavailable.
	 */
	if (!sc->sched_start.listed || !sc->sched_end.listed)
		FAILF("sched_at_start / sched_at_end missing from the sidecar");
	else if (access("/proc/self/sched", R_OK) == 0) {
		if (!sc->sched_start.available || !sc->sched_end.available ||
		    !sc->sched_start.nr_tasks || !sc->sched_end.nr_tasks)
			FAILF("sched_at_start / sched_at_end unavailable or empty on a host with "
			      "/proc/self/sched");
		for (size_t i = 0; i < sc->nr_groups; i++) {
			const struct sidecar_sched_task *k0, *k1;

			if (!sc->groups[i].stopped_at_end)
				continue;
			k0 = sidecar_sched_find(&sc->sched_start, sc->groups[i].pid);
			k1 = sidecar_sched_find(&sc->sched_end, sc->groups[i].pid);
			if (!k0 || !k1)
				FAILF("group %s: pid %d not in both sched snapshots", sc->groups[i].name,
				      sc->groups[i].pid);
			else if (k1->v[SIDECAR_SCHED_NR_SWITCHES] < k0->v[SIDECAR_SCHED_NR_SWITCHES] ||
				 !k1->have[SIDECAR_SCHED_UTIL_AVG] || !k1->state)
				FAILF("group %s: its end snapshot is not later than its start one or "
				      "lacks util_avg / state", sc->groups[i].name);
			else if (k0->starttime < 0 || k1->starttime != k0->starttime)
				FAILF("group %s: starttime %lld at the start read, %lld at the end (one "
				      "process: the same stat field 22)", sc->groups[i].name,
				      (long long)k0->starttime, (long long)k1->starttime);
		}
		{
			const struct sidecar_sched_task *me =
				sidecar_sched_find(&sc->sched_end, sc->capture_pid);

			if (sc->capture_starttime < 0 || !me || me->starttime != sc->capture_starttime)
				FAILF("capture.starttime %lld is not the end read's of capture.pid %d",
				      (long long)sc->capture_starttime, sc->capture_pid);
		}
	} else if (sc->sched_start.available || sc->sched_end.available) {
		FAILF("sched snapshots available on a host without /proc/self/sched");
	}

	instance = json_string_value(json_object_get(json_object_get(root, "trace"), "instance"));
	cgmount = json_string_value(json_object_get(json_object_get(root, "cgroup"), "cpu_mount"));
	for (size_t i = 0; i < sc->nr_groups; i++) {
		const struct sidecar_group *g = &sc->groups[i];

		if (c.pid_switches[i] == 0)
			FAILF("group %s (pid %d) never switched out in the trace", g->name, g->pid);
		if (g->cgroup) {
			const char *cg = sidecar_cgroup_of(sc, g->pid);

			if (!cg || strcmp(cg, g->cgroup))
				FAILF("group %s: pid %d in cgroup %s at the start, expected %s", g->name,
				      g->pid, cg ? cg : "(none)", g->cgroup);
			if (!sidecar_find_cgroup(sc, g->cgroup))
				FAILF("group %s: cgroup %s missing from the hierarchy", g->name, g->cgroup);
			if (cgmount) {
				snprintf(path, sizeof(path), "%s%s", cgmount, g->cgroup);
				if (stat(path, &st) == 0)
					FAILF("cgroup %s left behind", path);
			}
		}
		if (alive(g->pid))
			FAILF("group %s: pid %d still running", g->name, g->pid);
		if (kill(-g->pid, 0) == 0)
			FAILF("group %s: process group %d still has members", g->name, g->pid);
	}
	if (instance) {
		snprintf(path, sizeof(path), "/sys/kernel/tracing/instances/%s", instance);
		if (stat(path, &st) == 0)
			FAILF("tracefs instance %s left behind", path);
		snprintf(path, sizeof(path), "/sys/kernel/tracing/instances/%s-fn", instance);
		if (stat(path, &st) == 0)
			FAILF("tracefs instance %s left behind", path);
	}
	if (cgmount && instance) {
		snprintf(path, sizeof(path), "%s/%s", cgmount, instance);
		if (stat(path, &st) == 0)
			FAILF("cgroup %s left behind", path);
	}
	printf("capture_check: %s: %.3f s, %ld sched_switch, %ld sched_stat_runtime, %zu group(s)\n",
	       argv[1], dur, c.switches, c.stat_runtime, sc->nr_groups);
	free(c.pids);
	free(c.pid_switches);
	json_decref(root);
	sidecar_free(sc);
	return failures ? 1 : 0;
}
