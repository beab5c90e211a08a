# wakeup_paths.py --ahead --cpu-bins (docs/replay.md, the analysis helpers' table) on
# small-chan's pipe group: report's samples of the trace, two replay dumps (seeds 1, 2), and
# wakeup_paths_check.py (CHECK) on the output: each class's wait accounted for by what its
# target CPU ran, each CPU bin's shares adding up.  Needs SCHEDREPLAY, PYTHON3, TOOL, CHECK,
# DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-chan.dat)
analysis_inputs(${t} ${WORK} "")
execute_process(COMMAND ${PYTHON3} ${TOOL} --samples ${WORK}/s.samples --band 0 100000
                        --ahead --cpu-bins 2 ${WORK}/s1.dump ${WORK}/s2.dump
                OUTPUT_FILE ${WORK}/paths.txt ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "wakeup_paths.py --ahead --cpu-bins: exit ${rc}: ${e}")
execute_process(COMMAND ${PYTHON3} ${CHECK} ${WORK}/paths.txt
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "wakeup_paths_check.py: exit ${rc}: ${o}${e}")
expect_match("2 inputs, 0 errors" "${o}" "wakeup_paths_check.py: ${o}")
file(REMOVE ${WORK}/s1.dump ${WORK}/s2.dump)
