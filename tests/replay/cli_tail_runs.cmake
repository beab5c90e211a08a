# tail_runs.py (docs/replay.md, the analysis helpers' table): a hand-made dump whose one tail
# wait has each kind of run before it, then hackbench-shares-run2's `trace-cmd report` and two
# dumps with --dump-wake-records: --check (every unmoved wait covered exactly by its runs and
# idle time), the trace side's tail and its long runs (docs/validation-log.md, "The hackbench
# captures' short p99 tails").  Needs SCHEDREPLAY, PYTHON3, TRACECMD, TOOL, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

# CPU 0 runs a; b is woken there (queued), then w by a (queued behind a and b), then c from
# CPU 1; a blocks for b, b for c, c for w: w's 7 us are a's remainder (4 us, `curr`), b's run
# (2 us, `ahead`: queued at w's wakeup) and c's (1 us, `later`: woken after w).
file(MAKE_DIRECTORY ${WORK})
set(g /schedreplay-1/pipe)
file(WRITE ${WORK}/h.samples
     "# kind\tpid\tcpu\tstart_ns\tend_ns\tlatency_ns\tstart_event\tcomm\tcgroup\n"
     "wakeup\t12\t0\t1000000100\t1000005000\t4900\tsched_waking\tb\t${g}\n"
     "wakeup\t20\t0\t1000001000\t1000008000\t7000\tsched_waking\tw\t${g}\n"
     "wakeup\t13\t0\t1000002000\t1000007000\t5000\tsched_waking\tc\t${g}\n"
     "wakeup\t11\t0\t999999000\t1000000000\t1000\tsched_waking\ta\t${g}\n")
file(WRITE ${WORK}/h.dump
     "[000] 1.000000000: sched_switch: swapper/0:0 [120] R ==> a:11 [120]\n"
     "[000] 1.000000100: sched_waking: b:12 [120] CPU:000\n"
     "[000] 1.000000100: sched_wakeup: b:12 [120] CPU:000\n"
     "[000] 1.000001000: sched_waking: w:20 [120] CPU:000\n"
     "[000] 1.000001000: sched_wakeup: w:20 [120] CPU:000\n"
     "[001] 1.000002000: sched_waking: c:13 [120] CPU:000\n"
     "[001] 1.000002000: sched_wakeup: c:13 [120] CPU:000\n"
     "[000] 1.000005000: sched_switch: a:11 [120] S ==> b:12 [120]\n"
     "[000] 1.000007000: sched_switch: b:12 [120] S ==> c:13 [120]\n"
     "[000] 1.000008000: sched_switch: c:13 [120] S ==> w:20 [120]\n")
execute_process(COMMAND ${PYTHON3} ${TOOL} --check --samples ${WORK}/h.samples
                        ${WORK}/h.dump ${WORK}/h.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "tail_runs.py hand-made: exit ${rc}: ${o}${e}")
expect_match("2 inputs, 0 errors" "${o}" "tail_runs.py hand-made --check: ${o}")
expect_match(">= p99 +n +1.0 \\(\\+ 0.0 long\\) +wait +7 us +queued own +1.0 other +0.0 +own left +0.0 +runs +3.0 x +2 us"
             "${o}" "tail_runs.py hand-made tail: ${o}")
expect_match("woken by the current: +1.0 waits" "${o}" "tail_runs.py hand-made waker: ${o}")
expect_match("curr 1.0/4\\|0.0/0  ahead 1.0/2\\|0.0/0  later 1.0/1\\|0.0/0  again 0.0/0\\|0.0/0"
             "${o}" "tail_runs.py hand-made classes: ${o}")

# hackbench-shares-run2: the trace's p95 tail (129 waits under 10 ms and 5 over) and its long
# pipe runs (47, each with 46.3 sched_waking of the pipe group on its CPU)
set(t ${DIR}/hackbench-shares-run2.dat)
analysis_inputs(${t} ${WORK} REP --dump-wake-records)
execute_process(COMMAND ${PYTHON3} ${TOOL} --check --pct 95 --convoys 500
                        --samples ${WORK}/s.samples ${WORK}/t.rep ${WORK}/s1.dump ${WORK}/s2.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "tail_runs.py --check: exit ${rc}: ${o}${e}")
expect_match("3 inputs, 0 errors" "${o}" "tail_runs.py --check: ${o}")
expect_match(">= p95 +n +129.0 \\(\\+ 5.0 long\\) +wait +3778 us" "${o}" "tail_runs.py trace tail: ${o}")
expect_match("t.rep: 47 runs >= 500 us, mean 1400 us, preempted 30%; per run: wakeup here 2.7, waking 46.3"
             "${o}" "tail_runs.py --convoys trace: ${o}")
expect_match("s1.dump: [0-9]+ runs >= 500 us, mean [0-9]+ us, preempted [0-9]+%; per run: early:asleep"
             "${o}" "tail_runs.py --convoys dump: ${o}")
file(REMOVE ${WORK}/s1.dump ${WORK}/s2.dump ${WORK}/t.rep ${WORK}/h.dump)
