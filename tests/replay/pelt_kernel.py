#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The model's PELT against the kernel's own values on a bundled capture.

    pelt_kernel.py --bin SCHEDREPLAY TRACE [--limits JSON]

Runs `schedreplay replay --json TRACE` and checks the "pelt_at_end" object
of run "base" (docs/replay.md "PELT at the capture's end"): each thread
asleep at the capture's end whose nr_switches moved only by its traced
switches, the model's se.avg against the kernel's /proc/<pid>/sched.  The
limits (per class and metric: compared at least N threads, median and p95
of |model - kernel| at most, in the kernel's units, 1024 = full) were set
from what the unmodified model measured, with a margin (docs/validation-log.md
"PELT against the kernel's own values"); a shifted decay table in
model/pelt.c fails them.  Prints every figure it checks, exit 1 on a miss.
"""
import argparse
import json
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--limits", required=True,
                    help='{"born": {"compared": N, "util_avg": [MEDIAN, P95], ...}, ...}')
    ap.add_argument("trace")
    a = ap.parse_args()
    limits = json.loads(a.limits)
    out = subprocess.run([a.bin, "replay", "--json", a.trace], capture_output=True, text=True,
                         timeout=600)
    if out.returncode != 0:
        print("replay failed (%d): %s" % (out.returncode, out.stderr.strip()))
        return 1
    pelt = json.loads(out.stdout).get("pelt_at_end", {}).get("base")
    if not pelt or not pelt.get("available"):
        print("no pelt_at_end.base in the output: %s" % (pelt or {}).get("reason"))
        return 1
    bad = 0
    for cls, lim in limits.items():
        got = pelt["abs_error"][cls]
        ok = got["compared"] >= lim["compared"]
        bad += not ok
        print("%-12s compared %d (at least %d)%s" % (cls, got["compared"], lim["compared"],
                                                      "" if ok else "  MISS"))
        for metric, (med, p95) in ((k, v) for k, v in lim.items() if k != "compared"):
            s = got[metric]
            if s is None:
                print("%-12s %-12s none compared  MISS" % (cls, metric))
                bad += 1
                continue
            ok = s["median"] <= med and s["p95"] <= p95
            bad += not ok
            print("%-12s %-12s median %.1f (<= %g)  p95 %.1f (<= %g)  max %.1f  "
                  "within 1%% %.0f%%%s" % (cls, metric, s["median"], med, s["p95"], p95,
                                           s["max"], 100 * s["within_1pct"],
                                           "" if ok else "  MISS"))
    print("counters: %s" % json.dumps(pelt["counters"], sort_keys=True))
    print("FAIL" if bad else "PASS")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
