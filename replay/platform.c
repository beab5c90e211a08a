// SPDX-License-Identifier: GPL-2.0
/*
 * LISA's platform.json next to a trace (struct wl_platform): the CPU
 * capacities of a machine whose trace has no sidecar.  LISA (ARM's Linux
 * Integrated System Analysis) writes it beside the traces it takes; on a
 * big.LITTLE board its energy model gives each cluster's CPU capacity
 * ("nrg_model": {"big": {"cpu": {"cap_max": 1024}}, "little": {...447}}),
 * and "clusters" the CPUs of each ({"big": [1, 2], "little": [0, 3, 4, 5]}),
 * as arch_scale_cpu_capacity() returned them to that kernel.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include <schedreplay/workload.h>

/* "0,3-5" for the CPUs whose @cap is @v, at @out (@size bytes) */
static void cpu_list(const int *cap, int n, int v, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int c = 0; c < n; c++) {
		int e = c;

		if (cap[c] != v)
			continue;
		while (e + 1 < n && cap[e + 1] == v)
			e++;
		if (len < size)
			len += (size_t)snprintf(out + len, size - len, e > c ? "%s%d-%d" : "%s%d",
						len ? "," : "", c, e);
		c = e;
	}
}

/*
 * A release as uname(2) gives it: printable ASCII, no space, quote or
 * backslash; an escape sequence was taken as the kernel (fuzz50)
 */
static bool release_ok(const char *r, size_t size)
{
	size_t n = strlen(r);

	if (!n || n >= size)
		return false;
	for (; *r; r++)
		if (!isgraph((unsigned char)*r) || *r == '"' || *r == '\\')
			return false;
	return true;
}

int wl_platform_read(const char *dir_of, struct wl_platform *p, char *why, size_t why_size)
{
	const char *slash = strrchr(dir_of, '/');
	json_t *root, *clusters, *nrg, *cpus, *v;
	json_error_t jerr;
	const char *name;
	struct stat st;
	size_t len = 0;
	int ret = -1, fd;

	memset(p, 0, sizeof(*p));
	p->cpus_count = -1;
	for (int c = 0; c < WL_PLATFORM_MAX_CPUS; c++)
		p->capacity[c] = -1;
	why[0] = '\0';
	if (asprintf((char **)&p->path, "%.*splatform.json", slash ? (int)(slash - dir_of + 1) : 0,
		     dir_of) < 0) {
		p->path = NULL;
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	/*
	 * Opened without waiting: a FIFO of that name hung json_load_file()'s
	 * open() for a writer for ever (fuzz50); anything but a regular file
	 * is said, not read.
	 */
	fd = open(p->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;      /* none there (or unreadable: as none) */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(why, why_size, "not a regular file");
		return -1;
	}
	root = json_loadfd(fd, 0, &jerr);
	close(fd);
	if (!root) {
		snprintf(why, why_size, "not JSON (line %d: %s)", jerr.line, jerr.text);
		return -1;
	}
	clusters = json_object_get(root, "clusters");
	nrg = json_object_get(root, "nrg_model");
	if (!json_is_object(clusters) || !json_is_object(nrg) || !json_object_size(clusters)) {
		snprintf(why, why_size, "no \"clusters\" and \"nrg_model\" objects to read capacities from");
		goto out;
	}
	/* an int's worth: 2^32 + 6 was read as 6 CPUs (fuzz50) */
	if ((v = json_object_get(root, "cpus_count")) &&
	    (!json_is_integer(v) || json_integer_value(v) < 1 ||
	     json_integer_value(v) > WL_PLATFORM_MAX_CPUS)) {
		snprintf(why, why_size, "cpus_count is not a CPU count of 1..%d (the machines read)",
			 WL_PLATFORM_MAX_CPUS);
		goto out;
	}
	if (v)
		p->cpus_count = (int)json_integer_value(v);
	if (json_is_string(v = json_object_get(json_object_get(root, "kernel"), "release")) &&
	    release_ok(json_string_value(v), sizeof(p->release)))
		snprintf(p->release, sizeof(p->release), "%s", json_string_value(v));
	json_object_foreach(clusters, name, cpus) {
		json_t *cap = json_object_get(json_object_get(json_object_get(nrg, name), "cpu"),
					      "cap_max");
		json_int_t k;
		size_t i;

		if (!json_is_integer(cap) || (k = json_integer_value(cap)) < 1 || k > 1024 ||
		    !json_is_array(cpus) || !json_array_size(cpus)) {
			snprintf(why, why_size, "cluster \"%.40s\": no CPUs or no nrg_model cap_max in "
				 "1..1024", name);
			goto out;
		}
		json_array_foreach(cpus, i, v) {
			json_int_t c = json_is_integer(v) ? json_integer_value(v) : -1;

			if (c < 0 || c >= WL_PLATFORM_MAX_CPUS || p->capacity[c] >= 0) {
				snprintf(why, why_size, "cluster \"%.40s\": CPU %lld out of range "
					 "or in two clusters", name, (long long)c);
				goto out;
			}
			p->capacity[c] = (int)k;
			if ((int)c + 1 > p->nr_cpus)
				p->nr_cpus = (int)c + 1;
		}
	}
	json_object_foreach(clusters, name, cpus) {
		int k = p->capacity[json_integer_value(json_array_get(cpus, 0))];
		int mine[WL_PLATFORM_MAX_CPUS] = { 0 };
		char list[48];
		size_t i;

		json_array_foreach(cpus, i, v)
			mine[json_integer_value(v)] = 1;
		cpu_list(mine, p->nr_cpus, 1, list, sizeof(list));
		if (len < sizeof(p->clusters))
			len += (size_t)snprintf(p->clusters + len, sizeof(p->clusters) - len,
						"%s%.20s %s %d", len ? ", " : "", name, list, k);
	}
	ret = 1;
out:
	json_decref(root);
	return ret;
}
