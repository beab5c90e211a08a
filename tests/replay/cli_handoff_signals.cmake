# --handoff-signals (experimental; docs/replay.md, "Hand-offs"): small-chan's last pipe sender
# to write its ready byte (8045) wakes the leader (8034), is preempted by it and runs again
# before the leader blocks, the leader having woken every other child with one write (the
# readiness barrier): 8045's poll() of the wake fd found it readable, no sleep, no dependency
# in the trace.  With the option 8045 waits for the leader's last barrier wake (of 8038): it
# sleeps there (or hands over, then sleeps) and is woken at that wake's instant (the release
# at a WAKE op).  Without it 8045 has no such WAIT and runs its 500 writes through the barrier.
# Needs SCHEDREPLAY, DIR and WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

replay_on_off(${DIR}/small-chan.dat --handoff-signals)
expect_match("[1-9][0-9]*  wakers preempted by their wakee that ran again before it blocked, after it woke others"
             "${on}" "--handoff-signals: no note of the waits made")
if(off MATCHES "after it woke others")
  message(FATAL_ERROR "without --handoff-signals the note is there")
endif()

set(d "${d_on}")
expect_match("wait pid=8045 y=8034 kind=slept" "${d}"
             "--handoff-signals: 8045 did not sleep at its WAIT for 8034")
# the leader's last barrier wake (of 8038, traced at 49122293772545) and 8045's wakeup at it
string(REGEX MATCH "\\] ([0-9.]+): replay_op: wake pid=8038 trace=49122293772545 waker=8034" m "${d}")
set(tw "${CMAKE_MATCH_1}")
if(tw STREQUAL "")
  message(FATAL_ERROR "--handoff-signals: the leader's wake of 8038 not in the dump")
endif()
string(REGEX MATCH "\\] ([0-9.]+): sched_waking: hackbench:8045 " m "${d}")
set(tx "${CMAKE_MATCH_1}")
if(NOT tx STREQUAL tw)
  message(FATAL_ERROR "--handoff-signals: 8045 woken at ${tx}, the leader's last wake at ${tw}")
endif()

if(d_off MATCHES "wait pid=8045 y=8034")
  message(FATAL_ERROR "without --handoff-signals 8045 has a WAIT for 8034")
endif()
