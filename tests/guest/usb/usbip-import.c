// SPDX-License-Identifier: GPL-2.0
/*
 * usbip-import - the usbip loopback set up with Debian's usbip userland:
 * usbipd listens on 127.0.0.1, "usbip bind" gives QEMU's usb-storage disk
 * and usb-kbd keyboard to usbip-host, "usbip attach -r 127.0.0.1" imports
 * both through vhci-hcd, and their class drivers bind again behind it:
 * usb-storage makes a SCSI disk, usbhid an evdev node. A key pressed in
 * QEMU (the profile's inject= line) travels xHCI -> usbip-host -> TCP ->
 * vhci-hcd -> usbhid -> evdev and must arrive as KEY_A down and up.
 *
 * The devices stay imported for the profile's next tests: block/fio-verify
 * writes and verifies the imported disk (found by its serial; the local
 * disk is gone while usbip-host holds the device), usb/usbmon-capture
 * watches its transfers, usb/usbip-cycles detaches and attaches again.
 */
#include <linux/input.h>

#include "usb/usbip.h"

static struct usbip_dev disk = USBIP_QEMU_DISK;
static struct usbip_dev kbd = USBIP_QEMU_KBD;

/* busid in usbip's output, as a word: "1-2 " (-l) or "1-2:" (-r). */
static int busid_in(const char *out, const char *busid)
{
	size_t len = strlen(busid);
	const char *p;

	for (p = strstr(out, busid); p; p = strstr(p + 1, busid))
		if ((p == out || p[-1] == ' ') &&
		    (p[len] == ' ' || p[len] == ':'))
			return 1;
	return 0;
}

/* "usbip list" of where (-l, or -r 127.0.0.1) names both busids. */
static int listed(char *const argv[])
{
	char out[4096];
	int rc = run_capture(argv, out, sizeof(out), USBIP_SECS), ok = !rc;

	ok = ok && busid_in(out, disk.busid) && busid_in(out, kbd.busid);
	if (!ok)
		ktap_diag("usbip list exited %d: %s", rc, out);
	return ok;
}

static int bound(struct usbip_dev *d)
{
	const char *drv;

	if (!d->busid[0] || usbip("bind", "-b", d->busid))
		return 0;
	drv = usbip_driver(d);
	ktap_diag("%s %s: driver %s", d->name, d->busid, drv);
	return !strcmp(drv, "usbip-host");
}

/* KEY_A down and up from the imported keyboard's evdev node. */
static int key_through(const char *node)
{
	int fd = open(node, O_RDONLY | O_CLOEXEC), down = 0, up = 0;
	long long end = ktap_now_ms() + 10000;
	struct input_event ev;

	if (fd < 0)
		return ktap_perror(node) + 1;
	ktap_diag("bklfree-inject: usbip-key");
	while (!up && ktap_now_ms() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, (int)(end - ktap_now_ms())) <= 0)
			break;
		if (read(fd, &ev, sizeof(ev)) != sizeof(ev))
			break;
		if (ev.type == EV_KEY && ev.code == KEY_A)
			*(ev.value ? &down : &up) = 1;
	}
	close(fd);
	return down && up;
}

static void run(void)
{
	struct usbip_node sd = { "block", "sd", "", NULL };
	struct usbip_node ev = { "input", "event", "", NULL };
	int ok;

	ktap_ok(usbip_lo_up(), "loopback interface up");
	ktap_ok(usbipd_start() > 0, "usbipd listens on 127.0.0.1:%d",
		USBIP_PORT);
	ktap_ok(usbip_find_local(&disk), "QEMU usb-storage on the local bus: %s",
		disk.busid);
	ktap_ok(usbip_find_local(&kbd), "QEMU usb-kbd on the local bus: %s",
		kbd.busid);
	ktap_ok(listed((char *const[]){ USBIP, "list", "-l", NULL }),
		"usbip list -l shows both devices");
	ktap_ok(bound(&disk), "usbip bind: usbip-host drives the disk");
	ktap_ok(bound(&kbd), "usbip bind: usbip-host drives the keyboard");
	ktap_ok(listed((char *const[]){ USBIP, "list", "-r", "127.0.0.1",
					NULL }),
		"usbip list -r 127.0.0.1: usbipd exports both");
	ok = usbip_attach(&disk);
	ktap_ok(ok, "usbip attach of the disk: vhci port %d", disk.port);
	ok = usbip_wait_node(&sd);
	ktap_ok(ok, "usb-storage binds behind vhci-hcd: %s", sd.node);
	ok = usbip_attach(&kbd);
	ktap_ok(ok, "usbip attach of the keyboard: vhci port %d", kbd.port);
	ok = usbip_wait_node(&ev);
	ktap_ok(ok, "usbhid binds behind vhci-hcd: %s", ev.node);
	ktap_ok(ok && key_through(ev.node),
		"a key pressed in QEMU arrives through usbip as KEY_A down, up");
	ktap_ok(!usbip("port"), "usbip port lists the imported devices");
}

const struct ktap_test ktap_test = {
	.plan = 14,
	.devices = (const char *const[]){ VHCI, USBIP, USBIPD, NULL },
	.kconfig = (const char *const[]){ "CONFIG_USBIP_HOST",
					  "CONFIG_USBIP_VHCI_HCD", NULL },
	.timeout = 90,
	.run = run,
};
