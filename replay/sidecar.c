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
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <schedreplay/sidecar.h>

#include "sidecar_local.h"

static char *dup_str(json_t *v)
{
	const char *s = json_string_value(v);

	return s ? strdup(s) : NULL;
}

/*
 * Integer at @key in [@lo, @hi], or @dflt when absent or null. Anything else
 * (a string, a fraction, 1e308, a pid beyond int) sets *@bad to the key and
 * gives @dflt: the loader then fails naming it. Casting such a value was
 * undefined behaviour for 1e308 and silently wrong for the others.
 */
static long long get_int_in(json_t *o, const char *key, long long dflt, long long lo,
			    long long hi, const char **bad)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return dflt;
	if (json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi)
		return json_integer_value(v);
	if (json_is_real(v)) {
		double d = json_real_value(v);

		/* 2^53: every integer below is exact in a double */
		if (d > -9007199254740992.0 && d < 9007199254740992.0 && d >= (double)lo &&
		    d <= (double)hi && d == (double)(long long)d)
			return (long long)d;
	}
	if (!*bad)
		*bad = key;
	return dflt;
}

/*
 * A faster parse of the common sidecar: plain ASCII strings (no escapes),
 * integers of up to 18 digits, decimal reals, true/false/null, objects and
 * arrays nested 64 deep, into the tree json_load_file() would build (same
 * types and values, same key order; a repeated key replaces the value in
 * place, as there). Anything else - an escape, a byte outside printable
 * ASCII in a string, a longer number, any syntax error, a file that cannot be
 * read whole - gives NULL, and jansson parses the file: its errors and its
 * acceptance are unchanged. jansson reads the file with getc() and builds
 * every token character by character: 0.3 of the 0.45 ms that loading the
 * 19 KB sidecar of 1 s of hackbench cost the report.
 */
#define FAST_MAX_DEPTH 64
#define FAST_MAX_BYTES (4u << 20)

struct fast {
	const char *p, *end;
	int depth;
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

static bool fast_string(struct fast *s, const char **str, size_t *len)
{
	const char *q;

	if (s->p == s->end || *s->p != '"')
		return false;
	for (q = s->p + 1; q < s->end && *q != '"'; q++)
		if ((unsigned char)*q < 0x20 || (unsigned char)*q > 0x7e || *q == '\\')
			return false;
	if (q == s->end)
		return false;
	*str = s->p + 1;
	*len = (size_t)(q - s->p - 1);
	s->p = q + 1;
	return true;
}

static bool fast_digit(const struct fast *s, const char *q)
{
	return q < s->end && *q >= '0' && *q <= '9';
}

/* jansson's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static json_t *fast_number(struct fast *s)
{
	const char *q = s->p, *digits;
	bool real = false;
	char tmp[64];
	size_t n;

	if (*q == '-')
		q++;
	digits = q;
	if (!fast_digit(s, q))
		return NULL;
	if (*q == '0') {
		if (fast_digit(s, ++q))
			return NULL;
	} else {
		while (fast_digit(s, q))
			q++;
	}
	if (q < s->end && *q == '.') {
		real = true;
		if (!fast_digit(s, ++q))
			return NULL;
		while (fast_digit(s, q))
			q++;
	}
	if (q < s->end && (*q == 'e' || *q == 'E')) {
		real = true;
		q++;
		if (q < s->end && (*q == '+' || *q == '-'))
			q++;
		if (!fast_digit(s, q))
			return NULL;
		while (fast_digit(s, q))
			q++;
	}
	n = (size_t)(q - s->p);
	if (n >= sizeof(tmp) || (!real && q - digits > 18))
		return NULL;
	memcpy(tmp, s->p, n);
	tmp[n] = '\0';
	s->p = q;
	if (real) {
		char *e;
		double d;

		errno = 0;
		d = strtod(tmp, &e);
		if (errno || *e)        /* overflow (jansson's error), underflow: jansson decides */
			return NULL;
		return json_real(d);
	}
	return json_integer(strtoll(tmp, NULL, 10));
}

static json_t *fast_value(struct fast *s);

static json_t *fast_object(struct fast *s)
{
	json_t *o = json_object();
	const char *k;
	size_t kl;

	if (!o)
		return NULL;
	s->p++;
	fast_ws(s);
	if (fast_eat(s, '}'))
		return o;
	for (;;) {
		json_t *v;

		fast_ws(s);
		if (!fast_string(s, &k, &kl))
			break;
		fast_ws(s);
		if (!fast_eat(s, ':'))
			break;
		fast_ws(s);
		if (!(v = fast_value(s)) || json_object_setn_new_nocheck(o, k, kl, v))
			break;
		fast_ws(s);
		if (fast_eat(s, ','))
			continue;
		if (fast_eat(s, '}'))
			return o;
		break;
	}
	json_decref(o);
	return NULL;
}

static json_t *fast_array(struct fast *s)
{
	json_t *a = json_array();

	if (!a)
		return NULL;
	s->p++;
	fast_ws(s);
	if (fast_eat(s, ']'))
		return a;
	for (;;) {
		json_t *v;

		fast_ws(s);
		if (!(v = fast_value(s)) || json_array_append_new(a, v))
			break;
		fast_ws(s);
		if (fast_eat(s, ','))
			continue;
		if (fast_eat(s, ']'))
			return a;
		break;
	}
	json_decref(a);
	return NULL;
}

static bool fast_word(struct fast *s, const char *w, size_t n)
{
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, w, n))
		return false;
	s->p += n;
	return true;
}

static json_t *fast_value(struct fast *s)
{
	const char *str;
	size_t len;
	json_t *v = NULL;

	if (s->p == s->end)
		return NULL;
	switch (*s->p) {
	case '{':
	case '[':
		if (++s->depth > FAST_MAX_DEPTH)
			return NULL;
		v = *s->p == '{' ? fast_object(s) : fast_array(s);
		s->depth--;
		return v;
	case '"':
		return fast_string(s, &str, &len) ? json_stringn_nocheck(str, len) : NULL;
	case 't':
		return fast_word(s, "true", 4) ? json_true() : NULL;
	case 'f':
		return fast_word(s, "false", 5) ? json_false() : NULL;
	case 'n':
		return fast_word(s, "null", 4) ? json_null() : NULL;
	default:
		return fast_number(s);
	}
}

json_t *sidecar_json_fast(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct fast s = { 0 };
	json_t *root = NULL;
	char *buf = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) <= 0 || size > (long)FAST_MAX_BYTES ||
	    fseek(f, 0, SEEK_SET) || !(buf = malloc((size_t)size)) ||
	    fread(buf, 1, (size_t)size, f) != (size_t)size)
		goto out;
	s.p = buf;
	s.end = buf + size;
	fast_ws(&s);
	/* a root that is no object is an error below: jansson's words for it */
	if (s.p == s.end || *s.p != '{' || !(root = fast_value(&s)))
		goto out;
	fast_ws(&s);
	if (s.p != s.end) {
		json_decref(root);
		root = NULL;
	}
out:
	free(buf);
	fclose(f);
	return root;
}

static int cmp_task(const void *a, const void *b)
{
	const struct sidecar_task *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

#define FAIL(code, ...)                                       \
	do {                                                  \
		sr_error_set(err, code, __VA_ARGS__);         \
		sr_error_prefix(err, "%s", path);             \
		goto fail;                                    \
	} while (0)

#define NOMEM() FAIL(ENOMEM, "out of memory")

struct sidecar *sidecar_load(const char *path, struct sr_error *err)
{
	struct sidecar *sc = NULL;
	json_error_t jerr;
	json_t *root, *o, *a, *v;
	const char *bad = NULL;        /* the first key whose value is not a valid integer */
	size_t i;

/* ints (pids, CPUs, counts), longs (shares, quotas), and non-negative 64-bit values */
#define get_int(o, key, dflt) get_int_in(o, key, dflt, INT_MIN, INT_MAX, &bad)
#define get_long(o, key, dflt) get_int_in(o, key, dflt, LONG_MIN, LONG_MAX, &bad)
#define get_u63(o, key, dflt) get_int_in(o, key, dflt, 0, LLONG_MAX, &bad)

	root = sidecar_json_fast(path);
	if (!root)
		root = json_load_file(path, 0, &jerr);
	if (!root) {
		FILE *f = fopen(path, "r");

		if (!f) {
			sr_error_set(err, errno, "%s: %s", path, strerror(errno));
			return NULL;
		}
		fclose(f);
		sr_error_set(err, EINVAL, "%s: line %d column %d: %s", path, jerr.line,
			     jerr.column, jerr.text);
		return NULL;
	}
	sc = calloc(1, sizeof(*sc));
	if (!sc || !(sc->path = strdup(path)))
		NOMEM();

	if (!json_is_object(root) ||
	    !json_is_string(json_object_get(root, "schema")) ||
	    strcmp(json_string_value(json_object_get(root, "schema")), "schedreplay-sidecar"))
		FAIL(EINVAL, "not a schedreplay sidecar (\"schema\" is not \"schedreplay-sidecar\")");
	sc->schema_version = (int)get_int(root, "schema_version", 0);
	if (sc->schema_version < 1)
		FAIL(EINVAL, "\"schema_version\" missing or invalid");
	if (sc->schema_version > SIDECAR_SCHEMA_VERSION)
		FAIL(EINVAL, "schema_version %d is newer than this schedreplay reads (%d); "
		     "update schedreplay", sc->schema_version, SIDECAR_SCHEMA_VERSION);

	/* trace */
	o = json_object_get(root, "trace");
	if (!json_is_object(o))
		FAIL(EINVAL, "\"trace\" missing");
	sc->trace_file = dup_str(json_object_get(o, "file"));
	v = json_object_get(o, "trace_id");
	if (json_is_string(v))
		sc->trace_id = strtoull(json_string_value(v), NULL, 0);
	sc->clock = dup_str(json_object_get(o, "clock"));
	sc->buffer_kb = (long)get_long(o, "buffer_kb_per_cpu", -1);
	if (json_is_integer(json_object_get(o, "start_ts")) &&
	    json_is_integer(json_object_get(o, "end_ts"))) {
		sc->have_window = true;
		sc->start_ts = (uint64_t)get_u63(o, "start_ts", 0);
		sc->end_ts = (uint64_t)get_u63(o, "end_ts", 0);
		if (sc->end_ts < sc->start_ts)
			FAIL(EINVAL, "trace.end_ts %llu is before trace.start_ts %llu",
			     (unsigned long long)sc->end_ts, (unsigned long long)sc->start_ts);
	}

	/* kernel */
	o = json_object_get(root, "kernel");
	if (!json_is_object(o) || !json_is_string(json_object_get(o, "release")))
		FAIL(EINVAL, "\"kernel.release\" missing");
	sc->kernel_release = dup_str(json_object_get(o, "release"));
	sc->kernel_version = dup_str(json_object_get(o, "version"));
	sc->machine = dup_str(json_object_get(o, "machine"));
	sc->kernel_cmdline = dup_str(json_object_get(o, "cmdline"));
	o = json_object_get(root, "config");
	sc->hz = (int)get_int(o, "hz", 0);
	if (sc->hz < 0 || sc->hz > 10000)
		FAIL(EINVAL, "config.hz %d out of range", sc->hz);
	sc->no_hz = dup_str(json_object_get(o, "no_hz"));
	sc->preempt = dup_str(json_object_get(o, "preempt"));

	/* CPUs */
	o = json_object_get(root, "cpus");
	a = json_object_get(o, "topology");
	if (!json_is_array(a) || !json_array_size(a))
		FAIL(EINVAL, "\"cpus.topology\" missing or empty");
	sc->nr_cpus = (int)json_array_size(a);
	sc->cpus = calloc((size_t)sc->nr_cpus, sizeof(*sc->cpus));
	if (!sc->cpus)
		NOMEM();
	for (i = 0; i < (size_t)sc->nr_cpus; i++) {
		sc->cpus[i].cpu = (int)i;
		sc->cpus[i].numa_node = -1;
		sc->cpus[i].capacity = -1;
	}
	json_array_foreach(a, i, v) {
		long long cpu = get_int(v, "cpu", -1);
		struct sidecar_cpu *c;
		json_t *online = json_object_get(v, "online");

		if (cpu < 0 || cpu >= sc->nr_cpus)
			FAIL(EINVAL, "cpus.topology[%zu].cpu %lld out of range 0..%d", i, cpu,
			     sc->nr_cpus - 1);
		c = &sc->cpus[cpu];
		c->online = !json_is_false(online);
		c->package = (int)get_int(v, "package", -1);
		c->die = (int)get_int(v, "die", -1);
		c->cluster = (int)get_int(v, "cluster", -1);
		c->core = (int)get_int(v, "core", -1);
		c->numa_node = (int)get_int(v, "numa_node", -1);
		c->capacity = (int)get_int(v, "capacity", -1);
		c->smt_siblings = dup_str(json_object_get(v, "smt_siblings"));
	}
	sc->nr_numa_nodes = (int)json_array_size(json_object_get(o, "numa_nodes"));
	for (i = 0; i < (size_t)sc->nr_cpus; i++)
		sc->cpus[i].from_idle = sc->cpus[i].to_idle = -1;
	a = json_object_get(json_object_get(root, "trace"), "idle_switches");
	json_array_foreach(a, i, v) {
		long long cpu = get_int(v, "cpu", -1);

		if (cpu < 0 || cpu >= sc->nr_cpus)
			FAIL(EINVAL, "trace.idle_switches[%zu].cpu %lld out of range 0..%d", i, cpu,
			     sc->nr_cpus - 1);
		sc->cpus[cpu].from_idle = get_int(v, "from_idle", -1);
		sc->cpus[cpu].to_idle = get_int(v, "to_idle", -1);
		sc->cpus[cpu].idle_exit_untraced =
			json_is_true(json_object_get(v, "idle_exit_untraced"));
	}

	/* groups and tasks */
	sc->autogroup_enabled = json_is_true(json_object_get(json_object_get(root, "autogroup"),
							     "enabled"));
	o = json_object_get(root, "cgroup");
	sc->cgroup_version = (int)get_int(o, "version", 0);
	sc->cgroup_hierarchy_id = (int)get_int(o, "hierarchy_id", -1);
	a = json_object_get(o, "groups");
	sc->nr_cgroups = json_array_size(a);
	sc->cgroups = calloc(sc->nr_cgroups + 1, sizeof(*sc->cgroups));
	if (!sc->cgroups)
		NOMEM();
	json_array_foreach(a, i, v) {
		struct sidecar_cgroup *g = &sc->cgroups[i];
		long shares = (long)get_long(v, "shares", -1);
		long weight = (long)get_long(v, "weight", -1);

		g->path = dup_str(json_object_get(v, "path"));
		if (!g->path)
			FAIL(EINVAL, "cgroup.groups[%zu].path missing", i);
		/* the other unit by the kernel's rule: weight 100 = shares 1024 */
		g->shares = shares >= 0 ? shares : weight >= 0 ? (weight * 1024 + 50) / 100 : -1;
		g->weight = weight >= 0 ? weight : shares >= 0 ? (shares * 100 + 512) / 1024 : -1;
		g->quota_us = (long)get_long(v, "quota_us", -1);
		g->period_us = (long)get_long(v, "period_us", -1);
		g->nr_tasks = (int)get_int(v, "nr_tasks", -1);
	}

	a = json_object_get(root, "groups");
	v = json_object_get(root, "command");
	sc->nr_groups = json_array_size(a) + (json_is_object(v) ? 1 : 0);
	sc->groups = calloc(sc->nr_groups + 1, sizeof(*sc->groups));
	if (!sc->groups)
		NOMEM();
	for (i = 0; i < sc->nr_groups; i++) {
		json_t *g = i < json_array_size(a) ? json_array_get(a, i) : v;
		struct sidecar_group *s = &sc->groups[i];

		s->name = dup_str(json_object_get(g, "name"));
		if (!s->name)
			FAIL(EINVAL, "groups[%zu].name missing", i);
		s->cgroup = dup_str(json_object_get(g, "cgroup"));
		s->command = dup_str(json_object_get(g, "command"));
		s->shares = (long)get_long(g, "shares", -1);
		s->weight = (long)get_long(g, "weight", -1);
		s->pid = (int)get_int(g, "pid", -1);
		s->exit_status = (int)get_int(g, "exit_status", -1);
		s->signal = (int)get_int(g, "signal", 0);
		s->stopped_at_end = json_is_true(json_object_get(g, "stopped_at_end"));
	}

	a = json_object_get(root, "tasks_at_start");
	if (!json_is_array(a))
		FAIL(EINVAL, "\"tasks_at_start\" missing");
	sc->nr_tasks = json_array_size(a);
	sc->tasks = calloc(sc->nr_tasks + 1, sizeof(*sc->tasks));
	if (!sc->tasks)
		NOMEM();
	json_array_foreach(a, i, v) {
		struct sidecar_task *t = &sc->tasks[i];
		const char *pol = json_string_value(json_object_get(v, "policy"));

		t->pid = (int)get_int(v, "pid", -1);
		t->tgid = (int)get_int(v, "tgid", t->pid);
		if (t->pid < 0)
			FAIL(EINVAL, "tasks_at_start[%zu].pid missing", i);
		t->comm = dup_str(json_object_get(v, "comm"));
		t->cgroup = dup_str(json_object_get(v, "cgroup"));
		t->autogroup = (int)get_int(v, "autogroup", -1);
		t->nice = (int)get_int(v, "nice", 0);
		snprintf(t->policy, sizeof(t->policy), "%s", pol ? pol : "unknown");
	}
	qsort(sc->tasks, sc->nr_tasks, sizeof(*sc->tasks), cmp_task);

	/* function counts */
	o = json_object_get(root, "function_counts");
	sc->funcs_available = json_is_true(json_object_get(o, "available"));
	if (!sc->funcs_available) {
		const char *why = json_string_value(json_object_get(o, "reason"));

		sc->funcs_reason = strdup(why ? why : "not recorded");
		if (!sc->funcs_reason)
			NOMEM();
	} else {
		json_t *counts = json_object_get(o, "counts");
		const char *key;

		sc->funcs = calloc(json_object_size(counts) + 1, sizeof(*sc->funcs));
		if (!sc->funcs)
			NOMEM();
		json_object_foreach(counts, key, v) {
			struct sidecar_func *f = &sc->funcs[sc->nr_funcs++];

			f->name = strdup(key);
			if (!f->name)
				NOMEM();
			f->count = json_is_integer(v) ? json_integer_value(v) : -1;
		}
	}

	/* lost events */
	o = json_object_get(root, "lost");
	sc->lost_events = (uint64_t)get_u63(o, "overrun", 0) +
			  (uint64_t)get_u63(o, "dropped_events", 0) +
			  (uint64_t)get_u63(o, "commit_overrun", 0);
	sc->missed_pages = (uint64_t)get_u63(o, "pages_with_missed_events", 0);
	if (bad)
		FAIL(EINVAL, "\"%s\" is not an integer in range", bad);
#undef get_int
#undef get_long
#undef get_u63

	json_decref(root);
	return sc;
fail:
	json_decref(root);
	sidecar_free(sc);
	return NULL;
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

int64_t sidecar_func_count(const struct sidecar *sc, const char *name)
{
	for (size_t i = 0; sc && sc->funcs_available && i < sc->nr_funcs; i++)
		if (!strcmp(sc->funcs[i].name, name))
			return sc->funcs[i].count;
	return -1;
}
