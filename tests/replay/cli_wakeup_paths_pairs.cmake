# wakeup_paths.py --pairs (docs/replay.md, the analysis helpers' table) on small-hackbench:
# report's samples of the trace and `trace-cmd report` of it, two dumps with --dump-wake-records
# (seeds 1, 2), and wakeup_paths_pairs_check.py (CHECK) on the output: the pairs by wake record
# and the unpaired samples add up to each side's samples, nine tenths of the trace's are paired.
# Needs SCHEDREPLAY, PYTHON3, TRACECMD, TOOL, CHECK, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-hackbench.dat)
analysis_inputs(${t} ${WORK} REP --dump-wake-records)
execute_process(COMMAND ${PYTHON3} ${TOOL} --samples ${WORK}/s.samples --group all --comm hackbench
                        --pairs 18 ${WORK}/t.rep ${WORK}/s1.dump ${WORK}/s2.dump
                OUTPUT_FILE ${WORK}/pairs.txt ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "wakeup_paths.py --pairs: exit ${rc}: ${e}")
execute_process(COMMAND ${PYTHON3} ${CHECK} ${WORK}/pairs.txt 2 0.9
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "wakeup_paths_pairs_check.py: exit ${rc}: ${o}${e}")
expect_match("2 dumps, 0 errors" "${o}" "wakeup_paths_pairs_check.py: ${o}")
file(REMOVE ${WORK}/s1.dump ${WORK}/s2.dump ${WORK}/t.rep)
