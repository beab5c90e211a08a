// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads. Each command is forked early and held on a pipe, so it can
 * be put into its cgroup and its own process group before tracing starts;
 * released, it execs, and an exec failure comes back through a close-on-exec
 * pipe (so "command not found" is an error, not a silent 127). At the end the
 * whole process group is stopped: SIGTERM, a grace period, then SIGKILL.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cap_local.h"

void cap_argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

/* Characters that make a command a shell command line (run with sh -c). */
static const char shell_chars[] = "|&;<>()$`\\\"'*?[]#~=%{}\n";

char **cap_command_argv(const char *command, bool *uses_shell)
{
	size_t n = 0, cap = 8;
	char **argv = calloc(cap, sizeof(*argv));
	const char *p = command;

	*uses_shell = strpbrk(command, shell_chars) != NULL;
	if (!argv)
		return NULL;
	if (*uses_shell) {
		argv[0] = strdup("/bin/sh");
		argv[1] = strdup("-c");
		argv[2] = strdup(command);
		if (!argv[0] || !argv[1] || !argv[2]) {
			cap_argv_free(argv);
			return NULL;
		}
		return argv;
	}
	for (;;) {
		size_t len;

		p += strspn(p, " \t");
		if (!*p)
			break;
		len = strcspn(p, " \t");
		if (n + 2 > cap) {
			char **tmp = realloc(argv, cap * 2 * sizeof(*argv));

			if (!tmp) {
				cap_argv_free(argv);
				return NULL;
			}
			argv = tmp;
			cap *= 2;
		}
		argv[n] = strndup(p, len);
		if (!argv[n]) {
			cap_argv_free(argv);
			return NULL;
		}
		argv[++n] = NULL;
		p += len;
	}
	if (!n) {
		free(argv);
		errno = EINVAL;
		return NULL;
	}
	return argv;
}

int cap_command_check(const char *file)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (strchr(file, '/'))
		return access(file, X_OK);
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		struct stat st;

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, len ? path : ".", file);
		if (access(buf, X_OK) == 0 && stat(buf, &st) == 0 && S_ISREG(st.st_mode))
			return 0;
		path += len;
		if (*path == ':')
			path++;
	}
	errno = ENOENT;
	return -1;
}

/* In the child: say it is ready, wait for the go byte, then exec. Never returns. */
static void child_main(struct cap_proc *p, int go_rd, int err_wr, int ready_wr, pid_t capture)
{
	sigset_t none;
	char go = 0;
	int e, fd;

	/* A SIGKILLed capture cannot stop its workloads, and a command outside
	 * --group is in no cgroup that --cleanup could empty: it dies with the
	 * capture (what it started itself must be in a --group for that). */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != capture)
		_exit(0);
	/* Inherited by everything the workload starts: how --cleanup finds what
	 * a SIGKILLed capture's plain command left (cap_workload_cleanup_leftovers). */
	{
		char val[32];

		snprintf(val, sizeof(val), "%d", (int)capture);
		setenv(CAP_WORKLOAD_ENV, val, 1);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
	setpgid(0, 0);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	/* The capture moves us into our cgroups only once we sleep below. */
	if (write(ready_wr, "r", 1) != 1)
		_exit(0);
	close(ready_wr);
	/* EOF without the byte: the capture gave up before starting us. */
	while (read(go_rd, &go, 1) < 0 && errno == EINTR)
		;
	if (go != 'g')
		_exit(0);
	close(go_rd);
	execvp(p->argv[0], p->argv);
	e = errno;
	if (write(err_wr, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

/* The state letter of /proc/@pid/stat (after the last ')'), or 0. */
static char proc_state(pid_t pid)
{
	char path[64], buf[512], *rp;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	rp = strrchr(buf, ')');
	return rp && rp[1] == ' ' ? rp[2] : 0;
}

/*
 * Wait until the child sleeps in its read of the go pipe: it wrote its ready byte just before,
 * so the first interruptible sleep seen is that read (or it died: then its release fails).
 * Bounded (1 s); past it the capture goes on as before this wait existed.
 */
static void wait_child_asleep(pid_t pid, int ready_rd)
{
	char r;

	while (read(ready_rd, &r, 1) < 0 && errno == EINTR)
		;
	for (int i = 0; i < 20000; i++) {
		char st = proc_state(pid);

		if (st == 'S' || st == 'Z' || st == 0)
			return;
		usleep(50);
	}
}

/*
 * Fork the command's process, stopped before its exec until cap_proc_release(). On return it
 * sleeps in its read of the go pipe, so the cgroup moves that follow (cap_cgroup_attach(),
 * cap_track_attach()) move a sleeping task: its groups' entities are first enqueued at the
 * release, inside the trace, with no lag from a run before it (a task moved while runnable is
 * enqueued in its new group at once and runs there before tracing starts: state the trace
 * cannot show, docs/validation-log.md "chan-run2's first divergence: the root-level state at
 * .3517").
 */
int cap_proc_spawn(struct cap_proc *p, struct sr_error *err)
{
	pid_t self = getpid();
	int go[2], ep[2], rd[2];

	p->go_fd = p->err_fd = -1;
	if (pipe2(go, O_CLOEXEC) < 0) {
		sr_error_set(err, errno, "%s: cannot create a pipe: %s%s", p->label, strerror(errno),
			     cap_errno_hint(errno));
		return -1;
	}
	if (pipe2(ep, O_CLOEXEC) < 0) {
		sr_error_set(err, errno, "%s: cannot create a pipe: %s%s", p->label, strerror(errno),
			     cap_errno_hint(errno));
		close(go[0]);
		close(go[1]);
		return -1;
	}
	if (pipe2(rd, O_CLOEXEC) < 0) {
		sr_error_set(err, errno, "%s: cannot create a pipe: %s%s", p->label, strerror(errno),
			     cap_errno_hint(errno));
		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		return -1;
	}
	p->pid = fork();
	if (p->pid < 0) {
		sr_error_set(err, errno, "fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		close(rd[0]);
		close(rd[1]);
		return -1;
	}
	if (p->pid == 0) {
		close(go[1]);
		close(ep[0]);
		close(rd[0]);
		child_main(p, go[0], ep[1], rd[1], self);
	}
	/* Both sides set the process group, so neither order of events races. */
	setpgid(p->pid, p->pid);
	close(go[0]);
	close(ep[1]);
	close(rd[1]);
	wait_child_asleep(p->pid, rd[0]);
	close(rd[0]);
	p->go_fd = go[1];
	p->err_fd = ep[0];
	p->running = true;
	return 0;
}

int cap_proc_release(struct cap_proc *p, struct sr_error *err)
{
	ssize_t r;
	int e = 0;

	if (cap_write_all(p->go_fd, "g", 1) < 0) {
		sr_error_set(err, errno, "%s: cannot start the command: %s", p->label,
			     strerror(errno));
		return -1;
	}
	close(p->go_fd);
	p->go_fd = -1;
	/* Returns 0 (EOF) once exec succeeded and closed the pipe. */
	do
		r = read(p->err_fd, &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(p->err_fd);
	p->err_fd = -1;
	if (r == (ssize_t)sizeof(e)) {
		sr_error_set(err, e, "%s: cannot run '%s': %s", p->label, p->argv[0], strerror(e));
		return -1;
	}
	return 0;
}

int cap_procs_reap(struct cap_proc *procs, size_t n, double now_s)
{
	int status, done = 0;
	pid_t pid;
	size_t i;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (i = 0; i < n; i++) {
			if (procs[i].pid == pid && procs[i].running) {
				procs[i].running = false;
				procs[i].exited = true;
				procs[i].status = status;
				procs[i].end_s = now_s;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (!procs[i].running)
			done++;
	return done;
}

/*
 * SIGKILL every descendant of the capture: a workload's child that left its
 * process group (setsid, a daemon) outlived the group kill, and the capture,
 * the child subreaper, inherits the orphans. Only processes are ours here:
 * the capture's threads are not listed in /proc. Returns how many were
 * killed.
 */
static int kill_descendants(void)
{
	pid_t self = getpid();
	int total = 0;

	for (int round = 0; round < 20; round++) {
		size_t n = 0, cap = 256;
		pid_t *pid = malloc(cap * sizeof(*pid)), *ppid = malloc(cap * sizeof(*ppid));
		bool *ours = NULL;
		struct dirent *de;
		int killed = 0;
		DIR *d = opendir("/proc");

		if (!pid || !ppid || !d) {
			free(pid);
			free(ppid);
			if (d)
				closedir(d);
			break;
		}
		while ((de = readdir(d))) {
			char path[64], buf[512], *rp;
			long v;

			v = strtol(de->d_name, &rp, 10);
			if (v <= 0 || *rp || v == self)
				continue;
			snprintf(path, sizeof(path), "/proc/%ld/stat", v);
			if (cap_read_line(path, buf, sizeof(buf)) < 0)
				continue;
			/* "pid (comm) S ppid ...": the comm may hold anything but ')' last */
			rp = strrchr(buf, ')');
			if (!rp)
				continue;
			if (n == cap) {
				pid_t *a = realloc(pid, 2 * cap * sizeof(*pid));
				pid_t *b = a ? realloc(ppid, 2 * cap * sizeof(*ppid)) : NULL;

				if (a)
					pid = a;
				if (!b)
					break;
				ppid = b;
				cap *= 2;
			}
			pid[n] = (pid_t)v;
			ppid[n] = (pid_t)strtol(rp + 4, NULL, 10);
			n++;
		}
		closedir(d);
		ours = calloc(n ? n : 1, sizeof(*ours));
		if (ours) {
			/* descendants: a child of self or of a descendant (to a fixpoint) */
			for (bool grew = true; grew;) {
				grew = false;
				for (size_t i = 0; i < n; i++) {
					if (ours[i])
						continue;
					for (size_t j = 0; j < n && !ours[i]; j++)
						if (ppid[i] == self || (ours[j] && pid[j] == ppid[i]))
							ours[i] = grew = true;
				}
			}
			for (size_t i = 0; i < n; i++)
				if (ours[i] && kill(pid[i], SIGKILL) == 0)
					killed++;
		}
		free(ours);
		free(pid);
		free(ppid);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!killed)
			break;
		total += killed;
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	return total;
}

int cap_workload_cleanup_leftovers(const struct cap_options *logopt)
{
	size_t klen = strlen(CAP_WORKLOAD_ENV);
	struct dirent *de;
	int killed = 0;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[64], *env, *e, *end;
		size_t len;
		long pid = strtol(de->d_name, &end, 10), owner = 0;

		if (pid <= 0 || *end || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
		env = cap_read_file(path, &len);
		if (!env)
			continue;
		for (e = env; e < env + len; e += strlen(e) + 1)
			if (!strncmp(e, CAP_WORKLOAD_ENV, klen) && e[klen] == '=')
				owner = strtol(e + klen + 1, NULL, 10);
		free(env);
		if (owner <= 0 || owner == pid || cap_pid_is_capture((pid_t)owner))
			continue;
		if (kill((pid_t)pid, SIGKILL) == 0)
			killed++;
	}
	closedir(d);
	if (killed)
		cap_log(logopt, true, "killed %d process(es) left by killed captures' workloads",
			killed);
	return killed;
}

static bool any_running(const struct cap_proc *procs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (procs[i].running)
			return true;
	return false;
}

void cap_procs_kill(struct cap_proc *procs, size_t n, double grace_s)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	long waits = (long)(grace_s * 100);
	size_t i;

	for (i = 0; i < n; i++) {
		if (procs[i].go_fd >= 0) {      /* never released: let it exit */
			close(procs[i].go_fd);
			procs[i].go_fd = -1;
		}
		if (procs[i].pid > 0 && procs[i].running && !procs[i].group_stopped) {
			procs[i].killed = true;
			kill(-procs[i].pid, SIGTERM);
			kill(procs[i].pid, SIGTERM);
		}
	}
	for (long w = 0; w < waits && any_running(procs, n); w++) {
		nanosleep(&tick, NULL);
		cap_procs_reap(procs, n, -1);
	}
	/* Members of the group may outlive its leader: SIGKILL the whole group. */
	for (i = 0; i < n; i++) {
		if (procs[i].pid <= 0 || procs[i].group_stopped)
			continue;
		kill(-procs[i].pid, SIGKILL);
		procs[i].group_stopped = true;
		if (procs[i].running) {
			int status;

			kill(procs[i].pid, SIGKILL);
			if (waitpid(procs[i].pid, &status, 0) == procs[i].pid) {
				procs[i].running = false;
				procs[i].exited = true;
				procs[i].status = status;
			}
		}
	}
	cap_procs_reap(procs, n, -1);
	kill_descendants();
}

void cap_proc_release_resources(struct cap_proc *p)
{
	if (!p)
		return;
	if (p->go_fd >= 0)
		close(p->go_fd);
	if (p->err_fd >= 0)
		close(p->err_fd);
	p->go_fd = p->err_fd = -1;
	cap_argv_free(p->argv);
	p->argv = NULL;
}
