// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model: what the bookkeeping the seed patches change would cost on
 * a given machine, as a share of its CPU time.
 *
 * The model counts calls; the machine file prices them.  The expensive part
 * on big machines is not arithmetic but one cache line: tg->load_avg, read by
 * every calc_group_shares() (inlined into update_cfs_group()) and atomically
 * updated by update_tg_load_avg() (inlined into update_load_avg()).  Its
 * price depends on where the line was last written:
 *
 *   own     still in this CPU's cache (L1/L2 hit)
 *   local   another core of the same node holds it (an intra-socket
 *           snoop/transfer)
 *   remote  a core of another node holds it (a cross-socket transfer)
 *
 * The model counts writes per node (tg_load_avg_writes.nodeN), not per CPU
 * and not their interleaving, so the split is estimated under the
 * independent-interleaving assumption: with p_n the share of writes made on
 * node n and c the CPUs per node, the line was last written
 *
 *   on another node       with probability  1 - sum_n p_n^2
 *   by this very CPU      with probability  sum_n p_n^2 / c
 *   by another local CPU  otherwise
 *
 * and a write (which needs the line exclusive) finds it there: the contended
 * regime the seed thread measured.  A read costs a transfer only when the
 * line was written by another CPU since this CPU last read it (read_misses():
 * between two writes the reads touch a number of distinct CPUs, each missing
 * once); otherwise it hits a shared copy.  So a rate limit that removes
 * writes also makes the reads cheap, as 1528c661c24b reported.  With Aaron
 * Lu's per-node tg->load_avg (RFC 2/4, MODEL_V_TG_LOAD_PER_NODE) a write goes
 * to its own node's line (own or local), and calc_group_shares() reads every
 * node's line (the model counts one read per line): misses on a line written
 * by another node are remote.
 *
 * A trace from a one-node machine priced with a multi-node machine file
 * (cost_estimate_for) is taken as spread evenly over the file's nodes:
 * p_n = 1 / nodes, c = CPUs / nodes -- what the same workload would pay if its
 * CPUs were split over the sockets.
 *
 * Attribution follows what perf shows for the inlined helpers:
 *   update_cfs_group = calls x c_ucg + reweights x c_rw + reads x c_read
 *   update_load_avg  = calls x c_ula + update_tg_load_avg calls x c_utla
 *                      + writes x c_write
 *   update_blocked_averages = runs x c_uba
 * (writes from the blocked-load path are priced under update_load_avg.)
 *
 * The share is of the CPU time the workload would take on that machine: the
 * simulated busy time (from the trace) plus the priced bookkeeping, since the
 * trace's own bookkeeping ran on the capture machine at its price:
 *   share_f = ns_f / (busy_ns + sum_f ns_f).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include <schedreplay/cli.h>
#include <schedreplay/whatif.h>

static const char *const item_keys[COST_NR_ITEMS] = {
#define COST_KEY(id, key, what) key,
	COST_ITEMS(COST_KEY)
#undef COST_KEY
};

static const char *const item_meanings[COST_NR_ITEMS] = {
#define COST_WHAT(id, key, what) what,
	COST_ITEMS(COST_WHAT)
#undef COST_WHAT
};

const char *cost_item_key(enum cost_item i)
{
	return i < COST_NR_ITEMS ? item_keys[i] : NULL;
}

const char *cost_item_meaning(enum cost_item i)
{
	return i < COST_NR_ITEMS ? item_meanings[i] : NULL;
}

const char *cost_function_name(enum cost_function f)
{
	switch (f) {
	case COST_FN_UPDATE_CFS_GROUP:        return "update_cfs_group";
	case COST_FN_UPDATE_LOAD_AVG:         return "update_load_avg";
	case COST_FN_UPDATE_BLOCKED_AVERAGES: return "update_blocked_averages";
	case COST_NR_FUNCTIONS:               break;
	}
	return "?";
}

/*
 * The documented defaults.  The CPU-local costs (arithmetic of the function
 * bodies) are the same on both machines: they are a few dozen instructions
 * with one 64-bit division or a few multiply-shifts, at ~3 GHz.  The line
 * transfer costs are what separates them.  Each number says where it comes
 * from; "ESTIMATE" means an order of magnitude, not a measurement of that
 * machine: measure yours (bench/variants: bench_cacheline prints the own and
 * cross-CPU cost of an atomic add on the machine it runs on) and write a
 * machine file.
 */
#define SRC_ARITH "ESTIMATE: the function body's arithmetic (fair.c/pelt.c instruction count at ~3 GHz, no cache misses)"

/* The function bodies' own costs, the same on both machines. */
#define CPU_LOCAL_NS                                                                  \
	[COST_update_cfs_group] = 15, [COST_reweight_entity] = 40,                    \
	[COST_update_load_avg] = 40, [COST_update_tg_load_avg] = 10,
#define CPU_LOCAL_SOURCES                                                             \
	[COST_update_cfs_group] = SRC_ARITH ": calc_group_shares() is ~10 loads and one 64-bit division (~25 cycles)", \
	[COST_reweight_entity] = SRC_ARITH ": dequeue/enqueue of load sums, a division for load_avg, an rb-tree erase+insert when queued", \
	[COST_update_load_avg] = SRC_ARITH ": up to three decay_load() multiply-shifts per sched_avg for the entity and its cfs_rq, two divisions", \
	[COST_update_tg_load_avg] = SRC_ARITH ": the rate-limit clock read (sched_clock_cpu, rdtsc ~25 cycles) and the 1/64 test",

#define BLOCKED_NS [COST_update_blocked_averages] = 400,
#define BLOCKED_SOURCE                                                                \
	[COST_update_blocked_averages] = "ESTIMATE: rq lock, clock update and a walk of ~4 leaf cfs_rqs with a decay each (~100 ns per cfs_rq incl. update_tg_load_avg)",

static const struct cost_machine builtin_machines[] = {
	{
		.name = "one-socket",
		.description = "one-socket x86 server (one NUMA node, ~32-64 cores, ~3 GHz): "
			       "cache-line transfers stay on one die/mesh",
		.nodes = 1,
		.ns = {
			CPU_LOCAL_NS
			[COST_tg_read_local] = 60,
			[COST_tg_read_remote] = 60,
			[COST_tg_write_local] = 70,
			[COST_tg_write_remote] = 70,
			[COST_tg_access_own] = 2,
			BLOCKED_NS
		},
		.source = {
			CPU_LOCAL_SOURCES
			[COST_tg_read_local] = "ESTIMATE: intra-socket core-to-core cache-line transfer, 40-80 ns on current x86 servers (chipsandcheese.com, 'Core to Core Latency Data on Large Systems', Nov 2023); the cross-CPU figure of bench_cacheline measures it on this machine",
			[COST_tg_read_remote] = "one node: no remote transfers (same as local)",
			[COST_tg_write_local] = "ESTIMATE: a transfer (as a local read) plus the locked RMW (~10 ns)",
			[COST_tg_write_remote] = "one node: no remote transfers (same as local)",
			[COST_tg_access_own] = "ESTIMATE: L1/L2 hit plus a lock prefix when writing (~5 cycles); bench_cacheline's own-CPU figure measures it",
			BLOCKED_SOURCE
		},
	},
	{
		.name = "two-socket",
		.description = "two-socket x86 server like the seed thread's (2 x 56-core Sapphire Rapids, "
			       "224 CPUs, 2 NUMA nodes): remote transfers cross the UPI link",
		.nodes = 2,
		.ns = {
			CPU_LOCAL_NS
			[COST_tg_read_local] = 80,
			[COST_tg_read_remote] = 200,
			[COST_tg_write_local] = 90,
			[COST_tg_write_remote] = 220,
			[COST_tg_access_own] = 2,
			BLOCKED_NS
		},
		.source = {
			CPU_LOCAL_SOURCES
			[COST_tg_read_local] = "ESTIMATE: intra-socket core-to-core transfer on a 56-core Sapphire Rapids mesh, 60-100 ns (chipsandcheese.com, 'Core to Core Latency Data on Large Systems', Nov 2023)",
			[COST_tg_read_remote] = "ESTIMATE: cross-socket transfer over UPI, 150-250 ns on two-socket Sapphire Rapids (same source); Aaron Lu's RFC (18 Jul 2023) attributes the update_cfs_group/update_load_avg profile to this line bouncing between the sockets",
			[COST_tg_write_local] = "ESTIMATE: a local transfer plus the locked RMW (~10 ns)",
			[COST_tg_write_remote] = "ESTIMATE: a remote transfer plus the locked RMW; with ~20% update_cfs_group and ~10% update_load_avg for netperf UDP_RR on 224 CPUs (the seed's perf profile) the line must cost ~100s of ns per access",
			[COST_tg_access_own] = "ESTIMATE: L1/L2 hit plus a lock prefix when writing (~5 cycles)",
			BLOCKED_SOURCE
		},
	},
};

#define NR_BUILTIN (sizeof(builtin_machines) / sizeof(builtin_machines[0]))

unsigned int cost_machine_builtin_count(void)
{
	return NR_BUILTIN;
}

const struct cost_machine *cost_machine_builtin_at(unsigned int i)
{
	return i < NR_BUILTIN ? &builtin_machines[i] : NULL;
}

const struct cost_machine *cost_machine_builtin(const char *name)
{
	for (unsigned int i = 0; name && i < NR_BUILTIN; i++)
		if (!strcmp(builtin_machines[i].name, name))
			return &builtin_machines[i];
	return NULL;
}

static int copy_str(char *dst, size_t size, json_t *v, const char *path, const char *key,
		    struct sr_error *err)
{
	if (!json_is_string(v)) {
		sr_error_set(err, EINVAL, "%s: \"%s\" must be a string", path, key);
		return -1;
	}
	snprintf(dst, size, "%s", json_string_value(v));
	return 0;
}

static int item_from_key(const char *key)
{
	for (int i = 0; i < COST_NR_ITEMS; i++)
		if (!strcmp(item_keys[i], key))
			return i;
	return -1;
}

#define COST_MAX_NS 1e9

static int load_costs(json_t *costs, struct cost_machine *out, const char *path,
		      struct sr_error *err)
{
	const char *key;
	json_t *val;

	if (!json_is_object(costs)) {
		sr_error_set(err, EINVAL, "%s: \"costs_ns\" must be an object", path);
		return -1;
	}
	json_object_foreach(costs, key, val) {
		int i = item_from_key(key);
		json_t *ns = val;

		if (i < 0) {
			sr_error_set(err, EINVAL,
				     "%s: unknown cost \"%s\" (see docs/variants.md, 'Cost model')", path,
				     key);
			return -1;
		}
		if (json_is_object(val)) {
			const char *k2;
			json_t *v2;

			json_object_foreach(val, k2, v2) {
				if (strcmp(k2, "ns") && strcmp(k2, "source")) {
					sr_error_set(err, EINVAL,
						     "%s: cost \"%s\": unknown key \"%s\" (ns, source)",
						     path, key, k2);
					return -1;
				}
			}
			ns = json_object_get(val, "ns");
			if (json_object_get(val, "source") &&
			    copy_str(out->source[i], sizeof(out->source[i]),
				     json_object_get(val, "source"), path, "source", err) < 0)
				return -1;
			else if (!json_object_get(val, "source"))
				snprintf(out->source[i], sizeof(out->source[i]), "%s", path);
		} else {
			snprintf(out->source[i], sizeof(out->source[i]), "%s", path);
		}
		/*
		 * At most 1 s a call: 1e308 was accepted and the shares of the
		 * report came out as nan% (inf * 0, inf / inf) at exit 0.
		 */
		if (!json_is_number(ns) || !isfinite(json_number_value(ns)) ||
		    json_number_value(ns) < 0 || json_number_value(ns) > COST_MAX_NS) {
			sr_error_set(err, EINVAL, "%s: cost \"%s\" must be a number of ns >= 0 "
				     "and <= %.0f (1 s)", path, key, COST_MAX_NS);
			return -1;
		}
		out->ns[i] = json_number_value(ns);
	}
	return 0;
}

int cost_machine_load(const char *path, struct cost_machine *out, struct sr_error *err)
{
	const struct cost_machine *defaults = &builtin_machines[0];
	json_error_t jerr;
	json_t *root, *val;
	const char *key;
	int ret = -1;

	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		sr_error_set_json(err, path, &jerr);
		return -1;
	}
	if (!json_is_object(root)) {
		sr_error_set(err, EINVAL, "%s: a machine file is a JSON object", path);
		goto out;
	}
	json_object_foreach(root, key, val) {
		if (strcmp(key, "name") && strcmp(key, "description") && strcmp(key, "nodes") &&
		    strcmp(key, "costs_ns") && strcmp(key, "defaults") && strcmp(key, "comment")) {
			sr_error_set(err, EINVAL,
				     "%s: unknown key \"%s\" (name, description, nodes, defaults, costs_ns, comment)",
				     path, key);
			goto out;
		}
	}
	/*
	 * Keys missing take the "defaults" machine's values (one-socket if
	 * none): a file that names no defaults, no nodes and no cost would be
	 * one-socket under the file's name, with nothing of its own priced.
	 */
	if (!json_object_get(root, "defaults") && !json_object_get(root, "nodes") &&
	    !json_object_size(json_object_get(root, "costs_ns"))) {
		sr_error_set(err, EINVAL, "%s: the machine file sets nothing: give \"defaults\" "
			     "(one-socket, two-socket), \"nodes\" or \"costs_ns\" (see docs/variants.md, "
			     "'Cost model')", path);
		goto out;
	}
	val = json_object_get(root, "defaults");
	if (val) {
		if (!json_is_string(val) || !(defaults = cost_machine_builtin(json_string_value(val)))) {
			sr_error_set(err, EINVAL,
				     "%s: \"defaults\" must name a built-in machine (one-socket, two-socket)",
				     path);
			goto out;
		}
	}
	*out = *defaults;
	val = json_object_get(root, "name");
	if (val && copy_str(out->name, sizeof(out->name), val, path, "name", err) < 0)
		goto out;
	if (!val)
		snprintf(out->name, sizeof(out->name), "%s", path);
	val = json_object_get(root, "description");
	if (val && copy_str(out->description, sizeof(out->description), val, path,
			    "description", err) < 0)
		goto out;
	val = json_object_get(root, "nodes");
	if (val) {
		if (!json_is_integer(val) || json_integer_value(val) < 1 ||
		    json_integer_value(val) > 64) {
			sr_error_set(err, EINVAL, "%s: \"nodes\" must be an integer 1..64", path);
			goto out;
		}
		out->nodes = (unsigned int)json_integer_value(val);
	}
	val = json_object_get(root, "costs_ns");
	if (val && load_costs(val, out, path, err) < 0)
		goto out;
	ret = 0;
out:
	json_decref(root);
	return ret;
}

int cost_machine_resolve(const char *name_or_path, struct cost_machine *out,
			 struct sr_error *err)
{
	const struct cost_machine *b = cost_machine_builtin(name_or_path);

	if (b) {
		*out = *b;
		return 0;
	}
	/* a mistyped built-in name is a bad option value, not a missing file:
	 * it is told before any file is read */
	if (!strchr(name_or_path, '/') && access(name_or_path, F_OK) != 0) {
		char names[128] = "", esc[256];

		for (unsigned int i = 0; i < cost_machine_builtin_count(); i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", cost_machine_builtin_at(i)->name);
		/* the name as typed, escaped: a byte not UTF-8 is \xNN (cli.h) */
		sr_esc(esc, sizeof(esc), name_or_path, SR_ESC_TEXT);
		sr_error_set(err, ENOENT, "no built-in machine '%s' (%s) and no such file",
			     esc, names);
		return -2;
	}
	if (cost_machine_load(name_or_path, out, err) == 0)
		return 0;
	return -1;
}

int cost_machine_write_json(const struct cost_machine *m, FILE *out)
{
	json_t *root = json_object(), *costs = json_object();
	int bad = !root || !costs;

	for (int i = 0; !bad && i < COST_NR_ITEMS; i++) {
		json_t *c = json_object();

		bad |= !c;
		if (!bad) {
			bad |= json_object_set_new(c, "ns", json_real(m->ns[i]));
			bad |= json_object_set_new(c, "source", json_string(m->source[i]));
			bad |= json_object_set_new(costs, item_keys[i], c);
		}
	}
	if (!bad) {
		bad |= json_object_set_new(root, "name", json_string(m->name));
		bad |= json_object_set_new(root, "description", json_string(m->description));
		bad |= json_object_set_new(root, "nodes", json_integer(m->nodes));
		bad |= json_object_set_new(root, "costs_ns", costs);
		costs = NULL;
	}
	if (!bad)
		bad = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10)) < 0 ||
		      fputc('\n', out) == EOF;
	json_decref(costs);
	json_decref(root);
	return bad ? -1 : 0;
}

static uint64_t counter(cost_counter_fn get, const void *ctx, const char *name)
{
	uint64_t v = 0;

	if (!get(ctx, name, &v))
		return 0;
	return v;
}

/*
 * Reads that miss: a CPU's read finds the line in its cache unless another
 * CPU wrote it since this CPU last read it.  With @writes spread evenly over
 * the run and the reads over @cpus CPUs, m = reads / writes reads fall
 * between two writes, touching cpus * (1 - (1 - 1/cpus)^m) distinct CPUs,
 * each of which misses once (if the writer was another CPU: 1 - 1/cpus).
 */
static double read_misses(double reads, double writes, double cpus)
{
	double m, distinct, miss;

	if (reads <= 0 || writes <= 0 || cpus <= 1)
		return 0;
	m = reads / writes;
	distinct = cpus * (1 - pow(1 - 1 / cpus, m));
	miss = writes * (1 - 1 / cpus) * distinct;
	return miss < reads ? miss : reads;
}

/*
 * p[n], the share of the tg_load_avg writes made on node n (1/N each under
 * @spread), into @p; their sum of squares into *@sum_p2 (the chance two
 * writes are on one node).  The nodes that write.
 */
static unsigned int node_write_shares(cost_counter_fn get, const void *ctx, uint64_t writes,
				      double W, unsigned int nr_nodes, bool spread,
				      double p[COST_MAX_NODES], double *sum_p2)
{
	unsigned int active = 0;

	if (writes && spread) {
		for (unsigned int n = 0; n < nr_nodes; n++)
			p[n] = 1.0 / nr_nodes;
	} else if (writes) {
		for (unsigned int n = 0; n < nr_nodes; n++) {
			char name[48];

			snprintf(name, sizeof(name), "tg_load_avg_writes.node%u", n);
			p[n] = (double)counter(get, ctx, name) / W;
		}
		if (nr_nodes == 1) {
			/* no per-node split needed: all on one node */
			p[0] = 1;
		}
	}
	for (unsigned int n = 0; n < nr_nodes; n++) {
		*sum_p2 += p[n] * p[n];
		active += p[n] > 0;
	}
	if (writes && active == 0) {
		p[0] = 1;           /* writes not split per node: all on node 0 */
		*sum_p2 = 1;
		active = 1;
	}
	return active;
}

/*
 * Where the line is found at an access: w[] for the writes and r[] for the
 * reads, the fractions {own CPU's cache, another CPU of the node, another
 * node}, from the node shares @p (sum of squares @sum_p2), one line for all
 * or one line per node (@per_node).
 */
static void line_fractions(double R, double W, uint64_t writes, unsigned int nr_cpus,
			   unsigned int nr_nodes, double per_cpu, bool per_node,
			   const double p[COST_MAX_NODES], double sum_p2, double w[3], double r[3])
{
	r[0] = 1, r[1] = 0, r[2] = 0;
	if (!writes) {
		/* the line never moves: every access hits the CPU's cache */
		w[0] = 1, w[1] = 0, w[2] = 0;
	} else if (!per_node) {
		double miss = read_misses(R, W, nr_cpus);

		/* a write needs the line exclusive: last written elsewhere? */
		w[2] = 1 - sum_p2;
		w[0] = sum_p2 / per_cpu;
		w[1] = sum_p2 - w[0];
		/* a missing read finds it written on another node w.p. 1 - sum p^2 */
		if (R > 0) {
			r[2] = miss / R * (1 - sum_p2);
			r[1] = miss / R * sum_p2;
			r[0] = 1 - miss / R;
		}
	} else {
		double miss = 0, remote = 0;

		/* writes go to the writer's node line; only its own CPUs bounce it */
		w[2] = 0;
		w[0] = 1 / per_cpu;
		w[1] = 1 - w[0];
		/*
		 * Every read touches each node's line (the model counts one read
		 * per line): line k is read R / N times and written p_k W times by
		 * node k's CPUs; a miss is remote unless the reader is on node k.
		 */
		for (unsigned int k = 0; k < nr_nodes; k++) {
			double mk = read_misses(R / nr_nodes, p[k] * W, nr_cpus);

			miss += mk;
			remote += mk * (1 - p[k]);
		}
		if (R > 0) {
			r[2] = remote / R;
			r[1] = (miss - remote) / R;
			r[0] = 1 - miss / R;
		}
	}
}

static void estimate(const struct cost_machine *m, cost_counter_fn get, const void *ctx,
		     uint64_t busy_ns, unsigned int nr_cpus, unsigned int nr_nodes,
		     bool per_node, bool spread, struct cost_estimate *out)
{
	uint64_t calls_ucg = counter(get, ctx, "update_cfs_group");
	uint64_t calls_rw = counter(get, ctx, "update_cfs_group.reweighted");
	uint64_t calls_ula = counter(get, ctx, "update_load_avg");
	uint64_t calls_utla = counter(get, ctx, "update_tg_load_avg");
	uint64_t calls_uba = counter(get, ctx, "update_blocked_averages");
	double p[COST_MAX_NODES] = { 0 }, sum_p2 = 0, per_cpu, wr_own, wr_local, wr_remote;
	double rd_own, rd_local, rd_remote, cost_w, cost_r, sum, R, W, w[3], r[3];
	unsigned int active;

	memset(out, 0, sizeof(*out));
	if (nr_nodes == 0)
		nr_nodes = 1;
	if (nr_nodes > COST_MAX_NODES)
		nr_nodes = COST_MAX_NODES;
	if (nr_cpus < nr_nodes)
		nr_cpus = nr_nodes;
	per_cpu = (double)nr_cpus / nr_nodes;     /* CPUs per node */
	out->tg_reads = counter(get, ctx, "tg_load_avg_reads");
	out->tg_writes = counter(get, ctx, "tg_load_avg_writes");
	out->per_node = per_node;
	out->busy_ns = busy_ns;
	out->nodes = nr_nodes;
	out->spread_assumed = spread && nr_nodes > 1;
	R = (double)out->tg_reads;
	W = (double)out->tg_writes;

	active = node_write_shares(get, ctx, out->tg_writes, W, nr_nodes, out->spread_assumed, p,
				   &sum_p2);
	out->nodes_active = active;

	line_fractions(R, W, out->tg_writes, nr_cpus, nr_nodes, per_cpu, per_node, p, sum_p2, w, r);
	wr_own = w[0], wr_local = w[1], wr_remote = w[2];
	rd_own = r[0], rd_local = r[1], rd_remote = r[2];
	cost_w = wr_own * m->ns[COST_tg_access_own] + wr_local * m->ns[COST_tg_write_local] +
		 wr_remote * m->ns[COST_tg_write_remote];
	cost_r = rd_own * m->ns[COST_tg_access_own] + rd_local * m->ns[COST_tg_read_local] +
		 rd_remote * m->ns[COST_tg_read_remote];
	/* report the traffic-weighted fractions */
	if (out->tg_reads + out->tg_writes) {
		double tot = R + W;

		out->tg_remote_fraction = (rd_remote * R + wr_remote * W) / tot;
		out->tg_own_fraction = (rd_own * R + wr_own * W) / tot;
	}

	out->fn_ns[COST_FN_UPDATE_CFS_GROUP] = calls_ucg * m->ns[COST_update_cfs_group] +
					       calls_rw * m->ns[COST_reweight_entity] + R * cost_r;
	out->fn_ns[COST_FN_UPDATE_LOAD_AVG] = calls_ula * m->ns[COST_update_load_avg] +
					      calls_utla * m->ns[COST_update_tg_load_avg] +
					      W * cost_w;
	out->fn_ns[COST_FN_UPDATE_BLOCKED_AVERAGES] = calls_uba * m->ns[COST_update_blocked_averages];
	sum = 0;
	for (int f = 0; f < COST_NR_FUNCTIONS; f++)
		sum += out->fn_ns[f];
	out->total_ns = sum;
	for (int f = 0; f < COST_NR_FUNCTIONS; f++)
		out->fn_share[f] = busy_ns + sum > 0 ? out->fn_ns[f] / (busy_ns + sum) : 0;
	out->total_share = busy_ns + sum > 0 ? sum / (busy_ns + sum) : 0;
}

void cost_estimate(const struct cost_machine *m, cost_counter_fn get, const void *ctx,
		   uint64_t busy_ns, unsigned int nr_cpus, unsigned int nr_nodes,
		   bool per_node, struct cost_estimate *out)
{
	estimate(m, get, ctx, busy_ns, nr_cpus, nr_nodes, per_node, false, out);
}

void cost_estimate_for(const struct cost_machine *m, cost_counter_fn get, const void *ctx,
		       uint64_t busy_ns, unsigned int nr_cpus, unsigned int model_nodes,
		       bool per_node, struct cost_estimate *out)
{
	if (model_nodes < 1)
		model_nodes = 1;
	if (model_nodes < m->nodes)
		estimate(m, get, ctx, busy_ns, nr_cpus, m->nodes, per_node, true, out);
	else
		estimate(m, get, ctx, busy_ns, nr_cpus, model_nodes, per_node, false, out);
}
