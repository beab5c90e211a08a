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
 *     pipe->wr_wait; unix: sock_alloc_send_pskb() waiting for sndbuf), and a
 *     READ wakes the sleeping writers whose writes now fit, in the order they
 *     slept (pipe_read(): a sync wake of wr_wait when the pipe was full, each
 *     woken writer waking the next while there is room; unix_write_space()).
 * Sleepers are kept in FIFO order per channel, linked through a per-task
 * array: a task sleeps on one channel at a time.
 */
#ifndef SCHEDREPLAY_SIM_CHAN_H
#define SCHEDREPLAY_SIM_CHAN_H

#include <stdbool.h>
#include <stdint.h>

struct sim_chan {
	/*
	 * Bytes in the channel.  Negative only in the trace-paced mode
	 * (sim_chan_take()): reads the simulated reader did ahead of the
	 * writes that feed them, owed by the writers.
	 */
	int64_t fill;
	uint64_t cap;          /* capacity in bytes, UINT64_MAX unbounded */
	uint32_t rd_head, rd_tail;   /* readers asleep in a READ */
	uint32_t wr_head, wr_tail;   /* writers asleep in a WRITE */
};

struct sim_chans {
	struct sim_chan *c;
	uint32_t nr;
	uint32_t nr_tasks;
	uint32_t *next;        /* per task: the next sleeper on its channel */
	uint64_t *want;        /* per task: the bytes of the WRITE it sleeps in */
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
