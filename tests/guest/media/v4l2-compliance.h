/* SPDX-License-Identifier: GPL-2.0 */
/*
 * v4l2-compliance.h - one run of Debian's v4l2-compliance (v4l-utils, from
 * the host's /usr by a profile's tool= line) as two cases: it ran to its
 * end, and it printed consistent totals. Its failing checks and totals go
 * to diagnostics, the totals as "# NAME: total=N succeeded=N failed=N
 * warnings=N", which tools/lab/verdict keeps for NAME v4l2-compliance and
 * v4l2-compliance-media and the host compares between the two kernels.
 * Shared by media/v4l2-compliance (vivid) and usb/uvc-camera.
 */
#ifndef BKLFREE_V4L2_COMPLIANCE_H
#define BKLFREE_V4L2_COMPLIANCE_H

#include <stdio.h>
#include <sys/wait.h>

#include "ktap.h"

#define V4L2_COMPLIANCE "/usr/bin/v4l2-compliance"

struct v4l2_compliance_run {
	const char *name;	/* of the totals diagnostic */
	const char *totals;	/* the line the totals are read from */
	char *const *argv;
};

struct v4l2_compliance_totals {
	int seen;
	unsigned int total, succeeded, failed, warnings;
};

/*
 * "Total for vivid device /dev/video0: 46, Succeeded: 40, Failed: 6,
 * Warnings: 0"; with -m, after each node's, "Grand Total for vivid device
 * /dev/media0: ..." sums them.
 */
static inline void v4l2_compliance_parse(const char *line, const char *prefix,
					 struct v4l2_compliance_totals *t)
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
static inline int v4l2_compliance_line(FILE *out, char *line, size_t size)
{
	size_t n = 0;
	int c;

	while ((c = getc(out)) != EOF && c != '\n' && c != '\r')
		if (n + 1 < size)
			line[n++] = (char)c;
	line[n] = '\0';
	return c != EOF || n;
}

static inline void v4l2_compliance(const struct v4l2_compliance_run *r)
{
	struct v4l2_compliance_totals t = { 0 };
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
		execv(V4L2_COMPLIANCE, r->argv);
		_exit(127);
	}
	close(fds[1]);
	out = fdopen(fds[0], "r");
	while (out && v4l2_compliance_line(out, line, sizeof(line))) {
		/* A failure's reason, the check it failed and the totals. */
		if (strstr(line, "fail:") || strstr(line, ": FAIL") ||
		    strstr(line, "Total for"))
			ktap_diag("%s", line);
		v4l2_compliance_parse(line, r->totals, &t);
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

#endif /* BKLFREE_V4L2_COMPLIANCE_H */
