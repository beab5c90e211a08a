# Sourced by the ftrace text tests (text_cpu_limit.sh, text_bad_values.sh):
# their arguments SCHEDREPLAY WORKDIR, a check(), and the lines their texts
# begin with.
sr=$1
work=$2
mkdir -p "$work" || exit 1
fail=0

check() {  # description, command status, wanted status
	if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1 (got $2, want $3)"; fail=1; fi
}

# tracefs `trace`'s header for $1 entries on 2 CPUs, then tasks a (pid 10)
# and b (11) woken and switched in on CPUs 0 and 1: lines 7-10
text_head() {
	cat <<EOT
# tracer: nop
#
# entries-in-buffer/entries-written: $1/$1   #P:2
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
          <idle>-0       [000] d..2.   100.000100: sched_waking: comm=a pid=10 prio=120 target_cpu=000
          <idle>-0       [000] d..2.   100.000110: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120
          <idle>-0       [001] d..2.   100.000200: sched_waking: comm=b pid=11 prio=120 target_cpu=001
          <idle>-0       [001] d..2.   100.000230: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=11 next_prio=120
EOT
}
