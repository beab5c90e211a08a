#!/usr/bin/env python3
"""The kernel's newidle blocked-load updates after an RT/DL task's block to idle,
seen in a trace, against the replay model's (docs/validation-log.md, "The
newidle pass after an RT block: the kernel's clock against the model's").

Kernel (6.12 / 6.18): an RT task's block charges its run in dequeue_task_rt()
(update_curr_rt() -> sched_stat_runtime); the pick's prev_balance() ->
balance_fair() -> sched_balance_newidle(), past its entry test
(rd->overloaded and avg_idle >= max_newidle_lb_cost), calls
sched_balance_update_blocked_averages() -> update_rq_clock(); put_prev_task_rt()
(after the pick) then charges the clock's advance: a second sched_stat_runtime
of the same task right before its sched_switch.  No second charge: the pass
stopped at the entry test (or the clock did not move).

Usage:
  trace-cmd report -t -i T.dat > T.rep
  schedreplay replay T.dat --dump-events D --dump-wake-records [--seed S]
  newidle_rt.py T.rep D [D...] [--list] [--gap-us 20] [--tol-us 500] [--check]

Trace side: every sched_switch whose prev has prio < 100 (RT/DL), state not R,
next the idle task; "second" when the two events before it on that CPU are
sched_stat_runtime lines of that task less than --gap-us apart.  Dump side:
the `replay_op: newidle` line the replay writes at each non-fair block
(outcome ran / notoverloaded / shortidle / traced / nosd, or none: the model's
pick found a fair task, no newidle pass; blocked=1: update_blocked_averages()
ran), matched to the trace's block of the same pid nearest in time within
--tol-us.  --check: exit 1 unless every dump's newidle lines parse, each trace
block is matched at most once and the table's rows add up.
"""
import argparse
import re
import sys

SW = re.compile(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+sched_switch:\s+(.+?):(-?\d+) \[(-?\d+)\] (\S+) ==> '
                r'(.+?):(-?\d+) \[(-?\d+)\]')
RT = re.compile(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+sched_stat_runtime:\s+comm=.*? pid=(\d+) '
                r'runtime=(\d+)')
EV = re.compile(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+(\w+):')
NI = re.compile(r'\[(\d+)\]\s+(\d+)\.(\d+):\s+replay_op: newidle (.*)$')


def ts(sec, frac):
    return int(sec) * 1000000000 + int(frac.ljust(9, '0')[:9])


def trace_blocks(path, gap_ns):
    """[(t, cpu, pid, second, second_ns, first_ns)] for each RT/DL block to idle."""
    last = {}   # cpu -> list of the last two events: (kind, t, pid, runtime)
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            m = SW.search(line)
            if m:
                cpu = int(m.group(1))
                t = ts(m.group(2), m.group(3))
                pid, prio, state = int(m.group(5)), int(m.group(6)), m.group(7)
                npid = int(m.group(9))
                if 0 <= prio < 100 and not state.startswith('R') and npid == 0 and pid > 0:
                    ev = last.get(cpu, [])
                    second = (len(ev) == 2 and all(e[0] == 'rt' and e[2] == pid for e in ev)
                              and ev[1][1] - ev[0][1] < gap_ns)
                    first_ns = ev[-1][3] if ev and ev[-1][0] == 'rt' and ev[-1][2] == pid else None
                    out.append((t, cpu, pid, second, ev[1][3] if second else None,
                                ev[0][3] if second else first_ns))
                last[cpu] = (last.get(cpu, []) + [('sw', t, pid, 0)])[-2:]
                continue
            m = RT.search(line)
            if m:
                cpu = int(m.group(1))
                last[cpu] = (last.get(cpu, []) + [('rt', ts(m.group(2), m.group(3)),
                                                   int(m.group(4)), int(m.group(5)))])[-2:]
                continue
            m = EV.search(line)
            if m and m.group(4) != 'print':
                cpu = int(m.group(1))
                last[cpu] = (last.get(cpu, []) + [('ev', ts(m.group(2), m.group(3)), -1, 0)])[-2:]
    return out


def op_lines(path, needle):
    """The lines of dump @path that hold @needle (a `replay_op:` kind)."""
    with open(path, errors='replace') as f:
        for line in f:
            if needle in line:
                yield line


def dump_newidle(path):
    """[(t, cpu, fields)] of the dump's `replay_op: newidle` lines."""
    out = []
    for line in op_lines(path, 'replay_op: newidle'):
        m = NI.search(line)
        if not m:
            raise ValueError('%s: unparsed newidle line: %s' % (path, line.strip()))
        kv = dict(x.split('=', 1) for x in m.group(4).split())
        for k in ('pid', 'next', 'outcome'):
            if k not in kv:
                raise ValueError('%s: newidle line without %s: %s' % (path, k, line.strip()))
        out.append((ts(m.group(2), m.group(3)), int(m.group(1)), kv))
    return out


def match(blocks, lines, tol_ns):
    """Trace block index -> dump line (nearest of the same pid within tol), each used once."""
    by_pid = {}
    for i, (t, cpu, kv) in enumerate(lines):
        by_pid.setdefault(int(kv['pid']), []).append(i)
    used = set()
    res = {}
    cand = []
    for bi, b in enumerate(blocks):
        for li in by_pid.get(b[2], []):
            d = abs(lines[li][0] - b[0])
            if d <= tol_ns:
                cand.append((d, bi, li))
    cand.sort()
    for d, bi, li in cand:
        if bi in res or li in used:
            continue
        res[bi] = li
        used.add(li)
    return res, used


def label(kv):
    if kv['outcome'] == 'none' or kv['next'] != '0':
        return 'fair-next' if kv['next'] != '0' else 'none'
    if kv['outcome'] == 'ran':
        return 'ran+blocked' if kv.get('blocked') == '1' else 'ran'
    return kv['outcome']


def pct(v, p):
    if not v:
        return float('nan')
    v = sorted(v)
    return v[min(len(v) - 1, int(p / 100.0 * len(v)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('trace', help='trace-cmd report -t text of the trace')
    ap.add_argument('dumps', nargs='*', help='replay --dump-events --dump-wake-records files')
    ap.add_argument('--gap-us', type=float, default=20.0)
    ap.add_argument('--tol-us', type=float, default=500.0)
    ap.add_argument('--list', action='store_true', help='one line per trace block')
    ap.add_argument('--check', action='store_true')
    a = ap.parse_args()

    blocks = trace_blocks(a.trace, int(a.gap_us * 1000))
    sec = [b for b in blocks if b[3]]
    pids = sorted(set(b[2] for b in blocks))
    print('trace: %d RT/DL blocks to idle (pids %s), %d with a second charge' %
          (len(blocks), ' '.join(map(str, pids)), len(sec)))
    if sec:
        s = [b[4] for b in sec]
        print('  second charge ns: p10 %d p50 %d p90 %d max %d' %
              (pct(s, 10), pct(s, 50), pct(s, 90), max(s)))
    ok = True
    for d in a.dumps:
        try:
            lines = dump_newidle(d)
        except (OSError, ValueError) as e:
            print('error: %s' % e, file=sys.stderr)
            return 1
        res, used = match(blocks, lines, int(a.tol_us * 1000))
        rows = {}
        ratios = {True: [], False: []}
        for bi, b in enumerate(blocks):
            kv = lines[res[bi]][2] if bi in res else None
            lab = label(kv) if kv else 'unmatched'
            rows.setdefault(lab, [0, 0])[0 if b[3] else 1] += 1
            if kv and kv['outcome'] in ('ran', 'shortidle') and int(kv.get('max_cost', 0)) > 0:
                ratios[b[3]].append(int(kv['avg_idle']) / int(kv['max_cost']))
            if a.list:
                print('  %d.%09d cpu %d pid %d kernel %s model %s %s' %
                      (b[0] // 10**9, b[0] % 10**9, b[1], b[2],
                       'second=%d' % b[4] if b[3] else 'one', lab,
                       ' '.join('%s=%s' % kvp for kvp in sorted(kv.items())
                                if kvp[0] not in ('pid', 'next', 'outcome')) if kv else ''))
        own = [l for l in lines if int(l[2]['pid']) in pids]
        print('%s: %d newidle lines (%d of these pids), %d matched' %
              (d, len(lines), len(own), len(res)))
        print('  %-14s %8s %8s' % ('model', 'kernel 2', 'kernel 1'))
        for lab in sorted(rows):
            print('  %-14s %8d %8d' % (lab, rows[lab][0], rows[lab][1]))
        agree = rows.get('ran+blocked', [0, 0])[0] + sum(
            v[1] for k, v in rows.items() if k not in ('ran+blocked', 'unmatched'))
        nm = len(res)
        print('  agree %d of %d matched (%.1f %%); model blocked update %d, kernel second charge %d' %
              (agree, nm, 100.0 * agree / nm if nm else 0.0, sum(
                  v[0] + v[1] for k, v in rows.items() if k == 'ran+blocked'), len(sec)))
        # the overload's clearing: a pass whose walk balances the root domain clears
        # rd->overloaded (update_sd_lb_stats()) unless a CPU still has 2 tasks; one whose
        # domains NI_RANDOM's die all skipped leaves it set for the next block
        kseq = [b[3] for b in blocks]
        mseq = [bi in res and label(lines[res[bi]][2]) == 'ran+blocked' for bi in range(len(blocks))]
        for name, seq in (('kernel', kseq), ('model', mseq)):
            after = [seq[i + 1] for i in range(len(seq) - 1) if seq[i]]
            print('  %s: passes past the entry test %d; the next block\'s pass also %d of %d' %
                  (name, sum(seq), sum(after), len(after)))
        walk = {}
        for bi in range(len(blocks) - 1):
            if not mseq[bi]:
                continue
            kv = lines[res[bi]][2]
            w = 'balanced' if int(kv.get('balanced', 0)) else 'dice-skipped'
            walk.setdefault(w, [0, 0])[0] += 1
            walk[w][1] += mseq[bi + 1]
        for w in sorted(walk):
            print('  model passes whose walk %s: %d, the next block\'s pass ran %d' %
                  (w, walk[w][0], walk[w][1]))
        rat = [int(l[2]['ratio']) for l in own if 'ratio' in l[2]]
        if rat:
            print('  model newidle_ratio at the passes: first %d, p50 %d, last %d' %
                  (rat[0], pct(rat, 50), rat[-1]))
        for k, lab in ((True, 'kernel 2'), (False, 'kernel 1')):
            if ratios[k]:
                print('  model avg_idle / max_cost where past the overload test, %s: n %d p10 %.1f '
                      'p50 %.1f p90 %.1f' % (lab, len(ratios[k]), pct(ratios[k], 10),
                                             pct(ratios[k], 50), pct(ratios[k], 90)))
        if a.check:
            for t, cpu, kv in lines:
                o = kv['outcome']
                if o == 'none':
                    continue
                ov, bl = kv.get('overloaded'), kv.get('blocked')
                ai, mc = int(kv.get('avg_idle', -1)), int(kv.get('max_cost', -1))
                bad = ((o == 'notoverloaded' and ov != '0') or
                       (o == 'shortidle' and (ov != '1' or ai >= mc)) or
                       (o == 'ran' and (ov != '1' or ai < mc)) or
                       (o != 'ran' and bl != '0') or
                       (o == 'ran' and int(kv.get('balanced', 0)) > 0 and bl != '1'))
                if bad:
                    print('check: newidle line against the entry test at %d.%09d: %s' %
                          (t // 10**9, t % 10**9, kv), file=sys.stderr)
                    ok = False
            if sum(v[0] + v[1] for v in rows.values()) != len(blocks) or len(used) != len(res):
                print('check: rows do not add up', file=sys.stderr)
                ok = False
            if not lines:
                print('check: %s has no newidle line' % d, file=sys.stderr)
                ok = False
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
