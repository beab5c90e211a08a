/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The failure counter of the live-capture checkers (capture_check,
 * capture_bw_check): FAILF prints one "FAIL: ..." line, with both sides in
 * its arguments, and counts it; main() exits non-zero if any was counted.
 */
#ifndef SCHEDREPLAY_CHECK_FAIL_H
#define SCHEDREPLAY_CHECK_FAIL_H

#include <stdio.h>

static int failures;

#define FAILF(...)                                      \
	do {                                            \
		fprintf(stderr, "FAIL: " __VA_ARGS__);  \
		fputc('\n', stderr);                    \
		failures++;                             \
	} while (0)

#endif /* SCHEDREPLAY_CHECK_FAIL_H */
