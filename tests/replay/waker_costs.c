// SPDX-License-Identifier: GPL-2.0
/*
 * The waker's side of a wakeup, local against remote (docs/replay.md,
 * "Mechanical costs", "The waker's side").
 *
 *   waker_costs TRACE.dat...
 *
 * Extracts each trace as `replay` does by default and takes, for every WAKE
 * or FORK op of a task that a RUN op follows, that RUN (the waker's CPU time
 * from the sched_waking / sched_process_fork to its next op: a wakeup, a
 * fork, a block, ...).  A wakeup is remote when the trace enqueued the wakee
 * on another CPU than the waker's (ttwu_queue_wakelist() or the remote
 * enqueue, then the IPI: done on the waker's CPU, charged to the waker).
 * Prints, per trace and pooled, per context (task: a WAKE op, fork: a FORK
 * op), locality, the wakee's path at its wakeup (idle: its CPU was idle;
 * busy: anything else) and what ends the run (blk: a block, the waker's
 * system call returned to sleep; oth: anything else), the count and the
 * run's p10/p25/p50/p75/p90 in us.  Not a test: an analysis tool, built with
 * the tests.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <schedreplay/error.h>
#include <schedreplay/workload.h>

#include "sample_cell.h"

/* [ctx: 0 task, 1 fork][0 local, 1 remote][target 0 idle, 1 busy, 2 all][end 0 blk, 1 oth, 2 all] */
struct table {
	struct cell c[2][2][3][3];
};

static void print(const char *name, struct table *t)
{
	static const char *const ctx[2] = { "task", "fork" }, *const loc[2] = { "local", "remote" };
	static const char *const tg[3] = { "idle", "busy", "all" }, *const end[3] = { "blk", "oth", "all" };

	for (int x = 0; x < 2; x++)
		for (int g = 0; g < 3; g++)
			for (int e = 0; e < 3; e++)
				for (int l = 0; l < 2; l++) {
					struct cell *c = &t->c[x][l][g][e];

					if (!c->n)
						continue;
					cell_sort(c);
					printf("%-24s %-5s %-5s %-4s %-6s %7zu %8.1f %8.1f %8.1f %8.1f %8.1f\n",
					       name, ctx[x], tg[g], end[e], loc[l], c->n, cell_q_us(c, 0.10),
					       cell_q_us(c, 0.25), cell_q_us(c, 0.50), cell_q_us(c, 0.75), cell_q_us(c, 0.90));
				}
}

static void release(struct table *t)
{
	struct cell *c = &t->c[0][0][0][0];

	for (size_t i = 0; i < sizeof(t->c) / sizeof(t->c[0][0][0][0]); i++) {
		free(c[i].v);
		memset(&c[i], 0, sizeof(c[i]));
	}
}

static int add_all(struct table *t, int x, int l, int g, int e, uint64_t v)
{
	int gs[2] = { g, 2 }, es[2] = { e, 2 };

	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			if (cell_add(&t->c[x][l][gs[i]][es[j]], v))
				return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct table one, all;
	struct wl_options opt;
	int ret = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: waker_costs TRACE.dat...\n");
		return 2;
	}
	printf("%-24s %-5s %-5s %-4s %-6s %7s %8s %8s %8s %8s %8s\n", "trace", "ctx", "target",
	       "end", "where", "n", "p10", "p25", "p50", "p75", "p90");
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
		for (uint32_t ti = 0; ti < wl_nr_tasks(wl); ti++) {
			const struct wl_task *tk = wl_task(wl, ti);
			const struct wl_op *ops = wl_task_ops(wl, ti);

			for (uint32_t k = 0; k + 1 < tk->nr_ops; k++) {
				const struct wl_wake *w;
				int x, l, g, e;

				if (ops[k + 1].kind != WL_OP_RUN)
					continue;
				if (ops[k].kind == WL_OP_WAKE) {
					w = wl_wake(wl, ops[k].arg);
					x = 0;
				} else if (ops[k].kind == WL_OP_FORK && ops[k].arg < wl_nr_tasks(wl) &&
					   wl_task(wl, ops[k].arg)->init_wake != WL_NONE) {
					w = wl_wake(wl, wl_task(wl, ops[k].arg)->init_wake);
					x = 1;
				} else {
					continue;
				}
				if (w->cpu < 0 || w->waker_cpu < 0 || (w->flags & WL_WAKE_SPURIOUS))
					continue;
				l = w->cpu != w->waker_cpu;
				g = w->path == WL_PATH_IDLE ? 0 : 1;
				e = k + 2 < tk->nr_ops && ops[k + 2].kind == WL_OP_BLOCK ? 0 : 1;
				if (add_all(&one, x, l, g, e, ops[k + 1].value) ||
				    add_all(&all, x, l, g, e, ops[k + 1].value)) {
					fprintf(stderr, "out of memory\n");
					return 1;
				}
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
