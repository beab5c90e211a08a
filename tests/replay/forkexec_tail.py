#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""forkexec's wakeup-latency tail, wakeup by wakeup: which wakeups lie between two latencies.

Usage:
  schedreplay report --samples T.samples T.dat
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay [--seed N] --dump-events T.sN.dump T.dat
  forkexec_tail.py --samples T.samples --lo US --hi US T.rep T.s1.dump [T.s2.dump ...]

The latency group's wakeup samples (cgroup basename --group, default forkexec) of each input
(the capture's `trace-cmd report -t` text, with the latencies of `report --samples`, i.e. the
repaired stream; or a `--dump-events` file) are classified by:

  wakee   X (xargs, the parent that forks most) or c (a child, at its sched_wakeup_new) or o;
  waker   for X: exec (the child's vfork release, its first waking of X) or exit (a later
          waking by that child: wait4), or o; for a child: fork;
  where   loc (waker and wakee on one CPU) or rem;
  path    idle (the target CPU idle at the wakeup), pre (the CPU's current at the wakeup is
          switched out runnable for the wakee), blk (that current ran on until it blocked or
          exited, then the wakee), or q (queued: something else ran first);
  ahead   for q: the tasks switched in on that CPU before the wakee, as roles relative to the
          waker child k (for X) or to the wakee child k (for c): c0 the waker/wakee child, c-1,
          c-2 older children, c+1 newer ones, X, o other; repeated tasks collapsed.

(--coarse: without the ahead sequence; --queue: by the tasks runnable on that CPU at the
wakeup instead, same roles; on the trace side these are inferred from the events) and counted
in three bands: below --lo, between --lo and --hi, at or above --hi (us; e.g. the measured and
the predicted p95).  Printed per input: the band counts per class, the mean
latency per class in the middle and top bands, and what the wakee's CPU ran during the waits of
the top two bands (CPU time by role).  Samples of several dumps are summed and divided by their
number (one seed's mean).  Then X's local exec wakeups by the children queued at the wakeup
(other tasks left out), with the share of each path; and the wakeups matched by role and child
index (fork order) that cross --lo upwards or downwards from the trace to a dump, by class;
with --prev N the N most frequent, each with the previous cycle's exec wakeup of X (by child
k-1) on both sides ('+': at or above --lo), which names the decision that differed first: with
--lo at 1.2 x the measured p95 (the goal's bound), what a seed has above the bound that the
trace has below it (docs/validation-log.md, "forkexec-run2's p95, the goal's band").

Analysis helper, not a test (docs/validation-log.md, "After the seventeenth pass: forkexec's p95,
wakeup by wakeup").
"""
import argparse
import os
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from forkexec_cycles import parse, find_parent  # noqa: E402


def child_role(p, k, xpid, kidx):
    """Task @p's role relative to child index @k: idle, X, c0, c-1, c+2, c< / c> (older /
    newer beyond 2) or o (not the parent's child)."""
    if p == 0:
        return 'idle'
    if p == xpid:
        return 'X'
    if p in kidx and k is not None:
        d = kidx[p] - k
        return 'c0' if d == 0 else ('c%+d' % d if abs(d) <= 2 else ('c<' if d < 0 else 'c>'))
    return 'o'


def analyse(evs, grp_pids, xpid, meas):
    ncpu = 1 + max(e['cpu'] for e in evs)
    curr = [0] * ncpu
    kidx = {}                 # child pid -> fork order
    released = set()          # children that have woken X once (vfork release)
    pend = {}                 # pid -> open sample
    open_w = defaultdict(list)
    since = [0] * ncpu
    res = []
    rq = [set() for _ in range(ncpu)]   # runnable, not current
    where = {}
    is_trace = any(e['ctx'] is not None for e in evs[:50])

    def role(p, k):
        return child_role(p, k, xpid, kidx)

    def account(cpu, t):
        d = t - since[cpu]
        for s in open_w[cpu]:
            s['occ'][role(curr[cpu], s['k'])] += d
        since[cpu] = t

    def switch(t, cpu, prev, state, nxt):
        account(cpu, t)
        for s in open_w[cpu]:
            if nxt != s['pid']:
                r = role(nxt, s['k'])
                if not s['ahead'] or s['ahead'][-1] != r:
                    s['ahead'].append(r)
        if state[0] == 'R' and prev:
            rq[cpu].add(prev)
            where[prev] = cpu
        elif state[0] in 'XZ':
            for q in rq:
                q.discard(prev)
            where.pop(prev, None)
        for q in rq:
            q.discard(nxt)
        where.pop(nxt, None)
        curr[cpu] = nxt
        s = pend.pop(nxt, None)
        if s is not None:
            for c in open_w:
                if s in open_w[c]:
                    open_w[c].remove(s)
            if s['tcpu'] is None:
                s['tcpu'] = cpu
            s['lat'] = t - s['t0']
            if s['path'] is None:
                s['path'] = 'idle' if s['curr'] == 0 else (
                    ('pre' if state[0] == 'R' else 'blk') if not s['ahead'] else 'q')
            res.append(s)

    for e in evs:
        t, cpu = e['t'], e['cpu']
        if e['ctx'] is not None and e['ctx'] != curr[cpu]:
            switch(t, cpu, curr[cpu], '?', e['ctx'])
        ev = e['ev']
        if ev == 'sched_process_fork' and e['pid'] == xpid:
            kidx[e['child']] = len(kidx)
        if ev in ('sched_waking', 'sched_wakeup_new'):
            p = e['pid']
            if p in grp_pids and p not in pend and p not in curr:
                waker = e['ctx'] if e['ctx'] is not None else curr[cpu]
                if p == xpid:
                    who = 'X'
                    k = kidx.get(waker)
                    if k is None:
                        kind = 'o'
                    elif waker in released:
                        kind = 'exit'
                    else:
                        kind = 'exec'
                        released.add(waker)
                elif p in kidx:
                    who, k, kind = 'c', kidx[p], 'fork'
                    cpu = curr.index(xpid) if xpid in curr else cpu
                else:
                    who, k, kind = 'o', None, 'o'
                pend[p] = dict(pid=p, t0=t, who=who, k=k, kind=kind, wcpu=cpu, tcpu=None,
                               curr=None, path=None, ahead=[], occ=Counter(), nq=0)
            if ev == 'sched_wakeup_new':
                ev = 'sched_wakeup'
        if ev == 'sched_waking' and e['pid'] == xpid and e['pid'] not in pend:
            # a waking of a running X by a child: count the release anyway
            waker = e['ctx'] if e['ctx'] is not None else curr[cpu]
            if waker in kidx and waker not in released:
                released.add(waker)
        if ev == 'sched_wakeup':
            if e['pid'] in where:
                rq[where[e['pid']]].discard(e['pid'])
            if e['pid'] not in curr:
                rq[e['tcpu']].add(e['pid'])
                where[e['pid']] = e['tcpu']
            s = pend.get(e['pid'])
            if s is not None and s['tcpu'] is None:
                tc = e['tcpu']
                account(tc, t)
                s['tcpu'] = tc
                s['curr'] = curr[tc]
                s['currole'] = role(curr[tc], s['k'])
                s['nq'] = len(rq[tc] - {s['pid']})
                s['queued'] = sorted(role(q, s['k']) for q in rq[tc] if q != s['pid'])
                s['qpids'] = sorted(q for q in rq[tc] if q != s['pid'])
                open_w[tc].append(s)
        elif ev == 'sched_migrate_task':
            if e['pid'] in where:
                rq[where[e['pid']]].discard(e['pid'])
                rq[e['dest']].add(e['pid'])
                where[e['pid']] = e['dest']
            s = pend.get(e['pid'])
            if s is not None and s['tcpu'] is not None:
                for c in open_w:
                    if s in open_w[c]:
                        open_w[c].remove(s)
                account(e['dest'], t)
                open_w[e['dest']].append(s)
                s['moved'] = True
        elif ev == 'sched_switch':
            switch(t, cpu, e['prev'], e['pstate'], e['next'])
    if is_trace:
        out = []
        for s in res:
            lat = meas.get((s['pid'], s['t0']))
            if lat is not None:
                s['lat'] = lat
                out.append(s)
        res = out
    for s in res:
        s['where'] = 'loc' if s['wcpu'] == s['tcpu'] else 'rem'
    return res


COARSE = False
QUEUE = False


def cls(s):
    c = '%s/%s %s %s' % (s['who'], s['kind'], s['where'], s['path'])
    if COARSE:
        return c
    if QUEUE:
        return c + ' [%s]' % ','.join(s.get('queued', []))
    if s['path'] == 'q':
        c += ' ' + '>'.join(s['ahead'][:4])
    elif s['path'] == 'pre':
        c += ' curr=' + s.get('currole', '?')
    return c


def read_samples(path, group):
    """`report --samples` wakeups of the cgroup basename @group: (pids, {(pid, start): ns})."""
    grp, meas = set(), {}
    with open(path) as f:
        for line in f:
            c = line.rstrip('\n').split('\t')
            if c[0] == 'wakeup' and c[8].rsplit('/', 1)[-1] == group:
                grp.add(int(c[1]))
                meas[(int(c[1]), int(c[3]))] = int(c[5])
    return grp, meas


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--samples', required=True)
    ap.add_argument('--group', default='forkexec')
    ap.add_argument('--lo', type=float, required=True, help='us')
    ap.add_argument('--hi', type=float, required=True, help='us')
    ap.add_argument('--min', type=float, default=3.0, help='classes shown: mean count >= this')
    ap.add_argument('--queue', action='store_true',
                    help='classes by the tasks queued at the wakeup')
    ap.add_argument('--coarse', action='store_true', help='classes without the ahead sequence')
    ap.add_argument('--prev', type=int, default=0, metavar='N',
                    help='the N most frequent matched crossings, each with the previous '
                         "cycle's exec wakeup of X (by child k-1) on both sides")
    ap.add_argument('trace')
    ap.add_argument('dumps', nargs='+')
    a = ap.parse_args()
    grp, meas = read_samples(a.samples, a.group)
    lo, hi = a.lo * 1000, a.hi * 1000
    global COARSE, QUEUE
    COARSE = a.coarse
    QUEUE = a.queue
    sides = []
    tev = parse(a.trace)
    xpid = find_parent(tev)
    sides.append(('trace', [analyse(tev, grp, xpid, meas)]))
    del tev
    runs = []
    for d in a.dumps:
        runs.append(analyse(parse(d), grp, xpid, meas))
    sides.append(('replay (mean of %d)' % len(runs), runs))

    def band(x):
        return 0 if x < lo else (1 if x < hi else 2)

    tabs = []
    for name, rs in sides:
        n = len(rs)
        cnt = defaultdict(lambda: [0.0, 0.0, 0.0])
        lat = defaultdict(lambda: [0.0, 0.0, 0.0])
        occ = defaultdict(Counter)
        tot = [0.0, 0.0, 0.0]
        for r in rs:
            for s in r:
                b = band(s['lat'])
                c = cls(s)
                cnt[c][b] += 1 / n
                lat[c][b] += s['lat'] / n
                tot[b] += 1 / n
                if b:
                    for k, v in s['occ'].items():
                        occ[c][k] += v / n
        tabs.append((name, cnt, lat, occ, tot))
        print('%s: %d samples: < %g us %.1f, %g..%g us %.1f, >= %g us %.1f'
              % (name, sum(tot), a.lo, tot[0], a.lo, a.hi, tot[1], a.hi, tot[2]))
    keys = set()
    for _, cnt, _, _, _ in tabs:
        keys |= {c for c, v in cnt.items() if v[1] + v[2] >= a.min}
    print('%-44s %26s %26s  %s' % ('class', 'trace <lo / mid / >=hi', 'replay <lo / mid / >=hi',
                                   'mid+top mean us (trace / replay); CPU ran (replay, ms)'))
    for c in sorted(keys, key=lambda c: -(tabs[1][1][c][1] + tabs[1][1][c][2]
                                          - tabs[0][1][c][1] - tabs[0][1][c][2])):
        row = []
        for _, cnt, lat, occ, _ in tabs:
            v = cnt.get(c, [0, 0, 0])
            row.append('%7.1f /%6.1f /%6.1f' % tuple(v))
        mm = []
        for _, cnt, lat, occ, _ in tabs:
            v, w = cnt.get(c, [0, 0, 0]), lat.get(c, [0, 0, 0])
            mm.append('%.0f' % ((w[1] + w[2]) / (v[1] + v[2]) / 1e3) if v[1] + v[2] else '-')
        o = tabs[1][3].get(c, Counter())
        occs = ' '.join('%s %.1f' % (k, v / 1e6) for k, v in o.most_common(4))
        print('%-44s %26s %26s  %s; %s' % (c[:44], row[0], row[1], ' / '.join(mm), occs))

    def qcls(s):
        return ','.join(v for v in s.get('queued', []) if v != 'o') or '-'

    print("X's local exec wakeups by the children queued at the wakeup: n, path shares")
    for name, rs in sides:
        tab = defaultdict(Counter)
        for r in rs:
            for s in r:
                if (s['who'], s['kind'], s['where']) == ('X', 'exec', 'loc'):
                    tab[qcls(s)][s['path']] += 1 / len(rs)
                    tab[qcls(s)]['n'] += 1 / len(rs)
        for q in sorted(tab, key=lambda q: -tab[q]['n'])[:6]:
            c = tab[q]
            print('  %-20s %-10s n %7.1f  pre %5.1f %%  blk %5.1f %%  q %5.1f %%'
                  % (name[:20], q, c['n'], 100 * c['pre'] / c['n'], 100 * c['blk'] / c['n'],
                     100 * c['q'] / c['n']))

    def full(s):
        return '%s/%s %s %s [%s]' % (s['who'], s['kind'], s['where'], s['path'], qcls(s))

    def index(r):
        return {(s['who'], s['kind'], s['k']): s for s in r if s['k'] is not None}

    def prev(ix, s):
        # the previous cycle's exec wakeup of X (by child k-1), marked '+' at or above --lo
        o = ix.get(('X', 'exec', s['k'] - 1))
        return full(o) + (' +' if o['lat'] >= lo else '') if o else '-'

    tr = index(sides[0][1][0])
    up, down = Counter(), Counter()
    for r in runs:
        rx = index(r)
        for s in r:
            o = tr.get((s['who'], s['kind'], s['k']))
            if o is None or s['k'] is None:
                continue
            key = (full(o), full(s)) + ((prev(tr, o), prev(rx, s)) if a.prev else ())
            if o['lat'] < lo <= s['lat']:
                up[key] += 1 / len(runs)
            elif s['lat'] < lo <= o['lat']:
                down[key] += 1 / len(runs)
    print('matched wakeups below --lo in the trace and not in the replay: %.1f; the reverse %.1f'
          % (sum(up.values()), sum(down.values())))
    for tag, cnt in (('up', up), ('down', down)):
        for key, v in cnt.most_common(a.prev or 6):
            print('  %-4s %6.1f  trace %-30s -> replay %s' % (tag, v, key[0], key[1]))
            if a.prev:
                print('%14s previous exec wakeup of X: trace %-32s replay %s' % ('', key[2], key[3]))


if __name__ == '__main__':
    main()
