#!/bin/sh
# Progress on stderr: only on a terminal, only for runs longer than a second
# (issue 5, "Speed and input"), and nothing left standing after it.
# `script` gives the command a terminal.  Several runs (replay --all-variants)
# printed "replaying: D/T runs done" from the first run on, a run of 0.3 s
# included, and left the last one standing; validate (seconds: every trace,
# several seeds) printed nothing.
#   progress_tty.sh SCHEDREPLAY TRACES_DIR [SEEDS]
# SEEDS: validate's and whatif's --seeds (default 15); the sanitized build
# passes fewer, its two validates of every trace at 15 seeds having run past
# the test's 600 s on a loaded machine
set -u
sr=$1; traces=$2; seeds=${3:-15}
fails=0
command -v script > /dev/null || { echo "SKIP: no script(1)"; exit 0; }

# tty CMD...: the terminal's bytes of CMD (its stdout to /dev/null) in $out,
# its wall time in $secs (whole, rounded down)
tty() {
	t0=$(date +%s.%N)
	out=$(script -q -e -c "$* > /dev/null" /dev/null | tr '\r' '\n')
	secs=$(echo "$(date +%s.%N) - $t0" | bc 2>/dev/null || echo 0)
	secs=${secs%%.*}; secs=${secs:-0}
}

# several short runs: nothing unless they took a second
tty "$sr" replay --all-variants --threads 1 "$traces/small-pipe.dat"
if [ "$secs" -lt 1 ] && printf '%s' "$out" | grep -q 'runs done'; then
	echo "FAIL: replay --all-variants of $secs s showed progress:"; printf '%s\n' "$out"
	fails=$((fails + 1))
else
	echo "ok: replay --all-variants ($secs s): no progress under a second"
fi

# several runs over a second: runs done, events done, events/s and ETA (issue
# 5 names the three; the line had runs and ETA only before 3 Dec 2026)
tty "$sr" whatif --seeds "$seeds" --threads 1 "$traces/make-probe.dat"
runs_re='^what-if: [0-9]*/[0-9]* runs done, [0-9]* events, [0-9.]*M events/s, ETA [0-9]* s'
if [ "$secs" -ge 2 ] && ! printf '%s\n' "$out" | grep -q "$runs_re"; then
	echo "FAIL: whatif ($secs s) showed no events, events/s and ETA:"; printf '%s\n' "$out" | tail -n 3
	fails=$((fails + 1))
elif printf '%s\n' "$out" | grep 'runs done' | grep -vq "$runs_re"; then
	echo "FAIL: whatif: a runs line without events and events/s:"; printf '%s\n' "$out" | tail -n 3
	fails=$((fails + 1))
else
	echo "ok: whatif ($secs s): runs, events, events/s and ETA"
fi

# validate: progress when it ran over a second, the line cleared at the end
tty "$sr" validate --seeds "$seeds" --dir "$traces"
if [ "$secs" -ge 2 ] && ! printf '%s' "$out" | grep -q '^validating: [0-9]*/[0-9]* traces done, ETA'; then
	echo "FAIL: validate ($secs s) showed no progress on a terminal:"; printf '%s\n' "$out"
	fails=$((fails + 1))
elif printf '%s\n' "$out" | grep -v '^$' | tail -n 1 | grep -q '[^ ]'; then
	echo "FAIL: validate left its progress line standing:"; printf '%s\n' "$out"
	fails=$((fails + 1))
else
	echo "ok: validate ($secs s): progress on a terminal"
fi
# ... and nothing on stderr when it is not a terminal
err=$("$sr" validate --seeds "$seeds" --dir "$traces" 2>&1 > /dev/null)
if [ -n "$err" ]; then
	echo "FAIL: validate wrote on a stderr that is not a terminal:"; printf '%s\n' "$err"
	fails=$((fails + 1))
else
	echo "ok: validate: nothing on a stderr that is not a terminal"
fi
[ $fails = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "progress_tty: all ok"
