// SPDX-License-Identifier: GPL-2.0
/*
 * The public reader (include/schedreplay/trace.h): opens the container,
 * chooses the buffer, merges the CPUs' streams by timestamp and decodes each
 * record into a struct trace_event.
 *
 * Two sources of records feed the one decoder: the native CPU streams of
 * trace_cpu.c (merged here), or libtracecmd (trace_tracecmd.c, which merges
 * its own). With libtracecmd, the container is parsed and the buffer chosen
 * natively first, and every page of the buffer is walked by the native page
 * decoder (validate_data()) before tracecmd_open() sees the file.
 *
 * Merge: a binary min-heap of CPUs keyed by (timestamp, CPU index), so ties
 * go to the lower CPU as in libtracecmd's iterator. The CPU whose record was
 * delivered is advanced lazily at the next call, which keeps the record's
 * bytes (and the strings that point into them) valid until then.
 *
 * With trace_open_opts.repair, the decoded events pass through the repair
 * stage (trace_repair.c) between the merge and the caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "trace_local.h"
#include "trace_repair.h"

/* Records decoded per CPU of each buffer when choosing the buffer. */
#define SAMPLE_RECORDS 2000

/* A CPU stream in the merge heap, with its next record's raw timestamp. */
struct heap_ent {
	uint64_t ts;
	int idx;                       /* in trace_reader.cpus */
	struct tr_cpu *c;              /* &cpus[idx] */
};

struct trace_reader {
	enum trace_backend backend;
	struct tr_tc *tc;              /* libtracecmd backend */
	struct tr_text *txt;           /* ftrace text input */
	struct tr_file file;
	struct tr_formats fm;
	const struct tr_buffer_desc *buf;
	char also[256];                /* trace_info.buffer_also, "" if none */
	struct tr_cpu *cpus;
	struct tr_prefetch *pf;        /* reading (and decompression) ahead */
	int nr_cpus;
	int nr_cpu_ids;
	struct heap_ent *heap;
	int heap_n;
	bool pending;                  /* advance heap[0]'s CPU at the next call */
	bool failed;
	uint64_t *counts;              /* [max_id + 2]; the last one is "unknown id" */
	uint64_t nread;
	uint64_t lost_before;
	struct tr_repair *rp;          /* NULL: the raw stream */
	/*
	 * The event type's fields are where every 64-bit kernel since 4.x puts
	 * them (std_layout_of()): the decoder's 8-byte-load path reads them at
	 * constant offsets instead of through the layout table.
	 */
	bool std_layout[TRACE_EV_NR_TYPES];
	bool rp_input_done;
	bool rp_empty;                 /* the last event passed straight through */
	struct trace_info info;
	char reason[512];
};

static const char *const type_names[TRACE_EV_NR_TYPES] = {
	[TRACE_EV_OTHER] = "other",
	[TRACE_EV_SCHED_SWITCH] = "sched_switch",
	[TRACE_EV_SCHED_WAKING] = "sched_waking",
	[TRACE_EV_SCHED_WAKEUP] = "sched_wakeup",
	[TRACE_EV_SCHED_WAKEUP_NEW] = "sched_wakeup_new",
	[TRACE_EV_SCHED_MIGRATE_TASK] = "sched_migrate_task",
	[TRACE_EV_SCHED_PROCESS_FORK] = "sched_process_fork",
	[TRACE_EV_SCHED_PROCESS_EXEC] = "sched_process_exec",
	[TRACE_EV_SCHED_PROCESS_EXIT] = "sched_process_exit",
	[TRACE_EV_SCHED_STAT_RUNTIME] = "sched_stat_runtime",
	[TRACE_EV_CGROUP_ATTACH_TASK] = "cgroup_attach_task",
	[TRACE_EV_SYS_ENTER_READ] = "sys_enter_read",
	[TRACE_EV_SYS_EXIT_READ] = "sys_exit_read",
	[TRACE_EV_SYS_ENTER_WRITE] = "sys_enter_write",
	[TRACE_EV_SYS_EXIT_WRITE] = "sys_exit_write",
	[TRACE_EV_SCHED_PI_SETPRIO] = "sched_pi_setprio",
	[TRACE_EV_SYS_ENTER_SCHED_SETAFFINITY] = "sys_enter_sched_setaffinity",
	[TRACE_EV_SYS_EXIT_SCHED_SETAFFINITY] = "sys_exit_sched_setaffinity",
};

const char *trace_event_type_name(enum trace_event_type type)
{
	return (unsigned)type < TRACE_EV_NR_TYPES ? type_names[type] : "?";
}

/* @b's value as trace_bad_value_error() prints it */
static const char *bad_value_str(const struct trace_bad_value *b, char *buf, size_t size)
{
	if (b->print == TRACE_BAD_U64)
		snprintf(buf, size, "%" PRIu64, (uint64_t)b->value);
	else if (b->print == TRACE_BAD_HEX && b->value >= 0)
		snprintf(buf, size, "%#" PRIx64, (uint64_t)b->value);
	else
		snprintf(buf, size, "%" PRId64, b->value);
	return buf;
}

void trace_bad_value_error(const struct trace_event *ev, const struct trace_bad_value *b,
			   const char *where, struct sr_error *err)
{
	char v[32];

	sr_error_set(err, EINVAL, "corrupted data: %s: %s with %s %s, which no kernel writes (%s)",
		     where, ev->name ? ev->name : trace_event_type_name(ev->type), b->field,
		     bad_value_str(b, v, sizeof(v)), b->range);
}

const char *trace_event_where(const struct trace_event *ev, char *buf, size_t size)
{
	if (ev->offset_is_line)
		snprintf(buf, size, "CPU %d, line %" PRIu64, ev->cpu, ev->offset);
	else if (ev->offset || ev->offset_in_stream)
		/* offset 0 is the file header: an event made by hand, without one */
		snprintf(buf, size, "CPU %d, %s offset %" PRIu64, ev->cpu,
			 ev->offset_in_stream ? "stream" : "file", ev->offset);
	else
		snprintf(buf, size, "CPU %d", ev->cpu);
	return buf;
}

bool trace_event_cpu_past(const struct trace_event *ev, int32_t limit, struct trace_bad_value *b)
{
	static const char *const wakeup[3] = { "cpu", "target_cpu", NULL };
	static const char *const migrate[3] = { "cpu", "orig_cpu", "dest_cpu" };
	const char *const *names = ev->type == TRACE_EV_SCHED_MIGRATE_TASK ? migrate : wakeup;
	int32_t cpu;
	int i = trace_event_cpu_field_from(ev, limit, &cpu);

	if (i < 0)
		return false;
	*b = (struct trace_bad_value){ names[i] ? names[i] : "cpu", cpu, NULL, TRACE_BAD_INT };
	return true;
}

void trace_cpu_past_error(const struct trace_event *ev, const struct trace_bad_value *b,
			  const struct trace_info *in, const char *where, struct sr_error *err)
{
	sr_error_set(err, EINVAL, "corrupted data: %s: %s with %s %" PRId64 ", which no kernel "
		     "writes (the %s says %d CPUs, the kernel's nr_cpu_ids: a CPU number is "
		     "0 .. %d)", where, ev->name ? ev->name : trace_event_type_name(ev->type),
		     b->field, b->value, in->cpus_from ? in->cpus_from : "trace.dat header",
		     in->cpus, in->cpus - 1);
}

int trace_cgroup_path_depth(const char *path, size_t len)
{
	int depth = 0;

	/* TRACE_CGROUP_PATH_LEN 1024 with its NUL: a longer path is cut */
	if (!len || path[0] != '/' || len >= 1023)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (path[i] == '/' && i + 1 < len && path[i + 1] != '/')
			depth++;
	return depth;
}

bool trace_bad_cgroup_level(const struct trace_cgroup_attach_task *g, struct trace_bad_value *b)
{
	int depth;

	if (!g->has_dst_level)
		return false;
	depth = trace_cgroup_path_depth(g->dst_path, g->dst_path_len);
	if (g->dst_level >= 0 && (depth < 0 || g->dst_level == depth))
		return false;
	*b = (struct trace_bad_value){ "dst_level", g->dst_level,
				       depth < 0 ? "a cgroup's level is 0 or more" :
				       "a cgroup's level is the depth of its dst_path: 0 for \"/\", "
				       "1 for \"/a\", ...", TRACE_BAD_INT };
	return true;
}

const char *trace_backend_name(enum trace_backend b)
{
	return b == TRACE_BACKEND_LIBTRACECMD ? "libtracecmd" : "native";
}

int trace_backend_parse(const char *name, enum trace_backend *out)
{
	if (!strcmp(name, "native"))
		*out = TRACE_BACKEND_NATIVE;
	else if (!strcmp(name, "libtracecmd"))
		*out = TRACE_BACKEND_LIBTRACECMD;
	else
		return -1;
	return 0;
}

/* ---- field access --------------------------------------------------------- */

static inline uint64_t rd_u(const uint8_t *d, const struct tr_field *f, bool swap)
{
	const uint8_t *p = d + f->offset;

	switch (f->size) {
	case 1:
		return *p;
	case 2:
		return tr_u16(p, swap);
	case 4:
		return tr_u32(p, swap);
	case 8:
		return tr_u64(p, swap);
	default:
		return 0;
	}
}

static inline int64_t rd_s(const uint8_t *d, const struct tr_field *f, bool swap)
{
	uint64_t v = rd_u(d, f, swap);

	switch (f->size) {
	case 1:
		return (int8_t)v;
	case 2:
		return (int16_t)v;
	case 4:
		return (int32_t)v;
	default:
		return (int64_t)v;
	}
}

/* A string field: fixed char[N] or __data_loc / __rel_loc. false if corrupt. */
static inline bool rd_str(const uint8_t *d, uint32_t len, const struct tr_field *f, bool swap,
			  const char **s, size_t *n)
{
	uint32_t off, l;

	if (!(f->flags & TR_F_PRESENT)) {
		*s = "";
		*n = 0;
		return true;
	}
	if (f->flags & TR_F_DYNAMIC) {
		uint32_t loc = tr_u32(d + f->offset, swap);

		off = loc & 0xffff;
		l = loc >> 16;
		if (f->flags & TR_F_RELATIVE)
			off += (uint32_t)f->offset + f->size;
		if (off > len || l > len - off)
			return false;
	} else {
		off = f->offset;
		l = f->size;
	}
	*s = (const char *)d + off;
	*n = strnlen(*s, l);
	return true;
}

/*
 * A comm: at most the first 15 bytes of @s before a NUL or @limit, stored
 * zero-padded to 16 bytes; @s has 16 readable bytes. One vector compare and
 * one 16-byte store: strnlen() and a variable-length memcpy() (a `rep movsb`)
 * were a quarter of the reader's time. True if a NUL is among the first
 * @limit (at most 16) bytes: the kernel ends every comm with one (a
 * char[TASK_COMM_LEN] is memcpy()'d from task->comm, which __set_task_comm()
 * keeps NUL-terminated; a __string's __assign_str() writes the NUL last).
 */
static inline __attribute__((always_inline)) bool
comm16(const uint8_t *s, uint32_t limit, char out[TRACE_COMM_LEN])
{
#if defined(__SSE2__) && TRACE_COMM_LEN == 16
	const __m128i idx = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
	unsigned nul = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));
	unsigned n = (unsigned)__builtin_ctz(nul | 0x8000u);

	if (n > limit)
		n = limit;
	v = _mm_and_si128(v, _mm_cmplt_epi8(idx, _mm_set1_epi8((char)n)));
	_mm_storeu_si128((__m128i *)(void *)out, v);
	return (nul & (limit >= 16 ? 0xffffu : (1u << limit) - 1)) != 0;
#else
	size_t n = strnlen((const char *)s, limit < TRACE_COMM_LEN - 1 ? limit : TRACE_COMM_LEN - 1);

	memset(out, 0, TRACE_COMM_LEN);
	memcpy(out, s, n);
	return memchr(s, 0, limit < TRACE_COMM_LEN ? limit : TRACE_COMM_LEN) != NULL;
#endif
}

/* A NUL among the @n bytes at @s (a comm field longer than 16 bytes: its rest). */
static __attribute__((noinline)) bool nul_in(const uint8_t *s, uint32_t n)
{
	return memchr(s, 0, n) != NULL;
}

/*
 * @avail: bytes readable at @d, at least @len (comm16() reads 16 at once).
 * False if the comm points outside the record, or has no NUL among its
 * bytes (the char[16]'s, or the __data_loc string's own length): which one,
 * string_error() tells.
 */
static inline __attribute__((always_inline)) bool
rd_comm(const uint8_t *d, uint32_t len, uint32_t avail, const struct tr_field *f, bool swap,
	char out[TRACE_COMM_LEN])
{
	const char *s;
	size_t n;
	uint32_t flen;

	if (!(f->flags & TR_F_PRESENT)) {
		out[0] = '\0';
		return true;
	}
	if (!(f->flags & TR_F_DYNAMIC)) {
		/* char[16] in every kernel; within the record: decode() checked min_size */
		flen = f->size;
		if (f->size >= TRACE_COMM_LEN)
			return comm16(d + f->offset, f->size, out) ||
			       (f->size > TRACE_COMM_LEN &&
				nul_in(d + f->offset + TRACE_COMM_LEN, f->size - TRACE_COMM_LEN));
	} else {
		/* __data_loc char[] (sched_stat_runtime, sched_migrate_task in 6.x) */
		uint32_t loc = tr_u32(d + f->offset, swap);
		uint32_t off = loc & 0xffff, l = loc >> 16;

		if (f->flags & TR_F_RELATIVE)
			off += (uint32_t)f->offset + f->size;
		if (off > len || l > len - off)
			return false;
		flen = l;
		/* the string ends the record: the 16 bytes read may pass its end */
		if (avail - off >= TRACE_COMM_LEN)
			return comm16(d + off, l, out) ||
			       (l > TRACE_COMM_LEN &&
				nul_in(d + off + TRACE_COMM_LEN, l - TRACE_COMM_LEN));
	}
	if (!rd_str(d, len, f, swap, &s, &n))
		return false;
	if (n > TRACE_COMM_LEN - 1)
		n = TRACE_COMM_LEN - 1;
	memcpy(out, s, n);
	out[n] = '\0';
	return memchr(s, 0, flen) != NULL;
}

static inline uint32_t rec_id(const struct tr_formats *fm, const uint8_t *d, uint32_t len,
			      bool swap)
{
	if (len < (uint32_t)fm->common_type.offset + fm->common_type.size)
		return UINT32_MAX;
	return (uint32_t)rd_u(d, &fm->common_type, swap);
}

/* ---- buffer choice -------------------------------------------------------- */

struct sample {
	uint64_t records, sched;
};

static int sample_buffer(struct trace_reader *r, const struct tr_buffer_desc *b,
			 struct sample *s, struct sr_error *err)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < b->nr_cpus; i++) {
		struct tr_cpu c;
		int n = 0, ret;

		if (tr_cpu_init(&c, &r->file, b, i, r->fm.kernel_long_size, err))
			return -1;
		while (n < SAMPLE_RECORDS && (ret = tr_cpu_next(&c, err)) == 1) {
			uint32_t id = rec_id(&r->fm, c.ev_data, c.ev_len, c.swap);

			n++;
			/* a decoded type before the syscall ones (one compare: OTHER is 0) */
			if (id <= r->fm.max_id &&
			    r->fm.type_of_id[id] - 1u < (unsigned)TRACE_EV_SYS_ENTER_READ - 1u)
				s->sched++;
		}
		tr_cpu_release(&c);
		if (n < SAMPLE_RECORDS && ret < 0)
			return -1;
		s->records += (uint64_t)n;
	}
	return 0;
}

/*
 * The other buffers whose sample holds sched events into r->also (@s: each
 * buffer's sample, NULL: sampled here, a buffer that fails left out: it is
 * not the one read).
 */
static void note_other_buffers(struct trace_reader *r, const struct sample *s)
{
	const struct tr_file *f = &r->file;
	size_t pos = 0;

	r->also[0] = '\0';
	for (int i = 0; i < f->nr_buffers; i++) {
		const struct tr_buffer_desc *b = &f->buffers[i];
		struct sample one;
		struct sr_error ignored = { 0 };

		if (b == r->buf || b->latency)
			continue;
		if (s)
			one = s[i];
		else if (sample_buffer(r, b, &one, &ignored))
			continue;
		if (!one.sched || pos >= sizeof(r->also) - 1)
			continue;
		pos += (size_t)snprintf(r->also + pos, sizeof(r->also) - pos,
					"%s%s%s%s (%" PRIu64 " sched of %" PRIu64 " sampled records)",
					pos ? "; " : "", b->name[0] ? "'" : "",
					b->name[0] ? b->name : "the top level", b->name[0] ? "'" : "",
					one.sched, one.records);
	}
}

static int choose_buffer(struct trace_reader *r, const char *want, struct sr_error *err)
{
	struct tr_file *f = &r->file;
	int best = -1;
	struct sample best_s = { 0 }, *all;
	size_t pos = 0;

	if (want) {
		for (int i = 0; i < f->nr_buffers; i++)
			if (!strcmp(f->buffers[i].name, want))
				best = i;
		if (best < 0) {
			char list[256] = "";
			size_t lp = 0;

			for (int i = 0; i < f->nr_buffers && lp < sizeof(list) - 1; i++)
				lp += (size_t)snprintf(list + lp, sizeof(list) - lp, "%s'%s'",
						       i ? ", " : "", f->buffers[i].name);
			sr_error_set(err, ENOENT, "no buffer named '%s' (buffers: %s; '' is the top level)",
				     want, list);
			return -1;
		}
		if (f->buffers[best].latency) {
			sr_error_set(err, ENOTSUP, "buffer '%s' holds latency-tracer text, not events",
				     want);
			return -1;
		}
		r->buf = &f->buffers[best];
		snprintf(r->reason, sizeof(r->reason), "requested");
		note_other_buffers(r, NULL);
		return 0;
	}
	if (!(all = calloc((size_t)f->nr_buffers, sizeof(*all)))) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	for (int i = 0; i < f->nr_buffers; i++) {
		const struct tr_buffer_desc *b = &f->buffers[i];
		struct sample s;
		const char *label = b->name[0] ? b->name : "top level";

		if (b->latency) {
			pos += (size_t)snprintf(r->reason + pos, sizeof(r->reason) - pos,
						"%s%s: latency text", pos ? "; " : "", label);
			pos = pos < sizeof(r->reason) ? pos : sizeof(r->reason) - 1;
			continue;
		}
		if (sample_buffer(r, b, &s, err)) {
			sr_error_prefix(err, "buffer '%s'", b->name);
			free(all);
			return -1;
		}
		all[i] = s;
		pos += (size_t)snprintf(r->reason + pos, sizeof(r->reason) - pos,
					"%s%s: %" PRIu64 " sched of %" PRIu64 " sampled records",
					pos ? "; " : "", label, s.sched, s.records);
		pos = pos < sizeof(r->reason) ? pos : sizeof(r->reason) - 1;
		/* most sched records wins, then most records; the top level on ties */
		if (best < 0 || s.sched > best_s.sched ||
		    (s.sched == best_s.sched && s.records > best_s.records)) {
			best = i;
			best_s = s;
		}
	}
	if (best < 0) {
		sr_error_set(err, EINVAL, "no buffer with ring-buffer events (only latency text)");
		free(all);
		return -1;
	}
	r->buf = &f->buffers[best];
	note_other_buffers(r, all);
	free(all);
	if (f->nr_buffers == 1)
		snprintf(r->reason, sizeof(r->reason), "the only buffer (%" PRIu64
			 " sched of %" PRIu64 " sampled records)", best_s.sched, best_s.records);
	return 0;
}

/* ---- merge ---------------------------------------------------------------- */

static inline bool cpu_before(const struct heap_ent *x, const struct heap_ent *y)
{
	return x->ts < y->ts || (x->ts == y->ts && x->idx < y->idx);
}

static void sift_down(struct trace_reader *r, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i;

		if (l < r->heap_n && cpu_before(&r->heap[l], &r->heap[m]))
			m = l;
		if (l + 1 < r->heap_n && cpu_before(&r->heap[l + 1], &r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		struct heap_ent t = r->heap[i];

		r->heap[i] = r->heap[m];
		r->heap[m] = t;
		i = m;
	}
}

static uint64_t conv_ts(const struct tr_file *f, uint64_t ts)
{
	if (f->tsc_mult) {
		/* mul_u64_u32_shr: ts * mult >> shift without overflowing 64 bits */
		uint64_t lo = (ts & 0xffffffffu) * f->tsc_mult;
		uint64_t hi = (ts >> 32) * f->tsc_mult;

		ts = (lo >> f->tsc_shift) + (f->tsc_shift ? hi << (32 - f->tsc_shift) : hi << 32);
	}
	return ts + (uint64_t)f->ts_offset;
}

/* ---- open/close ----------------------------------------------------------- */

/* A fixed-size field at @offset of @size bytes (not __data_loc). */
static bool field_at(const struct tr_field *f, unsigned offset, unsigned size)
{
	return (f->flags & (TR_F_PRESENT | TR_F_DYNAMIC | TR_F_RELATIVE)) == TR_F_PRESENT &&
		f->offset == offset && f->size == size;
}

/*
 * The layouts of include/trace/events/sched.h on 64-bit kernels since 4.x
 * (the common header is 8 bytes): sched_switch prev_comm[16] at 8, prev_pid
 * 24, prev_prio 28, long prev_state 32, next_comm[16] 40, next_pid 56,
 * next_prio 60; sched_waking/wakeup/wakeup_new comm[16] at 8, pid 24, prio
 * 28, target_cpu 32, no success; since 6.8 sched_stat_runtime __data_loc
 * comm at 8, pid 12, u64 runtime 16, no vruntime; sys_enter_read/write
 * unsigned long fd at 16, count 32 (after __syscall_nr at 8 and buf at 24),
 * sys_exit_read/write long ret at 16. Anything else keeps the table-driven
 * reads.
 */
static void find_std_layouts(struct trace_reader *r)
{
	const struct tr_formats *fm = &r->fm;
	const struct tr_field *f;

	memset(r->std_layout, 0, sizeof(r->std_layout));
	if (!fm->std_common)
		return;
	f = fm->ev[TRACE_EV_SCHED_SWITCH].f;
	r->std_layout[TRACE_EV_SCHED_SWITCH] =
		fm->ev[TRACE_EV_SCHED_SWITCH].present &&
		field_at(&f[SW_PREV_COMM], 8, TRACE_COMM_LEN) && field_at(&f[SW_PREV_PID], 24, 4) &&
		field_at(&f[SW_PREV_PRIO], 28, 4) && field_at(&f[SW_PREV_STATE], 32, 8) &&
		field_at(&f[SW_NEXT_COMM], 40, TRACE_COMM_LEN) && field_at(&f[SW_NEXT_PID], 56, 4) &&
		field_at(&f[SW_NEXT_PRIO], 60, 4);
	for (int t = TRACE_EV_SCHED_WAKING; t <= TRACE_EV_SCHED_WAKEUP_NEW; t++) {
		f = fm->ev[t].f;
		r->std_layout[t] = fm->ev[t].present &&
			field_at(&f[WK_COMM], 8, TRACE_COMM_LEN) && field_at(&f[WK_PID], 24, 4) &&
			field_at(&f[WK_PRIO], 28, 4) && field_at(&f[WK_TARGET_CPU], 32, 4) &&
			f[WK_SUCCESS].size == 0;
	}
	f = fm->ev[TRACE_EV_SCHED_STAT_RUNTIME].f;
	r->std_layout[TRACE_EV_SCHED_STAT_RUNTIME] =
		fm->ev[TRACE_EV_SCHED_STAT_RUNTIME].present &&
		(f[RT_COMM].flags & (TR_F_PRESENT | TR_F_DYNAMIC | TR_F_RELATIVE)) ==
		(TR_F_PRESENT | TR_F_DYNAMIC) && f[RT_COMM].offset == 8 && f[RT_COMM].size == 4 &&
		field_at(&f[RT_PID], 12, 4) && field_at(&f[RT_RUNTIME], 16, 8) &&
		f[RT_VRUNTIME].size == 0;
	for (int t = TRACE_EV_SYS_ENTER_READ; t <= TRACE_EV_SYS_EXIT_WRITE; t++) {
		bool enter = t == TRACE_EV_SYS_ENTER_READ || t == TRACE_EV_SYS_ENTER_WRITE;

		f = fm->ev[t].f;
		r->std_layout[t] = fm->ev[t].present &&
			(enter ? field_at(&f[SC_FD], 16, 8) && field_at(&f[SC_COUNT], 32, 8) :
			 field_at(&f[SC_RET], 16, 8));
	}
}

/*
 * A thread reading ahead pays for itself by decompressing while the decoder
 * works: on a compressed buffer of at least TRACE_PREFETCH_MIN_COMPRESSED
 * bytes. Uncompressed data costs a page-cache copy per 64 KiB window, less
 * than handing the window over between threads: the report of hackbench 8 s
 * (v6, 15 MB) and of the v6/v7 extracts (17 MB) took as long or less
 * without the thread, best of 40 (docs/report.md, "Speed"). Below the
 * threshold the thread's start, wake-ups and join cost more than it saves
 * (1 s of hackbench as v7 zstd, 0.4 MB: 8.9 ms with it, 8.4 ms without).
 */
static bool use_prefetch(const struct trace_reader *r, enum trace_prefetch mode)
{
	uint64_t bytes = 0;

	if (mode != TRACE_PREFETCH_AUTO)
		return mode == TRACE_PREFETCH_ALWAYS;
	if (!r->buf->compressed)
		return false;
	for (int i = 0; i < r->nr_cpus; i++)
		bytes += r->buf->cpus[i].size;
	return bytes >= TRACE_PREFETCH_MIN_COMPRESSED;
}

/* Native streams of the chosen buffer, their heap, and the span. */
static int open_native(struct trace_reader *r, enum trace_prefetch prefetch, uint64_t *first,
		       uint64_t *last, struct sr_error *err)
{
	struct tr_file *f = &r->file;

	r->pf = use_prefetch(r, prefetch) ? tr_prefetch_new(f, r->nr_cpus) : NULL;
	for (int i = 0; i < r->nr_cpus; i++) {
		struct tr_cpu *c = &r->cpus[i];
		uint64_t lts;
		int ret;

		if (tr_cpu_init(c, f, r->buf, i, r->fm.kernel_long_size, err))
			return -1;
		if (r->pf)
			tr_cpu_prefetch(c, r->pf);
		ret = tr_cpu_advance(c, err);
		if (ret < 0)
			return -1;
		if (ret == 0)
			continue;
		r->heap[r->heap_n++] = (struct heap_ent){ c->ev_ts, i, c };
		if (conv_ts(f, c->ev_ts) < *first)
			*first = conv_ts(f, c->ev_ts);
		if (tr_cpu_last_ts(f, r->buf, i, r->fm.kernel_long_size, &lts, err))
			return -1;
		if (conv_ts(f, lts) > *last)
			*last = conv_ts(f, lts);
	}
	for (int i = r->heap_n / 2 - 1; i >= 0; i--)
		sift_down(r, i);
	return 0;
}

/*
 * Walk every page and record of the buffer with the native decoder: lengths,
 * commits, padding, time extends. libtracecmd trusts all of them (a cut data
 * region crashes it; kbuffer loops on a zero-length padding record), so it
 * only gets files that pass. Counts each CPU's records for tr_tc_open() and
 * gives the last timestamp.
 */
static int validate_data(struct trace_reader *r, struct tr_tc_expect *ex, uint64_t *last,
			 struct sr_error *err)
{
	for (int i = 0; i < r->nr_cpus; i++) {
		struct tr_cpu c;
		int ret;

		ex[i].records = 0;
		if (tr_cpu_init(&c, &r->file, r->buf, i, r->fm.kernel_long_size, err))
			return -1;
		while ((ret = tr_cpu_advance(&c, err)) == 1)
			if (!ex[i].records++)
				ex[i].first_offset = c.off_base + c.ev_off;
		if (ex[i].records && conv_ts(&r->file, c.ev_ts) > *last)
			*last = conv_ts(&r->file, c.ev_ts);
		tr_cpu_release(&c);
		if (ret < 0)
			return -1;
	}
	return 0;
}

static int open_tracecmd(struct trace_reader *r, uint64_t *first, uint64_t *last,
			 struct sr_error *err)
{
	struct tr_tc_expect *ex = calloc(r->nr_cpus > 0 ? (size_t)r->nr_cpus : 1, sizeof(*ex));
	int ret = -1;

	if (!ex) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	if (validate_data(r, ex, last, err))
		goto out;
	r->tc = tr_tc_open(r->file.path, r->buf->name, r->nr_cpus, ex, r->buf->compressed, err);
	if (!r->tc)
		goto out;
	/* from here on, ids, names and layouts are libtracecmd's */
	tr_formats_release(&r->fm);
	if (tr_formats_from_tep(&r->fm, tr_tc_tep(r->tc), r->file.big_endian, err))
		goto out;
	if (tr_tc_first_ts(r->tc))
		*first = tr_tc_first_ts(r->tc);
	ret = 0;
out:
	free(ex);
	return ret;
}

/*
 * ftrace text instead of a trace.dat? (the magic is checked by tr_file_open)
 * A trace.dat is told by its first 3 bytes, without stdio's buffer or the
 * 16 KiB the text sniffer looks at.
 */
static bool looks_like_text(const char *path)
{
	char buf[16384];
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while (n < sizeof(buf)) {
		ssize_t got = read(fd, buf + n, n < 3 ? 3 - n : sizeof(buf) - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
		if (n == 3 && !memcmp(buf, "\027\010\104", 3))
			break;
	}
	close(fd);
	if (n >= 3 && !memcmp(buf, "\027\010\104", 3))
		return false;
	return tr_text_sniff(buf, n);
}

static struct trace_reader *open_text(struct trace_reader *r, const char *path,
				      const struct trace_open_opts *opts, struct sr_error *err)
{
	const struct tr_text_info *ti;

	r->txt = tr_text_open(path, opts ? opts->buffer : NULL, err);
	if (!r->txt) {
		sr_error_prefix(err, "%s: ftrace text", path);
		free(r);
		return NULL;
	}
	ti = tr_text_get_info(r->txt);
	r->nr_cpu_ids = ti->cpus;
	r->info = (struct trace_info){
		.path = path,
		.backend = "text",
		.format = "text",
		.file_version = 0,
		.compression = "none",
		.cpus = ti->cpus,
		.cpus_from = ti->cpus_from,
		.buffer = ti->buffer,
		.buffer_reason = ti->buffer_reason,
		.nr_buffers = ti->nr_buffers,
		.first_ts = ti->first_ts,
		.last_ts = ti->last_ts,
		.prev_state_how = ti->prev_state_how,
		.prev_state_before = ti->prev_state_before,
		.records_migrations = ti->records_migrations,
		.records_forks = ti->records_forks,
	};
	return r;
}

/* The repair stage, if asked for; @r is freed on failure. */
static struct trace_reader *setup_repair(struct trace_reader *r, const struct trace_open_opts *opts,
					 struct sr_error *err)
{
	unsigned int mode = opts ? opts->repair : 0;
	uint16_t switch_id;

	if (!r || !mode)
		return r;
	switch_id = r->txt ? 0 : r->fm.ev[TRACE_EV_SCHED_SWITCH].id;
	if (mode & ~(unsigned int)TRACE_REPAIR_IDLE_EXIT) {
		sr_error_set(err, EINVAL, "%s: unknown repair 0x%x", r->info.path, mode);
		trace_close(r);
		return NULL;
	}
	r->rp = tr_repair_new(mode, r->nr_cpu_ids, switch_id, NULL);
	if (!r->rp) {
		sr_error_set(err, ENOMEM, "%s: out of memory", r->info.path);
		trace_close(r);
		return NULL;
	}
	r->info.repair = mode;
	r->info.repair_cpus = tr_repair_stats(r->rp);
	r->info.repair_nr_cpus = r->nr_cpu_ids;
	return r;
}

/*
 * Event formats only a big.LITTLE kernel has: the HMP scheduler's ("big.LITTLE
 * MP": sched_hmp_migrate, sched_hmp_offload_abort, ...), which moved tasks
 * between the clusters by load.  A static name for trace_info.asym_format,
 * NULL if the file has none.
 */
static const char *asym_format(const struct tr_formats *fm)
{
	for (unsigned int id = 0; fm->name_of_id && id <= fm->max_id; id++)
		if (fm->name_of_id[id] && !strncmp(fm->name_of_id[id], "sched_hmp_", 10))
			return "sched_hmp_* (the big.LITTLE HMP scheduler's)";
	return NULL;
}

static struct trace_reader *open_reader(const char *path, const struct trace_open_opts *opts,
					struct sr_error *err)
{
	struct trace_reader *r = calloc(1, sizeof(*r));
	struct tr_file *f;
	uint64_t first = UINT64_MAX, last = 0;
	uint8_t *seen = NULL;          /* CPU ids of the buffer's data sections */
	bool any;
	struct stat st;

	if (!r) {
		sr_error_set(err, ENOMEM, "%s: out of memory", path);
		return NULL;
	}
	/*
	 * Only a regular file is a trace (tr_file_open() checks it too, after
	 * its open()): a FIFO with no writer hung in open(), and of a pipe
	 * (`report <(cat trace.txt)`) the text sniffer consumed what it read,
	 * so the text reader's own open got the rest ("holds no events").
	 */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		sr_error_set(err, EINVAL, "%s: not a regular file%s", path,
			     S_ISFIFO(st.st_mode) ? " (a pipe or FIFO: save the trace to a file and "
			     "give that)" : "");
		free(r);
		return NULL;
	}
	if (looks_like_text(path))
		return open_text(r, path, opts, err);
	r->backend = opts ? opts->backend : TRACE_BACKEND_NATIVE;
	if (r->backend != TRACE_BACKEND_NATIVE && r->backend != TRACE_BACKEND_LIBTRACECMD) {
		sr_error_set(err, EINVAL, "%s: unknown reader backend %d", path, (int)r->backend);
		free(r);
		return NULL;
	}
	if (tr_file_open(&r->file, path, err)) {
		free(r);
		return NULL;
	}
	f = &r->file;
	if (tr_formats_load(&r->fm, f, false, err))
		goto fail;
	/* indexed and the decoded ones parsed: the texts (~2 MB in an extract) go */
	tr_file_drop_formats(f);
	if (choose_buffer(r, opts ? opts->buffer : NULL, err))
		goto fail;

	r->nr_cpus = r->buf->nr_cpus;
	r->nr_cpu_ids = f->cpus;
	r->cpus = calloc((size_t)(r->nr_cpus ? r->nr_cpus : 1), sizeof(*r->cpus));
	r->heap = calloc((size_t)(r->nr_cpus ? r->nr_cpus : 1), sizeof(*r->heap));
	if (!r->cpus || !r->heap) {
		sr_error_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	if (!(seen = calloc(65536 / 8, 1))) {
		sr_error_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	for (int i = 0; i < r->nr_cpus; i++) {
		int cpu = r->buf->cpus[i].cpu;

		if (cpu < 0 || cpu > 65535) {
			sr_error_set(err, EINVAL, "corrupted: CPU id %d", cpu);
			goto fail;
		}
		/*
		 * Two data sections of one CPU (a damaged v7 BUFFER option): merged
		 * by time they read as one CPU switching between two streams' tasks,
		 * every figure plausible (trace-cmd reads no record of such a file)
		 */
		if (seen[cpu / 8] & (1u << (cpu % 8))) {
			const char *nm = r->buf->name ? r->buf->name : "";

			sr_error_set(err, EINVAL, "corrupted: %s%s%s has two data sections of CPU %d",
				     nm[0] ? "buffer '" : "the top-level buffer", nm, nm[0] ? "'" : "",
				     cpu);
			goto fail;
		}
		seen[cpu / 8] |= (uint8_t)(1u << (cpu % 8));
		/*
		 * A CPU past the file's count (its CPUCOUNT option; v6's sections
		 * are numbered by it, a v7 file without it counts its sections):
		 * libtracecmd reads no record of it, the native backend read it as
		 * one more CPU with exit 0 (the fuzz class cpuid op=past)
		 */
		if (cpu >= f->cpus) {
			const char *nm = r->buf->name ? r->buf->name : "";

			sr_error_set(err, EINVAL, "corrupted: %s%s%s has a data section of CPU %d, "
				     "the %s says %d CPUs", nm[0] ? "buffer '" : "the top-level buffer",
				     nm, nm[0] ? "'" : "", cpu, f->cpus_from ? f->cpus_from : "file",
				     f->cpus);
			goto fail;
		}
	}
	free(seen);
	seen = NULL;
	if (r->backend == TRACE_BACKEND_LIBTRACECMD ? open_tracecmd(r, &first, &last, err) :
	    open_native(r, opts ? opts->prefetch : TRACE_PREFETCH_AUTO, &first, &last, err))
		goto fail;
	find_std_layouts(r);
	r->counts = calloc((size_t)r->fm.max_id + 2, sizeof(*r->counts));
	if (!r->counts) {
		sr_error_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	any = first != UINT64_MAX;

	r->info = (struct trace_info){
		.path = path,
		.backend = trace_backend_name(r->backend),
		.format = "trace.dat",
		.file_version = f->version,
		.compression = f->compress_name,
		.big_endian = f->big_endian,
		.long_size = r->fm.kernel_long_size,
		.cpus = f->cpus,
		.cpus_from = f->cpus_from,
		.cpus_exact = f->cpus_exact,
		.uname = f->uname,
		.tracer_version = f->tracer_version,
		.has_trace_id = f->has_trace_id,
		.trace_id = f->trace_id,
		.clock = r->buf->clock ? r->buf->clock : f->clock,
		.buffer = r->buf->name,
		.buffer_reason = r->reason,
		.buffer_also = r->also[0] ? r->also : NULL,
		.nr_buffers = f->nr_buffers,
		.page_size = r->buf->page_size ? r->buf->page_size : f->page_size,
		.first_ts = any ? first : 0,
		.last_ts = last,
		.has_sched_waking_format = r->fm.ev[TRACE_EV_SCHED_WAKING].present,
		.has_sched_wakeup_format = r->fm.ev[TRACE_EV_SCHED_WAKEUP].present,
		.records_migrations = r->fm.ev[TRACE_EV_SCHED_MIGRATE_TASK].present,
		.records_forks = r->fm.ev[TRACE_EV_SCHED_WAKEUP_NEW].present ||
				 r->fm.ev[TRACE_EV_SCHED_PROCESS_FORK].present,
		.asym_format = asym_format(&r->fm),
	};
	return r;
fail:
	free(seen);
	sr_error_prefix(err, "%s", path);
	trace_close(r);
	return NULL;
}

struct trace_reader *trace_open(const char *path, const struct trace_open_opts *opts,
				struct sr_error *err)
{
	return setup_repair(open_reader(path, opts, err), opts, err);
}

void trace_close(struct trace_reader *r)
{
	if (!r)
		return;
	/* its thread may be filling a stream's next buffer: stopped first */
	tr_prefetch_free(r->pf);
	for (int i = 0; r->cpus && i < r->nr_cpus; i++)
		tr_cpu_release(&r->cpus[i]);
	/* the formats may borrow libtracecmd's tep: release them first */
	tr_formats_release(&r->fm);
	tr_tc_close(r->tc);
	tr_text_close(r->txt);
	tr_repair_free(r->rp);
	free(r->cpus);
	free(r->heap);
	free(r->counts);
	tr_file_release(&r->file);
	free(r);
}

const struct trace_info *trace_get_info(const struct trace_reader *r)
{
	return &r->info;
}

int trace_nr_cpus(const struct trace_reader *r)
{
	return r->nr_cpu_ids;
}

uint64_t trace_lost_before(const struct trace_reader *r)
{
	return r->lost_before;
}

uint64_t trace_lost_events(const struct trace_reader *r, int cpu, bool *unknown)
{
	uint64_t n = 0;

	if (r->tc)
		return tr_tc_lost(r->tc, cpu, unknown);
	if (r->txt)
		return tr_text_lost(r->txt, cpu, unknown);
	if (unknown)
		*unknown = false;
	for (int i = 0; i < r->nr_cpus; i++) {
		if (r->cpus[i].cpu != cpu)
			continue;
		n += r->cpus[i].lost;
		if (unknown && r->cpus[i].lost_unknown)
			*unknown = true;
	}
	return n;
}

uint64_t trace_events_read(const struct trace_reader *r)
{
	return r->nread;
}

bool trace_event_count_at(const struct trace_reader *r, size_t i, const char **name,
			  uint64_t *count)
{
	size_t k = 0;

	if (r->txt)
		return tr_text_count_at(r->txt, i, name, count);
	for (uint32_t id = 0; id <= (uint32_t)r->fm.max_id + 1; id++) {
		if (!r->counts[id])
			continue;
		if (k++ == i) {
			*name = id <= r->fm.max_id && r->fm.name_of_id[id] ? r->fm.name_of_id[id] :
				"[unknown event id]";
			*count = r->counts[id];
			return true;
		}
	}
	return false;
}

/* ---- decoding ------------------------------------------------------------- */

/*
 * Number fields: with @fast, one 8-byte load each, masked and sign-extended
 * (tr_field.mask/sext); else byte-order aware reads of exactly their size.
 */
#define RU(f) (fast ? (ld64(d + (f)->offset) & (f)->mask) : rd_u(d, (f), sw))
#define RS(f) (fast ? (int64_t)((ld64(d + (f)->offset) & (f)->mask) << (f)->sext) >> (f)->sext \
		    : rd_s(d, (f), sw))
/* as the format says: signed, or unsigned (a 4-byte unsigned long stays positive) */
#define RN(f) (((f)->flags & TR_F_SIGNED) ? RS(f) : (int64_t)RU(f))

static inline uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline int32_t ld_s32(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* "comm", "prev_comm", ...: a field read by rd_comm() */
static bool is_comm(const char *name)
{
	size_t k = strlen(name);

	return !strcmp(name, "comm") || (k > 5 && !strcmp(name + k - 5, "_comm"));
}

/*
 * Why decode_as() found a string of @ev's record bad: the first string
 * field of its type that points outside the record, else the first comm
 * without a NUL among its bytes, which no kernel writes (comm16()). Before
 * 3 Dec 2026 such a comm was read as its first 15 bytes, at exit 0. -1.
 */
static __attribute__((cold, noinline)) int
string_error(const struct tr_formats *fm, const struct tr_rec *c, const struct trace_event *ev,
	     enum trace_event_type t, bool sw, struct sr_error *err)
{
	const struct tr_event_layout *l = &fm->ev[t];
	char where[96], comm[TRACE_COMM_LEN], shown[4 * TRACE_COMM_LEN + 1];
	const char *name, *s;
	size_t n;

	for (int i = 0; (name = tr_field_name(t, i)); i++)
		if ((is_comm(name) || !strcmp(name, "filename") || !strcmp(name, "dst_path")) &&
		    !rd_str(c->data, c->len, &l->f[i], sw, &s, &n)) {
			sr_error_set(err, EINVAL, "corrupted data: CPU %d, offset %" PRIu64
				     " (timestamp %" PRIu64 "): %s string field %s points outside "
				     "the record", c->cpu, ev->offset, ev->ts, ev->name, name);
			return -1;
		}
	for (int i = 0; (name = tr_field_name(t, i)); i++) {
		char *o = shown;

		if (!is_comm(name) || rd_comm(c->data, c->len, c->avail, &l->f[i], sw, comm))
			continue;
		rd_str(c->data, c->len, &l->f[i], sw, &s, &n);
		/* rd_str() stops at the field's end: its first 16 bytes, escaped */
		for (size_t j = 0; j < TRACE_COMM_LEN && j < n; j++)
			o += (unsigned char)s[j] >= ' ' && (unsigned char)s[j] < 0x7f &&
			     s[j] != '"' && s[j] != '\\' ?
				sprintf(o, "%c", s[j]) : sprintf(o, "\\x%02x", (unsigned char)s[j]);
		*o = '\0';
		sr_error_set(err, EINVAL, "corrupted data: %s: %s with %s \"%s%s\" and no NUL, "
			     "which no kernel writes (a comm is at most 15 characters and its NUL: "
			     "TASK_COMM_LEN 16)", trace_event_where(ev, where, sizeof(where)),
			     ev->name, name, shown, n > TRACE_COMM_LEN ? "..." : "");
		return -1;
	}
	sr_error_set(err, EINVAL, "corrupted data: CPU %d, offset %" PRIu64 " (timestamp %" PRIu64
		     "): %s string field points outside the record", c->cpu, ev->offset, ev->ts,
		     ev->name);
	return -1;
}

/*
 * A sched_switch prev_state with a bit the file's kernel does not write
 * (tr_formats.state_bad_mask), or two bits from a 4.14+ kernel
 * (state_one_bit). Before 3 Dec 2026 read at exit 0: -1 as a dead task,
 * 0x10000 as a running one, 0x3 as a sleeping one. -1.
 */
static __attribute__((cold, noinline)) int
state_error(const struct tr_formats *fm, const struct trace_event *ev, struct sr_error *err)
{
	char where[96], range[160];
	struct trace_bad_value b = { "prev_state", ev->u.sched_switch.prev_state, range,
				     TRACE_BAD_HEX };

	if (fm->state_one_bit && !((uint64_t)b.value & fm->state_bad_mask))
		snprintf(range, sizeof(range), "its kernel, 4.14 or later by its sched_switch print "
			 "format, writes one bit of %#" PRIx64 " or 0", ~fm->state_bad_mask);
	else if (fm->state_from_print_fmt)
		snprintf(range, sizeof(range), "its kernel's sched_switch print format shows the "
			 "bits %#" PRIx64 " of it", ~fm->state_bad_mask);
	else
		snprintf(range, sizeof(range), "no kernel writes a bit outside %#llx",
			 TRACE_STATE_UNION);
	trace_bad_value_error(ev, &b, trace_event_where(ev, where, sizeof(where)), err);
	return -1;
}

/*
 * Decode the record: 0, or -1 when it is corrupt. With @rp (a repairing
 * reader) the decoded event also goes through the repair stage, its result
 * in *@rp_ret: from the case of its type, with the stage's function for
 * that type, so that the event is dispatched on its type once.
 */
static inline __attribute__((always_inline)) int
decode_as(struct trace_reader *r, const struct tr_rec *c, struct trace_event *ev, uint32_t id,
	  enum trace_event_type t, uint64_t hdr, struct tr_repair *rp, int *rp_ret,
	  const struct trace_consumer *cs, int *cs_ret, struct sr_error *err, const bool sw,
	  const bool fast)
{
	const struct tr_formats *fm = &r->fm;
	const uint8_t *d = c->data;
	const uint32_t len = c->len;
	const uint32_t avail = c->avail;
	const struct tr_event_layout *l;
	bool ok = true;

	ev->cpu = c->cpu;
	ev->ts = c->ts;
	ev->offset_in_stream = c->offset_in_stream;
	ev->offset_is_line = false;
	ev->offset = c->offset;
	if (fast) {
		/* fm->std_common, and decode() saw the record's first 8 bytes in @hdr */
		ev->common_pid = (int32_t)(hdr >> 32);
		ev->common_flags = (uint8_t)(hdr >> 16);
		ev->common_preempt_count = (uint8_t)(hdr >> 24);
	} else {
		if (id == UINT32_MAX ||
		    len < (uint32_t)fm->common_pid.offset + fm->common_pid.size) {
			sr_error_set(err, EINVAL, "corrupted data: CPU %d, offset %" PRIu64
				     " (timestamp %" PRIu64 "): record of %u bytes has no event "
				     "header", c->cpu, ev->offset, ev->ts, len);
			return -1;
		}
		ev->common_pid = (int32_t)rd_s(d, &fm->common_pid, sw);
		ev->common_flags = fm->common_flags.size ? (uint8_t)rd_u(d, &fm->common_flags, sw) :
			0;
		ev->common_preempt_count = fm->common_preempt_count.size ?
			(uint8_t)rd_u(d, &fm->common_preempt_count, sw) : 0;
	}
	/* with @fast, decode() looked @t up: a decoded event's id has a name */
	if ((!fast || t == TRACE_EV_OTHER) && (id > fm->max_id || !fm->name_of_id[id])) {
		r->counts[(uint32_t)fm->max_id + 1]++;
		ev->type = TRACE_EV_OTHER;
		ev->id = (uint16_t)id;
		ev->name = "[unknown event id]";
		goto pass;
	}
	r->counts[id]++;
	ev->id = (uint16_t)id;
	ev->name = fm->name_of_id[id];
	if (!fast)
		t = (enum trace_event_type)fm->type_of_id[id];
	ev->type = t;
	if (t == TRACE_EV_OTHER)
		goto pass;
	l = &fm->ev[t];
	if (len < l->min_size) {
		sr_error_set(err, EINVAL, "corrupted data: CPU %d, offset %" PRIu64
			     " (timestamp %" PRIu64 "): %s record of %u bytes, its format needs %u",
			     c->cpu, ev->offset, ev->ts, ev->name, len, l->min_size);
		return -1;
	}
	switch (t) {
	case TRACE_EV_SCHED_SWITCH: {
		struct trace_sched_switch *s = &ev->u.sched_switch;
		uint64_t st;

		if (fast && r->std_layout[TRACE_EV_SCHED_SWITCH]) {
			/* the same values as below: find_std_layouts() */
			ok &= comm16(d + 8, TRACE_COMM_LEN, s->prev_comm);
			ok &= comm16(d + 40, TRACE_COMM_LEN, s->next_comm);
			s->prev_pid = ld_s32(d + 24);
			s->prev_prio = ld_s32(d + 28);
			s->prev_state = (int64_t)ld64(d + 32);
			s->next_pid = ld_s32(d + 56);
			s->next_prio = ld_s32(d + 60);
		} else {
			ok &= rd_comm(d, len, avail, &l->f[SW_PREV_COMM], sw, s->prev_comm);
			ok &= rd_comm(d, len, avail, &l->f[SW_NEXT_COMM], sw, s->next_comm);
			s->prev_pid = (int32_t)RS(&l->f[SW_PREV_PID]);
			s->prev_prio = (int32_t)RS(&l->f[SW_PREV_PRIO]);
			s->prev_state = RS(&l->f[SW_PREV_STATE]);
			s->next_pid = (int32_t)RS(&l->f[SW_NEXT_PID]);
			s->next_prio = (int32_t)RS(&l->f[SW_NEXT_PRIO]);
		}
		st = (uint64_t)s->prev_state;
		s->prev_preempt = (st & fm->state_preempt_mask) != 0;
		s->prev_run = (st & fm->state_dead_mask) ? TRACE_STATE_DEAD :
			(st & fm->state_sleep_mask) ? TRACE_STATE_SLEEPING : TRACE_STATE_RUNNING;
		if (!ok)
			goto bad_string;
		if ((st & fm->state_bad_mask) || (fm->state_one_bit && (st & (st - 1))))
			return state_error(fm, ev, err);
		if (rp)
			*rp_ret = tr_repair_pass_switch(rp, ev, c->lost_before);
		if (cs && (!rp || *rp_ret == 1))
			*cs_ret = cs->sched_switch(cs->ctx, ev, c->lost_before);
		return 0;
	}
	case TRACE_EV_SCHED_WAKING:
	case TRACE_EV_SCHED_WAKEUP:
	case TRACE_EV_SCHED_WAKEUP_NEW: {
		struct trace_sched_wakeup *w = &ev->u.wakeup;

		if (fast && r->std_layout[t]) {
			ok &= comm16(d + 8, TRACE_COMM_LEN, w->comm);
			w->pid = ld_s32(d + 24);
			w->prio = ld_s32(d + 28);
			w->target_cpu = ld_s32(d + 32);
			w->success = 1;
		} else {
			ok &= rd_comm(d, len, avail, &l->f[WK_COMM], sw, w->comm);
			w->pid = (int32_t)RS(&l->f[WK_PID]);
			w->prio = l->f[WK_PRIO].size ? (int32_t)RS(&l->f[WK_PRIO]) : 0;
			w->target_cpu = l->f[WK_TARGET_CPU].size ?
				(int32_t)RS(&l->f[WK_TARGET_CPU]) : -1;
			w->success = l->f[WK_SUCCESS].size ? (int32_t)RS(&l->f[WK_SUCCESS]) : 1;
		}
		if (!ok)
			goto bad_string;
		if (rp)
			*rp_ret = tr_repair_pass_wakeup(rp, ev, c->lost_before);
		if (cs && (!rp || *rp_ret == 1))
			*cs_ret = cs->sched_wakeup(cs->ctx, ev, c->lost_before);
		return 0;
	}
	case TRACE_EV_SCHED_MIGRATE_TASK: {
		struct trace_sched_migrate_task *m = &ev->u.migrate;

		ok &= rd_comm(d, len, avail, &l->f[MG_COMM], sw, m->comm);
		m->pid = (int32_t)RS(&l->f[MG_PID]);
		m->prio = l->f[MG_PRIO].size ? (int32_t)RS(&l->f[MG_PRIO]) : 0;
		m->orig_cpu = (int32_t)RS(&l->f[MG_ORIG_CPU]);
		m->dest_cpu = (int32_t)RS(&l->f[MG_DEST_CPU]);
		break;
	}
	case TRACE_EV_SCHED_PROCESS_FORK: {
		struct trace_sched_process_fork *k = &ev->u.fork;

		ok &= rd_comm(d, len, avail, &l->f[FK_PARENT_COMM], sw, k->parent_comm);
		ok &= rd_comm(d, len, avail, &l->f[FK_CHILD_COMM], sw, k->child_comm);
		k->parent_pid = (int32_t)RS(&l->f[FK_PARENT_PID]);
		k->child_pid = (int32_t)RS(&l->f[FK_CHILD_PID]);
		break;
	}
	case TRACE_EV_SCHED_PROCESS_EXEC: {
		struct trace_sched_process_exec *x = &ev->u.exec;

		ok &= rd_str(d, len, &l->f[EX_FILENAME], sw, &x->filename, &x->filename_len);
		x->pid = (int32_t)RS(&l->f[EX_PID]);
		x->old_pid = l->f[EX_OLD_PID].size ? (int32_t)RS(&l->f[EX_OLD_PID]) :
			x->pid;
		break;
	}
	case TRACE_EV_SCHED_PROCESS_EXIT: {
		struct trace_sched_process_exit *x = &ev->u.exit;

		ok &= rd_comm(d, len, avail, &l->f[XT_COMM], sw, x->comm);
		x->pid = (int32_t)RS(&l->f[XT_PID]);
		x->prio = l->f[XT_PRIO].size ? (int32_t)RS(&l->f[XT_PRIO]) : 0;
		x->group_dead = l->f[XT_GROUP_DEAD].size ?
			(int32_t)RU(&l->f[XT_GROUP_DEAD]) : -1;
		break;
	}
	case TRACE_EV_SCHED_STAT_RUNTIME: {
		struct trace_sched_stat_runtime *s = &ev->u.stat_runtime;

		if (fast && r->std_layout[TRACE_EV_SCHED_STAT_RUNTIME]) {
			/* rd_comm() of the __data_loc comm at 8, its usual case inline */
			uint32_t loc = (uint32_t)ld64(d + 8), off = loc & 0xffff, n = loc >> 16;

			if (off > len || n > len - off)
				ok = false;
			else if (avail - off >= TRACE_COMM_LEN)
				ok = comm16(d + off, n, s->comm) ||
				     (n > TRACE_COMM_LEN &&
				      nul_in(d + off + TRACE_COMM_LEN, n - TRACE_COMM_LEN));
			else
				ok &= rd_comm(d, len, avail, &l->f[RT_COMM], sw, s->comm);
			s->pid = ld_s32(d + 12);
			s->runtime = ld64(d + 16);
			s->has_vruntime = false;
			s->vruntime = 0;
		} else {
			ok &= rd_comm(d, len, avail, &l->f[RT_COMM], sw, s->comm);
			s->pid = (int32_t)RS(&l->f[RT_PID]);
			s->runtime = RU(&l->f[RT_RUNTIME]);
			s->has_vruntime = l->f[RT_VRUNTIME].size != 0;
			s->vruntime = s->has_vruntime ? RU(&l->f[RT_VRUNTIME]) : 0;
		}
		if (!ok)
			goto bad_string;
		if (rp)
			*rp_ret = tr_repair_pass_stat_runtime(rp, ev, c->lost_before);
		if (cs && (!rp || *rp_ret == 1))
			*cs_ret = cs->sched_stat_runtime(cs->ctx, ev, c->lost_before);
		return 0;
	}
	case TRACE_EV_SCHED_PI_SETPRIO: {
		struct trace_sched_pi_setprio *p = &ev->u.pi_setprio;

		ok &= rd_comm(d, len, avail, &l->f[PI_COMM], sw, p->comm);
		p->pid = (int32_t)RS(&l->f[PI_PID]);
		p->oldprio = (int32_t)RS(&l->f[PI_OLDPRIO]);
		p->newprio = (int32_t)RS(&l->f[PI_NEWPRIO]);
		break;
	}
	case TRACE_EV_CGROUP_ATTACH_TASK: {
		struct trace_cgroup_attach_task *g = &ev->u.cgroup_attach;

		g->dst_root = (int32_t)RS(&l->f[CG_DST_ROOT]);
		g->has_dst_level = l->f[CG_DST_LEVEL].size != 0;
		g->dst_level = g->has_dst_level ? (int32_t)RS(&l->f[CG_DST_LEVEL]) : -1;
		g->dst_id = l->f[CG_DST_ID].size ? RU(&l->f[CG_DST_ID]) : 0;
		g->pid = (int32_t)RS(&l->f[CG_PID]);
		ok &= rd_str(d, len, &l->f[CG_DST_PATH], sw, &g->dst_path, &g->dst_path_len);
		ok &= rd_comm(d, len, avail, &l->f[CG_COMM], sw, g->comm);
		break;
	}
	case TRACE_EV_SYS_ENTER_READ:
	case TRACE_EV_SYS_ENTER_WRITE: {
		struct trace_syscall *s = &ev->u.syscall;

		if (fast && r->std_layout[t]) {
			s->fd = (int64_t)ld64(d + 16);
			s->count = ld64(d + 32);
		} else {
			s->fd = RN(&l->f[SC_FD]);
			s->count = (uint64_t)RN(&l->f[SC_COUNT]);
		}
		s->ret = 0;
		break;
	}
	case TRACE_EV_SYS_EXIT_READ:
	case TRACE_EV_SYS_EXIT_WRITE: {
		struct trace_syscall *s = &ev->u.syscall;

		s->ret = fast && r->std_layout[t] ? (int64_t)ld64(d + 16) : RN(&l->f[SC_RET]);
		s->fd = 0;
		s->count = 0;
		break;
	}
	case TRACE_EV_SYS_ENTER_SCHED_SETAFFINITY: {
		struct trace_syscall *s = &ev->u.syscall;

		s->fd = RN(&l->f[SA_PID]);
		s->count = (uint64_t)RN(&l->f[SA_LEN]);
		s->ret = 0;
		break;
	}
	case TRACE_EV_SYS_EXIT_SCHED_SETAFFINITY: {
		struct trace_syscall *s = &ev->u.syscall;

		s->ret = RN(&l->f[SC_RET]);
		s->fd = 0;
		s->count = 0;
		break;
	}
	default:
		break;
	}
	if (!ok)
		goto bad_string;
pass:
	if (rp)
		*rp_ret = tr_repair_pass(rp, ev, c->lost_before);
	if (cs && (!rp || *rp_ret == 1))
		*cs_ret = cs->other(cs->ctx, ev, c->lost_before);
	return 0;
bad_string:
	return string_error(fm, c, ev, t, sw, err);
}

#undef RU
#undef RS
#undef RN

static inline __attribute__((always_inline)) int
decode(struct trace_reader *r, const struct tr_rec *c, struct trace_event *ev,
       struct tr_repair *rp, int *rp_ret, const struct trace_consumer *cs, int *cs_ret,
       struct sr_error *err)
{
	const struct tr_formats *fm = &r->fm;
	const bool sw = r->file.swap;

	/*
	 * 8-byte loads when file and host are little-endian, the common header
	 * is the standard one and every field's load stays within the bytes
	 * readable at the record (the page window continues past it: only a
	 * record at the window's end takes the slow path). The values are the
	 * same: masked to the field's size.
	 */
	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !sw && fm->std_common && c->len >= 8) {
		uint64_t hdr = ld64(c->data);
		uint32_t id = (uint16_t)hdr;
		enum trace_event_type t = id <= fm->max_id ?
			(enum trace_event_type)fm->type_of_id[id] : TRACE_EV_OTHER;

		if (c->avail >= fm->ev[t].load_size)
			return decode_as(r, c, ev, id, t, hdr, rp, rp_ret, cs, cs_ret, err, false,
					 true);
	}
	return decode_as(r, c, ev, rec_id(fm, c->data, c->len, sw), TRACE_EV_OTHER, 0, rp, rp_ret,
			 cs, cs_ret, err, sw, false);
}

/* The next record of the native streams: 1, 0 at the end, -1 on error. */
static inline __attribute__((always_inline)) int
next_native(struct trace_reader *r, struct tr_rec *rec, struct sr_error *err)
{
	const struct tr_cpu *c;

	if (r->pending) {
		int ret = tr_cpu_next(r->heap[0].c, err);

		r->pending = false;
		if (ret < 0)
			return -1;
		if (ret == 0)
			r->heap[0] = r->heap[--r->heap_n];
		else
			r->heap[0].ts = r->heap[0].c->ev_ts;
		/*
		 * The same CPU usually stays first: test before the call. With
		 * two streams (a 2-CPU machine) the heap is a pair: swapped here.
		 */
		if (r->heap_n == 2) {
			if (!cpu_before(&r->heap[0], &r->heap[1])) {
				struct heap_ent t = r->heap[0];

				r->heap[0] = r->heap[1];
				r->heap[1] = t;
			}
		} else if (r->heap_n > 2 && (ret == 0 || !cpu_before(&r->heap[0], &r->heap[1]) ||
					     !cpu_before(&r->heap[0], &r->heap[2]))) {
			sift_down(r, 0);
		}
	}
	if (!r->heap_n)
		return 0;
	c = r->heap[0].c;
	rec->data = c->ev_data;
	rec->len = c->ev_len;
	rec->avail = (uint32_t)(c->buf + c->buf_len - c->ev_data);
	rec->cpu = c->cpu;
	rec->ts = conv_ts(&r->file, c->ev_ts);
	rec->offset_in_stream = c->compressed;
	rec->offset = c->off_base + c->ev_off;
	rec->lost_before = c->ev_lost;
	r->pending = true;
	return 1;
}

/* A trace_consumer's callback for @ev's type. */
static int consume_one(const struct trace_consumer *cs, const struct trace_event *ev,
		       uint64_t lost_before)
{
	switch (ev->type) {
	case TRACE_EV_SCHED_SWITCH:
		return cs->sched_switch(cs->ctx, ev, lost_before);
	case TRACE_EV_SCHED_WAKING:
	case TRACE_EV_SCHED_WAKEUP:
	case TRACE_EV_SCHED_WAKEUP_NEW:
		return cs->sched_wakeup(cs->ctx, ev, lost_before);
	case TRACE_EV_SCHED_STAT_RUNTIME:
		return cs->sched_stat_runtime(cs->ctx, ev, lost_before);
	default:
		return cs->other(cs->ctx, ev, lost_before);
	}
}

/*
 * The next record of the file, decoded: 1, 0 at the end, -1 on error. With
 * @rp, a decoded record also went through tr_repair_pass() (or its typed
 * form), whose result is *@rp_ret. Inlined into one function per path of
 * trace_next() (next_raw(), next_repaired()), each called once per event:
 * one function entry per event instead of two. With @cs (trace_consume()),
 * a decoded record that the repair stage, if any, passed on (*@rp_ret 1) has
 * also gone to @cs's callback for its type, whose result is *@cs_ret.
 */
static inline __attribute__((always_inline)) int
next_record_from(struct trace_reader *r, struct trace_event *ev, uint64_t *lost_before,
		 struct tr_repair *rp, int *rp_ret, const struct trace_consumer *cs, int *cs_ret,
		 struct sr_error *err, const bool native, uint64_t *nread)
{
	struct tr_rec rec;
	int ret;

	ev->synthetic = false;
	if (!native && r->txt) {
		ret = tr_text_next(r->txt, ev, lost_before, err);
		if (ret < 0) {
			r->failed = true;
			sr_error_prefix(err, "%s", r->info.path);
		}
		*nread += ret == 1;
		if (ret == 1 && rp)
			*rp_ret = tr_repair_pass(rp, ev, *lost_before);
		if (ret == 1 && cs && (!rp || *rp_ret == 1))
			*cs_ret = consume_one(cs, ev, *lost_before);
		return ret;
	}
	if (!native && r->tc) {
		/*
		 * Through a copy: @rec's address does not escape, so the native
		 * path keeps its fields in registers instead of storing each
		 * record's description and reading it back (~20 instructions).
		 */
		struct tr_rec t;

		ret = tr_tc_next(r->tc, &t, err);
		if (ret < 0)
			goto fail;
		if (ret == 0)
			return 0;
		t.offset_in_stream = r->buf->compressed;
		t.avail = t.len;
		rec = t;
	} else {
		ret = next_native(r, &rec, err);
		if (ret < 0)
			goto fail;
		if (ret == 0)
			return 0;
	}
	if (decode(r, &rec, ev, rp, rp_ret, cs, cs_ret, err))
		goto fail;
	*lost_before = rec.lost_before;
	++*nread;
	return 1;
fail:
	r->failed = true;
	sr_error_prefix(err, "%s", r->file.path);
	return -1;
}

/* next_record_from() of any source. */
static inline __attribute__((always_inline)) int
next_record(struct trace_reader *r, struct trace_event *ev, uint64_t *lost_before,
	    struct tr_repair *rp, int *rp_ret, const struct trace_consumer *cs, int *cs_ret,
	    struct sr_error *err)
{
	return next_record_from(r, ev, lost_before, rp, rp_ret, cs, cs_ret, err, false, &r->nread);
}

/* Records through the repair stage until it can deliver an event. */
static __attribute__((noinline)) int
next_repaired(struct trace_reader *r, struct trace_event *ev, struct sr_error *err)
{
	int ret;

	/* after a pass-through nothing is held: no pop to ask (trace_repair.h) */
	while (r->rp_empty || !(ret = tr_repair_pop(r->rp, ev, &r->lost_before))) {
		uint64_t lost = 0;
		int rp_ret = 0;

		r->rp_empty = false;
		if (r->rp_input_done)
			return 0;
		/*
		 * Decoded into the caller's event and passed to the repair stage:
		 * usually it passes straight on.
		 */
		ret = next_record(r, ev, &lost, r->rp, &rp_ret, NULL, NULL, err);
		if (ret < 0)
			return -1;
		if (ret == 0) {
			r->rp_input_done = true;
			ret = tr_repair_end(r->rp);
		} else if ((ret = rp_ret) == 1) {
			r->lost_before = lost;
			r->rp_empty = true;
			return 1;
		}
		if (ret)
			break;
	}
	if (ret < 0) {
		r->failed = true;
		sr_error_set(err, ENOMEM, "%s: out of memory (repair stage)", r->info.path);
		return -1;
	}
	return 1;
}

/* The raw stream: each record as decoded. */
static __attribute__((noinline)) int
next_raw(struct trace_reader *r, struct trace_event *ev, struct sr_error *err)
{
	return next_record(r, ev, &r->lost_before, NULL, NULL, NULL, NULL, err);
}

/* trace_next() and trace_consume() refuse a reader that already failed. */
static inline bool used_after_error(const struct trace_reader *r, struct sr_error *err)
{
	if (!r->failed)
		return false;
	sr_error_set(err, EINVAL, "%s: reader used after an error", r->info.path);
	return true;
}

int trace_next(struct trace_reader *r, struct trace_event *ev, struct sr_error *err)
{
	if (used_after_error(r, err))
		return -1;
	if (r->rp)
		return next_repaired(r, ev, err);
	return next_raw(r, ev, err);
}

/*
 * trace_consume() through the repair stage: next_repaired()'s loop, with an
 * event that passes straight through consumed in the decoder's case of its
 * type and one the stage held consumed when it is popped.
 */
static inline __attribute__((always_inline)) int
consume_repaired_from(struct trace_reader *r, const struct trace_consumer *cs,
		      struct sr_error *err, const bool native)
{
	struct trace_event ev;
	struct tr_repair *const rp = r->rp;
	/*
	 * In registers for the loop (stores through the event may alias r's):
	 * written back on return, and trace.h gives the counts after
	 * trace_consume(), not during its callbacks.
	 */
	bool empty = r->rp_empty, input_done = r->rp_input_done;
	uint64_t nread = r->nread;
	int ret;

	for (;;) {
		uint64_t lost = 0;
		int rp_ret = 0, cs_ret = 0;

		if (!empty && (ret = tr_repair_pop(rp, &ev, &r->lost_before))) {
			if (ret < 0)
				break;
			if (consume_one(cs, &ev, r->lost_before)) {
				ret = -1;
				goto out;
			}
			continue;
		}
		empty = false;
		if (input_done) {
			ret = 0;
			goto out;
		}
		ret = next_record_from(r, &ev, &lost, rp, &rp_ret, cs, &cs_ret, err, native, &nread);
		if (ret < 0)
			goto out;
		if (ret == 0) {
			input_done = true;
			if (tr_repair_end(rp) < 0)
				break;
		} else if (rp_ret == 1) {
			r->lost_before = lost;
			empty = true;
			if (cs_ret) {
				ret = -1;
				goto out;
			}
		} else if (rp_ret < 0) {
			break;
		}
	}
	sr_error_set(err, ENOMEM, "%s: out of memory (repair stage)", r->info.path);
	ret = -1;
out:
	r->rp_empty = empty;
	r->rp_input_done = input_done;
	r->nread = nread;
	return ret;
}

/*
 * Two instances: the native streams' (the report's usual case), in which the
 * tests of the other sources are compiled out of the per-event loop (r->txt
 * and r->tc were loaded and tested for every event), and any source's.
 */
static __attribute__((noinline)) int
consume_repaired_native(struct trace_reader *r, const struct trace_consumer *cs,
			struct sr_error *err)
{
	return consume_repaired_from(r, cs, err, true);
}

static __attribute__((noinline)) int
consume_repaired(struct trace_reader *r, const struct trace_consumer *cs, struct sr_error *err)
{
	if (!r->txt && !r->tc)
		return consume_repaired_native(r, cs, err);
	return consume_repaired_from(r, cs, err, false);
}

/* trace_consume() of the raw stream: each record consumed as decoded. */
static __attribute__((noinline)) int
consume_raw(struct trace_reader *r, const struct trace_consumer *cs, struct sr_error *err)
{
	struct trace_event ev;
	int ret, cs_ret = 0;

	while ((ret = next_record(r, &ev, &r->lost_before, NULL, NULL, cs, &cs_ret, err)) == 1)
		if (cs_ret)
			return -1;
	return ret;
}

int trace_consume(struct trace_reader *r, const struct trace_consumer *c, struct sr_error *err)
{
	int ret;

	if (used_after_error(r, err))
		return -1;
	ret = r->rp ? consume_repaired(r, c, err) : consume_raw(r, c, err);
	if (ret < 0)
		r->failed = true;
	return ret;
}
