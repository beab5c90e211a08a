// SPDX-License-Identifier: GPL-2.0
/*
 * Workload extraction: the builder, one state machine over the event stream
 * (see workload.h for what it produces).
 *
 * For every task the builder tracks what the trace says it is doing: on a
 * CPU (since `mark`, the last point its own work was cut into ops), queued
 * (preempted, or woken and not yet running), blocked (at a BLOCK op waiting
 * for the wake that will end it), new (forked, not yet woken) or dead.  For
 * every CPU it tracks the current task.  The trace is trusted, but checked:
 * when an event contradicts the state (lost events, a capture that started
 * mid-way), the state is repaired and the repair is counted in a note.
 *
 * The wake that ends a block is decided at sched_wakeup, not at
 * sched_waking: a waking that arrives while the target is still on its CPU
 * (going to sleep on another CPU, or the p == current path) ends the block
 * that follows it if the sched_wakeup comes after that block; it is then a
 * "race" wake (WL_WAKE_ON_CPU | WL_WAKE_ENDS_BLOCK), which the simulation
 * replays as "blocked and woken at once" when its waker is early.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/sidecar.h>

#include "note_list.h"
#include "workload_builder.h"

/* common_flags bits of the ftrace ring buffer (enum trace_flag_type). */
#define TRACE_FLAG_NEED_RESCHED_LAZY 0x02
#define TRACE_FLAG_NEED_RESCHED 0x04
#define TRACE_FLAG_HARDIRQ 0x08
#define TRACE_FLAG_SOFTIRQ 0x10
#define TRACE_FLAG_NMI     0x40
/* an event in interrupt context, not in its task's own */
#define TRACE_FLAGS_IRQ (TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ | TRACE_FLAG_NMI)

/* prev_state of a last switch not traced: TASK_DEAD, "X" (6.x's bit) */
#define WL_PREV_STATE_DEAD 0x80

int wl_vec_grow(void **v, uint32_t *cap, size_t elem, uint32_t need)
{
	uint64_t ncap = *cap ? *cap : 16;
	void *p;

	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX - 1)
		return -1;
	p = realloc(*v, ncap * elem);
	if (!p)
		return -1;
	*v = p;
	*cap = (uint32_t)ncap;
	return 0;
}

static void note(struct wl_builder *b, enum wl_note_id id)
{
	b->wl->notes[id]++;
}

/* ---- strings and groups -------------------------------------------------- */

static uint32_t intern_string(struct wl_builder *b, const char *s, size_t len)
{
	char *c;

	for (uint32_t i = 0; i < b->strings.n; i++)
		if (strlen(b->strings.v[i]) == len && !memcmp(b->strings.v[i], s, len))
			return i;
	WL_VEC_PUSH(b->strings, fail);
	c = malloc(len + 1);
	if (!c)
		goto fail;
	memcpy(c, s, len);
	c[len] = '\0';
	b->strings.v[b->strings.n] = c;
	return b->strings.n++;
fail:
	return WL_NONE;
}

static unsigned long shares_of(struct wl_builder *b, const char *path)
{
	const struct sidecar_cgroup *cg;

	for (size_t i = 0; i < b->cgmap.nr_shares; i++)
		if (!strcmp(b->cgmap.shares[i].path, path))
			return b->cgmap.shares[i].shares;
	if (b->sc && (cg = sidecar_find_cgroup(b->sc, path)) && cg->shares > 0)
		return (unsigned long)cg->shares;
	return 1024;
}

/* The bandwidth limit of cgroup @path: --cgroup-map, then the sidecar. */
static void bandwidth_of(struct wl_builder *b, struct wl_group *g)
{
	const struct sidecar_cgroup *cg;

	/* group_get() set the defaults: no limit, WL_FACT_DEFAULT */
	for (size_t i = 0; i < b->cgmap.nr_quota; i++)
		if (!strcmp(b->cgmap.quota[i].path, g->path)) {
			g->quota_us = b->cgmap.quota[i].quota_us;
			g->period_us = b->cgmap.quota[i].period_us;
			g->bw_src = WL_FACT_OPTION;
		}
	if (g->bw_src == WL_FACT_DEFAULT && b->sc && (cg = sidecar_find_cgroup(b->sc, g->path)) &&
	    cg->quota_us > 0 && cg->period_us > 0) {
		g->quota_us = cg->quota_us;
		g->period_us = cg->period_us;
		g->bw_src = WL_FACT_SIDECAR;
	}
	if (g->quota_us <= 0)
		g->quota_us = g->period_us = -1;
}

/* The group of cgroup @path (created with its ancestors); WL_NONE on ENOMEM. */
static uint32_t group_get(struct wl_builder *b, const char *path, size_t len, bool autogroup)
{
	uint32_t parent = 0, si;
	struct wl_group *g;

	if (!(len = wl_group_path_len(path, len)))
		return 0;
	if ((si = intern_string(b, path, len)) == WL_NONE)
		return WL_NONE;
	for (uint32_t i = 0; i < b->groups.n; i++)
		if (b->groups.v[i].path == b->strings.v[si])
			return i;
	if (!autogroup) {
		size_t plen = len;

		while (plen > 0 && path[plen - 1] != '/')
			plen--;
		if (plen > 1)
			plen--;               /* "/a/b" -> "/a"; "/a" -> "/" */
		parent = group_get(b, path, plen, false);
		if (parent == WL_NONE)
			return WL_NONE;
	}
	WL_VEC_PUSH(b->groups, fail);
	g = &b->groups.v[b->groups.n];
	g->path = b->strings.v[si];
	g->parent = parent;
	g->autogroup = autogroup;
	g->shares = autogroup ? 1024 : shares_of(b, g->path);
	g->quota_us = g->period_us = -1;
	g->bw_src = WL_FACT_DEFAULT;
	if (!autogroup)
		bandwidth_of(b, g);
	return b->groups.n++;
fail:
	return WL_NONE;
}

size_t wl_group_path_len(const char *path, size_t len)
{
	while (len > 1 && path[len - 1] == '/')
		len--;
	return len == 1 && path[0] == '/' ? 0 : len;
}

const char *wl_initial_cgroup(struct wl_builder *b, int32_t pid, char name[WL_AUTOGROUP_NAME],
			      bool *autogroup, struct wl_cgmap_entry **line)
{
	const struct sidecar_task *st;
	const char *path = NULL;

	*autogroup = false;
	*line = NULL;
	for (size_t i = 0; i < b->cgmap.n; i++)
		if (b->cgmap.e[i].pid == pid) {
			path = b->cgmap.e[i].path;
			*line = &b->cgmap.e[i];
		}
	if (!path && b->sc)
		path = sidecar_cgroup_of(b->sc, pid);
	if (path && strcmp(path, "/"))
		return path;
	/* In the root cgroup: the session's autogroup when the sidecar says so. */
	if (b->sc && b->sc->autogroup_enabled && (st = sidecar_task(b->sc, pid)) &&
	    st->autogroup >= 0) {
		snprintf(name, WL_AUTOGROUP_NAME, "autogroup-%d", st->autogroup);
		*autogroup = true;
		return name;
	}
	return NULL;
}

/* The group a pre-existing task starts in (wl_initial_cgroup(), created). */
static uint32_t initial_group(struct wl_builder *b, int32_t pid)
{
	struct wl_cgmap_entry *line;
	char name[WL_AUTOGROUP_NAME];
	bool autogroup;
	const char *path = wl_initial_cgroup(b, pid, name, &autogroup, &line);

	if (line)
		line->used = true;
	return path ? group_get(b, path, strlen(path), autogroup) : 0;
}

/* ---- tasks ------------------------------------------------------------ */

static int pid_map_set(struct wl_builder *b, int32_t pid, uint32_t v)
{
	if (pid < 0)
		return 0;
	if ((size_t)pid >= b->pid_cap) {
		size_t ncap = b->pid_cap ? b->pid_cap : 4096;
		uint32_t *p;

		while (ncap <= (size_t)pid)
			ncap *= 2;
		p = realloc(b->pid_map, ncap * sizeof(*p));
		if (!p)
			return -1;
		memset(p + b->pid_cap, 0, (ncap - b->pid_cap) * sizeof(*p));
		b->pid_map = p;
		b->pid_cap = ncap;
	}
	b->pid_map[pid] = v;
	return 0;
}

static uint32_t lookup(const struct wl_builder *b, int32_t pid)
{
	if (pid <= 0 || (size_t)pid >= b->pid_cap || !b->pid_map[pid])
		return WL_NONE;
	return b->pid_map[pid] - 1;
}

/*
 * The task of @pid that a switch-in or a migration (@ev) names: the pid's,
 * or the old task the measured side took it for (struct lat_old_task,
 * old_task()): the last task of the pid, past its sched_process_exit and
 * preempted since, whose pid a fork took (on_fork()).
 */
static uint32_t lookup_named(struct wl_builder *b, const struct trace_event *ev, int32_t pid)
{
	uint32_t t = lookup(b, pid);

	if (pid <= 0 || b->old_named.pid != pid || b->old_named.ts != ev->ts ||
	    b->old_named.cpu != ev->cpu || b->old_named.ev != ev->type)
		return t;
	b->old_named.pid = 0;
	for (uint32_t i = b->tasks.n; i-- > 0;)
		if (i != t && b->tasks.v[i].pid == pid && b->ts.v[i].exit_queued &&
		    b->ts.v[i].st == TS_QUEUED)
			return i;
	return t;
}

/* lat_config.old_task: the next lookup_named() of that event takes the old task */
static int old_task(void *ctx, const struct lat_old_task *ot)
{
	struct wl_builder *b = ctx;

	b->old_named = *ot;
	return 0;
}

/*
 * The task of @pid in an event on the CPU tracked by @c that names the
 * CPU's current (common_pid, a switch's prev): that current if it has the
 * pid and runs there - an exiting task whose pid a fork took before its
 * last switch (on_fork()) - else the pid's task.
 */
static uint32_t lookup_on(const struct wl_builder *b, const struct cpu_track *c, int32_t pid)
{
	if (c && c->curr >= 0 && pid > 0 && b->tasks.v[c->curr].pid == pid &&
	    b->ts.v[c->curr].st == TS_RUNNING)
		return (uint32_t)c->curr;
	return lookup(b, pid);
}

/* A fair prio: MAX_RT_PRIO (100) .. MAX_PRIO - 1 (139), nice -20..19 (include/linux/sched/prio.h) */
static bool fair_prio(int32_t prio)
{
	return prio >= 100 && prio < 140;
}

static enum wl_task_class class_of_prio(int32_t prio)
{
	if (prio < 0)
		return WL_CLASS_DL;
	if (prio < 100)
		return WL_CLASS_RT;
	return WL_CLASS_FAIR;
}

/* A new task for @pid (the pid now names it); WL_NONE on ENOMEM. */
static uint32_t task_new(struct wl_builder *b, int32_t pid, const char *comm, int32_t prio,
			 uint64_t ts, enum wl_init_state init, int cpu)
{
	struct wl_task *t;
	struct tstate *s;
	uint32_t i = b->tasks.n;

	WL_VEC_PUSH(b->tasks, fail);
	WL_VEC_PUSH(b->ts, fail);
	t = &b->tasks.v[i];
	s = &b->ts.v[i];
	memset(t, 0, sizeof(*t));
	memset(s, 0, sizeof(*s));
	t->pid = pid;
	t->prio = prio;
	t->cls = class_of_prio(prio);
	t->nice = t->cls == WL_CLASS_FAIR && fair_prio(prio) ? prio - 120 : 0;
	t->init_state = init;
	t->init_cpu = (int16_t)cpu;
	t->class_prev = WL_NONE;
	t->init_wake = WL_NONE;
	t->parent = WL_NONE;
	t->fork_parent = WL_NONE;
	t->first_ts = ts;
	t->last_block_cpu = -1;
	snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "");
	memcpy(s->comm, t->comm, TRACE_COMM_LEN);
	s->cpu = (int16_t)cpu;
	s->seen_cpu = -1;
	s->nice = (int8_t)t->nice;
	s->pi_prio = -1;
	s->block_op = WL_NONE;
	s->aff_fork_call = s->aff_last = WL_NONE;
	t->aff_cpu = -1;
	s->waking = WL_NONE;
	s->init_migrate = WL_NONE;
	s->lat_wake = WL_NONE;
	s->lat_curr = CUR_UNKNOWN;
	s->run_wakee = WL_NONE;
	s->handoff_to = WL_NONE;
	s->handoff_from = WL_NONE;
	switch (init) {
	case WL_INIT_NEW:
		s->st = TS_NEW;
		break;
	case WL_INIT_RUNNING:
		s->st = TS_RUNNING;
		s->mark = b->first_ts;
		break;
	case WL_INIT_RUNNABLE:
		s->st = TS_QUEUED;
		break;
	case WL_INIT_SLEEPING:
		s->st = TS_BLOCKED;
		s->initial_sleep = true;
		break;
	}
	if (init != WL_INIT_NEW) {
		note(b, WL_NOTE_PREEXIST);
		s->group = t->group = initial_group(b, pid);
		if (s->group == WL_NONE)
			goto fail;
		/* The measured side groups samples by the same paths. */
		if (lat_cgroup_seed(b->wl->measured, pid, b->groups.v[s->group].path))
			goto fail;
	}
	b->tasks.n++;
	b->ts.n++;
	if (pid_map_set(b, pid, i + 1))
		return WL_NONE;
	return i;
fail:
	return WL_NONE;
}

static int push_op(struct wl_builder *b, uint32_t t, uint8_t kind, uint8_t aux, uint32_t arg,
		   uint64_t value)
{
	struct tstate *s = &b->ts.v[t];

	WL_VEC_PUSH(s->ops, fail);
	s->ops.v[s->ops.n++] = (struct wl_op){ .kind = kind, .aux = aux, .arg = arg, .value = value };
	return 0;
fail:
	return -1;
}

static int flush_run(struct wl_builder *b, uint32_t t, uint64_t ts);
/* a charge's clock read this long before its event: a stall between them (clk_read()) */
#define WL_CLK_STALL_NS 2000u
static int chan_block(struct wl_builder *b, uint32_t t, uint32_t block_op, uint64_t ts);
static int on_syscall(struct wl_builder *b, const struct trace_event *ev, enum wl_sys_kind kind,
		      bool enter);
static int on_setaffinity(struct wl_builder *b, const struct trace_event *ev, bool enter);

/* CPU @cpu (track @c) stops being idle at @ts: close its idle interval. */
static int idle_end(struct wl_builder *b, struct cpu_track *c, int cpu, uint64_t ts)
{
	if (!c->idle_open)
		return 0;
	c->idle_open = false;
	if (ts <= c->idle_since)
		return 0;
	WL_VEC_PUSH(b->idle, fail);
	b->idle.v[b->idle.n++] = (struct wl_idle){ .start = c->idle_since, .end = ts, .cpu = cpu,
						   .ended_by = c->idle_wake };
	return 0;
fail:
	return -1;
}

static inline struct cpu_track *cpu_get(struct wl_builder *b, int cpu);

/*
 * A wake enqueues a task on @cpu: the first one while @cpu is idle says what
 * ended its idle interval (enum wl_idle_end).  @local: its sched_waking ran on
 * @cpu itself in interrupt/softirq context or in its idle task (the CPU's own
 * timer or device); a waker on another CPU (by IPI or the wake list) or a
 * fork is not.
 */
static void idle_wake_seen(struct wl_builder *b, int cpu, bool local)
{
	struct cpu_track *c = cpu_get(b, cpu);

	if (c && c->idle_open && c->idle_wake == WL_IDLE_END_NONE)
		c->idle_wake = local ? WL_IDLE_END_LOCAL : WL_IDLE_END_REMOTE;
}

/* Task @t is on (or enqueued on) @cpu in the trace: is it ever on two? */
static void seen_on(struct wl_builder *b, uint32_t t, int cpu)
{
	struct tstate *s = &b->ts.v[t];

	if (cpu < 0)
		return;
	if (s->seen_cpu < 0)
		s->seen_cpu = (int16_t)cpu;
	else if (s->seen_cpu != cpu)
		b->tasks.v[t].multi_cpu = true;
}

/*
 * The comm a sched_switch shows for task @t: a change (exec, prctl
 * PR_SET_NAME, pthread_setname_np) becomes a COMM op at this point of its
 * work, so that simulated events carry the comm the trace showed then.
 */
static int comm_seen(struct wl_builder *b, uint32_t t, const char *comm, uint64_t ts)
{
	struct tstate *s = &b->ts.v[t];
	uint32_t si;

	if (!comm[0] || !strncmp(s->comm, comm, TRACE_COMM_LEN))
		return 0;
	snprintf(s->comm, TRACE_COMM_LEN, "%s", comm);
	if (!b->tasks.v[t].comm[0]) {
		memcpy(b->tasks.v[t].comm, s->comm, TRACE_COMM_LEN);
		return 0;
	}
	if (b->tasks.v[t].cls != WL_CLASS_FAIR)
		return 0;
	if ((si = intern_string(b, s->comm, strlen(s->comm))) == WL_NONE || flush_run(b, t, ts))
		return -1;
	return push_op(b, t, WL_OP_COMM, WL_COMM_RENAME, si, 0);
}

/* Cut the running task's work at @ts into its op list. */
static int flush_run(struct wl_builder *b, uint32_t t, uint64_t ts)
{
	struct tstate *s = &b->ts.v[t];
	uint64_t d;

	if (s->st != TS_RUNNING || ts <= s->mark) {
		if (s->st == TS_RUNNING)
			s->mark = ts > s->mark ? ts : s->mark;
		return 0;
	}
	d = ts - s->mark;
	s->mark = ts;
	b->tasks.v[t].runtime_ns += d;
	if (b->tasks.v[t].cls != WL_CLASS_FAIR)
		return 0;
	if (s->ops.n && s->ops.v[s->ops.n - 1].kind == WL_OP_RUN) {
		s->ops.v[s->ops.n - 1].value += d;
		return 0;
	}
	return push_op(b, t, WL_OP_RUN, 0, 0, d);
}

static int push_timed(struct wl_builder *b, uint64_t ts, uint8_t kind, uint32_t task, int cpu,
		      uint32_t arg, uint8_t aux)
{
	WL_VEC_PUSH(b->timed, fail);
	b->timed.v[b->timed.n++] = (struct wl_timed){ .ts = ts, .task = task, .arg = arg,
		.cpu = (int16_t)cpu, .kind = kind, .aux = aux };
	return 0;
fail:
	return -1;
}

/*
 * The CPUs the extraction tracks: TRACE_MAX_CPUS, the model's (sim_run.c
 * checks the two agree). An event naming a CPU at or above it is refused by
 * wl_builder_event() (trace_event_impossible_cpu(), shared with report).
 */
/* cpu_get() of a CPU the builder has not seen yet: grow b->cpus up to it. */
static __attribute__((noinline)) struct cpu_track *cpu_grow(struct wl_builder *b, int cpu)
{
	struct cpu_track *p;

	if (cpu < 0 || cpu >= TRACE_MAX_CPUS)
		return NULL;
	p = realloc(b->cpus, (size_t)(cpu + 1) * sizeof(*p));
	if (!p)
		return NULL;
	for (int i = b->nr_cpus; i <= cpu; i++)
		p[i] = (struct cpu_track){ .curr = CUR_UNKNOWN, .other_in = WL_NONE, .lost_task = -1,
					   .other_prev = WL_NONE, .rtw_task = WL_NONE,
					   .pass_last = WL_NONE, .nr_waker = WL_NONE,
					   .ni_timed = WL_NONE };
	b->cpus = p;
	b->nr_cpus = cpu + 1;
	return &b->cpus[cpu];
}

/*
 * The builder's state of @cpu (NULL: out of range, or no memory to grow
 * to it).  Inlined: wl_builder_event() asks it about eight times per
 * event, nearly always of a CPU seen before.
 */
static inline struct cpu_track *cpu_get(struct wl_builder *b, int cpu)
{
	if ((unsigned int)cpu < (unsigned int)b->nr_cpus)
		return &b->cpus[cpu];
	return cpu_grow(b, cpu);
}

/*
 * Task @t is (now known to be) current on @cpu at @ts: repair whatever the
 * state said before.  The CPU's previous current, if another task, is put
 * back as queued (it left the CPU in a gap of the trace).
 */
/*
 * Hand-offs.  A task X that woke a sleeper Y and was then preempted by Y
 * (switched out runnable, Y next), and that runs again only after Y blocked,
 * resumed work that came after Y's: in a ping-pong (pipe, eventfd, futex)
 * Y's reply is what X went on with; the trace holds no op for it because X
 * never had to sleep for it.  X gets a WAIT op for that block of Y, so that a
 * simulation that does not preempt X at the wakeup makes X sleep there until
 * Y reaches the block (as the kernel would: X's read finds nothing) instead
 * of running ahead of data it consumed.  A hand-off is cancelled when X runs
 * before Y blocks.
 */
static void handoff_cancel(struct wl_builder *b, uint32_t x)
{
	struct tstate *s = &b->ts.v[x];

	if (s->handoff_to != WL_NONE && b->ts.v[s->handoff_to].handoff_from == x)
		b->ts.v[s->handoff_to].handoff_from = WL_NONE;
	s->handoff_to = WL_NONE;
}

/*
 * --handoff-signals (experimental): X, preempted by its wakee Y, runs again
 * before Y blocked, and Y woke other tasks meanwhile (hackbench's leader: the
 * last child's ready write wakes it, it preempts that child and wakes every
 * child waiting at the barrier with one write; the preempted child's poll of
 * that fd then finds it readable and never sleeps, so the trace holds no
 * dependency).  X's work from here on may need what Y signalled: X gets a
 * WAIT (WL_WAIT_SIGNAL) for Y's last such wake, kept even when the pair hands
 * off only once (drop_oneoff_handoffs()).
 */
static int handoff_signal(struct wl_builder *b, uint32_t x)
{
	const struct tstate *s = &b->ts.v[x];
	uint32_t y = s->handoff_to, last = WL_NONE;
	const struct tstate *ys;

	if (!b->opt.handoff_signals || y == WL_NONE || b->ts.v[y].handoff_from != x ||
	    b->tasks.v[x].cls != WL_CLASS_FAIR || b->tasks.v[y].cls != WL_CLASS_FAIR)
		return 0;
	ys = &b->ts.v[y];
	for (uint32_t i = ys->handoff_ops0; i < ys->ops.n; i++) {
		const struct wl_op *o = &ys->ops.v[i];

		if (o->kind == WL_OP_WAKE && o->arg < b->wakes.n && b->wakes.v[o->arg].target != x)
			last = i;
	}
	if (last == WL_NONE)
		return 0;
	note(b, WL_NOTE_HANDOFF_SIGNAL);
	return push_op(b, x, WL_OP_WAIT, WL_WAIT_SIGNAL, y, last);
}

/* Y blocks with its BLOCK op at @block_op: X (if it handed off to Y) waits for it. */
static int handoff_block(struct wl_builder *b, uint32_t y, uint32_t block_op)
{
	uint32_t x = b->ts.v[y].handoff_from;
	struct tstate *xs;

	if (x == WL_NONE)
		return 0;
	b->ts.v[y].handoff_from = WL_NONE;
	xs = &b->ts.v[x];
	if (xs->handoff_to != y)
		return 0;
	xs->handoff_to = WL_NONE;
	if (xs->st != TS_QUEUED || b->tasks.v[x].cls != WL_CLASS_FAIR || block_op == WL_NONE)
		return 0;
	note(b, WL_NOTE_HANDOFF);
	return push_op(b, x, WL_OP_WAIT, 0, y, block_op);
}

/*
 * Wake @wi of the task of @s awaits its switch-in (the calibration's
 * sample, classify_path()): its target CPU's state then (@c, NULL if not
 * tracked): @curr current, @switches switches seen, and the counts
 * later_decision_point() compares at the switch-in.
 */
static void lat_arm(struct tstate *s, uint32_t wi, const struct cpu_track *c, int32_t curr,
		    uint32_t switches)
{
	s->lat_wake = wi;
	s->lat_curr = curr;
	s->lat_switches = switches;
	s->lat_wakeups = c ? c->wakeups : 0;
	s->lat_stats = c ? c->curr_stats : 0;
	s->lat_idle_since = c && curr == CUR_IDLE && c->idle_open ? c->idle_since : UINT64_MAX;
}

/*
 * Wake @w ends the BLOCK of task state @s (before s->block_op is cleared):
 * the sleep the trace shows before it (struct wl_wake.sleep_ns).
 */
static void wake_note_sleep(struct wl_wake *w, const struct tstate *s)
{
	uint64_t d;

	if (s->initial_sleep || s->block_op == WL_NONE || w->ts < s->blocked_ts)
		return;
	d = w->ts - s->blocked_ts;
	w->sleep_ns = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

/*
 * An external wake of blocked task @t at @ts on @cpu that the trace did not
 * record (WL_SRC_UNKNOWN, no sched_waking): it ends the task's sleep (its
 * initial one or its BLOCK) and is replayed at @ts (WL_T_EXT_WAKE).  Its
 * index, WL_NONE on ENOMEM.
 */
static uint32_t assume_wake(struct wl_builder *b, uint32_t t, int cpu, uint64_t ts)
{
	struct tstate *s = &b->ts.v[t];
	struct wl_wake *w;
	uint32_t wi = b->wakes.n;

	WL_VEC_PUSH(b->wakes, fail);
	w = &b->wakes.v[wi];
	memset(w, 0, sizeof(*w));
	w->idle_ns = WL_IDLE_NS_UNKNOWN;
	w->ts = ts;
	w->target = t;
	w->waker = WL_NONE;
	w->seq = b->tasks.v[t].nr_wakes++;
	w->cpu = (int16_t)cpu;
	w->waker_cpu = (int16_t)cpu;
	w->src = WL_SRC_UNKNOWN;
	w->path = WL_PATH_NONE;
	w->flags = WL_WAKE_ENDS_BLOCK | WL_WAKE_NO_WAKING;
	wake_note_sleep(w, s);
	if (s->initial_sleep)
		b->tasks.v[t].init_wake = wi;
	else if (s->block_op != WL_NONE)
		s->ops.v[s->block_op].arg = wi;
	if (push_timed(b, ts, WL_T_EXT_WAKE, t, cpu, wi, 0))
		return WL_NONE;
	b->wakes.n++;
	s->block_op = WL_NONE;
	return wi;
fail:
	return WL_NONE;
}

/*
 * The assumed wake (assume_wake()) that enqueues @t, a record switched to the
 * fair class at @ts while runnable (switched_to_fair(): attached and enqueued
 * by check_class_changed(), a running task rescheduled): replayed as a wake
 * with no latency sample (WL_T_CLASS_WAKE).  WL_NONE on ENOMEM.
 */
static uint32_t class_wake(struct wl_builder *b, uint32_t t, int cpu, uint64_t ts)
{
	uint32_t wi = assume_wake(b, t, cpu, ts);

	if (wi != WL_NONE)
		b->timed.v[b->timed.n - 1].aux = WL_T_CLASS_WAKE;
	return wi;
}

static int retract_exit_move(struct wl_builder *b, uint32_t p);

/*
 * @switch_in: a sched_switch puts @t on (its latency sample, if one is
 * pending, ends there); else an event in its context shows it current.
 */
static int make_current(struct wl_builder *b, struct cpu_track *c, int cpu, uint32_t t,
			uint64_t ts, bool counted_mismatch, bool switch_in)
{
	struct tstate *s = &b->ts.v[t];
	uint32_t cut = WL_NONE;

	seen_on(b, t, cpu);
	if (c->curr >= 0 && (uint32_t)c->curr != t) {
		struct tstate *o = &b->ts.v[c->curr];

		if (o->st == TS_RUNNING && o->cpu == cpu) {
			if (flush_run(b, (uint32_t)c->curr, ts))
				return -1;
			if (retract_exit_move(b, (uint32_t)c->curr))
				return -1;
			o->st = TS_QUEUED;
			o->cut_ts = ts;         /* lost_switch() may say more */
			o->cut_ops = o->ops.n;
			o->cut_by = WL_NONE;
			cut = (uint32_t)c->curr;
		}
		if (!counted_mismatch)
			note(b, WL_NOTE_SWITCH_MISMATCH);
	}
	if (s->st == TS_RUNNING && s->cpu != cpu) {
		struct cpu_track *oc = cpu_get(b, s->cpu);


		if (flush_run(b, t, ts))
			return -1;
		if (retract_exit_move(b, t))   /* it left that CPU untraced */
			return -1;
		if (oc && oc->curr == (int32_t)t)
			oc->curr = CUR_UNKNOWN;
	}
	if (s->st == TS_BLOCKED && s->waking != WL_NONE) {
		/*
		 * Its sched_waking was traced, its sched_wakeup not: on the
		 * capture machine the target CPU sometimes leaves idle without
		 * tracing the wakeup it ran from its wake list (make-probe:
		 * probe-msg woken from CPU 0 onto idle CPU 1, then running
		 * there with no sched_wakeup).  That waking ended the block.
		 * Left pending, it was paired with the task's next wakeup, a
		 * 2 ms "idle-path" sample in the calibration.
		 */
		uint32_t wi = s->waking;
		struct wl_wake *w = &b->wakes.v[wi];

		s->waking = WL_NONE;
		w->cpu = (int16_t)cpu;
		w->flags |= WL_WAKE_ENDS_BLOCK;
		wake_note_sleep(w, s);
		seen_on(b, t, w->prev_cpu);
		if (s->initial_sleep)
			b->tasks.v[t].init_wake = wi;
		else if (s->block_op != WL_NONE)
			s->ops.v[s->block_op].arg = wi;
		s->initial_sleep = false;
		s->block_op = WL_NONE;
		s->st = TS_QUEUED;
		if (switch_in && !(w->flags & WL_WAKE_ON_CPU) && c->switches) {
			/* what ran at the wakeup is not known: the switch's prev */
			lat_arm(s, wi, c, CUR_UNKNOWN, c->switches - 1);
		}
		note(b, WL_NOTE_WAKING_NO_WAKEUP);
	}
	if (s->st == TS_BLOCKED) {
		/* On a CPU without a wakeup in the trace: lost or unrecorded. */
		uint32_t wi = assume_wake(b, t, cpu, ts);

		if (wi == WL_NONE)
			goto fail;
		WL_VEC_PUSH(b->missing, fail);
		b->missing.v[b->missing.n++] = (struct wl_missing_wake){
			.wake = wi, .since = s->initial_sleep ? 0 : s->blocked_ts };
		s->initial_sleep = false;
		note(b, WL_NOTE_MISSING_WAKEUP);
	}
	if (s->st != TS_RUNNING || s->cpu != cpu) {
		s->st = TS_RUNNING;
		s->exit_queued = false;
		s->cpu = (int16_t)cpu;
		s->mark = ts;
		s->cut_ts = 0;
		s->run_wakee = WL_NONE;
		if (handoff_signal(b, t))
			return -1;
		handoff_cancel(b, t);
		if (cut != WL_NONE && b->tasks.v[t].cls == WL_CLASS_FAIR) {
			/*
			 * Its run from the untraced switch to here, if the
			 * switch is found earlier (lost_switch_decided()):
			 * a placeholder until then, dropped if not.
			 */
			b->ts.v[cut].cut_by = t;
			b->ts.v[cut].cut_by_op = s->ops.n;
			b->dead_ops = true;
			if (push_op(b, t, 0, 0, 0, 0))
				return -1;
		}
	}
	c->curr = (int32_t)t;
	c->known_once = true;
	return idle_end(b, c, cpu, ts);
fail:
	return -1;
}

/*
 * A task never seen before is current on @cpu.  If nothing was known about
 * the CPU yet, it ran since the trace start; otherwise the trace lost its
 * switch-in (and, since it did not run before, its wakeup): it starts asleep
 * and make_current() assumes an external wake now.
 */
static uint32_t appear_running(struct wl_builder *b, struct cpu_track *c, int cpu, int32_t pid,
			       const char *comm, int32_t prio, uint64_t ts)
{
	bool fresh = !c->known_once;
	uint32_t t = task_new(b, pid, comm, prio, ts, fresh ? WL_INIT_RUNNING : WL_INIT_SLEEPING,
			      cpu);

	if (t == WL_NONE)
		return WL_NONE;
	if (fresh) {
		c->curr = (int32_t)t;
		c->known_once = true;
		return t;
	}
	if (make_current(b, c, cpu, t, ts, c->curr == CUR_UNKNOWN, false))
		return WL_NONE;
	return t;
}

static int on_switch(struct wl_builder *b, const struct trace_event *ev);

/*
 * Task @p leaves its CPU asleep at @ts (prev_state @state; @special: T, t
 * or P): its BLOCK op, ended by its next wake.  0, or -1 on ENOMEM.
 */
static int switch_out_blocked(struct wl_builder *b, uint32_t p, bool special, uint64_t state,
			      uint64_t ts)
{
	struct tstate *s = &b->ts.v[p];

	s->st = TS_BLOCKED;
	s->initial_sleep = false;
	s->blocked_ts = ts;
	if (b->tasks.v[p].cls == WL_CLASS_FAIR) {
		s->block_op = s->ops.n;
		if (push_op(b, p, WL_OP_BLOCK, special ? WL_BLOCK_SPECIAL : WL_BLOCK_SLEEP, WL_NONE,
			    state))
			return -1;
	}
	if (handoff_block(b, p, b->ts.v[p].block_op))
		return -1;
	if (b->chan && b->tasks.v[p].cls == WL_CLASS_FAIR &&
	    chan_block(b, p, b->ts.v[p].block_op, ts))
		return -1;
	return 0;
}

/*
 * The run of the task N whose event revealed @ls (it cut @s there): where
 * N's own exec_start put the switch @d before that event (@ls->stamped:
 * set_next_entity() starts it when N is switched in), N ran from there, and
 * the placeholder make_current() left before N's ops of that event becomes
 * that RUN.  Until 3 Dec 2026 that time was nobody's: the task that left
 * lost it, N's run began at its first event (hackbench-shares-run3: 1531's
 * 45.5 us before its first sched_waking, by its exec_start).  Without a stamp
 * the switch is the leaving task's last event, and who ran after it is not
 * known: N keeps its first event.
 */
static void lost_switch_next_run(struct wl_builder *b, struct tstate *s,
				 const struct lat_lost_switch *ls, uint64_t d)
{
	struct tstate *n;
	struct wl_op *o;

	if (s->cut_by == WL_NONE || s->cut_by >= b->ts.n)
		return;
	n = &b->ts.v[s->cut_by];
	o = s->cut_by_op < n->ops.n ? &n->ops.v[s->cut_by_op] : NULL;
	if (ls->stamped && d && o && o->kind == 0 && !o->value) {
		o->kind = WL_OP_RUN;
		o->value = d;
		b->tasks.v[s->cut_by].runtime_ns += d;
		note(b, WL_NOTE_LOST_SWITCH_STAMPED);
	}
	s->cut_by = WL_NONE;
}

/*
 * LAT_LOST_OTHER decided after the builder took @t's CPU for the task whose
 * event revealed it (make_current() cut @t's run there, at @ls->seen_ts,
 * and queued it): its run ends at @ls->ts instead, and if it blocked, its
 * BLOCK op goes there, as if the switch had been traced.  Nothing when @t
 * did anything since that cut.  0, or -1 on ENOMEM.
 */
static int lost_switch_decided(struct wl_builder *b, uint32_t t, const struct lat_lost_switch *ls)
{
	struct tstate *s = &b->ts.v[t];
	uint64_t d = ls->seen_ts > ls->ts ? ls->seen_ts - ls->ts : 0;

	if (s->st != TS_QUEUED || s->cut_ts != ls->seen_ts || s->cpu != ls->cpu ||
	    s->ops.n != s->cut_ops || ls->dead)
		return 0;
	s->cut_ts = 0;
	if (b->tasks.v[t].cls == WL_CLASS_FAIR && d) {
		struct wl_op *o = s->ops.n ? &s->ops.v[s->ops.n - 1] : NULL;

		if (!o || o->kind != WL_OP_RUN || o->value < d)
			return 0;
		o->value -= d;
		if (!o->value)
			s->ops.n--;
	}
	b->tasks.v[t].runtime_ns -= d < b->tasks.v[t].runtime_ns ? d : b->tasks.v[t].runtime_ns;
	lost_switch_next_run(b, s, ls, d);
	note(b, WL_NOTE_LOST_SWITCH_OTHER);
	if (ls->remote_stamp)
		note(b, WL_NOTE_LOST_SWITCH_REMOTE);
	if (ls->runnable)
		return 0;
	if (s->waking != WL_NONE && b->wakes.v[s->waking].ts > ls->ts)
		b->wakes.v[s->waking].flags &= (uint8_t)~WL_WAKE_ON_CPU;
	if (wl_sdq_retract(b, t, ls->ts))
		return -1;
	return switch_out_blocked(b, t, false, 1, ls->ts);   /* "S" */
}

/*
 * @t, just switched out blocked at @ls->ts by lost_switch(), was woken
 * onto that CPU after it (sched_waking and sched_wakeup both seen while the
 * builder took it to run there: a spurious wake of a running task): that
 * wake ended the block, as the latency machine takes it (its first waking
 * since the task's last event there starts the interval).  The first such
 * wake, found from the newest back (the window is short).
 */
static void lost_switch_woken_there(struct wl_builder *b, uint32_t t,
				   const struct lat_lost_switch *ls)
{
	struct tstate *s = &b->ts.v[t];
	struct cpu_track *c = cpu_get(b, ls->cpu);
	uint32_t wi = WL_NONE;
	struct wl_wake *w;

	if (s->st != TS_BLOCKED || s->waking != WL_NONE || s->block_op == WL_NONE || !c)
		return;
	for (size_t i = b->wakes.n; i-- > 0 && b->wakes.v[i].ts > ls->ts;) {
		w = &b->wakes.v[i];
		if (w->target == t && w->cpu == ls->cpu &&
		    (w->flags & (WL_WAKE_ON_CPU | WL_WAKE_SPURIOUS | WL_WAKE_NO_WAKING |
				 WL_WAKE_ENDS_BLOCK)) == (WL_WAKE_ON_CPU | WL_WAKE_SPURIOUS))
			wi = (uint32_t)i;
	}
	if (wi == WL_NONE)
		return;
	w = &b->wakes.v[wi];
	w->flags &= (uint8_t)~(WL_WAKE_ON_CPU | WL_WAKE_SPURIOUS);
	w->flags |= WL_WAKE_ENDS_BLOCK;
	wake_note_sleep(w, s);
	s->ops.v[s->block_op].arg = wi;
	s->block_op = WL_NONE;
	s->initial_sleep = false;
	s->st = TS_QUEUED;
	s->cpu = (int16_t)ls->cpu;
	/* what ran at the wakeup is not known: the switch-in's prev if next */
	lat_arm(s, wi, c, CUR_UNKNOWN, c->switches);
}

/*
 * Exiting task @p leaves its CPU before its exit (preempted, or asleep):
 * the charge its EXIT_MOVE was placed at was not sched_move_task()'s.
 * do_exit() has no preemption point between sched_autogroup_exit_task()
 * and do_task_dead() (cgroup_exit(), exit_notify() under tasklist_lock,
 * exit_rcu(): no cond_resched(); preempt_enable() schedules nothing on a
 * preempt=none kernel), so the move and the final __schedule() are in one
 * run: that charge was an earlier one (a preemption's at task_work_run()'s
 * or close_files()' cond_resched(), a wakeup's enqueue).  The op is dropped
 * (kind 0: drop_dead_ops()) and the next charge is the candidate; the
 * sched/debug reads since that charge had it in its group (wl_sdq_unmove()).
 * 0, or -1 on ENOMEM.
 */
static int retract_exit_move(struct wl_builder *b, uint32_t p)
{
	struct tstate *s = &b->ts.v[p];

	if (!s->move_op)
		return 0;
	if (s->move_op <= s->ops.n && s->ops.v[s->move_op - 1].kind == WL_OP_EXIT_MOVE) {
		s->ops.v[s->move_op - 1].kind = 0;
		b->dead_ops = true;
		note(b, WL_NOTE_EXIT_MOVE_RETRACTED);
		s->exiting = true;
		if (wl_sdq_unmove(b, p, s->move_ts))
			return -1;
	}
	s->move_op = 0;
	return 0;
}

/*
 * Task @p's exit (do_task_dead()): its last switch, traced (prev_state
 * @prev_state, X) or not (pid_change()'s leader, released by de_thread()).
 * A fair task's ops end EXIT_MOVE (its sched_process_exit's charge not
 * seen: on_stat_runtime()) and EXIT; its pid is free unless a fork took it.
 * 0, or -1 on ENOMEM.
 */
static int task_exit(struct wl_builder *b, uint32_t p, uint64_t prev_state)
{
	struct tstate *s = &b->ts.v[p];
	int32_t pid = b->tasks.v[p].pid;

	s->st = TS_DEAD;
	if (handoff_block(b, p, WL_NONE))
		return -1;
	if (b->tasks.v[p].cls == WL_CLASS_FAIR && s->exiting &&
	    push_op(b, p, WL_OP_EXIT_MOVE, 0, 0, 0))
		return -1;
	s->exiting = false;
	s->move_op = 0;
	if (b->tasks.v[p].cls == WL_CLASS_FAIR && push_op(b, p, WL_OP_EXIT, 0, 0, prev_state))
		return -1;
	if (lookup(b, pid) == p && pid_map_set(b, pid, 0))
		return -1;      /* (a fork may have taken the pid already) */
	return 0;
}

/*
 * The measured side's pid exchange of a multithreaded exec (struct
 * lat_pid_change; latency.c pid_exchange(), which it mirrors): the exec'ing
 * thread's task - its run, ops, wakes, group - goes on under the leader's
 * pid; the leader, still running on another CPU, runs on there under the
 * thread's old pid to its last switch (lookup_on()), and so does the leader
 * preempted after its exit, queued; else it is dead (its last switch
 * traced, or reported untraced by lost_switch() before, or not traced at
 * all: de_thread() released it, its exit is task_exit()'s).
 */
static int pid_change(void *ctx, const struct lat_pid_change *pc)
{
	struct wl_builder *b = ctx;
	struct cpu_track *c = pc->cpu >= 0 ? cpu_get(b, pc->cpu) : NULL;
	struct cpu_track *lc = pc->leader_cpu >= 0 ? cpu_get(b, pc->leader_cpu) : NULL;
	uint32_t t = lookup_on(b, c, pc->old_pid), l = lookup(b, pc->new_pid);
	bool keep = l != WL_NONE && l != t &&
		((lc && lc->curr == (int32_t)l && b->ts.v[l].st == TS_RUNNING) ||
		 (pc->leader_queued && b->ts.v[l].st == TS_QUEUED));

	if (t == WL_NONE)
		return 0;
	if (keep) {
		b->tasks.v[l].pid = pc->old_pid;
	} else if (l != WL_NONE && l != t && b->ts.v[l].st != TS_RUNNING &&
		   b->ts.v[l].st != TS_DEAD && task_exit(b, l, WL_PREV_STATE_DEAD)) {
		return -1;                      /* exited, not on a CPU */
	}
	b->tasks.v[t].pid = pc->new_pid;
	return pid_map_set(b, pc->old_pid, keep ? l + 1 : 0) ||
		pid_map_set(b, pc->new_pid, t + 1) ? -1 : 0;
}

/*
 * A switch the kernel did not trace, as the measured side's latency machine
 * infers it (struct lat_lost_switch, enum lat_lost_reason in latency.h: one
 * detection for both sides, fed each event before the builder sees it).  The
 * capture kernel does this now and then (tokio-rt-worker of the guest agent,
 * switched in from idle, then no event of it until CPU 0 leaves idle again
 * ~20 ms later: bw-hogs-run2.dat, forkexec-run2.dat; or until it is woken
 * onto the other CPU: forkexec.dat).  The task left the CPU at its last event
 * there, the least it ran; that switch is replayed as if traced (prev state
 * S, X if exiting, R for a preemption), instead of a run up to the event that
 * revealed it and a preemption (a 20 ms burst of a nice -10 task that never
 * happened).  Nothing is done when the builder's state differs (the task not
 * running there); a task of another class has no ops: its run ends there.
 * The CPU is then idle (LAT_LOST_IDLE) or its current unknown.  0, or -1 on
 * ENOMEM.
 */
static int lost_switch(void *ctx, const struct lat_lost_switch *ls)
{
	struct wl_builder *b = ctx;
	struct cpu_track *c = cpu_get(b, ls->cpu);
	uint32_t t = lookup_on(b, c, ls->pid);
	bool idle_was_open, dead;
	struct trace_event sw;
	const struct wl_task *wt;
	struct tstate *s;

	if (c && t != WL_NONE && ls->reason == LAT_LOST_OTHER && c->curr != (int32_t)t)
		return lost_switch_decided(b, t, ls);
	if (!c || t == WL_NONE || c->curr != (int32_t)t || b->ts.v[t].st != TS_RUNNING ||
	    b->ts.v[t].cpu != ls->cpu)
		return 0;
	wt = &b->tasks.v[t];
	s = &b->ts.v[t];
	dead = ls->dead || s->exiting || s->move_op;
	idle_was_open = c->idle_open;
	if (wt->cls != WL_CLASS_FAIR) {
		if (flush_run(b, t, ls->ts))
			return -1;
		s->st = TS_QUEUED;
		goto cpu;
	}
	/*
	 * Its sched_waking came after its last event: it was asleep, not on
	 * the CPU (a wake of a "running" task is a race wake, with no latency
	 * interval); the sched_wakeup that follows ends the block.
	 */
	if (!ls->runnable && s->waking != WL_NONE && b->wakes.v[s->waking].ts > ls->ts)
		b->wakes.v[s->waking].flags &= (uint8_t)~WL_WAKE_ON_CPU;
	memset(&sw, 0, sizeof(sw));
	sw.type = TRACE_EV_SCHED_SWITCH;
	sw.cpu = ls->cpu;
	sw.ts = ls->ts;
	sw.common_pid = wt->pid;
	sw.synthetic = true;
	snprintf(sw.u.sched_switch.prev_comm, sizeof(sw.u.sched_switch.prev_comm), "%s",
		 s->comm[0] ? s->comm : wt->comm);
	sw.u.sched_switch.prev_pid = wt->pid;
	sw.u.sched_switch.prev_prio = wt->prio;
	if (ls->runnable) {
		sw.u.sched_switch.prev_state = 0;    /* "R": preempted */
		sw.u.sched_switch.prev_run = TRACE_STATE_RUNNING;
	} else if (dead) {
		/*
		 * past sched_process_exit: its last switch, "X" (TASK_DEAD),
		 * whether or not its EXIT_MOVE was placed already (move_op)
		 */
		sw.u.sched_switch.prev_state = WL_PREV_STATE_DEAD;
		sw.u.sched_switch.prev_run = TRACE_STATE_DEAD;
	} else {
		sw.u.sched_switch.prev_state = 1;    /* TASK_INTERRUPTIBLE: "S" */
		sw.u.sched_switch.prev_run = TRACE_STATE_SLEEPING;
	}
	snprintf(sw.u.sched_switch.next_comm, sizeof(sw.u.sched_switch.next_comm), "swapper/%d",
		 ls->cpu);
	note(b, ls->reason == LAT_LOST_IDLE ? WL_NOTE_LOST_IDLE_SWITCH :
		ls->reason == LAT_LOST_OTHER ? WL_NOTE_LOST_SWITCH_OTHER : WL_NOTE_LOST_SWITCH_ELSEWHERE);
	if (ls->remote_stamp)
		note(b, WL_NOTE_LOST_SWITCH_REMOTE);
	if (!ls->runnable && wl_sdq_retract(b, t, ls->ts))
		return -1;
	if (on_switch(b, &sw))
		return -1;
	if (!ls->runnable && !dead)
		lost_switch_woken_there(b, t, ls);
cpu:
	if (ls->reason == LAT_LOST_IDLE) {
		c->lost_task = (int32_t)t;
		c->lost_ts = ls->ts;
	} else {
		/* not seen idle: what ran there next is not known */
		c->curr = CUR_UNKNOWN;
		c->idle_open = idle_was_open;
	}
	return 0;
}

/*
 * CPU @cpu is seen idle at @ts (an event in idle's context, or a switch out
 * of idle) while its current so far was a task: the trace lost that task's
 * switch.  A task running there was found blocked by lost_switch(), fed
 * first; one still current here (the builder's state differed from the
 * latency machine's) is assumed preempted in the gap, its run charged up to
 * @ts.  0, or -1 on ENOMEM.
 */
static int cpu_seen_idle(struct wl_builder *b, struct cpu_track *c, int cpu, uint64_t ts)
{
	struct tstate *o;

	if (c->curr < 0)
		return 0;
	o = &b->ts.v[c->curr];
	if (o->st == TS_RUNNING && o->cpu == cpu) {
		if (flush_run(b, (uint32_t)c->curr, ts))
			return -1;
		o->st = TS_QUEUED;
	}
	note(b, WL_NOTE_SWITCH_MISMATCH);
	return 0;
}

/*
 * The task in whose context an event on @cpu ran (common_pid), creating it
 * as "running since the trace start" if it is new and the CPU's current is
 * not known yet.  Returns the task index, or WL_NONE for idle or for a pid
 * that is not the CPU's current (then *stranger is set).  -1 in *fail on
 * ENOMEM.
 */
static uint32_t context_task(struct wl_builder *b, const struct trace_event *ev, bool *stranger,
			     int *fail)
{
	struct cpu_track *c = cpu_get(b, ev->cpu);
	uint32_t t;

	*stranger = false;
	if (!c) {
		*stranger = true;
		return WL_NONE;
	}
	/*
	 * common_pid is always the CPU's current task, in interrupts too: a
	 * different one means the trace lost a sched_switch here.
	 */
	if (ev->common_pid == 0) {
		if (cpu_seen_idle(b, c, ev->cpu, ev->ts)) {
			*fail = -1;
			return WL_NONE;
		}
		c->curr = CUR_IDLE;
		c->known_once = true;
		return WL_NONE;
	}
	t = lookup_on(b, c, ev->common_pid);
	if (t != WL_NONE && c->curr == (int32_t)t)
		return t;
	if (t == WL_NONE) {
		/* its prio is not known yet: 120 until an event shows it (nice_seen()) */
		t = appear_running(b, c, ev->cpu, ev->common_pid, "", 120, ev->ts);
		if (t == WL_NONE)
			*fail = -1;
		else
			b->ts.v[t].prio_unknown = true;
		return t;
	}
	if (make_current(b, c, ev->cpu, t, ev->ts, c->curr == CUR_UNKNOWN, false)) {
		*fail = -1;
		return WL_NONE;
	}
	return t;
}

/* ---- wakes -------------------------------------------------------------- */

static bool need_resched_flag(const struct trace_event *ev)
{
	return ev->common_flags & (TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_NEED_RESCHED_LAZY);
}

/*
 * Every event on its CPU before on_event(): whether the task of that CPU's
 * last task-context sched_waking has had TIF_NEED_RESCHED set since
 * (WL_WAKE_OP_IN_CALL).  A switch there ends it; an event without the flag
 * clears it (its schedule() at a return to user space, or none set yet); the
 * wake's own sched_wakeup, in the waker's context, may set it (its wakeup
 * preemption, resched_curr()).  Only while the flag is set is the waker known
 * to be in the kernel entry of that wake: nothing is claimed otherwise.
 */
static void in_call_track(struct wl_builder *b, const struct trace_event *ev)
{
	struct cpu_track *c = cpu_get(b, ev->cpu);

	if (!c || c->nr_waker == WL_NONE)
		return;
	if (ev->type == TRACE_EV_SCHED_SWITCH) {
		c->nr_waker = WL_NONE;
		return;
	}
	if (ev->synthetic)
		return;
	if (!need_resched_flag(ev))
		c->nr_held = false;
	else if (ev->type == TRACE_EV_SCHED_WAKEUP && c->curr == (int32_t)c->nr_waker &&
		 !(ev->common_flags & TRACE_FLAGS_IRQ))
		c->nr_held = true;
}

/*
 * The WAKE op aux of a task-context sched_waking by @waker (in_call_track()
 * has read @ev): WL_WAKE_OP_IN_CALL when the flag has stayed set since its
 * previous wake here; then this wake is the one tracked.
 */
static uint8_t in_call_wake(struct wl_builder *b, const struct trace_event *ev, uint32_t waker)
{
	struct cpu_track *c = cpu_get(b, ev->cpu);
	uint8_t aux;

	if (!c)
		return 0;
	aux = c->nr_waker == waker && c->nr_held && need_resched_flag(ev) ? WL_WAKE_OP_IN_CALL : 0;
	c->nr_waker = waker;
	c->nr_held = need_resched_flag(ev);
	return aux;
}

/*
 * Whether @ev (in softirq context) ran in the CPU's ksoftirqd thread: a fair
 * task named ksoftirqd/N that the event shows current.  Softirqs that
 * ksoftirqd runs (run_ksoftirqd() -> handle_softirqs(), kernel/softirq.c) do
 * their wakeups at that point of the thread's own run, which the model
 * schedules; other softirqs (at irq_exit(), on an interrupted task) come at
 * their interrupt's time.
 */
static bool in_ksoftirqd(const struct wl_builder *b, const struct trace_event *ev)
{
	uint32_t t;

	if (ev->common_pid <= 0)
		return false;
	t = lookup(b, ev->common_pid);
	return t != WL_NONE && b->tasks.v[t].cls == WL_CLASS_FAIR &&
	       strncmp(b->ts.v[t].comm, "ksoftirqd/", 10) == 0;
}

/*
 * --wakelist-ops: the waker of a wake list's wakeup in a trace without
 * sched_waking.  try_to_wake_up() onto an idle CPU of the waker's cache
 * domain queues the task on the target's wake list
 * (ttwu_queue_cond() -> ttwu_queue_wakelist()) and sends an IPI; the target
 * enqueues it in sched_ttwu_pending() and traces sched_wakeup there, in
 * hardirq context on the idle task.  With sched_waking the waker is known
 * (its waking is on the waker's CPU, in its context); without it the record
 * names only the target, and the wake would be external, at its trace time,
 * however far the waker's work has got in the replay.  Here such a wakeup
 * (@ev: a sched_wakeup on its own target CPU, idle, in idle or hardirq
 * context) is given to the one fair task current on another CPU at @ev's
 * time, if exactly one other CPU runs a fair task and that task has woken
 * @t in its own context within the last WL_WAKELIST_SCAN wake records (the
 * wakee's known wakers: a timer or device wake of a task nobody else wakes
 * stays external).  Returns that task (its CPU in *@cpu), or WL_NONE.
 */
#define WL_WAKELIST_SCAN 1024u

static uint32_t wakelist_waker(const struct wl_builder *b, const struct trace_event *ev, uint32_t t,
			       int *cpu)
{
	uint32_t cand = WL_NONE, lo;

	if (ev->type != TRACE_EV_SCHED_WAKEUP || ev->common_pid != 0 ||
	    ev->u.wakeup.target_cpu != ev->cpu)
		return WL_NONE;
	for (int i = 0; i < b->nr_cpus; i++) {
		int32_t cur = b->cpus[i].curr;

		if (i == ev->cpu || cur < 0)
			continue;
		if (b->tasks.v[cur].cls != WL_CLASS_FAIR || b->ts.v[cur].st != TS_RUNNING ||
		    (uint32_t)cur == t)
			continue;
		if (cand != WL_NONE)
			return WL_NONE;          /* two candidates: no waker known */
		cand = (uint32_t)cur;
		*cpu = i;
	}
	if (cand == WL_NONE)
		return WL_NONE;
	lo = b->wakes.n > WL_WAKELIST_SCAN ? b->wakes.n - WL_WAKELIST_SCAN : 0;
	for (uint32_t i = b->wakes.n; i-- > lo;) {
		const struct wl_wake *w = &b->wakes.v[i];

		if (w->target == t && w->src == WL_SRC_TASK && w->waker == cand)
			return cand;
	}
	return WL_NONE;
}

/*
 * A new wake record for target @t, classified from the event's context; a
 * task-caused one becomes a WAKE op of the waker, the others a timed
 * external wake.
 */
static uint32_t wake_new(struct wl_builder *b, const struct trace_event *ev, uint32_t t,
			 uint8_t flags, int *fail)
{
	struct wl_wake *w;
	uint32_t waker = WL_NONE, wi;
	bool stranger;
	uint8_t src;
	int waker_cpu = ev->cpu;

	if (b->opt.wakelist_ops && (flags & WL_WAKE_NO_WAKING) &&
	    (waker = wakelist_waker(b, ev, t, &waker_cpu)) != WL_NONE) {
		src = WL_SRC_TASK;
		note(b, WL_NOTE_WAKE_WAKELIST);
	} else if (ev->common_flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_NMI)) {
		src = WL_SRC_HARDIRQ;
	} else if ((ev->common_flags & TRACE_FLAG_SOFTIRQ) &&
		   !(b->opt.ksoftirqd_ops && in_ksoftirqd(b, ev))) {
		src = WL_SRC_SOFTIRQ;
	} else if (ev->common_pid == 0) {
		src = WL_SRC_IDLE;
	} else {
		waker = context_task(b, ev, &stranger, fail);
		if (*fail)
			return WL_NONE;
		if (waker == WL_NONE)
			src = WL_SRC_UNKNOWN;
		else if (b->tasks.v[waker].cls != WL_CLASS_FAIR)
			src = WL_SRC_NONFAIR;
		else
			src = WL_SRC_TASK;
		if (src != WL_SRC_TASK)
			waker = WL_NONE;
	}
	/* A waker that wakes itself (p == current) is not a cause. */
	if (waker == t) {
		waker = WL_NONE;
		src = WL_SRC_UNKNOWN;
	}
	if (src == WL_SRC_TASK && (ev->common_flags & TRACE_FLAG_SOFTIRQ))
		note(b, WL_NOTE_WAKE_KSOFTIRQD);
	switch (src) {
	case WL_SRC_IDLE: note(b, WL_NOTE_WAKE_IDLE); break;
	case WL_SRC_HARDIRQ: note(b, WL_NOTE_WAKE_HARDIRQ); break;
	case WL_SRC_SOFTIRQ: note(b, WL_NOTE_WAKE_SOFTIRQ); break;
	case WL_SRC_NONFAIR: note(b, WL_NOTE_WAKE_NONFAIR); break;
	case WL_SRC_UNKNOWN: note(b, WL_NOTE_WAKE_UNKNOWN); break;
	default: break;
	}
	WL_VEC_PUSH(b->wakes, oom);
	wi = b->wakes.n;
	w = &b->wakes.v[wi];
	memset(w, 0, sizeof(*w));
	w->idle_ns = WL_IDLE_NS_UNKNOWN;
	w->ts = ev->ts;
	w->target = t;
	w->waker = waker;
	w->seq = b->tasks.v[t].nr_wakes++;
	w->cpu = -1;
	w->waker_cpu = (int16_t)waker_cpu;
	w->prev_cpu = b->ts.v[t].cpu;
	w->src = src;
	w->path = WL_PATH_NONE;
	w->flags = flags;
	if (b->ts.v[t].st == TS_RUNNING)
		w->flags |= WL_WAKE_ON_CPU;
	b->wakes.n++;
	if (waker != WL_NONE) {
		if (flush_run(b, waker, ev->ts) ||
		    push_op(b, waker, WL_OP_WAKE,
			    waker_cpu == ev->cpu ? in_call_wake(b, ev, waker) : 0, wi, 0))
			goto oom;
		if (b->chan && wl_chanb_wake(b->chan, waker, wi, b->ts.v[waker].ops.n - 1, ev->ts))
			goto oom;
		if (b->ts.v[t].st == TS_BLOCKED)
			b->ts.v[waker].run_wakee = t;
	} else if (push_timed(b, ev->ts, WL_T_EXT_WAKE, t, ev->cpu, wi, 0)) {
		goto oom;
	}
	return wi;
oom:
	*fail = -1;
	return WL_NONE;
}

/* The target of a waking/wakeup: known, or alive before the trace and asleep. */
/*
 * A task's class changes between fair and RT: sched_setscheduler()
 * (__sched_setscheduler() -> check_class_changed(): switched_from_fair()
 * detaches it from its cfs_rq, switched_to_fair() attaches it and places it
 * as a task switched to fair) or a priority-inheritance boost to an RT prio
 * and its end (rt_mutex_setprio() -> __setscheduler_class()).  The trace
 * shows the first only as the prio of the task's later events, the second
 * as sched_pi_setprio.  @prio: a prio of the other class than task @t's
 * record, seen at @ts while @t is off its CPU (asleep or queued; a running
 * task is split after its switch-out).  The record ends there (its ops so far
 * are its work in the old class; a queued fair record's ops end, and the
 * simulation sleeps it for good when it is picked: ops_done()) and a record
 * of the same pid and group in the new class goes on, as pi_rt_first() does
 * for the end of an RT boost: asleep, its next traced wake wakes it; queued,
 * a fair record is woken at @ts by an assumed wake (switched_to_fair()'s
 * enqueue), an RT one is queued (its time comes from its switches).  The
 * new record, or WL_NONE on ENOMEM; @t unchanged if it is not split (dead,
 * running, or no fair <-> RT change).
 */
static uint32_t class_split(struct wl_builder *b, uint32_t t, int32_t prio, uint64_t ts,
			    bool pi)
{
	enum wl_task_class from = b->tasks.v[t].cls, to = class_of_prio(prio);
	bool queued = b->ts.v[t].st == TS_QUEUED;
	uint32_t group = b->ts.v[t].group, n;
	int cpu = b->ts.v[t].cpu;
	char comm[TRACE_COMM_LEN];

	if (prio < 0 || from == to || (from != WL_CLASS_FAIR && from != WL_CLASS_RT) ||
	    (b->ts.v[t].st != TS_BLOCKED && !queued) || b->ts.v[t].waking != WL_NONE)
		return t;
	handoff_cancel(b, t);
	if (handoff_block(b, t, WL_NONE))
		return WL_NONE;
	if (from == WL_CLASS_FAIR && queued) {
		if (push_timed(b, ts, WL_T_CLASS_LEAVE, t, cpu, 0, 0))
			return WL_NONE;
		b->tasks.v[t].class_leave_ts = ts;
	} else if (from == WL_CLASS_FAIR &&
		   push_timed(b, ts, WL_T_CLASS_LEAVE, t, cpu, 0, WL_T_CLASS_ASLEEP)) {
		return WL_NONE;    /* asleep: a delayed entity dequeued, detached there */
	}
	memcpy(comm, b->ts.v[t].comm, sizeof(comm));
	comm[sizeof(comm) - 1] = '\0';
	b->ts.v[t].st = TS_DEAD;
	n = task_new(b, b->tasks.v[t].pid, comm, prio, ts, WL_INIT_NEW, cpu);
	if (n == WL_NONE)
		return WL_NONE;
	b->tasks.v[n].init_state = WL_INIT_SLEEPING;
	b->tasks.v[n].class_prev = t;
	b->ts.v[n].st = TS_BLOCKED;
	b->ts.v[n].initial_sleep = true;
	b->tasks.v[n].group = b->ts.v[n].group = group;
	note(b, WL_NOTE_CLASS_SPLIT);
	if (pi)
		note(b, WL_NOTE_CLASS_SPLIT_PI);
	if (!queued) {
		/* asleep: switched_to_fair() attaches it at the change */
		if (to == WL_CLASS_FAIR && push_timed(b, ts, WL_T_CLASS_ENTER, n, cpu, 0, 0))
			return WL_NONE;
		return n;
	}
	if (to == WL_CLASS_FAIR && class_wake(b, n, cpu, ts) == WL_NONE)
		return WL_NONE;
	b->ts.v[n].initial_sleep = false;
	b->ts.v[n].st = TS_QUEUED;
	return n;
}

/*
 * The wakee of @u: a task whose wake shows a prio of the other class than
 * its record's changed class while asleep (class_split()).
 */
static uint32_t wakee(struct wl_builder *b, const struct trace_sched_wakeup *u, uint64_t ts)
{
	uint32_t t = lookup(b, u->pid);

	if (t != WL_NONE)
		return class_split(b, t, u->prio, ts, b->ts.v[t].pi_rt);
	return task_new(b, u->pid, u->comm, u->prio, ts, WL_INIT_SLEEPING,
			u->target_cpu >= 0 ? u->target_cpu : 0);
}

/*
 * Wake-list flushes.  A CPU that an interrupt (the wake-list IPI's
 * sched_ttwu_pending(), a timer) wakes tasks onto enqueues all of them under
 * its rq lock and switches only after the handler: none of them can run
 * before the last is queued, and the pick is among all of them.  In the trace
 * that is a run of sched_waking/sched_wakeup events on the target CPU itself,
 * in interrupt or idle context, with no other event of that CPU between.
 * Such wakes are external (replayed at their trace times); each member
 * records how long after it the run's last wake came (wl_wake.flush_ns), and
 * the simulation does not switch the CPU out of idle before that
 * (docs/replay.md, "Wake-list flushes"; --no-flush-hold: it does).  Without
 * it, a CPU whose measured idle exit is 0 us (a restored switch placed at
 * the wakeup, no sched_stat_runtime to place it better) ran the first of a
 * flush at once, and the others then preempted it or queued behind it one
 * by one (small-nowaking).
 */
#define WL_FLUSH_GAP_NS 20000u   /* members further apart are two interrupts */

static bool in_wake_flush(const struct trace_event *ev)
{
	if (ev->type != TRACE_EV_SCHED_WAKING && ev->type != TRACE_EV_SCHED_WAKEUP)
		return false;
	if (ev->u.wakeup.target_cpu != ev->cpu)
		return false;
	return ev->common_pid == 0 || (ev->common_flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_NMI));
}

/*
 * Can wake @w (its sched_wakeup @ev) be a flush member by its source?  Idle
 * or hardirq; under --flush-scope softirq|both also a softirq on the idle
 * task: irq_exit() runs the pending softirqs (a timer's wakes) before the
 * idle loop's need_resched check and schedule_idle(), so their enqueues
 * come before the pick too.
 */
static bool flush_member_src(const struct wl_builder *b, const struct wl_wake *w,
			     const struct trace_event *ev)
{
	if (w->src == WL_SRC_IDLE || w->src == WL_SRC_HARDIRQ)
		return true;
	return (b->opt.flush_scope & WL_FLUSH_SCOPE_SOFTIRQ) && w->src == WL_SRC_SOFTIRQ &&
	       ev->common_pid == 0;
}

/*
 * Does event @ev, not itself a member's, leave its CPU's flush run open?
 * Under --flush-scope migrate|both a sched_waking or sched_migrate_task
 * written on the CPU in idle or interrupt context: a wake the interrupt
 * raises for a task last on another CPU (its sched_waking names that CPU)
 * that select_task_rq() moves onto this one is enqueued here by
 * ttwu_queue() at once, before the idle loop's pick, as the others; one
 * that goes elsewhere does not change this CPU's pick.
 */
static bool flush_run_open(const struct wl_builder *b, const struct trace_event *ev)
{
	if (!(b->opt.flush_scope & WL_FLUSH_SCOPE_MIGRATE))
		return false;
	if (ev->type != TRACE_EV_SCHED_WAKING && ev->type != TRACE_EV_SCHED_MIGRATE_TASK)
		return false;
	return ev->common_pid == 0 ||
	       (ev->common_flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_NMI | TRACE_FLAG_SOFTIRQ));
}

/* External wake @wi, raised on its own CPU (track @c) in interrupt or idle context. */
static void wake_flush_add(struct wl_builder *b, struct cpu_track *c, uint32_t wi)
{
	struct wl_wake *w = &b->wakes.v[wi];

	if (c->flush_n && (w->ts - b->wakes.v[c->flush[c->flush_n - 1]].ts > WL_FLUSH_GAP_NS ||
			   c->flush_n == WL_FLUSH_MAX))
		c->flush_n = 0;
	for (uint32_t i = 0; i < c->flush_n; i++) {
		struct wl_wake *m = &b->wakes.v[c->flush[i]];

		m->flush_ns = (uint32_t)(w->ts - m->ts);
	}
	c->flush[c->flush_n++] = wi;
}

/*
 * A wake of RT/DL task @t (its sched_waking or sched_wakeup; replayed as a
 * timed WL_T_OTHER_WAKE): a sleep of it ends here, so its switch-in is not
 * one "with no wakeup recorded" (make_current()), which it was for every
 * RT/DL wakeup before 1 Dec 2026 (arm-trappy: 107, each with a stand-in wake
 * that the simulation never delivered).
 */
static void nonfair_woken(struct wl_builder *b, uint32_t t)
{
	struct tstate *s = &b->ts.v[t];

	if (s->st != TS_BLOCKED)
		return;
	s->st = TS_QUEUED;
	s->initial_sleep = false;
	s->block_op = WL_NONE;
}

/*
 * RT/DL task @t's wake event @ev (its sched_waking, or on a trace without
 * sched_waking its sched_wakeup), about to be pushed as the next timed entry,
 * from fair curr of CPU track @c onto @c's CPU: maybe the stopper of a
 * migration of curr (on_migrate()), whose wake tie_stopper_wake() then ties
 * to curr's work.
 */
static void stopper_wake_seen(struct wl_builder *b, struct cpu_track *c,
			      const struct trace_event *ev, uint32_t t)
{
	if (!c || ev->u.wakeup.target_cpu != ev->cpu || c->curr < 0 ||
	    b->tasks.v[c->curr].pid != ev->common_pid ||
	    b->tasks.v[c->curr].cls != WL_CLASS_FAIR)
		return;
	c->rtw_task = t;
	c->rtw_by = (uint32_t)c->curr;
	c->rtw_waking = b->timed.n;
	c->rtw_wakeup = WL_NONE;
}

/*
 * wl_wake_traced_path(): a local sched_waking (the CPU's task wakes @t onto
 * this CPU) made wake record b->ts.v[t].waking; wake_path_seen() follows the
 * events after it on this CPU.
 */
static void wake_path_start(struct wl_builder *b, const struct trace_event *ev, uint32_t t)
{
	const struct trace_sched_wakeup *u = &ev->u.wakeup;
	struct cpu_track *c = cpu_get(b, ev->cpu);

	if (!c || u->target_cpu != ev->cpu || ev->common_pid <= 0 || ev->common_pid == u->pid ||
	    b->ts.v[t].waking == WL_NONE)
		return;
	c->wp_on = true;
	c->wp_wake = b->ts.v[t].waking;
	c->wp_waker = ev->common_pid;
	c->wp_pid = u->pid;
	c->wp_ts = ev->ts;
	c->wp_rt_ts = 0;
}

/*
 * The next event on the CPU of a pending local waking (wake_path_start()):
 * the waker's sched_stat_runtime, then the wakee's sched_wakeup (a
 * migration between is select_task_rq()'s, kept) record the charge ->
 * wakeup gap; anything else, or lost events, ends it unrecorded.
 */
static int wake_path_seen(struct wl_builder *b, struct cpu_track *c, const struct trace_event *ev,
			  bool lost_before)
{
	if (lost_before) {
		c->wp_on = false;
		return 0;
	}
	switch (ev->type) {
	case TRACE_EV_SCHED_STAT_RUNTIME:
		if (!c->wp_rt_ts && ev->common_pid == c->wp_waker && ev->ts >= c->wp_ts &&
		    ev->u.stat_runtime.pid == c->wp_waker) {
			c->wp_rt_ts = ev->ts;
			return 0;
		}
		break;
	case TRACE_EV_SCHED_MIGRATE_TASK:
		return 0;
	case TRACE_EV_SCHED_WAKEUP:
		if (c->wp_rt_ts && ev->u.wakeup.pid == c->wp_pid && ev->ts >= c->wp_rt_ts) {
			uint64_t gap = ev->ts - c->wp_rt_ts, lead = c->wp_rt_ts - c->wp_ts;

			WL_VEC_PUSH(b->kpath, oom);
			b->kpath.v[b->kpath.n].wake = c->wp_wake;
			b->kpath.v[b->kpath.n].lead_ns = lead > UINT32_MAX ? UINT32_MAX : (uint32_t)lead;
			b->kpath.v[b->kpath.n++].gap_ns = gap > UINT32_MAX ? UINT32_MAX : (uint32_t)gap;
		}
		break;
	default:
		break;
	}
	c->wp_on = false;
	return 0;
oom:
	return -1;
}

static int on_waking(struct wl_builder *b, const struct trace_event *ev)
{
	const struct trace_sched_wakeup *u = &ev->u.wakeup;
	uint32_t t;
	int fail = 0;

	if (u->pid <= 0)
		return 0;
	{
		/* a local wakeup by the task running here: wake_clock_ns */
		struct cpu_track *c = cpu_get(b, ev->cpu);

		if (c) {
			c->wclk_pid = u->target_cpu == ev->cpu && ev->common_pid > 0 &&
				      ev->common_pid != u->pid ? ev->common_pid : 0;
			c->wclk_ts = ev->ts;
		}
	}
	if ((t = wakee(b, u, ev->ts)) == WL_NONE)
		return -1;
	if (b->tasks.v[t].cls != WL_CLASS_FAIR) {
		stopper_wake_seen(b, cpu_get(b, ev->cpu), ev, t);
		nonfair_woken(b, t);
		b->ts.v[t].ow_cpu = (int16_t)(ev->cpu + 1);
		b->ts.v[t].ow_local = (ev->common_flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_NMI |
							   TRACE_FLAG_SOFTIRQ)) ||
				      ev->common_pid == 0;
		return push_timed(b, ev->ts, WL_T_OTHER_WAKE, t, u->target_cpu, 0, TRACE_EV_SCHED_WAKING);
	}
	if (b->ts.v[t].waking != WL_NONE)
		return 0;          /* a second waking before the wakeup: the first counts */
	b->ts.v[t].waking = wake_new(b, ev, t, 0, &fail);
	if (!fail)
		wake_path_start(b, ev, t);
	return fail;
}

/*
 * Fair task @t, first seen in a sched_migrate_task and in nothing else since,
 * gets a sched_wakeup (@u) onto that migration's destination: the migration
 * was its wakeup's placement (try_to_wake_up() -> set_task_cpu() traces it
 * before the sched_wakeup; kernels before 4.3 have no sched_waking ahead of
 * it), so the task slept before the trace, not waited queued.  on_migrate()
 * started it runnable and this wakeup was spurious: no predicted sample for a
 * measured one (arm-trappy: adbd, 96 us at 164.687 s, the trace's 0.4 ms).
 * The start is revised: asleep, the migration one of a sleeping task.
 */
static void wakeup_migrated(struct wl_builder *b, uint32_t t, const struct trace_sched_wakeup *u)
{
	struct tstate *s = &b->ts.v[t];
	struct wl_timed *e;

	if (s->init_migrate >= b->timed.n || s->st != TS_QUEUED || s->waking != WL_NONE ||
	    s->ops.n || b->tasks.v[t].nr_wakes)
		return;
	e = &b->timed.v[s->init_migrate];
	if (e->kind != WL_T_MIGRATE || e->task != t || e->cpu != u->target_cpu || e->aux)
		return;
	e->aux = 1;                     /* on_migrate()'s TS_BLOCKED case */
	s->init_migrate = WL_NONE;
	s->st = TS_BLOCKED;
	s->initial_sleep = true;
	b->tasks.v[t].init_state = WL_INIT_SLEEPING;
	note(b, WL_NOTE_WAKEUP_MIGRATED);
}

static int on_wakeup(struct wl_builder *b, const struct trace_event *ev)
{
	const struct trace_sched_wakeup *u = &ev->u.wakeup;
	struct tstate *s;
	struct wl_wake *w;
	struct cpu_track *c;
	uint32_t t, wi;
	int cpu, fail = 0;

	if (u->pid <= 0)
		return 0;
	if ((t = wakee(b, u, ev->ts)) == WL_NONE)
		return -1;
	c = cpu_get(b, u->target_cpu >= 0 ? u->target_cpu : ev->cpu);
	if (c)
		c->wakeups++;
	if (b->tasks.v[t].cls != WL_CLASS_FAIR) {
		c = cpu_get(b, ev->cpu);
		if (c && c->rtw_task == t && c->rtw_wakeup == WL_NONE)
			c->rtw_wakeup = b->timed.n;
		else if (!b->wl->facts.has_sched_waking)
			/* kernels before 4.3: the wakeup is the only wake event */
			stopper_wake_seen(b, c, ev, t);
		note(b, WL_NOTE_WAKE_OF_NONFAIR);
		nonfair_woken(b, t);
		/* local: its sched_waking ran on the target CPU in interrupt context */
		cpu = u->target_cpu >= 0 ? u->target_cpu : ev->cpu;
		idle_wake_seen(b, cpu, b->ts.v[t].ow_cpu == cpu + 1 && b->ts.v[t].ow_local);
		b->ts.v[t].ow_cpu = 0;
		return push_timed(b, ev->ts, WL_T_OTHER_WAKE, t, u->target_cpu, 0, TRACE_EV_SCHED_WAKEUP);
	}
	wakeup_migrated(b, t, u);
	s = &b->ts.v[t];
	wi = s->waking;
	if (wi == WL_NONE) {
		wi = wake_new(b, ev, t, WL_WAKE_NO_WAKING, &fail);
		if (fail)
			return -1;
		s = &b->ts.v[t];
	}
	s->waking = WL_NONE;
	w = &b->wakes.v[wi];
	cpu = u->target_cpu >= 0 ? u->target_cpu : ev->cpu;
	w->cpu = (int16_t)cpu;
	idle_wake_seen(b, cpu, w->waker_cpu == cpu && (w->src == WL_SRC_HARDIRQ ||
						       w->src == WL_SRC_SOFTIRQ ||
						       w->src == WL_SRC_IDLE));
	seen_on(b, t, w->prev_cpu);
	seen_on(b, t, cpu);
	if (s->st == TS_BLOCKED) {
		w->flags |= WL_WAKE_ENDS_BLOCK;
		wake_note_sleep(w, s);
		if (s->initial_sleep)
			b->tasks.v[t].init_wake = wi;
		else if (s->block_op != WL_NONE)
			s->ops.v[s->block_op].arg = wi;
		if (w->flags & WL_WAKE_ON_CPU)
			note(b, WL_NOTE_RACE_WAKE);
		s->initial_sleep = false;
		s->block_op = WL_NONE;
		s->st = TS_QUEUED;
		s->cpu = (int16_t)cpu;
		if (w->waker == WL_NONE && flush_member_src(b, w, ev) &&
		    cpu == ev->cpu && w->waker_cpu == ev->cpu && in_wake_flush(ev) &&
		    (c = cpu_get(b, cpu)))
			wake_flush_add(b, c, wi);
		/* The latency machine starts an interval only off-CPU. */
		if (!(w->flags & WL_WAKE_ON_CPU)) {
			c = cpu_get(b, cpu);
			lat_arm(s, wi, c, c ? c->curr : CUR_UNKNOWN, c ? c->switches : 0);
		}
	} else {
		w->flags |= WL_WAKE_SPURIOUS;
	}
	return 0;
}

/*
 * The parent's FORK op stands where the child becomes runnable:
 * wake_up_new_task() (sched_wakeup_new), not sched_process_fork, which
 * kernel_clone() writes before it (forkexec: 3-5 us earlier).  The parent's
 * work between the two moves before the FORK, so a child that waits for
 * its parent to sleep waits what the trace shows from its sched_wakeup_new
 * (forkexec: those waits were +4 us, half of them 5-10 us measured).
 */
static int fork_at_wakeup_new(struct wl_builder *b, uint32_t parent, uint32_t child, uint64_t ts)
{
	struct tstate *s = &b->ts.v[parent];
	struct wl_op *o;

	if (b->tasks.v[parent].cls != WL_CLASS_FAIR || s->st != TS_RUNNING || flush_run(b, parent, ts))
		return s->st == TS_RUNNING && b->tasks.v[parent].cls == WL_CLASS_FAIR ? -1 : 0;
	o = s->ops.v;
	if (s->ops.n < 2 || o[s->ops.n - 1].kind != WL_OP_RUN || o[s->ops.n - 2].kind != WL_OP_FORK ||
	    o[s->ops.n - 2].arg != child)
		return 0;
	if (s->ops.n >= 3 && o[s->ops.n - 3].kind == WL_OP_RUN) {
		/* RUN(a) FORK RUN(d) -> RUN(a + d) FORK */
		o[s->ops.n - 3].value += o[s->ops.n - 1].value;
		s->ops.n--;
	} else {
		struct wl_op run = o[s->ops.n - 1];

		o[s->ops.n - 1] = o[s->ops.n - 2];
		o[s->ops.n - 2] = run;
	}
	return 0;
}

static int on_wakeup_new(struct wl_builder *b, const struct trace_event *ev)
{
	const struct trace_sched_wakeup *u = &ev->u.wakeup;
	struct wl_task *task;
	struct tstate *s;
	struct wl_wake *w;
	struct cpu_track *c;
	uint32_t t = lookup(b, u->pid);
	int cpu = u->target_cpu >= 0 ? u->target_cpu : ev->cpu;

	if (u->pid <= 0)
		return 0;
	if (t == WL_NONE || b->ts.v[t].st != TS_NEW) {
		/* No fork seen for it: an external fork at this time. */
		if (t != WL_NONE)
			note(b, WL_NOTE_PID_REUSE);
		t = task_new(b, u->pid, u->comm, u->prio, ev->ts, WL_INIT_NEW, cpu);
		if (t == WL_NONE)
			return -1;
		b->tasks.v[t].group = b->ts.v[t].group = 0;
		if (push_timed(b, ev->ts, WL_T_EXT_FORK, t, cpu, t, 0))
			return -1;
		note(b, WL_NOTE_EXT_FORK);
	}
	task = &b->tasks.v[t];
	task->prio = u->prio;
	task->cls = class_of_prio(u->prio);
	task->nice = task->cls == WL_CLASS_FAIR && fair_prio(u->prio) ? u->prio - 120 : 0;
	b->ts.v[t].nice = (int8_t)task->nice;
	task->init_cpu = (int16_t)cpu;
	s = &b->ts.v[t];
	s->st = TS_QUEUED;
	s->cpu = (int16_t)cpu;
	if (task->cls != WL_CLASS_FAIR) {
		note(b, WL_NOTE_WAKE_OF_NONFAIR);
		return push_timed(b, ev->ts, WL_T_OTHER_WAKE, t, cpu, 0, TRACE_EV_SCHED_WAKEUP_NEW);
	}
	WL_VEC_PUSH(b->wakes, oom);
	w = &b->wakes.v[b->wakes.n];
	memset(w, 0, sizeof(*w));
	w->idle_ns = WL_IDLE_NS_UNKNOWN;
	w->ts = ev->ts;
	w->target = t;
	w->waker = task->parent;
	w->seq = task->nr_wakes++;
	w->cpu = (int16_t)cpu;
	w->waker_cpu = (int16_t)ev->cpu;
	w->prev_cpu = (int16_t)ev->cpu;
	w->src = task->parent != WL_NONE ? WL_SRC_TASK : WL_SRC_UNKNOWN;
	w->path = WL_PATH_NONE;
	w->flags = WL_WAKE_NEW | WL_WAKE_ENDS_BLOCK;
	idle_wake_seen(b, cpu, false);     /* a fork: a task's, never the idle CPU's own */
	task->init_wake = b->wakes.n;
	if (task->parent != WL_NONE && ev->common_pid == b->tasks.v[task->parent].pid &&
	    fork_at_wakeup_new(b, task->parent, t, ev->ts))
		return -1;
	c = cpu_get(b, cpu);
	if (c)
		c->wakeups++;
	lat_arm(s, b->wakes.n, c, c ? c->curr : CUR_UNKNOWN, c ? c->switches : 0);
	b->wakes.n++;
	return 0;
oom:
	return -1;
}

/* ---- switches ------------------------------------------------------------ */

/*
 * prev_runnable: prev left the CPU still runnable ("R+" in-kernel preemption,
 * or "R": need_resched honoured at the return to user space, which is how a
 * wakeup preemption takes effect on a voluntary/lazy-preemption kernel).
 */
static uint8_t classify_path(int32_t lat_curr, int32_t prev, bool prev_runnable, int waker_cpu,
			     int cpu)
{
	if (lat_curr == CUR_UNKNOWN)
		return WL_PATH_NONE;
	if (lat_curr == CUR_IDLE)
		return prev == CUR_IDLE ? WL_PATH_IDLE : WL_PATH_QUEUED;
	if (prev == lat_curr && prev_runnable)
		return waker_cpu == cpu ? WL_PATH_PREEMPT_LOCAL : WL_PATH_PREEMPT_REMOTE;
	return WL_PATH_QUEUED;
}

/*
 * A preemption path's sample measures the mechanism only if the wakeup itself
 * led to the switch.  If the target CPU saw another wakeup after it, or its
 * current task was charged runtime twice before the switch (schedule()'s
 * put_prev_task() charges it once; a second is a tick or another update_curr()
 * point: sched_tick() -> task_tick_fair()), the kernel did not preempt at the
 * wakeup and the wakee waited for that later decision: scheduling delay,
 * which the simulation predicts (bw-hogs: a free probe woken just after a
 * bandwidth period boundary waits 0.3-3.7 ms for the tick or the next wakeup
 * there, and was counted a local preemption from hardirq).
 */
static bool later_decision_point(const struct cpu_track *c, const struct tstate *s)
{
	return c->wakeups != s->lat_wakeups || c->curr_stats - s->lat_stats >= 2;
}

/*
 * CPU bandwidth: task @t is switched in at @ts after waiting runnable since
 * its runnable_since.  If it is in a limited group (or below one) and waited
 * over a quarter of that group's period, the wait was (most likely) a
 * throttle and @ts is just after a period boundary: keep @ts mod period.
 */
static int bw_unthrottle_seen(struct wl_builder *b, uint32_t t, uint64_t ts)
{
	uint32_t g = b->ts.v[t].group;
	uint64_t period;

	while (g != WL_NONE && g < b->groups.n && b->groups.v[g].quota_us <= 0)
		g = b->groups.v[g].parent;
	if (g == WL_NONE || g >= b->groups.n)
		return 0;
	period = (uint64_t)b->groups.v[g].period_us * 1000;
	if (ts - b->ts.v[t].runnable_since <= period / 4)
		return 0;
	if (g >= b->bw_unthrottle_n) {
		uint32_t nn = b->groups.n;
		void *p = realloc(b->bw_unthrottle, nn * sizeof(*b->bw_unthrottle));

		if (!p)
			return -1;
		b->bw_unthrottle = p;
		memset(b->bw_unthrottle + b->bw_unthrottle_n, 0,
		       (nn - b->bw_unthrottle_n) * sizeof(*b->bw_unthrottle));
		b->bw_unthrottle_n = nn;
	}
	WL_VEC_PUSH(b->bw_unthrottle[g], oom);
	b->bw_unthrottle[g].v[b->bw_unthrottle[g].n++] = ts % period;
	return 0;
oom:
	return -1;
}

/*
 * The sched_switch @ev's prev task @p leaves CPU @c: preempted (queued),
 * blocked or dead, as its prev_state says; @stat_pid and @stat_ts are the
 * CPU's last sched_stat_runtime before the switch.  *@handoff_prev is set
 * to @p if its wakee of this run is next (a hand-off).  0, or -1 on error.
 */
static int switch_out_prev(struct wl_builder *b, struct cpu_track *c, const struct trace_event *ev,
			   uint32_t p, int32_t stat_pid, uint64_t stat_ts, uint32_t *handoff_prev)
{
	const struct trace_sched_switch *sw = &ev->u.sched_switch;
	struct tstate *s = &b->ts.v[p];

	if (b->tasks.v[p].cls != WL_CLASS_FAIR) {
		if (push_timed(b, ev->ts, WL_T_OTHER_OUT, p, ev->cpu, 0,
			       (sw->prev_run != TRACE_STATE_RUNNING) |
			       (c->other_tied ? WL_T_TIED : 0)))
			return -1;
		c->other_tied = false;
		c->other_in = WL_NONE;
		c->other_prev = WL_NONE;
	}
	switch (sw->prev_run) {
	case TRACE_STATE_RUNNING:
		if (retract_exit_move(b, p))
			return -1;
		s->st = TS_QUEUED;
		s->exit_queued = s->exited;
		s->runnable_since = ev->ts;
		if (sw->prev_preempt) {
			b->wl->facts.preempt_state = sw->prev_state;
			b->saw_r_plus = true;
		} else {
			b->saw_r = true;
		}
		if (s->run_wakee != WL_NONE && s->run_wakee == lookup(b, sw->next_pid))
			*handoff_prev = p;
		break;
	case TRACE_STATE_SLEEPING: {
		/* T (stopped), t (traced), P (parked): never delayed. */
		bool special = (sw->prev_state & 0x4c) && !(sw->prev_state & 0x3);

		if (stat_pid == sw->prev_pid && ev->ts >= stat_ts &&
		    ev->ts - stat_ts < (uint64_t)WL_LEAD_BUCKET_NS * WL_LEAD_BUCKETS)
			b->lead_hist[(ev->ts - stat_ts) / WL_LEAD_BUCKET_NS]++;

		if (retract_exit_move(b, p))
			return -1;
		if (switch_out_blocked(b, p, special, (uint64_t)sw->prev_state, ev->ts))
			return -1;
		/*
		 * its dequeue's charge in this run: the clock its
		 * __schedule() read, at the charge's event, or before
		 * it where a stall shows between them (clk_read())
		 */
		if (stat_pid == sw->prev_pid && ev->ts >= stat_ts &&
		    b->tasks.v[p].cls == WL_CLASS_FAIR && s->block_op < s->ops.n &&
		    s->ops.v[s->block_op].kind == WL_OP_BLOCK)
			s->ops.v[s->block_op].lead8 = wl_block_lead_pack(
				ev->ts - (stat_ts - c->stat_clk > WL_CLK_STALL_NS ?
					  c->stat_clk : stat_ts));
		if (s->waking != WL_NONE) {
			/* Woken before it got off the CPU: the wakeup
			 * that follows ends this block (race wake). */
		}
		break;
	}
	case TRACE_STATE_DEAD:
		if (task_exit(b, p, (uint64_t)sw->prev_state))
			return -1;
		break;
	}
	return 0;
}

/*
 * Task @n is switched in on CPU @c by the sched_switch @ev, from @prev_idx
 * (CUR_IDLE: the idle task): the latency of the wakeup it waited for, if
 * any, ends here, with the path it took (classify_path()).
 */
static void end_wake_latency(struct wl_builder *b, struct cpu_track *c,
			     const struct trace_event *ev, uint32_t n, int32_t prev_idx)
{
	const struct trace_sched_switch *sw = &ev->u.sched_switch;
	struct tstate *ns = &b->ts.v[n];
	struct wl_wake *w;

	if (ns->lat_wake == WL_NONE)
		return;
	w = &b->wakes.v[ns->lat_wake];
	/* Current unknown at the wakeup, and no switch since: it was prev. */
	if (ns->lat_curr == CUR_UNKNOWN && c->switches == ns->lat_switches + 1)
		ns->lat_curr = prev_idx;
	/* woken after the untraced switch to idle of that current */
	if (ns->lat_curr >= 0 && ns->lat_curr == c->lost_task && w->ts > c->lost_ts)
		ns->lat_curr = CUR_IDLE;
	w->latency = ev->ts - w->ts;
	w->path = classify_path(ns->lat_curr, prev_idx,
				sw->prev_run == TRACE_STATE_RUNNING, w->waker_cpu, ev->cpu);
	w->contested = (w->path == WL_PATH_PREEMPT_LOCAL ||
			w->path == WL_PATH_PREEMPT_REMOTE) && later_decision_point(c, ns);
	if (ev->synthetic)
		w->flags |= WL_WAKE_RESTORED;
	w->idle_ns = WL_IDLE_NS_UNKNOWN;
	if (w->path == WL_PATH_IDLE && ns->lat_idle_since != UINT64_MAX) {
		uint64_t r = w->ts > ns->lat_idle_since ? w->ts - ns->lat_idle_since : 0;

		w->idle_ns = r > WL_IDLE_NS_MAX ? WL_IDLE_NS_MAX : (uint32_t)r;
	}
	ns->lat_wake = WL_NONE;
}

/* a tick's charge this long before the switch: the switch is not that tick's */
#define WL_TICK_MARK_MAX_NS 1000000u

/*
 * Fair task @p was switched out runnable right after its CPU's tick charge
 * (sched_tick() -> task_tick_fair() -> update_curr(), then put_prev's
 * charge, no wakeup onto the CPU in between: the tick's resched_curr(),
 * honoured at the interrupt's return): mark that point of its work
 * (wl_options.tick_marks, --tick-preempt-at traced).
 */
static int tick_preempt_mark(struct wl_builder *b, uint32_t p)
{
	const struct tstate *s = &b->ts.v[p];

	uint32_t last = s->ops.n;

	/* a nice change placed at this switch-out sits after the run (nice_seen()) */
	if (last && s->ops.v[last - 1].kind == WL_OP_NICE)
		last--;
	if (b->tasks.v[p].cls != WL_CLASS_FAIR || s->exited || !last ||
	    s->ops.v[last - 1].kind != WL_OP_RUN)
		return 0;
	return push_op(b, p, WL_OP_PREEMPT, 0, 0, 0);
}

/*
 * The trace showed fair task @t at @prio: a nice level other than the one its
 * ops so far give it is a set_user_nice() (setpriority(), a `nice` wrapper
 * between fork and exec, renice) made since its last event - at a
 * switch-out in the run that ends there, at a switch-in while it slept or
 * waited.  It becomes a WL_OP_NICE at this point of its work.  The prio in
 * sched_switch is p->prio: a fair task boosted by a fair rt_mutex waiter
 * (rt_mutex_setprio() within 100..139) shows the boosted prio at its old
 * weight; with sched_pi_setprio in the trace that prio is known
 * (on_pi_setprio()) and not read as a nice change, without it it is.  A
 * nice change made while boosted, or between a boost and the task's next
 * switch, is not seen until a switch shows the new prio.  A task first seen as
 * an event's context had no prio yet (context_task()): the first one shown
 * is its nice from the start, not a change.
 */
static int nice_seen(struct wl_builder *b, uint32_t t, int32_t prio)
{
	struct tstate *s = &b->ts.v[t];

	if (b->tasks.v[t].cls != WL_CLASS_FAIR || !fair_prio(prio) ||
	    s->st == TS_DEAD)
		return 0;
	if (s->prio_unknown) {
		/* the first event to show it: its nice from the start */
		s->prio_unknown = false;
		b->tasks.v[t].prio = prio;
		b->tasks.v[t].nice = s->nice = (int8_t)(prio - 120);
		return 0;
	}
	if (s->pi_prio >= 0) {
		if (prio == s->pi_prio) {
			/* boosted: p->prio changed, static_prio and the weight did not */
			note(b, WL_NOTE_PI_FAIR);
			return 0;
		}
		/* set_user_nice() of a fair-boosted task sets p->prio = normal_prio */
		s->pi_prio = -1;
	}
	if (prio - 120 == s->nice)
		return 0;
	s->nice = (int8_t)(prio - 120);
	note(b, WL_NOTE_NICE);
	return push_op(b, t, WL_OP_NICE, 0, 0, (uint64_t)(int64_t)(prio - 120));
}

/*
 * sched_pi_setprio: rt_mutex_setprio() (kernel/sched/core.c) is about to set
 * the task's p->prio to @newprio - its top waiter's prio if higher, else
 * p->normal_prio.  It changes neither static_prio nor the load weight, so a
 * fair task's boost to a fair prio is no nice change: nice_seen() takes a
 * switch at that prio as the boost.  A @newprio equal to the nice so far is
 * the boost's end.  Neither prio exceeds p->normal_prio (@oldprio is p->prio,
 * min(normal_prio, top waiter's prio); @newprio is that min again, or
 * normal_prio itself at the end of the boost), and one of them is it when
 * the task was not boosted before (a boost) or is not after (its end): a
 * task whose prio was not known yet takes the higher one as its nice - at a
 * deboost in its own context, the first event of a holder boosted since
 * before the trace, @oldprio is the boost.
 *
 * For a task whose prio is known, @oldprio is p->prio as the kernel had it:
 * the boost the last event set (pi_prio; an RT/DL one, pi_rt), else the
 * normal prio.  Only set_user_nice() changes p->prio without this event
 * (syscalls.c: p->prio = effective_prio(), the new normal prio unless p->prio
 * is RT/DL - it drops a fair boost, keeps an RT one, and the boost's end then
 * finds prio == p->prio and writes no event).  So a fair @oldprio other than
 * that, while no RT boost is tracked, is a nice change to @oldprio made since
 * the task's last event - above or below the nice so far, boosted or not
 * (pi_setprio_nice()) - when @newprio does not exceed it: after
 * set_user_nice() p->prio is the normal prio, which no later @newprio
 * exceeds, so a deboost above an unexpected @oldprio is the end of a boost
 * the trace did not show (lost, or made before the task's first switch), not
 * a nice change.  A @newprio above the nice so far is one too (a boost
 * the task's first switch showed as its prio, ended here).  Not decided by
 * the events: set_user_nice() to the boost's own prio while boosted - p->prio
 * stays, the boost's end writes nothing, every later switch shows the boost's
 * prio (note WL_NOTE_PI_OPEN at the trace end).
 */
static int pi_setprio_nice(struct wl_builder *b, uint32_t t, const struct trace_sched_pi_setprio *pi)
{
	struct tstate *s = &b->ts.v[t];
	int32_t hi = pi->oldprio > pi->newprio ? pi->oldprio : pi->newprio;
	int32_t cur = s->pi_prio >= 0 ? s->pi_prio : 120 + s->nice;

	if (s->prio_unknown)
		return fair_prio(hi) ? nice_seen(b, t, hi) : 0;
	if (!s->pi_rt && fair_prio(pi->oldprio) && pi->oldprio != cur && pi->newprio <= pi->oldprio) {
		if (s->pi_prio >= 0)
			note(b, WL_NOTE_PI_NICE);
		s->pi_prio = -1;
		if (nice_seen(b, t, pi->oldprio))
			return -1;
	}
	if (fair_prio(pi->newprio) && pi->newprio - 120 > s->nice)
		return nice_seen(b, t, pi->newprio);
	return 0;
}

/*
 * sched_pi_setprio of a task whose record is RT or DL (from its first event,
 * or from class_split() at an RT boost), from such a prio to a fair one: the end of
 * an RT boost of a fair task - a real RT task's normal prio is RT, and
 * @newprio never exceeds the normal prio (rt_mutex_setprio(),
 * __rt_effective_prio()).  The kernel ran it as an RT task until here
 * (__setscheduler_class(): the RT class for the boost) and as a fair one from
 * here (switched_to_fair(): attached to its cfs_rq, enqueued, and a running
 * task rescheduled).  The replay keeps its RT intervals so far and goes on
 * with a new fair task of the same pid: running here (the holder's unlock in
 * its own context, the usual case) its RT interval ends now and the fair task
 * is woken here now (an assumed wake: its enqueue, the resched that lets the
 * fair pick decide) and runs on as the trace shows; asleep (a waiter gave up
 * on the lock) it starts asleep (its load attached at the change:
 * WL_T_CLASS_ENTER) and its next traced wake wakes it; queued
 * (not running; until class52 kept as RT up to its next switch) it is
 * enqueued on its CPU at the deboost by a class wake, as class_split() does
 * for a queued record.  Running elsewhere: kept as RT (note).  The fair
 * task's nice is @newprio's
 * (if another fair waiter still boosts it, that boost's end reads as a nice
 * change).  A fair task boosted to RT later in the trace gets its RT record
 * from class_split() (at the boost if queued or asleep, else at its
 * switch-out), which ends here the same way.  The wake is a class wake
 * (class_wake()): switched_to_fair() enqueues, it does not wake.
 */
static int pi_rt_first(struct wl_builder *b, uint32_t t, struct cpu_track *c,
		       const struct trace_event *ev)
{
	const struct trace_sched_pi_setprio *pi = &ev->u.pi_setprio;
	bool running = c && c->curr == (int32_t)t && b->ts.v[t].st == TS_RUNNING &&
		       b->ts.v[t].cpu == ev->cpu;
	bool queued = !running && b->ts.v[t].st == TS_QUEUED && b->ts.v[t].waking == WL_NONE &&
		      b->ts.v[t].cpu >= 0;
	uint32_t group = b->ts.v[t].group, n;
	int cpu = running ? ev->cpu : b->ts.v[t].cpu;
	char comm[TRACE_COMM_LEN];

	if (!running && !queued && b->ts.v[t].st != TS_BLOCKED) {
		note(b, WL_NOTE_PI_RT_KEPT);
		return 0;
	}
	if (running) {
		if (push_timed(b, ev->ts, WL_T_OTHER_OUT, t, ev->cpu, 0,
			       c->other_tied ? WL_T_TIED : 0))
			return -1;
		c->deboost_pid = pi->pid;
		c->other_tied = false;
		c->other_in = WL_NONE;
		c->other_prev = WL_NONE;
	}
	memcpy(comm, b->ts.v[t].comm, sizeof(comm));
	comm[sizeof(comm) - 1] = '\0';
	b->ts.v[t].st = TS_DEAD;
	/* not a task of the trace start (WL_NOTE_PREEXIST): the same thread, asleep since */
	n = task_new(b, pi->pid, comm, pi->newprio, ev->ts, WL_INIT_NEW, cpu);
	if (n == WL_NONE)
		return -1;
	b->tasks.v[n].init_state = WL_INIT_SLEEPING;
	b->ts.v[n].st = TS_BLOCKED;
	b->ts.v[n].initial_sleep = true;
	b->tasks.v[n].class_prev = t;
	b->tasks.v[n].group = b->ts.v[n].group = group;
	note(b, WL_NOTE_PI_RT_FIRST);
	if (queued) {
		/* queued on @cpu: switched_to_fair()'s enqueue there, the pick later */
		note(b, WL_NOTE_PI_RT_QUEUED);
		if (class_wake(b, n, cpu, ev->ts) == WL_NONE)
			return -1;
		b->ts.v[n].initial_sleep = false;
		b->ts.v[n].st = TS_QUEUED;
		return 0;
	}
	if (!running)   /* asleep: switched_to_fair() attaches it at the change */
		return push_timed(b, ev->ts, WL_T_CLASS_ENTER, n, cpu, 0, 0) ? -1 : 0;
	if (class_wake(b, n, ev->cpu, ev->ts) == WL_NONE)
		return -1;
	b->ts.v[n].initial_sleep = false;
	b->ts.v[n].st = TS_QUEUED;
	return make_current(b, c, ev->cpu, n, ev->ts, true, false);
}

static int on_pi_setprio(struct wl_builder *b, const struct trace_event *ev)
{
	const struct trace_sched_pi_setprio *pi = &ev->u.pi_setprio;
	uint32_t t = pi->pid > 0 ? lookup(b, pi->pid) : WL_NONE, ctx;
	struct cpu_track *c = cpu_get(b, ev->cpu);
	struct tstate *s;

	if (t == WL_NONE || b->ts.v[t].st == TS_DEAD)
		return 0;
	if (b->tasks.v[t].cls != WL_CLASS_FAIR && pi->oldprio < 100 && fair_prio(pi->newprio))
		return pi_rt_first(b, t, c, ev);
	if (b->tasks.v[t].cls != WL_CLASS_FAIR)
		return 0;
	s = &b->ts.v[t];
	if (pi->newprio < 100) {
		note(b, WL_NOTE_PI_RT_BOOST);
		/*
		 * The RT class from here if it is queued or asleep (the waiter
		 * boosts a preempted holder; class_split()); running, from its
		 * switch-out at the boost's prio.
		 */
		if (b->ts.v[t].st == TS_QUEUED || b->ts.v[t].st == TS_BLOCKED)
			return class_split(b, t, pi->newprio, ev->ts, true) == WL_NONE ? -1 : 0;
	}
	if (pi_setprio_nice(b, t, pi))
		return -1;
	s->pi_rt = pi->newprio < 100;
	if (fair_prio(pi->newprio) && pi->newprio - 120 != s->nice)
		s->pi_prio = (int16_t)pi->newprio;
	else
		s->pi_prio = -1;
	/*
	 * The requeue at this point of the work of the task that made it (a
	 * waiter in task_blocks_on_rt_mutex(), the holder at its unlock):
	 * fair prios on both sides only, and only from a fair task running here.
	 */
	if (!fair_prio(pi->oldprio) || !fair_prio(pi->newprio))
		return 0;
	ctx = ev->common_pid > 0 && c && c->curr >= 0 ? (uint32_t)c->curr : WL_NONE;
	if (ctx == WL_NONE || b->tasks.v[ctx].pid != ev->common_pid ||
	    b->tasks.v[ctx].cls != WL_CLASS_FAIR || b->ts.v[ctx].st != TS_RUNNING ||
	    (ev->common_flags & TRACE_FLAGS_IRQ)) {
		note(b, WL_NOTE_PI_UNPLACED);
		return 0;
	}
	note(b, WL_NOTE_PI_REQUEUE);
	return flush_run(b, ctx, ev->ts) ||
	       push_op(b, ctx, WL_OP_PI_SETPRIO, (uint8_t)(pi->oldprio - 100), t,
		       (uint64_t)pi->newprio);
}

/*
 * In a trace without sched_migrate_task, whether a task never seen before
 * and switched in now on CPU track @c (by @sw) starts asleep, woken
 * untraced at this switch-in, rather than queued there since the trace
 * start (--unseen-nomig).  A CPU picks idle only with an empty queue
 * (__pick_next_task()), so a task queued on @c all along contradicts a
 * switch to idle traced on @c before, or this switch's prev being idle
 * (the CPU idle right before it): it was woken, forked or moved here by an
 * untraced migration after, and the replay, which places wakes as traced,
 * runs it where the trace does only if it is woken here now (queued, it
 * ran at the first moment @c was free: arm-lisa's trace.txt, sshd 1711
 * 6 s early).  all-idle keeps it queued (moved here untraced from another
 * queue) unless every CPU of the trace has gone idle before.
 */
static bool unseen_nomig_idle(const struct wl_builder *b, const struct cpu_track *c,
			      const struct trace_sched_switch *sw)
{
	bool here = c->idle_seen || sw->prev_pid <= 0;
	int idle = b->idle_seen_cpus + (!c->idle_seen && sw->prev_pid <= 0);

	switch (b->opt.unseen_nomig) {
	case WL_UNSEEN_NOMIG_IDLE:
		return here;
	case WL_UNSEEN_NOMIG_ALL_IDLE:
		return here && b->wl->info.cpus > 0 && idle >= b->wl->info.cpus;
	default:
		return false;
	}
}

static int on_switch(struct wl_builder *b, const struct trace_event *ev)
{
	const struct trace_sched_switch *sw = &ev->u.sched_switch;
	struct cpu_track *c = cpu_get(b, ev->cpu);
	int32_t prev_idx = CUR_IDLE;
	uint32_t p = WL_NONE, n, handoff_prev = WL_NONE, fresh = WL_NONE;
	int32_t stat_pid;
	uint64_t stat_ts;
	bool was_idle, tick_preempt;

	if (!c)
		return 0;
	wl_hz_probe_switch(b->hz, ev->cpu);
	c->switches++;
	/* without sched_migrate_task, a task may have come here by an untraced move */
	was_idle = c->idle_seen && b->wl->info.records_migrations;
	if (!b->wl->info.records_migrations)
		was_idle = unseen_nomig_idle(b, c, sw);
	if (sw->next_pid <= 0 && !c->idle_seen) {
		c->idle_seen = true;
		b->idle_seen_cpus++;
	}
	stat_pid = c->stat_pid;
	stat_ts = c->stat_ts;
	c->stat_pid = 0;
	if (sw->prev_run == TRACE_STATE_RUNNING && stat_pid == sw->prev_pid && stat_pid > 0 &&
	    c->stat2_pid == stat_pid && ev->ts >= c->stat2_ts &&
	    ev->ts - c->stat2_ts < (uint64_t)WL_TICK_BUCKET_NS * WL_TICK_BUCKETS)
		b->tick_hist[(ev->ts - c->stat2_ts) / WL_TICK_BUCKET_NS]++;
	tick_preempt = sw->prev_run == TRACE_STATE_RUNNING && sw->prev_pid > 0 &&
		       c->tk_pid == sw->prev_pid && c->tk2_pid == sw->prev_pid &&
		       c->tk2_wakeups == c->wakeups && ev->ts >= c->stat2_ts &&
		       ev->ts - c->stat2_ts < WL_TICK_MARK_MAX_NS;
	c->tk_pid = c->tk2_pid = 0;
	c->stat2_pid = 0;
	if (sw->prev_pid > 0) {
		p = lookup_on(b, c, sw->prev_pid);
		if (p == WL_NONE) {
			p = appear_running(b, c, ev->cpu, sw->prev_pid, sw->prev_comm, sw->prev_prio,
					   ev->ts);
			if (p == WL_NONE)
				return -1;
		} else if (c->curr != (int32_t)p) {
			if (make_current(b, c, ev->cpu, p, ev->ts, c->curr == CUR_UNKNOWN, false))
				return -1;
		}
		prev_idx = (int32_t)p;
		if (comm_seen(b, p, sw->prev_comm, ev->ts))
			return -1;
		if (b->tasks.v[p].cls == WL_CLASS_FAIR && sw->prev_prio >= 0 && sw->prev_prio < 100)
			note(b, WL_NOTE_PI_BOOST);
		if (flush_run(b, p, ev->ts) || nice_seen(b, p, sw->prev_prio))
			return -1;
		if (switch_out_prev(b, c, ev, p, stat_pid, stat_ts, &handoff_prev))
			return -1;
		if (tick_preempt && b->opt.tick_marks && handoff_prev == WL_NONE &&
		    tick_preempt_mark(b, p))
			return -1;
		/* its class changed while it ran: from here on (class_split()) */
		if (b->ts.v[p].st != TS_DEAD &&
		    class_of_prio(sw->prev_prio) != b->tasks.v[p].cls) {
			bool pi = b->ts.v[p].pi_rt;
			uint32_t q = class_split(b, p, sw->prev_prio, ev->ts, pi);

			if (q == WL_NONE)
				return -1;
			if (q != p && handoff_prev == p)
				handoff_prev = WL_NONE;
		}
	} else if (cpu_seen_idle(b, c, ev->cpu, ev->ts)) {
		/* prev is idle but the CPU ran a task: the trace lost its switch */
		return -1;
	}

	/* the next task's exec_start is this __schedule()'s clock only between fair tasks */
	if (p == WL_NONE || b->tasks.v[p].cls != WL_CLASS_FAIR || sw->next_pid <= 0 ||
	    sw->next_prio < 100)
		c->clk = 0;
	if (sw->prev_pid <= 0 && sw->next_pid > 0) {
		if (ev->synthetic)
			c->idle_exits_restored++;
		else
			c->idle_exits_traced++;
	}
	if (sw->next_pid <= 0) {
		c->curr = CUR_IDLE;
		c->known_once = true;
		if (!c->idle_open) {
			c->idle_open = true;
			c->idle_since = ev->ts;
			c->idle_wake = WL_IDLE_END_NONE;
		}
		return 0;
	}
	n = lookup_named(b, ev, sw->next_pid);
	if (n == WL_NONE) {
		/*
		 * Never seen before: queued here since the trace start, but not
		 * if this CPU has gone idle since then in a trace that records
		 * migrations (unless --unseen-queued).  The
		 * kernel's pick does not leave a CPU idle with a task on its
		 * queue (__pick_next_task() picks idle only when nothing is
		 * queued), so that task was woken after, untraced: it starts
		 * asleep and make_current() gives it an external wake now, as
		 * appear_running() does.
		 */
		n = task_new(b, sw->next_pid, sw->next_comm, sw->next_prio, ev->ts,
			     was_idle && !b->opt.unseen_queued ? WL_INIT_SLEEPING :
			     WL_INIT_RUNNABLE, ev->cpu);
		if (n == WL_NONE)
			return -1;
		if (b->tasks.v[n].init_state == WL_INIT_SLEEPING)
			fresh = n;      /* started asleep here */
	}
	if (comm_seen(b, n, sw->next_comm, ev->ts))
		return -1;
	/* its class changed while it waited or slept, its wake not seen (class_split()) */
	if (b->ts.v[n].st == TS_QUEUED || b->ts.v[n].st == TS_BLOCKED) {
		n = class_split(b, n, sw->next_prio, ev->ts, b->ts.v[n].pi_rt);
		if (n == WL_NONE)
			return -1;
	}
	if (handoff_prev != WL_NONE && handoff_prev != n && b->tasks.v[n].cls == WL_CLASS_FAIR &&
	    b->tasks.v[handoff_prev].cls == WL_CLASS_FAIR) {
		handoff_cancel(b, handoff_prev);
		b->ts.v[handoff_prev].handoff_to = n;
		b->ts.v[n].handoff_from = handoff_prev;
		b->ts.v[n].handoff_ops0 = b->ts.v[n].ops.n;
	}
	c->curr = CUR_IDLE;             /* prev is gone; no mismatch for next */
	if (b->ts.v[n].st == TS_NEW) {
		/* Switched in without sched_wakeup_new: placed here. */
		b->ts.v[n].st = TS_QUEUED;
		b->tasks.v[n].init_cpu = (int16_t)ev->cpu;
	}
	if (b->ts.v[n].runnable_since && bw_unthrottle_seen(b, n, ev->ts))
		return -1;
	b->ts.v[n].runnable_since = 0;
	if (make_current(b, c, ev->cpu, n, ev->ts, true, true) || nice_seen(b, n, sw->next_prio))
		return -1;
	/*
	 * woken by make_current()'s assumed wake: a fork? (fork_finish()
	 * decides).  Its parent: the task on this CPU, the assumed wake's,
	 * when the child was switched in (the prev), none if it was idle.
	 */
	if (n == fresh && b->tasks.v[n].cls == WL_CLASS_FAIR &&
	    b->tasks.v[n].init_wake != WL_NONE) {
		b->tasks.v[n].fork_assumed = true;
		b->tasks.v[n].fork_parent = p != n ? p : WL_NONE;
	}
	if (b->tasks.v[n].cls != WL_CLASS_FAIR) {
		if (push_timed(b, ev->ts, WL_T_OTHER_IN, n, ev->cpu, 0, 0))
			return -1;
		c->other_in = b->timed.n - 1;
		c->other_tied = false;
		c->other_prev = p != WL_NONE && sw->prev_run == TRACE_STATE_RUNNING &&
			b->tasks.v[p].cls == WL_CLASS_FAIR ? p : WL_NONE;
	}
	end_wake_latency(b, c, ev, n, prev_idx);
	return 0;
}

/* ---- other events ------------------------------------------------------- */

/*
 * The stopper (@stopper) that has just preempted @t on CPU track @c moves it:
 * if @t itself woke the stopper here (sched_exec() -> stop_one_cpu()), that
 * wakeup belongs to the same point of @t's work as the move.  Replayed at its
 * trace time it drifted apart from the stopper's interval (replayed at the
 * WL_OP_MIGRATE) and the latency machine paired the waking with a later
 * switch-in (forkexec: migration/N p50 9.3 ms against 5.1 us).  @t's last RUN
 * is cut where the waking was (the time from it to the switch, which @t ran),
 * a WL_OP_WAKE_OTHER goes there, and the timed entries are marked tied.
 */
static int tie_stopper_wake(struct wl_builder *b, struct cpu_track *c, uint32_t t,
			    uint32_t stopper)
{
	struct tstate *s = &b->ts.v[t];
	uint64_t tail, evs = 1;
	struct wl_timed *wk;

	if (c->rtw_task != stopper || c->rtw_by != t || c->other_in == WL_NONE ||
	    c->rtw_waking >= c->other_in)
		return 0;
	c->rtw_task = WL_NONE;
	wk = &b->timed.v[c->rtw_waking];
	wk->arg |= WL_T_WAKE_TIED;
	if (wk->aux == TRACE_EV_SCHED_WAKEUP)
		evs = 2;                /* a trace without sched_waking: on_wakeup()'s */
	if (c->rtw_wakeup != WL_NONE && c->rtw_wakeup < c->other_in) {
		b->timed.v[c->rtw_wakeup].arg |= WL_T_WAKE_TIED;
		evs |= 2;
	}
	tail = b->timed.v[c->other_in].ts - wk->ts;
	if (s->ops.n && s->ops.v[s->ops.n - 1].kind == WL_OP_RUN &&
	    s->ops.v[s->ops.n - 1].value > tail && tail > 0) {
		s->ops.v[s->ops.n - 1].value -= tail;
		return push_op(b, t, WL_OP_WAKE_OTHER, 0, stopper, evs) ||
		       push_op(b, t, WL_OP_RUN, 0, 0, tail);
	}
	return push_op(b, t, WL_OP_WAKE_OTHER, 0, stopper, evs);
}

static int migrate_event(struct wl_builder *b, const struct trace_event *ev)
{
	const struct trace_sched_migrate_task *m = &ev->u.migrate;
	uint32_t t = lookup_named(b, ev, m->pid);
	struct tstate *s;

	if (m->pid <= 0)
		return 0;
	if (t == WL_NONE) {
		t = task_new(b, m->pid, m->comm, m->prio, ev->ts, WL_INIT_RUNNABLE, m->orig_cpu);
		if (t == WL_NONE)
			return -1;
		b->ts.v[t].init_migrate = b->timed.n;   /* if pushed below: wakeup_migrated() */
	}
	if (b->tasks.v[t].cls != WL_CLASS_FAIR)
		return push_timed(b, ev->ts, WL_T_OTHER_MIGRATE, t, m->dest_cpu, 0, 0);
	b->tasks.v[t].multi_cpu = true;
	s = &b->ts.v[t];
	if (s->waking != WL_NONE)
		return 0;                 /* wakeup placement: the wake record has the CPU */
	switch (s->st) {
	case TS_QUEUED: {
		struct cpu_track *c = cpu_get(b, ev->cpu);

		s->cpu = (int16_t)m->dest_cpu;
		if (c && c->other_prev == t && c->other_in != WL_NONE && !c->other_tied &&
		    m->orig_cpu == ev->cpu && c->curr >= 0) {
			/*
			 * The stopper that preempted it moves it (sched_exec(),
			 * set_cpus_allowed_ptr()): the move belongs to the
			 * task's work, not to this trace time.
			 */
			c->other_tied = true;
			b->timed.v[c->other_in].aux |= WL_T_TIED;
			note(b, WL_NOTE_SELF_MIGRATE);
			if (tie_stopper_wake(b, c, t, b->timed.v[c->other_in].task))
				return -1;
			return push_op(b, t, WL_OP_MIGRATE, 0, (uint32_t)m->dest_cpu,
				       (uint64_t)c->curr);
		}
		if (push_timed(b, ev->ts, WL_T_MIGRATE, t, m->dest_cpu, 0, 0))
			return -1;
		/* its position: the RUN it was preempted in goes on after this */
		b->timed.v[b->timed.n - 1].op = s->ops.n && s->ops.v[s->ops.n - 1].kind == WL_OP_RUN ?
						s->ops.n - 1 : s->ops.n;
		return 0;
	}
	case TS_BLOCKED:
		s->cpu = (int16_t)m->dest_cpu;
		return push_timed(b, ev->ts, WL_T_MIGRATE, t, m->dest_cpu, 0, 1);
	case TS_RUNNING:
		note(b, WL_NOTE_RUNNING_MIGRATE);
		return 0;
	default:
		return 0;
	}
}

/*
 * Traced load-balance passes.  sched_balance_rq() locks the source CPU and
 * detach_tasks() detaches the tasks it moves one by one (detach_task():
 * deactivate_task(), set_task_cpu(), whose sched_migrate_task is written on
 * the balancing CPU), then attach_tasks() enqueues them on the destination
 * from the head of a list detach_task() added each to the head of: the last
 * detached first, each placed (place_entity()) after the ones before it.
 * The trace shows such a pass as consecutive sched_migrate_task events of
 * queued tasks between one pair of CPUs written on one CPU, with nothing
 * between them there but the sched_stat_runtime of the source's update_curr()
 * in a dequeue.  Such migrations (pushed as WL_T_MIGRATE, queued or, a
 * delayed-dequeue task, sleeping in the trace's terms) are linked here
 * through their arg (WL_T_PASS_ID / WL_T_PASS_LAST); any other event of the
 * CPU ends a pass.  Two more bounds: detach_tasks() attaches after at most
 * sched_nr_migrate_break (32) tasks and balances again (LBF_NEED_BREAK), and
 * two passes a CPU balances between one pair of CPUs with no event of that
 * CPU in between (nohz idle balancing on behalf of an idle CPU) are one
 * balance interval (at least a jiffy) apart: a gap of more than 100 us ends
 * a pass (the longest within one in the bundled traces is 11 us).
 */
#define WL_PASS_GAP_NS 100000u

static void pass_track(struct wl_builder *b, struct cpu_track *c, const struct trace_event *ev,
		       uint32_t n0)
{
	const struct trace_sched_migrate_task *m = &ev->u.migrate;
	struct wl_timed *e = b->timed.n == n0 + 1 ? &b->timed.v[n0] : NULL, *prev;

	if (!e || e->kind != WL_T_MIGRATE || e->cpu != m->dest_cpu) {
		c->pass_last = WL_NONE;
		return;
	}
	prev = c->pass_last < n0 ? &b->timed.v[c->pass_last] : NULL;
	if (prev && prev->kind == WL_T_MIGRATE && prev->cpu == e->cpu &&
	    c->pass_orig == m->orig_cpu && e->ts - prev->ts <= WL_PASS_GAP_NS &&
	    c->pass_n < WL_PASS_TASKS_MAX && (prev->arg || b->nr_passes < WL_T_PASS_ID)) {
		if (!prev->arg) {
			prev->arg = ++b->nr_passes;
			note(b, WL_NOTE_BALANCE_PASS);
		}
		e->arg = (prev->arg & WL_T_PASS_ID) | WL_T_PASS_LAST;
		prev->arg &= WL_T_PASS_ID;
		c->pass_n++;
	} else {
		c->pass_n = 1;
	}
	c->pass_last = n0;
	c->pass_orig = (int16_t)m->orig_cpu;
}

static int on_migrate(struct wl_builder *b, const struct trace_event *ev)
{
	const struct trace_sched_migrate_task *m = &ev->u.migrate;
	uint32_t n0 = b->timed.n;
	struct cpu_track *c;
	int32_t curr;

	c = cpu_get(b, ev->cpu);
	curr = c ? c->curr : CUR_UNKNOWN;
	if (migrate_event(b, ev))
		return -1;
	if (!c)
		return 0;
	pass_track(b, c, ev, n0);
	/* a newidle pull candidate (newidle_track()) */
	if (c->ni_timed != WL_NONE || c->ni_n) {
		c->ni_n++;
	} else if (b->timed.n == n0 + 1 && b->timed.v[n0].kind == WL_T_MIGRATE &&
		   !b->timed.v[n0].aux && m->dest_cpu == ev->cpu && m->orig_cpu != m->dest_cpu &&
		   curr >= 0 && (uint32_t)curr < b->tasks.n &&
		   b->tasks.v[curr].cls == WL_CLASS_FAIR && b->timed.v[n0].task != (uint32_t)curr) {
		c->ni_timed = n0;
		c->ni_prev = curr;
		c->ni_n = 1;
	}
	return 0;
}

/*
 * Traced newidle pulls (struct wl_newidle).  When the task that blocks or
 * exits in __schedule() leaves its CPU with no fair task to pick,
 * pick_next_task_fair() runs sched_balance_newidle(), which pulls a task
 * queued on another CPU (detach_task(): set_task_cpu() writes the
 * sched_migrate_task on the destination, in the blocker's context) before
 * the pick, and the switch that follows goes from the blocker to the pulled
 * task.  Called for every event of a CPU with a candidate pending (the
 * candidate's own migration and sched_stat_runtime aside: the update_curr()
 * of the source's dequeue and of the destination's enqueue): *@match is set
 * if @ev is that switch, after which newidle_record() keeps it.
 */
static void newidle_track(struct wl_builder *b, struct cpu_track *c, const struct trace_event *ev,
			  bool *match)
{
	const struct trace_sched_switch *sw = &ev->u.sched_switch;

	*match = false;
	if (ev->type == TRACE_EV_SCHED_STAT_RUNTIME)
		return;
	if (ev->type == TRACE_EV_SCHED_MIGRATE_TASK && c->ni_n)
		return;                 /* on_migrate() counts it */
	if (ev->type == TRACE_EV_SCHED_SWITCH && c->ni_timed != WL_NONE && c->ni_n == 1 &&
	    !ev->synthetic && c->curr == c->ni_prev && sw->prev_run != TRACE_STATE_RUNNING &&
	    lookup(b, sw->prev_pid) == (uint32_t)c->ni_prev &&
	    lookup(b, sw->next_pid) == b->timed.v[c->ni_timed].task)
		*match = true;
	if (!*match) {
		c->ni_timed = WL_NONE;
		c->ni_n = 0;
	}
}

/* After the switch newidle_track() matched: the blocker's BLOCK or EXIT op is its last. */
static int newidle_record(struct wl_builder *b, struct cpu_track *c)
{
	uint32_t t = (uint32_t)c->ni_prev, n0 = c->ni_timed;
	const struct tstate *s = &b->ts.v[t];
	const struct wl_op *o = s->ops.n ? &s->ops.v[s->ops.n - 1] : NULL;

	c->ni_timed = WL_NONE;
	c->ni_n = 0;
	if (!o || (o->kind != WL_OP_BLOCK && o->kind != WL_OP_EXIT))
		return 0;
	WL_VEC_PUSH(b->newidle, fail);
	b->newidle.v[b->newidle.n++] = (struct wl_newidle){ .timed = n0, .blocker = t,
		.block_op = s->ops.n - 1 };
	note(b, o->kind == WL_OP_EXIT ? WL_NOTE_NEWIDLE_EXIT : WL_NOTE_NEWIDLE_PULL);
	return 0;
fail:
	return -1;
}

static int on_fork(struct wl_builder *b, const struct trace_event *ev)
{
	const struct trace_sched_process_fork *f = &ev->u.fork;
	uint32_t parent, child, old;
	struct cpu_track *c;
	bool stranger;
	int fail = 0;

	if (f->child_pid <= 0)
		return 0;
	parent = ev->common_pid == f->parent_pid ? context_task(b, ev, &stranger, &fail) : WL_NONE;
	if (fail)
		return -1;
	old = lookup(b, f->child_pid);
	if (old != WL_NONE && b->ts.v[old].exited &&
	    ((b->ts.v[old].st == TS_QUEUED && b->ts.v[old].exit_queued) ||
	     (b->ts.v[old].st == TS_RUNNING && (c = cpu_get(b, b->ts.v[old].cpu)) &&
	      c->curr == (int32_t)old))) {
		/*
		 * Past its sched_process_exit and still on its CPU: the pid
		 * was freed at exit_notify() (release_task(), or the parent's
		 * wait()), before the task's last switch (do_task_dead()), and
		 * this fork took it.  The old task runs on to that switch
		 * (lookup_on(): its CPU's events in its context are its own);
		 * preempted since its exit, it is queued: the switch-in and
		 * migrations the measured side takes for it are its own
		 * (lookup_named()).  The pid names the child.
		 */
	} else if (old != WL_NONE && b->ts.v[old].st != TS_DEAD) {
		note(b, WL_NOTE_PID_REUSE);
		if (b->ts.v[old].st == TS_RUNNING && flush_run(b, old, ev->ts))
			return -1;
		b->ts.v[old].st = TS_DEAD;
	}
	child = task_new(b, f->child_pid, f->child_comm,
			 parent != WL_NONE ? b->tasks.v[parent].prio : 120, ev->ts, WL_INIT_NEW,
			 ev->cpu);
	if (child == WL_NONE)
		return -1;
	if (parent != WL_NONE) {
		b->ts.v[child].aff_fork_call = b->ts.v[parent].aff_last;
		b->tasks.v[child].parent = parent;
		b->tasks.v[child].group = b->ts.v[child].group = b->ts.v[parent].group;
	}
	if (parent != WL_NONE && b->tasks.v[parent].cls == WL_CLASS_FAIR) {
		if (flush_run(b, parent, ev->ts) || push_op(b, parent, WL_OP_FORK, 0, child, 0))
			return -1;
		return 0;
	}
	note(b, WL_NOTE_EXT_FORK);
	return push_timed(b, ev->ts, WL_T_EXT_FORK, child, ev->cpu, child, 0);
}

static int on_exec(struct wl_builder *b, const struct trace_event *ev)
{
	const struct trace_sched_process_exec *x = &ev->u.exec;
	uint32_t t = lookup(b, x->pid), si;
	const char *base = x->filename;
	size_t len = x->filename_len;

	if (t == WL_NONE || b->tasks.v[t].cls != WL_CLASS_FAIR || !base)
		return 0;
	for (size_t i = 0; i < x->filename_len; i++)
		if (x->filename[i] == '/') {
			base = x->filename + i + 1;
			len = x->filename_len - i - 1;
		}
	if (len >= TRACE_COMM_LEN)
		len = TRACE_COMM_LEN - 1;
	if ((si = intern_string(b, base, len)) == WL_NONE)
		return -1;
	if (flush_run(b, t, ev->ts))
		return -1;
	snprintf(b->ts.v[t].comm, TRACE_COMM_LEN, "%s", b->strings.v[si]);
	return push_op(b, t, WL_OP_COMM, WL_COMM_EXEC, si, 0);
}

static int on_cgroup_attach(struct wl_builder *b, const struct trace_event *ev)
{
	const struct trace_cgroup_attach_task *g = &ev->u.cgroup_attach;
	uint32_t t = lookup(b, g->pid), gi;

	if (g->pid <= 0 || !g->dst_path)
		return 0;
	if (b->cg_root < 0) {
		/*
		 * The cpu hierarchy: the sidecar knows its cgroups; without
		 * one, the first hierarchy that shows up is taken.
		 */
		char path[512];

		snprintf(path, sizeof(path), "%.*s", (int)g->dst_path_len, g->dst_path);
		if (!b->sc || sidecar_find_cgroup(b->sc, path) || b->sc->nr_cgroups == 0)
			b->cg_root = g->dst_root;
		else
			return 0;
	}
	if (g->dst_root != b->cg_root) {
		note(b, WL_NOTE_CGROUP_OTHER_ROOT);
		return 0;
	}
	gi = group_get(b, g->dst_path, g->dst_path_len, false);
	if (gi == WL_NONE)
		return -1;
	if (t == WL_NONE)
		return 0;                 /* the task shows up later with its initial group */
	b->ts.v[t].group = gi;
	if (b->ts.v[t].st == TS_NEW)
		b->tasks.v[t].group = gi;
	return push_timed(b, ev->ts, WL_T_MOVE_GROUP, t, -1, gi, 0);
}

/* sched_process_exit: the exiting task's EXIT_MOVE follows (on_stat_runtime). */
static int on_exit_event(struct wl_builder *b, const struct trace_event *ev)
{
	uint32_t t = ev->u.exit.pid > 0 ? lookup(b, ev->u.exit.pid) : WL_NONE;

	if (t != WL_NONE && ev->common_pid == ev->u.exit.pid)
		b->ts.v[t].exited = true;
	if (t != WL_NONE && ev->common_pid == ev->u.exit.pid && b->ts.v[t].st == TS_RUNNING &&
	    b->tasks.v[t].cls == WL_CLASS_FAIR)
		b->ts.v[t].exiting = true;
	return 0;
}

/*
 * The rq clock a charge of the CPU's task read: update_curr() charges
 * now - exec_start and sets exec_start = now, and set_next_entity() starts
 * the next task's exec_start at the clock of the __schedule() that charged
 * prev (or, after a preempting wakeup, of that wakeup: the skipped clock).
 * So between fair tasks of one CPU a charge read about the previous charge's
 * clock plus its runtime, and the events trail their clock reads by a few
 * hundred ns alike: taken from the previous charge's event, that read comes
 * out within that jitter of its own event, or well before it where an
 * untraced stall (irqs off, a stalled vCPU) came between the read and the
 * event.  The event's time where the previous charge is unknown (an idle or
 * RT/DL switch, a remote charge) or the read would fall after it.
 */
static uint64_t clk_read(struct cpu_track *c, const struct trace_event *ev, uint64_t runtime)
{
	uint64_t clk = c->clk ? c->clk + runtime : ev->ts;

	c->clk = ev->ts;
	return clk < ev->ts ? clk : ev->ts;
}

static int on_stat_runtime(struct wl_builder *b, const struct trace_event *ev)
{
	const struct trace_sched_stat_runtime *r = &ev->u.stat_runtime;
	uint32_t t = lookup(b, r->pid);
	struct cpu_track *dc = cpu_get(b, ev->cpu);
	bool stranger, deboost = dc && dc->deboost_pid > 0 && dc->deboost_pid == r->pid &&
				 ev->common_pid == r->pid;
	int fail = 0;

	if (dc)
		dc->deboost_pid = 0;
	b->wl->counts.sched_stat_runtime++;
	if (t != WL_NONE && b->ts.v[t].st == TS_RUNNING) {
		struct cpu_track *rc = cpu_get(b, b->ts.v[t].cpu);

		if (rc && rc->curr == (int32_t)t)
			rc->curr_stats++;
		if (rc && (ev->common_pid != r->pid || b->ts.v[t].cpu != ev->cpu))
			rc->clk = 0;        /* a remote charge: its clock is another CPU's */
	}
	if (ev->common_pid == r->pid && r->pid > 0) {
		struct cpu_track *c = cpu_get(b, ev->cpu);

		if (c) {
			c->stat2_pid = c->stat_pid;
			c->stat2_ts = c->stat_ts;
			c->tk2_pid = c->tk_pid;
			c->tk2_wakeups = c->tk_wakeups;
			c->tk_pid = r->pid;
			c->tk_wakeups = c->wakeups;
			c->stat_pid = r->pid;
			c->stat_ts = ev->ts;
			c->stat_clk = clk_read(c, ev, r->runtime);
			if (c->wclk_pid == r->pid && ev->ts >= c->wclk_ts &&
			    ev->ts - c->wclk_ts < (uint64_t)WL_LEAD_BUCKET_NS * WL_LEAD_BUCKETS)
				b->wclk_hist[(ev->ts - c->wclk_ts) / WL_LEAD_BUCKET_NS]++;
			c->wclk_pid = 0;
		}
		t = context_task(b, ev, &stranger, &fail);
		if (fail)
			return -1;
	}
	if (t == WL_NONE || b->tasks.v[t].cls != WL_CLASS_FAIR)
		return 0;
	if (deboost) {
		/* the RT class's dequeue charge at the deboost (cpu_track.deboost_pid) */
		note(b, WL_NOTE_DEBOOST_CHARGE);
		return 0;
	}
	b->wl->counts.sched_stat_runtime_fair++;
	if (b->ts.v[t].exiting && b->ts.v[t].st == TS_RUNNING && ev->common_pid == r->pid) {
		/*
		 * do_exit() -> sched_autogroup_exit_task() -> sched_move_task():
		 * the exiting task's dequeue charges it (forkexec: one such
		 * event per exit, 17 % of the trace's sched_stat_runtime).
		 */
		b->ts.v[t].exiting = false;
		if (flush_run(b, t, ev->ts) || push_op(b, t, WL_OP_EXIT_MOVE, 0, 0, 0))
			return -1;
		b->ts.v[t].move_op = b->ts.v[t].ops.n;
		b->ts.v[t].move_ts = ev->ts;
	}
	return wl_hz_probe_add(b->hz, ev->cpu, ev->ts, r->runtime,
			       ev->common_pid == r->pid ? r->pid : -1);
}

/* ---- builder ------------------------------------------------------------ */

struct wl_builder *wl_builder_new(const struct trace_info *info, const struct sidecar *sc,
				  const struct wl_options *opt, struct sr_error *err)
{
	struct wl_builder *b = calloc(1, sizeof(*b));
	struct lat_config lc;

	if (!b || !(b->wl = calloc(1, sizeof(*b->wl))) || !(b->hz = wl_hz_probe_new()))
		goto oom;
	if (opt)
		b->opt = *opt;
	b->wl->facts.all_preempt_costs = b->opt.all_preempt_costs;
	if (b->opt.channels != WL_CHANNELS_OFF && !(b->chan = wl_chanb_new()))
		goto oom;
	b->sc = sc;
	b->sc_last_online = -1;
	/* as facts_finish(): a sidecar without a topology says nothing of the CPUs */
	if (sc && sc->nr_cpus > 0) {
		if ((b->sc_last_online = sidecar_last_online_cpu(sc, err)) < 0)
			goto fail;
		b->sc_offline = sidecar_nr_offline(sc);
	}
	b->cg_root = -1;
	if (b->opt.cgroup_map && wl_cgmap_load(b->opt.cgroup_map, &b->cgmap, err))
		goto fail;
	if (info) {
		struct trace_info *i = &b->wl->info;
		const char *src[6] = { info->path, info->compression, info->uname,
				       info->tracer_version, info->clock, info->buffer };

		*i = *info;
		for (int k = 0; k < 6; k++)
			if (src[k] && !(b->wl->info_strs[k] = strdup(src[k])))
				goto oom;
		i->path = b->wl->info_strs[0];
		i->compression = b->wl->info_strs[1];
		i->uname = b->wl->info_strs[2];
		i->tracer_version = b->wl->info_strs[3];
		i->clock = b->wl->info_strs[4];
		i->buffer = b->wl->info_strs[5];
		i->buffer_reason = NULL;
		if (info->buffer_also && !(b->wl->info_strs[8] = strdup(info->buffer_also)))
			goto oom;
		i->buffer_also = b->wl->info_strs[8];
		/* the reader's; wl_extract() keeps a copy of the final counts */
		i->repair_cpus = NULL;
		i->repair_nr_cpus = 0;
	}
	b->cpu_limit = trace_cpu_limit(&b->wl->info);
	/* group 0 is the root task group */
	WL_VEC_PUSH(b->groups, oom);
	if (intern_string(b, "/", 1) == WL_NONE)
		goto oom;
	b->groups.v[0] = (struct wl_group){ .path = b->strings.v[0], .parent = WL_NONE,
					    .shares = 1024, .quota_us = -1, .period_us = -1 };
	b->groups.n = 1;
	b->wl->facts.preempt_state = 0x100;

	lat_config_default(&lc);
	lc.group_by[LAT_BY_CGROUP] = true;
	lc.comm_prefix = b->opt.comm_prefix;
	lc.comm_tallies = true;         /* replay_nonfair_comms(), replay_nonfair_samples() */
	lc.path_latency = true;         /* replay's wakeup paths: latency per path */
	lc.infer_lost_switches = true;
	lc.lost_switch = lost_switch;
	lc.lost_switch_ctx = b;
	lc.pid_change = pid_change;
	lc.pid_change_ctx = b;
	lc.old_task = old_task;
	lc.old_task_ctx = b;
	lc.sink = b->opt.sample_sink;
	lc.sink_ctx = b->opt.sample_ctx;
	if (!(b->wl->measured = lat_machine_new(&lc, err)))
		goto fail;
	/* the threads' groups at the start: pid_change() only within one */
	for (size_t k = 0; sc && k < sc->nr_tasks; k++)
		if (lat_tgid_seed(b->wl->measured, sc->tasks[k].pid, sc->tasks[k].tgid))
			goto oom;
	if (wl_sdq_init(b))
		goto oom;
	return b;
oom:
	sr_error_set(err, ENOMEM, "out of memory");
fail:
	wl_builder_free(b);
	return NULL;
}

/*
 * @ev's pids, prios and CPUs are ones the kernel and the replay can have
 * (trace_event_bad_value(), trace_event_cpu_from() below a trace.dat's CPU
 * count or TRACE_MAX_CPUS: shared with report), and its CPU is not one the
 * sidecar lists offline: 0, else -1
 * with the one line in @err. A pid of PID_MAX_LIMIT or more would also be
 * taken for the replay's stand-in migration/N (4194304 + N: sim_class.c,
 * SIM_SYNTH_STOPPER_PID), and the pid-indexed map would grow to 16 GiB for
 * a pid near 2^31; a negative one read as a task of its own (every
 * next_pid of a trace set to -2^31 gave exit 0 with no wakeup sample
 * before 3 Dec 2026).
 */
static int event_check(const struct wl_builder *b, const struct trace_event *ev,
		       struct sr_error *err)
{
	int32_t bad_cpu = trace_event_cpu_from(ev, b->cpu_limit);
	struct trace_bad_value bad;

	if (trace_event_bad_value(ev, &bad)) {
		char where[64];

		trace_bad_value_error(ev, &bad, trace_event_where(ev, where, sizeof(where)), err);
		return -1;
	}
	if (bad_cpu >= 0 && b->cpu_limit < TRACE_MAX_CPUS &&
	    trace_event_cpu_past(ev, b->cpu_limit, &bad)) {
		char where[64];

		/* a trace.dat's count: the same line as report's */
		trace_cpu_past_error(ev, &bad, &b->wl->info,
				     trace_event_where(ev, where, sizeof(where)), err);
		return -1;
	}
	if (bad_cpu >= 0) {
		char where[64];

		sr_error_set(err, EINVAL, "%s: %s names CPU %d: the replay models at most %d "
			     "CPUs (corrupted data, or a larger machine)",
			     trace_event_where(ev, where, sizeof(where)),
			     ev->name ? ev->name : "an event", bad_cpu, TRACE_MAX_CPUS);
		return -1;
	}
	if (b->sc_offline) {
		char where[64];

		/* the one line report prints too (sidecar_event_offline_cpu()) */
		if (sidecar_event_offline_cpu(b->sc, ev, trace_event_where(ev, where, sizeof(where)),
					      err) >= 0)
			return -1;
	}
	return 0;
}

/*
 * The trace lost @lost_before records of @ev's CPU before @ev (or an
 * unknown number: TRACE_LOST_UNKNOWN): the window is noted, and what the
 * CPU ran and its idle interval are unknown from there until the next
 * events say.  0, or -1 on ENOMEM.
 */
static int lost_before_event(struct wl_builder *b, const struct trace_event *ev,
			     uint64_t lost_before)
{
	struct wl_counts *n = &b->wl->counts;
	struct cpu_track *c = cpu_get(b, ev->cpu);

	n->lost_events += lost_before == TRACE_LOST_UNKNOWN ? 1 : lost_before;
	note(b, WL_NOTE_LOST);
	if (c) {
		/* no record of this CPU since its last one (or the trace start) */
		WL_VEC_PUSH(b->lost, oom);
		b->lost.v[b->lost.n++] = (struct wl_lost_window){
			.from = !c->rec_seen ? b->first_ts :
				c->rec_ts < ev->ts ? c->rec_ts + 1 : ev->ts,
			.to = ev->ts, .events = lost_before, .cpu = ev->cpu,
			.at_start = !c->rec_seen };
	}
	if (c && idle_end(b, c, ev->cpu, ev->ts))      /* what the gap held is unknown */
		goto oom;
	lat_machine_lost(b->wl->measured, ev->cpu, lost_before);
	if (b->chan)
		wl_chanb_lost(b->chan);
	if (c && c->curr >= 0) {
		/* what ran in the gap is unknown: the next event says */
		struct tstate *o = &b->ts.v[c->curr];

		if (o->st == TS_RUNNING && o->cpu == ev->cpu) {
			if (flush_run(b, (uint32_t)c->curr, ev->ts))
				goto oom;
			o->st = TS_QUEUED;
		}
		c->curr = CUR_UNKNOWN;
	} else if (c) {
		c->curr = CUR_UNKNOWN;
	}
	return 0;
oom:
	return -1;
}

/*
 * Events whose CPU's charges of its running task at the same time are not
 * the tick's: put_prev/dequeue before a switch, enqueue_entity() and
 * check_preempt_wakeup_fair() at a wakeup, task_fork_fair() (the HZ tick
 * grid, workload_facts.c).
 */
static bool hz_near_event(enum trace_event_type t)
{
	return t == TRACE_EV_SCHED_SWITCH || t == TRACE_EV_SCHED_WAKING || t == TRACE_EV_SCHED_WAKEUP ||
	       t == TRACE_EV_SCHED_WAKEUP_NEW || t == TRACE_EV_SCHED_MIGRATE_TASK ||
	       t == TRACE_EV_SCHED_PROCESS_FORK;
}

/*
 * The task's traced switches out, runtime and migrations (struct wl_task),
 * counted by pid as the kernel counts nr_switches, sum_exec_runtime and
 * nr_migrations, after the handler gave the pid its task.
 */
static void count_traced(struct wl_builder *b, const struct trace_event *ev)
{
	uint32_t t;

	switch (ev->type) {
	case TRACE_EV_SCHED_SWITCH:
		if (!ev->synthetic && (t = lookup(b, ev->u.sched_switch.prev_pid)) != WL_NONE) {
			b->tasks.v[t].traced_switch_out++;
			if (ev->u.sched_switch.prev_run == TRACE_STATE_SLEEPING) {
				b->tasks.v[t].last_block_ts = ev->ts;
				b->tasks.v[t].last_block_cpu = (int16_t)ev->cpu;
			}
		}
		break;
	case TRACE_EV_SCHED_MIGRATE_TASK:
		if ((t = lookup(b, ev->u.migrate.pid)) != WL_NONE)
			b->tasks.v[t].traced_migrations++;
		break;
	case TRACE_EV_SCHED_STAT_RUNTIME:
		if ((t = lookup(b, ev->u.stat_runtime.pid)) != WL_NONE)
			b->tasks.v[t].traced_stat_runtime_ns += ev->u.stat_runtime.runtime;
		break;
	default:
		break;
	}
}

/*
 * @ev's own handler (on_switch(), on_waking(), ...) and its count: 0, or
 * -1 on ENOMEM.
 */
static int on_event(struct wl_builder *b, const struct trace_event *ev)
{
	struct wl_counts *n = &b->wl->counts;
	int r = 0;

	if (hz_near_event(ev->type) && wl_hz_probe_near(b->hz, ev->cpu, ev->ts))
		return -1;
	/* a deboost's charge is the next event on its CPU (on_stat_runtime()) */
	if (ev->type != TRACE_EV_SCHED_STAT_RUNTIME) {
		struct cpu_track *dc = cpu_get(b, ev->cpu);

		if (dc)
			dc->deboost_pid = 0;
	}
	switch (ev->type) {
	case TRACE_EV_SCHED_SWITCH:
		n->sched_switch++;
		n->sched_switch_restored += ev->synthetic;
		r = on_switch(b, ev);
		break;
	case TRACE_EV_SCHED_WAKING:
		n->sched_waking++;
		b->wl->facts.has_sched_waking = true;
		r = on_waking(b, ev);
		break;
	case TRACE_EV_SCHED_WAKEUP:
		if (!ev->u.wakeup.success) {
			/*
			 * Before 3.0 try_to_wake_up() traced a wakeup that found
			 * the task awake too, with success=0 (report's latency
			 * skips it): nothing was woken, and the model emits none
			 */
			b->wl->notes[WL_NOTE_WAKEUP_NO_SUCCESS]++;
			break;
		}
		n->sched_wakeup++;
		r = on_wakeup(b, ev);
		break;
	case TRACE_EV_SCHED_WAKEUP_NEW:
		n->sched_wakeup_new++;
		r = on_wakeup_new(b, ev);
		break;
	case TRACE_EV_SCHED_MIGRATE_TASK:
		n->sched_migrate_task++;
		r = on_migrate(b, ev);
		break;
	case TRACE_EV_SCHED_PROCESS_FORK:
		n->sched_process_fork++;
		r = on_fork(b, ev);
		break;
	case TRACE_EV_SCHED_PROCESS_EXEC:
		r = on_exec(b, ev);
		break;
	case TRACE_EV_SCHED_PROCESS_EXIT:
		n->sched_process_exit++;
		r = on_exit_event(b, ev);
		break;
	case TRACE_EV_SCHED_STAT_RUNTIME:
		b->wl->facts.has_stat_runtime = true;
		r = on_stat_runtime(b, ev);
		break;
	case TRACE_EV_CGROUP_ATTACH_TASK:
		b->wl->facts.has_cgroup_attach = true;
		r = on_cgroup_attach(b, ev);
		break;
	case TRACE_EV_SCHED_PI_SETPRIO:
		r = on_pi_setprio(b, ev);
		break;
	case TRACE_EV_SYS_ENTER_SCHED_SETAFFINITY:
	case TRACE_EV_SYS_EXIT_SCHED_SETAFFINITY:
		r = on_setaffinity(b, ev, ev->type == TRACE_EV_SYS_ENTER_SCHED_SETAFFINITY);
		break;
	case TRACE_EV_SYS_ENTER_READ:
	case TRACE_EV_SYS_EXIT_READ:
	case TRACE_EV_SYS_ENTER_WRITE:
	case TRACE_EV_SYS_EXIT_WRITE:
		r = on_syscall(b, ev, ev->type == TRACE_EV_SYS_ENTER_READ ||
				      ev->type == TRACE_EV_SYS_EXIT_READ ? WL_SYS_READ : WL_SYS_WRITE,
			       ev->type == TRACE_EV_SYS_ENTER_READ || ev->type == TRACE_EV_SYS_ENTER_WRITE);
		break;
	default:
		break;
	}
	if (!r)
		count_traced(b, ev);
	return r ? -1 : 0;
}

/*
 * --cpu-stalls traced (wl_options.cpu_stalls): the shortest event-free gap
 * of a busy CPU that is a stall, WL_STALL_TICKS tick periods (its tick
 * would have charged the task in each; at 100 Hz, the slowest tick, when
 * neither --hz nor the sidecar gives it).
 */
static uint64_t stall_min_ns(const struct wl_builder *b)
{
	unsigned int hz = b->opt.hz ? b->opt.hz :
		b->sc && b->sc->hz > 0 ? (unsigned int)b->sc->hz : 100u;

	return WL_STALL_TICKS * (UINT64_C(1000000000) / hz);
}

/*
 * A sched_stat_runtime @ev written on another CPU than the one its task
 * runs on (a remote update_curr(): a wakeup onto that CPU, a balance): its
 * runtime counts toward that CPU's charges since its last record.
 */
static void stall_remote_charge(struct wl_builder *b, const struct trace_event *ev)
{
	uint32_t t = lookup(b, ev->u.stat_runtime.pid);
	struct cpu_track *rc;

	if (t == WL_NONE || b->ts.v[t].st != TS_RUNNING || b->ts.v[t].cpu == ev->cpu ||
	    !(rc = cpu_get(b, b->ts.v[t].cpu)) || rc->curr != (int32_t)t)
		return;
	rc->rec_charged += ev->u.stat_runtime.runtime;
}

/*
 * Event @ev on CPU @c, the first there since c->rec_ts: a CPU stall (struct
 * wl_stall) if it is the sched_stat_runtime of the fair task current there
 * since before the gap, in its own context, the gap is longer than
 * stall_min_ns() (not on a nohz_full kernel, where a busy CPU may stop its
 * tick), and the kernel charged the task the gap: this charge and the remote
 * ones since the gap's start (c->rec_charged) cover it less one tick period
 * (the task's exec_start may be up to a tick before the gap; a stall whose
 * time the kernel left out of clock_task as steal is no such stall: its
 * charge is short by it, bw-hogs-run3's 20 ms gaps charged 1.4 ms).  With
 * wl_options.cpu_steal (--cpu-stalls steal) such a gap is a steal stall:
 * the vCPU ran the task for the charge after the gap's last event (its tick
 * did not come: the charge is under a tick period there), the rest, the
 * steal, it did not, and update_rq_clock_task() left it out of clock_task;
 * the stall is the steal, at the gap's end.  A gap in which the reader
 * restored a switch (c->rec_switched: the CPU went idle and the kernel did
 * not trace its switch out of idle) is idle time, no stall: bw-hogs-run2
 * and -run3's 19-32 ms gaps charged 0.05-1.4 ms are all such (a switch to
 * idle before, the task's first charge after).  The stall (the gap, or its
 * steal) is taken out of that task's work: its RUNs since its switch-in,
 * the latest first, keep the rest (the vCPU did not run it, and the
 * kernel's charge of the gap is the model's to make: the simulation's stall,
 * sim_timed.c).  -1 on ENOMEM.
 */
static int stall_seen(struct wl_builder *b, struct cpu_track *c, const struct trace_event *ev)
{
	int32_t pid = ev->u.stat_runtime.pid;
	uint64_t gap = ev->ts - c->rec_ts, left, charged, steal = 0;
	struct tstate *s;
	uint32_t t;

	if (ev->type != TRACE_EV_SCHED_STAT_RUNTIME || ev->ts <= c->rec_ts || pid <= 0 ||
	    ev->common_pid != pid || c->curr < 0 || gap <= stall_min_ns(b) ||
	    (b->sc && b->sc->no_hz && !strcmp(b->sc->no_hz, "full")))
		return 0;
	t = (uint32_t)c->curr;
	s = &b->ts.v[t];
	if (b->tasks.v[t].pid != pid || b->tasks.v[t].cls != WL_CLASS_FAIR ||
	    s->st != TS_RUNNING || s->cpu != ev->cpu || c->rec_switched)
		return 0;
	charged = c->rec_charged + ev->u.stat_runtime.runtime;
	if (charged + stall_min_ns(b) / WL_STALL_TICKS < gap) {
		if (!b->opt.cpu_steal)
			return 0;
		steal = gap - charged;     /* > one tick period */
	}
	if (flush_run(b, t, ev->ts))
		return -1;
	left = steal ? steal : gap;
	for (uint32_t k = s->ops.n; k-- > 0 && left;) {
		struct wl_op *o = &s->ops.v[k];
		uint64_t d;

		if (o->kind != WL_OP_RUN)
			continue;
		d = o->value > 1 ? o->value - 1 : 0;   /* a RUN keeps 1 ns */
		if (d > left)
			d = left;
		o->value -= d;
		left -= d;
	}
	WL_VEC_PUSH(b->stalls, fail);
	b->stalls.v[b->stalls.n++] = (struct wl_stall){
		.start = steal ? ev->ts - steal : c->rec_ts, .end = ev->ts, .steal = steal,
		.task = t, .cpu = ev->cpu };
	note(b, steal ? WL_NOTE_CPU_STEAL : WL_NOTE_CPU_STALL);
	return 0;
fail:
	return -1;
}

int wl_builder_event(struct wl_builder *b, const struct trace_event *ev, uint64_t lost_before,
		     struct sr_error *err)
{
	struct wl_counts *n = &b->wl->counts;

	if (event_check(b, ev, err))
		return -1;
	if (!b->started) {
		b->started = true;
		b->first_ts = ev->ts;
	}
	if (ev->ts > b->last_ts)
		b->last_ts = ev->ts;
	if (wl_sdq_before(b, ev->ts))
		goto oom;
	if (!ev->synthetic)
		n->events++;
	if (lost_before && lost_before_event(b, ev, lost_before))
		goto oom;
	if (!ev->synthetic) {
		struct cpu_track *c = cpu_get(b, ev->cpu);

		if (c) {
			if (b->opt.cpu_stalls && c->rec_seen && !lost_before && stall_seen(b, c, ev))
				goto oom;
			c->rec_seen = true;
			c->rec_ts = ev->ts;
			c->rec_charged = 0;
			c->rec_switched = false;
		}
		if (b->opt.cpu_stalls && ev->type == TRACE_EV_SCHED_STAT_RUNTIME)
			stall_remote_charge(b, ev);
	} else if (ev->type == TRACE_EV_SCHED_SWITCH) {
		struct cpu_track *c = cpu_get(b, ev->cpu);

		if (c)
			c->rec_switched = true;   /* a restored switch (out of idle) in the gap */
	}
	if (wl_ticks_event(b, ev, lost_before) || wl_steal_event(b, ev, lost_before))
		goto oom;
	/*
	 * The measured side first: its latency machine infers the switches
	 * the kernel did not trace (lost_switch()), which the builder must
	 * know of before the event that revealed them.  A cgroup move waits
	 * for on_cgroup_attach() to decide the hierarchy, a fork for
	 * task_new() to seed the cgroup of a parent seen first there (the
	 * child inherits it); neither reveals a switch (a task's, not idle's).
	 */
	if (ev->type != TRACE_EV_CGROUP_ATTACH_TASK && ev->type != TRACE_EV_SCHED_PROCESS_FORK &&
	    lat_machine_feed(b->wl->measured, ev))
		goto oom;
	if (ev->type != TRACE_EV_SCHED_SWITCH && ev->type != TRACE_EV_SCHED_STAT_RUNTIME) {
		struct cpu_track *c = cpu_get(b, ev->cpu);

		if (c)
			c->stat_pid = c->stat2_pid = 0;
	}
	if (ev->type != TRACE_EV_SCHED_STAT_RUNTIME && ev->type != TRACE_EV_SCHED_MIGRATE_TASK &&
	    ev->type != TRACE_EV_SCHED_WAKING) {
		struct cpu_track *c = cpu_get(b, ev->cpu);

		if (c)
			c->wclk_pid = 0;    /* the waking's update_curr() comes before these */
	}
	{
		struct cpu_track *c = cpu_get(b, ev->cpu);

		if (c && c->wp_on && wake_path_seen(b, c, ev, lost_before))
			goto oom;
	}
	if ((ev->type != TRACE_EV_SCHED_STAT_RUNTIME && ev->type != TRACE_EV_SCHED_MIGRATE_TASK) ||
	    lost_before) {
		struct cpu_track *c = cpu_get(b, ev->cpu);

		if (c)
			c->pass_last = WL_NONE;     /* a balance pass ends (pass_track()) */
	}
	if (ev->type != TRACE_EV_SCHED_SWITCH && ev->common_pid >= 0) {
		/* Any event tells who is current on its CPU (also in interrupts). */
		bool stranger;
		int fail = 0;

		context_task(b, ev, &stranger, &fail);
		if (fail)
			goto oom;
	}
	if (!in_wake_flush(ev) && !flush_run_open(b, ev)) {
		struct cpu_track *c = cpu_get(b, ev->cpu);

		if (c)
			c->flush_n = 0;
	}
	in_call_track(b, ev);
	{
		struct cpu_track *c = cpu_get(b, ev->cpu);
		bool ni = false;

		if (c && lost_before) {
			c->ni_timed = WL_NONE;      /* the CPU's events in between are lost */
			c->ni_n = 0;
		} else if (c && (c->ni_timed != WL_NONE || c->ni_n)) {
			newidle_track(b, c, ev, &ni);
		}
		if (on_event(b, ev))
			goto oom;
		if (ni && newidle_record(b, c))
			goto oom;
	}
	/* The measured side sees the cpu hierarchy's cgroup moves only. */
	if (((ev->type == TRACE_EV_CGROUP_ATTACH_TASK && ev->u.cgroup_attach.dst_root == b->cg_root) ||
	     ev->type == TRACE_EV_SCHED_PROCESS_FORK) && lat_machine_feed(b->wl->measured, ev))
		goto oom;
	if (wl_sdq_after(b, ev->ts))
		goto oom;
	return 0;
oom:
	sr_error_set(err, ENOMEM, "out of memory at trace time %llu ns",
		     (unsigned long long)ev->ts);
	return -1;
}

void wl_builder_free(struct wl_builder *b)
{
	if (!b)
		return;
	for (uint32_t i = 0; i < b->ts.n; i++)
		free(b->ts.v[i].ops.v);
	free(b->ts.v);
	free(b->tasks.v);
	free(b->wakes.v);
	free(b->timed.v);
	free(b->newidle.v);
	free(b->stalls.v);
	free(b->idle.v);
	free(b->aff.v);
	free(b->lost.v);
	free(b->kpath.v);
	free(b->missing.v);
	free(b->tick_cpus);
	free(b->tick_found.v);
	free(b->tick_delays.v);
	wl_steal_free(b);
	wl_sdq_free(b);
	free(b->groups.v);
	for (uint32_t g = 0; g < b->bw_unthrottle_n; g++)
		free(b->bw_unthrottle[g].v);
	free(b->bw_unthrottle);
	for (uint32_t i = 0; i < b->strings.n; i++)
		free(b->strings.v[i]);
	free(b->strings.v);
	free(b->pid_map);
	free(b->cpus);
	wl_hz_probe_free(b->hz);
	wl_chanb_free(b->chan);
	wl_cgmap_release(&b->cgmap);
	wl_free(b->wl);
	free(b);
}

int wl_builder_stream_end(struct wl_builder *b)
{
	for (uint32_t t = 0; t < b->ts.n; t++) {
		if (b->ts.v[t].pi_prio >= 0 && b->ts.v[t].st != TS_DEAD)
			note(b, WL_NOTE_PI_OPEN);
		if (b->ts.v[t].st != TS_RUNNING)
			continue;
		b->tasks.v[t].running_at_end = true;
		if (flush_run(b, t, b->last_ts))
			return -1;
	}
	for (int c = 0; c < b->nr_cpus; c++)
		if (idle_end(b, &b->cpus[c], c, b->last_ts))
			return -1;
	if (wl_ticks_stream_end(b))
		return -1;
	return lat_machine_finish(b->wl->measured, b->last_ts) ? -1 : 0;
}

/* ---- channels (workload_chan.c) ------------------------------------------ */

/* A placeholder op of record @rec of running task @t, here (its exit). */
static int chan_place(struct wl_builder *b, uint32_t t, uint32_t rec)
{
	uint8_t kind = wl_chanb_kind(b->chan, rec) == WL_SYS_READ ? WL_OP_READ : WL_OP_WRITE;

	wl_chanb_set_op(b->chan, rec, b->ts.v[t].ops.n);
	return push_op(b, t, kind, 0, rec, 0);
}

/* Fair task @t just slept (its BLOCK at @block_op): inside a read or write? */
static int chan_block(struct wl_builder *b, uint32_t t, uint32_t block_op, uint64_t ts)
{
	uint32_t rec = wl_chanb_block(b->chan, t, block_op, ts);

	return rec == WL_NONE ? 0 : chan_place(b, t, rec);
}

/*
 * syscalls:sys_{enter,exit}_{read,write} of the CPU's current task (the
 * builder has made common_pid current): records for workload_chan.c.
 */
/*
 * syscalls:sys_{enter,exit}_sched_setaffinity of the task in @ev's context:
 * the entry names the target (its pid argument, 0 the caller), the exit says
 * whether it took (ret 0; else nothing changed, kernel/sched/syscalls.c
 * sched_setaffinity()).  One that took is a call (b->aff, the target's
 * aff_last) and, for a fair caller running here, a WL_OP_AFFINITY at this
 * point of its work; the new mask is inferred once the whole trace is seen
 * (aff_finish()).
 */
static int on_setaffinity(struct wl_builder *b, const struct trace_event *ev, bool enter)
{
	uint32_t t = ev->common_pid > 0 ? lookup(b, ev->common_pid) : WL_NONE, target;
	struct tstate *s;

	b->aff_seen = true;
	if (t == WL_NONE)
		return 0;
	s = &b->ts.v[t];
	if (enter) {
		int64_t pid = ev->u.syscall.fd;

		s->aff_pid = pid == 0 ? ev->common_pid : pid > 0 && pid <= 4194304 ? (int32_t)pid : 0;
		return 0;
	}
	target = s->aff_pid > 0 && ev->u.syscall.ret == 0 ? lookup(b, s->aff_pid) : WL_NONE;
	s->aff_pid = 0;
	if (target == WL_NONE)
		return 0;
	WL_VEC_PUSH(b->aff, fail);
	b->aff.v[b->aff.n++] = (struct wl_aff_call){ .ts = ev->ts, .caller = t, .target = target,
						     .cpu = -1, .src = WL_AFF_NONE };
	b->ts.v[target].aff_last = b->aff.n - 1;
	if (b->tasks.v[t].cls != WL_CLASS_FAIR || s->st != TS_RUNNING || s->cpu != ev->cpu)
		return 0;
	return flush_run(b, t, ev->ts) || push_op(b, t, WL_OP_AFFINITY, 0, b->aff.n - 1, 0);
fail:
	return -1;
}

static int on_syscall(struct wl_builder *b, const struct trace_event *ev, enum wl_sys_kind kind,
		      bool enter)
{
	uint32_t t = ev->common_pid > 0 ? lookup(b, ev->common_pid) : WL_NONE, rec;
	bool need_op;

	b->sys_seen |= (uint8_t)(1u << (!enter + 2 * kind));
	if ((!b->chan && !b->opt.syscall_marks) || t == WL_NONE ||
	    b->tasks.v[t].cls != WL_CLASS_FAIR || b->ts.v[t].st != TS_RUNNING ||
	    b->ts.v[t].cpu != ev->cpu ||
	    (ev->common_flags & TRACE_FLAGS_IRQ))
		return 0;
	if (enter) {
		/* the mark first: the system call's work follows it */
		if (b->opt.syscall_marks &&
		    (flush_run(b, t, ev->ts) ||
		     push_op(b, t, WL_OP_SYSCALL, WL_SYSCALL_ENTER, kind == WL_SYS_WRITE, 0)))
			return -1;
		return b->chan ? wl_chanb_enter(b->chan, t, kind, ev->u.syscall.fd,
						ev->u.syscall.count) : 0;
	}
	if (b->chan) {
		rec = wl_chanb_exit(b->chan, t, kind, ev->u.syscall.ret, ev->ts, &need_op);
		if (rec != WL_NONE && need_op && (flush_run(b, t, ev->ts) || chan_place(b, t, rec)))
			return -1;
	}
	/* after the channel op: the bytes moved, then the call returns */
	if (b->opt.syscall_marks &&
	    (flush_run(b, t, ev->ts) ||
	     push_op(b, t, WL_OP_SYSCALL, WL_SYSCALL_EXIT, kind == WL_SYS_WRITE, 0)))
		return -1;
	return 0;
}

/* ---- read access -------------------------------------------------------- */

bool wl_cpu_idle_at(const struct wl_workload *wl, int cpu, uint64_t ts, uint32_t *cursor)
{
	uint32_t i, end;

	if (cpu < 0 || !wl->idle_first || (unsigned int)cpu >= wl->facts.nr_cpus)
		return false;
	i = wl->idle_first[cpu] + *cursor;
	end = wl->idle_first[cpu + 1];
	while (i < end && wl->idle[i].end <= ts)
		i++;
	*cursor = i - wl->idle_first[cpu];
	return i < end && wl->idle[i].start <= ts;
}

bool wl_cpu_idle_at_any(const struct wl_workload *wl, int cpu, uint64_t ts)
{
	return wl_cpu_idle_interval(wl, cpu, ts) != NULL;
}

const struct wl_idle *wl_cpu_idle_interval(const struct wl_workload *wl, int cpu, uint64_t ts)
{
	const struct wl_idle *iv = wl_cpu_idle_next(wl, cpu, ts);

	return iv && iv->start <= ts ? iv : NULL;
}

const struct wl_idle *wl_cpu_idle_next(const struct wl_workload *wl, int cpu, uint64_t ts)
{
	uint32_t lo, hi;

	if (cpu < 0 || !wl->idle_first || (unsigned int)cpu >= wl->facts.nr_cpus)
		return NULL;
	/* the first interval of @cpu that ends after @ts (intervals are ordered) */
	lo = wl->idle_first[cpu];
	hi = wl->idle_first[cpu + 1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (wl->idle[mid].end <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < wl->idle_first[cpu + 1] ? &wl->idle[lo] : NULL;
}

void wl_free(struct wl_workload *wl)
{
	if (!wl)
		return;
	for (size_t k = 0; k < sizeof(wl->info_strs) / sizeof(wl->info_strs[0]); k++)
		free(wl->info_strs[k]);
	for (size_t i = 0; i < wl->nr_funcs; i++)
		free(wl->funcs[i].name);
	free(wl->funcs);
	for (int k = 0; k < 2; k++) {
		sidecar_sched_masks_free(&wl->sched_snap[k]);
		free(wl->sched_snap[k].tasks);
		if (!k)
			free(wl->aff_calls);
		free(wl->sched_snap[k].reason);
	}
	sidecar_sched_debug_release(&wl->sched_debug);
	free(wl->unseen);
	free(wl->sdq);
	free(wl->sdq_agree);
	free(wl->sdq_cpu_agree);
	free(wl->sdq_taken);
	free(wl->cpu_node);
	free(wl->sidecar_path);
	free(wl->lost_sc);
	free(wl->tasks);
	free(wl->by_pid);
	free(wl->ops);
	free(wl->wakes);
	free(wl->kpath);
	free(wl->timed);
	free(wl->newidle);
	free(wl->stalls);
	free(wl->idle);
	free(wl->idle_first);
	free(wl->ticks);
	free(wl->tick_first);
	if (wl->clock_left)
		for (unsigned int k = 0; k < wl->facts.nr_cpus; k++)
			free(wl->clock_left[k].pts);
	free(wl->clock_left);
	free(wl->lost);
	free(wl->repair);
	free(wl->groups);
	free(wl->channels);
	free(wl->chan_ops);
	for (uint32_t i = 0; i < wl->nr_strings; i++)
		free(wl->strings[i]);
	free(wl->strings);
	lat_machine_free(wl->measured);
	calib_release(&wl->calib);
	free(wl);
}

const struct wl_facts *wl_facts(const struct wl_workload *wl) { return &wl->facts; }
const struct wl_counts *wl_counts(const struct wl_workload *wl) { return &wl->counts; }
const struct trace_info *wl_trace_info(const struct wl_workload *wl) { return &wl->info; }
uint64_t wl_first_ts(const struct wl_workload *wl) { return wl->first_ts; }
uint64_t wl_last_ts(const struct wl_workload *wl) { return wl->last_ts; }
uint32_t wl_nr_tasks(const struct wl_workload *wl) { return wl->nr_tasks; }
const struct wl_task *wl_task(const struct wl_workload *wl, uint32_t i) { return &wl->tasks[i]; }

const struct wl_task *wl_task_of_pid(const struct wl_workload *wl, int32_t pid, uint64_t ts)
{
	const struct wl_pid_ix *ix = wl->by_pid;
	uint32_t lo = 0, hi = wl->nr_tasks, best;

	while (lo < hi) {               /* the first entry of @pid */
		uint32_t mid = lo + (hi - lo) / 2;

		if (ix[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == wl->nr_tasks || ix[lo].pid != pid)
		return NULL;
	/* pid reuse: the latest task of @pid that had appeared by @ts */
	for (best = lo; lo < wl->nr_tasks && ix[lo].pid == pid && ix[lo].first_ts <= ts; lo++)
		best = lo;
	return &wl->tasks[ix[best].task];
}

const struct wl_op *wl_task_ops(const struct wl_workload *wl, uint32_t i)
{
	return wl->ops + wl->tasks[i].first_op;
}

uint32_t wl_nr_wakes(const struct wl_workload *wl) { return wl->nr_wakes; }

uint32_t wl_nr_lost_windows(const struct wl_workload *wl) { return wl->nr_lost; }
uint32_t wl_nr_lost_wakes(const struct wl_workload *wl) { return wl->nr_lost_wakes; }

const struct wl_lost_window *wl_lost_window(const struct wl_workload *wl, uint32_t i)
{
	return i < wl->nr_lost ? &wl->lost[i] : NULL;
}

bool wl_in_lost_window(const struct wl_workload *wl, int cpu, uint64_t ts)
{
	uint32_t lo = 0, hi = wl->nr_lost;

	/* the last window of @cpu starting at or before @ts */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct wl_lost_window *m = &wl->lost[mid];

		if (m->cpu < cpu || (m->cpu == cpu && m->from <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && wl->lost[lo - 1].cpu == cpu && ts < wl->lost[lo - 1].to;
}
const struct wl_wake *wl_wake(const struct wl_workload *wl, uint32_t i) { return &wl->wakes[i]; }

/* the waker's charge in the second half of the waking -> wakeup interval */
static bool kpath_delayed(const struct wl_wake_kpath *k)
{
	return k->lead_ns > k->gap_ns;
}

enum wl_kpath wl_wake_traced_path(const struct wl_workload *wl, uint32_t wake)
{
	uint32_t lo = 0, hi = wl->nr_kpath;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (wl->kpath[mid].wake < wake)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == wl->nr_kpath || wl->kpath[lo].wake != wake)
		return WL_KPATH_UNKNOWN;
	return kpath_delayed(&wl->kpath[lo]) ? WL_KPATH_DELAYED : WL_KPATH_ASLEEP;
}

void wl_wake_traced_paths(const struct wl_workload *wl, uint32_t *asleep, uint32_t *delayed)
{
	uint32_t d = 0;

	for (uint32_t i = 0; i < wl->nr_kpath; i++)
		d += kpath_delayed(&wl->kpath[i]);
	if (asleep)
		*asleep = wl->nr_kpath - d;
	if (delayed)
		*delayed = d;
}
uint32_t wl_nr_timed(const struct wl_workload *wl) { return wl->nr_timed; }
uint32_t wl_nr_newidle(const struct wl_workload *wl) { return wl->nr_newidle; }
const struct wl_newidle *wl_newidle_at(const struct wl_workload *wl, uint32_t i)
{
	return i < wl->nr_newidle ? &wl->newidle[i] : NULL;
}
uint32_t wl_nr_stalls(const struct wl_workload *wl) { return wl->nr_stalls; }
const struct wl_stall *wl_stall_at(const struct wl_workload *wl, uint32_t i)
{
	return i < wl->nr_stalls ? &wl->stalls[i] : NULL;
}

const struct wl_timed *wl_timed_at(const struct wl_workload *wl, uint32_t i)
{
	return &wl->timed[i];
}

uint32_t wl_nr_channels(const struct wl_workload *wl) { return wl->nr_channels; }

const struct wl_channel *wl_channel(const struct wl_workload *wl, uint32_t i)
{
	return &wl->channels[i];
}

const struct wl_chan_op *wl_chan_op(const struct wl_workload *wl, uint32_t i)
{
	return &wl->chan_ops[i];
}

int wl_channels_parse(const char *name, enum wl_channels *out)
{
	if (name && !strcmp(name, "auto"))
		*out = WL_CHANNELS_AUTO;
	else if (name && !strcmp(name, "off"))
		*out = WL_CHANNELS_OFF;
	else
		return -1;
	return 0;
}

int wl_preempt_costs_parse(const char *name, bool *all)
{
	if (name && !strcmp(name, "strict"))
		*all = false;
	else if (name && !strcmp(name, "all"))
		*all = true;
	else
		return -1;
	return 0;
}

uint32_t wl_nr_groups(const struct wl_workload *wl) { return wl->nr_groups; }
const struct wl_group *wl_group(const struct wl_workload *wl, uint32_t i) { return &wl->groups[i]; }

const char *wl_string(const struct wl_workload *wl, uint32_t i)
{
	return i < wl->nr_strings ? wl->strings[i] : "";
}

const struct lat_machine *wl_measured_latency(const struct wl_workload *wl)
{
	return wl->measured;
}

const struct wl_calib *wl_calibration(const struct wl_workload *wl) { return &wl->calib; }
const int *wl_cpu_nodes(const struct wl_workload *wl) { return wl->cpu_node; }
const char *wl_sidecar_path(const struct wl_workload *wl) { return wl->sidecar_path; }
const struct sidecar_sched *wl_sched_snapshot(const struct wl_workload *wl, bool at_end)
{
	return wl->sched_snap[at_end].listed ? &wl->sched_snap[at_end] : NULL;
}

const struct sidecar_sched_debug *wl_sched_debug(const struct wl_workload *wl)
{
	return wl->sched_debug.listed ? &wl->sched_debug : NULL;
}

const struct wl_unseen *wl_unseen_threads(const struct wl_workload *wl, uint32_t *n)
{
	*n = wl->nr_unseen;
	return wl->unseen;
}

const struct sidecar_lost_cmp *wl_lost_sidecar(const struct wl_workload *wl)
{
	return wl->lost_sc;
}

bool wl_sidecar_func_next(const struct wl_workload *wl, unsigned int *iter, const char **name,
			  int64_t *count)
{
	while (*iter < wl->nr_funcs) {
		const struct sidecar_func *f = &wl->funcs[(*iter)++];

		if (f->count < 0)
			continue;
		*name = f->name;
		*count = f->count;
		return true;
	}
	return false;
}

bool wl_sidecar_func_get(const struct wl_workload *wl, const char *name, int64_t *count)
{
	return sidecar_funcs_get(wl->funcs, wl->nr_funcs, name, count);
}

static const char *const note_text[WL_NOTE_NR] = {
	[WL_NOTE_LOST] = "gaps of lost events (ring-buffer overrun): task states repaired at each task's next event; intervals pending across a gap dropped",
	[WL_NOTE_NO_WAKING] = "trace has no sched_waking: wakeups timed at sched_wakeup, wakers taken from its context (remote wakeups look external)",
	[WL_NOTE_NO_WAKEUP] = "trace has neither sched_waking nor sched_wakeup: every wakeup assumed external, at the woken task's switch-in (the count of those is below); no waker, no measured wakeup latency, measured sched_wakeup count unknown",
	[WL_NOTE_WAKEUP_NO_SUCCESS] = "sched_wakeup events with success=0 (kernels before 3.0: the task was found awake): nothing woken, not in the measured sched_wakeup count",
	[WL_NOTE_NO_STAT_RUNTIME] = "trace has no sched_stat_runtime: HZ and tick phase not inferable, measured sched_stat_runtime count unknown",
	[WL_NOTE_WAKE_IDLE] = "wakeups raised on an idle CPU (timers, devices): replayed at their trace times",
	[WL_NOTE_WAKE_HARDIRQ] = "wakeups from hardirq/NMI context: replayed at their trace times",
	[WL_NOTE_WAKE_SOFTIRQ] = "wakeups from softirq context (timers, network RX on the sender's CPU): replayed at their trace times, not tied to the interrupted task's work",
	[WL_NOTE_WAKE_KSOFTIRQD] = "wakeups from softirqs that ksoftirqd ran (run_ksoftirqd()): replayed as wakes by that thread, at their point of its run",
	[WL_NOTE_WAKE_WAKELIST] = "wake-list wakeups without sched_waking given to the other CPU's current task, a known waker of the wakee (--wakelist-ops): replayed as wakes by that task, at their point of its run",
	[WL_NOTE_WAKE_NONFAIR] = "wakeups by RT/DL tasks: replayed at their trace times",
	[WL_NOTE_WAKE_OF_NONFAIR] = "wakeups of RT/DL tasks: replayed at their trace times, and so are those tasks' switch-ins: their latency samples are the trace's, not predicted (but for a stopper woken for a migration of the task it preempts: at that point of the task's work)",
	[WL_NOTE_WAKE_UNKNOWN] = "wakeups by a task the trace does not show running there (or by the wakee itself): replayed at their trace times",
	[WL_NOTE_HANDOFF] = "hand-offs: a waker preempted by its wakee resumed only after the wakee blocked; replayed as a wait for that block, the hand-off wait of the simulation's notes (docs/replay.md \"Hand-offs\")",
	[WL_NOTE_HANDOFF_ONEOFF] = "... of them one-off between their two tasks (a vfork child's exec, an exit): no wait",
	[WL_NOTE_HANDOFF_LATER] = "... of them in pairs whose wakee ends its waker's sleep only after a sleep of its own (--reply-in-run): no wait unless preempted",
	[WL_NOTE_HANDOFF_SIGNAL] = "wakers preempted by their wakee that ran again before it blocked, after it woke others: a wait for its last such wake (--handoff-signals)",
	[WL_NOTE_SELF_MIGRATE] = "migrations by the stopper that had just preempted the task (exec balancing, affinity): replayed at that point of the task's work",
	[WL_NOTE_MISSING_WAKEUP] = "switch-ins of tasks the trace showed blocked, with no wakeup recorded: an external wake at the switch-in time assumed",
	[WL_NOTE_FORK_ASSUMED] = "... of them the first switch-in of a task first seen there, in a trace that records wakeups but neither sched_wakeup_new nor sched_process_fork: taken as a fork's wake_up_new_task(); replayed as a fork at the switch-in (its parent the switch's prev, none from idle), its sched_process_fork and sched_wakeup_new written and not compared (the trace records none), no latency sample (the trace has none)",
	[WL_NOTE_SWITCH_MISMATCH] = "sched_switch events whose prev was not the CPU's current so far: the previous current assumed preempted in the gap",
	[WL_NOTE_LOST_IDLE_SWITCH] = "switches to idle the kernel did not trace (the CPU seen idle while a fair task was its current, no event of the task since its last): the task assumed blocked at its last event there",
	[WL_NOTE_LOST_SWITCH_ELSEWHERE] = "switches the kernel did not trace, revealed by the task on another CPU (woken, switched in or migrated there while its CPU's current): the task assumed blocked (preempted, if migrated without a wakeup) at its last event on its CPU",
	[WL_NOTE_LOST_SWITCH_OTHER] = "switches the kernel did not trace, revealed by another task's event on the task's CPU: the task assumed preempted if it was next switched in there (or migrated) with no wake in between, else blocked; at its last event there, or at the other task's exec_start from its first sched_stat_runtime there",
	[WL_NOTE_LOST_SWITCH_REMOTE] = "... of these, switches whose task's last event was a sched_stat_runtime of it written on another CPU (a remote update_curr())",
	[WL_NOTE_LOST_SWITCH_STAMPED] = "... of these, switches placed at the other task's exec_start: its run from there to its first event is its work",
	[WL_NOTE_PID_REUSE] = "pids reused without a recorded exit: the old task closed at the reuse",
	[WL_NOTE_PREEXIST] = "tasks alive before the trace, started in the state their first event implies",
	[WL_NOTE_WAKEUP_MIGRATED] = "... of them first seen in the migration of their wakeup (no sched_waking before it): asleep at the start, not runnable",
	[WL_NOTE_RUNNING_MIGRATE] = "sched_migrate_task of a running task (inconsistent trace): ignored",
	[WL_NOTE_PI_BOOST] = "switch-outs of fair tasks at RT priority (priority inheritance, or a sched_setscheduler() to SCHED_FIFO/RR): the switch-out's run replayed as fair, the task RT from there",
	[WL_NOTE_NICE] = "nice changes of fair tasks (set_user_nice(): a fair prio other than the task's so far in a sched_switch): applied at that switch-out after the run; at a switch-in, before the wakeup that ended its sleep (if it was runnable, when it runs)",
	[WL_NOTE_PI_REQUEUE] = "priority-inheritance boosts and their ends between fair prios (sched_pi_setprio, rt_mutex_setprio()): a requeue of the task at its own weight, at that point of the work of the task that made it",
	[WL_NOTE_PI_UNPLACED] = "... of them made outside a fair task running on that CPU (interrupt, RT/DL or unknown context): not replayed",
	[WL_NOTE_PI_FAIR] = "switches of fair tasks at a fair prio set by sched_pi_setprio (priority inheritance within 100..139): the boost, not a change of nice; replayed at the task's own weight",
	[WL_NOTE_PI_RT_BOOST] = "boosts of fair tasks to an RT/DL prio (sched_pi_setprio, an RT/DL waiter): the kernel runs the task as RT until its deboost (switched_from_fair(), switched_to_fair()); RT from the boost if queued or asleep there, else from its next switch-out",
	[WL_NOTE_PI_RT_FIRST] = "RT records (tasks first seen at an RT prio: boosted since before the trace; or split at an RT boost) whose sched_pi_setprio ended an RT boost at a fair prio: RT until there, then a fair task of the same pid (running: enqueued there by an assumed wake that gives no latency sample)",
	[WL_NOTE_CLASS_SPLIT] = "class changes between fair and RT: a prio of the other class in a task's switch or wake with no sched_pi_setprio to explain it (sched_setscheduler(): check_class_changed()), or a priority-inheritance boost to an RT prio; the task's record ends there and a record of the same pid in the new class goes on (class_split())",
	[WL_NOTE_CLASS_SPLIT_PI] = "... of them the RT class of a priority-inheritance boost (sched_pi_setprio to an RT prio, rt_mutex_setprio() -> __setscheduler_class())",
	[WL_NOTE_DEBOOST_CHARGE] = "sched_stat_runtime events of a running task right after its deboost from an RT prio to a fair one: the RT class's charge of its dequeue (rt_mutex_setprio() -> update_curr_rt()), counted with the RT/DL events, not the fair ones",
	[WL_NOTE_PI_RT_KEPT] = "RT records whose RT boost ended at a fair prio while they were running on another CPU: RT until their next switch or wake at a fair prio (class_split())",
	[WL_NOTE_PI_RT_QUEUED] = "RT records whose RT boost ended at a fair prio while they were queued (not running): a fair task of the same pid from there, enqueued on the record's CPU by the class change (switched_to_fair(); a class wake, no latency sample)",
	[WL_NOTE_PI_NICE] = "sched_pi_setprio of a fair task boosted within 100..139 whose oldprio is neither the boost nor an RT prio: a set_user_nice() made while boosted ended the boost (p->prio = the new normal prio); a nice change there",
	[WL_NOTE_PI_OPEN] = "fair tasks still boosted within 100..139 at the trace end by their last sched_pi_setprio: still waited for, or a set_user_nice() to the boost's own prio ended the boost with no event (the trace cannot tell); their later switches at that prio were read as the boost, at the nice so far",
	[WL_NOTE_EXT_FORK] = "forks not performed by a traced fair task in its own context: replayed at their trace times",
	[WL_NOTE_CGROUP_OTHER_ROOT] = "cgroup_attach_task events of hierarchies other than the cpu controller's: ignored",
	[WL_NOTE_WAKING_NO_WAKEUP] = "switch-ins of tasks whose sched_waking was traced but not their sched_wakeup: that waking ended the sleep, on the CPU they ran on",
	[WL_NOTE_EXIT_MOVE_RETRACTED] = "exiting tasks switched out after the sched_stat_runtime taken for their exit's autogroup move (do_exit() -> sched_autogroup_exit_task() -> sched_move_task(); that charge was a preemption's or a wakeup's): the move placed at an earlier charge of their last run instead",
	[WL_NOTE_BALANCE_PASS] = "load-balance passes that moved several queued tasks (consecutive sched_migrate_task between one pair of CPUs, written on one CPU): their tasks attached last-detached first after the pass with --balance-attach kernel-order (attach_tasks()), else each at its own migration",
	[WL_NOTE_CGMAP_UNMATCHED] = "--cgroup-map 'shares' or 'quota' lines naming a group no task of the trace was in (or under): no effect",
	[WL_NOTE_NEWIDLE_PULL] = "traced newidle pulls: a queued task's sched_migrate_task written on its destination in the context of a fair task that blocks and switches to it right after (sched_balance_newidle()); applied at the simulation's block with --newidle-pulls block|hold",
	[WL_NOTE_NEWIDLE_EXIT] = "traced newidle pulls at an exit (as above, the task switching to the pulled one exits)",
	[WL_NOTE_CGMAP_PID_UNMATCHED] = "--cgroup-map PID lines naming no task alive at the trace start (a task the trace forks starts in its parent's group): no effect",
	[WL_NOTE_RACE_WAKE] = "wakings that reached a task still on its CPU before it blocked (waker and sleeper racing): replayed as block + immediate wake",
	[WL_NOTE_CPU_STALL] = "CPU stalls: a busy CPU wrote no event for over 3 tick periods, its fair task's own tick charge ending the gap (a stalled vCPU); taken out of that task's work and replayed at their trace times with --cpu-stalls traced (the CPU runs nothing, takes no tick, its current task is charged the stall)",
	[WL_NOTE_CPU_STEAL] = "CPU steal stalls (--cpu-stalls steal): a busy CPU wrote no event for over 3 tick periods, its fair task's charges over the gap short of it by over a tick period (steal time clock_task left out); the steal taken out of that task's work and replayed at the gap's end (the CPU runs nothing, its clock_task and PELT clock stop)",
};

bool wl_note_at(const struct wl_workload *wl, unsigned int *iter, const char **text,
		uint64_t *count)
{
	return note_next(wl->notes, note_text, WL_NOTE_NR, iter, text, count);
}

const char *wl_wake_src_name(enum wl_wake_src s)
{
	static const char *const n[WL_SRC_NR] = { "task", "idle", "hardirq", "softirq",
						  "rt-dl", "unknown" };
	return s < WL_SRC_NR ? n[s] : "?";
}

const char *wl_path_name(enum wl_path p)
{
	static const char *const n[WL_PATH_NR] = { "idle", "preempt_local", "preempt_remote",
						   "queued", "none" };
	return p < WL_PATH_NR ? n[p] : "?";
}

const char *wl_fact_source_name(enum wl_fact_source s)
{
	switch (s) {
	case WL_FACT_TRACE: return "trace";
	case WL_FACT_SIDECAR: return "sidecar";
	case WL_FACT_OPTION: return "option";
	case WL_FACT_PLATFORM: return "platform";
	default: return "default";
	}
}
