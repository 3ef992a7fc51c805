/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - run a Debian program from the host's /usr (a profile's tool=
 * line) from a guest test: bounded in time, its output captured, or in the
 * background as a daemon.
 *
 * The test's stdout is the pipe the guest's init reads KTAP from: a child
 * that kept it open would keep init waiting after the test ended. So a
 * captured child writes into its own pipe, and a daemon gets /dev/null.
 */
#ifndef BKLFREE_RUN_H
#define BKLFREE_RUN_H

#include <fcntl.h>
#include <sys/wait.h>

#include "ktap.h"

/*
 * Runs argv[0] with argv, waits at most secs seconds (then SIGKILL) and
 * returns its exit status, 128 + signal when killed, -1 when it could not
 * be started (errno set). Its stdout and stderr, NUL-terminated and cut to
 * size, are in out.
 */
static inline int run_capture(char *const argv[], char *out, size_t size,
			      unsigned int secs)
{
	long long deadline = ktap_now_ms() + secs * 1000LL;
	size_t used = 0;
	int fds[2], status = 0, killed = 0;
	struct pollfd p = { .events = POLLIN };
	pid_t pid;

	out[0] = '\0';
	if (pipe2(fds, O_CLOEXEC))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		signal(SIGALRM, SIG_DFL);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	p.fd = fds[0];
	for (;;) {
		long long left = deadline - ktap_now_ms();
		char buf[512];
		ssize_t n;

		if (left <= 0 && !killed) {
			kill(pid, SIGKILL);
			killed = 1;
		}
		if (poll(&p, 1, killed ? 1000 : (int)left) <= 0) {
			if (killed)
				break;
			continue;
		}
		n = read(fds[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		if (used + 1 < size) {
			size_t k = (size_t)n < size - 1 - used ?
				   (size_t)n : size - 1 - used;

			memcpy(out + used, buf, k);
			used += k;
			out[used] = '\0';
		}
	}
	close(fds[0]);
	if (!killed && ktap_now_ms() > deadline)
		kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/*
 * Waits at most ms for child pid to end: 1 with its wait status in
 * *status when it did, 0 when it is still running (the caller decides
 * whether to kill it).
 */
static inline int run_reap(pid_t pid, unsigned int ms, int *status)
{
	long long end = ktap_now_ms() + ms;

	for (;;) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return 1;
		if (ktap_now_ms() >= end)
			return 0;
		usleep(10000);
	}
}

/*
 * Diagnostics for a child that did not end in time: its state, wait
 * channel and kernel stack from /proc (CONFIG_STACKTRACE), so a report
 * says where in the kernel it sits rather than just "hung".
 */
static inline void run_diag_stuck(pid_t pid)
{
	static const char *const what[] = { "wchan", "stat", "stack" };
	char path[64], buf[2048], *line, *save;
	unsigned int i;
	ssize_t n;
	int fd;

	for (i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
		snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, what[i]);
		fd = open(path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (fd >= 0)
			close(fd);
		if (n < 0) {
			ktap_diag("%s: %s", path, strerror(errno));
			continue;
		}
		buf[n] = 0;
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			ktap_diag("%s: %s", path, line);
	}
}

/* A program's output as diagnostics: "what:", then each line indented. */
static inline void run_diag_output(const char *what, const char *out)
{
	const char *p = out, *nl;

	ktap_diag("%s:", what);
	for (; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		if (nl > p)
			ktap_diag("  %.*s", (int)(nl - p), p);
		if (!*nl)
			break;
	}
}

/* run_capture() that prints the output as diagnostics when it failed. */
static inline int run_diag(char *const argv[], unsigned int secs)
{
	char out[4096], *line, *save;
	int rc = run_capture(argv, out, sizeof(out), secs);

	if (rc) {
		ktap_diag("%s exited %d", argv[0], rc);
		for (line = strtok_r(out, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			ktap_diag("  %s", line);
	}
	return rc;
}

/*
 * Starts argv[0] in the background, its output to /dev/null, in its own
 * session so it outlives the test; returns its pid, or -1.
 */
static inline pid_t run_daemon(char *const argv[])
{
	pid_t pid;
	int fd;

	fflush(stdout);
	pid = fork();
	if (pid != 0)
		return pid;
	setsid();
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	signal(SIGALRM, SIG_DFL);
	alarm(0);
	execv(argv[0], argv);
	_exit(127);
}

#endif /* BKLFREE_RUN_H */
