# cpu_ledger.py (docs/replay.md, the analysis helpers' table) on small-chan: `trace-cmd report`
# of the trace and two dumps with --dump-wake-records (seeds 1, 2), with --check: on every
# input each CPU's terms add up to the span, the tasks' fair time to the fair term, the idle
# classes and episodes to the idle terms; then the ledger itself: the trace's CPU 1 with its
# untraced idle exits restored (fair 11.305 ms, not the raw stream's 10.876), and the replays'
# fair time the trace's to the microsecond (0.02 CPU-ms short until 3 Dec 2026: tee's first run,
# woken onto CPU 1 before that CPU's first sched_switch, was not restored) (docs/validation-log.md, "A CPU-time ledger of the
# replays' extra duration").  Needs SCHEDREPLAY, PYTHON3, TRACECMD, TOOL, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-chan.dat)
analysis_inputs(${t} ${WORK} REP --dump-wake-records)
execute_process(COMMAND ${PYTHON3} ${TOOL} --check ${WORK}/t.rep ${WORK}/s1.dump ${WORK}/s2.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "cpu_ledger.py --check: exit ${rc}: ${o}${e}")
expect_match("3 inputs, 0 errors" "${o}" "cpu_ledger.py --check: ${o}")
execute_process(COMMAND ${PYTHON3} ${TOOL} --episodes 50 ${WORK}/t.rep ${WORK}/s1.dump
                        ${WORK}/s2.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "cpu_ledger.py: exit ${rc}: ${e}")
expect_match("t.rep: span +14.177\n  cpu 0 +13.833 +0.025 +0.002 +0.000 +0.316\n  cpu 1 +11.305 +0.000 +0.005 +2.575 +0.292"
             "${o}" "cpu_ledger.py trace ledger: ${o}")
expect_match("s1.dump minus t.rep \\(CPU-ms\\): span x CPUs [+-][0-9.]+ = fair \\+0.000 other -0.025"
             "${o}" "cpu_ledger.py replay ledger: ${o}")
# the kernel's pull from CPU 1's idle context at 8.68 ms ends the trace's long idle_lost
expect_match("8.158 cpu 1 +526.0 .*sched_migrate_task on 1" "${o}" "cpu_ledger.py episodes: ${o}")
# --cpu-tasks: CPU 1's two busiest tasks, the rest and idle per 5 ms window; the trace's sums
# are its ledger's CPU 1 terms (fair 11.305 = 1.82 + 1.49 + 8.00, idle 0.005 + 2.575 + 0.292)
execute_process(COMMAND ${PYTHON3} ${TOOL} --window-ms 5 --cpu-tasks 2 ${WORK}/t.rep
                        ${WORK}/s1.dump ${WORK}/s2.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "cpu_ledger.py --cpu-tasks: exit ${rc}: ${e}")
expect_match("cpu 1 per window of 5.0 ms \\(ms\\): the tasks with the most time there \\(8034 hackbench, 8057 hackbench\\)"
             "${o}" "cpu_ledger.py --cpu-tasks header: ${o}")
expect_match("\n     sum   1.82   1.49   8.00   2.87  \\|" "${o}" "cpu_ledger.py --cpu-tasks CPU 1 sums: ${o}")
file(REMOVE ${WORK}/s1.dump ${WORK}/s2.dump ${WORK}/t.rep ${WORK}/s.samples)

# small-nowaking has no sched_stat_runtime: each of CPU 1's 24 untraced idle exits is restored
# as the reader restores it (replay/trace_repair.c), at the lower bound when the task's wakeup
# came while the CPU was idle, else at its first event.  The trace's fair time is then the
# replays' to the microsecond; until 5 Dec 2026 the ledger took the first event every time and
# the trace came out 1.317 CPU-ms short (177.597 against 178.914), which read as a writer
# 7.3 ms ahead of its trace (docs/validation-log.md, "small-nowaking's writer 3490 against its
# trace, block by block")
set(t ${DIR}/small-nowaking.dat)
if(EXISTS ${t})
  analysis_inputs(${t} ${WORK} REP --dump-wake-records)
  execute_process(COMMAND ${PYTHON3} ${TOOL} --check ${WORK}/t.rep ${WORK}/s1.dump
                          ${WORK}/s2.dump
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "cpu_ledger.py --check small-nowaking: exit ${rc}: ${o}${e}")
  expect_match("3 inputs, 0 errors" "${o}" "cpu_ledger.py --check small-nowaking: ${o}")
  execute_process(COMMAND ${PYTHON3} ${TOOL} ${WORK}/t.rep ${WORK}/s1.dump ${WORK}/s2.dump
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "cpu_ledger.py small-nowaking: exit ${rc}: ${e}")
  expect_match("t.rep: span +99.160\n  cpu 0 +91.719 +0.000 +0.826 +2.247 +4.367\n  cpu 1 +87.195 +0.000 +0.149 +10.913 +0.903\n  all CPUs +178.914 "
               "${o}" "cpu_ledger.py small-nowaking trace ledger: ${o}")
  expect_match("s1.dump minus t.rep \\(CPU-ms\\): span x CPUs [+-][0-9.]+ = fair \\+0.000 other \\+0.000"
               "${o}" "cpu_ledger.py small-nowaking replay ledger: ${o}")
  file(REMOVE ${WORK}/s1.dump ${WORK}/s2.dump ${WORK}/t.rep ${WORK}/s.samples)
endif()
