#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""nice-mix's wakeup check at each local wake of probe-msg by a probe worker, on a weighted
EEVDF rebuild of the probe's and the hogs' queue per CPU (helper pw45, docs/validation-log.md
"nice-mix's extra worker preemptions").

Usage: nice_mix_eevdf.py T.rep|T.ev HOG_PIDS [OUT.json [OUT2.json]]
  T.rep: `trace-cmd report -t` (events sorted by time); T.ev: `replay --dump-events` named
  *.ev (read in file order: its sched_stat_runtime of the waker follows the sched_wakeup it precedes).
  HOG_PIDS: the shells' busy loops, e.g. 12521,12525 for nice-mix-run2.

The rebuild (weights from each switch's prio: 120 -> 1024, 125 -> 335, 130 -> 110; the
tasks named probe-* and the hogs; one queue per CPU): vruntime from sched_stat_runtime
(delta * 1024 / w), a new request (slice 1.4 ms, vslice = slice * 1024 / w) when it runs out;
placement with the lag inflated by (W + w) / W; the lag clamp (slice + tick); DELAY_DEQUEUE of an
ineligible sleeper and DELAY_ZERO at its dequeue; requeue of a delayed task at its sched_waking
(placed at V when its lag is positive); vprot = min(deadline, v + vslice) at each switch-in.
The decision after the wakee's placement: the worker protected and eligible keeps the CPU; else
the eligible entity with the earliest deadline (a delayed winner dequeued, the pick repeated);
"P" when that is msg.  Printed: (observed outcome, rebuilt decision, reason) counts and the
agreement; OUT.json the state per decision (the worker's eligibility, v - V at its weight, the
lag it was placed with, msg's).  On the trace it reproduces the kernel's outcome at 671 of
695 wakes (nice-mix-run2).
Also printed (helper lag45, "Where nice-mix's workers' extra positive lag comes from"): the rounds
(msg's wake of both workers), which worker ran first and which woke msg ("the replier"), each
worker's v - V and eligibility at its futex sleep and its next placed lag by its place in the round,
the placed lag of the first and second runner, and the wakes of msg split by the replier's place;
OUT2.json (a 4th argument) the rounds.  Analysis helper; ctest replay_join_reply reads its round
order line.
Also printed (helper mp45, "msg preempted by the first worker it wakes"): at each local wake of a
worker by probe-msg (msg current) the rebuilt check (msg eligible and protected keeps the CPU,
else the earliest eligible deadline; "wakee" when the worker wins) against the outcome (msg
switched out runnable before its next wake: "P"), by the wake's index in msg's run, with msg's
eligibility, protection, placed lag and v - V and the wakee's; and msg's runs by waker (a worker's
wake, or its timer's in a hog's context: "sh") with the lag it was placed with and its v - V at
its sleep.  Environment MSGWAKE_JSON=FILE writes those decisions, MSGCHAIN_JSON=FILE msg's runs
(waker, placed lag, v - V at the sleep, eligible, how placed, its switch-in, the queue then).
"""
import collections
import json
import os
import re
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sched_text as st
SW, WU = st.SWITCH_PRIO, st.WAKEUP_CPU
WK = re.compile(r'(?:comm=(\S+) pid=(\d+) prio=(\d+)|(\S.*?):(\d+) \[(\d+)\])')
RT = re.compile(r'comm=(\S+) pid=(\d+) runtime=(\d+)')
MG = re.compile(r'(?:comm=)?(\S+?)[: ](?:pid=)?(\d+)(?: prio=\d+)? orig_cpu=(\d+) dest_cpu=(\d+)')
W = {120: 1024, 125: 335, 130: 110}
SLICE, TICK = 1400000, 4000000
def cdiv(a, b):
    q = abs(a) // abs(b); return q if (a >= 0) == (b > 0) else -q
class E:
    def __init__(s, pid, w): s.plag, s.how = 0, 'new'; s.pid, s.w, s.v, s.d, s.vlag, s.rel, s.delayed, s.vprot = pid, w, 0, 0, 0, None, False, 0
    def vs(s, x): return x * 1024 // s.w
class Rq:
    def __init__(s): s.q, s.curr = {}, None
    def V(s):
        if not s.q: return 0
        tw = sum(e.w for e in s.q.values()); num = sum(e.v * e.w for e in s.q.values())
        return num // tw
    def elig(s, e):
        return sum((x.v - e.v) * x.w for x in s.q.values()) >= 0
rqs = [Rq(), Rq()]; ent = {}; where = {}; group = set()
def ingroup(comm, pid, prio):
    if comm.startswith('probe-') or comm.startswith('schedreplay-pro') or (comm == 'sh' and prio in (120, 125) and pid in hogs):
        return True
    return False
hogs = set(int(x) for x in sys.argv[2].split(','))
def get(pid, prio):
    e = ent.get(pid)
    if e is None: e = ent[pid] = E(pid, W.get(prio, 1024))
    e.w = W.get(prio, e.w)
    return e
def clamp(e, vlag):
    lim = e.vs(SLICE + TICK); return max(-lim, min(lim, vlag))
def place(c, e):
    rq = rqs[c]; V = rq.V(); lag = e.vlag; tw = sum(x.w for x in rq.q.values())
    if rq.q: lag = cdiv(lag * (tw + e.w), tw)
    e.v = V - lag
    e.plag = lag * e.w // 1024; e.how = 'placed'; e.v0 = (e.v - (V * tw + e.v * e.w) // (tw + e.w)) * e.w // 1024
    if e.rel is not None: e.d, e.rel = e.v + e.rel, None
    else: e.d = e.v + e.vs(SLICE)
    rq.q[e.pid] = e; where[e.pid] = c; e.delayed = False
def dequeue(c, e, sleep, dpick=False):
    rq = rqs[c]
    if sleep and not dpick and not rq.elig(e):
        e.delayed = True; return True
    e.vlag = clamp(e, rq.V() - e.v)
    if dpick: e.vlag = min(e.vlag, 0); e.delayed = False
    if not sleep: e.rel = e.d - e.v
    del rq.q[e.pid]; where.pop(e.pid, None)
    if rq.curr == e.pid: rq.curr = None
    return False
def requeue(c, e):
    rq = rqs[c]
    if clamp(e, rq.V() - e.v) > 0:
        del rq.q[e.pid]; e.vlag = 0; place(c, e); e.how = 'requeued at V'
    else:
        e.how = 'requeued, kept v'; e.plag = (rq.V() - e.v) * e.w // 1024
    e.delayed = False
def pick(c, protect=False, exclude_curr=True):
    rq = rqs[c]
    while True:
        cur = rq.q.get(rq.curr) if rq.curr is not None else None
        if cur is not None and not exclude_curr:
            if not rq.elig(cur): cur = None
            elif protect and cur.v < cur.vprot: return cur, 'protected'
        cand = [e for p, e in rq.q.items() if p != rq.curr and rq.elig(e)]
        if cur is not None: cand.append(cur)
        if not cand: return None, 'none'
        b = min(cand, key=lambda e: e.d)
        if b.delayed and b is not cur:
            dequeue(c, b, True, dpick=True); continue
        return b, 'pick'
cur = {}; decisions = []; pendmsg = {}; mwake = {}; mdecisions = []; msgchain = []; rounds = []; rnd_of = {}
for ts, _l, cpu, cp, ev, f in (st.lines(sys.argv[1]) if sys.argv[1].endswith(".ev") else st.events(sys.argv[1])):
    if ev == 'sched_stat_runtime':
        m = RT.search(f); pid, rt = int(m.group(2)), int(m.group(3))
        if pid in where and rqs[where[pid]].curr == pid:
            e = ent[pid]; e.v += e.vs(rt)
            if e.v >= e.d: e.d = e.v + e.vs(SLICE)
    elif ev == 'sched_waking':
        m = WK.search(f); pid = int(m.group(2) or m.group(5))
        if pid in where and ent[pid].delayed:
            requeue(where[pid], ent[pid]); ent[pid].requeued = True
    elif ev in ('sched_wakeup', 'sched_wakeup_new'):
        m = WU.search(f); comm, pid, prio, c = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
        if not ingroup(comm, pid, prio): continue
        e = get(pid, prio)
        e.wakets = ts; e.waker = (cur.get(cpu) or ('?',))[0]
        if pid in where:
            if where[pid] != c: dequeue(where[pid], e, True, dpick=True); place(c, e)
        else:
            place(c, e)
        waker = cur.get(cpu)
        if waker and waker[0].startswith('probe-msg') and comm.startswith('probe-w'):
            r = rounds[-1] if rounds else None
            if r is None or len(r['woken']) >= 2 or r['first'] is not None or pid in r['woken']:
                r = dict(woken=[], wcpu={}, plag={}, how={}, first=None, replier=None, sleep={}, rts=None)
                rounds.append(r)
            r['woken'].append(pid); r['wcpu'][pid] = c; r['plag'][pid] = e.plag; r['how'][pid] = e.how
            rnd_of[pid] = r
        if comm.startswith('probe-msg') and waker and waker[0].startswith('probe-w') and waker[1] in rnd_of:
            r = rnd_of[waker[1]]
            if r['replier'] is None: r['replier'], r['rts'], r['rlocal'] = waker[1], ts, cpu == c
        cc = cur.get(c)
        if comm.startswith('probe-w') and cc and cc[0].startswith('probe-msg') and cpu == c and cc[1] in where:
            rq = rqs[c]; m_ = ent[cc[1]]; V = rq.V()
            b, why = pick(c, protect=True, exclude_curr=False)
            lst = mwake.setdefault(c, [])
            lst.append(dict(ts=ts, k=len(lst) + 1, m_el=rq.elig(m_), m_prot=m_.v < m_.vprot,
                            mv=(m_.v - V) * m_.w // 1024, mhow=m_.how, mplag=m_.plag,
                            mvprot=(m_.vprot - m_.v) * m_.w // 1024, md=(m_.d - V) * m_.w // 1024,
                            msleep=getattr(m_, 'ssleep', None), wplag=e.plag, whow=e.how, wd=(e.d - V) * e.w // 1024, w_el=rq.elig(e),
                            pred='P' if b is e else 'N', why=why if b is not e else 'wakee',
                            best=(b.pid if b else None),
                            others=sorted((x.w, rq.elig(x), x.delayed) for p_, x in rq.q.items() if p_ not in (m_.pid, pid))))
        if comm.startswith('probe-msg') and cc and cc[0].startswith('probe-w') and cpu == c and cc[1] in where:
            rq = rqs[c]
            b, why = pick(c, protect=True, exclude_curr=False)
            w = ent[cc[1]]; V = rq.V()
            state = dict(ts=ts, w_el=rq.elig(w), w_prot=w.v < w.vprot, msg_el=rq.elig(e),
                         wv=(w.v - V) * w.w // 1024, whow=w.how, wplag=w.plag, mhow=e.how, mplag=e.plag, md=(e.d - V), wd=(w.d - V),
                         others=sorted((x.w, rq.elig(x), x.delayed) for p, x in rq.q.items() if p not in (w.pid, pid)))
            state['pred'] = 'P' if b is e else 'N'; state['why'] = why if b is not e else 'msg'
            state['best'] = b.pid if b else None
            rw = rnd_of.get(cc[1])
            state['wpos'] = '?' if rw is None or rw['first'] is None else ('first' if rw['first'] == cc[1] else 'second')
            pendmsg[c] = (cc[1], state)
    elif ev == 'sched_migrate_task':
        m = MG.search(f)
        if m:
            pid, o, d = int(m.group(2)), int(m.group(3)), int(m.group(4))
            if pid in where and where[pid] == o:
                e = ent[pid]; dl = e.delayed; dequeue(o, e, False); place(d, e); e.delayed = dl
    elif ev == 'sched_switch':
        m = SW.search(f); pc, pp, pprio, state, nc, npid, nprio = m.groups()
        pp, npid, pprio, nprio = int(pp), int(npid), int(pprio), int(nprio)
        c = cpu; rq = rqs[c]
        for pid_, pr_ in ((pp, pprio), (npid, nprio)):
            if pid_ in ent and W.get(pr_, ent[pid_].w) != ent[pid_].w:
                ent[pid_].w = W[pr_]
        if c in mwake and cur.get(c, (None, None))[1] == pp:
            lst = mwake.pop(c)
            for i, dct in enumerate(lst):
                dct['kernel'] = 'P' if state.startswith('R') and i == len(lst) - 1 else 'N'
                dct['n'] = len(lst); dct['next'] = nc; mdecisions.append(dct)
        if c in pendmsg and pendmsg[c][0] == pp:
            _, sdict = pendmsg.pop(c); sdict['kernel'] = 'P' if state.startswith('R') else 'N'; decisions.append(sdict)
        if pp in rq.q and pp in rnd_of and not state.startswith('R') and pp not in rnd_of[pp]['sleep']:
            r, w = rnd_of[pp], ent[pp]; V = rq.V()
            r['sleep'][pp] = dict(ts=ts, vV=(w.v - V) * w.w // 1024, el=rq.elig(w),
                                  after_reply=r['replier'] == pp,
                                  others=sorted(x.w for p, x in rq.q.items() if p != pp and not x.delayed))
        if pp in rq.q and pc.startswith('probe-msg') and not state.startswith('R'):
            e = ent[pp]; msgchain.append((getattr(e, 'waker', '?'), e.plag, (e.v - rq.V()) * e.w // 1024, rq.elig(e), e.how,
                                          getattr(e, 'sin', None), getattr(e, 'v0', None), ts - getattr(e, 'wakets', ts),
                                          sorted((x.w, rq.elig(x), x.delayed, (x.v - rq.V()) * x.w // 1024) for p_, x in rq.q.items() if p_ != pp)))
            e.ssleep = dict(el=rq.elig(e), vV=(e.v - rq.V()) * e.w // 1024, sin=getattr(e, 'sin', None))
        if pp in rq.q:
            if state.startswith('R'): rq.curr = None
            else: dequeue(c, ent[pp], True)
            if rq.curr == pp: rq.curr = None
        if npid in rnd_of and rnd_of[npid]['first'] is None:
            rnd_of[npid]['first'] = npid
        if ingroup(nc, npid, nprio) and npid in rq.q:
            rq.curr = None
            pick(c)  # clean delayed winners
            e = ent[npid]
            if nc.startswith('probe-msg'):
                e.sin = dict(prev=pc, pstate=state, el=rq.elig(e), vV=(e.v - rq.V()) * e.w // 1024)
            rq.curr = npid; e.vprot = min(e.d, e.v + e.vs(SLICE))
        else:
            rq.curr = None
            if npid == 0 or nc.startswith('swapper'): 
                while True:
                    b, _ = pick(c)
                    if b is None or not b.delayed: break
        cur[c] = (nc, npid)
c = collections.Counter((d['kernel'], d['pred'], d['why']) for d in decisions)
for k, v in sorted(c.items()): print(k, v)
ok = sum(v for k, v in c.items() if k[0] == k[1]); print('agree %d / %d' % (ok, len(decisions)))



def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))] // 1000 if v else float('nan')


# The round order and each worker's state at its futex sleep, by its place in the round
# (helper lag45): a round is msg's wake of both workers; "first" the worker switched in
# first after it, "replier" the one that woke msg.  The lag at the sleep is the placed lag of
# the worker's next wake (inflated), when it sleeps eligible.
full = [r for r in rounds if len(r['woken']) == 2 and r['first'] and r['replier'] and len(r['sleep']) == 2]
print('rounds %d (complete %d): first-woken runs first %d; the replier runs first %d, second %d; '
      'both woken on one CPU %d' % (
          len(rounds), len(full), sum(r['first'] == r['woken'][0] for r in full),
          sum(r['first'] == r['replier'] for r in full), sum(r['first'] != r['replier'] for r in full),
          sum(len(set(r['wcpu'].values())) == 1 for r in full)))
nxt = {}
for i, r in enumerate(rounds):
    for p in r['woken']:
        if p in nxt: nxt[p]['nplag'] = r['plag'][p]; nxt[p]['nhow'] = r['how'][p]
    for p, sl in r['sleep'].items():
        nxt[p] = sl
rows = collections.defaultdict(list)
for r in full:
    for p, sl in r['sleep'].items():
        pos = 'first' if r['first'] == p else 'second'
        role = 'replier' if r['replier'] == p else 'other'
        rows[(pos, role)].append(sl)
print('%-16s %5s %8s %22s %26s' % ('runs/role', 'n', 'elig %', 'v-V at sleep p25/50/75', 'next placed lag p25/50/75/90'))
for k in sorted(rows):
    v = rows[k]; nl = [x['nplag'] for x in v if 'nplag' in x]
    vv = [x['vV'] for x in v]
    print('%-16s %5d %7.0f%% %8s/%s/%s %12s/%s/%s/%s' % (
        '/'.join(k), len(v), 100.0 * sum(x['el'] for x in v) / len(v),
        pct(vv, .25), pct(vv, .5), pct(vv, .75), pct(nl, .25), pct(nl, .5), pct(nl, .75), pct(nl, .9)))
for pos in ('first', 'second'):
    for role in ('replier', 'other'):
        v = [r['plag'][p] for r in full for p in r['woken']
             if (r['first'] == p) == (pos == 'first') and (r['replier'] == p) == (role == 'replier')]
        if v:
            print('placed lag of the %s runner (%s) at its wake: n %d, p25/50/75/90 %s/%s/%s/%s us' % (
                pos, role, len(v), pct(v, .25), pct(v, .5), pct(v, .75), pct(v, .9)))
print('wake of msg by the worker that ran first / second in its round: n, worker eligible, '
      'kernel preempts, rebuilt check preempts, worker\'s placed lag p50')
for pos in ('first', 'second', '?'):
    v = [d for d in decisions if d.get('wpos') == pos]
    if v:
        print('  %-6s %4d %5.0f%% %5.0f%% %5.0f%% %6s us' % (
            pos, len(v), 100.0 * sum(d['w_el'] for d in v) / len(v),
            100.0 * sum(d['kernel'] == 'P' for d in v) / len(v),
            100.0 * sum(d['pred'] == 'P' for d in v) / len(v), pct([d['wplag'] for d in v], .5)))
allp = [r['plag'][p] for r in full for p in r['woken']]
print('placed lag at msg\'s wakes, all: p25/50/75/90 %s/%s/%s/%s us' % (
    pct(allp, .25), pct(allp, .5), pct(allp, .75), pct(allp, .9)))
# msg's wakes of the workers (helper mp45): msg current, a worker woken onto msg's CPU; "P" when
# msg is switched out runnable right after this wake (before its next one), the rebuilt check
# (msg protected and eligible keeps the CPU, else the earliest eligible deadline).
print('msg\'s local wakes of a worker: (wake k of the run, observed, rebuilt, reason) counts')
cm = collections.Counter((d['k'], d['kernel'], d['pred'], d['why']) for d in mdecisions)
for k, v in sorted(cm.items()): print('  msgwake', k, v)
for k in (1, 2):
    v = [d for d in mdecisions if d['k'] == k]
    if not v: continue
    for o in ('P', 'N'):
        u = [d for d in v if d['kernel'] == o]
        if not u: continue
        print('  wake %d %s n %d: msg eligible %.0f%%, protected %.0f%%; msg placed lag p25/50/75 %s/%s/%s; '
              'msg v-V p25/50/75 %s/%s/%s; msg vprot-v p50 %s; wakee placed lag p50 %s, d-V p50 %s; msg d-V p50 %s' % (
            k, o, len(u), 100.0 * sum(d['m_el'] for d in u) / len(u), 100.0 * sum(d['m_prot'] for d in u) / len(u),
            pct([d['mplag'] * 1000 for d in u], .25), pct([d['mplag'] * 1000 for d in u], .5), pct([d['mplag'] * 1000 for d in u], .75),
            pct([d['mv'] for d in u], .25), pct([d['mv'] for d in u], .5), pct([d['mv'] for d in u], .75),
            pct([d['mvprot'] for d in u], .5), pct([d['wplag'] for d in u], .5), pct([d['wd'] for d in u], .5),
            pct([d['md'] for d in u], .5)))
print('msg\'s runs by waker: n, placed lag p10/25/50 us, v-V at its sleep p50/75/90 us, sleeps ineligible')
for wk in sorted(set(x[0][:9] for x in msgchain)):
    v = [x for x in msgchain if x[0][:9] == wk]
    if len(v) < 20: continue
    print('  %-10s %4d  %s/%s/%s  %s/%s/%s  %d' % (wk, len(v), pct([x[1] for x in v], .1), pct([x[1] for x in v], .25),
          pct([x[1] for x in v], .5), pct([x[2] for x in v], .5), pct([x[2] for x in v], .75), pct([x[2] for x in v], .9),
          sum(not x[3] for x in v)))
if os.environ.get('MSGCHAIN_JSON'):
    json.dump(msgchain, open(os.environ['MSGCHAIN_JSON'], 'w'))
if os.environ.get('MSGWAKE_JSON'):
    json.dump(mdecisions, open(os.environ['MSGWAKE_JSON'], 'w'))
if len(sys.argv) > 3:
    json.dump(decisions, open(sys.argv[3], 'w'))
if len(sys.argv) > 4:
    json.dump([dict(woken=r['woken'], first=r['first'], replier=r['replier'], rts=r['rts'],
                    wcpu=r['wcpu'], plag=r['plag'], how=r['how'], sleep=r['sleep']) for r in rounds],
              open(sys.argv[4], 'w'))
