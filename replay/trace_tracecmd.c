// SPDX-License-Identifier: GPL-2.0
/*
 * The libtracecmd backend of the reader: the records of one buffer as
 * libtracecmd reads them, merged by timestamp across CPUs.
 *
 * tracecmd_open() parses the file's headers and every event format (that is
 * where its ~0.1 s fixed cost goes) and prepares each CPU's data; a buffer
 * instance gets its own handle from tracecmd_buffer_instance_handle().
 * tracecmd_read_data(handle, i) hands out stream i's records one at a time,
 * each a malloc'ed struct tep_record that pins its page; we keep the head
 * record of every stream in a min-heap keyed by (timestamp, stream index),
 * which is the order tracecmd_read_next_data() and tracecmd_iterate_events()
 * produce (ties to the lower index). The record last delivered is freed at
 * the next call, so the strings decoded from it stay valid until then.
 *
 * Offsets: for an uncompressed file libtracecmd's tep_record.offset is the
 * record's file offset, as the native reader's. For a compressed one it is
 * the offset in libtracecmd's decompressed copy of the data, one constant
 * away (per CPU) from the offset in that CPU's uncompressed stream that the
 * native reader gives; the constant is taken from each stream's first record
 * and every later record is checked by the tests to keep it.
 *
 * Lost events: kbuffer reports a page's missed-events flag on the page's
 * first record (tep_record.missed_events: the count, or -1 when the kernel
 * did not store it).
 *
 * A NULL from tracecmd_read_data() means the end or an error (allocation,
 * read, decompression) without saying which, so each stream's count is
 * compared with the records the native validation pass counted: a short
 * stream is an error, never a silently shorter trace.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/tracelibs.h>

#include "trace_local.h"

struct tc_stream {
	struct tep_record *head;       /* next record of the stream, NULL at its end */
	uint64_t read;                 /* records taken from libtracecmd */
	uint64_t expect;               /* records the validation pass counted */
	uint64_t rebase;               /* subtracted from offsets (compressed files) */
	uint64_t lost;
	bool lost_unknown;
	int cpu;                       /* CPU id of the stream's records, -1 until one */
};

struct tr_tc {
	const char *path;
	struct tracecmd_input *top;
	struct tracecmd_input *h;      /* top, or the instance's own handle */
	struct tc_stream *s;
	int nr;
	int *heap;
	int heap_n;
	struct tep_record *delivered;  /* freed at the next call */
	int delivered_idx;
	uint64_t first_ts;
};

static bool before(const struct tr_tc *tc, int a, int b)
{
	const struct tep_record *x = tc->s[a].head, *y = tc->s[b].head;

	return x->ts < y->ts || (x->ts == y->ts && a < b);
}

static void sift_down(struct tr_tc *tc, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i, t;

		if (l < tc->heap_n && before(tc, tc->heap[l], tc->heap[m]))
			m = l;
		if (l + 1 < tc->heap_n && before(tc, tc->heap[l + 1], tc->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = tc->heap[i];
		tc->heap[i] = tc->heap[m];
		tc->heap[m] = t;
		i = m;
	}
}

/* Load stream @i's next record: 1, 0 at its end, -1 if it ended early. */
static int pull(struct tr_tc *tc, int i, struct sr_error *err)
{
	struct tc_stream *s = &tc->s[i];

	s->head = sr_tracecmd->read_data(tc->h, i);
	if (!s->head) {
		if (s->read != s->expect) {
			sr_error_set(err, EIO, "libtracecmd ended stream %d (CPU %d) after %" PRIu64
				     " records, the file holds %" PRIu64, i, s->cpu, s->read,
				     s->expect);
			return -1;
		}
		return 0;
	}
	if (++s->read > s->expect) {
		sr_error_set(err, EIO, "libtracecmd read more records on stream %d (CPU %d) than "
			     "the file holds (%" PRIu64 ")", i, s->head->cpu, s->expect);
		return -1;
	}
	s->cpu = s->head->cpu;
	if (s->head->missed_events < 0) {
		s->lost++;
		s->lost_unknown = true;
	} else {
		s->lost += (uint64_t)s->head->missed_events;
	}
	return 1;
}

struct tr_tc *tr_tc_open(const char *path, const char *buffer, int nr_idx,
			 const struct tr_tc_expect *expect, bool rebase, struct sr_error *err)
{
	struct tr_tc *tc = calloc(1, sizeof(*tc));
	struct tep_record *extra;

	if (!tc) {
		sr_error_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	tc->path = path;
	tc->delivered_idx = -1;
	if (!sr_tracecmd_load(err))
		goto fail;
	/* libtracecmd would print its parse warnings on stderr; errors are ours to report */
	sr_tracecmd->set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	tc->top = sr_tracecmd->open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!tc->top) {
		sr_error_set(err, errno ? errno : EINVAL, "libtracecmd cannot open the file (%s)",
			     errno ? strerror(errno) : "tracecmd_open failed");
		goto fail;
	}
	tc->h = tc->top;
	if (buffer[0]) {
		int n = sr_tracecmd->buffer_instances(tc->top);

		tc->h = NULL;
		for (int i = 0; i < n; i++) {
			const char *name = sr_tracecmd->buffer_instance_name(tc->top, i);

			if (name && !strcmp(name, buffer)) {
				tc->h = sr_tracecmd->buffer_instance_handle(tc->top, i);
				if (!tc->h) {
					sr_error_set(err, EIO, "libtracecmd cannot open buffer '%s'",
						     buffer);
					goto fail;
				}
				break;
			}
		}
		if (!tc->h) {
			sr_error_set(err, ENOENT, "libtracecmd sees no buffer '%s' (%d instances)",
				     buffer, n);
			goto fail;
		}
	}
	tc->nr = nr_idx;
	tc->s = calloc((size_t)(nr_idx ? nr_idx : 1), sizeof(*tc->s));
	tc->heap = calloc((size_t)(nr_idx ? nr_idx : 1), sizeof(*tc->heap));
	if (!tc->s || !tc->heap) {
		sr_error_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	for (int i = 0; i < nr_idx; i++) {
		int r;

		tc->s[i].expect = expect[i].records;
		tc->s[i].cpu = -1;
		r = pull(tc, i, err);
		if (r < 0)
			goto fail;
		if (r == 0)
			continue;
		if (rebase)
			tc->s[i].rebase = tc->s[i].head->offset - expect[i].first_offset;
		if (!tc->heap_n || tc->s[i].head->ts < tc->first_ts)
			tc->first_ts = tc->s[i].head->ts;
		tc->heap[tc->heap_n++] = i;
	}
	/* a stream libtracecmd has beyond the ones the container lists */
	if ((extra = sr_tracecmd->read_data(tc->h, nr_idx))) {
		sr_tracecmd->free_record(extra);
		sr_error_set(err, EIO, "libtracecmd has more CPU streams than the %d of the file",
			     nr_idx);
		goto fail;
	}
	for (int i = tc->heap_n / 2 - 1; i >= 0; i--)
		sift_down(tc, i);
	return tc;
fail:
	tr_tc_close(tc);
	return NULL;
}

void tr_tc_close(struct tr_tc *tc)
{
	if (!tc)
		return;
	if (tc->delivered)
		sr_tracecmd->free_record(tc->delivered);
	for (int i = 0; tc->s && i < tc->nr; i++)
		if (tc->s[i].head)
			sr_tracecmd->free_record(tc->s[i].head);
	if (tc->h && tc->h != tc->top)
		sr_tracecmd->close(tc->h);
	if (tc->top)
		sr_tracecmd->close(tc->top);
	free(tc->s);
	free(tc->heap);
	free(tc);
}

struct tep_handle *tr_tc_tep(struct tr_tc *tc)
{
	return sr_tracecmd->get_tep(tc->h);
}

uint64_t tr_tc_first_ts(const struct tr_tc *tc)
{
	return tc->first_ts;
}

uint64_t tr_tc_lost(const struct tr_tc *tc, int cpu, bool *unknown)
{
	uint64_t n = 0;

	if (unknown)
		*unknown = false;
	for (int i = 0; i < tc->nr; i++) {
		if (tc->s[i].cpu != cpu)
			continue;
		n += tc->s[i].lost;
		if (unknown && tc->s[i].lost_unknown)
			*unknown = true;
	}
	return n;
}

int tr_tc_next(struct tr_tc *tc, struct tr_rec *rec, struct sr_error *err)
{
	struct tep_record *r;
	int i;

	if (tc->delivered) {
		sr_tracecmd->free_record(tc->delivered);
		tc->delivered = NULL;
	}
	if (tc->delivered_idx >= 0) {
		int ret = pull(tc, tc->delivered_idx, err);

		tc->delivered_idx = -1;
		if (ret < 0)
			return -1;
		if (ret == 0)
			tc->heap[0] = tc->heap[--tc->heap_n];
		if (tc->heap_n)
			sift_down(tc, 0);
	}
	if (!tc->heap_n)
		return 0;
	i = tc->heap[0];
	r = tc->s[i].head;
	tc->s[i].head = NULL;
	tc->delivered = r;
	tc->delivered_idx = i;
	if (r->size < 0) {
		sr_error_set(err, EINVAL, "corrupted data: CPU %d, offset %llu: record size %d",
			     r->cpu, r->offset, r->size);
		return -1;
	}
	rec->data = r->data;
	rec->len = (uint32_t)r->size;
	rec->cpu = r->cpu;
	rec->ts = r->ts;
	rec->offset = r->offset - tc->s[i].rebase;
	rec->lost_before = r->missed_events < 0 ? TRACE_LOST_UNKNOWN :
		(uint64_t)r->missed_events;
	return 1;
}
