// SPDX-License-Identifier: GPL-2.0
/*
 * hiddev - QEMU's USB keyboard, mouse and tablet through /dev/usb/hiddev*.
 *
 * hiddev only attaches by itself to HID interfaces with a non-input
 * application collection; QEMU's three devices are all Generic Desktop
 * keyboard or mouse, so the profile forces it with the HIDDEV_FORCE quirk
 * (usbhid.quirks=0x0627:0x0001:0x10 on the kernel command line). Without
 * the quirk no node appears and every case fails naming it.
 *
 * Checked: HIDIOCGVERSION is HID_VERSION; HIDIOCGDEVINFO and
 * HIDIOCAPPLICATION describe each device (USB, QEMU's ids, interface 0, one
 * application: Generic Desktop Keyboard or Mouse); HIDIOCGSTRING fetches
 * string descriptor 1 ("QEMU") from the device; the keyboard's parsed input
 * report (HIDIOCGREPORTINFO, HIDIOCGFIELDINFO, HIDIOCGUCODE: 8 modifier
 * bits from usage 0x000700e0, then a 6-key array) and its LED output
 * report (HIDIOCSUSAGE, HIDIOCSREPORT sends SET_REPORT, HIDIOCGUSAGE reads
 * the value back). Then the runner types and moves the mouse through the
 * QEMU monitor ("# bklfree-inject: TAG") and the events are read back:
 * the keyboard with HIDDEV_FLAG_UREF | HIDDEV_FLAG_REPORT (one report
 * record per report, usage changes a, shift-b), the mouse in the plain
 * hiddev_event format (every usage of one report: the five buttons 0,
 * X 5, Y -2, wheel 0).
 *
 * hiddev_fops use noop_llseek, among the file operations the llseek series
 * in patches/ classifies; this checks the reads and ioctls around it. No
 * single upstream commit: the tree-wide no_llseek removal (cb787f4ac0c2)
 * is the closest.
 */
#include <stdint.h>
#include <linux/hiddev.h>
#include <linux/input.h>

#include "usb/hid.h"

#define GD_KEYBOARD	0x00010006
#define GD_MOUSE	0x00010002
#define KEY_USAGE(u)	(0x00070000 | (u))
#define LED_NUM_LOCK	0x00080001

/* Where the hiddev nodes are; HIDIOCGNAME gives the device's name. */
static const struct hid_nodes where = {
	"/dev/usb/hiddev%d", 16, O_RDWR, HIDIOCGNAME(HID_NAME_LEN - 1),
};

/* The application collection of each device. */
static const unsigned int application[NKINDS] = {
	[KBD] = GD_KEYBOARD,
	[MOUSE] = GD_MOUSE,
	[TABLET] = GD_MOUSE,
};

struct usage_value {
	unsigned int usage;
	int value;
};

/* The keyboard's usage changes for "sendkey a" and "sendkey shift-b". */
static const struct usage_value key_changes[] = {
	{ KEY_USAGE(0x04), 1 }, { KEY_USAGE(0x04), 0 },
	{ KEY_USAGE(0xe1), 1 }, { KEY_USAGE(0x05), 1 },
	{ KEY_USAGE(0x05), 0 }, { KEY_USAGE(0xe1), 0 },
};
#define KEY_REPORTS	6

/* Every usage of the one mouse report "mouse_move 5 -2" causes. */
static const struct usage_value mouse_events[] = {
	{ 0x00090001, 0 }, { 0x00090002, 0 }, { 0x00090003, 0 },
	{ 0x00090004, 0 }, { 0x00090005, 0 },
	{ 0x00010030, 5 }, { 0x00010031, -2 }, { 0x00010038, 0 },
};

/* Without the HIDDEV_FORCE quirk QEMU's devices get no hiddev node. */
static void find_nodes(void)
{
	int k;

	hid_find("/dev/usb", &where);
	for (k = 0; k < NKINDS; k++)
		if (hid_fd[k] < 0)
			ktap_diag("no hiddev node for %s (needs usbhid.quirks=0x0627:0x0001:0x10)",
				  hid_name[k]);
}

static void check_version(void)
{
	int version = 0;
	int fd = hid_fd[KBD];
	int ok = fd >= 0 && !ioctl(fd, HIDIOCGVERSION, &version);

	if (ok)
		ktap_diag("hiddev version 0x%06x", version);
	ktap_ok(ok && version == HID_VERSION, "hiddev HIDIOCGVERSION 0x%06x",
		HID_VERSION);
}

static void check_devinfo(enum kind k)
{
	struct hiddev_devinfo di = { 0 };
	int app = -1, ok;

	ok = hid_fd[k] >= 0 && !ioctl(hid_fd[k], HIDIOCGDEVINFO, &di);
	if (ok) {
		app = ioctl(hid_fd[k], HIDIOCAPPLICATION, 0);
		ktap_diag("%s: %s bus 0x%x %04hx:%04hx if %u apps %u app 0x%08x",
			  hid_path[k], hid_name[k], di.bustype,
			  (unsigned short)di.vendor,
			  (unsigned short)di.product, di.ifnum,
			  di.num_applications, app);
	}
	ktap_ok(ok && di.bustype == BUS_USB &&
		(unsigned short)di.vendor == QEMU_VENDOR &&
		(unsigned short)di.product == QEMU_PRODUCT && di.ifnum == 0 &&
		di.num_applications == 1 &&
		(unsigned int)app == application[k],
		"hiddev %s devinfo usb %04x:%04x application 0x%08x",
		hid_name[k], QEMU_VENDOR, QEMU_PRODUCT,
		application[k]);
}

/* A GET_DESCRIPTOR (string) request through the hiddev node. */
static void check_string(void)
{
	struct hiddev_string_descriptor sd = { .index = 1 };
	int r = hid_fd[KBD] >= 0 ? ioctl(hid_fd[KBD], HIDIOCGSTRING, &sd) : -1;

	if (r >= 0)
		ktap_diag("string 1: %s", sd.value);
	ktap_ok(r > 0 && !strcmp(sd.value, "QEMU"),
		"hiddev %s HIDIOCGSTRING 1 is QEMU", hid_name[KBD]);
}

/* The boot keyboard input report: 8 modifier bits, then a 6-key array. */
static void check_input_layout(void)
{
	struct hiddev_report_info ri = {
		.report_type = HID_REPORT_TYPE_INPUT,
		.report_id = HID_REPORT_ID_FIRST,
	};
	struct hiddev_field_info mod = {
		.report_type = HID_REPORT_TYPE_INPUT, .field_index = 0,
	};
	struct hiddev_field_info keys = {
		.report_type = HID_REPORT_TYPE_INPUT, .field_index = 1,
	};
	struct hiddev_usage_ref ur = {
		.report_type = HID_REPORT_TYPE_INPUT, .field_index = 0,
		.usage_index = 0,
	};
	int fd = hid_fd[KBD], ok;

	ok = fd >= 0 && !ioctl(fd, HIDIOCGREPORTINFO, &ri);
	mod.report_id = keys.report_id = ur.report_id = ri.report_id;
	ok = ok && !ioctl(fd, HIDIOCGFIELDINFO, &mod) &&
	     !ioctl(fd, HIDIOCGFIELDINFO, &keys) &&
	     !ioctl(fd, HIDIOCGUCODE, &ur);
	if (ok)
		ktap_diag("input report %u: %u fields, modifiers %u usages flags 0x%x from 0x%08x, keys %u usages flags 0x%x",
			  ri.report_id, ri.num_fields, mod.maxusage, mod.flags,
			  ur.usage_code, keys.maxusage, keys.flags);
	ktap_ok(ok && ri.report_id == 0 && ri.num_fields == 2 &&
		mod.maxusage == 8 && (mod.flags & HID_FIELD_VARIABLE) &&
		ur.usage_code == KEY_USAGE(0xe0) &&
		!(keys.flags & HID_FIELD_VARIABLE) &&
		mod.application == GD_KEYBOARD,
		"hiddev %s input report modifiers and key array",
		hid_name[KBD]);
}

/* Num Lock on through SET_REPORT (Output), read back, then off again. */
static void check_led_report(void)
{
	struct hiddev_report_info ri = {
		.report_type = HID_REPORT_TYPE_OUTPUT,
		.report_id = HID_REPORT_ID_FIRST,
	};
	struct hiddev_usage_ref ur = {
		.report_type = HID_REPORT_TYPE_OUTPUT,
		.report_id = HID_REPORT_ID_UNKNOWN,
		.usage_code = LED_NUM_LOCK,
	};
	int fd = hid_fd[KBD], ok, on = -1;

	ok = fd >= 0 && !ioctl(fd, HIDIOCGREPORTINFO, &ri) &&
	     !ioctl(fd, HIDIOCGUSAGE, &ur);
	ur.value = 1;
	ok = ok && !ioctl(fd, HIDIOCSUSAGE, &ur) &&
	     !ioctl(fd, HIDIOCSREPORT, &ri);
	ur.value = -1;
	ok = ok && !ioctl(fd, HIDIOCGUSAGE, &ur);
	on = ur.value;
	ur.value = 0;
	ok = ok && !ioctl(fd, HIDIOCSUSAGE, &ur) &&
	     !ioctl(fd, HIDIOCSREPORT, &ri);
	if (!ok && fd >= 0)
		ktap_perror("LED output report");
	ktap_ok(ok && on == 1 && ri.num_fields >= 1,
		"hiddev %s Num Lock LED through HIDIOCSREPORT",
		hid_name[KBD]);
}

static void drain(int fd, size_t len)
{
	char buf[64];

	while (read(fd, buf, len) > 0)
		;
}

/*
 * Keyboard with usage references and report records: count the reports
 * and compare the usages whose value changed with key_changes.
 */
static void check_key_events(void)
{
	int flags = HIDDEV_FLAG_UREF | HIDDEV_FLAG_REPORT;
	long long end = ktap_now_ms() + EVENT_WAIT_MS;
	unsigned int reports = 0, got = 0, bad = 0;
	int last[256] = { 0 };
	int fd = hid_fd[KBD];
	ssize_t n;

	if (fd < 0 || ioctl(fd, HIDIOCSFLAG, &flags)) {
		ktap_ok(0, "hiddev %s usage changes for a then shift-b",
			hid_name[KBD]);
		return;
	}
	drain(fd, sizeof(struct hiddev_usage_ref));
	hid_inject("hiddev-keys", KEY_REPORTS, "reports", hid_path[KBD]);
	while ((got < ARRAY_SIZE(key_changes) || reports < KEY_REPORTS) &&
	       !bad) {
		struct hiddev_usage_ref ur;
		const struct usage_value *w = &key_changes[got];

		n = hid_read(fd, &ur, sizeof(ur), end);
		if (n < 0)
			break;
		if (n != sizeof(ur))
			continue;
		if (ur.report_type != HID_REPORT_TYPE_INPUT) {
			ktap_diag("record of report type %u", ur.report_type);
			bad++;
			continue;
		}
		if (ur.field_index == HID_FIELD_INDEX_NONE) {
			reports++;
			continue;
		}
		if ((ur.usage_code & 0xffff0000) != KEY_USAGE(0) ||
		    last[ur.usage_code & 0xff] == ur.value)
			continue;
		last[ur.usage_code & 0xff] = ur.value;
		if (got == ARRAY_SIZE(key_changes) ||
		    ur.usage_code != w->usage || ur.value != w->value) {
			ktap_diag("change %u: usage 0x%08x value %d", got,
				  ur.usage_code, ur.value);
			bad++;
			continue;
		}
		got++;
	}
	ktap_diag("hiddev-keys: %u reports, %u of %zu changes", reports, got,
		  ARRAY_SIZE(key_changes));
	ktap_ok(!bad && reports == KEY_REPORTS &&
		got == ARRAY_SIZE(key_changes),
		"hiddev %s %u reports with usage changes for a then shift-b",
		hid_name[KBD], KEY_REPORTS);
}

/* Mouse in the plain format: every usage of the one report, in order. */
static void check_mouse_events(void)
{
	long long end = ktap_now_ms() + EVENT_WAIT_MS;
	unsigned int got = 0, bad = 0;
	int fd = hid_fd[MOUSE];
	ssize_t n;

	if (fd < 0) {
		ktap_ok(0, "hiddev %s usages for move 5 -2",
			hid_name[MOUSE]);
		return;
	}
	drain(fd, sizeof(struct hiddev_event));
	hid_inject("hiddev-mouse", ARRAY_SIZE(mouse_events), "usages",
		   hid_path[MOUSE]);
	while (got < ARRAY_SIZE(mouse_events) && !bad) {
		const struct usage_value *w = &mouse_events[got];
		struct hiddev_event ev;

		n = hid_read(fd, &ev, sizeof(ev), end);
		if (n < 0)
			break;
		if (n != sizeof(ev))
			continue;
		if (ev.hid != w->usage || ev.value != w->value) {
			ktap_diag("event %u: usage 0x%08x value %d, want 0x%08x %d",
				  got, ev.hid, ev.value, w->usage, w->value);
			bad++;
			break;
		}
		got++;
	}
	if (!bad && got < ARRAY_SIZE(mouse_events))
		ktap_diag("hiddev-mouse: %u of %zu usages within %d ms", got,
			  ARRAY_SIZE(mouse_events), EVENT_WAIT_MS);
	ktap_ok(!bad && got == ARRAY_SIZE(mouse_events),
		"hiddev %s usages for move 5 -2", hid_name[MOUSE]);
}

static void run(void)
{
	size_t i;

	find_nodes();
	check_version();
	for (i = 0; i < NKINDS; i++)
		check_devinfo(i);
	check_string();
	check_input_layout();
	check_led_report();
	check_key_events();
	check_mouse_events();
}

const struct ktap_test ktap_test = {
	.plan = 1 + NKINDS + 5,
	.kconfig = (const char *const[]){ "CONFIG_USB_XHCI_HCD",
		"CONFIG_USB_HID", "CONFIG_USB_HIDDEV", NULL },
	.timeout = 45,
	.upstream = "cb787f4ac0c2",
	.run = run,
};
