# `schedreplay replay` with variants: a composition is one run, --variant is
# repeatable, --all-variants runs every catalog entry (registered, plugin,
# JSON file), and each run's numbers are those of the same run of
# `schedreplay whatif` (one runner).  Needs SCHEDREPLAY, TRACE, PLUGIN,
# BAD_PLUGIN, DATA.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

# every count and the latency percentiles of run NAME agree between two
# outputs (the run objects are taken out first: string(JSON) reparses its
# whole input at every call)
function(same_run a b name what)
  string(JSON ra GET "${a}" variants ${name})
  string(JSON rb GET "${b}" variants ${name})
  string(JSON ca GET "${ra}" counts)
  string(JSON cb GET "${rb}" counts)
  string(JSON n LENGTH "${ca}")
  string(JSON nb LENGTH "${cb}")
  expect("n EQUAL nb" "${what}: ${name} has ${n} vs ${nb} count keys")
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON key MEMBER "${ca}" ${i})
    string(JSON va GET "${ca}" ${key})
    string(JSON vb GET "${cb}" ${key})
    expect("va EQUAL vb" "${what}: ${name} count ${key}: ${va} vs ${vb}")
  endforeach()
  foreach(kind wakeup_latency_us runqueue_wait_us)
    string(JSON la GET "${ra}" ${kind} all)
    string(JSON lb GET "${rb}" ${kind} all)
    foreach(p samples p50 p95 p99 max)
      string(JSON va GET "${la}" ${p})
      string(JSON vb GET "${lb}" ${p})
      expect("va STREQUAL vb" "${what}: ${name} ${kind} ${p}: ${va} vs ${vb}")
    endforeach()
  endforeach()
  foreach(kind wakeup_latency runqueue_wait)
    string(JSON va GET "${ra}" long_waits ${kind} all)
    string(JSON vb GET "${rb}" long_waits ${kind} all)
    expect("va EQUAL vb" "${what}: ${name} long ${kind}: ${va} vs ${vb}")
  endforeach()
endfunction()

# the default is one base run, as before variants existed
execute_process(COMMAND ${SCHEDREPLAY} replay --json ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE j_base ERROR_VARIABLE err)
expect("rc EQUAL 0" "replay --json failed (${rc}): ${err}")
string(JSON n LENGTH "${j_base}" variants)
expect("n EQUAL 1" "replay --json: ${n} runs, expected 1")
string(JSON name MEMBER "${j_base}" variants 0)
expect("name STREQUAL base" "replay --json: the run is '${name}'")
string(JSON nkeys LENGTH "${j_base}" variants base counts)

# a composition is one run with the composed name
execute_process(COMMAND ${SCHEDREPLAY} replay --json --variant aaron-skip,no-tg-ratelimit ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE comp ERROR_VARIABLE err)
expect("rc EQUAL 0" "replay --variant aaron-skip,no-tg-ratelimit failed (${rc}): ${err}")
string(JSON n LENGTH "${comp}" variants)
expect("n EQUAL 1" "composition: ${n} runs, expected 1")
string(JSON name MEMBER "${comp}" variants 0)
expect("name STREQUAL aaron-skip,no-tg-ratelimit" "composition run is '${name}'")
string(JSON ncomp LENGTH "${comp}" variants aaron-skip,no-tg-ratelimit counts)
expect("ncomp EQUAL nkeys" "composition: ${ncomp} count keys, base ${nkeys}")
string(JSON rl GET "${comp}" variants aaron-skip,no-tg-ratelimit counts update_tg_load_avg.ratelimited)
expect("rl EQUAL 0" "no-tg-ratelimit in the composition: ${rl} rate-limited updates")
string(JSON ee GET "${comp}" relative_errors aaron-skip,no-tg-ratelimit counts sched_switch)

# repeated --variant: one run each, a repeat is one run
execute_process(COMMAND ${SCHEDREPLAY} replay --json --threads 2 --variant base
                        --variant cfs-group-tick-only --variant aaron-skip,no-tg-ratelimit
                        --variant cfs-group-tick-only ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE three ERROR_VARIABLE err)
expect("rc EQUAL 0" "replay with three --variant failed (${rc}): ${err}")
string(JSON n LENGTH "${three}" variants)
expect("n EQUAL 3" "three --variant (one repeated): ${n} runs, expected 3")
string(JSON n LENGTH "${three}" relative_errors)
expect("n EQUAL 3" "relative_errors: ${n} entries, expected 3")
same_run("${three}" "${j_base}" base "replay 3 runs vs replay")
same_run("${three}" "${comp}" aaron-skip,no-tg-ratelimit "replay 3 runs vs replay")
string(JSON a GET "${three}" variants base counts update_cfs_group)
string(JSON b GET "${three}" variants cfs-group-tick-only counts update_cfs_group)
expect("b LESS a" "tick-only update_cfs_group ${b} not below base ${a}")

# --all-variants with a plugin and a JSON file: one run per catalog entry,
# each equal to whatif's run of the same name
execute_process(COMMAND ${SCHEDREPLAY} variants --json --plugin ${PLUGIN}
                        --variants-file ${DATA}/good.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE list ERROR_VARIABLE err)
expect("rc EQUAL 0" "variants --json failed (${rc}): ${err}")
string(JSON ncat LENGTH "${list}")
execute_process(COMMAND ${SCHEDREPLAY} replay --json --all-variants --plugin ${PLUGIN}
                        --variants-file ${DATA}/good.json ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE all ERROR_VARIABLE err)
expect("rc EQUAL 0" "replay --all-variants failed (${rc}): ${err}")
execute_process(COMMAND ${SCHEDREPLAY} whatif --json --all-variants --plugin ${PLUGIN}
                        --variants-file ${DATA}/good.json ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE wi ERROR_VARIABLE err)
expect("rc EQUAL 0" "whatif --all-variants failed (${rc}): ${err}")
string(JSON nall LENGTH "${all}" variants)
expect("nall EQUAL ncat" "replay --all-variants: ${nall} runs, the catalog has ${ncat}")
math(EXPR last "${ncat} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${list}" ${i} name)
  string(JSON has ERROR_VARIABLE missing GET "${all}" variants ${name})
  expect("NOT missing" "replay --all-variants lacks '${name}'")
  string(JSON nk LENGTH "${all}" variants ${name} counts)
  expect("nk EQUAL nkeys" "${name}: ${nk} count keys, base has ${nkeys}")
  same_run("${all}" "${wi}" ${name} "replay vs whatif")
endforeach()
string(JSON a GET "${all}" variants example-top-level-skip counts update_cfs_group)
string(JSON b GET "${all}" variants base counts update_cfs_group)
expect("a LESS b" "the plugin variant changed nothing (update_cfs_group ${a} vs base ${b})")

# --all-variants with --variant (docs/variants.md): the catalog's runs, then
# each --variant not among them; a catalog name given again is its one run,
# a composition one more run, the last; whatif alike after its base
execute_process(COMMAND ${SCHEDREPLAY} variants --json
                RESULT_VARIABLE rc OUTPUT_VARIABLE reg ERROR_VARIABLE err)
expect("rc EQUAL 0" "variants --json failed (${rc}): ${err}")
string(JSON nreg LENGTH "${reg}")
math(EXPR want "${nreg} + 1")
execute_process(COMMAND ${SCHEDREPLAY} replay --json --variant aaron-skip --all-variants
                        --variant aaron-skip,no-tg-ratelimit ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE both ERROR_VARIABLE err)
expect("rc EQUAL 0" "replay --all-variants --variant failed (${rc}): ${err}")
string(JSON n LENGTH "${both}" variants)
expect("n EQUAL want" "replay --all-variants --variant: ${n} runs, expected ${want}")
same_run("${both}" "${comp}" aaron-skip,no-tg-ratelimit "--all-variants --variant vs --variant")
execute_process(COMMAND ${SCHEDREPLAY} replay --variant aaron-skip --all-variants
                        --variant aaron-skip,no-tg-ratelimit ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
expect("rc EQUAL 0" "replay text --all-variants --variant failed (${rc}): ${err}")
string(REGEX MATCH "run ${want} = aaron-skip,no-tg-ratelimit\n" last "${text}")
expect("last" "the composition is not the last run (${want}) of the text")
execute_process(COMMAND ${SCHEDREPLAY} whatif --json --all-variants
                        --variant aaron-skip,no-tg-ratelimit ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE wi ERROR_VARIABLE err)
expect("rc EQUAL 0" "whatif --all-variants --variant failed (${rc}): ${err}")
string(JSON n LENGTH "${wi}" variants)
expect("n EQUAL want" "whatif --all-variants --variant: ${n} runs, expected ${want}")

# --sched-feature: profile.settings and --settings give the values the run
# used (they gave the profile's defaults beside the toggles); each run's JSON
# entry names its own toggles (whatif's profile.sched_features is base's only)
execute_process(COMMAND ${SCHEDREPLAY} replay --json --sched-feature NO_RUN_TO_PARITY ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE sf ERROR_VARIABLE err)
expect("rc EQUAL 0" "replay --sched-feature failed (${rc}): ${err}")
string(JSON v GET "${sf}" profile settings RUN_TO_PARITY)
expect("v EQUAL 0" "profile.settings.RUN_TO_PARITY ${v} under NO_RUN_TO_PARITY")
string(JSON v GET "${j_base}" profile settings RUN_TO_PARITY)
expect("v EQUAL 1" "profile.settings.RUN_TO_PARITY ${v} without toggles (6.18: on)")
string(JSON v GET "${sf}" profile sched_features)
expect("v STREQUAL NO_RUN_TO_PARITY" "profile.sched_features '${v}'")
string(JSON v GET "${sf}" variants base sched_features)
expect("v STREQUAL NO_RUN_TO_PARITY" "variants.base.sched_features '${v}'")
string(JSON v ERROR_VARIABLE none GET "${j_base}" variants base sched_features)
expect("none" "a run without toggles has sched_features '${v}'")
execute_process(COMMAND ${SCHEDREPLAY} replay --settings --sched-feature NEXT_BUDDY ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
expect("rc EQUAL 0" "replay --settings --sched-feature failed (${rc}): ${err}")
string(FIND "${text}" "  NEXT_BUDDY                   on   # toggled (profile 6.18: off); " pos)
expect("pos GREATER -1" "--settings does not show NEXT_BUDDY on, toggled: ${text}")
file(WRITE sf-nrtp.json
     "{\"name\": \"nrtp\", \"description\": \"d\", \"sched_features\": [\"NO_RUN_TO_PARITY\"]}")
execute_process(COMMAND ${SCHEDREPLAY} whatif --json --variants-file sf-nrtp.json --variant nrtp
                        --sched-feature NEXT_BUDDY ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE wi ERROR_VARIABLE err)
expect("rc EQUAL 0" "whatif with a toggling variant failed (${rc}): ${err}")
string(JSON v GET "${wi}" variants base sched_features)
expect("v STREQUAL NEXT_BUDDY" "whatif variants.base.sched_features '${v}'")
string(JSON v GET "${wi}" variants nrtp sched_features)
expect("v STREQUAL \"NO_RUN_TO_PARITY NEXT_BUDDY\"" "whatif variants.nrtp.sched_features '${v}'")

# the text report names every run
execute_process(COMMAND ${SCHEDREPLAY} replay --variant aaron-skip --variant aaron-delay ${TRACE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
expect("rc EQUAL 0" "replay text with two runs failed (${rc}): ${err}")
foreach(want aaron-skip aaron-delay)
  string(FIND "${text}" "${want}" pos)
  expect("pos GREATER -1" "text report lacks run ${want}")
endforeach()

# errors: one line, documented exit codes
execute_process(COMMAND ${SCHEDREPLAY} replay --variant aaron-skp ${TRACE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
expect("rc EQUAL 2" "unknown variant: exit ${rc}")
string(FIND "${err}" "unknown variant 'aaron-skp'" pos)
expect("pos GREATER -1" "unknown variant message: ${err}")
execute_process(COMMAND ${SCHEDREPLAY} replay --variant example-top-level-skip ${TRACE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
expect("rc EQUAL 2" "a plugin variant without --plugin: exit ${rc}")
execute_process(COMMAND ${SCHEDREPLAY} replay --plugin ${BAD_PLUGIN} ${TRACE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
expect("rc EQUAL 1" "bad plugin: exit ${rc}")
string(FIND "${err}" "plugin ABI version 3, this schedreplay speaks version 2" pos)
expect("pos GREATER -1" "bad plugin message: ${err}")
execute_process(COMMAND ${SCHEDREPLAY} replay --variants-file ${DATA}/bad_flag.json ${TRACE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
expect("rc EQUAL 1" "bad variants file: exit ${rc}")
execute_process(COMMAND ${SCHEDREPLAY} replay --all-variants --dump-events dump.txt ${TRACE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
expect("rc EQUAL 2" "--dump-events with several runs: exit ${rc}")
execute_process(COMMAND ${SCHEDREPLAY} replay --threads many ${TRACE}
                RESULT_VARIABLE rc ERROR_QUIET OUTPUT_QUIET)
expect("rc EQUAL 2" "bad --threads: exit ${rc}")

# an output that is a loaded plugin or variants file: exit 2 before anything is
# written (before 2 Dec 2026 --dump-events truncated the plugin mapped by
# dlopen(): SIGBUS; a variants file was overwritten with the dump).  Copies:
# a failure here must not clobber the build's plugin or the test data.
file(COPY_FILE ${PLUGIN} ${CMAKE_CURRENT_BINARY_DIR}/clobber-plugin.so)
file(COPY_FILE ${DATA}/good.json ${CMAKE_CURRENT_BINARY_DIR}/clobber-variants.json)
foreach(out clobber-plugin.so clobber-variants.json)
  file(SIZE ${out} size0)
  foreach(cmd "replay;--dump-events" "whatif;--svg")
    list(GET cmd 0 sub)
    list(GET cmd 1 opt)
    execute_process(COMMAND ${SCHEDREPLAY} ${sub} --plugin clobber-plugin.so
                            --variants-file clobber-variants.json
                            --variant example-top-level-skip ${opt} ${out} ${TRACE}
                    RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
    expect("rc EQUAL 2" "${sub} ${opt} ${out} (a loaded input): exit ${rc}: ${err}")
    string(FIND "${err}" "${opt} ${out} is an input file; it would be overwritten" pos)
    expect("pos GREATER -1" "${sub} ${opt} ${out}: message: ${err}")
    file(SIZE ${out} size)
    expect("size EQUAL size0" "${sub} ${opt} ${out}: the input changed size (${size0} -> ${size})")
  endforeach()
endforeach()
