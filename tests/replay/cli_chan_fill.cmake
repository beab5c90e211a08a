# The channel replay's dump lines (replay --dump-wake-records with --channels auto|strict,
# docs/replay.md "Output") and chan_fill.py (docs/validation-log.md, "The channel replay's
# lost switches"): on small-chan, every channel as the simulation takes it (a socket channel
# whose writes never slept takes its sibling's capacity), each READ/WRITE with the fill it
# leaves, the trace's sleep points (kept or not under auto) and strict's sleeps; chan_fill.py
# --check finds the bytes adding up and every sleep where the rules put it.  On
# hackbench-chan under strict, channel wakes the trace has no record of are placed by the
# model (select_task_rq_fair()), so some move their wakee (before: always its previous CPU).
# Needs SCHEDREPLAY, PYTHON3, TOOL, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/small-chan.dat)
foreach(mode auto strict)
  execute_process(COMMAND ${SCHEDREPLAY} replay --seed 1 --channels ${mode}
                          --dump-events ${WORK}/${mode}.dump --dump-wake-records ${t}
                  OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "replay --channels ${mode}: exit ${rc}: ${e}")
  file(READ ${WORK}/${mode}.dump d)
  foreach(re "\n\\[000\\] [0-9]+\\.[0-9]+: replay_op: channel ch=9 reader=8050 fd=7 kind=socket capacity=27800 wake_fill=6900 cap_from=8 init_fill=0 writers=5\n"
             "\n\\[000\\] [0-9]+\\.[0-9]+: replay_op: channel ch=8 reader=8048 fd=7 kind=socket capacity=27800 wake_fill=6900 cap_from=8 "
             "\n\\[000\\] [0-9]+\\.[0-9]+: replay_op: channel ch=1 reader=8034 fd=3 kind=pipe capacity=-1 wake_fill=-1 cap_from=-1 init_fill=1664 writers=10\n"
             "\n\\[00[01]\\] [0-9]+\\.[0-9]+: replay_op: chan pid=[0-9]+ rw=read ch=[0-9]+ bytes=100 fill=-?[0-9]+ trace=[0-9]+ slept=0\n"
             "\n\\[00[01]\\] [0-9]+\\.[0-9]+: replay_op: chan pid=[0-9]+ rw=write ch=[0-9]+ bytes=100 fill=-?[0-9]+ trace=[0-9]+ slept=0\n"
             "\n\\[00[01]\\] [0-9]+\\.[0-9]+: replay_op: chanblock pid=[0-9]+ rw=read ch=[0-9]+ bytes=100 fill=-?[0-9]+ trace=[0-9]+ slept=0\n")
    expect_match("${re}" "${d}" "--channels ${mode} dump: no line matching ${re}")
  endforeach()
endforeach()
file(READ ${WORK}/auto.dump d)
expect_match("\n[^\n]*replay_op: chanblock pid=[0-9]+ rw=read ch=[0-9]+ bytes=100 fill=-?[0-9]+ trace=[0-9]+ slept=1\n"
             "${d}" "--channels auto: no traced read sleep kept")
file(READ ${WORK}/strict.dump d)
expect_match("\n[^\n]*replay_op: chansleep pid=[0-9]+ rw=read ch=[0-9]+ bytes=100 fill=0 trace=[0-9]+ slept=1\n"
             "${d}" "--channels strict: no read sleeping on an empty channel")
# without --channels, no channel lines
execute_process(COMMAND ${SCHEDREPLAY} replay --seed 1 --dump-events ${WORK}/off.dump
                        --dump-wake-records ${t}
                OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay: exit ${rc}: ${e}")
file(READ ${WORK}/off.dump d)
if(d MATCHES "replay_op: chan")
  message(FATAL_ERROR "a replay without --channels dumped channel lines")
endif()

execute_process(COMMAND ${PYTHON3} ${TOOL} --check ${WORK}/auto.dump ${WORK}/strict.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "chan_fill.py --check: exit ${rc}: ${o}${e}")
expect_match("2 inputs, 0 errors" "${o}" "chan_fill.py --check: ${o}")
# the trace's 361 read sleeps (74 pipe, 284 socket, 3 of the capture's own) against auto's
# kept ones and strict's; auto reads ahead of its bytes, strict never
expect_match("\\(auto\\)[^\n]*\n.*\n  all: reads 4527; read sleeps trace 361, replay [0-9]+; trace sleeps skipped [1-9][0-9]*; reads ahead of their bytes [1-9][0-9]* "
             "${o}" "chan_fill.py, auto: ${o}")
expect_match("\\(strict\\)[^\n]*\n.*\n  all: reads 4527; read sleeps trace 361, replay [1-9][0-9]*; trace sleeps skipped 0; reads ahead of their bytes 0 "
             "${o}" "chan_fill.py, strict: ${o}")
file(REMOVE ${WORK}/auto.dump ${WORK}/strict.dump ${WORK}/off.dump)

# hackbench-chan, strict: the channels' own wakes placed by the model move some wakees
set(t ${DIR}/hackbench-chan.dat)
if(EXISTS ${t})
  execute_process(COMMAND ${SCHEDREPLAY} replay --seed 1 --channels strict
                          --dump-events ${WORK}/hc.dump --dump-wake-records ${t}
                  OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "replay --channels strict hackbench-chan: exit ${rc}: ${e}")
  execute_process(COMMAND ${PYTHON3} ${TOOL} --check ${WORK}/hc.dump
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "chan_fill.py --check hackbench-chan: exit ${rc}: ${o}${e}")
  expect_match("hand-off replies\\) [0-9]+, [1-9][0-9]* moved their wakee" "${o}"
               "hackbench-chan strict: no channel wake moved its wakee: ${o}")
  file(REMOVE ${WORK}/hc.dump)
endif()
