#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks `replay --json`'s wakeup paths (docs/replay.md, "Wakeup paths") against
wakeup_paths.py's classes of the same samples (ctest replay_wakeup_paths): the measured side's
counts against GOLDEN, and against wakeup_paths.py on the trace's `trace-cmd report` text
(--trace-paths); the predicted side (the run named base) against wakeup_paths.py on the run's
--dump-events file (--dump-paths).  wakeup_paths.py's classes map onto the machine's: new:* ->
new, queued_behind_1|2+_L -> queued_L; its idle+queued (no local/remote) goes to either queued
class, so each queued class may exceed the script's by at most its idle+queued count.
Usage: wakeup_paths_golden.py JSON --golden 'idle=3 preempt_local=95 ...' [--trace-paths F]
[--dump-paths F]."""
import argparse
import json
import re
import sys

CLASSES = ('idle', 'preempt_local', 'preempt_remote', 'behind_current_local',
           'behind_current_remote', 'queued_local', 'queued_remote', 'moved', 'new', 'unknown')


def script_counts(path):
    """wakeup_paths.py's path table of one input, mapped onto CLASSES (+ 'idle+queued')."""
    c = dict.fromkeys(CLASSES + ('idle+queued',), 0)
    rows = 0
    for line in open(path):
        m = re.match(r'  (\S+) +(\d+) +\d+ ', line)
        if not m or m.group(1) == 'path':
            continue
        k, n = m.group(1), int(m.group(2))
        if k.startswith('new:'):
            k = 'new'
        elif k.startswith('queued_behind_'):
            k = 'queued_' + k.rsplit('_', 1)[1]
        if k not in c:
            raise SystemExit('%s: unknown class %s' % (path, k))
        c[k] += n
        rows += 1
    if not rows:
        raise SystemExit('%s: no path table' % path)
    return c


def compare(errs, what, got, s):
    for k in CLASSES:
        want = s[k]
        if k.startswith('queued_'):
            if not want <= got[k] <= want + s['idle+queued']:
                errs.append('%s: %s %d, wakeup_paths.py %d (+ idle+queued %d)'
                            % (what, k, got[k], want, s['idle+queued']))
        elif got[k] != want:
            errs.append('%s: %s %d, wakeup_paths.py %d' % (what, k, got[k], want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('json')
    ap.add_argument('--golden', required=True)
    ap.add_argument('--trace-paths')
    ap.add_argument('--dump-paths')
    a = ap.parse_args()
    j = json.load(open(a.json))
    meas = j['measured']['wakeup_paths']['all']
    pred = j['variants']['base']['wakeup_paths']['all']
    errs = []
    for p, what in ((meas, 'measured'), (pred, 'base')):
        if p['samples'] != sum(p[k] for k in CLASSES):
            errs.append('%s: samples %d, classes add up to %d'
                        % (what, p['samples'], sum(p[k] for k in CLASSES)))
        if p['local_busy'] != p['preempt_local'] + p['behind_current_local'] + p['queued_local']:
            errs.append('%s: local_busy %d' % (what, p['local_busy']))
    for kv in a.golden.split():
        k, v = kv.split('=')
        if meas.get(k) != int(v):
            errs.append('measured: %s %s, golden %s' % (k, meas.get(k), v))
    if a.trace_paths:
        compare(errs, 'measured', meas, script_counts(a.trace_paths))
    if a.dump_paths:
        compare(errs, 'base', pred, script_counts(a.dump_paths))
    pts = j['relative_errors']['base']['wakeup_paths_points']['all']['preempt_local']
    want = round((pred['preempt_local'] / pred['samples'] -
                  meas['preempt_local'] / meas['samples']) * 100, 2)
    if abs(pts - want) > 0.011:
        errs.append('errors: preempt_local %s points, expected %s' % (pts, want))
    for e in errs:
        print(e)
    print('%d errors' % len(errs))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
