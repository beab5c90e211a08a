#!/usr/bin/env python3
"""The sidecar's lost-event counters against the trace's gaps (inp38).

    lost_sidecar.py SCHEDREPLAY TRACES_DIR WORK_DIR

The capture's sidecar (TRACE.dat.json, "lost") holds the kernel's counters:
overrun, dropped_events, commit_overrun, per CPU and in all, and the pages
of the trace its read-back found flagged.  The kernel marks a page of the
trace after an overrun only; events dropped on a full buffer or by a commit
overrun are missing without a mark.  Doctored copies, made here:

1. bw-hogs.dat's sidecar as captured (no losses, none marked): they agree,
   no warning, report and replay exit 0.
2. 500 dropped_events on CPU 1 (per CPU and in all): the trace marks none;
   report warns naming both figures and which one is trusted, says
   "none marked in the trace; the sidecar counts 500" and exits 1 (partial
   results; --allow-lost: 0); replay, whatif and validate warn on stderr
   and exit 0; both JSONs' trace.lost_events_sidecar say so.
3. the totals without lost.per_cpu (overrun 7): compared in all.
4. pages_with_missed_events 3, counters 0, no gap in the trace.
5. small-lost.dat (CPU 0: a gap of unknown size, CPU 1: 909 lost) with a
   hand-made sidecar that counts none: the trace's gaps the sidecar does
   not count; with per-CPU counts of its own (1, 909): they agree.
6. lost.per_cpu naming a CPU the topology lacks, twice, or a count that is
   not one, or per-CPU counts that do not add up to a total (500 dropped in
   all, none on any CPU: 'lost: none' at exit 0 before fuzz39): the
   loader's one-line error, exit 1.

Before inp38 cases 2-5 read at exit 0 without a word (report: "lost: none").
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
    else:
        print(f"ok: {what}")


def run(sr, *args):
    p = subprocess.run([sr, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def lines(err):
    return [ln for ln in err.split("\n") if ln.strip()]


def doctored(work, name, trace, doc):
    """WORK/NAME/t.dat (a link to trace) with doc as its sidecar t.dat.json"""
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    t = os.path.join(d, "t.dat")
    if os.path.lexists(t):
        os.unlink(t)
    os.symlink(trace, t)
    with open(t + ".json", "w") as fh:
        json.dump(doc, fh)
    return t


def lost_of(out):
    return json.loads(out)["trace"]["lost_events_sidecar"]


def bw_cases(sr, traces, work):
    trace = os.path.join(traces, "bw-hogs.dat")
    with open(trace + ".json") as fh:
        base = json.load(fh)

    # 1. as captured: they agree
    t = doctored(work, "agree", trace, base)
    rc, out, err = run(sr, "report", "--json", t)
    check("as captured: report exit", rc, 0)
    ls = lost_of(out)
    check("as captured: report agrees", (ls["agrees"], ls["trusted"], ls["warnings"]),
          (True, "trace", []))
    rc, out, err = run(sr, "replay", "--json", t)
    check("as captured: replay exit and stderr", (rc, lines(err)), (0, []))
    check("as captured: replay agrees", lost_of(out)["agrees"], True)

    # 2. 500 dropped on CPU 1, not marked
    doc = json.loads(json.dumps(base))
    doc["lost"]["dropped_events"] = 500
    doc["lost"]["per_cpu"][1]["dropped_events"] = 500
    doc["lost"]["any"] = True
    t = doctored(work, "dropped", trace, doc)
    want = ("sidecar " + t + ".json counts 500 lost events on CPU 1 where the trace marks no "
            "gap (in all: overrun 0, dropped_events 500, commit_overrun 0; the kernel marks "
            "only overruns in the trace): the trace is trusted, so the results lack those "
            "events at points it does not show")
    rc, out, err = run(sr, "report", t)
    check("dropped: report exit", rc, 1)
    check("dropped: report stderr", lines(err), [
        f"schedreplay report: {t}: warning: {want}",
        f"schedreplay report: {t}: 500 events lost by the sidecar's count, none marked in "
        "the trace: the results above are partial (--allow-lost accepts them)"])
    check("dropped: report text's lost line",
          "lost:    none marked in the trace; the sidecar counts 500 -- partial results" in
          out.split("\n"), True)
    rc, out, err = run(sr, "report", "--json", "--allow-lost", t)
    check("dropped: report --allow-lost exit", rc, 0)
    d = json.loads(out)
    ls = d["trace"]["lost_events_sidecar"]
    check("dropped: report JSON", (ls["agrees"], ls["dropped_events"], ls["total"],
                                   ls["per_cpu"], ls["unmarked"], ls["unmarked_cpus"],
                                   ls["uncounted"], ls["pages_unmarked"], ls["warnings"]),
          (False, 500, 500, [0, 500], 500, [1], 0, False, [want]))
    check("dropped: report JSON lost_events (the trace's)", d["trace"]["lost_events"], 0)
    check("dropped: report JSON warnings", want in d["warnings"], True)
    for cmd in (["replay"], ["replay", "--json"], ["whatif", "--variant", "aaron-skip"]):
        rc, out, err = run(sr, *cmd, t)
        check(f"dropped: {' '.join(cmd)} exit and stderr", (rc, lines(err)),
              (0, [f"schedreplay {cmd[0]}: {t}: warning: {want}"]))
        if "--json" in cmd:
            ls = lost_of(out)
            check("dropped: replay JSON", (ls["agrees"], ls["unmarked"], ls["unmarked_cpus"]),
                  (False, 500, [1]))
        elif cmd[0] == "replay":
            check("dropped: replay text's lost line", f"lost:      {want}" in out.split("\n"),
                  True)
    vd = os.path.join(work, "dropped-dir")
    os.makedirs(vd, exist_ok=True)
    for name, src in (("bw-hogs.dat", trace), ("bw-hogs.dat.json", t + ".json"),
                      ("thresholds.json", os.path.join(traces, "thresholds.json"))):
        if not os.path.lexists(os.path.join(vd, name)):
            os.symlink(src, os.path.join(vd, name))
    rc, out, err = run(sr, "validate", "--dir", vd, "--seeds", "1")
    check("dropped: validate's warning", [ln for ln in lines(err) if "lost events" in ln], [
        f"schedreplay validate: {vd}/bw-hogs.dat: warning: " +
        want.replace(t + ".json", f"{vd}/bw-hogs.dat.json")])

    # 3. the totals alone
    doc = json.loads(json.dumps(base))
    doc["lost"]["overrun"] = 7
    del doc["lost"]["per_cpu"]
    t = doctored(work, "totals", trace, doc)
    rc, out, err = run(sr, "report", "--json", t)
    check("totals: report exit", rc, 1)
    ls = lost_of(out)
    check("totals: report JSON", (ls["per_cpu"], ls["unmarked"], ls["unmarked_cpus"]),
          (None, 7, None))
    check("totals: warning", ls["warnings"], [
        f"sidecar {t}.json counts 7 lost events where the trace marks no gap (in all: "
        "overrun 7, dropped_events 0, commit_overrun 0; the kernel marks only overruns in "
        "the trace): the trace is trusted, so the results lack those events at points it "
        "does not show"])

    # 4. flagged pages the trace does not have
    doc = json.loads(json.dumps(base))
    doc["lost"]["pages_with_missed_events"] = 3
    t = doctored(work, "pages", trace, doc)
    rc, out, err = run(sr, "report", t)
    check("pages: report exit", rc, 1)
    check("pages: report stderr", lines(err), [
        f"schedreplay report: {t}: warning: sidecar {t}.json says the capture read 3 trace "
        "pages flagged with missed events, but this trace marks no gap: the trace is trusted "
        "(was it rewritten without its marks?), so the results lack events at points it does "
        "not show",
        f"schedreplay report: {t}: events lost by the sidecar's flagged pages, none marked in "
        "the trace: the results above are partial (--allow-lost accepts them)"])

    # 6. lost.per_cpu that is not the topology's, or whose counts do not add
    # up to the totals (fuzz39: the comparison reads the per-CPU counts, so
    # dropped_events 500 in all over CPUs of 0 each was 'lost: none', exit 0)
    for name, edit, msg in (
            ("cpu-range", lambda lo: lo["per_cpu"][1].update(cpu=2),
             "lost.per_cpu[1].cpu is not a CPU of cpus.topology"),
            ("cpu-twice", lambda lo: lo["per_cpu"][1].update(cpu=0),
             "lost.per_cpu[1].cpu is listed twice"),
            ("cpu-none", lambda lo: lo["per_cpu"][0].pop("cpu"), "lost.per_cpu[0].cpu is missing"),
            ("count", lambda lo: lo["per_cpu"][0].update(overrun="12"),
             "lost.per_cpu[0].overrun is not a count"),
            ("sum-total", lambda lo: lo.update(dropped_events=500),
             "lost.dropped_events is 500 but lost.per_cpu's dropped_events add up to 0"),
            ("sum-empty", lambda lo: lo.update(overrun=7, per_cpu=[]),
             "lost.overrun is 7 but lost.per_cpu's overrun add up to 0"),
            ("sum-cpu", lambda lo: lo["per_cpu"][0].update(commit_overrun=3),
             "lost.commit_overrun is 0 but lost.per_cpu's commit_overrun add up to 3")):
        doc = json.loads(json.dumps(base))
        edit(doc["lost"])
        t = doctored(work, name, trace, doc)
        for cmd in ("report", "replay"):
            rc, out, err = run(sr, cmd, t)
            ok = rc == 1 and len(lines(err)) == 1 and msg in err and t + ".json" in err
            check(f"{name}: {cmd} refuses it in one line naming the file and '{msg}'",
                  (ok, err.strip() if not ok else ""), (True, ""))


def lost_cases(sr, traces, work):
    trace = os.path.join(traces, "small-lost.dat")
    doc = {"schema": "schedreplay-sidecar", "schema_version": 1, "trace": {"file": "t.dat"},
           "kernel": {"release": "6.18.0"}, "cpus": {"topology": [{"cpu": 0}, {"cpu": 1}]},
           "tasks_at_start": [],
           "lost": {"overrun": 0, "dropped_events": 0, "commit_overrun": 0,
                    "pages_with_missed_events": 0,
                    "per_cpu": [{"cpu": 0, "overrun": 0}, {"cpu": 1, "overrun": 0}]}}
    # 5. the trace's gaps, not counted
    t = doctored(work, "uncounted", trace, doc)
    want = (f"the trace marks >= 910 lost events on CPUs 0, 1 that sidecar {t}.json does not "
            "count (in all: overrun 0, dropped_events 0, commit_overrun 0): the trace's gaps "
            "are used; is the sidecar this capture's?")
    rc, out, err = run(sr, "report", "--json", t)
    check("uncounted: report exit (the trace's lost events)", rc, 1)
    ls = lost_of(out)
    check("uncounted: report JSON", (ls["agrees"], ls["uncounted"], ls["uncounted_cpus"],
                                     ls["unmarked"], ls["warnings"]),
          (False, 910, [0, 1], 0, [want]))
    check("uncounted: report's warning", f"schedreplay report: {t}: warning: {want}" in
          lines(err), True)
    marked = (f"schedreplay replay: {t}: warning: >= 910 events lost (ring-buffer overrun): "
              "the measured figures miss them, and the predicted events inside each CPU's "
              "lost-events window are not compared")
    rc, out, err = run(sr, "replay", "--json", t)
    check("uncounted: replay exit and stderr", (rc, lines(err)),
          (0, [marked, f"schedreplay replay: {t}: warning: {want}"]))
    check("uncounted: replay JSON", lost_of(out)["uncounted"], 910)
    # ... and with counts of its own on both CPUs: they agree
    doc["lost"]["overrun"] = 910
    doc["lost"]["per_cpu"] = [{"cpu": 0, "overrun": 1}, {"cpu": 1, "overrun": 909}]
    t = doctored(work, "counted", trace, doc)
    rc, out, err = run(sr, "replay", "--json", t)
    check("counted: replay exit and stderr", (rc, lines(err)),
          (0, [marked.replace("uncounted", "counted")]))
    check("counted: replay JSON agrees", lost_of(out)["agrees"], True)


def main():
    if len(sys.argv) != 4:
        print("usage: lost_sidecar.py SCHEDREPLAY TRACES_DIR WORK_DIR")
        return 2
    sr, traces, work = sys.argv[1:]
    traces = os.path.abspath(traces)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    bw_cases(sr, traces, work)
    lost_cases(sr, traces, work)
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
