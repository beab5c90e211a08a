#!/bin/sh
# Capture the small fixture traces of traces/small-*.dat on this machine.
#
#   tests/reader/capture-fixtures.sh [OUTDIR]      (root; default OUTDIR: traces)
#
# Each fixture is recorded in its own tracefs instance (or the top-level
# buffer for small-pipe), the way machine-notes.md describes: enable events
# through tracefs, run the workload, `trace-cmd extract` (v7, zstd). They are
# kept small (well under 1 MB: /proc/kallsyms, 5 MB here, is hidden from
# trace-cmd by a bind mount in a private mount namespace); the v6 / uncompressed / zlib conversions the
# tests need are made at test time with `trace-cmd convert`.
set -eu
OUT=${1:-traces}
T=/sys/kernel/tracing
CG=/sys/fs/cgroup/cpu/srfix
[ -d $T/events ] || mount -t tracefs nodev $T
mkdir -p "$OUT"

SCHED="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new
       sched/sched_migrate_task sched/sched_process_fork sched/sched_process_exec
       sched/sched_process_exit sched/sched_stat_runtime cgroup/cgroup_attach_task"

# start BUF_DIR SIZE_KB EVENTS...
start() {
	dir=$1; kb=$2; shift 2
	echo 0 > $dir/tracing_on
	echo > $dir/set_event
	echo "$kb" > $dir/buffer_size_kb
	echo > $dir/trace
	for e in "$@"; do echo 1 > $dir/events/$e/enable; done
	echo 1 > $dir/tracing_on
}

stop() {
	echo 0 > $1/tracing_on
	for e in $(cat $1/set_event); do echo "!$e" >> $1/set_event; done
}

# trace-cmd extract ARGS..., without kallsyms
extract() {
	: > /tmp/srfix-empty-kallsyms
	unshare -m sh -c "mount --bind /tmp/srfix-empty-kallsyms /proc/kallsyms &&
		trace-cmd extract $*" > /dev/null 2>&1
	rm -f /tmp/srfix-empty-kallsyms
}

# instance NAME OUTFILE SIZE_KB COMMAND EVENTS...
instance() {
	name=$1; out=$2; kb=$3; cmd=$4; shift 4
	mkdir -p $T/instances/$name
	start $T/instances/$name "$kb" "$@"
	sh -c "$cmd" > /dev/null 2>&1 || true
	stop $T/instances/$name
	extract -B $name -o "$out"
	rmdir $T/instances/$name 2> /dev/null || true
	echo "$out: $(stat -c %s "$out") bytes"
}

mkdir -p $CG
# hackbench started by a shell that joins the srfix cgroup and execs it:
# cgroup_attach_task, an exec comm change (sh -> hackbench), forks, exits.
instance srfix_hb "$OUT/small-hackbench.dat" 4096 \
	"echo \$\$ > $CG/cgroup.procs; exec hackbench -g 2 -f 4 -l 3000" $SCHED
# no sched_waking: sched_wakeup must start the interval
instance srfix_nw "$OUT/small-nowaking.dat" 4096 "hackbench -g 1 -f 4 -l 3000" \
	sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new sched/sched_migrate_task \
	sched/sched_process_fork sched/sched_process_exit
# a buffer far too small: the kernel overwrites events (lost events)
instance srfix_lost "$OUT/small-lost.dat" 8 "hackbench -g 2 -f 4 -l 400" $SCHED
# no sched events at all
instance srfix_ns "$OUT/small-nosched.dat" 64 "sleep 0.2" timer/hrtimer_start \
	timer/hrtimer_expire_entry
echo $$ > /sys/fs/cgroup/cpu/cgroup.procs
rmdir $CG 2> /dev/null || true

# the top-level buffer (not an instance): two tasks ping-ponging on a pipe
start $T 2048 sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_migrate_task \
	sched/sched_stat_runtime
perf bench sched pipe -l 4000 > /dev/null 2>&1 || true
stop $T
extract -o "$OUT/small-pipe.dat"
echo 1408 > $T/buffer_size_kb
echo "$OUT/small-pipe.dat: $(stat -c %s "$OUT/small-pipe.dat") bytes"
