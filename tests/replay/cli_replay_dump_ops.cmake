# replay --dump-wake-records (docs/replay.md, "Output"): the event dump gains a
# `replay_op:` line per replayed wake naming its wake record (the wakee's pid
# and the trace's sched_waking time), per early wake and what its block
# became, and per hand-off WAIT; the events themselves are unchanged.  Needs
# SCHEDREPLAY, DIR and WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/small-hackbench.dat)

# without --dump-events there is nowhere to write them: a usage error
execute_process(COMMAND ${SCHEDREPLAY} replay --dump-wake-records ${t}
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 2" "--dump-wake-records without --dump-events: exit ${rc}, not 2")
expect_match("--dump-wake-records writes into the --dump-events file" "${e}"
             "--dump-wake-records without --dump-events: no message saying why")

replay_run(plain --seed 1 --dump-events ${WORK}/plain.dump ${t})
replay_run(ops --seed 1 --dump-events ${WORK}/ops.dump --dump-wake-records ${t})
file(READ ${WORK}/plain.dump pd)
file(READ ${WORK}/ops.dump od)
# the output is the same but for the simulation's wall time
string(REGEX REPLACE "events in [0-9.]+ s" "" plain "${plain}")
string(REGEX REPLACE "events in [0-9.]+ s" "" ops "${ops}")
if(NOT plain STREQUAL ops)
  message(FATAL_ERROR "the replay's output differs with --dump-wake-records")
endif()

# every kind of line small-hackbench has (seed 1: wakes, early wakes, stand-ins,
# skipped blocks, hand-off WAITs handed over and passed), in the dump's line shape
foreach(re "\n\\[00[01]\\] [0-9]+\\.[0-9]+: replay_op: wake pid=[0-9]+ trace=[0-9]+ waker=-?[0-9]+\n"
           "\n\\[00[01]\\] [0-9]+\\.[0-9]+: replay_op: early pid=[0-9]+ trace=[0-9]+ waker=[0-9]+\n"
           "\n\\[00[01]\\] [0-9]+\\.[0-9]+: replay_op: standin pid=[0-9]+ trace=[0-9]+ waker=[0-9]+\n"
           "\n\\[00[01]\\] [0-9]+\\.[0-9]+: replay_op: skipblock pid=[0-9]+ trace=[0-9]+\n"
           "\n\\[00[01]\\] [0-9]+\\.[0-9]+: replay_op: wait pid=[0-9]+ y=[0-9]+ kind=handover\n"
           "\n\\[00[01]\\] [0-9]+\\.[0-9]+: replay_op: wait pid=[0-9]+ y=[0-9]+ kind=passed")
  expect_match("${re}" "${od}" "--dump-wake-records: no line matching ${re}")
endforeach()

# a wake line comes right before its own sched_waking when the wake emits one
string(REGEX MATCH "replay_op: wake pid=([0-9]+) trace=[0-9]+ waker=-?[0-9]+\n[^\n]* sched_waking: [^\n]*:([0-9]+) "
       m "${od}")
set(wpid "${CMAKE_MATCH_1}")
set(spid "${CMAKE_MATCH_2}")
if(m STREQUAL "")
  message(FATAL_ERROR "--dump-wake-records: no wake line followed by a sched_waking")
endif()
if(NOT wpid EQUAL spid)
  message(FATAL_ERROR "--dump-wake-records: a wake line of pid ${wpid} before the sched_waking of ${spid}")
endif()

# the simulated events are the same: the dump without the replay_op lines is
# the plain dump
string(REGEX REPLACE "[^\n]* replay_op: [^\n]*\n" "" stripped "${od}")
if(stripped STREQUAL "")
  message(FATAL_ERROR "--dump-wake-records: empty dump")
endif()
if(NOT stripped STREQUAL pd)
  message(FATAL_ERROR "--dump-wake-records changed the simulated events")
endif()
string(FIND "${pd}" "replay_op:" at)
expect("at EQUAL -1" "a replay_op line without --dump-wake-records")
file(REMOVE ${WORK}/plain.dump ${WORK}/ops.dump)
