# `schedreplay variants`: the JSON list (every object has name and description;
# plugin and JSON-file variants are marked as such), the text form, and the
# errors a user sees.  Run with cmake -P; needs SCHEDREPLAY, PLUGIN,
# BAD_PLUGIN, DATA.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

execute_process(COMMAND ${SCHEDREPLAY} variants --json --plugin ${PLUGIN}
                        --variants-file ${DATA}/good.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("rc EQUAL 0" "variants --json failed (${rc}): ${err}")
string(JSON n LENGTH "${out}")
expect("n GREATER_EQUAL 16" "expected >= 12 registered + 2 plugin + 2 JSON variants, got ${n}")
string(JSON first GET "${out}" 0 name)
expect("first STREQUAL base" "first variant is '${first}', not base")
math(EXPR last "${n} - 1")
set(names "")
foreach(i RANGE ${last})
  string(JSON name GET "${out}" ${i} name)
  string(JSON desc GET "${out}" ${i} description)
  string(LENGTH "${desc}" dlen)
  expect("dlen GREATER 0" "variant ${name} has an empty description")
  string(JSON src GET "${out}" ${i} source)
  list(APPEND names ${name})
  if(name STREQUAL "example-top-level-skip")
    string(JSON hook GET "${out}" ${i} hook)
    expect("src STREQUAL plugin" "example-top-level-skip: source ${src}")
    expect("hook" "example-top-level-skip: hook is ${hook}")
  endif()
  if(name STREQUAL "json-skip-dequeue-2ms")
    string(JSON flag GET "${out}" ${i} flags 0)
    string(JSON rl GET "${out}" ${i} tg_ratelimit_ns)
    expect("src STREQUAL json" "json-skip-dequeue-2ms: source ${src}")
    expect("flag STREQUAL SKIP_CG_DEQUEUE_ENTITY" "json-skip-dequeue-2ms: flag ${flag}")
    expect("rl EQUAL 2000000" "json-skip-dequeue-2ms: tg_ratelimit_ns ${rl}")
  endif()
endforeach()
foreach(want base tg-ratelimit no-tg-ratelimit aaron-node aaron-delay aaron-skip aaron-series
        cfs-group-no-dequeue cfs-group-tick-only lazy-blocked-update no-decay-first-enqueue
        update-curr-before-place vlag-vprot-union example-top-level-skip example-ratelimit-4ms
        json-skip-dequeue-2ms json-tick-only-nodes)
  list(FIND names ${want} found)
  expect("found GREATER -1" "variant ${want} missing from variants --json")
endforeach()

execute_process(COMMAND ${SCHEDREPLAY} variants RESULT_VARIABLE rc OUTPUT_VARIABLE out)
expect("rc EQUAL 0" "variants failed")
string(FIND "${out}" "cfs-group-tick-only\n" pos)
expect("pos GREATER -1" "text listing lacks cfs-group-tick-only")

execute_process(COMMAND ${SCHEDREPLAY} variants --plugin ${BAD_PLUGIN}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("rc EQUAL 1" "a bad plugin must exit 1, got ${rc}")
string(FIND "${err}" "plugin ABI version 3, this schedreplay speaks version 2" pos)
expect("pos GREATER -1" "bad plugin message: ${err}")

execute_process(COMMAND ${SCHEDREPLAY} variants --variants-file ${DATA}/bad_flag.json
                RESULT_VARIABLE rc ERROR_VARIABLE err)
expect("rc EQUAL 1" "a bad JSON file must exit 1, got ${rc}")
string(FIND "${err}" "SKIP_CG_EVERYWHERE" pos)
expect("pos GREATER -1" "bad JSON message: ${err}")

execute_process(COMMAND ${SCHEDREPLAY} variants --no-such-option RESULT_VARIABLE rc
                ERROR_QUIET)
expect("rc EQUAL 2" "an unknown option must exit 2, got ${rc}")

# --sched-features: the toggleable features of profile_table.h with each
# profile's default ('-': not in that kernel's features.h); model switches absent
execute_process(COMMAND ${SCHEDREPLAY} variants --sched-features
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
expect("rc EQUAL 0" "variants --sched-features failed (${rc}): ${err}")
string(FIND "${out}" "RUN_TO_PARITY            -     -     on    on\n" pos)
expect("pos GREATER_EQUAL 0" "no RUN_TO_PARITY line with - - on on: ${out}")
string(FIND "${out}" "NEXT_BUDDY               off   off   off   off\n" pos)
expect("pos GREATER_EQUAL 0" "no NEXT_BUDDY line with off x4: ${out}")
string(FIND "${out}" "START_DEBIT              on    on    -     -\n" pos)
expect("pos GREATER_EQUAL 0" "no START_DEBIT line with on on - -: ${out}")
string(FIND "${out}" "PROTECT_VPROT" pos)
expect("pos EQUAL -1" "model switch PROTECT_VPROT listed as toggleable: ${out}")
