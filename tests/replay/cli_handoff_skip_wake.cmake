# --handoff skip-wake on hackbench-chan-run2 (docs/replay.md, "Hand-offs"; docs/validation-log.md,
# "The local wakees the model keeps delayed"): under skip one hand-over whose own wakeup found
# its wakee short of its block (an early wake: nothing enqueued, the waker not charged) bills the
# wakee for its waker's 1.68 ms since the waker's last charge; the wakee comes out -1.2 ms
# behind, stays delayed at its next ~25 local wakeups and preempts none of them.  skip-wake
# charges the waker up to that wakeup first: fewer wakees delayed in the model that the trace
# shows fully asleep (84 -> 50 on seed 1) and more local preemptions (70.6 -> 78.0 %, the
# kernel's 86.1 %; 68.0 -> 80.6 % before --resched-at traced became the default).  Needs
# SCHEDREPLAY, DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/hackbench-chan-run2.dat)
foreach(mode skip skip-wake)
  replay_run(j --json --handoff ${mode} ${t})
  string(JSON n_${mode} GET "${j}" variants base wakeup_paths all local_busy)
  string(JSON p_${mode} GET "${j}" variants base wakeup_paths all local_busy_preempt)
  replay_run(o --handoff ${mode} ${t})
  if(o MATCHES "\n *([0-9]+)  \\.\\.\\. of them fully asleep in the trace, still delayed")
    set(d_${mode} ${CMAKE_MATCH_1})
  else()
    set(d_${mode} 0)
  endif()
endforeach()
# the share of local busy wakeups that preempt, in per mille
math(EXPR r_skip "${p_skip} * 1000 / ${n_skip}")
math(EXPR r_wake "${p_skip-wake} * 1000 / ${n_skip-wake}")
math(EXPR gain "${r_wake} - ${r_skip}")
expect("gain GREATER 50" "local busy preempt: skip ${p_skip}/${n_skip}, skip-wake ${p_skip-wake}/${n_skip-wake}")
math(EXPR fewer "${d_skip} - ${d_skip-wake}")
expect("d_skip GREATER 0 AND fewer GREATER 15"
       "asleep in the trace, delayed in the model: skip ${d_skip}, skip-wake ${d_skip-wake}")
