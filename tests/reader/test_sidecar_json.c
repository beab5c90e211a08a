// SPDX-License-Identifier: GPL-2.0
/*
 * The sidecar loader's fast JSON parse against jansson's: on each file given
 * and on seeded mutations of it (bytes flipped to JSON's special characters,
 * escapes, non-ASCII, digits, cut short), whenever the fast parse gives a
 * tree, jansson gives an equal one, with the same key order and number types
 * (json_dumps() equal). Each unmutated file must take the fast path, so a
 * fast parse that gave up on everything would fail here.
 *   test_sidecar_json SEED MUTATIONS FILE...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "sidecar_local.h"

static int failures;

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* 1 fast path taken and equal, 0 not taken, -1 a difference (reported) */
static int check(const char *path, const char *what)
{
	json_t *fast = sidecar_json_fast(path), *ref;
	json_error_t jerr;
	char *a, *b;
	int ret = 1;

	if (!fast)
		return 0;
	ref = json_load_file(path, 0, &jerr);
	if (!ref) {
		printf("FAIL: %s: the fast parse took it, jansson rejects it: line %d column %d: %s\n",
		       what, jerr.line, jerr.column, jerr.text);
		json_decref(fast);
		failures++;
		return -1;
	}
	a = json_dumps(fast, JSON_ENCODE_ANY);
	b = json_dumps(ref, JSON_ENCODE_ANY);
	if (!json_equal(fast, ref) || !a || !b || strcmp(a, b)) {
		printf("FAIL: %s: the trees differ\n  fast:    %.300s\n  jansson: %.300s\n", what,
		       a ? a : "(null)", b ? b : "(null)");
		failures++;
		ret = -1;
	}
	free(a);
	free(b);
	json_decref(fast);
	json_decref(ref);
	return ret;
}

int main(int argc, char **argv)
{
	static const char subst[] = "\"\\{}[],:.eE+-0129 \t\n\x01\x7f\xc3\xa9tfn/u";
	char tmp[] = "/tmp/sr-sidecar-json-XXXXXX";
	unsigned seed;
	int muts, fd;

	if (argc < 4) {
		fprintf(stderr, "usage: test_sidecar_json SEED MUTATIONS FILE...\n");
		return 2;
	}
	seed = (unsigned)atoi(argv[1]);
	muts = atoi(argv[2]);
	fd = mkstemp(tmp);
	if (fd < 0) {
		printf("FAIL: mkstemp: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	srand(seed);
	for (int i = 3; i < argc; i++) {
		size_t len;
		char *orig = slurp(argv[i], &len), *buf;
		int fast = 0, equal = 0;

		if (!orig || !(buf = malloc(len))) {
			printf("FAIL: cannot read %s\n", argv[i]);
			failures++;
			free(orig);
			continue;
		}
		if (check(argv[i], argv[i]) != 1) {
			printf("FAIL: %s: the fast parse did not take the unmutated file\n", argv[i]);
			failures++;
		}
		for (int m = 0; m < muts; m++) {
			size_t n = len;
			int flips = 1 + rand() % 3;
			char what[512];
			FILE *f;
			int r;

			memcpy(buf, orig, len);
			for (int k = 0; k < flips; k++)
				buf[(size_t)rand() % len] = subst[rand() % (int)(sizeof(subst) - 1)];
			if (rand() % 8 == 0)
				n = (size_t)rand() % len;
			f = fopen(tmp, "wb");
			if (!f || fwrite(buf, 1, n, f) != n || fclose(f)) {
				printf("FAIL: write %s\n", tmp);
				failures++;
				break;
			}
			snprintf(what, sizeof(what), "%s mutation %d", argv[i], m);
			r = check(tmp, what);
			fast += r != 0;
			equal += r == 1;
		}
		printf("%s: %d mutations, %d through the fast parse (%d equal to jansson's)\n",
		       argv[i], muts, fast, equal);
		free(orig);
		free(buf);
	}
	unlink(tmp);
	return failures ? 1 : 0;
}
