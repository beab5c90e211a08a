# count_sites.py (docs/replay.md, the analysis helpers' table) on small-chan: `trace-cmd
# report` of the trace and two dumps with --dump-wake-records (seeds 1, 2), with --check: on
# every input the sites partition the sched_stat_runtime lines, the switch kinds the
# sched_switch lines, the wakeup tables the sched_wakeup lines, the ledger's terms add up to the
# emissions and the early-wake rows match the replay_op lines; then the tables themselves.
# Needs SCHEDREPLAY, PYTHON3, TRACECMD, TOOL, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-chan.dat)
analysis_inputs(${t} ${WORK} REP --dump-wake-records)
execute_process(COMMAND ${PYTHON3} ${TOOL} --check --sidecar ${t}.json
                        ${WORK}/t.rep ${WORK}/s1.dump ${WORK}/s2.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "count_sites.py --check: exit ${rc}: ${o}${e}")
expect_match("3 inputs, 0 errors" "${o}" "count_sites.py --check: ${o}")
execute_process(COMMAND ${PYTHON3} ${TOOL} --records --sidecar ${t}.json
                        ${WORK}/t.rep ${WORK}/s1.dump ${WORK}/s2.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "count_sites.py --records: exit ${rc}: ${e}")
# the trace's side: 860 emissions, 556 traced switches, the socket senders' 82 local
# preemptions by their readers (docs/validation-log.md, "small-chan's count deficit")
expect_match("= emissions +860 " "${o}" "count_sites.py ledger: ${o}")
expect_match("\ntotal +[0-9.+ -]+ +556 " "${o}" "count_sites.py switch total: ${o}")
expect_match("socket.send>socket.recv preempt_local +82 " "${o}" "count_sites.py records: ${o}")
# --fates: the wakeups onto a busy CPU and what its current did next; the trace's side of the
# socket senders' local wakeups of their readers (docs/validation-log.md, "The count misses
# are missing preemptions")
execute_process(COMMAND ${PYTHON3} ${TOOL} --fates --sidecar ${t}.json
                        ${WORK}/t.rep ${WORK}/s1.dump ${WORK}/s2.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "count_sites.py --fates: exit ${rc}: ${e}")
expect_match("\nsocket.recv<socket.send L +109 +82 +22 +3 +2 \\|" "${o}"
             "count_sites.py --fates: ${o}")
file(REMOVE ${WORK}/s1.dump ${WORK}/s2.dump ${WORK}/t.rep)

# The dump's tick grid has a phase per CPU: three emissions on CPU 0 at 100 us past the 4 ms
# tick and three on CPU 1 at 2.1 ms past it are all ticks (with one phase for both CPUs, two of
# one CPU's were `other`).
file(WRITE ${WORK}/g.rep
     "           a-1     [000]     1.000000000: sched_stat_runtime:   comm=a pid=1 runtime=1 [ns]\n")
set(d "")
foreach(ts 1.000100000 1.004100000 1.008100000)
  string(APPEND d "[000] ${ts}: sched_stat_runtime: comm=a pid=5 runtime=1000 [ns]\n")
endforeach()
foreach(ts 1.002100000 1.006100000 1.010100000)
  string(APPEND d "[001] ${ts}: sched_stat_runtime: comm=b pid=6 runtime=1000 [ns]\n")
endforeach()
file(WRITE ${WORK}/g.dump "${d}")
execute_process(COMMAND ${PYTHON3} ${TOOL} ${WORK}/g.rep ${WORK}/g.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "count_sites.py tick grid: exit ${rc}: ${e}")
expect_match("\ntick +1 +6.0 +\\+5.0\n" "${o}" "count_sites.py tick grid per CPU: ${o}")
file(REMOVE ${WORK}/g.rep ${WORK}/g.dump)
