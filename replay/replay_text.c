// SPDX-License-Identifier: GPL-2.0
/*
 * Text report of `schedreplay replay`: predicted next to measured, with the
 * relative error of every compared figure.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/cli.h>
#include <schedreplay/sidecar.h>
#include <schedreplay/sim.h>

#include "calib.h"
#include "text_cell.h"

/* "< 20 samples": CALIB_MIN_SAMPLES in a remark of the text, as the paths' rows say it */
#define STR_(x) #x
#define STR(x) STR_(x)
#define UNDER_MIN "< " STR(CALIB_MIN_SAMPLES) " samples"

void replay_text_pct_cell(FILE *out, int width, double pct)
{
	char b[64];

	snprintf(b, sizeof(b), "%+.1f", pct);
	if ((int)strlen(b) > width - 1)
		snprintf(b, sizeof(b), "%+.*e", width - 8 > 0 ? width - 8 : 0, pct);
	fprintf(out, " %*s%%", width - 1, b);
}

static void err_cell(FILE *out, double pred, double meas)
{
	if (meas == 0)
		fprintf(out, " %9s", "-");
	else
		replay_text_pct_cell(out, 9, (pred - meas) / meas * 100.0);
}

void replay_text_nonfair_note(FILE *out, const struct wl_workload *wl)
{
	uint64_t v = replay_nonfair_samples(wl);

	if (v)
		fprintf(out, "  (%" PRIu64 " of the measured samples are wakeups of RT/DL tasks, replayed "
			"at their trace times with their switch-ins: they repeat the trace's but for "
			"the notes' approximations; the other %" PRIu64 " (fair tasks') are "
			"predicted)\n", v, lat_get_all(wl_measured_latency(wl), LAT_WAKEUP)->count - v);
}

void replay_text_no_wakeup_note(FILE *out, const struct wl_workload *wl)
{
	if (wl_facts(wl)->has_sched_waking || !replay_count_untraced(wl, "sched_wakeup"))
		return;
	fprintf(out, "  (no measured wakeup latency: the trace has neither sched_waking nor "
		"sched_wakeup; the predicted samples are the wakeups assumed at the switch-ins of "
		"blocked tasks, each woken externally there: not comparable with a measurement)\n");
}

/*
 * Channels (docs/replay.md, "Channels"): only for a trace with the syscall
 * events, so that other traces' reports are unchanged.
 */
static void print_channels(FILE *out, const struct wl_workload *wl)
{
	const struct wl_chan_stats *c = &wl_facts(wl)->chan;
	static const char *const ev[4] = { "sys_enter_read", "sys_exit_read", "sys_enter_write",
					   "sys_exit_write" };

	/*
	 * Options that read the syscall events, on a trace without (all of)
	 * them: a line saying they did nothing; the output was the same as
	 * without them, not a word said.  Other traces' reports unchanged.
	 */
	if (!c->syscalls && c->requested) {
		fprintf(out, "channels:  none: --channels needs the four syscalls:sys_{enter,exit}_"
			"{read,write} events; the trace has no records of");
		for (int i = 0, n = 0; i < 4; i++)
			if (!(c->events_seen & (1u << i)))
				fprintf(out, "%s %s", n++ ? "," : "", ev[i]);
		fprintf(out, "  [trace: syscalls]\n");
	}
	/* a mark needs a read's or a write's enter and exit (exit_mark_follows()) */
	if (c->marks_requested && (c->events_seen & 3) != 3 && (c->events_seen & 12) != 12)
		fprintf(out, "syscalls:  --resched-at syscall-exit: the trace has no read or write "
			"with its syscalls:sys_enter_* and sys_exit_* records: every waker was "
			"switched out after the drawn cost (as --resched-at cost)  [trace: syscalls]\n");
	if (!c->syscalls)
		return;
	if (!c->modelled) {
		fprintf(out, "channels:  not modelled (the trace has read/write syscall events: "
			"--channels auto models its pipes and sockets)\n");
		return;
	}
	fprintf(out, "channels:  %u modelled, %u not (reads their linked writes cannot explain, "
		"or no write resolved to them); "
		"reads %" PRIu64 " of %" PRIu64 ", writes %" PRIu64 " of %" PRIu64 " as channel ops; "
		"%" PRIu64 " traced wakes and %" PRIu64 " sleeps now the channels'  [trace: syscalls]\n",
		c->channels, c->unlinked_channels, c->reads_modelled, c->reads, c->writes_modelled,
		c->writes, c->wakes_explained, c->blocks_explained);
	if (c->damaged)
		fprintf(out, "channels:  %" PRIu64 " reads/writes left out: their ret exceeds "
			"their count (a damaged trace)  [trace: syscalls]\n", c->damaged);
}

/* What the reader's repair restored, and where the simulation emits its counterpart. */
static void print_repair(FILE *out, const struct wl_workload *wl)
{
	const struct trace_info *in = wl_trace_info(wl);
	const struct wl_facts *f = wl_facts(wl);

	if (!(in->repair & TRACE_REPAIR_IDLE_EXIT)) {
		fprintf(out, "repair:    off (the raw event stream)%s\n", f->idle_exit_untraced ?
			"; idle exits of CPUs the sidecar marks untraced are not simulated either" : "");
		return;
	}
	if (!wl_counts(wl)->sched_switch_restored) {
		fprintf(out, "repair:    nothing restored (every switch out of idle is traced)\n");
		return;
	}
	fprintf(out, "repair:    %" PRIu64 " switches out of idle restored (untraced by the kernel)",
		wl_counts(wl)->sched_switch_restored);
	for (int c = 0; in->repair_cpus && c < in->repair_nr_cpus; c++)
		if (in->repair_cpus[c].restored)
			fprintf(out, "; CPU %d: %" PRIu64 " restored, %" PRIu64 " traced%s", c,
				in->repair_cpus[c].restored, in->repair_cpus[c].traced_from_idle,
				c < 64 && (f->idle_exit_restored >> c & 1) ?
				" (simulated idle exits counted as restored)" : "");
	fputc('\n', out);
}

/*
 * CPU bandwidth limits (cfs_quota_us) of the replay's groups: only when a
 * group has one, so that other traces' reports are unchanged.
 */
static void print_bandwidth(FILE *out, const struct wl_workload *wl, bool off)
{
	struct replay_config rc = { .no_bandwidth = off };

	for (uint32_t g = 0; g < wl_nr_groups(wl); g++) {
		const struct wl_group *wg = wl_group(wl, g);

		if (wg->quota_us <= 0)
			continue;
		fprintf(out, "bandwidth: %s quota %ld us per period %ld us: %s  [%s]\n", cli_esc(wg->path),
			wg->quota_us, wg->period_us, replay_bandwidth_status(&rc),
			wl_fact_source_name(wg->bw_src));
		if (wg->bw_phase_ns >= 0)
			fprintf(out, "bandwidth: %s period boundaries at %.1f us + k x %ld us (trace "
				"clock; from %u switch-ins ending throttled waits)  [trace]\n", cli_esc(wg->path),
				(double)wg->bw_phase_ns / 1e3, wg->period_us, wg->bw_phase_samples);
		else
			fprintf(out, "bandwidth: %s period boundaries assumed at k x %ld us of the "
				"trace clock (the trace shows no throttled wait ending)  [default]\n",
				cli_esc(wg->path), wg->period_us);
	}
}

/* --ticks traced: the trace's ticks per CPU, and its tick -> switch delays */
static void print_traced_ticks(FILE *out, const struct wl_workload *wl)
{
	const struct calib_path *cp = &wl_calibration(wl)->tick;
	unsigned int nr = wl_facts(wl)->nr_cpus;

	fprintf(out, "ticks:     traced: %u found (hardirq sched_stat_runtime of the running task), "
		"in their periods", wl_nr_ticks_found(wl));
	for (unsigned int c = 0; c < nr && c < 8; c++) {
		uint32_t n;

		wl_traced_ticks(wl, (int)c, &n);
		fprintf(out, "%s CPU %u %u", c ? "," : ":", c, n);
	}
	if (nr > 8)
		fprintf(out, ", ...");
	fprintf(out, "; tick to switch: %" PRIu64 " delays", cp->n);
	if (cp->n)
		fprintf(out, ", p50 %.1f us, p90 %.1f us", cp->p50 / 1e3, cp->p90 / 1e3);
	fprintf(out, "%s  [trace]\n", cp->n < CALIB_MIN_SAMPLES ?
		" (" UNDER_MIN ": the timing line's tick delay is used)" : "");
}

/*
 * The time clock_task left out per CPU (wl_clock_left(), workload_steal.c):
 * the total, its share of the trace's span and the share the charge chains
 * covered (the rest is unseen: runs too short to show a chain).
 */
static void print_clock_left(FILE *out, const struct wl_workload *wl)
{
	unsigned int nr = wl_facts(wl)->nr_cpus;

	if (!wl_facts(wl)->has_stat_runtime)
		return;
	fprintf(out, "clock:     clock_task left out (steal, IRQ time; chains of one task's "
		"charges, gaps over 5 us)");
	for (unsigned int c = 0; c < nr && c < 8; c++) {
		struct wl_clock_left l;

		wl_clock_left(wl, (int)c, &l);
		fprintf(out, "%s CPU %u %.3f ms (%.2f %% of the chains' %.1f ms, %.0f %% of the trace)",
			c ? "," : ":", c, (double)l.left_ns / 1e6,
			l.chain_ns ? 100.0 * (double)l.left_ns / (double)l.chain_ns : 0.0,
			(double)l.chain_ns / 1e6,
			l.span_ns ? 100.0 * (double)l.chain_ns / (double)l.span_ns : 0.0);
	}
	fprintf(out, "%s  [trace]\n", nr > 8 ? ", ..." : "");
	for (unsigned int c = 0; c < nr && c < 8; c++) {
		struct wl_clock_left l;

		if (!wl_clock_left(wl, (int)c, &l) || !l.proc_stat)
			continue;
		fprintf(out, "clock:     CPU %u: /proc/stat over the capture: steal %.0f ms, "
			"irq + softirq %.0f ms; the trace's left-out time %.3f ms  [sidecar]\n", c,
			(double)l.proc_steal_ns / 1e6, (double)l.proc_irq_ns / 1e6,
			(double)l.left_ns / 1e6);
	}
}

/* "CPU 0 X us, CPU 1 Y us" of the tick grid's phases (the first 8 CPUs) */
static void print_grid_phases(FILE *out, const struct wl_facts *f)
{
	for (unsigned int c = 0; c < f->nr_cpus && c < 8; c++)
		fprintf(out, "%s CPU %u %.1f us%s", c ? "," : ":", c, f->tick_phase_grid_ns[c] / 1e3,
			f->tick_phase_grid_cpus >> c & 1 ? "" : " (all CPUs')");
	if (f->nr_cpus > 8)
		fprintf(out, ", ...");
}

/*
 * The HZ line's tail, by where the simulation's phases come from
 * (replay_tick_phase_from()): the tick grid's phases; nothing for the
 * full-period charges'; at 0 ns, "0 ns assumed" where the grid does not
 * hold either, else (--tick-phase zero) 0 ns with the grid's phases named.
 */
static void print_tick_phase(FILE *out, const struct wl_facts *f, enum replay_tick_phase mode)
{
	enum replay_tick_phase_from from = replay_tick_phase_from(f, mode);

	if (from == REPLAY_TICK_FROM_GRID) {
		fprintf(out, " (tick phase from the tick grid");
		print_grid_phases(out, f);
		fprintf(out, ")\n");
	} else if (from == REPLAY_TICK_FROM_CHARGES) {
		fprintf(out, "\n");
	} else if (!f->tick_phase_grid_known) {
		fprintf(out, " (tick phase unknown: 0 ns assumed)\n");
	} else {
		fprintf(out, " (tick phase: 0 ns, --tick-phase zero; the tick grid's");
		print_grid_phases(out, f);
		fprintf(out, ")\n");
	}
}

/*
 * The "affinity:" line (docs/replay.md, "Affinity"): only for a trace with
 * some affinity data (the others: one traced CPU = pinned, as always).
 */
static void print_affinity(FILE *out, const struct wl_facts *f, bool inferred)
{
	if (!f->aff_events && !f->aff_reads)
		return;
	if (!f->aff_data) {
		fprintf(out, "affinity:  inferred (one traced CPU = pinned): the %s  [%s]\n",
			f->aff_events ? "sidecar's reads have no Cpus_allowed_list" :
			"trace does not record sched_setaffinity()", f->aff_events ? "sidecar" : "trace");
		return;
	}
	fprintf(out, "affinity:  %s: tasks' masks from the end read %u, the start read %u, the "
		"parent's at the fork %u, none (inferred) %u; %u pinned to one CPU; %u "
		"sched_setaffinity() calls: their mask from the end read %u, the CPUs run on %u, "
		"all CPUs %u  [sidecar + trace]\n", inferred ? "ignored (--affinity inferred)" :
		"captured", f->aff_tasks[WL_AFF_END_READ], f->aff_tasks[WL_AFF_START_READ],
		f->aff_tasks[WL_AFF_FORK], f->aff_tasks[WL_AFF_INFERRED], f->aff_pinned,
		f->aff_calls[WL_AFF_END_READ] + f->aff_calls[WL_AFF_RUN_CPUS] + f->aff_calls[WL_AFF_NONE],
		f->aff_calls[WL_AFF_END_READ], f->aff_calls[WL_AFF_RUN_CPUS], f->aff_calls[WL_AFF_NONE]);
}

static void print_facts(FILE *out, const struct wl_workload *wl, bool no_bandwidth,
			bool wake_clock_traced, bool ticks_traced, enum replay_tick_phase tick_phase,
			bool affinity_inferred)
{
	const struct trace_info *i = wl_trace_info(wl);
	const struct wl_facts *f = wl_facts(wl);
	const struct wl_counts *n = wl_counts(wl);
	uint64_t span = wl_last_ts(wl) - wl_first_ts(wl);

	char format[32];

	/* report_print_text()'s names: a text trace has no trace.dat version */
	if (i->format && !strcmp(i->format, "text"))
		snprintf(format, sizeof(format), "ftrace text");
	else
		snprintf(format, sizeof(format), "trace.dat v%d", i->file_version);
	fprintf(out, "trace:     %s (%s, %" PRIu64 " events, %.6f s, %" PRIu64 " lost)\n",
		i->path ? cli_esc(i->path) : "?", format, n->events, (double)span / 1e9, n->lost_events);
	if (wl_sidecar_path(wl))
		fprintf(out, "sidecar:   %s\n", cli_esc(wl_sidecar_path(wl)));
	/* the sidecar's lost-event counters where they disagree with the trace */
	for (int k = 0; wl_lost_sidecar(wl) && k < wl_lost_sidecar(wl)->nr_text; k++)
		fprintf(out, "lost:      %s\n", cli_esc(wl_lost_sidecar(wl)->text[k]));
	if (!f->release && f->release_before)
		fprintf(out, "kernel:    unknown, before %s  [%s: %s]\n", f->release_before,
			wl_fact_source_name(f->release_src), f->release_how);
	else
		fprintf(out, "kernel:    %s  [%s: %s]\n", f->release ? cli_esc(f->release) : "unknown",
			wl_fact_source_name(f->release_src), f->release_how);
	fprintf(out, "cpus:      %u  [%s: %s]\n", f->nr_cpus, wl_fact_source_name(f->cpus_src),
		f->cpus_how);
	fprintf(out, "capacity:  %s  [%s: %s]\n", f->capacity_asym ? "1024 assumed, the machine's differ" :
		"1024", wl_fact_source_name(f->capacity_src), f->capacity_how);
	if (i->prev_state_how)
		fprintf(out, "states:    prev_state %s  [trace]\n", i->prev_state_how);
	fprintf(out, "HZ:        %u  [%s: %s]", f->hz, wl_fact_source_name(f->hz_src), f->hz_how);
	print_tick_phase(out, f, tick_phase);
	fprintf(out, "groups:    %u  [%s: %s]\n", wl_nr_groups(wl), wl_fact_source_name(f->groups_src),
		f->groups_how);
	print_bandwidth(out, wl, no_bandwidth);
	print_repair(out, wl);
	fprintf(out, "workload:  %u tasks, %u wakes\n", wl_nr_tasks(wl), wl_nr_wakes(wl));
	print_affinity(out, f, affinity_inferred);
	fprintf(out, "timing:    __schedule() reads the rq clock %" PRIu64 " ns before its "
		"sched_switch (%u samples), a slice-ending tick's switch %" PRIu64 " ns after it (%u), "
		"a waker that sleeps right after a WF_SYNC wakeup runs %" PRIu64 " ns in between "
		"(%u)  [trace: medians, 0 under 20 samples]\n",
		f->switch_lead_ns, f->switch_lead_samples, f->tick_switch_ns, f->tick_switch_samples,
		f->sync_tail_ns, f->sync_tail_samples);
	if (wake_clock_traced)
		fprintf(out, "wakeups:   --wake-clock traced: a local wakeup's enqueue %" PRIu64
			" ns after its sched_waking (%u samples%s)  [trace]\n", f->wake_clock_ns,
			f->wake_clock_samples, f->wake_clock_samples < 20 ? ", under 20: 0" : "");
	if (f->exec_marks_traced || f->exec_marks_lead || f->exec_marks_at_exec)
		fprintf(out, "execs:     --exec-balance-at traced: sched_exec() at the traced stopper "
			"move %u, %" PRIu64 " ns of work before the exec %u (the median of %u "
			"traced moves), at the exec %u  [trace]\n", f->exec_marks_traced,
			f->exec_lead_ns, f->exec_marks_lead, f->exec_lead_samples,
			f->exec_marks_at_exec);
	if (ticks_traced)
		print_traced_ticks(out, wl);
	print_clock_left(out, wl);
	print_channels(out, wl);
}

static void calib_row(FILE *out, const char *label, const struct calib_path *cp,
		      const char *remark)
{
	fprintf(out, "    %-13s %9" PRIu64, label, cp->n);
	if (cp->n)
		fprintf(out, " %9.1f %9.1f %9.1f %9.1f %9.1f", cp->mean / 1e3, cp->p50 / 1e3,
			cp->p90 / 1e3, cp->p99 / 1e3, cp->max / 1e3);
	fprintf(out, "%s\n", remark);
}

/*
 * The idle path per CPU (calib.h): a CPU whose switches out of idle the
 * reader restored measures them early by the idle exit, and its simulated
 * idle wakeups draw from its own samples.
 */
static void print_calib_idle_cpus(FILE *out, const struct wl_workload *wl)
{
	const struct wl_calib *c = wl_calibration(wl);
	const struct wl_facts *f = wl_facts(wl);

	for (unsigned int cpu = 0; cpu < c->nr_cpus; cpu++) {
		const struct calib_path *t = c->idle_cpu[cpu];
		bool restored = cpu < 64 && (f->idle_exit_restored >> cpu & 1);
		char label[32];

		if (!t[CALIB_CTX_ALL].n)
			continue;
		snprintf(label, sizeof(label), "on CPU %u", cpu);
		calib_row(out, label, &t[CALIB_CTX_ALL],
			  restored ? "   (switches out of idle restored by the reader: shorter than traced by the idle exit)" :
			  "   (switches out of idle traced)");
		for (int x = 0; x < CALIB_CTX_NR; x++) {
			if (!t[x].n)
				continue;
			snprintf(label, sizeof(label), "  from %s", calib_ctx_name(x));
			calib_row(out, label, &t[x], t[x].n < CALIB_MIN_SAMPLES ?
				  "   (" UNDER_MIN ": the CPU's row above is drawn from)" : "");
			/* its split by idle residency (--idle-residency on) */
			for (int g = 0; c->idle_band_cpu && g < c->idle_band_cpu[cpu][x].nr; g++) {
				const struct calib_bands *cb = &c->idle_band_cpu[cpu][x];
				char name[24], remark[64];

				calib_bands_name(cb, g, name, sizeof(name));
				snprintf(label, sizeof(label), "    %s", name);
				snprintf(remark, sizeof(remark), "   (idle %s us at the wakeup)", name);
				calib_row(out, label, &cb->g[g], remark);
			}
		}
		if (t[CALIB_CTX_ALL].n < CALIB_MIN_SAMPLES)
			fprintf(out, "      (too few on CPU %u: the %s samples of all CPUs are used)\n",
				cpu, restored ? "restored" : "traced");
	}
}

static void print_calib(FILE *out, const struct wl_workload *wl, bool ticks_traced)
{
	const struct wl_calib *c = wl_calibration(wl);

	fprintf(out, "\nMechanical costs calibrated from the trace (wakeup latency by path and waker context, us)\n");
	if (wl_facts(wl)->all_preempt_costs)
		fprintf(out, "  (--preempt-costs all: every preempting-path sample a cost, however long a later wakeup or tick made it wait)\n");
	fprintf(out, "  %-15s %9s %9s %9s %9s %9s %9s\n", "path", "samples", "mean", "p50", "p90",
		"p99", "max");
	for (int p = 0; p < WL_PATH_NONE; p++) {
		const struct calib_path *cp = &c->path[p];

		fprintf(out, "  %-15s %9" PRIu64, wl_path_name(p), cp->n);
		if (cp->n)
			fprintf(out, " %9.1f %9.1f %9.1f %9.1f %9.1f", cp->mean / 1e3, cp->p50 / 1e3,
				cp->p90 / 1e3, cp->p99 / 1e3, cp->max / 1e3);
		if (p == WL_PATH_QUEUED)
			fprintf(out, "   (scheduling delay: predicted, not a cost)");
		else if (cp->fallback >= 0)
			fprintf(out, "   (< %d samples: %s's used)", CALIB_MIN_SAMPLES,
				wl_path_name(cp->fallback));
		else if (cp->n && cp->n < CALIB_MIN_SAMPLES)
			fprintf(out, "   (< %d samples: its own used, --preempt-costs strict)",
				CALIB_MIN_SAMPLES);
		else if (!cp->n)
			fprintf(out, "   (no samples, none to borrow: no cost, 0 us)");
		fputc('\n', out);
		for (int x = 0; p != WL_PATH_QUEUED && x < CALIB_CTX_NR; x++) {
			const struct calib_path *xp = &c->ctx[p][x];

			if (!xp->n)
				continue;
			fprintf(out, "    from %-8s %9" PRIu64 " %9.1f %9.1f %9.1f %9.1f %9.1f%s\n",
				calib_ctx_name(x), xp->n, xp->mean / 1e3, xp->p50 / 1e3,
				xp->p90 / 1e3, xp->p99 / 1e3, xp->max / 1e3,
				xp->n < CALIB_MIN_SAMPLES ? "   (" UNDER_MIN ": the path's row is drawn from)" : "");
		}
		if (p == WL_PATH_IDLE)
			print_calib_idle_cpus(out, wl);
	}
	if (ticks_traced) {
		const struct calib_path *cp = &c->tick;

		fprintf(out, "  %-15s %9" PRIu64, "tick->switch", cp->n);
		if (cp->n)
			fprintf(out, " %9.1f %9.1f %9.1f %9.1f %9.1f", cp->mean / 1e3, cp->p50 / 1e3,
				cp->p90 / 1e3, cp->p99 / 1e3, cp->max / 1e3);
		fprintf(out, "%s\n", cp->n < CALIB_MIN_SAMPLES ?
			"   (< 20 samples: the timing line's tick to switch used)" :
			"   (a rescheduling tick's switch: --ticks traced)");
	}
}

/* The wakeup latency of the group of @key named @k, or NULL */
static const struct sr_hist *group_hist(const struct lat_machine *lat, enum lat_group_key key,
					const char *k)
{
	const struct lat_group *g = lat_group_find(lat, key, k);

	return g ? &g->lat[LAT_WAKEUP] : NULL;
}

/*
 * A run's or a group's name as a row label of @width characters: a longer
 * one goes on a line of its own first, after @indent spaces, and the row's
 * label is empty (cut, "aaron-skip,no-tg-ratelimit" and
 * "aaron-skip,tg-ratelimit" read alike, and so do hackbench's cgroups).
 */
static const char *row_label(FILE *out, int indent, const char *name, size_t width)
{
	if (strlen(name) <= width)
		return name;
	fprintf(out, "%*s%s\n", indent, "", name);
	return "";
}

/* @tag: after the header line's sample count (NULL: nothing) */
static void print_dist_rows(FILE *out, const char *title, const char *tag,
			    const struct sr_hist *meas, const struct sr_hist *const *pred,
			    const char *const *names, unsigned int nr)
{
	uint64_t m[SR_NR_STD_PCT], p[SR_NR_STD_PCT];
	static const int show[] = { 0, 2, 3, 4, 6 };   /* p50 p90 p95 p99 p99.9 */

	fprintf(out, "\n%s: measured %" PRIu64 " samples%s\n", title, meas ? meas->count : 0,
		tag ? tag : "");
	fprintf(out, "  %-22s", "");
	for (unsigned int k = 0; k < sizeof(show) / sizeof(show[0]); k++)
		fprintf(out, " %10s", sr_std_pct_key[show[k]]);
	fprintf(out, " %10s\n", "samples");
	if (meas && meas->count)
		sr_hist_percentiles(meas, sr_std_pct, SR_NR_STD_PCT, m, NULL);
	fprintf(out, "  %-22s", "measured (us)");
	for (unsigned int k = 0; k < sizeof(show) / sizeof(show[0]); k++)
		if (meas && meas->count)
			fprintf(out, " %10.1f", m[show[k]] / 1e3);
		else
			fprintf(out, " %10s", "-");
	fprintf(out, " %10" PRIu64 "\n", meas ? meas->count : 0);
	for (unsigned int r = 0; r < nr; r++) {
		char label[300];

		snprintf(label, sizeof(label), "%s (us)", names[r]);
		fprintf(out, "  %-22.22s", row_label(out, 2, label, 22));
		if (pred[r] && pred[r]->count)
			sr_hist_percentiles(pred[r], sr_std_pct, SR_NR_STD_PCT, p, NULL);
		for (unsigned int k = 0; k < sizeof(show) / sizeof(show[0]); k++)
			if (pred[r] && pred[r]->count)
				fprintf(out, " %10.1f", p[show[k]] / 1e3);
			else
				fprintf(out, " %10s", "-");
		fprintf(out, " %10" PRIu64 "\n", pred[r] ? pred[r]->count : 0);
		if (!meas || !meas->count || !pred[r] || !pred[r]->count)
			continue;
		fprintf(out, "  %-22s", "  error");
		for (unsigned int k = 0; k < sizeof(show) / sizeof(show[0]); k++)
			if (m[show[k]])     /* a measured 0.0 us percentile has no relative error */
				replay_text_pct_cell(out, 10, ((double)p[show[k]] - (double)m[show[k]]) /
					 (double)m[show[k]] * 100.0);
			else
				fprintf(out, " %10s", "-");
		replay_text_pct_cell(out, 10, ((double)pred[r]->count - (double)meas->count) /
			 (double)meas->count * 100.0);
		fputc('\n', out);
	}
}

/* Groups ordered by measured sample count, largest first. */
struct gref { const char *key; uint64_t n; };

static int cmp_gref(const void *a, const void *b)
{
	const struct gref *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* What a group's block needs: the runs and the key of the groups shown */
struct group_ctx {
	FILE *out;
	const struct wl_workload *wl;
	const char *const *names;
	const struct replay_result *const *runs;
	unsigned int nr;
	enum lat_group_key key;
	const char *what;                     /* "cgroup", "comm" */
	const struct replay_nonfair_comms *marks;  /* by comm: REPLAY_NONFAIR_COMM_MARK */
};

/*
 * The measured groups of c->key with samples of @kind, most first: @show for
 * each of the first @top (<= 0: all), then how many more there are, after
 * @more_indent.
 */
static void for_top_groups(const struct group_ctx *c, enum lat_kind kind, int top,
			   const char *more_indent,
			   void (*show)(const struct group_ctx *c, const char *key))
{
	const struct lat_machine *ml = wl_measured_latency(c->wl);
	size_t ng = lat_nr_groups(ml, c->key), k = 0;
	struct gref *g = calloc(ng ? ng : 1, sizeof(*g));

	if (!g)
		return;
	for (size_t i = 0; i < ng; i++) {
		const struct lat_group *lg = lat_group_at(ml, c->key, i);

		if (lg->lat[kind].count)
			g[k++] = (struct gref){ lg->key, lg->lat[kind].count };
	}
	qsort(g, k, sizeof(*g), cmp_gref);
	for (size_t i = 0; i < k && (top <= 0 || i < (size_t)top); i++)
		show(c, g[i].key);
	if (top > 0 && k > (size_t)top)
		fprintf(c->out, "%s(%zu more %s groups; --top 0 shows all)\n", more_indent,
			k - (size_t)top, c->what);
	free(g);
}

static void print_group(const struct group_ctx *c, const char *key)
{
	const struct sr_hist *pred[16];
	char title[256];

	snprintf(title, sizeof(title), "Wakeup latency, %s=%s", c->what, key[0] ? cli_esc(key) : "?");
	for (unsigned int r = 0; r < c->nr && r < 16; r++)
		pred[r] = group_hist(replay_latency(c->runs[r]), c->key, key);
	print_dist_rows(c->out, title,
			c->key == LAT_BY_COMM && replay_nonfair_comm(c->marks, key) ?
			"  " REPLAY_NONFAIR_COMM_MARK : NULL,
			group_hist(wl_measured_latency(c->wl), c->key, key), pred,
			c->names, c->nr < 16 ? c->nr : 16);
}

static void print_groups(FILE *out, const struct wl_workload *wl, enum lat_group_key key,
			 const char *what, const char *const *names,
			 const struct replay_result *const *runs, unsigned int nr, int top)
{
	struct replay_nonfair_comms marks;
	/* out of memory: the rows without the mark, as for_top_groups() shows none */
	bool marked = key == LAT_BY_COMM && replay_nonfair_comms(wl, &marks) == 0;
	const struct group_ctx c = { out, wl, names, runs, nr, key, what, marked ? &marks : NULL };

	for_top_groups(&c, LAT_WAKEUP, top, "\n", print_group);
	if (marked)
		replay_nonfair_comms_free(&marks);
}

/*
 * The run-queue wait section: one block per group (all, then the cgroups and
 * the comms with measured run-queue waits, most first, --top of each), the
 * measured row, then each run's row and its error.  Long: samples over
 * LAT_LONG_NS, of the run-queue wait and, for the same group, of the wakeup
 * latency (where starvation shows).
 */
struct rq_row {
	const struct sr_hist *h;
	uint64_t long_rq, long_wake;
};

/* The row of the group of @key named @k; @k NULL: all */
static struct rq_row rq_row_of(const struct lat_machine *lat, enum lat_group_key key,
			       const char *k)
{
	struct rq_row r = { 0 };
	const struct lat_group *g;

	if (!k) {
		r.h = lat_get_all(lat, LAT_RUNQ_WAIT);
		r.long_rq = lat_get_all_over_long(lat, LAT_RUNQ_WAIT);
		r.long_wake = lat_get_all_over_long(lat, LAT_WAKEUP);
	} else if ((g = lat_group_find(lat, key, k))) {
		r.h = &g->lat[LAT_RUNQ_WAIT];
		r.long_rq = g->over_long[LAT_RUNQ_WAIT];
		r.long_wake = g->over_long[LAT_WAKEUP];
	}
	return r;
}

/* The section's figures, and where p50, p95, p99 are in sr_std_pct[] */
enum { RQ_P50, RQ_P95, RQ_P99, RQ_MAX, RQ_NR_FIG };
enum { STD_P50 = 0, STD_P95 = 3, STD_P99 = 4 };

/* p50, p95, p99 and max of @h, in ns */
static void rq_figures(const struct sr_hist *h, uint64_t f[RQ_NR_FIG])
{
	uint64_t p[SR_NR_STD_PCT];

	sr_hist_percentiles(h, sr_std_pct, SR_NR_STD_PCT, p, NULL);
	f[RQ_P50] = p[STD_P50];
	f[RQ_P95] = p[STD_P95];
	f[RQ_P99] = p[STD_P99];
	f[RQ_MAX] = h->max;
}

static void rq_print_row(FILE *out, const char *label, const char *side, const struct rq_row *r)
{
	uint64_t f[RQ_NR_FIG];

	fprintf(out, "  %-28.28s %-14.14s %9" PRIu64, label, side, r->h ? r->h->count : 0);
	if (r->h && r->h->count) {
		rq_figures(r->h, f);
		for (int i = 0; i < RQ_NR_FIG; i++)
			fprintf(out, " %10.1f", f[i] / 1e3);
	} else {
		fprintf(out, " %10s %10s %10s %10s", "-", "-", "-", "-");
	}
	fprintf(out, " %8" PRIu64 " %11" PRIu64 "\n", r->long_rq, r->long_wake);
}

/*
 * The relative errors of a run's row, where something was measured: of the
 * samples always (-100 % where the model has none), of a figure where both
 * sides have one.
 */
static void rq_print_error(FILE *out, const struct rq_row *m, const struct rq_row *p)
{
	uint64_t fm[RQ_NR_FIG], fp[RQ_NR_FIG];
	uint64_t pn = p->h ? p->h->count : 0;

	if (!m->h || !m->h->count)
		return;
	rq_figures(m->h, fm);
	if (pn)
		rq_figures(p->h, fp);
	fprintf(out, "  %-28s %-14s", "", "  error");
	err_cell(out, (double)pn, (double)m->h->count);
	for (int i = 0; i < RQ_NR_FIG; i++)
		if (pn && fm[i])
			replay_text_pct_cell(out, 10, ((double)fp[i] - (double)fm[i]) / (double)fm[i] * 100.0);
		else
			fprintf(out, " %10s", "-");
	fputc('\n', out);
}

static void rq_print_group(const struct group_ctx *c, const char *k, const char *label)
{
	struct rq_row m = rq_row_of(wl_measured_latency(c->wl), c->key, k);

	/* a long cgroup path on a line of its own: cut, pipe and socket groups look alike */
	rq_print_row(c->out, row_label(c->out, 2, label, 28), "measured", &m);
	for (unsigned int r = 0; r < c->nr; r++) {
		struct rq_row p = rq_row_of(replay_latency(c->runs[r]), c->key, k);

		rq_print_row(c->out, "", row_label(c->out, 2 + 28 + 1, c->names[r], 14), &p);
		rq_print_error(c->out, &m, &p);
	}
}

static void rq_print_named_group(const struct group_ctx *c, const char *key)
{
	char label[300];

	snprintf(label, sizeof(label), "%s=%s", c->what, key[0] ? cli_esc(key) : "?");
	rq_print_group(c, key, label);
}

static void print_runq(FILE *out, const struct wl_workload *wl, const char *const *names,
		       const struct replay_result *const *runs, unsigned int nr, int top)
{
	static const enum lat_group_key keys[2] = { LAT_BY_CGROUP, LAT_BY_COMM };
	static const char *const what[2] = { "cgroup", "comm" };
	struct group_ctx c = { out, wl, names, runs, nr, LAT_BY_COMM, NULL, NULL };

	fprintf(out, "\nRun-queue wait (from a preemption, prev_state R/R+, to the next switch-in; "
		"us; >10ms: samples over 10 ms, of the run-queue wait and of the wakeup latency)\n");
	fprintf(out, "  %-28s %-14s %9s %10s %10s %10s %10s %8s %11s\n", "group", "", "samples",
		"p50", "p95", "p99", "max", ">10ms", "wake >10ms");
	rq_print_group(&c, NULL, "all");
	for (int kk = 0; kk < 2; kk++) {
		c.key = keys[kk];
		c.what = what[kk];
		for_top_groups(&c, LAT_RUNQ_WAIT, top, "  ", rq_print_named_group);
	}
}

/* A share cell of the wakeup paths: @n of @d in %, "-" when @d is 0 */
static void share_cell(FILE *out, uint64_t n, uint64_t d)
{
	if (d)
		fprintf(out, " %6.1f%%", (double)n / (double)d * 100.0);
	else
		fprintf(out, " %7s", "-");
}

/* The predicted share minus the measured, in points ("-" when a side has none) */
static void points_cell(FILE *out, uint64_t pn, uint64_t pd, uint64_t mn, uint64_t md)
{
	if (pd && md)
		fprintf(out, " %+7.1f", ((double)pn / (double)pd - (double)mn / (double)md) * 100.0);
	else
		fprintf(out, " %7s", "-");
}

/* Run @r's column head: its name, or "run N" when the name is wider than the column's 14. */
static const char *run_head(char head[16], const char *const *names, unsigned int r)
{
	if (strlen(names[r]) > 14)
		snprintf(head, 16, "run %u", r + 1);
	else
		snprintf(head, 16, "%s", names[r]);
	return head;
}

/* A path's samples and their p50, p95, p99 (µs; "-" without samples), count @w wide */
static void path_latency_cells(FILE *out, const struct sr_hist *h, int w)
{
	uint64_t v[LAT_PATH_NR_PCT];

	fprintf(out, " %*" PRIu64, w, h->count);
	if (!h->count) {
		for (int k = 0; k < LAT_PATH_NR_PCT; k++)
			fprintf(out, " %7s", "-");
		return;
	}
	sr_hist_percentiles(h, lat_path_pct, LAT_PATH_NR_PCT, v, NULL);
	for (int k = 0; k < LAT_PATH_NR_PCT; k++)
		fprintf(out, " %7.1f", (double)v[k] / 1000.0);
}

/*
 * The wakeup latency of each path's samples (docs/replay.md, "Wakeup paths"):
 * whether a class's own latency or its share makes a percentile's error.
 */
static void print_path_latency(FILE *out, const struct wl_workload *wl,
			       const char *const *names,
			       const struct replay_result *const *runs, unsigned int nr)
{
	const struct lat_machine *ml = wl_measured_latency(wl);

	fprintf(out, "\nWakeup paths, all: latency (us; each path's samples and their "
		"p50, p95, p99)\n");
	fprintf(out, "  %-24s %9s %7s %7s %7s", "path", "measured", "p50", "p95", "p99");
	for (unsigned int r = 0; r < nr; r++) {
		char head[16];

		fprintf(out, " %14s %7s %7s %7s", run_head(head, names, r), "p50", "p95", "p99");
	}
	fputc('\n', out);
	for (int i = 0; i < LAT_PATH_NR; i++) {
		bool any = lat_get_all_paths(ml)[i];

		for (unsigned int r = 0; r < nr; r++)
			any |= lat_get_all_paths(replay_latency(runs[r]))[i] != 0;
		if (!any)
			continue;
		fprintf(out, "  %-24s", lat_path_name(i));
		path_latency_cells(out, lat_get_all_path_latency(ml, i), 9);
		for (unsigned int r = 0; r < nr; r++)
			path_latency_cells(out, lat_get_all_path_latency(replay_latency(runs[r]), i),
					   14);
		fputc('\n', out);
	}
}

/*
 * Wakeup paths (docs/replay.md): every wakeup-latency sample of `all` by how
 * it got its CPU (enum lat_path), measured and each run's, with the shares
 * and their difference; then the local wakeups onto a busy CPU that
 * preempted, of all local wakeups onto a busy CPU.
 */
static void print_paths(FILE *out, const struct wl_workload *wl, const char *const *names,
			const struct replay_result *const *runs, unsigned int nr)
{
	const uint64_t *m = lat_get_all_paths(wl_measured_latency(wl));
	uint64_t mt = lat_paths_total(m), mb = lat_paths_local_busy(m);

	fprintf(out, "\nWakeup paths, all (what the target CPU did from the wakeup to the switch-in; "
		"local: woken from the target CPU; share: of the samples; diff: predicted - "
		"measured share, points)\n");
	fprintf(out, "  %-24s %9s %7s", "path", "measured", "share");
	for (unsigned int r = 0; r < nr; r++) {
		char head[16];

		fprintf(out, " %14s %7s %7s", run_head(head, names, r), "share", "diff");
	}
	fputc('\n', out);
	for (int i = 0; i < LAT_PATH_NR; i++) {
		bool any = m[i];

		for (unsigned int r = 0; r < nr; r++)
			any |= lat_get_all_paths(replay_latency(runs[r]))[i] != 0;
		if (!any && i == LAT_PATH_UNKNOWN)
			continue;
		fprintf(out, "  %-24s %9" PRIu64, lat_path_name(i), m[i]);
		share_cell(out, m[i], mt);
		for (unsigned int r = 0; r < nr; r++) {
			const uint64_t *p = lat_get_all_paths(replay_latency(runs[r]));
			uint64_t pt = lat_paths_total(p);

			fprintf(out, " %14" PRIu64, p[i]);
			share_cell(out, p[i], pt);
			points_cell(out, p[i], pt, m[i], mt);
		}
		fputc('\n', out);
	}
	{
		char b[48];

		snprintf(b, sizeof(b), "%" PRIu64 "/%" PRIu64, m[LAT_PATH_PREEMPT_LOCAL], mb);
		fprintf(out, "  %-24s %9s", "local busy: preempt", b);
		share_cell(out, m[LAT_PATH_PREEMPT_LOCAL], mb);
		for (unsigned int r = 0; r < nr; r++) {
			const uint64_t *p = lat_get_all_paths(replay_latency(runs[r]));
			uint64_t pb = lat_paths_local_busy(p);

			snprintf(b, sizeof(b), "%" PRIu64 "/%" PRIu64, p[LAT_PATH_PREEMPT_LOCAL], pb);
			fprintf(out, " %14s", b);
			share_cell(out, p[LAT_PATH_PREEMPT_LOCAL], pb);
			points_cell(out, p[LAT_PATH_PREEMPT_LOCAL], pb, m[LAT_PATH_PREEMPT_LOCAL], mb);
		}
		fputc('\n', out);
	}
	fprintf(out, "  (local busy: the local wakeups onto a CPU running a task - preempt, "
		"behind_current, queued; preempt: the wakee preempted it)\n");
	print_path_latency(out, wl, names, runs, nr);
}

/*
 * The run columns' heads of a counts table, then the newline: a run name
 * wider than its column is headed "run N" (named in full in the legend).
 */
static void print_run_heads(FILE *out, const char *const *names, unsigned int nr)
{
	for (unsigned int r = 0; r < nr; r++) {
		char head[16];

		fprintf(out, " %14s %9s", run_head(head, names, r), "error");
	}
	fputc('\n', out);
}

/*
 * The sidecar's bookkeeping-function counts against each run's entries of the
 * same function (replay_funcs): a row per function the sidecar lists, named
 * as the profile's kernel names it; the not traceable ones on a line below.
 */
static void print_funcs(FILE *out, const struct wl_workload *wl, const char *const *names,
			const struct replay_result *const *runs, unsigned int nr)
{
	const struct model_profile *p = nr ? replay_result_profile(runs[0]) : NULL;
	char untraceable[256] = "";

	if (!replay_has_func_counts(wl))
		return;
	fprintf(out, "\nFunction counts %19s", "measured");
	print_run_heads(out, names, nr);
	for (int i = 0; i < REPLAY_NR_FUNCS; i++) {
		const char *fn = replay_func_name(p, i);
		int64_t m;

		if (!replay_func_measured(wl, i, &m))
			continue;
		if (m < 0) {
			size_t at = strlen(untraceable);

			snprintf(untraceable + at, sizeof(untraceable) - at, "%s%s", at ? ", " : "", fn);
			continue;
		}
		/* a name wider than its column (sched_balance_update_blocked_averages) goes whole */
		if (strlen(fn) > 24)
			fprintf(out, "  %s\n  %-24s", fn, "");
		else
			fprintf(out, "  %-24s", fn);
		fprintf(out, " %10" PRId64, m);
		for (unsigned int r = 0; r < nr; r++) {
			uint64_t pv = 0;

			replay_count_get(runs[r], replay_funcs[i].predicted, &pv);
			fprintf(out, " %14" PRIu64, pv);
			err_cell(out, (double)pv, (double)m);
		}
		fputc('\n', out);
	}
	fprintf(out, "  (measured: the function tracer's entries during the capture (sidecar); "
		"predicted: the model's entries of the same function, those that return at once "
		"included: update_cfs_group of a task entity, update_tg_load_avg of the root "
		"cfs_rq)\n");
	if (untraceable[0])
		fprintf(out, "  (not traceable on the traced kernel (inlined): %s: no measured count, "
			"not compared)\n", untraceable);
}

/* a "Predicted only" row: NAME's counter, or with no NAME a counter's ".entries" under it */
static void print_predicted_row(FILE *out, const struct replay_result *const *runs,
				unsigned int nr, const char *name, const char *ctr)
{
	if (name)
		fprintf(out, "  %-24s %10s", name, "");
	else
		fprintf(out, "    %-22s %10s", ".entries", "");
	for (unsigned int r = 0; r < nr; r++) {
		uint64_t p = 0;

		replay_count_get(runs[r], ctr, &p);
		fprintf(out, " %14" PRIu64 " %9s", p, "");
	}
	fputc('\n', out);
}

/*
 * A row of the counts table under a compared one (@label, indented): the
 * measured @m and each run's count @key with its error, the columns aligned
 * with the compared rows' however long the label.
 */
static void count_info_row(FILE *out, const char *label, const char *key, uint64_t m,
			   const struct replay_result *const *runs, unsigned int nr)
{
	int len = (int)strlen(label);

	fprintf(out, "%-26s %*" PRIu64, label, len > 26 ? 36 - len : 10, m);
	for (unsigned int r = 0; r < nr; r++) {
		uint64_t p = 0;

		replay_count_get(runs[r], key, &p);
		fprintf(out, " %14" PRIu64, p);
		err_cell(out, (double)p, (double)m);
	}
	fputc('\n', out);
}

void replay_print_text(FILE *out, const struct wl_workload *wl, const char *const *names,
		       const struct replay_result *const *runs, unsigned int nr_runs,
		       const struct replay_text_opts *o)
{
	const struct sr_hist *pred[16];
	unsigned int nr = nr_runs < 16 ? nr_runs : 16;
	unsigned int it;
	char untraced_list[160] = "";
	const char *text;
	uint64_t v;

	print_facts(out, wl, o && o->no_bandwidth, o && o->wake_clock_traced,
		    o && o->ticks_traced, o ? o->tick_phase : REPLAY_TICK_PHASE_ZERO,
		    o && o->affinity_inferred);
	if (nr_runs) {
		const struct model_profile *p = replay_result_profile(runs[0]);
		const struct model_sched_features *sf = replay_result_sched_features(runs[0]);
		char sfb[MODEL_SCHED_FEATURES_TEXT];
		const char *sft = model_sched_features_text(sf, sfb, sizeof(sfb));

		fprintf(out, "profile:   %s (%s)%s\n", model_profile_name(p),
			o && o->profile_why ? o->profile_why : "", o && o->show_settings ? ":" : "");
		if (sft)
			fprintf(out, "sched_features: %s (toggled over the profile)\n", sft);
		if (o && o->show_settings)      /* the values run 1 used */
			model_profile_print_toggled(p, sf, out);
		if (o && o->vcpu_pack_why)
			fprintf(out, "placement: vcpu_pack %s (%s)\n", o->vcpu_pack_on ? "on" : "off",
				o->vcpu_pack_why);
	}
	/*
	 * What the columns are, once, before the first table: a first reader
	 * could not tell the run column "base" from a baseline measurement, nor
	 * which way round the error is.
	 */
	fprintf(out, "\ncolumns:   measured = from the trace (what the traced machine did)\n"
		"           %s = predicted: the model replaying the same work (%s)\n"
		"           error = (predicted - measured) / measured; latencies and waits in us\n",
		nr > 1 ? "each run column" : names[0],
		nr > 1 ? "under that --variant; base: no patch" :
		strcmp(names[0], "base") ? "under that --variant" : "variant base: no patch");
	/* a run name wider than its column is headed "run N" and named in full above */
	for (unsigned int r = 0, shown = 0; r < nr; r++) {
		if (strlen(names[r]) > 14)
			fprintf(out, "%s run %u = %s", shown++ ? "," : "\nruns:     ", r + 1, names[r]);
	}
	fprintf(out, "\nCounts %28s", "measured");
	print_run_heads(out, names, nr);
	for (int i = 0; i < REPLAY_NR_COMPARED; i++) {
		const char *name = replay_compared_counts[i];
		uint64_t m = replay_measured_count(wl, name);

		fprintf(out, "  %-24s %10" PRIu64, name, m);
		for (unsigned int r = 0; r < nr; r++) {
			uint64_t p = 0;

			replay_count_get(runs[r], name, &p);
			fprintf(out, " %14" PRIu64, p);
			if (p && replay_count_untraced(wl, name)) {
				/* nothing measured: an error of the prediction is unknown, not "-" */
				fprintf(out, " %9s", "untraced");
				if (!r)
					snprintf(untraced_list + strlen(untraced_list),
						 sizeof(untraced_list) - strlen(untraced_list), "%s%s",
						 untraced_list[0] ? ", " : "", name);
			} else {
				err_cell(out, (double)p, (double)m);
			}
		}
		fputc('\n', out);
		if (!strcmp(name, "sched_switch") && wl_counts(wl)->sched_switch_restored) {
			/* like with like: the repaired stream's restored switches */
			count_info_row(out, "    of them restored", "sched_switch_restored",
				       replay_measured_count(wl, "sched_switch_restored"), runs, nr);
		}
	}
	{
		/*
		 * The RT/DL intervals' charges (STAT_RUNTIME_OTHER_CLASS, 6.8+):
		 * apart from the fair row, information only, where the trace or
		 * the profile has them.
		 */
		uint64_t m = replay_measured_count(wl, "sched_stat_runtime_rt_dl"), any = m;

		for (unsigned int r = 0; r < nr; r++) {
			uint64_t p = 0;

			replay_count_get(runs[r], "sched_stat_runtime_rt_dl", &p);
			any |= p;
		}
		if (any)
			count_info_row(out, "  sched_stat_runtime (RT/DL)", "sched_stat_runtime_rt_dl", m,
				       runs, nr);
	}
	{
		/* the traced work's duration: the trace's span, the simulation's time for it */
		uint64_t first = wl_first_ts(wl), span = wl_last_ts(wl) - first;

		fprintf(out, "  %-24s %10.1f", "duration (ms)", (double)span / 1e6);
		for (unsigned int r = 0; r < nr; r++) {
			double d = (double)(replay_end_ts(runs[r]) - first);

			fprintf(out, " %14.1f", d / 1e6);
			err_cell(out, d, (double)span);
			if (replay_work_unfinished(runs[r]))
				fprintf(out, " (%s: work left)", names[r]);
		}
		fputc('\n', out);
	}
	fprintf(out, "  (duration: predicted is when the simulation had done the traced work, run on "
		"past the trace end when it was slower; never before the trace end)\n");
	fprintf(out, "  (sched_stat_runtime: fair tasks' events against the model's fair update_curr() "
		"charges; the RT/DL ones, %" PRIu64 " of the trace's %" PRIu64 ", apart: information, "
		"no goal)\n", replay_measured_count(wl, "sched_stat_runtime_rt_dl"),
		wl_counts(wl)->sched_stat_runtime);
	if (untraced_list[0])
		fprintf(out, "  (untraced: the trace has not one event of %s (not recorded by its "
			"capture, or not in its kernel): no measured count to compare the prediction "
			"with)\n", untraced_list);
	for (unsigned int r = 0; r < nr; r++) {
		uint64_t f = 0;

		if (!replay_count_get(runs[r], "sched_wakeup_new_assumed", &f) || !f)
			continue;
		fprintf(out, "  (%s: %" PRIu64 " forks assumed: tasks first seen at a switch-in, woken there, "
			"in a trace that records wakeups but neither sched_wakeup_new nor "
			"sched_process_fork; replayed as forks (sched_process_fork and sched_wakeup_new "
			"written, not counted above, no latency sample, as the trace has neither)\n",
			names[r], f);
	}
	if (wl_counts(wl)->sched_switch_restored)
		fprintf(out, "  (sched_switch: the repaired stream; restored: switches out of idle the "
			"kernel did not trace, restored by the reader; predicted: the simulation's idle "
			"exits on those CPUs)\n");
	if (wl_nr_lost_windows(wl)) {
		char win[512], un[256];

		replay_lost_windows_text(wl, win, sizeof(win));
		fprintf(out, "  (lost events: the trace holds no record of %s; predicted events the "
			"trace could not have held are not compared: those written on a CPU inside "
			"its window, and the wakeup records of the %" PRIu32 " wakes assumed for "
			"switch-ins with no wakeup whose sleep a window overlaps)\n", win,
			wl_nr_lost_wakes(wl));
		for (unsigned int r = 0; r < nr; r++) {
			uint64_t tot = replay_unseen_text(runs[r], un, sizeof(un));

			fprintf(out, "  (%s: %" PRIu64 " predicted events in lost-events windows, not "
				"compared%s%s)\n", names[r], tot, tot ? ": " : "", un);
		}
	}
	print_funcs(out, wl, names, runs, nr);
	fprintf(out, "\nPredicted only (model counters)\n");
	/*
	 * Three of them count the calls that do work; their function entries (what
	 * a function tracer or profiler counts, the calls that return at once
	 * included) are a row of their own under them, as in the JSON's counts.
	 */
	static const struct { const char *name, *entries; } bk[] = {
		{ "update_curr", NULL }, { "update_load_avg", NULL },
		{ "update_cfs_group", "update_cfs_group.entries" }, { "reweight_entity", NULL },
		{ "update_tg_load_avg", "update_tg_load_avg.entries" },
		{ "tg_load_avg_writes", NULL },
		{ "propagate_entity_load_avg", "propagate_entity_load_avg.entries" },
		{ "update_blocked_averages", NULL }, { "newidle_balance", NULL },
		{ "place_entity", NULL }, { "wakeup_preempt", NULL }, { "tick", NULL } };
	for (unsigned int i = 0; i < sizeof(bk) / sizeof(bk[0]); i++) {
		print_predicted_row(out, runs, nr, bk[i].name, bk[i].name);
		if (bk[i].entries)
			print_predicted_row(out, runs, nr, NULL, bk[i].entries);
	}
	fprintf(out, "  (update_cfs_group, update_tg_load_avg, propagate_entity_load_avg: the calls "
		"that do work - on group entities, on non-root queues, that propagated; .entries: "
		"every entry of the function, as a function tracer counts it, those that return at "
		"once included)\n");
	print_calib(out, wl, o && o->ticks_traced);

	for (unsigned int r = 0; r < nr; r++)
		pred[r] = lat_get_all(replay_latency(runs[r]), LAT_WAKEUP);
	print_dist_rows(out, "Wakeup latency, all", NULL,
			lat_get_all(wl_measured_latency(wl), LAT_WAKEUP), pred, names, nr);
	replay_text_nonfair_note(out, wl);
	replay_text_no_wakeup_note(out, wl);
	print_groups(out, wl, LAT_BY_CGROUP, "cgroup", names, runs, nr, o ? o->top : 10);
	print_groups(out, wl, LAT_BY_COMM, "comm", names, runs, nr, o ? o->top : 10);
	print_paths(out, wl, names, runs, nr);
	print_runq(out, wl, names, runs, nr, o ? o->top : 10);

	fprintf(out, "\nApproximations (extraction)\n");
	it = 0;
	while (wl_note_at(wl, &it, &text, &v))
		fprintf(out, "  %10" PRIu64 "  %s\n", v, text);
	for (unsigned int r = 0; r < nr; r++) {
		/* no wall time here: the same trace and options print the same bytes */
		fprintf(out, "Approximations (simulation, %s; %" PRIu64 " events)\n", names[r],
			replay_events(runs[r]));
		it = 0;
		while (replay_note_next(runs[r], &it, &text, &v))
			fprintf(out, "  %10" PRIu64 "  %s\n", v, text);
	}
}
