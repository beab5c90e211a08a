// SPDX-License-Identifier: GPL-2.0
/*
 * The capture's own tracefs instance and the per-CPU streamers.
 *
 * Why stream: a ring buffer holds buffer_kb per CPU and overwrites the oldest
 * pages when full, so "record then extract" caps a capture at what fits. Like
 * trace-cmd record, one thread per CPU reads whole ring-buffer pages from
 * per_cpu/cpuN/trace_pipe_raw as they fill and appends them to a per-CPU
 * file; the pages are already in the trace.dat flyrecord layout, so the final
 * file is assembled by copying them (cap_tracedat.c).
 *
 * When the reader wakes: tracefs_cpu_read() blocks in select(), and the
 * kernel's poll of trace_pipe_raw (tracing_buffers_poll() ->
 * ring_buffer_poll_wait()) reports it readable once the dirty pages reach the
 * instance's buffer_percent (50 by default); read() itself does not wait for
 * the watermark (tracing_buffers_read() -> wait_on_pipe(iter, 0)). The writer
 * checks the watermark at every new page (rb_wakeups()) and wakes the reader
 * from the CPU that wrote the event, inside the traced task. A reader that
 * took one page per wake kept the buffer at the watermark, and from then on
 * was woken once per page: ~2 500 times a second on a `perf bench sched pipe`
 * capture pinned to one CPU, each wake inside the workload's write(). So the
 * streamer drains the buffer after each wake (stream_drain()): the next wake
 * comes only when the buffer is half full again.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <schedreplay/tracelibs.h>

#include "cap_local.h"

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif
#ifndef DEBUGFS_MAGIC
#define DEBUGFS_MAGIC 0x64626720
#endif

struct cap_stream {
	struct cap_trace *t;
	int cpu;
	struct tracefs_cpu *tcpu;
	int fd;
	char *path;
	pthread_t thread;
	bool started;
	uint64_t bytes;
	atomic_int error;          /* errno of a failed read/write, 0 if none (the
				      recording loop polls it: cap_trace_stream_failed()) */
};

struct cap_trace {
	struct tracefs_instance *inst;
	char *name;
	char *dir;                 /* the instance's directory */
	int nr_cpus;
	int page_size;
	struct cap_stream *streams;
	atomic_bool stop;
	int marker_fd;
	bool on;
};

/* Number of CPUs the ring buffer has (per_cpu/cpuN directories). */
static int count_cpus(const char *instance_dir)
{
	char path[4096];
	int n = 0;

	for (;;) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", instance_dir, n);
		if (stat(path, &st) < 0)
			break;
		n++;
	}
	return n;
}

/*
 * Check that @dir is a mounted tracefs (or the debugfs tracing directory of
 * old kernels) before anything is created in it: a plain directory with the
 * same file names must not be mistaken for one.
 */
static int check_tracing_dir(const char *dir, struct sr_error *err)
{
	char path[4096];
	struct statfs sfs;

	if (statfs(dir, &sfs) < 0) {
		/*
		 * libtracefs offers debugfs' tracing directory when no tracefs is
		 * mounted and debugfs is: that directory may not exist either
		 */
		sr_error_set(err, errno, "tracing directory %s: %s (no tracefs there: mount it "
			     "with 'mount -t tracefs nodev /sys/kernel/tracing', or give "
			     "--tracing-dir)", dir, strerror(errno));
		return -1;
	}
	if (sfs.f_type != TRACEFS_MAGIC && sfs.f_type != DEBUGFS_MAGIC) {
		sr_error_set(err, ENODEV,
			     "%s is not a tracefs mount (mount it with 'mount -t tracefs nodev %s')",
			     dir, dir);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/instances", dir);
	if (access(path, W_OK) < 0) {
		sr_error_set(err, errno, "%s: %s (tracefs instances need root)", path,
			     strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	if (access(path, R_OK) < 0) {
		sr_error_set(err, errno, "%s: %s (is event tracing enabled in this kernel?)",
			     path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Resolve the tracing directory: the given one, or the mounted tracefs
 * (libtracefs mounts it at /sys/kernel/tracing if it is not). */
int cap_trace_resolve_dir(const char *tracing_dir, struct sr_error *err)
{
	const char *dir = sr_tracefs->tracing_dir();

	/* (comparing first: the library frees its copy before duplicating) */
	if (tracing_dir && (!dir || strcmp(dir, tracing_dir))) {
		if (sr_tracefs->set_tracing_dir((char *)tracing_dir) < 0) {
			sr_error_set(err, errno, "cannot use tracing directory %s", tracing_dir);
			return -1;
		}
		dir = sr_tracefs->tracing_dir();
	}
	/* tracefs_tracing_dir() mounts tracefs at /sys/kernel/tracing if needed */
	if (!dir) {
		sr_error_set(err, ENODEV, "no tracefs found and it could not be mounted "
			     "(mount -t tracefs nodev /sys/kernel/tracing)");
		return -1;
	}
	return check_tracing_dir(dir, err);
}

struct cap_trace *cap_trace_create(const char *name, const char *tracing_dir,
				   const struct cap_options *logopt, struct sr_error *err)
{
	struct cap_trace *t;

	if (!sr_tracefs_load(err) || cap_trace_resolve_dir(tracing_dir, err) < 0)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t) {
		sr_error_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	t->marker_fd = -1;
	t->name = strdup(name);
	if (!t->name)
		goto nomem;
	if (sr_tracefs->instance_exists(name)) {
		/*
		 * Our name carries our pid, so no running capture owns it: a
		 * killed capture had this pid before (pids wrap). Its leftover
		 * goes as --cleanup would remove it.
		 */
		char path[4096];

		snprintf(path, sizeof(path), "%s/instances/%s", sr_tracefs->tracing_dir(), name);
		if (rmdir(path) < 0) {
			sr_error_set(err, EEXIST, "tracefs instance %s already exists and cannot be "
				     "removed: %s", name, strerror(errno));
			goto fail;
		}
		cap_log(logopt, true, "removed tracefs instance %s left by a killed capture with "
			"the same pid", name);
	}
	t->inst = sr_tracefs->instance_create(name);
	if (!t->inst) {
		sr_error_set(err, errno, "cannot create tracefs instance %s: %s", name,
			     strerror(errno));
		goto fail;
	}
	t->dir = sr_tracefs->instance_get_dir(t->inst);
	if (!t->dir)
		goto nomem;
	t->nr_cpus = count_cpus(t->dir);
	if (t->nr_cpus <= 0) {
		sr_error_set(err, ENOENT, "%s has no per_cpu buffers", t->dir);
		goto fail;
	}
	t->page_size = getpagesize();
	return t;
nomem:
	sr_error_set(err, ENOMEM, "out of memory");
fail:
	cap_trace_destroy(t);
	return NULL;
}

const char *cap_trace_name(const struct cap_trace *t)
{
	return t->name;
}

const char *cap_trace_instance_dir(const struct cap_trace *t)
{
	return t->dir;
}

int cap_trace_nr_cpus(const struct cap_trace *t)
{
	return t->nr_cpus;
}

int cap_trace_page_size(const struct cap_trace *t)
{
	return t->page_size;
}

int cap_trace_setup(struct cap_trace *t, unsigned long buffer_kb, const char *clock,
		    struct sr_error *err)
{
	if (sr_tracefs->trace_off(t->inst) < 0) {
		sr_error_set(err, errno, "%s: cannot turn tracing off: %s%s", t->name,
			     strerror(errno), cap_errno_hint(errno));
		return -1;
	}
	if (buffer_kb && sr_tracefs->instance_set_buffer_size(t->inst, buffer_kb, -1) < 0) {
		sr_error_set(err, errno, "%s: cannot set buffer_size_kb to %lu: %s", t->name,
			     buffer_kb, strerror(errno));
		return -1;
	}
	if (clock && sr_tracefs->instance_file_write(t->inst, "trace_clock", clock) < 0) {
		sr_error_set(err, errno, "%s: trace clock '%s' not available: %s", t->name,
			     clock, strerror(errno));
		return -1;
	}
	return 0;
}

int cap_trace_enable(struct cap_trace *t, const char *system, const char *event)
{
	char path[512];

	/* tracefs_event_enable() matches regexes; check the exact event exists. */
	snprintf(path, sizeof(path), "events/%s/%s/enable", system, event);
	if (!sr_tracefs->file_exists(t->inst, path)) {
		errno = ENOENT;
		return -1;
	}
	return sr_tracefs->instance_file_write(t->inst, path, "1") < 0 ? -1 : 0;
}

int cap_trace_set_tracer(struct cap_trace *t, const char *tracer, const char *filter,
			 struct sr_error *err)
{
	if (filter && sr_tracefs->instance_file_write(t->inst, "set_ftrace_filter", filter) < 0) {
		sr_error_set(err, errno, "writing %s/set_ftrace_filter: %s", t->name,
			     strerror(errno));
		return -1;
	}
	if (sr_tracefs->instance_file_write(t->inst, "current_tracer", tracer) < 0) {
		sr_error_set(err, errno, "writing %s/current_tracer: %s", t->name,
			     strerror(errno));
		return -1;
	}
	return 0;
}

char *cap_trace_clock(struct cap_trace *t)
{
	char *text = sr_tracefs->instance_file_read(t->inst, "trace_clock", NULL);
	char *open, *close;
	char *name;

	if (!text)
		return NULL;
	open = strchr(text, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!open || !close) {
		free(text);
		return NULL;
	}
	*close = '\0';
	name = strdup(open + 1);
	free(text);
	return name;
}

/* Append the page just read (@r bytes, padded to a whole page) to the CPU's file. */
static int stream_write(struct cap_stream *s, char *buf, int r)
{
	int page = s->t->page_size;

	if (r < page)
		memset(buf + r, 0, page - r);
	if (cap_write_all(s->fd, buf, page) < 0) {
		s->error = errno;
		return -1;
	}
	s->bytes += page;
	return 0;
}

/* How stream_read() reads the CPU's buffer. */
enum stream_how {
	STREAM_WAIT,       /* block until the buffer reaches the watermark */
	STREAM_NOWAIT,     /* whatever is there now, EAGAIN if nothing */
	STREAM_FLUSH,      /* after tracefs_cpu_stop(): the rest, a partly filled page too */
};

/* What one stream_read() got. */
enum stream_got {
	STREAM_PAGE,       /* a page, appended to the CPU's file */
	STREAM_EINTR,      /* interrupted by a signal: read again */
	STREAM_EMPTY,      /* nothing to read (EAGAIN, 0 bytes; a flush's failed read) */
	STREAM_FAILED,     /* a read or the write failed: s->error holds its errno */
};

/*
 * Read one page of the CPU's buffer @how, and append it to the CPU's file.
 * A flush's failed read is its end, not a failure: the capture is over and
 * the pages read so far are its trace.
 */
static enum stream_got stream_read(struct cap_stream *s, char *buf, enum stream_how how)
{
	int r = how == STREAM_FLUSH ? sr_tracefs->cpu_flush(s->tcpu, buf) :
				      sr_tracefs->cpu_read(s->tcpu, buf, how == STREAM_NOWAIT);

	if (r < 0 && errno == EINTR)
		return STREAM_EINTR;
	if (r == 0 || (r < 0 && (errno == EAGAIN || how == STREAM_FLUSH)))
		return STREAM_EMPTY;
	if (r < 0) {
		s->error = errno;
		return STREAM_FAILED;
	}
	return stream_write(s, buf, r) < 0 ? STREAM_FAILED : STREAM_PAGE;
}

/*
 * After a blocking read returned (the buffer reached the watermark), read
 * without blocking until the buffer is empty, so that the reader is not woken
 * again before the buffer is half full (the file comment says why). The last
 * read may take the page the writer is on, partly filled (a padded page, as
 * at the end of a capture). Returns the pages read, -1 on a failed write or
 * read.
 */
static int stream_drain(struct cap_stream *s, char *buf)
{
	int n = 0;

	while (!atomic_load(&s->t->stop)) {
		enum stream_got got = stream_read(s, buf, STREAM_NOWAIT);

		if (got == STREAM_FAILED)
			return -1;
		if (got == STREAM_EMPTY)
			break;
		n += got == STREAM_PAGE;
	}
	return n;
}

/*
 * One CPU's streamer. Every read returns one whole sub-buffer (page) in the
 * ring-buffer format: an 8-byte timestamp, a commit word whose high bits flag
 * missed events, then the records. A short read is padded to a full page so
 * that the file stays a sequence of pages, as the trace.dat format requires.
 */
static void *stream_main(void *arg)
{
	struct cap_stream *s = arg;
	char *buf = malloc(s->t->page_size);
	enum stream_got got;

	if (!buf) {
		s->error = ENOMEM;
		return NULL;
	}
	while (!atomic_load(&s->t->stop)) {
		got = stream_read(s, buf, STREAM_WAIT);
		if (got == STREAM_FAILED || (got == STREAM_PAGE && stream_drain(s, buf) < 0))
			break;
	}
	/* Drain: after tracefs_cpu_stop() the reads no longer block, and a
	 * partly filled last page comes out too. */
	while (!s->error) {
		got = stream_read(s, buf, STREAM_FLUSH);
		if (got != STREAM_PAGE && got != STREAM_EINTR)
			break;
	}
	free(buf);
	return NULL;
}

int cap_trace_start_streams(struct cap_trace *t, const char *prefix, struct sr_error *err)
{
	int cpu;

	t->streams = calloc(t->nr_cpus, sizeof(*t->streams));
	if (!t->streams) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	for (cpu = 0; cpu < t->nr_cpus; cpu++)
		t->streams[cpu].fd = -1;
	atomic_store(&t->stop, false);
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		struct cap_stream *s = &t->streams[cpu];

		s->t = t;
		s->cpu = cpu;
		if (asprintf(&s->path, "%s.cpu%d", prefix, cpu) < 0) {
			s->path = NULL;
			sr_error_set(err, ENOMEM, "out of memory");
			return -1;
		}
		s->fd = open(s->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (s->fd < 0) {
			sr_error_set(err, errno, "%s: %s%s", s->path, strerror(errno),
				     cap_errno_hint(errno));
			return -1;
		}
		s->tcpu = sr_tracefs->cpu_open(t->inst, cpu, false);
		if (!s->tcpu) {
			sr_error_set(err, errno, "%s: cannot open per_cpu/cpu%d/trace_pipe_raw: %s%s",
				     t->name, cpu, strerror(errno), cap_errno_hint(errno));
			return -1;
		}
		if (sr_tracefs->cpu_read_size(s->tcpu) > 0)
			t->page_size = sr_tracefs->cpu_read_size(s->tcpu);
	}
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		struct cap_stream *s = &t->streams[cpu];
		int e = pthread_create(&s->thread, NULL, stream_main, s);

		if (e) {
			sr_error_set(err, e, "cannot start the CPU %d reader: %s", cpu, strerror(e));
			return -1;
		}
		s->started = true;
	}
	return 0;
}

int cap_trace_stream_failed(const struct cap_trace *t, int *cpu)
{
	for (int c = 0; t->streams && c < t->nr_cpus; c++) {
		int e = atomic_load(&t->streams[c].error);

		if (e) {
			if (cpu)
				*cpu = c;
			return e;
		}
	}
	return 0;
}

int cap_trace_on(struct cap_trace *t, bool on)
{
	int ret = on ? sr_tracefs->trace_on(t->inst) : sr_tracefs->trace_off(t->inst);

	if (!ret)
		t->on = on;
	return ret;
}

int cap_trace_mark(struct cap_trace *t, const char *text)
{
	if (t->marker_fd < 0)
		t->marker_fd = sr_tracefs->instance_file_open(t->inst, "trace_marker", O_WRONLY);
	if (t->marker_fd < 0)
		return -1;
	return cap_write_all(t->marker_fd, text, strlen(text));
}

int cap_trace_stop_streams(struct cap_trace *t, struct sr_error *err)
{
	int cpu, ret = 0;

	if (!t->streams)
		return 0;
	atomic_store(&t->stop, true);
	for (cpu = 0; cpu < t->nr_cpus; cpu++)
		if (t->streams[cpu].tcpu && t->streams[cpu].started)
			sr_tracefs->cpu_stop(t->streams[cpu].tcpu);
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		struct cap_stream *s = &t->streams[cpu];

		if (s->started) {
			pthread_join(s->thread, NULL);
			s->started = false;
		}
		if (s->tcpu) {
			sr_tracefs->cpu_close(s->tcpu);
			s->tcpu = NULL;
		}
		if (s->fd >= 0) {
			if (close(s->fd) < 0 && !s->error)
				s->error = errno;
			s->fd = -1;
		}
		if (s->error && !ret) {
			sr_error_set(err, s->error, "CPU %d: streaming to %s failed: %s", cpu,
				     s->path, strerror(s->error));
			ret = -1;
		}
	}
	return ret;
}

const char *cap_trace_cpu_file(const struct cap_trace *t, int cpu)
{
	return t->streams ? t->streams[cpu].path : NULL;
}

uint64_t cap_trace_cpu_bytes(const struct cap_trace *t, int cpu)
{
	return t->streams ? t->streams[cpu].bytes : 0;
}

void cap_trace_unlink_files(struct cap_trace *t)
{
	int cpu;

	if (!t || !t->streams)
		return;
	for (cpu = 0; cpu < t->nr_cpus; cpu++)
		if (t->streams[cpu].path)
			unlink(t->streams[cpu].path);
}

static uint64_t stat_field(const char *text, const char *key)
{
	const char *p = text;
	size_t klen = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtoull(p + klen + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

int cap_trace_read_stats(struct cap_trace *t, struct cap_cpu_stats *stats, struct sr_error *err)
{
	int cpu;

	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		struct cap_cpu_stats *s = &stats[cpu];
		char path[64];
		char *text;

		memset(s, 0, sizeof(*s));
		s->cpu = cpu;
		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
		text = sr_tracefs->instance_file_read(t->inst, path, NULL);
		if (!text) {
			sr_error_set(err, errno, "%s: cannot read %s: %s", t->name, path,
				     strerror(errno));
			return -1;
		}
		s->entries = stat_field(text, "entries");
		s->overrun = stat_field(text, "overrun");
		s->commit_overrun = stat_field(text, "commit overrun");
		s->dropped = stat_field(text, "dropped events");
		s->read_events = stat_field(text, "read events");
		s->bytes = stat_field(text, "bytes");
		if (asprintf(&s->text, "CPU: %d\n%s", cpu, text) < 0) {
			s->text = NULL;
			free(text);
			sr_error_set(err, ENOMEM, "out of memory");
			return -1;
		}
		free(text);
	}
	return 0;
}

void cap_cpu_stats_release(struct cap_cpu_stats *s, int n)
{
	if (!s)
		return;
	for (int i = 0; i < n; i++) {
		free(s[i].text);
		s[i].text = NULL;
	}
}

void cap_trace_destroy(struct cap_trace *t)
{
	struct sr_error ignore;
	int cpu;

	if (!t)
		return;
	if (t->streams) {
		cap_trace_stop_streams(t, &ignore);
		for (cpu = 0; cpu < t->nr_cpus; cpu++)
			free(t->streams[cpu].path);
		free(t->streams);
	}
	if (t->marker_fd >= 0)
		close(t->marker_fd);
	if (t->inst) {
		sr_tracefs->trace_off(t->inst);
		/* Removing the instance disables its events and frees its buffers. */
		sr_tracefs->instance_destroy(t->inst);
		sr_tracefs->instance_free(t->inst);
	}
	sr_tracefs->put_tracing_file(t->dir);
	free(t->name);
	free(t);
}

int cap_trace_cleanup_leftovers(const char *tracing_dir, const struct cap_options *logopt)
{
	char path[4096];
	struct dirent *de;
	int removed = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/instances", tracing_dir);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		pid_t pid = cap_name_pid(de->d_name, NULL);
		char inst[4096 + 256];

		if (!pid || cap_pid_is_capture(pid))
			continue;
		snprintf(inst, sizeof(inst), "%s/%s", path, de->d_name);
		/* rmdir of an instance disables its events and frees its buffer */
		if (rmdir(inst) == 0) {
			cap_log(logopt, true, "removed tracefs instance %s left by a killed capture",
				de->d_name);
			removed++;
		} else {
			cap_log(logopt, true, "cannot remove leftover instance %s: %s", inst,
				strerror(errno));
		}
	}
	closedir(d);
	return removed;
}
