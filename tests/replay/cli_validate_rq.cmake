# `schedreplay validate`'s run-queue wait rows are shown and never judged:
# --markdown has them after each trace's duration row with no threshold and
# no goal, --json has the measured figures of small-hackbench.dat (facts of
# the trace, whatever the model does) and --suggest names none of them.
# Needs SCHEDREPLAY and DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

function(run out)
  execute_process(COMMAND ${SCHEDREPLAY} validate --dir ${DIR} --seeds 1 ${ARGN}
                  OUTPUT_VARIABLE o RESULT_VARIABLE rc)
  set(${out} "${o}" PARENT_SCOPE)
  set(${out}_rc "${rc}" PARENT_SCOPE)
endfunction()

run(md --markdown)
foreach(row "rq wait p50 \\(us\\)" "rq wait p95 \\(us\\)" "rq wait p99 \\(us\\)"
            "rq waits > 10 ms" "wakeups > 10 ms")
  # |  |  | ROW | measured | predicted | error | seeds | (no threshold) | (no goal) |
  string(REGEX MATCHALL "\\|  \\|  \\| ${row} \\|[^|\n]*\\|[^|\n]*\\|[^|\n]*\\|[^|\n]*\\| \\| \\|\n"
         rows "${md}")
  list(LENGTH rows n)
  string(REGEX MATCHALL "\\| duration \\(ms\\) \\|" durs "${md}")
  list(LENGTH durs nd)
  expect("n EQUAL nd" "--markdown: ${n} '${row}' rows without threshold and goal, ${nd} traces")
  expect("n GREATER 0" "--markdown: no '${row}' row")
endforeach()
# the rows follow the duration row, in their order
string(REGEX MATCH "duration \\(ms\\) [^\n]*\n[^\n]*rq wait p50[^\n]*\n[^\n]*rq wait p95[^\n]*\n[^\n]*rq wait p99[^\n]*\n[^\n]*rq waits > 10 ms[^\n]*\n[^\n]*wakeups > 10 ms"
       seq "${md}")
if(seq STREQUAL "")
  message(FATAL_ERROR "--markdown: the rows are not after the duration row in order")
endif()

run(js --json)
string(JSON t GET "${js}" traces small-hackbench.dat)
string(JSON v GET "${t}" runqueue_wait_us samples measured)
expect("v EQUAL 766" "--json: small-hackbench run-queue waits measured ${v}, expected 766")
string(JSON v GET "${t}" runqueue_wait_us over_10ms measured)
expect("v EQUAL 1" "--json: small-hackbench run-queue waits over 10 ms measured ${v}, expected 1")
string(JSON v GET "${t}" wakeup_latency_over_10ms measured)
expect("v EQUAL 4" "--json: small-hackbench wakeups over 10 ms measured ${v}, expected 4")
string(JSON v GET "${t}" runqueue_wait_us p99 measured)
expect("v EQUAL 3842.048" "--json: small-hackbench run-queue wait p99 measured ${v}, expected 3842.048")
foreach(k p50 p95 p99 over_10ms)
  string(JSON p GET "${t}" runqueue_wait_us ${k} predicted)
  string(JSON l ERROR_VARIABLE e GET "${t}" runqueue_wait_us ${k} limit)
  expect("NOT e STREQUAL NOTFOUND" "--json: runqueue_wait_us.${k} has a limit")
endforeach()
# the held metrics are still the seven
string(JSON m GET "${t}" metrics)
string(JSON n LENGTH "${m}")
expect("n EQUAL 7" "--json: ${n} held metrics, expected 7")

run(sg --suggest)
foreach(k rq over_10ms runqueue)
  string(FIND "${sg}" "${k}" at)
  expect("at EQUAL -1" "--suggest names '${k}'")
endforeach()
