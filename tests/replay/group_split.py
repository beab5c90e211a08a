#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-CPU CPU time of each task group in short windows, trace against replay.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --placement trace --dump-events T.dump T.dat
  group_split.py --sidecar T.dat.json [--window-ms 10] [--from S --to S] T.rep [T.dump]

The sidecar's "groups" name each capture group and the pid that started it; every task forked
from that pid (sched_process_fork / the dump's fork lines) belongs to that group.  For each CPU
and window the script prints the CPU time each group ran, and the same restricted to
*contended* time: intervals in which every group has at least one runnable task (queued or
running) on that CPU.  Under EEVDF/CFS the contended split is the ratio of the group entities'
weights on that CPU (calc_group_shares(): tg->shares x grq load / tg->load_avg), so it is the
figure to compare with the model's weights; the uncontended time says only who had work.

Both inputs are text in the `trace-cmd report` line shape ("[CPU] TS: event: ..."), the dump of
`replay --dump-events` and `trace-cmd report -t` alike.  Analysis helper, not a test.
"""
import argparse
import json
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sched_text import lines  # noqa: E402

SWITCH = re.compile(r'(\S.*?):(\d+) \[(\d+)\] (\S+) ==> (\S.*?):(\d+) \[')
WAKE = re.compile(r'(?:pid=(\d+)|:(\d+) \[\d+\]).*CPU:(\d+)')
MIGRATE = re.compile(r'(?:pid=(\d+)|:(\d+)) .*orig_cpu=(\d+) dest_cpu=(\d+)')
FORK_TR = re.compile(r'pid=(\d+) child_comm=\S+ child_pid=(\d+)')
FORK_DUMP = re.compile(r'pid=(\d+) child=\S*:(\d+)')


def parse(path):
    """(cpu, ts in integer ns, event, fields) of each event line, in the file's order
    (sched_text.lines(); integer ns: window boundaries must not depend on float rounding)."""
    for ns, _, cpu, _, ev, fields in lines(path):
        yield cpu, ns, ev, fields


def split(path, roots, ngroups, window, t_from, t_to):
    group = dict(roots)             # pid -> group index
    where = {}                      # pid -> (cpu, runnable)
    cnt = defaultdict(lambda: [0] * ngroups)   # cpu -> runnable tasks per group
    curr = {}                       # cpu -> running pid
    last = None
    # (cpu, window) -> [per group all time, per group contended time, contended total]
    acc = defaultdict(lambda: [[0.0] * ngroups, [0.0] * ngroups])

    def set_state(pid, cpu, runnable):
        g = group.get(pid)
        old = where.get(pid)
        if g is not None and old and old[1]:
            cnt[old[0]][g] -= 1
        where[pid] = (cpu, runnable)
        if g is not None and runnable:
            cnt[cpu][g] += 1

    def advance(t):
        if last is None:
            return
        lo, hi = max(last, t_from), min(t, t_to)
        if hi <= lo:
            return
        for cpu, pid in curr.items():
            g = group.get(pid)
            if g is None:
                continue
            both = all(c > 0 for c in cnt[cpu])
            # split the interval at window boundaries
            a = lo
            while a < hi:
                w = (a - t_from) // window
                b = min(hi, t_from + (w + 1) * window)
                acc[(cpu, w)][0][g] += b - a
                if both:
                    acc[(cpu, w)][1][g] += b - a
                a = b

    for cpu, ts, ev, body in parse(path):
        advance(ts)
        last = ts
        if ev == 'sched_process_fork':
            m = FORK_TR.search(body) or FORK_DUMP.search(body)
            if m and int(m.group(1)) in group:
                group[int(m.group(2))] = group[int(m.group(1))]
        elif ev in ('sched_wakeup', 'sched_wakeup_new'):
            m = WAKE.search(body)
            if m:
                pid = int(m.group(1) or m.group(2))
                set_state(pid, int(m.group(3)), True)
        elif ev == 'sched_migrate_task':
            m = MIGRATE.search(body)
            if m:
                pid = int(m.group(1) or m.group(2))
                old = where.get(pid, (int(m.group(3)), False))
                set_state(pid, int(m.group(4)), old[1])
        elif ev == 'sched_switch':
            m = SWITCH.search(body)
            if m:
                prev, state, nxt = int(m.group(2)), m.group(4), int(m.group(6))
                if prev:
                    set_state(prev, cpu, state.startswith('R'))
                if nxt:
                    set_state(nxt, cpu, True)
                curr[cpu] = nxt
    return acc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sidecar', required=True)
    ap.add_argument('--window-ms', type=float, default=10.0)
    ap.add_argument('--from', dest='t_from', type=float, default=None)
    ap.add_argument('--to', dest='t_to', type=float, default=None)
    ap.add_argument('--summary', action='store_true', help='totals only')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    sc = json.load(open(a.sidecar))
    groups = sc['groups']
    names = [g['name'] for g in groups]
    roots = {g['pid']: i for i, g in enumerate(groups)}
    t_from = round(a.t_from * 1e9) if a.t_from is not None else sc['trace']['start_ts']
    t_to = round(a.t_to * 1e9) if a.t_to is not None else sc['trace']['end_ts']
    window = round(a.window_ms * 1e6)
    res = [split(f, roots, len(groups), window, t_from, t_to) for f in a.files]
    cpus = sorted({k[0] for r in res for k in r})
    nwin = (t_to - t_from) // window + 1
    hdr = 'cpu window_start  ' + '  '.join(
        f'[{f.split("/")[-1][:14]}] ' + ' '.join(f'{n}_all' for n in names) + ' ' +
        ' '.join(f'{n}_cont' for n in names) + ' share' for f in a.files)
    if not a.summary:
        print(hdr + '   (ms; share = first group\'s fraction of contended time)')
    tot = [[defaultdict(lambda: [[0.0] * len(names), [0.0] * len(names)]) for _ in a.files]]
    for cpu in cpus:
        for w in range(nwin):
            cells = []
            for i, r in enumerate(res):
                allt, cont = r.get((cpu, w), [[0.0] * len(names), [0.0] * len(names)])
                t = tot[0][i][cpu]
                for g in range(len(names)):
                    t[0][g] += allt[g]
                    t[1][g] += cont[g]
                c = sum(cont)
                share = f'{cont[0] / c:5.2f}' if c > 100000 else '    -'
                cells.append(' '.join(f'{x / 1e6:6.2f}' for x in allt + cont) + ' ' + share)
            if not a.summary:
                print(f'{cpu:3d} {(t_from + w * window) / 1e9:.4f}  ' + '  |  '.join(cells))
    print('totals per CPU (ms): ' + ', '.join(f'{n}_all' for n in names) + ', ' +
          ', '.join(f'{n}_cont' for n in names) + ', share of contended time')
    for cpu in cpus:
        for i, f in enumerate(a.files):
            allt, cont = tot[0][i][cpu]
            c = sum(cont)
            share = f'{cont[0] / c:.3f}' if c > 0 else '-'
            print(f'  cpu {cpu} {f.split("/")[-1]:28s} ' +
                  ' '.join(f'{x / 1e6:8.2f}' for x in allt + cont) + f'  {share}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
