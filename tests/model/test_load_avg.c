// SPDX-License-Identifier: GPL-2.0
/*
 * Load tracking of entities and queues (model/load_avg.c) on constructed
 * states, each expected value worked out by hand from the kernel's
 * definitions (kernel/sched/fair.c 6.12, ../shared/model-spec.md 2.8-2.13):
 * the cfs_rq's runnable count without delayed tasks, dequeue_load_avg()'s
 * re-clamp, a removal applied at the queue's next update, and one
 * propagation step of a group entity (util, runnable, load).  Written for
 * the mutation test (tests/model/mutate.py), whose mutants of these paths the
 * other tests let pass.
 */
#include <string.h>

#include "check.h"
#include "sched.h"

#define DIV0 46718   /* get_pelt_divider() at period_contrib 0 */

static struct model *mk(const char *profile)
{
	struct model_config cfg = { .nr_cpus = 1, .hz = 250, .seed = 5 };

	cfg.profile = model_profile_find(profile);
	return model_new(&cfg, NULL);
}

/*
 * __update_load_avg_cfs_rq(): 2 queued tasks (weight 2048), one delayed; one
 * full period (1024 units of 1024 ns) from period_contrib 0.  contrib =
 * decay_load(1024, 1) + LOAD_AVG_MAX - decay_load(LOAD_AVG_MAX, 1) - 1024 =
 * 1002 + 47742 - 46718 - 1024 = 1002 (y = 0xfa83b2da / 2^32).
 * load_sum = 2048 * 1002 = 2052096, load_avg = 2052096 / 46718 = 43;
 * runnable counts h_nr_queued - h_nr_delayed = 1 (6.12.117, 6.18):
 * runnable_sum = 1002 << 10 = 1026048, runnable_avg = 21 (not 43).
 */
static void test_cfs_rq_runnable_excludes_delayed(void)
{
	struct model *m = mk("6.12");
	struct cfs_rq *c = &m->rqs[0].cfs;
	u64 t0 = 1000ULL << 20;

	memset(&c->avg, 0, sizeof(c->avg));
	c->avg.last_update_time = t0;
	c->load.weight = 2 * NICE_0_LOAD;
	c->h_nr_queued = 2;
	c->h_nr_delayed = 1;
	CHECK_EQ_S(update_cfs_rq_load_avg(m, t0 + (1024ULL << 10), c), 1);
	CHECK_EQ_U(c->avg.last_update_time, t0 + (1024ULL << 10));
	CHECK_EQ_U(c->avg.period_contrib, 0);
	CHECK_EQ_U(c->avg.load_sum, 2052096);
	CHECK_EQ_U(c->avg.load_avg, 43);
	CHECK_EQ_U(c->avg.runnable_sum, 1026048);
	CHECK_EQ_U(c->avg.runnable_avg, 21);
	CHECK_EQ_U(c->avg.util_sum, 0);
	c->load.weight = 0;
	c->h_nr_queued = 0;
	c->h_nr_delayed = 0;
	model_free(m);
}

/*
 * dequeue_load_avg(): load_avg 100 - 50 = 50; load_sum 100 * 46718 + 5000 -
 * 1024 * 2300 = 2321600, below 50 * 46718 = 2335900: re-clamped up to it.
 */
static void test_dequeue_load_avg_clamp(void)
{
	struct model *m = mk("6.18");
	struct cfs_rq *c = &m->rqs[0].cfs;
	struct sched_entity se;

	memset(&se, 0, sizeof(se));
	se.cfs_rq = c;
	se.load.weight = NICE_0_LOAD;
	se.avg.load_avg = 50;
	se.avg.load_sum = 2300;
	c->avg.load_avg = 100;
	c->avg.load_sum = 100 * DIV0 + 5000;
	dequeue_load_avg(c, &se);
	CHECK_EQ_U(c->avg.load_avg, 50);
	CHECK_EQ_U(c->avg.load_sum, 50 * DIV0);
	/* above the floor it is the plain difference: 4676800 - 1024 * 2000 */
	se.avg.load_sum = 2000;
	c->avg.load_avg = 100;
	c->avg.load_sum = 100 * DIV0 + 5000;
	dequeue_load_avg(c, &se);
	CHECK_EQ_U(c->avg.load_sum, 100 * DIV0 + 5000 - 1024 * 2000);
	memset(&c->avg, 0, sizeof(c->avg));
	model_free(m);
}

/*
 * remove_entity_load_avg() then update_cfs_rq_load_avg() with no time
 * elapsed (nothing ages): the removed averages are subtracted, each sum by
 * avg * divider clamped at 0, then re-floored at avg * 46718; the removed
 * runnable propagates as -(250 * 46718) >> 10 = -11406 (arithmetic shift);
 * "decayed" is 1.
 */
static void test_removed_load(void)
{
	struct model *m = mk("6.18");
	struct cfs_rq *c = &m->rqs[0].cfs;
	struct sched_entity se;
	u64 t = 5000ULL << 20;

	memset(&se, 0, sizeof(se));
	se.cfs_rq = c;
	se.load.weight = NICE_0_LOAD;
	se.avg.last_update_time = t;
	se.avg.load_avg = 300;
	se.avg.util_avg = 200;
	se.avg.runnable_avg = 250;
	memset(&c->avg, 0, sizeof(c->avg));
	c->avg.last_update_time = t;
	c->avg.load_avg = 1000;
	c->avg.load_sum = 1000ULL * DIV0 + 7;
	c->avg.util_avg = 900;
	c->avg.util_sum = 150 * DIV0;         /* below what the removal takes: 0, floored */
	c->avg.runnable_avg = 800;
	c->avg.runnable_sum = 800ULL * DIV0 + 100000;

	remove_entity_load_avg(m, &se);
	CHECK_EQ_U(c->removed.nr, 1);
	CHECK_EQ_U(c->removed.load_avg, 300);
	CHECK_EQ_U(c->removed.util_avg, 200);
	CHECK_EQ_U(c->removed.runnable_avg, 250);

	CHECK_EQ_S(update_cfs_rq_load_avg(m, t, c), 1);
	CHECK_EQ_U(c->removed.nr, 0);
	CHECK_EQ_U(c->removed.load_avg, 0);
	CHECK_EQ_U(c->avg.load_avg, 700);
	/* 1000 * 46718 + 7 - 300 * 46718 = 700 * 46718 + 7, above the floor */
	CHECK_EQ_U(c->avg.load_sum, 700ULL * DIV0 + 7);
	CHECK_EQ_U(c->avg.util_avg, 700);
	CHECK_EQ_U(c->avg.util_sum, 700 * DIV0);
	CHECK_EQ_U(c->avg.runnable_avg, 550);
	CHECK_EQ_U(c->avg.runnable_sum, 550ULL * DIV0 + 100000);
	CHECK_EQ_S(c->propagate, 1);
	CHECK_EQ_S(c->prop_runnable_sum, -11406);
	memset(&c->avg, 0, sizeof(c->avg));
	c->propagate = 0;
	c->prop_runnable_sum = 0;
	model_free(m);
}

/*
 * propagate_entity_load_avg() through update_load_avg() of a group entity
 * (nothing ages: every clock at t).  Parent (root) divider 46718.
 * util: delta 300 - 100 = 200; ge util_sum = 300 * 46718 = 14015400; the
 *   parent gets +200 and +(14015400 - 4671810) = 9343590: 600, 28031790.
 * runnable: delta 350 - 150 = 200; ge runnable_sum = 350 * 46718 = 16351300;
 *   parent +200, +9343580: 700, 32704580 (above its floor 32702600).
 * load: prop_runnable_sum 20000 >= 0: + ge load_sum 9000 = 29000 (below the
 *   divider); running sum 14015400 >> 10 = 13686 is less; load_sum' = 1024 *
 *   29000 = 29696000, load_avg' = 635; parent +438 and +(29696000 - 9216000):
 *   1038, 48513800.  The parent is told about the 20000 too.
 */
static void test_propagate_group(void)
{
	struct model *m = mk("6.18");
	struct task_group *g = (struct task_group *)model_group_new(m, NULL, 1024, "/g", NULL);
	struct cfs_rq *root = &m->rqs[0].cfs, *gq = g->cfs_rq[0];
	struct sched_entity *ge = g->se[0];
	u64 t = 7000ULL << 20;

	m->rqs[0].clock_pelt = t;
	memset(&root->avg, 0, sizeof(root->avg));
	root->avg.last_update_time = t;
	root->avg.util_avg = 400;
	root->avg.util_sum = 400 * DIV0 + 1000;
	root->avg.runnable_avg = 500;
	root->avg.runnable_sum = 500ULL * DIV0 + 2000;
	root->avg.load_avg = 600;
	root->avg.load_sum = 600ULL * DIV0 + 3000;

	update_load_set(&ge->load, NICE_0_LOAD);
	memset(&ge->avg, 0, sizeof(ge->avg));
	ge->avg.last_update_time = t;
	ge->avg.util_avg = 100;
	ge->avg.util_sum = 100 * DIV0 + 10;
	ge->avg.runnable_avg = 150;
	ge->avg.runnable_sum = 150ULL * DIV0 + 20;
	ge->avg.load_sum = 9000;
	ge->avg.load_avg = 197;   /* 1024 * 9000 / 46718 */

	gq->avg.util_avg = 300;
	gq->avg.runnable_avg = 350;
	gq->propagate = 1;
	gq->prop_runnable_sum = 20000;

	update_load_avg(m, root, ge, 0);
	CHECK_EQ_S(gq->propagate, 0);
	CHECK_EQ_S(gq->prop_runnable_sum, 0);
	CHECK_EQ_S(root->propagate, 1);
	CHECK_EQ_S(root->prop_runnable_sum, 20000);

	CHECK_EQ_U(ge->avg.util_avg, 300);
	CHECK_EQ_U(ge->avg.util_sum, 14015400);
	CHECK_EQ_U(root->avg.util_avg, 600);
	CHECK_EQ_U(root->avg.util_sum, 28031790);

	CHECK_EQ_U(ge->avg.runnable_avg, 350);
	CHECK_EQ_U(ge->avg.runnable_sum, 16351300);
	CHECK_EQ_U(root->avg.runnable_avg, 700);
	CHECK_EQ_U(root->avg.runnable_sum, 32704580);

	CHECK_EQ_U(ge->avg.load_sum, 29000);
	CHECK_EQ_U(ge->avg.load_avg, 635);
	CHECK_EQ_U(root->avg.load_avg, 1038);
	CHECK_EQ_U(root->avg.load_sum, 48513800);

	gq->avg.util_avg = 0;
	gq->avg.runnable_avg = 0;
	root->propagate = 0;
	root->prop_runnable_sum = 0;
	model_free(m);
}

int main(void)
{
	test_cfs_rq_runnable_excludes_delayed();
	test_dequeue_load_avg_clamp();
	test_removed_load();
	test_propagate_group();
	return check_done("load_avg");
}
