// SPDX-License-Identifier: GPL-2.0
/*
 * PELT arithmetic: generated constants against the spec, the fixed point,
 * the half-life, decay beyond 2016 periods, literal values from the 6.12.117
 * vectors, and (with --vectors FILE) every value of pelt-6.12.json.
 */
#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "check.h"
#include "sched.h"

/* ../shared/model-spec.md §1, runnable_avg_yN_inv[0..31]. */
static const uint32_t spec_inv[32] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6, 0xe0ccdeeb, 0xdbfbb796,
	0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85, 0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46,
	0xb504f333, 0xb123f581, 0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80, 0x85aac367, 0x82cd8698,
};

static void test_generated_table(void)
{
	int i;

	for (i = 0; i < 32; i++)
		CHECK_EQ_U(runnable_avg_yN_inv[i], spec_inv[i]);
	CHECK_EQ_U(LOAD_AVG_MAX, 47742);
	CHECK_EQ_U(LOAD_AVG_PERIOD, 32);
}

/* LOAD_AVG_MAX is the fixed point of one more fully-runnable period. */
static void test_load_avg_max_fixed_point(void)
{
	uint64_t s = LOAD_AVG_MAX;
	struct sched_avg sa;
	int i;

	CHECK_EQ_U(decay_load(s, 1) + 1024, LOAD_AVG_MAX);

	/* Running for a long time converges to it: at a period boundary the
	 * bound is LOAD_AVG_MAX - 1024; each period's truncating multiply by y
	 * loses less than 1, so the series settles 3 below (46715), and the
	 * average of an always-running entity reads 1023, as in the kernel. */
	memset(&sa, 0, sizeof(sa));
	for (i = 1; i <= 4000; i++)
		___update_load_sum((uint64_t)i * 1024 * 1024, &sa, 1, 1, 1);
	CHECK_EQ_U(sa.period_contrib, 0);
	CHECK_EQ_U(sa.load_sum, LOAD_AVG_MAX - 1024 - 3);
	___update_load_avg(&sa, 1024);
	CHECK_EQ_U(sa.load_avg, 1023);
	CHECK_EQ_U(sa.util_avg, 1024);   /* util_sum keeps 10 more bits */
}

/* A blocked entity's load halves every 32 periods (~32 ms). */
static void test_half_life(void)
{
	struct sched_avg sa;
	uint64_t t = 0;
	unsigned long before;
	int i;

	memset(&sa, 0, sizeof(sa));
	for (i = 0; i < 3000; i++) {
		t += 1024 * 1024;
		if (___update_load_sum(t, &sa, 1, 1, 1))
			___update_load_avg(&sa, 1024);
	}
	before = sa.load_avg;
	CHECK_EQ_U(before, 1023);
	t += 32ULL * 1024 * 1024;
	CHECK(___update_load_sum(t, &sa, 0, 0, 0) == 1);
	___update_load_avg(&sa, 1024);
	CHECK_MSG(sa.load_avg >= 510 && sa.load_avg <= 513, "load_avg after 32 periods = %lu",
		  sa.load_avg);
	t += 32ULL * 1024 * 1024;
	___update_load_sum(t, &sa, 0, 0, 0);
	___update_load_avg(&sa, 1024);
	CHECK_MSG(sa.load_avg >= 254 && sa.load_avg <= 257, "load_avg after 64 periods = %lu",
		  sa.load_avg);
}

static void test_decay_bounds(void)
{
	CHECK_EQ_U(decay_load(~0ULL, 2017), 0);
	CHECK_EQ_U(decay_load(1ULL << 62, 5000), 0);
	CHECK_EQ_U(decay_load(~0ULL, 2016), 0);       /* (2^64-1) >> 63 = 1, times y^0 < 1 */
	CHECK_EQ_U(decay_load(~0ULL, 2015), 1);       /* 3 * y^31 = 1.53 */
	CHECK_EQ_U(decay_load(1024, 32), 511);
	CHECK_EQ_U(decay_load(47742, 0), 47741);
}

/* Literal values from pelt-6.12.json, so the core is tested without it. */
static void test_literal_vectors(void)
{
	struct sched_avg sa;
	struct load_weight lw;

	CHECK_EQ_U(decay_load(85358512, 1), 83529455);
	CHECK_EQ_U(decay_load(2900029176546ULL, 2), 2777077452810ULL);
	CHECK_EQ_U(decay_load(1024, 3), 959);
	CHECK_EQ_U(decay_load(47742, 4), 43779);

	/* sequences[0], first step: a new nice-0 entity (period_contrib 1023). */
	memset(&sa, 0, sizeof(sa));
	sa.last_update_time = 1000251168;
	sa.period_contrib = 1023;
	sa.load_avg = 1024;
	CHECK_EQ_S(___update_load_sum(1192182081, &sa, 1, 1, 1), 1);
	___update_load_avg(&sa, 1024);
	CHECK_EQ_U(sa.last_update_time, 1192181536);
	CHECK_EQ_U(sa.load_sum, 45871);
	CHECK_EQ_U(sa.runnable_sum, 46971904);
	CHECK_EQ_U(sa.util_sum, 46971904);
	CHECK_EQ_U(sa.period_contrib, 39);
	CHECK_EQ_U(sa.load_avg, 1004);
	CHECK_EQ_U(sa.runnable_avg, 1004);
	CHECK_EQ_U(sa.util_avg, 1004);
	/* second step: blocked */
	CHECK_EQ_S(___update_load_sum(1194315184, &sa, 0, 0, 0), 1);
	___update_load_avg(&sa, 1024);
	CHECK_EQ_U(sa.load_sum, 43926);
	CHECK_EQ_U(sa.util_sum, 44980449);
	CHECK_EQ_U(sa.period_contrib, 74);
	CHECK_EQ_U(sa.load_avg, 961);
	/* third: queued but not runnable, no boundary */
	CHECK_EQ_S(___update_load_sum(1194476066, &sa, 1, 0, 0), 0);
	CHECK_EQ_U(sa.load_sum, 44083);
	CHECK_EQ_U(sa.period_contrib, 231);
	CHECK_EQ_U(sa.load_avg, 961);

	/* calc_delta: task (table inv_weight) and group (computed) */
	lw.weight = 1048576;
	lw.inv_weight = 4194304;
	CHECK_EQ_U(__calc_delta(6090750, 90891264, &lw), 527950254);
	lw.weight = 1048576;
	lw.inv_weight = 0;
	CHECK_EQ_U(__calc_delta(618, 1048576, &lw), 617);
	CHECK_EQ_U(lw.inv_weight, 4194303);
	lw.weight = 2048;
	lw.inv_weight = 0;
	CHECK_EQ_U(__calc_delta(9271514, 1048576, &lw), 4747015165ULL);
	CHECK_EQ_U(lw.inv_weight, 2147483647);
	lw.weight = 343040;
	lw.inv_weight = 12820798;
	CHECK_EQ_U(__calc_delta(173509845345190ULL, 1048576, &lw), 530370397134285ULL);
}

/*
 * jansson integers are signed 64-bit; the vectors hold u64 values up to
 * 2^64 - 1.  quote_big_integers() turns every integer literal of 19 or more
 * digits into a string before parsing, and jv() reads either form.
 */
static uint64_t jv(json_t *v)
{
	if (json_is_string(v))
		return strtoull(json_string_value(v), NULL, 10);
	return (uint64_t)json_integer_value(v);
}

static uint64_t ju(json_t *o, const char *k)
{
	return jv(json_object_get(o, k));
}

static char *quote_big_integers(const char *path)
{
	FILE *f = fopen(path, "r");
	char *in = NULL, *out = NULL;
	long len;
	size_t i, o = 0, start;
	bool in_str = false;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto fail;
	in = malloc((size_t)len + 1);
	out = malloc((size_t)len * 2 + 1);
	if (!in || !out || fread(in, 1, (size_t)len, f) != (size_t)len)
		goto fail;
	in[len] = 0;
	for (i = 0; i < (size_t)len;) {
		if (in[i] == '"' && (i == 0 || in[i - 1] != '\\'))
			in_str = !in_str;
		if (!in_str && in[i] >= '0' && in[i] <= '9' &&
		    (i == 0 || strchr(",[: \n", in[i - 1]))) {
			start = i;
			while (i < (size_t)len && in[i] >= '0' && in[i] <= '9')
				i++;
			if (i - start >= 19)
				out[o++] = '"';
			memcpy(out + o, in + start, i - start);
			o += i - start;
			if (i - start >= 19)
				out[o++] = '"';
			continue;
		}
		out[o++] = in[i++];
	}
	out[o] = 0;
	free(in);
	fclose(f);
	return out;
fail:
	free(in);
	free(out);
	fclose(f);
	return NULL;
}

static void load_state(json_t *o, struct sched_avg *sa)
{
	sa->last_update_time = ju(o, "last_update_time");
	sa->load_sum = ju(o, "load_sum");
	sa->runnable_sum = ju(o, "runnable_sum");
	sa->util_sum = (uint32_t)ju(o, "util_sum");
	sa->period_contrib = (uint32_t)ju(o, "period_contrib");
	sa->load_avg = ju(o, "load_avg");
	sa->runnable_avg = ju(o, "runnable_avg");
	sa->util_avg = ju(o, "util_avg");
}

#define VCHECK(seq, step, field, got, exp) do {                                  \
	check_count++;                                                            \
	if ((uint64_t)(got) != (uint64_t)(exp)) {                                 \
		check_failures++;                                                 \
		if (check_failures < 20)                                          \
			fprintf(stderr, "sequence %zu step %zu: %s = %llu, expected %llu\n", \
				(seq), (step), field, (unsigned long long)(got),  \
				(unsigned long long)(exp));                       \
	}                                                                         \
} while (0)

static int test_vector_file(const char *path)
{
	json_error_t jerr;
	json_t *root, *arr, *e;
	size_t i, j;

	char *text;

	text = quote_big_integers(path);
	if (!text) {
		if (errno == ENOENT) {
			fprintf(stderr, "SKIP: %s: %s\n", path, strerror(errno));
			return 77;
		}
		fprintf(stderr, "%s: cannot read: %s\n", path, strerror(errno));
		return 1;
	}
	root = json_loads(text, 0, &jerr);
	free(text);
	if (!root) {
		fprintf(stderr, "%s:%d: %s\n", path, jerr.line, jerr.text);
		return 1;
	}

	arr = json_object_get(root, "decay_load");
	CHECK(json_array_size(arr) > 0);
	json_array_foreach(arr, i, e) {
		uint64_t val = jv(json_array_get(e, 0));
		uint64_t n = jv(json_array_get(e, 1));
		uint64_t exp = jv(json_array_get(e, 2));

		VCHECK(i, (size_t)0, "decay_load", decay_load(val, n), exp);
	}

	arr = json_object_get(root, "sequences");
	CHECK(json_array_size(arr) > 0);
	json_array_foreach(arr, i, e) {
		const char *kind = json_string_value(json_object_get(e, "kind"));
		unsigned long w = (unsigned long)ju(e, "weight");
		bool is_se = kind && !strcmp(kind, "se");
		json_t *steps = json_object_get(e, "steps"), *st;
		struct sched_avg sa, want;

		load_state(json_object_get(e, "init"), &sa);
		json_array_foreach(steps, j, st) {
			json_t *out = json_object_get(st, "out");
			int ret = ___update_load_sum(ju(st, "now"), &sa, ju(st, "load"),
						     ju(st, "runnable"), (int)ju(st, "running"));

			if (ret)
				___update_load_avg(&sa, is_se ? w : 1);
			load_state(out, &want);
			VCHECK(i, j, "ret", ret, ju(out, "ret"));
			VCHECK(i, j, "last_update_time", sa.last_update_time, want.last_update_time);
			VCHECK(i, j, "load_sum", sa.load_sum, want.load_sum);
			VCHECK(i, j, "runnable_sum", sa.runnable_sum, want.runnable_sum);
			VCHECK(i, j, "util_sum", sa.util_sum, want.util_sum);
			VCHECK(i, j, "period_contrib", sa.period_contrib, want.period_contrib);
			VCHECK(i, j, "load_avg", sa.load_avg, want.load_avg);
			VCHECK(i, j, "runnable_avg", sa.runnable_avg, want.runnable_avg);
			VCHECK(i, j, "util_avg", sa.util_avg, want.util_avg);
		}
	}

	arr = json_object_get(root, "calc_delta");
	CHECK(json_array_size(arr) > 0);
	json_array_foreach(arr, i, e) {
		struct load_weight lw;
		uint64_t delta = jv(json_array_get(e, 0));
		unsigned long weight = (unsigned long)jv(json_array_get(e, 1));
		uint64_t res;

		lw.weight = (unsigned long)jv(json_array_get(e, 2));
		lw.inv_weight = (u32)jv(json_array_get(e, 3));
		res = __calc_delta(delta, weight, &lw);
		VCHECK(i, (size_t)0, "inv_weight", lw.inv_weight, jv(json_array_get(e, 4)));
		VCHECK(i, (size_t)0, "__calc_delta", res, jv(json_array_get(e, 5)));
	}
	json_decref(root);
	return check_done("pelt vectors");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--vectors"))
		return test_vector_file(argv[2]);

	test_generated_table();
	test_load_avg_max_fixed_point();
	test_half_life();
	test_decay_bounds();
	test_literal_vectors();
	return check_done("pelt");
}
