# --standin-skip block-charge is the default (docs/replay.md, "Early wakes"; the thirty-third
# pass): on small-chan seed 1 the early wakes' stand-in preemptions that a block would have
# absorbed land before it (note "blocks reached with a preemption pending"), a switch and a
# charge more each than under keep, and the run without the option is block-charge's.
# Needs SCHEDREPLAY and DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(note "blocks reached with a preemption pending")
foreach(mode default keep block-charge)
  if(mode STREQUAL "default")
    replay_run(j --json --seed 1 ${DIR}/small-chan.dat)
  else()
    replay_run(j --json --seed 1 --standin-skip ${mode} ${DIR}/small-chan.dat)
  endif()
  string(JSON sw_${mode} GET "${j}" variants base counts sched_switch)
  string(JSON st_${mode} GET "${j}" variants base counts sched_stat_runtime)
  replay_note(bp_${mode} "${j}" "${note}")
endforeach()
message(STATUS "sched_switch default ${sw_default}, keep ${sw_keep}, block-charge ${sw_block-charge}; "
               "blocks preempted first ${bp_default}, ${bp_keep}, ${bp_block-charge}")
expect("bp_keep EQUAL 0 AND bp_block-charge GREATER 0"
       "small-chan seed 1: blocks reached with a stand-in's preemption pending: keep ${bp_keep}, block-charge ${bp_block-charge}")
expect("sw_default EQUAL sw_block-charge AND st_default EQUAL st_block-charge AND bp_default EQUAL bp_block-charge"
       "small-chan seed 1: the default (${sw_default} switches, ${st_default} charges) is not block-charge's (${sw_block-charge}, ${st_block-charge})")
expect("sw_block-charge GREATER sw_keep AND st_block-charge GREATER st_keep"
       "small-chan seed 1: block-charge ${sw_block-charge} switches / ${st_block-charge} charges, keep ${sw_keep} / ${st_keep}: no more of either")
