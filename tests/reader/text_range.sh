#!/bin/sh
# ftrace text whose numbers are out of range (found by tests/reader/fuzz.py):
# a CPU of 2^31 indexed the lost-event tables out of bounds, a pid of 2^32
# wrapped to 0 and seconds beyond 2^64 ns wrapped to a small timestamp, with
# exit 0. Each must be one line on stderr naming the file and the line, and a
# non-zero exit.
# usage: text_range.sh SCHEDREPLAY WORKDIR
sr=$1
work=$2
mkdir -p "$work" || exit 1
fail=0
head='cpus=2
 capture-fixture-18454 [000] 11514.477841123: sched_stat_runtime:   comm=capture-fixture pid=18454 runtime=1248699 [ns]
 capture-fixture-18454 [000] 11514.477900071: sched_stat_runtime:   comm=capture-fixture pid=18454 runtime=59539 [ns]'
sw='sched_switch:         prev_comm=capture-fixture prev_pid=18454 prev_prio=120 prev_state=S ==> next_comm=capture-fixture next_pid=22001 next_prio=120'

check() {  # name, expected text of the error, line 4 of the input
	f=$work/$1.txt
	printf '%s\n%s\n' "$head" "$3" > "$f"
	"$sr" report "$f" > "$work/$1.out" 2> "$work/$1.err"
	rc=$?
	n=$(grep -c . "$work/$1.err")
	if [ $rc -eq 0 ] || [ $rc -gt 128 ] || [ "$n" -ne 1 ] ||
	   ! grep -q "$1.txt.*line 4: .*$2" "$work/$1.err"; then
		echo "FAIL $1: exit $rc, $n stderr lines, expected one with 'line 4: ... $2':"
		head -c 2000 "$work/$1.err"
		fail=1
	else
		echo "ok $1: $(cat "$work/$1.err")"
	fi
}

check cpu-2p31 'CPU number is above 4095' \
	" capture-fixture-18454 [2147483648] 11514.477903596: $sw"
check cpu-2p66 'CPU number is above 4095' \
	" capture-fixture-18454 [99999999999999999999] 11514.477903596: $sw"
check cpu-4096 'CPU number is above 4095' \
	" capture-fixture-18454 [4096] 11514.477903596: $sw"
check pid-2p32 'pid is above' \
	" capture-fixture-4294967296 [000] 11514.477903596: $sw"
check sec-2p66 'time stamp is beyond 2^64 ns' \
	" capture-fixture-18454 [000] 99999999999999999999.477903596: $sw"
check sec-2p64ns 'time stamp is beyond 2^64 ns' \
	" capture-fixture-18454 [000] 18446744074.000000000: $sw"
check field-pid-2p32 'next_pid is not a pid' \
	" capture-fixture-18454 [000] 11514.477903596: sched_switch: prev_comm=capture-fixture prev_pid=18454 prev_prio=120 prev_state=S ==> next_comm=x next_pid=4294967296 next_prio=120"
check field-pid-neg 'pid is not a pid' \
	" capture-fixture-18454 [000] 11514.477903596: sched_waking: comm=x pid=-5 prio=120 target_cpu=001"
exit $fail
