#!/bin/sh
# Values no kernel writes in an ftrace text (audit34, 3 Dec 2026; each was
# read at exit 0 before): a numeric prev_state outside 0 .. 0x1fff (-1,
# 0x10000; TRACE_STATE_UNION), a sched_stat_runtime runtime of 0 or above
# 2^62 ns (the kernel traces a positive s64 delta_exec only; 146 years), a
# cgroup_attach_task dst_level other than its dst_path's depth. report and
# replay each print one line naming the file, the CPU, the text's line and
# the field, and exit 1. The bounds are taken: prev_state 0x100 (4.14+'s
# preemption) and 0x1000 (4.11-4.13's TASK_STATE_MAX), runtime 2^62,
# dst_level 1 for "/a", and a line without dst_level.
# usage: text_bad_values.sh SCHEDREPLAY WORKDIR
. "$(dirname "$0")/text_common.sh"
# $1 the first switch's prev_state (numeric, as `trace-cmd report -R`), $2
# a sched_stat_runtime's runtime, $3 a cgroup_attach_task's dst_level field
# (-: none; it was dst_root=1 again, a field twice, refused since fuzz37)
text() {
	text_head 9
	cat <<EOT
               b-11      [001] d..2.   100.000250: cgroup_attach_task: dst_root=1 dst_id=7 ${3#-} dst_path=/a pid=11 comm=b
               b-11      [001] d..2.   100.000260: sched_stat_runtime: comm=b pid=11 runtime=$2 [ns]
               a-10      [000] d..2.   100.000300: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=$1 next_comm=swapper/0 next_pid=0 next_prio=120
               b-11      [001] d..2.   100.000400: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=1 next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0       [000] d..2.   100.000500: sched_waking: comm=a pid=10 prio=120 target_cpu=000
EOT
}

# name, prev_state, runtime, dst_level field, the line's middle (+ for a space)
for c in "state-neg -1 30000 dst_level=1 CPU+0,+line+13:+sched_switch+with+prev_state+-1" \
	 "state-high 0x10000 30000 dst_level=1 CPU+0,+line+13:+sched_switch+with+prev_state+0x10000" \
	 "runtime-0 1 0 dst_level=1 CPU+1,+line+12:+sched_stat_runtime+with+runtime+0" \
	 "runtime-2e62 1 4611686018427387905 dst_level=1 CPU+1,+line+12:+sched_stat_runtime+with+runtime+4611686018427387905" \
	 "runtime-2e63 1 9223372036854775808 dst_level=1 CPU+1,+line+12:+sched_stat_runtime+with+runtime+9223372036854775808" \
	 "runtime-max 1 18446744073709551615 dst_level=1 CPU+1,+line+12:+sched_stat_runtime+with+runtime+18446744073709551615" \
	 "level-neg 1 30000 dst_level=-1 CPU+1,+line+11:+cgroup_attach_task+with+dst_level+-1" \
	 "level-deep 1 30000 dst_level=1000 CPU+1,+line+11:+cgroup_attach_task+with+dst_level+1000"; do
	set -- $c
	text "$2" "$3" "$4" > "$work/$1.txt"
	msg=$(echo "$5" | tr + ' ')
	for cmd in report replay; do
		"$sr" $cmd "$work/$1.txt" > "$work/$1.out" 2> "$work/$1.err"
		check "$1: $cmd exits 1" $? 1
		[ "$(wc -l < "$work/$1.err")" = 1 ] &&
			grep -q "^schedreplay $cmd: $work/$1.txt: corrupted data: $msg, which no kernel writes (" "$work/$1.err"
		check "$1: $cmd: the one error line ($(cat "$work/$1.err"))" $? 0
	done
done
# the bounds: exit 0, nothing on stderr but replay's notes
for c in "state-preempt 0x100 4611686018427387904 dst_level=1" \
	 "state-old 0x1000 1 dst_level=1" "no-level 1 30000 -"; do
	set -- $c
	text "$2" "$3" "$4" > "$work/$1.txt"
	"$sr" report "$work/$1.txt" > "$work/$1.out" 2> "$work/$1.err"
	check "$1: report exits 0 ($(cat "$work/$1.err"))" $? 0
	"$sr" replay "$work/$1.txt" > "$work/$1.out" 2> "$work/$1.err"
	check "$1: replay exits 0" $? 0
done
# the header's CPU count (fuzz40): atoi() read "cpus=99999999999" as a
# wrapped int (ASan: out of memory allocating per-CPU state), "cpus=5000"
# as 5000 CPUs to simulate and "cpus=abc" or "#P:x" as none, at exit 0
for c in "cpus-huge cpus=99999999999" "cpus-over cpus=5000" "cpus-text cpus=abc" \
	 "cpus-zero cpus=0" "p-text #P:x"; do
	set -- $c
	case $2 in
	cpus=*) what=cpus=; { echo "$2"; text_head 4 | sed 1,6d; } > "$work/$1.txt" ;;
	*) what='#P:'; text_head 4 | sed "s/#P:2/$2/" > "$work/$1.txt" ;;
	esac
	line=$(grep -n -m1 -- "$what" "$work/$1.txt" | cut -d: -f1)
	"$sr" report "$work/$1.txt" > "$work/$1.out" 2> "$work/$1.err"
	check "$1: report exits 1" $? 1
	[ "$(cat "$work/$1.err")" = "schedreplay report: $work/$1.txt: ftrace text: line $line: $what is not a CPU count 1..4096 (corrupted header)" ]
	check "$1: the one error line ($(cat "$work/$1.err"))" $? 0
done
# 4096 CPUs and "cpus=2 " are a count
for c in "cpus-max cpus=4096" "cpus-blank cpus=2+"; do
	set -- $c
	{ echo "$2" | tr + ' '; text_head 4 | sed 1,6d; } > "$work/$1.txt"
	"$sr" report "$work/$1.txt" > "$work/$1.out" 2> "$work/$1.err"
	check "$1: report exits 0 ($(cat "$work/$1.err"))" $? 0
done
# a header's CPU count below the events' CPUs (fuzz41; both were raised to
# the events' without a word): trace-cmd report's cpus=N is the trace.dat's
# count, which no event exceeds, so an error naming the first event past it;
# tracefs' #P:N counts the CPUs online when the text was read, so the count
# is raised and the output says why
{ echo "cpus=1"; text_head 4 | sed 1,6d; } > "$work/cpus-low.txt"
"$sr" report "$work/cpus-low.txt" > "$work/cpus-low.out" 2> "$work/cpus-low.err"
check "cpus-low: report exits 1" $? 1
[ "$(cat "$work/cpus-low.err")" = "schedreplay report: $work/cpus-low.txt: ftrace text: line 4: an event on CPU 1, but the text's cpus= line says 1 CPU(s) (trace-cmd report prints the trace.dat's CPU count, which its events stay below: a corrupted or edited text)" ]
check "cpus-low: the one error line ($(cat "$work/cpus-low.err"))" $? 0
text_head 4 | sed "s/#P:2/#P:1/" > "$work/p-low.txt"
"$sr" report "$work/p-low.txt" > "$work/p-low.out" 2> "$work/p-low.err"
check "p-low: report exits 0 ($(cat "$work/p-low.err"))" $? 0
grep -q "^trace: .*(ftrace text, 2 CPUs: the highest CPU with events + 1; the #P: header says 1, the CPUs online when the text was read)" "$work/p-low.out"
check "p-low: report says where its 2 CPUs come from" $? 0
"$sr" replay "$work/p-low.txt" > "$work/p-low.out" 2> "$work/p-low.err"
check "p-low: replay exits 0" $? 0
grep -q "^cpus: .*the #P: header says 1, the CPUs online when the text was read" "$work/p-low.out"
check "p-low: replay's cpus line says it" $? 0
# a lost-events line's CPU:N and count (fuzz41): CPU:-1 and CPU:99999 made
# it no drop line (its lost events dropped without a word, "lost: none"),
# a count past 2^64 was read as "at least 1", 2^64-2 as that many, "5x" as 5
for c in "lost-cpu-neg CPU:-1+[LOST+5+EVENTS] CPU:N" \
	 "lost-cpu-huge CPU:99999+[LOST+5+EVENTS] CPU:N" \
	 "lost-n-huge CPU:1+[LOST+99999999999999999999999+EVENTS] count" \
	 "lost-n-2e64 CPU:1+[LOST+18446744073709551614+EVENTS] count" \
	 "lost-n-junk CPU:1+[LOST+5x+EVENTS] count" \
	 "drop-n-huge CPU:1+[281474976710657+EVENTS+DROPPED] count"; do
	set -- $c
	{ text_head 5; echo "$2" | tr + ' '; echo "          <idle>-0       [001] d..2.   100.000300: sched_waking: comm=b pid=11 prio=120 target_cpu=001"; } > "$work/$1.txt"
	"$sr" report "$work/$1.txt" > "$work/$1.out" 2> "$work/$1.err"
	check "$1: report exits 1" $? 1
	[ "$(wc -l < "$work/$1.err")" = 1 ] &&
		grep -q "^schedreplay report: $work/$1.txt: ftrace text: line 11: not an ftrace event line: a lost-events line's $3 " "$work/$1.err"
	check "$1: the one error line ($(cat "$work/$1.err"))" $? 0
done
# 2^48 lost in one line is a count
{ text_head 5; echo "CPU:1 [LOST 281474976710656 EVENTS]"; echo "          <idle>-0       [001] d..2.   100.000300: sched_waking: comm=b pid=11 prio=120 target_cpu=001"; } > "$work/lost-max.txt"
"$sr" report --allow-lost "$work/lost-max.txt" > "$work/lost-max.out" 2> "$work/lost-max.err"
check "lost-max: report exits 0" $? 0
grep -q "^lost: *281474976710656 events" "$work/lost-max.out"
check "lost-max: 2^48 events lost" $? 0
exit $fail
