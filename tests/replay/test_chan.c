// SPDX-License-Identifier: GPL-2.0
/*
 * The simulation's channel state (replay/sim_chan.h): a READ of an empty
 * channel sleeps and a WRITE wakes it, a READ takes at most what is there,
 * a WRITE that does not fit sleeps until a READ makes room, sleepers wake
 * in the order they slept; and, over random operation sequences, bytes are
 * conserved and no task sleeps on a channel that could serve it.
 */
#include <stdint.h>

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

int main(void)
{
	test_read_empty_sleeps();
	test_read_takes_what_is_there();
	test_capacity();
	test_readers_fifo();
	test_random_invariants();
	CHECK_DONE();
}
