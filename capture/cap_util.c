// SPDX-License-Identifier: GPL-2.0
/* Small file helpers for the capture stage; see cap_local.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cap_local.h"

char *cap_read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf, *tmp;
	int fd, saved;
	ssize_t r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto fail;
	for (;;) {
		if (cap - n < 2048) {
			tmp = realloc(buf, cap * 2);
			if (!tmp)
				goto fail;
			buf = tmp;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	saved = errno;
	free(buf);
	close(fd);
	errno = saved;
	return NULL;
}

int cap_read_line(const char *path, char *buf, size_t size)
{
	size_t len;
	char *text = cap_read_file(path, &len);

	if (!text)
		return -1;
	snprintf(buf, size, "%s", text);
	buf[strcspn(buf, "\n")] = '\0';
	free(text);
	return 0;
}

int cap_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

const char *cap_errno_hint(int e)
{
	return e == EMFILE || e == ENFILE ? " (raise the open-file limit: ulimit -n)" : "";
}

int cap_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int ret, saved;

	if (fd < 0)
		return -1;
	ret = cap_write_all(fd, text, strlen(text));
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

pid_t cap_name_pid(const char *name, const char **suffix)
{
	size_t plen = strlen(CAP_NAME_PREFIX);
	const char *p;
	long pid = 0;

	if (strncmp(name, CAP_NAME_PREFIX, plen))
		return 0;
	p = name + plen;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p)) {
		pid = pid * 10 + (*p - '0');
		if (pid > 0x7fffffff)
			return 0;
		p++;
	}
	if (suffix)
		*suffix = p;
	return (pid_t)pid;
}

bool cap_pid_is_capture(pid_t pid)
{
	char path[64], comm[64];

	/* our own names are never a dead capture's */
	if (pid == getpid())
		return true;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	/*
	 * Only a pid that is gone is no capture: a read that failed for want
	 * of file descriptors (EMFILE) made every live capture look dead, and
	 * its instance, cgroups and workloads were removed.
	 */
	if (cap_read_line(path, comm, sizeof(comm)) < 0)
		return errno != ENOENT && errno != ESRCH;
	return !strcmp(comm, "schedreplay");
}
