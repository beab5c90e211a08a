#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mutation testing of the model library and the latency statistics.

Does the test suite catch wrong arithmetic?  This driver applies ONE small
bug at a time to a source file of the working tree, rebuilds incrementally,
runs a fast subset of the ctest suite and records whether a test failed
(the mutant is "killed"), all passed ("survived") or the mutant did not
build ("no-build").  The file is always restored (try/finally and signal
handlers write the original bytes back), so `git diff --stat` is clean
afterwards.

Mutation operators (on the code of the selected functions only; comments,
strings and preprocessor lines are left alone):
  rel     <  <=  >  >=  ==  !=   each to its neighbour (< to <=, == to !=, ...)
  logic   && to ||, || to &&;  a negation `!x` dropped
  arith   binary + to -, - to +, += to -=, -= to +=, a * b to a / b, / to *
  shift   << to >>, >> to <<
  neg     a unary minus dropped
  const   an integer literal N to N+1 and N-1 (shift counts included)
  drop    a one-line statement (an assignment or a call such as update_*())
          replaced by {}
  minmax  max_u64(a, b) / min_u64() / max_u32_clamp() / labs() replaced by
          one of its arguments (the clamp dropped)
  swap    two adjacent arguments of a call exchanged
  flag    (data regions: the variants table) a flag dropped from an OR

Sites are given as PATH:FUNC[,FUNC...] (the bodies of those functions) or
PATH@FIRST-LAST (a line range, for data such as the variants table).
Candidates are enumerated per site group, then `--sample N` picks N per
group with a fixed --seed (reproducible); `--only-groups` runs some of the
plan's groups.  `--list` prints the candidates
without building; `--self-check` tests the operators on a built-in snippet
(no build, no files touched: this is what ctest runs).

Typical run (a build directory of its own, configured WITHOUT -Werror so a
mutant that only draws a warning still counts; pointer and int-conversion
warnings stay errors):

  cmake -S . -B /tmp/mb -DSCHEDREPLAY_WERROR=OFF \\
      "-DCMAKE_C_FLAGS=-Werror=incompatible-pointer-types -Werror=int-conversion" \\
      -DSCHEDREPLAY_VECTORS_DIR=/path/to/shared/vectors && cmake --build /tmp/mb -j2
  nice -n 10 tests/model/mutate.py --build /tmp/mb --plan default --seed 35 \\
      --json /tmp/mut.jsonl
  (mut36's sample of balance.c, balance_rq.c, fair.c, core.c, bandwidth.c,
  cfs.c and timeline.c: --seed 36 --only-groups
  balance,fair_core,bandwidth,cfs_timeline)

Each mutant: ~8 s to rebuild, ~10 s of tests (stopped at the first failure).
`--report FILE.jsonl` summarises a results file per file and status.
"""
import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

# The fast subset: model unit tests (with the 6.12 reference vectors), the
# replay's simulation tests, validate, the report's statistics, latency and
# golden tests, the variant tests that run the model.
DEFAULT_TESTS = (r"^(model_.*|replay_workload|replay_sim|replay_determinism_trace|"
                 r"replay_validate|report_stats|report_latency|report_golden_.*|"
                 r"variants_model|variants_catalog|variants_costmodel|variants_acceptance|"
                 r"variants_cli_replay)$")

# The default plan: site groups and how many mutants each gets with --sample.
DEFAULT_PLAN = [
    ("pelt", ["model/pelt.c:decay_load,__accumulate_pelt_segments,accumulate_sum,"
              "___update_load_sum,get_pelt_divider,___update_load_avg_div"], 20),
    ("calc_delta", ["model/weights.c:fls32,__update_inv_weight,__calc_delta,calc_delta_fair"], 14),
    ("eevdf", ["model/eevdf.c:avg_vruntime_add,avg_vruntime_sub,update_zero_vruntime,"
               "avg_vruntime,entity_lag_bound,entity_lag,vruntime_eligible,place_lag,"
               "place_entity_eevdf,reweight_eevdf,update_deadline,__pick_eevdf,"
               "set_protect_slice,cfs_rq_min_slice,cfs_rq_max_slice"], 26),
    ("tg", ["model/tg.c:update_tg_load_avg,calc_group_shares,update_cfs_group,"
            "reweight_entity,tg_load_avg_read",
            "model/load_avg.c:update_cfs_rq_load_avg,update_tg_cfs_util,"
            "update_tg_cfs_runnable,update_tg_cfs_load,propagate_entity_load_avg,"
            "attach_entity_load_avg,detach_entity_load_avg,dequeue_load_avg,"
            "enqueue_load_avg,update_load_avg,remove_entity_load_avg,"
            "__update_load_avg_cfs_rq,__update_load_avg_se,add_tg_cfs_propagate"], 26),
    ("variants", ["model/variants.c@19-178",
                  "model/variants.c:model_variant_set_flags,model_variant_find",
                  "model/tg.c:cfs_group_site_removed,cfs_group_site_skipped"], 12),
    ("stats", ["replay/stats.c:rank_of,sr_hist_percentiles,sr_hist_bucket_value,bounds,"
               "sr_percentile_sorted,sr_hist_merge,sr_seeds_rank",
               "replay/latency.c:emit,flush_provisional"], 22),
    # mut36: the model files mut35 did not sample (kernel logic only: the
    # topology builder, the capture kernel's vcpu packing, setup, printing
    # and getters left out).  Sizes as run on 4 Dec 2026 (57); a larger
    # --groups NAME=N draws a superset of the same sample (random.sample()
    # of a fixed seed picks the same first elements).
    ("balance", ["model/balance.c:list_add_leaf_cfs_rq,list_del_leaf_cfs_rq,set_imb_numa_nr,"
                 "time_after,time_after_eq,max_load_balance_interval,get_sd_balance_interval,"
                 "update_next_balance,ttwu_update_avg_idle,cfs_rq_is_decayed,"
                 "__update_blocked_fair,update_blocked_averages,update_newidle_stats,"
                 "update_newidle_cost,_nohz_idle_balance,nohz_newidle_balance,"
                 "sched_balance_newidle,sched_balance_domains,update_nohz_stats,"
                 "nohz_balance_enter_idle,nohz_balance_exit_idle,llc_nr_busy_cpus,"
                 "nohz_balancer_kick,sched_balance_trigger,available_idle_cpu,record_wakee,"
                 "wake_wide,wake_affine,select_idle_cpu,select_idle_sibling,lsub_positive,"
                 "update_sg_wakeup_stats,update_pick_idlest,find_dst_group,"
                 "find_dst_group_cpu,find_idlest_cpu,model_select_task_rq",
                 "model/balance_rq.c:task_hot,update_cfs_rq_h_load,task_h_load,"
                 "task_is_ineligible_on_dst_cpu,can_migrate_task,shr_bound,attach_task,"
                 "detach_attach_tasks,should_we_balance,cpu_util_cfs_boost,sg_imbalanced,"
                 "group_classify,update_sg_lb_stats,update_sd_pick_busiest,"
                 "update_idle_cpu_scan,update_sd_lb_stats,prefer_sibling,sibling_imbalance,"
                 "adjust_numa_imbalance,calculate_imbalance,sched_balance_find_src_group,"
                 "sched_balance_find_src_rq,need_active_balance,detach_one_task,"
                 "active_load_balance_cpu_stop,sched_balance_rq"], 15),
    ("fair_core", ["model/fair.c:update_curr,set_next_buddy,clear_buddies,yield_task_fair,"
                   "yield_to_task_fair,init_entity_runnable_average,post_init_entity_util_avg,"
                   "task_fork_fair,account_entity_enqueue,account_entity_dequeue,"
                   "place_initial_lag,place_entity,enqueue_first_entity,enqueue_entity_eevdf,"
                   "enqueue_entity_cfs,stops_at_throttled,set_delayed,clear_delayed,"
                   "requeue_delayed_entity,enqueue_task_fair,finish_delayed_dequeue_entity,"
                   "dequeue_entity_eevdf,dequeue_entity_cfs,dequeue_entities,"
                   "dequeue_task_fair,set_next_entity,put_prev_entity,pick_next_entity,"
                   "pick_task_fair,set_next_task_fair,pick_next_task_fair,entity_tick,"
                   "task_tick_fair,find_matching_se,se_is_idle,do_preempt_short,"
                   "preempt_wakeup_pick,check_preempt_wakeup_fair,migrate_task_rq_fair,"
                   "task_dead_fair,task_change_group_fair,reweight_task_fair",
                   "model/core.c:update_rq_clock,add_nr_running,sub_nr_running,set_task_rq,"
                   "set_task_cpu,activate_task,deactivate_task,wakeup_preempt,"
                   "model_group_set_shares,model_wake_up_new_task,"
                   "model_finish_delayed_dequeue,model_try_to_wake_up,model_schedule,"
                   "hand_over_possible,model_yield_to,preempt_for,model_charge_curr,"
                   "model_tick,model_other_class,model_migrate_task,model_migrate_tasks,"
                   "sched_move_task,model_task_exit_move,model_task_set_nice"], 15),
    ("bandwidth", ["model/bandwidth.c:sched_cfs_bandwidth_slice,init_cfs_bandwidth,"
                   "hrtimer_forward,start_cfs_bandwidth,__refill_cfs_bandwidth_runtime,"
                   "__assign_cfs_rq_runtime,__account_cfs_rq_runtime,walk_tg_tree_from,"
                   "tg_throttle_down_pre618,tg_throttle_down,record_throttle_clock,"
                   "throttled_cfs_rq_emptied,throttled_cfs_rq_filled,h_nr_sub,h_nr_add,"
                   "throttle_cfs_rq_pre618,throttle_cfs_rq,check_enqueue_throttle,"
                   "throttle_cfs_rq_work,dequeue_throttled_task,enqueue_throttled_task,"
                   "tg_unthrottle_up,unthrottle_cfs_rq_pre618,unthrottle_cfs_rq,"
                   "distribute_cfs_runtime,do_sched_cfs_period_timer,sched_cfs_period_timer,"
                   "runtime_refresh_within,start_cfs_slack_bandwidth,"
                   "__return_cfs_rq_runtime,do_sched_cfs_slack_timer,bw_timer_min,"
                   "model_run_timers,model_group_set_bandwidth"], 15),
    ("cfs_timeline", ["model/cfs.c:update_min_vruntime_eevdf,update_min_vruntime,"
                      "__sched_period,sched_slice,entity_is_long_sleeper,place_entity_cfs,"
                      "check_preempt_tick,wakeup_preempt_entity,pick_next_entity_cfs,"
                      "set_last_buddy,check_preempt_wakeup_cfs,set_preempt_buddies_cfs",
                      "model/timeline.c:tl_less,tl_update,tl_split,tl_merge,tl_insert,"
                      "tl_erase,__enqueue_entity,__dequeue_entity,__restore_entity,"
                      "__pick_first_entity,__pick_next_entity,tl_propagate,"
                      "min_vruntime_cb_propagate,tl_walk"], 12),
]

KEYWORDS = {"return", "case", "sizeof", "else", "do"}
TYPE_WORDS = {"u64", "s64", "u32", "s32", "int", "long", "unsigned", "struct", "const",
              "bool", "uint64_t", "int64_t", "uint32_t", "uint16_t", "size_t", "double",
              "char", "static", "enum", "float", "long double"}
CLAMP_CALLS = {"max_u64", "min_u64", "max_u32_clamp", "labs", "max", "min", "clamp",
               "max_t", "min_t"}
SKIP_DROP = re.compile(r"^\s*((?:BW_)?COUNT\s*\(|m->counters\[|return\b|break\b|continue\b|goto\b|"
                       r"sr_error_set\b|free\s*\()")


def mask(text):
    """Comments, string/char literals and preprocessor lines blanked (offsets kept)."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            i += 1
            continue
        if line_start and c == "#":
            # a preprocessor line (with continuations)
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out[i] = " "
                    i += 2
                    continue
                out[i] = " "
                i += 1
            continue
        line_start = False
        if c == "\n":
            line_start = True
            i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


def match_close(s, i, open_c, close_c):
    """Index of the bracket closing the one at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == open_c:
            depth += 1
        elif s[j] == close_c:
            depth -= 1
            if depth == 0:
                return j
    return -1


def function_body(masked, name):
    """(start, end) offsets of the body (inside the braces) of the definition of @name."""
    for mt in re.finditer(r"\b%s\s*\(" % re.escape(name), masked):
        bol = masked.rfind("\n", 0, mt.start()) + 1
        head = masked[bol:mt.start()]
        # a definition starts at column 0: "type name(" or "name(" under its type
        if head[:1] in (" ", "\t") or re.search(r"[;{}=,(]", head):
            continue
        q = match_close(masked, mt.end() - 1, "(", ")")
        k = q + 1
        while k < len(masked) and masked[k] in " \t\n":
            k += 1
        if q > 0 and k < len(masked) and masked[k] == "{":
            return k + 1, match_close(masked, k, "{", "}")
    raise SystemExit("mutate.py: no definition of %s" % name)


def line_range(text, first, last):
    starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
    return starts[first - 1], starts[last] if last < len(starts) else len(text)


TOKEN = re.compile(r"0[xX][0-9a-fA-F]+[uUlL]*|\b\d+[uUlL]*\b|<<=|>>=|<<|>>|<=|>=|==|!=|&&|"
                   r"\|\||\+\+|--|->|\+=|-=|\*=|/=|[<>+\-*/!]")
REL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}


def prev_token(masked, i):
    j = i - 1
    while j >= 0 and masked[j] in " \t\n":
        j -= 1
    if j < 0:
        return ""
    if masked[j].isalnum() or masked[j] == "_":
        k = j
        while k >= 0 and (masked[k].isalnum() or masked[k] == "_"):
            k -= 1
        return masked[k + 1:j + 1]
    return masked[j]


def is_operand_end(tok):
    return tok != "" and (tok in (")", "]") or (tok[0].isalnum() or tok[0] == "_")) \
        and tok not in KEYWORDS


def call_args(masked, open_paren):
    """[(start, end)] of the top-level arguments of the call whose '(' is at open_paren."""
    close = match_close(masked, open_paren, "(", ")")
    args, depth, s = [], 0, open_paren + 1
    for j in range(open_paren + 1, close):
        c = masked[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            args.append((s, j))
            s = j + 1
    args.append((s, close))
    return close, [(a + len(masked[a:b]) - len(masked[a:b].lstrip()),
                    b - (len(masked[a:b]) - len(masked[a:b].rstrip()))) for a, b in args]


def candidates_in(path, text, masked, lo, hi, data=False):
    """Every mutant of text[lo:hi]: dicts with offset, old, new, op."""
    out = []

    def add(op, start, end, new):
        old = text[start:end]
        if old != new:
            out.append({"file": path, "start": start, "end": end, "old": old, "new": new,
                        "op": op})

    if data:
        # flags ORed in an initialiser: drop one of them
        for mt in re.finditer(r"\bMODEL_V_\w+|\bV_SKIP\b", masked[lo:hi]):
            s, e = lo + mt.start(), lo + mt.end()
            before = masked[:s].rstrip()
            after = masked[e:].lstrip()
            if before.endswith("|"):
                add("flag", len(before) - 1, e, "")
            elif after.startswith("|"):
                add("flag", s, e + (len(masked[e:]) - len(after)) + 1, "")
            elif before.endswith("="):
                add("flag", s, e, "0")
        for mt in re.finditer(r"\b\d+\b", masked[lo:hi]):
            s, e = lo + mt.start(), lo + mt.end()
            v = int(text[s:e])
            add("const", s, e, str(v + 1))
            if v > 0:
                add("const", s, e, str(v - 1))
        return out

    for mt in TOKEN.finditer(masked, lo, hi):
        tok, s, e = mt.group(0), mt.start(), mt.end()
        if tok[0].isdigit():
            num = re.match(r"(0[xX][0-9a-fA-F]+|\d+)(.*)", tok)
            v = int(num.group(1), 0)
            suf = num.group(2)
            add("const", s, e, "%d%s" % (v + 1, suf))
            if v > 0:
                add("const", s, e, "%d%s" % (v - 1, suf))
        elif tok in REL:
            if tok in ("<", ">") and masked[e:e + 1] in ("<", ">"):
                continue
            add("rel", s, e, REL[tok])
        elif tok == "&&":
            add("logic", s, e, "||")
        elif tok == "||":
            add("logic", s, e, "&&")
        elif tok == "!":
            if re.match(r"[A-Za-z_(]", masked[e:e + 1]):
                add("logic", s, e, "")
        elif tok in ("<<", ">>"):
            add("shift", s, e, ">>" if tok == "<<" else "<<")
        elif tok in ("<<=", ">>="):
            add("shift", s, e, ">>=" if tok == "<<=" else "<<=")
        elif tok in ("+=", "-="):
            add("arith", s, e, "-=" if tok == "+=" else "+=")
        elif tok in ("*=", "/="):
            add("arith", s, e, "/=" if tok == "*=" else "*=")
        elif tok in ("+", "-"):
            if is_operand_end(prev_token(masked, s)):
                add("arith", s, e, "-" if tok == "+" else "+")
            elif tok == "-" and re.match(r"[A-Za-z_(]", masked[e:e + 1]):
                add("neg", s, e, "")
        elif tok == "*":
            if masked[s - 1:s] == " " and masked[e:e + 1] == " " and \
               is_operand_end(prev_token(masked, s)):
                add("arith", s, e, "/")
        elif tok == "/":
            if is_operand_end(prev_token(masked, s)):
                add("arith", s, e, "*")

    # calls: clamps dropped, adjacent arguments swapped
    for mt in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", masked[lo:hi]):
        name = mt.group(1)
        if name in KEYWORDS or name in ("if", "while", "for", "switch", "COUNT",
                                        "sched_feat", "vflag", "sizeof"):
            continue
        s = lo + mt.start()
        op_paren = lo + mt.end() - 1
        close, args = call_args(masked, op_paren)
        if close < 0 or close > hi or (len(args) == 1 and args[0][0] >= args[0][1]):
            continue
        if name in CLAMP_CALLS:
            for a, b in args:
                add("minmax", s, close + 1, "(" + text[a:b] + ")")
            continue
        for k in range(len(args) - 1):
            (a1, b1), (a2, b2) = args[k], args[k + 1]
            x, y = text[a1:b1], text[a2:b2]
            if x == y or x in ("m", "cfs_rq", "se") or y in ("m", "cfs_rq", "se") or \
               x.startswith("&") != y.startswith("&"):
                continue
            out.append({"file": path, "start": a1, "end": b2,
                        "old": text[a1:b2], "new": y + text[b1:a2] + x, "op": "swap"})

    # one-line statements dropped
    pos = lo
    for line in masked[lo:hi].split("\n"):
        ls, le = pos, pos + len(line)
        pos = le + 1
        st = line.strip()
        if not st.endswith(";") or SKIP_DROP.match(line) or st.count(";") != 1:
            continue
        first = re.match(r"[A-Za-z_]\w*", st)
        if not first or first.group(0) in TYPE_WORDS or first.group(0) in (
                "if", "for", "while", "else", "do", "switch", "case", "default"):
            continue
        if st.count("(") != st.count(")"):
            continue
        # the statement must start this line: the previous code ends a statement or a
        # condition
        prev = masked[:ls].rstrip()
        if prev and prev[-1] not in ";{})" and not prev.endswith("else"):
            continue
        s = ls + (len(line) - len(line.lstrip()))
        add("drop", s, ls + len(line.rstrip()), "{}")
    return out


def enumerate_sites(root, sites):
    out = []
    cache = {}
    for site in sites:
        if "@" in site:
            path, rng = site.split("@")
            funcs = None
        else:
            path, fl = site.split(":")
            funcs = fl.split(",")
        if path not in cache:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                t = f.read()
            cache[path] = (t, mask(t))
        text, masked = cache[path]
        if funcs is None:
            a, b = (int(x) for x in rng.split("-"))
            lo, hi = line_range(text, a, b)
            out += candidates_in(path, text, masked, lo, hi, data=True)
        else:
            for fn in funcs:
                lo, hi = function_body(masked, fn)
                for c in candidates_in(path, text, masked, lo, hi):
                    c["func"] = fn
                    out.append(c)
    for c in out:
        text = cache[c["file"]][0]
        c["line"] = text.count("\n", 0, c["start"]) + 1
        c["id"] = "%s:%d:%d:%s:%s" % (c["file"], c["line"],
                                     c["start"] - text.rfind("\n", 0, c["start"]),
                                     c["op"], c["new"][:24])
    # the same edit reached twice (a call within a call) counts once
    seen, uniq = set(), []
    for c in out:
        k = (c["file"], c["start"], c["end"], c["new"])
        if k not in seen:
            seen.add(k)
            uniq.append(c)
    return uniq


class Restorer:
    """Puts the original bytes of a mutated file back, whatever happens."""

    def __init__(self):
        self.path = None
        self.data = None
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, self._signal)

    def mutate(self, path, data, mutated):
        self.path, self.data = path, data
        with open(path, "wb") as f:
            f.write(mutated)

    def restore(self):
        if self.path is not None:
            with open(self.path, "wb") as f:
                f.write(self.data)
            self.path = None

    def _signal(self, signum, frame):
        self.restore()
        sys.exit(128 + signum)


def test_targets(build, regex):
    """The tests of @regex and the build targets their commands run."""
    js = json.loads(subprocess.run(["ctest", "--show-only=json-v1", "-R", regex], cwd=build,
                                   check=True, capture_output=True, text=True).stdout)
    targets, names = set(), []
    for t in js["tests"]:
        names.append(t["name"])
        for w in t.get("command", []):
            w = w.split("=", 1)[-1]
            if w.startswith(os.path.abspath(build) + "/"):
                base = os.path.basename(w)
                if not base.endswith(".so"):
                    targets.add(base)
    return names, sorted(targets)


def run_one(args, root, c, targets, restorer):
    path = os.path.join(root, c["file"])
    with open(path, "rb") as f:
        data = f.read()
    text = data.decode("utf-8")
    if text[c["start"]:c["end"]] != c["old"]:
        raise SystemExit("mutate.py: %s changed since enumeration" % c["file"])
    mutated = (text[:c["start"]] + c["new"] + text[c["end"]:]).encode("utf-8")
    t0 = time.time()
    res = dict(c)
    try:
        restorer.mutate(path, data, mutated)
        b = subprocess.run(["nice", "-n", "10", "cmake", "--build", args.build, "-j",
                            str(args.jobs), "--target"] + targets,
                           capture_output=True, text=True)
        if b.returncode:
            res["status"] = "no-build"
            err = [ln for ln in b.stdout.splitlines() + b.stderr.splitlines() if "error" in ln]
            res["detail"] = err[0][:200] if err else ""
        else:
            r = subprocess.run(["nice", "-n", "10", "ctest", "-j", str(args.jobs),
                                "--stop-on-failure", "--timeout", str(args.timeout),
                                "-R", args.tests], cwd=args.build,
                               capture_output=True, text=True)
            failed = re.findall(r"\d+ - (\S+) \((Failed|Timeout|SEGFAULT|Subprocess aborted|"
                                r"[^)]*)\)", r.stdout)
            if r.returncode:
                res["status"] = "killed"
                res["detail"] = " ".join(n for n, _ in failed)[:300] or r.stdout[-200:]
            else:
                res["status"] = "survived"
    finally:
        restorer.restore()
    res["seconds"] = round(time.time() - t0, 1)
    return res


def report(path):
    rows = [json.loads(x) for x in open(path, encoding="utf-8") if x.strip()]
    per = {}
    for r in rows:
        per.setdefault(r["file"], {}).setdefault(r["status"], 0)
        per[r["file"]][r["status"]] += 1
    print("%-22s %6s %7s %8s %8s" % ("file", "run", "killed", "survived", "no-build"))
    tot = {}
    for f in sorted(per):
        p = per[f]
        print("%-22s %6d %7d %8d %8d" % (f, sum(p.values()), p.get("killed", 0),
                                         p.get("survived", 0), p.get("no-build", 0)))
        for k, v in p.items():
            tot[k] = tot.get(k, 0) + v
    print("%-22s %6d %7d %8d %8d" % ("total", sum(tot.values()), tot.get("killed", 0),
                                     tot.get("survived", 0), tot.get("no-build", 0)))
    for r in rows:
        if r["status"] == "survived":
            print("survived: %s  %r -> %r" % (r["id"], r["old"], r["new"]))


SELF_SNIPPET = """\
#include <x.h>
/* a comment: a < b + 1 */
static int f(int a, int b)
{
	a += 2;	// a - 1
	g(a, b);
	if (!a && b <= 3)
		b = max_u64(a, b) - a;
	return a << 1 > "x<y"[0];
}
"""


def self_check():
    masked = mask(SELF_SNIPPET)
    lo, hi = function_body(masked, "f")
    got = {(c["op"], c["old"], c["new"]) for c in
           candidates_in("s.c", SELF_SNIPPET, masked, lo, hi)}
    want = {("arith", "+=", "-="), ("const", "2", "3"), ("const", "2", "1"),
            ("swap", "a, b", "b, a"), ("logic", "!", ""), ("logic", "&&", "||"),
            ("rel", "<=", "<"), ("const", "3", "4"), ("const", "3", "2"), ("minmax", "max_u64(a, b)", "(a)"),
            ("minmax", "max_u64(a, b)", "(b)"), ("arith", "-", "+"), ("shift", "<<", ">>"),
            ("const", "1", "2"), ("const", "1", "0"), ("rel", ">", ">="),
            ("const", "0", "1"), ("drop", "a += 2;", "{}"), ("drop", "g(a, b);", "{}"),
            ("drop", "b = max_u64(a, b) - a;", "{}")}
    bad = (got - want) | (want - got)
    for x in sorted(bad):
        print("self-check: %s %r" % ("unexpected" if x in got else "missing", x))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", default=os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))), help="source tree (default: this one)")
    ap.add_argument("--build", help="build directory (its own: mutants rebuild it)")
    ap.add_argument("--tests", default=DEFAULT_TESTS, help="ctest -R regex of the subset")
    ap.add_argument("--site", action="append", default=[],
                    help="PATH:FUNC[,FUNC] or PATH@FIRST-LAST (instead of --plan)")
    ap.add_argument("--plan", choices=["default"], help="the default site groups")
    ap.add_argument("--sample", type=int, default=0,
                    help="mutants per group (plan: its own figures when 0)")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--groups", default="",
                    help="NAME=N,...: another sample size for these plan groups")
    ap.add_argument("--only-groups", default="",
                    help="NAME,...: run only these plan groups (their own sample sizes)")
    ap.add_argument("--resume", action="store_true",
                    help="skip the mutants the --json file already holds")
    ap.add_argument("--only", action="append", default=[], help="run only these ids")
    ap.add_argument("--list", action="store_true", help="print the candidates and stop")
    ap.add_argument("--json", help="append one JSON line per mutant to this file")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60, help="per test, seconds")
    ap.add_argument("--self-check", action="store_true")
    ap.add_argument("--report", metavar="JSONL", help="summarise a results file")
    args = ap.parse_args()

    if args.self_check:
        return self_check()
    if args.report:
        report(args.report)
        return 0

    groups = []
    if args.plan:
        over = dict((k, int(v)) for k, v in (x.split("=") for x in args.groups.split(",") if x))
        only = [x for x in args.only_groups.split(",") if x]
        unknown = set(only) - {g for g, _, _ in DEFAULT_PLAN}
        if unknown:
            ap.error("no plan group %s" % ", ".join(sorted(unknown)))
        groups = [(g, s, over.get(g, args.sample or n)) for g, s, n in DEFAULT_PLAN
                  if not only or g in only]
    if args.site:
        groups.append(("sites", args.site, args.sample))
    if not groups:
        ap.error("--plan or --site needed")
    chosen = []
    for name, sites, n in groups:
        cands = enumerate_sites(args.src, sites)
        rng = random.Random("%d:%s" % (args.seed, name))
        pick = cands if not n or n >= len(cands) else rng.sample(cands, n)
        pick.sort(key=lambda c: (c["file"], c["start"]))
        for c in pick:
            c["group"] = name
        chosen += pick
        print("group %-10s %4d candidates, %d chosen" % (name, len(cands), len(pick)),
              file=sys.stderr)
    if args.only:
        chosen = [c for c in chosen if c["id"] in args.only] or \
            [c for c in enumerate_sites(args.src, [s for _, ss, _ in groups for s in ss])
             if c["id"] in args.only]
    if args.resume and args.json and os.path.exists(args.json):
        done = {json.loads(x)["id"] for x in open(args.json, encoding="utf-8") if x.strip()}
        chosen = [c for c in chosen if c["id"] not in done]
    if args.list:
        for c in chosen:
            print("%s  %r -> %r" % (c["id"], c["old"], c["new"]))
        return 0
    if not args.build:
        ap.error("--build needed to run mutants")

    names, targets = test_targets(args.build, args.tests)
    print("%d tests, targets: %s" % (len(names), " ".join(targets)), file=sys.stderr)
    restorer = Restorer()
    out = open(args.json, "a", encoding="utf-8") if args.json else None
    counts = {}
    try:
        for i, c in enumerate(chosen):
            r = run_one(args, args.src, c, targets, restorer)
            counts[r["status"]] = counts.get(r["status"], 0) + 1
            print("[%d/%d] %-9s %5.1fs %s  %r -> %r  %s" % (
                i + 1, len(chosen), r["status"], r["seconds"], r["id"], r["old"], r["new"],
                r.get("detail", "")), flush=True)
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
    finally:
        restorer.restore()
        # the build matches the restored sources again
        subprocess.run(["nice", "-n", "10", "cmake", "--build", args.build, "-j",
                        str(args.jobs), "--target"] + targets, capture_output=True)
    print(" ".join("%s %d" % kv for kv in sorted(counts.items())), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
