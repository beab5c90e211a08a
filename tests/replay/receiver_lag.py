#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hackbench's pipe receivers: where their lag is gained and lost, sleep -> wake cycle by cycle,
the trace against a replay dump.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --seed N [options] --dump-events T.dump --dump-wake-records T.dat
  receiver_lag.py T.rep T.dump --group-pid PID [--senders N]

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
Analysis helper, not a test (docs/validation-log.md, "hackbench-shares' receivers, sleep -> wake
cycle by cycle").
"""
import sys
from collections import defaultdict

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import forkexec_eevdf as fe  # noqa: E402
import sender_state as ss  # noqa: E402


class Rebuild(ss.Rebuild):
    def __init__(self, *a, **k):
        self.cyc = {}               # receiver -> its open cycle
        self.cycles = []
        self.recv = None
        super().__init__(*a, **k)

    def receivers(self):
        return set(self.kids[:-self.senders_n])

    def lag(self, c, pid):
        rq = self.rq[c]
        return rq.V() - rq.q[pid].v

    def step(self, e):
        if e['ev'] == 'sched_switch' and not e['pstate'].startswith('R'):
            c, p = e['cpu'], e['prev']
            rq = self.rq[c]
            if p in rq.q and p in self.receivers():
                old = self.cyc.pop(p, None)
                lb = self.lag(c, p)
                if old is not None and 'lin' in old:
                    old['run'] = lb - old['lin']
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


def side(name, R):
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
    a = ss.rebuild_args().parse_args()
    ss.Rebuild = Rebuild
    ops = ss.read_ops(a.dump)
    side('kernel (trace)', ss.rebuild(a.trace, None, a))
    side('replay (dump)', ss.rebuild(a.dump, ops, a))


if __name__ == '__main__':
    main()
