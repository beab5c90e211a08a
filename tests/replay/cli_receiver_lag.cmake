# receiver_lag.py --startup (SCRIPT, run by PYTHON3) on small-chan (hackbench -p
# -g 1 -f 5, pipe group leader 8034): the kernel side rebuilt from `trace-cmd
# report` (TRACECMD), the replay side from a seed-1 dump with its wake records.
# Checks the start-up section's invariants: both sides list the 10 children; the
# trace side has no early barrier wake (a traced wakeup cannot precede the block
# it ends); every tenth of the time-weighted table is a non-empty interval with
# a group share of at most 100 %; some of the senders' traced blocks are matched
# by their wake records, and each side's summed sleep is positive.
# Needs SCHEDREPLAY, PYTHON3, TRACECMD, SCRIPT, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/small-chan.dat)
execute_process(COMMAND ${TRACECMD} report -t -i ${t} OUTPUT_FILE ${WORK}/sc.rep
                ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "trace-cmd report: exit ${rc}: ${e}")
replay_run(out --seed 1 --dump-events ${WORK}/sc.dump --dump-wake-records ${t})
execute_process(COMMAND ${PYTHON3} ${SCRIPT} ${WORK}/sc.rep ${WORK}/sc.dump
                        --group-pid 8034 --senders 5 --startup 2
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "receiver_lag.py: exit ${rc}: ${e}")

string(REGEX MATCHALL "\n    [rs][0-4] +80[0-9][0-9] " rows "${o}")
list(LENGTH rows n)
expect("n EQUAL 20" "start-up: ${n} child rows, not 10 per side:\n${o}")
string(REGEX MATCHALL "before the child's first block \\(early\\) [0-9]+" early "${o}")
list(LENGTH early n)
expect("n EQUAL 2" "start-up: ${n} barrier lines, not 2")
list(GET early 0 k)
expect_match("\\(early\\) 0$" "${k}" "the trace side has an early barrier wake: ${k}")

string(REGEX MATCHALL "tenth +[0-9]+ \\([0-9.]+-[0-9.]+ us\\):[^\n]*" tenths "${o}")
list(LENGTH tenths n)
expect("n GREATER 3" "start-up: ${n} tenth rows")
foreach(r IN LISTS tenths)
  string(REGEX MATCH "\\(([0-9.]+)-([0-9.]+) us\\)" m "${r}")
  expect("${CMAKE_MATCH_1} LESS ${CMAKE_MATCH_2}" "an empty or reversed tenth: ${r}")
  string(REGEX MATCHALL "[0-9.]+%" shares "${r}")
  foreach(s IN LISTS shares)
    string(REPLACE "%" "" s "${s}")
    expect("${s} LESS_EQUAL 100.05" "a CPU runs the group more than all the time: ${r}")
  endforeach()
endforeach()

expect_match("matched by the wake record that ends them: [0-9]+ of [0-9]+" "${o}"
             "no matched senders' blocks:\n${o}")
string(REGEX MATCH "matched by the wake record that ends them: ([0-9]+) of ([0-9]+)" m "${o}")
set(matched ${CMAKE_MATCH_1})
set(blocks ${CMAKE_MATCH_2})
expect("${matched} GREATER 0" "none of the senders' blocks matched: ${m}")
expect("${matched} LESS_EQUAL ${blocks}" "more matched than the trace has: ${m}")
string(REGEX MATCH "asleep \\(ms, summed\\): kernel +([0-9.]+), replay +([0-9.]+)" m "${o}")
set(ks ${CMAKE_MATCH_1})
set(rs ${CMAKE_MATCH_2})
expect("${ks} GREATER 0 AND ${rs} GREATER 0" "no sleep summed: ${m}")
file(REMOVE ${WORK}/sc.rep ${WORK}/sc.dump)
