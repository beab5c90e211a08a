#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The model's task-group queues against the kernel's sched/debug on a bundled capture.

    groups_kernel.py --bin SCHEDREPLAY TRACE [--check limits|shift|variants|loader|staleness|trace|validate|at]
    groups_kernel.py --bin SCHEDREPLAY TRACE --table [--shifts MS,MS,...]
    groups_kernel.py --bin SCHEDREPLAY TRACE --decompose [--variants V,V] [--seeds N]

Runs `schedreplay replay --json TRACE` and reads its "groups_vs_kernel"
object (docs/replay.md "Task groups against the kernel's sched/debug"): at
every sched/debug read inside the trace, each group queue's PELT averages,
tg_load_avg_contrib, tg->load_avg and group-entity weight of the model
against the kernel's.  Checks (bounds from what main measured on
traces/pelt-mix-sd.dat, 5 Dec 2026, with a margin; docs/validation-log.md
"Task groups against the kernel's sched/debug"):

  limits    run base at the reads' times: per group and field the median /
            p95 of |model - kernel| at most LIMITS, at most MISMATCH (read,
            CPU, group) pairs whose h_nr_queued differs (measured 4 of 260: a
            duty30 wakeup at read 5, the root queue at read 29), at least
            READS reads compared.
  shift     the same reads moved by -50, -10, +10 and +50 ms
            (--sched-debug-shift): the sum over the capture's groups of the
            tg_load_avg medians grows at least 3x (10 ms) / 10x (50 ms), and
            h_nr_queued differs at more than twice as many pairs: a
            misaligned probe fails.
  variants  --all-variants: the mean |model - kernel| of se.load.weight over
            every non-root pair is smallest under base (the 6.18 capture
            kernel's rules) and at least 1.1x base's under no-tg-ratelimit,
            aaron-skip and cfs-group-tick-only (a variant that is not the
            kernel's matches worse).
  loader    doctored copies of the sidecar (in a temporary directory):
            sched_debug unavailable -> the section says "not compared" and
            the JSON {"available": false, "reason"}; sched_debug absent (an
            older sidecar) -> no section, no groups_vs_kernel key; a negative
            tg_load_avg_contrib or a read without header.sched_clk -> exit 1,
            one line naming the field.
  staleness (traces/make-probe-sd.dat; docs/validation-log.md "Why the
            rate-limited tg->load_avg looked staler on make-probe-sd") over
            replay seeds 1-3 of base and no-tg-ratelimit, group GROUP: the
            identity tg_load_avg(m - k) = sum over CPUs of contrib(m - k)
            holds at every read (every CPU printed); the per-CPU staleness
            load_avg - tg_load_avg_contrib of base's model is within
            STALE_BAND of the kernel's and nearer it than no-tg-ratelimit's
            (the kernel's rule gives the kernel's lag); the reads where the
            group's queued-task count differs hold at least HNR_SHARE of the
            signed sum of base's queue-load error (the bias is the replayed
            timeline, not the write rule).
  trace     (pelt-mix-sd) the trace's own runnable set at each read (the
            "trace" side, replay/workload_sdq.c), exact: every one of the
            TRACE_PAIRS (read, CPU, group) pairs equals the kernel's
            h_nr_runnable at the read's sched_clk, TRACE_QUEUED_EQ equal its
            h_nr_queued (the others: KERNEL_DELAYED pairs where the kernel held
            delayed dequeues, which no trace event shows); each pair's trace
            count agrees at once (agrees_after_ns 0); the model's mismatches
            split into drift + delayed + read-later + disagreeing, none
            disagreeing over the read, and the model's queued counts with the
            kernel's delayed dequeues that the trace cannot see (reads 5).
  validate  (pelt-mix-sd, with pelt-mix.dat of the same directory) validate's
            groups headline in a scratch directory with thresholds of its
            own: the text lines, --markdown's row and --json's
            groups_vs_kernel for the trace with reads (none for pelt-mix,
            which has none), the trace's 260 of 260; the optional
            "groups_vs_kernel" limits: loose ones pass, a tg_load_avg
            median limit below the figure exits 1 with OVER, limits on a
            trace without reads fail it, an unknown key or a fraction above
            1 is refused with one line naming it.
  at        (make-probe-sd; docs/validation-log.md "Each CPU's own moment within a
            sched/debug read") replay seed 1 under --sched-debug-at start, order,
            agree and cpu: the same (read, CPU, group) pairs under each; each
            probe where the value says (start: sched_clk; order: CPU N at
            read_us * N / nr_cpus; agree: the trace's first agreement on the CPU's
            block, cpu_agrees_after_ns, else sched_clk; cpu: that, else as
            order) and, where that is sched_clk, the model's values those of
            start; the trace places CPU 1's blocks later than CPU 0's (median
            offset of the later-placed ones); under cpu the model matches the
            kernel's h_nr_queued at AT_GAIN more pairs than under start, and the
            read-later mismatches fall to at most AT_LATER (measured 564 -> 582,
            52 -> 7).
--table prints, per shift, the medians and p95 the shift check reads.
--decompose prints, per variant and non-root group (means over seeds 1..N):
the tg_load_avg error, split into the queues' load_avg error (sum over the
CPUs) and the contributions' lag (load_avg - tg_load_avg_contrib, per CPU,
model and kernel), and the load error's signed mean at the reads where the
group's h_nr_queued (sum over CPUs) differs and at the others.
Exit 1 on a miss.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

# [median, p95] bounds of |model - kernel|; measured base figures in the comments
LIMITS = {
    "/schedreplay-9213/hog": {"tg_load_avg": [2, 5],             # 1 / 1
                              "load_avg": [2, 5],                # 0 / 1
                              "se.load.weight": [0.5, 1]},       # 0 / 0
    "/schedreplay-9213/duty30": {"tg_load_avg": [5, 400],        # 1 / 309
                                 "se.load.weight": [1, 6]},      # 0 / 2.5
    "/schedreplay-9213/duty5": {"tg_load_avg": [5, 1600],        # 1 / 1472
                                "se.load.weight": [1, 2]},       # 0 / 0.2
    "/schedreplay-9213": {"tg_load_avg": [15, 90],               # 6 / 54
                          "tg_load_avg_contrib": [8, 50],        # 3 / 28
                          "se.load.weight": [4, 50]},            # 1.3 / 31.2
}
READS = 30
MISMATCH = 6
CAPTURE_GROUPS = ["/schedreplay-9213/hog", "/schedreplay-9213/duty30",
                  "/schedreplay-9213/duty5", "/schedreplay-9213"]


def replay(binary, trace, extra):
    out = subprocess.run([binary, "replay", "--json"] + extra + [trace], capture_output=True,
                         text=True, timeout=600)
    if out.returncode != 0:
        sys.exit("replay %s failed (%d): %s" % (" ".join(extra), out.returncode,
                                                out.stderr.strip()))
    g = json.loads(out.stdout).get("groups_vs_kernel")
    if not g:
        sys.exit("no groups_vs_kernel in the output of replay %s" % " ".join(extra))
    return g


def nr_mismatch(run):
    return sum(1 for p in run["pairs"]
               if "h_nr_queued" in p["kernel"] and p["kernel"]["h_nr_queued"] != p["model"]["h_nr_queued"])


def tg_sum(run):
    return sum(run["groups"][p]["tg_load_avg"]["median_abs"] for p in CAPTURE_GROUPS
               if p in run["groups"])


def check_limits(a):
    run = replay(a.bin, a.trace, [])["base"]
    bad = 0
    if not run.get("available") or run["reads"] < READS:
        print("reads compared %s, at least %d expected" % (run.get("reads"), READS))
        return 1
    print("reads compared: %d" % run["reads"])
    for path, fields in LIMITS.items():
        for f, (med, p95) in fields.items():
            st = run["groups"].get(path, {}).get(f)
            if not st:
                print("%s %s: not compared" % (path, f))
                bad += 1
                continue
            ok = st["median_abs"] <= med and st["p95_abs"] <= p95
            bad += not ok
            print("%s %-20s pairs %3d median %7.1f (<= %g) p95 %7.1f (<= %g) %s" %
                  (path, f, st["pairs"], st["median_abs"], med, st["p95_abs"], p95,
                   "ok" if ok else "MISS"))
    m = nr_mismatch(run)
    print("pairs whose h_nr_queued differs: %d of %d (<= %d)" % (m, len(run["pairs"]), MISMATCH))
    return 1 if bad or m > MISMATCH else 0


def check_shift(a):
    base = replay(a.bin, a.trace, [])["base"]
    s0 = tg_sum(base)
    bad = 0
    print("shift 0: sum of tg_load_avg medians %.1f, h_nr_queued mismatches %d" %
          (s0, nr_mismatch(base)))
    for ms, factor in ((-50, 10), (-10, 3), (10, 3), (50, 10)):
        run = replay(a.bin, a.trace, ["--sched-debug-shift", str(ms)])["base"]
        s, m = tg_sum(run), nr_mismatch(run)
        ok = s >= factor * max(s0, 1) and m > 2 * max(nr_mismatch(base), 1)
        bad += not ok
        print("shift %+d ms: sum %.1f (>= %gx %.1f), h_nr_queued mismatches %d (> twice) %s" %
              (ms, s, factor, s0, m, "ok" if ok else "MISS"))
    return 1 if bad else 0


def mean_weight(run):
    d = [abs(p["model"]["se.load.weight"] - p["kernel"]["se.load.weight"]) for p in run["pairs"]
         if p["path"] != "/" and "se.load.weight" in p["kernel"] and "se.load.weight" in p["model"]]
    return sum(d) / len(d) if d else float("nan")


def check_variants(a):
    runs = replay(a.bin, a.trace, ["--all-variants"])
    w = {v: mean_weight(r) for v, r in runs.items()}
    bad = 0
    for v in sorted(w, key=w.get):
        print("%-26s mean |model - kernel| se.load.weight %.2f" % (v, w[v]))
    if min(w.values()) < w["base"]:
        print("a variant matches the kernel's weights better than base: MISS")
        bad += 1
    for v in ("no-tg-ratelimit", "aaron-skip", "cfs-group-tick-only"):
        ok = w[v] >= 1.1 * w["base"]
        bad += not ok
        print("%s %.2f >= 1.1 x base %.2f: %s" % (v, w[v], w["base"], "ok" if ok else "MISS"))
    return 1 if bad else 0


def check_loader(a):
    sidecar = json.load(open(a.trace + ".json"))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        def doctored(name, edit):
            d = json.loads(json.dumps(sidecar))
            d["trace"]["file"] = name + ".dat"
            edit(d)
            shutil.copyfile(a.trace, os.path.join(tmp, name + ".dat"))
            with open(os.path.join(tmp, name + ".dat.json"), "w") as f:
                json.dump(d, f)
            return os.path.join(tmp, name + ".dat")

        def run(path, json_out):
            return subprocess.run([a.bin, "replay"] + (["--json"] if json_out else []) + [path],
                                  capture_output=True, text=True, timeout=600)

        def expect(what, ok):
            nonlocal bad
            bad += not ok
            print("%s: %s" % (what, "ok" if ok else "MISS"))

        t = doctored("unavail", lambda d: d.__setitem__(
            "sched_debug", {"available": False, "reason": "no debugfs"}))
        out = run(t, False)
        expect("unavailable: text says not compared",
               out.returncode == 0 and "sched/debug: not compared: no debugfs" in out.stdout)
        out = run(t, True)
        g = json.loads(out.stdout).get("groups_vs_kernel", {}) if out.returncode == 0 else {}
        expect("unavailable: JSON available false",
               g.get("base") == {"available": False, "reason": "no debugfs"})
        t = doctored("absent", lambda d: d.pop("sched_debug"))
        out = run(t, True)
        expect("absent: no groups_vs_kernel",
               out.returncode == 0 and "groups_vs_kernel" not in json.loads(out.stdout))
        out = run(t, False)
        expect("absent: no section", out.returncode == 0 and "sched/debug" not in out.stdout)

        def negative(d):
            d["sched_debug"]["reads"][3]["cpus"][1]["cfs_rqs"][0]["fields"]["tg_load_avg_contrib"] = -5
        out = run(doctored("negative", negative), False)
        expect("negative contrib: exit 1, one line naming it",
               out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1 and
               "fields.tg_load_avg_contrib" in out.stderr)
        out = run(doctored("noclk", lambda d: d["sched_debug"]["reads"][3]["header"].pop("sched_clk")),
                  False)
        expect("no sched_clk: exit 1, one line naming it",
               out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1 and
               "reads[3].header.sched_clk" in out.stderr)
    return 1 if bad else 0


TRACE_PAIRS = 260
TRACE_QUEUED_EQ = 253
KERNEL_DELAYED = 7


def check_trace(a):
    run = replay(a.bin, a.trace, [])["base"]
    q = run.get("queued", {})
    bad = 0

    def expect(what, ok):
        nonlocal bad
        bad += not ok
        print("%s: %s" % (what, "ok" if ok else "MISS"))

    print("queued:", json.dumps(q, sort_keys=True))
    expect("pairs %s = %d" % (q.get("pairs"), TRACE_PAIRS), q.get("pairs") == TRACE_PAIRS)
    expect("trace = kernel h_nr_runnable at sched_clk: %s of %d" % (q.get("trace_eq_kernel"),
                                                                   TRACE_PAIRS),
           q.get("trace_eq_kernel") == TRACE_PAIRS and q.get("trace_within_read") == TRACE_PAIRS)
    expect("trace = kernel h_nr_queued: %s = %d" % (q.get("trace_eq_kernel_queued"), TRACE_QUEUED_EQ),
           q.get("trace_eq_kernel_queued") == TRACE_QUEUED_EQ)
    expect("kernel delayed dequeues: %s = %d" % (q.get("kernel_delayed"), KERNEL_DELAYED),
           q.get("kernel_delayed") == KERNEL_DELAYED)
    # the same from the pairs: the trace side of every pair, exactly
    n = eq = 0
    for p in run["pairs"]:
        t = p.get("trace")
        if t is None or "h_nr_queued" not in p["kernel"]:
            continue
        n += 1
        k = p["kernel"].get("h_nr_runnable", p["kernel"]["h_nr_queued"])
        eq += t["h_nr_queued"] == k and t["h_nr_queued_lo"] <= k <= t["h_nr_queued_hi"] and \
            t["agrees_after_ns"] == 0
    expect("pairs with a trace side %d, all agreeing at once %d" % (n, eq),
           n == TRACE_PAIRS and eq == TRACE_PAIRS)
    mm = q.get("pairs", 0) - q.get("model_eq_kernel", 0)
    split = sum(q.get(k, 0) for k in ("model_ne_drift", "model_ne_delayed", "model_ne_read_later",
                                       "model_ne_trace_ne"))
    expect("model mismatches %d = the split's %d, none where the trace disagrees" % (mm, split),
           mm == split and q.get("model_ne_trace_ne") == 0)
    # read 5: duty30's delayed dequeue on CPU 1 (kernel 2 queued, 1 runnable; the trace 1)
    r5 = [p for p in run["pairs"] if p["read"] == 5 and p["cpu"] == 1 and
          p["path"] == "/schedreplay-9213/duty30"]
    expect("read 5 CPU 1 duty30: kernel 2 queued / 1 runnable, trace 1",
           len(r5) == 1 and r5[0]["kernel"]["h_nr_queued"] == 2 and
           r5[0]["kernel"]["h_nr_runnable"] == 1 and r5[0]["trace"]["h_nr_queued"] == 1)
    return 1 if bad else 0


AT_GAIN = 12
AT_LATER = 12


def check_at(a):
    sidecar = json.load(open(a.trace + ".json"))
    reads = sidecar["sched_debug"]["reads"]
    runs = {m: replay(a.bin, a.trace, ["--seed", "1", "--sched-debug-at", m])["base"]
            for m in ("start", "order", "agree", "cpu")}
    ncpu = 1 + max(p["cpu"] for p in runs["start"]["pairs"])
    bad = 0

    def expect(what, ok):
        nonlocal bad
        bad += not ok
        print("%s: %s" % (what, "ok" if ok else "MISS"))

    def key(p):
        return (p["read"], p["cpu"], p["path"])

    keys = {m: [key(p) for p in r["pairs"]] for m, r in runs.items()}
    expect("the same %d pairs under every value" % len(keys["start"]),
           len(keys["start"]) > 0 and all(k == keys["start"] for k in keys.values()))
    start = {key(p): p for p in runs["start"]["pairs"]}
    for m, r in runs.items():
        wrong = same_wrong = agreed = 0
        for p in r["pairs"]:
            ca = p.get("trace", {}).get("cpu_agrees_after_ns")
            order = int(reads[p["read"]]["read_us"]) * 1000 // ncpu * p["cpu"]
            want = {"start": 0, "order": order, "agree": 0 if ca is None else ca,
                    "cpu": order if ca is None else ca}[m]
            agreed += m in ("agree", "cpu") and ca is not None
            wrong += p["probe_after_ns"] != want
            if want == 0 and p["model"] != start[key(p)]["model"]:
                same_wrong += 1
        expect("%s: every probe where it says (%d wrong), the model's values at sched_clk "
               "those of start (%d differ), %s probed at the trace's agreement = %d" %
               (m, wrong, same_wrong, r["queued"].get("probed_at_trace_agree"), agreed),
               wrong == 0 and same_wrong == 0 and
               r["queued"].get("probed_at_trace_agree") == agreed)
    offs = {}
    for p in runs["cpu"]["pairs"]:
        ca = p.get("trace", {}).get("cpu_agrees_after_ns")
        if ca:
            offs.setdefault(p["cpu"], {})[p["read"]] = ca
    med = {c: sorted(v.values())[len(v) // 2] for c, v in offs.items()}
    print("blocks the trace places after sched_clk, per CPU: %s, median us %s" %
          ({c: len(v) for c, v in offs.items()}, {c: m / 1000 for c, m in med.items()}))
    expect("CPU 1's blocks later than CPU 0's (print_cpu() in CPU order)",
           0 in med and 1 in med and med[1] > med[0])
    qs, qc = runs["start"]["queued"], runs["cpu"]["queued"]
    print("h_nr_queued model = kernel: start %d, cpu %d; read-later mismatches %d -> %d" %
          (qs["model_eq_kernel"], qc["model_eq_kernel"], qs["model_ne_read_later"],
           qc["model_ne_read_later"]))
    expect("cpu matches at %d or more pairs more than start" % AT_GAIN,
           qc["model_eq_kernel"] >= qs["model_eq_kernel"] + AT_GAIN)
    expect("cpu's read-later mismatches at most %d" % AT_LATER,
           qc["model_ne_read_later"] <= AT_LATER)
    for m, r in runs.items():
        q = r["queued"]
        split = sum(q[k] for k in ("model_ne_drift", "model_ne_delayed", "model_ne_read_later",
                                   "model_ne_trace_ne"))
        expect("%s: mismatches %d = the split's %d" % (m, q["pairs"] - q["model_eq_kernel"], split),
               q["pairs"] - q["model_eq_kernel"] == split)
    return 1 if bad else 0


def check_validate(a):
    src = os.path.dirname(os.path.abspath(a.trace))
    th = json.load(open(os.path.join(src, "thresholds.json")))
    bad = 0

    def expect(what, ok):
        nonlocal bad
        bad += not ok
        print("%s: %s" % (what, "ok" if ok else "MISS"))

    with tempfile.TemporaryDirectory() as tmp:
        for f in ("pelt-mix-sd.dat", "pelt-mix.dat"):
            for x in (f, f + ".json"):
                os.symlink(os.path.join(src, x), os.path.join(tmp, x))

        def run(entries, *extra):
            t = {"schema": "schedreplay-thresholds", "version": 1, "goal": th["goal"],
                 "traces": entries}
            with open(os.path.join(tmp, "thresholds.json"), "w") as f:
                json.dump(t, f)
            return subprocess.run([a.bin, "validate", "--dir", tmp, "--seeds", "1"] + list(extra),
                                  capture_output=True, text=True, timeout=600)

        base = {k: dict(th["traces"][k]) for k in ("pelt-mix-sd.dat", "pelt-mix.dat")}
        for e in base.values():
            e.pop("max_rel_error", None)        # the held metrics are not this test's,
            e.pop("groups_vs_kernel", None)     # nor thresholds.json's own groups limits
        out = run(base)
        expect("no limits: exit 0", out.returncode == 0)
        expect("text: the headline lines",
               "groups vs sched/debug (30 reads" in out.stdout and
               "tg_load_avg median |m-k|" in out.stdout and
               "se.load.weight median |m-k|" in out.stdout and
               "h_nr_queued model = kernel" in out.stdout and
               "260 of 260 at the read's time, 260 within the read" in out.stdout)
        expect("text: one headline (pelt-mix has no reads)",
               out.stdout.count("groups vs sched/debug") == 1)
        out = run(base, "--markdown")
        expect("markdown: the row", out.returncode == 0 and
               "| groups vs sched/debug (30 reads) | trace = kernel 260 of 260" in out.stdout)
        out = run(base, "--json")
        js = json.loads(out.stdout) if out.returncode == 0 else {"traces": {}}
        g = js["traces"].get("pelt-mix-sd.dat", {}).get("groups_vs_kernel", {})
        expect("json: pelt-mix-sd's groups_vs_kernel",
               g.get("pairs") == 260 and g.get("trace_queued_eq_kernel") == 260 and
               g.get("reads") == 30 and g.get("tg_load_avg_median_abs", {}).get("limit") is None
               and g["tg_load_avg_median_abs"].get("over") is False and
               0 <= g["tg_load_avg_median_abs"]["predicted"] <= 5)
        expect("json: none for pelt-mix",
               "groups_vs_kernel" not in js["traces"].get("pelt-mix.dat", {"groups_vs_kernel": 1}))
        loose = json.loads(json.dumps(base))
        loose["pelt-mix-sd.dat"]["groups_vs_kernel"] = {
            "max_tg_load_avg_median_abs": 5, "max_weight_median_abs": 1, "min_queued_agree": 0.9}
        out = run(loose)
        expect("loose limits: exit 0, shown", out.returncode == 0 and "limit <= 5" in out.stdout
               and "limit >= 90%" in out.stdout and "  OVER" not in out.stdout)
        tight = json.loads(json.dumps(base))
        tight["pelt-mix-sd.dat"]["groups_vs_kernel"] = {"max_tg_load_avg_median_abs": 0.5}
        out = run(tight)
        expect("tight tg_load_avg limit: exit 1, OVER",
               out.returncode == 1 and "limit <= 0.5  OVER" in out.stdout)
        out = run(tight, "--json")
        g = json.loads(out.stdout)["traces"]["pelt-mix-sd.dat"]["groups_vs_kernel"] \
            if out.stdout else {}
        expect("tight: json over", out.returncode == 1 and
               g.get("tg_load_avg_median_abs", {}).get("over") is True and
               g["tg_load_avg_median_abs"].get("limit") == 0.5)
        none = json.loads(json.dumps(base))
        none["pelt-mix.dat"]["groups_vs_kernel"] = {"max_weight_median_abs": 1}
        out = run(none)
        expect("limits without reads: the trace fails",
               out.returncode == 1 and "pelt-mix.dat" in out.stdout and
               "no sched/debug reads" in out.stdout)
        for key, val, part in (("max_tg_load_avg", 5, "unknown limit"),
                               ("min_queued_agree", 2, "not a fraction")):
            bad_e = json.loads(json.dumps(base))
            bad_e["pelt-mix-sd.dat"]["groups_vs_kernel"] = {key: val}
            out = run(bad_e)
            expect("%s %s: refused, one line" % (key, val),
                   out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1 and
                   part in out.stderr and key in out.stderr)
    return 1 if bad else 0


def decompose_run(run):
    """Per non-root group: the per-read and per-pair terms of the decomposition
    tg_load_avg(m - k) = sum_cpu load_avg(m - k) - sum_cpu lag(m - k),
    lag = load_avg - tg_load_avg_contrib (the contribution's staleness)."""
    by = {}
    for p in run["pairs"]:
        if p["path"] == "/" or "tg_load_avg" not in p["kernel"]:
            continue
        by.setdefault(p["path"], {}).setdefault(p["read"], []).append(p)
    out = {}
    for path, reads in by.items():
        d = {"tg": [], "load": [], "ident": [], "lag_m": [], "lag_k": [], "load_hnr": [],
             "load_rest": []}
        for _, pairs in sorted(reads.items()):
            k, m = pairs[0]["kernel"], pairs[0]["model"]
            tg = m["tg_load_avg"] - k["tg_load_avg"]
            load = sum(p["model"]["load_avg"] - p["kernel"]["load_avg"] for p in pairs)
            contrib = sum(p["model"]["tg_load_avg_contrib"] - p["kernel"]["tg_load_avg_contrib"]
                          for p in pairs)
            hnr = sum(p["model"]["h_nr_queued"] - p["kernel"]["h_nr_queued"] for p in pairs)
            d["tg"].append(tg)
            d["load"].append(load)
            d["ident"].append(abs(tg - contrib))
            (d["load_hnr"] if hnr else d["load_rest"]).append(load)
            for p in pairs:
                d["lag_m"].append(p["model"]["load_avg"] - p["model"]["tg_load_avg_contrib"])
                d["lag_k"].append(p["kernel"]["load_avg"] - p["kernel"]["tg_load_avg_contrib"])
        out[path] = d
    return out


def mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


def mean_abs(xs):
    return mean([abs(x) for x in xs])


def decomposed(a, variants, seeds):
    """{variant: {group: {term: [values over every seed]}}} (reads over seeds)."""
    res = {}
    for v in variants:
        acc = {}
        for s in range(1, seeds + 1):
            run = replay(a.bin, a.trace, ["--variant", v, "--seed", str(s)])
            for path, d in decompose_run(list(run.values())[0]).items():
                for term, xs in d.items():
                    acc.setdefault(path, {}).setdefault(term, []).extend(xs)
        res[v] = acc
    return res


def decompose(a):
    variants = a.variants.split(",")
    res = decomposed(a, variants, a.seeds)
    print("tg_load_avg(m - k) = sum over CPUs of load_avg(m - k) - sum of lag(m - k), "
          "lag = load_avg - tg_load_avg_contrib; seeds 1-%d" % a.seeds)
    print("%-16s %-28s %8s %8s %8s %8s %15s %15s %9s %9s %6s" %
          ("variant", "group", "|tg|", "tg", "|load|", "load", "lag model", "lag kernel",
           "load@hnr", "load@rest", "reads"))
    for v in variants:
        for path, d in sorted(res[v].items()):
            n = len(d["load"])
            print("%-16s %-28s %8.1f %+8.1f %8.1f %+8.1f %+7.1f / %5.1f %+7.1f / %5.1f %+9.1f %+9.1f %6d" %
                  (v, path, mean_abs(d["tg"]), mean(d["tg"]), mean_abs(d["load"]), mean(d["load"]),
                   mean(d["lag_m"]), mean_abs(d["lag_m"]), mean(d["lag_k"]), mean_abs(d["lag_k"]),
                   sum(d["load_hnr"]) / n, sum(d["load_rest"]) / n, n))
    print("(lag: signed mean / mean |.| per (read, CPU); load@hnr / load@rest: the signed mean "
          "load error's share from the reads where the group's queued-task count differs / the others)")
    return 0


STALE_GROUP = "/schedreplay-15068/compile"
STALE_SEEDS = 3
STALE_BAND = 8          # measured: base -15.6 against the kernel's -11.7 (seeds 1-20)
HNR_SHARE = 0.8         # measured: -81.2 of -84.9 (seeds 1-20)


def check_staleness(a):
    res = decomposed(a, ["base", "no-tg-ratelimit"], STALE_SEEDS)
    bad = 0
    d, o = res["base"].get(STALE_GROUP), res["no-tg-ratelimit"].get(STALE_GROUP)
    if not d or not o:
        print("%s: not compared: MISS" % STALE_GROUP)
        return 1
    worst = max(max(r[STALE_GROUP]["ident"]) for r in res.values())
    ok = worst <= 1.5
    bad += not ok
    print("identity tg_load_avg = sum of contributions: largest residue %.1f (<= 1.5) %s" %
          (worst, "ok" if ok else "MISS"))
    lk, lb, lo = mean(d["lag_k"]), mean(d["lag_m"]), mean(o["lag_m"])
    ok = abs(lb - lk) <= STALE_BAND and abs(lb - lk) < abs(lo - lk)
    bad += not ok
    print("lag load_avg - contrib per CPU: kernel %+.1f, base %+.1f (within %d), "
          "no-tg-ratelimit %+.1f (further) %s" % (lk, lb, STALE_BAND, lo, "ok" if ok else "MISS"))
    tot, hnr = sum(d["load"]), sum(d["load_hnr"])
    ok = tot < 0 and hnr <= HNR_SHARE * tot
    bad += not ok
    print("base's signed load error %.1f per read, %.1f of it at the reads whose queued-task count "
          "differs (>= %.0f %%) %s" % (tot / len(d["load"]), hnr / len(d["load"]), 100 * HNR_SHARE,
                                      "ok" if ok else "MISS"))
    return 1 if bad else 0


def table(a):
    shifts = [int(x) for x in a.shifts.split(",")]
    print("%-8s %s" % ("shift", " ".join("%24s" % p.split("/")[-1] for p in CAPTURE_GROUPS)))
    for ms in shifts:
        run = replay(a.bin, a.trace, ["--sched-debug-shift", str(ms)])["base"]
        cells = []
        for p in CAPTURE_GROUPS:
            st = run["groups"].get(p, {}).get("tg_load_avg")
            cells.append("%24s" % ("%.0f / %.0f" % (st["median_abs"], st["p95_abs"]) if st else "-"))
        print("%+6d ms %s  h_nr_queued mismatches %d, reads %d" %
              (ms, " ".join(cells), nr_mismatch(run), run["reads"]))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--check", choices=["limits", "shift", "variants", "loader", "staleness",
                                        "trace", "validate", "at"])
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--decompose", action="store_true")
    ap.add_argument("--variants", default="base,no-tg-ratelimit")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--shifts", default="-50,-10,-2,-1,0,1,2,10,50")
    ap.add_argument("trace")
    a = ap.parse_args()
    if a.table:
        return table(a)
    if a.decompose:
        return decompose(a)
    return {"limits": check_limits, "shift": check_shift, "variants": check_variants,
            "loader": check_loader, "staleness": check_staleness,
            "trace": check_trace, "validate": check_validate,
            "at": check_at}[a.check or "limits"](a)


if __name__ == "__main__":
    sys.exit(main())
