#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The extraction task by task against the trace: every task whose extracted work disagrees.

Usage:
  trace-cmd report -t -l -i T.dat > T.rep
  wl_tasks T.dat > T.wl                      (tests/replay/wl_tasks.c, built with the tests)
  wl_audit.py [--top N] [--tol-us U] [--wake-tol-us W] T.rep T.wl

From the trace text alone, per task (a pid; the capture's own processes included):
  segments  its CPU time (switch-in to switch-out) between its blocks (switch-outs asleep: not
            R/R+, not X/Z) and after the last, each block with the wake that ended it: the
            first sched_wakeup of it after the switch-out and the sched_waking before that,
            or, where no sched_wakeup was traced, the sched_waking since its last switch-in;
            the waker is that event's context: a task's pid, or idle / hardirq / softirq /
            rt-dl
  wakes     each sched_waking written in its context of a fair task (sched_wakeup in a trace
            without sched_waking), with its position: the CPU time since its last block
  forks     its sched_process_fork as parent
  exits     its switch-outs dead (X, Z)
and compares them with what the extraction made of the task (wl_tasks' B/E/W/F/S lines: the
RUN ops' CPU time between its BLOCK ops, the wake ending each BLOCK, each WAKE op's position).
A segment with a switch the kernel did not trace (an idle exit the reader restores, a
switch-out another task's event reveals, a run seen only at its switch-out) is the reader's and
the latency machine's inference, which this script does not redo: it is counted apart and not
compared (nor are the wakes in it).  A task is flagged when its block, wake, fork or exit
count differs, a block's waker differs, a compared segment or the sum of them differs by more
than --tol-us (default 50 us) and 1 %, or a wake's position by more than --wake-tol-us
(default 5 us).  Prints the totals and the flagged tasks, biggest CPU-time difference first; exit 1 if
any task is flagged, 0 else.  Analysis helper and ctest replay_wl_audit (docs/replay.md,
"Workload extraction"; docs/validation-log.md, "The extraction, task by task").
"""
import argparse
import bisect
import re
import sys
from collections import defaultdict

from sched_text import ns

LINE = re.compile(r'^(?:\S+: )?\s*(.*?)-(\d+)\s+(\d+)(\S{5})\s+(\d+)\.(\d+):\s+(\w+):\s*(.*)$')
SWITCH = re.compile(r'^(.*?):(\d+) \[(-?\d+)\] (\S+) ==> (.*?):(\d+) \[(-?\d+)\]')
WAKE = re.compile(r'^(?:comm=)?(.*?)(?::| pid=)(\d+) (?:\[(-?\d+)\]|prio=(-?\d+))')
RUNTIME = re.compile(r'comm=.* pid=(\d+) runtime=(\d+)')
FORK = re.compile(r'comm=.* pid=(\d+) child_comm=.* child_pid=(\d+)')


class Task:
    def __init__(self, pid):
        self.pid = pid
        self.cpu = 0            # ns on a CPU
        self.on = None          # since when it is on a CPU (None: not on one)
        self.last_in = 0        # its last switch-in
        self.last_own = None    # its last event in its own context
        self.seg = 0            # CPU time since the last block
        self.approx = False     # that time has a switch the kernel did not trace
        self.blocks = []        # [state, wake_ts, waker, segment ns, switch-out ts, approx]
        self.open = None        # the block waiting for its wakeup
        self.waking = None      # (ts, waker) of the last sched_waking of it
        self.woken = None       # runnable since (woken, preempted, moved), not on a CPU
        self.wakes = 0
        self.wake_at = {}       # (waking ts, target) -> (CPU time since the last block, approx)
        self.forks = 0
        self.exited = False
        self.exits = 0          # its switch-outs dead (X, Z)
        self.prio = None
        self.restored = 0       # switch-ins the kernel did not trace
        self.lost = 0           # switch-outs the kernel did not trace


def context(pid, flags, prio):
    """The waker as wl_tasks names it: a pid, or an external source."""
    if 'h' in flags[2] or 'H' in flags[2] or 'z' in flags[2]:
        return 'hardirq'
    if 's' in flags[2]:
        return 'softirq'
    if pid == 0:
        return 'idle'
    if prio is not None and prio < 100:
        return 'rt-dl'
    return pid


def read_trace(path):
    """Per pid, a Task: what the trace text shows it did."""
    tasks = {}
    cur = {}                    # cpu -> pid current (0: idle)
    where = {}                  # pid -> cpu it is current on
    idle_since = {}
    has_waking = False

    def task(pid):
        t = tasks.get(pid)
        if t is None:
            t = tasks[pid] = Task(pid)
        return t

    def stop(t, ts):
        if t.on is not None:
            t.cpu += max(0, ts - t.on)
            t.seg += max(0, ts - t.on)
            t.on = None
        where.pop(t.pid, None)

    def block(t, state, ts):
        t.blocks.append([state, -1, -1, t.seg, ts, t.approx])
        t.seg = 0
        t.approx = False
        t.open = t.blocks[-1]

    def lost_out(cpu, ts):
        """The CPU's current was switched out without a sched_switch (another task's
        event there): at its last event there; blocked or preempted, as its next
        switch-in tells (switched_in())."""
        x = cur.get(cpu)
        if not x:
            return None
        t = task(x)
        end = t.last_own if t.last_own is not None and t.last_own >= (t.on or 0) else ts
        stop(t, end)
        t.lost += 1
        t.approx = True
        block(t, '?', end)
        t.woken = end
        cur[cpu] = 0
        return end

    def switched_in(t, ts, cpu):
        if t.open is not None:
            if t.waking is not None and t.waking[0] > t.last_in:
                # its sched_wakeup was not traced (or came before the switch-out: a
                # waking that raced with the block): that waking ended the sleep
                t.open[1], t.open[2] = t.waking
            elif t.open[0] == '?':
                # an untraced switch-out with no wake since: a preemption
                t.blocks.pop()
                t.seg += t.open[3]
            else:
                t.open[2] = 'unknown'
            t.open = None
        if t.on is not None and where.get(t.pid) is not None and where[t.pid] != cpu:
            stop(t, ts)
        t.on = ts
        t.last_in = ts
        t.last_own = ts
        t.woken = None
        where[t.pid] = cpu
        cur[cpu] = t.pid

    lines = []
    with open(path, errors='replace') as f:
        for line in f:
            m = LINE.match(line)
            if m:
                lines.append((ns(m.group(5), m.group(6)), int(m.group(3)), int(m.group(2)),
                              m.group(4), m.group(7), m.group(8)))
                if m.group(7) == 'sched_waking':
                    has_waking = True
    lines.sort(key=lambda x: x[0])
    last = lines[-1][0] if lines else 0
    stats = defaultdict(list)
    for ts, cpu, pid, flags, ev, rest in lines:
        if ev == 'sched_stat_runtime':
            m = RUNTIME.match(rest)
            if m:
                stats[int(m.group(1))].append((ts, ts - int(m.group(2))))

    def exec_start(pid, ts):
        """The exec_start of @pid's first sched_stat_runtime at or after @ts."""
        lst = stats.get(pid)
        if not lst:
            return None
        i = bisect.bisect_left(lst, (ts, -1))
        return lst[i][1] if i < len(lst) else None

    for ts, cpu, pid, flags, ev, rest in lines:
        own = pid != 0   # the pid shown is the CPU's current, in an interrupt too
        if not pid and ev != 'sched_switch' and not cur.get(cpu):
            idle_since[cpu] = ts    # the CPU still idle (an interrupt on idle)
        if own and ev != 'sched_switch' and cur.get(cpu) != pid:
            # the trace shows the task running here without its switch-in
            t = task(pid)
            lo = lost_out(cpu, ts)
            if lo is None:
                lo = max(t.woken or 0, idle_since.get(cpu, 0))
            start = ts if t.on is None and t.last_own is None and t.woken is None else lo
            at = exec_start(pid, ts)
            if at is not None and start <= at <= ts:
                # its switch-in by its exec_start: its first sched_stat_runtime from here
                # (written on any CPU: a remote update_curr() of its CPU's current)
                start = at
            if t.pid in where and where[t.pid] != cpu:
                ocpu = where[t.pid]
                stop(t, t.last_own if t.last_own is not None else ts)
                cur[ocpu] = 0
            if t.on is None:
                t.restored += 1
                t.approx = True
                switched_in(t, start, cpu)
            cur[cpu] = pid
            where[pid] = cpu
        if own and ev != 'sched_switch':
            task(pid).last_own = ts
        if ev == 'sched_switch':
            m = SWITCH.match(rest)
            if not m:
                continue
            prev, state, nxt = int(m.group(2)), m.group(4), int(m.group(6))
            if cur.get(cpu) and cur[cpu] != prev:
                lost_out(cpu, ts)
            if prev:
                t = task(prev)
                t.prio = int(m.group(3))
                if t.on is None:
                    # switched in without a sched_switch and without an event of its
                    # own: a run the trace does not show
                    switched_in(t, ts, cpu)
                    t.approx = True
                stop(t, ts)
                t.last_own = ts
                if state.startswith('X') or state.startswith('Z'):
                    t.exited = True
                    t.exits += 1
                elif not state.startswith('R'):
                    block(t, state, ts)
                else:
                    t.woken = ts
            if nxt:
                t = task(nxt)
                t.prio = int(m.group(7))
                if where.get(nxt) is not None and where[nxt] != cpu:
                    cur[where[nxt]] = 0
                    stop(t, ts)
                switched_in(t, ts, cpu)
            cur[cpu] = nxt
            if not nxt:
                idle_since[cpu] = ts
        elif ev == 'sched_waking' or (ev == 'sched_wakeup' and not has_waking):
            m = WAKE.match(rest)
            if not m:
                continue
            tgt = task(int(m.group(2)))
            tprio = int(m.group(3) or m.group(4))
            waker = context(pid, flags, task(pid).prio if pid else None)
            tgt.waking = (ts, waker)
            if isinstance(waker, int) and tprio >= 100:
                w = task(waker)
                w.wakes += 1
                w.wake_at[(ts, tgt.pid)] = (w.seg + (ts - w.on if w.on is not None else 0),
                                            w.approx)
            if ev == 'sched_wakeup':
                if tgt.on is None:
                    tgt.woken = ts
                if tgt.open is not None and tgt.open[0] != '?':
                    tgt.open[1], tgt.open[2] = ts, waker
                    tgt.open = None
        elif ev == 'sched_wakeup':
            m = WAKE.match(rest)
            if not m:
                continue
            tgt = task(int(m.group(2)))
            if tgt.on is None:
                tgt.woken = ts
            if tgt.open is not None and tgt.waking is not None and tgt.open[0] != '?':
                tgt.open[1], tgt.open[2] = tgt.waking
                tgt.open = None
        elif ev == 'sched_wakeup_new':
            m = WAKE.match(rest)
            if m:
                task(int(m.group(2))).woken = ts
        elif ev == 'sched_migrate_task':
            m = WAKE.match(rest)
            if m:
                t = task(int(m.group(2)))
                if t.woken is not None:
                    t.woken = ts
        elif ev == 'sched_process_fork':
            m = FORK.search(rest)
            if m:
                task(int(m.group(1))).forks += 1
    for t in tasks.values():
        stop(t, last)
    return tasks


def read_wl(path):
    out = {}
    cur = None
    for line in open(path):
        f = line.split()
        if not f:
            continue
        k = f[0]
        if k == 'T':
            cur = out.setdefault(int(f[1]), {'comm': f[2], 'cls': f[3], 'prio': int(f[4]),
                                              'init': f[5], 'group': f[7], 'blocks': [],
                                              'wakes': 0, 'forks': 0, 'run': 0, 'tail': 0,
                                              'exits': 0,
                                              'wake_at': {}})
        elif k == 'B':
            waker = int(f[5]) if f[5] != '-1' else f[6]
            out[int(f[1])]['blocks'].append([f[3], int(f[4]), waker, int(f[7])])
        elif k == 'E':
            out[int(f[1])]['tail'] = int(f[2])
        elif k == 'W':
            out[int(f[1])]['wake_at'][(int(f[2]), int(f[3]))] = int(f[5])
        elif k == 'S':
            d = out[int(f[1])]
            d['run'] = int(f[2])
            d['exits'] = int(f[4])
            d['wakes'] = int(f[6])
            d['forks'] = int(f[7])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--top', type=int, default=20)
    ap.add_argument('--tol-us', type=float, default=50.0)
    ap.add_argument('--wake-tol-us', type=float, default=5.0)
    ap.add_argument('rep')
    ap.add_argument('wl')
    a = ap.parse_args()
    tr = read_trace(a.rep)
    wl = read_wl(a.wl)
    tol = a.tol_us * 1000
    wtol = a.wake_tol_us * 1000
    wake_diffs = []
    tot = {'tasks': 0, 'cpu_t': 0, 'cpu_w': 0, 'exact_t': 0, 'exact_w': 0, 'blocks': 0,
           'blocks_ok': 0, 'approx_segs': 0, 'wakes': 0, 'wakes_approx': 0, 'approx_tasks': 0}
    flagged = []
    for pid, w in wl.items():
        if w['cls'] != 'fair':
            continue
        t = tr.get(pid) or Task(pid)
        tot['tasks'] += 1
        why = []
        tot['cpu_t'] += t.cpu
        tot['cpu_w'] += w['run']
        # the segments between blocks, and the one after the last (to the exit or end)
        tsegs = [(x[3], x[5]) for x in t.blocks] + [(t.seg, t.approx)]
        wsegs = [y[3] for y in w['blocks']] + [w['tail']]
        if len(t.blocks) != len(w['blocks']):
            why.append('blocks %d/%d' % (len(w['blocks']), len(t.blocks)))
        nb = 0
        approx = 0
        exact_t = exact_w = 0
        for i, ((tseg, tapprox), wseg) in enumerate(zip(tsegs, wsegs)):
            bad = []
            if i < len(t.blocks) and i < len(w['blocks']):
                x, y = t.blocks[i], w['blocks'][i]
                tot['blocks'] += 1
                if x[2] != y[2] and not (x[2] == -1 and y[2] == 'none'):
                    bad.append('waker %s/%s' % (y[2], x[2]))
            if tapprox:
                approx += 1
            else:
                exact_t += tseg
                exact_w += wseg
                if abs(wseg - tseg) > tol and abs(wseg - tseg) > 0.01 * max(tseg, 1):
                    bad.append('run %+.1f us' % ((wseg - tseg) / 1e3))
            if bad:
                nb += 1
                if nb <= 3:
                    at = t.blocks[i][4] / 1e9 if i < len(t.blocks) else -1
                    why.append('segment %d (to %.6f): %s' % (i, at, ', '.join(bad)))
            elif i < len(t.blocks) and i < len(w['blocks']):
                tot['blocks_ok'] += 1
        if nb > 3:
            why.append('... %d segments differ' % nb)
        tot['approx_segs'] += approx
        tot['approx_tasks'] += approx > 0
        tot['exact_t'] += exact_t
        tot['exact_w'] += exact_w
        d = exact_w - exact_t
        if abs(d) > tol and abs(d) > 0.01 * max(exact_t, 1):
            why.append('cpu %+.3f ms' % (d / 1e6))
        if t.wakes != w['wakes']:
            why.append('wakes %d/%d' % (w['wakes'], t.wakes))
        nw = 0
        for key, at in w['wake_at'].items():
            tat = t.wake_at.get(key)
            tot['wakes'] += 1
            if tat is None:
                nw += 1
                why.append('wake of %d at %.6f: not in the trace' % (key[1], key[0] / 1e9))
                continue
            if tat[1]:
                tot['wakes_approx'] += 1
                continue
            wake_diffs.append(at - tat[0])
            if abs(at - tat[0]) > wtol:
                nw += 1
                if nw <= 2:
                    why.append('wake of %d at %.6f: position %+.1f us' % (
                        key[1], key[0] / 1e9, (at - tat[0]) / 1e3))
        if nw > 2:
            why.append('... %d wakes differ' % nw)
        if t.exits != w['exits']:
            why.append('exits %d/%d' % (w['exits'], t.exits))
        if t.forks != w['forks']:
            why.append('forks %d/%d' % (w['forks'], t.forks))
        if why:
            flagged.append((abs(d), pid, w, why))
    flagged.sort(key=lambda x: -x[0])
    print('%d fair tasks; CPU time: trace %.3f ms, extracted %.3f ms; of it between switches the '
          'trace shows, trace %.3f, extracted %.3f ms (the rest: %d segments of %d tasks around a '
          'switch the kernel did not trace); %d blocks, %d with the same waker and run; %d '
          'WAKE ops (%d around an untraced switch)' % (
              tot['tasks'], tot['cpu_t'] / 1e6, tot['cpu_w'] / 1e6, tot['exact_t'] / 1e6,
              tot['exact_w'] / 1e6, tot['approx_segs'], tot['approx_tasks'], tot['blocks'],
              tot['blocks_ok'], tot['wakes'], tot['wakes_approx']))
    wake_diffs.sort(key=abs)
    if wake_diffs:
        def q(f):
            return wake_diffs[min(len(wake_diffs) - 1, int(f * len(wake_diffs)))] / 1e3
        print('WAKE positions in the waker\'s work, extracted - trace, by |difference|: '
              'p50 %+.2f, p99 %+.2f, max %+.2f us' % (q(0.5), q(0.99), wake_diffs[-1] / 1e3))
    print('%d tasks flagged (extracted/trace)' % len(flagged))
    for _, pid, w, why in flagged[:a.top]:
        print('  %d %s [%s %s %s]: %s' % (pid, w['comm'], w['prio'], w['init'], w['group'],
                                          '; '.join(why)))
    return 1 if flagged else 0


if __name__ == '__main__':
    sys.exit(main())
