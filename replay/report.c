// SPDX-License-Identifier: GPL-2.0
/* One pass over a trace for `schedreplay report`: see report_local.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_local.h"

const char report_latency_definition[] =
	"wakeup latency: from the first sched_waking (or sched_wakeup_new for a new task) of a "
	"task that is not on a CPU and has no pending wakeup, to the sched_switch that puts it "
	"on a CPU; wakings of a running task or of one with a pending wakeup start nothing; "
	"the sample belongs to next_comm of that sched_switch; without sched_waking in the "
	"trace, sched_wakeup starts the interval. run-queue wait: from a sched_switch with "
	"prev_state R/R+ (preemption) to the task's next sched_switch in.";

void report_opts_default(struct report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pid = -1;
	o->cgroup_root = -1;
	o->top = 10;
	o->start_mode = LAT_START_AUTO;
	o->by[LAT_BY_COMM] = true;
}

static void warn(struct report_data *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct report_data *d, const char *fmt, ...)
{
	va_list ap;

	if (d->nr_warnings == REPORT_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(d->warnings[d->nr_warnings++], sizeof(d->warnings[0]), fmt, ap);
	va_end(ap);
}

uint64_t report_count_of(const struct report_data *d, const char *name)
{
	uint64_t n = 0;

	for (size_t i = 0; i < d->nr_counts; i++)
		if (!strcmp(d->counts[i].name, name))
			n += d->counts[i].count;
	return n;
}

static int cmp_count(const void *a, const void *b)
{
	const struct report_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

int report_collect(const struct report_opts *o, struct report_data *d, struct sr_error *err)
{
	struct trace_open_opts topts = { .buffer = o->buffer, .backend = o->backend };
	struct lat_config cfg;
	struct trace_event ev;
	struct timespec t0, t1;
	const char *name;
	uint64_t count;
	int ret;

	memset(d, 0, sizeof(*d));
	d->reader = trace_open(o->path, &topts, err);
	if (!d->reader)
		return -1;
	d->info = trace_get_info(d->reader);
	lat_config_default(&cfg);
	cfg.start_mode = o->start_mode;
	cfg.comm_prefix = o->comm_prefix;
	cfg.pid = o->pid;
	cfg.cgroup_root = o->cgroup_root;
	for (int k = 0; k < LAT_NR_KEYS; k++)
		cfg.group_by[k] = o->by[k];
	d->lat = lat_machine_new(&cfg, err);
	if (!d->lat)
		return -1;
	if (o->prepare && o->prepare(d->lat, o->prepare_ctx, err))
		return -1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((ret = trace_next(d->reader, &ev, err)) == 1) {
		uint64_t lost = trace_lost_before(d->reader);

		if (lost)
			lat_machine_lost(d->lat, ev.cpu, lost);
		if (ev.type != TRACE_EV_OTHER) {
			d->sched_events++;
			if (lat_machine_feed(d->lat, &ev)) {
				sr_error_set(err, ENOMEM, "%s: out of memory", o->path);
				return -1;
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	d->read_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (ret < 0)
		return -1;
	if (lat_machine_finish(d->lat, d->info->last_ts)) {
		sr_error_set(err, ENOMEM, "%s: out of memory", o->path);
		return -1;
	}
	d->events = trace_events_read(d->reader);

	for (size_t i = 0; trace_event_count_at(d->reader, i, &name, &count); i++)
		d->nr_counts++;
	d->counts = calloc(d->nr_counts ? d->nr_counts : 1, sizeof(*d->counts));
	d->nr_cpus = trace_nr_cpus(d->reader);
	d->lost_per_cpu = calloc((size_t)d->nr_cpus + 1, sizeof(*d->lost_per_cpu));
	d->lost_unknown_per_cpu = calloc((size_t)d->nr_cpus + 1, sizeof(bool));
	if (!d->counts || !d->lost_per_cpu || !d->lost_unknown_per_cpu) {
		sr_error_set(err, ENOMEM, "%s: out of memory", o->path);
		return -1;
	}
	for (size_t i = 0; trace_event_count_at(d->reader, i, &name, &count); i++)
		d->counts[i] = (struct report_count){ name, count };
	qsort(d->counts, d->nr_counts, sizeof(*d->counts), cmp_count);

	for (int c = 0; c < d->nr_cpus; c++) {
		d->lost_per_cpu[c] = trace_lost_events(d->reader, c, &d->lost_unknown_per_cpu[c]);
		d->lost_total += d->lost_per_cpu[c];
		d->lost_unknown |= d->lost_unknown_per_cpu[c];
		if (d->lost_per_cpu[c])
			warn(d, "CPU %d: %s%" PRIu64 " events lost (ring buffer overrun); latency "
			     "intervals spanning the gap were dropped", c,
			     d->lost_unknown_per_cpu[c] ? "at least " : "", d->lost_per_cpu[c]);
	}

	if (!d->events) {
		sr_error_set(err, EINVAL, "%s: buffer '%s' holds no events", o->path,
			     d->info->buffer);
		return -1;
	}
	if (!report_count_of(d, "sched_switch")) {
		sr_error_set(err, EINVAL, "%s: no sched_switch events in buffer '%s' (%" PRIu64
			     " events of other types; capture with sched:sched_switch enabled)",
			     o->path, d->info->buffer, d->events);
		return -1;
	}
	if (!report_count_of(d, "sched_waking")) {
		if (report_count_of(d, "sched_wakeup"))
			warn(d, "no sched_waking events: sched_wakeup starts the wakeup latency "
			     "interval (later than sched_waking, so latencies are shorter)");
		else
			warn(d, "no sched_waking or sched_wakeup events: no wakeup latency");
	}
	return 0;
}

void report_data_release(struct report_data *d)
{
	if (!d)
		return;
	lat_machine_free(d->lat);
	trace_close(d->reader);
	free(d->counts);
	free(d->lost_per_cpu);
	free(d->lost_unknown_per_cpu);
	memset(d, 0, sizeof(*d));
}
