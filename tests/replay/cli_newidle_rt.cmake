# newidle_rt.py (docs/replay.md, the analysis helpers' table) on small-pirt: the trace's
# RT blocks to idle with the kernel's second sched_stat_runtime (put_prev_task_rt() charging
# the rq clock that sched_balance_newidle()'s blocked update moved: 56 of pi-waiter's 359),
# against the replay's `replay_op: newidle` lines (--dump-wake-records): every trace block
# matched, each line consistent with the model's entry test (--check), and the table's model
# blocked updates equal to the dump's `outcome=ran blocked=1` lines at the waiter's blocks
# to idle.  Needs SCHEDREPLAY, PYTHON3, TRACECMD, TOOL, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-pirt.dat)
analysis_inputs(${t} ${WORK} ON --dump-wake-records)
execute_process(COMMAND ${PYTHON3} ${TOOL} ${WORK}/t.rep ${WORK}/s1.dump --check
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "newidle_rt.py --check: exit ${rc}:\n${o}${e}")
expect_match("359 RT/DL blocks to idle \\(pids 9094\\), 56 with a second charge" "${o}"
             "the trace's blocks:\n${o}")
expect_match("359 matched" "${o}" "every trace block matched:\n${o}")
string(REGEX MATCH "model blocked update ([0-9]+)" m "${o}")
set(nb ${CMAKE_MATCH_1})
file(STRINGS ${WORK}/s1.dump ran REGEX "replay_op: newidle pid=9094 next=0 outcome=ran blocked=1")
list(LENGTH ran nran)
expect("nb GREATER 0 AND nb LESS_EQUAL nran" "model blocked updates in the table ${nb}, dump lines ${nran}")
# without the dump's ops there is nothing to compare: --check fails
execute_process(COMMAND ${SCHEDREPLAY} replay --seed 1 --dump-events ${WORK}/plain.dump ${t}
                OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay: exit ${rc}: ${e}")
execute_process(COMMAND ${PYTHON3} ${TOOL} ${WORK}/t.rep ${WORK}/plain.dump --check
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("NOT rc EQUAL 0" "newidle_rt.py --check on a dump without replay_op lines: exit 0")

# --rt-charge newidle: one more RT/DL sched_stat_runtime per non-fair block whose newidle pass
# ran its blocked update (the dump's `outcome=ran blocked=1 ... class=rt` lines, any pid; the
# class=fair lines are the fair blocks' passes), nothing else moved
file(STRINGS ${WORK}/s1.dump all_ran REGEX "replay_op: newidle pid=[0-9]+ next=[0-9]+ outcome=ran blocked=1 .* class=rt$")
list(LENGTH all_ran nall)
foreach(mode one newidle)
  execute_process(COMMAND ${SCHEDREPLAY} replay --seed 1 --json --rt-charge ${mode} ${t}
                  OUTPUT_VARIABLE j_${mode} ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "replay --rt-charge ${mode}: exit ${rc}: ${e}")
  string(JSON rt_${mode} GET "${j_${mode}}" variants base counts sched_stat_runtime_rt_dl)
  string(JSON sw_${mode} GET "${j_${mode}}" variants base counts sched_switch)
endforeach()
math(EXPR diff "${rt_newidle} - ${rt_one}")
expect("diff EQUAL nall AND nall GREATER 0" "--rt-charge newidle: RT/DL charges ${rt_one} -> ${rt_newidle}, expected ${nall} more (the dump's blocked updates after non-fair blocks)")
expect("sw_one EQUAL sw_newidle" "--rt-charge newidle moved sched_switch: ${sw_one} -> ${sw_newidle}")
