/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's private view of the scheduler: the structures of
 * kernel/sched/sched.h that the fair class needs, with the kernel's field
 * names, and the functions the model's files share.  Functions carry the
 * name of the kernel function they mirror, so a reader can hold the two side
 * by side; each .c file says which kernel file it follows.
 *
 * Units: times in ns unless named otherwise; `lw` is a full-resolution
 * load.weight (nice 0 = 1 << 20), `w` the scaled-down one (nice 0 = 1024).
 */
#ifndef SCHEDREPLAY_MODEL_SCHED_H
#define SCHEDREPLAY_MODEL_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <schedreplay/model.h>

#include "counters.h"
#include "pelt.h"
#include "profile_table.h"

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;

_Static_assert(sizeof(long) == 8, "the model assumes LP64, as the 64-bit kernel");

/* ---- constants (kernel/sched/sched.h, include/linux/sched.h) ---------- */

#define SCHED_FIXEDPOINT_SHIFT 10
#define SCHED_CAPACITY_SHIFT   10
#define SCHED_CAPACITY_SCALE   (1L << SCHED_CAPACITY_SHIFT)
#define NICE_0_LOAD_SHIFT      (SCHED_FIXEDPOINT_SHIFT + SCHED_FIXEDPOINT_SHIFT)
#define NICE_0_LOAD            (1UL << NICE_0_LOAD_SHIFT)
#define MIN_SHARES             (1UL << 1)
#define MAX_SHARES             (1UL << 18)
#define WMULT_CONST            (~0U)
#define WMULT_SHIFT            32
#define PELT_MIN_DIVIDER       (LOAD_AVG_MAX - 1024)
#define WEIGHT_IDLEPRIO        3
#define WMULT_IDLEPRIO         1431655765
#define NSEC_PER_MSEC          1000000ULL

static inline unsigned long scale_load(unsigned long w)
{
	return w << SCHED_FIXEDPOINT_SHIFT;
}

/* 0 stays 0; anything else is at least 2 (a group with tiny shares). */
static inline unsigned long scale_load_down(unsigned long w)
{
	unsigned long x = w >> SCHED_FIXEDPOINT_SHIFT;

	if (x)
		return x < 2 ? 2 : x;
	return w ? 2 : 0;
}

extern const int sched_prio_to_weight[40];
extern const u32 sched_prio_to_wmult[40];

/* update_load_avg() flags */
#define UPDATE_TG      0x1
#define SKIP_AGE_LOAD  0x2
#define DO_ATTACH      0x4
#define DO_DETACH      0x8

/* enqueue/dequeue flags (kernel/sched/sched.h) */
#define DEQUEUE_SLEEP     0x01
#define DEQUEUE_SAVE      0x02
#define DEQUEUE_MOVE      0x04
#define DEQUEUE_NOCLOCK   0x08
#define DEQUEUE_SPECIAL   0x10
#define DEQUEUE_MIGRATING 0x100
#define DEQUEUE_DELAYED   0x200
#define DEQUEUE_THROTTLE  0x800   /* 6.18: throttle_cfs_rq_work() */

#define ENQUEUE_WAKEUP    0x01
#define ENQUEUE_RESTORE   0x02
#define ENQUEUE_MOVE      0x04
#define ENQUEUE_NOCLOCK   0x08
#define ENQUEUE_INITIAL   0x80
#define ENQUEUE_MIGRATING 0x100
#define ENQUEUE_DELAYED   0x200
#define ENQUEUE_MIGRATED  0x1000

#define TASK_ON_RQ_QUEUED    1
#define TASK_ON_RQ_MIGRATING 2

enum model_counter {
#define C(id, name, what) MC_##id,
	MODEL_COUNTERS(C)
#undef C
	NR_MODEL_COUNTERS
};

/* ---- kernel profile ------------------------------------------------- */

enum model_bw_counter {
#define C(id, name, what) MBC_##id,
	MODEL_BW_COUNTERS(C)
#undef C
	NR_MODEL_BW_COUNTERS
};
#define BW_COUNT(m, c) ((m)->bw_counters[MBC_##c]++)

enum model_feat {
#define F(name, a, b, c, d, sf, why) FEAT_##name,
	MODEL_PROFILE_FEATURES(F)
#undef F
	NR_MODEL_FEATS
};

struct model_profile {
	const char *name;
	const char *description;
	unsigned char feat[NR_MODEL_FEATS];
#define T(name, unit, a, b, c, d, why) int64_t name;
	MODEL_PROFILE_TUNABLES(T)
#undef T
	int column;                 /* index in the profile table */
};

/* ---- load tracking (kernel/sched/sched.h, include/linux/sched.h) ------ */

struct load_weight {
	unsigned long weight;
	u32 inv_weight;
};


struct cfs_rq;
struct rq;
struct task_group;

struct sched_entity {
	struct load_weight load;
	struct sched_avg avg;

	/* timeline node (timeline.c): a treap ordered like the kernel's rb-tree */
	struct sched_entity *tl_left, *tl_right;
	u64 tl_seq;                 /* insertion order: ties go right, as rb_add() */
	s64 tl_keyv;                /* deadline (EEVDF) or vruntime (CFS) at insertion */
	u32 tl_prio;
	u64 min_vruntime;           /* augmented: min vruntime of the subtree */
	u64 min_slice;              /* augmented: min slice of the subtree */
	u64 max_slice;              /* augmented: max slice of the subtree (6.17+ lag clamp) */

	u64 vruntime;
	u64 deadline;
	u64 slice;
	s64 vlag;
	u64 vprot;                  /* PROTECT_VPROT: protected up to this vruntime (6.17+) */
	u64 exec_start;
	u64 sum_exec_runtime;
	u64 prev_sum_exec_runtime;
	long runnable_weight;       /* group se: runnable tasks below */

	unsigned char on_rq;
	unsigned char sched_delayed;
	unsigned char rel_deadline;
	unsigned char handoff_buddy;    /* cfs_rq->next by model_preempt_for() (the trace's decision), not by a kernel path */
	unsigned char custom_slice;
	unsigned char no_history;   /* never placed since the model began: a group's entity,
				       a task started sleeping (model_expect_wakeup()) */

	int depth;
	struct sched_entity *parent;
	struct cfs_rq *cfs_rq;      /* the queue this entity is (to be) queued on */
	struct cfs_rq *my_q;        /* group entity: the queue it represents */
	struct model_task *task;    /* task entity: its task; NULL for a group */
};

struct cfs_rq {
	struct load_weight load;
	unsigned int nr_running;
	unsigned int h_nr_queued;
	unsigned int h_nr_runnable;
	unsigned int h_nr_delayed;
	unsigned int idle_nr_running;
	unsigned int idle_h_nr_running;

	s64 avg_vruntime;           /* \Sum (v_i - v0) * w_i over the tree */
	long avg_load;              /* \Sum w_i over the tree */
	u64 zero_vruntime;          /* EEVDF origin v0 (ZERO_VRUNTIME) */
	u64 min_vruntime;           /* CFS, and the EEVDF origin without ZERO_VRUNTIME */

	struct sched_entity *tl_root;
	u64 tl_seq;

	struct sched_entity *curr;
	struct sched_entity *next;
	struct sched_entity *last;

	struct sched_avg avg;
	struct {
		int nr;
		unsigned long load_avg;
		unsigned long util_avg;
		unsigned long runnable_avg;
	} removed;

	long propagate;
	long prop_runnable_sum;
	long prop_removed_sum;      /* MODEL_V_DELAY_REMOVED_LOAD */

	unsigned long tg_load_avg_contrib;
	u64 last_update_tg_load_avg;

	unsigned long h_load;
	unsigned long last_h_load_update;

	struct rq *rq;
	struct task_group *tg;
	struct sched_entity *se;    /* tg->se[cpu]; NULL for the root */

	/* leaf_cfs_rq_list: children before parents (see balance.c) */
	bool on_list;
	int nr_children_on_list;
	struct cfs_rq *leaf_prev, *leaf_next;

	/* CFS bandwidth (bandwidth.c; CONFIG_CFS_BANDWIDTH) */
	int runtime_enabled;
	s64 runtime_remaining;      /* ns this queue may still run before asking its tg */
	int throttled;              /* this queue is throttled (on cfs_b's throttled list) */
	int throttle_count;         /* throttled queues among it and its ancestors */
	bool pelt_clock_throttled;  /* PELT clock stopped: throttled and empty */
	u64 throttled_clock;        /* rq clock at the first throttled dequeue, 0: none */
	u64 throttled_clock_self, throttled_clock_self_time;
	u64 throttled_clock_pelt, throttled_clock_pelt_time;
	struct cfs_rq *throttled_prev, *throttled_next;   /* cfs_b->throttled_cfs_rq */
	struct model_task *limbo_head;   /* throttled_limbo_list: tasks dequeued by throttling */
};

#define MODEL_MAX_DOMAINS 2

struct sched_domain {
	const char *name;           /* "MC" (the CPUs of a node), "NUMA" (all) */
	int *span;                  /* CPUs, ascending */
	int span_weight;
	unsigned int flags;
	u64 max_newidle_lb_cost;
	unsigned long last_decay_max_lb_cost;
	unsigned long last_balance;
	unsigned int balance_interval;   /* ms: min_interval .. max_interval */
	unsigned int min_interval, max_interval;   /* sd_init(): span, 2 x span */
	bool numa;                  /* groups are nodes (else single CPUs) */
	bool top;                   /* no parent: balancing it recomputes rd->overloaded */
	unsigned int busy_factor;
	unsigned int newidle_call, newidle_success, newidle_ratio;
	unsigned int nr_balance_failed;  /* periodic balances in a row that moved nothing */
	unsigned int cache_nice_tries;   /* sd_init(): 1 (LLC), 2 (NUMA) */
	unsigned int imbalance_pct;      /* sd_init(): 117 (no SMT level) */
	unsigned int imb_numa_nr;        /* NUMA: tasks allowed before balancing nodes */
	bool share_llc;                  /* SD_SHARE_LLC (MC) */
};

struct rq {
	struct model *model;
	int cpu;
	int node;
	unsigned int nr_running;    /* fair tasks queued (delayed included) + other class */
	struct cfs_rq cfs;
	struct model_task *curr;    /* the fair task running, or NULL */
	bool other_class;           /* a non-fair task holds the CPU */
	uint8_t other_cls;             /* ... its class (enum model_other_cls) */
	/*
	 * rq->avg_rt / avg_dl: the PELT signals of the time the CPU ran an RT
	 * / DL task (update_rt_rq_load_avg(), update_dl_rq_load_avg()), kept
	 * unless model_config.no_others_pelt (model/pelt_others.c)
	 */
	struct sched_avg avg_rt, avg_dl;
	/*
	 * rq->cpu_capacity (capacity_of()): update_cpu_capacity()'s
	 * scale_rt_capacity(), 1024 until this CPU's balance refreshes it
	 * (model/balance.c); it is also the capacity of this CPU's MC-level
	 * group (sgc->capacity of a single-CPU group) ...
	 */
	unsigned long cpu_capacity;
	unsigned long sgc_next_update;   /* ... and that group's sgc->next_update (jiffies) */
	bool switch_pending;        /* the non-fair task left: next __schedule switches */
	bool need_resched;
	bool clock_skip_req;        /* RQCF_REQ_SKIP: the next __schedule() keeps the clock */

	u64 clock;                  /* rq_clock() */
	u64 clock_task;             /* rq_clock_task(): clock less left[] (IRQ, steal) */
	u64 clock_pelt;             /* == clock_task: no capacity/frequency scaling */
	struct model_clock_point *left;  /* model_config.clock_left's (NULL: none) */
	u32 left_n, left_i;         /* ... points, and the last one looked up */
	u64 clock_idle, clock_pelt_idle;

	u64 avg_idle;
	u64 idle_stamp;
	u64 max_idle_balance_cost;
	unsigned long next_balance;            /* jiffies */
	unsigned long last_blocked_load_update_tick;
	bool has_blocked_load;
	bool nohz_idle;                         /* in nohz.idle_cpus_mask */
	bool idle_tick_kept;        /* the next idle entry keeps the tick (model_idle_tick()) */
	bool idle_balance;                      /* the tick found the CPU idle */
	bool active_balance;        /* stopper work queued here (active balance), not yet run */
	int push_cpu;               /* ... and the CPU it pushes to */
	/*
	 * migration_cpu_stop() work queued here by an affinity change
	 * (affine_move_task()): move affine_task to affine_dst; NULL: none
	 */
	struct model_task *affine_task;
	int affine_dst;
	/* lib/cpumask.c's per-CPU distribute_cpu_mask_prev (cpumask_any_and_distribute()) */
	int distribute_prev;

	struct cfs_rq *leaf_head, *leaf_tail;
	struct model_task *cfs_tasks_head, *cfs_tasks_tail;   /* queued tasks */

	struct sched_domain sd[MODEL_MAX_DOMAINS];
	int nr_sd;

	u64 rnd_state;              /* sched_rng() */
};

/*
 * struct cfs_bandwidth (kernel/sched/sched.h): a task group's CPU bandwidth
 * pool, refilled to quota every period by the period timer.  Times in ns.
 * The two hrtimers are expiry times the caller's event loop runs
 * (model_next_timer() / model_run_timers()).
 */
#define RUNTIME_INF ((u64)~0ULL)
struct cfs_bandwidth {
	u64 period;
	u64 quota;                  /* RUNTIME_INF: no limit */
	u64 burst;                  /* cpu.cfs_burst_us: always 0 in the model */
	u64 runtime;                /* left in the pool this period */
	u64 runtime_snap;
	bool idle;                  /* no runtime handed out since the last period */
	bool period_active;         /* the period timer is armed */
	bool slack_started;         /* the slack timer is armed */
	u64 period_expires;         /* the period timer's expiry (its grid: expires + k * period) */
	u64 slack_expires;
	struct cfs_rq *throttled_head, *throttled_tail;   /* throttled_cfs_rq, in throttle order */
	u64 nr_periods, nr_throttled, throttled_time;     /* cpu.stat */
};

struct task_group {
	struct task_group *parent;
	struct task_group *children, *sibling;   /* tg->children: newest first */
	struct cfs_bandwidth cfs_bandwidth;
	unsigned long shares;       /* scaled: scale_load(cpu.shares) */
	long load_avg;              /* atomic_long_t tg->load_avg */
	long *node_load_avg;        /* MODEL_V_TG_LOAD_PER_NODE: per node */
	struct sched_entity **se;   /* per CPU; NULL for the root */
	struct cfs_rq **cfs_rq;     /* per CPU */
	int depth;                  /* root 0 */
	int idle;
	bool autogroup;             /* an autogroup (CONFIG_SCHED_AUTOGROUP): task_wants_autogroup() */
	char *name;
	struct task_group *next_alloc;
};

enum task_state_model {
	TS_NEW,
	TS_RUNNING,                 /* TASK_RUNNING (queued or on a CPU) */
	TS_SLEEPING,
	TS_DEAD,
};

struct model_task {
	struct sched_entity se;
	int nice;
	int policy;
	int cpu;                    /* task_cpu(); -1 before the first placement */
	int on_rq;                  /* 0, TASK_ON_RQ_QUEUED, TASK_ON_RQ_MIGRATING */
	enum task_state_model state;
	struct task_group *tg;
	bool first_enqueue;         /* not yet through its first update_load_avg */
	/* se.avg from the capture's kernel (model_task_set_pelt()): aged from
	 * pelt_init_lut to the clock of its first attach, as a migration's
	 * sync_entity_load_avg() ages a blocked entity */
	bool pelt_init;
	bool pelt_init_running;     /* ... on its CPU since (aged loaded and running) */
	bool pelt_init_queued;      /* ... queued, not running, since (aged loaded) */
	u64 pelt_init_lut;
	/* the same thread's fair entity before a class change (model_task_set_class_prev()):
	 * its PELT and lag are taken over at this task's first wakeup (class_carry()) */
	struct model_task *class_prev;
	bool class_left;            /* detached by model_task_switched_from_fair() */
	bool pinned;                /* nr_cpus_allowed == 1: the balancer leaves it alone */
	int allowed_cpu;            /* pinned to this CPU (cpumask_any(p->cpus_ptr)); -1: to
				       its current one (model_task_set_pinned()) or free */
	/*
	 * p->cpus_mask for a mask of several CPUs but not all
	 * (model_task_set_allowed_mask()): bit n of word n / 64 allows CPU n;
	 * NULL for the "one CPU or all" forms above (pinned, allowed_cpu).
	 * nr_cpus_allowed counts its CPUs (0 when it is NULL); read it through
	 * task_nr_cpus_allowed(), which gives the count for every form.
	 */
	uint64_t *cpus_mask;
	int nr_cpus_allowed;
	bool initial_credit;        /* model_task_set_initial_credit(): a long sleeper before
				       the trace (place_entity_cfs()) */
	bool wake_migrated;         /* moved while asleep: next wakeup is ENQUEUE_MIGRATED */
	bool exiting;               /* past do_exit()'s sched_move_task() (PF_EXITING) */
	bool throttled;             /* on a throttled_limbo_list: dequeued, p->on_rq kept */
	bool throttle_work;         /* sched_throttle_work queued: runs at its next reschedule */
	struct model_task *limbo_prev, *limbo_next;
	int recent_used_cpu;        /* select_idle_sibling()'s candidate; -1: none yet */
	unsigned int wakee_flips;   /* record_wakee() / wake_wide() */
	unsigned long wakee_flip_decay_ts;   /* jiffies */
	const struct model_task *last_wakee;
	struct model_task *cfs_prev, *cfs_next;   /* rq->cfs_tasks, MRU first */
	uint32_t id;
	void *priv;
	struct model_task *next_alloc;
};

/* Resolved behaviour: profile + variants. */
struct model_behaviour {
	uint32_t vflags;            /* enum model_variant_flag */
	u64 tg_ratelimit_ns;
	const struct model_variant *hooks[MODEL_VARIANT_SET_MAX];
	unsigned int nr_hooks;
};

struct model {
	struct model_profile prof;  /* a copy: the effective profile */
	struct model_behaviour b;
	struct model_variant_set variants;
	struct model_sched_features sched_features;  /* the toggles applied to prof */
	unsigned int nr_cpus;
	int nr_nodes;
	unsigned int hz;
	u64 tick_nsec;
	unsigned long jiffies;
	u64 now;                    /* latest time seen */
	bool balance_moves_tasks;
	bool newidle_moves_tasks;
	/* model_set_traced_newidle(): the task the next newidle balance of that CPU pulls */
	struct model_task *traced_newidle;
	int traced_newidle_cpu;
	bool traced_newidle_done;   /* ... it did */
	struct model_newidle_info last_newidle;  /* model_last_newidle() */
	uint64_t idle_moves_cpus;    /* model_config.idle_moves_tasks: for these CPUs (bit n: CPU n) */
	bool vcpu_pack;             /* model_config.vcpu_pack: vcpu_pack_room() placement */
	bool exit_keeps_autogroup;  /* model_config.exit_keeps_autogroup */
	bool others_pelt;           /* !model_config.no_others_pelt: rq->avg_rt / avg_dl kept */
	bool rt_capacity;           /* !model_config.fixed_cpu_capacity: scale_rt_capacity() */
	bool vcpu_pack_flat;        /* model_config.vcpu_pack_flat: its cut whatever the idle time */
	unsigned int newidle_ratio0; /* the domains' starting newidle_ratio (model_config) */
	bool idle_clock_skip;       /* model_config.idle_clock_skip: wakeup_preempt() on idle */
	bool block_clock_after;     /* model_config.block_clock_after: __schedule() of a block */
	bool cfs_initial_credit;    /* model_config.cfs_initial_credit: place_entity_cfs() */
	bool cfs_initial_credit_tasks; /* model_config.cfs_initial_credit_tasks: ... for the
					  tasks marked model_task_set_initial_credit() */
	void (*migrate_hook)(void *ctx, uint32_t id, int from, int to, uint64_t now);
	void (*stopper_hook)(void *ctx, int cpu, int waker_cpu, uint64_t now);
	void (*stat_runtime_hook)(void *ctx, int cpu, uint32_t id, uint64_t runtime, uint64_t now);
	void *hook_ctx;

	/* tunables after CPU-count scaling (update_sysctl()) */
	unsigned int factor;
	u64 sysctl_sched_base_slice;
	u64 sysctl_sched_latency;
	u64 sysctl_sched_min_granularity;
	u64 sysctl_sched_wakeup_granularity;
	u64 sysctl_sched_idle_min_granularity;
	unsigned int sched_nr_latency;
	u64 sysctl_sched_migration_cost;
	u64 newidle_domain_cost_ns;
	u64 blocked_cost_per_cfs_rq_ns;

	struct rq *rqs;
	struct task_group root_task_group;
	struct task_group *groups;  /* allocation list */
	struct model_task *tasks;   /* allocation list */

	/* nohz (kernel/sched/fair.c struct nohz) */
	struct {
		unsigned int nr_cpus;
		bool has_blocked;
		bool needs_update;          /* a CPU entered the mask: NOHZ_NEXT_KICK */
		unsigned long next_blocked;
		unsigned long next_balance;
	} nohz;
	bool rd_overloaded;
	/* model_overload_info(): the flag's last set / clear and their counts */
	uint64_t rd_overload_sets, rd_overload_clears;
	struct model_overload_change rd_overload_set, rd_overload_clear;
	enum model_overload_site lb_site;   /* the running balance's caller (not newidle) */

	u64 tl_rng;                 /* treap priorities */
	/*
	 * model_expect_wakeup(): the traced outcome of the next wakeup's check
	 * (cleared by model_try_to_wake_up()), the task it wakes while it
	 * enqueues, and what the initial lag inference made of it.
	 */
	enum model_wakeup_expect expect;
	struct model_task *expect_task;
	enum model_initial_lag lag_result;
	s64 lag_vlag;
	unsigned long lag_weight;
	unsigned int cfs_bandwidth_used;   /* groups with a quota: the kernel's static key */
	unsigned int nr_throttled_tasks;   /* on limbo lists */
	u64 bw_counters[NR_MODEL_BW_COUNTERS];

	u64 counters[NR_MODEL_COUNTERS];
	u64 *tg_writes_node;        /* per node */
	int *nr_idle_scan;          /* per node (the LLC): sd_llc_shared->nr_idle_scan */
	unsigned char *lb_cpus;     /* sched_balance_rq()'s env->cpus, per CPU */
	unsigned char *sgc_imbalance;  /* per node: its NUMA-level group's sgc->imbalance */
	unsigned long *sgc_capacity;   /* per node: its NUMA-level group's sgc->capacity */
	unsigned long *sgc_next_update;  /* ... and sgc->next_update (jiffies) */
};

/* ---- small helpers -------------------------------------------------- */

#define for_each_sched_entity(se) for (; se; se = (se)->parent)

static inline bool entity_is_task(const struct sched_entity *se)
{
	return se->my_q == NULL;
}

static inline struct cfs_rq *cfs_rq_of(const struct sched_entity *se)
{
	return se->cfs_rq;
}

static inline struct cfs_rq *group_cfs_rq(const struct sched_entity *se)
{
	return se->my_q;
}

static inline unsigned long se_weight(const struct sched_entity *se)
{
	return scale_load_down(se->load.weight);
}

static inline long se_runnable(const struct sched_entity *se)
{
	if (se->sched_delayed)
		return 0;
	if (entity_is_task(se))
		return !!se->on_rq;
	return se->runnable_weight;
}

static inline u32 get_pelt_divider_model(const struct sched_avg *avg, bool v48)
{
	/* v4.8 divided by LOAD_AVG_MAX whatever the window position (spec §8.3) */
	if (v48)
		return LOAD_AVG_MAX;
	return PELT_MIN_DIVIDER + avg->period_contrib;
}

static inline u64 max_u64(u64 a, u64 b) { return a > b ? a : b; }

/*
 * cpumask_test_cpu(cpu, p->cpus_ptr) for a mask of several CPUs but not all
 * (p->cpus_mask); true for the "one CPU or all" forms, whose tests (pinned,
 * allowed_cpu) stay where they were before the mask existed.
 */
static inline bool task_mask_allows(const struct model_task *p, int cpu)
{
	return !p->cpus_mask || (cpu >= 0 && (p->cpus_mask[(unsigned int)cpu / 64] >>
					      ((unsigned int)cpu % 64) & 1));
}

/*
 * p->nr_cpus_allowed (set_cpus_allowed_common()) for every form of the
 * model's mask: 1 for a pinned task, the mask's weight for a mask of
 * several CPUs, else all the model's CPUs.
 */
static inline int task_nr_cpus_allowed(const struct model *m, const struct model_task *p)
{
	if (p->pinned)
		return 1;
	return p->cpus_mask ? p->nr_cpus_allowed : (int)m->nr_cpus;
}
static inline u64 min_u64(u64 a, u64 b) { return a < b ? a : b; }

static inline void update_load_add(struct load_weight *lw, unsigned long inc)
{
	lw->weight += inc;
	lw->inv_weight = 0;
}

static inline void update_load_sub(struct load_weight *lw, unsigned long dec)
{
	lw->weight -= dec;
	lw->inv_weight = 0;
}

static inline void update_load_set(struct load_weight *lw, unsigned long w)
{
	lw->weight = w;
	lw->inv_weight = 0;
}

#define sched_feat(m, x) ((m)->prof.feat[FEAT_##x])
#define vflag(m, x) (((m)->b.vflags & MODEL_V_##x) != 0)
#define COUNT(m, c) ((m)->counters[MC_##c]++)

/*
 * vlag_written(): called after every write of se->vlag.  6.18 up to 6.18.44
 * keep vlag and vprot in one field (variant vlag-vprot-union), so a lag written to
 * the running entity is its protection from then on: protect_slice() then
 * compares the lag (a few ms at most) with the vruntime, and on a queue
 * whose virtual clock is far above any lag (the root) the protection is
 * over.  The other direction (set_protect_slice() overwriting curr's lag)
 * needs no mirror: every read of a queued entity's lag follows an
 * update_entity_lag() (dequeue, reweight, requeue of a delayed entity).
 */
static inline void vlag_written(const struct model *m, struct sched_entity *se)
{
	if (vflag(m, VLAG_VPROT_UNION))
		se->vprot = (u64)se->vlag;
}

static inline struct rq *rq_of(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->rq;
}

static inline struct model_task *task_of(const struct sched_entity *se)
{
	return se->task;
}

static inline bool task_on_rq_migrating(const struct model_task *p)
{
	return p->on_rq == TASK_ON_RQ_MIGRATING;
}

static inline bool task_on_rq_queued(const struct model_task *p)
{
	return p->on_rq == TASK_ON_RQ_QUEUED;
}

static inline struct model *model_of_rq(const struct rq *rq)
{
	return rq->model;
}

static inline struct model *model_of(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->rq->model;
}

/* ---- fair.c / eevdf.c / cfs.c (kernel/sched/fair.c) ------------------- */
u64 __calc_delta(u64 delta_exec, unsigned long weight, struct load_weight *lw);
u64 calc_delta_fair(u64 delta, struct sched_entity *se);
void update_curr(struct model *m, struct cfs_rq *cfs_rq);
void enqueue_task_fair(struct model *m, struct rq *rq, struct model_task *p, int flags);
bool dequeue_task_fair(struct model *m, struct rq *rq, struct model_task *p, int flags);
int dequeue_entities(struct model *m, struct rq *rq, struct sched_entity *se, int flags);
/* enqueue_entity() / dequeue_entity(): one entity on one queue (fair.c; the pre-6.18 throttle's group entity) */
void enqueue_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
bool dequeue_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
struct model_task *pick_next_task_fair(struct model *m, struct rq *rq, struct model_task *prev,
				       bool prev_fair);
void put_prev_task_fair(struct model *m, struct rq *rq, struct model_task *prev);
void set_next_task_fair(struct model *m, struct rq *rq, struct model_task *p, bool first);
void task_tick_fair(struct model *m, struct rq *rq, struct model_task *curr);
void check_preempt_wakeup_fair(struct model *m, struct rq *rq, struct model_task *p, int wake_flags);
void migrate_task_rq_fair(struct model *m, struct model_task *p, int new_cpu);
void task_dead_fair(struct model *m, struct model_task *p);
void task_fork_fair(struct model *m, struct model_task *p, int parent_cpu);
void post_init_entity_util_avg(struct model *m, struct model_task *p);
void init_entity_runnable_average(struct model *m, struct sched_entity *se);
void task_change_group_fair(struct model *m, struct model_task *p);
void reweight_task_fair(struct model *m, struct rq *rq, struct model_task *p, int nice);
void resched_curr(struct model *m, struct rq *rq);
void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se);
void set_next_buddy(struct sched_entity *se);
void find_matching_se(struct sched_entity **se, struct sched_entity **pse);
void place_initial_cfs(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *pse);
void yield_task_fair(struct model *m, struct rq *rq);
bool yield_to_task_fair(struct model *m, struct rq *rq, struct model_task *p);
void reweight_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se,
		     unsigned long weight);

/* eevdf.c */
u64 avg_vruntime(struct model *m, struct cfs_rq *cfs_rq);
void avg_vruntime_add(struct cfs_rq *cfs_rq, struct sched_entity *se);
void avg_vruntime_sub(struct cfs_rq *cfs_rq, struct sched_entity *se);
u64 entity_lag_bound(struct model *m, struct sched_entity *se);
s64 entity_lag(struct model *m, u64 avruntime, struct sched_entity *se);
void update_entity_lag(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se);
int vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime);
int entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se);
u64 cfs_rq_min_slice(struct cfs_rq *cfs_rq);
struct sched_entity *pick_eevdf(struct model *m, struct cfs_rq *cfs_rq);
/* Whether a pick (pick_eevdf(), pick_task_fair()) honours curr's slice protection */
bool pick_protects(const struct model *m);
bool update_deadline(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se);
s64 place_lag(struct cfs_rq *cfs_rq, struct sched_entity *se, s64 vlag);
void place_entity_eevdf(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
void reweight_eevdf(struct model *m, struct sched_entity *se, u64 avruntime, unsigned long weight);
u64 cfs_rq_max_slice(struct cfs_rq *cfs_rq);
void set_protect_slice(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se);
void update_protect_slice(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se);
bool protect_slice(const struct model *m, const struct sched_entity *se);
void cancel_protect_slice(const struct model *m, struct sched_entity *se);
struct sched_entity *__pick_eevdf(struct model *m, struct cfs_rq *cfs_rq, bool protect);
bool entity_before(const struct model *m, const struct sched_entity *a,
		   const struct sched_entity *b);
u64 cfs_rq_origin(const struct model *m, const struct cfs_rq *cfs_rq);

/* cfs.c */
void update_min_vruntime(struct model *m, struct cfs_rq *cfs_rq);
u64 sched_slice(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se);
void place_entity_cfs(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se, int initial);
void check_preempt_tick(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *curr);
struct sched_entity *pick_next_entity_cfs(struct model *m, struct cfs_rq *cfs_rq,
					  struct sched_entity *curr);
int wakeup_preempt_entity(struct model *m, struct sched_entity *curr, struct sched_entity *se);
void check_preempt_wakeup_cfs(struct model *m, struct rq *rq, struct model_task *p, int wake_flags);
void set_last_buddy(struct sched_entity *se);
void set_preempt_buddies_cfs(struct model *m, struct rq *rq, struct model_task *p);

/* timeline.c: the rb-tree of queued entities */
void __enqueue_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se);
void __dequeue_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se);
void __restore_entity(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se);
struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq);
struct sched_entity *__pick_root_entity(struct cfs_rq *cfs_rq);
struct sched_entity *__pick_next_entity(struct model *m, struct cfs_rq *cfs_rq,
					struct sched_entity *se);
void min_vruntime_cb_propagate(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se);
int timeline_walk(struct cfs_rq *cfs_rq, int (*fn)(struct sched_entity *, void *), void *arg);

/* load_avg.c: PELT glue of kernel/sched/fair.c */
void update_load_avg(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
int update_cfs_rq_load_avg(struct model *m, u64 now, struct cfs_rq *cfs_rq);
void attach_entity_load_avg(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se);
void detach_entity_load_avg(struct model *m, struct cfs_rq *cfs_rq, struct sched_entity *se);
void remove_entity_load_avg(struct model *m, struct sched_entity *se);
void sync_entity_load_avg(struct model *m, struct sched_entity *se);
void migrate_se_pelt_lag(struct model *m, struct sched_entity *se);
void enqueue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se);
void dequeue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se);
void attach_entity_cfs_rq(struct model *m, struct sched_entity *se);
void pelt_init_age(struct model *m, struct sched_entity *se, u64 now);
void detach_entity_cfs_rq(struct model *m, struct sched_entity *se);
void propagate_entity_cfs_rq(struct model *m, struct sched_entity *se);
bool skip_blocked_update(struct sched_entity *se);
bool load_avg_is_decayed(const struct sched_avg *sa);
void se_update_runnable(struct sched_entity *se);
u64 cfs_rq_clock_pelt(const struct cfs_rq *cfs_rq);

/* tg.c: task groups and shares */
void update_tg_load_avg(struct model *m, struct cfs_rq *cfs_rq);
long calc_group_shares(struct model *m, struct cfs_rq *cfs_rq);
void update_cfs_group(struct model *m, struct sched_entity *se, enum model_cfs_group_site site,
		      unsigned int nr_running_before);
long tg_load_avg_read(struct model *m, struct task_group *tg);
int tg_alloc_percpu(struct model *m, struct task_group *tg, struct sr_error *err);
void tg_free(struct model *m, struct task_group *tg);
void init_cfs_rq(struct model *m, struct cfs_rq *cfs_rq, struct rq *rq, struct task_group *tg);

/*
 * balance.c: sched_balance_rq()'s environment (kernel/sched/fair.c struct
 * lb_env, sg_lb_stats, the group and migration types).  The types the model
 * cannot produce (SMT balance, asym packing and migrate_misfit: no SMT, no
 * asymmetric CPUs) are left out; group_misfit_task is kept for a CPU whose
 * capacity RT/DL time reduced (sched_reduced_capacity()); the order of
 * those kept is the kernel's, so comparisons between group types mean the
 * same.
 */
enum cpu_idle_type {
	CPU_NOT_IDLE,               /* __CPU_NOT_IDLE (6.12); CPU_NOT_IDLE (6.1) */
	CPU_IDLE,
	CPU_NEWLY_IDLE,
};

enum group_type {
	group_has_spare,
	group_fully_busy,
	group_misfit_task,          /* symmetric CPUs: a reduced-capacity CPU's one task */
	group_imbalanced,           /* (SMT balance, asym packing come before it) */
	group_overloaded,
};

enum migration_type {
	migrate_load,
	migrate_util,
	migrate_task,
};

#define LBF_ALL_PINNED  0x01
#define LBF_NEED_BREAK  0x02
#define LBF_DST_PINNED  0x04
#define LBF_SOME_PINNED 0x08
#define LBF_ACTIVE_LB   0x10

/*
 * kernel/sched/sched.h SCHED_NR_MIGRATE_BREAK: detach_tasks() takes a
 * breather (LBF_NEED_BREAK) every that many tasks; 32 without
 * CONFIG_PREEMPT_RT (8 with) in 6.1, 6.12 and 6.18.
 */
#define SCHED_NR_MIGRATE_BREAK 32
/*
 * kernel/sched/core.c sysctl_sched_nr_migrate (debugfs sched/nr_migrate):
 * at most that many tasks examined per pass (loop_max); its default is
 * SCHED_NR_MIGRATE_BREAK in 6.1, 6.12 and 6.18.
 */
#define SYSCTL_SCHED_NR_MIGRATE SCHED_NR_MIGRATE_BREAK

struct sg_lb_stats {
	unsigned long avg_load;         /* group_load * 1024 / group_capacity, when computed */
	unsigned long group_load;       /* sum of cpu_load(): root cfs_rq load_avg */
	unsigned long group_capacity;   /* sgc->capacity: 1024 per CPU less RT/DL (cpu_capacity) */
	unsigned long group_misfit_task_load; /* sched_reduced_capacity(): the highest cpu_load() */
	unsigned long group_util;       /* sum of cpu_util_cfs() */
	unsigned long group_runnable;   /* sum of the root cfs_rq runnable_avg */
	unsigned int sum_nr_running;    /* rq->nr_running */
	unsigned int sum_h_nr_running;  /* fair: h_nr_queued (<= 6.13) or h_nr_runnable */
	unsigned int idle_cpus;
	unsigned int group_weight;
	enum group_type group_type;
};

struct lb_env {
	struct sched_domain *sd;
	struct rq *src_rq, *dst_rq;
	enum cpu_idle_type idle;
	long imbalance;
	unsigned int flags;
	unsigned int loop, loop_break, loop_max;
	enum migration_type migration_type;
	bool dry_run;               /* decide as the kernel would, move nothing */
	bool continue_balancing;    /* false: should_we_balance() said no, stop going up */
	int new_dst_cpu;            /* LBF_DST_PINNED: the local group's CPU the task allows */

	/* what the pass found (sched_balance_find_src_group()), kept for tests */
	bool have_stats;            /* update_sd_lb_stats() ran */
	struct sg_lb_stats local_stat, busiest_stat;
	int busiest_group;          /* MC: its CPU; NUMA: its node; -1: none */
	unsigned long total_load, total_capacity, sds_avg_load;
	long imbalance_found;       /* calculate_imbalance()'s value, before detaching */
	unsigned int detached;      /* tasks detached (or, dry, that would have been) */
	bool need_active_balance;
	bool active_balance;        /* this pass queued stopper work on src_rq (or, dry, would have) */
};

/* balance.c: newidle, blocked load, nohz, periodic balance, placement */
int sched_balance_rq(struct model *m, struct rq *this_rq, struct sched_domain *sd,
		     enum cpu_idle_type idle, struct lb_env *env);
unsigned long task_h_load(struct model *m, struct model_task *p);
int sched_balance_newidle(struct model *m, struct rq *this_rq);
void sched_balance_update_blocked_averages(struct model *m, int cpu);
/* capacity_of(), update_group_capacity(), check_cpu_capacity() (balance.c) */
unsigned long capacity_of(const struct model *m, int cpu);
unsigned long sgc_capacity(const struct model *m, const struct sched_domain *sd, int g);
void update_group_capacity(struct model *m, struct sched_domain *sd, int cpu);
void update_local_group_capacity(struct model *m, struct sched_domain *sd, int cpu,
				 enum cpu_idle_type idle);
bool check_cpu_capacity(const struct rq *rq, const struct sched_domain *sd);

/* model/pelt_others.c: rq->avg_rt / avg_dl (unless model_config.no_others_pelt) */
int update_rt_rq_load_avg(u64 now, struct rq *rq, int running);
int update_dl_rq_load_avg(u64 now, struct rq *rq, int running);
bool update_other_load_avgs(struct model *m, struct rq *rq);
bool others_have_blocked(const struct model *m, const struct rq *rq);
void others_switch(struct model *m, struct rq *rq, int prev_cls, int next_cls);
void others_set_next(struct model *m, struct rq *rq, int prev_cls, int next_cls);
void others_tick(struct model *m, struct rq *rq);
void sched_balance_trigger(struct model *m, struct rq *rq);
void nohz_balancer_kick(struct model *m, struct rq *rq);
/* SIS_UTIL: m->nr_idle_scan of this_rq's LLC after a balance of @sd (tests call it directly). */
void update_idle_cpu_scan(struct model *m, const struct rq *this_rq,
			  const struct sched_domain *sd, bool newly_idle);
void nohz_balance_enter_idle(struct model *m, struct rq *rq);
void nohz_balance_exit_idle(struct model *m, struct rq *rq);
void list_add_leaf_cfs_rq(struct cfs_rq *cfs_rq);
void list_del_leaf_cfs_rq(struct cfs_rq *cfs_rq);
int build_sched_domains(struct model *m, struct sr_error *err);
void free_sched_domains(struct model *m);
void ttwu_update_avg_idle(struct model *m, struct rq *rq);
void cfs_tasks_add(struct rq *rq, struct model_task *p);
void cfs_tasks_del(struct rq *rq, struct model_task *p);
void cfs_tasks_move_front(struct rq *rq, struct model_task *p);
void fold_removed_propagate(struct model *m, struct cfs_rq *cfs_rq);

/* bandwidth.c: CFS bandwidth control (kernel/sched/fair.c, CONFIG_CFS_BANDWIDTH) */
static inline bool cfs_bandwidth_used(const struct model *m)
{
	return m->cfs_bandwidth_used != 0;
}
static inline bool cfs_rq_throttled(const struct model *m, const struct cfs_rq *cfs_rq)
{
	return cfs_bandwidth_used(m) && cfs_rq->throttled;
}
static inline bool throttled_hierarchy(const struct model *m, const struct cfs_rq *cfs_rq)
{
	return cfs_bandwidth_used(m) && cfs_rq->throttle_count;
}
/*
 * Before 6.18 a task below a throttled queue keeps its entity queued there
 * but is not on the rq: the kernel tests its queue's throttle_count
 * ('throttled_hierarchy(cfs_rq_of(se))' in check_preempt_wakeup_fair() and
 * yield_to_task_fair() of 6.12.117, check_preempt_wakeup() and
 * yield_to_task_fair() of 6.1.192).  6.18 dequeues such a task
 * (task_is_throttled(), !se->on_rq), so this is false there.
 */
static inline bool entity_throttled_pre618(const struct model *m, const struct sched_entity *se)
{
	return !sched_feat(m, TASK_BASED_THROTTLE) && throttled_hierarchy(m, cfs_rq_of(se));
}
static inline bool task_is_throttled(const struct model *m, const struct model_task *p)
{
	return cfs_bandwidth_used(m) && p->throttled;
}
void init_cfs_bandwidth(struct cfs_bandwidth *cfs_b);
void __account_cfs_rq_runtime(struct model *m, struct cfs_rq *cfs_rq, u64 delta_exec);
bool throttle_cfs_rq(struct model *m, struct cfs_rq *cfs_rq);
void check_enqueue_throttle(struct model *m, struct cfs_rq *cfs_rq);
void __return_cfs_rq_runtime(struct model *m, struct cfs_rq *cfs_rq);
void record_throttle_clock(struct cfs_rq *cfs_rq);
void throttled_cfs_rq_emptied(struct model *m, struct cfs_rq *cfs_rq);
void throttled_cfs_rq_filled(struct cfs_rq *cfs_rq);

/* The hot paths' tests inline (update_curr(), put_prev, pick, dequeue): nothing without a quota. */
static inline void account_cfs_rq_runtime(struct model *m, struct cfs_rq *cfs_rq, u64 delta_exec)
{
	if (!cfs_bandwidth_used(m) || !cfs_rq->runtime_enabled)
		return;
	__account_cfs_rq_runtime(m, cfs_rq, delta_exec);
}

/*
 * check_cfs_rq_runtime(), from put_prev_entity() and pick_task_fair(): a
 * queue out of runtime is throttled; true if it is throttled.
 */
static inline bool check_cfs_rq_runtime(struct model *m, struct cfs_rq *cfs_rq)
{
	if (!cfs_bandwidth_used(m))
		return false;
	if (!cfs_rq->runtime_enabled || cfs_rq->runtime_remaining > 0)
		return false;
	/* a throttled entity forced into a running state (set_curr_task): done */
	if (cfs_rq_throttled(m, cfs_rq))
		return true;
	return throttle_cfs_rq(m, cfs_rq);
}

/* return_cfs_rq_runtime(), from dequeue_entity() when the queue empties */
static inline void return_cfs_rq_runtime(struct model *m, struct cfs_rq *cfs_rq)
{
	if (!cfs_bandwidth_used(m) || !cfs_rq->runtime_enabled || cfs_rq->nr_running)
		return;
	__return_cfs_rq_runtime(m, cfs_rq);
}
void task_throttle_setup_work(struct model *m, struct model_task *p);
void throttle_cfs_rq_work(struct model *m, struct model_task *p);
void dequeue_throttled_task(struct model *m, struct model_task *p, int flags);
bool enqueue_throttled_task(struct model *m, struct model_task *p);

/* core.c */
void update_rq_clock(struct model *m, struct rq *rq, u64 now);
u64 rq_clock_task_at(struct rq *rq, u64 now);
void model_advance_time(struct model *m, u64 now);
void add_nr_running(struct model *m, struct rq *rq, unsigned int count);
void sub_nr_running(struct model *m, struct rq *rq, unsigned int count);
void model_note_overload(struct model *m, bool set, enum model_overload_site site,
			 const struct rq *rq);
void set_task_cpu(struct model *m, struct model_task *p, int new_cpu);
void activate_task(struct model *m, struct rq *rq, struct model_task *p, int flags);
void deactivate_task(struct model *m, struct rq *rq, struct model_task *p, int flags);
/* balance_rq.c: queue affine_move_task()'s migration_cpu_stop() on @p's CPU */
void stop_one_cpu_affine(struct model *m, struct model_task *p, int dst, int waker_cpu, u64 now);
void wakeup_preempt(struct model *m, struct rq *rq, struct model_task *p, int flags);
u64 sched_clock_cpu(const struct model *m, int cpu);
u32 sched_rng(struct rq *rq);

#endif /* SCHEDREPLAY_MODEL_SCHED_H */
