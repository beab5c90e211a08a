# replay's function counts (docs/replay.md, "Function counts"): a sidecar with
# the function tracer's counts is compared like with like, each function's
# measured entries against the model's entries of the same function
# (update_cfs_group.entries: task entities too), in the text and in the JSON's
# relative_errors.RUN.function_counts; a function not traceable (null) gives
# no comparison; the renamed functions are named as the profile's kernel
# names them and found under either name in the sidecar.  The function tracer
# is locked on our machines: bw-hogs.dat is copied with its sidecar edited.
# Needs SCHEDREPLAY and DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t "${CMAKE_CURRENT_BINARY_DIR}/funcs.dat")
configure_file(${DIR}/bw-hogs.dat ${t} COPYONLY)
file(READ ${DIR}/bw-hogs.dat.json sc)
string(JSON sc SET "${sc}" trace file "\"funcs.dat\"")
file(WRITE ${t}.json "${sc}")

# --- the bundled sidecar (tracer unavailable): no function table, no key
replay_run(txt ${t})
expect("NOT txt MATCHES \"\nFunction counts \"" "function table without function counts")
replay_run(js --json ${t})
string(JSON fc ERROR_VARIABLE err GET "${js}" relative_errors base function_counts)
expect("NOT err STREQUAL NOTFOUND" "relative_errors.base.function_counts without function counts")

# "Predicted only (model counters)": the three model-defined counters, each
# with its function entries (the JSON's NAME.entries) on a row under it, and
# the line saying which is which - also without the sidecar's function counts
foreach(k update_cfs_group update_tg_load_avg propagate_entity_load_avg)
  string(JSON pc GET "${js}" variants base counts ${k})
  string(JSON pe GET "${js}" variants base counts ${k}.entries)
  expect_match("\n  ${k} +${pc} *\n    \\.entries +${pe} *\n" "${txt}"
               "Predicted only: no ${k} ${pc} with .entries ${pe} under it")
endforeach()
expect_match("\n  update_curr +[0-9]+ *\n  update_load_avg +[0-9]+ *\n  update_cfs_group " "${txt}"
             "Predicted only: a .entries row under a counter that has none")
expect_match("\n  \\(update_cfs_group, update_tg_load_avg, propagate_entity_load_avg: the calls that do work[^\n]*\\.entries: every entry of the function, as a function tracer counts it[^\n]*\\)\n"
             "${txt}" "Predicted only: no line saying what .entries counts")

# the predicted entries, and measured counts twice as many: -50.0 % each
set(keys update_curr update_load_avg update_cfs_group reweight_entity
    update_blocked_averages newidle_balance)
set(ctrs update_curr update_load_avg update_cfs_group.entries reweight_entity
    update_blocked_averages newidle_balance)
set(counts "")
foreach(k c IN ZIP_LISTS keys ctrs)
  string(JSON p GET "${js}" variants base counts ${c})
  set(p_${k} ${p})
  math(EXPR m "2 * ${p}")
  set(m_${k} ${m})
  # the sidecar keyed by the kernel's symbol for newidle_balance (either name is found)
  set(sk ${k})
  if(k STREQUAL "newidle_balance")
    set(sk sched_balance_newidle)
  endif()
  string(APPEND counts "\"${sk}\": ${m}, ")
endforeach()
string(JSON pg GET "${js}" variants base counts update_cfs_group)
expect("pg LESS p_update_cfs_group"
       "update_cfs_group.entries (${p_update_cfs_group}) not above the group entities' ${pg}")
string(JSON sc SET "${sc}" function_counts "{\"available\": true, \"method\": \"test\",
  \"instance\": \"schedreplay-1-fn\", \"counts\": {${counts}\"update_tg_load_avg\": null},
  \"symbols\": {}, \"unmatched_records\": 0, \"lost_events\": 0}")
file(WRITE ${t}.json "${sc}")

# --- text: a row per traceable function, the 6.18 profile's names
replay_run(txt ${t})
expect_match("\nFunction counts +measured +base +error\n" "${txt}" "no function table header")
foreach(k update_curr update_load_avg update_cfs_group reweight_entity)
  expect_match("\n  ${k} +${m_${k}} +${p_${k}} +-50\\.0%\n" "${txt}"
               "no row ${k} ${m_${k}} ${p_${k}} -50.0%")
endforeach()
expect_match("\n  sched_balance_update_blocked_averages\n +${m_update_blocked_averages} +${p_update_blocked_averages} +-50\\.0%\n"
             "${txt}" "no row sched_balance_update_blocked_averages (its own line)")
expect_match("\n  sched_balance_newidle +${m_newidle_balance} +${p_newidle_balance} +-50\\.0%\n"
             "${txt}" "no row sched_balance_newidle from the sidecar's sched_balance_newidle")
expect("NOT txt MATCHES \"\n  update_tg_load_avg +[0-9]+ +[0-9]+ +[-+]\""
       "a not traceable function has a comparison row")
expect_match("\\(not traceable on the traced kernel \\(inlined\\): update_tg_load_avg: no measured count, not compared\\)"
             "${txt}" "no not-traceable line")

# --- JSON
replay_run(js --json ${t})
foreach(k IN LISTS keys)
  string(JSON e GET "${js}" relative_errors base function_counts ${k} error)
  expect("e EQUAL -0.5" "relative_errors.base.function_counts.${k}.error ${e}, not -0.5")
  string(JSON m GET "${js}" relative_errors base function_counts ${k} measured)
  expect("m EQUAL m_${k}" "function_counts.${k}.measured ${m}, not ${m_${k}}")
  string(JSON p GET "${js}" relative_errors base function_counts ${k} predicted)
  expect("p EQUAL p_${k}" "function_counts.${k}.predicted ${p}, not ${p_${k}}")
endforeach()
string(JSON f GET "${js}" relative_errors base function_counts newidle_balance function)
expect("f STREQUAL sched_balance_newidle" "newidle_balance's function ${f} on 6.18")
string(JSON pc GET "${js}" relative_errors base function_counts update_cfs_group predicted_counter)
expect("pc STREQUAL update_cfs_group.entries" "update_cfs_group compared with ${pc}")
string(JSON ty TYPE "${js}" relative_errors base function_counts update_tg_load_avg error)
expect("ty STREQUAL NULL" "update_tg_load_avg (not traceable): error ${ty}, not null")
string(JSON ty TYPE "${js}" relative_errors base function_counts update_tg_load_avg measured)
expect("ty STREQUAL NULL" "update_tg_load_avg (not traceable): measured ${ty}, not null")
string(JSON v ERROR_VARIABLE err GET "${js}" measured counts update_tg_load_avg)
expect("NOT err STREQUAL NOTFOUND" "measured.counts has a not traceable function")

# --- a pre-6.10 profile names them newidle_balance / update_blocked_averages
replay_run(txt --profile 6.1 ${t})
expect_match("\n  newidle_balance +${m_newidle_balance} +[0-9]+ +[-+][0-9.]+%\n" "${txt}"
             "6.1 profile: no row newidle_balance")
expect_match("\n  update_blocked_averages +${m_update_blocked_averages} +[0-9]+ " "${txt}"
             "6.1 profile: no row update_blocked_averages")
file(REMOVE ${t} ${t}.json)
