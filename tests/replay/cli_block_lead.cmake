# --block-lead traced on the pinned pipe (docs/replay.md, "Mechanical costs", "--block-lead";
# docs/validation-log.md, "The pinned pipe's declined local preemptions"): the capture's vCPU
# stalls 30-60 us inside a block's __schedule() (its charge -> its switch) or between a
# charge's clock read and its event; the kernel charged each to the task switched in next.
# Under the median lead (the default) the blocking task is charged the stall, comes back ~40 us
# ahead of its partner and the model declines the next ~5 local wakeups: preempting local busy
# wakeups 4 941 of 5 077 (seed 1; 4 907 of 5 112 before the hand-off reply's tail was run,
# hz31) against the trace's 4 970 of 5 046.  Under `traced` each block reads the clock its
# charge shows: 4 962 of 5 057 (4 937 of 5 082).  Checked: traced preempts at least 11 more and
# declines at least 21 fewer than the default, and stays under the trace's count.
# Needs SCHEDREPLAY, DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/pipe-pinned.dat)
foreach(mode median traced)
  replay_run(j --json --block-lead ${mode} ${t})
  string(JSON m_pre GET "${j}" measured wakeup_paths all local_busy_preempt)
  string(JSON ${mode}_pre GET "${j}" variants base wakeup_paths all local_busy_preempt)
  string(JSON ${mode}_all GET "${j}" variants base wakeup_paths all local_busy)
  math(EXPR ${mode}_no "${${mode}_all} - ${${mode}_pre}")
endforeach()
expect("m_pre GREATER 4900 AND m_pre LESS 5000" "measured local busy preempt ${m_pre}")
math(EXPR gain "${traced_pre} - ${median_pre}")
math(EXPR fewer "${median_no} - ${traced_no}")
expect("gain GREATER 10" "--block-lead traced: ${traced_pre} preempting, median ${median_pre}")
expect("fewer GREATER 20" "--block-lead traced: ${traced_no} declined, median ${median_no}")
expect("traced_pre LESS m_pre" "--block-lead traced: ${traced_pre} preempting, trace ${m_pre}")
