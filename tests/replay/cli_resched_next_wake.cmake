# --resched-at next-wake (docs/replay.md, "Mechanical costs") on small-hackbench: a sender whose
# CPU has a switch armed is switched out at its next wake, so no receiver it wakes after that
# waits under 5 us behind an earlier wakee that preempted it (queued_fast.py class B, 10 and
# 16 such samples in seeds 1 and 2 under the default, none here); the notes count the wakes
# held.  Needs SCHEDREPLAY, PYTHON3, TRACECMD, TOOL (queued_fast.py), DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-hackbench.dat)
analysis_inputs(${t} ${WORK} REP --dump-wake-records --resched-at next-wake)
execute_process(COMMAND ${PYTHON3} ${TOOL} --samples ${WORK}/s.samples --group srfix
                        ${WORK}/t.rep ${WORK}/s1.dump ${WORK}/s2.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "queued_fast.py: exit ${rc}: ${e}")
string(REGEX MATCHALL "\n  B +[0-9]+ +[0-9]+" b "${o}")
list(LENGTH b n)
expect("n EQUAL 2" "queued_fast.py: ${n} class B lines, not 2: ${o}")
foreach(l ${b})
  string(REGEX MATCH "B +([0-9]+)" m "${l}")
  expect("CMAKE_MATCH_1 EQUAL 0" "class B under 5 us: ${CMAKE_MATCH_1}, not 0: ${o}")
endforeach()
execute_process(COMMAND ${SCHEDREPLAY} replay --seed 1 --resched-at next-wake ${t}
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay --resched-at next-wake: exit ${rc}: ${e}")
string(REGEX MATCH "([0-9]+)  tasks switched out at a wake with a switch armed" m "${o}")
expect("CMAKE_MATCH_1 GREATER 20" "the next-wake note: '${CMAKE_MATCH_1}', not over 20")
file(REMOVE ${WORK}/s1.dump ${WORK}/s2.dump ${WORK}/t.rep)
