// SPDX-License-Identifier: GPL-2.0
/* The simulation's channel state: see sim_chan.h. */
#include <stdlib.h>

#include "sim_chan.h"

#define NONE UINT32_MAX

int sim_chans_init(struct sim_chans *cs, uint32_t nr, uint32_t nr_tasks)
{
	cs->nr = nr;
	cs->nr_tasks = nr_tasks;
	cs->c = calloc(nr ? nr : 1, sizeof(*cs->c));
	cs->next = malloc((nr_tasks ? nr_tasks : 1) * sizeof(*cs->next));
	cs->want = calloc(nr_tasks ? nr_tasks : 1, sizeof(*cs->want));
	cs->woken_writer = calloc(nr_tasks ? nr_tasks : 1, sizeof(*cs->woken_writer));
	if (!cs->c || !cs->next || !cs->want || !cs->woken_writer) {
		sim_chans_release(cs);
		return -1;
	}
	for (uint32_t i = 0; i < nr; i++)
		cs->c[i] = (struct sim_chan){ .cap = UINT64_MAX, .rd_head = NONE, .rd_tail = NONE,
					      .wr_head = NONE, .wr_tail = NONE };
	for (uint32_t t = 0; t < nr_tasks; t++)
		cs->next[t] = NONE;
	return 0;
}

void sim_chans_release(struct sim_chans *cs)
{
	if (!cs)
		return;
	free(cs->c);
	free(cs->next);
	free(cs->want);
	free(cs->woken_writer);
	cs->woken_writer = NULL;
	cs->c = NULL;
	cs->next = NULL;
	cs->want = NULL;
	cs->nr = 0;
}

static void enqueue(struct sim_chans *cs, uint32_t *head, uint32_t *tail, uint32_t task)
{
	cs->next[task] = NONE;
	if (*tail == NONE)
		*head = task;
	else
		cs->next[*tail] = task;
	*tail = task;
}

static uint32_t dequeue(struct sim_chans *cs, uint32_t *head, uint32_t *tail)
{
	uint32_t t = *head;

	if (t == NONE)
		return NONE;
	*head = cs->next[t];
	if (*head == NONE)
		*tail = NONE;
	cs->next[t] = NONE;
	return t;
}

/* A write of @bytes does not fit: the channel holds bytes and they would exceed its capacity. */
static bool full_for(const struct sim_chan *c, uint64_t bytes)
{
	return c->fill > 0 && (c->cap < bytes || (uint64_t)c->fill > c->cap - bytes);
}

/*
 * @task sleeps in its WRITE of @bytes; a woken pipe writer that sleeps again
 * is no longer on its way to pass the wake on.
 */
static void writer_sleeps(struct sim_chans *cs, struct sim_chan *c, uint32_t task, uint64_t bytes)
{
	if (cs->woken_writer[task] && c->kind == SIM_CHAN_PIPE && c->woken)
		c->woken--;
	cs->want[task] = bytes;
	enqueue(cs, &c->wr_head, &c->wr_tail, task);
}

static int64_t add_sat(int64_t a, uint64_t b)
{
	return b > (uint64_t)(INT64_MAX - (a > 0 ? a : 0)) ? INT64_MAX : a + (int64_t)b;
}

uint64_t sim_chan_read(struct sim_chans *cs, uint32_t ci, uint32_t task, uint64_t want)
{
	struct sim_chan *c = &cs->c[ci];
	uint64_t got;

	if (c->fill <= 0) {
		enqueue(cs, &c->rd_head, &c->rd_tail, task);
		return 0;
	}
	got = want && want < (uint64_t)c->fill ? want : (uint64_t)c->fill;
	c->fill -= (int64_t)got;
	return got;
}

bool sim_chan_write(struct sim_chans *cs, uint32_t ci, uint32_t task, uint64_t bytes)
{
	struct sim_chan *c = &cs->c[ci];

	/*
	 * A write into an empty channel always goes in (the kernel's writes
	 * what fits and sleeps for the rest; a message larger than the whole
	 * channel is not modelled in parts).
	 */
	if (full_for(c, bytes)) {
		writer_sleeps(cs, c, task, bytes);
		return false;
	}
	c->fill = add_sat(c->fill, bytes);
	return true;
}

void sim_chan_take(struct sim_chans *cs, uint32_t ci, uint64_t bytes)
{
	struct sim_chan *c = &cs->c[ci];

	c->fill = bytes > (uint64_t)INT64_MAX || c->fill < INT64_MIN + (int64_t)bytes ?
		INT64_MIN : c->fill - (int64_t)bytes;
}

void sim_chan_put(struct sim_chans *cs, uint32_t ci, uint64_t bytes)
{
	cs->c[ci].fill = add_sat(cs->c[ci].fill, bytes);
}

bool sim_chan_wait_read(struct sim_chans *cs, uint32_t ci, uint32_t task)
{
	struct sim_chan *c = &cs->c[ci];

	if (c->fill > 0)
		return false;
	enqueue(cs, &c->rd_head, &c->rd_tail, task);
	return true;
}

bool sim_chan_wait_write(struct sim_chans *cs, uint32_t ci, uint32_t task, uint64_t bytes)
{
	struct sim_chan *c = &cs->c[ci];

	if (!full_for(c, bytes))
		return false;
	writer_sleeps(cs, c, task, bytes);
	return true;
}

uint32_t sim_chan_reader_to_wake(struct sim_chans *cs, uint32_t ci)
{
	struct sim_chan *c = &cs->c[ci];

	if (c->fill <= 0)
		return NONE;
	return dequeue(cs, &c->rd_head, &c->rd_tail);
}

uint64_t sim_chan_room(const struct sim_chans *cs, uint32_t ci)
{
	const struct sim_chan *c = &cs->c[ci];

	if (c->cap == UINT64_MAX)
		return UINT64_MAX;
	if (c->fill <= 0)
		return c->cap;
	return (uint64_t)c->fill >= c->cap ? 0 : c->cap - (uint64_t)c->fill;
}

uint32_t sim_chan_writer_to_wake(struct sim_chans *cs, uint32_t ci, uint64_t *room)
{
	struct sim_chan *c = &cs->c[ci];
	bool empty = c->fill <= 0 && *room == sim_chan_room(cs, ci);

	/*
	 * The first in sleep order whose write fits (an empty channel takes any
	 * write: sim_chan_write()); one that does not fit does not hold back
	 * the others (each woken kernel writer re-checks pipe_writable()).
	 */
	for (uint32_t t = c->wr_head, prev = NONE; t != NONE; prev = t, t = cs->next[t]) {
		if (cs->want[t] > *room && !empty)
			continue;
		*room = cs->want[t] > *room ? 0 : *room - cs->want[t];
		if (prev == NONE)
			c->wr_head = cs->next[t];
		else
			cs->next[prev] = cs->next[t];
		if (c->wr_tail == t)
			c->wr_tail = prev;
		cs->next[t] = NONE;
		return t;
	}
	return NONE;
}

bool sim_chan_has_sleeper(const struct sim_chans *cs, uint32_t ci, uint32_t task)
{
	const struct sim_chan *c = &cs->c[ci];

	for (uint32_t t = c->rd_head; t != NONE; t = cs->next[t])
		if (t == task)
			return true;
	for (uint32_t t = c->wr_head; t != NONE; t = cs->next[t])
		if (t == task)
			return true;
	return false;
}

bool sim_chan_was_full(const struct sim_chans *cs, uint32_t ci)
{
	const struct sim_chan *c = &cs->c[ci];

	if (c->wr_head == NONE)
		return false;
	return full_for(c, cs->want[c->wr_head]) || (c->kind == SIM_CHAN_PIPE && !c->woken);
}

/* Dequeue the first sleeping writer if its write fits now. */
static uint32_t head_if_fits(struct sim_chans *cs, struct sim_chan *c)
{
	uint32_t t = c->wr_head;

	if (t == NONE || full_for(c, cs->want[t]))
		return NONE;
	dequeue(cs, &c->wr_head, &c->wr_tail);
	cs->woken_writer[t] = true;
	c->woken++;
	return t;
}

uint32_t sim_chan_read_wakes(struct sim_chans *cs, uint32_t ci, bool was_full, unsigned int nth,
			     uint64_t *room)
{
	struct sim_chan *c = &cs->c[ci];

	if (c->kind == SIM_CHAN_PIPE)
		return was_full && !nth ? head_if_fits(cs, c) : NONE;
	if (c->fill > 0 && (uint64_t)c->fill > c->wake_fill)
		return NONE;
	return sim_chan_writer_to_wake(cs, ci, room);
}

uint32_t sim_chan_write_done(struct sim_chans *cs, uint32_t ci, uint32_t task)
{
	struct sim_chan *c = &cs->c[ci];
	bool next = cs->woken_writer[task];

	cs->woken_writer[task] = false;
	if (!next || c->kind != SIM_CHAN_PIPE)
		return NONE;
	if (c->woken)
		c->woken--;
	return head_if_fits(cs, c);
}
