#!/usr/bin/env python3
"""Count a trace's traced newidle pulls from `trace-cmd report -t`, apart from the
extraction (replay's notes "traced newidle pulls"): a sched_migrate_task of a queued task
(no sched_waking of it pending, orig_cpu != dest_cpu) written on dest_cpu in the context
of the task that is current there, followed on that CPU (its sched_stat_runtime aside)
by a sched_switch from that task, not runnable, to the moved one - the newidle balance of
the blocker's __schedule() (pick_next_task_fair() -> sched_balance_newidle()).  Prints
the pulls at a block, at an exit, and the candidates that something else followed.

usage: newidle_pulls.py TRACE.dat [TRACE.dat ...]   (or a report's text file: *.txt)
"""
import re
import subprocess
import sys

LINE = re.compile(r'^\s*(?:\S+:\s+)?(.+?)-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+(\w+):\s+(.*)$')
MIG = re.compile(r'comm=.* pid=(\d+) prio=\d+ orig_cpu=(\d+) dest_cpu=(\d+)')
SW = re.compile(r'^(.*):(\d+) \[(-?\d+)\] (\S+) ==> (.*):(\d+) \[(-?\d+)\]')
WAKING = re.compile(r'comm=.* pid=(\d+) prio')
WAKEUP = re.compile(r'^(.*):(\d+) \[')


def count(lines):
    cand = {}       # cpu -> (curr pid, moved pid, migrations since)
    waking = set()  # pids with a sched_waking and no sched_wakeup yet
    res = {'block': 0, 'exit': 0, 'other': 0, 'multi': 0}
    for ln in lines:
        m = LINE.match(ln)
        if not m:
            continue
        pid, cpu, ev, rest = int(m.group(2)), int(m.group(3)), m.group(5), m.group(6)
        if ev == 'sched_waking':
            w = WAKING.search(rest)
            if w:
                waking.add(int(w.group(1)))
        elif ev in ('sched_wakeup', 'sched_wakeup_new'):
            w = WAKEUP.match(rest)
            if w:
                waking.discard(int(w.group(2)))
        c = cand.get(cpu)
        if ev == 'sched_stat_runtime':
            continue
        if ev == 'sched_migrate_task':
            g = MIG.search(rest)
            if c:
                cand[cpu] = (c[0], c[1], c[2] + 1)
            elif g and int(g.group(3)) == cpu and g.group(2) != g.group(3) and pid > 0 \
                    and int(g.group(1)) not in waking and int(g.group(1)) != pid:
                cand[cpu] = (pid, int(g.group(1)), 1)
            continue
        if c is None:
            continue
        del cand[cpu]
        s = SW.match(rest) if ev == 'sched_switch' else None
        if c[2] > 1:
            res['multi'] += 1
        elif s and int(s.group(2)) == c[0] and int(s.group(6)) == c[1] and \
                not s.group(4).startswith('R'):
            res['exit' if s.group(4).startswith(('X', 'Z')) else 'block'] += 1
        else:
            res['other'] += 1
    return res


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        if path.endswith('.txt'):
            with open(path) as f:
                lines = f.read().splitlines()
        else:
            lines = subprocess.run(['trace-cmd', 'report', '-t', path], capture_output=True,
                                   text=True, check=True).stdout.splitlines()
        r = count(lines)
        print(f"{path}: block {r['block']} exit {r['exit']} other {r['other']} "
              f"multi {r['multi']}")


if __name__ == '__main__':
    main()
