// SPDX-License-Identifier: GPL-2.0
/*
 * KernelShark reads a trace.dat of `schedreplay capture` (issue 3).
 *
 * The file is loaded through libkshark the way KernelShark 2.x opens a file
 * (KsDataStore::loadDataFile in its KsUtils.cpp): kshark_instance(),
 * kshark_open(), for trace-cmd data kshark_tep_init_all_buffers() and
 * kshark_tep_handle_plugins(), then kshark_load_all_entries(), which merges
 * every stream's per-CPU records by time into the rows the GUI draws. The
 * rows are then compared with two independent readings of the same file:
 *
 *   - `trace-cmd report -t` (nanosecond timestamps): per CPU, every record's
 *     timestamp, pid and event name, the counts, the first and last
 *     timestamps and the lost-event gaps ("[N EVENTS DROPPED]" lines, which
 *     libkshark turns into "missed events" entries);
 *   - schedreplay's own reader (native backend: its page decoder, not
 *     libtracecmd): per CPU, every record's timestamp, common_pid, event
 *     name and file offset, and the gaps (trace_lost_before());
 *
 * and the columns of KernelShark's list view against trace-cmd's line for
 * the same record: the task (the comm libkshark knows for the pid; "<...>"
 * if none) on every row, the info (formatted from the record read back by
 * offset, tracecmd_read_at()) on a sample of rows. The task column fails on
 * files whose cmdlines section lacks tasks that trace-cmd names from the
 * records (capture/cap_readback.c says why the capture now adds them).
 *
 * With --plugins DIR (the kernelshark package's plugin directory), the
 * GUI's default plugins are registered first, as KsPluginManager does; the
 * sched_events plugin then gives each sched_switch row the pid of the task
 * switched in (the GUI draws the row in that task's plot), which is checked
 * against the next_pid our reader decodes, while kshark_get_pid() still
 * gives the record's own pid.
 *
 * Per-CPU order is compared, not the merged order: records of different
 * CPUs with the same timestamp may be merged either way.
 *
 * Usage: capture_kshark [--plugins DIR] TRACE
 * Prints the figures compared; every mismatch is printed with both sides.
 * Exit 0 if all agree, 1 otherwise, 77 (skip) if trace-cmd is not installed.
 */
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libkshark.h>
#include <libkshark-plugin.h>
#include <libkshark-tepdata.h>

#include <schedreplay/trace.h>

static int failures;

#define FAILF(...)                                      \
	do {                                            \
		if (failures++ < 20) {                  \
			fprintf(stderr, "FAIL: " __VA_ARGS__); \
			fputc('\n', stderr);            \
		}                                       \
	} while (0)

/* Rows of KernelShark's list view whose task and info columns are compared. */
#define INFO_SAMPLE_EVERY 97

/* One record as `trace-cmd report -t` prints it. */
struct tc_rec {
	uint64_t ts;
	int pid;
	bool after_gap;         /* a "[... EVENTS DROPPED]" line came before it */
	char *comm;             /* as printed, "<...>" if unknown */
	char *name;             /* event name */
	char *info;             /* the text after "name: ", trailing space trimmed */
};

struct tc_cpu {
	struct tc_rec *recs;
	size_t nr, alloc;
	uint64_t gaps;
};

/* KernelShark's rows of one CPU (missed-events rows kept apart). */
struct ks_cpu {
	struct kshark_entry **rows;
	bool *after_gap;
	size_t nr, alloc;
	uint64_t gaps;
};

static char *trim_dup(const char *s, size_t n)
{
	while (n && (s[0] == ' ' || s[0] == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
		n--;
	return strndup(s, n);
}

static int tc_add(struct tc_cpu *c, const struct tc_rec *r)
{
	if (c->nr == c->alloc) {
		size_t n = c->alloc ? 2 * c->alloc : 4096;
		struct tc_rec *p = realloc(c->recs, n * sizeof(*p));

		if (!p)
			return -1;
		c->recs = p;
		c->alloc = n;
	}
	c->recs[c->nr++] = *r;
	return 0;
}

static int ks_add(struct ks_cpu *c, struct kshark_entry *e, bool after_gap)
{
	if (c->nr == c->alloc) {
		size_t n = c->alloc ? 2 * c->alloc : 4096;
		struct kshark_entry **p = realloc(c->rows, n * sizeof(*p));
		bool *g = realloc(c->after_gap, n * sizeof(*g));

		if (p)
			c->rows = p;
		if (g)
			c->after_gap = g;
		if (!p || !g)
			return -1;
		c->alloc = n;
	}
	c->after_gap[c->nr] = after_gap;
	c->rows[c->nr++] = e;
	return 0;
}

/*
 * Read `trace-cmd report -t FILE` into per-CPU lists. Returns the number of
 * CPUs seen (max index + 1), or -1. The file has one buffer (the capture
 * writes only its instance's data, as the top-level buffer), so every line
 * is a record of it or a dropped-events line.
 */
static int read_report(const char *path, struct tc_cpu *cpus, int max_cpus)
{
	char cmd[4200], *line = NULL;
	size_t cap = 0;
	regex_t re;
	regmatch_t m[7];
	bool gap[1024] = { false };
	int nr_cpus = 0;
	FILE *p;

	/*
	 * "COMM-PID [CPU] SEC.NSEC: NAME: INFO"; the comm may hold '-' and
	 * spaces, the pid is the last "-digits" before the CPU bracket.
	 */
	if (regcomp(&re,
		    "^(.*)-([0-9]+)[[:space:]]+\\[([0-9]+)\\][[:space:]]+([0-9]+)\\.([0-9]{9}):"
		    "[[:space:]]+([A-Za-z_0-9]+):",
		    REG_EXTENDED)) {
		FAILF("regcomp");
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "trace-cmd report -t '%s' 2>&1", path);
	p = popen(cmd, "r");
	if (!p) {
		FAILF("popen %s: %s", cmd, strerror(errno));
		regfree(&re);
		return -1;
	}
	while (getline(&line, &cap, p) > 0) {
		struct tc_rec r = { 0 };
		char *drop = strstr(line, "EVENTS DROPPED]");
		int cpu;

		if (drop) {
			/* "CPU:N [COUNT EVENTS DROPPED]" or a bare "[EVENTS DROPPED]" */
			char *c = strstr(line, "CPU:");

			cpu = c ? atoi(c + 4) : -1;
			if (cpu < 0 || cpu >= max_cpus) {
				FAILF("trace-cmd: dropped-events line without a CPU: %s", line);
				continue;
			}
			cpus[cpu].gaps++;
			gap[cpu] = true;
			if (cpu + 1 > nr_cpus)
				nr_cpus = cpu + 1;
			continue;
		}
		if (regexec(&re, line, 7, m, 0))
			continue;
		cpu = atoi(line + m[3].rm_so);
		if (cpu < 0 || cpu >= max_cpus) {
			FAILF("trace-cmd: CPU %d out of range: %s", cpu, line);
			continue;
		}
		r.ts = strtoull(line + m[4].rm_so, NULL, 10) * 1000000000ull +
		       strtoull(line + m[5].rm_so, NULL, 10);
		r.pid = atoi(line + m[2].rm_so);
		r.after_gap = gap[cpu];
		gap[cpu] = false;
		r.comm = trim_dup(line, (size_t)m[1].rm_eo);
		r.name = strndup(line + m[6].rm_so, (size_t)(m[6].rm_eo - m[6].rm_so));
		r.info = trim_dup(line + m[0].rm_eo, strlen(line + m[0].rm_eo));
		if (!r.comm || !r.name || !r.info || tc_add(&cpus[cpu], &r)) {
			FAILF("out of memory");
			free(r.comm);
			free(r.name);
			free(r.info);
			break;
		}
		if (cpu + 1 > nr_cpus)
			nr_cpus = cpu + 1;
	}
	free(line);
	regfree(&re);
	if (pclose(p) != 0)
		FAILF("`%s` failed", cmd);
	return nr_cpus;
}

/* "sched/sched_switch" -> "sched_switch" */
static const char *bare_name(const char *n)
{
	const char *s = n ? strrchr(n, '/') : NULL;

	return s ? s + 1 : n;
}

static bool info_equal(const char *a, const char *b)
{
	/* collapse runs of blanks: column padding is not content */
	while (*a || *b) {
		bool sa = *a == ' ' || *a == '\t', sb = *b == ' ' || *b == '\t';

		if (sa && sb) {
			while (*a == ' ' || *a == '\t')
				a++;
			while (*b == ' ' || *b == '\t')
				b++;
			continue;
		}
		if (*a != *b)
			return false;
		a++;
		b++;
	}
	return true;
}

static int register_gui_plugins(struct kshark_context *ctx, const char *dir)
{
	/* KernelShark's default plugins for trace-cmd data (tep_plugin_names) */
	static const char *const names[] = { "sched_events", "missed_events", "kvm_combo" };
	char path[4096];
	struct stat st;
	int n = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/plugin-%s.so", dir, names[i]);
		if (stat(path, &st) != 0) {
			FAILF("plugin %s: %s", path, strerror(errno));
			continue;
		}
		if (!kshark_register_plugin(ctx, names[i], path))
			FAILF("kshark_register_plugin(%s) failed", path);
		else
			n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	static struct tc_cpu tc[1024];
	static struct ks_cpu ks[1024];
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows = NULL;
	struct kshark_data_stream *stream;
	struct trace_reader *r;
	struct sr_error err = { 0 };
	struct trace_event ev;
	const char *path, *plugin_dir = NULL;
	size_t *ours_at;
	ssize_t n_rows;
	uint64_t gap_before[1024] = { 0 }, ks_regular = 0, tc_total = 0, sampled = 0;
	uint64_t ours_total = 0, switch_rows = 0, task_mismatch = 0, ks_unnamed = 0;
	int64_t prev_ts = INT64_MIN;
	int sd, tc_cpus, ks_cpus, n_plugins = 0, ret;
	bool pending_gap[1024] = { false };

	if (argc == 4 && !strcmp(argv[1], "--plugins")) {
		plugin_dir = argv[2];
		path = argv[3];
	} else if (argc == 2) {
		path = argv[1];
	} else {
		fprintf(stderr, "usage: capture_kshark [--plugins DIR] TRACE\n");
		return 2;
	}
	if (system("command -v trace-cmd >/dev/null 2>&1") != 0) {
		printf("SKIP: trace-cmd is not installed (the reference reading)\n");
		return 77;
	}

	/* ---- KernelShark's open sequence ---- */
	if (!kshark_instance(&ctx)) {
		FAILF("kshark_instance failed");
		return 1;
	}
	if (plugin_dir)
		n_plugins = register_gui_plugins(ctx, plugin_dir);
	sd = kshark_open(ctx, path);
	if (sd < 0) {
		FAILF("%s: kshark_open failed (%d): KernelShark cannot open the file", path, sd);
		kshark_free(ctx);
		return 1;
	}
	stream = kshark_get_data_stream(ctx, sd);
	if (!stream || !kshark_is_tep(stream)) {
		FAILF("%s: libkshark did not take it as trace-cmd data (format '%s')", path,
		      stream ? stream->data_format : "?");
		kshark_free(ctx);
		return 1;
	}
	if (kshark_tep_init_all_buffers(ctx, sd) < 0)
		FAILF("kshark_tep_init_all_buffers failed");
	if (kshark_tep_handle_plugins(ctx, sd) < 0)
		FAILF("kshark_tep_handle_plugins failed");
	if (ctx->n_streams != 1)
		FAILF("%d data streams, expected 1 (the capture writes one buffer)", ctx->n_streams);
	n_rows = kshark_load_all_entries(ctx, &rows);
	if (n_rows <= 0) {
		FAILF("%s: kshark_load_all_entries returned %zd: KernelShark shows no data", path,
		      n_rows);
		kshark_free(ctx);
		return 1;
	}
	ks_cpus = stream->n_cpus;
	if (ks_cpus <= 0 || ks_cpus > 1024) {
		FAILF("libkshark: %d CPUs", ks_cpus);
		return 1;
	}
	for (ssize_t i = 0; i < n_rows; i++) {
		struct kshark_entry *e = rows[i];

		if (e->ts < prev_ts)
			FAILF("row %zd: time goes back, %" PRId64 " < %" PRId64, i, e->ts, prev_ts);
		prev_ts = e->ts;
		if (e->cpu < 0 || e->cpu >= ks_cpus || e->stream_id != sd) {
			FAILF("row %zd: cpu %d stream %d", i, e->cpu, e->stream_id);
			continue;
		}
		if (e->event_id == KS_EVENT_OVERFLOW) {
			ks[e->cpu].gaps++;
			pending_gap[e->cpu] = true;
			continue;
		}
		if (e->event_id < 0) {
			FAILF("row %zd: event id %d (not a record of the file)", i, e->event_id);
			continue;
		}
		if (ks_add(&ks[e->cpu], e, pending_gap[e->cpu])) {
			FAILF("out of memory");
			return 1;
		}
		pending_gap[e->cpu] = false;
		ks_regular++;
	}

	/* ---- trace-cmd report ---- */
	tc_cpus = read_report(path, tc, 1024);
	if (tc_cpus < 0)
		return 1;
	if (tc_cpus > ks_cpus)
		FAILF("trace-cmd shows records of CPU %d, libkshark has %d CPUs", tc_cpus - 1,
		      ks_cpus);
	/* CPUs past tc_cpus had no line: their lists are empty */
	for (int cpu = 0; cpu < ks_cpus; cpu++) {
		const struct ks_cpu *k = &ks[cpu];
		const struct tc_cpu *t = &tc[cpu];
		int shown = 0;

		tc_total += t->nr;
		if (k->nr != t->nr)
			FAILF("CPU %d: KernelShark %zu entries, trace-cmd report %zu records", cpu,
			      k->nr, t->nr);
		if (k->gaps != t->gaps)
			FAILF("CPU %d: KernelShark %" PRIu64 " missed-events entries, trace-cmd "
			      "report %" PRIu64 " dropped-events lines", cpu, k->gaps, t->gaps);
		for (size_t i = 0; i < k->nr && i < t->nr; i++) {
			struct kshark_entry *e = k->rows[i];
			const struct tc_rec *tr = &t->recs[i];
			char *name = kshark_get_event_name(e);
			int pid = kshark_get_pid(e);

			if ((uint64_t)e->ts != tr->ts || pid != tr->pid || !name ||
			    strcmp(bare_name(name), tr->name) || k->after_gap[i] != tr->after_gap) {
				if (shown++ < 3)
					FAILF("CPU %d record %zu: KernelShark ts %" PRId64 " pid %d %s%s, "
					      "trace-cmd ts %" PRIu64 " pid %d %s%s", cpu, i, e->ts, pid,
					      name ? name : "(null)", k->after_gap[i] ? " after a gap" : "",
					      tr->ts, tr->pid, tr->name, tr->after_gap ? " after a gap" : "");
				else
					failures++;
			} else {
				/*
				 * The list view's task column (the comm KernelShark knows
				 * for the pid) on every row; its info column, formatted
				 * from the record read back by offset, on a sample.
				 */
				char *task = kshark_get_task(e);

				if (!task || strcmp(task, tr->comm)) {
					if (task_mismatch++ < 3)
						FAILF("CPU %d record %zu (%s): KernelShark task '%s', "
						      "trace-cmd '%s'", cpu, i, tr->name,
						      task ? task : "(null)", tr->comm);
					else
						failures++;
				}
				if (!task || !strcmp(task, "<...>"))
					ks_unnamed++;
				free(task);
				if (i % INFO_SAMPLE_EVERY == 0 || i + 1 == k->nr) {
					char *info = kshark_get_info(e);

					if (!info || !info_equal(info, tr->info))
						FAILF("CPU %d record %zu (%s): KernelShark info '%s', "
						      "trace-cmd '%s'", cpu, i, tr->name,
						      info ? info : "(null)", tr->info);
					sampled++;
					free(info);
				}
			}
			free(name);
		}
	}

	/* ---- schedreplay's native reader ---- */
	r = trace_open(path, NULL, &err);
	ours_at = calloc((size_t)ks_cpus, sizeof(*ours_at));
	if (!r || !ours_at) {
		FAILF("%s", r ? "out of memory" : err.msg);
		return 1;
	}
	if (trace_nr_cpus(r) != ks_cpus)
		FAILF("our reader: %d CPUs, libkshark %d", trace_nr_cpus(r), ks_cpus);
	while ((ret = trace_next(r, &ev, &err)) == 1) {
		uint64_t lost = trace_lost_before(r);
		struct kshark_entry *e;
		size_t i;
		char *name;
		int pid;

		ours_total++;
		if (ev.cpu < 0 || ev.cpu >= ks_cpus) {
			FAILF("our reader: CPU %d", ev.cpu);
			continue;
		}
		if (lost)
			gap_before[ev.cpu]++;
		i = ours_at[ev.cpu]++;
		if (i >= ks[ev.cpu].nr) {
			if (i == ks[ev.cpu].nr)
				FAILF("CPU %d: our reader has more records than KernelShark's %zu", ev.cpu,
				      ks[ev.cpu].nr);
			continue;
		}
		e = ks[ev.cpu].rows[i];
		name = kshark_get_event_name(e);
		pid = kshark_get_pid(e);
		if ((uint64_t)e->ts != ev.ts || pid != ev.common_pid || !name ||
		    strcmp(bare_name(name), ev.name) || (lost != 0) != ks[ev.cpu].after_gap[i] ||
		    (!ev.offset_in_stream && (uint64_t)e->offset != ev.offset))
			FAILF("CPU %d record %zu: KernelShark ts %" PRId64 " pid %d %s offset %" PRId64
			      "%s, ours ts %" PRIu64 " pid %d %s offset %" PRIu64 "%s", ev.cpu, i,
			      e->ts, pid, name ? name : "(null)", e->offset,
			      ks[ev.cpu].after_gap[i] ? " after a gap" : "", ev.ts, ev.common_pid,
			      ev.name, ev.offset, lost ? " after a gap" : "");
		if (ev.type == TRACE_EV_SCHED_SWITCH && n_plugins > 0) {
			/* sched_events: the row belongs to the task switched in */
			if (e->pid != ev.u.sched_switch.next_pid)
				FAILF("CPU %d record %zu: sched_switch row pid %d with the sched_events "
				      "plugin, next_pid %d", ev.cpu, i, e->pid,
				      ev.u.sched_switch.next_pid);
			switch_rows++;
		}
		free(name);
	}
	if (ret < 0)
		FAILF("our reader: %s", err.msg);
	for (int cpu = 0; cpu < ks_cpus; cpu++) {
		if (ours_at[cpu] != ks[cpu].nr)
			FAILF("CPU %d: KernelShark %zu entries, our reader %zu records", cpu, ks[cpu].nr,
			      ours_at[cpu]);
		if (gap_before[cpu] != ks[cpu].gaps)
			FAILF("CPU %d: KernelShark %" PRIu64 " missed-events entries, our reader %" PRIu64
			      " gaps", cpu, ks[cpu].gaps, gap_before[cpu]);
	}

	/* ---- the figures ---- */
	printf("capture_kshark: %s: libkshark %s, %d stream(s), %d CPUs, %zd rows "
	       "(%" PRIu64 " records + missed-events rows), GUI plugins: %s\n",
	       path, SR_KSHARK_VERSION, ctx->n_streams, ks_cpus, n_rows, ks_regular,
	       n_plugins ? "sched_events, missed_events, kvm_combo" : "none");
	for (int cpu = 0; cpu < ks_cpus; cpu++) {
		const struct ks_cpu *k = &ks[cpu];

		printf("  CPU %d: KernelShark %zu entries, trace-cmd report %zu, ours %zu; "
		       "gaps %" PRIu64 "/%" PRIu64 "/%" PRIu64,
		       cpu, k->nr, tc[cpu].nr, ours_at[cpu], k->gaps, tc[cpu].gaps,
		       gap_before[cpu]);
		if (k->nr)
			printf("; first %" PRId64 " last %" PRId64 " ns", k->rows[0]->ts,
			       k->rows[k->nr - 1]->ts);
		if (tc[cpu].nr)
			printf(" (trace-cmd %" PRIu64 " .. %" PRIu64 ")", tc[cpu].recs[0].ts,
			       tc[cpu].recs[tc[cpu].nr - 1].ts);
		printf("\n");
	}
	printf("  total: KernelShark %" PRIu64 ", trace-cmd report %" PRIu64 ", ours %" PRIu64
	       "; first %" PRId64 " last %" PRId64 " ns\n"
	       "  task column: %" PRIu64 " rows differ from trace-cmd's, %" PRIu64 " unnamed (<...>); "
	       "info column compared on %" PRIu64 " rows%s\n",
	       ks_regular, tc_total, ours_total, rows[0]->ts, rows[n_rows - 1]->ts, task_mismatch,
	       ks_unnamed, sampled,
	       switch_rows ? "; sched_switch rows re-attributed to next_pid checked" : "");
	if (failures > 20)
		fprintf(stderr, "... %d failures in all\n", failures);
	if (ks_regular == 0)
		FAILF("no records");

	trace_close(r);
	free(ours_at);
	for (int cpu = 0; cpu < 1024; cpu++) {
		for (size_t i = 0; i < tc[cpu].nr; i++) {
			free(tc[cpu].recs[i].comm);
			free(tc[cpu].recs[i].name);
			free(tc[cpu].recs[i].info);
		}
		free(tc[cpu].recs);
		free(ks[cpu].rows);
		free(ks[cpu].after_gap);
	}
	for (ssize_t i = 0; i < n_rows; i++)
		free(rows[i]);
	free(rows);
	kshark_close_all(ctx);
	kshark_free(ctx);
	return failures ? 1 : 0;
}
