#!/bin/sh
# A tracefs `trace` read after its ring buffer overran: the header
# "# entries-in-buffer/entries-written: 6/25" says 19 events were overwritten,
# the oldest of the CPUs that overran (which ones it does not say). Each CPU's
# first record then follows a gap of unknown size: report warns per CPU and
# exits 1 (0 with --allow-lost), replay puts each CPU's lost-events window
# from the trace start to its first record. Before 2 Dec 2026 this read as "lost: none", exit 0.
# The same text with 6/6 lost nothing.
# usage: text_overwritten.sh SCHEDREPLAY WORKDIR
sr=$1
work=$2
mkdir -p "$work" || exit 1
fail=0
body='#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
          <idle>-0       [000] d..2.   100.000100: sched_waking: comm=a pid=10 prio=120 target_cpu=000
          <idle>-0       [000] d..2.   100.000110: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120
##### CPU 1 buffer started ####
          <idle>-0       [001] d..2.   100.000200: sched_waking: comm=b pid=11 prio=120 target_cpu=001
          <idle>-0       [001] d..2.   100.000230: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=11 next_prio=120
               a-10      [000] d..2.   100.000300: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
               b-11      [001] d..2.   100.000400: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120'
printf '# tracer: nop\n#\n# entries-in-buffer/entries-written: 6/25   #P:2\n%s\n' "$body" > "$work/over.txt"
printf '# tracer: nop\n#\n# entries-in-buffer/entries-written: 6/6   #P:2\n%s\n' "$body" > "$work/full.txt"

check() {  # description, command status, wanted status
	if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1 (got $2, want $3)"; fail=1; fi
}

"$sr" report "$work/over.txt" > "$work/over.out" 2> "$work/over.err"
check "overrun text: report exits 1" $? 1
grep -q '^lost:    >= 2 events (CPU 0: 1, CPU 1: 1) -- partial results$' "$work/over.out"
check "overrun text: lost line names both CPUs" $? 0
[ "$(grep -c 'at least 1 events lost (ring buffer overrun)' "$work/over.err")" = 2 ]
check "overrun text: one warning per CPU" $? 0
"$sr" report --allow-lost "$work/over.txt" > /dev/null 2>&1
check "overrun text: --allow-lost exits 0" $? 0
"$sr" replay "$work/over.txt" > "$work/over.replay" 2> /dev/null
grep -q 'the trace holds no record of CPU 0 before the trace start (an unknown number lost), CPU 1 in \[100.000100, 100.000200) (an unknown number lost)' "$work/over.replay"
check "overrun text: replay's lost-events windows" $? 0
"$sr" report "$work/full.txt" > "$work/full.out" 2> "$work/full.err"
check "complete text: report exits 0" $? 0
grep -q '^lost:    none$' "$work/full.out"
check "complete text: lost none" $? 0
exit $fail
