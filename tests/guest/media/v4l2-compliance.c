// SPDX-License-Identifier: GPL-2.0
/*
 * v4l2-compliance - run Debian's v4l2-compliance (v4l-utils, from the
 * host's /usr by the vivid profile's tool= line) twice and report its
 * totals:
 *
 *   -d /dev/video0           vivid's capture node, without streaming
 *                            (113 checks)
 *   -m /dev/media0 -s 10     the media device and every node it names
 *                            (here the capture node), with streaming: 10
 *                            frames through read(), MMAP and USERPTR on
 *                            each I/O method, the Requests test and the
 *                            disconnect test (128 checks, about 8 s under
 *                            TCG)
 *
 * -f (streaming every format, frame size and interval) is left out: under
 * TCG it had streamed 808 format combinations in 19 minutes and was not
 * done. -a (streaming every input) adds 21 checks of vivid's own input
 * code for 5 s more, nothing of the core series.
 *
 * The cases check that the tool ran to its end and printed its totals
 * line; its failing checks are printed as diagnostics, and the totals as
 * one "# NAME: total=N succeeded=N failed=N warnings=N" line per run
 * (NAME v4l2-compliance or v4l2-compliance-media), which the host compares
 * between the baseline and patched kernels: the patched kernel must not
 * do worse. The tool's own result is not a case here, because v4l-utils
 * 1.22 and the 6.1 kernel disagree on a format name string, which fails
 * some checks on every kernel (version skew, not a kernel bug); the
 * cross-kernel comparison is what guards the core V4L2 series
 * (patches/core/0501-0503) against changing the ioctl ABI. Warnings are
 * not compared: the Requests test's vivid_ro_ctrl warnings come and go
 * with TCG's timing (2 to 5 from boot to boot, on either kernel).
 */
#include <sys/wait.h>

#include "ktap.h"

#define TOOL "/usr/bin/v4l2-compliance"

struct run {
	const char *name;	/* of the totals diagnostic */
	const char *totals;	/* the line the totals are read from */
	char *const *argv;
};

static const struct run runs[] = {
	{ "v4l2-compliance", "Total for ",
	  (char *const[]){ TOOL, "-d", "/dev/video0", NULL } },
	{ "v4l2-compliance-media", "Grand Total for ",
	  (char *const[]){ TOOL, "-m", "/dev/media0", "-s", "10", NULL } },
};

struct totals {
	int seen;
	unsigned int total, succeeded, failed, warnings;
};

/*
 * "Total for vivid device /dev/video0: 46, Succeeded: 40, Failed: 6,
 * Warnings: 0"; with -m, after each node's, "Grand Total for vivid device
 * /dev/media0: ..." sums them.
 */
static void parse_line(const char *line, const char *prefix, struct totals *t)
{
	const char *p;

	if (!strncmp(line, prefix, strlen(prefix)) && (p = strchr(line, ':')) &&
	    sscanf(p, ": %u, Succeeded: %u, Failed: %u, Warnings: %u",
		   &t->total, &t->succeeded, &t->failed, &t->warnings) == 4)
		t->seen = 1;
}

/*
 * The next line of out into line, cut to size: streaming progress ends
 * its lines in '\r', and a failure may follow one. 0 at the end.
 */
static int next_line(FILE *out, char *line, size_t size)
{
	size_t n = 0;
	int c;

	while ((c = getc(out)) != EOF && c != '\n' && c != '\r')
		if (n + 1 < size)
			line[n++] = (char)c;
	line[n] = '\0';
	return c != EOF || n;
}

static void run_one(const struct run *r)
{
	struct totals t = { 0 };
	char line[1024];
	int status = -1, fds[2];
	pid_t pid;
	FILE *out;

	if (pipe(fds))
		ktap_bail("pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		execv(TOOL, r->argv);
		_exit(127);
	}
	close(fds[1]);
	out = fdopen(fds[0], "r");
	while (out && next_line(out, line, sizeof(line))) {
		/* A failure's reason, the check it failed and the totals. */
		if (strstr(line, "fail:") || strstr(line, ": FAIL") ||
		    strstr(line, "Total for"))
			ktap_diag("%s", line);
		parse_line(line, r->totals, &t);
	}
	if (out)
		fclose(out);
	waitpid(pid, &status, 0);
	ktap_ok(WIFEXITED(status) && WEXITSTATUS(status) != 127,
		"%s ran to its end", r->name);
	ktap_ok(t.seen && t.total > 0 && t.succeeded + t.failed == t.total,
		"%s printed consistent totals", r->name);
	if (t.seen)
		ktap_diag("%s: total=%u succeeded=%u failed=%u warnings=%u",
			  r->name, t.total, t.succeeded, t.failed, t.warnings);
}

static void run(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(runs); i++)
		run_one(&runs[i]);
}

const struct ktap_test ktap_test = {
	.plan = 2 * ARRAY_SIZE(runs),
	.devices = (const char *const[]){ "/dev/video0", "/dev/media0", TOOL,
					  NULL },
	.kconfig = (const char *const[]){ "CONFIG_MEDIA_CONTROLLER", NULL },
	/* About 12 s unloaded under TCG; a busy host slows it 2 to 3 times. */
	.timeout = 120,
	.run = run,
};
