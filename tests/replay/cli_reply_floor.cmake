# A hand-off reply where the trace has neither a sync tail nor a __schedule() clock lead (no
# sched_stat_runtime: small-nowaking): reply_tail() floors it at the trace's shortest local
# preemption (the preempt_local path's lowest calibrated quantile, ~1.2 us there), the kernel's
# quickest way from a local enqueue to the wakee's switch-in; the replier's (return from its
# write(), read(), the block's __schedule()) is no shorter.  Before 3 Dec 2026 the reply came
# at the replier's block and the waiter was switched in at the instant it was woken: ~38
# switch-ins of 0 us a run from a task (the trace's local wakeups of a waker that then sleeps
# take 3.5 us and more).  Needs SCHEDREPLAY, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/zero_switch_ins.cmake)

file(MAKE_DIRECTORY ${WORK})
set(dump ${WORK}/small-nowaking.1.dump)
replay_run(j --json --seed 1 --dump-events ${dump} ${DIR}/small-nowaking.dat)
string(JSON tail GET "${j}" facts timing sync_tail_ns)
string(JSON lead GET "${j}" facts timing switch_lead_ns)
expect("tail EQUAL 0 AND lead EQUAL 0" "small-nowaking: sync_tail_ns ${tail}, switch_lead_ns ${lead}")
zero_switch_ins(zero ${dump} FALSE)
expect("zero_n GREATER 2000" "small-nowaking seed 1: ${zero_n} switch-ins from a task")
expect("zero LESS 5" "small-nowaking seed 1: ${zero} switch-ins from a task at their wakee's wakeup (0 us)")
