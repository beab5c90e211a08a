// SPDX-License-Identifier: GPL-2.0
/* Error reports: see include/schedreplay/error.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <schedreplay/error.h>

void sr_error_set(struct sr_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

void sr_error_prefix(struct sr_error *err, const char *fmt, ...)
{
	char prefix[SR_ERROR_MSG_MAX];
	char old[SR_ERROR_MSG_MAX];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s: %s", prefix, old);
}

void sr_error_clear(struct sr_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}
