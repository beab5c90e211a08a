# `schedreplay validate`'s run-queue wait rows are shown and never judged:
# --markdown has them after each trace's duration row with no threshold and
# no goal, --json has the measured figures of small-hackbench.dat (facts of
# the trace, whatever the model does) under runqueue_wait_us and long_waits
# with the held metrics' field names, and --suggest's limits name none of them.
# With a thresholds file of our own: a latency group the model never preempts
# (small-pipe's perf) shows the trace's figures and no prediction; a group not
# in the trace shows "-" as its held rows; plain text prints counts as integers.
# Needs SCHEDREPLAY, DIR and WORK (a scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

function(run out)
  execute_process(COMMAND ${SCHEDREPLAY} validate --dir ${DIR} --seeds 1 ${ARGN}
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  set(${out} "${o}" PARENT_SCOPE)
  set(${out}_rc "${rc}" PARENT_SCOPE)
  set(${out}_err "${e}" PARENT_SCOPE)
endfunction()

run(md --markdown)
# 0: every trace within its thresholds, 1: one over (the model's business);
# anything else (usage, an unreadable file, a crash) is this test's
expect("md_rc EQUAL 0 OR md_rc EQUAL 1" "--markdown: exit ${md_rc}: ${md_err}")
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
expect_match("duration \\(ms\\) [^\n]*\n[^\n]*rq wait p50[^\n]*\n[^\n]*rq wait p95[^\n]*\n[^\n]*rq wait p99[^\n]*\n[^\n]*rq waits > 10 ms[^\n]*\n[^\n]*wakeups > 10 ms"
             "${md}"
             "--markdown: the rows are not after the duration row in order")

run(js --json)
expect("js_rc EQUAL 0 OR js_rc EQUAL 1" "--json: exit ${js_rc}: ${js_err}")
string(JSON t GET "${js}" traces small-hackbench.dat)
string(JSON v GET "${t}" runqueue_wait_us samples measured)
expect("v EQUAL 766" "--json: small-hackbench run-queue waits measured ${v}, expected 766")
string(JSON v GET "${t}" long_waits over_us)
expect("v EQUAL 10000" "--json: long_waits.over_us ${v}, expected 10000")
string(JSON v GET "${t}" long_waits runqueue_wait measured)
expect("v EQUAL 1" "--json: small-hackbench run-queue waits over 10 ms measured ${v}, expected 1")
string(JSON v GET "${t}" long_waits wakeup_latency measured)
expect("v EQUAL 4" "--json: small-hackbench wakeups over 10 ms measured ${v}, expected 4")
string(JSON v GET "${t}" runqueue_wait_us p99 measured)
expect("v EQUAL 3842.048" "--json: small-hackbench run-queue wait p99 measured ${v}, expected 3842.048")
# the held metrics' field names, no limit, and not the old keys
set(fields error measured predicted seeds_error_max seeds_error_min)
foreach(path "runqueue_wait_us p50" "runqueue_wait_us p95" "runqueue_wait_us p99"
             "runqueue_wait_us samples" "long_waits runqueue_wait" "long_waits wakeup_latency")
  separate_arguments(path)
  string(JSON e GET "${t}" ${path})
  string(JSON n LENGTH "${e}")
  set(got "")
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON k MEMBER "${e}" ${i})
    list(APPEND got ${k})
  endforeach()
  list(SORT got)
  expect("got STREQUAL fields" "--json: ${path} has fields '${got}', expected '${fields}'")
endforeach()
foreach(old "runqueue_wait_us over_10ms" "wakeup_latency_over_10ms")
  separate_arguments(old)
  string(JSON v ERROR_VARIABLE e GET "${t}" ${old})
  expect("NOT e STREQUAL NOTFOUND" "--json: the old key ${old} is still there")
endforeach()
# the held metrics are still the seven
string(JSON m GET "${t}" metrics)
string(JSON n LENGTH "${m}")
expect("n EQUAL 7" "--json: ${n} held metrics, expected 7")

# The latency percentiles on the measured distribution.  small-hackbench's
# p50 goal band (17.984 us x (1 -/+ 0.20), the goal of thresholds.json; samples at
# their bucket's value, as percentiles are) holds 176
# of its 1779 measured samples: a fact of the trace and the goal, whatever the
# model does.  For every held percentile of every trace: a prediction within
# the goal lies inside the band on the measured distribution (0 samples from
# it), one outside lies outside (or on its edge, at the histogram's
# resolution), and --markdown's table lists exactly the
# percentiles that miss their goal.
string(JSON v GET "${t}" metrics p50 goal_band samples)
expect("v EQUAL 176" "--json: small-hackbench p50 goal band holds ${v} samples, expected 176")
string(JSON v GET "${t}" metrics p50 goal_band of)
expect("v EQUAL 1779" "--json: small-hackbench p50 goal band of ${v} samples, expected 1779")
string(JSON goal GET "${js}" goal)
string(JSON ntr LENGTH "${js}" traces)
math(EXPR lt "${ntr} - 1")
set(nmiss 0)
foreach(i RANGE ${lt})
  string(JSON name MEMBER "${js}" traces ${i})
  foreach(pc p50 p95 p99)
    string(JSON e ERROR_VARIABLE err GET "${js}" traces "${name}" metrics ${pc})
    if(NOT err STREQUAL NOTFOUND OR e STREQUAL "null")
      continue()
    endif()
    string(JSON err_v GET "${e}" error)
    string(JSON g GET "${goal}" ${pc})
    string(JSON q GET "${e}" predicted_at_measured_pct)
    string(JSON lo GET "${e}" goal_band measured_pct_lo)
    string(JSON hi GET "${e}" goal_band measured_pct_hi)
    string(JSON off GET "${e}" goal_band samples_from_predicted)
    # if() compares reals
    if(err_v LESS 0)
      string(SUBSTRING "${err_v}" 1 -1 err_v)
    endif()
    if(err_v GREATER g)
      math(EXPR nmiss "${nmiss} + 1")
      # outside the band, or on its edge at the histogram's resolution
      expect("NOT q GREATER lo OR NOT q LESS hi"
             "--json: ${name} ${pc} error ${err_v} misses the goal ${g}, but the prediction is at ${q} % of the measured samples, inside the band ${lo}..${hi} %")
    else()
      expect("NOT q LESS lo AND NOT q GREATER hi AND off EQUAL 0"
             "--json: ${name} ${pc} error ${err_v} within the goal ${g}, but the prediction is at ${q} % of the measured samples, outside the band ${lo}..${hi} % (${off} samples)")
    endif()
  endforeach()
endforeach()
string(FIND "${md}" "miss their goal, on the measured distribution" at)
expect("at GREATER -1" "--markdown: no table of the percentiles that miss their goal")
string(SUBSTRING "${md}" ${at} -1 band)
string(REGEX MATCHALL "\n\\| [^|\n]+\\.dat \\| p(50|95|99) \\|" rows "${band}")
list(LENGTH rows nrows)
expect("nrows EQUAL nmiss" "--markdown: ${nrows} rows in the table of missed percentiles, ${nmiss} missed in --json")

# --suggest: the limits it proposes name the seven held metrics only
run(sg --suggest)
expect("sg_rc EQUAL 0" "--suggest: exit ${sg_rc}: ${sg_err}")
string(JSON nt LENGTH "${sg}")
expect("nt GREATER 0" "--suggest: no trace")
math(EXPR last "${nt} - 1")
set(seen 0)
set(held sched_switch sched_stat_runtime sched_wakeup sched_migrate_task p50 p95 p99)
foreach(i RANGE ${last})
  string(JSON name MEMBER "${sg}" ${i})
  string(JSON lim ERROR_VARIABLE e GET "${sg}" "${name}" max_rel_error)
  if(NOT e STREQUAL NOTFOUND)
    continue()   # a skipped trace
  endif()
  string(JSON nk LENGTH "${lim}")
  math(EXPR lk "${nk} - 1")
  foreach(j RANGE ${lk})
    string(JSON k MEMBER "${lim}" ${j})
    list(FIND held "${k}" at)
    expect("at GREATER -1" "--suggest: ${name}: max_rel_error.${k} is not a held metric")
    math(EXPR seen "${seen} + 1")
  endforeach()
endforeach()
expect("seen GREATER 0" "--suggest: no max_rel_error key at all")

# --- presentation, with a thresholds file of our own: small-pipe's perf (the
# model never preempts it: 2 run-queue waits measured, none predicted) and a
# comm that is not in the trace
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/thresholds.json [=[
{"schema": "schedreplay-thresholds", "version": 1, "traces": {
  "small-pipe.dat": {"latency_group": {"comm": "perf"}},
  "small-hackbench.dat": {"latency_group": {"comm": "no-such-comm"}}}}
]=])
function(run_own out)
  run(o --thresholds ${WORK}/thresholds.json ${ARGN})
  # 1: the other traces have no entry here
  expect("o_rc EQUAL 1" "validate --thresholds (own) ${ARGN}: exit ${o_rc}: ${o_err}")
  set(${out} "${o}" PARENT_SCOPE)
endfunction()
run_own(md --markdown)
string(FIND "${md}" "| small-pipe.dat | comm=perf |" at)
expect("at GREATER -1" "--markdown (own): no small-pipe comm=perf block:\n${md}")
string(SUBSTRING "${md}" ${at} -1 pipe)
# the trace's figure, then no prediction (a seed has none of perf's waits)
expect_match("\\| rq wait p50 \\(us\\) \\| 5\\.4 \\| - \\| - \\| \\| \\| \\|\n"
             "${pipe}"
             "--markdown (own): perf's rq wait p50 row does not show the measured 5.4 us:\n${pipe}")
string(FIND "${md}" "| small-hackbench.dat | comm no-such-comm (absent) |" at)
expect("at GREATER -1" "--markdown (own): no absent group row:\n${md}")
string(SUBSTRING "${md}" ${at} -1 absent)
foreach(row "rq wait p50 \\(us\\)" "rq wait p99 \\(us\\)" "rq waits > 10 ms" "wakeups > 10 ms")
  expect_match("\\| ${row} \\| - \\| - \\| - \\| \\| \\| \\|\n"
               "${absent}"
               "--markdown (own): the absent group's '${row}' row is not '- | - | -':\n${absent}")
endforeach()
run_own(js --json)
string(JSON v GET "${js}" traces small-pipe.dat runqueue_wait_us p50 measured)
expect("v EQUAL 5.428" "--json (own): perf's measured p50 ${v}, expected 5.428")
string(JSON v TYPE "${js}" traces small-pipe.dat runqueue_wait_us p50 predicted)
expect("v STREQUAL NULL" "--json (own): perf's predicted p50 is ${v}, expected null")
string(JSON v GET "${js}" traces small-pipe.dat runqueue_wait_us samples error)
expect("v EQUAL -1" "--json (own): perf's samples error ${v}, expected -1.0")
foreach(path "runqueue_wait_us p50" "runqueue_wait_us samples" "long_waits runqueue_wait")
  separate_arguments(path)
  string(JSON v TYPE "${js}" traces small-hackbench.dat ${path})
  expect("v STREQUAL NULL" "--json (own): the absent group's ${path} is ${v}, expected null")
endforeach()
run_own(tx)
# counts as integers, as --markdown has them
expect_match("  rq waits > 10 ms +measured +0 predicted +0 "
             "${tx}"
             "text (own): perf's 'rq waits > 10 ms' is not printed as integers:\n${tx}")
expect_match("  rq wait p50 \\(us\\) +measured +5\\.4 predicted +- "
             "${tx}"
             "text (own): perf's 'rq wait p50' does not show the measured 5.4 us:\n${tx}")
# the held rows as --markdown has them: counts as integers, the latency
# percentiles with their unit, a trace without a limit "-" (not "0%")
expect_match("  sched_switch +measured +10037 predicted +[0-9]+ error +[-+][0-9.]+%  limit +-\n"
             "${tx}"
             "text (own): small-pipe's sched_switch row is not an integer count without a limit:\n${tx}")
expect_match("  p50 \\(us\\) +measured +3\\.0 predicted +[0-9]+\\.[0-9] error"
             "${tx}"
             "text (own): small-pipe's p50 row does not say us:\n${tx}")
expect_match("^predicted = one replay; measured = the trace; error = "
             "${tx}"
             "text (own): no legend line first:\n${tx}")
