# A hand-off waiter's reply (docs/replay.md, "Hand-offs"): a waker asleep at its hand-off WAIT
# is woken by its wakee reply_tail() before the wakee's BLOCK - the trace's sync tail, never
# less than the __schedule() clock lead (the kernel's reply is a try_to_wake_up() in the
# wakee's write(), its sleep a later __schedule() in its read()).  The reply's wakeup, a local
# wakeup whose waker sleeps right after it, is a behind_current_local sample of that length.
# Before 3 Dec 2026 the HEV_OP_DONE armed at the reply point dropped the tail, so the reply came
# at the BLOCK's switch and the waiter was switched in at the instant it was woken: 0 us
# samples (pipe-pinned: ~90 per run, the path's p50 1.1 us; hackbench-chan, whose sync tail
# has under 20 samples and read 0: ~96 per run, the path's p50 0.0 us).
# Needs SCHEDREPLAY, DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

# trace, the facts that make its reply tail, the path's lowest acceptable p50 (us)
foreach(c "pipe-pinned;sync_tail_ns;2.5" "hackbench-chan;switch_lead_ns;1.0")
  list(GET c 0 name)
  list(GET c 1 fact)
  list(GET c 2 lo)
  replay_run(j --json ${DIR}/${name}.dat)
  string(JSON tail GET "${j}" facts timing sync_tail_ns)
  string(JSON lead GET "${j}" facts timing switch_lead_ns)
  # pipe-pinned: a measured sync tail (~3.0 us); hackbench-chan: none (under 20 samples)
  if(fact STREQUAL "sync_tail_ns")
    expect("tail GREATER 2000" "${name}: sync_tail_ns ${tail}")
  else()
    expect("tail EQUAL 0 AND lead GREATER 1000" "${name}: sync_tail_ns ${tail}, switch_lead_ns ${lead}")
  endif()
  string(JSON n GET "${j}" variants base wakeup_paths all latency_us behind_current_local samples)
  string(JSON p50 GET "${j}" variants base wakeup_paths all latency_us behind_current_local p50)
  expect("n GREATER 20" "${name}: ${n} behind_current_local samples")
  expect("p50 GREATER ${lo}" "${name}: behind_current_local p50 ${p50} us (0 us hand-off replies?)")
endforeach()
