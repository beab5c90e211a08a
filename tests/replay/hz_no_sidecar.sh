#!/bin/sh
# HZ inferred without a sidecar (docs/replay.md, "Machine facts"): on every
# bundled capture that has a sidecar, `replay --no-sidecar` either infers the
# sidecar's kernel.hz or says "not inferable", never another HZ.  The runtime
# rule (before 3 Dec 2026, helper hzc32) read forkexec*.dat (HZ 250) as 1000
# and could not tell make-probe.dat's 4 ms ticks from its 2 ms charges.
#   hz_no_sidecar.sh SCHEDREPLAY TRACES_DIR
set -u
sr=$1; dir=$2
fails=0
for t in "$dir"/*.dat; do
	[ -f "$t.json" ] || continue
	want=$(sed -n 's/.*"hz": *\([0-9][0-9]*\).*/\1/p' "$t.json" | head -n 1)
	line=$("$sr" replay --no-sidecar "$t" 2> /dev/null | grep '^HZ:')
	got=$(echo "$line" | sed -n 's/^HZ: *\([0-9]*\)  \[trace: inferred.*/\1/p')
	b=$(basename "$t")
	if [ -z "$got" ]; then
		case $line in
		*"not inferable"*) echo "ok: $b: not inferable" ;;
		*) echo "FAIL: $b: HZ line '$line'"; fails=$((fails + 1)) ;;
		esac
	elif [ "$got" = "$want" ]; then echo "ok: $b: HZ $got inferred"
	else echo "FAIL: $b: HZ $got inferred, kernel.hz $want"; fails=$((fails + 1)); fi
	case $b in
	make-probe.dat|hog-timer.dat|bw-hogs.dat)
		[ "$got" = 250 ] || { echo "FAIL: $b: want 250 inferred"; fails=$((fails + 1)); } ;;
	forkexec.dat)
		[ -z "$got" ] || { echo "FAIL: $b: want not inferable"; fails=$((fails + 1)); } ;;
	esac
done
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
