// SPDX-License-Identifier: GPL-2.0
/*
 * Assemble a trace.dat, file format version 6, from the streamed ring-buffer
 * pages. The layout is trace-cmd's (trace-cmd.dat.v6(5)); v6 is the version
 * every trace-cmd, KernelShark and libtracecmd release reads:
 *
 *   "\027\010\104tracing" "6\0" endian(1) sizeof(long)(1) page_size(4)
 *   "header_page\0" size(8) events/header_page
 *   "header_event\0" size(8) events/header_event
 *   nr(4) { size(8) events/ftrace/<e>/format }              ftrace formats
 *   nr(4) { "system\0" nr(4) { size(8) format } }           event formats
 *   size(4) kallsyms (empty: sched events carry no kernel addresses)
 *   size(4) printk_formats
 *   size(8) cmdlines ("pid comm" lines)
 *   cpus(4)
 *   "options  \0" { id(2) size(4) data } 0(2)
 *   "flyrecord\0" { offset(8) size(8) } per CPU, size(8) "[clock]"
 *   per CPU: the pages, starting page aligned.
 *
 * Numbers are written in host byte order, which the endian byte declares;
 * the pages are the kernel's own, in the same order.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cap_local.h"

/* trace-cmd option ids (trace-cmd.dat.v6(5), TRACECMD_OPTION_*) */
enum {
	OPT_DONE = 0,
	OPT_CPUSTAT = 2,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_VERSION = 9,
	OPT_TRACEID = 11,
};

struct writer {
	int fd;
	const char *path;
	struct sr_error *err;
	int failed;
};

static int wr(struct writer *w, const void *p, size_t n)
{
	if (w->failed)
		return -1;
	if (cap_write_all(w->fd, p, n) < 0) {
		sr_error_set(w->err, errno, "%s: write failed: %s", w->path, strerror(errno));
		w->failed = 1;
		return -1;
	}
	return 0;
}

static int wr2(struct writer *w, uint16_t v) { return wr(w, &v, 2); }
static int wr4(struct writer *w, uint32_t v) { return wr(w, &v, 4); }
static int wr8(struct writer *w, uint64_t v) { return wr(w, &v, 8); }

/* size(@sizebytes) followed by the file's content. */
static int wr_file(struct writer *w, const char *path, int sizebytes, bool optional)
{
	size_t len = 0;
	char *text = cap_read_file(path, &len);
	int ret;

	if (!text) {
		if (optional)
			return sizebytes == 8 ? wr8(w, 0) : wr4(w, 0);
		sr_error_set(w->err, errno, "cannot read %s: %s", path, strerror(errno));
		w->failed = 1;
		return -1;
	}
	ret = sizebytes == 8 ? wr8(w, len) : wr4(w, (uint32_t)len);
	if (!ret)
		ret = wr(w, text, len);
	free(text);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The event names of a system that have a format file, sorted. */
static char **system_events(const char *tracing_dir, const char *system, size_t *nr)
{
	char path[4096];
	struct dirent *de;
	char **names = NULL, **tmp;
	size_t n = 0, cap = 0;
	DIR *d;

	*nr = 0;
	snprintf(path, sizeof(path), "%s/events/%s", tracing_dir, system);
	d = opendir(path);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char fmt[4096 + 512];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(fmt, sizeof(fmt), "%s/%s/format", path, de->d_name);
		if (stat(fmt, &st) < 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			tmp = realloc(names, cap * sizeof(*names));
			if (!tmp)
				goto nomem;
			names = tmp;
		}
		names[n] = strdup(de->d_name);
		if (!names[n])
			goto nomem;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	*nr = n;
	if (!names)
		names = calloc(1, sizeof(*names));
	return names;
nomem:
	closedir(d);
	while (n)
		free(names[--n]);
	free(names);
	return NULL;
}

static void free_names(char **names, size_t n)
{
	if (!names)
		return;
	while (n)
		free(names[--n]);
	free(names);
}

/* Is @system:@name one of @td's recorded events (or are all saved)? */
static bool format_kept(const struct cap_tracedat *td, const char *system, const char *name)
{
	size_t sl = strlen(system);

	if (!td || !td->events || strcmp(system, "syscalls"))
		return true;
	for (size_t i = 0; i < td->nr_events; i++)
		if (!strncmp(td->events[i], system, sl) && td->events[i][sl] == ':' &&
		    !strcmp(td->events[i] + sl + 1, name))
			return true;
	return false;
}

static int wr_system_formats(struct writer *w, const char *tracing_dir, const char *system,
			     const struct cap_tracedat *td)
{
	size_t n, i, k = 0;
	char **names = system_events(tracing_dir, system, &n);

	if (!names) {
		sr_error_set(w->err, errno ? errno : ENOMEM, "cannot list %s/events/%s",
			     tracing_dir, system);
		w->failed = 1;
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (format_kept(td, system, names[i])) {
			char *keep = names[i];

			names[i] = names[k];
			names[k++] = keep;
		}
	}
	wr4(w, (uint32_t)k);
	for (i = 0; i < k; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/events/%s/%s/format", tracing_dir, system,
			 names[i]);
		if (wr_file(w, path, 8, false) < 0)
			break;
	}
	free_names(names, n);
	return w->failed ? -1 : 0;
}

static int wr_option(struct writer *w, uint16_t id, const void *data, uint32_t size)
{
	wr2(w, id);
	wr4(w, size);
	return wr(w, data, size);
}

static int wr_option_str(struct writer *w, uint16_t id, const char *s)
{
	return wr_option(w, id, s, (uint32_t)strlen(s) + 1);
}

/* Copy @size bytes of @path to the output. */
static int copy_cpu_file(struct writer *w, const char *path, uint64_t size)
{
	char buf[65536];
	uint64_t left = size;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		sr_error_set(w->err, errno, "cannot read %s: %s", path, strerror(errno));
		w->failed = 1;
		return -1;
	}
	while (left && !w->failed) {
		ssize_t r = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			sr_error_set(w->err, r < 0 ? errno : EIO, "%s: short read", path);
			w->failed = 1;
			break;
		}
		wr(w, buf, (size_t)r);
		left -= (uint64_t)r;
	}
	close(fd);
	return w->failed ? -1 : 0;
}

int cap_tracedat_write(const char *path, const struct cap_tracedat *td, struct sr_error *err)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint16_t one = 1;
	struct writer w = { .fd = -1, .path = path, .err = err };
	uint64_t *sizes = NULL;
	char *tmp = NULL;
	char file[4096];
	off_t table, pos;
	size_t i;
	int cpu;

	if (asprintf(&tmp, "%s.partial", path) < 0) {
		sr_error_set(err, ENOMEM, "out of memory");
		return -1;
	}
	sizes = calloc(td->nr_cpus, sizeof(*sizes));
	if (!sizes) {
		sr_error_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	for (cpu = 0; cpu < td->nr_cpus; cpu++) {
		struct stat st;

		if (stat(td->cpu_files[cpu], &st) < 0) {
			sr_error_set(err, errno, "%s: %s", td->cpu_files[cpu], strerror(errno));
			goto fail;
		}
		/* Whole pages only: a torn last page would not parse. */
		sizes[cpu] = (uint64_t)st.st_size - (uint64_t)st.st_size % td->page_size;
	}
	w.fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w.fd < 0) {
		sr_error_set(err, errno, "%s: %s", tmp, strerror(errno));
		goto fail;
	}

	wr(&w, magic, sizeof(magic));
	wr(&w, "6", 2);
	wr(&w, &(char){ *(const char *)&one == 1 ? 0 : 1 }, 1);
	wr(&w, &(char){ (char)sizeof(long) }, 1);
	wr4(&w, (uint32_t)td->page_size);

	wr(&w, "header_page", 12);
	snprintf(file, sizeof(file), "%s/events/header_page", td->tracing_dir);
	wr_file(&w, file, 8, false);
	wr(&w, "header_event", 13);
	snprintf(file, sizeof(file), "%s/events/header_event", td->tracing_dir);
	wr_file(&w, file, 8, false);

	/* ftrace's own events (print carries the start/end markers) */
	wr_system_formats(&w, td->tracing_dir, "ftrace", NULL);

	wr4(&w, (uint32_t)td->nr_systems);
	for (i = 0; i < td->nr_systems && !w.failed; i++) {
		wr(&w, td->systems[i], strlen(td->systems[i]) + 1);
		wr_system_formats(&w, td->tracing_dir, td->systems[i], td);
	}

	wr4(&w, 0);   /* kallsyms */
	snprintf(file, sizeof(file), "%s/printk_formats", td->tracing_dir);
	wr_file(&w, file, 4, true);
	wr8(&w, td->cmdlines ? strlen(td->cmdlines) : 0);
	if (td->cmdlines)
		wr(&w, td->cmdlines, strlen(td->cmdlines));

	wr4(&w, (uint32_t)td->nr_cpus);
	wr(&w, "options  ", 10);
	if (td->stats)
		for (cpu = 0; cpu < td->nr_cpus; cpu++)
			if (td->stats[cpu].text)
				wr_option_str(&w, OPT_CPUSTAT, td->stats[cpu].text);
	if (td->trace_clock)
		wr_option_str(&w, OPT_TRACECLOCK, td->trace_clock);
	if (td->uname)
		wr_option_str(&w, OPT_UNAME, td->uname);
	if (td->version)
		wr_option_str(&w, OPT_VERSION, td->version);
	wr_option(&w, OPT_TRACEID, &td->trace_id, 8);
	wr2(&w, OPT_DONE);

	wr(&w, "flyrecord", 10);
	table = lseek(w.fd, 0, SEEK_CUR);
	for (cpu = 0; cpu < td->nr_cpus; cpu++) {
		wr8(&w, 0);
		wr8(&w, 0);
	}
	if (td->trace_clock) {
		/* Read back only when the TRACECLOCK option is present. */
		const char *open = strchr(td->trace_clock, '[');
		const char *close = open ? strchr(open, ']') : NULL;
		size_t len = close ? (size_t)(close - open + 1) : 7;

		wr8(&w, len);
		wr(&w, close ? open : "[local]", len);
	}
	if (w.failed)
		goto fail;

	pos = lseek(w.fd, 0, SEEK_CUR);
	for (cpu = 0; cpu < td->nr_cpus && !w.failed; cpu++) {
		uint64_t off = ((uint64_t)pos + td->page_size - 1) & ~(uint64_t)(td->page_size - 1);

		if (lseek(w.fd, (off_t)off, SEEK_SET) < 0 ||
		    pwrite(w.fd, &off, 8, table + cpu * 16) != 8 ||
		    pwrite(w.fd, &sizes[cpu], 8, table + cpu * 16 + 8) != 8) {
			sr_error_set(err, errno, "%s: %s", tmp, strerror(errno));
			goto fail;
		}
		if (sizes[cpu])
			copy_cpu_file(&w, td->cpu_files[cpu], sizes[cpu]);
		pos = (off_t)(off + sizes[cpu]);
	}
	if (w.failed)
		goto fail;
	/* A trailing empty CPU must still lie inside the file. */
	if (ftruncate(w.fd, pos) < 0 || fsync(w.fd) < 0 || close(w.fd) < 0) {
		w.fd = -1;
		sr_error_set(err, errno, "%s: %s", tmp, strerror(errno));
		goto fail;
	}
	w.fd = -1;
	if (td->unlink_before_rename && unlink(td->unlink_before_rename) < 0 && errno != ENOENT) {
		sr_error_set(err, errno, "cannot remove %s: %s", td->unlink_before_rename,
			     strerror(errno));
		goto fail;
	}
	if (rename(tmp, path) < 0) {
		sr_error_set(err, errno, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		goto fail;
	}
	free(tmp);
	free(sizes);
	return 0;
fail:
	if (w.fd >= 0)
		close(w.fd);
	if (tmp)
		unlink(tmp);
	free(tmp);
	free(sizes);
	return -1;
}
