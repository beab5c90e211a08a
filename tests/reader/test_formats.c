// SPDX-License-Identifier: GPL-2.0
/*
 * The event formats read without libtraceevent (trace_format.c's fast
 * parse of the kernel's common shape) give exactly libtraceevent's tables.
 *
 *   test_formats compare PATH...      every trace.dat among PATHs (folders
 *                                     searched) is loaded both ways: the same
 *                                     verdict and message, the same ids and
 *                                     names, every decoded field's offset,
 *                                     size, flags (signed, __data_loc,
 *                                     __rel_loc) and load mask, the common
 *                                     header, and the prev_state classes
 *   test_formats mutate N SEED PATH... the same on N damaged copies of each
 *                                     decoded format (a byte replaced,
 *                                     deleted or inserted, a line doubled or
 *                                     dropped, before the print fmt but in
 *                                     sched_switch's): what the fast parse
 *                                     accepts, libtraceevent accepts with the
 *                                     same fields and prev_state classes, the
 *                                     rest keeps its message, and damage
 *                                     outside sched_switch leaves the classes
 *                                     as they were
 *
 * Exit 0 pass, 1 fail (both sides printed), 77 skip (no trace.dat found).
 */
#include <errno.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace_local.h"

static int failures;

struct load {
	int ret;
	struct sr_error err;
	struct tr_formats fm;
};

static void load(struct load *l, const struct tr_file *f, bool tep_only)
{
	memset(l, 0, sizeof(*l));
	l->ret = tr_formats_load(&l->fm, f, tep_only, &l->err);
}

static int field_diff(const char *what, const struct tr_field *a, const struct tr_field *b)
{
	if (a->offset == b->offset && a->size == b->size && a->flags == b->flags &&
	    a->sext == b->sext && a->mask == b->mask)
		return 0;
	fprintf(stderr, "  %s: fast offset %u size %u flags %#x sext %u mask %#" PRIx64
		" / libtraceevent offset %u size %u flags %#x sext %u mask %#" PRIx64 "\n", what,
		a->offset, a->size, a->flags, a->sext, a->mask, b->offset, b->size, b->flags,
		b->sext, b->mask);
	return 1;
}

#define DIFF_NUM(what, a, b)                                                              \
	((a) == (b) ? 0 : (fprintf(stderr, "  %s: fast %" PRId64 " / libtraceevent %" PRId64 "\n", \
				   what, (int64_t)(a), (int64_t)(b)), 1))

/* The number of differences between the two loads, each printed. */
static int compare(const struct load *a, const struct load *b)
{
	const struct tr_formats *x = &a->fm, *y = &b->fm;
	int d = 0;
	char what[64];

	if (a->ret != b->ret || (a->ret && strcmp(a->err.msg, b->err.msg))) {
		fprintf(stderr, "  verdict: fast %d '%s' / libtraceevent %d '%s'\n", a->ret,
			a->ret ? a->err.msg : "", b->ret, b->ret ? b->err.msg : "");
		return 1;
	}
	if (a->ret)
		return 0;
	d += DIFF_NUM("kernel_long_size", x->kernel_long_size, y->kernel_long_size);
	d += DIFF_NUM("max_id", x->max_id, y->max_id);
	if (d)
		return d;
	for (unsigned id = 0; id <= x->max_id; id++) {
		snprintf(what, sizeof(what), "type of id %u", id);
		d += DIFF_NUM(what, x->type_of_id[id], y->type_of_id[id]);
		if (!x->name_of_id[id] != !y->name_of_id[id] ||
		    (x->name_of_id[id] && strcmp(x->name_of_id[id], y->name_of_id[id]))) {
			fprintf(stderr, "  name of id %u: fast %s / libtraceevent %s\n", id,
				x->name_of_id[id] ? x->name_of_id[id] : "(none)",
				y->name_of_id[id] ? y->name_of_id[id] : "(none)");
			d++;
		}
	}
	for (int t = 0; t < TRACE_EV_NR_TYPES; t++) {
		const struct tr_event_layout *p = &x->ev[t], *q = &y->ev[t];

		snprintf(what, sizeof(what), "event type %d present", t);
		d += DIFF_NUM(what, p->present, q->present);
		snprintf(what, sizeof(what), "event type %d id", t);
		d += DIFF_NUM(what, p->id, q->id);
		snprintf(what, sizeof(what), "event type %d min_size", t);
		d += DIFF_NUM(what, p->min_size, q->min_size);
		snprintf(what, sizeof(what), "event type %d load_size", t);
		d += DIFF_NUM(what, p->load_size, q->load_size);
		for (int i = 0; i < TR_MAX_FIELDS; i++) {
			snprintf(what, sizeof(what), "event type %d field %d", t, i);
			d += field_diff(what, &p->f[i], &q->f[i]);
		}
	}
	d += field_diff("common_type", &x->common_type, &y->common_type);
	d += field_diff("common_flags", &x->common_flags, &y->common_flags);
	d += field_diff("common_preempt_count", &x->common_preempt_count,
			&y->common_preempt_count);
	d += field_diff("common_pid", &x->common_pid, &y->common_pid);
	d += DIFF_NUM("common_load_size", x->common_load_size, y->common_load_size);
	d += DIFF_NUM("std_common", x->std_common, y->std_common);
	d += DIFF_NUM("state_preempt_mask", x->state_preempt_mask, y->state_preempt_mask);
	d += DIFF_NUM("state_sleep_mask", x->state_sleep_mask, y->state_sleep_mask);
	d += DIFF_NUM("state_dead_mask", x->state_dead_mask, y->state_dead_mask);
	d += DIFF_NUM("state_from_print_fmt", x->state_from_print_fmt, y->state_from_print_fmt);
	return d;
}

/*
 * 1 if the two loads of @f differ (printed, with @label), or if @ref is
 * given and the load succeeds with other prev_state classes, else 0.
 */
static int check(const struct tr_file *f, const char *label, const struct tr_formats *ref)
{
	struct load a, b;
	int d;

	load(&a, f, false);
	load(&b, f, true);
	d = compare(&a, &b);
	/*
	 * sched_switch alone classifies prev_state: damage elsewhere changes
	 * nothing, unless it moved the common header (taken from the first
	 * decoded format, it places the synthetic records' type)
	 */
	if (!d && !a.ret && ref && a.fm.common_type.offset == ref->common_type.offset &&
	    a.fm.common_type.size == ref->common_type.size) {
		d += DIFF_NUM("state_preempt_mask vs undamaged", a.fm.state_preempt_mask,
			      ref->state_preempt_mask);
		d += DIFF_NUM("state_sleep_mask vs undamaged", a.fm.state_sleep_mask,
			      ref->state_sleep_mask);
		d += DIFF_NUM("state_dead_mask vs undamaged", a.fm.state_dead_mask,
			      ref->state_dead_mask);
		d += DIFF_NUM("state_from_print_fmt vs undamaged", a.fm.state_from_print_fmt,
			      ref->state_from_print_fmt);
	}
	if (d) {
		fprintf(stderr, "FAIL %s: %d difference(s) above\n", label, d);
		failures++;
	}
	tr_formats_release(&a.fm);
	tr_formats_release(&b.fm);
	return d != 0;
}

/*
 * @label's check in a child process: 0 same, 1 differ, 2 crashed while
 * libtraceevent alone does not (the fast parse's fault), 3 crashed in
 * libtraceevent's own parser of a damaged print format, as it does without
 * the fast parse (counted, not failed: the old behaviour, reported apart).
 */
static int nr_tep_crashes;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SR_TEST_LSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SR_TEST_LSAN 1
#endif
#ifdef SR_TEST_LSAN
int __lsan_do_recoverable_leak_check(void);
#endif

/* Under ASan: did this process leak (LeakSanitizer prints what)? */
static bool leaked(void)
{
#ifdef SR_TEST_LSAN
	return __lsan_do_recoverable_leak_check() != 0;
#else
	return false;
#endif
}

static int child_status(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			perror("waitpid");
			exit(1);
		}
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 4) {
		fprintf(stderr, "FAIL: a child leaked (LeakSanitizer's report above)\n");
		exit(1);
	}
	return WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 3) ?
		WEXITSTATUS(st) : -1;
}

static int check_isolated(const struct tr_file *f, const char *label,
			  const struct tr_formats *ref)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int r = check(f, label, ref) ? 3 : 0;

		/* _exit() skips LeakSanitizer's check at exit: run it here */
		_exit(leaked() ? 4 : r);
	}
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	st = child_status(pid);
	if (st == 3) {
		failures++;
		return 1;
	}
	if (st == 0)
		return 0;
	/* a crash: does libtraceevent crash on this text without the fast parse too? */
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct load b;

		load(&b, f, true);
		_exit(0);
	}
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (child_status(pid) == 0) {
		fprintf(stderr, "FAIL %s: crashes with the fast parse only\n", label);
		failures++;
		return 2;
	}
	fprintf(stderr, "known: %s: libtraceevent crashes on it either way\n", label);
	nr_tep_crashes++;
	return 3;
}

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64: reproducible from the seed */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A damaged copy of @text (@len bytes, print fmt at @head) in @out; its length. */
static size_t mutate(const char *text, size_t len, size_t head, char *out)
{
	static const char alphabet[] = " \t\n;:[]*_019a-x\r(";
	size_t at = head ? rnd() % head : 0, n = 0;
	char c = alphabet[rnd() % (sizeof(alphabet) - 1)];
	const char *line, *eol;

	switch (rnd() % 5) {
	case 0:         /* replace */
		memcpy(out, text, len);
		out[at] = c;
		return len;
	case 1:         /* delete */
		memcpy(out, text, at);
		memcpy(out + at, text + at + 1, len - at - 1);
		return len - 1;
	case 2:         /* insert */
		memcpy(out, text, at);
		out[at] = c;
		memcpy(out + at + 1, text + at, len - at);
		return len + 1;
	default:        /* double or drop the line holding @at */
		line = text + at;
		while (line > text && line[-1] != '\n')
			line--;
		eol = memchr(text + at, '\n', len - at);
		eol = eol ? eol + 1 : text + len;
		n = (size_t)(line - text);
		memcpy(out, text, n);
		if (rnd() % 2) {
			memcpy(out + n, line, (size_t)(eol - line));          /* doubled */
			n += (size_t)(eol - line);
			memcpy(out + n, line, (size_t)(text + len - line));
			return n + (size_t)(text + len - line);
		}
		memcpy(out + n, eol, (size_t)(text + len - eol));             /* dropped */
		return n + (size_t)(text + len - eol);
	}
}

static int mutate_file(struct tr_file *f, const char *path, int n)
{
	struct load ref;
	int done = 0;

	load(&ref, f, false);
	if (ref.ret) {
		fprintf(stderr, "FAIL %s: the undamaged file does not load: %s\n", path,
			ref.err.msg);
		failures++;
		return 0;
	}
	for (size_t i = 0; i < f->nr_formats; i++) {
		struct tr_format_text *ft = &f->formats[i];
		const char *orig = ft->text, *pf;
		size_t orig_len = ft->len;
		char *buf, label[512];

		bool sw;

		if (!orig || !ft->name)
			continue;
		sw = ft->name_len == 12 && !memcmp(ft->name, "sched_switch", 12);
		pf = memmem(orig, orig_len, "print fmt:", 10);
		if (!pf)
			continue;
		buf = malloc(2 * orig_len + 2);
		if (!buf) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
		for (int k = 0; k < n; k++) {
			ft->text = buf;
			/* sched_switch's print format too: it classifies prev_state */
			ft->len = mutate(orig, orig_len, sw ? orig_len : (size_t)(pf - orig), buf);
			{
				/* the damage: the text around its first changed byte */
				size_t at = 0, from;

				while (at < ft->len && at < orig_len && buf[at] == orig[at])
					at++;
				from = at > 60 ? at - 60 : 0;
				snprintf(label, sizeof(label), "%s: %.*s mutation %d at byte %zu: "
					 "...%.*s...", path, (int)ft->name_len, ft->name, k, at,
					 (int)(ft->len - from < 120 ? ft->len - from : 120), buf + from);
			}
			if (getenv("TEST_FORMATS_LAST")) {
				FILE *fp = fopen(getenv("TEST_FORMATS_LAST"), "w");

				if (fp) {
					fprintf(fp, "%s\n%.*s", label, (int)ft->len, buf);
					fclose(fp);
				}
			}
			if (check_isolated(f, label, sw ? NULL : &ref.fm) == 1 &&
			    getenv("TEST_FORMATS_DUMP"))
				fprintf(stderr, "---- damaged text:\n%.*s\n----\n", (int)ft->len, buf);
			done++;
		}
		ft->text = orig;
		ft->len = orig_len;
		free(buf);
	}
	tr_formats_release(&ref.fm);
	return done;
}

static bool is_trace_dat(const char *path)
{
	unsigned char m[3];
	FILE *fp = fopen(path, "rb");
	bool yes;

	if (!fp)
		return false;
	yes = fread(m, 1, 3, fp) == 3 && m[0] == 0x17 && m[1] == 0x08 && m[2] == 0x44;
	fclose(fp);
	return yes;
}

static int nr_files, nr_unreadable, nr_mutations;

static void visit(const char *path, int mutations)
{
	struct stat st;
	struct tr_file f;
	struct sr_error err;

	if (stat(path, &st))
		return;
	if (S_ISDIR(st.st_mode)) {
		struct dirent **list;
		int n = scandir(path, &list, NULL, alphasort);

		for (int i = 0; i < n; i++) {
			char sub[4096];

			if (list[i]->d_name[0] != '.') {
				snprintf(sub, sizeof(sub), "%s/%s", path, list[i]->d_name);
				visit(sub, mutations);
			}
			free(list[i]);
		}
		free(n >= 0 ? list : NULL);
		return;
	}
	if (!S_ISREG(st.st_mode) || !is_trace_dat(path))
		return;
	if (tr_file_open(&f, path, &err)) {
		/* damaged containers are the fuzz tests' business */
		printf("unreadable container (not compared): %s\n", err.msg);
		nr_unreadable++;
		return;
	}
	nr_files++;
	if (mutations)
		nr_mutations += mutate_file(&f, path, mutations);
	else if (!check(&f, path, NULL))
		printf("ok: %s\n", path);
	tr_file_release(&f);
}

int main(int argc, char **argv)
{
	int first = 2, mutations = 0;

	if (argc >= 3 && !strcmp(argv[1], "compare")) {
		first = 2;
	} else if (argc >= 5 && !strcmp(argv[1], "mutate")) {
		mutations = atoi(argv[2]);
		rng_state = strtoull(argv[3], NULL, 0);
		first = 4;
	} else {
		fprintf(stderr, "usage: test_formats compare PATH... | mutate N SEED PATH...\n");
		return 2;
	}
	for (int i = first; i < argc; i++)
		visit(argv[i], mutations);
	printf("%d trace(s), %d unreadable, %d mutation(s), %d failure(s), %d crash(es) of "
	       "libtraceevent's own parser either way\n", nr_files, nr_unreadable, nr_mutations,
	       failures, nr_tep_crashes);
	if (!nr_files) {
		printf("SKIP: no trace.dat found\n");
		return 77;
	}
	return failures ? 1 : 0;
}
