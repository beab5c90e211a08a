#!/bin/sh
# A stand-in schedreplay for the option sweep's own tests
# (replay_option_sweep_flags_*): it must flag each of these.
#   OPTION_SWEEP_FAKE=crash   dies of SIGSEGV
#   OPTION_SWEEP_FAKE=ubsan   a UBSan report on stderr, exit 0
#   OPTION_SWEEP_FAKE=random  different --json output on each run
#   OPTION_SWEEP_FAKE=usage   an unknown option: the error and the usage after it
#                             (two lines on stderr), exit 2
case "$OPTION_SWEEP_FAKE" in
crash) kill -SEGV $$ ;;
ubsan) echo "model/x.c:1:2: runtime error: signed integer overflow" >&2; exit 0 ;;
random) echo "{\"n\": $(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"; exit 0 ;;
usage)
	for a; do
		if [ "$a" = --no-such-option ]; then
			echo "schedreplay $1: unknown option '$a'" >&2
			echo "usage: schedreplay $1 [options] (see 'schedreplay $1 --help')" >&2
			exit 2
		fi
	done ;;
esac
echo "option_sweep_fake.sh: set OPTION_SWEEP_FAKE to crash, ubsan, random or usage" >&2
exit 2
