# idle_ticks.py (docs/replay.md, the analysis helpers' table): the kernel's idle ticks from
# a report with the timer events against --idle-tick short's `replay_op: idle_tick` lines.
# A hand-made report (idle_ticks.rep: a tick kept and fired in a 4.4 ms idle ended locally, a
# stopped tick firing at the next timer, a short idle with neither ended remotely, a kept tick
# then a late stop in an idle a fork ended) and
# dump (idle_ticks.dump), exact; then small-pirt's real dump: its lines well formed, a kept
# tick only on an interval of at most a tick ended locally.  Needs SCHEDREPLAY, PYTHON3,
# TOOL, DIR, SRC, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${PYTHON3} ${TOOL} ${SRC}/idle_ticks.rep ${SRC}/idle_ticks.dump --list --check
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "idle_ticks.py --check: exit ${rc}:\n${o}${e}")
expect_match("function tick_nohz_handler, 3 tick expiries, 2 tick_stop success=1, 4 idle periods"
             "${o}" "the trace side:\n${o}")
expect_match("1 +short +1 +0 +1 +0 +0 +0 +0\n" "${o}" "cpu 1's short idle:\n${o}")
expect_match("1 +long +3 +2 +0 +1 +2 +1 +1\n" "${o}" "cpu 1's long idles:\n${o}")
expect_match("kept\\+tick +local +0 +1 +0 +0\n +kept\\+tick +remote +0 +1 +0 +0\n +kept,no tick +remote +1 +0 +0 +1\n +stopped +none +0 +1 +0 +0\n"
             "${o}" "the rules from the trace:\n${o}")
expect_match("short 1 of 4 agree, any 2 of 4" "${o}" "the rules' agreement:\n${o}")
expect_match("idle_entry 4 \\(0 kept\\), idle_tick 3 \\(0 run\\), 7 naming a trace idle period"
             "${o}" "the dump's lines:\n${o}")
expect_match("kept\\+tick +0 +2 +0 +2 +0\n" "${o}" "kept ticks the rule stopped:\n${o}")
expect_match("kept,no tick +0 +1 +0 +0 +0\n" "${o}" "the short remote idle:\n${o}")
expect_match("stopped +0 +1 +0 +0 +0\n" "${o}" "the stopped idle:\n${o}")
expect_match("start=100023000000 len_us=7000.0 kernel=kept\\+tick ticks_kept=1 ticks_stopped=0 ended=remote stop_us=1100.0 rule=stop:remote model_ticks=0"
             "${o}" "the late stop:\n${o}")

execute_process(COMMAND ${SCHEDREPLAY} replay --seed 1 --idle-tick short
                        --dump-events ${WORK}/short.dump --dump-wake-records ${DIR}/small-pirt.dat
                OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay --idle-tick short: exit ${rc}: ${e}")
execute_process(COMMAND ${PYTHON3} ${TOOL} ${SRC}/idle_ticks.rep ${WORK}/short.dump --check
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "idle_ticks.py --check on small-pirt's dump: exit ${rc}:\n${o}${e}")
string(REGEX MATCH "idle_tick ([0-9]+) \\(([0-9]+) run\\)" m "${o}")
expect("CMAKE_MATCH_2 GREATER 0 AND CMAKE_MATCH_1 GREATER CMAKE_MATCH_2"
       "small-pirt's idle_tick lines: ${m}")

# a kept tick on an interval longer than a tick fails --check
file(WRITE ${WORK}/bad.dump "[001] 100.000100000: replay_op: idle_entry cpu=1 kept=0 iv=100000100000-100004500000 ended_by=local\n[001] 100.004000000: replay_op: idle_tick cpu=1 kept=1 iv=100000100000-100004500000 ended_by=local\n")
execute_process(COMMAND ${PYTHON3} ${TOOL} ${SRC}/idle_ticks.rep ${WORK}/bad.dump --check
                OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
expect("NOT rc EQUAL 0" "idle_ticks.py --check passed a kept tick on a 4.4 ms interval")
