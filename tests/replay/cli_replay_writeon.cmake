# replay --handoff writeon|writeon-pre (MODE; docs/replay.md, "Hand-offs") on
# small-hackbench: the notes count the write-ons, the event dump has them and
# writeon_bound.py (CHECK, run by PYTHON3) finds each ended at its bound; the
# default (skip) has none.  Needs SCHEDREPLAY, PYTHON3, CHECK, MODE, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/small-hackbench.dat)

replay_run(out --seed 1 --handoff ${MODE} --dump-events ${WORK}/wo.dump --dump-wake-records ${t})
expect_match("[0-9]+  hand-off waits not slept: a one-way flow, the waker not preempted writes on up to its next wakeup" "${out}"
             "--handoff ${MODE}: no write-on counted in the notes")
execute_process(COMMAND ${PYTHON3} ${CHECK} ${WORK}/wo.dump ${MODE}
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "writeon_bound.py ${MODE}: exit ${rc}: ${o}${e}")

replay_run(def --seed 1 --dump-events ${WORK}/skip.dump --dump-wake-records ${t})
file(READ ${WORK}/skip.dump d)
string(FIND "${d}" "writeon" at)
expect("at EQUAL -1" "--handoff skip (the default) wrote on")
string(FIND "${def}" "writes on up to its next wakeup" at)
expect("at EQUAL -1" "--handoff skip (the default) counted write-ons")
file(REMOVE ${WORK}/wo.dump ${WORK}/skip.dump)
