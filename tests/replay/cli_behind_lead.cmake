# --behind-lead (docs/replay.md, "Behind a blocking current"): a wakee queued on a busy CPU whose
# current task then blocks is switched in by that task's __schedule(), whose rq_lock() follows
# the waker's enqueue (try_to_wake_up() -> ttwu_queue() under the rq lock), then clock read,
# dequeue, pick, context switch: never at the wakeup.  small-nowaking has no sched_stat_runtime,
# so no clock lead (switch_lead_ns 0): under off (the default) ~35 of seed 1's switch-ins from a
# blocking task come less than 0.5 us after their wakee's sched_wakeup (the trace's fastest
# such switch-in: 1.64 us); under fallback the lead is the queued path's lowest calibrated
# quantile (the trace's shortest wakeup -> switch-in behind a running task), and none do.
# Needs SCHEDREPLAY, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/fast_block_switch_ins.cmake)

file(MAKE_DIRECTORY ${WORK})
foreach(mode off fallback)
  set(dump ${WORK}/small-nowaking.${mode}.dump)
  replay_run(j --json --seed 1 --behind-lead ${mode} --dump-events ${dump}
             ${DIR}/small-nowaking.dat)
  replay_note(n "${j}" "runs ended less than a __schedule() clock lead after a wakee was queued")
  fast_block_switch_ins(fast ${dump} 500)
  message(STATUS "--behind-lead ${mode}: ${n} runs moved, ${fast} of ${fast_n} switch-ins from a blocking task under 0.5 us")
  expect("fast_n GREATER 2000" "small-nowaking seed 1: ${fast_n} switch-ins from a blocking task")
  if(mode STREQUAL "off")
    expect("n EQUAL 0 AND fast GREATER 20"
           "small-nowaking --behind-lead off: ${n} runs moved, ${fast} switch-ins from a blocking task under 0.5 us after the wakee's sched_wakeup")
  else()
    expect("n GREATER 50 AND fast LESS 3"
           "small-nowaking --behind-lead fallback: ${n} runs moved, ${fast} switch-ins from a blocking task under 0.5 us after the wakee's sched_wakeup")
  endif()
endforeach()
