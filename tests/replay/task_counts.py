#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per task and per task group: switches out by state, sched_stat_runtime and sched_wakeup
counts, trace against the mean of replay dumps.

Usage:
  schedreplay report --samples T.samples T.dat
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --seed N --dump-events T.N.dump T.dat      (N = 1..5)
  task_counts.py --samples T.samples T.rep T.1.dump [T.2.dump ...]

Columns: sw_R (switched out runnable: R, R+), sw_S (asleep: S, D and the rest), rt
(sched_stat_runtime events of the task), wk (sched_wakeup of the task), each as trace then
the dumps' mean, and the task's summed runtime (ms).  A task's group is the cgroup basename of
its wakeup samples in report --samples (tasks without a sample: '-').  The trace's counts are
its raw events (no restored switches; sched_stat_runtime of every class).  Analysis helper, not
a test (docs/validation-log.md, "small-chan, wakeup by wakeup").
"""
import argparse
import re
from collections import Counter, defaultdict

SW = re.compile(r'sched_switch:\s+(?:\S.*?):(\d+) \[\d+\] (\S+) ==> ')
SR = re.compile(r'sched_stat_runtime:\s+comm=.*? pid=(\d+) runtime=(\d+)')
WK = re.compile(r'sched_wakeup:\s+(?:\S.*?):(\d+) ')
KEYS = ('sw_R', 'sw_S', 'rt', 'wk')


def count(path):
    c = defaultdict(Counter)
    with open(path, errors='replace') as f:
        for line in f:
            m = SW.search(line)
            if m:
                c[int(m.group(1))]['sw_R' if m.group(2)[0] == 'R' else 'sw_S'] += 1
                continue
            m = SR.search(line)
            if m:
                c[int(m.group(1))]['rt'] += 1
                c[int(m.group(1))]['rt_ns'] += int(m.group(2))
                continue
            m = WK.search(line)
            if m:
                c[int(m.group(1))]['wk'] += 1
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--samples', required=True, help='report --samples file of the trace')
    ap.add_argument('trace', help='trace-cmd report -t text of the trace')
    ap.add_argument('dumps', nargs='+', help='replay --dump-events files')
    a = ap.parse_args()
    group = {}
    with open(a.samples) as f:
        for line in f:
            c = line.rstrip('\n').split('\t')
            if c[0] == 'wakeup' and len(c) > 8:
                group[int(c[1])] = c[8].rsplit('/', 1)[-1] or '/'
    t = count(a.trace)
    ds = [count(p) for p in a.dumps]
    print('%7s %-10s' % ('pid', 'group') + ''.join('%7s %7s' % (k, 'pred') for k in KEYS)
          + '  runtime_ms trace/pred')
    gsum = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0]))
    for pid in sorted(set(t).union(*ds) - {0}):
        g = group.get(pid, '-')
        row = '%7d %-10s' % (pid, g)
        for k in KEYS:
            x, y = t[pid][k], sum(d[pid][k] for d in ds) / len(ds)
            row += '%7d %7.1f' % (x, y)
            for key in (g, 'all'):
                gsum[key][k][0] += x
                gsum[key][k][1] += y
        row += '  %.3f/%.3f' % (t[pid]['rt_ns'] / 1e6,
                                sum(d[pid]['rt_ns'] for d in ds) / len(ds) / 1e6)
        print(row)
    for g in sorted(gsum, key=lambda g: g == 'all'):
        print('%-18s' % ('group ' + g) + ''.join('%7d %7.1f' % tuple(gsum[g][k]) for k in KEYS))


if __name__ == '__main__':
    main()
