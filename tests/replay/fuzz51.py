#!/usr/bin/env python3
"""Input-robustness round fuzz51: trace.dat version 7 by its structure, and
the sidecar fields added since fuzz50.

fuzz50.py's rule and runner (one stderr line and a non-zero exit, or exit 0;
never a sanitizer report, a signal or a hang), on a fixed list of mutants:

  v6size   traces/pipe-pinned-run4.dat (v6): each CPU's flyrecord size 0 / 4096
  v7hdr    traces/small-pipe.dat (trace-cmd 3.1.6's v7, zstd): the initial
           header's version, endianness, long size, page size, compression
           name and version, the first options section's offset
  v7off    every 8-byte section offset, flyrecord CPU data offset and size
           that `trace-cmd dump --all` names, where it is stored in the file:
           0, -1, +1, +4096, the file's size, 2^63, 2^64-1
  v7sec    each section header (id, flags, string id, size) and the first
           compressed block's sizes of each compressed section
  v7flip   bit flips inside each section's compressed data and each CPU's
           flyrecord data, cuts at every section start
  sdev     sched_debug "during" reads (--sched-debug-every) and autogroup
           of pipe-pinned-run4's sidecar

Usage:
    fuzz51.py --bin ASAN/schedreplay [--jobs 2] [--only KIND,..] [--regress]
              [--smoke] [--log FILE]
Each exit-0 run of a v7 mutant is also compared with the unmutated trace's
`replay --json` counts: "ok-differs" is listed for a look (a mutation of
data the reader cannot check, e.g. a flipped timestamp bit, may change them).
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fuzz50  # noqa: E402

V7 = os.path.join(fuzz50.TRACES, "small-pipe.dat")


def v7_layout(data):
    """Sections (offset, flags, size) and flyrecord CPU (offset, size) from trace-cmd dump."""
    with tempfile.NamedTemporaryFile(suffix=".dat") as f:
        f.write(data)
        f.flush()
        out = subprocess.run(["trace-cmd", "dump", "--all", "-i", f.name], capture_output=True,
                             text=True, timeout=60).stdout
    secs, cpus = {}, []
    for m in re.finditer(r"\[Section\s+(\d+) @ (\d+)\s*[:\t ].*?flags 0x(\w+), (\d+)", out):
        secs[int(m.group(2))] = (int(m.group(1)), int(m.group(3), 16), int(m.group(4)))
    for m in re.finditer(r"^\s+(\d+) (\d+)\s+(\d+)\s+\[id, data offset and size\]", out, re.M):
        cpus.append((int(m.group(2)), int(m.group(3))))
    return secs, sorted(set(cpus))


def put(data, at, b):
    x = bytearray(data)
    x[at:at + len(b)] = b
    return bytes(x)


def dat_case(cid, blob, cmds=("report", "replay")):
    return dict(id=cid, expect="any", v7=blob, cmds=list(cmds))


def cases_v7hdr():
    data = open(V7, "rb").read()
    out = []
    # magic 10 bytes, "7\0", endian, long size, page size (4)
    for k, v in enumerate((b"6", b"8", b"9", b"\0", b"A")):
        out.append(dat_case(f"v7hdr/version/{k}", put(data, 10, v)))
    for k, v in enumerate((b"\x01", b"\x02", b"\xff")):
        out.append(dat_case(f"v7hdr/endian/{k}", put(data, 12, v)))
    for k, v in enumerate((b"\x04", b"\x00", b"\x10", b"\xff")):
        out.append(dat_case(f"v7hdr/long/{k}", put(data, 13, v)))
    for k, v in enumerate((0, 1, 3, 2048, 65536, 2 ** 31, 2 ** 32 - 1)):
        out.append(dat_case(f"v7hdr/page/{k}", put(data, 14, struct.pack("<I", v))))
    i = data.index(b"zstd\0")
    for k, v in enumerate((b"none", b"zzzz", b"zlib", b"\0std", b"zst\xff")):
        out.append(dat_case(f"v7hdr/comp/{k}", put(data, i, v)))
    j = data.index(b"\0", i + 5)                       # the version string's end
    out.append(dat_case("v7hdr/compver-long", data[:i + 5] + b"9" * 300 + data[j:]))
    out.append(dat_case("v7hdr/compver-none", data[:i + 5] + data[j:]))
    opt = j + 1                                        # the first options section's offset
    n = len(data)
    for k, v in enumerate((0, 1, opt, n, n - 1, n + 1, 2 ** 63, 2 ** 64 - 1)):
        out.append(dat_case(f"v7hdr/optoff/{k}", put(data, opt, struct.pack("<Q", v))))
    return out


def cases_v7off():
    data = open(V7, "rb").read()
    secs, cpus = v7_layout(data)
    n = len(data)
    vals = set(secs) | set(o for o, _ in cpus) | set(s for _, s in cpus)
    meta_end = min(o for o, _ in cpus) if cpus else n
    out = []
    for v in sorted(vals):
        enc = struct.pack("<Q", v)
        for at in fuzz50.find_all(data, enc):
            if meta_end <= at < max(o + s for o, s in cpus):
                continue                              # inside CPU data: not a field
            for k, nv in enumerate((0, v - 1, v + 1, v + 4096, n, 2 ** 63, 2 ** 64 - 1)):
                out.append(dat_case(f"v7off/{v}@{at}/{k}", put(data, at, struct.pack("<Q", nv))))
    return out


def cases_v7sec():
    data = open(V7, "rb").read()
    secs, _ = v7_layout(data)
    out = []
    for off, (sid, flags, size) in sorted(secs.items()):
        # section header: id u16, flags u16, string id u32, size u64
        for k, v in enumerate((sid + 1, 0xffff)):
            out.append(dat_case(f"v7sec/{off}/id/{k}", put(data, off, struct.pack("<H", v))))
        for k, v in enumerate((flags ^ 1, 0xffff)):
            out.append(dat_case(f"v7sec/{off}/flags/{k}",
                                put(data, off + 2, struct.pack("<H", v))))
        out.append(dat_case(f"v7sec/{off}/str", put(data, off + 4, struct.pack("<I", 0xfffffff0))))
        for k, v in enumerate((0, 1, 2 ** 63)):
            out.append(dat_case(f"v7sec/{off}/size/{k}",
                                put(data, off + 8, struct.pack("<Q", v))))
        if flags & 1:
            # compressed: u32 compressed size, u32 uncompressed size, then the blocks
            b = off + 16
            for k, v in enumerate((0, 1, 2 ** 31, 2 ** 32 - 1)):
                out.append(dat_case(f"v7sec/{off}/csize/{k}", put(data, b, struct.pack("<I", v))))
                out.append(dat_case(f"v7sec/{off}/usize/{k}",
                                    put(data, b + 4, struct.pack("<I", v))))
    return out


def cases_v7flip():
    data = open(V7, "rb").read()
    secs, cpus = v7_layout(data)
    out = []
    spots = []
    for off, (sid, flags, size) in sorted(secs.items()):
        spots += [off + 24, off + 30, off + 16 + size // 2, off + 16 + size - 2]
        out.append(dat_case(f"v7flip/cut/{off}", data[:off]))
        out.append(dat_case(f"v7flip/cut/{off}+20", data[:off + 20]))
    for o, s in cpus:
        spots += [o, o + 4, o + 8, o + 12, o + 20, o + 40, o + s // 2, o + s - 1]
        out.append(dat_case(f"v7flip/cpucut/{o}", data[:o + s // 2]))
    for p in sorted(set(x for x in spots if 0 <= x < len(data))):
        for bit in (0x01, 0x80):
            b = bytearray(data)
            b[p] ^= bit
            out.append(dat_case(f"v7flip/{p}/{bit}", bytes(b)))
    return out


def cases_sdev():
    out = []
    sd_cmds = fuzz50.SD_CMDS

    def sc(cid, expect, edit):
        out.append(fuzz50.sidecar_case("sdev/" + cid, expect, edit, sd_cmds))

    def during(d, k=1):
        r = d["sched_debug"]["reads"]
        r[k]["at"] = "during"

    def many_during(d):
        r = d["sched_debug"]["reads"]
        base = r[0]
        for k in range(2000):
            e = json.loads(json.dumps(base))
            e["at"] = "during"
            e["header"]["sched_clk"] = base["header"]["sched_clk"] + 1000 * (k + 1)
            r.insert(1 + k, e)
        d["sched_debug"]["every_ms"] = 1

    def during_first(d):
        d["sched_debug"]["reads"][0]["at"] = "during"

    def during_past_end(d):
        r = d["sched_debug"]["reads"]
        e = json.loads(json.dumps(r[0]))
        e["at"] = "during"
        e["header"]["sched_clk"] = 2 ** 62
        r.insert(1, e)

    def during_cpu_high(d):
        r = d["sched_debug"]["reads"]
        e = json.loads(json.dumps(r[0]))
        e["at"] = "during"
        e["cpus"][0]["cpu"] = 1
        r.insert(1, e)

    for cid, e, exp in (("during-1", during, "any"), ("many", many_during, "any"),
                        ("first", during_first, "any"), ("past-end", during_past_end, "any"),
                        ("cpu-dup1", during_cpu_high, "error"),
                        ("every-str", lambda d: d["sched_debug"].__setitem__("every_ms", "5"),
                         "error"),
                        ("every-real", lambda d: d["sched_debug"].__setitem__("every_ms", 1.5),
                         "error"),
                        ("every-null", lambda d: d["sched_debug"].__setitem__("every_ms", None),
                         "any")):
        sc(cid, exp, e)
    # autogroup: the top-level object and tasks_at_start's ids / nice
    for k, v in enumerate(({"enabled": "yes"}, {"enabled": None}, {}, [], "x", None,
                           {"enabled": 5})):
        out.append(fuzz50.sidecar_case(f"sdev/ag/{k}", "error" if k in (0, 3, 4, 6) else "any",
                                       lambda d, v=v: d.__setitem__("autogroup", v)))
    for k, (key, v) in enumerate((("autogroup", 0), ("autogroup", -1), ("autogroup", 2 ** 40),
                                  ("autogroup", "3"), ("autogroup_nice", 20),
                                  ("autogroup_nice", -21), ("autogroup_nice", 1.5),
                                  ("autogroup_nice", "0"), ("autogroup_nice", 2 ** 40))):
        out.append(fuzz50.sidecar_case(
            f"sdev/tag/{k}", "error" if key == "autogroup" else "any",
            lambda d, key=key, v=v: d["tasks_at_start"][3].__setitem__(key, v)))
    return out


def cases_v6size():
    """pipe-pinned-run4.dat (v6): each CPU's flyrecord size (after "flyrecord\\0": u64
    offset, u64 size per CPU) 0, as v7off's; run without its sidecar."""
    data = open(os.path.join(fuzz50.TRACES, fuzz50.SRC), "rb").read()
    at = data.index(b"flyrecord\0") + 10
    out = []
    for cpu in range(2):
        for k, v in enumerate((0, 4096)):
            c = dat_case(f"v6size/{cpu}/{k}", put(data, at + 16 * cpu + 8, struct.pack("<Q", v)))
            c["v6"] = True
            out.append(c)
    return out


KINDS = dict(v6size=cases_v6size, v7hdr=cases_v7hdr, v7off=cases_v7off, v7sec=cases_v7sec, v7flip=cases_v7flip,
             sdev=cases_sdev)

# The defects this round fixed (docs/validation-log.md, "Input-robustness round fuzz51"):
# the regex its first command's error must match, None: exit 0.
REGRESS = {
    "sdev/cpu-dup1": r"sched_debug\.reads\[1\]\.cpus lists CPU 1 twice",
    # the BUFFER option's CPU 0 / CPU 1 size set to 0: their events dropped at exit 0
    "v7off/50449@241106/0": r"CPU 0 has no data in the file \(its size is 0\), but its "
                            r"CPUSTAT says 12550 events were read",
    "v7off/40341@241126/0": r"CPU 1 has no data in the file \(its size is 0\), but its "
                            r"CPUSTAT says 10069 events were read",
    "v7hdr/optoff/0": r"corrupted: no HEADER_INFO option",
    "sdev/tag/0": r"tasks_at_start\[3\]\.autogroup is not an autogroup id \(1\.\.2147483647\) or null",
    "sdev/tag/1": r"tasks_at_start\[3\]\.autogroup is not an autogroup id",
    "sdev/ag/0": r"autogroup\.enabled is not true, false or null",
    "v6size/0/0": r"CPU 0 has no data in the file \(its size is 0\), but its CPUSTAT says",
    "v6size/1/0": r"CPU 1 has no data in the file \(its size is 0\), but its CPUSTAT says",
}

SMOKE = {"v6size": 2, "v7hdr": 6, "v7off": 6, "v7sec": 6, "v7flip": 6, "sdev": 4}


def run_v7(case, bin_, work, timeout, base):
    d = os.path.join(work, case["id"].replace("/", "_")[:150])
    os.makedirs(d, exist_ok=True)
    trace = os.path.join(d, fuzz50.SRC if case.get("v6") else "small-pipe.dat")
    with open(trace, "wb") as f:
        f.write(case["v7"])
    res = []
    try:
        for cmd in case["cmds"]:
            argv = [bin_] + cmd.split(" ") + (["--json"] if cmd == "replay" else []) + \
                (["--no-sidecar"] if case.get("v6") else []) + [trace]
            env = dict(os.environ, **fuzz50.SAN_ENV)
            timed_out = False
            try:
                p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   timeout=timeout, env=env, cwd=d)
                rc, err, so = p.returncode, p.stderr.decode(errors="replace"), p.stdout
            except subprocess.TimeoutExpired as e:
                rc, err, so, timed_out = -9, (e.stderr or b"").decode(errors="replace"), b"", True
            out = fuzz50.classify(rc, err, case["expect"], timed_out)
            if out == "ok" and cmd == "replay" and base is not None and not case.get("v6"):
                try:
                    out = "ok" if json.loads(so)["measured"] == base else "ok-differs"
                except (ValueError, KeyError):
                    out = "BUG-json"
            res.append(dict(id=case["id"], cmd=cmd, rc=rc, outcome=out,
                            err=err.strip().split("\n")[-1][:300] if err else ""))
    finally:
        for f in os.listdir(d):
            os.unlink(os.path.join(d, f))
        os.rmdir(d)
    return res


def main():
    a = fuzz50.arg_parser(__doc__).parse_args()
    kinds = a.only.split(",") if a.only else list(KINDS)
    cases = []
    for k in kinds:
        cases += fuzz50.smoke_sample(KINDS[k](), SMOKE[k] if a.smoke else 0,
                                     lambda c: c["cmds"] if "v7" in c else c["cmds"][:1])
    if a.regress:
        cases = fuzz50.regress_cases(cases, REGRESS)
    if a.list:
        print("\n".join(f"{c['id']} {c['expect']} {c['cmds']}" for c in cases))
        return 0
    bin_ = os.path.abspath(a.bin)
    base = None
    if any("v7" in c for c in cases):
        p = subprocess.run([bin_, "replay", "--json", V7], capture_output=True, timeout=600,
                           env=dict(os.environ, **fuzz50.SAN_ENV))
        base = json.loads(p.stdout)["measured"]
    work = tempfile.mkdtemp(prefix="fuzz51-")
    results = []

    def one(c):
        if "v7" in c:
            return run_v7(c, bin_, work, a.timeout, base)
        return fuzz50.run_case(c, bin_, work, a.timeout)

    with ThreadPoolExecutor(a.jobs) as ex:
        for r in ex.map(one, cases):
            results += r
    os.rmdir(work)
    return fuzz50.summarize("fuzz51", cases, results, REGRESS if a.regress else None, REGRESS,
                            a.log, listed=("ok-differs",))


if __name__ == "__main__":
    sys.exit(main())
