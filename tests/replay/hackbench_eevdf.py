#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hackbench's local wakeup-preemption decisions, with the EEVDF state rebuilt from the events.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --seed N --dump-events T.dump T.dat
  hackbench_eevdf.py T.rep|T.dump --group-pid PID [--senders N | --sender-pids P,P,...]
                     [--no-clean-delayed]
                     [--attach-fifo] [--no-exit-move] [--no-delay-zero] [--keep-lag-at-pick]
                     [--v-excl-delayed] [--no-inflate] [--no-delay-dequeue]
                     [--base-slice NS] [--tick NS] [--list N]

PID is the pipe group's leader (the sidecar's groups[0].pid of hackbench-shares*.dat): it and
its descendants are alone in their task group, all nice 0, so each CPU's group queue holds only
them, and forkexec_eevdf.py's rebuild of that queue (the 6.18 profile's rules: vruntime from
sched_stat_runtime, placement with lag inflation, DELAY_DEQUEUE / DELAY_ZERO, picks that dequeue
delayed entities) applies unchanged.  This adds what a wakeup check needs (docs/model.md,
"Wakeup preemption on the capture kernel"):

- curr's slice protection, set at each pick (`set_next_entity()` -> `set_protect_slice()`:
  vprot = min(deadline, v + the queue's shortest slice), i.e. the deadline with equal slices),
  protected while v < vprot (`protect_slice()`);
- the CPU's need-resched bit as far as the group queue sets it: an `update_curr()` with more
  than one entity queued whose request expired or whose protection is over
  (`RESCHED_UNPROTECTED`), and a preempting wakeup; a switch on the CPU clears it.  The root
  level (the pipe group's entity against the socket group's, and ticks' root-level updates) is
  not rebuilt: the socket group's own preemptions of a pipe task are seen only as a switch;
- a switch to a task of another group while the group queue holds only delayed entities
  dequeues them (`pick_task_fair()`: a root pick that reaches a group queue of delayed
  entities dequeues each winner, `pick_next_entity()`, and starts again from the root, until
  the queue is empty and the group's entity leaves the root); --no-clean-delayed keeps them
  (the rebuild cannot see whether the root picked the group; on a replay dump the cleaning is
  what the model did: every decision reproduced, see below);
- a load-balance pass that moves several queued tasks (consecutive `sched_migrate_task` events
  of queued tasks, `sched_stat_runtime` between them) detaches them all, then attaches them
  last-detached first (`detach_tasks()` builds its list with `list_add()`, `attach_tasks()`
  takes it from the head): the order decides each one's placement (lag inflation, V moved by
  the ones before).  --attach-fifo attaches each at its event instead: on hackbench-shares and
  -run2 the picks matched fall from 96.3 / 98.8 % to 82.0 / 91.6 % (three such passes each
  shift the placed lags by 100-300 us for the rest of the run);
- an exiting task is dequeued and enqueued again at its first `sched_stat_runtime` after its
  `sched_process_exit` (`do_exit()` -> `sched_autogroup_exit_task()` -> `sched_move_task()`
  within its group, the replay's EXIT_MOVE, docs/replay.md), with need-resched set;
  --no-exit-move leaves it as it is (captures only: a dump has no `sched_process_exit`);
- the decision at each local wakeup between two group tasks (the waker the CPU's current task,
  the wakee enqueued on that CPU: `find_matching_se()` stops at the group queue, where the
  waker is curr).  The wakee is placed at its `sched_wakeup` after the enqueue's
  `update_curr()` of the waker (its `sched_stat_runtime` follows `sched_waking`; the check's
  own `update_curr()` sees the same clock and charges nothing); a delayed wakee was requeued at
  its `sched_waking` (`ttwu_runnable()`).  6.18.33+ (`WAKEUP_PICK_NEXT`,
  `check_preempt_wakeup_fair()`): no check when need-resched is set; a wakee still delayed never
  preempts; otherwise `pick_next_entity(protect)` (no next buddy: NEXT_BUDDY off) - a delayed
  winner is dequeued and the pick repeated - preempts when it gives the wakee.

Each decision is set against what the events show next on that CPU: the waker switched out
runnable (to the wakee, or to another task) before its next local wakeup of a group task (a
preemption: with preempt=none the switch comes at the return to user space; a remote wakeup in
between does not end the decision), that next local wakeup first ("woke again"), or the waker
sleeping.  Alternative rules are evaluated on the same state (no effect on it):
`noprot` (curr's protection not applied), `force` (a waker no longer eligible is preempted: the
force-wakeup-preemption rule 6.18.33 reverted), `buddy` (NEXT_BUDDY without preempt_sync: the
wakee is the next buddy and the pick gives it when eligible), `wakee-el` (the wakee eligible),
`waker-inel` (the waker not eligible), `pair` (the wakee against the waker alone: eligible and
an earlier deadline, or the waker not eligible).  Options that change the rebuilt state (and
so the picks matched), as checks of the rules, not the kernel's: --no-delay-zero (a delayed
entity keeps a positive lag when it is requeued or dequeued), --keep-lag-at-pick (only when a
pick dequeues it), --v-excl-delayed (V and eligibility without the delayed entities),
--no-inflate (placement without the (n + 1) / n lag inflation), --no-delay-dequeue.

Checked against the model: with a scratch build logging every check_preempt_wakeup_fair()
decision, the rebuild from `replay --seed 1 --dump-events` of hackbench-shares-run2.dat gives
the model's decision at 396 of 400 matched local wakeups (568 of 568 with --handoff sleep
--skip-early-blocks, whose switches are all EEVDF picks: 1752 of 1753 matched); with the default
--handoff skip, the dump's hand-overs are imposed through a next buddy (docs/replay.md), so its
switches are not all picks the rebuild can reproduce.

Senders are the leader's last N children in fork order, receivers the ones before
(hackbench forks its receivers first; --senders, default 10, -f 10); --sender-pids names them
where groups interleave their forks (small-hackbench: receivers 3171-3174, senders 3175-3178,
receivers 3179-3182, senders 3183-3186).  On a replay dump the
waker is the task the dump last switched in on that CPU, and a wake of the running task itself
(the dump's stand-in for an early wake) is not a decision.

Printed:
  1. every switch to a group task against the rebuilt pick (as forkexec_eevdf.py), the switches
     right after a local wakeup apart;
  2. the local sender -> receiver wakeups: the rule's decision against the events' outcome,
     2 x 3, in all and by the number of senders queued (not delayed) on that CPU's group queue
     (1, 2, 3+), then by the waker's and the wakee's eligibility, and the wakee's placement
     (in all, and with one sender queued: there with the waker's run since its switch-in and
     the wakee's last run, the two charges that keep a lone sender ineligible or not);
  3. the agreement (rule preempts == waker switched out runnable before waking again) of each
     alternative rule, in all and by senders queued.
  --list N prints the first N decisions with one sender queued, entity by entity.

Analysis helper, not a test (docs/validation-log.md, "hackbench-shares' local wakeups against
the kernel's own state").
"""
import argparse
import sys
from collections import Counter

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import forkexec_eevdf as fe  # noqa: E402

RULES = ('6.18', 'noprot', 'force', 'buddy', 'wakee-el', 'waker-inel', 'pair')


class Rq(fe.Rq):
    """fe.Rq with V and eligibility optionally over the entities not delayed."""
    excl_delayed = False

    def _ents(self):
        if self.excl_delayed:
            return [e for e in self.q.values() if not e.delayed]
        return list(self.q.values())

    def V(self):
        es = self._ents()
        if es:
            self.zero = sum(e.v for e in es) // len(es)
        return self.zero

    def eligible(self, e):
        es = self._ents()
        if not es:
            return True
        return sum(x.v for x in es) >= e.v * len(es)


class Rebuild(fe.Rebuild):
    rq_class = Rq

    def __init__(self, evs, gpid, ncpu, slice_ns, tick_ns, senders_n, no_delay_zero=False,
                 no_inflate=False, no_delay=False, nlist=0, clean_delayed=True,
                 keep_lag_at_pick=False, attach_lifo=True, exit_move=True, sender_pids=None,
                 snap_all=False):
        self.no_delay_zero, self.no_inflate, self.nlist = no_delay_zero, no_inflate, nlist
        self.clean_delayed = clean_delayed
        self.keep_lag_at_pick = keep_lag_at_pick
        self.attach_lifo = attach_lifo
        self.exit_move = exit_move
        self.exiting = set()           # past sched_process_exit, not yet moved out of the group
        self.pending_attach = []       # queued tasks detached by one balance pass, not yet attached
        self.vprot = {}
        self.pick_v = {}               # v at the last switch-in
        self.last_run = {}             # v gained in the last run that ended in a block
        self.resched = [False] * ncpu
        self.running = [None] * ncpu
        self.kids = []
        self.senders_n = senders_n
        self.sender_pids = sender_pids  # --sender-pids: the senders named, not the last N children
        self.snap_all = snap_all        # every sender -> receiver decision keeps its queue (preempt_pairs.py)
        self.open = [None] * ncpu      # the decision on each CPU awaiting its outcome
        self.dec = []
        self.after_wakeup = [False] * ncpu
        self.lists = []
        self.waking_ctx = {}           # wakee -> the waker's (pid, CPU) at its sched_waking
        self.gpid = gpid
        super().__init__(evs, gpid, None, ncpu, slice_ns, tick_ns, no_delay=no_delay)
        for c in range(ncpu):
            self.close(c, 'end')

    # --- the state ------------------------------------------------------------------------
    def place(self, c, e, initial):
        if self.no_inflate:
            rq = self.rq[c]
            n = len(rq.q)
            e.vlag = fe.cdiv(e.vlag * n, n + 1) if n else e.vlag
        super().place(c, e, initial)

    def dequeue(self, c, pid, sleep, special=False, delayed_pick=False):
        if delayed_pick and (self.no_delay_zero or self.keep_lag_at_pick):
            rq = self.rq[c]
            e = rq.q[pid]
            e.vlag = self.lag_clamp(rq.V() - e.v)
            e.delayed = False
            del rq.q[pid]
            self.on.discard(pid)
            if rq.curr == pid:
                rq.curr = None
            return False
        return super().dequeue(c, pid, sleep, special, delayed_pick)

    def requeue(self, c, pid):
        if self.no_delay_zero:
            e = self.rq[c].q[pid]
            e.delayed = False
            e.how = 'requeued, kept v'
            return
        super().requeue(c, pid)

    def update_curr(self, c, pid, delta):
        e = self.rq[c].q[pid]
        expired = e.v + delta - e.d >= 0
        super().update_curr(c, pid, delta)
        if len(self.rq[c].q) > 1 and (expired or e.v >= self.vprot.get(pid, 0)):
            self.resched[c] = True

    def switch_in(self, c, pid, kind):
        if self.after_wakeup[c] and kind == 'other':
            kind = 'after a local wakeup'
        self.after_wakeup[c] = False
        got = super().switch_in(c, pid, kind)
        rq = self.rq[c]
        if rq.curr == pid:
            self.vprot[pid] = rq.q[pid].d        # set_protect_slice(): equal slices
            self.pick_v[pid] = rq.q[pid].v
        self.running[c] = pid
        return got

    def senders(self):
        if self.sender_pids is not None:
            return self.sender_pids
        return set(self.kids[-self.senders_n:])

    # --- the decision ----------------------------------------------------------------------
    def evaluate(self, c, waker, wakee):
        """Every rule's decision on a copy of the queue (the state is left as it is)."""
        rq = self.rq[c]
        q = dict(rq.q)
        cur = q[waker]
        pse = q[wakee]

        gone = []

        def el(e):
            es = [x for x in q.values() if not (Rq.excl_delayed and x.delayed)]
            return sum(x.v for x in es) >= e.v * len(es) if es else True

        def pick(protect):
            """pick_next_entity() at the wakeup: __pick_eevdf(), delayed winners dequeued."""
            while True:
                if len(q) == 1:
                    best = next(iter(q.values()))
                else:
                    curr = cur if waker in q and el(cur) else None
                    if protect and curr is not None and cur.v < self.vprot.get(waker, 0):
                        return cur
                    cand = [e for p, e in q.items() if p != waker and el(e)]
                    best = min(cand, key=lambda e: e.d) if cand else None
                    if curr is not None and (best is None or curr.d < best.d):
                        best = curr
                if best is None or not best.delayed:
                    return best
                del q[best.pid]
                gone.append(best.pid)

        waker_el, wakee_el = el(cur), el(pse)
        out = {}
        if pse.delayed:
            return {r: False for r in RULES}, waker_el, wakee_el, []
        base = pick(True) is pse
        dequeued = list(gone)
        q = dict(rq.q)
        out['6.18'] = base
        out['noprot'] = pick(False) is pse
        q = dict(rq.q)
        out['force'] = base or not waker_el
        out['buddy'] = wakee_el or base
        out['wakee-el'] = wakee_el
        out['waker-inel'] = not waker_el
        out['pair'] = wakee_el and (not waker_el or pse.d < cur.d)
        return out, waker_el, wakee_el, dequeued

    def decide(self, c, waker, wakee):
        rq = self.rq[c]
        if waker not in rq.q or rq.curr != waker or wakee not in rq.q:
            self.anom['local wakeup, waker or wakee not on the group queue'] += 1
            return
        senders = self.senders()
        s_wakeup = waker in senders and wakee in self.kids and wakee not in senders
        nsend = sum(1 for p, e in rq.q.items() if p in senders and not e.delayed)
        V = rq.V()
        snap = None
        listed = bool(self.nlist and nsend == 1 and s_wakeup and len(self.lists) < self.nlist)
        if listed or (self.snap_all and s_wakeup):
            snap = [(p, e.v - V, e.d - V, rq.eligible(e), e.delayed,
                     self.vprot.get(p, 0) - e.v if p == waker else None) for p, e in rq.q.items()]
        if self.resched[c]:
            out, wel, pel = {r: True for r in RULES}, rq.eligible(rq.q[waker]), rq.eligible(rq.q[wakee])
            kind = 'resched already set'
        else:
            out, wel, pel, gone = self.evaluate(c, waker, wakee)
            kind = 'checked'
            # the kernel's own check mutates: delayed winners leave; a preemption sets resched
            for pid in gone:
                self.dequeue(c, pid, True, delayed_pick=True)
            if out['6.18']:
                self.resched[c] = True
        d = dict(t=self.t, c=c, waker=waker, wakee=wakee, s=s_wakeup, nsend=nsend, rule=out,
                 wel=wel, pel=pel, kind=kind, how=rq.q[wakee].how,
                 lag=V - rq.q[wakee].v, snap=snap, listed=listed,
                 a=rq.q[waker].v - self.pick_v.get(waker, rq.q[waker].v),
                 b=self.last_run.get(wakee))
        self.close(c, 'woke again')
        self.open[c] = d
        self.after_wakeup[c] = True

    def close(self, c, outcome, nxt=None):
        d = self.open[c]
        if d is None:
            return
        self.open[c] = None
        if outcome == 'preempted':
            outcome = 'preempted, wakee next' if nxt == d['wakee'] else 'preempted, other next'
        d['out'] = outcome
        self.dec.append(d)
        if d['listed']:
            self.lists.append(d)

    # --- the events ------------------------------------------------------------------------
    def on_migrate(self, pid, o, d):
        en = self.ent.get(pid)
        if not self.attach_lifo or pid not in self.group or en is None or pid not in self.on \
           or pid not in self.rq[o].q or self.rq[o].curr == pid:
            super().on_migrate(pid, o, d)
            return
        dl = en.delayed
        self.dequeue(o, pid, False)
        self.pending_attach.append((d, en, dl))

    def on_runtime(self, pid, rt):
        super().on_runtime(pid, rt)
        if pid in self.exiting:
            # do_exit() -> sched_autogroup_exit_task() -> sched_move_task(): charged here,
            # then dequeued and enqueued again (the same group: its cgroup is left later,
            # cgroup_exit()), set as curr again, need_resched set
            self.exiting.discard(pid)
            c = self.where(pid)
            if c is not None:
                rq = self.rq[c]
                was_curr = rq.curr == pid
                self.dequeue(c, pid, False)
                self.place(c, self.ent[pid], False)
                if was_curr:
                    rq.curr = pid
                self.resched[c] = True

    def flush_attach(self):
        """attach_tasks(): the detached list is attached last-detached first."""
        while self.pending_attach:
            d, en, dl = self.pending_attach.pop()
            self.place(d, en, False)
            en.delayed = dl

    def step(self, e):
        ev = e['ev']
        c = e['cpu']
        if ev not in ('sched_migrate_task', 'sched_stat_runtime'):
            self.flush_attach()         # a detach's update_curr() of the source is no end
        if ev == 'sched_process_fork' and e['pid'] == self.gpid:
            self.kids.append(e['child'])
        if ev == 'sched_process_exit' and self.exit_move and e['ctx'] in self.group:
            self.exiting.add(e['ctx'])
        if ev == 'sched_switch':
            rq = self.rq[c]
            p = e['prev']
            if p in rq.q and p in self.pick_v and not e['pstate'].startswith('R'):
                self.last_run[p] = rq.q[p].v - self.pick_v[p]
            d = self.open[c]
            if d is not None and e['prev'] == d['waker']:
                self.close(c, 'preempted' if e['pstate'].startswith('R') else 'waker slept',
                           e['next'])
            elif d is not None:
                self.close(c, 'switch of another task')
            self.resched[c] = False
            self.running[c] = e['next']
        waker = e['ctx'] if e['ctx'] is not None else self.running[c]
        if ev == 'sched_waking':
            self.waking_ctx[e['pid']] = (waker, c)
        super().step(e)
        if ev == 'sched_switch':
            self.after_wakeup[c] = False
            rq = self.rq[c]
            if self.clean_delayed and e['next'] not in self.group and rq.q and \
               all(x.delayed for x in rq.q.values()):
                self.pick_loop(c)
        if e['ctx'] is not None:
            self.running[c] = e['ctx']
        if ev == 'sched_wakeup':
            pid, tc = e['pid'], e['tcpu']
            w = self.waking_ctx.pop(pid, None)
            if w is None or pid not in self.group or w[0] not in self.group or w[0] == pid:
                return
            if w[1] != tc or self.running[tc] != w[0]:
                return
            self.decide(tc, w[0], pid)


def pct(a, b):
    return '%5.1f %%' % (100.0 * a / b) if b else '    -  '


def report(r, args):
    if r.sender_pids is not None:
        print('group %d: %d tasks, senders (named) %s' % (
            r.gpid, len(r.group), ' '.join(map(str, sorted(r.sender_pids)))))
    else:
        print('group %d: %d tasks, senders (last %d children) %s' % (
            r.gpid, len(r.group), r.senders_n, ' '.join(map(str, r.kids[-r.senders_n:]))))
    print('1. switches to a group task, the rebuilt pick (matched / not):')
    tot = [0, 0]
    for kind in ('after a local wakeup', 'other'):
        print('   %-22s %6d / %d' % (kind, r.picks[(kind, True)], r.picks[(kind, False)]))
        tot[0] += r.picks[(kind, True)]
        tot[1] += r.picks[(kind, False)]
    print('   %-22s %6d / %d  (%s)' % ('all', tot[0], tot[1], pct(tot[0], sum(tot))))
    for k, v in r.anom.most_common():
        print('   (%s: %d)' % (k, v))
    D = [d for d in r.dec if d['s']]
    print('2. local wakeups between group tasks: %d, sender -> receiver: %d (%d with need-resched '
          'already set)' % (len(r.dec), len(D), sum(d['kind'] != 'checked' for d in D)))
    outs = ('preempted, wakee next', 'preempted, other next', 'woke again', 'waker slept',
            'switch of another task', 'end')
    print('   %-28s %10s %10s' % ('outcome \\ rule 6.18', 'preempts', 'does not'))
    for o in outs:
        S = [d for d in D if d['out'] == o]
        if S:
            y = sum(d['rule']['6.18'] for d in S)
            print('   %-28s %10d %10d' % (o, y, len(S) - y))

    def pre(d):
        return d['out'].startswith('preempted')

    def agree(S, rule):
        return sum(d['rule'][rule] == pre(d) for d in S)

    for lab, sel in (('1 sender queued', lambda d: d['nsend'] == 1),
                     ('2 senders queued', lambda d: d['nsend'] == 2),
                     ('3+ senders queued', lambda d: d['nsend'] >= 3),
                     ('all', lambda d: True)):
        S = [d for d in D if sel(d)]
        tp = sum(pre(d) for d in S)
        rp = sum(d['rule']['6.18'] for d in S)
        yy = sum(pre(d) and d['rule']['6.18'] for d in S)
        yn = sum(pre(d) and not d['rule']['6.18'] for d in S)
        ny = sum(not pre(d) and d['rule']['6.18'] for d in S)
        nn = len(S) - yy - yn - ny
        print('   %-18s %5d: trace preempted %s, rule %s; 2x2 (trace/rule) y/y %d y/n %d n/y %d '
              'n/n %d; agree %s' % (lab, len(S), pct(tp, len(S)), pct(rp, len(S)), yy, yn, ny, nn,
                                    pct(agree(S, '6.18'), len(S))))
    print('   by eligibility (waker, wakee): n, trace preempted, rule preempts')
    for wel in (True, False):
        for pel in (True, False):
            S = [d for d in D if d['wel'] == wel and d['pel'] == pel]
            print('     waker %-9s wakee %-9s %5d  %s  %s' % (
                'eligible' if wel else 'inelig.', 'eligible' if pel else 'inelig.', len(S),
                pct(sum(pre(d) for d in S), len(S)), pct(sum(d['rule']['6.18'] for d in S), len(S))))
    print('   by the wakee\'s last enqueue: n, trace preempted, rule preempts, wakee lag p10 p50 p90 (us)')
    for how, n in Counter(d['how'] for d in D).most_common():
        S = [d for d in D if d['how'] == how]
        print('     %-22s %5d  %s  %s  %s' % (how, n, pct(sum(pre(d) for d in S), n),
                                             pct(sum(d['rule']['6.18'] for d in S), n),
                                             fe.qs([d['lag'] for d in S], (10, 50, 90))))
    S1 = [d for d in D if d['nsend'] == 1]
    print('   1 sender queued, by the wakee\'s last enqueue: n, trace preempted, rule preempts')
    for how, n in Counter(d['how'] for d in S1).most_common():
        S = [d for d in S1 if d['how'] == how]
        print('     %-22s %5d  %s  %s' % (how, n, pct(sum(pre(d) for d in S), n),
                                         pct(sum(d['rule']['6.18'] for d in S), n)))
    print('   1 sender queued, preempted in the trace: the waker\'s run since its switch-in (a) and '
          'the wakee\'s last run before it blocked (b), us p25 p50 p75: a %s, b %s' % (
              fe.qs([d['a'] for d in S1 if pre(d)], (25, 50, 75)),
              fe.qs([d['b'] for d in S1 if pre(d) and d['b'] is not None], (25, 50, 75))))
    print('3. agreement of each rule (rule preempts == trace preempted), all / 1 / 2 / 3+ senders:')
    for rule in RULES:
        row = []
        for sel in (lambda d: True, lambda d: d['nsend'] == 1, lambda d: d['nsend'] == 2,
                    lambda d: d['nsend'] >= 3):
            S = [d for d in D if sel(d)]
            row.append('%s (%s pre.)' % (pct(agree(S, rule), len(S)),
                                         pct(sum(d['rule'][rule] for d in S), len(S)).strip()))
        print('   %-10s %s' % (rule, ' | '.join(row)))
    for d in r.lists:
        print('   %.6f cpu %d %d->%d %s, rule %s:' % (d['t'] / 1e9, d['c'], d['waker'], d['wakee'],
                                                    d['out'], 'preempt' if d['rule']['6.18'] else 'no'),
              ' '.join('%s%d v%+.1f d%+.1f %s%s' % (
                  'W' if p == d['waker'] else ('w' if p == d['wakee'] else ''), p, v / 1e3, dd / 1e3,
                  'E' if el else 'n', 'D' if dl else '') + ('' if vp is None else ' vprot%+.1f' % (vp / 1e3))
                  for p, v, dd, el, dl, vp in d['snap']))


def parse_pids(text):
    """--sender-pids: 'P,P-Q,...' -> a set of pids (None without the option)."""
    if not text:
        return None
    pids = set()
    for part in text.split(','):
        lo, _, hi = part.partition('-')
        pids.update(range(int(lo), int(hi or lo) + 1))
    return pids


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('input')
    ap.add_argument('--group-pid', type=int, required=True)
    ap.add_argument('--senders', type=int, default=10)
    ap.add_argument('--sender-pids', default=None,
                    help='comma-separated pids, ranges a-b allowed (instead of --senders)')
    ap.add_argument('--base-slice', type=int, default=1400000)
    ap.add_argument('--tick', type=int, default=4000000)
    ap.add_argument('--no-delay-zero', action='store_true')
    ap.add_argument('--v-excl-delayed', action='store_true')
    ap.add_argument('--no-inflate', action='store_true')
    ap.add_argument('--no-delay-dequeue', action='store_true')
    ap.add_argument('--no-clean-delayed', action='store_true')
    ap.add_argument('--keep-lag-at-pick', action='store_true')
    ap.add_argument('--attach-fifo', action='store_true')
    ap.add_argument('--no-exit-move', action='store_true')
    ap.add_argument('--list', type=int, default=0)
    a = ap.parse_args()
    evs = fe.parse(a.input)
    Rq.excl_delayed = a.v_excl_delayed
    Rebuild.fork_parent = {e['child']: e['pid'] for e in evs if e['ev'] == 'sched_process_fork'}
    named = parse_pids(a.sender_pids)
    ncpu = 1 + max(e['cpu'] for e in evs)
    r = Rebuild(evs, a.group_pid, ncpu, a.base_slice, a.tick, a.senders, a.no_delay_zero,
                a.no_inflate, a.no_delay_dequeue, a.list, not a.no_clean_delayed,
                a.keep_lag_at_pick, not a.attach_fifo, not a.no_exit_move, named)
    report(r, a)


if __name__ == '__main__':
    main()
