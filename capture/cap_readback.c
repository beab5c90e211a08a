// SPDX-License-Identifier: GPL-2.0
/*
 * Read the written trace.dat back with libtracecmd, as every consumer will:
 * a file that does not parse fails the capture instead of surfacing later.
 * The pass also yields what the sidecar reports from the data itself: record
 * counts per event, pages that flag missed events, and the trace-clock
 * timestamps of the start and end markers (ftrace:print records written to
 * the instance's trace_marker, so they are in the trace clock by construction).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "cap_local.h"

struct rb_ctx {
	struct cap_readback *rb;
	const char *start_mark, *end_mark;
	struct tep_event *print, *sched_switch;
	int failed;
};

/* Count switches into and out of idle per CPU: a kernel that does not trace
 * one of them (as the development VM's kernel for CPU 1 leaving idle) must
 * be flagged, or every wakeup onto that idle CPU looks milliseconds long. */
static void count_idle(struct rb_ctx *c, struct tep_event *event, struct tep_record *record,
		       int cpu)
{
	unsigned long long prev, next;

	if (cpu < 0 || cpu >= c->rb->nr_cpus)
		return;
	if (tep_get_field_val(NULL, event, "prev_pid", record, &prev, 0) < 0 ||
	    tep_get_field_val(NULL, event, "next_pid", record, &next, 0) < 0)
		return;
	if (prev == 0)
		c->rb->from_idle[cpu]++;
	if (next == 0)
		c->rb->to_idle[cpu]++;
}

static int rb_record(struct tracecmd_input *handle, struct tep_record *record, int cpu,
		     void *data)
{
	struct rb_ctx *c = data;
	struct tep_handle *tep = tracecmd_get_tep(handle);
	struct tep_event *event = tep_find_event_by_record(tep, record);
	json_t *n;

	c->rb->events++;
	if (record->missed_events)
		c->rb->missed_pages++;
	if (!c->rb->first_ts || record->ts < c->rb->first_ts)
		c->rb->first_ts = record->ts;
	if (record->ts > c->rb->last_ts)
		c->rb->last_ts = record->ts;
	if (!event)
		return 0;
	if (event == c->sched_switch || (!c->sched_switch && !strcmp(event->name, "sched_switch") &&
					 !strcmp(event->system, "sched"))) {
		c->sched_switch = event;
		count_idle(c, event, record, cpu);
	}
	n = json_object_get(c->rb->per_event, event->name);
	if (n)
		json_integer_set(n, json_integer_value(n) + 1);
	else if (json_object_set_new(c->rb->per_event, event->name, json_integer(1)))
		c->failed = 1;
	if (event == c->print || (!c->print && !strcmp(event->name, "print") &&
				  !strcmp(event->system, "ftrace"))) {
		/* buf is "char buf[]": the text runs to the end of the record */
		struct tep_format_field *f = tep_find_field(event, "buf");
		const char *buf;
		size_t len;

		c->print = event;
		if (!f || f->offset >= record->size)
			return 0;
		buf = (const char *)record->data + f->offset;
		len = (size_t)(record->size - f->offset);
		if (!c->rb->have_start && len >= strlen(c->start_mark) &&
		    !strncmp(buf, c->start_mark, strlen(c->start_mark))) {
			c->rb->have_start = true;
			c->rb->start_ts = record->ts;
		} else if (len >= strlen(c->end_mark) &&
			   !strncmp(buf, c->end_mark, strlen(c->end_mark))) {
			c->rb->have_end = true;
			c->rb->end_ts = record->ts;
		}
	}
	return 0;
}

int cap_readback(const char *path, int nr_cpus, const char *start_mark, const char *end_mark,
		 struct cap_readback *rb, struct sr_error *err)
{
	struct rb_ctx c = { .rb = rb, .start_mark = start_mark, .end_mark = end_mark };
	struct tracecmd_input *handle;

	memset(rb, 0, sizeof(*rb));
	rb->per_event = json_object();
	if (!rb->per_event) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		sr_error_set(err, errno ? errno : EINVAL,
			     "%s: the written trace.dat does not read back with libtracecmd", path);
		return -1;
	}
	rb->nr_cpus = nr_cpus;
	rb->from_idle = calloc(rb->nr_cpus > 0 ? rb->nr_cpus : 1, sizeof(uint64_t));
	rb->to_idle = calloc(rb->nr_cpus > 0 ? rb->nr_cpus : 1, sizeof(uint64_t));
	if (!rb->from_idle || !rb->to_idle) {
		tracecmd_close(handle);
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	if (tracecmd_iterate_events(handle, NULL, 0, rb_record, &c) < 0 || c.failed) {
		tracecmd_close(handle);
		sr_error_set(err, EINVAL, "%s: reading the written records back failed", path);
		return -1;
	}
	tracecmd_close(handle);
	return 0;
}

void cap_readback_release(struct cap_readback *rb)
{
	if (!rb)
		return;
	json_decref(rb->per_event);
	rb->per_event = NULL;
	free(rb->from_idle);
	free(rb->to_idle);
	rb->from_idle = rb->to_idle = NULL;
}
