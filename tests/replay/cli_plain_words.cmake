# replay's text and --help-all in kernel and trace terms (ux45): the replay's own words for its
# operations and facts - the workload ops EXIT_MOVE and WAKE, a hand-off WAIT, the timing
# line's "sync tail", "the drawn cost armed", "too few: the path's used" - were what a fair.c
# reviewer could not decode without docs/replay.md.  forkexec has exits (the autogroup move)
# and a sync tail; small-chan early wakes and hand-offs.  Needs SCHEDREPLAY and DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(internal "EXIT_MOVE" "hand-off WAIT" "sync tail" "WAKE ops" "drawn cost armed"
             "too few: the path" "__schedule clock")
foreach(t forkexec small-chan)
  replay_run(out --seed 1 ${DIR}/${t}.dat)
  foreach(w IN LISTS internal)
    string(FIND "${out}" "${w}" at)
    expect("at EQUAL -1" "${t}: replay's text says '${w}'")
  endforeach()
  expect_match("timing:    __schedule\\(\\) reads the rq clock [0-9]+ ns before its sched_switch [^\n]*WF_SYNC wakeup runs [0-9]+ ns in between"
               "${out}" "${t}: the timing line is not in trace terms")
endforeach()
# the notes that used them are there, in their new words
replay_run(fe --seed 1 ${DIR}/forkexec.dat)
expect_match("[0-9]+  exiting tasks switched out after the sched_stat_runtime taken for their exit's autogroup move"
             "${fe}" "forkexec: no note of the exits' autogroup move")
replay_run(sc --seed 1 ${DIR}/small-chan.dat)
expect_match("[0-9]+  early wakes neither sync nor a race in the trace: [^\n]*woken at once, a stand-in wakeup"
             "${sc}" "small-chan: the early wakes' note does not say what a stand-in is")
execute_process(COMMAND ${SCHEDREPLAY} replay --help-all OUTPUT_VARIABLE h RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay --help-all: exit ${rc}")
foreach(w "EXIT_MOVE" "hand-off WAIT" "'tick to switch'")
  string(FIND "${h}" "${w}" at)
  expect("at EQUAL -1" "replay --help-all says '${w}'")
endforeach()
