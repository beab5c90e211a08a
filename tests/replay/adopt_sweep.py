#!/usr/bin/env python3
"""The adoption rule over eight validate windows, for one or many option sets.

For every option set (one quoted argument each, e.g. "--join-reply --reply-in-run"; "" is the
default), runs `schedreplay validate --json --first-seed S OPTS` from the repository root for
S = 1, 16, 31, 46, 61, 76, 91, 106 (validate's seeds S..S+14) and prints per set the goals met
per window, the limits exceeded per window, the eight-window mean, and the verdict of the
house's adoption rule against the default's eight windows:

  * goals met do not drop on seeds 1-15 nor on seeds 16-30 (windows 1 and 16),
  * no limit is exceeded on either of them,
  * the mean of goals met over the eight windows does not drop,
  * no window exceeds a limit.

Goals are counted as /work/notes/goals.py counts them: a metric of the JSON's "goal" whose error
is not null and within the goal.  A limit exceeded is any metric with "over": true (a goal metric
or not: validate's "ok" is false then).

Every run is under `nice -n 19`.  Each window's summary (goals met, the goals met by name, the
limits exceeded, every metric's error) is cached in --cache, keyed by the binary's bytes, thresholds.json, the traces'
names and sizes, the options and the seed; the default's windows are computed once and reused.

  tests/replay/adopt_sweep.py --bin BUILD/schedreplay [--root REPO] [--jobs 2] \
      [--cache DIR] [--sets-file FILE] [--detail] [--markdown] "OPTS" ["OPTS" ...]

--sets-file holds one option set per line (# comments).  --windows 1,16 screens on the two
windows the rule names first (a set that fails there fails the rule); --cached-only runs nothing
and reports the sets whose windows are all cached (a sweep's progress).  --detail lists, per set, the goals whose
number of windows met changed against the default ("trace metric: 5 -> 8 of 8"); --show
"TRACE METRIC" prints that metric's error per window under each set (e.g. --show
"small-lost.dat p95"; n/a for a window cached before errors were kept).

The verdict alone, on validate outputs already made (the ctest's use):

  tests/replay/adopt_sweep.py --verdict BASE_DIR SET_DIR

where each directory holds w<S>.json (validate --json --first-seed S) for the same windows; it
prints the verdict and exits 0 if the set passes, 1 if it does not, 2 on a usage or input error.
Without --verdict the exit status is 0 whatever the verdicts (1 if a validate run failed to give
JSON).
"""
import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import shlex
import subprocess
import sys

WINDOWS = [1, 16, 31, 46, 61, 76, 91, 106]


def summarize(d):
    """Goals met, the met goals' names and the limits exceeded of one validate --json."""
    goal = d.get('goal')
    traces = d.get('traces')
    if not isinstance(goal, dict) or not isinstance(traces, dict):
        raise ValueError("not a validate --json output (no 'goal' or 'traces')")
    met, of, over, errors = [], 0, [], {}
    for t in sorted(traces):
        for m, md in sorted(traces[t].get('metrics', {}).items()):
            if not md:
                continue
            if md.get('error') is not None:
                errors[f"{t} {m}"] = md['error']
            if md.get('over', False):
                over.append(f"{t} {m} {md.get('error', 0) * 100:+.1f}%")
            if m not in goal or md.get('error') is None:
                continue
            of += 1
            if abs(md['error']) <= goal[m]:
                met.append(f"{t} {m}")
    if not over and d.get('ok') is False:
        over.append("(validate says not ok)")
    return {'goals': len(met), 'of': of, 'met': met, 'over': over, 'errors': errors}


def verdict(base, cand):
    """The adoption rule: base and cand map window -> summary.  Returns the list of reasons
    the set fails (empty: it passes)."""
    why = []
    if sorted(base) != sorted(cand):
        raise ValueError(f"windows differ: {sorted(base)} against {sorted(cand)}")
    for w in (1, 16):
        if w in cand and cand[w]['goals'] < base[w]['goals']:
            why.append(f"goals drop on seeds {w}-{w + 14}: {base[w]['goals']} -> {cand[w]['goals']}")
    for w in sorted(cand):
        if cand[w]['over']:
            why.append(f"window {w}: {len(cand[w]['over'])} limit(s) exceeded: "
                       + "; ".join(cand[w]['over']))
    mb = mean(base)
    mc = mean(cand)
    if mc < mb - 1e-9:
        why.append(f"mean drops: {mb:.2f} -> {mc:.2f}")
    return why


def mean(s):
    return sum(v['goals'] for v in s.values()) / len(s)


def file_key(args):
    h = hashlib.sha1()
    with open(args.bin, 'rb') as f:
        h.update(f.read())
    thr = os.path.join(args.root, 'traces', 'thresholds.json')
    with open(thr, 'rb') as f:
        h.update(f.read())
    for p in sorted(glob.glob(os.path.join(args.root, 'traces', '*'))):
        h.update(f"{os.path.basename(p)} {os.path.getsize(p)}\n".encode())
    return h.hexdigest()[:16]


def run_window(args, key, opts, seed):
    ck = hashlib.sha1(f"{key} {opts} {seed}".encode()).hexdigest()[:20]
    path = os.path.join(args.cache, ck + '.json')
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    if args.cached_only:
        return None
    cmd = ['nice', '-n', '19', os.path.abspath(args.bin), 'validate', '--json',
           '--first-seed', str(seed)] + shlex.split(opts)
    r = subprocess.run(cmd, cwd=args.root, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[:300]}")
    try:
        s = summarize(json.loads(r.stdout))
    except (ValueError, json.JSONDecodeError) as e:
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}, no JSON ({e}): "
                           f"{r.stderr.strip()[:300]}")
    s['opts'] = opts
    s['seed'] = seed
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(s, f)
    os.replace(tmp, path)
    return s


def load_dir(d):
    out = {}
    for p in glob.glob(os.path.join(d, 'w*.json')):
        name = os.path.basename(p)[1:-5]
        if not name.isdigit():
            continue
        with open(p) as f:
            out[int(name)] = summarize(json.load(f))
    if not out:
        raise ValueError(f"{d}: no w<S>.json files")
    return out


def report(label, base, cand, args):
    goals = " ".join(f"{cand[w]['goals']:3d}" for w in sorted(cand))
    lim = " ".join(f"{len(cand[w]['over'])}" for w in sorted(cand))
    names = {}
    for w in sorted(cand):
        for o in cand[w]['over']:
            k = " ".join(o.split()[:2])
            names[k] = names.get(k, 0) + 1
    why = verdict(base, cand)
    v = "PASS" if not why else "fail"
    kinds = [f"{k} x{n}" for k, n in sorted(names.items())]
    if len(kinds) > 6 and not args.detail:
        kinds = kinds[:5] + [f"... {len(kinds) - 5} more"]
    nm = ", ".join(kinds) or "-"
    if args.markdown:
        print(f"| `{label or '(default)'}` | {goals} | {mean(cand):.2f} | "
              f"{mean(cand) - mean(base):+.2f} | {sum(len(c['over']) for c in cand.values())} | "
              f"{nm} | {v} |")
    else:
        print(f"{label or '(default)':60s} goals {goals}  mean {mean(cand):7.2f} "
              f"({mean(cand) - mean(base):+.2f})  limits {lim}  {v}")
        if names:
            print(f"{'':60s} exceeded: {nm}")
    for key in args.show or []:
        errs = [cand[w].get('errors', {}).get(key) for w in sorted(cand)]
        print(f"{'':8s}{key}: " + " ".join('n/a' if e is None else f"{e * 100:+.1f}"
                                         for e in errs))
    if args.detail:
        cnt = lambda s, g: sum(1 for w in s if g in s[w]['met'])
        allg = set()
        for s in (base, cand):
            for w in s:
                allg.update(s[w]['met'])
        for g in sorted(allg):
            a, b = cnt(base, g), cnt(cand, g)
            if a != b:
                print(f"{'':8s}{g}: {a} -> {b} of {len(cand)}")
    sys.stdout.flush()
    return not why


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('sets', nargs='*', help='option sets, one quoted argument each')
    ap.add_argument('--bin', help='the schedreplay binary')
    ap.add_argument('--root', default='.', help='repository root (traces/, thresholds.json)')
    ap.add_argument('--cache', default='/tmp/adopt_sweep_cache')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--sets-file')
    ap.add_argument('--windows', default=",".join(map(str, WINDOWS)),
                    help='first seeds, comma-separated (default the eight windows)')
    ap.add_argument('--cached-only', action='store_true',
                    help='run nothing: report the sets whose windows are all in --cache')
    ap.add_argument('--detail', action='store_true')
    ap.add_argument('--show', action='append', metavar='"TRACE METRIC"',
                    help='print that metric\'s error (%%) per window under each set (repeatable)')
    ap.add_argument('--markdown', action='store_true')
    ap.add_argument('--verdict', nargs=2, metavar=('BASE_DIR', 'SET_DIR'))
    args = ap.parse_args()

    if args.verdict:
        try:
            base, cand = load_dir(args.verdict[0]), load_dir(args.verdict[1])
            ok = report(args.verdict[1], base, cand, args)
            for r in verdict(base, cand):
                print(f"  {r}")
        except (OSError, ValueError, json.JSONDecodeError) as e:
            print(f"adopt_sweep: {e}", file=sys.stderr)
            return 2
        return 0 if ok else 1

    if not args.bin:
        print("adopt_sweep: --bin BUILD/schedreplay is needed (or --verdict)", file=sys.stderr)
        return 2
    sets = list(args.sets)
    if args.sets_file:
        with open(args.sets_file) as f:
            sets += [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith('#')]
    windows = [int(x) for x in args.windows.split(',')]
    os.makedirs(args.cache, exist_ok=True)
    key = file_key(args)
    todo = [('', w) for w in windows] + [(s, w) for s in sets for w in windows]
    res = {}
    failed = False
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(run_window, args, key, s, w): (s, w) for s, w in todo}
        for f in concurrent.futures.as_completed(futs):
            s, w = futs[f]
            try:
                r = f.result()
                if r is not None:
                    res.setdefault(s, {})[w] = r
            except RuntimeError as e:
                print(f"adopt_sweep: {e}", file=sys.stderr)
                failed = True
    base = res.get('')
    if not base or len(base) != len(windows):
        print("adopt_sweep: the default's windows did not all run", file=sys.stderr)
        return 1
    if args.markdown:
        print("| set | goals per window (" + ", ".join(map(str, windows)) +
              ") | mean | vs default | limits exceeded | which (windows) | rule |")
        print("|---|---|---:|---:|---:|---|---|")
    report('', base, base, args)
    for s in sets:
        if s in res and len(res[s]) == len(windows):
            report(s, base, res[s], args)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
