# `schedreplay whatif` from the command line: its JSON carries the replay's
# "variants" map (the base run of `replay --json` and of `whatif --json` are
# the same numbers), the SVG is written, bad input gives one line and the
# documented exit code.  Needs SCHEDREPLAY, TRACE, RT_TRACE (a trace with
# RT/DL wakeups), MACHINES, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

execute_process(COMMAND ${SCHEDREPLAY} whatif --json --variant aaron-skip
                        --variant cfs-group-tick-only,no-tg-ratelimit --svg ${WORK}/whatif.svg
                        ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE w ERROR_VARIABLE err)
expect("rc EQUAL 0" "whatif --json failed (${rc}): ${err}")
execute_process(COMMAND ${SCHEDREPLAY} replay --json ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE r ERROR_VARIABLE err)
expect("rc EQUAL 0" "replay --json failed (${rc}): ${err}")

string(JSON nw LENGTH "${w}" variants)
expect("nw EQUAL 3" "whatif: expected base + 2 runs, got ${nw}")
string(JSON name MEMBER "${w}" variants 2)
expect("name STREQUAL cfs-group-tick-only,no-tg-ratelimit" "third run is '${name}'")
string(JSON nkeys LENGTH "${r}" variants base counts)
string(JSON nkeys_w LENGTH "${w}" variants base counts)
expect("nkeys EQUAL nkeys_w" "count keys: replay ${nkeys}, whatif ${nkeys_w}")
math(EXPR last "${nkeys} - 1")
foreach(i RANGE ${last})
  string(JSON key MEMBER "${r}" variants base counts ${i})
  string(JSON a GET "${r}" variants base counts ${key})
  string(JSON b GET "${w}" variants base counts ${key})
  expect("a EQUAL b" "count ${key}: replay ${a}, whatif ${b}")
endforeach()
foreach(p p50 p95 p99)
  string(JSON a GET "${r}" variants base wakeup_latency_us all ${p})
  string(JSON b GET "${w}" variants base wakeup_latency_us all ${p})
  expect("a STREQUAL b" "latency ${p}: replay ${a}, whatif ${b}")
endforeach()
string(JSON share GET "${w}" variants aaron-skip cpu_share share total)
expect("share GREATER_EQUAL 0" "cpu_share.total missing")
file(READ ${WORK}/whatif.svg svg)
string(FIND "${svg}" "</svg>" pos)
expect("pos GREATER 0" "SVG not written")

# --noise: the JSON lists the other capture and the spread.  The trace itself
# as --noise, or one capture named twice, is a usage error since fuzz40, and
# so is a copy of the trace since fuzz41 (each a spread of 0 that marked
# every change outside the noise): the mechanics on another capture
# (RT_TRACE, another workload: the command cannot tell)
configure_file(${TRACE} ${WORK}/noise-copy.dat COPYONLY)
execute_process(COMMAND ${SCHEDREPLAY} whatif --json --variant aaron-skip --noise ${WORK}/noise-copy.dat ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE n ERROR_VARIABLE err)
expect("rc EQUAL 2" "whatif --noise COPY: exit ${rc}, not the usage error")
execute_process(COMMAND ${SCHEDREPLAY} whatif --json --variant aaron-skip --noise ${RT_TRACE} ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE n ERROR_VARIABLE err)
expect("rc EQUAL 0" "whatif --noise failed (${rc}): ${err}")
string(JSON ncap LENGTH "${n}" noise captures)
expect("ncap EQUAL 1" "noise.captures has ${ncap} entries")
string(JSON sp GET "${n}" noise all p50)
expect("sp GREATER_EQUAL 0" "noise.all.p50 is ${sp}")
execute_process(COMMAND ${SCHEDREPLAY} whatif --variant aaron-skip --noise ${RT_TRACE} ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE t)
string(FIND "${t}" "run-to-run spread" pos)
expect("pos GREATER -1" "no run-to-run spread line in the text report")
execute_process(COMMAND ${SCHEDREPLAY} whatif --noise ${WORK}/no-such.dat ${TRACE}
                RESULT_VARIABLE rc ERROR_QUIET OUTPUT_QUIET)
expect("rc EQUAL 1" "missing --noise trace: exit ${rc}")

# RT/DL wakeup samples (docs/replay.md, "Wakeup latency of RT/DL tasks"):
# whatif's text says what replay's says, from the same code - the count under
# the `all` rows and the mark of the comms whose tasks are all RT/DL (RT_TRACE
# has one such sample, migration/0's) - and its JSON carries replay's
# measured.wakeup_samples_rt_dl
replay_run(rt_r --top 0 ${RT_TRACE})
execute_process(COMMAND ${SCHEDREPLAY} whatif --variant base --top 0 ${RT_TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE rt_w ERROR_VARIABLE err)
expect("rc EQUAL 0" "whatif ${RT_TRACE} failed (${rc}): ${err}")
string(REGEX MATCH "\n  \\([0-9]+ of the measured samples are wakeups of RT/DL tasks[^\n]*" note_r "${rt_r}")
string(REGEX MATCH "\n  \\([0-9]+ of the measured samples are wakeups of RT/DL tasks[^\n]*" note_w "${rt_w}")
expect_match("^\n  \\(1 of the measured samples are wakeups of RT/DL tasks, .* the other 5020 \\(fair"
             "${note_r}" "replay ${RT_TRACE}: no RT/DL count 1 of 5021: '${note_r}'")
expect("note_r STREQUAL note_w" "whatif's RT/DL count '${note_w}', replay's '${note_r}'")
string(REGEX MATCHALL "\nWakeup latency, comm=[^\n]*: measured [0-9]+ samples  \\(RT/DL: replayed as traced, not predicted\\)"
       marks_r "${rt_r}")
string(REGEX REPLACE "\nWakeup latency, comm=([^\n]*): measured [0-9]+ samples  [^;]*" "\\1" marks_r "${marks_r}")
string(REGEX MATCHALL "\ncomm [^\n]*\nmeasured[^\n]*\nbase[^\n]*\n  \\(RT/DL: replayed as traced, not predicted\\)"
       marks_w "${rt_w}")
string(REGEX REPLACE "\ncomm ([^\n]*[^ ]) +samples [^;]*" "\\1" marks_w "${marks_w}")
expect("marks_r STREQUAL migration/0" "replay ${RT_TRACE}: comms marked RT/DL '${marks_r}'")
expect("marks_r STREQUAL marks_w" "comms marked RT/DL: whatif '${marks_w}', replay '${marks_r}'")
execute_process(COMMAND ${SCHEDREPLAY} replay --json ${RT_TRACE} OUTPUT_VARIABLE rt_rj ERROR_QUIET)
execute_process(COMMAND ${SCHEDREPLAY} whatif --json --variant base ${RT_TRACE}
                OUTPUT_VARIABLE rt_wj ERROR_QUIET)
string(JSON n_r GET "${rt_rj}" measured wakeup_samples_rt_dl)
string(JSON n_w GET "${rt_wj}" measured wakeup_samples_rt_dl)
expect("n_r EQUAL 1 AND n_w EQUAL n_r" "measured.wakeup_samples_rt_dl: whatif ${n_w}, replay ${n_r}")

execute_process(COMMAND ${SCHEDREPLAY} whatif --variant aaron-skp ${TRACE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
expect("rc EQUAL 2" "unknown variant: exit ${rc} (a bad option value, as replay's)")
string(FIND "${err}" "unknown variant 'aaron-skp'" pos)
expect("pos GREATER -1" "unknown variant message: ${err}")
execute_process(COMMAND ${SCHEDREPLAY} whatif --placement sideways ${TRACE}
                RESULT_VARIABLE rc ERROR_QUIET OUTPUT_QUIET)
expect("rc EQUAL 2" "bad --placement: exit ${rc}")
execute_process(COMMAND ${SCHEDREPLAY} whatif ${WORK}/no-such-trace.dat
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
expect("rc EQUAL 1" "missing trace: exit ${rc}")
execute_process(COMMAND ${SCHEDREPLAY} whatif --svg /nonexistent-dir/x.svg ${TRACE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
expect("rc EQUAL 1" "unwritable SVG: exit ${rc}")
# --svg-comm / --svg-cgroup naming nothing in the trace: a usage error (before
# 2 Dec 2026 an empty plot at exit 0); a comm of the trace still plots
foreach(opt "--svg-comm;hackbenhc;comm" "--svg-cgroup;/no/such/group;cgroup")
  list(GET opt 0 o)
  list(GET opt 1 v)
  list(GET opt 2 what)
  file(REMOVE ${WORK}/whatif-none.svg)
  execute_process(COMMAND ${SCHEDREPLAY} whatif --variant base --svg ${WORK}/whatif-none.svg
                          ${o} ${v} ${TRACE}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  expect("rc EQUAL 2" "${o} ${v}: exit ${rc}: ${err}")
  string(FIND "${err}" "${o} '${v}' names no " pos)
  expect("pos GREATER -1" "${o} ${v}: message: ${err}")
  string(FIND "${err}" "'schedreplay report --by ${what}'" pos)
  expect("pos GREATER -1" "${o} ${v}: no hint: ${err}")
endforeach()
# ... and without --svg they would choose nothing: a usage error (before 2 Dec
# 2026 ignored at exit 0)
foreach(o --svg-comm --svg-cgroup)
  execute_process(COMMAND ${SCHEDREPLAY} whatif --variant base ${o} hackbench ${TRACE}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  expect("rc EQUAL 2" "${o} without --svg: exit ${rc}: ${err}")
  string(FIND "${err}" "${o} needs --svg FILE" pos)
  expect("pos GREATER -1" "${o} without --svg: message: ${err}")
endforeach()
execute_process(COMMAND ${SCHEDREPLAY} whatif --variant base --svg ${WORK}/whatif-comm.svg
                        --svg-comm hackbench ${TRACE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
expect("rc EQUAL 0" "--svg-comm hackbench: exit ${rc}: ${err}")
file(READ ${WORK}/whatif-comm.svg svg)
string(FIND "${svg}" "comm hackbench" pos)
expect("pos GREATER 0" "--svg-comm hackbench: not in the SVG's title")
execute_process(COMMAND ${SCHEDREPLAY} whatif --machine ${WORK}/no-such-machine.json ${TRACE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
expect("rc EQUAL 1" "missing machine file: exit ${rc}")
# {} prices nothing of its own (docs/variants.md): one line, exit 1
file(WRITE ${WORK}/machine-empty.json "{}\n")
execute_process(COMMAND ${SCHEDREPLAY} whatif --machine ${WORK}/machine-empty.json ${TRACE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
expect("rc EQUAL 1" "--machine {}: exit ${rc}")
expect_match("^schedreplay whatif: [^\n]*machine-empty.json: the machine file sets nothing[^\n]*\n$"
             "${err}" "--machine {}: not one line naming the file: ${err}")
string(LENGTH "${out}" n)
expect("n EQUAL 0" "--machine {}: output on stdout")

# the documented defaults are what the binary prints
execute_process(COMMAND ${SCHEDREPLAY} whatif --print-machine two-socket
                RESULT_VARIABLE rc OUTPUT_VARIABLE printed)
file(READ ${MACHINES}/two-socket.json file)
expect("rc EQUAL 0" "--print-machine failed")
string(COMPARE EQUAL "${printed}" "${file}" same)
expect("same" "docs/machines/two-socket.json differs from 'whatif --print-machine two-socket'")

# The text tables' columns line up: a column name wider than a cell
# (update_cfs_group.reweighted, update_blocked_averages) widens its column,
# and a title wider than the run names (a cgroup's path, "wakeup latency,
# all" over one short variant name) goes on a line of its own; right-aligned
# cells, so a table's header and its rows end at one column (until 5 Dec
# 2026 both pushed the header's names 8 to 16 columns right of their figures)
execute_process(COMMAND ${SCHEDREPLAY} whatif --variant base ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE tw ERROR_VARIABLE err)
expect("rc EQUAL 0" "whatif --variant base: exit ${rc}: ${err}")
foreach(head "[^\n]*update_cfs_group  *update_cfs_group.reweighted[^\n]*"
             "[^\n]*tg_load_avg_writes[^\n]*update_blocked_averages[^\n]*"
             "wakeup latency, all\n[^\n]*samples[^\n]*"
             "trace-visible counts\n[^\n]*sched_switch[^\n]*")
  string(REGEX MATCH "\n(${head})\n([^\n]*)\n" m "${tw}")
  string(LENGTH "${m}" ml)
  expect("ml GREATER 0" "whatif text: no table /${head}/:\n${tw}")
  set(head_m "${CMAKE_MATCH_1}")
  set(row "${CMAKE_MATCH_2}")
  string(REGEX REPLACE "^.*\n" "" hline "${head_m}")
  string(LENGTH "${hline}" hl)
  string(LENGTH "${row}" rl)
  expect("hl EQUAL rl" "whatif text: header '${hline}' (${hl}) and row '${row}' (${rl}) do not line up")
endforeach()
