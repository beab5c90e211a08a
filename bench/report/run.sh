#!/bin/sh
# Benchmark `schedreplay report` on a short and a long trace of the same
# workload (hackbench), captured here with `schedreplay capture` unless
# BENCH_TRACES names existing traces.
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
fi
# shellcheck disable=SC2086
"$bench" "$sr" $BENCH_TRACES
