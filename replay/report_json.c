// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output of `schedreplay report` (jansson). The schema is a contract,
 * documented in docs/report.md: fields are only ever added.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include <schedreplay/cli.h>

#include "report_local.h"

/*
 * Comms and cgroup paths are bytes, JSON wants UTF-8: a byte that is not
 * UTF-8 is written \xNN (sr_json_key()); jansson escapes the rest.
 */
static const char *clean(const char *s, char *buf, size_t n)
{
	return sr_json_key(s, buf, n);
}

static json_t *jstr(const char *s)
{
	return sr_json_string(s);
}

/* jansson integers are signed 64-bit; every count here fits. */
static json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *groups(const struct report_data *d, enum lat_group_key key, enum lat_kind kind)
{
	json_t *o = json_object();
	size_t n = lat_nr_groups(d->lat, key);

	for (size_t i = 0; o && i < n; i++) {
		const struct lat_group *g = lat_group_at(d->lat, key, i);

		char buf[4096];

		if (g->lat[kind].count)
			json_object_set_new(o, clean(g->key, buf, sizeof(buf)), sr_hist_json(&g->lat[kind]));
	}
	return o;
}

static json_t *latency_section(const struct report_data *d, const struct report_opts *o,
			       enum lat_kind kind)
{
	json_t *l = json_object();

	json_object_set_new(l, "all", sr_hist_json(lat_get_all(d->lat, kind)));
	json_object_set_new(l, "by_comm", groups(d, LAT_BY_COMM, kind));
	if (o->by[LAT_BY_PID])
		json_object_set_new(l, "by_pid", groups(d, LAT_BY_PID, kind));
	if (o->by[LAT_BY_CGROUP])
		json_object_set_new(l, "by_cgroup", groups(d, LAT_BY_CGROUP, kind));
	return l;
}

/* trace.repair: what the repair stage restored (null with --no-repair). */
static json_t *repair_section(const struct report_data *d)
{
	const struct trace_info *in = d->info;
	json_t *r, *cpus;

	if (!in->repair_cpus)
		return json_null();
	r = json_object();
	cpus = json_array();
	json_object_set_new(r, "mode", json_string("idle_exit"));
	json_object_set_new(r, "rule", json_string(report_repair_rule));
	json_object_set_new(r, "restored", jint(d->restored));
	for (int c = 0; c < in->repair_nr_cpus; c++) {
		const struct trace_repair_cpu *rc = &in->repair_cpus[c];
		int sc = report_sidecar_idle_exit_untraced(d, c);
		json_t *o = json_object();

		json_object_set_new(o, "cpu", json_integer(c));
		json_object_set_new(o, "traced_to_idle", jint(rc->traced_to_idle));
		json_object_set_new(o, "traced_from_idle", jint(rc->traced_from_idle));
		json_object_set_new(o, "restored", jint(rc->restored));
		json_object_set_new(o, "at_stat_runtime", jint(rc->at_stat_runtime));
		json_object_set_new(o, "at_lower_bound", jint(rc->at_lower_bound));
		json_object_set_new(o, "at_first_event", jint(rc->at_first_event));
		json_object_set_new(o, "stat_before_bound", jint(rc->stat_before_bound));
		json_object_set_new(o, "stat_after_first", jint(rc->stat_after_first));
		json_object_set_new(o, "clamped_to_window", jint(rc->clamped_to_window));
		json_object_set_new(o, "sidecar_idle_exit_untraced",
				    sc < 0 ? json_null() : json_boolean(sc));
		json_array_append_new(cpus, o);
	}
	json_object_set_new(r, "per_cpu", cpus);
	return r;
}

static json_t *trace_section(const struct report_data *d)
{
	const struct trace_info *in = d->info;
	json_t *t = json_object(), *per_cpu = json_array();

	json_object_set_new(t, "path", jstr(in->path));
	json_object_set_new(t, "file_version", json_integer(in->file_version));
	json_object_set_new(t, "compression", json_string(in->compression));
	json_object_set_new(t, "reader", json_string(in->backend));
	json_object_set_new(t, "format", json_string(in->format));
	json_object_set_new(t, "cpus", json_integer(in->cpus));
	json_object_set_new(t, "uname", in->uname ? jstr(in->uname) : json_null());
	json_object_set_new(t, "clock", in->clock ? jstr(in->clock) : json_null());
	if (in->has_trace_id) {
		char id[24];

		snprintf(id, sizeof(id), "0x%016" PRIx64, in->trace_id);
		json_object_set_new(t, "trace_id", json_string(id));
	} else {
		json_object_set_new(t, "trace_id", json_null());
	}
	json_object_set_new(t, "buffer", jstr(in->buffer));
	json_object_set_new(t, "buffer_reason", jstr(in->buffer_reason));
	json_object_set_new(t, "first_ts_ns", jint(in->first_ts));
	json_object_set_new(t, "last_ts_ns", jint(in->last_ts));
	json_object_set_new(t, "duration_ns", jint(in->last_ts - in->first_ts));
	json_object_set_new(t, "events_total", jint(d->events));
	json_object_set_new(t, "lost_events", jint(d->lost_total));
	json_object_set_new(t, "lost_events_unknown", json_boolean(d->lost_unknown));
	for (int c = 0; c < d->nr_cpus; c++)
		json_array_append_new(per_cpu, jint(d->lost_per_cpu[c]));
	json_object_set_new(t, "lost_events_per_cpu", per_cpu);
	if (d->sc) {
		json_t *sc = json_object();

		json_object_set_new(sc, "path", jstr(d->sc->path));
		json_object_set_new(sc, "trace_id_checked", json_boolean(d->sidecar_id_checked));
		json_object_set_new(sc, "tasks_seeded", jint(d->sidecar_seeded));
		json_object_set_new(sc, "cgroup_version", json_integer(d->sc->cgroup_version));
		json_object_set_new(t, "sidecar", sc);
	} else {
		json_object_set_new(t, "sidecar", json_null());
	}
	json_object_set_new(t, "sidecar_note", jstr(d->sidecar_note));
	/* the sidecar's lost-event counters against the trace's gaps */
	json_object_set_new(t, "lost_events_sidecar", sidecar_lost_json(&d->lost_sc));
	json_object_set_new(t, "repair", repair_section(d));
	return t;
}

static json_t *task_json(const struct lat_task *t)
{
	json_t *o = json_object();

	json_object_set_new(o, "pid", json_integer(t->pid));
	json_object_set_new(o, "comm", jstr(t->comm));
	json_object_set_new(o, "cgroup", t->cgroup ? jstr(t->cgroup) : json_null());
	json_object_set_new(o, "first_ts_ns", jint(t->first_ts));
	json_object_set_new(o, "last_ts_ns", jint(t->last_ts));
	json_object_set_new(o, "exited", json_boolean(t->exited));
	json_object_set_new(o, "runtime_ns", jint(t->runtime_ns));
	json_object_set_new(o, "stat_runtime_ns", jint(t->stat_runtime_ns));
	json_object_set_new(o, "stat_runtime_events", jint(t->nr_stat_runtime));
	json_object_set_new(o, "switches", jint(t->switches));
	json_object_set_new(o, "preemptions", jint(t->preemptions));
	json_object_set_new(o, "migrations", jint(t->migrations));
	json_object_set_new(o, "wakings_while_running", jint(t->wakings_running));
	json_object_set_new(o, "wakings_while_pending", jint(t->wakings_pending));
	json_object_set_new(o, "wakeup_latency_us", sr_hist_json(&t->lat[LAT_WAKEUP]));
	json_object_set_new(o, "runqueue_wait_us", sr_hist_json(&t->lat[LAT_RUNQ_WAIT]));
	return o;
}

int report_print_json(FILE *out, const struct report_data *d, const struct report_opts *o,
		      struct sr_error *err)
{
	const struct lat_summary *s = lat_get_summary(d->lat);
	json_t *root = json_object(), *events = json_object(), *tasks = json_array();
	json_t *warnings = json_array(), *def = json_object(), *filter = json_object();
	int ret = 0;

	if (!root || !events || !tasks || !warnings || !def || !filter) {
		json_decref(root);
		json_decref(events);
		json_decref(tasks);
		json_decref(warnings);
		json_decref(def);
		json_decref(filter);
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	json_object_set_new(root, "schema_version", json_integer(REPORT_SCHEMA_VERSION));
	json_object_set_new(root, "trace", trace_section(d));
	for (size_t i = 0; i < d->nr_counts; i++) {
		char buf[256];

		json_object_set_new(events, clean(d->counts[i].name, buf, sizeof(buf)),
				    jint(report_count_of(d, d->counts[i].name)));
	}
	json_object_set_new(root, "events", events);

	json_object_set_new(def, "start_event",
			    json_string(trace_event_type_name(s->start_event)));
	json_object_set_new(def, "text", json_string(report_latency_definition));
	json_object_set_new(def, "percentiles",
			    json_string("nearest rank on a log-linear histogram: 128 buckets per "
					"power of two, bucket midpoint clamped to [min, max], "
					"relative error <= 1/256"));
	json_object_set_new(def, "intervals_dropped_at_lost_events",
			    jint(s->intervals_dropped_lost));
	json_object_set_new(def, "wakeup_intervals_dropped_before_first_waking",
			    jint(s->provisional_dropped));
	json_object_set_new(def, "wakings_while_running", jint(s->wakings_running));
	json_object_set_new(def, "wakings_while_pending", jint(s->wakings_pending));
	{
		json_t *u = json_object();

		json_object_set_new(u, "seen_idle", jint(s->lost_switches[LAT_LOST_IDLE]));
		json_object_set_new(u, "woken_elsewhere", jint(s->lost_switches[LAT_LOST_WOKEN]));
		json_object_set_new(u, "switched_in_elsewhere",
				    jint(s->lost_switches[LAT_LOST_SWITCHED_IN]));
		json_object_set_new(u, "migrated", jint(s->lost_switches[LAT_LOST_MIGRATED]));
		json_object_set_new(u, "other_task_there", jint(s->lost_switches[LAT_LOST_OTHER]));
		json_object_set_new(u, "at_next_exec_start", jint(s->lost_switch_stamped));
		json_object_set_new(u, "preempted", jint(s->lost_switch_preempted));
		json_object_set_new(u, "at_remote_stat_runtime", jint(s->lost_switches_remote));
		json_object_set_new(u, "wakings_starting_intervals", jint(s->lost_switch_wakings));
		json_object_set_new(u, "intervals_ended_at_first_event",
				    jint(s->intervals_revealed));
		json_object_set_new(def, "untraced_switches", u);
	}
	json_object_set_new(def, "cgroup_attach_policy", jstr(d->cgroup_policy));
	json_object_set_new(def, "cgroup_moves_followed", jint(s->cgroup_moves));
	json_object_set_new(def, "cgroup_moves_ignored", jint(s->cgroup_moves_ignored));
	json_object_set_new(root, "latency_definition", def);

	json_object_set_new(filter, "comm_prefix",
			    o->comm_prefix ? jstr(o->comm_prefix) : json_null());
	json_object_set_new(filter, "pid", o->pid >= 0 ? json_integer(o->pid) : json_null());
	json_object_set_new(root, "filter", filter);

	json_object_set_new(root, "wakeup_latency_us", latency_section(d, o, LAT_WAKEUP));
	json_object_set_new(root, "wakeup_paths", lat_json_paths(d->lat));
	json_object_set_new(root, "runqueue_wait_us", latency_section(d, o, LAT_RUNQ_WAIT));
	for (size_t i = 0; i < lat_nr_tasks(d->lat); i++) {
		const struct lat_task *t = lat_task_at(d->lat, i);

		if (lat_filter_match(d->lat, t->comm, t->pid))
			json_array_append_new(tasks, task_json(t));
	}
	json_object_set_new(root, "tasks", tasks);
	for (int i = 0; i < d->nr_warnings; i++)
		json_array_append_new(warnings, jstr(d->warnings[i]));
	json_object_set_new(root, "warnings", warnings);

	if (json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) || fputc('\n', out) == EOF) {
		sr_error_set(err, EIO, "writing the JSON output failed");
		ret = -1;
	}
	json_decref(root);
	return ret;
}
