// SPDX-License-Identifier: GPL-2.0
/*
 * Read the written trace.dat back with libtracecmd, as every consumer will:
 * a file that does not parse fails the capture instead of surfacing later.
 * The pass also yields what the sidecar reports from the data itself: record
 * counts per event, pages that flag missed events, and the trace-clock
 * timestamps of the start and end markers (ftrace:print records written to
 * the instance's trace_marker, so they are in the trace clock by construction),
 * and the comms of tasks the file's cmdlines section does not name.
 *
 * Why the comms: the section starts from the kernel's saved_cmdlines (as
 * trace-cmd's does), which does not hold every task of a trace: it is a
 * cache of saved_cmdlines_size pids that a fork-heavy workload overflows,
 * and even below that size it lacked 72 of the 3052 tasks of
 * traces/forkexec.dat (short-lived fork/exec children). `trace-cmd report`
 * still names such tasks, because libtraceevent's sched plugin learns each
 * comm from the records it prints; KernelShark learns only the next_comm of
 * sched_switch records (this kernel does not trace CPU 1 leaving idle, so a
 * child that ran there may have none) and otherwise shows "<...>" in its
 * task column and plots. The records carry the comms (prev_comm/next_comm,
 * comm, child_comm, parent_comm with their pid fields), so the capture
 * completes the section from them: the latest comm of each pid, as
 * saved_cmdlines holds it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/tracelibs.h>

#include "cap_local.h"

/* pid -> the latest comm a record gave it; open addressing, pid 0 = empty */
struct comm_slot {
	int pid;
	char comm[16];               /* TASK_COMM_LEN */
};

/* The "<prefix>comm" / "<prefix>pid" field pairs of one event type. */
#define MAX_COMM_PAIRS 4
struct comm_fields {
	bool known;
	int nr;
	char comm[MAX_COMM_PAIRS][32], pid[MAX_COMM_PAIRS][32];
};

struct rb_ctx {
	struct cap_readback *rb;
	const char *start_mark, *end_mark;
	struct tep_event *print, *sched_switch;
	struct comm_slot *comms;
	size_t comms_cap, comms_nr;
	struct comm_fields *fields;  /* by event id */
	size_t fields_cap;
	int failed;
};

static struct comm_slot *comm_slot(struct comm_slot *slots, size_t cap, int pid)
{
	size_t i = ((size_t)pid * 2654435761u) & (cap - 1);

	while (slots[i].pid && slots[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int comm_set(struct rb_ctx *c, int pid, const char *comm, int len)
{
	struct comm_slot *sl;
	int n = 0;

	if (pid <= 0)
		return 0;
	if (2 * (c->comms_nr + 1) > c->comms_cap) {
		size_t cap = c->comms_cap ? 2 * c->comms_cap : 1024;
		struct comm_slot *slots = calloc(cap, sizeof(*slots));

		if (!slots)
			return -1;
		for (size_t i = 0; i < c->comms_cap; i++)
			if (c->comms[i].pid)
				*comm_slot(slots, cap, c->comms[i].pid) = c->comms[i];
		free(c->comms);
		c->comms = slots;
		c->comms_cap = cap;
	}
	sl = comm_slot(c->comms, c->comms_cap, pid);
	if (!sl->pid) {
		sl->pid = pid;
		c->comms_nr++;
	}
	/* one line per pid in the section: no newline inside a comm */
	while (n < len && n < (int)sizeof(sl->comm) - 1 && comm[n]) {
		sl->comm[n] = comm[n] == '\n' ? '?' : comm[n];
		n++;
	}
	sl->comm[n] = '\0';
	return 0;
}

static struct comm_fields *comm_fields_of(struct rb_ctx *c, struct tep_event *event)
{
	struct tep_format_field **fields;
	struct comm_fields *cf;

	if ((size_t)event->id >= c->fields_cap) {
		size_t cap = (size_t)event->id + 64;
		struct comm_fields *p = realloc(c->fields, cap * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + c->fields_cap, 0, (cap - c->fields_cap) * sizeof(*p));
		c->fields = p;
		c->fields_cap = cap;
	}
	cf = &c->fields[event->id];
	if (cf->known)
		return cf;
	cf->known = true;
	fields = tep_event_fields(event);
	for (int i = 0; fields && fields[i] && cf->nr < MAX_COMM_PAIRS; i++) {
		const char *name = fields[i]->name;
		size_t len = strlen(name);

		if (len < 4 || len >= sizeof(cf->comm[0]) || strcmp(name + len - 4, "comm"))
			continue;
		snprintf(cf->comm[cf->nr], sizeof(cf->comm[0]), "%s", name);
		snprintf(cf->pid[cf->nr], sizeof(cf->pid[0]), "%.*spid", (int)(len - 4), name);
		if (tep_find_field(event, cf->pid[cf->nr]))
			cf->nr++;
	}
	free(fields);
	return cf;
}

/* Every comm/pid pair of the record, in time order: the last one wins. */
static void collect_comms(struct rb_ctx *c, struct tep_event *event, struct tep_record *record)
{
	struct comm_fields *cf = event->id >= 0 ? comm_fields_of(c, event) : NULL;

	if (event->id >= 0 && !cf) {
		c->failed = 1;
		return;
	}
	for (int i = 0; cf && i < cf->nr; i++) {
		unsigned long long pid;
		const char *comm;
		int len = 0;

		comm = tep_get_field_raw(NULL, event, cf->comm[i], record, &len, 0);
		if (!comm || len <= 0 ||
		    tep_get_field_val(NULL, event, cf->pid[i], record, &pid, 0) < 0)
			continue;
		if (comm_set(c, (int)pid, comm, len) < 0)
			c->failed = 1;
	}
}

/* "pid comm" lines of the pids the file's cmdlines do not register. */
static int missing_cmdlines(struct rb_ctx *c, struct tep_handle *tep, char **out)
{
	size_t len = 0, cap = 0;
	char *text = NULL;

	*out = NULL;
	for (size_t i = 0; i < c->comms_cap; i++) {
		const struct comm_slot *sl = &c->comms[i];
		int n;

		if (!sl->pid || !sl->comm[0] || tep_is_pid_registered(tep, sl->pid))
			continue;
		if (len + 40 >= cap) {
			char *t = realloc(text, cap ? 2 * cap : 4096);

			if (!t) {
				free(text);
				return -1;
			}
			text = t;
			cap = cap ? 2 * cap : 4096;
		}
		n = snprintf(text + len, cap - len, "%d %s\n", sl->pid, sl->comm);
		len += (size_t)n;
		c->rb->missing_comms++;
	}
	*out = text;
	return 0;
}

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
	struct tep_handle *tep = sr_tracecmd->get_tep(handle);
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
	collect_comms(c, event, record);
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
	int ret;

	memset(rb, 0, sizeof(*rb));
	if (!sr_tracecmd_load(err))
		return -1;
	rb->per_event = json_object();
	if (!rb->per_event) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	handle = sr_tracecmd->open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		sr_error_set(err, errno ? errno : EINVAL,
			     "%s: the written trace.dat does not read back with libtracecmd", path);
		return -1;
	}
	rb->nr_cpus = nr_cpus;
	rb->from_idle = calloc(rb->nr_cpus > 0 ? rb->nr_cpus : 1, sizeof(uint64_t));
	rb->to_idle = calloc(rb->nr_cpus > 0 ? rb->nr_cpus : 1, sizeof(uint64_t));
	if (!rb->from_idle || !rb->to_idle) {
		sr_tracecmd->close(handle);
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	if (sr_tracecmd->iterate_events(handle, NULL, 0, rb_record, &c) < 0 || c.failed) {
		sr_tracecmd->close(handle);
		free(c.comms);
		free(c.fields);
		sr_error_set(err, EINVAL, "%s: reading the written records back failed", path);
		return -1;
	}
	ret = missing_cmdlines(&c, sr_tracecmd->get_tep(handle), &rb->missing_cmdlines);
	sr_tracecmd->close(handle);
	free(c.comms);
	free(c.fields);
	if (ret < 0) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
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
	free(rb->missing_cmdlines);
	rb->missing_cmdlines = NULL;
}
