/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal assertions for the model's unit tests: every failed check prints
 * the expression and both values, and the test exits non-zero at the end.
 */
#ifndef SCHEDREPLAY_TESTS_MODEL_CHECK_H
#define SCHEDREPLAY_TESTS_MODEL_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures;
static int check_count;

#define CHECK_EQ_U(a, b) do {                                                   \
	unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b); \
	check_count++;                                                          \
	if (_a != _b) {                                                         \
		check_failures++;                                               \
		fprintf(stderr, "%s:%d: %s == %s: got %llu, expected %llu\n",   \
			__FILE__, __LINE__, #a, #b, _a, _b);                    \
	}                                                                       \
} while (0)

#define CHECK_EQ_S(a, b) do {                                                   \
	long long _a = (long long)(a), _b = (long long)(b);                     \
	check_count++;                                                          \
	if (_a != _b) {                                                         \
		check_failures++;                                               \
		fprintf(stderr, "%s:%d: %s == %s: got %lld, expected %lld\n",   \
			__FILE__, __LINE__, #a, #b, _a, _b);                    \
	}                                                                       \
} while (0)

#define CHECK(cond) do {                                                        \
	check_count++;                                                          \
	if (!(cond)) {                                                          \
		check_failures++;                                               \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	}                                                                       \
} while (0)

#define CHECK_MSG(cond, ...) do {                                               \
	check_count++;                                                          \
	if (!(cond)) {                                                          \
		check_failures++;                                               \
		fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__);                                   \
		fputc('\n', stderr);                                            \
	}                                                                       \
} while (0)

/* Exit status: 0 all passed, 1 failures.  Prints a summary line. */
static inline int check_done(const char *name)
{
	fprintf(stderr, "%s: %d checks, %d failed\n", name, check_count, check_failures);
	return check_failures ? 1 : 0;
}

#endif
