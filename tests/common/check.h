/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assertions shared by the C unit tests: every failed check prints the
 * expression and both values, counts as a failure, and the test goes on;
 * check_done() prints a summary line and gives the exit status, so a test
 * fails when any check failed.  Header-only: each test program has its own
 * counters.
 */
#ifndef SCHEDREPLAY_TESTS_COMMON_CHECK_H
#define SCHEDREPLAY_TESTS_COMMON_CHECK_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* @got == @want as unsigned values; the failure is named by @what (a label
 * where the expressions alone do not say which case of a loop failed) */
#define CHECK_EQ_U_AS(what, got, want) do {                                     \
	unsigned long long _g = (unsigned long long)(got), _w = (unsigned long long)(want); \
	check_count++;                                                          \
	if (_g != _w) {                                                         \
		check_failures++;                                               \
		fprintf(stderr, "%s:%d: %s: got %llu, expected %llu\n",        \
			__FILE__, __LINE__, (what), _g, _w);                    \
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

/* |a - b| <= tol * max(1, |b|) */
#define CHECK_NEAR(a, b, tol) do {                                              \
	double _a = (double)(a), _b = (double)(b);                              \
	check_count++;                                                          \
	if (!(fabs(_a - _b) <= (tol) * fmax(1.0, fabs(_b)))) {                  \
		check_failures++;                                               \
		fprintf(stderr, "%s:%d: %s ~= %s: got %.10g, expected %.10g\n", \
			__FILE__, __LINE__, #a, #b, _a, _b);                    \
	}                                                                       \
} while (0)

#define CHECK_STR(a, b) do {                                                    \
	const char *_a = (a), *_b = (b);                                        \
	check_count++;                                                          \
	if (!_a || !_b || strcmp(_a, _b)) {                                     \
		check_failures++;                                               \
		fprintf(stderr, "%s:%d: %s == %s: got \"%s\", expected \"%s\"\n", \
			__FILE__, __LINE__, #a, #b, _a ? _a : "(null)",         \
			_b ? _b : "(null)");                                    \
	}                                                                       \
} while (0)

/* @hay contains @needle */
#define CHECK_CONTAINS(hay, needle) do {                                        \
	const char *_h = (hay), *_n = (needle);                                 \
	check_count++;                                                          \
	if (!_h || !strstr(_h, _n)) {                                           \
		check_failures++;                                               \
		fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n",      \
			__FILE__, __LINE__, _h ? _h : "(null)", _n);            \
	}                                                                       \
} while (0)

/* Exit status: 0 all passed, 1 failures.  Prints a summary line. */
static inline int check_done(const char *name)
{
	fprintf(stderr, "%s: %d checks, %d failed\n", name, check_count, check_failures);
	return check_failures ? 1 : 0;
}

#endif /* SCHEDREPLAY_TESTS_COMMON_CHECK_H */
