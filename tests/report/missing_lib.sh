#!/bin/sh
# libtracecmd and libtracefs are loaded only by --reader libtracecmd and
# capture (replay/tracelibs.c). With a library of their soname that lacks
# their functions first on the path, each of those paths must end in one
# line naming the library and the package, exit 1, and leave no output file;
# a plain report must not need them at all.
#   missing_lib.sh SCHEDREPLAY STUBDIR TRACE
sr=$1 stub=$2 trace=$3
fails=0
tmp=$(mktemp -d /tmp/sr-missing-lib.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

expect_one_line() {  # NAME SONAME PACKAGE -- CMD...
	name=$1 so=$2 pkg=$3; shift 4
	LD_LIBRARY_PATH=$stub "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
	   grep -q "cannot load $so: .*(apt-get install $pkg)" "$tmp/err"; then
		echo "ok: $name: $(cat "$tmp/err")"
	else
		echo "FAIL: $name: exit $rc, stderr: $(cat "$tmp/err")"; fails=$((fails + 1))
	fi
}

expect_one_line "report --reader libtracecmd" libtracecmd.so.1 libtracecmd1 -- \
	"$sr" report --reader libtracecmd "$trace"
expect_one_line "capture" libtracefs.so.1 libtracefs1 -- \
	"$sr" capture -o "$tmp/x.dat" -d 1 -- true
if [ -e "$tmp/x.dat" ]; then
	echo "FAIL: capture left $tmp/x.dat"; fails=$((fails + 1))
fi
if LD_LIBRARY_PATH=$stub "$sr" report "$trace" > /dev/null 2> "$tmp/err"; then
	echo "ok: report (native reader) runs without them"
else
	echo "FAIL: report needs them: $(cat "$tmp/err")"; fails=$((fails + 1))
fi
[ $fails = 0 ]
