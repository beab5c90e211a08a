#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hackbench's sender -> receiver wakeups whose path differs between a capture and a replay,
wake record by wake record, with the wakeup check's reason on each side's rebuilt EEVDF state.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --seed N --dump-events T.N.ev --dump-wake-records --dump-samples T.N.smp T.dat
  preempt_pairs.py T.rep --group-pid PID [--senders N | --sender-pids P,P-Q,...]
                   [--trace-path queued_local] [--dump-path preempt_local] [--check]
                   T.1.ev:T.1.smp ...

The wakeup samples of the dump's `--dump-samples` file (origin `wake`, the group's comm) are
paired with the measured sample of the same wake record (docs/replay.md, "Output"); a pair
whose measured path is --trace-path and predicted path --dump-path (default: the kernel queued
the wakee behind the waker, the replay preempted at once: small-hackbench's p50 term,
docs/validation-log.md "small-hackbench's fast local preemptions and small-nowaking's
stand-ins, state by state") is looked up in both rebuilds of hackbench_eevdf.py (the capture's
and the dump's: the group's per-CPU EEVDF queue, the 6.18.33 wakeup check) by the wakee and
the record's traced `sched_waking` (the dump's `replay_op: wake` line names it).  For each side the check's reason is one of:
  need-resched set      a resched was pending, no check (the rebuild's bit)
  wakee delayed         still DELAY_DEQUEUEd: never preempts
  wakee not eligible    its vruntime past the queue's average
  curr protected        the waker eligible and inside its protected slice (`protect_slice()`)
  curr earlier          the waker eligible with an earlier deadline
  third earlier         another queued, eligible entity has an earlier deadline than the wakee:
                        `pick_next_entity()` does not give the wakee (WAKEUP_PICK_NEXT)
  wakee is the pick     the rule preempts
  other                 the rule does not preempt, for none of the above (a delayed winner)
  not matched           the rebuild made no decision for that record (waker or wakee not on
                        that CPU's group queue)
Printed per dump: the pairs, the table of (capture's reason, dump's reason), the entities
queued besides the waker and the wakee on each side (runnable, or with a delayed one among
them), the waker's time since its last wakeup on each side, and the dump waker's last sleep (a traced block, or a
hand-off WAIT slept: `replay_op: wait ... kind=slept*`), for the pairs and for all the dump's
sender -> receiver decisions.  --check: exit 1 unless each table adds up to its pairs and 90 %
of the pairs were matched to a decision on both sides (ctest `replay_preempt_pairs`).  Analysis
helper, not a test.
"""
import argparse
import bisect
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forkexec_eevdf as fe  # noqa: E402
import hackbench_eevdf as he  # noqa: E402

RE_WAKEUP = re.compile(r'(\d+)\.(\d+): sched_wakeup: +\S+?:(\d+) ')
RE_WAKING = re.compile(r'(\d+)\.(\d+): sched_waking: +(?:comm=\S+ pid=(\d+)|\S+?:(\d+) )')
RE_OPWAKE = re.compile(r'(\d+)\.(\d+): replay_op: wake pid=(\d+) trace=(\d+)')
RE_SLEEP = re.compile(r'(\d+)\.(\d+): sched_switch: +\S+?:(\d+) \[\d+\] S ')


def ns(a, b):
    return int(a) * 10**9 + int(b.ljust(9, '0')[:9])


def rebuild(path, a, senders):
    evs = fe.parse(path)
    he.Rebuild.fork_parent = {e['child']: e['pid'] for e in evs if e['ev'] == 'sched_process_fork'}
    ncpu = 1 + max(e['cpu'] for e in evs)
    return he.Rebuild(evs, a.group_pid, ncpu, a.base_slice, a.tick, a.senders,
                      sender_pids=senders, snap_all=True)


def reason(d):
    if d is None:
        return 'not matched'
    if d['kind'] != 'checked':
        return 'need-resched set'
    if d['rule']['6.18']:
        return 'wakee is the pick'
    snap = d['snap']
    w = next(x for x in snap if x[0] == d['wakee'])
    W = next(x for x in snap if x[0] == d['waker'])
    if w[4]:
        return 'wakee delayed'
    if not w[3]:
        return 'wakee not eligible'
    if W[3] and W[5] is not None and W[5] > 0:
        return 'curr protected'
    third = any(p not in (d['waker'], d['wakee']) and el and not dl and dd < w[2]
                for p, v, dd, el, dl, vp in snap)
    if W[3] and W[2] < w[2] and not third:
        return 'curr earlier'
    if third:
        return 'third earlier'
    return 'other'


def wakeups(path):
    """pid -> sorted sched_wakeup times."""
    out = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            m = RE_WAKEUP.search(line)
            if m:
                out[int(m.group(3))].append(ns(m.group(1), m.group(2)))
    return out


def since(times, pid, t):
    v = times.get(pid, [])
    i = bisect.bisect_right(v, t) - 1
    return (t - v[i]) / 1e3 if i >= 0 else None


def qline(v):
    v = sorted(x for x in v if x is not None)
    if not v:
        return '-'
    return ' '.join('%.0f' % v[int(p * (len(v) - 1))] for p in (0.25, 0.5, 0.75))


def by_record(r, record):
    """r's decisions by wake record: record maps (wakee, the decision's time) to the record's
    traced sched_waking time."""
    out = {}
    for d in r.dec:
        k = record.get((d['wakee'], d['t']))
        if k is not None:
            out[(d['wakee'], k)] = d
    return out


def trace_keyed(rep, r):
    """The capture's decisions by (wakee, traced sched_waking time of that wakeup)."""
    waking, key = {}, {}
    with open(rep) as f:
        for line in f:
            m = RE_WAKING.search(line)
            if m:
                waking[int(m.group(3) or m.group(4))] = ns(m.group(1), m.group(2))
                continue
            m = RE_WAKEUP.search(line)
            if m and int(m.group(3)) in waking:
                p = int(m.group(3))
                key[(p, ns(m.group(1), m.group(2)))] = waking[p]
    return by_record(r, key)


def dump_keyed(ev, r):
    """The dump's decisions by (wakee, the wake record's traced time)."""
    op = {}
    with open(ev) as f:
        for line in f:
            m = RE_OPWAKE.search(line)
            if m:
                op[(int(m.group(3)), ns(m.group(1), m.group(2)))] = int(m.group(4))
    return by_record(r, op)


def last_sleeps(ev):
    """pid -> sorted (time, 'hand-off WAIT' | 'block') of the dump's switches out asleep."""
    out = collections.defaultdict(list)
    last_op = ''
    with open(ev) as f:
        for line in f:
            m = RE_SLEEP.search(line)
            if m:
                pid = m.group(3)
                wait = 'kind=slept' in last_op and (' pid=%s ' % pid) in last_op
                out[int(pid)].append((ns(m.group(1), m.group(2)), 'hand-off WAIT' if wait else 'block'))
            if 'replay_op:' in line:
                last_op = line
    return out


def pairs(smp, comm, tpath, dpath):
    meas, pred = {}, []
    with open(smp) as f:
        for line in f:
            if line.startswith('#'):
                continue
            t = line.rstrip('\n').split('\t')
            if t[1] != 'wakeup' or not t[12].startswith(comm):
                continue
            if t[0] == 'measured':
                meas[(int(t[2]), int(t[4]))] = t[8]
            elif t[9] == 'wake' and t[10] != '-' and t[8] == dpath:
                pred.append((int(t[2]), int(t[10])))
    return [k for k in pred if meas.get(k) == tpath]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('rep')
    ap.add_argument('dumps', nargs='+', help='EV:SMP, one per seed')
    ap.add_argument('--group-pid', type=int, required=True)
    ap.add_argument('--senders', type=int, default=10)
    ap.add_argument('--sender-pids', default=None)
    ap.add_argument('--comm', default='hackbench')
    ap.add_argument('--trace-path', default='queued_local')
    ap.add_argument('--dump-path', default='preempt_local')
    ap.add_argument('--base-slice', type=int, default=1400000)
    ap.add_argument('--tick', type=int, default=4000000)
    ap.add_argument('--check', action='store_true',
                    help='exit 1 unless each table adds up to its pairs and 90 %% of the pairs '
                         'were matched to a rebuilt decision on both sides')
    a = ap.parse_args()
    senders = he.parse_pids(a.sender_pids)
    rt = rebuild(a.rep, a, senders)
    tk = trace_keyed(a.rep, rt)
    tw = wakeups(a.rep)
    print('%s: %d sender -> receiver decisions rebuilt, %d keyed by wake record'
          % (a.rep, sum(d['s'] for d in rt.dec), len(tk)))
    total = collections.Counter()
    for spec in a.dumps:
        ev, _, smp = spec.partition(':')
        if not smp:
            sys.exit('preempt_pairs.py: %s: give each dump as EV:SMP' % spec)
        rd = rebuild(ev, a, senders)
        dk = dump_keyed(ev, rd)
        dw = wakeups(ev)
        sl = last_sleeps(ev)
        keys = pairs(smp, a.comm, a.trace_path, a.dump_path)
        table = collections.Counter()
        st, sd, kinds = [], [], collections.Counter()
        qn = {'capture': collections.Counter(), 'dump': collections.Counter()}
        for k in keys:
            td, d = tk.get(k), dk.get(k)
            if td is not None and not td['s'] or d is not None and not d['s']:
                table[('not sender -> receiver', '')] += 1
                continue
            table[(reason(td), reason(d))] += 1
            for side, x in (('capture', td), ('dump', d)):
                if x is not None and x['snap']:
                    others = [e for e in x['snap'] if e[0] not in (x['waker'], x['wakee'])]
                    qn[side][(min(len(others), 2), sum(e[4] for e in others) > 0)] += 1
            if td is not None and d is not None:
                st.append(since(tw, td['waker'], td['t']))
                sd.append(since(dw, d['waker'], d['t']))
                v = sl.get(d['waker'], [])
                i = bisect.bisect_right([x[0] for x in v], d['t']) - 1
                kinds[v[i][1] if i >= 0 else 'none'] += 1
        total.update(table)
        if a.check:
            unmatched = sum(n for (x, y), n in table.items() if 'not matched' in (x, y))
            if sum(table.values()) != len(keys) or not keys or unmatched > 0.1 * len(keys):
                print('preempt_pairs.py: check failed on %s: %d pairs, the table adds up to %d, '
                      '%d not matched' % (ev, len(keys), sum(table.values()), unmatched))
                sys.exit(1)
        print('\n%s: %d wake records %s in the trace, %s in the dump' % (ev, len(keys), a.trace_path,
                                                                       a.dump_path))
        print('   %-22s %-22s %5s' % ('capture\'s reason', 'dump\'s reason', 'n'))
        for (x, y), n in table.most_common():
            print('   %-22s %-22s %5d' % (x, y, n))
        print('   the waker\'s time since its last wakeup, us p25 p50 p75: capture %s, dump %s'
              % (qline(st), qline(sd)))
        for side in ('capture', 'dump'):
            c = qn[side]
            print('   %-7s: entities queued besides the waker and the wakee (any delayed): %s' % (
                side, ', '.join('%d%s %d' % (k[0], '+' if k[0] == 2 else '', n) + (' (delayed)' if k[1] else '')
                                for k, n in sorted(c.items()))))
        allk = collections.Counter()
        for d in rd.dec:
            if d['s']:
                v = sl.get(d['waker'], [])
                i = bisect.bisect_right([x[0] for x in v], d['t']) - 1
                allk[v[i][1] if i >= 0 else 'none'] += 1
        print('   the dump waker\'s last sleep: %s (over all %d of the dump\'s sender -> receiver '
              'decisions: %s)' % (', '.join('%s %d' % kv for kv in kinds.most_common()),
                                  sum(allk.values()), ', '.join('%s %d' % kv for kv in allk.most_common())))
    if len(a.dumps) > 1:
        n = len(a.dumps)
        print('\nper run over %d dumps (capture\'s reason -> dump\'s reason):' % n)
        for (x, y), v in total.most_common():
            print('   %-22s %-22s %7.1f' % (x, y, v / n))


if __name__ == '__main__':
    main()
