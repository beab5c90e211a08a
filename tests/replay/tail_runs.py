#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A group's tail waits, trace against replay: how many queued at the wakeup, which runs went first.

Usage:
  schedreplay report --samples T.samples T.dat
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --seed N --dump-events T.N.dump T.dat     (one per seed)
  tail_runs.py --samples T.samples [--group pipe] [--pct 99] [--convoys US] [--check]
               T.rep T.1.dump [T.2.dump ...]

The tail is the wakeup samples of the group (latency definition of docs/report.md; in the trace
the latencies of `report --samples`) at or above the trace's --pct percentile (nearest rank over
the samples file's, the threshold the goal compares with).  Each wait is decomposed on the CPU
it waits on (across migrations) into the runs that went before the wakee's switch-in: the
current's remainder (`curr`), runs of tasks that were runnable there at the wakeup (`ahead`),
of tasks that became runnable there after it (`later`: picked before the wakee though they came
after it), and second or later runs of one task inside the wait (`again`); each by group (own /
other), with its count and CPU time, and how the runs ended (preempted `R`, or blocked).  Also
the queue at the wakeup (runnable tasks of each group besides the current) and how many of the
own group's tasks queued at the wakeup had not yet run when the wakee was picked.  Printed:
the trace, then per dump, then the dumps' mean (the tail's size, the mean wait, and the mean
per-wait figures), and the same decomposition for each input's own longest waits as many as
the trace has in its tail (equal rank), so that a shorter tail can be told from a thinner one.
`woken by the current`: waits whose waking ran on the CPU they wait on, by its current task (a
wakee queued behind its waker's run); `own left`: the own group's tasks queued at the wakeup
still unrun at the wakee's pick; `of N tasks (most M)`: distinct tasks that ran in the wait and
the runs of the most frequent; `last burst`: the wakee's CPU time from its previous wakeup to
its block.  Waits of --max-us or more are left out of the means and
counted apart (`+N long`).
--convoys US: the group's runs of at least US, per input: how many, their mean length and
preempted share, the group's wakeups onto their CPU during them, and the runner's own wakes of
the group: in the trace its `sched_waking`s; in a dump made with --dump-wake-records its wake
records by what the simulation did with each (`wake`: delivered to its target asleep at the
block it ends; `early:asleep`: the target asleep at an earlier block, waiting for another
record; `early:here` / `early:other`: queued on this / another CPU; `early:running`: on a CPU).
--check: for every input, each wait that did not migrate is covered exactly by its runs and
idle time from its `sched_wakeup` to its switch-in, and the run classes partition the runs;
prints `N inputs, M errors` and exits 1 on an error (ctest replay_tail_runs).
Analysis helper (docs/validation-log.md, "The hackbench captures' short p99 tails").
"""
import argparse
import re
import statistics
import sys
from collections import defaultdict

from sched_text import PID, SWITCH, TCPU, events, first
from tail_waits import MIG, WaitWalk, read_samples

CLASSES = ('curr', 'ahead', 'later', 'again')
OP = re.compile(r'(wake|early) pid=(\d+) trace=\d+ waker=(-?\d+)')


class TailRuns(WaitWalk):
    """analyse()'s waits: the runs before each, its queue at the wakeup, its waker."""

    def __init__(self, pids, grp):
        super().__init__(pids)
        self.grp = grp
        self.acc = defaultdict(int)      # pid -> CPU time since its last wakeup's switch-in
        self.burst = {}                  # pid -> CPU time of its last burst (wakeup to block)

    def g(self, p):
        return self.grp.get(p, 'other') if p else 'idle'

    def open_on(self, d, cpu, ts):
        d['since'] = ts
        d['queued'] = set(self.runnable[cpu]) - {d['pid'], self.curr[cpu]}
        d['cur0'] = self.curr[cpu]
        self.open_w[cpu].append(d)

    def new_wait(self, p, ts, cpu):
        return dict(pid=p, t0=ts, tcpu=None, runs=[], ran=set(), idle=0,
                    burst=self.burst.get(p, 0), waker=(cpu, self.curr[cpu]))

    def woken(self, d, t, ts):
        p, c = d['pid'], self.curr[t]
        d['tcpu'] = t
        q = defaultdict(int)
        for x in self.runnable[t]:
            if x != p and x != c:
                q['own' if self.g(x) == self.g(p) else 'other'] += 1
        d['rq'] = q
        d['queued0'] = {x for x in self.runnable[t] if x != p and x != c
                        and self.g(x) == self.g(p)}
        d['by_curr'] = d['waker'] == (t, c) and c != 0
        self.open_on(d, t, ts)

    def moved(self, d, dst, ts):
        self.open_on(d, dst, ts)

    def switched(self, ts, cpu, prev, state, nxt):
        for s in self.open_w[cpu]:
            start = max(self.sw_in[cpu], s['since'])
            if not prev:
                s['idle'] += ts - start
                continue
            if prev == s['cur0'] and not s['ran']:
                cls = 'curr'
            elif prev in s['ran']:
                cls = 'again'
            elif prev in s['queued']:
                cls = 'ahead'
            else:
                cls = 'later'
            own = 'own' if self.g(prev) == self.g(s['pid']) else 'other'
            if prev != s['pid']:
                s['runs'].append((cls, own, ts - start, state[0] == 'R', prev,
                                  ts - self.sw_in[cpu]))
                s['ran'].add(prev)
        if prev:
            self.acc[prev] += ts - self.sw_in[cpu]
            if state[0] != 'R':
                self.burst[prev] = self.acc.pop(prev, 0)

    def done(self, d, ts, cpu):
        if d['tcpu'] is None:
            return
        d['left'] = sum(1 for q in d['queued0']
                        if q not in d['ran'] and q in self.runnable[cpu])
        d.update(t1=ts, lat=ts - d['t0'], moved=cpu != d['tcpu'], span=ts - d['since'])
        self.res.append(d)


def analyse(path, pids, grp):
    """The group's wakeup samples of one input, each with its queue at the wakeup and runs."""
    return TailRuns(pids, grp).run(events(path))


def check(res):
    """Errors of the decomposition: unmoved waits not covered exactly, classes not a partition."""
    bad = 0
    for r in res:
        if r['moved']:
            continue
        if sum(x[2] for x in r['runs']) + r['idle'] != r['span']:
            bad += 1
        elif any(x[0] not in CLASSES or x[1] not in ('own', 'other') for x in r['runs']):
            bad += 1
    return bad


def convoys(path, pids, min_ns):
    """The group's runs of at least min_ns: (count, mean ns, preempted, {what: total})."""
    curr = defaultdict(int)
    since = defaultdict(int)
    where = {}
    acc = defaultdict(lambda: defaultdict(int))
    tot = defaultdict(int)
    runs = []

    def end(cpu, ts, st):
        if curr[cpu] in pids and ts - since[cpu] >= min_ns:
            runs.append((ts - since[cpu], st == 'R'))
            for k, v in acc[cpu].items():
                tot[k] += v
        acc[cpu] = defaultdict(int)

    def switch(ts, cpu, prev, st, nxt):
        end(cpu, ts, st)
        if st != 'R':
            where.pop(prev, None)
        curr[cpu] = nxt
        since[cpu] = ts
        where[nxt] = cpu

    for ts, _, cpu, shown, ev, fl in events(path):
        if shown is not None and shown != curr[cpu]:
            switch(ts, cpu, curr[cpu], 'R', shown)
        if curr[cpu] not in pids:
            if ev == 'sched_switch':
                m = SWITCH.search(fl)
                switch(ts, cpu, int(m.group(2)), m.group(3)[0], int(m.group(5)))
            elif ev in ('sched_wakeup', 'sched_wakeup_new'):
                where[first(PID.search(fl))] = first(TCPU.search(fl))
            continue
        if ev == 'replay_op':
            m = OP.search(fl)
            if m and int(m.group(3)) == curr[cpu] and int(m.group(2)) in pids:
                p = int(m.group(2))
                w = where.get(p)
                if m.group(1) == 'wake':
                    k = 'wake'
                elif p in curr.values():
                    k = 'early:running'
                else:
                    k = 'early:' + ('asleep' if w is None else 'here' if w == cpu else 'other')
                acc[cpu][k] += 1
        elif ev == 'sched_waking':
            if first(PID.search(fl)) in pids:
                acc[cpu]['waking'] += 1
        elif ev in ('sched_wakeup', 'sched_wakeup_new'):
            p, t = first(PID.search(fl)), first(TCPU.search(fl))
            where[p] = t
            if p in pids and t == cpu:
                acc[cpu]['wakeup here'] += 1
        elif ev == 'sched_migrate_task':
            m = MIG.search(fl)
            if m and int(m.group(1)) in where:
                where[int(m.group(1))] = int(m.group(3))
        elif ev == 'sched_switch':
            m = SWITCH.search(fl)
            switch(ts, cpu, int(m.group(2)), m.group(3)[0], int(m.group(5)))
    n = len(runs)
    return (n, sum(r[0] for r in runs) / (n or 1), sum(r[1] for r in runs) / (n or 1), tot)


def summary(ws):
    """Mean per-wait figures of a list of waits (dict of name -> value)."""
    n = len(ws) or 1
    out = {'n': len(ws), 'lat': sum(w['lat'] for w in ws) / n / 1e3,
           'q_own': sum(w['rq'].get('own', 0) for w in ws) / n,
           'q_other': sum(w['rq'].get('other', 0) for w in ws) / n,
           'left': sum(w['left'] for w in ws) / n,
           'by_curr': sum(w['by_curr'] for w in ws),
           'moved': sum(w['moved'] for w in ws) / n,
           'idle': sum(w['idle'] for w in ws) / n / 1e3}
    out['burst'] = sum(w['burst'] for w in ws) / n / 1e3
    out['distinct'] = sum(len({r[4] for r in w['runs']}) for w in ws) / n
    out['maxrep'] = sum(max([sum(1 for r in w['runs'] if r[4] == p) for p in
                             {r[4] for r in w['runs']}] or [0]) for w in ws) / n
    runs = [r for w in ws for r in w['runs']]
    cur = [r for r in runs if r[0] == 'curr']
    out['curr_full'] = sum(r[5] for r in cur) / (len(cur) or 1) / 1e3
    out['curr_R'] = sum(r[3] for r in cur) / (len(cur) or 1)
    out['runs'] = len(runs) / n
    out['run_us'] = sum(r[2] for r in runs) / (len(runs) or 1) / 1e3
    out['preempted'] = sum(r[3] for r in runs) / (len(runs) or 1)
    for c in CLASSES:
        for o in ('own', 'other'):
            sel = [r for r in runs if r[0] == c and r[1] == o]
            out['%s_%s_n' % (c, o)] = len(sel) / n
            out['%s_%s_us' % (c, o)] = sum(r[2] for r in sel) / n / 1e3
    return out


def row(name, s):
    cls = '  '.join('%s %.1f/%.0f|%.1f/%.0f' % (c, s['%s_own_n' % c], s['%s_own_us' % c],
                                               s['%s_other_n' % c], s['%s_other_us' % c])
                    for c in CLASSES)
    return ('%-22s n %6.1f (+%4.1f long)  wait %6.0f us  queued own %4.1f other %4.1f  '
            'own left %4.1f  runs %4.1f x %5.0f us (R %3.0f%%) of %4.1f tasks (most %4.1f)  '
            'idle %4.0f  moved %3.0f%%  last burst %4.0f us\n%24scurrent: whole run %4.0f us, '
            'preempted %3.0f%%; woken by the current: %5.1f waits\n%24s%s'
            % (name, s['n'], s['long'], s['lat'], s['q_own'], s['q_other'], s['left'], s['runs'],
               s['run_us'], 100 * s['preempted'], s['distinct'], s['maxrep'], s['idle'],
               100 * s['moved'], s['burst'], '', s['curr_full'], 100 * s['curr_R'], s['by_curr'],
               'own n/us|other n/us: ', cls))


def mean_of(sums):
    keys = sums[0].keys()
    return {k: statistics.mean(s[k] for s in sums) for k in keys}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--samples', required=True, help='report --samples file of the trace')
    ap.add_argument('--group', default='pipe', help='cgroup basename (default pipe)')
    ap.add_argument('--pct', type=float, default=99.0, help='tail percentile (default 99)')
    ap.add_argument('--max-us', type=float, default=10000.0,
                    help='leave waits of this or more out of the means, counted apart '
                         '(default 10000: the group-starved waits of docs/validation-log.md)')
    ap.add_argument('--each', action='store_true', help='print every dump, not only the mean')
    ap.add_argument('--convoys', type=float, metavar='US',
                    help="the group's runs of at least US us and the wakes made during them")
    ap.add_argument('--check', action='store_true', help='check the decomposition (ctest)')
    ap.add_argument('files', nargs='+', help='trace-cmd report -t text, then --dump-events files')
    a = ap.parse_args()
    grp, meas = read_samples(a.samples)
    meas = {k: v for k, v in meas.items() if grp[k[0]] == a.group}
    pids = {p for p, x in grp.items() if x == a.group}
    lats = sorted(meas.values())
    thr = lats[max(0, int(-(-len(lats) * a.pct // 100)) - 1)]
    print('group %s: %d measured samples, p%g %.0f us' % (a.group, len(lats), a.pct, thr / 1e3))
    tail_n = None
    dumps, ranks, alls = [], [], []
    errors = 0
    for i, path in enumerate(a.files):
        res = analyse(path, pids, grp)
        if a.check:
            errors += check(res)
        if a.convoys:
            n, mean, pre, tot = convoys(path, pids, a.convoys * 1000)
            print('%s: %d runs >= %g us, mean %.0f us, preempted %.0f%%; per run: %s'
                  % (path.rsplit('/', 1)[-1], n, a.convoys, mean / 1e3, 100 * pre,
                     ', '.join('%s %.1f' % (k, v / (n or 1)) for k, v in sorted(tot.items()))))
        if i == 0:
            for r in res:
                r['lat'] = meas.get((r['pid'], r['t0']), -1)
            res = [r for r in res if r['lat'] >= 0]
        tail = [r for r in res if r['lat'] >= thr]
        if tail_n is None:
            tail_n = len(tail)
        top = sorted(res, key=lambda r: -r['lat'])[:tail_n]
        hi = a.max_us * 1000
        s, t, al = (summary([r for r in x if r['lat'] < hi]) for x in (tail, top, res))
        s['long'] = t['long'] = al['long'] = sum(r['lat'] >= hi for r in tail)
        if i == 0:
            print('trace: %d samples' % len(res))
            print(row('  >= p%g' % a.pct, s))
            print(row('  all samples', al))
        else:
            dumps.append(s)
            ranks.append(t)
            alls.append(al)
            if a.each:
                print(row('  %s' % path.rsplit('/', 1)[-1], s))
    if dumps:
        print('dumps (%d), mean per dump:' % len(dumps))
        print(row('  >= p%g' % a.pct, mean_of(dumps)))
        print(row('  top %d' % tail_n, mean_of(ranks)))
        print(row('  all samples', mean_of(alls)))
    if a.check:
        print('%d inputs, %d errors' % (len(a.files), errors))
        sys.exit(1 if errors else 0)


if __name__ == '__main__':
    main()
