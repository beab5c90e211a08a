// SPDX-License-Identifier: GPL-2.0
/*
 * The sidecar's "cpu_time" (docs/capture.md): each CPU's /proc/stat irq,
 * softirq and steal columns (USER_HZ ticks) read just before tracing starts
 * and just after it stops.  Their deltas are what the kernel accounted as
 * IRQ time (CONFIG_IRQ_TIME_ACCOUNTING; without it, ticks that sampled an
 * interrupt) and as steal time (CONFIG_PARAVIRT_TIME_ACCOUNTING) over the
 * capture: the replay compares them with the time the trace shows each
 * CPU's rq_clock_task() left out (docs/replay.md "Left-out clock_task time").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cap_local.h"

int cap_proc_stat_parse(const char *text, struct cap_cpu_time *out, int max)
{
	int n = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long v[8];
		int cpu, used = 0;

		/* "cpuN user nice system idle iowait irq softirq steal ...": the
		 * aggregate "cpu " line has no number and is skipped */
		if (strncmp(p, "cpu", 3) || p[3] < '0' || p[3] > '9')
			continue;
		if (sscanf(p, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu%n", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &used) != 9 || cpu < 0)
			return -1;          /* a kernel before 2.6.11 (no steal) or damage */
		if (n == max)
			return -1;
		out[n++] = (struct cap_cpu_time){ .cpu = cpu, .irq = v[5], .softirq = v[6],
						  .steal = v[7] };
	}
	return n;
}

json_t *cap_cpu_time_read(void)
{
	struct cap_cpu_time t[CAP_CPU_TIME_MAX];
	char *text = cap_read_file("/proc/stat", NULL);
	json_t *a;
	int n;

	if (!text)
		return json_pack("{s:s}", "unreadable", strerror(errno));
	n = cap_proc_stat_parse(text, t, CAP_CPU_TIME_MAX);
	free(text);
	if (n < 0)
		return json_pack("{s:s}", "unreadable", "/proc/stat: no per-CPU irq/softirq/steal");
	a = json_array();
	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, json_pack("{s:i, s:I, s:I, s:I}", "cpu", t[i].cpu, "irq",
						   (json_int_t)t[i].irq, "softirq",
						   (json_int_t)t[i].softirq, "steal",
						   (json_int_t)t[i].steal));
	return a;
}

json_t *cap_cpu_time_json(json_t *start, json_t *end)
{
	long hz = sysconf(_SC_CLK_TCK);
	json_t *o;

	if (!json_is_array(start) || !json_is_array(end)) {
		json_t *why = json_is_array(start) ? end : start;

		return why ? json_pack("{s:b, s:O}", "available", 0, "reason", why) :
			     json_pack("{s:b, s:s}", "available", 0, "reason", "not read");
	}
	o = json_pack("{s:b, s:s, s:i, s:O, s:O}", "available", 1, "source", "/proc/stat",
		      "user_hz", (int)(hz > 0 ? hz : 100), "at_start", start, "at_end", end);
	return o;
}
