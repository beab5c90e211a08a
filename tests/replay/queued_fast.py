#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A dump's fast local queued waits, each against its trace sample.

Usage (inputs as for wakeup_paths.py, dumps made with --dump-wake-records):
  queued_fast.py --samples T.samples [--group srfix] [--below 11.5] T.rep S1.dump [S2.dump ...]

Takes each dump's samples of the group (wakeup_paths.classify()) that are local, not early,
queued behind the current (behind_current_local, queued_behind_*_local) and shorter than
--below us, and classes them by what the current did after the wakeup and by the trace's
sample of the same wake record:
  A  the current blocks at a hand-off WAIT and the trace's sample has the same latency
     (within 1 us): the trace preempted there (a classification difference only)
  B  the current is switched out runnable for another wakee of its own, for whose wakeup the
     trace's kernel did not preempt (its sample there is not preempt_local)
  B2 likewise, but the trace preempted for that wakee too (later in its run)
  C  no wake record (a wake after a skipped block, skipblock / noblock: "Early wakes")
  D  the current blocks at its stand-in block sooner than in the trace
  E  the current blocks (at a block or a hand-off WAIT) sooner than in the trace
Prints per dump the count under 5 us / under --below.  Then, for the local wakeups paired by
wake record, by the wake's position among its waker's local wakeups since the waker's
switch-in: how many the trace and the dump show as preempt_local.  Analysis helper, not a
test (docs/validation-log.md, "small-hackbench's fast local queued waits").
"""
import argparse
import bisect
from collections import Counter, defaultdict

import wakeup_paths as wp
from sched_text import SWITCH, events


def switches(path):
    """Per CPU its switches by time: (ts, prev, prev_state, next)."""
    out = defaultdict(list)
    for ts, _, cpu, _, ev, fl in events(path):
        if ev == 'sched_switch':
            m = SWITCH.search(fl)
            out[cpu].append((ts, int(m.group(2)), m.group(3), int(m.group(5))))
    return out


def leaves(sw, cpu, t0, cur):
    """The first switch-out of @cur on @cpu at or after @t0."""
    lst = sw[cpu]
    for x in lst[bisect.bisect_left([y[0] for y in lst], t0):]:
        if x[1] == cur:
            return x
    return None


def kind(r, tr, lv, waits, standins, res_by, pair):
    if tr is None:
        return 'C'
    if lv[2].startswith('R'):
        prev = [x for x in res_by.get(lv[3], []) if x['t0'] <= lv[0] <= x['t1']]
        ptr = pair(prev[-1]) if prev else None
        return 'B2' if ptr is not None and ptr['k'] == 'preempt_local' else 'B'
    w = [k for ts, k in waits.get(r['cur'], []) if r['t0'] <= ts <= lv[0]]
    if w and abs(tr['lat'] - r['lat']) < 1000:
        return 'A'
    if any(r['t0'] <= ts <= lv[0] for ts in standins.get(r['cur'], [])):
        return 'D'
    return 'E'


def positions(res, sw, tab, pair_key):
    """Each local wakeup with a current: its position among the waker's local wakeups since
    the waker's switch-in, and whether it preempted."""
    ins = {c: [x[0] for x in v] for c, v in sw.items()}
    cnt, out = Counter(), {}
    for r in sorted(res, key=lambda r: r['t0']):
        if not r['cur'] or r['cpu'] != r['waker_cpu'] or r['k'].startswith('new:'):
            continue
        i = bisect.bisect_right(ins.get(r['cpu'], []), r['t0']) - 1
        if i < 0:
            continue
        cnt[(r['cpu'], i)] += 1
        out[pair_key(r)] = (cnt[(r['cpu'], i)], r['k'] == 'preempt_local')
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--samples', required=True)
    ap.add_argument('--group', default='srfix')
    ap.add_argument('--below', type=float, default=11.5)
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    pids, meas = set(), {}
    with open(a.samples) as f:
        for line in f:
            c = line.rstrip('\n').split('\t')
            if line.startswith('#') or c[0] != 'wakeup' or not c[8].endswith('/' + a.group):
                continue
            pids.add(int(c[1]))
            meas[(int(c[1]), int(c[3]))] = int(c[5])
    tres = wp.classify(a.files[0], pids, 'sched_waking')
    for r in tres:
        r['lat'] = meas.get((r['pid'], r['t0']), -1)
    tres = [r for r in tres if r['lat'] >= 0]
    tkey = {(r['pid'], r['t0']): r for r in tres}
    tpos = positions(tres, switches(a.files[0]), None, lambda r: (r['pid'], r['t0']))
    below = a.below * 1e3
    for path in a.files[1:]:
        res = wp.classify(path, pids, 'sched_waking')
        rec, waits, standins = wp.wake_records(path)
        sw = switches(path)
        res_by = defaultdict(list)
        for r in res:
            res_by[r['pid']].append(r)

        def pair(r):
            t = rec.get((r['pid'], r['t0']))
            return tkey.get((r['pid'], t)) if t is not None else None
        tab = Counter()
        for r in res:
            k = r['k']
            if (r['early'] or r['lat'] >= below or not k.endswith('_local')
                    or k.startswith(('preempt', 'new:'))):
                continue
            lv = leaves(sw, r['cpu'], r['t0'], r['cur'])
            if lv is None:
                continue
            c = kind(r, pair(r), lv, waits, standins, res_by, pair)
            tab[(c, r['lat'] < 5000)] += 1
        print('%s: fast local queued waits, under 5 / under %g us' % (path, a.below))
        for c in ('A', 'B', 'B2', 'C', 'D', 'E'):
            print('  %-3s %4d %4d' % (c, tab[(c, True)], tab[(c, True)] + tab[(c, False)]))
        dpos = positions(res, sw, None, lambda r: (r['pid'], rec.get((r['pid'], r['t0']))))
        agg = defaultdict(lambda: [0, 0, 0])
        for k, (p, dp) in dpos.items():
            if k in tpos:
                tp = tpos[k]
                x = agg[min(tp[0], 4)]
                x[0] += 1
                x[1] += tp[1]
                x[2] += dp
        print('  paired local wakeups by position in the waker\'s run: pairs, preempt_local '
              'trace / dump')
        for p in sorted(agg):
            print('  %4s %6d %6d %6d' % (p if p < 4 else '4+', *agg[p]))


if __name__ == '__main__':
    main()
