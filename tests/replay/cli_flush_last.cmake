# --flush-last (docs/replay.md, "Wake-list flushes"): an interrupt that wakes several tasks onto
# its own idle CPU enqueues them all (sched_ttwu_pending()) before the idle loop's
# schedule_idle() picks, so the CPU's switch follows the last enqueue by the idle exit.  The
# hold keeps the switch to the flush's end, the last member's sched_waking, and that member,
# queued at that instant, is switched in at once under held (the default): a 0 us sample the
# kernel never shows (idle-io: ~32 a run on CPU 1, kworker/1:1H after probe-msg; 2 measured).
# Under cost (lead) the switch comes no earlier than the last member's own idle-path cost
# (the trace's __schedule() clock lead) after it.
# Needs SCHEDREPLAY, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/zero_switch_ins.cmake)

file(MAKE_DIRECTORY ${WORK})
foreach(mode held cost lead)
  set(dump ${WORK}/idle-io.${mode}.dump)
  replay_run(j --json --seed 1 --flush-last ${mode} --dump-events ${dump} ${DIR}/idle-io.dat)
  replay_note(n "${j}" "... idle exits moved past the idle-exit cost of the flush's last wakeup")
  zero_switch_ins(zero ${dump} TRUE)
  expect("zero_n GREATER 5000" "idle-io seed 1: ${zero_n} switches out of idle")
  if(mode STREQUAL "held")
    expect("n EQUAL 0 AND zero GREATER 20"
           "idle-io --flush-last held: ${n} flush tails moved, ${zero} switches out of idle at their wakee's wakeup (0 us)")
  else()
    expect("n GREATER 20 AND zero LESS 5"
           "idle-io --flush-last ${mode}: ${n} flush tails moved, ${zero} switches out of idle at their wakee's wakeup (0 us)")
  endif()
endforeach()
