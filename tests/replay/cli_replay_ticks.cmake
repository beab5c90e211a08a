# --ticks traced (docs/replay.md, "Traced ticks"): the trace's own ticks found
# per CPU and the tick -> switch delays, at counts an independent reading of
# the captures gives (the hardirq sched_stat_runtime of the running task with
# no hardirq wakeup right after it, at most one per period: 82 and 78 on
# hackbench-shares, 994 and 997 on hog-timer, whose CPU hogs show nothing but
# their ticks for seconds); the facts line, the calibration row, the notes
# and the JSON only under the option.  Needs SCHEDREPLAY and DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

replay_run(tt --ticks traced ${DIR}/hackbench-shares.dat)
expect_match("\nticks: +traced: 160 found \\(hardirq sched_stat_runtime of the running task\\), in their periods: CPU 0 82, CPU 1 78; tick to switch: 29 delays, p50 17.7 us, p90 32.2 us  \\[trace\\]\n"
             "${tt}" "hackbench-shares: the traced ticks or their delays are not the expected ones")
expect_match("\n  tick->switch +29 " "${tt}" "hackbench-shares: no tick->switch calibration row")
expect_match("ticks at the trace's own tick of their period" "${tt}"
             "hackbench-shares: no note of the ticks at traced times")
expect_match("rescheduling ticks whose switch came after a delay drawn" "${tt}"
             "hackbench-shares: no note of the drawn tick -> switch delays")

replay_run(grid ${DIR}/hackbench-shares.dat)
if(grid MATCHES "\nticks: " OR grid MATCHES "tick->switch" OR grid MATCHES "trace's own tick")
  message(FATAL_ERROR "the default (grid) prints the traced ticks")
endif()

replay_run(hog --ticks traced --json ${DIR}/hog-timer.dat)
string(JSON found GET "${hog}" facts traced_ticks found)
string(JSON cpu0 GET "${hog}" facts traced_ticks per_cpu 0)
string(JSON cpu1 GET "${hog}" facts traced_ticks per_cpu 1)
string(JSON used GET "${hog}" facts traced_ticks tick_switch used)
if(NOT (found EQUAL 1991 AND cpu0 EQUAL 994 AND cpu1 EQUAL 997 AND used))
  message(FATAL_ERROR "hog-timer: traced ticks ${found} (${cpu0}, ${cpu1}), delays used ${used}: not 1991 (994, 997), ON")
endif()
replay_run(hogg --json ${DIR}/hog-timer.dat)
string(JSON none ERROR_VARIABLE missing GET "${hogg}" facts traced_ticks)
if(NOT missing)
  message(FATAL_ERROR "the default (grid) has facts.traced_ticks in its JSON")
endif()

execute_process(COMMAND ${SCHEDREPLAY} replay --ticks sometimes ${DIR}/hog-timer.dat
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(NOT (rc EQUAL 2 AND e MATCHES "--ticks takes grid or traced, not 'sometimes'"))
  message(FATAL_ERROR "--ticks sometimes: exit ${rc}: ${e}")
endif()
