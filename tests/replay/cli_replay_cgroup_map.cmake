# `schedreplay replay --cgroup-map`: what the facts and notes say of a map that
# had no effect, and the text output's stability.
# A map without PID lines was reported "no --cgroup-map" on the groups line; a
# PID line naming no task alive at the trace start (a typo, another run's pid)
# had no effect without a word, the groups line counting it a task.
# The text output printed each run's wall time ("N events in 0.01 s"), so two
# runs of the same trace and options were not byte-identical.
# Needs SCHEDREPLAY, DIR (small-pipe.dat: pids 22002 and 22003 alive at its
# start) and WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)
file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/small-pipe.dat)

# --- shares lines only: the map was given, its PID lines were none
file(WRITE ${WORK}/shares.map "shares /x 512\n")
replay_run(tx --cgroup-map ${WORK}/shares.map ${t})
expect_match("groups: +1  \\[default: no sidecar, no PID line in --cgroup-map" "${tx}"
             "a map without PID lines: the groups line:\n${tx}")

# --- a PID no task of the trace has: counted in a note; the groups line says 0 of 1
file(WRITE ${WORK}/typo.map "99999 /x\n22002 /y\n")
replay_run(js --json --cgroup-map ${WORK}/typo.map ${t})
string(JSON how GET "${js}" facts task_groups how)
expect_match("\\(2 PID lines, 1 of them tasks of the trace\\)" "${how}"
             "facts.groups.how of a map with one unknown PID: ${how}")
string(FIND "${js}" "--cgroup-map PID lines naming no task alive at the trace start" at)
expect("NOT at EQUAL -1" "a map's unknown PID is in no approximation note:\n${js}")
replay_run(tx --cgroup-map ${WORK}/typo.map ${t})
expect_match("\n +1  --cgroup-map PID lines naming no task alive at the trace start" "${tx}"
             "the text's note of a map's unknown PID:\n${tx}")

# --- the text output twice: the same bytes, no wall time
replay_run(a ${t})
replay_run(b ${t})
expect("a STREQUAL b" "two text runs of one trace differ")
expect_match("\nApproximations \\(simulation, base; [0-9]+ events\\)\n" "${a}"
             "the simulation's approximations heading:\n${a}")
# ... and its HZ line says what the unknown tick phase was taken as ("(tick
# phase unknown: 0)" read as a count)
expect_match("\nHZ: [^\n]*\\(tick phase unknown: 0 ns assumed\\)\n" "${a}"
             "the HZ line of a trace without a tick phase:\n${a}")

# --- CR LF line ends (a map saved on Windows) read as LF: the same groups,
# shares and results as the LF file (inp38; a CR elsewhere is an error:
# tests/reader/bad_cli.sh)
file(WRITE ${WORK}/lf.map "# pid cgroup\n22002 /a/b\nshares /a/b 512\n")
file(WRITE ${WORK}/crlf.map "# pid cgroup\r\n22002 /a/b\r\nshares /a/b 512\r\n\r\n")
replay_run(lf --json --cgroup-map ${WORK}/lf.map ${t})
replay_run(crlf --json --cgroup-map ${WORK}/crlf.map ${t})
string(JSON lfg GET "${lf}" facts task_groups value)
string(JSON crg GET "${crlf}" facts task_groups value)
expect("lfg EQUAL 3 AND crg EQUAL lfg" "task groups of the LF map ${lfg} (expected 3: /, /a, /a/b), of the CR LF map ${crg}")
string(REPLACE "crlf.map" "lf.map" crlf "${crlf}")
expect("crlf STREQUAL lf" "the CR LF map's replay differs from the LF map's")
