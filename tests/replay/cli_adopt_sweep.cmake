# adopt_sweep.py --verdict on hand-made validate outputs (tests/replay/adopt_sweep/, windows 1,
# 16 and 31): the adoption rule passes a set that keeps windows 1 and 16, raises the mean and
# exceeds no limit; fails, naming why, a set with a limit exceeded on a later window (a metric
# that is not a goal), one whose mean drops, one that loses a goal on seeds 16-30 at an equal
# mean; and refuses directories whose windows differ.  Needs PYTHON, TOOL, DATA.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

function(verdict out rc_out set)
  execute_process(COMMAND ${PYTHON} ${TOOL} --verdict ${DATA}/base ${set}
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  set(${out} "${o}${e}" PARENT_SCOPE)
  set(${rc_out} ${rc} PARENT_SCOPE)
endfunction()

# expect_verdict(CASE RC REGEX): the verdict of DATA/CASE exits RC and its output matches REGEX
function(expect_verdict c want re)
  verdict(o rc ${DATA}/${c})
  expect("rc EQUAL ${want}" "${c}: exit ${rc}: ${o}")
  expect_match("${re}" "${o}" "${c}: ${o}")
  set(o "${o}" PARENT_SCOPE)
endfunction()

expect_verdict(pass 0 "goals   3   4   2  mean    3.00 \\(\\+0.33\\)  limits 0 0 0  PASS")
expect_verdict(limit 1 "window 31: 1 limit\\(s\\) exceeded: a.dat sched_migrate_task")
expect_verdict(lowmean 1 "mean drops: 2.67 -> 2.33")
expect_verdict(drop16 1 "goals drop on seeds 16-30: 3 -> 2")
string(FIND "${o}" "mean drops" at)
expect("at EQUAL -1" "drop16: the mean is equal, not a drop: ${o}")

# windows that differ: a usage error, one line
file(MAKE_DIRECTORY ${WORK})
file(COPY ${DATA}/pass/w1.json ${DATA}/pass/w16.json DESTINATION ${WORK})
verdict(o rc ${WORK})
expect("rc EQUAL 2" "windows differ: exit ${rc}: ${o}")
expect_match("^adopt_sweep: windows differ: \\[1, 16, 31\\] against \\[1, 16\\]\n$" "${o}" "windows differ: ${o}")
