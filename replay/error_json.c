// SPDX-License-Identifier: GPL-2.0
/* jansson's errors as one error line: see include/schedreplay/error.h. */
#include <stdio.h>
#include <string.h>

#include <errno.h>
#include <jansson.h>

#include <schedreplay/error.h>

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
