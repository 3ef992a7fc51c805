// SPDX-License-Identifier: GPL-2.0
/*
 * gadgetfs-unbind - closing gadgetfs's ep0 file while its control request
 * is still queued on the UDC (drivers/usb/gadget/legacy/inode.c on
 * dummy_hcd's dummy_udc).
 *
 * gadgetfs hands SET_CONFIGURATION to the ep0 reader, who acks it with a
 * zero-length read: that queues the status stage on ep0 (dev->req). If
 * the host has given up first (usb_control_msg()'s 5 s timeout, "can't set
 * config #1, error -110"), nothing takes the request off ep0 any more:
 * dummy_hcd gives a stale ep0 request back only when the next SETUP
 * comes, and none comes. Closing the file then unregisters the gadget
 * driver; gadgetfs_unbind() frees the request still queued (WARNING in
 * dummy_free_request()) and dummy_udc_stop() gives the freed request back
 * to ep0_complete(), which finds ep0's driver_data already NULL: a NULL
 * pointer dereference, and the UDC stays broken for the next gadget. The
 * test plays exactly that: it reads the SETUP event, waits for the host's
 * message (poll on /dev/kmsg, bounded), acks, closes the file, then binds
 * gadgetfs again and lets the host configure the device, acking at once.
 *
 * It has a profile of its own (usb-gadgetfs, oops=panic): the unfixed
 * kernel leaves dummy_udc unusable and its locks held.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <endian.h>

#include "ktap.h"

#include "gadgetfs.h"
#include "usb-sysfs.h"

#define GFS_DIR		"/tmp/gadgetfs-unbind"
#define GFS_EP0		GFS_DIR "/dummy_udc"
#define SETUP_WAIT_MS	15000
/* usb_control_msg()'s USB_CTRL_SET_TIMEOUT is 5 s; TCG is slow */
#define HOST_WAIT_MS	20000
#define GONE_WAIT_MS	5000

static int ep0 = -1;
static int kmsg = -1;
static char usbdev[32];		/* sysfs name of the gadget, "3-1" */

/* Finds the gadget on the host: its sysfs name into usbdev. */
static int find_gadget(void)
{
	return find_usb(GFS_VID, GFS_PID, usbdev, sizeof(usbdev));
}

/*
 * bConfigurationValue of the gadget on the host, -1 if unreadable, 0 if
 * unconfigured (empty). Takes the USB device's lock: never call it while
 * the host waits for an ack only this process can give.
 */
static long host_config(void)
{
	return usb_attr(usbdev, "bConfigurationValue", 10);
}

static int bind_gadgetfs(void)
{
	ep0 = open(GFS_EP0, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (ep0 < 0)
		return !ktap_perror(GFS_EP0);
	if (write(ep0, &gfs_descs, sizeof(gfs_descs)) != sizeof(gfs_descs))
		return !ktap_perror("gadgetfs descriptors");
	return 1;
}

/*
 * Reads ep0's events for up to ms until the SETUP of SET_CONFIGURATION,
 * which it leaves unacked; other requests (none expected: the host's
 * GET_DESCRIPTORs are answered by gadgetfs itself) fail the wait.
 */
static int wait_set_config(int ms, char *seen, size_t seenlen)
{
	long long end = ktap_now_ms() + ms;
	struct pollfd p = { .fd = ep0, .events = POLLIN };
	size_t off = strlen(seen);

	while (ktap_now_ms() < end) {
		struct usb_gadgetfs_event ev[4];
		ssize_t n;
		int i;

		if (poll(&p, 1, end - ktap_now_ms()) <= 0)
			break;
		n = read(ep0, ev, sizeof(ev));
		if (n < 0 && errno == EAGAIN)
			continue;
		if (n < 0)
			return !ktap_perror("read ep0 events");
		for (i = 0; i < n / (ssize_t)sizeof(ev[0]); i++) {
			struct usb_ctrlrequest *s = &ev[i].u.setup;

			if (off < seenlen - 1)
				off += snprintf(seen + off, seenlen - off,
						" %s", gfs_event_name(ev[i].type));
			if (ev[i].type != GADGETFS_SETUP)
				continue;
			/* a SETUP event is always the last of a read */
			return s->bRequestType == 0 &&
			       s->bRequest == USB_REQ_SET_CONFIGURATION &&
			       le16toh(s->wValue) == 1;
		}
	}
	return 0;
}

/* Waits up to ms for a /dev/kmsg record that contains what. */
static int kmsg_wait(const char *what, int ms)
{
	long long end = ktap_now_ms() + ms;
	struct pollfd p = { .fd = kmsg, .events = POLLIN };
	char rec[1024];

	while (ktap_now_ms() < end) {
		ssize_t n = read(kmsg, rec, sizeof(rec) - 1);

		if (n > 0) {
			rec[n] = '\0';
			if (strstr(rec, what))
				return 1;
			continue;
		}
		if (n < 0 && errno == EPIPE)	/* overwritten: go on */
			continue;
		if (n < 0 && errno != EAGAIN)
			return !ktap_perror("/dev/kmsg");
		if (poll(&p, 1, end - ktap_now_ms()) <= 0)
			break;
	}
	return 0;
}

static int t_mount(void)
{
	if (mkdir(GFS_DIR, 0755) && errno != EEXIST)
		return !ktap_perror("mkdir " GFS_DIR);
	if (mount("gadgetfs", GFS_DIR, "gadgetfs", 0, NULL))
		return !ktap_perror("mount gadgetfs");
	/* only records from now on: the host's answer to this gadget */
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg < 0 || lseek(kmsg, 0, SEEK_END) < 0)
		return !ktap_perror("/dev/kmsg");
	return bind_gadgetfs();
}

static int t_setup_unacked(void)
{
	char seen[256] = "";
	int ok = wait_set_config(SETUP_WAIT_MS, seen, sizeof(seen));

	ktap_diag("ep0 events:%s", seen);
	return ok;
}

static int t_host_gives_up(void)
{
	/* "usb 3-1: can't set config #1, error -110" */
	if (!kmsg_wait("can't set config #1, error -110", HOST_WAIT_MS))
		return 0;
	/* probe has failed, the device lock is free again */
	return find_gadget() && host_config() == 0;
}

static int t_late_ack(void)
{
	char b;

	/* queues the status stage no host transfer will ever take */
	return read(ep0, &b, 0) == 0;
}

static int t_close(void)
{
	int ok = close(ep0) == 0;

	ep0 = -1;
	ok = ok && usb_gone(GFS_VID, GFS_PID, GONE_WAIT_MS);
	if (!ok)
		ktap_diag("host device '%s' still there", usbdev);
	return ok;
}

static int t_rebind(void)
{
	char seen[256] = "", b;
	long long end = ktap_now_ms() + HOST_WAIT_MS;
	long config = -1;

	if (!bind_gadgetfs() || !wait_set_config(SETUP_WAIT_MS, seen,
						 sizeof(seen))) {
		ktap_diag("ep0 events:%s", seen);
		return 0;
	}
	if (read(ep0, &b, 0) != 0)
		return !ktap_perror("ack SET_CONFIGURATION");
	/* after the ack the probe ends soon: the lock is not held for long */
	while (ktap_now_ms() < end && (config = find_gadget() ?
					host_config() : -1) != 1)
		sched_yield();
	ktap_diag("ep0 events:%s; host device '%s' configuration %ld", seen,
		  usbdev, config);
	return config == 1;
}

static int t_close_umount(void)
{
	int ok = close(ep0) == 0 && usb_gone(GFS_VID, GFS_PID, GONE_WAIT_MS);

	ep0 = -1;
	if (umount(GFS_DIR))
		ok = !ktap_perror("umount " GFS_DIR);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "gadgetfs: mount, descriptors written to dummy_udc", t_mount },
	{ "gadgetfs: SET_CONFIGURATION 1 read from ep0, not acked", t_setup_unacked },
	{ "host: SET_CONFIGURATION times out (error -110), device unconfigured", t_host_gives_up },
	{ "gadgetfs: the late ack (zero-length read) queues the status stage", t_late_ack },
	{ "gadgetfs: close with the status stage queued, the device goes", t_close },
	{ "gadgetfs: bound again, the host configures 0525:a4a4 after an ack in time", t_rebind },
	{ "gadgetfs: close, the device goes, umount", t_close_umount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.kconfig = (const char *const[]){ "CONFIG_USB_DUMMY_HCD",
		"CONFIG_USB_GADGETFS", NULL },
	.timeout = 90,
	.upstream = "patches/drivers 0306 (gadgetfs: dequeue ep0's request before freeing it)",
	.cases = cases,
};
