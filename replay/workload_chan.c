// SPDX-License-Identifier: GPL-2.0
/*
 * Workload extraction, channels (docs/replay.md, "Channels"): the pipes and
 * unix stream sockets whose fill level the syscall events
 * syscalls:sys_{enter,exit}_{read,write} let the replay follow.
 *
 * A write to a non-empty pipe wakes nobody and leaves no sched event: the
 * sched trace shows which writes woke a reader, not which writes fed it.
 * With the syscall events each read and write of a fair task is a record
 * (fd, bytes moved, where in the task's work), and the channel a write feeds
 * is found from the wakes:
 *   - a sched_waking by the writer inside its write (between sys_enter_write
 *     and sys_exit_write) that ended a sleep of a task inside a read of fd r
 *     links the writer's fd to the read end (reader task, r) - pipe_write()
 *     wakes pipe->rd_wait, sock_def_readable() the socket's wait queue, both
 *     from the writer's context;
 *   - a wake by a reader inside its read that ended a sleep inside a write
 *     links the same way (pipe_read() waking wr_wait, unix_write_space());
 *   - a write that wakes nobody goes where the same fd of the same writer
 *     goes, else where the same fd of a sibling goes (a task forked by the
 *     same task: a copy of the same fd table; the key is the immediate
 *     parent, not older ancestors), if that is one place.
 * A read end that no write feeds, or that its linked writes cannot explain
 * (reads taking bytes the writes have not put there by more than a default
 * pipe's capacity), is not modelled: its tasks keep their wake records.
 *
 * During the pass the builder (workload.c) calls the wl_chanb_* hooks; each
 * read or write leaves a placeholder op (WL_OP_READ/WL_OP_WRITE with aux
 * WL_CHANB_PENDING) where the bytes move: at the sleep inside it, else at its
 * exit.  wl_chanb_finish() resolves them: placeholders of modelled channels
 * become READ/WRITE ops, the writer's WAKE that woke a sleeping reader
 * becomes the write itself (the sleep is decided by the channel now: the
 * reader's BLOCK is marked WL_BLOCK_CHANNEL), every other placeholder is
 * dropped (kind 0, compacted away by the builder).
 */
#include <stdlib.h>
#include <string.h>

#include "workload_local.h"

enum { REC_VOID = 0x1, REC_EXITED = 0x2 };

struct rec {
	uint64_t ts_exit;      /* sys_exit */
	uint64_t ts_wake;      /* the first wake by the task inside it, 0 none */
	uint64_t ts_block;     /* its first sleep, 0 none */
	int64_t fd;
	uint64_t count;        /* sys_enter's count: the most the syscall can move */
	int64_t ret;
	uint32_t task;
	uint32_t op;           /* the placeholder op, WL_NONE */
	uint32_t block_op;     /* the BLOCK of its first sleep, WL_NONE */
	uint32_t chan;         /* resolved channel, WL_NONE */
	uint8_t kind;          /* enum wl_sys_kind */
	uint8_t flags;
};

/* a wake made by a task inside one of its records */
struct wake_in {
	uint32_t wake, rec, op;
	uint64_t ts;
};

/* a link: writer's fd -> read end */
struct link {
	uint32_t key;          /* the writer task, or its parent (siblings) */
	uint32_t chan;
	int64_t fd;
};

struct wl_chanb {
	WL_VEC(struct rec) recs;
	WL_VEC(struct wake_in) wins;
	uint32_t *open;        /* per task: its record in progress, WL_NONE */
	uint32_t nr_open;
	uint64_t damaged;      /* exits whose ret exceeds what the syscall could move */
};

struct wl_chanb *wl_chanb_new(void)
{
	return calloc(1, sizeof(struct wl_chanb));
}

void wl_chanb_free(struct wl_chanb *cb)
{
	if (!cb)
		return;
	free(cb->recs.v);
	free(cb->wins.v);
	free(cb->open);
	free(cb);
}

static uint32_t open_of(const struct wl_chanb *cb, uint32_t t)
{
	return t < cb->nr_open ? cb->open[t] : WL_NONE;
}

static int set_open(struct wl_chanb *cb, uint32_t t, uint32_t r)
{
	if (t >= cb->nr_open) {
		uint32_t n = cb->nr_open ? cb->nr_open : 64;
		uint32_t *p;

		while (n <= t)
			n *= 2;
		if (!(p = realloc(cb->open, n * sizeof(*p))))
			return -1;
		for (uint32_t i = cb->nr_open; i < n; i++)
			p[i] = WL_NONE;
		cb->open = p;
		cb->nr_open = n;
	}
	cb->open[t] = r;
	return 0;
}

int wl_chanb_enter(struct wl_chanb *cb, uint32_t t, enum wl_sys_kind kind, int64_t fd,
		   uint64_t count)
{
	uint32_t o = open_of(cb, t);
	struct rec *r;

	if (o != WL_NONE)
		cb->recs.v[o].flags |= REC_VOID;    /* its exit was lost */
	WL_VEC_PUSH(cb->recs, oom);
	r = &cb->recs.v[cb->recs.n];
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->count = count;
	r->task = t;
	r->op = r->block_op = r->chan = WL_NONE;
	r->kind = (uint8_t)kind;
	if (set_open(cb, t, cb->recs.n))
		goto oom;
	cb->recs.n++;
	return 0;
oom:
	return -1;
}

uint32_t wl_chanb_exit(struct wl_chanb *cb, uint32_t t, enum wl_sys_kind kind, int64_t ret,
		       uint64_t ts, bool *need_op)
{
	uint32_t o = open_of(cb, t);
	struct rec *r;

	*need_op = false;
	if (o == WL_NONE)
		return WL_NONE;
	cb->open[t] = WL_NONE;
	r = &cb->recs.v[o];
	if (r->kind != kind) {
		r->flags |= REC_VOID;
		return WL_NONE;
	}
	/*
	 * A read or write moves at most its count, and the VFS caps count at
	 * MAX_RW_COUNT (INT_MAX & PAGE_MASK: rw_verify_area() callers in
	 * vfs_read()/vfs_write()), below 2^31: a larger ret is a damaged
	 * record.  It moves no bytes here (the record is void, counted in the
	 * facts); every ret kept is then < 2^31, so the fill sums of
	 * wl_chanb_finish() (fewer than 2^32 records) stay below 2^63.
	 */
	if (ret > 0 && ((uint64_t)ret > r->count || ret > INT32_MAX)) {
		r->flags |= REC_VOID;
		cb->damaged++;
		return WL_NONE;
	}
	r->flags |= REC_EXITED;
	r->ret = ret;
	r->ts_exit = ts;
	*need_op = r->op == WL_NONE && ret > 0;
	return o;
}

uint32_t wl_chanb_block(struct wl_chanb *cb, uint32_t t, uint32_t block_op, uint64_t ts)
{
	uint32_t o = open_of(cb, t);
	struct rec *r;

	if (o == WL_NONE)
		return WL_NONE;
	r = &cb->recs.v[o];
	if (r->block_op != WL_NONE)
		return WL_NONE;       /* slept again inside it: the first sleep decides */
	r->block_op = block_op;
	r->ts_block = ts;
	return o;
}

void wl_chanb_set_op(struct wl_chanb *cb, uint32_t rec, uint32_t op)
{
	cb->recs.v[rec].op = op;
}

enum wl_sys_kind wl_chanb_kind(const struct wl_chanb *cb, uint32_t rec)
{
	return (enum wl_sys_kind)cb->recs.v[rec].kind;
}

int wl_chanb_wake(struct wl_chanb *cb, uint32_t waker, uint32_t wake, uint32_t wake_op, uint64_t ts)
{
	uint32_t o = open_of(cb, waker);

	if (o == WL_NONE)
		return 0;
	if (!cb->recs.v[o].ts_wake)
		cb->recs.v[o].ts_wake = ts;
	WL_VEC_PUSH(cb->wins, oom);
	cb->wins.v[cb->wins.n++] = (struct wake_in){ .wake = wake, .rec = o, .op = wake_op,
						      .ts = ts };
	return 0;
oom:
	return -1;
}

void wl_chanb_lost(struct wl_chanb *cb)
{
	for (uint32_t t = 0; t < cb->nr_open; t++) {
		if (cb->open[t] != WL_NONE)
			cb->recs.v[cb->open[t]].flags |= REC_VOID;
		cb->open[t] = WL_NONE;
	}
}


/* ---- finish ----------------------------------------------------------- */

/* by record, then trace order (a record's wakes are pushed in trace order: by op index) */
static int cmp_win(const void *a, const void *b)
{
	const struct wake_in *x = a, *y = b;

	if (x->rec != y->rec)
		return x->rec < y->rec ? -1 : 1;
	return x->op < y->op ? -1 : x->op > y->op;
}

static int cmp_link(const void *a, const void *b)
{
	const struct link *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->fd != y->fd)
		return x->fd < y->fd ? -1 : 1;
	return x->chan < y->chan ? -1 : x->chan > y->chan;
}

/* The one channel @links (sorted) give (key, fd), WL_NONE if none, *many if several. */
static uint32_t link_find(const struct link *links, size_t n, uint32_t key, int64_t fd, bool *many)
{
	size_t lo = 0, hi = n;
	uint32_t chan = WL_NONE;

	*many = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (links[mid].key < key || (links[mid].key == key && links[mid].fd < fd))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && links[lo].key == key && links[lo].fd == fd; lo++) {
		if (chan != WL_NONE && links[lo].chan != chan)
			*many = true;
		chan = links[lo].chan;
	}
	return *many ? WL_NONE : chan;
}

struct rend {
	uint32_t task;
	int64_t fd;
};

static int cmp_rend(const void *a, const void *b)
{
	const struct rend *x = a, *y = b;

	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return x->fd < y->fd ? -1 : x->fd > y->fd;
}

static uint32_t rend_find(const struct rend *e, uint32_t n, uint32_t task, int64_t fd)
{
	struct rend k = { task, fd };
	const struct rend *p = n ? bsearch(&k, e, n, sizeof(*e), cmp_rend) : NULL;

	return p ? (uint32_t)(p - e) : WL_NONE;
}

/* a byte movement of a channel in trace order (fill replay) */
struct move {
	uint32_t chan;
	uint8_t kind;          /* 0 write, 1 read, 2 a write's sleep, 3 a read that woke a writer */
	uint64_t ts;
	uint64_t bytes;
};

static int cmp_move(const void *a, const void *b)
{
	const struct move *x = a, *y = b;

	if (x->chan != y->chan)
		return x->chan < y->chan ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->kind < y->kind ? -1 : x->kind > y->kind;
}

/*
 * Reads the linked writes cannot explain by more than this many bytes: the
 * channel had writers the trace does not link (or was filled long before):
 * not modelled.  The default pipe capacity (PIPE_DEF_BUFFERS pages).
 */
#define WL_CHAN_MAX_INIT_FILL (16u * 4096u)
/* a page: pipe_write() copies at most this much into one slot */
#define WL_CHAN_PAGE 4096

/* The wake that ended the BLOCK at @op of task @t, WL_NONE. */
static uint32_t block_wake_of(const struct wl_chanb_task *tasks, uint32_t t, uint32_t op)
{
	if (op == WL_NONE || op >= tasks[t].nr_ops || tasks[t].ops[op].kind != WL_OP_BLOCK)
		return WL_NONE;
	return tasks[t].ops[op].arg;
}

/*
 * Record @oi is the other end of record @r in the same modelled channel: a
 * read and a write (the write's channel decided by its links, the read's by
 * its fd).
 */
static bool chan_pair(const struct wl_chanb *cb, const bool *dead, const struct rec *r, uint32_t oi)
{
	const struct rec *o = &cb->recs.v[oi];

	return o->kind != r->kind && o->chan == r->chan && r->chan != WL_NONE && !dead[r->chan] &&
	       !(o->flags & REC_VOID);
}

/* The writer lists @a and @b (@n pairs each, sorted) name the same tasks. */
static bool same_writers(const struct link *a, const struct link *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (a[i].chan != b[i].chan)
			return false;
	return true;
}

/*
 * A channel whose writes never slept in the trace has no traced capacity, and
 * unbounded it lets its writers run any distance ahead of its reader, where
 * the kernel's would sleep at the same limit as its siblings': every pipe
 * gets PIPE_DEF_BUFFERS pages (alloc_pipe_info()), every unix socket the same
 * sk_sndbuf (sock_init_data(): sysctl_wmem_default).  Channels written by the
 * same set of writer tasks (hackbench's receivers, each written to by the
 * same senders, one write() per receiver) are taken to be of one kind: such
 * a channel takes the capacity and wake fill of one of them that has its own
 * (the largest capacity: like a channel's own, never too small), @from[c]
 * that channel.  A channel with another set of writers (hackbench's ready
 * pipe, written to by the senders and the receivers) borrows nothing.
 * @pairs: scratch of one link per record.
 */
static int share_capacity(const struct wl_chanb *cb, uint32_t nrend, const bool *dead,
			  uint64_t *cap, uint64_t *wfill, uint32_t *from, struct link *pairs)
{
	uint32_t n = 0, *first, *len;

	/* (channel, writer) pairs, sorted by channel then writer, unique */
	for (uint32_t i = 0; i < cb->recs.n; i++) {
		const struct rec *r = &cb->recs.v[i];

		if (r->kind == WL_SYS_WRITE && r->chan != WL_NONE && !dead[r->chan])
			pairs[n++] = (struct link){ .key = r->chan, .chan = r->task };
	}
	if (n)
		qsort(pairs, n, sizeof(*pairs), cmp_link);
	{
		uint32_t k = 0;

		for (uint32_t i = 0; i < n; i++)
			if (!k || pairs[k - 1].key != pairs[i].key || pairs[k - 1].chan != pairs[i].chan)
				pairs[k++] = pairs[i];
		n = k;
	}
	if (!(first = malloc((nrend + 1) * sizeof(*first))) ||
	    !(len = calloc(nrend + 1, sizeof(*len)))) {
		free(first);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!len[pairs[i].key])
			first[pairs[i].key] = i;
		len[pairs[i].key]++;
	}
	/* donors are channels with their own capacity only: one step, no chains */
	for (uint32_t c = 0; c < nrend; c++) {
		uint32_t best = WL_NONE;

		if (from[c] == c || !len[c])
			continue;
		for (uint32_t d = 0; d < nrend; d++) {
			if (from[d] != d || len[d] != len[c] ||
			    !same_writers(pairs + first[c], pairs + first[d], len[c]))
				continue;
			if (best == WL_NONE || cap[d] > cap[best])
				best = d;
		}
		if (best == WL_NONE)
			continue;
		cap[c] = cap[best];
		wfill[c] = wfill[best];
		from[c] = best;
	}
	free(first);
	free(len);
	return 0;
}

int wl_chanb_finish(struct wl_chanb *cb, struct wl_chanb_task *tasks, uint32_t nr_tasks,
		    uint32_t nr_wakes, struct wl_workload *wl)
{
	struct wl_chan_stats *st = &wl->facts.chan;
	uint32_t *wrec = NULL, *wop = NULL, nrend = 0;
	struct link *own = NULL, *lin = NULL;
	struct rend *rends = NULL;
	struct move *mv = NULL;
	size_t nlinks = 0, nmv = 0;
	uint64_t *init = NULL, *cap = NULL, *bytes = NULL, *wfill = NULL;
	uint32_t *from = NULL;
	bool *dead = NULL, *woke = NULL, *rwoke = NULL;
	int ret = -1;

	st->damaged = cb->damaged;
	/*
	 * Without all four syscall events (st->syscalls, set by the builder)
	 * no channel can be followed: every record is void, every placeholder
	 * dropped, nothing modelled.
	 */
	st->modelled = st->syscalls;
	if (!st->syscalls)
		for (uint32_t i = 0; i < cb->recs.n; i++)
			cb->recs.v[i].flags |= REC_VOID;
	if (!(wrec = malloc((nr_wakes ? nr_wakes : 1) * sizeof(*wrec))) ||
	    !(wop = malloc((nr_wakes ? nr_wakes : 1) * sizeof(*wop))) ||
	    !(own = malloc((cb->recs.n ? cb->recs.n : 1) * sizeof(*own))) ||
	    !(lin = malloc((cb->recs.n ? cb->recs.n : 1) * sizeof(*lin))) ||
	    !(rends = malloc((cb->recs.n ? cb->recs.n : 1) * sizeof(*rends))))
		goto out;
	for (uint32_t w = 0; w < nr_wakes; w++)
		wrec[w] = wop[w] = WL_NONE;
	for (uint32_t i = 0; i < cb->wins.n; i++) {
		const struct wake_in *x = &cb->wins.v[i];

		if (x->wake < nr_wakes) {
			wrec[x->wake] = x->rec;
			wop[x->wake] = x->op;
		}
	}
	for (uint32_t i = 0; i < cb->recs.n; i++) {
		struct rec *r = &cb->recs.v[i];

		if (r->task >= nr_tasks)
			r->flags |= REC_VOID;      /* cannot happen: the builder's tasks */
		if (r->flags & REC_VOID || !(r->flags & REC_EXITED) || r->ret <= 0 ||
		    tasks[r->task].cls != WL_CLASS_FAIR)
			continue;
		if (r->kind == WL_SYS_READ)
			st->reads++;
		else
			st->writes++;
	}

	/*
	 * Links: a sleep inside a read ended by a wake inside a write (and the
	 * other way round).  The read end is (reader task, fd).
	 */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < cb->recs.n; i++) {
			const struct rec *r = &cb->recs.v[i], *o;
			uint32_t wi, oi, rd, wr;

			if (r->flags & REC_VOID)
				continue;
			wi = block_wake_of(tasks, r->task, r->block_op);
			if (wi >= nr_wakes || (oi = wrec[wi]) == WL_NONE)
				continue;
			o = &cb->recs.v[oi];
			if (o->flags & REC_VOID || o->kind == r->kind || o->task == r->task)
				continue;
			rd = r->kind == WL_SYS_READ ? i : oi;
			wr = r->kind == WL_SYS_READ ? oi : i;
			if (pass == 0) {
				rends[nrend++] = (struct rend){ cb->recs.v[rd].task, cb->recs.v[rd].fd };
			} else {
				const struct rec *w = &cb->recs.v[wr];
				uint32_t ch = rend_find(rends, nrend, cb->recs.v[rd].task,
							cb->recs.v[rd].fd);
				uint32_t p = tasks[w->task].parent;

				own[nlinks] = (struct link){ w->task, ch, w->fd };
				lin[nlinks++] = (struct link){ p != WL_NONE ? p : w->task, ch, w->fd };
			}
		}
		if (pass == 0 && nrend) {
			uint32_t k = 0;

			qsort(rends, nrend, sizeof(*rends), cmp_rend);
			for (uint32_t i = 0; i < nrend; i++)
				if (!k || cmp_rend(&rends[k - 1], &rends[i]))
					rends[k++] = rends[i];
			nrend = k;
		}
	}
	if (nlinks) {
		qsort(own, nlinks, sizeof(*own), cmp_link);
		qsort(lin, nlinks, sizeof(*lin), cmp_link);
	}

	/* Resolve every read and write to a channel. */
	for (uint32_t i = 0; i < cb->recs.n; i++) {
		struct rec *r = &cb->recs.v[i];
		bool many;
		uint32_t p;

		if (r->flags & REC_VOID || !(r->flags & REC_EXITED) || r->ret <= 0 ||
		    tasks[r->task].cls != WL_CLASS_FAIR)
			continue;
		if (r->kind == WL_SYS_READ) {
			r->chan = rend_find(rends, nrend, r->task, r->fd);
			continue;
		}
		r->chan = link_find(own, nlinks, r->task, r->fd, &many);
		if (r->chan == WL_NONE && !many) {
			p = tasks[r->task].parent;
			r->chan = link_find(lin, nlinks, p != WL_NONE ? p : r->task, r->fd, &many);
		}
	}

	/*
	 * Fill replay in trace order: a write's bytes are there at its wake
	 * (pipe_write() copies before it wakes), else at its exit; a read's
	 * are gone at its exit.  The deficit is the initial fill; a write's
	 * sleep shows the capacity: the fill then, relative to the start,
	 * plus the initial fill.  A write that sleeps before any wake moved
	 * nothing yet if it is at most a page (pipe_write() merges it into
	 * the last buffer or takes a whole slot, and sleeps before copying
	 * when neither is free; unix_stream_sendmsg() allocates a message's
	 * skb before copying, and sleeps there): its bytes at its exit.  A
	 * larger one had filled the pipe page by page before it slept: its
	 * bytes count at the sleep (all of them: the capacity is then at most
	 * that write's tail too large, never too small).
	 */
	/*
	 * The reads that woke a writer asleep in a write of their channel
	 * (the wake ended the write's first sleep): the fill they left shows
	 * when the channel lets its writers go on (sim_chan.h).
	 */
	if (!(rwoke = calloc(cb->recs.n ? cb->recs.n : 1, sizeof(*rwoke))))
		goto out;
	for (uint32_t i = 0; i < cb->recs.n; i++) {
		const struct rec *w = &cb->recs.v[i];
		uint32_t wi = block_wake_of(tasks, w->task, w->block_op), ri;

		if (w->flags & REC_VOID || w->kind != WL_SYS_WRITE || w->chan == WL_NONE ||
		    wi >= nr_wakes || (ri = wrec[wi]) == WL_NONE)
			continue;
		if (cb->recs.v[ri].kind == WL_SYS_READ && cb->recs.v[ri].chan == w->chan)
			rwoke[ri] = true;
	}
	if (!(mv = malloc((2 * (size_t)cb->recs.n + 1) * sizeof(*mv))) ||
	    !(wfill = calloc(nrend + 1, sizeof(*wfill))) ||
	    !(init = calloc(nrend + 1, sizeof(*init))) || !(cap = calloc(nrend + 1, sizeof(*cap))) ||
	    !(bytes = calloc(nrend + 1, sizeof(*bytes))) ||
	    !(dead = calloc(nrend + 1, sizeof(*dead))))
		goto out;
	for (uint32_t i = 0; i < cb->recs.n; i++) {
		const struct rec *r = &cb->recs.v[i];

		if (r->chan == WL_NONE)
			continue;
		if (r->kind == WL_SYS_READ) {
			mv[nmv++] = (struct move){ r->chan, rwoke[i] ? 3 : 1, r->ts_exit,
						   (uint64_t)r->ret };
			continue;
		}
		mv[nmv++] = (struct move){ r->chan, 0,
					   r->ts_wake ? r->ts_wake :
					   r->block_op != WL_NONE && r->ret > WL_CHAN_PAGE ?
					   r->ts_block : r->ts_exit, (uint64_t)r->ret };
		if (r->block_op != WL_NONE)
			mv[nmv++] = (struct move){ r->chan, 2, r->ts_block, 0 };
	}
	if (nmv)
		qsort(mv, nmv, sizeof(*mv), cmp_move);
	for (size_t i = 0, j; i < nmv; i = j) {
		int64_t fill = 0, low = 0, high = INT64_MIN, wake = INT64_MIN;
		uint32_t c = mv[i].chan;

		for (j = i; j < nmv && mv[j].chan == c; j++) {
			if (mv[j].kind == 0) {
				fill += (int64_t)mv[j].bytes;
				bytes[c] += mv[j].bytes;
			} else if (mv[j].kind == 1 || mv[j].kind == 3) {
				fill -= (int64_t)mv[j].bytes;
				low = fill < low ? fill : low;
				if (mv[j].kind == 3 && fill > wake)
					wake = fill;
			} else if (fill > high) {
				high = fill;
			}
		}
		/* |fill| < 2^63: rets < 2^31 (wl_chanb_exit()), < 2^32 records */
		init[c] = (uint64_t)-low;
		cap[c] = high != INT64_MIN ? (uint64_t)(high - low) : UINT64_MAX;
		wfill[c] = wake != INT64_MIN ? (uint64_t)(wake - low) : UINT64_MAX;
		dead[c] = init[c] > WL_CHAN_MAX_INIT_FILL || !bytes[c];
	}

	if (!(from = malloc((nrend + 1) * sizeof(*from))))
		goto out;
	for (uint32_t c = 0; c < nrend; c++)
		from[c] = cap[c] != UINT64_MAX ? c : WL_NONE;
	if (share_capacity(cb, nrend, dead, cap, wfill, from, own))
		goto out;

	/* The channels, numbered as the read ends; READ/WRITE ops. */
	if (nrend && !(wl->channels = calloc(nrend, sizeof(*wl->channels))))
		goto out;
	wl->nr_channels = nrend;
	for (uint32_t c = 0; c < nrend; c++) {
		wl->channels[c] = (struct wl_channel){ .reader = rends[c].task, .rfd = rends[c].fd,
			.capacity = cap[c], .init_fill = init[c], .bytes = bytes[c],
			.wake_fill = wfill[c], .cap_from = from[c] };
		if (dead[c])
			st->unlinked_channels++;
		else
			st->channels++;
	}
	{
		uint32_t n = 0;

		for (uint32_t i = 0; i < cb->recs.n; i++)
			n += cb->recs.v[i].chan != WL_NONE && !dead[cb->recs.v[i].chan];
		if (n && !(wl->chan_ops = malloc(n * sizeof(*wl->chan_ops))))
			goto out;
	}
	/* the record whose first sleep each wake ended */
	for (uint32_t w = 0; w < nr_wakes; w++)
		wop[w] = WL_NONE;
	for (uint32_t i = 0; i < cb->recs.n; i++) {
		uint32_t wi;

		if (cb->recs.v[i].flags & REC_VOID)
			continue;
		wi = block_wake_of(tasks, cb->recs.v[i].task, cb->recs.v[i].block_op);
		if (wi < nr_wakes)
			wop[wi] = i;
	}
	/* the wakes made inside each record, in trace order: by record */
	if (cb->wins.n)
		qsort(cb->wins.v, cb->wins.n, sizeof(*cb->wins.v), cmp_win);
	/*
	 * Writes that woke a sleeping reader of their channel: their bytes
	 * move at that wake (the WRITE op goes there), so a sleep later in the
	 * same write (the channel filled meanwhile) is not the write's own
	 * position: it stays an ordinary sleep with its traced wake.
	 */
	if (!(woke = calloc(cb->recs.n ? cb->recs.n : 1, sizeof(*woke))))
		goto out;
	for (uint32_t k = 0; k < cb->wins.n; k++) {
		const struct wake_in *x = &cb->wins.v[k];
		const struct rec *r = &cb->recs.v[x->rec];
		uint32_t oi = wop[x->wake];

		if (r->kind == WL_SYS_WRITE && r->chan != WL_NONE && oi != WL_NONE &&
		    chan_pair(cb, dead, r, oi))
			woke[x->rec] = true;
	}
	for (uint32_t i = 0, wk = 0; i < cb->recs.n; i++) {
		struct rec *r = &cb->recs.v[i];
		struct wl_op *ops;
		uint32_t wi, oi, at = r->op, wake = WL_NONE;
		/* the placeholder sits at the first sleep inside it, else at its exit */
		uint64_t at_ts = r->block_op != WL_NONE ? r->ts_block : r->ts_exit;

		if (r->task >= nr_tasks)
			continue;
		ops = tasks[r->task].ops;
		if (r->chan != WL_NONE && dead[r->chan])
			r->chan = WL_NONE;
		if (r->chan == WL_NONE) {
			if (r->op != WL_NONE)
				ops[r->op].kind = 0;
			continue;
		}
		/* its sleep, ended by the other end of the same channel */
		wi = block_wake_of(tasks, r->task, r->block_op);
		if (wi < nr_wakes && (oi = wrec[wi]) != WL_NONE && chan_pair(cb, dead, r, oi) &&
		    !woke[i]) {
			ops[r->block_op].aux |= WL_BLOCK_CHANNEL;
			st->blocks_explained++;
		}
		/*
		 * Its wakes of the other end's sleepers in this channel: a
		 * write's first one becomes the write (the bytes and the wake
		 * at the trace's point), a read's (a writer it made room for)
		 * are the read's.
		 */
		for (; wk < cb->wins.n && cb->wins.v[wk].rec < i; wk++)
			;
		for (uint32_t k = wk; k < cb->wins.n && cb->wins.v[k].rec == i; k++) {
			const struct wake_in *x = &cb->wins.v[k];

			if ((oi = wop[x->wake]) == WL_NONE || !chan_pair(cb, dead, r, oi) || woke[oi])
				continue;
			if (r->kind == WL_SYS_WRITE && wake == WL_NONE) {
				wake = x->wake;
				at = x->op;
				at_ts = x->ts;
				continue;
			}
			ops[x->op].kind = 0;
			st->wakes_explained++;
		}
		if (wake != WL_NONE && r->op != WL_NONE)
			ops[r->op].kind = 0;
		if (at == WL_NONE)
			continue;
		ops[at].kind = r->kind == WL_SYS_READ ? WL_OP_READ : WL_OP_WRITE;
		ops[at].aux = 0;
		ops[at].arg = wl->nr_chan_ops;
		ops[at].value = 0;
		wl->chan_ops[wl->nr_chan_ops++] = (struct wl_chan_op){ .chan = r->chan, .wake = wake,
			.bytes = (uint64_t)r->ret, .ts = at_ts };
		if (wake != WL_NONE)
			st->wakes_explained++;
		if (r->kind == WL_SYS_READ)
			st->reads_modelled++;
		else
			st->writes_modelled++;
	}
	/* distinct writer tasks per channel */
	{
		uint32_t n = 0;

		for (uint32_t i = 0; i < cb->recs.n; i++)
			if (cb->recs.v[i].chan != WL_NONE && cb->recs.v[i].kind == WL_SYS_WRITE)
				own[n++] = (struct link){ cb->recs.v[i].task, cb->recs.v[i].chan, 0 };
		if (n)
			qsort(own, n, sizeof(*own), cmp_link);
		for (uint32_t i = 0; i < n; i++)
			if (!i || own[i].key != own[i - 1].key || own[i].chan != own[i - 1].chan)
				wl->channels[own[i].chan].nr_writers++;
	}
	ret = 0;
out:
	free(wrec);
	free(wop);
	free(own);
	free(lin);
	free(rends);
	free(mv);
	free(init);
	free(cap);
	free(wfill);
	free(from);
	free(rwoke);
	free(bytes);
	free(dead);
	free(woke);
	return ret;
}
