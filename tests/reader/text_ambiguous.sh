#!/bin/sh
# A comm, filename or cgroup path holding " KEY=" of its event's own fields
# (fuzz37, 4 Dec 2026): a task may name itself "x pid=5" (prctl
# PR_SET_NAME, 15 bytes), and in the text its sched_waking reads
# "comm=x pid=5 pid=12 ...". The fields split at " KEY=", and the first
# pid= was read: the wakeup of pid 5, at exit 0. Such a line is ambiguous:
# report and replay print one line naming the file, the text's line and the
# field, and exit 1. A comm with a space and no '=' ("Web Content") is read
# as before.
# usage: text_ambiguous.sh SCHEDREPLAY WORKDIR
. "$(dirname "$0")/text_common.sh"
# $1: the line 11 (after text_head's four events), task c (pid 12) on CPU 0
text() {
	text_head 7
	cat <<EOT
$1
               a-10      [000] d..2.   100.000300: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
               b-11      [001] d..2.   100.000400: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
EOT
}
W='               a-10      [000] d..2.   100.000250:'
# name, the field given twice, line 11
check_err() {
	text "$3" > "$work/$1.txt"
	for cmd in report replay; do
		"$sr" $cmd "$work/$1.txt" > "$work/$1.out" 2> "$work/$1.err"
		check "$1: $cmd exits 1" $? 1
		[ "$(wc -l < "$work/$1.err")" = 1 ] &&
			grep -q "^schedreplay $cmd: $work/$1.txt: .*line 11: .*field '$2=' appears twice" \
				"$work/$1.err"
		check "$1: $cmd: the one error line ($(cat "$work/$1.err"))" $? 0
	done
}
# name (its text in $work/NAME.txt), a line report's output must have (the
# comm whole), one replay's must have: both exit 0
check_ok() {
	for cmd in report replay; do
		if [ $cmd = report ]; then want=$2; else want=$3; fi
		"$sr" $cmd --top 0 "$work/$1.txt" > "$work/$1.out" 2> "$work/$1.err"
		check "$1: $cmd exits 0 ($(cat "$work/$1.err"))" $? 0
		grep -q "$want" "$work/$1.out"
		check "$1: $cmd prints '$want'" $? 0
	done
}
check_err waking-comm pid "$W sched_waking: comm=x pid=5 pid=12 prio=120 target_cpu=000"
check_err switch-comm prev_pid "$W sched_switch: prev_comm=x prev_pid=7 prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=c next_pid=12 next_prio=120"
check_err runtime-comm pid "$W sched_stat_runtime: comm=a pid=3 pid=10 runtime=1000 [ns]"
check_err fork-child child_pid "$W sched_process_fork: comm=a pid=10 child_comm=x child_pid=5 child_pid=12"
check_err cgroup-path pid "$W cgroup_attach_task: dst_root=1 dst_id=7 dst_level=1 dst_path=/a pid=3 pid=10 comm=a"
# a comm holding " KEY=" of a field its event may have but does not here
# (success=, vruntime=: older kernels'): the comm runs to its follower
# field (pid=), read whole; it was cut at the key and the key read: a
# sched_wakeup of success=0 wakes nothing (replay measured 0 sched_wakeup)
text "               a-10      [000] d..2.   100.000250: sched_wakeup: comm=x success=0 pid=12 prio=120 target_cpu=000
               a-10      [000] d..2.   100.000260: sched_stat_runtime: comm=a pid=10 runtime=1000 [ns]
               a-10      [000] d..2.   100.000270: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=R+ ==> next_comm=x success=0 next_pid=12 next_prio=120
     x success=0-12      [000] d..2.   100.000280: sched_stat_runtime: comm=x success=0 pid=12 runtime=1000 [ns]
     x success=0-12      [000] d..2.   100.000290: sched_switch: prev_comm=x success=0 prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=a next_pid=10 next_prio=120" > "$work/key.txt"
check_ok key "^ *12 x success=0 " "^ *sched_wakeup  *1 "
# cgroup_attach_task in -R's struct order (pid= before dst_path=, comm=
# last): the path runs to " comm=", the comm to the end of the line
text "$W cgroup_attach_task: dst_root=1 dst_level=1 dst_id=7 pid=11 dst_path=/a comm=x dst_path=/b/c" > "$work/raw.txt"
"$sr" report --by cgroup "$work/raw.txt" > "$work/raw.out" 2> "$work/raw.err"
check "raw: report exits 0 ($(cat "$work/raw.err"))" $? 0
# a comm with a space and no '=': read, exit 0, the comm whole
text "$W sched_waking: comm=Web Content pid=12 prio=120 target_cpu=000" > "$work/space.txt"
check_ok space "Web Content" "^ *sched_switch  *4 "
exit $fail
