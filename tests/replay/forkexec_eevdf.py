#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""forkexec's vfork-block pick, with the EEVDF state rebuilt from the events.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --seed N --dump-events T.dump T.dat
  forkexec_eevdf.py T.rep|T.dump --group-pid PID [--parent PID] [--requeue-after-update]
                    [--no-deadline-initial] [--no-delay-dequeue]
                    [--base-slice NS] [--tick NS] [--list N]

PID is the capture's group leader (the sidecar's groups[0].pid): it and its descendants are the
workload, alone in one task group, so each CPU's group queue holds only them, all nice 0, and
their EEVDF state can be rebuilt from the events alone with the 6.18 profile's rules
(docs/model.md):

- every `sched_stat_runtime` of a task is one `update_curr()` of it: v += runtime (nice 0), a
  new request (d = v + base slice) once v reaches d;
- `sched_wakeup_new` places the child at V (zero lag: `__sched_fork()`) with half a slice
  (`PLACE_DEADLINE_INITIAL`); a wakeup of a task that left its queue places it at V - lag, the
  lag inflated by (n + 1) / n (`place_entity()`);
- a task still queued by `DELAY_DEQUEUE` is requeued at its `sched_waking`
  (`ttwu_runnable()` -> `requeue_delayed_entity()`, before the wakeup check's `update_curr()`,
  whose `sched_stat_runtime` follows): re-placed at V only if its lag is > 0 (`DELAY_ZERO`);
  --requeue-after-update takes the lag after that `update_curr()` instead (not the kernel's
  order: a check of the rule against the capture; so are --no-deadline-initial, a child's
  first request a whole slice, and --no-delay-dequeue);
- a switch-out in a sleeping state dequeues the task, delayed when it is not eligible (V
  counts it, as curr); an exit (`X`, `Z`: `TASK_DEAD`, `DEQUEUE_SPECIAL`) always;
- `sched_migrate_task` of a queued task moves it with its lag and relative deadline;
- a pick that reaches the group queue (a switch to a group task, or to idle) dequeues the
  delayed entities EEVDF picks (`pick_next_entity()`), their lag clamped to <= 0.

The CPU a `sched_stat_runtime` belongs to is the one its task runs on (a remote enqueue's
`update_curr()` is emitted from the waker's CPU); a task seen running with no switch-in (the
capture kernel does not trace CPU 1's idle exits) is switched in from idle then, and one seen
running on a CPU where no event moved it (forkexec-run3 has a few) is moved there first.

Printed:
  1. every switch to a group task against the rebuilt state's pick (the eligible entity with
     the earliest deadline, `__pick_eevdf()` with curr leaving), at the parent's vfork blocks
     and elsewhere - on a replay dump this checks the rebuild against the model's own picks;
  2. the parent's vfork blocks (the `xargs` that forks most; it blocks right after forking c0)
     with c0 and one older child queued beside it, by the older child's rank, the parent left
     delayed or not, the rebuilt pick and the child that ran;
  3. for rank 2 (c-2): the state per class (v - V, d - V in us, p10 p25 p50 p75 p90), the
     parent's last enqueue, c-2's run since its placement and the share of blocks at which the
     parent is not delayed by that run;
  4. for rank 2 with c-1 forked to the other CPU: how many group tasks were runnable there (not
     delayed) at c-1's fork, and the time from that fork to the parent's wakeup by c-1's exec.
  --list N prints the first N rank-2 blocks entity by entity.

Analysis helper, not a test (docs/validation-log.md, "forkexec's vfork-block pick, state by state").
"""
import argparse
import re
import sys
from collections import Counter

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import forkexec_cycles as fc  # noqa: E402

RE_RT = re.compile(r'pid=(\d+) runtime=(\d+)')


def parse(path):
    """forkexec_cycles.parse() plus the sched_stat_runtime fields (spid, runtime)."""
    evs = fc.parse(path)
    rts = []
    with open(path) as f:
        for line in f:
            if 'sched_stat_runtime' in line:
                m = RE_RT.search(line)
                rts.append((int(m.group(1)), int(m.group(2))))
    it = iter(rts)
    for e in evs:
        if e['ev'] == 'sched_stat_runtime':
            e['spid'], e['runtime'] = next(it)
    return evs


def cdiv(a, b):
    """C's truncating division."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def qs(a, ps=(10, 25, 50, 75, 90)):
    a = sorted(a)
    return ' '.join('%.0f' % (a[int(p / 100 * (len(a) - 1))] / 1e3) for p in ps) if a else '-'


class Ent:
    __slots__ = ('pid', 'v', 'd', 'vlag', 'rel', 'delayed', 'placed_v', 'run', 'how')

    def __init__(self, pid):
        self.pid, self.v, self.d, self.vlag, self.rel = pid, 0, 0, 0, None
        self.delayed, self.placed_v, self.run, self.how = False, 0, 0, ''


class Rq:
    """One CPU's group queue: every queued entity (curr and delayed ones included)."""

    def __init__(self):
        self.q = {}
        self.curr = None
        self.zero = 0

    def V(self):
        """avg_vruntime(): equal weights, rounded towards -inf."""
        if self.q:
            self.zero = sum(e.v for e in self.q.values()) // len(self.q)
        return self.zero

    def eligible(self, e):
        return sum(x.v for x in self.q.values()) >= e.v * len(self.q)


class Rebuild:
    rq_class = Rq   # hackbench_eevdf.py substitutes its own

    def __init__(self, evs, gpid, xpid, ncpu, slice_ns, tick_ns, requeue_after=False,
                 full_initial=False, no_delay=False):
        self.slice, self.tick, self.requeue_after = slice_ns, tick_ns, requeue_after
        self.full_initial, self.no_delay = full_initial, no_delay
        self.group, self.x = {gpid}, xpid
        self.rq = [self.rq_class() for _ in range(ncpu)]
        self.ent, self.cpu, self.on = {}, {}, set()
        self.children = []      # the parent's children in fork order
        self.last_fork = None   # the parent's newest child since its last wakeup
        self.picks = Counter()  # (kind, rebuilt pick == traced)
        self.blocks = []
        self.anom = Counter()
        self.requeued = set()
        self.fork_t = {}        # child -> (ts, CPU, group tasks runnable there before it)
        self.t, self.x_woken = 0, 0
        for e in evs:
            self.t = e['t']
            self.step(e)

    # --- the kernel functions, for one nice-0 group queue ------------------------------
    def lag_clamp(self, vlag):
        lim = self.slice + self.tick      # LAG_CLAMP_MAX_SLICE: longest slice + a tick
        return max(-lim, min(lim, vlag))

    def place(self, c, e, initial):
        rq = self.rq[c]
        V, lag, n = rq.V(), e.vlag, len(rq.q)
        if n:
            lag = cdiv(lag * (n + 1), n)
        e.v = V - lag
        e.placed_v, e.run = e.v, 0
        if e.rel is not None:
            e.d, e.rel = e.v + e.rel, None
        else:
            e.d = e.v + (self.slice // 2 if initial and not self.full_initial else self.slice)
        rq.q[e.pid] = e
        self.cpu[e.pid] = c
        self.on.add(e.pid)

    def dequeue(self, c, pid, sleep, special=False, delayed_pick=False):
        """True when the task is left queued, delayed."""
        rq = self.rq[c]
        e = rq.q[pid]
        if sleep and not special and not delayed_pick and not self.no_delay and not rq.eligible(e):
            e.delayed = True
            return True
        e.vlag = self.lag_clamp(rq.V() - e.v)
        if delayed_pick:
            e.delayed = False
            e.vlag = min(e.vlag, 0)          # DELAY_ZERO
        if not sleep:
            e.rel = e.d - e.v                # PLACE_REL_DEADLINE
        del rq.q[pid]
        self.on.discard(pid)
        if rq.curr == pid:
            rq.curr = None
        return False

    def requeue(self, c, pid):
        rq = self.rq[c]
        e = rq.q[pid]
        if self.lag_clamp(rq.V() - e.v) > 0:
            del rq.q[pid]
            e.vlag = 0
            self.place(c, e, False)
            e.how = 'requeued at V'
        else:
            e.how = 'requeued, kept v'
        e.delayed = False

    def update_curr(self, c, pid, delta):
        e = self.rq[c].q[pid]
        e.v += delta
        e.run += delta
        if e.v - e.d >= 0:
            e.d = e.v + self.slice

    def pick(self, c):
        """__pick_eevdf() with curr leaving (blocked, or put back)."""
        rq = self.rq[c]
        cand = [e for p, e in rq.q.items() if p != rq.curr]
        if not cand:
            return None
        if len(rq.q) == 1:
            return cand[0]
        el = [e for e in cand if rq.eligible(e)]
        return min(el, key=lambda e: e.d) if el else None

    def pick_loop(self, c):
        """pick_next_entity(): a delayed winner is dequeued and the pick repeated."""
        while True:
            e = self.pick(c)
            if e is None or not e.delayed:
                return e
            self.dequeue(c, e.pid, True, delayed_pick=True)

    # --- the events ------------------------------------------------------------------------
    def switch_in(self, c, pid, kind):
        rq = self.rq[c]
        if rq.curr is not None and rq.curr != pid:
            rq.curr = None
        got = self.pick_loop(c)
        self.picks[(kind, got is not None and got.pid == pid)] += 1
        if pid not in rq.q:
            self.anom['switch-in of a task not queued here'] += 1
        else:
            rq.curr = pid
        return got

    def where(self, pid):
        for c, rq in enumerate(self.rq):
            if pid in rq.q:
                return c
        return None

    def step(self, e):
        ev = e['ev']
        if ev == 'sched_process_fork':
            if e['pid'] in self.group:
                self.group.add(e['child'])
            return
        if ev == 'sched_switch':
            self.on_switch(e)
            return
        ctx = e['ctx']
        if ctx is not None and ctx in self.group:
            rq = self.rq[e['cpu']]
            o = self.where(ctx)
            if o is not None and o != e['cpu'] and self.rq[o].curr != ctx:
                self.anom['task running where no event moved it (untraced migration)'] += 1
                self.on_migrate(ctx, o, e['cpu'])
            if rq.curr != ctx and ctx in rq.q and not rq.q[ctx].delayed:
                self.switch_in(e['cpu'], ctx, 'other')
        if ev == 'sched_stat_runtime':
            self.on_runtime(e['spid'], e['runtime'])
        elif ev == 'sched_wakeup_new':
            self.on_fork(e['pid'], e['tcpu'])
        elif ev == 'sched_waking':
            pid = e.get('pid')
            en = self.ent.get(pid)
            if pid in self.group and en is not None and en.delayed and pid in self.on \
               and not self.requeue_after:
                self.requeue(self.cpu[pid], pid)
                self.requeued.add(pid)
        elif ev == 'sched_wakeup':
            self.on_wakeup(e['pid'], e['tcpu'])
        elif ev == 'sched_migrate_task':
            self.on_migrate(e['pid'], e['orig'], e['dest'])

    def on_runtime(self, pid, rt):
        if pid not in self.group:
            return
        c = next((i for i, rq in enumerate(self.rq) if rq.curr == pid), None)
        if c is None:
            c = self.where(pid)
            if c is None:
                self.anom['runtime of a task not queued'] += 1
                return
            if self.rq[c].curr is None:
                self.switch_in(c, pid, 'other')
            else:
                self.anom['runtime of a task not curr'] += 1
        self.update_curr(c, pid, rt)

    def on_fork(self, pid, c):
        if pid not in self.group:
            return
        n = Ent(pid)
        self.ent[pid] = n
        self.fork_t[pid] = (self.t, c, sum(not q.delayed for q in self.rq[c].q.values()))
        self.place(c, n, True)
        n.how = 'forked'
        if self.fork_parent.get(pid) == self.x:
            self.children.append(pid)
            self.last_fork = pid

    def on_wakeup(self, pid, c):
        if pid not in self.group:
            return
        if pid == self.x:
            self.last_fork = None
            self.x_woken = self.t
        if pid in self.requeued:
            self.requeued.discard(pid)
            if c != self.cpu[pid]:
                self.anom['requeued task woken on another CPU'] += 1
            return
        en = self.ent.setdefault(pid, Ent(pid))
        if pid not in self.on:
            self.place(c, en, False)
            en.how = 'placed, lag %s' % ('> 0' if en.vlag > 0 else '< 0' if en.vlag < 0 else '0')
        elif en.delayed and self.cpu[pid] == c:
            self.requeue(c, pid)             # --requeue-after-update
        elif en.delayed:
            self.anom['wakeup on another CPU of a delayed task'] += 1
            self.dequeue(self.cpu[pid], pid, True, delayed_pick=True)
            self.place(c, en, False)
        else:
            self.anom['wakeup of a queued task'] += 1

    def on_migrate(self, pid, o, d):
        if pid not in self.group:
            return
        en = self.ent.get(pid)
        if en is None or pid not in self.on:
            self.cpu[pid] = d
            return
        if pid not in self.rq[o].q:
            self.anom['migration from a CPU not holding it'] += 1
            return
        if en.delayed:
            self.anom['migration of a delayed task'] += 1
        if self.rq[o].curr == pid:
            self.anom['migration of curr (no stopper switch: replay)'] += 1
        dl = en.delayed
        self.dequeue(o, pid, False)
        self.place(d, en, False)
        en.delayed = dl

    def on_switch(self, e):
        c, prev, nxt, st = e['cpu'], e['prev'], e['next'], e['pstate']
        rq = self.rq[c]
        info = None
        if prev in self.group and prev in rq.q:
            if rq.curr != prev:
                self.anom['switch-out of a task not curr'] += 1
                rq.curr = prev
            if st.startswith('R'):
                rq.curr = None
            else:
                if prev == self.x and self.last_fork in rq.q:
                    info = self.snapshot(c)
                delayed = self.dequeue(c, prev, True, special=st in ('X', 'Z'))
                if info is not None:
                    info['x_delayed'] = delayed
        elif rq.curr is not None and rq.curr not in rq.q:
            rq.curr = None
        if nxt in self.group:
            if info is not None:
                got = self.pick_loop(c)   # the delayed parent is curr, ineligible: left out
                info['rebuilt'] = got.pid if got else None
                info['ran'] = nxt
                self.blocks.append(info)
            self.switch_in(c, nxt, 'vfork block' if info is not None else 'other')
        else:
            rq.curr = None
            if nxt == 0:
                self.pick_loop(c)         # idle: the delayed entities left are dequeued

    def snapshot(self, c):
        rq = self.rq[c]
        V = rq.V()
        ents = {p: dict(v=en.v - V, d=en.d - V, el=rq.eligible(en), delayed=en.delayed,
                        run=en.run, how=en.how) for p, en in rq.q.items()}
        older = [p for p in rq.q if p != self.x and p in self.children and p != self.last_fork]
        i = self.children.index(self.last_fork)
        rank = i - self.children.index(older[0]) if len(older) == 1 else None
        return dict(t=self.t, c=c, ents=ents, c0=self.last_fork, older=older, rank=rank,
                    n=len(rq.q), c1=self.children[i - 1] if i else None, x_woken=self.x_woken)


def report(r, nlist):
    print('parent %d, %d group tasks' % (r.x, len(r.group)))
    print('1. switches to a group task, the rebuilt pick (matched / not):')
    for kind in ('vfork block', 'other'):
        print('   %-12s %5d / %d' % (kind, r.picks[(kind, True)], r.picks[(kind, False)]))
    for k, v in r.anom.most_common():
        print('   (%s: %d)' % (k, v))
    B = [b for b in r.blocks if b['rank'] is not None and b['n'] == 3]
    print('2. vfork blocks beside c0 and one older child (%d of %d blocks beside c0):'
          % (len(B), len(r.blocks)))
    print('   rank  parent     ran older/new  rebuilt older/new  matched')
    for rank in (1, 2, 3):
        for xd in (True, False):
            S = [b for b in B if (b['rank'] == rank or (rank == 3 and b['rank'] > 3))
                 and b['x_delayed'] == xd]
            ro = sum(b['ran'] in b['older'] for b in S)
            bo = sum(b['rebuilt'] in b['older'] for b in S)
            ok = sum(b['ran'] == b['rebuilt'] for b in S)
            print('   %-5s %-10s %5d / %-5d    %5d / %-5d    %d' % (
                rank if rank < 3 else '>=3', 'delayed' if xd else 'left', ro, len(S) - ro,
                bo, len(S) - bo, ok))
    B2 = [b for b in B if b['rank'] == 2]
    print('3. rank 2, state at the block (us; p10 p25 p50 p75 p90):')
    for xd in (True, False):
        S = [b for b in B2 if b['x_delayed'] == xd]
        if not S:
            continue
        X = [b['ents'][r.x] for b in S]
        O = [b['ents'][b['older'][0]] for b in S]
        N = [b['ents'][b['c0']] for b in S]
        print('   parent %s: %d' % ('delayed' if xd else 'left (eligible)', len(S)))
        print('     parent v-V %-22s run since placed %s' % (qs([x['v'] for x in X]), qs([x['run'] for x in X])))
        print('     c-2    v-V %-22s d-V %-22s run since placed %s' % (
            qs([o['v'] for o in O]), qs([o['d'] for o in O]), qs([o['run'] for o in O])))
        print('     c0     v-V %-22s d-V %s' % (qs([n['v'] for n in N]), qs([n['d'] for n in N])))
        print('     parent v - c-2 v %s' % qs([x['v'] - o['v'] for x, o in zip(X, O)]))
        print('     parent last enqueued: %s' % ', '.join('%s %d' % kv for kv in Counter(x['how'] for x in X).most_common()))
    print('   parent left, by c-2\'s run since placed:', end='')
    for lo, hi in ((0, 400), (400, 500), (500, 700), (700, 10 ** 9)):
        S = [b for b in B2 if lo * 1000 <= b['ents'][b['older'][0]]['run'] < hi * 1000]
        print('  %s us: %d/%d' % ('%d-%d' % (lo, hi) if hi < 10 ** 9 else '>=%d' % lo,
                                   sum(not b['x_delayed'] for b in S), len(S)), end='')
    print()
    R = [b for b in B2 if b['c1'] in r.fork_t and r.fork_t[b['c1']][1] != b['c']]
    print('4. rank 2, c-1 forked to the other CPU: %d; group tasks runnable there at its fork:' % len(R))
    for lab, sel in (('all', lambda b: True),
                     ('c-2 run >= 500 us', lambda b: b['ents'][b['older'][0]]['run'] >= 500000)):
        S = [b for b in R if sel(b)]
        print('   %-18s %4d: %s' % (lab, len(S), ', '.join(
            '%d: %d' % kv for kv in sorted(Counter(r.fork_t[b['c1']][2] for b in S).items()))))
    for lab, sel in (('none', lambda n: n == 0), ('one or more', lambda n: n > 0)):
        S = [b for b in R if sel(r.fork_t[b['c1']][2])]
        print('   c-1 fork -> the parent woken (c-1\'s exec), %-11s queued: %4d, %s us' % (
            lab, len(S), qs([b['x_woken'] - r.fork_t[b['c1']][0] for b in S])))
    for b in B2[:nlist]:
        print('   %.6f %s ran %s rebuilt %s |' % (b['t'] / 1e9, 'parent delayed' if b['x_delayed'] else 'parent left',
              'c0' if b['ran'] == b['c0'] else 'c-2', 'c0' if b['rebuilt'] == b['c0'] else 'c-2'), ' '.join(
            '%s v%+.1f d%+.1f %s run %.0f' % (
                'X' if p == r.x else ('c0' if p == b['c0'] else 'c-2'), en['v'] / 1e3, en['d'] / 1e3,
                ('E' if en['el'] else 'n') + ('D' if en['delayed'] else ''), en['run'] / 1e3)
            for p, en in b['ents'].items()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('input')
    ap.add_argument('--group-pid', type=int, required=True)
    ap.add_argument('--parent', type=int)
    ap.add_argument('--base-slice', type=int, default=1400000)
    ap.add_argument('--tick', type=int, default=4000000)
    ap.add_argument('--requeue-after-update', action='store_true')
    ap.add_argument('--no-deadline-initial', action='store_true')
    ap.add_argument('--no-delay-dequeue', action='store_true')
    ap.add_argument('--list', type=int, default=0)
    a = ap.parse_args()
    evs = parse(a.input)
    Rebuild.fork_parent = {e['child']: e['pid'] for e in evs if e['ev'] == 'sched_process_fork'}
    r = Rebuild(evs, a.group_pid, a.parent or fc.find_parent(evs), 2, a.base_slice, a.tick,
                a.requeue_after_update, a.no_deadline_initial, a.no_delay_dequeue)
    report(r, a.list)


if __name__ == '__main__':
    main()
