// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "replay_progress.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void replay_progress_init(struct replay_progress *p, const char *what)
{
	p->tty = isatty(STDERR_FILENO);
	p->shown = false;
	p->t0 = now_s();
	p->what = what;
	p->unit = "runs";
	p->run_events = 0;
}

static bool due(struct replay_progress *p, double *el)
{
	*el = now_s() - p->t0;
	return p->tty && *el > 1.0;
}

void replay_progress_extract(void *ctx, uint64_t events, double fraction)
{
	struct replay_progress *p = ctx;
	double el, eta;

	if (!due(p, &el))
		return;
	eta = fraction > 0.001 ? el / fraction - el : 0;
	fprintf(stderr, "\r%s: %llu events, %.2fM events/s, ETA %.0f s   ", p->what,
		(unsigned long long)events, (double)events / el / 1e6, eta);
	p->shown = true;
}

void replay_progress_sim(void *ctx, double fraction)
{
	struct replay_progress *p = ctx;
	double el, eta;

	if (!due(p, &el))
		return;
	eta = fraction > 0.001 ? el / fraction - el : 0;
	fprintf(stderr, "\r%s: %.0f%% of the trace span, ETA %.0f s   ", p->what, fraction * 100, eta);
	p->shown = true;
}

/*
 * Several runs (replay's, whatif's) or traces (validate's): after a second, on
 * a terminal only, as the others.  It printed from the first run on, a run of
 * 0.3 s included, and left its last line standing with a newline.
 */
void replay_progress_runs(void *ctx, unsigned int done, unsigned int total)
{
	struct replay_progress *p = ctx;
	double el;

	if (!due(p, &el) || !total)
		return;
	/*
	 * why: issue 5 names events done, events/s and ETA; several runs
	 * showed runs and ETA only.  Runs end whole, so the events are those
	 * of the runs done.
	 */
	if (done && p->run_events)
		fprintf(stderr, "\r%s: %u/%u %s done, %llu events, %.2fM events/s, ETA %.0f s   ",
			p->what, done, total, p->unit,
			(unsigned long long)(p->run_events * done),
			(double)p->run_events * done / el / 1e6, el / done * (total - done));
	else if (done)
		fprintf(stderr, "\r%s: %u/%u %s done, ETA %.0f s   ", p->what, done, total,
			p->unit, el / done * (total - done));
	else
		fprintf(stderr, "\r%s: 0/%u %s done   ", p->what, total, p->unit);
	fflush(stderr);
	p->shown = true;
}

void replay_progress_done(struct replay_progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%90s\r", "");
	p->shown = false;
}
