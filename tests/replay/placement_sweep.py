#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tabulate placement-sweep.sh's runs: per hog point (CPU, duty %, slice ms),
for each repeat, how many of the probe's wakeups with CPU 0 idle at least
MIN_IDLE us went to the idle previous CPU 0 (n of N; mainline: all), the
median utilisation of CPU 0 and CPU 1 at those wakeups (placement_probe.py's
PELT estimate of the traced busy time, 1024 = always busy) and each CPU's
busy fraction over the run from /proc/stat (the probe included), and the
wakeups split by whether another task (the hog) was queued on CPU 1, the
waker's, at the wakeup (q: idle prev / N; no q: idle prev / N).  With
--by-util CPU, the samples with nothing else queued on CPU 1 of the runs
with the hog on CPU (and the baselines) pooled by that CPU's utilisation at
the wakeup (docs/model.md's util1 table: the kernel's test is the waker's
CPU's utilisation at the moment).

usage: placement_sweep.py OUTDIR [--min-idle US] [--by-util CPU]
"""
import csv
import os
import re
import statistics
import sys

RUN = re.compile(r'^r(\d+)-c(-\d?|\d)-p(\d+)-s(\d+)$')
UBINS = [0, 150, 250, 400, 500, 600, 650, 700, 1025]


def busy(path):
    """Busy percent per CPU between the two /proc/stat snapshots."""
    rows = [line.split() for line in open(path)]
    res = {}
    for a, b in zip(rows[:2], rows[2:4]):
        d = [int(y) - int(x) for x, y in zip(a[1:], b[1:])]
        tot = sum(d[:8])
        res[a[0]] = 100.0 * (tot - d[3] - d[4]) / tot if tot else float('nan')
    return res


def main():
    args = sys.argv[1:]
    out = args[0]
    min_idle = 1500.0
    by_util = None
    if '--min-idle' in args:
        min_idle = float(args[args.index('--min-idle') + 1])
    if '--by-util' in args:
        by_util = args[args.index('--by-util') + 1]
    points = {}    # (cpu, pct, slice) -> [(rep, n, idle, u0, u1, b0, b1)]
    pooled = {}    # util bin -> [n, idle]
    for d in sorted(os.listdir(out)):
        m = RUN.match(d)
        if not m or not os.path.exists(os.path.join(out, d, 'samples.csv')):
            continue
        rep, cpu, pct, sl = int(m.group(1)), m.group(2)[0], int(m.group(3)), int(m.group(4))
        rows = [r for r in csv.DictReader(open(os.path.join(out, d, 'samples.csv')))
                if float(r['idle0_us']) >= min_idle]
        n = len(rows)
        idle = sum(r['target'] == '0' for r in rows)
        u0 = statistics.median(float(r['util0']) for r in rows) if rows else float('nan')
        u1 = statistics.median(float(r['util1']) for r in rows) if rows else float('nan')
        b = busy(os.path.join(out, d, 'stat.txt'))
        q = [r for r in rows if r.get('others1', '0') != '0']
        qi = sum(r['target'] == '0' for r in q)
        points.setdefault((cpu, pct, sl), []).append(
            (rep, n, idle, u0, u1, b.get('cpu0', 0), b.get('cpu1', 0), len(q), qi))
        if by_util is not None and (cpu == by_util or cpu == '-'):
            for r in rows:
                if r.get('others1', '0') != '0':
                    continue
                u = float(r['util' + by_util])
                i = max(j for j, lo in enumerate(UBINS[:-1]) if u >= lo)
                p = pooled.setdefault(i, [0, 0])
                p[0] += 1
                p[1] += r['target'] == '0'
    print(f'wakeups with CPU 0 idle >= {min_idle:.0f} us taken to the idle prev CPU 0, '
          'per repeat (n/N), total; median util0/util1 at them; busy % cpu0/cpu1')
    print('hog CPU  duty %  slice ms  repeats  total  util0  util1  busy0  busy1  q  no q')
    for key in sorted(points, key=lambda k: (k[0] != '-', k[0], k[1], k[2])):
        rs = sorted(points[key])
        tn = sum(r[1] for r in rs)
        ti = sum(r[2] for r in rs)
        reps = ' '.join(f'{r[2]}/{r[1]}' for r in rs)
        med = [statistics.median(r[i] for r in rs) for i in (3, 4, 5, 6)]
        pc = f'{100.0 * ti / tn:5.1f} %' if tn else '  -  '
        qn = sum(r[7] for r in rs)
        qi = sum(r[8] for r in rs)
        print(f'{key[0]:>7s} {key[1]:7d} {key[2]:9d}  {reps}  {ti}/{tn} {pc}  '
              f'{med[0]:5.0f}  {med[1]:5.0f}  {med[2]:5.1f}  {med[3]:5.1f}  '
              f'{qi}/{qn}  {ti - qi}/{tn - qn}')
    if by_util is not None:
        print(f'nothing else queued on CPU 1, pooled by util{by_util} at the wakeup (runs with the hog on CPU {by_util} '
              'and the baselines): bin  n  to idle CPU 0')
        for i in sorted(pooled):
            n, idle = pooled[i]
            print(f'{UBINS[i]:4d}-{UBINS[i + 1]:<4d} {n:5d} {idle:5d} {100.0 * idle / n:6.1f} %')


if __name__ == '__main__':
    main()
