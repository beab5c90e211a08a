#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# When does the capture kernel's vCPU packing (sched_vcpu_pack, docs/model.md
# "Placement on the capture kernel (measured)") switch off?  Runs
# placement-probe.sh (mode f, sleeping waker: a futex wakeup from CPU 1 of a
# task that last ran on CPU 0, CPU 0 idle X us) beside a stress-ng hog of a
# given duty cycle pinned to one CPU, each point REPEATS times, the points
# interleaved within a repeat and a no-hog baseline before each CPU's steps,
# so that a drift of the machine's state shows as a drifting baseline.
# Root, 2 CPUs, an otherwise idle machine (check `uptime`).
#
#   tests/replay/placement-sweep.sh PROBE_BINARY OUTDIR [REPEATS] [POINTS]
#
# POINTS is a list of CPU:PERCENT:SLICE_MS (default: 5 10 15 20 30 50 % in
# 3 ms slices on CPU 0, then on CPU 1); a baseline without a hog (run
# rREP-c-C-p0-s0) precedes the first point of each CPU C.  A hog of P % in S ms slices runs S ms
# and sleeps S (100 - P) / P ms (stress-ng --cpu-load P --cpu-load-slice S).
# Each run is OUTDIR/rREP-cC-pP-sS (placement-probe.sh's files, plus stat.txt:
# /proc/stat's cpu0 and cpu1 lines before and after the probe); then
# placement_sweep.py OUTDIR prints the table.  PP_N samples per X (default
# 40), PP_XS the idle times (default 2000 5000 us: the baseline packs all of
# them; at 1000 us it was borderline, 1 of 12 to 19 of 20 to the idle prev);
# PP_MODE the probe's MODE:STYLE (default f:s).
set -eu
probe=$1
out=$2
reps=${3:-3}
points=${4:-"0:5:3 0:10:3 0:15:3 0:20:3 0:30:3 0:50:3 1:5:3 1:10:3 1:15:3 1:20:3 1:30:3 1:50:3"}
n=${PP_N:-40}
mode=${PP_MODE:-f:s}
here=$(dirname "$0")
hog=
trap '[ -z "$hog" ] || { kill -TERM $hog 2>/dev/null; wait $hog 2>/dev/null; }' EXIT INT TERM
mkdir -p "$out"
run() {	# rep cpu percent slice
	d=$out/r$1-c$2-p$3-s$4
	if [ "$3" != 0 ]; then
		stress-ng --cpu 1 --cpu-load "$3" --cpu-load-slice "$4" --taskset "$2" -t 120s -q &
		hog=$!
		sleep 1.5	# its PELT utilisation settles (32 ms half-life)
	fi
	mkdir -p "$d"
	grep '^cpu[01] ' /proc/stat > "$d/stat.txt"
	PP_XS=${PP_XS:-"2000 5000"} PP_LEAD=0.3 \
		sh "$here/placement-probe.sh" "$probe" "$d" "$n" "$mode" > /dev/null
	grep '^cpu[01] ' /proc/stat >> "$d/stat.txt"
	if [ -n "$hog" ]; then
		kill -TERM $hog
		wait $hog || true
		hog=
	fi
}
for r in $(seq 1 "$reps"); do
	last=
	for pt in $points; do
		c=${pt%%:*}
		if [ "$c" != "$last" ]; then
			run "$r" "-$c" 0 0
			last=$c
		fi
		rest=${pt#*:}
		run "$r" "$c" "${rest%:*}" "${rest#*:}"
		echo "$(date -u +%T) r$r $pt done; $(cut -d' ' -f1-3 /proc/loadavg)"
	done
done
python3 "$here/placement_sweep.py" "$out"
