# replay --json's wakeup paths on small-chan (docs/replay.md, "Wakeup paths"): the measured
# counts against the golden ones, which are wakeup_paths.py's classes of report's samples on
# `trace-cmd report` of the trace (checked again here when TRACECMD is set), and the predicted
# side against wakeup_paths.py on the run's --dump-events file: one definition, both sides.
# Needs SCHEDREPLAY, PYTHON3, TOOL, CHECK, DIR, WORK; TRACECMD optional.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/small-chan.dat)
execute_process(COMMAND ${SCHEDREPLAY} report --samples ${WORK}/s.samples ${t}
                OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "report --samples: exit ${rc}: ${e}")
execute_process(COMMAND ${SCHEDREPLAY} replay --json --dump-events ${WORK}/s.dump ${t}
                OUTPUT_FILE ${WORK}/r.json ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay --json --dump-events: exit ${rc}: ${e}")
execute_process(COMMAND ${PYTHON3} ${TOOL} --samples ${WORK}/s.samples --group all ${WORK}/s.dump
                OUTPUT_FILE ${WORK}/dump.txt ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "wakeup_paths.py on the dump: exit ${rc}: ${e}")
set(args --dump-paths ${WORK}/dump.txt)
if(TRACECMD)
  execute_process(COMMAND ${TRACECMD} report -t -i ${t} OUTPUT_FILE ${WORK}/t.rep
                  ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "trace-cmd report: exit ${rc}: ${e}")
  execute_process(COMMAND ${PYTHON3} ${TOOL} --samples ${WORK}/s.samples --group all ${WORK}/t.rep
                  OUTPUT_FILE ${WORK}/trace.txt ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "wakeup_paths.py on the trace: exit ${rc}: ${e}")
  list(APPEND args --trace-paths ${WORK}/trace.txt)
endif()
execute_process(COMMAND ${PYTHON3} ${CHECK} ${WORK}/r.json ${args}
                        --golden "samples=309 idle=3 preempt_local=95 preempt_remote=16 behind_current_local=6 behind_current_remote=41 queued_local=51 queued_remote=74 moved=3 new=20 unknown=0 local_busy=152 local_busy_preempt=95"
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "wakeup_paths_golden.py: exit ${rc}: ${o}${e}")
expect_match("^0 errors" "${o}" "wakeup_paths_golden.py: ${o}")
# whatif's table of the same paths: the golden counts above as shares of the 309 samples
# (idle 3, preempt 95 + 16, behind 6 + 41, queued 51 + 74; local preempt 95 of 152), and
# each run's row with its change in points
execute_process(COMMAND ${SCHEDREPLAY} whatif --variant aaron-skip ${t}
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "whatif: exit ${rc}: ${e}")
expect_match("\nwakeup paths, all +idle +preempt +behind current +queued +local preempt\n" "${o}"
             "whatif: no wakeup paths table: ${o}")
expect_match("\nmeasured +1\\.0% +35\\.9% +15\\.2% +40\\.5% +62\\.5%\n" "${o}"
             "whatif: the measured paths are not the golden shares: ${o}")
expect_match("\naaron-skip +[0-9.]+% \\([-+][0-9.]+\\)" "${o}" "whatif: no run row with points: ${o}")
file(REMOVE ${WORK}/s.dump ${WORK}/t.rep)
