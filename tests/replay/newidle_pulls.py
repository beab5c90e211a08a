#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count a trace's traced newidle pulls from `trace-cmd report -t`, apart from the
extraction (replay's notes "traced newidle pulls"): a sched_migrate_task of a queued task
(no sched_waking of it pending, orig_cpu != dest_cpu) written on dest_cpu in the context
of the task that is current there, followed on that CPU (its sched_stat_runtime aside)
by a sched_switch from that task, not runnable, to the moved one - the newidle balance of
the blocker's __schedule() (pick_next_task_fair() -> sched_balance_newidle()).  Prints
the pulls at a block, at an exit, the candidates another event followed and those with a
second migration in between (docs/validation-log.md, "A traced newidle pull at the
replay's block").  Not a test.

usage: newidle_pulls.py TRACE.dat|REPORT.txt [...]
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sched_text import PID, SWITCH, first, lines  # noqa: E402

MOVE = re.compile(r'orig_cpu=(\d+) dest_cpu=(\d+)')


def count(path):
    cand = {}       # cpu -> [curr pid, moved pid, migrations since]
    waking = set()  # pids with a sched_waking and no sched_wakeup yet
    res = {'block': 0, 'exit': 0, 'other': 0, 'multi': 0}
    for _, _, cpu, curr, ev, fields in lines(path):
        if ev == 'sched_waking' or ev in ('sched_wakeup', 'sched_wakeup_new'):
            m = PID.search(fields)
            if m:
                (waking.add if ev == 'sched_waking' else waking.discard)(first(m))
        if ev == 'sched_stat_runtime':
            continue
        c = cand.get(cpu)
        if ev == 'sched_migrate_task':
            m, p = MOVE.search(fields), PID.search(fields)
            if c:
                c[2] += 1
            elif m and p and int(m.group(2)) == cpu and m.group(1) != m.group(2) and \
                    curr and first(p) not in waking and first(p) != curr:
                cand[cpu] = [curr, first(p), 1]
            continue
        if c is None:
            continue
        del cand[cpu]
        s = SWITCH.search(fields) if ev == 'sched_switch' else None
        if c[2] > 1:
            res['multi'] += 1
        elif s and int(s.group(2)) == c[0] and int(s.group(5)) == c[1] and \
                not s.group(3).startswith('R'):
            res['exit' if s.group(3).startswith(('X', 'Z')) else 'block'] += 1
        else:
            res['other'] += 1
    return res


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        if path.endswith('.dat'):
            with tempfile.NamedTemporaryFile('w', suffix='.txt') as tmp:
                subprocess.run(['trace-cmd', 'report', '-t', path], stdout=tmp,
                               stderr=subprocess.DEVNULL, check=True)
                r = count(tmp.name)
        else:
            r = count(path)
        print(f"{path}: block {r['block']} exit {r['exit']} other {r['other']} "
              f"multi {r['multi']}")


if __name__ == '__main__':
    main()
