# A group's CPU bandwidth limit (cpu.cfs_quota_us) is never replayed silently:
# the facts name it with its quota, period, source and whether it is modelled
# (text "bandwidth:" line, JSON facts.bandwidth; the simulation's
# approximations), from a sidecar (small-chan's,
# edited here: its pipe group gets 20 ms per 100 ms) or a --cgroup-map
# "quota" line, which overrides the sidecar (-1: no limit).  A trace without a
# limit prints neither.  A bad quota line is a one-line error.
# Needs SCHEDREPLAY, DIR (the traces) and WORK (a scratch directory).
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)


file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(COPY ${DIR}/small-chan.dat DESTINATION ${WORK})
file(READ ${DIR}/small-chan.dat.json sc)
set(pipe /schedreplay-8032/pipe)
string(JSON ng LENGTH "${sc}" cgroup groups)
math(EXPR last "${ng} - 1")
set(found -1)
foreach(i RANGE ${last})
  string(JSON p GET "${sc}" cgroup groups ${i} path)
  if(p STREQUAL pipe)
    set(found ${i})
  endif()
endforeach()
expect("found GREATER -1" "small-chan.dat.json has no ${pipe} cgroup")
string(JSON sc SET "${sc}" cgroup groups ${found} quota_us 20000)
string(JSON sc SET "${sc}" cgroup groups ${found} period_us 100000)
file(WRITE ${WORK}/small-chan.dat.json "${sc}")

# --- no limit anywhere: nothing said
replay_run(tx ${DIR}/small-chan.dat)
string(FIND "${tx}" "bandwidth:" at)
expect("at EQUAL -1" "small-chan without a quota prints a bandwidth line:\n${tx}")
replay_run(js --json ${DIR}/small-chan.dat)
string(JSON b ERROR_VARIABLE err GET "${js}" facts bandwidth)
expect("NOT err STREQUAL NOTFOUND" "small-chan without a quota has facts.bandwidth: ${b}")

# --- the sidecar's limit
replay_run(tx ${WORK}/small-chan.dat)
expect_match("\nbandwidth: /schedreplay-8032/pipe quota 20000 us per period 100000 us: ${STATUS_RE}  \\[sidecar\\]\n"
             "${tx}" "the sidecar's quota is not in the facts:\n${tx}")
expect_match("\n +1  groups with a CPU bandwidth limit throttled by the model"
             "${tx}" "the sidecar's quota is not in the simulation's approximations:\n${tx}")
replay_run(js --json ${WORK}/small-chan.dat)
string(JSON n LENGTH "${js}" facts bandwidth)
expect("n EQUAL 1" "facts.bandwidth has ${n} entries, expected 1")
foreach(kv "group;${pipe}" "quota_us;20000" "period_us;100000" "source;sidecar" "modelled;${MODELLED}")
  list(GET kv 0 k)
  list(GET kv 1 v)
  string(JSON got GET "${js}" facts bandwidth 0 ${k})
  expect("got STREQUAL v" "facts.bandwidth[0].${k} is '${got}', expected '${v}'")
endforeach()

# --- --no-bandwidth: said in the facts and the approximations
replay_run(tx --no-bandwidth ${WORK}/small-chan.dat)
expect_match("\nbandwidth: /schedreplay-8032/pipe quota 20000 us per period 100000 us: NOT MODELLED \\(--no-bandwidth\\)"
             "${tx}" "--no-bandwidth is not in the facts:\n${tx}")
expect_match("\n +1  groups with a CPU bandwidth limit NOT throttled \\(--no-bandwidth\\)"
             "${tx}" "--no-bandwidth is not in the approximations:\n${tx}")
replay_run(js --json --no-bandwidth ${WORK}/small-chan.dat)
string(JSON got GET "${js}" facts bandwidth 0 modelled)
expect("got STREQUAL OFF" "--no-bandwidth: facts.bandwidth[0].modelled is ${got}")

# --- a --cgroup-map quota line overrides it; -1 removes it
file(WRITE ${WORK}/map "quota ${pipe} 30000 50000\n")
replay_run(js --json --cgroup-map ${WORK}/map ${WORK}/small-chan.dat)
string(JSON q GET "${js}" facts bandwidth 0 quota_us)
string(JSON p GET "${js}" facts bandwidth 0 period_us)
string(JSON s GET "${js}" facts bandwidth 0 source)
expect("q EQUAL 30000 AND p EQUAL 50000 AND s STREQUAL option"
       "--cgroup-map quota: ${q} per ${p} from ${s}, expected 30000 per 50000 from option")
file(WRITE ${WORK}/map "# default period\nquota ${pipe} 25000\n")
replay_run(js --json --cgroup-map ${WORK}/map ${WORK}/small-chan.dat)
string(JSON p GET "${js}" facts bandwidth 0 period_us)
expect("p EQUAL 100000" "--cgroup-map quota without a period: period ${p}, expected 100000")
file(WRITE ${WORK}/map "quota ${pipe} -1\n")
replay_run(tx --cgroup-map ${WORK}/map ${WORK}/small-chan.dat)
string(FIND "${tx}" "bandwidth:" at)
expect("at EQUAL -1" "--cgroup-map 'quota PATH -1' left the sidecar's limit:\n${tx}")

# --- bad quota lines: one-line errors, non-zero exit
foreach(line "quota ${pipe} 5" "quota ${pipe} 20000 10" "quota pipe 20000" "quota ${pipe} 20000 100000 7")
  file(WRITE ${WORK}/map "${line}\n")
  execute_process(COMMAND ${SCHEDREPLAY} replay --cgroup-map ${WORK}/map ${WORK}/small-chan.dat
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  expect("NOT rc EQUAL 0" "'${line}' accepted")
  expect_match("map:1: " "${e}" "'${line}': the error does not name the line: ${e}")
endforeach()

# --- the real trace (traces/bw-hogs.dat: /srbw limited to 20 ms per 100 ms):
# the period grid found in the trace, the model's throttles, and the limited
# group's run-queue wait (the throttled waits) predicted within 25 % at p95
# and p99 with the model, off by more than 90 % without it (--no-bandwidth):
# the evidence that the model, not luck, gives the figure.  The trace is part
# of the repository: its absence is a failure, not a skip.
expect("EXISTS ${DIR}/bw-hogs.dat" "${DIR}/bw-hogs.dat is missing")
replay_run(js --json ${DIR}/bw-hogs.dat)
string(JSON g GET "${js}" facts bandwidth 0 group)
string(JSON ph GET "${js}" facts bandwidth 0 phase_samples)
expect("g STREQUAL /srbw AND ph GREATER 20"
       "bw-hogs: bandwidth fact ${g} with ${ph} phase samples (expected /srbw, > 20)")
foreach(c throttle_cfs_rq unthrottle_cfs_rq throttle_cfs_rq_work sched_cfs_period_timer)
  string(JSON n GET "${js}" variants base counts ${c})
  expect("n GREATER 10" "bw-hogs: ${c} ${n}, expected > 10 (15 periods throttled)")
endforeach()
foreach(nobw "" --no-bandwidth)
  if(nobw STREQUAL "")
    set(j "${js}")
  else()
    replay_run(j --json ${nobw} ${DIR}/bw-hogs.dat)
  endif()
  foreach(p p95 p99)
    string(JSON meas GET "${j}" measured runqueue_wait_us by_cgroup /srbw ${p})
    string(JSON pred GET "${j}" variants base runqueue_wait_us by_cgroup /srbw ${p})
    # (math() takes integers: whole microseconds)
    string(REGEX REPLACE "\\..*" "" measi "${meas}")
    string(REGEX REPLACE "\\..*" "" predi "${pred}")
    math(EXPR lo "${measi} * 75 / 100" OUTPUT_FORMAT DECIMAL)
    math(EXPR hi "${measi} * 125 / 100" OUTPUT_FORMAT DECIMAL)
    if(nobw STREQUAL "")
      expect("predi GREATER_EQUAL lo AND predi LESS_EQUAL hi"
             "bw-hogs /srbw run-queue wait ${p}: predicted ${pred} us, measured ${meas} us (outside 25 %)")
    else()
      math(EXPR tenth "${measi} / 10" OUTPUT_FORMAT DECIMAL)
      expect("predi LESS tenth"
             "bw-hogs --no-bandwidth /srbw run-queue wait ${p}: predicted ${pred} us, measured ${meas} us: unthrottled, expected under a tenth")
    endif()
  endforeach()
endforeach()
