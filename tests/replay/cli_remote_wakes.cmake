# remote_wakes.py (docs/replay.md, the analysis helpers' table) on small-chan: report's samples
# of the trace, `trace-cmd report` of it, two dumps with --dump-wake-records (seeds 1, 2), and
# remote_wakes_check.py (CHECK) on the output: each input's tables add up to its remote
# wakeups onto a busy CPU, the dumps' pairs to at most their samples.
# Needs SCHEDREPLAY, PYTHON3, TRACECMD, TOOL, CHECK, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-chan.dat)
analysis_inputs(${t} ${WORK} REP --dump-wake-records)
execute_process(COMMAND ${PYTHON3} ${TOOL} --samples ${WORK}/s.samples
                        ${WORK}/t.rep ${WORK}/s1.dump ${WORK}/s2.dump
                OUTPUT_FILE ${WORK}/remote.txt ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "remote_wakes.py: exit ${rc}: ${e}")
execute_process(COMMAND ${PYTHON3} ${CHECK} ${WORK}/remote.txt 2
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "remote_wakes_check.py: exit ${rc}: ${o}${e}")
expect_match("3 inputs \\(2 dumps\\), 0 errors" "${o}" "remote_wakes_check.py: ${o}")
file(REMOVE ${WORK}/s1.dump ${WORK}/s2.dump ${WORK}/t.rep)
