#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check long_waits.py's and group_stalls.py's accounting on a hand-built dump (ctest
replay_group_waits).  Two CPUs, three pipe tasks and two socket tasks:
  CPU 0: socket 200 runs from 0; pipe 100 woken there at 1 ms; socket 201 woken there at 2 ms;
         200 blocks at 3 ms (201 runs); 201 is preempted by 100 at 9 ms.
  CPU 1: pipe 101 woken at 0.5 ms, switched in at 0.6 ms; pipe 102 woken at 1 ms; 101 blocks
         at 4 ms, 102 runs.
Expected: 100 waits 8 ms, its group 0 % of CPU 0 (group-starved), pipe runnable 1.0 and socket
(1 + 2 + 6) / 8 = 1.125 on average; 102 waits 3 ms behind its own group (100 %), pipe runnable
2.0; one pipe stall on CPU 0 of 8 ms with the socket group's churn 2 (201's wakeup, 200's
block).  Prints 'N checks, E errors'.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import group_stalls  # noqa: E402
import long_waits  # noqa: E402

EVENTS = """\
[000] 0.000000000: sched_switch: swapper/0:0 [120] R ==> hackbench:200 [120]
[001] 0.000500000: sched_waking: hackbench:101 [120] CPU:001
[001] 0.000500000: sched_wakeup: hackbench:101 [120] CPU:001
[001] 0.000600000: sched_switch: swapper/1:0 [120] R ==> hackbench:101 [120]
[001] 0.001000000: sched_waking: hackbench:100 [120] CPU:000
[000] 0.001000000: sched_wakeup: hackbench:100 [120] CPU:000
[001] 0.001000000: sched_waking: hackbench:102 [120] CPU:001
[001] 0.001000000: sched_wakeup: hackbench:102 [120] CPU:001
[001] 0.002000000: sched_waking: hackbench:201 [120] CPU:000
[000] 0.002000000: sched_wakeup: hackbench:201 [120] CPU:000
[000] 0.003000000: sched_switch: hackbench:200 [120] S ==> hackbench:201 [120]
[001] 0.004000000: sched_switch: hackbench:101 [120] S ==> hackbench:102 [120]
[000] 0.009000000: sched_switch: hackbench:201 [120] R ==> hackbench:100 [120]
"""


def main():
    grp = {100: 'pipe', 101: 'pipe', 102: 'pipe', 200: 'socket', 201: 'socket'}
    errs, n = [], 0

    def check(cond, what):
        nonlocal n
        n += 1
        if not cond:
            errs.append(what)

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'x.dump')
        with open(path, 'w') as f:
            f.write(EVENTS)
        waits = {w['pid']: w for w in long_waits.analyse(path, grp)}
        w = waits.get(100)
        check(w is not None and w['lat'] == 8000000 and w['where'] == 0,
              '100: wait %r' % ((w['lat'], w['where']) if w else None,))
        if w:
            tot = sum(w['occ'].values())
            check(tot == 8000000 and w['occ']['pipe'] == 0 and w['occ']['socket'] == tot,
                  '100: CPU time %s' % dict(w['occ']))
            check(w['rqi']['pipe'] == 8000000 and w['rqi']['socket'] == 9000000,
                  '100: runnable integrals %s' % dict(w['rqi']))
        w = waits.get(102)
        check(w is not None and w['lat'] == 3000000 and w['where'] == 1
              and w['occ']['pipe'] == 3000000 and w['rqi']['pipe'] == 6000000,
              '102: %r' % ((w['lat'], dict(w['occ']), dict(w['rqi'])) if w else None,))
        w = waits.get(101)
        check(w is not None and w['lat'] == 100000, '101: %s' % (w and w['lat']))
        out = group_stalls.stalls(path, grp, ['pipe', 'socket'])
        long_ = [s for s in out if s['t1'] - s['t0'] >= 5000000]
        check(len(long_) == 1, 'stalls >= 5 ms: %d' % len(long_))
        if long_:
            s = long_[0]
            check(s['cpu'] == 0 and s['grp'] == 'pipe' and s['t0'] == 1000000
                  and s['t1'] == 9000000, 'stall %r' % (s,))
            check(s['rqi']['pipe'] == 8000000 and s['rqi']['socket'] == 9000000,
                  'stall runnable %s' % dict(s['rqi']))
            check(sum(s['churn'].values()) == 2 and s['churn']['socket'] == 2,
                  'stall churn %s' % dict(s['churn']))
    for e in errs:
        print('error: ' + e)
    print('%d checks, %d errors' % (n, len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
