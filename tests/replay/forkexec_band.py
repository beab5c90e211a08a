#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""forkexec's p95 band, sample by sample: the wakeups a replay has at or above a latency that
the trace has below it, each with what the wakee waited behind on both sides.

Usage:
  schedreplay report --samples T.samples T.dat
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay [--seed N] --dump-events T.sN.dump T.dat
  forkexec_band.py --samples T.samples --lo US [--hi US] [--show N] T.rep T.s1.dump [...]

The latency group's samples are classified as forkexec_tail.py's analyse() does (wakee X =
xargs or c = a child at its fork, waker, loc / rem, path idle / pre / blk / q) and matched
between the trace and each dump by role and child index (fork order: the task and the order
of its wakeups).  For each matched sample below --lo in the trace and at or above it in the
dump (split at --hi, e.g. the predicted p95), the wait is listed on both sides as the runs on
the CPU where the wakee was switched in, from its wakeup to its switch-in: role and length in
us (X, c0 the waker or wakee child, c-1, c-2 older ones, o other, idle), and the crossings are
classified by cause:

  waker-run   X woken by its child's exec, on both sides behind that child only (blk/pre),
              the child running longer after the wakeup in the dump
  older-q     an older child ran in the dump's wait and not (or shorter) in the trace's
  preempt     X preempted its exec'ing child at once in the trace (pre, or blk within 50 us)
              and waited behind it in the dump
  other       tasks outside the workload ran longer in the dump's wait
  place       the wakee was switched in on another CPU than in the trace
  rest        none of these

Also printed, per side: the exec'ing child's run around its exec - from its vfork release
(its waking of X) to its sched_process_exec (trace only: the dump has no exec events) and
to its exit - and the CPU time each side's children ran from the release to their exit;
and the time a CPU was idle while the other had tasks queued, by what was queued (X, a
child that had run, a new child, other tasks): where a replay loses work conservation.

With --group-pid PID (the sidecar's groups[0].pid) the `preempt' crossings of each dump are
split by the EEVDF state at X's wakeup, rebuilt as forkexec_eevdf.py does on both sides:
an older child queued beside X in the dump only (its earlier deadline wins the wakeup's
pick, so X does not preempt), X not delayed in the dump where the trace's was (its lag
reset by a pick after an outside task preempted the child, or X eligible at its vfork
block), or other.

Analysis helper, not a test (docs/validation-log.md, "forkexec-run2's p95, sample by sample").
"""
import argparse
import os
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from forkexec_cycles import parse, find_parent  # noqa: E402
from forkexec_tail import analyse, child_role as role, read_samples  # noqa: E402


def timeline(evs):
    """Per CPU the runs [(t, pid)]; per pid its switch-ins [(t, cpu)]; exits, runtimes."""
    ncpu = 1 + max(e['cpu'] for e in evs)
    runs = [[(0, 0)] for _ in range(ncpu)]
    ins = defaultdict(list)
    curr = [0] * ncpu
    rt = defaultdict(list)      # pid -> [(t, runtime ns)]
    execs = {}
    exits = {}
    for e in evs:
        t, cpu = e['t'], e['cpu']
        nxt = None
        if e['ctx'] is not None and e['ctx'] != curr[cpu]:
            nxt = e['ctx']
        if e['ev'] == 'sched_switch':
            nxt = e['next']
        if nxt is not None and nxt != curr[cpu]:
            curr[cpu] = nxt
            runs[cpu].append((t, nxt))
            ins[nxt].append((t, cpu))
            if e['ev'] == 'sched_switch' and e['pstate'][0] in 'XZ':
                exits.setdefault(e['prev'], t)
    return runs, ins, exits


def read_extra(path):
    """sched_stat_runtime per pid and sched_process_exec times, from the raw text."""
    import re
    rt = defaultdict(list)
    ex = {}
    rr = re.compile(r'\[(\d+)\]\s+([\d.]+):\s+sched_stat_runtime:\s+comm=\S+ pid=(\d+) runtime=(\d+)')
    re_ = re.compile(r'\[(\d+)\]\s+([\d.]+):\s+sched_process_exec:.*pid=(\d+)')
    with open(path) as f:
        for line in f:
            if 'sched_stat_runtime' in line:
                m = rr.search(line)
                if m:
                    a, b = m.group(2).split('.')
                    rt[int(m.group(3))].append((int(a) * 10**9 + int(b.ljust(9, '0')[:9]),
                                                int(m.group(4))))
            elif 'sched_process_exec' in line:
                m = re_.search(line)
                if m:
                    a, b = m.group(2).split('.')
                    ex[int(m.group(3))] = int(a) * 10**9 + int(b.ljust(9, '0')[:9])
    return rt, ex


def wait_runs(runs, ins, s):
    """The wakee's switch-in after its wakeup and the runs on that CPU in between."""
    t0 = s['t0']
    sw = [x for x in ins.get(s['pid'], []) if x[0] >= t0]
    if not sw:
        return None, []
    t1, cpu = sw[0]
    out = []
    r = runs[cpu]
    # the run current at t0 and those after it, to t1
    lo, hi = 0, len(r)
    while lo < hi:
        m = (lo + hi) // 2
        if r[m][0] <= t0:
            lo = m + 1
        else:
            hi = m
    i = max(lo - 1, 0)
    while i < len(r) and r[i][0] < t1:
        a = max(r[i][0], t0)
        b = r[i + 1][0] if i + 1 < len(r) else t1
        b = min(b, t1)
        if b > a:
            out.append((r[i][1], b - a))
        i += 1
    return cpu, out


def summarise(seq, k, xpid, kidx):
    agg = []
    for p, d in seq:
        r = role(p, k, xpid, kidx)
        if agg and agg[-1][0] == r:
            agg[-1][1] += d
        else:
            agg.append([r, d])
    return agg


def fmt(agg):
    return ' '.join('%s:%.0f' % (r, d / 1e3) for r, d in agg)


def by_role(agg):
    c = Counter()
    for r, d in agg:
        c[r] += d
    return c


def classify(s_t, s_r, at, ar, cpu_t, cpu_r):
    bt, br = by_role(at), by_role(ar)
    old = ('c-1', 'c-2', 'c<', 'c+1', 'c+2', 'c>')
    d_old = sum(br[r] for r in old) - sum(bt[r] for r in old)
    d_c0 = br['c0'] - bt['c0']
    d_o = br['o'] - bt['o']
    d_x = br['X'] - bt['X']
    if cpu_t != cpu_r:
        return 'place'
    cands = {'older-q': d_old, 'other': d_o, 'X-run': d_x}
    if s_t['who'] == 'X':
        # X preempted (or nearly) its waker in the trace
        if bt['c0'] < 50e3 and d_c0 > 50e3:
            cands['preempt'] = d_c0
        else:
            cands['waker-run'] = d_c0
    else:
        cands['c0-run'] = d_c0
    best = max(cands, key=lambda c: cands[c])
    return best if cands[best] > 0 else 'rest'


def idle_beside_queued(evs, xpid, kidx):
    """ns a CPU was idle while the other had tasks queued, by the queued tasks' kinds."""
    ran = set()
    curr = [0, 0]
    rq = [set(), set()]
    where = {}
    acc = Counter()
    last = evs[0]['t']

    def kind(p):
        if p == xpid:
            return 'X'
        if p in kidx:
            return 'child that ran' if p in ran else 'new child'
        return 'other'

    for e in evs:
        t, cpu = e['t'], e['cpu']
        if cpu > 1:
            continue
        d, last = t - last, t
        for c in (0, 1):
            if curr[c] == 0 and rq[1 - c]:
                acc['+'.join(sorted({kind(p) for p in rq[1 - c]}))] += d
        if e['ctx'] is not None and e['ctx'] != curr[cpu]:
            p = e['ctx']
            rq[cpu].discard(p)
            where.pop(p, None)
            curr[cpu] = p
            ran.add(p)
        ev = e['ev']
        if ev in ('sched_wakeup', 'sched_wakeup_new'):
            p = e['pid']
            if p not in curr and e['tcpu'] <= 1:
                if p in where:
                    rq[where[p]].discard(p)
                rq[e['tcpu']].add(p)
                where[p] = e['tcpu']
        elif ev == 'sched_migrate_task':
            p = e['pid']
            if p in where and e['dest'] <= 1:
                rq[where[p]].discard(p)
                rq[e['dest']].add(p)
                where[p] = e['dest']
        elif ev == 'sched_switch':
            if e['pstate'][0] == 'R' and e['prev']:
                rq[cpu].add(e['prev'])
                where[e['prev']] = cpu
            n = e['next']
            if n in where:
                rq[where[n]].discard(n)
                where.pop(n)
            curr[cpu] = n
            ran.add(n)
    return acc


def x_wake_states(path, gpid):
    """Per child index k: the rebuilt EEVDF state at X's local wakeup by child k's exec."""
    import forkexec_eevdf as fe

    class R(fe.Rebuild):
        def __init__(self, *a, **k):
            self.xw, self.released, self.pendx = {}, set(), None
            super().__init__(*a, **k)

        def step(self, e):
            if e['ev'] == 'sched_waking' and e.get('pid') == self.x:
                en = self.ent.get(self.x)
                self.pendx = bool(en and en.delayed and self.x in self.on)
            super().step(e)
            if e['ev'] != 'sched_wakeup' or e['pid'] != self.x or self.pendx is None:
                return
            rq = self.rq[e['tcpu']]
            cur = rq.curr
            if cur in self.children and cur not in self.released:
                self.released.add(cur)
                if self.x in rq.q and cur in rq.q:
                    self.xw[self.children.index(cur)] = dict(
                        delayed=self.pendx, n=len(rq.q), t=self.t)
            self.pendx = None

    evs = fe.parse(path)
    R.fork_parent = {e['child']: e['pid'] for e in evs if e['ev'] == 'sched_process_fork'}
    return R(evs, gpid, find_parent(evs), 2, 1400000, 4000000).xw


def preempted_after_block(evs, xpid, c0):
    """c0 switched out runnable between X's fork of it and X's waking by it."""
    i0 = next((i for i, e in enumerate(evs)
               if e['ev'] == 'sched_process_fork' and e.get('child') == c0), None)
    if i0 is None:
        return False
    cpu = evs[i0]['cpu']
    for e in evs[i0:]:
        if e['ev'] == 'sched_waking' and e.get('pid') == xpid:
            return False
        if e['ev'] == 'sched_switch' and e['cpu'] == cpu and e['prev'] == c0 \
           and e['pstate'].startswith('R'):
            return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--samples', required=True)
    ap.add_argument('--group', default='forkexec')
    ap.add_argument('--lo', type=float, required=True, help='us')
    ap.add_argument('--hi', type=float, default=1e12, help='us')
    ap.add_argument('--show', type=int, default=0, help='list N crossings per dump')
    ap.add_argument('--group-pid', type=int, default=0,
                    help="the workload's leader: split the preempt crossings by EEVDF state")
    ap.add_argument('trace')
    ap.add_argument('dumps', nargs='+')
    a = ap.parse_args()
    grp, meas = read_samples(a.samples, a.group)
    lo, hi = a.lo * 1000, a.hi * 1000
    tev = parse(a.trace)
    xpid = find_parent(tev)
    kidx = {}
    for e in tev:
        if e['ev'] == 'sched_process_fork' and e['pid'] == xpid:
            kidx[e['child']] = len(kidx)
    sides = [('trace', a.trace, tev)]
    for d in a.dumps:
        sides.append((os.path.basename(d), d, parse(d)))
    res = []
    for name, path, evs in sides:
        samp = analyse(evs, grp, xpid, meas)
        runs, ins, exits = timeline(evs)
        rt, ex = read_extra(path)
        ix = {(s['who'], s['kind'], s['k']): s for s in samp if s['k'] is not None}
        res.append(dict(name=name, samp=samp, runs=runs, ins=ins, ix=ix, exits=exits, rt=rt,
                        ex=ex, evs=evs,
                        xw=x_wake_states(path, a.group_pid) if a.group_pid else {}))
    tr = res[0]

    print('idle while the other CPU had tasks queued (ms), by what was queued:')
    for r in res:
        acc = idle_beside_queued(r['evs'], xpid, kidx)
        print('  %-12s %.1f: %s' % (r['name'], sum(acc.values()) / 1e6, ', '.join(
            '%s %.1f' % (k, v / 1e6) for k, v in acc.most_common(5))))

    # the exec'ing child around its exec
    print("children: release (waking of X) -> exec / -> exit (us, p25 / p50 / p75 / p90); "
          "CPU time charged release -> exit")
    for r in res:
        # release time: the first sched_waking of X by each child
        rel = {}
        for s in r['samp']:
            if s['who'] == 'X' and s['kind'] == 'exec':
                w = [p for p, k in kidx.items() if k == s['k']]
                if w:
                    rel[w[0]] = s['t0']
        d_ex = sorted(r['ex'][p] - t for p, t in rel.items() if p in r['ex'])
        d_exit = sorted(r['exits'][p] - t for p, t in rel.items() if p in r['exits'])
        cpu_after = sorted(sum(d for tt, d in r['rt'].get(p, []) if tt > t)
                           for p, t in rel.items())

        def q(v):
            if not v:
                return '-'
            return ' / '.join('%.0f' % (v[int(f * (len(v) - 1))] / 1e3)
                              for f in (0.25, 0.5, 0.75, 0.9))
        print('  %-12s n %d  ->exec %s  ->exit %s  CPU time after %s (sum %.1f ms)' % (
            r['name'], len(rel), q(d_ex), q(d_exit), q(cpu_after), sum(cpu_after) / 1e6))

    kt = sorted(kidx, key=kidx.get)
    states = Counter()
    tot = Counter()
    allc = defaultdict(Counter)
    excess = defaultdict(Counter)
    shown = 0
    for r in res[1:]:
        ups = []
        for key, s in r['ix'].items():
            o = tr['ix'].get(key)
            if o is None or not (o['lat'] < lo <= s['lat']):
                continue
            ups.append((key, o, s))
        downs = sum(1 for key, s in r['ix'].items()
                    if key in tr['ix'] and s['lat'] < lo <= tr['ix'][key]['lat'])
        print('%s: up %d (%d below --hi), down %d' % (
            r['name'], len(ups), sum(1 for u in ups if u[2]['lat'] < hi), downs))
        for key, o, s in sorted(ups, key=lambda u: u[0][2]):
            ct, st = wait_runs(tr['runs'], tr['ins'], o)
            cr, sr = wait_runs(r['runs'], r['ins'], s)
            at = summarise(st, o['k'], xpid, kidx)
            ar = summarise(sr, s['k'], xpid, kidx)
            band = 'mid' if s['lat'] < hi else 'top'
            c = classify(o, s, at, ar, ct, cr)
            cl = '%s/%s %s' % (s['who'], s['kind'], s['where'])
            allc[band][(cl, c)] += 1
            tot[band] += 1
            if c == 'preempt' and a.group_pid:
                xt, xr = tr['xw'].get(s['k']), r['xw'].get(s['k'])
                if xt is None or xr is None:
                    states['state not rebuilt'] += 1
                elif xr['n'] > xt['n']:
                    states['an older child queued beside X in the dump only'] += 1
                elif xt['delayed'] and not xr['delayed']:
                    states['X not delayed in the dump: ' + (
                        'the child preempted by an outside task after the block'
                        if preempted_after_block(r['evs'], xpid, kt[s['k']])
                        else 'X eligible at its vfork block')] += 1
                else:
                    states['other'] += 1
            bt, br = by_role(at), by_role(ar)
            for k in set(bt) | set(br):
                excess[band][k] += br[k] - bt[k]
            if shown < a.show:
                shown += 1
                print('  %s k=%d %-10s trace %4.0f us cpu%s %-5s [%s]\n%28s replay %4.0f us cpu%s '
                      '%-5s [%s] -> %s' % (
                          s['who'], s['k'], s['kind'] + ' ' + s['where'], o['lat'] / 1e3, ct,
                          o['path'], fmt(at), '', s['lat'] / 1e3, cr, s['path'], fmt(ar), c))
    n = len(res) - 1
    for band in ('mid', 'top'):
        print('%s band (%s): %.1f per dump' % (band, '%g..%g us' % (a.lo, a.hi) if band == 'mid'
                                               else '>= %g us' % a.hi, tot[band] / n))
        for (cl, c), v in allc[band].most_common():
            print('  %-22s %-10s %6.1f' % (cl, c, v / n))
        print('  wait excess by role (ms per dump): ' + ' '.join(
            '%s %+.1f' % (k, v / n / 1e6) for k, v in sorted(excess[band].items(),
                                                             key=lambda kv: -abs(kv[1]))))

    if states:
        print('preempt crossings (both bands) by the state at X\'s wakeup, per dump:')
        for k, v in states.most_common():
            print('  %6.1f  %s' % (v / n, k))


if __name__ == '__main__':
    main()
