#!/bin/sh
# Re-capture the workload traces of this directory (see README.md).
#
#   sudo traces/capture.sh BUILD_DIR [NAME...]
#
# BUILD_DIR holds the schedreplay and schedreplay-probe binaries. NAME picks
# workloads (default: all). The compile workload needs the Lua 5.4.4 sources
# from Debian in $LUA_DIR (default /work/src/lua-5.4.4):
#   apt-get source --download-only lua5.4   # needs a deb-src line
#   tar xzf lua5.4_5.4.4.orig.tar.gz        # upstream tree, plain Makefile
# Before each capture the script waits (up to 2 minutes) for the machine to be
# quiet (two 2-s samples in a row with the CPUs less than 10% busy) and logs
# uptime, the busiest processes and, after the capture, the busiest comms of
# the trace to capture.log, so README.md can say what else was running.
set -eu
build=$(cd "${1:?usage: capture.sh BUILD_DIR [NAME...]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
sr=$build/schedreplay
probe=$build/schedreplay-probe
lua=${LUA_DIR:-/work/src/lua-5.4.4}
log=$here/capture.log
scratch=$(mktemp -d /tmp/sr-capture.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

. "$here/quiet.sh"

# The busiest comms of a capture, to spot foreign activity.
top_comms() {
	command -v trace-cmd >/dev/null || return 0
	echo "top comms in $1:"
	trace-cmd report "$1" 2>/dev/null | awk 'NR > 1 { c = $1; sub(/-[0-9]+$/, "", c); n[c]++ }
		END { for (c in n) print n[c], c }' | sort -rn | head -12
}

cap() {   # cap NAME ARGS...: one capture into $here/NAME.dat
	name=$1; shift
	quiet_machine "$name"
	echo "capture $name: $sr capture -o $here/$name.dat $*" | tee -a "$log"
	"$sr" capture -o "$here/$name.dat" "$@" 2>&1 | tee -a "$log"
	top_comms "$here/$name.dat" >>"$log"
}

want() {   # is workload $1 selected (all are when no NAME was given)?
	[ -z "$WANT" ] && return 0
	for w in $WANT; do [ "$w" = "$1" ] && return 0; done
	return 1
}
WANT="$*"

compile() {   # the make -j8 + latency probe workload; $2: more capture options
	make -s -C "$lua" clean >/dev/null
	cap "$1" -d 4 ${2:-} \
		-g "compile:shares=1024=while :; do make -s -C $lua clean; make -s -C $lua -j8 linux; done >/dev/null 2>&1" \
		-g "latency:shares=1024=$probe -m 1 -t 2 -i 2000 -w 100 -r 60 --json -o $here/$1.probe.json"
	make -s -C "$lua" clean >/dev/null
}

# the same workload three times: the hardware's run-to-run spread
for run in make-probe make-probe-run2 make-probe-run3; do
	if want $run; then compile $run; fi
done
# a fourth time with the kernel's run-queue state read every 50 ms (sched/debug:
# the compile group's many short tasks move tg->load_avg all the time)
if want make-probe-sd; then compile make-probe-sd "--sched-debug-every 50"; fi
# workload (2) three times as well: its run-to-run spread
for run in hackbench-shares hackbench-shares-run2 hackbench-shares-run3; do
	if want $run; then
		cap $run -d 4 \
			-g "pipe:shares=2048=hackbench -p -g 1 -f 10 -l 1200" \
			-g "socket:shares=512=hackbench -g 1 -f 10 -l 1200"
	fi
done
# the channel fixtures (issue 5, docs/validation-log.md "Eleventh pass"): workload
# (2) with the read/write syscall events, which show each message a task
# writes or reads. Every message is four more records (~150 bytes in the
# file), so a capture under 5 MB holds ~20 000 messages, a twelfth of
# workload (2)'s. 5 senders x 5 receivers per group, 400 messages each: at
# 10 x 10 with 80 (the same messages) the 10-30 ms runs spent much of their
# time forking 40 tasks (traces/README.md, "Channel captures", has the trials).
# small-chan.dat (the reader's fixture, <= 1.5 MB): 5 x 5 with 100. 16 MB per
# CPU holds a whole capture: nothing depends on the streaming keeping up with
# ~2 M records/s.
SYSCALLS="-e syscalls:sys_enter_read -e syscalls:sys_exit_read
	-e syscalls:sys_enter_write -e syscalls:sys_exit_write"
if want small-chan; then
	cap small-chan -d 4 -b 16384 --strict $SYSCALLS \
		-g "pipe:shares=2048=hackbench -p -g 1 -f 5 -l 100" \
		-g "socket:shares=512=hackbench -g 1 -f 5 -l 100"
fi
for run in hackbench-chan hackbench-chan-run2 hackbench-chan-run3; do
	if want $run; then
		cap $run -d 4 -b 16384 --strict $SYSCALLS \
			-g "pipe:shares=2048=hackbench -p -g 1 -f 5 -l 400" \
			-g "socket:shares=512=hackbench -g 1 -f 5 -l 400"
	fi
done
# the smallest local-preemption case (docs/validation-log.md, "The capture's own
# reader"): perf bench sched pipe's two tasks pinned to CPU 1, each write waking
# the other there; three times, the spread.  Captured with the reader that
# empties the buffer at each wake, so the reader never wakes inside the pair
pipe_pinned() {
	cap "$1" -d 4 -g "pipe=taskset -c 1 perf bench sched pipe -l 5000"
}
# run4 (5 Dec 2026): the capture records sched_setaffinity() and each thread's
# Cpus_allowed_list, so --placement model pins the pair from taskset's call
for run in pipe-pinned pipe-pinned-run2 pipe-pinned-run3 pipe-pinned-run4; do
	if want $run; then pipe_pinned $run; fi
done
# forkexec three times as well: its run-to-run spread
for run in forkexec forkexec-run2 forkexec-run3; do
	if want $run; then
		cap $run -d 3 -g "forkexec=sh -c 'seq 3000 | xargs -P 4 -n 1 /bin/true'"
	fi
done
if want hog-timer; then
	cap hog-timer -d 4 \
		-g "hog:shares=1024=stress-ng --cpu 2 --cpu-method int64 --timeout 60 --quiet" \
		-g "timer:shares=1024=$probe -m 1 -t 1 -i 1000 -w 20 -r 60 --json -o $here/hog-timer.probe.json"
fi
# CPU bandwidth (docs/replay.md, "CPU bandwidth"): two CPU hogs and a latency
# probe in group `limited` with a CPU bandwidth limit of 20 ms per 100 ms
# (-g ...:quota=20000/100000: cpu.cfs_quota_us 20000, cpu.cfs_period_us
# 100000, recorded in the sidecar's cgroup section, which the replay reads),
# a second probe in a group of its own, unlimited.  The committed bw-hogs.dat
# predates quota= and used a hand-made cgroup /srbw (traces/README.md).
# three times (the spread): bw-hogs-run2 and -run3 were made with quota=
for run in bw-hogs bw-hogs-run2 bw-hogs-run3; do
	if want $run; then
		cap $run -d 1.5 \
			-g "free:shares=1024=$probe -m 1 -t 1 -i 2000 -w 50 -r 60 --json -o $here/$run.free.probe.json" \
			-g "limited:shares=1024,quota=20000/100000=stress-ng --cpu 2 --cpu-method int64 --timeout 60 --quiet & exec $probe -m 1 -t 1 -i 2000 -w 50 -r 60 --json -o $here/$run.limited.probe.json"
	fi
done
if want idle-io; then
	cap idle-io -d 2 \
		-g "disk=dd if=/dev/zero of=$scratch/io bs=4M count=100000 oflag=direct,dsync" \
		-g "w1=$probe -t 1 -i 3000 -w 10 -r 60 --json -o $here/idle-io.w1.probe.json" \
		-g "w2=$probe -t 1 -i 3000 -w 10 -r 60 --json -o $here/idle-io.w2.probe.json" \
		-g "w3=$probe -t 1 -i 3000 -w 10 -r 60 --json -o $here/idle-io.w3.probe.json"
fi
# PELT against the kernel's own values (traces/README.md "PELT captures"):
# threads that stay alive to the end with known duty cycles, so that the
# sidecar's sched_at_end (read before the workloads are stopped) holds the
# kernel's se.avg of threads asleep at their last traced block.  A CPU hog
# (a shell busy loop, no forks), a probe whose 2 workers compute 30 ms per
# 100 ms round (30 % duty each), one whose 2 message threads each drive a
# worker computing 10 ms per 200 ms (5 %): in three cgroups (pelt-mix) and
# all in the root cgroup under one command (pelt-root); each three times, the
# spread (the -run2 and -run3 captures: 4 Dec 2026).
for run in pelt-mix pelt-mix-run2 pelt-mix-run3; do
	if want $run; then
		cap $run -d 3 \
			-g "hog:shares=1024=while :; do :; done" \
			-g "duty30:shares=512=$probe -m 1 -t 2 -i 70000 -w 30000 -r 60 --json -o $here/$run.duty30.probe.json" \
			-g "duty5:shares=1024=$probe -m 2 -t 1 -i 190000 -w 10000 -r 60 --json -o $here/$run.duty5.probe.json"
	fi
done
# The same, a fourth time, with the kernel's run-queue state read every 100 ms
# (debugfs sched/debug: each group queue's PELT, tg->load_avg, the group
# entities' weights), which the replay compares with the model's (5 Dec 2026).
if want pelt-mix-sd; then
	cap pelt-mix-sd -d 3 --sched-debug-every 100 \
		-g "hog:shares=1024=while :; do :; done" \
		-g "duty30:shares=512=$probe -m 1 -t 2 -i 70000 -w 30000 -r 60 --json -o $here/pelt-mix-sd.duty30.probe.json" \
		-g "duty5:shares=1024=$probe -m 2 -t 1 -i 190000 -w 10000 -r 60 --json -o $here/pelt-mix-sd.duty5.probe.json"
fi
# Task-group queues with migrations (5 Dec 2026): two probe groups whose
# workers wake every ~20 ms (a: 4 workers, 8 ms of work per 20 ms, 40 % each;
# b, shares 512: 3 workers, 6 ms per 36 ms) on 2 CPUs, ~2.1 CPUs of demand, so
# wakeups land on whichever CPU is idle and the tasks move between the group's
# per-CPU queues (the removed-load paths: remove_entity_load_avg(),
# update_cfs_rq_load_avg()'s removed sums), read every 50 ms from sched/debug.
if want groups-mig-sd; then
	cap groups-mig-sd -d 3 --sched-debug-every 50 \
		-g "a:shares=1024=$probe -m 2 -t 2 -i 12000 -w 8000 -r 60 --json -o $here/groups-mig-sd.a.probe.json" \
		-g "b:shares=512=$probe -m 1 -t 3 -i 30000 -w 6000 -r 60 --json -o $here/groups-mig-sd.b.probe.json"
fi
for run in pelt-root pelt-root-run2 pelt-root-run3; do
	if want $run; then
		cap $run -d 3 -- sh -c "$probe -m 1 -t 2 -i 70000 -w 30000 -r 60 --json -o $here/$run.duty30.probe.json & $probe -m 2 -t 1 -i 190000 -w 10000 -r 60 --json -o $here/$run.duty5.probe.json & while :; do :; done"
	fi
done
# Nice levels (traces/README.md "Nice captures"): a CPU hog at nice 0, one at
# nice 5 (a shell busy loop each) and the probe at nice 10 (`nice -n 10`:
# forked at the shell's prio, reniced in the wrapper before its exec), all in
# the root cgroup under one command: the probe workers' waits beside the hogs
# are EEVDF's weights at work (a nice-10 wakee's deadline lies 9.3 slices
# ahead).  Three times, the spread.
for run in nice-mix nice-mix-run2 nice-mix-run3; do
	if want $run; then
		cap $run -d 3 -- sh -c "nice -n 10 $probe -m 1 -t 2 -i 3000 -w 300 -r 60 --json -o $here/$run.probe.json & nice -n 5 sh -c 'while :; do :; done' & while :; do :; done"
	fi
done
