# `schedreplay replay` on small-lost, whose CPU 0 lost its records before
# 11310.198500192 while CPU 1 was traced from the trace start (docs/replay.md,
# "Lost events"): the predicted events the trace could not have held - CPU 0's
# switch-in at the trace start, CPU 1's there (its stream begins after 909 lost
# records: --start-switch lost, the default), the sched_waking, sched_wakeup and enqueue's
# sched_stat_runtime of the 8 wakes assumed for CPU 1's switch-ins with no
# wakeup - are not compared, and both outputs say how many.
# Needs SCHEDREPLAY and DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

replay_run(js --json ${DIR}/small-lost.dat)
string(JSON nw LENGTH "${js}" trace lost_windows)
expect("nw EQUAL 2" "small-lost: ${nw} lost windows, expected 2 (CPU 0's, CPU 1's empty one)")
string(JSON cpu GET "${js}" trace lost_windows 0 cpu)
string(JSON from GET "${js}" trace lost_windows 0 from_ts_ns)
string(JSON to GET "${js}" trace lost_windows 0 to_ts_ns)
string(JSON ev TYPE "${js}" trace lost_windows 0 events)
expect("cpu EQUAL 0 AND from STREQUAL 11310198361075 AND to STREQUAL 11310198500192 AND ev STREQUAL NULL"
       "small-lost: window 0 is CPU ${cpu} [${from}, ${to}) events ${ev}")
string(JSON lw GET "${js}" trace lost_wakes)
expect("lw EQUAL 8" "small-lost: ${lw} wakes in lost windows, expected 8")
string(JSON mw GET "${js}" measured counts sched_wakeup)
string(JSON pw GET "${js}" variants base counts sched_wakeup)
string(JSON uw GET "${js}" variants base counts_in_lost_windows sched_wakeup)
expect("mw EQUAL 78 AND pw EQUAL 78 AND uw EQUAL 8"
       "small-lost: sched_wakeup measured ${mw}, predicted ${pw}, not compared ${uw}; expected 78, 78, 8")
string(JSON us GET "${js}" variants base counts_in_lost_windows sched_switch)
expect("us EQUAL 2" "small-lost: ${us} predicted switches in lost windows, expected 2 (the start switch-ins of CPU 0 and CPU 1)")

replay_run(tx ${DIR}/small-lost.dat)
expect_match("\n  sched_wakeup +78 +78 +\\+0\\.0%\n" "${tx}" "small-lost text: sched_wakeup not 78 against 78:\n${tx}")
expect_match("\\(lost events: the trace holds no record of CPU 0 in \\[11310\\.198361, 11310\\.198500\\) \\(an unknown number lost\\), CPU 1 before the trace start \\(909 lost\\);"
             "${tx}" "small-lost text: no lost-events windows line:\n${tx}")
expect_match("\\(base: 24 predicted events in lost-events windows, not compared: sched_switch 2, sched_switch_restored 1, sched_waking 8, sched_wakeup 8, sched_stat_runtime 6\\)"
             "${tx}" "small-lost text: no count of the events not compared:\n${tx}")

# a trace without lost events has none of it
replay_run(js --json ${DIR}/small-pipe.dat)
string(JSON k ERROR_VARIABLE kerr GET "${js}" variants base counts_in_lost_windows)
expect("NOT kerr STREQUAL NOTFOUND" "small-pipe: counts_in_lost_windows present without lost events")
