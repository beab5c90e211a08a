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
# LISA's platform.json beside a trace without a sidecar (helper ext47): its
# energy model's cap_max per cluster; one that names other CPUs, or is not
# JSON, is said not to be used
mkdir "$tmp/lisa"
ln -s "$(cd "$(dirname "$t")" && pwd)/hog-timer.dat" "$tmp/lisa/hog-timer.dat"
plat() {	# LITTLE-CPUS BIG-CPUS LITTLE-CAP
	printf '{"clusters": {"little": [%s], "big": [%s]}, "cpus_count": 2,\n "nrg_model": {"big": {"cpu": {"cap_max": 1024}}, "little": {"cpu": {"cap_max": %s}}}}\n' "$1" "$2" "$3" > "$tmp/lisa/platform.json"
	"$sr" replay "$tmp/lisa/hog-timer.dat" > "$tmp/plat.txt" 2> /dev/null
}
plat 0 1 446
check platform "$tmp/plat.txt" "^capacity:  1024 assumed, the machine's differ  \[platform: platform.json beside the trace: cpu_capacity 446..1024 (1 of 2 CPUs at 446; nrg_model cap_max of its clusters: little 0 446, big 1 1024): NOT modelled, every CPU runs at 1024 (no capacity or frequency invariance in PELT, no misfit or capacity-aware placement): an approximation\]$"
plat 0 1 1024
check platform-symmetric "$tmp/plat.txt" "^capacity:  1024  \[platform: platform.json beside the trace: cpu_capacity 1024 on every CPU (2; nrg_model cap_max of its clusters: little 0 1024, big 1 1024): as the model's SCHED_CAPACITY_SCALE\]$"
plat 0,2,3 1 446
check platform-other-cpus "$tmp/plat.txt" "^capacity:  1024  \[default: assumed 1024 on every CPU: no sidecar, the trace records no CPU capacity (the model has no asymmetric capacity, no frequency invariance); platform.json beside it not used: it names 4 CPUs (cpus_count 2), the trace has 2\]$"
plat 0 0 446
check platform-two-clusters "$tmp/plat.txt" "; platform.json beside it not read: cluster \"[a-z]*\": CPU 0 out of range or in two clusters\]$"
echo '{"clusters": ' > "$tmp/lisa/platform.json"
"$sr" replay "$tmp/lisa/hog-timer.dat" > "$tmp/plat.txt" 2> /dev/null
check platform-not-json "$tmp/plat.txt" '; platform.json beside it not read: not JSON (line 2: '
# its kernel.release only where the trace names none (hog-timer.dat has a
# UNAME option: the trace's)
printf '{"clusters": {"all": [0, 1]}, "nrg_model": {"all": {"cpu": {"cap_max": 1024}}},\n "kernel": {"release": "4.11.0-rc6"}}\n' > "$tmp/lisa/platform.json"
"$sr" replay "$tmp/lisa/hog-timer.dat" > "$tmp/plat.txt" 2> /dev/null
check platform-release-uname-first "$tmp/plat.txt" '^kernel:    6\.[0-9.]*-[^ ]*  \[trace: trace.dat UNAME option'
# a sidecar wins: platform.json is not read beside one
cp "$t.json" "$tmp/lisa/hog-timer.dat.json"
plat 0 1 446
check platform-sidecar-first "$tmp/plat.txt" '^capacity:  1024  \[sidecar: cpu_capacity 1024 on every online CPU (2)'
echo "$fails failures"
[ $fails = 0 ]
