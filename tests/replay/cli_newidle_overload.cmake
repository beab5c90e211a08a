# newidle_overload.py (docs/replay.md, the analysis helpers' table) on small-pirt: the trace's
# overload sets rebuilt from the runnable counts (257, all wakeups onto a busy CPU 1), the
# kernel's RT blocks to idle by passes since the set and by an idle tick since the set (none
# of the 196 blocks after an idle tick ran its pass: the tick's periodic balance cleared the
# overload), and the replay's `replay_op: newidle` lines at every block (class=fair and rt,
# with the overload's setter and clearer).  --idle-tick short: the idle ticks it runs are the
# only ticks added (the `tick` count grows by the note's count, no switch moves) and the
# dump's periodic clears grow.  Needs SCHEDREPLAY, PYTHON3, TRACECMD, TOOL, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-pirt.dat)
analysis_inputs(${t} ${WORK} ON --dump-wake-records)
execute_process(COMMAND ${PYTHON3} ${TOOL} ${WORK}/t.rep ${WORK}/s1.dump --pid 9094 --check
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "newidle_overload.py --check: exit ${rc}:\n${o}${e}")
expect_match("257 overload sets \\(a CPU reaching 2 runnable: wakeup 257\\)" "${o}"
             "the trace's sets:\n${o}")
expect_match("359 of them targets, 56 with a second charge" "${o}" "the waiter's blocks:\n${o}")
expect_match("k 1 +idle tick yes +32 +0 " "${o}" "no pass after an idle tick (k 1):\n${o}")
expect_match("k 1 +idle tick no +86 +45 " "${o}" "k 1 without an idle tick:\n${o}")
expect_match("k 2 +idle tick yes +68 +0 " "${o}" "no pass after an idle tick (k 2):\n${o}")
file(STRINGS ${WORK}/s1.dump fair REGEX "replay_op: newidle pid=[0-9]+ next=[0-9]+ outcome=.* class=fair$")
list(LENGTH fair nfair)
expect("nfair GREATER 100" "fair blocks' newidle lines: ${nfair}")
string(REGEX MATCH "cleared by: [^\n]*periodic ([0-9]+)" m "${o}")
set(per_stop ${CMAKE_MATCH_1})

# a dump without the overload fields fails --check
file(WRITE ${WORK}/old.dump "[001] 1.000000000: replay_op: newidle pid=1 next=0 outcome=none\n")
execute_process(COMMAND ${PYTHON3} ${TOOL} ${WORK}/t.rep ${WORK}/old.dump --check
                OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
expect("NOT rc EQUAL 0" "newidle_overload.py --check on a line without the overload fields: exit 0")

execute_process(COMMAND ${SCHEDREPLAY} replay --seed 1 --idle-tick short
                        --dump-events ${WORK}/short.dump --dump-wake-records ${t}
                OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay --idle-tick short: exit ${rc}: ${e}")
execute_process(COMMAND ${PYTHON3} ${TOOL} ${WORK}/t.rep ${WORK}/short.dump --pid 9094 --check
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "newidle_overload.py --check (short): exit ${rc}:\n${o}${e}")
string(REGEX MATCH "cleared by: [^\n]*periodic ([0-9]+)" m "${o}")
set(per_short ${CMAKE_MATCH_1})
expect("per_short GREATER per_stop" "periodic clears: stop ${per_stop}, short ${per_short}")

# the counts of both modes: tick_MODE, sw_MODE (sched_switch); the JSON in j_MODE
foreach(mode stop short)
  execute_process(COMMAND ${SCHEDREPLAY} replay --seed 1 --json --idle-tick ${mode} ${t}
                  OUTPUT_VARIABLE j_${mode} ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "replay --idle-tick ${mode}: exit ${rc}: ${e}")
  foreach(pair tick:tick sw:sched_switch)
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 var)
    list(GET pair 1 key)
    string(JSON ${var}_${mode} GET "${j_${mode}}" variants base counts ${key})
  endforeach()
endforeach()
string(REGEX MATCH "\"count\": ([0-9]+),[ \n]*\"what\": \"ticks run on an idle CPU" m "${j_short}")
set(nidle ${CMAKE_MATCH_1})
math(EXPR diff "${tick_short} - ${tick_stop}")
expect("nidle GREATER 0 AND diff EQUAL nidle" "--idle-tick short: ticks ${tick_stop} -> ${tick_short}, idle ticks noted ${nidle}")
expect("sw_stop EQUAL sw_short" "--idle-tick short moved sched_switch on small-pirt: ${sw_stop} -> ${sw_short}")
string(FIND "${j_stop}" "ticks run on an idle CPU" at)
expect("at EQUAL -1" "--idle-tick stop noted idle ticks")
