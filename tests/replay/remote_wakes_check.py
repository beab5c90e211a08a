#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check remote_wakes.py's output (ctest replay_remote_wakes): in each input's section the
group table's rows add up to its total, the runnable table accounts for at least 95 % of it (no
more than all), a trace's waking -> wakeup histogram counts every sample once, and a dump's
pairs are at most its samples.  Prints 'N inputs (D dumps), E errors'.

Usage: remote_wakes_check.py OUTPUT [MIN_DUMPS]
"""
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    min_dumps = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    errs, n, nd = [], 0, 0
    for sec in re.split(r'(?m)^(?=\S.*: \d+ remote wakeups onto a busy CPU$)', text):
        m = re.match(r'(\S.*): (\d+) remote wakeups onto a busy CPU', sec)
        if not m:
            continue
        name, total = m.group(1), int(m.group(2))
        n += 1
        rows = re.findall(r'(?m)^  \S+\s+\S+\s+\S+\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+%$', sec)
        s = sum(int(a) + int(b) + int(c) for a, b, c in rows)
        t = re.search(r'(?m)^  total (\d+)$', sec)
        if not t or int(t.group(1)) != total or s != total:
            errs.append('%s: group rows %d, total %s, header %d' % (name, s, t and t.group(1), total))
        part = sec.split('by current group:')[1] if 'by current group:' in sec else ''
        run = re.findall(r'(?m)^  \S+\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$', part.split('\n  sched_waking')[0]
                         .split('\n  paired')[0])
        r = sum(sum(map(int, x)) for x in run)
        if not 0.95 * total <= r <= total:
            errs.append('%s: runnable table %d of %d' % (name, r, total))
        hist = re.findall(r'(?m)^  (preempt|behind|queued) [ \d]+  +[\d.]+% of (\d+)$', sec)
        if hist and sum(int(x[1]) for x in hist) != total:
            errs.append('%s: histogram %d of %d' % (name, sum(int(x[1]) for x in hist), total))
        p = re.search(r'paired with the trace by wake record: (\d+) of (\d+); both remote onto a '
                      r'busy CPU: (\d+)', sec)
        if p:
            nd += 1
            a, b, c = map(int, p.groups())
            cells = sum(int(x) for x in re.findall(r'(?m)^    \S+\s+\S+\s+->\s+\S+\s+\S+\s+\S+\s+(\d+)$', sec))
            if not (c <= a <= b == total and cells <= c):
                errs.append('%s: pairs %d of %d, remote %d, cells %d' % (name, a, b, c, cells))
    if nd < min_dumps:
        errs.append('%d dumps, expected at least %d' % (nd, min_dumps))
    for e in errs:
        print(e)
    print('%d inputs (%d dumps), %d errors' % (n, nd, len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
