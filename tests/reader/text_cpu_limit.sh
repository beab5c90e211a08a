#!/bin/sh
# A CPU number of 4096 or more (TRACE_MAX_CPUS, the model's MODEL_MAX_CPUS):
# report refuses it as replay does, one line naming the event and the CPU.
# Before 2 Dec 2026 report read a sched_wakeup with target_cpu=5000 in a
# 2-CPU text with exit 0, its task taken as woken onto another CPU (an
# untraced switch inferred, its wakeup latency 10 -> 260 us). Each of the
# wakeup's target_cpu, a migration's orig_cpu and dest_cpu; 4095 is taken.
# A negative one is refused as corrupted data (no kernel writes it).
# (The text reader refuses a [CPU] field above 4095 itself; an event's CPU
# of 4096 or more comes from a trace.dat.) Each line names the text's line
# (since 3 Dec 2026; before, only "CPU 1").
# usage: text_cpu_limit.sh SCHEDREPLAY WORKDIR
. "$(dirname "$0")/text_common.sh"
# $1 the CPU field of a sched_stat_runtime, $2 a sched_waking's target_cpu, $3 a
# sched_wakeup's, $4 $5 a migration's orig_cpu dest_cpu
text() {
	text_head 11
	cat <<EOT
               b-11      [001] d..2.   100.000250: sched_waking: comm=a pid=10 prio=120 target_cpu=$2
               b-11      [001] d..2.   100.000251: sched_wakeup: comm=a pid=10 prio=120 success=1 target_cpu=$3
               b-11      [$1] d..2.   100.000260: sched_stat_runtime: comm=b pid=11 runtime=30000 [ns] vruntime=1000000 [ns]
               a-10      [000] d..2.   100.000300: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
               b-11      [001] d..2.   100.000400: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0       [000] d..2.   100.000450: sched_migrate_task: comm=a pid=10 prio=120 orig_cpu=$4 dest_cpu=$5
          <idle>-0       [000] d..2.   100.000500: sched_waking: comm=a pid=10 prio=120 target_cpu=000
          <idle>-0       [000] d..2.   100.000510: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120
EOT
}

# name, CPU fields, the event and CPU the error names
for c in "waking 001 5000 000 0 0 CPU+1,+line+11:+sched_waking+names+CPU+5000" \
	 "wakeup 001 000 5000 0 0 CPU+1,+line+12:+sched_wakeup+names+CPU+5000" \
	 "orig 001 000 000 4096 0 CPU+0,+line+16:+sched_migrate_task+names+CPU+4096" \
	 "dest 001 000 000 0 65535 CPU+0,+line+16:+sched_migrate_task+names+CPU+65535"; do
	set -- $c
	text "$2" "$3" "$4" "$5" "$6" > "$work/$1.txt"
	msg=$(echo "$7" | tr + ' ')
	"$sr" report "$work/$1.txt" > "$work/$1.out" 2> "$work/$1.err"
	check "$1: report exits 1" $? 1
	[ "$(cat "$work/$1.err")" = "schedreplay report: $work/$1.txt: $msg: report, as replay, takes at most 4096 CPUs (corrupted data, or a larger machine)" ]
	check "$1: the one error line" $? 0
done
# a negative CPU number (-1 is "none given", the default of an absent
# target_cpu): exit 0 before 3 Dec 2026, a wakeup onto no CPU
for c in "waking-neg 001 -2 000 0 0 CPU+1,+line+11:+sched_waking+with+target_cpu+-2" \
	 "dest-neg 001 000 000 0 -5 CPU+0,+line+16:+sched_migrate_task+with+dest_cpu+-5"; do
	set -- $c
	text "$2" "$3" "$4" "$5" "$6" > "$work/$1.txt"
	msg=$(echo "$7" | tr + ' ')
	for cmd in report replay; do
		"$sr" $cmd "$work/$1.txt" > "$work/$1.out" 2> "$work/$1.err"
		check "$1: $cmd exits 1" $? 1
		[ "$(cat "$work/$1.err")" = "schedreplay $cmd: $work/$1.txt: corrupted data: $msg, which no kernel writes (a CPU number is 0 or more)" ]
		check "$1: $cmd: the one error line" $? 0
	done
done
text 001 4095 4095 4095 4095 > "$work/last.txt"
"$sr" report "$work/last.txt" > "$work/last.out" 2> "$work/last.err"
check "CPU 4095: report exits 0" $? 0
[ ! -s "$work/last.err" ]
check "CPU 4095: nothing on stderr" $? 0
exit $fail
