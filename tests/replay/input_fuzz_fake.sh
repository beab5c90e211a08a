#!/bin/sh
# A stand-in schedreplay for input_fuzz.py's own tests (replay_input_fuzz_flags_*):
# it must flag each of these.
#   INPUT_FUZZ_FAKE=crash      dies of SIGSEGV
#   INPUT_FUZZ_FAKE=ubsan      a UBSan report on stderr, exit 0
#   INPUT_FUZZ_FAKE=hang       sleeps past the timeout
#   INPUT_FUZZ_FAKE=multiline  an error of two lines, exit 1
#   INPUT_FUZZ_FAKE=exit       exit 3
#   INPUT_FUZZ_FAKE=accept     exit 0 whatever the input (an empty file too)
case "$INPUT_FUZZ_FAKE" in
crash) kill -SEGV $$ ;;
ubsan) echo "replay/x.c:1:2: runtime error: signed integer overflow" >&2; exit 0 ;;
hang) exec sleep 30 ;;
multiline) printf 'schedreplay: bad file\nusage: ...\n' >&2; exit 1 ;;
exit) echo "schedreplay: odd" >&2; exit 3 ;;
accept) echo "ok"; exit 0 ;;
esac
echo "input_fuzz_fake.sh: set INPUT_FUZZ_FAKE to crash, ubsan, hang, multiline, exit or accept" >&2
exit 2
