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
one line per sample.  Mode v has two wakeups per sample: the exec's (config
vb100) and the child's exit's (config vb100x; a wakeup is an exit's when its
waker is past sched_process_exit).

usage: placement_probe.py TRACE_TXT [--csv OUT]
"""
import re
import sys

LINE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+):\s+(\w+):\s+(.*)$')
FIELD = re.compile(r'(\w+)=(\S+)')
SWITCH = re.compile(r'prev_comm=.* prev_pid=(\d+) .* ==> next_comm=.* next_pid=(\d+) ')
WHY = {'waker': 'not woken from CPU 1', 'prev': 'previous CPU not 0',
       'busy': 'CPU 0 not idle'}
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
        csv.write('config,kind,idle0_us,target\n')
    idle_since = {}      # cpu -> ts it went idle, None when running a task
    running = {}         # cpu -> comm of the task switched in (sched_switch next_comm)
    waking = {}          # pid -> (ts, cpu, prev cpu, idle snapshot)
    samples = {}         # config -> bin -> [n, to idle cpu 0]
    skipped = {}         # config -> count of decisions not set up as intended
    exited = set()       # pids past sched_process_exit: their wakeups are exit's
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
            if int(m.group(2)) != 0:
                idle_since[cpu] = None
            if ev == 'sched_switch':
                s = SWITCH.search(rest + ' ')
                if s:
                    idle_since[cpu] = ts if int(s.group(2)) == 0 else None
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
            snap = (idle_since.get(0, None), idle_since.get(1, None))
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
                csv.write(f'{cfg},{kind},{idle0:.1f},{tgt}\n')
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
