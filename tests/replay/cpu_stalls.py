#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A trace's CPU stalls (a busy CPU that took no tick), the waits they hold, and the replay's.

    cpu_stalls.py --bin SCHEDREPLAY TRACE [--group compile] [--seeds N] [--hz HZ]
    cpu_stalls.py --bin SCHEDREPLAY TRACE --check [--seeds N]

From `trace-cmd report -t TRACE`: per CPU, every gap between two of its events longer than
three tick periods (--hz, else the sidecar's config.hz, else 100) with one task current before
and after, the gap ended by that task's own sched_stat_runtime (a busy CPU's tick charges its
task every 1/HZ: the vCPU did not run).  Per stall: its CPU, times, length, the task, and the
task's charges over it (its own at the end plus those written on other CPUs meanwhile, the
remote update_curr()s): "charged" when they cover the gap less one tick period (the kernel
charged the task the stall, as the extraction's --cpu-stalls traced requires), else "steal"
(clock_task left it out).  Then the group's (cgroup basename, --group) wakeup waits
(`schedreplay report --samples`, kind wakeup) in the trace - p50/p95/p99, how many over 10 ms,
the longest - with those whose wait overlaps a stall listed; and per replay seed the same of
`replay --dump-samples` under `--cpu-stalls off` and `traced`, with the task the replay had
current on the stalled CPU at the stall's start (`--dump-events`, traced).

--check (traces/make-probe-sd.dat; ctest replay_cpu_stalls; docs/validation-log.md "The
compile tasks' long waits on make-probe-sd"): exactly one stall, CPU 1, 100.8 ms (+-0.2),
charged; the trace's longest compile wakeup wait (gcc 15119, 86 ms) overlaps it; over seeds
1..N (default 3) under traced the replay notes one stall replayed, writes no sched_switch and
no tick's sched_stat_runtime on that CPU strictly inside it (under off it does), and its longest
compile wakeup wait is at least that under off.  Analysis helper and that check.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sched_text import SWITCH, lines  # noqa: E402

STALL_TICKS = 3


def hz_of(trace, given):
    if given:
        return given
    try:
        with open(trace + '.json') as f:
            return int(json.load(f)['config']['hz']) or 100
    except (OSError, KeyError, TypeError, ValueError):
        return 100


def stalls(report, hz):
    """[(cpu, start ns, end ns, pid, charged ns)] of the report text's stalls."""
    period = 1000000000 // hz
    last = {}       # cpu -> (ts, current pid after that event)
    remote = {}     # cpu -> charges of its current written elsewhere since its last event
    out = []
    for ts, _, cpu, cur, ev, f in lines(report):
        if ev == 'sched_stat_runtime':
            pid = int(f.split('pid=')[1].split()[0])
            rt = int(f.split('runtime=')[1].split()[0])
            if cpu in last and cur == pid and last[cpu][1] == pid:
                gap = ts - last[cpu][0]
                charged = remote.get(cpu, 0) + rt
                if gap > STALL_TICKS * period:
                    out.append((cpu, last[cpu][0], ts, pid, charged))
            for c, (_, p) in last.items():
                if c != cpu and p == pid:
                    remote[c] = remote.get(c, 0) + rt
        nxt = cur
        if ev == 'sched_switch':
            m = SWITCH.search(f)
            if m:
                nxt = int(m.group(5))
        last[cpu] = (ts, nxt)
        remote[cpu] = 0
    return [(c, s, e, p, ch, ch + period >= e - s) for c, s, e, p, ch in out]


def waits(path, group, side=None):
    """(pid, cpu, start, end, latency ns, comm) of the group's wakeup samples."""
    r = []
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                continue
            v = line.rstrip('\n').split('\t')
            if side is not None:
                if v[0] != side:
                    continue
                v = v[1:]
            if v[0] != 'wakeup' or os.path.basename(v[-1]) != group:
                continue
            r.append((int(v[1]), int(v[2]), int(v[3]), int(v[4]), int(v[5]), v[-2]))
    return r


def pct(v, q):
    v = sorted(v)
    return v[max(0, math.ceil(q * len(v)) - 1)] if v else 0


def summary(ws):
    lat = [w[4] / 1e6 for w in ws]
    return {'n': len(lat), 'p50': pct(lat, .5), 'p95': pct(lat, .95), 'p99': pct(lat, .99),
            'over10': sum(x > 10 for x in lat), 'max': max(lat) if lat else 0}


def fmt(s):
    return 'n %4d  p50 %6.2f  p95 %6.2f  p99 %6.2f  >10ms %2d  max %6.1f ms' % (
        s['n'], s['p50'], s['p95'], s['p99'], s['over10'], s['max'])


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit('%s: exit %d: %s' % (' '.join(cmd), p.returncode, p.stderr.strip()[:300]))
    return p.stdout


def replay_side(sr, trace, seed, mode, tmp, events=False):
    smp = os.path.join(tmp, 's%d%s.samples' % (seed, mode))
    cmd = [sr, 'replay', '--seed', str(seed), '--cpu-stalls', mode, '--dump-samples', smp]
    dump = None
    if events:
        dump = os.path.join(tmp, 'd%d%s.txt' % (seed, mode))
        cmd += ['--dump-events', dump]
    text = run(cmd + [trace])
    return smp, dump, text


def inside(dump, cpu, s, e):
    """The replay's sched_switch lines and ticks' sched_stat_runtime on @cpu strictly inside
    (s, e): a charge at a wakeup onto it (the remote enqueue's update_curr(), written there
    at the wakeup's time) is no tick."""
    ev_in = [(ts, ev) for ts, _, c, _, ev, _ in lines(dump) if c == cpu and s < ts < e]
    wakes = {ts for ts, ev in ev_in if ev in ('sched_wakeup', 'sched_wakeup_new')}
    return sum(1 for ts, ev in ev_in if ev == 'sched_switch' or
               (ev == 'sched_stat_runtime' and ts not in wakes))


def current_at(dump, cpu, t):
    cur = None
    for ts, _, c, _, ev, f in lines(dump):
        if ts > t:
            break
        if c == cpu and ev == 'sched_switch':
            m = SWITCH.search(f)
            if m:
                cur = '%s:%s' % (m.group(4), m.group(5))
    return cur


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--bin', required=True)
    ap.add_argument('trace')
    ap.add_argument('--group', default='compile')
    ap.add_argument('--seeds', type=int, default=0)
    ap.add_argument('--hz', type=int, default=0)
    ap.add_argument('--check', action='store_true')
    a = ap.parse_args()
    hz = hz_of(a.trace, a.hz)
    seeds = a.seeds or (3 if a.check else 0)
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        rep = os.path.join(tmp, 'trace.txt')
        with open(rep, 'w') as f:
            p = subprocess.run(['trace-cmd', 'report', '-t', '-i', a.trace], stdout=f,
                               stderr=subprocess.PIPE, text=True)
        if p.returncode:
            sys.exit('trace-cmd report %s: %s' % (a.trace, p.stderr.strip()[:300]))
        st = stalls(rep, hz)
        print('stalls (HZ %d: gaps over %d ms):' % (hz, STALL_TICKS * 1000 // hz))
        for c, s, e, pid, ch, ok in st:
            print('  CPU %d  %.6f -> %.6f  %.1f ms  pid %d  charged %.1f ms  %s' % (
                c, s / 1e9, e / 1e9, (e - s) / 1e6, pid, ch / 1e6, 'charged' if ok else 'steal'))
        tsmp = os.path.join(tmp, 'trace.samples')
        run([a.bin, 'report', '--samples', tsmp, a.trace])
        tw = waits(tsmp, a.group)
        print('trace %-10s %s' % (a.group, fmt(summary(tw))))
        for c, s, e, pid, ch, ok in st:
            ov = sorted((w for w in tw if w[1] == c and w[2] < e and w[3] > s), key=lambda w: -w[4])
            print('  waits overlapping the CPU %d stall: %s' % (c, ', '.join(
                '%s %d %.1f ms' % (w[5], w[0], w[4] / 1e6) for w in ov) or 'none'))
        if a.check:
            ch_st = [x for x in st if x[5]]
            if len(st) != 1 or len(ch_st) != 1:
                fails.append('stalls: %d (%d charged), expected 1' % (len(st), len(ch_st)))
            else:
                c, s, e, pid, ch, ok = st[0]
                if c != 1 or abs((e - s) / 1e6 - 100.8) > 0.2:
                    fails.append('stall CPU %d %.1f ms, expected CPU 1 100.8 ms' % (c, (e - s) / 1e6))
                top = max(tw, key=lambda w: w[4]) if tw else None
                if not top or top[0] != 15119 or not (top[2] < e and top[3] > s):
                    fails.append('the longest %s wait %s does not overlap the stall' % (a.group, top))
        for seed in range(1, seeds + 1):
            so, do, _ = replay_side(a.bin, a.trace, seed, 'off', tmp, events=a.check)
            stt, dt, text = replay_side(a.bin, a.trace, seed, 'traced', tmp, events=True)
            sof, str_ = summary(waits(so, a.group, 'predicted')), summary(waits(stt, a.group, 'predicted'))
            print('seed %2d off    %s' % (seed, fmt(sof)))
            cur = ', '.join('%s' % current_at(dt, c, s) for c, s, e, _, _, ok in st if ok)
            print('seed %2d traced %s  (current at the stall: %s)' % (seed, fmt(str_), cur))
            if a.check and len(st) == 1:
                c, s, e = st[0][0], st[0][1], st[0][2]
                if 'traced CPU stalls replayed' not in text:
                    fails.append('seed %d: no stall replayed under traced' % seed)
                if inside(dt, c, s, e) != 0:
                    fails.append('seed %d: traced wrote %d events on CPU %d inside the stall' %
                                 (seed, inside(dt, c, s, e), c))
                if inside(do, c, s, e) == 0:
                    fails.append('seed %d: off wrote nothing on CPU %d inside the stall' % (seed, c))
                if str_['max'] < sof['max']:
                    fails.append('seed %d: longest %s wait traced %.1f < off %.1f ms' %
                                 (seed, a.group, str_['max'], sof['max']))
    for f in fails:
        print('FAIL', f)
    if a.check:
        print('cpu_stalls check: %s' % ('FAILED' if fails else 'ok'))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
