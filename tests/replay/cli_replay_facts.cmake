# replay's machine-facts lines name where each fact came from (docs/replay.md,
# "Machine facts"): without a sidecar, a v7 trace.dat's CPU count is its
# CPUCOUNT option's, a v6 one's its header's.  Needs SCHEDREPLAY and DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

replay_run(v7 --no-sidecar ${DIR}/small-pipe.dat)
expect_match("\ncpus: +2  \\[trace: trace.dat CPUCOUNT option \\(CPU count 2\\)\\]\n" "${v7}"
             "small-pipe.dat (v7): the CPU count's source is not its CPUCOUNT option")
replay_run(v6 --no-sidecar ${DIR}/hog-timer.dat)
expect_match("\ncpus: +2  \\[trace: trace.dat header \\(CPU count 2\\)\\]\n" "${v6}"
             "hog-timer.dat (v6): the CPU count's source is not its header")

# measured.counts_without_events: the compared counts the trace has not one
# event of (the text's "untraced"), their relative errors null; small-pipe
# forks nothing, hog-timer has every compared event
replay_run(pj --json --no-sidecar ${DIR}/small-pipe.dat)
expect_match("\"counts_without_events\": \\[\n +\"sched_wakeup_new\"\n +\\]" "${pj}"
             "small-pipe: counts_without_events is not [sched_wakeup_new]")
expect_match("\"sched_wakeup_new\": null" "${pj}"
             "small-pipe: sched_wakeup_new's relative error is not null")
replay_run(hj --json --no-sidecar ${DIR}/hog-timer.dat)
expect_match("\"counts_without_events\": \\[\\]" "${hj}"
             "hog-timer: counts_without_events is not empty")
