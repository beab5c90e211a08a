# SPDX-License-Identifier: GPL-2.0
"""The event lines the analysis helpers of this folder read, in one place.

Two text shapes: `trace-cmd report -t` lines (`comm-pid [cpu] sec.nsec: event: fields`) and
`schedreplay replay --dump-events` lines (`[cpu] sec.nsec: event: fields`, no current task).
events() reads either into (ts ns, line number, cpu, current pid or None, event, fields), sorted
by time; lines() in the file's order.  Not a test (wakeup_paths.py, tail_waits.py, and through
forkexec_cycles.py's and group_split.py's parse() the scripts built on them).
"""
import re

REP = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\w+):\s*(.*)$')
DUMP = re.compile(r'^\[(\d+)\]\s+(\d+)\.(\d+):\s+(\w+):\s*(.*)$')
SWITCH = re.compile(r'(\S.*?):(\d+) \[\d+\] (\S+) ==> (\S.*?):(\d+) \[')
# the same with both prios: prev comm, pid, prio, state, next comm, pid, prio
SWITCH_PRIO = re.compile(r'(\S.*?):(\d+) \[(\d+)\] (\S+) ==> (\S.*?):(\d+) \[(\d+)\]')
# sched_wakeup's body as trace-cmd and the replay's dump print it: comm, pid, prio, target CPU
WAKEUP_CPU = re.compile(r'(\S.*?):(\d+) \[(\d+)\] (?:success=\d+ )?CPU:(\d+)')
PID = re.compile(r'(?:pid=(\d+)|:(\d+) \[\d+\])')
TCPU = re.compile(r'CPU:(\d+)|target_cpu=(\d+)')


def ns(sec, frac):
    return int(sec) * 1000000000 + int(frac.ljust(9, '0'))


def lines(path):
    """(ts, line, cpu, current pid shown by the line or None, event, fields) of each event
    line, in the file's order (forkexec_cycles.parse(), group_split.parse())."""
    with open(path, errors='replace') as f:
        for i, line in enumerate(f):
            m = None if line.startswith('[') else REP.match(line)
            if m:
                yield (ns(m.group(4), m.group(5)), i, int(m.group(3)),
                       int(m.group(2)), m.group(6), m.group(7))
                continue
            m = DUMP.match(line)
            if m:
                yield (ns(m.group(2), m.group(3)), i, int(m.group(1)),
                       None, m.group(4), m.group(5))


def events(path):
    """lines(), by time."""
    return sorted(lines(path))


def first(m):
    """The first group of @m that matched, as an int (PID, TCPU)."""
    return int(next(g for g in m.groups() if g is not None))
