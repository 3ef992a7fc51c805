// SPDX-License-Identifier: GPL-2.0
/*
 * vivid-unbind - the disconnect event through the real unregister path:
 * vivid's platform device is unbound from its driver in sysfs, so
 * vivid_remove() calls video_unregister_device(), while threads subscribe
 * to V4L2_EVENT_DISCONNECT and dequeue on handles of their own.
 *
 * video_unregister_device() clears V4L2_FL_REGISTERED without any lock a
 * subscriber holds, so a VIDIOC_SUBSCRIBE_EVENT that passed the
 * registration check can add its subscription after the event went out
 * (patches/core/0502 orders the two under fh_lock). The contract checked
 * here: every handle whose subscription succeeded gets the disconnect
 * event exactly once, then ENODEV; a subscription made after the unplug
 * is refused with ENODEV; nothing else fails.
 *
 * LOOPERS threads subscribe, dequeue without blocking and unsubscribe
 * again until the node goes; WAITERS threads subscribe once and block in
 * VIDIOC_DQEVENT. The lab kernels run on one CPU without preemption, so
 * the subscribe path cannot be caught between its check and its
 * list_add() here: the loopers are a stress of the ordering, not a
 * reproducer of the race. On the baseline kernel the event type does not
 * exist (vivid refuses the subscription); the waiters are then not
 * started, since 6.1's DQEVENT would sleep through the unplug.
 *
 * Afterwards every handle is closed and vivid bound again: /dev/video0
 * must come back. Run it last in a boot, after the tests that need vivid.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <time.h>
#include <linux/videodev2.h>

#include "ktap.h"

#ifndef V4L2_EVENT_DISCONNECT
#define V4L2_EVENT_DISCONNECT 0x100
#endif
#define VIDEO "/dev/video0"
#define DRIVER "/sys/bus/platform/drivers/vivid"
#define DEVICE "vivid.0"
#define LOOPERS 6
#define WAITERS 2
#define SPIN_MS 300		/* loopers' rounds before the unplug */
#define END_MS 5000		/* every thread done after the unplug */

enum outcome {
	RUNNING,
	GOT_EVENT,	/* the disconnect event once, then ENODEV */
	REFUSED,	/* subscribe after the unplug: ENODEV */
	MISSED,		/* subscribed, unplugged, ENODEV with no event */
	TWICE,		/* the event, then something other than ENODEV */
	FAILED,		/* any other error */
};

struct worker {
	int fd;
	int wait;		/* a waiter: block in DQEVENT */
	pthread_t thread;
	unsigned int rounds;
	enum outcome outcome;
	int err;
	const char *call;
};

static volatile int unplugged;

static int disconnect_sub(int fd, unsigned long req)
{
	struct v4l2_event_subscription sub = { .type = V4L2_EVENT_DISCONNECT };

	return ioctl(fd, req, &sub);
}

static enum outcome fail(struct worker *w, const char *call)
{
	w->err = errno;
	w->call = call;
	return FAILED;
}

/* After the disconnect event: the next DQEVENT must say ENODEV. */
static enum outcome after_event(struct worker *w)
{
	struct v4l2_event ev;

	if (ioctl(w->fd, VIDIOC_DQEVENT, &ev) == 0)
		return TWICE;
	return errno == ENODEV ? GOT_EVENT : fail(w, "second DQEVENT");
}

/* One looper round: subscribe, look for the event, unsubscribe. */
static enum outcome loop_round(struct worker *w)
{
	struct v4l2_event ev;

	if (disconnect_sub(w->fd, VIDIOC_SUBSCRIBE_EVENT))
		return errno == ENODEV ? REFUSED : fail(w, "SUBSCRIBE");
	if (ioctl(w->fd, VIDIOC_DQEVENT, &ev) == 0)
		return ev.type == V4L2_EVENT_DISCONNECT ? after_event(w) :
							 fail(w, "DQEVENT type");
	if (errno == ENODEV)
		return MISSED;
	if (errno != ENOENT)
		return fail(w, "DQEVENT");
	/* Still registered: ENOENT. Unsubscribing drops a late event too. */
	if (disconnect_sub(w->fd, VIDIOC_UNSUBSCRIBE_EVENT))
		return errno == ENODEV ? REFUSED : fail(w, "UNSUBSCRIBE");
	return RUNNING;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct v4l2_event ev;

	if (w->wait) {
		/* Subscribed by run(); blocks until the unplug. */
		if (ioctl(w->fd, VIDIOC_DQEVENT, &ev))
			w->outcome = errno == ENODEV ? MISSED :
						       fail(w, "blocking DQEVENT");
		else
			w->outcome = ev.type == V4L2_EVENT_DISCONNECT ?
				     after_event(w) : fail(w, "DQEVENT type");
		return NULL;
	}
	/* Until the node is gone, and a last round once it is. */
	do {
		int was_unplugged = unplugged;

		w->rounds++;
		w->outcome = loop_round(w);
		if (was_unplugged && w->outcome == RUNNING)
			w->outcome = fail(w, "round after the unplug");
	} while (w->outcome == RUNNING);
	return NULL;
}

static int write_sysfs(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = -1;

	if (fd >= 0) {
		n = write(fd, val, strlen(val));
		close(fd);
	}
	if (n != (ssize_t)strlen(val))
		return ktap_perror(path) + 1;
	return 1;
}

static int node_there(void *arg)
{
	struct v4l2_capability cap;
	int fd = open(VIDEO, O_RDWR | O_CLOEXEC);
	int ok = fd >= 0 && !ioctl(fd, VIDIOC_QUERYCAP, &cap);

	(void)arg;
	if (fd >= 0)
		close(fd);
	return ok ? KTAP_READY : KTAP_WAIT;
}

static const char *const names[] = {
	[RUNNING] = "still running", [GOT_EVENT] = "event once",
	[REFUSED] = "refused", [MISSED] = "MISSED the event",
	[TWICE] = "event TWICE", [FAILED] = "failed",
};

static void run(void)
{
	struct timespec spin = { .tv_nsec = SPIN_MS * 1000000L };
	struct worker w[LOOPERS + WAITERS] = { 0 };
	unsigned int i, n, got = 0, waiters_ok = 0, bad = 0;
	int started = 0, ok, has_event;

	for (i = 0; i < ARRAY_SIZE(w); i++) {
		w[i].fd = open(VIDEO, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (w[i].fd < 0)
			ktap_bail("open " VIDEO ": %s", strerror(errno));
		w[i].wait = i >= LOOPERS;
	}
	has_event = !disconnect_sub(w[LOOPERS].fd, VIDIOC_SUBSCRIBE_EVENT);
	if (!has_event)
		ktap_diag("no disconnect event: %s; the waiters are not started",
			  strerror(errno));
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		if (w[i].wait) {
			if (!has_event ||
			    (i > LOOPERS &&
			     disconnect_sub(w[i].fd, VIDIOC_SUBSCRIBE_EVENT)))
				continue;
			fcntl(w[i].fd, F_SETFL, 0);	/* blocking */
		}
		if (pthread_create(&w[i].thread, NULL, worker_main, &w[i]))
			ktap_bail("pthread_create: %s", strerror(errno));
		started |= 1 << i;
	}
	nanosleep(&spin, NULL);

	ok = write_sysfs(DRIVER "/unbind", DEVICE);
	unplugged = 1;
	ktap_diag("%d threads subscribed or subscribing at the unplug",
		  LOOPERS + (has_event ? WAITERS : 0));
	ktap_ok(ok, "vivid unbound in sysfs while threads subscribe and dequeue");
	/* Bounded: the test's alarm ends a thread that never returns. */
	for (i = 0; i < ARRAY_SIZE(w); i++) {
		if (!(started & (1 << i)))
			continue;
		pthread_join(w[i].thread, NULL);
		ktap_diag("%s %u: %s after %u rounds%s%s%s",
			  w[i].wait ? "waiter" : "looper", i,
			  names[w[i].outcome], w[i].rounds,
			  w[i].call ? " (" : "", w[i].call ? w[i].call : "",
			  w[i].call ? ")" : "");
		if (w[i].err)
			ktap_diag("  errno %d %s", w[i].err, strerror(w[i].err));
	}

	for (i = 0; i < LOOPERS; i++) {
		got += w[i].outcome == GOT_EVENT;
		bad += w[i].outcome != GOT_EVENT && w[i].outcome != REFUSED;
	}
	ktap_diag("loopers: %u got the event, %u other than event or refused",
		  got, bad);
	ktap_ok(bad == 0,
		"every looper subscribed at the unplug got the event once");
	for (i = LOOPERS; i < ARRAY_SIZE(w); i++)
		waiters_ok += (started & (1 << i)) && w[i].outcome == GOT_EVENT;
	ktap_diag("waiters: %u of %d got the event once", waiters_ok, WAITERS);
	ktap_ok(waiters_ok == WAITERS,
		"blocked DQEVENT subscribers got the event once, then ENODEV");
	n = 0;
	for (i = 0; i < ARRAY_SIZE(w); i++)
		n += disconnect_sub(w[i].fd, VIDIOC_SUBSCRIBE_EVENT) < 0 &&
		     errno == ENODEV;
	ktap_diag("%u of %zu handles refused with ENODEV", n, ARRAY_SIZE(w));
	ktap_ok(n == ARRAY_SIZE(w),
		"a subscription after the unplug fails with ENODEV");

	for (i = 0; i < ARRAY_SIZE(w); i++)
		close(w[i].fd);
	ok = write_sysfs(DRIVER "/bind", DEVICE);
	ktap_wait_dev(NULL, node_there, NULL, END_MS);
	ktap_ok(ok && node_there(NULL) == KTAP_READY,
		"vivid binds again and " VIDEO " answers QUERYCAP");
}

const struct ktap_test ktap_test = {
	.plan = 5,
	.devices = (const char *const[]){ VIDEO, DRIVER "/" DEVICE, NULL },
	.kconfig = (const char *const[]){ "CONFIG_VIDEO_VIVID", NULL },
	.timeout = 30,
	.upstream = "RFC BKL, locking and ioctls (Hans Verkuil, 2010); patches/core/0502",
	.run = run,
};
