/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hid.h - what usb/hid-evdev, usb/hidraw and usb/hiddev share: QEMU's USB
 * keyboard, mouse and tablet (hw/usb/dev-hid.c, all 0627:0001), finding
 * each one's node by the name its driver reports, and asking the runner
 * for input and reading it back.
 *
 * USB enumeration may still run when a test starts, so hid_find() waits
 * with ktap_wait_dev() for every node, at most ENUM_WAIT_MS, rescanning
 * whenever devtmpfs creates one. A device whose node never shows up keeps
 * hid_fd[] at -1, and every case on it fails. hid_inject() prints the
 * "# bklfree-inject: TAG" line the runner answers with the profile's
 * monitor commands; hid_read() reads what they cause, up to a deadline.
 */
#ifndef BKLFREE_USB_HID_H
#define BKLFREE_USB_HID_H

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>

#include "ktap.h"

#define QEMU_VENDOR	0x0627
#define QEMU_PRODUCT	0x0001
#define ENUM_WAIT_MS	15000
#define EVENT_WAIT_MS	5000
/* The name buffer of hid_find(): pass the name ioctl for this size - 1. */
#define HID_NAME_LEN	128

enum kind { KBD, MOUSE, TABLET, NKINDS };

/* The names the HID core gives QEMU's devices: manufacturer and product. */
static const char *const hid_name[NKINDS] = {
	[KBD] = "QEMU QEMU USB Keyboard",
	[MOUSE] = "QEMU QEMU USB Mouse",
	[TABLET] = "QEMU QEMU USB Tablet",
};

/* Each device's open node and its path, once hid_find() found it. */
static int hid_fd[NKINDS] = { -1, -1, -1 };
static char hid_path[NKINDS][32];

/* Where a test's nodes are and how to open and name them. */
struct hid_nodes {
	const char *fmt;		/* node path with %d for the index */
	int max;			/* indexes 0 .. max - 1 */
	int flags;			/* for open() */
	unsigned long name_req;		/* for HID_NAME_LEN - 1 bytes */
};

/*
 * Opens every node not found yet and keeps the ones named like a device.
 * Done when none is missing; a node that exists but does not open yet
 * (ENXIO, ENODEV) is looked at again at once.
 */
static inline int hid_scan(void *arg)
{
	const struct hid_nodes *n = arg;
	int missing = 0, busy = 0, i, k;

	for (i = 0; i < n->max; i++) {
		char path[32], name[HID_NAME_LEN] = "";
		int fd;

		snprintf(path, sizeof(path), n->fmt, i);
		fd = open(path, n->flags | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			busy |= errno == ENXIO || errno == ENODEV;
			continue;
		}
		if (ioctl(fd, n->name_req, name) < 0)
			name[0] = '\0';
		for (k = 0; k < NKINDS; k++)
			if (hid_fd[k] < 0 && !strcmp(name, hid_name[k]))
				break;
		if (k == NKINDS) {
			close(fd);
			continue;
		}
		hid_fd[k] = fd;
		snprintf(hid_path[k], sizeof(hid_path[k]), "%s", path);
	}
	for (k = 0; k < NKINDS; k++)
		missing += hid_fd[k] < 0;
	if (!missing)
		return KTAP_READY;
	return busy ? KTAP_BUSY : KTAP_WAIT;
}

/* Fills hid_fd[] and hid_path[]; dir is the nodes' directory below /dev. */
static inline void hid_find(const char *dir, const struct hid_nodes *n)
{
	ktap_wait_dev(dir, hid_scan, (void *)n, ENUM_WAIT_MS);
}

/*
 * Asks the runner for the input of tag, then says what the test waits for:
 * n things (events, reports, usages) on path.
 */
static inline void hid_inject(const char *tag, unsigned int n,
			      const char *what, const char *path)
{
	ktap_diag("bklfree-inject: %s", tag);
	ktap_diag("waiting %d ms for %u %s on %s", EVENT_WAIT_MS, n, what,
		  path);
}

/*
 * Waits until end (ktap_now_ms()) for fd to be readable and reads up to
 * len bytes: what read() returned, or -1 when time ran out. A failed read
 * is tried again.
 */
static inline ssize_t hid_read(int fd, void *buf, size_t len, long long end)
{
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long long left = end - ktap_now_ms();
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			return -1;
		n = read(fd, buf, len);
		if (n >= 0)
			return n;
	}
}

#endif /* BKLFREE_USB_HID_H */
