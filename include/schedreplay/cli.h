/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands of the schedreplay binary. Each lives in its own file next
 * to the stage it drives (replay/cmd_*.c, capture/cmd_*.c), parses its own
 * options, prints its own --help and returns the process exit code:
 * 0 success, 1 failure (a one-line message was printed on stderr), 2 bad usage.
 */
#ifndef SCHEDREPLAY_CLI_H
#define SCHEDREPLAY_CLI_H

enum { SR_EXIT_OK = 0, SR_EXIT_FAIL = 1, SR_EXIT_USAGE = 2 };

int cmd_report(int argc, char **argv);
int cmd_variants(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_validate(int argc, char **argv);

#endif /* SCHEDREPLAY_CLI_H */
