#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cpu_ledger.py's restored idle exits against tests/report/crosscheck.py's, trace by trace.

Usage:
  idle_exit_rules.py WORK_DIR TRACE...

The rule (docs/report.md, "Untraced switches out of idle") has one implementation in the
tests, crosscheck.py's restore_points(), the independent check of replay/trace_repair.c;
cpu_ledger.py uses it through an adapter from sched_text.events()' tuples, which read the
text differently (no lost-events lines, an instance's name left in the comm).  For each
TRACE this runs `trace-cmd report -t` once, restores the switches both ways (crosscheck's
own reading of the chosen buffer, the one holding CPU data, and cpu_ledger.py's) and
compares them, (time, CPU, pid) one by one.  Prints a line per trace with the count; exit
0 when every trace agrees and at least one restores a switch, 1 otherwise, 77 without
trace-cmd.  A test (replay_idle_exit_rules), not an analysis helper.
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'report'))
from crosscheck import report_records, restore_points  # noqa: E402
from cpu_ledger import restore_idle_exits  # noqa: E402
from sched_text import events  # noqa: E402

RESTORED = re.compile(r'==> restored:(\d+) \[')


def data_buffers(trace):
    """The instance names and the buffers ('' the top level) that hold CPU data; a file
    that lists no buffer (a trace.dat v6 as `schedreplay capture` writes it) has the top
    level's alone."""
    p = subprocess.run(['trace-cmd', 'dump', '--summary', '-i', trace], capture_output=True,
                       text=True)
    full = re.findall(r'\[buffer "([^"]*)".*?, (\d+) cpus', p.stdout)
    if not full:
        return set(), ['']
    return {b for b, _ in full} - {''}, [b for b, n in full if n != '0']


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    if not shutil.which('trace-cmd'):
        print('SKIP: trace-cmd not installed')
        return 77
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    fails = total = 0
    for trace in sys.argv[2:]:
        name = os.path.basename(trace)
        instances, full = data_buffers(trace)
        if len(full) != 1:
            print(f'FAIL: {name}: {len(full)} buffers hold CPU data, this test reads one')
            fails += 1
            continue
        rep = os.path.join(work, name + '.rep')
        with open(rep, 'w') as f:
            p = subprocess.run(['trace-cmd', 'report', '-t', '-i', trace], stdout=f,
                               stderr=subprocess.DEVNULL)
        matched = [0]
        with open(rep, errors='replace') as f:
            recs = list(report_records(f, full[0], instances, matched))
        if p.returncode != 0 or not matched[0]:
            print(f'FAIL: {name}: trace-cmd report exit {p.returncode}, {matched[0]} lines')
            fails += 1
            continue
        inserts, _ = restore_points(recs)
        theirs = sorted((t, cpu, pid) for _, t, cpu, pid, _ in inserts)
        ours = sorted((e[0], e[2], int(RESTORED.search(e[5]).group(1)))
                      for e in restore_idle_exits(events(rep))
                      if e[3] is None and e[4] == 'sched_switch' and RESTORED.search(e[5]))
        os.remove(rep)
        total += len(ours)
        if ours == theirs:
            print(f'{name}: {len(ours)} restored, the same')
            continue
        fails += 1
        only_c = sorted(set(theirs) - set(ours))
        only_l = sorted(set(ours) - set(theirs))
        print(f'FAIL: {name}: crosscheck.py {len(theirs)}, cpu_ledger.py {len(ours)}; '
              f'first only in crosscheck.py {only_c[:3]}, only in cpu_ledger.py {only_l[:3]}')
    if not total:
        print('FAIL: no trace restores a switch')
        fails += 1
    print(f'{len(sys.argv) - 2} traces, {total} switches restored, {fails} failures')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
