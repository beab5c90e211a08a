// SPDX-License-Identifier: GPL-2.0
/*
 * The third input kind of the reader: ftrace text, as the kernel prints it in
 * tracefs `trace` (with or without the "# tracer:" header, the irqs-off /
 * need-resched / hardirq / preempt flag column and the tgid column) and as
 * `trace-cmd report -N` or `-R` prints it (with "version = 6", "cpus=N", and
 * "NAME: " before the lines of instance buffers). Each line is
 *
 *   COMM-PID [(TGID)] [CPU] [FLAGS] SECONDS.FRACTION: EVENT: FIELDS
 *
 * and FIELDS are the event's print format: "key=value" pairs whose values may
 * hold spaces ("comm=Web Content pid=2711"), so a value runs to the next
 * " key=". sched_switch's " ==> " and the " [ns]" units are dropped. The
 * decoded events are the same struct trace_event as from a trace.dat, so
 * everything downstream is unchanged; fields the text does not carry (record
 * offsets, event ids of the kernel) are 0 / the order of first appearance.
 *
 * prev_state is classified from its letters ("R+", "S", "D|K", "X", ...), as
 * the binary reader does from the file's print format. A numeric prev_state
 * (`trace-cmd report -R`) has no format to interpret it: the first pass
 * tells the layout from the values (prev_state_layout()). 4.14+ reports
 * S D T t X Z P I = 0x1..0x80 and a preemption as 0x100 (TASK_REPORT_MAX),
 * so no value has a bit above 0x1ff; older kernels print p->state, whose
 * bits go up to 0x800 (R S D T t X Z x K W P N n), and a preemption as
 * TASK_STATE_MAX alone: 0x400 (3.x-4.1), 0x800 (4.2-4.10, TASK_NOLOAD),
 * 0x1000 (4.11-4.13, TASK_NEW). There x = 0x40 is TASK_DEAD, not 4.14's
 * P (parked): LISA's 4.11 trace.txt has 335 preemptions printed 4096 and 17
 * exits printed 64, read as running and sleeping with the 4.14+ layout.
 * Without a value above 0x1ff the 4.14+ layout is assumed, and said so.
 *
 * Lost events: "CPU:N [LOST M EVENTS]" (tracefs) and "CPU:N [M EVENTS
 * DROPPED]" (trace-cmd) mark a gap before CPU N's next event. A tracefs
 * `trace` whose header says "# entries-in-buffer/entries-written: A/B" with
 * B > A was read after the ring buffer overwrote B - A events (the kernel's
 * print_event_info(): B counts the overruns too), the oldest of the CPUs
 * that overran; which CPUs the header does not say, so every CPU's first
 * event comes after a gap of unknown size (before the overwrite this text
 * was read as complete: "lost: none").
 *
 * The file is read twice with a line buffer, never held: once at open (CPUs,
 * span, buffers, the buffer with the most sched events, timestamps in order),
 * then line by line by tr_text_next(). Plugin-formatted lines of a plain
 * `trace-cmd report` ("sh:15536 [120] D ==> ...") are rejected with a hint.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_local.h"

#define MAX_NAMES 4096
#define MAX_BUFFERS 64
#define MAX_FIELDS 24
#define MAX_CPU 4095
#define SR_STR_(x) #x
#define SR_STR(x) SR_STR_(x)
/* ftrace lines are short; a longer one is not ftrace text (and would make
 * the line pattern's matching slow) */
#define MAX_LINE 8192

struct text_buffer {
	char *name;
	uint64_t sched, records;
};

struct tr_text {
	const char *path;
	FILE *f;
	regex_t re;
	bool re_ok;
	regex_t ev_re;                 /* ev_like_re: an event line, whatever its COMM-PID */
	regex_t name_re;               /* ev_name_re: a decoded event, whatever before it */
	bool ev_re_ok, name_re_ok;
	bool tracecmd;                 /* "version = " / "cpus=" header: trace-cmd report text */
	bool nul;                      /* the line read has a NUL byte */
	char *line;
	size_t line_cap;
	uint64_t lineno;
	bool unterminated;             /* the line had no '\n': the file's last, maybe cut */
	/* buffers (trace-cmd report prefixes instance lines with "NAME: ") */
	struct text_buffer buffers[MAX_BUFFERS];
	int nr_buffers;
	int chosen;
	bool after_drop_ours;          /* the line after a drop line has no prefix */
	/* event names: id = order of first appearance */
	char *names[MAX_NAMES];
	uint64_t counts[MAX_NAMES];
	int nr_names;
	/* lost events */
	uint64_t lost[MAX_CPU + 1];
	bool lost_unknown[MAX_CPU + 1];
	uint64_t pending_lost[MAX_CPU + 1];
	uint64_t overwritten;          /* the header's entries-written - entries-in-buffer */
	bool cpu_started[MAX_CPU + 1]; /* an event of the CPU delivered (overwritten) */
	int max_cpu;
	uint64_t max_cpu_line;         /* the first line on max_cpu */
	bool hdr_tracecmd;             /* the CPU count is cpus=N's (else #P:N's) */
	char cpus_note[160];           /* info.cpus_from when the events raised it */
	uint64_t last_ts;
	struct tr_text_info info;
	char reason[512];
	/* numeric prev_state: the values seen (first pass), the layout's bits */
	uint64_t state_bits, state_alone;
	uint64_t state_preempt, state_sleep, state_dead;
};


/*
 * COMM-PID, optional (TGID), [CPU], optional flags (4-5 characters),
 * SECONDS.FRACTION, EVENT, the rest. POSIX matching is leftmost-longest, so
 * the comm takes everything up to the last "-PID [" that fits.
 */
static const char line_re[] =
	"^[[:space:]]*(.*)-([0-9]+)[[:space:]]+(\\([[:space:]]*[-0-9]+\\)[[:space:]]+)?"
	"\\[([0-9]+)\\][[:space:]]+([^[:space:]]{4,5}[[:space:]]+)?([0-9]+)\\.([0-9]+):"
	"[[:space:]]+([A-Za-z0-9_]+)(:[[:space:]]?|[[:space:]]|\\(|$)(.*)$";

/*
 * What follows an event's COMM-PID: "[CPU] (FLAGS) SEC.FRAC: NAME:".  A line
 * that has it but fails line_re is an event line whose COMM-PID is broken
 * ("sched-pipe-abc [000] 11514.500770782: sched_waking: ..."): until 4 Dec
 * 2026 (fuzz36) it was taken as no event and skipped without a word, and the
 * results were those of a trace without that event, at exit 0.
 */
static const char ev_like_re[] =
	"\\[[0-9]+\\][[:space:]]+([^[:space:]]{4,5}[[:space:]]+)?[0-9]+\\.[0-9]+:"
	"[[:space:]]+[A-Za-z0-9_]+:";

/*
 * A decoded event's name after "X: " where the line fails both patterns
 * above: its [CPU] or SEC.FRAC time stamp is not numbers ("[1e10]",
 * "11264.-1:", "1e10.5:"). Such a sched_switch was skipped as no event, at
 * exit 0, until fuzz37 (4 Dec 2026).
 */
static const char ev_name_re[] =
	"[^[:space:]]:[[:space:]]+(sched_[a-z_]+|cgroup_attach_task|sys_(enter|exit)_(read|write))"
	":([[:space:]]|$)";

enum { M_ALL, M_COMM, M_PID, M_TGID, M_CPU, M_FLAGS, M_SEC, M_FRAC, M_EVENT, M_SEP, M_REST,
       M_NR };

struct text_line {
	const char *buffer;            /* "" = top level */
	size_t buffer_len;
	char *comm;
	int32_t pid;
	int cpu;
	uint64_t ts;
	char *event;
	char *rest;
	const char *bad;               /* why parse_line() returned -1 */
	bool drop;                     /* a lost-events line */
	uint64_t drop_count;           /* TRACE_LOST_UNKNOWN if not printed */
};

static int read_line(struct tr_text *t)
{
	ssize_t n = getline(&t->line, &t->line_cap, t->f);

	if (n < 0)
		return 0;
	t->lineno++;
	t->unterminated = t->line[n - 1] != '\n';
	t->nul = memchr(t->line, '\0', (size_t)n) != NULL;
	while (n > 0 && (t->line[n - 1] == '\n' || t->line[n - 1] == '\r'))
		t->line[--n] = '\0';
	return 1;
}

/*
 * A line that the file ends inside (no '\n') after event lines: a trace cut
 * short (a copy or a download stopped), not another format, even where the
 * fields it has read (a sched_switch cut in "next_pr") or its event name is
 * gone; the message advised `trace-cmd report -N` for a line missing fields.
 * @name: the line's event, or NULL.  -1 with err.
 */
static int cut_short(const struct tr_text *t, const char *name, struct sr_error *err)
{
	sr_error_set(err, EINVAL, "line %" PRIu64 ": %s%scut short: the file ends inside this "
		     "line (truncated? copy the whole trace, or drop its last line)", t->lineno,
		     name ? name : "", name ? " " : "");
	return -1;
}

/* Decimal digits at @s as a number <= @max: 0, or -1 if it is larger (or none). */
static int parse_dec(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	int n = 0;

	for (; *s >= '0' && *s <= '9'; s++, n++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return n ? 0 : -1;
}

/*
 * A lost-events count a text may give per line, and the sum over a CPU's: a
 * ring buffer losing 10 M events/s for a year loses 2^48.
 * "LOST 99999999999999999999999 EVENTS" was read as UINT64_MAX (strtoull()'s
 * saturation: "at least 1") and "LOST 18446744073709551614" summed with
 * others wrapped (fuzz41).
 */
#define TEXT_LOST_MAX (1ull << 48)
#define TEXT_LOST_SUM_MAX (1ull << 62)

/*
 * "CPU:N [LOST M EVENTS]" or "CPU:N [M EVENTS DROPPED]" after an optional
 * prefix: 1 (@l filled), 0 if the line is no such line, -1 if it is one
 * with a CPU or count no kernel prints (@l->bad says which). A CPU of -1 or
 * 99999 made the line no drop line, so its lost events were dropped without
 * a word (fuzz41).
 */
static int parse_drop(const char *s, struct text_line *l)
{
	const char *p = strstr(s, "CPU:");
	uint64_t cpu, n;

	if (!p || (!strstr(p, "EVENTS DROPPED]") && !strstr(p, "LOST ")))
		return 0;
	p += 4 + strspn(p + 4, " ");
	if (parse_dec(p, MAX_CPU, &cpu)) {
		l->bad = "a lost-events line's CPU:N is not a CPU number 0.." SR_STR(MAX_CPU);
		return -1;
	}
	p += strspn(p, "0123456789");
	l->drop = true;
	l->cpu = (int)cpu;
	l->drop_count = TRACE_LOST_UNKNOWN;
	p = strchr(p, '[');
	if (p) {
		p++;
		if (!strncmp(p, "LOST ", 5))
			p += 5;
		if (isdigit((unsigned char)*p)) {
			if (parse_dec(p, TEXT_LOST_MAX, &n) ||
			    strncmp(p + strspn(p, "0123456789"), " EVENTS", 7)) {
				l->bad = "a lost-events line's count is not a number of at most 2^48 "
					 "before ' EVENTS'";
				return -1;
			}
			l->drop_count = n;
		}
	}
	if (l->drop_count == 0)
		l->drop_count = TRACE_LOST_UNKNOWN;
	return 1;
}

/*
 * The CPU count of a "cpus=N" (trace-cmd report) or "#P:N" (tracefs) header
 * line at @s, into t->info.cpus: 0, or -1 with @err.  atoi() read
 * "cpus=99999999999" as a wrapped int (ASan: a 126 GB allocation), "cpus=5000"
 * as 5000 CPUs to simulate and "cpus=abc" as none, each at exit 0 (fuzz40).
 */
static int header_cpus(struct tr_text *t, const char *s, const char *what, struct sr_error *err)
{
	const char *end = s + strspn(s, "0123456789");
	uint64_t v;

	if (parse_dec(s, MAX_CPU + 1, &v) || v == 0 || end[strspn(end, " \t")]) {
		sr_error_set(err, EINVAL, "line %" PRIu64 ": %s is not a CPU count 1..%d "
			     "(corrupted header)", t->lineno, what, MAX_CPU + 1);
		return -1;
	}
	t->info.cpus = (int)v;
	return 0;
}

/*
 * Split one line. 1: an event or drop line (l filled), 0: a line that is no
 * event (header, comment, blank), -1: an event-looking line that is broken.
 */
static int parse_line(struct tr_text *t, char *s, struct text_line *l)
{
	regmatch_t m[M_NR];
	char *body = s;
	uint64_t frac, sec, v;
	size_t fl;

	memset(l, 0, sizeof(*l));
	l->buffer = "";
	if (!*s || *s == '#')
		return 0;
	if (t->tracecmd && (!strncmp(s, "version = ", 10) || !strncmp(s, "cpus=", 5)))
		return 0;
	/* trace-cmd report: "NAME: " before an instance's lines, at column 0 */
	if (t->tracecmd && !isspace((unsigned char)*s)) {
		char *c = strstr(s, ": ");

		if (c && c > s && !memchr(s, ' ', (size_t)(c - s))) {
			l->buffer = s;
			l->buffer_len = (size_t)(c - s);
			body = c + 2;
		}
	}
	switch (parse_drop(body, l)) {
	case 1:
		return 1;
	case -1:
		return -1;
	default:
		break;
	}
	if (regexec(&t->re, body, M_NR, m, 0)) {
		/* a prefix-less line right after a drop line may look like NAME: too */
		if (l->buffer_len && !regexec(&t->re, s, M_NR, m, 0)) {
			l->buffer = "";
			l->buffer_len = 0;
			body = s;
		} else if (!regexec(&t->ev_re, s, 0, NULL, 0)) {
			l->bad = "no COMM-PID (a name, '-', a decimal pid) before its [CPU]";
			return -1;
		} else if (!regexec(&t->name_re, s, 0, NULL, 0)) {
			l->bad = "a sched event's line without a decimal [CPU] and SEC.FRAC: time "
				 "stamp before its name";
			return -1;
		} else {
			return 0;
		}
	}
	body[m[M_COMM].rm_eo] = '\0';
	l->comm = body + m[M_COMM].rm_so;
	/*
	 * The pattern guarantees digits only; their value is checked whole: a
	 * CPU of 2^31 wrapped to a negative index, a pid of 2^32 to 0 and
	 * seconds beyond 2^64 ns to a small timestamp.
	 */
	l->bad = "the pid is above 2^31-1";
	if (parse_dec(body + m[M_PID].rm_so, INT32_MAX, &v))
		return -1;
	l->pid = (int32_t)v;
	l->bad = "the CPU number is above " SR_STR(MAX_CPU);
	if (parse_dec(body + m[M_CPU].rm_so, MAX_CPU, &v))
		return -1;
	l->cpu = (int)v;
	l->bad = "the time stamp is beyond 2^64 ns";
	if (parse_dec(body + m[M_SEC].rm_so, UINT64_MAX / 1000000000ull - 1, &sec))
		return -1;
	fl = (size_t)(m[M_FRAC].rm_eo - m[M_FRAC].rm_so);
	l->bad = "more than 9 digits after the seconds' point";
	if (fl > 9)
		return -1;
	l->bad = NULL;
	frac = strtoull(body + m[M_FRAC].rm_so, NULL, 10);
	for (size_t i = fl; i < 9; i++)
		frac *= 10;
	l->ts = sec * 1000000000ull + frac;
	body[m[M_EVENT].rm_eo] = '\0';
	l->event = body + m[M_EVENT].rm_so;
	l->rest = body + m[M_REST].rm_so;
	return 1;
}

static int name_id(struct tr_text *t, const char *name, struct sr_error *err)
{
	for (int i = 0; i < t->nr_names; i++)
		if (!strcmp(t->names[i], name))
			return i;
	if (t->nr_names == MAX_NAMES) {
		sr_error_set(err, EINVAL, "more than %d event names", MAX_NAMES);
		return -1;
	}
	t->names[t->nr_names] = strdup(name);
	if (!t->names[t->nr_names]) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	return t->nr_names++;
}

static int buffer_of(struct tr_text *t, const char *name, size_t len, struct sr_error *err)
{
	for (int i = 0; i < t->nr_buffers; i++)
		if (strlen(t->buffers[i].name) == len && !memcmp(t->buffers[i].name, name, len))
			return i;
	if (t->nr_buffers == MAX_BUFFERS) {
		sr_error_set(err, EINVAL, "more than %d buffers", MAX_BUFFERS);
		return -1;
	}
	t->buffers[t->nr_buffers].name = strndup(name, len);
	if (!t->buffers[t->nr_buffers].name) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	return t->nr_buffers++;
}

static bool is_sched_name(const char *name)
{
	for (int k = 1; k < TRACE_EV_NR_TYPES; k++)
		if (!trace_event_is_syscall((enum trace_event_type)k) &&
		    !strcmp(trace_event_type_name((enum trace_event_type)k), name))
			return true;
	return false;
}

/* Which buffer a parsed line belongs to: index, or -1 on error. */
static int line_buffer(struct tr_text *t, const struct text_line *l, struct sr_error *err)
{
	return buffer_of(t, l->buffer, l->buffer_len, err);
}

/* Is the line of the chosen buffer? Keeps trace-cmd's after-drop quirk. */
static int ours(struct tr_text *t, const struct text_line *l, struct sr_error *err)
{
	int b = line_buffer(t, l, err);

	if (b < 0)
		return -1;
	if (l->drop) {
		t->after_drop_ours = b == t->chosen;
		return b == t->chosen;
	}
	if (t->after_drop_ours && !l->buffer_len) {
		t->after_drop_ours = false;
		return 1;
	}
	t->after_drop_ours = false;
	return b == t->chosen;
}

/* ---- fields ----------------------------------------------------------------- */

struct kv {
	const char *key;
	char *val;
};

/*
 * The fields whose value is text a task or user chose (a comm: 15 bytes of
 * anything, a filename, a cgroup path), each with the field the kernel's
 * print format puts after it. Such a value runs to that field, so a comm
 * "x success=0" is not read as a field of its own (it was: the wakeups of
 * that task then counted as success=0, at exit 0); without its follower
 * after it, to the end of the line. A value holding its own follower
 * (" pid=") still splits there; dup_key() refuses that line.
 */
static const struct {
	const char *key, *next[2];
} text_fields[] = {
	{ "comm", { " pid=" } }, { "prev_comm", { " prev_pid=" } },
	{ "next_comm", { " next_pid=" } }, { "parent_comm", { " parent_pid=" } },
	{ "child_comm", { " child_pid=" } }, { "filename", { " pid=" } },
	/* the print format's " pid=", -R's struct order: " comm=" */
	{ "dst_path", { " pid=", " comm=" } },
};

/*
 * Where the value of text field @key that starts at @v ends: at its first
 * follower, or at the end of the line without one after it (the comm that
 * ends cgroup_attach_task's line); NULL if @key is not a text field.
 */
static const char *text_value_end(const char *key, const char *v)
{
	for (size_t k = 0; k < sizeof(text_fields) / sizeof(text_fields[0]); k++)
		if (!strcmp(key, text_fields[k].key)) {
			const char *end = v + strlen(v);

			for (int f = 0; f < 2 && text_fields[k].next[f]; f++) {
				const char *e = strstr(v, text_fields[k].next[f]);

				if (e && e < end)
					end = e;
			}
			return end;
		}
	return NULL;
}

/*
 * Split "k1=v1 k2=v 2 k3=v3" in place; values run to the next " key=", a
 * text field's (text_fields[]) to its follower when there is one.
 */
static int split_fields(char *s, struct kv *kv, int max)
{
	int n = 0;
	size_t len = strlen(s);
	size_t skip_to = 0;              /* no key before: inside a text field's value */

	for (size_t i = 0; i < len && n < max; i++) {
		size_t j = i;

		if (i < skip_to || (i > 0 && s[i - 1] != ' '))
			continue;
		while (j < len && (isalnum((unsigned char)s[j]) || s[j] == '_'))
			j++;
		if (j == i || j >= len || s[j] != '=')
			continue;
		if (n > 0 && i > 0)
			s[i - 1] = '\0';       /* ends the previous value */
		s[j] = '\0';
		kv[n].key = s + i;
		kv[n].val = s + j + 1;
		{
			const char *end = text_value_end(kv[n].key, kv[n].val);

			if (end)
				skip_to = (size_t)(end - s) + 1;
		}
		n++;
		i = j;
	}
	for (int k = 0; k < n; k++) {
		char *v = kv[k].val;
		size_t l = strlen(v);

		while (l > 0 && v[l - 1] == ' ')
			v[--l] = '\0';
		if (l >= 4 && !strcmp(v + l - 4, " ==>"))
			v[l -= 4] = '\0';
		while (l > 0 && v[l - 1] == ' ')
			v[--l] = '\0';
	}
	return n;
}

/*
 * A key given twice: the text is ambiguous. A comm (up to 15 bytes the task
 * chose: "x pid=5"), a filename or a cgroup path holding " KEY=" splits
 * into a field of its own, and get() would read the first (the wakeup of
 * pid 5, at exit 0). NULL if every key is there once.
 */
static const char *dup_key(const struct kv *kv, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(kv[i].key, kv[j].key))
				return kv[i].key;
	return NULL;
}

static const char *get(const struct kv *kv, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].val;
	return NULL;
}

/*
 * A field's number: decimal, or hex after "0x". Not C's base 0: the kernel
 * prints sched_waking/sched_wakeup's target_cpu as "%03d", and as octal
 * "010" was CPU 8 and "008" CPU 0 (its "0", the "8" left over), so on a
 * machine of 8 or more CPUs the wakeups of CPUs 8 and up named the wrong CPU.
 */
static bool get_int(const struct kv *kv, int n, const char *key, int64_t *out)
{
	const char *v = get(kv, n, key);
	const char *d;
	char *end;

	if (!v || !*v)
		return false;
	d = v + (*v == '-' || *v == '+');
	errno = 0;
	*out = strtoll(v, &end, d[0] == '0' && (d[1] == 'x' || d[1] == 'X') ? 16 : 10);
	return !errno && end != v;
}

/* An unsigned 64-bit field ("runtime=%Lu"): 2^63 and more read as they are. */
static bool get_u64(const struct kv *kv, int n, const char *key, uint64_t *out)
{
	const char *v = get(kv, n, key);
	char *end;

	if (!v || !*v || *v == '-')
		return get_int(kv, n, key, (int64_t *)out);
	errno = 0;
	*out = strtoull(v, &end, v[0] == '0' && (v[1] == 'x' || v[1] == 'X') ? 16 : 10);
	return !errno && end != v;
}

static int32_t opt_int(const struct kv *kv, int n, const char *key, int32_t def)
{
	int64_t v;

	return get_int(kv, n, key, &v) ? (int32_t)v : def;
}

static void put_comm(char out[TRACE_COMM_LEN], const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n > TRACE_COMM_LEN - 1)
		n = TRACE_COMM_LEN - 1;
	memcpy(out, s ? s : "", n);
	out[n] = '\0';
}

/* A sched_switch line's numeric prev_state, for prev_state_layout(). */
static void note_prev_state(struct tr_text *t, const struct text_line *l)
{
	const char *p = strcmp(l->event, "sched_switch") ? NULL : strstr(l->rest, "prev_state=");
	unsigned long long v;
	char *end;

	if (!p || (p != l->rest && p[-1] != ' '))
		return;
	p += strlen("prev_state=");
	errno = 0;
	v = strtoull(p, &end, 0);
	if (end == p || errno || (*end && *end != ' ') || *p == '-')
		return;
	t->state_bits |= v;
	if (v && !(v & (v - 1)))
		t->state_alone |= v;
}

/*
 * The bit layout of the numeric prev_states seen (see the top of the file),
 * and what the user is told of it.
 */
static void prev_state_layout(struct tr_text *t)
{
	uint64_t max = 0;

	/* 4.14+ (__trace_sched_switch_state(), TASK_REPORT_MAX = 0x100) */
	t->state_preempt = 0x100;
	t->state_sleep = 0x01 | 0x02 | 0x04 | 0x08 | 0x40 | 0x80;
	t->state_dead = 0x10 | 0x20;
	if (!t->state_bits) {
		t->info.prev_state_how = NULL;
		return;
	}
	if (!(t->state_bits >> 9)) {
		t->info.prev_state_how = "numeric; the 4.14+ bit layout assumed (S D T t X Z P I = "
			"0x1..0x80, preemption 0x100): no value above 0x1ff tells an older kernel's";
		return;
	}
	/* older: TASK_STATE_MAX alone is a preemption; X Z x dead; the rest sleeps */
	t->info.prev_state_before = "4.14";
	for (uint64_t b = 0x400; b <= 0x1000; b <<= 1)
		if (t->state_alone & b)
			max = b;
	t->state_preempt = max;
	t->state_dead = 0x10 | 0x20 | 0x40;
	t->state_sleep = ~(t->state_dead | max) & (max ? max - 1 : 0x1fff);
	t->info.prev_state_how =
		max == 0x400 ? "numeric, a kernel before 4.14's layout (values above 0x1ff): "
			       "preemption 0x400 (TASK_STATE_MAX of 3.x-4.1), X Z x = 0x10 0x20 0x40 "
			       "dead, other bits sleeping" :
		max == 0x800 ? "numeric, a kernel before 4.14's layout (values above 0x1ff): "
			       "preemption 0x800 (TASK_STATE_MAX of 4.2-4.10), X Z x = 0x10 0x20 0x40 "
			       "dead, other bits sleeping" :
		max == 0x1000 ? "numeric, a kernel before 4.14's layout (values above 0x1ff): "
				"preemption 0x1000 (TASK_STATE_MAX of 4.11-4.13), X Z x = 0x10 0x20 "
				"0x40 dead, other bits sleeping" :
		"numeric, a kernel before 4.14's layout (values above 0x1ff), no preemption value "
		"(0x400, 0x800 or 0x1000 alone) seen: X Z x = 0x10 0x20 0x40 dead, other bits "
		"sleeping";
}

/* prev_state as printed: letters, or a number (its layout: prev_state_layout()). */
static void classify_state(struct tr_text *t, const char *s, struct trace_sched_switch *sw)
{
	char *end;
	long long v = strtoll(s, &end, 0);

	if (end != s && *end == '\0') {
		sw->prev_state = v;
		sw->prev_preempt = ((uint64_t)v & t->state_preempt) != 0;
		sw->prev_run = ((uint64_t)v & t->state_dead) ? TRACE_STATE_DEAD :
			((uint64_t)v & t->state_sleep) ? TRACE_STATE_SLEEPING : TRACE_STATE_RUNNING;
		t->info.numeric_state = true;
		return;
	}
	/* the letters themselves; the raw value is not in the text */
	sw->prev_state = 0;
	sw->prev_preempt = strchr(s, '+') != NULL;
	if (strpbrk(s, "XZx"))
		sw->prev_run = TRACE_STATE_DEAD;
	else if (s[0] == 'R' && (s[1] == '\0' || s[1] == '+'))
		sw->prev_run = TRACE_STATE_RUNNING;
	else
		sw->prev_run = TRACE_STATE_SLEEPING;
}

/*
 * A number of a syscall event's line after "KEY=" (trace-cmd report -R) or
 * "KEY: " (its print format, trace-cmd report -N: "fd: 0x00000003, buf:
 * ..."; tracefs: "sys_read(fd: 3, buf: ...)", with the argument's type
 * before KEY in verbose mode), read in @base (0: as C). false if absent.
 */
static bool syscall_arg(const char *rest, const char *key, int base, uint64_t *out)
{
	size_t kl = strlen(key);

	for (const char *p = rest; (p = strstr(p, key)); p += kl) {
		const char *v = p + kl;
		char *end;

		if (p != rest && p[-1] != ' ' && p[-1] != '(')
			continue;
		if (*v == '=')
			v++;
		else if (v[0] == ':' && v[1] == ' ')
			v += 2;
		else
			continue;
		errno = 0;
		*out = strtoull(v, &end, base);
		return !errno && end != v && (!*end || *end == ',' || *end == ' ' || *end == ')');
	}
	return false;
}

/*
 * The tracefs form of a syscall line: "sys_read(fd: 3, buf: ..., count: 64)"
 * for the entry and "sys_read -> 0x64" for the exit (the kernel's
 * print_syscall_enter() / print_syscall_exit(), not the print format):
 * its type, or TRACE_EV_OTHER.
 */
static enum trace_event_type tracefs_syscall(const char *event, const char *rest)
{
	bool rd = !strcmp(event, "sys_read"), wr = !strcmp(event, "sys_write");
	size_t n = strlen(rest);

	if (!rd && !wr)
		return TRACE_EV_OTHER;
	if (!strncmp(rest, "-> ", 3))
		return rd ? TRACE_EV_SYS_EXIT_READ : TRACE_EV_SYS_EXIT_WRITE;
	if (n && rest[n - 1] == ')')
		return rd ? TRACE_EV_SYS_ENTER_READ : TRACE_EV_SYS_ENTER_WRITE;
	return TRACE_EV_OTHER;
}

/* A syscall event's fields (trace_event_is_syscall()); -1 with err if absent. */
static int decode_syscall(struct tr_text *t, struct trace_event *ev, const char *rest,
			  bool tracefs, struct sr_error *err)
{
	struct trace_syscall *s = &ev->u.syscall;
	int base = tracefs ? 16 : 0;
	uint64_t v;
	char *end;

	/*
	 * tracefs printed every argument as "%lx" (6.12's print_syscall_enter();
	 * "count: 340" is 0x340); 6.18 prints a value below 10 as it is and
	 * the others with 0x ("fd: 3, buf: 0x7ffc74ad1018, count: 0x340",
	 * "fd: 0xff"): a line with a 0x is read in C's bases (a line without
	 * one has only values below 10, the same in both)
	 */
	if (tracefs && strstr(rest, ": 0x"))
		base = 0;
	memset(s, 0, sizeof(*s));
	if (ev->type == TRACE_EV_SYS_ENTER_SCHED_SETAFFINITY) {
		/* trace-cmd report's "pid=0x..., len=..." (the tracefs form stays other) */
		if (!syscall_arg(rest, "pid", base, &v))
			goto missing;
		s->fd = (int64_t)(int32_t)v;
		if (!syscall_arg(rest, "len", base, &v))
			goto missing;
		s->count = v;
		return 0;
	}
	if (ev->type == TRACE_EV_SYS_ENTER_READ || ev->type == TRACE_EV_SYS_ENTER_WRITE) {
		if (!syscall_arg(rest, "fd", base, &v))
			goto missing;
		s->fd = (int64_t)v;
		if (!syscall_arg(rest, "count", base, &v))
			goto missing;
		s->count = v;
		return 0;
	}
	/* "ret=0x40" (-R), "0x40" (-N: the print format is "0x%lx"), "-> 0x40" (tracefs) */
	if (!syscall_arg(rest, "ret", 0, &v)) {
		const char *p = tracefs ? rest + 3 : rest;

		errno = 0;
		v = strtoull(p, &end, 0);
		if (errno || end == p || *end)
			goto missing;
	}
	s->ret = (int64_t)v;
	return 0;
missing:
	sr_error_set(err, EINVAL, "line %" PRIu64 ": %s without the fields of the kernel's print "
		     "format", t->lineno, ev->name);
	return -1;
}

/*
 * A numeric prev_state with a bit outside TRACE_STATE_UNION (-1, 0x10000):
 * no kernel writes it (read at exit 0 before 3 Dec 2026, -1 as a dead
 * task). The layout read from the values (prev_state_layout()) tells no
 * more: a value above 0x1ff is an older kernel's. -1.
 */
static __attribute__((cold, noinline)) int state_error(const struct trace_event *ev,
						      struct sr_error *err)
{
	struct trace_bad_value b = { "prev_state", ev->u.sched_switch.prev_state,
				     "a numeric prev_state is 0 .. 0x1fff: 4.14+'s S D T t X Z P I "
				     "and 0x100, an older kernel's task state bits", TRACE_BAD_HEX };
	char where[64];

	trace_bad_value_error(ev, &b, trace_event_where(ev, where, sizeof(where)), err);
	return -1;
}

/* Decode the fields of a sched event; -1 (with err) if a required one is missing. */
static int decode(struct tr_text *t, struct trace_event *ev, char *rest, struct sr_error *err)
{
	struct kv kv[MAX_FIELDS];
	int n;
	int64_t a, b;
	const char *s, *bad;

	if (trace_event_is_syscall(ev->type))
		return decode_syscall(t, ev, rest, false, err);
	n = split_fields(rest, kv, MAX_FIELDS);
	if ((bad = dup_key(kv, n))) {
		sr_error_set(err, EINVAL, "line %" PRIu64 ": %s: field '%s=' appears twice (a comm, "
			     "filename or path holding ' %s='?): the text is ambiguous, read the "
			     "trace.dat", t->lineno, ev->name, bad, bad);
		return -1;
	}

#define NEED(key, var)                                                                    \
	do {                                                                              \
		if (!get_int(kv, n, key, &(var)))                                         \
			goto missing;                                                     \
	} while (0)
	/* a pid beyond int32 would wrap (2^32 -> 0): the line is broken */
#define NEED_PID(key, var)                                                                \
	do {                                                                              \
		NEED(key, var);                                                           \
		if ((var) < 0 || (var) > INT32_MAX) {                                     \
			bad = key;                                                        \
			goto range;                                                       \
		}                                                                         \
	} while (0)
	switch (ev->type) {
	case TRACE_EV_SCHED_SWITCH: {
		struct trace_sched_switch *w = &ev->u.sched_switch;

		NEED_PID("prev_pid", a);
		NEED_PID("next_pid", b);
		if (!(s = get(kv, n, "prev_state")) || !get(kv, n, "next_comm"))
			goto missing;
		w->prev_pid = (int32_t)a;
		w->next_pid = (int32_t)b;
		put_comm(w->prev_comm, get(kv, n, "prev_comm"));
		put_comm(w->next_comm, get(kv, n, "next_comm"));
		w->prev_prio = opt_int(kv, n, "prev_prio", 0);
		w->next_prio = opt_int(kv, n, "next_prio", 0);
		classify_state(t, s, w);
		if ((uint64_t)w->prev_state & ~TRACE_STATE_UNION)
			return state_error(ev, err);
		break;
	}
	case TRACE_EV_SCHED_WAKING:
	case TRACE_EV_SCHED_WAKEUP:
	case TRACE_EV_SCHED_WAKEUP_NEW: {
		struct trace_sched_wakeup *w = &ev->u.wakeup;

		NEED_PID("pid", a);
		w->pid = (int32_t)a;
		put_comm(w->comm, get(kv, n, "comm"));
		w->prio = opt_int(kv, n, "prio", 0);
		w->target_cpu = opt_int(kv, n, "target_cpu", -1);
		w->success = opt_int(kv, n, "success", 1);
		break;
	}
	case TRACE_EV_SCHED_MIGRATE_TASK: {
		struct trace_sched_migrate_task *w = &ev->u.migrate;

		NEED_PID("pid", a);
		w->pid = (int32_t)a;
		put_comm(w->comm, get(kv, n, "comm"));
		w->prio = opt_int(kv, n, "prio", 0);
		w->orig_cpu = opt_int(kv, n, "orig_cpu", -1);
		w->dest_cpu = opt_int(kv, n, "dest_cpu", -1);
		break;
	}
	case TRACE_EV_SCHED_PROCESS_FORK: {
		struct trace_sched_process_fork *w = &ev->u.fork;

		NEED_PID("child_pid", b);
		w->child_pid = (int32_t)b;
		w->parent_pid = opt_int(kv, n, "pid", opt_int(kv, n, "parent_pid", 0));
		put_comm(w->parent_comm, get(kv, n, "comm") ? get(kv, n, "comm") :
			 get(kv, n, "parent_comm"));
		put_comm(w->child_comm, get(kv, n, "child_comm"));
		break;
	}
	case TRACE_EV_SCHED_PROCESS_EXEC: {
		struct trace_sched_process_exec *w = &ev->u.exec;

		NEED_PID("pid", a);
		w->pid = (int32_t)a;
		w->old_pid = opt_int(kv, n, "old_pid", w->pid);
		s = get(kv, n, "filename");
		w->filename = s ? s : "";
		w->filename_len = strlen(w->filename);
		break;
	}
	case TRACE_EV_SCHED_PROCESS_EXIT: {
		struct trace_sched_process_exit *w = &ev->u.exit;

		NEED_PID("pid", a);
		w->pid = (int32_t)a;
		put_comm(w->comm, get(kv, n, "comm"));
		w->prio = opt_int(kv, n, "prio", 0);
		s = get(kv, n, "group_dead");
		w->group_dead = !s ? -1 : !strcmp(s, "true") || !strcmp(s, "1");
		break;
	}
	case TRACE_EV_SCHED_STAT_RUNTIME: {
		struct trace_sched_stat_runtime *w = &ev->u.stat_runtime;

		NEED_PID("pid", a);
		if (!get_u64(kv, n, "runtime", &w->runtime))
			goto missing;
		w->pid = (int32_t)a;
		put_comm(w->comm, get(kv, n, "comm"));
		w->has_vruntime = get_int(kv, n, "vruntime", &a);
		w->vruntime = w->has_vruntime ? (uint64_t)a : 0;
		break;
	}
	case TRACE_EV_SCHED_PI_SETPRIO: {
		struct trace_sched_pi_setprio *w = &ev->u.pi_setprio;

		NEED_PID("pid", a);
		w->pid = (int32_t)a;
		NEED("oldprio", a);
		NEED("newprio", b);
		w->oldprio = (int32_t)a;
		w->newprio = (int32_t)b;
		put_comm(w->comm, get(kv, n, "comm"));
		break;
	}
	case TRACE_EV_CGROUP_ATTACH_TASK: {
		struct trace_cgroup_attach_task *w = &ev->u.cgroup_attach;

		NEED_PID("pid", a);
		NEED("dst_root", b);
		w->pid = (int32_t)a;
		w->dst_root = (int32_t)b;
		w->has_dst_level = get_int(kv, n, "dst_level", &a);
		w->dst_level = w->has_dst_level ? (int32_t)a : -1;
		w->dst_id = (uint64_t)opt_int(kv, n, "dst_id", 0);
		s = get(kv, n, "dst_path");
		w->dst_path = s ? s : "";
		w->dst_path_len = strlen(w->dst_path);
		put_comm(w->comm, get(kv, n, "comm"));
		break;
	}
	default:
		break;
	}
#undef NEED_PID
#undef NEED
	return 0;
range:
	sr_error_set(err, EINVAL, "line %" PRIu64 ": %s: %s is not a pid (0 to 2^31-1)",
		     t->lineno, ev->name, bad);
	return -1;
missing:
	sr_error_set(err, EINVAL, "line %" PRIu64 ": %s without the fields of the kernel's print "
		     "format (plugin output of `trace-cmd report`? use `trace-cmd report -N`)",
		     t->lineno, ev->name);
	return -1;
}

/* ---- open: one pass for CPUs, span, buffers -------------------------------------- */

bool tr_text_sniff(const char *buf, size_t n)
{
	regex_t re;
	regmatch_t m[M_NR];
	bool hit = false;
	char line[4096];
	size_t i = 0;

	if ((n >= 9 && !memcmp(buf, "# tracer:", 9)) || (n >= 10 && !memcmp(buf, "version = ", 10)))
		return true;
	if (regcomp(&re, line_re, REG_EXTENDED))
		return false;
	/* an ftrace event line among the first lines of the sample */
	for (int lines = 0; i < n && lines < 64 && !hit; lines++) {
		size_t j = i;

		while (j < n && buf[j] != '\n')
			j++;
		if (j - i < sizeof(line)) {
			memcpy(line, buf + i, j - i);
			line[j - i] = '\0';
			hit = !regexec(&re, line, M_NR, m, 0) && strlen(line) == j - i;
		}
		i = j + 1;
	}
	regfree(&re);
	return hit;
}

/*
 * tracefs `trace`'s header "# entries-in-buffer/entries-written: A/B   #P:N"
 * (print_event_info(), kernel/trace/trace.c): B - A events were overwritten.
 */
static void note_overwritten(struct tr_text *t, const char *s)
{
	static const char key[] = "# entries-in-buffer/entries-written:";
	unsigned long long in, written;

	if (strncmp(s, key, sizeof(key) - 1) ||
	    sscanf(s + sizeof(key) - 1, " %llu/%llu", &in, &written) != 2)
		return;
	t->overwritten = written > in ? written - in : 0;
}

struct tr_text *tr_text_open(const char *path, const char *buffer, struct sr_error *err)
{
	struct tr_text *t = calloc(1, sizeof(*t));
	struct text_line l;
	uint64_t first = UINT64_MAX, prev_ts[MAX_BUFFERS] = { 0 }, prev_line[MAX_BUFFERS] = { 0 };
	int lines_ok = 0, r, b, after_drop = -1;
	size_t pos = 0;

	if (!t) {
		sr_error_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	t->path = path;
	t->chosen = -1;
	t->max_cpu = -1;
	if (regcomp(&t->re, line_re, REG_EXTENDED)) {
		sr_error_set(err, EINVAL, "internal error: line pattern");
		goto fail;
	}
	t->re_ok = true;
	if (regcomp(&t->ev_re, ev_like_re, REG_EXTENDED | REG_NOSUB)) {
		sr_error_set(err, EINVAL, "internal error: event line pattern");
		goto fail;
	}
	t->ev_re_ok = true;
	if (regcomp(&t->name_re, ev_name_re, REG_EXTENDED | REG_NOSUB)) {
		sr_error_set(err, EINVAL, "internal error: event name pattern");
		goto fail;
	}
	t->name_re_ok = true;
	t->f = fopen(path, "r");
	if (!t->f) {
		sr_error_set(err, errno, "cannot open: %s", strerror(errno));
		goto fail;
	}
	while (read_line(t)) {
		/* the line ends at it for every string function: the rest of it, an
		 * event's COMM-PID and fields, was skipped without a word */
		if (t->nul) {
			sr_error_set(err, EINVAL, "line %" PRIu64 " has a NUL byte: not ftrace text",
				     t->lineno);
			goto fail;
		}
		if (strlen(t->line) > MAX_LINE) {
			sr_error_set(err, EINVAL, "line %" PRIu64 " is longer than %d bytes: not "
				     "ftrace text", t->lineno, MAX_LINE);
			goto fail;
		}
		if (t->lineno == 1 && (!strncmp(t->line, "version = ", 10) ||
				       !strncmp(t->line, "cpus=", 5)))
			t->tracecmd = true;
		if (!strncmp(t->line, "cpus=", 5)) {
			if (header_cpus(t, t->line + 5, "cpus=", err))
				goto fail;
			t->info.cpus_from = "the text's cpus= line";
			t->hdr_tracecmd = true;
		} else if (t->line[0] == '#' && strstr(t->line, "#P:")) {
			if (header_cpus(t, strstr(t->line, "#P:") + 3, "#P:", err))
				goto fail;
			t->info.cpus_from = "the text's #P: header line";
		}
		if (!lines_ok && !t->tracecmd)
			note_overwritten(t, t->line);
		r = parse_line(t, t->line, &l);
		if (r <= 0 && t->unterminated && lines_ok) {
			/* the events' last line, cut before its event name */
			cut_short(t, NULL, err);
			goto fail;
		}
		if (r < 0) {
			sr_error_set(err, EINVAL, "line %" PRIu64 ": not an ftrace event line%s%s",
				     t->lineno, l.bad ? ": " : "", l.bad ? l.bad : "");
			goto fail;
		}
		if (r == 0)
			continue;
		b = line_buffer(t, &l, err);
		if (b < 0)
			goto fail;
		if (l.drop) {
			after_drop = b;
			continue;
		}
		if (after_drop >= 0 && !l.buffer_len)
			b = after_drop;
		after_drop = -1;
		lines_ok++;
		if (l.cpu > t->max_cpu) {
			t->max_cpu = l.cpu;
			t->max_cpu_line = t->lineno;
		}
		if (!strcmp(l.event, "sched_migrate_task"))
			t->info.records_migrations = true;
		if (!strcmp(l.event, "sched_wakeup_new") || !strcmp(l.event, "sched_process_fork"))
			t->info.records_forks = true;
		/* each buffer's lines are merged by time */
		if (l.ts < prev_ts[b]) {
			sr_error_set(err, EINVAL, "line %" PRIu64 ": timestamp %" PRIu64 ".%09" PRIu64
				     " is before line %" PRIu64 "'s (the text is not in time order)",
				     t->lineno, l.ts / 1000000000, l.ts % 1000000000, prev_line[b]);
			goto fail;
		}
		prev_ts[b] = l.ts;
		prev_line[b] = t->lineno;
		t->buffers[b].records++;
		if (is_sched_name(l.event))
			t->buffers[b].sched++;
		note_prev_state(t, &l);
	}
	if (ferror(t->f)) {
		sr_error_set(err, EIO, "read error");
		goto fail;
	}
	if (!lines_ok) {
		sr_error_set(err, EINVAL, "ftrace text without any event line");
		goto fail;
	}
	/* the buffer: requested, or the one with the most sched events */
	for (int i = 0; i < t->nr_buffers; i++) {
		const struct text_buffer *x = &t->buffers[i];

		if (buffer) {
			if (!strcmp(x->name, buffer))
				t->chosen = i;
			continue;
		}
		if (t->chosen < 0 || x->sched > t->buffers[t->chosen].sched ||
		    (x->sched == t->buffers[t->chosen].sched &&
		     x->records > t->buffers[t->chosen].records))
			t->chosen = i;
		pos += (size_t)snprintf(t->reason + pos, sizeof(t->reason) - pos,
					"%s%s: %" PRIu64 " sched of %" PRIu64 " records",
					pos ? "; " : "", x->name[0] ? x->name : "top level",
					x->sched, x->records);
		pos = pos < sizeof(t->reason) ? pos : sizeof(t->reason) - 1;
	}
	if (buffer && t->chosen < 0) {
		sr_error_set(err, ENOENT, "no buffer named '%s' in the text", buffer);
		goto fail;
	}
	if (buffer)
		snprintf(t->reason, sizeof(t->reason), "requested");
	else if (t->nr_buffers == 1)
		snprintf(t->reason, sizeof(t->reason), "the only buffer (%" PRIu64 " sched of %"
			 PRIu64 " records)", t->buffers[0].sched, t->buffers[0].records);
	/* the chosen buffer's span: a second pass would cost as much as reading it */
	t->info.first_ts = 0;
	t->info.last_ts = prev_ts[t->chosen];
	t->info.buffer = t->buffers[t->chosen].name;
	t->info.buffer_reason = t->reason;
	t->info.nr_buffers = t->nr_buffers;
	if (t->info.cpus <= t->max_cpu) {
		/*
		 * trace-cmd report's cpus=N is the trace.dat's CPU count, which no
		 * event of the file exceeds (its reader refuses one that does):
		 * an edited or corrupted text. tracefs' #P:N is num_online_cpus()
		 * when the text was read (print_event_info()): a CPU offline by
		 * then may have events, so the count is raised, and said so.
		 * Either was raised to the events' without a word before (fuzz41).
		 */
		if (t->info.cpus && t->hdr_tracecmd) {
			sr_error_set(err, EINVAL, "line %" PRIu64 ": an event on CPU %d, but the "
				     "text's cpus= line says %d CPU(s) (trace-cmd report prints the "
				     "trace.dat's CPU count, which its events stay below: a "
				     "corrupted or edited text)", t->max_cpu_line, t->max_cpu,
				     t->info.cpus);
			goto fail;
		}
		if (t->info.cpus)
			snprintf(t->cpus_note, sizeof(t->cpus_note), "the highest CPU with events "
				 "+ 1; the #P: header says %d, the CPUs online when the text was read",
				 t->info.cpus);
		else
			snprintf(t->cpus_note, sizeof(t->cpus_note), "the highest CPU with events + 1");
		t->info.cpus = t->max_cpu + 1;
		t->info.cpus_from = t->cpus_note;
	}
	t->info.tracecmd = t->tracecmd;
	prev_state_layout(t);
	rewind(t->f);
	t->lineno = 0;
	/* first timestamp of the chosen buffer */
	while (read_line(t)) {
		if (parse_line(t, t->line, &l) != 1)
			continue;
		r = ours(t, &l, err);
		if (r < 0)
			goto fail;
		if (r && !l.drop) {
			first = l.ts;
			break;
		}
	}
	t->info.first_ts = first == UINT64_MAX ? 0 : first;
	rewind(t->f);
	t->lineno = 0;
	t->after_drop_ours = false;
	return t;
fail:
	tr_text_close(t);
	return NULL;
}

void tr_text_close(struct tr_text *t)
{
	if (!t)
		return;
	if (t->f)
		fclose(t->f);
	if (t->re_ok)
		regfree(&t->re);
	if (t->ev_re_ok)
		regfree(&t->ev_re);
	if (t->name_re_ok)
		regfree(&t->name_re);
	free(t->line);
	for (int i = 0; i < t->nr_names; i++)
		free(t->names[i]);
	for (int i = 0; i < t->nr_buffers; i++)
		free(t->buffers[i].name);
	free(t);
}

const struct tr_text_info *tr_text_get_info(const struct tr_text *t)
{
	return &t->info;
}

int tr_text_next(struct tr_text *t, struct trace_event *ev, uint64_t *lost_before,
		 struct sr_error *err)
{
	struct text_line l;
	enum trace_event_type sc;
	int r, id;

	while (read_line(t)) {
		if (strlen(t->line) > MAX_LINE) {
			sr_error_set(err, EINVAL, "line %" PRIu64 " is longer than %d bytes", t->lineno,
				     MAX_LINE);
			return -1;
		}
		r = parse_line(t, t->line, &l);
		if (r <= 0)
			continue;  /* the open pass already rejected broken lines */
		r = ours(t, &l, err);
		if (r < 0)
			return -1;
		if (!r)
			continue;
		if (l.drop) {
			uint64_t *p = &t->pending_lost[l.cpu];

			if (l.drop_count == TRACE_LOST_UNKNOWN || *p == TRACE_LOST_UNKNOWN)
				*p = TRACE_LOST_UNKNOWN;
			else
				*p += l.drop_count;
			if (l.drop_count != TRACE_LOST_UNKNOWN &&
			    t->lost[l.cpu] > TEXT_LOST_SUM_MAX - l.drop_count) {
				sr_error_set(err, EINVAL, "line %" PRIu64 ": CPU %d's lost events "
					     "add up past 2^62 (a corrupted count)", t->lineno, l.cpu);
				return -1;
			}
			if (l.drop_count == TRACE_LOST_UNKNOWN) {
				t->lost[l.cpu]++;
				t->lost_unknown[l.cpu] = true;
			} else {
				t->lost[l.cpu] += l.drop_count;
			}
			continue;
		}
		/*
		 * tracefs names a syscall line by the syscall ("sys_read" for
		 * both events): typed, the name kept as every other syscall's
		 * line keeps it (the counts of report stay those of the text)
		 */
		sc = tracefs_syscall(l.event, l.rest);
		id = name_id(t, l.event, err);
		if (id < 0)
			return -1;
		memset(ev, 0, sizeof(*ev));
		ev->cpu = l.cpu;
		ev->ts = l.ts;
		ev->offset = t->lineno;
		ev->offset_is_line = true;
		ev->common_pid = l.pid;
		ev->id = (uint16_t)id;
		ev->name = t->names[id];
		ev->type = sc;
		for (int k = 1; sc == TRACE_EV_OTHER && k < TRACE_EV_NR_TYPES; k++)
			if (!strcmp(trace_event_type_name((enum trace_event_type)k), l.event))
				ev->type = (enum trace_event_type)k;
		if (t->unterminated)
			return cut_short(t, ev->name, err);
		if (sc != TRACE_EV_OTHER ? decode_syscall(t, ev, l.rest, true, err) :
		    ev->type != TRACE_EV_OTHER && decode(t, ev, l.rest, err))
			return -1;
		t->counts[id]++;
		if (t->overwritten && !t->cpu_started[l.cpu]) {
			/* the oldest records of an overrun CPU are gone: this one's? */
			t->cpu_started[l.cpu] = true;
			t->pending_lost[l.cpu] = TRACE_LOST_UNKNOWN;
			t->lost[l.cpu]++;
			t->lost_unknown[l.cpu] = true;
		}
		*lost_before = t->pending_lost[l.cpu];
		t->pending_lost[l.cpu] = 0;
		return 1;
	}
	if (ferror(t->f)) {
		sr_error_set(err, EIO, "read error");
		return -1;
	}
	return 0;
}

uint64_t tr_text_lost(const struct tr_text *t, int cpu, bool *unknown)
{
	if (unknown)
		*unknown = cpu >= 0 && cpu <= MAX_CPU && t->lost_unknown[cpu];
	return cpu >= 0 && cpu <= MAX_CPU ? t->lost[cpu] : 0;
}

bool tr_text_count_at(const struct tr_text *t, size_t i, const char **name, uint64_t *count)
{
	size_t k = 0;

	for (int id = 0; id < t->nr_names; id++) {
		if (!t->counts[id])
			continue;
		if (k++ == i) {
			*name = t->names[id];
			*count = t->counts[id];
			return true;
		}
	}
	return false;
}
