// SPDX-License-Identifier: GPL-2.0
/*
 * What the extraction made of each task, as text (docs/replay.md, "Workload
 * extraction"; checked against the trace by wl_audit.py).
 *
 *   wl_tasks TRACE.dat
 *
 * Extracts the trace as `replay` does by default and prints, one line each:
 *   T pid comm class prio init_state init_cpu group parent_pid first_ts
 *     running_at_end  the task (class fair/rt/dl; init_state new/running/
 *     runnable/sleeping; parent_pid -1 for a task alive before the trace)
 *   S pid run_ns blocks exits exit_moves wakes forks waits migrates
 *     the sums of its ops (run_ns: its RUN ops' CPU time)
 *   I pid wake_ts waker_pid src   the wake ending its sleep at the trace start
 *   B pid k state wake_ts waker_pid src run_ns   its k-th BLOCK (raw
 *     prev_state), the wake ending it (wake_ts -1: none; waker_pid -1: not a
 *     task), and the CPU time of its RUNs since the previous BLOCK
 *   E pid run_ns   the CPU time after its last BLOCK (to its exit or the end)
 *   W pid wake_ts target_pid spurious run_ns cpu flags   a WAKE op: run_ns, the
 *     CPU time of its RUNs since the previous BLOCK (its position in the
 *     task's work); cpu, the CPU the trace enqueued the wakee on; WL_WAKE_*
 *   F pid child_pid run_ns   a FORK op (run_ns: as a WAKE's)
 *   L ts target_pid waker_pid src cpu path latency_ns flags   a wake record: its
 *     measured path and latency (the calibration's samples)
 *   X kind ts pid cpu   a timed event (ext_wake, ext_fork, migrate, group)
 * Not a test: the input of wl_audit.py (ctest replay_wl_audit).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <schedreplay/error.h>
#include <schedreplay/workload.h>

static const char *const cls_name[] = { "fair", "rt", "dl" };
static const char *const init_name[] = { "new", "running", "runnable", "sleeping" };

static int32_t pid_of(const struct wl_workload *wl, uint32_t t)
{
	return t == WL_NONE || t >= wl_nr_tasks(wl) ? -1 : wl_task(wl, t)->pid;
}

static void print_wake(const struct wl_workload *wl, uint32_t w)
{
	const struct wl_wake *wk;

	if (w == WL_NONE || w >= wl_nr_wakes(wl)) {
		printf(" -1 -1 none");
		return;
	}
	wk = wl_wake(wl, w);
	printf(" %" PRIu64 " %d %s", wk->ts, pid_of(wl, wk->waker),
	       wl_wake_src_name((enum wl_wake_src)wk->src));
}

static void print_task(const struct wl_workload *wl, uint32_t i)
{
	const struct wl_task *t = wl_task(wl, i);
	const struct wl_op *ops = wl_task_ops(wl, i);
	uint64_t run = 0, seg = 0;
	uint32_t n[WL_OP_EXEC_BALANCE + 1] = { 0 };

	printf("T %d %s %s %d %s %d %s %d %" PRIu64 " %d\n", t->pid, t->comm[0] ? t->comm : "-",
	       cls_name[t->cls], t->prio, init_name[t->init_state], t->init_cpu,
	       wl_group(wl, t->group)->path, pid_of(wl, t->parent), t->first_ts,
	       t->running_at_end ? 1 : 0);
	if (t->init_state == WL_INIT_SLEEPING) {
		printf("I %d", t->pid);
		print_wake(wl, t->init_wake);
		printf("\n");
	}
	for (uint32_t k = 0; k < t->nr_ops; k++) {
		const struct wl_op *op = &ops[k];

		if (op->kind <= WL_OP_PREEMPT)
			n[op->kind]++;
		switch (op->kind) {
		case WL_OP_RUN:
			run += op->value;
			seg += op->value;
			break;
		case WL_OP_BLOCK:
			printf("B %d %u %" PRIu64, t->pid, n[WL_OP_BLOCK] - 1, op->value);
			print_wake(wl, op->arg);
			printf(" %" PRIu64 "\n", seg);
			seg = 0;
			break;
		case WL_OP_WAKE: {
			const struct wl_wake *wk = wl_wake(wl, op->arg);

			printf("W %d %" PRIu64 " %d %d %" PRIu64 " %d %d\n", t->pid, wk->ts,
			       pid_of(wl, wk->target), wk->flags & WL_WAKE_SPURIOUS ? 1 : 0, seg,
			       wk->cpu, wk->flags);
			break;
		}
		case WL_OP_FORK:
			printf("F %d %d %" PRIu64 "\n", t->pid, pid_of(wl, op->arg), seg);
			break;
		default:
			break;
		}
	}
	printf("E %d %" PRIu64 "\n", t->pid, seg);
	printf("S %d %" PRIu64 " %u %u %u %u %u %u %u\n", t->pid, run, n[WL_OP_BLOCK],
	       n[WL_OP_EXIT], n[WL_OP_EXIT_MOVE], n[WL_OP_WAKE], n[WL_OP_FORK], n[WL_OP_WAIT],
	       n[WL_OP_MIGRATE]);
}

int main(int argc, char **argv)
{
	static const char *const kind[] = { "?", "ext_wake", "ext_fork", "migrate", "group" };
	struct sr_error err = { 0 };
	struct wl_options opt;
	struct wl_workload *wl;

	if (argc != 2) {
		fprintf(stderr, "usage: wl_tasks TRACE.dat\n");
		return 2;
	}
	memset(&opt, 0, sizeof(opt));
	wl = wl_extract(argv[1], &opt, &err);
	if (!wl) {
		fprintf(stderr, "%s: %s\n", argv[1], err.msg);
		return 1;
	}
	printf("span %" PRIu64 " %" PRIu64 "\n", wl_first_ts(wl), wl_last_ts(wl));
	for (uint32_t i = 0; i < wl_nr_tasks(wl); i++)
		print_task(wl, i);
	for (uint32_t i = 0; i < wl_nr_wakes(wl); i++) {
		const struct wl_wake *wk = wl_wake(wl, i);

		printf("L %" PRIu64 " %d %d %s %d %s %" PRIu64 " %u\n", wk->ts, pid_of(wl, wk->target),
		       pid_of(wl, wk->waker), wl_wake_src_name((enum wl_wake_src)wk->src), wk->cpu,
		       wl_path_name((enum wl_path)wk->path), wk->latency, wk->flags);
	}
	for (uint32_t i = 0; i < wl_nr_timed(wl); i++) {
		const struct wl_timed *x = wl_timed_at(wl, i);

		if (x->kind > WL_T_MOVE_GROUP)
			continue;
		if (x->kind == WL_T_EXT_WAKE) {
			const struct wl_wake *wk = wl_wake(wl, x->arg);

			printf("X ext_wake %" PRIu64 " %d %d %s\n", x->ts, pid_of(wl, wk->target),
			       x->cpu, wl_wake_src_name((enum wl_wake_src)wk->src));
			continue;
		}
		printf("X %s %" PRIu64 " %d %d\n", kind[x->kind], x->ts,
		       pid_of(wl, x->kind == WL_T_EXT_FORK ? x->arg : x->task), x->cpu);
	}
	{
		unsigned int it = 0;
		const char *text;
		uint64_t count;

		while (wl_note_at(wl, &it, &text, &count))
			printf("N %" PRIu64 " %s\n", count, text);
	}
	wl_free(wl);
	return 0;
}
