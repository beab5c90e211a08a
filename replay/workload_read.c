// SPDX-License-Identifier: GPL-2.0
/*
 * wl_extract(): the one pass over a trace.dat that builds the workload,
 * the measured statistics and the cost calibration.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/sidecar.h>

#include "workload_local.h"

/* The repair stage's final counts per CPU, owned by the workload. */
static int keep_repair_counts(struct wl_workload *wl, const struct trace_info *in)
{
	size_t n;

	wl->info.repair = in->repair;
	if (!in->repair_cpus || in->repair_nr_cpus <= 0)
		return 0;
	n = (size_t)in->repair_nr_cpus;
	if (!(wl->repair = malloc(n * sizeof(*wl->repair))))
		return -1;
	memcpy(wl->repair, in->repair_cpus, n * sizeof(*wl->repair));
	wl->info.repair_cpus = wl->repair;
	wl->info.repair_nr_cpus = in->repair_nr_cpus;
	return 0;
}

/* wl->lost_sc: the sidecar's counters against the trace's gaps, per CPU */
static int compare_lost(struct wl_workload *wl, const struct trace_reader *r,
			const struct sidecar *sc)
{
	int n = trace_nr_cpus(r);
	uint64_t *lost = calloc((size_t)n + 1, sizeof(*lost));
	bool *unknown = calloc((size_t)n + 1, sizeof(*unknown));

	if (!lost || !unknown || !(wl->lost_sc = malloc(sizeof(*wl->lost_sc)))) {
		free(lost);
		free(unknown);
		return -1;
	}
	for (int c = 0; c < n; c++)
		lost[c] = trace_lost_events(r, c, &unknown[c]);
	sidecar_lost_compare(sc, lost, unknown, n, wl->lost_sc);
	free(lost);
	free(unknown);
	return 0;
}

#define WL_MAX_GAP_NS (86400ull * 1000000000)

struct wl_workload *wl_extract(const char *path, const struct wl_options *opt,
			       struct sr_error *err)
{
	struct wl_options o = { 0 };
	struct trace_reader *r;
	struct sidecar *sc = NULL;
	struct wl_platform plat = { 0 };
	char plat_why[160];
	struct wl_builder *b = NULL;
	struct wl_workload *wl = NULL;
	struct trace_event ev;
	uint64_t n = 0, t0, span, prev_ts = 0;
	char where[64];
	int ret;

	if (opt)
		o = *opt;
	/*
	 * The repaired stream (docs/report.md, "Untraced switches out of
	 * idle"): the measured latencies and switch counts then have the same
	 * definition as `report`'s, and the simulation emits its idle exits on
	 * those CPUs too (wl_facts.idle_exit_restored).
	 */
	if (!(r = trace_open(path, &(struct trace_open_opts){
			.repair = o.no_repair ? TRACE_REPAIR_NONE : TRACE_REPAIR_IDLE_EXIT,
			.buffer = o.buffer }, err)))
		return NULL;
	if (!o.no_sidecar) {
		struct sr_error serr = { 0 };

		sc = o.sidecar ? sidecar_load(o.sidecar, &serr) : sidecar_load_for_trace(path, &serr);
		if (!sc && (o.sidecar || serr.code != ENOENT)) {
			/* A sidecar that exists but cannot be read is an error: the
			 * user would otherwise get silently different results. */
			sr_error_set(err, serr.code ? serr.code : EINVAL, "%s", serr.msg);
			goto out;
		}
		/*
		 * Another capture's sidecar (as report.c's load_sidecar()): its
		 * cgroups, shares, HZ and limits replayed this trace with exit 0.
		 */
		if (sidecar_check_trace(sc, trace_get_info(r), path, NULL, err))
			goto out;
	}
	/* no sidecar: LISA's platform.json beside the trace, if any (its CPU capacities) */
	if (!sc) {
		switch (wl_platform_read(path, &plat, plat_why, sizeof(plat_why))) {
		case 1:
			o.platform = &plat;
			break;
		case -1:
			if (!plat.path) {
				sr_error_set(err, ENOMEM, "%s: out of memory", path);
				goto out;
			}
			o.platform_bad = plat_why;
			break;
		}
	}
	if (!(b = wl_builder_new(trace_get_info(r), sc, &o, err)))
		goto out;
	t0 = trace_get_info(r)->first_ts;
	span = trace_get_info(r)->last_ts > t0 ? trace_get_info(r)->last_ts - t0 : 1;
	while ((ret = trace_next(r, &ev, err)) == 1) {
		/*
		 * The reader merges the CPUs by time: its stream goes back only
		 * when one CPU's records do (a damaged timestamp, pages out of
		 * order). Replaying that would simulate the jump (up to 2^64 ns).
		 */
		if (ev.ts < prev_ts) {
			sr_error_set(err, EINVAL, "%s: corrupted data: %s: event at %" PRIu64 ".%09"
				     PRIu64 " s is earlier than the one before it (%" PRIu64 ".%09"
				     PRIu64 " s): the timestamps go back", path,
				     trace_event_where(&ev, where, sizeof(where)), ev.ts / 1000000000,
				     ev.ts % 1000000000, prev_ts / 1000000000, prev_ts % 1000000000);
			goto out;
		}
		/*
		 * A day without one event on any CPU is a damaged timestamp
		 * (Linux runs kernel threads every few seconds; see report.c):
		 * the simulation would tick through all of it.
		 */
		if (prev_ts && ev.ts - prev_ts > WL_MAX_GAP_NS) {
			sr_error_set(err, EINVAL, "%s: corrupted data: %s: event at %" PRIu64 ".%09"
				     PRIu64 " s comes %" PRIu64 " s after the one before it, with no "
				     "event on any CPU in between: a damaged timestamp", path,
				     trace_event_where(&ev, where, sizeof(where)), ev.ts / 1000000000,
				     ev.ts % 1000000000, (ev.ts - prev_ts) / 1000000000);
			goto out;
		}
		prev_ts = ev.ts;
		if (wl_builder_event(b, &ev, trace_lost_before(r), err)) {
			sr_error_prefix(err, "%s", path);
			goto out;
		}
		if (o.progress && !(++n & ((1u << 18) - 1)))
			o.progress(o.progress_ctx, n, ev.ts > t0 ? (double)(ev.ts - t0) / (double)span : 0);
	}
	if (ret < 0)
		goto out;
	wl = wl_builder_finish(b, err);
	b = NULL;
	if (wl && keep_repair_counts(wl, trace_get_info(r))) {
		sr_error_set(err, ENOMEM, "%s: out of memory", path);
		wl_free(wl);
		wl = NULL;
	}
	/*
	 * The sidecar's lost-event counters against the trace's gaps: events
	 * the kernel dropped without a mark replayed as a complete trace, and
	 * nothing said so (replay and whatif print its lines as warnings).
	 */
	if (wl && sc && sc->lost_listed && compare_lost(wl, r, sc)) {
		sr_error_set(err, ENOMEM, "%s: out of memory", path);
		wl_free(wl);
		wl = NULL;
	}
	/* traced ones: the repair restores switches out of idle from events of
	 * other types in idle's context (small-nosched: 2 of 38 timer events),
	 * and a trace of those alone was replayed at exit 0 */
	if (wl && wl_counts(wl)->sched_switch == wl_counts(wl)->sched_switch_restored) {
		const struct trace_info *ti = trace_get_info(r);

		if (ti->buffer_also)
			sr_error_set(err, EINVAL, "%s: no sched_switch events in buffer '%s': nothing "
				     "to replay; other buffers hold sched events: %s (--buffer NAME "
				     "reads one)", path, ti->buffer ? ti->buffer : "", ti->buffer_also);
		else
			sr_error_set(err, EINVAL, "%s: no sched_switch events in buffer '%s': nothing "
				     "to replay (capture the sched:* events)", path,
				     ti->buffer ? ti->buffer : "");
		wl_free(wl);
		wl = NULL;
	}
out:
	wl_builder_free(b);
	free((char *)plat.path);
	sidecar_free(sc);
	trace_close(r);
	return wl;
}
