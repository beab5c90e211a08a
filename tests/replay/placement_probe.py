#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read placement_probe's decisions from a tracefs text dump (placement-probe.sh).

For each sched_wakeup / sched_wakeup_new of a task named pw<MODE><STYLE><X>
(tests/replay/placement_probe.c): the CPU it was woken from (the CPU of its
sched_waking line; for a fork, the line's own CPU), its previous CPU
(sched_waking's target_cpu, task_cpu() before the choice), the chosen CPU
(sched_wakeup's target_cpu) and how long each CPU had been idle at the
decision (from sched_switch to and from pid 0).  A sample counts when the
decision is the one the probe sets up: woken from CPU 1 by a task (not the
migration stopper), the previous CPU 0 (wakeups), CPU 0 idle.  Prints, per probe configuration and by
how long CPU 0 had been idle, how often the idle CPU 0 was chosen; with --csv,
one line per sample, with both CPUs' utilisation at the wakeup as PELT
would average their traced busy time (placement_idle_prev.Pelt: half-life
32 ms, 1024 = always busy; an estimate of the rq's util_avg, which also
carries blocked tasks' decaying share), the microseconds since each CPU
last ran a task (0 while it runs one) and how many tasks other than the
probe's were queued on CPU 1 (the waker's) at the wakeup (from the traced
wakeups, switches and migrations; an idle CPU's queue is empty).  Mode v has two wakeups per sample: the exec's (config
vb100) and the child's exit's (config vb100x; a wakeup is an exit's when its
waker is past sched_process_exit).

usage: placement_probe.py TRACE_TXT [--csv OUT]
"""
import re
import sys

from placement_idle_prev import HALF_LIFE


class CpuUtil:
    """A CPU's traced busy time, PELT-averaged in the continuous limit
    (util = 1024 * integral of busy(s) lam exp(-lam (t - s)) ds, half-life
    32 ms; placement_idle_prev.Pelt's, but readable at any time without
    advancing).  This machine's traces miss some events: CPU 1's switches
    out of idle (docs/report.md, untraced idle exits) and everything in some
    tasks' context (the switch away from them included).  So a task's first
    event on a CPU thought idle makes it busy since the CPU's last event in
    idle context (it left idle right after, at most), and a traced switch to
    a task followed by an event in idle context means the task ran unseen and
    briefly: the CPU counts as idle throughout."""

    def __init__(self):
        self.util, self.t, self.on = 0.0, None, False
        self.pending = None     # time of a switch to a task not yet confirmed
        self.last_idle = None   # time of the CPU's last event in idle context

    def _set(self, ts, on):
        if self.t is None or ts >= self.t:
            self.util, self.t = self._value(ts, self.on), ts
        self.on = on

    def _value(self, ts, on):
        if self.t is None or ts <= self.t:
            return self.util
        d = 0.5 ** ((ts - self.t) / HALF_LIFE)
        return self.util * d + (1024.0 * (1 - d) if on else 0.0)

    def task_event(self, ts):
        if self.pending is not None:
            self._set(self.pending, True)
            self.pending = None
        elif not self.on and self.last_idle is not None:
            self._set(self.last_idle, True)
        self._set(ts, True)

    def idle_event(self, ts):
        self.pending = None
        self._set(ts, False)
        self.last_idle = ts

    def switch_in(self, ts):
        self.pending = ts

    def at(self, ts):
        """Utilisation at ts, a pending switch counted as busy since."""
        if self.pending is None:
            return self._value(ts, self.on)
        u = self._value(self.pending, self.on)
        d = 0.5 ** ((ts - self.pending) / HALF_LIFE) if ts > self.pending else 1.0
        return u * d + 1024.0 * (1 - d)


LINE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+):\s+(\w+):\s+(.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')
SWITCH = re.compile(r'prev_comm=.* prev_pid=(\d+) .* ==> next_comm=.* next_pid=(\d+) ')
WHY = {'waker': 'not woken from CPU 1', 'prev': 'previous CPU not 0',
       'busy': 'CPU 0 not idle'}
PROBE_COMMS = ('pw', 'pr', 'pc', 'ph', 'placement_pro')
BINS = [0, 20, 50, 100, 130, 160, 200, 300, 500, 1000, 2000, 5000]


def bin_of(us):
    b = 0
    for i, lo in enumerate(BINS):
        if us >= lo:
            b = i
    return b


def bin_name(i):
    lo = BINS[i]
    return f'{lo}-{BINS[i + 1]}' if i + 1 < len(BINS) else f'>={lo}'


def main():
    path = sys.argv[1]
    csv = None
    if '--csv' in sys.argv:
        csv = open(sys.argv[sys.argv.index('--csv') + 1], 'w')
        csv.write('config,kind,idle0_us,target,util0,util1,since0_us,since1_us,others1\n')
    idle_since = {}      # cpu -> ts it went idle, None when running a task
    running = {}         # cpu -> comm of the task switched in (sched_switch next_comm)
    waking = {}          # pid -> (ts, cpu, prev cpu, idle snapshot)
    samples = {}         # config -> bin -> [n, to idle cpu 0]
    skipped = {}         # config -> count of decisions not set up as intended
    exited = set()       # pids past sched_process_exit: their wakeups are exit's
    pelt = {0: CpuUtil(), 1: CpuUtil()}   # cpu -> busy-time PELT estimate
    queued = {}          # pid -> [cpu, comm, 'run' or 'woken', since] of the tasks runnable or running
    with open(path, errors='replace') as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            comm, cpu, ts, ev, rest = m.group(1).strip(), int(m.group(3)), \
                float(m.group(4)), m.group(5), m.group(6)
            # Any event in a task's context means its CPU runs a task: on
            # this machine one CPU's switches out of idle are not traced
            # (docs/report.md, untraced idle exits), so a CPU's idle period
            # ends at its first event from a task.
            u = pelt.setdefault(cpu, CpuUtil())
            if int(m.group(2)) != 0:
                idle_since[cpu] = None
                u.task_event(ts)
            else:
                u.idle_event(ts)
                # An idle CPU runs nothing: drop the tasks seen switched in
                # there (their switch away may be untraced) and woken ones
                # older than 20 ms (a task does not wait that long beside an
                # idle CPU; its run was untraced).
                for q in [q for q, v in queued.items() if v[0] == cpu and
                          (v[2] == 'run' or ts - v[3] > 0.020)]:
                    del queued[q]
            if ev in ('sched_wakeup', 'sched_wakeup_new', 'sched_migrate_task',
                      'sched_process_exit', 'sched_switch'):
                fq = dict(FIELD.findall(rest))
                if ev == 'sched_switch':
                    if fq.get('prev_pid', '0') != '0' and not fq.get('prev_state', 'R').startswith('R'):
                        queued.pop(int(fq['prev_pid']), None)
                    if fq.get('next_pid', '0') != '0':
                        queued[int(fq['next_pid'])] = [cpu, rest.split('next_comm=')[1], 'run', ts]
                elif ev == 'sched_process_exit':
                    queued.pop(int(m.group(2)), None)
                elif ev == 'sched_migrate_task':
                    if int(fq['pid']) in queued:
                        queued[int(fq['pid'])][0] = int(fq['dest_cpu'])
                else:
                    queued[int(fq['pid'])] = [int(fq['target_cpu']), fq.get('comm', ''), 'woken', ts]
            if ev == 'sched_switch':
                s = SWITCH.search(rest + ' ')
                if s:
                    idle_since[cpu] = ts if int(s.group(2)) == 0 else None
                    if int(s.group(2)) == 0:
                        u.idle_event(ts)
                    else:
                        u.switch_in(ts)
                    running[cpu] = rest.split('next_comm=')[1].split(' next_pid=')[0]
                continue
            if ev == 'sched_process_exit':
                exited.add(int(m.group(2)))
                continue
            if ev not in ('sched_waking', 'sched_wakeup', 'sched_wakeup_new'):
                continue
            fl = dict(FIELD.findall(rest))
            wcomm = fl.get('comm', '')
            if not wcomm.startswith('pw'):
                continue
            pid = int(fl['pid'])
            tgt = int(fl['target_cpu'])
            snap = (idle_since.get(0, None), idle_since.get(1, None),
                    pelt[0].at(ts), pelt[1].at(ts),
                    sum(v[0] == 1 and not v[1].startswith(PROBE_COMMS)
                        for v in queued.values()))
            if ev == 'sched_waking':
                # Only the probe's own wakeups: not the stopper's wakeup of
                # a task it moved for sched_setaffinity() (one allowed CPU).
                if not (comm.startswith('migration/') or
                        running.get(cpu, '').startswith('migration/')):
                    waking[pid] = (ts, cpu, tgt, snap, int(m.group(2)) in exited)
                else:
                    waking.pop(pid, None)
                continue
            if ev == 'sched_wakeup_new':
                if wcomm[2] != 'k':
                    continue
                kind, wts, wcpu, prev = 'fork', ts, cpu, 0
            else:
                if wcomm[2] == 'k' or pid not in waking:
                    continue
                wts, wcpu, prev, snap, by_exit = waking.pop(pid)
                kind = 'exit' if by_exit else 'wake'
            cfg = wcomm[2:] + ('x' if kind == 'exit' and wcomm[2] in 'vm' else '')
            ok = wcpu == 1 and prev == 0 and snap[0] is not None
            if not ok:
                why = 'waker' if wcpu != 1 else 'prev' if prev != 0 else 'busy'
                sk = skipped.setdefault(cfg, {})
                sk[why] = sk.get(why, 0) + 1
                samples.setdefault(cfg, {})
                continue
            idle0 = (wts - snap[0]) * 1e6
            b = samples.setdefault(cfg, {}).setdefault(bin_of(idle0), [0, 0])
            b[0] += 1
            b[1] += tgt == 0
            if csv:
                since1 = 0.0 if snap[1] is None else (wts - snap[1]) * 1e6
                csv.write(f'{cfg},{kind},{idle0:.1f},{tgt},{snap[2]:.0f},{snap[3]:.0f},'
                          f'{idle0:.1f},{since1:.1f},{snap[4]}\n')
    print('config  CPU0-idle-us  n  to-idle-CPU0')
    for cfg in sorted(samples, key=lambda c: (c[0], c[1], int(c[2:].rstrip('x')), c)):
        for b in sorted(samples[cfg]):
            n, idle = samples[cfg][b]
            print(f'{cfg:10s} {bin_name(b):>10s} {n:5d} {idle:5d} {100.0 * idle / n:6.1f} %')
        sk = skipped.get(cfg, {})
        if sk:
            print(f'{cfg:10s} skipped: ' + ', '.join(
                f'{sk[w]} {WHY[w]}' for w in sorted(sk)))


if __name__ == '__main__':
    main()
