// SPDX-License-Identifier: GPL-2.0
/*
 * Call-site audit of the counted functions for the 6.18 profile
 * (docs/model.md, "Fidelity review", "6.18 call-site audit"): one
 * constructed scenario per path the model simulates, each pinning how many
 * times the counted kernel functions run during ONE operation (the delta of
 * the counters around it).  Every expected number is derived in the comment
 * from the 6.18 call chain (kernel functions named, no kernel code), so a
 * call the model drops or doubles on any of these paths fails here.
 *
 * Counter conventions (model/counters.h): update_curr counts every call
 * (the kernel's function is entered even when cfs_rq->curr is NULL);
 * update_cfs_group counts calls on group entities only (a task entity has no
 * group queue: the kernel returns at once); update_tg_load_avg counts calls
 * on non-root queues only (the root returns at once).
 */
#include <string.h>

#include "check.h"
#include "sched.h"

#define T0 1000000000ULL          /* 1 s */
#define US 1000ULL
#define MS 1000000ULL

static u64 snap[NR_MODEL_COUNTERS];

static void take(const struct model *m)
{
	memcpy(snap, m->counters, sizeof(snap));
}

#define D(m, c) ((m)->counters[MC_##c] - snap[MC_##c])

static struct model *mk(unsigned int nr_cpus)
{
	struct model_config cfg = { .nr_cpus = nr_cpus, .hz = 250, .seed = 7 };

	cfg.profile = model_profile_find("6.18");
	return model_new(&cfg, NULL);
}

static struct model_group *group_a(struct model *m)
{
	struct model_group *g = model_group_new(m, model_root_group(m), 1024, "a", NULL);

	CHECK(g != NULL);
	return g;
}

static struct model_task *new_task(struct model *m, struct model_group *g, uint32_t id)
{
	struct model_task *t = model_task_new(m, g, 0, MODEL_POLICY_NORMAL, id, NULL);

	CHECK(t != NULL);
	return t;
}

/*
 * One CPU, group /a (cpu.shares 1024), tasks a and b in /a, nice 0.  With
 * one CPU, calc_group_shares() gives /a's entity tg->shares exactly
 * (tg->load_avg is this queue's own contribution, so tg_weight == load):
 * update_cfs_group() never reweights here.
 */
static void test_paths_one_cpu(void)
{
	struct model *m = mk(1);
	struct model_group *g = group_a(m);
	struct model_task *a = new_task(m, g, 1), *b = new_task(m, g, 2);

	/*
	 * wake_up_new_task(a) on the idle CPU: post_init_entity_util_avg()
	 * counts nothing; activate_task(ENQUEUE_INITIAL) -> enqueue_task_fair()
	 * loop 1:
	 *   enqueue_entity(/a, a): update_curr(/a) [curr NULL: still a call],
	 *     update_load_avg(UPDATE_TG|DO_ATTACH) -> last_update_time 0:
	 *     attach_entity_load_avg() + update_tg_load_avg(/a),
	 *     update_cfs_group(a) [task: not counted], place_entity();
	 *   enqueue_entity(root, /a's se, ENQUEUE_WAKEUP): update_curr(root),
	 *     update_load_avg(UPDATE_TG|DO_ATTACH) [group entity attached when
	 *     the group came online: no attach; propagate_entity_load_avg()
	 *     takes /a's pending attach -> decayed -> update_tg_load_avg(root),
	 *     not counted], update_cfs_group(/a) [no reweight], place_entity().
	 * Loop 2 has no level left.  wakeup_preempt(): curr is the idle task,
	 * a lower class: resched_curr(), no check_preempt_wakeup_fair().
	 */
	take(m);
	CHECK_EQ_U(model_wake_up_new_task(m, a, 0, 0, T0), 0);
	CHECK_EQ_U(D(m, update_curr), 2);
	CHECK_EQ_U(D(m, update_load_avg), 2);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 2);
	CHECK_EQ_U(D(m, update_load_avg_do_attach), 2);
	CHECK_EQ_U(D(m, attach_entity_load_avg), 1);
	CHECK_EQ_U(D(m, update_cfs_group), 1);
	CHECK_EQ_U(D(m, reweight_entity), 0);
	CHECK_EQ_U(D(m, update_tg_load_avg), 1);
	CHECK_EQ_U(D(m, propagate_entity_load_avg_calls), 1);
	CHECK_EQ_U(D(m, propagate_entity_load_avg), 1);
	CHECK_EQ_U(D(m, place_entity), 2);
	CHECK_EQ_U(D(m, wakeup_preempt_check), 0);

	/*
	 * __schedule() from idle: prev is the idle task, so
	 * pick_next_task_fair() -> pick_task_fair() (no curr at either level:
	 * no update_curr()) and the 'simple' path put_prev_set_next_task() ->
	 * set_next_task_fair(first) -> set_next_entity() at both levels, each
	 * update_load_avg(UPDATE_TG).  No newidle balance.
	 */
	take(m);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);
	CHECK_EQ_U(D(m, update_curr), 0);
	CHECK_EQ_U(D(m, update_load_avg), 2);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 2);
	CHECK_EQ_U(D(m, set_next_entity), 2);
	CHECK_EQ_U(D(m, put_prev_entity), 0);
	CHECK_EQ_U(D(m, newidle_balance), 0);

	/*
	 * sched_tick() -> task_tick_fair() -> entity_tick() at a's level and
	 * /a's: update_curr(), update_load_avg(UPDATE_TG), update_cfs_group()
	 * each (the task's not counted).  One CPU: no balance, no domains.
	 */
	take(m);
	model_tick(m, 0, T0 + 1 * MS);
	CHECK_EQ_U(D(m, tick), 1);
	CHECK_EQ_U(D(m, update_curr), 2);
	CHECK_EQ_U(D(m, update_load_avg), 2);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 2);
	CHECK_EQ_U(D(m, update_cfs_group), 1);
	CHECK_EQ_U(D(m, reweight_entity), 0);
	CHECK_EQ_U(D(m, update_blocked_averages), 0);

	/*
	 * wake_up_new_task(b) at 2.5 ms while a runs: enqueue_task_fair() loop
	 * 1: enqueue_entity(/a, b): update_curr(/a) [a's 1.5 ms],
	 * update_load_avg(UPDATE_TG|DO_ATTACH) -> attach +
	 * update_tg_load_avg(/a), place_entity() [b at V = a's vruntime, lag
	 * 0, half a slice]; /a's entity is queued: break.  Loop 2 at /a's
	 * entity: update_load_avg(root, UPDATE_TG) [propagates b's attach],
	 * update_cfs_group(/a) [no reweight].  wakeup_preempt() ->
	 * check_preempt_wakeup_fair(): same queue, update_curr(/a) [second
	 * call, no time passed]; 6.18.33+: a forked wakee with the same slice
	 * does not preempt.
	 */
	take(m);
	CHECK_EQ_U(model_wake_up_new_task(m, b, 0, 0, T0 + 2500 * US), 0);
	CHECK_EQ_U(D(m, update_curr), 2);
	CHECK_EQ_U(D(m, update_load_avg), 2);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 2);
	CHECK_EQ_U(D(m, update_load_avg_do_attach), 1);
	CHECK_EQ_U(D(m, update_cfs_group), 1);
	CHECK_EQ_U(D(m, reweight_entity), 0);
	CHECK_EQ_U(D(m, update_tg_load_avg), 1);
	CHECK_EQ_U(D(m, propagate_entity_load_avg), 1);
	CHECK_EQ_U(D(m, place_entity), 1);
	CHECK_EQ_U(D(m, wakeup_preempt_check), 1);
	CHECK_EQ_U(D(m, wakeup_preempt), 0);
	CHECK(!model_need_resched(m, 0));

	/*
	 * a sleeps at 3 ms.  Vruntimes from a's start: a 3.0 ms, b 2.5 ms,
	 * V = 2.75: a is not eligible -> DELAY_DEQUEUE.  block_task() ->
	 * dequeue_entities() -> dequeue_entity(/a, a, DEQUEUE_SLEEP):
	 * update_curr(/a), update_load_avg(0), set_delayed(), return false
	 * (-1: nothing else).  pick_next_task_fair(prev a): pick_task_fair():
	 * root's curr /a is queued -> update_curr(root); /a's curr a is
	 * queued (delayed) -> update_curr(/a); pick_eevdf() takes b (a is not
	 * eligible, no buddy: the delayed dequeue set none).  prev != p on
	 * the same queue: put_prev_entity(/a, a) [queued: update_curr(/a),
	 * update_load_avg(0)], set_next_entity(/a, b) [update_load_avg(
	 * UPDATE_TG)].  No newidle.
	 */
	take(m);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 3 * MS) == b);
	CHECK_EQ_U(D(m, delayed_dequeue), 1);
	CHECK_EQ_U(D(m, update_curr), 4);
	CHECK_EQ_U(D(m, update_load_avg), 3);
	CHECK_EQ_U(D(m, update_load_avg_none), 2);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 1);
	CHECK_EQ_U(D(m, update_cfs_group), 0);
	CHECK_EQ_U(D(m, put_prev_entity), 1);
	CHECK_EQ_U(D(m, set_next_entity), 1);
	CHECK_EQ_U(D(m, newidle_balance), 0);

	/*
	 * Tick at 4 ms: b ran 1 ms -> b 3.5 ms, past its deadline (2.5 + 0.7)
	 * with a still queued: update_curr() reschedules.  V = 3.25 ms, so the
	 * delayed a now has positive lag (+0.25 ms).
	 */
	model_tick(m, 0, T0 + 4 * MS);
	CHECK(model_need_resched(m, 0));

	/*
	 * try_to_wake_up(a) -> ttwu_runnable(): enqueue_task(ENQUEUE_DELAYED)
	 * -> enqueue_task_fair() -> requeue_delayed_entity(a): DELAY_ZERO,
	 * update_entity_lag() gives vlag > 0 -> vlag = 0, place_entity();
	 * update_load_avg(0); clear_delayed().  No update_curr() on this path.
	 * wakeup_preempt() -> check_preempt_wakeup_fair() returns at
	 * test_tsk_need_resched() (the tick's), before update_curr().
	 */
	take(m);
	CHECK_EQ_U(model_try_to_wake_up(m, a, 0, -1, MODEL_WF_TTWU, T0 + 4 * MS), 0);
	CHECK_EQ_U(D(m, requeue_delayed_entity), 1);
	CHECK_EQ_U(D(m, enqueue_task_fair), 1);
	CHECK_EQ_U(D(m, enqueue_entity), 0);
	CHECK_EQ_U(D(m, place_entity), 1);
	CHECK_EQ_U(D(m, update_load_avg), 1);
	CHECK_EQ_U(D(m, update_load_avg_none), 1);
	CHECK_EQ_U(D(m, update_curr), 0);
	CHECK_EQ_U(D(m, update_cfs_group), 0);
	CHECK_EQ_U(D(m, wakeup_preempt_check), 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * A delayed sleeper woken while its lag is still negative: requeue without
 * place_entity(), and the wakeup check runs (curr not rescheduled):
 * update_curr() once there.
 */
static void test_requeue_negative_lag(void)
{
	struct model *m = mk(1);
	struct model_group *g = group_a(m);
	struct model_task *a = new_task(m, g, 1), *b = new_task(m, g, 2);

	model_wake_up_new_task(m, a, 0, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);
	model_wake_up_new_task(m, b, 0, 0, T0 + 2500 * US);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 3 * MS) == b);

	/*
	 * At once (no time passed): a's lag is -0.25 ms.  ttwu_runnable():
	 * requeue_delayed_entity(): update_entity_lag(), no place_entity();
	 * update_load_avg(0).  wakeup_preempt() -> check_preempt_wakeup_fair():
	 * same queue, update_curr(/a); b was just picked (protected), the pick
	 * keeps b: no preemption.
	 */
	take(m);
	CHECK_EQ_U(model_try_to_wake_up(m, a, 0, -1, MODEL_WF_TTWU, T0 + 3 * MS), 0);
	CHECK_EQ_U(D(m, requeue_delayed_entity), 1);
	CHECK_EQ_U(D(m, place_entity), 0);
	CHECK_EQ_U(D(m, update_load_avg), 1);
	CHECK_EQ_U(D(m, update_curr), 1);
	CHECK_EQ_U(D(m, wakeup_preempt_check), 1);
	CHECK_EQ_U(D(m, wakeup_preempt), 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * A task alone in /a sleeps: eligible (it is the whole queue), so it is
 * dequeued for good at both levels and the CPU goes idle.
 */
static void test_sleep_to_idle(void)
{
	struct model *m = mk(1);
	struct model_group *g = group_a(m);
	struct model_task *a = new_task(m, g, 1);

	model_wake_up_new_task(m, a, 0, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);

	/*
	 * dequeue_entities(DEQUEUE_SLEEP): dequeue_entity(/a, a):
	 * update_curr(/a), update_load_avg(UPDATE_TG), update_cfs_group(a)
	 * [task]; /a is empty -> dequeue_entity(root, /a's se): update_curr(
	 * root), update_load_avg(UPDATE_TG), update_cfs_group(/a) [counted; it
	 * returns at the empty queue, no reweight].  Loop 2: no level left.
	 * pick_next_task_fair(): nothing queued -> sched_balance_newidle() (one
	 * CPU: no domain, no blocked-load update) -> NULL; then
	 * put_prev_set_next_task(prev, idle) -> put_prev_task_fair():
	 * put_prev_entity() at both levels, neither queued: no update_curr(),
	 * no update_load_avg().
	 */
	take(m);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 2 * MS) == NULL);
	CHECK_EQ_U(D(m, dequeue_entity), 2);
	CHECK_EQ_U(D(m, update_curr), 2);
	CHECK_EQ_U(D(m, update_load_avg), 2);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 2);
	CHECK_EQ_U(D(m, update_cfs_group), 1);
	CHECK_EQ_U(D(m, reweight_entity), 0);
	CHECK_EQ_U(D(m, put_prev_entity), 2);
	CHECK_EQ_U(D(m, newidle_balance), 1);
	CHECK_EQ_U(D(m, update_blocked_averages), 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * set_user_nice() of a queued, not running task b (a runs; both in /a).
 */
static void test_nice_queued(void)
{
	struct model *m = mk(1);
	struct model_group *g = group_a(m);
	struct model_task *a = new_task(m, g, 1), *b = new_task(m, g, 2);

	model_wake_up_new_task(m, a, 0, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);
	model_wake_up_new_task(m, b, 0, 0, T0 + 1 * MS);

	/*
	 * queued: dequeue_task(DEQUEUE_SAVE) -> dequeue_entities():
	 * dequeue_entity(/a, b): update_curr(/a), not a sleep (never delayed),
	 * update_load_avg(UPDATE_TG); /a keeps a -> loop 2 at /a's entity:
	 * update_load_avg(UPDATE_TG), update_cfs_group(/a).
	 * set_load_weight(p, true) -> reweight_task_fair() ->
	 * reweight_entity(/a, b): b is not queued now: no update_curr(), no
	 * place_entity().  enqueue_task(ENQUEUE_RESTORE) -> enqueue_task_fair():
	 * enqueue_entity(/a, b): update_curr(/a), update_load_avg(UPDATE_TG|
	 * DO_ATTACH) [attached already: no attach], place_entity(); loop 2 at
	 * /a's entity: update_load_avg(UPDATE_TG), update_cfs_group(/a).
	 * prio_changed_fair(): the root queue holds one entity (/a's): return,
	 * no wakeup_preempt().
	 */
	take(m);
	CHECK_EQ_U(model_task_set_nice(m, b, 5, T0 + 2 * MS), 0);
	CHECK_EQ_U(D(m, update_curr), 2);
	CHECK_EQ_U(D(m, update_load_avg), 4);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 4);
	CHECK_EQ_U(D(m, update_load_avg_do_attach), 1);
	CHECK_EQ_U(D(m, attach_entity_load_avg), 0);
	CHECK_EQ_U(D(m, update_cfs_group), 2);
	CHECK_EQ_U(D(m, reweight_entity), 1);
	CHECK_EQ_U(D(m, place_entity), 1);
	CHECK_EQ_U(D(m, wakeup_preempt_check), 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * sched_group_set_shares() of /a while a runs in it (one CPU).
 */
static void test_set_shares_running(void)
{
	struct model *m = mk(1);
	struct model_group *g = group_a(m);
	struct model_task *a = new_task(m, g, 1);

	model_wake_up_new_task(m, a, 0, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);

	/*
	 * __sched_group_set_shares(): for the one CPU, from /a's entity up:
	 * update_load_avg(root, UPDATE_TG), update_cfs_group(/a) -> shares
	 * 2048 != 1024 -> reweight_entity(root, /a's se): queued (curr) ->
	 * update_curr(root), update_entity_lag(), and (6.18) place_entity()
	 * to put it back.
	 */
	take(m);
	CHECK_EQ_U(model_group_set_shares(m, g, 2048, T0 + 1 * MS, NULL), 0);
	CHECK_EQ_U(D(m, update_load_avg), 1);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 1);
	CHECK_EQ_U(D(m, update_cfs_group), 1);
	CHECK_EQ_U(D(m, reweight_entity), 1);
	CHECK_EQ_U(D(m, update_curr), 1);
	CHECK_EQ_U(D(m, place_entity), 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * sched_move_task() of a sleeping task c from the root group to /a.
 */
static void test_move_group_sleeping(void)
{
	struct model *m = mk(1);
	struct model_group *g = group_a(m);
	struct model_task *c = new_task(m, NULL, 3);

	model_wake_up_new_task(m, c, 0, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == c);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 1 * MS) == NULL);

	/*
	 * Not queued, not running: only task_change_group_fair():
	 * detach_entity_cfs_rq() [c keeps last_update_time]:
	 * update_load_avg(root, c, 0), detach, update_tg_load_avg(root) [not
	 * counted], propagate_entity_cfs_rq() [no parent entity: nothing];
	 * then attach_entity_cfs_rq() on /a: update_load_avg(/a, c, 0)
	 * [ATTACH_AGE_LOAD], attach, update_tg_load_avg(/a),
	 * propagate_entity_cfs_rq(): /a's entity: update_load_avg(root,
	 * UPDATE_TG), which propagates the attach.  No update_curr(), no
	 * update_cfs_group().
	 */
	take(m);
	CHECK_EQ_U(model_task_move_group(m, c, g, T0 + 2 * MS), 0);
	CHECK_EQ_U(D(m, update_load_avg), 3);
	CHECK_EQ_U(D(m, update_load_avg_none), 2);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 1);
	CHECK_EQ_U(D(m, detach_entity_load_avg), 1);
	CHECK_EQ_U(D(m, attach_entity_load_avg), 1);
	CHECK_EQ_U(D(m, update_tg_load_avg), 1);
	CHECK_EQ_U(D(m, propagate_entity_load_avg_calls), 1);
	CHECK_EQ_U(D(m, propagate_entity_load_avg), 1);
	CHECK_EQ_U(D(m, update_curr), 0);
	CHECK_EQ_U(D(m, update_cfs_group), 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * move_queued_task() of b (queued behind a on CPU 0, both in /a) to the idle
 * CPU 1.
 */
static void test_migrate_queued(void)
{
	struct model *m = mk(2);
	struct model_group *g = group_a(m);
	struct model_task *a = new_task(m, g, 1), *b = new_task(m, g, 2);

	model_wake_up_new_task(m, a, 0, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);
	model_wake_up_new_task(m, b, 0, 0, T0 + 1 * MS);

	/*
	 * deactivate_task(): dequeue_entity(/a@0, b) [not a sleep]:
	 * update_curr(/a@0), update_load_avg(UPDATE_TG|DO_DETACH) -> detach +
	 * update_tg_load_avg(/a@0); /a@0 keeps a -> loop 2 at /a@0's entity:
	 * update_load_avg(UPDATE_TG), update_cfs_group() [CPU 1 contributes
	 * nothing yet: shares stay 1024, no reweight].
	 * set_task_cpu() -> migrate_task_rq_fair(): migrating, no counted call.
	 * activate_task(rq1) -> enqueue_task_fair(): enqueue_entity(/a@1, b):
	 * update_curr(/a@1) [no curr], update_load_avg(UPDATE_TG|DO_ATTACH) ->
	 * attach + update_tg_load_avg(/a@1), place_entity();
	 * enqueue_entity(root@1, /a@1's se): update_curr(root@1),
	 * update_load_avg(UPDATE_TG|DO_ATTACH) [group entity: no attach],
	 * update_cfs_group(/a@1): shares = 1024 x load1 / (contrib0 + load1)
	 * < 1024 -> reweight_entity() of the not yet queued entity (no
	 * update_curr(), no place_entity() inside), then place_entity().
	 * wakeup_preempt(rq1): CPU 1 is idle, no fair check.
	 */
	take(m);
	CHECK_EQ_U(model_migrate_task(m, b, 1, T0 + 2 * MS), 0);
	CHECK_EQ_U(D(m, update_curr), 3);
	CHECK_EQ_U(D(m, update_load_avg), 4);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 4);
	CHECK_EQ_U(D(m, update_load_avg_do_detach), 1);
	CHECK_EQ_U(D(m, update_load_avg_do_attach), 2);
	CHECK_EQ_U(D(m, detach_entity_load_avg), 1);
	CHECK_EQ_U(D(m, attach_entity_load_avg), 1);
	CHECK_EQ_U(D(m, update_tg_load_avg), 2);
	CHECK_EQ_U(D(m, update_cfs_group), 2);
	CHECK_EQ_U(D(m, reweight_entity), 1);
	CHECK_EQ_U(D(m, place_entity), 2);
	CHECK_EQ_U(D(m, wakeup_preempt_check), 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * sched_balance_newidle() past its entry test: CPU 0 holds two tasks
 * (rd->overloaded), CPU 1's only task sleeps.
 */
static void test_newidle_blocked_update(void)
{
	struct model *m = mk(2);
	struct model_task *a = new_task(m, NULL, 1), *b = new_task(m, NULL, 2);
	struct model_task *c = new_task(m, NULL, 3);

	model_wake_up_new_task(m, a, 0, 0, T0);
	model_wake_up_new_task(m, b, 0, 0, T0);
	model_wake_up_new_task(m, c, 1, 1, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);
	CHECK(model_schedule(m, 1, MODEL_PREV_RUNNABLE, T0) == c);
	CHECK(m->rd_overloaded);

	/*
	 * c sleeps: pick_next_task_fair() finds nothing ->
	 * sched_balance_newidle(): rd->overloaded and avg_idle (initial
	 * 2 x migration cost) >= max_newidle_lb_cost (0): past the entry test
	 * -> sched_balance_update_blocked_averages(1) once, before the domain
	 * walk, whatever the walk does.
	 */
	take(m);
	model_schedule(m, 1, MODEL_PREV_SLEEP, T0 + 1 * MS);
	CHECK_EQ_U(D(m, newidle_balance), 1);
	CHECK_EQ_U(D(m, newidle_balance_run), 1);
	CHECK_EQ_U(D(m, update_blocked_averages), 1);
	CHECK_EQ_U(D(m, update_blocked_averages_newidle), 1);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * pick_next_task_fair()'s group walk: a in /a sleeps, c in /b is picked.
 * c is forked at the very moment a sleeps, so /b's entity is placed at
 * V = /a's vruntime and /a's entity is still eligible (lag 0): no delayed
 * group entity.
 */
static void test_group_walk(void)
{
	struct model *m = mk(1);
	struct model_group *ga = group_a(m);
	struct model_group *gb = model_group_new(m, model_root_group(m), 1024, "b", NULL);
	struct model_task *a = new_task(m, ga, 1), *c = new_task(m, gb, 3);

	model_wake_up_new_task(m, a, 0, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);
	model_wake_up_new_task(m, c, 0, 0, T0 + 1 * MS);

	/*
	 * block_task(a) -> dequeue_entities(): dequeue_entity(/a, a):
	 * update_curr(/a), update_load_avg(UPDATE_TG); /a empty ->
	 * dequeue_entity(root, /a's se): update_curr(root), eligible,
	 * update_load_avg(UPDATE_TG), update_cfs_group(/a) [empty: returns];
	 * root keeps /b's entity: loop 1 ends, se = NULL, no loop 2.
	 * pick_task_fair(): root's curr (/a's se) is no longer queued: no
	 * update_curr(); picks /b's se, then c (/b has no curr).
	 * pick_next_task_fair(): c (depth 1) and a (depth 1) on different
	 * queues: put_prev_entity(/a, a) [not queued: nothing counted],
	 * set_next_entity(/b, c) [update_load_avg(UPDATE_TG)]; then the two
	 * group entities share the root: put_prev_entity(root, /a's se)
	 * [not queued], set_next_entity(root, /b's se) [update_load_avg(
	 * UPDATE_TG)].
	 */
	take(m);
	CHECK(model_schedule(m, 0, MODEL_PREV_SLEEP, T0 + 1 * MS) == c);
	CHECK_EQ_U(D(m, delayed_dequeue), 0);
	CHECK_EQ_U(D(m, dequeue_entity), 2);
	CHECK_EQ_U(D(m, update_curr), 2);
	CHECK_EQ_U(D(m, update_load_avg), 4);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 4);
	CHECK_EQ_U(D(m, update_cfs_group), 1);
	CHECK_EQ_U(D(m, put_prev_entity), 2);
	CHECK_EQ_U(D(m, set_next_entity), 2);
	CHECK_EQ_U(D(m, newidle_balance), 0);
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * 6.18's task-based CFS bandwidth throttle (the scenario of test_bandwidth.c
 * test_one_task: /a has 10 ms per 100 ms, one task t, one CPU).
 */
static void test_throttle618(void)
{
	struct model *m = mk(1);
	struct model_group *g = group_a(m);
	struct model_task *t = new_task(m, g, 1);

	CHECK(model_group_set_bandwidth(m, g, 10 * MS, 100 * MS, 0, T0, NULL) == 0);
	model_wake_up_new_task(m, t, 0, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == t);
	model_tick(m, 0, T0 + 5 * MS);
	model_tick(m, 0, T0 + 10 * MS);
	CHECK(model_need_resched(m, 0));

	/*
	 * __schedule(), t preempted: pick_task_fair(): update_curr(root)
	 * (curr /a's se queued), pick /a's se; update_curr(/a) (curr t),
	 * check_cfs_rq_runtime(/a) -> throttle_cfs_rq(): no dequeue, no
	 * update_load_avg() in 6.18 (tg_throttle_down() only counts and, the
	 * queue not being empty, leaves its PELT clock running); t picked
	 * again with its throttle work; prev == p: no put/set.
	 */
	take(m);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS) == t);
	CHECK_EQ_U(D(m, update_curr), 2);
	CHECK_EQ_U(D(m, update_load_avg), 0);
	CHECK_EQ_U(D(m, update_cfs_group), 0);
	CHECK_EQ_U(D(m, dequeue_entity), 0);

	/*
	 * throttle_cfs_rq_work() on t's way to user space:
	 * dequeue_task_fair(DEQUEUE_SLEEP | DEQUEUE_THROTTLE) ->
	 * dequeue_entity(/a, t): update_curr(/a), never delayed,
	 * update_load_avg(UPDATE_TG); /a empty -> dequeue_entity(root, /a's
	 * se) (DEQUEUE_THROTTLE kept: not delayed either): update_curr(root),
	 * update_load_avg(UPDATE_TG), update_cfs_group(/a) [empty].  Then
	 * __schedule(): nothing queued -> sched_balance_newidle() (no domain);
	 * put_prev_task_fair(): put_prev_entity() at both levels, neither
	 * queued: nothing counted.
	 */
	take(m);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0 + 10 * MS + 2 * US) == NULL);
	CHECK_EQ_U(D(m, dequeue_entity), 2);
	CHECK_EQ_U(D(m, delayed_dequeue), 0);
	CHECK_EQ_U(D(m, update_curr), 2);
	CHECK_EQ_U(D(m, update_load_avg), 2);
	CHECK_EQ_U(D(m, update_load_avg_update_tg), 2);
	CHECK_EQ_U(D(m, update_cfs_group), 1);
	CHECK_EQ_U(D(m, newidle_balance), 1);
	CHECK_EQ_U(D(m, put_prev_entity), 2);

	/*
	 * Period timer at 100 ms -> distribute_cfs_runtime() ->
	 * unthrottle_cfs_rq() -> tg_unthrottle_up(/a): the limbo task is
	 * enqueue_task_fair(ENQUEUE_WAKEUP)'d: enqueue_entity(/a, t):
	 * update_curr(/a) [no curr], update_load_avg(UPDATE_TG|DO_ATTACH)
	 * [attached: no attach], place_entity(); enqueue_entity(root, /a's
	 * se): update_curr(root), update_load_avg(UPDATE_TG|DO_ATTACH),
	 * update_cfs_group(/a) [one CPU: no reweight], place_entity().  No
	 * loop 2 level; the idle CPU is rescheduled (no wakeup_preempt()).
	 */
	take(m);
	model_run_timers(m, T0 + 100 * MS);
	CHECK_EQ_U(D(m, enqueue_task_fair), 1);
	CHECK_EQ_U(D(m, enqueue_entity), 2);
	CHECK_EQ_U(D(m, update_curr), 2);
	CHECK_EQ_U(D(m, update_load_avg), 2);
	CHECK_EQ_U(D(m, update_load_avg_do_attach), 2);
	CHECK_EQ_U(D(m, attach_entity_load_avg), 0);
	CHECK_EQ_U(D(m, update_cfs_group), 1);
	CHECK_EQ_U(D(m, reweight_entity), 0);
	CHECK_EQ_U(D(m, place_entity), 2);
	CHECK_EQ_U(D(m, wakeup_preempt_check), 0);
	CHECK(model_need_resched(m, 0));
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

/*
 * A wakeup that preempts: a SCHED_IDLE task runs, a normal task is forked
 * onto its CPU.
 */
static void test_preempt_idle_curr(void)
{
	struct model *m = mk(1);
	struct model_task *a = model_task_new(m, NULL, 0, MODEL_POLICY_IDLE, 1, NULL);
	struct model_task *b = new_task(m, NULL, 2);

	CHECK(a != NULL);
	model_wake_up_new_task(m, a, 0, 0, T0);
	CHECK(model_schedule(m, 0, MODEL_PREV_RUNNABLE, T0) == a);

	/*
	 * wake_up_new_task(b): enqueue_entity(root, b): update_curr(root),
	 * update_load_avg(UPDATE_TG|DO_ATTACH) [attach], place_entity(); no
	 * group level.  wakeup_preempt() -> check_preempt_wakeup_fair():
	 * curr's entity is idle, b's is not: 'goto preempt' before the policy
	 * test and before update_curr() (so before 6.18.33's fork rule too):
	 * preempted, curr rescheduled.
	 */
	take(m);
	CHECK_EQ_U(model_wake_up_new_task(m, b, 0, 0, T0 + 1 * MS), 0);
	CHECK_EQ_U(D(m, update_curr), 1);
	CHECK_EQ_U(D(m, update_load_avg), 1);
	CHECK_EQ_U(D(m, update_load_avg_do_attach), 1);
	CHECK_EQ_U(D(m, place_entity), 1);
	CHECK_EQ_U(D(m, update_tg_load_avg), 0);
	CHECK_EQ_U(D(m, wakeup_preempt_check), 1);
	CHECK_EQ_U(D(m, wakeup_preempt), 1);
	CHECK(model_need_resched(m, 0));
	CHECK(model_check_invariants(m, NULL) == 0);
	model_free(m);
}

int main(void)
{
	test_paths_one_cpu();
	test_requeue_negative_lag();
	test_sleep_to_idle();
	test_nice_queued();
	test_set_shares_running();
	test_move_group_sleeping();
	test_migrate_queued();
	test_newidle_blocked_update();
	test_group_walk();
	test_throttle618();
	test_preempt_idle_curr();
	return check_done("fidelity618");
}
