# wake_state.py (docs/replay.md, the analysis helpers' table): a hand-made dump where writer 20
# blocks ineligible (kept queued, delayed) and is woken 0.1 ms later, then blocks eligible
# (dequeued with a positive lag) and is woken from idle; then small-nowaking's `trace-cmd
# report`, whose charges the tool makes from the switch times (docs/validation-log.md,
# "small-nowaking's p95 band on its three captures").  Needs PYTHON3, TRACECMD, SCHEDREPLAY,
# TOOL, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

# 20 and 21 forked at V = 0; 20 runs 1 ms and blocks with V 0.5 ms (ineligible: delayed); 21
# runs 0.1 ms and wakes it (lag V - v = 0.55 - 1.0 ms); 21 runs 1 ms and hands over; 20 runs
# 10 us and blocks eligible (V 1.055 ms, v 1.01: dequeued, lag 45 us); 21 blocks, CPU idle;
# 20 woken from idle at 4 ms.
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/h.dump
     "[000] 1.000000000: sched_process_fork: comm=p pid=10 child_comm=w child_pid=20\n"
     "[000] 1.000000000: sched_wakeup_new: w:20 [120] CPU:000\n"
     "[000] 1.000000000: sched_process_fork: comm=p pid=10 child_comm=r child_pid=21\n"
     "[000] 1.000000000: sched_wakeup_new: r:21 [120] CPU:000\n"
     "[000] 1.000000000: sched_switch: p:10 [120] S ==> w:20 [120]\n"
     "[000] 1.001000000: sched_stat_runtime: comm=w pid=20 runtime=1000000 [ns]\n"
     "[000] 1.001000000: sched_switch: w:20 [120] S ==> r:21 [120]\n"
     "[000] 1.001100000: sched_stat_runtime: comm=r pid=21 runtime=100000 [ns]\n"
     "[000] 1.001100000: sched_waking: w:20 [120] CPU:000\n"
     "[000] 1.001100000: sched_wakeup: w:20 [120] CPU:000\n"
     "[000] 1.002100000: sched_stat_runtime: comm=r pid=21 runtime=1000000 [ns]\n"
     "[000] 1.002100000: sched_switch: r:21 [120] R ==> w:20 [120]\n"
     "[000] 1.002110000: sched_stat_runtime: comm=w pid=20 runtime=10000 [ns]\n"
     "[000] 1.002110000: sched_switch: w:20 [120] S ==> r:21 [120]\n"
     "[000] 1.003000000: sched_stat_runtime: comm=r pid=21 runtime=890000 [ns]\n"
     "[000] 1.003000000: sched_switch: r:21 [120] S ==> swapper/0:0 [120]\n"
     "[000] 1.004000000: sched_waking: w:20 [120] CPU:000\n"
     "[000] 1.004000000: sched_wakeup: w:20 [120] CPU:000\n"
     "[000] 1.004005000: sched_switch: swapper/0:0 [120] R ==> w:20 [120]\n")
set(h "# side\tkind\tpid\tcpu\tstart_ns\tend_ns\tlatency_ns\tstart_event\tpath\torigin\ttrace_start_ns\ttrace_latency_ns\tcomm\tcgroup\n")
foreach(side measured predicted)
  string(APPEND h "${side}\twakeup\t20\t0\t1001100000\t1002100000\t1000000\tsched_waking\tqueued_local\t-\t-\t-\tw\t/\n"
                  "${side}\twakeup\t20\t0\t1004000000\t1004005000\t5000\tsched_waking\tidle\t-\t-\t-\tw\t/\n")
endforeach()
file(WRITE ${WORK}/h.samples "${h}")
execute_process(COMMAND ${PYTHON3} ${TOOL} --group-pid 10 --pids 20 --samples ${WORK}/h.samples
                        ${WORK}/h.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "wake_state.py hand-made: exit ${rc}: ${o}${e}")
expect_match("the measured p95 1000.0 us" "${o}" "wake_state.py hand-made threshold: ${o}")
expect_match("delayed +1 wakeups +latency p50 +1000.0 us +>= p95 +1 +lag p50 +-450.0 us"
             "${o}" "wake_state.py hand-made delayed: ${o}")
expect_match("asleep, lag > 0 +1 wakeups +latency p50 +5.0 us +>= p95 +0 +lag p50 +45.0 us"
             "${o}" "wake_state.py hand-made asleep: ${o}")

# small-nowaking: the trace's writers (3489-3492) at their wakeups, charges from switch times
set(t ${DIR}/small-nowaking.dat)
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${SCHEDREPLAY} report --samples ${WORK}/s.samples ${t}
                OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "report --samples: exit ${rc}: ${e}")
execute_process(COMMAND ${TRACECMD} report -t -i ${t} OUTPUT_FILE ${WORK}/t.rep
                ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "trace-cmd report: exit ${rc}: ${e}")
execute_process(COMMAND ${PYTHON3} ${TOOL} --group-pid 3484 --pids 3489,3490,3491,3492
                        --samples ${WORK}/s.samples ${WORK}/t.rep
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "wake_state.py small-nowaking: exit ${rc}: ${o}${e}")
expect_match("4626 of 5827 switches match the rebuilt pick; the measured p95 381.0 us" "${o}"
             "wake_state.py small-nowaking picks: ${o}")
expect_match("delayed +61 wakeups +latency p50 +1209.7 us +>= p95 +45 +lag p50 +-427.3 us"
             "${o}" "wake_state.py small-nowaking delayed: ${o}")
file(REMOVE ${WORK}/t.rep)
