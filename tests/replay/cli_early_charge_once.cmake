# --early-charge local charges a wakeup once (docs/replay.md, "Early wakes"; docs/validation-log.md,
# "The local wakees the model keeps delayed").  The kernel's try_to_wake_up() enqueues its task
# once, and that enqueue_entity()'s update_curr() is the wakeup's one sched_stat_runtime.  An
# early wake whose block the replay still sleeps (a non-sync wake's stand-in, a race) gets a
# wakeup of its own there, whose enqueue charges that CPU's current: charging the waker at the
# early wake as well counted that wakeup twice (small-hackbench seed 1: 381 charged, 266 of them
# then a stand-in; sched_stat_runtime +6.4 % against the trace, off -1.4 %).  So a charged early
# wake is one whose block the replay skips (no sleep, no wakeup): at most the skipped blocks, and
# the sched_stat_runtime count stays near the trace's (fixed: 57 charged, +0.3 %).
# Needs SCHEDREPLAY, DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

replay_run(j --json --seed 1 --early-charge local ${DIR}/small-hackbench.dat)
replay_note(charged "${j}" "early wakes whose waker was charged")
replay_note(skipped "${j}" "blocks not slept because their wake had already arrived")
replay_note(noblock "${j}" "blocks not slept after a hand-off reply")
math(EXPR unslept "${skipped} + ${noblock}")
expect("charged GREATER 20 AND NOT charged GREATER unslept"
       "charged early wakes ${charged}, blocks the replay skips ${unslept}")
string(JSON err GET "${j}" relative_errors base counts sched_stat_runtime)
expect("err LESS 0.03" "sched_stat_runtime relative error ${err} (a wakeup charged twice)")
