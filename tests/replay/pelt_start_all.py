#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""--initial-pelt all against attached on edited copies of a PELT capture.

    pelt_start_all.py --bin SCHEDREPLAY --work DIR TRACE

TRACE is traces/pelt-root.dat (its sidecar beside it): the capture process
(the one thread its start read has runnable, R on CPU 1, where the trace
starts it running) and the `sh` forked beside it on CPU 1, whose initial util
post_init_entity_util_avg() takes from that queue (docs/replay.md "The PELT of
the tasks alive at the start").  Each case writes an edited sidecar next to a
link to the trace in DIR and compares the model's end values of the threads
forked in the trace ("pelt_at_end", run base):

  unseen  a thread of the start read the trace never shows given a large
          blocked load on CPU 1 read just before the trace: `all` holds it on
          that queue, so the forks there start otherwise; `attached` does not
          (the same as on the unedited sidecar); that thread put by --cgroup-map
          in a cgroup no traced task uses is not held, and with no
          tasks_at_start entry it is held in the root group (the traced
          tasks' rule, wl_initial_cgroup());
  queued  (the capture process's read moved 20 ms earlier in both files) a
          thread added to the read, runnable on CPU 1 with a later exec_start,
          makes the capture process queued, not current, at the read: `all`
          ages it without util, so the forks on CPU 1 start otherwise;
          `attached` ages it running either way;
  moved   the capture process read on CPU 0 (its last_update_time moved by
          the two CPUs' clock offsets, so it is the same trace time): `all`
          ages it from the read's CPU clock as before and attaches it on CPU 1,
          the forks end within a unit of the unmoved read's; `attached` takes
          the guess for it.

Each fails if `all` does not do what it names (the forks' values equal
without the edit's effect).  Exit 1 on a failure.
"""
import argparse
import copy
import json
import os
import subprocess
import sys

DIVIDER = 47742 - 1024   # LOAD_AVG_MAX - 1024, plus period_contrib


def run(bin_, trace, mode, extra=()):
    out = subprocess.run([bin_, "replay", "--json", "--initial-pelt", mode, *extra, trace],
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise SystemExit("replay %s %s failed (%d): %s" % (mode, trace, out.returncode,
                                                          out.stderr.strip()))
    d = json.loads(out.stdout)
    pelt = d["pelt_at_end"]["base"]
    notes = {a["what"]: a["count"] for a in d["variants"]["base"]["simulation"]["approximations"]}
    born = {t["pid"]: t["model"] for t in pelt["threads"] if t["class"] == "born"}
    offs = {c["cpu"]: c["median_ns"] for c in pelt["clock_offset"]}
    return born, notes, offs


def note(notes, start):
    return sum(c for w, c in notes.items() if w.startswith(start))


def write_case(work, trace, name, sc):
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    link = os.path.join(d, os.path.basename(trace))
    if not os.path.lexists(link):
        os.symlink(os.path.abspath(trace), link)
    sc = copy.deepcopy(sc)
    sc["trace"]["file"] = os.path.basename(trace)
    with open(link + ".json", "w") as f:
        json.dump(sc, f)
    return link


def entry(sc, pid):
    return next(t for t in sc["sched_at_start"]["tasks"] if t["pid"] == pid)


def set_avg(t, util, load, lut):
    div = DIVIDER + ((lut >> 10) & 1023)
    t.update(util_avg=util, runnable_avg=util, load_avg=load, util_sum=util * div,
             runnable_sum=util * div, load_sum=load * div // 1024, last_update_time=lut)


def unseen_groups(a, tr, u, base, pid, check):
    """The unseen thread @pid of sidecar @u (trace @tr, notes @base of `all`) in its group
    by the traced tasks' rule (wl_initial_cgroup())."""
    held = note(base, "threads of the capture's start read the trace never shows")
    nogroup = note(base, "... NOT held: their cgroup or autogroup")
    # mapped: --cgroup-map puts it in a cgroup no traced task uses: not held
    cmap = os.path.join(a.work, "unseen-map.txt")
    with open(cmap, "w") as f:
        f.write("%d /elsewhere\n" % pid)
    _, n, _ = run(a.bin, tr, "all", ("--cgroup-map", cmap))
    check(note(n, "threads of the capture's start read the trace never shows") == held - 1 and
          note(n, "... NOT held: their cgroup or autogroup") == nogroup + 1,
          "mapped: a --cgroup-map line moves the unseen thread out of the trace's groups")
    # no entry: no tasks_at_start entry, so the root group, as a traced task's
    v = copy.deepcopy(u)
    v["tasks_at_start"] = [t for t in v["tasks_at_start"] if t["pid"] != pid]
    _, n, _ = run(a.bin, write_case(a.work, a.trace, "unlisted", v), "all")
    check(note(n, "threads of the capture's start read the trace never shows") == held and
          note(n, "... NOT held: their cgroup or autogroup") == nogroup,
          "unlisted: an unseen thread with no tasks_at_start entry is held in the root group")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("trace")
    a = ap.parse_args()
    with open(a.trace + ".json") as f:
        sc = json.load(f)
    bad = 0

    def check(ok, what):
        nonlocal bad
        bad += not ok
        print("%s  %s" % ("ok  " if ok else "FAIL", what))

    cap = sc["capture"]["pid"]
    me = entry(sc, cap)
    check(me["state"] == "R" and me["cpu"] == 1, "the capture process %d read R on CPU 1" % cap)
    orig_att, _, offs = run(a.bin, a.trace, "attached")
    orig_all, notes, _ = run(a.bin, a.trace, "all")
    held = note(notes, "threads of the capture's start read the trace never shows")
    check(held > 0, "all holds the start read's threads the trace never shows (%d)" % held)

    # unseen: the sh that started the capture (autogroup of the trace, never in it)
    shown = set(orig_att) | {t["pid"] for t in sc["tasks_at_start"]
                             if t["pid"] == cap}
    ag = next(t.get("autogroup") for t in sc["tasks_at_start"] if t["pid"] == cap)
    cand = [t for t in sc["tasks_at_start"]
            if t.get("autogroup") == ag and t["pid"] not in shown and t["comm"] == "sh"]
    check(bool(cand), "an sh of autogroup-%s the trace never shows" % ag)
    if cand:
        u = copy.deepcopy(sc)
        t = entry(u, cand[0]["pid"])
        t.update(state="S", cpu=1)
        set_avg(t, 800, 800, me["last_update_time"] - 100000)
        tr = write_case(a.work, a.trace, "unseen", u)
        att, _, _ = run(a.bin, tr, "attached")
        al, un, _ = run(a.bin, tr, "all")
        check(att == orig_att, "unseen: attached ignores that thread")
        diff = [p for p in al if al[p] != orig_all[p]]
        check(bool(diff), "unseen: all starts forks otherwise on its queue (pids %s)" % diff)
        unseen_groups(a, tr, u, un, cand[0]["pid"], check)

    # queued: the capture process read 20 ms earlier in both
    q0 = copy.deepcopy(sc)
    entry(q0, cap)["last_update_time"] -= 20000000
    q1 = copy.deepcopy(q0)
    other = copy.deepcopy(entry(q1, cap))
    other.update(pid=max(t["pid"] for t in q1["sched_at_start"]["tasks"]) + 1000, tgid=0,
                 exec_start_ns=other["exec_start_ns"] + 1000000)
    other["tgid"] = other["pid"]
    q1["sched_at_start"]["tasks"].append(other)
    t0, t1 = write_case(a.work, a.trace, "queued0", q0), write_case(a.work, a.trace, "queued1", q1)
    a0, _, _ = run(a.bin, t0, "attached")
    a1, _, _ = run(a.bin, t1, "attached")
    l0, n0, _ = run(a.bin, t0, "all")
    l1, n1, _ = run(a.bin, t1, "all")
    qn = note(n1, "tasks runnable but not running at the capture's start read")
    check(qn == 1 and note(n0, "tasks runnable but not running") == 0,
          "queued: all counts the capture process queued at the read (%d)" % qn)
    check(a0 == a1, "queued: attached ages it running either way")
    diff = [p for p in l1 if l1[p] != l0[p]]
    check(bool(diff), "queued: all ages it without util, forks on CPU 1 start otherwise "
          "(pids %s)" % diff)

    # moved: q0's read on CPU 0, its last_update_time on CPU 0's clock
    if 0 in offs and 1 in offs:
        m = copy.deepcopy(q0)
        t = entry(m, cap)
        t["cpu"] = 0
        t["last_update_time"] += offs[1] - offs[0]
        tm = write_case(a.work, a.trace, "moved", m)
        am, _, _ = run(a.bin, tm, "attached")
        lm, nm, _ = run(a.bin, tm, "all")
        mn = note(nm, "tasks read on another CPU than the one the trace starts them on")
        check(mn == 1, "moved: all counts the capture process read on another CPU (%d)" % mn)
        far = [p for p in lm if any(abs(x - y) > 1 for x, y in zip(lm[p], l0[p]))]
        check(not far, "moved: all ends every fork within 1 of the unmoved read's (off: %s)"
              % far)
        check(any(am[p] != l0[p] for p in am), "moved: attached takes the guess for it")
    else:
        check(False, "moved: both CPUs' clock offsets in the output")
    print("FAIL" if bad else "PASS")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
