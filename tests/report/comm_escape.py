#!/usr/bin/env python3
"""Comms are any 16 bytes: every output of every command must survive them.

    comm_escape.py SCHEDREPLAY TRACES_DIR WORK_DIR

Makes WORK_DIR/weird.dat, a copy of traces/hog-timer.dat (trace.dat v6,
uncompressed) whose comms "probe-msg" and "probe-worker" are replaced, byte
for byte (same length, NUL kept), by

    M = b"m\\n|\\x1b[2J\\xff<"           newline, '|', a terminal escape, a byte
                                       that is not UTF-8, '<'
    W = b"w&\\"'\\t\\r\\x7f\\xc3(>\\x01]"  '&', quotes, tab, CR, DEL, a broken UTF-8
                                       sequence, '>', a control

and checks each command and output form on it:
  text (report, replay, whatif, validate, variants; --samples, --dump-events):
    no control byte but newline and the tables' tabs, valid UTF-8, the comm
    printed escaped (m\\n|\\x1b[2J\\xff<) on one line, table rows whole;
  markdown (validate --markdown): every row has the header's cells ('|' is \\|);
  JSON (report, replay, whatif, validate --json, variants --json): parses, and
    the comm is a key / value, its bytes that are not UTF-8 written \\xNN
    (jansson refused the string: the key was dropped without a word);
  SVG (whatif --svg --svg-comm M): well-formed XML, the name escaped.
Before the fix: the comms went out raw (a table broken over two lines, ESC
[2J cleared the terminal), and the JSON of replay, whatif and validate lost
the keys of both comms.
"""
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

SR, TRACES, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
M_RAW, W_RAW = b"m\n|\x1b[2J\xff<", b"w&\"'\t\r\x7f\xc3(>\x01]"
# as the text outputs print them (cli_esc())
M_TXT, W_TXT = r"m\n|\x1b[2J\xff<", "w&\"'" + r"\t\r\x7f\xc3(>\x01]"
# as JSON strings decode (sr_json_key(): only the bytes that are not UTF-8 escaped)
M_JSON, W_JSON = "m\n|\x1b[2J\\xff<", "w&\"'\t\r\x7f\\xc3(>\x01]"
fails = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        fails.append(what)


def make_trace():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    data = open(os.path.join(TRACES, "hog-timer.dat"), "rb").read()
    for old, new in ((b"probe-msg\0", M_RAW + b"\0"), (b"probe-worker\0", W_RAW + b"\0")):
        assert len(old) == len(new)
        assert data.count(old) > 1000, old
        data = data.replace(old, new)
    path = os.path.join(WORK, "weird.dat")
    open(path, "wb").write(data)
    shutil.copy(os.path.join(TRACES, "hog-timer.dat.json"), path + ".json")
    return path


def run(*args):
    p = subprocess.run([SR] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       cwd=WORK, timeout=300)
    what = " ".join(a if a.isprintable() else repr(a) for a in args)
    check(p.returncode == 0, "%s: exit %d %s" % (what, p.returncode, p.stderr[-300:]))
    return p.stdout


def text_ok(name, out, must, tabs=False):
    """No control byte but newline (and tab where the format has them), UTF-8,
    each of @must on some line."""
    allowed = {0x0a, 0x09} if tabs else {0x0a}
    bad = [b for b in out if (b < 0x20 and b not in allowed) or b == 0x7f]
    check(not bad, "%s: no raw control bytes (%d: %r)" % (name, len(bad), bytes(bad[:8])))
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError as e:
        check(False, "%s: not UTF-8: %s" % (name, e))
        return ""
    for m in must:
        check(m in text, "%s: has %r" % (name, m))
    return text


def json_keys(obj):
    """Every object key and string value in @obj."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from json_keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from json_keys(v)
    elif isinstance(obj, str):
        yield obj


def json_ok(name, out, must):
    try:
        doc = json.loads(out.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        check(False, "%s: not JSON: %s" % (name, e))
        return None
    found = set(json_keys(doc))
    for m in must:
        check(m in found, "%s: has the key or value %r" % (name, m))
    return doc


def main():
    trace = make_trace()
    comms = [M_TXT, W_TXT]

    # report: the groups, the task table, --samples
    samples = os.path.join(WORK, "samples.tsv")
    out = run("report", "--by", "comm", "--top", "0", "--samples", samples, trace)
    text = text_ok("report", out, ["comm=" + c + " (" for c in comms], tabs=True)
    rows = [l for l in text.splitlines() if l.split()[:1] in (["24457"], ["24458"])]
    check(len(rows) == 2 and all(len(r.split()) == 12 for r in rows),
          "report: the task table's rows of both comms whole (12 columns): %r" % rows)
    s = open(samples, "rb").read()
    text = text_ok("report --samples", s, ["\t" + c + "\t" for c in comms], tabs=True)
    check(all(len(l.split("\t")) == 9 for l in text.splitlines()[1:]),
          "report --samples: 9 tab-separated fields on every line")
    json_ok("report --json", run("report", "--json", "--by", "comm", trace), [M_JSON, W_JSON])

    # replay: text, JSON, the event dump
    dump = os.path.join(WORK, "dump.txt")
    out = run("replay", "--dump-events", dump, trace)
    text_ok("replay", out, ["Wakeup latency, comm=%s: measured" % c for c in comms] +
            ["  comm=%s " % c for c in comms])
    text = text_ok("replay --dump-events", open(dump, "rb").read(),
                   [" ==> %s:24457 [" % W_TXT, " ==> %s:24458 [" % M_TXT])
    check(all(l.startswith("[") for l in text.splitlines()),
          "replay --dump-events: one event per line")
    json_ok("replay --json", run("replay", "--json", trace), [M_JSON, W_JSON])

    # whatif: text, JSON, SVG of one of the comms (--svg-comm takes the raw bytes)
    svg = os.path.join(WORK, "cdf.svg")
    out = run("whatif", "--variant", "aaron-skip", "--top", "0", "--svg", svg,
              "--svg-comm", os.fsdecode(M_RAW), trace)
    text_ok("whatif", out, ["comm " + c for c in comms])
    json_ok("whatif --json", run("whatif", "--json", "--variant", "aaron-skip", trace),
            [M_JSON, W_JSON])
    raw = open(svg, "rb").read()
    text_ok("whatif --svg", raw, [])
    try:
        root = ET.fromstring(raw)
        title = root.find("{http://www.w3.org/2000/svg}title")
        check(title is not None and "comm " + M_TXT + " --" in title.text,
              "whatif --svg: the title names the comm escaped: %r" %
              (title.text if title is not None else None))
    except ET.ParseError as e:
        check(False, "whatif --svg: not well-formed XML: %s" % e)

    # validate: a directory with the trace and a latency group of comm prefix "m\n|\x1b"
    vdir = os.path.join(WORK, "v")
    os.makedirs(vdir)
    shutil.copy(trace, vdir)
    shutil.copy(trace + ".json", vdir)
    th = json.load(open(os.path.join(TRACES, "thresholds.json")))
    entry = dict(th["traces"]["hog-timer.dat"])
    entry["latency_group"] = {"comm": "m\n|\x1b"}
    entry["max_rel_error"] = {k: 10.0 for k in entry["max_rel_error"]}
    th["traces"] = {"weird.dat": entry}
    json.dump(th, open(os.path.join(vdir, "thresholds.json"), "w"))
    group = "comm=" + M_TXT
    out = run("validate", "--dir", vdir, "--seeds", "1")
    text_ok("validate", out, ["weird.dat" + " " * 19 + " " + group + "\n"])
    out = run("validate", "--dir", vdir, "--seeds", "1", "--markdown")
    text = text_ok("validate --markdown", out, ["| weird.dat | " + group.replace("|", "\\|") + " |"])
    cells = None
    for line in text.splitlines():
        if not line.startswith("|"):
            cells = None
            continue
        n = line.replace("\\|", "").count("|")
        if cells is None:
            cells = n
        check(n == cells, "validate --markdown: %d cells as its header: %r" % (n - 1, line))
    doc = json_ok("validate --json", run("validate", "--dir", vdir, "--seeds", "1", "--json"), [])
    if doc is not None:
        got = doc["traces"]["weird.dat"].get("latency_group")
        check(got == "comm=" + M_JSON, "validate --json: latency_group %r" % got)

    # variants: a JSON variants file's description with a newline and an escape
    vf = os.path.join(WORK, "variants.json")
    json.dump({"variants": [{"name": "esc-test", "description": "a\nb\x1b[2J|c",
                             "origin": "o\rp", "flags": ["TG_LOAD_PER_NODE"]}]}, open(vf, "w"))
    text_ok("variants", run("variants", "--variants-file", vf),
            ["  a\\nb\\x1b[2J|c\n", "  origin:  o\\rp\n"])
    json_ok("variants --json", run("variants", "--json", "--variants-file", vf),
            ["a\nb\x1b[2J|c"])

    if fails:
        print("%d failures" % len(fails))
        sys.exit(1)


main()
