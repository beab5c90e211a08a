#!/bin/sh
# The CPU capacity fact (docs/replay.md, "Machine facts"): the model runs
# every CPU at SCHED_CAPACITY_SCALE (1024), and replay's "capacity:" line
# and --json facts.cpu_capacity say where that holds: a sidecar whose
# cpu_capacity values are all 1024 (hog-timer.dat's), a sidecar of
# big.LITTLE CPUs (the same with CPU 0 at 446, as a Juno's LITTLE cores:
# "NOT modelled ... an approximation", asymmetric true, and whatif says it
# too), no sidecar (assumed, said to be).  Before 5 Dec 2026 nothing was
# said: a big.LITTLE trace replayed on equal CPUs without a word.
#   capacity_fact.sh SCHEDREPLAY TRACES_DIR
set -u
sr=$1; dir=$2
t=$dir/hog-timer.dat
[ -f "$t.json" ] || { echo "SKIP: $t.json is absent"; exit 77; }
fails=0
tmp=$(mktemp -d /tmp/sr-capacity.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
check() {	# NAME OUTPUT-FILE REGEX
	if grep -q -- "$3" "$2"; then echo "ok: $1: /$3/"
	else echo "FAIL: $1: no line /$3/"; grep '^capacity' "$2"; fails=$((fails + 1)); fi
}
"$sr" replay "$t" > "$tmp/sym.txt" 2> /dev/null
check symmetric "$tmp/sym.txt" '^capacity:  1024  \[sidecar: cpu_capacity 1024 on every online CPU (2): as the model.s SCHED_CAPACITY_SCALE\]$'
"$sr" replay --no-sidecar "$t" > "$tmp/none.txt" 2> /dev/null
check no-sidecar "$tmp/none.txt" '^capacity:  1024  \[default: assumed 1024 on every CPU: no sidecar, the trace records no CPU capacity'
# the first "capacity": 1024 of the sidecar (CPU 0's) made 446
awk '!done && /"capacity": *1024/ { sub(/"capacity": *1024/, "\"capacity\": 446"); done = 1 } { print }' \
	"$t.json" > "$tmp/asym.json"
if cmp -s "$t.json" "$tmp/asym.json"; then
	echo "FAIL: the sidecar has no \"capacity\": 1024 to change"; exit 1
fi
"$sr" replay --sidecar "$tmp/asym.json" "$t" > "$tmp/asym.txt" 2> /dev/null
check asymmetric "$tmp/asym.txt" "^capacity:  1024 assumed, the machine's differ  \[sidecar: cpu_capacity 446..1024 (1 of 2 online CPUs at 446): NOT modelled, every CPU runs at 1024 .*an approximation\]$"
"$sr" replay --json --sidecar "$tmp/asym.json" "$t" > "$tmp/asym.json.out" 2> /dev/null
if python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["facts"]["cpu_capacity"]
sys.exit(not (c["asymmetric"] is True and c["value"] == 1024 and c["source"] == "sidecar"))
' "$tmp/asym.json.out"; then echo "ok: --json facts.cpu_capacity asymmetric"
else echo "FAIL: --json facts.cpu_capacity"; fails=$((fails + 1)); fi
"$sr" whatif --variant base --sidecar "$tmp/asym.json" "$t" > "$tmp/w.txt" 2> /dev/null
check whatif "$tmp/w.txt" '^  capacity: cpu_capacity 446..1024 '
"$sr" whatif --variant base "$t" > "$tmp/w0.txt" 2> /dev/null
if grep -q '^  capacity:' "$tmp/w0.txt"; then
	echo "FAIL: whatif names the capacity of a symmetric machine"; fails=$((fails + 1))
else echo "ok: whatif silent on a symmetric machine"; fi
echo "$fails failures"
[ $fails = 0 ]
