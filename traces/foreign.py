#!/usr/bin/env python3
"""How clean is a capture? For each TRACE.dat (with its TRACE.dat.json sidecar)
print its context switches split by what was switched out: the workload (the
process trees of the sidecar's group pids, followed through sched_process_fork),
idle, kernel threads, the capture's own streaming threads, and foreign
userspace (everything else: other people's builds and tests), with the share
of the latter and its busiest comms.

usage: traces/foreign.py [--add-idle-switches] TRACE.dat...     (needs trace-cmd)

--add-idle-switches writes trace.idle_switches into sidecars that predate it
(captures made before the capture recorded it): per CPU the sched_switch
records from idle (prev_pid 0) and to idle (next_pid 0), and
idle_exit_untraced = to_idle >= 10 and 2 * from_idle < to_idle, the same rule
as capture/capture.c.
"""
import collections
import json
import re
import subprocess
import sys

KTHREADS = ('kworker', 'ksoftirqd', 'rcu', 'migration', 'kdamond', 'cpuhp', 'idle_inject',
            'irq/', 'kcompactd', 'kswapd', 'khugepaged', 'jbd2', 'kthreadd', 'watchdog')
FORK = re.compile(r'sched_process_fork:\s+comm=\S+ pid=(\d+) child_comm=\S+ child_pid=(\d+)')
SWITCH = re.compile(r'sched_switch:\s+(.*):(\d+) \[\d+\] \S+ ==>')
NEXT_IDLE = re.compile(r'==> \S+:0 \[')
CPU = re.compile(r'\[(\d+)\]\s+\d+\.\d+:')

add_idle = '--add-idle-switches' in sys.argv
for path in [a for a in sys.argv[1:] if not a.startswith('--')]:
    sc = json.load(open(path + '.json'))
    ncpu = sc['trace']['nr_cpus']
    from_idle = [0] * ncpu
    to_idle = [0] * ncpu
    tree = {g['pid'] for g in sc['groups']}
    if sc['command']:
        tree.add(sc['command']['pid'])
    # kernel threads have no autogroup
    kthreads = {t['pid'] for t in sc['tasks_at_start'] if 'autogroup' not in t}
    report = subprocess.run(['trace-cmd', 'report', path], capture_output=True, text=True,
                            check=True).stdout
    other = collections.Counter()
    total = ours = idle = kern = cap = 0
    for line in report.splitlines():
        m = FORK.search(line)
        if m and int(m.group(1)) in tree:
            tree.add(int(m.group(2)))
        m = SWITCH.search(line)
        if not m:
            continue
        comm, pid = m.group(1), int(m.group(2))
        cpu = int(CPU.search(line).group(1))
        if pid == 0:
            from_idle[cpu] += 1
        if NEXT_IDLE.search(line):
            to_idle[cpu] += 1
        total += 1
        if pid in tree:
            ours += 1
        elif pid == 0:
            idle += 1
        elif pid in kthreads or comm.startswith(KTHREADS):
            kern += 1
        elif comm.startswith('schedreplay'):
            cap += 1
        else:
            other[comm] += 1
    foreign = sum(other.values())
    print(f"{path}: switches {total}, workload {ours}, idle {idle}, kernel threads {kern}, "
          f"capture {cap}, foreign userspace {foreign} ({100 * foreign / max(total, 1):.1f}%): "
          f"{other.most_common(5)}")
    idle = [{'cpu': c, 'from_idle': from_idle[c], 'to_idle': to_idle[c],
             'idle_exit_untraced': to_idle[c] >= 10 and 2 * from_idle[c] < to_idle[c]}
            for c in range(ncpu)]
    print(f"  idle switches: {idle}")
    if add_idle and 'idle_switches' not in sc['trace']:
        sc['trace']['idle_switches'] = idle
        with open(path + '.json', 'w') as f:
            json.dump(sc, f, indent=1, ensure_ascii=True)
            f.write('\n')
