#!/usr/bin/env python3
"""The documents' references against the tree and the binary.

    tests/docs/docs_refs.py SCHEDREPLAY SOURCE_DIR

Checks README.md and docs/*.md (docs/validation-log.md, the history, is left
out: it names what was removed on purpose), and the --help texts:
  1. a reference to a section, `docs/X.md "Title"` (or `X.md, "Title"`), in
     the documents, the --help texts and the sources names a heading, a bold
     paragraph lead or a list item's lead of X;
  2. a backticked path under capture/ replay/ model/ include/ tests/ bench/
     traces/ docs/ exists (a glob matches; a built program's path: its .c);
  3. a backticked project function `prefix_name()` exists in the sources;
  4. every option of every command's --help is in README.md or docs/*.md.
Exit 0 if all hold, 1 otherwise (each miss on its own line).
"""
import glob
import os
import re
import subprocess
import sys

CMDS = ("capture", "report", "replay", "whatif", "variants", "validate")
TOPS = ("capture/", "replay/", "model/", "include/", "tests/", "bench/", "traces/", "docs/")
PREFIX = r"(?:sr|wl|replay|lat|tr|cli|sim|model|calib|variant|whatif|report|cost|cap)_"


def main():
    sr, root = sys.argv[1], sys.argv[2]
    os.chdir(root)
    misses = []
    files = subprocess.run(["git", "ls-files"], capture_output=True, text=True).stdout.split()
    if not files:       # not a git checkout: the files on disk
        files = [os.path.relpath(os.path.join(d, f)) for d, _, fs in os.walk(".")
                 if "/." not in d for f in fs]
    fileset = set(files)
    dirs = {os.path.dirname(f) for f in files}
    for d in list(dirs):
        while d:
            dirs.add(d)
            d = os.path.dirname(d)
    srcs = {f: open(f, errors="replace").read() for f in files
            if f.endswith((".c", ".h", ".py", ".sh", ".cmake", ".txt"))
            and not f.startswith("tests/docs/")}     # not this script's own patterns
    src = "\n".join(srcs.values())
    docs = ["README.md"] + sorted(glob.glob("docs/*.md"))
    text = {d: open(d).read() for d in docs}
    # every option: --help-all where a command has it (its --help summarises a section)
    helps = {}
    for c in CMDS:
        p = subprocess.run([sr, c, "--help-all"], capture_output=True, text=True)
        if p.returncode != 0:
            p = subprocess.run([sr, c, "--help"], capture_output=True, text=True)
        helps[c] = p.stdout

    # 1. sections
    heads = {}
    for d, t in text.items():
        heads[d] = [re.sub(r"^#+\s*", "", l).strip() for l in t.splitlines() if l.startswith("#")]
        heads[d] += re.findall(r"\*\*([^*]+)\*\*", t)
        heads[d] += re.findall(r"^- ([A-Z][^(:.\n]{3,60})", t, re.M)    # a list item's lead
    ref = re.compile(r"(?<![\w/.-])((?:docs/)?[\w-]+\.md)((?:[,:]?\s*(?:and\s+|sections?\s+)?"
                     r"[\"\u201c][^\"\u201d\n]{2,80}[\"\u201d])+)")
    where = [(d, t) for d, t in text.items() if d != "docs/validation-log.md"]
    where += [("schedreplay %s --help" % c, h) for c, h in helps.items()]
    where += list(srcs.items())
    for name, t in where:
        flat = re.sub(r"\s*\n\s*(?:\*\s+|#\s+|//\s*)?", " ", t)
        for m in ref.finditer(flat):
            doc = m.group(1)
            if not doc.startswith("docs/") and doc != "README.md":
                doc = "docs/" + doc
            if doc not in heads:
                continue
            for title in re.findall(r"[\"\u201c]([^\"\u201d]+)[\"\u201d]", m.group(2)):
                t0 = title.strip().rstrip(".,").lower()
                if not any(t0 in h.lower() for h in heads[doc]):
                    misses.append('%s: %s "%s": no such heading or bold lead' %
                                  (name, doc, title))

    # 2. and 3. backticked paths and functions
    for d, t in text.items():
        if d == "docs/validation-log.md":
            continue
        for ln, line in enumerate(t.splitlines(), 1):
            for m in re.findall(r"`([^`\s]+)`", line):
                p = m.rstrip("/")
                if p.startswith(TOPS) and re.fullmatch(r"[\w./*{}-]+", p):
                    if p in fileset or p in dirs or p + ".c" in fileset:
                        continue
                    if "*" in p and glob.glob(p):
                        continue
                    misses.append("%s:%d: `%s`: no such file" % (d, ln, m))
                fm = re.fullmatch(r"(" + PREFIX + r"\w+)\(\)", m)
                if fm and not re.search(r"\b" + fm.group(1) + r"\b", src):
                    misses.append("%s:%d: `%s`: no such function in the sources" % (d, ln, m))

    # 4. every --help option documented
    alldoc = "\n".join(text.values())
    for c, h in helps.items():
        for o in sorted(set(re.findall(r"^\s{1,8}(?:-\w, )?(--[a-z][a-z0-9-]*)", h, re.M))):
            if o != "--help" and not re.search(re.escape(o) + r"(?![\w-])", alldoc):
                misses.append("schedreplay %s --help: %s is in no document" % (c, o))

    for m in misses:
        print(m)
    print("docs_refs: %d documents, %d --help texts: %d misses" % (len(docs), len(helps),
                                                                  len(misses)))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
