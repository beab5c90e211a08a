# expect(COND MSG): fail the CLI test script (cmake -P) with MSG unless the
# if()-condition COND, given as one string, holds.  Included by the scripts
# that drive the schedreplay binary (tests/*/cli_*.cmake).
function(expect cond msg)
  separate_arguments(c UNIX_COMMAND "${cond}")
  if(NOT (${c}))
    message(FATAL_ERROR "${msg}")
  endif()
endfunction()

# expect_match(REGEX TEXT MSG): fail with MSG unless TEXT matches REGEX.
function(expect_match re text msg)
  string(REGEX MATCH "${re}" m "${text}")
  if(m STREQUAL "")
    message(FATAL_ERROR "${msg}")
  endif()
endfunction()

# replay_run(OUT ARGS...): `schedreplay replay ARGS`; its standard output in
# OUT, and the script fails with its standard error unless it exits 0.
# Needs SCHEDREPLAY.
function(replay_run out)
  execute_process(COMMAND ${SCHEDREPLAY} replay ${ARGN}
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "replay ${ARGN}: exit ${rc}: ${e}")
  set(${out} "${o}" PARENT_SCOPE)
endfunction()

# replay_on_off(TRACE OPTION...): the on/off pair of an option's check: `schedreplay replay
# --seed 1 OPTION... TRACE` and the same without OPTION, each with --dump-events
# WORK/{on,off}.dump --dump-wake-records (and --json when OPTION starts with --json); sets
# on / off (their standard output) and d_on / d_off (their dumps) in the caller.  Needs
# SCHEDREPLAY and WORK.
function(replay_on_off t)
  set(opts ${ARGN})
  set(json "")
  list(GET opts 0 first)
  if(first STREQUAL "--json")
    set(json --json)
  endif()
  file(MAKE_DIRECTORY ${WORK})
  replay_run(o --seed 1 ${opts} --dump-events ${WORK}/on.dump --dump-wake-records ${t})
  replay_run(f --seed 1 ${json} --dump-events ${WORK}/off.dump --dump-wake-records ${t})
  file(READ ${WORK}/on.dump d1)
  file(READ ${WORK}/off.dump d0)
  set(on "${o}" PARENT_SCOPE)
  set(off "${f}" PARENT_SCOPE)
  set(d_on "${d1}" PARENT_SCOPE)
  set(d_off "${d0}" PARENT_SCOPE)
endfunction()

# count_matches(OUT REGEX TEXT): how many times REGEX matches TEXT.
function(count_matches out re text)
  string(REGEX MATCHALL "${re}" m "${text}")
  list(LENGTH m n)
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# replay_note(OUT JSON PREFIX): the count of the approximation note of the
# base run in replay --json output JSON whose text starts with PREFIX (0 when
# the run has no such note).
function(replay_note out json prefix)
  set(n 0)
  string(JSON na LENGTH "${json}" variants base simulation approximations)
  math(EXPR last "${na} - 1")
  foreach(i RANGE ${last})
    string(JSON what GET "${json}" variants base simulation approximations ${i} what)
    string(FIND "${what}" "${prefix}" at)
    if(at EQUAL 0)
      string(JSON n GET "${json}" variants base simulation approximations ${i} count)
    endif()
  endforeach()
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# analysis_inputs(TRACE WORK [REP] [DUMP_ARGS...]): the inputs of the analysis
# helpers (tests/replay/wakeup_paths.py, remote_wakes.py): report's latency
# samples of TRACE in WORK/s.samples, with REP set `trace-cmd report -t` of it
# in WORK/t.rep (needs TRACECMD), and two replay dumps, seeds 1 and 2, in
# WORK/s1.dump and WORK/s2.dump, made with DUMP_ARGS (e.g.
# --dump-wake-records).  Needs SCHEDREPLAY.
function(analysis_inputs t work rep)
  file(MAKE_DIRECTORY ${work})
  execute_process(COMMAND ${SCHEDREPLAY} report --samples ${work}/s.samples ${t}
                  OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "report --samples: exit ${rc}: ${e}")
  if(rep)
    execute_process(COMMAND ${TRACECMD} report -t -i ${t} OUTPUT_FILE ${work}/t.rep
                    ERROR_VARIABLE e RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "trace-cmd report: exit ${rc}: ${e}")
  endif()
  foreach(seed 1 2)
    execute_process(COMMAND ${SCHEDREPLAY} replay --seed ${seed}
                            --dump-events ${work}/s${seed}.dump ${ARGN} ${t}
                    OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
    expect("rc EQUAL 0" "replay --seed ${seed}: exit ${rc}: ${e}")
  endforeach()
endfunction()
