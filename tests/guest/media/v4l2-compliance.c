// SPDX-License-Identifier: GPL-2.0
/*
 * v4l2-compliance - run Debian's v4l2-compliance (v4l-utils, copied into
 * the initramfs by the vivid profile's tool= line) on vivid's capture node
 * and report its totals.
 *
 * The cases check that the tool ran to its end and printed its totals
 * line; its failing checks are printed as diagnostics, and the totals as
 * one "# v4l2-compliance: total=N succeeded=N failed=N warnings=N" line,
 * which the host compares between the baseline and patched kernels: the
 * patched kernel must not do worse. The tool's own result is not a case
 * here, because v4l-utils 1.22 and the 6.1 kernel disagree on a format
 * name string, which fails some checks on every kernel (version skew, not
 * a kernel bug); the cross-kernel comparison is what guards the core
 * V4L2 series (patches/core/0501-0503) against changing the ioctl ABI.
 */
#include <sys/wait.h>

#include "ktap.h"

#define TOOL "/usr/bin/v4l2-compliance"

struct totals {
	int seen;
	unsigned int total, succeeded, failed, warnings;
};

/* "Total for vivid device /dev/video0: 46, Succeeded: 40, Failed: 6, Warnings: 0" */
static void parse_line(const char *line, struct totals *t)
{
	const char *p = strstr(line, "Total for ");

	if (p && (p = strchr(p, ':')) &&
	    sscanf(p, ": %u, Succeeded: %u, Failed: %u, Warnings: %u",
		   &t->total, &t->succeeded, &t->failed, &t->warnings) == 4)
		t->seen = 1;
}

static void run(void)
{
	struct totals t = { 0 };
	char line[1024];
	int status = -1, fds[2];
	pid_t pid;
	FILE *out;

	if (pipe(fds))
		ktap_bail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		execl(TOOL, TOOL, "-d", "/dev/video0", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	out = fdopen(fds[0], "r");
	while (out && fgets(line, sizeof(line), out)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "fail:") || strstr(line, "Total for"))
			ktap_diag("%s", line);
		parse_line(line, &t);
	}
	if (out)
		fclose(out);
	waitpid(pid, &status, 0);
	ktap_ok(WIFEXITED(status) && WEXITSTATUS(status) != 127,
		"v4l2-compliance ran to its end");
	ktap_ok(t.seen && t.total > 0 && t.succeeded + t.failed == t.total,
		"v4l2-compliance printed consistent totals");
	if (t.seen)
		ktap_diag("v4l2-compliance: total=%u succeeded=%u failed=%u warnings=%u",
			  t.total, t.succeeded, t.failed, t.warnings);
}

const struct ktap_test ktap_test = {
	.plan = 2,
	.devices = (const char *const[]){ "/dev/video0", TOOL, NULL },
	.timeout = 120,
	.run = run,
};
