#!/bin/sh
# The real traces of ../shared/traces-external (see its PROVENANCE.md): each
# binary trace.dat is read record by record exactly as `trace-cmd report`
# reads it, and the libtracecmd backend gives the native one's events and
# report; every other file is rejected with one line "<path>: not a
# trace.dat: ...". Skips (77) if the folder is absent.
#   external.sh SCHEDREPLAY TEST_READER DIR
set -u
sr=$1; tr=$2; dir=$3
[ -d "$dir" ] || { echo "SKIP: $dir is absent"; exit 77; }
command -v trace-cmd > /dev/null || { echo "SKIP: trace-cmd not installed"; exit 77; }
fails=0; n=0
for f in $(find "$dir" -type f ! -name '*.md' ! -name '*.json' | sort); do
	n=$((n + 1))
	if [ "$(head -c 3 "$f" | od -An -tx1 | tr -d ' ')" = "170844" ]; then
		if "$tr" tracecmp "$f" && "$tr" backends "$f"; then
			"$sr" report --allow-lost "$f" > /dev/null 2>&1 ||
				{ echo "FAIL: report $f failed"; fails=$((fails + 1)); }
		else
			fails=$((fails + 1))
		fi
	else
		err=$("$sr" report "$f" 2>&1 > /dev/null); rc=$?
		if [ $rc = 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
		   printf '%s' "$err" | grep -q "$f: not a trace.dat: "; then
			echo "ok: $f rejected: $err"
		else
			echo "FAIL: $f: exit $rc, stderr: $err"; fails=$((fails + 1))
		fi
	fi
done
echo "$n external files, $fails failures"
[ $fails = 0 ]
