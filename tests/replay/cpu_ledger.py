#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Each CPU's time over a capture's span and a replay's, split by what the CPU did.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --seed N --dump-events T.dump --dump-wake-records T.dat
  cpu_ledger.py [--window-ms W] [--tasks N] [--lost-tasks N] [--episodes US] [--cpu-tasks N]
                T.rep T.dump ...

Every input is read from its first to its last event (the span `replay` reports as the
duration).  Each CPU's time is one of:
  fair       a task of prio >= 100 runs (its traced work in a replay: a RUN advances only
             while its task is current, and the preemption paths' costs are the waker's own
             run; docs/replay.md "Simulation", "Mechanical costs")
  other      an RT/DL task runs (prio < 100: the stopper, RT kthreads)
  idle_exit  the CPU is idle with a task queued on it (woken or moved there, not switched in
             yet): the idle path's cost, a mechanical cost
  idle_lost  the CPU is idle, nothing is queued on it, and a busy CPU has a queued task that
             may run here (not a per-CPU kthread): lost work conservation
  idle_none  idle, and no task is queued on any busy CPU
The queue follows the events alone (sched_wakeup/_new onto CPU:, sched_migrate_task, a
switch-out with prev_state R/R+).  A capture's idle exits the kernel did not trace (a line in
a task's context on a CPU idle per its switches or per a line in idle's context) are restored
as the reader restores them (tests/report/crosscheck.py's restore_points()): at
the task's first sched_stat_runtime there minus its runtime, within the bounds, and without one
(or past the first event) at the task's wakeup if it came while the CPU was idle, else at its
first event (docs/report.md, "Untraced switches out of idle").  Printed: the terms per CPU and summed (ms) and each later
input's difference from the first (CPU-ms); per window of W ms from each input's own start (and
with --cpu-tasks N, per CPU: the N tasks with the most time there, the other fair tasks, idle); the
tasks whose fair time differs most from the first input's (--tasks); the tasks queued on the
busy CPU during idle_lost (--lost-tasks) and the episodes (--episodes: each one longer than US);
idle_lost by the event that ended it (a wakeup onto the idle CPU, a pull of a queued task onto
it, the busy CPU's queue emptying); and each later input's idle time by what the first input
(the trace) did with the work of the tasks not running: a task queued on the busy CPU whose
work, at its point of work (its CPU time so far), the trace ran on the idle CPU, else a task
asleep whose next traced run was on the idle CPU at a trace time the replay had passed (its
latest wake record delivered: --dump-wake-records), with its next wake record's waker's state;
and by what the trace's same CPU did when it had done as much fair work in all.  Analysis
helper, not a test (docs/validation-log.md, "A CPU-time ledger of the replays' extra
duration").
"""
import argparse
import bisect
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sched_text import events  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'report'))
from crosscheck import restore_points  # noqa: E402

SW = re.compile(r'(\S.*?):(\d+) \[(\d+)\] (\S+) ==> (\S.*?):(\d+) \[(\d+)\]')
WAKE = re.compile(r'(?:comm=(\S+) pid=(\d+) prio=(\d+)|(\S.*?):(\d+) \[(\d+)\]).*(?:CPU:|target_cpu=)(\d+)')
MIG = re.compile(r'(?:comm=(\S+) pid=(\d+)|(\S.*?):(\d+)) .*orig_cpu=(\d+) dest_cpu=(\d+)')
TCPU = re.compile(r'CPU:(\d+)|dest_cpu=(\d+)')
OPWAKE = re.compile(r'wake pid=(\d+) trace=(\d+) waker=(-?\d+)')
PERCPU = re.compile(r'/\d+(:\S*)?$')
TERMS = ('fair', 'other', 'idle_exit', 'idle_lost', 'idle_none')


def restore_idle_exits(ev):
    """The capture's untraced switches out of idle, restored as the reader does
    (docs/report.md, "Untraced switches out of idle"; replay/trace_repair.c) by
    tests/report/crosscheck.py's restore_points(), the independent check of the reader's
    rule: this is its adapter from events()' tuples to crosscheck's records and back (a
    restored switch goes before T's first line there, its next_comm 'restored').  A CPU
    is idle from a line in idle's context too (the reader's rule): until 5 Dec 2026
    this script had a copy of the rule without it, and missed the idle exits after a
    task's untraced switch-out (bw-hogs 1, bw-hogs-run2 1, bw-hogs-run3 2,
    forkexec-run3 1, idle-io 3, small-nosched 4; every other bundled trace the same);
    before that copy's fix of 5 Dec 2026 small-nowaking (no sched_stat_runtime) lost
    1.317 CPU-ms of fair time against the reader's stream.  A dump's lines show no
    current task, so a replay's input gets none.  events() does not read trace-cmd's
    lost-events lines, which the rule takes as the CPU's current task unknown: the
    bundled small-lost gets the same five switches either way."""
    inserts, _ = restore_points([('ev', cpu, ts, cur, name, body)
                                 for ts, _, cpu, cur, name, body in ev])
    if not inserts:
        return ev
    out = list(ev)
    for idx, at, cpu, pid, _ in inserts:
        out.append((at, ev[idx][1] - 0.5, cpu, None, 'sched_switch',
                    f'swapper/{cpu}:0 [120] R ==> restored:{pid} [120]'))
    out.sort()
    return out


def seg_at(segs, w):
    """The run segment of a task's trace (cpu, arrival, w_start, length) that did
    its work at point @w (ns of its CPU time), or None past its last."""
    i = bisect.bisect_right([x[2] for x in segs], w + 500) - 1
    if i >= 0 and w < segs[i][2] + segs[i][3] - 500:
        return segs[i]
    return segs[i + 1] if i + 1 < len(segs) else None


def ledger(path, window, ref=None):
    ev = restore_idle_exits(events(path))
    t0, t1 = ev[0][0], ev[-1][0]
    curr = {}                 # cpu -> pid
    prio = {0: 120}
    comm = {0: 'idle'}
    queued = {}               # pid -> cpu (runnable, not running)
    tot = defaultdict(lambda: defaultdict(int))       # cpu -> term -> ns
    win = defaultdict(lambda: defaultdict(int))       # window -> term -> ns (all CPUs)
    cwin = defaultdict(lambda: defaultdict(int))      # (cpu, window) -> pid or term -> ns
    task = defaultdict(int)                           # pid -> fair ns
    lost_by = defaultdict(int)                        # queued pid -> idle_lost ns
    lost_ep = []                                      # idle_lost episodes
    open_lost = {}                                    # cpu -> (start, tasks queued)
    why = {}                                          # cpu -> the event that ended it
    kind = {}                                         # cpu -> what kind of event
    ends = defaultdict(int)                           # idle_lost by what ended it
    cpus = sorted({e[2] for e in ev})
    last = t0
    segs = defaultdict(list)   # pid -> [cpu, arrival, work at start, length]
    arrival = {}               # pid -> how it came onto its CPU
    where = defaultdict(int)   # idle_lost by the trace's CPU for that work
    dead = set()
    wakes = defaultdict(list)  # pid -> [(replay ts, trace ts, waker)] (--dump-wake-records)
    for e in ev:
        if e[4] == 'replay_op':
            m = OPWAKE.match(e[5])
            if m:
                wakes[int(m.group(1))].append((e[0], int(m.group(2)), int(m.group(3))))
    pos = [0]                  # the latest trace time of a wake record delivered
    done = [0]                 # all fair work so far
    tl_t, tl_w, tl_s = [], [], []   # the timeline: time, work done, per CPU (term, pid)
    cmp_ = defaultdict(int)    # idle time by what the reference's CPU did at that work

    def busy(c):
        return curr.get(c, 0) != 0

    def classify(c):
        p = curr.get(c, 0)
        if p:
            return 'fair' if prio.get(p, 120) >= 100 else 'other', None
        if any(qc == c for qc in queued.values()):
            return 'idle_exit', None
        lost = [q for q, qc in queued.items()
                if qc != c and busy(qc) and not PERCPU.search(comm.get(q, ''))]
        return ('idle_lost', lost) if lost else ('idle_none', None)

    def advance(t):
        if t <= last:
            return
        tl_t.append(last)
        tl_w.append(done[0])
        tl_s.append({c: (classify(c)[0], curr.get(c, 0)) for c in cpus})
        for c in cpus:
            term, lost = classify(c)
            d = t - last
            tot[c][term] += d
            a = last
            while a < t:
                w = (a - t0) // window
                b = min(t, t0 + (w + 1) * window)
                win[w][term] += b - a
                cwin[(c, w)][curr[c] if term == 'fair' else term] += b - a
                a = b
            if term == 'fair':
                task[curr[c]] += d
                done[0] += d
                segs[curr[c]][-1][3] += d
            if term in ('idle_lost', 'idle_none') and ref:
                where[(term,) + why_idle(c, lost or [])] += d
                i = max(0, bisect.bisect_right(ref['tl_w'], done[0]) - 1)
                rterm, rp = ref['tl_s'][i].get(c, ('idle_none', 0))
                if rterm == 'fair':
                    rterm = 'busy, its task ' + state(rp).replace(f' on {c}', ' here').replace(
                        ' on ', ' on the other CPU ').rstrip('0123456789')
                cmp_[(term, rterm)] += d
            if lost:
                for q in lost:
                    lost_by[q] += d / len(lost)
                if c not in open_lost:
                    open_lost[c] = (last, sorted(comm.get(q, '?') + ':' + str(q) for q in lost))
            elif c in open_lost:
                st, qs = open_lost.pop(c)
                lost_ep.append((last - st, st - t0, c, qs, why.get(c, '')))
                ends[kind.get(c, (0, '?'))[1]] += last - st

    def state(p):
        for c2, cp in curr.items():
            if cp == p:
                return f'running on {c2}'
        if p in queued:
            return f'queued on {queued[p]}'
        return 'exited' if p in dead else 'asleep'

    def why_idle(c, lost):
        """What the trace's CPU @c did with the work of the tasks not running here."""
        here = [seg_at(ref['segs'].get(q, []), task[q]) for q in lost]
        here = [x for x in here if x and x[0] == c]
        if here:
            return ('a task queued on the busy CPU: the trace ran that work here', here[0][1])
        best = None
        for p in segs:
            if p in queued or p in dead or p in curr.values():
                continue
            x = seg_at(ref['segs'].get(p, []), task[p])
            if x and x[0] == c and x[4] <= pos[0] and (best is None or x[4] < best[1][4]):
                best = (p, x)
        if best is None:
            return ('nothing the trace ran here by then', '')
        p = best[0]
        i = bisect.bisect_right([w[0] for w in wakes.get(p, [])], last)
        if i >= len(wakes.get(p, [])):
            return ('a task asleep here that the trace ran here', 'no wake record left')
        w = wakes[p][i][2]
        if w < 0:
            return ('a task asleep here that the trace ran here', 'its wake external')
        return ('a task asleep here that the trace ran here', 'its waker ' +
                state(w).replace(f' on {c}', ' here').replace(' on ', ' on the other CPU ')
                .rstrip('0123456789'))

    def run(c, p, t):
        curr[c] = p
        queued.pop(p, None)
        if p and p not in segs:
            segs[p] = []
        if p:
            segs[p].append([c, arrival.get(p, 'first seen'), task[p], 0, t])

    for ts, _, cpu, cur, name, body in ev:
        advance(ts)
        last = ts
        if name == 'replay_op':
            m = OPWAKE.match(body)
            if m:
                pos[0] = max(pos[0], int(m.group(2)))
        if name in ('sched_switch', 'sched_wakeup', 'sched_wakeup_new', 'sched_migrate_task'):
            for c in open_lost:
                why[c] = f'{name} on {cpu}: {body[:70]}'
                m = TCPU.search(body)
                dst = int(m.group(1) or m.group(2)) if m else -1
                mp = MIG.search(body) if name == 'sched_migrate_task' else None
                k = ('a wakeup onto it' if name.startswith('sched_wakeup') and dst == c else
                     'a pull onto it (a queued task moved)' if mp and dst == c and
                     int(mp.group(2) or mp.group(4)) in queued else None)
                if k or kind.get(c, (0, ''))[0] != ts:
                    kind[c] = (ts, k or 'the other CPU\'s queue emptied')
        if cur is not None and cur != curr.get(cpu, 0) and cur != 0 and curr.get(cpu, 0) == 0:
            run(cpu, cur, ts)          # an untraced idle exit
        if name == 'sched_switch':
            m = SW.search(body)
            if not m:
                continue
            pp, st, np_ = int(m.group(2)), m.group(4), int(m.group(6))
            comm[pp], prio[pp] = m.group(1), int(m.group(3))
            if m.group(5) != 'restored':
                comm[np_], prio[np_] = m.group(5), int(m.group(7))
            if pp and st.startswith('X'):
                dead.add(pp)
            if pp and st.startswith('R'):
                queued[pp] = cpu
                arrival[pp] = 'preempted there'
            if m.group(5) == 'restored':
                arrival[np_] = arrival.get(np_, '') + ' (untraced idle exit)'
            run(cpu, np_, ts)
        elif name in ('sched_wakeup', 'sched_wakeup_new'):
            m = WAKE.search(body)
            if not m:
                continue
            p = int(m.group(2) or m.group(5))
            comm[p] = m.group(1) or m.group(4)
            prio[p] = int(m.group(3) or m.group(6))
            if p not in curr.values():
                queued[p] = int(m.group(7))
                arrival[p] = 'woken onto it' if name == 'sched_wakeup' else 'forked onto it'
        elif name == 'sched_migrate_task':
            m = MIG.search(body)
            if m:
                p = int(m.group(2) or m.group(4))
                if p in queued:
                    queued[p] = int(m.group(6))
                arrival[p] = 'migrated (waking)' if p not in queued else 'migrated queued'
    for c in list(open_lost):
        st, qs = open_lost.pop(c)
        lost_ep.append((t1 - st, st - t0, c, qs, 'end'))
    return dict(span=t1 - t0, tot=tot, win=win, cwin=cwin, task=task, comm=comm, lost_by=lost_by,
                lost_ep=lost_ep, cpus=cpus, segs=segs, where=where, tl_w=tl_w, tl_s=tl_s,
                cmp=cmp_, ends=ends)


def check(files, res):
    """The accounting of every input; 0 if it holds."""
    err = 0
    for i, (f, r) in enumerate(zip(files, res)):
        def bad(what):
            nonlocal err
            err += 1
            print(f'{os.path.basename(f)}: {what}')
        for c in r['cpus']:
            if sum(r['tot'][c][t] for t in TERMS) != r['span']:
                bad(f'cpu {c}: terms {sum(r["tot"][c][t] for t in TERMS)} != span {r["span"]}')
        fair = sum(r['tot'][c]['fair'] for c in r['cpus'])
        if sum(r['task'].values()) != fair:
            bad(f'tasks {sum(r["task"].values())} != fair {fair}')
        if sum(sum(w.values()) for w in r['win'].values()) != r['span'] * len(r['cpus']):
            bad('windows do not add up to the span')
        for c in r['cpus']:
            if sum(sum(v.values()) for k, v in r['cwin'].items() if k[0] == c) != r['span']:
                bad(f'cpu {c}: its windows do not add up to the span')
        if i:
            for name, d in (('where', r['where']), ('cmp', r['cmp'])):
                for term in ('idle_lost', 'idle_none'):
                    got = sum(v for k, v in d.items() if k[0] == term)
                    want = sum(r['tot'][c][term] for c in r['cpus'])
                    if abs(got - want) > 1:
                        bad(f'{name} {term}: {got} != {want}')
        lost = sum(r['tot'][c]['idle_lost'] for c in r['cpus'])
        if abs(sum(e[0] for e in r['lost_ep']) - lost) > 1:
            bad(f'idle_lost episodes {sum(e[0] for e in r["lost_ep"])} != {lost}')
    print(f'{len(files)} inputs, {err} errors')
    return 1 if err else 0


def ms(x):
    return f'{x / 1e6:8.3f}'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--window-ms', type=float, default=1.0)
    ap.add_argument('--tasks', type=int, default=10)
    ap.add_argument('--lost-tasks', type=int, default=8)
    ap.add_argument('--episodes', type=float, default=None, metavar='US',
                    help='list every idle_lost episode longer than US')
    ap.add_argument('--cpu-tasks', type=int, default=0, metavar='N',
                    help='per CPU and window, the fair time of the N tasks with the most time on '
                    'that CPU (over all inputs), the rest of the fair time and the idle time')
    ap.add_argument('--check', action='store_true',
                    help='check the accounting on every input (each CPU\'s terms add up to the '
                    'span, the tasks\' fair time to the fair term, the idle classes to the idle '
                    'terms) and print "N inputs, E errors"')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    window = round(a.window_ms * 1e6)
    res = [ledger(a.files[0], window)]
    res += [ledger(f, window, res[0]) for f in a.files[1:]]
    if a.check:
        return check(a.files, res)
    print('per CPU (ms): span ' + ' '.join(f'{t:>9s}' for t in TERMS))
    for f, r in zip(a.files, res):
        print(f'{os.path.basename(f)}: span {ms(r["span"])}')
        allt = defaultdict(int)
        for c in r['cpus']:
            print(f'  cpu {c}          ' + ' '.join(f'{ms(r["tot"][c][t]):>9s}' for t in TERMS))
            for t in TERMS:
                allt[t] += r['tot'][c][t]
        print('  all CPUs       ' + ' '.join(f'{ms(allt[t]):>9s}' for t in TERMS))
        r['all'] = allt
    b = res[0]
    for f, r in zip(a.files[1:], res[1:]):
        print(f'{os.path.basename(f)} minus {os.path.basename(a.files[0])} (CPU-ms): span x CPUs '
              f'{(r["span"] * len(r["cpus"]) - b["span"] * len(b["cpus"])) / 1e6:+.3f} = ' +
              ' '.join(f'{t} {(r["all"][t] - b["all"][t]) / 1e6:+.3f}' for t in TERMS))
    print(f'\nper window of {a.window_ms} ms from each start (CPU-ms, all CPUs): ' + ' '.join(TERMS))
    nw = max(max(r['win']) for r in res) + 1
    for w in range(nw):
        print(f'  {w * a.window_ms:6.1f} ' + '  |  '.join(
            ' '.join(f'{r["win"][w][t] / 1e6:6.3f}' for t in TERMS) for r in res))
    for c in (b['cpus'] if a.cpu_tasks else []):
        on = defaultdict(int)
        for r in res:
            for (c2, _), v in r['cwin'].items():
                if c2 == c:
                    for k, ns in v.items():
                        if isinstance(k, int):
                            on[k] += ns
        top = sorted(on, key=lambda p: -on[p])[:a.cpu_tasks]
        name = lambda p: next((r['comm'][p] for r in res if p in r['comm']), '?')
        cols = [f'{p}' for p in top] + ['rest', 'idle']
        print(f'\ncpu {c} per window of {a.window_ms} ms (ms): the tasks with the most time '
              f'there ({", ".join(f"{p} {name(p)}" for p in top)}), the other fair tasks, idle '
              '(idle_exit + idle_lost + idle_none); one group per input')
        print('  window ' + '  |  '.join(' '.join(f'{k:>6s}' for k in cols) for r in res))
        sums = [defaultdict(int) for r in res]
        for w in range(nw):
            row = []
            for r, sm in zip(res, sums):
                v = r['cwin'].get((c, w), {})
                vals = [v.get(p, 0) for p in top]
                vals.append(sum(ns for k, ns in v.items() if isinstance(k, int) and k not in top
                                and k != 0) + v.get('other', 0))
                vals.append(sum(v.get(t, 0) for t in ('idle_exit', 'idle_lost', 'idle_none')))
                for i, x in enumerate(vals):
                    sm[i] += x
                row.append(' '.join(f'{x / 1e6:6.3f}' for x in vals))
            print(f'  {w * a.window_ms:6.1f} ' + '  |  '.join(row))
        print('     sum ' + '  |  '.join(' '.join(f'{sm[i] / 1e6:6.2f}' for i in range(len(cols)))
                                      for sm in sums))
    print('\nfair time per task (ms), largest differences from the first input:')
    pids = set().union(*(r['task'] for r in res))
    diff = sorted(pids, key=lambda p: -max(abs(r['task'][p] - b['task'][p]) for r in res))
    for p in diff[:a.tasks]:
        name = next((r['comm'][p] for r in res if p in r['comm']), '?')
        print(f'  {name}:{p:<8d} ' + ' '.join(ms(r['task'][p]) for r in res))
    print('  all fair      ' + ' '.join(ms(sum(r['task'].values())) for r in res))
    print('\nidle_lost: tasks queued on the busy CPU (ms of the idle CPU, shared among them), '
          'episodes > 50 us')
    for f, r in zip(a.files, res):
        top = sorted(r['lost_by'].items(), key=lambda kv: -kv[1])[:a.lost_tasks]
        long_ = [e[0] for e in r['lost_ep'] if e[0] > 50000]
        print(f'  {os.path.basename(f)}: {len(r["lost_ep"])} episodes, {len(long_)} > 50 us '
              f'({sum(long_) / 1e6:.3f} ms); ' +
              ', '.join(f'{r["comm"].get(p, "?")}:{p} {v / 1e6:.3f}' for p, v in top))
    print('\nidle time of each replay (idle_lost, idle_none) by what the first input (the trace) '
          'did on that CPU with the work of the tasks not running there, each at its point of '
          'work (its CPU time so far): a task queued on the busy CPU whose work the trace ran on '
          'the idle one (how it came there in the trace), else a task asleep whose next traced '
          'run was on the idle CPU at a trace time the replay had passed (the latest wake record '
          'delivered), with the state of the waker of its next wake record (ms; mean, min, max '
          'over the replays)')
    keys = sorted(set().union(*(r['where'] for r in res[1:])))
    for k in keys:
        v = [r['where'][k] / 1e6 for r in res[1:]]
        print(f'  {k[0]:9s} {k[1]:62s} {k[2]:28s} {sum(v) / len(v):7.3f} {min(v):7.3f} '
              f'{max(v):7.3f}')
    print('\nidle_lost by the event that ended it (ms; the first input, then mean, min, max over '
          'the others)')
    for k in sorted(set().union(*(r['ends'] for r in res))):
        v = [r['ends'][k] / 1e6 for r in res[1:]] or [0]
        print(f'  {k:32s} {res[0]["ends"][k] / 1e6:8.3f}   {sum(v) / len(v):8.3f} {min(v):8.3f} '
              f'{max(v):8.3f}')
    print('\nidle time of each replay by what the first input\'s same CPU did when it had done '
          'as much fair work in all (ms; mean, min, max over the replays); busy: the state its '
          'task is in in the replay')
    keys = sorted(set().union(*(r['cmp'] for r in res[1:])))
    for k in keys:
        v = [r['cmp'][k] / 1e6 for r in res[1:]]
        print(f'  {k[0]:9s} {k[1]:52s} {sum(v) / len(v):7.3f} {min(v):7.3f} {max(v):7.3f}')
    if a.episodes is not None:
        for f, r in zip(a.files, res):
            print(f'\nidle_lost episodes over {a.episodes} us, {os.path.basename(f)}: '
                  'start (ms from the input\'s start), CPU, length (us), the tasks queued on the '
                  'busy CPU, the first event after it')
            for ln, st, c, qs, w in sorted(r['lost_ep'], key=lambda e: e[1]):
                if ln > a.episodes * 1000:
                    print(f'  {st / 1e6:8.3f} cpu {c} {ln / 1e3:8.1f}  {len(qs)} queued '
                          f'({" ".join(qs[:6])}{" ..." if len(qs) > 6 else ""})  | {w}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
