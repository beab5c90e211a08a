#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hackbench's switches, wakeups, migrations and wakeup latencies by role, trace against replay.

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay --placement trace --dump-events T.dump T.dat
  hackbench_roles.py --sidecar T.dat.json T.rep T.dump [more dumps...]
  hackbench_roles.py --leader 3170=h --fds 4 T.rep T.dump        (no sidecar: small-*.dat)

hackbench (rt-tests) forks, per group, its `-f N` receivers first and then its N senders, so
the k-th child (k = 1, 2, ...) of a group leader is a receiver when (k - 1) mod 2N < N.  With
--sidecar the leaders are the capture groups' pids, named by the first letter of the group's
name, and N is the group command's `-f` (default 20, hackbench's own default); else --leader
PID=NAME (repeatable) and --fds N.  Roles are NAME + R (receiver) or S (sender); other tasks
are `o`.

Per input, printed side by side (one column per file, the first is normally the trace):
  switches by (prev role, prev state R/S/..., next role),
  wakeups by (waker role, wakee role, L(ocal)/r(emote)) - the waker is the task current on the
  CPU of the `sched_waking` (for the replay's out-of-context wakes that is an approximation),
  migrations by role,
  wakeup latency (waking -> switch-in) of one group's tasks (--latency-group, default the first
  leader's), by path: idle target CPU, local or remote wakeup, and wakeups whose `sched_waking`
  comes at the very timestamp at which the task went to sleep (the replay's early non-sync wake
  delivered at the block: docs/replay.md, "Early wakes"; a trace has none).

Both inputs are text in the `trace-cmd report` line shape, the dump of `replay --dump-events`
and `trace-cmd report -t` alike (an instance prefix `NAME:` is ignored).  Analysis helper, not a
test (docs/validation-log.md, "Ninth pass").
"""
import argparse
import json
import os
import re
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(__file__))
from group_split import parse, FORK_TR, FORK_DUMP  # noqa: E402

# as group_split.SWITCH, with the negative prio of a deadline task
SWITCH = re.compile(r'(\S.*?):(\d+) \[(-?\d+)\] (\S+) ==> (\S.*?):(\d+) \[')
PID = re.compile(r'pid=(\d+)|:(\d+)[ \]]')
CPU = re.compile(r'(?:CPU:|target_cpu=)(\d+)')


def pid_of(args):
    m = PID.search(args)
    return int(m.group(1) or m.group(2))


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))] if v else float('nan')


def analyse(path, leaders, fds, lat_group):
    nkids = Counter()
    role = {}
    curr = {}
    slept_at = {}
    waking = {}
    out = {'switch': Counter(), 'wakeup': Counter(), 'migrate': Counter(),
           'latency': defaultdict(list)}
    for cpu, ns, ev, args in parse(path):
        if ev == 'sched_process_fork':
            m = FORK_TR.search(args) or FORK_DUMP.search(args)
            parent, child = int(m.group(1)), int(m.group(2))
            if parent in leaders:
                nkids[parent] += 1
                recv = (nkids[parent] - 1) % (2 * fds) < fds
                role[child] = leaders[parent] + ('R' if recv else 'S')
        elif ev == 'sched_switch':
            m = SWITCH.search(args)
            prev, state, nxt = int(m.group(2)), m.group(4), int(m.group(6))
            curr[cpu] = nxt
            st = 'R' if state.startswith('R') else state[0]
            out['switch'][(role.get(prev, 'o'), st, role.get(nxt, 'o'))] += 1
            if st != 'R':
                slept_at[prev] = ns
            w = waking.pop(nxt, None)
            if w and w['target'] is not None:
                if w['at_sleep']:
                    path_ = 'woken at its sleep'
                elif w['idle']:
                    path_ = 'idle'
                else:
                    path_ = 'local' if w['cpu'] == w['target'] else 'remote'
                out['latency'][path_].append((ns - w['ns']) / 1000.0)
                out['latency']['all'].append((ns - w['ns']) / 1000.0)
        elif ev == 'sched_waking':
            p = pid_of(args)
            if p not in waking:
                waking[p] = {'ns': ns, 'cpu': cpu, 'target': None, 'idle': False,
                             'at_sleep': slept_at.get(p) == ns,
                             'waker': role.get(curr.get(cpu, 0), 'o')}
        elif ev == 'sched_wakeup':
            p = pid_of(args)
            tcpu = int(CPU.search(args).group(1))
            w = waking.get(p)
            if w is None or w['target'] is not None:
                continue
            w['target'] = tcpu
            w['idle'] = curr.get(tcpu, 0) == 0
            out['wakeup'][(w['waker'], role.get(p, 'o'), 'L' if w['cpu'] == tcpu else 'r')] += 1
            if not role.get(p, 'o').startswith(lat_group):
                waking.pop(p)
        elif ev == 'sched_migrate_task':
            out['migrate'][role.get(pid_of(args), 'o')] += 1
    return out


def table(title, results, key, min_count):
    keys = set()
    for r in results:
        keys |= set(r[key])
    print('== %s' % title)
    for k in sorted(keys, key=lambda k: (-results[0][key].get(k, 0), str(k))):
        vals = [r[key].get(k, 0) for r in results]
        if max(vals) >= min_count:
            name = ' '.join(k) if isinstance(k, tuple) else k
            print('  %-24s %s' % (name, ' '.join('%8d' % v for v in vals)))
    print('  %-24s %s' % ('total', ' '.join('%8d' % sum(r[key].values()) for r in results)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--sidecar', help='the capture sidecar (T.dat.json): groups and their -f')
    ap.add_argument('--leader', action='append', default=[], help='PID=NAME of a group leader')
    ap.add_argument('--fds', type=int, help='hackbench -f of the --leader groups (default 20)')
    ap.add_argument('--latency-group', help='role prefix whose latency is shown')
    ap.add_argument('--min', type=int, default=20, help='hide rows below this count')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    leaders = {}
    fds = a.fds or 20
    if a.sidecar:
        with open(a.sidecar) as f:
            for g in json.load(f).get('groups', []):
                leaders[int(g['pid'])] = g['name'][0]
                argv = g.get('argv', [])
                if '-f' in argv and not a.fds:
                    fds = int(argv[argv.index('-f') + 1])
    for spec in a.leader:
        pid, name = spec.split('=', 1)
        leaders[int(pid)] = name
    if not leaders:
        ap.error('no group leader: give --sidecar or --leader PID=NAME')
    lat_group = a.latency_group or next(iter(leaders.values()))
    results = [analyse(p, leaders, fds, lat_group) for p in a.files]
    print('columns: ' + ' | '.join(a.files))
    table('switches (prev role, prev state, next role)', results, 'switch', a.min)
    table('wakeups (waker role, wakee role, local/remote)', results, 'wakeup', a.min)
    table('migrations by role', results, 'migrate', 1)
    print('== wakeup latency of %s* (us): n p50 p95 per path' % lat_group)
    for path_ in ('all', 'local', 'remote', 'idle', 'woken at its sleep'):
        print('  %-20s %s' % (path_, '  '.join(
            '%6d %7.1f %8.1f' % (len(r['latency'][path_]), pct(r['latency'][path_], .5),
                                  pct(r['latency'][path_], .95)) for r in results)))


if __name__ == '__main__':
    main()
