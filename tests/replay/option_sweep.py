#!/usr/bin/env python3
"""Robustness sweep of the replay/model options (docs/replay.md, helper scripts).

Runs `schedreplay replay` with every non-default model/replay option value ONE
AT A TIME, plus pairs that interact, on every trace of --dir (the small ones
first), with --random N random combinations of 2..6 options on the small
traces, a few `whatif`, `report` and `validate` cases of their own, and with
--external DIR the external captures (a subset of the options, all of them
with --external-all).  The project's rule: any input or option combination
gets correct output or a one-line actionable error with a non-zero exit -
never a crash, a sanitizer report, a hang or nondeterministic output.

A case is flagged when
  * the exit status is not 0, 1 or 2 (a signal, ASan's exit code), or the run
    outlived --timeout (a hang),
  * stderr has a sanitizer report ("runtime error:", "AddressSanitizer",
    "LeakSanitizer", ...), whatever the exit status,
  * an exit 1 or 2 comes with no line on stderr or more than --max-err-lines
    (validate's documented exit 1 for a limit exceeded, its --json "ok":
    false, is a result, not an error),
  * --json differs between two identical runs (a sample of --determinism N
    replay cases), or between --threads 1 and 2 (replay --all-variants,
    whatif --seeds 3; whatif's documented run facts threads and wall_seconds
    aside).

Build with -DSCHEDREPLAY_SANITIZE=ON for the sanitizer checks; a Release
build checks exit codes, errors and determinism only.  Every run is under
`nice -n 19` (--nice).  Exit 0 if nothing is flagged, 1 otherwise; a summary per option
on stdout, then each flagged case with its command line and stderr.

  tests/replay/option_sweep.py --bin BUILD/schedreplay --dir traces \
      [--external /work/shared/traces-external [--external-all]] \
      [--traces small-] [--random 400] [--timeout 300] [--jobs 2] \
      [--determinism 20] [--quick] [--only LABEL] [--log FILE.jsonl]
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

SAN_RE = re.compile(r"runtime error:|AddressSanitizer|LeakSanitizer|"
                    r"UndefinedBehaviorSanitizer|ThreadSanitizer|"
                    r"SUMMARY: \w+Sanitizer")

# One option (value) at a time: (label, argv).
SINGLE = [
    ("placement=model", ["--placement", "model"]),
    ("handoff=preempt", ["--handoff", "preempt"]),
    ("handoff=yield", ["--handoff", "yield"]),
    ("handoff=sleep", ["--handoff", "sleep"]),
    ("handoff=writeon", ["--handoff", "writeon"]),
    ("handoff=writeon-pre", ["--handoff", "writeon-pre"]),
    ("channels=auto", ["--channels", "auto"]),
    ("channels=strict", ["--channels", "strict"]),
    ("early-wakes=nosample", ["--early-wakes", "nosample"]),
    ("early-wakes=nocost", ["--early-wakes", "nocost"]),
    ("early-wakes=sleep", ["--early-wakes", "sleep"]),
    ("skip-early-blocks", ["--skip-early-blocks"]),
    ("exit-preempt=now", ["--exit-preempt", "now"]),
    ("idle-residency=on", ["--idle-residency", "on"]),
    ("waker-costs=placed", ["--waker-costs", "placed"]),
    ("waker-costs=follow", ["--waker-costs", "follow"]),
    ("no-flush-hold", ["--no-flush-hold"]),
    ("idle-pull", ["--idle-pull"]),
    ("channel-wakes", ["--channel-wakes"]),
    ("channel-races", ["--channel-races"]),
    ("oneway-no-wait", ["--oneway-no-wait"]),
    ("state-placement", ["--state-placement"]),
    ("state-placement-wakes", ["--state-placement-wakes"]),
    ("stop-at-end", ["--stop-at-end"]),
    ("no-repair", ["--no-repair"]),
    ("no-costs", ["--no-costs"]),
    ("preempt-costs=all", ["--preempt-costs", "all"]),
    ("no-bandwidth", ["--no-bandwidth"]),
    ("vcpu-pack", ["--vcpu-pack"]),
    ("no-vcpu-pack", ["--no-vcpu-pack"]),
    ("profile=auto", ["--profile", "auto"]),
    ("profile=6.18", ["--profile", "6.18"]),
    ("profile=6.12", ["--profile", "6.12"]),
    ("profile=6.5", ["--profile", "6.5"]),
    ("profile=6.1", ["--profile", "6.1"]),
    ("all-variants", ["--all-variants", "--threads", "1"]),
    ("placement-check", ["--placement-check"]),
    ("dump-events", ["--dump-events", "@DUMP@"]),
    ("dump-events+dump-wake-records", ["--dump-events", "@DUMP@", "--dump-wake-records"]),
    ("balance-attach=kernel-order", ["--balance-attach", "kernel-order"]),
    ("json", ["--json"]),
    ("settings", ["--settings"]),
    ("top=0", ["--top", "0"]),
    ("seed=7", ["--seed", "7"]),
    ("comm=@COMM@", ["--comm", "@COMM@"]),
    ("hz=100", ["--hz", "100"]),
    ("hz=1000", ["--hz", "1000"]),
    ("no-sidecar", ["--no-sidecar"]),
]

# Pairs (and a few triples) that interact.
PAIRS = [
    ("placement=model+channels=strict", ["--placement", "model", "--channels", "strict"]),
    ("placement=model+channels=auto", ["--placement", "model", "--channels", "auto"]),
    ("placement=model+handoff=sleep", ["--placement", "model", "--handoff", "sleep"]),
    ("placement=model+vcpu-pack", ["--placement", "model", "--vcpu-pack"]),
    ("placement=model+profile=6.1", ["--placement", "model", "--profile", "6.1"]),
    ("placement=model+stop-at-end", ["--placement", "model", "--stop-at-end"]),
    ("placement=model+no-repair", ["--placement", "model", "--no-repair"]),
    ("handoff=yield+profile=6.12", ["--handoff", "yield", "--profile", "6.12"]),
    ("handoff=yield+profile=6.5", ["--handoff", "yield", "--profile", "6.5"]),
    ("handoff=yield+profile=6.1", ["--handoff", "yield", "--profile", "6.1"]),
    ("handoff=sleep+profile=6.1", ["--handoff", "sleep", "--profile", "6.1"]),
    ("handoff=yield+channels=strict", ["--handoff", "yield", "--channels", "strict"]),
    ("handoff=sleep+channels=strict", ["--handoff", "sleep", "--channels", "strict"]),
    ("handoff=sleep+oneway-no-wait", ["--handoff", "sleep", "--oneway-no-wait"]),
    ("stop-at-end+channels=strict", ["--stop-at-end", "--channels", "strict"]),
    ("stop-at-end+handoff=sleep", ["--stop-at-end", "--handoff", "sleep"]),
    ("stop-at-end+no-repair", ["--stop-at-end", "--no-repair"]),
    ("channels=strict+channel-wakes", ["--channels", "strict", "--channel-wakes"]),
    ("channels=auto+oneway-no-wait", ["--channels", "auto", "--oneway-no-wait"]),
    ("channels=strict+no-costs", ["--channels", "strict", "--no-costs"]),
    ("channels=strict+profile=6.1", ["--channels", "strict", "--profile", "6.1"]),
    ("early-wakes=sleep+skip-early-blocks", ["--early-wakes", "sleep", "--skip-early-blocks"]),
    ("early-wakes=sleep+channels=strict", ["--early-wakes", "sleep", "--channels", "strict"]),
    ("state-placement+idle-pull", ["--state-placement", "--idle-pull"]),
    ("state-placement+vcpu-pack", ["--state-placement", "--vcpu-pack"]),
    ("placement-check+state-placement", ["--placement-check", "--state-placement"]),
    ("placement-check+placement=model", ["--placement-check", "--placement", "model"]),
    ("idle-residency=on+no-costs", ["--idle-residency", "on", "--no-costs"]),
    ("idle-residency=on+no-repair", ["--idle-residency", "on", "--no-repair"]),
    ("no-costs+preempt-costs=all", ["--no-costs", "--preempt-costs", "all"]),
    ("waker-costs=follow+placement=model", ["--waker-costs", "follow", "--placement", "model"]),
    ("waker-costs=placed+idle-pull", ["--waker-costs", "placed", "--idle-pull"]),
    ("waker-costs=follow+no-costs", ["--waker-costs", "follow", "--no-costs"]),
    ("waker-costs=follow+handoff=writeon", ["--waker-costs", "follow", "--handoff", "writeon"]),
    ("no-sidecar+placement=model", ["--no-sidecar", "--placement", "model"]),
    ("no-sidecar+channels=strict", ["--no-sidecar", "--channels", "strict"]),
    ("hz=100+stop-at-end", ["--hz", "100", "--stop-at-end"]),
    ("hz=1000+placement=model", ["--hz", "1000", "--placement", "model"]),
    ("hz=1000+profile=6.1", ["--hz", "1000", "--profile", "6.1"]),
    ("exit-preempt=now+handoff=sleep", ["--exit-preempt", "now", "--handoff", "sleep"]),
    ("cgroup-map quota", ["--cgroup-map", "@CGMAP_QUOTA@"]),
    ("cgroup-map quota+no-bandwidth", ["--cgroup-map", "@CGMAP_QUOTA@", "--no-bandwidth"]),
    ("cgroup-map quota+placement=model", ["--cgroup-map", "@CGMAP_QUOTA@", "--placement", "model"]),
    ("cgroup-map quota+stop-at-end", ["--cgroup-map", "@CGMAP_QUOTA@", "--stop-at-end"]),
    ("cgroup-map quota+profile=6.1", ["--cgroup-map", "@CGMAP_QUOTA@", "--profile", "6.1"]),
    ("cgroup-map quota+no-sidecar", ["--cgroup-map", "@CGMAP_QUOTA@", "--no-sidecar"]),
    ("cgroup-map tiny quota", ["--cgroup-map", "@CGMAP_TINY@"]),
    ("cgroup-map quota -1", ["--cgroup-map", "@CGMAP_NONE@"]),
    ("balance-attach=kernel-order+placement=model", ["--balance-attach", "kernel-order",
                                                     "--placement", "model"]),
    ("balance-attach=kernel-order+idle-pull", ["--balance-attach", "kernel-order", "--idle-pull"]),
    ("balance-attach=kernel-order+state-placement", ["--balance-attach", "kernel-order",
                                                     "--state-placement"]),
    ("balance-attach=kernel-order+profile=6.1", ["--balance-attach", "kernel-order",
                                                 "--profile", "6.1"]),
    ("balance-attach=kernel-order+stop-at-end", ["--balance-attach", "kernel-order", "--stop-at-end"]),
    ("dump-wake-records+handoff=sleep+channels=strict", ["--dump-events", "@DUMP@",
                                                        "--dump-wake-records", "--handoff",
                                                        "sleep", "--channels", "strict"]),
    ("dump-wake-records+early-wakes=sleep", ["--dump-events", "@DUMP@", "--dump-wake-records",
                                             "--early-wakes", "sleep"]),
    ("everything-on", ["--placement", "model", "--channels", "strict", "--handoff", "sleep",
                       "--early-wakes", "sleep", "--exit-preempt", "now", "--idle-residency", "on",
                       "--no-flush-hold", "--channel-wakes", "--channel-races", "--oneway-no-wait",
                       "--stop-at-end", "--preempt-costs", "all", "--vcpu-pack",
                       "--balance-attach", "kernel-order", "--waker-costs", "follow"]),
]

# The external traces: a subset (their names: run_cases's label).
EXTERNAL_OPTS = ["", "placement=model", "channels=strict", "handoff=yield",
                 "handoff=sleep", "stop-at-end", "no-repair", "profile=6.1",
                 "state-placement", "placement-check", "json", "hz=1000",
                 "early-wakes=sleep", "idle-residency=on", "everything-on"]

# whatif/validate/report: a few of their own options.
def other_cases(tr, tmp):
    base = os.path.basename(tr)
    return [
        ("whatif", ["whatif", "--seeds", "2", "--threads", "1", "--json", tr]),
        ("whatif variant+svg", ["whatif", "--variant", "base", "--threads", "1",
                                "--svg", os.path.join(tmp, base + ".svg"), tr]),
        ("whatif placement=model", ["whatif", "--variant", "base", "--threads", "1",
                                    "--placement", "model", "--handoff", "yield", tr]),
        ("report --by pid --by cgroup", ["report", "--by", "pid", "--by", "cgroup", "--top", "0", tr]),
        ("report --start wakeup --json", ["report", "--start", "wakeup", "--json", tr]),
        ("report --no-repair --samples", ["report", "--no-repair", "--samples",
                                          os.path.join(tmp, base + ".samples"), tr]),
    ]


def trace_comm(binary, tr, env):
    """The comm prefix of the trace's busiest task (3 characters), or None."""
    try:
        p = subprocess.run([binary, "report", "--json", "--allow-lost", tr], env=env,
                           capture_output=True, timeout=300)
        d = json.loads(p.stdout)
        tasks = [t for t in d.get("tasks", []) if t.get("comm")]
        if not tasks:
            return None
        tasks.sort(key=lambda t: (-t.get("switches", 0), t["comm"]))
        return tasks[0]["comm"][:3]
    except (subprocess.SubprocessError, ValueError):
        return None


def trace_groups(tr):
    """The sidecar's non-root cgroup paths of the trace, if any."""
    try:
        d = json.load(open(tr + ".json"))
        return [g["path"] for g in d["cgroup"]["groups"] if g["path"] != "/"]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def write_cgmaps(tr, tmp):
    """--cgroup-map files for TR: a quota on the sidecar's leaf groups (or a
    group of the busiest pid), a tiny one, and -1 (none)."""
    base = os.path.basename(tr)
    groups = trace_groups(tr)
    leafs = [g for g in groups if not any(h != g and h.startswith(g + "/") for h in groups)]
    out = {}
    for key, quota in (("@CGMAP_QUOTA@", "20000 100000"), ("@CGMAP_TINY@", "1000 1000"),
                       ("@CGMAP_NONE@", "-1")):
        path = os.path.join(tmp, "%s.%s.cgmap" % (base, key.strip("@").lower()))
        with open(path, "w") as f:
            if leafs:
                for g in leafs:
                    f.write("quota %s %s\n" % (g, quota))
            else:
                # no sidecar groups: put pid 1 (absent or not) and a made-up
                # group under a quota; the map must still be accepted
                f.write("1 /sweep\nshares /sweep 512\nquota /sweep %s\n" % quota)
        out[key] = path
    return out


def run_one(binary, argv, env, timeout, nice=19):
    try:
        p = subprocess.run((["nice", "-n", str(nice)] if nice else []) + [binary] + argv, env=env,
                           capture_output=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", b"", ""


def validate_failed(argv, rc, out):
    """validate's exit 1 for a limit exceeded: documented, on stdout (its
    JSON's "ok": false), no error on stderr."""
    if argv[0] != "validate" or rc != 1 or "--json" not in argv:
        return False
    try:
        return json.loads(out).get("ok") is False
    except ValueError:
        return False


def comparable(argv, out):
    """@out as compared between two runs: whatif --json's documented run
    facts (whatif.threads, whatif.wall_seconds: docs/variants.md) dropped."""
    if argv[0] != "whatif" or "--json" not in argv:
        return out
    try:
        d = json.loads(out)
        for k in ("threads", "wall_seconds"):
            d.get("whatif", {}).pop(k, None)
        return json.dumps(d, sort_keys=True)
    except ValueError:
        return out


def check(rc, out, err, max_err_lines, argv=("replay",)):
    """The problems of one run (a list of strings)."""
    bad = []
    if rc == "timeout":
        return ["timeout"]
    if rc not in (0, 1, 2):
        bad.append("rc=%s" % rc)
    if SAN_RE.search(err):
        m = SAN_RE.search(err)
        line = err[max(0, err.rfind("\n", 0, m.start()) + 1):].split("\n", 1)[0]
        bad.append("sanitizer: " + line.strip()[:200])
    if rc in (1, 2) and not validate_failed(argv, rc, out):
        lines = [l for l in err.splitlines() if l.strip()]
        if not lines:
            bad.append("rc=%s with an empty stderr" % rc)
        elif len(lines) > max_err_lines:
            bad.append("rc=%s with %d stderr lines" % (rc, len(lines)))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--dir", default="traces")
    ap.add_argument("--traces", default="", help="only traces whose name starts with this")
    ap.add_argument("--external", default="", help="the external traces' folder")
    ap.add_argument("--external-all", action="store_true",
                    help="every option and pair on the external traces too (default: a subset)")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--nice", type=int, default=19,
                    help="each run under nice -n NICE (0: as the sweep; ctest's own)")
    ap.add_argument("--determinism", type=int, default=20,
                    help="this many --json cases run twice (0: none)")
    ap.add_argument("--max-err-lines", type=int, default=3)
    ap.add_argument("--quick", action="store_true",
                    help="singles only, no pairs, whatif/report cases or external traces")
    ap.add_argument("--random", type=int, default=0,
                    help="this many random combinations of 2..6 options on the small traces")
    ap.add_argument("--seed", type=int, default=1, help="--random's seed")
    ap.add_argument("--only", default="", help="only cases whose label contains this")
    ap.add_argument("--log", default="", help="write every case (JSON lines) here")
    args = ap.parse_args()

    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    traces = sorted(glob.glob(os.path.join(args.dir, "*.dat")))
    traces = [t for t in traces if os.path.basename(t).startswith(args.traces)]
    # small ones first
    traces.sort(key=lambda t: (os.path.getsize(t), t))
    ext = []
    if args.external and not args.quick:
        for root, _dirs, files in os.walk(args.external):
            for f in sorted(files):
                if f.endswith((".md", ".json", ".tar.gz")):
                    continue
                ext.append(os.path.join(root, f))
        ext.sort()
    if not traces and not ext:
        print("option_sweep: no trace in %s" % args.dir, file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="option_sweep.")

    cases = []  # (trace, label, argv, json?)
    table = dict(SINGLE + ([] if args.quick else PAIRS))
    for tr, external in [(t, False) for t in traces] + [(t, True) for t in ext]:
        comm = trace_comm(args.bin, tr, env)
        subs = write_cgmaps(tr, tmp)
        subs["@COMM@"] = comm or "nomatch"
        subs["@DUMP@"] = os.path.join(tmp, os.path.basename(tr) + ".dump")
        labels = ["default"] + (EXTERNAL_OPTS[1:] if external and not args.external_all
                                else list(table))
        for label in labels:
            argv = [] if label == "default" else table[label]
            # each its own dump (two jobs may dump the same trace at once)
            argv = [subs.get(a, a) if a != "@DUMP@" else "%s.%d" % (subs[a], len(cases))
                    for a in argv]
            label = label.replace("@COMM@", subs["@COMM@"])
            if args.only and args.only not in label:
                continue
            cases.append((tr, label, ["replay"] + argv + [tr]))
        if not args.quick and not external:
            for label, argv in other_cases(tr, tmp):
                if args.only and args.only not in label:
                    continue
                cases.append((tr, label, argv))
    # validate with a few model options on the whole directory
    if not args.quick and not args.traces:
        for label, argv in (("validate placement=model", ["--placement", "model"]),
                            ("validate channels=strict", ["--channels", "strict"]),
                            ("validate handoff=yield profile=6.1", ["--handoff", "yield", "--profile", "6.1"]),
                            ("validate stop-at-end", ["--stop-at-end"])):
            if args.only and args.only not in label:
                continue
            cases.append((args.dir, label, ["validate", "--dir", args.dir, "--seeds", "1", "--json"] + argv))

    # random combinations of 2..6 single options on the small traces
    rnd_c = random.Random(args.seed)
    small = [t for t in traces if os.path.getsize(t) < 1500000]
    singles = [(l, a) for l, a in SINGLE if "@" not in " ".join(a) and l != "all-variants"]
    for i in range(args.random if small else 0):
        tr = rnd_c.choice(small)
        picks, seen = [], set()
        for l, a in rnd_c.sample(singles, rnd_c.randint(2, 6)):
            if a[0] in seen:          # one value per option
                continue
            seen.add(a[0])
            picks.append((l, a))
        label = "random:" + "+".join(l for l, _ in picks)
        if args.only and args.only not in label:
            continue
        cases.append((tr, label, ["replay"] + [x for _, a in picks for x in a] + [tr]))

    # the determinism sample: --json replay cases, run twice
    rnd = random.Random(24)
    jcases = [c for c in cases if c[2][0] == "replay" and "--dump-events" not in c[2]]
    det = rnd.sample(jcases, min(args.determinism, len(jcases)))
    det = [(tr, label + " [determinism]", argv[:1] + ["--json"] + [a for a in argv[1:] if a != "--json"])
           for tr, label, argv in det]

    # the threads change nothing: --all-variants --json on 1 thread and on 2
    if not args.quick and args.determinism and (not args.only or args.only in "threads"):
        for tr in traces[:3]:
            argv = ["replay", "--all-variants", "--json", "--threads", "1", tr]
            det.append((tr, "all-variants threads 1/2 [determinism]", argv,
                        argv[:4] + ["2", tr]))
            argv = ["whatif", "--seeds", "3", "--json", "--threads", "1",
                    "--placement", "model", tr]
            det.append((tr, "whatif seeds 3 placement=model threads 1/2 [determinism]", argv,
                        argv[:5] + ["2"] + argv[6:]))

    results = []
    per_opt = collections.defaultdict(lambda: [0, 0])
    flagged = []
    log = open(args.log, "w") if args.log else None

    def work(case):
        tr, label, argv = case[:3]
        argv2 = case[3] if len(case) > 3 else None
        rc, out, err = run_one(args.bin, argv, env, args.timeout, args.nice)
        bad = check(rc, out, err, args.max_err_lines, argv)
        if label.endswith("[determinism]") and not bad:
            rc2, out2, err2 = run_one(args.bin, argv2 or argv, env, args.timeout, args.nice)
            bad += check(rc2, out2, err2, args.max_err_lines, argv2 or argv)
            if rc2 != rc or comparable(argv, out2) != comparable(argv, out):
                bad.append("nondeterministic: rc %s/%s, stdout %s" %
                           (rc, rc2, "differs" if out2 != out else "same"))
        first = err.strip().splitlines()[-1][:200] if err.strip() else ""
        return tr, label, argv, rc, bad, first, err

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for tr, label, argv, rc, bad, first, err in ex.map(work, cases + det):
            opt = label.split(" [")[0]
            if opt.startswith("random:"):
                opt = "random combinations of 2..6"
            elif opt.startswith("comm="):
                opt = "comm=(the busiest task's first 3 letters)"
            per_opt[opt][0] += 1
            if bad:
                per_opt[opt][1] += 1
                flagged.append((tr, label, argv, rc, bad, err))
            results.append((tr, label, rc))
            if log:
                log.write(json.dumps({"trace": tr, "label": label, "argv": argv, "rc": rc,
                                      "bad": bad, "stderr_last": first}) + "\n")
                log.flush()
    rcs = collections.Counter(str(r[2]) for r in results)
    print("option_sweep: %d runs (%d traces, %d external, %d determinism pairs); exit codes %s"
          % (len(results), len(traces), len(ext), len(det),
             ", ".join("%s: %d" % kv for kv in sorted(rcs.items()))))
    for opt in sorted(per_opt):
        n, b = per_opt[opt]
        print("  %-45s %4d runs %s" % (opt, n, ("%d FLAGGED" % b) if b else "ok"))
    for tr, label, argv, rc, bad, err in flagged:
        print("FLAGGED %s [%s] rc=%s: %s" % (os.path.basename(tr), label, rc, "; ".join(bad)))
        print("   schedreplay " + " ".join(argv))
        tail = [l for l in err.splitlines() if l.strip()][:6]
        for l in tail:
            print("   | " + l[:200])
    if log:
        log.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
