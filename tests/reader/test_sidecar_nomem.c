// SPDX-License-Identifier: GPL-2.0
/*
 * sidecar_load() under every failed allocation: the loader's malloc, calloc,
 * realloc and strdup calls (linked with -Wl,--wrap, so only the static
 * libraries' calls are counted, not jansson's) fail at the Nth call, for
 * every N the load makes.  Each load must fail with ENOMEM and a message
 * naming the file, or give the sidecar the load without failures gives:
 * a failed copy of a string is never an absent key.
 *   test_sidecar_nomem FILE...
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/error.h>
#include <schedreplay/sidecar.h>

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

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_sidecar_nomem FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		check_file(argv[i]);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
