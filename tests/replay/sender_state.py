#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hackbench's local sender -> receiver wakeups, trace against a replay dump, wake record by wake record.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --seed N [options] --dump-events T.dump --dump-wake-records T.dat
  sender_state.py T.rep T.dump --group-pid PID [--senders N] [--list N]

Both inputs are rebuilt with hackbench_eevdf.py's Rebuild (the pipe group's per-CPU EEVDF queue
under the 6.18 rules, the 6.18.33+ wakeup check at each local wakeup between group tasks; PID
and the senders as there).  A wake record is the trace's (wakee, sched_waking time): in the
trace that is the sched_waking itself; in the dump, the `replay_op: wake pid=Y trace=T` line
before each replayed wake's sched_waking names it (docs/replay.md, "Output": --dump-wake-records,
with the other replay_op lines used here - `early`, the wake reached its reader before the block
it ends, then `standin` / `skipblock` / `noblock`, what that block became; `wait ... kind=K`,
what a hand-off WAIT became).  A dump without them gives no matches.

For each trace decision (a local sender -> receiver wakeup with the waker current) the record's
fate in the replay: a local decision too (matched), delivered early (then a stand-in, a skipped
block, or no block), a remote or otherwise non-local wakeup, or not delivered.

For the matched ones: the sender's v - V, its eligibility, the senders queued, the receiver's
lag (V - v at the check), the rule's decision, on the kernel's rebuilt state and on the replay's;
and for those where the replay's sender is eligible and the kernel's is not, what the replay's
sender did since its previous such decision (the previous local wakeup of a receiver it was
checked at), one cause per wakeup, first match in this order:
  wait-slept         it slept at a hand-off WAIT (after a hand-over or not)
  slept              it slept otherwise (a traced BLOCK: pipe full, the trace's sleep too or not)
  handover           a hand-off WAIT handed the CPU over to its wakee (--handoff skip) and it was
                     not preempted by a wakeup in the replay at that wake record
  early              one of its wakes since reached its reader before the reader's block (no check)
  preempted          switched out runnable (a wakeup preemption, a tick), none of the above
  migrated           moved to another CPU, none of the above
  ran                it ran on without any of the above: the queue's other entities differ
with the same history for the kernel's sender beside it (slept / switched out runnable / ran),
the receiver's last block (eligible, or ineligible: left delayed), the onsets (such a wakeup
whose sender's previous decision in the replay was not one) by cause.  Last, every receiver
block on each side: the share that blocks ineligible (left delayed, so that the pick that
dequeues it gives it lag 0: DELAY_ZERO), by how its run began - a preempting wakeup, a
pick at a block, another preemption, or (the replay) a hand-off WAIT's hand-over.

Analysis helper, not a test (docs/validation-log.md, "The replay's senders, wake record by wake
record").
"""
import argparse
import re
import sys
from collections import Counter, defaultdict

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import forkexec_eevdf as fe  # noqa: E402
import hackbench_eevdf as hb  # noqa: E402

RE_OP = re.compile(r'^\[(\d+)\]\s+([\d.]+):\s+replay_op:\s+(\w+)\s+(.*)$')
RE_KV = re.compile(r'(\w+)=(\S+)')


def read_ops(path):
    """The dump's replay_op lines, in order."""
    out = []
    with open(path) as f:
        for line in f:
            if ' replay_op: ' not in line:
                continue
            m = RE_OP.match(line)
            kv = dict(RE_KV.findall(m.group(4)))
            out.append(dict(what=m.group(3), pid=int(kv['pid']), trace=int(kv.get('trace', -1)),
                            waker=int(kv.get('waker', -1)), y=int(kv.get('y', -1)),
                            kind=kv.get('kind', '')))
    return out


class Rebuild(hb.Rebuild):
    """hb.Rebuild recording each decision's wake record, the waker's history before it, and
    each receiver block's eligibility with how the receiver had been switched in."""
    dump = False

    def __init__(self, evs, ops, *a, **k):
        self.ops = iter(ops)
        self.key_of = {}            # wakee -> the wake record of its pending sched_waking
        self.op_key = {}            # wakee -> the record the dump's last `wake` line named
        self.hist = defaultdict(list)
        self.fate = {}              # wake record -> what the dump did with it
        self.runflags = defaultdict(set)  # task -> early-wake kinds (stand-in, ...) since its last sleep
        self.block_el = {}          # task -> its last block: 'eligible' or 'ineligible (delayed)'
        self.block_flags = {}       # task -> the early-wake kinds of the run that block ended
        self.last_dec = {}          # sender -> the wake record of its last decision
        self.handover_at = {}       # CPU -> the time of its last hand-over (replay_op wait handover)
        self.inby = {}              # receiver -> how its current run began
        self.rblocks = []           # every receiver block: (eligible, how its run began, flags)
        super().__init__(evs, *a, **k)

    def note(self, pid, tag):
        self.hist[pid].append(tag)

    def on_op(self, d):
        if d['what'] == 'wake':
            self.op_key[d['pid']] = d['trace']
            self.fate.setdefault((d['pid'], d['trace']), 'woken')
        elif d['what'] in ('early', 'standin', 'skipblock', 'noblock'):
            k = (d['pid'], d['trace'])
            self.fate[k] = d['what'] if d['what'] != 'early' else self.fate.get(k, 'early')
            if d['what'] == 'early':
                if d['waker'] >= 0:
                    self.note(d['waker'], 'early')
            else:
                self.runflags[d['pid']].add(d['what'])
        elif d['what'] == 'wait':
            self.note(d['pid'], 'wait-' + d['kind'])
            if d['kind'] == 'handover':
                self.handover_at[self.cpu.get(d['pid'])] = self.t

    def on_switch_seen(self, e):
        c, p, n = e['cpu'], e['prev'], e['next']
        rq = self.rq[c]
        runnable = e['pstate'].startswith('R')
        self.note(p, 'out-R' if runnable else 'out-S')
        receivers = set(self.kids[:-self.senders_n])
        if not runnable and p in rq.q:
            self.block_el[p] = 'eligible' if rq.eligible(rq.q[p]) else 'ineligible (delayed)'
            self.block_flags[p] = '+'.join(sorted(self.runflags[p])) or 'plain'
            if p in receivers:
                self.rblocks.append((self.block_el[p] == 'eligible', self.inby.get(p, '?'),
                                     self.block_flags[p]))
        if not runnable:
            self.runflags[p] = set()
        if n in receivers:
            d = self.open[c]
            if self.handover_at.get(c) == self.t:
                self.inby[n] = 'hand-over'
            elif runnable and d is not None and d['wakee'] == n and d['rule']['6.18']:
                self.inby[n] = 'preempting wakeup'
            elif runnable:
                self.inby[n] = 'other preemption'
            else:
                self.inby[n] = 'pick at a block'

    def step(self, e):
        ev = e['ev']
        if ev == 'replay_op':
            self.on_op(next(self.ops))
            return
        if ev == 'sched_waking':
            p = e['pid']
            if self.dump:
                t = self.op_key.pop(p, None)
                self.key_of[p] = None if t is None else (p, t)
            else:
                self.key_of[p] = (p, e['t'])
            w = e['ctx'] if e['ctx'] is not None else self.running[e['cpu']]
            if w is not None:
                self.note(w, 'waking')
        elif ev == 'sched_switch':
            self.on_switch_seen(e)
        elif ev == 'sched_migrate_task':
            self.note(e['pid'], 'migrated')
        super().step(e)

    def decide(self, c, waker, wakee):
        rq = self.rq[c]
        pre = None
        if waker in rq.q and rq.curr == waker and wakee in rq.q:
            V = rq.V()
            pre = dict(sv=rq.q[waker].v - V, key=self.key_of.get(wakee), nq=len(rq.q))
        super().decide(c, waker, wakee)
        d = self.open[c]
        if pre is not None and d is not None and 'key' not in d:
            d.update(pre)
            d['prev'] = self.last_dec.get(waker)
            d['rblock'] = self.block_el.get(wakee, '-')
            d['rflags'] = self.block_flags.get(wakee, '-')
            self.last_dec[waker] = d['key']
            # the waker's history since its previous decision (this one's sched_waking last)
            h = self.hist.get(waker, [])
            d['hist'] = h[:-1] if h and h[-1] == 'waking' else h
            self.hist[waker] = []


def rebuild(path, ops, a):
    evs = fe.parse(path)
    hb.Rebuild.fork_parent = {e['child']: e['pid'] for e in evs if e['ev'] == 'sched_process_fork'}
    fe.Rebuild.fork_parent = hb.Rebuild.fork_parent
    ncpu = 1 + max(e['cpu'] for e in evs)
    Rebuild.dump = ops is not None
    return Rebuild(evs, ops or [], a.group_pid, ncpu, a.base_slice, a.tick, a.senders)


def pct(a, b):
    return '%5.1f %%' % (100.0 * a / b) if b else '    -  '


CAUSES = ('wait-slept', 'slept', 'handover', 'early', 'preempted', 'migrated', 'ran')


def cause(h):
    if any(x.startswith('wait-slept') for x in h):
        return 'wait-slept'
    if 'out-S' in h:
        return 'slept'
    if any(x.startswith('wait-handover') for x in h):
        return 'handover'
    if 'early' in h:
        return 'early'
    if 'out-R' in h:
        return 'preempted'
    if 'migrated' in h:
        return 'migrated'
    return 'ran'


def kcause(h):
    return 'slept' if 'out-S' in h else 'out R' if 'out-R' in h else \
        'migrated' if 'migrated' in h else 'ran'


def rebuild_args():
    """The command line of this script and of those built on its rebuild
    (receiver_lag.py): TRACE.rep DUMP --group-pid PID and the rebuild's knobs."""
    ap = argparse.ArgumentParser()
    ap.add_argument('trace')
    ap.add_argument('dump')
    ap.add_argument('--group-pid', type=int, required=True)
    ap.add_argument('--senders', type=int, default=10)
    ap.add_argument('--base-slice', type=int, default=1400000)
    ap.add_argument('--tick', type=int, default=4000000)
    ap.add_argument('--list', type=int, default=0)
    return ap


def main():
    a = rebuild_args().parse_args()
    ops = read_ops(a.dump)
    K = rebuild(a.trace, None, a)
    R = rebuild(a.dump, ops, a)
    kd = {d['key']: d for d in K.dec if d['s'] and d.get('key') is not None}
    rd = {d['key']: d for d in R.dec if d['s'] and d.get('key') is not None}
    print('local sender -> receiver decisions: trace %d, replay %d (%d with a wake record), '
          'matched %d' % (len(kd), sum(d['s'] for d in R.dec), len(rd), len(set(kd) & set(rd))))
    if not ops:
        print('the dump has no replay_op lines: nothing to match')
        return
    print('the trace\'s decisions\' wake records in the replay:')
    fates = Counter()
    for k in kd:
        if k in rd:
            fates['a local sender -> receiver decision (matched)'] += 1
        else:
            f = R.fate.get(k)
            fates[{'woken': 'woken, no such decision (remote, or the waker not current)',
                   None: 'no wake seen (not reached by the end, or dropped)'}.get(f, 'early: ' + str(f))] += 1
    for f, n in fates.most_common():
        print('   %-60s %6d  %s' % (f, n, pct(n, len(kd))))
    M = [(kd[k], rd[k]) for k in kd if k in rd]
    n = len(M)
    kel = sum(k['wel'] for k, r in M)
    rel = sum(r['wel'] for k, r in M)
    print('matched %d: sender eligible kernel %s, replay %s; rule preempts kernel %s, replay %s; '
          'trace preempted %s, replay preempted %s' % (
              n, pct(kel, n), pct(rel, n), pct(sum(k['rule']['6.18'] for k, r in M), n),
              pct(sum(r['rule']['6.18'] for k, r in M), n),
              pct(sum(k['out'].startswith('preempted') for k, r in M), n),
              pct(sum(r['out'].startswith('preempted') for k, r in M), n)))
    print('   sender eligible (kernel/replay): y/y %d y/n %d n/y %d n/n %d' % (
        sum(k['wel'] and r['wel'] for k, r in M), sum(k['wel'] and not r['wel'] for k, r in M),
        sum(not k['wel'] and r['wel'] for k, r in M), sum(not k['wel'] and not r['wel'] for k, r in M)))
    print('   sender v - V (us, p10 p25 p50 p75 p90): kernel %s, replay %s, replay - kernel %s' % (
        fe.qs([k['sv'] for k, r in M]), fe.qs([r['sv'] for k, r in M]),
        fe.qs([r['sv'] - k['sv'] for k, r in M])))
    print('   receiver lag at the check (us): kernel %s, replay %s' % (
        fe.qs([k['lag'] for k, r in M]), fe.qs([r['lag'] for k, r in M])))
    print('   the receiver\'s last enqueue (kernel / replay): %s' % ', '.join(
        '%s %d / %d' % (h, sum(k['how'] == h for k, r in M), sum(r['how'] == h for k, r in M))
        for h in sorted(set(k['how'] for k, r in M) | set(r['how'] for k, r in M))))
    print('   the receiver\'s last block (kernel / replay): %s' % ', '.join(
        '%s %d / %d' % (h, sum(k['rblock'] == h for k, r in M), sum(r['rblock'] == h for k, r in M))
        for h in sorted(set(k['rblock'] for k, r in M) | set(r['rblock'] for k, r in M))))
    print('   senders queued the same: %d of %d; replay more %d, fewer %d' % (
        sum(k['nsend'] == r['nsend'] for k, r in M), n, sum(r['nsend'] > k['nsend'] for k, r in M),
        sum(r['nsend'] < k['nsend'] for k, r in M)))
    print('   by the replay sender\'s history since its previous decision: n, eligible kernel, '
          'replay, rule preempts kernel, replay')
    for c in CAUSES:
        S = [(k, r) for k, r in M if cause(r['hist']) == c]
        if S:
            print('     %-12s %5d  %s  %s  %s  %s' % (c, len(S), pct(sum(k['wel'] for k, r in S), len(S)),
                                                    pct(sum(r['wel'] for k, r in S), len(S)),
                                                    pct(sum(k['rule']['6.18'] for k, r in S), len(S)),
                                                    pct(sum(r['rule']['6.18'] for k, r in S), len(S))))
    X = [(k, r) for k, r in M if r['wel'] and not k['wel']]
    print('replay sender eligible, kernel sender not: %d of %d' % (len(X), n))
    print('   %-12s %6s   kernel sender since its previous decision: slept / out R / migrated / ran'
          % ('cause', 'n'))
    for c in CAUSES:
        S = [(k, r) for k, r in X if cause(r['hist']) == c]
        if S:
            kc = Counter(kcause(k['hist']) for k, r in S)
            print('   %-12s %6d  %s   %d / %d / %d / %d   replay v-V %s, kernel v-V %s, senders queued '
                  'replay-kernel %s' % (c, len(S), pct(len(S), len(X)), kc['slept'], kc['out R'],
                                        kc['migrated'], kc['ran'], fe.qs([r['sv'] for k, r in S], (25, 50, 75)),
                                        fe.qs([k['sv'] for k, r in S], (25, 50, 75)),
                                        ' '.join('%+d:%d' % kv for kv in sorted(Counter(
                                            r['nsend'] - k['nsend'] for k, r in S).items()))))
    print('   the receiver\'s last block (kernel / replay): %s' % ', '.join(
        '%s %d / %d' % (h, sum(k['rblock'] == h for k, r in X), sum(r['rblock'] == h for k, r in X))
        for h in sorted(set(k['rblock'] for k, r in X) | set(r['rblock'] for k, r in X))))
    print('   the receiver\'s last block in the replay, by the early wakes of the run it ended: %s' % ', '.join(
        '%s / %s %d' % (kv[0][0], kv[0][1], kv[1]) for kv in Counter(
            (r['rblock'], r['rflags']) for k, r in X).most_common(6)))
    print('   entities queued at the check (wakee included), kernel: %s; replay: %s' % (
        ' '.join('%d:%d' % kv for kv in sorted(Counter(min(k['nq'], 6) for k, r in X).items())),
        ' '.join('%d:%d' % kv for kv in sorted(Counter(min(r['nq'], 6) for k, r in X).items()))))
    print('   receiver lag at the check (us, p25 p50 p75): kernel %s, replay %s' % (
        fe.qs([k['lag'] for k, r in X], (25, 50, 75)), fe.qs([r['lag'] for k, r in X], (25, 50, 75))))
    # onsets: the replay's previous decision of that sender was not such a one (or unmatched)
    xk = set(k['key'] for k, r in X)
    O = [(k, r) for k, r in X if r['prev'] not in xk]
    print('   of which onsets (the sender\'s previous decision in the replay not one of these): %d; '
          'the others follow one (the replay sender stayed eligible: %d)' % (len(O), len(X) - len(O)))
    print('   onsets by cause: %s' % ', '.join('%s %d' % (c, sum(cause(r['hist']) == c for k, r in O))
                                              for c in CAUSES))
    P = [(k, r) for k, r in X if r['prev'] in rd]
    print('   the replay\'s previous decision of that sender: rule preempted %d, not %d (none %d)' % (
        sum(rd[r['prev']]['rule']['6.18'] for k, r in P), sum(not rd[r['prev']]['rule']['6.18'] for k, r in P),
        len(X) - len(P)))
    print('receivers\' blocks: n, ineligible (left delayed: DELAY_ZERO gives them lag 0 when a pick '
          'dequeues them), by how the run began')
    for lab, B in (('kernel', K.rblocks), ('replay', R.rblocks)):
        print('   %-7s %6d  %s;  %s' % (lab, len(B), pct(sum(not b[0] for b in B), len(B)), ', '.join(
            '%s %d %s' % (h, c, pct(sum(not b[0] for b in B if b[1] == h), c).strip())
            for h, c in Counter(b[1] for b in B).most_common())))
    B = R.rblocks
    print('   replay, by the early wakes of the run: %s' % ', '.join(
        '%s %d %s' % (h, c, pct(sum(not b[0] for b in B if b[2] == h), c).strip())
        for h, c in Counter(b[2] for b in B).most_common(5)))
    for k, r in X[:a.list]:
        print('   %.6f %d->%d kernel v-V %+.1f lag %+.1f nsend %d %s | replay %.6f v-V %+.1f lag %+.1f '
              'nsend %d %s | %s | %s' % (k['t'] / 1e9, k['waker'], k['wakee'], k['sv'] / 1e3,
                                         k['lag'] / 1e3, k['nsend'], k['out'], r['t'] / 1e9,
                                         r['sv'] / 1e3, r['lag'] / 1e3, r['nsend'], r['out'],
                                         ' '.join(k['hist']), ' '.join(r['hist'])))


if __name__ == '__main__':
    main()
