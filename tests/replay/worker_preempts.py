#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Who switches a group's tasks out runnable (run-queue waits, docs/report.md), in a
`trace-cmd report` text or a `replay --dump-events` file: per (next task's role, cause) the
count and the waits' p50 until the task's next switch-in.

Usage: worker_preempts.py FILE [--comm probe-worker] [--list N]

Roles: the other group task ("worker"), probe-msg ("msg"), a fair hog named by its prio
("hog120", "hog125"), else the next comm.  Cause: "wake" if the next task was woken on this
CPU (sched_wakeup with CPU:n) after the preempted task's switch-in, else "tick/other".
Also printed: the preempted task's run since its switch-in (p50), and the wakes per cause.
Analysis helper, not a test (helper pw45, docs/validation-log.md).
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sched_text as st  # noqa: E402

SW, WU = st.SWITCH_PRIO, st.WAKEUP_CPU


def pct(v, p):
    if not v:
        return float('nan')
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('file')
    ap.add_argument('--comm', default='probe-worker')
    ap.add_argument('--list', type=int, default=0, help='print the first N preemptions')
    a = ap.parse_args()
    comm_of = {}
    since = {}          # pid -> switch-in ts
    out_at = {}         # pid -> (ts, key) of a runnable switch-out
    woke = collections.defaultdict(dict)   # cpu -> {pid: ts of last sched_wakeup}
    res = collections.defaultdict(list)    # key -> waits (us)
    ran = collections.defaultdict(list)
    listed = 0
    for ts, _ln, cpu, _cur, ev, f in st.events(a.file):
        if ev == 'sched_wakeup' or ev == 'sched_wakeup_new':
            m = WU.search(f)
            if m:
                woke[int(m.group(4))][int(m.group(2))] = ts
            continue
        if ev != 'sched_switch':
            continue
        m = SW.search(f)
        if not m:
            continue
        pc, pp, pprio, state, nc, npid, nprio = m.groups()
        pp, npid = int(pp), int(npid)
        comm_of[pp], comm_of[npid] = pc, nc
        if pc == a.comm and state.startswith('R'):
            t0 = since.get(pp, 0)
            if nc == a.comm:
                role = 'worker'
            elif nc.startswith('probe-msg') or nc == 'schedreplay-pro':
                role = 'msg'
            elif nc == 'sh':
                role = 'hog' + nprio
            else:
                role = nc
            w = woke[cpu].get(npid)
            cause = 'wake' if (w is not None and w >= t0) else 'tick/other'
            key = (role, cause)
            out_at[pp] = (ts, key)
            ran[key].append((ts - t0) / 1000)
            if listed < a.list:
                listed += 1
                print('%d.%06d cpu%d %s:%d ran %.0f us -> %s:%d [%s] %s' % (
                    ts // 10**9, ts % 10**9 // 1000, cpu, pc, pp, (ts - t0) / 1000, nc, npid,
                    nprio, cause))
        if npid in out_at:
            t, key = out_at.pop(npid)
            res[key].append((ts - t) / 1000)
        since[npid] = ts
    tot = sum(len(v) for v in res.values())
    print('%s run-queue waits: %d' % (a.comm, tot))
    print('%-22s %5s %9s %9s %9s' % ('next / cause', 'n', 'wait p50', 'wait p95', 'ran p50'))
    for key in sorted(res, key=lambda k: -len(res[k])):
        v = res[key]
        print('%-22s %5d %9.1f %9.1f %9.1f' % ('/'.join(key), len(v), pct(v, .5), pct(v, .95),
                                              pct(ran[key], .5)))
    allv = [x for v in res.values() for x in v]
    print('all p50 %.1f us' % pct(allv, .5))


if __name__ == '__main__':
    main()
