# --exit-wake-sync (experimental; docs/replay.md, "Early wakes"): small-lost's parent 6815
# reaps its children at the end.  The model's pick at 6831's exit is a child, not the woken
# parent (the kernel's), so the wakes of 6815 by the next exiting children (6824, 6826, 6825:
# exit_notify() -> __wake_up_parent(), a sync wake of wait_chldexit) reach it before the
# blocks they end.  By default each is a stand-in (blocked and woken at once: CPU 0 idles
# between); with the option the block is skipped, as do_wait() finds the zombie and does not
# schedule(): no stand-in of 6815, skipped blocks instead, fewer switches.
# Needs SCHEDREPLAY, DIR and WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

replay_on_off(${DIR}/small-lost.dat --json --exit-wake-sync)
count_matches(n_s_off "replay_op: standin pid=6815 [^\n]*waker=68(24|25|26)" "${d_off}")
count_matches(n_s_on "replay_op: standin pid=6815 " "${d_on}")
# skipblock lines name the wake record by its trace time: the wakes by 6826, 6824, 6825
count_matches(n_k_on "replay_op: skipblock pid=6815 trace=(11310201436934|11310201701158|11310201971130)\n" "${d_on}")
expect("n_s_off EQUAL 3" "default: ${n_s_off} stand-ins of 6815 woken by exiting children, expected 3")
expect("n_s_on EQUAL 0" "--exit-wake-sync: ${n_s_on} stand-ins of 6815, expected none")
expect("n_k_on EQUAL 3" "--exit-wake-sync: ${n_k_on} skipped blocks of 6815 woken by exiting children, expected 3")
string(JSON sw_on GET "${on}" variants base counts sched_switch)
string(JSON sw_off GET "${off}" variants base counts sched_switch)
expect("sw_on LESS sw_off" "--exit-wake-sync: sched_switch ${sw_on}, not fewer than the default's ${sw_off}")
