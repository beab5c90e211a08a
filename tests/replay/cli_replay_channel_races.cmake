# replay --channel-races (docs/replay.md, "Readers with several writers") on
# hackbench-chan-run2, seed 1: the race wakes of the pipe readers' channel
# pairs (the writer's waking came while the reader was still going to sleep)
# are counted and re-paired, so that fewer of the readers' wakes arrive early
# and stand in at their block than with --channel-wakes alone (the readers are
# not held on the trace's writer of a racing sleep: docs/validation-log.md,
# "hackbench-chan-run2's p95: a stall of the readers and its backlog").
# Needs SCHEDREPLAY, DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/hackbench-chan-run2.dat)
set(races_re "([0-9]+)  wakes of a reader with several writers that raced with its sleep in the trace")
set(standin_re "([0-9]+)  early wakes neither sync nor a race in the trace")

replay_run(cw --seed 1 --channel-wakes ${t})
replay_run(cr --seed 1 --channel-races ${t})
string(REGEX MATCH "${races_re}" m "${cw}")
string(LENGTH "${m}" n)
expect("${n} EQUAL 0" "--channel-wakes alone re-paired race wakes: ${m}")
set(CMAKE_MATCH_1 0)
string(REGEX MATCH "${races_re}" m "${cr}")
set(nraces ${CMAKE_MATCH_1})
expect("${nraces} GREATER 100" "--channel-races: only ${nraces} race wakes re-paired")
string(REGEX MATCH "${standin_re}" m "${cw}")
expect_match("${standin_re}" "${cw}" "--channel-wakes: no stand-in count in the notes")
set(s_cw ${CMAKE_MATCH_1})
expect_match("${standin_re}" "${cr}" "--channel-races: no stand-in count in the notes")
string(REGEX MATCH "${standin_re}" m "${cr}")
set(s_cr ${CMAKE_MATCH_1})
math(EXPR lim "${s_cw} * 3 / 4")
expect("${s_cr} LESS ${lim}"
       "--channel-races: ${s_cr} stand-ins, not fewer than 3/4 of --channel-wakes' ${s_cw}")
