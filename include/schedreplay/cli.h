/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands of the schedreplay binary. Each lives in its own file next
 * to the stage it drives (replay/cmd_*.c, capture/cmd_*.c), parses its own
 * options (replay, whatif and validate share theirs: replay/cmd_runs.c),
 * prints its own --help and returns the process exit code:
 * 0 success, 1 failure (a one-line message was printed on stderr), 2 bad usage.
 *
 * Also what every command's messages and outputs use: cli_esc() and its
 * markdown and XML forms (names from the user or a trace, one line, no
 * terminal escapes), sr_json_key() / sr_json_string() (the same for JSON),
 * and cli_usage() / cli_getopt_error() (the one line of a usage error).
 */
#ifndef SCHEDREPLAY_CLI_H
#define SCHEDREPLAY_CLI_H

#include <stdbool.h>
#include <stddef.h>

enum { SR_EXIT_OK = 0, SR_EXIT_FAIL = 1, SR_EXIT_USAGE = 2 };

int cmd_report(int argc, char **argv);
int cmd_variants(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_validate(int argc, char **argv);

/*
 * @s made fit for a one-line message: each control character (below 0x20,
 * and 0x7f) written as \n, \t, \r or \xNN, so that a name holding a
 * newline or a terminal escape (a file name, an option value, a comm read
 * from a trace) can neither break the line nor drive the terminal.  @s itself
 * when it holds none; else one of CLI_ESC_SLOTS static buffers, reused in
 * turn (a message may escape that many strings; main thread only), the text
 * cut short with "..." past CLI_ESC_MAX bytes.  Well-formed UTF-8 passes
 * unchanged, but for the C1 controls (U+0080..U+009F); a byte that is not
 * UTF-8 is written \xNN, and a backslash \\ (every form is one-to-one: a
 * typed "\xff" never prints as the byte).  The same for the text reports'
 * tables: a comm "a\nb" is printed a\nb, one line.  Defined in
 * replay/text_esc.c, with:
 *   cli_esc_md()   the same, and '|' as \| (a markdown table's cell);
 *   cli_esc_xml()  the same, & < > " ' as XML entities, and U+FFFE/U+FFFF
 *                  (not XML 1.0 characters) as \xNN (SVG text).
 */
#define CLI_ESC_SLOTS 4
#define CLI_ESC_MAX 4096
const char *cli_esc(const char *s);
const char *cli_esc_md(const char *s);
const char *cli_esc_xml(const char *s);

/*
 * The escape of @s into @out (@size bytes, NUL-terminated, cut short with
 * "..."), as cli_esc() (SR_ESC_TEXT), cli_esc_md(), cli_esc_xml(), or
 * SR_ESC_JSON: only the bytes that are not UTF-8 as \xNN, and a backslash
 * as \\ (jansson's
 * json_string() returns NULL for them: the key or value was dropped without
 * a word), the rest for jansson to escape.  Returns the length written.
 * For a caller off the main thread (no static buffer).
 */
enum sr_esc_how { SR_ESC_TEXT, SR_ESC_MD, SR_ESC_XML, SR_ESC_JSON };
size_t sr_esc(char *out, size_t size, const char *s, enum sr_esc_how how);

/*
 * A comm or cgroup path as a JSON object key (@s, or its SR_ESC_JSON escape
 * in @buf) and as a JSON string (NULL: null).
 */
struct json_t;
const char *sr_json_key(const char *s, char *buf, size_t size);
struct json_t *sr_json_string(const char *s);

/* Whether @s is well-formed UTF-8 (what a JSON string, and key, can hold). */
bool sr_utf8_valid(const char *s);

struct option;

/*
 * The message of getopt_long() returning @c, '?' (an unknown option) or ':'
 * (a value missing: the option string starts with ':', opterr is 0), for
 * `schedreplay @cmd`: one line naming the option through cli_esc(), where
 * getopt's own message printed it raw.  @lo, the command's long options,
 * tells "--json=3" (takes no value) and "--vari" (ambiguous) from an unknown
 * option; a short option is named by its letter (optopt), as "-x" of "-xj".
 * cli_getopt_what() is the message alone ("unknown option '--frob'"), in a
 * static buffer.
 */
const char *cli_getopt_what(int c, char *const *argv, const struct option *lo);
void cli_getopt_error(const char *cmd, int c, char *const *argv, const struct option *lo);

/*
 * A usage error of `schedreplay @cmd` (NULL: of schedreplay itself, no
 * command yet): the one line "schedreplay CMD: MESSAGE (see 'schedreplay CMD
 * --help')" on stderr, MESSAGE from @fmt (values through cli_esc()).  Every
 * usage error of every command is this one line (cli_getopt_error()'s too):
 * a second "(see ...)" line, or the whole usage, pushed the line that says
 * what is wrong away.  Returns SR_EXIT_USAGE.
 */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* SCHEDREPLAY_CLI_H */
