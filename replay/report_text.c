// SPDX-License-Identifier: GPL-2.0
/*
 * Text output of `schedreplay report`. Latency blocks use schbench's layout:
 * one line per percentile with the number of samples since the previous
 * line, the p99 line starred, then min and max.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/cli.h>

#include "report_local.h"

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/*
 * "%.1f" of us(@ns) in @buf (at least 24 bytes), without printf's
 * arbitrary-precision path for doubles (two thirds of the text output's
 * instructions). The tenths are ns / 100 rounded: printf rounds the double
 * ns / 1000.0, which is within half an ulp of the exact quotient, and that
 * is less than the 1 ns between the quotient and a rounding tie unless ns
 * ends in 50 (a tie, which printf resolves on the double's binary value) or
 * ns / 1000 reaches 2^42 (ulps of 2^-10 us): those two go to snprintf().
 */
static const char *us1(uint64_t ns, char *buf, size_t size)
{
	uint64_t tenths = ns / 100 + (ns % 100 > 50);
	char *p = buf + size;

	if (ns % 100 == 50 || ns >= (1ull << 52)) {
		snprintf(buf, size, "%.1f", us(ns));
		return buf;
	}
	*--p = '\0';
	*--p = (char)('0' + tenths % 10);
	*--p = '.';
	tenths /= 10;
	do {
		*--p = (char)('0' + tenths % 10);
		tenths /= 10;
	} while (tenths);
	return p;
}

/* sr_std_pct[i] as "%5.1f" prints it, formatted once */
static const char *pct_label(int i)
{
	static char label[SR_NR_STD_PCT][16];

	if (!label[i][0])
		snprintf(label[i], sizeof(label[i]), "%5.1f", sr_std_pct[i]);
	return label[i];
}

static void print_block(FILE *out, const char *what, const char *label, const struct sr_hist *h)
{
	uint64_t v[SR_NR_STD_PCT], below[SR_NR_STD_PCT];
	uint64_t prev = 0;
	char a[24], b[24];

	fprintf(out, "%s percentiles (usec) %s (%" PRIu64 " total samples)\n", what, label,
		h->count);
	if (!h->count)
		return;
	sr_hist_percentiles(h, sr_std_pct, SR_NR_STD_PCT, v, below);
	for (int i = 0; i < SR_NR_STD_PCT; i++) {
		fprintf(out, "\t%s%sth: %-10s (%" PRIu64 " samples)\n",
			sr_std_pct[i] == 99 ? "* " : "  ", pct_label(i), us1(v[i], a, sizeof(a)),
			below[i] - prev);
		prev = below[i];
	}
	fprintf(out, "\t  min=%s, max=%s\n", us1(h->min, a, sizeof(a)), us1(h->max, b, sizeof(b)));
}

/*
 * Wakeup paths (docs/report.md, "Wakeup paths"): the wakeup-latency samples
 * by what the target CPU did from the wakeup to the switch-in, each path's
 * share and latency, then the local wakeups onto a busy CPU that preempted.
 */
static void print_paths(FILE *out, const struct lat_machine *lat)
{
	const uint64_t *p = lat_get_all_paths(lat);
	uint64_t t = lat_paths_total(p), lb = lat_paths_local_busy(p);
	char a[48];

	if (!t)
		return;
	fprintf(out, "\nWakeup paths (what the target CPU did from the wakeup to the switch-in; "
		"local: woken from the target CPU; usec)\n");
	fprintf(out, "  %-24s %9s %7s %9s %9s %9s\n", "path", "samples", "share", "p50", "p95",
		"p99");
	for (int i = 0; i < LAT_PATH_NR; i++) {
		const struct sr_hist *h = lat_get_all_path_latency(lat, i);
		uint64_t v[LAT_PATH_NR_PCT];

		if (!p[i])
			continue;
		fprintf(out, "  %-24s %9" PRIu64 " %6.1f%%", lat_path_name(i), p[i],
			100.0 * (double)p[i] / (double)t);
		if (h->count) {
			sr_hist_percentiles(h, lat_path_pct, LAT_PATH_NR_PCT, v, NULL);
			for (int k = 0; k < LAT_PATH_NR_PCT; k++)
				fprintf(out, " %9.1f", (double)v[k] / 1000.0);
		}
		fputc('\n', out);
	}
	snprintf(a, sizeof(a), "%" PRIu64 "/%" PRIu64, p[LAT_PATH_PREEMPT_LOCAL], lb);
	fprintf(out, "  %-24s %9s", "local busy: preempt", a);
	if (lb)
		fprintf(out, " %6.1f%%", 100.0 * (double)p[LAT_PATH_PREEMPT_LOCAL] / (double)lb);
	fprintf(out, "\n  (local busy: the local wakeups onto a CPU running a task - preempt, "
		"behind_current, queued; preempt: the wakee preempted it)\n");
}

static int cmp_group(const void *a, const void *b)
{
	const struct lat_group *x = *(const struct lat_group *const *)a;
	const struct lat_group *y = *(const struct lat_group *const *)b;

	if (x->lat[LAT_WAKEUP].count != y->lat[LAT_WAKEUP].count)
		return x->lat[LAT_WAKEUP].count < y->lat[LAT_WAKEUP].count ? 1 : -1;
	return strcmp(x->key, y->key);
}

static int cmp_task(const void *a, const void *b)
{
	const struct lat_task *x = *(const struct lat_task *const *)a;
	const struct lat_task *y = *(const struct lat_task *const *)b;

	if (x->runtime_ns != y->runtime_ns)
		return x->runtime_ns < y->runtime_ns ? 1 : -1;
	return x->pid - y->pid;
}

static const char *key_name(enum lat_group_key k)
{
	return k == LAT_BY_COMM ? "comm" : k == LAT_BY_PID ? "pid" : "cgroup";
}

static void print_groups(FILE *out, const struct report_data *d, const struct report_opts *o,
			 enum lat_group_key key)
{
	size_t n = lat_nr_groups(d->lat, key), shown;
	const struct lat_group **g = malloc((n ? n : 1) * sizeof(*g));

	if (!g)
		return;
	for (size_t i = 0; i < n; i++)
		g[i] = lat_group_at(d->lat, key, i);
	qsort(g, n, sizeof(*g), cmp_group);
	shown = o->top > 0 && (size_t)o->top < n ? (size_t)o->top : n;
	for (size_t i = 0; i < shown; i++) {
		char label[300];

		if (!g[i]->lat[LAT_WAKEUP].count)
			continue;
		snprintf(label, sizeof(label), "%s=%s", key_name(key), cli_esc(g[i]->key));
		fprintf(out, "\n");
		print_block(out, "Wakeup Latencies", label, &g[i]->lat[LAT_WAKEUP]);
	}
	if (shown < n)
		fprintf(out, "\n(%zu more %s groups; --top 0 shows all, --json lists all)\n",
			n - shown, key_name(key));
	free(g);
}

static void print_tasks(FILE *out, const struct report_data *d, const struct report_opts *o)
{
	size_t n = lat_nr_tasks(d->lat), k = 0, shown;
	const struct lat_task **t = malloc((n ? n : 1) * sizeof(*t));

	if (!t)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct lat_task *x = lat_task_at(d->lat, i);

		if (lat_filter_match(d->lat, x->comm, x->pid))
			t[k++] = x;
	}
	qsort(t, k, sizeof(*t), cmp_task);
	shown = o->top > 0 && (size_t)o->top < k ? (size_t)o->top : k;
	fprintf(out, "\nTasks (by run time; wakeup latency and run-queue wait in usec)\n");
	fprintf(out, "%8s %-16s %11s %8s %7s %6s %8s %9s %9s %9s %8s %9s\n", "pid", "comm",
		"runtime_ms", "switches", "preempt", "migr", "wakeups", "wake_p50", "wake_p99",
		"wake_max", "rq_waits", "rq_p99");
	for (size_t i = 0; i < shown; i++) {
		const struct sr_hist *w = &t[i]->lat[LAT_WAKEUP], *q = &t[i]->lat[LAT_RUNQ_WAIT];

		fprintf(out, "%8d %-16s %11.3f %8" PRIu64 " %7" PRIu64 " %6" PRIu64 " %8" PRIu64
			" %9.1f %9.1f %9.1f %8" PRIu64 " %9.1f%s\n", t[i]->pid,
			t[i]->comm[0] ? cli_esc(t[i]->comm) : "?", (double)t[i]->runtime_ns / 1e6,
			t[i]->switches, t[i]->preemptions, t[i]->migrations, w->count,
			us(sr_hist_percentile(w, 50)), us(sr_hist_percentile(w, 99)), us(w->max),
			q->count, us(sr_hist_percentile(q, 99)), t[i]->exited ? "  (exited)" : "");
	}
	if (shown < k)
		fprintf(out, "(%zu more tasks; --top 0 shows all, --json lists all)\n", k - shown);
	free(t);
}

/* One line: what the repair stage restored, where, how it was timed. */
static void print_repair(FILE *out, const struct report_data *d)
{
	const struct trace_info *in = d->info;
	const struct trace_repair_cpu *rc = in->repair_cpus;

	if (!rc) {
		fprintf(out, "repair:  off (--no-repair: the raw event stream)\n");
		return;
	}
	if (!d->restored) {
		fprintf(out, "repair:  nothing to restore (no task ran on a CPU whose switch stream "
			"says idle)\n");
		return;
	}
	fprintf(out, "repair:  %" PRIu64 " switches out of idle restored (the kernel did not "
		"trace them):", d->restored);
	for (int c = 0; c < in->repair_nr_cpus; c++) {
		int sc = report_sidecar_idle_exit_untraced(d, c);

		if (!rc[c].restored)
			continue;
		fprintf(out, " CPU %d: %" PRIu64 " (traced: %" PRIu64 " to idle, %" PRIu64
			" from idle; put at exec_start %" PRIu64 ", at the wakeup %" PRIu64
			", at the first event %" PRIu64 "%s)",
			c, rc[c].restored, rc[c].traced_to_idle, rc[c].traced_from_idle,
			rc[c].at_stat_runtime, rc[c].at_lower_bound, rc[c].at_first_event,
			sc == 1 ? "; the sidecar flags it too" :
			sc == 0 ? "; the sidecar did not flag it" : "");
		if (rc[c].clamped_to_window)
			fprintf(out, " [%" PRIu64 " clamped to the reorder window]",
				rc[c].clamped_to_window);
	}
	fprintf(out, "; --no-repair shows the raw stream\n");
}

int report_print_text(FILE *out, const struct report_data *d, const struct report_opts *o)
{
	const struct trace_info *in = d->info;
	const struct lat_summary *s = lat_get_summary(d->lat);
	char filter[128] = "all";

	/* a #P: header below the events' CPUs (trace_text.c): where the count is from */
	if (!strcmp(in->format, "text") && in->cpus_from && strstr(in->cpus_from, "#P: header says"))
		fprintf(out, "trace:   %s (ftrace text, %d CPUs: %s)\n", cli_esc(in->path), in->cpus,
			in->cpus_from);
	else if (!strcmp(in->format, "text"))
		fprintf(out, "trace:   %s (ftrace text, %d CPUs)\n", cli_esc(in->path), in->cpus);
	else
		fprintf(out, "trace:   %s (trace.dat v%d, compression %s, %d CPUs, read by %s)\n",
			cli_esc(in->path), in->file_version, in->compression, in->cpus, in->backend);
	if (in->uname)
		fprintf(out, "kernel:  %s\n", cli_esc(in->uname));
	fprintf(out, "buffer:  %s (%s)\n", in->buffer[0] ? cli_esc(in->buffer) : "top level",
		in->buffer_reason);
	if (in->prev_state_how)
		fprintf(out, "states:  prev_state %s\n", in->prev_state_how);
	fprintf(out, "sidecar: %s\n", cli_esc(d->sidecar_note));
	fprintf(out, "cgroups: cgroup_attach_task: %s; %" PRIu64 " moves followed, %" PRIu64
		" ignored\n", d->cgroup_policy, s->cgroup_moves, s->cgroup_moves_ignored);
	/*
	 * A v6 trace.dat of `schedreplay capture` has no trace_clock option:
	 * "clock unknown" where the capture's sidecar names it (text only: the
	 * JSON's trace.clock stays the file's)
	 */
	fprintf(out, "span:    %.6f .. %.6f s (%.6f s), clock %s%s, %" PRIu64 " events\n",
		(double)in->first_ts / 1e9, (double)in->last_ts / 1e9,
		(double)(in->last_ts - in->first_ts) / 1e9,
		in->clock ? in->clock : d->sc && d->sc->clock ? cli_esc(d->sc->clock) : "unknown",
		!in->clock && d->sc && d->sc->clock ? " (sidecar)" : "", d->events);
	if (d->lost_total) {
		fprintf(out, "lost:    %s%" PRIu64 " events (", d->lost_unknown ? ">= " : "",
			d->lost_total);
		for (int c = 0, first = 1; c < d->nr_cpus; c++) {
			if (!d->lost_per_cpu[c])
				continue;
			fprintf(out, "%sCPU %d: %" PRIu64, first ? "" : ", ", c, d->lost_per_cpu[c]);
			first = 0;
		}
		fprintf(out, ") -- partial results\n");
	} else if (d->lost_sc.unmarked || d->lost_sc.pages_unmarked) {
		/* the kernel lost them without a mark: the warning below says where */
		if (d->lost_sc.unmarked)
			fprintf(out, "lost:    none marked in the trace; the sidecar counts %" PRIu64
				" -- partial results\n", d->lost_sc.unmarked);
		else
			fprintf(out, "lost:    none marked in the trace; the sidecar saw %" PRIu64
				" flagged pages -- partial results\n", d->lost_sc.missed_pages);
	} else {
		fprintf(out, "lost:    none\n");
	}
	print_repair(out, d);
	for (int i = 0; i < d->nr_warnings; i++)
		fprintf(out, "warning: %s\n", cli_esc(d->warnings[i]));

	fprintf(out, "\nEvent counts (records of the file)\n");
	for (size_t i = 0; i < d->nr_counts; i++) {
		fprintf(out, "  %-32s %12" PRIu64, cli_esc(d->counts[i].name), d->counts[i].count);
		if (d->restored && !strcmp(d->counts[i].name, "sched_switch"))
			fprintf(out, "  (+%" PRIu64 " restored)", d->restored);
		fprintf(out, "\n");
	}

	if (o->comm_prefix && o->pid >= 0)
		snprintf(filter, sizeof(filter), "comm=%s* pid=%d", cli_esc(o->comm_prefix), o->pid);
	else if (o->comm_prefix)
		snprintf(filter, sizeof(filter), "comm=%s*", cli_esc(o->comm_prefix));
	else if (o->pid >= 0)
		snprintf(filter, sizeof(filter), "pid=%d", o->pid);

	fprintf(out, "\nWakeup latency starts at %s%s; percentiles are nearest-rank on a "
		"log-linear histogram (<= 0.4%% error)\n",
		trace_event_type_name(s->start_event),
		s->start_event == TRACE_EV_SCHED_WAKEUP ? " (the trace has no sched_waking)" : "");
	if (s->intervals_dropped_lost || s->provisional_dropped)
		fprintf(out, "dropped intervals: %" PRIu64 " at lost-event gaps, %" PRIu64
			" opened by sched_wakeup before the first sched_waking\n",
			s->intervals_dropped_lost, s->provisional_dropped);
	if (s->lost_switches[LAT_LOST_IDLE] + s->lost_switches[LAT_LOST_WOKEN] +
	    s->lost_switches[LAT_LOST_SWITCHED_IN] + s->lost_switches[LAT_LOST_MIGRATED] +
	    s->lost_switches[LAT_LOST_OTHER] + s->intervals_revealed)
		fprintf(out, "untraced switches (taken at the task's last event on its CPU): %" PRIu64
			" seen idle, %" PRIu64 " woken elsewhere, %" PRIu64 " switched in elsewhere, %"
			PRIu64 " migrated, %" PRIu64 " another task's event there (%" PRIu64
			" at its exec_start); %" PRIu64 " preemptions; %" PRIu64
			" at a remote sched_stat_runtime; %" PRIu64
			" wakings after one started their interval; %" PRIu64
			" waits ended at the task's first event after an untraced switch-in\n",
			s->lost_switches[LAT_LOST_IDLE], s->lost_switches[LAT_LOST_WOKEN],
			s->lost_switches[LAT_LOST_SWITCHED_IN], s->lost_switches[LAT_LOST_MIGRATED],
			s->lost_switches[LAT_LOST_OTHER], s->lost_switch_stamped,
			s->lost_switch_preempted, s->lost_switches_remote, s->lost_switch_wakings,
			s->intervals_revealed);
	fprintf(out, "\n");
	print_block(out, "Wakeup Latencies", filter, lat_get_all(d->lat, LAT_WAKEUP));
	for (int k = 0; k < LAT_NR_KEYS; k++)
		if (o->by[k])
			print_groups(out, d, o, (enum lat_group_key)k);
	print_paths(out, d->lat);
	fprintf(out, "\n");
	print_block(out, "Run-queue wait after preemption", filter,
		    lat_get_all(d->lat, LAT_RUNQ_WAIT));
	print_tasks(out, d, o);
	return ferror(out) ? -1 : 0;
}
