// SPDX-License-Identifier: GPL-2.0
/*
 * Reader tests on real traces.
 *
 *   test_reader tracecmp TRACE     every record equals `trace-cmd report -R -t`'s:
 *                                  same order, CPU, timestamp (ns), event name,
 *                                  and each decoded field as "name=value" in its
 *                                  raw line (a decoded event's name must come with
 *                                  its type); per-name counts equal.
 *   test_reader same A B ...       the conversions of one trace give the same
 *                                  report: counts, span, lost, every
 *                                  distribution, every task.
 *   test_reader fuzz TRACE N SEED [BACKEND]
 *                                  N corrupted copies (random bytes, cuts):
 *                                  open + read must end in a one-line error or
 *                                  succeed, never crash or hang (run under
 *                                  ASan and a ctest timeout).
 *   test_reader info TRACE VERSION COMPRESSION BUFFER
 *   test_reader text TRACE TEXT    TEXT (`trace-cmd report -N -t` or `-R -t` of TRACE)
 *                                  gives TRACE's events in every field the text carries
 *                                  (all but offsets, ids, flags and the raw prev_state
 *                                  of -N) and the same report sections (events,
 *                                  latency, run-queue waits, tasks, lost events), with
 *                                  TRACE's capture sidecar (TRACE.json) if it has one
 *   test_reader syscall-text DIR   hand-written syscall lines of each text form
 *                                  (tracefs old and new, trace-cmd -N and -R) read
 *                                  with the values they state
 *   test_reader state-text DIR     numeric prev_states of 3.x, 4.11 and 4.14+ kernels
 *                                  read in each one's bit layout
 *   test_reader backends TRACE     the native and the libtracecmd backends give the
 *                                  same trace_info, the same events (every field,
 *                                  offsets and lost-event marks included), the same
 *                                  per-CPU lost counts and name counts, and the same
 *                                  report, byte for byte, as JSON (--by pid --by
 *                                  cgroup) and as text (all groups and tasks)
 *
 * Exit 0 pass, 1 fail (both sides printed), 77 skip (no trace-cmd).
 */
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <zlib.h>
#include <zstd.h>

#include <schedreplay/trace.h>

#include "report_local.h"
#include "trace_local.h"

static int failures;

#define FAIL(...)                                                                         \
	do {                                                                              \
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                      \
		fprintf(stderr, __VA_ARGS__);                                             \
		fputc('\n', stderr);                                                      \
		failures++;                                                               \
	} while (0)

#define CHECK_U64(what, got, want)                                                        \
	do {                                                                              \
		uint64_t g_ = (got), w_ = (want);                                         \
		if (g_ != w_)                                                             \
			FAIL("%s: got %" PRIu64 ", expected %" PRIu64, what, g_, w_);       \
	} while (0)

/* ---- tracecmp --------------------------------------------------------------- */

struct name_count {
	char name[64];
	uint64_t ours, theirs;
};

static struct name_count names[512];
static int nr_names;

static struct name_count *name_slot(const char *n)
{
	for (int i = 0; i < nr_names; i++)
		if (!strcmp(names[i].name, n))
			return &names[i];
	if (nr_names == 512)
		return &names[511];
	snprintf(names[nr_names].name, sizeof(names[0].name), "%s", n);
	return &names[nr_names++];
}

/*
 * The "k=v" fields our decoder produced, as trace-cmd -R prints them;
 * @long_mask: the kernel long's bits.
 */
static int format_fields(const struct trace_event *ev, uint64_t long_mask, char out[][96], int max)
{
	int n = 0;
#define F(...) do { if (n < max) snprintf(out[n++], 96, __VA_ARGS__); } while (0)
	switch (ev->type) {
	case TRACE_EV_SCHED_SWITCH: {
		const struct trace_sched_switch *s = &ev->u.sched_switch;

		F("prev_comm=%s ", s->prev_comm);
		F("prev_pid=%d ", s->prev_pid);
		F("prev_prio=%d ", s->prev_prio);
		F("prev_state=%" PRId64 " ", s->prev_state);
		F("next_comm=%s ", s->next_comm);
		F("next_pid=%d ", s->next_pid);
		F("next_prio=%d", s->next_prio);
		break;
	}
	case TRACE_EV_SCHED_WAKING:
	case TRACE_EV_SCHED_WAKEUP:
	case TRACE_EV_SCHED_WAKEUP_NEW:
		F("comm=%s ", ev->u.wakeup.comm);
		F("pid=%d ", ev->u.wakeup.pid);
		F("prio=%d ", ev->u.wakeup.prio);
		if (ev->u.wakeup.target_cpu >= 0)
			F("target_cpu=%03d", ev->u.wakeup.target_cpu);
		break;
	case TRACE_EV_SCHED_MIGRATE_TASK:
		F("comm=%s ", ev->u.migrate.comm);
		F("pid=%d ", ev->u.migrate.pid);
		F("orig_cpu=%d ", ev->u.migrate.orig_cpu);
		F("dest_cpu=%d", ev->u.migrate.dest_cpu);
		break;
	case TRACE_EV_SCHED_PROCESS_FORK:
		F("parent_comm=%s ", ev->u.fork.parent_comm);
		F("parent_pid=%d ", ev->u.fork.parent_pid);
		F("child_comm=%s ", ev->u.fork.child_comm);
		F("child_pid=%d", ev->u.fork.child_pid);
		break;
	case TRACE_EV_SCHED_PROCESS_EXEC:
		F("filename=%.*s ", (int)ev->u.exec.filename_len, ev->u.exec.filename);
		F("pid=%d ", ev->u.exec.pid);
		break;
	case TRACE_EV_SCHED_PROCESS_EXIT:
		F("comm=%s ", ev->u.exit.comm);
		F("pid=%d ", ev->u.exit.pid);
		break;
	case TRACE_EV_SCHED_STAT_RUNTIME:
		F("comm=%s ", ev->u.stat_runtime.comm);
		F("pid=%d ", ev->u.stat_runtime.pid);
		F("runtime=%" PRIu64, ev->u.stat_runtime.runtime);
		if (ev->u.stat_runtime.has_vruntime)
			F("vruntime=%" PRIu64, ev->u.stat_runtime.vruntime);
		break;
	case TRACE_EV_SCHED_PI_SETPRIO:
		F("comm=%s ", ev->u.pi_setprio.comm);
		F("pid=%d ", ev->u.pi_setprio.pid);
		F("oldprio=%d ", ev->u.pi_setprio.oldprio);
		F("newprio=%d", ev->u.pi_setprio.newprio);
		break;
	case TRACE_EV_CGROUP_ATTACH_TASK:
		F("dst_root=%d ", ev->u.cgroup_attach.dst_root);
		F("pid=%d ", ev->u.cgroup_attach.pid);
		F("dst_path=%.*s ", (int)ev->u.cgroup_attach.dst_path_len,
		  ev->u.cgroup_attach.dst_path);
		F("comm=%s", ev->u.cgroup_attach.comm);
		break;
	/*
	 * trace-cmd -R prints the syscall arguments with their print format's
	 * conversions: "fd: 0x%08lx", "count: 0x%08lx", ret "0x%lx" (a kernel
	 * long: 8 hex digits of a negative ret on a 32-bit kernel)
	 */
	case TRACE_EV_SYS_ENTER_READ:
	case TRACE_EV_SYS_ENTER_WRITE:
		F("fd=0x%08" PRIx64 " ", (uint64_t)ev->u.syscall.fd & long_mask);
		F("count=0x%08" PRIx64, ev->u.syscall.count & long_mask);
		break;
	case TRACE_EV_SYS_EXIT_READ:
	case TRACE_EV_SYS_EXIT_WRITE:
		F("ret=0x%" PRIx64, (uint64_t)ev->u.syscall.ret & long_mask);
		break;
	default:
		break;
	}
#undef F
	return n;
}

/* Buffer names of the file, from `trace-cmd dump --summary`. */
static int other_buffers(const char *path, const char *ours, char list[][64], int max)
{
	char cmd[4096], line[1024];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "trace-cmd dump --summary -i '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		char *s = strstr(line, "[buffer \""), *e;

		if (!s)
			continue;
		s += 9;
		e = strchr(s, '"');
		if (!e || e == s)
			continue;
		*e = '\0';
		if (strcmp(s, ours) && n < max)
			snprintf(list[n++], 64, "%s", s);
	}
	pclose(p);
	return n;
}

static int cmd_tracecmp(const char *path)
{
	struct sr_error err = { 0 };
	struct trace_reader *r = trace_open(path, NULL, &err);
	const struct trace_info *in;
	char cmd[4096], line[8192], others[16][64];
	int nr_others;
	regex_t re;
	regmatch_t m[6];
	FILE *p;
	uint64_t n = 0, prev_ts = 0, mismatched = 0;
	static uint64_t dropped[1024];
	static bool dropped_unknown[1024];
	bool next_is_ours = false;
	struct trace_event ev;
	int ret;

	if (system("command -v trace-cmd >/dev/null 2>&1") != 0) {
		fprintf(stderr, "SKIP: trace-cmd not installed\n");
		return 77;
	}
	if (!r) {
		FAIL("open: %s", err.msg);
		return 1;
	}
	in = trace_get_info(r);
	nr_others = other_buffers(path, in->buffer, others, 16);
	/*
	 * -t prints "[CPU] S.NNNNNNNNN:"; the raw form "[CPU]TS:" (TS in ns,
	 * 12 wide) is read too: trace-cmd 3.1.6 parses a v6 file's trace
	 * clock with strtok_r() past the end of a 0-byte buffer (valgrind),
	 * and when the bytes after it start with '[' it takes them for an
	 * unknown clock and prints raw timestamps: 13 runs in 3000 on
	 * arm-lisa/example_rtapp. (--raw-ts is no way out: files without a
	 * saved clock still print microseconds under it.)
	 */
	if (regcomp(&re, "^(.*)\\[([0-9]+)\\][[:space:]]*([0-9]+)(\\.[0-9]+)?:[[:space:]]+([A-Za-z_0-9]+):",
		    REG_EXTENDED)) {
		FAIL("regcomp");
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "trace-cmd report -R -t -i '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p) {
		FAIL("popen: %s", strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), p)) {
		char pre[256], name[64], *drop;
		bool after_drop = next_is_ours;
		size_t pl;
		uint64_t ts;
		int cpu, skip = 0, nf;
		char fields[8][96];

		next_is_ours = false;
		drop = strstr(line, "EVENTS DROPPED]");
		if (drop && (!in->buffer[0] || !strncmp(line, in->buffer, strlen(in->buffer)))) {
			/*
			 * "[NAME: ]CPU:N [COUNT EVENTS DROPPED]", or "[EVENTS DROPPED]" when
			 * the kernel had no room on the page for the count (our reader
			 * counts such a gap as 1); the record after it has no prefix
			 */
			char *c = strstr(line, "CPU:");

			if (c) {
				int dc = atoi(c + 4);
				char *b = strchr(c, '[');

				if (dc >= 0 && dc < 1024 && b) {
					bool bare = !strncmp(b, "[EVENTS DROPPED]", 16);

					dropped[dc] += bare ? 1 : strtoull(b + 1, NULL, 10);
					dropped_unknown[dc] |= bare;
				}
			}
			next_is_ours = true;
			continue;
		}
		if (regexec(&re, line, 6, m, 0))
			continue;
		pl = (size_t)(m[1].rm_eo - m[1].rm_so);
		snprintf(pre, sizeof(pre), "%.*s", (int)(pl < 255 ? pl : 255), line);
		/* lines of another buffer start with "NAME:" */
		for (int i = 0; i < nr_others; i++)
			if (!strncmp(pre, others[i], strlen(others[i])) && pre[strlen(others[i])] == ':')
				skip = 1;
		if (in->buffer[0] && strncmp(pre, in->buffer, strlen(in->buffer)) && !after_drop)
			skip = 1;
		if (skip)
			continue;
		cpu = atoi(line + m[2].rm_so);
		ts = strtoull(line + m[3].rm_so, NULL, 10);
		if (m[4].rm_so >= 0) {
			/* -t prints nanoseconds as 9 decimals */
			if (m[4].rm_eo - m[4].rm_so != 10) {
				FAIL("unexpected timestamp format: %s", line);
				break;
			}
			ts = ts * 1000000000ull + strtoull(line + m[4].rm_so + 1, NULL, 10);
		}
		snprintf(name, sizeof(name), "%.*s", (int)(m[5].rm_eo - m[5].rm_so),
			 line + m[5].rm_so);
		name_slot(name)->theirs++;

		ret = trace_next(r, &ev, &err);
		if (ret != 1) {
			FAIL("reader ended (%d: %s) before trace-cmd's record %" PRIu64 ": %s", ret,
			     err.msg, n, line);
			break;
		}
		name_slot(ev.name)->ours++;
		if (ev.ts < prev_ts)
			FAIL("record %" PRIu64 ": timestamp goes back %" PRIu64 " < %" PRIu64, n,
			     ev.ts, prev_ts);
		prev_ts = ev.ts;
		if (ev.cpu != cpu || ev.ts != ts || strcmp(ev.name, name)) {
			if (mismatched++ < 5)
				FAIL("record %" PRIu64 ": ours cpu %d ts %" PRIu64 " %s, trace-cmd: %s",
				     n, ev.cpu, ev.ts, ev.name, line);
		} else {
			/* an event the reader decodes is typed (its fields are compared) */
			for (int k = 1; k < TRACE_EV_NR_TYPES; k++)
				if (!strcmp(ev.name, trace_event_type_name((enum trace_event_type)k)) &&
				    ev.type != (enum trace_event_type)k && mismatched++ < 5)
					FAIL("record %" PRIu64 ": %s decoded as type %s", n, ev.name,
					     trace_event_type_name(ev.type));
			nf = format_fields(&ev, in->long_size == 4 ? UINT32_MAX : UINT64_MAX,
					   fields, 8);
			for (int i = 0; i < nf; i++) {
				/* the last field may end the line */
				size_t fl = strlen(fields[i]);
				char *hit = strstr(line, fields[i]);

				if (!hit && fields[i][fl - 1] != ' ') {
					char tmp[sizeof(fields[0]) + 2];

					memcpy(tmp, fields[i], fl);
					memcpy(tmp + fl, "\n", 2);
					hit = strstr(line, tmp);
				}
				if (!hit && ev.type == TRACE_EV_SCHED_SWITCH && i == 3) {
					/* some formats print prev_state in hex */
					char tmp[64];

					snprintf(tmp, sizeof(tmp), "prev_state=0x%" PRIx64 " ",
						 (uint64_t)ev.u.sched_switch.prev_state);
					hit = strstr(line, tmp);
				}
				if (!hit && mismatched++ < 5)
					FAIL("record %" PRIu64 ": field '%s' not in trace-cmd's line: %s",
					     n, fields[i], line);
			}
		}
		n++;
	}
	pclose(p);
	regfree(&re);
	if (!failures) {
		ret = trace_next(r, &ev, &err);
		if (ret != 0)
			FAIL("reader has more records (%d: %s) after trace-cmd's %" PRIu64, ret,
			     err.msg, n);
	}
	for (int i = 0; i < nr_names; i++)
		if (names[i].ours != names[i].theirs)
			FAIL("count of %s: ours %" PRIu64 ", trace-cmd %" PRIu64, names[i].name,
			     names[i].ours, names[i].theirs);
	if (!n)
		FAIL("trace-cmd printed no record for buffer '%s'", in->buffer);
	for (int c = 0; c < trace_nr_cpus(r) && c < 1024; c++) {
		bool unknown;
		uint64_t lost = trace_lost_events(r, c, &unknown);

		CHECK_U64("lost events", lost, dropped[c]);
		if (unknown != dropped_unknown[c])
			FAIL("CPU %d: a lost-events gap without a count: ours %d, trace-cmd %d", c,
			     unknown, dropped_unknown[c]);
	}
	printf("%s: %" PRIu64 " records compared, %d event names, buffer '%s'\n", path, n,
	       nr_names, in->buffer);
	trace_close(r);
	return failures ? 1 : 0;
}

/* ---- same ------------------------------------------------------------------ */

static void cmp_hist(const char *what, const struct sr_hist *a, const struct sr_hist *b)
{
	uint64_t va[SR_NR_STD_PCT], vb[SR_NR_STD_PCT];

	CHECK_U64(what, a->count, b->count);
	if (!a->count || a->count != b->count)
		return;
	CHECK_U64(what, a->min, b->min);
	CHECK_U64(what, a->max, b->max);
	sr_hist_percentiles(a, sr_std_pct, SR_NR_STD_PCT, va, NULL);
	sr_hist_percentiles(b, sr_std_pct, SR_NR_STD_PCT, vb, NULL);
	for (int i = 0; i < SR_NR_STD_PCT; i++)
		CHECK_U64(what, va[i], vb[i]);
}

static int cmd_same(int n, char **paths)
{
	struct report_data d[8];
	struct report_opts o;
	struct sr_error err = { 0 };

	if (n > 8)
		n = 8;
	report_opts_default(&o);
	for (int i = 0; i < n; i++) {
		o.path = paths[i];
		if (report_collect(&o, &d[i], &err) && !d[i].events) {
			FAIL("%s: %s", paths[i], err.msg);
			return 1;
		}
	}
	for (int i = 1; i < n; i++) {
		char what[512];

		snprintf(what, sizeof(what), "%s vs %s: events", paths[i], paths[0]);
		CHECK_U64(what, d[i].events, d[0].events);
		CHECK_U64(what, d[i].nr_counts, d[0].nr_counts);
		for (size_t k = 0; k < d[0].nr_counts; k++)
			CHECK_U64(d[0].counts[k].name, report_count_of(&d[i], d[0].counts[k].name),
				  d[0].counts[k].count);
		CHECK_U64("first_ts", d[i].info->first_ts, d[0].info->first_ts);
		CHECK_U64("last_ts", d[i].info->last_ts, d[0].info->last_ts);
		CHECK_U64("lost", d[i].lost_total, d[0].lost_total);
		if (strcmp(d[i].info->buffer, d[0].info->buffer))
			FAIL("buffer '%s' vs '%s'", d[i].info->buffer, d[0].info->buffer);
		for (int k = 0; k < LAT_NR_KINDS; k++)
			cmp_hist("all", lat_get_all(d[i].lat, (enum lat_kind)k),
				 lat_get_all(d[0].lat, (enum lat_kind)k));
		CHECK_U64("tasks", lat_nr_tasks(d[i].lat), lat_nr_tasks(d[0].lat));
		for (size_t t = 0; t < lat_nr_tasks(d[0].lat) && t < lat_nr_tasks(d[i].lat); t++) {
			const struct lat_task *a = lat_task_at(d[i].lat, t), *b = lat_task_at(d[0].lat, t);

			snprintf(what, sizeof(what), "task %d (%s)", b->pid, b->comm);
			CHECK_U64(what, (uint64_t)a->pid, (uint64_t)b->pid);
			CHECK_U64(what, a->runtime_ns, b->runtime_ns);
			CHECK_U64(what, a->switches, b->switches);
			CHECK_U64(what, a->preemptions, b->preemptions);
			CHECK_U64(what, a->migrations, b->migrations);
			CHECK_U64(what, a->stat_runtime_ns, b->stat_runtime_ns);
			cmp_hist(what, &a->lat[LAT_WAKEUP], &b->lat[LAT_WAKEUP]);
		}
	}
	printf("%d files, %" PRIu64 " events each, %zu tasks\n", n, d[0].events,
	       lat_nr_tasks(d[0].lat));
	for (int i = 0; i < n; i++)
		report_data_release(&d[i]);
	return failures ? 1 : 0;
}

/* ---- fuzz ------------------------------------------------------------------ */

static int same_streams(const char *path, uint64_t *events);

static int cmd_fuzz(const char *path, int iters, unsigned seed, enum trace_backend be)
{
	FILE *f = fopen(path, "rb");
	char tmp[] = "/tmp/sr-fuzz-XXXXXX";
	unsigned char *orig, *buf;
	long size, data_start = 0;
	int fd, errors = 0, ok = 0;

	if (!f) {
		FAIL("%s: %s", path, strerror(errno));
		return 1;
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	orig = malloc((size_t)size);
	buf = malloc((size_t)size);
	if (!orig || !buf || fread(orig, 1, (size_t)size, f) != (size_t)size) {
		FAIL("read %s", path);
		return 1;
	}
	fclose(f);
	fd = mkstemp(tmp);
	if (fd < 0) {
		FAIL("mkstemp");
		return 1;
	}
	close(fd);
	if (be == TRACE_BACKEND_LIBTRACECMD) {
		struct tr_file tf;
		struct sr_error err = { 0 };

		/* where the first CPU data starts: everything before is metadata */
		if (tr_file_open(&tf, path, &err)) {
			FAIL("%s", err.msg);
			return 1;
		}
		data_start = size;
		for (int b = 0; b < tf.nr_buffers; b++)
			for (int c = 0; c < tf.buffers[b].nr_cpus; c++)
				if (tf.buffers[b].cpus[c].size &&
				    (long)tf.buffers[b].cpus[c].offset < data_start)
					data_start = (long)tf.buffers[b].cpus[c].offset;
		tr_file_release(&tf);
		if (data_start >= size) {
			FAIL("%s: no CPU data", path);
			return 1;
		}
	}
	srand(seed);
	for (int it = 0; it < iters; it++) {
		long len = size;
		int flips = 1 + rand() % 8;
		struct sr_error err = { 0 };
		struct trace_reader *r;
		struct trace_event ev;
		int ret = 0;

		memcpy(buf, orig, (size_t)size);
		for (int k = 0; k < flips; k++) {
			/* bias towards the metadata at the front, where sizes live */
			long at = rand() % 4 ? rand() % (size < 65536 ? size : 65536) : rand() % size;

			/*
			 * libtracecmd backend: the ring-buffer data only. libtraceevent
			 * crashes on some corrupted format texts (tracecmd_open() parses
			 * all of them), which no validation short of parsing them
			 * ourselves can stop: that is the native backend's job.
			 */
			if (be == TRACE_BACKEND_LIBTRACECMD)
				at = data_start + rand() % (size - data_start);
			buf[at] = (unsigned char)rand();
		}
		if (rand() % 4 == 0)
			len = rand() % size;
		f = fopen(tmp, "wb");
		if (!f || fwrite(buf, 1, (size_t)len, f) != (size_t)len || fclose(f)) {
			FAIL("write %s", tmp);
			break;
		}
		/* both ways of reading the CPU data, with and without the thread */
		r = trace_open(tmp, &(struct trace_open_opts){ .backend = be, .prefetch = it % 2 ?
				TRACE_PREFETCH_NEVER : TRACE_PREFETCH_ALWAYS }, &err);
		if (r) {
			while ((ret = trace_next(r, &ev, &err)) == 1)
				;
			trace_close(r);
		}
		if (!r || ret < 0) {
			errors++;
			if (!strstr(err.msg, tmp) || strchr(err.msg, '\n'))
				FAIL("error is not one line naming the file: '%s'", err.msg);
		} else {
			uint64_t nev;

			ok++;
			/* what libtracecmd reads to the end, the native reader reads alike */
			if (be == TRACE_BACKEND_LIBTRACECMD && same_streams(tmp, &nev)) {
				FAIL("copy %d: the backends differ on a file both read", it);
				break;
			}
		}
	}
	unlink(tmp);
	free(orig);
	free(buf);
	printf("%d corrupted copies (%s reader): %d rejected with an error, %d read to the end\n",
	       iters, trace_backend_name(be), errors, ok);
	return failures ? 1 : 0;
}

static int cmd_info(const char *path, int version, const char *compression, const char *buffer)
{
	struct sr_error err = { 0 };
	struct trace_reader *r = trace_open(path, NULL, &err);
	const struct trace_info *in;

	if (!r) {
		FAIL("%s", err.msg);
		return 1;
	}
	in = trace_get_info(r);
	CHECK_U64("file_version", (uint64_t)in->file_version, (uint64_t)version);
	if (strcmp(in->compression, compression))
		FAIL("compression '%s', expected '%s'", in->compression, compression);
	if (strcmp(in->buffer, buffer))
		FAIL("buffer '%s', expected '%s' (%s)", in->buffer, buffer, in->buffer_reason);
	if (in->first_ts == 0 || in->last_ts < in->first_ts)
		FAIL("span %" PRIu64 " .. %" PRIu64, in->first_ts, in->last_ts);
	trace_close(r);
	return failures ? 1 : 0;
}

/*
 * trace-cmd here cannot write zlib files: check that the reader's zlib and
 * zstd calls undo what the libraries' own compressors produce, and reject
 * corrupted or wrongly sized input.
 */
static int cmd_decompress(void)
{
	static uint8_t in[40960], z[65536], out[40960];
	uLongf zl = sizeof(z);
	size_t zs;

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + (i >> 9));
	if (compress2(z, &zl, in, sizeof(in), 6) != Z_OK) {
		FAIL("zlib compress2");
		return 1;
	}
	memset(out, 0, sizeof(out));
	CHECK_U64("zlib ok", (uint64_t)tr_decompress(TR_COMPRESS_ZLIB, z, zl, out, sizeof(out)), 0);
	CHECK_U64("zlib same bytes", (uint64_t)memcmp(in, out, sizeof(in)), 0);
	CHECK_U64("zlib short output rejected",
		  (uint64_t)tr_decompress(TR_COMPRESS_ZLIB, z, zl, out, sizeof(out) - 1), (uint64_t)-1);
	z[zl / 2] ^= 0x55;
	if (tr_decompress(TR_COMPRESS_ZLIB, z, zl, out, sizeof(out)) == 0 &&
	    !memcmp(in, out, sizeof(in)))
		FAIL("corrupted zlib data decompressed to the original");
	zs = ZSTD_compress(z, sizeof(z), in, sizeof(in), 3);
	if (ZSTD_isError(zs)) {
		FAIL("ZSTD_compress");
		return 1;
	}
	memset(out, 0, sizeof(out));
	CHECK_U64("zstd ok", (uint64_t)tr_decompress(TR_COMPRESS_ZSTD, z, zs, out, sizeof(out)), 0);
	CHECK_U64("zstd same bytes", (uint64_t)memcmp(in, out, sizeof(in)), 0);
	CHECK_U64("zstd truncated rejected",
		  (uint64_t)tr_decompress(TR_COMPRESS_ZSTD, z, zs - 3, out, sizeof(out)), (uint64_t)-1);
	CHECK_U64("none is not a decompressor",
		  (uint64_t)tr_decompress(TR_COMPRESS_NONE, z, zs, out, sizeof(out)), (uint64_t)-1);
	if (!failures)
		printf("zlib and zstd decompression checked\n");
	return failures ? 1 : 0;
}

/* ---- backends ------------------------------------------------------------- */

static void cmp_str(const char *what, uint64_t n, const char *a, const char *b)
{
	if ((a == NULL) != (b == NULL) || (a && strcmp(a, b)))
		FAIL("event %" PRIu64 ": %s: native '%s', libtracecmd '%s'", n, what,
		     a ? a : "(null)", b ? b : "(null)");
}

static void cmp_mem(const char *what, uint64_t n, const char *a, size_t al, const char *b,
		    size_t bl)
{
	if (al != bl || (al && memcmp(a, b, al)))
		FAIL("event %" PRIu64 ": %s: native '%.*s', libtracecmd '%.*s'", n, what, (int)al,
		     a, (int)bl, b);
}

#define CMP_EV(n, field) CHECK_U64(#field, (uint64_t)(a->field), (uint64_t)(b->field))

/* Every field of two decoded events; strings by content. */
static void cmp_event(uint64_t n, const struct trace_event *a, const struct trace_event *b)
{
	int before = failures;

	CMP_EV(n, type);
	CMP_EV(n, cpu);
	CMP_EV(n, ts);
	CMP_EV(n, offset);
	CMP_EV(n, offset_in_stream);
	CMP_EV(n, offset_is_line);
	CMP_EV(n, common_pid);
	CMP_EV(n, common_flags);
	CMP_EV(n, common_preempt_count);
	CMP_EV(n, id);
	cmp_str("name", n, a->name, b->name);
	if (a->type != b->type)
		goto out;
	switch (a->type) {
	case TRACE_EV_SCHED_SWITCH:
		cmp_str("prev_comm", n, a->u.sched_switch.prev_comm, b->u.sched_switch.prev_comm);
		cmp_str("next_comm", n, a->u.sched_switch.next_comm, b->u.sched_switch.next_comm);
		CMP_EV(n, u.sched_switch.prev_pid);
		CMP_EV(n, u.sched_switch.prev_prio);
		CMP_EV(n, u.sched_switch.prev_state);
		CMP_EV(n, u.sched_switch.prev_run);
		CMP_EV(n, u.sched_switch.prev_preempt);
		CMP_EV(n, u.sched_switch.next_pid);
		CMP_EV(n, u.sched_switch.next_prio);
		break;
	case TRACE_EV_SCHED_WAKING:
	case TRACE_EV_SCHED_WAKEUP:
	case TRACE_EV_SCHED_WAKEUP_NEW:
		cmp_str("comm", n, a->u.wakeup.comm, b->u.wakeup.comm);
		CMP_EV(n, u.wakeup.pid);
		CMP_EV(n, u.wakeup.prio);
		CMP_EV(n, u.wakeup.target_cpu);
		CMP_EV(n, u.wakeup.success);
		break;
	case TRACE_EV_SCHED_MIGRATE_TASK:
		cmp_str("comm", n, a->u.migrate.comm, b->u.migrate.comm);
		CMP_EV(n, u.migrate.pid);
		CMP_EV(n, u.migrate.prio);
		CMP_EV(n, u.migrate.orig_cpu);
		CMP_EV(n, u.migrate.dest_cpu);
		break;
	case TRACE_EV_SCHED_PROCESS_FORK:
		cmp_str("parent_comm", n, a->u.fork.parent_comm, b->u.fork.parent_comm);
		cmp_str("child_comm", n, a->u.fork.child_comm, b->u.fork.child_comm);
		CMP_EV(n, u.fork.parent_pid);
		CMP_EV(n, u.fork.child_pid);
		break;
	case TRACE_EV_SCHED_PROCESS_EXEC:
		cmp_mem("filename", n, a->u.exec.filename, a->u.exec.filename_len,
			b->u.exec.filename, b->u.exec.filename_len);
		CMP_EV(n, u.exec.pid);
		CMP_EV(n, u.exec.old_pid);
		break;
	case TRACE_EV_SCHED_PROCESS_EXIT:
		cmp_str("comm", n, a->u.exit.comm, b->u.exit.comm);
		CMP_EV(n, u.exit.pid);
		CMP_EV(n, u.exit.prio);
		CMP_EV(n, u.exit.group_dead);
		break;
	case TRACE_EV_SCHED_STAT_RUNTIME:
		cmp_str("comm", n, a->u.stat_runtime.comm, b->u.stat_runtime.comm);
		CMP_EV(n, u.stat_runtime.pid);
		CMP_EV(n, u.stat_runtime.runtime);
		CMP_EV(n, u.stat_runtime.vruntime);
		CMP_EV(n, u.stat_runtime.has_vruntime);
		break;
	case TRACE_EV_CGROUP_ATTACH_TASK:
		cmp_mem("dst_path", n, a->u.cgroup_attach.dst_path, a->u.cgroup_attach.dst_path_len,
			b->u.cgroup_attach.dst_path, b->u.cgroup_attach.dst_path_len);
		cmp_str("comm", n, a->u.cgroup_attach.comm, b->u.cgroup_attach.comm);
		CMP_EV(n, u.cgroup_attach.dst_root);
		CMP_EV(n, u.cgroup_attach.dst_level);
		CMP_EV(n, u.cgroup_attach.has_dst_level);
		CMP_EV(n, u.cgroup_attach.dst_id);
		CMP_EV(n, u.cgroup_attach.pid);
		break;
	case TRACE_EV_SCHED_PI_SETPRIO:
		cmp_str("comm", n, a->u.pi_setprio.comm, b->u.pi_setprio.comm);
		CMP_EV(n, u.pi_setprio.pid);
		CMP_EV(n, u.pi_setprio.oldprio);
		CMP_EV(n, u.pi_setprio.newprio);
		break;
	case TRACE_EV_SYS_ENTER_READ:
	case TRACE_EV_SYS_EXIT_READ:
	case TRACE_EV_SYS_ENTER_WRITE:
	case TRACE_EV_SYS_EXIT_WRITE:
		CMP_EV(n, u.syscall.fd);
		CMP_EV(n, u.syscall.count);
		CMP_EV(n, u.syscall.ret);
		break;
	default:
		break;
	}
out:
	if (failures != before)
		fprintf(stderr, "  (event %" PRIu64 ": cpu %d ts %" PRIu64 " %s)\n", n, a->cpu, a->ts,
			a->name);
}

/*
 * The streams of @path read with @oa and @ob (labels @la, @lb): 0 if equal
 * event by event, lost-event marks included (failures counted).
 */
static int same_streams_as(const char *path, const struct trace_open_opts *oa, const char *la,
			   const struct trace_open_opts *ob, const char *lb, uint64_t *events)
{
	struct sr_error ea = { 0 }, eb = { 0 };
	struct trace_reader *a = trace_open(path, oa, &ea);
	struct trace_reader *b = trace_open(path, ob, &eb);
	struct trace_event x, y;
	int ra = 0, rb = 0, before = failures;

	*events = 0;
	if (!a || !b) {
		if (a || b)
			FAIL("%s: %s %s, %s %s", path, la, a ? "opens" : ea.msg, lb,
			     b ? "opens" : eb.msg);
		goto out;
	}
	while (failures - before < 10) {
		ra = trace_next(a, &x, &ea);
		rb = trace_next(b, &y, &eb);
		if (ra != 1 || rb != 1)
			break;
		cmp_event(*events, &x, &y);
		CHECK_U64("lost before", trace_lost_before(b), trace_lost_before(a));
		++*events;
	}
	if (failures == before && (ra != rb || (ra < 0 && strcmp(ea.msg, eb.msg))))
		FAIL("after %" PRIu64 " events: %s %d (%s), %s %d (%s)", *events, la, ra,
		     ra < 0 ? ea.msg : "", lb, rb, rb < 0 ? eb.msg : "");
out:
	trace_close(a);
	trace_close(b);
	return failures != before;
}

/* Both backends' streams of @path: 0 if equal event by event (failures counted). */
static int same_streams(const char *path, uint64_t *events)
{
	return same_streams_as(path, &(struct trace_open_opts){ 0 }, "native",
			       &(struct trace_open_opts){ .backend = TRACE_BACKEND_LIBTRACECMD },
			       "libtracecmd", events);
}

/*
 * The native reader with and without its read-ahead thread gives the same
 * events (and the same error on a damaged file), repaired or not.
 */
static int cmd_prefetch(const char *path)
{
	uint64_t n = 0;

	for (unsigned repair = 0; repair <= TRACE_REPAIR_IDLE_EXIT; repair++)
		same_streams_as(path, &(struct trace_open_opts){ .repair = repair,
				.prefetch = TRACE_PREFETCH_ALWAYS }, "prefetch",
				&(struct trace_open_opts){ .repair = repair,
				.prefetch = TRACE_PREFETCH_NEVER }, "no prefetch", &n);
	if (!n)
		FAIL("%s: no events", path);
	printf("%s: %" PRIu64 " events alike with and without the prefetch thread\n", path, n);
	return failures ? 1 : 0;
}

/* ---- consume ---------------------------------------------------------------- */

/*
 * trace_consume() against trace_next(): each callback compares its event
 * with the next one of a second reader of the same file and options.
 */
struct consume_check {
	struct trace_reader *ref;
	uint64_t n;
	uint64_t stop_at;       /* the callback of event @stop_at returns 1 */
	int before;             /* failures before this stream */
};

static int consume_cmp(struct consume_check *k, const struct trace_event *ev, uint64_t lost,
		       bool typed, enum trace_event_type lo, enum trace_event_type hi)
{
	struct sr_error e = { 0 };
	struct trace_event want;
	int ret = trace_next(k->ref, &want, &e);

	if (failures - k->before >= 10)
		return 1;
	if (ret != 1) {
		FAIL("event %" PRIu64 ": consumed, trace_next() returned %d (%s)", k->n, ret,
		     ret < 0 ? e.msg : "");
		return 1;
	}
	cmp_event(k->n, ev, &want);
	CHECK_U64("lost before", lost, trace_lost_before(k->ref));
	if (typed && (ev->type < lo || ev->type > hi))
		FAIL("event %" PRIu64 ": %s given to the callback of types %s..%s", k->n,
		     trace_event_type_name(ev->type), trace_event_type_name(lo),
		     trace_event_type_name(hi));
	if (!typed && ((ev->type >= TRACE_EV_SCHED_SWITCH &&
			ev->type <= TRACE_EV_SCHED_WAKEUP_NEW) ||
		       ev->type == TRACE_EV_SCHED_STAT_RUNTIME))
		FAIL("event %" PRIu64 ": %s given to the other callback", k->n,
		     trace_event_type_name(ev->type));
	return k->n++ == k->stop_at;
}

static int consume_switch(void *ctx, const struct trace_event *ev, uint64_t lost)
{
	return consume_cmp(ctx, ev, lost, true, TRACE_EV_SCHED_SWITCH, TRACE_EV_SCHED_SWITCH);
}

static int consume_wakeup(void *ctx, const struct trace_event *ev, uint64_t lost)
{
	return consume_cmp(ctx, ev, lost, true, TRACE_EV_SCHED_WAKING,
			   TRACE_EV_SCHED_WAKEUP_NEW);
}

static int consume_stat_runtime(void *ctx, const struct trace_event *ev, uint64_t lost)
{
	return consume_cmp(ctx, ev, lost, true, TRACE_EV_SCHED_STAT_RUNTIME,
			   TRACE_EV_SCHED_STAT_RUNTIME);
}

static int consume_other(void *ctx, const struct trace_event *ev, uint64_t lost)
{
	return consume_cmp(ctx, ev, lost, false, TRACE_EV_OTHER, TRACE_EV_OTHER);
}

/* The events consumed of @path with @o, up to @stop_at's (UINT64_MAX: all). */
static uint64_t consume_as(const char *path, const struct trace_open_opts *o, uint64_t stop_at)
{
	struct sr_error ea = { 0 }, eb = { 0 };
	struct consume_check k = { .stop_at = stop_at, .before = failures };
	const struct trace_consumer cs = { consume_switch, consume_wakeup, consume_stat_runtime,
					   consume_other, &k };
	struct trace_reader *r = trace_open(path, o, &ea);
	struct trace_event ev;
	int ret, rn;

	k.ref = trace_open(path, o, &eb);
	if (!r || !k.ref) {
		FAIL("%s: %s", path, r ? eb.msg : ea.msg);
		goto out;
	}
	ret = trace_consume(r, &cs, &ea);
	if (failures != k.before)
		goto out;
	if (stop_at != UINT64_MAX && k.n == stop_at + 1) {
		/* stopped by the callback: -1, and the reader refuses to go on */
		CHECK_U64("trace_consume() after a callback's stop", (uint64_t)(ret == -1), 1);
		CHECK_U64("trace_next() after the stop", (uint64_t)(trace_next(r, &ev, &ea) == -1),
			  1);
		goto out;
	}
	rn = trace_next(k.ref, &ev, &eb);
	if (ret != rn || (ret < 0 && strcmp(ea.msg, eb.msg)))
		FAIL("%s, after %" PRIu64 " events: trace_consume() %d (%s), trace_next() %d (%s)",
		     path, k.n, ret, ret < 0 ? ea.msg : "", rn, rn < 0 ? eb.msg : "");
	else if (!ret)
		CHECK_U64("events read", trace_events_read(r), trace_events_read(k.ref));
out:
	trace_close(r);
	trace_close(k.ref);
	return k.n;
}

/*
 * trace_consume() gives trace_next()'s events, lost-event marks and errors,
 * each to the callback of its type, with both backends, repaired or not; a
 * callback's non-zero return stops it.
 */
static int cmd_consume(const char *path)
{
	static const enum trace_backend be[] = { TRACE_BACKEND_NATIVE,
						 TRACE_BACKEND_LIBTRACECMD };
	uint64_t n = 0;

	for (unsigned repair = 0; repair <= TRACE_REPAIR_IDLE_EXIT; repair++)
		for (size_t b = 0; b < sizeof(be) / sizeof(be[0]); b++) {
			struct trace_open_opts o = { .repair = repair, .backend = be[b] };

			n = consume_as(path, &o, UINT64_MAX);
			if (n > 1)
				CHECK_U64("events consumed before the stop",
					  consume_as(path, &o, n / 2), n / 2 + 1);
		}
	if (!n)
		FAIL("%s: no events", path);
	printf("%s: %" PRIu64 " events consumed as trace_next() delivers them\n", path, n);
	return failures ? 1 : 0;
}

/* The whole report as JSON and as text, with the reader's name masked. */
/* @sidecar: the capture sidecar to use, NULL for the report's default (TRACE.json) */
static char *report_bytes(const char *path, const char *sidecar, enum trace_backend be, bool json,
			  size_t *len, int *rc)
{
	struct report_opts o;
	struct report_data d;
	struct sr_error err = { 0 };
	char *buf = NULL, *p;
	FILE *f = open_memstream(&buf, len);

	report_opts_default(&o);
	o.path = path;
	o.sidecar = sidecar;
	o.backend = be;
	o.by[LAT_BY_PID] = o.by[LAT_BY_CGROUP] = true;
	o.top = 0;
	if (!f)
		return NULL;
	*rc = report_collect(&o, &d, &err);
	if (*rc)
		fprintf(f, "error: %s\n", err.msg);
	else if (json)
		report_print_json(f, &d, &o, &err);
	else
		report_print_text(f, &d, &o);
	report_data_release(&d);
	fclose(f);
	/* "libtracecmd" -> "native" where the output names the reader */
	while (buf && (p = strstr(buf, "libtracecmd"))) {
		memcpy(p, "native", 6);
		memmove(p + 6, p + 11, strlen(p + 11) + 1);
		*len -= 5;
	}
	return buf;
}

static int cmd_backends(const char *path)
{
	struct sr_error ea = { 0 }, eb = { 0 };
	struct trace_open_opts oa = { .backend = TRACE_BACKEND_NATIVE };
	struct trace_open_opts ob = { .backend = TRACE_BACKEND_LIBTRACECMD };
	struct trace_reader *a = trace_open(path, &oa, &ea);
	struct trace_reader *b = trace_open(path, &ob, &eb);
	const struct trace_info *ia, *ib;
	struct trace_event x, y;
	uint64_t n = 0, lost_marks = 0;
	int ra, rb;

	if (!a || !b) {
		if (!a && !b && !strcmp(ea.msg, eb.msg)) {
			printf("%s: both backends reject it: %s\n", path, ea.msg);
			return 0;
		}
		FAIL("open: native: %s; libtracecmd: %s", a ? "ok" : ea.msg, b ? "ok" : eb.msg);
		trace_close(a);
		trace_close(b);
		return 1;
	}
	ia = trace_get_info(a);
	ib = trace_get_info(b);
	if (strcmp(ia->backend, "native") || strcmp(ib->backend, "libtracecmd"))
		FAIL("backend names '%s', '%s'", ia->backend, ib->backend);
	CHECK_U64("file_version", (uint64_t)ib->file_version, (uint64_t)ia->file_version);
	CHECK_U64("long_size", (uint64_t)ib->long_size, (uint64_t)ia->long_size);
	CHECK_U64("cpus", (uint64_t)ib->cpus, (uint64_t)ia->cpus);
	CHECK_U64("first_ts", ib->first_ts, ia->first_ts);
	CHECK_U64("last_ts", ib->last_ts, ia->last_ts);
	CHECK_U64("page_size", ib->page_size, ia->page_size);
	CHECK_U64("has_sched_waking_format", ib->has_sched_waking_format,
		  ia->has_sched_waking_format);
	CHECK_U64("has_sched_wakeup_format", ib->has_sched_wakeup_format,
		  ia->has_sched_wakeup_format);
	CHECK_U64("nr_cpus", (uint64_t)trace_nr_cpus(b), (uint64_t)trace_nr_cpus(a));
	if (strcmp(ia->buffer, ib->buffer) || strcmp(ia->compression, ib->compression))
		FAIL("buffer/compression '%s'/%s vs '%s'/%s", ia->buffer, ia->compression,
		     ib->buffer, ib->compression);
	for (;;) {
		ra = trace_next(a, &x, &ea);
		rb = trace_next(b, &y, &eb);
		if (ra != 1 || rb != 1)
			break;
		cmp_event(n, &x, &y);
		CHECK_U64("lost before", trace_lost_before(b), trace_lost_before(a));
		lost_marks += trace_lost_before(a) != 0;
		n++;
		if (failures > 20) {
			FAIL("too many differences, stopping at event %" PRIu64, n);
			break;
		}
	}
	if (failures <= 20 && (ra != 0 || rb != 0))
		FAIL("after %" PRIu64 " events: native %d (%s), libtracecmd %d (%s)", n, ra,
		     ra < 0 ? ea.msg : "", rb, rb < 0 ? eb.msg : "");
	for (int c = 0; c < trace_nr_cpus(a); c++) {
		bool ua, ub;
		uint64_t la = trace_lost_events(a, c, &ua), lb = trace_lost_events(b, c, &ub);

		CHECK_U64("lost per cpu", lb, la);
		CHECK_U64("lost unknown per cpu", ub, ua);
	}
	for (size_t i = 0;; i++) {
		const char *na = NULL, *nb = NULL;
		uint64_t ca = 0, cb = 0;
		bool ha = trace_event_count_at(a, i, &na, &ca), hb = trace_event_count_at(b, i, &nb, &cb);

		if (ha != hb || (ha && (strcmp(na, nb) || ca != cb)))
			FAIL("event count %zu: native %s %" PRIu64 ", libtracecmd %s %" PRIu64, i,
			     ha ? na : "-", ca, hb ? nb : "-", cb);
		if (!ha || !hb)
			break;
	}
	trace_close(a);
	trace_close(b);

	for (int json = 0; json < 2; json++) {
		size_t la = 0, lb = 0;
		int rca = 0, rcb = 0;
		char *ja = report_bytes(path, NULL, TRACE_BACKEND_NATIVE, json, &la, &rca);
		char *jb = report_bytes(path, NULL, TRACE_BACKEND_LIBTRACECMD, json, &lb, &rcb);

		if (!ja || !jb || rca != rcb || la != lb || memcmp(ja, jb, la)) {
			size_t k = 0;

			while (ja && jb && k < la && k < lb && ja[k] == jb[k])
				k++;
			FAIL("%s reports differ (rc %d/%d, %zu/%zu bytes) at byte %zu: native "
			     "'%.80s' libtracecmd '%.80s'", json ? "JSON" : "text", rca, rcb, la, lb,
			     k, ja ? ja + k : "", jb ? jb + k : "");
		}
		free(ja);
		free(jb);
	}
	if (failures)
		return 1;
	printf("%s: %" PRIu64 " events equal in every field (%" PRIu64 " after a lost-events "
	       "gap), reports equal (JSON and text)\n", path, n, lost_marks);
	return 0;
}

/* ---- text ------------------------------------------------------------------ */

/* A report as a JSON object (NULL if it fails; *rc its status). */
static json_t *report_object(const char *path, const char *sidecar, int *rc)
{
	size_t len = 0;
	char *buf = report_bytes(path, sidecar, TRACE_BACKEND_NATIVE, true, &len, rc);
	json_t *j = buf && !*rc ? json_loadb(buf, len, 0, NULL) : NULL;

	free(buf);
	return j;
}

static int cmd_text(const char *bin, const char *text)
{
	struct sr_error ea = { 0 }, eb = { 0 };
	struct trace_reader *a = trace_open(bin, NULL, &ea);
	struct trace_reader *b = trace_open(text, NULL, &eb);
	struct trace_event x, y;
	uint64_t n = 0;
	int ra, rb, rca = 0, rcb = 0;
	json_t *ja, *jb;
	char sidecar[4096];
	static const char *const sections[] = { "events", "wakeup_latency_us",
						"runqueue_wait_us", "tasks" };

	if (!a || !b) {
		FAIL("open: %s: %s; %s: %s", bin, a ? "ok" : ea.msg, text, b ? "ok" : eb.msg);
		trace_close(a);
		trace_close(b);
		return 1;
	}
	if (strcmp(trace_get_info(b)->format, "text") || strcmp(trace_get_info(a)->format,
								 "trace.dat"))
		FAIL("formats '%s', '%s'", trace_get_info(a)->format, trace_get_info(b)->format);
	if (strcmp(trace_get_info(a)->buffer, trace_get_info(b)->buffer))
		FAIL("buffer '%s' vs text '%s'", trace_get_info(a)->buffer, trace_get_info(b)->buffer);
	CHECK_U64("first_ts", trace_get_info(b)->first_ts, trace_get_info(a)->first_ts);
	CHECK_U64("last_ts", trace_get_info(b)->last_ts, trace_get_info(a)->last_ts);
	for (;;) {
		struct trace_event xa, yb;

		ra = trace_next(a, &x, &ea);
		rb = trace_next(b, &y, &eb);
		if (ra != 1 || rb != 1)
			break;
		/* what text cannot carry: record offsets, kernel ids, flags, raw state */
		xa = x;
		yb = y;
		xa.offset = yb.offset = 0;
		xa.offset_in_stream = yb.offset_in_stream = false;
		xa.offset_is_line = yb.offset_is_line = false;
		xa.id = yb.id = 0;
		xa.common_flags = yb.common_flags = 0;
		xa.common_preempt_count = yb.common_preempt_count = 0;
		if (x.type == TRACE_EV_SCHED_SWITCH && y.type == TRACE_EV_SCHED_SWITCH &&
		    y.u.sched_switch.prev_state == 0)
			xa.u.sched_switch.prev_state = 0;  /* letters: no raw value */
		cmp_event(n, &xa, &yb);
		CHECK_U64("lost before", trace_lost_before(b), trace_lost_before(a));
		n++;
		if (failures > 20) {
			FAIL("too many differences, stopping at event %" PRIu64, n);
			break;
		}
	}
	if (failures <= 20 && (ra != 0 || rb != 0))
		FAIL("after %" PRIu64 " events: trace.dat %d (%s), text %d (%s)", n, ra,
		     ra < 0 ? ea.msg : "", rb, rb < 0 ? eb.msg : "");
	for (int c = 0; c < trace_nr_cpus(a); c++) {
		bool ua, ub;
		uint64_t la = trace_lost_events(a, c, &ua), lb = trace_lost_events(b, c, &ub);

		CHECK_U64("lost per cpu", lb, la);
		CHECK_U64("lost unknown per cpu", ub, ua);
	}
	trace_close(a);
	trace_close(b);

	/*
	 * a capture's sidecar (TRACE.json) seeds the tasks' cgroups: the text's
	 * report gets it too (text has no TRACEID to check it against)
	 */
	snprintf(sidecar, sizeof(sidecar), "%s.json", bin);
	ja = report_object(bin, NULL, &rca);
	jb = report_object(text, access(sidecar, R_OK) ? NULL : sidecar, &rcb);
	CHECK_U64("report status", (uint64_t)rcb, (uint64_t)rca);
	if (ja && jb) {
		json_t *ta = json_object_get(ja, "trace"), *tb = json_object_get(jb, "trace");

		for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
			if (!json_equal(json_object_get(ja, sections[i]),
					json_object_get(jb, sections[i])))
				FAIL("report section '%s' differs between %s and %s", sections[i],
				     bin, text);
		if (!json_equal(json_object_get(ta, "lost_events"), json_object_get(tb, "lost_events")) ||
		    !json_equal(json_object_get(ta, "lost_events_per_cpu"),
				json_object_get(tb, "lost_events_per_cpu")))
			FAIL("lost events differ between %s and %s", bin, text);
	} else if (!rca) {
		FAIL("no report of %s", text);
	}
	json_decref(ja);
	json_decref(jb);
	if (failures)
		return 1;
	printf("%s: %" PRIu64 " events equal to %s's (all fields text carries), same report\n",
	       text, n, bin);
	return 0;
}

/*
 * The syscall events of ftrace text in its four spellings, with the values
 * each line states: tracefs of 6.18 ("fd: 3, buf: 0x.., count: 0x340": 0x
 * but below 10) and its verbose mode (types before the names), tracefs of
 * 6.12 and older (every argument "%lx", no 0x), trace-cmd report -N (the
 * print format) and -R (raw fields); the exits "sys_read -> 0x340", "0x340"
 * and "ret=0x340", -errno as the kernel's unsigned long.
 */
static int cmd_syscall_text(const char *dir)
{
	static const char *const files[][2] = {
		{ "tracefs.txt",
		  "# tracer: nop\n#\n"
		  "            head-4863    [001] ..... 47795.275406: sys_read(fd: 3, buf: 0x7ffc74ad1018, count: 0x340)\n"
		  "            head-4863    [001] ..... 47795.275408: sys_read -> 0x340\n"
		  "            head-4863    [000] ..... 47795.275409: sys_write(unsigned int fd: 0xc, const char * buf: 0x7ffc74ad1018, size_t count: 0x20)\n"
		  "            head-4863    [000] ..... 47795.275410: sys_write -> 0xfffffffffffffff5\n"
		  "            head-4863    [000] ..... 47795.275411: sys_read(fd: 1f, buf: 7ffc74ad1018, count: 340)\n"
		  "            head-4863    [000] ..... 47795.275412: sys_read -> 0\n" },
		{ "tracecmd-N.txt",
		  "version = 7\ncpus=2\n"
		  "            head-4863  [001] 47795.275406000: sys_enter_read:       fd: 0x00000003, buf: 0x7ffc74ad1018, count: 0x00000340\n"
		  "            head-4863  [001] 47795.275408000: sys_exit_read:        0x340\n"
		  "            head-4863  [000] 47795.275409000: sys_enter_write:      fd: 0x0000000c, buf: 0x7ffc74ad1018, count: 0x00000020\n"
		  "            head-4863  [000] 47795.275410000: sys_exit_write:       0xfffffffffffffff5\n"
		  "            head-4863  [000] 47795.275411000: sys_enter_read:       fd: 0x0000001f, buf: 0x7ffc74ad1018, count: 0x00000340\n"
		  "            head-4863  [000] 47795.275412000: sys_exit_read:        0x0\n" },
		{ "tracecmd-R.txt",
		  "version = 7\ncpus=2\n"
		  "            head-4863  [001] 47795.275406000: sys_enter_read:        __syscall_nr=0 fd=0x00000003 buf=0x7ffc74ad1018 count=0x00000340\n"
		  "            head-4863  [001] 47795.275408000: sys_exit_read:         __syscall_nr=0 ret=0x340\n"
		  "            head-4863  [000] 47795.275409000: sys_enter_write:       __syscall_nr=1 fd=0x0000000c buf=0x7ffc74ad1018 count=0x00000020\n"
		  "            head-4863  [000] 47795.275410000: sys_exit_write:        __syscall_nr=1 ret=0xfffffffffffffff5\n"
		  "            head-4863  [000] 47795.275411000: sys_enter_read:        __syscall_nr=0 fd=0x0000001f buf=0x7ffc74ad1018 count=0x00000340\n"
		  "            head-4863  [000] 47795.275412000: sys_exit_read:         __syscall_nr=0 ret=0x0\n" },
	};
	static const struct {
		enum trace_event_type type;
		int cpu;
		int64_t fd;
		uint64_t count;
		int64_t ret;
	} want[] = {
		{ TRACE_EV_SYS_ENTER_READ, 1, 3, 0x340, 0 },
		{ TRACE_EV_SYS_EXIT_READ, 1, 0, 0, 0x340 },
		{ TRACE_EV_SYS_ENTER_WRITE, 0, 12, 0x20, 0 },
		{ TRACE_EV_SYS_EXIT_WRITE, 0, 0, 0, -11 },
		{ TRACE_EV_SYS_ENTER_READ, 0, 0x1f, 0x340, 0 },
		{ TRACE_EV_SYS_EXIT_READ, 0, 0, 0, 0 },
	};
	const size_t nw = sizeof(want) / sizeof(want[0]);

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		char path[4096], name[64];
		struct sr_error err = { 0 };
		struct trace_reader *r;
		struct trace_event ev;
		size_t n = 0;
		FILE *o;
		int ret;

		snprintf(path, sizeof(path), "%s/%s", dir, files[f][0]);
		o = fopen(path, "w");
		if (!o || fputs(files[f][1], o) < 0 || fclose(o)) {
			FAIL("%s: cannot write: %s", path, strerror(errno));
			return 1;
		}
		r = trace_open(path, NULL, &err);
		if (!r) {
			FAIL("%s: %s", path, err.msg);
			continue;
		}
		while ((ret = trace_next(r, &ev, &err)) == 1) {
			if (n >= nw) {
				FAIL("%s: event %zu beyond the %zu written", path, n, nw);
				break;
			}
			/* tracefs names both events by the syscall: "sys_read" */
			snprintf(name, sizeof(name), "%s", trace_event_type_name(want[n].type));
			if (f == 0)
				snprintf(name, sizeof(name), "sys_%s", strrchr(
					 trace_event_type_name(want[n].type), '_') + 1);
			if (ev.type != want[n].type || strcmp(ev.name, name))
				FAIL("%s: event %zu: type %s (name %s), expected %s (name %s)", path,
				     n, trace_event_type_name(ev.type), ev.name,
				     trace_event_type_name(want[n].type), name);
			CHECK_U64("cpu", (uint64_t)ev.cpu, (uint64_t)want[n].cpu);
			CHECK_U64("common_pid", (uint64_t)ev.common_pid, 4863);
			CHECK_U64("fd", (uint64_t)ev.u.syscall.fd, (uint64_t)want[n].fd);
			CHECK_U64("count", ev.u.syscall.count, want[n].count);
			CHECK_U64("ret", (uint64_t)ev.u.syscall.ret, (uint64_t)want[n].ret);
			n++;
		}
		if (ret < 0)
			FAIL("%s: %s", path, err.msg);
		CHECK_U64("events", n, nw);
		trace_close(r);
	}
	if (failures)
		return 1;
	printf("syscall events of ftrace text: %zu files, each %zu events with their values\n",
	       sizeof(files) / sizeof(files[0]), nw);
	return 0;
}

/*
 * A numeric prev_state (trace-cmd report -R) in each kernel's bit layout,
 * told apart by its values (trace_text.c, prev_state_layout()): 4.11-4.13
 * print a preemption as 0x1000 and an exit (TASK_DEAD, "x") as 0x40, as
 * LISA's 4.11 trace.txt does; 3.x-4.1 a preemption as 0x400; 4.14+ a
 * preemption as 0x100 and 0x40 is a parked kthread ("P"), sleeping. Each
 * line's state and preemption as the kernel meant them, and the layout named.
 */
static int cmd_state_text(const char *dir)
{
	static const struct {
		const char *name, *how;
		int64_t state[5];
		enum trace_task_state run[5];
		bool preempt[5];
	} files[] = {
		{ "state-4.11.txt", "preemption 0x1000 (TASK_STATE_MAX of 4.11-4.13)",
		  { 4096, 64, 1, 130, 0 },
		  { TRACE_STATE_RUNNING, TRACE_STATE_DEAD, TRACE_STATE_SLEEPING,
		    TRACE_STATE_SLEEPING, TRACE_STATE_RUNNING },
		  { true, false, false, false, false } },
		{ "state-3.x.txt", "preemption 0x400 (TASK_STATE_MAX of 3.x-4.1)",
		  { 1024, 64, 512, 32, 2 },
		  { TRACE_STATE_RUNNING, TRACE_STATE_DEAD, TRACE_STATE_SLEEPING,
		    TRACE_STATE_DEAD, TRACE_STATE_SLEEPING },
		  { true, false, false, false, false } },
		{ "state-4.14.txt", "the 4.14+ bit layout assumed",
		  { 256, 64, 1, 16, 0 },
		  { TRACE_STATE_RUNNING, TRACE_STATE_SLEEPING, TRACE_STATE_SLEEPING,
		    TRACE_STATE_DEAD, TRACE_STATE_RUNNING },
		  { true, false, false, false, false } },
	};

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		char path[4096];
		struct sr_error err = { 0 };
		struct trace_reader *r;
		struct trace_event ev;
		const char *how;
		size_t n = 0;
		FILE *o;
		int ret;

		snprintf(path, sizeof(path), "%s/%s", dir, files[f].name);
		o = fopen(path, "w");
		if (!o || fputs("version = 6\ncpus=2\n", o) < 0) {
			FAIL("%s: cannot write: %s", path, strerror(errno));
			return 1;
		}
		for (int i = 0; i < 5; i++)
			fprintf(o, "            t-%d  [000]    76.%06d: sched_switch:          "
				"prev_comm=t prev_pid=%d prev_prio=120 prev_state=%" PRId64
				" next_comm=t next_pid=%d next_prio=120\n", 100 + i, 211513 + i,
				100 + i, files[f].state[i], 101 + i);
		if (fclose(o)) {
			FAIL("%s: cannot write: %s", path, strerror(errno));
			return 1;
		}
		r = trace_open(path, NULL, &err);
		if (!r) {
			FAIL("%s: %s", path, err.msg);
			continue;
		}
		how = trace_get_info(r)->prev_state_how;
		if (!how || !strstr(how, files[f].how))
			FAIL("%s: prev_state layout '%s', expected '...%s...'", path,
			     how ? how : "(none)", files[f].how);
		while ((ret = trace_next(r, &ev, &err)) == 1 && n < 5) {
			CHECK_U64("prev_state", (uint64_t)ev.u.sched_switch.prev_state,
				  (uint64_t)files[f].state[n]);
			CHECK_U64("prev_run", ev.u.sched_switch.prev_run, files[f].run[n]);
			CHECK_U64("prev_preempt", ev.u.sched_switch.prev_preempt,
				  files[f].preempt[n]);
			n++;
		}
		if (ret < 0)
			FAIL("%s: %s", path, err.msg);
		CHECK_U64("events", n, 5);
		trace_close(r);
	}
	if (failures)
		return 1;
	printf("numeric prev_state of ftrace text: %zu kernels' layouts told apart\n",
	       sizeof(files) / sizeof(files[0]));
	return 0;
}

/*
 * sched_waking/sched_wakeup print target_cpu as "%03d": decimal with leading
 * zeros (CPU 8 is "008", CPU 10 "010"), read as octal before 2 Dec 2026 (CPU
 * 0 and CPU 8). A -R field in hex ("0x10") stays hex.
 */
static int cmd_wakeup_text(const char *dir)
{
	static const struct { const char *printed; int cpu; } v[] = {
		{ "000", 0 }, { "007", 7 }, { "008", 8 }, { "010", 10 }, { "015", 15 },
		{ "0x10", 16 }, { "11", 11 },
	};
	const size_t nv = sizeof(v) / sizeof(v[0]);
	char path[4096];
	struct sr_error err = { 0 };
	struct trace_reader *r;
	struct trace_event ev;
	size_t n = 0;
	FILE *o;
	int ret;

	snprintf(path, sizeof(path), "%s/wakeup-cpus.txt", dir);
	o = fopen(path, "w");
	if (!o || fputs("# tracer: nop\n#\n", o) < 0) {
		FAIL("%s: cannot write: %s", path, strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < nv; i++)
		fprintf(o, "          <idle>-0     [%03zu] d..2.   76.%06zu: sched_waking: comm=t "
			"pid=%zu prio=120 target_cpu=%s\n", i, 211513 + i, 100 + i, v[i].printed);
	if (fclose(o)) {
		FAIL("%s: cannot write: %s", path, strerror(errno));
		return 1;
	}
	r = trace_open(path, NULL, &err);
	if (!r) {
		FAIL("%s: %s", path, err.msg);
		return 1;
	}
	while ((ret = trace_next(r, &ev, &err)) == 1 && n < nv) {
		CHECK_U64("type", ev.type, TRACE_EV_SCHED_WAKING);
		CHECK_U64("target_cpu", (uint64_t)ev.u.wakeup.target_cpu, (uint64_t)v[n].cpu);
		n++;
	}
	if (ret < 0)
		FAIL("%s: %s", path, err.msg);
	CHECK_U64("events", n, nv);
	trace_close(r);
	if (failures)
		return 1;
	printf("target_cpu of ftrace text: %zu values read as decimal (hex after 0x)\n", nv);
	return 0;
}

/* The zlib conversions exist only if trace-cmd was built with zlib. */
static bool skip_missing(const char *path)
{
	return access(path, F_OK) && strstr(path, "zlib");
}

/*
 * Every error is one line: bytes of a damaged input that reach a message
 * (a BUFFER option's data taken as an instance name put 8 lines on stderr)
 * come out as '?', through sr_error_set() and sr_error_prefix() alike.
 */
static int cmd_errline(void)
{
	static const struct {
		const char *in, *want;
	} t[] = {
		{ "plain: 12 ok", "plain: 12 ok" },
		{ "ntries: 0\noverrun: 0\r\n", "ntries: 0?overrun: 0??" },
		{ "tab\there \x1b[31mred\x7f", "tab?here ?[31mred?" },
		{ "utf-8 caf\xc3\xa9", "utf-8 caf\xc3\xa9" },
	};
	struct sr_error err;
	int bad = 0;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char want[SR_ERROR_MSG_MAX];

		sr_error_set(&err, 1, "instance '%s'", t[i].in);
		snprintf(want, sizeof(want), "instance '%s'", t[i].want);
		if (strcmp(err.msg, want)) {
			printf("FAIL sr_error_set: got \"%s\", want \"%s\"\n", err.msg, want);
			bad++;
		}
		sr_error_set(&err, 1, "inner %d", (int)i);
		sr_error_prefix(&err, "%s", t[i].in);
		snprintf(want, sizeof(want), "%s: inner %d", t[i].want, (int)i);
		if (strcmp(err.msg, want)) {
			printf("FAIL sr_error_prefix: got \"%s\", want \"%s\"\n", err.msg, want);
			bad++;
		}
	}
	printf("%s: %zu messages, %d wrong\n", bad ? "FAIL" : "ok", 2 * (sizeof(t) / sizeof(t[0])),
	       bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "same") && skip_missing(argv[2])) {
		printf("SKIP: %s was not made (trace-cmd without zlib)\n", argv[2]);
		return 77;
	}
	if (argc >= 4 && !strcmp(argv[1], "same")) {
		int n = 0;

		for (int i = 2; i < argc; i++)
			if (!skip_missing(argv[i]))
				argv[2 + n++] = argv[i];
		argc = 2 + n;
	}
	if (argc == 2 && !strcmp(argv[1], "decompress"))
		return cmd_decompress();
	if (argc == 2 && !strcmp(argv[1], "errline"))
		return cmd_errline();
	if (argc == 4 && !strcmp(argv[1], "text"))
		return cmd_text(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "syscall-text"))
		return cmd_syscall_text(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "wakeup-text"))
		return cmd_wakeup_text(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "state-text"))
		return cmd_state_text(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "backends"))
		return cmd_backends(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "prefetch"))
		return cmd_prefetch(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "consume"))
		return cmd_consume(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "tracecmp"))
		return cmd_tracecmp(argv[2]);
	if (argc >= 4 && !strcmp(argv[1], "same"))
		return cmd_same(argc - 2, argv + 2);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "fuzz")) {
		enum trace_backend be = TRACE_BACKEND_NATIVE;

		if (argc == 6 && trace_backend_parse(argv[5], &be)) {
			fprintf(stderr, "unknown backend '%s'\n", argv[5]);
			return 2;
		}
		return cmd_fuzz(argv[2], atoi(argv[3]), (unsigned)atoi(argv[4]), be);
	}
	if (argc == 6 && !strcmp(argv[1], "info"))
		return cmd_info(argv[2], atoi(argv[3]), argv[4], argv[5]);
	fprintf(stderr, "usage: test_reader tracecmp|same|fuzz|info|backends|text ...\n");
	return 2;
}
