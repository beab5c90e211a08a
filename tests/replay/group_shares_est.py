#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Estimate each task group's entity weight per CPU from a trace's task states.

Usage: group_shares_est.py --sidecar T.dat.json [--step-ms 5] [--from S --to S] FILE
(FILE: `trace-cmd report -t` text or `replay --dump-events`; same parsing as group_split.py.)

Each task's load_avg is approximated with PELT's geometric average in continuous time
(half-life 32 periods of 1024 us; 1024 while runnable, decaying while blocked); the group's
cfs_rq load_avg on a CPU is the sum of its tasks attached there (a blocked task stays attached
to its last CPU; migration and wakeup placement move it).  The group entity's weight on that
CPU is then calc_group_shares(): shares x max(runnable x 1024, L_cpu) / (sum_cpu L - L_cpu +
max(...)), clamped to [2, shares] - without update_tg_load_avg()'s 1/64 threshold and 1 ms rate
limit and without the lag of update_cfs_group() calls, so it is the steady-state weight the
kernel's arithmetic aims at, not the exact one.  Printed every step: per CPU and group the
runnable tasks, L and the weight, and the weight split of the first two groups.
"""
import argparse
import json
import math
import sys

sys.path.insert(0, __import__('os').path.dirname(__file__))
from group_split import parse, SWITCH, WAKE, MIGRATE, FORK_TR, FORK_DUMP  # noqa: E402

HALF = 32 * 1024 * 1000  # ns


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sidecar', required=True)
    ap.add_argument('--step-ms', type=float, default=5.0)
    ap.add_argument('--from', dest='t_from', type=float)
    ap.add_argument('--to', dest='t_to', type=float)
    ap.add_argument('--summary', action='store_true',
                    help='only the mean split per CPU over the steps where the first two groups '
                         'both have runnable tasks there')
    ap.add_argument('file')
    a = ap.parse_args()
    sc = json.load(open(a.sidecar))
    groups = sc['groups']
    names = [g['name'] for g in groups]
    shares = [g['shares'] for g in groups]
    group = {g['pid']: i for i, g in enumerate(groups)}
    ncpu = sc['trace']['nr_cpus']
    t_from = round(a.t_from * 1e9) if a.t_from else sc['trace']['start_ts']
    t_to = round(a.t_to * 1e9) if a.t_to else sc['trace']['end_ts']
    step = round(a.step_ms * 1e6)
    task = {}   # pid -> [cpu, runnable, load, t]
    nxt = t_from
    splits = [[] for _ in range(ncpu)]

    def age(st, t):
        dt = t - st[3]
        if dt > 0:
            target = 1024.0 if st[1] else 0.0
            st[2] = target + (st[2] - target) * math.exp(-dt * math.log(2) / HALF)
            st[3] = t

    def report(t):
        for st in task.values():
            age(st, t)
        L = [[0.0] * ncpu for _ in names]
        R = [[0] * ncpu for _ in names]
        for pid, st in task.items():
            g = group.get(pid)
            if g is None:
                continue
            L[g][st[0]] += st[2]
            R[g][st[0]] += st[1]
        cells = []
        for c in range(ncpu):
            w = []
            for g in range(len(names)):
                load = max(R[g][c] * 1024, L[g][c])
                tw = sum(L[g]) - L[g][c] + load
                sh = shares[g] * load / tw if tw else shares[g] * load
                w.append(min(max(sh, 2), shares[g]) if R[g][c] else 0)
            split = f'{w[0] / (w[0] + w[1]):.2f}' if len(w) > 1 and w[0] and w[1] else '  -'
            if len(w) > 1 and w[0] and w[1]:
                splits[c].append(w[0] / (w[0] + w[1]))
            cells.append(f'cpu{c}: ' + ' '.join(
                f'{names[g]} n={R[g][c]:2d} L={L[g][c]:6.0f} w={w[g]:5.0f}' for g in range(len(names)))
                + f' split={split}')
        if not a.summary:
            print(f'{t / 1e9:.4f}  ' + '  |  '.join(cells))

    for cpu, ts, ev, body in parse(a.file):
        while nxt <= ts and nxt <= t_to:
            report(nxt)
            nxt += step
        if ev == 'sched_process_fork':
            m = FORK_TR.search(body) or FORK_DUMP.search(body)
            if m and int(m.group(1)) in group:
                group[int(m.group(2))] = group[int(m.group(1))]
            continue
        upd = []
        if ev in ('sched_wakeup', 'sched_wakeup_new'):
            m = WAKE.search(body)
            if m:
                pid = int(m.group(1) or m.group(2))
                new = ev == 'sched_wakeup_new'
                upd.append((pid, int(m.group(3)), True, new))
        elif ev == 'sched_migrate_task':
            m = MIGRATE.search(body)
            if m:
                pid = int(m.group(1) or m.group(2))
                st = task.get(pid)
                upd.append((pid, int(m.group(4)), st[1] if st else False, False))
        elif ev == 'sched_switch':
            m = SWITCH.search(body)
            if m:
                prev, state, n = int(m.group(2)), m.group(4), int(m.group(6))
                if prev:
                    upd.append((prev, cpu, state.startswith('R'), False))
                if n:
                    upd.append((n, cpu, True, False))
                if state[:1] in ('Z', 'X') and prev in task:
                    task[prev][2] = 0.0   # task_dead_fair(): its load leaves
        for pid, c, run, new in upd:
            st = task.get(pid)
            if st is None:
                # a new task starts at load_avg = 1024 (post_init + attach at first enqueue)
                st = task[pid] = [c, run, 1024.0 if new else 0.0, ts]
            age(st, ts)
            st[0], st[1] = c, run
    if len(names) > 1:
        print(f'{a.file.split("/")[-1]}: mean weight split ({names[0]} / {names[0]} + {names[1]}) '
              'over the steps with both runnable: ' + ', '.join(
                  f'cpu{c} {sum(v) / len(v):.3f} ({len(v)} steps)' if v else f'cpu{c} -'
                  for c, v in enumerate(splits)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
