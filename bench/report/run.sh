#!/bin/sh
# Benchmark `schedreplay report` on traces of the same workload (hackbench):
# 1 s and 8 s captured with `schedreplay capture` (trace.dat v6, only the
# formats of the recorded systems), and one `trace-cmd extract` of a tracefs
# instance (v7 zstd with all ~2,300 formats of the kernel, as `trace-cmd
# record`/`extract` write them) with its v7-uncompressed and v6 conversions.
# BENCH_TRACES names existing traces instead.
#   run.sh SCHEDREPLAY BENCH_REPORT WORKDIR
set -eu
sr=$1; bench=$2; work=$3
mkdir -p "$work"
if [ -z "${BENCH_TRACES:-}" ]; then
	for d in 1 8; do
		t=$work/hackbench-${d}s.dat
		if [ ! -s "$t" ]; then
			echo "capturing $t (${d} s of hackbench)"
			"$sr" capture -q -o "$t" -d "$d" -b 65536 -- \
				hackbench -g 4 -f 10 -l 1000000 > /dev/null
		fi
		BENCH_TRACES="${BENCH_TRACES:-} $t"
	done
	x=$work/extract-v7-zstd.dat
	T=/sys/kernel/tracing
	if [ ! -s "$x" ] && command -v trace-cmd > /dev/null && [ -d $T/instances ]; then
		echo "capturing $x (tracefs instance, hackbench, trace-cmd extract)"
		i=$T/instances/srbench_x
		mkdir -p $i
		echo 65536 > $i/buffer_size_kb
		for e in sched_switch sched_waking sched_wakeup sched_wakeup_new \
			 sched_migrate_task sched_process_fork sched_process_exec \
			 sched_process_exit sched_stat_runtime; do
			echo 1 > $i/events/sched/$e/enable
		done
		echo 1 > $i/tracing_on
		hackbench -g 4 -f 10 -l 7000 > /dev/null 2>&1 || true
		echo 0 > $i/tracing_on
		trace-cmd extract -B srbench_x -o "$x" > /dev/null 2>&1 || true
		rmdir $i 2> /dev/null || true
		if [ -s "$x" ]; then
			trace-cmd convert -i "$x" -o "$work/extract-v7-none.dat" --file-version 7 \
				--compression none > /dev/null 2>&1
			trace-cmd convert -i "$x" -o "$work/extract-v6.dat" --file-version 6 \
				> /dev/null 2>&1
		fi
	fi
	for t in "$x" "$work/extract-v7-none.dat" "$work/extract-v6.dat"; do
		[ -s "$t" ] && BENCH_TRACES="$BENCH_TRACES $t"
	done
fi
# shellcheck disable=SC2086
"$bench" "$sr" $BENCH_TRACES
