// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's per-CPU run-queue state, read from debugfs's sched/debug
 * (CONFIG_SCHED_DEBUG's sysrq_sched_debug_show(): print_cpu() and, per
 * task group, print_cfs_rq()), once just before tracing starts, once just
 * before it stops, and with --sched-debug-every MS every MS ms in between:
 * the sidecar's "sched_debug" (docs/capture.md).  What no trace event shows
 * is there: each group queue's PELT (load_avg, util_avg, runnable_avg), its
 * contribution to tg->load_avg and tg->load_avg itself as
 * update_tg_load_avg() last wrote them, and the group entity's weight as
 * update_cfs_group() -> calc_group_shares() last set it - the task-group
 * bookkeeping the LKML variants change, measured on the hardware.
 *
 * Kept generic: every ".name : number" line of a cpu#N block and of each
 * cfs_rq[N]:PATH block, under the name the kernel prints ("." dropped,
 * "->" as "."), SPLIT_NS() milliseconds as nanoseconds.  Other kernels
 * print other names (6.5: min_vruntime, nr_running); the reader maps them.
 *
 * debugfs: the mounted one if there is one; else mounted read-only at
 * /run/schedreplay-<pid>-debugfs for the capture and unmounted at its end
 * (cap_sched_debug_cleanup_leftovers() removes a killed capture's).
 * Nothing here fails a capture: without the file the sidecar says why.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cap_local.h"

#define SCHED_DEBUG_REL "/sched/debug"
#define OWN_MNT_DIR "/run"
#define OWN_MNT_SUFFIX "-debugfs"

/* "123", "-5": an integer; "12.345678": SPLIT_NS() ms as ns.  False for the rest. */
static bool parse_value(const char *p, const char *end, json_int_t *v)
{
	long long whole = 0, frac = 0;
	int digits = 0, fdigits = 0;
	bool neg = false;

	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	for (; p < end && isdigit((unsigned char)*p); p++, digits++) {
		if (whole > (LLONG_MAX - 9) / 10)
			return false;
		whole = whole * 10 + (*p - '0');
	}
	if (!digits)
		return false;
	if (p < end && *p == '.') {
		for (p++; p < end && isdigit((unsigned char)*p); p++, fdigits++)
			frac = frac * 10 + (*p - '0');
		/* SPLIT_NS() prints exactly six; "2694.902 MHz" is not a time */
		if (fdigits != 6 || whole > LLONG_MAX / 1000000 - 1)
			return false;
		whole = whole * 1000000 + frac;
	}
	if (p != end)
		return false;
	*v = neg ? -whole : whole;
	return true;
}

/*
 * One ".name   : value" line into @fields; the name as printed, without the
 * leading '.' and with "->" as '.'.  Lines of another shape are skipped.
 */
static size_t add_field(json_t *fields, const char *line, const char *nl)
{
	const char *colon = memchr(line, ':', (size_t)(nl - line)), *p, *q;
	char name[64];
	size_t n = 0;
	json_int_t v;

	while (line < nl && *line == ' ')
		line++;
	if (!colon || *line != '.')
		return 0;
	for (p = line + 1; p < colon && *p != ' ' && n + 1 < sizeof(name); p++) {
		if (p[0] == '-' && p + 1 < colon && p[1] == '>') {
			name[n++] = '.';
			p++;
		} else {
			name[n++] = *p;
		}
	}
	name[n] = 0;
	if (!n)
		return 0;
	for (p = colon + 1; p < nl && *p == ' '; p++)
		;
	for (q = nl; q > p && (q[-1] == ' ' || q[-1] == '\r'); q--)
		;
	if (!parse_value(p, q, &v))
		return 0;
	return json_object_set_new(fields, name, json_integer(v)) == 0;
}

json_t *cap_sched_debug_parse(const char *text, size_t *values)
{
	json_t *r = json_object(), *cpus = json_array(), *head = json_object();
	json_t *fields = head;        /* where ".name : value" lines go */
	json_t *cpu = NULL;
	const char *line = text;
	size_t nv = 0;

	if (!r || !cpus || !head) {
		json_decref(r);
		json_decref(cpus);
		json_decref(head);
		return NULL;
	}
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		int c;
		char sep;

		if (!nl)
			break;          /* a last line cut short has no sure value */
		if (sscanf(line, "cpu#%d%c", &c, &sep) == 2 && (sep == ',' || sep == '\n') &&
		    c >= 0) {
			cpu = json_pack("{s:i, s:o, s:o}", "cpu", c, "fields", json_object(),
					"cfs_rqs", json_array());
			if (!cpu || json_array_append_new(cpus, cpu)) {
				json_decref(r);
				json_decref(cpus);
				json_decref(head);
				return NULL;
			}
			fields = json_object_get(cpu, "fields");
		} else if (!strncmp(line, "cfs_rq[", 7) && cpu) {
			const char *path = memchr(line, ':', (size_t)(nl - line));
			json_t *rq;

			if (path && sscanf(line, "cfs_rq[%d]", &c) == 1 &&
			    c == json_integer_value(json_object_get(cpu, "cpu"))) {
				rq = json_pack("{s:s%, s:o}", "path", path + 1,
					       (size_t)(nl - path - 1), "fields", json_object());
				if (!rq || json_array_append_new(json_object_get(cpu, "cfs_rqs"),
								 rq)) {
					json_decref(r);
					json_decref(cpus);
					json_decref(head);
					return NULL;
				}
				fields = json_object_get(rq, "fields");
			} else {
				fields = NULL;
			}
		} else if (line[0] != ' ' && line[0] != '.' && line != nl && cpu) {
			/* rt_rq[N]:, dl_rq[N]:, runnable tasks:, ...: not kept */
			fields = NULL;
		} else if (fields && line[0] == ' ') {
			nv += add_field(fields, line, nl);
		} else if (!cpu) {
			/* the header: "ktime : ...", "sched_clk : ...", "jiffies : ..." */
			char buf[160];
			size_t len = (size_t)(nl - line) < sizeof(buf) - 2 ?
				     (size_t)(nl - line) : sizeof(buf) - 2;

			buf[0] = '.';
			memcpy(buf + 1, line, len);
			if (line[0] != ' ' && line[0] != '.')
				nv += add_field(head, buf, buf + 1 + len);
		}
		line = nl + 1;
	}
	json_object_set_new(r, "header", head);
	json_object_set_new(r, "cpus", cpus);
	if (values)
		*values = nv;
	return r;
}

static bool is_sched_debug(const char *path)
{
	return access(path, R_OK) == 0;
}

/*
 * @fn(@ctx, MOUNT_POINT) for each debugfs mount of /proc/self/mounts, until
 * it returns non-zero; that value, or 0 (also when the file cannot be read).
 */
static int each_debugfs(int (*fn)(void *ctx, const char *mnt), void *ctx)
{
	char *m = cap_read_file("/proc/self/mounts", NULL), *line, *save = NULL;
	int r = 0;

	if (!m)
		return 0;
	for (line = strtok_r(m, "\n", &save); line && !r; line = strtok_r(NULL, "\n", &save)) {
		char src[256], mnt[PATH_MAX], type[64];

		if (sscanf(line, "%255s %4095s %63s", src, mnt, type) == 3 && !strcmp(type, "debugfs"))
			r = fn(ctx, mnt);
	}
	free(m);
	return r;
}

/* each_debugfs(): 1, with the mount point in the sched_debug's mnt, if it has sched/debug */
static int has_sched_debug(void *ctx, const char *mnt)
{
	struct cap_sched_debug *d = ctx;
	char f[PATH_MAX + 16];

	if (strlen(mnt) >= sizeof(d->mnt))
		return 0;
	snprintf(f, sizeof(f), "%s" SCHED_DEBUG_REL, mnt);
	if (!is_sched_debug(f))
		return 0;
	snprintf(d->mnt, sizeof(d->mnt), "%s", mnt);
	return 1;
}

int cap_sched_debug_open(struct cap_sched_debug *d, char *why, size_t n)
{
	memset(d, 0, sizeof(*d));
	if (!each_debugfs(has_sched_debug, d)) {
		snprintf(d->mnt, sizeof(d->mnt), OWN_MNT_DIR "/" CAP_NAME_PREFIX "%d" OWN_MNT_SUFFIX,
			 (int)getpid());
		if (mkdir(d->mnt, 0700) < 0 && errno != EEXIST) {
			snprintf(why, n, "cannot create %s to mount debugfs on: %s", d->mnt,
				 strerror(errno));
			return -1;
		}
		if (mount("debugfs", d->mnt, "debugfs", MS_RDONLY | MS_NOSUID | MS_NODEV |
			  MS_NOEXEC, NULL) < 0) {
			snprintf(why, n, "cannot mount debugfs on %s: %s (a kernel without "
				 "CONFIG_DEBUG_FS has no sched/debug)", d->mnt, strerror(errno));
			rmdir(d->mnt);
			return -1;
		}
		d->mounted = true;
	}
	snprintf(d->path, sizeof(d->path), "%s" SCHED_DEBUG_REL, d->mnt);
	if (!is_sched_debug(d->path)) {
		snprintf(why, n, "%s: %s (a kernel without CONFIG_SCHED_DEBUG has no sched/debug)",
			 d->path, strerror(errno));
		cap_sched_debug_close(d);
		return -1;
	}
	d->open = true;
	return 0;
}

static int64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

json_t *cap_sched_debug_read(struct cap_sched_debug *d, const char *at)
{
	int64_t t0 = mono_ns();
	size_t values = 0;
	char *text;
	json_t *r;

	if (!d->open || d->values > CAP_SCHED_DEBUG_MAX_VALUES)
		return NULL;
	if (!(text = cap_read_file(d->path, NULL)))
		return NULL;
	r = cap_sched_debug_parse(text, &values);
	free(text);
	if (!r)
		return NULL;
	d->values += values;
	d->reads++;
	json_object_set_new(r, "at", json_string(at));
	json_object_set_new(r, "read_us", json_integer((json_int_t)((mono_ns() - t0) / 1000)));
	return r;
}

void cap_sched_debug_close(struct cap_sched_debug *d)
{
	if (d->mounted) {
		if (umount2(d->mnt, MNT_DETACH) == 0)
			rmdir(d->mnt);
		d->mounted = false;
	}
	d->open = false;
}

/* each_debugfs(): a killed capture's own mount (OWN_MNT_DIR/PREFIX<pid>OWN_MNT_SUFFIX) removed */
static int remove_stale(void *ctx, const char *mnt)
{
	const char *prefix = OWN_MNT_DIR "/" CAP_NAME_PREFIX;
	size_t plen = strlen(prefix);
	int *removed = ctx;
	char *end;
	long pid;

	if (strncmp(mnt, prefix, plen))
		return 0;
	pid = strtol(mnt + plen, &end, 10);
	if (pid <= 0 || pid == getpid() || strcmp(end, OWN_MNT_SUFFIX) ||
	    cap_pid_is_capture((pid_t)pid))
		return 0;
	if (umount2(mnt, MNT_DETACH) == 0) {
		rmdir(mnt);
		(*removed)++;
	}
	return 0;
}

int cap_sched_debug_cleanup_leftovers(const struct cap_options *logopt)
{
	int removed = 0;

	each_debugfs(remove_stale, &removed);
	if (removed)
		cap_log(logopt, true, "unmounted %d debugfs mount(s) left by killed captures",
			removed);
	return removed;
}
