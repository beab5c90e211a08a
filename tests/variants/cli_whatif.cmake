# `schedreplay whatif` from the command line: its JSON carries the replay's
# "variants" map (the base run of `replay --json` and of `whatif --json` are
# the same numbers), the SVG is written, bad input gives one line and the
# documented exit code.  Needs SCHEDREPLAY, TRACE, MACHINES, WORK.
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

# --noise: the same capture twice has no spread; the JSON says so
execute_process(COMMAND ${SCHEDREPLAY} whatif --json --variant aaron-skip --noise ${TRACE} ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE n ERROR_VARIABLE err)
expect("rc EQUAL 0" "whatif --noise failed (${rc}): ${err}")
string(JSON ncap LENGTH "${n}" noise captures)
expect("ncap EQUAL 1" "noise.captures has ${ncap} entries")
string(JSON sp GET "${n}" noise all p50)
expect("sp EQUAL 0" "spread of a capture against itself is ${sp}")
execute_process(COMMAND ${SCHEDREPLAY} whatif --variant aaron-skip --noise ${TRACE} ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE t)
string(FIND "${t}" "run-to-run spread" pos)
expect("pos GREATER -1" "no run-to-run spread line in the text report")
execute_process(COMMAND ${SCHEDREPLAY} whatif --noise ${WORK}/no-such.dat ${TRACE}
                RESULT_VARIABLE rc ERROR_QUIET OUTPUT_QUIET)
expect("rc EQUAL 1" "missing --noise trace: exit ${rc}")

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
execute_process(COMMAND ${SCHEDREPLAY} whatif --machine ${WORK}/no-such-machine.json ${TRACE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
expect("rc EQUAL 1" "missing machine file: exit ${rc}")

# the documented defaults are what the binary prints
execute_process(COMMAND ${SCHEDREPLAY} whatif --print-machine two-socket
                RESULT_VARIABLE rc OUTPUT_VARIABLE printed)
file(READ ${MACHINES}/two-socket.json file)
expect("rc EQUAL 0" "--print-machine failed")
string(COMPARE EQUAL "${printed}" "${file}" same)
expect("same" "docs/machines/two-socket.json differs from 'whatif --print-machine two-socket'")
