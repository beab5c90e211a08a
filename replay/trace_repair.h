/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader's repair stage (replay/trace_repair.c), private to the reader
 * and its tests: a filter between the merged record stream and
 * trace_next() that restores switches the kernel did not trace (enum
 * trace_repair in include/schedreplay/trace.h).
 *
 * Events go in in timestamp order (tr_repair_push) and come out in timestamp
 * order (tr_repair_pop), with synthetic sched_switch events inserted. A
 * restored switch lies before the event that revealed it, so events are held
 * in a reorder window until no restored switch can precede them any more, or
 * until the window's bounds force them out.
 */
#ifndef SCHEDREPLAY_TRACE_REPAIR_H
#define SCHEDREPLAY_TRACE_REPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedreplay/trace.h>

struct tr_repair;

struct tr_repair_limits {
	uint64_t hold_ns;              /* TRACE_REPAIR_HOLD_NS */
	size_t hold_events;            /* TRACE_REPAIR_HOLD_EVENTS */
};

/*
 * A stage for CPU ids 0 .. nr_cpus-1 (events of other CPUs pass through
 * untouched). @switch_id is the file's sched_switch event id, given to the
 * synthetic events. @lim NULL: the defaults of trace.h. NULL on ENOMEM.
 */
struct tr_repair *tr_repair_new(unsigned int mode, int nr_cpus, uint16_t switch_id,
				const struct tr_repair_limits *lim);
void tr_repair_free(struct tr_repair *rp);

/*
 * One event of the input (copied, strings included), @lost_before as
 * trace_lost_before() reports it. 0, or -1 when memory runs out.
 */
int tr_repair_push(struct tr_repair *rp, const struct trace_event *ev, uint64_t lost_before);

/*
 * tr_repair_push() of an event that may well leave at once: 1 when @ev, as it
 * is (synthetic cleared), is the next event of the output, so the caller
 * delivers it itself, with @lost_before; 0 when it was taken in (copied) and
 * the output is asked for with tr_repair_pop(); -1 when memory runs out.
 * Output and statistics are those of tr_repair_push() then tr_repair_pop():
 * it saves copying the event into the FIFO and out again. After 1 nothing
 * is held: tr_repair_pop() returns 0 until the next push or pass.
 */
int tr_repair_pass(struct tr_repair *rp, struct trace_event *ev, uint64_t lost_before);

/*
 * tr_repair_pass() of an event whose type the caller has already dispatched
 * on (the reader's decoder): _switch for sched_switch, _wakeup for
 * sched_waking, sched_wakeup and sched_wakeup_new, _stat_runtime for
 * sched_stat_runtime. The same result; the stage's own switch on ev->type is
 * compiled away, so a decoded event is dispatched on its type once.
 */
int tr_repair_pass_switch(struct tr_repair *rp, struct trace_event *ev, uint64_t lost_before);
int tr_repair_pass_wakeup(struct tr_repair *rp, struct trace_event *ev, uint64_t lost_before);
int tr_repair_pass_stat_runtime(struct tr_repair *rp, struct trace_event *ev,
				uint64_t lost_before);

/* The input is over: what is still held becomes deliverable. -1 on ENOMEM. */
int tr_repair_end(struct tr_repair *rp);

/*
 * The next event of the output: 1 and @ev (its strings valid until the next
 * push or pop), or 0 when nothing can be delivered before more input (or,
 * after tr_repair_end(), when everything was delivered); -1 when memory ran
 * out (the stage must not be used further).
 */
int tr_repair_pop(struct tr_repair *rp, struct trace_event *ev, uint64_t *lost_before);

/* Per CPU counts, [nr_cpus] (see struct trace_repair_cpu). */
const struct trace_repair_cpu *tr_repair_stats(const struct tr_repair *rp);

/* Events held right now, and the most ever held (for tests and benchmarks). */
size_t tr_repair_held(const struct tr_repair *rp);
size_t tr_repair_held_max(const struct tr_repair *rp);

#endif /* SCHEDREPLAY_TRACE_REPAIR_H */
