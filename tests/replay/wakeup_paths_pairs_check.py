#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks the output of `wakeup_paths.py --pairs X TRACE DUMP...` (ctest replay_wakeup_paths_pairs):
for every dump, the pairs by wake record plus the dump's unpaired samples are the dump's samples,
the pairs plus the trace's unpaired samples are the trace's; the class table's pairs add up to the
pairs; at least MIN_SHARE of the trace's samples are paired (the join by `replay_op: wake` lines
works); the waker's CPU time line is there with local pairs compared.
Usage: wakeup_paths_pairs_check.py OUTPUT DUMPS MIN_SHARE."""
import re
import sys


def main():
    text, ndumps, min_share = open(sys.argv[1]).read(), int(sys.argv[2]), float(sys.argv[3])
    errs = []
    parts = re.split(r'^(?=  pairs by wake record: )', text, flags=re.M)[1:]
    if len(parts) != ndumps:
        errs.append('%d pair sections, not %d' % (len(parts), ndumps))
    for i, p in enumerate(parts):
        m = re.match(r"  pairs by wake record: (\d+) of the dump's (\d+) samples, of the trace's (\d+)", p)
        npair, nd, nt = (int(x) for x in m.groups())
        cells = re.findall(r'^    \S+ +\S+(?: early)? +(\d+) +(\d+) +(\d+) +[-+][\d.]+$', p, flags=re.M)
        if sum(int(c[0]) for c in cells) != npair:
            errs.append('dump %d: class table adds up to %d, not %d pairs'
                        % (i + 1, sum(int(c[0]) for c in cells), npair))
        m1 = re.search(r'dump samples without a trace sample: (\d+)', p)
        m2 = re.search(r'trace samples without a dump sample: (\d+)', p)
        if not m1 or not m2:
            errs.append('dump %d: no unpaired counts' % (i + 1))
            continue
        if npair + int(m1.group(1)) != nd:
            errs.append('dump %d: %d pairs + %s unpaired != %d dump samples' % (i + 1, npair, m1.group(1), nd))
        if npair + int(m2.group(1)) != nt:
            errs.append('dump %d: %d pairs + %s unpaired != %d trace samples' % (i + 1, npair, m2.group(1), nt))
        if npair < min_share * nt:
            errs.append('dump %d: only %d of %d trace samples paired' % (i + 1, npair, nt))
        m = re.search(r"the waker's CPU time to its next sleep, dump against trace: (.*)", p)
        if not m or 'equal (within 1 us)' not in m.group(1):
            errs.append("dump %d: no waker's CPU time comparison" % (i + 1))
    for e in errs[:20]:
        print(e)
    print('%d dumps, %d errors' % (len(parts), len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
