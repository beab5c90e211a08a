#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Remote wakeups onto a busy CPU, by the wakee's and the current task's groups, trace against
replay.

Usage:
  schedreplay report --samples T.samples T.dat
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay [--seed N] --dump-events T.dump --dump-wake-records T.dat
  remote_wakes.py --samples T.samples [--ipi-us 6] T.rep [T.dump ...]

A remote wakeup onto a busy CPU is a sample of wakeup_paths.py's classify() (docs/report.md's
latency definition) whose sched_waking is on another CPU than its target and whose target ran a
task at the waking (forks left out).  The groups are the last component of the samples'
cgroups (--samples: report's; a pid without a sample is 'other').  For each input:

- by wakee group x current group (x stand-in, the early mark of wakeup_paths.py, in a dump):
  preempt (the current switched out runnable for the wakee), behind (it ran on and blocked
  first), queued (other switches first), and the preempt share;
- the wakee group's tasks runnable on the target CPU at the waking (0, 1, 2, 3+: on the capture
  kernels a group with none there has its group entity off the queue, so the wakeup is decided
  between group entities, not inside the group), by current group;
- in a trace only (a dump writes sched_waking and sched_wakeup at one time): sched_waking ->
  sched_wakeup by outcome, 1 us bins.  On the capture VM a remote wakeup that preempts spends
  the resched IPI between the two (wakeup_preempt() -> resched_curr() -> the IPI, a VM exit,
  before ttwu_do_wakeup()'s tracepoint): the share at or over --ipi-us (default 6) is the
  kernel's own decision to preempt, whatever the current did next; and the remote enqueue's
  clock: sched_waking -> the target current's sched_stat_runtime written on the waker's CPU
  (ttwu_queue() -> update_rq_clock() of the target -> enqueue_entity()'s update_curr());
- with a trace and dumps: each dump's samples paired with the trace's by wake record (as
  wakeup_paths.py --pairs): trace (outcome, current group) -> dump (outcome, current group,
  stand-in), the largest cells.

Analysis helper, not a test (docs/validation-log.md, "Remote wakeups onto a busy CPU").  ctest
replay_remote_wakes checks its accounting (remote_wakes_check.py).
"""
import argparse
import re
from collections import Counter, defaultdict

from sched_text import PID, SWITCH, TCPU, events, first
from wakeup_paths import classify, wake_records

OUTS = ('preempt', 'behind', 'queued')


def groups_of(samples):
    grp = {}
    with open(samples) as f:
        for line in f:
            if line.startswith('#'):
                continue
            c = line.rstrip('\n').split('\t')
            if len(c) > 8:
                grp[int(c[1])] = c[8].rsplit('/', 1)[-1] or '/'
    return grp


def outcome(r):
    k = r['k']
    return 'preempt' if k.startswith('preempt') else 'behind' if k.startswith('behind') else 'queued'


def remote_busy(res):
    return [r for r in res if not r['k'].startswith('new:') and r['k'].endswith('_remote')
            and r['cur'] != 0]


def extras(path, g):
    """(pid, sched_waking ts) -> dict(wk: sched_wakeup - sched_waking, nrun: the wakee group's
    tasks runnable on the target at the waking); and the remote enqueue clock samples (ns)."""
    runnable, curr, pend, out, clk, last = {}, defaultdict(int), {}, {}, [], {}
    for ts, _, cpu, shown, ev, fl in events(path):
        if shown is not None and shown != curr[cpu]:
            curr[cpu] = shown
            runnable[shown] = cpu
        if ev == 'sched_waking':
            p, t = first(PID.search(fl)), first(TCPU.search(fl))
            if p not in pend and p not in curr.values():
                n = sum(1 for q, c in runnable.items() if c == t and g(q) == g(p))
                pend[p] = ts
                out[(p, ts)] = dict(wk=None, nrun=n)
            if t != cpu and curr[t]:
                last[cpu] = (ts, curr[t])
        elif ev == 'sched_stat_runtime' and cpu in last:
            t0, c = last[cpu]
            p = int(re.search(r'pid=(\d+)', fl).group(1))
            if p == c and ts - t0 < 20000:
                clk.append(ts - t0)
                del last[cpu]
        elif ev in ('sched_wakeup', 'sched_wakeup_new'):
            p, t = first(PID.search(fl)), first(TCPU.search(fl))
            runnable[p] = t
            last.pop(cpu, None)
            if p in pend:
                out[(p, pend.pop(p))]['wk'] = ts
        elif ev == 'sched_migrate_task':
            m = re.search(r'pid=(\d+).*dest_cpu=(\d+)', fl)
            if m and int(m.group(1)) in runnable:
                runnable[int(m.group(1))] = int(m.group(2))
        elif ev == 'sched_switch':
            m = SWITCH.search(fl)
            prev, st, nxt = int(m.group(2)), m.group(3), int(m.group(5))
            if st[0] == 'R':
                runnable[prev] = cpu
            else:
                runnable.pop(prev, None)
            runnable[nxt] = cpu
            curr[cpu] = nxt
            pend.pop(nxt, None)
    for (p, t0), d in out.items():
        d['wk'] = None if d['wk'] is None else d['wk'] - t0
    return out, clk


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))] if v else 0


def table(path, rb, ex, g, is_dump, ipi_ns, clk):
    print('%s: %d remote wakeups onto a busy CPU' % (path, len(rb)))
    c = Counter()
    for r in rb:
        c[(g(r['pid']), g(r['cur']), 'standin' if is_dump and r['early'] else '-', outcome(r))] += 1
    print('  %-8s %-8s %-8s %8s %8s %8s %8s' % ('wakee', 'current', 'early', *OUTS, 'preempt%'))
    for k in sorted({k[:3] for k in c}):
        n = [c[k + (o,)] for o in OUTS]
        print('  %-8s %-8s %-8s %8d %8d %8d %7.0f%%' % (*k, *n, 100.0 * n[0] / max(sum(n), 1)))
    print('  total %d' % sum(c.values()))
    h = Counter()
    for r in rb:
        d = ex.get((r['pid'], r['t0']))
        if d is not None:
            h[(g(r['cur']), min(d['nrun'], 3))] += 1
    print('  the wakee group\'s tasks runnable on the target at the waking, by current group:')
    print('  %-8s %6s %6s %6s %6s' % ('current', '0', '1', '2', '3+'))
    for cg in sorted({k[0] for k in h}):
        print('  %-8s %6d %6d %6d %6d' % (cg, *(h[(cg, i)] for i in range(4))))
    if is_dump:
        return
    print('  sched_waking -> sched_wakeup (us bins 0..19, 20+) by outcome; share >= %g us:'
          % (ipi_ns / 1e3))
    hist = defaultdict(Counter)
    for r in rb:
        d = ex.get((r['pid'], r['t0']))
        if d is not None and d['wk'] is not None:
            hist[outcome(r)][min(int(d['wk'] // 1000), 20)] += 1
    for o in OUTS:
        n = sum(hist[o].values())
        ipi = sum(v for b, v in hist[o].items() if b * 1000 >= ipi_ns)
        print('  %-8s %s  %5.1f%% of %d' % (o, ' '.join('%3d' % hist[o][i] for i in range(21)),
                                           100.0 * ipi / max(n, 1), n))
    print('  remote enqueue clock: sched_waking -> the target current\'s sched_stat_runtime on the '
          'waker\'s CPU: n %d, p10 %d, p50 %d, p90 %d ns' % (len(clk), pct(clk, .1), pct(clk, .5),
                                                          pct(clk, .9)))


def pairs(trb, tall, path, rb, g, top):
    rec, _, _ = wake_records(path)
    tkey = {(r['pid'], r['t0']): r for r in tall}
    tremote = {(r['pid'], r['t0']) for r in trb}
    c, n, nr = Counter(), 0, 0
    for r in rb:
        t = rec.get((r['pid'], r['t0']))
        tr = tkey.get((r['pid'], t)) if t is not None else None
        if tr is None:
            continue
        n += 1
        if (tr['pid'], tr['t0']) not in tremote:
            continue
        nr += 1
        c[(outcome(tr), g(tr['cur']), outcome(r), g(r['cur']),
           'standin' if r['early'] else '-')] += 1
    print('  paired with the trace by wake record: %d of %d; both remote onto a busy CPU: %d'
          % (n, len(rb), nr))
    print('    %-8s %-8s -> %-8s %-8s %-8s %6s' % ('trace', 'current', 'dump', 'current', 'early', 'n'))
    for k, v in c.most_common(top):
        print('    %-8s %-8s -> %-8s %-8s %-8s %6d' % (*k, v))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--samples', required=True, help="report --samples of the trace")
    ap.add_argument('--ipi-us', type=float, default=6.0)
    ap.add_argument('--top', type=int, default=16)
    ap.add_argument('trace')
    ap.add_argument('dumps', nargs='*')
    a = ap.parse_args()
    grp = groups_of(a.samples)

    def g(p):
        return grp.get(p, 'other')

    tall = classify(a.trace, None, 'sched_waking')
    trb = remote_busy(tall)
    ex, clk = extras(a.trace, g)
    table(a.trace, trb, ex, g, False, a.ipi_us * 1e3, clk)
    for d in a.dumps:
        res = classify(d, None, 'sched_waking')
        rb = remote_busy(res)
        dex, _ = extras(d, g)
        table(d, rb, dex, g, True, 0, [])
        pairs(trb, tall, d, rb, g, a.top)


if __name__ == '__main__':
    main()
