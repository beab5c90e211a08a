// SPDX-License-Identifier: GPL-2.0
/* The model's counters as (name, value) pairs; see counters.h. */
#include <stdio.h>
#include <string.h>

#include "sched.h"

static const char *const counter_names[NR_MODEL_COUNTERS] = {
#define C(id, name, what) name,
	MODEL_COUNTERS(C)
#undef C
};

static const char *const bw_counter_names[NR_MODEL_BW_COUNTERS] = {
#define C(id, name, what) name,
	MODEL_BW_COUNTERS(C)
#undef C
};

/* "tg_load_avg_writes.node%d" for nodes 0..15; more nodes are summed only. */
#define MAX_NODE_NAMES 16
static const char *const node_names[MAX_NODE_NAMES] = {
	"tg_load_avg_writes.node0", "tg_load_avg_writes.node1", "tg_load_avg_writes.node2",
	"tg_load_avg_writes.node3", "tg_load_avg_writes.node4", "tg_load_avg_writes.node5",
	"tg_load_avg_writes.node6", "tg_load_avg_writes.node7", "tg_load_avg_writes.node8",
	"tg_load_avg_writes.node9", "tg_load_avg_writes.node10", "tg_load_avg_writes.node11",
	"tg_load_avg_writes.node12", "tg_load_avg_writes.node13", "tg_load_avg_writes.node14",
	"tg_load_avg_writes.node15",
};

bool model_counter_next(const struct model *m, unsigned int *iter, const char **name,
			uint64_t *value)
{
	unsigned int i = *iter;
	int nodes = m->nr_nodes < MAX_NODE_NAMES ? m->nr_nodes : MAX_NODE_NAMES;

	if (i < NR_MODEL_COUNTERS) {
		*name = counter_names[i];
		*value = m->counters[i];
		(*iter)++;
		return true;
	}
	i -= NR_MODEL_COUNTERS;
	if ((int)i < nodes) {
		*name = node_names[i];
		*value = m->tg_writes_node[i];
		(*iter)++;
		return true;
	}
	i -= (unsigned int)nodes;
	/* the bandwidth counters only while a group has a quota (the static key) */
	if (cfs_bandwidth_used(m) && i < NR_MODEL_BW_COUNTERS) {
		*name = bw_counter_names[i];
		*value = m->bw_counters[i];
		(*iter)++;
		return true;
	}
	return false;
}

bool model_counter_get(const struct model *m, const char *name, uint64_t *value)
{
	unsigned int it = 0;
	const char *n;
	uint64_t v;

	while (model_counter_next(m, &it, &n, &v)) {
		if (!strcmp(n, name)) {
			*value = v;
			return true;
		}
	}
	return false;
}

void model_counters_reset(struct model *m)
{
	memset(m->counters, 0, sizeof(m->counters));
	memset(m->bw_counters, 0, sizeof(m->bw_counters));
	memset(m->tg_writes_node, 0, sizeof(*m->tg_writes_node) * (size_t)m->nr_nodes);
}
