#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A latency group's percentile, path by path and origin by origin, trace against replay.

Usage:
  p50_paths.py [--sr BIN] [--seeds 1-15] [--pct 50] [--thresholds F] [--opt ARG]... TRACE.dat
  p50_paths.py TRACE.dat --samples FILE...      (dumps already written, one per seed)

Runs `schedreplay replay --seed N --dump-samples F TRACE.dat` per seed (the extra replay
options after --opt), keeps the wakeup samples of the trace's latency group
(traces/thresholds.json: `latency_group` by cgroup suffix or comm prefix; none: every sample),
and prints, for the measured samples and the seeds' predicted ones pooled:

  - each wakeup path's (docs/replay.md, "Wakeup paths") samples per run, share and own p50, the
    predicted ones split by what the wakeup stands for (the dump's origin: `wake`, a trace wake
    record delivered to its sleeper; `standin`, an early wake's stand-in; `reply`, a hand-off
    reply; `fork`; docs/replay.md, "Output");
  - the percentile's miss decomposed in rank: at the measured percentile x, the predicted share
    of samples <= x minus the measured share, split per path into its share term (the path's
    share change, at the measured own share <= x) and its own-latency term (the path's own
    share <= x, at the predicted share); the two sum to the difference exactly;
  - the trace's wake records paired with the predicted samples that replay them (trace path ->
    replay origin/path), and the measured samples no predicted sample replays;
  - each seed's percentile (nearest rank on the exact samples, as `validate` on its histogram).

Analysis helper, not a test (docs/validation-log.md, "The p50 misses, path by path").
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

PATHS = ('idle', 'preempt_local', 'preempt_remote', 'behind_current_local',
         'behind_current_remote', 'queued_local', 'queued_remote', 'moved', 'new', 'unknown')


def nearest_rank(v, pct):
    if not v:
        return None
    v = sorted(v)
    k = max(1, -(-len(v) * pct // 100))
    return v[int(k) - 1]


def group_match(lg):
    if lg.get('cgroup_suffix'):
        suf = lg['cgroup_suffix']
        return lambda comm, cg: cg.endswith(suf)
    if lg.get('comm'):
        pre = lg['comm']
        return lambda comm, cg: comm.startswith(pre)
    return lambda comm, cg: True


def read(path, match):
    """The dump's wakeup samples of the group: (side, pid, start, lat, path, origin, tstart)."""
    out = []
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if line.startswith('#'):
                continue
            c = line.rstrip('\n').split('\t')
            if c[1] != 'wakeup' or not match(c[12], c[13]):
                continue
            out.append((c[0], int(c[2]), int(c[4]), int(c[6]), c[8], c[9],
                        int(c[10]) if c[10] != '-' else None))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('trace')
    ap.add_argument('--sr', default='schedreplay')
    ap.add_argument('--seeds', default='1-15')
    ap.add_argument('--pct', type=float, default=50)
    ap.add_argument('--thresholds')
    ap.add_argument('--opt', action='append', default=[])
    ap.add_argument('--samples', nargs='+')
    a = ap.parse_args()
    thr = a.thresholds or os.path.join(os.path.dirname(os.path.abspath(a.trace)),
                                       'thresholds.json')
    lg = json.load(open(thr))['traces'][os.path.basename(a.trace)].get('latency_group', {})
    match = group_match(lg)
    files = a.samples
    tmp = None
    if not files:
        lo, _, hi = a.seeds.partition('-')
        tmp = tempfile.TemporaryDirectory()
        files = []
        for seed in range(int(lo), int(hi or lo) + 1):
            f = os.path.join(tmp.name, '%d.samples' % seed)
            subprocess.run([a.sr, 'replay', '--seed', str(seed), '--dump-samples', f] + a.opt
                           + [a.trace], check=True, stdout=subprocess.DEVNULL)
            files.append(f)
    meas, pred, per_seed = [], [], []
    for i, f in enumerate(files):
        s = read(f, match)
        if i == 0:
            meas = [x for x in s if x[0] == 'measured']
        p = [x for x in s if x[0] == 'predicted']
        pred += p
        per_seed.append(p)
    n = len(files)
    x = nearest_rank([m[3] for m in meas], a.pct)
    y = nearest_rank([p[3] for p in pred], a.pct)
    seeds = [nearest_rank([p[3] for p in ps], a.pct) for ps in per_seed]
    print('%s: latency group %s, %d measured samples, %.1f predicted per run (%d runs)' %
          (os.path.basename(a.trace), json.dumps(lg, sort_keys=True), len(meas),
           len(pred) / n, n))
    print('p%g: measured %.2f us, predicted %.2f us pooled (per seed %s; median %.2f)' %
          (a.pct, x / 1e3, y / 1e3, ' '.join('%.1f' % (v / 1e3) for v in seeds),
           sorted(seeds)[len(seeds) // 2] / 1e3))

    origins = sorted({p[5] for p in pred})
    print('\npath                       measured share   p50 |  predicted share   p50 | '
          + ' '.join('%9s' % o for o in origins) + '  (predicted per run by origin)')
    bym = defaultdict(list)
    byp = defaultdict(list)
    byo = defaultdict(Counter)
    for m in meas:
        bym[m[4]].append(m[3])
    for p in pred:
        byp[p[4]].append(p[3])
        byo[p[4]][p[5]] += 1
    for k in PATHS:
        if not bym[k] and not byp[k]:
            continue
        mp = nearest_rank(bym[k], 50)
        pp = nearest_rank(byp[k], 50)
        print('%-24s %8d %5.1f%% %6s | %8.1f %5.1f%% %6s | ' % (
            k, len(bym[k]), 100 * len(bym[k]) / len(meas), '%.1f' % (mp / 1e3) if mp else '-',
            len(byp[k]) / n, 100 * len(byp[k]) / len(pred), '%.1f' % (pp / 1e3) if pp else '-')
            + ' '.join('%9.1f' % (byo[k][o] / n) for o in origins))
    print('%-24s %8d %5s  %6s | %8.1f' % ('all', len(meas), '', '', len(pred) / n) + ' ' * 23
          + ' '.join('%9.1f' % (sum(byo[k][o] for k in PATHS) / n) for o in origins))
    # the own p50 of the predicted samples by origin
    print('\npredicted by origin: samples per run, p50, share <= the measured p%g' % a.pct)
    for o in origins:
        v = [p[3] for p in pred if p[5] == o]
        print('  %-8s %8.1f %8.1f us %6.1f%%' % (o, len(v) / n, nearest_rank(v, 50) / 1e3,
                                                 100 * sum(1 for t in v if t <= x) / len(v)))

    # the rank decomposition at the measured percentile x
    fm = sum(1 for m in meas if m[3] <= x) / len(meas)
    fp = sum(1 for p in pred if p[3] <= x) / len(pred)
    print('\nat the measured p%g (%.2f us): share <= it measured %.1f %%, predicted %.1f %% '
          '(%+.1f points)' % (a.pct, x / 1e3, 100 * fm, 100 * fp, 100 * (fp - fm)))
    print('  path                      share term  own term   (measured / predicted share, '
          'own share <= x)')
    terms = []
    for k in PATHS:
        sm = len(bym[k]) / len(meas)
        sp = len(byp[k]) / len(pred)
        om = sum(1 for t in bym[k] if t <= x) / len(bym[k]) if bym[k] else 0.0
        op = sum(1 for t in byp[k] if t <= x) / len(byp[k]) if byp[k] else 0.0
        if not bym[k]:
            om = op
        if not byp[k]:
            op = om
        terms.append((k, (sp - sm) * om, sp * (op - om), sm, sp, om, op))
    for k, st, ot, sm, sp, om, op in terms:
        if abs(st) < 0.0005 and abs(ot) < 0.0005:
            continue
        print('  %-24s %+9.1f %+9.1f   (%5.1f / %5.1f %%, %5.1f / %5.1f %%)' % (
            k, 100 * st, 100 * ot, 100 * sm, 100 * sp, 100 * om, 100 * op))
    # the stand-ins' part of the predicted samples
    for o in origins:
        v = [p for p in pred if p[5] == o]
        print('  of which origin %-8s: %5.1f %% of the predicted samples, %+5.1f points <= x' %
              (o, 100 * len(v) / len(pred), 100 * sum(1 for p in v if p[3] <= x) / len(pred)))

    # the trace's wake records against what the replay made of them
    mkey = {(m[1], m[2]): m for m in meas}
    pair = Counter()
    fate = Counter()
    seen = Counter()
    for p in pred:
        if p[6] is None:
            continue
        m = mkey.get((p[1], p[6]))
        if not m:
            continue
        seen[(p[1], p[6])] += 1
        pair[(m[4], p[5], p[4])] += 1
    for m in meas:
        fate[(m[4], seen[(m[1], m[2])] > 0)] += 1
    print('\nthe measured samples by path: replayed as a predicted sample per run (of n), '
          'none in any run')
    for k in PATHS:
        tot = fate[(k, True)] + fate[(k, False)]
        if not tot:
            continue
        rep = sum(v for (mk, _, _), v in pair.items() if mk == k) / n
        print('  %-24s %6d  replayed %7.1f  never %5d' % (k, tot, rep, fate[(k, False)]))
    print('\ntrace path -> replay (origin, path), per run, the 25 largest')
    for (mk, o, pk), v in pair.most_common(25):
        print('  %-24s -> %-8s %-24s %8.1f' % (mk, o, pk, v / n))

    # the same rank difference, wake record by wake record: each predicted sample paired with
    # the measured sample of the record it replays moves the count <= x by [p <= x] - [m <= x];
    # an unpaired predicted sample by [p <= x], a measured one no run replays by -[m <= x]
    # (per run); the rest is the sample count (the measured count <= x over either total)
    mv = Counter()
    for p in pred:
        m = mkey.get((p[1], p[6])) if p[6] is not None else None
        if m:
            mv[(m[4], p[5], p[4])] += (p[3] <= x) - (m[3] <= x)
        else:
            mv[('(none)', p[5], p[4])] += p[3] <= x
    for m in meas:
        r = seen[(m[1], m[2])]
        if r < n:
            mv[(m[4], '(none)', '-')] -= (n - r) * (m[3] <= x)
    np_ = len(pred) / n
    cm = sum(1 for m in meas if m[3] <= x)
    print('\nthe rank difference at x by wake record (points of the predicted samples; '
          'trace path -> replay origin, path)')
    for k, v in sorted(mv.items(), key=lambda kv: -abs(kv[1]))[:14]:
        if abs(v / n / np_) >= 0.001:
            print('  %-24s -> %-8s %-24s %+6.1f' % (k[0], k[1], k[2], 100 * v / n / np_))
    print('  %-59s %+6.1f' % ('the sample count (%d measured, %.1f predicted)' %
                               (len(meas), np_), 100 * cm * (1 / np_ - 1 / len(meas))))
    print('  %-59s %+6.1f' % ('sum', 100 * (sum(mv.values()) / n / np_ +
                                            cm * (1 / np_ - 1 / len(meas)))))
    if tmp:
        tmp.cleanup()
    return 0


if __name__ == '__main__':
    sys.exit(main())
