// SPDX-License-Identifier: GPL-2.0
/*
 * schedreplay: one binary, one subcommand per pipeline stage.
 * The table below is the only place a subcommand is registered.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <schedreplay/cli.h>

#include "cmd_runs.h"

#ifndef SCHEDREPLAY_VERSION
#define SCHEDREPLAY_VERSION "0.1.0"
#endif

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "report", cmd_report, "measured wakeup latency and event counts of a trace.dat" },
	{ "capture", cmd_capture, "record a workload's scheduler events (root): trace.dat + sidecar" },
	{ "variants", cmd_variants, "list the model variants (patches as model configuration)" },
	{ "whatif", cmd_whatif, "compare variants on one trace: counts, latency, CPU cost, SVG" },
	{ "replay", cmd_replay, "replay a trace through the model: predicted next to measured" },
	{ "validate", cmd_validate, "replay every bundled trace, check its errors against its thresholds" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: schedreplay <command> [options] ...\n\n"
		   "Capture Linux scheduler traces, replay them through a model of the fair\n"
		   "scheduler, and compare patch variants with what the hardware measured.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'schedreplay <command> --help' describes a command;\n"
		   "'schedreplay --version' prints the version.\n"
		   "Exit status of every command: 0 success; 1 failure, one line on stderr\n"
		   "(validate: also a limit exceeded; report: also lost events, unless\n"
		   "--allow-lost; replay and whatif warn of them on stderr at exit 0);\n"
		   "2 bad usage.\n");
}

/*
 * A stdin, stdout or stderr the caller closed (`2>&-`, `>&- <&-`) gets
 * /dev/null, opened read-only, before anything opens a file: otherwise the
 * next open() or pipe() takes its number. With stderr closed a capture's
 * trace.dat became fd 2, its progress lines were written into the trace
 * (a page time stamp 8099005280419341171) and it died of SIGSEGV with its
 * instance and cgroups left; with stdin closed the workload's start pipe
 * was fd 0, which the child replaces by /dev/null, and the capture failed
 * with "cannot start the command: Broken pipe". Read-only, so that a write
 * to a closed stdout still fails as before ("writing the output failed",
 * exit 1) instead of going to /dev/null unsaid.
 */
static void std_fds_open(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int n = open("/dev/null", O_RDONLY);

			/* the lowest free number: fd itself, those below being open */
			if (n >= 0 && n != fd) {
				dup2(n, fd);
				close(n);
			}
		}
}

/*
 * The last word on stdout: what a command printed may still sit in stdio's
 * buffer, and the commands check their own report writes but not their
 * --help or version text, so `schedreplay replay --help > /dev/full` exited
 * 0.  A command that succeeded but whose output could not be written exits
 * 1 with one line; one that failed already said why.
 */
static int finish(int rc, const char *cmd)
{
	int e = cli_output_error(stdout);

	if (rc != SR_EXIT_OK || !e)
		return rc;
	fprintf(stderr, "schedreplay%s%s: cannot write the output: %s\n", cmd ? " " : "",
		cmd ? cmd : "", strerror(e));
	return SR_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	std_fds_open();
	if (argc < 2) {
		/* one line, as every usage error (the whole usage was 14 lines on stderr) */
		char names[256] = "";

		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", commands[i].name);
		return cli_usage(NULL, "a command is needed: %s", names);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish(SR_EXIT_OK, NULL);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("schedreplay %s\n", SCHEDREPLAY_VERSION);
		return finish(SR_EXIT_OK, NULL);
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].run(argc - 1, argv + 1), commands[i].name);
	return cli_usage(NULL, "unknown command '%s'", cli_esc(argv[1]));
}
