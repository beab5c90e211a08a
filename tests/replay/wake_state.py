#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Chosen tasks' EEVDF state at their wakeups, trace against replay: still delayed, or asleep?

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay report --samples T.samples T.dat        (or a replay --dump-samples file)
  schedreplay replay --seed N --dump-events T.dump --dump-samples T.dsamples T.dat
  wake_state.py --group-pid PID --pids P,P,... --samples T.samples T.rep
  wake_state.py --group-pid PID --pids P,P,... --samples T.dsamples T.dump

PID is the workload's leader (hackbench's parent: the pid whose sched_process_fork events make
the readers and writers); it and its descendants are rebuilt as one queue per CPU, all nice 0,
with forkexec_eevdf.py's rules (the 6.18 profile's: vruntime from sched_stat_runtime, placement
with lag inflation, DELAY_DEQUEUE / DELAY_ZERO, picks that dequeue delayed entities).  A trace
without sched_stat_runtime (small-nowaking*) gets its charges synthesized from the switch times:
each run's CPU time at its switch-out and, at every sched_waking/sched_wakeup onto a CPU, its
current's time so far (the enqueue's update_curr()); a task seen running where no switch put it
(an untraced switch out of idle) starts its run at that first event.  So the trace's rebuild is
approximate: it prints how many switches it matches (its pick against the traced one).

For each wakeup of a --pids task (at its sched_waking, else its sched_wakeup: a delayed task is
requeued at the waking, ttwu_runnable()), the rebuilt state of that task: still queued as
delayed (its lag V - v, negative), or asleep with lag 0 (its delayed dequeue completed at a pick,
DELAY_ZERO) or > 0 (it blocked eligible); joined with the wakeup's latency from the samples file
(measured lines for a trace-cmd text, predicted lines for a dump), and counted against the
measured samples' p95 (or --pct).  Printed: per state, the wakeups, their latency p50, those at or
above the percentile, and the lag p50.
Analysis helper, not a test (docs/validation-log.md, "small-nowaking's p95 band on its three
captures").
"""
import argparse
import math
import statistics
import sys
import tempfile
from collections import defaultdict

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import forkexec_cycles as fc  # noqa: E402
import sched_text as st  # noqa: E402
import forkexec_eevdf as fe  # noqa: E402


def synthesize(src, dst):
    """Copy trace-cmd text @src to @dst with sched_stat_runtime lines made from switch times."""
    cur, mark = {}, {}

    def charge(cpu, t, tss, out):
        p = cur.get(cpu, 0)
        if p and t > mark[cpu]:
            out.write('[%03d] %s: sched_stat_runtime: comm=x pid=%d runtime=%d [ns]\n'
                      % (cpu, tss, p, t - mark[cpu]))
        mark[cpu] = t

    with open(src, errors='replace') as f, open(dst, 'w') as out:
        for line in f:
            m = None if line.startswith('[') else st.REP.match(line)
            if not m:
                continue
            ctx, cpu, ev, rest = int(m.group(2)), int(m.group(3)), m.group(6), m.group(7)
            tss, t = m.group(4) + '.' + m.group(5), st.ns(m.group(4), m.group(5))
            if ctx != 0 and cur.get(cpu, 0) == 0 and ev != 'sched_switch':
                cur[cpu], mark[cpu] = ctx, t        # an untraced switch out of idle
            if ev == 'sched_switch':
                charge(cpu, t, tss, out)
                s = fc.RE_SW.match(rest)
                cur[cpu], mark[cpu] = int(s.group(6)), t
            elif ev in ('sched_wakeup', 'sched_waking'):
                s = fc.RE_WK.match(rest)
                if s and int(s.group(4)) in cur:
                    charge(int(s.group(4)), t, tss, out)
            out.write(line)


def rebuild(path, gpid, pids, ncpu, slice_ns, tick_ns):
    """[(ts, pid, state, lag)] at each wakeup of @pids, and the rebuild (for its pick counts)."""
    evs = fe.parse(path)
    fe.Rebuild.fork_parent = {e['child']: e['pid'] for e in evs if e['ev'] == 'sched_process_fork'}
    rec = []

    class R(fe.Rebuild):
        pending = None

        def note(self, pid):
            if pid not in self.group or pid not in pids:
                return
            en = self.ent.get(pid)
            if en is not None and en.delayed and pid in self.on:
                rec.append((self.t, pid, 'delayed', self.rq[self.cpu[pid]].V() - en.v))
            else:
                lag = en.vlag if en is not None else 0
                rec.append((self.t, pid, 'asleep, lag > 0' if lag > 0 else 'asleep, lag <= 0', lag))

        def step(self, e):
            if e['ev'] == 'sched_waking' and e.get('pid') in pids:
                self.note(e['pid'])
                self.pending = e['pid']
            super().step(e)

        def on_wakeup(self, pid, c):
            if self.pending == pid:
                self.pending = None
            else:
                self.note(pid)
            super().on_wakeup(pid, c)

    # the latency sample starts at the waking when there is one: key by the waking's time
    return rec, R(evs, gpid, -1, ncpu, slice_ns, tick_ns)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--group-pid', type=int, required=True)
    ap.add_argument('--pids', required=True, help='the tasks whose wakeups are read, P,P,...')
    ap.add_argument('--samples', required=True,
                    help='report --samples or replay --dump-samples file of the same input')
    ap.add_argument('--pct', type=float, default=95.0, help='the measured percentile (default 95)')
    ap.add_argument('--cpus', type=int, default=2)
    ap.add_argument('--base-slice', type=int, default=1400000)
    ap.add_argument('--tick', type=int, default=4000000)
    ap.add_argument('input', help='trace-cmd report -t text, or a replay --dump-events file')
    a = ap.parse_args()
    pids = {int(p) for p in a.pids.split(',') if p}
    dump = False
    with open(a.input, errors='replace') as f:
        for line in f:
            if line.strip():
                dump = line.startswith('[')
                break
    lat, meas = {}, []
    with open(a.samples) as f:
        for line in f:
            x = line.rstrip('\n').split('\t')
            if len(x) < 7 or x[0].startswith('#'):
                continue
            if x[0] == 'wakeup':                       # report --samples: kind pid cpu start end lat
                meas.append(int(x[5]))
                if not dump:
                    lat[(int(x[1]), int(x[3]))] = int(x[5])
            elif x[1] == 'wakeup':                     # --dump-samples: side kind pid cpu start end lat
                if x[0] == 'measured':
                    meas.append(int(x[6]))
                if (x[0] == 'predicted') == dump:
                    lat[(int(x[2]), int(x[4]))] = int(x[6])
    if not meas:
        sys.exit('wake_state.py: %s: no measured wakeup samples' % a.samples)
    meas.sort()
    thr = meas[max(1, math.ceil(len(meas) * a.pct / 100)) - 1]
    if dump:
        rec, r = rebuild(a.input, a.group_pid, pids, a.cpus, a.base_slice, a.tick)
    else:
        with tempfile.NamedTemporaryFile('w', suffix='.txt') as tmp:
            synthesize(a.input, tmp.name)
            rec, r = rebuild(tmp.name, a.group_pid, pids, a.cpus, a.base_slice, a.tick)
    by = defaultdict(list)
    for ts, pid, st, lag in rec:
        if (pid, ts) in lat:
            by[st].append((lat[(pid, ts)], lag))
    matched = sum(v for k, v in r.picks.items() if k[1])
    print('%s: %d of %d switches match the rebuilt pick; the measured p%g %.1f us'
          % (a.input, matched, sum(r.picks.values()), a.pct, thr / 1e3))
    for st in ('delayed', 'asleep, lag <= 0', 'asleep, lag > 0'):
        v = by.get(st, [])
        if not v:
            continue
        print('  %-17s %4d wakeups  latency p50 %8.1f us  >= p%g %4d  lag p50 %8.1f us'
              % (st, len(v), statistics.median(x for x, _ in v) / 1e3, a.pct,
                 sum(x >= thr for x, _ in v), statistics.median(y for _, y in v) / 1e3))


if __name__ == '__main__':
    try:
        main()
    except OSError as err:
        sys.exit('wake_state.py: %s' % err)
