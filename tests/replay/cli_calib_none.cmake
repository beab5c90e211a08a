# A mechanical-cost path with no sample of its own and none of 20 or more to
# borrow costs nothing, and the text's calibration table says so on its row
# (docs/replay.md, "Mechanical costs"): small-lost has no local preemption and
# too few remote and idle samples to borrow; its idle row has samples and no
# such remark.  Needs SCHEDREPLAY, DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

replay_run(t --seed 1 ${DIR}/small-lost.dat)
expect_match("\n  preempt_local +0   \\(no samples, none to borrow: no cost, 0 us\\)\n" "${t}"
             "small-lost: preempt_local's row does not say it costs nothing")
string(REGEX MATCH "\n  idle +[1-9][^\n]*" idle "${t}")
string(FIND "${idle}" "none to borrow" at)
string(LENGTH "${idle}" len)
expect("at EQUAL -1 AND len GREATER 0" "small-lost: the idle row '${idle}'")
replay_run(j --json --seed 1 ${DIR}/small-lost.dat)
string(JSON n GET "${j}" calibration preempt_local samples)
string(JSON b TYPE "${j}" calibration preempt_local borrowed_from)
expect("n EQUAL 0 AND b STREQUAL NULL"
       "small-lost: JSON preempt_local samples ${n}, borrowed_from ${b}")
