# replay --json's wakeup paths on small-chan (docs/replay.md, "Wakeup paths"): the measured
# counts against the golden ones, which are wakeup_paths.py's classes of report's samples on
# `trace-cmd report` of the trace (checked again here when TRACECMD is set), and the predicted
# side against wakeup_paths.py on the run's --dump-events file: one definition, both sides.
# Needs SCHEDREPLAY, PYTHON3, TOOL, CHECK, DIR, WORK; TRACECMD optional.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/small-chan.dat)
execute_process(COMMAND ${SCHEDREPLAY} report --samples ${WORK}/s.samples ${t}
                OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "report --samples: exit ${rc}: ${e}")
execute_process(COMMAND ${SCHEDREPLAY} replay --json --dump-events ${WORK}/s.dump ${t}
                OUTPUT_FILE ${WORK}/r.json ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay --json --dump-events: exit ${rc}: ${e}")
execute_process(COMMAND ${PYTHON3} ${TOOL} --samples ${WORK}/s.samples --group all ${WORK}/s.dump
                OUTPUT_FILE ${WORK}/dump.txt ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "wakeup_paths.py on the dump: exit ${rc}: ${e}")
set(args --dump-paths ${WORK}/dump.txt)
if(TRACECMD)
  execute_process(COMMAND ${TRACECMD} report -t -i ${t} OUTPUT_FILE ${WORK}/t.rep
                  ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "trace-cmd report: exit ${rc}: ${e}")
  execute_process(COMMAND ${PYTHON3} ${TOOL} --samples ${WORK}/s.samples --group all ${WORK}/t.rep
                  OUTPUT_FILE ${WORK}/trace.txt ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "wakeup_paths.py on the trace: exit ${rc}: ${e}")
  list(APPEND args --trace-paths ${WORK}/trace.txt)
endif()
execute_process(COMMAND ${PYTHON3} ${CHECK} ${WORK}/r.json ${args}
                        --golden "samples=309 idle=3 preempt_local=95 preempt_remote=16 behind_current_local=6 behind_current_remote=41 queued_local=51 queued_remote=74 moved=3 new=20 unknown=0 local_busy=152 local_busy_preempt=95"
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "wakeup_paths_golden.py: exit ${rc}: ${o}${e}")
expect_match("^0 errors" "${o}" "wakeup_paths_golden.py: ${o}")
file(READ ${WORK}/r.json j)
# each path's own latency (the measured side of the trace, exact): the text table's measured
# columns and the JSON's wakeup_paths.all.latency_us (samples = the golden counts)
string(JSON n GET "${j}" measured wakeup_paths all latency_us queued_local samples)
string(JSON p50 GET "${j}" measured wakeup_paths all latency_us queued_local p50)
string(JSON p99 GET "${j}" measured wakeup_paths all latency_us queued_local p99)
expect("n EQUAL 51 AND p50 GREATER 120.0635 AND p50 LESS 120.0645 AND p99 GREATER 3134.9475 AND p99 LESS 3134.9485"
       "JSON queued_local latency: ${n} ${p50} ${p99}")
string(JSON n GET "${j}" measured wakeup_paths all latency_us preempt_local samples)
string(JSON p50 GET "${j}" measured wakeup_paths all latency_us preempt_local p50)
expect("n EQUAL 95 AND p50 GREATER 3.9595 AND p50 LESS 3.9605" "JSON preempt_local latency: ${n} ${p50}")
string(JSON n GET "${j}" variants base wakeup_paths all latency_us idle samples)
string(JSON pn GET "${j}" variants base wakeup_paths all idle)
expect("n EQUAL pn" "JSON predicted idle latency samples ${n}, count ${pn}")
# and the /pipe cgroup's (the validation group): 13 queued_local samples
string(JSON nc LENGTH "${j}" measured wakeup_paths by_cgroup)
set(n -1)
math(EXPR last "${nc} - 1")
foreach(i RANGE ${last})
  string(JSON k MEMBER "${j}" measured wakeup_paths by_cgroup ${i})
  if(k MATCHES "/pipe$")
    string(JSON n GET "${j}" measured wakeup_paths by_cgroup ${k} latency_us queued_local samples)
    string(JSON p50 GET "${j}" measured wakeup_paths by_cgroup ${k} latency_us queued_local p50)
  endif()
endforeach()
expect("n EQUAL 13 AND p50 GREATER 1241.0875 AND p50 LESS 1241.0885"
       "JSON /pipe queued_local latency: ${n} ${p50}")
execute_process(COMMAND ${SCHEDREPLAY} replay ${t}
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay: exit ${rc}: ${e}")
expect_match("\nWakeup paths, all: latency [^\n]*\n  path +measured +p50 +p95 +p99 +base +p50 +p95 +p99\n"
             "${o}" "replay: no path latency table: ${o}")
expect_match("\n  idle +3 +29\\.9 +41\\.3 +41\\.3 +[0-9]" "${o}" "replay: idle latency: ${o}")
expect_match("\n  queued_local +51 +120\\.1 +2613\\.2 +3134\\.9 +[0-9]" "${o}"
             "replay: queued_local latency: ${o}")
expect_match("\n  moved +3 +3006\\.5 +3459\\.4 +3459\\.4 +[0-9]" "${o}" "replay: moved latency: ${o}")
# report's wakeup paths (docs/report.md, "Wakeup paths"): the same machine on the trace, so
# report --json's wakeup_paths.all (counts and each path's latency) and its workload cgroups' are
# replay's measured ones, member for member; and the text table's rows
execute_process(COMMAND ${SCHEDREPLAY} report --json --by cgroup ${t}
                OUTPUT_VARIABLE rj ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "report --json: exit ${rc}: ${e}")
string(JSON ra GET "${rj}" wakeup_paths all)
string(JSON pa GET "${j}" measured wakeup_paths all)
string(JSON same EQUAL "${ra}" "${pa}")
expect("same" "report's wakeup_paths.all ${ra} is not replay's measured ${pa}")
string(JSON n GET "${rj}" wakeup_paths all latency_us queued_local samples)
expect("n EQUAL 51" "report: queued_local latency samples ${n}")
foreach(g pipe socket)
  string(JSON nc LENGTH "${rj}" wakeup_paths by_cgroup)
  set(rg "")
  math(EXPR last "${nc} - 1")
  foreach(i RANGE ${last})
    string(JSON k MEMBER "${rj}" wakeup_paths by_cgroup ${i})
    if(k MATCHES "/${g}$")
      string(JSON rg GET "${rj}" wakeup_paths by_cgroup ${k})
      string(JSON pg GET "${j}" measured wakeup_paths by_cgroup ${k})
    endif()
  endforeach()
  if(rg STREQUAL "")
    message(FATAL_ERROR "report: no /${g} cgroup in wakeup_paths.by_cgroup")
  endif()
  string(JSON same EQUAL "${rg}" "${pg}")
  expect("same" "report's /${g} wakeup paths ${rg} are not replay's measured ${pg}")
endforeach()
execute_process(COMMAND ${SCHEDREPLAY} report ${t}
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "report: exit ${rc}: ${e}")
expect_match("\nWakeup paths [^\n]*\n  path +samples +share +p50 +p95 +p99\n" "${o}"
             "report: no wakeup paths table: ${o}")
expect_match("\n  queued_local +51 +16\\.5% +120\\.1 +2613\\.2 +3134\\.9\n" "${o}"
             "report: queued_local row: ${o}")
expect_match("\n  local busy: preempt +95/152 +62\\.5%\n" "${o}" "report: local busy row: ${o}")
# whatif's table of the same paths: the golden counts above as shares of the 309 samples
# (idle 3, preempt 95 + 16, behind 6 + 41, queued 51 + 74; local preempt 95 of 152), and
# each run's row with its change in points
execute_process(COMMAND ${SCHEDREPLAY} whatif --variant aaron-skip ${t}
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "whatif: exit ${rc}: ${e}")
expect_match("\nwakeup paths, all +idle +preempt +behind current +queued +local preempt\n" "${o}"
             "whatif: no wakeup paths table: ${o}")
expect_match("\nmeasured +1\\.0% +35\\.9% +15\\.2% +40\\.5% +62\\.5%\n" "${o}"
             "whatif: the measured paths are not the golden shares: ${o}")
expect_match("\naaron-skip +[0-9.]+% \\([-+][0-9.]+\\)" "${o}" "whatif: no run row with points: ${o}")
file(REMOVE ${WORK}/s.dump ${WORK}/t.rep)
