# Every shared model option reaches validate's replays (replay/cmd_runs.c's
# run_opt_table[]: validate takes them from the same table as replay and
# whatif since the cli merge, and a wiring that dropped them passed every
# other test): on a directory holding one bundled trace (and its sidecar),
# `validate --json --seeds 1 OPTION` must give other figures than without
# it.  Each option is paired with a trace on which it changes the replay.
# Needs SCHEDREPLAY, DIR (traces/) and WORK (a scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

function(validate_json out dir)
  execute_process(COMMAND ${SCHEDREPLAY} validate --dir ${dir} --seeds 1 --json ${ARGN}
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  # 0 or 1 (a threshold exceeded: the model's business, not this test's)
  expect("rc EQUAL 0 OR rc EQUAL 1" "validate ${ARGN} on ${dir}: exit ${rc}: ${e}")
  expect_match("\"traces\"" "${o}" "validate ${ARGN} on ${dir}: no JSON: ${e}")
  set(${out} "${o}" PARENT_SCOPE)
endfunction()

foreach(case
    "small-hackbench|--no-costs" "small-hackbench|--early-wakes;nosample"
    "small-hackbench|--preempt-costs;all" "small-hackbench|--handoff;sleep"
    "small-hackbench|--profile;6.5" "small-hackbench|--placement;model"
    "small-hackbench|--skip-early-blocks" "small-hackbench|--idle-pull"
    "small-hackbench|--no-repair" "small-nowaking|--stop-at-end"
    "small-nowaking|--no-flush-hold" "small-nowaking|--oneway-no-wait"
    "small-nowaking|--channel-wakes" "small-nowaking|--state-placement"
    "small-chan|--channel-races"
    "small-chan|--channels;strict" "small-hackbench|--idle-residency;on"
    "small-hackbench|--balance-attach;kernel-order" "small-nowaking|--queued-moves;position"
    "small-hackbench|--nohz-pull")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 trace)
  list(SUBLIST parts 1 -1 opt)
  set(d ${WORK}/${trace})
  if(NOT EXISTS ${d}/thresholds.json)
    file(MAKE_DIRECTORY ${d})
    file(COPY ${DIR}/${trace}.dat ${DIR}/thresholds.json DESTINATION ${d})
    if(EXISTS ${DIR}/${trace}.dat.json)
      file(COPY ${DIR}/${trace}.dat.json DESTINATION ${d})
    endif()
  endif()
  if(NOT DEFINED base_${trace})
    validate_json(b ${d})
    set(base_${trace} "${b}")
  endif()
  validate_json(o ${d} ${opt})
  expect("NOT o STREQUAL base_${trace}"
         "validate ${opt} gives the same JSON as without it on ${trace}: the option does not reach the replays")
endforeach()

# --variant (validate's own option): every trace is replayed with the set, the
# JSON names it, and the per-trace figures are the set's, not the base
# model's; "base" is the plain validate, byte for byte.
set(d ${WORK}/small-hackbench)
validate_json(v ${d} --variant vlag-vprot-union)
string(JSON vname ERROR_VARIABLE err GET "${v}" variant)
expect("vname STREQUAL \"vlag-vprot-union\"" "validate --variant: \"variant\" is '${vname}' (${err})")
string(JSON vt GET "${v}" traces)
string(JSON bt GET "${base_small-hackbench}" traces)
expect("NOT vt STREQUAL bt" "validate --variant vlag-vprot-union: the traces' figures are the base model's")
validate_json(vb ${d} --variant base)
expect("vb STREQUAL base_small-hackbench" "validate --variant base differs from validate")

# --first-seed (validate's own): the seeds S..S+N-1, named in the JSON's
# "seeds"; the limits' window (1, 15 seeds) has no such key, so --first-seed 1
# with the default count is the plain validate, byte for byte.
validate_json(fs ${d} --first-seed 7)
string(JSON fs_first ERROR_VARIABLE err GET "${fs}" seeds first)
string(JSON fs_count ERROR_VARIABLE err2 GET "${fs}" seeds count)
expect("fs_first EQUAL 7 AND fs_count EQUAL 1"
       "validate --first-seed 7 --seeds 1: \"seeds\" is ${fs_first}/${fs_count} (${err} ${err2})")
string(JSON ft GET "${fs}" traces)
string(JSON bt GET "${base_small-hackbench}" traces)
expect("NOT ft STREQUAL bt" "validate --first-seed 7: the figures are seed 1's")
execute_process(COMMAND ${SCHEDREPLAY} validate --dir ${d} --first-seed 1 --json
                OUTPUT_VARIABLE f1 RESULT_VARIABLE rc1)
execute_process(COMMAND ${SCHEDREPLAY} validate --dir ${d} --json
                OUTPUT_VARIABLE f0 RESULT_VARIABLE rc0)
expect("f1 STREQUAL f0" "validate --first-seed 1 differs from validate")
