// SPDX-License-Identifier: GPL-2.0
/*
 * The model's PELT arithmetic (model/pelt.c) against the kernel's own traced
 * per-task util_avg on real hardware: arm-lisa's sched_load trace (Juno r0,
 * big.LITTLE, kernel 4.11.0-rc6 with the sched_load_se tracepoint; see
 * ../shared/traces-external/PROVENANCE.md, section 1).
 *
 *   pelt_external TRACE.dat REPORT.txt PLATFORM.json [--min-within1 PCT]
 *                 [--max-p95 U] [--max-median U] [--verbose]
 *
 * TRACE.dat is read with the project's reader (replay/trace_*.c): the
 * sched_switch stream gives each task's running intervals exactly, in ns.
 * The reader decodes only the scheduler events it replays; sched_load_se and
 * cpu_frequency reach it as TRACE_EV_OTHER (name, CPU, time, no fields), so
 * their fields come from REPORT.txt (`trace-cmd report -t` of the same file),
 * joined record by record in stream order, each pair's timestamps equal to
 * the ns (any mismatch fails the run).  PLATFORM.json (LISA's) gives the
 * clusters, their OPPs and each CPU's capacity (nrg_model.*.cpu.cap_max).
 *
 * Each task's util_avg is driven through the model's ___update_load_sum()
 * (accumulate_sum(), decay_load(), __accumulate_pelt_segments()) at every
 * switch of the task and at each of its sched_load_se events, running only
 * between its switch-in and switch-out; the traced value at each event is
 * compared with the model's util_avg there.  What the 4.11 kernel did
 * differently is layered on here, not in model/ (which is the 6.x
 * arithmetic), one switch per difference so each is measured apart:
 *   - frequency and CPU invariance in the contribution, as 4.11's
 *     accumulate_sum(): util_sum += cap_scale(contrib, scale_freq) *
 *     scale_cpu, scale_freq = cur/max of the CPU's cluster from the
 *     cpu_frequency events (max until a cluster's first event), scale_cpu
 *     the CPU's capacity.  The model's own contribution is contrib << 10;
 *     the scaled one replaces it (the difference of a running and a
 *     non-running ___update_load_sum() over the same interval is exactly
 *     contrib << 10).  Later kernels scale PELT time instead (clock_pelt),
 *     which model/ does not model (capacity 1024 there);
 *   - the divider: 4.11's __update_load_avg() divides by LOAD_AVG_MAX, the
 *     model by get_pelt_divider() = LOAD_AVG_MAX - 1024 + period_contrib.
 * The initial state is unknown: a task starts at its first traced value
 * after the switch stream has shown whether it is running (util_sum = the
 * middle of the sums that give that util_avg), and again at its next traced
 * value after running on a cluster whose frequency no cpu_frequency event
 * has given yet; only the values after a start are compared.  load is not
 * compared: it accrues while the task is runnable, and without wakeup events
 * the trace cannot show when a sleeping task became runnable again.
 *
 * The tracepoint fires only where the kernel's update crossed a period
 * boundary (util_avg is recomputed only there), and where a task's boundaries
 * fall is not known (4.11 also moves them at each wakeup migration: the se
 * takes its new cfs_rq's last_update_time).  So each comparison is made
 * twice: with the task replayed from its start on a period grid that puts a
 * boundary at the traced value's time (the kernel's phase, first block of the
 * output; the limits apply to its 4.11 row), and on the model's own grid,
 * started on a boundary (its util_avg where it crossed one at that update,
 * else its sum over the divider then).
 *
 * Exit 0 when the 4.11 configuration is within the limits given, 1 if not
 * (or the inputs disagree), 2 on bad usage.  Prints one line per
 * configuration and grid.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <schedreplay/trace.h>

#include "pelt.h"

#define MAX_CPUS 64
#define CAPACITY_SCALE 1024u

enum rec_kind { REC_SWITCH, REC_LOAD_SE, REC_FREQ };

/* One event of the merged timeline the configurations are replayed over. */
struct rec {
	enum rec_kind kind;
	uint64_t ts;              /* ns */
	int cpu;                  /* the CPU of the record (REC_FREQ: cpu_id) */
	int32_t prev_pid, next_pid;
	int32_t pid;              /* REC_LOAD_SE: the task (-1: a group se) */
	int se_cpu;               /* REC_LOAD_SE: the CPU of the se's cfs_rq */
	uint32_t util, freq;
};

/* A record of REPORT.txt: the fields the reader does not decode. */
struct text_rec {
	uint64_t ts;
	int32_t pid;              /* sched_load_se */
	int cpu;                  /* sched_load_se: cpu (its cfs_rq's); cpu_frequency: cpu_id */
	uint32_t util, freq;
};

struct text_list {
	struct text_rec *v;
	size_t n, cap, next;
};

struct platform {
	int nr_cpus;
	unsigned int capacity[MAX_CPUS];   /* 0..1024 */
	uint32_t max_freq[MAX_CPUS];       /* kHz, of the CPU's cluster */
	int cluster[MAX_CPUS];
};

struct config {
	const char *name;
	bool freq_inv, cpu_inv, div_411;
};

/* The 4.11 kernel first, the limits apply to it; then one difference off each. */
static const struct config configs[] = {
	{ .name = "4.11 (freq+cpu invariance, /LOAD_AVG_MAX)", .freq_inv = true, .cpu_inv = true,
	  .div_411 = true },
	{ .name = "no frequency invariance", .freq_inv = false, .cpu_inv = true, .div_411 = true },
	{ .name = "no CPU invariance", .freq_inv = true, .cpu_inv = false, .div_411 = true },
	{ .name = "model as is (no invariance, 6.x divider)", .freq_inv = false, .cpu_inv = false,
	  .div_411 = false },
	{ .name = "invariance, 6.x divider", .freq_inv = true, .cpu_inv = true, .div_411 = false },
};
#define NR_CONFIGS (sizeof(configs) / sizeof(configs[0]))

struct task {
	bool known;               /* the switch stream has shown its state */
	bool anchored;            /* its signal started from a traced value */
	bool running;
	bool unknown_freq;        /* ran at a frequency the trace had not shown yet */
	int cpu;
	struct sched_avg sa;
};

struct figures {
	size_t n, within1, exact, decayed_here, anchors;
	size_t remote;            /* emitted on another CPU than the se's (a wakeup) */
	double remote_max, local_max;
	double median, p95, max, mean_signed;
	int32_t max_pid;
	uint64_t max_ts;
};

static int die(const char *what, const char *arg)
{
	fprintf(stderr, "pelt_external: %s%s\n", what, arg);
	return 1;
}

static int push(void **v, size_t *n, size_t *cap, size_t size)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		void *p = realloc(*v, nc * size);

		if (!p)
			return -1;
		*v = p;
		*cap = nc;
	}
	return 0;
}

/* "S.NNNNNNNNN" just before @end (the ':' after it): ns; 0 if not that shape. */
static uint64_t parse_ts(const char *line, const char *end)
{
	const char *s = end;
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	while (s > line && s[-1] != ' ')
		s--;
	for (; s < end && *s != '.'; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (s == end)
		return 0;
	for (s++; s < end; s++, digits++) {
		if (*s < '0' || *s > '9')
			return 0;
		frac = frac * 10 + (uint64_t)(*s - '0');
	}
	return digits == 9 ? sec * 1000000000ull + frac : 0;
}

/* The last " KEY=" of @s (a comm may hold anything, the numbers follow it). */
static bool field_last(const char *s, const char *key, long long *out)
{
	const char *p = NULL, *q = s;
	char *end;

	while ((q = strstr(q, key)) != NULL)
		p = q++;
	if (!p)
		return false;
	errno = 0;
	*out = strtoll(p + strlen(key), &end, 10);
	return errno == 0 && end != p + strlen(key);
}

static int read_report(const char *path, struct text_list *load, struct text_list *freq)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f)
		return die("cannot open ", path);
	while (fgets(line, sizeof(line), f)) {
		const char *p;
		struct text_list *l;
		struct text_rec r = { 0 };
		long long pid = 0, util = 0, state = 0, cpu = 0;

		if ((p = strstr(line, ": sched_load_se: ")) != NULL) {
			if (sscanf(p, ": sched_load_se: cpu=%lld", &cpu) != 1 ||
			    !field_last(p, " pid=", &pid) || !field_last(p, " util=", &util))
				goto bad;
			r.cpu = (int)cpu;
			l = load;
			r.pid = (int32_t)pid;
			r.util = (uint32_t)util;
		} else if ((p = strstr(line, ": cpu_frequency: ")) != NULL) {
			if (!field_last(p, " state=", &state) || !field_last(p, " cpu_id=", &cpu) ||
			    cpu < 0 || cpu >= MAX_CPUS)
				goto bad;
			l = freq;
			r.freq = (uint32_t)state;
			r.cpu = (int)cpu;
		} else {
			continue;
		}
		r.ts = parse_ts(line, p);
		if (!r.ts)
			goto bad;
		if (push((void **)&l->v, &l->n, &l->cap, sizeof(r))) {
			fclose(f);
			return die("out of memory", "");
		}
		l->v[l->n++] = r;
	}
	fclose(f);
	return 0;
bad:
	fclose(f);
	fprintf(stderr, "pelt_external: %s: cannot read this line (want `trace-cmd report -t`): %s",
		path, line);
	return 1;
}

static int read_platform(const char *path, struct platform *pl)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr), *clusters, *cpus;
	const char *name;
	int cl = 0;

	if (!root)
		return die("cannot read ", path);
	memset(pl, 0, sizeof(*pl));
	clusters = json_object_get(root, "clusters");
	if (!json_is_object(clusters)) {
		json_decref(root);
		return die("no \"clusters\" in ", path);
	}
	json_object_foreach(clusters, name, cpus) {
		json_t *freqs = json_object_get(json_object_get(root, "freqs"), name);
		json_t *cap = json_object_get(json_object_get(json_object_get(
				json_object_get(root, "nrg_model"), name), "cpu"), "cap_max");
		uint32_t maxf = 0;
		size_t i;
		json_t *v;

		json_array_foreach(freqs, i, v)
			if ((uint32_t)json_integer_value(v) > maxf)
				maxf = (uint32_t)json_integer_value(v);
		json_array_foreach(cpus, i, v) {
			json_int_t c = json_integer_value(v);

			if (c < 0 || c >= MAX_CPUS || !maxf || !json_is_integer(cap)) {
				json_decref(root);
				return die("a cluster without CPUs, OPPs or cap_max in ", path);
			}
			pl->capacity[c] = (unsigned int)json_integer_value(cap);
			pl->max_freq[c] = maxf;
			pl->cluster[c] = cl;
			if (c + 1 > pl->nr_cpus)
				pl->nr_cpus = (int)c + 1;
		}
		cl++;
	}
	json_decref(root);
	return 0;
}

/* The trace through the project's reader, the undecoded fields joined from the text. */
static int read_trace(const char *path, struct text_list *load, struct text_list *freq,
		      struct rec **out, size_t *nout)
{
	struct trace_open_opts opts = { 0 };
	struct sr_error err = { 0 };
	struct trace_reader *r = trace_open(path, &opts, &err);
	struct trace_event ev;
	size_t n = 0, cap = 0;
	struct rec *v = NULL;
	int rc;

	if (!r)
		return die("", err.msg);
	while ((rc = trace_next(r, &ev, &err)) == 1) {
		struct rec x = { .ts = ev.ts, .cpu = ev.cpu };
		struct text_list *l = NULL;

		if (ev.type == TRACE_EV_SCHED_SWITCH) {
			x.kind = REC_SWITCH;
			x.prev_pid = ev.u.sched_switch.prev_pid;
			x.next_pid = ev.u.sched_switch.next_pid;
		} else if (ev.type == TRACE_EV_OTHER && !strcmp(ev.name, "sched_load_se")) {
			x.kind = REC_LOAD_SE;
			l = load;
		} else if (ev.type == TRACE_EV_OTHER && !strcmp(ev.name, "cpu_frequency")) {
			x.kind = REC_FREQ;
			l = freq;
		} else {
			continue;
		}
		if (l) {
			const struct text_rec *t = l->next < l->n ? &l->v[l->next++] : NULL;

			if (!t || t->ts != ev.ts) {
				fprintf(stderr, "pelt_external: %s record %zu at %" PRIu64
					" ns has no text line at the same time (text: %" PRIu64 ")\n",
					ev.name, l->next, ev.ts, t ? t->ts : 0);
				trace_close(r);
				free(v);
				return 1;
			}
			x.pid = t->pid;
			x.util = t->util;
			x.freq = t->freq;
			if (x.kind == REC_FREQ)
				x.cpu = t->cpu;
			else
				x.se_cpu = t->cpu;
		}
		if (push((void **)&v, &n, &cap, sizeof(x))) {
			trace_close(r);
			free(v);
			return die("out of memory", "");
		}
		v[n++] = x;
	}
	trace_close(r);
	if (rc < 0) {
		free(v);
		return die("", err.msg);
	}
	if (load->next != load->n || freq->next != freq->n) {
		free(v);
		return die("the text has more sched_load_se/cpu_frequency lines than the trace ", path);
	}
	*out = v;
	*nout = n;
	return 0;
}

static uint32_t divider(const struct config *c, const struct sched_avg *sa)
{
	return c->div_411 ? (uint32_t)LOAD_AVG_MAX : get_pelt_divider(sa);
}

/*
 * Bring @t's util signal to @now.  Running: the model's contribution
 * (contrib << 10) is replaced by 4.11's cap_scale(contrib, scale_freq) *
 * scale_cpu.  Returns 1 if a period boundary was crossed (util_avg
 * recomputed), as ___update_load_sum() does.
 */
static int advance(struct task *t, uint64_t now, const struct config *c,
		   const struct platform *pl, const uint32_t *cur_freq)
{
	uint32_t freq = t->cpu >= 0 && t->cpu < pl->nr_cpus ? cur_freq[t->cpu] : 0;
	struct sched_avg run = t->sa;
	int decayed = ___update_load_sum(now, &t->sa, 1, 0, 0);

	if (t->running) {
		uint32_t contrib, sf = CAPACITY_SCALE, sc = CAPACITY_SCALE;

		___update_load_sum(now, &run, 1, 0, 1);
		contrib = (run.util_sum - t->sa.util_sum) >> 10;
		if (!freq)
			t->unknown_freq = true;
		else if (c->freq_inv)
			sf = (uint32_t)(((uint64_t)freq << 10) / pl->max_freq[t->cpu]);
		if (c->cpu_inv && t->cpu >= 0 && t->cpu < pl->nr_cpus)
			sc = pl->capacity[t->cpu];
		t->sa.util_sum += ((contrib * sf) >> 10) * sc;
	}
	if (decayed)
		___update_load_avg_div(&t->sa, 1, divider(c, &t->sa));
	return decayed;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest rank on the sorted @v. */
static double rank(const double *v, size_t n, double q)
{
	size_t k = (size_t)(q * (double)n + 0.999999999);

	return n ? v[k ? k - 1 : 0] : 0;
}

/* The replay of the timeline: all tasks, or only @only (>0) for an aligned run. */
struct sim {
	struct task *tasks;
	uint32_t cur_freq[MAX_CPUS];      /* kHz; 0 until a cluster's first event */
	int32_t only;
	uint64_t align_ts;                /* an aligned run puts a boundary here */
	size_t anchors;
};

enum step_result { STEP_NONE, STEP_ANCHOR, STEP_COMPARE };

/*
 * One record.  STEP_COMPARE: a traced util of a task started earlier, with
 * the model's value in *@util (its util_avg when it crossed a period boundary
 * at this update, else its sum over the divider now) and *@decayed.
 */
static enum step_result sim_step(struct sim *s, const struct rec *r, const struct config *c,
				 const struct platform *pl, unsigned long *util, int *decayed)
{
	struct task *t;

	switch (r->kind) {
	case REC_FREQ:
		s->cur_freq[r->cpu] = r->freq;
		return STEP_NONE;
	case REC_SWITCH:
		if (r->prev_pid > 0 && (!s->only || s->only == r->prev_pid)) {
			t = &s->tasks[r->prev_pid];
			if (t->anchored)
				advance(t, r->ts, c, pl, s->cur_freq);
			t->known = true;
			t->running = false;
		}
		if (r->next_pid > 0 && (!s->only || s->only == r->next_pid)) {
			t = &s->tasks[r->next_pid];
			if (t->anchored)
				advance(t, r->ts, c, pl, s->cur_freq);
			t->known = true;
			t->running = true;
			t->cpu = r->cpu;
		}
		return STEP_NONE;
	case REC_LOAD_SE:
		break;
	}
	if (r->pid <= 0 || (s->only && s->only != r->pid))
		return STEP_NONE;
	t = &s->tasks[r->pid];
	if (!t->known)
		return STEP_NONE;
	*decayed = t->anchored ? advance(t, r->ts, c, pl, s->cur_freq) : 0;
	if (!t->anchored || t->unknown_freq) {
		s->anchors++;
		t->unknown_freq = false;
		memset(&t->sa, 0, sizeof(t->sa));
		t->sa.last_update_time = r->ts;
		/*
		 * The model counts whole 1024 ns units from here, so the
		 * boundary falls at align_ts when the units to it complete a
		 * period.  An ordinary run starts on a boundary: the tracepoint
		 * fires just after the kernel crossed one.
		 */
		if (s->align_ts >= r->ts)
			t->sa.period_contrib = (uint32_t)((1024 - ((s->align_ts - r->ts) >> 10) % 1024) %
							  1024);
		t->sa.util_sum = (uint32_t)(r->util * divider(c, &t->sa) + divider(c, &t->sa) / 2);
		t->sa.util_avg = r->util;
		t->anchored = true;
		return STEP_ANCHOR;
	}
	*util = *decayed ? t->sa.util_avg : t->sa.util_sum / divider(c, &t->sa);
	return STEP_COMPARE;
}

/*
 * The model's value at comparison @k (record @idx of task @pid) with its
 * period grid shifted so that a boundary falls at the record's time, as the
 * kernel's did (the tracepoint fires where its update crossed one): the task
 * alone is replayed from the start.
 */
static int aligned_value(const struct config *c, const struct rec *recs, size_t idx,
			 const struct platform *pl, int32_t max_pid, unsigned long *util,
			 int *decayed)
{
	struct sim s = { .only = recs[idx].pid, .align_ts = recs[idx].ts };
	enum step_result res = STEP_NONE;
	size_t i;

	s.tasks = calloc((size_t)max_pid + 1, sizeof(*s.tasks));
	if (!s.tasks)
		return die("out of memory", "");
	for (i = 0; i <= idx; i++)
		res = sim_step(&s, &recs[i], c, pl, util, decayed);
	free(s.tasks);
	return res == STEP_COMPARE ? 0 : die("an aligned replay did not reach its comparison", "");
}

static int run_config(const struct config *c, bool aligned, const struct rec *recs, size_t nrec,
		      const struct platform *pl, int32_t max_pid, bool verbose,
		      struct figures *fig)
{
	struct sim s = { .only = 0 };
	double *err = calloc(nrec + 1, sizeof(*err));
	double sum = 0;
	size_t i;

	s.tasks = calloc((size_t)max_pid + 1, sizeof(*s.tasks));
	if (!s.tasks || !err) {
		free(s.tasks);
		free(err);
		return die("out of memory", "");
	}
	memset(fig, 0, sizeof(*fig));
	for (i = 0; i < nrec; i++) {
		const struct rec *r = &recs[i];
		unsigned long util = 0;
		int decayed = 0;
		double e;

		if (sim_step(&s, r, c, pl, &util, &decayed) != STEP_COMPARE)
			continue;
		if (aligned && aligned_value(c, recs, i, pl, max_pid, &util, &decayed)) {
			free(s.tasks);
			free(err);
			return 1;
		}
		e = (double)util - (double)r->util;
		if (verbose)
			printf("  %" PRIu64 " pid %d cpu %d%s: traced %u model %lu (%+.0f)%s\n",
			       r->ts, r->pid, s.tasks[r->pid].cpu,
			       s.tasks[r->pid].running ? " running" : "",
			       r->util, util, e, decayed ? "" : " (no boundary in the model)");
		sum += e;
		if (e < 0)
			e = -e;
		if (e > fig->max) {
			fig->max = e;
			fig->max_pid = r->pid;
			fig->max_ts = r->ts;
		}
		err[fig->n++] = e;
		if (r->cpu != r->se_cpu) {
			fig->remote++;
			if (e > fig->remote_max)
				fig->remote_max = e;
		} else if (e > fig->local_max) {
			fig->local_max = e;
		}
		fig->within1 += e <= 1024 * 0.01;
		fig->exact += e == 0;
		fig->decayed_here += decayed != 0;
	}
	fig->anchors = s.anchors;
	qsort(err, fig->n, sizeof(*err), cmp_double);
	fig->median = rank(err, fig->n, 0.5);
	fig->p95 = rank(err, fig->n, 0.95);
	fig->mean_signed = fig->n ? sum / (double)fig->n : 0;
	free(s.tasks);
	free(err);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: pelt_external TRACE.dat REPORT.txt PLATFORM.json [--min-within1 PCT]"
		" [--max-p95 U] [--max-median U] [--verbose]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct text_list load = { 0 }, freq = { 0 };
	double min_within1 = 0, max_p95 = 1e9, max_median = 1e9;
	struct platform pl;
	struct figures fig0 = { 0 };
	struct rec *recs = NULL;
	size_t nrec = 0, i;
	int32_t max_pid = 0;
	bool verbose = false;
	int a, m, rc = 0;

	if (argc < 4)
		return usage();
	for (a = 4; a < argc; a++) {
		char *end;
		double *dst = NULL;

		if (!strcmp(argv[a], "--verbose")) {
			verbose = true;
			continue;
		}
		if (!strcmp(argv[a], "--min-within1"))
			dst = &min_within1;
		else if (!strcmp(argv[a], "--max-p95"))
			dst = &max_p95;
		else if (!strcmp(argv[a], "--max-median"))
			dst = &max_median;
		if (!dst || a + 1 == argc)
			return usage();
		*dst = strtod(argv[++a], &end);
		if (*end)
			return usage();
	}
	if (read_platform(argv[3], &pl) || read_report(argv[2], &load, &freq) ||
	    read_trace(argv[1], &load, &freq, &recs, &nrec)) {
		rc = 1;
		goto out;
	}
	for (i = 0; i < nrec; i++) {
		int32_t p = recs[i].kind == REC_SWITCH ?
			(recs[i].prev_pid > recs[i].next_pid ? recs[i].prev_pid : recs[i].next_pid) :
			recs[i].pid;

		if (p > max_pid)
			max_pid = p;
		if (recs[i].kind == REC_FREQ && recs[i].cpu >= pl.nr_cpus) {
			rc = die("cpu_frequency of a CPU platform.json does not have: ", argv[2]);
			goto out;
		}
	}
	printf("sched_load_se records %zu, cpu_frequency %zu (joined with the reader's stream)\n",
	       load.n, freq.n);
	printf("%-44s %5s %7s %6s %6s %6s %7s %6s %9s %7s\n", "configuration", "n", "median",
	       "p95", "max", "bias", "<=1%", "exact", "boundary", "starts");
	for (m = 0; m < 2; m++) {
		printf("%s\n", m == 0 ? "boundary at each traced value (the kernel's phase):" :
		       "the model's own phase (its sum over the divider where it crossed none):");
		for (i = 0; i < NR_CONFIGS; i++) {
			struct figures f;

			if (verbose)
				printf("%s:\n", configs[i].name);
			if (run_config(&configs[i], m == 0, recs, nrec, &pl, max_pid, verbose, &f)) {
				rc = 1;
				goto out;
			}
			printf("%-44s %5zu %7.1f %6.1f %6.1f %+6.2f %6.1f%% %6zu %8.1f%% %7zu\n",
			       configs[i].name, f.n, f.median, f.p95, f.max, f.mean_signed,
			       f.n ? 100.0 * (double)f.within1 / (double)f.n : 0, f.exact,
			       f.n ? 100.0 * (double)f.decayed_here / (double)f.n : 0, f.anchors);
			if (i == 0 && m == 0)
				fig0 = f;
		}
	}
	printf("largest error (4.11): %.0f, pid %d at %" PRIu64 " ns; %zu records written by "
	       "another CPU than the se's (wakeups): largest error %.0f there, %.0f elsewhere\n",
	       fig0.max, fig0.max_pid, fig0.max_ts, fig0.remote, fig0.remote_max, fig0.local_max);
	if (!fig0.n) {
		rc = die("no comparison: ", argv[1]);
	} else if (100.0 * (double)fig0.within1 / (double)fig0.n < min_within1 ||
		   fig0.p95 > max_p95 || fig0.median > max_median) {
		fprintf(stderr, "pelt_external: FAIL: 4.11 agreement below the limits (within 1 %%: "
			"%.1f %% < %.1f %%, p95 %.1f > %.1f or median %.1f > %.1f)\n",
			100.0 * (double)fig0.within1 / (double)fig0.n, min_within1, fig0.p95, max_p95,
			fig0.median, max_median);
		rc = 1;
	}
out:
	free(recs);
	free(load.v);
	free(freq.v);
	return rc;
}
