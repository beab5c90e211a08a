// SPDX-License-Identifier: GPL-2.0
/*
 * The registered model variants: ONE table, one const struct per variant
 * with designated initialisers, looked up by name.  A variant is data (the
 * behaviour flags of include/schedreplay/variant.h and a tg rate-limit
 * override) plus optional hooks; the model's core reads only the resolved
 * flags, so adding a variant never edits the core.
 *
 * Names are fixed: scripts rely on them.  Sources: ../shared/model-spec.md
 * §12 and the seed threads named in each entry.
 */
#include <stdio.h>
#include <string.h>

#include "sched.h"

#define V_SKIP  (MODEL_V_SKIP_CG_FIRST_ENQUEUE | MODEL_V_SKIP_CG_DEQUEUE_ENTITY)

static const struct model_variant variants[] = {
	{
		.name = "base",
		.origin = "the kernel profile unchanged",
		.description = "No change: the profile's kernel as it is.",
		.touches = "-",
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "tg-ratelimit",
		.origin = "1528c661c24b \"sched/fair: Ratelimit update to tg->load_avg\" (v6.7)",
		.description = "update_tg_load_avg() writes tg->load_avg at most once per ms per "
			       "cfs_rq (sched_clock); the profile's setting otherwise.",
		.touches = "update_tg_load_avg",
		.tg_ratelimit_ns = 1000000,
	},
	{
		.name = "no-tg-ratelimit",
		.origin = "before 1528c661c24b (kernels up to 6.6)",
		.description = "update_tg_load_avg() without the 1 ms rate limit: only the 1/64 "
			       "threshold gates writes of tg->load_avg.",
		.touches = "update_tg_load_avg",
		.tg_ratelimit_ns = 0,
	},
	{
		.name = "aaron-node",
		.origin = "Aaron Lu, [RFC PATCH 2/4] \"sched/fair: Make tg->load_avg per node\", 18 Jul 2023",
		.description = "tg->load_avg split into per-NUMA-node counters: update_tg_load_avg() "
			       "adds to the executing CPU's node, calc_group_shares() sums all nodes. "
			       "Values unchanged; writes counted per node, reads once per node.",
		.touches = "update_tg_load_avg, calc_group_shares",
		.flags = MODEL_V_TG_LOAD_PER_NODE,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "aaron-delay",
		.origin = "Aaron Lu, [RFC PATCH 3/4] \"sched/fair: delay update_tg_load_avg() for "
			  "cfs_rq's removed load\", 18 Jul 2023",
		.description = "update_cfs_rq_load_avg() still subtracts removed load but no longer "
			       "reports it as decayed (no update_tg_load_avg() for it); its "
			       "propagation waits in prop_removed_sum until the next "
			       "add_tg_cfs_propagate() or a blocked-load update of a decayed cfs_rq.",
		.touches = "update_cfs_rq_load_avg, add_tg_cfs_propagate, __update_blocked_fair, "
			   "cfs_rq_is_decayed",
		.flags = MODEL_V_DELAY_REMOVED_LOAD,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "aaron-skip",
		.origin = "Aaron Lu, [RFC PATCH 4/4] \"sched/fair: skip some update_cfs_group() on "
			  "en/dequeue_entity()\", 18 Jul 2023",
		.description = "enqueue_entity() calls update_cfs_group() only if the cfs_rq already "
			       "had entities; dequeue_entity() does not call it.  The task-level "
			       "loops and the tick are unchanged.",
		.touches = "enqueue_entity, dequeue_entity",
		.flags = V_SKIP,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "aaron-series",
		.origin = "Aaron Lu, [RFC PATCH 0/4] \"Reduce cost of accessing tg->load_avg\", "
			  "18 Jul 2023 (v6.5-rc1)",
		.description = "The RFC as posted: aaron-node + aaron-delay + aaron-skip.",
		.touches = "update_tg_load_avg, calc_group_shares, update_cfs_rq_load_avg, "
			   "enqueue_entity, dequeue_entity",
		.flags = MODEL_V_TG_LOAD_PER_NODE | MODEL_V_DELAY_REMOVED_LOAD | V_SKIP,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "cfs-group-no-dequeue",
		.origin = "seed follow-up, 19 Jul 2023: no update_cfs_group() in dequeue_task_fair()",
		.description = "aaron-skip plus no update_cfs_group() in dequeue_task_fair()'s second "
			       "(update-only) loop: group weights go stale when a task leaves.",
		.touches = "enqueue_entity, dequeue_entity, dequeue_task_fair",
		.flags = V_SKIP | MODEL_V_SKIP_CG_DEQUEUE_TASK,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "cfs-group-tick-only",
		.origin = "seed follow-up, 19 Jul 2023; f269ae0469fc \"sched: Update_cfs_shares at "
			  "period edge\", reverted by 17bc14b767cf before v3.8",
		.description = "update_cfs_group() only from entity_tick(): none in enqueue_entity(), "
			       "dequeue_entity() or either task-level loop.",
		.touches = "enqueue_entity, dequeue_entity, enqueue_task_fair, dequeue_task_fair",
		.flags = MODEL_V_SKIP_CG_ENQUEUE_ENTITY | MODEL_V_SKIP_CG_DEQUEUE_ENTITY |
			 MODEL_V_SKIP_CG_ENQUEUE_TASK | MODEL_V_SKIP_CG_DEQUEUE_TASK,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "lazy-blocked-update",
		.origin = "Tim Chen, \"sched: Call update_blocked_averages() lazily in newidle "
			  "balance\" (2021)",
		.description = "sched_balance_newidle() calls update_blocked_averages() only right "
			       "before the first domain it actually balances; skipped domains leave "
			       "it to the idle load balancer.  Compose with newidle-pre-5.16 for the "
			       "entry test the patch was written against.",
		.touches = "sched_balance_newidle (newidle_balance)",
		.flags = MODEL_V_LAZY_BLOCKED_NEWIDLE,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "newidle-pre-5.16",
		.origin = "newidle_balance() before c5b0a7eefc70 (v5.16)",
		.description = "Newidle entry test avg_idle < sysctl_sched_migration_cost || "
			       "!rd->overload; max_newidle_lb_cost only checked per domain, after "
			       "update_blocked_averages().",
		.touches = "sched_balance_newidle (newidle_balance)",
		.flags = MODEL_V_NEWIDLE_PRE_5_16,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "v4.8-attach",
		.origin = "7dc603c9028e \"sched/fair: Fix PELT integrity for new tasks\" (v4.8)",
		.description = "New tasks attach in post_init_entity_util_avg() at the rq clock as it "
			       "stands, without period_contrib alignment (period_contrib = 1023), "
			       "averages divided by LOAD_AVG_MAX; the first enqueue ages the new "
			       "entity (1024 -> 1002 across a period boundary).",
		.touches = "init_entity_runnable_average, post_init_entity_util_avg, "
			   "attach_entity_load_avg, ___update_load_avg",
		.flags = MODEL_V_V48_ATTACH,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "no-decay-first-enqueue",
		.origin = "Matt Fleming, \"sched/fair: Do not decay new task load on first enqueue\" "
			  "(2016), on the v4.8 attach path",
		.description = "v4.8-attach plus: a new task's load is not aged on its first enqueue "
			       "(sum_exec_runtime == 0), so it enters at its full weight (1024).",
		.touches = "enqueue_entity_load_avg (update_load_avg)",
		.flags = MODEL_V_V48_ATTACH | MODEL_V_NO_DECAY_FIRST_ENQUEUE,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "update-curr-before-place",
		.origin = "Daniel Jordan, \"sched/fair: Always update_curr() before placing at "
			  "enqueue\", 6 Oct 2023",
		.description = "enqueue_entity() runs update_curr() before place_entity() (CFS: "
			       "before renormalising) also when the entity is cfs_rq->curr.",
		.touches = "enqueue_entity",
		.flags = MODEL_V_UPDATE_CURR_BEFORE_PLACE,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
	{
		.name = "vlag-vprot-union",
		.origin = "Linux 6.18 up to 6.18.44: struct sched_entity's union { vlag; vprot; } "
			  "(split by \"sched/fair: Separate se->vlag from se->vprot\", "
			  "6b6d09f274bd, mainline 6.19, stable 6.18.45)",
		.description = "One field holds curr's slice protection and every entity's lag: "
			       "a lag written to the running entity (reweight_entity()'s "
			       "update_entity_lag() when update_cfs_group() reweights a running "
			       "group entity, requeue_delayed_entity() of a delayed curr) is its "
			       "protection from then on, which on the root queue (virtual clock far "
			       "above any lag) is over: the next update_curr() reschedules.",
		.touches = "reweight_entity, requeue_delayed_entity, update_entity_lag, init_cfs_rq",
		.flags = MODEL_V_VLAG_VPROT_UNION,
		.tg_ratelimit_ns = MODEL_TG_RATELIMIT_KEEP,
	},
};

#define NR_VARIANTS (sizeof(variants) / sizeof(variants[0]))

unsigned int model_variant_count(void)
{
	return NR_VARIANTS;
}

const struct model_variant *model_variant_at(unsigned int i)
{
	return i < NR_VARIANTS ? &variants[i] : NULL;
}

const struct model_variant *model_variant_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < NR_VARIANTS; i++)
		if (!strcmp(variants[i].name, name))
			return &variants[i];
	return NULL;
}

/* Levenshtein distance of @a and @b, '_' and '-' alike, capped at 9. */
static unsigned int name_distance(const char *a, const char *b)
{
	unsigned int row[64], n = (unsigned int)strlen(b);

	if (n >= 64 || strlen(a) >= 64)
		return 9;
	for (unsigned int j = 0; j <= n; j++)
		row[j] = j;
	for (unsigned int i = 1; a[i - 1]; i++) {
		unsigned int diag = row[0];

		row[0] = i;
		for (unsigned int j = 1; j <= n; j++) {
			char x = a[i - 1] == '_' ? '-' : a[i - 1];
			char y = b[j - 1] == '_' ? '-' : b[j - 1];
			unsigned int best = diag + (x != y), up = row[j] + 1, left = row[j - 1] + 1;

			diag = row[j];
			best = up < best ? up : best;
			row[j] = left < best ? left : best;
		}
	}
	return row[n] > 9 ? 9 : row[n];
}

void model_variant_unknown(struct sr_error *err, const char *name, const char *shown,
			   const struct model_variant *(*at)(const void *ctx, unsigned int i),
			   const void *ctx, unsigned int n)
{
	char known[384] = "", hint[96] = "";
	const char *near = NULL;
	unsigned int bd = 3;
	size_t len = 0;

	for (unsigned int i = 0; i < n; i++) {
		const struct model_variant *k = at(ctx, i);
		unsigned int d = name_distance(name, k->name);
		int w;

		if (d < bd) {
			bd = d;
			near = k->name;
		}
		if (len >= sizeof(known) - 1)
			continue;
		w = snprintf(known + len, sizeof(known) - len, "%s%s", i ? ", " : "", k->name);
		if (w > 0)
			len += (size_t)w;
	}
	if (near)
		snprintf(hint, sizeof(hint), "did you mean '%s'? ", near);
	sr_error_set(err, 2 /* ENOENT */, "unknown variant '%s' (%sknown: %s; see 'schedreplay variants')",
		     shown ? shown : name, hint, known);
}

static const struct model_variant *registered_at(const void *ctx, unsigned int i)
{
	(void)ctx;
	return model_variant_at(i);
}

void model_variant_set_init(struct model_variant_set *set)
{
	memset(set, 0, sizeof(*set));
	strcpy(set->name, "base");
}

int model_variant_set_add(struct model_variant_set *set, const struct model_variant *v,
			  struct sr_error *err)
{
	size_t len;
	unsigned int i;

	if (!v || !v->name || !*v->name) {
		sr_error_set(err, 22, "variant: a variant needs a name");
		return -1;
	}
	for (i = 0; i < set->n; i++) {
		if (!strcmp(set->v[i]->name, v->name)) {
			sr_error_set(err, 22, "variant %s given twice", v->name);
			return -1;
		}
	}
	if (set->n >= MODEL_VARIANT_SET_MAX) {
		sr_error_set(err, 7, "variant %s: at most %d variants compose", v->name,
			     MODEL_VARIANT_SET_MAX);
		return -1;
	}
	len = set->n ? strlen(set->name) : 0;
	if (len + strlen(v->name) + 2 > sizeof(set->name)) {
		sr_error_set(err, 36, "variant %s: composed name too long", v->name);
		return -1;
	}
	if (set->n)
		snprintf(set->name + len, sizeof(set->name) - len, ",%s", v->name);
	else
		snprintf(set->name, sizeof(set->name), "%s", v->name);
	set->v[set->n++] = v;
	return 0;
}

int model_variant_set_parse(struct model_variant_set *set, const char *spec,
			    struct sr_error *err)
{
	char name[128];
	const char *p = spec, *end;
	size_t len;

	model_variant_set_init(set);
	if (!spec)
		return 0;
	while (*p) {
		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		end = p;
		while (*end && *end != ',')
			end++;
		len = (size_t)(end - p);
		while (len && p[len - 1] == ' ')
			len--;
		if (len >= sizeof(name)) {
			sr_error_set(err, 22, "variant name too long in \"%s\"", spec);
			return -1;
		}
		memcpy(name, p, len);
		name[len] = 0;
		if (strcmp(name, "base")) {
			const struct model_variant *v = model_variant_find(name);

			if (!v) {
				model_variant_unknown(err, name, NULL, registered_at, NULL,
						      model_variant_count());
				return -1;
			}
			if (model_variant_set_add(set, v, err))
				return -1;
		}
		p = end;
	}
	return 0;
}

uint32_t model_variant_set_flags(const struct model_variant_set *set)
{
	uint32_t f = 0;
	unsigned int i;

	for (i = 0; i < set->n; i++)
		f |= set->v[i]->flags;
	return f;
}
