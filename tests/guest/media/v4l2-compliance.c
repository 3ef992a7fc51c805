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
#include "media/v4l2-compliance.h"

static const struct v4l2_compliance_run runs[] = {
	{ "v4l2-compliance", "Total for ",
	  (char *const[]){ V4L2_COMPLIANCE, "-d", "/dev/video0", NULL } },
	{ "v4l2-compliance-media", "Grand Total for ",
	  (char *const[]){ V4L2_COMPLIANCE, "-m", "/dev/media0", "-s", "10", NULL } },
};

static void run(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(runs); i++)
		v4l2_compliance(&runs[i]);
}

const struct ktap_test ktap_test = {
	.plan = 2 * ARRAY_SIZE(runs),
	.devices = (const char *const[]){ "/dev/video0", "/dev/media0",
					  V4L2_COMPLIANCE, NULL },
	.kconfig = (const char *const[]){ "CONFIG_MEDIA_CONTROLLER", NULL },
	/* About 12 s unloaded under TCG; a busy host slows it 2 to 3 times. */
	.timeout = 120,
	.run = run,
};
