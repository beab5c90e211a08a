#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hackbench's pipe receivers: where their lag is gained and lost, sleep -> wake cycle by cycle,
the trace against a replay dump.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --seed N [options] --dump-events T.dump --dump-wake-records T.dat
  receiver_lag.py T.rep T.dump --group-pid PID [--senders N] [--startup K]

Both inputs are rebuilt with sender_state.py's Rebuild (hackbench_eevdf.py's per-CPU pipe-group
EEVDF queue under the 6.18 rules).  Lag is V - v on the receiver's group queue (us, positive:
owed CPU).  One cycle per receiver block (a switch-out not runnable, the receiver on the queue):
  block      the lag at the block, and whether the receiver was eligible there: eligible, it is
             dequeued and keeps that lag (vlag, clamped); not eligible, it is left queued,
             delayed (DELAY_DEQUEUE)
  sleep end  a delayed receiver leaves the queue either at a pick (pick_next_entity() dequeues
             the delayed winner; DELAY_ZERO: vlag = min(lag, 0)), or it is requeued by its
             wakeup (requeue_delayed_entity(): a positive lag is set to 0 and it is placed at V)
             or keeps its v (lag <= 0)
  wake       place_entity() of the kept vlag onto the queue of the CPU it wakes on: the queue's
             entities before it (0: an empty group queue, V becomes its own v, so its lag is 0
             whatever it kept), the lag after placement
  check      when the wake is a local sender -> receiver wakeup with the waker current (the
             decisions of hackbench_eevdf.py / sender_state.py), the lag at that check and the
             rule's decision
  wait       the lag at the receiver's next switch-in, the time queued until then
  run        the next block's lag minus the switch-in's: what the run cost
Printed per side: the cycles by class (block eligible / delayed then zeroed at a pick / delayed
then requeued; wake onto an empty / non-empty queue; a decision or not; waited queued or picked
at once), the count, the lag at each stage (p25 p50 p75) and, for the decisions, the class's
share and its contribution to the mean lag at the check; each stage's flow (mean per cycle, and
by tenth of the cycles in time) with the mean lag at the check and at the block; per receiver,
its lag at its first block and its mean lag at block and net flow per cycle in the first and
the second half of its cycles (the stock it carries, and where it is made).
With --startup K, also the start-up (docs/validation-log.md, "hackbench-shares' start-up: where
the receivers' stock is made"): per side, the children's first fork / switch-in / block, the
leader's barrier wake of each (in a dump, `early` when it reached the child before that block)
and the first send / receive; over the first K tenths of the receiver cycles in time, the
receivers' queued waits and runs, the senders' runs by how each ended (preempted, blocked, slept
at a hand-off WAIT, handed over: the dump's `replay_op: wait` lines) and their sleeps by why and
by the waker; per tenth and CPU (time-weighted) the senders and receivers runnable, the lag the
senders and the receivers hold on the queue (it sums to 0 there: what the receivers hold, the
senders owe), the senders delayed / asleep at a WAIT / blocked.  Last, the senders' traced blocks
in the kernel's first K tenths matched by the wake record that ends them: how long each sender
slept, and how long it had been awake before, running or waiting queued.
Analysis helper, not a test (docs/validation-log.md, "hackbench-shares' receivers, sleep -> wake
cycle by cycle").
"""
import sys
from collections import Counter, defaultdict

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import forkexec_eevdf as fe  # noqa: E402
import sender_state as ss  # noqa: E402


class Rebuild(ss.Rebuild):
    BIN = 100000                    # the start-up's occupancy bins: 0.1 ms

    def __init__(self, *a, **k):
        self.cyc = {}               # receiver -> its open cycle
        self.cycles = []
        self.recv = None
        self.first = defaultdict(dict)  # group child -> its first fork / switch-in / block / ...
        self.sin = {}               # sender -> (switch-in time, CPU) of its current run
        self.sruns = []             # senders' runs: (pid, start, length, how it ended, CPU)
        self.wait_op = {}           # task -> (time, kind) of its last replay_op wait
        self.occ = defaultdict(lambda: [0.0] * 9)  # (CPU, 0.1 ms bin) -> time-weighted queue
        self.occ_t = None
        self.asleep = {}            # sender -> 'wait' / 'block': why it is off its queue
        self.slept_at = {}          # sender -> when it went to sleep
        self.awake = {}             # sender -> [its last wakeup, its CPU time since]
        self.slept_aw = {}          # sender -> (awake, of which running) before its sleep
        self.ssleeps = []           # senders' sleeps: (pid, start, length, why, the waker's role)
        self.op_waker = {}          # dump: task -> the waker its last `wake` line named
        super().__init__(*a, **k)

    def role(self, p):
        if p not in self.kids:
            return None
        return 'r' if self.kids.index(p) < len(self.kids) - self.senders_n else 's'

    def occupancy(self, t):
        """Each CPU's pipe-group queue, time-weighted per 0.1 ms bin: senders and receivers
        runnable (queued, not delayed, curr included), the group's task running, anything
        running, the senders' and the receivers' lag summed over the queue (delayed included;
        us).  The queue's lags sum to 0, so what its receivers hold, its senders owe."""
        if self.occ_t is not None and t > self.occ_t:
            for c, rq in enumerate(self.rq):
                ns = sum(1 for x in rq.q.values() if not x.delayed and self.role(x.pid) == 's')
                nr = sum(1 for x in rq.q.values() if not x.delayed and self.role(x.pid) == 'r')
                V = rq.V() if rq.q else 0
                nd = sum(1 for x in rq.q.values() if x.delayed and self.role(x.pid) == 's')
                nw = sum(1 for p, w in self.asleep.items() if w == 'wait' and self.cpu.get(p) == c)
                nb = sum(1 for p, w in self.asleep.items() if w == 'block' and self.cpu.get(p) == c)
                ls = sum(V - x.v for x in rq.q.values() if self.role(x.pid) == 's')
                lr = sum(V - x.v for x in rq.q.values() if self.role(x.pid) == 'r')
                run = self.running[c]
                a, b = self.occ_t, t
                while a < b:
                    e = min(b, (a // self.BIN + 1) * self.BIN)
                    acc = self.occ[(c, a // self.BIN)]
                    acc[0] += (e - a) * ns
                    acc[1] += (e - a) * nr
                    acc[2] += (e - a) * (run in self.group)
                    acc[3] += (e - a) * (run is not None and run != 0)
                    acc[4] += (e - a) * ls / 1e3
                    acc[5] += (e - a) * lr / 1e3
                    acc[6] += (e - a) * nd
                    acc[7] += (e - a) * nw
                    acc[8] += (e - a) * nb
                    a = e
        if self.occ_t is None or t > self.occ_t:
            self.occ_t = t              # a dump's CPUs' lines may step back a little

    def startup_step(self, e):
        ev, t = e['ev'], e['t']
        self.occupancy(t)
        if ev == 'replay_op':
            return
        if ev == 'sched_process_fork' and e['pid'] == self.gpid:
            self.first[e['child']]['fork'] = t
        elif ev == 'sched_wakeup_new' and e['pid'] in self.first:
            self.first[e['pid']]['cpu'] = e['tcpu']
        elif ev == 'sched_switch':
            p, n, c = e['prev'], e['next'], e['cpu']
            if n in self.first:
                self.first[n].setdefault('in', t)
                if self.role(n) == 's':
                    self.sin[n] = (t, c)
            if p in self.sin and p in self.awake:
                self.awake[p][1] += t - self.sin[p][0]
            if p in self.first and not e['pstate'].startswith('R'):
                self.first[p].setdefault('block', t)
            if p in self.sin:
                t0, c0 = self.sin.pop(p)
                w = self.wait_op.get(p)
                if e['pstate'].startswith('R'):
                    how = 'handed over' if self.handover_at.get(c) == t else \
                        'preempted, ran on past a WAIT' if w and w[0] == t and \
                        w[1] == 'preempted' else 'preempted'
                elif e['pstate'][:1] in 'XZ':
                    how = 'exited'
                else:
                    how = 'slept at a WAIT' if w and w[0] == t and w[1].startswith('slept') \
                        else 'blocked'
                    self.asleep[p] = 'wait' if how == 'slept at a WAIT' else 'block'
                    self.slept_at[p] = t
                    aw = self.awake.pop(p, None)
                    self.slept_aw[p] = (t - aw[0], aw[1]) if aw else None
                self.sruns.append((p, t0, t - t0, how, c0))
        elif ev == 'sched_waking' and e['pid'] in self.first:
            why = self.asleep.pop(e['pid'], None)
            w = e['ctx'] if e['ctx'] is not None else self.op_waker.pop(e['pid'], None)
            if w is None or w < 0:
                w = None if why == 'wait' else self.running[e['cpu']]
            if self.role(e['pid']) == 's':
                self.awake[e['pid']] = [t, 0]
            if why is not None:
                t0 = self.slept_at.pop(e['pid'])
                key = (e['pid'], self.op_key.get(e['pid']) if self.dump else t)
                self.ssleeps.append((e['pid'], t0, t - t0, why, 'the WAIT\'s reader' if w is None
                                     else {'r': 'a receiver', 's': 'a sender'}.get(
                                         self.role(w), 'another task'),
                                     key if why == 'block' else None,
                                     self.slept_aw.pop(e['pid'], None)))
            f = self.first[e['pid']]
            if w == self.gpid and 'block' in f:
                f.setdefault('barrier', t)
            if self.role(w) == 's' and self.role(e['pid']) == 'r':
                self.first[w].setdefault('send', t)
                f.setdefault('recv', t)

    def on_op(self, d):
        super().on_op(d)
        if d['what'] == 'wake':
            self.op_waker[d['pid']] = d['waker']
        elif d['what'] == 'wait':
            self.wait_op[d['pid']] = (self.op_t, d['kind'])
        elif d['what'] == 'early' and d['waker'] == self.gpid and d['pid'] in self.first:
            self.first[d['pid']].setdefault('barrier', self.op_t)
            self.first[d['pid']]['early barrier'] = True

    def receivers(self):
        return set(self.kids[:-self.senders_n])

    def lag(self, c, pid):
        rq = self.rq[c]
        return rq.V() - rq.q[pid].v

    def step(self, e):
        self.op_t = e['t']
        self.startup_step(e)
        if e['ev'] == 'sched_switch' and not e['pstate'].startswith('R'):
            c, p = e['cpu'], e['prev']
            rq = self.rq[c]
            if p in rq.q and p in self.receivers():
                old = self.cyc.pop(p, None)
                lb = self.lag(c, p)
                if old is not None and 'lin' in old:
                    old['run'] = lb - old['lin']
                    old['rt'] = self.t - old['tin']
                if old is not None:
                    self.cycles.append(old)
                self.cyc[p] = dict(pid=p, tb=self.t, lb=lb, el=rq.eligible(rq.q[p]),
                                   nb=len(rq.q), end=None)
        super().step(e)
        if e['ev'] == 'sched_switch':
            cy = self.cyc.get(e['prev'])
            if cy is not None and cy['end'] is None and cy['tb'] == self.t:
                en = self.ent.get(e['prev'])
                if en is not None and not en.delayed and e['prev'] not in self.on:
                    cy['end'] = 'eligible, kept'
                    cy['vlag'] = en.vlag

    def dequeue(self, c, pid, sleep, special=False, delayed_pick=False):
        cy = self.cyc.get(pid)
        if delayed_pick and cy is not None and cy['end'] is None and pid in self.rq[c].q:
            cy['end'] = 'delayed, zeroed at a pick'
            cy['lz'] = self.lag(c, pid)
        r = super().dequeue(c, pid, sleep, special, delayed_pick)
        if delayed_pick and cy is not None and cy.get('end') == 'delayed, zeroed at a pick' \
           and 'vlag' not in cy:
            cy['vlag'] = self.ent[pid].vlag
        return r

    def requeue(self, c, pid):
        cy = self.cyc.get(pid)
        if cy is not None and cy['end'] is None:
            lz = self.lag(c, pid)
            cy['lz'] = lz
            cy['end'] = 'delayed, requeued at V' if lz > 0 else 'delayed, requeued, kept v'
            cy['nw'] = len(self.rq[c].q) - 1
            cy['tw'] = self.t
        super().requeue(c, pid)
        if cy is not None and 'lw' not in cy and cy.get('tw') == self.t:
            cy['vlag'] = lz if lz <= 0 else 0
            cy['lw'] = self.lag(c, pid)

    def on_wakeup(self, pid, c):
        cy = self.cyc.get(pid)
        placing = cy is not None and 'tw' not in cy and pid in self.group and pid not in self.on
        if placing:
            cy['nw'] = len(self.rq[c].q)
            cy['ndw'] = sum(1 for e in self.rq[c].q.values() if e.delayed)
            cy['tw'] = self.t
            if cy['end'] is None:
                cy['end'] = '?'
            cy.setdefault('vlag', self.ent[pid].vlag if pid in self.ent else 0)
        super().on_wakeup(pid, c)
        if placing and pid in self.rq[c].q:
            cy['lw'] = self.lag(c, pid)

    def decide(self, c, waker, wakee):
        super().decide(c, waker, wakee)
        d = self.open[c]
        cy = self.cyc.get(wakee)
        if d is not None and d['wakee'] == wakee and d['s'] and cy is not None and \
           'tw' in cy and 'chk' not in cy and d['t'] == self.t:
            cy['chk'] = d['lag']
            cy['pre'] = d['rule']['6.18']
            cy['key'] = d.get('key')

    def switch_in(self, c, pid, kind):
        got = super().switch_in(c, pid, kind)
        cy = self.cyc.get(pid)
        rq = self.rq[c]
        if cy is not None and 'tw' in cy and 'lin' not in cy and rq.curr == pid:
            cy['lin'] = self.lag(c, pid)
            cy['wait'] = self.t - cy['tw']
            cy['tin'] = self.t
            cy['nin'] = len(rq.q)
        return got


def us(x):
    return x / 1000.0


def qs(a):
    if not a:
        return '       -'
    a = sorted(a)
    return ' '.join('%7.1f' % us(a[min(len(a) - 1, int(len(a) * p / 100))]) for p in (25, 50, 75))


def table(title, C, key, order=None):
    groups = defaultdict(list)
    for cy in C:
        groups[key(cy)].append(cy)
    n = len(C)
    print('  ' + title)
    print('    %-44s %6s %6s  %-23s  %-23s  %-23s %9s' % (
        'class', 'n', 'share', 'lag at block p25/50/75', 'kept vlag p25/50/75',
        'lag at check p25/50/75', 'contrib'))
    tot = sum(cy.get('chk', 0) for cy in C if 'chk' in cy)
    nchk = sum(1 for cy in C if 'chk' in cy)
    for k in (order or sorted(groups)):
        G = groups.get(k, [])
        if not G:
            continue
        chk = [cy['chk'] for cy in G if 'chk' in cy]
        print('    %-44s %6d %5.1f%%  %s  %s  %s %9s' % (
            k, len(G), 100.0 * len(G) / n if n else 0, qs([cy['lb'] for cy in G]),
            qs([cy['vlag'] for cy in G if 'vlag' in cy]), qs(chk),
            '%7.1f' % us(sum(chk) / nchk) if nchk and chk else '-'))
    if nchk:
        print('    %-44s %6d %6s  %23s  %23s  %s %9.1f' % (
            'all with a check', nchk, '', '', '', qs([cy['chk'] for cy in C if 'chk' in cy]),
            us(tot / nchk)))


STAGES = (('queued before the switch-in', lambda cy: cy['lin'] - cy['lw']
             if 'lin' in cy and 'lw' in cy else None),
          ('the run', lambda cy: cy.get('run')),
          ('delayed, then zeroed / requeued', lambda cy: cy['vlag'] - cy['lb']
             if 'vlag' in cy and not cy['end'].startswith('eligible') else None),
          ('eligible block, clamp', lambda cy: cy['vlag'] - cy['lb']
             if 'vlag' in cy and cy['end'].startswith('eligible') else None),
          ('placed onto an empty queue', lambda cy: cy['lw'] - cy['vlag']
             if 'lw' in cy and 'vlag' in cy and cy['nw'] == 0 else None),
          ('placed onto a non-empty queue', lambda cy: cy['lw'] - cy['vlag']
             if 'lw' in cy and 'vlag' in cy and cy['nw'] > 0 else None))


def flows(C):
    """Each stage's change of the receiver's lag, summed over the cycles (per cycle, and the
    gains and losses apart), by tenth of the cycles in time: where the stock is made and lost."""
    n = len(C)
    print('  the lag\'s flows per stage, us per cycle (mean; gains + losses); by tenth of the '
          'cycles in time: mean')
    tenths = [C[i * n // 10:(i + 1) * n // 10] for i in range(10)]
    for lab, f in STAGES:
        v = [f(cy) for cy in C]
        v = [x for x in v if x is not None]
        gp = sum(x for x in v if x > 0) / n if n else 0
        gn = sum(x for x in v if x < 0) / n if n else 0
        per = []
        for T in tenths:
            w = [f(cy) for cy in T]
            per.append(sum(x for x in w if x is not None) / len(T) if T else 0)
        print('    %-32s %8.1f (%7.1f %8.1f)  %s' % (lab, us(gp + gn), us(gp), us(gn),
                                                    ' '.join('%6.1f' % us(x) for x in per)))
    per = []
    for T in tenths:
        k = [cy['chk'] for cy in T if 'chk' in cy]
        per.append('%6.1f' % us(sum(k) / len(k)) if k else '     -')
    print('    %-32s %8s %18s  %s' % ('mean lag at the check', '', '', ' '.join(per)))
    print('    %-32s %8s %18s  %s' % ('checks', '', '', ' '.join(
        '%6d' % sum('chk' in cy for cy in T) for T in tenths)))
    print('    %-32s %8s %18s  %s' % ('mean lag at the block, all', '', '', ' '.join(
        '%6.1f' % us(sum(cy['lb'] for cy in T) / len(T)) if T else '     -' for T in tenths)))
    print('    %-32s %8s %18s  %s' % ('blocks delayed', '', '', ' '.join(
        '%5.1f%%' % (100.0 * sum(not cy['el'] for cy in T) / len(T)) if T else '     -'
        for T in tenths)))
    print('    %-32s %8s %18s  %s' % ('tenth ends at (s)', '', '', ' '.join(
        '%6.3f' % (T[-1]['tb'] / 1e9 % 1000) if T else '     -' for T in tenths)))


def per_receiver(C):
    """Each receiver's stock: its lag at its first block, the mean lag at its blocks and the net
    flow per cycle (the stages summed) in the first and the second half of its cycles."""
    by = defaultdict(list)
    for cy in C:
        by[cy['pid']].append(cy)

    def net(cy):
        return sum(x for x in (f(cy) for _, f in STAGES) if x is not None)
    print('  per receiver: cycles, checks, lag at the first block; mean lag at block and net flow '
          'per cycle, first half | second half (us)')
    acc = [0.0] * 4
    for p in sorted(by):
        L = by[p]
        h = len(L) // 2
        A, B = L[:h] or L, L[h:]
        m = (sum(cy['lb'] for cy in A) / len(A), sum(net(cy) for cy in A) / len(A),
             sum(cy['lb'] for cy in B) / len(B), sum(net(cy) for cy in B) / len(B))
        acc = [x + y for x, y in zip(acc, m)]
        print('    %7d %5d %5d %8.1f   %8.1f %6.2f | %8.1f %6.2f' % (
            p, len(L), sum('chk' in cy for cy in L), us(L[0]['lb']), us(m[0]), us(m[1]),
            us(m[2]), us(m[3])))
    if by:
        print('    %-7s %5s %5s %8s   %8.1f %6.2f | %8.1f %6.2f' % (
            'mean', '', '', '', *(us(x / len(by)) for x in acc)))


def startup(R, C, k):
    """The start-up: the group's children's first fork, switch-in, block, the barrier's wake
    (the leader's wake of each child after its first block; in a dump, `early` when it reached
    the child before that block), the first send / receive; then, over the first K tenths of
    the receiver cycles, the receivers' waits and runs, the senders' runs by how each ended,
    and each CPU's group queue (runnable senders / receivers, time-weighted)."""
    F = R.first
    kids = [p for p in R.kids if p in F]
    if not kids:
        return
    t0 = min(F[p]['fork'] for p in kids)
    nr = len(kids) - R.senders_n

    def rel(x):
        return '%8.1f' % us(x - t0) if x is not None else '       -'
    print('  start-up (us from the first fork): child  fork  cpu  first in  first block  barrier '
          'wake  first send/receive')
    for i, p in enumerate(kids):
        f = F[p]
        nm = ('r%d' % i) if i < nr else ('s%d' % (i - nr))
        print('    %-4s %6d %s %3s %s %s %s%s %s' % (
            nm, p, rel(f.get('fork')), f.get('cpu', '-'), rel(f.get('in')), rel(f.get('block')),
            rel(f.get('barrier')), ' early' if f.get('early barrier') else '      ',
            rel(f.get('send', f.get('recv')))))
    bw = [F[p]['barrier'] for p in kids if 'barrier' in F[p]]
    lf = max(F[p]['fork'] for p in kids)
    fb = [F[p]['block'] for p in kids if 'block' in F[p]]
    sends = sorted((F[p]['send'], p) for p in kids if 'send' in F[p])
    print('    last fork %s; barrier wakes %d, first %s, last %s; before the child\'s first block '
          '(early) %d; the last child\'s first block %s; first send %s; senders in order of '
          'their first send: %s' % (
              rel(lf), len(bw), rel(min(bw) if bw else None), rel(max(bw) if bw else None),
              sum(bool(F[p].get('early barrier')) for p in kids), rel(max(fb) if fb else None),
              rel(sends[0][0] if sends else None),
              ' '.join('s%d' % (kids.index(p) - nr) for _, p in sends)))
    C = sorted(C, key=lambda cy: cy['tb'])      # in time, by the block that opens each cycle
    n = len(C)
    W = C[:k * n // 10]
    if not W:
        return
    tE = W[-1]['tb']
    print('  the first %d tenths of the receiver cycles: %d cycles, first fork -> %s us' % (
        k, len(W), rel(tE).strip()))

    def mean(a):
        return '%7.1f' % us(sum(a) / len(a)) if a else '      -'
    A = [cy for cy in W if 'lin' in cy]
    print('    receivers: wait queued p25/50/75 %s mean %s; run p25/50/75 %s mean %s; lag gained '
          'queued mean %s, the run mean %s; lag at block mean %s' % (
              qs([cy['wait'] for cy in A]), mean([cy['wait'] for cy in A]),
              qs([cy['rt'] for cy in A if 'rt' in cy]), mean([cy['rt'] for cy in A if 'rt' in cy]),
              mean([cy['lin'] - cy['lw'] for cy in A if 'lw' in cy]),
              mean([cy['run'] for cy in A if 'run' in cy]), mean([cy['lb'] for cy in W])))
    print('    entities on the queue at the wake (the receiver not counted): %s; at the '
          'switch-in: %s' % (
              ' '.join('%d:%d' % kv for kv in sorted(Counter(min(cy['nw'], 6) for cy in W).items())),
              ' '.join('%d:%d' % kv for kv in sorted(Counter(min(cy['nin'], 6)
                                                           for cy in A).items()))))
    S = [r for r in R.sruns if t0 <= r[1] < tE]
    print('    senders\' runs begun in the window: %d, length p25/50/75 %s mean %s, total %.1f ms' % (
        len(S), qs([r[2] for r in S]), mean([r[2] for r in S]), sum(r[2] for r in S) / 1e6))
    for how, m in Counter(r[3] for r in S).most_common():
        L = [r[2] for r in S if r[3] == how]
        print('      ended %-32s %6d %5.1f%%  length p25/50/75 %s mean %s' % (
            how, m, 100.0 * m / len(S), qs(L), mean(L)))
    Z = [x for x in R.ssleeps if t0 <= x[1] < tE]
    print('    senders\' sleeps begun in the window: %d, total %.1f ms; by why and the waker: n, '
          'length p25/50/75 mean (us), total (ms)' % (len(Z), sum(x[2] for x in Z) / 1e6))
    for key, m in Counter((x[3], x[4]) for x in Z).most_common():
        L = [x[2] for x in Z if (x[3], x[4]) == key]
        print('      %-5s woken by %-18s %6d  %s %s %8.1f' % (key[0], key[1], m, qs(L), mean(L),
                                                        sum(L) / 1e6))
    print('    per CPU over the window (time-weighted): senders runnable, receivers runnable, '
          'a group task running, busy')
    b0, b1 = t0 // R.BIN, tE // R.BIN
    span = (b1 - b0 + 1) * R.BIN
    for c in range(len(R.rq)):
        acc = [sum(R.occ[(c, b)][i] for b in range(b0, b1 + 1)) / span for i in range(4)]
        print('      cpu %d: %5.2f %5.2f %5.1f%% %5.1f%%' % (c, acc[0], acc[1], 100 * acc[2],
                                                       100 * acc[3]))
    print('    by tenth of the receiver cycles, per CPU (time-weighted): senders runnable, '
          'receivers runnable, the senders\' and the receivers\' lag summed over the queue (us), '
          'the group running; senders delayed on the queue / asleep at a hand-off WAIT / '
          'blocked otherwise (by the CPU they last ran on)')
    ends = [t0] + [C[(i + 1) * n // 10 - 1]['tb'] for i in range(min(10, k + 2))
                   if (i + 1) * n // 10 > 0]
    for i in range(len(ends) - 1):
        a, b = ends[i] // R.BIN, ends[i + 1] // R.BIN
        span = max(1, b - a) * R.BIN
        print('      tenth %2d (%s-%s us): %s' % (i + 1, rel(ends[i]).strip(), rel(ends[i + 1]).strip(),
              ' | '.join('cpu %d %5.2f %5.2f %+7.0f %+7.0f %5.1f%%  %4.2f/%4.2f/%4.2f' % (
                  (c,) + tuple(sum(R.occ[(c, x)][j] for x in range(a, b)) / span
                               for j in (0, 1, 4, 5)) +
                  (100 * sum(R.occ[(c, x)][2] for x in range(a, b)) / span,) +
                  tuple(sum(R.occ[(c, x)][j] for x in range(a, b)) / span for j in (6, 7, 8)))
                  for c in range(len(R.rq)))))


def side(name, R, k=0):
    C = [cy for cy in R.cycles if 'tw' in cy]
    print('== %s: %d receiver cycles (block -> wake), %d with a sender -> receiver check' % (
        name, len(C), sum('chk' in cy for cy in C)))
    ends = ('eligible, kept', 'delayed, zeroed at a pick', 'delayed, requeued at V',
            'delayed, requeued, kept v', '?')
    table('by the block and the sleep\'s end', C, lambda cy: cy['end'], ends)

    def wk(cy):
        return 'empty queue' if cy['nw'] == 0 else \
            'only delayed queued' if cy.get('ndw', 0) == cy['nw'] else 'non-empty queue'
    table('by the queue at the wake', C, wk)
    table('by the check', C, lambda cy: ('check, rule preempts' if cy['pre'] else
                                         'check, rule does not') if 'chk' in cy else 'no check')
    table('by block x wake queue (the decisions only)', [cy for cy in C if 'chk' in cy],
          lambda cy: '%s / %s' % (cy['end'], wk(cy)))
    D = [cy for cy in C if 'chk' in cy]
    print('  the decisions\' cycle, stage by stage (p25/50/75 us): lag at block %s; kept %s; '
          'at the wake %s; at the check %s' % (
              qs([cy['lb'] for cy in D]), qs([cy['vlag'] for cy in D if 'vlag' in cy]),
              qs([cy['lw'] for cy in D if 'lw' in cy]), qs([cy['chk'] for cy in D])))
    W = [cy for cy in D if 'lin' in cy]
    print('  then queued until the switch-in: gained %s (wait %s); the run: %s' % (
        qs([cy['lin'] - cy['chk'] for cy in W]), qs([cy['wait'] for cy in W]),
        qs([cy['run'] for cy in W if 'run' in cy])))
    A = [cy for cy in C if 'lin' in cy]
    print('  all cycles: queued before the switch-in %s (wait %s), the run %s' % (
        qs([cy['lin'] - cy['lw'] for cy in A if 'lw' in cy]), qs([cy['wait'] for cy in A]),
        qs([cy['run'] for cy in A if 'run' in cy])))
    flows(C)
    per_receiver(C)
    if k:
        startup(R, C, k)
    print('  lag at the next block by how the previous check went: ')
    for lab, sel in (('checked, rule preempts', lambda cy: cy.get('pre') is True),
                     ('checked, rule does not', lambda cy: cy.get('pre') is False),
                     ('no check', lambda cy: 'chk' not in cy)):
        S = [cy for cy in A if sel(cy) and 'run' in cy]
        print('    %-24s %6d  wait %s  at switch-in %s  run %s  at block %s  blocks eligible '
              '%5.1f%%' % (
            lab, len(S), qs([cy['wait'] for cy in S]), qs([cy['lin'] for cy in S]),
            qs([cy['run'] for cy in S]),
            qs([cy['lin'] + cy['run'] for cy in S]),
            100.0 * sum(cy['lin'] + cy['run'] >= 0 for cy in S) / len(S) if S else 0))


def main():
    ap = ss.rebuild_args()
    ap.add_argument('--startup', type=int, default=0, metavar='K',
                    help='print the start-up: the children\'s first starts, and the first K '
                         'tenths of the receiver cycles (waits, runs, the senders\' runs, the '
                         'queues)')
    a = ap.parse_args()
    ss.Rebuild = Rebuild
    ops = ss.read_ops(a.dump)
    K = ss.rebuild(a.trace, None, a)
    side('kernel (trace)', K, a.startup)
    R = ss.rebuild(a.dump, ops, a)
    side('replay (dump)', R, a.startup)
    if a.startup:
        sleeps_matched(K, R, a.startup)


def sleeps_matched(K, R, k):
    """The senders' traced blocks in the first K tenths of the kernel's receiver cycles, matched
    by the wake record that ends them (the trace's sched_waking; the dump's `wake` line): how
    long each sender slept, and how long it had been awake before, running or waiting queued."""
    C = sorted((cy for cy in K.cycles if 'tw' in cy), key=lambda cy: cy['tb'])
    if len(C) < 10 or not K.first:
        return
    t0 = min(K.first[p]['fork'] for p in K.kids if p in K.first)
    tE = C[k * len(C) // 10 - 1]['tb']
    ks = {x[5]: x for x in K.ssleeps if x[5] is not None and t0 <= x[1] < tE}
    rs = {x[5]: x for x in R.ssleeps if x[5] is not None}
    M = [(ks[key], rs[key]) for key in ks if key in rs]
    if not M:
        return

    def tot(a):
        return '%7.1f' % (sum(a) / 1e6)
    print('== the senders\' traced blocks in the kernel\'s first %d tenths, matched by the wake '
          'record that ends them: %d of %d' % (k, len(M), len(ks)))
    print('   asleep (ms, summed): kernel %s, replay %s; replay - kernel per block p25/50/75 (us) %s'
          % (tot([x[2] for x, y in M]), tot([y[2] for x, y in M]),
             qs([y[2] - x[2] for x, y in M])))
    A = [(x, y) for x, y in M if x[6] and y[6]]
    print('   awake before the block (from the previous wakeup; ms, summed over %d): kernel %s '
          '(running %s, waiting %s), replay %s (running %s, waiting %s)' % (
              len(A), tot([x[6][0] for x, y in A]), tot([x[6][1] for x, y in A]),
              tot([x[6][0] - x[6][1] for x, y in A]), tot([y[6][0] for x, y in A]),
              tot([y[6][1] for x, y in A]), tot([y[6][0] - y[6][1] for x, y in A])))
    print('   by the waker: n, asleep kernel / replay (ms), awake-waiting kernel / replay (ms)')
    for wk in sorted(set(x[4] for x, y in M)):
        S = [(x, y) for x, y in M if x[4] == wk]
        SA = [(x, y) for x, y in S if x[6] and y[6]]
        print('     %-14s %4d  %s / %s   %s / %s' % (
            wk, len(S), tot([x[2] for x, y in S]), tot([y[2] for x, y in S]),
            tot([x[6][0] - x[6][1] for x, y in SA]), tot([y[6][0] - y[6][1] for x, y in SA])))


if __name__ == '__main__':
    main()
