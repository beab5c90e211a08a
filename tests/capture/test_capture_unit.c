// SPDX-License-Identifier: GPL-2.0
/*
 * Capture unit tests that need neither root nor tracefs:
 *   - --group parsing (accepted forms, every rejection), bandwidth limits
 *     included, and writing a limit into v1/v2 cgroup files,
 *   - command splitting (exec vs /bin/sh -c) and validation,
 *   - the trace.dat writer: ring-buffer pages built by hand, written with
 *     cap_tracedat_write, read back with libtracecmd (records, CPUs,
 *     timestamps, comms, trace id) and with cap_readback (markers, counts,
 *     the comms the records give that the cmdlines section lacks),
 *   - the sidecar loader on good and broken files.
 * Usage: test_capture_unit DATA_DIR SCRATCH_DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>

#include <schedreplay/sidecar.h>

#include "cap_local.h"

static int failures;

#define CHECK(cond)                                                             \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__,  \
				__LINE__, #cond);                               \
			failures++;                                             \
		}                                                               \
	} while (0)

#define CHECK_INT(a, b)                                                         \
	do {                                                                    \
		long long _a = (long long)(a), _b = (long long)(b);             \
		if (_a != _b) {                                                 \
			fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", \
				__FILE__, __LINE__, #a, _a, #b, _b);            \
			failures++;                                             \
		}                                                               \
	} while (0)

#define CHECK_STR(a, b)                                                         \
	do {                                                                    \
		const char *_a = (a), *_b = (b);                                \
		if (!_a || !_b || strcmp(_a, _b)) {                             \
			fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", \
				__FILE__, __LINE__, #a, _a ? _a : "(null)",     \
				_b ? _b : "(null)");                            \
			failures++;                                             \
		}                                                               \
	} while (0)

static const char *data_dir, *scratch;

/* ---- --group ---- */

static void test_group_parse(void)
{
	static const char *const bad[] = {
		"nocmd",                        /* no '=' */
		"a:shares=1=sleep 1",           /* below 2 */
		"a:shares=262145=sleep 1",      /* above the kernel's maximum */
		"a:weight=0=sleep 1",
		"a:weight=10001=sleep 1",
		"a:shares=-5=sleep 1",
		"a:shares=12x=sleep 1",         /* trailing garbage in the number */
		"a:shares=12",                  /* no command */
		"a:cpus=3=sleep 1",             /* unknown key */
		"=sleep 1",                     /* empty name */
		"bad/name=sleep 1",             /* '/' would escape the run cgroup */
		".hidden=sleep 1",
		"a=   ",                        /* blank command */
	};
	struct sr_error err;
	struct cap_group g;

	CHECK_INT(cap_group_parse("compile:shares=512=make -j8", &g, &err), 0);
	CHECK_STR(g.name, "compile");
	CHECK_INT(g.shares, 512);
	CHECK_INT(g.weight, 0);
	CHECK_STR(g.command, "make -j8");
	cap_group_release(&g);

	CHECK_INT(cap_group_parse("lat:weight=300=probe -r 5 --json", &g, &err), 0);
	CHECK_STR(g.name, "lat");
	CHECK_INT(g.weight, 300);
	CHECK_INT(g.shares, 0);
	CHECK_STR(g.command, "probe -r 5 --json");
	cap_group_release(&g);

	/* NAME=CMD: default weight; '=' inside the command is kept */
	CHECK_INT(cap_group_parse("x=env A=1 true", &g, &err), 0);
	CHECK_STR(g.name, "x");
	CHECK_INT(g.shares, 0);
	CHECK_STR(g.command, "env A=1 true");
	cap_group_release(&g);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		if (cap_group_parse(bad[i], &g, &err) == 0) {
			fprintf(stderr, "accepted bad --group '%s'\n", bad[i]);
			failures++;
			cap_group_release(&g);
		} else if (!strstr(err.msg, "--group")) {
			fprintf(stderr, "message for '%s' does not name --group: %s\n", bad[i], err.msg);
			failures++;
		}
	}
}

/*
 * --group with a CPU bandwidth limit: accepted forms (alone, with a period,
 * "no limit", combined with shares or weight in either order), and every
 * rejection with its exact message: the kernel's ranges (tg_set_cfs_bandwidth:
 * period 1 ms..1 s, quota >= 1 ms and <= 2^44 - 1 us) are refused here, before
 * anything is created.
 */
static void test_group_parse_quota(void)
{
	static const struct {
		const char *spec, *msg;
	} bad[] = {
		{ "a:quota=999=sleep 1",
		  "--group 'a:quota=999=sleep 1': quota must be 1000..17592186044415 us (1 ms or "
		  "more), or -1 or max for no limit" },
		{ "a:quota=17592186044416=sleep 1",
		  "--group 'a:quota=17592186044416=sleep 1': quota must be 1000..17592186044415 us "
		  "(1 ms or more), or -1 or max for no limit" },
		{ "a:quota=0=sleep 1",
		  "--group 'a:quota=0=sleep 1': quota must be 1000..17592186044415 us (1 ms or more), "
		  "or -1 or max for no limit" },
		{ "a:quota=20000/999=sleep 1",
		  "--group 'a:quota=20000/999=sleep 1': the quota period must be 1000..1000000 us "
		  "(1 ms to 1 s)" },
		{ "a:quota=20000/1000001=sleep 1",
		  "--group 'a:quota=20000/1000001=sleep 1': the quota period must be 1000..1000000 us "
		  "(1 ms to 1 s)" },
		{ "a:quota=-5=sleep 1",
		  "--group 'a:quota=-5=sleep 1': expected quota=QUOTA_US[/PERIOD_US] (or -1 or max) "
		  "followed by =CMD, e.g. quota=20000/100000=CMD" },
		{ "a:quota=20ms=sleep 1",
		  "--group 'a:quota=20ms=sleep 1': expected quota=QUOTA_US[/PERIOD_US] (or -1 or max) "
		  "followed by =CMD, e.g. quota=20000/100000=CMD" },
		{ "a:quota=20000/=sleep 1",
		  "--group 'a:quota=20000/=sleep 1': expected quota=QUOTA_US[/PERIOD_US] (or -1 or "
		  "max) followed by =CMD, e.g. quota=20000/100000=CMD" },
		{ "a:quota=20000",
		  "--group 'a:quota=20000': expected quota=QUOTA_US[/PERIOD_US] (or -1 or max) "
		  "followed by =CMD, e.g. quota=20000/100000=CMD" },
		{ "a:quota=maximum=sleep 1",
		  "--group 'a:quota=maximum=sleep 1': expected quota=QUOTA_US[/PERIOD_US] (or -1 or "
		  "max) followed by =CMD, e.g. quota=20000/100000=CMD" },
		{ "a:quota=20000,quota=30000=sleep 1",
		  "--group 'a:quota=20000,quota=30000=sleep 1': quota given twice" },
		{ "a:shares=512,weight=50=sleep 1",
		  "--group 'a:shares=512,weight=50=sleep 1': give one of shares or weight, once" },
		{ "a:shares=512,shares=50=sleep 1",
		  "--group 'a:shares=512,shares=50=sleep 1': give one of shares or weight, once" },
		{ "a:shares=512,cpus=2=sleep 1",
		  "--group 'a:shares=512,cpus=2=sleep 1': unknown key 'cpus' (shares, weight or "
		  "quota)" },
		{ "a:shares=1,quota=20000=sleep 1",
		  "--group 'a:shares=1,quota=20000=sleep 1': shares must be 2..262144" },
		{ "a:quota=20000,shares=512",
		  "--group 'a:quota=20000,shares=512': the value after shares= must be a number "
		  "followed by =CMD" },
		{ "a:shares=512,quota",
		  "--group 'a:shares=512,quota': expected KEY=VALUE after 'a:shares=512,'" },
		{ "a:quota=99999999999999999999999=sleep 1",
		  "--group 'a:quota=99999999999999999999999=sleep 1': quota must be "
		  "1000..17592186044415 us (1 ms or more), or -1 or max for no limit" },
	};
	struct sr_error err;
	struct cap_group g;

	CHECK_INT(cap_group_parse("bw:quota=20000=stress-ng --cpu 2", &g, &err), 0);
	CHECK_STR(g.name, "bw");
	CHECK_INT(g.quota_us, 20000);
	CHECK_INT(g.period_us, 0);          /* the kernel's default period */
	CHECK_INT(g.shares, 0);
	CHECK_INT(g.weight, 0);
	CHECK_STR(g.command, "stress-ng --cpu 2");
	cap_group_release(&g);

	CHECK_INT(cap_group_parse("bw:quota=20000/100000=sh -c 'x=1; y=2'", &g, &err), 0);
	CHECK_INT(g.quota_us, 20000);
	CHECK_INT(g.period_us, 100000);
	CHECK_STR(g.command, "sh -c 'x=1; y=2'");
	cap_group_release(&g);

	/* the kernel's bounds are accepted */
	CHECK_INT(cap_group_parse("b:quota=1000/1000=true", &g, &err), 0);
	CHECK_INT(g.quota_us, 1000);
	CHECK_INT(g.period_us, 1000);
	cap_group_release(&g);
	CHECK_INT(cap_group_parse("b:quota=17592186044415/1000000=true", &g, &err), 0);
	CHECK_INT(g.quota_us, 17592186044415LL);
	CHECK_INT(g.period_us, 1000000);
	cap_group_release(&g);

	/* no limit, written as v1 (-1) or v2 (max) spells it, period kept */
	CHECK_INT(cap_group_parse("c:quota=-1=true", &g, &err), 0);
	CHECK_INT(g.quota_us, -1);
	CHECK_INT(g.period_us, 0);
	cap_group_release(&g);
	CHECK_INT(cap_group_parse("c:quota=max/50000=true", &g, &err), 0);
	CHECK_INT(g.quota_us, -1);
	CHECK_INT(g.period_us, 50000);
	cap_group_release(&g);

	/* combined with shares or weight, in either order */
	CHECK_INT(cap_group_parse("d:shares=512,quota=20000=make -j2", &g, &err), 0);
	CHECK_STR(g.name, "d");
	CHECK_INT(g.shares, 512);
	CHECK_INT(g.weight, 0);
	CHECK_INT(g.quota_us, 20000);
	CHECK_STR(g.command, "make -j2");
	cap_group_release(&g);
	CHECK_INT(cap_group_parse("e:quota=50000/200000,weight=300=probe -r 5", &g, &err), 0);
	CHECK_INT(g.weight, 300);
	CHECK_INT(g.shares, 0);
	CHECK_INT(g.quota_us, 50000);
	CHECK_INT(g.period_us, 200000);
	CHECK_STR(g.command, "probe -r 5");
	cap_group_release(&g);

	/* the old forms set no limit */
	CHECK_INT(cap_group_parse("f:shares=2048=true", &g, &err), 0);
	CHECK_INT(g.quota_us, 0);
	CHECK_INT(g.period_us, 0);
	cap_group_release(&g);
	CHECK_INT(cap_group_parse("f=env quota=1 true", &g, &err), 0);
	CHECK_INT(g.quota_us, 0);
	CHECK_STR(g.command, "env quota=1 true");
	cap_group_release(&g);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		if (cap_group_parse(bad[i].spec, &g, &err) == 0) {
			fprintf(stderr, "accepted bad --group '%s'\n", bad[i].spec);
			failures++;
			cap_group_release(&g);
			continue;
		}
		CHECK_STR(err.msg, bad[i].msg);
	}
}

/* Create @dir/@file with @text (a cgroup file as the kernel shows it). */
static void put_file(const char *dir, const char *file, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void get_file(const char *dir, const char *file, char *buf, size_t size)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	buf[0] = '\0';
	CHECK_INT(cap_read_line(path, buf, size), 0);
}

/*
 * Writing a limit, on directories that stand in for cgroups (regular files
 * take the writes, nothing checks them, so what is read back is what was
 * written): v1 writes cpu.cfs_period_us and cpu.cfs_quota_us, v2 writes
 * cpu.max "QUOTA PERIOD"; a group without a limit touches neither; a
 * directory without the files (a kernel without CONFIG_CFS_BANDWIDTH) fails
 * with one line that says so.
 */
static void test_cgroup_bandwidth(void)
{
	struct cap_group g = { .name = "bw", .quota_us = 20000, .period_us = 50000 };
	struct cap_cgroup_set set;
	struct sr_error err = { 0 };
	char v1[4096], v2[4096], none[4096], buf[128], msg[8192];

	snprintf(v1, sizeof(v1), "%s/cg-v1", scratch);
	snprintf(v2, sizeof(v2), "%s/cg-v2", scratch);
	snprintf(none, sizeof(none), "%s/cg-nobw", scratch);
	mkdir(v1, 0755);
	mkdir(v2, 0755);
	mkdir(none, 0755);

	/* v1: both files; the period first (the quota as given) */
	put_file(v1, "cpu.cfs_quota_us", "");
	put_file(v1, "cpu.cfs_period_us", "");
	CHECK_INT(cap_cgroup_set_bandwidth(1, v1, &g, &set, &err), 0);
	get_file(v1, "cpu.cfs_quota_us", buf, sizeof(buf));
	CHECK_STR(buf, "20000");
	get_file(v1, "cpu.cfs_period_us", buf, sizeof(buf));
	CHECK_STR(buf, "50000");
	CHECK_INT(set.quota_us, 20000);
	CHECK_INT(set.period_us, 50000);

	/* v1, no period given: only the quota is written */
	put_file(v1, "cpu.cfs_quota_us", "");
	put_file(v1, "cpu.cfs_period_us", "100000");
	g.period_us = 0;
	CHECK_INT(cap_cgroup_set_bandwidth(1, v1, &g, &set, &err), 0);
	get_file(v1, "cpu.cfs_quota_us", buf, sizeof(buf));
	CHECK_STR(buf, "20000");
	CHECK_INT(set.quota_us, 20000);
	CHECK_INT(set.period_us, 100000);

	/* v2: one cpu.max line, the default period spelt out */
	put_file(v2, "cpu.max", "");
	CHECK_INT(cap_cgroup_set_bandwidth(2, v2, &g, &set, &err), 0);
	get_file(v2, "cpu.max", buf, sizeof(buf));
	CHECK_STR(buf, "20000 100000");
	CHECK_INT(set.quota_us, 20000);
	CHECK_INT(set.period_us, 100000);
	g.quota_us = -1;
	g.period_us = 40000;
	put_file(v2, "cpu.max", "");
	CHECK_INT(cap_cgroup_set_bandwidth(2, v2, &g, &set, &err), 0);
	get_file(v2, "cpu.max", buf, sizeof(buf));
	CHECK_STR(buf, "max 40000");
	CHECK_INT(set.quota_us, -1);         /* no limit: the sidecar records none */

	/* no limit asked: nothing touched, even where the files are missing */
	g.quota_us = 0;
	g.period_us = 0;
	CHECK_INT(cap_cgroup_set_bandwidth(1, none, &g, &set, &err), 0);
	CHECK_INT(cap_cgroup_set_bandwidth(2, none, &g, &set, &err), 0);
	CHECK_INT(set.quota_us, -1);

	/* no CONFIG_CFS_BANDWIDTH */
	g.quota_us = 20000;
	CHECK_INT(cap_cgroup_set_bandwidth(1, none, &g, &set, &err), -1);
	snprintf(msg, sizeof(msg), "--group bw: quota needs CPU bandwidth control, which this "
		 "kernel lacks (no %s/cpu.cfs_quota_us: CONFIG_CFS_BANDWIDTH is off); drop quota= "
		 "from --group", none);
	CHECK_STR(err.msg, msg);
	CHECK_INT(err.code, ENOTSUP);
	CHECK_INT(cap_cgroup_set_bandwidth(2, none, &g, &set, &err), -1);
	snprintf(msg, sizeof(msg), "--group bw: quota needs CPU bandwidth control, which this "
		 "kernel lacks (no %s/cpu.max: CONFIG_CFS_BANDWIDTH is off); drop quota= from "
		 "--group", none);
	CHECK_STR(err.msg, msg);
}

/* ---- commands and validation ---- */

static void test_commands(void)
{
	struct cap_options opt = { .output = NULL };
	struct cap_group g = { .name = "a", .shares = 1024 };
	struct sr_error err;
	char out[4096];
	char *argv_ok[] = { "true", NULL };
	char *argv_missing[] = { "schedreplay-no-such-command", NULL };
	char *events[] = { "sched", NULL };
	bool shell;
	char **argv;

	argv = cap_command_argv("make  -j8\tall", &shell);
	CHECK(argv && !shell);
	if (argv) {
		CHECK_STR(argv[0], "make");
		CHECK_STR(argv[1], "-j8");
		CHECK_STR(argv[2], "all");
		CHECK(argv[3] == NULL);
	}
	cap_argv_free(argv);
	argv = cap_command_argv("while :; do true; done > /dev/null", &shell);
	CHECK(argv && shell);
	if (argv) {
		CHECK_STR(argv[0], "/bin/sh");
		CHECK_STR(argv[1], "-c");
		CHECK_STR(argv[2], "while :; do true; done > /dev/null");
	}
	cap_argv_free(argv);

	CHECK_INT(cap_command_check("sh"), 0);
	CHECK_INT(cap_command_check("schedreplay-no-such-command"), -1);
	CHECK_INT(cap_command_check("/nonexistent/bin/x"), -1);

	snprintf(out, sizeof(out), "%s/v.dat", scratch);
	opt.output = out;
	CHECK_INT(cap_validate(&opt, &err), -1);             /* nothing to record */
	CHECK(strstr(err.msg, "nothing to record") != NULL);
	opt.duration_s = 1;
	CHECK_INT(cap_validate(&opt, &err), 0);
	opt.duration_s = -1;
	CHECK_INT(cap_validate(&opt, &err), -1);
	opt.duration_s = 1;
	opt.argv = argv_missing;
	CHECK_INT(cap_validate(&opt, &err), -1);
	CHECK(strstr(err.msg, "schedreplay-no-such-command") != NULL);
	opt.argv = argv_ok;
	CHECK_INT(cap_validate(&opt, &err), 0);
	opt.events = events;
	opt.nr_events = 1;
	CHECK_INT(cap_validate(&opt, &err), -1);             /* not SYSTEM:EVENT */
	opt.nr_events = 0;
	g.command = "schedreplay-no-such-command --x";
	opt.groups = &g;
	opt.nr_groups = 1;
	CHECK_INT(cap_validate(&opt, &err), -1);
	CHECK(strstr(err.msg, "not found") != NULL);
	/* a limit outside the kernel's range, from a caller that did not parse */
	g.quota_us = 500;
	CHECK_INT(cap_validate(&opt, &err), -1);
	CHECK_STR(err.msg, "--group a: quota 500 us per period 0 us is outside the kernel's "
		  "limits (quota 1000..17592186044415 or -1, period 1000..1000000)");
	g.quota_us = 20000;
	g.period_us = 2000000;
	CHECK_INT(cap_validate(&opt, &err), -1);
	CHECK(strstr(err.msg, "outside the kernel's limits") != NULL);
	g.quota_us = 0;
	g.period_us = 0;
	opt.nr_groups = 0;
	opt.output = "/nonexistent-dir/x.dat";
	CHECK_INT(cap_validate(&opt, &err), -1);
	CHECK(strstr(err.msg, "/nonexistent-dir") != NULL);
	/* a directory as OUT: refused before recording (it failed only at the end) */
	opt.output = scratch;
	CHECK_INT(cap_validate(&opt, &err), -1);
	snprintf(out, sizeof(out), "%s: is a directory, not a trace file name (-o OUT.dat)",
		 scratch);
	CHECK_STR(err.msg, out);
	snprintf(out, sizeof(out), "%s/new-dir/", scratch);
	opt.output = out;
	CHECK_INT(cap_validate(&opt, &err), -1);
	CHECK(strstr(err.msg, "is a directory") != NULL);
}

/* ---- trace.dat writer ---- */

#define PAGE 4096

struct page {
	unsigned char b[PAGE];
	size_t len;               /* bytes of data after the 16-byte header */
	unsigned long long last;  /* timestamp of the last record */
};

static void page_init(struct page *p, unsigned long long ts)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->b, &ts, 8);
	p->last = ts;
}

/* Append an ftrace:print record (type id 5 in the fixture's format). */
static void page_add_print(struct page *p, unsigned long long ts, int pid, const char *text)
{
	size_t tlen = strlen(text) + 1;
	size_t size = (16 + tlen + 3) & ~(size_t)3;
	unsigned char *d = p->b + 16 + p->len;
	uint32_t delta = (uint32_t)(ts - p->last);
	uint32_t hdr = (uint32_t)(size / 4) | delta << 5;    /* type_len = size / 4 */
	uint16_t type = 5;
	uint64_t ip = 0xffffffff81000000ull;
	int32_t pid32 = pid;
	uint64_t commit;

	memcpy(d, &hdr, 4);
	memcpy(d + 4, &type, 2);
	memcpy(d + 8, &pid32, 4);
	memcpy(d + 12, &ip, 8);
	memcpy(d + 20, text, tlen);
	p->len += 4 + size;
	p->last = ts;
	commit = p->len;
	memcpy(p->b + 8, &commit, 8);
}

/*
 * Append a record of event @type: the common fields, then @len bytes of
 * @fields (the event's own fields from offset 8 on).
 */
static void page_add_record(struct page *p, unsigned long long ts, uint16_t type, int pid,
			    const void *fields, size_t len)
{
	size_t size = (8 + len + 3) & ~(size_t)3;
	unsigned char *d = p->b + 16 + p->len;
	uint32_t delta = (uint32_t)(ts - p->last);
	uint32_t hdr = (uint32_t)(size / 4) | delta << 5;
	int32_t pid32 = pid;
	uint64_t commit;

	memset(d, 0, 4 + size);
	memcpy(d, &hdr, 4);
	memcpy(d + 4, &type, 2);
	memcpy(d + 8, &pid32, 4);
	memcpy(d + 12, fields, len);
	p->len += 4 + size;
	p->last = ts;
	commit = p->len;
	memcpy(p->b + 8, &commit, 8);
}

/* sched_switch of the fixture (ID 372): char[16] comms at 8 and 40. */
static void page_add_switch(struct page *p, unsigned long long ts, const char *prev_comm,
			    int prev_pid, const char *next_comm, int next_pid)
{
	unsigned char f[56] = { 0 };       /* offsets 8..63 */
	int32_t prio = 120;
	int64_t state = 1;

	strncpy((char *)f, prev_comm, 15);
	memcpy(f + 16, &prev_pid, 4);
	memcpy(f + 20, &prio, 4);
	memcpy(f + 24, &state, 8);
	strncpy((char *)f + 32, next_comm, 15);
	memcpy(f + 48, &next_pid, 4);
	memcpy(f + 52, &prio, 4);
	page_add_record(p, ts, 372, prev_pid, f, sizeof(f));
}

/* sched_process_fork of the fixture (ID 366): __data_loc comms. */
static void page_add_fork(struct page *p, unsigned long long ts, const char *parent, int ppid,
			  const char *child, int cpid)
{
	unsigned char f[64] = { 0 };
	uint32_t pl = (uint32_t)strlen(parent) + 1, cl = (uint32_t)strlen(child) + 1;
	/* __data_loc: offset in the record (low 16 bits), length (high 16) */
	uint32_t ploc = 24 | pl << 16, cloc = (24 + pl) | cl << 16;

	memcpy(f, &ploc, 4);
	memcpy(f + 4, &ppid, 4);
	memcpy(f + 8, &cloc, 4);
	memcpy(f + 12, &cpid, 4);
	memcpy(f + 16, parent, pl);
	memcpy(f + 16 + pl, child, cl);
	page_add_record(p, ts, 366, ppid, f, 16 + pl + cl);
}

static void write_pages(const char *path, struct page *pages, int n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	CHECK(fd >= 0);
	for (int i = 0; i < n; i++)
		CHECK(write(fd, pages[i].b, PAGE) == PAGE);
	close(fd);
}

struct seen {
	int n;
	unsigned long long ts[8];
	int cpu[8];
	int pid[8];
};

static int collect(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	struct seen *s = data;

	(void)h;
	if (s->n < 8) {
		s->ts[s->n] = r->ts;
		s->cpu[s->n] = cpu;
		s->pid[s->n] = (int)*(int32_t *)((char *)r->data + 4);
	}
	s->n++;
	return 0;
}

static void test_tracedat(void)
{
	char tracing[4096], f0[4096], f1[4096], out[4096];
	const char *files[2] = { f0, f1 };
	struct cap_cpu_stats stats[2] = {
		{ .cpu = 0, .text = "CPU: 0\nentries: 0\noverrun: 0\n" },
		{ .cpu = 1, .text = "CPU: 1\nentries: 0\noverrun: 0\n" },
	};
	struct cap_tracedat td = { 0 };
	struct cap_readback rb;
	struct page p0[2], p1;
	struct tracecmd_input *h;
	struct sr_error err;
	struct seen s = { 0 };
	struct stat st;

	snprintf(tracing, sizeof(tracing), "%s/tracing", data_dir);
	snprintf(f0, sizeof(f0), "%s/cpu0.raw", scratch);
	snprintf(f1, sizeof(f1), "%s/cpu1.raw", scratch);
	snprintf(out, sizeof(out), "%s/unit.dat", scratch);

	/* CPU 0: two pages; CPU 1: one page. Timestamps in ns. */
	page_init(&p0[0], 1000000);
	page_add_print(&p0[0], 1000000, 42, "schedreplay-capture: start");
	page_add_print(&p0[0], 1500000, 42, "hello");
	page_init(&p0[1], 3000000);
	page_add_print(&p0[1], 3000000, 42, "schedreplay-capture: end");
	page_init(&p1, 1200000);
	page_add_print(&p1, 1200000, 77, "other cpu");
	write_pages(f0, p0, 2);
	write_pages(f1, &p1, 1);

	td.tracing_dir = tracing;
	td.systems = NULL;
	td.nr_systems = 0;
	td.cmdlines = "42 probe\n77 make\n";
	td.nr_cpus = 2;
	td.cpu_files = files;
	td.page_size = PAGE;
	td.trace_clock = NULL;      /* ns clock: no TRACECLOCK option */
	td.stats = stats;
	td.uname = "Linux test 6.18.0 x86_64";
	td.version = "schedreplay test";
	td.trace_id = 0x1234abcd5678ef90ull;
	CHECK_INT(cap_tracedat_write(out, &td, &err), 0);
	CHECK_INT(stat(out, &st), 0);
	/* header, then page-aligned CPU data: 2 + 1 pages */
	CHECK(st.st_size >= 3 * PAGE);
	CHECK_INT(st.st_size % PAGE, 0);

	h = tracecmd_open(out, TRACECMD_FL_LOAD_NO_PLUGINS);
	CHECK(h != NULL);
	if (h) {
		struct tep_handle *tep = tracecmd_get_tep(h);

		CHECK_INT(tracecmd_get_traceid(h), (long long)0x1234abcd5678ef90ull);
		CHECK_STR(tep_data_comm_from_pid(tep, 42), "probe");
		CHECK_STR(tep_data_comm_from_pid(tep, 77), "make");
		tracecmd_iterate_events(h, NULL, 0, collect, &s);
		CHECK_INT(s.n, 4);
		/* merged in time order across CPUs */
		CHECK_INT(s.ts[0], 1000000);
		CHECK_INT(s.cpu[0], 0);
		CHECK_INT(s.ts[1], 1200000);
		CHECK_INT(s.cpu[1], 1);
		CHECK_INT(s.pid[1], 77);
		CHECK_INT(s.ts[2], 1500000);
		CHECK_INT(s.ts[3], 3000000);
		CHECK_INT(s.cpu[3], 0);
		tracecmd_close(h);
	}
	CHECK_INT(cap_readback(out, 2, "schedreplay-capture: start", "schedreplay-capture: end",
			       &rb, &err), 0);
	CHECK_INT(rb.events, 4);
	CHECK(rb.have_start && rb.have_end);
	CHECK_INT(rb.start_ts, 1000000);
	CHECK_INT(rb.end_ts, 3000000);
	CHECK_INT(json_integer_value(json_object_get(rb.per_event, "print")), 4);
	CHECK_INT(rb.missed_pages, 0);
	CHECK_INT(rb.nr_cpus, 2);
	CHECK_INT(rb.to_idle[0] + rb.from_idle[1], 0);   /* no sched_switch here */
	cap_readback_release(&rb);

	/* a missing CPU file is an error naming it, and leaves no output behind */
	unlink(out);
	snprintf(f1, sizeof(f1), "%s/no-such.raw", scratch);
	CHECK_INT(cap_tracedat_write(out, &td, &err), -1);
	CHECK(strstr(err.msg, "no-such.raw") != NULL);
	CHECK(access(out, F_OK) != 0);
	unlink(f0);
}

/*
 * The comms the records give for pids the cmdlines section lacks (the
 * capture adds them: KernelShark shows "<...>" otherwise): fixed and
 * __data_loc comm fields, the latest comm of a pid wins, pids the section
 * has and the idle task are left alone; written again with them, the file
 * names every task and nothing is missing.
 */
static void test_tracedat_comms(void)
{
	char tracing[4096], f0[4096], f1[4096], out[4096], *all = NULL;
	const char *files[2] = { f0, f1 };
	const char *systems[1] = { "sched" };
	struct cap_tracedat td = { 0 };
	struct cap_readback rb;
	struct page p0, p1;
	struct tracecmd_input *h;
	struct sr_error err;

	snprintf(tracing, sizeof(tracing), "%s/tracing", data_dir);
	snprintf(f0, sizeof(f0), "%s/comm0.raw", scratch);
	snprintf(f1, sizeof(f1), "%s/comm1.raw", scratch);
	snprintf(out, sizeof(out), "%s/comms.dat", scratch);

	page_init(&p0, 1000000);
	page_add_print(&p0, 1000000, 42, "schedreplay-capture: start");
	page_add_switch(&p0, 1000100, "probe", 42, "kworker/0:1", 99);
	page_add_fork(&p0, 1000200, "make", 77, "make", 123);
	page_add_print(&p0, 2000000, 42, "schedreplay-capture: end");
	page_init(&p1, 1000300);
	/* 123 exec'ed: its latest comm is cc1 */
	page_add_switch(&p1, 1000300, "swapper/1", 0, "cc1", 123);
	page_add_switch(&p1, 1000400, "cc1", 123, "make", 77);
	write_pages(f0, &p0, 1);
	write_pages(f1, &p1, 1);

	td.tracing_dir = tracing;
	td.systems = systems;
	td.nr_systems = 1;
	td.cmdlines = "42 probe\n77 make\n";
	td.nr_cpus = 2;
	td.cpu_files = files;
	td.page_size = PAGE;
	td.trace_id = 1;
	CHECK_INT(cap_tracedat_write(out, &td, &err), 0);
	CHECK_INT(cap_readback(out, 2, "schedreplay-capture: start", "schedreplay-capture: end",
			       &rb, &err), 0);
	CHECK_INT(rb.events, 6);
	CHECK_INT(rb.missing_comms, 2);
	CHECK(rb.missing_cmdlines != NULL);
	if (rb.missing_cmdlines) {
		CHECK(strstr(rb.missing_cmdlines, "99 kworker/0:1\n") != NULL);
		CHECK(strstr(rb.missing_cmdlines, "123 cc1\n") != NULL);
		CHECK_INT(strlen(rb.missing_cmdlines),
			  strlen("99 kworker/0:1\n") + strlen("123 cc1\n"));
		CHECK(asprintf(&all, "%s%s", td.cmdlines, rb.missing_cmdlines) > 0);
	}
	cap_readback_release(&rb);
	if (!all)
		return;

	td.cmdlines = all;
	CHECK_INT(cap_tracedat_write(out, &td, &err), 0);
	CHECK_INT(cap_readback(out, 2, "schedreplay-capture: start", "schedreplay-capture: end",
			       &rb, &err), 0);
	CHECK(rb.missing_cmdlines == NULL);
	CHECK_INT(rb.missing_comms, 0);
	CHECK_INT(rb.events, 6);
	cap_readback_release(&rb);
	h = tracecmd_open(out, TRACECMD_FL_LOAD_NO_PLUGINS);
	CHECK(h != NULL);
	if (h) {
		struct tep_handle *tep = tracecmd_get_tep(h);

		CHECK_STR(tep_data_comm_from_pid(tep, 42), "probe");
		CHECK_STR(tep_data_comm_from_pid(tep, 77), "make");
		CHECK_STR(tep_data_comm_from_pid(tep, 99), "kworker/0:1");
		CHECK_STR(tep_data_comm_from_pid(tep, 123), "cc1");
		tracecmd_close(h);
	}
	free(all);
	unlink(out);
	unlink(f0);
	unlink(f1);
}

/* ---- sidecar loader ---- */

static void test_sidecar(void)
{
	char path[4096];
	struct sr_error err;
	struct sidecar *sc;
	int64_t fc = 0;

	snprintf(path, sizeof(path), "%s/sidecar-good.json", data_dir);
	sc = sidecar_load(path, &err);
	CHECK(sc != NULL);
	if (!sc) {
		fprintf(stderr, "  %s\n", err.msg);
		return;
	}
	CHECK_INT(sc->schema_version, 1);
	CHECK_STR(sc->kernel_release, "6.18.44-fc-v857");
	CHECK_INT(sc->hz, 250);
	CHECK_STR(sc->no_hz, "idle");
	CHECK_INT(sc->nr_cpus, 2);
	CHECK_INT(sc->cpus[1].numa_node, 0);
	CHECK_INT(sc->cpus[1].core, 1);
	CHECK_INT(sc->trace_id, (long long)0xcae89dc0fd7f7907ull);
	CHECK(sc->have_window);
	CHECK_INT(sc->end_ts - sc->start_ts, 1000184761);
	CHECK(sc->autogroup_enabled);
	CHECK_INT(sc->cgroup_version, 1);
	CHECK_STR(sidecar_cgroup_of(sc, 10101), "/schedreplay-10100/probe");
	CHECK_STR(sidecar_cgroup_of(sc, 1), "/");
	CHECK(sidecar_cgroup_of(sc, 999999) == NULL);
	CHECK_INT(sidecar_task(sc, 10102)->autogroup, 7);
	CHECK_INT(sidecar_find_cgroup(sc, "/schedreplay-10100/probe")->shares, 2048);
	CHECK_INT(sidecar_find_cgroup(sc, "/schedreplay-10100/probe")->weight, 200);
	CHECK_INT(sidecar_find_group(sc, "hog")->shares, 512);
	CHECK_STR(sidecar_find_group(sc, "hog")->cgroup, "/schedreplay-10100/hog");
	CHECK(!sc->funcs_available);
	CHECK(strstr(sc->funcs_reason, "Operation not permitted") != NULL);
	CHECK(!sidecar_funcs_get(sc->funcs, sc->nr_funcs, "update_curr", &fc));
	CHECK_INT(sc->lost_events, 0);
	CHECK(!sc->cpus[1].idle_exit_untraced);          /* not recorded: unknown */
	CHECK_INT(sc->cpus[1].to_idle, -1);
	sidecar_free(sc);

	snprintf(path, sizeof(path), "%s/sidecar-funcs.json", data_dir);
	sc = sidecar_load(path, &err);
	CHECK(sc != NULL);
	if (sc) {
		CHECK(sc->funcs_available);
		CHECK(sidecar_funcs_get(sc->funcs, sc->nr_funcs, "update_curr", &fc));
		CHECK_INT(fc, 123456);
		CHECK(sidecar_funcs_get(sc->funcs, sc->nr_funcs, "update_tg_load_avg", &fc));
		CHECK_INT(fc, -1);      /* listed, not traceable */
		CHECK(!sidecar_funcs_get(sc->funcs, sc->nr_funcs, "no_such_function", &fc));
		CHECK_INT(sc->lost_events, 17);
		CHECK(!sc->cpus[0].idle_exit_untraced);
		CHECK(sc->cpus[1].idle_exit_untraced);
		CHECK_INT(sc->cpus[1].to_idle, 414);
		CHECK_INT(sc->cpus[1].from_idle, 0);
		sidecar_free(sc);
	}

	struct { const char *file, *msg; } bad[] = {
		{ "sidecar-newer.json", "newer than this schedreplay reads" },
		{ "sidecar-notours.json", "not a schedreplay sidecar" },
		{ "sidecar-nocpus.json", "cpus.topology" },
		{ "sidecar-badcpu.json", "cpus.topology[1].cpu 5 out of range" },
		{ "sidecar-truncated.json", "line" },
		{ "no-such-file.json", "No such file" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", data_dir, bad[i].file);
		memset(&err, 0, sizeof(err));
		sc = sidecar_load(path, &err);
		if (sc) {
			fprintf(stderr, "loaded bad sidecar %s\n", bad[i].file);
			failures++;
			sidecar_free(sc);
		} else if (!strstr(err.msg, bad[i].msg) || !strstr(err.msg, bad[i].file)) {
			fprintf(stderr, "%s: message \"%s\" lacks \"%s\" or the file name\n",
				bad[i].file, err.msg, bad[i].msg);
			failures++;
		}
	}
	snprintf(path, sizeof(path), "%s/no-such-trace.dat", data_dir);
	CHECK(sidecar_load_for_trace(path, &err) == NULL);
	CHECK_INT(err.code, ENOENT);
}

/* The state letter of /proc/@pid/stat, or 0. */
static char state_of(pid_t pid)
{
	char path[64], buf[512], *rp = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f))
		rp = strrchr(buf, ')');
	fclose(f);
	return rp && rp[1] == ' ' ? rp[2] : 0;
}

/*
 * cap_proc_spawn() returns only once the child sleeps in its read of the go pipe, so the
 * cgroup moves that follow it move a sleeping task (no run inside its new group before the
 * release).  Right after a fork the child is runnable or has not run yet; 20 spawns all asleep
 * at once is what the wait gives.  Then each is released and runs `true`.
 */
static void test_spawn_asleep(void)
{
	char *argv[] = { "true", NULL };
	struct sr_error err = { 0 };
	int asleep = 0;

	for (int i = 0; i < 20; i++) {
		struct cap_proc p = { .label = "command", .argv = argv };
		int status = -1;

		if (cap_proc_spawn(&p, &err) < 0) {
			CHECK(!"cap_proc_spawn failed");
			return;
		}
		asleep += state_of(p.pid) == 'S';
		CHECK(cap_proc_release(&p, &err) == 0);
		CHECK(waitpid(p.pid, &status, 0) == p.pid);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	CHECK_INT(asleep, 20);
}

/* The capture's log: the lines and how many were warnings. */
struct log_lines {
	int n, warnings;
	char last[1024];
};

static void log_line(void *ctx, bool warning, const char *line)
{
	struct log_lines *l = ctx;

	l->n++;
	l->warnings += warning;
	snprintf(l->last, sizeof(l->last), "%s", line);
}

/*
 * The sidecar the capture writes against the loader's bounds: one over them
 * (130 000 threads of tasks_at_start, as the capture writes them: 17 MiB) is
 * written whole, with one warning naming the file, the loader's
 * reason and what to do; the loader then refuses it with the same reason.
 * One within them: no warning, and it loads.  The capture wrote a sidecar
 * report and replay refuse without a word.
 */
static void test_sidecar_bound(void)
{
	struct log_lines l = { 0 };
	struct cap_options opt = { .log = log_line, .log_ctx = &l };
	char part[4096], path[4096];
	json_t *side = json_object(), *tasks = json_array();
	struct sr_error err = { 0 };
	struct sidecar *sc;
	char *want;

	CHECK(side && tasks);	/* ~150 bytes a thread: over 16 MiB at 112 000 */
	if (!side || !tasks)
		return;
	for (int i = 0; i < 130000; i++)
		json_array_append_new(tasks, json_pack("{s:i, s:i, s:s, s:i, s:i, s:i, s:s, s:i, s:i}",
						       "pid", 1000 + i, "tgid", 1000 + i, "comm", "t",
						       "policy", 0, "nice", 0, "cpu", 0,
						       "cgroup", "/", "autogroup", 1,
						       "autogroup_nice", 0));
	json_object_set_new(side, "schema", json_string("schedreplay-sidecar"));
	json_object_set_new(side, "tasks_at_start", tasks);
	snprintf(part, sizeof(part), "%s/big.part", scratch);
	snprintf(path, sizeof(path), "%s/big.dat.json", scratch);
	CHECK_INT(cap_sidecar_dump(&opt, side, part, path, &err), 0);
	CHECK_INT(l.n, 1);
	CHECK_INT(l.warnings, 1);
	CHECK(strstr(l.last, path) == l.last);
	CHECK(strstr(l.last, "bytes, over the sidecar maximum of 16 MiB: ") != NULL);
	CHECK(strstr(l.last, "report and replay will refuse it (give them --no-sidecar") != NULL);
	CHECK(strchr(l.last, '\n') == NULL);
	CHECK(access(part, F_OK) != 0);
	sc = sidecar_load(path, &err);
	CHECK(sc == NULL);
	sidecar_free(sc);
	/* the loader's reason is the warning's (its first part) */
	if ((want = strstr(l.last, ": report and replay"))) {
		*want = 0;
		CHECK(strcmp(err.msg, l.last) == 0);
		if (strcmp(err.msg, l.last))
			fprintf(stderr, "  loader: %s\n  capture: %s\n", err.msg, l.last);
	}
	unlink(path);

	/* within the bounds: silent */
	l.n = l.warnings = 0;
	json_array_clear(tasks);
	json_array_append_new(tasks, json_pack("{s:i}", "pid", 1));
	CHECK_INT(cap_sidecar_dump(&opt, side, part, path, &err), 0);
	CHECK_INT(l.n, 0);
	CHECK(access(path, F_OK) == 0);
	unlink(path);
	/* under 16 MiB, over the values: the other bound, as the loader counts it */
	for (int i = 0; i < 1100000; i++)
		json_array_append_new(tasks, json_integer(0));
	CHECK_INT(cap_sidecar_dump(&opt, side, part, path, &err), 0);
	CHECK_INT(l.warnings, 1);
	CHECK(strstr(l.last, "more than 1048576 JSON values in its first") != NULL);
	sc = sidecar_load(path, &err);
	CHECK(sc == NULL);
	sidecar_free(sc);
	CHECK(strstr(err.msg, "more than 1048576 JSON values in its first") != NULL);
	unlink(path);
	json_decref(side);
}

/*
 * cap_sched_parse() on damaged text (fuzz41): the real file cut at every
 * byte (only whole lines read: each value kept is the whole text's), each
 * byte flipped in turn (at most the flipped line's field lost or changed,
 * never another's), values past what the kernel prints (null: the loader
 * refuses them, so a capture would write a sidecar its own replay rejects),
 * a number of 100 000 digits, and 8 MiB of repeated lines (the first of each
 * field kept).  Under ASan any read past the text fails the test.
 */
static void sched_parse_robust(const char *dir)
{
	char path[4096], *text, *cut, *big;
	size_t len, blen = 8u << 20;
	struct cap_sched all, s;
	int nall, changed_max = 0;

	snprintf(path, sizeof(path), "%s/proc-sched-sleep.txt", dir);
	if (!(text = cap_read_file(path, &len)))
		return;
	nall = cap_sched_parse(text, &all);
	cut = malloc(len + 1);
	if (!cut) {
		free(text);
		return;
	}
	for (size_t n = 0; n <= len; n++) {
		int found, kept = 0;

		memcpy(cut, text, n);
		cut[n] = '\0';
		found = cap_sched_parse(cut, &s);
		for (int f = 0; f < SIDECAR_SCHED_NR; f++)
			if (s.have[f]) {
				kept++;
				if (!all.have[f] || s.v[f] != all.v[f])
					changed_max = 99;
			}
		if (found != kept || found > nall)
			changed_max = 99;
	}
	CHECK_INT(changed_max, 0);
	for (size_t i = 0; i < len; i++) {
		int changed = 0;

		memcpy(cut, text, len + 1);
		/* (a blank flipped by 0x20 would be a NUL: the text's end) */
		cut[i] = cut[i] == '5' ? '6' : cut[i] == '\n' ? ' ' : cut[i] == ' ' ? '_' :
			 (char)(cut[i] ^ 0x20);
		cap_sched_parse(cut, &s);
		for (int f = 0; f < SIDECAR_SCHED_NR; f++)
			changed += s.have[f] != all.have[f] || (s.have[f] && s.v[f] != all.v[f]);
		/* a newline made a blank: both lines it joined are lost */
		if (changed > (text[i] == '\n' ? 2 : 1))
			changed_max = changed;
	}
	CHECK_INT(changed_max, 0);
	free(cut);
	free(text);
	/* past the kernel's values: null */
	CHECK_INT(cap_sched_parse("se.avg.load_avg : 4611686018427387905\npolicy : 9\n"
				  "prio : -2\nse.avg.util_sum : 4294967296\nse.load.weight : 0\n"
				  "se.avg.util_avg : 1024\nnr_switches : 99999999999999999999\n", &s), 1);
	CHECK(s.have[SIDECAR_SCHED_UTIL_AVG] && !s.have[SIDECAR_SCHED_LOAD_AVG] &&
	      !s.have[SIDECAR_SCHED_POLICY] && !s.have[SIDECAR_SCHED_PRIO] &&
	      !s.have[SIDECAR_SCHED_UTIL_SUM] && !s.have[SIDECAR_SCHED_WEIGHT] &&
	      !s.have[SIDECAR_SCHED_NR_SWITCHES]);
	/* oversized: 100 000 digits, then 8 MiB of lines */
	big = malloc(blen + 1);
	if (!big)
		return;
	memset(big, '7', 100100);
	memcpy(big, "prio : ", 7);
	memcpy(big + 100100, "\nprio : 120\n", 13);
	CHECK_INT(cap_sched_parse(big, &s), 1);
	CHECK_INT(s.v[SIDECAR_SCHED_PRIO], 120);
	for (size_t p = 0; p + 32 <= blen; p += 32)
		memcpy(big + p, p ? "nr_switches  :  9              \n" :
		       "nr_switches  :  5              \n", 32);
	big[blen - blen % 32] = '\0';
	CHECK_INT(cap_sched_parse(big, &s), 0);   /* blanks after the value: none kept */
	for (size_t p = 0; p + 32 <= blen; p += 32)
		memcpy(big + p, p ? "nr_switches : 9\nprio : 130     \n" :
		       "nr_switches : 5\nprio : 131     \n", 32);
	CHECK_INT(cap_sched_parse(big, &s), 1);
	CHECK_INT(s.v[SIDECAR_SCHED_NR_SWITCHES], 5);
	free(big);
}

/*
 * The kernel's per-thread sched file (cap_sched_parse()) on real text: a
 * sleeping `sleep` of the development VM's 6.18 kernel, and the same text
 * cut short at 700 bytes (the fields before the cut kept, the cut one and
 * those after it missing); the state letter of a stat line; and the
 * sidecar's sched_at_start / sched_at_end through the loader.
 */
struct walk_rec {
	int tgid[16], tid[16];
	int n, stop_at;
};

static int walk_rec_one(int tgid, int tid, void *arg)
{
	struct walk_rec *w = arg;

	if (w->n < 16) {
		w->tgid[w->n] = tgid;
		w->tid[w->n] = tid;
	}
	return ++w->n == w->stop_at;
}

/*
 * cap_for_each_thread() hands each process's leader after its other threads
 * (snap50: a multithreaded exec during the walk of one process cannot leave
 * the old leader's read without one of its threads), each thread once, a
 * process without a task directory (gone) skipped; on a tree shaped as
 * /proc: 100 (threads 100 101 102), 200 (alone), 300 (no task directory).
 */
static void test_thread_walk(void)
{
	static const char *const dirs[] = { "", "/100", "/100/task", "/100/task/100",
		"/100/task/101", "/100/task/102", "/200", "/200/task", "/200/task/200", "/300",
		"/self" };
	char root[4096], path[4200];
	struct walk_rec w = { .stop_at = -1 };
	int seen100 = 0, leader_at = -1, last_thread_at = -1;

	snprintf(root, sizeof(root), "%s/fakeproc", scratch);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		mkdir(path, 0755);
	}
	CHECK_INT(cap_for_each_thread_in(root, walk_rec_one, &w), 0);
	CHECK_INT(w.n, 4);
	for (int i = 0; i < w.n && i < 16; i++) {
		if (w.tgid[i] != 100)
			continue;
		seen100 |= 1 << (w.tid[i] - 100);
		if (w.tid[i] == 100)
			leader_at = i;
		else
			last_thread_at = i;
	}
	CHECK_INT(seen100, 7);
	CHECK(leader_at > last_thread_at && last_thread_at >= 0);
	/* a non-zero return stops the walk and is returned */
	w = (struct walk_rec){ .stop_at = 2 };
	CHECK_INT(cap_for_each_thread_in(root, walk_rec_one, &w), 1);
	CHECK_INT(w.n, 2);
	snprintf(path, sizeof(path), "%s/no-such", root);
	CHECK_INT(cap_for_each_thread_in(path, walk_rec_one, &w), -1);
	/* the live /proc: this process's own entry is met */
	w = (struct walk_rec){ .stop_at = -1 };
	CHECK(cap_for_each_thread(walk_rec_one, &w) == 0 && w.n > 1);
}

static void put_path(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * tasks_at_start (cap_machine_tasks()) keeps one entry per pid, the last
 * read (cap_sched_dedup(), fuzz50): a fake /proc where pid 101 is a thread
 * of 100 and, reused during the walk, of 200 too; 100's nice 5 on CPU 1,
 * 200's thread 101 nice -3 on CPU 0.  The replay refuses a tasks_at_start
 * listing a pid twice (sidecar.c), so the capture must not write one.
 */
static void test_tasks_dedup(void)
{
	static const int tg[] = { 100, 100, 200, 200 }, td[] = { 100, 101, 200, 101 };
	static const int nice[] = { 5, 5, -3, -3 }, cpu[] = { 1, 1, 0, 0 };
	char root[4096], path[4200], stat[512];
	struct cap_cgroup_host h = { 0 };
	struct walk_rec w = { .stop_at = -1 };
	bool ag = true;
	json_t *t;
	int last101 = -1, n101 = 0;

	snprintf(root, sizeof(root), "%s/fakeproc-tasks", scratch);
	mkdir(root, 0755);
	for (int i = 0; i < 4; i++) {
		int o;

		snprintf(path, sizeof(path), "%s/%d", root, tg[i]);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%d/task", root, tg[i]);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%d/task/%d", root, tg[i], td[i]);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%d/task/%d/comm", root, tg[i], td[i]);
		put_path(path, tg[i] == 100 ? "hundred\n" : "two-hundred\n");
		/* fields 4..41 of /proc/PID/stat: nice (19), processor (39) */
		o = snprintf(stat, sizeof(stat), "%d (x) S", td[i]);
		for (int f = 4; f <= 41; f++)
			o += snprintf(stat + o, sizeof(stat) - (size_t)o, " %d",
				      f == 19 ? nice[i] : f == 39 ? cpu[i] : 0);
		snprintf(stat + o, sizeof(stat) - (size_t)o, "\n");
		snprintf(path, sizeof(path), "%s/%d/task/%d/stat", root, tg[i], td[i]);
		put_path(path, stat);
	}
	/* which 101 the walk meets last (readdir order is the file system's) */
	CHECK_INT(cap_for_each_thread_in(root, walk_rec_one, &w), 0);
	CHECK_INT(w.n, 4);
	for (int i = 0; i < w.n && i < 16; i++)
		if (w.tid[i] == 101)
			last101 = w.tgid[i];
	t = cap_machine_tasks_in(root, &h, &ag);
	CHECK(t != NULL);
	CHECK(!ag);                     /* no sys/kernel/sched_autogroup_enabled */
	CHECK_INT((long long)json_array_size(t), 3);
	for (size_t i = 0; i < json_array_size(t); i++) {
		json_t *e = json_array_get(t, i);

		if (json_integer_value(json_object_get(e, "pid")) != 101)
			continue;
		n101++;
		CHECK_INT(json_integer_value(json_object_get(e, "tgid")), last101);
		CHECK_INT(json_integer_value(json_object_get(e, "nice")), last101 == 100 ? 5 : -3);
		CHECK_INT(json_integer_value(json_object_get(e, "cpu")), last101 == 100 ? 1 : 0);
		CHECK_STR(json_string_value(json_object_get(e, "comm")),
			  last101 == 100 ? "hundred" : "two-hundred");
	}
	CHECK_INT(n101, 1);
	json_decref(t);
	/* a tree without the processes: an empty list, not an error */
	snprintf(path, sizeof(path), "%s/fakeproc-empty", scratch);
	mkdir(path, 0755);
	t = cap_machine_tasks_in(path, &h, &ag);
	CHECK(t != NULL && json_array_size(t) == 0);
	json_decref(t);
}

static void test_sched_snapshot(void)
{
	char path[4096], *text;
	struct cap_sched s;
	struct sr_error err;
	struct sidecar *sc;
	const struct sidecar_sched_task *t;

	snprintf(path, sizeof(path), "%s/proc-sched-sleep.txt", data_dir);
	text = cap_read_file(path, NULL);
	CHECK(text != NULL);
	if (text) {
		CHECK_INT(cap_sched_parse(text, &s), SIDECAR_SCHED_NR);
		CHECK_INT(s.v[SIDECAR_SCHED_EXEC_START], 36229203257587LL);
		CHECK_INT(s.v[SIDECAR_SCHED_SUM_EXEC], 1444403);
		CHECK_INT(s.v[SIDECAR_SCHED_WEIGHT], 1048576);
		CHECK_INT(s.v[SIDECAR_SCHED_LOAD_SUM], 47384);
		CHECK_INT(s.v[SIDECAR_SCHED_RUNNABLE_SUM], 13775836);
		CHECK_INT(s.v[SIDECAR_SCHED_UTIL_SUM], 13498266);
		CHECK_INT(s.v[SIDECAR_SCHED_LOAD_AVG], 1024);
		CHECK_INT(s.v[SIDECAR_SCHED_RUNNABLE_AVG], 290);
		CHECK_INT(s.v[SIDECAR_SCHED_UTIL_AVG], 284);
		CHECK_INT(s.v[SIDECAR_SCHED_LAST_UPDATE], 36229203257344LL);
		CHECK_INT(s.v[SIDECAR_SCHED_UTIL_EST], 264);
		CHECK_INT(s.v[SIDECAR_SCHED_NR_SWITCHES], 1);
		CHECK_INT(s.v[SIDECAR_SCHED_NR_VOLUNTARY], 1);
		CHECK_INT(s.v[SIDECAR_SCHED_PRIO], 120);
		CHECK_INT(s.v[SIDECAR_SCHED_SLICE], 1400000);
		free(text);
	}
	snprintf(path, sizeof(path), "%s/proc-sched-truncated.txt", data_dir);
	text = cap_read_file(path, NULL);
	CHECK(text != NULL);
	if (text) {
		CHECK_INT(cap_sched_parse(text, &s), 7);
		CHECK(s.have[SIDECAR_SCHED_WEIGHT] && !s.have[SIDECAR_SCHED_LOAD_SUM]);
		CHECK(!s.have[SIDECAR_SCHED_UTIL_AVG] && !s.have[SIDECAR_SCHED_SLICE]);
		free(text);
	}
	/*
	 * a negative SPLIT_NS() value (read as -3000500 ns, but no rq clock is
	 * negative: null since fuzz41, as the loader would refuse it), a value
	 * that is not a number, other text
	 */
	CHECK_INT(cap_sched_parse("se.exec_start :  -3.000500\nse.avg.util_avg : x12\n"
				  "nr_switches : 12 \ngarbage\nse.sum_exec_runtime : 3.000500\n\n",
				  &s), 1);
	CHECK(!s.have[SIDECAR_SCHED_EXEC_START]);
	CHECK_INT(s.v[SIDECAR_SCHED_SUM_EXEC], 3000500);
	CHECK(!s.have[SIDECAR_SCHED_UTIL_AVG] && !s.have[SIDECAR_SCHED_NR_SWITCHES]);
	sched_parse_robust(data_dir);
	CHECK_INT(cap_sched_parse("", &s), 0);
	CHECK_INT(cap_sched_state("1409 (sl) e p) S 1 2"), 'S');
	CHECK_INT(cap_sched_state("1409 (sleep) "), 0);
	CHECK_INT(cap_sched_state(NULL), 0);
	/*
	 * stat's field 39 (the CPU it last ran on), on real lines of the
	 * development VM: a `cat` on CPU 1, and a comm "a) b (c) S 9" set
	 * through /proc/self/comm (spaces, parentheses and a fake state: the
	 * fields count from the last ')'), on CPU 0; cut short; not a number.
	 */
	CHECK_INT(cap_sched_cpu("10946 (cat) R 10944 10944 1804 0 -1 4194304 99 0 0 0 0 0 0 0 20 0 "
				"1 0 4673850 3133440 355 18446744073709551615 94275319382016 "
				"94275319401897 140736360711536 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 "
				"94275319417904 94275319419520 94275501826048 140736360712829 "
				"140736360712849 140736360712849 140736360714219 0\n"), 1);
	CHECK_INT(cap_sched_cpu("10977 (a) b (c) S 9) R 10975 10975 1804 0 -1 4194304 2836 6525 1 "
				"0 7 1 7 3 20 0 1 0 4673993 16961536 3351 18446744073709551615 "
				"94101309665280 94101309665621 140733444174192 0 0 0 0 16781312 2 "
				"0 0 0 17 0 0 0 0 0 0 94101309676976 94101309677592 94101850058752 "
				"140733444175949 140733444176082 140733444176082 140733444177871 "
				"0\n"), 0);
	CHECK_INT(cap_sched_cpu("10946 (cat) R 10944 10944 1804 0 -1 4194304 99 0 0 0 0 0 0 0 20 0 "
				"1 0 4673850 3133440 355 18446744073709551615 94275319382016 "
				"94275319401897 140736360711536 0 0 0 0 0 0 0 0 0 17"), -1);
	CHECK_INT(cap_sched_cpu("1 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 "
				"23 24 25 26 27 28 29 30 31 32 33 34 35 -1 0"), -1);
	CHECK_INT(cap_sched_cpu(NULL), -1);
	/* field 22, the start in ticks after boot, of the same lines */
	CHECK_INT(cap_sched_starttime("10946 (cat) R 10944 10944 1804 0 -1 4194304 99 0 0 0 0 0 0 "
				      "0 20 0 1 0 4673850 3133440 355\n"), 4673850);
	CHECK_INT(cap_sched_starttime("10977 (a) b (c) S 9) R 10975 10975 1804 0 -1 4194304 2836 "
				      "6525 1 0 7 1 7 3 20 0 1 0 4673993 16961536 3351"), 4673993);
	CHECK_INT(cap_sched_starttime("10946 (cat) R 10944 10944 1804 0 -1 4194304 99 0 0 0 0 0 0 "
				      "0 20 0 1 0"), -1);
	CHECK_INT(cap_sched_starttime(NULL), -1);
	/*
	 * a walk that met a pid twice (a multithreaded exec between the
	 * leader's read and the thread's, robust49): the last read stays, in
	 * order; the replay refuses a snapshot that lists a pid twice
	 */
	{
		json_t *a = json_pack("[{s:i,s:i},{s:i,s:i},{s:i,s:i},{s:i,s:i},{s:i,s:i}]",
				      "pid", 7, "nr_switches", 100, "pid", 8, "nr_switches", 5,
				      "pid", 7, "nr_switches", 3, "pid", 9, "nr_switches", 1,
				      "pid", 7, "nr_switches", 4);

		CHECK(a != NULL);
		CHECK_INT((long long)cap_sched_dedup(a), 2);
		CHECK_INT((long long)json_array_size(a), 3);
		CHECK_INT(json_integer_value(json_object_get(json_array_get(a, 0), "pid")), 8);
		CHECK_INT(json_integer_value(json_object_get(json_array_get(a, 1), "pid")), 9);
		CHECK_INT(json_integer_value(json_object_get(json_array_get(a, 2), "pid")), 7);
		CHECK_INT(json_integer_value(json_object_get(json_array_get(a, 2), "nr_switches")),
			  4);
		CHECK_INT((long long)cap_sched_dedup(a), 0);
		json_decref(a);
	}
	/*
	 * status's Cpus_allowed_list (the 6.18 capture VM's lines: a task
	 * under `taskset -c 1`, a free one, a list with a range and a single
	 * CPU); absent, empty, garbled, too long for the buffer: false
	 */
	{
		char list[16];

		CHECK(cap_sched_cpus_allowed("Name:\tperf\nCpus_allowed:\t2\n"
					     "Cpus_allowed_list:\t1\nMems_allowed:\t1\n",
					     list, sizeof(list)) && !strcmp(list, "1"));
		CHECK(cap_sched_cpus_allowed("Cpus_allowed_list:\t0-1\n", list, sizeof(list)) &&
		      !strcmp(list, "0-1"));
		CHECK(cap_sched_cpus_allowed("x\nCpus_allowed_list:\t0,2-3", list, sizeof(list)) &&
		      !strcmp(list, "0,2-3"));
		CHECK(!cap_sched_cpus_allowed("Cpus_allowed:\t3\n", list, sizeof(list)));
		CHECK(!cap_sched_cpus_allowed("Cpus_allowed_list:\t\n", list, sizeof(list)));
		CHECK(!cap_sched_cpus_allowed("Cpus_allowed_list:\t0-1 x\n", list, sizeof(list)));
		CHECK(!cap_sched_cpus_allowed("Cpus_allowed_list:\t0-1,3,5-7,9,11-13\n", list,
					      sizeof(list)));
		CHECK(!cap_sched_cpus_allowed(NULL, list, sizeof(list)));
	}
	/* the replay's reading of such a list against a 2-CPU machine */
	{
		int nr, first;

		CHECK(sidecar_cpulist_parse("1", 2, &nr, &first) == 0 && nr == 1 && first == 1);
		CHECK(sidecar_cpulist_parse("0-1", 2, &nr, &first) == 0 && nr == 2 && first == 0);
		CHECK(sidecar_cpulist_parse("0,2-3", 2, &nr, &first) == 0 && nr == 1 && first == 0);
		CHECK(sidecar_cpulist_parse("3", 2, &nr, &first) == 0 && nr == 0 && first == -1);
		CHECK(sidecar_cpulist_parse("1-0", 2, &nr, &first) < 0);
		CHECK(sidecar_cpulist_parse("", 2, &nr, &first) < 0);
		CHECK(sidecar_cpulist_parse("0,", 2, &nr, &first) < 0);
		CHECK(sidecar_cpulist_parse("0-", 2, &nr, &first) < 0);
		CHECK(sidecar_cpulist_parse("x", 2, &nr, &first) < 0);
		CHECK(sidecar_cpulist_parse("70000", 2, &nr, &first) < 0);
	}

	snprintf(path, sizeof(path), "%s/sidecar-sched.json", data_dir);
	sc = sidecar_load(path, &err);
	CHECK(sc != NULL);
	if (!sc) {
		fprintf(stderr, "  %s\n", err.msg);
		return;
	}
	CHECK(sc->sched_start.listed && sc->sched_start.available);
	CHECK_INT(sc->sched_start.nr_tasks, 2);
	t = sidecar_sched_find(&sc->sched_start, 10101);
	CHECK(t != NULL && t->state == 'R' && !t->have[SIDECAR_SCHED_UTIL_EST]);
	CHECK(t != NULL && t->cpu == -1);       /* no "cpu": an older sidecar's entry */
	CHECK(t != NULL && t->starttime == -1); /* no "starttime": a sidecar written before 2026-12-05 */
	CHECK_INT(sc->capture_starttime, -1);
	CHECK_INT(sidecar_task(sc, 10101) ? sidecar_task(sc, 10101)->cpu : -2, 0);
	t = sidecar_sched_find(&sc->sched_start, 10102);
	CHECK(t != NULL && t->state == 'S' && t->v[SIDECAR_SCHED_UTIL_AVG] == 50);
	CHECK(t != NULL && t->cpu == 1);
	CHECK(t != NULL && t->starttime == 4673850);
	CHECK(sidecar_sched_find(&sc->sched_start, 1) == NULL);
	CHECK(sc->sched_end.listed && !sc->sched_end.available);
	CHECK(strstr(sc->sched_end.reason, "No such file") != NULL);
	sidecar_free(sc);
	/* an older sidecar: neither listed */
	snprintf(path, sizeof(path), "%s/sidecar-good.json", data_dir);
	sc = sidecar_load(path, &err);
	CHECK(sc && !sc->sched_start.listed && !sc->sched_end.listed);
	sidecar_free(sc);
	snprintf(path, sizeof(path), "%s/sidecar-badsched.json", data_dir);
	sc = sidecar_load(path, &err);
	CHECK(sc == NULL);
	if (sc)
		sidecar_free(sc);
	else
		CHECK(strstr(err.msg, "sched_at_start.tasks[0].load_avg is not an integer") != NULL);
}

/*
 * The sidecar's "cpu_time" (cap_cputime.c): /proc/stat's per-CPU irq,
 * softirq and steal parsed (the aggregate line skipped, a line without the
 * steal column refused), and loaded back: sidecar-good.json (written before
 * the field) has none; with the field each CPU's two reads; a CPU out of
 * the topology or listed twice is an error naming the entry.
 */
static void test_cpu_time(void)
{
	static const char stat[] =
		"cpu  4233662 420055 646802 4017107 10007 0 3411 81196 0 0\n"
		"cpu0 2105079 208685 323241 2024744 3310 0 215 40369 0 0\n"
		"cpu1 2128583 211369 323560 1992363 6696 7 3196 40826 0 0\n"
		"intr 1 2 3\nctxt 99\n";
	struct cap_cpu_time t[4];
	char path[4096], out[4096], *text;
	struct sr_error err;
	struct sidecar *sc;
	FILE *f;

	CHECK_INT(cap_proc_stat_parse(stat, t, 4), 2);
	CHECK_INT(t[1].cpu, 1);
	CHECK_INT(t[1].irq, 7);
	CHECK_INT(t[1].softirq, 3196);
	CHECK_INT(t[1].steal, 40826);
	CHECK_INT(t[0].steal, 40369);
	CHECK_INT(cap_proc_stat_parse(stat, t, 1), -1);                 /* no room */
	CHECK_INT(cap_proc_stat_parse("cpu0 1 2 3 4 5 6 7\n", t, 4), -1); /* no steal */
	CHECK_INT(cap_proc_stat_parse("intr 1\n", t, 4), 0);

	snprintf(path, sizeof(path), "%s/sidecar-good.json", data_dir);
	sc = sidecar_load(path, &err);
	CHECK(sc != NULL && sc->cpu_time == NULL);
	sidecar_free(sc);
	text = cap_read_file(path, NULL);
	CHECK(text != NULL);
	if (!text)
		return;
	for (int bad = 0; bad < 3; bad++) {
		char *end = strrchr(text, '}');

		snprintf(out, sizeof(out), "%s/sidecar-cpu-time-%d.json", scratch, bad);
		f = fopen(out, "w");
		CHECK(f != NULL && end != NULL);
		if (!f || !end)
			break;
		fprintf(f, "%.*s, \"cpu_time\": {\"available\": true, \"source\": \"/proc/stat\", "
			"\"user_hz\": 100, \"at_start\": [{\"cpu\": 0, \"irq\": 0, \"softirq\": 10, "
			"\"steal\": 400}, {\"cpu\": 1, \"irq\": 1, \"softirq\": 20, \"steal\": 500}], "
			"\"at_end\": [{\"cpu\": 0, \"irq\": 0, \"softirq\": 12, \"steal\": 403}, "
			"{\"cpu\": %d, \"irq\": 2, \"softirq\": 20, \"steal\": 505}]}}\n",
			(int)(end - text), text, bad == 1 ? 7 : bad == 2 ? 0 : 1);
		fclose(f);
		memset(&err, 0, sizeof(err));
		sc = sidecar_load(out, &err);
		if (bad) {
			CHECK(sc == NULL && strstr(err.msg, bad == 1 ? "cpu_time.at_end[1] is not" :
						   "cpu_time.at_end[1] lists its CPU twice") != NULL);
		} else {
			CHECK(sc != NULL && sc->cpu_time != NULL);
			if (sc && sc->cpu_time) {
				CHECK_INT(sc->cpu_time_user_hz, 100);
				CHECK(sc->cpu_time[0].have && sc->cpu_time[1].have);
				CHECK_INT(sc->cpu_time[0].steal[1] - sc->cpu_time[0].steal[0], 3);
				CHECK_INT(sc->cpu_time[0].softirq[1] - sc->cpu_time[0].softirq[0], 2);
				CHECK_INT(sc->cpu_time[1].steal[1] - sc->cpu_time[1].steal[0], 5);
				CHECK_INT(sc->cpu_time[1].irq[1] - sc->cpu_time[1].irq[0], 1);
			}
		}
		sidecar_free(sc);
		unlink(out);
	}
	free(text);
}

/* A debugfs sched/debug text of 6.18 (tests/capture/data/sched_debug-6.18.txt:
 * its first 125 lines, cpu#1's first 41, then a line cut short). */
static json_int_t sd_field(const json_t *block, const char *name)
{
	const json_t *v = json_object_get(json_object_get(block, "fields"), name);

	return json_is_integer(v) ? json_integer_value(v) : -424242;
}

static void test_sched_debug_parse(void)
{
	char path[4096], *text;
	size_t values = 0;
	json_t *r, *cpus, *c0, *c1, *rqs, *rq;

	snprintf(path, sizeof(path), "%s/sched_debug-6.18.txt", data_dir);
	text = cap_read_file(path, NULL);
	CHECK(text != NULL);
	if (!text)
		return;
	r = cap_sched_debug_parse(text, &values);
	free(text);
	CHECK(r != NULL);
	if (!r)
		return;
	/* the header: SPLIT_NS() ms as ns, plain integers as printed */
	CHECK_INT(json_integer_value(json_object_get(json_object_get(r, "header"), "sched_clk")),
		  36634530601604LL);
	CHECK_INT(json_integer_value(json_object_get(json_object_get(r, "header"), "jiffies")),
		  4304050884LL);
	CHECK_INT(json_integer_value(json_object_get(json_object_get(r, "header"),
						     "sysctl_sched_base_slice")), 1400000);
	/* "1 (logarithmic)" is not a number */
	CHECK(!json_object_get(json_object_get(r, "header"), "sysctl_sched_tunable_scaling"));
	cpus = json_object_get(r, "cpus");
	CHECK_INT(json_array_size(cpus), 2);
	c0 = json_array_get(cpus, 0);
	c1 = json_array_get(cpus, 1);
	CHECK_INT(json_integer_value(json_object_get(c0, "cpu")), 0);
	CHECK_INT(json_integer_value(json_object_get(c1, "cpu")), 1);
	CHECK_INT(sd_field(c0, "nr_running"), 5);
	CHECK_INT(sd_field(c0, "curr.pid"), 21089);          /* ".curr->pid" */
	CHECK_INT(sd_field(c0, "clock"), 36634513274588LL);
	CHECK_INT(sd_field(c1, "nr_uninterruptible"), -11124);
	rqs = json_object_get(c0, "cfs_rqs");
	CHECK_INT(json_array_size(rqs), 3);
	CHECK_STR(json_string_value(json_object_get(json_array_get(rqs, 0), "path")),
		  "/autogroup-261");
	rq = json_array_get(rqs, 2);
	CHECK_STR(json_string_value(json_object_get(rq, "path")), "/");
	CHECK_INT(sd_field(rq, "load_avg"), 1207);
	CHECK_INT(sd_field(rq, "h_nr_queued"), 5);
	CHECK_INT(sd_field(rq, "left_deadline"), 1);          /* "0.000001" */
	CHECK_INT(sd_field(rq, "tg_load_avg"), 0);
	/* rt_rq[0]'s and dl_rq[0]'s lines that follow are not the root queue's */
	CHECK_INT(json_object_size(json_object_get(rq, "fields")), 22);
	rq = json_array_get(json_object_get(c1, "cfs_rqs"), 0);
	CHECK_STR(json_string_value(json_object_get(rq, "path")), "/autogroup-261");
	CHECK_INT(sd_field(rq, "tg_load_avg"), 635);
	CHECK_INT(sd_field(rq, "se.load.weight"), 218147);   /* ".se->load.weight" */
	CHECK_INT(sd_field(rq, "se.avg.runnable_avg"), 14);
	/* the last line, cut short ("12" of what may be "123"), is not read */
	CHECK_INT(sd_field(rq, "load_avg"), 2);
	CHECK_INT((long long)values, 7 + 9 + 29 + 29 + 22 + 9 + 29);
	json_decref(r);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s DATA_DIR SCRATCH_DIR\n", argv[0]);
		return 2;
	}
	data_dir = argv[1];
	scratch = argv[2];
	{
		char dir[4096];

		/* mkdir -p */
		snprintf(dir, sizeof(dir), "%s", scratch);
		for (char *p = dir + 1; *p; p++)
			if (*p == '/') {
				*p = '\0';
				mkdir(dir, 0755);
				*p = '/';
			}
		mkdir(dir, 0700);
	}
	test_group_parse();
	test_group_parse_quota();
	test_cgroup_bandwidth();
	test_commands();
	test_spawn_asleep();
	test_tracedat();
	test_tracedat_comms();
	test_sidecar();
	test_sidecar_bound();
	test_sched_snapshot();
	test_thread_walk();
	test_tasks_dedup();
	test_sched_debug_parse();
	test_cpu_time();
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("capture unit tests passed\n");
	return 0;
}
