#!/bin/sh
# HZ inferred without a sidecar (docs/replay.md, "Machine facts"): on every
# bundled capture, `replay --no-sidecar` either infers its HZ (its sidecar's
# kernel.hz; the small-* fixtures without one: 250, traces/README.md) or says
# "not inferable", never another HZ.  The runtime rule (before 3 Dec 2026,
# helper hzc32) read forkexec*.dat (HZ 250) as 1000 and could not tell
# make-probe.dat's 4 ms ticks from its 2 ms charges; the tick spacing alone
# (helper hzc32) left make-probe-run2/-run3, forkexec* and hackbench-shares*
# not inferable, which the tick grid (helper hz33) infers.
#   hz_no_sidecar.sh SCHEDREPLAY TRACES_DIR
set -u
sr=$1; dir=$2
fails=0
for t in "$dir"/*.dat; do
	b=$(basename "$t")
	if [ -f "$t.json" ]; then
		want=$(sed -n 's/.*"hz": *\([0-9][0-9]*\).*/\1/p' "$t.json" | head -n 1)
	else
		want=250
	fi
	if ! out=$("$sr" replay --no-sidecar "$t" 2> /dev/null); then
		echo "ok: $b: not replayable"; continue
	fi
	line=$(echo "$out" | grep '^HZ:')
	got=$(echo "$line" | sed -n 's/^HZ: *\([0-9]*\)  \[trace: inferred.*/\1/p')
	if [ -z "$got" ]; then
		case $line in
		*"not inferable"*) echo "ok: $b: not inferable" ;;
		*) echo "FAIL: $b: HZ line '$line'"; fails=$((fails + 1)) ;;
		esac
	elif [ "$got" = "$want" ]; then echo "ok: $b: HZ $got inferred"
	else echo "FAIL: $b: HZ $got inferred, kernel.hz $want"; fails=$((fails + 1)); fi
	case $b in
	make-probe*.dat|hog-timer.dat|bw-hogs*.dat|forkexec*.dat|hackbench-shares*.dat|small-hackbench.dat)
		[ "$got" = 250 ] || { echo "FAIL: $b: want 250 inferred"; fails=$((fails + 1)); } ;;
	esac
	# the method and its figures
	case $b in
	make-probe-run2.dat|forkexec.dat)
		case $line in
		*"inferred: tick grid: "*" lone sched_stat_runtime charges within 200 us of one phase mod 4000 us (1/250 s) per CPU (concentration 0."*"grid points in a task's runs charged (1/500 s: "*", 1/1000 s: "*)
			echo "ok: $b: the tick grid named with its figures" ;;
		*) echo "FAIL: $b: HZ line '$line'"; fails=$((fails + 1)) ;;
		esac ;;
	esac
done
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
