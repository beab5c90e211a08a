# remote_wakes.py (docs/replay.md, the analysis helpers' table) on small-chan: report's samples
# of the trace, `trace-cmd report` of it, two dumps with --dump-wake-records (seeds 1, 2), and
# remote_wakes_check.py (CHECK) on the output: each input's tables add up to its remote
# wakeups onto a busy CPU, the dumps' pairs to at most their samples.
# Needs SCHEDREPLAY, PYTHON3, TRACECMD, TOOL, CHECK, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/small-chan.dat)
execute_process(COMMAND ${SCHEDREPLAY} report --samples ${WORK}/s.samples ${t}
                OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "report --samples: exit ${rc}: ${e}")
execute_process(COMMAND ${TRACECMD} report -t -i ${t} OUTPUT_FILE ${WORK}/t.rep
                ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "trace-cmd report: exit ${rc}: ${e}")
foreach(seed 1 2)
  execute_process(COMMAND ${SCHEDREPLAY} replay --seed ${seed} --dump-events ${WORK}/s${seed}.dump
                          --dump-wake-records ${t}
                  OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "replay --seed ${seed}: exit ${rc}: ${e}")
endforeach()
execute_process(COMMAND ${PYTHON3} ${TOOL} --samples ${WORK}/s.samples
                        ${WORK}/t.rep ${WORK}/s1.dump ${WORK}/s2.dump
                OUTPUT_FILE ${WORK}/remote.txt ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "remote_wakes.py: exit ${rc}: ${e}")
execute_process(COMMAND ${PYTHON3} ${CHECK} ${WORK}/remote.txt 2
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "remote_wakes_check.py: exit ${rc}: ${o}${e}")
expect_match("3 inputs \\(2 dumps\\), 0 errors" "${o}" "remote_wakes_check.py: ${o}")
file(REMOVE ${WORK}/s1.dump ${WORK}/s2.dump ${WORK}/t.rep)
