#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The captured affinity on a bundled capture: pipe-pinned-run4 under --placement model.

    affinity_run4.py --bin SCHEDREPLAY TRACE

TRACE (traces/pipe-pinned-run4.dat) was captured with the sched_setaffinity()
events and each thread's Cpus_allowed_list (docs/capture.md): `taskset -c 1`
pins perf's pipe pair after `sh` forked it on CPU 0.  Under --placement model
the replay must pin the pair from that call (--affinity captured, the
default): sched_switch within 5 % of measured (measured +0.0 %, 5 Dec 2026),
the affinity fact line naming the call; with --affinity inferred (the rule of
traces without the data) the pair is free to move and the switches are far off
(measured +96.5 %), so the check fails if the captured masks are not used.
Under trace placement the two agree (placement is the trace's).
"""
import argparse, json, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--bin", required=True)
ap.add_argument("trace")
a = ap.parse_args()

def switch_err(*opts):
    out = subprocess.run([a.bin, "replay", "--json", *opts, a.trace],
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit("replay %s: exit %d: %s" % (" ".join(opts), out.returncode, out.stderr.strip()))
    d = json.loads(out.stdout)
    m = d["measured"]["counts"]["sched_switch"]
    p = d["variants"]["base"]["counts"]["sched_switch"]
    return (p - m) / m

bad = 0
def expect(what, ok):
    global bad
    bad += not ok
    print("%s: %s" % (what, "ok" if ok else "MISS"))

cap = switch_err("--placement", "model")
inf = switch_err("--placement", "model", "--affinity", "inferred")
print("placement model: sched_switch %+.1f %% captured, %+.1f %% inferred" % (100 * cap, 100 * inf))
expect("captured masks: sched_switch within 5 %", abs(cap) <= 0.05)
expect("inferred: the pair moves (over +50 %)", inf > 0.5)
tr_cap = switch_err()
tr_inf = switch_err("--affinity", "inferred")
expect("trace placement: the same either way", tr_cap == tr_inf)
text = subprocess.run([a.bin, "replay", "--placement", "model", a.trace],
                      capture_output=True, text=True, timeout=600).stdout
expect("the affinity: fact line names the call",
       any(l.startswith("affinity:") and "1 sched_setaffinity() calls" in l
           for l in text.splitlines()))
sys.exit(1 if bad else 0)
