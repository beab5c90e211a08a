#!/bin/sh
# Test set-up: the v6, v7-uncompressed and v7-zlib conversions of each fixture
# (the fixtures themselves are v7 zstd, as `trace-cmd extract` writes them),
# and its ftrace text: `trace-cmd report -N -t` (the kernel's print formats,
# prev_state as letters) and `-R -t` (raw fields, prev_state as a number),
# whole and their first 3000 records (-head).
# Debian 12's trace-cmd 3.1.6 is built without zlib ("trace-cmd list -c"):
# then no zlib file is made and the tests that need one skip.
#   convert.sh OUTDIR TRACE...
set -eu
out=$1; shift
command -v trace-cmd > /dev/null || { echo "SKIP: trace-cmd not installed"; exit 77; }
mkdir -p "$out"
for t in "$@"; do
	n=$(basename "$t" .dat)
	trace-cmd convert -i "$t" -o "$out/$n-v6.dat" --file-version 6 > /dev/null 2>&1
	trace-cmd convert -i "$t" -o "$out/$n-v7-none.dat" --file-version 7 --compression none > /dev/null 2>&1
	vs="v6 v7-none"
	if trace-cmd list -c 2>/dev/null | grep -q '^[[:space:]]*zlib'; then
		trace-cmd convert -i "$t" -o "$out/$n-v7-zlib.dat" --file-version 7 \
			--compression zlib > /dev/null 2>&1
		vs="$vs v7-zlib"
	fi
	trace-cmd report -N -t -i "$t" > "$out/$n-text.txt" 2> /dev/null
	trace-cmd report -R -t -i "$t" > "$out/$n-raw.txt" 2> /dev/null
	[ -s "$out/$n-text.txt" ] && [ -s "$out/$n-raw.txt" ] ||
		{ echo "FAIL: trace-cmd report made no text of $n"; exit 1; }
	# the header and the first 3000 records (the fuzz tests' inputs: the
	# same grammar as the whole, an eighth to a fifteenth of the parsing)
	head -n 3001 "$out/$n-text.txt" > "$out/$n-text-head.txt"
	head -n 3001 "$out/$n-raw.txt" > "$out/$n-raw-head.txt"
	for v in $vs; do
		[ -s "$out/$n-$v.dat" ] || { echo "FAIL: trace-cmd convert made no $n-$v.dat"; exit 1; }
	done
done
echo "converted $# traces into $out"
