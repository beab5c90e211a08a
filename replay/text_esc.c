// SPDX-License-Identifier: GPL-2.0
/*
 * Names read from a trace, a sidecar or the command line, made fit for the
 * output they go to (cli.h): a comm is up to 16 arbitrary bytes, which may
 * hold a newline, a terminal escape, a '|' or bytes that are not UTF-8.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include <schedreplay/cli.h>

/*
 * The length of the well-formed UTF-8 sequence at @p (1 for ASCII), 0 if
 * there is none (a stray continuation byte, an overlong form, a surrogate,
 * beyond U+10FFFF, cut short).  *@c1: the sequence is a C1 control
 * (U+0080..U+009F), a terminal's CSI among them.
 */
static size_t utf8_len(const unsigned char *p, bool *c1)
{
	unsigned int cp, n, i;

	*c1 = false;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)      /* the terminating NUL too */
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*c1 = cp < 0xa0;
	return n;
}

bool sr_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	bool c1;
	size_t n;

	for (; *p; p += n)
		if (!(n = utf8_len(p, &c1)))
			return false;
	return true;
}

/* U+FFFE or U+FFFF (EF BF BE/BF): UTF-8, but not a character XML 1.0 allows. */
static bool xml_nonchar(const unsigned char *p, size_t n, enum sr_esc_how how)
{
	return how == SR_ESC_XML && n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe;
}

/*
 * The escape of the character at @p (not NUL) in @piece (room for 32), its
 * length in *@len; returns the bytes of @p it stands for.
 */
static size_t esc_piece(const unsigned char *p, enum sr_esc_how how, char *piece, size_t *len)
{
	bool c1;
	size_t n = utf8_len(p, &c1);

	if (n > 1 && (!c1 || how == SR_ESC_JSON) && !xml_nonchar(p, n, how)) {
		memcpy(piece, p, n);        /* a character: as it is */
		*len = n;
	} else if (!n || n > 1) {
		/* not UTF-8 (each byte), a C1 control or an XML nonchar (its bytes) */
		n = n ? n : 1;
		*len = 0;
		for (size_t i = 0; i < n; i++)
			*len += (size_t)sprintf(piece + *len, "\\x%02x", p[i]);
	} else if (*p == '\\') {
		/* the escape character itself: "\\xff" must not read as the byte */
		*len = (size_t)sprintf(piece, "\\\\");
	} else if (how == SR_ESC_JSON) {
		piece[0] = (char)*p;        /* jansson escapes the controls */
		*len = 1;
	} else if (*p < 0x20 || *p == 0x7f) {
		if (*p == '\n' || *p == '\t' || *p == '\r')
			*len = (size_t)sprintf(piece, "\\%c",
					       *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r');
		else
			*len = (size_t)sprintf(piece, "\\x%02x", *p);
	} else if (how == SR_ESC_MD && *p == '|') {
		*len = (size_t)sprintf(piece, "\\|");
	} else if (how == SR_ESC_XML && strchr("&<>\"'", *p)) {
		*len = (size_t)sprintf(piece, "%s", *p == '&' ? "&amp;" : *p == '<' ? "&lt;" :
				       *p == '>' ? "&gt;" : *p == '"' ? "&quot;" : "&apos;");
	} else {
		piece[0] = (char)*p;
		*len = 1;
	}
	return n;
}

size_t sr_esc(char *out, size_t size, const char *s, enum sr_esc_how how)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	if (!size)
		return 0;
	while (*p) {
		char piece[32];
		size_t len, n = esc_piece(p, how, piece, &len);

		/* room for this piece and, if more follows, "..." */
		if (o + len + (p[n] ? 3 : 0) > size - 1) {
			if (o + 3 <= size - 1) {
				memcpy(out + o, "...", 3);
				o += 3;
			}
			break;
		}
		memcpy(out + o, piece, len);
		o += len;
		p += n;
	}
	out[o] = '\0';
	return o;
}

/* Whether sr_esc() would write @s unchanged (however long it is). */
static bool esc_none(const char *s, enum sr_esc_how how)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		char piece[32];
		size_t len, n = esc_piece(p, how, piece, &len);

		if (len != n || memcmp(piece, p, n))
			return false;
		p += n;
	}
	return true;
}

/* @s itself when it needs nothing, else one of CLI_ESC_SLOTS buffers, in turn. */
static const char *esc_slot(const char *s, enum sr_esc_how how)
{
	static char slot[CLI_ESC_SLOTS][CLI_ESC_MAX + 4];
	static unsigned int next;
	char *out;

	if (!s)
		return "(null)";
	if (esc_none(s, how))
		return s;
	out = slot[next++ % CLI_ESC_SLOTS];
	sr_esc(out, CLI_ESC_MAX + 4, s, how);
	return out;
}

const char *cli_esc(const char *s)
{
	return esc_slot(s, SR_ESC_TEXT);
}

const char *cli_esc_md(const char *s)
{
	return esc_slot(s, SR_ESC_MD);
}

const char *cli_esc_xml(const char *s)
{
	return esc_slot(s, SR_ESC_XML);
}

const char *sr_json_key(const char *s, char *buf, size_t size)
{
	if (!s)
		return "";
	if (esc_none(s, SR_ESC_JSON))
		return s;
	sr_esc(buf, size, s, SR_ESC_JSON);
	return buf;
}

json_t *sr_json_string(const char *s)
{
	char buf[CLI_ESC_MAX + 4];

	return s ? json_string(sr_json_key(s, buf, sizeof(buf))) : json_null();
}
