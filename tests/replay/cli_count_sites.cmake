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
file(REMOVE ${WORK}/s1.dump ${WORK}/s2.dump ${WORK}/t.rep)
