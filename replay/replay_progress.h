/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Progress on stderr for runs longer than a second, only when stderr is a
 * terminal: "extracting: N events, R ev/s, ETA s" / "replaying: P %".
 */
#ifndef SCHEDREPLAY_REPLAY_PROGRESS_H
#define SCHEDREPLAY_REPLAY_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct replay_progress {
	bool tty;
	bool shown;
	double t0;
	const char *what;
	const char *unit;      /* of replay_progress_runs(): "runs" (init) or "traces" */
	uint64_t run_events;   /* trace events one run replays: 0, not shown */
};

void replay_progress_init(struct replay_progress *p, const char *what);
/* callbacks for wl_options.progress and replay_config.progress */
void replay_progress_extract(void *ctx, uint64_t events, double fraction);
void replay_progress_sim(void *ctx, double fraction);
/*
 * callback for whatif_config.progress: "WHAT: D/T runs done, ETA s", with
 * "N events, R M events/s" after the runs when run_events is set
 */
void replay_progress_runs(void *ctx, unsigned int done, unsigned int total);
/* Clear the line if anything was shown. */
void replay_progress_done(struct replay_progress *p);

#endif
