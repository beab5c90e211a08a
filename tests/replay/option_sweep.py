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
  * a usage case (every command's --help read for its options: each option
    without its value, a flag given a value, a number or mode option given a
    bad one, an unknown option) is not exit 2 with exactly one line on stderr
    ending "(see 'schedreplay CMD --help')" and nothing on stdout (a bad file
    name: exit 1, one line), or --help is not exit 0 with the usage on
    stdout and nothing on stderr,
  * an option of a --help is never run by any case (NOT_SWEPT names the
    exceptions and why).

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
    ("handoff=skip-wake", ["--handoff", "skip-wake"]),
    ("early-charge=local", ["--early-charge", "local"]),
    ("flush-last=cost", ["--flush-last", "cost"]),
    ("flush-last=lead", ["--flush-last", "lead"]),
    ("flush-scope=softirq", ["--flush-scope", "softirq"]),
    ("flush-scope=migrate", ["--flush-scope", "migrate"]),
    ("flush-scope=both", ["--flush-scope", "both"]),
    ("behind-lead=fallback", ["--behind-lead", "fallback"]),
    ("behind-lead=all", ["--behind-lead", "all"]),
    ("channels=auto", ["--channels", "auto"]),
    ("channels=strict", ["--channels", "strict"]),
    ("early-wakes=nosample", ["--early-wakes", "nosample"]),
    ("early-wakes=nocost", ["--early-wakes", "nocost"]),
    ("early-wakes=sleep", ["--early-wakes", "sleep"]),
    ("handoff-replies=nosample", ["--handoff-replies", "nosample"]),
    ("handoff-replies=nosample+handoff=sleep", ["--handoff-replies", "nosample", "--handoff",
                                                "sleep"]),
    ("skip-early-blocks", ["--skip-early-blocks"]),
    ("exit-preempt=now", ["--exit-preempt", "now"]),
    ("cpu-stalls=traced", ["--cpu-stalls", "traced"]),
    ("cpu-stalls=off", ["--cpu-stalls", "off"]),
    ("cpu-stalls=steal", ["--cpu-stalls", "steal"]),
    ("resched-at=syscall-exit", ["--resched-at", "syscall-exit"]),
    ("resched-at=cost", ["--resched-at", "cost"]),
    ("resched-at=traced", ["--resched-at", "traced"]),
    ("resched-at=next-wake", ["--resched-at", "next-wake"]),
    ("tick-preempt-at=traced", ["--tick-preempt-at", "traced"]),
    ("tick-preempt-at=model", ["--tick-preempt-at", "model"]),
    ("affinity=inferred", ["--affinity", "inferred"]),
    ("affinity=captured", ["--affinity", "captured"]),
    ("exec-balance-at=traced", ["--exec-balance-at", "traced"]),
    ("exec-balance-at=exec", ["--exec-balance-at", "exec"]),
    ("standin-skip=drop", ["--standin-skip", "drop"]),
    ("standin-skip=local", ["--standin-skip", "local"]),
    ("standin-skip=drop-local", ["--standin-skip", "drop-local"]),
    ("standin-skip=drop-own", ["--standin-skip", "drop-own"]),
    ("standin-skip=keep", ["--standin-skip", "keep"]),
    ("standin-skip=block-preempt", ["--standin-skip", "block-preempt"]),
    ("standin-skip=block-charge", ["--standin-skip", "block-charge"]),
    ("wake-clock=traced", ["--wake-clock", "traced"]),
    ("wake-clock=waking", ["--wake-clock", "waking"]),
    ("block-lead=traced", ["--block-lead", "traced"]),
    ("block-lead=median", ["--block-lead", "median"]),
    ("block-clock=after", ["--block-clock", "after"]),
    ("block-clock=keep", ["--block-clock", "keep"]),
    ("rt-charge=newidle", ["--rt-charge", "newidle"]),
    ("idle-tick=short", ["--idle-tick", "short"]),
    ("wake-path=traced", ["--wake-path", "traced"]),
    ("wake-path=model", ["--wake-path", "model"]),
    ("initial-lag=infer", ["--initial-lag", "infer"]),
    ("initial-lag=zero", ["--initial-lag", "zero"]),
    ("initial-pelt=guess", ["--initial-pelt", "guess"]),
    ("initial-pelt=kernel", ["--initial-pelt", "kernel"]),
    ("initial-pelt=attached", ["--initial-pelt", "attached"]),
    ("idle-clock=skip", ["--idle-clock", "skip"]),
    ("idle-clock=local", ["--idle-clock", "local"]),
    ("idle-clock=update", ["--idle-clock", "update"]),
    ("others-pelt=off", ["--others-pelt", "off"]),
    ("cpu-capacity=fixed", ["--cpu-capacity", "fixed"]),
    ("clock-task=traced", ["--clock-task", "traced"]),
    ("clock-task=wall", ["--clock-task", "wall"]),
    ("migrate-resched=both", ["--migrate-resched", "both"]),
    ("migrate-resched=dest", ["--migrate-resched", "dest"]),
    ("idle-residency=on", ["--idle-residency", "on"]),
    ("waker-costs=placed", ["--waker-costs", "placed"]),
    ("waker-costs=follow", ["--waker-costs", "follow"]),
    ("no-flush-hold", ["--no-flush-hold"]),
    ("ticks=traced", ["--ticks", "traced"]),
    ("ticks=grid", ["--ticks", "grid"]),
    ("tick-phase=grid", ["--tick-phase", "grid"]),
    ("tick-phase=zero", ["--tick-phase", "zero"]),
    ("idle-pull", ["--idle-pull"]),
    ("nohz-pull", ["--nohz-pull"]),
    ("nohz-pull+idle-pull", ["--nohz-pull", "--idle-pull"]),
    ("channel-wakes", ["--channel-wakes"]),
    ("channel-races", ["--channel-races"]),
    ("channel-burst=place", ["--channel-burst", "place"]),
    ("channel-burst=prev", ["--channel-burst", "prev"]),
    ("channel-burst=own", ["--channel-burst", "own"]),
    ("oneway-no-wait", ["--oneway-no-wait"]),
    ("state-placement", ["--state-placement"]),
    ("state-placement-wakes", ["--state-placement-wakes"]),
    ("stop-at-end", ["--stop-at-end"]),
    ("no-repair", ["--no-repair"]),
    ("unseen-queued", ["--unseen-queued"]),
    ("unseen-nomig=idle", ["--unseen-nomig", "idle"]),
    ("unseen-nomig=all-idle", ["--unseen-nomig", "all-idle"]),
    ("unseen-nomig=queued", ["--unseen-nomig", "queued"]),
    ("no-platform-release", ["--no-platform-release"]),
    ("handoff-signals", ["--handoff-signals"]),
    ("exit-wake-sync", ["--exit-wake-sync"]),
    ("exit-wake-sync+skip-early-blocks", ["--exit-wake-sync", "--skip-early-blocks"]),
    ("start-switch=count", ["--start-switch", "count"]),
    ("start-switch=lost", ["--start-switch", "lost"]),
    ("start-switch=apart", ["--start-switch", "apart"]),
    ("ksoftirqd-ops", ["--ksoftirqd-ops"]),
    ("wakelist-ops", ["--wakelist-ops"]),
    # pw45: a reply-only hand-off's WAIT no longer forces the preemption
    ("reply-in-run", ["--reply-in-run"]),
    ("reply-in-run+handoff=preempt", ["--reply-in-run", "--handoff", "preempt"]),
    ("reply-in-run+later-handover", ["--reply-in-run", "--later-handover"]),
    # lag45: a join's wake made by the last of its two tasks to finish
    ("join-reply", ["--join-reply"]),
    ("join-reply+reply-in-run", ["--join-reply", "--reply-in-run"]),
    ("join-reply+channel-wakes", ["--join-reply", "--channel-wakes"]),
    ("no-costs", ["--no-costs"]),
    ("preempt-costs=all", ["--preempt-costs", "all"]),
    ("no-bandwidth", ["--no-bandwidth"]),
    ("vcpu-pack", ["--vcpu-pack"]),
    ("no-vcpu-pack", ["--no-vcpu-pack"]),
    ("vcpu-pack-cut=flat", ["--vcpu-pack-cut", "flat"]),
    ("newidle-ratio=0", ["--newidle-ratio", "0"]),
    ("newidle-ratio=1024", ["--newidle-ratio", "1024"]),
    ("vcpu-pack-cut=idle", ["--vcpu-pack-cut", "idle"]),
    ("profile=auto", ["--profile", "auto"]),
    ("profile=6.18", ["--profile", "6.18"]),
    ("profile=6.12", ["--profile", "6.12"]),
    ("profile=6.5", ["--profile", "6.5"]),
    ("profile=6.1", ["--profile", "6.1"]),
    # features every profile's kernel has (RUN_TO_PARITY would fail a CFS trace's auto profile)
    ("sched-feature", ["--sched-feature", "NO_WAKEUP_PREEMPTION", "--sched-feature", "NEXT_BUDDY"]),
    ("sched-feature+profile=6.12", ["--sched-feature", "NO_RUN_TO_PARITY", "--profile", "6.12"]),
    ("all-variants", ["--all-variants", "--threads", "1"]),
    ("placement-check", ["--placement-check"]),
    ("dump-events", ["--dump-events", "@DUMP@"]),
    ("dump-events+dump-wake-records", ["--dump-events", "@DUMP@", "--dump-wake-records"]),
    ("dump-samples", ["--dump-samples", "@DUMP@"]),
    ("dump-samples+early-wakes=sleep+channels=strict", ["--dump-samples", "@DUMP@", "--early-wakes",
                                                        "sleep", "--channels", "strict"]),
    ("balance-attach=kernel-order", ["--balance-attach", "kernel-order"]),
    ("queued-moves=time", ["--queued-moves", "time"]),
    ("queued-moves=wait", ["--queued-moves", "wait"]),
    ("queued-moves=position", ["--queued-moves", "position"]),
    ("newidle-pulls=time", ["--newidle-pulls", "time"]),
    ("newidle-pulls=block", ["--newidle-pulls", "block"]),
    ("newidle-pulls=hold", ["--newidle-pulls", "hold"]),
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
    ("placement=model+cpu-capacity=fixed", ["--placement", "model", "--cpu-capacity", "fixed"]),
    ("placement=model+vcpu-pack", ["--placement", "model", "--vcpu-pack"]),
    ("placement=model+vcpu-pack-cut=flat", ["--placement", "model", "--vcpu-pack-cut", "flat"]),
    ("placement=model+exec-balance-at=traced",
     ["--placement", "model", "--exec-balance-at", "traced"]),
    ("placement=model+newidle-ratio=64", ["--placement", "model", "--newidle-ratio", "64"]),
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
    ("channel-burst=own+channel-races", ["--channel-burst", "own", "--channel-races"]),
    ("channel-burst=own+early-wakes=sleep", ["--channel-burst", "own", "--early-wakes",
                                             "sleep"]),
    ("channel-burst=place+placement=model", ["--channel-burst", "place", "--placement",
                                             "model"]),
    ("channels=auto+oneway-no-wait", ["--channels", "auto", "--oneway-no-wait"]),
    ("channels=strict+no-costs", ["--channels", "strict", "--no-costs"]),
    ("channels=strict+profile=6.1", ["--channels", "strict", "--profile", "6.1"]),
    ("early-wakes=sleep+skip-early-blocks", ["--early-wakes", "sleep", "--skip-early-blocks"]),
    ("early-wakes=sleep+channels=strict", ["--early-wakes", "sleep", "--channels", "strict"]),
    ("state-placement+idle-pull", ["--state-placement", "--idle-pull"]),
    ("state-placement+vcpu-pack", ["--state-placement", "--vcpu-pack"]),
    ("placement-check+state-placement", ["--placement-check", "--state-placement"]),
    ("idle-residency=on+no-costs", ["--idle-residency", "on", "--no-costs"]),
    ("idle-residency=on+no-repair", ["--idle-residency", "on", "--no-repair"]),
    ("no-costs+preempt-costs=all", ["--no-costs", "--preempt-costs", "all"]),
    ("waker-costs=follow+placement=model", ["--waker-costs", "follow", "--placement", "model"]),
    ("waker-costs=placed+idle-pull", ["--waker-costs", "placed", "--idle-pull"]),
    ("waker-costs=follow+no-costs", ["--waker-costs", "follow", "--no-costs"]),
    ("waker-costs=follow+handoff=writeon", ["--waker-costs", "follow", "--handoff", "writeon"]),
    ("ticks=traced+no-costs", ["--ticks", "traced", "--no-costs"]),
    ("ticks=traced+json", ["--ticks", "traced", "--json"]),
    ("ticks=traced+hz=1000", ["--ticks", "traced", "--hz", "1000"]),
    ("ticks=traced+resched-at=syscall-exit", ["--ticks", "traced", "--resched-at", "syscall-exit"]),
    ("ticks=traced+placement=model", ["--ticks", "traced", "--placement", "model"]),
    ("ticks=traced+stop-at-end", ["--ticks", "traced", "--stop-at-end"]),
    ("tick-phase=grid+ticks=traced", ["--tick-phase", "grid", "--ticks", "traced"]),
    ("tick-phase=grid+hz=1000", ["--tick-phase", "grid", "--hz", "1000"]),
    ("clock-task=traced+placement=model", ["--clock-task", "traced", "--placement", "model"]),
    ("clock-task=traced+initial-pelt=guess+json", ["--clock-task", "traced", "--initial-pelt",
                                                   "guess", "--json"]),
    ("clock-task=traced+profile=6.1+stop-at-end", ["--clock-task", "traced", "--profile", "6.1",
                                                   "--stop-at-end"]),
    ("no-sidecar+placement=model", ["--no-sidecar", "--placement", "model"]),
    ("no-sidecar+channels=strict", ["--no-sidecar", "--channels", "strict"]),
    ("hz=100+stop-at-end", ["--hz", "100", "--stop-at-end"]),
    ("hz=1000+placement=model", ["--hz", "1000", "--placement", "model"]),
    ("hz=1000+profile=6.1", ["--hz", "1000", "--profile", "6.1"]),
    ("exit-preempt=now+handoff=sleep", ["--exit-preempt", "now", "--handoff", "sleep"]),
    ("cpu-stalls=traced+hz=100+clock-task=traced", ["--cpu-stalls", "traced", "--hz", "100",
                                                    "--clock-task", "traced"]),
    ("cpu-stalls=traced+placement=model", ["--cpu-stalls", "traced", "--placement", "model"]),
    ("wake-clock=traced+migrate-resched=both+placement=model",
     ["--wake-clock", "traced", "--migrate-resched", "both", "--placement", "model"]),
    ("wake-clock=traced+no-costs", ["--wake-clock", "traced", "--no-costs"]),
    ("block-lead=traced+resched-at=traced", ["--block-lead", "traced", "--resched-at", "traced"]),
    ("wake-path=traced+wake-clock=traced+placement=model",
     ["--wake-path", "traced", "--wake-clock", "traced", "--placement", "model"]),
    ("wake-path=traced+profile=6.1", ["--wake-path", "traced", "--profile", "6.1"]),
    ("initial-lag=infer+profile=6.1", ["--initial-lag", "infer", "--profile", "6.1"]),
    ("initial-lag=credit-long+profile=6.1", ["--initial-lag", "credit-long", "--profile", "6.1"]),
    ("initial-lag=infer+profile=6.12", ["--initial-lag", "infer", "--profile", "6.12"]),
    ("initial-lag=infer+placement=model", ["--initial-lag", "infer", "--placement", "model"]),
    ("initial-lag=infer+dump-wake-records", ["--initial-lag", "infer", "--dump-events", "@DUMP@",
                                            "--dump-wake-records"]),
    ("idle-clock=skip+placement=model", ["--idle-clock", "skip", "--placement", "model"]),
    ("idle-clock=local+profile=6.1", ["--idle-clock", "local", "--profile", "6.1"]),
    ("idle-clock=local+wake-clock=traced+no-costs", ["--idle-clock", "local", "--wake-clock",
                                                    "traced", "--no-costs"]),
    ("resched-at=syscall-exit+channels=strict", ["--resched-at", "syscall-exit", "--channels",
                                                "strict"]),
    ("resched-at=syscall-exit+handoff=writeon", ["--resched-at", "syscall-exit", "--handoff",
                                                "writeon"]),
    ("resched-at=syscall-exit+exit-preempt=now", ["--resched-at", "syscall-exit",
                                                 "--exit-preempt", "now"]),
    ("standin-skip=drop-local+resched-at=syscall-exit", ["--standin-skip", "drop-local",
                                                        "--resched-at", "syscall-exit"]),
    ("standin-skip=local+early-wakes=nocost", ["--standin-skip", "local", "--early-wakes",
                                              "nocost"]),
    ("standin-skip=drop+early-wakes=sleep", ["--standin-skip", "drop", "--early-wakes",
                                            "sleep"]),
    ("standin-skip=block-preempt+resched-at=syscall-exit", ["--standin-skip", "block-preempt",
                                                           "--resched-at", "syscall-exit"]),
    ("cgroup-map quota", ["--cgroup-map", "@CGMAP_QUOTA@"]),
    ("cgroup-map quota+no-bandwidth", ["--cgroup-map", "@CGMAP_QUOTA@", "--no-bandwidth"]),
    ("cgroup-map quota+placement=model", ["--cgroup-map", "@CGMAP_QUOTA@", "--placement", "model"]),
    ("cgroup-map quota+stop-at-end", ["--cgroup-map", "@CGMAP_QUOTA@", "--stop-at-end"]),
    ("cgroup-map quota+profile=6.1", ["--cgroup-map", "@CGMAP_QUOTA@", "--profile", "6.1"]),
    ("cgroup-map quota+no-sidecar", ["--cgroup-map", "@CGMAP_QUOTA@", "--no-sidecar"]),
    ("cgroup-map tiny quota", ["--cgroup-map", "@CGMAP_TINY@"]),
    ("cgroup-map quota -1", ["--cgroup-map", "@CGMAP_NONE@"]),
    ("balance-attach=kernel-order+idle-pull", ["--balance-attach", "kernel-order", "--idle-pull"]),
    ("balance-attach=kernel-order+state-placement", ["--balance-attach", "kernel-order",
                                                     "--state-placement"]),
    ("balance-attach=kernel-order+profile=6.1", ["--balance-attach", "kernel-order",
                                                 "--profile", "6.1"]),
    ("balance-attach=kernel-order+stop-at-end", ["--balance-attach", "kernel-order", "--stop-at-end"]),
    ("queued-moves=position+balance-attach=kernel-order", ["--queued-moves", "position",
                                                           "--balance-attach", "kernel-order"]),
    ("queued-moves=position+idle-pull", ["--queued-moves", "position", "--idle-pull"]),
    ("newidle-pulls=hold+queued-moves=position+balance-attach=kernel-order",
     ["--newidle-pulls", "hold", "--queued-moves", "position", "--balance-attach", "kernel-order"]),
    ("queued-moves=position+handoff=sleep", ["--queued-moves", "position", "--handoff", "sleep"]),
    ("queued-moves=wait+handoff=writeon", ["--queued-moves", "wait", "--handoff", "writeon"]),
    ("queued-moves=position+state-placement", ["--queued-moves", "position",
                                               "--state-placement"]),
    ("dump-wake-records+handoff=sleep+channels=strict", ["--dump-events", "@DUMP@",
                                                        "--dump-wake-records", "--handoff",
                                                        "sleep", "--channels", "strict"]),
    ("dump-wake-records+early-wakes=sleep", ["--dump-events", "@DUMP@", "--dump-wake-records",
                                             "--early-wakes", "sleep"]),
    ("everything-on", ["--placement", "model", "--channels", "strict", "--handoff", "sleep",
                       "--early-wakes", "sleep", "--exit-preempt", "now", "--idle-residency", "on",
                       "--no-flush-hold", "--channel-wakes", "--channel-races", "--oneway-no-wait",
                       "--stop-at-end", "--preempt-costs", "all", "--vcpu-pack",
                       "--waker-costs", "follow", "--resched-at", "syscall-exit",
                       "--standin-skip", "drop-local", "--ticks", "traced"]),
    # (--placement model refuses the trace placement's options: reader_bad_cli)
]

# The external traces: a subset (their names: run_cases's label).
EXTERNAL_OPTS = ["", "placement=model", "channels=strict", "handoff=yield",
                 "handoff=sleep", "stop-at-end", "no-repair", "profile=6.1",
                 "state-placement", "placement-check", "json", "hz=1000",
                 "early-wakes=sleep", "idle-residency=on", "everything-on"]

# whatif/validate/report: a few of their own options.
def other_cases(tr, tmp):
    base = os.path.basename(tr)
    # --noise: another capture (the trace itself is a usage error since
    # fuzz40, a copy of it since fuzz41): small-pipe, or small-hackbench for
    # small-pipe itself; any other capture does for the mechanics swept here
    other = "small-hackbench.dat" if base == "small-pipe.dat" else "small-pipe.dat"
    noise = os.path.join(os.path.dirname(os.path.abspath(tr)), other)
    return [
        ("whatif", ["whatif", "--seeds", "2", "--threads", "1", "--json", tr]),
        ("whatif variant+svg", ["whatif", "--variant", "base", "--threads", "1",
                                "--svg", os.path.join(tmp, base + ".svg"), tr]),
        ("whatif sched-feature", ["whatif", "--variant", "base", "--threads", "1",
                                  "--sched-feature", "NO_PLACE_LAG", "--profile", "6.18", tr]),
        ("whatif placement=model", ["whatif", "--variant", "base", "--threads", "1",
                                    "--placement", "model", "--handoff", "yield", tr]),
        ("report --by pid --by cgroup", ["report", "--by", "pid", "--by", "cgroup", "--top", "0", tr]),
        ("report --start wakeup --json", ["report", "--start", "wakeup", "--json", tr]),
        ("report --no-repair --samples", ["report", "--no-repair", "--samples",
                                          os.path.join(tmp, base + ".samples"), tr]),
        # the options no other case ran (the coverage check below)
        ("report --reader libtracecmd --allow-lost", ["report", "--reader", "libtracecmd",
                                                      "--allow-lost", tr]),
        ("report --pid 0 --buffer ''", ["report", "--pid", "0", "--buffer", "", "--allow-lost", tr]),
        ("report --cgroup-root 1 --no-sidecar", ["report", "--cgroup-root", "1", "--no-sidecar",
                                                 "--allow-lost", tr]),
        # a trace without a sidecar: the error of a missing one (exit 1, one line)
        ("report --sidecar", ["report", "--sidecar", tr + ".json", "--allow-lost", tr]),
        ("replay --sidecar", ["replay", "--sidecar", tr + ".json", tr]),
        # the top level: an instance's trace (small-*) has no sched events there (exit 1)
        ("replay --buffer ''", ["replay", "--buffer", "", tr]),
        ("replay --variants-file", ["replay", "--variants-file", VARIANTS_FILE,
                                    "--all-variants", "--threads", "1", tr]),
        ("whatif --machine two-socket --noise", ["whatif", "--variant", "aaron-skip", "--threads",
                                                 "1", "--machine", "two-socket", "--noise", noise, tr]),
        ("whatif --svg-comm", ["whatif", "--variant", "base", "--threads", "1", "--svg",
                               os.path.join(tmp, base + ".comm.svg"), "--svg-comm", "@COMM@", tr]),
        ("whatif --svg-cgroup /", ["whatif", "--variant", "base", "--threads", "1", "--svg",
                                   os.path.join(tmp, base + ".cg.svg"), "--svg-cgroup", "/", tr]),
        ("whatif --print-machine", ["whatif", "--print-machine", "two-socket"]),
    ]


# validate on the whole --dir (with --seeds 1, and --json unless another output)
VALIDATE_CASES = (
    ("validate --markdown", ["--markdown"]),
    ("validate --suggest", ["--suggest"]),
    ("validate --thresholds", ["--thresholds", "@THRESHOLDS@"]),
    ("validate placement=model", ["--placement", "model"]),
    ("validate channels=strict", ["--channels", "strict"]),
    ("validate handoff=yield profile=6.1", ["--handoff", "yield", "--profile", "6.1"]),
    ("validate stop-at-end", ["--stop-at-end"]),
    ("validate sched-feature", ["--sched-feature", "NO_WAKEUP_PREEMPTION"]),
    ("validate variant", ["--variant", "vlag-vprot-union"]),
    ("validate first-seed", ["--first-seed", "16"]),
)

# A JSON variants file of the variants' own tests
VARIANTS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "variants",
                             "data", "good.json")

# The options of a --help that no case runs, and why (the coverage check)
NOT_SWEPT = {
    "--plugin": "needs a built plugin .so (tests/variants: variants_plugin_*)",
    "--help": "the usage cases",
    "--help-all": "the usage cases",
    "--tracing-dir": "capture: root and a live tracefs (tests/capture)",
    "--sched-debug-shift": "only moves the sched_debug probes of a sidecar that has them "
                           "(pelt-mix-sd: replay_groups_kernel_shift runs it at +-10, +-50 ms)",
    "--sched-debug-at": "only moves the sched_debug probes of a sidecar that has them "
                        "(make-probe-sd: replay_groups_kernel_at runs each value)",
}
# capture runs a workload as root: only its usage errors are swept
USAGE_ONLY = ("capture", "variants")


def help_options(binary, cmd, env):
    """{option: metavar or None} of `schedreplay CMD --help-all` (or --help
    where the command has no --help-all: the lines that start with an option;
    a metavar is upper case or holds '|')."""
    p = subprocess.run([binary, cmd, "--help-all"], env=env, capture_output=True, timeout=60)
    if p.returncode != 0:       # a command without --help-all: its --help has every option
        p = subprocess.run([binary, cmd, "--help"], env=env, capture_output=True, timeout=60)
    opts = {}
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        m = re.match(r"^\s{1,8}(-.*)$", line)
        if not m:
            continue
        head = re.split(r"\s{2,}", m.group(1))[0]
        for part in re.split(r",\s*", head):
            mm = re.match(r"(--?[A-Za-z0-9][\w-]*)(?:[ =](\S+))?", part.strip())
            if not mm:
                continue
            meta = mm.group(2)
            if meta and not (re.match(r"^[A-Z]", meta) or "|" in meta):
                meta = None     # "--skip-early-blocks a wake ...": the description
            opts.setdefault(mm.group(1), meta)
    return opts


def usage_cases(binary, tr, env):
    """(label, argv, kind) per command: kind "usage" (exit 2, one line, the
    see-hint), "help" (exit 0 on stdout) or "onefail" (exit 1 or 2, one line)."""
    out = []
    for cmd in ("report", "replay", "whatif", "validate", "variants", "capture"):
        trace = [tr] if cmd in ("report", "replay", "whatif") else []
        out.append(("usage: %s --help" % cmd, [cmd, "--help"], "help"))
        if cmd in ("replay", "whatif", "validate"):
            out.append(("usage: %s --help-all" % cmd, [cmd, "--help-all"], "help"))
        out.append(("usage: %s unknown option" % cmd, [cmd, "--no-such-option"] + trace, "usage"))
        for opt, meta in sorted(help_options(binary, cmd, env).items()):
            if opt in ("-h", "--help", "--help-all"):
                continue
            if not opt.startswith("--"):
                continue        # its long name's cases
            if meta is None:
                if cmd != "capture":
                    out.append(("usage: %s %s=1" % (cmd, opt), [cmd, opt + "=1"] + trace, "usage"))
                continue
            out.append(("usage: %s %s (no value)" % (cmd, opt), [cmd] + trace + [opt], "usage"))
            numeric = meta in ("N", "SEC", "ID", "PID")
            if numeric or "|" in meta or meta in ("MODE", "KEY") or opt == "--profile":
                if opt == "--machine":
                    continue    # NAME|FILE: any name may be a file
                for bad in (["x", "", "1x"] + (["-1", "99999999999999999999999"] if numeric else [])):
                    out.append(("usage: %s %s %r" % (cmd, opt, bad), [cmd, opt, bad] + trace,
                                "usage"))
    return out


def check_usage(kind, cmd, rc, out, err):
    """The problems of one usage case."""
    lines = [l for l in err.splitlines() if l.strip()]
    if rc == "timeout":
        return ["timeout"]
    if kind == "help":
        bad = []
        if rc != 0:
            bad.append("--help: exit %s" % rc)
        if lines:
            bad.append("--help: %d lines on stderr" % len(lines))
        if not out.startswith(b"usage: schedreplay " + cmd.encode()):
            bad.append("--help: stdout does not start 'usage: schedreplay %s'" % cmd)
        return bad
    bad = []
    if rc not in ((1, 2) if kind == "onefail" else (2,)):
        bad.append("exit %s, expected %s" % (rc, "1 or 2" if kind == "onefail" else 2))
    if len(lines) != 1:
        bad.append("%d lines on stderr, expected one" % len(lines))
    elif rc == 2 and not lines[0].endswith("(see 'schedreplay %s --help')" % cmd):
        bad.append("the line does not end \"(see 'schedreplay %s --help')\"" % cmd)
    if out.strip():
        bad.append("a usage error printed on stdout")
    return bad


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
    # Third-party leaks not counted: libtraceevent's tep_parse_event() leaks a
    # token on some formats (report --reader libtracecmd), the suppressions
    # every reader test uses (tests/reader/lsan-libtracecmd.supp); our own
    # leaks still are.
    env["LSAN_OPTIONS"] = "suppressions=%s:print_suppressions=0" % os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "reader",
        "lsan-libtracecmd.supp")
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
                cases.append((tr, label, [subs.get(a, a) for a in argv]))
    # the usage errors of every command's options (--help's list), on the
    # smallest trace; and which options of the --help texts no case runs
    usage = []
    if not args.quick and traces:
        for label, argv, kind in usage_cases(args.bin, traces[0], env):
            if not args.only or args.only in label:
                usage.append((traces[0], label, argv, kind))
        if not args.only:
            ran = {a.split("=")[0] for c in cases for a in c[2] if a.startswith("--")}
            # the validate cases below (on the whole --dir only: not with --traces)
            ran |= {"--dir", "--seeds", "--json"}
            ran |= {a for _, argv in VALIDATE_CASES for a in argv if a.startswith("--")}
            for cmd in ("report", "replay", "whatif", "validate"):
                for opt in help_options(args.bin, cmd, env):
                    if opt.startswith("--") and opt not in ran and opt not in NOT_SWEPT:
                        usage.append((traces[0], "coverage: %s %s" % (cmd, opt), None, "never"))
    # validate with a few model options on the whole directory
    if not args.quick and not args.traces:
        for label, argv in VALIDATE_CASES:
            if args.only and args.only not in label:
                continue
            fmt = [] if argv[0] in ("--markdown", "--suggest") else ["--json"]
            argv = [os.path.join(args.dir, "thresholds.json") if a == "@THRESHOLDS@" else a
                    for a in argv]
            cases.append((args.dir, label, ["validate", "--dir", args.dir, "--seeds", "1"] + fmt + argv))

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
        if label.startswith(("usage:", "coverage:")):
            kind = case[3]
            if kind == "never":
                return tr, label, [], 0, ["in --help, but no case of the sweep runs it "
                                          "(add one, or to NOT_SWEPT with why)"], "", ""
            rc, out, err = run_one(args.bin, argv, env, args.timeout, args.nice)
            bad = check_usage(kind, argv[0], rc, out, err)
            return tr, label, argv, rc, bad, (err.strip().splitlines() or [""])[-1][:200], err
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
        for tr, label, argv, rc, bad, first, err in ex.map(work, cases + det + usage):
            opt = label.split(" [")[0]
            if opt.startswith("random:"):
                opt = "random combinations of 2..6"
            elif opt.startswith("usage:"):
                opt = "usage: " + opt.split()[1] + " (bad options, --help)"
            elif opt.startswith("coverage:"):
                opt = "coverage: every --help option run"
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
    print("option_sweep: %d runs (%d traces, %d external, %d determinism pairs, %d usage "
          "cases); exit codes %s"
          % (len(results), len(traces), len(ext), len(det), len(usage),
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
