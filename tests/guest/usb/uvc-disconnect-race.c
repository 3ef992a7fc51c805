// SPDX-License-Identifier: GPL-2.0
/*
 * uvc-disconnect-race - a V4L2_EVENT_DISCONNECT subscription that passed
 * the registration check before the node was unregistered, and was added
 * after (patches/core 0502): it must still get the event.
 *
 * uvcvideo has no video_device lock, so nothing between v4l2_ioctl()'s
 * registration check and v4l2_event_subscribe() orders a subscription
 * against video_unregister_device(). On the lab's one-CPU kernels the
 * window is opened, not raced: the camera (usb/uvc-device.h) has one
 * control, the camera terminal's AE priority (V4L2_CID_EXPOSURE_AUTO_PRIORITY),
 * and its emulator holds the host's GET_CUR of it until the test lets go.
 * - Thread "ctrl" subscribes to that control's event with SEND_INITIAL on
 *   the node: v4l2_event_subscribe() holds the handle's subscribe_lock
 *   while uvc_ctrl_add_event() waits for the held GET_CUR.
 * - Thread "disc" subscribes to V4L2_EVENT_DISCONNECT on the same handle:
 *   it is past the registration check and sleeps on subscribe_lock ('D').
 * - The test unbinds uvcvideo from the camera: video_unregister_device()
 *   clears V4L2_FL_REGISTERED and v4l2_event_wake_all() runs while "disc"
 *   is not yet subscribed. Then the emulator answers the GET_CUR, "ctrl"
 *   returns and "disc" adds its subscription.
 *   The unbind must end with both threads still waiting (the window was
 *   open across it), and the control event must carry its value (the
 *   GET_CUR was answered, not timed out).
 * - VIDIOC_DQEVENT on the handle (core 0503 serves it after the unplug)
 *   must give the control event, then the disconnect event, then ENODEV:
 *   0502 marks the handle when v4l2_event_wake_all() passes it, and a later
 *   subscription queues the event itself. With the fh->disconnected check
 *   in v4l2_event_subscribe() reverted (drivers/media/v4l2-core/v4l2-event.c,
 *   the three lines after "Too late for v4l2_event_wake_all()"), the
 *   dequeue gives the control event, then ENODEV: the case fails.
 * On a kernel without 0502 the subscription is refused (EINVAL: uvcvideo
 * knows only control events) and the case fails: the baseline's finding.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

#include "slurp.h"
#include "usb/raw-plug.h"
#include "usb/uvc-device.h"

#ifndef V4L2_EVENT_DISCONNECT
#define V4L2_EVENT_DISCONNECT 0x100
#endif

#define UVCVIDEO	"/sys/bus/usb/drivers/uvcvideo"
#define CT_AE_PRIORITY	(1 << 2)	/* bmControls bit of UVC_CT_AE_PRIORITY_CONTROL */
#define HOLD_MS		4000		/* below uvcvideo's 5 s control timeout */

/* Camera terminal 1 with the AE priority control. */
static const uint8_t vc[] = UVC_VC_DESCRIPTORS(CT_AE_PRIORITY);

/*
 * In the emulator (a forked child, which keeps the test's files): GET_INFO
 * of AE priority says GET and SET are supported; its GET_CUR waits for a
 * byte on the pipe the test holds, then answers 0 (off), or is stalled
 * when no byte came within HOLD_MS. Other requests of the control unit
 * are stalled.
 */
static int hold[2] = { -1, -1 };

static int camera_control(struct rd_emu *e, const struct usb_ctrlrequest *c,
			  const uint8_t *out, unsigned int outlen, uint8_t *in)
{
	struct pollfd p = { .fd = hold[0], .events = POLLIN };
	char b;

	if ((c->wIndex & 0xff) != 0)
		return uvc_stream_control(e, c, out, outlen, in);
	if (c->wIndex >> 8 != 1 || c->wValue >> 8 != UVC_CT_AE_PRIORITY_CONTROL ||
	    c->wLength < 1)
		return -1;
	if (c->bRequest == UVC_GET_INFO) {
		in[0] = UVC_CONTROL_CAP_GET | UVC_CONTROL_CAP_SET;
		return 1;
	}
	if (c->bRequest != UVC_GET_CUR ||
	    poll(&p, 1, HOLD_MS) != 1 || read(hold[0], &b, 1) != 1)
		return -1;
	in[0] = 0;
	return 1;
}

static const struct rd_device camera =
	UVC_CAMERA("uvc-race", 0x0103, vc, camera_control);

struct sub {
	int fd;
	struct v4l2_event_subscription s;
	pthread_t thread;
	pid_t tid;
	int ret, err, done;
};

static void *subscribe(void *arg)
{
	struct sub *t = arg;

	__atomic_store_n(&t->tid, gettid(), __ATOMIC_RELEASE);
	t->ret = ioctl(t->fd, VIDIOC_SUBSCRIBE_EVENT, &t->s);
	t->err = errno;
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Thread t has started, not returned, and sleeps uninterruptibly. */
static int still_waiting(struct sub *t)
{
	pid_t tid = __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE);

	return tid && !__atomic_load_n(&t->done, __ATOMIC_ACQUIRE) &&
	       task_state(tid) == 'D';
}

/* Wait (at most ms) until thread t sleeps uninterruptibly in the kernel. */
static int sleeps_in_kernel(struct sub *t, unsigned int ms)
{
	long long end = ktap_now_ms() + ms;

	while (!still_waiting(t)) {
		if (ktap_now_ms() >= end || __atomic_load_n(&t->done, __ATOMIC_ACQUIRE))
			return 0;
		usleep(2000);
	}
	return 1;
}

/* The GET_CUR of AE priority reached the emulator, within ms. */
static int get_cur_held(struct plug *p, unsigned int ms)
{
	long long end = ktap_now_ms() + ms, left;
	struct rd_msg m;

	while ((left = end - ktap_now_ms()) > 0) {
		if (!rd_next(p->e, RD_CONTROL, 0, (unsigned int)left, &m))
			return 0;
		if (m.setup.bRequest == UVC_GET_CUR && !(m.setup.wIndex & 0xff) &&
		    m.setup.wValue >> 8 == UVC_CT_AE_PRIORITY_CONTROL)
			return 1;
	}
	return 0;
}

/*
 * What fd dequeues: the control event with its value, the disconnect
 * event, then ENODEV (nothing left on an unplugged node). What came is
 * written to seen.
 */
static int dequeues_disconnect(int fd, char *seen, size_t n)
{
	struct v4l2_event ev[3];
	int got = 0, err = 0;
	size_t used = 0;

	seen[0] = '\0';
	while (got < 3) {
		if (ioctl(fd, VIDIOC_DQEVENT, &ev[got])) {
			err = errno;
			break;
		}
		used += (size_t)snprintf(seen + used, n - used, " 0x%x",
					 ev[got].type);
		got++;
	}
	snprintf(seen + used, n - used, "; then %s", err ? strerror(err) : "more");
	return got == 2 && err == ENODEV &&
	       ev[0].type == V4L2_EVENT_CTRL &&
	       ev[0].u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE &&
	       ev[1].type == V4L2_EVENT_DISCONNECT;
}

#define CASES 3

static void run(void)
{
	struct plug p = { .dev = &camera, .driver = "uvcvideo" };
	struct sub ctrl = { .s = { .type = V4L2_EVENT_CTRL,
				   .id = V4L2_CID_EXPOSURE_AUTO_PRIORITY,
				   .flags = V4L2_EVENT_SUB_FL_SEND_INITIAL } };
	struct sub disc = { .s = { .type = V4L2_EVENT_DISCONNECT } };
	char seen[200];
	int fd = -1, held, started = 0, unbound = 0, open_across = 0, ok;

	if (pipe2(hold, O_CLOEXEC) || !plug_in(&p, NULL))
		goto out;
	fd = open_node(&p, O_RDWR | O_NONBLOCK);
	ctrl.fd = disc.fd = fd;
	if (fd < 0 || pthread_create(&ctrl.thread, NULL, subscribe, &ctrl)) {
		ktap_ok(0, "uvc race: the control subscription waits for the held GET_CUR");
		goto out;
	}
	held = get_cur_held(&p, 3000) && sleeps_in_kernel(&ctrl, 1000);
	if (!held)
		ktap_diag("control subscription: %s",
			  __atomic_load_n(&ctrl.done, __ATOMIC_ACQUIRE) ?
			  "returned without waiting" : "no held GET_CUR seen");
	ktap_ok(held, "uvc race: the control subscription waits for the held GET_CUR");
	if (held && !pthread_create(&disc.thread, NULL, subscribe, &disc)) {
		started = 1;
		if (sleeps_in_kernel(&disc, 1000)) {
			unbound = !put_text(UVCVIDEO "/unbind", p.intf);
			if (!unbound)
				ktap_perror("unbind");
			/* Both still waiting: the unregister ran inside the window. */
			open_across = unbound && still_waiting(&ctrl) &&
				      still_waiting(&disc);
			if (unbound && !open_across)
				ktap_diag("a subscriber returned before the unbind ended");
		} else {
			ktap_diag("the disconnect subscription did not wait: %s",
				  !__atomic_load_n(&disc.done, __ATOMIC_ACQUIRE) ?
				  "not asleep" :
				  disc.ret ? strerror(disc.err) : "returned 0");
		}
	}
	/* Let the GET_CUR be answered; both subscriptions return. */
	if (write(hold[1], "x", 1) != 1)
		ktap_perror("write hold");
	pthread_join(ctrl.thread, NULL);
	if (started)
		pthread_join(disc.thread, NULL);
	if (ctrl.ret)
		ktap_diag("control subscription: %s", strerror(ctrl.err));
	if (started && disc.ret)
		ktap_diag("disconnect subscription: %s", strerror(disc.err));
	ktap_ok(open_across && !ctrl.ret && !disc.ret,
		"uvc race: a DISCONNECT subscription blocked across the unbind succeeds");
	ok = 0;
	if (open_across && !disc.ret) {
		ok = dequeues_disconnect(fd, seen, sizeof(seen));
		ktap_diag("events dequeued:%s", seen);
	}
	ktap_ok(ok, "uvc race: then DQEVENT gives the control event, V4L2_EVENT_DISCONNECT, ENODEV");
out:
	if (fd >= 0)
		close(fd);
	unplug(&p);
	close(hold[0]);
	close(hold[1]);
	while (ktap_count < CASES + 1)
		ktap_ok(0, "uvc race: case not reached");
}

const struct ktap_test ktap_test = {
	.plan = CASES + 1,	/* and plug_in()'s */
	.devices = (const char *const[]){ "/dev/raw-gadget", NULL },
	.kconfig = (const char *const[]){ "CONFIG_USB_RAW_GADGET",
					  "CONFIG_USB_DUMMY_HCD",
					  "CONFIG_USB_VIDEO_CLASS", NULL },
	.timeout = 60,
	.upstream = "drivers/media/v4l2-core/v4l2-event.c (core 0502: the late subscription)",
	.run = run,
};
