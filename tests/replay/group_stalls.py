#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Group stalls per CPU: a task group with runnable tasks on a CPU that gets none of it.

Usage:
  long_waits.py's inputs; group_stalls.py --samples T.samples [--min-ms 5] T.rep [T.dump ...]

From the switch/wakeup/migrate stream alone (the per-cfs_rq nr_running it gives): every interval
in which a group (cgroup basename, from the samples file) has at least one runnable task on a
CPU and none of its tasks runs there while another group's does.  For each of at least --min-ms:
the CPU, start, length, the starved and the holding group's mean runnable count there, and the
holder's churn there (its tasks' wakeups onto, and blocks and migrations off, that CPU per ms:
each is an enqueue or dequeue of the holder's cfs_rq, so an update_cfs_group() of its entity).
Analysis helper, not a test (docs/validation-log.md, "hackbench-shares' long waits: the
starved group's entity").
"""
import argparse
from collections import defaultdict

from sched_text import PID, SWITCH, TCPU, events, first
from long_waits import read_groups
from tail_waits import MIG


def stalls(path, grp, groups):
    evs = events(path)
    curr = defaultdict(int)
    where = {}
    nrun = defaultdict(lambda: defaultdict(int))
    st = {}          # (cpu, group) -> dict(t0, rqi, hold{}, churn, last)
    out = []

    def g(p):
        return grp.get(p, 'other') if p else 'idle'

    def step(cpu, ts):
        for gname in groups:
            k = (cpu, gname)
            running = g(curr[cpu])
            starving = nrun[cpu][gname] > 0 and running != gname
            s = st.get(k)
            if s:
                d = ts - s['last']
                s['last'] = ts
                for h in groups:
                    s['rqi'][h] += nrun[cpu][h] * d
                s['hold'][running] += d
                if not starving:
                    s['t1'] = ts
                    out.append(s)
                    del st[k]
            elif starving:
                st[k] = dict(cpu=cpu, grp=gname, t0=ts, last=ts, rqi=defaultdict(int),
                             hold=defaultdict(int), churn=defaultdict(int))

    def churn(cpu, p):
        for (c, gname), s in st.items():
            if c == cpu and g(p) != gname:
                s['churn'][g(p)] += 1

    for ts, _, cpu, shown, ev, fl in evs:
        if ev in ('sched_wakeup', 'sched_wakeup_new'):
            p = first(PID.search(fl))
            t = first(TCPU.search(fl))
            if p in grp and where.get(p) != t:
                if where.get(p) is not None:
                    step(where[p], ts)
                    nrun[where[p]][g(p)] -= 1
                step(t, ts)
                where[p] = t
                nrun[t][g(p)] += 1
                churn(t, p)
                step(t, ts)
        elif ev == 'sched_migrate_task':
            m = MIG.search(fl)
            if m:
                p, dst = int(m.group(1)), int(m.group(3))
                if p in where and where[p] != dst:
                    o = where[p]
                    step(o, ts)
                    step(dst, ts)
                    nrun[o][g(p)] -= 1
                    churn(o, p)
                    where[p] = dst
                    nrun[dst][g(p)] += 1
                    churn(dst, p)
                    step(o, ts)
                    step(dst, ts)
        elif ev == 'sched_switch':
            m = SWITCH.search(fl)
            prev, state, nxt = int(m.group(2)), m.group(3), int(m.group(5))
            step(cpu, ts)
            if prev in grp and state[0] != 'R' and where.get(prev) is not None:
                nrun[where[prev]][g(prev)] -= 1
                churn(where[prev], prev)
                del where[prev]
            if nxt in grp and where.get(nxt) != cpu:
                if where.get(nxt) is not None:
                    nrun[where[nxt]][g(nxt)] -= 1
                where[nxt] = cpu
                nrun[cpu][g(nxt)] += 1
            curr[cpu] = nxt
            step(cpu, ts)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--samples', required=True)
    ap.add_argument('--min-ms', type=float, default=5.0)
    ap.add_argument('--groups', default='pipe,socket')
    ap.add_argument('--list', action='store_true')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    groups = a.groups.split(',')
    grp = read_groups(a.samples, groups)
    for path in a.files:
        out = [s for s in stalls(path, grp, groups) if s['t1'] - s['t0'] >= a.min_ms * 1e6]
        print('%s: stalls >= %g ms' % (path, a.min_ms))
        for cpu in (0, 1):
            for gname in groups:
                v = [s for s in out if s['cpu'] == cpu and s['grp'] == gname]
                if not v:
                    continue
                tot = sum(s['t1'] - s['t0'] for s in v)
                print('  CPU %d %-6s starved: %2d stalls, %6.1f ms, longest %5.1f; runnable'
                      ' starved %.1f / other %.1f; other group churn %.1f per ms'
                      % (cpu, gname, len(v), tot / 1e6, max(s['t1'] - s['t0'] for s in v) / 1e6,
                         sum(s['rqi'][gname] for s in v) / tot,
                         sum(sum(s['rqi'][h] for h in groups if h != gname) for s in v) / tot,
                         sum(sum(s['churn'].values()) for s in v) / (tot / 1e6)))
                if a.list:
                    for s in v:
                        d = s['t1'] - s['t0']
                        print('     %.6f %5.1f ms  %s %.1f  others %.1f  churn %.1f/ms' % (
                            s['t0'] / 1e9, d / 1e6, gname, s['rqi'][gname] / d,
                            sum(s['rqi'][h] for h in groups if h != gname) / d,
                            sum(s['churn'].values()) / (d / 1e6)))


if __name__ == '__main__':
    main()
