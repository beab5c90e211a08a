# `schedreplay replay`'s run-queue wait output.
# JSON: every measured group's relative error has "samples", -1.0 where the
# model has none of that group's samples (small-pipe: the model never preempts
# perf), for the run-queue wait and the wakeup latency alike.
# Text: that group's error row says -100.0 % for the samples; a label longer
# than the 28-character group column (forkexec's cgroup path) and a run name
# longer than its 14-character column (two compositions that would both read
# "aaron-skip,no-"/"aaron-skip,tg-" cut) go on a line of their own, whole, in
# the run-queue wait section, and so does a name longer than the wakeup
# latency section's 22-character label column.
# Needs SCHEDREPLAY and DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)


# --- JSON: samples always there, -1.0 where nothing is predicted
replay_run(js --json ${DIR}/small-pipe.dat)
set(none 0)
foreach(kind runqueue_wait_us wakeup_latency_us)
  foreach(by by_comm by_cgroup)
    string(JSON groups GET "${js}" relative_errors base ${kind} ${by})
    string(JSON ng LENGTH "${groups}")
    math(EXPR last "${ng} - 1")
    foreach(i RANGE ${last})
      if(ng EQUAL 0)
        break()
      endif()
      string(JSON g MEMBER "${groups}" ${i})
      string(JSON s ERROR_VARIABLE err GET "${groups}" "${g}" samples)
      expect("err STREQUAL NOTFOUND" "relative_errors.base.${kind}.${by}.${g}: no samples (${err})")
      string(JSON p ERROR_VARIABLE perr GET "${js}" variants base ${kind} ${by} "${g}")
      if(NOT perr STREQUAL NOTFOUND)
        # no predicted group: the model has none of its samples
        expect("s EQUAL -1" "relative_errors.base.${kind}.${by}.${g}.samples is ${s}, expected -1.0 (nothing predicted)")
        math(EXPR none "${none} + 1")
      elseif(s STREQUAL "")
        message(FATAL_ERROR "relative_errors.base.${kind}.${by}.${g}.samples is empty")
      endif()
    endforeach()
  endforeach()
endforeach()
string(JSON s GET "${js}" relative_errors base runqueue_wait_us by_comm perf samples)
expect("s EQUAL -1" "small-pipe: perf's run-queue wait samples error ${s}, expected -1.0 (if the model now preempts perf, pick a group it does not)")
expect("none GREATER 0" "small-pipe: no measured group without predicted samples")

# --- text: the error row of a group the model never preempts
replay_run(tx ${DIR}/small-pipe.dat)
expect_match("  comm=perf +measured +1 [^\n]*\n +base +0 +- +- +- +- +0 +0\n +error +-100\\.0% +- +- +- +-\n"
             "${tx}"
             "small-pipe text: comm=perf's block has no -100.0% error row:\n${tx}")

# --- text: long labels and run names whole, on lines of their own
if(EXISTS ${DIR}/forkexec.dat)
  replay_run(tx --variant aaron-skip,no-tg-ratelimit --variant aaron-skip,tg-ratelimit ${DIR}/forkexec.dat)
  string(FIND "${tx}" "\nRun-queue wait (" at)
  expect("at GREATER -1" "forkexec text: no run-queue wait section")
  string(SUBSTRING "${tx}" ${at} -1 rq)
  string(FIND "${rq}" "\nApproximations" end)
  string(SUBSTRING "${rq}" 0 ${end} rq)
  string(FIND "${tx}" "\nWakeup latency, all" w)
  math(EXPR wn "${at} - ${w}")
  string(SUBSTRING "${tx}" ${w} ${wn} wake)
  # (CMake's regular expressions have no {n})
  string(REPEAT " " 28 col)   # the group column
  string(REPEAT " " 15 side)  # the 14-character run name column and its space
  string(REPEAT " " 22 label) # the wakeup latency rows' label column
  # a 34-character cgroup label on its own line, then the measured row
  expect_match("\n  cgroup=/schedreplay-19114/forkexec\n  ${col} measured +[0-9]+ "
               "${rq}"
               "forkexec text: the long cgroup label is not on a line of its own:\n${rq}")
  # a label that fits stays on its row
  expect_match("\n  all                          measured +[0-9]+ "
               "${rq}"
               "forkexec text: 'all' is not on its measured row:\n${rq}")
  foreach(name aaron-skip,no-tg-ratelimit aaron-skip,tg-ratelimit)
    # each run's name whole, on its own line, then the row with an empty name
    string(REGEX MATCHALL "\n  ${col} ${name}\n  ${col}${side} *[0-9]+ " rows "${rq}")
    list(LENGTH rows n)
    string(REGEX MATCHALL "measured +[0-9]+ " blocks "${rq}")
    list(LENGTH blocks nb)
    expect("n EQUAL nb" "forkexec text: ${n} run-queue rows under the whole name ${name}, ${nb} groups:\n${rq}")
    string(REGEX MATCHALL "\n  ${name} \\(us\\)\n  ${label} +[0-9.]+ " rows "${wake}")
    list(LENGTH rows n)
    string(REGEX MATCHALL "\n  measured \\(us\\)" blocks "${wake}")
    list(LENGTH blocks nb)
    expect("n EQUAL nb" "forkexec text: ${n} wakeup latency rows under the whole name ${name}, ${nb} groups")
  endforeach()
  foreach(cut "aaron-skip,no- " "aaron-skip,tg- " "aaron-skip,no-tg-ratel " "aaron-skip,tg-ratelimi ")
    string(FIND "${tx}" "${cut}" at)
    expect("at EQUAL -1" "forkexec text: a run name cut to '${cut}'")
  endforeach()
  # the counts table heads a name wider than its column "run N" and names it above
  expect_match("\nruns: +run 1 = aaron-skip,no-tg-ratelimit, run 2 = aaron-skip,tg-ratelimit\nCounts +measured +run 1 +error +run 2 +error\n"
               "${tx}"
               "forkexec text: the counts table's heads are not 'run N' with the names above:\n${tx}")
endif()
