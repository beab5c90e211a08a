# --early-charge local on small-chan (docs/replay.md, "Early wakes"; docs/validation-log.md,
# "The local wakees the model keeps delayed"): an early wake (the replay's wakee short of the
# block it ends: nothing enqueued) was, in the capture kernel, an enqueue whose update_curr()
# charged the waker where the wakee was enqueued on the waker's CPU in its task group.  Under
# `local` those wakes whose block the replay skips (no wakeup of its own) charge the waker, with
# its sched_stat_runtime (small-chan seed 1: 46 of them, 724 -> 766 events, the trace's 859; 65
# before ec31's once-per-wakeup rule: replay_early_charge_once); under `off` (the default) none.
# Needs SCHEDREPLAY, DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-chan.dat)
set(note "early wakes whose waker was charged")
foreach(mode off local)
  replay_run(j --json --early-charge ${mode} ${t})
  string(JSON s_${mode} GET "${j}" variants base counts sched_stat_runtime)
  replay_note(n_${mode} "${j}" "${note}")
endforeach()
expect("n_off EQUAL 0 AND n_local GREATER 30" "charged early wakes: off ${n_off}, local ${n_local}")
math(EXPR more "${s_local} - ${s_off}")
expect("more GREATER 30" "sched_stat_runtime: off ${s_off}, local ${s_local}")
