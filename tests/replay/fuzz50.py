#!/usr/bin/env python3
"""Input-robustness round fuzz50: the inputs added since fuzz42.

A deterministic list of mutants (no randomness: the same traces give the same
cases) of the inputs the tool gained at stops 43-49, each run by report /
replay / whatif / validate under a timeout:

  aff      the sidecar's Cpus_allowed_list reads (sched_at_start/end
           .tasks[].cpus_allowed) of traces/pipe-pinned-run4.dat: malformed
           cpulists ("0-", "3-1", "0,,1", ...), CPUs the machine lacks
           ("2", "99999", "0-7" on a 2-CPU machine whose cpus.possible is
           0-1), other types, a 100 kB list
  tasks    tasks_at_start (lat_tgid_seed()): pid / tgid out of range or of
           another type, a pid twice, a tgid naming a thread of another
           process, a tgid naming an unlisted pid (legal: its leader exited
           during the walk), a 100 kB comm
  snaptg   sched_at_start/end tgids
  sd       sched_debug (groups_vs_kernel, --sched-debug-at): reads, header,
           cpus, paths, fields out of range or of another type; run with
           each --sched-debug-at mode
  thresh   thresholds.json's groups_vs_kernel limits (validate --thresholds)
  plat     LISA's platform.json beside a text trace
           (/work/shared/traces-external/arm-lisa/trace_txt, --external)
  cgmap    --cgroup-map lines
  dat      traces/pipe-pinned-run4.dat (v6, syscalls formats) cut short and
           bit-flipped in its header, formats and data
  opt      --unseen-nomig, --cpu-stalls, --sched-debug-at with bad values

Each case says whether its every run must fail ("error") or may also end at
exit 0 ("any").  Outcomes: ok (exit 0), error (non-zero exit, one stderr
line, no sanitizer report), BUG-accepted (exit 0 where an error is due),
BUG-multiline / BUG-noline, BUG-sanitizer, BUG-signal, BUG-timeout.

Usage:
    fuzz50.py --bin ASAN/schedreplay [--work DIR] [--jobs 2] [--only KIND,..]
              [--smoke] [--log FILE] [--timeout S]
--smoke runs a fixed subset (every kind, replay only; < 60 s on a Release
build): ctest replay_fuzz50_smoke.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TRACES = os.path.join(ROOT, "traces")
SRC = "pipe-pinned-run4.dat"
EXT = "/work/shared/traces-external/arm-lisa/trace_txt"
LSAN_SUPP = os.path.join(ROOT, "tests", "reader", "lsan-libtracecmd.supp")
SAN_ENV = {
    "ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    # libtraceevent's own leaks on broken format texts (tests/reader/fuzz.py's)
    "LSAN_OPTIONS": f"suppressions={LSAN_SUPP}:print_suppressions=0",
}
BIG = 100000


def load_sidecar():
    with open(os.path.join(TRACES, SRC + ".json")) as f:
        return json.load(f)


def set_path(doc, path, value):
    """doc[path...] = value; value DEL deletes the key."""
    o = doc
    for k in path[:-1]:
        o = o[k]
    if value is DEL:
        del o[path[-1]]
    else:
        o[path[-1]] = value


DEL = object()


def first_task(doc, snap, pred):
    for i, t in enumerate(doc[snap]["tasks"]):
        if pred(t):
            return i
    raise KeyError(snap)


# ------------------------------------------------------------ the cases ---

def sidecar_case(cid, expect, edit, cmds=("report", "replay", "whatif")):
    doc = load_sidecar()
    edit(doc)
    return dict(id=cid, expect=expect, sidecar=json.dumps(doc).encode(), cmds=list(cmds))


BAD_LISTS = ["0-", "3-1", "0,,1", "99999", "", " 0", "0\n", "-1", "0-1,", ",0", "x",
             "1e3", "0x1", "2", "5", "0-7", "1-2", "0,2", "65535", "65536", "0-65535",
             "18446744073709551617", "0-18446744073709551617", "0," * (BIG // 2) + "0",
             "0-1\u0000", "1,0", "0,0", "0-1,1"]
BAD_LIST_TYPES = [3, [0, 1], True, {"0": 1}, 1.5]


def cases_aff():
    out = []
    for snap in ("sched_at_start", "sched_at_end"):
        # a task pinned to one CPU, one free (0-1)
        for who, pred in (("pinned", lambda t: t.get("cpus_allowed") in ("0", "1")),
                          ("free", lambda t: t.get("cpus_allowed") == "0-1")):
            for k, v in enumerate(BAD_LISTS + BAD_LIST_TYPES):
                def edit(d, snap=snap, pred=pred, v=v):
                    d[snap]["tasks"][first_task(d, snap, pred)]["cpus_allowed"] = v
                out.append(sidecar_case(f"aff/{snap}/{who}/{k}", "error", edit))
            for k, v in enumerate((None, "0", "1", "0-1", "0-0,1")):
                def edit(d, snap=snap, pred=pred, v=v):
                    d[snap]["tasks"][first_task(d, snap, pred)]["cpus_allowed"] = v
                out.append(sidecar_case(f"aff/{snap}/{who}/ok{k}", "any", edit))

    # a cpulist past cpus.topology but within cpus.possible: an offline-capable VM
    def edit(d):
        d["cpus"]["possible"] = "0-7"
        d["sched_at_start"]["tasks"][0]["cpus_allowed"] = "0-7"
    out.append(sidecar_case("aff/possible/0-7", "any", edit))

    def edit(d):
        d["cpus"]["possible"] = "0-7"
        d["sched_at_start"]["tasks"][0]["cpus_allowed"] = "5"
    out.append(sidecar_case("aff/possible/5", "error", edit))

    def edit(d):
        d["cpus"]["possible"] = 12
        d["sched_at_start"]["tasks"][0]["cpus_allowed"] = "0-7"
    out.append(sidecar_case("aff/possible-type", "error", edit))
    return out


def cases_tasks():
    out = []
    vals = {
        "pid": [0, -1, 4194305, 2 ** 31 - 1, 2 ** 31, "1", 1.5, None, [1], 1e308],
        "tgid": [0, -1, 4194305, 2 ** 31 - 1, "1", 1.5, [1], {}, 2 ** 63],
        "cpu": [-5, 99, 2 ** 31, "0"],
        "nice": [100, -100, 2 ** 40, "0"],
        "comm": ["x" * BIG, 5, ["a"]],
        "cgroup": ["x" * BIG, "", 5],
        "policy": [5, "x" * BIG],
        "autogroup": [-5, 2 ** 40, "1"],
    }
    for key, vs in vals.items():
        for k, v in enumerate(vs):
            def edit(d, key=key, v=v):
                t = d["tasks_at_start"][3]
                t[key] = v
            out.append(sidecar_case(f"tasks/{key}/{k}", "any", edit))
    # expected errors
    def dup(d):
        d["tasks_at_start"].append(dict(d["tasks_at_start"][3]))
    out.append(sidecar_case("tasks/dup-same", "error", dup))

    def dup2(d):
        t = dict(d["tasks_at_start"][3])
        t["tgid"] = 1
        t["cgroup"] = "/elsewhere"
        d["tasks_at_start"].append(t)
    out.append(sidecar_case("tasks/dup-other", "error", dup2))

    def thread_of_thread(d):
        ts = d["tasks_at_start"]
        ts[4]["tgid"] = ts[3]["pid"]     # 4 a thread of 3
        ts[3]["tgid"] = ts[2]["pid"]     # 3 a thread of 2: 4's leader is no leader
    # read: a pid reused during the capture's walk gives it
    out.append(sidecar_case("tasks/tgid-thread", "any", thread_of_thread))

    for key, v in (("pid", 0), ("pid", -1), ("pid", 4194305), ("tgid", 0), ("tgid", -1),
                   ("tgid", 4194305), ("tgid", "1"), ("tgid", 1.5)):
        def edit(d, key=key, v=v):
            d["tasks_at_start"][3][key] = v
        out.append(sidecar_case(f"tasks/bad-{key}/{v}", "error", edit))

    for k, (key, v) in enumerate((("tgid", None), ("tgid", DEL), ("tgid", 99999))):
        def edit(d, key=key, v=v):
            set_path(d, ("tasks_at_start", 3, key), v)
        out.append(sidecar_case(f"tasks/ok-{k}", "any", edit))

    def self_tgid(d):
        t = d["tasks_at_start"][3]
        t["tgid"] = t["pid"]
    out.append(sidecar_case("tasks/tgid-self", "any", self_tgid))
    out.append(sidecar_case("tasks/empty", "any",
                            lambda d: d.__setitem__("tasks_at_start", [])))
    return out


def cases_snaptg():
    out = []
    for snap in ("sched_at_start", "sched_at_end"):
        for k, v in enumerate((0, -1, 4194305, "1", 1.5, [1])):
            def edit(d, snap=snap, v=v):
                d[snap]["tasks"][3]["tgid"] = v
            out.append(sidecar_case(f"snaptg/{snap}/bad{k}", "error", edit))
        for k, v in enumerate((None, 99999)):
            def edit(d, snap=snap, v=v):
                d[snap]["tasks"][3]["tgid"] = v
            out.append(sidecar_case(f"snaptg/{snap}/ok{k}", "any", edit))

        def dup(d, snap=snap):
            d[snap]["tasks"].append(dict(d[snap]["tasks"][3]))
        out.append(sidecar_case(f"snaptg/{snap}/dup", "error", dup))
    return out


SD_CMDS = ("report", "replay", "replay --sched-debug-at start", "replay --sched-debug-at order",
           "replay --sched-debug-at agree", "replay --json")


def cases_sd():
    out = []

    def sd(cid, expect, edit):
        out.append(sidecar_case("sd/" + cid, expect, edit, SD_CMDS))

    def rd(d, i=0):
        return d["sched_debug"]["reads"][i]

    bad = [
        ("avail-str", lambda d: d["sched_debug"].__setitem__("available", "yes")),
        ("reads-obj", lambda d: d["sched_debug"].__setitem__("reads", {})),
        ("reads-del", lambda d: d["sched_debug"].pop("reads")),
        ("every-neg", lambda d: d["sched_debug"].__setitem__("every_ms", -1)),
        ("every-huge", lambda d: d["sched_debug"].__setitem__("every_ms", 2 ** 63)),
        ("at-bad", lambda d: rd(d).__setitem__("at", "middle")),
        ("at-num", lambda d: rd(d).__setitem__("at", 0)),
        ("clk-neg", lambda d: rd(d)["header"].__setitem__("sched_clk", -1)),
        ("clk-str", lambda d: rd(d)["header"].__setitem__("sched_clk", "1")),
        ("clk-del", lambda d: rd(d)["header"].pop("sched_clk")),
        ("hdr-del", lambda d: rd(d).pop("header")),
        ("readus-neg", lambda d: rd(d).__setitem__("read_us", -1)),
        ("readus-huge", lambda d: rd(d).__setitem__("read_us", 10 ** 12)),
        ("cpus-del", lambda d: rd(d).pop("cpus")),
        ("cpu-2", lambda d: rd(d)["cpus"][0].__setitem__("cpu", 2)),
        ("cpu-neg", lambda d: rd(d)["cpus"][0].__setitem__("cpu", -1)),
        ("cpu-str", lambda d: rd(d)["cpus"][0].__setitem__("cpu", "0")),
        ("cpu-dup", lambda d: rd(d)["cpus"][1].__setitem__("cpu", rd(d)["cpus"][0]["cpu"])),
        ("path-empty", lambda d: rd(d)["cpus"][0]["cfs_rqs"][0].__setitem__("path", "")),
        ("path-rel", lambda d: rd(d)["cpus"][0]["cfs_rqs"][0].__setitem__("path", "x")),
        ("path-num", lambda d: rd(d)["cpus"][0]["cfs_rqs"][0].__setitem__("path", 5)),
        ("path-dup", lambda d: rd(d)["cpus"][0]["cfs_rqs"].append(
            dict(rd(d)["cpus"][0]["cfs_rqs"][0]))),
        ("field-neg", lambda d: rd(d)["cpus"][0]["cfs_rqs"][0]["fields"].__setitem__("load_avg", -1)),
        ("field-huge", lambda d: rd(d)["cpus"][0]["cfs_rqs"][0]["fields"].__setitem__(
            "load_avg", 2 ** 62)),
        ("field-real", lambda d: rd(d)["cpus"][0]["cfs_rqs"][0]["fields"].__setitem__(
            "tg_load_avg", 1e308)),
        ("field-str", lambda d: rd(d)["cpus"][0]["cfs_rqs"][0]["fields"].__setitem__(
            "se.load.weight", "nan")),
        ("field-frac", lambda d: rd(d)["cpus"][0]["cfs_rqs"][0]["fields"].__setitem__(
            "nr_queued", 0.5)),
    ]
    for cid, e in bad:
        sd(cid, "error", e)

    def reverse(d):
        d["sched_debug"]["reads"].reverse()

    def clk_back(d):
        r = d["sched_debug"]["reads"]
        r[-1]["header"]["sched_clk"] = r[0]["header"]["sched_clk"] - 1

    def no_end(d):
        d["sched_debug"]["reads"] = [r for r in d["sched_debug"]["reads"] if r["at"] != "end"]

    def only_end(d):
        d["sched_debug"]["reads"] = [r for r in d["sched_debug"]["reads"] if r["at"] == "end"]

    def long_path(d):
        rd(d)["cpus"][0]["cfs_rqs"][0]["path"] = "/" + "x" * BIG

    def many_paths(d):
        q = rd(d)["cpus"][0]["cfs_rqs"]
        for k in range(5000):
            e = dict(q[0])
            e["path"] = f"/g{k}"
            q.append(e)

    def unknown_path(d):
        for c in rd(d)["cpus"]:
            for q in c["cfs_rqs"]:
                q["path"] = "/nosuch" + q["path"]

    def cpus_empty(d):
        rd(d)["cpus"] = []

    for cid, e, exp in (("reverse", reverse, "any"), ("clk-back", clk_back, "any"),
                        ("no-end", no_end, "any"), ("only-end", only_end, "any"),
                        ("long-path", long_path, "any"), ("many-paths", many_paths, "any"),
                        ("unknown-path", unknown_path, "any"), ("cpus-empty", cpus_empty, "any"),
                        ("reads-empty", lambda d: d["sched_debug"].__setitem__("reads", []), "any"),
                        ("unavail", lambda d: d.__setitem__("sched_debug", {"available": False}),
                         "any"),
                        ("del", lambda d: d.pop("sched_debug"), "any")):
        sd(cid, exp, e)
    return out


def thresh_base():
    with open(os.path.join(TRACES, "thresholds.json")) as f:
        th = json.load(f)
    # pipe-pinned-run4's entry has no groups_vs_kernel: the limits of groups-mig-sd
    th["traces"][SRC]["groups_vs_kernel"] = dict(th["traces"]["groups-mig-sd.dat"]
                                                 ["groups_vs_kernel"])
    return th


def cases_thresh():
    out = []
    vals = [("max_tg_load_avg_median_abs", -1, "error"), ("max_tg_load_avg_median_abs", "1", "error"),
            ("max_tg_load_avg_median_abs", 1e308, "any"), ("max_tg_load_avg_median_abs", None, "error"),
            ("max_weight_median_abs", [], "error"), ("max_weight_median_abs", 0, "any"),
            ("min_queued_agree", 2, "error"), ("min_queued_agree", -0.5, "error"),
            ("min_queued_agree", 1, "any"), ("min_queued_agree", 0, "any"),
            ("nosuch_limit", 1, "error"), ("max_weight_median_abs", {}, "error"),
            ("max_weight_median_abs", 1e400, "error")]
    for k, (key, v, exp) in enumerate(vals):
        th = thresh_base()
        th["traces"][SRC]["groups_vs_kernel"][key] = v
        out.append(dict(id=f"thresh/{key}/{k}", expect=exp, thresh=json.dumps(th).encode(),
                        cmds=["validate"]))
    for k, v in enumerate(([], "x", 5, None)):
        th = thresh_base()
        th["traces"][SRC]["groups_vs_kernel"] = v
        out.append(dict(id=f"thresh/type/{k}", expect="any" if v is None else "error",
                        thresh=json.dumps(th).encode(), cmds=["validate"]))
    # limits on a trace whose sidecar has no sched_debug: said, not an exit-0 pass
    th = thresh_base()
    doc = load_sidecar()
    doc.pop("sched_debug")
    out.append(dict(id="thresh/no-sd", expect="any", thresh=json.dumps(th).encode(),
                    sidecar=json.dumps(doc).encode(), cmds=["validate"]))
    return out


def plat_base():
    with open(os.path.join(EXT, "platform.json")) as f:
        return json.load(f)


def cases_plat():
    out = []

    def pc(cid, expect, edit=None, raw=None):
        if raw is None:
            d = plat_base()
            edit(d)
            raw = json.dumps(d).encode()
        out.append(dict(id="plat/" + cid, expect=expect, platform=raw, cmds=["replay", "whatif"]))

    edits = [
        ("count-2^32+6", lambda d: d.__setitem__("cpus_count", 2 ** 32 + 6)),
        ("count-neg", lambda d: d.__setitem__("cpus_count", -6)),
        ("count-str", lambda d: d.__setitem__("cpus_count", "6")),
        ("count-7", lambda d: d.__setitem__("cpus_count", 7)),
        ("count-del", lambda d: d.pop("cpus_count")),
        ("cpu-dup", lambda d: d["clusters"]["big"].append(0)),
        ("cpu-neg", lambda d: d["clusters"]["big"].append(-1)),
        ("cpu-huge", lambda d: d["clusters"]["big"].append(2 ** 40)),
        ("cpu-2^32+1", lambda d: d["clusters"]["big"].__setitem__(0, 2 ** 32 + 1)),
        ("cpu-str", lambda d: d["clusters"]["big"].append("3")),
        ("cpu-gap", lambda d: d["clusters"]["little"].remove(3)),
        ("cpu-extra", lambda d: d["clusters"]["little"].append(6)),
        ("cluster-empty", lambda d: d["clusters"].__setitem__("big", [])),
        ("cluster-obj", lambda d: d["clusters"].__setitem__("big", {})),
        ("clusters-empty", lambda d: d.__setitem__("clusters", {})),
        ("nrg-del", lambda d: d.pop("nrg_model")),
        ("nrg-cluster-del", lambda d: d["nrg_model"].pop("big")),
        ("cap-0", lambda d: d["nrg_model"]["big"]["cpu"].__setitem__("cap_max", 0)),
        ("cap-1025", lambda d: d["nrg_model"]["big"]["cpu"].__setitem__("cap_max", 1025)),
        ("cap-2^32+512", lambda d: d["nrg_model"]["big"]["cpu"].__setitem__("cap_max", 2 ** 32 + 512)),
        ("cap-real", lambda d: d["nrg_model"]["big"]["cpu"].__setitem__("cap_max", 512.5)),
        ("cap-str", lambda d: d["nrg_model"]["big"]["cpu"].__setitem__("cap_max", "1024")),
        ("rel-long", lambda d: d["kernel"].__setitem__("release", "6." + "1" * BIG)),
        ("rel-space", lambda d: d["kernel"].__setitem__("release", "6.1 x")),
        ("rel-num", lambda d: d["kernel"].__setitem__("release", 6.1)),
        ("rel-empty", lambda d: d["kernel"].__setitem__("release", "")),
        ("rel-ctrl", lambda d: d["kernel"].__setitem__("release", "6.1\u001b[2J")),
        ("rel-junk", lambda d: d["kernel"].__setitem__("release", "not-a-version")),
        ("rel-9", lambda d: d["kernel"].__setitem__("release", "99.0")),
        ("kernel-str", lambda d: d.__setitem__("kernel", "x")),
        ("many-clusters", lambda d: d["clusters"].update({f"c{k}": [] for k in range(2000)})),
        ("name-long", lambda d: d["clusters"].__setitem__("n" * BIG, [7])),
    ]
    for cid, e in edits:
        pc(cid, "any", e)
    base = json.dumps(plat_base()).encode()
    for k, n in enumerate((0, 1, len(base) // 2, len(base) - 1)):
        pc(f"cut{k}", "any", raw=base[:n])
    pc("garbage", "any", raw=b"\xff\xfe\x00garbage")
    pc("deep", "any", raw=b"[" * 100000)
    pc("fifo", "any", raw="FIFO")
    pc("dir", "any", raw="DIR")
    return out


def cases_cgmap():
    out = []
    lines = ["/ 1024", "shares/a 512", "/a -1", "/a 99999999999999999999", "/a nan", "/a 1e3",
             "/" + "a" * BIG + " 512", "/a 512\n/a 1024", "/a quota 0 100000",
             "/a quota -1 -1", "/a quota 100 0", "/a quota 18446744073709551615 100000",
             "\x00/a 512", "/a 512 extra", "#only a comment", "", "/a\t512", "/../a 512"]
    for k, ln in enumerate(lines):
        out.append(dict(id=f"cgmap/{k}", expect="any", cgmap=ln.encode() + b"\n",
                        cmds=["replay --cgroup-map CGMAP", "whatif --cgroup-map CGMAP"]))
    return out


def find_all(data, needle):
    i, r = data.find(needle), []
    while i >= 0:
        r.append(i)
        i = data.find(needle, i + 1)
    return r


def cases_dat(smoke=False):
    out = []
    with open(os.path.join(TRACES, SRC), "rb") as f:
        data = f.read()
    n = len(data)
    cuts = [0, 1, 8, 12, 16, 100, 1000, 4096, 8192, 20000, n // 4, n // 2, n - 4096, n - 1]
    syscalls = find_all(data, b"sys_exit_sched_setaffinity") + \
        find_all(data, b"sys_enter_sched_setaffinity")
    for s in syscalls[:2]:
        cuts += [s, s + 40]
    for k, c in enumerate(sorted(set(x for x in cuts if 0 <= x < n))):
        out.append(dict(id=f"dat/cut/{c}", expect="any", dat=data[:c],
                        cmds=["report", "replay", "whatif"]))
    flips = [9, 12, 13, 20, 40, 60, 200, 400, 1000, 3000]
    for s in syscalls[:4]:
        flips += list(range(s, s + 300, 23))
    flips += [n // 3, n // 2 + 7, n - 100]
    for k, p in enumerate(sorted(set(x for x in flips if 0 <= x < n))):
        for bit in (0x01, 0x80):
            b = bytearray(data)
            b[p] ^= bit
            out.append(dict(id=f"dat/flip/{p}/{bit}", expect="any", dat=bytes(b),
                            cmds=["report", "replay"]))
    return out


def cases_opt():
    out = []
    for opt in ("--unseen-nomig", "--cpu-stalls", "--sched-debug-at"):
        for k, v in enumerate(("", "x", "all,all", "queued ", "1", "-1", "idle,queued", "\xff")):
            for cmd in ("replay", "whatif", "validate"):
                out.append(dict(id=f"opt/{cmd}{opt}/{k}", expect="error",
                                cmds=[f"{cmd} {opt}=" + v], usage=True))
    return out


KINDS = dict(aff=cases_aff, tasks=cases_tasks, snaptg=cases_snaptg, sd=cases_sd,
             thresh=cases_thresh, plat=cases_plat, cgmap=cases_cgmap, dat=cases_dat,
             opt=cases_opt)


# -------------------------------------------------------------- running ---

def setup(case, d):
    """The case's inputs in directory @d: the trace path and extra args."""
    os.makedirs(d, exist_ok=True)
    if "platform" in case:
        trace = os.path.join(d, "trace.txt")
        os.symlink(os.path.join(EXT, "trace.txt"), trace)
        p = os.path.join(d, "platform.json")
        if case["platform"] == "FIFO":
            os.mkfifo(p)
        elif case["platform"] == "DIR":
            os.mkdir(p)
        else:
            with open(p, "wb") as f:
                f.write(case["platform"])
        return trace
    trace = os.path.join(d, SRC)
    if "dat" in case:
        with open(trace, "wb") as f:
            f.write(case["dat"])
    else:
        os.symlink(os.path.join(TRACES, SRC), trace)
    side = trace + ".json"
    if "sidecar" in case:
        with open(side, "wb") as f:
            f.write(case["sidecar"])
    else:
        os.symlink(os.path.join(TRACES, SRC + ".json"), side)
    th = thresh_base()
    th["traces"] = {SRC: th["traces"][SRC]}
    with open(os.path.join(d, "thresholds.json"), "wb") as f:
        f.write(case.get("thresh") or json.dumps(th).encode())
    if "cgmap" in case:
        with open(os.path.join(d, "cgmap"), "wb") as f:
            f.write(case["cgmap"])
    return trace


def argv_of(bin_, cmd, trace, d):
    words = cmd.split(" ")
    words = [w.replace("CGMAP", os.path.join(d, "cgmap")) for w in words]
    if words[0] == "validate":
        return [bin_] + words + ["--dir", d, "--thresholds", os.path.join(d, "thresholds.json"),
                                 "--seeds", "1"]
    if words[0] == "whatif":
        return [bin_] + words + ["--variant", "tg-ratelimit", trace]
    return [bin_] + words + [trace]


def classify(rc, err, expect, timed_out):
    if timed_out:
        return "BUG-timeout"
    if "Sanitizer" in err or "runtime error" in err or "AddressSanitizer" in err:
        return "BUG-sanitizer"
    if rc < 0 or rc >= 128:
        return "BUG-signal"
    if rc == 0:
        return "BUG-accepted" if expect == "error" else "ok"
    lines = [ln for ln in err.split("\n") if ln.strip() and not ln.startswith("warning:")]
    if len(lines) > 1:
        return "BUG-multiline"
    if not lines:
        return "BUG-noline"
    return "error"


def run_case(case, bin_, work, timeout):
    d = os.path.join(work, case["id"].replace("/", "_")[:150])
    shutil.rmtree(d, ignore_errors=True)
    res = []
    try:
        trace = setup(case, d)
        for cmd in case["cmds"]:
            argv = argv_of(bin_, cmd, trace, d)
            if case.get("usage"):
                argv = [bin_] + cmd.split(" ", 1)[:1] + [cmd.split(" ", 1)[1]] + \
                    [os.path.join(TRACES, SRC)]
                if argv[1] == "validate":
                    argv = argv[:-1]
            env = dict(os.environ, **SAN_ENV)
            timed_out = False
            try:
                p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   timeout=timeout, env=env, cwd=d)
                rc, err = p.returncode, p.stderr.decode(errors="replace")
            except subprocess.TimeoutExpired as e:
                rc, err, timed_out = -9, (e.stderr or b"").decode(errors="replace"), True
            out = classify(rc, err, case["expect"], timed_out)
            res.append(dict(id=case["id"], cmd=cmd, rc=rc, outcome=out,
                            err=err.strip().split("\n")[-1][:300] if err else ""))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return res


# The defects this round fixed (docs/validation-log.md, "Input-robustness round
# fuzz50"): each case's first command must end in the error matching its regex
# (None: must end at exit 0, within the timeout).  --regress runs them.
REGRESS = {
    "aff/sched_at_start/free/13": r"cpus_allowed \"2\" names CPU 2, past the machine's CPUs",
    "aff/sched_at_end/pinned/15": r"cpus_allowed \"0-7\" names CPU 7, past",
    "aff/sched_at_start/free/26": r"cpus_allowed is not a CPU list",          # "0,0"
    "aff/sched_at_end/free/25": r"cpus_allowed is not a CPU list",            # "1,0"
    "aff/possible/5": r"cpus_allowed \"5\" names none of cpus.topology's CPUs",
    "aff/possible/0-7": None,
    "aff/possible-type": r"cpus.possible is not a CPU list",
    "tasks/dup-same": r"tasks_at_start lists pid \d+ twice",
    "tasks/dup-other": r"tasks_at_start lists pid \d+ twice",
    "tasks/tgid-thread": None,
    "tasks/bad-pid/0": r"tasks_at_start\[3\]\.pid missing or not a pid",
    "tasks/bad-pid/4194305": r"tasks_at_start\[3\]\.pid missing or not a pid",
    "tasks/bad-tgid/0": r"tasks_at_start\[3\]\.tgid is not a pid",
    "tasks/bad-tgid/-1": r"tasks_at_start\[3\]\.tgid is not a pid",
    "tasks/bad-tgid/4194305": r"tasks_at_start\[3\]\.tgid is not a pid",
    "tasks/ok-2": None,                                                     # unlisted leader
    "sd/cpu-dup": r"sched_debug\.reads\[0\]\.cpus lists CPU 0 twice",
    "sd/path-dup": r"names a group listed before on CPU 0",
    "plat/fifo": None,
    "plat/count-2^32+6": None,
}

SMOKE = {"aff": 6, "tasks": 5, "snaptg": 3, "sd": 5, "thresh": 3, "plat": 6, "cgmap": 2,
         "dat": 4, "opt": 6}


def smoke_sample(cs, n, keep=lambda c: c["cmds"][:1]):
    """@n cases spread over @cs (all of them when @n is 0), each with the
    commands keep() leaves (the first)."""
    if not n:
        return cs
    cs = cs[::max(1, len(cs) // n)][:n]
    for c in cs:
        c["cmds"] = keep(c)
    return cs


def regress_cases(cases, regress):
    """The cases of @regress (id -> error regex, None exit 0), each run by its
    replay (its first command if not report), expecting that."""
    cases = [c for c in cases if c["id"] in regress]
    for c in cases:
        c["cmds"] = c["cmds"][1:2] if c["cmds"][0] == "report" else c["cmds"][:1]
        c["expect"] = "any" if regress[c["id"]] is None else "error"
    return cases


def arg_parser(doc):
    """The options fuzz50.py and fuzz51.py share."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only")
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--regress", action="store_true",
                    help="the fixed defects' cases (REGRESS): each must give its error")
    ap.add_argument("--log")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--list", action="store_true")
    return ap


def main():
    ap = arg_parser(__doc__)
    ap.add_argument("--work")
    ap.add_argument("--id", help="run only the cases whose id starts with this")
    a = ap.parse_args()
    kinds = a.only.split(",") if a.only else list(KINDS)
    cases = []
    for k in kinds:
        if k == "plat" and not os.path.isdir(EXT):
            print(f"fuzz50: {EXT} missing: kind plat skipped")
            continue
        cases += smoke_sample(KINDS[k](), SMOKE[k] if a.smoke else 0)
    if a.id:
        cases = [c for c in cases if c["id"].startswith(a.id)]
    if a.regress:
        cases = regress_cases(cases, REGRESS)
    if a.list:
        for c in cases:
            print(c["id"], c["expect"], c["cmds"])
        return 0
    work = a.work or tempfile.mkdtemp(prefix="fuzz50-")
    os.makedirs(work, exist_ok=True)
    results = []
    with ThreadPoolExecutor(a.jobs) as ex:
        for r in ex.map(lambda c: run_case(c, os.path.abspath(a.bin), work, a.timeout), cases):
            results += r
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)
    missing = set(i for i in REGRESS if os.path.isdir(EXT) or not i.startswith("plat/"))
    return summarize("fuzz50", cases, results, REGRESS if a.regress else None, missing, a.log)


def summarize(name, cases, results, regress, regress_ids, log, listed=()):
    """The table of kind x outcome, --regress's checks (@regress: id -> the
    error regex, None exit 0; every id of @regress_ids must have run), every
    BUG and every run whose outcome is in @listed, the --log lines; the exit
    status (1 on any BUG).  fuzz51.py's too."""
    table = {}
    for r in results:
        key = (r["id"].split("/")[0], r["outcome"])
        table[key] = table.get(key, 0) + 1
    for (k, o), n in sorted(table.items()):
        print(f"{k:8} {o:14} {n}")
    if regress is not None:
        for r in results:
            want = regress[r["id"]]
            if want is None and r["outcome"] != "ok":
                r["outcome"] = "BUG-regress"
            elif want is not None and (r["outcome"] != "error" or not re.search(want, r["err"])):
                r["outcome"] = "BUG-regress"
        for m in sorted(set(regress_ids) - set(r["id"] for r in results)):
            results.append(dict(id=m, cmd="-", rc=0, outcome="BUG-regress", err="no such case"))
    bugs = [r for r in results if r["outcome"].startswith("BUG")]
    for r in results:
        if r["outcome"] in listed:
            print(f"{r['outcome']}: {r['id']} [{r['cmd']}]")
    for r in bugs:
        print(f"{r['outcome']}: {r['id']} [{r['cmd']}] rc={r['rc']}: {r['err']}")
    if log:
        with open(log, "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
    print(f"{name}: {len(cases)} mutants, {len(results)} runs, {len(bugs)} BUG")
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
