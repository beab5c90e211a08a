# preempt_pairs.py (docs/replay.md, the analysis helpers' table) on small-hackbench: `trace-cmd
# report` of the capture and one dump (seed 1, --dump-events --dump-wake-records
# --dump-samples), the senders named (--sender-pids: the two groups' forks interleave), with
# --check: the table adds up to the wake records paired and 90 % of them are matched to a
# rebuilt wakeup decision on both sides; the capture's rebuild has its 1 071 sender -> receiver
# decisions (hackbench_eevdf.py's; docs/validation-log.md, "small-hackbench's fast local
# preemptions and small-nowaking's stand-ins, state by state"); a comm that matches no sample
# fails the check.
# Needs SCHEDREPLAY, PYTHON3, TRACECMD, TOOL, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-hackbench.dat)
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${TRACECMD} report -t -i ${t} OUTPUT_FILE ${WORK}/t.rep
                ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "trace-cmd report: exit ${rc}: ${e}")
execute_process(COMMAND ${SCHEDREPLAY} replay --seed 1 --dump-events ${WORK}/s1.ev
                        --dump-wake-records --dump-samples ${WORK}/s1.smp ${t}
                OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay --seed 1: exit ${rc}: ${e}")
set(args ${WORK}/t.rep --group-pid 3170 --sender-pids 3175-3178,3183-3186 --check)
execute_process(COMMAND ${PYTHON3} ${TOOL} ${args} ${WORK}/s1.ev:${WORK}/s1.smp
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "preempt_pairs.py --check: exit ${rc}: ${o}${e}")
expect_match("t.rep: 1071 sender -> receiver decisions rebuilt" "${o}"
             "preempt_pairs.py: the capture's decisions: ${o}")
expect_match("[0-9]+ wake records queued_local in the trace, preempt_local in the dump" "${o}"
             "preempt_pairs.py: the pairs: ${o}")
expect_match("wakee is the pick" "${o}" "preempt_pairs.py: the reasons: ${o}")
execute_process(COMMAND ${PYTHON3} ${TOOL} ${args} --comm nosuchcomm ${WORK}/s1.ev:${WORK}/s1.smp
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 1" "preempt_pairs.py --check with no pair: exit ${rc}: ${o}${e}")
expect_match("check failed" "${o}" "preempt_pairs.py --check with no pair: ${o}")
file(REMOVE ${WORK}/s1.ev ${WORK}/s1.smp ${WORK}/t.rep)
