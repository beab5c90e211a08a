/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error reports shared by every stage.
 *
 * Libraries never exit and never print: a function that fails returns -1 (or
 * NULL) and, when given a non-NULL struct sr_error, fills it with one line a
 * user can act on. The line names what failed and where: the file, and the
 * CPU, record offset and timestamp when they are known. Only main() turns an
 * error into an exit code.
 */
#ifndef SCHEDREPLAY_ERROR_H
#define SCHEDREPLAY_ERROR_H

#include <stddef.h>

#define SR_ERROR_MSG_MAX 512

struct sr_error {
	int code;                     /* errno value, or 0 if none applies */
	char msg[SR_ERROR_MSG_MAX];   /* one line, no trailing newline */
};

/* Fill @err (may be NULL) with @code and a printf-style message. */
void sr_error_set(struct sr_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix an existing message, e.g. with a file name: "trace.dat: <msg>". */
void sr_error_prefix(struct sr_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Clear @err (may be NULL). */
void sr_error_clear(struct sr_error *err);

#endif /* SCHEDREPLAY_ERROR_H */
