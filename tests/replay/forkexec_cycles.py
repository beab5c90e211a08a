#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""forkexec's `xargs` fork/exec cycle, trace against replay, decision by decision.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --placement trace --dump-events T.dump T.dat
  forkexec_cycles.py T.rep T.dump [--parent PID]

The parent is the task named `xargs` that forks most (--parent PID overrides).  Its children
are numbered in fork order on each side and matched by pid.  Both inputs are text in the
`trace-cmd report` line shape; a line of `trace-cmd report` names the task current on its CPU
(comm-pid), which is taken as running there (the capture kernel does not trace CPU 1's switches
out of idle); the dump has every switch.  Each side is followed as per-CPU state: the current
task and the set of runnable tasks queued (woken, forked or preempted, moved by
sched_migrate_task, taken off by their switch-in).  Printed, trace and replay:

  1. the parent's wakeup latency (waking -> switch-in): samples, sum, p50/p90/p95;
  2. its wakeups by the child's exec (the vfork release) by kind - local (waker and wakee on
     one CPU) or remote - and whether the previous child is queued on the parent's CPU then,
     with their latency sums;
  3. the pick when the parent blocks in vfork with its new child and one older child queued
     on its CPU: which runs first, by the older child's rank (k-1, k-2, ...);
  4. per fork/exec cycle (fork k -> fork k+1) whose start state is the same on both sides (the
     CPU and queue position of the parent and of every live child, CPUs named A, the parent's,
     and B), the first event that differs, per CPU (A, B) and for wakeups and migrations (W):
     the trace's, then the replay's.  Tokens: `X` the parent, `c+0` the new child, `c-1`,
     `c-2` older ones, `o` any other task; `P/S>N` a switch from P (state S) to N, `in:N` a
     switch-in from idle.
  5. (the first input only, a capture) the parent's local wakeups by a child on the parent's
     CPU, by whether a child was queued there at the parent's last fork and how many are queued
     at the wakeup: how many show the short gap (< 1.625 us) between the waker's
     sched_stat_runtime and the sched_wakeup - the kernel's requeue of a task still queued by
     DELAY_DEQUEUE (ttwu_runnable(): only the wakeup check's pick follows its update_curr()),
     against the whole enqueue after update_curr() of a task that had left its queue; and the
     same signature at the parent's next local wakeup after a vfork block beside an older child
     k-2 (item 3), by which child ran first at that block.

Analysis helper, not a test (docs/validation-log.md,
"Fifteenth pass: forkexec's extra `xargs` waits").
"""
import argparse
import os
import re
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sched_text import lines  # noqa: E402

RE_SW = re.compile(r'^(.+?):(\d+) \[(-?\d+)\] (\S+) ==> (.+?):(\d+) \[(-?\d+)\]')
RE_WK = re.compile(r'^(.+?):(\d+) \[(-?\d+)\] CPU:(\d+)')
RE_KV = re.compile(r'(\w+)=(\S+)')


def parse(path):
    """Events as dicts: cpu, t (ns), ev, ctx (pid current per the line, or None), in the
    file's order (sched_text.lines())."""
    out = []
    for t, _, cpu, ctx, ev, rest in lines(path):
        e = {'cpu': cpu, 't': t, 'ev': ev, 'ctx': ctx}
        if ev == 'sched_switch':
            s = RE_SW.match(rest)
            e.update(prev=int(s.group(2)), pcomm=s.group(1), pstate=s.group(4), next=int(s.group(6)),
                     ncomm=s.group(5))
        elif ev in ('sched_waking', 'sched_wakeup', 'sched_wakeup_new'):
            s = RE_WK.match(rest)
            if s:
                e.update(pid=int(s.group(2)), comm=s.group(1), tcpu=int(s.group(4)))
            else:
                kv = dict(RE_KV.findall(rest))
                e.update(pid=int(kv['pid']), comm=kv['comm'], tcpu=int(kv['target_cpu']))
        elif ev == 'sched_migrate_task':
            kv = dict(RE_KV.findall(rest))
            if 'pid' in kv:
                e.update(pid=int(kv['pid']), orig=int(kv['orig_cpu']), dest=int(kv['dest_cpu']))
            else:
                s = re.match(r'^(.+?):(\d+) orig_cpu=(\d+) dest_cpu=(\d+)', rest)
                e.update(pid=int(s.group(2)), orig=int(s.group(3)), dest=int(s.group(4)))
        elif ev == 'sched_process_fork':
            kv = dict(RE_KV.findall(rest))
            if 'child_pid' in kv:
                e.update(pid=int(kv['pid']), pcomm=kv.get('comm', ''), child=int(kv['child_pid']))
            else:
                s = re.match(r'^pid=(\d+) child=(.+?):(\d+)', rest)
                e.update(pid=int(s.group(1)), pcomm='', child=int(s.group(3)))
        out.append(e)
    return out


def find_parent(evs):
    comm = {}
    for e in evs:
        if e['ev'] == 'sched_switch':
            comm[e['prev']] = e['pcomm']
            comm[e['next']] = e['ncomm']
    forks = Counter(e['pid'] for e in evs if e['ev'] == 'sched_process_fork')
    for pid, _ in forks.most_common():
        if comm.get(pid) == 'xargs':
            return pid
    return forks.most_common(1)[0][0]


class Side:
    """One input followed as per-CPU state; collects what the report prints."""

    def __init__(self, evs, xpid, ncpu):
        self.x = xpid
        self.curr = [0] * ncpu
        self.q = [set() for _ in range(ncpu)]
        self.idx, self.forks = {}, []
        self.wakes = []          # the parent's wakeups: dict per wakeup
        self.picks = Counter()   # (older child's rank, who ran first)
        self.cycles = {}         # child pid -> {'state', 'seq'}
        self.pend = None
        self.cur = None
        self.a = None
        self.last_cpu = None         # the parent's CPU when it last ran
        self.fork_alone = None       # no child queued on its CPU at its last fork
        self.stat = None             # the first sched_stat_runtime after its waking
        self.requeue = defaultdict(Counter)
        self.after_block = Counter()   # (who ran first at a k-2 block, signature of next wakeup)
        self.block_flag = None
        for e in evs:
            self.step(e)

    def name(self, p, k):
        if p == self.x:
            return 'X'
        if p in self.idx:
            return 'c%+d' % (self.idx[p] - k)
        return 'idle' if p == 0 else 'o'

    def side(self, c):
        return 'A' if c == self.a else 'B'

    def state(self, k):
        s = []
        for c in range(len(self.curr)):
            s.append(self.side(c) + 'run:' + self.name(self.curr[c], k))
            s.append(self.side(c) + 'q:' + ','.join(sorted(
                self.name(p, k) for p in self.q[c] if p in self.idx or p == self.x)))
        return tuple(sorted(s))

    def note(self, tok):
        if self.cur is not None:
            self.cur['seq'].append(tok)

    def switch_in(self, c, p, t, tok):
        """p is now current on c (a traced switch or, in the trace, an event in its context)."""
        self.curr[c] = p
        for qq in self.q:
            qq.discard(p)
        if p == self.x and self.pend is not None and 'cpu' in self.pend:
            self.pend['lat'] = t - self.pend['t']
            self.pend['prev'] = tok
            self.wakes.append(self.pend)
            self.pend = None

    def step(self, e):
        c, ev, t = e['cpu'], e['ev'], e['t']
        if e['ctx'] is not None and ev != 'sched_switch' and e['ctx'] != self.curr[c]:
            if self.cur is not None and (e['ctx'] in self.idx or e['ctx'] == self.x):
                self.note(self.side(c) + ':in:' + self.name(e['ctx'], self.cur['k']))
            self.switch_in(c, e['ctx'], t, None)
        if ev == 'sched_switch':
            k = self.cur['k'] if self.cur else 0
            if self.cur is not None and (e['prev'] in self.idx or e['prev'] == self.x or
                                         e['next'] in self.idx or e['next'] == self.x):
                if e['prev'] == 0:
                    self.note(self.side(c) + ':in:' + self.name(e['next'], k))
                else:
                    self.note(self.side(c) + ':' + self.name(e['prev'], k) + '/' + e['pstate'][0] +
                              '>' + self.name(e['next'], k))
            if e['prev'] == self.x and e['pstate'].startswith('S') and self.cur is not None and \
                    not self.cur.get('blocked'):
                self.cur['blocked'] = True
                new = self.forks[-1]
                older = [p for p in self.q[c] if p in self.idx and p != new]
                if new in self.q[c] and len(older) == 1:
                    rank = self.idx[older[0]] - self.idx[new]
                    who = 'new' if e['next'] == new else ('older' if e['next'] == older[0] else 'other')
                    self.picks[(rank, who)] += 1
                    self.block_flag = who if rank == -2 and who != 'other' else None
                else:
                    self.block_flag = None
            if e['prev'] == self.x:
                self.last_cpu = c
            if e['pstate'].startswith('R') and e['prev'] != 0:
                self.q[c].add(e['prev'])
            self.switch_in(c, e['next'], t, e['prev'])
        elif ev == 'sched_stat_runtime':
            if self.pend is not None and 'cpu' not in self.pend and c == self.pend['wcpu'] and \
                    self.stat is None:
                self.stat = t
        elif ev == 'sched_waking':
            if e['pid'] == self.x:
                self.stat = None
            if e['pid'] == self.x and self.pend is None:
                waker = e['ctx'] if e['ctx'] is not None else self.curr[c]
                self.pend = {'t': t, 'waker': waker, 'wcpu': c}
        elif ev == 'sched_wakeup':
            p, tc = e['pid'], e['tcpu']
            if p == self.x and self.pend is not None and 'cpu' not in self.pend:
                local = c == tc == self.pend['wcpu'] == self.last_cpu and self.stat is not None
                if self.block_flag is not None:
                    sig = ('short' if t - self.stat < 1625 else 'long') if local else 'not local'
                    self.after_block[(self.block_flag, sig)] += 1
                    self.block_flag = None
                if local:
                    nq = len([x for x in self.q[tc] if x in self.idx])
                    key = ('no child' if self.fork_alone else 'a child') + ' queued at the fork, ' + \
                        '%d queued at the wakeup' % min(nq, 2)
                    self.requeue[key]['short' if t - self.stat < 1625 else 'long'] += 1
                self.pend['cpu'] = tc
                self.pend['queued'] = set(self.q[tc])
                self.note('W:wakeX>' + self.side(tc))
            if self.curr[tc] != p:
                self.q[tc].add(p)
        elif ev == 'sched_wakeup_new':
            self.q[e['tcpu']].add(e['pid'])
            if e['pid'] in self.idx:
                self.note('W:fork>' + self.side(e['tcpu']))
        elif ev == 'sched_migrate_task':
            p = e['pid']
            if p in self.q[e['orig']]:
                self.q[e['orig']].discard(p)
                self.q[e['dest']].add(p)
            if self.cur is not None and (p in self.idx or p == self.x):
                self.note('W:mig:' + self.name(p, self.cur['k']) + '>' + self.side(e['dest']))
        elif ev == 'sched_process_fork' and e['pid'] == self.x:
            self.fork_alone = not any(p in self.idx for p in self.q[c])
            k = len(self.forks)
            self.idx[e['child']] = k
            self.forks.append(e['child'])
            self.a = c
            self.cur = {'k': k, 'state': self.state(k), 'seq': []}
            self.cycles[e['child']] = self.cur


def pct(v, n):
    return '%.1f %%' % (100.0 * v / n) if n else '-'


def latency_line(lats):
    lats = sorted(lats)
    n = len(lats)
    if not n:
        return 'no samples'
    return '%d samples, sum %.0f ms, p50 %.1f, p90 %.0f, p95 %.0f us' % (
        n, sum(lats) / 1e6, lats[n // 2] / 1e3, lats[n * 9 // 10] / 1e3, lats[n * 95 // 100] / 1e3)


def exec_wakes(s):
    """The parent's wakeups by a child, by kind and whether the previous child is queued."""
    out = defaultdict(list)
    for w in s.wakes:
        if w['waker'] not in s.idx or s.idx[w['waker']] == 0:
            continue
        prev = s.forks[s.idx[w['waker']] - 1]
        kind = 'local' if w['wcpu'] == w['cpu'] else 'remote'
        kind += ', previous child queued there' if prev in w['queued'] else ''
        out[kind].append(w['lat'])
    return out


def first_differences(tr, rp):
    same = identical = 0
    first = Counter()
    for p, tc in tr.cycles.items():
        rc = rp.cycles.get(p)
        if rc is None or tc['state'] != rc['state']:
            continue
        same += 1
        diff = None
        for side in 'AWB':
            ts = [x[2:] for x in tc['seq'] if x[0] == side]
            rs = [x[2:] for x in rc['seq'] if x[0] == side]
            i = 0
            while i < min(len(ts), len(rs)) and ts[i] == rs[i]:
                i += 1
            if i < len(ts) or i < len(rs):
                diff = (side, ts[i] if i < len(ts) else 'END', rs[i] if i < len(rs) else 'END')
                break
        if diff is None:
            identical += 1
        else:
            first[diff] += 1
    return same, identical, first


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('trace', help='trace-cmd report -t of the capture')
    ap.add_argument('dump', help='schedreplay replay --dump-events output')
    ap.add_argument('--parent', type=int, help='pid of the forking parent (default: xargs)')
    ap.add_argument('--top', type=int, default=12, help='first differences shown (default 12)')
    a = ap.parse_args()
    evs = [parse(a.trace), parse(a.dump)]
    xpid = a.parent or find_parent(evs[0])
    ncpu = 1 + max(e['cpu'] for ev in evs for e in ev)
    tr, rp = (Side(ev, xpid, ncpu) for ev in evs)
    print('parent %d, forks: trace %d, replay %d' % (xpid, len(tr.forks), len(rp.forks)))
    print('\n1. the parent\'s wakeup latency')
    for label, s in (('trace', tr), ('replay', rp)):
        print('  %-6s %s' % (label, latency_line([w['lat'] for w in s.wakes])))
    print('\n2. its wakeups by a child (count, latency sum): trace / replay')
    tw, rw = exec_wakes(tr), exec_wakes(rp)
    for kind in sorted(set(tw) | set(rw)):
        print('  %-45s %5d %6.0f ms / %5d %6.0f ms' % (kind, len(tw[kind]), sum(tw[kind]) / 1e6,
                                                     len(rw[kind]), sum(rw[kind]) / 1e6))
    print('\n3. the parent blocks in vfork, its new child and one older child queued: who runs first')
    for rank in sorted({r for r, _ in tr.picks} | {r for r, _ in rp.picks}, reverse=True)[:4]:
        cells = []
        for s in (tr, rp):
            n = sum(v for (r, _), v in s.picks.items() if r == rank)
            cells.append('older %d, new %d (older first %s)' % (
                s.picks[(rank, 'older')], s.picks[(rank, 'new')], pct(s.picks[(rank, 'older')], n)))
        print('  older child c%+d: trace %s; replay %s' % (rank, cells[0], cells[1]))
    same, identical, first = first_differences(tr, rp)
    print('\n4. cycles with the trace\'s start state: %d of %d; identical: %d (%s)' % (
        same, len(tr.forks), identical, pct(identical, same)))
    print('   first difference (where, trace, replay): count')
    for key, n in first.most_common(a.top):
        print('  %-55s %d' % (key, n))
    print('\n5. the trace\'s local wakeups of the parent on its CPU: short stat_runtime -> wakeup gap '
          '(requeued from DELAY_DEQUEUE) / all')
    for key in sorted(tr.requeue):
        n = sum(tr.requeue[key].values())
        print('  %-55s %4d / %4d (%s)' % (key, tr.requeue[key]['short'], n, pct(tr.requeue[key]['short'], n)))
    print('   the next local wakeup after a vfork block beside child k-2 (short / long / not local):')
    for who in ('older', 'new'):
        ab = tr.after_block
        print('  %-55s %4d / %4d / %4d' % (who + ' child ran first', ab[(who, 'short')], ab[(who, 'long')],
                                           ab[(who, 'not local')]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
