// SPDX-License-Identifier: GPL-2.0
/*
 * vivid-driver-calls - after a V4L2 device node is unregistered, the driver
 * is never called again except to release its file handles (Hans
 * Verkuil's 2010 RFC "BKL, locking and ioctls"; patches/core/0501-0503,
 * which serve VIDIOC_DQEVENT and VIDIOC_UNSUBSCRIBE_EVENT in the core).
 *
 * The function tracer, filtered to vivid's own functions (vivid_*,
 * vidioc_* and the vb2 queue ops vid_cap_*: in the lab kernel vivid is the
 * only V4L2 driver, so these names are its callbacks), counts the calls;
 * lockdep's lock_acquire event, filtered to this process and to vivid's
 * device mutex (the node's vdev->lock, lockdep class "&dev->mutex"),
 * counts the times the core takes the driver's lock for it. First a
 * QUERYCAP on a live node must show up as both, which proves the counters
 * work. Then, after vivid's Disconnect control, a handle subscribed to
 * V4L2_EVENT_DISCONNECT dequeues its events, and both it and an ordinary
 * handle try QUERYCAP, G_FMT, S_CTRL, ENUM_FMT, DQEVENT, poll and
 * UNSUBSCRIBE_EVENT: none of that may reach a vivid function or take
 * vivid's lock (the driver may have freed it). Closing the handles must
 * then reach vivid_fop_release.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

#include "ktap.h"
#include "tracefs.h"

#ifndef V4L2_EVENT_DISCONNECT
#define V4L2_EVENT_DISCONNECT 0x100
#endif
#define VIVID_CID_DISCONNECT ((0x00f00000 | 0xf000) + 65)
#define VIDEO "/dev/video0"
/* a tracing instance of its own (tracefs.h) */
#define INSTANCE TRACEFS_INSTANCES "vivid-driver-calls"
#define TRACING INSTANCE "/"
#define LOCK_EVENT TRACING "events/lock/lock_acquire/"
#define VIVID_LOCK "&dev->mutex"

static char trace[1 << 16];

static int tracing(int on)
{
	return tracefs_write(TRACING "tracing_on", on ? "1" : "0");
}

/* Clear the buffer and start recording vivid's functions. */
static int trace_start(void)
{
	return tracing(0) && tracefs_write(TRACING "trace", "") && tracing(1);
}

/* Stop and read the recorded calls into trace[]; count them. */
static int trace_stop(void)
{
	int fd, calls = 0;
	char *line, *nl;
	ssize_t n;

	if (!tracing(0))
		return -1;
	fd = open(TRACING "trace", O_RDONLY);
	n = fd < 0 ? -1 : read(fd, trace, sizeof(trace) - 1);
	close(fd);
	if (n < 0)
		return -1;
	trace[n] = '\0';
	for (line = trace; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		if (*line != '#') {
			if (calls < 5)
				ktap_diag("traced: %.*s", (int)(nl - line), line);
			calls++;
		}
		if (!*nl)
			break;
	}
	return calls;
}

static int traced(const char *function)
{
	return strstr(trace, function) != NULL;
}

static void poke(int fd)
{
	struct v4l2_capability cap;
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS, .value = 50 };
	struct v4l2_fmtdesc desc = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_event ev;
	struct v4l2_event_subscription all = { .type = V4L2_EVENT_ALL };
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLPRI };

	ioctl(fd, VIDIOC_QUERYCAP, &cap);
	ioctl(fd, VIDIOC_G_FMT, &fmt);
	ioctl(fd, VIDIOC_S_CTRL, &c);
	ioctl(fd, VIDIOC_ENUM_FMT, &desc);
	while (!ioctl(fd, VIDIOC_DQEVENT, &ev))
		;
	poll(&p, 1, 0);
	ioctl(fd, VIDIOC_UNSUBSCRIBE_EVENT, &all);
}

static void run(void)
{
	struct v4l2_event_subscription sub = { .type = V4L2_EVENT_DISCONNECT };
	struct v4l2_control plug = { .id = VIVID_CID_DISCONNECT };
	struct v4l2_capability cap;
	int subscribed, plain, n;
	char pid[16];

	if (!tracefs_instance(INSTANCE))
		ktap_bail("cannot make the tracing instance: %s", strerror(errno));
	if (!tracefs_write(TRACING "set_ftrace_filter", "vivid_* vidioc_* vid_cap_*") ||
	    !tracefs_write(TRACING "current_tracer", "function"))
		ktap_bail("cannot set up the function tracer: %s", strerror(errno));
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (!tracefs_write(TRACING "set_event_pid", pid) ||
	    !tracefs_write(LOCK_EVENT "filter", "name == \"" VIVID_LOCK "\"") ||
	    !tracefs_write(LOCK_EVENT "enable", "1"))
		ktap_bail("cannot trace lock_acquire of " VIVID_LOCK ": %s",
			  strerror(errno));
	subscribed = open(VIDEO, O_RDWR | O_CLOEXEC);
	plain = open(VIDEO, O_RDWR | O_CLOEXEC);
	if (subscribed < 0 || plain < 0)
		ktap_bail("cannot open " VIDEO ": %s", strerror(errno));
	ioctl(subscribed, VIDIOC_SUBSCRIBE_EVENT, &sub);

	trace_start();
	ioctl(plain, VIDIOC_QUERYCAP, &cap);
	n = trace_stop();
	ktap_ok(n > 0 && traced("vidioc_querycap") && traced(VIVID_LOCK),
		"the tracer sees vidioc_querycap and vivid's lock taken on the live node");

	ktap_ok(!ioctl(plain, VIDIOC_S_CTRL, &plug),
		"vivid disconnect control unregisters the node");
	trace_start();
	poke(subscribed);
	poke(plain);
	n = trace_stop();
	ktap_ok(n == 0, "no vivid function runs and vivid's lock is not taken for ioctls and poll after unplug");

	trace_start();
	close(subscribed);
	close(plain);
	n = trace_stop();
	ktap_ok(n > 0 && traced("vivid_fop_release"),
		"closing the handles reaches vivid_fop_release");
	tracefs_write(LOCK_EVENT "enable", "0");
	tracefs_write(TRACING "current_tracer", "nop");
	rmdir(INSTANCE);
}

const struct ktap_test ktap_test = {
	.plan = 4,
	.devices = (const char *const[]){ VIDEO, "/sys/kernel/tracing/instances", NULL },
	.kconfig = (const char *const[]){ "CONFIG_FUNCTION_TRACER", "CONFIG_PROVE_LOCKING",
					  NULL },
	.timeout = 30,
	.upstream = "RFC BKL, locking and ioctls (Hans Verkuil, 2010); patches/core/0501-0503",
	.run = run,
};
