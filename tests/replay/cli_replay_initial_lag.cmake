# replay --initial-lag infer (docs/replay.md, "The start of the capture") on
# hackbench-chan-run2, seed 1: the launcher 12730, woken onto CPU 1's empty
# root queue, wakes the socket leader 12733 15 us later, and the trace shows
# 12733 preempt it (12730 R ==> 12733).  Its group's entity has no history in
# the model: at lag 0 the launcher, eligible and protected, keeps the CPU
# (12730 S ==> 12733 when it blocks); inferred, the entity gets the smallest
# positive lag, and the model preempts as the kernel did
# (docs/validation-log.md, "The start-of-capture lag inferred from the first
# decisions").  Needs SCHEDREPLAY, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/hackbench-chan-run2.dat)
set(sw_re "\\[001\\] [0-9.]+: sched_switch: schedreplay:12730 \\[120\\] ([RS]\\+?) ==> [a-z]+:12733 ")
set(pos_re "([0-9]+)  \\.\\.\\. of them given the smallest positive lag")
file(MAKE_DIRECTORY ${WORK})

replay_run(z --seed 1 --initial-lag zero --dump-events ${WORK}/zero.dump ${t})
replay_run(i --seed 1 --initial-lag infer --dump-events ${WORK}/infer.dump
           --dump-wake-records ${t})
string(REGEX MATCH "${pos_re}" m "${z}")
string(LENGTH "${m}" n)
expect("${n} EQUAL 0" "--initial-lag zero: a lag inferred: ${m}")
expect_match("${pos_re}" "${i}" "--initial-lag infer: no positive lag inferred")
string(REGEX MATCH "${pos_re}" m "${i}")
expect("${CMAKE_MATCH_1} GREATER_EQUAL 1" "--initial-lag infer: ${CMAKE_MATCH_1} positive lags")

file(READ ${WORK}/zero.dump zd)
file(READ ${WORK}/infer.dump id)
string(REGEX MATCH "${sw_re}" m "${zd}")
expect_match("^S$" "${CMAKE_MATCH_1}"
             "--initial-lag zero: 12730 -> 12733 on CPU 1 with state '${CMAKE_MATCH_1}', want S")
string(REGEX MATCH "${sw_re}" m "${id}")
expect_match("^R\\+$" "${CMAKE_MATCH_1}"
             "--initial-lag infer: 12730 -> 12733 on CPU 1 with state '${CMAKE_MATCH_1}', want R+")
expect_match("replay_op: initial-lag pid=12733 want=preempt result=set vlag=[1-9]" "${id}"
             "--initial-lag infer: no initial-lag line for 12733 in the dump")
