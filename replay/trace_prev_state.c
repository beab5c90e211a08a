// SPDX-License-Identifier: GPL-2.0
/*
 * What sched_switch's print format prints for a prev_state value, without
 * libtraceevent.
 *
 * trace_format.c classifies prev_state's bits by the letters the file's own
 * print format gives each ("S", "R+", ...: classify_prev_state()). Through
 * libtraceevent that costs its parse of the whole print format (0.54 M
 * instructions) and 25 tep_print_event() calls (0.48 M), 3 % of the 1 s
 * report. The kernels' formats are one printf string and a few arguments:
 * fields, string literals, integer masks of | & + - << >>, one ?: and
 * __print_flags(). This file reads exactly that subset and prints as
 * libtraceevent 1.7's print_str_arg() and eval_num_arg() do:
 *   - __print_flags(v, "|", {f, "S"}, ...): each non-zero f with v & f == f
 *     printed in table order, joined by the delimiter, its bits cleared; a
 *     rest printed as 0x%llx after the delimiter (a flag value that
 *     evaluates negative is refused: libtraceevent prints it once the
 *     value left is 0);
 *   - c ? a : b evaluates c as an unsigned 64-bit integer;
 *   - the record is zero but for prev_state: a char array prints as "",
 *     any other field as 0.
 * Anything else - another conversion or flag (%5d, %p, %c), an operator
 * mix whose precedence libtraceevent resolves its own way (a | b & c,
 * a - b - c), casts, escapes, unknown identifiers, a ?: in a ?:'s right
 * branch, a shift of 64 or more - is refused (trace_format.c then parses
 * the format with libtraceevent as before), so what is accepted here prints
 * what libtraceevent prints; tests/reader/test_formats.c compares the two
 * classifications on every trace and on damaged formats.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_local.h"

#define PS_MAX_NODES 128
#define PS_MAX_FLAGS 64
#define PS_MAX_ARGS 16
#define PS_OUT_MAX 1024

enum ps_kind { PS_NUM, PS_STR, PS_FIELD, PS_BIN, PS_COND, PS_FLAGS };

struct ps_node {
	enum ps_kind kind;
	char op;                       /* PS_BIN: | & + - < (<<) > (>>) */
	int a, b, c;                   /* children: BIN a op b, COND a ? b : c, FLAGS a */
	uint64_t num;                  /* PS_NUM */
	const char *s;                 /* PS_STR, PS_FLAGS' delimiter */
	size_t len;
	int field;                     /* PS_FIELD: index in the sched_switch spec */
	int first_flag, nr_flags;      /* PS_FLAGS */
};

struct ps_flag {
	uint64_t value;
	const char *s;
	size_t len;
};

struct ps_prog {
	const char *fmt;               /* the printf string, without its quotes */
	size_t fmt_len;
	int args[PS_MAX_ARGS], nr_args;
	struct ps_node n[PS_MAX_NODES];
	int nr_nodes;
	struct ps_flag flags[PS_MAX_FLAGS];
	int nr_flags;
	const char *const *names;      /* sched_switch's decoded fields */
	const struct tr_field *fields;
	unsigned arrays;               /* bit i: fields[i] is a char array */
	int state;                     /* index of prev_state */
};

/* ---- tokens ------------------------------------------------------------ */

enum ps_tok { T_END, T_NUM, T_STR, T_IDENT, T_OP, T_BAD };

struct ps_lex {
	const char *p, *end;
	enum ps_tok t;
	const char *s;                 /* the token's text (T_STR: inside the quotes) */
	size_t len;
	uint64_t num;
};

static bool word_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static void next(struct ps_lex *x)
{
	const char *p = x->p;

	while (p < x->end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < x->end && *p == '\n') {
		/* the line's end, nothing after it (libtraceevent's newline tokens) */
		const char *q = p;

		while (q < x->end && (*q == ' ' || *q == '\t' || *q == '\n'))
			q++;
		if (q != x->end) {
			x->t = T_BAD;
			return;
		}
		p = q;
	}
	x->s = p;
	if (p == x->end) {
		x->t = T_END;
		x->len = 0;
	} else if (*p == '"') {
		const char *q = p + 1;

		/* printable ASCII only: no escapes, no control bytes */
		while (q < x->end && *q != '"' && *q != '\\' && *q >= ' ' && *q <= '~')
			q++;
		if (q == x->end || *q != '"') {
			x->t = T_BAD;
			return;
		}
		x->t = T_STR;
		x->s = p + 1;
		x->len = (size_t)(q - p - 1);
		p = q + 1;
	} else if (*p >= '0' && *p <= '9') {
		/* decimal, or 0x hex: what strtoull(.., 0) reads the same way */
		const char *q = p;
		uint64_t v = 0;
		int digits = 0;

		if (p + 1 < x->end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			for (q = p + 2; q < x->end && digits < 16; q++, digits++) {
				int d = *q >= '0' && *q <= '9' ? *q - '0' :
					*q >= 'a' && *q <= 'f' ? *q - 'a' + 10 :
					*q >= 'A' && *q <= 'F' ? *q - 'A' + 10 : -1;

				if (d < 0)
					break;
				v = v << 4 | (uint64_t)d;
			}
		} else {
			for (; q < x->end && *q >= '0' && *q <= '9' && digits < 18; q++, digits++)
				v = v * 10 + (uint64_t)(*q - '0');
			if (p[0] == '0' && digits > 1)
				digits = 0;     /* octal */
		}
		if (!digits || (q < x->end && word_char(*q)) || v >= (1ull << 62)) {
			x->t = T_BAD;
			return;
		}
		x->t = T_NUM;
		x->num = v;
		x->len = (size_t)(q - p);
		p = q;
	} else if (word_char(*p)) {
		const char *q = p;

		while (q < x->end && word_char(*q))
			q++;
		x->t = T_IDENT;
		x->len = (size_t)(q - p);
		p = q;
	} else {
		x->t = T_OP;
		x->len = 1;
		if (p + 1 < x->end && ((p[0] == '-' && p[1] == '>') || (p[0] == '<' && p[1] == '<') ||
				       (p[0] == '>' && p[1] == '>')))
			x->len = 2;
		else if (p + 1 < x->end && p[0] && p[1] && strchr("<>=!&|+-", p[0]) &&
			 strchr("<>=!&|+-", p[1]))
			x->t = T_BAD;   /* ==, &&, ++, ...: not in the subset */
		p += x->len;
	}
	x->p = p;
}

static bool is_op(const struct ps_lex *x, const char *op)
{
	return x->t == T_OP && x->len == strlen(op) && !memcmp(x->s, op, x->len);
}

static bool is_ident(const struct ps_lex *x, const char *id)
{
	return x->t == T_IDENT && x->len == strlen(id) && !memcmp(x->s, id, x->len);
}

static bool expect(struct ps_lex *x, const char *op)
{
	if (!is_op(x, op))
		return false;
	next(x);
	return true;
}

/* ---- parser: node index, or -1 (not in the subset) --------------------- */

static int node(struct ps_prog *pg, enum ps_kind kind)
{
	if (pg->nr_nodes == PS_MAX_NODES)
		return -1;
	memset(&pg->n[pg->nr_nodes], 0, sizeof(pg->n[0]));
	pg->n[pg->nr_nodes].kind = kind;
	return pg->nr_nodes++;
}

/* arg_num_eval() of a flag's value: the same operations on signed 64 bits */
static int const_eval(const struct ps_prog *pg, int i, int64_t *v)
{
	const struct ps_node *n = &pg->n[i];
	int64_t l, r;

	switch (n->kind) {
	case PS_NUM:
		*v = (int64_t)n->num;
		return 0;
	case PS_BIN:
		if (const_eval(pg, n->a, &l) || const_eval(pg, n->b, &r))
			return -1;
		switch (n->op) {
		case '|': *v = l | r; return 0;
		case '&': *v = l & r; return 0;
		case '+': *v = (int64_t)((uint64_t)l + (uint64_t)r); return 0;
		case '-': *v = (int64_t)((uint64_t)l - (uint64_t)r); return 0;
		case '<': if (r < 0 || r >= 63) return -1; *v = (int64_t)((uint64_t)l << r); return 0;
		case '>': if (r < 0 || r >= 63 || l < 0) return -1; *v = l >> r; return 0;
		}
		return -1;
	default:
		return -1;                     /* a field: not a constant */
	}
}

static int parse_expr(struct ps_prog *pg, struct ps_lex *x, int depth);
static int parse_bin(struct ps_prog *pg, struct ps_lex *x, int depth);

static int parse_flags(struct ps_prog *pg, struct ps_lex *x, int depth)
{
	int i = node(pg, PS_FLAGS), v;

	if (i < 0 || !expect(x, "("))
		return -1;
	if ((v = parse_bin(pg, x, depth + 1)) < 0 || !expect(x, ",") || x->t != T_STR)
		return -1;
	pg->n[i].a = v;
	pg->n[i].s = x->s;
	pg->n[i].len = x->len;
	pg->n[i].first_flag = pg->nr_flags;
	next(x);
	while (expect(x, ",")) {
		struct ps_flag *fl;
		int e;

		if (pg->nr_flags == PS_MAX_FLAGS || !expect(x, "{"))
			return -1;
		fl = &pg->flags[pg->nr_flags++];
		if ((e = parse_bin(pg, x, depth + 1)) < 0 || !expect(x, ",") || x->t != T_STR)
			return -1;
		/*
		 * libtraceevent keeps the value as text: an atom as written
		 * (strtoull'ed), an expression as its "%lld".  A negative one
		 * it prints once the value left is 0 (print_str_arg()'s
		 * "!val && fval < 0"): refused here, libtraceevent decides
		 */
		if (pg->n[e].kind == PS_NUM) {
			fl->value = pg->n[e].num;
		} else {
			int64_t sv;

			if (const_eval(pg, e, &sv) || sv < 0)
				return -1;
			fl->value = (uint64_t)sv;
		}
		fl->s = x->s;
		fl->len = x->len;
		next(x);
		if (!expect(x, "}"))
			return -1;
	}
	pg->n[i].nr_flags = pg->nr_flags - pg->n[i].first_flag;
	if (!pg->n[i].nr_flags || !expect(x, ")"))
		return -1;
	return i;
}

static int parse_primary(struct ps_prog *pg, struct ps_lex *x, int depth)
{
	int i;

	if (depth > 32)
		return -1;
	if (x->t == T_NUM) {
		if ((i = node(pg, PS_NUM)) < 0)
			return -1;
		pg->n[i].num = x->num;
		next(x);
		return i;
	}
	if (x->t == T_STR) {
		if ((i = node(pg, PS_STR)) < 0)
			return -1;
		pg->n[i].s = x->s;
		pg->n[i].len = x->len;
		next(x);
		return x->t == T_STR ? -1 : i;     /* "a" "b": joined by libtraceevent */
	}
	if (is_ident(x, "REC")) {
		next(x);
		if (!is_op(x, "->"))
			return -1;
		next(x);
		if (x->t != T_IDENT || (i = node(pg, PS_FIELD)) < 0)
			return -1;
		pg->n[i].field = -1;
		for (int k = 0; k < TR_MAX_FIELDS && pg->names[k]; k++)
			if (strlen(pg->names[k]) == x->len && !memcmp(pg->names[k], x->s, x->len))
				pg->n[i].field = k;
		if (pg->n[i].field < 0 || !(pg->fields[pg->n[i].field].flags & TR_F_PRESENT))
			return -1;
		next(x);
		return i;
	}
	if (is_ident(x, "__print_flags")) {
		next(x);
		return parse_flags(pg, x, depth);
	}
	if (is_op(x, "(")) {
		next(x);
		i = parse_expr(pg, x, depth + 1);
		if (i < 0 || !expect(x, ")"))
			return -1;
		/* "(type) x" is a cast to libtraceevent */
		if (x->t == T_NUM || x->t == T_STR || x->t == T_IDENT || is_op(x, "("))
			return -1;
		return i;
	}
	return -1;
}

static char bin_op(const struct ps_lex *x)
{
	if (x->t != T_OP)
		return 0;
	if (x->len == 2)
		return x->s[0] == '<' ? '<' : x->s[0] == '>' ? '>' : 0;   /* << >> */
	return x->s[0] && strchr("|&+-", x->s[0]) ? x->s[0] : 0;
}

/* operands joined by one operator; | & + may repeat (associative), - << >> not */
static int parse_bin(struct ps_prog *pg, struct ps_lex *x, int depth)
{
	int l = parse_primary(pg, x, depth);
	char op = 0, o;

	while (l >= 0 && (o = bin_op(x))) {
		int r, i;

		if (op && (o != op || !strchr("|&+", op)))
			return -1;
		op = o;
		next(x);
		if ((r = parse_primary(pg, x, depth)) < 0 || (i = node(pg, PS_BIN)) < 0)
			return -1;
		pg->n[i].op = op;
		pg->n[i].a = l;
		pg->n[i].b = r;
		l = i;
	}
	if (l >= 0 && x->t == T_OP && !is_op(x, ",") && !is_op(x, ")") && !is_op(x, "?") &&
	    !is_op(x, ":") && !is_op(x, "}"))
		return -1;                     /* any other operator: not in the subset */
	return l;
}

/* a, a ? b : c with c a single operand (libtraceevent's process_cond()) */
static int parse_expr(struct ps_prog *pg, struct ps_lex *x, int depth)
{
	int c = parse_bin(pg, x, depth), a, b, i;

	if (c < 0 || !is_op(x, "?"))
		return c;
	next(x);
	if ((a = parse_bin(pg, x, depth)) < 0 || !expect(x, ":") ||
	    (b = parse_primary(pg, x, depth)) < 0 || (i = node(pg, PS_COND)) < 0)
		return -1;
	if (!is_op(x, ",") && !is_op(x, ")") && x->t != T_END)
		return -1;
	pg->n[i].a = c;
	pg->n[i].b = a;
	pg->n[i].c = b;
	return i;
}

/* ---- evaluation ------------------------------------------------------- */

/* eval_num_arg(): unsigned 64-bit; -1 when outside the subset */
static int eval(const struct ps_prog *pg, int i, uint64_t state, uint64_t *v)
{
	const struct ps_node *n = &pg->n[i];
	uint64_t l, r;

	switch (n->kind) {
	case PS_NUM:
		*v = n->num;
		return 0;
	case PS_FIELD:
		if (pg->arrays & (1u << n->field))
			return -1;
		*v = n->field == pg->state ? state : 0;
		return 0;
	case PS_BIN:
		if (eval(pg, n->a, state, &l) || eval(pg, n->b, state, &r))
			return -1;
		switch (n->op) {
		case '|': *v = l | r; return 0;
		case '&': *v = l & r; return 0;
		case '+': *v = l + r; return 0;
		case '-': *v = l - r; return 0;
		case '<': if (r >= 64) return -1; *v = l << r; return 0;
		case '>': if (r >= 64) return -1; *v = l >> r; return 0;
		}
		return -1;
	default:
		return -1;
	}
}

struct ps_out {
	char buf[PS_OUT_MAX];
	size_t len;
};

static int put(struct ps_out *o, const char *s, size_t n)
{
	if (n >= PS_OUT_MAX - o->len)
		return -1;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	return 0;
}

/* print_str_arg() for "%s" */
static int print_str(const struct ps_prog *pg, int i, uint64_t state, struct ps_out *o)
{
	const struct ps_node *n = &pg->n[i];
	uint64_t v;

	switch (n->kind) {
	case PS_STR:
		return put(o, n->s, n->len);
	case PS_FIELD:
		/* a zeroed char array prints as "" */
		return pg->arrays & (1u << n->field) ? 0 : -1;
	case PS_COND:
		if (eval(pg, n->a, state, &v))
			return -1;
		return print_str(pg, v ? n->b : n->c, state, o);
	case PS_FLAGS: {
		bool printed = false;
		char hex[24];

		if (eval(pg, n->a, state, &v))
			return -1;
		for (int k = 0; k < n->nr_flags; k++) {
			const struct ps_flag *fl = &pg->flags[n->first_flag + k];

			if (!fl->value || (v & fl->value) != fl->value)
				continue;
			if ((printed && put(o, n->s, n->len)) || put(o, fl->s, fl->len))
				return -1;
			printed = true;
			v &= ~fl->value;
		}
		if (v) {
			snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)v);
			if ((printed && put(o, n->s, n->len)) || put(o, hex, strlen(hex)))
				return -1;
		}
		return 0;
	}
	default:
		return -1;
	}
}

/* The whole line printed for prev_state = @state, NUL-terminated in @o. */
static int render(const struct ps_prog *pg, uint64_t state, struct ps_out *o)
{
	const char *f = pg->fmt, *end = pg->fmt + pg->fmt_len;
	int arg = 0;

	o->len = 0;
	while (f < end) {
		const char *pct = memchr(f, '%', (size_t)(end - f));
		const char *c;
		int l = 0;

		if (!pct)
			pct = end;
		if (put(o, f, (size_t)(pct - f)))
			return -1;
		if (pct == end)
			break;
		c = pct + 1;
		if (c < end && *c == '%') {
			if (put(o, "%", 1))
				return -1;
			f = c + 1;
			continue;
		}
		while (c < end && *c == 'l' && l < 2) {
			c++;
			l++;
		}
		if (c == end || arg == pg->nr_args)
			return -1;
		if (*c == 's' && !l) {
			if (print_str(pg, pg->args[arg], state, o))
				return -1;
		} else if (*c && strchr("diux", *c)) {
			/* a field other than prev_state: the zeroed record's 0 */
			const struct ps_node *n = &pg->n[pg->args[arg]];

			if (n->kind != PS_FIELD || n->field == pg->state ||
			    (pg->arrays & (1u << n->field)) || put(o, "0", 1))
				return -1;
		} else {
			return -1;
		}
		arg++;
		f = c + 1;
	}
	if (arg != pg->nr_args)
		return -1;
	o->buf[o->len] = '\0';
	return 0;
}

struct tr_pstate *tr_pstate_parse(const char *pf, const char *end, const char *const *names,
				  const struct tr_field *fields, unsigned arrays, int state)
{
	struct ps_prog *pg = calloc(1, sizeof(*pg));
	struct ps_lex x = { .p = pf + strlen("print fmt:"), .end = end };

	if (!pg)
		return NULL;
	pg->names = names;
	pg->fields = fields;
	pg->arrays = arrays;
	pg->state = state;
	next(&x);
	if (x.t != T_STR)
		goto refuse;
	pg->fmt = x.s;
	pg->fmt_len = x.len;
	next(&x);
	while (x.t != T_END) {
		int a;

		if (!expect(&x, ",") || pg->nr_args == PS_MAX_ARGS ||
		    (a = parse_expr(pg, &x, 0)) < 0)
			goto refuse;
		pg->args[pg->nr_args++] = a;
	}
	return (struct tr_pstate *)pg;
refuse:
	free(pg);
	return NULL;
}

int tr_pstate_print(const struct tr_pstate *ps, uint64_t state, char *out, size_t outlen)
{
	const struct ps_prog *pg = (const struct ps_prog *)ps;
	struct ps_out *o = malloc(sizeof(*o));
	int ret;

	if (!o)
		return -1;
	ret = render(pg, state, o);
	if (!ret) {
		size_t n = o->len < outlen - 1 ? o->len : outlen - 1;

		memcpy(out, o->buf, n);
		out[n] = '\0';
		ret = o->len < outlen ? 0 : -1;
	}
	free(o);
	return ret;
}

void tr_pstate_free(struct tr_pstate *ps)
{
	free(ps);
}
