// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat container, read and validated by hand.
 *
 * The layouts are those of trace-cmd's file-format documentation
 * (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)). libtracecmd parses every one of
 * the ~2,300 event formats a `trace-cmd extract` file carries when it opens
 * it (about 0.1 s here, more than reading a short trace), prints warnings on
 * stderr and trusts sizes it reads from the file; this parser keeps only
 * the name and id of each format, and the text of the few trace_format.c
 * decodes (and parses), checks every size and offset against the file
 * before using it, and reports the first inconsistency as one line that
 * names the offset.
 *
 * v6: header, then sequentially header_page/header_event, ftrace formats,
 *     event formats, kallsyms, printk formats, saved cmdlines, CPU count,
 *     options, "flyrecord" and one (offset, size) pair per CPU. Instance
 *     buffers (BUFFER option: offset + name) point to their own "options" /
 *     "flyrecord" block with the same pairs.
 * v7: header with the compression algorithm and the offset of the first
 *     options section; every other part is a section (16-byte header, maybe
 *     compressed) found through options; BUFFER options list each buffer's
 *     CPUs with absolute offsets.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "trace_local.h"

/* Option ids (trace-cmd.dat.v7(5)); the same numbers are used in v6. */
enum {
	OPT_DONE = 0, OPT_DATE = 1, OPT_CPUSTAT = 2, OPT_BUFFER = 3, OPT_TRACECLOCK = 4,
	OPT_UNAME = 5, OPT_HOOK = 6, OPT_OFFSET = 7, OPT_CPUCOUNT = 8, OPT_VERSION = 9,
	OPT_TRACEID = 11,
	OPT_TSC2NSEC = 14, OPT_STRINGS = 15, OPT_HEADER_INFO = 16, OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18, OPT_KALLSYMS = 19, OPT_PRINTK = 20, OPT_CMDLINES = 21,
	OPT_BUFFER_TEXT = 22,
};

#define SEC_FL_COMPRESS 1

/* Metadata sections and chunks beyond this are taken as corruption. */
#define TR_MAX_META (512u << 20)
/* Options sections chained by DONE: more than this is a loop. */
#define TR_MAX_OPTION_SECTIONS 1024
/*
 * Options in a v6 list: trace-cmd writes a few dozen (one per buffer and a
 * handful of machine facts); more than this is a damaged list, not a trace.
 */
#define TR_MAX_V6_OPTIONS 100000
/*
 * A CPU count the file may claim (header, CPUCOUNT, a buffer's sections):
 * the reader takes CPU ids up to 65535 (trace.h; replay and report then
 * refuse those from TRACE_MAX_CPUS up, naming the event).  Beyond it the
 * count is damage, and a section table of that size is not allocated.
 */
#define TR_MAX_FILE_CPUS 65536

static const uint8_t trace_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

int tr_file_pread(const struct tr_file *f, void *buf, size_t len, uint64_t off,
		  const char *what, struct sr_error *err)
{
	size_t done = 0;

	if (off > f->file_size || len > f->file_size - off) {
		sr_error_set(err, EINVAL,
			     "truncated: %s at offset %" PRIu64 " needs %zu bytes, the file ends at %"
			     PRIu64, what, off, len, f->file_size);
		return -1;
	}
	while (done < len) {
		ssize_t n = pread(f->fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			sr_error_set(err, n < 0 ? errno : EIO, "reading %s at offset %" PRIu64 ": %s",
				     what, off + done, n < 0 ? strerror(errno) : "unexpected end of file");
			return -1;
		}
		done += (size_t)n;
	}
	return 0;
}

int tr_decompress(enum tr_compress c, const void *src, size_t src_len, void *dst,
		  size_t dst_len)
{
	if (c == TR_COMPRESS_ZSTD) {
		size_t n = ZSTD_decompress(dst, dst_len, src, src_len);

		return (!ZSTD_isError(n) && n == dst_len) ? 0 : -1;
	}
	if (c == TR_COMPRESS_ZLIB) {
		uLongf n = dst_len;

		if (uncompress(dst, &n, src, src_len) != Z_OK || n != dst_len)
			return -1;
		return 0;
	}
	return -1;
}

int tr_file_decompress(const struct tr_file *f, const void *src, size_t src_len, void *dst,
		       size_t dst_len)
{
	if (f->compress == TR_COMPRESS_ZSTD && f->zstd_dctx) {
		size_t n = ZSTD_decompressDCtx(f->zstd_dctx, dst, dst_len, src, src_len);

		return (!ZSTD_isError(n) && n == dst_len) ? 0 : -1;
	}
	return tr_decompress(f->compress, src, src_len, dst, dst_len);
}

/* ---- cursors -------------------------------------------------------------- */

/*
 * Sequential reads from the file (v6), through a small window: a
 * `trace-cmd extract` file has ~2,300 event formats, each a size and a text,
 * read otherwise with two preads apiece.
 */
#define FC_WINDOW 16384

struct fcur {
	const struct tr_file *f;
	uint64_t off;
	struct sr_error *err;
	uint64_t win_off;              /* file offset of win[0] */
	size_t win_len;
	uint8_t win[FC_WINDOW];
};

static int fc_read(struct fcur *c, void *buf, size_t n, const char *what)
{
	const struct tr_file *f = c->f;

	if (c->off < c->win_off || c->off - c->win_off > c->win_len ||
	    n > c->win_len - (c->off - c->win_off)) {
		size_t m;

		/* large reads, and reads past the end (for the error), go direct */
		if (n >= FC_WINDOW / 2 || c->off > f->file_size || n > f->file_size - c->off) {
			if (tr_file_pread(f, buf, n, c->off, what, c->err))
				return -1;
			c->off += n;
			return 0;
		}
		m = f->file_size - c->off < FC_WINDOW ? (size_t)(f->file_size - c->off) : FC_WINDOW;
		c->win_len = 0;
		if (tr_file_pread(f, c->win, m, c->off, what, c->err))
			return -1;
		c->win_off = c->off;
		c->win_len = m;
	}
	memcpy(buf, c->win + (c->off - c->win_off), n);
	c->off += n;
	return 0;
}

/* @n bytes (n < FC_WINDOW / 2) in the window, valid until the next read. */
static const char *fc_view(struct fcur *c, size_t n, const char *what)
{
	const struct tr_file *f = c->f;

	if (c->off < c->win_off || c->off - c->win_off > c->win_len ||
	    n > c->win_len - (c->off - c->win_off)) {
		size_t m;

		if (c->off > f->file_size || n > f->file_size - c->off) {
			sr_error_set(c->err, EINVAL, "truncated: %s at offset %" PRIu64 " needs %zu "
				     "bytes, the file ends at %" PRIu64, what, c->off, n, f->file_size);
			return NULL;
		}
		m = f->file_size - c->off < FC_WINDOW ? (size_t)(f->file_size - c->off) : FC_WINDOW;
		c->win_len = 0;
		if (tr_file_pread(f, c->win, m, c->off, what, c->err))
			return NULL;
		c->win_off = c->off;
		c->win_len = m;
	}
	c->off += n;
	return (const char *)c->win + (c->off - n - c->win_off);
}

static int fc_u32(struct fcur *c, uint32_t *v, const char *what)
{
	uint8_t b[4];

	if (fc_read(c, b, 4, what))
		return -1;
	*v = tr_u32(b, c->f->swap);
	return 0;
}

static int fc_u64(struct fcur *c, uint64_t *v, const char *what)
{
	uint8_t b[8];

	if (fc_read(c, b, 8, what))
		return -1;
	*v = tr_u64(b, c->f->swap);
	return 0;
}

/* Read @n bytes into a new NUL-terminated buffer. */
static char *fc_blob(struct fcur *c, uint64_t n, const char *what)
{
	char *p;

	if (n > TR_MAX_META || n > c->f->file_size - (c->off < c->f->file_size ? c->off : c->f->file_size)) {
		sr_error_set(c->err, EINVAL,
			     "truncated or corrupted: %s at offset %" PRIu64 " claims %" PRIu64
			     " bytes, the file ends at %" PRIu64, what, c->off, n, c->f->file_size);
		return NULL;
	}
	p = malloc(n + 1);
	if (!p) {
		sr_error_set(c->err, ENOMEM, "out of memory reading %s", what);
		return NULL;
	}
	if (fc_read(c, p, n, what)) {
		free(p);
		return NULL;
	}
	p[n] = '\0';
	return p;
}

static int fc_skip(struct fcur *c, uint64_t n, const char *what)
{
	if (c->off > c->f->file_size || n > c->f->file_size - c->off) {
		sr_error_set(c->err, EINVAL,
			     "truncated or corrupted: %s at offset %" PRIu64 " claims %" PRIu64
			     " bytes, the file ends at %" PRIu64, what, c->off, n, c->f->file_size);
		return -1;
	}
	c->off += n;
	return 0;
}

/* A NUL-terminated string of at most @max - 1 characters. */
static int fc_cstr(struct fcur *c, char *buf, size_t max, const char *what)
{
	for (size_t i = 0; i < max; i++) {
		if (fc_read(c, &buf[i], 1, what))
			return -1;
		if (!buf[i])
			return 0;
	}
	sr_error_set(c->err, EINVAL, "corrupted: %s at offset %" PRIu64 " is not terminated",
		     what, c->off);
	return -1;
}

/* Reads from a section held in memory (v7, and option payloads). */
struct mcur {
	const uint8_t *p;
	size_t len, pos;
	bool swap;
	const char *what;
	uint64_t file_off;             /* where the data came from, for messages */
	struct sr_error *err;
};

static int mc_fail(struct mcur *c, const char *part)
{
	sr_error_set(c->err, EINVAL, "corrupted: %s (section at offset %" PRIu64 ") ends inside %s",
		     c->what, c->file_off, part);
	return -1;
}

static int mc_u16(struct mcur *c, uint16_t *v, const char *part)
{
	if (c->len - c->pos < 2)
		return mc_fail(c, part);
	*v = tr_u16(c->p + c->pos, c->swap);
	c->pos += 2;
	return 0;
}

static int mc_u32(struct mcur *c, uint32_t *v, const char *part)
{
	if (c->len - c->pos < 4)
		return mc_fail(c, part);
	*v = tr_u32(c->p + c->pos, c->swap);
	c->pos += 4;
	return 0;
}

static int mc_u64(struct mcur *c, uint64_t *v, const char *part)
{
	if (c->len - c->pos < 8)
		return mc_fail(c, part);
	*v = tr_u64(c->p + c->pos, c->swap);
	c->pos += 8;
	return 0;
}

static const char *mc_cstr(struct mcur *c, const char *part)
{
	const char *s = (const char *)c->p + c->pos;
	const char *nul = memchr(s, '\0', c->len - c->pos);

	if (!nul) {
		mc_fail(c, part);
		return NULL;
	}
	c->pos += (size_t)(nul - s) + 1;
	return s;
}

static const uint8_t *mc_bytes(struct mcur *c, uint64_t n, const char *part)
{
	const uint8_t *p = c->p + c->pos;

	if (n > c->len - c->pos) {
		mc_fail(c, part);
		return NULL;
	}
	c->pos += n;
	return p;
}

/* ---- collected parts ------------------------------------------------------ */

/*
 * Storage the format texts point into: v7 format sections as read, v6
 * formats copied into blocks of FMT_BLOCK bytes (pointers stay valid: a
 * block is never reallocated).
 */
#define FMT_BLOCK (256u << 10)

static int keep_blob(struct tr_file *f, char *blob, size_t used, size_t cap,
		     struct sr_error *err)
{
	char **n = realloc(f->fmt_blobs, (f->nr_fmt_blobs + 1) * sizeof(*n));

	if (!n) {
		sr_error_set(err, ENOMEM, "out of memory storing event formats");
		return -1;
	}
	f->fmt_blobs = n;
	n[f->nr_fmt_blobs++] = blob;
	f->fmt_used = used;
	f->fmt_cap = cap;
	return 0;
}

/* @n bytes of format storage in the current v6 block. */
static char *fmt_space(struct tr_file *f, size_t n, struct sr_error *err)
{
	char *p;

	if (!f->nr_fmt_blobs || n > f->fmt_cap - f->fmt_used) {
		size_t cap = n > FMT_BLOCK ? n : FMT_BLOCK;
		char *b = malloc(cap);

		if (!b) {
			sr_error_set(err, ENOMEM, "out of memory storing event formats");
			return NULL;
		}
		if (keep_blob(f, b, 0, cap, err)) {
			free(b);
			return NULL;
		}
	}
	p = f->fmt_blobs[f->nr_fmt_blobs - 1] + f->fmt_used;
	f->fmt_used += n;
	return p;
}

/*
 * Index one format text: its name and id, and the text itself if it is one
 * trace_format.c decodes (@keep: @text stays valid, else it is copied into
 * the format storage). The other ~2,300 of an extract keep only their name.
 */
static int add_format(struct tr_file *f, const char *system, const char *text, size_t len,
		      bool keep, struct sr_error *err)
{
	struct tr_format_text ft = { .system = system };

	if (f->nr_formats == f->formats_cap) {
		size_t cap = f->formats_cap ? f->formats_cap * 2 : 256;
		void *n = realloc(f->formats, cap * sizeof(*f->formats));

		if (!n) {
			sr_error_set(err, ENOMEM, "out of memory storing event formats");
			return -1;
		}
		f->formats = n;
		f->formats_cap = cap;
	}
	if (!tr_format_scan(text, len, &ft.name, &ft.name_len, &ft.id)) {
		if (tr_format_decoded(system, ft.name, ft.name_len)) {
			if (!keep) {
				char *t = fmt_space(f, len, err);

				if (!t)
					return -1;
				memcpy(t, text, len);
				ft.name = t + (ft.name - text);
				text = t;
			}
			ft.text = text;
			ft.len = len;
		} else if (!keep) {
			char *n = fmt_space(f, ft.name_len, err);

			if (!n)
				return -1;
			memcpy(n, ft.name, ft.name_len);
			ft.name = n;
		}
	} else {
		ft.name = NULL;
	}
	f->formats[f->nr_formats++] = ft;
	return 0;
}

void tr_file_drop_formats(struct tr_file *f)
{
	for (size_t i = 0; i < f->nr_fmt_blobs; i++)
		free(f->fmt_blobs[i]);
	free(f->fmt_blobs);
	free(f->formats);
	f->fmt_blobs = NULL;
	f->nr_fmt_blobs = f->fmt_used = f->fmt_cap = 0;
	f->formats = NULL;
	f->nr_formats = f->formats_cap = 0;
}

/*
 * A buffer named again (trace-cmd rewrites BUFFER options once the data is
 * written) replaces the earlier description.
 */
static struct tr_buffer_desc *add_buffer(struct tr_file *f, const char *name, struct sr_error *err)
{
	struct tr_buffer_desc *b;
	void *n;

	for (int i = 0; i < f->nr_buffers; i++) {
		b = &f->buffers[i];
		if (strcmp(b->name, name))
			continue;
		free(b->clock);
		free(b->cpus);
		b->clock = NULL;
		b->cpus = NULL;
		b->nr_cpus = 0;
		b->latency = b->compressed = false;
		return b;
	}
	n = realloc(f->buffers, (size_t)(f->nr_buffers + 1) * sizeof(*f->buffers));
	if (!n) {
		sr_error_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	f->buffers = n;
	b = &f->buffers[f->nr_buffers];
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	if (!b->name) {
		sr_error_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	f->nr_buffers++;
	return b;
}

static char *dup_option_string(const uint8_t *data, uint32_t size)
{
	size_t n = strnlen((const char *)data, size);
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, data, n);
		s[n] = '\0';
	}
	return s;
}

/* "[local] global counter" -> *@clock "local" (NULL: no brackets); -1: out of memory */
static int parse_trace_clock(const uint8_t *data, uint32_t size, char **clock)
{
	char *all = dup_option_string(data, size);
	char *open, *close;

	*clock = NULL;
	if (!all)
		return -1;
	open = strchr(all, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		*clock = strdup(open + 1);
	}
	free(all);
	return open && close && !*clock ? -1 : 0;
}

/* ---- options (both versions) ---------------------------------------------- */

struct opt_ctx {
	uint64_t header_info, ftrace_events, event_formats;   /* v7 section offsets */
	uint64_t next_options;                                /* v7 DONE */
	uint64_t *v6_buffer_off;                              /* v6 instance offsets */
	int *v6_buffer_idx;                                   /* ... and their buffers */
	int v6_nr_buffers;
};

static int stat_now_ns(const char *text, uint64_t *ns);

/*
 * "read events: N" of one CPUSTAT text (tracing_stats_read():
 * ring_buffer_read_events_cpu(), the events readers took from the CPU's ring
 * buffer, the pages trace-cmd spliced into the file included): N, or -1 when
 * absent or not a number.
 */
static long long stat_read_events(const char *text)
{
	const char *p = strstr(text, "read events:");
	unsigned long long n;
	char *end;

	if (!p)
		return -1;
	for (p += 12; *p == ' ' || *p == '\t'; p++)
		;
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	n = strtoull(p, &end, 10);
	if (errno || n > LLONG_MAX || (*end && *end != '\n' && *end != ' '))
		return -1;
	return (long long)n;
}

/*
 * One CPUSTAT text as tr_file_cpu_ts_bound() reads it: 0, or -1 if its
 * "CPU: N" line (trace-cmd's, before the kernel's per_cpu/cpuN/stats) is
 * not a CPU id the file may have. atoi() read "CPU: 4294967296" as CPU 0 and
 * "CPU: x" as 0, so another CPU's "now ts:" bounded this one's time stamps
 * (fuzz41).
 */
static int parse_cpustat(const char *text, struct tr_cpustat *st)
{
	const char *p = strstr(text, "CPU:");
	char *end;
	unsigned long long cpu;

	st->has_cpu = p != NULL;
	st->cpu = -1;
	st->now_ns = 0;
	st->now = stat_now_ns(text, &st->now_ns);
	st->read_events = stat_read_events(text);
	if (!p)
		return 0;
	for (p += 4; *p == ' ' || *p == '\t'; p++)
		;
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	cpu = strtoull(p, &end, 10);
	if (errno || cpu >= TR_MAX_FILE_CPUS || (*end && *end != '\n' && *end != ' '))
		return -1;
	st->cpu = (int)cpu;
	return 0;
}

/*
 * A CPUSTAT text without a "CPU:" line that is trace-cmd's marker of an
 * instance's statistics (add_buffer_stat(): "\nBuffer: NAME\n\n", then one
 * text per CPU of that instance): NAME is added to f->cpustat_bufs, and the
 * CPUSTATs after it are that buffer's.  Those before the first marker are the
 * top-level buffer's.  0, or -1 out of memory.
 */
static int cpustat_marker(struct tr_file *f, const char *text)
{
	const char *p = text, *e;
	char **n, *name;

	while (*p == '\n')
		p++;
	if (strncmp(p, "Buffer:", 7))
		return 0;
	for (p += 7; *p == ' '; p++)
		;
	for (e = p; *e && *e != '\n'; e++)
		;
	if (!(name = strndup(p, (size_t)(e - p))))
		return -1;
	if (!(n = realloc(f->cpustat_bufs, (size_t)(f->nr_cpustat_bufs + 1) * sizeof(*n)))) {
		free(name);
		return -1;
	}
	f->cpustat_bufs = n;
	n[f->nr_cpustat_bufs++] = name;
	return 0;
}

/* -1: out of memory reading option @id at @where */
static int option_nomem(uint16_t id, uint64_t where, struct sr_error *err)
{
	sr_error_set(err, ENOMEM, "out of memory reading the option (id %" PRIu16 ") at offset %"
		     PRIu64, id, where);
	return -1;
}

/*
 * A BUFFER or BUFFER_TEXT option at @where: an instance's name and, in v7,
 * its clock, page size and CPU sections (v6 lists the sections after the
 * top buffer's data; @ctx keeps the instance's offset for then).
 */
static int buffer_option(struct tr_file *f, struct opt_ctx *ctx, struct mcur *c, uint16_t id,
			 uint64_t where, struct sr_error *err)
{
	uint64_t off;
	const char *name, *clock;
	struct tr_buffer_desc *b;
	uint32_t page_size, cpus;

	if (mc_u64(c, &off, "BUFFER offset") || !(name = mc_cstr(c, "BUFFER name")))
		return -1;
	/*
	 * An instance name is a tracefs directory name: no control
	 * characters. Other data read as a BUFFER option (a damaged id)
	 * would put its lines into every message naming the buffer.
	 */
	for (const char *q = name; *q; q++) {
		if ((unsigned char)*q < 0x20 || *q == 0x7f) {
			sr_error_set(err, EINVAL, "corrupted: BUFFER option at offset %" PRIu64
				     ": the buffer name has a control character (0x%02x at "
				     "byte %zu)", where, (unsigned)(unsigned char)*q,
				     (size_t)(q - name));
			return -1;
		}
	}
	if (f->version < 7) {
		size_t k = (size_t)ctx->v6_nr_buffers + 1;
		uint64_t *n = realloc(ctx->v6_buffer_off, k * sizeof(*n));
		int *ni;

		if (n)
			ctx->v6_buffer_off = n;
		ni = n ? realloc(ctx->v6_buffer_idx, k * sizeof(*ni)) : NULL;
		if (!ni)
			goto nomem;
		ctx->v6_buffer_idx = ni;
		b = add_buffer(f, name, err);
		if (!b)
			return -1;
		n[ctx->v6_nr_buffers] = off;
		ni[ctx->v6_nr_buffers++] = (int)(b - f->buffers);
		return 0;
	}
	if (!(clock = mc_cstr(c, "BUFFER clock")))
		return -1;
	b = add_buffer(f, name, err);
	if (!b)
		return -1;
	b->clock = strdup(clock);
	if (!b->clock)
		goto nomem;
	if (id == OPT_BUFFER_TEXT) {
		b->latency = true;
		return 0;
	}
	if (mc_u32(c, &page_size, "BUFFER page size") || mc_u32(c, &cpus, "BUFFER cpus"))
		return -1;
	if (cpus > TR_MAX_FILE_CPUS) {
		sr_error_set(err, EINVAL, "corrupted: buffer '%s' at offset %" PRIu64
			     " claims %" PRIu32 " CPUs", name, where, cpus);
		return -1;
	}
	b->page_size = page_size;
	b->nr_cpus = (int)cpus;
	b->cpus = calloc(cpus ? cpus : 1, sizeof(*b->cpus));
	if (!b->cpus)
		goto nomem;
	for (uint32_t i = 0; i < cpus; i++) {
		uint32_t cpu;

		if (mc_u32(c, &cpu, "BUFFER cpu") ||
		    mc_u64(c, &b->cpus[i].offset, "BUFFER cpu offset") ||
		    mc_u64(c, &b->cpus[i].size, "BUFFER cpu size"))
			return -1;
		b->cpus[i].cpu = (int)cpu;
	}
	/* the section header at @off says whether the data is compressed */
	if (cpus) {
		uint8_t hdr[16];

		if (tr_file_pread(f, hdr, sizeof(hdr), off, "buffer section header", err))
			return -1;
		b->compressed = tr_u16(hdr + 2, f->swap) & SEC_FL_COMPRESS;
	}
	return 0;
nomem:
	return option_nomem(id, where, err);
}

static int handle_option(struct tr_file *f, struct opt_ctx *ctx, uint16_t id,
			 const uint8_t *data, uint32_t size, uint64_t where, struct sr_error *err)
{
	struct mcur c = { .p = data, .len = size, .swap = f->swap, .what = "option",
			  .file_off = where, .err = err };

	switch (id) {
	case OPT_CPUSTAT: {
		struct tr_cpustat *n = realloc(f->cpustats, (size_t)(f->nr_cpustats + 1) * sizeof(*n));
		char *text;

		if (!n)
			goto nomem;
		f->cpustats = n;
		if (!(text = dup_option_string(data, size)))
			goto nomem;
		if (parse_cpustat(text, &n[f->nr_cpustats++])) {
			free(text);
			sr_error_set(err, EINVAL, "corrupted: CPUSTAT option at offset %" PRIu64
				     ": its 'CPU:' line is not a CPU number 0..%d", where,
				     TR_MAX_FILE_CPUS - 1);
			return -1;
		}
		n[f->nr_cpustats - 1].buffer = f->nr_cpustat_bufs - 1;
		if (!n[f->nr_cpustats - 1].has_cpu && cpustat_marker(f, text)) {
			free(text);
			goto nomem;
		}
		free(text);
		return 0;
	}
	case OPT_TRACECLOCK:
		free(f->clock);
		if (parse_trace_clock(data, size, &f->clock))
			goto nomem;
		return 0;
	case OPT_UNAME:
		free(f->uname);
		if (!(f->uname = dup_option_string(data, size)))
			goto nomem;
		return 0;
	case OPT_TRACEID:
		/*
		 * A random 64-bit id the recorder chose; the capture sidecar
		 * repeats it.  Another size was ignored (fuzz40): the check of
		 * the sidecar against its trace skipped at exit 0.
		 */
		if (size != 8) {
			sr_error_set(err, EINVAL, "corrupted: TRACEID option at offset %" PRIu64
				     " is %" PRIu32 " bytes, not 8", where, size);
			return -1;
		}
		f->trace_id = tr_u64(data, f->swap);
		f->has_trace_id = true;
		return 0;
	case OPT_VERSION:
		free(f->tracer_version);
		if (!(f->tracer_version = dup_option_string(data, size)))
			goto nomem;
		return 0;
	case OPT_OFFSET: {
		/*
		 * Several add up.  Read whole and checked (fuzz40): two of
		 * 2^63-1 overflowed the sum (UBSan), and text that is no
		 * number read as 0 at exit 0.
		 */
		char *s = dup_option_string(data, size), *end;
		long long v;
		bool bad;

		if (!s)
			goto nomem;
		errno = 0;
		v = strtoll(s, &end, 0);
		end += strspn(end, " \t\n");
		bad = errno || end == s || *end;
		free(s);
		if (bad) {
			sr_error_set(err, EINVAL, "corrupted: OFFSET option at offset %" PRIu64
				     " is not a number of ns in the int64 range", where);
			return -1;
		}
		if (__builtin_add_overflow(f->ts_offset, (int64_t)v, &f->ts_offset)) {
			sr_error_set(err, EINVAL, "corrupted: OFFSET option at offset %" PRIu64
				     " takes the timestamp offset past the int64 range", where);
			return -1;
		}
		return 0;
	}
	case OPT_CPUCOUNT: {
		uint32_t n;

		if (mc_u32(&c, &n, "CPUCOUNT"))
			return -1;
		if (n == 0 || n > TR_MAX_FILE_CPUS) {
			sr_error_set(err, EINVAL, "corrupted: CPUCOUNT option at offset %" PRIu64
				     " says %" PRIu32 " CPUs", where, n);
			return -1;
		}
		f->cpus = (int)n;
		f->cpus_from = "trace.dat CPUCOUNT option";
		f->cpus_exact = true;
		return 0;
	}
	case OPT_TSC2NSEC: {
		uint64_t off;

		if (mc_u32(&c, &f->tsc_mult, "TSC2NSEC") || mc_u32(&c, &f->tsc_shift, "TSC2NSEC") ||
		    mc_u64(&c, &off, "TSC2NSEC"))
			return -1;
		/*
		 * conv_ts()'s hi << (32 - shift) needs shift <= 32.  One above
		 * used to drop the conversion at exit 0 (fuzz40): the time
		 * stamps read as TSC cycles, not ns.
		 */
		if (f->tsc_shift > 32) {
			sr_error_set(err, EINVAL, "corrupted: TSC2NSEC option at offset %" PRIu64
				     " has shift %" PRIu32 " (at most 32)", where, f->tsc_shift);
			return -1;
		}
		f->tsc_offset = off;
		return 0;
	}
	case OPT_HEADER_INFO:
		return mc_u64(&c, &ctx->header_info, "HEADER_INFO");
	case OPT_FTRACE_EVENTS:
		return mc_u64(&c, &ctx->ftrace_events, "FTRACE_EVENTS");
	case OPT_EVENT_FORMATS:
		return mc_u64(&c, &ctx->event_formats, "EVENT_FORMATS");
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT:
		return buffer_option(f, ctx, &c, id, where, err);
	case OPT_DONE:
		return mc_u64(&c, &ctx->next_options, "DONE");

	default:
		/* DATE is ignored as by `trace-cmd report` without --date. */
		return 0;
	}
nomem:
	return option_nomem(id, where, err);
}

/* ---- v6 ------------------------------------------------------------------- */

static int v6_read_header_info(struct fcur *c, struct tr_file *f)
{
	char tag[13];
	uint64_t size;

	if (fc_read(c, tag, 12, "header_page tag"))
		return -1;
	if (memcmp(tag, "header_page", 12)) {
		sr_error_set(c->err, EINVAL, "corrupted: no header_page at offset %" PRIu64,
			     c->off - 12);
		return -1;
	}
	if (fc_u64(c, &size, "header_page size"))
		return -1;
	f->header_page = fc_blob(c, size, "header_page");
	if (!f->header_page)
		return -1;
	f->header_page_len = size;
	if (fc_read(c, tag, 13, "header_event tag"))
		return -1;
	if (memcmp(tag, "header_event", 13)) {
		sr_error_set(c->err, EINVAL, "corrupted: no header_event at offset %" PRIu64,
			     c->off - 13);
		return -1;
	}
	if (fc_u64(c, &size, "header_event size"))
		return -1;
	return fc_skip(c, size, "header_event");
}

static int v6_read_format(struct fcur *c, struct tr_file *f, const char *system)
{
	uint64_t size;
	const char *text;
	char *big;
	int ret;

	if (fc_u64(c, &size, "event format size"))
		return -1;
	if (size > TR_MAX_META || c->off > f->file_size || size > f->file_size - c->off) {
		sr_error_set(c->err, EINVAL,
			     "truncated or corrupted: event format at offset %" PRIu64 " claims %"
			     PRIu64 " bytes, the file ends at %" PRIu64, c->off, size, f->file_size);
		return -1;
	}
	if (size < FC_WINDOW / 2) {
		text = fc_view(c, (size_t)size, "event format");
		return text ? add_format(f, system, text, (size_t)size, false, c->err) : -1;
	}
	big = malloc((size_t)size);
	if (!big) {
		sr_error_set(c->err, ENOMEM, "out of memory reading event formats");
		return -1;
	}
	ret = fc_read(c, big, (size_t)size, "event format") ? -1 :
		add_format(f, system, big, (size_t)size, false, c->err);
	free(big);
	return ret;
}

static int v6_read_formats(struct fcur *c, struct tr_file *f)
{
	uint32_t n, nsys;

	if (fc_u32(c, &n, "ftrace format count"))
		return -1;
	if (n > 100000)
		goto bad;
	for (uint32_t i = 0; i < n; i++)
		if (v6_read_format(c, f, "ftrace"))
			return -1;
	if (fc_u32(c, &nsys, "event system count"))
		return -1;
	if (nsys > 100000)
		goto bad;
	for (uint32_t s = 0; s < nsys; s++) {
		char system[256];

		if (fc_cstr(c, system, sizeof(system), "event system name") ||
		    fc_u32(c, &n, "event count"))
			return -1;
		if (n > 100000)
			goto bad;
		if (n) {
			size_t sl = strlen(system) + 1;
			char *sys = fmt_space(f, sl, c->err);

			if (!sys)
				return -1;
			memcpy(sys, system, sl);
			for (uint32_t i = 0; i < n; i++)
				if (v6_read_format(c, f, sys))
					return -1;
		}
	}
	return 0;
bad:
	sr_error_set(c->err, EINVAL, "corrupted: implausible format count before offset %" PRIu64,
		     c->off);
	return -1;
}

/* v6 options list: id(2) [size(4) data] ... id 0 */
static int v6_read_options(struct fcur *c, struct tr_file *f, struct opt_ctx *ctx)
{
	uint64_t start = c->off;

	for (int guard = 0; guard < TR_MAX_V6_OPTIONS; guard++) {
		uint8_t b[2];
		uint16_t id;
		uint32_t size;
		uint64_t where = c->off;
		char *data;
		int ret;

		if (fc_read(c, b, 2, "option id"))
			return -1;
		id = tr_u16(b, f->swap);
		if (id == OPT_DONE)
			return 0;
		if (fc_u32(c, &size, "option size"))
			return -1;
		data = fc_blob(c, size, "option");
		if (!data)
			return -1;
		ret = handle_option(f, ctx, id, (uint8_t *)data, size, where, c->err);
		free(data);
		if (ret)
			return -1;
	}
	sr_error_set(c->err, EINVAL, "corrupted: the options list at offset %" PRIu64 " does not "
		     "end within %d options (offset %" PRIu64 ")", start, TR_MAX_V6_OPTIONS, c->off);
	return -1;
}

/* "options  \0"? options, then "flyrecord\0" and @cpus (offset, size) pairs */
/* @idx, not a pointer: the options read here may grow f->buffers. */
static int v6_read_flyrecord(struct fcur *c, struct tr_file *f, struct opt_ctx *ctx, int idx)
{
	struct tr_buffer_desc *b;
	char tag[10];

	if (fc_read(c, tag, 10, "data type tag"))
		return -1;
	if (!strncmp(tag, "options", 7)) {
		if (v6_read_options(c, f, ctx))
			return -1;
		if (fc_read(c, tag, 10, "data type tag"))
			return -1;
	}
	b = &f->buffers[idx];
	if (!strncmp(tag, "latency", 7)) {
		b->latency = true;
		return 0;
	}
	if (strncmp(tag, "flyrecord", 9)) {
		sr_error_set(c->err, EINVAL,
			     "corrupted: expected \"flyrecord\" or \"latency\" at offset %" PRIu64,
			     c->off - 10);
		return -1;
	}
	b->nr_cpus = f->cpus;
	b->page_size = f->page_size;
	b->cpus = calloc((size_t)f->cpus, sizeof(*b->cpus));
	if (!b->cpus) {
		sr_error_set(c->err, ENOMEM, "out of memory");
		return -1;
	}
	for (int i = 0; i < f->cpus; i++) {
		b->cpus[i].cpu = i;
		if (fc_u64(c, &b->cpus[i].offset, "CPU data offset") ||
		    fc_u64(c, &b->cpus[i].size, "CPU data size"))
			return -1;
	}
	return 0;
}

static int v6_parse(struct tr_file *f, uint64_t off, struct sr_error *err)
{
	struct fcur c = { .f = f, .off = off, .err = err };
	struct opt_ctx ctx = { 0 };
	struct tr_buffer_desc *top;
	uint32_t size32, cpus;
	uint64_t size64;
	int nr_instances;
	int ret = -1;

	if (v6_read_header_info(&c, f) || v6_read_formats(&c, f))
		return -1;
	if (fc_u32(&c, &size32, "kallsyms size") || fc_skip(&c, size32, "kallsyms") ||
	    fc_u32(&c, &size32, "printk formats size") || fc_skip(&c, size32, "printk formats") ||
	    fc_u64(&c, &size64, "saved cmdlines size") || fc_skip(&c, size64, "saved cmdlines") ||
	    fc_u32(&c, &cpus, "CPU count"))
		return -1;
	if (cpus == 0 || cpus > TR_MAX_FILE_CPUS) {
		sr_error_set(err, EINVAL, "corrupted: CPU count %" PRIu32 " at offset %" PRIu64,
			     cpus, c.off - 4);
		return -1;
	}
	f->cpus = (int)cpus;
	f->cpus_from = "trace.dat header";
	f->cpus_exact = true;
	/* the top buffer is described first; instances come from BUFFER options */
	top = add_buffer(f, "", err);
	if (!top)
		return -1;
	if (v6_read_flyrecord(&c, f, &ctx, (int)(top - f->buffers)))
		goto out;
	/* instance blocks: each has its own "options"/"flyrecord" header */
	nr_instances = ctx.v6_nr_buffers;
	for (int i = 0; i < nr_instances; i++) {
		struct fcur ic = { .f = f, .off = ctx.v6_buffer_off[i], .err = err };

		if (v6_read_flyrecord(&ic, f, &ctx, ctx.v6_buffer_idx[i])) {
			sr_error_prefix(err, "instance '%s'", f->buffers[ctx.v6_buffer_idx[i]].name);
			goto out;
		}
		f->buffers[ctx.v6_buffer_idx[i]].v6_head_off = ctx.v6_buffer_off[i];
		f->buffers[ctx.v6_buffer_idx[i]].v6_head_end = ic.off;
	}
	for (int i = 0; i < f->nr_buffers; i++)
		if (!f->buffers[i].clock && f->clock)
			f->buffers[i].clock = strdup(f->clock);
	ret = 0;
out:
	free(ctx.v6_buffer_off);
	free(ctx.v6_buffer_idx);
	return ret;
}

/* ---- v7 ------------------------------------------------------------------- */

/* Read the section at @off (header checked against @want_id) into memory. */
static uint8_t *v7_read_section(struct tr_file *f, uint64_t off, uint16_t want_id,
				const char *what, size_t *len, struct sr_error *err)
{
	uint8_t hdr[16];
	uint16_t id, flags;
	uint64_t size;
	uint8_t *data;

	if (tr_file_pread(f, hdr, sizeof(hdr), off, what, err))
		return NULL;
	id = tr_u16(hdr, f->swap);
	flags = tr_u16(hdr + 2, f->swap);
	size = tr_u64(hdr + 8, f->swap);
	if (id != want_id) {
		sr_error_set(err, EINVAL, "corrupted: %s at offset %" PRIu64
			     " has section id %u, expected %u", what, off, id, want_id);
		return NULL;
	}
	if (size > TR_MAX_META || size > f->file_size - off - 16) {
		sr_error_set(err, EINVAL, "truncated or corrupted: %s at offset %" PRIu64
			     " claims %" PRIu64 " bytes, the file ends at %" PRIu64,
			     what, off, size, f->file_size);
		return NULL;
	}
	if (flags & SEC_FL_COMPRESS) {
		uint8_t zh[8];
		uint32_t zsize, usize;
		uint8_t *z;

		if (f->compress == TR_COMPRESS_NONE) {
			sr_error_set(err, EINVAL, "corrupted: %s at offset %" PRIu64
				     " is compressed but the file names no algorithm", what, off);
			return NULL;
		}
		if (size < 8 || tr_file_pread(f, zh, 8, off + 16, what, err))
			goto bad_size;
		zsize = tr_u32(zh, f->swap);
		usize = tr_u32(zh + 4, f->swap);
		if (zsize > size - 8 || usize > TR_MAX_META)
			goto bad_size;
		z = malloc(zsize ? zsize : 1);
		data = malloc((size_t)usize + 1);
		if (!z || !data) {
			free(z);
			free(data);
			sr_error_set(err, ENOMEM, "out of memory reading %s", what);
			return NULL;
		}
		if (tr_file_pread(f, z, zsize, off + 24, what, err)) {
			free(z);
			free(data);
			return NULL;
		}
		if (tr_file_decompress(f, z, zsize, data, usize)) {
			free(z);
			free(data);
			sr_error_set(err, EINVAL, "corrupted: %s at offset %" PRIu64
				     " does not decompress (%s)", what, off, f->compress_name);
			return NULL;
		}
		free(z);
		data[usize] = 0;
		*len = usize;
		return data;
	}
	data = malloc(size + 1);
	if (!data) {
		sr_error_set(err, ENOMEM, "out of memory reading %s", what);
		return NULL;
	}
	if (tr_file_pread(f, data, size, off + 16, what, err)) {
		free(data);
		return NULL;
	}
	data[size] = 0;
	*len = size;
	return data;
bad_size:
	sr_error_set(err, EINVAL, "corrupted: %s at offset %" PRIu64 " has a bad compression header",
		     what, off);
	return NULL;
}

static int v7_header_info(struct tr_file *f, uint64_t off, struct sr_error *err)
{
	size_t len;
	uint8_t *d = v7_read_section(f, off, OPT_HEADER_INFO, "header info section", &len, err);
	struct mcur c = { .p = d, .len = len, .swap = f->swap, .what = "header info",
			  .file_off = off, .err = err };
	const char *tag;
	const uint8_t *p;
	uint64_t size;
	int ret = -1;

	if (!d)
		return -1;
	if (!(tag = mc_cstr(&c, "header_page tag")) || strcmp(tag, "header_page")) {
		sr_error_set(err, EINVAL, "corrupted: no header_page in the section at offset %"
			     PRIu64, off);
		goto out;
	}
	if (mc_u64(&c, &size, "header_page size") || !(p = mc_bytes(&c, size, "header_page")))
		goto out;
	f->header_page = malloc(size + 1);
	if (!f->header_page) {
		sr_error_set(err, ENOMEM, "out of memory");
		goto out;
	}
	memcpy(f->header_page, p, size);
	f->header_page[size] = 0;
	f->header_page_len = size;
	ret = 0;
out:
	free(d);
	return ret;
}

static int v7_formats(struct tr_file *f, uint64_t off, bool ftrace, struct sr_error *err)
{
	const char *what = ftrace ? "ftrace formats section" : "event formats section";
	size_t len;
	uint8_t *d = v7_read_section(f, off, ftrace ? OPT_FTRACE_EVENTS : OPT_EVENT_FORMATS,
				     what, &len, err);
	struct mcur c = { .p = d, .len = len, .swap = f->swap, .what = what, .file_off = off,
			  .err = err };
	uint32_t nsys = 1;

	if (!d)
		return -1;
	/* the texts stay where they are; v6 blocks are not appended to after this */
	if (keep_blob(f, (char *)d, len, len, err)) {
		free(d);
		return -1;
	}
	if (!ftrace && mc_u32(&c, &nsys, "system count"))
		return -1;
	for (uint32_t s = 0; s < nsys; s++) {
		const char *system = "ftrace";
		uint32_t n;

		if (!ftrace && !(system = mc_cstr(&c, "system name")))
			return -1;
		if (mc_u32(&c, &n, "event count"))
			return -1;
		for (uint32_t i = 0; i < n; i++) {
			uint64_t size;
			const uint8_t *t;

			if (mc_u64(&c, &size, "format size") || !(t = mc_bytes(&c, size, "format")))
				return -1;
			if (add_format(f, system, (const char *)t, (size_t)size, true, err))
				return -1;
		}
	}
	return 0;
}

/*
 * trace-cmd writes v7 sections back to back from the end of the file header
 * to the end of the file (it finds its strings sections that way). Walking
 * them catches a file cut inside a section nothing else here reads. A
 * section id we do not know ends the walk: other writers may add data.
 */
static int v7_walk_sections(const struct tr_file *f, uint64_t off, struct sr_error *err)
{
	for (int n = 0; off < f->file_size; n++) {
		uint8_t h[16];
		uint16_t id;
		uint64_t size;

		if (f->file_size - off < sizeof(h)) {
			sr_error_set(err, EINVAL, "truncated: section %d at offset %" PRIu64
				     " has no complete header, the file ends at %" PRIu64, n, off,
				     f->file_size);
			return -1;
		}
		if (tr_file_pread(f, h, sizeof(h), off, "section header", err))
			return -1;
		id = tr_u16(h, f->swap);
		size = tr_u64(h + 8, f->swap);
		if (id > OPT_BUFFER_TEXT + 16)
			return 0;
		if (size > f->file_size - off - sizeof(h)) {
			sr_error_set(err, EINVAL, "truncated: section %d (id %u) at offset %" PRIu64
				     " claims %" PRIu64 " bytes, the file ends at %" PRIu64, n, id, off,
				     size, f->file_size);
			return -1;
		}
		off += sizeof(h) + size;
	}
	return 0;
}

static int v7_parse(struct tr_file *f, uint64_t off, struct sr_error *err)
{
	char name[32], version[64];
	struct fcur c = { .f = f, .off = off, .err = err };
	struct opt_ctx ctx = { 0 };
	uint64_t opt_off;

	if (fc_cstr(&c, name, sizeof(name), "compression name") ||
	    fc_cstr(&c, version, sizeof(version), "compression version") ||
	    fc_u64(&c, &opt_off, "options offset"))
		return -1;
	snprintf(f->compress_name, sizeof(f->compress_name), "%s", name);
	if (!strcmp(name, "none") || !name[0])
		f->compress = TR_COMPRESS_NONE;
	else if (!strcmp(name, "zstd")) {
		f->compress = TR_COMPRESS_ZSTD;
		f->zstd_dctx = ZSTD_createDCtx();
		if (!f->zstd_dctx) {
			sr_error_set(err, ENOMEM, "out of memory (zstd context)");
			return -1;
		}
	}
	else if (!strcmp(name, "zlib"))
		f->compress = TR_COMPRESS_ZLIB;
	else {
		sr_error_set(err, ENOTSUP, "unsupported compression '%s' (zstd, zlib and none are)",
			     name);
		return -1;
	}

	for (int n = 0; opt_off; n++) {
		size_t len;
		uint8_t *d;
		struct mcur m;

		if (n == TR_MAX_OPTION_SECTIONS) {
			sr_error_set(err, EINVAL, "corrupted: options sections form a loop (more "
				     "than %d, the next at offset %" PRIu64 ")", TR_MAX_OPTION_SECTIONS,
				     opt_off);
			return -1;
		}
		d = v7_read_section(f, opt_off, OPT_DONE, "options section", &len, err);
		if (!d)
			return -1;
		m = (struct mcur){ .p = d, .len = len, .swap = f->swap, .what = "options section",
				   .file_off = opt_off, .err = err };
		ctx.next_options = 0;
		for (;;) {
			uint16_t id;
			uint32_t size;
			const uint8_t *data;

			if (mc_u16(&m, &id, "option id") || mc_u32(&m, &size, "option size") ||
			    !(data = mc_bytes(&m, size, "option data")) ||
			    handle_option(f, &ctx, id, data, size, opt_off, err)) {
				free(d);
				return -1;
			}
			if (id == OPT_DONE)
				break;
		}
		free(d);
		opt_off = ctx.next_options;
	}
	if (!ctx.header_info) {
		sr_error_set(err, EINVAL, "corrupted: no HEADER_INFO option");
		return -1;
	}
	if (v7_walk_sections(f, c.off, err))
		return -1;
	if (v7_header_info(f, ctx.header_info, err))
		return -1;
	if (ctx.ftrace_events && v7_formats(f, ctx.ftrace_events, true, err))
		return -1;
	if (ctx.event_formats && v7_formats(f, ctx.event_formats, false, err))
		return -1;
	if (!f->cpus) {
		f->cpus_from = "trace.dat's highest CPU section + 1 (no CPUCOUNT option)";
		for (int i = 0; i < f->nr_buffers; i++)
			for (int j = 0; j < f->buffers[i].nr_cpus; j++)
				if (f->buffers[i].cpus[j].cpu + 1 > f->cpus)
					f->cpus = f->buffers[i].cpus[j].cpu + 1;
	}
	return 0;
}

/* ---- entry ---------------------------------------------------------------- */

/* Say what a file that is not a trace.dat looks like, for the error line. */
static void describe_non_trace(const uint8_t *h, size_t n, struct sr_error *err)
{
	const char *what = "unknown content";
	size_t lead = 0;

	while (lead < n && (h[lead] == ' ' || h[lead] == '\t' || h[lead] == '\n' || h[lead] == '\r'))
		lead++;
	if (n == 0)
		what = "the file is empty";
	else if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
		what = "gzip data (a SchedViz collection or other archive? unpack it first)";
	else if (n >= 4 && !memcmp(h, "PERF", 4))
		what = "a perf.data file (use `perf sched` or convert with trace-cmd)";
	else if (n >= 7 && (!memcmp(h, "version", 7) || !memcmp(h, "cpus=", 5)))
		what = "text of `trace-cmd report` without ftrace event lines in its first 64 lines";
	else if (lead < n && (h[lead] == '{' || h[lead] == '['))
		/* the capture's sidecar or a probe's results, given for the trace */
		what = "JSON (a capture sidecar? give the trace.dat; its sidecar TRACE.dat.json is "
		       "read from beside it)";
	else if (n >= 1 && h[0] == '#')
		what = "text with a '#' header but no ftrace event line in its first 64 lines";
	else {
		bool text = true;

		for (size_t i = 0; i < n; i++)
			if (h[i] < 0x09 || (h[i] > 0x0d && h[i] < 0x20 && h[i] != 0x1b))
				text = false;
		if (text)
			what = "a text file that is not ftrace text either";
	}
	sr_error_set(err, EINVAL, "not a trace.dat: %s", what);
}

/*
 * The ring-buffer page size as header_page describes it: the offset of its
 * "data" field plus its size (16 + 4080 on 64-bit kernels); 0 if the text
 * has no such field (libtraceevent rejects it later).
 */
static uint64_t header_page_size(const struct tr_file *f)
{
	const char *s = f->header_page, *end = s + f->header_page_len, *p;
	static const char key[] = "char data;";
	uint64_t off = 0, size = 0;

	for (p = s; p + sizeof(key) - 1 <= end; p++)
		if (!memcmp(p, key, sizeof(key) - 1))
			break;
	if (p + sizeof(key) - 1 > end)
		return 0;
	for (; p < end && *p != '\n'; p++) {
		uint64_t *v = NULL;

		if (end - p > 7 && !memcmp(p, "offset:", 7)) {
			v = &off;
			p += 7;
		} else if (end - p > 5 && !memcmp(p, "size:", 5)) {
			v = &size;
			p += 5;
		}
		for (; v && p < end && *p >= '0' && *p <= '9' && *v < (1ull << 40); p++)
			*v = *v * 10 + (uint64_t)(*p - '0');
	}
	return off && size ? off + size : 0;
}

struct region {
	uint64_t off, size;
	const struct tr_buffer_desc *b;
	int cpu;                       /* -1: the instance's options/flyrecord block */
};

static int region_cmp(const void *a, const void *b)
{
	const struct region *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * A CPU of a buffer with no data (size 0) whose CPUSTAT says events were
 * read from its ring buffer: the CPU's size (or offset) is damaged, and its
 * events would be missing at exit 0 (fuzz51: a v7 BUFFER option's CPU size
 * set to 0 dropped CPU 0's 12 550 events silently).  Each buffer is held to
 * its own CPUSTATs: the top level's come first, an instance's after
 * trace-cmd's "Buffer: NAME" marker (cpustat_marker()).  A file of several
 * buffers without markers cannot be told apart: not checked (buf52).
 */
static int check_empty_cpus(const struct tr_file *f, struct sr_error *err)
{
	int with_cpus = 0;

	for (int bi = 0; bi < f->nr_buffers; bi++)
		with_cpus += !f->buffers[bi].latency && f->buffers[bi].nr_cpus > 0;
	if (with_cpus > 1 && !f->nr_cpustat_bufs)
		return 0;
	for (int bi = 0; bi < f->nr_buffers; bi++) {
		const struct tr_buffer_desc *b = &f->buffers[bi];

		for (int i = 0; !b->latency && i < b->nr_cpus; i++) {
			if (b->cpus[i].size)
				continue;
			for (int k = 0; k < f->nr_cpustats; k++) {
				const struct tr_cpustat *st = &f->cpustats[k];
				const char *sb = st->buffer < 0 ? "" : f->cpustat_bufs[st->buffer];

				if (!st->has_cpu || st->cpu != b->cpus[i].cpu ||
				    st->read_events <= 0 || strcmp(sb, b->name))
					continue;
				sr_error_set(err, EINVAL, "corrupted: %s%s%sCPU %d has no data in the "
					     "file (its size is 0), but its CPUSTAT says %lld events were "
					     "read from its ring buffer (a damaged CPU size or offset)",
					     b->name[0] ? "buffer '" : "", b->name,
					     b->name[0] ? "' " : "", st->cpu, st->read_events);
				return -1;
			}
		}
	}
	return 0;
}

/*
 * v6: the CPU regions with data, in file order, tile the end of the file.
 * An instance's "options" / "flyrecord" block sits between them (trace-cmd
 * writes it where the buffer before it ends, and the instance's first CPU
 * data at the next page boundary: trace-cmd convert --file-version 6 of a
 * file of three buffers, buf52), so it is a region too, followed by up to a
 * page less one byte of padding.
 */
static int check_v6_tiling(const struct tr_file *f, struct sr_error *err)
{
	struct region *r;
	size_t n = 0, cap = 0;
	int ret = 0;

	for (int bi = 0; bi < f->nr_buffers; bi++)
		cap += f->buffers[bi].latency ? 0 : (size_t)f->buffers[bi].nr_cpus + 1;
	if (!cap)
		return 0;
	r = malloc(cap * sizeof(*r));
	if (!r) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	for (int bi = 0; bi < f->nr_buffers; bi++) {
		const struct tr_buffer_desc *b = &f->buffers[bi];

		if (b->latency)
			continue;
		for (int i = 0; i < b->nr_cpus; i++)
			if (b->cpus[i].size)
				r[n++] = (struct region){ b->cpus[i].offset, b->cpus[i].size, b,
							  b->cpus[i].cpu };
		if (b->v6_head_end > b->v6_head_off)
			r[n++] = (struct region){ b->v6_head_off, b->v6_head_end - b->v6_head_off,
						  b, -1 };
	}
	qsort(r, n, sizeof(*r), region_cmp);
	for (size_t i = 0; i < n; i++) {
		uint64_t end = r[i].off + r[i].size;
		uint64_t next = i + 1 < n ? r[i + 1].off : f->file_size;
		const char *bn = r[i].b->name;

		if (r[i].cpu < 0) {
			/* the block, then the instance's data from the next page on */
			if (next >= end && next - end < f->page_size)
				continue;
			sr_error_set(err, EINVAL, "corrupted: buffer '%s''s options and CPU table at "
				     "offset %" PRIu64 " end at %" PRIu64 ", but %s at %" PRIu64
				     " (v6 puts an instance's CPU data right after them, from the "
				     "next page on)", bn, r[i].off, end, i + 1 < n ?
				     "the next CPU's data starts" : "the file ends", next);
			ret = -1;
			break;
		}
		/* the last region past the end: a copy cut short, not a damaged offset */
		if (i + 1 == n && end > next && end >= r[i].off) {
			sr_error_set(err, EINVAL, "truncated: %s%s%sCPU %d data at offset %" PRIu64
				     " is %" PRIu64 " bytes and ends at %" PRIu64 ", but the file ends at %"
				     PRIu64 " (a copy cut short? copy the whole trace)",
				     bn[0] ? "buffer '" : "", bn, bn[0] ? "' " : "", r[i].cpu, r[i].off,
				     r[i].size, end, next);
			ret = -1;
			break;
		}
		if (end != next || end < r[i].off) {
			sr_error_set(err, EINVAL, "corrupted: %s%s%sCPU %d data at offset %" PRIu64
				     " is %" PRIu64 " bytes and ends at %" PRIu64 ", but %s at %" PRIu64
				     " (v6 CPU data is back to back up to the end of the file)",
				     bn[0] ? "buffer '" : "", bn, bn[0] ? "' " : "", r[i].cpu, r[i].off,
				     r[i].size, end, i + 1 < n ? "the next CPU's data starts" :
				     "the file ends", next);
			ret = -1;
			break;
		}
	}
	free(r);
	return ret;
}

/*
 * Page sizes and CPU data sizes, before any page is read. A page size that
 * is not the kernel's reads every page at the wrong place (12288 instead of
 * 4096: two pages of three skipped, silently), so it must be a power of two
 * of at least 4 KiB, and the file header's must be the one header_page
 * describes. Uncompressed CPU data is whole pages (the kernel's ring buffer
 * is read page by page). v6 writers put the CPU regions back to back up to
 * the end of the file: a gap or an overlap is a damaged offset or size
 * (a halved size read half of a CPU's pages, silently). Per buffer, at open:
 * nothing on the read path.
 */
static int check_pages(const struct tr_file *f, struct sr_error *err)
{
	uint64_t hp = header_page_size(f);

	if (hp && hp != f->page_size) {
		sr_error_set(err, EINVAL, "corrupted: page size %" PRIu32 " in the file header, "
			     "the page header (header_page) describes %" PRIu64 "-byte pages",
			     f->page_size, hp);
		return -1;
	}
	for (int bi = 0; bi < f->nr_buffers; bi++) {
		const struct tr_buffer_desc *b = &f->buffers[bi];
		uint32_t ps = b->page_size ? b->page_size : f->page_size;

		if (b->latency || !b->nr_cpus)
			continue;
		if (ps < 4096 || (ps & (ps - 1))) {
			sr_error_set(err, EINVAL, "corrupted: %s%s%s has a page size of %" PRIu32
				     " bytes (not a power of two of at least 4096)",
				     b->name[0] ? "buffer '" : "the top-level buffer",
				     b->name[0] ? b->name : "", b->name[0] ? "'" : "", ps);
			return -1;
		}
		if (b->compressed)
			continue;
		for (int i = 0; i < b->nr_cpus; i++) {
			const struct tr_cpu_desc *d = &b->cpus[i];

			if (d->size % ps) {
				sr_error_set(err, EINVAL, "corrupted: %s%s%sCPU %d data at offset %"
					     PRIu64 " is %" PRIu64 " bytes, not a whole number of %"
					     PRIu32 "-byte pages", b->name[0] ? "buffer '" : "",
					     b->name, b->name[0] ? "' " : "", d->cpu, d->offset, d->size,
					     ps);
				return -1;
			}
		}
	}
	if (check_empty_cpus(f, err))
		return -1;
	if (f->version != 6)
		return 0;
	return check_v6_tiling(f, err);
}

int tr_file_open(struct tr_file *f, const char *path, struct sr_error *err)
{
	uint8_t h[64];
	struct stat st;
	size_t n, vlen;
	char *end;
	long version;
	uint64_t off;

	memset(f, 0, sizeof(*f));
	f->path = path;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		sr_error_set(err, errno, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(f->fd, &st) || !S_ISREG(st.st_mode)) {
		sr_error_set(err, EINVAL, "%s: not a regular file", path);
		goto fail_noprefix;
	}
	f->file_size = (uint64_t)st.st_size;
	n = f->file_size < sizeof(h) ? (size_t)f->file_size : sizeof(h);
	if (tr_file_pread(f, h, n, 0, "file header", err))
		goto fail;
	if (n < sizeof(trace_magic) || memcmp(h, trace_magic, sizeof(trace_magic))) {
		describe_non_trace(h, n, err);
		goto fail;
	}
	vlen = strnlen((const char *)h + 10, n - 10);
	if (vlen == n - 10 || vlen > 8 || n < 10 + vlen + 1 + 6) {
		sr_error_set(err, EINVAL, "truncated or corrupted: file header is incomplete");
		goto fail;
	}
	version = strtol((const char *)h + 10, &end, 10);
	if (*end || (version != 6 && version != 7)) {
		sr_error_set(err, ENOTSUP, "unsupported trace.dat version '%s' (6 and 7 are read)",
			     (const char *)h + 10);
		goto fail;
	}
	f->version = (int)version;
	off = 10 + vlen + 1;
	f->big_endian = h[off] != 0;
	f->swap = f->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	f->user_long_size = h[off + 1];
	f->page_size = tr_u32(h + off + 2, f->swap);
	off += 6;
	if ((f->user_long_size != 4 && f->user_long_size != 8) || f->page_size < 64 ||
	    f->page_size > (64u << 20)) {
		sr_error_set(err, EINVAL, "corrupted: file header has long size %d, page size %u",
			     f->user_long_size, f->page_size);
		goto fail;
	}
	snprintf(f->compress_name, sizeof(f->compress_name), "none");
	if ((f->version == 6 ? v6_parse(f, off, err) : v7_parse(f, off, err)))
		goto fail;
	if (!f->header_page || !f->nr_buffers) {
		sr_error_set(err, EINVAL, "corrupted: no %s",
			     !f->header_page ? "header_page" : "trace data buffer");
		goto fail;
	}
	if (check_pages(f, err))
		goto fail;
	return 0;
fail:
	sr_error_prefix(err, "%s", path);
fail_noprefix:
	tr_file_release(f);
	return -1;
}

void tr_file_release(struct tr_file *f)
{
	if (!f)
		return;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	free(f->uname);
	free(f->tracer_version);
	free(f->clock);
	free(f->header_page);
	tr_file_drop_formats(f);
	for (int i = 0; i < f->nr_buffers; i++) {
		free(f->buffers[i].name);
		free(f->buffers[i].clock);
		free(f->buffers[i].cpus);
	}
	free(f->buffers);
	free(f->cpustats);
	for (int i = 0; i < f->nr_cpustat_bufs; i++)
		free(f->cpustat_bufs[i]);
	free(f->cpustat_bufs);
	ZSTD_freeDCtx(f->zstd_dctx);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

/* A clock the kernel prints as "sec.usec" (trace_clocks[].in_ns); NULL: unknown. */
static bool clock_in_ns(const char *clock)
{
	static const char *const ns[] = { "local", "global", "mono", "mono_raw", "boot", "tai",
					  "perf" };

	if (!clock)
		return true;
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		if (!strcmp(clock, ns[i]))
			return true;
	return false;
}

/*
 * "now ts: SEC.USEC" of one CPUSTAT text (tracing_stats_read(): "%5llu.%06lu"
 * for a nanosecond clock, a bare count otherwise) in ns, rounded up; -1 if the
 * text has no such line, 0 if the value is not "sec.usec".
 */
static int stat_now_ns(const char *text, uint64_t *ns)
{
	const char *p = strstr(text, "now ts:");
	unsigned long long sec, usec = 0;
	char *end;
	int digits = 0;

	if (!p)
		return -1;
	p += 7;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return 0;
	sec = strtoull(p, &end, 10);
	if (*end != '.' || sec > UINT64_MAX / 1000000000ull - 1)
		return 0;
	for (p = end + 1; *p >= '0' && *p <= '9' && digits < 6; p++, digits++)
		usec = usec * 10 + (unsigned long long)(*p - '0');
	if (digits != 6)
		return 0;
	*ns = sec * 1000000000ull + usec * 1000ull + 999;
	return 1;
}

uint64_t tr_file_cpu_ts_bound(const struct tr_file *f, const struct tr_buffer_desc *b, int cpu)
{
	uint64_t bound = 0;

	if (f->tsc_mult || !clock_in_ns(b && b->clock ? b->clock : f->clock))
		return 0;
	for (int i = 0; i < f->nr_cpustats; i++) {
		const struct tr_cpustat *st = &f->cpustats[i];

		if (!st->has_cpu || st->cpu != cpu)
			continue;
		if (st->now == 0)
			return 0;          /* a count, not "sec.usec": no bound */
		if (st->now > 0 && st->now_ns > bound)
			bound = st->now_ns;
	}
	return bound && bound <= UINT64_MAX - TR_TS_BOUND_SLACK_NS ? bound + TR_TS_BOUND_SLACK_NS : 0;
}
