#!/bin/sh
# HZ inferred without a sidecar (docs/replay.md, "Machine facts"): on every
# bundled capture, `replay --no-sidecar` either infers its HZ (its sidecar's
# kernel.hz; the small-* fixtures without one: 250, traces/README.md) or says
# "not inferable", never another HZ.  The runtime rule (before 3 Dec 2026,
# helper hzc32) read forkexec*.dat (HZ 250) as 1000 and could not tell
# make-probe.dat's 4 ms ticks from its 2 ms charges; the tick spacing alone
# (helper hzc32) left make-probe-run2/-run3, forkexec* and hackbench-shares*
# not inferable, which the tick grid (helper hz33) infers.  The tick grid's
# phase per CPU where no charge of a whole period gives one (helper hz34).
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
	# The tick phase where no event was charged a whole period: the tick
	# grid's per CPU (helper hz34), within 10 us of the CPU's traced ticks
	# (hardirq sched_stat_runtime of the running task: their grid by
	# wl_traced_tick_phase(), in us), named on the HZ line and used by
	# default (--tick-phase grid; 0 ns before the twenty-sixth pass, and
	# under --tick-phase zero, whose HZ line still names the grid's).
	case $b in
	forkexec.dat) ref="3386.6 3381.7" ;;
	forkexec-run2.dat) ref="3858.8 3857.0" ;;
	forkexec-run3.dat) ref="3856.4 3858.0" ;;
	hackbench-shares.dat) ref="2299.9 2295.5" ;;
	hackbench-shares-run3.dat) ref="97.8 91.7" ;;
	small-hackbench.dat) ref="544.9 541.0" ;;
	# full-period charges too, up to 30 us off: the grid's is used
	# (under --tick-phase zero the charges')
	hackbench-shares-run2.dat) ref="209.4 206.3" ;;
	make-probe.dat) ref="3087.7 3092.9" ;;
	*) ref= ;;
	esac
	[ -n "$ref" ] || continue
	ph=$(echo "$line" | sed -n 's/.*] (tick phase from the tick grid: CPU 0 \([0-9.]*\) us, CPU 1 \([0-9.]*\) us)$/\1 \2/p')
	# circular distance mod 4000 us
	if [ -n "$ph" ] && echo "$ph $ref" | awk '{ for (i = 1; i <= 2; i++) { d = $i - $(i + 2); if (d < 0) d = -d;
		if (d > 2000) d = 4000 - d; if (d > 10) exit 1 } }'; then
		echo "ok: $b: tick grid phase $ph us, traced ticks' $ref"
	else
		echo "FAIL: $b: tick grid phase '$ph', traced ticks' $ref: HZ line '$line'"; fails=$((fails + 1))
	fi
	case $b in
	hackbench-shares-run2.dat | make-probe.dat) zline="]" zfrom=charges ;;
	*) zline="] (tick phase: 0 ns, --tick-phase zero; the tick grid's: CPU 0 $(echo "$ph" | cut -d' ' -f1) us, CPU 1 *" zfrom=zero ;;
	esac
	g=$("$sr" replay --no-sidecar --tick-phase zero "$t" 2> /dev/null | grep '^HZ:')
	case $g in
	*$zline) echo "ok: $b: --tick-phase zero" ;;
	*) echo "FAIL: $b: --tick-phase zero: HZ line '$g'"; fails=$((fails + 1)) ;;
	esac
	if "$sr" replay --no-sidecar --json "$t" 2> /dev/null |
	   grep -q '"tick_phase_from": "tick grid"' &&
	   "$sr" replay --no-sidecar --tick-phase zero --json "$t" 2> /dev/null |
	   grep -q "\"tick_phase_from\": \"$zfrom\""; then echo "ok: $b: tick_phase_from"
	else echo "FAIL: $b: --json: tick_phase_from not \"tick grid\" by default and \"$zfrom\" under --tick-phase zero"; fails=$((fails + 1)); fi
done
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
