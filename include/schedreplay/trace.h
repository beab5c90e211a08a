/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Streaming reader of trace-cmd trace.dat files (versions 6 and 7, compressed
 * with zstd or zlib or not at all), delivering fully decoded scheduler events
 * in timestamp order across CPUs.
 *
 * What it offers
 *   - trace_open(): validates the file container itself (header, sections,
 *     options, per-CPU data bounds) before anything is decoded, so truncated or
 *     corrupted input is rejected with a one-line error instead of crashing;
 *     picks the buffer (top level or a named instance) that holds the sched
 *     events and says why; parses only the event formats it decodes, their
 *     field lines and sched_switch's prev_state print format itself
 *     (replay/trace_format.c, trace_prev_state.c; a format of another shape
 *     through libtraceevent), and indexes the other ~2,000 formats of a
 *     typical file by id and name only, which keeps opening a file in the
 *     millisecond range.
 *   - trace_next(): one event per call, merged across CPUs by timestamp (ties
 *     go to the lower CPU, as in libtracecmd). Field offsets are resolved once
 *     per event type; values are read straight from the ring-buffer record
 *     with the file's endianness. __data_loc / __rel_loc strings and fixed
 *     char[16] comms are both handled.  trace_consume() delivers the same
 *     stream to per-type callbacks, called from the decoder's case of the
 *     type (one type dispatch per event).
 *   - Memory is O(CPUs): one page window (or one decompressed chunk) per CPU.
 *     Nothing is kept per event.
 *   - Besides the sched events, syscalls:sys_{enter,exit}_{read,write}
 *     (struct trace_syscall): the bytes a task moves through pipes and
 *     sockets, which no sched event shows.
 *   - ftrace text (tracefs `trace`, `trace-cmd report -N` or `-R`) is read
 *     too, into the same events (format "text"; see replay/trace_text.c).
 *   - Repair (trace_open_opts.repair, off by default): switches the kernel
 *     did not trace are restored into the stream as synthetic sched_switch
 *     events (trace_event.synthetic), so that every consumer sees a
 *     complete switch stream; see TRACE_REPAIR_IDLE_EXIT and
 *     replay/trace_repair.c. With it, events pass through a reorder window
 *     of bounded length (TRACE_REPAIR_HOLD_NS / _EVENTS).
 *   - Two backends deliver the records (trace_open_opts.backend): the native
 *     one above (the default), and libtracecmd (tracecmd_open, its buffer
 *     instance handle, tracecmd_read_data per CPU). Both feed the same
 *     field-offset decoder, so the event stream is the same struct
 *     trace_event sequence; docs/report.md says why native is the default.
 *
 * The event structs below are plain C and carry no libtracecmd or
 * libtraceevent type: the latency machine (latency.h) and the replay
 * simulator consume and produce exactly these structs.
 *
 * Strings inside an event (comms, cgroup path, exec filename) point into
 * reader-owned storage that stays valid until the next trace_next() call.
 */
#ifndef SCHEDREPLAY_TRACE_H
#define SCHEDREPLAY_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedreplay/error.h>

/* TASK_COMM_LEN of the kernel, terminating NUL included. */
#define TRACE_COMM_LEN 16

/*
 * The event kinds the reader decodes. TRACE_EV_OTHER is any other event of
 * the buffer; it carries only the common fields and its name. The four
 * syscalls:sys_{enter,exit}_{read,write} events are not scheduler events:
 * trace_event_is_syscall() tells them apart (trace_consume() gives them to
 * its @other callback).
 */
enum trace_event_type {
	TRACE_EV_OTHER = 0,
	TRACE_EV_SCHED_SWITCH,
	TRACE_EV_SCHED_WAKING,
	TRACE_EV_SCHED_WAKEUP,
	TRACE_EV_SCHED_WAKEUP_NEW,
	TRACE_EV_SCHED_MIGRATE_TASK,
	TRACE_EV_SCHED_PROCESS_FORK,
	TRACE_EV_SCHED_PROCESS_EXEC,
	TRACE_EV_SCHED_PROCESS_EXIT,
	TRACE_EV_SCHED_STAT_RUNTIME,
	TRACE_EV_CGROUP_ATTACH_TASK,
	TRACE_EV_SYS_ENTER_READ,       /* u.syscall: fd, count */
	TRACE_EV_SYS_EXIT_READ,        /* u.syscall: ret */
	TRACE_EV_SYS_ENTER_WRITE,      /* u.syscall: fd, count */
	TRACE_EV_SYS_EXIT_WRITE,       /* u.syscall: ret */
	TRACE_EV_SCHED_PI_SETPRIO,     /* u.pi_setprio (rt_mutex_setprio()) */
	TRACE_EV_SYS_ENTER_SCHED_SETAFFINITY, /* u.syscall: fd = the pid argument, count = len */
	TRACE_EV_SYS_EXIT_SCHED_SETAFFINITY,  /* u.syscall: ret */
	TRACE_EV_NR_TYPES
};

/*
 * One of the syscall events: TRACE_EV_SYS_ENTER_READ .. _EXIT_WRITE, or
 * sys_{enter,exit}_sched_setaffinity (the capture records these always:
 * docs/capture.md, "Affinity").
 */
static inline bool trace_event_is_syscall(enum trace_event_type type)
{
	return (type >= TRACE_EV_SYS_ENTER_READ && type <= TRACE_EV_SYS_EXIT_WRITE) ||
	       type == TRACE_EV_SYS_ENTER_SCHED_SETAFFINITY ||
	       type == TRACE_EV_SYS_EXIT_SCHED_SETAFFINITY;
}

/* "sched_switch", ..., "sys_exit_write"; "other" for TRACE_EV_OTHER. */
const char *trace_event_type_name(enum trace_event_type type);

/*
 * prev_state of sched_switch, decoded from the file's own print format (the
 * bit layout differs between kernels), as the one or more letters that
 * `trace-cmd report` prints: "R", "R+", "S", "D", "I", "X", "Z", "D|K", ...
 */
enum trace_task_state {
	TRACE_STATE_RUNNING = 0,  /* "R" or "R+": still queued (preempted) */
	TRACE_STATE_SLEEPING,     /* S, D, I, T, t, P, ...: blocked */
	TRACE_STATE_DEAD,         /* X or Z: the task exited */
};

struct trace_sched_switch {
	char prev_comm[TRACE_COMM_LEN];
	int32_t prev_pid;
	int32_t prev_prio;
	int64_t prev_state;            /* raw kernel value */
	enum trace_task_state prev_run; /* classified from prev_state */
	bool prev_preempt;             /* the "+" of "R+" (preemption) */
	char next_comm[TRACE_COMM_LEN];
	int32_t next_pid;
	int32_t next_prio;
};

/* sched_waking, sched_wakeup and sched_wakeup_new share one layout. */
struct trace_sched_wakeup {
	char comm[TRACE_COMM_LEN];
	int32_t pid;
	int32_t prio;
	int32_t target_cpu;            /* -1 if the kernel's format has none */
	int32_t success;               /* old kernels' `success`; 1 if absent */
};

struct trace_sched_migrate_task {
	char comm[TRACE_COMM_LEN];
	int32_t pid;
	int32_t prio;
	int32_t orig_cpu;
	int32_t dest_cpu;
};

struct trace_sched_process_fork {
	char parent_comm[TRACE_COMM_LEN];
	int32_t parent_pid;
	char child_comm[TRACE_COMM_LEN];
	int32_t child_pid;
};

struct trace_sched_process_exec {
	const char *filename;          /* may be "" if the format has none */
	size_t filename_len;
	int32_t pid;
	int32_t old_pid;
};

struct trace_sched_process_exit {
	char comm[TRACE_COMM_LEN];
	int32_t pid;
	int32_t prio;
	int32_t group_dead;            /* -1 if the kernel's format has none */
};

/*
 * sched_pi_setprio, from rt_mutex_setprio() (kernel/sched/core.c) before it
 * changes p->prio: @oldprio is p->prio, @newprio the prio it sets - the top
 * rt_mutex waiter's if that is higher, else p->normal_prio (the boost ends).
 * The task's weight (static_prio) does not change: a fair task boosted
 * within 100..139 shows the boosted prio in sched_switch at its old weight.
 */
struct trace_sched_pi_setprio {
	char comm[TRACE_COMM_LEN];
	int32_t pid;
	int32_t oldprio;
	int32_t newprio;
};

struct trace_sched_stat_runtime {
	char comm[TRACE_COMM_LEN];
	int32_t pid;
	uint64_t runtime;              /* ns */
	uint64_t vruntime;             /* ns; 0 unless has_vruntime (<= 6.7) */
	bool has_vruntime;
};

struct trace_cgroup_attach_task {
	int32_t dst_root;              /* hierarchy id */
	int32_t dst_level;             /* -1 unless has_dst_level */
	bool has_dst_level;            /* the format (an ftrace text: the line) has it */
	uint64_t dst_id;
	int32_t pid;
	const char *dst_path;          /* not NUL-terminated beyond dst_path_len */
	size_t dst_path_len;
	char comm[TRACE_COMM_LEN];
};

/*
 * syscalls:sys_enter_read / sys_enter_write: fd and count (bytes asked for),
 * ret 0; sys_exit_read / sys_exit_write: ret (bytes moved, or -errno), fd
 * and count 0. The task is the event's common_pid. The same struct carries
 * syscalls:sys_enter_sched_setaffinity (fd: its pid argument, the task whose
 * mask is set, 0 for the caller; count: len; the mask itself is in user
 * memory, not in the record) and sys_exit_sched_setaffinity (ret: 0 or
 * -errno).  Values as the kernel stored them: the syscall's argument registers, unsigned longs (an fd of
 * -1 passed to read(2) may read as 4294967295).
 */
struct trace_syscall {
	int64_t fd;
	uint64_t count;
	int64_t ret;
};

struct trace_event {
	enum trace_event_type type;
	int cpu;
	uint64_t ts;                   /* ns (trace clock, file offsets applied) */
	/*
	 * Where the record is: for an uncompressed file, the byte offset of its
	 * ring-buffer header in the file; for a compressed file, the offset in
	 * that CPU's uncompressed data stream (offset_in_stream is then true);
	 * for an ftrace text, its line number, from 1 (offset_is_line is then
	 * true). trace_event_where() says it.
	 */
	uint64_t offset;
	bool offset_in_stream;
	bool offset_is_line;
	int32_t common_pid;
	uint8_t common_flags;
	uint8_t common_preempt_count;
	uint16_t id;                   /* the event id in this file */
	const char *name;              /* "sched_switch", or the other event's name */
	/*
	 * Not a record of the file: restored by the repair stage (a
	 * sched_switch out of idle the kernel did not trace). Its offset is
	 * that of the record it precedes (the task's first record there).
	 */
	bool synthetic;
	union {
		struct trace_sched_switch sched_switch;
		struct trace_sched_wakeup wakeup; /* WAKING, WAKEUP, WAKEUP_NEW */
		struct trace_sched_migrate_task migrate;
		struct trace_sched_process_fork fork;
		struct trace_sched_process_exec exec;
		struct trace_sched_process_exit exit;
		struct trace_sched_stat_runtime stat_runtime;
		struct trace_cgroup_attach_task cgroup_attach;
		struct trace_syscall syscall; /* trace_event_is_syscall() */
		struct trace_sched_pi_setprio pi_setprio;
	} u;
};

/*
 * The CPUs replay and report take: the model's (MODEL_MAX_CPUS). The reader
 * takes CPU ids up to 65535 and an ftrace text's fields any int.
 */
#define TRACE_MAX_CPUS 4096

/*
 * The CPU numbers @ev names into @c: its own CPU, a wakeup's target_cpu, a
 * migration's orig_cpu and dest_cpu; -1 where it names none.
 */
static inline void trace_event_cpus(const struct trace_event *ev, int32_t c[3])
{
	c[0] = ev->cpu;
	c[1] = c[2] = -1;
	switch (ev->type) {
	case TRACE_EV_SCHED_WAKING:
	case TRACE_EV_SCHED_WAKEUP:
	case TRACE_EV_SCHED_WAKEUP_NEW:
		c[1] = ev->u.wakeup.target_cpu;
		break;
	case TRACE_EV_SCHED_MIGRATE_TASK:
		c[1] = ev->u.migrate.orig_cpu;
		c[2] = ev->u.migrate.dest_cpu;
		break;
	default:
		break;
	}
}

/*
 * The index in trace_event_cpus()'s order of @ev's first CPU number not
 * below @limit, that number in *@cpu; else -1.
 */
static inline int trace_event_cpu_field_from(const struct trace_event *ev, int32_t limit,
					     int32_t *cpu)
{
	int32_t c[3];

	trace_event_cpus(ev, c);
	for (int i = 0; i < 3; i++)
		if (c[i] >= limit) {
			*cpu = c[i];
			return i;
		}
	return -1;
}

/*
 * The first CPU number of @ev (trace_event_cpus()) not below @limit, else
 * -1. Inline: report checks every event.
 */
static inline int32_t trace_event_cpu_from(const struct trace_event *ev, int32_t limit)
{
	int32_t cpu;

	return trace_event_cpu_field_from(ev, limit, &cpu) >= 0 ? cpu : -1;
}

/*
 * The first CPU number of @ev not below TRACE_MAX_CPUS, else -1: an event
 * replay and report refuse (corrupted data, or a machine the model cannot
 * have).
 */
static inline int32_t trace_event_impossible_cpu(const struct trace_event *ev)
{
	return trace_event_cpu_from(ev, TRACE_MAX_CPUS);
}

/*
 * PID_MAX_LIMIT (include/linux/threads.h): pid_max is at most that, and
 * alloc_pid() hands out pids below pid_max.
 */
#define TRACE_PID_MAX_LIMIT (4 * 1024 * 1024)

/* How trace_bad_value_error() prints a trace_bad_value's value. */
enum trace_bad_print {
	TRACE_BAD_INT = 0,             /* decimal */
	TRACE_BAD_U64,                 /* decimal, the value's bits as a u64 */
	TRACE_BAD_HEX,                 /* 0x..., a negative one in decimal */
};

/* A field of an event with a value no kernel writes: trace_event_bad_value(). */
struct trace_bad_value {
	const char *field;             /* "next_pid", "prio", "target_cpu", ... */
	int64_t value;
	const char *range;             /* what the kernel writes there */
	enum trace_bad_print print;
};

static inline bool trace_bad_pid(const char *field, int32_t pid, struct trace_bad_value *b)
{
	if (pid >= 0 && pid < TRACE_PID_MAX_LIMIT)
		return false;
	*b = (struct trace_bad_value){ field, pid, "a pid is 0 .. 4194303, below the kernel's "
				       "PID_MAX_LIMIT", TRACE_BAD_INT };
	return true;
}

/* -1 .. MAX_PRIO - 1: a deadline task's -1, RT 0..99, fair 100..139 (p->prio) */
static inline bool trace_bad_prio(const char *field, int32_t prio, struct trace_bad_value *b)
{
	if (prio >= -1 && prio < 140)
		return false;
	*b = (struct trace_bad_value){ field, prio, "a prio is -1 .. 139", TRACE_BAD_INT };
	return true;
}

/* task_cpu() is never negative; the readers' -1 is "the format has none" */
static inline bool trace_bad_cpu(const char *field, int32_t cpu, struct trace_bad_value *b)
{
	if (cpu >= -1)
		return false;
	*b = (struct trace_bad_value){ field, cpu, "a CPU number is 0 or more", TRACE_BAD_INT };
	return true;
}

/*
 * sched_stat_runtime's runtime: the delta_exec of update_curr_se(), which
 * update_curr() and update_curr_common() trace only when it is above 0 as
 * an s64 (since 3.14; before, a delta of 0 was not traced and the task
 * clock never went back): 1 .. 2^63 - 1 ns by the code. It is the time
 * the task's rq clock (rq_clock_task(), sched_clock() since boot) ran
 * since the task's exec_start: from 2^62 ns up, 146 years, no machine's
 * clock has run that long. A bound from the trace itself would not hold:
 * a task running since before the trace began (nohz_full, a paused VM)
 * is charged more than the trace's span, and the trace clock need not
 * count nanoseconds since boot. TRACE_RUNTIME_MAX.
 */
#define TRACE_RUNTIME_MAX (1ull << 62)

static inline bool trace_bad_runtime(uint64_t runtime, struct trace_bad_value *b)
{
	if (runtime - 1 < TRACE_RUNTIME_MAX)
		return false;
	*b = (struct trace_bad_value){ "runtime", (int64_t)runtime,
				       "a runtime is 1 .. 2^62 ns: the kernel traces a positive s64 "
				       "delta_exec of its task clock, and 2^62 ns is 146 years",
				       TRACE_BAD_U64 };
	return true;
}

/*
 * The depth of a cgroup path ("/" 0, "/a/b" 2), or -1 if @path is not one
 * the kernel writes complete (empty, not from the root, or 1023 bytes and
 * more: cut by TRACE_CGROUP_PATH_LEN).
 */
int trace_cgroup_path_depth(const char *path, size_t len);

/*
 * cgroup_attach_task's dst_level: the cgroup's level (cgrp->level), 0 for
 * a hierarchy's root and one more per level below it, the depth of the
 * dst_path the same event names (cgroup_path(), from the hierarchy's root).
 * No fixed bound: cgroup.max.depth is unlimited by default.
 */
bool trace_bad_cgroup_level(const struct trace_cgroup_attach_task *g, struct trace_bad_value *b);

/*
 * The first field of @ev (its common_pid, then the pids, prios and CPU
 * numbers its fields name, a sched_stat_runtime's runtime, a
 * cgroup_attach_task's dst_level) whose value no kernel writes: a pid
 * below 0 or not below PID_MAX_LIMIT, a prio outside -1 .. 139, a CPU
 * number below -1 (CPU numbers too high: trace_event_cpu_from()), a
 * runtime of 0 or above 2^62 (trace_bad_runtime()), a dst_level other
 * than its path's depth (trace_bad_cgroup_level()). True and *@b filled,
 * else false. Replay and report refuse such an event (corrupted data); an
 * ftrace text's pids are checked by its reader too. A comm without its
 * NUL and a prev_state its kernel does not write are the reader's to
 * refuse (the raw bytes and the file's bit layout are its own).
 * Inline: report checks every event.
 */
static inline bool trace_event_bad_value(const struct trace_event *ev, struct trace_bad_value *b)
{
	if (trace_bad_pid("common_pid", ev->common_pid, b))
		return true;
	switch (ev->type) {
	case TRACE_EV_SCHED_SWITCH: {
		const struct trace_sched_switch *s = &ev->u.sched_switch;

		return trace_bad_pid("prev_pid", s->prev_pid, b) ||
		       trace_bad_prio("prev_prio", s->prev_prio, b) ||
		       trace_bad_pid("next_pid", s->next_pid, b) ||
		       trace_bad_prio("next_prio", s->next_prio, b);
	}
	case TRACE_EV_SCHED_WAKING:
	case TRACE_EV_SCHED_WAKEUP:
	case TRACE_EV_SCHED_WAKEUP_NEW:
		return trace_bad_pid("pid", ev->u.wakeup.pid, b) ||
		       trace_bad_prio("prio", ev->u.wakeup.prio, b) ||
		       trace_bad_cpu("target_cpu", ev->u.wakeup.target_cpu, b);
	case TRACE_EV_SCHED_MIGRATE_TASK:
		return trace_bad_pid("pid", ev->u.migrate.pid, b) ||
		       trace_bad_prio("prio", ev->u.migrate.prio, b) ||
		       trace_bad_cpu("orig_cpu", ev->u.migrate.orig_cpu, b) ||
		       trace_bad_cpu("dest_cpu", ev->u.migrate.dest_cpu, b);
	case TRACE_EV_SCHED_PROCESS_FORK:
		return trace_bad_pid("parent_pid", ev->u.fork.parent_pid, b) ||
		       trace_bad_pid("child_pid", ev->u.fork.child_pid, b);
	case TRACE_EV_SCHED_PROCESS_EXEC:
		return trace_bad_pid("pid", ev->u.exec.pid, b) ||
		       trace_bad_pid("old_pid", ev->u.exec.old_pid, b);
	case TRACE_EV_SCHED_PROCESS_EXIT:
		return trace_bad_pid("pid", ev->u.exit.pid, b) ||
		       trace_bad_prio("prio", ev->u.exit.prio, b);
	case TRACE_EV_SCHED_STAT_RUNTIME:
		return trace_bad_pid("pid", ev->u.stat_runtime.pid, b) ||
		       trace_bad_runtime(ev->u.stat_runtime.runtime, b);
	case TRACE_EV_CGROUP_ATTACH_TASK:
		return trace_bad_pid("pid", ev->u.cgroup_attach.pid, b) ||
		       trace_bad_cgroup_level(&ev->u.cgroup_attach, b);
	default:
		return false;
	}
}

/*
 * The one line for @ev's field @b (trace_event_bad_value()) into @err:
 * "corrupted data: WHERE: EVENT with FIELD VALUE, which no kernel writes
 * (RANGE)"; @where says where the record is.
 */
void trace_bad_value_error(const struct trace_event *ev, const struct trace_bad_value *b,
			   const char *where, struct sr_error *err);

/*
 * Where @ev is, into @buf: "CPU 1, file offset 2457332", "CPU 1, stream
 * offset 154132", "CPU 1, line 12" (an ftrace text); "CPU 1" if nothing
 * more is known. Returns @buf.
 */
const char *trace_event_where(const struct trace_event *ev, char *buf, size_t size);

/*
 * What the repair stage did on one CPU (trace_info.repair_cpus[cpu]). Counts
 * so far; complete once trace_next() returned 0.
 */
struct trace_repair_cpu {
	uint64_t traced_to_idle;       /* sched_switch records with next_pid 0 */
	uint64_t traced_from_idle;     /* sched_switch records with prev_pid 0 */
	uint64_t restored;             /* synthetic idle -> task switches */
	/* where each restored switch was put (they add up to restored) */
	uint64_t at_stat_runtime;      /* ts - runtime of its first sched_stat_runtime there */
	uint64_t at_lower_bound;       /* its wakeup, or the CPU's later idle-context event */
	uint64_t at_first_event;       /* its first event there (no wakeup seen since idle) */
	/* why ts - runtime was not used */
	uint64_t stat_before_bound;    /* before its wakeup (exec_start = the wakeup's rq clock) */
	uint64_t stat_after_first;     /* after its first event (IRQ/steal time not in runtime) */
	/* later events had already left the reorder window: put right after them */
	uint64_t clamped_to_window;
};

/* Description of an opened trace; owned by the reader. */
struct trace_info {
	const char *path;
	const char *backend;           /* "native", "libtracecmd" or "text" */
	const char *format;            /* "trace.dat" or "text" (ftrace text) */
	int file_version;              /* 6 or 7; 0 for text */
	const char *compression;       /* "none", "zstd", "zlib" */
	bool big_endian;
	int long_size;                 /* kernel long, bytes */
	int cpus;                      /* CPUs of the machine (CPUCOUNT or header) */
	const char *cpus_from;         /* where @cpus comes from, for the user */
	/*
	 * @cpus is the kernel's nr_cpu_ids (a trace.dat's header or CPUCOUNT
	 * option: trace-cmd and capture record a data section per possible
	 * CPU), so no event names a CPU at or above it; false: an ftrace
	 * text's "#P:" / "cpus=" count, or a count made from the sections
	 */
	bool cpus_exact;
	const char *uname;             /* NULL if the file has none */
	const char *tracer_version;    /* trace-cmd version, NULL if none */
	bool has_trace_id;             /* the file has a TRACEID option */
	uint64_t trace_id;             /* its value (the capture sidecar repeats it) */
	const char *clock;             /* trace clock, NULL if unknown */
	const char *buffer;            /* "" for the top-level buffer */
	const char *buffer_reason;     /* why this buffer was chosen */
	/*
	 * The file's other buffers whose first records hold sched events,
	 * not read: "'NAME' (N sched of M sampled records)", "; " between
	 * them ("the top level" for the top-level one); NULL if none (and
	 * for ftrace text).  replay, whatif and variants print it as a note.
	 */
	const char *buffer_also;
	int nr_buffers;                /* buffers with flyrecord data in the file */
	uint32_t page_size;            /* ring-buffer sub-buffer size, bytes */
	uint64_t first_ts;             /* ns; 0 if the buffer has no events */
	uint64_t last_ts;              /* ns */
	bool has_sched_waking_format;  /* the file describes sched_waking */
	bool has_sched_wakeup_format;  /* ... sched_wakeup */
	/*
	 * Event formats of the file that only an asymmetric (big.LITTLE)
	 * machine's kernel has, named (static): "sched_hmp_* (...)", the HMP
	 * patches' events; NULL if none.  The model runs every CPU at one
	 * capacity (wl_facts.capacity_how says so).
	 */
	const char *asym_format;
	/*
	 * The trace records sched_migrate_task: a trace.dat describes it, a
	 * text has a line of it (the text's open pass reads every line).
	 */
	bool records_migrations;
	/*
	 * The trace records forks: sched_wakeup_new or sched_process_fork is
	 * described (a trace.dat) or has a line (a text).  Without it a task
	 * the trace forks shows first at its switch-in (wl_task.fork_assumed).
	 */
	bool records_forks;
	/* ftrace text with a numeric prev_state: the bit layout read (static); else NULL */
	const char *prev_state_how;
	/* that layout's kernel is older than this release ("4.14"), else NULL */
	const char *prev_state_before;
	/* the repair asked for (trace_open_opts.repair); 0 = none */
	unsigned int repair;
	/*
	 * With repair: [repair_nr_cpus] per CPU id (trace_nr_cpus()), valid
	 * until the next trace_next() or trace_close(); NULL without repair.
	 */
	const struct trace_repair_cpu *repair_cpus;
	int repair_nr_cpus;
};

/*
 * The highest CPU number + 1 an event of the trace @in describes may name:
 * a trace.dat's CPU count (@in->cpus_exact), else TRACE_MAX_CPUS (an
 * ftrace text's count is the user's, which its events may exceed).
 */
static inline int32_t trace_cpu_limit(const struct trace_info *in)
{
	return in->cpus_exact && in->cpus > 0 && in->cpus < TRACE_MAX_CPUS ? in->cpus :
		TRACE_MAX_CPUS;
}

/*
 * The first CPU number field of @ev at or above @limit (trace_cpu_limit())
 * into *@b ("cpu", "target_cpu", "orig_cpu", "dest_cpu"): true, else false.
 */
bool trace_event_cpu_past(const struct trace_event *ev, int32_t limit, struct trace_bad_value *b);

/*
 * The one line for @ev's CPU field @b (trace_event_cpu_past()) at or above
 * a trace.dat's CPU count @in->cpus, which is the kernel's nr_cpu_ids:
 * "corrupted data: WHERE: EVENT with FIELD VALUE, which no kernel writes
 * (the trace.dat CPUCOUNT option says N CPUs, ...)".
 */
void trace_cpu_past_error(const struct trace_event *ev, const struct trace_bad_value *b,
			  const struct trace_info *in, const char *where, struct sr_error *err);

struct trace_reader;

/* Who reads the ring-buffer records; the container is always checked natively. */
enum trace_backend {
	/*
	 * The reader's own page decoder: fast, O(CPUs) memory, every length
	 * checked.
	 */
	TRACE_BACKEND_NATIVE = 0,
	/*
	 * libtracecmd: tracecmd_open(TRACECMD_FL_LOAD_NO_PLUGINS), the buffer's
	 * instance handle, records merged by timestamp across CPUs, lost events
	 * from tep_record.missed_events, field layouts from libtracecmd's own
	 * tep handle. libtracecmd trusts the sizes in the file (it crashes on a
	 * truncated data region and kbuffer loops on a zero-length padding
	 * record), so trace_open() first validates the container and walks
	 * every page of the chosen buffer with the native decoder; a file that
	 * fails is rejected before libtracecmd opens it.
	 */
	TRACE_BACKEND_LIBTRACECMD,
};

/* "native", "libtracecmd"; parse: 0 and *out set, or -1. */
const char *trace_backend_name(enum trace_backend b);
int trace_backend_parse(const char *name, enum trace_backend *out);

/*
 * Repairs of the event stream (trace_open_opts.repair, a bit mask).
 *
 * TRACE_REPAIR_IDLE_EXIT: some kernels do not trace a CPU's switch out of
 * idle (the development VM's 6.18 never traces CPU 1 leaving idle; see
 * docs/report.md, "Untraced switches out of idle"). Detected from the stream
 * itself: a CPU whose current task per its sched_switch records is idle
 * (pid 0) shows an event whose common_pid is a task T != 0, so T was
 * switched in without a record. A synthetic sched_switch(idle, prev_state R
 * -> T) is inserted at the reconstructed switch-in time: ts - runtime of T's
 * first sched_stat_runtime there (exec_start) if it lies within [the lower
 * bound = max(T's last wakeup or migration, the CPU's previous event), T's
 * first event there]; else at the lower bound if T's wakeup came while the
 * CPU was idle, else at T's first event there (replay/trace_repair.c says
 * why; docs/report.md has the measured error: a few microseconds early). A
 * CPU's current task becomes unknown at a lost-events gap: nothing is
 * restored on it until its next sched_switch.
 */
enum trace_repair {
	TRACE_REPAIR_NONE = 0,
	TRACE_REPAIR_IDLE_EXIT = 1u << 0,
};

/*
 * The reorder window of a repairing reader: an event is held while a switch
 * restored later could precede it, at most this long (trace time behind the
 * newest event read) and this many events; after that it is delivered and a
 * later restored switch is not placed before it (clamped_to_window).
 */
#define TRACE_REPAIR_HOLD_NS 50000000ull
#define TRACE_REPAIR_HOLD_EVENTS 65536u

/*
 * Whether a thread reads (and decompresses) each CPU's next window or chunk
 * ahead of the decoder (native backend). The events are the same either way.
 */
enum trace_prefetch {
	TRACE_PREFETCH_AUTO = 0,       /* compressed CPU data >= TRACE_PREFETCH_MIN_COMPRESSED */
	TRACE_PREFETCH_ALWAYS,
	TRACE_PREFETCH_NEVER,
};
#define TRACE_PREFETCH_MIN_COMPRESSED (1u << 20)

struct trace_open_opts {
	/*
	 * Buffer to read: NULL picks the one whose first pages hold the most
	 * sched events (ties: the top-level one); "" is the top-level buffer;
	 * anything else is an instance name.
	 */
	const char *buffer;
	enum trace_backend backend;    /* 0 = TRACE_BACKEND_NATIVE */
	unsigned int repair;           /* enum trace_repair bits; 0 = the raw stream */
	enum trace_prefetch prefetch;  /* 0 = TRACE_PREFETCH_AUTO */
};

/*
 * Open @path. Returns NULL and fills @err ("<path>: <why>") on failure.
 * @opts may be NULL. The caller owns the handle: trace_close() it.
 */
struct trace_reader *trace_open(const char *path, const struct trace_open_opts *opts,
				struct sr_error *err);

/* Close and free; accepts NULL. */
void trace_close(struct trace_reader *r);

/* The trace's description; valid until trace_close(). */
const struct trace_info *trace_get_info(const struct trace_reader *r);

/*
 * Decode the next event into @ev. Returns 1 when an event was delivered, 0 at
 * the end of the trace, -1 on a decoding error (corrupted data): @err then
 * names the file, CPU, offset and last good timestamp; the reader must not be
 * used further except for trace_close().
 */
int trace_next(struct trace_reader *r, struct trace_event *ev, struct sr_error *err);

/*
 * A consumer of the events trace_next() would deliver, called by the reader
 * from its decoder's case of the event's type, so that a consumer that
 * handles a few types does not dispatch on the type again. Each callback
 * gets the event (valid for the call) and trace_lost_before()'s value for
 * it; a non-zero return stops trace_consume(), which returns -1 with @err as
 * the callback set it. @sched_wakeup takes sched_waking, sched_wakeup and
 * sched_wakeup_new; @other every other type, TRACE_EV_OTHER included.
 */
struct trace_consumer {
	int (*sched_switch)(void *ctx, const struct trace_event *ev, uint64_t lost_before);
	int (*sched_wakeup)(void *ctx, const struct trace_event *ev, uint64_t lost_before);
	int (*sched_stat_runtime)(void *ctx, const struct trace_event *ev, uint64_t lost_before);
	int (*other)(void *ctx, const struct trace_event *ev, uint64_t lost_before);
	void *ctx;
};

/*
 * Every remaining event, in trace_next()'s order, to @c's callbacks: 0 at
 * the end of the trace, -1 on a decoding error (as trace_next()) or when a
 * callback returned non-zero. The reader's counts are those of trace_next()
 * afterwards; it must not be used further after -1 except for trace_close().
 */
int trace_consume(struct trace_reader *r, const struct trace_consumer *c, struct sr_error *err);

/*
 * Events the kernel dropped before a record (ring-buffer overrun). Set on
 * the event that follows the gap, for one trace_next() call: the count, or
 * TRACE_LOST_UNKNOWN if the kernel did not store how many. 0 otherwise.
 */
#define TRACE_LOST_UNKNOWN UINT64_MAX
uint64_t trace_lost_before(const struct trace_reader *r);

/*
 * Lost events seen so far on @cpu (the whole trace once trace_next() returned
 * 0); a gap of unknown size counts as 1 and sets *unknown (may be NULL).
 */
uint64_t trace_lost_events(const struct trace_reader *r, int cpu, bool *unknown);

/* Number of CPUs whose data the reader iterates (= indices of ev->cpu). */
int trace_nr_cpus(const struct trace_reader *r);

/*
 * Count of the file's records per event id, by name (synthetic events are
 * not records: see trace_info.repair_cpus), for the whole stream so far
 * (with repair, this includes the records read into the reorder window).
 * trace_event_count_at() walks the names with a non-zero count in id order:
 * returns false past the end.
 */
bool trace_event_count_at(const struct trace_reader *r, size_t i, const char **name,
			  uint64_t *count);

/* Number of the file's records read so far (as above; synthetic events excluded). */
uint64_t trace_events_read(const struct trace_reader *r);

#endif /* SCHEDREPLAY_TRACE_H */
