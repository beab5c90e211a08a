#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ctest replay_dump_samples: `replay --dump-samples` and `--handoff-replies nosample`.

Usage: dump_samples_check.py SCHEDREPLAY TRACE WORKDIR P50_PATHS_PY

- The dump's wakeup samples per path are the JSON's wakeup paths, measured and predicted
  (`measured.wakeup_paths.all`, `variants.base.wakeup_paths.all`), and its run-queue waits the
  JSON's run-queue samples; a predicted sample of a wake record (origin wake, standin, race)
  names that record's traced time and latency, the others none; the trace (small-hackbench)
  has stand-ins and hand-off replies.
- `--handoff-replies nosample`: the same events (every count of the JSON equal), no `reply`
  sample, the predicted wakeup samples fewer by the default's `reply` lines, and the note
  counts them.
- p50_paths.py on the default dump: its rank terms add up to the difference it prints.
"""
import json
import os
import re
import subprocess
import sys
from collections import Counter

PATHS = ('idle', 'preempt_local', 'preempt_remote', 'behind_current_local',
         'behind_current_remote', 'queued_local', 'queued_remote', 'moved', 'new', 'unknown')
errs = []


def check(cond, msg):
    if not cond:
        errs.append(msg)


def run(sr, trace, dump, extra):
    p = subprocess.run([sr, 'replay', '--json', '--dump-samples', dump] + extra + [trace],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, 'replay %s: exit %d: %s' % (extra, p.returncode, p.stderr))
    rows = []
    with open(dump) as f:
        head = f.readline()
        check(head.startswith('# side\tkind\tpid'), 'no header line: %r' % head)
        for line in f:
            c = line.rstrip('\n').split('\t')
            check(len(c) == 14, 'a line of %d fields: %r' % (len(c), line))
            rows.append(c)
    return json.loads(p.stdout), rows


def main():
    sr, trace, work, tool = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    d0 = os.path.join(work, 'default.samples')
    d1 = os.path.join(work, 'nosample.samples')
    j0, r0 = run(sr, trace, d0, [])
    j1, r1 = run(sr, trace, d1, ['--handoff-replies', 'nosample'])

    for side, paths, rq in (('measured', j0['measured']['wakeup_paths']['all'],
                             j0['measured']['runqueue_wait_us']['all']),
                            ('predicted', j0['variants']['base']['wakeup_paths']['all'],
                             j0['variants']['base']['runqueue_wait_us']['all'])):
        got = Counter(c[8] for c in r0 if c[0] == side and c[1] == 'wakeup')
        for k in PATHS:
            check(got[k] == paths[k], '%s %s: %d in the dump, %d in the JSON' %
                  (side, k, got[k], paths[k]))
        nrq = sum(1 for c in r0 if c[0] == side and c[1] == 'runq')
        check(nrq == rq['samples'], '%s run-queue waits: %d in the dump, %d in the JSON'
              % (side, nrq, rq['samples']))
    orig = Counter(c[9] for c in r0 if c[0] == 'predicted' and c[1] == 'wakeup')
    for o in ('wake', 'standin', 'reply'):
        check(orig[o] > 0, 'no predicted sample of origin %s: %s' % (o, dict(orig)))
    for c in r0:
        rec = c[0] == 'predicted' and c[1] == 'wakeup' and c[9] in ('wake', 'standin', 'race')
        check((c[10] != '-' and c[11] != '-') == rec,
              'trace record fields %s/%s on a %s %s sample of origin %s' %
              (c[10], c[11], c[0], c[1], c[9]))
        if c[0] == 'measured' or c[1] == 'runq':
            check(c[9] == '-', 'origin %s on a %s %s sample' % (c[9], c[0], c[1]))

    # --handoff-replies nosample: the same run, the replies' samples not counted
    check(j0['variants']['base']['counts'] == j1['variants']['base']['counts'],
          '--handoff-replies nosample changed the counts')
    o1 = Counter(c[9] for c in r1 if c[0] == 'predicted' and c[1] == 'wakeup')
    check(o1['reply'] == 0, '%d reply samples under nosample' % o1['reply'])
    n0 = j0['variants']['base']['wakeup_paths']['all']['samples']
    n1 = j1['variants']['base']['wakeup_paths']['all']['samples']
    check(n1 == n0 - orig['reply'], 'nosample: %d predicted samples, want %d - %d' %
          (n1, n0, orig['reply']))
    muted = [a['count'] for a in j1['variants']['base']['simulation']['approximations']
             if a['what'].startswith('wakeup latency samples not counted: the wakeups of those '
                                     'hand-off waits')]
    check(muted == [orig['reply']], 'the note of the muted replies: %s, want [%d]' %
          (muted, orig['reply']))

    # p50_paths.py's decomposition adds up
    p = subprocess.run([sys.executable, tool, trace, '--samples', d0], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, 'p50_paths.py: exit %d: %s' % (p.returncode, p.stderr))
    m = re.search(r'predicted [\d.]+ % \(([+-][\d.]+) points\)', p.stdout)
    s = re.search(r'^  sum +([+-][\d.]+)$', p.stdout, re.M)
    check(m and s and abs(float(m.group(1)) - float(s.group(1))) <= 0.15,
          'p50_paths.py: rank terms sum to %s, the difference is %s' %
          (s and s.group(1), m and m.group(1)))
    for e in errs:
        print('FAIL:', e)
    print('%d predicted samples (%s), %d errors' % (n0, dict(orig), len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
