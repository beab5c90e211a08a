#!/usr/bin/env python3
"""Who clears rd->overloaded between a set and the next newidle pass: the
trace's runnable counts against the replay model's record (docs/validation-log.md,
"The newidle passes at every block to idle: who clears the overload").

Kernel (6.12.118 / the 6.18 capture kernel): add_nr_running() sets the root
domain's overload flag when a CPU goes from < 2 to >= 2 runnable tasks (any
class; rq->nr_running); only update_sd_lb_stats() of a root-domain balance
(!sd->parent: a newidle walk, a periodic or nohz balance) writes it again,
to "some CPU has nr_running > 1" (the misfit rule needs SD_ASYM_CPUCAPACITY).
sched_balance_newidle() returns at the entry test while it is clear; past it,
it runs the blocked update (the RT block's second sched_stat_runtime:
newidle_rt.py), then NI_RANDOM's die per domain; only a domain the die lets
balance can clear the flag.

Trace side: the runnable tasks per CPU rebuilt from sched_wakeup /
sched_wakeup_new / sched_migrate_task / sched_switch (a prev not R leaves the
CPU); every < 2 -> >= 2 step is a set.  For each RT/DL block to idle of the
trace (newidle_rt.py's blocks: second charge or not), k = the blocks to idle
on any CPU since the last set (each a newidle pass that may have cleared it,
none of them at a time a CPU still had 2 runnable).  If every such pass
cleared with probability p (its die letting the root domain's walk run) and
nothing else cleared it, the kernel's pass at a block with k passes since
the set runs with probability (1 - p)^k: the table by k and the p that fits
(maximum likelihood) are printed.

Dump side (replay --dump-events D --dump-wake-records): the `replay_op:
newidle` lines at every block (class=fair and class=rt; after=, set=SITE:CPU:T,
clear=SITE:CPU:T, sets=, clears=): the same table by k over the model's own
passes, and who cleared each overload the model set (a fair block's pass, an
RT block's pass, a periodic or nohz balance).

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay T.dat --dump-events D --dump-wake-records [--seed S]
  newidle_overload.py T.rep [D...] [--pid P] [--tick-us 4000] [--check]
--pid: the RT blocks of that pid only (default: every RT/DL block to idle).
The kernel's table is also split by whether a tick instant (the phase read
from the trace's lone sched_stat_runtime events, --tick-us apart) fell in
the block's CPU's idle since the set: a tick NO_HZ kept on an idle CPU runs
its periodic balance, which recomputes the overload.
--check: exit 1 unless every dump's newidle lines carry the overload fields
and their sets/clears counters never go back.
"""
import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from newidle_rt import EV, RT, SW, dump_newidle, ts  # noqa: E402  (the same trace and dump lines)

WK = re.compile(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+sched_wakeup(?:_new)?:\s+(.+?):(-?\d+) \[(-?\d+)\] '
                r'CPU:(\d+)')
MG = re.compile(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+sched_migrate_task:\s+comm=.*? pid=(\d+) prio=-?\d+ '
                r'orig_cpu=(\d+) dest_cpu=(\d+)')


def trace_side(path, gap_ns):
    """(sets, blocks): sets [(t, cpu, how)]; blocks to idle [(t, cpu, pid, rt, second, busy)]
    where busy: some CPU still has >= 2 runnable tasks at the block."""
    rq = {}        # cpu -> set of runnable pids (running included)
    where = {}     # pid -> cpu
    last = {}      # cpu -> last two events for the second-charge test
    running = {}   # cpu -> the pid the last switch put there (None: idle)
    sets, blocks = [], []

    def place(pid, cpu, t, how):
        old = where.get(pid)
        if old is not None and old != cpu:
            rq[old].discard(pid)
        where[pid] = cpu
        s = rq.setdefault(cpu, set())
        if pid not in s:
            s.add(pid)
            if len(s) == 2:
                sets.append((t, cpu, how))

    def leave(pid, cpu):
        rq.setdefault(cpu, set()).discard(pid)
        if where.get(pid) == cpu:
            where.pop(pid, None)

    with open(path, errors='replace') as f:
        for line in f:
            m = SW.search(line)
            if m:
                cpu, t = int(m.group(1)), ts(m.group(2), m.group(3))
                pid, prio, state = int(m.group(5)), int(m.group(6)), m.group(7)
                npid = int(m.group(9))
                cur = running.get(cpu)
                if cur is not None and cur != pid:
                    leave(cur, cpu)      # its switch out is not in the trace
                if pid > 0:
                    if state.startswith('R'):
                        place(pid, cpu, t, 'preempted')
                    else:
                        leave(pid, cpu)
                if npid > 0:
                    place(npid, cpu, t, 'switch-in')
                else:
                    for q in list(rq.get(cpu, ())):
                        leave(q, cpu)    # idle runs with nothing queued
                running[cpu] = npid if npid > 0 else None
                if npid == 0 and pid > 0 and not state.startswith('R'):
                    ev = last.get(cpu, [])
                    rt = 0 <= prio < 100
                    second = (rt and len(ev) == 2 and
                              all(e[0] == 'rt' and e[2] == pid for e in ev) and
                              ev[1][1] - ev[0][1] < gap_ns)
                    busy = any(len(s) >= 2 for s in rq.values())
                    blocks.append((t, cpu, pid, rt, second, busy))
                last[cpu] = (last.get(cpu, []) + [('sw', t, pid)])[-2:]
                continue
            m = RT.search(line)
            if m:
                cpu = int(m.group(1))
                last[cpu] = (last.get(cpu, []) + [('rt', ts(m.group(2), m.group(3)),
                                                   int(m.group(4)))])[-2:]
                continue
            m = WK.search(line)
            if m:
                cpu = int(m.group(1))
                place(int(m.group(5)), int(m.group(7)), ts(m.group(2), m.group(3)), 'wakeup')
                last[cpu] = (last.get(cpu, []) + [('ev', 0, -1)])[-2:]
                continue
            m = MG.search(line)
            if m:
                cpu, pid = int(m.group(1)), int(m.group(4))
                src, dst = int(m.group(5)), int(m.group(6))
                if pid in rq.get(src, set()):
                    place(pid, dst, ts(m.group(2), m.group(3)), 'migrate')
                last[cpu] = (last.get(cpu, []) + [('ev', 0, -1)])[-2:]
                continue
            m = EV.search(line)
            if m and m.group(4) != 'print':
                cpu = int(m.group(1))
                last[cpu] = (last.get(cpu, []) + [('ev', 0, -1)])[-2:]
    return sets, blocks


def tick_phase(path, period):
    """The ticks' phase (ns, modulo @period) from the trace's sched_stat_runtime events
    that stand alone on their CPU (20 us from the CPU's events either side: a tick's
    update_curr() of the running task), the most common 50 us bin's median; None
    without such events."""
    per = {}
    with open(path, errors='replace') as f:
        for line in f:
            m = EV.search(line)
            if m and m.group(4) != 'print':
                per.setdefault(int(m.group(1)), []).append((ts(m.group(2), m.group(3)),
                                                            m.group(4)))
    ph = []
    for l in per.values():
        for i in range(1, len(l) - 1):
            if (l[i][1] == 'sched_stat_runtime' and l[i][0] - l[i - 1][0] > 20000 and
                    l[i + 1][0] - l[i][0] > 20000):
                ph.append(l[i][0] % period)
    if not ph:
        return None
    bins = {}
    for x in ph:
        bins.setdefault(x // 50000, []).append(x)
    best = sorted(max(bins.values(), key=len))
    return best[len(best) // 2]


def idle_spans(path):
    """cpu -> [(start, end)] of the trace's idle intervals (switch to / from the idle task)."""
    out, start = {}, {}
    with open(path, errors='replace') as f:
        for line in f:
            m = SW.search(line)
            if not m:
                continue
            cpu, t = int(m.group(1)), ts(m.group(2), m.group(3))
            if int(m.group(9)) == 0:
                start[cpu] = t
            elif int(m.group(5)) == 0 and cpu in start:
                out.setdefault(cpu, []).append((start.pop(cpu), t))
    return out


def idle_tick_between(spans, phase, period, a, b):
    """Whether a tick instant falls in one of @spans (one CPU's) within (a, b)."""
    for s0, s1 in spans:
        lo, hi = max(s0, a), min(s1, b)
        if lo >= hi:
            continue
        k = (lo - phase) // period + 1
        if phase + k * period < hi:
            return True
    return False


def by_k(events):
    """events: time-ordered ('set', t) / ('pass', t, target, ran, clearable).  For each
    target pass: k = clearable passes since the last set (None: no set yet)."""
    rows = {}
    k = None
    for e in events:
        if e[0] == 'set':
            k = 0
            continue
        _, t, target, ran, clearable = e
        if target and k is not None:
            r = rows.setdefault(k, [0, 0])
            r[0] += 1
            r[1] += ran
        if k is not None and clearable:
            k += 1
    return rows


def fit_p(rows):
    """ML p for P(ran | k) = (1 - p)^k over k >= 1 (grid, 1/1024 steps)."""
    best, bp = None, None
    for i in range(1, 1024):
        q = 1.0 - i / 1024.0
        ll = 0.0
        for k, (n, r) in rows.items():
            if k == 0:
                continue
            pr = q ** k
            ll += r * math.log(pr) + (n - r) * math.log(max(1e-300, 1.0 - pr))
        if best is None or ll > best:
            best, bp = ll, i / 1024.0
    return bp


def print_rows(title, rows):
    print('  %s' % title)
    print('    %-6s %6s %6s %7s' % ('k', 'blocks', 'ran', 'rate'))
    for k in sorted(rows):
        n, r = rows[k]
        print('    %-6s %6d %6d %6.1f%%' % (k, n, r, 100.0 * r / n if n else 0.0))
    p = fit_p(rows)
    print('    fit (1-p)^k over k >= 1: p = %.3f (NI_RANDOM ratio ~%d)' % (p, round(p * 1024) - 1))


def dump_lines(path):
    """newidle_rt.py's dump lines, each also with the overload fields."""
    out = dump_newidle(path)
    for t, cpu, kv in out:
        for k in ('overloaded', 'set', 'clear', 'sets', 'clears', 'class'):
            if k not in kv:
                raise ValueError('%s: newidle line at %d.%09d without %s' %
                                 (path, t // 10**9, t % 10**9, k))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('trace', help='trace-cmd report -t text of the trace')
    ap.add_argument('dumps', nargs='*', help='replay --dump-events --dump-wake-records files')
    ap.add_argument('--pid', type=int, default=None)
    ap.add_argument('--gap-us', type=float, default=20.0)
    ap.add_argument('--tick-us', type=float, default=4000.0,
                    help='the tick period (1e6 / CONFIG_HZ us; 4000: HZ 250, the captures\')')
    ap.add_argument('--check', action='store_true')
    a = ap.parse_args()

    sets, blocks = trace_side(a.trace, int(a.gap_us * 1000))
    target = [b for b in blocks if b[3] and (a.pid is None or b[2] == a.pid)]
    hows = {}
    for s in sets:
        hows[s[2]] = hows.get(s[2], 0) + 1
    print('trace: %d overload sets (a CPU reaching 2 runnable: %s); %d blocks to idle '
          '(%d RT/DL, %d of them targets, %d with a second charge); %d blocks at a time a CPU '
          'had 2 runnable' %
          (len(sets), ', '.join('%s %d' % kv for kv in sorted(hows.items())), len(blocks),
           sum(1 for b in blocks if b[3]), len(target), sum(1 for b in target if b[4]),
           sum(1 for b in blocks if b[5])))
    ev = [(s[0], 0, ('set', s[0])) for s in sets]
    ev += [(b[0], 1, ('pass', b[0], b[3] and (a.pid is None or b[2] == a.pid), b[4], not b[5]))
           for b in blocks]
    ev.sort(key=lambda e: (e[0], e[1]))
    blocks_at = {b[0]: b for b in blocks}
    print_rows('kernel: RT blocks to idle by k (blocks to idle since the last set), second charge',
               by_k([e[2] for e in ev]))
    period = int(a.tick_us * 1000)
    phase = tick_phase(a.trace, period)
    if phase is not None:
        # the same, split by whether a tick instant fell in the block's CPU's idle since the
        # set (an idle tick the kernel kept: its periodic balance recomputes the overload)
        spans = idle_spans(a.trace)
        split = {}
        last, k = None, 0
        for e in ev:
            x = e[2]
            if x[0] == 'set':
                last, k = x[1], 0
                continue
            b = blocks_at[x[1]]
            if x[2] and last is not None:
                tick = idle_tick_between(spans.get(b[1], []), phase, period, last, b[0])
                r = split.setdefault((k, tick), [0, 0])
                r[0] += 1
                r[1] += b[4]
            if last is not None and x[4]:
                k += 1
        print('  kernel: the same by (k, a tick in the CPU\'s idle since the set); tick phase '
              '%d ns of %d' % (phase, period))
        for key in sorted(split):
            n, r = split[key]
            print('    k %-3d idle tick %-3s %6d %6d %6.1f%%' %
                  (key[0], 'yes' if key[1] else 'no', n, r, 100.0 * r / n if n else 0.0))

    try:
        loaded = [(d, dump_lines(d)) for d in a.dumps]
    except (OSError, ValueError) as e:
        print('error: %s' % e, file=sys.stderr)
        return 1
    ok = True
    for d, lines in loaded:
        # the model's sets: its counter; each line's pass, in order
        mev = []
        psets = pclears = 0
        clearer = {}
        for t, cpu, kv in lines:
            sets_n, clears_n = int(kv['sets']), int(kv['clears'])
            if sets_n < psets or clears_n < pclears:
                print('check: %s: sets/clears went back at %d.%09d' % (d, t // 10**9, t % 10**9))
                ok = False
            if sets_n > psets:
                mev.append(('set', t))
            ran = kv['outcome'] == 'ran' and kv.get('blocked') == '1'
            idle = kv['next'] == '0'
            tgt = kv['class'] == 'rt' and idle and (a.pid is None or int(kv['pid']) == a.pid)
            if kv['outcome'] != 'none':
                own = kv['overloaded'] == '1' and kv.get('after') == '0'
                if own:
                    clearer['%s pass' % kv['class']] = clearer.get('%s pass' % kv['class'], 0) + 1
                elif clears_n > pclears:
                    site = kv['clear'].split(':')[0]
                    clearer[site] = clearer.get(site, 0) + (clears_n - pclears)
                mev.append(('pass', t, tgt, ran, True))
            else:
                if clears_n > pclears:
                    site = kv['clear'].split(':')[0]
                    clearer[site] = clearer.get(site, 0) + (clears_n - pclears)
                if tgt:
                    mev.append(('pass', t, tgt, False, False))
            psets, pclears = sets_n, clears_n
        print('%s: %d newidle lines (%d fair, %d rt); model sets %d, clears %d' %
              (d, len(lines), sum(1 for l in lines if l[2]['class'] == 'fair'),
               sum(1 for l in lines if l[2]['class'] == 'rt'), psets, pclears))
        print('  cleared by: %s' % ', '.join('%s %d' % kv for kv in sorted(clearer.items())))
        print_rows('model: RT blocks to idle by k (its passes since its last set), blocked update',
                   by_k(mev))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
