#!/usr/bin/env python3
"""`schedreplay report` with the capture sidecar (TRACE.json).

    sidecar.py SCHEDREPLAY TRACES_DIR WORK_DIR

1. Hand-made sidecars next to a copy of traces/small-hackbench.dat, whose
   buffer has one cgroup_attach_task (hierarchy 1, `sh` pid 3170 into
   /srfix, then exec hackbench): the seed, the cgroup-v1 path rule, the v2
   hierarchy 0, --cgroup-root (one the trace lacks: exit 2), --sidecar, --no-sidecar, a sidecar of another
   trace and a broken one.
2. The capture helper's traces (TRACES_DIR/*.dat with *.dat.json): the
   sidecar is used, seeds tasks, every sample is in a cgroup group, and each
   capture group with samples has them under its cgroup.
3. A live capture (root and tracefs; skipped otherwise) of two cpu-cgroup
   groups, one of which moves itself into a sub-cgroup it creates: the
   samples of both groups and of the sub-cgroup are found under their paths.

Exit 0 pass, 1 fail (each failure printed with both sides).
"""
import json
import os
import shutil
import subprocess
import sys

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def check(what, got, want):
    if got != want:
        fail(f"{what}: got {got!r}, expected {want!r}")


def report(sr, *args, expect_rc=0):
    p = subprocess.run([sr, "report", *args], capture_output=True, text=True, timeout=300)
    if p.returncode != expect_rc:
        fail(f"report {' '.join(args)}: exit {p.returncode}, expected {expect_rc}; "
             f"stderr: {p.stderr.strip()}")
    return p


def report_json(sr, *args):
    p = report(sr, "--json", "--by", "cgroup", *args)
    try:
        return json.loads(p.stdout)
    except ValueError:
        fail(f"report {' '.join(args)}: no JSON")
        return None


def by_cgroup(d):
    return {k: v["samples"] for k, v in d["wakeup_latency_us"]["by_cgroup"].items()}


def sidecar_doc(version, cgroups, tasks, trace_id=None, groups=()):
    doc = {
        "schema": "schedreplay-sidecar", "schema_version": 1,
        "trace": {"file": "t.dat"},
        "kernel": {"release": "6.18.0"},
        "cpus": {"topology": [{"cpu": 0}, {"cpu": 1}]},
        "cgroup": {"version": version, "groups": [{"path": p} for p in cgroups]},
        "tasks_at_start": [{"pid": p, "tgid": p, "comm": "x", "cgroup": c} for p, c in tasks],
        "groups": [{"name": n, "cgroup": c, "pid": 1} for n, c in groups],
    }
    if trace_id:
        doc["trace"]["trace_id"] = trace_id
    return doc


def handmade(sr, traces, work):
    t = os.path.join(work, "hb.dat")
    shutil.copyfile(os.path.join(traces, "small-hackbench.dat"), t)
    sc = t + ".json"
    base = report_json(sr, "--no-sidecar", t)
    if not base:
        return
    check("--no-sidecar: sidecar", base["trace"]["sidecar"], None)
    check("--no-sidecar: moves followed (any hierarchy)",
          base["latency_definition"]["cgroup_moves_followed"], 1)
    moved = by_cgroup(base).get("/srfix", 0)
    if moved == 0:
        fail("the fixture's move into /srfix gives no samples without a sidecar")
    tid = base["trace"]["trace_id"]

    def write(doc):
        with open(sc, "w") as f:
            json.dump(doc, f)

    # v1: /srfix is a cpu cgroup of the sidecar; pid 1 and a thread seeded
    write(sidecar_doc(1, ["/", "/srfix"], [(1, "/"), (15535, "/")], tid))
    d = report_json(sr, t)
    if d:
        check("v1 sidecar used", d["trace"]["sidecar"] and d["trace"]["sidecar"]["path"], sc)
        check("v1 trace id checked", d["trace"]["sidecar"]["trace_id_checked"], True)
        check("v1 tasks seeded", d["trace"]["sidecar"]["tasks_seeded"], 2)
        check("v1 moves followed", d["latency_definition"]["cgroup_moves_followed"], 1)
        check("v1 /srfix samples", by_cgroup(d).get("/srfix", 0), moved)
        check("v1 samples all in groups", sum(by_cgroup(d).values()),
              d["wakeup_latency_us"]["all"]["samples"])
    txt = report(sr, t).stdout
    if f"sidecar: {sc} (2 tasks' cgroups, trace id matches)" not in txt:
        fail("text output does not name the sidecar: " + txt[:400])

    # v1 whose cpu hierarchy lacks /srfix: a move of another hierarchy, ignored
    write(sidecar_doc(1, ["/"], [(1, "/")], tid))
    d = report_json(sr, t)
    if d:
        check("v1 without /srfix: moves ignored", d["latency_definition"]["cgroup_moves_ignored"], 1)
        check("v1 without /srfix: /srfix samples", by_cgroup(d).get("/srfix", 0), 0)
    # ... unless it is below one of the capture's groups
    write(sidecar_doc(1, ["/"], [(1, "/")], tid, groups=[("g", "/srf")]))
    d = report_json(sr, t)
    if d:
        check("v1 /srfix is not below /srf", d["latency_definition"]["cgroup_moves_ignored"], 1)
    write(sidecar_doc(1, ["/"], [(1, "/")], tid, groups=[("g", "/")]))
    d = report_json(sr, t)
    if d:
        check("v1 root group is no prefix rule", d["latency_definition"]["cgroup_moves_ignored"], 1)

    # v2: hierarchy 0 only; the fixture's move is hierarchy 1
    write(sidecar_doc(2, ["/", "/srfix"], [(1, "/")], tid))
    d = report_json(sr, t)
    if d:
        check("v2 moves ignored", d["latency_definition"]["cgroup_moves_ignored"], 1)
        check("v2 policy", d["latency_definition"]["cgroup_attach_policy"],
              "hierarchy 0 (cgroup v2, from the sidecar)")
    d = report_json(sr, "--cgroup-root", "1", t)
    if d:
        check("v2 + --cgroup-root 1 follows", d["latency_definition"]["cgroup_moves_followed"], 1)
    # the sidecar's v2 says hierarchy 0 exists: following it is no error
    d = report_json(sr, "--cgroup-root", "0", t)
    if d:
        check("v2 + --cgroup-root 0 ignores", d["latency_definition"]["cgroup_moves_ignored"], 1)
    # a hierarchy neither the trace nor the sidecar has: one line, exit 2
    # (it followed nothing at exit 0)
    p = report(sr, "--cgroup-root", "99", t, expect_rc=2)
    if "--cgroup-root 99: no cgroup_attach_task" not in p.stderr or \
            "its hierarchies: 1;" not in p.stderr or p.stderr.count("\n") != 1:
        fail("--cgroup-root 99: " + p.stderr)
    p = report(sr, "--no-sidecar", "--cgroup-root", "0", t, expect_rc=2)
    if "in hierarchy 0 (its hierarchies: 1;" not in p.stderr:
        fail("--no-sidecar --cgroup-root 0: " + p.stderr)

    # --sidecar elsewhere; --no-sidecar ignores TRACE.json
    other = os.path.join(work, "other.json")
    write(sidecar_doc(1, ["/", "/srfix"], [(1, "/")], tid))
    shutil.move(sc, other)
    d = report_json(sr, t)
    if d:
        check("no TRACE.json: sidecar", d["trace"]["sidecar"], None)
        check("no TRACE.json: note", d["trace"]["sidecar_note"], f"none ({t}.json not found)")
    d = report_json(sr, "--sidecar", other, t)
    if d:
        check("--sidecar used", d["trace"]["sidecar"]["path"], other)

    # errors: another trace's sidecar, a broken one, a missing --sidecar
    write(sidecar_doc(1, ["/"], [(1, "/")], "0x1234"))
    p = report(sr, t, expect_rc=1)
    if "belongs to another trace" not in p.stderr or p.stderr.count("\n") != 1:
        fail("another trace's sidecar: " + p.stderr)
    with open(sc, "w") as f:
        f.write('{"schema": ')
    p = report(sr, t, expect_rc=1)
    if "sidecar: " + sc not in p.stderr or p.stderr.count("\n") != 1:
        fail("broken sidecar: " + p.stderr)
    report(sr, "--no-sidecar", t)
    p = report(sr, "--sidecar", os.path.join(work, "missing.json"), t, expect_rc=1)
    if "missing.json" not in p.stderr:
        fail("missing --sidecar: " + p.stderr)
    report(sr, "--sidecar", other, "--no-sidecar", t, expect_rc=2)
    os.unlink(sc)
    print("hand-made sidecars: ok" if not failures else "hand-made sidecars: FAILED")


def captured(sr, t):
    """A trace with the sidecar its capture wrote: the groups' samples by cgroup."""
    before = failures
    with open(t + ".json") as f:
        sc = json.load(f)
    d = report_json(sr, "--allow-lost", t)
    if not d:
        return
    s = d["trace"]["sidecar"]
    if not s or s["path"] != t + ".json":
        fail(f"{t}: sidecar not used: {d['trace']['sidecar_note']}")
        return
    if s["tasks_seeded"] == 0:
        fail(f"{t}: no task seeded from {len(sc.get('tasks_at_start', []))} tasks at start")
    groups = by_cgroup(d)
    check(f"{t}: every sample in a cgroup group", sum(groups.values()),
          d["wakeup_latency_us"]["all"]["samples"])
    # a group's workload tasks (the task whose pid the sidecar gives, and its
    # descendants, which the report follows by fork) are in its cgroup
    tasks = {t_["pid"]: t_ for t_ in d["tasks"]}
    for g in sc.get("groups", []):
        cg, pid = g.get("cgroup"), g.get("pid")
        if not cg or pid not in tasks:
            continue
        check(f"{t}: group {g['name']} pid {pid} cgroup", tasks[pid]["cgroup"], cg)
        if tasks[pid]["wakeup_latency_us"]["samples"] and not groups.get(cg):
            fail(f"{t}: group {g['name']} has samples but none under {cg}: {groups}")
    # the text's clock: the file's, else the sidecar's (a v6 capture has no
    # trace_clock option: "clock unknown" for a capture that recorded it)
    if (sc.get("trace") or {}).get("clock"):
        span = [l for l in report(sr, "--allow-lost", t).stdout.splitlines()
                if l.startswith("span:")]
        want = d["trace"]["clock"] or sc["trace"]["clock"] + " (sidecar)"
        if not span or f", clock {want}, " not in span[0]:
            fail(f"{t}: span line {span[:1]} does not say clock {want}")
    if failures == before:
        print(f"{t}: sidecar used, {s['tasks_seeded']} tasks seeded, by cgroup {groups}")


def live(sr, work):
    if os.geteuid() != 0 or not os.path.isdir("/sys/kernel/tracing") and \
            not os.path.isdir("/sys/kernel/debug/tracing"):
        print("live capture: SKIP (needs root and tracefs)")
        return
    if not shutil.which("hackbench"):
        print("live capture: SKIP (hackbench not installed)")
        return
    mount = v1 = None
    with open("/proc/self/mounts") as f:
        for line in f:
            dev, mnt, fs, opts = line.split()[:4]
            if fs == "cgroup" and "cpu" in opts.split(","):
                mount, v1 = mnt, True
            elif fs == "cgroup2" and mount is None:
                mount, v1 = mnt, False
    if mount is None:
        print("live capture: SKIP (no cpu cgroup controller)")
        return
    t = os.path.join(work, "live.dat")
    hb = "hackbench -g 1 -f 2 -l 2000"
    groups = ["-g", f"a:{'shares=512' if v1 else 'weight=50'}={hb}"]
    if v1:
        # the group makes a sub-cgroup of its own, runs there, and removes it
        sub = ("m=" + mount + "; cg=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ {print $3}' /proc/self/cgroup); "
               "mkdir $m$cg/sub && echo $$ > $m$cg/sub/cgroup.procs && " + hb +
               "; echo $$ > $m$cg/cgroup.procs; rmdir $m$cg/sub")
        groups += ["-g", "b:shares=2048=" + sub]
    else:
        groups += ["-g", f"b:weight=200={hb}"]
    p = subprocess.run([sr, "capture", "-q", "-o", t, "-d", "20", *groups],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail(f"capture: exit {p.returncode}: {p.stderr.strip()}")
        return
    with open(t + ".json") as f:
        sc = json.load(f)
    cgs = {g["name"]: g["cgroup"] for g in sc["groups"]}
    d = report_json(sr, "--allow-lost", t)
    if not d:
        return
    groups = by_cgroup(d)
    for name in ("a", "b"):
        if v1 and name == "b":
            continue
        if not groups.get(cgs[name]):
            fail(f"live: no samples under group {name}'s {cgs[name]}: {groups}")
    if v1:
        if not groups.get(cgs["b"] + "/sub"):
            fail(f"live: no samples under {cgs['b']}/sub (the group's own sub-cgroup): {groups}")
        if d["latency_definition"]["cgroup_moves_followed"] < 2:
            fail("live: the moves into and out of the sub-cgroup were not followed: "
                 + json.dumps(d["latency_definition"]))
    check("live: every sample in a cgroup group", sum(groups.values()),
          d["wakeup_latency_us"]["all"]["samples"])
    captured(sr, t)
    print(f"live capture: by cgroup {groups}")


def main():
    if len(sys.argv) != 4:
        print("usage: sidecar.py SCHEDREPLAY TRACES_DIR WORK_DIR")
        return 2
    sr, traces, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    handmade(sr, traces, work)
    for name in sorted(os.listdir(traces)):
        t = os.path.join(traces, name)
        if name.endswith(".dat") and os.path.exists(t + ".json"):
            captured(sr, t)
    live(sr, work)
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
