// SPDX-License-Identifier: GPL-2.0
/* Error reports: see include/schedreplay/error.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <errno.h>
#include <jansson.h>

#include <schedreplay/error.h>

/*
 * Every message is one line (error.h): bytes of the input that reach a
 * message (a name read from a damaged file) may hold newlines, escapes or
 * other control characters; they become '?'.
 */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

void sr_error_set(struct sr_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	one_line(err->msg);
}

void sr_error_prefix(struct sr_error *err, const char *fmt, ...)
{
	char old[SR_ERROR_MSG_MAX];
	va_list ap;
	int n;

	if (!err)
		return;
	memcpy(old, err->msg, sizeof(old));
	va_start(ap, fmt);
	n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	/* Append ": <old message>", truncating the tail if the line is full. */
	if ((size_t)n < sizeof(err->msg) - 1) {
		size_t room = sizeof(err->msg) - (size_t)n;

		strncat(err->msg, ": ", room - 1);
		strncat(err->msg, old, sizeof(err->msg) - strlen(err->msg) - 1);
	}
	one_line(err->msg);
}

/* REASON of jansson's open failure, NULL when the file was opened */
static const char *json_open_reason(const char *path, const struct json_error_t *je)
{
	char pre[SR_ERROR_MSG_MAX];
	size_t n;

	if (json_error_code(je) != json_error_cannot_open_file)
		return NULL;
	/* jansson's "unable to open PATH: REASON" (cut short for a long PATH: as it is) */
	n = (size_t)snprintf(pre, sizeof(pre), "unable to open %s: ", path);
	return n < sizeof(pre) && !strncmp(je->text, pre, n) ? je->text + n : je->text;
}

void sr_error_set_json_named(struct sr_error *err, const char *path, const char *shown,
			     const struct json_error_t *je)
{
	const char *why = json_open_reason(path, je);

	if (why)
		sr_error_set(err, EIO, "%s: cannot open: %s", shown, why);
	else
		sr_error_set(err, EINVAL, "%s:%d:%d: %s", shown, je->line, je->column, je->text);
}

void sr_error_set_json(struct sr_error *err, const char *path, const struct json_error_t *je)
{
	sr_error_set_json_named(err, path, path, je);
}

void sr_error_clear(struct sr_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}
