// SPDX-License-Identifier: GPL-2.0
/*
 * vivid-disconnect - what applications see when a V4L2 device goes away,
 * using vivid's Disconnect control (VIVID_CID_DISCONNECT), which clears the
 * node's registered flag and wakes every waiter the way
 * video_unregister_device() does.
 *
 * A disconnect subscription with an id other than 0 is refused (EINVAL):
 * the core queues the event with id 0 only. The event is type 0x100, and
 * type 7 (which 0502 first took, and which upstream proposals took too)
 * is an event vivid does not offer.
 *
 * Five handles on /dev/video0: "sub" subscribes to V4L2_EVENT_DISCONNECT
 * and to brightness control events and has one brightness event pending;
 * "waitsub" subscribes to the disconnect event and a thread blocks in
 * VIDIOC_DQEVENT on it; "plain" subscribes to brightness events only and a
 * thread blocks in VIDIOC_DQEVENT on it; "poller" has a thread blocked in
 * poll(POLLPRI); "ctl" changes the brightness and pulls the plug. Then:
 * both blocked DQEVENTs and the poll must return within 1 s (the subscribed
 * one with the disconnect event, the other with ENODEV, poll with
 * POLLPRI|POLLERR|POLLHUP); "sub" dequeues its pending brightness event,
 * then the disconnect event, then gets ENODEV; every other ioctl and DQEVENT
 * on a handle that did not subscribe fail with ENODEV; unsubscribing from
 * the control event fails with ENODEV (the control handler's lock may be
 * the driver's: that subscription ends at close), from the disconnect
 * event it still works; and once every handle is closed vivid registers
 * the node again, which shows every file was released.
 *
 * Guards the core V4L2 series (patches/core/0501-0503) that carries out
 * Hans Verkuil's 2010 RFC "BKL, locking and ioctls": a thread blocked in
 * DQEVENT at unplug hangs on 6.1 until a signal (the test then interrupts
 * it with SIGUSR1, so the boot goes on and the node is released), and 6.1
 * has no disconnect event.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>
#include <linux/videodev2.h>

#include "ktap.h"
#include "slurp.h"

#ifndef V4L2_EVENT_DISCONNECT
#define V4L2_EVENT_DISCONNECT 0x100
#endif
/* drivers/media/test-drivers/vivid/vivid-ctrls.c */
#define VIVID_CID_DISCONNECT ((0x00f00000 | 0xf000) + 65)
#define VIDEO "/dev/video0"
#define WAKE_MS 1000

struct waiter {
	const char *what;
	int fd;
	int use_poll;
	pthread_t thread;
	int done_pipe[2];
	pid_t tid;		/* set by the thread before it blocks */
	/* results */
	int ret, err;
	short revents;
	struct v4l2_event ev;
	long long woke_ms;
};

static void on_usr1(int sig)
{
	(void)sig;
}

static int subscribe(int fd, __u32 type, __u32 id)
{
	struct v4l2_event_subscription sub = { .type = type, .id = id };

	return ioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub);
}

static int set_ctrl(int fd, __u32 id, __s32 value)
{
	struct v4l2_control c = { .id = id, .value = value };

	return ioctl(fd, VIDIOC_S_CTRL, &c);
}

/*
 * A brightness other than the current one: a control event is sent only
 * when the value changes, and an earlier test (v4l2-compliance) may have
 * left any value.
 */
static __s32 new_brightness(int fd)
{
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS };

	if (ioctl(fd, VIDIOC_G_CTRL, &c))
		return 100;
	ktap_diag("brightness is %d before the test sets it", c.value);
	return c.value == 100 ? 101 : 100;
}

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;

	__atomic_store_n(&w->tid, gettid(), __ATOMIC_RELEASE);
	if (w->use_poll) {
		struct pollfd p = { .fd = w->fd, .events = POLLPRI };

		w->ret = poll(&p, 1, -1);
		w->revents = p.revents;
	} else {
		w->ret = ioctl(w->fd, VIDIOC_DQEVENT, &w->ev);
	}
	w->err = errno;
	w->woke_ms = ktap_now_ms();
	if (write(w->done_pipe[1], "x", 1) != 1)
		w->err = EPIPE;
	return NULL;
}

/* Start the waiter and wait (bounded) until it sleeps in the kernel. */
static int start_asleep(struct waiter *w)
{
	struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	int i;

	if (pipe(w->done_pipe) || pthread_create(&w->thread, NULL, wait_thread, w))
		return 0;
	for (i = 0; i < 300; i++) {
		pid_t tid = __atomic_load_n(&w->tid, __ATOMIC_ACQUIRE);

		nanosleep(&tick, NULL);
		if (tid && task_state(tid) == 'S')
			return 1;
	}
	return 0;
}

/* 1 when the waiter finished by deadline (ms since boot clock). */
static int finished_by(struct waiter *w, long long deadline)
{
	struct pollfd p = { .fd = w->done_pipe[0], .events = POLLIN };
	long long left = deadline - ktap_now_ms();

	return poll(&p, 1, left > 0 ? (int)left : 0) == 1;
}

/* Interrupt a waiter that never woke, so its file can be released. */
static void reap(struct waiter *w)
{
	struct pollfd p = { .fd = w->done_pipe[0], .events = POLLIN };

	if (poll(&p, 1, 0) != 1) {
		ktap_diag("%s still blocked: interrupting it with SIGUSR1",
			  w->what);
		pthread_kill(w->thread, SIGUSR1);
	}
	pthread_join(w->thread, NULL);
	close(w->done_pipe[0]);
	close(w->done_pipe[1]);
}

static int open_video(void)
{
	return open(VIDEO, O_RDWR | O_CLOEXEC);
}

static int reopens_within(int ms)
{
	struct timespec tick = { .tv_nsec = 20 * 1000 * 1000 };
	long long end = ktap_now_ms() + ms;
	struct v4l2_capability cap;

	do {
		int fd = open_video();
		int ok = fd >= 0 && !ioctl(fd, VIDIOC_QUERYCAP, &cap);

		close(fd);
		if (ok)
			return 1;
		nanosleep(&tick, NULL);
	} while (ktap_now_ms() < end);
	return 0;
}

static void run(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct waiter waitsub = { .what = "DQEVENT with the disconnect subscription" };
	struct waiter plain = { .what = "DQEVENT without the disconnect subscription" };
	struct waiter poller = { .what = "poll", .use_poll = 1 };
	struct waiter *waiters[] = { &waitsub, &plain, &poller };
	struct v4l2_event ev;
	struct v4l2_event_subscription disc = { .type = V4L2_EVENT_DISCONNECT };
	struct v4l2_event_subscription bright = { .type = V4L2_EVENT_CTRL,
						  .id = V4L2_CID_BRIGHTNESS };
	struct v4l2_capability cap;
	int sub, ctl, ok, asleep = 1;
	long long deadline;
	unsigned int i;

	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART: ioctls get EINTR */
	sub = open_video();
	ctl = open_video();
	waitsub.fd = open_video();
	plain.fd = open_video();
	poller.fd = open_video();
	if (sub < 0 || ctl < 0 || waitsub.fd < 0 || plain.fd < 0 || poller.fd < 0)
		ktap_bail("cannot open " VIDEO " five times: %s", strerror(errno));

	ktap_ok(!subscribe(sub, V4L2_EVENT_DISCONNECT, 0) &&
		!subscribe(waitsub.fd, V4L2_EVENT_DISCONNECT, 0),
		"subscribe to V4L2_EVENT_DISCONNECT");
	/* One disconnect per node, id 0: any other id would never come. */
	ok = subscribe(ctl, V4L2_EVENT_DISCONNECT, 1) < 0 && errno == EINVAL;
	ktap_ok(ok, "a disconnect subscription with id 1 is refused with EINVAL");
	/* 7 was the first number 0502 took; proposals upstream use it too. */
	ok = subscribe(ctl, 7, 0) < 0 && errno == EINVAL;
	ktap_ok(ok, "event type 7 is not the disconnect event: vivid refuses it");
	ok = !subscribe(sub, V4L2_EVENT_CTRL, V4L2_CID_BRIGHTNESS) &&
	     !subscribe(plain.fd, V4L2_EVENT_CTRL, V4L2_CID_BRIGHTNESS) &&
	     !subscribe(poller.fd, V4L2_EVENT_CTRL, V4L2_CID_BRIGHTNESS) &&
	     !set_ctrl(ctl, V4L2_CID_BRIGHTNESS, new_brightness(ctl));
	ktap_ok(ok, "brightness events subscribed and one queued before unplug");

	for (i = 0; i < ARRAY_SIZE(waiters); i++) {
		/*
		 * plain and poller got the brightness event too: drain it,
		 * without blocking if it is not there (the thread's DQEVENT
		 * or poll would then see it instead).
		 */
		if (waiters[i] != &waitsub) {
			int fl = fcntl(waiters[i]->fd, F_GETFL);

			fcntl(waiters[i]->fd, F_SETFL, fl | O_NONBLOCK);
			if (ioctl(waiters[i]->fd, VIDIOC_DQEVENT, &ev))
				ktap_diag("%s: no brightness event to drain: %s",
					  waiters[i]->what, strerror(errno));
			fcntl(waiters[i]->fd, F_SETFL, fl);
		}
		if (!start_asleep(waiters[i]))
			asleep = 0;
	}
	ktap_ok(asleep, "three threads sleep in DQEVENT DQEVENT and poll");

	ktap_ok(!set_ctrl(ctl, VIVID_CID_DISCONNECT, 0),
		"vivid disconnect control unregisters the node");
	deadline = ktap_now_ms() + WAKE_MS;

	ok = finished_by(&waitsub, deadline) && waitsub.ret == 0 &&
	     waitsub.ev.type == V4L2_EVENT_DISCONNECT;
	ktap_ok(ok, "blocked DQEVENT with the subscription gets the disconnect event within 1 s");
	ok = finished_by(&plain, deadline) && plain.ret < 0 &&
	     plain.err == ENODEV;
	ktap_ok(ok, "blocked DQEVENT without the subscription fails with ENODEV within 1 s");
	ok = finished_by(&poller, deadline) && poller.ret == 1 &&
	     (poller.revents & (POLLPRI | POLLERR | POLLHUP)) ==
	     (POLLPRI | POLLERR | POLLHUP);
	ktap_ok(ok, "blocked poll wakes with POLLPRI POLLERR POLLHUP within 1 s");
	for (i = 0; i < ARRAY_SIZE(waiters); i++)
		reap(waiters[i]);

	memset(&ev, 0, sizeof(ev));
	ok = !ioctl(sub, VIDIOC_DQEVENT, &ev) && ev.type == V4L2_EVENT_CTRL &&
	     ev.id == V4L2_CID_BRIGHTNESS;
	ktap_ok(ok, "after unplug DQEVENT returns the pending brightness event first");
	memset(&ev, 0, sizeof(ev));
	ok = !ioctl(sub, VIDIOC_DQEVENT, &ev) &&
	     ev.type == V4L2_EVENT_DISCONNECT && ev.pending == 0;
	ktap_ok(ok, "then the disconnect event with nothing pending");
	ok = ioctl(sub, VIDIOC_DQEVENT, &ev) < 0 && errno == ENODEV;
	ktap_ok(ok, "then DQEVENT fails with ENODEV");
	ok = ioctl(sub, VIDIOC_QUERYCAP, &cap) < 0 && errno == ENODEV;
	ktap_ok(ok, "other ioctls on the subscribed handle fail with ENODEV");
	ok = ioctl(poller.fd, VIDIOC_DQEVENT, &ev) < 0 && errno == ENODEV;
	ktap_ok(ok, "DQEVENT on a handle without the subscription fails with ENODEV");
	ok = ioctl(sub, VIDIOC_UNSUBSCRIBE_EVENT, &bright) < 0 &&
	     errno == ENODEV;
	ktap_ok(ok, "UNSUBSCRIBE_EVENT of the control event fails with ENODEV (it ends at close)");
	ok = !ioctl(sub, VIDIOC_UNSUBSCRIBE_EVENT, &disc);
	ktap_ok(ok, "UNSUBSCRIBE_EVENT of the disconnect event still works on the subscribed handle");

	close(sub);
	close(ctl);
	for (i = 0; i < ARRAY_SIZE(waiters); i++)
		close(waiters[i]->fd);
	ktap_ok(reopens_within(2000),
		"after the last close vivid registers the node again");
}

const struct ktap_test ktap_test = {
	.plan = 17,
	.devices = (const char *const[]){ VIDEO, NULL },
	.kconfig = (const char *const[]){ "CONFIG_VIDEO_VIVID",
#ifdef __i386__
					  /* the -m32 build (vivid-disconnect-m32.c) */
					  "CONFIG_IA32_EMULATION",
					  "CONFIG_COMPAT_32BIT_TIME",
#endif
					  NULL },
	.timeout = 30,
	.upstream = "RFC BKL, locking and ioctls (Hans Verkuil, 2010); patches/core/0501-0503",
	.run = run,
};
