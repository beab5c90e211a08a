# --resched-at traced on the pinned pipe (docs/replay.md, "Mechanical costs", "--resched-at"):
# where the trace shows the waker switched out for its wakee, the waker's traced run to that
# switch is the wakeup's mechanism.  Under `cost` the drawn cost races that run (the waker's
# hand-off WAIT switches it at the traced point too), so the simulated latency is the shorter
# of two draws of one distribution and the local path's tail is lost (p95 1.4 -> 1.1 us, p99
# 1.9 -> 1.2).  Under `traced` the path's predicted p95/p99 follow the measured ones.
# Needs SCHEDREPLAY, DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

# a JSON microsecond figure in nanoseconds (CMake's math is integer only)
function(to_ns us out)
  if(us MATCHES "^([0-9]+)\\.([0-9]*)$")
    set(i "${CMAKE_MATCH_1}")
    string(SUBSTRING "${CMAKE_MATCH_2}000" 0 3 f)
  elseif(us MATCHES "^[0-9]+$")
    set(i "${us}")
    set(f 000)
  else()
    message(FATAL_ERROR "not a latency: ${us}")
  endif()
  math(EXPR ns "${i} * 1000 + 1${f} - 1000")
  set(${out} ${ns} PARENT_SCOPE)
endfunction()

set(t ${DIR}/pipe-pinned.dat)
foreach(mode cost traced)
  replay_run(j --json --resched-at ${mode} ${t})
  foreach(q p95 p99)
    string(JSON m_${q} GET "${j}" measured wakeup_paths all latency_us preempt_local ${q})
    string(JSON ${mode}_${q} GET "${j}" variants base wakeup_paths all latency_us preempt_local ${q})
  endforeach()
endforeach()
# the measured side: the capture's local preemptions, p95 1.40 us, p99 1.88 us
expect("m_p95 GREATER 1.3 AND m_p95 LESS 1.5 AND m_p99 GREATER 1.8 AND m_p99 LESS 2.0"
       "measured preempt_local p95 ${m_p95}, p99 ${m_p99}")
# traced: within 5 % of the measured p95 and p99
foreach(q p95 p99)
  set(lo "${m_${q}}")
  set(v "${traced_${q}}")
  # |v - m| < 0.05 m, in integer nanoseconds
  to_ns("${v}" vi)
  to_ns("${lo}" mi)
  math(EXPR d "${vi} - ${mi}")
  if(d LESS 0)
    math(EXPR d "0 - ${d}")
  endif()
  math(EXPR lim "${mi} / 20")
  expect("d LESS lim" "--resched-at traced: preempt_local ${q} ${v} us, measured ${lo} us")
endforeach()
# cost (the default): the tail the race loses, the p99 under 75 % of the measured
to_ns("${cost_p99}" ci)
to_ns("${m_p99}" mi)
math(EXPR lim "${mi} * 3 / 4")
expect("ci LESS lim" "--resched-at cost: preempt_local p99 ${cost_p99} us, measured ${m_p99} us")
