// SPDX-License-Identifier: GPL-2.0
/*
 * Event formats: which id is which event, and where each decoded field sits.
 *
 * Every format text of the file is indexed by its "name:" and "ID:" lines
 * only; the field lines of the events we decode are read here when the text
 * has the shape every kernel writes (fast_fields()), else parsed by
 * libtraceevent, and their field offsets, sizes and __data_loc/__rel_loc
 * flags are resolved here once. The decoder then reads fields straight from
 * records.
 *
 * prev_state of sched_switch changed meaning across kernels (4.x had
 * TASK_STATE_MAX as the preemption bit and more letters; 4.14+ reports
 * TASK_REPORT_MAX = 0x100 for a preemption). Rather than a table per kernel,
 * the file's own print format is evaluated on synthetic records with one bit
 * set each (by trace_prev_state.c, else by libtraceevent), and the printed
 * letters classify the bits.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "trace_local.h"

struct ev_spec {
	const char *system;
	const char *name;
	const char *fields[TR_MAX_FIELDS];
	unsigned required;             /* bit i: fields[i] must exist */
};

/* Field order matches the SW_/WK_/... enums of trace_local.h. */
static const struct ev_spec specs[TRACE_EV_NR_TYPES] = {
	[TRACE_EV_SCHED_SWITCH] = { "sched", "sched_switch",
		{ "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid",
		  "next_prio" }, 0x7f },
	[TRACE_EV_SCHED_WAKING] = { "sched", "sched_waking",
		{ "comm", "pid", "prio", "target_cpu", "success" }, 0x03 },
	[TRACE_EV_SCHED_WAKEUP] = { "sched", "sched_wakeup",
		{ "comm", "pid", "prio", "target_cpu", "success" }, 0x03 },
	[TRACE_EV_SCHED_WAKEUP_NEW] = { "sched", "sched_wakeup_new",
		{ "comm", "pid", "prio", "target_cpu", "success" }, 0x03 },
	[TRACE_EV_SCHED_MIGRATE_TASK] = { "sched", "sched_migrate_task",
		{ "comm", "pid", "prio", "orig_cpu", "dest_cpu" }, 0x1b },
	[TRACE_EV_SCHED_PROCESS_FORK] = { "sched", "sched_process_fork",
		{ "parent_comm", "parent_pid", "child_comm", "child_pid" }, 0x0f },
	[TRACE_EV_SCHED_PROCESS_EXEC] = { "sched", "sched_process_exec",
		{ "filename", "pid", "old_pid" }, 0x02 },
	[TRACE_EV_SCHED_PROCESS_EXIT] = { "sched", "sched_process_exit",
		{ "comm", "pid", "prio", "group_dead" }, 0x03 },
	[TRACE_EV_SCHED_STAT_RUNTIME] = { "sched", "sched_stat_runtime",
		{ "comm", "pid", "runtime", "vruntime" }, 0x07 },
	[TRACE_EV_CGROUP_ATTACH_TASK] = { "cgroup", "cgroup_attach_task",
		{ "dst_root", "dst_level", "dst_id", "pid", "dst_path", "comm" }, 0x39 },
	/*
	 * kernel/trace/trace_syscalls.c: the arguments of SYSCALL_DEFINE3(read,
	 * ...) and (write, ...) as unsigned longs after an int __syscall_nr
	 * ("nr" before 4.x); the exit's long ret
	 */
	[TRACE_EV_SYS_ENTER_READ] = { "syscalls", "sys_enter_read", { "fd", "count" }, 0x03 },
	[TRACE_EV_SYS_EXIT_READ] = { "syscalls", "sys_exit_read", { "ret" }, 0x01 },
	[TRACE_EV_SYS_ENTER_WRITE] = { "syscalls", "sys_enter_write", { "fd", "count" }, 0x03 },
	[TRACE_EV_SYS_EXIT_WRITE] = { "syscalls", "sys_exit_write", { "ret" }, 0x01 },
	/* include/trace/events/sched.h since 2.6.x; comm __data_loc since 6.8 */
	[TRACE_EV_SCHED_PI_SETPRIO] = { "sched", "sched_pi_setprio",
		{ "comm", "pid", "oldprio", "newprio" }, 0x0f },
	/* SYSCALL_DEFINE3(sched_setaffinity, pid_t pid, unsigned int len, ...) */
	[TRACE_EV_SYS_ENTER_SCHED_SETAFFINITY] = { "syscalls", "sys_enter_sched_setaffinity",
		{ "pid", "len" }, 0x03 },
	[TRACE_EV_SYS_EXIT_SCHED_SETAFFINITY] = { "syscalls", "sys_exit_sched_setaffinity",
		{ "ret" }, 0x01 },
};

/*
 * First @n-byte @needle in @len bytes of @s, as memmem(). Both are near the
 * start of a format ("name: ...\nID: ..."): a plain scan finds them before
 * memmem() has finished setting up, which mattered over 2,300 formats.
 */
static const char *find(const char *s, size_t len, const char *needle, size_t n)
{
	for (size_t i = 0; i + n <= len; i++)
		if (s[i] == needle[0] && !memcmp(s + i, needle, n))
			return s + i;
	return NULL;
}

/*
 * "name: sched_switch\nID: 316\n..." -> name, id; 0 on success. The text is
 * @len bytes with no NUL after them: every scan is bounded by @len.
 */
int tr_format_scan(const char *text, size_t len, const char **name, size_t *name_len, long *id)
{
	const char *end = text + len;
	const char *p = find(text, len, "name:", 5);
	const char *q = find(text, len, "ID:", 3);
	long v = 0;
	int digits = 0;

	if (!p || !q)
		return -1;
	p += 5;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	*name = p;
	while (p < end && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' && *p)
		p++;
	*name_len = (size_t)(p - *name);
	/* as strtol(q + 3, .., 10): blanks, an optional sign, then digits */
	q += 3;
	while (q < end && (*q == ' ' || (*q >= '\t' && *q <= '\r')))
		q++;
	if (q < end && *q == '+')
		q++;
	for (; q < end && *q >= '0' && *q <= '9' && v <= 65535; q++, digits++)
		v = v * 10 + (*q - '0');
	if (!digits || v > 65535 || !*name_len)
		return -1;
	*id = v;
	return 0;
}

const char *tr_field_name(enum trace_event_type t, int i)
{
	return (unsigned)t < TRACE_EV_NR_TYPES && i >= 0 && i < TR_MAX_FIELDS ? specs[t].fields[i] :
		NULL;
}

bool tr_format_decoded(const char *system, const char *name, size_t name_len)
{
	for (int t = 1; t < TRACE_EV_NR_TYPES; t++)
		if (specs[t].name[0] == name[0] && strlen(specs[t].name) == name_len &&
		    !memcmp(specs[t].name, name, name_len) && !strcmp(specs[t].system, system))
			return true;
	return false;
}

/* @flags: TR_F_DYNAMIC, TR_F_RELATIVE, TR_F_SIGNED as the format says */
static int resolve(long offset, long size, uint8_t flags, struct tr_field *out)
{
	if (offset < 0 || size <= 0 || offset > 65535 || size > 65535)
		return -1;
	out->offset = (uint16_t)offset;
	out->size = (uint16_t)size;
	out->flags = TR_F_PRESENT | flags;
	/* numbers are 1..8 bytes; strings are arrays or 4-byte locators */
	if ((out->flags & TR_F_DYNAMIC) && out->size != 4)
		return -1;
	return 0;
}

static int resolve_field(struct tep_format_field *tf, struct tr_field *out)
{
	uint8_t flags = 0;

	if (!tf)
		return -1;
	if (tf->flags & TEP_FIELD_IS_DYNAMIC)
		flags |= TR_F_DYNAMIC;
	if (tf->flags & TEP_FIELD_IS_RELATIVE)
		flags |= TR_F_RELATIVE;
	if (tf->flags & TEP_FIELD_IS_SIGNED)
		flags |= TR_F_SIGNED;
	return resolve(tf->offset, tf->size, flags, out);
}

static void put_number(uint8_t *rec, const struct tr_field *f, uint64_t v, bool big)
{
	for (unsigned i = 0; i < f->size && i < 8; i++) {
		unsigned shift = big ? 8 * (f->size - 1 - i) : 8 * i;

		rec[f->offset + i] = (uint8_t)(shift < 64 ? v >> shift : 0);
	}
}

/*
 * What @line (the print format's output) says of prev_state ("S", "R+",
 * ...), in @out: 0, or -1 if it says nothing usable.
 */
static int letters_of(const char *line, char *out, size_t outlen)
{
	const char *p = line ? strstr(line, "prev_state=") : NULL;
	size_t n;

	if (!p) {
		/* older plugin-style output: "prev_comm:pid [prio] S ==>" */
		p = line ? strstr(line, "] ") : NULL;
		if (!p || !strstr(p, "==>"))
			return -1;
		p += 2;
	} else {
		p += strlen("prev_state=");
	}
	n = strcspn(p, " ");
	if (n == 0 || n >= outlen)
		return -1;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

/* How prev_state = @value prints: letters_of() its line, or -2 (cannot tell). */
typedef int (*state_printer)(struct tr_formats *fm, bool big, uint64_t value, char *out,
			     size_t outlen);

/* ... by libtraceevent: sched_switch's print format on a synthetic record */
static int print_prev_state(struct tr_formats *fm, bool big, uint64_t value, char *out,
			    size_t outlen)
{
	const struct tr_event_layout *l = &fm->ev[TRACE_EV_SCHED_SWITCH];
	uint8_t rec[512];
	struct tep_record r;
	struct trace_seq s;
	int ret;

	if (!tep_find_event(fm->tep, l->id))
		return -1;
	memset(rec, 0, sizeof(rec));
	put_number(rec, &fm->common_type, l->id, big);
	put_number(rec, &l->f[SW_PREV_STATE], value, big);
	memset(&r, 0, sizeof(r));
	r.data = rec;
	r.size = (int)l->min_size;
	r.record_size = r.size;
	trace_seq_init(&s);
	tep_print_event(fm->tep, &s, &r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	ret = letters_of(s.buffer, out, outlen);
	trace_seq_destroy(&s);
	return ret;
}

/* ... by trace_prev_state.c (the record is zero but for prev_state there too) */
static int print_prev_state_fast(struct tr_formats *fm, bool big, uint64_t value, char *out,
				 size_t outlen)
{
	char line[1024];

	(void)big;
	/*
	 * libtraceevent reads 4 and 8 bytes as numbers (others as 0, and it may
	 * sign-extend a narrow field whose top bit is set)
	 */
	if ((fm->ev[TRACE_EV_SCHED_SWITCH].f[SW_PREV_STATE].size != 4 &&
	     fm->ev[TRACE_EV_SCHED_SWITCH].f[SW_PREV_STATE].size != 8) ||
	    tr_pstate_print(fm->pstate, value, line, sizeof(line)))
		return -2;
	return letters_of(line, out, outlen);
}

/*
 * Each bit of prev_state printed alone: "+" is a preemption, "R" a bit the
 * format masks out, X, Z or x a dead task, other letters a sleep. Nothing
 * usable keeps the 4.14+ defaults. 0, or -2 if @print cannot tell.
 */
static int classify_prev_state(struct tr_formats *fm, bool big, state_printer print)
{
	const struct tr_event_layout *l = &fm->ev[TRACE_EV_SCHED_SWITCH];
	uint64_t preempt = 0, sleep = 0, dead = 0;
	char letters[64];
	unsigned bits = l->f[SW_PREV_STATE].size * 8;
	int ret;

	/* 4.14+ defaults: S D T t X Z P I, and TASK_REPORT_MAX = 0x100 ("R+") */
	fm->state_preempt_mask = 0x100;
	fm->state_sleep_mask = 0x01 | 0x02 | 0x04 | 0x08 | 0x40 | 0x80;
	fm->state_dead_mask = 0x10 | 0x20;
	fm->state_from_print_fmt = false;
	fm->state_bad_mask = ~TRACE_STATE_UNION;
	fm->state_one_bit = false;
	if (l->min_size > 512)
		return 0;               /* the synthetic record's size */
	if ((ret = print(fm, big, 0, letters, sizeof(letters))) || strcmp(letters, "R"))
		return ret == -2 ? -2 : 0;
	if (bits > 24)
		bits = 24;              /* no kernel uses more; keeps the loop short */
	for (unsigned b = 0; b < bits; b++) {
		uint64_t bit = 1ULL << b;

		if ((ret = print(fm, big, bit, letters, sizeof(letters))))
			return ret == -2 ? -2 : 0;
		if (strchr(letters, '+'))
			preempt |= bit;
		else if (!strcmp(letters, "R"))
			continue;       /* masked out by the print format */
		else if (strpbrk(letters, "XZx"))
			dead |= bit;
		else
			sleep |= bit;
	}
	if (!preempt && !sleep)
		return 0;
	fm->state_preempt_mask = preempt;
	fm->state_sleep_mask = sleep;
	fm->state_dead_mask = dead;
	fm->state_from_print_fmt = true;
	fm->state_bad_mask = ~(preempt | sleep | dead);
	fm->state_one_bit = preempt == 0x100;
	return 0;
}

/* mask, sext and load sizes for the decoder's 8-byte loads */
static void finish_field(struct tr_field *f, uint32_t *load_size)
{
	unsigned bytes = f->size;

	f->mask = 0;
	f->sext = 0;
	if (!(f->flags & TR_F_PRESENT) ||
	    (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8))
		return;
	f->mask = bytes == 8 ? UINT64_MAX : (1ull << (8 * bytes)) - 1;
	f->sext = (uint8_t)(64 - 8 * bytes);
	if ((uint32_t)f->offset + 8 > *load_size)
		*load_size = (uint32_t)f->offset + 8;
}

static bool is_at(const struct tr_field *f, unsigned offset, unsigned size)
{
	return (f->flags & TR_F_PRESENT) && f->offset == offset && f->size == size;
}

static void finish_fields(struct tr_formats *fm)
{
	fm->common_load_size = 0;
	finish_field(&fm->common_type, &fm->common_load_size);
	finish_field(&fm->common_flags, &fm->common_load_size);
	finish_field(&fm->common_preempt_count, &fm->common_load_size);
	finish_field(&fm->common_pid, &fm->common_load_size);
	for (int t = 0; t < TRACE_EV_NR_TYPES; t++) {
		fm->ev[t].load_size = fm->common_load_size;
		for (int i = 0; i < TR_MAX_FIELDS; i++)
			finish_field(&fm->ev[t].f[i], &fm->ev[t].load_size);
	}
	fm->std_common = is_at(&fm->common_type, 0, 2) && is_at(&fm->common_flags, 2, 1) &&
		is_at(&fm->common_preempt_count, 3, 1) && is_at(&fm->common_pid, 4, 4);
}

/*
 * @t's fields resolved in fm->ev[t].f (absent or unusable ones zero): the
 * bytes they span, or -1 with @missing = the name of a required field
 * absent or unusable.
 */
static int finish_layout(struct tr_formats *fm, enum trace_event_type t, const char **missing)
{
	struct tr_event_layout *l = &fm->ev[t];
	const struct ev_spec *sp = &specs[t];

	l->min_size = 0;
	for (int i = 0; i < TR_MAX_FIELDS && sp->fields[i]; i++) {
		if (!(l->f[i].flags & TR_F_PRESENT)) {
			if (sp->required & (1u << i)) {
				*missing = sp->fields[i];
				return -1;
			}
			continue;
		}
		if ((uint32_t)l->f[i].offset + l->f[i].size > l->min_size)
			l->min_size = (uint32_t)l->f[i].offset + l->f[i].size;
	}
	return 0;
}

/* -1 with @missing = the name of a required field absent or unusable */
static int load_layout(struct tr_formats *fm, enum trace_event_type t, struct tep_event *ev,
		       const char **missing)
{
	struct tr_event_layout *l = &fm->ev[t];
	const struct ev_spec *sp = &specs[t];

	memset(l->f, 0, sizeof(l->f));
	for (int i = 0; i < TR_MAX_FIELDS && sp->fields[i]; i++)
		if (resolve_field(tep_find_field(ev, sp->fields[i]), &l->f[i]))
			memset(&l->f[i], 0, sizeof(l->f[i]));
	return finish_layout(fm, t, missing);
}

static int load_common(struct tr_formats *fm, struct tep_event *ev)
{
	if (resolve_field(tep_find_common_field(ev, "common_type"), &fm->common_type) ||
	    resolve_field(tep_find_common_field(ev, "common_pid"), &fm->common_pid))
		return -1;
	/* flags and preempt_count are absent from some very old kernels */
	if (resolve_field(tep_find_common_field(ev, "common_flags"), &fm->common_flags))
		memset(&fm->common_flags, 0, sizeof(fm->common_flags));
	if (resolve_field(tep_find_common_field(ev, "common_preempt_count"),
			  &fm->common_preempt_count))
		memset(&fm->common_preempt_count, 0, sizeof(fm->common_preempt_count));
	return 0;
}

/*
 * Is @name (@n bytes) one of the "field:TYPE NAME;" or "field:TYPE NAME[N];"
 * lines in the first @len bytes of a format text?
 */
static bool has_field(const char *text, size_t len, const char *name, size_t n)
{
	const char *end = text + len, *p = text;

	while ((p = find(p, (size_t)(end - p), "field:", 6))) {
		const char *semi, *e;

		p += 6;
		semi = memchr(p, ';', (size_t)(end - p));
		if (!semi)
			break;
		e = memchr(p, '[', (size_t)(semi - p));
		if (!e)
			e = semi;
		while (e > p && e[-1] == ' ')
			e--;
		if ((size_t)(e - p) >= n && !memcmp(e - n, name, n) &&
		    (e - n == p || *(e - n - 1) == ' ' || *(e - n - 1) == '*'))
			return true;
		p = semi;
	}
	return false;
}

/*
 * The first "REC->x" of the print format naming no field of the format, in
 * @bad (@bad_len bytes); false if there is none. libtraceevent 1.7.1's
 * tep_parse_event() dereferences the NULL field of such a name (SEGV on a
 * damaged sched_switch), in our parse and in libtracecmd's of every format.
 */
static bool print_fmt_bad_field(const char *text, size_t len, const char *pf,
				const char **bad, size_t *bad_len)
{
	const char *end = text + len, *p = pf;

	while ((p = find(p, (size_t)(end - p), "REC->", 5))) {
		const char *q = p + 5;

		while (q < end && (*q == '_' || (*q >= 'a' && *q <= 'z') ||
				   (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9')))
			q++;
		if (!has_field(text, (size_t)(pf - text), p + 5, (size_t)(q - p - 5))) {
			*bad = p + 5;
			*bad_len = (size_t)(q - p - 5);
			return true;
		}
		p = q;
	}
	return false;
}

/* ---- the fields of a format text, read without libtraceevent ----------- */

/*
 * libtraceevent's tep_parse_event() tokenizes a format byte by byte into
 * malloc()ed tokens: ~150 k instructions per decoded format even with its
 * print format emptied, 1.4 M of the 1 s report's 34 M for nine formats.
 * The decoder needs only each field's name, offset, size, signedness and
 * __data_loc/__rel_loc flag, so formats of the shape every kernel writes
 *
 *   name: NAME\n ID: N\n format:\n
 *   \tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:0|1;\n ...   (common fields)
 *   \n
 *   \tfield:... \n ...                                          (the event's)
 *   \n
 *   print fmt: ...
 *
 * are read here; a text that strays from that shape in any way (other
 * spacing inside a keyword, octal or hex numbers, attributes, a second
 * bracket group, no "signed:" is fine) goes to libtraceevent as before, so
 * everything accepted here is accepted by libtraceevent with the same
 * fields (tests/reader/test_formats.c compares the two on every trace), and
 * damaged texts keep libtraceevent's verdict and message. The rules mirror
 * libtraceevent 1.7's event_read_fields(): the name is the last word before
 * ';' or '[' (or the word after "[]" in "__data_loc char[] NAME"), the
 * type the words before it; __data_loc / __rel_loc as the type's first word
 * make a field dynamic / relative; signed:N non-zero makes it signed.
 */
struct fmt_cursor {
	const char *p, *end;
};

static void skip_blanks(struct fmt_cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static bool take(struct fmt_cursor *c, const char *lit, size_t n)
{
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n))
		return false;
	c->p += n;
	return true;
}

#define TAKE(c, lit) take(c, lit, sizeof(lit) - 1)

static bool is_word(char ch)
{
	return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9');
}

/*
 * A decimal number as strtoul(.., 0) reads it: no leading zero (octal) and
 * at most 9 digits (libtraceevent keeps offsets and sizes in an int); the
 * next byte must not continue the word (libtraceevent's token would).
 */
static bool take_number(struct fmt_cursor *c, long *v)
{
	const char *s = c->p;
	long x = 0;

	while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && c->p - s < 10)
		x = x * 10 + (*c->p++ - '0');
	if (c->p == s || c->p - s > 9 || (*s == '0' && c->p - s > 1) ||
	    (c->p < c->end && is_word(*c->p)))
		return false;
	*v = x;
	return true;
}

struct fmt_decl {
	const char *name;
	size_t name_len;
	uint8_t flags;                 /* TR_F_DYNAMIC, TR_F_RELATIVE */
	bool array;                    /* NAME[N] or TYPE[] NAME */
};

/*
 * "TYPE NAME", "TYPE NAME[N]" or "TYPE[] NAME" up to (not including) the
 * ';' at @semi: words of [A-Za-z0-9_], '*', blanks and one bracket group.
 */
static bool parse_decl(const char *s, const char *semi, struct fmt_decl *d)
{
	const char *words[32], *ends[32];
	int n = 0, before_bracket = -1;
	const char *p = s;

	while (p < semi) {
		if (*p == ' ' || *p == '\t') {
			p++;
		} else if (*p == '*') {
			if (n == 32)
				return false;
			words[n] = p;
			ends[n++] = ++p;
		} else if (is_word(*p)) {
			if (n == 32)
				return false;
			words[n] = p;
			while (p < semi && is_word(*p))
				p++;
			ends[n++] = p;
		} else if (*p == '[' && before_bracket < 0) {
			before_bracket = n;
			p++;
			while (p < semi && is_word(*p))
				p++;
			if (p == semi || *p != ']')
				return false;
			p++;
		} else {
			return false;
		}
	}
	/* the first word is a type word, never '*'; NAME is a word */
	if (n < 2 || *words[0] == '*')
		return false;
	if (before_bracket < 0 || before_bracket == n) {
		d->name = words[n - 1];                   /* TYPE NAME or TYPE NAME[N] */
	} else if (before_bracket == n - 1 && before_bracket >= 2 &&
		   *words[n - 2] != '*') {
		d->name = words[n - 1];                   /* TYPE WORD[] NAME */
	} else {
		return false;
	}
	if (*d->name == '*' || (d->name[0] >= '0' && d->name[0] <= '9'))
		return false;
	d->name_len = (size_t)(ends[n - 1] - d->name);
	d->array = before_bracket >= 0;
	d->flags = 0;
	if (ends[0] - words[0] >= 10 && !memcmp(words[0], "__data_loc", 10))
		d->flags = TR_F_DYNAMIC;
	else if (ends[0] - words[0] >= 9 && !memcmp(words[0], "__rel_loc", 9))
		d->flags = TR_F_DYNAMIC | TR_F_RELATIVE;
	return true;
}

/* The fields a fast parse looks for, and what it found (first of each name). */
struct fmt_want {
	const char *const *names;
	int nr;
	struct tr_field *out;          /* [nr] */
	unsigned found;                /* bit i: names[i] seen */
	unsigned bad;                  /* bit i: its first occurrence is unusable */
	unsigned arrays;               /* bit i: its first occurrence is an array */
};

/* " N ; " after an attribute's key ("offset:", "size:", "signed:") */
static bool take_attr_value(struct fmt_cursor *c, long *v)
{
	skip_blanks(c);
	if (!take_number(c, v))
		return false;
	skip_blanks(c);
	if (!TAKE(c, ";"))
		return false;
	skip_blanks(c);
	return true;
}

/*
 * One block of field lines up to and including its blank line. false: the
 * text is not of the common shape (libtraceevent decides).
 */
static bool parse_block(struct fmt_cursor *c, struct fmt_want *w)
{
	for (;;) {
		struct fmt_decl d;
		const char *semi;
		long offset, size, sign = 0;

		skip_blanks(c);
		if (c->p < c->end && *c->p == '\n') {
			c->p++;
			return true;
		}
		if (!TAKE(c, "field:"))
			return false;
		semi = memchr(c->p, ';', (size_t)(c->end - c->p));
		if (!semi || !parse_decl(c->p, semi, &d))
			return false;
		c->p = semi + 1;
		skip_blanks(c);
		if (!TAKE(c, "offset:") || !take_attr_value(c, &offset) ||
		    !TAKE(c, "size:") || !take_attr_value(c, &size) ||
		    (TAKE(c, "signed:") && (!take_attr_value(c, &sign) || sign > 1)) ||
		    !TAKE(c, "\n"))
			return false;
		for (int i = 0; i < w->nr; i++) {
			if ((w->found & (1u << i)) || strlen(w->names[i]) != d.name_len ||
			    memcmp(w->names[i], d.name, d.name_len))
				continue;
			w->found |= 1u << i;
			if (d.array)
				w->arrays |= 1u << i;
			if (resolve(offset, size, (uint8_t)(d.flags | (sign ? TR_F_SIGNED : 0)),
				    &w->out[i]))
				w->bad |= 1u << i;
			break;
		}
	}
}

static const char *const common_names[] = {
	"common_type", "common_flags", "common_preempt_count", "common_pid",
};

/*
 * The common fields (common[4], in common_names' order) and @t's fields
 * (@l->f) of @ft, when its text is of the kernel's shape (above); false
 * when it is not, and libtraceevent is to parse it. Absent or unusable
 * fields are left zero, as resolve_field() leaves them.
 */
static bool fast_fields(const struct tr_format_text *ft, const char *pf, enum trace_event_type t,
			struct tr_field common[4], struct tr_event_layout *l, unsigned *arrays)
{
	struct fmt_cursor c = { ft->text, pf };
	struct fmt_want cw = { common_names, 4, common, 0, 0, 0 };
	struct fmt_want ew = { specs[t].fields, 0, l->f, 0, 0, 0 };
	long id;

	while (ew.nr < TR_MAX_FIELDS && specs[t].fields[ew.nr])
		ew.nr++;
	memset(common, 0, 4 * sizeof(*common));
	memset(l->f, 0, sizeof(l->f));
	if (!TAKE(&c, "name:"))
		return false;
	skip_blanks(&c);
	if (!take(&c, ft->name, ft->name_len) || (c.p < c.end && is_word(*c.p)))
		return false;
	skip_blanks(&c);
	if (!TAKE(&c, "\nID:"))
		return false;
	skip_blanks(&c);
	if (!take_number(&c, &id) || id != ft->id)
		return false;
	skip_blanks(&c);
	if (!TAKE(&c, "\nformat:"))
		return false;
	skip_blanks(&c);
	if (!TAKE(&c, "\n") || !parse_block(&c, &cw) || !parse_block(&c, &ew))
		return false;
	while (c.p < c.end && (*c.p == ' ' || *c.p == '\t' || *c.p == '\n'))
		c.p++;
	if (c.p != pf)
		return false;
	for (int i = 0; i < 4; i++)
		if (cw.bad & (1u << i))
			memset(&common[i], 0, sizeof(common[i]));
	for (int i = 0; i < ew.nr; i++)
		if (ew.bad & (1u << i))
			memset(&l->f[i], 0, sizeof(l->f[i]));
	*arrays = ew.arrays;
	return true;
}

/*
 * What every decoded event's format must pass, however it is parsed: no NUL
 * byte, a print format, and no REC->x in it naming no field. 0 with @pf =
 * its "print fmt:", or -1 with err.
 */
static int check_format(const struct tr_format_text *ft, enum trace_event_type t,
			const char **pf_out, struct sr_error *err)
{
	const char *pf = find(ft->text, ft->len, "print fmt:", 10);
	const char *bad;
	size_t bad_len;

	if (memchr(ft->text, '\0', ft->len)) {
		sr_error_set(err, EINVAL, "corrupted event format %s:%s (id %ld): a NUL byte at "
			     "offset %zu of its text", ft->system, specs[t].name, ft->id,
			     (size_t)((const char *)memchr(ft->text, '\0', ft->len) - ft->text));
		return -1;
	}
	if (!pf) {
		sr_error_set(err, EINVAL, "corrupted event format %s:%s (id %ld): no print fmt "
			     "line", ft->system, specs[t].name, ft->id);
		return -1;
	}
	if (print_fmt_bad_field(ft->text, ft->len, pf, &bad, &bad_len)) {
		sr_error_set(err, EINVAL, "corrupted event format %s:%s (id %ld): its print fmt "
			     "uses REC->%.*s, which is no field of the format", ft->system,
			     specs[t].name, ft->id, (int)(bad_len > 64 ? 64 : bad_len), bad);
		return -1;
	}
	*pf_out = pf;
	return 0;
}

/*
 * A tep handle set up for @f (byte orders, long and page size, CPUs) with
 * its ring-buffer page header parsed (@header_ok false if that failed or
 * is pre-2.6.31's); NULL if out of memory.
 */
static struct tep_handle *file_tep(const struct tr_file *f, bool *header_ok)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, f->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, f->user_long_size);
	tep_set_page_size(tep, (int)f->page_size);
	tep_set_cpus(tep, f->cpus);
	*header_ok = !tep_parse_header_page(tep, f->header_page, f->header_page_len,
					    f->user_long_size) && !tep_is_old_format(tep);
	return tep;
}

/*
 * Parse one decoded event's format with libtraceevent (@pf: its "print
 * fmt:"). Only sched_switch's print format is used (classify_prev_state());
 * the others get an empty one, which keeps libtraceevent's print-format
 * parser (the crash surface on damaged texts) away from them. 0, or -1
 * with err.
 */
static int parse_format(struct tr_formats *fm, const struct tr_file *f,
			const struct tr_format_text *ft, enum trace_event_type t, const char *pf,
			struct sr_error *err)
{
	static const char empty_pf[] = "print fmt: \"\"\n";
	size_t head = (size_t)(pf - ft->text);
	struct tep_handle *tep = t == TRACE_EV_SCHED_SWITCH ? NULL : fm->tep_others;
	const char *end = ft->text + ft->len, *p = pf, *bad = NULL;
	struct tep_event *ev;
	char *copy;
	bool header_ok;
	int ret;

	/*
	 * The fields alone first, with an empty print format: sched_switch's
	 * into a scratch handle, the others into tep_others for good
	 */
	if (!tep)
		tep = file_tep(f, &header_ok);
	if (t != TRACE_EV_SCHED_SWITCH)
		fm->tep_others = tep;
	copy = malloc(head + sizeof(empty_pf));
	if (!copy || !tep) {
		free(copy);
		if (tep && t == TRACE_EV_SCHED_SWITCH)
			tep_free(tep);
		sr_error_set(err, ENOMEM, "out of memory loading event formats");
		return -1;
	}
	memcpy(copy, ft->text, head);
	memcpy(copy + head, empty_pf, sizeof(empty_pf));
	ret = tep_parse_event(tep, copy, head + sizeof(empty_pf) - 1, ft->system);
	free(copy);
	/*
	 * libtraceevent 1.7 dereferences the field of each REC->x in a
	 * __print_flags() as it read the fields: one its reading lost (a field
	 * line "char prev_comm[16;" swallows the lines after it) crashed the
	 * parse of sched_switch's print format. Every REC->x must be a field it
	 * read.
	 */
	if (!ret && t == TRACE_EV_SCHED_SWITCH) {
		ev = tep_find_event(tep, (int)ft->id);
		while (ev && (p = find(p, (size_t)(end - p), "REC->", 5))) {
			char name[128];
			size_t n = 0;

			p += 5;
			while (p + n < end && n < sizeof(name) - 1 &&
			       (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') ||
				(p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= '0' && p[n] <= '9'))) {
				name[n] = p[n];
				n++;
			}
			name[n] = '\0';
			if (!tep_find_any_field(ev, name)) {
				bad = p;
				break;
			}
		}
		tep_free(tep);
		if (!ev) {
			sr_error_set(err, EINVAL, "corrupted event format %s:%s (id %ld): libtraceevent "
				     "did not keep it", ft->system, specs[t].name, ft->id);
			return -1;
		}
		if (bad) {
			size_t n = 0;

			while (bad + n < end && n < 64 && bad[n] != ',' && bad[n] != ' ' &&
			       bad[n] != ')' && bad[n] != '\n')
				n++;
			sr_error_set(err, EINVAL, "corrupted event format %s:%s (id %ld): its print "
				     "fmt uses REC->%.*s, which is no field libtraceevent read",
				     ft->system, specs[t].name, ft->id, (int)n, bad);
			return -1;
		}
		ret = tep_parse_event(fm->tep, ft->text, ft->len, ft->system);
	} else if (t == TRACE_EV_SCHED_SWITCH) {
		tep_free(tep);
	}
	if (ret) {
		sr_error_set(err, EINVAL, "corrupted event format %s:%s (id %ld): libtraceevent "
			     "cannot parse it", ft->system, specs[t].name, ft->id);
		return -1;
	}
	return 0;
}

/*
 * A decoded event whose format is in the file but unusable is an error, not
 * "other": its records would silently drop out (a damaged sched_waking made
 * latencies start at sched_wakeup, p50 25 -> 1.4 us, exit 0). An event the
 * kernel does not have at all (no sched_waking before 4.3) stays tolerated
 * and reported by the consumers.
 */
static void unusable(struct sr_error *err, const char *system, enum trace_event_type t, long id,
		     const char *why, const char *field)
{
	sr_error_set(err, EINVAL, "corrupted event format %s:%s (id %ld): %s%s%s: its records "
		     "cannot be decoded", system, specs[t].name, id, why, field ? " " : "",
		     field ? field : "");
}

/* The common header every ftrace event has had since 2.6.x (common_type, flags,
 * preempt_count, pid), for files whose decoded events give no layout of it. */
static void default_common_header(struct tr_formats *fm)
{
	fm->common_type = (struct tr_field){ .offset = 0, .size = 2, .flags = TR_F_PRESENT };
	fm->common_flags = (struct tr_field){ .offset = 2, .size = 1, .flags = TR_F_PRESENT };
	fm->common_preempt_count = (struct tr_field){ .offset = 3, .size = 1, .flags = TR_F_PRESENT };
	fm->common_pid =
		(struct tr_field){ .offset = 4, .size = 4, .flags = TR_F_PRESENT | TR_F_SIGNED };
}

/*
 * Both loaders' last step, every decoded event's layout in: the common
 * header (the standard one if no event was decoded), of a common_type of 2
 * or 4 bytes, then every field's load (finish_fields()).
 */
static int finish_common(struct tr_formats *fm, bool have_common, struct sr_error *err)
{
	if (!have_common)   /* no decoded event: still count events with the standard header */
		default_common_header(fm);
	if (fm->common_type.size != 2 && fm->common_type.size != 4) {
		sr_error_set(err, EINVAL, "unsupported common_type of %u bytes",
			     fm->common_type.size);
		return -1;
	}
	finish_fields(fm);
	return 0;
}

/* sched_switch read by the loader itself: its text, print fmt and common_type */
struct switch_fast {
	const struct tr_format_text *text;
	const char *pf;
	struct tr_field type;
};

/*
 * The decoded event @t's format @ft (id @id): its fields read here when the
 * format has the kernels' common shape (sched_switch: its prev_state print
 * format too), else through libtraceevent; the common fields from the first
 * event loaded (*@have_common).  -1 with @err set.
 */
static int load_event(struct tr_formats *fm, const struct tr_file *f,
		      const struct tr_format_text *ft, enum trace_event_type t, long id,
		      bool tep_only, bool *have_common, struct switch_fast *sw,
		      struct sr_error *err)
{
	struct tr_field common[4];
	struct tep_event *ev;
	const char *missing = NULL;
	const char *pf;
	unsigned arrays;

	if (fm->ev[t].present) {
		unusable(err, ft->system, t, id, "a second format of the event", NULL);
		return -1;
	}
	if (check_format(ft, t, &pf, err))
		return -1;
	/*
	 * sched_switch's print format classifies prev_state: read
	 * here too when it is of the kernels' shape, else the whole
	 * format goes to libtraceevent
	 */
	if (!tep_only &&
	    fast_fields(ft, pf, t, common, &fm->ev[t], &arrays) &&
	    (t != TRACE_EV_SCHED_SWITCH ||
	     (fm->pstate = tr_pstate_parse(pf, ft->text + ft->len, specs[t].fields,
					   fm->ev[t].f, arrays, SW_PREV_STATE)))) {
		if (t == TRACE_EV_SCHED_SWITCH) {
			sw->text = ft;
			sw->pf = pf;
			sw->type = common[0];
		}
		if (!*have_common) {
			if (!(common[0].flags & TR_F_PRESENT) ||
			    !(common[3].flags & TR_F_PRESENT)) {
				unusable(err, ft->system, t, id, "no usable field",
					 "common_type/common_pid");
				return -1;
			}
			/* flags and preempt_count may be absent (very old kernels) */
			fm->common_type = common[0];
			fm->common_flags = common[1];
			fm->common_preempt_count = common[2];
			fm->common_pid = common[3];
			*have_common = true;
		}
		if (finish_layout(fm, t, &missing)) {
			unusable(err, ft->system, t, id, "no usable field", missing);
			return -1;
		}
		goto decoded;
	}
	if (parse_format(fm, f, ft, t, pf, err))
		return -1;
	ev = tep_find_event(t == TRACE_EV_SCHED_SWITCH ? fm->tep : fm->tep_others, (int)id);
	if (!ev) {
		unusable(err, ft->system, t, id, "libtraceevent did not keep it", NULL);
		return -1;
	}
	if (!*have_common) {
		if (load_common(fm, ev)) {
			unusable(err, ft->system, t, id, "no usable field",
				 "common_type/common_pid");
			return -1;
		}
		*have_common = true;
	}
	if (load_layout(fm, t, ev, &missing)) {
		unusable(err, ft->system, t, id, "no usable field", missing);
		return -1;
	}
decoded:
	fm->ev[t].present = true;
	fm->ev[t].id = (uint16_t)id;
	fm->type_of_id[id] = (uint8_t)t;
	return 0;
}

int tr_formats_load(struct tr_formats *fm, const struct tr_file *f, bool tep_only,
		    struct sr_error *err)
{
	size_t names_len = 0, names_pos = 0;
	bool have_common = false, header_ok;
	struct switch_fast sw = { 0 };

	memset(fm, 0, sizeof(*fm));
	tep_set_loglevel(TEP_LOG_NONE);
	fm->tep = file_tep(f, &header_ok);
	if (!fm->tep)
		goto nomem;
	if (!header_ok) {
		sr_error_set(err, EINVAL, "unsupported ring-buffer page header (pre-2.6.31 kernel?)");
		return -1;
	}
	fm->kernel_long_size = tep_get_header_page_size(fm->tep);
	if ((fm->kernel_long_size != 4 && fm->kernel_long_size != 8) ||
	    tep_get_header_timestamp_size(fm->tep) != 8) {
		sr_error_set(err, EINVAL, "unsupported ring-buffer page header: commit %d bytes, "
			     "timestamp %d bytes", fm->kernel_long_size,
			     tep_get_header_timestamp_size(fm->tep));
		return -1;
	}

	/* pass 1: ids and names */
	for (size_t i = 0; i < f->nr_formats; i++) {
		const struct tr_format_text *ft = &f->formats[i];

		if (!ft->name)
			continue;
		if (ft->id > fm->max_id)
			fm->max_id = (uint16_t)ft->id;
		names_len += ft->name_len + 1;
	}
	fm->type_of_id = calloc((size_t)fm->max_id + 1, sizeof(*fm->type_of_id));
	fm->name_of_id = calloc((size_t)fm->max_id + 1, sizeof(*fm->name_of_id));
	fm->names = malloc(names_len ? names_len : 1);
	if (!fm->type_of_id || !fm->name_of_id || !fm->names)
		goto nomem;

	/* pass 2: names, and libtraceevent parsing of the decoded events */
	for (size_t i = 0; i < f->nr_formats; i++) {
		const struct tr_format_text *ft = &f->formats[i];
		const char *name = ft->name;
		size_t nl = ft->name_len;
		long id = ft->id;

		if (!name)
			continue;
		/*
		 * Two formats with one id: a damaged ID line (sched_process_exec's
		 * 365 read as 343 gave its records to another event, silently).
		 * The same name again is a repeated format, harmless.
		 */
		if (fm->name_of_id[id] && (strlen(fm->name_of_id[id]) != nl ||
					   memcmp(fm->name_of_id[id], name, nl))) {
			sr_error_set(err, EINVAL, "corrupted event formats: %s:%.*s and %s both have "
				     "id %ld", ft->system, (int)(nl > 64 ? 64 : nl), name,
				     fm->name_of_id[id], id);
			return -1;
		}
		memcpy(fm->names + names_pos, name, nl);
		fm->names[names_pos + nl] = '\0';
		fm->name_of_id[id] = fm->names + names_pos;
		names_pos += nl + 1;

		/* the container kept the texts of the decoded events only */
		for (int t = 1; ft->text && t < TRACE_EV_NR_TYPES; t++) {
			if (strcmp(ft->system, specs[t].system) || strlen(specs[t].name) != nl ||
			    memcmp(specs[t].name, name, nl))
				continue;
			if (load_event(fm, f, ft, (enum trace_event_type)t, id, tep_only, &have_common,
				       &sw, err))
				return -1;
			break;
		}
	}
	if (finish_common(fm, have_common, err))
		return -1;
	/*
	 * libtraceevent finds the synthetic record's event by sched_switch's
	 * own common_type: where that is not the loader's (a damaged format),
	 * it is libtraceevent's call
	 */
	if (fm->ev[TRACE_EV_SCHED_SWITCH].present && fm->pstate &&
	    (!(sw.type.flags & TR_F_PRESENT) ||
	     sw.type.offset != fm->common_type.offset ||
	     sw.type.size != fm->common_type.size ||
	     classify_prev_state(fm, f->big_endian, print_prev_state_fast) == -2)) {
		/* outside trace_prev_state.c's subset after all: libtraceevent prints */
		long id = fm->ev[TRACE_EV_SCHED_SWITCH].id;

		tr_pstate_free(fm->pstate);
		fm->pstate = NULL;
		if (parse_format(fm, f, sw.text, TRACE_EV_SCHED_SWITCH, sw.pf, err))
			return -1;
		if (!tep_find_event(fm->tep, (int)id)) {
			unusable(err, sw.text->system, TRACE_EV_SCHED_SWITCH, id,
				 "libtraceevent did not keep it", NULL);
			return -1;
		}
	}
	if (fm->ev[TRACE_EV_SCHED_SWITCH].present && !fm->pstate)
		classify_prev_state(fm, f->big_endian, print_prev_state);
	tr_pstate_free(fm->pstate);
	fm->pstate = NULL;
	return 0;
nomem:
	sr_error_set(err, ENOMEM, "out of memory loading event formats");
	return -1;
}

int tr_formats_from_tep(struct tr_formats *fm, struct tep_handle *tep, bool big_endian,
			struct sr_error *err)
{
	int n = tep_get_events_count(tep);
	bool have_common = false;

	memset(fm, 0, sizeof(*fm));
	fm->tep = tep;
	fm->tep_borrowed = true;
	fm->kernel_long_size = tep_get_header_page_size(tep);
	if ((fm->kernel_long_size != 4 && fm->kernel_long_size != 8) ||
	    tep_get_header_timestamp_size(tep) != 8) {
		sr_error_set(err, EINVAL, "unsupported ring-buffer page header: commit %d bytes, "
			     "timestamp %d bytes", fm->kernel_long_size,
			     tep_get_header_timestamp_size(tep));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct tep_event *ev = tep_get_event(tep, i);

		if (ev && ev->id >= 0 && ev->id <= 65535 && ev->id > fm->max_id)
			fm->max_id = (uint16_t)ev->id;
	}
	fm->type_of_id = calloc((size_t)fm->max_id + 1, sizeof(*fm->type_of_id));
	fm->name_of_id = calloc((size_t)fm->max_id + 1, sizeof(*fm->name_of_id));
	if (!fm->type_of_id || !fm->name_of_id) {
		sr_error_set(err, ENOMEM, "out of memory loading event formats");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct tep_event *ev = tep_get_event(tep, i);

		if (!ev || ev->id < 0 || ev->id > 65535 || !ev->name || !ev->name[0])
			continue;
		fm->name_of_id[ev->id] = ev->name;
		for (int t = 1; t < TRACE_EV_NR_TYPES; t++) {
			const char *missing = NULL;

			if (!ev->system || strcmp(ev->system, specs[t].system) ||
			    strcmp(ev->name, specs[t].name))
				continue;
			/* as tr_formats_load(): a decoded event's format must be usable */
			if (ev->flags & TEP_EVENT_FL_FAILED) {
				unusable(err, ev->system, t, ev->id, "libtraceevent cannot parse it",
					 NULL);
				return -1;
			}
			if (!have_common) {
				if (load_common(fm, ev)) {
					unusable(err, ev->system, t, ev->id, "no usable field",
						 "common_type/common_pid");
					return -1;
				}
				have_common = true;
			}
			if (load_layout(fm, (enum trace_event_type)t, ev, &missing)) {
				unusable(err, ev->system, t, ev->id, "no usable field", missing);
				return -1;
			}
			fm->ev[t].present = true;
			fm->ev[t].id = (uint16_t)ev->id;
			fm->type_of_id[ev->id] = (uint8_t)t;
			break;
		}
	}
	if (finish_common(fm, have_common, err))
		return -1;
	if (fm->ev[TRACE_EV_SCHED_SWITCH].present)
		classify_prev_state(fm, big_endian, print_prev_state);
	return 0;
}

void tr_formats_release(struct tr_formats *fm)
{
	if (!fm)
		return;
	if (fm->tep && !fm->tep_borrowed)
		tep_free(fm->tep);
	if (fm->tep_others)
		tep_free(fm->tep_others);
	tr_pstate_free(fm->pstate);
	free(fm->type_of_id);
	free(fm->name_of_id);
	free(fm->names);
	memset(fm, 0, sizeof(*fm));
}
