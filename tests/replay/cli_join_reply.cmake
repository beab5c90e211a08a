# --join-reply (experimental; docs/validation-log.md, helper lag45): nice-mix-run2's probe.
# probe-msg (12528) wakes both workers and sleeps; the worker that finishes last
# (atomic_fetch_sub(&pending) == 1) wakes it, so in the trace the replier is the worker that ran
# second in its round (675 of 676 rounds).  By default the replay pins each reply to the trace's
# replier, and runs it first in a third of the rounds (254 of 615, seed 1).  With the option the
# other worker makes the wake at its block when it has not finished (joindefer / joinwake in the
# dump), and the replier runs second as in the trace.  nice_mix_eevdf.py counts the rounds.
# Needs SCHEDREPLAY, PYTHON3, SRC, DIR and WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/nice-mix-run2.dat)
replay_run(on --seed 1 --json --join-reply --dump-events ${WORK}/on.ev --dump-wake-records ${t})
replay_run(off --seed 1 --json --dump-events ${WORK}/off.ev --dump-wake-records ${t})
file(READ ${WORK}/on.ev d_on)
file(READ ${WORK}/off.ev d_off)
count_matches(n_def "replay_op: joindefer pid=1252[67] z=1252[67] " "${d_on}")
count_matches(n_wk "replay_op: joinwake pid=1252[67] " "${d_on}")
count_matches(n_off "replay_op: join" "${d_off}")
expect("n_def GREATER 100" "--join-reply: ${n_def} wakes of probe-msg deferred, expected over 100")
expect("n_wk EQUAL n_def" "--join-reply: ${n_wk} deferred wakes made, ${n_def} deferred")
expect("n_off EQUAL 0" "default: ${n_off} join records, expected none")
replay_note(joins_on "${on}" "wakes of a task by one of the two tasks it woke")
replay_note(deferred_on "${on}" "... of them made by the other task at its block")
replay_note(joins_off "${off}" "wakes of a task by one of the two tasks it woke")
expect("joins_on GREATER 600" "--join-reply: ${joins_on} join wakes, expected over 600 (695 local and remote wakes of msg)")
expect("deferred_on EQUAL n_def" "--join-reply: note ${deferred_on}, dump ${n_def}")
expect("joins_off EQUAL 0" "default: note ${joins_off}, expected 0")
# the round order: the worker that wakes msg ran first in its round
foreach(k on off)
  execute_process(COMMAND ${PYTHON3} ${SRC}/nice_mix_eevdf.py ${WORK}/${k}.ev 12521,12525
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "nice_mix_eevdf.py ${k}: exit ${rc}: ${e}")
  string(REGEX MATCH "the replier runs first ([0-9]+), second ([0-9]+)" m "${o}")
  string(LENGTH "${m}" mlen)
  expect("mlen GREATER 0" "nice_mix_eevdf.py ${k}: no round order line: ${o}")
  set(first_${k} ${CMAKE_MATCH_1})
  set(second_${k} ${CMAKE_MATCH_2})
endforeach()
expect("first_off GREATER 100" "default: the replier ran first in ${first_off} rounds, expected over 100")
math(EXPR lim "${second_on} / 50")
expect("first_on LESS_EQUAL lim" "--join-reply: the replier ran first in ${first_on} rounds (second ${second_on}), expected at most 2 %")
# probe_rounds.py (helper jr45): at each worker's wake of msg the other worker has finished
# (asleep) under the option, as in the trace (695 of 695); by default about a third of those
# wakes find it woken and not yet run.  And the rounds whose first runner woke msg before the
# other worker ran, behind a hog (class msg-W-msg-H-W, a wait the trace never has), are gone.
foreach(k on off)
  execute_process(COMMAND ${PYTHON3} ${SRC}/probe_rounds.py --check --min-us 1000 ${WORK}/${k}.ev
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "probe_rounds.py ${k}: exit ${rc}: ${e}")
  string(REGEX MATCH "\n  reply ([^\n]*)" m "${o}")
  string(LENGTH "${m}" mlen)
  expect("mlen GREATER 0" "probe_rounds.py ${k}: no reply line: ${o}")
  set(line ${CMAKE_MATCH_1})
  string(REGEX MATCH "(^| )S ([0-9]+)" m "${line}")
  set(asleep_${k} 0${CMAKE_MATCH_2})
  string(REGEX MATCH "woken ([0-9]+)" m "${line}")
  set(woken_${k} 0${CMAKE_MATCH_1})
  string(REGEX MATCH "msg-W-msg-H-W ([0-9]+)/" m "${o}")
  set(rf_${k} 0${CMAKE_MATCH_1})
endforeach()
math(EXPR lim "${asleep_on} / 100")
expect("woken_on LESS_EQUAL lim" "--join-reply: ${woken_on} wakes of msg with the other worker not yet run (${asleep_on} asleep), expected at most 1 %")
expect("woken_off GREATER 100" "default: ${woken_off} wakes of msg with the other worker not yet run, expected over 100")
expect("rf_off GREATER 2" "default: ${rf_off} waits over 1 ms behind a replier-first round, expected some")
expect("rf_on EQUAL 0" "--join-reply: ${rf_on} waits over 1 ms behind a replier-first round, expected none")
