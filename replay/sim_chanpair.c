// SPDX-License-Identifier: GPL-2.0
/*
 * The re-pairing of a reader's channel wakes with its sleeps
 * (--channel-wakes, --channel-races, --channel-burst; docs/replay.md,
 * "Channels"): the trace pairs each sleep of a reader that several writers
 * wake with the writer that came first on the hardware, the simulation's
 * writers come in their own order, and these rules let whichever channel
 * wake comes first end the sleep, as pipe_write()'s wake of the reader's
 * wait queue does.  sim_bind_blocks() builds the pairing tables at set-up
 * (sim.block_wake, sim.wake_block, sim.chan_next, sim.chan_race: allocated
 * only under one of the options); the loop (sim.c) asks sim_block_wake()
 * which wake ends a BLOCK, sim_chan_take_early() at a reader's sleep,
 * sim_chan_wakes_sleeper() when a wake reaches a sleeping reader and
 * sim_chan_push() when it comes before the sleep.  Nothing here schedules,
 * wakes or emits: it only re-pairs wakes with BLOCKs and counts them
 * (SIM_NOTE_CHANNEL_REPAIRED, SIM_NOTE_CHANNEL_RACES).
 */
#include <stdlib.h>

#include "sim_local.h"

/* ---- set-up ------------------------------------------------------------- */

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * replay_config.channel_races: a wake that ended a sleep of its target while
 * racing with it (WL_WAKE_ON_CPU | WL_WAKE_ENDS_BLOCK; the extraction leaves
 * those out of WL_WAKE_CHANNEL) is re-paired like a channel wake when its
 * (target, waker) pair has channel wakes: in the kernel the reader's sleep
 * on its pipe or socket ends at whichever writer's wake_up of the wait
 * queue comes first, whether or not that writer raced with the reader's
 * schedule().  Counted in SIM_NOTE_CHANNEL_RACES.
 */
static int sim_mark_channel_races(struct sim *s)
{
	uint32_t nw = wl_nr_wakes(s->wl);
	uint64_t *keys = malloc((nw ? nw : 1) * sizeof(*keys));
	size_t n = 0;

	s->chan_race = calloc(nw ? nw : 1, sizeof(*s->chan_race));
	if (!keys || !s->chan_race) {
		free(keys);
		return -1;
	}
	for (uint32_t w = 0; w < nw; w++)
		if (s->wakes[w].flags & WL_WAKE_CHANNEL)
			keys[n++] = (uint64_t)s->wakes[w].target << 32 | s->wakes[w].waker;
	qsort(keys, n, sizeof(*keys), cmp_key);
	for (uint32_t w = 0; w < nw; w++) {
		const struct wl_wake *wk = &s->wakes[w];
		uint64_t key = (uint64_t)wk->target << 32 | wk->waker;

		if ((wk->flags & (WL_WAKE_ON_CPU | WL_WAKE_ENDS_BLOCK)) !=
		    (WL_WAKE_ON_CPU | WL_WAKE_ENDS_BLOCK) ||
		    (wk->flags & (WL_WAKE_SPURIOUS | WL_WAKE_NEW | WL_WAKE_CHANNEL)) ||
		    wk->src != WL_SRC_TASK || wk->waker == WL_NONE || s->wake_block[w] == WL_NONE ||
		    !n || !bsearch(&key, keys, n, sizeof(*keys), cmp_key))
			continue;
		s->chan_race[w] = 1;
		s->notes[SIM_NOTE_CHANNEL_RACES]++;
	}
	free(keys);
	return 0;
}

/* replay_config.channel_wakes: the trace's pairing of wakes and the BLOCKs they end. */
int sim_bind_blocks(struct sim *s)
{
	uint32_t nw = wl_nr_wakes(s->wl), nops = 0;

	for (uint32_t i = 0; i < s->nr_tasks; i++)
		if (s->wt[i].first_op + s->wt[i].nr_ops > nops)
			nops = s->wt[i].first_op + s->wt[i].nr_ops;
	s->block_wake = malloc((nops ? nops : 1) * sizeof(*s->block_wake));
	s->wake_block = malloc((nw ? nw : 1) * sizeof(*s->wake_block));
	s->chan_next = malloc((nw ? nw : 1) * sizeof(*s->chan_next));
	if (!s->block_wake || !s->wake_block || !s->chan_next)
		return -1;
	for (uint32_t w = 0; w < nw; w++) {
		s->wake_block[w] = WL_NONE;
		s->chan_next[w] = WL_NONE;
	}
	for (uint32_t i = 0; i < s->nr_tasks; i++) {
		const struct wl_task *t = &s->wt[i];

		for (uint32_t k = 0; k < t->nr_ops; k++) {
			const struct wl_op *op = &s->ops[t->first_op + k];

			s->block_wake[t->first_op + k] = WL_NONE;
			if (op->kind != WL_OP_BLOCK || op->arg >= nw)
				continue;
			s->block_wake[t->first_op + k] = op->arg;
			s->wake_block[op->arg] = k;
		}
	}
	return s->cfg.channel_races ? sim_mark_channel_races(s) : 0;
}

/* ---- the run ------------------------------------------------------------ */

/*
 * replay_config.channel_wakes.  The kernel's reader sleeps on its channel
 * and the first writer ends the sleep, whoever it is (pipe_read() waits on
 * pipe->rd_wait, pipe_write() wakes it).  The trace pairs each sleep of the
 * reader with the writer that came first on the hardware; the simulated
 * writers come in their own order.  So channel wakes are paired again as
 * they come: one that reaches its reader asleep on another channel wake's
 * sleep ends that sleep (the two exchange sleeps), and a reader reaching a
 * channel sleep while a channel wake for a later sleep is already there
 * takes the oldest such wake (the message is in the pipe: the early-wake
 * rules of sim_work.c's sim_run_ops() apply).  sim.block_wake and sim.wake_block hold the
 * pairing; without the option they are not allocated and each BLOCK is
 * ended by the trace's wake.
 */
uint32_t sim_block_wake(const struct sim *s, uint32_t ti, uint32_t k)
{
	uint32_t g = s->wt[ti].first_op + k;

	return s->block_wake ? s->block_wake[g] : s->ops[g].arg;
}

/*
 * The whole of channel_wakes' re-pairing (channel_wakes or channel_races),
 * not only channel_burst's (a sleeper freed by the burst on its CPU).
 */
static bool chan_repair_all(const struct sim *s)
{
	return s->block_wake && (s->cfg.channel_wakes || s->cfg.channel_races);
}

/* Wake @wi is re-paired (WL_WAKE_CHANNEL, or a race of a channel pair: channel_races). */
static bool chan_wake_of(const struct sim *s, uint32_t wi)
{
	return (s->wakes[wi].flags & WL_WAKE_CHANNEL) || (s->chan_race && s->chan_race[wi]);
}

/* Wakes @a and @b of task @ti end sleeps of one kind, both of a channel. */
static bool chan_pairable(const struct sim *s, uint32_t ti, uint32_t a, uint32_t b)
{
	const struct wl_op *ops = &s->ops[s->wt[ti].first_op];
	uint32_t ka, kb;

	if (!s->block_wake || a == b || !chan_wake_of(s, a) || !chan_wake_of(s, b))
		return false;
	ka = s->wake_block[a];
	kb = s->wake_block[b];
	return ka != WL_NONE && kb != WL_NONE && ops[ka].value == ops[kb].value &&
	       ops[ka].aux == ops[kb].aux;
}

static void chan_exchange(struct sim *s, uint32_t ti, uint32_t a, uint32_t b)
{
	uint32_t first = s->wt[ti].first_op, ka = s->wake_block[a], kb = s->wake_block[b];

	s->block_wake[first + ka] = b;
	s->block_wake[first + kb] = a;
	s->wake_block[a] = kb;
	s->wake_block[b] = ka;
	s->notes[SIM_NOTE_CHANNEL_REPAIRED]++;
}

/* Channel wake @wi came before its reader reached its sleep: queue it. */
void sim_chan_push(struct sim *s, uint32_t wi)
{
	struct sim_task *t = &s->tasks[s->wakes[wi].target];

	if (!chan_repair_all(s) || !chan_wake_of(s, wi))
		return;
	s->chan_next[wi] = WL_NONE;
	if (t->chan_tail == WL_NONE)
		t->chan_head = wi;
	else
		s->chan_next[t->chan_tail] = wi;
	t->chan_tail = wi;
}

/*
 * Task @ti reaches its BLOCK @k, which wake @wi ends and which has not come
 * yet: the oldest channel wake already there for a later sleep ends it
 * instead.  Returns the wake that ends the block now.
 */
uint32_t sim_chan_take_early(struct sim *s, uint32_t ti, uint32_t k, uint32_t wi)
{
	struct sim_task *t = &s->tasks[ti];

	if (!chan_repair_all(s) || !chan_wake_of(s, wi))
		return wi;
	while (t->chan_head != WL_NONE) {
		uint32_t e = t->chan_head;
		bool stale = !s->early[e] || s->wake_block[e] <= k;   /* consumed meanwhile */

		if (!stale && !chan_pairable(s, ti, wi, e))
			return wi;
		t->chan_head = s->chan_next[e];
		if (t->chan_head == WL_NONE)
			t->chan_tail = WL_NONE;
		if (!stale) {
			chan_exchange(s, ti, wi, e);
			return e;
		}
	}
	return wi;
}

/*
 * replay_config.channel_burst: whether wake @wi, made on @waker_cpu, comes
 * from the write burst running on its asleep reader @t's CPU.  The kernel's
 * pipe_write() wakes the reader's rd_wait at each write
 * (wake_up_interruptible_sync_poll()), whoever writes; the trace shows
 * that, in a sender's burst, as 37-106 wakings of which some go onto the
 * sender's own CPU and queue behind it.  The record must come from a WAKE
 * op of the waker while it is current there (not a wake delivered at its
 * trace time), and: PLACE, its wakeup goes to that CPU (sim.c's
 * traced_cpu() choice, without ending a displacement); PREV, the reader last ran there;
 * OWN, both.
 */
static bool chan_burst_frees(const struct sim *s, const struct sim_task *t,
			     const struct wl_wake *w, int waker_cpu)
{
	int place;

	if (waker_cpu < 0 || waker_cpu >= s->nr_cpus || w->waker >= s->nr_tasks ||
	    s->cpus[waker_cpu].curr != (int32_t)w->waker)
		return false;
	if (s->cfg.channel_burst != REPLAY_CHANNEL_BURST_PLACE && t->cpu != waker_cpu)
		return false;
	if (s->cfg.channel_burst == REPLAY_CHANNEL_BURST_PREV)
		return true;
	place = sim_traced_keeps_displaced(t, w) ? t->cpu : w->cpu;
	return place == waker_cpu;
}

/*
 * Wake @wi, made on @waker_cpu (-1: at its trace time), reaches task @ti
 * asleep on another wake's BLOCK (the one before its current op): a channel
 * wake for a later sleep ends this one (channel_wakes; under channel_burst
 * only where chan_burst_frees()).
 */
bool sim_chan_wakes_sleeper(struct sim *s, uint32_t ti, uint32_t wi, int waker_cpu)
{
	struct sim_task *t = &s->tasks[ti];
	uint32_t cur;

	/* t->standin: its wake is spent on a stand-in to come (--early-wakes sleep) */
	if (!s->block_wake || t->st != SIM_BLOCKED || t->waiting == WL_NONE ||
	    s->early[t->waiting] || t->standin || !chan_pairable(s, ti, wi, t->waiting))
		return false;
	if (!chan_repair_all(s) && !chan_burst_frees(s, t, &s->wakes[wi], waker_cpu))
		return false;
	cur = s->wake_block[t->waiting];
	if (cur + 1 != t->op || s->wake_block[wi] <= cur)
		return false;
	chan_exchange(s, ti, wi, t->waiting);
	t->waiting = wi;
	return true;
}
