# --later-handover (experimental; docs/validation-log.md, helper mp45): nice-mix-run2's probe.
# With --reply-in-run alone a worker the model did not preempt at its wake of probe-msg (12528)
# goes on past its later WAIT, eligible or not, so none is handed over.  With --later-handover
# it goes on only when it is eligible and slice-protected (the kernel's pick could not switch it
# out); otherwise it hands over to msg as at any hand-off WAIT (kind=handover), counted in the
# note "of them handed over".  Alone the option changes nothing (no later WAITs).
# Needs SCHEDREPLAY, DIR and WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/nice-mix-run2.dat)
replay_run(rir --seed 1 --json --reply-in-run --dump-events ${WORK}/rir.dump --dump-wake-records ${t})
replay_run(lh --seed 1 --json --reply-in-run --later-handover --dump-events ${WORK}/lh.dump --dump-wake-records ${t})
replay_run(def --seed 1 --json ${t})
replay_run(alone --seed 1 --json --later-handover ${t})
file(READ ${WORK}/rir.dump d_rir)
file(READ ${WORK}/lh.dump d_lh)
count_matches(n_h_rir "replay_op: wait pid=1252[67] y=12528 kind=handover" "${d_rir}")
count_matches(n_h_lh "replay_op: wait pid=1252[67] y=12528 kind=handover" "${d_lh}")
count_matches(n_l_lh "replay_op: wait pid=1252[67] y=12528 kind=later" "${d_lh}")
expect("n_h_rir EQUAL 0" "--reply-in-run: ${n_h_rir} hand-overs of a worker to probe-msg, expected none")
expect("n_h_lh GREATER 5" "--later-handover: ${n_h_lh} hand-overs of a worker to probe-msg, expected over 5")
expect("n_l_lh GREATER 50" "--later-handover: ${n_l_lh} later waits of a worker, expected over 50")
replay_note(over_lh "${lh}" "of them handed over: the waker not both eligible")
replay_note(over_rir "${rir}" "of them handed over: the waker not both eligible")
expect("over_lh EQUAL n_h_lh" "--later-handover: note ${over_lh}, dump ${n_h_lh}")
expect("over_rir EQUAL 0" "--reply-in-run alone: note ${over_rir}, expected 0")
string(JSON sw_rir GET "${rir}" variants base counts sched_switch)
string(JSON sw_lh GET "${lh}" variants base counts sched_switch)
expect("NOT sw_lh EQUAL sw_rir" "--later-handover: sched_switch ${sw_lh}, the same as --reply-in-run's")
string(JSON sw_def GET "${def}" variants base counts sched_switch)
string(JSON sw_alone GET "${alone}" variants base counts sched_switch)
expect("sw_alone EQUAL sw_def" "--later-handover alone: sched_switch ${sw_alone}, the default ${sw_def}")
