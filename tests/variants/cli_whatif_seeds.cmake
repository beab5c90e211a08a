# `schedreplay whatif --seeds N` from the command line, on make-probe.dat:
# --seeds 1 prints what no --seeds prints (text and JSON), --threads 1 and 4
# give the same report with --seeds 3 (all but the wall-time line and the
# JSON's wall_seconds and threads), the 3-seed text carries the legend and
# the marks, and bad values exit 2 with one line.  Needs SCHEDREPLAY, TRACE.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(VARIANTS --variant tg-ratelimit --variant lazy-blocked-update)

# whatif(OUT ARGS...): `schedreplay whatif ARGS` must exit 0; its output in
# OUT without what the clock and the thread count decide.
function(whatif out)
  execute_process(COMMAND ${SCHEDREPLAY} whatif ${ARGN}
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("rc EQUAL 0" "whatif ${ARGN}: exit ${rc}: ${e}")
  if(o MATCHES "^{")
    string(JSON o REMOVE "${o}" whatif wall_seconds)
    string(JSON o REMOVE "${o}" whatif threads)
  else()
    string(REGEX REPLACE "\n  [^\n]* threads: [^\n]* s wall, [^\n]*\n" "\n" o "${o}")
  endif()
  set(${out} "${o}" PARENT_SCOPE)
endfunction()

whatif(t_default ${VARIANTS} ${TRACE})
whatif(t_one --seeds 1 ${VARIANTS} ${TRACE})
expect("t_default STREQUAL t_one" "--seeds 1 changes the text report")
string(FIND "${t_default}" "seeds" pos)
expect("pos EQUAL -1" "the one-seed text mentions seeds")
whatif(j_default --json ${VARIANTS} ${TRACE})
whatif(j_one --json --seeds 1 ${VARIANTS} ${TRACE})
expect("j_default STREQUAL j_one" "--seeds 1 changes the JSON report")

whatif(t1 --seeds 3 --threads 1 ${VARIANTS} ${TRACE})
whatif(t4 --seeds 3 --threads 4 ${VARIANTS} ${TRACE})
expect("t1 STREQUAL t4" "--seeds 3: the text differs between 1 and 4 threads")
whatif(j1 --json --seeds 3 --threads 1 ${VARIANTS} ${TRACE})
whatif(j4 --json --seeds 3 --threads 4 ${VARIANTS} ${TRACE})
expect("j1 STREQUAL j4" "--seeds 3: the JSON differs between 1 and 4 threads")
expect("NOT t1 STREQUAL t_one" "--seeds 3 prints the one-seed report")

string(FIND "${t1}" "every figure: the median over model seeds 1..3" pos)
expect("pos GREATER -1" "no seeds legend in: ${t1}")
# lazy-blocked-update's update_blocked_averages fall is outside base's seed range
expect_match("\nlazy-blocked-update +[^\n]* 437 \\(-34\\.3%\\) " "${t1}"
             "lazy-blocked-update's update_blocked_averages: not '437 (-34.3%)' unmarked")
expect_match("\ntg-ratelimit +[^\n]* 665 \\(\\+0\\.0%\\)~" "${t1}"
             "tg-ratelimit's update_blocked_averages: not '665 (+0.0%)~'")
# --seed moves the seeds
whatif(t5 --seeds 2 --seed 5 ${VARIANTS} ${TRACE})
string(FIND "${t5}" "model seeds 5..6 (the lower middle one)" pos)
expect("pos GREATER -1" "--seed 5 --seeds 2: no 'seeds 5..6' legend")
string(JSON first GET "${j1}" whatif seeds first)
string(JSON count GET "${j1}" whatif seeds count)
expect("first EQUAL 1 AND count EQUAL 3" "whatif.seeds: first ${first}, count ${count}")
string(JSON within GET "${j1}" variants lazy-blocked-update change_within_seed_range counts
       update_blocked_averages)
expect("NOT within" "lazy-blocked-update's update_blocked_averages within base's seeds")

foreach(bad 0 16 -1 x 3x "")
  execute_process(COMMAND ${SCHEDREPLAY} whatif --seeds "${bad}" ${TRACE}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  expect("rc EQUAL 2" "--seeds '${bad}': exit ${rc}")
  # one line, ending with where to look (the see-line was a second line)
  expect_match("^schedreplay whatif: --seeds takes 1\\.\\.15, not '${bad}' \\(see 'schedreplay whatif --help'\\)\n$" "${e}"
               "--seeds '${bad}': message ${e}")
  string(LENGTH "${o}" len)
  expect("len EQUAL 0" "--seeds '${bad}' printed a report")
endforeach()
