// SPDX-License-Identifier: GPL-2.0
/*
 * Golden test of `schedreplay report --json` on a bundled trace: every member
 * of EXPECTED.json must be in the output with the same value (the output may
 * have more). Integers and strings compare exactly; reals within 1e-9
 * relative (they are microseconds printed from integer nanoseconds).
 *
 *   test_golden TRACE EXPECTED.json [report options...]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report_local.h"

static int failures;

static void compare(const char *path, json_t *want, json_t *got)
{
	if (!got) {
		fprintf(stderr, "FAIL: %s: missing in the output\n", path);
		failures++;
		return;
	}
	if (json_is_object(want)) {
		const char *k;
		json_t *v;

		if (!json_is_object(got)) {
			fprintf(stderr, "FAIL: %s: not an object in the output\n", path);
			failures++;
			return;
		}
		json_object_foreach(want, k, v) {
			char sub[1024];

			snprintf(sub, sizeof(sub), "%s.%s", path, k);
			compare(sub, v, json_object_get(got, k));
		}
		return;
	}
	if (json_is_array(want)) {
		size_t i;
		json_t *v;

		if (!json_is_array(got) || json_array_size(got) != json_array_size(want)) {
			fprintf(stderr, "FAIL: %s: array of %zu, expected %zu\n", path,
				json_is_array(got) ? json_array_size(got) : 0, json_array_size(want));
			failures++;
			return;
		}
		json_array_foreach(want, i, v) {
			char sub[1024];

			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			compare(sub, v, json_array_get(got, i));
		}
		return;
	}
	if (json_is_real(want) || (json_is_number(want) && json_is_real(got))) {
		double w = json_number_value(want), g = json_number_value(got);

		if (!json_is_number(got) || fabs(w - g) > 1e-9 * fmax(1.0, fabs(w))) {
			fprintf(stderr, "FAIL: %s: got %.9g, expected %.9g\n", path, g, w);
			failures++;
		}
		return;
	}
	if (!json_equal(want, got)) {
		char *w = json_dumps(want, JSON_ENCODE_ANY), *g = json_dumps(got, JSON_ENCODE_ANY);

		fprintf(stderr, "FAIL: %s: got %s, expected %s\n", path, g ? g : "?", w ? w : "?");
		free(w);
		free(g);
		failures++;
	}
}

int main(int argc, char **argv)
{
	struct report_opts o;
	struct report_data d;
	struct sr_error err = { 0 };
	json_error_t jerr;
	json_t *want, *got;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	if (argc < 3) {
		fprintf(stderr, "usage: test_golden TRACE EXPECTED.json [--by pid|cgroup]...\n");
		return 2;
	}
	report_opts_default(&o);
	o.path = argv[1];
	for (int i = 3; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], "--by"))
			o.by[!strcmp(argv[i + 1], "pid") ? LAT_BY_PID : LAT_BY_CGROUP] = true;
	want = json_load_file(argv[2], 0, &jerr);
	if (!want) {
		fprintf(stderr, "FAIL: %s:%d: %s\n", argv[2], jerr.line, jerr.text);
		return 1;
	}
	if (report_collect(&o, &d, &err)) {
		fprintf(stderr, "FAIL: %s\n", err.msg);
		return 1;
	}
	mem = open_memstream(&buf, &len);
	if (!mem || report_print_json(mem, &d, &o, &err) || fclose(mem)) {
		fprintf(stderr, "FAIL: printing JSON: %s\n", err.msg);
		return 1;
	}
	got = json_loads(buf, 0, &jerr);
	if (!got) {
		fprintf(stderr, "FAIL: the output is not JSON: line %d: %s\n", jerr.line, jerr.text);
		return 1;
	}
	compare("$", want, got);
	json_decref(want);
	json_decref(got);
	free(buf);
	report_data_release(&d);
	if (!failures)
		printf("%s matches %s\n", argv[1], argv[2]);
	return failures ? 1 : 0;
}
