# wl_audit.py (docs/replay.md, "Workload extraction"; docs/validation-log.md, "The extraction,
# task by task"): what the extraction made of each task (wl_tasks) against the trace's own text
# (trace-cmd report -t -l), on the three small hackbench fixtures: every fair task's CPU time
# between the switches the trace shows, its blocks with the task or source that woke each and
# the CPU time before each, the positions of its wakes in its work, its forks - all agree.  Then
# the same with a doctored extraction (one block's waker, one run 100 us longer, one wake moved
# 20 us): each is flagged, exit 1.  Needs PYTHON3, TRACECMD, WL_TASKS, TOOL, DIR, WORK.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

file(MAKE_DIRECTORY ${WORK})
foreach(name small-chan small-hackbench small-nowaking)
  set(t ${DIR}/${name}.dat)
  execute_process(COMMAND ${WL_TASKS} ${t} OUTPUT_FILE ${WORK}/${name}.wl
                  ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "wl_tasks ${name}: exit ${rc}: ${e}")
  execute_process(COMMAND ${TRACECMD} report -t -l -i ${t} OUTPUT_FILE ${WORK}/${name}.rep
                  ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "trace-cmd report ${name}: exit ${rc}: ${e}")
  execute_process(COMMAND ${PYTHON3} ${TOOL} ${WORK}/${name}.rep ${WORK}/${name}.wl
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "wl_audit.py ${name}: exit ${rc}: ${o}${e}")
  expect_match("\n0 tasks flagged" "${o}" "wl_audit.py ${name}: ${o}")
  set(out_${name} "${o}")
endforeach()
# the figures (docs/validation-log.md): every block the same, every exactly known run the same
expect_match("27 fair tasks; CPU time: trace 25.138 ms, extracted 25.138 ms; of it between switches the trace shows, trace 22.413, extracted 22.413 ms .*; 400 blocks, 400 with the same waker and run; 397 WAKE ops"
             "${out_small-chan}" "wl_audit.py small-chan figures: ${out_small-chan}")
expect_match("25 fair tasks; .* trace 274.260, extracted 274.260 ms .*; 2043 blocks, 2043 with the same waker and run; 2025 WAKE ops"
             "${out_small-hackbench}" "wl_audit.py small-hackbench figures: ${out_small-hackbench}")
expect_match("13 fair tasks; .* trace 160.758, extracted 160.758 ms .*; 4625 blocks, 4625 with the same waker and run; 4095 WAKE ops"
             "${out_small-nowaking}" "wl_audit.py small-nowaking figures: ${out_small-nowaking}")

# a doctored extraction: 8043's first block woken by another task, 8041's second block 100 us
# more work before it, 8045's first wake 20 us later in its work
file(STRINGS ${WORK}/small-chan.wl lines)
set(doctored "")
set(done_b "")
set(done_r "")
set(done_w "")
foreach(l IN LISTS lines)
  if(NOT done_b AND l MATCHES "^B 8043 0 ([0-9]+) ([0-9]+) ([0-9]+) (.*)$")
    math(EXPR other "${CMAKE_MATCH_3} + 1")
    set(l "B 8043 0 ${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${other} ${CMAKE_MATCH_4}")
    set(done_b 1)
  elseif(NOT done_r AND l MATCHES "^B 8041 1 (.*) ([0-9]+)$")
    math(EXPR run "${CMAKE_MATCH_2} + 100000")
    set(l "B 8041 1 ${CMAKE_MATCH_1} ${run}")
    set(done_r 1)
  elseif(NOT done_w AND l MATCHES "^W 8045 ([0-9]+) ([0-9]+) ([0-9]+) ([0-9]+) (.*)$")
    math(EXPR pos "${CMAKE_MATCH_4} + 20000")
    set(l "W 8045 ${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${pos} ${CMAKE_MATCH_5}")
    set(done_w 1)
  endif()
  string(APPEND doctored "${l}\n")
endforeach()
expect("done_b AND done_r AND done_w" "small-chan.wl: the lines to doctor were not found")
file(WRITE ${WORK}/doctored.wl "${doctored}")
execute_process(COMMAND ${PYTHON3} ${TOOL} ${WORK}/small-chan.rep ${WORK}/doctored.wl
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
expect("rc EQUAL 1" "wl_audit.py on a doctored extraction: exit ${rc}, not 1: ${o}${e}")
expect_match("\n3 tasks flagged" "${o}" "wl_audit.py doctored: ${o}")
expect_match("8043 hackbench [^\n]*segment 0 [^\n]*waker [0-9]+/[0-9]+" "${o}"
             "wl_audit.py doctored: 8043's waker not flagged: ${o}")
expect_match("8041 hackbench [^\n]*segment 1 [^\n]*run \\+100.0 us" "${o}"
             "wl_audit.py doctored: 8041's run not flagged: ${o}")
expect_match("8045 hackbench [^\n]*position \\+20.0 us" "${o}"
             "wl_audit.py doctored: 8045's wake not flagged: ${o}")
foreach(name small-chan small-hackbench small-nowaking)
  file(REMOVE ${WORK}/${name}.wl ${WORK}/${name}.rep)
endforeach()
file(REMOVE ${WORK}/doctored.wl)
