#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One task group's wakeup-latency samples by path, trace against replay.

Usage:
  schedreplay report --samples T.samples T.dat
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay [--seed N] --dump-events T.dump T.dat
  wakeup_paths.py --samples T.samples [--group pipe|all [--comm C]] [--start waking|wakeup]
                  [--band 35 75] [--buckets LIST] [--ahead] [--cpu-bins MS] T.rep [T.dump ...]

The group's tasks are the pids of the samples whose cgroup ends in /GROUP.  Each sample (the
latency definition of docs/report.md: the first sched_waking, or sched_wakeup_new, of a task not
on a CPU, to its switch-in) is classified by what its target CPU did between the wakeup and the
switch-in:
  idle                  the target CPU was idle at the wakeup and switched to the wakee
  idle+queued           idle at the wakeup, other tasks ran first
  preempt_L             the task current at the wakeup was switched out runnable for the wakee
  behind_current_L      the current ran on, blocked, and the wakee was next
  queued_behind_1|2+_L  one, or two or more, switches on the target before the wakee's
  moved                 it was switched in on another CPU
  new:...               a forked child's first wakeup
L is local (sched_waking on the target CPU) or remote.  A sample is also marked `early` when its
sched_waking comes within 0.5 us after the wakee's own switch-out asleep: in a dump that is the
replay's early wake (docs/replay.md, "Early wakes": the task blocks and is woken at once).
With --buckets LIST (e.g. 5,10,20,50) every input also gets a table of the samples by
coarse class - preempt/queued (behind the current, or behind other switches) x local/remote,
idle, early (the stand-in in a dump), new, moved - and by latency bucket (us): the split of a
percentile's miss (docs/validation-log.md, "hackbench-shares-run2's p50, path by path").
With --ahead, for the samples in the band by that class: what the target CPU ran between the
wakeup and the switch-in (mean us per sample) - runs of group tasks begun by an early-marked
sample's switch-in (a dump's stand-ins queued behind each other), other runs of the group's
tasks, other groups' tasks, idle - and how many group tasks were switched in first.  With
--cpu-bins MS, each CPU's time by bins of MS ms from the group's first switch-in: the share run
by the group's tasks, by others, idle (a stall of the group on one CPU).  Both are checked on
dumps by ctest replay_wakeup_paths_ahead (wakeup_paths_check.py: the classes add up to the
wait, the shares to 100).
The trace file's own samples are matched to report's (its latency, with the switches out of
idle the reader restores); in the trace an untraced switch is inferred where a CPU's buffer
shows another current task.  Both inputs are text in the `trace-cmd report` line shape.
Analysis helper, not a test (docs/validation-log.md, "After the sixteenth pass: the hackbench-chan
p95").
"""
import argparse
import math
import re
from collections import defaultdict

from sched_text import PID, SWITCH, TCPU, events, first

EARLY_NS = 500
OP = re.compile(r'(\w+) pid=(\d+)(?: trace=(\d+))?')


def classify(path, pids, start, cpu_hist=None):
    """start: 'sched_waking', or 'sched_wakeup' for a trace without sched_waking (the measured
    interval then starts at sched_wakeup, docs/report.md; local/remote is then the CPU of the
    sched_wakeup, the waker's unless the target CPU's wake list ran it)."""
    curr = defaultdict(int)
    hist = defaultdict(list)   # per CPU: (ts, pid switched in)
    pend = {}
    nsw = defaultdict(int)
    slept = defaultdict(int)
    res = []

    def switch(ts, cpu, prev, state, nxt):
        nsw[cpu] += 1
        hist[cpu].append((ts, nxt))
        if state[0] in 'SD':
            slept[prev] = ts
        d = pend.get(nxt)
        if d is not None and 'cpu' in d:
            del pend[nxt]
            n = nsw[cpu] - 1 - d['nsw'] if cpu == d['cpu'] else -1
            loc = 'local' if d['waker_cpu'] == d['cpu'] else 'remote'
            if n < 0:
                k = 'moved'
            elif d['cur'] == 0:
                k = 'idle' if n == 0 else 'idle+queued'
            elif n == 0 and prev == d['cur']:
                k = ('preempt_' if state[0] == 'R' else 'behind_current_') + loc
            else:
                k = 'queued_behind_%s_%s' % ('1' if n == 1 else '2+', loc)
            res.append(dict(pid=nxt, t0=d['t0'], lat=ts - d['t0'], early=d['early'],
                            k=('new:' if d['new'] else '') + k, cpu=cpu, t1=ts,
                            cur=d['cur'], waker_cpu=d['waker_cpu']))
        curr[cpu] = nxt

    for ts, _, cpu, shown, ev, fl in events(path):
        if shown is not None and shown != curr[cpu]:
            switch(ts, cpu, curr[cpu], 'R?', shown)   # untraced (restored) switch
        if ev in (start, 'sched_wakeup_new'):
            p = first(PID.search(fl))
            new = ev == 'sched_wakeup_new'
            if (pids is None or p in pids) and (new or (p not in pend and
                                                         p not in curr.values())):
                pend[p] = dict(t0=ts, waker_cpu=cpu, new=new,
                               early=0 <= ts - slept.get(p, -10**18) <= EARLY_NS)
                if new or ev == 'sched_wakeup':
                    t = first(TCPU.search(fl))
                    pend[p].update(cpu=t, cur=curr[t], nsw=nsw[t])
        if ev == 'sched_wakeup' and start != ev:
            p = first(PID.search(fl))
            if p in pend and 'cpu' not in pend[p]:
                t = first(TCPU.search(fl))
                pend[p].update(cpu=t, cur=curr[t], nsw=nsw[t])
        elif ev == 'sched_switch':
            m = SWITCH.search(fl)
            switch(ts, cpu, int(m.group(2)), m.group(3), int(m.group(5)))
    ahead(res, hist, pids)
    if cpu_hist is not None:
        cpu_hist.update(hist)
    return res


def wake_records(path):
    """A dump's wake records: (wakee, sched_waking time) -> the trace time of the record; and per
    task its hand-off WAITs (time, kind) and stand-in blocks (times)."""
    rec, pend, waits, standins = {}, {}, defaultdict(list), defaultdict(list)
    for ts, _, _, _, ev, fl in events(path):
        if ev == 'replay_op':
            m = OP.match(fl)
            if not m:
                continue
            k, p = m.group(1), int(m.group(2))
            if k == 'wake' and m.group(3):
                pend[p] = int(m.group(3))
            elif k == 'wait':
                waits[p].append((ts, fl.split('kind=')[-1].strip()))
            elif k == 'standin':
                standins[p].append(ts)
        elif ev == 'sched_waking':
            p = first(PID.search(fl))
            if p in pend:
                rec[(p, ts)] = pend.pop(p)
    return rec, waits, standins


def cpu_runs(path):
    """Per task its runs: (switch-in, switch-out, prev_state), by time."""
    runs, since = defaultdict(list), {}
    for ts, _, _, _, ev, fl in events(path):
        if ev == 'sched_switch':
            m = SWITCH.search(fl)
            p, n = int(m.group(2)), int(m.group(5))
            if p in since:
                runs[p].append((since.pop(p), ts, m.group(3)))
            since[n] = ts
    return runs


def cpu_to_sleep(runs, pid, t0):
    """@pid's CPU time from @t0 to its next switch-out not runnable, and that switch's time."""
    tot = 0
    for s, e, st in runs.get(pid, []):
        if e < t0:
            continue
        tot += e - max(s, t0)
        if st[0] != 'R':
            return tot, e
    return None, None


def pairs_table(tres, trace_path, path, res, x):
    """--pairs: @res (a dump's samples) against @tres (the trace's) by wake record."""
    rec, waits, standins = wake_records(path)
    tkey = {(r['pid'], r['t0']): r for r in tres}
    cells = defaultdict(lambda: [0, 0, 0])
    extra = defaultdict(lambda: [0, 0])
    seen = set()
    for r in res:
        lab = r['k'] + (' early' if r['early'] else '')
        t = rec.get((r['pid'], r['t0']))
        tr = tkey.get((r['pid'], t)) if t is not None else None
        r['pair'] = tr
        if tr is None:
            if t is None:
                w = [k for ts, k in waits.get(r['pid'], []) if ts <= r['t0']]
                why = 'no record, after WAIT ' + (w[-1] if w else '-')
            else:
                why = 'record, no trace sample'
            c = extra[(why, lab)]
            c[0] += 1
            c[1] += r['lat'] <= x
            continue
        seen.add((tr['pid'], tr['t0']))
        c = cells[(tr['k'], lab)]
        c[0] += 1
        c[1] += r['lat'] <= x < tr['lat']
        c[2] += tr['lat'] <= x < r['lat']
    nt = len(tres)
    npair = sum(c[0] for c in cells.values())
    print('  pairs by wake record: %d of the dump\'s %d samples, of the trace\'s %d; at or below %g us: '
          'trace %.1f %%, dump %.1f %%' % (npair, len(res), nt, x / 1e3,
                                          100.0 * sum(r['lat'] <= x for r in tres) / max(nt, 1),
                                          100.0 * sum(r['lat'] <= x for r in res) / max(len(res), 1)))
    print('    %-26s %-32s %6s %6s %6s %7s' % ('trace class', 'dump class', 'pairs', 's->f', 'f->s', 'net'))
    for (tk, dk), c in sorted(cells.items(), key=lambda kv: -abs(kv[1][1] - kv[1][2])):
        print('    %-26s %-32s %6d %6d %6d %+7.2f' % (tk, dk, c[0], c[1], c[2],
                                                    100.0 * (c[1] - c[2]) / max(nt, 1)))
    print('    pairs net %+.2f points' % (100.0 * sum(c[1] - c[2] for c in cells.values()) / max(nt, 1)))
    print('  dump samples without a trace sample: %d' % sum(c[0] for c in extra.values()))
    print('    %-40s %-32s %6s %6s' % ('why', 'dump class', 'n', '<=x'))
    for (why, dk), c in sorted(extra.items(), key=lambda kv: -kv[1][0]):
        print('    %-40s %-32s %6d %6d' % (why, dk, c[0], c[1]))
    miss = defaultdict(lambda: [0, 0])
    for r in tres:
        if (r['pid'], r['t0']) not in seen:
            miss[r['k']][0] += 1
            miss[r['k']][1] += r['lat'] <= x
    print('  trace samples without a dump sample: %d' % sum(c[0] for c in miss.values()))
    for k, c in sorted(miss.items(), key=lambda kv: -kv[1][0]):
        print('    %-40s %-32s %6d %6d' % ('', k, c[0], c[1]))
    # the waker's CPU work from the wakeup to its next sleep, same record and same current
    truns, druns = cpu_runs(trace_path), cpu_runs(path)
    cmp_, why = defaultdict(int), defaultdict(int)
    for r in res:
        tr = r['pair']
        if (tr is None or not r['cur'] or r['cur'] != tr['cur'] or r['cpu'] != r['waker_cpu']
                or tr['cpu'] != tr['waker_cpu']):
            continue
        dw, dend = cpu_to_sleep(druns, r['cur'], r['t0'])
        tw, _ = cpu_to_sleep(truns, tr['cur'], tr['t0'])
        if dw is None or tw is None:
            continue
        if abs(dw - tw) < 1000:
            cmp_['equal (within 1 us)'] += 1
        elif dw > tw:
            cmp_['longer in the dump'] += 1
        else:
            cmp_['shorter in the dump'] += 1
            w = [k for ts, k in waits.get(r['cur'], []) if r['t0'] <= ts <= dend]
            s = [ts for ts in standins.get(r['cur'], []) if r['t0'] <= ts <= dend]
            why['a hand-off WAIT, ' + w[-1] if w else ('its stand-in block' if s else 'a block')] += 1
    print('  local wakeups paired with the same current: the waker\'s CPU time to its next sleep, '
          'dump against trace: ' + ', '.join('%s %d' % kv for kv in sorted(cmp_.items())))
    if why:
        print('    shorter in the dump, the waker\'s sleep: ' +
              ', '.join('%s %d' % kv for kv in sorted(why.items(), key=lambda kv: -kv[1])))


def ahead(res, hist, pids):
    """Give each sample of @res what its target CPU ran between the wakeup and the switch-in
    (--ahead): r['ahead'] = {class: ns}, r['nahead'] = the group's tasks switched in first.
    Classes: 'early' (a run of a group task begun by the switch-in of an early-marked sample),
    'group' (another run of a group task: the current at the wakeup, or one switched in),
    'other' (a task of another group), 'idle'."""
    import bisect
    early_in = {(r['cpu'], r['t1']) for r in res if r['early']}
    keys = {c: [t for t, _ in h] for c, h in hist.items()}
    for r in res:
        c, t0, t1 = r['cpu'], r['t0'], r['t1']
        h, ks = hist[c], keys[c]
        i = bisect.bisect_right(ks, t0) - 1   # the switch that made the current at t0
        acc, nah = defaultdict(int), 0
        while i + 1 < len(h) and ks[i + 1] <= t1:
            a, pid = (t0 if i < 0 or ks[i] < t0 else ks[i]), (h[i][1] if i >= 0 else r['cur'])
            b = ks[i + 1]
            if b > a:
                if pid == 0:
                    k = 'idle'
                elif pids is None or pid in pids:
                    k = 'early' if i >= 0 and (c, ks[i]) in early_in and ks[i] >= t0 else 'group'
                else:
                    k = 'other'
                acc[k] += b - a
            i += 1
            if ks[i] < t1 and h[i][1] != 0 and (pids is None or h[i][1] in pids):
                nah += 1
        r['ahead'], r['nahead'] = acc, nah


def cpu_bins(hist, pids, bin_ns):
    """Print each CPU's time by bins of @bin_ns from the first switch-in of a group task (on
    any CPU): the share run by the group's tasks, by other tasks, idle (--cpu-bins).  The time
    before a CPU's first switch is not counted."""
    t0 = min((t for h in hist.values() for t, p in h if pids is None or p in pids), default=None)
    if t0 is None:
        return
    end = max(h[-1][0] for h in hist.values() if h)
    nb = int((end - t0) // bin_ns) + 1
    print('  each CPU by %g ms from the first switch-in of a group task: group / other / idle %%'
          % (bin_ns / 1e6))
    tab = {}
    for c in sorted(hist):
        acc = [[0, 0, 0] for _ in range(nb)]
        h = hist[c]
        for (a, p), (b, _) in zip(h, h[1:] + [(end, None)]):
            k = 2 if p == 0 else 0 if (pids is None or p in pids) else 1
            a = max(a, t0)
            while a < b:
                i = int((a - t0) // bin_ns)
                x = min(b, t0 + (i + 1) * bin_ns)
                acc[i][k] += x - a
                a = x
        tab[c] = acc
    print('  %5s %8s' % ('bin', 'from ms') + ''.join('%16s' % ('cpu%d' % c) for c in tab))
    for i in range(nb):
        cells = []
        for c in tab:
            t = sum(tab[c][i])
            cells.append('%16s' % ('%d/%d/%d' % tuple(round(100 * x / t) for x in tab[c][i])
                                   if t else '-'))
        print('  %5d %8.1f' % (i, i * bin_ns / 1e6) + ''.join(cells))


def ahead_table(res, lo, hi):
    """Print, for the samples in [lo, hi) ns, by coarse() class: what their target CPU ran
    during the wait, mean us per sample by ahead()'s classes, and the group's tasks switched in
    first (mean)."""
    by = defaultdict(list)
    for r in res:
        if lo <= r['lat'] < hi:
            by[coarse(r)].append(r)
    ks = ('early', 'group', 'other', 'idle')
    print('  the band\'s samples, what the target CPU ran during the wait (mean us per sample):')
    print('  %-12s %6s %8s' % ('class', 'n', 'wait') + ''.join('%8s' % k for k in ks)
          + '%9s' % 'g.ahead')
    for k in sorted(by, key=lambda k: -len(by[k])):
        v = by[k]
        n = len(v)
        print('  %-12s %6d %8.1f' % (k, n, sum(r['lat'] for r in v) / n / 1e3)
              + ''.join('%8.1f' % (sum(r['ahead'].get(c, 0) for r in v) / n / 1e3) for c in ks)
              + '%9.2f' % (sum(r['nahead'] for r in v) / n))


def coarse(r):
    """The class of sample @r for --buckets: early first (a dump's stand-in)."""
    k = r['k']
    if r['early']:
        return 'early'
    if k.startswith('new:') or k == 'moved':
        return k.split(':')[0]
    if k.startswith('idle'):
        return 'idle'
    loc = 'L' if k.endswith('local') else 'R'
    return ('preempt_' if k.startswith('preempt') else 'queued_') + loc


def bucket_table(res, edges):
    """Print the samples of @res by coarse() class and latency bucket (@edges in us)."""
    names = ['%g-%g' % (a, b) for a, b in zip([0] + edges, edges)] + ['>=%g' % edges[-1]]
    tab = defaultdict(lambda: [0] * len(names))
    for r in res:
        us = r['lat'] / 1e3
        tab[coarse(r)][sum(us >= e for e in edges)] += 1
    print('  %-12s' % 'class' + ''.join('%8s' % n for n in names) + '%8s' % 'all')
    order = ['preempt_L', 'queued_L', 'preempt_R', 'queued_R', 'idle', 'early', 'new', 'moved']
    for k in order:
        if k in tab:
            print('  %-12s' % k + ''.join('%8d' % x for x in tab[k]) + '%8d' % sum(tab[k]))
    tot = [sum(v[i] for v in tab.values()) for i in range(len(names))]
    print('  %-12s' % 'all' + ''.join('%8d' % x for x in tot) + '%8d' % sum(tot))


def pct(v, p):
    v = sorted(v)
    return v[max(0, math.ceil(p / 100 * len(v)) - 1)] if v else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--samples', required=True, help='report --samples file of the trace')
    ap.add_argument('--group', default='pipe',
                    help="cgroup basename (default pipe); 'all': every sample")
    ap.add_argument('--comm', help='only samples of comms starting with this (with --group all)')
    ap.add_argument('--start', choices=('waking', 'wakeup'), default='waking',
                    help='the event that starts the interval: waking (default), or wakeup for '
                         'a trace without sched_waking (as report does there)')
    ap.add_argument('--band', nargs=2, type=float, default=(35.0, 75.0), metavar=('LO', 'HI'),
                    help='latency band in us (default 35 75)')
    ap.add_argument('--buckets', metavar='LIST',
                    help='also a table by class and latency bucket, edges in us (e.g. 5,10,20,50)')
    ap.add_argument('--ahead', action='store_true',
                    help="also, for the band's samples by class, what the target CPU ran during "
                         "the wait: runs begun by an early-marked sample's switch-in, other runs "
                         "of the group's tasks, other groups' tasks, idle")
    ap.add_argument('--cpu-bins', type=float, metavar='MS',
                    help="also each CPU's time by bins of MS ms from the group's first "
                         "switch-in: run by the group's tasks, by others, idle")
    ap.add_argument('--pairs', type=float, metavar='X',
                    help='the first file the trace, the others dumps with --dump-wake-records: '
                         'their samples paired by wake record, by trace class -> dump class, '
                         'and on which side of X us each pair is')
    ap.add_argument('files', nargs='+', help='trace-cmd report -t text or --dump-events files')
    a = ap.parse_args()
    edges = sorted(float(x) for x in a.buckets.split(',')) if a.buckets else None
    lo, hi = a.band[0] * 1000, a.band[1] * 1000
    pids, meas, tres = set(), {}, None
    with open(a.samples) as f:
        for line in f:
            c = line.rstrip('\n').split('\t')
            if c[0] != 'wakeup' or line.startswith('#'):
                continue
            if (c[8].endswith('/' + a.group) if a.group != 'all' else
                    (a.comm is None or c[7].startswith(a.comm))):
                pids.add(int(c[1]))
                meas[(int(c[1]), int(c[3]))] = int(c[5])
    for path in a.files:
        with open(path, errors='replace') as f:
            head = [f.readline() for _ in range(5)]
        dump = any(line.startswith('[') for line in head)
        # a dump's sched_waking is on the waker's CPU at its sched_wakeup's time
        hist = {}
        res = classify(path, pids, 'sched_waking' if dump else 'sched_' + a.start, hist)
        if not dump:   # the trace: report's latencies
            for r in res:
                r['lat'] = meas.get((r['pid'], r['t0']), -1)
            res = [r for r in res if r['lat'] >= 0]
            if tres is None:
                tres, tpath = res, path
        lat = [r['lat'] for r in res]
        print('%s: %d samples, p50 %.1f p95 %.1f p99 %.1f us; in [%g, %g) us: %d, of them early %d'
              % (path, len(lat), pct(lat, 50) / 1e3, pct(lat, 95) / 1e3, pct(lat, 99) / 1e3,
                 a.band[0], a.band[1], sum(lo <= x < hi for x in lat),
                 sum(lo <= r['lat'] < hi and r['early'] for r in res)))
        by = defaultdict(list)
        for r in res:
            by[r['k']].append(r)
        print('  %-28s %6s %6s %7s %7s %6s %6s %6s' % ('path', 'n', 'early', 'p50', 'p90',
                                                      'band', 'e.band', '>=hi'))
        for k in sorted(by, key=lambda k: -len(by[k])):
            v = [r['lat'] for r in by[k]]
            print('  %-28s %6d %6d %7.1f %7.1f %6d %6d %6d' % (
                k, len(v), sum(r['early'] for r in by[k]), pct(v, 50) / 1e3, pct(v, 90) / 1e3,
                sum(lo <= x < hi for x in v),
                sum(lo <= r['lat'] < hi and r['early'] for r in by[k]), sum(x >= hi for x in v)))
        if edges:
            bucket_table(res, edges)
        if a.ahead:
            ahead_table(res, lo, hi)
        if a.cpu_bins:
            cpu_bins(hist, pids, a.cpu_bins * 1e6)
        if a.pairs is not None and dump and tres is not None:
            pairs_table(tres, tpath, path, res, a.pairs * 1e3)


if __name__ == '__main__':
    main()
