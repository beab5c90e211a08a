// SPDX-License-Identifier: GPL-2.0
/*
 * Error reports: see include/schedreplay/error.h.  The library
 * schedreplay_error (common/CMakeLists.txt): libc only, so that the model
 * library, which has no tracing dependency, fills its errors with the same
 * sr_error_set() as every other stage.  jansson's errors as one line are
 * the replay library's (replay/error_json.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

void sr_error_clear(struct sr_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}
