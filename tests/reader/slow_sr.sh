#!/bin/sh
# schedreplay started SLOW_SR_DELAY seconds late: a run slowed by a loaded
# machine, for fuzz.py's hang check (ctest reader_fuzz_slow_not_hang).
sleep "${SLOW_SR_DELAY:-2}"
exec "$SLOW_SR_BIN" "$@"
