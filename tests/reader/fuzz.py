#!/usr/bin/env python3
"""Deterministic mutation campaign against the schedreplay CLI.

The rule it checks (docs, helper brief): bad input -- a missing, corrupt or
truncated trace, lost events, a broken sidecar / variants / thresholds JSON,
a bad option -- ends in ONE line on stderr naming the file and a non-zero
exit, or is read and gives sane output; never a sanitizer report, a signal,
a hang, a multi-line spew, or exit 0 with silently different results.

Usage:
    fuzz.py run    --sr BIN [--traces DIR] [--work DIR] [--seed N] [--cases N]
                   [--kinds K,K] [--classes C,C] [--jobs 2] [--results FILE]
    fuzz.py smoke  --sr BIN [--traces DIR] [--work DIR]
    fuzz.py case   --sr BIN [--traces DIR] [--work DIR] CASE_ID [--expect OUTCOME]
                   [--expect-msg REGEX] [--keep]
    fuzz.py list   [--traces DIR] [--work DIR] [--seed N] [--cases N] [...]
    fuzz.py rerun  --sr BIN --from RESULTS.jsonl [--work DIR] [--results FILE]

 run    generate the cases of SEED (N per input kind; deterministic: the same
        seed, traces and N give the same cases), run each under `timeout 10` (SR_FUZZ_TIMEOUT;
        a run killed there runs again under 6 times that: BUG-timeout if killed again)
        with ASan/UBSan aborting, classify, print a table per kind x mutation
        class x outcome and every BUG (one JSON line each in --results).
 smoke  a fixed subset (seed 1, about 200 cases, one source per kind, whatif
        for a quarter of them; ~25 CPU-seconds on the sanitizer build, run
        with 2 jobs), and 16 cases of sysc, funcs, variants/feat and option
        combos, 9 of fuzz37's classes, 6 of class recent, 4 of class opt,
        3 of class hdr and 6 of kind snap; exit 1 on any BUG. ctest
        `reader_fuzz_smoke`.
 case   one case by its id (as `run` prints it: kind/source/class/params),
        e.g. for a regression test; --expect error|ok|lost|any fails unless
        the outcome is that (default: not BUG); --expect-msg REGEX also
        unless every run expected to fail has stderr matching it (the error
        is the one meant).  --keep leaves the mutated
        file in WORK and prints its path (to minimize by hand).
 list   print the case ids that `run` would execute.
 rerun  the BUG cases of an earlier --results file again (after a fix).

Input kinds (sources are the committed traces; conversions are made in WORK
with trace-cmd when it is installed, else those kinds are skipped):
  v7zstd    traces/small-*.dat as `trace-cmd extract` wrote them
  v7none    `trace-cmd convert --file-version 7 --compression none`
  v6        `trace-cmd convert --file-version 6`, and traces/hog-timer.dat
  text      `trace-cmd report -N -t` / `-R -t` (first 3000 records)
  sidecar   traces/hog-timer.dat.json next to (a link to) hog-timer.dat
  variants  tests/variants/data/good.json (replay/whatif --variants-file)
  thresh    traces/thresholds.json (validate --thresholds, one trace)
  machine   `whatif --print-machine one-socket` (whatif --machine FILE)
  cgmap     a --cgroup-map file (replay/whatif --cgroup-map FILE)
  options   bad option values for each command
  vdir      validate --dir with odd entries: an empty, directory, FIFO,
            socket, dangling or looping small-pipe.dat, a name not UTF-8 or
            with a newline, its sidecar or thresholds.json garbage / empty /
            a directory / a FIFO (fuzz37)
  v7exec    traces/forkexec.dat (3016 execs; only with --kinds v7exec):
            report, replay-model and replay-recent on its mutations (inp38)
  snap      traces/pelt-mix.dat.json's sched_at_start / sched_at_end (the
            kernel's per-thread /proc/.../sched, fuzz41): class snapbad
            (a field past the kernel's bounds or of another type, a pid
            twice, missing or not a pid, available not a boolean, tasks
            missing / null / an object, 70000 or 10^6 entries: every case
            an error, exit 0 is BUG-accepted), snapok (bounds, null, a
            field or task left out, unavailable), snapother (pelt-root's
            snapshots, the same machine 7 s later, or the two exchanged;
            since 2026-12-05 also a reused pid told by stat's start time);
            replay, replay --json, replay --initial-pelt guess, report.
            fuzz42: class ctbad (the sidecar's cpu_time: a count below the
            start read, past 2^64 ns in ticks, of another type, negative,
            a CPU past cpus.topology or twice, at_end missing or empty,
            user_hz 0 / 10^7 / a string: every case an error), ctok (a CPU offline by
            the end read, user_hz 1 / 1024, the bound, unavailable),
            cpubad (a snapshot entry's cpu past cpus.topology, negative or
            of another type: errors), cpuok (null, absent on one read
            only); these four also run replay --clock-task traced
            --initial-pelt attached

Mutation classes (binary): trunc (cut at every header/section/option/chunk
/page boundary, +1, middle, last byte), cpuid (a v7 BUFFER option's
CPU id: another entry's, the two exchanged, one past the entries, 4096,
65535, 65536, 0xffffffff), field (0x00/0xff fill, bit flip,
+-1, random bytes in a header, section header, option, CPU offset/size,
chunk header or format field), fmt (same-length edits of the sched_* format
texts: digits, names, signedness), page (commit 0/small/over/flags,
timestamp 0/2^64-1/+2^62/+1000 s/backwards, a record's type_len 0/29/30/31 with huge
values, duplicated/swapped/zeroed pages), payload (byte flips inside event
records: undetectable by any reader, expected to change results), evfield
(one record's pid, prio or CPU field, found by its event format, set to a
value no kernel writes: pid -1 / -2^31 / PID_MAX_LIMIT / 2^31-1, prio 140 /
-2, CPU -2 / -2^31 / the file's CPU count, runtime 0 / 2^62+1 / 2^63 /
2^64-1,
prev_state -1 / 0x10000 / 3 (two bits: 4.14+ writes one), dst_level -1 /
1000, a comm of 16 bytes without its NUL: EVFIELD_OPS; detectable), opt
(fuzz40, v6 only: options inserted into the options list, the offsets after
them moved along - two OFFSETs of +-(2^63-1), an OFFSET of 10^20, "0xzz",
"" or "12 ns", CPUCOUNT 0 / 2^20 / 2 bytes, a TRACEID of 4 bytes, a
TSC2NSEC with shift 40 or cut short, a CPUSTAT whose "CPU:" is 2^32, x or
-1 (fuzz41): OPT_OPS; each is an error), hdr (fuzz40,
text: the header's cpus=N / #P:N set to 0, -3, abc, 2x, 4097, 5000,
99999999999, 2^32+2 or nothing: HDR_CPUS; each is an error).  An exit 0 in
class opt or hdr is BUG-accepted, whatever the output.
Compressed (v7zstd) pages and sections are decompressed, mutated and
recompressed in place (a zstd skippable frame pads the chunk to its size).
Text: cutline, cut (mid-line), badnum, hugenum, swap, dup, field (drop or
retype a key=value), garbage (binary, NUL, CR, 1 MiB line, CPU [99999]);
cgmap takes the text classes.  comm (fuzz37): one task renamed in the
whole text to a name a task may choose (COMM_ODD: a space, a field's
" KEY=", brackets, ':'), its output mapped back must equal the unmutated
text's (else BUG-silent), or one error line (a name holding its own event's
" pid=" is ambiguous).  JSON: del, type (null/str/list/obj/bool),
num (-1, 0, 1e308, 2**64, 2**63, 0.5, a 100 kB string, nested), dupitem,
cut (mid-file), garbage (trailing data, 100k '[', a flipped byte,
duplicate keys, a BOM).  options: each option of report/replay/whatif/
validate with 13 bad values, and without its value; limit (fuzz37): each
numeric option at and past its bounds (LIMIT_VALUES); recent (inp38): the
options of stop 37 (--handoff-signals, --exec-balance-at, --tick-preempt-at:
RECENT_OPTS) with partners they interact with (RECENT_PARTNERS), on the
small traces and forkexec; since fuzz39 also those of stop 38
(--handoff-replies, --ksoftirqd-ops, and replay's --dump-samples into the
slot, /dev/full, a directory, a missing one or '', with --dump-events into
the same file by another name in some): an unwritable dump at exit 0, or a
dump written at exit 0 that is not the header and rows of 14 tab-separated
fields, is BUG-dump (dump_check()).

Commands: report, replay, whatif --all-variants on every trace input, and
report --reader libtracecmd ("report-ltc") for damaged data (trunc, page,
payload, chunk); replay --placement model --vcpu-pack-cut flat
--newidle-ratio 64 ("replay-model": sched_exec(), find_idlest_cpu()) on every
binary and text input; whatif --svg ("whatif-svg", full runs only: the
file must be well-formed XML without nan/inf, else BUG-svg); replay with the
options of stop 37 ("replay-recent": --placement model --exec-balance-at
traced --tick-preempt-at traced --handoff-signals; since fuzz39 with
--ksoftirqd-ops --handoff-replies nosample, and --dump-samples into the slot
on the trace kinds) on every binary, text and syscall input; validate --dir
with the mutated small-pipe.dat as the
directory's trace (its FAIL line on stdout naming the trace is an "error");
replay/whatif --variants-file; validate --thresholds; whatif --machine; each
command with its bad options (--newidle-ratio and --vcpu-pack-cut too, and in
the combos, with whatif's variant lists).  The smoke runs replay-model and
validate, like whatif, for one case in four.

Outcomes: ok (exit 0, sane output), ok-changed (exit 0, output differs from
the unmutated input's, for a mutation no reader can detect, or with a
warning), error (non-zero exit, exactly one stderr line naming the input,
no sanitizer report), lost (exit 1 with the documented lost-events lines),
BUG-* (sanitizer, signal, timeout, exit-0-corrupt, multi-line, no-name, dump,
silent (exit 0, changed output, detectable mutation, no warning), accepted
(exit 0 in a class whose every case must be an error), insane
(nan/inf/2^64 in output), nooutput).  A usage error is one line too (its
"(see 'schedreplay CMD --help')" ends that line).  JSON, text and option mutations are
never "silent" BUGs (which keys a command reads is not known here): review
their ok-changed rows by hand.

Example (the campaign of 2026-11-30, ~3,000 cases, ~35 min on 2 CPUs):
    cmake -S . -B build-fuzz -DSCHEDREPLAY_SANITIZE=ON (CC=clang)
    python3 tests/reader/fuzz.py run --sr build-fuzz/schedreplay --cases 300 \
        --seed 11 --results /tmp/fuzz.jsonl
"""
import argparse
import hashlib
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

# seconds per run; SR_FUZZ_TIMEOUT raises it for a sanitized build, whose
# libtracecmd-backend runs took 4-6 s on a loaded machine and over 10 s at a
# load of 11 on 2 CPUs (five BUG-timeouts in the smoke, no hang)
TIMEOUT = int(os.environ.get("SR_FUZZ_TIMEOUT", "10"))
# a run killed at TIMEOUT is a BUG-timeout only if it is killed again at
# TIMEOUT * HANG_FACTOR (run_one())
HANG_FACTOR = 6
SAN_ENV = {
    "ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
}
ZSTD_SKIP_MAGIC = 0x184D2A50

# ---------------------------------------------------------------- layout ---


class Field:
    __slots__ = ("name", "off", "size", "group", "int")

    def __init__(self, name, off, size, group, is_int=False):
        self.name, self.off, self.size, self.group, self.int = name, off, size, group, is_int


class Layout:
    """Where things are in a trace.dat: fields, CPU regions, pages/chunks."""

    def __init__(self, data):
        self.data = data
        self.fields = []
        self.version = 0
        self.page_size = 4096
        self.long_size = 8
        self.compressed = False
        self.cpu_regions = []   # (buffer, cpu, off, size)
        self.cpu_ids = []       # v7 BUFFER option entries: (buffer, entry, section off,
                                # offset of the CPU id in the section body, entries)
        self.pages = []         # uncompressed: (region index, file offset)
        self.chunks = []        # compressed: (region index, hdr off, zsize, usize)
        self.sections = []      # v7: (id, off, size, flags)
        self.fmt_texts = []     # (name, off, len, section off or None)

    def f(self, name, off, size, group, is_int=False):
        self.fields.append(Field(name, off, size, group, is_int))


def cstr(d, off):
    e = d.index(b"\0", off)
    return d[off:e].decode("latin-1"), e + 1


def zstd_cmd(args, data):
    return subprocess.run(["zstd", "-q", "-c", *args], input=data, capture_output=True,
                          check=True).stdout


def parse_layout(data):
    lay = Layout(data)
    d = data
    lay.f("magic", 0, 10, "header")
    ver, p = cstr(d, 10)
    lay.f("version", 10, p - 10, "header")
    lay.version = int(ver)
    lay.f("endian", p, 1, "header")
    lay.f("long_size", p + 1, 1, "header", True)
    lay.long_size = d[p + 1]
    lay.f("page_size", p + 2, 4, "header", True)
    lay.page_size = struct.unpack_from("<I", d, p + 2)[0]
    p += 6
    if lay.version == 6:
        parse_v6(lay, p)
    else:
        parse_v7(lay, p)
    # pages / chunks of every CPU region
    for ri, (_, _, off, size) in enumerate(lay.cpu_regions):
        if not size:
            continue
        if lay.compressed:
            n = struct.unpack_from("<I", d, off)[0]
            lay.f(f"r{ri}.chunk_count", off, 4, "chunks", True)
            q = off + 4
            for _ in range(n):
                zs, us = struct.unpack_from("<II", d, q)
                lay.f(f"r{ri}.chunk@{q}.zsize", q, 4, "chunks", True)
                lay.f(f"r{ri}.chunk@{q}.usize", q + 4, 4, "chunks", True)
                lay.chunks.append((ri, q, zs, us))
                q += 8 + zs
        else:
            for q in range(off, off + size, lay.page_size):
                lay.pages.append((ri, q))
    return lay


def parse_v6(lay, p):
    d = lay.data
    for tag in ("header_page", "header_event"):
        lay.f(tag + ".tag", p, len(tag) + 1, "header")
        p += len(tag) + 1
        size = struct.unpack_from("<Q", d, p)[0]
        lay.f(tag + ".size", p, 8, "header", True)
        lay.f(tag + ".data", p + 8, size, "headertext")
        p += 8 + size
    n = struct.unpack_from("<I", d, p)[0]
    lay.f("ftrace.count", p, 4, "formats", True)
    p += 4
    for _ in range(n):
        size = struct.unpack_from("<Q", d, p)[0]
        lay.f("ftrace.fmt.size", p, 8, "formats", True)
        p = fmt_text(lay, p + 8, size, None)
    nsys = struct.unpack_from("<I", d, p)[0]
    lay.f("events.systems", p, 4, "formats", True)
    p += 4
    for _ in range(nsys):
        name, q = cstr(d, p)
        lay.f(f"events.{name}.name", p, q - p, "formats")
        p = q
        n = struct.unpack_from("<I", d, p)[0]
        lay.f(f"events.{name}.count", p, 4, "formats", True)
        p += 4
        for _ in range(n):
            size = struct.unpack_from("<Q", d, p)[0]
            lay.f(f"events.{name}.fmt.size", p, 8, "formats", True)
            p = fmt_text(lay, p + 8, size, None)
    for what, w in (("kallsyms", 4), ("printk", 4), ("cmdlines", 8)):
        size = int.from_bytes(d[p:p + w], "little")
        lay.f(what + ".size", p, w, "meta", True)
        lay.f(what + ".data", p + w, size, "metatext")
        p += w + size
    cpus = struct.unpack_from("<I", d, p)[0]
    lay.f("cpu_count", p, 4, "meta", True)
    p += 4
    instances = []
    p = v6_flyrecord(lay, p, "", cpus, instances)
    for off, name in instances:
        v6_flyrecord(lay, off, name, cpus, None)


def v6_flyrecord(lay, p, buf, cpus, instances):
    d = lay.data
    tag = d[p:p + 10]
    if tag.startswith(b"options"):
        lay.f(f"{buf}.options.tag", p, 10, "options")
        p += 10
        while True:
            oid = struct.unpack_from("<H", d, p)[0]
            lay.f(f"{buf}.opt@{p}.id", p, 2, "options", True)
            if oid == 0:
                p += 2
                break
            size = struct.unpack_from("<I", d, p + 2)[0]
            lay.f(f"{buf}.opt{oid}.size", p + 2, 4, "options", True)
            lay.f(f"{buf}.opt{oid}.data", p + 6, size, "options")
            if oid == 3 and instances is not None:
                off = struct.unpack_from("<Q", d, p + 6)[0]
                name, _ = cstr(d, p + 14)
                lay.f(f"{buf}.opt3.offset", p + 6, 8, "options", True)
                instances.append((off, name))
            p += 6 + size
        tag = d[p:p + 10]
    lay.f(f"{buf}.flyrecord.tag", p, 10, "cputable")
    p += 10
    if not tag.startswith(b"flyrecord"):
        return p
    for c in range(cpus):
        off, size = struct.unpack_from("<QQ", d, p)
        lay.f(f"{buf}.cpu{c}.offset", p, 8, "cputable", True)
        lay.f(f"{buf}.cpu{c}.size", p + 8, 8, "cputable", True)
        lay.cpu_regions.append((buf, c, off, size))
        p += 16
    return p


def fmt_text(lay, off, size, sec):
    text = lay.data[off:off + size] if sec is None else sec[off:off + size]
    m = re.search(rb"name: (\S+)", text)
    name = m.group(1).decode() if m else "?"
    lay.fmt_texts.append((name, off, size, None))
    return off + size


def parse_v7(lay, p):
    d = lay.data
    comp, q = cstr(d, p)
    lay.f("compression", p, q - p, "header")
    cver, q2 = cstr(d, q)
    lay.f("compression_version", q, q2 - q, "header")
    p = q2
    opt_off = struct.unpack_from("<Q", d, p)[0]
    lay.f("options_offset", p, 8, "header", True)
    lay.compressed = comp not in ("none", "")
    first = p + 8
    # sections back to back
    q = first
    while q + 16 <= len(d):
        sid, flags, _, size = struct.unpack_from("<HHIQ", d, q)
        lay.sections.append((sid, q, size, flags))
        lay.f(f"sec{sid}@{q}.id", q, 2, "sechdr", True)
        lay.f(f"sec{sid}@{q}.flags", q + 2, 2, "sechdr", True)
        lay.f(f"sec{sid}@{q}.string", q + 4, 4, "sechdr", True)
        lay.f(f"sec{sid}@{q}.size", q + 8, 8, "sechdr", True)
        if flags & 1:
            lay.f(f"sec{sid}@{q}.zsize", q + 16, 4, "sechdr", True)
            lay.f(f"sec{sid}@{q}.usize", q + 20, 4, "sechdr", True)
        if sid > 22 + 16:
            break
        q += 16 + size
    secs = {off: (sid, size, flags) for sid, off, size, flags in lay.sections}
    seen = set()
    off = opt_off
    while off and off not in seen and off in secs:
        seen.add(off)
        sid, size, flags = secs[off]
        body, _ = section_body(lay, off)
        base = off + 16 if not flags & 1 else None
        o = 0
        nxt = 0
        while o + 6 <= len(body):
            oid, osz = struct.unpack_from("<HI", body, o)
            if base is not None:
                lay.f(f"opt{oid}@{base + o}.id", base + o, 2, "options", True)
                lay.f(f"opt{oid}@{base + o}.size", base + o + 2, 4, "options", True)
                lay.f(f"opt{oid}@{base + o}.data", base + o + 6, osz, "options")
            od = body[o + 6:o + 6 + osz]
            if oid == 0:
                nxt = struct.unpack_from("<Q", od, 0)[0] if len(od) >= 8 else 0
                break
            if oid == 3:
                name, k = cstr(od, 8)
                _, k = cstr(od, k)
                _, ncpu = struct.unpack_from("<II", od, k)
                k += 8
                for e in range(ncpu):
                    cpu, coff, csz = struct.unpack_from("<IQQ", od, k)
                    lay.cpu_ids.append((name, e, off, o + 6 + k, ncpu))
                    if base is not None:
                        lay.f(f"buf{name}.cpu{cpu}.offset", base + o + 6 + k + 4, 8,
                              "cputable", True)
                        lay.f(f"buf{name}.cpu{cpu}.size", base + o + 6 + k + 12, 8,
                              "cputable", True)
                    lay.cpu_regions.append((name, cpu, coff, csz))
                    k += 20
            o += 6 + osz
        off = nxt
    for sid, soff, size, flags in lay.sections:
        if sid in (17, 18):
            body, _ = section_body(lay, soff)
            k = 0
            nsys = 1
            if sid == 18:
                nsys = struct.unpack_from("<I", body, 0)[0]
                k = 4
            for _ in range(nsys):
                if sid == 18:
                    _, k = cstr(body, k)
                n = struct.unpack_from("<I", body, k)[0]
                k += 4
                for _ in range(n):
                    size2 = struct.unpack_from("<Q", body, k)[0]
                    t = body[k + 8:k + 8 + size2]
                    m = re.search(rb"name: (\S+)", t)
                    nm = m.group(1).decode() if m else "?"
                    # offsets into the (decompressed) body; sec = section offset
                    lay.fmt_texts.append((nm, k + 8, size2, soff))
                    k += 8 + size2


def section_body(lay, off):
    """(decompressed body, compressed?) of the v7 section at off."""
    d = lay.data
    sid, flags, _, size = struct.unpack_from("<HHIQ", d, off)
    if flags & 1:
        zs, us = struct.unpack_from("<II", d, off + 16)
        return zstd_cmd(["-d"], d[off + 24:off + 24 + zs]), True
    return d[off + 16:off + 16 + size], False


def recompress_into(buf, zoff, zsize, plain):
    """Write plain, zstd-compressed, into buf[zoff:zoff+zsize] exactly.

    Pads with a skippable frame; returns False if it does not fit."""
    for level in ("-3", "-19", "--ultra", "-22"):
        args = ["--no-check", level] if level != "--ultra" else ["--no-check", "--ultra", "-22"]
        z = zstd_cmd(args, plain)
        pad = zsize - len(z)
        if pad == 0:
            buf[zoff:zoff + zsize] = z
            return True
        if pad >= 8:
            buf[zoff:zoff + zsize] = z + struct.pack("<II", ZSTD_SKIP_MAGIC, pad - 8) + \
                b"\0" * (pad - 8)
            return True
    return False


# ------------------------------------------------------------- mutations ---
# A case: dict(kind, src, cls, p) ; id = kind/src/cls/k=v;k=v
# Binary mutations are functions of (bytearray, layout, params, rng).


def case_id(c):
    ps = ":".join(f"{k}={v}" for k, v in c["p"].items())
    return f"{c['kind']}/{c['src']}/{c['cls']}/{ps}"


def parse_case_id(s):
    kind, src, cls, ps = s.split("/", 3)
    p = {}
    for kv in re.split("[:;]", ps) if ps else []:
        k, v = kv.split("=", 1)
        p[k] = int(v) if re.fullmatch(r"-?\d+", v) else v
    return {"kind": kind, "src": src, "cls": cls, "p": p}


def page_bytes(lay, buf, page_index):
    """(plain bytes of page, writer(new_bytes) -> bool) for page page_index.

    page_index counts the pages of uncompressed regions, or the pages inside
    the chunks of a compressed file (chunk, page within)."""
    ps = lay.page_size
    if not lay.compressed:
        _, off = lay.pages[page_index]

        def put(new, off=off):
            buf[off:off + len(new)] = new
            return True
        return bytes(buf[off:off + ps]), put
    ci, pi = divmod(page_index, 1 << 16)
    _, q, zs, us = lay.chunks[ci]
    plain = bytearray(zstd_cmd(["-d"], bytes(buf[q + 8:q + 8 + zs])))

    def putc(new, q=q, zs=zs, plain=plain, pi=pi):
        plain[pi * ps:pi * ps + len(new)] = new
        return recompress_into(buf, q + 8, zs, bytes(plain))
    return bytes(plain[pi * ps:(pi + 1) * ps]), putc


def chunk_plain(lay, buf, ci):
    _, q, zs, us = lay.chunks[ci]
    return bytearray(zstd_cmd(["-d"], bytes(buf[q + 8:q + 8 + zs])))


def mutate_binary(data, lay, c):
    """Apply case c to a copy of data; None if the case does not apply."""
    buf = bytearray(data)
    p = c["p"]
    cls = c["cls"]
    ls = lay.long_size
    if cls == "trunc":
        return bytes(buf[:p["at"]])
    if cls == "opt":
        return mutate_opt(buf, lay, p["op"])
    if cls == "field":
        fld = next((f for f in lay.fields if f.name == p["f"]), None)
        if fld is None or fld.size == 0:
            return None
        o, n = fld.off, fld.size
        op = p["op"]
        if op == "zero":
            buf[o:o + n] = b"\0" * n
        elif op == "ff":
            buf[o:o + n] = b"\xff" * n
        elif op == "bit":
            k = p["b"] % (8 * n)
            buf[o + k // 8] ^= 1 << (k % 8)
        elif op in ("inc", "dec", "dbl", "half"):
            v = int.from_bytes(buf[o:o + n], "little")
            v = {"inc": v + 1, "dec": v - 1, "dbl": v * 2, "half": v // 2}[op]
            buf[o:o + n] = (v % (1 << (8 * n))).to_bytes(n, "little")
        elif op == "rand":
            rng = random.Random(p["s"])
            for _ in range(1 + p["s"] % 4):
                buf[o + rng.randrange(n)] = rng.randrange(256)
        return bytes(buf)
    if cls == "fmt":
        # same-length edit of a sched_* format text (or any format)
        name, toff, tlen, soff = lay.fmt_texts[p["t"]]
        rng = random.Random(p["s"])
        if soff is None:
            text = bytearray(buf[toff:toff + tlen])
        else:
            body, comp = section_body(lay, soff)
            body = bytearray(body)
            text = body[toff:toff + tlen]
        op = p["op"]
        if op == "digit":
            ds = [m.start() for m in re.finditer(rb"\d", text)]
            if not ds:
                return None
            for _ in range(1 + p["s"] % 3):
                text[rng.choice(ds)] = ord(rng.choice("0123456789"))
        elif op == "byte":
            for _ in range(1 + p["s"] % 3):
                text[rng.randrange(tlen)] = rng.randrange(256)
        elif op == "word":
            ws = [m.span() for m in re.finditer(rb"[a-z_]{3,}", text)]
            if not ws:
                return None
            a, b = rng.choice(ws)
            text[a:b] = bytes(rng.choice(b"xyzq_") for _ in range(b - a))
        elif op == "nul":
            text[rng.randrange(tlen)] = 0
        if soff is None:
            buf[toff:toff + tlen] = text
            return bytes(buf)
        body[toff:toff + tlen] = text
        sid, flags, _, size = struct.unpack_from("<HHIQ", buf, soff)
        if flags & 1:
            zs, us = struct.unpack_from("<II", buf, soff + 16)
            if not recompress_into(buf, soff + 24, zs, bytes(body)):
                return None
        else:
            buf[soff + 16:soff + 16 + size] = body
        return bytes(buf)
    if cls == "cpuid":
        return mutate_cpuid(buf, lay, p)
    if cls == "evfield":
        return mutate_evfield(buf, lay, p)
    if cls in ("page", "payload"):
        return mutate_page(buf, lay, c)
    if cls == "chunk":
        # whole-chunk operations in a compressed file
        ci = p["c"]
        if ci >= len(lay.chunks):
            return None
        _, q, zs, us = lay.chunks[ci]
        op = p["op"]
        if op in ("dup", "swap"):
            # chunk ci+1 of the same CPU region replaced / exchanged, if sizes allow
            if ci + 1 >= len(lay.chunks) or lay.chunks[ci + 1][0] != lay.chunks[ci][0]:
                return None
            _, q2, zs2, us2 = lay.chunks[ci + 1]
            a, b = chunk_plain(lay, buf, ci), chunk_plain(lay, buf, ci + 1)
            if op == "dup":
                if len(a) != len(b):
                    return None
                return bytes(buf) if recompress_into(buf, q2 + 8, zs2, bytes(a)) else None
            if len(a) != len(b):
                return None
            if not recompress_into(buf, q + 8, zs, bytes(b)) or \
                    not recompress_into(buf, q2 + 8, zs2, bytes(a)):
                return None
            return bytes(buf)
        if op == "zbytes":
            rng = random.Random(p["s"])
            for _ in range(1 + p["s"] % 4):
                buf[q + 8 + rng.randrange(zs)] = rng.randrange(256)
            return bytes(buf)
        if op == "skip":
            # a chunk that decompresses to nothing but skippable frames
            buf[q + 8:q + 8 + zs] = struct.pack("<II", ZSTD_SKIP_MAGIC, zs - 8) + b"\0" * (zs - 8)
            return bytes(buf)
    raise ValueError(f"unknown class {cls}")


# The CPU id of a v7 BUFFER option's entry (the CPU its data section is of):
# another entry's id (two sections of one CPU), the two ids exchanged (each
# section labelled as the other CPU's: no reader can tell), the first id past
# the entries, 4096 and 65535 (a CPU the reader takes and the model has not),
# 65536 and 0xffffffff (-1; not a CPU id).
CPUID_OPS = ["other", "swap", "past", "4096", "65535", "65536", "neg"]

# class opt (fuzz40): options inserted into a v6 file's options list (the
# CPU and instance offsets after them moved along): (id, data) each.  OFFSET
# (7) is text trace-cmd reads with strtoll() and several add up; CPUCOUNT
# (8) a u32; TRACEID (11) 8 bytes; TSC2NSEC (14) u32 mult, u32 shift, u64
# offset.  Every one is corrupted data: an error, never exit 0.
OPT_OPS = {
    "offmax2": [(7, b"9223372036854775807\0")] * 2,
    "offmin2": [(7, b"-9223372036854775807\0")] * 2,
    "offhuge": [(7, b"99999999999999999999\0")],
    "offtext": [(7, b"0xzz\0")],
    "offempty": [(7, b"\0")],
    "offjunk": [(7, b"12 ns\0")],
    "cpucount0": [(8, struct.pack("<I", 0))],
    "cpucounthuge": [(8, struct.pack("<I", 1 << 20))],
    "cpucountshort": [(8, b"\2\0")],
    "traceidshort": [(11, b"\1\2\3\4")],
    "tscshift": [(14, struct.pack("<IIQ", 1, 40, 0))],
    "tscshort": [(14, struct.pack("<II", 1, 1))],
    # CPUSTAT (2, fuzz41): trace-cmd's "CPU: N" line before the kernel's
    # per-CPU stats; atoi() read these as CPU 0 (no "now ts:": no bound)
    "cpustatwrap": [(2, b"CPU: 4294967296\nentries: 5\n\0")],
    "cpustattext": [(2, b"CPU: x\nentries: 5\n\0")],
    "cpustatneg": [(2, b"CPU: -1\nentries: 5\n\0")],
}


def mutate_opt(buf, lay, op):
    """Insert OPT_OPS[op] into a v6 file's top-level options; None if not v6."""
    if lay.version != 6 or op not in OPT_OPS:
        return None
    fly = next((f for f in lay.fields if f.name == ".flyrecord.tag"), None)
    tag = next((f for f in lay.fields if f.name == ".options.tag"), None)
    if fly is None:
        return None
    ins = b"".join(struct.pack("<HI", i, len(d)) + d for i, d in OPT_OPS[op])
    if tag is not None:
        at = tag.off + 10
    else:
        at = fly.off
        ins = b"options  \0" + ins + struct.pack("<H", 0)
    for f in lay.fields:
        if re.search(r"\.(cpu\d+|opt3)\.offset$", f.name):
            off = struct.unpack_from("<Q", buf, f.off)[0]
            if off:
                struct.pack_into("<Q", buf, f.off, off + len(ins))
    buf[at:at] = ins
    return bytes(buf)


def mutate_cpuid(buf, lay, p):
    if p["e"] >= len(lay.cpu_ids):
        return None
    name, e, soff, at, n = lay.cpu_ids[p["e"]]
    body, comp = section_body(lay, soff)
    body = bytearray(body)
    op = p["op"]
    # the buffer's next entry (cyclic), which follows in the same option
    nxt = at + 20 * ((e + 1) % n - e)
    if op in ("other", "swap"):
        if n < 2:
            return None
        mine, theirs = body[at:at + 4], body[nxt:nxt + 4]
        body[at:at + 4] = theirs
        if op == "swap":
            body[nxt:nxt + 4] = mine
    else:
        v = {"past": n, "4096": 4096, "65535": 65535, "65536": 65536,
             "neg": 0xffffffff}[op]
        struct.pack_into("<I", body, at, v)
    if comp:
        zs = struct.unpack_from("<I", buf, soff + 16)[0]
        if not recompress_into(buf, soff + 24, zs, bytes(body)):
            return None
    else:
        buf[soff + 16:soff + 16 + len(body)] = body
    return bytes(buf)


# A decoded field of one record set to a value no kernel writes (a pid
# below 0 or not below PID_MAX_LIMIT, a prio outside -1..139, a CPU number
# below 0): (event, field, value).  Detectable: report and replay refuse the
# event (before 3 Dec 2026 every one of them read on at exit 0, with a
# negative next_pid a task of its own, a negative target_cpu a wakeup onto
# no CPU, a prio of 140 a fair task of nice 0).
EVFIELD_OPS = [
    ("sched_switch", "prev_pid", -1), ("sched_switch", "next_pid", -2**31),
    ("sched_switch", "next_pid", 4194304), ("sched_switch", "prev_prio", 140),
    ("sched_switch", "next_prio", -2),
    ("sched_waking", "pid", -1), ("sched_waking", "target_cpu", -2),
    ("sched_waking", "prio", 2**31 - 1),
    ("sched_wakeup", "pid", 2**31 - 1), ("sched_wakeup", "target_cpu", -2**31),
    ("sched_wakeup", "prio", -2**31),
    ("sched_wakeup_new", "pid", -5), ("sched_wakeup_new", "target_cpu", -7),
    ("sched_migrate_task", "pid", -1), ("sched_migrate_task", "orig_cpu", -2),
    ("sched_migrate_task", "dest_cpu", -2**31), ("sched_migrate_task", "prio", 140),
    ("sched_process_fork", "child_pid", -1), ("sched_process_fork", "parent_pid", 4194304),
    ("sched_process_exec", "pid", -1), ("sched_process_exec", "old_pid", 2**31 - 1),
    ("sched_process_exit", "pid", -1), ("sched_process_exit", "prio", 999),
    ("sched_stat_runtime", "pid", -1), ("cgroup_attach_task", "pid", -1),
    # (audit34, 3 Dec 2026) a runtime of 0 or 2^63 and more (the kernel
    # traces a positive s64 delta_exec), a prev_state bit the file's print
    # format does not show, a dst_level other than its dst_path's depth, a
    # CPU number of the trace.dat's CPU count ("ncpus": nr_cpu_ids), a
    # 16-byte comm without its NUL ("nonul")
    ("sched_stat_runtime", "runtime", 2**63), ("sched_stat_runtime", "runtime", 2**64 - 1),
    ("sched_stat_runtime", "runtime", 0),
    ("sched_switch", "prev_state", -1), ("sched_switch", "prev_state", 0x10000),
    ("cgroup_attach_task", "dst_level", -1), ("cgroup_attach_task", "dst_level", 1000),
    ("sched_waking", "target_cpu", "ncpus"), ("sched_wakeup", "target_cpu", "ncpus"),
    ("sched_migrate_task", "dest_cpu", "ncpus"),
    ("sched_switch", "prev_comm", "nonul"), ("sched_switch", "next_comm", "nonul"),
    ("sched_waking", "comm", "nonul"),
    # two prev_state bits from a 4.14+ kernel (one bit or TASK_REPORT_MAX);
    # a runtime above 2^62 ns (146 years of a task clock)
    ("sched_switch", "prev_state", 3), ("sched_stat_runtime", "runtime", 2**62 + 1),
]


def event_formats(lay):
    """{event name: (id, {field: (offset, size)})} from the format texts."""
    out = {}
    bodies = {}
    for name, off, size, soff in lay.fmt_texts:
        if soff is None:
            t = lay.data[off:off + size]
        else:
            if soff not in bodies:
                bodies[soff] = section_body(lay, soff)[0]
            t = bodies[soff][off:off + size]
        t = t.decode("latin-1")
        m = re.search(r"ID: (\d+)", t)
        if not m:
            continue
        fields = {}
        for fm in re.finditer(r"field:([^;]*);\s*offset:(\d+);\s*size:(\d+);", t):
            fname = re.sub(r"\[.*\]", "", fm.group(1).strip().split()[-1])
            fields[fname] = (int(fm.group(2)), int(fm.group(3)))
        out[name] = (int(m.group(1)), fields)
    return out


def mutate_evfield(buf, lay, p):
    """Field p["f"] of one p["ev"] record (chosen by p["s"]) set to p["v"]."""
    fmts = event_formats(lay)
    if p["ev"] not in fmts or p["f"] not in fmts[p["ev"]][1]:
        return None
    eid, fields = fmts[p["ev"]]
    foff, fsize = fields[p["f"]]
    v = p["v"]
    if v == "ncpus":
        v = max(r[1] for r in lay.cpu_regions) + 1
    elif v == "nonul":
        if fsize != 16:
            return None         # a __data_loc comm: not this op
        v = int.from_bytes(b"x" * 16, "little")
    ls = lay.long_size
    hdr = 8 + ls
    hits = []
    plains = {}
    for idx in page_index_list(lay):
        if lay.compressed:
            ci, pi = divmod(idx, 1 << 16)
            if ci not in plains:
                plains[ci] = chunk_plain(lay, buf, ci)
            page = bytes(plains[ci][pi * lay.page_size:(pi + 1) * lay.page_size])
        else:
            page = page_bytes(lay, buf, idx)[0]
        for q, tl, ln in records(page, ls):
            if tl > 28:
                continue
            body = hdr + q + (8 if tl == 0 else 4)
            if body + foff + fsize <= len(page) and \
                    struct.unpack_from("<H", page, body)[0] == eid:
                hits.append((idx, body + foff))
    if not hits:
        return None
    idx, at = random.Random(p["s"]).choice(hits)
    page, put = page_bytes(lay, buf, idx)
    page = bytearray(page)
    page[at:at + fsize] = (v % (1 << (8 * fsize))).to_bytes(fsize, "little")
    return bytes(buf) if put(bytes(page)) else None


def page_index_list(lay):
    """Stable page indices: uncompressed pages, or (chunk << 16 | page)."""
    if not lay.compressed:
        return list(range(len(lay.pages)))
    out = []
    for ci, (_, _, _, us) in enumerate(lay.chunks):
        out += [(ci << 16) | k for k in range(us // lay.page_size)]
    return out


def records(page, ls):
    """(offset, type_len, length) of the records of a page (plain bytes)."""
    hdr = 8 + ls
    commit = int.from_bytes(page[8:8 + ls], "little") & ((1 << 27) - 1)
    out = []
    q = 0
    while q + 4 <= commit and hdr + q + 4 <= len(page):
        w = struct.unpack_from("<I", page, hdr + q)[0]
        tl = w & 0x1f
        if tl == 0:
            ln = 4 + struct.unpack_from("<I", page, hdr + q + 4)[0]
            ln = 4 + ((ln + 3) & ~3)
        elif tl <= 28:
            ln = 4 + tl * 4
        elif tl == 29:
            ln = 4 + struct.unpack_from("<I", page, hdr + q + 4)[0] if q + 8 <= commit else 4
            if ln <= 4:
                break
        else:
            ln = 8
        out.append((q, tl, ln))
        q += ln
    return out


def mutate_page(buf, lay, c):
    p = c["p"]
    ls = lay.long_size
    hdr = 8 + ls
    ps = lay.page_size
    idx = p["pg"]
    page, put = page_bytes(lay, buf, idx)
    page = bytearray(page)
    commit_raw = int.from_bytes(page[8:8 + ls], "little")
    commit = commit_raw & ((1 << 27) - 1)
    if commit == 0:
        return None
    op = p["op"]
    rng = random.Random(p.get("s", 0))

    def set_commit(v):
        page[8:8 + ls] = (v % (1 << (8 * ls))).to_bytes(ls, "little")

    def set_ts(v):
        page[0:8] = (v % (1 << 64)).to_bytes(8, "little")
    ts = int.from_bytes(page[0:8], "little")
    recs = records(page, ls)
    if op == "commit0":
        set_commit(0)
    elif op == "commit_over":
        set_commit(ps - hdr + 8 + p.get("s", 0) % 4096)
    elif op == "commit_max":
        set_commit((1 << 27) - 1)
    elif op == "commit_minus":      # cut inside the last record
        set_commit(commit - 1 - p.get("s", 0) % 3)
    elif op == "commit_rec":        # cut exactly at a record boundary (undetectable)
        if len(recs) < 2:
            return None
        set_commit(recs[rng.randrange(1, len(recs))][0])
    elif op == "commit_plus":       # include the (zeroed/garbage) bytes after commit
        if commit + 8 > ps - hdr:
            return None
        set_commit(commit + 4 * (1 + p.get("s", 0) % 8))
    elif op == "commit_missed":
        set_commit(commit_raw | (1 << 31))
    elif op == "commit_stored":
        set_commit(commit_raw | (1 << 31) | (1 << 30))
    elif op == "commit_highbits":
        set_commit(commit_raw | (7 << 27))
    elif op == "ts0":
        set_ts(0)
    elif op == "tsmax":
        set_ts((1 << 64) - 1)
    elif op == "tshigh":            # bit 62 set: 146 years later, without wrapping
        set_ts(ts | (1 << 62))
    elif op == "tsjump":            # +1000 s on this page only
        set_ts(ts + 1000 * 10**9)
    elif op == "tsback":            # 1 s earlier: before the previous page's records
        set_ts(ts - 10**9)
    elif op == "tssmall":           # 1 us later: may still be in order (undetectable)
        set_ts(ts + 1000)
    elif op in ("rec0huge", "rec29", "rec29zero", "rec30huge", "rec31", "rec31zero", "reclen0",
                "rectl"):
        if not recs:
            return None
        q = hdr + recs[rng.randrange(len(recs))][0]
        w = struct.unpack_from("<I", page, q)[0]
        if op == "rec0huge":
            struct.pack_into("<II", page, q, w & ~0x1f, 0xfffffff0)
        elif op == "reclen0":
            struct.pack_into("<II", page, q, w & ~0x1f, 0)
        elif op == "rec29":
            struct.pack_into("<I", page, q, (w & ~0x1f) | 29)
        elif op == "rec29zero":
            struct.pack_into("<II", page, q, (w & ~0x1f) | 29, 0)
        elif op == "rec30huge":
            struct.pack_into("<II", page, q, (w & ~0x1f) | 30, 0xffffffff)
        elif op == "rec31":
            struct.pack_into("<I", page, q, (w & ~0x1f) | 31)
        elif op == "rec31zero":
            struct.pack_into("<II", page, q, (w & ~0x1f) | 31, 0)
        elif op == "rectl":
            struct.pack_into("<I", page, q, (w & ~0x1f) | rng.randrange(1, 29))
    elif op == "recdelta":          # a huge time delta in one record header
        if not recs:
            return None
        q = hdr + recs[rng.randrange(len(recs))][0]
        w = struct.unpack_from("<I", page, q)[0]
        struct.pack_into("<I", page, q, (w & 0x1f) | (0x7ffffff << 5))
    elif op == "evtype":            # the common_type of one event
        ev = [r for r in recs if 1 <= r[1] <= 28 or r[1] == 0]
        if not ev:
            return None
        q, tl, _ = ev[rng.randrange(len(ev))]
        body = hdr + q + (8 if tl == 0 else 4)
        struct.pack_into("<H", page, body, rng.choice([0, 1, 0xffff, 9999, rng.randrange(65536)]))
    elif op == "payload":           # bytes inside an event's fields (not its header)
        ev = [r for r in recs if (1 <= r[1] <= 28 or r[1] == 0) and r[2] > 12]
        if not ev:
            return None
        q, tl, ln = ev[rng.randrange(len(ev))]
        start = hdr + q + (8 if tl == 0 else 4) + 8     # skip the common_* fields
        end = hdr + q + ln
        if end <= start:
            return None
        for _ in range(1 + rng.randrange(3)):
            page[rng.randrange(start, end)] = rng.randrange(256)
    elif op == "pidflip":           # common_pid of one event
        ev = [r for r in recs if 1 <= r[1] <= 28 or r[1] == 0]
        if not ev:
            return None
        q, tl, _ = ev[rng.randrange(len(ev))]
        body = hdr + q + (8 if tl == 0 else 4)
        struct.pack_into("<i", page, body + 4, rng.choice([-1, 0, 2**31 - 1, 123456]))
    elif op == "zero":
        page[:] = b"\0" * len(page)
    elif op == "ff":
        page[:] = b"\xff" * len(page)
    elif op == "hdrbytes":
        for _ in range(1 + rng.randrange(4)):
            page[rng.randrange(hdr)] = rng.randrange(256)
    elif op in ("dup", "swap"):
        # with the next page of the same CPU region / chunk
        nxt = next_page_index(lay, idx)
        if nxt is None:
            return None
        other, put2 = page_bytes(lay, buf, nxt)
        if lay.compressed:
            # both live in one chunk: edit the plain chunk once
            ci, pi = divmod(idx, 1 << 16)
            plain = chunk_plain(lay, buf, ci)
            a = bytes(plain[pi * ps:(pi + 1) * ps])
            b = bytes(plain[(pi + 1) * ps:(pi + 2) * ps])
            plain[(pi + 1) * ps:(pi + 2) * ps] = a
            if op == "swap":
                plain[pi * ps:(pi + 1) * ps] = b
            _, q, zs, _ = lay.chunks[ci]
            return bytes(buf) if recompress_into(buf, q + 8, zs, bytes(plain)) else None
        if op == "dup":
            put2(bytes(page))
            return bytes(buf)
        put2(bytes(page))
        put(bytes(other))
        return bytes(buf)
    else:
        raise ValueError(op)
    return bytes(buf) if put(bytes(page)) else None


def next_page_index(lay, idx):
    if not lay.compressed:
        if idx + 1 >= len(lay.pages) or lay.pages[idx + 1][0] != lay.pages[idx][0]:
            return None
        return idx + 1
    ci, pi = divmod(idx, 1 << 16)
    if (pi + 2) * lay.page_size > lay.chunks[ci][3]:
        return None
    return idx + 1


# Which mutations a correct reader must notice (exit 0 with changed output
# and no warning is then a BUG); the others (payload bytes, a page cut at a
# record boundary, ...) are data no reader can tell from the real thing.
UNDETECTABLE_PAGE_OPS = {"payload", "pidflip", "commit_rec", "tssmall", "rectl", "evtype",
                         "recdelta", "hdrbytes",
                         # an empty page (commit 0) is legal anywhere; the kernel and
                         # kbuffer ignore commit bits 27..29
                         "commit0", "zero", "commit_highbits",
                         # a discarded event (type_len 29 with a length) is legal too, and
                         # a zero-length padding ends the page's data (both backends agree)
                         "rec29", "rec29zero"}


def detectable(c):
    cls, p = c["cls"], c["p"]
    if c["kind"] == "sysc":
        return p["op"] in SYS_DETECTABLE
    if c["kind"] in ("v7zstd", "v7none", "v6"):
        if cls in ("trunc", "opt"):
            return True
        if cls in ("page", "payload"):
            return p["op"] not in UNDETECTABLE_PAGE_OPS
        if cls == "chunk":
            # zstd frames carry no checksum here: changed literals decompress fine
            return p["op"] not in ("dup", "swap", "zbytes")
        if cls == "evfield":
            return True
        if cls == "cpuid":
            # ids exchanged: each CPU's records read as the other's, which no
            # reader can tell
            return p["op"] != "swap"
        if cls == "field":
            if p["op"] == "zero" and p["f"].endswith(".size"):
                return False        # a CPU without data is legal
            return any(p["f"].endswith(s) for s in (".size", ".offset", "zsize", "usize",
                                                    "chunk_count", "cpu_count", "page_size",
                                                    "long_size"))
        return False
    return False


def gen_binary_cases(kind, src, lay, rng, n):
    cases = []
    d = lay.data
    size = len(d)

    def add(cls, **p):
        cases.append({"kind": kind, "src": src, "cls": cls, "p": p})
    # truncation: every boundary of the metadata, +1, middle; pages/chunks
    cuts = set()
    for f in lay.fields:
        for at in (f.off, f.off + 1, f.off + f.size // 2, f.off + f.size - 1):
            if 0 < at < size:
                cuts.add(at)
    for ri, q in lay.pages:
        for k in (0, 8, 16, 17, lay.page_size // 2):
            cuts.add(q + k)
    for _, q, zs, _ in lay.chunks:
        for k in (0, 4, 8, 9, 8 + zs // 2, 8 + zs - 1):
            cuts.add(q + k)
    cuts.add(size - 1)
    cuts = sorted(a for a in cuts if 0 < a < size)
    trunc = [dict(at=a) for a in cuts]
    # metadata fields
    field = []
    for f in lay.fields:
        # ~2,300 format sizes: the metadata around them matters more
        if f.group == "formats" and rng.random() > 0.05:
            continue
        ops = ["zero", "ff", "bit", "rand"] + (["inc", "dec", "dbl", "half"] if f.int else [])
        for op in ops:
            pp = {"f": f.name, "op": op}
            if op == "bit":
                pp["b"] = rng.randrange(64)
            if op == "rand":
                pp["s"] = rng.randrange(1 << 20)
            field.append(pp)
    # format texts: the sched_* ones that the reader decodes, a few others
    fmt = []
    for t, (name, _, _, _) in enumerate(lay.fmt_texts):
        if name.startswith("sched_") or name in ("cgroup_attach_task", "print") or \
                rng.random() < 0.02:
            for op in ("digit", "byte", "word", "nul"):
                for _ in range(3):
                    fmt.append({"t": t, "op": op, "s": rng.randrange(1 << 20)})
    # pages
    pidx = page_index_list(lay)
    pops = ["commit0", "commit_over", "commit_max", "commit_minus", "commit_rec", "commit_plus",
            "commit_missed", "commit_stored", "commit_highbits", "ts0", "tsmax", "tshigh", "tsjump",
            "tsback", "tssmall", "rec0huge", "rec29", "rec29zero", "rec30huge", "rec31",
            "rec31zero", "reclen0", "rectl", "recdelta", "evtype", "zero", "ff", "hdrbytes",
            "dup", "swap"]
    page = []
    for op in pops:
        for _ in range(6):
            page.append({"pg": rng.choice(pidx), "op": op, "s": rng.randrange(1 << 20)})
    payload = [{"pg": rng.choice(pidx), "op": rng.choice(["payload", "pidflip"]),
                "s": rng.randrange(1 << 20)} for _ in range(40)]
    chunk = []
    for ci in range(len(lay.chunks)):
        for op in ("dup", "swap", "zbytes", "skip"):
            chunk.append({"c": ci, "op": op, "s": rng.randrange(1 << 20)})
    # every op on every entry (v7 only: v6's CPU is the table's index)
    cpuid = [{"e": e, "op": op} for e in range(len(lay.cpu_ids)) for op in CPUID_OPS]
    # budget: n per source, split over classes
    share = {"trunc": 0.25, "field": 0.25, "fmt": 0.1, "page": 0.25, "payload": 0.05,
             "chunk": 0.1 if lay.chunks else 0}
    if not lay.chunks:
        share["page"] += 0.1
    for cls, lst in (("trunc", trunc), ("field", field), ("fmt", fmt), ("page", page),
                     ("payload", payload), ("chunk", chunk)):
        k = min(len(lst), max(1, int(n * share[cls]))) if lst and share[cls] else 0
        for pp in rng.sample(lst, k) if k < len(lst) else lst:
            cls2 = "payload" if cls == "payload" else cls
            add(cls2, **pp)
    # after the others, so that their cases are those of the same seed before
    for pp in cpuid:
        add("cpuid", **pp)
    # the events the file has formats for (its own generator: the cases of
    # the classes above stay those of the same seed before)
    names = {t[0] for t in lay.fmt_texts}
    r2 = random.Random(f"{rng.random()}/evfield")
    for ev, f, v in EVFIELD_OPS:
        if ev in names:
            add("evfield", ev=ev, f=f, v=v, s=r2.randrange(1 << 20))
    return cases


# ------------------------------------------------------------------ text ---

BAD_NUMS = ["-1", "0", "99999999999999999999999", "18446744073709551616", "4294967296",
            "2147483648", "-2147483649", "1e10", "0x10", "abc", "", "NaN", "1.5", "+7", "007"]


def mutate_text(data, c):
    lines = data.split(b"\n")
    p = c["p"]
    rng = random.Random(p["s"])
    op = c["cls"]
    i = p["l"] % len(lines)
    if op == "cutline":
        del lines[i]
    elif op == "cut":
        off = p["s"] % max(1, len(data))
        return data[:off]
    elif op == "badnum" or op == "hugenum":
        nums = list(re.finditer(rb"\d+", lines[i]))
        if not nums:
            return None
        m = rng.choice(nums)
        val = rng.choice(BAD_NUMS if op == "badnum" else
                         ["99999999999999999999999", "18446744073709551616",
                          "9" * 400, "4294967296", "2147483648"]).encode()
        lines[i] = lines[i][:m.start()] + val + lines[i][m.end():]
    elif op == "swap":
        j = min(len(lines) - 1, i + 1 + rng.randrange(5))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "dup":
        lines.insert(i, lines[i])
    elif op == "field":
        kvs = list(re.finditer(rb"(\w+)=(\S*)", lines[i]))
        if not kvs:
            return None
        m = rng.choice(kvs)
        how = rng.randrange(5)
        rep = [b"", m.group(1) + b"=", m.group(1) + b"=xyz", b"x" * 5000,
               m.group(1) + b"=" + m.group(2) + b" " + m.group(1) + b"=7"][how]
        lines[i] = lines[i][:m.start()] + rep + lines[i][m.end():]
    elif op == "garbage":
        how = rng.randrange(6)
        if how == 0:
            lines[i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        elif how == 1:
            lines[i] = lines[i].replace(b" ", b"\0", 1)
        elif how == 2:
            lines[i] = lines[i] + b"\r"
        elif how == 3:
            lines[i] = b"x" * (1 << 20)
        elif how == 4:
            lines[i] = re.sub(rb"\[\d+\]", b"[99999]", lines[i])
        else:
            lines[i] = re.sub(rb"(\d+)\.(\d+):", b"\\1:", lines[i], 1)
    else:
        raise ValueError(op)
    return b"\n".join(lines)


# class hdr (fuzz40): the CPU count of a text's header line (trace-cmd
# report's "cpus=N", tracefs' "#P:N") set to a value no header has; each is
# an error (exit 0: BUG-accepted).  atoi() read 99999999999 as a wrapped int
# (an ASan out-of-memory), 5000 as 5000 CPUs, "abc" as none.
HDR_CPUS = ["0", "-3", "abc", "2x", "4097", "5000", "99999999999", "4294967298", ""]


def mutate_hdr(data, c):
    v = HDR_CPUS[c["p"]["v"]].encode()
    out, n = re.subn(rb"^cpus=\d+", b"cpus=" + v, data, count=1, flags=re.M)
    if not n:
        out, n = re.subn(rb"#P:\d+", b"#P:" + v, data, count=1)
    return out if n else None


def gen_text_cases(kind, src, data, rng, n):
    nl = data.count(b"\n") + 1
    cls = ["cutline", "cut", "badnum", "hugenum", "swap", "dup", "field", "garbage"]
    cases = []
    for k in range(n):
        c = cls[k % len(cls)]
        # the header lines (cpus=, # tracer) get extra weight
        line = rng.randrange(4) if rng.random() < 0.15 else rng.randrange(nl)
        cases.append({"kind": kind, "src": src, "cls": c,
                      "p": {"l": line, "s": rng.randrange(1 << 30)}})
    return cases


# class "comm" (fuzz37): one task's comm renamed in the whole text (its
# task column and every comm= / prev_comm= / next_comm= / child_comm= field)
# to a name a task may give itself (prctl PR_SET_NAME: up to 15 bytes): a
# space, another field's " KEY=", its own event's (" pid=": ambiguous, one
# error line), brackets, '-', "==>", ':'.  Each starts with "Zq", in no
# trace, so the output maps back: exit 0 must print what the unmutated
# text gives with the old name put back (column widths and row order
# aside), else BUG-silent (comm "x success=0" read as success=0 was one).
COMM_ODD = ["Zq b", "Zq success=0", "Zq vruntime=5", "Zq pid=5", "Zq prev_pid=7", "Zq ==> x",
            "Zq=y", "Zq a=b c=d", "Zq [001] 1.0: x", "Zq-1", "Zq-", "Zq  2", "Zqabcdefghijklm",
            "Zq\u00e9", "Zq prio=0", "Zq target_cpu=1", "Zq child_pid=3", "Zq dst_path=/x",
            "Zq next_comm=y", "Zq)", "Zq:", "Zq: sched_x:", "Zq old_pid=1", "Zq runtime=1"]


def comm_names(data):
    """The comms a "comm" case may rename: in comm= fields 3 times or more,
    not the idle task's, sorted (deterministic)."""
    from collections import Counter
    n = Counter(m.group(1) for m in re.finditer(rb"\bcomm=(\S+)", data))
    return sorted(k for k, v in n.items() if v >= 3 and not k.startswith((b"swapper", b"<idle>"))
                  and re.fullmatch(rb"[\w/:.+-]+", k))


def comm_pair(data, c):
    """(old, new) names of comm case c on its source's data; None if it has none."""
    names = comm_names(data)
    if not names:
        return None
    return names[c["p"]["c"] % len(names)], COMM_ODD[c["p"]["v"] % len(COMM_ODD)].encode()


def mutate_comm(data, c):
    pair = comm_pair(data, c)
    if not pair:
        return None
    old, new = pair
    o = re.escape(old)
    data = re.sub(rb"(comm=)" + o + rb"(?=\s|$)", lambda m: m.group(1) + new, data, flags=re.M)
    return re.sub(rb"^(\s*)" + o + rb"-(\d+)(\s+\[)", lambda m: m.group(1) + new + b"-" +
                  m.group(2) + m.group(3), data, flags=re.M)


def comm_unmap(out, pair):
    """out with the renamed comm's name put back, widths and row order set aside."""
    old, new = pair
    out = normalize(out).replace(new, old)
    return sorted(re.sub(rb"-{3,}", b"---", re.sub(rb"[ \t]+", b" ", ln)).strip()
                  for ln in out.split(b"\n"))


def gen_comm_cases(kind, src, rng, n):
    first = rng.randrange(len(COMM_ODD))
    return [{"kind": kind, "src": src, "cls": "comm",
             "p": {"c": rng.randrange(1 << 16), "v": (first + i) % len(COMM_ODD)}}
            for i in range(n)]


# class "vdir" (fuzz37): validate --dir DIR with odd directory contents
# beside (or instead of) small-pipe.dat and thresholds.json.  Each op is one
# layout; the outcome must be a result (exit 0/1 with a table) or one error
# line naming the odd entry, never a crash or hang (a FIFO named .dat must
# not be opened for reading: that blocks).
VDIR_OPS = ["empty", "dir", "fifo", "dangling", "loop", "notutf8", "newline", "dotdat",
            "sidecar-garbage", "sidecar-dir", "sidecar-empty", "text", "thresh-dir",
            "thresh-empty", "thresh-fifo", "two", "hidden", "long", "socket", "unreadable"]


def make_vdir(slot, inp, op):
    """slot/vdirx laid out for op; returns (dir, the entry an error must name)."""
    d = os.path.join(slot, "vdirx")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    fix = os.path.abspath(inp.src[("v7zstd", "small-pipe")])
    th = inp.src.get(("thresh", "thresholds"))
    trace = os.path.join(d, "small-pipe.dat")
    if op not in ("thresh-dir", "thresh-empty", "thresh-fifo"):
        os.symlink(os.path.abspath(th), os.path.join(d, "thresholds.json"))
    if op not in ("empty", "dir", "fifo", "dangling", "loop", "text", "socket", "unreadable"):
        os.symlink(fix, trace)
    named = trace
    if op == "empty":
        open(trace, "wb").close()
    elif op == "dir":
        os.makedirs(trace)
    elif op == "fifo":
        os.mkfifo(trace)
    elif op == "dangling":
        os.symlink(os.path.join(d, "nonexistent.dat"), trace)
    elif op == "loop":
        os.symlink("small-pipe.dat", trace)
    elif op == "socket":
        import socket
        so = socket.socket(socket.AF_UNIX)
        try:
            so.bind(trace)
        except OSError:
            return None
        finally:
            so.close()
    elif op == "unreadable":
        with open(trace, "wb") as fh:
            fh.write(open(fix, "rb").read())
        os.chmod(trace, 0)
    elif op == "text":
        txt = inp.src.get(("text", "small-pipe-text"))
        if not txt:
            return None
        inp.data_of("text", "small-pipe-text")
        os.symlink(os.path.abspath(txt), trace)
    elif op == "notutf8":
        named = os.path.join(d, "x\udcffy.dat")
        os.symlink(fix, os.fsencode(named))
        named = "x"
    elif op == "newline":
        named = os.path.join(d, "a\nb.dat")
        os.symlink(fix, named)
        named = "a"
    elif op == "dotdat":
        named = os.path.join(d, ".dat")
        os.symlink(fix, named)
    elif op == "sidecar-garbage":
        with open(trace + ".json", "wb") as fh:
            fh.write(b"{\"schema\": \"schedreplay-sidecar\", \x00")
        named = trace + ".json"
    elif op == "sidecar-dir":
        os.makedirs(trace + ".json")
        named = trace + ".json"
    elif op == "sidecar-empty":
        open(trace + ".json", "wb").close()
        named = trace + ".json"
    elif op == "thresh-dir":
        os.makedirs(os.path.join(d, "thresholds.json"))
        named = os.path.join(d, "thresholds.json")
    elif op == "thresh-empty":
        open(os.path.join(d, "thresholds.json"), "wb").close()
        named = os.path.join(d, "thresholds.json")
    elif op == "thresh-fifo":
        os.mkfifo(os.path.join(d, "thresholds.json"))
        named = os.path.join(d, "thresholds.json")
    elif op == "two":
        os.symlink(fix, os.path.join(d, "small-hackbench.dat"))
        named = None
    elif op == "hidden":
        os.symlink(fix, os.path.join(d, ".small-pipe.dat"))
        named = None
    elif op == "long":
        named = os.path.join(d, "l" * 250 + ".dat")
        os.symlink(fix, named)
    return d, named


def gen_vdir_cases(rng, n):
    return [{"kind": "vdir", "src": "small-pipe", "cls": "vdir", "p": {"op": op}}
            for op in VDIR_OPS[:n]]


# class "limit" (fuzz37): each numeric option at and past its bounds
LIMIT_VALUES = ["1", "15", "16", "64", "65", "1024", "1025", "4096", "4097", "10000", "10001",
                "2147483647", "4294967295", "9223372036854775807", "18446744073709551615"]
LIMIT_OPTIONS = {"report": ["--pid", "--top"],
                 "replay": ["--threads", "--hz", "--seed", "--top", "--newidle-ratio"],
                 "whatif": ["--threads", "--hz", "--seed", "--top", "--seeds"],
                 "validate": ["--seeds", "--first-seed", "--newidle-ratio"]}


def gen_limit_cases(rng, n):
    out = [{"kind": "options", "src": cmd, "cls": "limit", "p": {"o": o, "v": v}}
           for cmd, opts in LIMIT_OPTIONS.items() for o in opts for v in LIMIT_VALUES]
    return rng.sample(out, min(n, len(out)))


# ------------------------------------------------------------------ JSON ---


def json_paths(doc, path=()):
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from json_paths(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from json_paths(v, path + (i,))


JSON_VALUES = {"null": None, "str": "x", "emptystr": "", "list": [], "obj": {}, "true": True,
               "neg": -1, "zero": 0, "big": 1e308, "u64": 2**64, "i64": 2**63, "frac": 0.5,
               "negbig": -1e308, "longstr": "y" * 100000, "nestedlist": [[1, 2], {"a": 1}]}


def mutate_json(data, c):
    p = c["p"]
    cls = c["cls"]
    if cls == "cut":
        return data[:p["at"]]
    if cls == "garbage":
        rng = random.Random(p["s"])
        how = p["s"] % 5
        if how == 0:
            return data + b"\n{}"
        if how == 1:
            return b"[" * 100000
        if how == 2:
            b = bytearray(data)
            b[rng.randrange(len(b))] = rng.randrange(256)
            return bytes(b)
        if how == 3:
            return data.replace(b"{", b"{\"dup\": 1, \"dup\": 2, ", 1)
        return b"\xef\xbb\xbf" + data
    doc = json.loads(data)
    paths = [q for q in json_paths(doc) if q]
    if "at" in p:
        # a named path, keys joined by ">" (ctest cases: an index drifts as the file grows)
        path = tuple(int(k) if k.isdigit() else k for k in str(p["at"]).split(">"))
    else:
        path = paths[p["i"] % len(paths)]
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    if cls == "del":
        del parent[last]
    elif cls in ("type", "num"):
        parent[last] = json.loads(json.dumps(JSON_VALUES[p["v"]]))
    elif cls == "dupitem":
        if isinstance(parent, list):
            parent.append(parent[last])
        else:
            return None
    return json.dumps(doc, indent=1).encode()


def gen_json_cases(kind, src, data, rng, n, keep=None):
    """keep(path): which paths are worth mutating (default all)."""
    doc = json.loads(data)
    paths = [q for q in json_paths(doc) if q]
    idx = [i for i, q in enumerate(paths) if keep is None or keep(q)]
    out = []
    types = ["null", "str", "emptystr", "list", "obj", "true"]
    nums = ["neg", "zero", "big", "u64", "i64", "frac", "negbig", "longstr", "nestedlist"]
    for k in range(n):
        r = k % 10
        if r == 0:
            out.append(("cut", {"at": rng.randrange(1, len(data))}))
        elif r == 1:
            out.append(("garbage", {"s": rng.randrange(1 << 20)}))
        elif r in (2, 3):
            out.append(("del", {"i": rng.choice(idx)}))
        elif r in (4, 5):
            out.append(("type", {"i": rng.choice(idx), "v": rng.choice(types)}))
        elif r == 6:
            out.append(("dupitem", {"i": rng.choice(idx)}))
        else:
            out.append(("num", {"i": rng.choice(idx), "v": rng.choice(nums)}))
    return [{"kind": kind, "src": src, "cls": cls, "p": p} for cls, p in out]


# --------------------------------------------------------------- options ---

OPTION_VALUES = ["", "-1", "0", "abc", "99999999999999999999", "4294967297", "1e3", " 5", "5x",
                 "-0", "0x10", "2147483648", "1000000000"]
CMD_OPTIONS = {
    "report": ["--pid", "--by", "--top", "--cgroup-root", "--buffer", "--reader", "--start",
               "--comm", "--samples", "--sidecar"],
    "replay": ["--variant", "--threads", "--profile", "--placement", "--comm", "--hz",
               "--cgroup-map", "--sidecar", "--seed", "--top", "--plugin", "--variants-file",
               "--dump-events", "--newidle-ratio", "--vcpu-pack-cut"],
    "whatif": ["--variant", "--threads", "--profile", "--placement", "--hz", "--seed", "--top",
               "--machine", "--svg", "--svg-cgroup", "--svg-comm", "--noise", "--print-machine",
               "--cgroup-map", "--newidle-ratio", "--vcpu-pack-cut"],
    "validate": ["--dir", "--thresholds", "--seeds", "--profile", "--placement",
                 "--newidle-ratio", "--vcpu-pack-cut"],
}


def gen_option_cases(rng, n):
    out = []
    for cmd, opts in CMD_OPTIONS.items():
        for o in opts:
            for v in OPTION_VALUES:
                out.append({"kind": "options", "src": cmd, "cls": "value",
                            "p": {"o": o, "v": v.replace("/", "_") or "EMPTY"}})
            out.append({"kind": "options", "src": cmd, "cls": "missing", "p": {"o": o}})
    return rng.sample(out, min(n, len(out)))


# ------------------------------------------------------ syscall events ---
# kind "sysc": traces/small-chan.dat (v6, uncompressed, with the four
# syscalls:sys_{enter,exit}_{read,write} events --resched-at syscall-exit
# and --channels read).  One syscall record of a page is edited in place:
# fd / count / ret values, enter <-> exit (a mismatched pair; an exit read as
# an enter is shorter than the enter's fields), read <-> write, dropped (its
# type turned into an event no reader keeps), copied over the next record,
# moved after a later one (an exit before its enter), another pid, taken
# into IRQ context, or the file cut inside it.

SYS_EVENTS = ("sys_enter_read", "sys_exit_read", "sys_enter_write", "sys_exit_write")
SYS_OPS = ["fd", "count", "ret", "nr", "e2x", "x2e", "rw", "drop", "dup", "order", "pid",
           "irq", "cut"]
# an exit read as an enter (its record too short for fd and count) and a
# file cut inside a record must be noticed; the others are data a kernel
# could have written (or that a reader cannot tell): review their ok-changed
SYS_DETECTABLE = {"x2e", "cut"}


def sys_ids(lay):
    """{name: event id} of the four syscall events (and sys_enter_getpid)."""
    if not hasattr(lay, "_sys_ids"):
        out = {}
        for name, off, ln, sec in lay.fmt_texts:
            if sec is None and (name in SYS_EVENTS or name == "sys_enter_getpid"):
                m = re.search(rb"\nID: (\d+)", lay.data[off:off + ln])
                if m:
                    out[name] = int(m.group(1))
        lay._sys_ids = out
    return lay._sys_ids


def sys_records(page, ls, ids):
    """[(q, tl, ln, body offset in page, event name)] of the syscall records."""
    hdr = 8 + ls
    byid = {v: k for k, v in ids.items() if k in SYS_EVENTS}
    out = []
    for q, tl, ln in records(page, ls):
        if not (1 <= tl <= 28 or tl == 0):
            continue
        body = hdr + q + (8 if tl == 0 else 4)
        if body + 2 > len(page):
            continue
        t = struct.unpack_from("<H", page, body)[0]
        if t in byid:
            out.append((q, tl, ln, body, byid[t]))
    return out


def sys_pages(lay):
    """Indices of the pages with syscall records (uncompressed files only)."""
    if lay.compressed:
        return []
    ids = sys_ids(lay)
    if len([k for k in ids if k in SYS_EVENTS]) < 4:
        return []
    out = []
    for i, (_, off) in enumerate(lay.pages):
        if sys_records(lay.data[off:off + lay.page_size], lay.long_size, ids):
            out.append(i)
    return out


def mutate_sys(buf, lay, c):
    p = c["p"]
    ls = lay.long_size
    hdr = 8 + ls
    ids = sys_ids(lay)
    page, put = page_bytes(lay, buf, p["pg"])
    page = bytearray(page)
    recs = sys_records(page, ls, ids)
    if not recs:
        return None
    rng = random.Random(p["s"])
    op = p["op"]
    enters = [r for r in recs if "enter" in r[4]]
    exits = [r for r in recs if "exit" in r[4]]

    def pick(lst):
        return lst[rng.randrange(len(lst))] if lst else None
    if op in ("fd", "count", "e2x") and not enters or op in ("ret", "x2e") and not exits:
        return None
    if op == "fd":
        r = pick(enters)
        struct.pack_into("<Q", page, r[3] + 16, rng.choice(
            [0, 2**31, 2**32 - 1, 2**32, 2**63, 2**64 - 1, 99999, 1]))
    elif op == "count":
        r = pick(enters)
        struct.pack_into("<Q", page, r[3] + 32, rng.choice([0, 1, 2**63, 2**64 - 1, 2**32]))
    elif op == "ret":
        r = pick(exits)
        struct.pack_into("<q", page, r[3] + 16, rng.choice(
            [-1, -4095, -4096, 0, 2**63 - 1, -2**63, 1 << 40, 1 << 20]))
    elif op == "nr":
        r = pick(recs)
        struct.pack_into("<i", page, r[3] + 8, rng.choice([-1, 9999, 1, 0, 2**31 - 1]))
    elif op in ("e2x", "x2e", "rw"):
        r = pick(enters if op == "e2x" else exits if op == "x2e" else recs)
        name = r[4]
        if op == "rw":
            new = name.replace("read", "WRITE").replace("write", "read").replace("WRITE", "write")
        else:
            new = name.replace("enter", "EXIT").replace("exit", "enter").replace("EXIT", "exit")
        struct.pack_into("<H", page, r[3], ids[new])
    elif op == "drop":
        r = pick(recs)
        struct.pack_into("<H", page, r[3], ids.get("sys_enter_getpid", 0xfffe))
    elif op == "dup":
        # the record copied over the next record of the same length (its
        # header, and so its time, kept): an enter or exit given twice
        allr = records(page, ls)
        r = pick(recs)
        nxt = [x for x in allr if x[0] > r[0] and x[2] == r[2] and x[1] == r[1]]
        if not nxt:
            return None
        q2 = nxt[0][0]
        skip = 8 if r[1] == 0 else 4
        page[hdr + q2 + skip:hdr + q2 + r[2]] = page[hdr + r[0] + skip:hdr + r[0] + r[2]]
    elif op == "order":
        # a syscall record and a later syscall record of the page exchanged
        # (the time deltas stay where they were): an exit before its enter,
        # or two calls in the other order
        if len(recs) < 2:
            return None
        i = rng.randrange(len(recs) - 1)
        a = recs[i]
        # prefer the same task's next syscall record
        pid = struct.unpack_from("<i", page, a[3] + 4)[0]
        same = [x for x in recs[i + 1:] if struct.unpack_from("<i", page, x[3] + 4)[0] == pid]
        b = same[0] if same else recs[i + 1]
        qa, qb = hdr + a[0], hdr + b[0]
        ba, bb = bytearray(page[qa:qa + a[2]]), bytearray(page[qb:qb + b[2]])
        wa, wb = struct.unpack_from("<I", ba, 0)[0], struct.unpack_from("<I", bb, 0)[0]
        struct.pack_into("<I", ba, 0, (wa & 0x1f) | (wb & ~0x1f))
        struct.pack_into("<I", bb, 0, (wb & 0x1f) | (wa & ~0x1f))
        page[qa:qb + b[2]] = bb + page[qa + a[2]:qb] + ba
    elif op == "pid":
        r = pick(recs)
        others = sorted({struct.unpack_from("<i", page, x[3] + 4)[0] for x in recs})
        struct.pack_into("<i", page, r[3] + 4, rng.choice([0, -1, 2**31 - 1] + others))
    elif op == "irq":
        r = pick(recs)
        page[r[3] + 2] |= rng.choice([0x08, 0x10, 0x40])
    elif op == "cut":
        r = pick(recs)
        off = lay.pages[p["pg"]][1] + hdr + r[0] + 1 + rng.randrange(r[2] - 1)
        return bytes(buf[:off])
    else:
        raise ValueError(op)
    return bytes(buf) if put(bytes(page)) else None


def gen_sys_cases(kind, src, lay, rng, n):
    pages = sys_pages(lay)
    if not pages:
        return []
    return [{"kind": kind, "src": src, "cls": "sysc",
             "p": {"pg": rng.choice(pages), "op": SYS_OPS[k % len(SYS_OPS)],
                   "s": rng.randrange(1 << 20)}} for k in range(n)]


# kind "systext": small-chan.dat as `trace-cmd report -N -t` / `-R -t`
# text (whole: 22 450 lines), class sysline: one syscall line's number
# replaced, its event renamed (enter <-> exit, read <-> write), the line
# dropped or doubled, the event parts of two of one task's syscall lines
# exchanged (an exit before its enter, times in order), a field dropped,
# or the line moved to the other CPU.

SYSTEXT_OPS = ["val", "val", "name", "del", "dup", "order", "field", "cpu"]
SYS_BAD_NUMS = BAD_NUMS + ["0xffffffffffffffff", "0x10000000000000000", "-0x1", "0x", "0xg",
                           "0x7fffffff", "0x80000000", "-4095"]
SYS_LINE_RE = re.compile(rb"^\s*(\S.*?)-(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(sys_(?:enter|exit)_"
                         rb"(?:read|write)):(.*)$")


def mutate_systext(data, c):
    lines = data.split(b"\n")
    p = c["p"]
    rng = random.Random(p["s"])
    idx = [i for i, ln in enumerate(lines) if SYS_LINE_RE.match(ln)]
    if not idx:
        return None
    i = idx[p["l"] % len(idx)]
    m = SYS_LINE_RE.match(lines[i])
    op = p["op"]
    if op == "val":
        nums = list(re.finditer(rb"0x[0-9a-f]+|\d+", m.group(6)))
        if not nums:
            return None
        n = rng.choice(nums)
        body = m.group(6)
        body = body[:n.start()] + rng.choice(SYS_BAD_NUMS).encode() + body[n.end():]
        lines[i] = lines[i][:m.start(6)] + body
    elif op == "name":
        ev = m.group(5)
        if rng.random() < 0.5:
            new = ev.replace(b"enter", b"EXIT").replace(b"exit", b"enter").replace(b"EXIT", b"exit")
        else:
            new = ev.replace(b"read", b"WRITE").replace(b"write", b"read").replace(b"WRITE", b"write")
        lines[i] = lines[i][:m.start(5)] + new + lines[i][m.end(5):]
    elif op == "del":
        del lines[i]
    elif op == "dup":
        lines.insert(i, lines[i])
    elif op == "order":
        pid = m.group(2)
        later = [j for j in idx if j > i and SYS_LINE_RE.match(lines[j]).group(2) == pid]
        if not later:
            return None
        j = later[0]
        mj = SYS_LINE_RE.match(lines[j])
        a, b = lines[i][m.start(5):], lines[j][mj.start(5):]
        lines[i] = lines[i][:m.start(5)] + b
        lines[j] = lines[j][:mj.start(5)] + a
    elif op == "field":
        body = m.group(6)
        kvs = list(re.finditer(rb"(\w+)[=:] ?(0x[0-9a-f]+|-?\d+),?", body))
        if not kvs:
            body = b""
        else:
            k = rng.choice(kvs)
            body = body[:k.start()] + (b"" if rng.random() < 0.5 else k.group(1) + b"=") + \
                body[k.end():]
        lines[i] = lines[i][:m.start(6)] + body
    elif op == "cpu":
        cpu = int(m.group(3))
        lines[i] = lines[i][:m.start(3)] + b"%03d" % (1 - cpu if cpu < 2 else 0) + \
            lines[i][m.end(3):]
    else:
        raise ValueError(op)
    return b"\n".join(lines)


def gen_systext_cases(kind, src, data, rng, n):
    nsys = sum(1 for ln in data.split(b"\n") if SYS_LINE_RE.match(ln))
    if not nsys:
        return []
    return [{"kind": kind, "src": src, "cls": "sysline",
             "p": {"l": rng.randrange(nsys), "op": SYSTEXT_OPS[k % len(SYSTEXT_OPS)],
                   "s": rng.randrange(1 << 30)}} for k in range(n)]


# --------------------------------------------- sidecar function_counts ---
# kind "funcs": small-chan.dat's sidecar with a function_counts section
# as a capture with a usable function tracer writes it (the nine functions
# replay compares, 6.10+ names), then: a count of another JSON type or out
# of range, a name twice, unknown / odd names, the old and new name of a
# renamed function both, 200 000 names, the section's own keys retyped.
# Through replay (text: its "Function counts" table), replay --json
# (relative_errors.RUN.function_counts), whatif and report.

FUNC_NAMES = ["update_curr", "update_load_avg", "update_cfs_group", "reweight_entity",
              "update_tg_load_avg", "propagate_entity_load_avg",
              "sched_balance_update_blocked_averages", "sched_balance_newidle", "place_entity"]
FUNC_OLD = {"sched_balance_update_blocked_averages": "update_blocked_averages",
            "sched_balance_newidle": "newidle_balance"}
FUNC_VALUES = {"neg": -1, "neg5": -5, "zero": 0, "i63": 2**63 - 1, "i64": 2**63, "u64": 2**64,
               "big": 1e308, "frac": 1.5, "negfrac": -0.5, "float": 1000.0, "str": "12",
               "null": None, "true": True, "list": [], "obj": {}, "negbig": -2**63}
FUNC_ODD = ["no_such_function", "", "update_curr ", "UPDATE_CURR", "y" * 100000,
            "\u0000update_curr", "update_curr\n", "\ud800", "update_curr\u00e9", "%s%n"]
FUNC_OPS = ["val", "val", "val", "dup", "unknown", "renamed", "many", "avail", "del"]
FUNC_AVAIL = ["str", "one", "null", "false", "nocounts", "countslist", "countsnull",
              "countsstr", "fclist", "fcnull", "fcint", "countsnested"]


def funcs_base(sidecar_bytes):
    doc = json.loads(sidecar_bytes)
    doc["function_counts"] = {
        "available": True, "method": "function tracer in instance",
        "counts": {n: 1000 * (i + 1) + 7 * i for i, n in enumerate(FUNC_NAMES)}, "symbols": {}}
    return json.dumps(doc, indent=1).encode()


def mutate_funcs(data, c):
    p = c["p"]
    op = p["op"]
    doc = json.loads(data)
    fc = doc["function_counts"]
    counts = fc["counts"]
    k = FUNC_NAMES[p.get("k", 0) % len(FUNC_NAMES)]
    if op == "val":
        counts[k] = FUNC_VALUES[p["v"]]
    elif op == "del":
        del counts[k]
    elif op == "unknown":
        counts[FUNC_ODD[p["v"] % len(FUNC_ODD)]] = 5
    elif op == "renamed":
        old = list(FUNC_OLD)[p["k"] % 2]
        how = p["v"] % 3
        if how == 0:        # both names, other counts
            counts[FUNC_OLD[old]] = counts[old] * 3
        elif how == 1:      # only the old name
            counts[FUNC_OLD[old]] = counts.pop(old)
        else:               # both, the old one unmeasured
            counts[FUNC_OLD[old]] = None
    elif op == "many":
        for i in range(200000):
            counts[f"f{i}"] = i
    elif op == "avail":
        how = FUNC_AVAIL[p["v"] % len(FUNC_AVAIL)]
        if how == "str":
            fc["available"] = "true"
        elif how == "one":
            fc["available"] = 1
        elif how == "null":
            fc["available"] = None
        elif how == "false":
            fc["available"] = False
        elif how == "nocounts":
            del fc["counts"]
        elif how == "countslist":
            fc["counts"] = list(counts.values())
        elif how == "countsnull":
            fc["counts"] = None
        elif how == "countsstr":
            fc["counts"] = "update_curr=5"
        elif how == "fclist":
            doc["function_counts"] = [fc]
        elif how == "fcnull":
            doc["function_counts"] = None
        elif how == "fcint":
            doc["function_counts"] = 1
        else:
            fc["counts"] = {"update_curr": {"count": 5}}
    elif op == "dup":
        # the name twice, as text: json.dumps cannot write it
        txt = json.dumps(doc, indent=1)
        key = json.dumps(k) + ": "
        at = txt.index(key)
        v2 = [0, 1, 999999999, -1][p["v"] % 4]
        return (txt[:at] + key + str(v2) + ",\n  " + txt[at:]).encode()
    else:
        raise ValueError(op)
    return json.dumps(doc, indent=1).encode()


def gen_funcs_cases(kind, src, rng, n):
    out = []
    for i in range(n):
        op = FUNC_OPS[i % len(FUNC_OPS)]
        p = {"op": op, "k": rng.randrange(len(FUNC_NAMES))}
        if op == "val":
            p["v"] = rng.choice(sorted(FUNC_VALUES))
        elif op != "del":
            p["v"] = rng.randrange(1 << 16)
        out.append({"kind": kind, "src": src, "cls": op, "p": p})
    return out


# kind "snap" (fuzz41): pelt-mix.dat's sidecar snapshots of the kernel's
# per-thread /proc/<pid>/task/<tid>/sched (sched_at_start / sched_at_end,
# replay/sidecar.c), read by replay's --initial-pelt kernel and its "PELT at
# the capture's end".  Class snapbad: every case a value, type or shape no
# capture writes - an error naming the sidecar, never exit 0 (MUST_FAIL);
# snapok: values a kernel may print (bounds, null, a field or task left
# out), read at exit 0; snapother: another capture's snapshots (pelt-root's,
# the same machine 7 s later) in pelt-mix's sidecar, or the two exchanged.
SNAP_FIELDS = ["weight", "load_sum", "runnable_sum", "util_sum", "load_avg", "runnable_avg",
               "util_avg", "last_update_time", "util_est", "exec_start_ns",
               "sum_exec_runtime_ns", "nr_migrations", "nr_switches", "nr_voluntary",
               "nr_involuntary", "policy", "prio", "slice_ns"]
# a value no kernel prints in any of the fields (per-field bounds: sidecar.c's
# sched_range), or of another type
SNAP_BAD = {"neg2": -2, "i63": 2**63 - 1, "i63n": -2**63, "u64": 2**64, "e62": 2**62 + 1,
            "huge": 10**30, "half": 0.5, "real": 1e308, "str": "5", "true": True,
            "list": [], "obj": {}, "nan": "NaN"}
SNAP_PID_BAD = {"zero": 0, "neg": -1, "big": 4194305, "i31": 2**31, "str": "7", "real": 7.5,
                "null": None, "list": [7]}
SNAP_SHAPE = ["availstr", "availone", "availnull", "notasks", "tasksnull", "tasksobj",
              "taskint", "snapstr", "snaplist", "statelong", "stateint", "tgidstr",
              "many70k", "many1m"]
# (since fuzz42 "empty", and "deltask" of the capture's own process or of a
# workload, are errors: sched_snap_owner_check(), a snapshot lists both)
SNAP_OK = ["null", "del", "deltask", "low", "high", "unavail", "empty", "statenull"]
# reuse / reusewl (since 2026-12-05): each entry and capture.starttime given stat's
# field 22, the end read's entry of the capture's process / of a stopped
# workload a later start (a later capture whose process reused the pid);
# starttime: the same starts, unchanged (read at exit 0)
SNAP_OTHER = ["both", "start", "end", "swap", "reuse", "reusewl", "starttime", "gapreuse",
              "gapsame"]
# fuzz42: the sidecar's cpu_time (capture/cap_cputime.c: each CPU's /proc/stat
# irq, softirq, steal in USER_HZ ticks at the start and end; replay's
# "clock:" lines, --clock-task traced) and the snapshots' per-thread cpu
# (stat field 39, --initial-pelt's blocked-load CPU).  ctbad / cpubad: every
# case a value no capture writes (MUST_FAIL): a count below the start read
# (a kernel counter does not go back: was read as 0 at exit 0), past 2^64 ns
# in ticks (was "steal 18446744073710 ms"), a CPU past cpus.topology (the
# snapshot's was taken as unknown); ctok / cpuok: what a kernel and capture
# may write (a CPU offline by the end read, user_hz 1 or 1024, the bounds,
# null, absent on one read only), read at exit 0.
CT_BAD = ["back-irq", "back-softirq", "back-steal", "neg", "str", "real", "null", "huge",
          "u64", "cpu2", "cpuneg", "cpustr", "twice", "noend", "endnull", "endobj", "hz0",
          "hzneg", "hzstr", "hzbig", "hzreal", "notobj", "entryint", "endextra", "nocpu",
          "nosteal"]
CT_OK = ["grow", "hz1", "hz1024", "unavail", "null", "del", "endsub", "max", "availstr"]
CPU_BAD = [2, 3, 65535, 65536, -1, 2**31, 2**63, "1", 1.5, True, [1], {}]
CPU_OK = ["null", "del", "other", "delstart", "delend", "allnull"]
SNAP_OPS = {"snapbad": ["val", "val", "val", "dup", "pid", "shape"],
            "snapok": ["ok"], "snapother": ["other"],
            "ctbad": ["ct", "ct", "ct", "ctempty"], "ctok": ["ctok"], "cpubad": ["cpu"], "cpuok": ["cpuok"]}
SNAP_CLASSES = tuple(SNAP_OPS)
SNAP_KEYS = ("sched_at_start", "sched_at_end")
# the kernel's bounds (sidecar.c's sched_range): low, high of each field
SNAP_RANGE = {"weight": (1, 2**32), "load_sum": (0, 2**32 - 1), "runnable_sum": (0, 2**32 - 1),
              "util_sum": (0, 2**32 - 1), "load_avg": (0, 2**20), "runnable_avg": (0, 2**20),
              "util_avg": (0, 2**20), "util_est": (0, 2**32 - 1), "policy": (0, 7),
              "prio": (-1, 139)}


def snap_bad_value(field, name):
    """SNAP_BAD[name], moved past the field's bound where it would be inside."""
    v = SNAP_BAD[name]
    lo, hi = SNAP_RANGE.get(field, (0, 2**62))
    if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi:
        v = hi + 1
    return v


def mutate_snap(data, c, inp):
    p = c["p"]
    op = p["op"]
    doc = json.loads(data)
    key = SNAP_KEYS[p.get("s", 0) % 2]
    snap = doc[key]
    tasks = snap["tasks"]
    t = tasks[p.get("i", 0) % len(tasks)]
    f = SNAP_FIELDS[p.get("k", 0) % len(SNAP_FIELDS)]
    if op == "val":
        name = sorted(SNAP_BAD)[p["v"] % len(SNAP_BAD)]
        if p.get("all"):
            for x in tasks:
                x[f] = snap_bad_value(f, name)
        else:
            t[f] = snap_bad_value(f, name)
        if name == "nan":       # a bare NaN: not JSON
            return json.dumps(doc, indent=1).replace('"NaN"', "NaN").encode()
    elif op == "dup":
        u = dict(t)
        u["load_avg"] = (u.get("load_avg") or 0) + 1
        tasks.insert(p["v"] % len(tasks), u)
    elif op == "pid":
        how = sorted(SNAP_PID_BAD)[p["v"] % len(SNAP_PID_BAD)]
        if p["v"] % 9 == 8:
            del t["pid"]
        else:
            t["pid"] = SNAP_PID_BAD[how]
    elif op == "shape":
        how = SNAP_SHAPE[p["v"] % len(SNAP_SHAPE)]
        if how == "availstr":
            snap["available"] = "true"
        elif how == "availone":
            snap["available"] = 1
        elif how == "availnull":
            snap["available"] = None
        elif how == "notasks":
            del snap["tasks"]
        elif how == "tasksnull":
            snap["tasks"] = None
        elif how == "tasksobj":
            snap["tasks"] = {"1": t}
        elif how == "taskint":
            tasks[p["i"] % len(tasks)] = 5
        elif how == "snapstr":
            doc[key] = "available"
        elif how == "snaplist":
            doc[key] = [snap]
        elif how == "statelong":
            t["state"] = "SS"
        elif how == "stateint":
            t["state"] = 83
        elif how == "tgidstr":
            t["tgid"] = "1"
        elif how == "many70k":      # past the loader's 65536 (a capture writes 2048)
            snap["tasks"] = [{"pid": i + 1} for i in range(70000)]
        else:                       # 10^6 entries: past the sidecar's 1 M values
            snap["tasks"] = [{"pid": i + 1} for i in range(10**6)]
            return json.dumps(doc, separators=(",", ":")).encode()
    elif op == "ok":
        how = SNAP_OK[p["v"] % len(SNAP_OK)]
        if how == "null":
            t[f] = None
        elif how == "del":
            t.pop(f, None)
        elif how == "deltask":
            tasks.remove(t)
        elif how in ("low", "high"):
            lo, hi = SNAP_RANGE.get(f, (0, 2**62))
            t[f] = lo if how == "low" else hi
        elif how == "unavail":
            doc[key] = {"available": False, "reason": "fuzz"}
        elif how == "empty":
            snap["tasks"] = []
        else:
            t["state"] = None
    elif op in ("ct", "ctok"):
        mutate_cputime(doc, op, p)
    elif op == "ctempty":       # a read that lists no CPU (was: no clock: line, exit 0)
        doc["cpu_time"]["at_end" if p["v"] % 2 else "at_start"] = []
    elif op == "cpu":
        t["cpu"] = CPU_BAD[p["v"] % len(CPU_BAD)]
    elif op == "cpuok":
        how = CPU_OK[p["v"] % len(CPU_OK)]
        if how == "null":
            t["cpu"] = None
        elif how == "del":
            t.pop("cpu", None)
        elif how == "other":
            t["cpu"] = 1 - (t.get("cpu") or 0)
        elif how in ("delstart", "delend"):      # absent on one read only
            for x in doc["sched_at_start" if how == "delstart" else "sched_at_end"]["tasks"]:
                x.pop("cpu", None)
        else:
            for x in tasks:
                x["cpu"] = None
    elif op == "other":
        how = SNAP_OTHER[p["v"] % len(SNAP_OTHER)]
        if how == "swap":
            doc["sched_at_start"], doc["sched_at_end"] = doc["sched_at_end"], \
                doc["sched_at_start"]
        elif how in ("reuse", "reusewl", "starttime"):
            for k in SNAP_KEYS:
                for x in doc[k]["tasks"]:
                    x["starttime"] = 100000 + x["pid"]
            cap = doc["capture"]["pid"]
            doc["capture"]["starttime"] = 100000 + cap
            pid = cap if how == "reuse" else \
                next(g["pid"] for g in doc["groups"] if g.get("stopped_at_end"))
            if how != "starttime":
                next(x for x in doc["sched_at_end"]["tasks"]
                     if x["pid"] == pid)["starttime"] += 50000
        elif how in ("gapreuse", "gapsame"):
            # robust49: a process that exited after the trace and whose pid a
            # new process took before the end read (or before the trace
            # began): the end entry is a fresh thread with another start
            # (gapreuse, this capture's: read) or the same (gapsame: refused)
            for k in SNAP_KEYS:
                for x in doc[k]["tasks"]:
                    x["starttime"] = 100000 + x["pid"]
            skip = {doc["capture"]["pid"]} | {g["pid"] for g in doc["groups"]
                                               if g.get("stopped_at_end")}
            end = {x["pid"]: x for x in doc["sched_at_end"]["tasks"]}
            x = max((x for x in doc["sched_at_start"]["tasks"]
                     if x["pid"] == x["tgid"] and x["pid"] not in skip and x["pid"] in end),
                    key=lambda x: (x.get("nr_switches") or 0, -x["pid"]))
            e = end[x["pid"]]
            for key in ("nr_switches", "nr_voluntary", "nr_involuntary", "nr_migrations",
                        "sum_exec_runtime_ns"):
                e[key] = 1 if key != "nr_involuntary" else 0
            if how == "gapreuse":
                e["starttime"] += 50000
        else:
            other = json.loads(inp.data_of("snapother", "pelt-root"))
            for k in SNAP_KEYS:
                if how == "both" or k == "sched_at_" + how:
                    doc[k] = other[k]
    else:
        raise ValueError(op)
    return json.dumps(doc, indent=1).encode()


def mutate_cputime(doc, op, p):
    ct = doc["cpu_time"]
    a0, a1 = ct["at_start"], ct["at_end"]
    side = a1 if p["s"] else a0
    e = side[p["i"] % len(side)]
    key = ("irq", "softirq", "steal")[p["k"] % 3]
    if op == "ct":
        how = CT_BAD[p["v"] % len(CT_BAD)]
        if how.startswith("back-"):
            k = how[5:]
            a0[0][k] = a1[0][k] + 1 + p["v"] % 1000
        elif how in ("neg", "str", "real", "null", "huge", "u64"):
            e[key] = {"neg": -1, "str": "5", "real": 0.5, "null": None, "huge": 2**63 - 1,
                      "u64": 2**64}[how]
        elif how.startswith("cpu"):
            e["cpu"] = {"cpu2": 2, "cpuneg": -1, "cpustr": "0"}[how]
        elif how == "twice":
            side.append(dict(e))
        elif how == "noend":
            del ct["at_end"]
        elif how in ("endnull", "endobj"):
            ct["at_end"] = None if how == "endnull" else {"0": a1[0]}
        elif how.startswith("hz"):
            ct["user_hz"] = {"hz0": 0, "hzneg": -100, "hzstr": "100", "hzbig": 10**7,
                             "hzreal": 100.5}[how]
        elif how == "notobj":
            doc["cpu_time"] = 5
        elif how == "entryint":
            side[0] = 3
        elif how == "endextra":             # the end lists a CPU the start does not
            del a0[1]
        elif how == "nocpu":
            del e["cpu"]
        else:
            del e["steal"]
    else:
        how = CT_OK[p["v"] % len(CT_OK)]
        if how == "grow":
            a1[p["i"] % 2][key] += 1 + p["v"] % 500
        elif how in ("hz1", "hz1024"):
            ct["user_hz"] = 1 if how == "hz1" else 1024
        elif how == "unavail":
            doc["cpu_time"] = {"available": False, "reason": "fuzz"}
        elif how == "null":
            doc["cpu_time"] = None
        elif how == "del":
            del doc["cpu_time"]
        elif how == "endsub":               # a CPU offline by the end read
            del a1[1]
        elif how == "max":                  # 2^64 ns in USER_HZ (100) ticks
            for x in a0 + a1:
                x[key] = 1844674407370
        else:                               # not true: no cpu_time
            ct["available"] = "true"


def gen_snap_cases(kind, src, rng, n):
    out = []
    for cls, ops in SNAP_OPS.items():
        for i in range(n if cls in ("snapbad", "ctbad", "cpubad") else max(1, n // 3)):
            op = ops[i % len(ops)]
            p = {"op": op, "s": rng.randrange(2), "i": rng.randrange(90),
                 "k": rng.randrange(len(SNAP_FIELDS)), "v": rng.randrange(1 << 16)}
            if op == "val":
                p["all"] = int(rng.randrange(4) == 0)
            out.append({"kind": kind, "src": src, "cls": cls, "p": p})
    return out


# ------------------------------------------- options of the new surfaces ---
# class "combo" of kind "options": one to four of these options (valid and
# invalid values) on replay / whatif / validate, on a trace with syscall
# events (small-chan) and one without (small-pipe).

COMBO_OPTS = {
    "--resched-at": ["cost", "syscall-exit", "traced", "syscall", "", "COST", "syscall-exit,cost",
                     "syscall-exit "],
    "--early-wakes": ["sample", "nosample", "nocost", "sleep", "", "x"],
    "--channels": ["auto", "off", "strict", "", "on", "strict,auto"],
    "--channel-races": None,
    "--channel-wakes": None,
    "--oneway-no-wait": None,
    "--handoff": ["preempt", "skip", "yield", "sleep", "writeon", "writeon-pre", "", "write"],
    "--balance-attach": ["trace-order", "kernel-order", "", "kernel"],
    "--queued-moves": ["time", "wait", "position", "", "Position", "wait,position"],
    "--sched-feature": ["PLACE_LAG", "NO_PLACE_LAG", "NO_RUN_TO_PARITY", "START_DEBIT",
                        "NO_START_DEBIT", "NO_", "", "NO_NO_PLACE_LAG", "place_lag",
                        "x" * 5000, "NO_PLACE_LAG,NO_WAKEUP_PREEMPTION", "NI_RANDOM",
                        "NO_NI_RANDOM", "NEXT_BUDDY", "HRTICK"],
    "--profile": ["auto", "6.1", "6.5", "6.12", "6.18", "6.19", ""],
    "--placement": ["model", "trace"],
    "--stop-at-end": None,
    "--no-costs": None,
    "--preempt-costs": ["strict", "all", "", "none"],
    "--vcpu-pack-cut": ["idle", "flat", "", "IDLE", "none", "idle,flat"],
    "--newidle-ratio": ["0", "1", "64", "1024", "1025", "-1", "99999999999999999999", "x",
                        "512"],
}
COMBO_CMD = {
    "replay": {"--variant": ["vlag-vprot-union", "base", "aaron-skip", "vlag-vprot-union,base",
                             "", "VLAG-VPROT-UNION"],
               "--all-variants": None, "--json": None, "--settings": None},
    "whatif": {"--variant": ["vlag-vprot-union", "base", "aaron-skip", "",
                             "vlag-vprot-union,base,aaron-skip", "base,base"],
               "--all-variants": None, "--json": None,
               "--machine": ["one-socket", "two-socket", "TWO-SOCKET", "two-socket.json", "",
                             ".", "/", "/dev/null", "./", "one-socket,two-socket", "x" * 300,
                             "-", "one-socket "],
               "--seeds": ["1", "2", "0", "-1"]},
    "validate": {"--variant": ["vlag-vprot-union", "vlag-vprot-union,base", "base,base", ",",
                               "", "nosuch", "vlag-vprot-union,", "a" * 1000,
                               ",".join(["base"] * 100), "base,aaron-skip,vlag-vprot-union",
                               "VLAG-VPROT-UNION"],
                 "--json": None, "--markdown": None, "--suggest": None},
}


# variants file "feat" (source: FEAT_VARIANTS): two variants with
# sched_features, run under --profile auto (the trace's 6.18) and 6.1; class
# "feat" puts one odd toggle into a list (a feature of another kernel,
# NO_ alone, lower case, a 5000-byte name, a comma list, a newline) or
# makes the list long / self-contradicting.
FEAT_VARIANTS = {"variants": [
    {"name": "json-no-parity", "description": "RUN_TO_PARITY and PLACE_LAG off",
     "sched_features": ["NO_RUN_TO_PARITY", "NO_PLACE_LAG"]},
    {"name": "json-wakeup-preempt", "description": "WAKEUP_PREEMPTION on, as it is",
     "flags": ["SKIP_CG_DEQUEUE_ENTITY"], "sched_features": ["WAKEUP_PREEMPTION"]}]}
FEAT_ODD = ["NO_START_DEBIT", "START_DEBIT", "NO_", "", "no_place_lag", "NO_NO_PLACE_LAG",
            "x" * 5000, "PLACE_LAG\n", "NO_PLACE_LAG ", "HRTICK", "\u00e9", "NO_PLACE_LAG,NO_RUN_TO_PARITY",
            "NEXT_BUDDY", "NI_RANDOM", "NO_NI_RANDOM", "LAST_BUDDY", "GENTLE_FAIR_SLEEPERS"]
FEAT_LISTS = ["long", "contra", "empty", "null", "str", "nested"]


def mutate_feat(data, c):
    p = c["p"]
    doc = json.loads(data)
    v = doc["variants"][p["w"] % 2]
    if p["op"] == "odd":
        feats = v["sched_features"]
        feats[p["i"] % len(feats)] = FEAT_ODD[p["v"] % len(FEAT_ODD)]
    else:
        how = FEAT_LISTS[p["v"] % len(FEAT_LISTS)]
        v["sched_features"] = {"long": ["NO_PLACE_LAG", "PLACE_LAG"] * 5000,
                               "contra": ["PLACE_LAG", "NO_PLACE_LAG", "PLACE_LAG"],
                               "empty": [], "null": None, "str": "NO_PLACE_LAG",
                               "nested": [["NO_PLACE_LAG"]]}[how]
    return json.dumps(doc, indent=1).encode()


def gen_feat_cases(kind, src, rng, n):
    out = []
    for i in range(n):
        op = "odd" if i % 3 else "list"
        out.append({"kind": kind, "src": src, "cls": "feat",
                    "p": {"op": op, "w": rng.randrange(2), "i": rng.randrange(2),
                          "v": rng.randrange(1 << 16)}})
    return out


def gen_combo_cases(rng, n):
    out = []
    for _ in range(n):
        cmd = rng.choice(sorted(COMBO_CMD))
        table = dict(COMBO_OPTS)
        table.update(COMBO_CMD[cmd])
        names = sorted(table)
        if cmd == "validate" and rng.random() < 0.5:
            names = ["--variant"] + names
        k = 1 + rng.randrange(4)
        opts = []
        for o in rng.sample(names, k):
            if table[o] is None:
                opts.append(o)
            else:
                vi = rng.randrange(len(table[o]))
                opts.append(f"{o}#{vi}")
        trace = rng.choice(["small-chan", "small-chan", "small-pipe"])
        out.append({"kind": "options", "src": cmd, "cls": "combo",
                    "p": {"t": trace, "o": "+".join(opts)}})
    return out


def options_argv(c, table, slot):
    """Case @c's command and options (NAME or NAME#index into @table's
    values); for validate, --dir of its trace alone (its sidecar beside it)
    and one seed.  The caller appends the trace for the other commands."""
    argv = [c["src"]]
    for o in c["p"]["o"].split("+"):
        name, _, vi = o.partition("#")
        argv.append(name)
        if vi:
            argv.append(table[name][int(vi)].replace("{slot}", slot))
    if c["src"] == "validate":
        argv += ["--dir", os.path.join(slot, "vdir2" if c["p"]["t"] == "small-chan" else "vdir"),
                 "--seeds", "1"]
    return argv


def combo_argv(c, slot, inp):
    argv = options_argv(c, dict(COMBO_OPTS, **COMBO_CMD[c["src"]]), slot)
    if c["src"] != "validate":
        argv.append(inp.chan if c["p"]["t"] == "small-chan" else
                    inp.src[("v7zstd", "small-pipe")])
    return argv


# ------------------------------------------- the options of stop 37 ---
# class "recent" of kind "options" (inp38): one to three of the options added
# last (--handoff-signals, --exec-balance-at, --tick-preempt-at; valid and
# invalid values) with zero to three partners they interact with (the
# placement, the hand-off rule, the resched point, the traced ticks, a
# profile), on replay / whatif / validate, on the small traces and forkexec
# (3016 execs: the traced exec stopper moves).

RECENT_OPTS = {
    "--handoff-signals": None,
    # stop 38 (fuzz39): the reply samples' rule and the ksoftirqd WAKE ops
    "--handoff-replies": ["sample", "nosample", "nosample", "NOSAMPLE", ""],
    "--ksoftirqd-ops": None,
    # mostly valid values: the bad ones are the usage errors' (one line each)
    "--exec-balance-at": ["exec", "traced", "traced", "traced", "TRACED", "exec,traced"],
    "--tick-preempt-at": ["model", "traced", "traced", "traced", "", "tick"],
}
RECENT_PARTNERS = {
    "--placement": ["model", "model", "trace"],
    "--handoff": ["preempt", "skip", "yield", "sleep", "writeon", "writeon-pre"],
    "--resched-at": ["cost", "syscall-exit", "traced", "next-wake"],
    "--ticks": ["traced", "grid"],
    "--profile": ["6.1", "6.5", "6.12", "6.18"],
    "--sched-feature": ["NO_PLACE_LAG", "NO_RUN_TO_PARITY", "NO_WAKEUP_PREEMPTION"],
    "--channels": ["strict", "off"],
    "--no-costs": None,
    "--stop-at-end": None,
    "--no-repair": None,
    "--wake-clock": ["traced"],
    "--vcpu-pack-cut": ["flat"],
    "--newidle-ratio": ["0", "1024"],
}
RECENT_CMD = {"replay": {"--json": None, "--all-variants": None,
                         # {slot}: the case's slot (options_argv()); the dump
                         # is checked after the run (dump_check())
                         "--dump-samples": ["{slot}/samples.tsv", "{slot}/samples.tsv",
                                            "{slot}/samples.tsv", "/dev/full",
                                            "/nonexistent/x", "{slot}", ""],
                         "--dump-events": ["{slot}/events.txt", "{slot}/./samples.tsv"]},
              "whatif": {"--variant": ["aaron-skip"], "--json": None},
              "validate": {"--json": None}}
RECENT_TRACES = ["small-chan", "small-pipe", "small-hackbench", "forkexec"]


def gen_recent_cases(rng, n):
    out = []
    for _ in range(n):
        cmd = rng.choice(["replay", "replay", "replay", "whatif", "validate"])
        opts = []
        for table, k in ((RECENT_OPTS, 1 + rng.randrange(3)),
                         (dict(RECENT_PARTNERS, **RECENT_CMD[cmd]), rng.randrange(4))):
            for o in rng.sample(sorted(table), k):
                opts.append(o if table[o] is None else f"{o}#{rng.randrange(len(table[o]))}")
        # --exec-balance-at traced is --placement model's (else a usage
        # error, the same line every time): mostly with it
        if any(o.startswith("--exec-balance-at#") for o in opts) and \
                not any(o.startswith("--placement") for o in opts) and rng.random() < 0.8:
            opts.append("--placement#0")
        # --dump-samples (fuzz39): in two replays of five, its file checked
        # (dump_check()), with --dump-events into the same file in some
        if cmd == "replay" and not any(o.startswith("--dump-samples") for o in opts) and \
                rng.random() < 0.4:
            opts.append(f"--dump-samples#{rng.randrange(7)}")
            if rng.random() < 0.3:
                opts.append("--dump-events#1")
        trace = rng.choice(RECENT_TRACES)
        out.append({"kind": "options", "src": cmd, "cls": "recent",
                    "p": {"t": trace, "o": "+".join(opts)}})
    return out


def recent_argv(c, slot, inp):
    argv = options_argv(c, dict(RECENT_OPTS, **RECENT_PARTNERS, **RECENT_CMD[c["src"]]), slot)
    if c["src"] != "validate":
        argv.append(os.path.join(inp.traces, c["p"]["t"] + ".dat"))
    return argv


# a --dump-samples run's file: an unwritable one (/dev/full, a directory, a
# missing directory) is an error, never exit 0; one written at exit 0 is the
# header and rows of its 14 tab-separated fields (another output into the
# same file, --dump-events under another name, mixed lines into it)
DUMP_BAD = ("/dev/full", "/nonexistent/x")
SAMPLE_FIELDS = 14


def dump_check(argv, slot, rc, outcome):
    if "--dump-samples" not in argv or rc != 0 or outcome.startswith("BUG"):
        return outcome
    v = argv[argv.index("--dump-samples") + 1]
    if v in DUMP_BAD or v in ("", slot):
        return "BUG-dump"
    try:
        with open(v, "rb") as fh:
            lines = fh.read().split(b"\n")
    except OSError:
        return "BUG-dump"
    if lines[-1] != b"" or not lines[0].startswith(b"# side\t"):
        return "BUG-dump"
    if any(ln.count(b"\t") != SAMPLE_FIELDS - 1 for ln in lines[:-1]):
        return "BUG-dump"
    return outcome


# the recent options on every trace input: the model's placement with the
# exec balancing at the kernel's point, the traced tick preemptions and the
# hand-off signals, over the mutated trace
RECENT_REPLAY = ["replay", "--placement", "model", "--exec-balance-at", "traced",
                 # stop 38's (fuzz39)
                 "--ksoftirqd-ops", "--handoff-replies", "nosample",
                 "--tick-preempt-at", "traced", "--handoff-signals"]


# ----------------------------------------------------------------- inputs --


class Inputs:
    """The sources of every kind; conversions made in WORK when first used."""

    def __init__(self, traces, work, repo, conv=None):
        self.traces, self.work, self.repo = traces, work, repo
        self.src = {}      # (kind, name) -> path (made on first use: see self.make)
        self.make = {}     # (kind, name) -> function that writes the path
        self.slot_name = {}  # (kind, name) -> mutated copy's name, if not the source's
        os.makedirs(work, exist_ok=True)
        have_tc = shutil.which("trace-cmd") is not None
        for name in ("small-pipe", "small-hackbench"):
            t = os.path.join(traces, name + ".dat")
            if not os.path.exists(t):
                continue
            self.src[("v7zstd", name)] = t
            if not have_tc:
                continue
            # --conv: tests/reader/convert.sh's directory, made once per
            # ctest run (the same `trace-cmd convert` and `report` commands,
            # so the same bytes, and the text's same first 3000 records):
            # its files are used, not made again in WORK
            for kind, args, cname in (("v6", ["--file-version", "6"], "v6"),
                                      ("v7none", ["--file-version", "7", "--compression",
                                                  "none"], "v7-none")):
                made = conv and os.path.join(conv, f"{name}-{cname}.dat")
                if made and os.path.exists(made):
                    self.src[(kind, name)] = made
                    self.slot_name[(kind, name)] = f"{name}-{kind}.dat"
                    continue
                out = os.path.join(work, f"{name}-{kind}.dat")
                self.src[(kind, name)] = out
                self.make[(kind, name)] = lambda t=t, out=out, args=args: convert(t, out, args)
            for kind, flag in (("text", "-N"), ("raw", "-R")):
                made = conv and os.path.join(conv, f"{name}-{kind}-head.txt")
                if made and os.path.exists(made):
                    self.src[("text", f"{name}-{kind}")] = made
                    continue
                out = os.path.join(work, f"{name}-{kind}.txt")
                self.src[("text", f"{name}-{kind}")] = out
                self.make[("text", f"{name}-{kind}")] = \
                    lambda t=t, out=out, flag=flag: report_text(t, out, flag)
        # kind v7exec (inp38; only when --kinds names it): forkexec's execs
        fe = os.path.join(traces, "forkexec.dat")
        if os.path.exists(fe):
            self.src[("v7exec", "forkexec")] = fe
        hog = os.path.join(traces, "hog-timer.dat")
        if os.path.exists(hog):
            self.src[("v6", "hog-timer")] = hog
            if os.path.exists(hog + ".json"):
                self.src[("sidecar", "hog-timer")] = hog + ".json"
        v = os.path.join(repo, "tests", "variants", "data", "good.json")
        if os.path.exists(v):
            self.src[("variants", "good")] = v
        th = os.path.join(traces, "thresholds.json")
        if os.path.exists(th):
            self.src[("thresh", "thresholds")] = th
        # syscall events (small-chan.dat: v6, uncompressed) and a sidecar
        # with function counts: kinds sysc and funcs, and the option combos
        chan = os.path.join(traces, "small-chan.dat")
        self.chan = chan if os.path.exists(chan) else None
        if self.chan:
            self.src[("sysc", "small-chan")] = chan
            if have_tc:
                for kind, flag in (("text", "-N"), ("raw", "-R")):
                    out = os.path.join(work, f"small-chan-{kind}.txt")
                    self.src[("systext", f"small-chan-{kind}")] = out
                    self.make[("systext", f"small-chan-{kind}")] = \
                        lambda out=out, flag=flag: report_text(chan, out, flag, None)
            out = os.path.join(work, "feat.json")
            self.src[("variants", "feat")] = out
            self.make[("variants", "feat")] = lambda out=out: \
                write_new(out, json.dumps(FEAT_VARIANTS, indent=1).encode())
            if os.path.exists(chan + ".json"):
                out = os.path.join(work, "small-chan-funcs.dat.json")
                self.src[("funcs", "small-chan")] = out
                self.make[("funcs", "small-chan")] = lambda out=out, sc=chan + ".json": \
                    write_new(out, funcs_base(open(sc, "rb").read()))
        # kind snap (fuzz41): pelt-mix's sidecar snapshots; pelt-root's for class snapother
        pm = os.path.join(traces, "pelt-mix.dat")
        pr = os.path.join(traces, "pelt-root.dat.json")
        if os.path.exists(pm) and os.path.exists(pm + ".json") and os.path.exists(pr):
            self.src[("snap", "pelt-mix")] = pm + ".json"
            self.snap_trace = pm
            self.src[("snapother", "pelt-root")] = pr
        self.layouts = {}
        self.data = {}
        self.machine_json = None
        # the jobs' threads share the sources: `run` makes each one while
        # generating its cases, but `rerun` (and `case`) only when a job first
        # reads it, and two jobs both converted small-pipe-v6.dat into the
        # same .tmp (the second's rename failed: FileNotFoundError ended the
        # run) or read cgroup.map while the other was writing it (empty)
        self.lock = threading.RLock()
        # --cgroup-map: two tasks of small-pipe in two groups with their shares
        self.src[("cgmap", "map")] = os.path.join(work, "cgroup.map")
        self.make[("cgmap", "map")] = lambda out=self.src[("cgmap", "map")]: write_new(
            out, b"# pid cgroup\n22001 /srfix/a\n22002 /srfix/b\n"
                 b"shares /srfix/a 2048\nshares /srfix/b 512\n")

    def data_of(self, kind, name):
        with self.lock:
            return self._data_of(kind, name)

    def _data_of(self, kind, name):
        k = (kind, name)
        if k not in self.data:
            if kind == "machine":
                self.data[k] = self.machine_json
            else:
                path = self.src[k]
                if k in self.make and not os.path.exists(path):
                    self.make[k]()
                with open(path, "rb") as fh:
                    self.data[k] = fh.read()
        return self.data[k]

    def layout(self, kind, name):
        k = (kind, name)
        with self.lock:
            if k not in self.layouts:
                self.layouts[k] = parse_layout(self.data_of(kind, name))
            return self.layouts[k]


def tmp_name(out):
    """out's scratch name, this process's own: two runs sharing one --work
    must not write one .tmp"""
    return f"{out}.tmp{os.getpid()}"


def convert(trace, out, args):
    tmp = tmp_name(out)
    subprocess.run(["trace-cmd", "convert", "-i", trace, "-o", tmp, *args],
                   capture_output=True, check=True)
    os.rename(tmp, out)


def report_text(trace, out, flag, lines=3000):
    """`trace-cmd report FLAG -t`: the header and the first 3000 records
    (the same grammar as the whole, 10x faster to read); lines None: all."""
    txt = subprocess.run(["trace-cmd", "report", flag, "-t", "-i", trace],
                         capture_output=True, check=True).stdout
    with open(tmp_name(out), "wb") as fh:
        fh.write(b"\n".join(txt.split(b"\n")[:lines + 1 if lines else None]).rstrip(b"\n") +
                 b"\n")
    os.rename(tmp_name(out), out)


# smoke: one source per kind (the fast ones)
SMOKE_SOURCES = {("v7zstd", "small-pipe"), ("v7none", "small-pipe"), ("v6", "small-hackbench"),
                 ("text", "small-hackbench-text"), ("sidecar", "hog-timer"), ("cgmap", "map"),
                 ("variants", "good"), ("thresh", "thresholds")}


SMOKE_NEW_SOURCES = {("sysc", "small-chan"), ("funcs", "small-chan"), ("variants", "feat")}


def gen_cases(inp, seed, n, kinds=None, classes=None, sources=None):
    rng = random.Random(seed)
    cases = []
    for (kind, name) in sorted(inp.src):
        if kinds and kind not in kinds:
            continue
        if sources and (kind, name) not in sources:
            continue
        if kind in ("snap", "snapother"):      # fuzz41's, generated last
            continue
        # (a campaign without --kinds v7exec keeps its cases)
        if kind == "v7exec" and not (kinds and kind in kinds):
            continue
        r = random.Random(f"{seed}/{kind}/{name}")
        if kind == "sysc":
            cases += gen_sys_cases(kind, name, inp.layout(kind, name), r, n)
        elif kind == "funcs":
            cases += gen_funcs_cases(kind, name, r, n // 2)
        elif kind == "systext":
            cases += gen_systext_cases(kind, name, inp.data_of(kind, name), r, n // 2)
        elif kind == "variants" and name == "feat":
            cases += gen_json_cases(kind, name, inp.data_of(kind, name), r, n // 4)
            cases += gen_feat_cases(kind, name, r, n // 4)
        elif kind in ("v7zstd", "v7none", "v6", "v7exec"):
            # the big captures: fewer cases (each replay costs ~10x a fixture's)
            k = n // 3 if name in ("hog-timer", "forkexec") else n
            cases += gen_binary_cases(kind, name, inp.layout(kind, name), r, k)
        elif kind == "text":
            cases += gen_text_cases(kind, name, inp.data_of(kind, name), r, n // 2)
        elif kind == "cgmap":
            cases += gen_text_cases(kind, name, inp.data_of(kind, name), r, n // 4)
        elif kind == "thresh":
            # validate runs small-pipe.dat only: the other traces' entries are unread
            cases += gen_json_cases(kind, name, inp.data_of(kind, name), r, n // 2,
                                    lambda q: q[0] != "traces" or len(q) == 1 or
                                    q[1] == "small-pipe.dat")
        else:
            cases += gen_json_cases(kind, name, inp.data_of(kind, name), r, n // 2)
    if getattr(inp, "machine_json", None) and (not kinds or "machine" in kinds):
        r = random.Random(f"{seed}/machine")
        inp.src[("machine", "one-socket")] = None
        cases += gen_json_cases("machine", "one-socket", inp.machine_json, r, n // 4)
    if not kinds or "options" in kinds:
        cases += gen_option_cases(random.Random(f"{seed}/options"), n // 2)
    if classes:
        cases = [c for c in cases if c["cls"] in classes]
    # evfield (added 3 Dec 2026) after the shuffle: the other cases keep
    # their order (and the smoke its subset)
    evfield = [c for c in cases if c["cls"] == "evfield"]
    cases = [c for c in cases if c["cls"] != "evfield"]
    rng.shuffle(cases)
    cases += evfield
    if (not kinds or "options" in kinds) and inp.chan:
        # after the shuffle: the other cases' order stays that of before
        combo = gen_combo_cases(random.Random(f"{seed}/combo"), n // 2)
        cases += [c for c in combo if not classes or c["cls"] in classes]
    # fuzz37's classes, last: the cases before keep their order (and the
    # smoke its subset)
    new = []
    for (kind, name) in sorted(inp.src):
        if kind == "text" and (not kinds or "text" in kinds) and \
                (not sources or (kind, name) in sources):
            new += gen_comm_cases(kind, name, random.Random(f"{seed}/comm/{name}"), n // 2)
    if (not kinds or "vdir" in kinds) and ("v7zstd", "small-pipe") in inp.src:
        new += gen_vdir_cases(random.Random(f"{seed}/vdir"), n)
    if not kinds or "options" in kinds:
        new += gen_limit_cases(random.Random(f"{seed}/limit"), n // 2)
    cases += [c for c in new if not classes or c["cls"] in classes]
    # inp38's class, last of all: the cases before keep their order
    if not kinds or "options" in kinds:
        cases += [c for c in gen_recent_cases(random.Random(f"{seed}/recent"), n // 2)
                  if not classes or c["cls"] in classes]
    # fuzz40's classes, after inp38's: every op on every v6 source (opt) and
    # every header value on every text source (hdr); no random draw
    new = []
    for (kind, name) in sorted(inp.src):
        if (kinds and kind not in kinds) or (sources and (kind, name) not in sources):
            continue
        if kind == "v6":
            new += [{"kind": kind, "src": name, "cls": "opt", "p": {"op": op}} for op in OPT_OPS]
        elif kind == "text":
            new += [{"kind": kind, "src": name, "cls": "hdr", "p": {"v": i}}
                    for i in range(len(HDR_CPUS))]
    cases += [c for c in new if not classes or c["cls"] in classes]
    # fuzz41's kind, last of all: the cases before keep their order
    if ("snap", "pelt-mix") in inp.src and (not kinds or "snap" in kinds) and \
            (not sources or ("snap", "pelt-mix") in sources):
        cases += [c for c in gen_snap_cases("snap", "pelt-mix",
                                            random.Random(f"{seed}/snap"), n // 2)
                  if not classes or c["cls"] in classes]
    return cases


# --------------------------------------------------------------- running ---


# fuzz37's classes: after the others in gen_cases(), apart in the smoke
FUZZ37_CLASSES = ("comm", "vdir", "limit")
# fuzz40's: every case corrupted data a reader must refuse, so exit 0 is a
# BUG whatever the output (an option or header read as another value, or
# ignored, left it unchanged: "ok" before)
MUST_FAIL_CLASSES = ("opt", "hdr", "snapbad", "ctbad", "cpubad")


# the slow commands the smoke runs for one case in four
LIGHT_SKIP = ("whatif", "replay-model", "validate", "whatif-svg", "replay-recent")


def commands_for(c, path, inp, slot, light=False):
    """[(label, argv, file named in an error)] for case c with its input at path.

    light (smoke): whatif, the slowest, for one case in four only."""
    cmds = commands_for_all(c, path, inp, slot)
    if light:
        # the smoke's runtime: the SVG run in full campaigns only
        cmds = [x for x in cmds if x[0] != "whatif-svg"]
    if light and len(cmds) > 1 and \
            int(hashlib.md5(case_id(c).encode()).hexdigest(), 16) % 4:
        cmds = [x for x in cmds if x[0] not in LIGHT_SKIP] or cmds[:1]
    return cmds


def commands_for_all(c, path, inp, slot):
    kind = c["kind"]
    fix = inp.src.get(("v7zstd", "small-pipe"))
    if kind in ("v7zstd", "v7none", "v6", "text", "v7exec"):
        cmds = [("report", ["report", path], path), ("replay", ["replay", path], path),
                ("whatif", ["whatif", "--all-variants", path], path),
                # the model's placement: sched_exec(), find_idlest_cpu(), the
                # packing's flat cut and a newidle ratio other than sd_init()'s
                ("replay-model", ["replay", "--placement", "model", "--vcpu-pack-cut", "flat",
                                  "--newidle-ratio", "64", path], path),
                # the SVG plot (fuzz37): its file must be well-formed XML, no
                # nan/inf coordinates (svg_check())
                ("whatif-svg", ["whatif", "--variant", "aaron-skip", "--svg",
                                os.path.join(slot, "plot.svg"), path], path),
                # the options of stop 37 (inp38) and 38: RECENT_REPLAY, with
                # --dump-samples (fuzz39; dump_check())
                ("replay-recent", RECENT_REPLAY + ["--dump-samples",
                                                   os.path.join(slot, "samples.tsv"), path],
                 path)]
        if kind == "v7exec":
            # forkexec (3016 execs): the exec balancing's paths; whatif's
            # and validate's runs cost ~10x a fixture's
            cmds = [x for x in cmds if x[0] in ("report", "replay-model", "replay-recent")]
        if c["cls"] == "comm":
            # every group and comm shown: of equal ones the top N are taken
            # in name order, which the renaming changes
            cmds = [(lab, argv[:1] + ["--top", "0"] + argv[1:], named) if
                    lab in ("report", "whatif", "whatif-svg") else (lab, argv, named)
                    for lab, argv, named in cmds]
        if c["src"] == "small-pipe" and kind != "text":
            # validate on a directory whose trace is the mutated one
            vd = validate_mut_dir(slot, path)
            cmds.append(("validate", ["validate", "--dir", vd, "--seeds", "1"],
                         os.path.join(vd, "small-pipe.dat")))
        # the libtracecmd backend behind the same validation, on damaged data
        # (libtraceevent itself crashes on some damaged format texts: not ours)
        if kind != "text" and c["cls"] in ("trunc", "page", "payload", "chunk", "cpuid",
                                            "evfield"):
            cmds.append(("report-ltc", ["report", "--reader", "libtracecmd", path], path))
        return cmds
    if kind == "sysc":
        return [("report", ["report", path], path), ("replay", ["replay", path], path),
                ("replay-recent", RECENT_REPLAY + [path], path),
                ("replay-sysexit", ["replay", "--resched-at", "syscall-exit", "--json", path],
                 path),
                ("replay-chan", ["replay", "--channels", "strict", "--channel-races", path], path),
                ("whatif", ["whatif", "--channels", "auto", "--resched-at", "syscall-exit",
                            "--variant", "vlag-vprot-union", path], path)]
    if kind == "systext":
        return [("report", ["report", path], path), ("replay", ["replay", path], path),
                ("replay-sysexit", ["replay", "--resched-at", "syscall-exit", path], path),
                ("replay-chan", ["replay", "--channels", "strict", "--channel-races", path],
                 path)]
    if kind == "funcs":
        trace = os.path.join(slot, "fc", "small-chan.dat")
        return [("replay", ["replay", trace], path),
                ("replay-json", ["replay", "--json", "--variant", "vlag-vprot-union", trace],
                 path),
                ("whatif", ["whatif", "--variant", "aaron-skip", trace], path),
                ("report", ["report", trace], path)]
    if kind == "snap":
        trace = os.path.join(slot, "sn", "pelt-mix.dat")
        cmds = [("replay", ["replay", trace], path),
                ("replay-json", ["replay", "--json", trace], path),
                ("replay-guess", ["replay", "--initial-pelt", "guess", trace], path),
                ("report", ["report", trace], path)]
        if c["cls"] in ("ctbad", "ctok", "cpubad", "cpuok"):
            # fuzz42: the readers of cpu_time and the snapshots' cpu
            cmds.append(("replay-traced", ["replay", "--clock-task", "traced", "--initial-pelt",
                                           "attached", trace], path))
        return cmds
    if kind == "sidecar":
        trace = os.path.join(slot, "sc", "hog-timer.dat")
        return [("report", ["report", "--by", "cgroup", trace], path),
                ("replay", ["replay", trace], path),
                ("whatif", ["whatif", "--all-variants", trace], path)]
    if kind == "variants" and c["src"] == "feat":
        return [("replay", ["replay", "--variants-file", path, "--all-variants", "--profile",
                            "auto", inp.chan], path),
                ("whatif", ["whatif", "--variants-file", path, "--profile", "auto", inp.chan],
                 path),
                ("replay-6.1", ["replay", "--variants-file", path, "--variant",
                                "json-wakeup-preempt", "--profile", "6.1", fix], path)]
    if kind == "variants":
        return [("replay", ["replay", "--variants-file", path, "--all-variants", fix], path),
                ("whatif", ["whatif", "--variants-file", path, fix], path)]
    if kind == "thresh":
        return [("validate", ["validate", "--dir", os.path.join(slot, "vdir"), "--thresholds",
                              path, "--seeds", "1"], path)]
    if kind == "machine":
        return [("whatif", ["whatif", "--machine", path, "--variant", "aaron-skip", fix], path)]
    if kind == "cgmap":
        return [("replay", ["replay", "--cgroup-map", path, fix], path),
                ("whatif", ["whatif", "--cgroup-map", path, "--variant", "aaron-skip", fix],
                 path)]
    if kind == "vdir":
        made = make_vdir(slot, inp, c["p"]["op"])
        if not made:
            return []
        d, named = made
        return [("validate", ["validate", "--dir", d, "--seeds", "1"], named)]
    if kind == "options" and c["cls"] == "combo":
        return [(c["src"], combo_argv(c, slot, inp), None)]
    if kind == "options" and c["cls"] == "recent":
        return [(c["src"], recent_argv(c, slot, inp), None)]
    if kind == "options":
        cmd = c["src"]
        o = c["p"]["o"]
        if c["cls"] == "missing":
            argv = [cmd, fix, o] if cmd != "validate" else [cmd, o]
        elif c["cls"] == "limit":
            v = str(c["p"]["v"])
            argv = [cmd, o, v, fix] if cmd != "validate" else \
                [cmd, "--dir", os.path.join(slot, "vdir"), "--seeds", "1", o, v]
            if cmd == "validate" and o == "--seeds":
                argv = [cmd, "--dir", os.path.join(slot, "vdir"), o, v]
            if cmd == "report" and o == "--pid" and v in ("1", "15", "16", "64"):
                argv = [cmd, o, "22002", "--top", v, fix]
        else:
            v = "" if c["p"]["v"] == "EMPTY" else c["p"]["v"]
            argv = [cmd, o, v, fix] if cmd != "validate" else \
                [cmd, "--dir", os.path.join(slot, "vdir"), "--seeds", "1", o, v]
        return [(cmd, argv, None)]
    raise ValueError(kind)


def validate_mut_dir(slot, path):
    """slot/vdirm: small-pipe.dat -> path (the mutated copy) and the thresholds."""
    d = os.path.join(slot, "vdirm")
    os.makedirs(d, exist_ok=True)
    link = os.path.join(d, "small-pipe.dat")
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.path.abspath(path), link)
    th = os.path.join(slot, "vdir", "thresholds.json")
    if os.path.lexists(th) and not os.path.lexists(os.path.join(d, "thresholds.json")):
        os.symlink(os.path.realpath(th), os.path.join(d, "thresholds.json"))
    return d


def input_path(c, slot, inp):
    kind, name = c["kind"], c["src"]
    if kind in ("v7zstd", "v7none", "v6", "v7exec"):
        return os.path.join(slot, inp.slot_name.get((kind, name),
                                                    os.path.basename(inp.src[(kind, name)])))
    if kind in ("text", "systext"):
        return os.path.join(slot, name + ".txt")
    if kind == "sidecar":
        return os.path.join(slot, "sc", "hog-timer.dat.json")
    if kind == "snap":
        return os.path.join(slot, "sn", "pelt-mix.dat.json")
    if kind == "sysc":
        return os.path.join(slot, "small-chan.dat")
    if kind == "funcs":
        return os.path.join(slot, "fc", "small-chan.dat.json")
    if kind in ("variants", "thresh", "machine"):
        return os.path.join(slot, f"{name}.json")
    if kind == "cgmap":
        return os.path.join(slot, "cgroup.map")
    return None


def write_new(path, data):
    """Write a fresh file: never through a link to a committed trace."""
    if os.path.lexists(path):
        os.unlink(path)
    with open(path, "xb") as fh:
        fh.write(data)


def make_input(c, inp):
    kind, name = c["kind"], c["src"]
    if kind in ("options", "vdir"):
        return b""
    data = inp.data_of(kind, name)
    if c["cls"] == "comm":
        return mutate_comm(data, c)
    if kind in ("v7zstd", "v7none", "v6", "v7exec"):
        return mutate_binary(data, inp.layout(kind, name), c)
    if c["cls"] == "hdr":
        return mutate_hdr(data, c)
    if kind in ("text", "cgmap"):
        return mutate_text(data, c)
    if kind == "sysc":
        return mutate_sys(bytearray(data), inp.layout(kind, name), c)
    if kind == "funcs":
        return mutate_funcs(data, c)
    if kind == "snap":
        return mutate_snap(data, c, inp)
    if kind == "systext":
        return mutate_systext(data, c)
    if c["cls"] == "feat":
        return mutate_feat(data, c)
    return mutate_json(data, c)


def prepare_slot(slot, inp):
    os.makedirs(os.path.join(slot, "sc"), exist_ok=True)
    hog = inp.src.get(("v6", "hog-timer"))
    link = os.path.join(slot, "sc", "hog-timer.dat")
    if hog and not os.path.lexists(link):
        os.symlink(os.path.abspath(hog), link)
    if getattr(inp, "snap_trace", None):
        os.makedirs(os.path.join(slot, "sn"), exist_ok=True)
        link = os.path.join(slot, "sn", "pelt-mix.dat")
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(inp.snap_trace), link)
    vdir = os.path.join(slot, "vdir")
    os.makedirs(vdir, exist_ok=True)
    fix = inp.src.get(("v7zstd", "small-pipe"))
    if fix and not os.path.lexists(os.path.join(vdir, "small-pipe.dat")):
        os.symlink(os.path.abspath(fix), os.path.join(vdir, "small-pipe.dat"))
    th = inp.src.get(("thresh", "thresholds"))
    if th and not os.path.lexists(os.path.join(vdir, "thresholds.json")):
        os.symlink(os.path.abspath(th), os.path.join(vdir, "thresholds.json"))
    if inp.chan:
        # the syscall trace: its sidecar beside the sysc kind's copy, a link
        # beside the funcs kind's sidecar, a validate dir of its own
        os.makedirs(os.path.join(slot, "fc"), exist_ok=True)
        vdir2 = os.path.join(slot, "vdir2")
        os.makedirs(vdir2, exist_ok=True)
        for d, name, target in ((slot, "small-chan.dat.json", inp.chan + ".json"),
                                (os.path.join(slot, "fc"), "small-chan.dat", inp.chan),
                                (vdir2, "small-chan.dat", inp.chan),
                                (vdir2, "small-chan.dat.json", inp.chan + ".json"),
                                (vdir2, "thresholds.json", th)):
            if target and os.path.exists(target) and \
                    not os.path.lexists(os.path.join(d, name)):
                os.symlink(os.path.abspath(target), os.path.join(d, name))


# Third-party leaks not counted (libtracecmd's own, libtraceevent's on broken
# format texts): the suppressions every reader test uses, one file for all.
# Our own leaks still are.
LSAN_SUPP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lsan-libtracecmd.supp")


def run_limited(sr, argv, cwd, env, limit):
    try:
        p = subprocess.run(["timeout", "-s", "KILL", str(limit), sr, *argv], cwd=cwd,
                           capture_output=True, env=env)
    except OSError as e:
        sys.exit(f"cannot run {sr}: {e}")
    if p.returncode in (126, 127) and b"timeout:" in p.stderr:
        sys.exit(f"cannot run {sr}: {p.stderr.decode(errors='replace').strip()}")
    return p.returncode, p.stdout, p.stderr


def run_one(sr, argv, cwd):
    """One run; a run killed at TIMEOUT is run again with HANG_FACTOR times
    that: a hang never ends, a run slowed by a loaded machine (a CI-like run
    next to other builds: eight ASan runs over 40 s, each done in 6-12 s
    alone) does, and is classified by what it printed then."""
    env = dict(os.environ)
    env.update(SAN_ENV)
    env["LSAN_OPTIONS"] = f"suppressions={LSAN_SUPP}:print_suppressions=0"
    t0 = time.time()
    rc, out, err = run_limited(sr, argv, cwd, env, TIMEOUT)
    if rc in (137, 124, -9):
        rc, out, err = run_limited(sr, argv, cwd, env, TIMEOUT * HANG_FACTOR)
    return rc, out, err, time.time() - t0


SAN_RE = re.compile(rb"ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer|"
                    rb"SUMMARY: (Address|Undefined|Leak)Sanitizer")
INSANE_RE = re.compile(rb"\b-?nan\b|\b-?inf\b|18446744073709|9223372036854|\(null\)", re.I)
LOST_RE = re.compile(rb"events lost")
# how replay / whatif / report say on stdout that events were lost
LOST_OUT_RE = re.compile(rb"[1-9][0-9]* lost\b|gaps? of lost|lost: +>?=? *[1-9]|"
                         rb"\"lost_events\": [1-9]")
CORRUPT_WORD = re.compile(rb"corrupt|truncated|error", re.I)


# what differs from run to run of the same input: wall times
VOLATILE_RE = re.compile(rb"events in [0-9.]+ s|[0-9.]+ s wall, [0-9.]+ M trace events/s")


def normalize(out):
    return VOLATILE_RE.sub(b"#", out)


def classify(c, label, rc, out, err, base, named):
    """Outcome of one run: ok, ok-changed, error, usage, lost, or BUG-*."""
    if SAN_RE.search(err):
        return "BUG-sanitizer"
    if rc in (137, 124, -9):
        return "BUG-timeout"
    if rc < 0 or rc > 128:
        return "BUG-signal"
    lines = [ln for ln in err.split(b"\n") if ln.strip()]
    if rc == 0 and c["cls"] in MUST_FAIL_CLASSES:
        return "BUG-accepted"
    if rc == 0:
        # validate: 0 = within thresholds
        if label != "validate" and not out.strip():
            return "BUG-nooutput"
        if INSANE_RE.search(out) and not INSANE_RE.search(base[1] if base else b""):
            return "BUG-insane"
        bout = base[1] if base else b""
        warned = any(b"warning" in ln for ln in lines) or \
            (LOST_OUT_RE.search(out) and not LOST_OUT_RE.search(bout))
        if any(CORRUPT_WORD.search(ln) and b"warning" not in ln for ln in lines):
            return "BUG-exit0-corrupt"
        if base is None or normalize(out) == normalize(bout):
            return "ok"
        if warned or not detectable(c):
            return "ok-changed"
        return "BUG-silent"
    # non-zero exit
    if rc not in (1, 2):
        return "BUG-exitcode"
    if label == "validate" and rc == 1 and out.strip() and \
            all(b"warning" in ln for ln in lines):
        # a trace validate could not read: its FAIL line on stdout names it
        if named is not None and re.search(rb"FAIL: \S*" +
                                           re.escape(os.path.basename(named).encode()) + rb":",
                                           out):
            return "error"
        return "ok"     # thresholds exceeded: a result, not an error
    if lines and all(LOST_RE.search(ln) or b"warning" in ln for ln in lines) and \
            LOST_RE.search(lines[-1]):
        return "lost"
    if len(lines) != 1:
        return "BUG-multiline" if lines else "BUG-silent-fail"
    if named is not None and os.path.basename(named).encode() not in lines[0] and \
            not (rc == 2 and b"unknown variant '" in lines[0]):
        # (a variants file without the variant the command line names: that
        # name is the usage error, the file's variants listed as known)
        return "BUG-noname"
    return "error"


def svg_check(path):
    """None if path is a well-formed SVG without nan/inf, else a BUG outcome."""
    import xml.etree.ElementTree as ET
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        root = ET.fromstring(data)
    except (OSError, ET.ParseError):
        return "BUG-svg"
    if not root.tag.endswith("svg") or INSANE_RE.search(data):
        return "BUG-svg"
    return None


class Runner:
    def __init__(self, sr, inp, work, jobs, light=False):
        self.sr, self.inp, self.work, self.jobs = sr, inp, work, jobs
        self.light = light
        self.base = {}

    def baseline(self, c, slot, label):
        """Output of command label on the unmutated input in the same place
        (same path names); computed on first use."""
        key = (c["kind"], c["src"])
        if c["kind"] in ("options", "vdir"):
            return None
        # a comm case's commands show every comm (--top 0): baselines of their own
        bk = (slot, key, label, c["cls"] == "comm")
        if bk not in self.base:
            path = input_path(c, slot, self.inp)
            write_new(path, self.inp.data_of(*key))
            for lab, argv, _ in commands_for_all(c, path, self.inp, slot):
                if lab == label:
                    rc, out, err, _ = run_one(self.sr, argv, slot)
                    self.base[bk] = (rc, out, err)
        return self.base.get(bk)

    def run_case(self, c, slot, keep=False):
        prepare_slot(slot, self.inp)
        try:
            data = make_input(c, self.inp)
        except (ValueError, IndexError, struct.error, subprocess.CalledProcessError,
                json.JSONDecodeError, KeyError, TypeError):
            data = None
        if data is None:
            return []
        path = input_path(c, slot, self.inp)
        results = []
        svg = os.path.join(slot, "plot.svg")
        for label, argv, named in commands_for(c, path, self.inp, slot, self.light):
            b = self.baseline(c, slot, label)
            for f in ("samples.tsv", "events.txt"):
                if (c["cls"] == "recent" or label == "replay-recent") and \
                        os.path.lexists(os.path.join(slot, f)):
                    os.unlink(os.path.join(slot, f))
            if path:
                write_new(path, data)
            if os.path.lexists(svg):
                os.unlink(svg)
            rc, out, err, dt = run_one(self.sr, argv, slot)
            outcome = classify(c, label, rc, out, err, b, named)
            if c["cls"] == "recent" or label == "replay-recent":
                outcome = dump_check(argv, slot, rc, outcome)
            if rc == 0 and label == "whatif-svg" and not outcome.startswith("BUG"):
                outcome = svg_check(svg) or outcome
            if c["cls"] == "comm" and outcome in ("ok", "ok-changed") and b:
                pair = comm_pair(self.inp.data_of(c["kind"], c["src"]), c)
                outcome = "ok" if comm_unmap(out, pair) == comm_unmap(b[1], pair) else \
                    "BUG-silent"
            results.append({"id": case_id(c), "cmd": label, "kind": c["kind"], "cls": c["cls"],
                            "outcome": outcome, "rc": rc, "secs": round(dt, 3),
                            "stderr": err.decode("latin-1")[-2000:]})
            if label == "validate":
                # a trace it could not read: its FAIL line is on stdout
                results[-1]["fail"] = "\n".join(
                    ln for ln in out.decode("latin-1").split("\n") if "FAIL: " in ln)[-2000:]
        if keep and path:
            print("mutated input:", path)
        return results

    def run(self, cases, results_file=None, progress=True):
        slots = [os.path.join(self.work, f"slot{i}") for i in range(self.jobs)]
        # baselines first, sequentially per slot (same path names in every slot)
        for s in slots:
            prepare_slot(s, self.inp)
        all_res = []
        t0 = time.time()
        fh = open(results_file, "w") if results_file else None
        fh_lock = threading.Lock()    # one job's line at a time (TextIOWrapper has no lock)

        def work(i):
            slot = slots[i]
            mine = []
            for k in range(i, len(cases), self.jobs):
                r = self.run_case(cases[k], slot)
                mine += r
                if fh:
                    with fh_lock:
                        for x in r:
                            fh.write(json.dumps(x) + "\n")
                        fh.flush()
                if progress and k % 200 == 0:
                    print(f"  {k}/{len(cases)} cases, {time.time() - t0:.0f} s",
                          file=sys.stderr, flush=True)
            return mine
        with ThreadPoolExecutor(self.jobs) as ex:
            for r in ex.map(work, range(self.jobs)):
                all_res += r
        if fh:
            fh.close()
        return all_res


def summarize(results, out=sys.stdout):
    from collections import Counter, defaultdict
    per = defaultdict(Counter)
    cases = defaultdict(set)
    total = Counter()
    for r in results:
        per[(r["kind"], r["cls"])][r["outcome"]] += 1
        cases[(r["kind"], r["cls"])].add(r["id"])
        total[r["outcome"]] += 1
    outcomes = sorted(total)
    print(f"{'kind':9} {'class':9} {'cases':>6} {'runs':>6} " +
          " ".join(f"{o:>10}" for o in outcomes), file=out)
    for k in sorted(per):
        print(f"{k[0]:9} {k[1]:9} {len(cases[k]):6} {sum(per[k].values()):6} " +
              " ".join(f"{per[k][o]:10}" for o in outcomes), file=out)
    ncases = len({r["id"] for r in results})
    print(f"{'total':9} {'':9} {ncases:6} {len(results):6} " +
          " ".join(f"{total[o]:10}" for o in outcomes), file=out)
    bugs = [r for r in results if r["outcome"].startswith("BUG")]
    for r in bugs:
        first = r["stderr"].strip().split("\n")
        print(f"BUG {r['outcome']}: {r['cmd']} {r['id']} rc={r['rc']}: "
              f"{first[0][:200] if first else ''}", file=out)
    return bugs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["run", "smoke", "case", "list", "rerun"])
    ap.add_argument("case_id", nargs="?")
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap.add_argument("--sr")
    ap.add_argument("--traces", default=os.path.join(repo, "traces"))
    ap.add_argument("--work", default=os.path.join("/tmp", f"sr-fuzz-{os.getpid()}"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=200, help="cases per input source")
    ap.add_argument("--kinds")
    ap.add_argument("--classes")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--results")
    ap.add_argument("--expect", default="notbug")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--expect-msg", help="case: a regex every run's stderr must match")
    ap.add_argument("--from", dest="from_file", help="rerun: the BUG cases of this --results file")
    ap.add_argument("--conv", help="a directory of tests/reader/convert.sh: its v6, v7-none and "
                    "text files are the sources (instead of converting them in --work)")
    a = ap.parse_intermixed_args()
    if a.mode != "list" and not a.sr:
        ap.error("--sr BIN is needed")
    if a.sr:
        a.sr = os.path.abspath(a.sr)
    a.work = os.path.abspath(a.work)
    # the commands run in the slots: a relative --traces named no file there
    # ("traces/small-pipe.dat: cannot open", flagged BUG-noname)
    a.traces = os.path.abspath(a.traces)
    if not shutil.which("zstd"):
        print("SKIP: no zstd command", file=sys.stderr)
        return 77
    inp = Inputs(a.traces, os.path.join(a.work, "src"), repo,
                 os.path.abspath(a.conv) if a.conv else None)
    if a.sr:
        m = subprocess.run([a.sr, "whatif", "--print-machine", "one-socket"],
                           capture_output=True)
        if m.returncode == 0 and m.stdout.strip().startswith(b"{"):
            inp.machine_json = m.stdout
    kinds = set(a.kinds.split(",")) if a.kinds else None
    classes = set(a.classes.split(",")) if a.classes else None
    if a.mode == "case":
        c = parse_case_id(a.case_id)
        # a vdir case lays out its own directory around the committed trace
        if c["kind"] not in ("options", "machine", "vdir") and \
                (c["kind"], c["src"]) not in inp.src:
            print(f"SKIP: no source {c['kind']}/{c['src']} (trace-cmd installed?)")
            return 77
        if c["kind"] == "machine":
            inp.src[("machine", "one-socket")] = None
        r = Runner(a.sr, inp, a.work, 1)
        res = r.run_case(c, os.path.join(a.work, "slot0"), keep=a.keep)
        if not res:
            print(f"FAIL: case {a.case_id} does not apply to these inputs")
            return 1
        bad = 0
        # --expect OUTCOME, or CMD=OUTCOME,CMD=OUTCOME (others: not BUG)
        wants = dict(kv.split("=", 1) for kv in a.expect.split(",")) if "=" in a.expect \
            else {}
        for x in res:
            want = wants.get(x["cmd"], "notbug") if wants else a.expect
            good = (not x["outcome"].startswith("BUG")) if want == "notbug" else \
                (want == "any" or x["outcome"] == want or
                 (want == "ok" and x["outcome"] == "ok-changed"))
            # (the message of the runs expected to fail: a command that does
            # not read the damaged part, as report the snapshots, has none)
            if a.expect_msg and want == "error" and \
                    not re.search(a.expect_msg, x["stderr"] + "\n" + x.get("fail", "")):
                good = False
                want += f" with stderr matching '{a.expect_msg}'"
            print(f"{'ok' if good else 'FAIL'}: {x['cmd']} {x['id']}: {x['outcome']} "
                  f"(rc {x['rc']}, expected {want}); stderr: {x['stderr'].strip()[:500]}" +
                  (f"; stdout: {x['fail'][:500]}" if x.get("fail") else ""))
            bad += not good
        return 1 if bad else 0
    if a.mode == "smoke":
        a.seed, a.cases = 1, 40
    if a.mode == "rerun":
        ids = []
        with open(a.from_file) as fh:
            for ln in fh:
                r = json.loads(ln)
                if r["outcome"].startswith("BUG") and r["id"] not in ids:
                    ids.append(r["id"])
        cases = [parse_case_id(i) for i in ids]
        if any(c["kind"] == "machine" for c in cases):
            inp.src[("machine", "one-socket")] = None
    else:
        cases = gen_cases(inp, a.seed, a.cases, kinds, classes,
                          SMOKE_SOURCES if a.mode == "smoke" else None)
    if a.mode == "smoke":
        # about 200: every kind and class represented, deterministic; then
        # 16 of the new surfaces' (syscall records, function counts, a
        # variants file's sched_features, option combos: fast runs on
        # small-chan), drawn apart so that the first 200 stay the same
        new = [c for c in gen_cases(inp, a.seed, a.cases, kinds, classes, SMOKE_NEW_SOURCES)
               if c["kind"] in ("sysc", "funcs") or c["src"] == "feat" or c["cls"] == "combo"]
        new37 = [c for c in cases if c["cls"] in FUZZ37_CLASSES]
        new38 = [c for c in cases if c["cls"] == "recent" and c["p"]["t"] != "forkexec"]
        # fuzz40's inserted options, apart (a new class in the round robin
        # would change the first 200): the four that found defects
        new40 = [c for c in cases if c["cls"] == "opt" and
                 c["p"]["op"] in ("offmax2", "offtext", "traceidshort", "tscshift")][:4] + \
            [c for c in cases if c["cls"] == "hdr" and HDR_CPUS[c["p"]["v"]] in
             ("abc", "5000", "99999999999")][:3]
        # fuzz41's sidecar snapshots (pelt-mix): two bad, one good, one foreign
        new41 = []
        if ("snap", "pelt-mix") in inp.src:
            snap = gen_snap_cases("snap", "pelt-mix", random.Random("1/snap"), 8)
            new41 = [c for c in snap if c["cls"] == "snapbad"][:2] + \
                [c for c in snap if c["cls"] != "snapbad"][:1] + \
                [c for c in snap if c["cls"] == "snapother"][:1] + \
                [c for c in snap if c["cls"] == "ctbad"][:1] + \
                [c for c in snap if c["cls"] == "cpubad"][:1]
        cases = smoke_subset([c for c in cases if c["cls"] not in ("combo", "recent") and
                              c["cls"] not in FUZZ37_CLASSES + MUST_FAIL_CLASSES +
                              SNAP_CLASSES], 200) + \
            smoke_subset(new, 16) + smoke_subset(new37, 9) + new38[:6] + new40 + new41
    if a.mode == "list":
        for c in cases:
            print(case_id(c))
        return 0
    print(f"{len(cases)} cases (seed {a.seed}); work dir {a.work}", file=sys.stderr)
    if a.mode == "rerun":
        a.mode = "run"
    t0 = time.time()
    res = Runner(a.sr, inp, a.work, a.jobs, light=a.mode == "smoke").run(
        cases, a.results, progress=a.mode == "run")
    bugs = summarize(res)
    print(f"{len(res)} runs in {time.time() - t0:.0f} s; {len(bugs)} BUG runs")
    return 1 if bugs else 0


def smoke_subset(cases, n):
    from collections import defaultdict
    groups = defaultdict(list)
    for c in cases:
        groups[(c["kind"], c["cls"])].append(c)
    out = []
    keys = sorted(groups)
    i = 0
    while len(out) < n and any(groups[k] for k in keys):
        k = keys[i % len(keys)]
        if groups[k]:
            out.append(groups[k].pop(0))
        i += 1
    return out


if __name__ == "__main__":
    sys.exit(main())
