// SPDX-License-Identifier: GPL-2.0
/*
 * sr_esc() and its wrappers (replay/text_esc.c), byte for byte: every form is
 * one-to-one (two different names never print alike: a literal backslash is
 * escaped, or "a\xff" typed would read as the byte 0xff), and the XML form
 * holds no character XML 1.0 refuses (U+FFFE, U+FFFF).
 */
#include <stdlib.h>
#include <string.h>

#include <schedreplay/cli.h>

#include "check_replay.h"

static const char *esc(const char *s, enum sr_esc_how how)
{
	static char buf[256];

	sr_esc(buf, sizeof(buf), s, how);
	return buf;
}

int main(void)
{
	char k1[64], k2[64];

	/* a byte that is not UTF-8, and the same four characters typed */
	CHECK_STR(esc("a\xff", SR_ESC_TEXT), "a\\xff");
	CHECK_STR(esc("a\\xff", SR_ESC_TEXT), "a\\\\xff");
	CHECK_STR(esc("a\\xff", SR_ESC_MD), "a\\\\xff");
	CHECK_STR(esc("a\\xff", SR_ESC_XML), "a\\\\xff");
	CHECK_STR(esc("a\\xff", SR_ESC_JSON), "a\\\\xff");
	CHECK_STR(esc("a\xff", SR_ESC_JSON), "a\\xff");
	CHECK(strcmp(sr_json_key("a\xff", k1, sizeof(k1)), sr_json_key("a\\xff", k2, sizeof(k2))));
	CHECK(strcmp(cli_esc("a\\n"), "a\\n"));         /* typed "\n" is not a newline */
	CHECK_STR(cli_esc("a\n"), "a\\n");
	/* names that need nothing come back as they are */
	CHECK_STR(cli_esc("kworker/0:1"), "kworker/0:1");
	CHECK(sr_json_key("probe-msg", k1, sizeof(k1)) != k1);
	/* the controls, '|' for markdown, the entities for XML */
	CHECK_STR(esc("m\n|\x1b[2J\t\r\x7f", SR_ESC_TEXT), "m\\n|\\x1b[2J\\t\\r\\x7f");
	CHECK_STR(esc("a|b", SR_ESC_MD), "a\\|b");
	CHECK_STR(esc("<&\"'>", SR_ESC_XML), "&lt;&amp;&quot;&apos;&gt;");
	/* U+FFFE and U+FFFF: UTF-8, kept in text and JSON, escaped for XML */
	CHECK_STR(esc("x\xef\xbf\xbe\xef\xbf\xbf", SR_ESC_TEXT), "x\xef\xbf\xbe\xef\xbf\xbf");
	CHECK_STR(esc("x\xef\xbf\xbe\xef\xbf\xbf", SR_ESC_XML), "x\\xef\\xbf\\xbe\\xef\\xbf\\xbf");
	CHECK_STR(esc("x\xef\xbf\xbd", SR_ESC_XML), "x\xef\xbf\xbd");      /* U+FFFD is fine */
	CHECK_STR(cli_esc_xml("\xef\xbf\xbe"), "\\xef\\xbf\\xbe");
	/* a C1 control (U+009B, CSI) is escaped but for JSON */
	CHECK_STR(esc("\xc2\x9b", SR_ESC_TEXT), "\\xc2\\x9b");
	CHECK_STR(esc("\xc2\x9b", SR_ESC_JSON), "\xc2\x9b");
	/* cut short with "..." within the buffer */
	{
		char small[8];

		CHECK_EQ(sr_esc(small, sizeof(small), "abcdefghij", SR_ESC_TEXT), 7);
		CHECK_STR(small, "abcd...");
	}
	CHECK_DONE();
}
