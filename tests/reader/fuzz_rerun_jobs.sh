#!/bin/sh
# `fuzz.py rerun --jobs 2` in a fresh work directory (no --conv): the two
# jobs' first cases need the same converted source (small-pipe's v6 and
# -N text). Before inp38 both jobs converted it into the same scratch file
# when they first read it (rerun makes no cases, so nothing converted it
# before the threads started): the second rename failed and the run ended
# in a Python traceback (FileNotFoundError), or a job read a half-written
# source. Exit 0: every case ran and none is a BUG.
#   fuzz_rerun_jobs.sh PYTHON3 FUZZ_PY SCHEDREPLAY TRACES_DIR WORK_DIR
set -u
py=$1 fuzz=$2 sr=$3 traces=$4 work=$5
command -v trace-cmd >/dev/null 2>&1 || { echo "SKIP: no trace-cmd"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
# two cases per source, one for each job (cases k and k+1 go to jobs 0 and 1,
# at about the same time: four sources, four chances of the race)
cat > "$work/results.jsonl" <<'JSONL'
{"id": "v6/small-pipe/trunc/at=1435555", "outcome": "BUG-fake"}
{"id": "v6/small-pipe/trunc/at=1400000", "outcome": "BUG-fake"}
{"id": "v7none/small-pipe/trunc/at=1435555", "outcome": "BUG-fake"}
{"id": "v7none/small-pipe/trunc/at=1400000", "outcome": "BUG-fake"}
{"id": "v6/small-hackbench/trunc/at=846649", "outcome": "BUG-fake"}
{"id": "v6/small-hackbench/trunc/at=800000", "outcome": "BUG-fake"}
{"id": "text/small-pipe-text/cutline/l=2424:s=656497037", "outcome": "BUG-fake"}
{"id": "text/small-pipe-text/cutline/l=2000:s=1", "outcome": "BUG-fake"}
JSONL
"$py" "$fuzz" rerun --sr "$sr" --traces "$traces" --work "$work/w" --jobs 2 \
	--from "$work/results.jsonl" --results "$work/out.jsonl" > "$work/log" 2>&1
rc=$?
cat "$work/log"
[ $rc -eq 0 ] || { echo "FAIL: fuzz.py rerun --jobs 2 exited $rc"; exit 1; }
n=$(wc -l < "$work/out.jsonl")
# 10 cases of 5..7 commands each; one JSON object per line
"$py" -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$work/out.jsonl" ||
	{ echo "FAIL: the results file is not one JSON object per line"; exit 1; }
[ "$n" -ge 40 ] || { echo "FAIL: $n result lines, expected >= 40 (10 cases)"; exit 1; }
echo "ok: 10 cases, $n runs, 2 jobs, sources converted once"
