#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""--handoff writeon / writeon-pre (docs/replay.md, "Hand-offs"): check a replay's event dump
(--dump-events with --dump-wake-records) for the write-on's bound.

Usage: writeon_bound.py DUMP writeon|writeon-pre

For every `wait pid=X ... kind=writeon` line (X wrote on past a one-way hand-off WAIT), the
write-on ends at the first of: X's `handover` or `preempted` (its bound), its
`passed-after-writeon` / `slept-after-writeon` / `busy` (the WAIT's dependency checked), or X
switched out.  Between the two, X makes at most one wakeup (`wake` / `early` lines with
waker=X on X's CPU; not the `wake` of a `standin` or of a race, made at its wakee's block) with writeon and none with
writeon-pre, and a write-on ended by a `handover` with
writeon follows exactly one.  Also: some write-ons, some of them ended by a hand-over, some by
the dependency check; an X switched out right at a hand-over (same time stamp); X never writes
on again before its write-on ended.  Exit 1 with the reason otherwise.
"""
import re
import sys

RE_WAIT = re.compile(r'^\[(\d+)\] ([\d.]+): replay_op: wait pid=(\d+) y=-?\d+ kind=(\S+)$')
RE_WAKE = re.compile(r'^\[(\d+)\] [\d.]+: replay_op: (?:wake|early) pid=\d+ trace=\d+ waker=(\d+)$')
RE_SWITCH = re.compile(r'^\[(\d+)\] ([\d.]+): sched_switch: .*?:(\d+) \[\d+\] \S+ ==> ')
ENDS = ('handover', 'preempted', 'passed-after-writeon', 'slept-after-writeon', 'busy')


def main():
    path, mode = sys.argv[1], sys.argv[2]
    limit = 1 if mode == 'writeon' else 0
    open_ = {}                 # X -> wakes since its writeon
    cpu = {}                   # X -> the CPU of its writeon
    handed = None              # (X, time) of the last hand-over ending a write-on
    n = {'writeon': 0, 'handover': 0, 'checked': 0, 'switched': 0}
    errs = []
    standin = False
    for i, line in enumerate(open(path), 1):
        line = line.rstrip('\n')
        after_standin, standin = standin, ' replay_op: standin ' in line
        m = RE_WAIT.match(line)
        if m:
            c, t, x, kind = m.groups()
            if kind.endswith('-after-writeon'):
                n['checked'] += 1
            if kind == 'writeon':
                if x in open_:
                    errs.append('%d: %s writes on again before its write-on ended' % (i, x))
                open_[x] = 0
                cpu[x] = c
                n['writeon'] += 1
            elif x in open_ and kind in ENDS:
                w = open_.pop(x)
                if w > limit:
                    errs.append('%d: %s made %d wakeups in its write-on' % (i, x, w))
                if kind == 'handover':
                    n['handover'] += 1
                    handed = (x, t)
                    if mode == 'writeon' and w != 1:
                        errs.append('%d: %s handed over after %d wakeups, not 1' % (i, x, w))
            continue
        m = RE_WAKE.match(line)
        if m and m.group(2) in open_ and cpu[m.group(2)] == m.group(1) and not after_standin:
            open_[m.group(2)] += 1
            continue
        m = RE_SWITCH.match(line)
        if m:
            _, t, prev = m.groups()
            if handed and handed[0] == prev:
                if handed[1] != t:
                    errs.append('%d: %s switched out at %s, not at its hand-over' % (i, prev, t))
                handed = None
            if prev in open_:
                w = open_.pop(prev)
                n['switched'] += 1
                if w > limit:
                    errs.append('%d: %s made %d wakeups in its write-on' % (i, prev, w))
    if not n['writeon'] or not n['handover'] or not n['checked']:
        errs.append('too few write-ons to check: %s' % n)
    for e in errs[:10]:
        print(e)
    print('%s: %s, %d errors' % (mode, n, len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
