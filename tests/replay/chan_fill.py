#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The channel replay, channel by channel: the trace's sleeps against the replay's.

Usage:
  schedreplay replay --seed N --channels auto|strict --dump-events D --dump-wake-records T.dat
  chan_fill.py [--check] [--threshold MSGS] D...

Reads the `replay_op:` lines of a `--channels auto|strict` dump (docs/replay.md, "Output"):
`channel` (each channel as the simulation takes it: reader, kind, capacity and the channel it
came from), `chan` (a READ or WRITE done, the channel's fill after it, the trace time of its
place), `chanblock` (the trace's sleep inside a read or write; under auto, whether the channel
kept it) and `chansleep` (under strict, a read of an empty channel or a write that does not
fit, which sleeps).  Per channel it prints:
  sleeps    reads slept in the trace (the chanblock lines) and in the replay (auto: the kept
            chanblock lines; strict: the chansleep lines); the same for writes
  skipped   auto: the trace's read sleeps not kept (bytes there), and the fill there, in
            messages (p50, max)
  ahead     reads done ahead of their bytes (auto only: the fill negative after the read,
            bytes the writers have not written yet in the simulation)
  fill      the largest fill, trace (its ops in trace order) and replay, and the capacity
  per sleep reads per sleep of the reader, trace and replay (p50/p90/max)
  first     the first read at which the replay's fill before it differs from the trace's by
            more than --threshold messages (default 10), with both times (ms from the first op)
and, over all channels, the channel's own wakes (a sched_waking with no `replay_op: wake` line
of a trace record before it) and how many moved their wakee to another CPU.

--check verifies on each input: every channel's bytes add up (initial fill + written - read
= the last fill), a strict fill is never negative, an auto read sleep was kept only on an
empty channel and skipped only with bytes there, a strict read slept only on an empty one;
prints `N inputs, 0 errors` (exit 1 with errors).  Not a test by itself (cli_chan_fill.cmake).
"""
import re
import statistics
import sys

OP = re.compile(r'^\[(\d+)\] (\d+)\.(\d+): replay_op: (chan|chanblock|chansleep) pid=(\d+) '
                r'rw=(read|write) ch=(\d+) bytes=(\d+) fill=(-?\d+) trace=(\d+) slept=([01])')
CHAN = re.compile(r'replay_op: channel ch=(\d+) reader=(-?\d+) fd=(-?\d+) kind=(\w+) '
                  r'capacity=(-?\d+) wake_fill=(-?\d+) cap_from=(-?\d+) init_fill=(\d+) '
                  r'writers=(\d+)')
WAKEE = re.compile(r':(\d+) \[\d+\] CPU:(\d+)')
MIGR = re.compile(r':(\d+) orig_cpu=(\d+) dest_cpu=(\d+)')


def q(xs):
    xs = sorted(xs)
    if not xs:
        return '-'
    return '%d/%d/%d' % (xs[len(xs) // 2], xs[min(len(xs) - 1, int(len(xs) * 0.9))], xs[-1])


def load(path):
    chans, ops = {}, []
    own = moved = 0
    prev, pending = '', None
    with open(path, errors='replace') as f:
        for line in f:
            m = OP.match(line)
            if m:
                ops.append(dict(ts=int(m.group(2)) * 10**9 + int(m.group(3)), kind=m.group(4),
                                pid=int(m.group(5)), rw=m.group(6), ch=int(m.group(7)),
                                bytes=int(m.group(8)), fill=int(m.group(9)),
                                trace=int(m.group(10)), slept=m.group(11) == '1'))
            elif 'replay_op: channel ' in line:
                c = CHAN.search(line)
                if c:
                    chans[int(c.group(1))] = dict(reader=int(c.group(2)), kind=c.group(4),
                                                  cap=int(c.group(5)), cap_from=int(c.group(7)),
                                                  init=int(c.group(8)), writers=int(c.group(9)))
            elif ': sched_waking: ' in line:
                ts = line.split()[1]
                w = WAKEE.search(line)
                is_own = not ('replay_op: wake ' in prev and prev.split()[1] == ts)
                own += is_own
                pending = (ts, w.group(1)) if is_own and w else None
            elif pending and ': sched_migrate_task: ' in line and line.split()[1] == pending[0]:
                mg = MIGR.search(line)
                if mg and mg.group(1) == pending[1]:
                    moved += 1
                    pending = None
            elif ': sched_wakeup: ' in line:
                pending = None
            prev = line
    return chans, ops, own, moved


def analyse(path, thr, check):
    chans, ops, own, moved = load(path)
    strict = any(o['kind'] == 'chansleep' for o in ops)
    auto = not strict and any(o['kind'] == 'chanblock' and o['slept'] for o in ops)
    mode = 'strict' if strict else 'auto' if auto else 'auto/strict'
    errors = []
    t0 = min((o['trace'] for o in ops), default=0)
    print('%s (%s): %d channels, %d channel ops' % (path, mode, len(chans), len(ops)))
    print('  ch reader  kind   cap(from) | rd sleeps trace/replay  skipped (msgs p50/max) | '
          'wr sleeps | ahead | max fill trace/replay | reads per sleep trace vs replay | first '
          'divergence')
    tot = dict(trs=0, rps=0, skip=0, ahead=0, reads=0)
    for ch in sorted(set(chans) | {o['ch'] for o in ops}):
        v = [o for o in ops if o['ch'] == ch]
        info = chans.get(ch, dict(reader=-1, kind='?', cap=-1, cap_from=-1, init=0, writers=0))
        done = [o for o in v if o['kind'] == 'chan']
        if not done:
            continue
        blocks = [o for o in v if o['kind'] == 'chanblock' and o['rw'] == 'read']
        wblocks = [o for o in v if o['kind'] == 'chanblock' and o['rw'] == 'write']
        sleeps = [o for o in v if o['kind'] == 'chansleep' and o['rw'] == 'read']
        wsleeps = [o for o in v if o['kind'] == 'chansleep' and o['rw'] == 'write']
        r_slept = sum(1 for o in blocks if o['slept']) + len(sleeps)
        w_slept = sum(1 for o in wblocks if o['slept']) + len(wsleeps)
        skipped = [o for o in blocks if not o['slept']] if auto else []
        size = max(1, done[0]['bytes'])
        reads = [o for o in done if o['rw'] == 'read']
        ahead = sum(1 for o in reads if o['fill'] < 0)
        # the bytes add up, in simulated order
        fill = info['init']
        for o in done:
            fill += o['bytes'] if o['rw'] == 'write' else -o['bytes']
            if fill != o['fill'] and not (o['fill'] in (-2**63, 2**63 - 1)):
                errors.append('ch %d: fill %d after the op at %d, %d by its bytes'
                              % (ch, o['fill'], o['ts'], fill))
                fill = o['fill']
            if strict and o['fill'] < 0:
                errors.append('ch %d: strict fill %d < 0 at %d' % (ch, o['fill'], o['ts']))
        for o in blocks:
            if auto and o['slept'] and o['fill'] > 0:
                errors.append('ch %d: auto sleep kept at fill %d' % (ch, o['fill']))
            if auto and not o['slept'] and o['fill'] <= 0:
                errors.append('ch %d: auto sleep skipped at fill %d' % (ch, o['fill']))
        for o in sleeps:
            if o['fill'] > 0:
                errors.append('ch %d: strict read slept at fill %d' % (ch, o['fill']))

        # fills before each read: the trace's (its ops in trace order) and the replay's
        def before(order):
            f, out = info['init'], []
            for o in order:
                if o['rw'] == 'read':
                    out.append((f, o))
                    f -= o['bytes']
                else:
                    f += o['bytes']
            return out
        sim = before(done)
        tr = before(sorted(done, key=lambda o: (o['trace'], o['rw'] == 'read')))
        first = '-'
        for k in range(min(len(sim), len(tr))):
            d = (sim[k][0] - tr[k][0]) / size
            if abs(d) > thr:
                first = 'read %d: %+.0f msgs, replay %.3f ms, trace %.3f ms' % (
                    k, d, (sim[k][1]['ts'] - t0) / 1e6, (tr[k][1]['trace'] - t0) / 1e6)
                break
        tmax = max(f for f, _ in tr) if tr else 0
        smax = max(max(o['fill'] for o in done), info['init'])

        # reads per sleep: the trace's sleep points split its reads, the replay's sleeps its own
        def per_sleep(seq, is_sleep):
            runs, n = [], 0
            for o in seq:
                if o['kind'] == 'chan' and o['rw'] == 'read':
                    n += 1
                elif is_sleep(o):
                    runs.append(n)
                    n = 0
            runs.append(n)
            return runs
        tr_runs = per_sleep(v, lambda o: o['kind'] == 'chanblock' and o['rw'] == 'read')
        sim_runs = per_sleep(v, lambda o: o['rw'] == 'read' and (
            o['kind'] == 'chansleep' or (o['kind'] == 'chanblock' and o['slept'])))
        print('  %2d %6d %-6s %6s(%s) | %4d %4d  %4s (%s/%s) | %d/%d | %4d | %d/%d | %s vs %s | %s'
              % (ch, info['reader'], info['kind'], info['cap'], info['cap_from'], len(blocks),
                 r_slept, len(skipped) if auto else '-',
                 '%.0f' % statistics.median(o['fill'] / size for o in skipped) if skipped else '-',
                 '%.0f' % max(o['fill'] / size for o in skipped) if skipped else '-',
                 len(wblocks), w_slept, ahead, tmax // size, smax // size, q(tr_runs),
                 q(sim_runs), first))
        tot['trs'] += len(blocks)
        tot['rps'] += r_slept
        tot['skip'] += len(skipped)
        tot['ahead'] += ahead
        tot['reads'] += len(reads)
    print('  all: reads %d; read sleeps trace %d, replay %d; trace sleeps skipped %d; reads ahead '
          'of their bytes %d (%.0f%%); wakes with no trace record (channel wakes, hand-off replies) %d, %d moved their wakee'
          % (tot['reads'], tot['trs'], tot['rps'], tot['skip'], tot['ahead'],
             100.0 * tot['ahead'] / max(1, tot['reads']), own, moved))
    if check:
        for e in errors[:20]:
            print('  ERROR', e)
    return len(errors)


def main(argv):
    check = '--check' in argv
    thr = 10.0
    args = [a for a in argv if a != '--check']
    if '--threshold' in args:
        i = args.index('--threshold')
        thr = float(args[i + 1])
        del args[i:i + 2]
    if not args:
        print(__doc__)
        return 2
    errors = sum(analyse(p, thr, check) for p in args)
    if check:
        print('%d inputs, %d errors' % (len(args), errors))
    return 1 if check and errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
