#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Long waits per task group, trace against replay: is the wakee's group starved as a group?

Usage:
  schedreplay report --samples T.samples T.dat
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay [--seed N] --dump-events T.dump T.dat
  long_waits.py --samples T.samples [--min-us 1000] [--list N] T.rep [T.dump ...]

Every wakeup of a task of a named cgroup (the samples file's, by basename) is followed from its
wakeup to its switch-in (across migrations).  Over the wait, on the CPU it waits on: the CPU time
each group got, and the time-average of each group's runnable tasks there (queued or running;
the per-cfs_rq nr_running the switch/wakeup stream gives, the wakee itself included).  A wait is
"group-starved" when the wakee's group got under 10 % of the CPU during it, "own" when it got 50 %
or more.  Printed per input and group: waits >= --min-us by class (count, median and max wait,
mean runnable per group), the waits over 10 ms, and with --list the N longest waits.
Analysis helper, not a test (docs/validation-log.md, "hackbench-shares' long waits: the
starved group's entity").
"""
import argparse
import statistics
from collections import defaultdict

from sched_text import PID, SWITCH, TCPU, events, first
from tail_waits import MIG


def analyse(path, grp):
    evs = events(path)
    curr = defaultdict(int)
    since = defaultdict(int)
    where = {}
    nrun = defaultdict(lambda: defaultdict(int))   # cpu -> group -> runnable count
    pend = {}
    open_w = defaultdict(list)
    res = []

    def g(p):
        return grp.get(p, 'other') if p else 'idle'

    def account(cpu, ts):
        d = ts - since[cpu]
        if d > 0:
            p = curr[cpu]
            for s in open_w[cpu]:
                s['occ'][g(p)] += d
                for k, n in nrun[cpu].items():
                    s['rqi'][k] += n * d
        since[cpu] = ts

    def set_runnable(p, cpu):
        old = where.get(p)
        if old == cpu:
            return
        if old is not None:
            account(old, cur_ts[0])
            nrun[old][g(p)] -= 1
        account(cpu, cur_ts[0])
        where[p] = cpu
        nrun[cpu][g(p)] += 1

    def clear_runnable(p):
        old = where.pop(p, None)
        if old is not None:
            account(old, cur_ts[0])
            nrun[old][g(p)] -= 1

    def move_wait(d, dst):
        for c in open_w:
            if d in open_w[c]:
                open_w[c].remove(d)
        if dst is not None:
            open_w[dst].append(d)

    cur_ts = [0]
    for ts, _, cpu, shown, ev, fl in evs:
        cur_ts[0] = ts
        if ev in ('sched_waking', 'sched_wakeup_new'):
            p = first(PID.search(fl))
            if p in grp and p not in pend and p not in curr.values():
                pend[p] = dict(pid=p, grp=g(p), t0=ts, cpu=None, occ=defaultdict(int),
                               rqi=defaultdict(int), moved=0, cpu0=None)
            if ev == 'sched_wakeup_new':
                ev = 'sched_wakeup'
        if ev == 'sched_wakeup':
            p = first(PID.search(fl))
            t = first(TCPU.search(fl))
            set_runnable(p, t)
            d = pend.get(p)
            if d is not None and d['cpu'] is None:
                d['cpu'] = d['cpu0'] = t
                move_wait(d, t)
        elif ev == 'sched_migrate_task':
            m = MIG.search(fl)
            if m:
                p, dst = int(m.group(1)), int(m.group(3))
                if p in where:
                    set_runnable(p, dst)
                d = pend.get(p)
                if d is not None and d['cpu'] is not None:
                    d['moved'] += 1
                    d['cpu'] = dst
                    move_wait(d, dst)
        elif ev == 'sched_switch':
            m = SWITCH.search(fl)
            prev, state, nxt = int(m.group(2)), m.group(3), int(m.group(5))
            account(cpu, ts)
            if prev and state[0] != 'R':
                clear_runnable(prev)
            if nxt:
                set_runnable(nxt, cpu)
            curr[cpu] = nxt
            d = pend.pop(nxt, None)
            if d is not None and d['cpu'] is not None:
                move_wait(d, None)
                d['t1'] = ts
                d['lat'] = ts - d['t0']
                d['where'] = cpu
                res.append(d)
    return res


def read_groups(samples, groups):
    """pid -> cgroup basename of a `report --samples` file's tasks in @groups."""
    grp = {}
    with open(samples) as f:
        for line in f:
            c = line.rstrip('\n').split('\t')
            if c[0] in ('wakeup', 'runq'):
                grp[int(c[1])] = c[8].rsplit('/', 1)[-1] or '/'
    return {p: x for p, x in grp.items() if x in groups}


def mean(v):
    return sum(v) / len(v) if v else 0.0


def summary(label, waits, groups):
    if not waits:
        print('    %-14s    0' % label)
        return
    lat = [w['lat'] / 1e3 for w in waits]
    own = mean([w['occ'][w['grp']] / max(1, w['lat']) for w in waits])
    rq = ', '.join('%s %.1f' % (k, mean([w['rqi'][k] / max(1, sum(w['occ'].values()))
                                         for w in waits])) for k in groups)
    print('    %-14s %4d  median %6.0f us  max %6.0f  own-group CPU %3.0f%%  runnable: %s'
          % (label, len(waits), statistics.median(lat), max(lat), 100 * own, rq))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--samples', required=True)
    ap.add_argument('--min-us', type=float, default=1000.0)
    ap.add_argument('--list', type=int, default=0)
    ap.add_argument('--groups', default='pipe,socket')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    groups = a.groups.split(',')
    grp = read_groups(a.samples, groups)
    lo = a.min_us * 1000
    for path in a.files:
        res = analyse(path, grp)
        print('%s: %d wakeups' % (path, len(res)))
        for gname in groups:
            ws = [w for w in res if w['grp'] == gname and w['lat'] >= lo]
            print('  %s: waits >= %g us' % (gname, a.min_us))
            for cpu in sorted({w['where'] for w in ws}):
                c = [w for w in ws if w['where'] == cpu]
                print('   CPU %d' % cpu)
                frac = [(w, w['occ'][gname] / max(1, sum(w['occ'].values()))) for w in c]
                summary('group-starved', [w for w, x in frac if x < 0.1], groups)
                summary('mixed', [w for w, x in frac if 0.1 <= x < 0.5], groups)
                summary('own group', [w for w, x in frac if x >= 0.5], groups)
                summary('> 10 ms', [w for w in c if w['lat'] >= 10e6], groups)
                summary('> 10 ms starv', [w for w, x in frac if x < 0.1 and w['lat'] >= 10e6],
                        groups)
        if a.list:
            for w in sorted(res, key=lambda w: -w['lat'])[:a.list]:
                tot = max(1, sum(w['occ'].values()))
                occ = ' '.join('%s %.0f%%' % (k, 100 * v / tot) for k, v in sorted(w['occ'].items()))
                rq = ' '.join('%s %.1f' % (k, w['rqi'][k] / tot) for k in groups)
                print('   %s %d woken %.6f onto CPU %d, in on CPU %d, wait %.1f ms; CPU: %s;'
                      ' runnable: %s' % (w['grp'], w['pid'], w['t0'] / 1e9, w['cpu0'],
                                         w['where'], w['lat'] / 1e6, occ, rq))


if __name__ == '__main__':
    main()
