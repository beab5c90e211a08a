# --newidle-pulls (experimental; docs/replay.md, "Traced newidle pulls"): small-lost's
# 6815 blocks on CPU 0 at 11310.202301 and its __schedule()'s newidle balance
# (pick_next_task_fair() -> sched_balance_newidle()) pulls 6817, queued on CPU 1: the trace
# writes the sched_migrate_task on CPU 0 in 6815's context, then 6815 S ==> 6817.  The
# simulation's block of 6815 comes 8 us before that trace time (seed 1).  By default the
# pull is applied at its trace time: 6815 S ==> idle, idle ==> 6817, an idle cycle the
# kernel never had.  With block (and hold) it is applied at 6815's block, before the pick:
# migrate, then 6815 S ==> 6817, one switch fewer there.
# Needs SCHEDREPLAY, DIR and WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/small-lost.dat)
foreach(mode time block hold)
  replay_run(j_${mode} --seed 1 --json --newidle-pulls ${mode} --dump-events ${WORK}/${mode}.dump ${t})
  file(READ ${WORK}/${mode}.dump d_${mode})
  # the extraction's note (top-level approximations)
  set(n_${mode} 0)
  string(JSON na LENGTH "${j_${mode}}" approximations)
  math(EXPR last "${na} - 1")
  foreach(i RANGE ${last})
    string(JSON what GET "${j_${mode}}" approximations ${i} what)
    if(what MATCHES "^traced newidle pulls: ")
      string(JSON n_${mode} GET "${j_${mode}}" approximations ${i} count)
    endif()
  endforeach()
  replay_note(e_${mode} "${j_${mode}}" "traced newidle pulls applied at the simulation's block")
  expect("n_${mode} EQUAL 1" "--newidle-pulls ${mode}: ${n_${mode}} traced newidle pulls found, expected 1 (6817 by 6815)")
  # the block to idle and the idle exit to the pulled task (the default's idle cycle)
  count_matches(ni_${mode} "\\[000\\][^\n]*sched_switch: hackbench:6815 \\[120\\] S ==> swapper/0:0 \\[120\\]\n(\\[001\\][^\n]*\n)*\\[000\\][^\n]*sched_migrate_task: hackbench:6817 orig_cpu=1 dest_cpu=0\n\\[000\\][^\n]*sched_switch: swapper/0:0 \\[120\\] R ==> hackbench:6817"
                "${d_${mode}}")
  # the pull, then 6815's block straight to 6817 (its charges between)
  count_matches(nb_${mode} "\\[000\\][^\n]*sched_migrate_task: hackbench:6817 orig_cpu=1 dest_cpu=0\n(\\[[0-9]+\\][^\n]*sched_stat_runtime[^\n]*\n)*\\[000\\][^\n]*sched_switch: hackbench:6815 \\[120\\] S ==> hackbench:6817 \\[120\\]"
                "${d_${mode}}")
endforeach()
expect("ni_time EQUAL 1 AND nb_time EQUAL 0" "time (the default): ${ni_time} idle cycles around the pull of 6817 (expected 1), ${nb_time} blocks of 6815 straight to it (expected 0)")
expect("e_time EQUAL 0" "time: ${e_time} pulls applied at a block, expected none")
foreach(mode block hold)
  expect("ni_${mode} EQUAL 0 AND nb_${mode} EQUAL 1" "${mode}: ${ni_${mode}} idle cycles around the pull of 6817 (expected 0), ${nb_${mode}} blocks of 6815 straight to it (expected 1)")
  expect("e_${mode} EQUAL 1" "${mode}: ${e_${mode}} pulls applied at 6815's block before their trace time, expected 1")
endforeach()
# with placement model there is no traced migration to apply: refused
execute_process(COMMAND ${SCHEDREPLAY} replay --placement model --newidle-pulls block ${t}
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("NOT rc EQUAL 0" "--placement model --newidle-pulls block: exit 0, expected a usage error")
expect_match("--newidle-pulls block is an option of --placement trace" "${e}" "the usage error:\n${e}")
