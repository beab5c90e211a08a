// SPDX-License-Identifier: GPL-2.0
/*
 * Loader of the capture sidecar; see include/schedreplay/sidecar.h and the
 * schema in docs/capture.md. The capture side writes it (capture/capture.c);
 * it lives here because the reports and the replay consume it.
 *
 * Required keys are checked with their JSON path in the message; optional
 * ones fall back to "unknown" values. Strings are copied, so the JSON tree is
 * freed before returning.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include <schedreplay/cli.h>
#include <schedreplay/profile.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/trace.h>

#include "sidecar_local.h"

/*
 * The loader reads the JSON through a tree of its own (struct sv): the
 * members of each object and array in one array, strings pointing into the
 * file's buffer, all of it in a few arena blocks freed at once. The common
 * sidecar is parsed straight into it (the fast parse below); anything else
 * is parsed by jansson and its tree copied into an sv tree, so there is one
 * extraction, with jansson's lookup rules (exact key length, a repeated key
 * replaced in place, insertion order). Building a jansson tree for the fast
 * path cost more than its parse: 19 KB of sidecar of 1 s of hackbench are
 * ~1,000 values, each a malloc()ed json_t, a strdup()ed key and a hash
 * table entry per object member, then json_delete() of all of them (0.9 M
 * of the 1.47 M instructions the sidecar cost the report).
 */
enum sv_type { SV_NULL, SV_TRUE, SV_FALSE, SV_INT, SV_REAL, SV_STR, SV_OBJ, SV_ARR };

struct sv {
	const char *key;        /* an object member's name, NUL-terminated; else NULL */
	uint32_t key_len;       /* its length: keys match by length and bytes, as in jansson */
	uint32_t n;             /* SV_OBJ, SV_ARR: number of members */
	uint8_t type;           /* enum sv_type */
	union {
		long long i;
		double d;
		const char *s;  /* NUL-terminated */
		struct sv *kids;
	} u;
};

/* arena blocks of nodes; a container's members are one run of a block */
struct sv_block {
	struct sv_block *next;
	size_t used, cap;
	struct sv nodes[];
};

#define SV_BLOCK_NODES 512

/* the kernel's max_cfs_runtime in us: MAX_BW, (1 << (64 - BW_SHIFT)) - 1 */
#define SIDECAR_MAX_QUOTA_US ((1LL << 44) - 1)

struct sv_doc {
	struct sv root;
	struct sv_block *blocks;
	struct sv *stack;       /* members of the containers being parsed */
	size_t depth_n, stack_cap;
	char *buf;              /* the file, strings and keys point into it */
	json_t *json;           /* jansson's tree, when it parsed the file */
};

static struct sv *sv_alloc(struct sv_doc *d, size_t n)
{
	struct sv_block *b = d->blocks;

	if (!b || b->cap - b->used < n) {
		size_t cap = n > SV_BLOCK_NODES ? n : SV_BLOCK_NODES;

		b = malloc(sizeof(*b) + cap * sizeof(b->nodes[0]));
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = d->blocks;
		d->blocks = b;
	}
	b->used += n;
	return b->nodes + b->used - n;
}

static void sv_doc_release(struct sv_doc *d)
{
	while (d->blocks) {
		struct sv_block *b = d->blocks;

		d->blocks = b->next;
		free(b);
	}
	free(d->stack);
	free(d->buf);
	json_decref(d->json);
	memset(d, 0, sizeof(*d));
}

/* Push @v on the member stack. */
static bool sv_push(struct sv_doc *d, const struct sv *v)
{
	if (d->depth_n == d->stack_cap) {
		size_t cap = d->stack_cap ? 2 * d->stack_cap : 256;
		struct sv *st = realloc(d->stack, cap * sizeof(*st));

		if (!st)
			return false;
		d->stack = st;
		d->stack_cap = cap;
	}
	d->stack[d->depth_n++] = *v;
	return true;
}

/* Move the members pushed since @base into the arena as @c's members. */
static bool sv_close(struct sv_doc *d, struct sv *c, size_t base)
{
	size_t n = d->depth_n - base;

	c->n = (uint32_t)n;
	c->u.kids = NULL;
	if (n) {
		if (n > UINT32_MAX || !(c->u.kids = sv_alloc(d, n)))
			return false;
		memcpy(c->u.kids, d->stack + base, n * sizeof(*c->u.kids));
	}
	d->depth_n = base;
	return true;
}

/*
 * The largest sidecar the loader takes: SIDECAR_MAX_BYTES, at most
 * SIDECAR_MAX_VALUES JSON values (docs/capture.md).  A real one is about
 * 150 bytes and 8.4 values per thread of tasks_at_start: 16 MiB is a machine
 * of about 100 000 threads.  Unbounded, jansson's tree of a 32 MiB file of
 * small integers took 1.7 GB (a malloc()ed json_t and an array slot per
 * value, then the sv copy of it); within both limits the peak is 110 MB
 * for the worst shape (1 M integers and an escape: jansson's parse), 55 MB
 * for a real 14 MB one (the fast parse).
 */
/* SIDECAR_MAX_BYTES, SIDECAR_MAX_VALUES: include/schedreplay/sidecar.h (the capture checks them) */

/*
 * The fast parse of the common sidecar: plain ASCII strings (no escapes),
 * integers of up to 18 digits, decimal reals, true/false/null, objects and
 * arrays nested 64 deep, objects of up to 1,024 members, into the tree
 * json_load_file() would give (same types and values, same key order; a
 * repeated key replaces the value in place, as there). Anything else - an
 * escape, a byte outside printable ASCII in a string, a longer number, any
 * syntax error, a file that cannot be read whole - fails, and jansson parses
 * the file: its errors and its acceptance are unchanged. jansson reads the
 * file with getc() and builds every token character by character: 0.3 of
 * the 0.45 ms that loading the 19 KB sidecar of 1 s of hackbench cost.
 */
#define FAST_MAX_DEPTH 64
#define FAST_MAX_BYTES SIDECAR_MAX_BYTES
#define FAST_MAX_MEMBERS 1024   /* bounds the repeated-key scan: 0.5 M compares */

struct fast {
	char *p, *end;
	int depth;
	struct sv_doc *d;
};

static void fast_ws(struct fast *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\t' || *s->p == '\r'))
		s->p++;
}

/* Consume @c if it is next. */
static bool fast_eat(struct fast *s, char c)
{
	if (s->p == s->end || *s->p != c)
		return false;
	s->p++;
	return true;
}

/* A string without escapes; its closing quote becomes its NUL. */
static bool fast_string(struct fast *s, const char **str, size_t *len)
{
	char *q;

	if (s->p == s->end || *s->p != '"')
		return false;
	for (q = s->p + 1; q < s->end && *q != '"'; q++)
		if ((unsigned char)*q < 0x20 || (unsigned char)*q > 0x7e || *q == '\\')
			return false;
	if (q == s->end)
		return false;
	*str = s->p + 1;
	*len = (size_t)(q - s->p - 1);
	*q = '\0';
	s->p = q + 1;
	return true;
}

static bool fast_digit(const struct fast *s, const char *q)
{
	return q < s->end && *q >= '0' && *q <= '9';
}

/* jansson's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool fast_number(struct fast *s, struct sv *v)
{
	char *q = s->p, *e, tmp[64];
	const char *digits;
	bool real = false;
	size_t n;

	if (*q == '-')
		q++;
	digits = q;
	if (!fast_digit(s, q))
		return false;
	if (*q == '0') {
		if (fast_digit(s, ++q))
			return false;
	} else {
		while (fast_digit(s, q))
			q++;
	}
	if (q < s->end && *q == '.') {
		real = true;
		if (!fast_digit(s, ++q))
			return false;
		while (fast_digit(s, q))
			q++;
	}
	if (q < s->end && (*q == 'e' || *q == 'E')) {
		real = true;
		q++;
		if (q < s->end && (*q == '+' || *q == '-'))
			q++;
		if (!fast_digit(s, q))
			return false;
		while (fast_digit(s, q))
			q++;
	}
	n = (size_t)(q - s->p);
	if (n >= sizeof(tmp) || (!real && q - digits > 18))
		return false;
	if (!real) {
		/* 18 digits stay below 2^63: strtoll()'s value without its locale work */
		long long i = 0;

		for (const char *c = digits; c < q; c++)
			i = i * 10 + (*c - '0');
		v->type = SV_INT;
		v->u.i = digits > s->p ? -i : i;
		s->p = q;
		return true;
	}
	memcpy(tmp, s->p, n);
	tmp[n] = '\0';
	s->p = q;
	errno = 0;
	v->type = SV_REAL;
	v->u.d = strtod(tmp, &e);
	/* overflow (jansson's error), underflow: jansson decides */
	return !errno && !*e;
}

static bool fast_value(struct fast *s, struct sv *v);

/* Add member @m (with its key, in an object) to the container opened at @base. */
static bool fast_member(struct fast *s, size_t base, const struct sv *m)
{
	size_t i;

	if (m->key) {
		for (i = base; i < s->d->depth_n; i++)
			if (s->d->stack[i].key_len == m->key_len &&
			    !memcmp(s->d->stack[i].key, m->key, m->key_len)) {
				s->d->stack[i].type = m->type;  /* jansson: the last value, */
				s->d->stack[i].n = m->n;        /* in the first one's place */
				s->d->stack[i].u = m->u;
				return true;
			}
		if (s->d->depth_n - base >= FAST_MAX_MEMBERS)
			return false;
	}
	return sv_push(s->d, m);
}

/* An object or an array, at its opening bracket. */
static bool fast_container(struct fast *s, struct sv *c)
{
	bool obj = *s->p == '{';
	char close = obj ? '}' : ']';
	size_t base = s->d->depth_n;

	c->type = obj ? SV_OBJ : SV_ARR;
	s->p++;
	fast_ws(s);
	if (!fast_eat(s, close)) {
		for (;;) {
			struct sv m = { 0 };
			size_t kl = 0;

			fast_ws(s);
			if (obj) {
				if (!fast_string(s, &m.key, &kl))
					return false;
				m.key_len = (uint32_t)kl;
				fast_ws(s);
				if (!fast_eat(s, ':'))
					return false;
				fast_ws(s);
			}
			if (!fast_value(s, &m) || !fast_member(s, base, &m))
				return false;
			fast_ws(s);
			if (fast_eat(s, ','))
				continue;
			if (fast_eat(s, close))
				break;
			return false;
		}
	}
	return sv_close(s->d, c, base);
}

static bool fast_word(struct fast *s, const char *w, size_t n)
{
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, w, n))
		return false;
	s->p += n;
	return true;
}

static bool fast_value(struct fast *s, struct sv *v)
{
	size_t len;
	bool ok;

	if (s->p == s->end)
		return false;
	switch (*s->p) {
	case '{':
	case '[':
		if (++s->depth > FAST_MAX_DEPTH)
			return false;
		ok = fast_container(s, v);
		s->depth--;
		return ok;
	case '"':
		v->type = SV_STR;
		return fast_string(s, &v->u.s, &len);
	case 't':
		v->type = SV_TRUE;
		return fast_word(s, "true", 4);
	case 'f':
		v->type = SV_FALSE;
		return fast_word(s, "false", 5);
	case 'n':
		v->type = SV_NULL;
		return fast_word(s, "null", 4);
	default:
		return fast_number(s, v);
	}
}

/* An upper bound of the JSON values in the bytes seen so far: 1 + commas + open brackets. */
struct vcount {
	size_t bytes, values;
	bool in_str, esc;
};

/* Count @n more bytes; false when over either limit. */
static bool vcount_feed(struct vcount *c, const char *p, size_t n)
{
	if (!c->values)
		c->values = 1;
	c->bytes += n;
	for (size_t i = 0; i < n; i++) {
		char ch = p[i];

		if (c->in_str) {
			if (c->esc)
				c->esc = false;
			else if (ch == '\\')
				c->esc = true;
			else if (ch == '"')
				c->in_str = false;
		} else if (ch == '"') {
			c->in_str = true;
		} else if (ch == ',' || ch == '[' || ch == '{') {
			c->values++;
		}
	}
	return c->bytes <= SIDECAR_MAX_BYTES && c->values <= SIDECAR_MAX_VALUES;
}

/* The one-line error of a file over a limit, from its count. */
static void vcount_error(const struct vcount *c, const char *path, struct sr_error *err)
{
	if (c->bytes > SIDECAR_MAX_BYTES)
		sr_error_set(err, EFBIG, "%s: %s%zu bytes, over the sidecar maximum of %u MiB",
			     path, c->values ? "more than " : "", c->bytes, SIDECAR_MAX_BYTES >> 20);
	else
		sr_error_set(err, EFBIG, "%s: more than %u JSON values in its first %zu bytes, over "
			     "the sidecar maximum", path, SIDECAR_MAX_VALUES, c->bytes);
}

int sidecar_text_check(const char *path, const char *text, size_t len, struct sr_error *err)
{
	struct vcount c = { 0 };

	if (len > SIDECAR_MAX_BYTES) {
		/* the whole size, as the loader tells a regular file's (no "more than") */
		c.bytes = len;
		vcount_error(&c, path, err);
		return -1;
	}
	if (vcount_feed(&c, text, len))
		return 0;
	vcount_error(&c, path, err);
	return -1;
}

/*
 * Parse the regular file open at @fd into @d with the fast parse: 1, or 0
 * with @d released (then only jansson decides whether and how the file is
 * valid JSON), or -1 with @err set: over a limit (@path names it).
 */
static int sv_parse_fast(struct sv_doc *d, int fd, const char *path, struct sr_error *err)
{
	struct fast s = { .d = d };
	struct vcount vc = { 0 };
	int ok = 0;
	struct stat st;
	size_t size, done = 0;

	memset(d, 0, sizeof(*d));
	/*
	 * fstat, read: stdio's fopen/fseek/ftell/fread took eight system
	 * calls and a 4 KiB buffer. A file that is empty, larger than
	 * FAST_MAX_BYTES or changes size while read is left to jansson.
	 */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    st.st_size > (off_t)FAST_MAX_BYTES || !(d->buf = malloc((size_t)st.st_size)))
		goto out;
	size = (size_t)st.st_size;
	while (done < size) {
		ssize_t n = read(fd, d->buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto out;
		done += (size_t)n;
	}
	if (!vcount_feed(&vc, d->buf, size)) {
		vcount_error(&vc, path, err);
		ok = -1;
		goto out;
	}
	s.p = d->buf;
	s.end = d->buf + size;
	fast_ws(&s);
	/* a root that is no object is an error below: jansson's words for it */
	if (s.p == s.end || *s.p != '{' || !fast_value(&s, &d->root))
		goto out;
	fast_ws(&s);
	ok = s.p == s.end;
out:
	if (ok != 1)
		sv_doc_release(d);
	return ok;
}

/* jansson's reader (json_load_callback()): read(), within the limits */
struct jread {
	int fd, error;          /* a read()'s errno */
	bool over;              /* over a limit: vc says which */
	struct vcount vc;
};

static size_t jread_cb(void *buf, size_t len, void *data)
{
	struct jread *j = data;
	ssize_t n;

	do
		n = read(j->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		j->error = errno;
		return (size_t)-1;
	}
	if (!vcount_feed(&j->vc, buf, (size_t)n)) {
		j->over = true;
		return (size_t)-1;
	}
	return (size_t)n;
}

/* Copy jansson's node @j into @v; strings and keys stay in jansson's tree. */
static bool sv_from_json(struct sv_doc *d, json_t *j, struct sv *v)
{
	size_t base = d->depth_n, i, kl;
	const char *key;
	json_t *m;

	switch (json_typeof(j)) {
	case JSON_OBJECT:
		v->type = SV_OBJ;
		json_object_keylen_foreach(j, key, kl, m) {
			struct sv c = { .key = key, .key_len = (uint32_t)kl };

			if (kl > UINT32_MAX || !sv_from_json(d, m, &c) || !sv_push(d, &c))
				return false;
		}
		return sv_close(d, v, base);
	case JSON_ARRAY:
		v->type = SV_ARR;
		json_array_foreach(j, i, m) {
			struct sv c = { 0 };

			if (!sv_from_json(d, m, &c) || !sv_push(d, &c))
				return false;
		}
		return sv_close(d, v, base);
	case JSON_STRING:
		v->type = SV_STR;
		v->u.s = json_string_value(j);
		return true;
	case JSON_INTEGER:
		v->type = SV_INT;
		v->u.i = json_integer_value(j);
		return true;
	case JSON_REAL:
		v->type = SV_REAL;
		v->u.d = json_real_value(j);
		return true;
	case JSON_TRUE:
		v->type = SV_TRUE;
		return true;
	case JSON_FALSE:
		v->type = SV_FALSE;
		return true;
	case JSON_NULL:
	default:
		v->type = SV_NULL;
		return true;
	}
}

/* The sv tree as a jansson tree, for the test against json_load_file(). */
static json_t *sv_to_json(const struct sv *v)
{
	json_t *j;

	switch (v->type) {
	case SV_OBJ:
		if (!(j = json_object()))
			return NULL;
		for (uint32_t i = 0; i < v->n; i++) {
			const struct sv *m = &v->u.kids[i];

			if (json_object_setn_new_nocheck(j, m->key, m->key_len, sv_to_json(m))) {
				json_decref(j);
				return NULL;
			}
		}
		return j;
	case SV_ARR:
		if (!(j = json_array()))
			return NULL;
		for (uint32_t i = 0; i < v->n; i++)
			if (json_array_append_new(j, sv_to_json(&v->u.kids[i]))) {
				json_decref(j);
				return NULL;
			}
		return j;
	case SV_STR:
		return json_string_nocheck(v->u.s);
	case SV_INT:
		return json_integer(v->u.i);
	case SV_REAL:
		return json_real(v->u.d);
	case SV_TRUE:
		return json_true();
	case SV_FALSE:
		return json_false();
	default:
		return json_null();
	}
}

json_t *sidecar_json_fast(const char *path)
{
	struct sr_error err = { 0 };
	struct sv_doc d;
	json_t *j;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return NULL;
	ok = sv_parse_fast(&d, fd, path, &err);
	close(fd);
	if (ok != 1)
		return NULL;
	j = sv_to_json(&d.root);
	sv_doc_release(&d);
	return j;
}

/* jansson's accessors, on sv nodes; each takes NULL or a node of any type */
static const struct sv *sv_get(const struct sv *o, const char *key)
{
	size_t kl = strlen(key);

	if (!o || o->type != SV_OBJ)
		return NULL;
	for (uint32_t i = 0; i < o->n; i++)
		if (o->u.kids[i].key_len == kl && !memcmp(o->u.kids[i].key, key, kl))
			return &o->u.kids[i];
	return NULL;
}

static bool sv_is(const struct sv *v, enum sv_type t)
{
	return v && v->type == t;
}

#define sv_is_obj(v) sv_is(v, SV_OBJ)
#define sv_is_arr(v) sv_is(v, SV_ARR)
#define sv_is_str(v) sv_is(v, SV_STR)
#define sv_is_int(v) sv_is(v, SV_INT)
#define sv_is_true(v) sv_is(v, SV_TRUE)
#define sv_is_false(v) sv_is(v, SV_FALSE)
#define sv_array_size(v) sv_size(v, SV_ARR)
#define sv_object_size(v) sv_size(v, SV_OBJ)

static const char *sv_str(const struct sv *v)
{
	return sv_is(v, SV_STR) ? v->u.s : NULL;
}

/* members of an array (json_array_size()) or of an object (json_object_size()) */
static size_t sv_size(const struct sv *v, enum sv_type t)
{
	return sv_is(v, t) ? v->n : 0;
}

/* the @i-th element of array @a, or NULL */
static const struct sv *sv_at(const struct sv *a, size_t i)
{
	return sv_is(a, SV_ARR) && i < a->n ? &a->u.kids[i] : NULL;
}

/*
 * *@dst = a copy of @v's string, NULL when @v is absent or not a string; -1
 * when the copy failed.  A failed copy read as an absent key: a group
 * refused for a "path" it has, a comm or cgroup of a task or the kernel
 * release (checked present just before) loaded as NULL, at exit 0.
 */
static int dup_str(char **dst, const struct sv *v)
{
	const char *s = sv_str(v);

	*dst = s ? strdup(s) : NULL;
	return s && !*dst ? -1 : 0;
}

/*
 * Integer at @key in [@lo, @hi], or @dflt when absent or null. Anything else
 * (a string, a fraction, 1e308, a pid beyond int) sets *@bad to the key and
 * gives @dflt: the loader then fails naming it. Casting such a value was
 * undefined behaviour for 1e308 and silently wrong for the others.
 */
static bool sv_int_in(const struct sv *v, long long lo, long long hi, long long *out)
{
	if (v->type == SV_INT && v->u.i >= lo && v->u.i <= hi) {
		*out = v->u.i;
		return true;
	}
	if (v->type == SV_REAL) {
		double d = v->u.d;

		/* 2^53: every integer below is exact in a double */
		if (d > -9007199254740992.0 && d < 9007199254740992.0 && d >= (double)lo &&
		    d <= (double)hi && d == (double)(long long)d) {
			*out = (long long)d;
			return true;
		}
	}
	return false;
}

static long long get_int_in(const struct sv *o, const char *key, long long dflt, long long lo,
			    long long hi, const char **bad)
{
	const struct sv *v = sv_get(o, key);
	long long x;

	if (!v || v->type == SV_NULL)
		return dflt;
	if (sv_int_in(v, lo, hi, &x))
		return x;
	if (!*bad)
		*bad = key;
	return dflt;
}

static bool sidecar_func_listed(const struct sidecar *sc, const char *name)
{
	for (size_t i = 0; i < sc->nr_funcs; i++)
		if (!strcmp(sc->funcs[i].name, name))
			return true;
	return false;
}

static int cmp_task(const void *a, const void *b)
{
	const struct sidecar_task *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * A regular file: the fast parse, else jansson from its start. Anything
 * else (a FIFO, a pipe) only through jansson, read once: closing it
 * unread lost what a FIFO's writer had written, and opening the path
 * again waited for another writer for ever.  Either way within
 * SIDECAR_MAX_BYTES and SIDECAR_MAX_VALUES.
 * The document into @d: 0, or -1 with @err set, naming @path.
 */
static int sidecar_parse(const char *path, struct sv_doc *d, struct sr_error *err)
{
	json_error_t jerr;
	struct stat st = { 0 };
	int fd, fast;

	memset(d, 0, sizeof(*d));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		sr_error_set(err, errno, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > (off_t)SIDECAR_MAX_BYTES) {
		struct vcount vc = { .bytes = (size_t)st.st_size };

		vcount_error(&vc, path, err);
		close(fd);
		return -1;
	}
	fast = S_ISREG(st.st_mode) ? sv_parse_fast(d, fd, path, err) : 0;
	if (!fast) {
		struct jread jr = { .fd = fd };

		if (S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_SET) < 0) {
			sr_error_set(err, errno, "%s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (!(d->json = json_load_callback(jread_cb, &jr, 0, &jerr))) {
			if (jr.over)
				vcount_error(&jr.vc, path, err);
			else if (jr.error)
				sr_error_set(err, jr.error, "%s: %s", path, strerror(jr.error));
			else
				sr_error_set(err, EINVAL, "%s: line %d column %d: %s", path,
					     jerr.line, jerr.column, jerr.text);
			fast = -1;
		}
	}
	close(fd);
	return fast < 0 ? -1 : 0;
}

/*
 * A step of sidecar_load(): FAIL() sets @err (without the path, which the
 * caller prefixes) and returns -1.  The ints (pids, CPUs, counts), longs
 * (shares, quotas) and non-negative 64-bit values note the first key whose
 * value is not a valid integer in *@bad.
 */
#define FAIL(code, ...)                                       \
	do {                                                  \
		sr_error_set(err, code, __VA_ARGS__);         \
		return -1;                                    \
	} while (0)

#define NOMEM() FAIL(ENOMEM, "out of memory")

#define DUP_STR(dst, v)                                       \
	do {                                                  \
		if (dup_str(&(dst), (v)) < 0)                 \
			NOMEM();                              \
	} while (0)

#define get_int(o, key, dflt) get_int_in(o, key, dflt, INT_MIN, INT_MAX, bad)
#define get_long(o, key, dflt) get_int_in(o, key, dflt, LONG_MIN, LONG_MAX, bad)
#define get_u63(o, key, dflt) get_int_in(o, key, dflt, 0, LLONG_MAX, bad)

/* schema, schema_version, and the types of the containers read below */
static int load_header(struct sidecar *sc, const struct sv *root, const char **bad,
		       struct sr_error *err)
{
	if (!sv_is_obj(root) ||
	    !sv_is_str(sv_get(root, "schema")) ||
	    strcmp(sv_str(sv_get(root, "schema")), "schedreplay-sidecar"))
		FAIL(EINVAL, "not a schedreplay sidecar (\"schema\" is not \"schedreplay-sidecar\")");
	sc->schema_version = (int)get_int(root, "schema_version", 0);
	if (sc->schema_version < 1)
		FAIL(EINVAL, "\"schema_version\" missing or invalid");
	if (sc->schema_version > SIDECAR_SCHEMA_VERSION)
		FAIL(EINVAL, "schema_version %d is newer than this schedreplay reads (%d); "
		     "update schedreplay", sc->schema_version, SIDECAR_SCHEMA_VERSION);

	/*
	 * The containers read below, when present and not null, of their type:
	 * another type read as absent, so a "cgroup.groups" that was a string
	 * replayed hackbench-shares without its groups' shares (sched_switch
	 * -6 % became -37 %), exit 0.
	 */
#define WANT(v, t, name)                                                          \
	do {                                                                      \
		const struct sv *w_ = (v);                                        \
		if (w_ && w_->type != SV_NULL && w_->type != (t))                 \
			FAIL(EINVAL, "\"%s\" is not %s", name,                     \
			     (t) == SV_ARR ? "a list" : "an object");             \
	} while (0)
	WANT(sv_get(root, "config"), SV_OBJ, "config");
	WANT(sv_get(root, "cpus"), SV_OBJ, "cpus");
	WANT(sv_get(sv_get(root, "cpus"), "numa_nodes"), SV_ARR, "cpus.numa_nodes");
	WANT(sv_get(sv_get(root, "trace"), "idle_switches"), SV_ARR, "trace.idle_switches");
	WANT(sv_get(root, "autogroup"), SV_OBJ, "autogroup");
	WANT(sv_get(root, "cgroup"), SV_OBJ, "cgroup");
	WANT(sv_get(sv_get(root, "cgroup"), "groups"), SV_ARR, "cgroup.groups");
	WANT(sv_get(root, "groups"), SV_ARR, "groups");
	WANT(sv_get(root, "command"), SV_OBJ, "command");
	WANT(sv_get(root, "function_counts"), SV_OBJ, "function_counts");
	WANT(sv_get(sv_get(root, "function_counts"), "counts"), SV_OBJ, "function_counts.counts");
	WANT(sv_get(root, "lost"), SV_OBJ, "lost");
#undef WANT
	return 0;
}

/* "trace", "kernel" and "config": the capture's window, kernel and HZ */
static int load_trace(struct sidecar *sc, const struct sv *root, const char **bad,
		      struct sr_error *err)
{
	const struct sv *o, *v;

	o = sv_get(root, "trace");
	if (!sv_is_obj(o))
		FAIL(EINVAL, "\"trace\" missing");
	v = sv_get(o, "events");
	for (size_t i = 0; sv_is_arr(v) && i < sv_array_size(v); i++)
		if (sv_str(sv_at(v, i)) &&
		    !strcmp(sv_str(sv_at(v, i)), "syscalls:sys_exit_sched_setaffinity"))
			sc->affinity_recorded = true;
	DUP_STR(sc->trace_file, sv_get(o, "file"));
	/*
	 * The id that ties the sidecar to its trace (sidecar_check_trace()):
	 * "0xzz", "", a number read as 0, "no id", and the check of a
	 * sidecar against another trace was skipped at exit 0 (fuzz40).
	 * null is "unknown", as report --json writes it.
	 */
	v = sv_get(o, "trace_id");
	if (v && !sv_is(v, SV_NULL)) {
		const char *id = sv_str(v);
		size_t hex = id && !strncmp(id, "0x", 2) ?
			     strspn(id + 2, "0123456789abcdefABCDEF") : 0;

		if (!hex || hex > 16 || id[2 + hex])
			FAIL(EINVAL, "trace.trace_id is not \"0x\" and 1..16 hex digits (the "
			     "trace.dat's TRACEID, as capture writes it)");
		sc->trace_id = strtoull(id, NULL, 16);
	}
	DUP_STR(sc->clock, sv_get(o, "clock"));
	sc->buffer_kb = (long)get_long(o, "buffer_kb_per_cpu", -1);
	if (sv_is_int(sv_get(o, "start_ts")) &&
	    sv_is_int(sv_get(o, "end_ts"))) {
		sc->have_window = true;
		sc->start_ts = (uint64_t)get_u63(o, "start_ts", 0);
		sc->end_ts = (uint64_t)get_u63(o, "end_ts", 0);
		if (sc->end_ts < sc->start_ts)
			FAIL(EINVAL, "trace.end_ts %llu is before trace.start_ts %llu",
			     (unsigned long long)sc->end_ts, (unsigned long long)sc->start_ts);
	}

	/* kernel */
	o = sv_get(root, "kernel");
	if (!sv_is_obj(o) || !sv_is_str(sv_get(o, "release")))
		FAIL(EINVAL, "\"kernel.release\" missing");
	DUP_STR(sc->kernel_release, sv_get(o, "release"));
	DUP_STR(sc->kernel_version, sv_get(o, "version"));
	DUP_STR(sc->machine, sv_get(o, "machine"));
	DUP_STR(sc->kernel_cmdline, sv_get(o, "cmdline"));
	o = sv_get(root, "config");
	sc->hz = (int)get_int(o, "hz", 0);
	/* 0: absent; else the range --hz takes (HZ_24 is the smallest CONFIG_HZ) */
	if (sc->hz != 0 && (sc->hz < 24 || sc->hz > 10000))
		FAIL(EINVAL, "config.hz %d outside 24..10000", sc->hz);
	DUP_STR(sc->no_hz, sv_get(o, "no_hz"));
	DUP_STR(sc->preempt, sv_get(o, "preempt"));
	return 0;
}

/* "cpus": the topology; "trace.idle_switches": each CPU's idle switches */
static int cpulist_walk(const char *list, int nr_cpus, int *nr, int *first, int *last,
			uint64_t *mask);

static int load_cpus(struct sidecar *sc, const struct sv *root, const char **bad,
		     struct sr_error *err)
{
	const struct sv *o, *a, *v;
	size_t i;

	o = sv_get(root, "cpus");
	a = sv_get(o, "topology");
	if (!sv_is_arr(a) || !sv_array_size(a))
		FAIL(EINVAL, "\"cpus.topology\" missing or empty");
	sc->nr_cpus = (int)sv_array_size(a);
	sc->cpus = calloc((size_t)sc->nr_cpus, sizeof(*sc->cpus));
	if (!sc->cpus)
		NOMEM();
	for (i = 0; i < (size_t)sc->nr_cpus; i++) {
		sc->cpus[i].cpu = (int)i;
		sc->cpus[i].numa_node = -1;
		sc->cpus[i].capacity = -1;
	}
	for (i = 0; (v = sv_at(a, i)); i++) {
		long long cpu = get_int(v, "cpu", -1);
		struct sidecar_cpu *c;
		const struct sv *online = sv_get(v, "online");

		if (cpu < 0 || cpu >= sc->nr_cpus)
			FAIL(EINVAL, "cpus.topology[%zu].cpu %lld out of range 0..%d", i, cpu,
			     sc->nr_cpus - 1);
		c = &sc->cpus[cpu];
		/* the second entry's smt_siblings leaked over the first's; CPU cpu+k had none */
		if (c->listed)
			FAIL(EINVAL, "cpus.topology[%zu].cpu %lld is listed twice", i, cpu);
		c->listed = true;
		c->online = !sv_is_false(online);
		c->package = (int)get_int(v, "package", -1);
		c->die = (int)get_int(v, "die", -1);
		c->cluster = (int)get_int(v, "cluster", -1);
		c->core = (int)get_int(v, "core", -1);
		c->numa_node = (int)get_int(v, "numa_node", -1);
		c->capacity = (int)get_int(v, "capacity", -1);
		DUP_STR(c->smt_siblings, sv_get(v, "smt_siblings"));
	}
	sc->nr_numa_nodes = (int)sv_array_size(sv_get(o, "numa_nodes"));
	/*
	 * nr_cpu_ids from cpus.possible (sysfs' cpulist; null if unreadable,
	 * absent in hand-made sidecars: cpus.topology's count).  The
	 * topology lists the present CPUs, a subset of the possible ones.
	 */
	sc->nr_cpu_ids = sc->nr_cpus;
	v = sv_get(o, "possible");
	if (v && v->type != SV_NULL) {
		int n, first, last;

		if (!sv_str(v) || cpulist_walk(sv_str(v), 65536, &n, &first, &last, NULL) < 0 ||
		    last + 1 < sc->nr_cpus)
			FAIL(EINVAL, "cpus.possible is not a CPU list (\"0-3\") covering "
			     "cpus.topology's %d CPUs, or null", sc->nr_cpus);
		sc->nr_cpu_ids = last + 1;
	}
	for (i = 0; i < (size_t)sc->nr_cpus; i++)
		sc->cpus[i].from_idle = sc->cpus[i].to_idle = -1;
	a = sv_get(sv_get(root, "trace"), "idle_switches");
	for (i = 0; (v = sv_at(a, i)); i++) {
		long long cpu = get_int(v, "cpu", -1);

		if (cpu < 0 || cpu >= sc->nr_cpus)
			FAIL(EINVAL, "trace.idle_switches[%zu].cpu %lld out of range 0..%d", i, cpu,
			     sc->nr_cpus - 1);
		sc->cpus[cpu].from_idle = get_int(v, "from_idle", -1);
		sc->cpus[cpu].to_idle = get_int(v, "to_idle", -1);
		sc->cpus[cpu].idle_exit_untraced =
			sv_is_true(sv_get(v, "idle_exit_untraced"));
	}
	return 0;
}

/* "autogroup" and "cgroup": the cgroups with their shares and quotas */
static int load_cgroups(struct sidecar *sc, const struct sv *root, const char **bad,
			struct sr_error *err)
{
	const struct sv *o, *a, *v;
	size_t i;

	/* a boolean or null (fuzz51: "yes" and 5 were read as disabled at exit 0) */
	v = sv_get(sv_get(root, "autogroup"), "enabled");
	if (v && v->type != SV_NULL && v->type != SV_TRUE && v->type != SV_FALSE)
		FAIL(EINVAL, "autogroup.enabled is not true, false or null");
	sc->autogroup_enabled = sv_is_true(v);
	o = sv_get(root, "cgroup");
	sc->cgroup_version = (int)get_int(o, "version", 0);
	sc->cgroup_hierarchy_id = (int)get_int(o, "hierarchy_id", -1);
	a = sv_get(o, "groups");
	sc->nr_cgroups = sv_array_size(a);
	sc->cgroups = calloc(sc->nr_cgroups + 1, sizeof(*sc->cgroups));
	if (!sc->cgroups)
		NOMEM();
	for (i = 0; (v = sv_at(a, i)); i++) {
		struct sidecar_cgroup *g = &sc->cgroups[i];
		long shares = (long)get_long(v, "shares", -1);
		long weight = (long)get_long(v, "weight", -1);

		long quota = (long)get_long(v, "quota_us", -1);
		long period = (long)get_long(v, "period_us", -1);

		DUP_STR(g->path, sv_get(v, "path"));
		if (!g->path)
			FAIL(EINVAL, "cgroup.groups[%zu].path missing", i);
		/*
		 * Only values a kernel reports (-1: absent): sched_group_set_shares()
		 * keeps shares in MIN_SHARES..MAX_SHARES, cpu.weight is 1..10000, and
		 * tg_set_cfs_bandwidth() takes a period of 1 ms..1 s and a quota of
		 * 1 ms..max_cfs_runtime.  Beyond them the unit conversion below
		 * overflowed (UB) and the replay's quota in ns wrapped to another,
		 * valid-looking limit; a quota without its period was silently no limit.
		 */
		if (shares != -1 && (shares < 2 || shares > 262144))
			FAIL(EINVAL, "cgroup.groups[%zu].shares %ld outside the kernel's 2..262144", i,
			     shares);
		if (weight != -1 && (weight < 1 || weight > 10000))
			FAIL(EINVAL, "cgroup.groups[%zu].weight %ld outside the kernel's 1..10000", i,
			     weight);
		if (quota != -1 && (quota < 1000 || quota > SIDECAR_MAX_QUOTA_US))
			FAIL(EINVAL, "cgroup.groups[%zu].quota_us %ld outside the kernel's -1 (none) "
			     "or 1000..%lld us", i, quota, SIDECAR_MAX_QUOTA_US);
		if (period != -1 && (period < 1000 || period > 1000000))
			FAIL(EINVAL, "cgroup.groups[%zu].period_us %ld outside the kernel's "
			     "1000..1000000 us", i, period);
		/* a period that is not an integer reads as absent: say that, not this */
		if (quota != -1 && period == -1 && !*bad)
			FAIL(EINVAL, "cgroup.groups[%zu] has a quota_us but no period_us", i);
		/* the other unit by the kernel's rule: weight 100 = shares 1024 */
		g->shares = shares >= 0 ? shares : weight >= 0 ? (weight * 1024 + 50) / 100 : -1;
		g->weight = weight >= 0 ? weight : shares >= 0 ? (shares * 100 + 512) / 1024 : -1;
		g->quota_us = quota;
		g->period_us = period;
		g->nr_tasks = (int)get_int(v, "nr_tasks", -1);
	}
	return 0;
}

/* "groups" and "command": what capture ran */
static int load_groups(struct sidecar *sc, const struct sv *root, const char **bad,
		       struct sr_error *err)
{
	const struct sv *a, *v;
	size_t i;

	/* PID_MAX_LIMIT, as the snapshots' pids (sched_snap_check() looks it up there) */
	sc->capture_pid = (int)get_int_in(sv_get(root, "capture"), "pid", 0, 1, 4194304, bad);
	sc->capture_starttime = get_int_in(sv_get(root, "capture"), "starttime", -1, 0, INT64_MAX,
					   bad);
	a = sv_get(root, "groups");
	v = sv_get(root, "command");
	sc->nr_groups = sv_array_size(a) + (sv_is_obj(v) ? 1 : 0);
	sc->groups = calloc(sc->nr_groups + 1, sizeof(*sc->groups));
	if (!sc->groups)
		NOMEM();
	for (i = 0; i < sc->nr_groups; i++) {
		const struct sv *g = i < sv_array_size(a) ? sv_at(a, i) : v;
		struct sidecar_group *s = &sc->groups[i];

		DUP_STR(s->name, sv_get(g, "name"));
		if (!s->name)
			FAIL(EINVAL, "groups[%zu].name missing", i);
		DUP_STR(s->cgroup, sv_get(g, "cgroup"));
		DUP_STR(s->command, sv_get(g, "command"));
		s->shares = (long)get_long(g, "shares", -1);
		s->weight = (long)get_long(g, "weight", -1);
		s->pid = (int)get_int(g, "pid", -1);
		s->exit_status = (int)get_int(g, "exit_status", -1);
		s->signal = (int)get_int(g, "signal", 0);
		s->stopped_at_end = sv_is_true(sv_get(g, "stopped_at_end"));
	}
	return 0;
}

/* "tasks_at_start", sorted by pid */
static int load_tasks(struct sidecar *sc, const struct sv *root, const char **bad,
		      struct sr_error *err)
{
	const struct sv *a, *v;
	size_t i, len;

	a = sv_get(root, "tasks_at_start");
	if (!sv_is_arr(a))
		FAIL(EINVAL, "\"tasks_at_start\" missing");
	sc->nr_tasks = sv_array_size(a);
	sc->tasks = calloc(sc->nr_tasks + 1, sizeof(*sc->tasks));
	if (!sc->tasks)
		NOMEM();
	for (i = 0; (v = sv_at(a, i)); i++) {
		struct sidecar_task *t = &sc->tasks[i];
		const char *pol = sv_str(sv_get(v, "policy"));

		/*
		 * pid and tgid as sched_at_*'s (PID_MAX_LIMIT): a pid of 0 or
		 * 2^31-1 was read, a tgid of 0 or -1 dropped as "not known"
		 * by lat_tgid_seed() at exit 0 (fuzz50)
		 */
		t->pid = (int)get_int_in(v, "pid", -1, 1, 4194304, bad);
		if (t->pid < 0)
			FAIL(EINVAL, "tasks_at_start[%zu].pid missing or not a pid (1..4194304)", i);
		{
			const struct sv *g = sv_get(v, "tgid");
			long long x = t->pid;

			if (g && g->type != SV_NULL && !sv_int_in(g, 1, 4194304, &x))
				FAIL(EINVAL, "tasks_at_start[%zu].tgid is not a pid (1..4194304) or "
				     "null", i);
			t->tgid = (int)x;
		}
		DUP_STR(t->comm, sv_get(v, "comm"));
		DUP_STR(t->cgroup, sv_get(v, "cgroup"));
		/*
		 * the session's autogroup id (proc_sched_autogroup_show_task()'s
		 * "/autogroup-%ld": autogroup_create()'s atomic_inc_return() from 1;
		 * the default group prints nothing): 0 and -1 named a group
		 * "autogroup-0" / none at exit 0 (fuzz51)
		 */
		{
			const struct sv *g = sv_get(v, "autogroup");
			long long x = -1;

			if (g && g->type != SV_NULL && !sv_int_in(g, 1, INT_MAX, &x))
				FAIL(EINVAL, "tasks_at_start[%zu].autogroup is not an autogroup id "
				     "(1..%d) or null", i, INT_MAX);
			t->autogroup = (int)x;
		}
		t->nice = (int)get_int(v, "nice", 0);
		/* read for the replay's start state only: a bad value is unknown, not an error */
		{
			const struct sv *c = sv_get(v, "cpu");
			long long x;

			t->cpu = c && sv_int_in(c, 0, INT_MAX, &x) ? (int)x : -1;
		}
		if (!pol)
			pol = "unknown";
		/* snprintf("%s")'s truncation, without its format parsing (81 calls, 47 k) */
		len = strnlen(pol, sizeof(t->policy) - 1);
		memcpy(t->policy, pol, len);
		t->policy[len] = '\0';
	}
	qsort(sc->tasks, sc->nr_tasks, sizeof(*sc->tasks), cmp_task);
	/*
	 * The capture's walk keeps one entry per pid (cap_sched_dedup()): a
	 * pid twice took the second entry's tgid and cgroup at exit 0
	 * (fuzz50).  A tgid naming an unlisted pid, or a listed thread of
	 * another group, is read: the leader may exit, and its pid be reused,
	 * during the walk.
	 */
	for (i = 1; i < sc->nr_tasks; i++)
		if (sc->tasks[i].pid == sc->tasks[i - 1].pid)
			FAIL(EINVAL, "tasks_at_start lists pid %d twice", sc->tasks[i].pid);
	return 0;
}

/* "function_counts": the function tracer's entry counts */
static int load_funcs(struct sidecar *sc, const struct sv *root, const char **bad,
		      struct sr_error *err)
{
	const struct sv *o, *v;
	size_t i;

	(void)bad;      /* a count has its own message: not a count, or null */
	o = sv_get(root, "function_counts");
	v = sv_get(o, "available");
	/* a "true" or 1 was read as false: the counts dropped without a word */
	if (v && v->type != SV_TRUE && v->type != SV_FALSE && v->type != SV_NULL)
		FAIL(EINVAL, "function_counts.available is not true or false");
	sc->funcs_available = sv_is_true(v);
	if (!sc->funcs_available) {
		const char *why = sv_str(sv_get(o, "reason"));

		sc->funcs_reason = strdup(why ? why : "not recorded");
		if (!sc->funcs_reason)
			NOMEM();
	} else {
		const struct sv *counts = sv_get(o, "counts");

		sc->funcs = calloc(sv_object_size(counts) + 1, sizeof(*sc->funcs));
		if (!sc->funcs)
			NOMEM();
		for (i = 0; i < sv_object_size(counts); i++) {
			struct sidecar_func *f = &sc->funcs[sc->nr_funcs++];
			long long n = -1;

			v = &counts->u.kids[i];
			f->name = strdup(v->key);
			if (!f->name)
				NOMEM();
			/*
			 * null: not traceable (no count); else an entry count.
			 * Any other value was read as null: a count of -5,
			 * 1.5, "12" or true became "not traceable (inlined)"
			 * at exit 0.  At most 2^53: compared as doubles.
			 */
			if (v->type != SV_NULL &&
			    !sv_int_in(v, 0, SIDECAR_FUNC_COUNT_MAX, &n)) {
				char name[64];

				sr_esc(name, sizeof(name), v->key, SR_ESC_TEXT);
				FAIL(EINVAL, "function_counts.counts.%s is not a count (an integer "
				     "0..2^53, or null: not traceable)", name);
			}
			f->count = n;
		}
		/*
		 * A function the kernel renamed (the profiles' kernel names,
		 * model_profile_func_name(): Linux 6.10's sched_balance_*) is
		 * one kernel's name or the other's: a sidecar listing both
		 * would be compared under the name replay looks up first.
		 */
		for (i = 0; i < sc->nr_funcs; i++)
			for (unsigned int p = 0; p < model_profile_count(); p++) {
				const char *old = sc->funcs[i].name;
				const char *cur = model_profile_func_name(model_profile_at(p), old);

				if (strcmp(cur, old) && sidecar_func_listed(sc, cur))
					FAIL(EINVAL, "function_counts.counts has both %s and %s (one "
					     "function's names before and after its rename: a kernel "
					     "has one of them)", old, cur);
			}
	}
	return 0;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* "lost": the kernel's lost-event counters, in all and per CPU; then the
 * first key whose value was not an integer in range, which every step above
 * read as its default */
static int load_lost(struct sidecar *sc, const struct sv *root, const char **bad,
		     struct sr_error *err)
{
	static const char *const key[] = { "overrun", "dropped_events", "commit_overrun" };
	const struct sv *o, *a, *v;
	uint64_t tot[3] = { 0, 0, 0 };
	size_t i;

	o = sv_get(root, "lost");
	sc->lost_listed = sv_is_obj(o);
	sc->lost_overrun = (uint64_t)get_u63(o, "overrun", 0);
	sc->lost_dropped = (uint64_t)get_u63(o, "dropped_events", 0);
	sc->lost_commit_overrun = (uint64_t)get_u63(o, "commit_overrun", 0);
	sc->lost_events = add_sat(add_sat(sc->lost_overrun, sc->lost_dropped),
				  sc->lost_commit_overrun);
	sc->missed_pages = (uint64_t)get_u63(o, "pages_with_missed_events", 0);
	/*
	 * lost.per_cpu: compared with the trace's gaps CPU by CPU
	 * (sidecar_lost_compare()).  Read as strictly as the topology: a CPU
	 * out of range or listed twice, or a count that is not one, is an
	 * error, not a CPU without losses.
	 */
	a = sv_get(o, "per_cpu");
	if (a && a->type != SV_NULL) {
		if (!sv_is_arr(a))
			FAIL(EINVAL, "lost.per_cpu is not a list");
		sc->lost_per_cpu = calloc((size_t)sc->nr_cpus, sizeof(*sc->lost_per_cpu));
		if (!sc->lost_per_cpu)
			NOMEM();
		bool *seen = calloc((size_t)sc->nr_cpus, sizeof(*seen));

		if (!seen)
			NOMEM();
		for (i = 0; (v = sv_at(a, i)); i++) {
			long long cpu = -1, n;
			uint64_t sum = 0;

			const struct sv *cv = sv_get(v, "cpu");

			if (!sv_is_obj(v) || !cv || !sv_int_in(cv, 0, sc->nr_cpus - 1, &cpu) ||
			    seen[cpu]) {
				free(seen);
				FAIL(EINVAL, "lost.per_cpu[%zu].cpu is %s", i, !sv_is_obj(v) ?
				     "missing (the entry is not an object)" : !cv ? "missing" :
				     cpu < 0 ? "not a CPU of cpus.topology" : "listed twice");
			}
			seen[cpu] = true;
			for (size_t k = 0; k < sizeof(key) / sizeof(key[0]); k++) {
				const struct sv *c = sv_get(v, key[k]);

				n = 0;
				if (c && !sv_int_in(c, 0, LLONG_MAX, &n)) {
					free(seen);
					FAIL(EINVAL, "lost.per_cpu[%zu].%s is not a count", i, key[k]);
				}
				sum = add_sat(sum, (uint64_t)n);
				tot[k] = add_sat(tot[k], (uint64_t)n);
			}
			sc->lost_per_cpu[cpu] = sum;
		}
		free(seen);
	}
	if (*bad)
		FAIL(EINVAL, "\"%s\" is not an integer in range", *bad);
	/*
	 * The capture writes each total as the sum of its per-CPU counts; the
	 * comparison reads the per-CPU ones, so a total they do not add up to
	 * (lost.dropped_events 7, every CPU 0) went unsaid: 'lost: none' at
	 * exit 0.
	 */
	if (sc->lost_per_cpu) {
		const uint64_t want[3] = { sc->lost_overrun, sc->lost_dropped,
					   sc->lost_commit_overrun };

		for (size_t k = 0; k < sizeof(key) / sizeof(key[0]); k++)
			if (tot[k] != want[k])
				FAIL(EINVAL, "lost.%s is %" PRIu64 " but lost.per_cpu's %s add up "
				     "to %" PRIu64, key[k], want[k], key[k], tot[k]);
	}
	return 0;
}

static const char *const sched_keys[SIDECAR_SCHED_NR] = {
	[SIDECAR_SCHED_WEIGHT] = "weight",
	[SIDECAR_SCHED_LOAD_SUM] = "load_sum",
	[SIDECAR_SCHED_RUNNABLE_SUM] = "runnable_sum",
	[SIDECAR_SCHED_UTIL_SUM] = "util_sum",
	[SIDECAR_SCHED_LOAD_AVG] = "load_avg",
	[SIDECAR_SCHED_RUNNABLE_AVG] = "runnable_avg",
	[SIDECAR_SCHED_UTIL_AVG] = "util_avg",
	[SIDECAR_SCHED_LAST_UPDATE] = "last_update_time",
	[SIDECAR_SCHED_UTIL_EST] = "util_est",
	[SIDECAR_SCHED_EXEC_START] = "exec_start_ns",
	[SIDECAR_SCHED_SUM_EXEC] = "sum_exec_runtime_ns",
	[SIDECAR_SCHED_NR_MIGRATIONS] = "nr_migrations",
	[SIDECAR_SCHED_NR_SWITCHES] = "nr_switches",
	[SIDECAR_SCHED_NR_VOLUNTARY] = "nr_voluntary",
	[SIDECAR_SCHED_NR_INVOLUNTARY] = "nr_involuntary",
	[SIDECAR_SCHED_POLICY] = "policy",
	[SIDECAR_SCHED_PRIO] = "prio",
	[SIDECAR_SCHED_SLICE] = "slice_ns",
};

const char *sidecar_sched_key(int field)
{
	return field >= 0 && field < SIDECAR_SCHED_NR ? sched_keys[field] : NULL;
}

/*
 * The values proc_sched_show_task() can print, per field (fuzz41: any int64
 * was taken; load_sum 2^62 overflowed calc_group_shares()'s product in the
 * model, runnable_avg 2^62 update_cfs_rq_load_avg()'s negation, a counter of
 * -2^63 the deltas of pelt_check.c, last_update_time 2^63-1 its mapping to
 * the trace clock: signed overflows under UBSan, nonsense at exit 0 in a
 * release build).  The PELT sums are at most LOAD_AVG_MAX (47742) times
 * SCHED_CAPACITY_SCALE or, before 5.x, times a task's scaled-down weight
 * (<= 88761): below 2^32 (util_sum is a u32); a task's averages are at most
 * its scaled-down weight (88761) or 1024; util_est a u32 (its top bit is
 * UTIL_AVG_UNCHANGED); ns clocks and counters at most 2^62 (146 years); a
 * weight from SCHED_IDLE's 3 to nice -20's 88761, scaled by 1024 on 64-bit
 * (2^32 allowed); policy SCHED_NORMAL .. SCHED_EXT (7); prio -1 (deadline)
 * .. 139.
 */
static const long long sched_range[SIDECAR_SCHED_NR][2] = {
	[SIDECAR_SCHED_WEIGHT] = { 1, 1LL << 32 },
	[SIDECAR_SCHED_LOAD_SUM] = { 0, UINT32_MAX },
	[SIDECAR_SCHED_RUNNABLE_SUM] = { 0, UINT32_MAX },
	[SIDECAR_SCHED_UTIL_SUM] = { 0, UINT32_MAX },
	[SIDECAR_SCHED_LOAD_AVG] = { 0, 1 << 20 },
	[SIDECAR_SCHED_RUNNABLE_AVG] = { 0, 1 << 20 },
	[SIDECAR_SCHED_UTIL_AVG] = { 0, 1 << 20 },
	[SIDECAR_SCHED_LAST_UPDATE] = { 0, 1LL << 62 },
	[SIDECAR_SCHED_UTIL_EST] = { 0, UINT32_MAX },
	[SIDECAR_SCHED_EXEC_START] = { 0, 1LL << 62 },
	[SIDECAR_SCHED_SUM_EXEC] = { 0, 1LL << 62 },
	[SIDECAR_SCHED_NR_MIGRATIONS] = { 0, 1LL << 62 },
	[SIDECAR_SCHED_NR_SWITCHES] = { 0, 1LL << 62 },
	[SIDECAR_SCHED_NR_VOLUNTARY] = { 0, 1LL << 62 },
	[SIDECAR_SCHED_NR_INVOLUNTARY] = { 0, 1LL << 62 },
	[SIDECAR_SCHED_POLICY] = { 0, 7 },
	[SIDECAR_SCHED_PRIO] = { -1, 139 },
	[SIDECAR_SCHED_SLICE] = { 0, 1LL << 62 },
};

bool sidecar_sched_in_range(int field, int64_t v)
{
	return field >= 0 && field < SIDECAR_SCHED_NR && v >= sched_range[field][0] &&
	       v <= sched_range[field][1];
}

/* More than a capture writes (CAP_SCHED_MAX_THREADS, 2048), by far. */
#define SIDECAR_SCHED_MAX_TASKS 65536

static int cmp_sched_task(const void *a, const void *b)
{
	const struct sidecar_sched_task *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * An optional {"available": true, ...} | {"available": false, "reason"} object
 * @o at @name (absent or null: not listed, 0): *@listed, *@available, and
 * *@reason when unavailable; -1 with @err when it is not such an object.
 */
static int load_listed(const struct sv *o, const char *name, bool *listed, bool *available,
		       char **reason, struct sr_error *err)
{
	const struct sv *v;

	if (!o || o->type == SV_NULL)
		return 0;
	if (!sv_is_obj(o))
		FAIL(EINVAL, "%s is not an object", name);
	*listed = true;
	v = sv_get(o, "available");
	if (!sv_is_true(v) && !sv_is_false(v))
		FAIL(EINVAL, "%s.available is not true or false", name);
	*available = sv_is_true(v);
	if (!*available) {
		const char *why = sv_str(sv_get(o, "reason"));

		if (!(*reason = strdup(why ? why : "not recorded")))
			NOMEM();
	}
	return 0;
}

void sidecar_sched_masks_free(struct sidecar_sched *s)
{
	for (size_t i = 0; s->tasks && i < s->nr_tasks; i++) {
		free(s->tasks[i].allowed_mask);
		s->tasks[i].allowed_mask = NULL;
	}
}

/*
 * The walk of a cpulist; *@last (may be NULL) its highest CPU, counted or
 * not.  Ranges ascending and apart, as bitmap_print_to_pagebuf() prints
 * them: "0,0" was two CPUs and "1,0" a count of 2 against a mask of one
 * (fuzz50).
 */
static int cpulist_walk(const char *list, int nr_cpus, int *nr, int *first, int *last,
			uint64_t *mask)
{
	const char *p = list;
	long prev = -1;

	*nr = 0;
	*first = -1;
	if (last)
		*last = -1;
	if (mask)
		memset(mask, 0, SIDECAR_MASK_WORDS * sizeof(*mask));
	if (!p || !*p)
		return -1;
	for (;;) {
		long a, b;
		char *e;

		if (!isdigit((unsigned char)*p))
			return -1;
		a = b = strtol(p, &e, 10);
		p = e;
		if (*p == '-') {
			if (!isdigit((unsigned char)*++p))
				return -1;
			b = strtol(p, &e, 10);
			p = e;
		}
		if (a > 65535 || b > 65535 || b < a || a <= prev)
			return -1;
		prev = b;
		if (last)
			*last = (int)b;
		for (long c = a; c <= b && c < nr_cpus; c++) {
			if (*first < 0 || c < *first)
				*first = (int)c;
			if (mask && c < SIDECAR_MASK_WORDS * 64)
				mask[c / 64] |= 1ULL << (c % 64);
			++*nr;
		}
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

int sidecar_cpulist_parse(const char *list, int nr_cpus, int *nr, int *first)
{
	return cpulist_walk(list, nr_cpus, nr, first, NULL, NULL);
}

int sidecar_cpulist_mask(const char *list, int nr_cpus, int *nr, int *first, uint64_t *mask)
{
	return cpulist_walk(list, nr_cpus, nr, first, NULL, mask);
}

/*
 * "sched_at_start" / "sched_at_end" (absent in older sidecars: not listed).
 * A value is an integer or null; a task without a pid, a state that is not
 * one letter or a value of another type is an error naming it.
 */
static int load_sched_one(struct sidecar_sched *out, const struct sv *root, const char *name,
			  int nr_cpus, int nr_cpu_ids, struct sr_error *err)
{
	const struct sv *o = sv_get(root, name), *a, *v, *t;
	size_t i;

	if (load_listed(o, name, &out->listed, &out->available, &out->reason, err) < 0)
		return -1;
	if (!out->available)
		return 0;
	a = sv_get(o, "tasks");
	if (!sv_is_arr(a))
		FAIL(EINVAL, "%s.tasks missing", name);
	if (sv_array_size(a) > SIDECAR_SCHED_MAX_TASKS)
		FAIL(EINVAL, "%s.tasks has %zu entries, more than %d (a capture writes at most "
		     "2048)", name, sv_array_size(a), SIDECAR_SCHED_MAX_TASKS);
	out->tasks = calloc(sv_array_size(a) + 1, sizeof(*out->tasks));
	if (!out->tasks)
		NOMEM();
	for (i = 0; (t = sv_at(a, i)); i++) {
		struct sidecar_sched_task *e = &out->tasks[out->nr_tasks++];
		uint64_t mask[SIDECAR_MASK_WORDS];
		const char *st;
		long long x = 0;

		/* PID_MAX_LIMIT: pids are below it; a tgid of another type was the pid */
		v = sv_get(t, "pid");
		if (!v || !sv_int_in(v, 1, 4194304, &x))
			FAIL(EINVAL, "%s.tasks[%zu].pid missing or not a pid", name, i);
		e->pid = (int)x;
		v = sv_get(t, "tgid");
		if (v && v->type != SV_NULL && !sv_int_in(v, 1, 4194304, &x))
			FAIL(EINVAL, "%s.tasks[%zu].tgid is not a pid or null", name, i);
		e->tgid = v && v->type != SV_NULL ? (int)x : e->pid;
		v = sv_get(t, "state");
		st = sv_str(v);
		if (v && v->type != SV_NULL && (!st || strlen(st) != 1))
			FAIL(EINVAL, "%s.tasks[%zu].state is not one letter", name, i);
		e->state = st ? st[0] : 0;
		/*
		 * task_cpu() at the read: absent in sidecars before it was
		 * recorded; a CPU past cpus.topology (the capture writes at most
		 * 65535) was taken as unknown at exit 0
		 */
		e->cpu = -1;
		v = sv_get(t, "cpu");
		if (v && v->type != SV_NULL) {
			if (!sv_int_in(v, 0, nr_cpus > 0 ? nr_cpus - 1 : 65535, &x))
				FAIL(EINVAL, "%s.tasks[%zu].cpu is not a CPU of cpus.topology (0..%d) "
				     "or null", name, i, nr_cpus > 0 ? nr_cpus - 1 : 65535);
			e->cpu = (int)x;
		}
		/* stat's field 22: absent in sidecars written before 2026-12-05 */
		e->starttime = -1;
		v = sv_get(t, "starttime");
		if (v && v->type != SV_NULL) {
			if (!sv_int_in(v, 0, INT64_MAX, &x))
				FAIL(EINVAL, "%s.tasks[%zu].starttime is not a start time (stat "
				     "field 22, ticks after boot) or null", name, i);
			e->starttime = x;
		}
		/* Cpus_allowed_list: absent in sidecars written before 2026-12-05 */
		e->nr_allowed = e->allowed_cpu = -1;
		e->allowed_mask = NULL;
		v = sv_get(t, "cpus_allowed");
		if (v && v->type != SV_NULL) {
			int last;

			if (!sv_str(v) || cpulist_walk(sv_str(v), nr_cpus > 0 ? nr_cpus : 65536,
						       &e->nr_allowed, &e->allowed_cpu, &last,
						       mask) < 0)
				FAIL(EINVAL, "%s.tasks[%zu].cpus_allowed is not a CPU list (\"0-3\", "
				     "\"1\", \"0,2\", ascending) or null", name, i);
			/*
			 * A CPU past nr_cpu_ids (cpus.possible) no kernel mask
			 * holds; CPUs possible but not in cpus.topology (a VM's
			 * hot-pluggable ones) are dropped, but a mask of none of
			 * the machine's CPUs was "all CPUs" at exit 0 (fuzz50):
			 * set_cpus_allowed_ptr() keeps an active CPU in it.
			 */
			if (nr_cpu_ids > 0 && last >= nr_cpu_ids)
				FAIL(EINVAL, "%s.tasks[%zu].cpus_allowed \"%.32s\" names CPU %d, "
				     "past the machine's CPUs (cpus.possible: 0..%d)", name, i,
				     sv_str(v), last, nr_cpu_ids - 1);
			if (nr_cpus > 0 && !e->nr_allowed)
				FAIL(EINVAL, "%s.tasks[%zu].cpus_allowed \"%.32s\" names none of "
				     "cpus.topology's CPUs (0..%d)", name, i, sv_str(v), nr_cpus - 1);
		}
		/* several CPUs but not all: the mask itself (p->cpus_mask) */
		if (e->nr_allowed > 1 && (nr_cpus <= 0 || e->nr_allowed < nr_cpus)) {
			if (!(e->allowed_mask = malloc(sizeof(mask))))
				NOMEM();
			memcpy(e->allowed_mask, mask, sizeof(mask));
		}
		for (int f = 0; f < SIDECAR_SCHED_NR; f++) {
			v = sv_get(t, sched_keys[f]);
			if (!v || v->type == SV_NULL)
				continue;
			if (!sv_int_in(v, INT64_MIN, INT64_MAX, &x))
				FAIL(EINVAL, "%s.tasks[%zu].%s is not an integer or null", name, i,
				     sched_keys[f]);
			if (!sidecar_sched_in_range(f, x))
				FAIL(EINVAL, "%s.tasks[%zu].%s %lld is outside %lld..%lld, which no "
				     "kernel prints", name, i, sched_keys[f], x, sched_range[f][0],
				     sched_range[f][1]);
			e->v[f] = x;
			e->have[f] = true;
		}
	}
	qsort(out->tasks, out->nr_tasks, sizeof(*out->tasks), cmp_sched_task);
	/* sidecar_sched_find() found either of two entries of one pid (fuzz41) */
	for (i = 1; i < out->nr_tasks; i++)
		if (out->tasks[i].pid == out->tasks[i - 1].pid)
			FAIL(EINVAL, "%s.tasks lists pid %d twice", name, out->tasks[i].pid);
	return 0;
}

static int load_sched(struct sidecar *sc, const struct sv *root, const char **bad,
		      struct sr_error *err)
{
	(void)bad;
	if (load_sched_one(&sc->sched_start, root, "sched_at_start", sc->nr_cpus, sc->nr_cpu_ids,
			   err) < 0)
		return -1;
	return load_sched_one(&sc->sched_end, root, "sched_at_end", sc->nr_cpus, sc->nr_cpu_ids,
			      err);
}

/*
 * "sched_debug" (capture/cap_sched_debug.c; absent in older sidecars: not
 * listed).  Only the group queues' fields the replay compares are kept.
 */
static const char *const sd_keys[SIDECAR_SD_NR] = {
	"load_avg", "runnable_avg", "util_avg", "tg_load_avg_contrib", "tg_load_avg",
	"se.load.weight", "se.avg.load_avg", "se.avg.util_avg", "nr_queued", "h_nr_queued",
	"h_nr_runnable",
};
/* older kernels' names of the same fields (6.5's print_cfs_rq()) */
static const char *const sd_old_keys[SIDECAR_SD_NR] = {
	[SIDECAR_SD_NR_QUEUED] = "nr_running", [SIDECAR_SD_H_NR_QUEUED] = "h_nr_running",
};

const char *sidecar_sd_key(int field)
{
	return field >= 0 && field < SIDECAR_SD_NR ? sd_keys[field] : NULL;
}

/* More than a capture writes (it stops past a quarter of the value bound). */
#define SIDECAR_SD_MAX_READS 100000
#define SIDECAR_SD_MAX_PATHS 4096
/* a sched_debug CPU without cpus.topology: the snapshots' bound (load_sched_one()) */
#define SIDECAR_SD_MAX_CPU 65535
/* |value| bound: tg_load_avg sums up to 2^20 per CPU, a weight is below 2^32 x 1024 */
#define SIDECAR_SD_MAX_VALUE (1LL << 50)

void sidecar_sched_debug_release(struct sidecar_sched_debug *sd)
{
	for (size_t i = 0; sd->paths && i < sd->nr_paths; i++)
		free(sd->paths[i]);
	for (size_t i = 0; sd->reads && i < sd->nr_reads; i++)
		free(sd->reads[i].rows);
	free(sd->paths);
	free(sd->reads);
	free(sd->reason);
	memset(sd, 0, sizeof(*sd));
}

int sidecar_sched_debug_copy(struct sidecar_sched_debug *to,
			     const struct sidecar_sched_debug *from)
{
	*to = *from;
	to->reason = NULL;
	to->paths = NULL;
	to->reads = NULL;
	to->nr_paths = to->nr_reads = 0;
	if (from->reason && !(to->reason = strdup(from->reason)))
		goto fail;
	if (from->nr_paths && !(to->paths = calloc(from->nr_paths, sizeof(*to->paths))))
		goto fail;
	for (; to->nr_paths < from->nr_paths; to->nr_paths++)
		if (!(to->paths[to->nr_paths] = strdup(from->paths[to->nr_paths])))
			goto fail;
	if (from->nr_reads && !(to->reads = calloc(from->nr_reads, sizeof(*to->reads))))
		goto fail;
	for (; to->nr_reads < from->nr_reads; to->nr_reads++) {
		const struct sidecar_sd_read *f = &from->reads[to->nr_reads];
		struct sidecar_sd_read *t = &to->reads[to->nr_reads];

		*t = *f;
		t->rows = NULL;
		if (f->nr_rows && !(t->rows = malloc(f->nr_rows * sizeof(*t->rows))))
			goto fail;
		if (f->nr_rows)
			memcpy(t->rows, f->rows, f->nr_rows * sizeof(*t->rows));
	}
	return 0;
fail:
	sidecar_sched_debug_release(to);
	return -1;
}

static int sd_path_index(struct sidecar_sched_debug *sd, const char *path, uint32_t *out)
{
	size_t i;

	for (i = 0; i < sd->nr_paths; i++)
		if (!strcmp(sd->paths[i], path))
			break;
	if (i == sd->nr_paths) {
		char **p;

		if (sd->nr_paths >= SIDECAR_SD_MAX_PATHS)
			return 1;
		if (!(p = realloc(sd->paths, (sd->nr_paths + 1) * sizeof(*p))))
			return -1;
		sd->paths = p;
		if (!(p[sd->nr_paths] = strdup(path)))
			return -1;
		sd->nr_paths++;
	}
	*out = (uint32_t)i;
	return 0;
}

/*
 * The largest CPU number a sched_debug read may name, which sizes the
 * duplicate check's array: cpus.topology's last CPU, or without a topology
 * the largest "cpu" of the file's reads that is a CPU number at all
 * (0..SIDECAR_SD_MAX_CPU, as the snapshots' bound; load_sd_reads() refuses
 * the others).  Sizing it from the CPU count alone took a topology-less
 * sidecar's CPUs as 0 only (fuzz51).
 */
static int sd_cpu_bound(const struct sidecar *sc, const struct sv *o)
{
	const struct sv *rd, *c, *v;
	long long x;
	int max = 0;

	if (sc->nr_cpus > 0)
		return sc->nr_cpus - 1;
	for (size_t i = 0; (rd = sv_at(sv_get(o, "reads"), i)); i++)
		for (size_t k = 0; (c = sv_at(sv_get(rd, "cpus"), k)); k++)
			if ((v = sv_get(c, "cpu")) && sv_int_in(v, 0, SIDECAR_SD_MAX_CPU, &x) &&
			    x > max)
				max = (int)x;
	return max;
}

static int load_sd_reads(struct sidecar *sc, const struct sv *o, uint64_t *cpu_stamp,
			 uint64_t *path_stamp, struct sr_error *err);

static int load_sched_debug(struct sidecar *sc, const struct sv *root, const char **bad,
			    struct sr_error *err)
{
	struct sidecar_sched_debug *sd = &sc->sched_debug;
	const struct sv *o = sv_get(root, "sched_debug");
	int ret;

	(void)bad;
	if (load_listed(o, "sched_debug", &sd->listed, &sd->available, &sd->reason, err) < 0)
		return -1;
	if (!sd->available)
		return 0;
	/*
	 * Per read, the stamp of the (cpus entry) that last named each CPU and
	 * each path: print_cpu() prints a CPU once, print_cfs_rq() a group's
	 * queue once per CPU.  A CPU twice had its rows compared twice, a path
	 * twice on one CPU one row or the other, at exit 0 (fuzz50).
	 */
	{
		uint64_t *cpu_stamp = calloc((size_t)sd_cpu_bound(sc, o) + 1, sizeof(*cpu_stamp));
		uint64_t *path_stamp = calloc(SIDECAR_SD_MAX_PATHS, sizeof(*path_stamp));

		if (!cpu_stamp || !path_stamp) {
			free(cpu_stamp);
			free(path_stamp);
			NOMEM();
		}
		ret = load_sd_reads(sc, o, cpu_stamp, path_stamp, err);
		free(cpu_stamp);
		free(path_stamp);
		return ret;
	}
}

static int load_sd_reads(struct sidecar *sc, const struct sv *o, uint64_t *cpu_stamp,
			 uint64_t *path_stamp, struct sr_error *err)
{
	struct sidecar_sched_debug *sd = &sc->sched_debug;
	const struct sv *v, *a, *rd;
	uint64_t stamp = 0;
	long long x = 0;

	v = sv_get(o, "every_ms");
	if (v && v->type != SV_NULL) {
		if (!sv_int_in(v, 0, 86400000, &x))
			FAIL(EINVAL, "sched_debug.every_ms is not a number of ms (0..86400000) or null");
		sd->every_ms = (long)x;
	}
	a = sv_get(o, "reads");
	if (!sv_is_arr(a))
		FAIL(EINVAL, "sched_debug.reads missing");
	if (sv_array_size(a) > SIDECAR_SD_MAX_READS)
		FAIL(EINVAL, "sched_debug.reads has %zu entries, more than %d", sv_array_size(a),
		     SIDECAR_SD_MAX_READS);
	if (sv_array_size(a) && !(sd->reads = calloc(sv_array_size(a), sizeof(*sd->reads))))
		NOMEM();
	for (size_t i = 0; (rd = sv_at(a, i)); i++) {
		struct sidecar_sd_read *r = &sd->reads[sd->nr_reads++];
		const struct sv *cpus, *c;
		const char *at = sv_str(sv_get(rd, "at"));
		size_t nrows = 0;

		if (!at || (strcmp(at, "start") && strcmp(at, "during") && strcmp(at, "end")))
			FAIL(EINVAL, "sched_debug.reads[%zu].at is not \"start\", \"during\" or \"end\"", i);
		r->at = !strcmp(at, "start") ? SIDECAR_SD_START :
			!strcmp(at, "end") ? SIDECAR_SD_END : SIDECAR_SD_DURING;
		v = sv_get(sv_get(rd, "header"), "sched_clk");
		if (!v || !sv_int_in(v, 0, INT64_MAX, &x))
			FAIL(EINVAL, "sched_debug.reads[%zu].header.sched_clk missing or not a "
			     "sched_clock() ns value", i);
		r->sched_clk = (uint64_t)x;
		/* optional: how long the read took (the capture writes it; 0: unknown) */
		v = sv_get(rd, "read_us");
		if (v && v->type != SV_NULL && !sv_int_in(v, 0, 10000000, &x))
			FAIL(EINVAL, "sched_debug.reads[%zu].read_us is not a duration in us "
			     "(0..10000000)", i);
		r->read_ns = v && v->type != SV_NULL ? (uint64_t)x * 1000 : 0;
		cpus = sv_get(rd, "cpus");
		if (!sv_is_arr(cpus))
			FAIL(EINVAL, "sched_debug.reads[%zu].cpus missing", i);
		for (size_t k = 0; (c = sv_at(cpus, k)); k++)
			nrows += sv_array_size(sv_get(c, "cfs_rqs"));
		if (nrows && !(r->rows = calloc(nrows, sizeof(*r->rows))))
			NOMEM();
		for (size_t k = 0; (c = sv_at(cpus, k)); k++) {
			const struct sv *qs = sv_get(c, "cfs_rqs"), *q;
			int cpu;

			v = sv_get(c, "cpu");
			if (!v || !sv_int_in(v, 0, sc->nr_cpus > 0 ? sc->nr_cpus - 1 : SIDECAR_SD_MAX_CPU,
					     &x)) {
				if (sc->nr_cpus > 0)
					FAIL(EINVAL, "sched_debug.reads[%zu].cpus[%zu].cpu is not a CPU "
					     "of cpus.topology (0..%d)", i, k, sc->nr_cpus - 1);
				FAIL(EINVAL, "sched_debug.reads[%zu].cpus[%zu].cpu is not a CPU "
				     "number (0..%d)", i, k, SIDECAR_SD_MAX_CPU);
			}
			cpu = (int)x;
			if (cpu_stamp[cpu] == i + 1)
				FAIL(EINVAL, "sched_debug.reads[%zu].cpus lists CPU %d twice", i, cpu);
			cpu_stamp[cpu] = i + 1;
			stamp++;
			for (size_t j = 0; (q = sv_at(qs, j)); j++) {
				struct sidecar_sd_row *row = &r->rows[r->nr_rows++];
				const struct sv *fl = sv_get(q, "fields");
				const char *path = sv_str(sv_get(q, "path"));
				int rc;

				if (!path || path[0] != '/')
					FAIL(EINVAL, "sched_debug.reads[%zu].cpus[%zu].cfs_rqs[%zu].path "
					     "missing or not a path", i, k, j);
				if ((rc = sd_path_index(sd, path, &row->path)) < 0)
					NOMEM();
				if (rc)
					FAIL(EINVAL, "sched_debug names more than %d group paths",
					     SIDECAR_SD_MAX_PATHS);
				/* the kernel's "..." of a path cut short may name two groups */
				if (path_stamp[row->path] == stamp &&
				    (strlen(path) < 3 || strcmp(path + strlen(path) - 3, "...")))
					FAIL(EINVAL, "sched_debug.reads[%zu].cpus[%zu].cfs_rqs[%zu].path "
					     "names a group listed before on CPU %d", i, k, j, cpu);
				path_stamp[row->path] = stamp;
				row->cpu = cpu;
				for (int f = 0; f < SIDECAR_SD_NR; f++) {
					v = sv_get(fl, sd_keys[f]);
					if (!v && sd_old_keys[f])
						v = sv_get(fl, sd_old_keys[f]);
					if (!v || v->type == SV_NULL)
						continue;
					if (!sv_int_in(v, -SIDECAR_SD_MAX_VALUE, SIDECAR_SD_MAX_VALUE, &x) ||
					    (x < 0 && f != SIDECAR_SD_TG_LOAD_AVG))
						FAIL(EINVAL, "sched_debug.reads[%zu].cpus[%zu].cfs_rqs[%zu]"
						     ".fields.%s is not an integer in %s..%lld, which no "
						     "kernel prints", i, k, j, sd_keys[f],
						     f == SIDECAR_SD_TG_LOAD_AVG ? "-2^50" : "0",
						     SIDECAR_SD_MAX_VALUE);
					row->v[f] = x;
					row->have[f] = true;
				}
			}
		}
	}
	return 0;
}

/*
 * "cpu_time" (capture/cap_cputime.c): read as strictly as lost.per_cpu
 * when present and available; absent or {"available": false}: none.
 */
enum { CT_BAD = 1, CT_TWICE, CT_NOT_AT_START, CT_HUGE, CT_BACK };

/* One read (@k 0: at_start, 1: at_end) into cpu_time[].x[k]; 0, or CT_* with *@at. */
static int load_cpu_time_one(struct sidecar *sc, const struct sv *a, int k, bool *seen,
			     size_t *at)
{
	static const char *const key[] = { "irq", "softirq", "steal" };
	const struct sv *v;

	for (size_t i = 0; (v = sv_at(a, i)); i++) {
		const struct sv *cv = sv_get(v, "cpu");
		long long cpu = -1, n[3];

		*at = i;
		if (!sv_is_obj(v) || !cv || !sv_int_in(cv, 0, sc->nr_cpus - 1, &cpu))
			return CT_BAD;
		for (size_t j = 0; j < 3; j++) {
			const struct sv *c = sv_get(v, key[j]);

			if (!c || !sv_int_in(c, 0, LLONG_MAX, &n[j]))
				return CT_BAD;
		}
		/*
		 * show_stat() prints a u64 of ns as nsec_to_clock_t(): at most
		 * 2^64 / 10^9 * USER_HZ ticks (a larger one saturated the
		 * replay's ns to 2^64: "steal 18446744073710 ms")
		 */
		for (size_t j = 0; j < 3; j++)
			if ((double)n[j] > 18446744073.709551615 * (double)sc->cpu_time_user_hz)
				return CT_HUGE;
		if (seen[cpu])
			return CT_TWICE;
		if (k == 1 && !sc->cpu_time[cpu].have)
			return CT_NOT_AT_START;
		/* kcpustat counters only grow: an end below the start was read as 0 at exit 0 */
		if (k == 1 && ((uint64_t)n[0] < sc->cpu_time[cpu].irq[0] ||
			       (uint64_t)n[1] < sc->cpu_time[cpu].softirq[0] ||
			       (uint64_t)n[2] < sc->cpu_time[cpu].steal[0]))
			return CT_BACK;
		seen[cpu] = true;
		sc->cpu_time[cpu].irq[k] = (uint64_t)n[0];
		sc->cpu_time[cpu].softirq[k] = (uint64_t)n[1];
		sc->cpu_time[cpu].steal[k] = (uint64_t)n[2];
		sc->cpu_time[cpu].have = k == 0;   /* at the end: set below, for both reads */
	}
	return 0;
}

static int load_cpu_time(struct sidecar *sc, const struct sv *root, const char **bad,
			 struct sr_error *err)
{
	static const char *const why[] = {
		[CT_BAD] = "is not {cpu, irq, softirq, steal} of a CPU of cpus.topology",
		[CT_TWICE] = "lists its CPU twice",
		[CT_NOT_AT_START] = "is a CPU the start read does not list",
		[CT_HUGE] = "has a count past 2^64 ns in USER_HZ ticks, which no kernel prints",
		[CT_BACK] = "is below the start read of its CPU: /proc/stat's counters do not go "
			    "back, so the two reads are not one capture's",
	};
	const struct sv *o = sv_get(root, "cpu_time"), *av, *a0, *a1, *hz;
	long long uhz;
	bool *seen;
	size_t at = 0;
	int r = 0, k;

	(void)bad;
	if (!o || o->type == SV_NULL)
		return 0;
	if (!sv_is_obj(o))
		FAIL(EINVAL, "cpu_time is not an object");
	av = sv_get(o, "available");
	if (!av || av->type != SV_TRUE)
		return 0;
	a0 = sv_get(o, "at_start");
	a1 = sv_get(o, "at_end");
	if (!sv_is_arr(a0) || !sv_is_arr(a1))
		FAIL(EINVAL, "cpu_time.at_start/at_end is not a list");
	/* /proc/stat lists every online CPU, the reader's too: an empty read said nothing */
	if (!sv_array_size(a0) || !sv_array_size(a1))
		FAIL(EINVAL, "cpu_time.%s lists no CPU (/proc/stat lists at least the one that "
		     "read it)", sv_array_size(a0) ? "at_end" : "at_start");
	hz = sv_get(o, "user_hz");
	if (!hz || !sv_int_in(hz, 1, 1000000, &uhz))
		FAIL(EINVAL, "cpu_time.user_hz is not a positive integer");
	sc->cpu_time_user_hz = (long)uhz;
	if (sc->nr_cpus <= 0)
		return 0;
	if (!(sc->cpu_time = calloc((size_t)sc->nr_cpus, sizeof(*sc->cpu_time))))
		NOMEM();
	if (!(seen = calloc((size_t)sc->nr_cpus, sizeof(*seen))))
		NOMEM();
	for (k = 0; k < 2 && !r; k++) {
		memset(seen, 0, (size_t)sc->nr_cpus * sizeof(*seen));
		r = load_cpu_time_one(sc, k ? a1 : a0, k, seen, &at);
	}
	/* a CPU of both reads is compared; of the start read only, not */
	for (int c = 0; !r && c < sc->nr_cpus; c++)
		sc->cpu_time[c].have = seen[c];
	free(seen);
	if (r) {
		free(sc->cpu_time);
		sc->cpu_time = NULL;
		FAIL(EINVAL, "cpu_time.%s[%zu] %s", k == 1 ? "at_start" : "at_end", at, why[r]);
	}
	return 0;
}

#undef get_int
#undef get_long
#undef get_u63
#undef DUP_STR
#undef NOMEM
#undef FAIL

const struct sidecar_sched_task *sidecar_sched_find(const struct sidecar_sched *s, int pid)
{
	struct sidecar_sched_task key = { .pid = pid };

	if (!s || !s->nr_tasks)
		return NULL;
	return bsearch(&key, s->tasks, s->nr_tasks, sizeof(*s->tasks), cmp_sched_task);
}

bool sidecar_sched_asleep(const struct sidecar_sched_task *k)
{
	return k->state == 'S' || k->state == 'D' || k->state == 'I';
}

struct sidecar *sidecar_load(const char *path, struct sr_error *err)
{
	static int (*const step[])(struct sidecar *, const struct sv *, const char **,
				   struct sr_error *) = {
		load_header, load_trace, load_cpus, load_cgroups, load_groups, load_tasks,
		load_funcs, load_lost, load_sched, load_sched_debug, load_cpu_time,
	};
	struct sidecar *sc = NULL;
	struct sv_doc d;
	const char *bad = NULL;        /* the first key whose value is not a valid integer */

	if (sidecar_parse(path, &d, err) < 0)
		return NULL;
	if ((d.json && !sv_from_json(&d, d.json, &d.root)) || !(sc = calloc(1, sizeof(*sc))) ||
	    !(sc->path = strdup(path))) {
		sr_error_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++)
		if (step[i](sc, &d.root, &bad, err) < 0)
			goto fail;
	sv_doc_release(&d);
	return sc;
fail:
	sr_error_prefix(err, "%s", path);
	sv_doc_release(&d);
	sidecar_free(sc);
	return NULL;
}

int sidecar_check_trace(const struct sidecar *sc, const struct trace_info *in,
			const char *trace_path, bool *id_checked, struct sr_error *err)
{
	const char *path = trace_path ? trace_path : "trace";

	if (id_checked)
		*id_checked = false;
	if (!sc || !in)
		return 0;
	if (in->has_trace_id && sc->trace_id) {
		if (in->trace_id != sc->trace_id) {
			sr_error_set(err, EINVAL, "%s: sidecar %s belongs to another trace (its "
				     "trace_id 0x%016" PRIx64 ", the trace's TRACEID 0x%016" PRIx64
				     "; --no-sidecar ignores it)", path, sc->path, sc->trace_id,
				     in->trace_id);
			return -1;
		}
		if (id_checked)
			*id_checked = true;
	}
	if (sc->nr_cpus > 0 && in->cpus > 0 && sc->nr_cpus != in->cpus) {
		sr_error_set(err, EINVAL, "%s: sidecar %s describes %d CPUs, the trace %d (%s): it "
			     "is another capture's (--sidecar FILE names this trace's, --no-sidecar "
			     "ignores it)", path, sc->path, sc->nr_cpus, in->cpus,
			     in->cpus_from ? in->cpus_from : "trace header");
		return -1;
	}
	return 0;
}

/* @cpu is listed and offline (@sc may be NULL) */
static bool sidecar_cpu_offline(const struct sidecar *sc, int cpu)
{
	return sc && cpu >= 0 && cpu < sc->nr_cpus && sc->cpus[cpu].listed &&
	       !sc->cpus[cpu].online;
}

int sidecar_nr_offline(const struct sidecar *sc)
{
	int n = 0;

	for (int c = 0; sc && c < sc->nr_cpus; c++)
		n += sidecar_cpu_offline(sc, c);
	return n;
}

int32_t sidecar_event_offline_cpu(const struct sidecar *sc, const struct trace_event *ev,
				  const char *where, struct sr_error *err)
{
	int32_t c[3];

	trace_event_cpus(ev, c);
	for (int i = 0; i < 3; i++)
		if (sidecar_cpu_offline(sc, c[i])) {
			sr_error_set(err, EINVAL, "%s: %s at %" PRIu64 ".%09" PRIu64 " s names CPU "
				     "%d, which sidecar %s lists offline: the CPU came online during "
				     "the capture or the sidecar is not this trace's (--no-sidecar "
				     "ignores it)", where, ev->name ? ev->name : "an event",
				     ev->ts / 1000000000, ev->ts % 1000000000, c[i], sc->path);
			return c[i];
		}
	return -1;
}

int sidecar_last_online_cpu(const struct sidecar *sc, struct sr_error *err)
{
	int last = -1, hole = -1;

	for (int c = 0; c < sc->nr_cpus; c++) {
		if (!sidecar_cpu_offline(sc, c))
			last = c;
		else if (hole < 0)
			hole = c;
	}
	if (last < 0) {
		sr_error_set(err, EINVAL, "%s: cpus.topology lists no online CPU", sc->path);
		return -1;
	}
	if (hole >= 0 && hole < last) {
		sr_error_set(err, EINVAL, "%s: CPU %d is offline (cpus.topology[%d].online false) "
			     "but CPU %d above it is online: the replay simulates the online CPUs "
			     "0..N only, not a machine with a hole (--no-sidecar simulates every "
			     "CPU of the trace)", sc->path, hole, hole, last);
		return -1;
	}
	return last;
}

/* " on CPU 1" / " on CPUs 0, 3" (and ", ... N in all" past the list) */
static void lost_cpus(char *buf, size_t len, const int *cpu, int n)
{
	size_t o;

	o = (size_t)snprintf(buf, len, " on CPU%s", n > 1 ? "s" : "");
	for (int i = 0; i < n && i < SIDECAR_LOST_CPUS && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s %d", i ? "," : "", cpu[i]);
	if (n > SIDECAR_LOST_CPUS && o < len)
		snprintf(buf + o, len - o, ", ... %d in all", n);
}

/* CPU @c into the list @cpu of *@n CPUs (counted past SIDECAR_LOST_CPUS, not listed) */
static void lost_cpu_add(int *cpu, int *n, int c)
{
	if (*n < SIDECAR_LOST_CPUS)
		cpu[*n] = c;
	(*n)++;
}

void sidecar_lost_compare(const struct sidecar *sc, const uint64_t *trace_lost,
			  const bool *trace_unknown, int nr_cpus, struct sidecar_lost_cmp *out)
{
	char path[160], cpus[120], counters[112];

	memset(out, 0, sizeof(*out));
	for (int c = 0; c < nr_cpus; c++) {
		out->trace_total = add_sat(out->trace_total, trace_lost[c]);
		out->trace_unknown |= trace_unknown && trace_unknown[c];
	}
	if (!sc || !sc->lost_listed)
		return;
	out->compared = true;
	out->per_cpu = sc->lost_per_cpu != NULL;
	out->overrun = sc->lost_overrun;
	out->dropped = sc->lost_dropped;
	out->commit_overrun = sc->lost_commit_overrun;
	out->total = sc->lost_events;
	out->missed_pages = sc->missed_pages;
	for (int c = 0; sc->lost_per_cpu && c < sc->nr_cpus && c < SIDECAR_LOST_CPUS; c++)
		out->sidecar_cpu[out->nr_sidecar_cpus++] = sc->lost_per_cpu[c];
	if (out->per_cpu) {
		for (int c = 0; c < nr_cpus && c < sc->nr_cpus; c++) {
			if (sc->lost_per_cpu[c] && !trace_lost[c]) {
				out->unmarked = add_sat(out->unmarked, sc->lost_per_cpu[c]);
				lost_cpu_add(out->unmarked_cpu, &out->nr_unmarked_cpus, c);
			}
			if (trace_lost[c] && !sc->lost_per_cpu[c]) {
				out->uncounted = add_sat(out->uncounted, trace_lost[c]);
				out->uncounted_unknown |= trace_unknown && trace_unknown[c];
				lost_cpu_add(out->uncounted_cpu, &out->nr_uncounted_cpus, c);
			}
		}
	} else if (sc->lost_events && !out->trace_total) {
		out->unmarked = sc->lost_events;
	} else if (out->trace_total && !sc->lost_events) {
		out->uncounted = out->trace_total;
		out->uncounted_unknown = out->trace_unknown;
		for (int c = 0; c < nr_cpus; c++)
			if (trace_lost[c])
				lost_cpu_add(out->uncounted_cpu, &out->nr_uncounted_cpus, c);
	}
	out->pages_unmarked = sc->missed_pages && !out->trace_total && !out->unmarked;

	/* raw (each output escapes the line as it prints it), and bounded */
	snprintf(path, sizeof(path), "%.150s%s", sc->path, strlen(sc->path) > 150 ? "..." : "");
	snprintf(counters, sizeof(counters), "overrun %" PRIu64 ", dropped_events %" PRIu64
		 ", commit_overrun %" PRIu64, sc->lost_overrun, sc->lost_dropped,
		 sc->lost_commit_overrun);
	if (out->unmarked) {
		cpus[0] = '\0';
		if (out->per_cpu)
			lost_cpus(cpus, sizeof(cpus), out->unmarked_cpu, out->nr_unmarked_cpus);
		snprintf(out->text[out->nr_text++], SIDECAR_LOST_TEXT,
			 "sidecar %s counts %" PRIu64 " lost events%s where the trace marks no gap "
			 "(in all: %s; the kernel marks only overruns in the trace): the trace is "
			 "trusted, so the results lack those events at points it does not show",
			 path, out->unmarked, cpus, counters);
	}
	if (out->uncounted) {
		lost_cpus(cpus, sizeof(cpus), out->uncounted_cpu, out->nr_uncounted_cpus);
		snprintf(out->text[out->nr_text++], SIDECAR_LOST_TEXT,
			 "the trace marks %s%" PRIu64 " lost events%s that sidecar %s does not count "
			 "(in all: %s): the trace's gaps are used; is the sidecar this capture's?",
			 out->uncounted_unknown ? ">= " : "", out->uncounted, cpus, path,
			 counters);
	}
	if (out->pages_unmarked)
		snprintf(out->text[out->nr_text++], SIDECAR_LOST_TEXT,
			 "sidecar %s says the capture read %" PRIu64 " trace pages flagged with "
			 "missed events, but this trace marks no gap: the trace is trusted (was it "
			 "rewritten without its marks?), so the results lack events at points it "
			 "does not show", path, sc->missed_pages);
}

static json_t *lost_jint(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

static json_t *lost_jcpus(const int *cpu, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n && i < SIDECAR_LOST_CPUS; i++)
		json_array_append_new(a, json_integer(cpu[i]));
	return a;
}

json_t *sidecar_lost_json(const struct sidecar_lost_cmp *c)
{
	json_t *o, *w;

	if (!c->compared || !(o = json_object()))
		return json_null();
	json_object_set_new(o, "overrun", lost_jint(c->overrun));
	json_object_set_new(o, "dropped_events", lost_jint(c->dropped));
	json_object_set_new(o, "commit_overrun", lost_jint(c->commit_overrun));
	json_object_set_new(o, "total", lost_jint(c->total));
	json_object_set_new(o, "pages_with_missed_events", lost_jint(c->missed_pages));
	if (c->per_cpu) {
		json_t *a = json_array();

		for (int i = 0; a && i < c->nr_sidecar_cpus; i++)
			json_array_append_new(a, lost_jint(c->sidecar_cpu[i]));
		json_object_set_new(o, "per_cpu", a ? a : json_null());
	} else {
		json_object_set_new(o, "per_cpu", json_null());
	}
	json_object_set_new(o, "agrees", json_boolean(!sidecar_lost_disagree(c)));
	json_object_set_new(o, "trusted", json_string("trace"));
	json_object_set_new(o, "unmarked", lost_jint(c->unmarked));
	json_object_set_new(o, "unmarked_cpus", c->per_cpu ?
			    lost_jcpus(c->unmarked_cpu, c->nr_unmarked_cpus) : json_null());
	json_object_set_new(o, "uncounted", lost_jint(c->uncounted));
	json_object_set_new(o, "uncounted_cpus", lost_jcpus(c->uncounted_cpu,
							     c->nr_uncounted_cpus));
	json_object_set_new(o, "pages_unmarked", json_boolean(c->pages_unmarked));
	w = json_array();
	for (int i = 0; w && i < c->nr_text; i++)
		json_array_append_new(w, sr_json_string(c->text[i]));
	json_object_set_new(o, "warnings", w ? w : json_null());
	return o;
}

struct sidecar *sidecar_load_for_trace(const char *trace_path, struct sr_error *err)
{
	struct sidecar *sc;
	char *path;

	if (asprintf(&path, "%s.json", trace_path) < 0) {
		sr_error_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	sc = sidecar_load(path, err);
	free(path);
	return sc;
}

void sidecar_free(struct sidecar *sc)
{
	size_t i;

	if (!sc)
		return;
	for (i = 0; sc->cpus && i < (size_t)sc->nr_cpus; i++)
		free(sc->cpus[i].smt_siblings);
	for (i = 0; sc->cgroups && i < sc->nr_cgroups; i++)
		free(sc->cgroups[i].path);
	for (i = 0; sc->groups && i < sc->nr_groups; i++) {
		free(sc->groups[i].name);
		free(sc->groups[i].cgroup);
		free(sc->groups[i].command);
	}
	for (i = 0; sc->tasks && i < sc->nr_tasks; i++) {
		free(sc->tasks[i].comm);
		free(sc->tasks[i].cgroup);
	}
	for (i = 0; sc->funcs && i < sc->nr_funcs; i++)
		free(sc->funcs[i].name);
	free(sc->cpus);
	free(sc->cgroups);
	free(sc->groups);
	free(sc->tasks);
	free(sc->funcs);
	free(sc->funcs_reason);
	free(sc->lost_per_cpu);
	free(sc->cpu_time);
	sidecar_sched_masks_free(&sc->sched_start);
	sidecar_sched_masks_free(&sc->sched_end);
	free(sc->sched_start.tasks);
	free(sc->sched_start.reason);
	free(sc->sched_end.tasks);
	free(sc->sched_end.reason);
	sidecar_sched_debug_release(&sc->sched_debug);
	free(sc->path);
	free(sc->trace_file);
	free(sc->clock);
	free(sc->kernel_release);
	free(sc->kernel_version);
	free(sc->kernel_cmdline);
	free(sc->machine);
	free(sc->no_hz);
	free(sc->preempt);
	free(sc);
}

const struct sidecar_task *sidecar_task(const struct sidecar *sc, int pid)
{
	struct sidecar_task key = { .pid = pid };

	if (!sc || !sc->tasks)
		return NULL;
	return bsearch(&key, sc->tasks, sc->nr_tasks, sizeof(key), cmp_task);
}

const char *sidecar_cgroup_of(const struct sidecar *sc, int pid)
{
	const struct sidecar_task *t = sidecar_task(sc, pid);

	return t ? t->cgroup : NULL;
}

const struct sidecar_cgroup *sidecar_find_cgroup(const struct sidecar *sc, const char *path)
{
	for (size_t i = 0; sc && path && i < sc->nr_cgroups; i++)
		if (!strcmp(sc->cgroups[i].path, path))
			return &sc->cgroups[i];
	return NULL;
}

const struct sidecar_group *sidecar_find_group(const struct sidecar *sc, const char *name)
{
	for (size_t i = 0; sc && name && i < sc->nr_groups; i++)
		if (!strcmp(sc->groups[i].name, name))
			return &sc->groups[i];
	return NULL;
}

bool sidecar_funcs_get(const struct sidecar_func *funcs, size_t nr, const char *name,
		       int64_t *count)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(funcs[i].name, name)) {
			*count = funcs[i].count;
			return true;
		}
	return false;
}
