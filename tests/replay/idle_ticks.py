#!/usr/bin/env python3
"""Which idle periods kept their tick: the kernel's, seen in a capture with the
timer events, against --idle-tick short's rule in a replay's dump
(docs/validation-log.md, "The kept idle ticks, seen directly").

Kernel (kernel/time/tick-sched.c, 6.12 / the 6.18 capture kernel): at each
pass of the idle loop tick_nohz_idle_stop_tick() asks tick_nohz_next_event()
for the CPU's next timer; within TICK_NSEC the tick is retained (nothing is
traced), else tick_nohz_stop_tick() stops it - the first stop of an idle
traces timer:tick_stop success=1 and calls nohz_balance_enter_idle() - and
re-arms the tick hrtimer at the next timer event.  Every expiry of the tick
hrtimer (tick_nohz_handler, tick_sched_timer before 6.10) runs sched_tick(),
so on an idle CPU its periodic balance, whether the tick was kept or fired
at a stopped tick's next event.  A tick_stop success=0 (a dependency) comes
from nohz_full only.

Trace side (trace-cmd report -t of a capture with -e timer:tick_stop
-e timer:hrtimer_expire_entry -e timer:hrtimer_start): each idle period of
each CPU (a sched_switch to pid 0 to the next switch from it), the tick
expiries on that CPU in it, before its first tick_stop (kept) or after it
(stopped: at the next timer), and whether it saw a tick_stop.  The tick's
function is matched by name, or by address with --kallsyms (a capture's
trace.dat may hold no symbols), or else found as the function whose
hrtimer_start expiries lie on the --tick-us grid most often.

Dump side (replay --idle-tick short --dump-events D --dump-wake-records):
the `replay_op: idle_tick cpu=C kept=K iv=START-END ended_by=E` lines, the
rule's decision at the first tick of an idle CPU and the trace interval it
read, matched to the trace's idle period by CPU and start.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay T.dat --idle-tick short --dump-events D --dump-wake-records
  idle_ticks.py T.rep [D...] [--kallsyms /proc/kallsyms] [--tick-us 4000] [--list]
                [--rule short|any] [--check]
--list: one line per idle period.  --check: exit 1 unless the trace has
tick expiries, idle periods, and each dump's idle_tick lines are well formed
with a kept tick only on an interval of at most a tick ended locally (--rule
any, the dumps of --idle-tick any: ended by any wake).
"""
import argparse
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from newidle_rt import op_lines, ts  # noqa: E402  (the same dump lines and timestamps)
from sched_text import PID, SWITCH, TCPU, lines as event_lines  # noqa: E402

HX = re.compile(r'hrtimer=(\S+) .*?function=(\S+)')
HS = re.compile(r'hrtimer=(\S+) function=(\S+) expires=(\d+)')
TS = re.compile(r'success=(\d+) dependency=(\S+)')
IT = re.compile(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+replay_op: (idle_entry|idle_tick) cpu=(\d+) '
                r'kept=([01]) iv=(\d+)-(\d+) ended_by=(\S+)$')
TICK_FNS = ('tick_nohz_handler', 'tick_sched_timer')


def kallsyms(path):
    out = {}
    with open(path, errors='replace') as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[2] in TICK_FNS:
                out['0x' + p[0].lower().lstrip('0')] = p[2]
    return out


class Idle:
    __slots__ = ('cpu', 'start', 'end', 'kept', 'stopped', 'stop_at', 'refused', 'model', 'ended')

    def __init__(self, cpu, start):
        self.cpu, self.start, self.end = cpu, start, None
        self.kept, self.stopped = [], []   # tick expiry times before / after the first stop
        self.stop_at, self.refused = None, 0
        self.model = None                  # the dump's (kept, ended_by), if it has a line
        self.ended = 'none'                # the first wakeup onto the CPU in it: local/remote


def norm(fn):
    return fn.lower() if fn.startswith('0x') else fn


def trace_side(path, syms, tick_ns):
    """(idles by cpu, tick fn, total tick expiries, tick_stop count)."""
    lines = []
    starts = collections.Counter()   # fn -> hrtimer_start count
    ongrid = collections.Counter()   # fn -> of them on the tick grid
    for t, _, cpu, _, ev, rest in event_lines(path):
        if ev == 'hrtimer_start':
            h = HS.search(rest)
            if h:
                fn = norm(h.group(2))
                starts[fn] += 1
                ongrid[fn] += int(h.group(3)) % tick_ns == 0
        if ev in ('sched_switch', 'hrtimer_expire_entry', 'tick_stop', 'sched_waking',
                  'sched_wakeup', 'sched_wakeup_new'):
            lines.append((cpu, t, ev, rest))
    names = {norm(a): n for a, n in syms.items()}
    tick = {fn for fn in starts if names.get(fn, fn) in TICK_FNS}
    if not tick and starts:
        best = max(starts, key=lambda fn: (ongrid[fn] / starts[fn], starts[fn]))
        if ongrid[best] >= 0.5 * starts[best]:
            tick = {best}
    idles = collections.defaultdict(list)
    cur = {}
    waking = {}    # pid -> the CPU of its last sched_waking
    nticks = nstops = 0
    for cpu, t, ev, rest in lines:
        if ev == 'sched_switch':
            s = SWITCH.search(rest)
            if not s:
                continue
            if int(s.group(2)) == 0 and cpu in cur:
                cur.pop(cpu).end = t
            if int(s.group(5)) == 0:
                cur[cpu] = Idle(cpu, t)
                idles[cpu].append(cur[cpu])
        elif ev == 'hrtimer_expire_entry':
            h = HX.search(rest)
            if not h or norm(h.group(2)) not in tick:
                continue
            nticks += 1
            iv = cur.get(cpu)
            if iv:
                (iv.kept if iv.stop_at is None else iv.stopped).append(t)
        elif ev in ('sched_waking', 'sched_wakeup', 'sched_wakeup_new'):
            w, c = PID.search(rest), TCPU.search(rest)
            if not w or not c:
                continue
            pid, tgt = int(w.group(1) or w.group(2)), int(c.group(1) or c.group(2))
            if ev == 'sched_waking':
                waking[pid] = cpu
                continue
            iv = cur.get(tgt)
            if iv and iv.ended == 'none':
                iv.ended = 'local' if ev == 'sched_wakeup' and waking.get(pid, cpu) == tgt \
                    else 'remote'
        elif ev == 'tick_stop':
            s = TS.search(rest)
            iv = cur.get(cpu)
            if not s:
                continue
            if s.group(1) == '1':
                nstops += 1
                if iv and iv.stop_at is None:
                    iv.stop_at = t
            elif iv:
                iv.refused += 1
    for cpu, iv in cur.items():   # open at the trace end: dropped
        idles[cpu].remove(iv)
    return idles, tick, nticks, nstops


def dump_side(path):
    """[(op, cpu, t, kept, iv start, iv end, ended_by)], None for a malformed line."""
    out = []
    for line in op_lines(path, 'replay_op: idle_'):
        m = IT.search(line)
        out.append(None if not m else (m.group(4), int(m.group(5)), ts(m.group(2), m.group(3)),
                                       int(m.group(6)), int(m.group(7)), int(m.group(8)),
                                       m.group(9)))
    return out


def kernel_class(iv):
    if iv.kept:
        return 'kept+tick'
    if iv.stop_at is not None:
        return 'stopped'
    return 'kept,no tick'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('rep')
    ap.add_argument('dumps', nargs='*')
    ap.add_argument('--kallsyms')
    ap.add_argument('--tick-us', type=int, default=4000)
    ap.add_argument('--rule', choices=('short', 'any'), default='short')
    ap.add_argument('--list', action='store_true')
    ap.add_argument('--check', action='store_true')
    a = ap.parse_args()
    tick_ns = a.tick_us * 1000
    syms = kallsyms(a.kallsyms) if a.kallsyms else {}
    idles, tick, nticks, nstops = trace_side(a.rep, syms, tick_ns)
    bad = []
    allv = [iv for c in sorted(idles) for iv in idles[c]]
    print(f'{a.rep}: tick hrtimer function {",".join(sorted(tick)) or "not found"}, '
          f'{nticks} tick expiries, {nstops} tick_stop success=1, {len(allv)} idle periods')
    if not tick or not nticks:
        bad.append('no tick expiries (capture with -e timer:hrtimer_expire_entry -e timer:hrtimer_start)')
    if not allv:
        bad.append('no idle periods')
    print('kernel, per idle period (short: at most a tick):')
    print(f'  {"cpu":>3} {"len":>6} {"periods":>8} {"kept+tick":>10} {"kept,no tick":>13} '
          f'{"stopped":>8} {"ticks kept":>11} {"ticks stopped":>14} {"stopped late":>13}')
    for cpu in sorted(idles):
        for short in (True, False):
            v = [iv for iv in idles[cpu] if (iv.end - iv.start <= tick_ns) == short]
            cls = collections.Counter(kernel_class(iv) for iv in v)
            late = sum(1 for iv in v if iv.kept and iv.stop_at is not None)
            print(f'  {cpu:>3} {"short" if short else "long":>6} {len(v):>8} {cls["kept+tick"]:>10} '
                  f'{cls["kept,no tick"]:>13} {cls["stopped"]:>8} '
                  f'{sum(len(iv.kept) for iv in v):>11} {sum(len(iv.stopped) for iv in v):>14} '
                  f'{late:>13}')
    print('the rules from the trace (the first wakeup onto the idle CPU: local when its '
          'sched_waking ran on that CPU, a fork remote), every idle period:')
    print(f'  {"kernel":<13} {"ended":<7} {"short":>6} {"long":>6}   short: rule kept, any kept')
    rows = collections.Counter()
    for iv in allv:
        rows[kernel_class(iv), iv.ended, iv.end - iv.start <= tick_ns] += 1
    agree = collections.Counter()
    for k in ('kept+tick', 'kept,no tick', 'stopped'):
        for end in ('local', 'remote', 'none'):
            sh, lo = rows[k, end, True], rows[k, end, False]
            if sh or lo:
                print(f'  {k:<13} {end:<7} {sh:>6} {lo:>6}   {sh if end == "local" else 0:>5} {sh:>5}')
            kk = k != 'stopped'
            agree['short'] += (sh if end == 'local' else 0) if kk else lo + (sh if end != 'local' else 0)
            agree['any'] += sh if kk else lo
    print(f'  kernel kept (ticked or not) / stopped against the rule: short {agree["short"]} '
          f'of {len(allv)} agree, any {agree["any"]} of {len(allv)}')
    by = {(iv.cpu, iv.start): iv for iv in allv}
    for d in a.dumps:
        lines = dump_side(d)
        if any(x is None for x in lines):
            bad.append(f'{d}: a malformed idle_entry/idle_tick line')
        lines = [x for x in lines if x]
        if not any(x[0] == 'idle_tick' for x in lines) or not any(x[0] == 'idle_entry' for x in lines):
            bad.append(f'{d}: no idle_entry or idle_tick lines (replay --idle-tick short '
                       f'--dump-wake-records?)')
        for op, cpu, t, kept, s, e, end in lines:
            if kept and not (e - s <= tick_ns and (end == 'local' or a.rule == 'any')):
                bad.append(f'{d}: {op} kept at {t} on an interval {s}-{e} ended {end}')
        for iv in allv:
            iv.model = None
        named = 0
        for op, cpu, t, kept, s, e, end in lines:
            iv = by.get((cpu, s))
            if not iv:
                continue
            named += 1
            if iv.model is None:
                iv.model = [0, 0, end]       # rule kept, idle ticks run, ended_by
            iv.model[0] |= kept
            iv.model[1] += op == 'idle_tick' and kept
        ops = collections.Counter((x[0], x[3]) for x in lines)
        print(f'{d}: idle_entry {ops["idle_entry", 0] + ops["idle_entry", 1]} '
              f'({ops["idle_entry", 1]} kept), idle_tick {ops["idle_tick", 0] + ops["idle_tick", 1]} '
              f'({ops["idle_tick", 1]} run), {named} naming a trace idle period')
        print('  kernel \\ rule      kept   stopped  not named    (idle periods)   ticks: kernel kept  model')
        conf = collections.Counter()
        kt = collections.Counter()
        mt = collections.Counter()
        for iv in allv:
            m = 'none' if iv.model is None else ('kept' if iv.model[0] else 'stop')
            conf[kernel_class(iv), m] += 1
            kt[kernel_class(iv)] += len(iv.kept)
            mt[kernel_class(iv)] += iv.model[1] if iv.model else 0
        for k in ('kept+tick', 'kept,no tick', 'stopped'):
            print(f'  {k:<16} {conf[k, "kept"]:>6} {conf[k, "stop"]:>9} {conf[k, "none"]:>10}'
                  f'{"":>19}{kt[k]:>19} {mt[k]:>6}')
        print('  named periods by what ended them (ended_by), length, kernel:')
        ends = collections.Counter()
        for iv in allv:
            if iv.model:
                short = iv.end - iv.start <= tick_ns
                ends[iv.model[2], 'short' if short else 'long', kernel_class(iv)] += 1
        for (end, ln, k), n in sorted(ends.items()):
            print(f'    {end:<7} {ln:<6} {k:<13} {n}')
    if a.list:
        for iv in allv:
            print(f'idle cpu={iv.cpu} start={iv.start} len_us={(iv.end - iv.start) / 1000:.1f} '
                  f'kernel={kernel_class(iv).replace(" ", "")} ticks_kept={len(iv.kept)} '
                  f'ticks_stopped={len(iv.stopped)} ended={iv.ended} stop_us='
                  f'{"-" if iv.stop_at is None else f"{(iv.stop_at - iv.start) / 1000:.1f}"} '
                  f'rule={"-" if iv.model is None else ("kept" if iv.model[0] else "stop")}'
                  f'{"" if iv.model is None else f":{iv.model[2]} model_ticks={iv.model[1]}"}')
    if a.check and bad:
        for b in bad:
            print('check:', b, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
