// SPDX-License-Identifier: GPL-2.0
/*
 * The wakeup-latency state machine and per-task statistics: see latency.h
 * for the definitions. The per-task state mirrors what the kernel knows of a
 * task at each event: on a CPU (the rq's curr), runnable but waiting (queued
 * after a preemption), or blocked with or without a pending wakeup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <schedreplay/latency.h>

/* ---- small maps ------------------------------------------------------------ */

struct pid_map {
	int32_t *keys;
	void **vals;
	size_t cap, n;                 /* cap: power of two; key INT32_MIN = empty */
};

static inline size_t pid_hash(int32_t pid, size_t cap)
{
	return ((uint32_t)pid * 2654435761u) & (cap - 1);
}

static inline void *pid_map_get(const struct pid_map *m, int32_t pid)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = pid_hash(pid, m->cap);
	while (m->keys[i] != INT32_MIN) {
		if (m->keys[i] == pid)
			return m->vals[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

static int pid_map_grow(struct pid_map *m)
{
	struct pid_map n = { 0 };

	/*
	 * 128 slots first, doubled at half full: the map is probed for most
	 * events, and 1,024 slots (12 KiB for a hundred tasks) spread its
	 * entries over lines the streamed trace data keeps evicting.
	 */
	n.cap = m->cap ? m->cap * 2 : 128;
	n.keys = malloc(n.cap * sizeof(*n.keys));
	n.vals = calloc(n.cap, sizeof(*n.vals));
	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return -1;
	}
	for (size_t i = 0; i < n.cap; i++)
		n.keys[i] = INT32_MIN;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->keys[i] == INT32_MIN)
			continue;
		size_t j = pid_hash(m->keys[i], n.cap);

		while (n.keys[j] != INT32_MIN)
			j = (j + 1) & (n.cap - 1);
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
	}
	n.n = m->n;
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

static int pid_map_put(struct pid_map *m, int32_t pid, void *v)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap && pid_map_grow(m))
		return -1;
	i = pid_hash(pid, m->cap);
	while (m->keys[i] != INT32_MIN && m->keys[i] != pid)
		i = (i + 1) & (m->cap - 1);
	if (m->keys[i] == INT32_MIN) {
		m->keys[i] = pid;
		m->n++;
	}
	m->vals[i] = v;
	return 0;
}

static void pid_map_free(struct pid_map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* String -> value map; keys are owned, values are whatever the user says. */
struct str_map {
	char **keys;
	void **vals;
	size_t cap, n;
	void **order;                  /* values in insertion order */
};

static size_t str_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;  /* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
	return (size_t)h;
}

static int str_map_grow(struct str_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	char **keys = calloc(cap, sizeof(*keys));
	void **vals = calloc(cap, sizeof(*vals));
	void **order = realloc(m->order, cap * sizeof(*order));

	if (!keys || !vals || !order) {
		free(keys);
		free(vals);
		if (order)
			m->order = order;
		return -1;
	}
	m->order = order;
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = str_hash(m->keys[i], strlen(m->keys[i])) & (cap - 1);

		while (keys[j])
			j = (j + 1) & (cap - 1);
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

/* The value of the @len bytes at @s, or NULL */
static void *str_map_find(const struct str_map *m, const char *s, size_t len)
{
	if (m->cap)
		for (size_t i = str_hash(s, len) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
			if (!strncmp(m->keys[i], s, len) && m->keys[i][len] == '\0')
				return m->vals[i];
	return NULL;
}

/* Find @s[0..len) ; with @make, insert it with make(key) as value. */
static void *str_map_get(struct str_map *m, const char *s, size_t len,
			 void *(*make)(const char *key, void *ctx), void *ctx)
{
	void *v = str_map_find(m, s, len);
	size_t i;

	if (v || !make)
		return v;
	if ((m->n + 1) * 2 > m->cap && str_map_grow(m))
		return NULL;
	i = str_hash(s, len) & (m->cap - 1);
	while (m->keys[i])
		i = (i + 1) & (m->cap - 1);
	m->keys[i] = strndup(s, len);
	if (!m->keys[i])
		return NULL;
	m->vals[i] = make(m->keys[i], ctx);
	if (!m->vals[i]) {
		free(m->keys[i]);
		m->keys[i] = NULL;
		return NULL;
	}
	m->order[m->n++] = m->vals[i];
	return m->vals[i];
}

static void str_map_free(struct str_map *m, void (*free_val)(void *))
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		if (free_val)
			free_val(m->vals[i]);
		free(m->keys[i]);
	}
	free(m->keys);
	free(m->vals);
	free(m->order);
	memset(m, 0, sizeof(*m));
}

static void *intern_make(const char *key, void *ctx)
{
	(void)ctx;
	return (void *)key;
}

static void *group_make(const char *key, void *ctx)
{
	struct lat_group *g = calloc(1, sizeof(*g));

	(void)ctx;
	if (g) {
		g->key = key;
		for (int k = 0; k < LAT_NR_KINDS; k++)
			sr_hist_init(&g->lat[k]);
	}
	return g;
}

static void group_free(void *p)
{
	struct lat_group *g = p;

	for (int k = 0; k < LAT_NR_KINDS; k++)
		sr_hist_release(&g->lat[k]);
	if (g->path_lat)
		for (int i = 0; i < LAT_PATH_NR; i++)
			sr_hist_release(&g->path_lat[i]);
	free(g->path_lat);
	free(g);
}

/* ---- machine --------------------------------------------------------------- */

/*
 * The machine's state of the task first, then its public part: an event
 * naming the task reads or writes both the state and the first fields of
 * lat_task (pid, comm, last_ts, the run-time counters), which then share two
 * or three cache lines; after lat_task, whose two histograms come last, the
 * state was three lines away from them.
 */
struct task {
	int on_cpu;                    /* -1: not on a CPU (as far as known) */
	bool dead;
	bool pending;                  /* a wakeup interval is open */
	bool muted;                    /* ... and ends with no sample (lat_machine_mute_pending()) */
	uint8_t wake_ev;               /* enum trace_event_type that opened it */
	bool runnable;                 /* preempted, waiting to run again */
	bool exiting;                  /* its sched_process_exit seen */
	bool left_open;                /* in lat_machine.open: LAT_LOST_OTHER, undecided */
	uint64_t wake_ts, runnable_ts, run_start;
	/*
	 * On a CPU: its first sched_waking since its last event there (0:
	 * none; one at or before that event is stale: start_interval()
	 * replaces it), which started nothing; it starts the interval if the
	 * task turns out to have left the CPU untraced before it
	 * (lost_switch()).  A sched_wakeup onto that CPU does not clear it:
	 * a task that blocked is as often woken back where it was.
	 */
	uint64_t run_waking_ts;
	/*
	 * With infer_lost_switches: its last sched_stat_runtime since its
	 * last sched_switch (0: none) on any CPU, and the exec_start the
	 * chain of such events it closes counts from (stat_chain()); the
	 * CPU + 1 of the chain's last event in its own context (0: none).
	 */
	uint64_t stat_ts, stat_from;
	int stat_cpu1;
	/*
	 * The by-comm group of the task's last sample and that sample's comm
	 * (NUL-padded): a task's samples nearly always carry one comm, and a
	 * 16-byte compare replaces strlen(), the hash and strncmp() of the
	 * group map per sample (1.2 M of the 48 M instructions of the report
	 * of 1 s of hackbench).
	 */
	struct lat_group *comm_group;
	char comm_group_key[TRACE_COMM_LEN];
	/*
	 * The by-cgroup group of the task's last sample and that sample's
	 * cgroup path: the machine's interned string (intern(); kept until the
	 * machine is freed, one per path) or the "(unknown)" literal, so a
	 * pointer compare replaces strlen(), the hash and strncmp() of the
	 * path per sample (7.6 M of the 470 M instructions of a replay of
	 * hackbench-shares).
	 */
	const char *cg_group_key;
	struct lat_group *cg_group;
	/*
	 * The by-comm groups its samples went to (those the filter passed)
	 * and how many of each kind: samples are grouped by the comm at the
	 * sample time, so a task renamed A -> B -> C may have samples under
	 * each (lat_task_comm_next()).  tallies[tally_last] is the last
	 * sample's: nearly always the next one's too.  After pub: the
	 * fields the per-event path reads keep their offsets (and cache
	 * lines) of before the tallies.
	 */
	struct lat_task pub;
	struct comm_tally *tallies;
	uint32_t nr_tallies, tally_last;
	/*
	 * The open wakeup interval's path (enum lat_path, wake_path()): the
	 * waker's CPU, the target CPU (-1: not known yet, till the
	 * sched_wakeup after a sched_waking), the target's current task at the
	 * wakeup (0: idle, -1: not known) and its switch count then
	 * (cpu_state.nsw); a sched_wakeup_new's.
	 */
	int wk_cpu, wk_target;
	int32_t wk_curr;
	uint64_t wk_nsw;
	bool wk_new;
	/*
	 * Its thread group as far as the sidecar, the forks and the execs
	 * tell (exchange_possible()): whether it is its group's leader (enum
	 * task_grp), the tgid it has if it is not (0: not known), the task
	 * that forked it in the trace (NULL: none seen; kept, as every task,
	 * till lat_machine_free()), and its sched_process_exit's group_dead
	 * (-1: none seen, or a kernel whose format has no such field).
	 */
	struct task *fork_parent;
	int32_t thread_tgid;
	int8_t grp;
	int8_t exit_group_dead;
};

/* struct task.grp */
enum task_grp {
	TASK_GRP_UNKNOWN,
	TASK_GRP_LEADER,       /* tgid == pid */
	TASK_GRP_THREAD,       /* tgid != pid: thread_tgid */
};

struct comm_tally {
	const struct lat_group *g;
	uint64_t n[LAT_NR_KINDS];
};

struct cpu_state {
	int32_t curr;
	/*
	 * The task last switched in (or guessed) here, a hint for get_task():
	 * a CPU's sched_stat_runtime and its next switch out name its current
	 * task, so two of every three look-ups need no hash probe (and touch
	 * neither of the map's arrays). Used only after checking its pid and
	 * that it is alive, which makes it the live task of that pid.
	 */
	struct task *curr_t;
	bool known;                    /* curr from a sched_switch */
	bool guessed;                  /* curr from common_pid before any switch */
	bool seen;
	bool was_known;                /* curr known (or guessed) at some point */
	bool last_remote;              /* last is a remote sched_stat_runtime's */
	uint64_t first_ts;
	/*
	 * With infer_lost_switches: curr's last event here (in its context,
	 * its switch-in, or a sched_stat_runtime of it on another CPU).
	 */
	uint64_t last;
	/*
	 * Switches here so far: the traced ones, and each change of the
	 * current task the stream shows without one (an inferred untraced
	 * switch, a missing switch out, a new guess): wake_path()'s count of
	 * the switches ahead of a wakee.
	 */
	uint64_t nsw;
};

/*
 * A switch of LAT_LOST_OTHER not reported yet: whether the task blocked or
 * was preempted is decided by its next event (left_close()), and its time
 * is bounded by the next task's first sched_stat_runtime there (left_stamp()).
 */
struct left_switch {
	struct lat_lost_switch ls;     /* .ts: the best bound so far */
	int32_t next;                  /* the task whose event revealed it */
	bool frozen;                   /* a switch on the CPU since: .ts is final */
};

/*
 * A task preempted after its sched_process_exit (do_exit() goes on past
 * exit_notify(), which may free its pid): queued on @cpu (its preemption's
 * CPU, or a migration's destination), it runs again to its last switch,
 * even when a fork has taken its pid meanwhile (old_named()).
 */
struct old_queued {
	struct task *t;
	int cpu;
};

struct prov_sample {
	struct task *task;
	char comm[TRACE_COMM_LEN];
	const char *cgroup;
	int cpu;
	uint64_t start_ts, end_ts;
	enum lat_path path;
};

struct lat_machine {
	struct lat_config cfg;
	size_t comm_prefix_len;
	enum lat_start_mode mode;      /* AUTO until decided */
	struct lat_summary sum;
	struct task **tasks;
	size_t nr_tasks, tasks_cap;
	struct pid_map live;           /* pid -> latest struct task */
	struct pid_map cg_seed;        /* pid -> interned path, before a task exists */
	struct pid_map tg_seed;        /* pid -> its tgid at the start (lat_tgid_seed()) */
	struct str_map cgroups;        /* interned paths */
	struct str_map groups[LAT_NR_KEYS];
	/*
	 * The total distribution, built at lat_machine_finish() (build_all()),
	 * and the sum of its samples, kept as they come.
	 */
	struct sr_hist all[LAT_NR_KINDS];
	struct sr_sum all_sum[LAT_NR_KINDS];
	uint64_t all_over_long[LAT_NR_KINDS];  /* built with all[] */
	uint64_t all_paths[LAT_PATH_NR];       /* built with all[] */
	struct sr_hist path_lat[LAT_PATH_NR];  /* lat_config.path_latency: all's wakeups by path */
	/*
	 * The task whose sched_waking last opened an interval: its
	 * sched_wakeup, nearly always the next wake event, gives the target
	 * (on_wakeup()) without a hash probe (one per sched_wakeup was 1 % of
	 * the report's instructions).  Reset when a task is created, so that
	 * it is the live task of its pid.
	 */
	struct task *waking_t;
	/*
	 * LAT_START_WAKEUP: the pid and CPU of the last sched_waking (0: none
	 * since the last interval start), the waker's CPU of the sched_wakeup
	 * that follows it (a simulated stream has both; in a trace with both
	 * the sched_wakeup may be on the target CPU, a wake-list wakeup).
	 */
	int32_t waking_pid;
	int waking_cpu;
	struct cpu_state *cpus;
	int nr_cpus;
	struct prov_sample *prov;
	size_t nr_prov;
	struct left_switch *open;      /* few: the tasks that left untraced, undecided */
	size_t nr_open, open_cap;
	struct old_queued *oldq;       /* few: exiting tasks preempted, to run again */
	size_t nr_oldq, oldq_cap;
	bool finished;
	bool oom;
};

void lat_config_default(struct lat_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->start_mode = LAT_START_AUTO;
	cfg->group_by[LAT_BY_COMM] = true;
	cfg->pid = -1;
	cfg->cgroup_root = -1;
}

struct lat_machine *lat_machine_new(const struct lat_config *cfg, struct sr_error *err)
{
	struct lat_machine *m = calloc(1, sizeof(*m));

	if (!m) {
		sr_error_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	if (cfg)
		m->cfg = *cfg;
	else
		lat_config_default(&m->cfg);
	m->cfg.group_by[LAT_BY_COMM] = true;
	m->comm_prefix_len = m->cfg.comm_prefix ? strlen(m->cfg.comm_prefix) : 0;
	m->mode = m->cfg.start_mode;
	m->sum.start_decided_by_stream = m->mode == LAT_START_AUTO;
	m->sum.start_event = m->mode == LAT_START_WAKEUP ? TRACE_EV_SCHED_WAKEUP :
		TRACE_EV_SCHED_WAKING;
	for (int k = 0; k < LAT_NR_KINDS; k++)
		sr_hist_init(&m->all[k]);
	for (int p = 0; p < LAT_PATH_NR; p++)
		sr_hist_init(&m->path_lat[p]);
	return m;
}

void lat_machine_free(struct lat_machine *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_tasks; i++) {
		for (int k = 0; k < LAT_NR_KINDS; k++)
			sr_hist_release(&m->tasks[i]->pub.lat[k]);
		free(m->tasks[i]->tallies);
		free(m->tasks[i]);
	}
	free(m->tasks);
	pid_map_free(&m->live);
	pid_map_free(&m->cg_seed);
	pid_map_free(&m->tg_seed);
	for (int k = 0; k < LAT_NR_KEYS; k++)
		str_map_free(&m->groups[k], group_free);
	str_map_free(&m->cgroups, NULL);
	for (int k = 0; k < LAT_NR_KINDS; k++)
		sr_hist_release(&m->all[k]);
	for (int p = 0; p < LAT_PATH_NR; p++)
		sr_hist_release(&m->path_lat[p]);
	free(m->cpus);
	free(m->prov);
	free(m->open);
	free(m->oldq);
	free(m);
}

static const char *intern(struct lat_machine *m, const char *s, size_t len)
{
	const char *p = str_map_get(&m->cgroups, s, len, intern_make, NULL);

	if (!p)
		m->oom = true;
	return p;
}

int lat_cgroup_seed(struct lat_machine *m, int32_t pid, const char *path)
{
	const char *p = intern(m, path, strlen(path));
	struct task *t;

	if (!p || pid_map_put(&m->cg_seed, pid, (void *)p))
		return -1;
	t = pid_map_get(&m->live, pid);
	if (t && !t->dead)
		t->pub.cgroup = p;
	return 0;
}

/* what the start's tgid @tgid says of a task of @pid */
static void task_grp_seed(struct task *t, int32_t pid, int32_t tgid)
{
	t->grp = tgid == pid ? TASK_GRP_LEADER : TASK_GRP_THREAD;
	t->thread_tgid = tgid == pid ? 0 : tgid;
}

int lat_tgid_seed(struct lat_machine *m, int32_t pid, int32_t tgid)
{
	struct task *t;

	if (pid <= 0 || tgid <= 0)
		return 0;
	if (pid_map_put(&m->tg_seed, pid, (void *)(intptr_t)tgid))
		return -1;
	t = pid_map_get(&m->live, pid);
	if (t && !t->dead)
		task_grp_seed(t, pid, tgid);
	return 0;
}

/* lat_filter_match(), inlined into commit(): once per sample */
static inline bool filter_match(const struct lat_machine *m, const char *comm, int32_t pid)
{
	if (m->cfg.pid >= 0 && pid != m->cfg.pid)
		return false;
	if (m->comm_prefix_len && strncmp(comm, m->cfg.comm_prefix, m->comm_prefix_len))
		return false;
	return true;
}

bool lat_filter_match(const struct lat_machine *m, const char *comm, int32_t pid)
{
	return filter_match(m, comm, pid);
}

/* CPU @cpu's state, the array grown to hold it; NULL for a CPU beyond 65535. */
static struct cpu_state *grow_cpus(struct lat_machine *m, int cpu)
{
	int n = cpu + 1 > m->nr_cpus * 2 ? cpu + 1 : m->nr_cpus * 2;
	struct cpu_state *c;

	if (cpu < 0 || cpu > 65535)
		return NULL;
	c = realloc(m->cpus, (size_t)n * sizeof(*c));
	if (!c) {
		m->oom = true;
		return NULL;
	}
	memset(c + m->nr_cpus, 0, (size_t)(n - m->nr_cpus) * sizeof(*c));
	m->cpus = c;
	m->nr_cpus = n;
	return &m->cpus[cpu];
}

static inline struct cpu_state *get_cpu(struct lat_machine *m, int cpu)
{
	return (unsigned)cpu < (unsigned)m->nr_cpus ? &m->cpus[cpu] : grow_cpus(m, cpu);
}

static void task_kill(struct task *t)
{
	t->dead = true;
	t->on_cpu = -1;
	t->pending = false;
	t->runnable = false;
}

/* @t's last switch (X), traced or taken as traced: it exited (do_task_dead()) */
static void task_exit(struct task *t)
{
	t->pub.exited = true;
	task_kill(t);
}

/*
 * @t's run on its CPU ends at @ts: a switch out, traced or taken as traced
 * (switch_out(), and pid_exchange()'s dead leader, whose last switch was
 * not traced).
 */
static void run_end(struct task *t, uint64_t ts)
{
	t->pub.runtime_ns += ts > t->run_start ? ts - t->run_start : 0;
	t->on_cpu = -1;
	t->stat_ts = 0;                 /* a switch: the next run's chain is new */
}

/* A new task for @pid, replacing @old (NULL, or dead: the pid was reused). */
static __attribute__((noinline)) struct task *new_task(struct lat_machine *m, int32_t pid,
							 struct task *old, uint64_t ts)
{
	struct task *n = calloc(1, sizeof(*n));

	m->waking_t = NULL;
	if (!n)
		goto oom;
	if (m->nr_tasks == m->tasks_cap) {
		size_t cap = m->tasks_cap ? m->tasks_cap * 2 : 256;
		struct task **a = realloc(m->tasks, cap * sizeof(*a));

		if (!a) {
			free(n);
			goto oom;
		}
		m->tasks = a;
		m->tasks_cap = cap;
	}
	if (pid_map_put(&m->live, pid, n)) {
		free(n);
		goto oom;
	}
	if (old)
		old->pub.reused = true;
	n->pub.pid = pid;
	n->pub.first_ts = ts;
	n->pub.cgroup = pid_map_get(&m->cg_seed, pid);
	n->exit_group_dead = -1;
	if (!old) {     /* a reused pid's task is not the one the start saw */
		intptr_t tg = (intptr_t)pid_map_get(&m->tg_seed, pid);

		if (tg > 0)
			task_grp_seed(n, pid, (int32_t)tg);
	}
	for (int k = 0; k < LAT_NR_KINDS; k++)
		sr_hist_init(&n->pub.lat[k]);
	n->on_cpu = -1;
	m->tasks[m->nr_tasks++] = n;
	return n;
oom:
	m->oom = true;
	return NULL;
}

/*
 * The live task of @pid, created if the pid is new or its last task died
 * (pid reuse). @comm may be NULL. Inlined: one or two per event.
 */
static inline __attribute__((always_inline)) struct task *
get_task_hint(struct lat_machine *m, struct task *hint, int32_t pid, const char *comm,
	      uint64_t ts)
{
	/*
	 * A task is created (new_task()) only when the pid has none or a dead
	 * one, and never revives: the one task of @pid that is not dead is the
	 * map's.
	 */
	struct task *t = hint && hint->pub.pid == pid && !hint->dead ? hint :
		pid_map_get(&m->live, pid);

	if ((!t || t->dead) && !(t = new_task(m, pid, t, ts)))
		return NULL;
	if (comm && comm[0]) {
		memcpy(t->pub.comm, comm, TRACE_COMM_LEN);
		t->pub.comm[TRACE_COMM_LEN - 1] = '\0';
	}
	t->pub.last_ts = ts;
	return t;
}

static inline __attribute__((always_inline)) struct task *
get_task(struct lat_machine *m, int32_t pid, const char *comm, uint64_t ts)
{
	return get_task_hint(m, NULL, pid, comm, ts);
}

/*
 * The task current on @c per the stream, NULL if none or not known: the
 * one switched in (or guessed) there if alive - which is also the task an
 * exiting pid's reuse left there (on_fork()), no longer the live task of
 * its pid - else the live task of the pid.
 */
static struct task *cpu_curr_task(const struct lat_machine *m, const struct cpu_state *c)
{
	if (c->curr <= 0)
		return NULL;
	if (c->curr_t && c->curr_t->pub.pid == c->curr && !c->curr_t->dead)
		return c->curr_t;
	return pid_map_get(&m->live, c->curr);
}

/* @t is the current of the CPU it is on, per the stream (and that CPU's hint). */
static bool old_on_cpu(const struct lat_machine *m, const struct task *t)
{
	const struct cpu_state *c;

	if ((unsigned)t->on_cpu >= (unsigned)m->nr_cpus)
		return false;
	c = &m->cpus[t->on_cpu];
	return (c->known || c->guessed) && c->curr == t->pub.pid && c->curr_t == t;
}

/* Count @v in group @g (NULL: its allocation failed). */
static void group_add(struct lat_machine *m, struct lat_group *g, enum lat_kind kind, uint64_t v,
		      enum lat_path path)
{
	if (!g || sr_hist_add(&g->lat[kind], v)) {
		m->oom = true;
	} else {
		g->over_long[kind] += v > LAT_LONG_NS;
		if (kind == LAT_WAKEUP)
			g->paths[path]++;
	}
}

static struct lat_group *add_group(struct lat_machine *m, enum lat_group_key key, const char *k,
				   enum lat_kind kind, uint64_t v, enum lat_path path)
{
	struct lat_group *g = str_map_get(&m->groups[key], k, strlen(k), group_make, NULL);

	group_add(m, g, kind, v, path);
	return g;
}

/* lat_config.path_latency: wakeup latency @v of @path into by-cgroup group @g's (NULL: none) */
static __attribute__((noinline)) void group_path_add(struct lat_machine *m, struct lat_group *g,
						     enum lat_path path, uint64_t v)
{
	if (!g)
		return;
	if (!g->path_lat) {
		g->path_lat = calloc(LAT_PATH_NR, sizeof(*g->path_lat));
		if (!g->path_lat) {
			m->oom = true;
			return;
		}
		for (int p = 0; p < LAT_PATH_NR; p++)
			sr_hist_init(&g->path_lat[p]);
	}
	if (sr_hist_add(&g->path_lat[path], v))
		m->oom = true;
}

/*
 * The by-comm group of @comm, through @t's one-entry cache (struct task,
 * comm_group): a task's samples nearly always carry one comm.
 */
static __attribute__((noinline)) struct lat_group *
comm_group_find(struct lat_machine *m, struct task *t, const char *comm, size_t n);

static inline __attribute__((always_inline)) struct lat_group *
comm_group(struct lat_machine *m, struct task *t, const char *comm)
{
	size_t n;

#if defined(__SSE2__) && TRACE_COMM_LEN == 16
	/*
	 * @comm is an event's or a held sample's 16-byte comm: one vector
	 * compare with the NUL-padded key, its bytes from the NUL on cleared
	 * (strnlen() and memcmp() were two calls per sample).
	 */
	const __m128i idx = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)comm);
	unsigned nul = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128()));

	n = nul ? (size_t)__builtin_ctz(nul) : TRACE_COMM_LEN;
	if (nul && t->comm_group) {
		v = _mm_and_si128(v, _mm_cmplt_epi8(idx, _mm_set1_epi8((char)n)));
		if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_loadu_si128((const __m128i *)(const void *)
									  t->comm_group_key))) == 0xffff)
			return t->comm_group;
	}
#else
	n = strnlen(comm, TRACE_COMM_LEN);
	if (n < TRACE_COMM_LEN && t->comm_group && !memcmp(t->comm_group_key, comm, n + 1))
		return t->comm_group;
#endif
	return comm_group_find(m, t, comm, n);
}

/* comm_group() when @t's cache does not hold @comm (of length @n, 16: none). */
static struct lat_group *comm_group_find(struct lat_machine *m, struct task *t, const char *comm,
					 size_t n)
{
	struct lat_group *g;

	g = str_map_get(&m->groups[LAT_BY_COMM], comm, strlen(comm), group_make, NULL);
	t->comm_group = n < TRACE_COMM_LEN ? g : NULL;
	if (t->comm_group) {
		memset(t->comm_group_key, 0, TRACE_COMM_LEN);
		memcpy(t->comm_group_key, comm, n);
	}
	return g;
}

/*
 * The by-cgroup group of @cgroup (interned, or the "(unknown)" literal),
 * through @t's one-entry cache (struct task, cg_group).
 */
static inline struct lat_group *cgroup_group(struct lat_machine *m, struct task *t,
					     const char *cgroup)
{
	struct lat_group *g;

	if (t->cg_group && t->cg_group_key == cgroup)
		return t->cg_group;
	g = str_map_get(&m->groups[LAT_BY_CGROUP], cgroup, strlen(cgroup), group_make, NULL);
	t->cg_group_key = cgroup;
	t->cg_group = g;
	return g;
}

/* tally_add() when @g is not the last sample's group: out of the per-sample path. */
static __attribute__((noinline)) void
tally_find_add(struct lat_machine *m, struct task *t, const struct lat_group *g,
	       enum lat_kind kind)
{
	struct comm_tally *v;
	uint32_t i;

	for (i = 0; i < t->nr_tallies && t->tallies[i].g != g; i++)
		;
	if (i == t->nr_tallies) {
		v = realloc(t->tallies, (i + 1) * sizeof(*v));
		if (!v) {
			m->oom = true;
			return;
		}
		t->tallies = v;
		t->tallies[i] = (struct comm_tally){ .g = g };
		t->nr_tallies++;
	}
	t->tally_last = i;
	t->tallies[i].n[kind]++;
}

/* One sample of @kind of @t in by-comm group @g (NULL: its allocation failed). */
static inline __attribute__((always_inline)) void
tally_add(struct lat_machine *m, struct task *t, const struct lat_group *g, enum lat_kind kind)
{
	if (!g)
		return;
	if (t->nr_tallies && t->tallies[t->tally_last].g == g)
		t->tallies[t->tally_last].n[kind]++;
	else
		tally_find_add(m, t, g, kind);
}

/* The --samples sink's sample: out of the per-sample path. */
static __attribute__((noinline)) void
to_sink(struct lat_machine *m, enum lat_kind kind, struct task *t, const char *comm,
	const char *cgroup, int cpu, uint64_t start, uint64_t end, uint64_t v,
	enum trace_event_type start_ev, enum lat_path path)
{
	struct lat_sample s = {
		.kind = kind, .task = &t->pub, .pid = t->pub.pid, .comm = comm, .cgroup = cgroup,
		.cpu = cpu, .start_ts = start, .end_ts = end, .latency_ns = v,
		.start_event = start_ev, .path = path,
	};

	m->cfg.sink(m->cfg.sink_ctx, &s);
}

/*
 * A final sample of latency @v (struct lat_sample's fields, @cgroup the
 * task's when it was emitted): into the task's histogram, and if it passes
 * the filter into its groups. Inlined into emit() with the fields as
 * arguments: building a struct lat_sample for it was ten stores and a call
 * per sample, and a histogram's 32-bit counters may alias such a struct's
 * kind (an enum), so each add loaded the kind and the value again.
 */
static inline __attribute__((always_inline)) void
commit(struct lat_machine *m, enum lat_kind kind, struct task *t, const char *comm,
       const char *cgroup, int cpu, uint64_t start, uint64_t end, uint64_t v,
       enum trace_event_type start_ev, enum lat_path path)
{
	if (sr_hist_add(&t->pub.lat[kind], v))
		m->oom = true;
	if (filter_match(m, comm, t->pub.pid)) {
		/* the total is built from the by-comm groups (build_all()) */
		struct lat_group *g = comm_group(m, t, comm);

		sr_sum_add(&m->all_sum[kind], v);
		group_add(m, g, kind, v, path);
		/* with the cgroups, all's path_lat is built from theirs (build_all()) */
		if (kind == LAT_WAKEUP && m->cfg.path_latency && !m->cfg.group_by[LAT_BY_CGROUP] &&
		    sr_hist_add(&m->path_lat[path], v))
			m->oom = true;
		if (m->cfg.comm_tallies)
			tally_add(m, t, g, kind);
		if (m->cfg.group_by[LAT_BY_PID]) {
			char b[16];

			snprintf(b, sizeof(b), "%d", (int)t->pub.pid);
			add_group(m, LAT_BY_PID, b, kind, v, path);
		}
		if (m->cfg.group_by[LAT_BY_CGROUP]) {
			struct lat_group *cg = cgroup_group(m, t, cgroup ? cgroup : "(unknown)");

			group_add(m, cg, kind, v, path);
			if (kind == LAT_WAKEUP && m->cfg.path_latency)
				group_path_add(m, cg, path, v);
		}
	}
	if (m->cfg.sink)
		to_sink(m, kind, t, comm, cgroup, cpu, start, end, v, start_ev, path);
}

static void flush_provisional(struct lat_machine *m)
{
	for (size_t i = 0; i < m->nr_prov; i++) {
		struct prov_sample *p = &m->prov[i];

		commit(m, LAT_WAKEUP, p->task, p->comm, p->cgroup, p->cpu, p->start_ts, p->end_ts,
		       p->end_ts - p->start_ts, TRACE_EV_SCHED_WAKEUP, p->path);
	}
	m->nr_prov = 0;
}

/* AUTO settles on sched_wakeup: what was held back is final. */
static void decide_wakeup(struct lat_machine *m)
{
	m->mode = LAT_START_WAKEUP;
	m->sum.start_event = TRACE_EV_SCHED_WAKEUP;
	flush_provisional(m);
	free(m->prov);
	m->prov = NULL;
}

/* AUTO settles on sched_waking: drop what sched_wakeup started. */
static void decide_waking(struct lat_machine *m)
{
	m->mode = LAT_START_WAKING;
	m->sum.start_event = TRACE_EV_SCHED_WAKING;
	m->sum.provisional_dropped += m->nr_prov;
	m->nr_prov = 0;
	free(m->prov);
	m->prov = NULL;
	for (size_t i = 0; i < m->nr_tasks; i++) {
		struct task *t = m->tasks[i];

		if (t->pending && t->wake_ev == TRACE_EV_SCHED_WAKEUP) {
			t->pending = false;
			m->sum.provisional_dropped++;
		}
	}
}

static void emit(struct lat_machine *m, enum lat_kind kind, struct task *t, const char *comm,
		 int cpu, uint64_t start, uint64_t end, enum trace_event_type start_ev,
		 enum lat_path path)
{
	if (kind == LAT_WAKEUP && start_ev == TRACE_EV_SCHED_WAKEUP && m->mode == LAT_START_AUTO) {
		struct prov_sample *p;

		if (!m->prov) {
			m->prov = malloc(LAT_PROVISIONAL_MAX * sizeof(*m->prov));
			if (!m->prov) {
				m->oom = true;
				return;
			}
		}
		p = &m->prov[m->nr_prov++];
		p->task = t;
		memcpy(p->comm, comm, TRACE_COMM_LEN);
		p->comm[TRACE_COMM_LEN - 1] = '\0';
		p->cgroup = t->pub.cgroup;
		p->cpu = cpu;
		p->start_ts = start;
		p->end_ts = end >= start ? end : start;
		p->path = path;
		if (m->nr_prov == LAT_PROVISIONAL_MAX)
			decide_wakeup(m);
		return;
	}
	commit(m, kind, t, comm, t->pub.cgroup, cpu, start, end, end >= start ? end - start : 0,
	       start_ev, path);
}

/*
 * @t, on no CPU per the stream, shows up current on @cpu at @ts - an event
 * in its context, or its own switch out - so the kernel switched it in
 * without a sched_switch record (the repair stage restores those out of
 * idle only: trace_repair.c).  Its open wakeup interval, or run-queue wait,
 * ends here, @ts being the one time it surely ran: an upper bound of the
 * untraced switch-in, on a path not known.  Left open, the interval would
 * end at its next traced switch-in, after the task ran, blocked and was
 * woken again - make-probe's kworker/1:1 ran 10 us after its wakeup and
 * was measured at 601 ms - and the wakeup before that switch-in would be
 * lost as a waking of a task already pending.
 */
static void revealed_run(struct lat_machine *m, struct task *t, int cpu, uint64_t ts)
{
	if (t->pending) {
		if (t->muted)
			m->sum.samples_muted++;
		else
			emit(m, LAT_WAKEUP, t, t->pub.comm, cpu, t->wake_ts, ts,
			     (enum trace_event_type)t->wake_ev, LAT_PATH_UNKNOWN);
		t->pending = false;
		m->sum.intervals_revealed++;
	}
	if (t->runnable) {
		emit(m, LAT_RUNQ_WAIT, t, t->pub.comm, cpu, t->runnable_ts, ts,
		     TRACE_EV_SCHED_SWITCH, LAT_PATH_UNKNOWN);
		t->runnable = false;
		m->sum.intervals_revealed++;
	}
}

/*
 * Whether @t (on a CPU) has a sched_waking since its last event there
 * (lost_switch()'s bound: its switch-in, an event of it there, a remote
 * sched_stat_runtime of it): one before that found it still running.
 */
static bool run_waking_since(const struct lat_machine *m, const struct task *t)
{
	const struct cpu_state *c;
	uint64_t last;

	if (!t->run_waking_ts)
		return false;
	if ((unsigned)t->on_cpu >= (unsigned)m->nr_cpus)
		return true;
	c = &m->cpus[t->on_cpu];
	last = c->curr == t->pub.pid && c->last > t->run_start ? c->last : t->run_start;
	return t->run_waking_ts > last;
}

/*
 * The wakeup's target CPU @target (-1: none): its current task and switch
 * count now, into @t's path state (wake_path()).  A CPU with no event yet
 * is idle as far as the stream shows.
 */
static inline __attribute__((always_inline)) void
wake_target(const struct lat_machine *m, struct task *t, int target)
{
	const struct cpu_state *c;

	t->wk_target = target;
	t->wk_curr = 0;
	t->wk_nsw = 0;
	if (target < 0 || target >= m->nr_cpus || !m->cpus[target].seen)
		return;
	c = &m->cpus[target];
	t->wk_curr = c->known || c->guessed ? (c->curr > 0 ? c->curr : 0) : -1;
	t->wk_nsw = c->nsw;
}

static void start_interval(struct lat_machine *m, struct task *t, const struct trace_event *e,
			   enum trace_event_type ev)
{
	uint64_t ts = e->ts;

	if (t->on_cpu >= 0) {
		t->pub.wakings_running++;
		m->sum.wakings_running++;
		if (ev == TRACE_EV_SCHED_WAKING && !run_waking_since(m, t))
			t->run_waking_ts = ts;
		return;
	}
	if (t->pending) {
		t->pub.wakings_pending++;
		m->sum.wakings_pending++;
		return;
	}
	t->pending = true;
	t->muted = false;
	t->wake_ts = ts;
	t->wake_ev = (uint8_t)ev;
	t->wk_cpu = e->cpu;
	if (m->waking_pid) {
		if (m->waking_pid == t->pub.pid && ev == TRACE_EV_SCHED_WAKEUP)
			t->wk_cpu = m->waking_cpu;
		m->waking_pid = 0;
	}
	t->wk_new = ev == TRACE_EV_SCHED_WAKEUP_NEW;
	if (ev == TRACE_EV_SCHED_WAKING)
		m->waking_t = t;
	wake_target(m, t, ev == TRACE_EV_SCHED_WAKING ? -1 : e->u.wakeup.target_cpu);
}

/*
 * How the wakee @t, pending, got CPU @cpu (state @c, before the switch @s
 * that puts it on is counted): enum lat_path.
 */
static enum lat_path wake_path(const struct task *t, const struct cpu_state *c, int cpu,
			       const struct trace_sched_switch *s)
{
	bool local = t->wk_cpu == t->wk_target;
	uint64_t n = c->nsw - t->wk_nsw;

	if (t->wk_new)
		return LAT_PATH_NEW;
	if (t->wk_target < 0 || t->wk_curr < 0)
		return LAT_PATH_UNKNOWN;
	if (cpu != t->wk_target)
		return LAT_PATH_MOVED;
	if (t->wk_curr == 0 && !n)
		return LAT_PATH_IDLE;
	if (t->wk_curr > 0 && !n && s->prev_pid == t->wk_curr) {
		if (s->prev_run == TRACE_STATE_RUNNING)
			return local ? LAT_PATH_PREEMPT_LOCAL : LAT_PATH_PREEMPT_REMOTE;
		return local ? LAT_PATH_BEHIND_LOCAL : LAT_PATH_BEHIND_REMOTE;
	}
	return local ? LAT_PATH_QUEUED_LOCAL : LAT_PATH_QUEUED_REMOTE;
}

/* Before its first sched_switch, a CPU's current task is its events' common_pid. */
static void guess_current(struct lat_machine *m, struct cpu_state *c, int cpu, int32_t pid,
			  uint64_t ts)
{
	struct task *t;

	if (c->guessed && c->curr == pid)
		return;
	if (c->guessed) {
		struct task *old = cpu_curr_task(m, c);

		if (old && old->on_cpu == cpu)
			old->on_cpu = -1;
		c->nsw++;       /* another guess: a switch the stream did not show */
	}
	c->guessed = true;
	c->curr = pid;
	c->curr_t = NULL;
	c->last = ts;
	c->last_remote = false;
	if (pid <= 0) {
		c->was_known = true;
		return;
	}
	t = get_task(m, pid, NULL, ts);
	c->curr_t = t;
	if (t && t->on_cpu < 0) {
		/*
		 * Running since the trace start if nothing was known of the
		 * CPU before; else (after a lost-events gap, an untraced
		 * switch) since this event, the one time it surely ran.
		 */
		revealed_run(m, t, cpu, ts);
		t->on_cpu = cpu;
		t->run_start = c->was_known ? ts : c->first_ts;
		t->run_waking_ts = 0;
	}
	c->was_known = true;
}

/*
 * Task @t left its CPU at @ls->ts untraced (enum lat_lost_reason): the
 * switch as if traced there, reported to lat_config.lost_switch.  The
 * caller has taken @t off the CPU's state.
 */
static void switch_out(struct lat_machine *m, struct task *t, struct lat_lost_switch *ls)
{
	ls->dead = t->exiting && !ls->runnable;
	run_end(t, ls->ts);
	if (ls->runnable) {
		t->pub.preemptions++;
		t->runnable = true;
		t->runnable_ts = ls->ts;
		m->sum.lost_switch_preempted++;
	} else if (t->run_waking_ts > ls->ts && !t->pending) {
		/* that waking found it asleep: its interval starts there */
		t->pending = true;
		t->muted = false;
		t->wake_ts = t->run_waking_ts;
		t->wake_ev = TRACE_EV_SCHED_WAKING;
		t->pub.wakings_running--;
		m->sum.wakings_running--;
		m->sum.lost_switch_wakings++;
	}
	t->run_waking_ts = 0;
	if (ls->dead)
		task_exit(t);
	m->sum.lost_switches[ls->reason]++;
	m->sum.lost_switches_remote += ls->remote_stamp;
	if (m->cfg.lost_switch && m->cfg.lost_switch(m->cfg.lost_switch_ctx, ls))
		m->oom = true;
}

/*
 * @c (CPU @cpu) was seen in a state that says its current task left it
 * without a traced sched_switch (enum lat_lost_reason, lat_config
 * .infer_lost_switches): the switch is taken as traced at the task's last
 * event there.  For LAT_LOST_OTHER (@next's event there) it is reported
 * once the task's next event says whether it blocked (left_close()),
 * unless already known: a waking of it since its last event (blocked), its
 * sched_process_exit (dead).  The caller sets the CPU's current afterwards.
 */
static __attribute__((noinline)) bool lost_switch(struct lat_machine *m, struct cpu_state *c,
						   int cpu, enum lat_lost_reason why,
						   uint64_t seen_ts, int32_t next)
{
	struct task *t = cpu_curr_task(m, c);
	struct lat_lost_switch ls;

	if (!t || t->dead || t->on_cpu != cpu)
		return false;
	c->curr_t = NULL;
	memset(&ls, 0, sizeof(ls));
	ls.cpu = cpu;
	ls.pid = c->curr;
	ls.ts = c->last > t->run_start ? c->last : t->run_start;
	ls.seen_ts = seen_ts;
	ls.reason = why;
	ls.remote_stamp = c->last_remote && c->last == ls.ts;
	/* a migration not placing a wakeup moves a queued task */
	ls.runnable = why == LAT_LOST_MIGRATED && !(t->run_waking_ts > ls.ts);
	if (why == LAT_LOST_OTHER && !t->exiting && !(t->run_waking_ts > ls.ts)) {
		struct left_switch *o;

		if (m->nr_open == m->open_cap) {
			size_t cap = m->open_cap ? m->open_cap * 2 : 8;

			o = realloc(m->open, cap * sizeof(*o));
			if (!o) {
				m->oom = true;
				return false;
			}
			m->open = o;
			m->open_cap = cap;
		}
		for (size_t i = 0; i < m->nr_open; i++)
			if (m->open[i].ls.cpu == cpu)
				m->open[i].frozen = true;
		o = &m->open[m->nr_open++];
		o->ls = ls;
		o->next = next;
		o->frozen = false;
		t->left_open = true;
		t->on_cpu = -1;
		t->run_waking_ts = 0;
		return true;
	}
	switch_out(m, t, &ls);
	return true;
}

/*
 * How far a sched_stat_runtime's time minus its runtime may be from the
 * previous update_curr() of the task for the two to be one chain.  Both
 * ends are the rq clock read a little before the event is written, in the
 * same rq-locked section, and trace and rq clock both come from
 * sched_clock: the gap is the difference of those two lags, plus the IRQ
 * time rq_clock_task() leaves out of the runtime (IRQ_TIME_ACCOUNTING;
 * the gap is then positive).  Measured over consecutive sched_stat_runtime
 * events of a task with no switch of it between: bw-hogs 805 of 846 within
 * [-1, +1) us, 845 within 20 us (-8.9..+18.8 us); hackbench-shares 6736 of
 * 6998 and 6988.  A chain joined wrongly needs another update of the task
 * ending this close to the new one's start with no switch of it between.
 */
#define STAT_CHAIN_SLACK_NS 20000ull

/*
 * A sched_stat_runtime of @t at @ts charging @runtime (@own_cpu: the event's
 * CPU if in @t's own context, else -1) (update_curr(): the
 * time since its exec_start, then exec_start = now): the exec_start its
 * run counts from.  An update of @t anywhere (its CPU's, or a remote one:
 * a wakeup or fork onto that CPU charges its current) moved exec_start to
 * its time; the next one's @ts - @runtime is then that time, and the run
 * started where the first of the chain counts from.  A switch of @t breaks
 * the chain (on_switch()).
 */
static uint64_t stat_chain(struct task *t, uint64_t ts, uint64_t runtime, int own_cpu)
{
	uint64_t at = ts > runtime ? ts - runtime : 0;
	bool joined = false;

	/* its own-context events on two CPUs: it moved between them, a new run */
	if (t->stat_ts && at + STAT_CHAIN_SLACK_NS >= t->stat_ts &&
	    at <= t->stat_ts + STAT_CHAIN_SLACK_NS && t->stat_from <= at &&
	    (own_cpu < 0 || !t->stat_cpu1 || t->stat_cpu1 == own_cpu + 1)) {
		at = t->stat_from;
		joined = true;
	}
	if (!joined)
		t->stat_cpu1 = 0;
	if (own_cpu >= 0)
		t->stat_cpu1 = own_cpu + 1;
	t->stat_ts = ts;
	t->stat_from = at;
	return at;
}

/*
 * The next task's first sched_stat_runtime on the CPU of an open
 * LAT_LOST_OTHER switch (in its own context, no switch there since): its
 * run counts from its switch-in (set_next_entity() starts exec_start),
 * which is the switch out of the task that left: @from (stat_chain(), over
 * remote updates of it since), within [that task's last event there, the
 * event that revealed it].
 */
static __attribute__((noinline)) void left_stamp(struct lat_machine *m, int cpu, int32_t pid,
						 uint64_t from)
{
	for (size_t i = 0; i < m->nr_open; i++) {
		struct left_switch *o = &m->open[i];

		if (o->frozen || o->ls.cpu != cpu || o->next != pid)
			continue;
		o->frozen = true;
		if (from <= o->ls.ts)
			continue;
		o->ls.ts = from < o->ls.seen_ts ? from : o->ls.seen_ts;
		o->ls.remote_stamp = false;
		o->ls.stamped = true;
		m->sum.lost_switch_stamped++;
	}
}

/*
 * @t's next event decides its open LAT_LOST_OTHER switch: @runnable when it
 * is switched in there (@cpu; -1: any) by a task, or migrated, with no wake
 * in between (a queued task is only ever picked or moved), else it had
 * blocked (woken; switched in out of idle - a CPU idles with nothing
 * runnable - or somewhere else; back on a CPU with no traced switch-in;
 * never seen again: a task left runnable runs again).
 */
static __attribute__((noinline)) void left_close(struct lat_machine *m, struct task *t,
						 bool runnable, int cpu)
{
	struct lat_lost_switch ls;
	size_t i;

	t->left_open = false;
	for (i = 0; i < m->nr_open && m->open[i].ls.pid != t->pub.pid; i++)
		;
	if (i == m->nr_open)
		return;
	ls = m->open[i].ls;
	m->open[i] = m->open[--m->nr_open];
	ls.runnable = runnable && (cpu < 0 || cpu == ls.cpu);
	switch_out(m, t, &ls);
}

/*
 * left_close() of the live task of @pid, if it has an open switch: the few
 * open ones are scanned first (a wakeup's target is looked up only if it
 * is one of them).
 */
static inline void left_close_pid(struct lat_machine *m, int32_t pid, bool runnable, int cpu)
{
	struct task *t;

	for (size_t i = 0; i < m->nr_open; i++)
		if (m->open[i].ls.pid == pid) {
			if (pid > 0 && (t = pid_map_get(&m->live, pid)) && t->left_open)
				left_close(m, t, runnable, cpu);
			return;
		}
}

/* Every open switch, as blocked (the end of the stream, a lost-events gap). */
static void left_close_all(struct lat_machine *m)
{
	while (m->nr_open) {
		struct task *t = pid_map_get(&m->live, m->open[0].ls.pid);

		if (t && t->left_open) {
			left_close(m, t, false, -1);
		} else {
			m->open[0] = m->open[--m->nr_open];
		}
	}
}

/* A sched_switch on @cpu: the bounds of its open switches are final. */
static void left_freeze(struct lat_machine *m, int cpu)
{
	for (size_t i = 0; i < m->nr_open; i++)
		if (m->open[i].ls.cpu == cpu)
			m->open[i].frozen = true;
}

/*
 * @c's current left it (its switch out inferred, or it is dead): the CPU's
 * current is unknown until its next event names one.  After a lost_switch()
 * that returned true, curr_t is NULL already (lost_switch() cleared it
 * before reporting the switch); clearing it here too is what the other
 * callers need, for whom no lost_switch() ran.
 */
static void cpu_forget_curr(struct cpu_state *c)
{
	c->curr = 0;
	c->curr_t = NULL;
	c->known = c->guessed = false;
}

/*
 * Task @t, current on another CPU per the stream, shows up elsewhere
 * (@why): it left that CPU untraced, whose current is then unknown.
 */
static void left_elsewhere(struct lat_machine *m, struct task *t, enum lat_lost_reason why,
			   uint64_t ts)
{
	struct cpu_state *o = (unsigned)t->on_cpu < (unsigned)m->nr_cpus ? &m->cpus[t->on_cpu] :
		NULL;

	if (!o || o->curr != t->pub.pid || !(o->known || o->guessed) ||
	    !lost_switch(m, o, t->on_cpu, why, ts, 0))
		return;
	cpu_forget_curr(o);
}

/* @t, exiting, is preempted on @cpu: queued there (struct old_queued) */
static __attribute__((noinline)) void old_queue(struct lat_machine *m, struct task *t, int cpu)
{
	struct old_queued *q;

	for (size_t i = 0; i < m->nr_oldq; i++)
		if (m->oldq[i].t == t) {
			m->oldq[i].cpu = cpu;
			return;
		}
	if (m->nr_oldq == m->oldq_cap) {
		size_t cap = m->oldq_cap ? m->oldq_cap * 2 : 8;

		q = realloc(m->oldq, cap * sizeof(*q));
		if (!q) {
			m->oom = true;
			return;
		}
		m->oldq = q;
		m->oldq_cap = cap;
	}
	m->oldq[m->nr_oldq++] = (struct old_queued){ .t = t, .cpu = cpu };
}

/*
 * The task an event naming @pid on @cpu - a switch-in there, a migration
 * off it - is of: the old task of @pid queued there (struct old_queued),
 * if a fork took its pid since, unless @comm is the new task's and not
 * its own; else NULL: the pid's live task (get_task()'s), which may be
 * the old task itself, its pid not taken.  The old one is reported to
 * lat_config.old_task (@ev, @ts).  An entry no longer queued (switched
 * in, dead, dropped at a lost-events gap) goes.
 */
static __attribute__((noinline)) struct task *
old_named(struct lat_machine *m, int32_t pid, const char *comm, int cpu,
	  enum trace_event_type ev, int ev_cpu, uint64_t ts, struct old_queued **entry)
{
	struct task *n = pid_map_get(&m->live, pid);
	size_t i;

	*entry = NULL;
	for (i = 0; i < m->nr_oldq; i++) {
		struct task *o = m->oldq[i].t;

		if (o->dead || !o->runnable) {
			m->oldq[i--] = m->oldq[--m->nr_oldq];
			continue;
		}
		if (o->pub.pid == pid && o != n)
			break;
	}
	if (i == m->nr_oldq || m->oldq[i].cpu != cpu ||
	    (n && !n->dead && !strncmp(comm, n->pub.comm, TRACE_COMM_LEN) &&
	     strncmp(comm, m->oldq[i].t->pub.comm, TRACE_COMM_LEN)))
		return NULL;
	*entry = &m->oldq[i];
	if (m->cfg.old_task) {
		struct lat_old_task ot = { .pid = pid, .cpu = ev_cpu, .ev = ev, .ts = ts };

		if (m->cfg.old_task(m->cfg.old_task_ctx, &ot))
			m->oom = true;
	}
	return m->oldq[i].t;
}

/*
 * De_thread() of a non-leader thread @t's execve (struct lat_pid_change):
 * @t (pid @o) takes the pid @n of its leader @l (the last task of @n, NULL
 * if none), which exited before (do_exit(): sched_process_exit, then
 * exit_notify() makes it a zombie, which de_thread() waits for) and takes
 * @t's tid (exchange_tids()) before release_task().  @t keeps its state
 * (its CPU, run, stat_runtime chain, wakeup, cgroup, open switch) under @n.
 * @l still current on another CPU runs there as @o until its last switch
 * (do_task_dead()), which names @o; so does @l preempted after its exit
 * (do_exit() goes on past exit_notify()), queued: it runs again as @o.
 * Else it is dead: its last switch was seen, or was not traced (then its
 * run ends at its CPU's last event, as a switch taken as traced would).
 */
static void pid_exchange(struct lat_machine *m, struct task *t, struct task *l, int32_t o,
			 int32_t n, uint64_t ts)
{
	struct lat_pid_change pc = { .old_pid = o, .new_pid = n, .cpu = t->on_cpu,
				     .leader_cpu = -1, .ts = ts };

	if (l && !l->dead && l->left_open)
		left_close(m, l, false, -1);    /* it exited: its last switch, dead */
	if (l && !l->dead) {
		if (old_on_cpu(m, l) && l->on_cpu != t->on_cpu) {
			pc.leader_cpu = l->on_cpu;
		} else if (l->exiting && l->runnable && l->on_cpu < 0) {
			pc.leader_queued = true;
		} else if (old_on_cpu(m, l) && m->cfg.infer_lost_switches) {
			/* its last switch was not traced: at its last event there, dead */
			struct cpu_state *c = &m->cpus[l->on_cpu];

			if (lost_switch(m, c, l->on_cpu, LAT_LOST_OTHER, ts, t->pub.pid))
				cpu_forget_curr(c);
		} else {
			if (old_on_cpu(m, l)) {
				struct cpu_state *c = &m->cpus[l->on_cpu];

				run_end(l, c->last);
				cpu_forget_curr(c);
			}
			task_exit(l);
		}
	}
	t->pub.pid = n;
	t->grp = TASK_GRP_LEADER;       /* the group's leader now */
	t->thread_tgid = 0;
	if (l) {
		l->grp = TASK_GRP_THREAD;
		l->thread_tgid = n;
	}
	if (pid_map_put(&m->live, n, t) ||
	    pid_map_put(&m->live, o, pc.leader_cpu >= 0 || pc.leader_queued ? l : NULL)) {
		m->oom = true;
		return;
	}
	if (pc.leader_cpu >= 0 || pc.leader_queued)
		l->pub.pid = o;
	if (pc.leader_cpu >= 0) {
		m->cpus[pc.leader_cpu].curr = o;
		m->cpus[pc.leader_cpu].curr_t = l;
	}
	if ((unsigned)t->on_cpu < (unsigned)m->nr_cpus && m->cpus[t->on_cpu].curr == o) {
		m->cpus[t->on_cpu].curr = n;
		m->cpus[t->on_cpu].curr_t = t;
	}
	for (size_t i = 0; i < m->nr_open; i++) {
		if (m->open[i].ls.pid == o)
			m->open[i].ls.pid = n;
		if (m->open[i].next == o)
			m->open[i].next = n;
	}
	if (m->cfg.pid_change && m->cfg.pid_change(m->cfg.pid_change_ctx, &pc))
		m->oom = true;
}

/* how far group_member() follows forks up before it takes a task as not known */
#define GRP_CHAIN_MAX 64

static bool group_member(const struct task *a, const struct task *l, int32_t lpid, int depth);

/*
 * Whether task @a, which forked a task in the trace, can have been of the
 * group of leader @l (pid @lpid) then: @l itself (or a task under its pid),
 * or a member.  A leader now was one then: a task becomes a leader by its
 * exec (sched_process_exec: of its group's leader, pid == old_pid, or the
 * exchange), and a non-leader's exec changes its pid, which a leader's
 * children's tgid follows (de_thread() keeps the tgid).
 */
static bool group_holder(const struct task *a, const struct task *l, int32_t lpid, int depth)
{
	if (a == l || a->pub.pid == lpid)
		return true;
	if (a->grp == TASK_GRP_LEADER)
		return false;
	return group_member(a, l, lpid, depth);
}

/*
 * Whether task @a can be a thread (not the leader) of @l's group, pid
 * @lpid: not a known leader, and its tgid @lpid if known - from the
 * sidecar, or through the task that forked it in the trace: a fork gives
 * a process (tgid its pid) or a thread of the forker's group (CLONE_THREAD,
 * which the event does not tell), so a task forked by a task of no group
 * that can be @l's is not of it either, however many forks up (snap50).
 */
static bool group_member(const struct task *a, const struct task *l, int32_t lpid, int depth)
{
	if (a->grp == TASK_GRP_LEADER)
		return false;
	if (a->thread_tgid > 0)
		return a->thread_tgid == lpid;
	if (a->grp == TASK_GRP_THREAD || !a->fork_parent || depth >= GRP_CHAIN_MAX)
		return true;    /* not known */
	return group_holder(a->fork_parent, l, lpid, depth + 1);
}

/*
 * Whether de_thread() can have given thread @t the pid @lpid of the exited
 * leader @l: one thread group, so @t's tgid is @lpid, and @l's exit was not
 * its group's last (group_dead false: @t still lived).  What is not known
 * does not exclude it.  An untraced switch from a task of another group to
 * a task that exited queued looks like the exchange otherwise: a VM agent's
 * thread got an exited shell's record, and its sidecar check failed
 * (capture_robust_sweep, capture_pi; stop 47).  A kernel before 6.16 has
 * no group_dead: then @t itself decides, as it would the group's death
 * (the exchange needs @t alive in @l's group at @l's exit, and a thread
 * forked after that by one of the group is of it too): a known leader
 * (the sidecar, or its exec in the trace) or a task whose forks lead to
 * another group is none of @l's (group_member()).
 */
static bool exchange_possible(const struct task *t, const struct task *l, int32_t lpid)
{
	if (l->exit_group_dead > 0 || l->grp == TASK_GRP_THREAD)
		return false;
	return group_member(t, l, lpid, 0);
}

/*
 * An event on @cpu (@c) in the context of @pid, not the CPU's current per
 * the stream, that only a multithreaded exec explains (pid_exchange()):
 * the current is the exec'ing thread (live, not exiting) and @pid's last
 * task an exited leader, dead, queued or current on another CPU; or the current is
 * the exited leader, still running, and @pid the live thread current on
 * another CPU.  Any other task's event there says the current left
 * untraced (feed_cpu(), on_switch()).
 */
static __attribute__((noinline)) bool exchanged(struct lat_machine *m, struct cpu_state *c, int cpu, int32_t pid,
		      uint64_t ts)
{
	struct task *cur = cpu_curr_task(m, c), *p;

	if (!cur || cur->dead || cur->on_cpu != cpu || pid <= 0 || pid == c->curr ||
	    !(p = pid_map_get(&m->live, pid)) || p == cur || !(c->known || c->guessed))
		return false;
	if (!cur->exiting && p->exiting &&
	    (p->dead || (p->runnable && p->on_cpu < 0) || (old_on_cpu(m, p) && p->on_cpu != cpu)) &&
	    exchange_possible(cur, p, pid)) {
		pid_exchange(m, cur, p, c->curr, pid, ts);      /* cur is the thread */
		return true;
	}
	if (cur->exiting && !p->dead && !p->exiting && old_on_cpu(m, p) && p->on_cpu != cpu &&
	    exchange_possible(p, cur, c->curr)) {
		pid_exchange(m, p, cur, pid, c->curr, ts);      /* cur is the leader */
		return true;
	}
	return false;
}

/* sched_process_exec of @x on @cpu (its context): pid_exchange() unless done */
static void on_exec(struct lat_machine *m, const struct trace_sched_process_exec *x, int cpu,
		    uint64_t ts)
{
	struct cpu_state *c = get_cpu(m, cpu);
	struct task *t;

	if (!c || x->old_pid <= 0 || x->pid <= 0)
		return;
	if (x->old_pid == x->pid) {
		/* its group's leader (de_thread() changes no pid), as ever since */
		t = c->curr == x->pid ? cpu_curr_task(m, c) : pid_map_get(&m->live, x->pid);
		if (t && !t->dead && t->pub.pid == x->pid && !t->exiting) {
			t->grp = TASK_GRP_LEADER;
			t->thread_tgid = 0;
		}
		return;
	}
	t = c->curr == x->old_pid ? cpu_curr_task(m, c) : pid_map_get(&m->live, x->old_pid);
	if (!t || t->dead || t->pub.pid != x->old_pid || t->exiting)
		return;         /* no task of old_pid, or exchanged already (exchanged()) */
	pid_exchange(m, t, pid_map_get(&m->live, x->pid), x->old_pid, x->pid, ts);
}

/* The old task a switch-in takes off its CPU's queue (old_named()), or NULL */
static __attribute__((noinline)) struct task *next_old(struct lat_machine *m,
							const struct trace_event *ev)
{
	const struct trace_sched_switch *s = &ev->u.sched_switch;
	struct old_queued *q;
	struct task *o = old_named(m, s->next_pid, s->next_comm, ev->cpu, ev->type, ev->cpu,
				   ev->ts, &q);

	if (!o)
		return NULL;
	*q = m->oldq[--m->nr_oldq];
	memcpy(o->pub.comm, s->next_comm, TRACE_COMM_LEN);
	o->pub.comm[TRACE_COMM_LEN - 1] = '\0';
	o->pub.last_ts = ev->ts;
	return o;
}

/* inlined into both entries: a call and return per sched_switch cost ~2 % of the report */
static inline __attribute__((always_inline)) void
on_switch(struct lat_machine *m, const struct trace_event *ev, struct cpu_state *c)
{
	const struct trace_sched_switch *s = &ev->u.sched_switch;
	struct task *t;

	if (c->curr > 0 && s->prev_pid > 0 && s->prev_pid != c->curr)
		exchanged(m, c, ev->cpu, s->prev_pid, ev->ts);
	if (m->nr_open)
		left_close_pid(m, s->prev_pid, false, -1);  /* back without a switch-in */
	if ((c->known || c->guessed) && c->curr != s->prev_pid) {
		c->nsw++;       /* a switch to prev the stream did not show */
		if (c->curr > 0) {
			/* the previous switch out of this CPU is missing */
			struct task *old = cpu_curr_task(m, c);

			bool inferred = m->cfg.infer_lost_switches &&
				lost_switch(m, c, ev->cpu,
					    s->prev_pid == 0 ? LAT_LOST_IDLE : LAT_LOST_OTHER,
					    ev->ts, s->prev_pid);

			if (!inferred && old && old->on_cpu == ev->cpu)
				old->on_cpu = -1;
		}
	}
	if (m->nr_open)     /* (also the task this switch revealed) queued or woken */
		left_close_pid(m, s->next_pid, s->prev_pid > 0, ev->cpu);
	if (s->prev_pid > 0 &&
	    (t = get_task_hint(m, c->curr_t, s->prev_pid, s->prev_comm, ev->ts))) {
		if (t->on_cpu < 0)      /* its switch in, the first sign it ran */
			revealed_run(m, t, ev->cpu, ev->ts);
		if (t->on_cpu == ev->cpu)
			t->pub.runtime_ns += ev->ts - t->run_start;
		else if (!c->known && !c->guessed && t->on_cpu < 0)
			t->pub.runtime_ns += ev->ts - c->first_ts; /* running since the start */
		t->on_cpu = -1;
		t->run_waking_ts = 0;
		t->stat_ts = 0;
		switch (s->prev_run) {
		case TRACE_STATE_RUNNING:
			t->pub.preemptions++;
			t->runnable = true;
			t->runnable_ts = ev->ts;
			if (t->exiting)         /* after its exit: it runs again */
				old_queue(m, t, ev->cpu);
			break;
		case TRACE_STATE_DEAD:
			task_exit(t);
			break;
		case TRACE_STATE_SLEEPING:
			break;
		}
	}
	c->curr_t = NULL;
	if (s->next_pid > 0 && (t = m->nr_oldq ? next_old(m, ev) : NULL) == NULL)
		t = get_task(m, s->next_pid, s->next_comm, ev->ts);
	if (s->next_pid > 0 && t) {
		if (t->on_cpu >= 0 && t->on_cpu != ev->cpu) {
			/* its switch out of the other CPU is missing */
			struct cpu_state *o = get_cpu(m, t->on_cpu);

			if (m->cfg.infer_lost_switches)
				left_elsewhere(m, t, LAT_LOST_SWITCHED_IN, ev->ts);
			if (o) {
				o->known = false;
				o->guessed = false;
			}
		}
		if (t->pending && t->muted)
			m->sum.samples_muted++;
		else if (t->pending)
			emit(m, LAT_WAKEUP, t, s->next_comm, ev->cpu, t->wake_ts, ev->ts,
			     (enum trace_event_type)t->wake_ev, wake_path(t, c, ev->cpu, s));
		t->pending = false;
		if (t->runnable) {
			emit(m, LAT_RUNQ_WAIT, t, s->next_comm, ev->cpu, t->runnable_ts, ev->ts,
			     TRACE_EV_SCHED_SWITCH, LAT_PATH_UNKNOWN);
			t->runnable = false;
		}
		t->pub.switches++;
		t->on_cpu = ev->cpu;
		t->run_start = ev->ts;
		t->run_waking_ts = 0;
		t->stat_ts = 0;
		c->curr_t = t;
	}
	c->nsw++;
	c->curr = s->next_pid;
	c->known = true;
	c->was_known = true;
	c->guessed = false;
	c->last = ev->ts;
	c->last_remote = false;
	if (m->nr_open)
		left_freeze(m, ev->cpu);
}

/*
 * What every event does before its type's part: the CPU's state (NULL when
 * @ev's CPU is out of range or memory ran out), its first timestamp, and a
 * guess of its current task when unknown (a switch names it instead).
 */
static inline __attribute__((always_inline)) struct cpu_state *
feed_cpu(struct lat_machine *m, const struct trace_event *ev, bool is_switch)
{
	struct cpu_state *c = get_cpu(m, ev->cpu);

	if (!c)
		return NULL;
	m->sum.events++;
	if (!c->seen) {
		c->seen = true;
		c->first_ts = ev->ts;
	}
	if (!is_switch && c->curr > 0 && ev->common_pid > 0 && ev->common_pid != c->curr)
		exchanged(m, c, ev->cpu, ev->common_pid, ev->ts);
	if (m->nr_open && !is_switch && ev->common_pid != c->curr)
		left_close_pid(m, ev->common_pid, false, -1);  /* back without a switch-in */
	if (m->cfg.infer_lost_switches && !is_switch && c->curr > 0) {
		if (ev->common_pid == c->curr) {
			c->last = ev->ts;
			c->last_remote = false;
		} else if (ev->common_pid != 0) {
			/* another task's event: the current left untraced (or is stale) */
			if (c->known || c->guessed)
				lost_switch(m, c, ev->cpu, LAT_LOST_OTHER, ev->ts, ev->common_pid);
			c->nsw++;
			c->curr = 0;
			c->known = false;
			c->guessed = false;
		} else if ((c->known || c->guessed) &&
			   lost_switch(m, c, ev->cpu, LAT_LOST_IDLE, ev->ts, 0)) {
			/* an event in idle's context: the CPU is idle */
			c->nsw++;
			c->curr = 0;
		}
	} else if (!is_switch && c->known && c->curr == 0 && ev->common_pid > 0) {
		/* a task's event on a CPU idle per the stream (not restored) */
		struct task *t = pid_map_get(&m->live, ev->common_pid);

		if (t && t->on_cpu < 0)
			revealed_run(m, t, ev->cpu, ev->ts);
	}
	if (!c->known && !is_switch)
		guess_current(m, c, ev->cpu, ev->common_pid, ev->ts);
	return c;
}

/*
 * A sched_wakeup of a task on a CPU per the stream: onto another CPU, it
 * had left its CPU untraced (a task still on its runqueue is woken where it
 * is: ttwu_runnable()); else it found the task running, and the sched_waking
 * before it was of a running task.
 */
static void wakeup_of_running(struct lat_machine *m, const struct trace_event *ev)
{
	struct task *t = pid_map_get(&m->live, ev->u.wakeup.pid);

	if (!t || t->dead || t->on_cpu < 0)
		return;
	if (ev->u.wakeup.target_cpu >= 0 && ev->u.wakeup.target_cpu != t->on_cpu)
		left_elsewhere(m, t, LAT_LOST_WOKEN, ev->ts);
	/*
	 * Onto its CPU: running, or blocked untraced and woken back there -
	 * its next event there (still running) or another task's (blocked
	 * since its sched_waking) tells; its sched_waking is kept till then.
	 */
}

/* sched_waking, sched_wakeup or sched_wakeup_new (@type, ev->type) */
static inline __attribute__((always_inline)) void
on_wakeup(struct lat_machine *m, const struct trace_event *ev, enum trace_event_type type)
{
	struct task *t;

	if (m->nr_open)
		left_close_pid(m, ev->u.wakeup.pid, false, -1);   /* woken: it had blocked */
	if (type == TRACE_EV_SCHED_WAKING) {
		if (m->mode == LAT_START_WAKEUP) {
			/* starts nothing, but says where the waker is (start_interval()) */
			m->waking_pid = ev->u.wakeup.pid;
			m->waking_cpu = ev->cpu;
			return;
		}
		if (m->mode == LAT_START_AUTO)
			decide_waking(m);
	} else if (type == TRACE_EV_SCHED_WAKEUP) {
		if (m->cfg.infer_lost_switches && ev->u.wakeup.pid > 0)
			wakeup_of_running(m, ev);
		if (!ev->u.wakeup.success)
			return;
		if (m->mode == LAT_START_WAKING) {
			/* the target of the interval its sched_waking opened */
			t = m->waking_t;
			if (!t || t->pub.pid != ev->u.wakeup.pid)
				t = ev->u.wakeup.pid > 0 ? pid_map_get(&m->live, ev->u.wakeup.pid) : NULL;
			if (t && !t->dead && t->pending && t->wk_target < 0 && !t->wk_new)
				wake_target(m, t, ev->u.wakeup.target_cpu);
			return;
		}
	}
	if (ev->u.wakeup.pid > 0 &&
	    (t = get_task(m, ev->u.wakeup.pid, ev->u.wakeup.comm, ev->ts)))
		start_interval(m, t, ev, type);
}

static inline __attribute__((always_inline)) void
on_stat_runtime(struct lat_machine *m, const struct trace_event *ev, struct cpu_state *c)
{
	struct task *t;

	if (ev->u.stat_runtime.pid > 0 &&
	    (t = get_task_hint(m, c->curr_t, ev->u.stat_runtime.pid, ev->u.stat_runtime.comm,
			       ev->ts))) {
		uint64_t from = 0;

		t->pub.stat_runtime_ns += ev->u.stat_runtime.runtime;
		t->pub.nr_stat_runtime++;
		if (m->cfg.infer_lost_switches)
			from = stat_chain(t, ev->ts, ev->u.stat_runtime.runtime,
					  ev->common_pid == t->pub.pid ? ev->cpu : -1);
		if (m->nr_open && ev->common_pid == t->pub.pid)
			left_stamp(m, ev->cpu, t->pub.pid, from);
		if (m->cfg.infer_lost_switches && t->on_cpu >= 0 && t->on_cpu != ev->cpu &&
		    t->on_cpu < m->nr_cpus && m->cpus[t->on_cpu].curr == t->pub.pid &&
		    ev->ts > m->cpus[t->on_cpu].last) {
			/* a remote update_curr(): still that CPU's current */
			m->cpus[t->on_cpu].last = ev->ts;
			m->cpus[t->on_cpu].last_remote = true;
		}
	}
}

int lat_machine_feed_switch(struct lat_machine *m, const struct trace_event *ev)
{
	struct cpu_state *c = feed_cpu(m, ev, true);

	if (c)
		on_switch(m, ev, c);
	return m->oom ? -1 : 0;
}

int lat_machine_feed_wakeup(struct lat_machine *m, const struct trace_event *ev)
{
	if (feed_cpu(m, ev, false)) {
		if (ev->type == TRACE_EV_SCHED_WAKING)
			on_wakeup(m, ev, TRACE_EV_SCHED_WAKING);
		else if (ev->type == TRACE_EV_SCHED_WAKEUP)
			on_wakeup(m, ev, TRACE_EV_SCHED_WAKEUP);
		else
			on_wakeup(m, ev, TRACE_EV_SCHED_WAKEUP_NEW);
	}
	return m->oom ? -1 : 0;
}

/* lat_machine_feed_stat_runtime() in general: the out-of-line part */
static __attribute__((noinline)) int feed_stat_runtime(struct lat_machine *m,
							const struct trace_event *ev)
{
	struct cpu_state *c = feed_cpu(m, ev, false);

	if (c)
		on_stat_runtime(m, ev, c);
	return m->oom ? -1 : 0;
}

/*
 * A CPU's sched_stat_runtime nearly always names the task its last switch
 * put there: with the CPU's current task known from a switch and the hint
 * that task, the event is counted here without a call (feed_cpu() and
 * get_task_hint() would do the same: the CPU is seen and known, so no guess,
 * and the hint is the live task of the pid), and the function saves no
 * registers. Anything else goes to feed_stat_runtime().
 */
int lat_machine_feed_stat_runtime(struct lat_machine *m, const struct trace_event *ev)
{
	struct cpu_state *c;
	struct task *t;

	if ((unsigned)ev->cpu >= (unsigned)m->nr_cpus)
		return feed_stat_runtime(m, ev);
	c = &m->cpus[ev->cpu];
	t = c->curr_t;
	/* an open untraced switch may take its stamp from it: the general path */
	if (!c->seen || !c->known || ev->u.stat_runtime.pid <= 0 || !t ||
	    t->pub.pid != ev->u.stat_runtime.pid || t->dead || ev->common_pid != t->pub.pid ||
	    m->nr_open)
		return feed_stat_runtime(m, ev);
	m->sum.events++;
	c->last = ev->ts;               /* (feed_cpu(): an event in curr's context) */
	c->last_remote = false;
	if (ev->u.stat_runtime.comm[0]) {
		memcpy(t->pub.comm, ev->u.stat_runtime.comm, TRACE_COMM_LEN);
		t->pub.comm[TRACE_COMM_LEN - 1] = '\0';
	}
	t->pub.last_ts = ev->ts;
	t->pub.stat_runtime_ns += ev->u.stat_runtime.runtime;
	t->pub.nr_stat_runtime++;
	if (m->cfg.infer_lost_switches)    /* as on_stat_runtime(): report = replay */
		stat_chain(t, ev->ts, ev->u.stat_runtime.runtime, ev->cpu);
	return m->oom ? -1 : 0;
}

int lat_machine_feed(struct lat_machine *m, const struct trace_event *ev)
{
	struct cpu_state *c;
	struct task *t;

	if (ev->type == TRACE_EV_SCHED_PROCESS_EXEC)
		on_exec(m, &ev->u.exec, ev->cpu, ev->ts);   /* before its context is checked */
	c = feed_cpu(m, ev, ev->type == TRACE_EV_SCHED_SWITCH);

	if (!c)
		return m->oom ? -1 : 0;
	switch (ev->type) {
	case TRACE_EV_SCHED_SWITCH:
		on_switch(m, ev, c);
		break;
	case TRACE_EV_SCHED_WAKING:
		on_wakeup(m, ev, TRACE_EV_SCHED_WAKING);
		break;
	case TRACE_EV_SCHED_WAKEUP:
		on_wakeup(m, ev, TRACE_EV_SCHED_WAKEUP);
		break;
	case TRACE_EV_SCHED_WAKEUP_NEW:
		on_wakeup(m, ev, TRACE_EV_SCHED_WAKEUP_NEW);
		break;
	case TRACE_EV_SCHED_MIGRATE_TASK: {
		struct old_queued *q;

		t = NULL;
		if (m->nr_oldq && ev->u.migrate.pid > 0 &&
		    (t = old_named(m, ev->u.migrate.pid, ev->u.migrate.comm, ev->u.migrate.orig_cpu,
				   ev->type, ev->cpu, ev->ts, &q)))
			t->pub.last_ts = ev->ts;
		if (!t && ev->u.migrate.pid > 0)
			t = get_task(m, ev->u.migrate.pid, ev->u.migrate.comm, ev->ts);
		if (t) {
			if (t->exiting && t->runnable)
				old_queue(m, t, ev->u.migrate.dest_cpu);   /* moved while queued */
			t->pub.migrations++;
			t->stat_ts = 0;                 /* moved: a new run */
			if (t->left_open)
				left_close(m, t, true, -1);     /* moved while queued */
			if (m->cfg.infer_lost_switches && t->on_cpu >= 0 &&
			    ev->u.migrate.dest_cpu != t->on_cpu)
				left_elsewhere(m, t, LAT_LOST_MIGRATED, ev->ts);
		}
		break;
	}
	case TRACE_EV_SCHED_PROCESS_FORK: {
		const struct trace_sched_process_fork *f = &ev->u.fork;
		struct task *parent = f->parent_pid > 0 ?
			get_task(m, f->parent_pid, f->parent_comm, ev->ts) : NULL;
		struct task *old = pid_map_get(&m->live, f->child_pid);

		if (f->child_pid <= 0)
			break;
		if (old && !old->dead && old->left_open)
			left_close(m, old, false, -1);  /* its last switch, not the new task's */
		if (old && !old->dead && old->exiting && (old_on_cpu(m, old) || old->runnable)) {
			/*
			 * Past its sched_process_exit and still on its CPU: the
			 * pid was freed at exit_notify() (release_task(), or the
			 * parent's wait()), before the task's last switch
			 * (do_task_dead()), and a fork took it.  The old task
			 * stays that CPU's current (cpu_curr_task(), the
			 * CPU's hint): its events there until that switch are
			 * its own.  Preempted since its exit, it is queued
			 * (struct old_queued): its switch-in there, or a
			 * migration off there, is its own (old_named()).  The
			 * pid names the new task.
			 */
			if (!new_task(m, f->child_pid, old, ev->ts))
				break;
		} else if (old && !old->dead) {
			task_kill(old);         /* its exit was not seen: a new task now */
		}
		t = get_task(m, f->child_pid, f->child_comm, ev->ts);
		if (t && parent && !pid_map_get(&m->cg_seed, f->child_pid))
			t->pub.cgroup = parent->pub.cgroup;
		if (t) {
			/*
			 * A process (tgid its pid) or a thread of the parent's
			 * group (CLONE_THREAD): the event does not say which, so
			 * it is no known leader, and as a thread its tgid is the
			 * parent's when that is known.
			 */
			t->grp = TASK_GRP_UNKNOWN;
			t->fork_parent = parent;
			t->thread_tgid = !parent ? 0 :
				parent->grp == TASK_GRP_LEADER ? f->parent_pid :
				parent->grp == TASK_GRP_THREAD ? parent->thread_tgid : 0;
		}
		break;
	}
	case TRACE_EV_SCHED_PROCESS_EXIT:
		if (ev->u.exit.pid > 0 &&
		    (t = get_task(m, ev->u.exit.pid, ev->u.exit.comm, ev->ts)) &&
		    ev->common_pid == ev->u.exit.pid) {
			t->exiting = true;
			t->exit_group_dead = (int8_t)(ev->u.exit.group_dead < 0 ? -1 :
						      ev->u.exit.group_dead > 0);
		}
		break;
	case TRACE_EV_SCHED_STAT_RUNTIME:
		on_stat_runtime(m, ev, c);
		break;
	case TRACE_EV_CGROUP_ATTACH_TASK: {
		const struct trace_cgroup_attach_task *g = &ev->u.cgroup_attach;
		const char *p;

		if (g->dst_root >= 0)
			m->sum.cgroup_roots_seen |= 1ull << (g->dst_root < 63 ? g->dst_root : 63);
		if ((m->cfg.cgroup_root >= 0 && g->dst_root != m->cfg.cgroup_root) ||
		    (m->cfg.cgroup_follow && !m->cfg.cgroup_follow(m->cfg.cgroup_follow_ctx, g))) {
			m->sum.cgroup_moves_ignored++;
			break;
		}
		if (g->pid <= 0 || !(p = intern(m, g->dst_path, g->dst_path_len)))
			break;
		if ((t = get_task(m, g->pid, g->comm, ev->ts))) {
			t->pub.cgroup = p;
			m->sum.cgroup_moves++;
		}
		break;
	}
	default:
		break;
	}
	return m->oom ? -1 : 0;
}

int lat_machine_mute_pending(struct lat_machine *m, int32_t pid)
{
	struct task *t = pid > 0 ? pid_map_get(&m->live, pid) : NULL;

	if (!t || t->dead || !t->pending)
		return 0;
	t->muted = true;
	return 1;
}

void lat_machine_lost(struct lat_machine *m, int cpu, uint64_t n)
{
	struct cpu_state *c = get_cpu(m, cpu);

	(void)n;
	m->sum.lost_gaps++;
	left_close_all(m);
	for (size_t i = 0; i < m->nr_tasks; i++) {
		struct task *t = m->tasks[i];

		if (t->dead)
			continue;
		if (t->pending || t->runnable)
			m->sum.intervals_dropped_lost++;
		t->pending = false;
		t->runnable = false;
		if (t->on_cpu == cpu)
			t->on_cpu = -1;
	}
	if (c) {
		c->known = false;
		c->guessed = false;
	}
}

/*
 * Count every histogram's noted buckets (stats.h, "Batched counting") once the
 * stream has ended, so that readers after this - the reports, what-if worker
 * threads sharing the measured distributions - only read.
 */
static void settle_all(struct lat_machine *m)
{
	for (unsigned k = 0; k < LAT_NR_KINDS; k++) {
		sr_hist_settle(&m->all[k]);
		for (size_t i = 0; i < m->nr_tasks; i++)
			sr_hist_settle(&m->tasks[i]->pub.lat[k]);
		for (unsigned key = 0; key < LAT_NR_KEYS; key++)
			for (size_t i = 0; i < m->groups[key].n; i++)
				sr_hist_settle(&((struct lat_group *)m->groups[key].order[i])->lat[k]);
	}
	for (size_t i = 0; i < m->groups[LAT_BY_CGROUP].n; i++) {
		const struct lat_group *g = m->groups[LAT_BY_CGROUP].order[i];

		if (g->path_lat)
			for (int p = 0; p < LAT_PATH_NR; p++)
				sr_hist_settle(&g->path_lat[p]);
	}
	for (int p = 0; p < LAT_PATH_NR; p++)
		sr_hist_settle(&m->path_lat[p]);
}

/*
 * The total distribution of each kind. Every sample that passes the filter is
 * counted in exactly one by-comm group (commit(): the grouping by comm is
 * always on), so the total is the merge of those groups: the same buckets,
 * count, minimum and maximum as adding each sample to it too, which was one
 * of the three histogram adds per sample (commit() was a tenth of the
 * report's instructions). The sum is the one kept in the samples' order
 * (all_sum), so the mean is that of adding them one by one.
 */
static void build_all(struct lat_machine *m)
{
	const struct str_map *by_comm = &m->groups[LAT_BY_COMM];

	for (unsigned k = 0; k < LAT_NR_KINDS; k++) {
		for (size_t i = 0; i < by_comm->n; i++) {
			const struct lat_group *g = by_comm->order[i];

			if (sr_hist_merge(&m->all[k], &g->lat[k]))
				m->oom = true;
			m->all_over_long[k] += g->over_long[k];
			if (k == LAT_WAKEUP)
				for (int p = 0; p < LAT_PATH_NR; p++)
					m->all_paths[p] += g->paths[p];
		}
		m->all[k].sum = m->all_sum[k];
	}
	/*
	 * Likewise each path's latency from the by-cgroup groups', when kept:
	 * every sample that passes the filter is in exactly one of them.
	 */
	if (m->cfg.path_latency && m->cfg.group_by[LAT_BY_CGROUP])
		for (size_t i = 0; i < m->groups[LAT_BY_CGROUP].n; i++) {
			const struct lat_group *g = m->groups[LAT_BY_CGROUP].order[i];

			for (int p = 0; g->path_lat && p < LAT_PATH_NR; p++)
				if (sr_hist_merge(&m->path_lat[p], &g->path_lat[p]))
					m->oom = true;
		}
}

int lat_machine_finish(struct lat_machine *m, uint64_t end_ts)
{
	if (m->finished)
		return m->oom ? -1 : 0;
	m->finished = true;
	left_close_all(m);
	for (size_t i = 0; i < m->nr_tasks; i++) {
		struct task *t = m->tasks[i];

		if (t->on_cpu >= 0 && end_ts > t->run_start)
			t->pub.runtime_ns += end_ts - t->run_start;
	}
	if (m->mode == LAT_START_AUTO)
		decide_wakeup(m);
	build_all(m);
	if (!m->cfg.settle_when_read)
		settle_all(m);
	return m->oom ? -1 : 0;
}

const struct lat_summary *lat_get_summary(const struct lat_machine *m)
{
	return &m->sum;
}

const struct sr_hist *lat_get_all(const struct lat_machine *m, enum lat_kind kind)
{
	return &m->all[kind];
}

uint64_t lat_get_all_over_long(const struct lat_machine *m, enum lat_kind kind)
{
	return m->all_over_long[kind];
}

const uint64_t *lat_get_all_paths(const struct lat_machine *m)
{
	return m->all_paths;
}

const struct sr_hist *lat_get_all_path_latency(const struct lat_machine *m, enum lat_path p)
{
	return &m->path_lat[p];
}

const double lat_path_pct[LAT_PATH_NR_PCT] = { 50.0, 95.0, 99.0 };
const char *const lat_path_pct_key[LAT_PATH_NR_PCT] = { "p50", "p95", "p99" };

const char *lat_path_name(enum lat_path p)
{
	static const char *const name[LAT_PATH_NR] = {
		[LAT_PATH_IDLE] = "idle",
		[LAT_PATH_PREEMPT_LOCAL] = "preempt_local",
		[LAT_PATH_PREEMPT_REMOTE] = "preempt_remote",
		[LAT_PATH_BEHIND_LOCAL] = "behind_current_local",
		[LAT_PATH_BEHIND_REMOTE] = "behind_current_remote",
		[LAT_PATH_QUEUED_LOCAL] = "queued_local",
		[LAT_PATH_QUEUED_REMOTE] = "queued_remote",
		[LAT_PATH_MOVED] = "moved",
		[LAT_PATH_NEW] = "new",
		[LAT_PATH_UNKNOWN] = "unknown",
	};

	return (unsigned)p < LAT_PATH_NR ? name[p] : "?";
}

size_t lat_nr_tasks(const struct lat_machine *m)
{
	return m->nr_tasks;
}

const struct lat_task *lat_task_at(const struct lat_machine *m, size_t i)
{
	return i < m->nr_tasks ? &m->tasks[i]->pub : NULL;
}

bool lat_task_comm_next(const struct lat_machine *m, const struct lat_task *lt, size_t *it,
			enum lat_kind kind, const char **comm, uint64_t *n)
{
	const struct task *t = (const struct task *)(const void *)
			       ((const char *)lt - offsetof(struct task, pub));

	(void)m;
	for (; *it < t->nr_tallies; (*it)++) {
		const struct comm_tally *c = &t->tallies[*it];

		if (c->n[kind]) {
			*comm = c->g->key;
			*n = c->n[kind];
			(*it)++;
			return true;
		}
	}
	return false;
}

size_t lat_nr_groups(const struct lat_machine *m, enum lat_group_key key)
{
	return m->groups[key].n;
}

const struct lat_group *lat_group_at(const struct lat_machine *m, enum lat_group_key key,
				     size_t i)
{
	return i < m->groups[key].n ? m->groups[key].order[i] : NULL;
}

const struct lat_group *lat_group_find(const struct lat_machine *m, enum lat_group_key key,
				       const char *k)
{
	return str_map_find(&m->groups[key], k, strlen(k));
}
