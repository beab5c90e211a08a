#!/usr/bin/env python3
"""trace.dat files of several buffers (tests/reader/data/multibuf-*.dat, buf52).

  multibuf-all   `trace-cmd extract -a -t`: the top level and instance srmb_s
                 with the same sched events, srmb_t with hrtimer events only
  multibuf-inst  `extract -t -B srmb_s`: hrtimer events in the top level,
                 the sched events only in srmb_s
  multibuf-only  `extract -B srmb_s`: a top level of 0 CPUs, then srmb_s

Checked (each file v7 as extracted and, with trace-cmd, its v6 conversion):
the buffer report and replay read by default, their notes and errors with
--buffer, the v6 layout (an instance's options block between the CPU data),
and a CPU of any buffer set to size 0 while its CPUSTAT counts events read
(an error naming the buffer, never a replay of what is left).

    multibuf.py --bin SCHEDREPLAY --data DIR --work DIR
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys

FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def run(args, cwd):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr.strip()


def v7_tables(data):
    """{buffer name: [(at of CPU i's size field, cpu)]} from the v7 BUFFER options."""
    out = {}
    i = 0
    while (i := data.find(b"\0local\0", i)) >= 0:
        p = i + 7
        ps, cpus = struct.unpack_from("<II", data, p)
        if ps == 4096 and 0 < cpus <= 8:
            j = i
            while j > 0 and data[j - 1] != 0:
                j -= 1
            name = data[j:i].decode()
            out.setdefault(name, [(p + 8 + 20 * k + 12, struct.unpack_from("<I", data, p + 8 + 20 * k)[0])
                                  for k in range(cpus)])
        i += 1
    return out


def v6_tables(data, names):
    """{buffer name: [(at of CPU i's size field, cpu)]}: the top's flyrecord table, then the
    instances' in file order (2 CPUs)."""
    out, i = {}, 0
    for name in names:
        i = data.index(b"flyrecord\0", i) + 10
        out[name] = [(i + 16 * k + 8, k) for k in range(2)]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    sr = os.path.abspath(a.bin)
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    tc = shutil.which("trace-cmd")
    files = {}
    for n in ("all", "inst", "only"):
        src = os.path.abspath(os.path.join(a.data, f"multibuf-{n}.dat"))
        files[(n, "v7")] = src
        if tc:
            dst = os.path.join(a.work, f"multibuf-{n}-v6.dat")
            subprocess.run([tc, "convert", "-i", src, "-o", dst, "--file-version", "6"],
                           capture_output=True, timeout=120)
            check(os.path.getsize(dst) > 0 if os.path.exists(dst) else False, f"v6 of {n} made")
            files[(n, "v6")] = dst
    chosen = {"all": "top level", "inst": "srmb_s", "only": "srmb_s"}
    ref = {}
    for (n, v), path in files.items():
        rc, out, err = run([sr, "report", "--no-sidecar", path], a.work)
        line = next((x for x in out.splitlines() if x.startswith("buffer:")), "")
        check(rc == 0 and line.startswith(f"buffer:  {chosen[n]} ("), f"report {n} {v}: {line[:70]!r} {err}")
        body = [x for x in out.splitlines() if not x.startswith("trace:")]
        if v == "v7":
            ref[n] = body
        else:
            check(body == ref[n], f"report {n} v6 = v7 (but the trace: line)")
        rc, out, err = run([sr, "replay", path], a.work)
        note = "note: replayed the top-level buffer; not replayed, with sched events too: 'srmb_s' ("
        if n == "all":
            check(rc == 0 and note in err and err.count("\n") == 0, f"replay {n} {v}: the note: {err}")
        else:
            check(rc == 0 and err == "", f"replay {n} {v}: srmb_s, no note: {err}")
        if n == "all":
            rc, out, err = run([sr, "replay", "--buffer", "srmb_s", path], a.work)
            check(rc == 0 and "note: replayed buffer 'srmb_s'; not replayed, with sched events too: "
                  "the top level (" in err, f"replay --buffer srmb_s {n} {v}: {err}")
            rc, out, err = run([sr, "replay", "--buffer", "srmb_t", path], a.work)
            check(rc == 1 and "no sched_switch events in buffer 'srmb_t': nothing to replay; other "
                  "buffers hold sched events: the top level (" in err and "'srmb_s' (" in err,
                  f"replay --buffer srmb_t {n} {v}: {err}")
            rc, out, err = run([sr, "report", "--no-sidecar", "--buffer", "srmb_t", path], a.work)
            check(rc == 1 and "other buffers hold sched events" in err, f"report --buffer srmb_t {v}: {err}")
            rc, out, err = run([sr, "replay", "--buffer", "nosuch", path], a.work)
            check(rc == 1 and "no buffer named 'nosuch' (buffers: '', 'srmb_s', 'srmb_t'" in err,
                  f"replay --buffer nosuch {v}: {err}")
        if n == "inst":
            rc, out, err = run([sr, "replay", "--buffer", "", path], a.work)
            check(rc == 1 and "no sched_switch events in buffer '': nothing to replay; other buffers "
                  "hold sched events: 'srmb_s' (" in err, f"replay --buffer '' {n} {v}: {err}")
        if tc and n != "only":
            rc, out, err = run([sr, "report", "--no-sidecar", "--reader", "libtracecmd", path], a.work)
            body = [x for x in out.splitlines() if not x.startswith("trace:")]
            check(rc == 0 and body == ref[n], f"report --reader libtracecmd {n} {v} = native")

    # A CPU's size 0 with its own buffer's CPUSTAT counting events read.
    # (file, buffer, cpu): the events its CPUSTAT says were read
    want = {("all", "", 0): 3321, ("all", "srmb_s", 0): 3321, ("all", "srmb_s", 1): 339,
            ("all", "srmb_t", 1): 150, ("inst", "", 0): 215, ("inst", "srmb_s", 1): 604,
            ("only", "srmb_s", 0): 672}
    names = {"all": ["", "srmb_s", "srmb_t"], "inst": ["", "srmb_s"], "only": ["", "srmb_s"]}
    for (n, v), path in files.items():
        data = open(path, "rb").read()
        tabs = v7_tables(data) if v == "v7" else v6_tables(data, names[n])
        for (fn, buf, cpu), events in want.items():
            if fn != n:
                continue
            at = next(at for at, c in tabs[buf] if c == cpu)
            x = bytearray(data)
            x[at:at + 8] = struct.pack("<Q", 0)
            mut = os.path.join(a.work, f"mut-{n}-{v}-{buf or 'top'}-{cpu}.dat")
            open(mut, "wb").write(bytes(x))
            where = f"buffer '{buf}' CPU {cpu}" if buf else f"CPU {cpu}"
            msg = (f"corrupted: {where} has no data in the file (its size is 0), but its CPUSTAT "
                   f"says {events} events were read")
            for cmd in ("report", "replay"):
                rc, out, err = run([sr, cmd, "--no-sidecar", mut], a.work)
                check(rc == 1 and msg in err and "\n" not in err,
                      f"{cmd} {n} {v} {buf or 'top'} CPU {cpu} size 0: {err[:200]}")
            os.unlink(mut)
    print(f"{len(FAILS)} failed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
