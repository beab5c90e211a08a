/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulation's channels (docs/replay.md, "Channels"): the fill level of
 * each pipe or socket the workload models (wl_channel), and who sleeps on it.
 * Pure state, no scheduling: sim.c asks, then puts tasks to sleep or wakes
 * them through the model.
 *
 * The rules are the kernel's, reduced to bytes:
 *   - a READ of an empty channel sleeps (pipe_read(): wait_event on
 *     pipe->rd_wait while pipe_empty(); unix_stream_read_generic():
 *     unix_stream_data_wait() while the receive queue is empty); one that
 *     finds bytes takes up to what it asks for and returns;
 *   - a WRITE adds its bytes and wakes a reader asleep on the channel
 *     (pipe_write(): wake_up_interruptible_sync_poll(&pipe->rd_wait) when
 *     the pipe was empty - a reader can only be asleep on an empty pipe;
 *     unix_stream_sendmsg() -> sk_data_ready = sock_def_readable(): a sync
 *     wake whenever a reader waits);
 *   - a WRITE that does not fit (fill + bytes > capacity, the channel not
 *     empty) sleeps until a READ makes room (pipe_write(): wait_event on
 *     pipe->wr_wait; unix: sock_alloc_send_pskb() waiting for sndbuf);
 *   - which READ wakes which sleeping writer depends on the channel:
 *     a pipe (SIM_CHAN_PIPE): writers sleep exclusively
 *     (wait_event_interruptible_exclusive(pipe->wr_wait) in pipe_write());
 *     a READ wakes ONE writer, and only if the pipe was full when the read
 *     started (pipe_read(): was_full) - in bytes: the first sleeping
 *     writer's write did not fit then - and it wakes it only if its write
 *     fits now (the kernel's would find the pipe still full and sleep
 *     again); a writer that slept in its write and completes it with room
 *     left wakes the next (pipe_write(): wake_next_writer);
 *     a socket (SIM_CHAN_SOCKET): a READ wakes the sleeping writers (all
 *     that fit, in sleep order) only when the fill it leaves is at most the
 *     channel's wake fill (unix_write_space() wakes when unix_writable():
 *     a quarter of sk_sndbuf or less in flight; the wake fill is the
 *     trace's, see sim_run.c).
 * Sleepers are kept in FIFO order per channel, linked through a per-task
 * array: a task sleeps on one channel at a time.
 */
#ifndef SCHEDREPLAY_SIM_CHAN_H
#define SCHEDREPLAY_SIM_CHAN_H

#include <stdbool.h>
#include <stdint.h>

enum sim_chan_kind { SIM_CHAN_PIPE = 0, SIM_CHAN_SOCKET };

struct sim_chan {
	/*
	 * Bytes in the channel.  Negative only in the trace-paced mode
	 * (sim_chan_take()): reads the simulated reader did ahead of the
	 * writes that feed them, owed by the writers.
	 */
	int64_t fill;
	uint64_t cap;          /* capacity in bytes, UINT64_MAX unbounded */
	uint64_t wake_fill;    /* SIM_CHAN_SOCKET: writers go on at this fill or less */
	uint32_t woken;        /* SIM_CHAN_PIPE: writers woken that have neither written
				  nor slept again (each will pass the wake on) */
	uint8_t kind;          /* enum sim_chan_kind */
	uint32_t rd_head, rd_tail;   /* readers asleep in a READ */
	uint32_t wr_head, wr_tail;   /* writers asleep in a WRITE */
};

struct sim_chans {
	struct sim_chan *c;
	uint32_t nr;
	uint32_t nr_tasks;
	uint32_t *next;        /* per task: the next sleeper on its channel */
	uint64_t *want;        /* per task: the bytes of the WRITE it sleeps in */
	bool *woken_writer;    /* per task: woken from a sleep in its WRITE (pipe_write()'s
				  wake_next_writer), until that WRITE completes */
};

/* @nr channels (capacity unbounded, empty) for @nr_tasks tasks; -1 on ENOMEM. */
int sim_chans_init(struct sim_chans *cs, uint32_t nr, uint32_t nr_tasks);
void sim_chans_release(struct sim_chans *cs);

/*
 * READ of up to @want bytes (at least 1) by @task from channel @ci: the bytes
 * taken, or 0 when the channel is empty: @task then sleeps on it (queued as a
 * reader).
 */
uint64_t sim_chan_read(struct sim_chans *cs, uint32_t ci, uint32_t task, uint64_t want);

/*
 * WRITE of @bytes by @task into channel @ci: true when written, false when it
 * does not fit: @task then sleeps on it (queued as a writer).
 */
bool sim_chan_write(struct sim_chans *cs, uint32_t ci, uint32_t task, uint64_t bytes);

/* After a WRITE: the first reader asleep on @ci if it has bytes (dequeued), else UINT32_MAX. */
uint32_t sim_chan_reader_to_wake(struct sim_chans *cs, uint32_t ci);

/*
 * After a READ: the first writer (in sleep order) asleep on @ci whose write
 * now fits, counting the writes of the writers already returned since @room
 * was set (dequeued), else UINT32_MAX.  *@room starts at the free space (sim_chan_room()) and
 * shrinks by each returned writer's bytes.
 */
uint32_t sim_chan_writer_to_wake(struct sim_chans *cs, uint32_t ci, uint64_t *room);
uint64_t sim_chan_room(const struct sim_chans *cs, uint32_t ci);

/*
 * The channel's own writer wakes (the rules above):
 *   sim_chan_was_full(): before a READ: a writer sleeps and its write does
 *     not fit, or (a pipe) it fits but no woken writer is on its way to pass
 *     the wake on - the kernel's writer sleeps only on a full pipe, and with
 *     writes of several sizes a byte count can let a smaller one fit where
 *     the kernel's pipe is still full (pass the result to
 *     sim_chan_read_wakes());
 *   sim_chan_read_wakes(): after that READ, @nth = the writers it woke so
 *     far, *@room = sim_chan_room() after the read before the first call:
 *     the next writer it wakes (dequeued), UINT32_MAX when none; call until
 *     UINT32_MAX (a pipe's read wakes at most one);
 *   sim_chan_write_done(): @task's WRITE went in: the writer it wakes in
 *     turn (a pipe's woken writer waking the next), UINT32_MAX when none.
 */
bool sim_chan_was_full(const struct sim_chans *cs, uint32_t ci);
uint32_t sim_chan_read_wakes(struct sim_chans *cs, uint32_t ci, bool was_full, unsigned int nth,
			     uint64_t *room);
uint32_t sim_chan_write_done(struct sim_chans *cs, uint32_t ci, uint32_t task);

/*
 * The trace-paced mode (docs/replay.md, "Channels"): reads and writes never
 * sleep by themselves; only where the trace shows a sleep inside one does the
 * channel decide whether it is slept.
 *   sim_chan_take(): a READ's bytes leave (the fill may go negative: read
 *     ahead of writes that have not come yet in the simulation);
 *   sim_chan_put(): a WRITE's bytes arrive;
 *   sim_chan_wait_read(): at a traced sleep inside a read: true (@task now
 *     sleeps on the channel) unless bytes are there;
 *   sim_chan_wait_write(): at a traced sleep inside a write of @bytes: true
 *     (@task now sleeps) while they do not fit.
 * sim_chan_reader_to_wake() / sim_chan_writer_to_wake() wake them.
 */
void sim_chan_take(struct sim_chans *cs, uint32_t ci, uint64_t bytes);
void sim_chan_put(struct sim_chans *cs, uint32_t ci, uint64_t bytes);
bool sim_chan_wait_read(struct sim_chans *cs, uint32_t ci, uint32_t task);
bool sim_chan_wait_write(struct sim_chans *cs, uint32_t ci, uint32_t task, uint64_t bytes);

/* Whether @task sleeps on channel @ci (as a reader or writer). */
bool sim_chan_has_sleeper(const struct sim_chans *cs, uint32_t ci, uint32_t task);

#endif /* SCHEDREPLAY_SIM_CHAN_H */
