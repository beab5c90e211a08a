# A group leader's pid names another task_struct after a multithreaded exec (de_thread() gives the
# exec'ing thread the leader's pid and start), so the sidecar check does not compare the leader of
# a multithreaded group (workload_finish.c, sched_snap_check()).  data/mtexec-start.dat and
# data/mtexec-end.dat are whole-machine captures of capture_robust_sweep under ASan (robust49,
# sig/group/SIGHUP/startread and sig/group/SIGTERM/endread: a signal during the snapshot walk,
# 0.4-0.7 s on the loaded machine), beside two processes that exec from a thread in a loop
# (mtexec 32600 and 1984): the exec in the walk or a gap left the leader's pid with the exec'ing
# thread's counters, and replay refused the sidecar ("pid 32600 switched out 4 times in the
# trace, but 2 times between its sched_at_start and sched_at_end"; "pid 1984's
# sum_exec_runtime_ns goes back from 5450462 in sched_at_start to 4964134").  Needs SCHEDREPLAY
# and DATA.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

foreach(c "start;94" "end;66")
  list(GET c 0 name)
  list(GET c 1 want)
  set(t ${DATA}/mtexec-${name}.dat)
  replay_run(j --json --seed 1 ${t})
  string(JSON sc GET "${j}" trace sidecar)
  expect_match("mtexec-${name}\\.dat\\.json$" "${sc}" "mtexec-${name}: the sidecar was not used: ${sc}")
  string(JSON sw GET "${j}" measured counts sched_switch)
  expect("sw EQUAL ${want}" "mtexec-${name}: measured sched_switch ${sw}, expected the trace's ${want}")
endforeach()
