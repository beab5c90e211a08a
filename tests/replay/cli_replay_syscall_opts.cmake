# --channels and --resched-at syscall-exit read the syscall events
# (syscalls:sys_{enter,exit}_{read,write}); on a trace without them the
# output was the base's, not a word said (fz28).  Now a header line says so:
# small-pipe.dat has none of them; small-chan.dat has all four (the channels
# line, no such note); without the options no line (other reports unchanged).
# Needs SCHEDREPLAY, DIR.
include(${CMAKE_CURRENT_LIST_DIR}/../expect.cmake)

set(none_re "channels:  none: --channels needs the four syscalls:sys_{enter,exit}_{read,write} events; the trace has no records of sys_enter_read, sys_exit_read, sys_enter_write, sys_exit_write")
set(marks_re "syscalls:  --resched-at syscall-exit: the trace has no read or write with its syscalls:sys_enter_[*] and sys_exit_[*] records")

replay_run(o --channels strict ${DIR}/small-pipe.dat)
expect_match("${none_re}" "${o}" "--channels strict on small-pipe.dat: no line saying it had no syscall events")
replay_run(o --resched-at syscall-exit ${DIR}/small-pipe.dat)
expect_match("${marks_re}" "${o}" "--resched-at syscall-exit on small-pipe.dat: no line saying it had no syscall events")
replay_run(o ${DIR}/small-pipe.dat)
string(REGEX MATCH "\nchannels:|\nsyscalls:" m "${o}")
string(LENGTH "${m}" n)
expect("${n} EQUAL 0" "small-pipe.dat without the options: a channels/syscalls line")
replay_run(o --channels auto --resched-at syscall-exit ${DIR}/small-chan.dat)
expect_match("channels:  [0-9]+ modelled" "${o}" "small-chan.dat: no channels line")
string(REGEX MATCH "channels:  none|syscalls:  --resched-at" m "${o}")
string(LENGTH "${m}" n)
expect("${n} EQUAL 0" "small-chan.dat (all four events): a no-events note: ${m}")
