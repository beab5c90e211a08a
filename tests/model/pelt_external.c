// SPDX-License-Identifier: GPL-2.0
/*
 * The model's PELT arithmetic (model/pelt.c) against the kernel's own traced
 * per-task util_avg on real hardware: arm-lisa's sched_load trace (Juno r0,
 * big.LITTLE, kernel 4.11.0-rc6 with the sched_load_se tracepoint; see
 * ../shared/traces-external/PROVENANCE.md, section 1).
 *
 *   pelt_external TRACE.dat REPORT.txt PLATFORM.json [--root-cfs-rq]
 *                 [--min-within1 PCT] [--max-p95 U] [--max-median U] [--verbose]
 *
 * --root-cfs-rq compares each CPU's root cfs_rq util_avg (sched_load_cfs_rq
 * path=/) instead of the tasks', the limits then apply to it: see "The queue
 * check" below.
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

enum rec_kind { REC_SWITCH, REC_LOAD_SE, REC_FREQ, REC_CFS_RQ, REC_MIGRATE };

/* One event of the merged timeline the configurations are replayed over. */
struct rec {
	enum rec_kind kind;
	uint64_t ts;              /* ns */
	int cpu;                  /* the CPU of the record (REC_FREQ: cpu_id) */
	int32_t prev_pid, next_pid;
	bool next_fair;           /* REC_SWITCH: next is a fair task (prio >= 100) */
	bool prev_dead;           /* REC_SWITCH: prev exited */
	int32_t pid;              /* REC_LOAD_SE: the task (-1: a group se); REC_MIGRATE */
	int se_cpu;               /* REC_LOAD_SE: the CPU of the se's (REC_CFS_RQ: the) cfs_rq */
	bool root;                /* REC_CFS_RQ: path=/ */
	bool fair;                /* REC_MIGRATE: a fair task */
	int orig_cpu, dest_cpu;   /* REC_MIGRATE */
	uint32_t util, freq;
	/*
	 * Filled by the task pass (queue check): REC_MIGRATE and REC_SWITCH
	 * with prev_dead carry the task's util (avg, sum) there, if known.
	 */
	bool move_known;
	uint32_t move_avg, move_sum;
	bool burst_last;          /* REC_CFS_RQ: the last value of its update (see QUEUE_BURST_NS) */
	bool fork_attach;         /* REC_CFS_RQ: the update taken as a fork's attach (a start) */
};

/* A record of REPORT.txt: the fields the reader does not decode. */
struct text_rec {
	uint64_t ts;
	int32_t pid;              /* sched_load_se */
	int cpu;                  /* sched_load_se/_cfs_rq: cpu (the cfs_rq's); cpu_frequency: cpu_id */
	bool root;                /* sched_load_cfs_rq: path=/ */
	uint32_t util, freq;
};

struct text_list {
	struct text_rec *v;
	size_t n, cap, next;
};

/* The undecoded events' fields, one list per event. */
struct text_lists {
	struct text_list load, freq, cfs;
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

static int read_report(const char *path, struct text_lists *tl)
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
			l = &tl->load;
			r.pid = (int32_t)pid;
			r.util = (uint32_t)util;
		} else if ((p = strstr(line, ": cpu_frequency: ")) != NULL) {
			if (!field_last(p, " state=", &state) || !field_last(p, " cpu_id=", &cpu) ||
			    cpu < 0 || cpu >= MAX_CPUS)
				goto bad;
			l = &tl->freq;
			r.freq = (uint32_t)state;
			r.cpu = (int)cpu;
		} else if ((p = strstr(line, ": sched_load_cfs_rq: ")) != NULL) {
			const char *qpath = strstr(p, " path=");

			if (sscanf(p, ": sched_load_cfs_rq: cpu=%lld", &cpu) != 1 || !qpath ||
			    !field_last(p, " util=", &util))
				goto bad;
			l = &tl->cfs;
			r.cpu = (int)cpu;
			r.root = !strncmp(qpath, " path=/ ", 8);
			r.util = (uint32_t)util;
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
static int read_trace(const char *path, struct text_lists *tl, struct rec **out, size_t *nout)
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
			x.next_fair = x.next_pid > 0 && ev.u.sched_switch.next_prio >= 100;
			x.prev_dead = ev.u.sched_switch.prev_run == TRACE_STATE_DEAD;
		} else if (ev.type == TRACE_EV_SCHED_MIGRATE_TASK) {
			x.kind = REC_MIGRATE;
			x.pid = ev.u.migrate.pid;
			x.fair = ev.u.migrate.prio >= 100;
			x.orig_cpu = ev.u.migrate.orig_cpu;
			x.dest_cpu = ev.u.migrate.dest_cpu;
		} else if (ev.type == TRACE_EV_OTHER && !strcmp(ev.name, "sched_load_se")) {
			x.kind = REC_LOAD_SE;
			l = &tl->load;
		} else if (ev.type == TRACE_EV_OTHER && !strcmp(ev.name, "cpu_frequency")) {
			x.kind = REC_FREQ;
			l = &tl->freq;
		} else if (ev.type == TRACE_EV_OTHER && !strcmp(ev.name, "sched_load_cfs_rq")) {
			x.kind = REC_CFS_RQ;
			l = &tl->cfs;
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
			x.root = t->root;
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
	if (tl->load.next != tl->load.n || tl->freq.next != tl->freq.n ||
	    tl->cfs.next != tl->cfs.n) {
		free(v);
		return die("the text has more sched_load_se/_cfs_rq/cpu_frequency lines than the trace ",
			   path);
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
 * Bring the util signal @sa (a task's or a cfs_rq's, on @cpu) to @now.
 * Running: the model's contribution (contrib << 10) is replaced by 4.11's
 * cap_scale(contrib, scale_freq) * scale_cpu; *@unknown_freq is set if the
 * CPU's frequency is not known yet.  Returns 1 if a period boundary was
 * crossed (util_avg recomputed), as ___update_load_sum() does.
 */
static int advance_sa(struct sched_avg *sa, bool running, int cpu, bool *unknown_freq,
		      uint64_t now, const struct config *c, const struct platform *pl,
		      const uint32_t *cur_freq)
{
	uint32_t freq = cpu >= 0 && cpu < pl->nr_cpus ? cur_freq[cpu] : 0;
	struct sched_avg run = *sa;
	int decayed = ___update_load_sum(now, sa, 1, 0, 0);

	if (running) {
		uint32_t contrib, sf = CAPACITY_SCALE, sc = CAPACITY_SCALE;

		___update_load_sum(now, &run, 1, 0, 1);
		contrib = (run.util_sum - sa->util_sum) >> 10;
		if (!freq)
			*unknown_freq = true;
		else if (c->freq_inv)
			sf = (uint32_t)(((uint64_t)freq << 10) / pl->max_freq[cpu]);
		if (c->cpu_inv && cpu >= 0 && cpu < pl->nr_cpus)
			sc = pl->capacity[cpu];
		sa->util_sum += ((contrib * sf) >> 10) * sc;
	}
	if (decayed)
		___update_load_avg_div(sa, 1, divider(c, sa));
	return decayed;
}

static int advance(struct task *t, uint64_t now, const struct config *c,
		   const struct platform *pl, const uint32_t *cur_freq)
{
	return advance_sa(&t->sa, t->running, t->cpu, &t->unknown_freq, now, c, pl, cur_freq);
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

/*
 * The period_contrib of a signal started at @ts so that a period boundary
 * falls at @align_ts: the model counts whole 1024 ns units from @ts, so the
 * boundary falls there when the units to it complete a period.  0 (a
 * boundary at @ts) if @align_ts is before @ts.
 */
/*
 * One comparison's error @e (model - traced, util units) into @f and @err[]:
 * its magnitude returned.  mean_signed holds the sum until fig_finish().
 */
static double fig_add(struct figures *f, double *err, double e)
{
	f->mean_signed += e;
	if (e < 0)
		e = -e;
	err[f->n++] = e;
	f->within1 += e <= 1024 * 0.01;
	f->exact += e == 0;
	return e;
}

/* @f's median, p95 and mean from its @err[] (sorted here) and sum */
static void fig_finish(struct figures *f, double *err)
{
	qsort(err, f->n, sizeof(*err), cmp_double);
	f->median = rank(err, f->n, 0.5);
	f->p95 = rank(err, f->n, 0.95);
	f->mean_signed = f->n ? f->mean_signed / (double)f->n : 0;
}

static uint32_t start_contrib(uint64_t align_ts, uint64_t ts)
{
	if (align_ts < ts)
		return 0;
	return (uint32_t)((1024 - ((align_ts - ts) >> 10) % 1024) % 1024);
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
	case REC_CFS_RQ:
	case REC_MIGRATE:
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
		t->sa.period_contrib = start_contrib(s->align_ts, r->ts);
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
		e = fig_add(fig, err, e);
		if (e > fig->max) {
			fig->max = e;
			fig->max_pid = r->pid;
			fig->max_ts = r->ts;
		}
		if (r->cpu != r->se_cpu) {
			fig->remote++;
			if (e > fig->remote_max)
				fig->remote_max = e;
		} else if (e > fig->local_max) {
			fig->local_max = e;
		}
		fig->decayed_here += decayed != 0;
	}
	fig->anchors = s.anchors;
	fig_finish(fig, err);
	free(s.tasks);
	free(err);
	return 0;
}

/*
 * The queue check (--root-cfs-rq): each CPU's root cfs_rq util_avg against
 * its sched_load_cfs_rq path=/ values.
 *
 * The queue's own signal runs while a fair task (prio >= 100) runs on the
 * CPU - the root's curr is that task or its autogroup's entity - with 4.11's
 * invariance as for a task (advance_sa()), and decays while the CPU idles or
 * runs an RT task.  Entities come and go as in 4.11's fair.c:
 *   - a migration (sched_migrate_task) of a fair task: 4.11's
 *     migrate_task_rq_fair() calls remove_entity_load_avg() for every
 *     migration, so the task's util is added to the old queue's
 *     removed_util_avg and subtracted (util_avg - r, util_sum - r *
 *     divider) at that queue's next update_cfs_rq_load_avg(), taken here as
 *     its next traced value or switch with a fair task on either side; on
 *     the new CPU attach_entity_load_avg() adds the task's util_avg and
 *     util_sum at its enqueue (the first update traced after the migration);
 *   - an exit (prev_state X): task_dead_fair() -> remove_entity_load_avg();
 *   - the task's util at a move is the task pass's model (run_tasks_for_
 *     queues(): the per-task replay above, 4.11 configuration); a task whose
 *     util the model does not know makes the queue start again.
 * A grouped task's attach, detach and removal reach the root through its
 * group entity (4.11's propagate_entity_load_avg() -> update_tg_cfs_util():
 * the root gains the group's util change); the check adds the task's own
 * util to the root directly (the group entity's util drifts from its
 * queue's between propagations; a residual).  Forks (no fork events here:
 * post_init_entity_util_avg() attaches an unknown util) and the detach and
 * attach of sched_autogroup_exit_task() are not in the trace.
 *
 * One kernel update can trace several values (the decay, then an attach or
 * a propagation, 2-7 us apart): only the last value of a burst (values of
 * the queue less than QUEUE_BURST_NS apart) is compared, the state the
 * update left.  A queue starts (util_sum in the middle of the sums that give
 * the traced util_avg) at its first burst after its CPU's first switch, and
 * again after a move of unknown util or running at an unknown frequency.
 */
#define QUEUE_BURST_NS 12000

struct queue {
	bool running_known, running, anchored, restart, unknown_freq;
	struct sched_avg sa;
	uint64_t removed;              /* removed_util_avg */
	uint64_t attach_avg, attach_sum;
	size_t anchors, restarts;
};

struct queue_cmp {
	size_t idx;                    /* the traced value's record */
	unsigned long util;            /* the model's */
};

/*
 * The trace has no fork events, and a fork attaches an unknown util
 * (post_init_entity_util_avg()).  A task first seen (any record) with a pid
 * above every pid seen before is taken as a fork child of the task running
 * on the CPU that wrote that record: the root values that CPU wrote since
 * the parent's switch-in are not compared, each is a start (in this trace:
 * the sudo/sh/busybox chain, 3104-3107).
 */
static int mark_forks(struct rec *recs, size_t nrec, int32_t max_pid)
{
	bool *seen = calloc((size_t)max_pid + 1, sizeof(*seen));
	size_t since[MAX_CPUS] = { 0 }, i, j;
	int32_t top = 0;

	if (!seen)
		return die("out of memory", "");
	for (i = 0; i < nrec; i++) {
		struct rec *r = &recs[i];
		int32_t p[2] = { -1, -1 };
		int k;

		if (r->cpu < 0 || r->cpu >= MAX_CPUS)
			continue;
		if (r->kind == REC_SWITCH) {
			p[0] = r->prev_pid;
			p[1] = r->next_pid;
		} else if (r->kind == REC_LOAD_SE || r->kind == REC_MIGRATE) {
			p[0] = r->pid;
		}
		for (k = 0; k < 2; k++) {
			if (p[k] <= 0 || seen[p[k]])
				continue;
			seen[p[k]] = true;
			if (p[k] < top)
				continue;
			top = p[k];
			for (j = since[r->cpu]; j < i; j++)
				if (recs[j].kind == REC_CFS_RQ && recs[j].root &&
				    recs[j].se_cpu == r->cpu)
					recs[j].fork_attach = true;
		}
		if (r->kind == REC_SWITCH)
			since[r->cpu] = i;
	}
	free(seen);
	return 0;
}

/* The task pass: each move's util (REC_MIGRATE, a dead prev), and burst_last. */
static int run_tasks_for_queues(const struct config *c, struct rec *recs, size_t nrec,
				const struct platform *pl, int32_t max_pid)
{
	struct sim s = { .only = 0 };
	uint64_t next_ts[MAX_CPUS];
	size_t i;

	s.tasks = calloc((size_t)max_pid + 1, sizeof(*s.tasks));
	if (!s.tasks)
		return die("out of memory", "");
	for (i = 0; i < nrec; i++) {
		struct rec *r = &recs[i];
		struct task *t = NULL;
		unsigned long util;
		int decayed;

		sim_step(&s, r, c, pl, &util, &decayed);
		r->move_known = r->fork_attach = false;   /* another configuration's */
		if (r->kind == REC_MIGRATE && r->pid > 0)
			t = &s.tasks[r->pid];
		else if (r->kind == REC_SWITCH && r->prev_dead && r->prev_pid > 0)
			t = &s.tasks[r->prev_pid];
		if (!t || !t->anchored)
			continue;
		advance(t, r->ts, c, pl, s.cur_freq);
		r->move_known = !t->unknown_freq;
		r->move_sum = t->sa.util_sum;
		r->move_avg = t->sa.util_sum / divider(c, &t->sa);
	}
	free(s.tasks);
	for (i = 0; i < MAX_CPUS; i++)
		next_ts[i] = UINT64_MAX;
	for (i = nrec; i-- > 0;) {
		struct rec *r = &recs[i];

		if (r->kind != REC_CFS_RQ || !r->root || r->se_cpu < 0 || r->se_cpu >= MAX_CPUS)
			continue;
		r->burst_last = next_ts[r->se_cpu] - r->ts >= QUEUE_BURST_NS;
		next_ts[r->se_cpu] = r->ts;
	}
	return mark_forks(recs, nrec, max_pid);
}

/* 4.11's update_cfs_rq_load_avg(): the removed util goes before the decay. */
static void queue_apply_removed(struct queue *q, const struct config *c)
{
	uint64_t r = q->removed, rs = r * divider(c, &q->sa);

	q->sa.util_avg = q->sa.util_avg > r ? q->sa.util_avg - r : 0;
	q->sa.util_sum = q->sa.util_sum > rs ? (uint32_t)(q->sa.util_sum - rs) : 0;
	q->removed = 0;
}

/*
 * Replay @cpu's root queue over records 0..@stop; each compared value into
 * @out (room for @stop + 1), their number into *@nout.  A start puts a
 * period boundary at @align_ts when it is later (see start_contrib()).
 */
static void queue_run(const struct config *c, const struct rec *recs, size_t stop,
		      const struct platform *pl, int cpu, uint64_t align_ts, struct queue *q,
		      struct queue_cmp *out, size_t *nout)
{
	uint32_t cur_freq[MAX_CPUS] = { 0 };
	size_t i;

	memset(q, 0, sizeof(*q));
	*nout = 0;
	for (i = 0; i <= stop; i++) {
		const struct rec *r = &recs[i];

		switch (r->kind) {
		case REC_FREQ:
			cur_freq[r->cpu] = r->freq;
			break;
		case REC_LOAD_SE:
			break;
		case REC_SWITCH:
			if (r->cpu != cpu)
				break;
			if (q->anchored) {
				if (q->running || r->next_fair)
					queue_apply_removed(q, c);
				advance_sa(&q->sa, q->running, cpu, &q->unknown_freq, r->ts, c, pl,
					   cur_freq);
			}
			if (r->prev_dead && q->running) {
				if (r->move_known)
					q->removed += r->move_avg;
				else
					q->restart = true;
			}
			q->running_known = true;
			q->running = r->next_fair;
			break;
		case REC_MIGRATE:
			if (!r->fair || r->pid <= 0 || (r->orig_cpu != cpu && r->dest_cpu != cpu))
				break;
			if (!r->move_known) {
				q->restart = true;
			} else if (r->orig_cpu == cpu) {
				q->removed += r->move_avg;
			} else {
				q->attach_avg += r->move_avg;
				q->attach_sum += r->move_sum;
			}
			break;
		case REC_CFS_RQ:
			if (!r->root || r->se_cpu != cpu || !q->running_known)
				break;
			if (q->anchored && !q->restart) {
				queue_apply_removed(q, c);
				advance_sa(&q->sa, q->running, cpu, &q->unknown_freq, r->ts, c, pl,
					   cur_freq);
			}
			if (!r->burst_last)
				break;
			if (!q->anchored || q->restart || q->unknown_freq || r->fork_attach) {
				q->anchors++;
				q->restarts += q->anchored;
				memset(&q->sa, 0, sizeof(q->sa));
				q->sa.last_update_time = r->ts;
				q->sa.period_contrib = start_contrib(align_ts, r->ts);
				q->sa.util_sum = (uint32_t)(r->util * divider(c, &q->sa) +
							    divider(c, &q->sa) / 2);
				q->sa.util_avg = r->util;
				q->anchored = true;
				q->restart = q->unknown_freq = false;
				q->removed = q->attach_avg = q->attach_sum = 0;
				break;
			}
			/* 4.11's attach_entity_load_avg(): the se's sums as they are */
			q->sa.util_sum += (uint32_t)q->attach_sum;
			q->sa.util_avg += q->attach_avg;
			q->attach_avg = q->attach_sum = 0;
			out[*nout].idx = i;
			out[(*nout)++].util = q->sa.util_sum / divider(c, &q->sa);
			break;
		}
	}
}

/* Every CPU's root queue; the errors at the traced values, on the kernel's grid if @aligned. */
static int run_queues(const struct config *c, bool aligned, const struct rec *recs, size_t nrec,
		      const struct platform *pl, bool verbose, struct figures *fig)
{
	struct queue_cmp *cmp = calloc(nrec + 1, sizeof(*cmp)), *one = calloc(nrec + 1, sizeof(*one));
	double *err = calloc(nrec + 1, sizeof(*err));
	int cpu;

	if (!cmp || !one || !err) {
		free(cmp);
		free(one);
		free(err);
		return die("out of memory", "");
	}
	memset(fig, 0, sizeof(*fig));
	for (cpu = 0; cpu < pl->nr_cpus; cpu++) {
		struct queue q;
		size_t n, k;

		queue_run(c, recs, nrec - 1, pl, cpu, 0, &q, cmp, &n);
		fig->anchors += q.anchors;
		fig->remote += q.restarts;
		for (k = 0; k < n; k++) {
			const struct rec *r = &recs[cmp[k].idx];
			unsigned long util = cmp[k].util;
			double e;

			if (aligned) {
				struct queue qa;
				size_t na;

				queue_run(c, recs, cmp[k].idx, pl, cpu, r->ts, &qa, one, &na);
				if (!na || one[na - 1].idx != cmp[k].idx) {
					free(cmp);
					free(one);
					free(err);
					return die("an aligned queue replay did not reach its comparison",
						   "");
				}
				util = one[na - 1].util;
			}
			e = (double)util - (double)r->util;
			if (verbose)
				printf("  %" PRIu64 " cpu %d root: traced %u model %lu (%+.0f)\n", r->ts,
				       cpu, r->util, util, e);
			e = fig_add(fig, err, e);
			if (e > fig->max) {
				fig->max = e;
				fig->max_pid = cpu;
				fig->max_ts = r->ts;
			}
		}
	}
	fig_finish(fig, err);
	free(cmp);
	free(one);
	free(err);
	return 0;
}

static bool below_limits(const struct figures *f, double min_within1, double max_p95,
			 double max_median)
{
	if (100.0 * (double)f->within1 / (double)f->n >= min_within1 && f->p95 <= max_p95 &&
	    f->median <= max_median)
		return false;
	fprintf(stderr, "pelt_external: FAIL: 4.11 agreement below the limits (within 1 %%: "
		"%.1f %% < %.1f %%, p95 %.1f > %.1f or median %.1f > %.1f)\n",
		100.0 * (double)f->within1 / (double)f->n, min_within1, f->p95, max_p95, f->median,
		max_median);
	return true;
}

/* --root-cfs-rq: the queue check's table; the limits apply to its first row. */
static int main_queues(struct rec *recs, size_t nrec, const struct platform *pl,
		       int32_t max_pid, bool verbose, double min_within1, double max_p95,
		       double max_median)
{
	struct figures fig0 = { 0 };
	size_t i, n_root = 0;
	int m;

	for (i = 0; i < nrec; i++)
		n_root += recs[i].kind == REC_CFS_RQ && recs[i].root;
	printf("root cfs_rq values %zu; one comparison per update (the last value of a burst, "
	       "values < %d us apart)\n", n_root, QUEUE_BURST_NS / 1000);
	printf("%-44s %5s %7s %6s %6s %6s %7s %6s %7s %8s\n", "configuration", "n", "median",
	       "p95", "max", "bias", "<=1%", "exact", "starts", "restarts");
	for (m = 0; m < 2; m++) {
		printf("%s\n", m == 0 ? "boundary at each traced value (the kernel's phase):" :
		       "the model's own phase (started on a boundary):");
		for (i = 0; i < NR_CONFIGS; i++) {
			struct figures f;

			if (verbose)
				printf("%s:\n", configs[i].name);
			if (run_tasks_for_queues(&configs[i], recs, nrec, pl, max_pid) ||
			    run_queues(&configs[i], m == 0, recs, nrec, pl, verbose, &f))
				return 1;
			printf("%-44s %5zu %7.1f %6.1f %6.1f %+6.2f %6.1f%% %6zu %7zu %8zu\n",
			       configs[i].name, f.n, f.median, f.p95, f.max, f.mean_signed,
			       f.n ? 100.0 * (double)f.within1 / (double)f.n : 0, f.exact,
			       f.anchors, f.remote);
			if (i == 0 && m == 0)
				fig0 = f;
		}
	}
	printf("largest error (4.11): %.0f, cpu %d at %" PRIu64 " ns\n", fig0.max, fig0.max_pid,
	       fig0.max_ts);
	if (!fig0.n)
		return die("no root cfs_rq comparison", "");
	return below_limits(&fig0, min_within1, max_p95, max_median) ? 1 : 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: pelt_external TRACE.dat REPORT.txt PLATFORM.json [--root-cfs-rq]"
		" [--min-within1 PCT] [--max-p95 U] [--max-median U] [--verbose]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct text_lists tl = { 0 };
	double min_within1 = 0, max_p95 = 1e9, max_median = 1e9;
	struct platform pl;
	struct figures fig0 = { 0 };
	struct rec *recs = NULL;
	size_t nrec = 0, i;
	int32_t max_pid = 0;
	bool verbose = false, queues = false;
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
		if (!strcmp(argv[a], "--root-cfs-rq")) {
			queues = true;
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
	if (read_platform(argv[3], &pl) || read_report(argv[2], &tl) ||
	    read_trace(argv[1], &tl, &recs, &nrec)) {
		rc = 1;
		goto out;
	}
	for (i = 0; i < nrec; i++) {
		int32_t p = recs[i].kind == REC_SWITCH ?
			(recs[i].prev_pid > recs[i].next_pid ? recs[i].prev_pid : recs[i].next_pid) :
			recs[i].pid;

		if (p > max_pid)
			max_pid = p;
		if ((recs[i].kind == REC_FREQ && recs[i].cpu >= pl.nr_cpus) ||
		    (recs[i].kind == REC_CFS_RQ && (recs[i].se_cpu < 0 ||
						    recs[i].se_cpu >= pl.nr_cpus))) {
			rc = die("cpu_frequency or sched_load_cfs_rq of a CPU platform.json does not "
				 "have: ", argv[2]);
			goto out;
		}
	}
	printf("sched_load_se records %zu, sched_load_cfs_rq %zu, cpu_frequency %zu (joined with "
	       "the reader's stream)\n", tl.load.n, tl.cfs.n, tl.freq.n);
	if (queues) {
		rc = main_queues(recs, nrec, &pl, max_pid, verbose, min_within1, max_p95, max_median);
		goto out;
	}
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
	} else if (below_limits(&fig0, min_within1, max_p95, max_median)) {
		rc = 1;
	}
out:
	free(recs);
	free(tl.load.v);
	free(tl.freq.v);
	free(tl.cfs.v);
	return rc;
}
