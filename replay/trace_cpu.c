// SPDX-License-Identifier: GPL-2.0
/*
 * One CPU's ring-buffer data: a window of pages read with pread (or one
 * decompressed chunk), and the records of each page.
 *
 * Page layout (kernel/trace/ring_buffer.c, struct buffer_data_page):
 *   u64 time_stamp; local_t commit; data[]
 * commit holds the bytes of data used; bit 31 says events were lost before
 * this page, bit 30 that their count is stored as a long right after the
 * data. Records (struct ring_buffer_event) start with a 32-bit word of
 * type_len:5 and time_delta:27 (bitfield order follows the file's
 * endianness):
 *   type_len 1..28  data of type_len * 4 bytes follows;
 *   type_len 0      array[0] holds the length (+4), data follows it;
 *   29 padding      array[0] holds the padding length;
 *   30 time extend  delta += array[0] << 27, no data;
 *   31 time stamp   absolute time (array[0] << 27 | delta), no data.
 * Timestamps accumulate the deltas of every record from the page's
 * time_stamp, exactly as libtraceevent's kbuffer does, so times equal
 * `trace-cmd report`'s.
 *
 * Every length is checked against the page before it is used and every
 * record advances by at least 4 bytes, so corrupted data ends in an error,
 * never in an out-of-bounds read or an endless loop (kbuffer itself loops
 * forever on a zero-length padding record).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "trace_local.h"

#define RB_TYPE_PADDING 29
#define RB_TYPE_TIME_EXTEND 30
#define RB_TYPE_TIME_STAMP 31
#define RB_TS_SHIFT 27
#define RB_COMMIT_MASK ((1u << 27) - 1)
#define RB_MISSED_EVENTS (1ull << 31)
#define RB_MISSED_STORED (1ull << 30)
/* absolute time stamps lack the 5 most significant bits: keep the current ones */
#define RB_TS_MSB (0xf8ull << 56)

/* Pages read per pread: 64 KiB of 4 KiB pages keeps the syscall cost per
 * record negligible while memory stays O(CPUs). */
#define WINDOW_PAGES 16
/* A decompressed chunk larger than this is taken as corruption. */
#define MAX_CHUNK (256u << 20)
/*
 * Compressed data is read this many bytes at a time (at least one chunk):
 * trace-cmd compresses 10 pages per chunk to ~7 KiB, so one pread serves
 * about 9 chunks and their headers instead of two preads per chunk.
 */
#define ZWINDOW (64u << 10)

static int corrupt(struct tr_cpu *c, struct sr_error *err, uint64_t stream_off, const char *why)
{
	uint64_t off = c->compressed ? stream_off : c->desc->offset + stream_off;

	sr_error_set(err, EINVAL, "corrupted data: CPU %d, %s offset %" PRIu64
		     " (last good timestamp %" PRIu64 "): %s", c->cpu,
		     c->compressed ? "uncompressed stream" : "file", off, c->ts, why);
	return -1;
}

/*
 * A CPU's own time going back: a damaged page time stamp, time extend or
 * absolute stamp, or pages out of order. The merge by time would deliver the
 * CPU's records out of order, silently (or simulate up to 2^64 ns). Checked
 * per page and on the rare extended records, never per ordinary record: a
 * record's delta only adds, so within a page time can only wrap past 2^64,
 * which the page's end shows (its running time below the page's stamp).
 */
static int time_back(struct tr_cpu *c, struct sr_error *err, uint64_t stream_off,
		     const char *what, uint64_t ts, uint64_t prev, const char *prev_what)
{
	uint64_t off = c->compressed ? stream_off : c->desc->offset + stream_off;

	sr_error_set(err, EINVAL, "corrupted data: CPU %d, %s offset %" PRIu64 ": %s %" PRIu64
		     " is before the %s %" PRIu64 " (the CPU's time goes back)", c->cpu,
		     c->compressed ? "uncompressed stream" : "file", off, what, ts, prev_what,
		     prev);
	return -1;
}

/*
 * A page stamped later than the CPU's clock when the capture's statistics
 * were read (tr_file_cpu_ts_bound()): a damaged page time stamp.  Without
 * this check a stamp pushed ahead on a CPU's last page - no later page shows
 * time going back - stretched the trace by the damage, silently.
 */
static int time_ahead(struct tr_cpu *c, struct sr_error *err, uint64_t stream_off)
{
	uint64_t off = c->compressed ? stream_off : c->desc->offset + stream_off;

	sr_error_set(err, EINVAL, "corrupted data: CPU %d, %s offset %" PRIu64 ": page time stamp %"
		     PRIu64 " is more than %llu s after the CPU's clock when the capture ended "
		     "(its statistics' now ts %" PRIu64 ")", c->cpu,
		     c->compressed ? "uncompressed stream" : "file", off, c->ts,
		     TR_TS_BOUND_SLACK_NS / 1000000000ull, (uint64_t)(c->ts_bound - TR_TS_BOUND_SLACK_NS));
	return -1;
}

int tr_cpu_init(struct tr_cpu *c, const struct tr_file *f, const struct tr_buffer_desc *b,
		int idx, int kernel_long_size, struct sr_error *err)
{
	const struct tr_cpu_desc *d = &b->cpus[idx];

	memset(c, 0, sizeof(*c));
	c->cpu = d->cpu;
	c->file = f;
	c->desc = d;
	c->compressed = b->compressed;
	c->off_base = b->compressed ? 0 : d->offset;
	c->swap = f->swap;
	c->big = f->big_endian;
	c->long_size = kernel_long_size;
	c->page_size = b->page_size ? b->page_size : f->page_size;
	c->hdr_size = 8 + (uint32_t)kernel_long_size;
	if (c->page_size <= c->hdr_size + 4 || c->page_size > (64u << 20)) {
		sr_error_set(err, EINVAL, "corrupted: buffer page size %u", c->page_size);
		return -1;
	}
	if (d->offset > f->file_size || d->size > f->file_size - d->offset ||
	    (b->compressed && d->size && d->size + 4 > f->file_size - d->offset)) {
		sr_error_set(err, EINVAL, "truncated: CPU %d data ends at offset %" PRIu64
			     " but the file has %" PRIu64 " bytes", c->cpu,
			     d->offset + d->size + (b->compressed ? 4 : 0),
			     f->file_size);
		return -1;
	}
	c->ts_bound = tr_file_cpu_ts_bound(f, b, c->cpu);
	if (!d->size) {
		c->done = true;
		return 0;
	}
	if (c->compressed) {
		uint8_t b4[4];

		if (d->size < 4 || tr_file_pread(f, b4, 4, d->offset, "chunk count", err))
			return -1;
		c->nr_chunks = tr_u32(b4, c->swap);
		c->chunk_file_off = d->offset + 4;
	} else {
		c->stream_size = d->size;
		c->buf_cap = (size_t)c->page_size * WINDOW_PAGES;
		c->buf = malloc(c->buf_cap);
		if (!c->buf) {
			sr_error_set(err, ENOMEM, "out of memory");
			return -1;
		}
	}
	return 0;
}

void tr_cpu_release(struct tr_cpu *c)
{
	if (!c)
		return;
	free(c->buf);
	free(c->zbuf);
	free(c->nbuf);
	c->buf = c->zbuf = c->nbuf = NULL;
}

/*
 * Point @p at @len bytes of the file at @off, all before @end (the end of the
 * CPU's compressed data; the caller checked off + len <= end), refilling the
 * compressed window if they are not in it.
 */
static int zwin_get(struct tr_cpu *c, uint64_t off, size_t len, uint64_t end,
		    const uint8_t **p, struct sr_error *err)
{
	size_t n;

	if (off >= c->zwin_off && off - c->zwin_off <= c->zwin_len &&
	    len <= c->zwin_len - (off - c->zwin_off)) {
		*p = c->zbuf + (off - c->zwin_off);
		return 0;
	}
	n = len > ZWINDOW ? len : ZWINDOW;
	if (n > end - off)
		n = (size_t)(end - off);
	if (n > c->zbuf_cap) {
		void *b = realloc(c->zbuf, n);

		if (!b) {
			sr_error_set(err, ENOMEM, "out of memory");
			return -1;
		}
		c->zbuf = b;
		c->zbuf_cap = n;
	}
	c->zwin_len = 0;
	if (tr_file_pread(c->file, c->zbuf, n, off, "compressed data", err))
		return -1;
	c->zwin_off = off;
	c->zwin_len = n;
	*p = c->zbuf;
	return 0;
}

/* The next chunk's header: sizes checked against the CPU's data. */
static int chunk_header(struct tr_cpu *c, uint32_t *zsize, uint32_t *usize,
			struct sr_error *err)
{
	/* the CPU's size counts the chunks, not the 4-byte chunk count */
	uint64_t end = c->desc->offset + 4 + c->desc->size;
	const uint8_t *h;

	if (c->chunk_file_off + 8 > end)
		goto bad_chunk;
	if (zwin_get(c, c->chunk_file_off, 8, end, &h, err))
		return -1;
	*zsize = tr_u32(h, c->swap);
	*usize = tr_u32(h + 4, c->swap);
	if (*zsize > end - c->chunk_file_off - 8 || *usize > MAX_CHUNK || *usize == 0)
		goto bad_chunk;
	return 0;
bad_chunk:
	sr_error_set(err, EINVAL, "corrupted or truncated data: CPU %d, chunk %u header at file "
		     "offset %" PRIu64 " is inconsistent with the CPU's %" PRIu64 " bytes",
		     c->cpu, c->chunk_i, c->chunk_file_off, c->desc->size);
	return -1;
}

/*
 * Read the window of uncompressed stream data at stream offset @pos into
 * *@buf (WINDOW_PAGES pages; allocated if needed): 1 loaded, 0 end, -1 error.
 */
static int read_window(struct tr_cpu *c, uint64_t pos, uint8_t **buf, size_t *cap, size_t *len,
		       struct sr_error *err)
{
	size_t want = (size_t)c->page_size * WINDOW_PAGES;
	size_t n;

	if (pos >= c->stream_size)
		return 0;
	if (*cap < want) {
		void *b = realloc(*buf, want);

		if (!b) {
			sr_error_set(err, ENOMEM, "out of memory");
			return -1;
		}
		*buf = b;
		*cap = want;
	}
	n = c->stream_size - pos < want ? (size_t)(c->stream_size - pos) : want;
	if (tr_file_pread(c->file, *buf, n, c->desc->offset + pos, "CPU data", err))
		return -1;
	*len = n;
	return 1;
}

/*
 * Read and decompress the next chunk into *@buf (grown as needed), with
 * @dctx for zstd: 1 loaded (*@len bytes), 0 no chunk left, -1 error.
 */
static int read_chunk(struct tr_cpu *c, void *dctx, uint8_t **buf, size_t *cap, size_t *len,
		      struct sr_error *err)
{
	const struct tr_file *f = c->file;
	uint64_t end = c->desc->offset + 4 + c->desc->size;
	uint32_t zsize, usize;
	const uint8_t *z;
	int bad;

	if (c->chunk_i >= c->nr_chunks)
		return 0;
	if (chunk_header(c, &zsize, &usize, err))
		return -1;
	if (usize > *cap) {
		void *n = realloc(*buf, usize);

		if (!n) {
			sr_error_set(err, ENOMEM, "out of memory");
			return -1;
		}
		*buf = n;
		*cap = usize;
	}
	if (zwin_get(c, c->chunk_file_off + 8, zsize, end, &z, err))
		return -1;
	if (f->compress == TR_COMPRESS_ZSTD && dctx) {
		size_t n = ZSTD_decompressDCtx(dctx, *buf, usize, z, zsize);

		bad = ZSTD_isError(n) || n != usize;
	} else {
		bad = tr_decompress(f->compress, z, zsize, *buf, usize);
	}
	if (bad) {
		sr_error_set(err, EINVAL, "corrupted data: CPU %d, chunk %u at file offset %"
			     PRIu64 " does not decompress (%s)", c->cpu, c->chunk_i,
			     c->chunk_file_off, f->compress_name);
		return -1;
	}
	*len = usize;
	c->chunk_file_off += 8 + (uint64_t)zsize;
	c->chunk_i++;
	return 1;
}

/* ---- the prefetcher ---------------------------------------------------- */

/*
 * A stream's request: QUEUED (listed, not started), BUSY (the thread reads
 * it), then READY, END or FAILED. A reader that finds its request still
 * QUEUED takes it back and reads the chunk itself: on a loaded machine the
 * thread may not run for a while, and waiting for it would make the reader
 * slower than reading synchronously.
 */
enum { TR_PF_IDLE, TR_PF_QUEUED, TR_PF_BUSY, TR_PF_READY, TR_PF_END, TR_PF_FAILED };

struct tr_prefetch {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	bool stop;
	ZSTD_DCtx *dctx;               /* the thread's own */
	struct tr_cpu **queue;         /* at most one request per stream */
	int cap, head, n;
};

static void *prefetch_main(void *arg)
{
	struct tr_prefetch *pf = arg;

	pthread_mutex_lock(&pf->mu);
	for (;;) {
		struct tr_cpu *c;
		int r;

		while (!pf->stop && !pf->n)
			pthread_cond_wait(&pf->work, &pf->mu);
		if (pf->stop)
			break;
		c = pf->queue[pf->head];
		pf->head = (pf->head + 1) % pf->cap;
		pf->n--;
		c->pf_listed = false;
		if (c->pf_state != TR_PF_QUEUED)
			continue;      /* taken back by the reader */
		c->pf_state = TR_PF_BUSY;
		pthread_mutex_unlock(&pf->mu);
		r = c->compressed ?
			read_chunk(c, pf->dctx, &c->nbuf, &c->nbuf_cap, &c->nbuf_len, &c->pf_err) :
			read_window(c, c->pf_pos, &c->nbuf, &c->nbuf_cap, &c->nbuf_len, &c->pf_err);
		pthread_mutex_lock(&pf->mu);
		c->pf_state = r > 0 ? TR_PF_READY : r == 0 ? TR_PF_END : TR_PF_FAILED;
		pthread_cond_broadcast(&pf->done);
	}
	pthread_mutex_unlock(&pf->mu);
	return NULL;
}

struct tr_prefetch *tr_prefetch_new(const struct tr_file *f, int nr_streams)
{
	struct tr_prefetch *pf;

	if (nr_streams <= 0)
		return NULL;
	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return NULL;
	pf->cap = nr_streams;
	pf->queue = calloc((size_t)nr_streams, sizeof(*pf->queue));
	pf->dctx = f->compress == TR_COMPRESS_ZSTD ? ZSTD_createDCtx() : NULL;
	if (!pf->queue || (f->compress == TR_COMPRESS_ZSTD && !pf->dctx))
		goto fail;
	if (pthread_mutex_init(&pf->mu, NULL))
		goto fail;
	if (pthread_cond_init(&pf->work, NULL)) {
		pthread_mutex_destroy(&pf->mu);
		goto fail;
	}
	if (pthread_cond_init(&pf->done, NULL)) {
		pthread_cond_destroy(&pf->work);
		pthread_mutex_destroy(&pf->mu);
		goto fail;
	}
	if (pthread_create(&pf->thread, NULL, prefetch_main, pf)) {
		pthread_cond_destroy(&pf->done);
		pthread_cond_destroy(&pf->work);
		pthread_mutex_destroy(&pf->mu);
		goto fail;
	}
	return pf;
fail:
	ZSTD_freeDCtx(pf->dctx);
	free(pf->queue);
	free(pf);
	return NULL;
}

void tr_prefetch_free(struct tr_prefetch *pf)
{
	if (!pf)
		return;
	pthread_mutex_lock(&pf->mu);
	pf->stop = true;
	pthread_cond_broadcast(&pf->work);
	pthread_mutex_unlock(&pf->mu);
	/* a request being served finishes first; queued ones are dropped */
	pthread_join(pf->thread, NULL);
	pthread_cond_destroy(&pf->done);
	pthread_cond_destroy(&pf->work);
	pthread_mutex_destroy(&pf->mu);
	ZSTD_freeDCtx(pf->dctx);
	free(pf->queue);
	free(pf);
}

void tr_cpu_prefetch(struct tr_cpu *c, struct tr_prefetch *pf)
{
	if (!c->done)
		c->pf = pf;
}

/*
 * Ask for the chunk after the current one, or the window at stream offset
 * @pos (the caller owns the stream).
 */
static void prefetch_next(struct tr_cpu *c, uint64_t pos)
{
	struct tr_prefetch *pf = c->pf;

	if (c->compressed ? c->chunk_i >= c->nr_chunks : pos >= c->stream_size)
		return;
	c->pf_pos = pos;
	pthread_mutex_lock(&pf->mu);
	c->pf_state = TR_PF_QUEUED;
	/* an entry the reader took back may still be listed: it serves again */
	if (!c->pf_listed) {
		pf->queue[(pf->head + pf->n) % pf->cap] = c;
		pf->n++;
		c->pf_listed = true;
		pthread_cond_signal(&pf->work);
	}
	pthread_mutex_unlock(&pf->mu);
}

/* The next chunk or window through the prefetcher, into c->buf. */
static int prefetched_chunk(struct tr_cpu *c, size_t *len, struct sr_error *err)
{
	struct tr_prefetch *pf = c->pf;
	int st, r;

	pthread_mutex_lock(&pf->mu);
	if (c->pf_state == TR_PF_QUEUED)
		c->pf_state = TR_PF_IDLE;
	while (c->pf_state == TR_PF_BUSY)
		pthread_cond_wait(&pf->done, &pf->mu);
	st = c->pf_state;
	c->pf_state = TR_PF_IDLE;
	pthread_mutex_unlock(&pf->mu);
	switch (st) {
	case TR_PF_READY: {
		uint8_t *b = c->buf;
		size_t cap = c->buf_cap;

		c->buf = c->nbuf;
		c->buf_cap = c->nbuf_cap;
		c->nbuf = b;
		c->nbuf_cap = cap;
		*len = c->nbuf_len;
		r = 1;
		break;
	}
	case TR_PF_END:
		r = 0;
		break;
	case TR_PF_FAILED:
		*err = c->pf_err;
		r = -1;
		break;
	default:                       /* the first chunk, or one taken back */
		r = c->compressed ?
			read_chunk(c, c->file->zstd_dctx, &c->buf, &c->buf_cap, len, err) :
			read_window(c, c->next_read, &c->buf, &c->buf_cap, len, err);
		break;
	}
	if (r > 0)
		prefetch_next(c, c->next_read + *len);
	return r;
}

/* Fill buf with the next window or chunk: 1 loaded, 0 end of data, -1 error. */
static int load_window(struct tr_cpu *c, struct sr_error *err)
{
	const struct tr_file *f = c->file;

	size_t len = 0;
	int r;

	if (c->pf)
		r = prefetched_chunk(c, &len, err);
	else if (!c->compressed)
		r = read_window(c, c->next_read, &c->buf, &c->buf_cap, &len, err);
	else
		r = read_chunk(c, f->zstd_dctx, &c->buf, &c->buf_cap, &len, err);
	if (r <= 0)
		return r;
	c->buf_stream_off = c->next_read;
	c->buf_len = len;
	c->next_read += len;
	c->page_pos = 0;
	return 1;
}

/* Make the page at page_pos current: 1 loaded, 0 end, -1 error. */
static int load_page(struct tr_cpu *c, struct sr_error *err)
{
	for (;;) {
		size_t avail;
		const uint8_t *p;
		uint64_t flags;

		if (c->page_pos >= c->buf_len) {
			int r = load_window(c, err);

			if (r <= 0)
				return r;
		}
		avail = c->buf_len - c->page_pos;
		if (avail > c->page_size)
			avail = c->page_size;
		if (avail < c->hdr_size)
			return corrupt(c, err, c->buf_stream_off + c->page_pos,
				       "the data ends inside a page header");
		p = c->buf + c->page_pos;
		c->ts = tr_u64(p, c->swap);
		if (c->ts < c->ev_ts)
			return time_back(c, err, c->buf_stream_off + c->page_pos, "page time stamp",
					 c->ts, c->ev_ts, "previous record's");
		if (c->ts_bound && c->ts > c->ts_bound)
			return time_ahead(c, err, c->buf_stream_off + c->page_pos);
		c->page_ts = c->ts;
		flags = c->long_size == 8 ? tr_u64(p + 8, c->swap) : tr_u32(p + 8, c->swap);
		c->commit = (uint32_t)flags & RB_COMMIT_MASK;
		if (c->commit > avail - c->hdr_size)
			return corrupt(c, err, c->buf_stream_off + c->page_pos,
				       "page commit size exceeds the page");
		if (flags & RB_MISSED_EVENTS) {
			uint64_t n = TRACE_LOST_UNKNOWN;

			if ((flags & RB_MISSED_STORED) &&
			    c->commit + (uint32_t)c->long_size <= avail - c->hdr_size) {
				const uint8_t *q = p + c->hdr_size + c->commit;

				n = c->long_size == 8 ? tr_u64(q, c->swap) : tr_u32(q, c->swap);
			}
			if (n == TRACE_LOST_UNKNOWN || c->ev_lost == TRACE_LOST_UNKNOWN)
				c->ev_lost = TRACE_LOST_UNKNOWN;
			else
				c->ev_lost += n;
			if (n == TRACE_LOST_UNKNOWN) {
				c->lost_unknown = true;
				c->lost++;
			} else {
				c->lost += n;
			}
		}
		c->curr = 0;
		c->have_page = true;
		c->pg = p + c->hdr_size;
		c->pg_off = c->buf_stream_off + c->page_pos + c->hdr_size;
		return 1;
	}
}

int tr_cpu_advance(struct tr_cpu *c, struct sr_error *err)
{
	const bool big = c->file->big_endian;

	if (c->ready)
		c->ev_lost = 0;  /* the previous record consumed the gap */
	c->ready = false;
	while (!c->done) {
		const uint8_t *data;
		uint32_t w, type_len, delta, left;

		if (!c->have_page) {
			int r = load_page(c, err);

			if (r < 0)
				return -1;
			if (r == 0) {
				c->done = true;
				break;
			}
		}
		if (c->curr >= c->commit) {
			if (c->ts < c->page_ts)
				return time_back(c, err, c->buf_stream_off + c->page_pos,
						 "running time (wrapped past 2^64)", c->ts,
						 c->page_ts, "page's time stamp");
			c->have_page = false;
			c->page_pos += c->page_size;
			continue;
		}
		data = c->buf + c->page_pos + c->hdr_size;
		left = c->commit - c->curr;
		if (left < 4)
			return corrupt(c, err, c->buf_stream_off + c->page_pos + c->hdr_size + c->curr,
				       "record header runs past the page commit");
		w = tr_u32(data + c->curr, c->swap);
		type_len = big ? w >> 27 : w & 0x1f;
		delta = big ? w & RB_COMMIT_MASK : w >> 5;
		switch (type_len) {
		case RB_TYPE_PADDING: {
			uint32_t len;

			c->ts += delta;
			if (left < 8) {           /* a bare padding word ends the page */
				c->curr = c->commit;
				break;
			}
			len = tr_u32(data + c->curr + 4, c->swap);
			if (len >= left - 4)
				c->curr = c->commit;
			else
				c->curr += 4 + len;
			break;
		}
		case RB_TYPE_TIME_EXTEND:
		case RB_TYPE_TIME_STAMP: {
			uint64_t ext;

			if (left < 8)
				return corrupt(c, err, c->buf_stream_off + c->page_pos + c->hdr_size +
					       c->curr, "time extend runs past the page commit");
			ext = ((uint64_t)tr_u32(data + c->curr + 4, c->swap) << RB_TS_SHIFT) + delta;
			if (type_len == RB_TYPE_TIME_STAMP) {
				ext |= c->ts & RB_TS_MSB;
				if (ext < c->ev_ts)
					return time_back(c, err, c->buf_stream_off + c->page_pos +
							 c->hdr_size + c->curr, "absolute time stamp",
							 ext, c->ev_ts, "previous record's");
				c->ts = ext;
			} else {
				if (c->ts + ext < c->ts)
					return time_back(c, err, c->buf_stream_off + c->page_pos +
							 c->hdr_size + c->curr, "time extend to",
							 c->ts + ext, c->ts,
							 "running time (wrapped past 2^64)");
				c->ts += ext;
			}
			c->curr += 8;
			break;
		}
		default: {
			uint32_t hdr = 4, len;

			if (type_len == 0) {
				uint32_t l;

				if (left < 8)
					goto bad_record;
				l = tr_u32(data + c->curr + 4, c->swap);
				if (l < 4)
					goto bad_record;
				len = ((l - 4) + 3) & ~3u;
				hdr = 8;
			} else {
				len = type_len * 4;
			}
			if (len > left - hdr)
				goto bad_record;
			c->ts += delta;
			c->ev_ts = c->ts;
			c->ev_data = data + c->curr + hdr;
			c->ev_len = len;
			c->ev_off = c->buf_stream_off + c->page_pos + c->hdr_size + c->curr;
			c->curr += hdr + len;
			c->ready = true;
			return 1;
		}
		}
	}
	return 0;
bad_record:
	return corrupt(c, err, c->buf_stream_off + c->page_pos + c->hdr_size + c->curr,
		       "record length runs past the page commit");
}

int tr_cpu_last_ts(const struct tr_file *f, const struct tr_buffer_desc *b, int idx,
		   int kernel_long_size, uint64_t *ts, struct sr_error *err)
{
	struct tr_cpu c;
	/* pages, or chunks of 10 pages (trace-cmd's) when compressed */
	uint64_t back = b->compressed ? 1 : 4;
	int ret = -1;

	*ts = 0;
	for (;;) {
		bool from_start;
		int r;

		if (tr_cpu_init(&c, f, b, idx, kernel_long_size, err))
			goto out;
		if (c.done) {
			ret = 0;
			goto out;
		}
		if (!c.compressed) {
			uint64_t pages = c.stream_size / c.page_size;

			from_start = pages <= back;
			c.next_read = from_start ? 0 : (pages - back) * c.page_size;
		} else {
			/* walk the chunk headers to the last @back chunks */
			uint64_t start_chunk = c.nr_chunks > back ? c.nr_chunks - back : 0;

			for (uint64_t i = 0; i < start_chunk; i++) {
				uint32_t zsize, usize;

				if (chunk_header(&c, &zsize, &usize, err))
					goto out;
				c.chunk_file_off += 8 + (uint64_t)zsize;
				c.chunk_i++;
			}
			from_start = start_chunk == 0;
		}
		while ((r = tr_cpu_advance(&c, err)) == 1)
			*ts = c.ev_ts;
		if (r < 0)
			goto out;
		if (*ts || from_start) {
			ret = 0;
			goto out;
		}
		tr_cpu_release(&c);
		back *= 8;              /* the tail held no record: look further back */
	}
out:
	tr_cpu_release(&c);
	return ret;
}
