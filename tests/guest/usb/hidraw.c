// SPDX-License-Identifier: GPL-2.0
/*
 * hidraw - QEMU's USB keyboard, mouse and tablet through /dev/hidraw*.
 *
 * Finds the three hidraw nodes by HIDIOCGRAWNAME and checks, for each:
 * HIDIOCGRAWINFO names a USB device of QEMU's vendor and product ids,
 * HIDIOCGRDESCSIZE gives the size of the report descriptor QEMU serves and
 * HIDIOCGRDESC returns the same bytes as sysfs report_descriptor, opening
 * with Usage Page (Generic Desktop) and the device's usage and ending with
 * End Collection. On the keyboard it then asks for the input report over
 * the control pipe (HIDIOCGINPUT, a GET_REPORT request: nothing pressed,
 * eight zero bytes) and sends the LED output report with write() (no
 * interrupt OUT endpoint, so hidraw falls back to SET_REPORT).
 * Last, with every node open, it asks the runner to type and click through
 * the QEMU monitor ("# bklfree-inject: TAG") and reads the raw input
 * reports back: the boot keyboard reports of "a" and shift-b (modifier
 * byte, then key codes: usage 0x04 is "a", 0x05 "b", bit 1 left shift),
 * the mouse's (buttons, dx, dy, wheel) and the tablet's (buttons, x and y
 * little-endian, wheel; nothing moved it, so it is still at 0,0).
 *
 * hidraw_fops use noop_llseek, among the file operations the llseek series
 * in patches/ classifies; this checks that reading, writing and the ioctls
 * behave the same around it. No single upstream commit: the tree-wide
 * no_llseek removal (cb787f4ac0c2) is the closest.
 */
#include <stdint.h>
#include <linux/hidraw.h>
#include <linux/input.h>

#include "usb/hid.h"

/* Where the hidraw nodes are; HIDIOCGRAWNAME gives the device's name. */
static const struct hid_nodes where = {
	"/dev/hidraw%d", 16, O_RDWR, HIDIOCGRAWNAME(HID_NAME_LEN - 1),
};

/* The report descriptors of QEMU's HID devices (hw/usb/dev-hid.c). */
static const struct node {
	unsigned int rdesc_size;
	uint8_t usage;		/* Generic Desktop usage of the collection */
} nodes[NKINDS] = {
	[KBD] = { 63, 0x06 },
	[MOUSE] = { 52, 0x02 },
	[TABLET] = { 74, 0x02 },
};

#define MAX_REPORTS	6
#define MAX_LEN		8

/* One injection: the tag the runner knows and the reports it must cause. */
static const struct tcase {
	enum kind dev;
	const char *tag;
	const char *what;
	unsigned int len;	/* bytes compared of each report */
	unsigned int nreports;
	uint8_t report[MAX_REPORTS][MAX_LEN];
} tcases[] = {
	{ KBD, "hidraw-keys", "a then shift-b", 8, 6, {
		{ 0x00, 0x00, 0x04 },
		{ 0x00 },
		{ 0x02, 0x00, 0x00 },
		{ 0x02, 0x00, 0x05 },
		{ 0x02, 0x00, 0x00 },
		{ 0x00 } } },
	{ MOUSE, "hidraw-mouse", "move -3 9, right click", 4, 3, {
		{ 0x00, 0xfd, 0x09, 0x00 },
		{ 0x02, 0x00, 0x00, 0x00 },
		{ 0x00, 0x00, 0x00, 0x00 } } },
	{ TABLET, "hidraw-tablet", "left click at 0,0", 6, 2, {
		{ 0x01, 0x00, 0x00, 0x00, 0x00, 0x00 },
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 } } },
};

static void check_info(enum kind k)
{
	struct hidraw_devinfo info = { 0 };
	int ok = hid_fd[k] >= 0 && !ioctl(hid_fd[k], HIDIOCGRAWINFO, &info);

	if (ok)
		ktap_diag("%s: %s bus 0x%x vendor 0x%04hx product 0x%04hx",
			  hid_path[k], hid_name[k], info.bustype,
			  (unsigned short)info.vendor,
			  (unsigned short)info.product);
	ktap_ok(ok && info.bustype == BUS_USB &&
		(unsigned short)info.vendor == QEMU_VENDOR &&
		(unsigned short)info.product == QEMU_PRODUCT,
		"hidraw %s info usb %04x:%04x", hid_name[k], QEMU_VENDOR,
		QEMU_PRODUCT);
}

/* The descriptor as sysfs shows it, for comparison; -1 if unreadable. */
static ssize_t sysfs_rdesc(const char *path, uint8_t *buf, size_t len)
{
	char file[96];
	ssize_t n;
	int fd;

	snprintf(file, sizeof(file),
		 "/sys/class/hidraw/%s/device/report_descriptor", path + 5);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len);
	close(fd);
	return n;
}

static void check_rdesc(enum kind k)
{
	const struct node *n = &nodes[k];
	struct hidraw_report_descriptor rd = { 0 };
	uint8_t sys[HID_MAX_DESCRIPTOR_SIZE];
	ssize_t nsys = -1;
	int size = -1, ok = 0;

	if (hid_fd[k] >= 0 && !ioctl(hid_fd[k], HIDIOCGRDESCSIZE, &size) &&
	    size > 4 && size <= HID_MAX_DESCRIPTOR_SIZE) {
		rd.size = size;
		ok = !ioctl(hid_fd[k], HIDIOCGRDESC, &rd);
		nsys = sysfs_rdesc(hid_path[k], sys, sizeof(sys));
	}
	if (hid_fd[k] >= 0)
		ktap_diag("%s: descriptor %d bytes, sysfs %zd", hid_path[k],
			  size, nsys);
	ok = ok && (unsigned int)size == n->rdesc_size && nsys == size &&
	     !memcmp(rd.value, sys, size) &&
	     rd.value[0] == 0x05 && rd.value[1] == 0x01 &&
	     rd.value[2] == 0x09 && rd.value[3] == n->usage &&
	     rd.value[size - 1] == 0xc0;
	ktap_ok(ok, "hidraw %s descriptor %u bytes, generic desktop usage 0x%02x",
		hid_name[k], n->rdesc_size, n->usage);
}

/* GET_REPORT over the control pipe: byte 0 is the report id, here none. */
static void check_get_input(void)
{
	uint8_t buf[1 + MAX_LEN];
	int r = -1, fd = hid_fd[KBD];
	unsigned int i, zero = 1;

	memset(buf, 0xa5, sizeof(buf));
	buf[0] = 0;
	if (fd >= 0)
		r = ioctl(fd, HIDIOCGINPUT(sizeof(buf)), buf);
	if (r < 0 && fd >= 0)
		ktap_perror("HIDIOCGINPUT");
	for (i = 0; i < sizeof(buf); i++)
		zero &= !buf[i];
	ktap_ok(r == (int)sizeof(buf) && zero,
		"hidraw %s HIDIOCGINPUT returns %zu bytes, no key down",
		hid_name[KBD], sizeof(buf));
}

/* Num Lock on, then all LEDs off: SET_REPORT (Output) with report id 0. */
static void check_write_leds(void)
{
	static const uint8_t leds[][2] = { { 0x00, 0x01 }, { 0x00, 0x00 } };
	int fd = hid_fd[KBD], ok = fd >= 0;
	size_t i;

	for (i = 0; ok && i < ARRAY_SIZE(leds); i++) {
		ssize_t w = write(fd, leds[i], sizeof(leds[i]));

		if (w < 0)
			ktap_perror("write LED report");
		ok = w == sizeof(leds[i]);
	}
	ktap_ok(ok, "hidraw %s write LED output report", hid_name[KBD]);
}

static void dump(const char *what, const uint8_t *b, ssize_t n)
{
	char hex[3 * 64 + 1] = "";
	ssize_t i;

	for (i = 0; i < n && i < 64; i++)
		snprintf(hex + 3 * i, sizeof(hex) - 3 * i, " %02x", b[i]);
	ktap_diag("%s:%s", what, hex);
}

static void run_case(const struct tcase *t)
{
	long long end = ktap_now_ms() + EVENT_WAIT_MS;
	int fd = hid_fd[t->dev];
	unsigned int got = 0, bad = 0;
	uint8_t buf[64];
	ssize_t n;

	if (fd < 0) {
		ktap_ok(0, "hidraw %s reports for %s", hid_name[t->dev],
			t->what);
		return;
	}
	/* Nothing may be queued before the injection. */
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		dump("stale report", buf, n);
		bad++;
	}
	hid_inject(t->tag, t->nreports, "reports", hid_path[t->dev]);
	while (got < t->nreports && !bad) {
		n = hid_read(fd, buf, sizeof(buf), end);
		if (n < 0)
			break;
		if (n < (ssize_t)t->len ||
		    memcmp(buf, t->report[got], t->len)) {
			dump("unexpected report", buf, n);
			dump("expected", t->report[got], t->len);
			bad++;
			break;
		}
		got++;
	}
	if (got < t->nreports && !bad)
		ktap_diag("%s: %u of %u reports within %d ms", t->tag, got,
			  t->nreports, EVENT_WAIT_MS);
	ktap_ok(got == t->nreports && !bad, "hidraw %s reports for %s",
		hid_name[t->dev], t->what);
}

static void run(void)
{
	size_t i;

	hid_find(NULL, &where);
	for (i = 0; i < NKINDS; i++)
		check_info(i);
	for (i = 0; i < NKINDS; i++)
		check_rdesc(i);
	check_get_input();
	check_write_leds();
	for (i = 0; i < ARRAY_SIZE(tcases); i++)
		run_case(&tcases[i]);
}

const struct ktap_test ktap_test = {
	.plan = 2 * NKINDS + 2 + ARRAY_SIZE(tcases),
	.kconfig = (const char *const[]){ "CONFIG_USB_XHCI_HCD",
		"CONFIG_USB_HID", "CONFIG_HIDRAW", NULL },
	.timeout = 45,
	.upstream = "cb787f4ac0c2",
	.run = run,
};
