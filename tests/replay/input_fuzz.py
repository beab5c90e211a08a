#!/usr/bin/env python3
"""Structured mutations of the inputs that are not trace files.

The trace reader has tests/reader/fuzz.py and the options
tests/replay/option_sweep.py; this one mutates the other files a command
reads, each through the commands that read it:

  sidecar   traces/bw-hogs.dat.json      report/replay --sidecar F bw-hogs.dat
  cgmap     a --cgroup-map file          replay --cgroup-map F small-hackbench.dat
  variants  tests/variants/data/good.json  variants --json --variants-file F,
                                         replay --variants-file F --all-variants
  machine   docs/machines/two-socket.json  whatif --machine F --variant base
  thresh    traces/thresholds.json's small-hackbench.dat entry
                                         validate --dir D --thresholds F --seeds 1 --json

(the traces/*.probe.json files are read by no command: only by the Python
analysis helpers).

Mutations, deterministic for a --seed: JSON - every key deleted (del),
every value retyped to null/string/list/object/bool (type), every number
set to -1, 0, 0.5, 1e308, -1e308, 2^31, 2^63, 2^64, -2^63-1, 1e400 (num),
every string set to "", 100 kB, control characters, a NUL escape, bytes that
are not UTF-8 (str), a duplicated key (dup), the sidecar's CPU topology
cut or grown to 1, 3, 8, 300 CPUs (cpus), nesting 20 000 deep at a value
and at the top (deep), a UTF-8 BOM, trailing data, a lone surrogate escape
(garbage); text (cgmap) - dropped/duplicated lines, numbers replaced
(negative, 0, 2^63, 2^64, 1e9, 0x10, +5, NaN), fields dropped or added, NUL,
non-UTF-8, CR LF, a 1 MiB line (text); both - truncation at every byte for
files up to --trunc-all bytes, else at 64 spread offsets (trunc); and the
special files: empty, a directory, /dev/null, /dev/zero, a FIFO fed the
good file by a writer, a FIFO nobody writes to is NOT run (open() blocks,
as for any program reading a FIFO), a missing file, a dangling symlink
(special).

A run is flagged (BUG-*) for: a sanitizer report (sanitizer), a signal or
an exit other than 0/1/2 (crash, exit), a timeout (hang), a failing exit
with no stderr line or with more than one line that is not a warning
(multiline, nomsg), a failing exit whose message names neither the file nor
the option (noname), exit 0 on a file that is no JSON at all (accepted-bad:
JSON kinds only), and nan/inf in exit 0 output (insane).  Exit 0 after a
`num`/`type`/`str` mutation is listed as "accepted" (with the key path) for
review: which of those values are meaningless is the reviewer's call.

Usage:
  input_fuzz.py run   --bin B --traces DIR --work DIR [--kinds k,k] [--seed N]
                      [--max N] [--trunc-all BYTES] [--timeout S] [--jobs N] [--nice N]
                      [--log FILE] [--accepted FILE]
  input_fuzz.py smoke --bin B --traces DIR --work DIR     (ctest replay_input_fuzz_smoke:
                      4 cases of every kind x class and every special file, exit 1
                      on any BUG)
  input_fuzz.py case  --bin B --traces DIR --work DIR ID [--expect error|ok]
                      (one case by its id, as `run` prints it; exit 1 on a BUG or
                      another outcome than --expect)
  input_fuzz.py list  --work DIR [--kinds k,k] [--seed N] [--max N]   the case ids
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import threading

SRC = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(SRC))

SANITIZER = re.compile(r"ERROR: (Address|Leak|Memory|Thread)Sanitizer|runtime error:|"
                       r"SUMMARY: (Address|Undefined|Leak)")
INSANE = re.compile(rb"\b-?(nan|inf)\b", re.I)

# --- base files -----------------------------------------------------------


def cgmap_base():
    return ("# fuzz base\n"
            "100 /fz/a\n"
            "200 /fz/b\n"
            "shares /fz/a 512\n"
            "shares /fz/b 2048\n"
            "quota /fz/b 20000 100000\n"
            "quota /fz/a -1\n")


def thresh_base(traces):
    d = json.load(open(os.path.join(traces, "thresholds.json")))
    e = d["traces"]["small-hackbench.dat"]
    out = {k: d[k] for k in ("schema", "version") if k in d}
    out["traces"] = {"small-hackbench.dat": {k: e[k] for k in ("latency_group", "max_rel_error")
                                              if k in e}}
    return json.dumps(out, indent=1) + "\n"


class Kind:
    def __init__(self, name, json_kind, base, cmds, opt):
        self.name, self.json, self.base, self.cmds, self.opt = name, json_kind, base, cmds, opt


def kinds(binary, traces, work):
    """name -> Kind; cmds: lists of argv templates, @F@ the mutated file."""
    tr = lambda n: os.path.join(traces, n)
    # == `whatif --print-machine two-socket` (variants_cli_whatif checks it)
    machine = open(os.path.join(ROOT, "docs/machines/two-socket.json")).read()
    vdir = os.path.join(work, "vdir")
    os.makedirs(vdir, exist_ok=True)
    link = os.path.join(vdir, "small-hackbench.dat")
    if not os.path.lexists(link):
        os.symlink(os.path.abspath(tr("small-hackbench.dat")), link)
    return {
        "sidecar": Kind("sidecar", True, open(tr("bw-hogs.dat.json")).read(),
                        [["report", "--sidecar", "@F@", tr("bw-hogs.dat")],
                         ["replay", "--json", "--sidecar", "@F@", tr("bw-hogs.dat")]],
                        "--sidecar"),
        "cgmap": Kind("cgmap", False, cgmap_base(),
                      [["replay", "--json", "--cgroup-map", "@F@", tr("small-hackbench.dat")]],
                      "--cgroup-map"),
        "variants": Kind("variants", True,
                         open(os.path.join(ROOT, "tests/variants/data/good.json")).read(),
                         [["variants", "--json", "--variants-file", "@F@"],
                          ["replay", "--variants-file", "@F@", "--all-variants", "--threads", "1",
                           tr("small-pipe.dat")]],
                         "--variants-file"),
        "machine": Kind("machine", True, machine,
                        [["whatif", "--machine", "@F@", "--variant", "base", "--threads", "1",
                          tr("small-hackbench.dat")]], "--machine"),
        "thresh": Kind("thresh", True, thresh_base(traces),
                       [["validate", "--dir", vdir, "--thresholds", "@F@", "--seeds", "1",
                         "--json"]], "--thresholds"),
    }

# --- mutations --------------------------------------------------------------


def walk(v, path=()):
    """(path, value) of every node below the root."""
    if isinstance(v, dict):
        for k, x in v.items():
            yield path + (k,), x
            yield from walk(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield path + (i,), x
            yield from walk(x, path + (i,))


def setp(root, path, val, delete=False):
    o = root
    for p in path[:-1]:
        o = o[p]
    if delete:
        del o[path[-1]]
    else:
        o[path[-1]] = val


def pstr(path):
    return ">".join(str(p) for p in path)


def pget(s):
    return tuple(int(p) if p.isdigit() else p for p in s.split(">")) if s else ()


NUMS = {"neg": "-1", "zero": "0", "half": "0.5", "big": "1e308", "nbig": "-1e308",
        "i31": "2147483648", "i63": "9223372036854775808", "i64": "18446744073709551616",
        "n63": "-9223372036854775809", "inf": "1e400", "tiny": "1e-320"}
TYPES = {"null": None, "str": "x", "list": [], "obj": {}, "bool": True, "int": 7}
STRS = {"empty": "", "long": "y" * 100000, "ctl": "a\nb\x1b[31m\t", "nul": "a\u0000b",
        "path": "../../../etc/passwd"}


def dumps_with(root, path, raw):
    """root as JSON text with the value at path replaced by the raw text."""
    mark = "\u0001FZMARK\u0001"
    setp(root, path, mark)
    return json.dumps(root, indent=1).replace(json.dumps(mark), raw)


def json_cases(base, rng, trunc_all):
    root = json.loads(base)
    nodes = list(walk(root))
    cases = []
    for p, v in nodes:
        cases.append(("del", "at=" + pstr(p)))
        for t in TYPES:
            if type(v) is not type(TYPES[t]):
                cases.append(("type", "at=%s:v=%s" % (pstr(p), t)))
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            cases += [("num", "at=%s:v=%s" % (pstr(p), n)) for n in NUMS]
        if isinstance(v, str):
            cases += [("str", "at=%s:v=%s" % (pstr(p), s)) for s in STRS]
            cases.append(("str", "at=%s:v=nonutf8" % pstr(p)))
        if isinstance(p[-1], str):
            cases.append(("dup", "at=" + pstr(p)))
        cases.append(("deep", "at=" + pstr(p)))
    cases += [("deep", "top"), ("garbage", "bom"), ("garbage", "trailing"),
              ("garbage", "surrogate"), ("garbage", "utf16"), ("garbage", "nonutf8key")]
    if isinstance(root.get("cpus"), dict) and isinstance(root["cpus"].get("topology"), list):
        # a sidecar whose CPUs are not the trace's: fewer (the events are on
        # CPUs it does not list) or more
        cases += [("cpus", "n=%d" % n) for n in (1, 3, 8, 300)]
    cases += trunc_cases(len(base.encode()), rng, trunc_all)
    return cases


def trunc_cases(n, rng, trunc_all):
    if n <= trunc_all:
        offs = range(n)
    else:
        offs = sorted(set([0, 1, n - 1, n // 2] + [rng.randrange(n) for _ in range(60)]))
    return [("trunc", "at=%d" % o) for o in offs]


def json_mutate(base, cls, params):
    root = json.loads(base)
    kv = dict(x.split("=", 1) for x in params.split(":") if "=" in x)
    at = pget(kv.get("at", ""))
    enc = lambda s: s.encode()
    if cls == "del":
        setp(root, at, None, delete=True)
        return enc(json.dumps(root, indent=1))
    if cls == "type":
        setp(root, at, TYPES[kv["v"]])
        return enc(json.dumps(root, indent=1))
    if cls == "num":
        return enc(dumps_with(root, at, NUMS[kv["v"]]))
    if cls == "str":
        if kv["v"] == "nonutf8":
            return dumps_with(root, at, '"ab\\u00ffFZNU"').encode().replace(
                b"\\u00ffFZNU", b"\xff\xfe\xc0\x80")
        setp(root, at, STRS[kv["v"]])
        return enc(json.dumps(root, indent=1))
    if cls == "dup":
        txt = json.dumps(root, indent=1)
        # the key again, as the first member of its object
        o = root
        for p in at[:-1]:
            o = o[p]
        val = json.dumps(o[at[-1]])
        keytxt = json.dumps(at[-1])
        mark = "\u0001FZ\u0001"
        setp(root, at, mark)
        txt = json.dumps(root, indent=1)
        return enc(txt.replace(json.dumps(mark), val + ", " + keytxt + ": " + val))
    if cls == "deep":
        if params == "top":
            return b"[" * 20000 + b"]" * 20000
        return enc(dumps_with(root, at, "[" * 20000 + "]" * 20000))
    if cls == "garbage":
        txt = json.dumps(root, indent=1).encode()
        if params == "bom":
            return b"\xef\xbb\xbf" + txt
        if params == "trailing":
            return txt + b"\n{}garbage"
        if params == "surrogate":
            return b'{"\\ud800": 1,' + txt[1:]
        if params == "utf16":
            return txt.decode().encode("utf-16")
        if params == "nonutf8key":
            return b'{"\xff\xfe": 1,' + txt[1:]
    if cls == "cpus":
        n = int(kv["n"])
        topo = root["cpus"]["topology"]
        root["cpus"]["topology"] = [dict(topo[min(i, len(topo) - 1)], cpu=i) for i in range(n)]
        idle = root.get("trace", {}).get("idle_switches")
        if isinstance(idle, list):
            root["trace"]["idle_switches"] = [x for x in idle if x.get("cpu", 0) < n]
        return enc(json.dumps(root, indent=1))
    if cls == "trunc":
        return base.encode()[:int(kv["at"])]
    raise ValueError("unknown case %s/%s" % (cls, params))


TEXT_NUMS = ["-1", "0", "1", "9223372036854775808", "18446744073709551616", "1000000000000",
             "0x10", "+5", "NaN", "1e9", "-0", "00512", "2147483648"]


def text_cases(base, rng, trunc_all):
    lines = base.splitlines(keepends=True)
    cases = []
    for i, ln in enumerate(lines):
        cases += [("text", "l=%d:op=drop" % i), ("text", "l=%d:op=dup" % i),
                  ("text", "l=%d:op=nul" % i), ("text", "l=%d:op=nonutf8" % i),
                  ("text", "l=%d:op=crlf" % i), ("text", "l=%d:op=extra" % i),
                  ("text", "l=%d:op=short" % i), ("text", "l=%d:op=tabs" % i)]
        for f, w in enumerate(ln.split()):
            if re.fullmatch(r"-?\d+", w):
                cases += [("num", "l=%d:f=%d:v=%d" % (i, f, k)) for k in range(len(TEXT_NUMS))]
            elif w.startswith("/"):
                cases += [("text", "l=%d:f=%d:op=%s" % (i, f, op))
                          for op in ("relpath", "dotdot", "slashes", "long", "root")]
    cases += [("text", "op=longline"), ("text", "op=nonewline")]
    cases += trunc_cases(len(base.encode()), rng, trunc_all)
    return cases


def text_mutate(base, cls, params):
    lines = base.splitlines(keepends=True)
    kv = dict(x.split("=", 1) for x in params.split(":") if "=" in x)
    if cls == "trunc":
        return base.encode()[:int(kv["at"])]
    if kv.get("op") == "longline":
        return base.encode() + b"100 /" + b"x" * (1 << 20) + b"\n"
    if kv.get("op") == "nonewline":
        return base.rstrip("\n").encode()
    i = int(kv["l"])
    ln = lines[i]
    words = ln.split()
    if cls == "num":
        words[int(kv["f"])] = TEXT_NUMS[int(kv["v"])]
        lines[i] = " ".join(words) + "\n"
    else:
        op = kv["op"]
        if "f" in kv:
            f = int(kv["f"])
            words[f] = {"relpath": words[f].lstrip("/"), "dotdot": words[f] + "/../..",
                        "slashes": "//" + words[f] + "//", "long": "/" + "z" * 5000,
                        "root": "/"}[op]
            lines[i] = " ".join(words) + "\n"
        elif op == "drop":
            lines[i] = ""
        elif op == "dup":
            lines[i] = ln + ln
        elif op == "nul":
            lines[i] = ln[:2] + "\0" + ln[2:]
        elif op == "crlf":
            lines[i] = ln.rstrip("\n") + "\r\n"
        elif op == "extra":
            lines[i] = ln.rstrip("\n") + " 7\n"
        elif op == "short":
            lines[i] = " ".join(words[:-1]) + "\n"
        elif op == "tabs":
            lines[i] = "\t".join(words) + "\t\n"
        elif op == "nonutf8":
            return ("".join(lines[:i]).encode() + ln.rstrip("\n").encode() + b"\xff\xc0\n" +
                    "".join(lines[i + 1:]).encode())
    return "".join(lines).encode()


SPECIAL = ["empty", "dir", "devnull", "devzero", "fifo", "missing", "dangling", "hugefile"]


def all_cases(k, seed, trunc_all):
    rng = random.Random("%s/%d" % (k.name, seed))
    cs = json_cases(k.base, rng, trunc_all) if k.json else text_cases(k.base, rng, trunc_all)
    cs += [("special", s) for s in SPECIAL]
    return ["%s/%s/%s" % (k.name, c, p) for c, p in cs]


# --- running ---------------------------------------------------------------

def materialize(k, cls, params, path):
    """The input at path; returns (path to give, fifo feeder thread or None)."""
    if cls == "special":
        if params == "empty":
            open(path, "wb").close()
        elif params == "dir":
            os.makedirs(path, exist_ok=True)
        elif params == "devnull":
            return "/dev/null", None
        elif params == "devzero":
            return "/dev/zero", None
        elif params == "missing":
            return path + ".missing", None
        elif params == "dangling":
            os.symlink(path + ".nowhere", path)
        elif params == "hugefile":
            with open(path, "wb") as f:   # 2 MiB of one JSON array / one text line
                if k.json:
                    f.write(b"[" + b"1," * (1 << 20) + b"1]")
                else:
                    f.write(b"1" * (2 << 20) + b"\n")
        elif params == "fifo":
            os.mkfifo(path)
            data = k.base.encode()

            def feed():
                try:
                    fd = os.open(path, os.O_WRONLY)
                    try:
                        os.write(fd, data)
                    finally:
                        os.close(fd)
                except OSError:
                    pass
            t = threading.Thread(target=feed, daemon=True)
            t.start()
            return path, t
        return path, None
    data = json_mutate(k.base, cls, params) if k.json else text_mutate(k.base, cls, params)
    with open(path, "wb") as f:
        f.write(data)
    return path, None


def cleanup(path):
    for p in (path, path + ".nowhere"):
        try:
            if os.path.isdir(p) and not os.path.islink(p):
                shutil.rmtree(p)
            elif os.path.lexists(p):
                os.unlink(p)
        except OSError:
            pass


def is_json(data):
    try:
        json.loads(data.decode("utf-8"))
        return True
    except (ValueError, UnicodeDecodeError):
        return False


def classify(k, cls, params, argv, rc, out, err, fname):
    lines = [ln for ln in err.splitlines() if ln.strip()]
    errs = [ln for ln in lines if ": warning:" not in ln and "warning:" not in ln[:80]]
    if rc == "timeout":
        return "BUG-hang"
    if SANITIZER.search(err):
        return "BUG-sanitizer"
    if rc < 0:
        return "BUG-crash"
    if rc not in (0, 1, 2):
        return "BUG-exit"
    if rc != 0:
        if argv[0] == "validate" and rc == 1 and not errs:
            return "limits"      # a limit exceeded: validate's documented exit 1
        if not errs:
            return "BUG-nomsg"
        if len(errs) > 1:
            return "BUG-multiline"
        if os.path.basename(fname) not in errs[0] and k.opt not in errs[0]:
            return "BUG-noname"
        return "error"
    if INSANE.search(out):
        return "BUG-insane"
    if k.json and os.path.isfile(fname) and not is_json(open(fname, "rb").read()):
        return "BUG-accepted-bad"       # no JSON at all, and exit 0
    if cls == "special" and params != "fifo" and \
            not (k.name == "cgmap" and params in ("empty", "devnull")):
        return "BUG-accepted-bad"       # nothing, or not a file, and exit 0
    if cls in ("num", "type", "str", "del", "dup", "cpus") or cls == "text":
        return "accepted"
    return "ok"


def run_case(binary, kinds_, work, cid, timeout, nice):
    kname, cls, params = cid.split("/", 2)
    k = kinds_[kname]
    safe = re.sub(r"[^A-Za-z0-9_.=-]", "_", cid)[:150]
    path = os.path.join(work, "in", safe + (".json" if k.json else ".map"))
    cleanup(path)
    fname, feeder = materialize(k, cls, params, path)
    results = []
    for tmpl in k.cmds:
        argv = [fname if a == "@F@" else a for a in tmpl]
        if feeder is not None and results:     # the FIFO again for the next command
            feeder = threading.Thread(target=lambda: None)
            cleanup(path)
            fname, feeder = materialize(k, cls, params, path)
        env = dict(os.environ, ASAN_OPTIONS="abort_on_error=0:detect_leaks=1:exitcode=99",
                   UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=98")
        try:
            p = subprocess.run(["nice", "-n", str(nice), binary] + argv, capture_output=True,
                               timeout=timeout, env=env)
            rc, out, err = p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            rc, out, err = "timeout", b"", ""
        if feeder is not None:
            # unblock a feeder whose reader never opened the FIFO
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
                os.close(fd)
            except OSError:
                pass
            feeder.join(2)
        outcome = classify(k, cls, params, argv, rc, out, err, fname)
        results.append({"case": cid, "cmd": argv[0], "rc": rc, "outcome": outcome,
                        "stderr": err[-2000:]})
    cleanup(path)
    return results


def run_cases(a, cids, kinds_):
    os.makedirs(os.path.join(a.work, "in"), exist_ok=True)
    counts, bugs, accepted = {}, [], []
    log = open(a.log, "w") if a.log else None
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = [ex.submit(run_case, a.bin, kinds_, a.work, c, a.timeout, a.nice) for c in cids]
        for f in futs:
            for r in f.result():
                kname, cls, _ = r["case"].split("/", 2)
                key = (kname, r["cmd"], cls, r["outcome"])
                counts[key] = counts.get(key, 0) + 1
                if r["outcome"].startswith("BUG"):
                    bugs.append(r)
                elif r["outcome"] == "accepted":
                    accepted.append(r)
                if log:
                    log.write(json.dumps(r) + "\n")
    for key in sorted(counts):
        print("%-9s %-9s %-8s %-18s %5d" % (key + (counts[key],)))
    if a.accepted:
        with open(a.accepted, "w") as f:
            for r in accepted:
                f.write("%s %s\n" % (r["cmd"], r["case"]))
    for b in bugs:
        print("%s %s rc=%s %s\n    %s" % (b["outcome"], b["cmd"], b["rc"], b["case"],
                                         b["stderr"].strip().replace("\n", "\n    ")[:1500]))
    print("%d runs, %d BUG" % (sum(counts.values()), len(bugs)))
    return 1 if bugs else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["run", "smoke", "case", "list"])
    ap.add_argument("id", nargs="?")
    ap.add_argument("--bin", default=None)
    ap.add_argument("--traces", default=os.path.join(ROOT, "traces"))
    ap.add_argument("--work", required=True)
    ap.add_argument("--kinds", default="sidecar,cgmap,variants,machine,thresh")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max", type=int, default=0, help="at most N cases per kind (sampled)")
    ap.add_argument("--trunc-all", type=int, default=4096)
    ap.add_argument("--timeout", type=float,
                    default=float(os.environ.get("SR_FUZZ_TIMEOUT", "20")))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--nice", type=int, default=19)
    ap.add_argument("--log")
    ap.add_argument("--accepted")
    ap.add_argument("--expect", choices=["error", "ok", "notbug"], default="notbug")
    a = ap.parse_args()
    os.makedirs(os.path.join(a.work, "in"), exist_ok=True)
    kinds_ = kinds(a.bin, a.traces, a.work)
    if a.mode == "case":
        res = run_case(a.bin, kinds_, a.work, a.id, a.timeout, a.nice)
        bad = 0
        for r in res:
            print("%s %s rc=%s %s" % (r["outcome"], r["cmd"], r["rc"], r["stderr"].strip()))
            want = {"error": ("error",), "ok": ("ok", "accepted")}.get(a.expect)
            if r["outcome"].startswith("BUG") or (want and r["outcome"] not in want):
                bad = 1
        return bad
    cids = []
    for kn in a.kinds.split(","):
        cs = all_cases(kinds_[kn], a.seed, a.trunc_all)
        if a.mode == "smoke":
            # every class of the kind at least twice, about 60 cases per kind
            rng = random.Random("smoke/%s" % kn)
            byc = {}
            for c in cs:
                byc.setdefault(c.split("/")[1], []).append(c)
            pick = []
            for cl in sorted(byc):
                pick += byc[cl] if cl == "special" else rng.sample(byc[cl], min(4, len(byc[cl])))
            cs = pick
        elif a.max and len(cs) > a.max:
            rng = random.Random("max/%s/%d" % (kn, a.seed))
            special = [c for c in cs if "/special/" in c]
            cs = rng.sample([c for c in cs if "/special/" not in c], a.max - len(special)) + special
        cids += cs
    if a.mode == "list":
        print("\n".join(cids))
        return 0
    return run_cases(a, cids, kinds_)


if __name__ == "__main__":
    sys.exit(main())
