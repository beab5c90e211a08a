# --reply-in-run (experimental; docs/validation-log.md, helper pw45): nice-mix-run2's probe.  The
# last worker to finish wakes probe-msg (12528), which preempts it in 450 of 695 local wakes; the
# worker then sleeps on its futex, and msg's next wake of it comes after msg's own 3 ms timer
# sleep.  By default that later wake counts as msg's reply, so the pair is a ping-pong and each
# such WAIT the model did not preempt hands over to msg anyway (kind=handover).  With the option
# no reply came in the run the worker's wake began: the WAITs are marked later, a worker not
# preempted goes on (kind=later), none is handed over, and the workers' run-queue waits fall.
# Needs SCHEDREPLAY, DIR and WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

replay_on_off(${DIR}/nice-mix-run2.dat --json --reply-in-run)
count_matches(n_h_off "replay_op: wait pid=1252[67] y=12528 kind=handover\n" "${d_off}")
count_matches(n_h_on "replay_op: wait pid=1252[67] y=12528 kind=handover" "${d_on}")
count_matches(n_l_on "replay_op: wait pid=1252[67] y=12528 kind=later\n" "${d_on}")
expect("n_h_off GREATER 100" "default: ${n_h_off} hand-overs of a worker to probe-msg, expected over 100")
expect("n_h_on EQUAL 0" "--reply-in-run: ${n_h_on} hand-overs of a worker to probe-msg, expected none")
expect("n_l_on GREATER 100" "--reply-in-run: ${n_l_on} later waits of a worker, expected over 100")
replay_note(later_on "${on}" "hand-off waits not slept: the wakee answers only after")
replay_note(later_off "${off}" "hand-off waits not slept: the wakee answers only after")
expect("later_on EQUAL n_l_on" "--reply-in-run: note ${later_on}, dump ${n_l_on}")
expect("later_off EQUAL 0" "default: note ${later_off}, expected 0")
string(JSON sw_on GET "${on}" variants base counts sched_switch)
string(JSON sw_off GET "${off}" variants base counts sched_switch)
expect("sw_on LESS sw_off" "--reply-in-run: sched_switch ${sw_on}, not fewer than the default's ${sw_off}")
