// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model: machine files (the documented defaults in docs/machines
 * are the built-ins, byte for byte in value), error messages, and the CPU
 * share on worked examples computed by hand.
 *
 * usage: test_variants_costmodel MACHINES_DIR DATA_DIR
 *        test_variants_costmodel --write MACHINES_DIR   (regenerate the files)
 */
#include <stdlib.h>

#include <schedreplay/whatif.h>

#include "check.h"

struct fake_counters {
	const char *name[16];
	uint64_t value[16];
	unsigned int n;
};

static bool fake_get(const void *ctx, const char *name, uint64_t *value)
{
	const struct fake_counters *f = ctx;

	for (unsigned int i = 0; i < f->n; i++)
		if (!strcmp(f->name[i], name)) {
			*value = f->value[i];
			return true;
		}
	return false;
}

static void add(struct fake_counters *f, const char *name, uint64_t v)
{
	f->name[f->n] = name;
	f->value[f->n++] = v;
}

static const char *path_in(const char *dir, const char *name)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

static void test_files_match_builtins(const char *machines)
{
	for (unsigned int i = 0; i < cost_machine_builtin_count(); i++) {
		const struct cost_machine *b = cost_machine_builtin_at(i);
		struct cost_machine m;
		struct sr_error err = { 0 };
		char file[128];

		snprintf(file, sizeof(file), "%s.json", b->name);
		CHECK_EQ_S(cost_machine_load(path_in(machines, file), &m, &err), 0);
		if (err.msg[0])
			fprintf(stderr, "  %s\n", err.msg);
		CHECK_STR(m.name, b->name);
		CHECK_STR(m.description, b->description);
		CHECK_EQ_U(m.nodes, b->nodes);
		for (int k = 0; k < COST_NR_ITEMS; k++) {
			CHECK_NEAR(m.ns[k], b->ns[k], 1e-12);
			CHECK_STR(m.source[k], b->source[k]);
			/* every default says where it comes from */
			CHECK(strlen(b->source[k]) > 10);
			CHECK(b->ns[k] > 0);
		}
		CHECK(cost_machine_builtin(b->name) == b);
	}
	CHECK(cost_machine_builtin("three-socket") == NULL);
	/* the example of a contended machine loads and keeps the defaults' other costs */
	{
		struct cost_machine c;
		struct sr_error err = { 0 };
		const struct cost_machine *two = cost_machine_builtin("two-socket");

		CHECK_EQ_S(cost_machine_load(path_in(machines, "two-socket-contended.json"), &c, &err), 0);
		CHECK(c.ns[COST_tg_read_remote] > 4 * two->ns[COST_tg_read_remote]);
		CHECK_NEAR(c.ns[COST_update_load_avg], two->ns[COST_update_load_avg], 0);
		CHECK_CONTAINS(c.source[COST_tg_read_remote], "perf c2c");
	}
	/* the two defaults differ only in the line transfers */
	{
		const struct cost_machine *one = cost_machine_builtin("one-socket");
		const struct cost_machine *two = cost_machine_builtin("two-socket");

		CHECK(one && two);
		if (one && two) {
			CHECK_EQ_U(one->nodes, 1);
			CHECK_EQ_U(two->nodes, 2);
			CHECK(two->ns[COST_tg_write_remote] > 2 * two->ns[COST_tg_write_local]);
			CHECK_NEAR(one->ns[COST_update_load_avg], two->ns[COST_update_load_avg], 0);
		}
	}
}

static void test_load_errors(const char *data)
{
	struct cost_machine m;
	struct sr_error err = { 0 };

	CHECK_EQ_S(cost_machine_load(path_in(data, "machine_partial.json"), &m, &err), 0);
	CHECK_STR(m.name, "partial");
	CHECK_EQ_U(m.nodes, 2);
	CHECK_NEAR(m.ns[COST_tg_write_remote], 500, 0);
	CHECK_CONTAINS(m.source[COST_tg_write_remote], "measured with perf c2c");
	CHECK_NEAR(m.ns[COST_tg_read_remote], 300, 0);
	CHECK_CONTAINS(m.source[COST_tg_read_remote], "machine_partial.json");
	/* the rest from "defaults": two-socket */
	CHECK_NEAR(m.ns[COST_tg_read_local], cost_machine_builtin("two-socket")->ns[COST_tg_read_local], 0);

	/* partial with no "defaults": the rest from one-socket */
	CHECK_EQ_S(cost_machine_load(path_in(data, "machine_nodefaults.json"), &m, &err), 0);
	CHECK_NEAR(m.ns[COST_update_cfs_group], 20, 0);
	CHECK_NEAR(m.ns[COST_tg_read_remote], cost_machine_builtin("one-socket")->ns[COST_tg_read_remote], 0);
	CHECK_EQ_U(m.nodes, cost_machine_builtin("one-socket")->nodes);
	/* a file that sets nothing would be one-socket under the file's name */
	CHECK_EQ_S(cost_machine_load(path_in(data, "machine_empty.json"), &m, &err), -1);
	CHECK_CONTAINS(err.msg, "machine_empty.json: the machine file sets nothing");
	CHECK_EQ_S(cost_machine_load(path_in(data, "machine_name_only.json"), &m, &err), -1);
	CHECK_CONTAINS(err.msg, "machine_name_only.json: the machine file sets nothing");

	CHECK_EQ_S(cost_machine_load(path_in(data, "machine_bad_key.json"), &m, &err), -1);
	CHECK_CONTAINS(err.msg, "unknown cost \"tg_write_remote\"");
	CHECK_EQ_S(cost_machine_load(path_in(data, "machine_negative.json"), &m, &err), -1);
	CHECK_CONTAINS(err.msg, "must be a number of ns >= 0");
	/* 1e308 ns: whatif's shares were nan% */
	CHECK_EQ_S(cost_machine_load(path_in(data, "machine_huge.json"), &m, &err), -1);
	CHECK_CONTAINS(err.msg, "cost \"update_cfs_group\" must be a number of ns >= 0 and <= 1000000000 (1 s)");
	/* a name without '/' that is neither built in nor a file: -2 (a usage
	 * error, listing the built-ins); a missing path: -1 (a file error) */
	CHECK_EQ_S(cost_machine_resolve("no-such-machine.json", &m, &err), -2);
	CHECK_CONTAINS(err.msg, "no built-in machine 'no-such-machine.json' (one-socket, two-socket)");
	CHECK_EQ_S(cost_machine_resolve("./no-such-machine.json", &m, &err), -1);
	CHECK_CONTAINS(err.msg, "./no-such-machine.json: cannot open");
	CHECK_EQ_S(cost_machine_resolve("two-socket", &m, &err), 0);
	CHECK_EQ_U(m.nodes, 2);
}

/*
 * Worked example, two-socket prices, 4 CPUs on 2 nodes, global tg->load_avg:
 * writes 300 on node 0 and 200 on node 1: p = 0.6, 0.4, sum p^2 = 0.52;
 * 2 CPUs per node.  Writes: own 0.26, local 0.26, remote 0.48:
 *   write = 0.26*2 + 0.26*90 + 0.48*220 = 129.52 ns
 * Reads: 1000 reads, 500 writes: m = 2 reads between writes touch
 * 4 * (1 - 0.75^2) = 1.75 CPUs, each missing if another CPU wrote (0.75):
 * 656.25 misses; remote 0.48 of them, local 0.52; 343.75 own hits:
 *   reads = 656.25 * (0.48*200 + 0.52*80) + 343.75*2 = 90987.5 ns
 *   update_cfs_group = 1000*15 + 400*40 + 90987.5 = 121987.5 ns
 *   update_load_avg  = 3000*40 + 2000*10 + 500*129.52 = 204760 ns
 *   update_blocked_averages = 10*400 = 4000 ns; total 330747.5 ns
 *   remote fraction (0.48*656.25/1000*1000 + 0.48*500) / 1500 = 0.37
 * Per node (aaron-node): writes own 1/2, local 1/2 -> 46 ns; each line is
 * read 500 times; line 0 written 300 times, line 1 200 times; misses
 * 500/300 and 500/200 reads apart: 342.80 and 307.72; remote unless the
 * reader is on the writing node: 342.80*0.4 + 307.72*0.6 -> reads cost
 * 91350.24 ns (computed in Python from the formula; see costmodel.c).
 */
static void test_estimate(void)
{
	const struct cost_machine *two = cost_machine_builtin("two-socket");
	struct fake_counters f = { .n = 0 };
	struct cost_estimate e;

	add(&f, "update_cfs_group", 1000);
	add(&f, "update_cfs_group.reweighted", 400);
	add(&f, "update_load_avg", 3000);
	add(&f, "update_tg_load_avg", 2000);
	add(&f, "update_blocked_averages", 10);
	add(&f, "tg_load_avg_reads", 1000);
	add(&f, "tg_load_avg_writes", 500);
	add(&f, "tg_load_avg_writes.node0", 300);
	add(&f, "tg_load_avg_writes.node1", 200);

	cost_estimate(two, fake_get, &f, 1000000, 4, 2, false, &e);
	CHECK_NEAR(e.fn_ns[COST_FN_UPDATE_CFS_GROUP], 121987.5, 1e-9);
	CHECK_NEAR(e.fn_ns[COST_FN_UPDATE_LOAD_AVG], 204760, 1e-9);
	CHECK_NEAR(e.fn_ns[COST_FN_UPDATE_BLOCKED_AVERAGES], 4000, 1e-9);
	CHECK_NEAR(e.total_ns, 330747.5, 1e-9);
	CHECK_NEAR(e.fn_share[COST_FN_UPDATE_CFS_GROUP], 121987.5 / 1330747.5, 1e-12);
	CHECK_NEAR(e.total_share, 330747.5 / 1330747.5, 1e-12);
	CHECK_NEAR(e.tg_remote_fraction, 0.37, 1e-12);
	CHECK_NEAR(e.tg_own_fraction, 0.315833333333, 1e-9);
	CHECK_EQ_U(e.nodes_active, 2);

	cost_estimate(two, fake_get, &f, 1000000, 4, 2, true, &e);
	CHECK_NEAR(e.fn_ns[COST_FN_UPDATE_CFS_GROUP], 122350.2358038, 1e-9);
	CHECK_NEAR(e.fn_ns[COST_FN_UPDATE_LOAD_AVG], 120000 + 20000 + 500 * 46.0, 1e-9);
	CHECK_NEAR(e.tg_remote_fraction, 0.214499844289, 1e-9);

	/* one node: nothing is remote; the line bounces between the 2 CPUs */
	cost_estimate(cost_machine_builtin("one-socket"), fake_get, &f, 1000000, 2, 1, false, &e);
	CHECK_NEAR(e.tg_remote_fraction, 0, 0);
	/* 2 CPUs: writes own 1/2; reads 1000/500 -> 375 misses: own 0.625 */
	CHECK_NEAR(e.tg_own_fraction, (0.625 * 1000 + 0.5 * 500) / 1500, 1e-12);
	CHECK_NEAR(e.fn_ns[COST_FN_UPDATE_CFS_GROUP], 15000 + 16000 + 1000 * 23.75, 1e-9);
	CHECK_NEAR(e.fn_ns[COST_FN_UPDATE_LOAD_AVG], 120000 + 20000 + 500 * (0.5 * 2 + 0.5 * 70),
		   1e-9);

	/*
	 * A one-node replay priced for two sockets: the writes are taken as
	 * spread evenly (p = 1/2 each): own 0.25, local 0.25, remote 0.5 ->
	 * write 0.25*2 + 0.25*90 + 0.5*220 = 133 ns; reads: 656.25 misses, half
	 * remote: (328.125*200 + 328.125*80 + 343.75*2) / 1000 = 92.5625 ns.
	 */
	f.n = 0;
	add(&f, "update_load_avg", 3000);
	add(&f, "update_tg_load_avg", 2000);
	add(&f, "tg_load_avg_writes", 500);
	add(&f, "tg_load_avg_writes.node0", 500);
	add(&f, "tg_load_avg_reads", 1000);
	cost_estimate_for(two, fake_get, &f, 1000000, 4, 1, false, &e);
	CHECK(e.spread_assumed);
	CHECK_EQ_U(e.nodes, 2);
	CHECK_NEAR(e.fn_ns[COST_FN_UPDATE_LOAD_AVG], 120000 + 20000 + 500 * 133.0, 1e-9);
	CHECK_NEAR(e.fn_ns[COST_FN_UPDATE_CFS_GROUP], 1000 * 92.5625, 1e-9);
	CHECK_NEAR(e.tg_remote_fraction, 0.385416666667, 1e-9);
	/* the same counters on a real two-node model: no assumption */
	cost_estimate_for(two, fake_get, &f, 1000000, 4, 2, false, &e);
	CHECK(!e.spread_assumed);
	CHECK_NEAR(e.tg_remote_fraction, 0, 1e-12);   /* all writes on node 0 */

	/* the rate limit's point: fewer writes, cheaper reads */
	{
		struct cost_estimate few;

		f.n = 0;
		add(&f, "tg_load_avg_reads", 100000);
		add(&f, "tg_load_avg_writes", 50000);
		cost_estimate(two, fake_get, &f, 1000000, 64, 2, false, &e);
		f.value[1] = 50;        /* 1000x fewer writes: ~3% of reads miss */
		cost_estimate(two, fake_get, &f, 1000000, 64, 2, false, &few);
		CHECK(few.fn_ns[COST_FN_UPDATE_CFS_GROUP] < e.fn_ns[COST_FN_UPDATE_CFS_GROUP] / 5);
		CHECK(few.tg_own_fraction > e.tg_own_fraction);
	}

	/* no writes: the line never moves, reads are own-cache hits */
	f.n = 0;
	add(&f, "update_cfs_group", 10);
	add(&f, "tg_load_avg_reads", 10);
	cost_estimate(two, fake_get, &f, 0, 4, 2, false, &e);
	CHECK_NEAR(e.fn_ns[COST_FN_UPDATE_CFS_GROUP], 10 * 15 + 10 * 2, 1e-9);
	CHECK_NEAR(e.total_share, 1.0, 1e-12);   /* busy 0: all of it */

	/* nothing at all */
	f.n = 0;
	cost_estimate(two, fake_get, &f, 0, 4, 2, false, &e);
	CHECK_NEAR(e.total_ns, 0, 0);
	CHECK_NEAR(e.total_share, 0, 0);
}

static int write_files(const char *dir)
{
	for (unsigned int i = 0; i < cost_machine_builtin_count(); i++) {
		const struct cost_machine *b = cost_machine_builtin_at(i);
		char file[128];
		FILE *f;

		snprintf(file, sizeof(file), "%s.json", b->name);
		f = fopen(path_in(dir, file), "w");
		if (!f || cost_machine_write_json(b, f) < 0 || fclose(f) != 0) {
			perror(path_in(dir, file));
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_files(argv[2]);
	if (argc != 3) {
		fprintf(stderr, "usage: %s MACHINES_DIR DATA_DIR | --write MACHINES_DIR\n", argv[0]);
		return 2;
	}
	test_files_match_builtins(argv[1]);
	test_load_errors(argv[2]);
	test_estimate();
	return check_done("variants_costmodel");
}
