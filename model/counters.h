/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's counters, one line each: C(identifier, "name", "what it counts").
 * The first block is the stable set the replay JSON reports (issue 5); names
 * are the trace event or the kernel function.  Expanded by sched.h (enum) and
 * counters.c (names, iteration).
 */
#ifndef SCHEDREPLAY_MODEL_COUNTERS_H
#define SCHEDREPLAY_MODEL_COUNTERS_H

#define MODEL_COUNTERS(C) \
	C(sched_switch,          "sched_switch",          "__schedule() switched to a different task (idle included)") \
	C(sched_wakeup,          "sched_wakeup",          "try_to_wake_up() completed (ttwu_do_wakeup)") \
	C(sched_wakeup_new,      "sched_wakeup_new",      "wake_up_new_task()") \
	C(sched_migrate_task,    "sched_migrate_task",    "set_task_cpu() to another CPU (not fork placement)") \
	C(sched_stat_runtime,    "sched_stat_runtime",    "update_curr() on a fair task with delta > 0 (emits the event)") \
	C(update_curr,           "update_curr",           "update_curr() calls (also those that find no curr: the kernel enters it at every call site)") \
	C(update_load_avg,       "update_load_avg",       "update_load_avg() calls") \
	C(update_cfs_group,      "update_cfs_group",      "update_cfs_group() calls on group entities") \
	C(reweight_entity,       "reweight_entity",       "reweight_entity() calls") \
	C(update_tg_load_avg,    "update_tg_load_avg",    "update_tg_load_avg() calls on non-root cfs_rqs") \
	C(tg_load_avg_writes,    "tg_load_avg_writes",    "atomic writes of tg->load_avg") \
	C(propagate_entity_load_avg, "propagate_entity_load_avg", "propagate_entity_load_avg() calls that propagated") \
	C(update_blocked_averages, "update_blocked_averages", "sched_balance_update_blocked_averages() runs") \
	C(newidle_balance,       "newidle_balance",       "sched_balance_newidle() calls") \
	C(place_entity,          "place_entity",          "place_entity() calls") \
	C(wakeup_preempt,        "wakeup_preempt",        "wakeups/forks that preempt a running fair task (idle CPUs not counted)") \
	C(tick,                  "tick",                  "sched_tick() calls") \
	C(sched_stat_runtime_rt_dl, "sched_stat_runtime_rt_dl", "update_curr_common() of an RT/DL interval with delta > 0: its put_prev_task_rt() and ticks (emits the event under STAT_RUNTIME_OTHER_CLASS, 6.8+; apart from the fair row)") \
	C(update_load_avg_update_tg, "update_load_avg.UPDATE_TG", "update_load_avg() with UPDATE_TG") \
	C(update_load_avg_skip_age, "update_load_avg.SKIP_AGE_LOAD", "update_load_avg() with SKIP_AGE_LOAD") \
	C(update_load_avg_do_attach, "update_load_avg.DO_ATTACH", "update_load_avg() with DO_ATTACH") \
	C(update_load_avg_do_detach, "update_load_avg.DO_DETACH", "update_load_avg() with DO_DETACH") \
	C(update_load_avg_none,  "update_load_avg.0",     "update_load_avg() with no flags") \
	C(update_load_avg_decayed, "update_load_avg.decayed", "update_load_avg() calls whose cfs_rq decayed or propagated") \
	C(update_cfs_group_reweight, "update_cfs_group.reweighted", "update_cfs_group() calls that changed the weight (6.1: all)") \
	C(update_cfs_group_skipped, "update_cfs_group.skipped", "update_cfs_group() calls a variant removed") \
	C(update_tg_load_avg_ratelimited, "update_tg_load_avg.ratelimited", "update_tg_load_avg() returns at the 1 ms rate limit") \
	C(tg_load_avg_reads,     "tg_load_avg_reads",     "reads of tg->load_avg in calc_group_shares() (per node: x nodes)") \
	C(attach_entity_load_avg, "attach_entity_load_avg", "attach_entity_load_avg() calls") \
	C(detach_entity_load_avg, "detach_entity_load_avg", "detach_entity_load_avg() calls") \
	C(remove_entity_load_avg, "remove_entity_load_avg", "remove_entity_load_avg() calls") \
	C(propagate_entity_load_avg_calls, "propagate_entity_load_avg.calls", "propagate_entity_load_avg() calls on group entities") \
	C(newidle_balance_skip,  "newidle_balance.skip",  "sched_balance_newidle() left at the entry test (no blocked update)") \
	C(newidle_balance_run,   "newidle_balance.run",   "sched_balance_newidle() past the entry test") \
	C(newidle_balance_domains, "newidle_balance.domains", "sched_balance_rq(CPU_NEWLY_IDLE) runs") \
	C(newidle_balance_pulled, "newidle_balance.pulled", "newidle balances that pulled a task") \
	C(newidle_balance_random_skip, "newidle_balance.ni_random_skip", "domains skipped by NI_RANDOM") \
	C(update_blocked_averages_newidle, "update_blocked_averages.newidle", "... from newidle balance") \
	C(update_blocked_averages_periodic, "update_blocked_averages.periodic", "... from the periodic balance softirq") \
	C(update_blocked_averages_nohz, "update_blocked_averages.nohz", "... from nohz idle balance (update_nohz_stats)") \
	C(nohz_stats_kick,       "nohz_stats_kick",       "nohz blocked-load updates kicked (NOHZ_STATS_KICK / NEWILB_KICK)") \
	C(periodic_balance,      "sched_balance_domains", "periodic load balance passes (SCHED_SOFTIRQ)") \
	C(load_balance_moved,    "load_balance.moved",    "tasks moved by the model's balancing") \
	C(load_balance_hot,      "load_balance.hot",      "queued tasks the balancer left as cache hot (task_hot())") \
	C(pick_next_entity,      "pick_next_entity",      "pick_next_entity() calls (6.18.33+: the wakeup-preemption check's too)") \
	C(pick_next_task_fair,   "pick_next_task_fair",   "pick_next_task_fair() calls") \
	C(pick_buddy,            "pick_next_entity.buddy", "picks that took cfs_rq->next or ->last") \
	C(set_next_entity,       "set_next_entity",       "set_next_entity() calls") \
	C(put_prev_entity,       "put_prev_entity",       "put_prev_entity() calls") \
	C(enqueue_entity,        "enqueue_entity",        "enqueue_entity() calls") \
	C(dequeue_entity,        "dequeue_entity",        "dequeue_entity() calls") \
	C(enqueue_task_fair,     "enqueue_task_fair",     "enqueue_task_fair() calls") \
	C(dequeue_task_fair,     "dequeue_task_fair",     "dequeue_task_fair() / dequeue_entities() calls") \
	C(delayed_dequeue,       "dequeue_entity.delayed", "sleeps kept queued by DELAY_DEQUEUE") \
	C(requeue_delayed_entity, "requeue_delayed_entity", "delayed entities woken back (ttwu_runnable)") \
	C(wakeup_preempt_check,  "check_preempt_wakeup_fair", "wakeup preemption checks (curr is a fair task)") \
	C(tick_resched,          "tick.resched",          "ticks that set need_resched") \
	C(update_curr_resched,   "update_curr.resched",   "update_curr() deadline expiries that set need_resched (EEVDF)") \
	C(new_task_first_load_n, "new_task_first_load.count", "forked tasks through their first update_load_avg()") \
	C(new_task_first_load_sum, "new_task_first_load.sum", "their load_avg right after it, summed (1024 each unless aged: 1002)") \
	C(rd_overloaded_cleared, "rd_overloaded.cleared", "top-domain balances that cleared rd->overloaded (no CPU with nr_running > 1)") \
	C(balance_interval_doubled, "sched_balance_rq.interval_doubled", "periodic balances that found the domain balanced (balance_interval *= 2)") \
	C(balance_interval_reset, "sched_balance_rq.interval_reset", "balances that found an imbalance (balance_interval = min_interval)") \
	C(lb_migrate_load,       "sched_balance_rq.migrate_load", "balances that found a load imbalance (calculate_imbalance(): migrate_load)") \
	C(lb_migrate_util,       "sched_balance_rq.migrate_util", "... a utilisation imbalance (migrate_util: fill the local group's spare capacity)") \
	C(lb_migrate_task,       "sched_balance_rq.migrate_task", "... a task-count imbalance (migrate_task)") \
	C(lb_failed,             "sched_balance_rq.failed", "balances that found an imbalance and (would have) moved nothing") \
	C(lb_all_pinned,         "sched_balance_rq.all_pinned", "balances whose every candidate was refused before the affinity test (LBF_ALL_PINNED)") \
	C(lb_active_needed,      "sched_balance_rq.active_needed", "failed balances for which need_active_balance() holds") \
	C(lb_active_started,     "sched_balance_rq.active_started", "... that queued stopper work on the busiest CPU (its current task may run here, none queued there yet)") \
	C(lb_active_pushed,      "active_balance.pushed", "active_load_balance_cpu_stop() runs that moved a task (dry: would have)") \
	C(lb_active_failed,      "active_balance.failed", "... that found no task to move (detach_one_task() NULL)") \
	C(vcpu_pack_room,        "vcpu_pack_room",        "sched_vcpu_pack: placements beside an idle CPU asked whether the waker's CPU has room") \
	C(vcpu_pack_room_packed, "vcpu_pack_room.packed", "... that kept the task on the waker's (parent's) CPU") \
	C(sched_exec,            "sched_exec",            "exec balances (sched_exec(), --placement model): the running task placed by the slow path") \
	C(sched_exec_moved,      "sched_exec.moved",      "... that moved it to another CPU (stop_one_cpu(): migration_cpu_stop())") \
	C(update_cfs_group_entries, "update_cfs_group.entries", "update_cfs_group() entries as a function tracer counts them: task entities too") \
	C(update_tg_load_avg_entries, "update_tg_load_avg.entries", "update_tg_load_avg() entries as a function tracer counts them: the root cfs_rq too") \
	C(propagate_entity_load_avg_entries, "propagate_entity_load_avg.entries", "propagate_entity_load_avg() entries as a function tracer counts them: task entities too")

/*
 * CFS bandwidth counters: listed after the others, and only when a group has
 * a quota (cfs_bandwidth_used()), so that a replay without one is unchanged.
 */
#define MODEL_BW_COUNTERS(C) \
	C(throttle_cfs_rq,       "throttle_cfs_rq",       "cfs_rqs throttled (throttle_cfs_rq() that found no runtime)") \
	C(unthrottle_cfs_rq,     "unthrottle_cfs_rq",     "cfs_rqs unthrottled (unthrottle_cfs_rq() that did)") \
	C(throttle_cfs_rq_work,  "throttle_cfs_rq_work",  "tasks dequeued to a throttled_limbo_list (6.18 task-based throttle)") \
	C(assign_cfs_rq_runtime, "assign_cfs_rq_runtime", "__assign_cfs_rq_runtime() calls (slices asked of the pool)") \
	C(sched_cfs_period_timer, "sched_cfs_period_timer", "period timer expiries (do_sched_cfs_period_timer())") \
	C(distribute_cfs_runtime, "distribute_cfs_runtime", "distribute_cfs_runtime() passes") \
	C(return_cfs_rq_runtime, "return_cfs_rq_runtime", "slack returned to the pool (__return_cfs_rq_runtime() with slack)") \
	C(sched_cfs_slack_timer, "sched_cfs_slack_timer", "slack timer expiries")

#endif
