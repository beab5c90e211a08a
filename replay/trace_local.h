/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to the trace reader (replay/trace_*.c). Three parts:
 *   trace_file.c    the trace.dat container: header, v6 sequential layout,
 *                   v7 sections and options, compression, buffer list;
 *   trace_format.c  event formats: id -> name index, libtraceevent parsing of
 *                   the decoded events, field layouts, prev_state letters;
 *   trace_cpu.c     one CPU's data stream and its ring-buffer pages;
 *   trace_tracecmd.c the libtracecmd backend: the same records through
 *                   tracecmd_open() / tracecmd_read_data();
 *   trace_text.c    ftrace text (tracefs `trace`, `trace-cmd report -N/-R`);
 *   trace_reader.c  the public API: open, buffer choice, merge, decode.
 */
#ifndef SCHEDREPLAY_TRACE_LOCAL_H
#define SCHEDREPLAY_TRACE_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <schedreplay/error.h>
#include <schedreplay/trace.h>

struct tep_handle;

/* ---- byte order ------------------------------------------------------- */

static inline uint16_t tr_u16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t tr_u32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t tr_u64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

/* ---- the container (trace_file.c) ------------------------------------- */

enum tr_compress { TR_COMPRESS_NONE, TR_COMPRESS_ZSTD, TR_COMPRESS_ZLIB };

struct tr_cpu_desc {
	int cpu;
	uint64_t offset;               /* file offset of the CPU's data */
	uint64_t size;                 /* bytes in the file (compressed size if so) */
};

struct tr_buffer_desc {
	char *name;                    /* "" = top-level buffer */
	char *clock;                   /* NULL if unknown */
	uint32_t page_size;
	bool compressed;
	bool latency;                  /* text (latency) data: not readable */
	int nr_cpus;
	struct tr_cpu_desc *cpus;
	/*
	 * v6 instance: its "options" / "flyrecord" block, from the BUFFER
	 * option's offset to the end of its CPU table (0, 0: the top buffer,
	 * v7); the block lies between the CPU data regions (check_v6_tiling()).
	 */
	uint64_t v6_head_off, v6_head_end;
};

/*
 * One event format of the file: its "name:" and "ID:" (name NULL if it has
 * none), and, for the events trace_format.c decodes, the text as stored:
 * @len bytes, no NUL after them (NULL for the others).
 */
struct tr_format_text {
	const char *system;
	const char *name;
	size_t name_len;
	long id;
	const char *text;
	size_t len;
};

struct tr_file {
	const char *path;
	int fd;
	uint64_t file_size;
	int version;
	bool swap;                     /* file endianness differs from the host */
	bool big_endian;
	int user_long_size;
	uint32_t page_size;            /* from the file header */
	enum tr_compress compress;
	char compress_name[32];
	int cpus;                      /* CPUCOUNT option or header count */
	const char *cpus_from;         /* which of them, for the user */
	bool cpus_exact;               /* header or CPUCOUNT: trace_info.cpus_exact */
	char *uname;
	char *tracer_version;
	uint64_t trace_id;             /* TRACEID option */
	bool has_trace_id;
	char *clock;                   /* TRACECLOCK option: the [current] one */
	int64_t ts_offset;             /* OFFSET option, ns */
	uint32_t tsc_mult, tsc_shift;  /* TSC2NSEC option; mult 0 = none */
	uint64_t tsc_offset;
	char *header_page;             /* events/header_page text */
	size_t header_page_len;
	struct tr_format_text *formats;
	size_t nr_formats, formats_cap;
	char **fmt_blobs;              /* storage the format texts point into */
	size_t nr_fmt_blobs, fmt_used, fmt_cap;
	struct tr_buffer_desc *buffers;
	int nr_buffers;
	/*
	 * The CPUSTAT texts, in file order, as tr_file_cpu_ts_bound() reads
	 * them: parsed once, when the option is read.
	 */
	struct tr_cpustat *cpustats;
	int nr_cpustats;
	/*
	 * The buffer names of the CPUSTAT markers ("Buffer: NAME", trace-cmd's
	 * add_buffer_stat() before an instance's per-CPU texts), in file order:
	 * tr_cpustat.buffer indexes them.
	 */
	char **cpustat_bufs;
	int nr_cpustat_bufs;
	/*
	 * One zstd decompression context for every chunk of the file (they are
	 * decompressed one at a time): ZSTD_decompress() would allocate and
	 * initialise one per 40 KiB chunk. Mutable through a const tr_file.
	 */
	void *zstd_dctx;
};

/* One CPUSTAT text: its "CPU:" and its "now ts" (stat_now_ns() in trace_file.c). */
struct tr_cpustat {
	bool has_cpu;                  /* a "CPU:" line */
	int cpu;                       /* its number */
	int now;                       /* -1: no "now ts:" line, 0: not "sec.usec", 1: now_ns */
	uint64_t now_ns;               /* rounded up */
	long long read_events;         /* "read events: N", -1 none (check_empty_cpus()) */
	int buffer;                    /* the last marker before it (cpustat_bufs), -1 the top */
};

/* Parse the container; on error fill @err (prefixed with the path). */
int tr_file_open(struct tr_file *f, const char *path, struct sr_error *err);
void tr_file_release(struct tr_file *f);
/* Free the format texts (once tr_formats_load() has indexed them). */
void tr_file_drop_formats(struct tr_file *f);

/* pread exactly @len bytes at @off; -1 with err on short read. */
int tr_file_pread(const struct tr_file *f, void *buf, size_t len, uint64_t off,
		  const char *what, struct sr_error *err);

/* Decompress @src into @dst of exactly @dst_len bytes. */
int tr_decompress(enum tr_compress c, const void *src, size_t src_len, void *dst,
		  size_t dst_len);
/* The same with the file's algorithm and its reused context. */
int tr_file_decompress(const struct tr_file *f, const void *src, size_t src_len, void *dst,
		       size_t dst_len);

/* ---- formats (trace_format.c) ------------------------------------------ */

enum tr_field_flags {
	TR_F_PRESENT  = 1 << 0,
	TR_F_DYNAMIC  = 1 << 1,        /* __data_loc */
	TR_F_RELATIVE = 1 << 2,        /* __rel_loc */
	TR_F_SIGNED   = 1 << 3,
};

struct tr_field {
	uint16_t offset;
	uint16_t size;
	uint8_t flags;
	/*
	 * For the decoder's 8-byte loads (little-endian file and host): the
	 * value is (load & mask), sign-extended by (x << sext) >> sext. mask 0:
	 * absent or not 1/2/4/8 bytes, read as 0 as by the byte-wise reads.
	 */
	uint8_t sext;
	uint64_t mask;
};

/* Fields decoded per event type at most; the table lives in trace_format.c. */
#define TR_MAX_FIELDS 8

struct tr_event_layout {
	bool present;
	uint16_t id;
	uint32_t min_size;             /* record bytes the fixed fields need */
	uint32_t load_size;            /* bytes the 8-byte loads of its and the common fields span */
	struct tr_field f[TR_MAX_FIELDS];
};

struct tr_formats {
	/*
	 * tep: sched_switch's format alone (its print format classifies
	 * prev_state, whatever the other formats hold), or libtracecmd's;
	 * tep_others: the other decoded formats that needed libtraceevent
	 * (not of the kernel's common shape), NULL if none did.
	 */
	struct tep_handle *tep;
	struct tep_handle *tep_others;
	int kernel_long_size;          /* from header_page's commit field */
	uint16_t max_id;
	uint8_t *type_of_id;           /* [max_id + 1]: enum trace_event_type */
	const char **name_of_id;       /* [max_id + 1]: NULL if no format */
	char *names;                   /* storage of the names */
	struct tr_event_layout ev[TRACE_EV_NR_TYPES];
	struct tr_field common_type, common_flags, common_preempt_count, common_pid;
	uint32_t common_load_size;     /* as tr_event_layout.load_size, the common fields' */
	/*
	 * The common header of every kernel since 2.6.x: common_type u16 at 0,
	 * common_flags u8 at 2, common_preempt_count u8 at 3, common_pid 4
	 * bytes at 4. The decoder reads it with one 8-byte load.
	 */
	bool std_common;
	/* prev_state classification, from the file's own print format */
	uint64_t state_preempt_mask;   /* bits printed as the "+" of "R+" */
	uint64_t state_sleep_mask;     /* bits printed as S, D, I, T, ... */
	uint64_t state_dead_mask;      /* bits printed as X, Z, x */
	bool state_from_print_fmt;     /* false: default 6.x table used */
	/*
	 * prev_state bits no kernel writes into this file: those its print
	 * format does not show (printed as a bare "R"), and those from bit 24
	 * up (not classified; no kernel has them); without a classification
	 * those of no kernel (TRACE_STATE_UNION)
	 */
	uint64_t state_bad_mask;
	/*
	 * The format's preemption bit is 0x100, TASK_REPORT_MAX: a 4.14+
	 * kernel, whose __trace_sched_switch_state() writes 0, one state bit
	 * or that bit alone, never two bits (older kernels write p->state,
	 * whose bits combine: 0x82 is 4.x's TASK_KILLABLE)
	 */
	bool state_one_bit;
	bool tep_borrowed;             /* tep belongs to libtracecmd: not freed here */
	struct tr_pstate *pstate;      /* sched_switch's print format, read without tep */
};

/*
 * Index the file's event formats.  @tep_only (tests only; the reader passes
 * false) parses every decoded format with libtraceevent, as is done for the
 * formats not of the kernel's common shape, instead of reading the fields
 * directly.
 */
int tr_formats_load(struct tr_formats *fm, const struct tr_file *f, bool tep_only,
		    struct sr_error *err);
/* A format text's name and id ("name: X\nID: N"): 0, or -1 if it has none. */
int tr_format_scan(const char *text, size_t len, const char **name, size_t *name_len,
		   long *id);
/*
 * The prev_state bits of every kernel: 4.14+ writes S D T t X Z P I =
 * 0x1..0x80 and a preemption as 0x100 (TASK_REPORT_MAX), older kernels
 * p->state's bits up to TASK_NEW 0x800 and a preemption as TASK_STATE_MAX
 * (0x400, 0x800 or 0x1000). A value outside is written by none.
 */
#define TRACE_STATE_UNION 0x1fffull

/* The name of field @i of @t's layout (the SW_/WK_/... enums), NULL past the last. */
const char *tr_field_name(enum trace_event_type t, int i);
/* Is system:name one of the events decoded (whose text must be kept)? */
bool tr_format_decoded(const char *system, const char *name, size_t name_len);
/*
 * The same tables from a tep handle that already holds every format of the
 * file (libtracecmd's): names and ids from its event list, layouts from its
 * parsed fields. @tep is borrowed and must outlive @fm.
 */
int tr_formats_from_tep(struct tr_formats *fm, struct tep_handle *tep, bool big_endian,
			struct sr_error *err);
void tr_formats_release(struct tr_formats *fm);

/*
 * sched_switch's print format read without libtraceevent (trace_prev_state.c):
 * @pf its "print fmt:", @end the text's end, @names/@fields the decoded
 * fields (@arrays: bit i = fields[i] is a char array), @state prev_state's
 * index. NULL if the format is outside the subset read there (or no memory):
 * libtraceevent is to print it.
 */
struct tr_pstate;
struct tr_pstate *tr_pstate_parse(const char *pf, const char *end, const char *const *names,
				  const struct tr_field *fields, unsigned arrays, int state);
/* The line it prints for prev_state = @state, in @out: 0, or -1 if outside the subset. */
int tr_pstate_print(const struct tr_pstate *ps, uint64_t state, char *out, size_t outlen);
void tr_pstate_free(struct tr_pstate *ps);

/* Field index names per type, shared by the loader and the decoder. */
enum { SW_PREV_COMM, SW_PREV_PID, SW_PREV_PRIO, SW_PREV_STATE, SW_NEXT_COMM, SW_NEXT_PID,
       SW_NEXT_PRIO };
enum { WK_COMM, WK_PID, WK_PRIO, WK_TARGET_CPU, WK_SUCCESS };
enum { MG_COMM, MG_PID, MG_PRIO, MG_ORIG_CPU, MG_DEST_CPU };
enum { FK_PARENT_COMM, FK_PARENT_PID, FK_CHILD_COMM, FK_CHILD_PID };
enum { EX_FILENAME, EX_PID, EX_OLD_PID };
enum { XT_COMM, XT_PID, XT_PRIO, XT_GROUP_DEAD };
enum { RT_COMM, RT_PID, RT_RUNTIME, RT_VRUNTIME };
enum { CG_DST_ROOT, CG_DST_LEVEL, CG_DST_ID, CG_PID, CG_DST_PATH, CG_COMM };
enum { SC_FD, SC_COUNT };              /* sys_enter_read, sys_enter_write */
enum { SC_RET };                       /* sys_exit_read, sys_exit_write, _sched_setaffinity */
enum { SA_PID, SA_LEN };               /* sys_enter_sched_setaffinity */
enum { PI_COMM, PI_PID, PI_OLDPRIO, PI_NEWPRIO };

/* ---- one CPU's stream (trace_cpu.c) ------------------------------------ */

struct tr_cpu {
	int cpu;
	const struct tr_file *file;
	const struct tr_cpu_desc *desc;
	bool compressed;
	bool swap;
	bool big;                      /* big-endian file: record header bit order */
	int long_size;                 /* kernel long: size of the commit word */
	uint32_t page_size;
	uint32_t hdr_size;             /* 8 + long_size */

	/* window of whole pages (uncompressed) or one chunk (compressed) */
	uint8_t *buf;
	size_t buf_cap, buf_len;
	uint64_t buf_stream_off;       /* stream offset of buf[0] */
	uint64_t next_read;            /* stream offset of the next window */
	uint64_t stream_size;          /* uncompressed: desc->size */
	/* compressed chunks, read through a window of the file */
	uint8_t *zbuf;
	size_t zbuf_cap, zwin_len;
	uint64_t zwin_off;             /* file offset of zbuf[0] */
	uint32_t nr_chunks, chunk_i;
	uint64_t chunk_file_off;       /* next chunk header in the file */
	/*
	 * With a prefetcher (tr_cpu_prefetch()): the chunk or window after the
	 * current one, read (and decompressed) by its thread. While pf_state is
	 * BUSY the thread owns nbuf, the compressed window and
	 * chunk_i/chunk_file_off; pf_state and pf_listed are under its mutex.
	 */
	struct tr_prefetch *pf;
	int pf_state;
	bool pf_listed;                /* in the prefetcher's queue */
	uint64_t pf_pos;               /* uncompressed: stream offset being read ahead */
	uint8_t *nbuf;
	size_t nbuf_cap, nbuf_len;
	struct sr_error pf_err;

	/* current page */
	size_t page_pos;               /* offset of the page in buf */
	uint32_t commit;               /* data bytes in the page */
	uint32_t curr;                 /* next record, offset in page data */
	uint64_t ts;                   /* running timestamp (raw) */
	uint64_t page_ts;              /* the current page's time stamp */
	uint64_t ts_bound;             /* no page stamp beyond: tr_file_cpu_ts_bound(), 0 none */
	bool have_page;
	const uint8_t *pg;             /* the current page's data (after its header) */
	uint64_t pg_off;               /* its stream offset */

	/* current record, valid while `ready` */
	bool ready, done;
	uint64_t ev_ts;                /* raw */
	const uint8_t *ev_data;
	uint32_t ev_len;
	uint64_t ev_off;               /* stream offset of the record header */
	uint64_t off_base;             /* + ev_off: trace_event.offset (file offset if uncompressed) */
	uint64_t ev_lost;              /* lost before this record (0, n, UNKNOWN) */

	uint64_t lost;                 /* total, unknown gaps count 1 */
	bool lost_unknown;
};

/*
 * The latest time stamp CPU @cpu's pages can have: its CPUSTAT texts' "now
 * ts" (the ring buffer clock when the statistics were read, after the
 * capture) plus TR_TS_BOUND_SLACK_NS; 0 when unknown: no statistics for the
 * CPU, a clock that does not count nanoseconds (the kernel then prints no
 * "sec.usec"), or TSC2NSEC (the stamps are converted, "now ts" is not).
 * With several texts for the CPU (instances) the latest counts.
 */
#define TR_TS_BOUND_SLACK_NS (10ull * 1000000000ull)
uint64_t tr_file_cpu_ts_bound(const struct tr_file *f, const struct tr_buffer_desc *b, int cpu);
int tr_cpu_init(struct tr_cpu *c, const struct tr_file *f, const struct tr_buffer_desc *b,
		int idx, int kernel_long_size, struct sr_error *err);
/*
 * Reading ahead of the reader: one thread per prefetcher reads (and
 * decompresses) each CPU stream's next window or chunk while the reader
 * decodes the current one (zstd was a quarter of a report's time on an
 * extract file, the kernel's page-cache copy a tenth on uncompressed ones).
 * The records are the same, in the same order. tr_prefetch_new() returns
 * NULL if no thread can be started: the streams then read synchronously.
 * tr_prefetch_free() (NULL accepted) must come before tr_cpu_release() of
 * the streams attached with tr_cpu_prefetch().
 */
struct tr_prefetch;
struct tr_prefetch *tr_prefetch_new(const struct tr_file *f, int nr_streams);
void tr_prefetch_free(struct tr_prefetch *pf);
void tr_cpu_prefetch(struct tr_cpu *c, struct tr_prefetch *pf);
void tr_cpu_release(struct tr_cpu *c);
/* Load the next data record into c->ev_*: 1 found, 0 end, -1 corrupt. */
int tr_cpu_advance(struct tr_cpu *c, struct sr_error *err);
/*
 * tr_cpu_advance() inlined for the usual case, a data record of 4..112 bytes
 * (type_len 1..28) of a little-endian file on a little-endian host, following
 * the last one in the same page: the same checks and the same result;
 * anything else takes tr_cpu_advance(). (curr and commit are below the page
 * size: curr + 4 cannot wrap.)
 */
static inline int tr_cpu_next(struct tr_cpu *c, struct sr_error *err)
{
	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !c->swap && c->ready && c->have_page &&
	    c->curr + 4 <= c->commit) {
		const uint8_t *data = c->pg + c->curr;
		uint32_t w = tr_u32(data, false);
		uint32_t type_len = w & 0x1f;
		uint32_t len = type_len * 4;

		if (type_len - 1 < 28 && len <= c->commit - c->curr - 4) {
			c->ev_lost = 0;
			c->ts += w >> 5;
			c->ev_ts = c->ts;
			c->ev_data = data + 4;
			c->ev_len = len;
			c->ev_off = c->pg_off + c->curr;
			c->curr += 4 + len;
			return 1;
		}
	}
	return tr_cpu_advance(c, err);
}
/* Raw timestamp of the last record of the CPU (0 if none); -1 on error. */
int tr_cpu_last_ts(const struct tr_file *f, const struct tr_buffer_desc *b, int idx,
		   int kernel_long_size, uint64_t *ts, struct sr_error *err);

/* ---- a record, whichever backend read it -------------------------------- */

struct tr_rec {
	const uint8_t *data;           /* the event's bytes (common header first) */
	uint32_t len;
	uint32_t avail;                /* bytes readable at data (>= len): the page window's */
	int cpu;                       /* CPU id */
	uint64_t ts;                   /* ns, file offsets applied */
	uint64_t offset;               /* see trace_event.offset */
	bool offset_in_stream;
	uint64_t lost_before;          /* 0, n or TRACE_LOST_UNKNOWN */
};

/* ---- the libtracecmd backend (trace_tracecmd.c) ----------------------- */

struct tr_tc;

/* What the native validation pass saw of one CPU stream. */
struct tr_tc_expect {
	uint64_t records;
	uint64_t first_offset;         /* trace_event.offset of its first record */
};

/*
 * Open @path with libtracecmd and select @buffer ("" = top level). @nr_idx
 * is the number of per-CPU streams of that buffer as the native container
 * parser saw them, @expect[i] what it counted in stream i: libtracecmd must
 * deliver exactly that many records (a NULL from tracecmd_read_data() is an
 * end or an error, it does not say which). If @rebase, record offsets are
 * moved so that each stream's first record has expect[i].first_offset
 * (compressed files: libtracecmd numbers records in its decompressed copy).
 */
struct tr_tc *tr_tc_open(const char *path, const char *buffer, int nr_idx,
			 const struct tr_tc_expect *expect, bool rebase, struct sr_error *err);
void tr_tc_close(struct tr_tc *tc);
struct tep_handle *tr_tc_tep(struct tr_tc *tc);
/* Next record by (timestamp, stream index): 1, 0 at the end, -1 on error. */
int tr_tc_next(struct tr_tc *tc, struct tr_rec *rec, struct sr_error *err);
/* Lowest timestamp of the streams' first records; 0 if none. */
uint64_t tr_tc_first_ts(const struct tr_tc *tc);
/* Lost events seen on CPU id @cpu so far (unknown gaps count 1). */
uint64_t tr_tc_lost(const struct tr_tc *tc, int cpu, bool *unknown);

/* ---- ftrace text (trace_text.c) --------------------------------------- */

struct tr_text;

struct tr_text_info {
	int cpus;
	const char *cpus_from;         /* "#P:" or "cpus=" line, else the events */
	uint64_t first_ts, last_ts;    /* of the chosen buffer */
	const char *buffer;            /* "" = top level */
	const char *buffer_reason;
	int nr_buffers;
	bool tracecmd;                 /* `trace-cmd report` text, else tracefs `trace` */
	bool numeric_state;            /* prev_state printed as a number was seen */
	const char *prev_state_how;    /* numeric prev_states: their layout (static); else NULL */
	const char *prev_state_before; /* a layout older than 4.14: "4.14"; else NULL */
	bool records_migrations;       /* a sched_migrate_task line was seen */
	bool records_forks;            /* a sched_wakeup_new or sched_process_fork line */
};

/* Does this sample of a file's start look like ftrace text? */
bool tr_text_sniff(const char *buf, size_t n);
/* Read @path's lines once (CPUs, span, buffers, time order); NULL with err. */
struct tr_text *tr_text_open(const char *path, const char *buffer, struct sr_error *err);
void tr_text_close(struct tr_text *t);
const struct tr_text_info *tr_text_get_info(const struct tr_text *t);
/* Next event of the chosen buffer: 1, 0 at the end, -1 with err. */
int tr_text_next(struct tr_text *t, struct trace_event *ev, uint64_t *lost_before,
		 struct sr_error *err);
uint64_t tr_text_lost(const struct tr_text *t, int cpu, bool *unknown);
bool tr_text_count_at(const struct tr_text *t, size_t i, const char **name, uint64_t *count);

#endif /* SCHEDREPLAY_TRACE_LOCAL_H */
