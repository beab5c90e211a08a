#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Measure the running kernel's wakeup and fork placement beside an idle CPU
# (docs/model.md, "Placement on the capture kernel (measured)").  Root, 2 CPUs.
#
#   tests/replay/placement-probe.sh PROBE_BINARY OUTDIR [N] [MODES] [WORK_US]
#
# PROBE_BINARY is build/tests/replay/placement_probe; N samples per idle time
# (default 200); MODES a list of MODE:STYLE (default all of placement_probe.c's);
# WORK_US the task's own run per wakeup (placement_probe -w, default 0).
# PP_CGROUP=1 runs the probe in a cgroup-v1 cpu group of its own (as
# `schedreplay capture -g` runs the traces' workloads).  PP_XS overrides the
# list of idle times X (us); PP_LEAD=SECONDS traces that long before the probe
# starts, so that placement_probe.py's utilisation estimates have converged
# (0.3 s: ten PELT half-lives).
# Traces sched_switch / sched_waking / sched_wakeup / sched_wakeup_new /
# sched_migrate_task / sched_process_exit in a tracefs instance while the
# probe runs, and writes OUTDIR/trace.txt, OUTDIR/samples.csv and
# OUTDIR/summary.txt: the machine's state (load, cpuidle driver and states,
# haltpoll parameters, /proc/stat's steal column before and after), the
# probe's decisions (placement_probe.py) and every remote wakeup of the trace
# beside an idle previous CPU (placement_idle_prev.py).
set -eu
probe=$1
out=$2
n=${3:-200}
work=${5:-0}
modes=${4:-"f:b f:s p:b p:s g:b g:s e:b e:s v:b v:s m:b m:s k:b k:s"}
xs=${PP_XS:-"10 30 60 100 130 160 200 300 500 1000 2000 5000 10000"}
here=$(dirname "$0")
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr
inst=$tr/instances/pprobe$$
mkdir -p "$out"
mkdir $inst
cg=
if [ "${PP_CGROUP:-0}" = 1 ]; then
	cg=/sys/fs/cgroup/cpu/pprobe$$
	mkdir $cg
fi
trap 'echo 0 > $inst/tracing_on; rmdir $inst; [ -z "$cg" ] || rmdir $cg' EXIT
echo 32768 > $inst/buffer_size_kb
for e in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task sched_process_exit; do
	echo 1 > $inst/events/sched/$e/enable
done
{
	date -u; uname -r; cat /proc/cmdline; uptime
	echo "samples per X $n, modes $modes, task work ${work} us, cgroup ${cg:-none}"
	head -1 /proc/stat
	cat /sys/devices/system/cpu/cpuidle/current_driver
	for s in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
		echo "$s $(cat $s/name) latency=$(cat $s/latency) residency=$(cat $s/residency) disable=$(cat $s/disable)"
	done
	grep . /sys/module/haltpoll/parameters/* 2>/dev/null || true
} > "$out/summary.txt"
echo > $inst/trace
echo 1 > $inst/tracing_on
sleep "${PP_LEAD:-0}"
for m in $modes; do
	# shellcheck disable=SC2086
	if [ -n "$cg" ]; then
		sh -c 'echo $$ > "$0/tasks" && exec "$@"' "$cg" \
			"$probe" -w "$work" "${m%:*}" "${m#*:}" "$n" $xs
	else
		"$probe" -w "$work" "${m%:*}" "${m#*:}" "$n" $xs
	fi
done
echo 0 > $inst/tracing_on
echo "lost events: $(grep -h 'overrun' $inst/per_cpu/cpu*/stats | tr '\n' ' ')" >> "$out/summary.txt"
cat $inst/trace > "$out/trace.txt"
uptime >> "$out/summary.txt"
head -1 /proc/stat >> "$out/summary.txt"
python3 "$here/placement_probe.py" "$out/trace.txt" --csv "$out/samples.csv" >> "$out/summary.txt"
python3 "$here/placement_idle_prev.py" "$out/trace.txt" >> "$out/summary.txt"
cat "$out/summary.txt"
