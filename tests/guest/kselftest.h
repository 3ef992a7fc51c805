/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kselftest.h - run one of the kernel's own selftests as a lab guest test.
 *
 * A test tests/guest/kselftest/NAME.c declares its needs like any other
 * test and includes this file; the selftest itself, built static from the
 * extracted tree's tools/testing/selftests (tests/guest/kselftest/programs,
 * scripts/lab/kselftests.sh), lies beside it in the initramfs as
 * /tests/kselftest/NAME.ksft. The same program runs on both kernels.
 *
 * Its TAP is passed on case by case: "ok N name" and "not ok N name" become
 * this test's cases with the selftest's own names, "# SKIP reason" stays a
 * skip (a skip is never a pass: all skipped fails the boot), other lines
 * become diagnostics. A selftest that prints no plan before it exits (the
 * older ones only print text and exit 0 or 1, 4 for a skip) is one case
 * named after the program, judged by its exit status. A plan not met (a
 * crash, a hang ended by the timeout) fails the test.
 *
 *	#include "kselftest.h"
 *
 *	const struct ktap_test ktap_test = {
 *		.kconfig = (const char *const[]){ "CONFIG_TEST_HMM", NULL },
 *		.timeout = 120,
 *		KSFT_TEST,
 *	};
 */
#ifndef BKLFREE_KSELFTEST_H
#define BKLFREE_KSELFTEST_H

#include <fcntl.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "ktap.h"

/* Seconds the selftest may take to print its plan line. */
#define KSFT_PLAN_SECS 30

static FILE *ksft_out;
static pid_t ksft_pid;
static char ksft_name[PATH_MAX];
static int ksft_tap;		/* the program printed a plan line */
static char ksft_line[4096];

/* The program's path: this test's own, with ".ksft" added. */
static int ksft_path(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 6);

	if (n < 0)
		return -1;
	memcpy(buf + n, ".ksft", 6);
	return 0;
}

/* The next line of the program's output, without its newline, or NULL. */
static char *ksft_getline(void)
{
	size_t len;

	if (!fgets(ksft_line, sizeof(ksft_line), ksft_out))
		return NULL;
	len = strlen(ksft_line);
	if (len && ksft_line[len - 1] == '\n')
		ksft_line[len - 1] = '\0';
	return ksft_line;
}

/* Waits at most ms for the program's next output; 1 when there is some. */
static int ksft_readable(int ms)
{
	struct pollfd p = { .fd = fileno(ksft_out), .events = POLLIN };

	return poll(&p, 1, ms) > 0;
}

static unsigned int ksft_plan(void)
{
	long long deadline = ktap_now_ms() + KSFT_PLAN_SECS * 1000;
	int fds[2];
	char *l, *base;
	unsigned int n;

	if (ksft_path(ksft_name, sizeof(ksft_name)) || pipe(fds)) {
		ktap_perror("kselftest");
		return 1;
	}
	ksft_pid = fork();
	if (ksft_pid == 0) {
		/* The selftest dies with us, should the timeout end us. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execl(ksft_name, ksft_name, (char *)NULL);
		printf("cannot run %s: %s\n", ksft_name, strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	ksft_out = fdopen(fds[0], "r");
	if (ksft_pid < 0 || !ksft_out) {
		ktap_perror("kselftest");
		return 1;
	}
	base = strrchr(ksft_name, '/');
	ktap_diag("running %s", base ? base + 1 : ksft_name);
	/* Everything up to the plan line is the program's preamble. */
	while (ksft_readable((int)(deadline - ktap_now_ms())) &&
	       (l = ksft_getline())) {
		if (sscanf(l, "1..%u", &n) == 1) {
			ksft_tap = 1;
			return n;
		}
		ktap_diag("%s", l[0] == '#' ? l + (l[1] == ' ' ? 2 : 1) : l);
	}
	return 1;
}

/* "ok N name # SKIP why": the name and the skip reason, cut in place. */
static const char *ksft_case(char *rest, const char **skip)
{
	char *hash;

	while (*rest >= '0' && *rest <= '9')
		rest++;
	while (*rest == ' ')
		rest++;
	*skip = NULL;
	hash = strstr(rest, " # ");
	if (hash) {
		*hash = '\0';
		if (!strncasecmp(hash + 3, "SKIP", 4))
			*skip = hash[7] ? hash + 8 : "skipped";
	}
	return rest;
}

static void ksft_run(void)
{
	const char *name, *skip, *base;
	int status = 0;
	char *l;

	while (ksft_tap && (l = ksft_getline())) {
		int ok = !strncmp(l, "ok ", 3);

		if (!ok && strncmp(l, "not ok ", 7)) {
			ktap_diag("%s", l[0] == '#' ? l + (l[1] == ' ' ? 2 : 1) : l);
			continue;
		}
		name = ksft_case(l + (ok ? 3 : 7), &skip);
		if (skip && ok)
			ktap_skip(skip, "%s", name);
		else
			ktap_ok(ok, "%s", name);
	}
	/* No TAP: diagnostics to the end, then the exit status decides. */
	while (!ksft_tap && (l = ksft_getline()))
		ktap_diag("%s", l);
	if (waitpid(ksft_pid, &status, 0) < 0)
		ktap_perror("waitpid");
	if (WIFSIGNALED(status))
		ktap_diag("killed by signal %d", WTERMSIG(status));
	else
		ktap_diag("exit status %d", WEXITSTATUS(status));
	if (ksft_tap)
		return;
	base = strrchr(ksft_name, '/');
	base = base ? base + 1 : ksft_name;
	if (WIFEXITED(status) && WEXITSTATUS(status) == KTAP_SKIP)
		ktap_skip("the program skipped", "%s", base);
	else
		ktap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s",
			base);
}

#define KSFT_TEST .plan_fn = ksft_plan, .run = ksft_run

#endif /* BKLFREE_KSELFTEST_H */
