# switch_order.py (docs/replay.md, the analysis helpers' table) on small-chan: the capture
# against itself (every switch agrees), against a replay dump (one line per CPU, the agreeing
# prefix no longer than either list) and against a copy without its fifth task-to-task switch on
# CPU 0 (the first difference is #4 there, CPU 1 all agree); and --w-as-s against a copy whose
# first sleeping task-to-task switch on CPU 0 leaves with W (a difference without it, none with
# it).  Needs SCHEDREPLAY, PYTHON3,
# TRACECMD, TOOL, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
set(t ${DIR}/small-chan.dat)
execute_process(COMMAND ${TRACECMD} report -t ${t} OUTPUT_FILE ${WORK}/t.rep
                ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "trace-cmd report: exit ${rc}: ${e}")
execute_process(COMMAND ${SCHEDREPLAY} replay --seed 1 --dump-events ${WORK}/s1.dump ${t}
                OUTPUT_QUIET ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "replay: exit ${rc}: ${e}")

# the fifth switch between two tasks on CPU 0 dropped
file(STRINGS ${WORK}/t.rep lines)
set(out "")
set(n 0)
foreach(l IN LISTS lines)
  if(l MATCHES "\\[000\\] [0-9.]+: sched_switch: .*:[1-9][0-9]* \\[[0-9]+\\] [A-Z+]+ ==> .*:[1-9][0-9]* \\[")
    math(EXPR n "${n} + 1")
    if(n EQUAL 5)
      continue()
    endif()
  endif()
  string(APPEND out "${l}\n")
endforeach()
expect("n GREATER 10" "small-chan: ${n} task-to-task switches on CPU 0")
file(WRITE ${WORK}/cut.rep "${out}")

# the first task-to-task switch on CPU 0 whose prev state is S written as W
set(wout "")
set(k 0)
set(wat -1)
foreach(l IN LISTS lines)
  if(l MATCHES "\\[000\\] [0-9.]+: sched_switch: .*:[1-9][0-9]* \\[[0-9]+\\] ([A-Z+]+) ==> .*:[1-9][0-9]* \\[")
    if(CMAKE_MATCH_1 STREQUAL "S" AND wat EQUAL -1)
      set(wat ${k})
      string(REPLACE "] S ==> " "] W ==> " l "${l}")
    endif()
    math(EXPR k "${k} + 1")
  endif()
  string(APPEND wout "${l}\n")
endforeach()
expect("wat GREATER -1" "small-chan: no task-to-task switch on CPU 0 with state S")
file(WRITE ${WORK}/w.rep "${wout}")
foreach(opt "" "--w-as-s")
  execute_process(COMMAND ${PYTHON3} ${TOOL} ${opt} --cpu 0 ${WORK}/t.rep ${WORK}/w.rep
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "switch_order.py ${opt}: exit ${rc}: ${e}")
  if(opt STREQUAL "")
    expect_match("cpu0: ${wat} of [0-9]+/[0-9]+ switches agree, first difference #${wat}\n" "${o}"
                 "W copy without --w-as-s: ${o}")
  else()
    expect_match("cpu0: all [0-9]+ switches agree\n" "${o}" "W copy with --w-as-s: ${o}")
  endif()
endforeach()

execute_process(COMMAND ${PYTHON3} ${TOOL} ${WORK}/t.rep ${WORK}/t.rep ${WORK}/cut.rep
                        ${WORK}/s1.dump
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 0" "switch_order.py: exit ${rc}: ${e}")
string(REPLACE "\n" ";" ol "${o}")
set(section "")
set(seen 0)
foreach(l IN LISTS ol)
  if(l MATCHES "^(.*):$")
    set(section ${CMAKE_MATCH_1})
  elseif(l MATCHES "^  cpu([01]): (.*)$")
    set(cpu ${CMAKE_MATCH_1})
    set(r "${CMAKE_MATCH_2}")
    if(section STREQUAL "${WORK}/t.rep")
      expect_match("^all [0-9]+ switches agree$" "${r}" "self, cpu${cpu}: ${r}")
    elseif(section STREQUAL "${WORK}/cut.rep")
      if(cpu EQUAL 0)
        expect_match("^4 of [0-9]+/[0-9]+ switches agree, first difference #4$" "${r}"
                     "cut, cpu0: ${r}")
      else()
        expect_match("^all [0-9]+ switches agree$" "${r}" "cut, cpu1: ${r}")
      endif()
    else()
      if(r MATCHES "^([0-9]+) of ([0-9]+)/([0-9]+) switches agree, first difference #([0-9]+)$")
        expect("CMAKE_MATCH_1 EQUAL CMAKE_MATCH_4" "dump, cpu${cpu}: ${r}")
        expect("NOT CMAKE_MATCH_1 GREATER CMAKE_MATCH_2 AND NOT CMAKE_MATCH_1 GREATER CMAKE_MATCH_3"
               "dump, cpu${cpu}: ${r}")
      else()
        expect_match("^all [0-9]+ switches agree$" "${r}" "dump, cpu${cpu}: ${r}")
      endif()
    endif()
    math(EXPR seen "${seen} + 1")
  endif()
endforeach()
expect("seen EQUAL 6" "switch_order.py printed ${seen} CPU lines, want 6: ${o}")
file(REMOVE ${WORK}/s1.dump)
