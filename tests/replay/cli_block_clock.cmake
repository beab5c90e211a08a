# --block-clock (docs/replay.md, "Mechanical costs"): a block whose __schedule() clock read (its
# switch minus the median clock lead) falls at or before its CPU's last clock update - an
# enqueue charged the blocker later than that read - keeps that clock under keep (the default):
# no delta, no sched_stat_runtime of its dequeue; under after it reads 1 ns past it, as the
# kernel's update_rq_clock() under the rq lock that the enqueue held first, and emits.
# small-chan seed 1: those blocks are the count's difference (7 of them: 733 -> 740); each
# blocker's emission of 1 ns is in the dump.  Needs SCHEDREPLAY, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
foreach(mode keep after)
  set(dump ${WORK}/small-chan.${mode}.dump)
  replay_run(j --json --seed 1 --block-clock ${mode} --dump-events ${dump}
             ${DIR}/small-chan.dat)
  string(JSON n_${mode} GET "${j}" variants base counts sched_stat_runtime)
  file(STRINGS ${dump} ones REGEX "sched_stat_runtime: .* runtime=1 \\[ns\\]")
  list(LENGTH ones ones_${mode})
  file(REMOVE ${dump})
endforeach()
message(STATUS "sched_stat_runtime keep ${n_keep}, after ${n_after}; 1 ns emissions ${ones_keep}, ${ones_after}")
math(EXPR more "${n_after} - ${n_keep}")
expect("ones_keep EQUAL 0 AND more GREATER 2 AND more EQUAL ones_after"
       "small-chan seed 1 --block-clock: keep ${n_keep} emissions (${ones_keep} of 1 ns), after ${n_after} (${ones_after} of 1 ns)")

# after is the default (the thirty-third pass): the same count without the option
replay_run(j --json --seed 1 ${DIR}/small-chan.dat)
string(JSON n_default GET "${j}" variants base counts sched_stat_runtime)
expect("n_default EQUAL n_after"
       "small-chan seed 1: sched_stat_runtime ${n_default} by default, ${n_after} under --block-clock after, ${n_keep} under keep: after is not the default")
