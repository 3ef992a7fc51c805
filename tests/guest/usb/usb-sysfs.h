/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usb-sysfs.h - the host side of a gadget test, read from sysfs: a file's
 * first line, the sysfs name of a USB device by VID:PID, its numeric
 * attributes, and a bounded wait for it to go.
 */
#ifndef BKLFREE_USB_SYSFS_H
#define BKLFREE_USB_SYSFS_H

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>

#include "ktap.h"

/* The first line of path into buf, 0 on success. */
static int get(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* sysfs name of the USB device vid:pid, 1 if found. */
static int find_usb(unsigned int vid, unsigned int pid, char *name,
		    size_t len)
{
	char path[300], v[16], p[16];
	struct dirent *d;
	DIR *dir = opendir("/sys/bus/usb/devices");
	int found = 0;

	while (dir && (d = readdir(dir)) && !found) {
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/idVendor",
			 d->d_name);
		if (get(path, v, sizeof(v)))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/usb/devices/%s/idProduct", d->d_name);
		if (get(path, p, sizeof(p)))
			continue;
		if (strtoul(v, NULL, 16) == vid &&
		    strtoul(p, NULL, 16) == pid && strlen(d->d_name) < len) {
			memcpy(name, d->d_name, strlen(d->d_name) + 1);
			found = 1;
		}
	}
	if (dir)
		closedir(dir);
	return found;
}

/*
 * device_del() deletes the usbfs node (devtmpfs) a moment before the
 * sysfs directory, and sysfs makes no inotify events: once the node is
 * gone, yield until the sysfs device goes too, at most ms.
 */
static int usb_gone(unsigned int vid, unsigned int pid, int ms)
{
	long long end = ktap_now_ms() + ms;
	char name[32];

	while (find_usb(vid, pid, name, sizeof(name)) && ktap_now_ms() < end)
		sched_yield();
	return !find_usb(vid, pid, name, sizeof(name));
}

/* A sysfs attribute of a USB device, as a number (base 0 or 16). */
static long usb_attr(const char *dev, const char *attr, int base)
{
	char path[256], v[32];

	snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/%s", dev, attr);
	return get(path, v, sizeof(v)) ? -1 : strtol(v, NULL, base);
}

#endif
