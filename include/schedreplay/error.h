/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error reports shared by every stage.
 *
 * Libraries never exit and never print: a function that fails returns -1 (or
 * NULL) and, when given a non-NULL struct sr_error, fills it with one line a
 * user can act on. The line names what failed and where: the file, and the
 * CPU, record offset and timestamp when they are known. Only the subcommands
 * (cli.h) print an error and turn it into an exit code.
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

/*
 * The error of jansson's json_load_file(@path) (@je, a json_error_t) as one
 * line: "PATH: cannot open: REASON" for a file that could not be opened (the
 * trace's wording), else "PATH:LINE:COLUMN: TEXT" (where the parse failed).
 * jansson's own line for an open failure was "PATH:-1:-1: unable to open
 * PATH: REASON".  The code is EIO for a file not opened, else EINVAL.
 * sr_error_set_json_named() names the file @shown in the line (a
 * subcommand's cli_esc() of @path), where @path is the name jansson was
 * given.  These two are the replay library's (replay/error_json.c, jansson);
 * the others are common/error.c's, which the model library links too.
 */
struct json_error_t;
void sr_error_set_json(struct sr_error *err, const char *path, const struct json_error_t *je);
void sr_error_set_json_named(struct sr_error *err, const char *path, const char *shown,
			     const struct json_error_t *je);

/* Clear @err (may be NULL). */
void sr_error_clear(struct sr_error *err);

#endif /* SCHEDREPLAY_ERROR_H */
