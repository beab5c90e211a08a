// SPDX-License-Identifier: GPL-2.0
/*
 * The readers under every failed allocation: their malloc, calloc, realloc
 * and strdup calls (linked with -Wl,--wrap, so only the static libraries'
 * calls are counted, not jansson's or libtraceevent's) fail at the Nth
 * call, for every N a load makes.
 *   sidecar: sidecar_load() must fail with ENOMEM and a message naming the
 *            file, or give the sidecar a load without failures gives (a
 *            failed copy of a string is never an absent key).
 *   trace:   trace_open() and trace_next() to the end must fail with ENOMEM
 *            and a message, or read what a run without failures reads.
 *   test_nomem sidecar|trace FILE...
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/error.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/trace.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

static long fail_at = -1;       /* the call that fails, counted from 0; -1: none */
static long calls;

static bool fail_now(void)
{
	return fail_at >= 0 && calls++ == fail_at;
}

void *__wrap_malloc(size_t n)
{
	return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return fail_now() ? NULL : __real_strdup(s);
}

static int failures;

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* the first field of @b that differs from @a's, or NULL */
static const char *differs(const struct sidecar *a, const struct sidecar *b)
{
	if (!same_str(a->trace_file, b->trace_file) || !same_str(a->clock, b->clock))
		return "trace";
	if (!same_str(a->kernel_release, b->kernel_release) ||
	    !same_str(a->kernel_version, b->kernel_version) || !same_str(a->machine, b->machine) ||
	    !same_str(a->kernel_cmdline, b->kernel_cmdline))
		return "kernel";
	if (!same_str(a->no_hz, b->no_hz) || !same_str(a->preempt, b->preempt))
		return "config";
	if (a->nr_cpus != b->nr_cpus || a->nr_cgroups != b->nr_cgroups ||
	    a->nr_groups != b->nr_groups || a->nr_tasks != b->nr_tasks ||
	    a->nr_funcs != b->nr_funcs)
		return "a count";
	for (int i = 0; i < a->nr_cpus; i++)
		if (!same_str(a->cpus[i].smt_siblings, b->cpus[i].smt_siblings))
			return "cpus.topology[].smt_siblings";
	for (size_t i = 0; i < a->nr_cgroups; i++)
		if (!same_str(a->cgroups[i].path, b->cgroups[i].path))
			return "cgroup.groups[].path";
	for (size_t i = 0; i < a->nr_groups; i++)
		if (!same_str(a->groups[i].name, b->groups[i].name) ||
		    !same_str(a->groups[i].cgroup, b->groups[i].cgroup) ||
		    !same_str(a->groups[i].command, b->groups[i].command))
			return "groups[]";
	for (size_t i = 0; i < a->nr_tasks; i++)
		if (!same_str(a->tasks[i].comm, b->tasks[i].comm) ||
		    !same_str(a->tasks[i].cgroup, b->tasks[i].cgroup))
			return "tasks_at_start[]";
	for (size_t i = 0; i < a->nr_funcs; i++)
		if (!same_str(a->funcs[i].name, b->funcs[i].name))
			return "function_counts";
	if (!same_str(a->funcs_reason, b->funcs_reason))
		return "function_counts.reason";
	return NULL;
}

static void check_file(const char *path)
{
	struct sr_error err = { 0 };
	struct sidecar *ref, *sc;
	long total, n, failed = 0;
	size_t plen = strlen(path);

	calls = 0;
	fail_at = -1;
	ref = sidecar_load(path, &err);
	if (!ref) {
		printf("FAIL: %s: %s\n", path, err.msg);
		failures++;
		return;
	}
	/* count the calls of one load (fail_at never reached) */
	calls = 0;
	fail_at = 1L << 40;
	sidecar_free(sidecar_load(path, &err));
	total = calls;
	for (n = 0; n < total; n++) {
		const char *d;

		memset(&err, 0, sizeof(err));
		calls = 0;
		fail_at = n;
		sc = sidecar_load(path, &err);
		fail_at = -1;
		if (!sc) {
			failed++;
			if (err.code != ENOMEM || strncmp(err.msg, path, plen)) {
				printf("FAIL: %s: allocation %ld of %ld failed: code %d, '%s' (want "
				       "ENOMEM naming the file)\n", path, n, total, err.code, err.msg);
				failures++;
			}
			continue;
		}
		if ((d = differs(ref, sc))) {
			printf("FAIL: %s: allocation %ld of %ld failed: the load succeeded with "
			       "%s unlike the full load's\n", path, n, total, d);
			failures++;
		}
		sidecar_free(sc);
	}
	printf("%s: %ld allocations, %ld loads failed with ENOMEM\n", path, total, failed);
	sidecar_free(ref);
}

/*
 * Open @path and read it to the end: the events read (and the last one's
 * timestamp, the file's clock and uname in @facts) or -1 with @err set.
 */
static long read_trace(const char *path, uint64_t *last_ts, char *facts, size_t n_facts,
		       struct sr_error *err)
{
	struct trace_reader *r = trace_open(path, NULL, err);
	const struct trace_info *in;
	struct trace_event ev;
	long n = 0;
	int ret;

	if (!r)
		return -1;
	in = trace_get_info(r);
	snprintf(facts, n_facts, "clock %s, uname %s, version %s", in->clock ?: "(none)",
		 in->uname ?: "(none)", in->tracer_version ?: "(none)");
	while ((ret = trace_next(r, &ev, err)) > 0) {
		*last_ts = ev.ts;
		n++;
	}
	trace_close(r);
	return ret < 0 ? -1 : n;
}

static void check_trace(const char *path)
{
	struct sr_error err = { 0 };
	uint64_t ref_ts = 0, ts;
	long ref, got, total, n, failed = 0;
	char ref_facts[512], facts[512];

	calls = 0;
	fail_at = -1;
	ref = read_trace(path, &ref_ts, ref_facts, sizeof(ref_facts), &err);
	if (ref < 0) {
		printf("FAIL: %s: %s\n", path, err.msg);
		failures++;
		return;
	}
	calls = 0;
	fail_at = 1L << 40;
	read_trace(path, &ts, facts, sizeof(facts), &err);
	total = calls;
	for (n = 0; n < total; n++) {
		memset(&err, 0, sizeof(err));
		ts = 0;
		calls = 0;
		fail_at = n;
		got = read_trace(path, &ts, facts, sizeof(facts), &err);
		fail_at = -1;
		if (got < 0) {
			failed++;
			if (err.code != ENOMEM || !err.msg[0]) {
				printf("FAIL: %s: allocation %ld of %ld failed: code %d, '%s' (want "
				       "ENOMEM with a message)\n", path, n, total, err.code, err.msg);
				failures++;
			}
			continue;
		}
		if (got != ref || ts != ref_ts || strcmp(facts, ref_facts)) {
			printf("FAIL: %s: allocation %ld of %ld failed: %ld events read to %" PRIu64
			       " (%s), %ld to %" PRIu64 " (%s) without failures\n", path, n, total,
			       got, ts, facts, ref, ref_ts, ref_facts);
			failures++;
		}
	}
	printf("%s: %ld allocations, %ld reads failed with ENOMEM\n", path, total, failed);
}

int main(int argc, char **argv)
{
	bool trace = argc > 1 && !strcmp(argv[1], "trace");

	if (argc < 3 || (!trace && strcmp(argv[1], "sidecar"))) {
		fprintf(stderr, "usage: test_nomem sidecar|trace FILE...\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		if (trace)
			check_trace(argv[i]);
		else
			check_file(argv[i]);
	}
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
