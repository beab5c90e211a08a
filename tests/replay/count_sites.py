#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sched_switch by kind and sched_stat_runtime by emitting site, per task class, trace against
the mean of replay dumps: where a count's miss is made.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --seed N --dump-events T.N.dump --dump-wake-records T.dat   (N = 1..)
  count_sites.py --sidecar T.dat.json [--records] T.rep T.1.dump [T.2.dump ...]

Task classes (hackbench captures: the sidecar's groups, each group leader's children in fork
order, the first half receivers, the second senders - hackbench -g 1 forks its receivers
first): `<group>.recv`, `<group>.send`, `<group>.leader`, `launcher` (the capture's own pid and
its children outside the groups), `other`.

sched_switch kinds, by the task switched out: `block` (S, D and the other sleep states) and
`block>idle` (the next is the idle task), `exit` (X), `preempt.wake_local` /
`preempt.wake_remote` (switched out runnable, R or R+, after a sched_wakeup onto its CPU since
its switch-in whose sched_waking was on that CPU / another), `preempt.other` (runnable, no
wakeup onto the CPU since its switch-in: tick, slice, migration, a dump's hand-offs),
`idle>task` (the idle task switched out; the class of the task switched in).

sched_stat_runtime: every emission is given one site, the update_curr() that emitted it, and
the class of the task it names.  In file order (a dump's emissions are synchronous, written
right before the event of the same model call; the trace's within the same CPU's buffer):
  block        the emission of the blocker right before its switch out asleep on that CPU
               (dequeue_entity()'s update_curr() in the block's __schedule())
  wake_local / wake_remote
               an emission between a sched_waking and its sched_wakeup naming the target CPU's
               current (enqueue_entity()'s update_curr() of the target's queue; the kernel
               emits a direct remote enqueue on the waker's buffer, the dump on the target's),
               local when the sched_waking was on the target CPU
  then, for the others, by the next sched event on the same buffer:
  preempt      the named task's switch out runnable (put_prev_entity())
  exit         its X switch or sched_process_exit (the autogroup move, the final dequeue)
  fork, migrate  sched_process_fork / sched_wakeup_new, sched_migrate_task
  tick         trace: no sched event within 20 us; dump: on the HZ grid (its phase per CPU: the
               most common offset of the dump's emissions on that CPU, at least 3)
  other        anything else
The sleep -> wake cycle table counts, per class of the task that blocks / is woken: blocks,
their `silent` ones (no emission of their own): right after a wakeup onto the CPU whose enqueue
charged the blocker, `local` or `remote`, within the dump's clock lead after that charge
(`lead`: the block's __schedule() clock not past the charge; the most common emission -> block
switch delay of the input) or `later` (a clock skip the wakeup's preemption asked for), that
wakeup a stand-in's (`.standin`) or not; after a wakeup that charged another task (`nocharge`);
`other`; wakes, those onto an idle CPU and those onto a busy
one without an emission (`nodelta`); in a dump also the early wakes (`replay_op` lines of
--dump-wake-records: `standin` blocked and woken at once, `skipblock` read on: no block, no
wakeup, `noblock`).  The ledger sums them: the emission difference is exactly
d(blocks) - d(silent blocks) + d(wakes) - d(wakes onto idle) - d(wakes without delta)
+ d(preempt) + d(exit) + d(fork) + d(migrate) + d(tick) + d(other).
With --check, the tables' own accounting on every input: the sites partition the
sched_stat_runtime lines, the switch kinds the sched_switch lines, the wakeup tables the
sched_wakeup lines, the ledger's terms add up to the emissions, and the early-wake rows match the
replay_op lines (ctest replay_count_sites).
With --records, the trace's wake records (wakee, sched_waking time) by waker > wakee class and
trace outcome (`preempt_local`: the waker switched out runnable for its wakee before any other
switch on the CPU; `local`, `remote`, `idle`) against their fate in each dump (the delivered
wake's outcome, or `early.standin|skipblock|noblock`, or `early.race`: reached before the block
and woken there as the trace's own race, a waking while the task was still on its CPU).
With --fates, every wakeup onto a busy CPU by wakee < current class and side (`L`: waking on
the target CPU; `R`: on another; `R.race`: on another while the wakee was still a CPU's current,
the kernel's race, enqueued through the wake list) and what the current did at its next switch
out: `preempt_by` (runnable, the wakee in), `preempt_other`, `block`, `exit` - how many
wakeups each kind of preemption had to choose from, and how often it preempted.
Analysis helper, not a test (docs/validation-log.md, "small-chan's count deficit, event by
event").
"""
import argparse
import json
import re
from collections import Counter, defaultdict

from sched_text import PID as PIDF, SWITCH, TCPU as TGT, events, first

RTPID = re.compile(r'pid=(\d+)')
OP = re.compile(r'^(\w+) pid=(\d+)(?: trace=(\d+))?')
NEAR_NS = 20000
SKIP = ('print', 'replay_op', 'sched_waking')


def read(path):
    """[(ts, cpu, event, fields)] in file order (a dump's emissions are synchronous: file
    order is the model's call order; a trace's is by time, trace-cmd's merge)."""
    return [(ts, cpu, ev, fl) for ts, i, cpu, cur, ev, fl in sorted(events(path),
                                                                     key=lambda e: e[1])]


def classes(evs, sidecar):
    """pid -> class name (module doc)."""
    cls = {}
    if not sidecar:
        return cls
    with open(sidecar) as f:
        sc = json.load(f)
    leaders = {g['pid']: g['name'] for g in sc.get('groups', []) if g.get('pid')}
    cap = sc.get('capture', {}).get('pid')
    kids = defaultdict(list)
    for ts, cpu, ev, fl in evs:
        if ev == 'sched_process_fork':
            parent = int(re.search(r' pid=(\d+)', fl).group(1))
            kids[parent].append(int(re.search(r'child_pid=(\d+)', fl).group(1)))
    for pid, name in leaders.items():
        cls[pid] = name + '.leader'
        ch = kids.get(pid, [])
        for i, c in enumerate(ch):
            cls[c] = name + ('.recv' if i < len(ch) // 2 else '.send')
    todo = [cap] if cap else []
    while todo:
        p = todo.pop()
        cls.setdefault(p, 'launcher')
        todo.extend(c for c in kids.get(p, []) if c not in cls)
    return cls


def clock_lead(evs):
    """The block's __schedule() clock lead: the most common delay from a task's emission to its
    switch out asleep right after it on that CPU (ns, rounded up to 100 ns; 2000 if none)."""
    c = Counter()
    prev = {}
    for ts, cpu, ev, fl in evs:
        if ev == 'sched_stat_runtime':
            prev[cpu] = (ts, int(RTPID.search(fl).group(1)))
        elif ev == 'sched_switch':
            m = SWITCH.search(fl)
            p = prev.pop(cpu, None)
            if p and p[1] == int(m.group(2)) and m.group(3) in ('S', 'D'):
                c[-(-(ts - p[0]) // 100) * 100] += 1
        elif not (ev.startswith('sys_') or ev in SKIP):
            prev.pop(cpu, None)
    return c.most_common(1)[0][0] if c else 2000


def tick_phase(evs, tick_ns):
    """The dump's tick offset per CPU (the model's tick grid has a phase per CPU): the most
    common emission time modulo the tick on that CPU, if >= 3."""
    c = defaultdict(Counter)
    for ts, cpu, ev, fl in evs:
        if ev == 'sched_stat_runtime':
            c[cpu][ts % tick_ns] += 1
    out = {}
    for cpu, cc in c.items():
        off, n = cc.most_common(1)[0]
        if n >= 3:
            out[cpu] = off
    return out


def analyse(evs, cls, tick_ns, is_dump):
    """Counters: 'switch' (kind, class), 'wakeup' (target state.side, wakee class), 'cycle'
    (row, class), 'site' (site, class of the named task)."""
    C = {k: Counter() for k in ('switch', 'wakeup', 'cycle', 'site')}
    lead = clock_lead(evs)
    cl = lambda p: cls.get(p, 'other')                                     # noqa: E731
    site = {}                # emission index -> site
    curr = {}                # cpu -> its current pid (0: idle)
    last = {}                # cpu -> ('rt', pid, index) | ('wk', local?, [emissions]) | ('sw',)
    pending = {}             # wakee -> (waker cpu, [(cpu, pid, index)], standin?)
    waking_cpu = {}
    wake_since = {}          # cpu -> local? of the last wakeup onto it since its last switch
    standin = set()
    exits = set()
    early_ops = []
    for i, (ts, cpu, ev, fl) in enumerate(evs):
        if ev == 'replay_op':
            m = OP.match(fl)
            if m and m.group(1) in ('early', 'standin', 'skipblock', 'noblock'):
                p = int(m.group(2))
                C['cycle'][(m.group(1), cl(p))] += 1
                if m.group(1) == 'standin':
                    standin.add(p)
            continue
        if ev.startswith('sys_') or ev == 'print':
            continue
        if ev == 'sched_waking':
            p = first(PIDF.search(fl))
            waking_cpu[p] = cpu
            pending[p] = (cpu, [], p in standin)
            standin.discard(p)
        elif ev == 'sched_stat_runtime':
            pid = int(RTPID.search(fl).group(1))
            for w in pending.values():
                w[1].append((cpu, pid, i))
            last[cpu] = ('rt', pid, i)
        elif ev == 'sched_wakeup':
            p = first(PIDF.search(fl))
            tcpu = first(TGT.search(fl))
            wcpu, ems, sti = pending.pop(p, (waking_cpu.get(p, tcpu), [], False))
            local = wcpu == tcpu
            wake_since[tcpu] = local
            busy = curr.get(tcpu, 0) != 0
            C['wakeup'][(('busy' if busy else 'idle') + ('.local' if local else '.remote'),
                         cl(p))] += 1
            row = 'wake.standin' if sti else 'wake'
            C['cycle'][(row, cl(p))] += 1
            C['cycle'][('wake', cl(p))] += sti
            hit = None
            if busy:
                hit = next((e for e in ems if e[1] == curr.get(tcpu) and e[0] in (wcpu, tcpu)
                            and e[2] not in site), None)
            if hit:
                site[hit[2]] = 'wake_local' if local else 'wake_remote'
            else:
                sub = '.idle' if not busy else '.nodelta'
                C['cycle'][(row + sub, cl(p))] += 1
                if sti:
                    C['cycle'][('wake' + sub, cl(p))] += 1
            last[tcpu] = last[wcpu] = ('wk', local, ems, ts, sti)
        elif ev == 'sched_switch':
            m = SWITCH.search(fl)
            prev, state, nxt = int(m.group(2)), m.group(3), int(m.group(5))
            c = cl(prev)
            if prev == 0:
                kind, c = 'idle>task', cl(nxt)
            elif state.startswith('X'):
                kind = 'exit'
                exits.add(prev)
            elif state.startswith('R'):
                w = wake_since.get(cpu)
                kind = ('preempt.other' if w is None else
                        'preempt.wake_local' if w else 'preempt.wake_remote')
            else:
                kind = 'block>idle' if nxt == 0 else 'block'
                C['cycle'][('block', c)] += 1
                lc = last.get(cpu)
                if lc and lc[0] == 'rt' and lc[1] == prev and lc[2] not in site:
                    site[lc[2]] = 'block'
                else:
                    why = 'other'
                    if lc and lc[0] == 'wk':
                        charged = any(e[1] == prev for e in lc[2])
                        why = ('local' if lc[1] else 'remote') if charged else 'nocharge'
                        if charged:
                            why += '.lead' if ts - lc[3] <= lead else '.later'
                            why += '.standin' if lc[4] else ''
                    C['cycle'][('silent.' + why, c)] += 1
            C['switch'][(kind, c)] += 1
            wake_since.pop(cpu, None)
            curr[cpu] = nxt
            last[cpu] = ('sw',)
        elif ev == 'sched_process_exit':
            exits.add(first(PIDF.search(fl)))
    phase = tick_phase(evs, tick_ns) if is_dump else {}
    percpu = defaultdict(list)
    for i, e in enumerate(evs):
        percpu[e[1]].append(i)
    pos = {i: k for seq in percpu.values() for k, i in enumerate(seq)}
    for i, (ts, cpu, ev, fl) in enumerate(evs):
        if ev != 'sched_stat_runtime':
            continue
        pid = int(RTPID.search(fl).group(1))
        s = site.get(i) or rest_site(evs, percpu[cpu], pos[i], ts, pid, exits, tick_ns,
                                                 phase.get(cpu),
                                     is_dump)
        C['site'][(s, cl(pid))] += 1
    return C


def rest_site(evs, seq, k, ts, pid, exits, tick_ns, phase, is_dump):
    """An emission neither a block's nor a wakeup's: by the next sched event on its buffer."""
    if is_dump and phase is not None and ts % tick_ns == phase:
        return 'tick'
    for j in seq[k + 1:]:
        nts, _, nev, nfl = evs[j]
        if nev.startswith('sys_') or nev in SKIP:
            continue
        if not is_dump and nts - ts > NEAR_NS:
            return 'tick'
        if nev == 'sched_switch':
            m = SWITCH.search(nfl)
            if int(m.group(2)) != pid:
                return 'other'
            s = m.group(3)
            return 'exit' if s.startswith('X') else 'preempt' if s.startswith('R') else 'other'
        if nev in ('sched_process_fork', 'sched_wakeup_new'):
            return 'fork'
        if nev == 'sched_migrate_task':
            return 'migrate'
        if nev == 'sched_process_exit':
            return 'exit' if first(PIDF.search(nfl)) == pid else 'other'
        if nev == 'sched_stat_runtime':
            same = int(RTPID.search(nfl).group(1)) == pid
            return 'exit' if same and pid in exits else 'tick' if not is_dump else 'other'
        return 'other'
    return 'tick'


def trace_records(evs, cls):
    """The trace's wake records {(wakee, waking ts): [waker class, wakee class, outcome]}."""
    out, curr, open_local, wk = {}, {}, {}, {}
    for ts, cpu, ev, fl in evs:
        if ev == 'sched_waking':
            wk[first(PIDF.search(fl))] = (ts, cpu, curr.get(cpu))
        elif ev == 'sched_wakeup':
            p = first(PIDF.search(fl))
            tcpu = first(TGT.search(fl))
            if p not in wk:
                continue
            wts, wcpu, waker = wk.pop(p)
            kind = 'idle' if curr.get(tcpu, 0) == 0 else 'local' if wcpu == tcpu else 'remote'
            out[(p, wts)] = [cls.get(waker, 'other'), cls.get(p, 'other'), kind]
            if kind == 'local':
                open_local[tcpu] = (p, wts)
        elif ev == 'sched_switch':
            m = SWITCH.search(fl)
            k = open_local.pop(cpu, None)
            if k and m.group(3).startswith('R') and int(m.group(5)) == k[0]:
                out[k][2] = 'preempt_local'
            curr[cpu] = int(m.group(5))
    return out


def dump_records(evs):
    """A dump's fate of each wake record {(wakee, trace ts): fate}."""
    ops, fate, curr, open_local, wk = defaultdict(list), {}, {}, {}, {}
    last = None
    for ts, cpu, ev, fl in evs:
        if ev == 'replay_op':
            m = OP.match(fl)
            if m and m.group(3):
                key = (int(m.group(2)), int(m.group(3)))
                ops[key].append(m.group(1))
                if m.group(1) == 'wake':
                    last = key
        elif ev == 'sched_waking':
            p = first(PIDF.search(fl))
            wk[p] = (cpu, last if last and last[0] == p else None)
            last = None
        elif ev == 'sched_wakeup':
            p = first(PIDF.search(fl))
            tcpu = first(TGT.search(fl))
            wcpu, key = wk.pop(p, (cpu, None))
            if key is None:
                continue
            kind = 'idle' if curr.get(tcpu, 0) == 0 else 'local' if wcpu == tcpu else 'remote'
            fate[key] = kind
            if kind == 'local':
                open_local[tcpu] = key
        elif ev == 'sched_switch':
            m = SWITCH.search(fl)
            k = open_local.pop(cpu, None)
            if k and m.group(3).startswith('R') and int(m.group(5)) == k[0]:
                fate[k] = 'preempt_local'
            curr[cpu] = int(m.group(5))
    for key, o in ops.items():
        if o[0] == 'early':
            fate[key] = 'early.' + ('skipblock' if 'skipblock' in o else
                                    'noblock' if 'noblock' in o else
                                    'standin' if 'standin' in o else 'race')
    return fate


def records_table(tevs, devs, cls):
    t = trace_records(tevs, cls)
    fates = [dump_records(e) for e in devs]
    n = len(fates)
    rows = Counter()
    for key, (wc, yc, kind) in t.items():
        for f in fates:
            rows[(wc + '>' + yc, kind, f.get(key, 'none'))] += 1
    names = sorted({r[2] for r in rows})
    print(f'\ntrace wake records (>= 3) by waker>wakee class and trace outcome: their fate in '
          f'the replay (mean of {n})')
    print(f'{"":36s}{"trace":>6s}' + ''.join(f'{x:>16s}' for x in names))
    for pair, kind in sorted({(r[0], r[1]) for r in rows}):
        tot = sum(1 for v in t.values() if v[0] + '>' + v[1] == pair and v[2] == kind)
        if tot >= 3:
            print(f'{pair + " " + kind:36s}{tot:6d}' +
                  ''.join(f'{rows[(pair, kind, x)] / n:16.1f}' for x in names))


FATES = ('preempt_by', 'preempt_other', 'block', 'exit')


def wake_fates(evs, cls):
    """Wakeups onto a busy CPU and what that CPU's current did next: Counter of (wakee class,
    current class, side, fate).  Side: `L` the sched_waking on the target CPU, `R` on another,
    `R.race` on another while the wakee was still a CPU's current (the kernel's own race: woken
    in its block's __schedule(), enqueued by the wake list).  Fate, at the current's next switch
    out: `preempt_by` runnable, the wakee switched in; `preempt_other` runnable, another task
    in; `block`; `exit`.  Every wakeup onto the CPU since the current's switch-in gets that one
    switch's fate."""
    cl = lambda p: cls.get(p, 'other')                                     # noqa: E731
    curr, wcpu, race, pend, out = {}, {}, {}, defaultdict(list), Counter()
    for ts, cpu, ev, fl in evs:
        if ev == 'sched_waking':
            p = first(PIDF.search(fl))
            wcpu[p] = cpu
            race[p] = p in curr.values()
        elif ev == 'sched_wakeup':
            p = first(PIDF.search(fl))
            tcpu = first(TGT.search(fl))
            if curr.get(tcpu, 0):
                side = ('L' if wcpu.get(p, tcpu) == tcpu else
                        'R.race' if race.get(p) else 'R')
                pend[tcpu].append((p, side))
        elif ev == 'sched_switch':
            m = SWITCH.search(fl)
            prev, state, nxt = int(m.group(2)), m.group(3), int(m.group(5))
            for p, side in pend.pop(cpu, []) if prev else ():
                fate = (('preempt_by' if nxt == p else 'preempt_other')
                        if state.startswith('R') else 'exit' if state.startswith('X') else
                        'block')
                out[(cl(p), cl(prev), side, fate)] += 1
            curr[cpu] = nxt
    return out


def fates_table(tevs, devs, cls):
    t = wake_fates(tevs, cls)
    reps = [wake_fates(e, cls) for e in devs]
    n = len(reps)
    print(f'\nwakeups onto a busy CPU by wakee<current class and side, and what the current did '
          f'next (trace / replay mean of {n}; rows with >= 5 either side)')
    print(f'{"":40s}' + f'{"wakes":>8s}' + ''.join(f'{x:>14s}' for x in FATES) + ' |' +
          f'{"wakes":>8s}' + ''.join(f'{x:>14s}' for x in FATES))
    rows = sorted({k[:3] for d in [t] + reps for k in d})
    for row in rows:
        tv = [t[row + (f,)] for f in FATES]
        rv = [sum(d[row + (f,)] for d in reps) / n for f in FATES]
        if sum(tv) < 5 and sum(rv) < 5:
            continue
        print(f'{row[0] + "<" + row[1] + " " + row[2]:40s}{sum(tv):8d}' +
              ''.join(f'{v:14d}' for v in tv) + ' |' + f'{sum(rv):8.1f}' +
              ''.join(f'{v:14.1f}' for v in rv))


def cell(t, reps, sel):
    tv = sel(t)
    rv = sum(sel(r) for r in reps) / len(reps)
    return f'{tv:7d} {rv:8.1f} {rv - tv:+7.1f}'


def table(title, keys, cols, t, reps):
    print(f'\n{title} (trace / replay mean of {len(reps)} / diff)')
    print(f'{"":28s}' + ''.join(f'{c:>24s}' for c in cols + ['all']))
    for k in keys + ['total']:
        row = f'{k:28s}'
        for c in cols + ['all']:
            def sel(d, k=k, c=c):
                return sum(v for (a, b), v in d.items()
                           if (k == 'total' or a == k) and (c == 'all' or b == c))
            row += cell(t, reps, sel)
        print(row)


SITES = ['block', 'wake_local', 'wake_remote', 'preempt', 'exit', 'fork', 'migrate', 'tick',
         'other']


def ledger(t, reps):
    """The emission difference, term by term (module doc); each term's sign as it adds."""
    def g(part, key, sign=1):
        return lambda d: sign * sum(v for (a, b), v in d[part].items() if a == key)
    terms = [('sleep/wake cycles: blocks', g('cycle', 'block')),
             ('  silent blocks (-)', lambda d: -sum(
                 v for (a, b), v in d['cycle'].items() if a.startswith('silent.'))),
             ('wakeups', g('cycle', 'wake')),
             ('  onto an idle CPU (-)', g('cycle', 'wake.idle', -1)),
             ('  busy, no delta (-)', g('cycle', 'wake.nodelta', -1))]
    terms += [(s, g('site', s)) for s in SITES if s not in ('block', 'wake_local', 'wake_remote')]
    print(f'\nledger: sched_stat_runtime (trace / replay mean of {len(reps)} / diff)')
    for name, f in terms:
        print(f'{name:28s}' + cell(t, reps, f))
    print(f'{"= emissions":28s}' + cell(t, reps, lambda d: sum(d['site'].values())))
    for key in ('early', 'standin', 'skipblock', 'noblock'):
        print(f'{"  (replay_op " + key + ")":28s}' + cell(t, reps, g('cycle', key)))


def check(name, evs, d):
    """The tables' own accounting on one input: errors (strings)."""
    errs = []
    n = Counter(ev for ts, cpu, ev, fl in evs)
    ops = Counter(OP.match(fl).group(1) for ts, cpu, ev, fl in evs
                  if ev == 'replay_op' and OP.match(fl))
    tot = lambda k, pre='': sum(v for (a, b), v in d[k].items() if a.startswith(pre))  # noqa
    cyc = lambda a: sum(v for (x, b), v in d['cycle'].items() if x == a)           # noqa: E731
    if tot('site') != n['sched_stat_runtime']:
        errs.append(f'sites {tot("site")} != sched_stat_runtime {n["sched_stat_runtime"]}')
    if tot('switch') != n['sched_switch']:
        errs.append(f'switch kinds {tot("switch")} != sched_switch {n["sched_switch"]}')
    if tot('wakeup') != n['sched_wakeup'] or cyc('wake') != n['sched_wakeup']:
        errs.append(f'wakeups {tot("wakeup")} / {cyc("wake")} != {n["sched_wakeup"]}')
    sb = d['switch']
    blocks = sum(v for (a, b), v in sb.items() if a in ('block', 'block>idle'))
    if cyc('block') != blocks:
        errs.append(f'cycle blocks {cyc("block")} != block switches {blocks}')
    emit = (cyc('block') - tot('cycle', 'silent.') + cyc('wake') - cyc('wake.idle') -
            cyc('wake.nodelta') +
            sum(v for (a, b), v in d['site'].items() if a not in
                ('block', 'wake_local', 'wake_remote')))
    if emit != n['sched_stat_runtime']:
        errs.append(f'ledger {emit} != sched_stat_runtime {n["sched_stat_runtime"]}')
    for k in ('early', 'standin', 'skipblock', 'noblock'):
        if cyc(k) != ops[k]:
            errs.append(f'replay_op {k}: {cyc(k)} != {ops[k]}')
    for e in errs:
        print(f'{name}: {e}')
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sidecar', help='the capture sidecar (task classes)')
    ap.add_argument('--hz', type=int, default=250, help="the dumps' tick grid (default 250)")
    ap.add_argument('--records', action='store_true',
                    help='match the wake records (dumps with --dump-wake-records)')
    ap.add_argument('--fates', action='store_true',
                    help='the wakeups onto a busy CPU and what its current did next')
    ap.add_argument('--check', action='store_true',
                    help="check the tables' own accounting on every input, print "
                         "'N inputs, E errors'")
    ap.add_argument('trace', help='trace-cmd report -t text of the trace')
    ap.add_argument('dumps', nargs='+', help='replay --dump-events files')
    a = ap.parse_args()
    tevs = read(a.trace)
    cls = classes(tevs, a.sidecar)
    tick = 1000000000 // a.hz
    devs = [read(d) for d in a.dumps]
    t = analyse(tevs, cls, tick, False)
    reps = [analyse(e, cls, tick, True) for e in devs]
    if a.check:
        errs = check(a.trace, tevs, t)
        for name, e, d in zip(a.dumps, devs, reps):
            errs += check(name, e, d)
        print(f'{1 + len(devs)} inputs, {len(errs)} errors')
        return 1 if errs else 0
    cols = sorted({c for d in [t] + reps for part in d.values() for (_, c) in part},
                  key=lambda c: (c in ('launcher', 'other'), c))
    part = lambda k: [r[k] for r in reps]                                  # noqa: E731
    ledger(t, reps)
    table('sched_switch by kind, per class of the task switched out (idle>task: switched in)',
          ['block', 'block>idle', 'exit', 'preempt.wake_local', 'preempt.wake_remote',
           'preempt.other', 'idle>task'], cols, t['switch'], part('switch'))
    table('sched_stat_runtime by site, per class of the task named', SITES, cols, t['site'],
          part('site'))
    table('sched_wakeup by target CPU (idle/busy at the wakeup) and side, per wakee class',
          ['busy.local', 'busy.remote', 'idle.local', 'idle.remote'], cols, t['wakeup'],
          part('wakeup'))
    table('the sleep -> wake cycle, per class of the task that blocks / is woken',
          ['block'] + [f'silent.{a}.{b}{c}' for a in ('local', 'remote')
                       for b in ('lead', 'later') for c in ('', '.standin')] +
          ['silent.nocharge', 'silent.other', 'wake', 'wake.idle',
           'wake.nodelta', 'wake.standin', 'wake.standin.idle', 'wake.standin.nodelta',
           'early', 'standin', 'skipblock', 'noblock'], cols, t['cycle'], part('cycle'))
    if a.records:
        records_table(tevs, devs, cls)
    if a.fates:
        fates_table(tevs, devs, cls)


if __name__ == '__main__':
    raise SystemExit(main())
