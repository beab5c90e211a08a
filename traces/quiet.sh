# Sourced by traces/capture.sh and tests/reader/capture-fixtures.sh: the
# kernel traces the whole machine, so a capture waits for quiet CPUs first.

# Busy share of all CPUs over 2 s, in percent (from /proc/stat).
busy_pct() {
	a=$(awk '/^cpu /{ print $2+$3+$4+$6+$7+$8, $2+$3+$4+$5+$6+$7+$8 }' /proc/stat)
	sleep 2
	b=$(awk '/^cpu /{ print $2+$3+$4+$6+$7+$8, $2+$3+$4+$5+$6+$7+$8 }' /proc/stat)
	echo "$a $b" | awk '{ d = $4 - $2; print (d > 0 ? int(100 * ($3 - $1) / d) : 0) }'
}

# quiet_machine LABEL: wait (up to 20 minutes) for two quiet 2-s samples in a
# row (CPUs < 10 % busy), then log LABEL, uptime and the busiest processes to
# the file $log.
quiet_machine() {
	i=0 ok=0
	while [ $i -lt 600 ] && [ $ok -lt 2 ]; do
		if [ "$(busy_pct)" -lt 10 ]; then ok=$((ok + 1)); else ok=0; fi
		i=$((i + 1))
	done
	{
		echo "== $1 $(date -u +%FT%TZ) (quiet samples: $ok)"
		uptime
		ps -eo pid,pcpu,etime,comm --sort=-pcpu | head -6
	} >> "$log"
}
