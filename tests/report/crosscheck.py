#!/usr/bin/env python3
"""An independent check of `schedreplay report`'s latency samples.

    crosscheck.py SCHEDREPLAY TRACE [WORK_DIR] [--no-repair]

Reads the text of `trace-cmd report -t TRACE` (libtracecmd's own decoding,
with its sched plugins printing prev_state as letters) and computes the
wakeup-latency and run-queue-wait samples from the definitions of
docs/report.md, written here from those definitions and not from the C code:

  wakeup latency  from the first sched_waking (sched_wakeup_new for a new task)
                  of a task that is not on a CPU and has no pending wakeup, to
                  the sched_switch that puts it on a CPU; without sched_waking
                  in the buffer, sched_wakeup starts it. The sample belongs to
                  next_comm of that sched_switch.
  run-queue wait  from a sched_switch with prev_state R or R+ to the task's
                  next sched_switch onto a CPU.
  on a CPU        switched in and not yet out; before a CPU's first
                  sched_switch (and after a lost-events gap on it, until its
                  next sched_switch) the CPU's current task is the common_pid
                  of its events. Idle (pid 0) is not a task.
  lost events     at a gap every open interval is dropped and the CPU's
                  current task becomes unknown.
  pid reuse       sched_process_fork of a pid starts a new task.
  repair          (report's default, docs/report.md "Untraced switches out of
                  idle") a CPU whose current task per its sched_switch lines
                  is idle (or per a line in idle's context: pid 0, its
                  switch to idle taken there, whatever the lines said ran
                  before; a switch-in still open is decided first, as at a
                  gap) shows a line whose common pid is a task T: T was
                  switched in without a line. A switch idle -> T is inserted
                  at T's first sched_stat_runtime there minus its runtime if
                  that lies within [lower bound, T's first line there], where
                  the lower bound is the latest of T's last waking, wakeup,
                  wakeup_new or migration and the CPU's previous line; at the
                  lower bound if it lies before; else at the lower bound if
                  T's last wakeup came after the CPU's switch to idle, else at
                  T's first line there. It is decided at T's first
                  sched_stat_runtime there, at a sched_switch there, at a gap
                  there or at the end. `--no-repair` checks the raw stream.
  untraced switch (docs/report.md "Untraced switches of a task") a task T
                  current on CPU c per the lines left c untraced when c
                  shows a line in idle's context or a switch out of idle,
                  when T's sched_wakeup names another CPU, when T is
                  switched in on another CPU, or when a migration moves it
                  off c: at its last line on c (in its context, its
                  switch-in, or a sched_stat_runtime of T on another CPU).
                  Then a sched_waking of T that came after that line (the
                  first since T's last line there; a sched_wakeup onto c
                  does not end it) starts its interval; a migration with no such waking left it
                  runnable (a run-queue wait from that line).  Also when c
                  shows a line in another task N's context (or a switch
                  whose prev is N): unless such a waking came, T's next line
                  decides - switched in on c by a task, or migrated ->
                  runnable (a run-queue wait from the switch); anything
                  else, or none, -> it slept - and the switch is at N's
                  first sched_stat_runtime on c in its context minus its
                  runtime when that comes before a switch on c and before
                  the decision (within [T's last line, N's line]); minus
                  the runtimes of N's sched_stat_runtime lines before it on
                  any CPU while each one's time minus its runtime is within
                  20 us of the previous one's time, with no switch of N.
  revealed        (docs/report.md "A wakee switched in untraced") a task on no
                  CPU per the lines that shows a scheduler line (not a
                  syscall's: report reads none) in its context on a CPU whose
                  current is unknown or idle, or is the prev of a
                  sched_switch, ran: its open wakeup interval and run-queue
                  wait end at that line, the sample under the task's comm of
                  the lines before it (the switch's prev_comm).

Then it runs `schedreplay report --json --samples FILE` on the same trace and
compares: the samples one by one (kind, pid, CPU, start, end, latency, comm;
as sorted lists), the sample count of every comm, and every percentile of
every comm and of all samples from the JSON against the exact nearest-rank
value of the independent samples, within the histogram's stated relative
error of 1/256 (min and max exactly).

Exit 0 pass, 1 fail (the first differences printed), 77 skip (no trace-cmd).
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

# -t prints "[CPU] S.NNNNNNNNN:"; the raw form "[CPU]TS:" (TS in ns) is read too:
# trace-cmd 3.1.6 parses a v6 file's trace clock with strtok_r() past the end of a
# 0-byte buffer (valgrind), and when the bytes after it start with '[' it takes them
# for an unknown clock and prints raw timestamps (13 runs in 3000 on
# arm-lisa/example_rtapp; --raw-ts is no way out: files without a saved clock still
# print microseconds under it)
LINE = re.compile(r"^(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s*"
                  r"(?:(?P<s>\d+)\.(?P<ns>\d{9})|(?P<raw>\d+)):\s+"
                  r"(?P<event>\w+):\s*(?P<rest>.*)$")
DROP = re.compile(r"^(?:(?P<buf>\S+): )?CPU:(?P<cpu>\d+) \[(?:\d+ )?EVENTS DROPPED\]")
SWITCH = re.compile(r"^(?P<prev_comm>.*):(?P<prev_pid>\d+) \[-?\d+\] (?P<state>\S+) ==> "
                    r"(?P<next_comm>.*):(?P<next_pid>\d+) \[-?\d+\]\s*$")
SWITCH_RAW = re.compile(r"prev_comm=(?P<prev_comm>.*) prev_pid=(?P<prev_pid>\d+) prev_prio=-?\d+ "
                        r"prev_state=(?P<state>\S+) ==> next_comm=(?P<next_comm>.*) "
                        r"next_pid=(?P<next_pid>\d+) next_prio=-?\d+\s*$")
WAKE_PLUGIN = re.compile(r"^(?P<comm>.*):(?P<pid>\d+) \[-?\d+\]")
WAKE_FIELDS = re.compile(r"(?:^|\s)pid=(?P<pid>\d+)")
FORK = re.compile(r"child_pid=(?P<pid>\d+)")
FORK_CHILD = re.compile(r"child_comm=(?P<comm>.*) child_pid=(?P<pid>\d+)")
FORK_PARENT = re.compile(r"^comm=(?P<comm>.*) pid=(?P<pid>\d+) child_comm=")
STAT = re.compile(r"comm=(?P<comm>.*) pid=(?P<pid>\d+) runtime=(?P<rt>\d+)")
MIGRATE = re.compile(r"comm=(?P<comm>.*) pid=(?P<pid>\d+) prio=-?\d+ orig_cpu=")
EXIT = re.compile(r"comm=(?P<comm>.*) pid=(?P<pid>\d+) prio=")
WAKE_TARGET = re.compile(r"(?:CPU:|target_cpu=)(\d+)")
MIGRATE_DEST = re.compile(r"pid=(?P<pid>\d+) prio=-?\d+ orig_cpu=\d+ dest_cpu=(?P<dest>\d+)")
WAKE_COMM = re.compile(r"comm=(?P<comm>.*) pid=(?P<pid>\d+)")
# the events the latency machine reads (report does not feed it syscall or other events)
MACHINE = {"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
           "sched_migrate_task", "sched_process_fork", "sched_process_exec",
           "sched_process_exit", "sched_stat_runtime", "cgroup_attach_task"}
PCTS = [("p50", 50), ("p75", 75), ("p90", 90), ("p95", 95), ("p99", 99), ("p99_5", 99.5),
        ("p99_9", 99.9)]


def buffers(trace):
    """Instance names, from `trace-cmd dump --summary`."""
    p = subprocess.run(["trace-cmd", "dump", "--summary", "-i", trace], capture_output=True,
                       text=True)
    return set(re.findall(r'\[buffer "([^"]+)"', p.stdout))


def records(trace, buffer):
    """(kind, cpu, ts, common_pid, event, rest) of the chosen buffer, in order."""
    instances = buffers(trace) - {""}
    p = subprocess.Popen(["trace-cmd", "report", "-t", "-i", trace], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, errors="replace")
    matched = [0]
    yield from report_records(p.stdout, buffer, instances, matched)
    if p.wait() != 0 or not matched[0]:
        sys.exit(f"FAIL: trace-cmd report -t -i {trace}: exit {p.returncode}, "
                 f"{matched[0]} event lines of buffer '{buffer}' read")


def report_records(lines, buffer, instances, matched):
    """records() of the lines of `trace-cmd report -t` (@instances: the trace's instance
    names); @matched[0] counts the event lines read."""
    after_drop = False
    for line in lines:
        line = line.rstrip("\n")
        m = DROP.match(line)
        if m:
            ours = (m.group("buf") or "") == buffer
            after_drop = ours
            if ours:
                yield ("drop", int(m.group("cpu")), 0, 0, "", "")
            continue
        # "NAME: " prefixes the lines of instance NAME (but not the one after a drop)
        prefix = ""
        for name in instances:
            if line.startswith(name + ": "):
                prefix = name
                line = line[len(name) + 2:]
                break
        if prefix != buffer and not after_drop:
            continue
        after_drop = False
        m = LINE.match(line.strip())
        if not m:
            continue
        if m.group("raw") is not None:
            ts = int(m.group("raw"))
        else:
            ts = int(m.group("s")) * 1000000000 + int(m.group("ns"))
        matched[0] += 1
        yield ("ev", int(m.group("cpu")), ts, int(m.group("pid")), m.group("event"),
               m.group("rest"))


def restore_points(recs):
    """The switches out of idle the rule restores: ([(index of T's first line there, ts,
    cpu, T, T's comm)], Counter of them per CPU).  @recs: (kind, cpu, ts, common_pid,
    event, rest) as records() yields them; a common_pid of None (a line with no current
    task) shows none.  tests/replay/cpu_ledger.py restores the capture's idle exits with
    this function too (through an adapter; replay_idle_exit_rules holds the two readings
    of every bundled trace to the same switches)."""
    cur = {}            # cpu -> pid from its sched_switch lines (None: unknown)
    last = {}           # cpu -> ts of its last line
    idle_since = {}     # cpu -> ts of its last switch to idle
    woke = {}           # pid -> ts of its last waking/wakeup/wakeup_new/migration
    comm = {}           # pid -> last comm seen
    opened = {}         # cpu -> (pid, lower bound, woken while idle, first ts, first index, comm)
    inserts = []        # (index it goes before at the latest, ts, cpu, pid, comm)
    restored = Counter()

    def settle(cpu, est):
        pid, lo, was_woken, first, idx, name = opened.pop(cpu)
        if est is not None and lo <= est <= first:
            t = est
        elif est is not None and est < lo:
            t = lo
        else:
            t = lo if was_woken else first
        inserts.append((idx, t, cpu, pid, name))
        restored[cpu] += 1

    def note(event, rest):
        m = None
        if event in ("sched_waking", "sched_wakeup", "sched_wakeup_new"):
            m = WAKE_COMM.search(rest) if "pid=" in rest else WAKE_PLUGIN.match(rest)
        elif event == "sched_migrate_task":
            m = MIGRATE.search(rest)
        elif event == "sched_stat_runtime":
            m = STAT.search(rest)
        elif event == "sched_process_fork":
            m = FORK_CHILD.search(rest)
        elif event == "sched_process_exit":
            m = EXIT.search(rest)
        elif event == "sched_switch":
            m = SWITCH.match(rest) or SWITCH_RAW.search(rest)
            if m:
                comm[int(m.group("prev_pid"))] = m.group("prev_comm")
                comm[int(m.group("next_pid"))] = m.group("next_comm")
            return
        if m:
            comm[int(m.group("pid"))] = m.group("comm")

    for i, (kind, cpu, ts, cpid, event, rest) in enumerate(recs):
        if kind == "drop":
            if cpu in opened:
                settle(cpu, None)
            cur[cpu] = None
            continue
        if cur.get(cpu) != 0 and not cpid and event != "sched_switch":
            # current unknown (before its first sched_switch, after a gap) or a task
            # that left untraced: a line in idle's context shows it idle
            if cpu in opened:
                settle(cpu, None)
            cur[cpu] = 0
            idle_since[cpu] = ts
        if cur.get(cpu) == 0 and cpid and cpu not in opened:
            lo = max(last.get(cpu, 0), woke.get(cpid, 0))
            was_woken = cpid in woke and woke[cpid] >= idle_since.get(cpu, 0)
            opened[cpu] = (cpid, min(lo, ts), was_woken, ts, i, comm.get(cpid, "<...>"))
            cur[cpu] = cpid
        note(event, rest)
        if event in ("sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_migrate_task"):
            m = WAKE_FIELDS.search(rest) if "pid=" in rest else WAKE_PLUGIN.match(rest)
            if m:
                woke[int(m.group("pid"))] = ts
        if cpu in opened:
            if event == "sched_stat_runtime":
                m = STAT.search(rest)
                if m and int(m.group("pid")) == opened[cpu][0]:
                    settle(cpu, max(ts - int(m.group("rt")), 0))
            elif event == "sched_switch":
                settle(cpu, None)
        if event == "sched_switch":
            m = SWITCH.match(rest) or SWITCH_RAW.search(rest)
            if m:
                cur[cpu] = int(m.group("next_pid"))
                if cur[cpu] == 0:
                    idle_since[cpu] = ts
        last[cpu] = ts
    for cpu in list(opened):
        settle(cpu, None)
    return inserts, restored


def repair(recs):
    """The records with the switches out of idle the rule restores inserted."""
    inserts, restored = restore_points(recs)
    # each goes after every line up to its time, but before T's first line there
    before = defaultdict(list)
    for idx, t, cpu, pid, name in inserts:
        j = idx
        while j > 0 and recs[j - 1][2] > t:
            j -= 1
        before[j].append((t, cpu, pid, name))
    out = []
    for i, r in enumerate(recs):
        for t, cpu, pid, name in sorted(before.get(i, [])):
            out.append(("ev", cpu, t, 0, "sched_switch",
                        f"swapper/{cpu}:0 [120] R ==> {name}:{pid} [120]"))
        out.append(r)
    return out, restored


def independent(trace, buffer, do_repair):
    recs = list(records(trace, buffer))
    restored = Counter()
    if do_repair:
        recs, restored = repair(recs)
    has_waking = any(r[4] == "sched_waking" for r in recs)
    starters = {"sched_wakeup_new", "sched_waking" if has_waking else "sched_wakeup"}
    oncpu = {}          # pid -> cpu
    cur = {}            # cpu -> pid, or None when unknown
    known = set()       # CPUs whose current task came from a sched_switch
    pending = {}        # pid -> start ts
    runq = {}           # pid -> start ts
    last = {}           # cpu -> ts of its current task's last line there
    run_waking = {}     # pid -> its first sched_waking while on a CPU
    chain = {}          # pid -> (ts, exec_start) of its last sched_stat_runtime
    left = {}           # pid -> [cpu, switch ts, N's line ts, N, final]: undecided
    comm_of = {}        # pid -> the comm the lines last gave it
    out = []
    unparsed = Counter()

    def leave(pid):
        oncpu.pop(pid, None)
        run_waking.pop(pid, None)

    def untraced(c, migrated=False, by=None, ts=0):
        t = cur.get(c)
        if not t or oncpu.get(t) != c:
            return False
        at, woke = last[c], run_waking.get(t, 0)
        leave(t)
        if by and not woke > at:
            for e in left.values():
                if e[0] == c:
                    e[4] = True
            left[t] = [c, at, ts, by, False]
        elif migrated and not woke > at:
            runq[t] = at
        elif woke > at and t not in pending:
            pending[t] = woke
        return True

    def decide(pid, runnable, cpu=None):
        e = left.pop(pid, None)
        if e and runnable and cpu in (None, e[0]):
            runq[pid] = e[1]

    def elsewhere(pid, migrated=False):
        c = oncpu.get(pid)
        if c is not None and cur.get(c) == pid and untraced(c, migrated):
            cur[c] = None
            known.discard(c)

    def reveal(pid, cpu, ts):
        comm = comm_of.get(pid, "")
        if pid in pending:
            out.append(("wakeup", pid, cpu, pending.pop(pid), ts, comm))
        if pid in runq:
            out.append(("runq", pid, cpu, runq.pop(pid), ts, comm))

    def named(pid, comm):
        if pid and comm:
            comm_of[pid] = comm

    def enter(pid, cpu):
        if pid:
            oncpu[pid] = cpu
        cur[cpu] = pid

    for kind, cpu, ts, cpid, event, rest in recs:
        if kind == "drop":
            left.clear()
            pending.clear()
            runq.clear()
            if cur.get(cpu):
                leave(cur[cpu])
            cur[cpu] = None
            known.discard(cpu)
            continue
        if event != "sched_switch" and cpid != cur.get(cpu):
            decide(cpid, False)         # back on a CPU without a switch-in
        if event != "sched_switch" and cur.get(cpu):
            if cpid == cur[cpu]:
                last[cpu] = ts
            elif cpid:
                untraced(cpu, by=cpid, ts=ts)
                cur[cpu] = None
                known.discard(cpu)
            elif untraced(cpu):
                cur[cpu] = 0
        elif event in MACHINE and event != "sched_switch" and cpu in known and \
                cur.get(cpu) == 0 and cpid and cpid not in oncpu:
            reveal(cpid, cpu, ts)       # a task's line on a CPU idle per the lines
        if cpu not in known and cur.get(cpu) != cpid:
            # the CPU's current task before its first sched_switch
            if cur.get(cpu):
                leave(cur[cpu])
            if cpid and cpid not in oncpu and event in MACHINE:
                reveal(cpid, cpu, ts)
            enter(cpid, cpu)
            last[cpu] = ts
        if event == "sched_switch":
            m = SWITCH.match(rest) or SWITCH_RAW.search(rest)
            if not m:
                unparsed[event] += 1
                continue
            prev, nxt = int(m.group("prev_pid")), int(m.group("next_pid"))
            state = m.group("state")
            decide(prev, False)
            chain.pop(prev, None)
            chain.pop(nxt, None)
            if cur.get(cpu) and cur[cpu] != prev:
                untraced(cpu, by=prev, ts=ts)
            decide(nxt, prev != 0, cpu)
            if nxt and oncpu.get(nxt, cpu) != cpu:
                elsewhere(nxt)
            named(prev, m.group("prev_comm"))
            if prev and prev not in oncpu:
                reveal(prev, cpu, ts)       # its switch out: it ran
            if prev:
                leave(prev)
                if state in ("R", "R+"):
                    runq[prev] = ts
                elif state[0] in "XZ":
                    pending.pop(prev, None)
                    runq.pop(prev, None)
            if nxt:
                if nxt in pending:
                    start = pending.pop(nxt)
                    out.append(("wakeup", nxt, cpu, start, ts, m.group("next_comm")))
                if nxt in runq:
                    start = runq.pop(nxt)
                    out.append(("runq", nxt, cpu, start, ts, m.group("next_comm")))
            named(nxt, m.group("next_comm"))
            old = cur.get(cpu)
            if old and old != nxt:
                leave(old)
            enter(nxt, cpu)
            known.add(cpu)
            last[cpu] = ts
            for e in left.values():
                if e[0] == cpu:
                    e[4] = True
        elif event in ("sched_waking", "sched_wakeup", "sched_wakeup_new"):
            m = WAKE_FIELDS.search(rest) if "pid=" in rest else WAKE_PLUGIN.match(rest)
            if m:
                decide(int(m.group("pid")), False)      # woken: it had slept
            if event == "sched_wakeup" and m and int(m.group("pid")) in oncpu:
                pid = int(m.group("pid"))
                tm = WAKE_TARGET.search(rest)
                if tm and int(tm.group(1)) != oncpu[pid]:
                    elsewhere(pid)
            if event not in starters:
                continue
            if not m:
                unparsed[event] += 1
                continue
            pid = int(m.group("pid"))
            mc = WAKE_COMM.search(rest) if "pid=" in rest else m
            named(pid, mc.group("comm") if mc else "")
            if pid and pid in oncpu and event == "sched_waking" and \
                    run_waking.get(pid, 0) <= last.get(oncpu[pid], 0):
                run_waking[pid] = ts        # none since T's last line there
            if pid and pid not in oncpu and pid not in pending:
                pending[pid] = ts
        elif event == "sched_migrate_task":
            mc = MIGRATE.search(rest)
            if mc:
                named(int(mc.group("pid")), mc.group("comm"))
            m = MIGRATE_DEST.search(rest)
            if m:
                decide(int(m.group("pid")), True)       # moved while queued
            if m and int(m.group("pid")) in oncpu and int(m.group("dest")) != oncpu[int(m.group("pid"))]:
                elsewhere(int(m.group("pid")), migrated=True)
        elif event == "sched_stat_runtime":
            m = STAT.search(rest)
            if m:
                pid = int(m.group("pid"))
                named(pid, m.group("comm"))
                at = ts - int(m.group("rt"))
                prev_ts, prev_at = chain.get(pid, (0, 0))
                if prev_ts and abs(at - prev_ts) <= 20000 and prev_at <= at:
                    at = prev_at
                chain[pid] = (ts, at)
                c = oncpu.get(pid)
                if c is not None and c != cpu and cur.get(c) == pid and ts > last.get(c, 0):
                    last[c] = ts
                for e in left.values() if pid == cpid else ():
                    if e[0] == cpu and e[3] == pid and not e[4]:
                        e[4] = True
                        e[1] = max(e[1], min(at, e[2]))
        elif event == "sched_process_exit":
            mc = EXIT.search(rest)
            if mc:
                named(int(mc.group("pid")), mc.group("comm"))
        elif event == "sched_process_fork":
            m = FORK.search(rest)
            if not m:
                unparsed[event] += 1
                continue
            child = int(m.group("pid"))
            mp = FORK_PARENT.search(rest)
            if mp:
                named(int(mp.group("pid")), mp.group("comm"))
            mc = FORK_CHILD.search(rest)
            comm_of.pop(child, None)
            named(child, mc.group("comm") if mc else "")
            left.pop(child, None)
            chain.pop(child, None)
            pending.pop(child, None)
            runq.pop(child, None)
            oncpu.pop(child, None)
    return out, has_waking, unparsed, restored


def nearest_rank(sorted_values, p):
    n = len(sorted_values)
    return sorted_values[max(1, math.ceil(p / 100.0 * n)) - 1]


def clean(comm):
    return "".join("?" if ord(c) < 0x20 or ord(c) == 0x7f else c for c in comm)


def main():
    args = [a for a in sys.argv[1:] if a != "--no-repair"]
    do_repair = "--no-repair" not in sys.argv
    if len(args) not in (2, 3):
        print(__doc__)
        return 2
    sr, trace = args[0], args[1]
    if not shutil.which("trace-cmd"):
        print("SKIP: trace-cmd not installed")
        return 77
    work = args[2] if len(args) == 3 else tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    samples_file = os.path.join(work, os.path.basename(trace) + ".samples")
    p = subprocess.run([sr, "report", "--json", "--allow-lost", "--no-sidecar", "--samples",
                        samples_file, trace] + ([] if do_repair else ["--no-repair"]),
                       capture_output=True, text=True)
    if p.returncode != 0:
        print(f"FAIL: schedreplay report exit {p.returncode}: {p.stderr.strip()}")
        return 1
    rep = json.loads(p.stdout)
    buffer = rep["trace"]["buffer"]
    theirs = []
    with open(samples_file, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("#"):
                continue
            k, pid, cpu, start, end, lat, _ev, comm, _cg = line.rstrip("\n").split("\t")
            theirs.append((k, int(pid), int(cpu), int(start), int(end), comm))
            if int(end) - int(start) != int(lat):
                print(f"FAIL: sample {line.strip()}: latency is not end - start")
                return 1

    ours, has_waking, unparsed, restored = independent(trace, buffer, do_repair)
    ours = [(k, pid, cpu, s, e, clean(c)) for k, pid, cpu, s, e, c in ours]
    fails = 0
    if unparsed:
        print(f"FAIL: lines trace-cmd printed that this script cannot parse: {dict(unparsed)}")
        fails += 1
    want_start = "sched_waking" if has_waking else "sched_wakeup"
    if rep["latency_definition"]["start_event"] != want_start:
        print(f"FAIL: start event {rep['latency_definition']['start_event']}, "
              f"the trace says {want_start}")
        fails += 1

    # 0. the switches restored, per CPU
    rj = rep["trace"].get("repair")
    theirs_restored = Counter({c["cpu"]: c["restored"] for c in rj["per_cpu"]}) if rj else Counter()
    if (rj is None) == do_repair or +theirs_restored != +restored:
        print(f"FAIL: switches restored per CPU: {dict(+restored)} here, "
              f"{dict(+theirs_restored) if rj else None} in the JSON")
        fails += 1
    if rj and any(c["clamped_to_window"] for c in rj["per_cpu"]):
        print("FAIL: restored switches clamped to the reorder window: this script has no window")
        fails += 1

    # 1. sample by sample
    a, b = sorted(ours), sorted(theirs)
    if a != b:
        fails += 1
        ca, cb = Counter(a), Counter(b)
        only_ours, only_theirs = sorted((ca - cb).elements()), sorted((cb - ca).elements())
        print(f"FAIL: samples differ: {len(a)} independent, {len(b)} from --samples; "
              f"{len(only_ours)} only here, {len(only_theirs)} only in schedreplay's")
        for s in only_ours[:8]:
            print(f"  only independent: {s}")
        for s in only_theirs[:8]:
            print(f"  only schedreplay: {s}")

    # 2. counts and percentiles of the JSON against the exact independent values
    for kind, key in (("wakeup", "wakeup_latency_us"), ("runq", "runqueue_wait_us")):
        groups = defaultdict(list)
        for k, _pid, _cpu, s, e, comm in ours:
            if k == kind:
                groups[comm].append(e - s)
                groups[None].append(e - s)
        dists = dict(rep[key]["by_comm"])
        dists[None] = rep[key]["all"]
        for comm in set(groups) | {c for c, d in dists.items() if d["samples"]}:
            v = sorted(groups.get(comm, []))
            d = dists.get(comm, {"samples": 0})
            label = f"{key} {'all' if comm is None else 'comm=' + comm}"
            if d["samples"] != len(v):
                print(f"FAIL: {label}: {d['samples']} samples in the JSON, {len(v)} independent")
                fails += 1
                continue
            if not v:
                continue
            checks = [("min", v[0], 0), ("max", v[-1], 0)]
            checks += [(name, nearest_rank(v, p), 1 / 256) for name, p in PCTS]
            for name, exact, rel in checks:
                got = round(d[name] * 1000)
                if abs(got - exact) > exact * rel + 1:
                    print(f"FAIL: {label} {name}: JSON {got} ns, exact {exact} ns "
                          f"(allowed {exact * rel:.0f} ns)")
                    fails += 1
    nw = sum(1 for s in ours if s[0] == "wakeup")
    what = (f"repaired ({sum(restored.values())} switches restored)" if do_repair
            else "raw (--no-repair)")
    print(f"{trace}: buffer '{buffer}', start {want_start}, {what}: {nw} wakeup and {len(ours) - nw} "
          f"run-queue samples computed from trace-cmd report; "
          f"{'all equal' if not fails else str(fails) + ' differences'}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
