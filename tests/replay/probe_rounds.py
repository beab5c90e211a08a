#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""schedreplay-probe's rounds, trace against replay: the workers' long waits by what their CPU ran.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --seed N [--join-reply] --dump-events T.N.ev T.dat
  probe_rounds.py [--min-us 2000] [--long-us 3000] [--tick-us 4000] [--phase-us P] T.rep [T.N.ev ...]

A round of the probe: `probe-msg` wakes its two `probe-worker`s, each runs its work and the last
one to finish wakes msg (`atomic_fetch_sub(&pending) == 1`; docs/validation-log.md, helpers lag45
and jr45).  Read from a `trace-cmd report -t` text or a `--dump-events` dump (in file order), per
input:

- `waits`: the workers' wakeup waits of at least --min-us (from `sched_waking` to the switch-in)
  by class, the tasks the CPU it was switched in on ran meanwhile, in order, runs of the same kind
  merged: `W` the other worker, `msg`, `H` any other task (a hog).  `msg-W-H` is the second runner
  waiting behind a hog after the first runner's sleep; `msg-W-msg-H-W` a round whose first runner
  woke msg (the replier ran first: the default replay's pinned reply); `msg-H` the worker waited
  with no other worker before it.  Each class is printed `n>=min/n>=long`.
- `tick`: the `msg-W-H` waits of any length split by the tick that ended the hog's run: `first`
  the first tick after msg's wake (wait < 4000 - phase + 200 us), `past` a later one (the hog was
  not preempted at the first); their counts at or over --min-us and --long-us.  --phase-us is the
  tick grid's phase (`replay` prints it on its HZ line; default 0).
- `pick`: at each worker's sleep while the other worker is woken and not yet run, what was
  switched in next (`W`, `msg`, or `h<prio>`).
- `msg-out`: msg's switch-outs by state (S, R) and how many workers it woke in that run.
- `reply`: at each worker's wake of msg, the other worker's state: asleep (`S`), `woken` and not
  yet run, `run`ning, preempted (`R`).  The program's rule makes it `S` (the last one replies).

With several dumps a line of their mean follows.  `--check` exits 1 unless every input has
rounds (some worker wake of msg) and the counts add up (each class's long count at most its
count, the tick split adding up to the class).  Analysis helper; ctest replay_join_reply runs it
on a default and a --join-reply dump.
"""
import argparse
import re
import sys
from collections import Counter

from sched_text import SWITCH_PRIO, lines

WAKING_TASK = re.compile(r'(?:comm=(\S+) pid=(\d+)|(\S.*?):(\d+) \[)')


def walk(path, min_ns, long_ns, tick_ns, phase_ns):
    """The counters of one input (see the docstring)."""
    c = {k: Counter() for k in ('waits', 'tick', 'pick', 'msg-out', 'reply')}
    workers, msgs = set(), set()
    cur = {}           # cpu -> (pid, since)
    pend = {}          # worker pid -> (waking ts, [(cpu, pid, ns)])
    state = {}         # worker pid -> S, woken, run, R
    woke = Counter()   # cpu -> workers woken by msg in its current run
    for ts, _, cpu, _, ev, f in lines(path):
        if ev == 'sched_switch':
            m = SWITCH_PRIO.search(f)
            if not m:
                continue
            pc, pp, _, pst, nc, npid, nprio = m.groups()
            pp, npid = int(pp), int(npid)
            for comm, pid in ((pc, pp), (nc, npid)):
                if comm == 'probe-worker':
                    workers.add(pid)
                elif comm == 'probe-msg':
                    msgs.add(pid)
            if cpu in cur:
                p, since = cur[cpu]
                for q, (t0, runs) in pend.items():
                    if q != p and ts > max(since, t0):
                        runs.append((cpu, p, ts - max(since, t0)))
            if pc == 'probe-worker':
                state[pp] = 'S' if pst.startswith(('S', 'D')) else 'R'
                if state[pp] == 'S' and any(state.get(w) == 'woken' for w in workers - {pp}):
                    k = 'W' if nc == 'probe-worker' else 'msg' if nc == 'probe-msg' else 'h' + nprio
                    c['pick'][k] += 1
            if pc == 'probe-msg':
                c['msg-out']['%s%d' % ('R' if pst.startswith('R') else pst[:1], woke[cpu])] += 1
            woke[cpu] = 0
            cur[cpu] = (npid, ts)
            if nc == 'probe-worker':
                state[npid] = 'run'
                if npid in pend:
                    t0, runs = pend.pop(npid)
                    wait_done(c, ts - t0, t0, [(p, d) for cc, p, d in runs if cc == cpu],
                              workers, msgs, min_ns, long_ns, tick_ns, phase_ns)
            continue
        if ev != 'sched_waking':
            continue
        m = WAKING_TASK.search(f)
        if not m:
            continue
        comm, pid = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        pid = int(pid)
        waker = cur.get(cpu, (None, 0))[0]
        if comm == 'probe-worker':
            workers.add(pid)
            state[pid] = 'woken'
            pend.setdefault(pid, (ts, []))
            if waker in msgs:
                woke[cpu] += 1
        elif comm == 'probe-msg' and waker in workers:
            for w in workers - {waker}:
                c['reply'][state.get(w, '?')] += 1
    return c


def kinds(runs, workers, msgs):
    out = []
    for p, d in runs:
        k = 'W' if p in workers else 'msg' if p in msgs else 'H'
        if d > 0 and (not out or out[-1] != k):
            out.append(k)
    return '-'.join(out)


def wait_done(c, lat, t0, runs, workers, msgs, min_ns, long_ns, tick_ns, phase_ns):
    k = kinds(runs, workers, msgs)
    if lat >= min_ns:
        c['waits'][k] += 1
        c['waits'][k + '>='] += lat >= long_ns
    if k == 'msg-W-H' and tick_ns:
        first = tick_ns - (t0 - phase_ns) % tick_ns
        t = 'past' if lat > first + 200000 else 'first'
        c['tick'][t] += 1
        c['tick'][t + '>=min'] += lat >= min_ns
        c['tick'][t + '>=long'] += lat >= long_ns


def show(c, scale=1.0):
    def fmt(v):
        return ('%.1f' % (v / scale)) if scale != 1.0 else str(v)
    w = c['waits']
    cls = sorted((k for k in w if not k.endswith('>=')), key=lambda k: -w[k])
    out = ['waits ' + ' '.join('%s %s/%s' % (k or '-', fmt(w[k]), fmt(w[k + '>='])) for k in cls)]
    t = c['tick']
    out.append('tick first %s (%s/%s) past %s (%s/%s)' % tuple(
        fmt(t[k]) for k in ('first', 'first>=min', 'first>=long', 'past', 'past>=min',
                            'past>=long')))
    for sec in ('pick', 'msg-out', 'reply'):
        out.append(sec + ' ' + ' '.join('%s %s' % (k, fmt(v)) for k, v in sorted(c[sec].items())))
    return out


def check(path, c):
    bad = []
    if not sum(c['reply'].values()):
        bad.append('no worker wake of msg')
    w, t = c['waits'], c['tick']
    bad += ['class %s: %d long of %d' % (k, w[k + '>='], w[k])
            for k in w if not k.endswith('>=') and w[k + '>='] > w[k]]
    for k in ('first', 'past'):
        if not t[k + '>=long'] <= t[k + '>=min'] <= t[k]:
            bad.append('tick %s: %d / %d / %d' % (k, t[k], t[k + '>=min'], t[k + '>=long']))
    return ['%s: %s' % (path, b) for b in bad]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--min-us', type=float, default=2000)
    ap.add_argument('--long-us', type=float, default=3000)
    ap.add_argument('--tick-us', type=float, default=4000)
    ap.add_argument('--phase-us', type=float, default=0)
    ap.add_argument('--check', action='store_true')
    ap.add_argument('inputs', nargs='+')
    a = ap.parse_args()
    errs, dumps = [], []
    for path in a.inputs:
        c = walk(path, a.min_us * 1e3, a.long_us * 1e3, int(a.tick_us * 1e3),
                 int(a.phase_us * 1e3))
        print('== ' + path)
        print('\n'.join('  ' + s for s in show(c)))
        errs += check(path, c)
        with open(path, errors='replace') as f:
            if f.readline().startswith('['):
                dumps.append(c)
    if len(dumps) > 1:
        tot = {k: sum((d[k] for d in dumps), Counter()) for k in dumps[0]}
        print('== mean of %d dumps' % len(dumps))
        print('\n'.join('  ' + s for s in show(tot, float(len(dumps)))))
    if a.check and errs:
        print('\n'.join(errs), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
