# --start-switch (docs/replay.md, "Lost events"): the simulation's switch out of idle at the
# trace's first timestamp that puts a CPU's first task on it is the start state, not an event
# the trace could hold.  small-lost: CPU 0's is in CPU 0's lost-events window already (counted
# apart under every value); CPU 1's stream begins after 909 lost records (its window is at the
# start, empty: CPU 1 holds the trace's first record), so its start switch-in (swapper/1 ->
# 6819, a restored idle exit there) is compared under count and apart under lost and apart.
# small-pipe has no lost events: only apart takes its start switch-ins out, one per CPU
# busy at the start, and its JSON still has no counts_in_lost_windows.
# Needs SCHEDREPLAY and DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(t ${DIR}/small-lost.dat)
replay_run(c --json --seed 1 --start-switch count ${t})
replay_run(l --json --seed 1 --start-switch lost ${t})
replay_run(a --json --seed 1 --start-switch apart ${t})
foreach(v c l a)
  string(JSON ${v}_sw GET "${${v}}" variants base counts sched_switch)
  string(JSON ${v}_rs GET "${${v}}" variants base counts sched_switch_restored)
  string(JSON ${v}_usw GET "${${v}}" variants base counts_in_lost_windows sched_switch)
  string(JSON ${v}_urs GET "${${v}}" variants base counts_in_lost_windows sched_switch_restored)
endforeach()
expect("c_usw EQUAL 1 AND c_urs EQUAL 0"
       "small-lost count: ${c_usw} switches (${c_urs} restored) apart, expected CPU 0's alone")
expect("l_usw EQUAL 2 AND l_urs EQUAL 1"
       "small-lost lost: ${l_usw} switches (${l_urs} restored) apart, expected 2 (1): CPU 1's start switch-in too")
math(EXPR want "${c_sw} - 1")
math(EXPR want_rs "${c_rs} - 1")
expect("l_sw EQUAL want AND l_rs EQUAL want_rs"
       "small-lost lost: sched_switch ${l_sw} (restored ${l_rs}), expected ${want} (${want_rs})")
expect("a_sw EQUAL l_sw AND a_usw EQUAL l_usw"
       "small-lost apart: sched_switch ${a_sw} (${a_usw} apart), expected lost's ${l_sw} (${l_usw})")
# the simulation itself is the same: every other count and the events written
string(JSON c_ev GET "${c}" variants base simulation events)
string(JSON l_ev GET "${l}" variants base simulation events)
string(JSON c_st GET "${c}" variants base counts sched_stat_runtime)
string(JSON l_st GET "${l}" variants base counts sched_stat_runtime)
expect("c_ev EQUAL l_ev AND c_st EQUAL l_st"
       "small-lost: lost changed the simulation (events ${c_ev} -> ${l_ev}, sched_stat_runtime ${c_st} -> ${l_st})")
replay_run(tx --seed 1 --start-switch lost ${t})
expect_match("\\(base: 24 predicted events in lost-events windows, not compared: sched_switch 2, sched_switch_restored 1, sched_waking 8, sched_wakeup 8, sched_stat_runtime 6\\)"
             "${tx}" "small-lost text under lost: not the count of the events not compared:\n${tx}")

set(t ${DIR}/small-pipe.dat)
replay_run(c --json --seed 1 ${t})
replay_run(l --json --seed 1 --start-switch lost ${t})
replay_run(a --json --seed 1 --start-switch apart ${t})
string(JSON c_sw GET "${c}" variants base counts sched_switch)
string(JSON l_sw GET "${l}" variants base counts sched_switch)
string(JSON a_sw GET "${a}" variants base counts sched_switch)
math(EXPR want "${c_sw} - 1")
expect("l_sw EQUAL c_sw AND a_sw EQUAL want"
       "small-pipe: sched_switch count ${c_sw}, lost ${l_sw}, apart ${a_sw}; expected ${c_sw}, ${c_sw}, ${want} (CPU 0 busy at the start)")
string(JSON k ERROR_VARIABLE kerr GET "${a}" variants base counts_in_lost_windows)
expect("NOT kerr STREQUAL NOTFOUND" "small-pipe apart: counts_in_lost_windows present without lost events")

# forkexec's CPU 0 starts with a traced switch from idle (its first task queued there): that
# switch is in the trace, so apart keeps the simulation's (one CPU busy with a running task)
if(EXISTS ${DIR}/forkexec.dat)
  replay_run(c --json --seed 1 ${DIR}/forkexec.dat)
  replay_run(a --json --seed 1 --start-switch apart ${DIR}/forkexec.dat)
  string(JSON c_sw GET "${c}" variants base counts sched_switch)
  string(JSON a_sw GET "${a}" variants base counts sched_switch)
  math(EXPR want "${c_sw} - 1")
  expect("a_sw EQUAL want"
         "forkexec apart: sched_switch ${a_sw} against ${c_sw}, expected ${want} (one CPU starts with a switch from idle)")
endif()
