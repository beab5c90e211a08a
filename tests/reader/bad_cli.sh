#!/bin/sh
# Bad input through every command (the audit of 2026-12-01): each case must
# exit with the expected status and print exactly one line on stderr matching
# the pattern; a usage error (expect_usage) ends that line with "(see
# 'schedreplay CMD --help')" and prints nothing on stdout.  The ASan/UBSan
# build turns a sanitizer report into a failure here too.
#   bad_cli.sh SCHEDREPLAY TRACES_DIR WORK_DIR
set -u
sr=$1; traces=$(cd "$2" && pwd); work=$3
rm -rf "$work"
mkdir -p "$work"
fails=0

# expect STATUS PATTERN -- COMMAND ARGS...
expect() {
	want=$1; pat=$2; shift 3
	timeout 120 "$sr" "$@" > "$work/out" 2> "$work/err"
	got=$?
	lines=$(wc -l < "$work/err")
	if [ "$got" != "$want" ]; then
		echo "FAIL: $*: exit $got, expected $want; stderr:"; cat "$work/err"; fails=$((fails + 1))
	elif ! grep -q -- "$pat" "$work/err"; then
		echo "FAIL: $*: stderr lacks '$pat':"; cat "$work/err"; fails=$((fails + 1))
	elif [ "$want" != 0 ] && [ "$lines" != 1 ]; then
		echo "FAIL: $*: $lines lines on stderr, expected one:"; cat "$work/err"; fails=$((fails + 1))
	else
		echo "ok: $* -> $got"
	fi
}

# expect_usage PATTERN -- [COMMAND] ARGS...: a usage error of COMMAND (none:
# of schedreplay itself): exit 2, one line on stderr matching PATTERN that
# ends "(see 'schedreplay COMMAND --help')", nothing on stdout.  The see-line
# was a second line (replay, whatif, validate, variants, capture).
expect_usage() {
	pat=$1; shift 2
	case "${1-}" in
	report|replay|whatif|validate|variants|capture) see="schedreplay $1 --help" ;;
	*) see="schedreplay --help" ;;
	esac
	before=$fails
	expect 2 "$pat" -- "$@"
	if [ $fails = $before ]; then
		if ! grep -q "^schedreplay.* (see '$see')\$" "$work/err"; then
			echo "FAIL: $*: the line does not end \"(see '$see')\":"; cat "$work/err"
			fails=$((fails + 1))
		elif [ -s "$work/out" ]; then
			echo "FAIL: $*: a usage error printed on stdout:"; cat "$work/out"
			fails=$((fails + 1))
		fi
	fi
}

# sidecar(NAME SED-SCRIPT): $work/NAME/bw.dat, bw-hogs.dat with its sidecar edited
sidecar() {
	mkdir -p "$work/$1"
	ln -sf "$traces/bw-hogs.dat" "$work/$1/bw.dat"
	sed "$2" "$traces/bw-hogs.dat.json" > "$work/$1/bw.dat.json"
}

# A cgroup's bandwidth and shares outside the kernel's ranges: the quota in ns
# wrapped to 1.000384 ms (replayed as a limit the file does not have, exit 0);
# shares of 2^62 overflowed the unit conversion (UBSan); a quota without its
# period was silently no limit.
sidecar quota-wrap 's/"quota_us": 20000,/"quota_us": 18446744073719552,/'
expect 1 'bw.dat.json: cgroup.groups\[3\].quota_us 18446744073719552 outside the kernel' -- \
	replay "$work/quota-wrap/bw.dat"
sidecar quota-small 's/"quota_us": 20000,/"quota_us": 0,/'
expect 1 'cgroup.groups\[3\].quota_us 0 outside' -- report "$work/quota-small/bw.dat"
sidecar period-none 's/"period_us": 100000,/"period_x": 100000,/'
expect 1 'cgroup.groups\[3\] has a quota_us but no period_us' -- replay "$work/period-none/bw.dat"
sidecar period-neg 's/"period_us": 100000,/"period_us": -5,/'
expect 1 'cgroup.groups\[3\].period_us -5 outside' -- replay "$work/period-neg/bw.dat"
sidecar period-str 's/"period_us": 100000,/"period_us": "x",/'
expect 1 '"period_us" is not an integer in range' -- replay "$work/period-str/bw.dat"
# a trace_id that is no hex id (fuzz40): strtoull() read it as 0, "no id",
# and the check that the sidecar is this trace's was skipped at exit 0
for id in '"0xzz"' '""' '12345' '"0x823b6e466c542e98 "'; do
	sidecar trace-id 's/"trace_id": "[^"]*"/"trace_id": '"$id"'/'
	expect 1 'bw.dat.json: trace.trace_id is not "0x" and 1..16 hex digits' -- report "$work/trace-id/bw.dat"
done
sidecar trace-id 's/"trace_id": "[^"]*"/"trace_id": null/'
if "$sr" report "$work/trace-id/bw.dat" > /dev/null 2> "$work/err"; then
	echo "ok: a null trace_id is an unknown one"
else
	echo "FAIL: a null trace_id refused:"; cat "$work/err"; fails=$((fails + 1))
fi
sidecar hz-low 's/"hz": 250,/"hz": 10,/'
expect 1 'config.hz 10 outside 24..10000' -- replay "$work/hz-low/bw.dat"
sidecar shares-huge '0,/"shares": 1024/s//"shares": 4611686018427387904/'
expect 1 'cgroup.groups\[0\].shares 4611686018427387904 outside the kernel' -- \
	report "$work/shares-huge/bw.dat"
sidecar weight-huge '0,/"shares": 1024/s//"weight": 4611686018427387904/'
expect 1 'cgroup.groups\[0\].weight 4611686018427387904 outside the kernel' -- \
	replay "$work/weight-huge/bw.dat"

# a container of another type read as absent: cgroup.groups a string replayed
# without the groups' shares and limits, exit 0
sidecar groups-type '0,/"groups": \[/s//"groups": "x", "was_groups": [/'
expect 1 'bw.dat.json: "cgroup.groups" is not a list' -- replay "$work/groups-type/bw.dat"
sidecar lost-type 's/^ "lost": {/ "lost": 5, "was_lost": {/'
expect 1 'bw.dat.json: "lost" is not an object' -- report "$work/lost-type/bw.dat"

# another capture's sidecar: report refused it, replay and whatif used its
# cgroups, shares and HZ for this trace, exit 0
mkdir -p "$work/other"
ln -sf "$traces/bw-hogs.dat" "$work/other/bw.dat"
cp "$traces/hog-timer.dat.json" "$work/other/bw.dat.json"
for c in replay whatif; do
	expect 1 "$c: $work/other/bw.dat: sidecar $work/other/bw.dat.json belongs to another trace (its trace_id 0x" -- \
		$c "$work/other/bw.dat"
done
expect 1 "replay: .*: sidecar $traces/hog-timer.dat.json belongs to another trace" -- \
	replay --sidecar "$traces/hog-timer.dat.json" "$traces/bw-hogs.dat"

# sidecar size limits (docs/capture.md): a sidecar over 16 MiB, or of more
# than 1 048 576 JSON values, is refused in one line; jansson's tree of a
# 32 MiB file of integers took 1.7 GB (exit 0 or killed by the OOM killer).
# Sparse: the size alone decides.  The values are counted in a regular file
# (the fast parse) and in a FIFO's stream (jansson's reader) alike.
mkdir -p "$work/huge"
ln -sf "$traces/bw-hogs.dat" "$work/huge/bw.dat"
truncate -s 17M "$work/huge/bw.dat.json"
expect 1 "bw.dat.json: 17825792 bytes, over the sidecar maximum of 16 MiB" -- replay "$work/huge/bw.dat"
manyvals() { sed '$d' "$traces/bw-hogs.dat.json"; printf ', "pad": ['; yes 1, | head -n 1100000 | tr -d '\n'; echo '1]}'; }
manyvals > "$work/huge/many.json"
expect 1 "many.json: more than 1048576 JSON values in its first [0-9]* bytes, over the sidecar maximum" -- \
	replay --sidecar "$work/huge/many.json" "$traces/bw-hogs.dat"
mkfifo "$work/huge/fifo.json"
manyvals > "$work/huge/fifo.json" 2> /dev/null &
feeder=$!
expect 1 "fifo.json: more than 1048576 JSON values in its first [0-9]* bytes, over the sidecar maximum" -- \
	replay --sidecar "$work/huge/fifo.json" "$traces/bw-hogs.dat"
kill $feeder 2> /dev/null
wait $feeder 2> /dev/null
# a valid sidecar just under the value limit is read (the fast parse and jansson's)
{ sed '$d' "$traces/bw-hogs.dat.json"; printf ', "pad": ['; yes 1, | head -n 1040000 | tr -d '\n'; echo '1]}'; } > "$work/huge/bw.dat.json"
sed 's/"pad"/"p\\u0061d"/' "$work/huge/bw.dat.json" > "$work/huge/esc.json"
for sc in "$work/huge/bw.dat.json" "$work/huge/esc.json"; do
	if timeout 120 "$sr" replay --sidecar "$sc" "$work/huge/bw.dat" > /dev/null 2> "$work/err"; then
		echo "ok: a sidecar of 1 040 002 values is read: $sc"
	else
		echo "FAIL: a sidecar of 1 040 002 values is refused: $sc:"; cat "$work/err"
		fails=$((fails + 1))
	fi
done

# a directory as --cgroup-map: its read failed and counted as an empty map (exit 0)
mkdir -p "$work/adir"
expect 1 "adir: Is a directory" -- replay --cgroup-map "$work/adir" "$traces/small-pipe.dat"
# one PID or one group's shares or quota twice: the last PID line, the first
# shares line and the last quota line won, at exit 0 without a word
printf '22002 /x\n# c\n22002 /y\n' > "$work/dup-pid.map"
expect 1 "dup-pid.map:3: PID 22002 is mapped already (line 1)" -- \
	replay --cgroup-map "$work/dup-pid.map" "$traces/small-pipe.dat"
printf 'shares /x 512\nshares /x 1024\n' > "$work/dup-shares.map"
expect 1 "dup-shares.map:2: a second 'shares' line for /x (the first is line 1)" -- \
	replay --cgroup-map "$work/dup-shares.map" "$traces/small-pipe.dat"
printf 'quota /x/ 5000\nquota /x 6000 50000\n' > "$work/dup-quota.map"
expect 1 "dup-quota.map:2: a second 'quota' line for /x (the first is line 1)" -- \
	replay --cgroup-map "$work/dup-quota.map" "$traces/small-pipe.dat"
# a '.' or '..' component (inp38): matched as written, '/a/../b' matched no
# group and the line had no effect at exit 0; the error gives the kernel's
# spelling.  Every line kind, and a '..' above the root
printf '22002 /a/../b\n' > "$work/dots-pid.map"
expect 1 "dots-pid.map:1: cgroup path '/a/../b' has a '..' component: write it as the kernel spells it, '/b'" -- \
	replay --cgroup-map "$work/dots-pid.map" "$traces/small-pipe.dat"
printf '# c\nshares /a/./b/ 512\n' > "$work/dot-shares.map"
expect 1 "dot-shares.map:2: cgroup path '/a/./b' has a '.' component: write it as the kernel spells it, '/a/b'" -- \
	replay --cgroup-map "$work/dot-shares.map" "$traces/small-pipe.dat"
printf 'quota /x//y/.. 5000\n' > "$work/dots-quota.map"
expect 1 "dots-quota.map:1: cgroup path '/x/y/..' has a '..' component: write it as the kernel spells it, '/x'" -- \
	whatif --cgroup-map "$work/dots-quota.map" "$traces/small-pipe.dat"
printf '22002 /../a\n' > "$work/above.map"
expect 1 "above.map:1: cgroup path '/../a' has a '..' above the root" -- \
	replay --cgroup-map "$work/above.map" "$traces/small-pipe.dat"
# CR line ends (classic Mac OS): the file was one line, "expected 'PID
# /cgroup/path'"; a CR inside a line is named (CR LF reads as LF:
# replay_cgroup_map_facts)
printf '22002 /a\rshares /a 512\r' > "$work/cr.map"
expect 1 "cr.map:1: a carriage return (\\\\r) inside the line, at column 9: lines end in LF or CR LF" -- \
	replay --cgroup-map "$work/cr.map" "$traces/small-pipe.dat"
# a NUL byte in a line (fuzz39): fgets() ended the line's string there, so a
# last line 'shares /a 512<NUL>junk' was read as its head at exit 0, and one
# with lines after it was "line longer than 4094 characters"
printf 'shares /a 512\000 junk\n' > "$work/nul-last.map"
expect 1 "nul-last.map:1: a NUL byte inside the line, at column 14: the map is a text file" -- \
	replay --cgroup-map "$work/nul-last.map" "$traces/small-pipe.dat"
printf '22001 /a\000x\n22002 /b\n' > "$work/nul-mid.map"
expect 1 "nul-mid.map:1: a NUL byte inside the line, at column 9: the map is a text file" -- \
	whatif --cgroup-map "$work/nul-mid.map" "$traces/small-pipe.dat"
printf '22001 /a\n22002 /b\000' > "$work/nul-end.map"
expect 1 "nul-end.map:2: a NUL byte inside the line, at column 9" -- \
	replay --cgroup-map "$work/nul-end.map" "$traces/small-pipe.dat"
# no blank between a keyword and its path (fuzz40): sscanf()'s ' ' matched
# none, so 'shares/a 512' was read as 'shares /a 512' at exit 0
printf '22002 /a\nshares/a 512\n' > "$work/kw-shares.map"
expect 1 "kw-shares.map:2: no blank after 'shares', at column 7: expected 'shares /cgroup/path ...'" -- \
	replay --cgroup-map "$work/kw-shares.map" "$traces/small-pipe.dat"
printf 'quota/a 5000\n' > "$work/kw-quota.map"
expect 1 "kw-quota.map:1: no blank after 'quota', at column 6" -- \
	whatif --cgroup-map "$work/kw-quota.map" "$traces/small-pipe.dat"
printf 'shares\t/a 512\n22002 /a\n' > "$work/kw-tab.map"
# one FIFO under two names for both dumps, or as standard output and a dump
# (fuzz40): the clash checks compared regular files only, so both streams
# were written into the FIFO interleaved (a dump FIFO waits for its reader by
# design: docs/replay.md, "Dumps into a FIFO")
mkfifo "$work/dump.fifo" && ln -sf dump.fifo "$work/dump.link"
expect_usage "replay: --dump-samples $work/dump.link and --dump-events $work/dump.fifo are the same file" -- \
	replay --dump-events "$work/dump.fifo" --dump-samples "$work/dump.link" "$traces/small-pipe.dat"
cat "$work/dump.fifo" > "$work/fifo.out" &
reader=$!
timeout 120 "$sr" replay --dump-events "$work/dump.link" "$traces/small-pipe.dat" > "$work/dump.fifo" 2> "$work/err"
got=$?
wait $reader
if [ $got = 2 ] && grep -q "^schedreplay replay: --dump-events $work/dump.link is the file standard output goes to" "$work/err" &&
   [ "$(wc -l < "$work/err")" = 1 ]; then
	echo "ok: a dump into the FIFO standard output goes to -> 2"
else
	echo "FAIL: a dump into the FIFO standard output goes to: exit $got:"; cat "$work/err"
	fails=$((fails + 1))
fi
if "$sr" replay --cgroup-map "$work/kw-tab.map" "$traces/small-pipe.dat" > /dev/null 2> "$work/err"; then
	echo "ok: a tab after 'shares' is a blank"
else
	echo "FAIL: 'shares<TAB>/a 512' refused:"; cat "$work/err"; fails=$((fails + 1))
fi

# a FIFO as --plugin (fuzz40): dlopen()'s open() waited for a writer, and a
# writer could not help (a FIFO cannot be mapped): a hang.  A directory too
mkfifo "$work/plugin.fifo"
expect 1 "plugin.fifo: cannot load plugin: not a regular file" -- variants --plugin "$work/plugin.fifo"
expect 1 "adir: cannot load plugin: not a regular file" -- replay --plugin "$work/adir" "$traces/small-pipe.dat"

# variants' three listings together (fuzz40): --flags --json printed the
# text list, --sched-features --flags only the features, at exit 0
expect_usage "variants: --flags with --json: one listing at a time" -- variants --flags --json
expect_usage "variants: --sched-features with --json: one listing at a time" -- variants --json --sched-features
expect_usage "variants: --flags with --sched-features: one listing at a time" -- variants --sched-features --flags

# report named the value instead of the option ("bad value '-1' for -1"), and
# called an option without its value unknown ("unknown option '--pid'")
expect_usage "report: bad value '-1' for --start" -- report --start -1 "$traces/small-pipe.dat"
expect_usage "report: bad value 'x' for --top" -- report --top=x "$traces/small-pipe.dat"
expect_usage "report: a value is missing after option '--pid'" -- report "$traces/small-pipe.dat" --pid
expect_usage "report: unknown option '--frob'" -- report --frob "$traces/small-pipe.dat"

# an empty file or directory name (fuzz39): it reached open() as "", and
# the one line did not say which option ("schedreplay replay: : No such file
# or directory"); validate --dir '' read "/thresholds.json"
for o in --dump-samples --dump-events --plugin --variants-file --cgroup-map --sidecar; do
	expect_usage "replay: $o takes a file name, not ''" -- replay "$o" '' "$traces/small-pipe.dat"
done
for o in --svg --noise --cgroup-map; do
	expect_usage "whatif: $o takes a file name, not ''" -- whatif "$o" '' "$traces/small-pipe.dat"
done
for o in --sidecar --samples; do
	expect_usage "report: $o takes a file name, not ''" -- report "$o" '' "$traces/small-pipe.dat"
done
expect_usage "validate: --dir takes a directory name, not ''" -- validate --dir '' --seeds 1
expect_usage "validate: --thresholds takes a file name, not ''" -- validate --thresholds '' --seeds 1

# conflicting options: replay and whatif let --no-sidecar win silently (report refused)
for c in replay whatif; do
	expect_usage "$c: --sidecar and --no-sidecar exclude each other" -- \
		$c --sidecar "$traces/bw-hogs.dat.json" --no-sidecar "$traces/bw-hogs.dat"
done
# --preempt-costs names its two rules (the default flipped to strict in stop 18)
for c in replay whatif validate; do
	expect_usage "$c: --preempt-costs takes strict or all, not 'x'" -- \
		$c --preempt-costs x "$traces/small-pipe.dat"
done
# --early-wakes names its three modes (replay, whatif and validate alike)
for c in replay whatif validate; do
	expect_usage "$c: --early-wakes takes sample, nosample, nocost or sleep, not 'x'" -- \
		$c --early-wakes x "$traces/small-pipe.dat"
done
# the replay rules' usage errors list their names tables (sim_run.c), in order
for m in "exit-preempt takes defer or now" \
	 "resched-at takes cost, syscall-exit, traced or next-wake" \
	 "tick-preempt-at takes model or traced" \
	 "exec-balance-at takes exec or traced" \
	 "standin-skip takes keep, drop, local, drop-local, drop-own, block-preempt or block-charge" \
	 "wake-clock takes waking or traced" "block-lead takes median or traced" \
	 "block-clock takes keep or after" \
	 "early-charge takes off or local" "flush-last takes held, cost or lead" \
	 "behind-lead takes off, fallback or all" \
	 "wake-path takes model or traced" \
	 "initial-lag takes zero, infer, credit or credit-long" \
	 "idle-clock takes update, skip or local" "migrate-resched takes dest or both" \
	 "balance-attach takes trace-order or kernel-order" \
	 "queued-moves takes time, wait or position" \
	 "waker-costs takes traced, placed or follow" "ticks takes grid or traced" \
	 "tick-phase takes zero or grid" "vcpu-pack-cut takes idle or flat" \
	 "idle-residency takes on or off"; do
	expect_usage "replay: --$m, not 'x'" -- replay --"${m%% *}" x "$traces/small-pipe.dat"
done
# every option --help shows as "--OPT a|b|c": its usage error lists the same
# names in the same order ("--OPT takes a, b or c"); --help's lists were
# written apart from the names tables, and --handoff's and --exit-preempt's
# orders were not the tables' (their --help lists are made from the tables now)
"$sr" replay --help | sed -n 's/^  --\([a-z-]*\) \([a-z-]*|[a-z|-]*\).*/\1 \2/p' \
	> "$work/help-lists"
if [ ! -s "$work/help-lists" ]; then
	echo "FAIL: replay --help shows no --OPT a|b|c"; fails=$((fails + 1))
fi
while read -r opt list <&3; do
	names=$(echo "$list" | sed 's/|/, /g; s/, \([^,]*\)$/ or \1/')
	expect_usage "replay: --$opt takes $names, not 'x'" -- \
		replay --"$opt" x "$traces/small-pipe.dat"
done 3< "$work/help-lists"
# the trace itself as --noise, or one capture twice (fuzz40): a spread of 0
# from a capture compared with itself, every change marked outside it
expect_usage "whatif: --noise $traces/./small-pipe.dat is the trace itself: name another capture" -- \
	whatif --noise "$traces/./small-pipe.dat" "$traces/small-pipe.dat"
expect_usage "whatif: --noise $traces/./bw-hogs-run2.dat names a capture given already" -- \
	whatif --noise "$traces/bw-hogs-run2.dat" --noise "$traces/./bw-hogs-run2.dat" "$traces/bw-hogs.dat"
# a copy of the trace (or of another --noise) as --noise, and the trace
# converted to v6 (another container, the same TRACEID): each a spread of 0,
# every change marked outside it at exit 0 (fuzz41; a second name of the
# file was refused since fuzz40, a copy was not)
mkdir -p "$work/noisecopy"
cp "$traces/small-pipe.dat" "$work/noisecopy/copy.dat"
cp "$traces/bw-hogs-run2.dat" "$work/noisecopy/run2.dat"
expect_usage "whatif: --noise $work/noisecopy/copy.dat is a copy of the trace (the same bytes)" -- \
	whatif --noise "$work/noisecopy/copy.dat" --variant aaron-skip "$traces/small-pipe.dat"
expect_usage "whatif: --noise $work/noisecopy/run2.dat is a copy of --noise $traces/bw-hogs-run2.dat" -- \
	whatif --noise "$traces/bw-hogs-run2.dat" --noise "$work/noisecopy/run2.dat" \
	--variant aaron-skip "$traces/bw-hogs.dat"
if command -v trace-cmd > /dev/null &&
	trace-cmd convert --file-version 6 -i "$traces/small-pipe.dat" -o "$work/noisecopy/v6.dat" \
		> /dev/null 2>&1; then
	expect_usage "whatif: --noise $work/noisecopy/v6.dat has the trace's TRACEID 0x[0-9a-f]*: the same capture" -- \
		whatif --noise "$work/noisecopy/v6.dat" --variant aaron-skip "$traces/small-pipe.dat"
fi
# --initial-pelt kernel asked for where the sidecar has no start snapshot
# (none, --no-sidecar, an older capture's): the model's guess was used
# without a word (fuzz41); now one warning line, exit 0
expect 0 "replay: $traces/pelt-mix.dat: warning: --initial-pelt kernel: no sidecar (none found, or --no-sidecar); the tasks asleep at the trace start take the model's guess" -- \
	replay --initial-pelt kernel --no-sidecar "$traces/pelt-mix.dat"
expect 0 "whatif: $traces/hog-timer.dat: warning: --initial-pelt kernel: sidecar $traces/hog-timer.dat.json has no sched_at_start (an older capture)" -- \
	whatif --initial-pelt kernel --variant aaron-skip "$traces/hog-timer.dat"
# --clock-task traced on a trace without sched_stat_runtime: no left-out
# time is measured, the model ran as under wall without a word (fuzz42)
expect 0 "replay: $traces/small-nowaking.dat: warning: --clock-task traced: the trace has no sched_stat_runtime events" -- \
	replay --clock-task traced "$traces/small-nowaking.dat"
expect 0 "whatif: $traces/small-nowaking.dat: warning: --clock-task traced: the trace has no sched_stat_runtime events" -- \
	whatif --clock-task traced --variant aaron-skip "$traces/small-nowaking.dat"
# ... and attached (the default since stop 41) asked for as well: it said
# nothing; validate, over a directory, one line counting such traces
expect 0 "replay: $traces/pelt-mix.dat: warning: --initial-pelt attached: no sidecar (none found, or --no-sidecar)" -- \
	replay --initial-pelt attached --no-sidecar "$traces/pelt-mix.dat"
mkdir -p "$work/ipdir"
cp "$traces/hog-timer.dat" "$traces/hog-timer.dat.json" "$traces/pelt-root.dat" \
	"$traces/pelt-root.dat.json" "$work/ipdir/"
lim='"max_rel_error": {"sched_switch": 9, "sched_stat_runtime": 9, "p50": 9, "p95": 9, "p99": 9}'
cat > "$work/ipdir/thresholds.json" << EOF
{"schema": "schedreplay-thresholds", "version": 1,
 "goal": {"sched_switch": 0.05, "sched_stat_runtime": 0.05, "p50": 0.2, "p95": 0.2, "p99": 0.2},
 "traces": {"hog-timer.dat": {"latency_group": {"cgroup_suffix": "/timer"}, $lim},
            "pelt-root.dat": {"latency_group": {"comm": "probe-worker"}, $lim}}}
EOF
expect 0 "validate: warning: --initial-pelt kernel: 1 of 2 traces have no usable start snapshot" -- \
	validate --dir "$work/ipdir" --initial-pelt kernel
# validate --clock-task traced: one line counting the traces without sched_stat_runtime
mkdir -p "$work/ctdir"
ln -sf "$traces/small-nowaking.dat" "$traces/hog-timer.dat" "$traces/hog-timer.dat.json" "$work/ctdir/"
cat > "$work/ctdir/thresholds.json" << EOF
{"schema": "schedreplay-thresholds", "version": 1,
 "goal": {"sched_switch": 0.05, "sched_stat_runtime": 0.05, "p50": 0.2, "p95": 0.2, "p99": 0.2},
 "traces": {"hog-timer.dat": {"latency_group": {"cgroup_suffix": "/timer"}, $lim},
            "small-nowaking.dat": {"latency_group": {}, $lim}}}
EOF
expect 0 "validate: warning: --clock-task traced: 1 of 2 traces have no sched_stat_runtime events" -- \
	validate --dir "$work/ctdir" --seeds 1 --clock-task traced
# a --noise capture with lost events: its spread was partial without a word
expect 0 "small-lost.dat: warning: >= [0-9]* events lost .*(--noise) is partial" -- \
	whatif --noise "$traces/small-lost.dat" --variant aaron-skip "$traces/small-pipe.dat"

# validate: a directory without any of the thresholds' traces validated nothing
# and said "all within thresholds" (exit 0); a subset says what it left out
mkdir -p "$work/vempty" "$work/vpipe"
cp "$traces/thresholds.json" "$work/vempty/"
expect 1 "vempty: no trace validated (0 .dat files, none with an entry of" -- \
	validate --dir "$work/vempty" --seeds 1
ln -sf "$traces/small-pipe.dat" "$work/vpipe/small-pipe.dat"
# a latency group that matches no task: its percentile limits were skipped, exit 0
mkdir -p "$work/vgrp"
ln -sf "$traces/small-pipe.dat" "$work/vgrp/small-pipe.dat"
sed 's/"comm": "sched-pipe"/"comm": "no-such-comm"/' "$traces/thresholds.json" > "$work/vgrp/thresholds.json"
timeout 300 "$sr" validate --dir "$work/vgrp" --seeds 1 > "$work/out" 2> /dev/null
got=$?
if [ $got != 1 ] || ! grep -q "small-pipe.dat *FAIL: latency_group comm no-such-comm (absent) matches nothing in the trace" "$work/out"; then
	echo "FAIL: validate with an absent latency group: exit $got:"; cat "$work/out"; fails=$((fails + 1))
else
	echo "ok: validate with an absent latency group -> 1"
fi
expect 0 "warning: [0-9]* trace(s) of $traces/thresholds.json not in $work/vpipe, not validated: small-hackbench.dat" -- \
	validate --dir "$work/vpipe" --thresholds "$traces/thresholds.json" --seeds 1

# the goals (the markdown's goal column) of another type were no goals, an
# unknown version read as version 1
sed 's/"p50": 0.2,/"p50": "0.2",/' "$traces/thresholds.json" > "$work/vpipe/goal.json"
expect 1 "goal.json: goal.p50: not a fraction >= 0" -- \
	validate --dir "$work/vpipe" --thresholds "$work/vpipe/goal.json" --seeds 1
sed 's/"version": 1,/"version": 2,/' "$traces/thresholds.json" > "$work/vpipe/version.json"
expect 1 "version.json: \"version\" is not 1" -- \
	validate --dir "$work/vpipe" --thresholds "$work/vpipe/version.json" --seeds 1
rm "$work/vpipe/goal.json" "$work/vpipe/version.json"

# a full disk (/dev/full): replay's text report failed with exit 1 and no
# message, its --dump-events file and whatif --print-machine and validate
# (every output form) were cut short with exit 0
# expect_full STATUS PATTERN -- COMMAND ARGS...: expect with stdout on /dev/full
expect_full() {
	want=$1; pat=$2; shift 3
	timeout 120 "$sr" "$@" > /dev/full 2> "$work/err"
	got=$?
	lines=$(grep -vc "warning: .* not validated" "$work/err")
	if [ "$got" != "$want" ] || ! grep -q -- "$pat" "$work/err" || [ "$lines" != 1 ]; then
		echo "FAIL: $* > /dev/full: exit $got (expected $want), stderr:"; cat "$work/err"
		fails=$((fails + 1))
	else
		echo "ok: $* > /dev/full -> $got"
	fi
}
# a --cgroup-map that is not there: the line names the option (it was
# "replay: /path: No such file or directory", which file of the command line?)
expect 1 "replay: --cgroup-map $work/nodir/map: No such file or directory" -- \
	replay --cgroup-map "$work/nodir/map" "$traces/small-pipe.dat"
# an output file that cannot be opened: the error names the option (it named
# only the path: which of two dump files was it?)
expect 1 "replay: --dump-samples $work/nodir/s.tsv: No such file or directory" -- \
	replay --dump-samples "$work/nodir/s.tsv" "$traces/small-pipe.dat"
expect 1 "replay: --dump-events $work/nodir/e.txt: No such file or directory" -- \
	replay --dump-events "$work/nodir/e.txt" "$traces/small-pipe.dat"
expect 1 "whatif: .*--svg $work/nodir/c.svg: No such file or directory" -- \
	whatif --svg "$work/nodir/c.svg" "$traces/small-pipe.dat"
# ... checked before the extraction (fuzz41): --dump-events and --svg were
# opened after it (all of whatif's runs), so a trace cut short was the
# error named, and a good one took its whole extraction to fail
head -c 100000 "$traces/small-pipe.dat" > "$work/cut.dat"
expect 1 "replay: --dump-events $work/nodir/e.txt: No such file or directory" -- \
	replay --dump-events "$work/nodir/e.txt" "$work/cut.dat"
expect 1 "replay: --dump-events $work: Is a directory" -- \
	replay --dump-events "$work" "$work/cut.dat"
expect 1 "whatif: --svg $work/nodir/c.svg: No such file or directory" -- \
	whatif --svg "$work/nodir/c.svg" "$work/cut.dat"
if [ -w /dev/full ]; then
	expect_full 1 "replay: writing the output failed: No space left on device" -- \
		replay "$traces/small-pipe.dat"
	expect 1 "replay: /dev/full: writing the event dump failed: No space left on device" -- \
		replay --dump-events /dev/full "$traces/small-pipe.dat"
	expect 1 "replay: /dev/full: writing the sample dump failed: No space left on device" -- \
		replay --dump-samples /dev/full "$traces/small-pipe.dat"
	# report named no reason (fuzz41): "/dev/full: writing the samples failed"
	expect 1 "report: /dev/full: writing the samples failed: No space left on device" -- \
		report --samples /dev/full "$traces/small-pipe.dat"
	expect_full 1 "report: writing the output failed: No space left on device" -- \
		report --json "$traces/small-pipe.dat"
	expect_full 1 "whatif: cannot write the machine file: No space left on device" -- \
		whatif --print-machine one-socket
	cp "$traces/thresholds.json" "$work/vpipe/"
	for f in "" --markdown --json --suggest; do
		expect_full 1 "validate: writing the output failed: No space left on device" -- \
			validate --dir "$work/vpipe" --seeds 1 $f
	done
	rm "$work/vpipe/thresholds.json"
	# --help and --version were not checked at all: exit 0 (audit33)
	for c in "" report replay whatif validate variants capture; do
		expect_full 1 "schedreplay${c:+ $c}: cannot write the output: " -- $c --help
	done
	expect_full 1 "schedreplay: cannot write the output: No space left on device" -- --version
fi

# an output file naming an input: report --samples, replay --dump-events and
# whatif --svg overwrote the trace (or its sidecar) they read, exit 0
mkdir -p "$work/clob"
cp "$traces/small-pipe.dat" "$work/clob/t.dat"
cp "$traces/bw-hogs.dat" "$work/clob/b.dat"
cp "$traces/bw-hogs.dat.json" "$work/clob/b.dat.json"
expect_usage "report: --samples $work/clob/t.dat is an input file; it would be overwritten" -- \
	report --samples "$work/clob/t.dat" "$work/clob/t.dat"
expect_usage "replay: --dump-events $work/clob/b.dat.json is an input file" -- \
	replay --dump-events "$work/clob/b.dat.json" "$work/clob/b.dat"
expect_usage "whatif: --svg $work/clob/t.dat is an input file" -- \
	whatif --svg "$work/clob/t.dat" --variant aaron-skip "$work/clob/t.dat"
expect_usage "whatif: --svg $work/clob/t.dat is an input file" -- \
	whatif --svg "$work/clob/t.dat" --noise "$work/clob/t.dat" --variant aaron-skip "$work/clob/b.dat"
expect_usage "replay: --dump-samples $work/clob/b.dat.json is an input file" -- \
	replay --dump-samples "$work/clob/b.dat.json" "$work/clob/b.dat"
# --dump-samples and --dump-events naming one file by two names: both
# streams were written into it over each other at exit 0 (fuzz39)
expect_usage "replay: --dump-samples $work/clob/s.tsv and --dump-events $work/clob/./s.tsv are the same file" -- \
	replay --dump-samples "$work/clob/s.tsv" --dump-events "$work/clob/./s.tsv" "$work/clob/t.dat"
# an output file that standard output goes to ($work/out: expect's stdout):
# opened again from offset 0, the dump and the report were written over
# each other at exit 0 (fuzz39)
for o in --dump-samples --dump-events; do
	expect_usage "replay: $o $work/out is the file standard output goes to" -- \
		replay "$o" "$work/out" "$work/clob/t.dat"
done
expect_usage "report: --samples $work/out is the file standard output goes to" -- \
	report --samples "$work/out" "$work/clob/t.dat"
expect_usage "whatif: --svg $work/out is the file standard output goes to" -- \
	whatif --svg "$work/out" --variant aaron-skip "$work/clob/t.dat"
# an existing file is refused before it is opened (not truncated)
echo keep > "$work/clob/k.tsv"
expect_usage "replay: --dump-samples $work/clob/k.tsv and --dump-events $work/clob/./k.tsv are the same file" -- \
	replay --dump-samples "$work/clob/k.tsv" --dump-events "$work/clob/./k.tsv" "$work/clob/t.dat"
if [ "$(cat "$work/clob/k.tsv")" != keep ]; then
	echo "FAIL: --dump-samples truncated the --dump-events file before refusing it"; fails=$((fails + 1))
fi
ln -sf s.tsv "$work/clob/s-link.tsv"
expect_usage "replay: --dump-samples $work/clob/s-link.tsv and --dump-events $work/clob/s.tsv are the same file" -- \
	replay --dump-samples "$work/clob/s-link.tsv" --dump-events "$work/clob/s.tsv" "$work/clob/t.dat"
if ! cmp -s "$work/clob/t.dat" "$traces/small-pipe.dat" ||
   ! cmp -s "$work/clob/b.dat.json" "$traces/bw-hogs.dat.json"; then
	echo "FAIL: an input file was overwritten"; fails=$((fails + 1))
fi

# what is not read is no input: TRACE.json under --no-sidecar, a built-in
# --machine name that is also a file in the working directory (both refused,
# exit 2); a --noise capture read with the main trace's --sidecar (refused as
# another trace's sidecar, exit 1)
mkdir -p "$work/clob2"
cp "$traces/bw-hogs.dat" "$work/clob2/b.dat"
cp "$traces/bw-hogs.dat.json" "$work/clob2/b.dat.json"
expect_ok() {
	timeout 300 "$sr" "$@" > "$work/out" 2> "$work/err"
	got=$?
	if [ "$got" != 0 ]; then
		echo "FAIL: $*: exit $got, expected 0; stderr:"; cat "$work/err"; fails=$((fails + 1))
	else
		echo "ok: $* -> 0"
	fi
}
expect_ok replay --no-sidecar --dump-events "$work/clob2/b.dat.json" "$work/clob2/b.dat"
expect_ok report --no-sidecar --samples "$work/clob2/b.dat.json" "$work/clob2/b.dat"
expect_ok whatif --sidecar "$traces/bw-hogs.dat.json" --noise "$traces/bw-hogs-run2.dat" \
	--variant aaron-skip "$traces/bw-hogs.dat"
: > "$work/clob2/one-socket"
old_pwd=$(pwd)
cd "$work/clob2"
expect_ok whatif --machine one-socket --svg one-socket --variant aaron-skip "$traces/small-pipe.dat"
cd "$old_pwd"

# --hz 10..23 passed the option's range and failed after the extraction, with a
# message naming four rates; the option now has the model's range
expect_usage "replay: --hz takes 24..10000, not '23'" -- replay --hz 23 "$traces/small-pipe.dat"
expect_usage "replay: --newidle-ratio takes 0..1024, not '1025'" -- \
	replay --newidle-ratio 1025 "$traces/small-pipe.dat"
for v in -1 x 99999999999999999999 ""; do
	expect_usage "whatif: --newidle-ratio takes 0..1024, not '$v'" -- \
		whatif --placement model --newidle-ratio "$v" "$traces/small-pipe.dat"
done
expect_usage "validate: --vcpu-pack-cut takes idle or flat, not 'IDLE'" -- \
	validate --vcpu-pack-cut IDLE --dir "$traces"

# the new code's edges by hand (fuzz36): a CPU whose first event is in idle's
# context (trace_repair.c, before its first sched_switch), the task it woke
# revealed there by its own event (workload.c's placeholder op), the file cut
# inside the next line; and a trace that ends right after a
# sched_process_exec under --placement model (sim.c's sched_exec())
mkdir -p "$work/edge"
ev() {	# COMM-PID CPU SECONDS EVENT FIELDS
	printf '%22s [%03d] %s: %-21s %s\n' "$1" "$2" "$3" "$4:" "$5"
}
{
	echo cpus=2
	ev a-10 0 100.000001000 sched_switch \
		"prev_comm=a prev_pid=10 prev_prio=120 prev_state=R ==> next_comm=b next_pid=11 next_prio=120"
	ev '<idle>-0' 1 100.000002000 sched_waking "comm=c pid=12 prio=120 target_cpu=001"
	ev '<idle>-0' 1 100.000003000 sched_wakeup "comm=c pid=12 prio=120 target_cpu=001"
	ev c-12 1 100.000050000 sched_stat_runtime "comm=c pid=12 runtime=30000 [ns]"
	printf '                  c-12 [001] 100.0000600'
} > "$work/edge/idle-first.txt"
expect 1 "idle-first.txt: ftrace text: line 6: cut short: the file ends inside this line" -- \
	replay --placement model --vcpu-pack-cut flat --newidle-ratio 64 "$work/edge/idle-first.txt"
{
	echo cpus=2
	ev '<idle>-0' 0 100.000001000 sched_switch \
		"prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120"
	ev '<idle>-0' 1 100.000002000 sched_switch \
		"prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=11 next_prio=120"
	ev a-10 0 100.000010000 sched_process_fork "comm=a pid=10 child_comm=a child_pid=20"
	ev a-10 0 100.000011000 sched_wakeup_new "comm=a pid=20 prio=120 target_cpu=000"
	ev a-10 0 100.000020000 sched_process_exec "filename=/bin/x pid=10 old_pid=10"
} > "$work/edge/exec-last.txt"
for v in 0 1024; do
	expect_ok replay --placement model --newidle-ratio $v "$work/edge/exec-last.txt"
done

# a --comm or --pid that matches no task of the trace: empty tables, exit 0
pipe=$traces/small-pipe.dat
expect 2 "report: --comm 'zzz' matches no task in $pipe (9 comms; see 'schedreplay report')" -- \
	report --comm zzz "$pipe"
expect 2 "report: --pid 1 matches no task in $pipe (10 tasks; see 'schedreplay report --by pid')" -- \
	report --pid 1 "$pipe"
expect 2 "report: --comm 'perf' and --pid 22001 together match no task in $pipe (pid 22001 is 'sh')" -- \
	report --comm perf --pid 22001 "$pipe"
# a comm longer than the kernel's 15 characters never matches
expect 2 "report: --comm 'sched-pipe-0123456' matches no task" -- report --comm sched-pipe-0123456 "$pipe"
for c in replay whatif; do
	expect 2 "$c: --comm 'zzz' matches no task in $pipe (9 comms; see 'schedreplay report')" -- \
		$c --comm zzz --variant aaron-skip "$pipe"
done
# perf is no task's last comm (pid 22002 exec'd sched-pipe), but samples have it
for c in report replay; do
	if timeout 120 "$sr" $c --comm perf "$pipe" > "$work/out" 2> "$work/err"; then
		echo "ok: $c --comm perf -> 0"
	else
		echo "FAIL: $c --comm perf: exit $?:"; cat "$work/err"; fails=$((fails + 1))
	fi
done

# control characters of a name in a message (cli_esc()): a newline in an option
# value or a file name broke the one-line rule, an escape reached the terminal
nl='
'
esc=$(printf '\033')
tab=$(printf '\t')
expect_usage "report: bad value 'x\\\\ny' for --top" -- report --top "x${nl}y" "$pipe"
expect 2 "replay: --comm 'a\\\\x1b\\[31m' matches no task" -- replay --comm "a${esc}[31m" "$pipe"
expect_usage "whatif: --seeds takes 1..15, not '1\\\\t'" -- whatif --seeds "1${tab}" "$pipe"
expect_usage "schedreplay: unknown command 'bo\\\\ngus'" -- "bo${nl}gus"
mkdir -p "$work/nl"
cp "$pipe" "$work/nl/t${nl}x.dat"
expect_usage "report: --samples $work/nl/t\\\\nx.dat is an input file" -- \
	report --samples "$work/nl/t${nl}x.dat" "$work/nl/t${nl}x.dat"
expect 1 "validate: $work/nl/v\\\\r\\\\x7fd/thresholds.json" -- validate --dir "$work/nl/v$(printf '\r\177')d"
# getopt's own messages (opterr) printed an unknown option raw
expect_usage "replay: unknown option '--fr\\\\nob'" -- replay "--fr${nl}ob" "$pipe"
expect_usage "whatif: a value is missing after option '--seeds'" -- whatif "$pipe" --seeds
expect_usage "validate: unknown option '--x\\\\x1b'" -- validate "--x${esc}"
expect_usage "capture: unknown option '--fr\\\\nob'" -- capture "--fr${nl}ob"

# usage errors of every command: one line naming the option, exit 2.  variants
# printed getopt's raw message and its whole usage (11 lines); a short option
# inside a group ("-xj") was named by the argument before it ("unknown option
# 'replay'"); "--json=3" was an "unknown option", "--vari" (--variant or
# --variants-file?) too
for c in report replay whatif validate variants capture; do
	expect_usage "$c: unknown option '--frob'" -- $c --frob "$pipe"
	expect_usage "$c: unknown option '-x'" -- $c -xh "$pipe"
	expect_usage "$c: option '--help' takes no value, not '--help=1'" -- $c --help=1
done
for c in replay whatif variants; do
	expect_usage "$c: a value is missing after option '--plugin'" -- $c --plugin
done
for c in replay whatif; do
	expect_usage "$c: ambiguous option '--vari' (--variant, ...: spell it out)" -- $c --vari x "$pipe"
	expect_usage "$c: option '--json' takes no value, not '--json=3'" -- $c --json=3 "$pipe"
done
expect_usage "report: option '--json' takes no value, not '--json=3'" -- report --json=3 "$pipe"
# the group after a long option: "unknown option '--json'"
expect_usage "replay: unknown option '-x'" -- replay --json -xj "$pipe"
expect_usage "capture: a value is missing after option '-o'" -- capture -qo
expect_usage "schedreplay: a command is needed: report, capture, variants, whatif, replay, validate (see" --
expect_usage "variants: a value is missing after option '--variants-file'" -- variants --vari
expect_usage "variants: unexpected argument 'x' (see 'schedreplay variants --help')" -- variants x
expect_usage "validate: unexpected argument 'x' (see 'schedreplay validate --help')" -- validate x
expect_usage "report: one trace file at a time" -- report "$pipe" "$pipe"
expect_usage "replay: one TRACE.dat expected" -- replay "$pipe" "$pipe"
expect_usage "whatif: one TRACE only" -- whatif "$pipe" "$pipe"
# every kind of usage error, in every command that has it, is one line (the
# see-line came second in replay, whatif, validate, variants and capture); the
# model's options are one table (cmd_runs.c): validate's own copy said
# "--placement takes", "unknown profile 'x'" without the known ones, and
# whatif had no --idle-pull
for c in replay whatif validate; do
	expect_usage "$c: --placement is trace or model, not 'foo'" -- $c --placement foo "$pipe"
	expect_usage "$c: --handoff takes preempt, skip, yield, sleep, writeon, writeon-pre or skip-wake, not 'x'" -- $c --handoff x "$pipe"
	expect_usage "$c: --channels takes auto, off or strict, not 'x'" -- $c --channels x "$pipe"
	expect_usage "$c: unknown profile 'x' (known: " -- $c --profile x "$pipe"
	expect_usage "$c: a value is missing after option '--handoff'" -- $c --handoff
	expect_usage "$c: ambiguous option '--no' (--no-" -- $c --no "$pipe"
	expect_usage "$c: option '--idle-pull' takes no value, not '--idle-pull=1'" -- $c --idle-pull=1 "$pipe"
done
# --sched-feature: the kernel's debugfs words, only the features profile_table.h
# marks toggleable (SF()) and only in profiles whose kernel has them
for c in replay whatif validate; do
	expect_usage "$c: --sched-feature: unknown sched feature 'NO_FOO' (toggleable: PLACE_LAG .* NI_RANDOM; NO_NAME clears)" -- $c --sched-feature NO_FOO "$pipe"
	expect_usage "$c: --sched-feature: sched feature 'PROTECT_VPROT' is a model switch, not a toggleable features.h entry (toggleable: PLACE_LAG " -- $c --sched-feature NO_PROTECT_VPROT "$pipe"
	expect_usage "$c: --sched-feature: sched feature 'RUN_TO_PARITY' does not exist in profile 6.1's kernel" -- $c --profile 6.1 --sched-feature NO_RUN_TO_PARITY "$pipe"
done
# a variants file's "sched_features": the same words, checked at load
printf '{"name": "nrtp", "description": "d", "sched_features": ["NO_RUN_TO_PARTY"]}' > "$work/sf.json"
expect 1 "variants: .*sf.json: variant 'nrtp': unknown sched feature 'NO_RUN_TO_PARTY'" -- variants --variants-file "$work/sf.json"
# a name typed with a byte that is not UTF-8 is escaped as \xNN in the message
# (it was written raw: whatif --machine's and the variant catalogue's, fz28)
expect_usage "whatif: --machine: no built-in machine 'x\\\\xffy'" -- whatif --machine "x$(printf '\377')y" "$pipe"
expect 2 "replay: unknown variant 'x\\\\xffy'" -- replay --variant "x$(printf '\377')y" "$pipe"
expect 2 "replay: --variant 'base,,\\\\xff': an empty name in the list" -- replay --variant "base,,$(printf '\377')" "$pipe"
# --sched-feature's name is the model library's message: a byte not printable ASCII by value
expect_usage "replay: --sched-feature: unknown sched feature 'NO_\\.\\.\\.': byte 0xff after it" -- replay --sched-feature "NO_$(printf '\377')A" "$pipe"
# ... and, as --sched-feature's, against the trace's profile before any run:
# they were a run's failure (exit 1), and under --profile auto so was a
# --sched-feature the trace's kernel lacks (small-pipe.dat: 6.18, no START_DEBIT)
printf '{"name": "nrtp", "description": "d", "sched_features": ["NO_RUN_TO_PARITY"]}' > "$work/sf.json"
for c in replay whatif; do
	expect_usage "$c: $work/sf.json: variant 'nrtp' (sched_features): .*small-pipe.dat's kernel profile is 6.1 (--profile), whose kernel/sched/features.h has no RUN_TO_PARITY" -- $c --profile 6.1 --variants-file "$work/sf.json" --variant nrtp "$pipe"
	expect_usage "$c: --sched-feature: .*small-pipe.dat's kernel profile is 6.18 (--profile auto, kernel 6.18.44-fc-v857), whose kernel/sched/features.h has no START_DEBIT" -- $c --sched-feature START_DEBIT "$pipe"
done
# the commands' own arguments
expect_usage "replay: one TRACE.dat expected" -- replay
expect_usage "whatif: a TRACE is needed" -- whatif
expect_usage "report: no trace file given" -- report
expect_usage "report: bad value 'x' for --by" -- report --by x "$pipe"
# ... and says what each option takes ("bad value 'x' for --top" alone did not)
expect_usage "report: bad value 'x' for --by (it takes comm, pid or cgroup)" -- report --by x "$pipe"
expect_usage "report: bad value '-1' for --top (it takes a count, 0..2147483647, 0 = all)" -- report --top -1 "$pipe"
expect_usage "report: bad value 'x' for --pid (it takes a PID, 0..2147483647)" -- report --pid x "$pipe"
expect_usage "report: bad value 'x' for --start (it takes auto, waking or wakeup)" -- report --start x "$pipe"
expect_usage "report: bad value 'kb' for --reader (it takes native or libtracecmd)" -- report --reader kb "$pipe"
expect_usage "report: bad value 'z' for --cgroup-root (it takes a cgroup hierarchy ID, 0..2147483647)" -- \
	report --cgroup-root z "$pipe"
expect_usage "report: ambiguous option '--s' (--" -- report --s x "$pipe"
expect_usage "replay: --top takes 0..[0-9]* (0: all), not 'x'" -- replay --top x "$pipe"
expect_usage "whatif: no built-in machine 'x'" -- whatif --print-machine x
# a JSON input that cannot be opened: jansson's "F:-1:-1: unable to open F: ..."
# (validate's "F:-1: ..."); a --machine name that is neither built in nor a file
# did not name the built-in ones; validate run outside the source tree did not
# say that its default --dir is ./traces
expect 1 "replay: $work/none.json: cannot open: No such file or directory\$" -- \
	replay --variants-file "$work/none.json" "$pipe"
expect 1 "variants: $work/none.json: cannot open: No such file or directory\$" -- \
	variants --variants-file "$work/none.json"
expect 1 "whatif: $work/none.json: cannot open: No such file or directory\$" -- \
	whatif --machine "$work/none.json" "$pipe"
# ... and was exit 1, a file error: a mistyped name is a bad value (exit 2)
expect_usage "whatif: --machine: no built-in machine 'one-sockett' (one-socket, two-socket) and no such file" -- \
	whatif --machine one-sockett "$pipe"
expect 1 "validate: $work/none.json: cannot open: No such file or directory\$" -- \
	validate --thresholds "$work/none.json"
# a thresholds file that does not parse: the line of every JSON input,
# F:LINE:COLUMN (sr_error_set_json(); validate's was F:LINE, its own split);
# the name as validate names files, escaped
printf '{"schema": "schedreplay-thresholds",\n "traces": {"a": 1, "a": 2}}\n' > "$work/dupkey.json"
expect 1 "validate: $work/dupkey.json:2:23: duplicate object key near '\"a\"'\$" -- \
	validate --thresholds "$work/dupkey.json"
expect 1 "replay: $work/dupkey.json:2:23: duplicate object key near '\"a\"'\$" -- \
	replay --variants-file "$work/dupkey.json" "$pipe"
mkdir -p "$work/nl/j$(printf '\r')d"
cp "$work/dupkey.json" "$work/nl/j$(printf '\r')d/thresholds.json"
expect 1 "validate: $work/nl/j\\\\rd/thresholds.json:2:23: duplicate object key" -- \
	validate --dir "$work/nl/j$(printf '\r')d"
(cd "$work" || exit 1; f0=$fails
 expect 1 "validate: traces/thresholds.json: cannot open: No such file or directory (the default --dir is ./traces: run it in the source tree, or give --dir)" -- validate
 [ $fails = $f0 ]) || fails=$((fails + 1))
# a --dir of one's own traces without its thresholds file: how to give the limits
mkdir -p "$work/mytraces"
expect 1 "validate: $work/mytraces/thresholds.json: cannot open: No such file or directory (each trace of --dir needs an entry with its limits: write them into DIR/thresholds.json or give --thresholds FILE;" -- \
	validate --dir "$work/mytraces"
expect_usage "whatif: --svg-cgroup or --svg-comm, not both" -- whatif --svg-cgroup a --svg-comm b "$pipe"
expect_usage "validate: --seeds takes 1..64, not '0'" -- validate --seeds 0
expect_usage "validate: --seeds takes 1..64, not '65'" -- validate --seeds 65
expect_usage "validate: --first-seed takes a seed from 1, not '0'" -- validate --first-seed 0
expect_usage "validate: --first-seed takes a seed from 1, not '-3'" -- validate --first-seed -3
# validate --variant: an unknown name as replay's (exit 2, pointing at the
# catalog), one set only, and not for the base model's --markdown/--suggest
expect 2 "validate: unknown variant 'nosuch' (known: base, .*; see 'schedreplay variants')\$" -- \
	validate --variant nosuch
expect_usage "validate: --variant given twice ('aaron-skip', 'base')" -- \
	validate --variant aaron-skip --variant base
# one name twice in a list (fuzz40): "variant aaron-skip given twice", the
# only --variant error that named neither the option nor where to look
expect 2 "whatif: --variant 'aaron-skip, aaron-skip': variant aaron-skip given twice (see 'schedreplay variants')\$" -- \
	whatif --variant 'aaron-skip, aaron-skip' "$pipe"
expect 2 "validate: --variant 'base,aaron-skip,aaron-skip': variant aaron-skip given twice (see 'schedreplay variants')\$" -- \
	validate --variant base,aaron-skip,aaron-skip
expect_usage "validate: --variant is for the text and --json outputs" -- \
	validate --variant aaron-skip --markdown
expect_usage "validate: --variant is for the text and --json outputs" -- \
	validate --suggest --variant aaron-skip
# ... parsed as replay's and whatif's --variant (run_opt_table[]'s entry): an
# empty one is refused (validate ran base without a word), a name is written
# as replay writes it, escaped by cli.h's rule (a backslash doubled)
expect_usage "replay: --variant takes a name or a composition A,B, not ''" -- replay --variant '' "$pipe"
expect_usage "validate: --variant takes a name or a composition A,B, not ''" -- validate --variant ''
expect 2 "replay: unknown variant 'a\\\\\\\\b' (known: base," -- replay --variant 'a\b' "$pipe"
expect 2 "validate: unknown variant 'a\\\\\\\\b' (known: base," -- validate --variant 'a\b'
# a name within two edits of a known one ('_' for '-' free) is named first
expect 2 "replay: unknown variant 'aaron_skip' (did you mean 'aaron-skip'? known: base," -- \
	replay --variant aaron_skip "$pipe"
expect 2 "whatif: unknown variant 'tg-ratelimt' (did you mean 'tg-ratelimit'? known: base," -- \
	whatif --variant tg-ratelimt "$pipe"
# options that did nothing, without a word: both of --vcpu-pack and
# --no-vcpu-pack (the last won), and the trace placement's options under
# --placement model
for c in replay whatif validate; do
	t=$pipe; [ $c = validate ] && t=
	expect_usage "$c: --vcpu-pack and --no-vcpu-pack exclude each other" -- \
		$c --vcpu-pack --no-vcpu-pack $t
	expect_usage "$c: --vcpu-pack and --no-vcpu-pack exclude each other" -- \
		$c --no-vcpu-pack --vcpu-pack $t
	# --preempt-costs with its old name or itself, two values: the last won
	expect_usage "$c: --preempt-costs all and strict exclude each other (--strict-preempt-costs is --preempt-costs strict)" -- \
		$c --preempt-costs all --strict-preempt-costs $t
	expect_usage "$c: --preempt-costs strict and all exclude each other (--strict-preempt-costs is --preempt-costs strict)" -- \
		$c --strict-preempt-costs --preempt-costs all $t
	expect_usage "$c: --preempt-costs strict and all exclude each other (--strict-preempt-costs is --preempt-costs strict)" -- \
		$c --preempt-costs strict --preempt-costs all $t
	for opt in --state-placement --state-placement-wakes --idle-pull --nohz-pull "--balance-attach kernel-order" \
		   "--queued-moves wait" "--queued-moves position"; do
		expect_usage "$c: $opt is an option of --placement trace (the trace's placement); with --placement model it does nothing" -- \
			$c --placement model $opt $t
	done
done
expect_usage "replay: --placement-check checks the model's choice against the trace's placement (--placement trace); with --placement model it does nothing" -- \
	replay --placement-check --placement model "$pipe"
expect_ok replay --placement model --balance-attach trace-order "$pipe"
expect_ok replay --placement model --queued-moves time "$pipe"
# the reverse (inp38's fuzz round): --exec-balance-at traced moves the model's
# sched_exec(), which the trace's placement never runs: it did nothing at exit 0
for c in replay whatif validate; do
	t=$pipe; [ $c = validate ] && t=
	expect_usage "$c: --exec-balance-at traced moves --placement model's sched_exec(); under --placement trace (the default) an exec stays on its traced CPU and it does nothing" -- \
		$c --exec-balance-at traced $t
	expect_usage "$c: --exec-balance-at traced moves --placement model's sched_exec()" -- \
		$c --placement trace --exec-balance-at traced $t
done
expect_ok replay --placement model --exec-balance-at traced "$pipe"
expect_ok replay --exec-balance-at exec "$pipe"
expect_usage "validate: unexpected argument '$pipe'" -- validate "$pipe"
# --json --markdown printed the markdown (a script reading JSON got a table), and
# --json --suggest the suggestions: the three outputs are one or another
for pair in "--json --markdown" "--suggest --json" "--markdown --suggest"; do
	expect_usage "validate: --markdown, --json and --suggest are three outputs; give one of them" -- \
		validate $pair --seeds 1 --dir "$work/vempty"
done
expect_usage "variants: option '--json' takes no value, not '--json=1'" -- variants --json=1
expect_usage "capture: --duration takes seconds > 0 (and at most 86400), not 'x'" -- capture --duration x
expect_usage "capture: --buffer-kb takes 16..4194304, not '1'" -- capture --buffer-kb 1
expect_usage "capture: -o OUT.dat is required" -- capture --duration 1

# validate --suggest printed a trace name that is not UTF-8 as "\\xNN", a key
# naming another file (and plain validate said "no entry: add its thresholds",
# which no thresholds.json can); a name with a backslash came back doubled
mkdir -p "$work/vname" "$work/vbs"
ln -sf "$pipe" "$work/vname/t$(printf '\377').dat"
cp "$traces/thresholds.json" "$work/vname/"
for f in --suggest --json ""; do
	expect 1 "validate: $work/vname/t\\\\xff.dat: the file name is not UTF-8, so no key of thresholds.json can name it" -- \
		validate --dir "$work/vname" --seeds 1 $f
	[ -s "$work/out" ] && { echo "FAIL: validate $f on a name that is not UTF-8 printed:"; cat "$work/out"; fails=$((fails + 1)); }
done
# the suggestion for 'p\q.dat' is its entry: validate finds it (exit 0)
ln -sf "$pipe" "$work/vbs/p\\q.dat"
head='{"schema": "schedreplay-thresholds", "version": 1, "traces": '
printf '%s{}, "default_entry": {"latency_group": {}}}\n' "$head" > "$work/vbs/thresholds.json"
timeout 300 "$sr" validate --dir "$work/vbs" --seeds 1 --suggest > "$work/vbs/sug" 2> "$work/err"
{ printf '%s' "$head"; cat "$work/vbs/sug"; printf '}\n'; } > "$work/vbs/thresholds.json"
if ! grep -q '^    "p\\\\q.dat": ' "$work/vbs/sug" ||
   ! timeout 300 "$sr" validate --dir "$work/vbs" --seeds 1 > "$work/out" 2>&1; then
	echo "FAIL: validate --suggest's entry for 'p\\q.dat' is not found:"; cat "$work/vbs/sug" "$work/out"
	fails=$((fails + 1))
else
	echo "ok: validate --suggest round-trips 'p\\q.dat'"
fi
# a skip reason is cut to 500 bytes: the cut fell inside "é" and --suggest
# printed "skip": null (jansson refuses the invalid UTF-8)
mkdir -p "$work/vskip"
ln -sf "$pipe" "$work/vskip/t.dat"
ln -sf "$pipe" "$work/vskip/u.dat"
x=$(printf '%499s' '' | tr ' ' x)
printf '%s{"t.dat": {"skip": "%s\303\251tude"}}, "default_entry": {"latency_group": {}}}\n' \
	"$head" "$x" > "$work/vskip/thresholds.json"
timeout 300 "$sr" validate --dir "$work/vskip" --seeds 1 --suggest > "$work/out" 2> "$work/err"
if grep -q "^    \"t.dat\": { \"skip\": \"$x\" }" "$work/out"; then
	echo "ok: validate --suggest cuts a skip reason on a character boundary"
else
	echo "FAIL: validate --suggest's skip reason cut inside a character:"; grep t.dat "$work/out"
	fails=$((fails + 1))
fi

# every --help fits an 80-column terminal (run_opts_help() re-flows the model
# options; the commands' own texts are wrapped by hand)
for c in "" report capture variants whatif replay validate; do
	# shellcheck disable=SC2086 # $c is one word or none
	"$sr" $c --help > "$work/help" 2>&1
	wide=$(awk 'length > 80' "$work/help")
	if [ -n "$wide" ]; then
		echo "FAIL: schedreplay $c --help has lines over 80 columns:"; echo "$wide"
		fails=$((fails + 1))
	else
		echo "ok: schedreplay $c --help within 80 columns"
	fi
done

[ $fails = 0 ] || { echo "$fails failures"; exit 1; }
