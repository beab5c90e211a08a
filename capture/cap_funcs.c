// SPDX-License-Identifier: GPL-2.0
/*
 * Call counts of the fair scheduler's bookkeeping functions, measured with
 * the function tracer where the host allows it.
 *
 * A second instance of our own ("schedreplay-<pid>-fn") runs the function
 * tracer filtered to the resolved functions; its pages are streamed like the
 * main trace's (a busy machine calls update_curr ~10^5 times a second, far
 * more than a ring buffer holds), assembled into a scratch trace.dat with the
 * same writer, and counted by the ip of each ftrace:function record. Only the
 * counts are kept; the main trace stays free of function records.
 *
 * Names are resolved against available_filter_functions, because they changed
 * (update_blocked_averages became sched_balance_update_blocked_averages and
 * newidle_balance sched_balance_newidle in 6.10) and because a function the
 * compiler inlined (update_tg_load_avg often is) cannot be traced at all.
 * Nothing here may fail a capture: every obstacle ends as "unavailable" with
 * the reason.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <schedreplay/tracelibs.h>

#include "cap_local.h"

/* The counted functions: the name the reports use, then the kernel's names
 * newest first. */
static const struct fn_def {
	const char *key;
	const char *names[3];
} fn_defs[] = {
	{ "update_curr", { "update_curr" } },
	{ "update_load_avg", { "update_load_avg" } },
	{ "update_cfs_group", { "update_cfs_group" } },
	{ "reweight_entity", { "reweight_entity" } },
	{ "update_tg_load_avg", { "update_tg_load_avg" } },
	{ "update_blocked_averages",
	  { "sched_balance_update_blocked_averages", "update_blocked_averages" } },
	{ "newidle_balance", { "sched_balance_newidle", "newidle_balance" } },
};
#define NR_FNS (sizeof(fn_defs) / sizeof(fn_defs[0]))

struct cap_funcs {
	char reason[512];            /* non-empty: unavailable */
	struct cap_trace *t;
	char *tmp_prefix;
	const char *resolved[NR_FNS];/* traced symbol, NULL: not traceable */
	char *resolved_buf[NR_FNS];
	unsigned long long addr[NR_FNS]; /* ftrace location (or symbol) address */
	bool exact_addr;             /* addresses from available_filter_functions_addrs */
	const struct cap_options *logopt;
};

static struct cap_funcs *unavailable(struct cap_funcs *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct cap_funcs *unavailable(struct cap_funcs *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->reason, sizeof(f->reason), fmt, ap);
	va_end(ap);
	if (f->t) {
		cap_trace_destroy(f->t);
		f->t = NULL;
	}
	return f;
}

/* Find @name in a function list ("name", "name [mod]", "name.isra.0"). */
static const char *find_function(const char *list, const char *name, char **out)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		bool at_line = p == list || p[-1] == '\n' || p[-1] == ' ';
		char end = p[n];

		if (at_line && (end == '\n' || end == ' ' || end == '\0' || end == '.')) {
			size_t len = strcspn(p, " \n");

			*out = strndup(p, len);
			return *out;
		}
		p += n;
	}
	return NULL;
}

/* Address of @sym from "addr name" lines (available_filter_functions_addrs
 * or /proc/kallsyms "addr type name"). */
static unsigned long long find_addr(const char *text, const char *sym, bool kallsyms)
{
	const char *p = text;
	size_t n = strlen(sym);

	while ((p = strstr(p, sym))) {
		if ((p[-1] == ' ' || p[-1] == '\t') && (p[n] == '\n' || p[n] == ' ' ||
							p[n] == '\t' || p[n] == '\0')) {
			const char *line = p;

			while (line > text && line[-1] != '\n')
				line--;
			if (!kallsyms || strchr("tT", *(strchr(line, ' ') + 1)))
				return strtoull(line, NULL, 16);
		}
		p += n;
	}
	return 0;
}

struct cap_funcs *cap_funcs_start(const char *run_name, const char *tracing_dir,
				  const char *tmp_prefix, const struct cap_options *logopt)
{
	struct cap_funcs *f = calloc(1, sizeof(*f));
	char path[4096], name[256], filter[4096] = "";
	char *list, *addrs;
	struct sr_error err;
	size_t i, nr = 0;

	if (!f)
		return NULL;
	f->logopt = logopt;
	f->tmp_prefix = strdup(tmp_prefix);
	if (!f->tmp_prefix)
		return unavailable(f, "out of memory");
	snprintf(path, sizeof(path), "%s/available_filter_functions", tracing_dir);
	list = cap_read_file(path, NULL);
	if (!list)
		return unavailable(f, "function tracer unusable: reading %s: %s", path,
				   strerror(errno));
	for (i = 0; i < NR_FNS; i++) {
		for (size_t k = 0; k < 3 && fn_defs[i].names[k] && !f->resolved[i]; k++)
			f->resolved[i] = find_function(list, fn_defs[i].names[k], &f->resolved_buf[i]);
		if (f->resolved[i]) {
			size_t len = strlen(filter);

			snprintf(filter + len, sizeof(filter) - len, "%s ", f->resolved[i]);
			nr++;
		}
	}
	free(list);
	if (!nr)
		return unavailable(f, "none of the functions is traceable here");

	/* ip -> function: exact ftrace locations if the kernel lists them (6.5+),
	 * else symbol addresses (the call site is a few bytes in). */
	snprintf(path, sizeof(path), "%s/available_filter_functions_addrs", tracing_dir);
	addrs = cap_read_file(path, NULL);
	f->exact_addr = addrs != NULL;
	if (!addrs)
		addrs = cap_read_file("/proc/kallsyms", NULL);
	if (!addrs)
		return unavailable(f, "cannot map addresses to functions: /proc/kallsyms: %s",
				   strerror(errno));
	for (i = 0; i < NR_FNS; i++)
		if (f->resolved[i])
			f->addr[i] = find_addr(addrs, f->resolved[i], !f->exact_addr);
	free(addrs);
	for (i = 0; i < NR_FNS; i++)
		if (f->resolved[i] && !f->addr[i])
			return unavailable(f, "no address for %s (kptr_restrict?)", f->resolved[i]);

	snprintf(name, sizeof(name), "%s-fn", run_name);
	f->t = cap_trace_create(name, NULL, logopt, &err);   /* the main instance's tracefs */
	if (!f->t)
		return unavailable(f, "%s", err.msg);
	if (cap_trace_setup(f->t, 8192, NULL, &err) < 0 ||
	    cap_trace_set_tracer(f->t, "function", filter, &err) < 0)
		return unavailable(f, "function tracer unusable: %s", err.msg);
	if (cap_trace_start_streams(f->t, f->tmp_prefix, &err) < 0)
		return unavailable(f, "%s", err.msg);
	return f;
}

void cap_funcs_on(struct cap_funcs *f, bool on)
{
	if (f && f->t)
		cap_trace_on(f->t, on);
}

struct count_ctx {
	struct cap_funcs *f;
	uint64_t counts[NR_FNS];
	uint64_t other;
	struct tep_event *fn_event;
};

static int count_record(struct tracecmd_input *handle, struct tep_record *record, int cpu,
			void *data)
{
	struct count_ctx *c = data;
	struct tep_handle *tep = sr_tracecmd->get_tep(handle);
	struct tep_event *ev = tep_find_event_by_record(tep, record);
	unsigned long long ip;

	(void)cpu;
	if (!ev || strcmp(ev->name, "function"))
		return 0;
	if (tep_get_field_val(NULL, ev, "ip", record, &ip, 0) < 0)
		return 0;
	for (size_t i = 0; i < NR_FNS; i++) {
		unsigned long long a = c->f->addr[i];

		if (!c->f->resolved[i])
			continue;
		if (c->f->exact_addr ? ip == a : (ip >= a && ip < a + 32)) {
			c->counts[i]++;
			return 0;
		}
	}
	c->other++;
	return 0;
}

json_t *cap_funcs_finish(struct cap_funcs *f)
{
	struct count_ctx c = { .f = f };
	struct cap_cpu_stats *stats = NULL;
	const char **files = NULL;
	struct tracecmd_input *h;
	struct cap_tracedat td;
	struct sr_error err;
	char *dat = NULL;
	uint64_t lost = 0;
	json_t *out, *counts, *names;
	int n, cpu;

	if (!f)
		return json_pack("{s:b, s:s}", "available", 0, "reason", "out of memory");
	if (f->reason[0] || !f->t)
		return json_pack("{s:b, s:s}", "available", 0, "reason",
				 f->reason[0] ? f->reason : "not started");
	cap_trace_on(f->t, false);
	if (cap_trace_stop_streams(f->t, &err) < 0) {
		unavailable(f, "%s", err.msg);
		return cap_funcs_finish(f);
	}
	n = cap_trace_nr_cpus(f->t);
	stats = calloc(n, sizeof(*stats));
	files = calloc(n, sizeof(*files));
	if (!stats || !files || asprintf(&dat, "%s.dat", f->tmp_prefix) < 0) {
		free(stats);
		free(files);
		unavailable(f, "out of memory");
		return cap_funcs_finish(f);
	}
	if (cap_trace_read_stats(f->t, stats, &err) == 0)
		for (cpu = 0; cpu < n; cpu++)
			lost += stats[cpu].overrun + stats[cpu].dropped;
	for (cpu = 0; cpu < n; cpu++)
		files[cpu] = cap_trace_cpu_file(f->t, cpu);
	memset(&td, 0, sizeof(td));
	td.tracing_dir = sr_tracefs->tracing_dir();
	td.nr_cpus = n;
	td.cpu_files = files;
	td.page_size = cap_trace_page_size(f->t);
	h = NULL;
	if (cap_tracedat_write(dat, &td, &err) == 0 && sr_tracecmd_load(&err))
		h = sr_tracecmd->open(dat, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (h) {
		sr_tracecmd->iterate_events(h, NULL, 0, count_record, &c);
		sr_tracecmd->close(h);
	}
	unlink(dat);
	cap_trace_unlink_files(f->t);
	cap_cpu_stats_release(stats, n);
	free(stats);
	free(files);
	free(dat);
	if (!h) {
		unavailable(f, "function records could not be read back: %s", err.msg);
		return cap_funcs_finish(f);
	}
	out = json_object();
	counts = json_object();
	names = json_object();
	for (size_t i = 0; i < NR_FNS; i++) {
		if (f->resolved[i]) {
			json_object_set_new(counts, fn_defs[i].key, json_integer((json_int_t)c.counts[i]));
			json_object_set_new(names, fn_defs[i].key, json_string(f->resolved[i]));
		} else {
			json_object_set_new(counts, fn_defs[i].key, json_null());
			json_object_set_new(names, fn_defs[i].key,
					    json_string("not traceable (inlined or notrace)"));
		}
	}
	json_object_set_new(out, "available", json_true());
	json_object_set_new(out, "method", json_string("function tracer in instance"));
	json_object_set_new(out, "instance", json_string(cap_trace_name(f->t)));
	json_object_set_new(out, "counts", counts);
	json_object_set_new(out, "symbols", names);
	json_object_set_new(out, "unmatched_records", json_integer((json_int_t)c.other));
	json_object_set_new(out, "lost_events", json_integer((json_int_t)lost));
	cap_trace_destroy(f->t);
	f->t = NULL;
	return out;
}

void cap_funcs_destroy(struct cap_funcs *f)
{
	if (!f)
		return;
	if (f->t) {
		cap_trace_unlink_files(f->t);
		cap_trace_destroy(f->t);
	}
	for (size_t i = 0; i < NR_FNS; i++)
		free(f->resolved_buf[i]);
	free(f->tmp_prefix);
	free(f);
}
