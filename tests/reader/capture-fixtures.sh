#!/bin/sh
# Capture the small fixture traces of traces/small-*.dat on this machine.
#
#   tests/reader/capture-fixtures.sh [OUTDIR [NAME...]]
#       (root; default OUTDIR: traces; NAME: hackbench nowaking lost nosched pipe)
#
# Each fixture is recorded in its own tracefs instance (or the top-level
# buffer for small-pipe), the way machine-notes.md describes: enable events
# through tracefs, run the workload, `trace-cmd extract` (v7, zstd). They are
# kept small (< 250 KB: /proc/kallsyms, 5 MB here, is hidden from trace-cmd by
# a bind mount in a private mount namespace); the v6 / uncompressed / zlib
# conversions the tests need are made at test time with `trace-cmd convert`.
#
# Why not `schedreplay capture`: it writes v6 uncompressed with a sidecar from
# its own instance, while these fixtures are the reader's cases - v7 zstd as
# `trace-cmd extract` writes it, the top-level buffer (small-pipe), a buffer
# without sched_waking (small-nowaking), a ring buffer so small that the kernel
# drops events (small-lost), no sched events (small-nosched) - and have no
# sidecar (report_sidecar writes its own next to small-hackbench).
#
# The kernel traces everything on the machine, so before each capture the
# script waits for the CPUs to be quiet (two 2-s samples in a row < 10 % busy),
# and during it a second instance (`srfix_watch`: sched_switch and
# sched_process_fork, 4 MB per CPU) records every context switch of the same
# window. traces/foreign.py measures the foreign load on that record (a
# throw-away sidecar names the workload's shell as its group, this script as
# its command, and the kernel threads); a capture with foreign userspace above
# 1.5 % of its context switches (and more than 5 of them) is thrown away and
# made again (up to 8 times), and so is one of 250 KB or more.
# small-lost is also made again until one CPU's gap has a count and the other's
# has none (the kernel stores the count only when it fits at the end of the
# page). The log (uptime, busiest processes, foreign.py's line, size) goes to
# OUTDIR/capture-fixtures.log.
set -eu
OUT=${1:-traces}
[ $# -gt 0 ] && shift
WANT=${*:-hackbench nowaking lost nosched pipe}
here=$(cd "$(dirname "$0")" && pwd)
foreign=$here/../../traces/foreign.py
T=/sys/kernel/tracing
CG=/sys/fs/cgroup/cpu/srfix
W=$T/instances/srfix_watch
[ -d $T/events ] || mount -t tracefs nodev $T
mkdir -p "$OUT"
log=$OUT/capture-fixtures.log
scratch=$(mktemp -d /tmp/srfix.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
MAX_FOREIGN=1.5

SCHED="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new
       sched/sched_migrate_task sched/sched_process_fork sched/sched_process_exec
       sched/sched_process_exit sched/sched_stat_runtime cgroup/cgroup_attach_task"

. "$here/../../traces/quiet.sh"

# start BUF_DIR SIZE_KB EVENTS...
start() {
	local d=$1 k=$2 e
	shift 2
	echo 0 > $d/tracing_on
	echo > $d/set_event
	echo "$k" > $d/buffer_size_kb
	echo > $d/trace
	for e in "$@"; do echo 1 > $d/events/$e/enable; done
	echo 1 > $d/tracing_on
}

stop() {
	local e
	echo 0 > $1/tracing_on
	for e in $(cat $1/set_event); do echo "!$e" >> $1/set_event; done
}

# trace-cmd extract ARGS..., without kallsyms
extract() {
	: > $scratch/empty-kallsyms
	unshare -m sh -c "mount --bind $scratch/empty-kallsyms /proc/kallsyms &&
		trace-cmd extract $*" > /dev/null 2>&1
}

# kernel threads now, as sidecar tasks without an autogroup (foreign.py's rule)
kthreads_json() {
	local s line pid rest ppid
	for s in /proc/[0-9]*/stat; do
		# pid (comm) state ppid ...: kthreadd is pid 2, its children have ppid 2
		{ read -r line < "$s"; } 2> /dev/null || continue
		pid=${line%% *}
		rest=${line##*) }
		ppid=$(echo "$rest" | cut -d' ' -f2)
		[ "$pid" = 2 ] || [ "$ppid" = 2 ] && printf '{"pid": %s},' "$pid"
	done
	printf '{"pid": 2}'
}

# run_watched BUF_DIR NAME COMMAND (with $kt set): run COMMAND in the background
# (its shell's pid is the workload's root) while srfix_watch records every
# switch; stop both buffers; write the sidecar foreign.py needs next to
# $scratch/NAME.watch.dat (extracted later: the fixture's buffer first)
run_watched() {
	local d=$1 n=$2 c=$3 pid
	sh -c "$c" > /dev/null 2>&1 &
	pid=$!
	wait $pid || true
	stop $d
	stop $W
	printf '{"trace": {"nr_cpus": %s}, "groups": [{"pid": %s}], "command": {"pid": %s},
	        "tasks_at_start": [%s]}\n' "$(nproc)" "$pid" "$$" "$kt" > $scratch/$n.watch.dat.json
}

# foreign_ok NAME: foreign.py on the watcher's record; true if foreign
# userspace is at most MAX_FOREIGN % of its switches, or at most 5 switches
# (an idle machine's resident processes in small-nosched's 0.2 s of ~50
# switches: one switch is 2 % there)
foreign_ok() {
	local line n pct
	line=$(python3 "$foreign" $scratch/$1.watch.dat | sed -n 1p)
	echo "  $line" | tee -a "$log"
	n=$(echo "$line" | sed -n 's/.*foreign userspace \([0-9]*\) (\([0-9.]*\)%).*/\1/p')
	pct=$(echo "$line" | sed -n 's/.*foreign userspace \([0-9]*\) (\([0-9.]*\)%).*/\2/p')
	[ -n "$pct" ] && awk -v n="$n" -v p="$pct" -v m=$MAX_FOREIGN 'BEGIN { exit !(p <= m || n <= 5) }'
}

# lost_both FILE: one CPU's gap has a count, another CPU's has none
lost_both() {
	local drops
	drops=$(trace-cmd report "$1" 2> /dev/null | grep 'EVENTS DROPPED' || true)
	echo "  drops: $(echo "$drops" | tr '\n' ' ')" >> "$log"
	echo "$drops" | grep -q '\[[0-9][0-9]* EVENTS DROPPED\]' &&
		echo "$drops" | grep -q '\[EVENTS DROPPED\]'
}

# capture NAME OUTFILE BUF SIZE_KB COMMAND EVENTS...: BUF is an instance name,
# or "" for the top-level buffer; retried until clean (and, for small-lost,
# until it has both kinds of gap)
capture() {
	name=$1; out=$2; buf=$3; kb=$4; cmd=$5; shift 5
	tries=0 max=8
	[ "$name" = lost ] && max=40
	while :; do
		tries=$((tries + 1))
		quiet_machine "$name (try $tries)"
		if [ -n "$buf" ]; then
			dir=$T/instances/$buf
			mkdir -p $dir
		else
			dir=$T
			topkb=$(cat $T/buffer_size_kb)
		fi
		kt=$(kthreads_json)
		mkdir -p $W
		start $W 4096 sched/sched_switch sched/sched_process_fork
		start $dir "$kb" "$@"
		run_watched $dir $name "$cmd"
		if [ -n "$buf" ]; then
			extract -B $buf -o "$out"
			rmdir $dir 2> /dev/null || true
		else
			extract -o "$out"
			echo "$topkb" > $T/buffer_size_kb
		fi
		extract -B srfix_watch -o $scratch/$name.watch.dat
		rmdir $W 2> /dev/null || true
		echo "$out: $(stat -c %s "$out") bytes, $(date -u +%FT%TZ), $(uptime)" | tee -a "$log"
		ok=true
		foreign_ok $name || ok=false
		[ "$(stat -c %s "$out")" -lt 256000 ] || { echo "  too large" | tee -a "$log"; ok=false; }
		if [ "$name" = lost ] && $ok && ! lost_both "$out"; then ok=false; fi
		$ok && break
		[ $tries -lt $max ] || { echo "$name: not clean after $tries tries" | tee -a "$log"; exit 1; }
		echo "  retrying $name" | tee -a "$log"
	done
}

# multibuf OUTDIR: multibuf-all.dat (`extract -a -t`: the sched events in the top
# level and in instance srmb_s, hrtimer events in srmb_t), multibuf-inst.dat
# (`extract -t -B srmb_s`: hrtimer events in the top level, the sched events
# in srmb_s), multibuf-only.dat (`extract -B srmb_s`: a top level of 0 CPUs).
# `trace-cmd extract -a` / `-B` removes the instances it read; the top level's
# events, size and tracing_on are put back.
multibuf() {
	local o=$1 s=$T/instances/srmb_s t=$T/instances/srmb_t kb on
	local tmr="timer/hrtimer_start timer/hrtimer_expire_entry"
	local ev="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new
		  sched/sched_migrate_task sched/sched_process_fork sched/sched_process_exec
		  sched/sched_process_exit sched/sched_stat_runtime"
	kb=$(cut -d' ' -f1 $T/buffer_size_kb)
	on=$(cat $T/tracing_on)
	quiet_machine multibuf
	mkdir -p $s $t
	start $T 1024 $ev
	start $s 1024 $ev
	start $t 64 $tmr
	perf bench sched pipe -l 400 > /dev/null 2>&1
	stop $T; stop $s; stop $t
	extract -a -t -o "$o/multibuf-all.dat"
	mkdir -p $s
	start $T 64 $tmr
	start $s 1024 $ev
	perf bench sched pipe -l 400 > /dev/null 2>&1
	stop $T; stop $s
	extract -t -B srmb_s -o "$o/multibuf-inst.dat"
	mkdir -p $s
	start $s 1024 $ev
	perf bench sched pipe -l 400 > /dev/null 2>&1
	stop $s
	extract -B srmb_s -o "$o/multibuf-only.dat"
	for d in $s $t; do [ -d $d ] && rmdir $d; done
	echo "$kb" > $T/buffer_size_kb
	echo > $T/trace
	echo "$on" > $T/tracing_on
	ls -l "$o"/multibuf-*.dat | tee -a "$log"
}

for n in $WANT; do
	case $n in
	hackbench)
		# hackbench started by a shell that joins the srfix cgroup and execs it:
		# cgroup_attach_task, an exec comm change (sh -> hackbench), forks, exits.
		mkdir -p $CG
		capture hackbench "$OUT/small-hackbench.dat" srfix_hb 4096 \
			"echo \$\$ > $CG/cgroup.procs; exec hackbench -g 2 -f 4 -l 3000" $SCHED
		rmdir $CG 2> /dev/null || true ;;
	nowaking)
		# no sched_waking: sched_wakeup must start the interval
		capture nowaking "$OUT/small-nowaking.dat" srfix_nw 4096 "hackbench -g 1 -f 4 -l 3000" \
			sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new sched/sched_migrate_task \
			sched/sched_process_fork sched/sched_process_exit ;;
	lost)
		# a buffer far too small: the kernel overwrites events (lost events)
		capture lost "$OUT/small-lost.dat" srfix_lost 8 "hackbench -g 2 -f 4 -l 400" $SCHED ;;
	nosched)
		# no sched events at all
		capture nosched "$OUT/small-nosched.dat" srfix_ns 64 "sleep 0.2" timer/hrtimer_start \
			timer/hrtimer_expire_entry ;;
	pipe)
		# the top-level buffer (not an instance): two tasks ping-ponging on a pipe;
		# 2500 round trips (4000 until 2026-11-30: on a quiet machine the pair
		# often splits across the CPUs, with idle in between, and 4000 no longer
		# fits in 250 KB)
		capture pipe "$OUT/small-pipe.dat" "" 2048 "perf bench sched pipe -l 2500" \
			sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_migrate_task \
			sched/sched_stat_runtime ;;
	multibuf)
		# not in the default list: three files of several buffers for
		# tests/reader/multibuf.py (buf52; made with OUTDIR tests/reader/data),
		# no foreign-load check (they test the file's structure, not figures)
		multibuf "$OUT" ;;
	*)
		echo "unknown fixture '$n' (hackbench nowaking lost nosched pipe multibuf)" >&2; exit 2 ;;
	esac
done
