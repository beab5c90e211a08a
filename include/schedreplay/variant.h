/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Model variants: the seed patches (and later ideas) as configuration of the
 * model plus optional small hook functions, never edits of the core.
 *
 * A variant is a const struct model_variant with designated initialisers in
 * ONE registration table (model/variants.c), looked up by name.  Variants
 * compose: "aaron-skip,no-tg-ratelimit" ORs their behaviour flags, applies
 * their tg rate-limit overrides and scheduler-feature toggles in order and
 * calls every hook (a call site is skipped if any hook says so).  External
 * variants (plugins, JSON files) fill the same struct at run time and add it
 * to a set.
 */
#ifndef SCHEDREPLAY_VARIANT_H
#define SCHEDREPLAY_VARIANT_H

#include <stdbool.h>
#include <stdint.h>

#include <schedreplay/error.h>
#include <schedreplay/profile.h>

/* Behaviour flags: each names one place a seed patch changes the kernel. */
enum model_variant_flag {
	/* Aaron Lu RFC 2/4: tg->load_avg per NUMA node (writes go to the
	 * executing CPU's node; calc_group_shares sums the nodes). */
	MODEL_V_TG_LOAD_PER_NODE        = 1u << 0,
	/* RFC 3/4: removed load no longer sets "decayed" in
	 * update_cfs_rq_load_avg(); its propagation waits in prop_removed_sum. */
	MODEL_V_DELAY_REMOVED_LOAD      = 1u << 1,
	/* RFC 4/4: enqueue_entity() calls update_cfs_group() only if the
	 * cfs_rq already had entities (nr_running > 0 before accounting). */
	MODEL_V_SKIP_CG_FIRST_ENQUEUE   = 1u << 2,
	/* RFC 4/4: no update_cfs_group() in dequeue_entity(). */
	MODEL_V_SKIP_CG_DEQUEUE_ENTITY  = 1u << 3,
	/* Seed follow-up: no update_cfs_group() in dequeue_task_fair()'s
	 * second (update-only) loop. */
	MODEL_V_SKIP_CG_DEQUEUE_TASK    = 1u << 4,
	/* No update_cfs_group() in enqueue_entity() at all. */
	MODEL_V_SKIP_CG_ENQUEUE_ENTITY  = 1u << 5,
	/* No update_cfs_group() in enqueue_task_fair()'s second loop. */
	MODEL_V_SKIP_CG_ENQUEUE_TASK    = 1u << 6,
	/* Tim Chen 2021: newidle runs update_blocked_averages() only right
	 * before the first domain it actually balances. */
	MODEL_V_LAZY_BLOCKED_NEWIDLE    = 1u << 7,
	/* Pre-5.16 newidle entry test: avg_idle < sysctl_sched_migration_cost
	 * || !rd->overloaded (the max_newidle_lb_cost test only per domain). */
	MODEL_V_NEWIDLE_PRE_5_16        = 1u << 8,
	/* v4.8 new-task attach (7dc603c9028e): attach in wake_up_new_task
	 * without period_contrib alignment, divider LOAD_AVG_MAX, the first
	 * enqueue ages the new entity. */
	MODEL_V_V48_ATTACH              = 1u << 9,
	/* Matt Fleming 2016: a new task's load is not aged on its first
	 * enqueue. */
	MODEL_V_NO_DECAY_FIRST_ENQUEUE  = 1u << 10,
	/* Daniel Jordan 2023: enqueue_entity() runs update_curr() before
	 * place_entity() also when the entity is cfs_rq->curr. */
	MODEL_V_UPDATE_CURR_BEFORE_PLACE = 1u << 11,
	/* 6.18 up to 6.18.44: se->vlag and se->vprot are one field (a union), so
	 * a lag written to the running entity (reweight_entity()'s
	 * update_entity_lag() of a running group entity, a delayed curr's
	 * requeue) ends its slice protection. */
	MODEL_V_VLAG_VPROT_UNION        = 1u << 12,
};

/* Where update_cfs_group() is called (the hook's call sites). */
enum model_cfs_group_site {
	MODEL_SITE_ENQUEUE_ENTITY,   /* enqueue_entity() */
	MODEL_SITE_DEQUEUE_ENTITY,   /* dequeue_entity() */
	MODEL_SITE_ENQUEUE_TASK,     /* enqueue_task_fair() second loop */
	MODEL_SITE_DEQUEUE_TASK,     /* dequeue_task_fair() second loop */
	MODEL_SITE_ENTITY_TICK,      /* entity_tick() */
	MODEL_SITE_SET_SHARES,       /* sched_group_set_shares() */
};

struct model_hook_cfs_group {
	enum model_cfs_group_site site;
	unsigned int nr_running;     /* of the cfs_rq the group entity is on,
					before this entity is accounted */
	int depth;                   /* of the group entity (0 = under root) */
	int cpu;
};

#define MODEL_TG_RATELIMIT_KEEP (-1)

struct model_variant {
	const char *name;            /* fixed; scripts rely on it */
	const char *origin;          /* commit or mail thread */
	const char *description;     /* the exact behaviour change */
	const char *touches;         /* kernel functions touched */
	uint32_t flags;              /* enum model_variant_flag */
	/* tg->load_avg update rate limit in ns: 0 off, >0 on with that
	 * period, MODEL_TG_RATELIMIT_KEEP: the profile's. */
	int64_t tg_ratelimit_ns;
	/* Optional: return false to skip update_cfs_group() at this site. */
	bool (*update_cfs_group)(const struct model_hook_cfs_group *ctx);
	/* debugfs-style feature toggles over the profile's column, as
	 * `echo NO_RUN_TO_PARITY > /sys/kernel/debug/sched/features` would
	 * set them (model_sched_feature_parse(); zero: the profile's).  Last,
	 * so the fields before keep their plugin ABI 1 offsets (ABI 2). */
	struct model_sched_features sched_features;
};

/* The registered variants ("base" first). */
unsigned int model_variant_count(void);
const struct model_variant *model_variant_at(unsigned int i);
const struct model_variant *model_variant_find(const char *name);
/*
 * Set @err to the one line for a variant name that is none of the @n
 * variants at(@ctx, i): "unknown variant 'NAME' (did you mean 'X'? known:
 * a, b, ...; see 'schedreplay variants')", the hint only for a name within
 * two edits of a known one ('_' for '-' free).  @shown is @name as the
 * message prints it (escaped by the caller; NULL: @name).
 * model_variant_set_parse() and the CLI's catalog (external variants too)
 * share it.
 */
void model_variant_unknown(struct sr_error *err, const char *name, const char *shown,
			   const struct model_variant *(*at)(const void *ctx, unsigned int i),
			   const void *ctx, unsigned int n);

#define MODEL_VARIANT_SET_MAX 16

/* A composition of variants, applied in order. */
struct model_variant_set {
	const struct model_variant *v[MODEL_VARIANT_SET_MAX];
	unsigned int n;
	char name[256];              /* "aaron-skip,no-tg-ratelimit" */
};

void model_variant_set_init(struct model_variant_set *set);
/* Parse "name[,name...]" of registered variants; "base" adds nothing. */
int model_variant_set_parse(struct model_variant_set *set, const char *spec,
			    struct sr_error *err);
/* Add one (registered or external; @v must outlive the set's users). */
int model_variant_set_add(struct model_variant_set *set, const struct model_variant *v,
			  struct sr_error *err);
/* The OR of the set's flags. */
uint32_t model_variant_set_flags(const struct model_variant_set *set);

#endif /* SCHEDREPLAY_VARIANT_H */
