#!/bin/sh
# The model's PELT against the 4.11 kernel's traced per-task util_avg
# (pelt_external.c; docs/validation.md "External traces"). Skips (77) if the
# external traces folder or trace-cmd is absent.
#   pelt_external.sh PELT_EXTERNAL DIR [LIMITS...]   (LIMITS: pelt_external's)
set -u
prog=$1; dir=$2/arm-lisa/sched_load; shift 2
[ -f "$dir/trace.dat" ] || { echo "SKIP: $dir/trace.dat is absent"; exit 77; }
command -v trace-cmd > /dev/null || { echo "SKIP: trace-cmd not installed"; exit 77; }
tmp=$(mktemp -d /tmp/sr-pelt-external.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# -t: ns timestamps, which the join with the reader's stream compares exactly
trace-cmd report -t -i "$dir/trace.dat" > "$tmp/report.txt" 2> /dev/null ||
	{ echo "FAIL: trace-cmd report failed"; exit 1; }
exec "$prog" "$dir/trace.dat" "$tmp/report.txt" "$dir/platform.json" "$@"
