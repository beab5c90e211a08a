// SPDX-License-Identifier: GPL-2.0
/*
 * The idle path's calibration samples against the idle residency at the
 * waking (docs/validation-log.md, "Idle residency and the idle-exit cost").
 *
 *   idle_residency TRACE.dat...
 *
 * Extracts each trace as `replay` does by default (its sidecar, the reader's
 * repair, --preempt-costs strict) and takes every idle-path sample of the
 * calibration (the target CPU idle at the wakeup, its next switch idle ->
 * wakee; docs/replay.md, "Mechanical costs").  For each: how long the target
 * CPU had been idle at the waking (wl_wake.idle_ns: the waking's ts minus the
 * CPU's last switch to idle) and the sample's latency.  Prints, per trace and
 * pooled over the traces, per kind (the switch out of idle traced or
 * restored by the reader, WL_WAKE_RESTORED) and waker context, per
 * residency band: the count and the latency's p10/p50/p90 in us.  Not a
 * test: an analysis tool, built with the tests.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/error.h>
#include <schedreplay/workload.h>

#include "sample_cell.h"

#include "calib.h"

static const uint64_t band_lo_us[] = { 0, 5, 20, 50, 200, 1000 };
#define NB (sizeof(band_lo_us) / sizeof(band_lo_us[0]))
#define NCTX (CALIB_CTX_NR + 1)    /* contexts, then all of them */

/* [kind: 0 traced, 1 restored][context][band] */
struct table {
	struct cell c[2][NCTX][NB + 1];   /* [NB]: residency unknown */
};

static int band_of(uint32_t idle_ns)
{
	if (idle_ns == WL_IDLE_NS_UNKNOWN)
		return NB;
	for (int b = NB - 1; b >= 0; b--)
		if ((uint64_t)idle_ns >= band_lo_us[b] * 1000)
			return b;
	return 0;
}

static void print(const char *name, struct table *t)
{
	static const char *const kind[2] = { "traced", "restored" };

	for (int k = 0; k < 2; k++)
		for (int x = 0; x < NCTX; x++) {
			size_t tot = 0;

			for (unsigned int b = 0; b <= NB; b++)
				tot += t->c[k][x][b].n;
			if (!tot)
				continue;
			for (unsigned int b = 0; b <= NB; b++) {
				struct cell *c = &t->c[k][x][b];
				char band[32];

				if (!c->n)
					continue;
				cell_sort(c);
				if (b == NB)
					snprintf(band, sizeof(band), "unknown");
				else if (b == NB - 1)
					snprintf(band, sizeof(band), ">%llu",
						 (unsigned long long)band_lo_us[b]);
				else
					snprintf(band, sizeof(band), "%llu-%llu",
						 (unsigned long long)band_lo_us[b],
						 (unsigned long long)band_lo_us[b + 1]);
				printf("%-28s %-8s %-8s %-10s %6zu %8.1f %8.1f %8.1f\n", name, kind[k],
				       x == CALIB_CTX_NR ? "all" : calib_ctx_name((enum calib_ctx)x),
				       band, c->n, cell_q_us(c, 0.10), cell_q_us(c, 0.50), cell_q_us(c, 0.90));
			}
		}
}

static void release(struct table *t)
{
	for (int k = 0; k < 2; k++)
		for (int x = 0; x < NCTX; x++)
			for (unsigned int b = 0; b <= NB; b++) {
				free(t->c[k][x][b].v);
				memset(&t->c[k][x][b], 0, sizeof(t->c[k][x][b]));
			}
}

int main(int argc, char **argv)
{
	static struct table one, all;
	struct wl_options opt;
	int ret = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: idle_residency TRACE.dat...\n");
		return 2;
	}
	printf("%-28s %-8s %-8s %-10s %6s %8s %8s %8s\n", "trace", "kind", "context",
	       "idle(us)", "n", "p10", "p50", "p90");
	for (int i = 1; i < argc; i++) {
		struct sr_error err = { 0 };
		struct wl_workload *wl;
		const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];

		memset(&opt, 0, sizeof(opt));
		wl = wl_extract(argv[i], &opt, &err);
		if (!wl) {
			fprintf(stderr, "%s: %s\n", argv[i], err.msg);
			ret = 1;
			continue;
		}
		for (uint32_t j = 0; j < wl_nr_wakes(wl); j++) {
			const struct wl_wake *w = wl_wake(wl, j);
			int k = !!(w->flags & WL_WAKE_RESTORED), x = (int)calib_ctx_of_wake(w);
			int b = band_of(w->idle_ns);

			if (w->path != WL_PATH_IDLE)
				continue;
			if (cell_add(&one.c[k][x][b], w->latency) || cell_add(&one.c[k][NCTX - 1][b], w->latency) ||
			    cell_add(&all.c[k][x][b], w->latency) || cell_add(&all.c[k][NCTX - 1][b], w->latency)) {
				fprintf(stderr, "out of memory\n");
				return 1;
			}
		}
		print(name, &one);
		release(&one);
		wl_free(wl);
	}
	print("(all traces)", &all);
	release(&all);
	return ret;
}
