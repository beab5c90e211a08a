#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One task group's long wakeup waits, trace against replay: where, behind whom, how crowded.

Usage:
  schedreplay report --samples T.samples T.dat
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay [--seed N] --dump-events T.dump T.dat
  tail_waits.py --samples T.samples [--group pipe] [--min-us 2000] [--bin-ms 10] T.rep [T.dump ...]

For each input (the trace's `trace-cmd report -t` text or a `--dump-events` file) the wakeup
samples of the group (the latency definition of docs/report.md; in the trace the latencies of
`report --samples`, with the switches out of idle the reader restores) of at least --min-us are
taken, and for each its wait is split by what the CPU it was switched in on ran meanwhile: CPU
time per task group (cgroup basename of the samples file; `other` for tasks it does not name),
the number of switches on that CPU, and how many tasks of each group were runnable there at the
wakeup (from the events alone: woken or preempted, not yet blocked).  Printed per input: the
count of such waits per CPU and time bin (ms since the first event), and per CPU the median
wait, the groups' mean share of the waits, the median runnable tasks per group at the wakeup,
and the wakee's own switch-in order among its group's waiters (how many of its group's tasks
ran first); then, over all the group's samples, how many were woken while the CPU's current ran
on for at least half of --min-us before the first switch, and how many distinct runs of a
current (CPU, task, switch-in time) those were.  A wakeup is also counted per ordinal (the n-th wakeup of that pid) so that the
same wakeups can be compared across inputs: `--same` prints, for the trace's long waits, what
each dump gave the n-th wakeup of that pid.
Analysis helper, not a test (docs/validation-log.md, "hackbench-shares' p99, wakeup by wakeup").
"""
import argparse
import re
import statistics
from collections import defaultdict

from sched_text import PID, SWITCH, TCPU, events, first

MIG = re.compile(r'pid=(\d+).*orig_cpu=(\d+) dest_cpu=(\d+)')


class WaitWalk:
    """The wakeup waits of pids through an event list: each from its first `sched_waking` (or
    `sched_wakeup_new`) to its switch-in, on the CPU it waits on (across migrations), with each
    CPU's current and runnable tasks.  The hooks say what a wait records: new_wait() (its dict,
    which needs pid, t0 and tcpu None), woken() at its wakeup (tcpu unset: set it and add the
    wait to open_w), moved() at a migration (the wait already off every CPU's open_w),
    switched() before each switch's bookkeeping and done() at its switch-in (off open_w).
    A switch a line's current task implies (`trace-cmd report` lines) comes first, as 'R?'."""

    def __init__(self, pids):
        self.pids = pids
        self.curr = defaultdict(int)
        self.sw_in = defaultdict(int)            # cpu -> when its current was switched in
        self.runnable = defaultdict(set)         # cpu -> pids runnable (queued or current)
        self.where = {}                          # pid -> cpu it is runnable on
        self.pend = {}
        self.open_w = defaultdict(list)          # cpu -> pending waits
        self.res = []

    def make_runnable(self, p, cpu):
        old = self.where.get(p)
        if old is not None:
            self.runnable[old].discard(p)
        self.where[p] = cpu
        self.runnable[cpu].add(p)

    def close(self, d):
        for c in self.open_w:
            if d in self.open_w[c]:
                self.open_w[c].remove(d)

    def new_wait(self, p, ts, cpu):
        return dict(pid=p, t0=ts, tcpu=None)

    def woken(self, d, t, ts):
        d['tcpu'] = t
        self.open_w[t].append(d)

    def moved(self, d, dst, ts):
        self.open_w[dst].append(d)

    def switched(self, ts, cpu, prev, state, nxt):
        pass

    def done(self, d, ts, cpu):
        self.res.append(d)

    def switch(self, ts, cpu, prev, state, nxt):
        self.switched(ts, cpu, prev, state, nxt)
        if prev and state[0] != 'R':
            self.runnable[self.where.get(prev, cpu)].discard(prev)
            self.where.pop(prev, None)
        if nxt:
            self.make_runnable(nxt, cpu)
        d = self.pend.pop(nxt, None)
        if d is not None:
            self.close(d)
            self.done(d, ts, cpu)
        self.curr[cpu] = nxt
        self.sw_in[cpu] = ts

    def run(self, evs):
        curr = self.curr
        for ts, _, cpu, shown, ev, fl in evs:
            if shown is not None and shown != curr[cpu]:
                self.switch(ts, cpu, curr[cpu], 'R?', shown)
            if ev in ('sched_waking', 'sched_wakeup_new'):
                p = first(PID.search(fl))
                if p in self.pids and p not in self.pend and p not in curr.values():
                    self.pend[p] = self.new_wait(p, ts, cpu)
                if ev == 'sched_wakeup_new':
                    ev = 'sched_wakeup'
            if ev == 'sched_wakeup':
                p = first(PID.search(fl))
                t = first(TCPU.search(fl))
                self.make_runnable(p, t)
                d = self.pend.get(p)
                if d is not None and d['tcpu'] is None:
                    self.woken(d, t, ts)
            elif ev == 'sched_migrate_task':
                m = MIG.search(fl)
                if m:
                    p, dst = int(m.group(1)), int(m.group(3))
                    if p in self.where:
                        self.make_runnable(p, dst)
                    d = self.pend.get(p)
                    if d is not None and d['tcpu'] is not None:
                        self.close(d)
                        self.moved(d, dst, ts)
            elif ev == 'sched_switch':
                m = SWITCH.search(fl)
                self.switch(ts, cpu, int(m.group(2)), m.group(3), int(m.group(5)))
        return self.res


class LongWaits(WaitWalk):
    """analyse()'s waits: the CPU time per group each got and what its CPU switched."""

    def __init__(self, pids, grp, t_first):
        super().__init__(pids)
        self.grp = grp
        self.t_first = t_first
        self.since = defaultdict(int)
        self.nth = defaultdict(int)

    def g(self, p):
        return self.grp.get(p, 'other') if p else 'idle'

    def account(self, cpu, ts):
        p = self.curr[cpu]
        d = ts - self.since[cpu]
        for s in self.open_w[cpu]:
            s['occ'][self.g(p)] += d
        self.since[cpu] = ts

    def new_wait(self, p, ts, cpu):
        self.nth[p] += 1
        return dict(pid=p, nth=self.nth[p], t0=ts, bin=ts - self.t_first, tcpu=None,
                    occ=defaultdict(int), nsw=0, first=0, first_by=None, ahead=0, rq={})

    def woken(self, d, t, ts):
        curr = self.curr
        self.account(t, ts)
        d['tcpu'] = t
        rq = defaultdict(int)
        for q in self.runnable[t]:
            if q != d['pid'] and q != curr[t]:
                rq[self.g(q)] += 1
        d['rq'] = rq
        d['curr'] = self.g(curr[t])
        d['curr_pid'] = curr[t]
        d['curr_ran'] = ts - self.sw_in[t] if curr[t] else 0
        self.open_w[t].append(d)

    def moved(self, d, dst, ts):
        self.account(dst, ts)
        self.open_w[dst].append(d)

    def switched(self, ts, cpu, prev, state, nxt):
        self.account(cpu, ts)
        for s in self.open_w[cpu]:
            if not s['nsw']:
                s['first'] = ts - s['t0']
                s['first_by'] = self.g(prev)
                s['first_state'] = state[0]
            s['nsw'] += 1
            if nxt != s['pid'] and self.g(nxt) == self.g(s['pid']):
                s['ahead'] += 1

    def done(self, d, ts, cpu):
        d.update(t1=ts, cpu=cpu, lat=ts - d['t0'], moved=cpu != d['tcpu'])
        self.res.append(d)


def analyse(path, pids, grp):
    """Wakeup samples of pids: dict(pid, nth, t0, t1, cpu, lat, occ{group: ns}, nsw, rq{group: n},
    ahead) - ahead: tasks of the wakee's group switched in on that CPU during the wait."""
    evs = events(path)
    return LongWaits(pids, grp, evs[0][0] if evs else 0).run(evs)


def read_samples(path):
    """A `report --samples` file: pid -> cgroup basename, (pid, start ns) -> wakeup latency."""
    grp, meas = {}, {}
    with open(path) as f:
        for line in f:
            c = line.rstrip('\n').split('\t')
            if c[0] in ('wakeup', 'runq'):
                grp[int(c[1])] = c[8].rsplit('/', 1)[-1] or '/'
            if c[0] == 'wakeup':
                meas[(int(c[1]), int(c[3]))] = int(c[5])
    return grp, meas


def med(v):
    return statistics.median(v) if v else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--samples', required=True, help='report --samples file of the trace')
    ap.add_argument('--group', default='pipe', help='cgroup basename (default pipe)')
    ap.add_argument('--min-us', type=float, default=2000.0, help='long wait, us (default 2000)')
    ap.add_argument('--bin-ms', type=float, default=20.0, help='time bin, ms (default 20)')
    ap.add_argument('--same', action='store_true',
                    help="the trace's long waits as each dump gave them (by pid and ordinal)")
    ap.add_argument('files', nargs='+', help='trace-cmd report -t text or --dump-events files')
    a = ap.parse_args()
    grp, meas = read_samples(a.samples)
    pids = {p for p, x in grp.items() if x == a.group}
    lo = a.min_us * 1000
    keyed = []
    for path in a.files:
        res = analyse(path, pids, grp)
        with open(path, errors='replace') as f:
            head = [f.readline() for _ in range(5)]
        if not any(line.startswith('[') for line in head):
            for r in res:
                r['lat'] = meas.get((r['pid'], r['t0']), -1)
            res = [r for r in res if r['lat'] >= 0]
        keyed.append({(r['pid'], r['nth']): r for r in res})
        long_ = [r for r in res if r['lat'] >= lo]
        print('%s: %d samples, %d >= %g us' % (path, len(res), len(long_), a.min_us))
        bins = defaultdict(int)
        for r in long_:
            bins[(r['cpu'], int(r['bin'] / (a.bin_ms * 1e6)))] += 1
        for cpu in sorted({c for c, _ in bins}):
            row = ' '.join('%3d' % bins[(cpu, b)] for b in range(max(b for _, b in bins) + 1))
            print('  CPU %d per %g ms: %s' % (cpu, a.bin_ms, row))
        for cpu in sorted({r['cpu'] for r in long_}):
            v = [r for r in long_ if r['cpu'] == cpu]
            tot = sum(sum(r['occ'].values()) for r in v) or 1
            gs = sorted({k for r in v for k in r['occ']})
            share = ', '.join('%s %.0f%%' % (k, 100 * sum(r['occ'][k] for r in v) / tot)
                              for k in gs)
            rqg = sorted({k for r in v for k in r['rq']})
            rq = ', '.join('%s %.1f' % (k, med([r['rq'].get(k, 0) for r in v])) for k in rqg)
            cur = defaultdict(int)
            for r in v:
                cur[r.get('curr', '?')] += 1
            print('  CPU %d: %d waits, median %.0f us, moved %d; CPU time in the waits: %s;'
                  % (cpu, len(v), med([r['lat'] for r in v]) / 1e3,
                     sum(r['moved'] for r in v), share))
            print('         runnable at the wakeup (median): %s; current at the wakeup: %s;'
                  ' own-group switch-ins ahead (median) %.0f, switches %.0f'
                  % (rq, dict(cur), med([r['ahead'] for r in v]), med([r['nsw'] for r in v])))
        held = [r for r in res if r['first'] >= lo / 2]
        runs = {(r['cpu'], r.get('curr_pid'), (r['t0'] - r.get('curr_ran', 0)) // 50000)
                for r in held}
        print('  behind a current that ran on >= %g us after the wakeup: %d wakeups (%d of the'
              ' long waits), %d distinct runs of it'
              % (a.min_us / 2, len(held), sum(r['lat'] >= lo for r in held), len(runs)))
    if a.same and len(keyed) > 1:
        tr = keyed[0]
        long_ = [k for k, r in tr.items() if r['lat'] >= lo]
        print("the trace's %d waits >= %g us, by pid and ordinal, in each dump:"
              % (len(long_), a.min_us))
        for path, d in zip(a.files[1:], keyed[1:]):
            got = [d[k]['lat'] for k in long_ if k in d]
            print('  %s: %d found, median %.0f us, >= %g us: %d, < 100 us: %d'
                  % (path, len(got), med(got) / 1e3, a.min_us, sum(x >= lo for x in got),
                     sum(x < 100000 for x in got)))


if __name__ == '__main__':
    main()
