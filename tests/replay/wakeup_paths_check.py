#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks the output of `wakeup_paths.py --ahead --cpu-bins MS` on replay dumps (ctest
replay_wakeup_paths_ahead): every input has both tables; in the --ahead table each class's
mean time by what ran (early, group, other, idle) adds up to its mean wait (a dump's sample is
its switch-in minus its waking, so the wait is covered exactly, to the 0.1 us printed), and at
least one class has samples; each --cpu-bins cell (group / other / idle %) adds up to 100 (to
the rounding of three shares).  Usage: wakeup_paths_check.py OUTPUT."""
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    errs = []
    parts = re.split(r'^(?=\S.*: \d+ samples, )', text, flags=re.M)
    parts = [p for p in parts if re.match(r'\S.*: \d+ samples, ', p)]
    if not parts:
        errs.append('no input summarised')
    for p in parts:
        name = p.split(':')[0]
        m = re.search(r"the band's samples, what the target CPU ran.*?\n.*?\n((?:  \S+ +\d+ .*\n)+)", p)
        if not m:
            errs.append('%s: no --ahead table' % name)
        else:
            rows = m.group(1).splitlines()
            for row in rows:
                f = row.split()
                wait, parts_ = float(f[2]), [float(x) for x in f[3:7]]
                if abs(sum(parts_) - wait) > 0.35:
                    errs.append('%s: --ahead %s: %s adds up to %.1f, not the wait %.1f'
                                % (name, f[0], parts_, sum(parts_), wait))
        m = re.search(r'each CPU by .*\n.*\n((?:  +\d+ +[\d.]+ .*\n?)+)', p)
        if not m:
            errs.append('%s: no --cpu-bins table' % name)
        else:
            for row in m.group(1).splitlines():
                for cell in row.split()[2:]:
                    if cell == '-':
                        continue
                    s = sum(int(x) for x in cell.split('/'))
                    if abs(s - 100) > 2:
                        errs.append('%s: --cpu-bins bin %s: %s adds up to %d' % (name, row.split()[0], cell, s))
    for e in errs[:20]:
        print(e)
    print('%d inputs, %d errors' % (len(parts), len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
