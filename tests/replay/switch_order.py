#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where a replay's per-CPU switch order first leaves the trace's.

Analysis helper (not a test).  Reads a capture as `trace-cmd report -t` text (REF) and one or
more `schedreplay replay --dump-events` dumps (or other reports); for each CPU it lists the
task-to-task switches (prev pid, prev state without the `+` the dump gives a preemption, next
pid; switches to or from idle are left out: a capture may not trace a CPU's idle exits) and
prints how many agree from the start and the first pair that differs, with the switches around
it:

  switch_order.py [--cpu N]... [--context K] [--w-as-s] REF OTHER...

  --w-as-s: a prev state W read as S.  The 6.18.44 captures show some kthreads (rcu_preempt,
  kworkers) leaving the CPU with state W where a replay dump writes S; without it the first
  such switch is a difference of letters, not of order.

  OTHER:
    cpu1: 10 of 1088/1029 switches agree, first difference #10
      #9    trace 49673.353680759 12744 S -> 12745   other 49673.353685615 12744 S -> 12745
      #10   trace 49673.353732827 12745 S -> 12733   other 49673.353737683 12745 S -> 12747

(the counts are REF's and OTHER's switches on that CPU; a CPU whose switches all agree prints
"cpuN: all K switches agree").

(docs/validation-log.md, "chan-run2's first divergence: the root-level state at .3517").
Exit status 0, also when the orders differ; 2 on a file without any switch.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sched_text  # noqa: E402


def switches(path, w_as_s=False):
    """{cpu: [(ts, prev, state, next)]} of the switches between two tasks, by time."""
    out = {}
    for ts, _line, cpu, _cur, ev, fields in sched_text.events(path):
        if ev != 'sched_switch':
            continue
        m = sched_text.SWITCH.search(fields)
        if not m:
            continue
        prev, state, nxt = int(m.group(2)), m.group(3).rstrip('+'), int(m.group(5))
        if w_as_s and state == 'W':
            state = 'S'
        if prev == 0 or nxt == 0:
            continue
        out.setdefault(cpu, []).append((ts, prev, state, nxt))
    return out


def fmt(s):
    ts, prev, state, nxt = s
    return '%d.%09d %d %s -> %d' % (ts // 1000000000, ts % 1000000000, prev, state, nxt)


def compare(ref, other, cpu, context):
    a, b = ref.get(cpu, []), other.get(cpu, [])
    n = min(len(a), len(b))
    i = next((k for k in range(n) if a[k][1:] != b[k][1:]), n)
    lines = []
    if i == n and len(a) == len(b):
        lines.append('cpu%d: all %d switches agree' % (cpu, n))
        return i, lines
    lines.append('cpu%d: %d of %d/%d switches agree, first difference #%d' %
                 (cpu, i, len(a), len(b), i))
    for k in range(max(0, i - context), min(max(len(a), len(b)), i + context + 1)):
        ta = fmt(a[k]) if k < len(a) else '-'
        tb = fmt(b[k]) if k < len(b) else '-'
        lines.append('  #%-4d trace %-40s other %s' % (k, ta, tb))
    return i, lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--cpu', type=int, action='append', help='only this CPU (repeatable)')
    ap.add_argument('--context', type=int, default=2, help='switches shown either side (2)')
    ap.add_argument('--w-as-s', action='store_true', help='a prev state W read as S')
    ap.add_argument('ref')
    ap.add_argument('other', nargs='+')
    o = ap.parse_args()
    ref = switches(o.ref, o.w_as_s)
    if not ref:
        print('%s: no switch between two tasks' % o.ref, file=sys.stderr)
        return 2
    for path in o.other:
        other = switches(path, o.w_as_s)
        if not other:
            print('%s: no switch between two tasks' % path, file=sys.stderr)
            return 2
        cpus = o.cpu or sorted(set(ref) | set(other))
        print('%s:' % path)
        for cpu in cpus:
            for line in compare(ref, other, cpu, o.context)[1]:
                print('  ' + line)
    return 0


if __name__ == '__main__':
    sys.exit(main())
