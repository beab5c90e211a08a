# --nohz-pull on small-hackbench (seed 1): an idle CPU's nohz idle balance, kicked by a busy
# CPU's tick, moves queued tasks where the simulation, not the trace, left that CPU idle (the
# note counts them: 10 on 13e4f0c + the option, 9 since a run revealed an untraced switch counts
# from its exec_start, 3 Dec 2026), each a sched_migrate_task onto a CPU idle in
# the dump (62 migrations against the base's 63 since 3 Dec 2026 (ex35), 63 against 62 since the
# tick grid's phase became the default, 64 against 60 before: some traced pulls then meet their
# task elsewhere; since a block's clock reads past its CPU's last update (--block-clock after,
# 4 Dec 2026) 26 pulls, 73 migrations against the base's 62; with a stand-in's preemption landed
# before the next block (--standin-skip block-charge, the same day) 21 and 69); without the option
# the same passes are dry runs: no note.
# Needs SCHEDREPLAY, DIR, WORK (docs/replay.md, "Nohz idle pulls").
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-hackbench.dat)
file(MAKE_DIRECTORY ${WORK})
set(note "queued tasks an idle CPU's nohz idle balance pulled")
execute_process(COMMAND ${SCHEDREPLAY} replay ${t}
                OUTPUT_VARIABLE base ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay: exit ${rc}: ${e}")
string(FIND "${base}" "${note}" at)
expect("at EQUAL -1" "replay without --nohz-pull: the nohz note: ${base}")
execute_process(COMMAND ${SCHEDREPLAY} replay --nohz-pull --dump-events ${WORK}/n.dump ${t}
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay --nohz-pull: exit ${rc}: ${e}")
expect_match("\n +21  ${note}" "${o}" "replay --nohz-pull: no nohz pulls: ${o}")
expect_match("sched_migrate_task +62 +69 " "${o}" "replay --nohz-pull: migrations: ${o}")
expect_match("sched_migrate_task +62 +62 " "${base}" "replay: migrations: ${base}")
# every migration the dump has that no wakeup made lands on a CPU running idle there
file(STRINGS ${WORK}/n.dump lines REGEX "sched_switch: |sched_waking: |sched_migrate_task: ")
set(pulls 0)
set(waking "")
foreach(l IN LISTS lines)
  if(l MATCHES "^\\[0*([0-9]+)\\] [0-9.]+: sched_switch: .* ==> ([^ ]+):")
    set(curr_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  elseif(l MATCHES "sched_waking: [^ ]*:([0-9]+) ")
    set(waking "${CMAKE_MATCH_1}")
  elseif(l MATCHES "sched_migrate_task: [^ ]*:([0-9]+) orig_cpu=[0-9]+ dest_cpu=([0-9]+)")
    if(NOT CMAKE_MATCH_1 STREQUAL waking)
      set(dst ${CMAKE_MATCH_2})
      if(curr_${dst} MATCHES "^swapper")
        math(EXPR pulls "${pulls} + 1")
      endif()
    endif()
    set(waking "")
  endif()
endforeach()
expect("pulls GREATER_EQUAL 9" "replay --nohz-pull: ${pulls} moves of queued tasks onto an idle CPU")
file(REMOVE ${WORK}/n.dump)
