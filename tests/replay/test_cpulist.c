// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's cpulist format ("0-3,8,10-11", Cpus_allowed_list) read into
 * a task's mask (sidecar_cpulist_mask()), and a sidecar whose
 * cpus_allowed is malformed refused with one line naming the field.
 * Usage: test_replay_cpulist [SIDECAR.json with cpus_allowed reads]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <schedreplay/sidecar.h>

#include "../common/check.h"

static void test_parse(void)
{
	uint64_t mask[SIDECAR_MASK_WORDS];
	int nr, first;
	static const char *const bad[] = { "", "0-3,", "3-1", "a", "0--2", "1,,2", "0-3 ",
					   "-1", "0,x", "70000",
					   /* not ascending, or overlapping: "0,0" counted 2 (fuzz50) */
					   "10-11,2", "0,0", "1,0", "0-3,2", "0-3,3-4" };

	CHECK_EQ_S(sidecar_cpulist_mask("0-3,8,10-11", 16, &nr, &first, mask), 0);
	CHECK_EQ_S(nr, 7);
	CHECK_EQ_S(first, 0);
	CHECK_EQ_U(mask[0], 0xd0fULL);
	CHECK_EQ_U(mask[1], 0);
	CHECK_EQ_S(sidecar_cpulist_mask("2,10-11", 16, &nr, &first, mask), 0);
	CHECK_EQ_S(nr, 3);
	CHECK_EQ_S(first, 2);
	CHECK_EQ_U(mask[0], 0xc04ULL);
	/* CPUs past the machine's are not counted nor set */
	CHECK_EQ_S(sidecar_cpulist_mask("0-3,8", 4, &nr, &first, mask), 0);
	CHECK_EQ_S(nr, 4);
	CHECK_EQ_U(mask[0], 0xfULL);
	CHECK_EQ_S(sidecar_cpulist_mask("64,130-131", 200, &nr, &first, mask), 0);
	CHECK_EQ_S(nr, 3);
	CHECK_EQ_S(first, 64);
	CHECK_EQ_U(mask[0], 0);
	CHECK_EQ_U(mask[1], 1);
	CHECK_EQ_U(mask[2], 0xcULL);
	/* the mask holds the model's 4096 CPUs; the count goes on */
	CHECK_EQ_S(sidecar_cpulist_mask("4095-4097", 65536, &nr, &first, mask), 0);
	CHECK_EQ_S(nr, 3);
	CHECK_EQ_U(mask[63], 1ULL << 63);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (sidecar_cpulist_mask(bad[i], 16, &nr, &first, mask) != -1)
			fprintf(stderr, "accepted \"%s\"\n", bad[i]);
		CHECK_EQ_S(sidecar_cpulist_mask(bad[i], 16, &nr, &first, NULL), -1);
	}
	/* the count-only form agrees */
	CHECK_EQ_S(sidecar_cpulist_parse("0-3,8,10-11", 16, &nr, &first), 0);
	CHECK_EQ_S(nr, 7);
}

/* The whole file, NUL-terminated (getdelim() to a NUL it does not hold), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	if (getdelim(&buf, &cap, '\0', f) <= 0) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* A committed sidecar with its first cpus_allowed made malformed. */
static void test_sidecar(const char *path)
{
	static const char key[] = "\"cpus_allowed\": \"0-1\"";
	char tmp[] = "/tmp/test_cpulist_XXXXXX";
	struct sr_error err = { 0 };
	struct sidecar *sc;
	char *text = slurp(path), *at;
	FILE *f;
	int fd;

	CHECK(text != NULL);
	if (!text)
		return;
	sc = sidecar_load(path, &err);
	CHECK(sc != NULL);
	sidecar_free(sc);
	at = strstr(text, key);
	CHECK(at != NULL);
	fd = mkstemp(tmp);
	CHECK(fd >= 0);
	if (!at || fd < 0) {
		free(text);
		return;
	}
	f = fdopen(fd, "wb");
	fwrite(text, 1, (size_t)(at - text) + sizeof(key) - 2, f);
	fputs(",x", f);                                   /* "0-1,x" */
	fputs(at + sizeof(key) - 2, f);
	fclose(f);
	sc = sidecar_load(tmp, &err);
	CHECK(sc == NULL);
	CHECK(strstr(err.msg, "cpus_allowed is not a CPU list") != NULL);
	CHECK(strchr(err.msg, '\n') == NULL);
	sidecar_free(sc);
	unlink(tmp);
	free(text);
}

int main(int argc, char **argv)
{
	test_parse();
	if (argc > 1)
		test_sidecar(argv[1]);
	return check_done("cpulist");
}
