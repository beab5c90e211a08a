#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""How a traced kernel placed remote wakeups whose previous CPU was idle.

Reads `trace-cmd report` text of any trace (the bundled traces/*.dat, or a
recapture) and counts the wakeups that mainline's select_task_rq_fair()
always sends to the idle previous CPU (wake_affine_idle() and
select_idle_sibling() return an idle prev): woken by a task (not the
migration stopper, not from idle/interrupt context) on another CPU than the
wakee's previous one, that previous CPU idle at the sched_waking.  Split by
how long it had been idle and by whether the waker itself had moved away from
that CPU within the last 2 ms (forkexec's exec'ing child, pushed over by
sched_exec()'s stopper).  docs/model.md, "Placement on the capture kernel
(measured)".

A CPU counts as idle from its sched_switch to pid 0 until any event of a task
on it or a sched_wakeup / sched_wakeup_new targeting it (one CPU's switches
out of idle are not traced on the capture kernel).  The last column is the
median fraction of the last 32 ms during which the CPUs were busy, at those
wakeups (is the packing a rule for a lightly loaded machine?), then the
median utilisation of the waker's CPU, a PELT-like average of its busy time
(half-life 32 ms, 1024 = always busy; the kernel's util_avg also carries the
blocked tasks' share, so this is an estimate; does the vendor's
vcpu_pack_room() pack only onto a CPU with room?).

usage: trace-cmd report T.dat | placement_idle_prev.py - [--util-below U]
       placement_idle_prev.py OUTDIR/trace.txt   (placement-probe.sh's)
--util-below U counts only the wakeups whose waker's CPU had a utilisation
below U (the estimate above).
"""
import math
import re
import statistics
import sys

# `trace-cmd report` lines, or a tracefs `trace` file's (an irq-flags column
# before the time stamp; sched_wakeup as comm= pid= ... target_cpu=).
LINE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?([\d.]+):\s+(\w+):\s+(.*)$')
WAKEUP = re.compile(r'(\S+):(\d+) \[-?\d+\] CPU:(\d+)|'
                    r'comm=(\S+) pid=(\d+) prio=-?\d+ target_cpu=(\d+)')
BINS = [(0, 130), (130, 300), (300, 1e12)]
WINDOW = 0.032   # s
HALF_LIFE = 0.032  # s, PELT's: y^32 = 1/2 with 1 ms periods


class Pelt:
    """A CPU's busy time as PELT averages it, in the continuous limit:
    util(t) = 1024 * integral of busy(s) * lam * exp(-lam (t - s)) ds."""

    LAM = math.log(2) / HALF_LIFE

    def __init__(self):
        self.util, self.t, self.on = 0.0, None, False

    def at(self, ts):
        if self.t is not None and ts > self.t:
            d = math.exp(-self.LAM * (ts - self.t))
            self.util = self.util * d + (1024.0 * (1 - d) if self.on else 0.0)
        self.t = ts if self.t is None or ts > self.t else self.t
        return self.util

    def set(self, ts, on):
        self.at(ts)
        self.on = on


class Busy:
    """Busy intervals per CPU, for the busy fraction of a recent window."""

    def __init__(self):
        self.since = {}   # cpu -> start of its current busy interval
        self.done = {}    # cpu -> [(start, end)] of finished intervals

    def busy(self, cpu, ts):
        if self.since.get(cpu) is None:
            self.since[cpu] = ts

    def idle(self, cpu, ts):
        if self.since.get(cpu) is not None:
            self.done.setdefault(cpu, []).append((self.since[cpu], ts))
            self.since[cpu] = None

    def fraction(self, ts):
        cpus = set(self.since) | set(self.done)
        tot = 0.0
        for c in cpus:
            for a, b in reversed(self.done.get(c, [])):
                if b < ts - WINDOW:
                    break
                tot += min(b, ts) - max(a, ts - WINDOW)
            if self.since.get(c) is not None:
                tot += ts - max(self.since[c], ts - WINDOW)
        return tot / (WINDOW * max(len(cpus), 1))


def main():
    args = sys.argv[1:]
    below = 1e9
    if '--util-below' in args:
        i = args.index('--util-below')
        below = float(args[i + 1])
        del args[i:i + 2]
    f = sys.stdin if args in ([], ['-']) else open(args[0])
    idle = {}        # cpu -> ts it went idle, None when it has a task
    where = {}       # pid -> cpu of its last event
    moved = {}       # pid -> (cpu it left, ts)
    waking = {}      # wakee pid -> (ts, waker cpu, prev cpu, idle snapshot, waker moved)
    count = {}       # (bin, waker moved from prev, chose prev) -> n
    load = {}        # (bin, waker moved from prev) -> [busy fraction]
    room = {}        # (bin, waker moved from prev) -> [waker CPU's utilisation]
    busy = Busy()
    pelt = {}        # cpu -> Pelt
    for line in f:
        m = LINE.match(line)
        if not m:
            continue
        comm, pid, cpu, ts, ev, rest = m.group(1).strip(), int(m.group(2)), \
            int(m.group(3)), float(m.group(4)), m.group(5), m.group(6)
        if pid:
            idle[cpu] = None
            busy.busy(cpu, ts)
            pelt.setdefault(cpu, Pelt()).set(ts, True)
            if where.get(pid, cpu) != cpu:
                moved[pid] = (where[pid], ts)
            where[pid] = cpu
        if ev == 'sched_switch':
            if re.search(r'==> swapper/\d+:0 |next_pid=0 ', rest + ' '):
                idle[cpu] = ts
                busy.idle(cpu, ts)
                pelt.setdefault(cpu, Pelt()).set(ts, False)
        elif ev == 'sched_waking':
            if not pid or comm.startswith('migration/'):
                continue
            w = int(re.search(r' pid=(\d+)', rest).group(1))
            prev = int(re.search(r'target_cpu=(\d+)', rest).group(1))
            mv = moved.get(pid)
            waking[w] = (ts, cpu, prev, idle.get(prev),
                         mv is not None and mv[0] == prev and ts - mv[1] < 0.002,
                         busy.fraction(ts), pelt.setdefault(cpu, Pelt()).at(ts))
        elif ev in ('sched_wakeup', 'sched_wakeup_new'):
            wm = WAKEUP.search(rest)
            if not wm:
                continue
            w = int(wm.group(2) or wm.group(5))
            tgt = int(wm.group(3) or wm.group(6))
            idle[tgt] = None
            if ev == 'sched_wakeup_new' or w not in waking:
                continue
            t0, wcpu, prev, since, mv, frac, util = waking.pop(w)
            if wcpu == prev or since is None or util >= below:
                continue
            us = (t0 - since) * 1e6
            b = next(i for i, (lo, hi) in enumerate(BINS) if lo <= us < hi)
            k = (b, mv, tgt == prev)
            count[k] = count.get(k, 0) + 1
            load.setdefault((b, mv), []).append(frac)
            room.setdefault((b, mv), []).append(util)
    print('prev idle for (us)  waker left prev <2ms  n  to the idle prev  CPUs busy  waker CPU util')
    for b, (lo, hi) in enumerate(BINS):
        for mv in (True, False):
            idle_n = count.get((b, mv, True), 0)
            n = idle_n + count.get((b, mv, False), 0)
            if n:
                rng = f'{lo}-{hi:.0f}' if hi < 1e12 else f'>={lo}'
                print(f'{rng:>18s}  {"yes" if mv else "no":>19s}  {n:4d}  '
                      f'{idle_n:4d} ({100.0 * idle_n / n:3.0f} %)  '
                      f'{100.0 * statistics.median(load[(b, mv)]):3.0f} %  '
                      f'{statistics.median(room[(b, mv)]):5.0f}')


if __name__ == '__main__':
    main()
