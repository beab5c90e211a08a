# replay --queued-moves (docs/replay.md, "Traced migrations").  hackbench-shares'
# pipe sender 8356
# runs on CPU 0 until the trace's balancer on CPU 1 pulls it, queued, at
# 5852.436638954 (its only migration; it never sleeps after it in the trace).
# Under the default (time) the simulation has it asleep then in seeds 2 and 4
# - in a hand-off WAIT (seed 4), in a traced block it has not been woken from,
# the replay running behind (seed 2) - the pull is kept only as "CPU 1 takes
# it if idle", CPU 1 never is, and 8356 stays on CPU 0: no such migration in
# the dump.  wait moves it at its WAIT's release (seed 4, not seed 2);
# position also at the wakeup that brings it to the point of its work where
# the trace moved it (seed 2).  time is the default, byte for byte.  Needs
# SCHEDREPLAY, DIR and WORK.
# The scenario is that of the clocks before the twenty-first pass
# (--wake-clock waking --idle-clock update, set on every run here): under the
# kernel's charge points the same seeds no longer put 8356 to sleep there; nor
# (seed 4) with a stand-in's preemption landed before the next block
# (--standin-skip block-charge, the default since the thirty-third pass): keep
# is set too.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)
set(clocks --wake-clock waking --idle-clock update --standin-skip keep)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/hackbench-shares.dat)
set(mig "sched_migrate_task: hackbench:8356 orig_cpu=0 dest_cpu=1\n")

function(moved out seed mode)
  replay_run(o ${clocks} --seed ${seed} --queued-moves ${mode} --dump-events ${WORK}/s${seed}.${mode}.dump ${t})
  file(READ ${WORK}/s${seed}.${mode}.dump d)
  string(FIND "${d}" "${mig}" at)
  if(at EQUAL -1)
    set(${out} 0 PARENT_SCOPE)
  else()
    set(${out} 1 PARENT_SCOPE)
  endif()
  set(${out}_text "${o}" PARENT_SCOPE)
endfunction()

moved(t4 4 time)
moved(w4 4 wait)
moved(p4 4 position)
moved(t2 2 time)
moved(w2 2 wait)
moved(p2 2 position)
expect("t4 EQUAL 0" "seed 4, --queued-moves time: 8356 moved to CPU 1 (the case this test is about is gone)")
expect("t2 EQUAL 0" "seed 2, --queued-moves time: 8356 moved to CPU 1 (the case this test is about is gone)")
expect("w4 EQUAL 1" "seed 4, --queued-moves wait: 8356, asleep in a hand-off WAIT at the trace's pull, not moved at its release")
expect("p4 EQUAL 1" "seed 4, --queued-moves position: 8356 not moved to CPU 1")
expect("w2 EQUAL 0" "seed 2, --queued-moves wait: 8356 moved, but wait has no rule for a task asleep in a traced block")
expect("p2 EQUAL 1" "seed 2, --queued-moves position: 8356, asleep before the point of its work where the trace pulled it, not moved at that point")
expect_match("kept for the wake that releases it" "${w4_text}" "seed 4, --queued-moves wait: no note of the move kept for the release")
expect_match("held for that point" "${p2_text}" "seed 2, --queued-moves position: no note of the held move")

# time is the default: the same output as without the option
replay_run(plain ${clocks} --seed 4 ${t})
string(REGEX REPLACE "events in [0-9.]+ s" "" plain "${plain}")
string(REGEX REPLACE "events in [0-9.]+ s" "" t4_text "${t4_text}")
if(NOT plain STREQUAL t4_text)
  message(FATAL_ERROR "--queued-moves time differs from the default")
endif()
