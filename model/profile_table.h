/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel profiles, one column per kernel, one line per setting with the reason
 * it has that value.  Expanded by model/profile.c (and sched.h for the enum).
 *
 * Columns: 6.1 = Debian 6.1.192 (CFS, exact reference source); 6.5 = v6.5-rc1
 * as the seed patches measured it (CFS, before the tg rate limit, no
 * backports); 6.12 = Debian 6.12.117 (EEVDF with late stable backports, the
 * text of ../shared/model-spec.md); 6.18 = the capture kernel of this
 * project's machines (6.18.44): 6.12.117 plus the 6.17 slice-protection
 * rework (PROTECT_VPROT, RESCHED_UNPROTECTED), the re-placing reweight
 * (REWEIGHT_PLACE) and the lag clamp 6.18-stable took in 2026
 * (LAG_CLAMP_MAX_SLICE), read in a 6.18.26 stable fair.c, plus the 6.18.33
 * stable backport of the 6.19 wakeup-preemption rework (WAKEUP_PICK_NEXT),
 * read in a 6.18.35 stable fair.c, checked on captures (docs/model.md,
 * "Wakeup preemption on the capture kernel").  Checked on the capture
 * machine (6.18.44, /sys/kernel/debug/sched/debug): cfs_rq prints
 * zero_vruntime and h_nr_runnable, sysctl_sched_base_slice is 1.400000 ms on
 * 2 CPUs (0.70 ms x factor 2), and sysctl_sched_features
 * 0x5f0e7df has NI_RANDOM on and NEXT_BUDDY off (bits in 6.12's features.h
 * order without DOUBLE_TICK).
 *
 * PROFILE_FEAT(NAME, 6.1, 6.5, 6.12, 6.18, debugfs, reason)
 *
 * debugfs: SF(6.1, 6.5, 6.12, 6.18) marks the profiles whose kernel has NAME
 * as a SCHED_FEAT() entry of kernel/sched/features.h (so `echo NO_NAME >
 * /sys/kernel/debug/sched/features` flips it: sched_feat_write() ->
 * sched_feat_set()) AND whose model implements both values of it; only those
 * may be toggled with --sched-feature / "sched_features".  NOSF: a version
 * marker or behaviour switch of the model (EEVDF, PROTECT_VPROT, ...), not a
 * features.h entry, or one the model implements one way only.
 * PROFILE_TUNABLE(name, unit, 6.1, 6.5, 6.12, 6.18, reason)
 *
 * Tunables marked "normalized" are multiplied by the CPU-count factor
 * 1 + ilog2(min(nr_cpus, 8)) (SCHED_TUNABLESCALING_LOG), as
 * update_sysctl() does at boot.
 */
#define SF(a, b, c, d) ((a) | (b) << 1 | (c) << 2 | (d) << 3)
#define NOSF 0

#define MODEL_PROFILE_FEATURES(F)                                                  \
	F(EEVDF,                  0, 0, 1, 1, NOSF, "EEVDF replaced CFS in v6.6 (147f3efaa241)") \
	F(PLACE_LAG,              0, 0, 1, 1, SF(0,0,1,1), "EEVDF: keep lag across sleep (features.h, 6.6+)") \
	F(PLACE_DEADLINE_INITIAL, 0, 0, 1, 1, SF(0,0,1,1), "EEVDF: half a slice for a forked task (6.6+)") \
	F(PLACE_REL_DEADLINE,     0, 0, 1, 1, SF(0,0,1,1), "EEVDF: keep relative deadline over migration (6.12)") \
	F(RUN_TO_PARITY,          0, 0, 1, 1, SF(0,0,1,1), "EEVDF: curr keeps the CPU until its deadline (6.6+); 6.17+: or the shortest queued slice") \
	F(PROTECT_VPROT,          0, 0, 0, 1, NOSF, "slice protection is se->vprot, ends at min(deadline, shortest queued slice); update_protect_slice() on a non-preempting shorter-slice wakeup; check_preempt uses __pick_eevdf(!preempt_short) (6.17 Guittot 'Limit run to parity to the min slice'; 6.18.26 fair.c)") \
	F(RESCHED_UNPROTECTED,    0, 0, 0, 1, NOSF, "update_curr() reschedules once curr's protection ended, eligible or not (6.17 'resched || !protect_slice(curr)'; 6.12: only PREEMPT_SHORT + ineligible)") \
	F(WAKEUP_PICK_NEXT,       0, 0, 0, 1, NOSF, "wakeup preemption: no preemption by a forked wakee or one still delayed at the check (unless its slice is shorter), the decision is pick_next_entity() (next buddy first, a delayed winner dequeued and the pick repeated), a pick that does not give the wakee shrinks curr's protection (6.18.33 stable: e837456fdca8 'Reimplement NEXT_BUDDY to align with EEVDF goals' + 'Revert force wakeup preemption' + 'Fix wakeup_preempt_fair() vs delayed dequeue'; 6.18.35 fair.c; the capture kernel is 6.18.44)") \
	F(REWEIGHT_PLACE,         0, 0, 0, 1, NOSF, "reweight_entity() keeps the lag (update_entity_lag) and relative deadline and re-places the entity with place_entity() (6.18.26 fair.c; 6.12: reweight_eevdf() arithmetic)") \
	F(LAG_CLAMP_MAX_SLICE,    0, 0, 0, 1, NOSF, "lag clamp = longest queued slice + TICK_NSEC (6e3c0a4e1ad1 'sched/fair: Fix lag clamp', mainline 2026, in 6.18-stable by April 2026; 6.12.117 and 6.18.0: max(2 slices, tick))") \
	F(PREEMPT_SHORT,          0, 0, 1, 1, SF(0,0,1,1), "EEVDF: shorter slices may preempt (6.12)") \
	F(PICK_BUDDY,             0, 0, 1, 1, SF(0,0,1,1), "EEVDF: pick cfs_rq->next if eligible (6.12)") \
	F(DELAY_DEQUEUE,          0, 0, 1, 1, SF(0,0,1,1), "EEVDF: sleepers with negative lag stay queued (6.12)") \
	F(DELAY_ZERO,             0, 0, 1, 1, SF(0,0,1,1), "EEVDF: clip lag of delayed sleepers to 0 (6.12)") \
	F(ZERO_VRUNTIME,          0, 0, 1, 1, NOSF, "avg_vruntime() recentres zero_vruntime (79f3f9bedd14, 6.19, in 6.12.117)") \
	F(RUNNABLE_EXCL_DELAYED,  0, 0, 1, 1, NOSF, "PELT runnable excludes delayed tasks (h_nr_delayed 6.13, in 6.12.117)") \
	F(TASK_BASED_THROTTLE,    0, 0, 0, 1, NOSF, "CFS bandwidth: throttle_cfs_rq() only marks the queue, a task of a throttled hierarchy leaves for the queue's throttled_limbo_list on its return to user space, unthrottling re-enqueues the tasks (Aaron Lu's 'task based throttle' series, v6.18; 6.18.35 fair.c); before: throttle_cfs_rq() dequeues the queue's group entity (and its emptied ancestors) and unthrottle_cfs_rq() enqueues it again (6.1.192, 6.12.117 fair.c)") \
	F(THROTTLED_TIME_NONEMPTY, 0, 1, 1, 1, NOSF, "cpu.stat throttled time only runs while the throttled queue has entities (throttled_clock set only if nr_running, and at the first enqueue of a throttled queue: 'sched: don't account throttle time for empty groups', between 6.1 and 6.12 (v6.5-rc1 per the series, not verified here), read in 6.12.117 fair.c; 6.1.192: from the throttle on)") \
	F(START_DEBIT,            1, 1, 0, 0, SF(1,1,0,0), "CFS: a forked task starts one vslice late (features.h <= 6.5)") \
	F(GENTLE_FAIR_SLEEPERS,   1, 1, 0, 0, SF(1,1,0,0), "CFS: sleeper credit is half a latency (features.h <= 6.5)") \
	F(LAST_BUDDY,             1, 1, 0, 0, SF(1,1,0,0), "CFS: preempted task is the last buddy (features.h <= 6.5)") \
	F(NEXT_BUDDY,             0, 0, 0, 0, SF(1,1,1,1), "off (features.h <= 6.18; capture machine's sched_features bit 5 = 0: 'Enable scheduler feature NEXT_BUDDY' (6.19) is not in 6.18.y, so the 6.18.33 rework's set_preempt_buddy()/preempt_sync() do not run)") \
	F(CLOCK_SKIP_UPDATE,      1, 1, 1, 1, NOSF, "a preempting wakeup sets RQCF_REQ_SKIP: the next __schedule() keeps the wakeup's rq clock, prev gets no sched_stat_runtime and next is charged the gap (check_preempt_curr/wakeup_preempt, all versions)") \
	F(WAKEUP_PREEMPTION,      1, 1, 1, 1, SF(1,1,1,1), "wakeups may preempt (features.h)") \
	F(CACHE_HOT_BUDDY,        1, 1, 1, 1, SF(1,1,1,1), "the next buddy is cache hot for the balancer when the destination is busy (task_hot(), features.h)") \
	F(ATTACH_AGE_LOAD,        1, 1, 1, 1, SF(1,1,1,1), "attach_entity_cfs_rq ages the entity first (features.h)") \
	F(SIS_UTIL,               1, 1, 1, 1, SF(1,1,1,1), "select_idle_cpu() scans at most sd_llc_shared->nr_idle_scan CPUs, set by periodic balancing from the LLC's utilisation (70fb5ccf2ebb, 6.0; capture machine's sched_features bit 15 = 1)") \
	F(NI_RANDOM,              1, 0, 1, 1, SF(1,0,1,1), "proportional newidle (33cf66d88306, 6.19; backported to 6.1.192, 6.12.117)") \
	F(TG_CONTRIB_NOT_DECAYED, 0, 0, 1, 1, NOSF, "cfs_rq_is_decayed() checks tg_load_avg_contrib (ca125231dd29, Dec 2025)") \
	F(CFS_GROUP_ALWAYS_REWEIGHT, 1, 1, 0, 0, NOSF, "update_cfs_group() reweights even if unchanged (<= 6.5)") \
	F(CFS_GROUP_KEEP_EMPTY,   0, 0, 1, 1, NOSF, "update_cfs_group() keeps an emptied group's weight (6.12, DELAY_DEQUEUE)") \
	F(REWEIGHT_UPDATE_CURR_ALWAYS, 0, 0, 1, 1, NOSF, "reweight_entity() update_curr() even for a non-curr se (6.12)") \
	F(POST_INIT_UTIL_FULL_WEIGHT, 1, 1, 0, 0, NOSF, "post_init_entity_util_avg() multiplies by se->load.weight (6.1 source)") \
	F(STAT_RUNTIME_OTHER_CLASS, 0, 0, 1, 1, NOSF, "RT/DL tasks emit sched_stat_runtime too (5d69eca542ee, 6.8)") \
	F(LB_SIBLING_IMBALANCE,   0, 0, 1, 1, NOSF, "load balance: sibling_imbalance() spreads tasks by group cores, 0 for a busy dst CPU (v6.6 'Implement prefer sibling imbalance calculation between asymmetric groups'; 6.1: busiest - local nr_running)") \
	F(LB_FULLY_BUSY_LAST,     0, 1, 1, 1, NOSF, "update_sd_pick_busiest(): of equal fully-busy groups the later one examined stays busiest (5fd6d7f43958 'Keep a fully_busy SMT sched group as busiest', v6.5-rc1; 6.1: the first)") \
	F(LB_PREFER_SIBLING_BUSIEST, 0, 1, 1, 1, NOSF, "prefer_sibling is the busiest group's SD_PREFER_SIBLING: every node group at the NUMA level, a one-CPU node too (43726bdedd29, v6.5-rc1; 6.1: the balancing domain's child, i.e. the local node has an MC domain)") \
	F(LB_UTIL_BOOST,          0, 1, 1, 1, NOSF, "load balance: migrate_util picks the CPU with the highest max(util_avg, runnable_avg) (cpu_util_cfs_boost(), 7d0583cf9ec7 runnable boosting, v6.5)") \
	F(LB_RUNNABLE_COUNTS,     0, 0, 0, 1, NOSF, "load balance counts h_nr_runnable (delayed tasks excluded) for busiest group/queue (1a49104496d3, v6.14; 6.12.117: h_nr_queued)") \
	F(LB_DELAYED_LOAD_ONLY,   0, 0, 0, 1, NOSF, "can_migrate_task(): a delayed (DELAY_DEQUEUE) task moves only under migrate_load (61b82dfb6b7e, v6.14; 6.12.117 moves it like any task)") \
	F(LB_INELIGIBLE_SOFT_LIMIT, 0, 0, 0, 1, NOSF, "can_migrate_task(): a task not eligible on its queue does not move to a CPU with queued tasks of its group until the domain failed a balance (873199d27bb2 'Prioritize migrating eligible tasks in sched_balance_rq()'; 6.18.35 fair.c)")

#define MODEL_PROFILE_TUNABLES(T)                                                  \
	T(base_slice_ns,         "ns", 0, 0, 700000, 700000, "normalized; EEVDF 0.70 ms since 2ae891b82695 (6.15, in 6.12.117)") \
	T(sched_latency_ns,      "ns", 6000000, 6000000, 0, 0, "normalized; CFS targeted latency 6 ms") \
	T(min_granularity_ns,    "ns", 750000, 750000, 0, 0, "normalized; CFS minimum slice 0.75 ms") \
	T(wakeup_granularity_ns, "ns", 1000000, 1000000, 0, 0, "normalized; CFS wakeup preemption granularity 1 ms") \
	T(idle_min_granularity_ns, "ns", 750000, 750000, 0, 0, "CFS minimum slice of SCHED_IDLE entities (not scaled)") \
	T(sched_nr_latency,      "",   8, 8, 0, 0, "CFS: tasks per latency period before it stretches") \
	T(migration_cost_ns,     "ns", 500000, 500000, 500000, 500000, "sysctl_sched_migration_cost (not scaled)") \
	T(tg_load_avg_ratelimit_ns, "ns", 0, 0, 1000000, 1000000, "update_tg_load_avg() at most once per ms (1528c661c24b, v6.7)") \
	T(nohz_blocked_period_ms, "ms", 32, 32, 32, 32, "nohz.next_blocked = now + LOAD_AVG_PERIOD ms") \
	T(sd_busy_factor,        "",   16, 16, 16, 16, "sched_domain busy_factor: busy CPUs balance 16x less often") \
	T(newidle_domain_cost_ns, "ns", 3000, 3000, 3000, 3000, "MODEL ESTIMATE: cost of one newidle sched_balance_rq (not in sched events)") \
	T(blocked_cost_per_cfs_rq_ns, "ns", 150, 150, 150, 150, "MODEL ESTIMATE: update_blocked_averages cost per leaf cfs_rq")

/*
 * Kernel function names by profile: the functions the kernel renamed, each
 * under the model's counter name (the report name, the sidecar's key) with
 * its name in each column's kernel, for the outputs that name the traced
 * kernel's function (replay's function counts).  Names, not settings: no
 * --settings line, no JSON setting; model_profile_func_name() reads them.
 *
 * PROFILE_FUNC(counter, 6.1, 6.5, 6.12, 6.18, reason)
 */
#define MODEL_PROFILE_FUNC_NAMES(N)                                                \
	N(update_blocked_averages, "update_blocked_averages", "update_blocked_averages", \
	  "sched_balance_update_blocked_averages", "sched_balance_update_blocked_averages", \
	  "renamed in v6.10 by the sched/balance renames (Ingo Molnar, March 2024)") \
	N(newidle_balance, "newidle_balance", "newidle_balance", \
	  "sched_balance_newidle", "sched_balance_newidle", \
	  "renamed in v6.10 by the sched/balance renames (Ingo Molnar, March 2024)")
