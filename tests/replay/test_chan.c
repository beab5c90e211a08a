// SPDX-License-Identifier: GPL-2.0
/*
 * The simulation's channel state (replay/sim_chan.h): a READ of an empty
 * channel sleeps and a WRITE wakes it, a READ takes at most what is there,
 * a WRITE that does not fit sleeps until a READ makes room, sleepers wake
 * in the order they slept; and, over random operation sequences, bytes are
 * conserved and no task sleeps on a channel that could serve it.
 */
#include <stdint.h>
#include <unistd.h>

#include <schedreplay/sim.h>
#include <schedreplay/workload.h>

#include "check_replay.h"
#include "sim_chan.h"

#define NONE UINT32_MAX

static void test_read_empty_sleeps(void)
{
	struct sim_chans cs;

	CHECK(sim_chans_init(&cs, 2, 4) == 0);
	/* reader 1 finds channel 0 empty: it sleeps there */
	CHECK_EQ(sim_chan_read(&cs, 0, 1, 100), 0u);
	CHECK(sim_chan_has_sleeper(&cs, 0, 1));
	CHECK(!sim_chan_has_sleeper(&cs, 1, 1));
	/* nothing written yet: nobody to wake */
	CHECK_EQ(sim_chan_reader_to_wake(&cs, 0), NONE);
	/* a write to the other channel does not wake it */
	CHECK(sim_chan_write(&cs, 1, 2, 100));
	CHECK_EQ(sim_chan_reader_to_wake(&cs, 1), NONE);
	/* writer 2 writes 100 bytes into channel 0: reader 1 is woken, once */
	CHECK(sim_chan_write(&cs, 0, 2, 100));
	CHECK_EQ(sim_chan_reader_to_wake(&cs, 0), 1u);
	CHECK_EQ(sim_chan_reader_to_wake(&cs, 0), NONE);
	CHECK(!sim_chan_has_sleeper(&cs, 0, 1));
	/* its retried READ takes the message */
	CHECK_EQ(sim_chan_read(&cs, 0, 1, 100), 100u);
	CHECK_EQ((uint64_t)cs.c[0].fill, 0u);
	sim_chans_release(&cs);
}

static void test_read_takes_what_is_there(void)
{
	struct sim_chans cs;

	CHECK(sim_chans_init(&cs, 1, 2) == 0);
	CHECK(sim_chan_write(&cs, 0, 0, 100));
	CHECK(sim_chan_write(&cs, 0, 0, 100));
	CHECK(sim_chan_write(&cs, 0, 0, 50));
	CHECK_EQ((uint64_t)cs.c[0].fill, 250u);
	/* hackbench reads a 100-byte message: one read, 100 bytes */
	CHECK_EQ(sim_chan_read(&cs, 0, 1, 100), 100u);
	CHECK_EQ(sim_chan_read(&cs, 0, 1, 100), 100u);
	/* a short read: only 50 left */
	CHECK_EQ(sim_chan_read(&cs, 0, 1, 100), 50u);
	CHECK_EQ((uint64_t)cs.c[0].fill, 0u);
	CHECK_EQ(sim_chan_read(&cs, 0, 1, 100), 0u);
	sim_chans_release(&cs);
}

static void test_capacity(void)
{
	struct sim_chans cs;
	uint64_t room;

	CHECK(sim_chans_init(&cs, 1, 4) == 0);
	cs.c[0].cap = 250;
	CHECK(sim_chan_write(&cs, 0, 1, 100));
	CHECK(sim_chan_write(&cs, 0, 1, 100));
	/* 200 + 100 > 250: writer 1 sleeps, then writer 2 (200 + 60 > 250) too */
	CHECK(!sim_chan_write(&cs, 0, 1, 100));
	CHECK(!sim_chan_write(&cs, 0, 2, 60));
	CHECK(sim_chan_has_sleeper(&cs, 0, 1) && sim_chan_has_sleeper(&cs, 0, 2));
	CHECK_EQ((uint64_t)cs.c[0].fill, 200u);
	/* a read of 40 bytes: 90 free: not writer 1's 100, but writer 2's 60 */
	CHECK_EQ(sim_chan_read(&cs, 0, 3, 40), 40u);
	room = sim_chan_room(&cs, 0);
	CHECK_EQ(room, 90u);
	CHECK_EQ(sim_chan_writer_to_wake(&cs, 0, &room), 2u);
	CHECK_EQ(room, 30u);
	CHECK_EQ(sim_chan_writer_to_wake(&cs, 0, &room), NONE);
	CHECK(sim_chan_write(&cs, 0, 2, 60));
	CHECK_EQ((uint64_t)cs.c[0].fill, 220u);
	CHECK(sim_chan_has_sleeper(&cs, 0, 1) && !sim_chan_has_sleeper(&cs, 0, 2));
	/* 100 more read: 130 free: writer 1 */
	CHECK_EQ(sim_chan_read(&cs, 0, 3, 100), 100u);
	room = sim_chan_room(&cs, 0);
	CHECK_EQ(room, 130u);
	CHECK_EQ(sim_chan_writer_to_wake(&cs, 0, &room), 1u);
	CHECK_EQ(room, 30u);
	CHECK_EQ(sim_chan_writer_to_wake(&cs, 0, &room), NONE);
	CHECK(sim_chan_write(&cs, 0, 1, 100));
	CHECK_EQ((uint64_t)cs.c[0].fill, 220u);
	/* a write into an empty channel goes in whatever its size */
	CHECK_EQ(sim_chan_read(&cs, 0, 3, 1000), 220u);
	CHECK(sim_chan_write(&cs, 0, 1, 1000));
	CHECK_EQ((uint64_t)cs.c[0].fill, 1000u);
	/* unbounded: never sleeps */
	cs.c[0].cap = UINT64_MAX;
	CHECK(sim_chan_write(&cs, 0, 1, UINT64_MAX / 2));
	sim_chans_release(&cs);
}

/*
 * A pipe's writer wakes (pipe_read(), pipe_write(), 6.12): writers sleep
 * exclusively; a read wakes one, and only if the pipe was full when it
 * started; a woken writer that completes its write wakes the next if its
 * write fits.
 */
static void test_pipe_writer_wakes(void)
{
	struct sim_chans cs;
	uint64_t room;
	bool full;

	CHECK(sim_chans_init(&cs, 1, 5) == 0);
	cs.c[0].cap = 300;
	CHECK_EQ(cs.c[0].kind, (uint8_t)SIM_CHAN_PIPE);
	CHECK(sim_chan_write(&cs, 0, 1, 100) && sim_chan_write(&cs, 0, 1, 100));
	CHECK(sim_chan_write(&cs, 0, 1, 100));
	/* full: writers 1, 2, 3 sleep in that order */
	CHECK(!sim_chan_write(&cs, 0, 1, 100));
	CHECK(!sim_chan_write(&cs, 0, 2, 100));
	CHECK(!sim_chan_write(&cs, 0, 3, 100));
	/* a read of 200 from the full pipe: room for two, but one writer woken */
	full = sim_chan_was_full(&cs, 0);
	CHECK(full);
	CHECK_EQ(sim_chan_read(&cs, 0, 4, 200), 200u);
	room = sim_chan_room(&cs, 0);
	CHECK_EQ(sim_chan_read_wakes(&cs, 0, full, 0, &room), 1u);
	CHECK_EQ(sim_chan_read_wakes(&cs, 0, full, 1, &room), NONE);
	/* the next read did not start full (room 200): it wakes nobody */
	full = sim_chan_was_full(&cs, 0);
	CHECK(!full);
	CHECK_EQ(sim_chan_read(&cs, 0, 4, 50), 50u);
	room = sim_chan_room(&cs, 0);
	CHECK_EQ(sim_chan_read_wakes(&cs, 0, full, 0, &room), NONE);
	CHECK(sim_chan_has_sleeper(&cs, 0, 2) && sim_chan_has_sleeper(&cs, 0, 3));
	/* writer 1 completes (fill 150): room left: it wakes writer 2 */
	CHECK(sim_chan_write(&cs, 0, 1, 100));
	CHECK_EQ(sim_chan_write_done(&cs, 0, 1), 2u);
	/* writer 2 completes (fill 250): 3's write does not fit: nobody */
	CHECK(sim_chan_write(&cs, 0, 2, 100));
	CHECK_EQ(sim_chan_write_done(&cs, 0, 2), NONE);
	CHECK(sim_chan_has_sleeper(&cs, 0, 3));
	/* a writer that never slept wakes nobody, whatever the room */
	CHECK_EQ(sim_chan_read(&cs, 0, 4, 250), 250u);
	CHECK(sim_chan_write(&cs, 0, 4, 10));
	CHECK_EQ(sim_chan_write_done(&cs, 0, 4), NONE);
	CHECK(sim_chan_has_sleeper(&cs, 0, 3));
	sim_chans_release(&cs);

	/*
	 * Writes of two sizes: writer 1 (100 bytes) is woken, another write
	 * comes first, 1 sleeps again; writer 2's 50 bytes fit now, with no
	 * woken writer on its way to pass the wake on: the next read wakes it
	 * (the kernel's pipe, slot-counted, is still full there).
	 */
	CHECK(sim_chans_init(&cs, 1, 5) == 0);
	cs.c[0].cap = 300;
	for (int i = 0; i < 3; i++)
		CHECK(sim_chan_write(&cs, 0, 0, 100));
	CHECK(!sim_chan_write(&cs, 0, 1, 100));
	CHECK(!sim_chan_write(&cs, 0, 2, 50));
	full = sim_chan_was_full(&cs, 0);
	CHECK_EQ(sim_chan_read(&cs, 0, 4, 100), 100u);
	room = sim_chan_room(&cs, 0);
	CHECK_EQ(sim_chan_read_wakes(&cs, 0, full, 0, &room), 1u);
	CHECK_EQ(cs.c[0].woken, 1u);
	CHECK(sim_chan_write(&cs, 0, 0, 10));           /* fill 210 */
	CHECK(!sim_chan_write(&cs, 0, 1, 100));         /* 310 > 300: sleeps again */
	CHECK_EQ(cs.c[0].woken, 0u);
	full = sim_chan_was_full(&cs, 0);
	CHECK(full);
	CHECK_EQ(sim_chan_read(&cs, 0, 4, 10), 10u);
	room = sim_chan_room(&cs, 0);
	CHECK_EQ(sim_chan_read_wakes(&cs, 0, full, 0, &room), 2u);
	sim_chans_release(&cs);
}

/*
 * A unix stream socket's writer wakes (unix_write_space(), 6.12): after a
 * read, only once the fill is at most the wake fill (a quarter of sk_sndbuf
 * in flight in the kernel); then every sleeping writer whose write fits.
 */
static void test_socket_writer_wakes(void)
{
	struct sim_chans cs;
	uint64_t room;
	bool full;

	CHECK(sim_chans_init(&cs, 1, 4) == 0);
	cs.c[0].cap = 400;
	cs.c[0].kind = SIM_CHAN_SOCKET;
	cs.c[0].wake_fill = 100;
	for (int i = 0; i < 4; i++)
		CHECK(sim_chan_write(&cs, 0, 0, 100));
	CHECK(!sim_chan_write(&cs, 0, 1, 100));
	CHECK(!sim_chan_write(&cs, 0, 2, 100));
	/* reads down to 300 and 200: room for both, but above the wake fill */
	for (int i = 0; i < 2; i++) {
		full = sim_chan_was_full(&cs, 0);
		CHECK_EQ(sim_chan_read(&cs, 0, 3, 100), 100u);
		room = sim_chan_room(&cs, 0);
		CHECK_EQ(sim_chan_read_wakes(&cs, 0, full, 0, &room), NONE);
	}
	/* down to 100: both writers, in sleep order */
	full = sim_chan_was_full(&cs, 0);
	CHECK(!full);
	CHECK_EQ(sim_chan_read(&cs, 0, 3, 100), 100u);
	room = sim_chan_room(&cs, 0);
	CHECK_EQ(room, 300u);
	CHECK_EQ(sim_chan_read_wakes(&cs, 0, full, 0, &room), 1u);
	CHECK_EQ(sim_chan_read_wakes(&cs, 0, full, 1, &room), 2u);
	CHECK_EQ(sim_chan_read_wakes(&cs, 0, full, 2, &room), NONE);
	CHECK_EQ(room, 100u);
	/* no chain between socket writers */
	CHECK(sim_chan_write(&cs, 0, 1, 100));
	CHECK_EQ(sim_chan_write_done(&cs, 0, 1), NONE);
	sim_chans_release(&cs);
}

/* a reader woken only when bytes are there; FIFO among readers */
static void test_readers_fifo(void)
{
	struct sim_chans cs;

	CHECK(sim_chans_init(&cs, 1, 3) == 0);
	CHECK_EQ(sim_chan_read(&cs, 0, 2, 10), 0u);
	CHECK_EQ(sim_chan_read(&cs, 0, 0, 10), 0u);
	CHECK(sim_chan_write(&cs, 0, 1, 5));
	CHECK_EQ(sim_chan_reader_to_wake(&cs, 0), 2u);
	CHECK_EQ(sim_chan_read(&cs, 0, 2, 10), 5u);
	/* empty again: the next write wakes the next reader */
	CHECK_EQ(sim_chan_reader_to_wake(&cs, 0), NONE);
	CHECK(sim_chan_write(&cs, 0, 1, 5));
	CHECK_EQ(sim_chan_reader_to_wake(&cs, 0), 0u);
	sim_chans_release(&cs);
}

/*
 * Random READ/WRITE sequences over 3 channels and 6 tasks, each task
 * retrying its op when woken, the way sim.c drives the state: bytes written
 * = bytes read + fill; a sleeping reader only on an empty channel; a
 * sleeping writer only where its write does not fit.
 */
static uint64_t rng(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void test_random_invariants(void)
{
	enum { NCH = 3, NT = 6 };
	struct sim_chans cs;
	uint64_t x = 88172645463325252ull, wrote[NCH] = { 0 }, read[NCH] = { 0 };
	int asleep[NT];             /* -1 awake, else the channel */
	bool writer[NT];
	uint64_t bytes[NT];
	unsigned int bad = 0;

	CHECK(sim_chans_init(&cs, NCH, NT) == 0);
	cs.c[1].cap = 300;
	cs.c[2].cap = 64;
	for (int t = 0; t < NT; t++)
		asleep[t] = -1;
	for (int step = 0; step < 20000; step++) {
		int t = (int)(rng(&x) % NT), ci;
		uint64_t b = 1 + rng(&x) % 120, room;
		uint32_t w;

		if (asleep[t] >= 0)
			continue;       /* asleep: only a wake moves it */
		ci = (int)(rng(&x) % NCH);
		writer[t] = rng(&x) & 1;
		bytes[t] = b;
		if (writer[t]) {
			if (!sim_chan_write(&cs, (uint32_t)ci, (uint32_t)t, b)) {
				asleep[t] = ci;
				continue;
			}
			wrote[ci] += b;
			while ((w = sim_chan_reader_to_wake(&cs, (uint32_t)ci)) != NONE) {
				uint64_t got;

				/* the woken reader retries at once */
				asleep[w] = -1;
				got = sim_chan_read(&cs, (uint32_t)ci, w, bytes[w]);
				if (!got)
					asleep[w] = ci;   /* someone else took it */
				read[ci] += got;
			}
		} else {
			uint64_t got = sim_chan_read(&cs, (uint32_t)ci, (uint32_t)t, b);

			if (!got) {
				asleep[t] = ci;
				continue;
			}
			read[ci] += got;
			room = sim_chan_room(&cs, (uint32_t)ci);
			while ((w = sim_chan_writer_to_wake(&cs, (uint32_t)ci, &room)) != NONE) {
				asleep[w] = -1;
				if (!sim_chan_write(&cs, (uint32_t)ci, w, bytes[w])) {
					asleep[w] = ci;
					continue;
				}
				wrote[ci] += bytes[w];
			}
		}
		for (int c = 0; c < NCH; c++) {
			if (wrote[c] != read[c] + (uint64_t)cs.c[c].fill)
				bad++;
			for (int k = 0; k < NT; k++) {
				if (asleep[k] != c)
					continue;
				if (!sim_chan_has_sleeper(&cs, (uint32_t)c, (uint32_t)k))
					bad++;
				if (!writer[k] && (uint64_t)cs.c[c].fill)
					bad++;    /* a reader asleep next to bytes */
				if (writer[k] && (!(uint64_t)cs.c[c].fill ||
						  (uint64_t)cs.c[c].fill + bytes[k] <= cs.c[c].cap))
					bad++;    /* a writer asleep with room */
			}
		}
	}
	CHECK_EQ(bad, 0u);
	CHECK(wrote[0] > 0 && wrote[1] > 0 && wrote[2] > 0);
	sim_chans_release(&cs);
}

/* ---- extraction and replay of a hand-built trace with syscall events ---- */

#define MS 1000000ull
#define US 1000ull

static struct trace_event ev_sys(enum trace_event_type type, uint64_t ts, int cpu, int pid,
				 int64_t fd, int64_t ret)
{
	struct trace_event e = ev_base(type, ts, cpu, pid);

	e.u.syscall.fd = fd;
	e.u.syscall.count = fd >= 0 && (type == TRACE_EV_SYS_ENTER_READ ||
					type == TRACE_EV_SYS_ENTER_WRITE) ? 100 : 0;
	e.u.syscall.ret = ret;
	return e;
}

/*
 * Parent 100 forks reader 200 (CPU 1) and writers 201, 202 (CPU 0).  The
 * reader's first read of fd 3 sleeps; 201's write to fd 4 wakes it (the
 * link); 202's write to fd 4 wakes nobody (linked through its sibling 201:
 * the parent's fd table); 202's write to fd 9 goes nowhere known; the
 * reader's second read takes 202's message without sleeping; a read that
 * fails (EAGAIN) moves nothing.
 */
static size_t chan_events(struct trace_event *ev, int64_t ret202)
{
	size_t n = 0;
	uint64_t t = 1 * MS;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 100, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 0, 120);
	ev[n++] = ev_fork(t + 10 * US, 0, 100, 200);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t + 11 * US, 0, 100, 0, 200, 120, 1);
	ev[n++] = ev_fork(t + 20 * US, 0, 100, 201);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t + 21 * US, 0, 100, 0, 201, 120, 0);
	ev[n++] = ev_fork(t + 30 * US, 0, 100, 202);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP_NEW, t + 31 * US, 0, 100, 0, 202, 120, 0);
	ev[n++] = ev_switch(t + 50 * US, 1, 0, 'R', 120, 200, 120);
	ev[n++] = ev_switch(t + 60 * US, 0, 100, 'S', 120, 201, 120);
	/* the reader sleeps in its read */
	ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 100 * US, 1, 200, 3, 0);
	ev[n++] = ev_switch(t + 110 * US, 1, 200, 'S', 120, 0, 120);
	/* writer 201 writes and wakes it */
	ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_WRITE, t + 200 * US, 0, 201, 4, 0);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 201 * US, 0, 201, 0, 200, 120, 1);
	ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 202 * US, 1, 0, 0x08, 200, 120, 1);
	ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_WRITE, t + 203 * US, 0, 201, -1, 100);
	ev[n++] = ev_switch(t + 210 * US, 1, 0, 'R', 120, 200, 120);
	ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_READ, t + 211 * US, 1, 200, -1, 100);
	ev[n++] = ev_switch(t + 220 * US, 0, 201, 'S', 120, 202, 120);
	/* writer 202: fd 4 (nobody woken), then fd 9 (unknown) */
	ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_WRITE, t + 300 * US, 0, 202, 4, 0);
	ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_WRITE, t + 301 * US, 0, 202, -1, ret202);
	ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_WRITE, t + 310 * US, 0, 202, 9, 0);
	ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_WRITE, t + 311 * US, 0, 202, -1, 100);
	/* the reader's second read finds the message; a third fails */
	ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 400 * US, 1, 200, 3, 0);
	ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_READ, t + 401 * US, 1, 200, -1, 100);
	ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 500 * US, 1, 200, 3, 0);
	ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_READ, t + 501 * US, 1, 200, -1, -11);
	ev[n++] = ev_runtime(t + 1000 * US, 1, 200, 1000);
	ev[n++] = ev_runtime(t + 1000 * US, 0, 202, 1000);
	return n;
}

/* The workload of @n events @ev (exit 2 on an error). */
static struct wl_workload *events_workload(const struct trace_event *ev, size_t n,
					   enum wl_channels mode)
{
	struct wl_options o = { .channels = mode };
	struct sr_error err = { 0 };
	struct wl_builder *b = wl_builder_new(NULL, NULL, &o, &err);
	struct wl_workload *wl;

	if (!b)
		fprintf(stderr, "%s\n", err.msg), exit(2);
	for (size_t i = 0; i < n; i++)
		if (wl_builder_event(b, &ev[i], 0, &err))
			fprintf(stderr, "%s\n", err.msg), exit(2);
	if (!(wl = wl_builder_finish(b, &err)))
		fprintf(stderr, "%s\n", err.msg), exit(2);
	return wl;
}

static struct wl_workload *chan_workload(enum wl_channels mode)
{
	struct trace_event ev[64];

	return events_workload(ev, chan_events(ev, 100), mode);
}

static uint32_t task_of(const struct wl_workload *wl, int32_t pid)
{
	for (uint32_t i = 0; i < wl_nr_tasks(wl); i++)
		if (wl_task(wl, i)->pid == pid)
			return i;
	return NONE;
}

/* How many ops of @kind task @pid has; *first: the index of the first. */
static unsigned int ops_of(const struct wl_workload *wl, int32_t pid, uint8_t kind, uint32_t *first)
{
	uint32_t t = task_of(wl, pid);
	unsigned int n = 0;

	*first = NONE;
	if (t == NONE)
		return 0;
	for (uint32_t k = 0; k < wl_task(wl, t)->nr_ops; k++) {
		if (wl_task_ops(wl, t)[k].kind != kind)
			continue;
		if (!n++)
			*first = k;
	}
	return n;
}

static void test_extract(void)
{
	struct wl_workload *wl = chan_workload(WL_CHANNELS_AUTO), *off;
	const struct wl_chan_stats *st = &wl_facts(wl)->chan;
	const struct wl_op *ops;
	const struct wl_channel *c;
	uint32_t k, r = task_of(wl, 200), wake = NONE;

	CHECK(st->syscalls && st->modelled);
	CHECK_EQ(st->channels, 1u);
	CHECK_EQ(st->unlinked_channels, 0u);
	CHECK_EQ(st->reads, 2u);            /* the EAGAIN one moved nothing */
	CHECK_EQ(st->writes, 3u);
	CHECK_EQ(st->reads_modelled, 2u);
	CHECK_EQ(st->writes_modelled, 2u);  /* fd 9 is linked to nothing */
	CHECK_EQ(st->wakes_explained, 1u);
	CHECK_EQ(st->blocks_explained, 1u);
	CHECK_EQ(wl_nr_channels(wl), 1u);
	c = wl_channel(wl, 0);
	CHECK_EQ(c->reader, r);
	CHECK_EQ(c->rfd, 3);
	CHECK_EQ(c->nr_writers, 2u);
	CHECK_EQ(c->bytes, 200u);
	CHECK_EQ(c->init_fill, 0u);
	CHECK_EQ(c->capacity, UINT64_MAX);  /* no write slept */
	CHECK_EQ(c->wake_fill, UINT64_MAX); /* nor did a read wake a writer */

	/* reader: BLOCK (the channel's) then READ; a second READ; no placeholder left */
	CHECK_EQ(ops_of(wl, 200, WL_OP_READ, &k), 2u);
	ops = wl_task_ops(wl, r);
	CHECK(k > 0 && ops[k - 1].kind == WL_OP_BLOCK && (ops[k - 1].aux & WL_BLOCK_CHANNEL));
	CHECK_EQ(wl_chan_op(wl, ops[k].arg)->chan, 0u);
	CHECK_EQ(wl_chan_op(wl, ops[k].arg)->bytes, 100u);
	CHECK_EQ(wl_chan_op(wl, ops[k].arg)->wake, NONE);
	if (k > 0)
		wake = ops[k - 1].arg;              /* the trace's wake of that sleep */
	/* writer 201: its WAKE is now the WRITE, carrying that wake */
	CHECK_EQ(ops_of(wl, 201, WL_OP_WAKE, &k), 0u);
	CHECK_EQ(ops_of(wl, 201, WL_OP_WRITE, &k), 1u);
	ops = wl_task_ops(wl, task_of(wl, 201));
	CHECK_EQ(wl_chan_op(wl, ops[k].arg)->wake, wake);
	CHECK(wake != NONE && wl_wake(wl, wake)->target == r);
	/* writer 202: one WRITE (fd 4, through the sibling), none for fd 9, its RUNs merged */
	CHECK_EQ(ops_of(wl, 202, WL_OP_WRITE, &k), 1u);
	ops = wl_task_ops(wl, task_of(wl, 202));
	CHECK_EQ(wl_chan_op(wl, ops[k].arg)->wake, NONE);
	CHECK(k > 0 && ops[k - 1].kind == WL_OP_RUN);
	CHECK(ops[k + 1].kind == WL_OP_RUN && (k + 2 >= wl_task(wl, task_of(wl, 202))->nr_ops ||
					       ops[k + 2].kind != WL_OP_RUN));

	/* --channels off: the workload of a trace without syscall events */
	off = chan_workload(WL_CHANNELS_OFF);
	CHECK(wl_facts(off)->chan.syscalls && !wl_facts(off)->chan.modelled);
	CHECK_EQ(wl_nr_channels(off), 0u);
	CHECK_EQ(ops_of(off, 200, WL_OP_READ, &k), 0u);
	CHECK_EQ(ops_of(off, 201, WL_OP_WRITE, &k), 0u);
	CHECK_EQ(ops_of(off, 201, WL_OP_WAKE, &k), 1u);
	r = task_of(off, 200);
	CHECK_EQ(ops_of(off, 200, WL_OP_BLOCK, &k), 1u);
	CHECK(!(wl_task_ops(off, r)[k].aux & WL_BLOCK_CHANNEL));
	wl_free(off);
	wl_free(wl);
}

/*
 * A damaged trace: 202's write returns more than its count (100) - by one
 * byte, or INT64_MAX (a fill sum that overflows).  The kernel never returns
 * more than it was asked to move: the record is left out and counted, the
 * rest of the channel is as before, with the reader's second read now taken
 * from the initial fill.
 */
static void test_extract_damaged(void)
{
	const int64_t rets[] = { 101, INT64_MAX };

	for (int i = 0; i < 2; i++) {
		struct trace_event ev[64];
		struct wl_workload *wl = events_workload(ev, chan_events(ev, rets[i]),
							 WL_CHANNELS_AUTO);
		const struct wl_chan_stats *st = &wl_facts(wl)->chan;
		struct replay_config rc;
		struct replay_result *res;
		struct sr_error err = { 0 };
		unsigned int big = 0;

		CHECK(st->syscalls && st->modelled);
		CHECK_EQ(st->damaged, 1u);
		CHECK_EQ(st->channels, 1u);
		CHECK_EQ(st->writes, 2u);           /* 201's, and 202's to fd 9 */
		CHECK_EQ(st->writes_modelled, 1u);
		CHECK_EQ(st->reads_modelled, 2u);
		CHECK_EQ(wl_nr_channels(wl), 1u);
		if (wl_nr_channels(wl) != 1) {
			wl_free(wl);
			continue;
		}
		CHECK_EQ(wl_channel(wl, 0)->bytes, 100u);
		CHECK_EQ(wl_channel(wl, 0)->init_fill, 100u);
		CHECK_EQ(wl_channel(wl, 0)->nr_writers, 1u);
		for (uint32_t k = 0; k < st->reads_modelled + st->writes_modelled; k++)
			big += wl_chan_op(wl, k)->bytes != 100;
		CHECK_EQ(big, 0u);
		replay_config_default(&rc);
		for (int strict = 0; strict < 2; strict++) {
			rc.channel_strict = strict;
			res = replay_run(wl, &rc, &err);
			CHECK(res != NULL);
			if (res)
				CHECK(!replay_work_unfinished(res));
			replay_result_free(res);
		}
		wl_free(wl);
	}
}

/*
 * Only some of the four syscall events (here the writes'): no channel can
 * be followed; nothing is modelled, the facts do not claim the syscall
 * events, and no placeholder op is left (the writer keeps its WAKE).
 */
static void test_extract_partial_events(void)
{
	struct trace_event ev[64], w[64];
	size_t n = chan_events(ev, 100), m = 0;
	struct wl_workload *wl;
	unsigned int bad = 0;
	uint32_t k;

	for (size_t i = 0; i < n; i++)
		if (ev[i].type != TRACE_EV_SYS_ENTER_READ && ev[i].type != TRACE_EV_SYS_EXIT_READ)
			w[m++] = ev[i];
	CHECK(m < n);
	wl = events_workload(w, m, WL_CHANNELS_AUTO);
	CHECK(!wl_facts(wl)->chan.syscalls && !wl_facts(wl)->chan.modelled);
	CHECK_EQ(wl_facts(wl)->chan.channels, 0u);
	CHECK_EQ(wl_facts(wl)->chan.writes, 0u);
	CHECK_EQ(wl_nr_channels(wl), 0u);
	CHECK_EQ(ops_of(wl, 201, WL_OP_WAKE, &k), 1u);
	for (uint32_t t = 0; t < wl_nr_tasks(wl); t++)
		for (uint32_t j = 0; j < wl_task(wl, t)->nr_ops; j++) {
			uint8_t kd = wl_task_ops(wl, t)[j].kind;

			bad += kd == 0 || kd == WL_OP_READ || kd == WL_OP_WRITE;
		}
	CHECK_EQ(bad, 0u);
	wl_free(wl);
}

/*
 * Capacity and initial fill from a write that sleeps: reader 200 (fd 3)
 * reads 100 bytes nobody wrote in the trace, writer 201 (fd 4) sleeps in its
 * write, the reader's next read wakes it (the link), 201's write completes,
 * the reader reads it.  A @wbytes = 100 write moved nothing before its sleep
 * (at most a page: pipe_write() sleeps before copying): fill then 100 of an
 * initial 200, capacity 100.  A @wbytes = 8192 write had filled the pipe
 * before sleeping: its bytes count at the sleep, initial fill 100, capacity
 * 8192.  Before, a sleep at a fill below the start's was ignored (capacity
 * unbounded).  The read that woke 201 left 0 (8092) bytes: the wake fill.
 */
static void test_extract_capacity(void)
{
	const int64_t wbytes[] = { 100, 8192 };
	const uint64_t init[] = { 200, 100 }, cap[] = { 100, 8192 }, wake[] = { 0, 8092 };

	for (int i = 0; i < 2; i++) {
		struct trace_event ev[32];
		size_t n = 0;
		uint64_t t = 1 * MS;
		struct wl_workload *wl;

		ev[n++] = ev_switch(t, 0, 0, 'R', 120, 201, 120);
		ev[n++] = ev_switch(t, 1, 0, 'R', 120, 200, 120);
		ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 10 * US, 1, 200, 3, 0);
		ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_READ, t + 11 * US, 1, 200, -1, 100);
		ev[n] = ev_sys(TRACE_EV_SYS_ENTER_WRITE, t + 20 * US, 0, 201, 4, 0);
		ev[n++].u.syscall.count = (uint64_t)wbytes[i];
		ev[n++] = ev_switch(t + 21 * US, 0, 201, 'S', 120, 0, 120);
		ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 30 * US, 1, 200, 3, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 31 * US, 1, 200, 0, 201, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 32 * US, 0, 0, 0x08, 201, 120, 0);
		ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_READ, t + 33 * US, 1, 200, -1, 100);
		ev[n++] = ev_switch(t + 40 * US, 0, 0, 'R', 120, 201, 120);
		ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_WRITE, t + 41 * US, 0, 201, -1, wbytes[i]);
		ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 50 * US, 1, 200, 3, 0);
		ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_READ, t + 51 * US, 1, 200, -1, 100);
		ev[n++] = ev_runtime(t + 100 * US, 1, 200, 100 * US);
		ev[n++] = ev_runtime(t + 100 * US, 0, 201, 50 * US);
		wl = events_workload(ev, n, WL_CHANNELS_AUTO);
		CHECK_EQ(wl_facts(wl)->chan.channels, 1u);
		CHECK_EQ(wl_nr_channels(wl), 1u);
		if (wl_nr_channels(wl) == 1) {
			CHECK_EQ(wl_channel(wl, 0)->init_fill, init[i]);
			CHECK_EQ(wl_channel(wl, 0)->capacity, cap[i]);
			/* the fill the read that woke 201 left */
			CHECK_EQ(wl_channel(wl, 0)->wake_fill, wake[i]);
			CHECK_EQ(wl_channel(wl, 0)->bytes, (uint64_t)wbytes[i]);
		}
		wl_free(wl);
	}
}

/* The channel whose read end is task @pid's, NONE. */
static uint32_t chan_of_reader(const struct wl_workload *wl, int32_t pid)
{
	uint32_t t = task_of(wl, pid);

	for (uint32_t c = 0; t != NONE && c < wl_nr_channels(wl); c++)
		if (wl_channel(wl, c)->reader == t)
			return c;
	return NONE;
}

/*
 * Writer 201 feeds reader 200 (its fd 4) and reader 203 (its fd 5), each link
 * made by a write that wakes the sleeping reader.  Its third write to 200
 * sleeps at a fill of 200 bytes, and 200's read wakes it: 200's channel has a
 * capacity of 200 and a wake fill of 100.  203's channel never filled: it has
 * the same writers, so it takes 200's capacity and wake fill (cap_from: 200's
 * channel); before, it was unbounded (and so a pipe, whatever 200's was).
 * With @other, writer 206 feeds 203 too: another set of writers, nothing
 * borrowed.
 */
static void test_extract_capacity_shared(void)
{
	for (int other = 0; other < 2; other++) {
		struct trace_event ev[64];
		size_t n = 0;
		uint64_t t = 1 * MS;
		struct wl_workload *wl;
		uint32_t c200, c203, want_writers, want_from;
		uint64_t want_cap, want_wake;

		ev[n++] = ev_switch(t, 0, 0, 'R', 120, 201, 120);
		ev[n++] = ev_switch(t, 1, 0, 'R', 120, 200, 120);
		ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 10 * US, 1, 200, 3, 0);
		ev[n++] = ev_switch(t + 11 * US, 1, 200, 'S', 120, 203, 120);
		ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 12 * US, 1, 203, 3, 0);
		ev[n++] = ev_switch(t + 13 * US, 1, 203, 'S', 120, 0, 120);
		/* 201 wakes each reader with a message */
		for (int i = 0; i < 2; i++) {
			uint64_t u = t + (20 + 4 * (uint64_t)i) * US;
			int r = i ? 203 : 200;

			ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_WRITE, u, 0, 201, 4 + i, 0);
			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, u + 1 * US, 0, 201, 0, r, 120, 1);
			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, u + 2 * US, 1, 0, 0x08, r, 120, 1);
			ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_WRITE, u + 3 * US, 0, 201, -1, 100);
		}
		ev[n++] = ev_switch(t + 30 * US, 1, 0, 'R', 120, 200, 120);
		ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_READ, t + 31 * US, 1, 200, -1, 100);
		/* two more messages for 200, and a third that does not fit */
		for (int i = 0; i < 2; i++) {
			uint64_t u = t + (40 + 2 * (uint64_t)i) * US;

			ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_WRITE, u, 0, 201, 4, 0);
			ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_WRITE, u + 1 * US, 0, 201, -1, 100);
		}
		ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_WRITE, t + 44 * US, 0, 201, 4, 0);
		ev[n++] = ev_switch(t + 45 * US, 0, 201, 'S', 120, 0, 120);
		/* 200's read makes room and wakes it */
		ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 50 * US, 1, 200, 3, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 51 * US, 1, 200, 0, 201, 120, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 52 * US, 0, 0, 0x08, 201, 120, 0);
		ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_READ, t + 53 * US, 1, 200, -1, 100);
		ev[n++] = ev_switch(t + 55 * US, 1, 200, 'S', 120, 203, 120);
		ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_READ, t + 56 * US, 1, 203, -1, 100);
		ev[n++] = ev_switch(t + 60 * US, 0, 0, 'R', 120, 201, 120);
		ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_WRITE, t + 61 * US, 0, 201, -1, 100);
		if (other) {
			/* 206 wakes 203 asleep in its next read: a second writer */
			ev[n++] = ev_switch(t + 62 * US, 0, 201, 'S', 120, 206, 120);
			ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 70 * US, 1, 203, 3, 0);
			ev[n++] = ev_switch(t + 71 * US, 1, 203, 'S', 120, 0, 120);
			ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_WRITE, t + 72 * US, 0, 206, 9, 0);
			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t + 73 * US, 0, 206, 0, 203, 120, 1);
			ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t + 74 * US, 1, 0, 0x08, 203, 120, 1);
			ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_WRITE, t + 75 * US, 0, 206, -1, 100);
			ev[n++] = ev_switch(t + 80 * US, 1, 0, 'R', 120, 203, 120);
			ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_READ, t + 81 * US, 1, 203, -1, 100);
		}
		ev[n++] = ev_runtime(t + 100 * US, 1, 203, 20 * US);
		ev[n++] = ev_runtime(t + 100 * US, 0, other ? 206 : 201, 20 * US);
		wl = events_workload(ev, n, WL_CHANNELS_AUTO);
		c200 = chan_of_reader(wl, 200);
		c203 = chan_of_reader(wl, 203);
		CHECK_EQ(wl_facts(wl)->chan.channels, 2u);
		CHECK(c200 != NONE && c203 != NONE);
		if (c200 == NONE || c203 == NONE) {
			wl_free(wl);
			continue;
		}
		CHECK_EQ(wl_channel(wl, c200)->capacity, 200u);
		CHECK_EQ(wl_channel(wl, c200)->wake_fill, 100u);
		CHECK_EQ(wl_channel(wl, c200)->cap_from, c200);
		/* 203's: 200's (one writer, the same), or none (206 writes too) */
		want_writers = other ? 2u : 1u;
		want_cap = other ? UINT64_MAX : 200u;
		want_wake = other ? UINT64_MAX : 100u;
		want_from = other ? NONE : c200;
		CHECK_EQ(wl_channel(wl, c203)->nr_writers, want_writers);
		CHECK_EQ(wl_channel(wl, c203)->capacity, want_cap);
		CHECK_EQ(wl_channel(wl, c203)->wake_fill, want_wake);
		CHECK_EQ(wl_channel(wl, c203)->cap_from, want_from);
		wl_free(wl);
	}
}

/*
 * Writer 201 wakes reader 200 (fd 3) and reader 203 (fd 3) through the same
 * fd 4: one fd cannot feed two read ends (a pipe read by two tasks is not
 * modelled), so its writes link nowhere, and both read ends, left with reads
 * and no writes, are not modelled either: the trace's wakes stay.
 */
static void test_extract_ambiguous(void)
{
	struct trace_event ev[64];
	size_t n = 0;
	uint64_t t = 1 * MS;
	struct wl_options o = { .channels = WL_CHANNELS_AUTO };
	struct sr_error err = { 0 };
	struct wl_builder *b = wl_builder_new(NULL, NULL, &o, &err);
	struct wl_workload *wl;
	uint32_t k;

	ev[n++] = ev_switch(t, 0, 0, 'R', 120, 201, 120);
	ev[n++] = ev_switch(t, 1, 0, 'R', 120, 200, 120);
	ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 10 * US, 1, 200, 3, 0);
	ev[n++] = ev_switch(t + 11 * US, 1, 200, 'S', 120, 203, 120);
	ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_READ, t + 20 * US, 1, 203, 3, 0);
	ev[n++] = ev_switch(t + 21 * US, 1, 203, 'S', 120, 0, 120);
	for (int i = 0; i < 2; i++) {
		int r = i ? 203 : 200;
		uint64_t u = t + (100 + 100 * (uint64_t)i) * US;

		ev[n++] = ev_sys(TRACE_EV_SYS_ENTER_WRITE, u, 0, 201, 4, 0);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, u + 1 * US, 0, 201, 0, r, 120, 1);
		ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, u + 2 * US, 1, 0, 0x08, r, 120, 1);
		ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_WRITE, u + 3 * US, 0, 201, -1, 100);
		ev[n++] = ev_switch(u + 10 * US, 1, 0, 'R', 120, r, 120);
		ev[n++] = ev_sys(TRACE_EV_SYS_EXIT_READ, u + 11 * US, 1, r, -1, 100);
		ev[n++] = ev_switch(u + 20 * US, 1, r, 'S', 120, 0, 120);
	}
	ev[n++] = ev_runtime(t + 1000 * US, 0, 201, 1000);
	CHECK(b != NULL);
	for (size_t i = 0; b && i < n; i++)
		CHECK(wl_builder_event(b, &ev[i], 0, &err) == 0);
	wl = wl_builder_finish(b, &err);
	CHECK(wl != NULL);
	if (!wl)
		return;
	CHECK_EQ(wl_facts(wl)->chan.channels, 0u);
	CHECK_EQ(wl_facts(wl)->chan.unlinked_channels, 2u);
	CHECK_EQ(wl_facts(wl)->chan.writes, 2u);
	CHECK_EQ(wl_facts(wl)->chan.writes_modelled, 0u);
	CHECK_EQ(wl_facts(wl)->chan.reads_modelled, 0u);
	CHECK_EQ(ops_of(wl, 201, WL_OP_WAKE, &k), 2u);
	CHECK_EQ(ops_of(wl, 201, WL_OP_WRITE, &k), 0u);
	CHECK_EQ(ops_of(wl, 200, WL_OP_READ, &k), 0u);
	wl_free(wl);
}

static uint64_t count_of(const struct replay_result *res, const char *name)
{
	uint64_t v = 0;

	CHECK(replay_count_get(res, name, &v));
	return v;
}

static uint64_t note_of(const struct replay_result *res, const char *prefix)
{
	unsigned int it = 0;
	const char *text;
	uint64_t v;

	while (replay_note_next(res, &it, &text, &v))
		if (!strncmp(text, prefix, strlen(prefix)))
			return v;
	return 0;
}

/*
 * The replay of that trace, in each mode: the reader sleeps once and the
 * channel's write wakes it (auto, strict), or the trace's wake does (off);
 * the same events either way, as the simulated timing is the trace's.
 */
static void test_replay_modes(void)
{
	struct wl_workload *wl = chan_workload(WL_CHANNELS_AUTO), *off = chan_workload(WL_CHANNELS_OFF);
	struct replay_config rc;
	struct replay_result *res[3];
	struct sr_error err = { 0 };

	replay_config_default(&rc);
	res[0] = replay_run(off, &rc, &err);
	res[1] = replay_run(wl, &rc, &err);
	rc.channel_strict = true;
	res[2] = replay_run(wl, &rc, &err);
	for (int m = 0; m < 3; m++) {
		CHECK(res[m] != NULL);
		if (!res[m])
			continue;
		CHECK_EQ(count_of(res[m], "sched_wakeup"), 1u);
		CHECK_EQ(count_of(res[m], "sched_wakeup_new"), 3u);
		CHECK_EQ(note_of(res[m], "wakes that reached their target before"), 0u);
		CHECK_EQ(note_of(res[m], "channel reads that found their channel empty"), m ? 1u : 0u);
		CHECK_EQ(note_of(res[m], "channel wakeups of a reader"), m ? 1u : 0u);
	}
	CHECK_EQ(count_of(res[1], "sched_switch"), count_of(res[0], "sched_switch"));
	CHECK_EQ(count_of(res[2], "sched_switch"), count_of(res[0], "sched_switch"));
	for (int m = 0; m < 3; m++)
		replay_result_free(res[m]);
	wl_free(wl);
	wl_free(off);
}

/*
 * Random event streams with syscall events (switches, wakes, reads and
 * writes in any order, failed and unfinished syscalls): the extraction
 * repairs what it must, and every mode replays them to the end, the same
 * way twice (the fill bookkeeping is checked by test_random_invariants).
 */
static void test_random_streams(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned int failed = 0, differ = 0, runs = 0, with_chan = 0;

	for (int round = 0; round < 60; round++) {
		struct trace_event ev[400];
		size_t n = 0;
		uint64_t t = 1 * MS;
		int cur[2] = { 0, 0 };

		ev[n++] = ev_switch(t, 0, 0, 'R', 120, 300, 120);
		ev[n++] = ev_switch(t, 1, 0, 'R', 120, 301, 120);
		cur[0] = 300;
		cur[1] = 301;
		while (n < 380) {
			int cpu = (int)(rng(&x) & 1), pid = 300 + (int)(rng(&x) % 6), r = (int)(rng(&x) % 10);

			t += 1 + rng(&x) % (20 * US);
			if (r < 3 && cur[cpu]) {
				enum trace_event_type ty = TRACE_EV_SYS_ENTER_READ + (int)(rng(&x) % 4);

				ev[n++] = ev_sys(ty, t, cpu, cur[cpu], (int64_t)(3 + rng(&x) % 3),
						 (int64_t)(rng(&x) % 5) * 50 - 50);
			} else if (r < 6) {
				char st = "RSSD"[rng(&x) % 4];

				ev[n++] = ev_switch(t, cpu, cur[cpu], cur[cpu] ? st : 'R', 120,
						    pid == cur[cpu ^ 1] ? 0 : pid, 120);
				cur[cpu] = pid == cur[cpu ^ 1] ? 0 : pid;
			} else if (r < 8 && cur[cpu]) {
				ev[n++] = ev_wake(TRACE_EV_SCHED_WAKING, t, cpu, cur[cpu], 0, pid, 120,
						  (int)(rng(&x) & 1));
			} else {
				/* a task on a CPU is woken there (ttwu_runnable()) */
				ev[n++] = ev_wake(TRACE_EV_SCHED_WAKEUP, t, cpu, cur[cpu], 0, pid, 120,
						  pid == cur[cpu ^ 1] ? cpu ^ 1 : cpu);
			}
		}
		for (int mode = 0; mode < 2; mode++) {
			struct wl_options o = { .channels = WL_CHANNELS_AUTO };
			struct sr_error err = { 0 };
			struct wl_builder *b = wl_builder_new(NULL, NULL, &o, &err);
			struct wl_workload *wl;
			struct replay_config rc;
			struct replay_result *a, *c;
			uint64_t va, vc;

			for (size_t i = 0; b && i < n; i++)
				if (wl_builder_event(b, &ev[i], 0, &err))
					failed++;
			if (!b || !(wl = wl_builder_finish(b, &err))) {
				failed++;
				continue;
			}
			with_chan += wl_nr_channels(wl) > 0 && !mode;
			replay_config_default(&rc);
			rc.channel_strict = mode;
			a = replay_run(wl, &rc, &err);
			c = replay_run(wl, &rc, &err);
			runs++;
			if (!a || !c) {
				failed++;
			} else {
				const char *names[] = { "sched_switch", "sched_wakeup", "sched_stat_runtime" };

				for (int k = 0; k < 3; k++) {
					va = vc = 0;
					replay_count_get(a, names[k], &va);
					replay_count_get(c, names[k], &vc);
					differ += va != vc;
				}
				failed += replay_work_unfinished(a);
			}
			replay_result_free(a);
			replay_result_free(c);
			wl_free(wl);
		}
	}
	CHECK_EQ(runs, 120u);
	if (with_chan < 10)
		fprintf(stderr, "random streams with channels: %u of 60\n", with_chan);
	CHECK(with_chan >= 10);
	CHECK_EQ(failed, 0u);
	CHECK_EQ(differ, 0u);
}

/*
 * A real capture with the syscall events (traces/small-chan.dat when it is
 * there): channels found, every channel op naming a channel and moving
 * bytes, every channel sleep followed by its READ/WRITE, and both modes
 * replaying the whole traced work.  77 (skipped) when the file is absent.
 */
static int test_trace(const char *path)
{
	struct wl_options o = { .channels = WL_CHANNELS_AUTO };
	struct sr_error err = { 0 };
	struct wl_workload *wl;
	unsigned int bad = 0, blocks = 0, nops = 0;

	if (access(path, R_OK)) {
		printf("skip: %s absent\n", path);
		return 77;
	}
	if (!(wl = wl_extract(path, &o, &err))) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	CHECK(wl_facts(wl)->chan.syscalls && wl_facts(wl)->chan.modelled);
	CHECK(wl_facts(wl)->chan.channels > 0);
	CHECK(wl_facts(wl)->chan.reads_modelled > 0 && wl_facts(wl)->chan.writes_modelled > 0);
	CHECK(wl_facts(wl)->chan.reads_modelled <= wl_facts(wl)->chan.reads);
	CHECK(wl_facts(wl)->chan.writes_modelled <= wl_facts(wl)->chan.writes);
	for (uint32_t t = 0; t < wl_nr_tasks(wl); t++) {
		const struct wl_op *ops = wl_task_ops(wl, t);
		uint32_t n = wl_task(wl, t)->nr_ops;

		for (uint32_t k = 0; k < n; k++) {
			if (ops[k].kind == WL_OP_READ || ops[k].kind == WL_OP_WRITE) {
				const struct wl_chan_op *co = wl_chan_op(wl, ops[k].arg);

				nops++;
				bad += co->chan >= wl_nr_channels(wl) || !co->bytes;
				bad += ops[k].kind == WL_OP_READ && wl_channel(wl, co->chan)->reader != t;
			}
			if (ops[k].kind == WL_OP_BLOCK && (ops[k].aux & WL_BLOCK_CHANNEL)) {
				blocks++;
				bad += k + 1 >= n || (ops[k + 1].kind != WL_OP_READ &&
						      ops[k + 1].kind != WL_OP_WRITE);
			}
			bad += ops[k].kind == 0 || (k && ops[k].kind == WL_OP_RUN &&
						    ops[k - 1].kind == WL_OP_RUN);
		}
	}
	CHECK_EQ(bad, 0u);
	CHECK_EQ(nops, (unsigned int)(wl_facts(wl)->chan.reads_modelled +
				      wl_facts(wl)->chan.writes_modelled));
	CHECK_EQ(blocks, (unsigned int)wl_facts(wl)->chan.blocks_explained);
	{
		/*
		 * Against the workload without channels: the same tasks, the
		 * same CPU work per task, the same sleeps and hand-off waits
		 * (a channel only decides who sleeps where and who wakes whom).
		 */
		struct wl_options oo = { .channels = WL_CHANNELS_OFF };
		struct wl_workload *off = wl_extract(path, &oo, &err);
		unsigned int differ = 0;

		CHECK(off != NULL);
		CHECK(off && wl_nr_tasks(off) == wl_nr_tasks(wl));
		for (uint32_t t = 0; off && t < wl_nr_tasks(wl) && t < wl_nr_tasks(off); t++) {
			uint64_t run[2] = { 0, 0 }, blk[2] = { 0, 0 }, wait[2] = { 0, 0 };

			for (int m = 0; m < 2; m++) {
				const struct wl_workload *w = m ? off : wl;
				const struct wl_op *ops = wl_task_ops(w, t);

				for (uint32_t k = 0; k < wl_task(w, t)->nr_ops; k++) {
					run[m] += ops[k].kind == WL_OP_RUN ? ops[k].value : 0;
					blk[m] += ops[k].kind == WL_OP_BLOCK;
					wait[m] += ops[k].kind == WL_OP_WAIT;
				}
			}
			differ += run[0] != run[1] || blk[0] != blk[1] || wait[0] != wait[1];
		}
		CHECK_EQ(differ, 0u);
		wl_free(off);
	}
	for (int strict = 0; strict < 2; strict++) {
		struct replay_config rc;
		struct replay_result *res;

		replay_config_default(&rc);
		rc.channel_strict = strict;
		res = replay_run(wl, &rc, &err);
		CHECK(res != NULL);
		if (res)
			CHECK(!replay_work_unfinished(res));
		replay_result_free(res);
	}
	wl_free(wl);
	CHECK_DONE();
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return test_trace(argv[1]);
	test_read_empty_sleeps();
	test_read_takes_what_is_there();
	test_capacity();
	test_readers_fifo();
	test_pipe_writer_wakes();
	test_socket_writer_wakes();
	test_random_invariants();
	test_extract();
	test_extract_ambiguous();
	test_extract_damaged();
	test_extract_partial_events();
	test_extract_capacity();
	test_extract_capacity_shared();
	test_replay_modes();
	test_random_streams();
	CHECK_DONE();
}
