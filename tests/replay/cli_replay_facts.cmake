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

# a wakeup's target_cpu beyond the text's "cpus=2": the simulation gets CPUs
# up to it, and the line says why (it named only the count's source: "cpus:
# 41  [trace: the text's cpus= line (CPU count 2)]")
set(t "${CMAKE_CURRENT_BINARY_DIR}/facts-cpu-beyond.txt")  # the test's directory
file(WRITE ${t} "cpus=2
 t10-10 [000] 0.001000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t10 next_pid=10 next_prio=120
 t10-10 [000] 0.001500: sched_waking: comm=t11 pid=11 prio=120 target_cpu=040
 t10-10 [000] 0.001501: sched_wakeup: comm=t11 pid=11 prio=120 target_cpu=040
 t10-10 [000] 0.002000: sched_switch: prev_comm=t10 prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=t11 next_pid=11 next_prio=120
 t11-11 [000] 0.003000: sched_switch: prev_comm=t11 prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
")
replay_run(beyond ${t})
expect_match("
cpus: +41  \[trace: the highest CPU in the events \+ 1 \(CPU 40\), over the count from the text's cpus= line \(CPU count 2\)\]
"
             "${beyond}" "a target_cpu beyond the text's CPU count: the cpus line does not say so")
file(REMOVE ${t})

# offline CPUs (docs/replay.md, "Machine facts"): a sidecar whose topology
# lists CPUs 2 and 3 offline simulates CPUs 0-1 only (all 4 were simulated as
# usable before 2 Dec 2026); an event on an offline CPU, or a wakeup's
# target_cpu there, contradicts the sidecar: an error naming CPU and sidecar;
# an offline CPU below an online one (a hole) is an error too
set(t "${CMAKE_CURRENT_BINARY_DIR}/facts-offline.txt")
set(sc "${CMAKE_CURRENT_BINARY_DIR}/facts-offline.json")
function(offline_sidecar online)
  set(topo "")
  set(cpu 0)
  foreach(on ${online})
    if(NOT topo STREQUAL "")
      string(APPEND topo ",")
    endif()
    string(APPEND topo "{\"cpu\": ${cpu}, \"online\": ${on}}")
    math(EXPR cpu "${cpu} + 1")
  endforeach()
  file(WRITE ${sc} "{\"schema\": \"schedreplay-sidecar\", \"schema_version\": 1, \"trace\": {},
 \"kernel\": {\"release\": \"6.18.0\"}, \"cpus\": {\"topology\": [${topo}]}, \"tasks_at_start\": []}
")
endfunction()
function(offline_trace target)
  file(WRITE ${t} "cpus=4
 t10-10 [000] 0.001000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t10 next_pid=10 next_prio=120
 t10-10 [000] 0.001500: sched_waking: comm=t11 pid=11 prio=120 target_cpu=00${target}
 t10-10 [000] 0.001501: sched_wakeup: comm=t11 pid=11 prio=120 target_cpu=00${target}
 t10-10 [000] 0.002000: sched_switch: prev_comm=t10 prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=t11 next_pid=11 next_prio=120
 t11-11 [000] 0.003000: sched_switch: prev_comm=t11 prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
")
endfunction()
offline_sidecar("true;true;false;false")
offline_trace(1)
replay_run(off --sidecar ${sc} ${t})
expect_match("\ncpus: +2  \\[sidecar: [^\n]*facts-offline.json, 2 CPU\\(s\\) offline not simulated\\]\n"
             "${off}" "a sidecar with CPUs 2-3 offline: the simulation does not have 2 CPUs")
offline_trace(3)
execute_process(COMMAND ${SCHEDREPLAY} replay --sidecar ${sc} ${t}
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 1" "a wakeup onto an offline CPU: exit ${rc}, not 1: ${e}")
expect_match("^schedreplay replay: [^\n]*sched_waking at 0\\.001500000 s names CPU 3, which sidecar [^\n]*facts-offline.json lists offline[^\n]*\n$"
             "${e}" "a wakeup onto an offline CPU: not the one-line error naming CPU 3: ${e}")
# report: the same line (it counted the wakeup at exit 0), and CPUs listed
# offline that no event names are no error
execute_process(COMMAND ${SCHEDREPLAY} report --sidecar ${sc} ${t}
                OUTPUT_VARIABLE o ERROR_VARIABLE e2 RESULT_VARIABLE rc)
expect("rc EQUAL 1" "report: a wakeup onto an offline CPU: exit ${rc}, not 1: ${e2}")
string(REPLACE "schedreplay replay: " "schedreplay report: " want "${e}")
expect("e2 STREQUAL want" "report's error is not replay's: '${e2}' vs '${want}'")
string(LENGTH "${o}" olen)
expect("olen EQUAL 0" "report printed a report before its error: ${o}")
offline_trace(1)
execute_process(COMMAND ${SCHEDREPLAY} report --sidecar ${sc} ${t}
                OUTPUT_QUIET ERROR_VARIABLE e2 RESULT_VARIABLE rc)
expect("rc EQUAL 0" "report with CPUs 2-3 offline and no event there: exit ${rc}: ${e2}")
offline_sidecar("true;false;true;true")
offline_trace(1)
execute_process(COMMAND ${SCHEDREPLAY} replay --sidecar ${sc} ${t}
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 1" "an offline CPU below online ones: exit ${rc}, not 1: ${e}")
expect_match("^schedreplay replay: [^\n]*facts-offline.json: CPU 1 is offline [^\n]*CPU 3 above it is online[^\n]*\n$"
             "${e}" "an offline CPU below online ones: not the one-line error: ${e}")
file(REMOVE ${t} ${sc})

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

# what the columns are, stated before the first table: a first reader could
# not tell the run column "base" from a baseline measurement, nor which way
# round the error is, nor the latency tables' unit
expect_match("\ncolumns: +measured = from the trace \\(what the traced machine did\\)\n +base = predicted: the model replaying the same work \\(variant base: no patch\\)\n +error = \\(predicted - measured\\) / measured; latencies and waits in us\n\nCounts +measured +base +error\n"
             "${v6}" "hog-timer.dat: no 'columns:' legend above the counts:\n${v6}")
replay_run(two --no-sidecar --variant aaron-skip --variant base ${DIR}/hog-timer.dat)
expect_match("\n +each run column = predicted: the model replaying the same work \\(under that --variant; base: no patch\\)\n"
             "${two}" "hog-timer.dat, two runs: the legend does not say what each run column is:\n${two}")
replay_run(one --no-sidecar --variant aaron-skip ${DIR}/hog-timer.dat)
expect_match("\n +aaron-skip = predicted: the model replaying the same work \\(under that --variant\\)\n"
             "${one}" "hog-timer.dat, --variant aaron-skip: the legend does not name the run:\n${one}")
