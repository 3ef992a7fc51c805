// SPDX-License-Identifier: GPL-2.0
/*
 * usbip-export - the exporting guest of usbip-remote.profile (its peer
 * profile, qemu-devices/peers/usbip-export.profile): QEMU's usb-storage
 * disk given to usbip-host and exported by Debian's usbipd on 10.0.9.1,
 * eth0, a virtio-net NIC that a QEMU datagram netdev joins to the importing
 * guest. That guest (usb/usbip-remote) attaches the disk, reads and
 * writes it and detaches it; here usbip-host's usbip_status goes from 1
 * (available) to 2 (used) and back to 1. Then usbipd is stopped, the disk
 * unbound, usb-storage drives it again, and the block the other guest
 * wrote over the network reads back from the local disk.
 *
 * Both guests boot at once; the importing one retries until this one
 * exports, so the waits here are long: a whole boot of the other guest
 * under TCG, on a host that may run other boots beside.
 */
#include <fcntl.h>
#include <signal.h>

#include "pattern.h"
#include "usb/usbip.h"

/* usbip-host's states: drivers/usb/usbip/usbip_common.h, enum usbip_device_status. */
#define SDEV_ST_AVAILABLE	1
#define SDEV_ST_USED		2
#define ATTACH_WAIT_MS		150000
#define DETACH_WAIT_MS		60000

static struct usbip_dev disk = USBIP_QEMU_DISK;

/* usbip-host's usbip_status of the disk, or -1. */
static int status(void)
{
	char path[PATH_MAX], v[16];

	snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/usbip_status",
		 disk.busid);
	return read_line(path, v, sizeof(v)) ? atoi(v) : -1;
}

/* Waits at most ms for usbip_status want: 1 when it came. */
static int wait_status(int want, int ms)
{
	long long end = ktap_now_ms() + ms;
	int now = status();

	while (now != want && ktap_now_ms() < end) {
		usleep(100000);
		now = status();
	}
	if (now != want)
		ktap_diag("usbip_status %d after %d ms, want %d", now, ms, want);
	return now == want;
}

/* The driver of the disk's interface 0 ("usb-storage"), or "". */
static const char *iface_driver(void)
{
	static char drv[PATH_MAX];
	char iface[NAME_MAX + 8];

	snprintf(iface, sizeof(iface), "%s:1.0", disk.busid);
	return usbip_driver_of(iface, drv, sizeof(drv));
}

/*
 * Waits at most ms until the disk's device driver is drv (usbip-host
 * takes the whole device; "usb" is the generic one) and, when iface is
 * not NULL, its interface's is iface: 1 when they are.
 */
static int driven_by(const char *drv, const char *iface, int ms)
{
	long long end = ktap_now_ms() + ms;
	int ok;

	for (;;) {
		ok = !strcmp(usbip_driver(&disk), drv) &&
		     (!iface || !strcmp(iface_driver(), iface));
		if (ok || ktap_now_ms() > end)
			break;
		usleep(50000);
	}
	if (!ok)
		ktap_diag("%s: driver \"%s\", interface driver \"%s\"; want %s, %s",
			  disk.busid, usbip_driver(&disk), iface_driver(), drv,
			  iface ? iface : "any");
	return ok;
}

/* The block usb/usbip-remote wrote, read from the local disk (O_DIRECT). */
static int remote_write_local(void)
{
	size_t size = USBIP_REMOTE_SECTORS * PATTERN_SECTOR;
	struct usbip_node sd = { "block", "sd", "", NULL };
	char iface[NAME_MAX + 8];
	unsigned char *buf;
	int fd, ok, i;

	snprintf(iface, sizeof(iface), "/%s:1.0/", disk.busid);
	sd.below = iface;
	if (!usbip_wait_node(&sd)) {
		ktap_diag("no block node below %s:1.0", disk.busid);
		return 0;
	}
	fd = open(sd.node, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return ktap_perror(sd.node), 0;
	if (posix_memalign((void **)&buf, 4096, size)) {
		close(fd);
		return 0;
	}
	ok = pread(fd, buf, size, USBIP_REMOTE_LBA * PATTERN_SECTOR) == (ssize_t)size;
	if (!ok)
		ktap_perror("pread");
	for (i = 0; ok && i < USBIP_REMOTE_SECTORS; i++)
		if (!pattern_check(buf + i * PATTERN_SECTOR, USBIP_REMOTE_LBA + i,
				   USBIP_REMOTE_SEED)) {
			ktap_diag("%s: sector %d is not what the other guest wrote",
				  sd.node, USBIP_REMOTE_LBA + i);
			ok = 0;
		}
	free(buf);
	close(fd);
	return ok;
}

static void run(void)
{
	pid_t usbipd;
	int found, bound, attached, detached, local, st;

	ktap_ok(usbip_eth0_up(USBIP_EXPORT_ADDR), "eth0 up as " USBIP_EXPORT_HOST);
	found = usbip_find_local(&disk);
	ktap_ok(found, "QEMU usb-storage on the local bus: %s", disk.busid);
	bound = found && !usbip("bind", "-b", disk.busid) &&
		driven_by("usbip-host", NULL, 5000);
	ktap_ok(bound, "usbip bind: usbip-host drives the disk");
	usbipd = usbipd_start();
	ktap_ok(usbipd > 0, "usbipd listens on port %d", USBIP_PORT);
	attached = bound && wait_status(SDEV_ST_USED, ATTACH_WAIT_MS);
	ktap_ok(attached, "the importing guest attaches the disk: usbip_status %d",
		SDEV_ST_USED);
	detached = attached && wait_status(SDEV_ST_AVAILABLE, DETACH_WAIT_MS);
	ktap_ok(detached, "it detaches the disk: usbip_status %d again",
		SDEV_ST_AVAILABLE);
	if (usbipd > 0) {
		kill(usbipd, SIGTERM);
		if (!run_reap(usbipd, 5000, &st)) {
			ktap_diag("usbipd did not end on SIGTERM in 5 s");
			run_diag_stuck(usbipd);
			kill(usbipd, SIGKILL);
			waitpid(usbipd, NULL, 0);
		}
	}
	local = bound && !usbip("unbind", "-b", disk.busid) &&
		driven_by("usb", "usb-storage", 10000);
	ktap_ok(local, "usbipd stopped, usbip unbind: usb-storage drives the disk again");
	ktap_ok(local && detached && remote_write_local(),
		"the block the other guest wrote reads back from the local disk");
}

const struct ktap_test ktap_test = {
	.plan = 8,
	.devices = (const char *const[]){ "/sys/class/net/eth0", USBIP, USBIPD,
					  NULL },
	.kconfig = (const char *const[]){ "CONFIG_USBIP_HOST", "CONFIG_VIRTIO_NET",
					  NULL },
	.timeout = 240,
	.run = run,
};
