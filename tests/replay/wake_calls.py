#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Consecutive wakes of one waker in one run: one system call or two, and what the trace shows.

Usage:
  trace-cmd report -t -l -i T.dat > T.lat
  wake_calls.py T.lat [S1.dump ...]

Reads a `trace-cmd report -t -l` text (the latency format: its flags column carries the
CPU's TIF_NEED_RESCHED, 'N'/'n'/'L'/'B' in the third place).  For each task-context
sched_waking whose waker made another wake earlier in the same run (no switch of it between):
  held  its TIF_NEED_RESCHED was set at the previous wake's sched_wakeup (or already at its
        sched_waking) and stayed set on every event of that CPU up to this waking: on a
        preempt=none kernel the waker has not returned to user space in between
        (exit_to_user_mode_loop() schedules, __schedule() clears the flag), so the two wakes
        are one kernel entry (the rule of the extraction's WL_WAKE_OP_IN_CALL)
  gap   the time from the previous wake's sched_wakeup (in the waker's context) to this waking
With syscalls:sys_{enter,exit}_{read,write} in the trace, each pair is also classed by the
traced call: one (same), two (diff), or a wake outside a traced read/write (nosys): held's
true and false positives, and the gap distributions of each class.
With dumps of `replay --resched-at next-wake --dump-events --dump-wake-records`: each
'nextwake' line (a task switched out at a wake) matched to the trace's waking of that waker
at that time, by class (held, the gap under --fast us, the first wake of its traced run).
Analysis helper, not a test (docs/validation-log.md, "next-wake and wakes in one system call").
"""
import argparse
import re
from collections import Counter, defaultdict

LAT = re.compile(r'^\s*(.*?)-(\d+)\s+(\d+)(\S{5,6})\s+(\d+)\.(\d+):\s+(\w+):\s*(.*)$')
NEXTWAKE = re.compile(r'replay_op: nextwake pid=(\d+) trace=(\d+)')
PREV = re.compile(r':(\d+) \[')
WPID = re.compile(r'pid=(\d+)')


def events(path):
    """(ts, cpu, current pid, flags, event, fields) of a latency-format report, by time."""
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            m = LAT.match(line)
            if m:
                out.append((int(m.group(5)) * 1000000000 + int(m.group(6).ljust(9, '0')),
                            int(m.group(3)), int(m.group(2)), m.group(4), m.group(7), m.group(8)))
    out.sort(key=lambda e: e[0])
    return out


def wakes(path):
    """Task-context wakings with their previous wake in the run (prev), held, gap, call."""
    insys, callid, runs = {}, 0, Counter()
    held, last, pend, out = {}, {}, {}, []
    for ts, cpu, pid, fl, ev, fields in events(path):
        irq = fl[2] in 'hHsSzZ'
        nr = fl[1] in 'NnLB'
        if not irq and not nr and cpu in held:
            held[cpu] = (held[cpu][0], False)
        if ev.startswith('sys_enter_'):
            callid += 1
            insys[pid] = callid
        elif ev.startswith('sys_exit_'):
            insys.pop(pid, None)
        elif ev == 'sched_switch':
            runs[int(PREV.search(fields).group(1))] += 1
            held.pop(cpu, None)
        elif ev == 'sched_waking' and not irq:
            p = last.get(pid)
            if p and p['run'] != runs[pid]:
                p = None
            h = cpu in held and held[cpu][0] == pid and held[cpu][1] and nr
            w = dict(ts=ts, waker=pid, wakee=int(WPID.search(fields).group(1)), run=runs[pid],
                     call=insys.get(pid), prev=p, held=bool(p) and h,
                     gap=ts - p['up'] if p and p.get('up') else None)
            out.append(w)
            last[pid] = w
            pend[w['wakee']] = w
            held[cpu] = (pid, nr)
        elif ev == 'sched_wakeup' and not irq:
            w = pend.pop(int(PREV.search(fields).group(1)), None)
            if w and w['waker'] == pid:
                w['up'] = ts
                if nr and held.get(cpu, (None,))[0] == pid:
                    held[cpu] = (pid, True)
    return out


def quant(v):
    v = sorted(v)
    q = lambda f: v[min(len(v) - 1, int(f * len(v)))] / 1000
    return f"n={len(v)} min {v[0] / 1000:.2f} p5 {q(.05):.2f} p50 {q(.5):.2f} p95 {q(.95):.2f} max {v[-1] / 1000:.2f} us"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('trace')
    ap.add_argument('dumps', nargs='*')
    ap.add_argument('--fast', type=float, default=1.1, help='gap class bound, us (default 1.1)')
    a = ap.parse_args()
    ws = wakes(a.trace)
    tab, gaps = Counter(), defaultdict(list)
    for w in ws:
        p = w['prev']
        if not p:
            continue
        k = 'nosys' if p['call'] is None or w['call'] is None else \
            ('same' if p['call'] == w['call'] else 'diff')
        tab[(k, w['held'])] += 1
        if w['gap'] is not None:
            gaps[k].append(w['gap'])
    print(f"{a.trace}: {len(ws)} task-context wakes, {sum(tab.values())} after another in the run")
    for k in ('same', 'diff', 'nosys'):
        if tab[(k, True)] + tab[(k, False)]:
            print(f"  {k:5s} held {tab[(k, True)]:5d}  not held {tab[(k, False)]:6d}   gap {quant(gaps[k]) if gaps[k] else '-'}")
    by = {(w['waker'], w['ts']): w for w in ws}
    tot = Counter()
    for d in a.dumps:
        c = Counter()
        with open(d, errors='replace') as f:
            for line in f:
                m = NEXTWAKE.search(line)
                if not m:
                    continue
                w = by.get((int(m.group(1)), int(m.group(2))))
                if w is None:
                    c['unmatched'] += 1
                elif w['prev'] is None:
                    c['first wake of its traced run'] += 1
                else:
                    fast = w['gap'] is not None and w['gap'] < a.fast * 1000
                    c[('held' if w['held'] else 'not held') + (', fast' if fast else '')] += 1
        tot.update(c)
        print(f"{d}: {sum(c.values())} next-wake switches: " + ', '.join(f'{k} {v}' for k, v in sorted(c.items())))
    if len(a.dumps) > 1:
        print(f"all: {sum(tot.values())}: " + ', '.join(f'{k} {v}' for k, v in sorted(tot.items())))


if __name__ == '__main__':
    main()
