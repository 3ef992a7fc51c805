// SPDX-License-Identifier: GPL-2.0
/*
 * hid-evdev - QEMU's USB keyboard, mouse and tablet through usbhid,
 * hid-input and evdev.
 *
 * Finds the three event nodes by EVIOCGNAME and checks that each is a USB
 * device of QEMU's vendor id with the capability its kind needs (KEY_A,
 * REL_WHEEL, ABS_X), and that the tablet's absolute axes span
 * QEMU's 0..32767. Then, with every node open, it asks the runner to type
 * and click through the QEMU monitor ("# bklfree-inject: TAG") and reads
 * the events back: the keyboard must give KEY_A press and release, then
 * shift-b, the mouse a motion of (7, -5), a left click and one wheel step
 * up, the tablet a left click. Every report travels the xHCI interrupt
 * endpoint, so the test covers URB completion, report parsing, the
 * hid-input mapping and the evdev queue.
 *
 * The monitor's mouse_move only sends relative motion, so the tablet's
 * absolute position cannot be driven; its axis ranges are checked instead.
 * The mouse indexes in the inject lines (4 for usb-mouse, 5 for usb-tablet)
 * follow QEMU's registration order: PS/2 keyboard 1, PS/2 mouse 2, USB
 * keyboard 3, then the profile's -device order.
 *
 * Guards evdev_fops, whose no_llseek the tree-wide removal upstream
 * (cb787f4ac0c2 "[tree-wide] finally take no_llseek out") rewrites: the
 * rewrite must leave reading events untouched.
 */
#include <stdint.h>
#include <linux/input.h>

#include "usb/hid.h"

/* Where the event nodes are; EVIOCGNAME gives the device's name. */
static const struct hid_nodes where = {
	"/dev/input/event%d", 32, O_RDONLY, EVIOCGNAME(HID_NAME_LEN - 1),
};

/* The one capability each device must have. */
static const struct node {
	unsigned int type;
	unsigned int code;
	const char *code_name;
} nodes[NKINDS] = {
	[KBD] = { EV_KEY, KEY_A, "KEY_A" },
	[MOUSE] = { EV_REL, REL_WHEEL, "REL_WHEEL" },
	[TABLET] = { EV_ABS, ABS_X, "ABS_X" },
};

struct want {
	uint16_t type;
	uint16_t code;
	int32_t value;
};

/* One injection: the tag the runner knows and the events it must cause. */
static const struct tcase {
	enum kind dev;
	const char *tag;
	const char *what;
	struct want want[6];
	unsigned int nwant;
} tcases[] = {
	{ KBD, "evdev-keys", "a then shift-b",
	  { { EV_KEY, KEY_A, 1 }, { EV_KEY, KEY_A, 0 },
	    { EV_KEY, KEY_LEFTSHIFT, 1 }, { EV_KEY, KEY_B, 1 },
	    { EV_KEY, KEY_B, 0 }, { EV_KEY, KEY_LEFTSHIFT, 0 } }, 6 },
	{ MOUSE, "evdev-mouse", "move 7 -5, left click, wheel up",
	  { { EV_REL, REL_X, 7 }, { EV_REL, REL_Y, -5 },
	    { EV_KEY, BTN_LEFT, 1 }, { EV_KEY, BTN_LEFT, 0 },
	    { EV_REL, REL_WHEEL, 1 } }, 5 },
	{ TABLET, "evdev-tablet", "left click",
	  { { EV_KEY, BTN_LEFT, 1 }, { EV_KEY, BTN_LEFT, 0 } }, 2 },
};

static int test_bit(const unsigned long *bits, unsigned int bit)
{
	unsigned int w = 8 * sizeof(long);

	return !!(bits[bit / w] & (1UL << (bit % w)));
}

static int has_cap(int fd, unsigned int type, unsigned int code)
{
	unsigned long bits[KEY_MAX / (8 * sizeof(long)) + 1];

	memset(bits, 0, sizeof(bits));
	if (ioctl(fd, EVIOCGBIT(0, sizeof(bits)), bits) < 0 ||
	    !test_bit(bits, type))
		return 0;
	memset(bits, 0, sizeof(bits));
	if (ioctl(fd, EVIOCGBIT(type, sizeof(bits)), bits) < 0)
		return 0;
	return test_bit(bits, code);
}

static void check_node(enum kind k)
{
	const struct node *n = &nodes[k];
	struct input_id id = { 0 };
	int ok;

	ok = hid_fd[k] >= 0 && !ioctl(hid_fd[k], EVIOCGID, &id);
	if (ok)
		ktap_diag("%s: %s bus 0x%x vendor 0x%04x product 0x%04x",
			  hid_path[k], hid_name[k], id.bustype, id.vendor,
			  id.product);
	ktap_ok(ok && id.bustype == BUS_USB && id.vendor == QEMU_VENDOR &&
		has_cap(hid_fd[k], n->type, n->code),
		"evdev %s usb vendor 0x%04x with %s", hid_name[k], QEMU_VENDOR,
		n->code_name);
}

static void check_tablet_axes(void)
{
	struct input_absinfo x = { 0 }, y = { 0 };
	int fd = hid_fd[TABLET];
	int ok;

	ok = fd >= 0 && !ioctl(fd, EVIOCGABS(ABS_X), &x) &&
	     !ioctl(fd, EVIOCGABS(ABS_Y), &y);
	if (ok)
		ktap_diag("tablet ABS_X %d..%d ABS_Y %d..%d", x.minimum,
			  x.maximum, y.minimum, y.maximum);
	ktap_ok(ok && x.minimum == 0 && x.maximum == 32767 &&
		y.minimum == 0 && y.maximum == 32767,
		"evdev %s ABS_X and ABS_Y 0..32767", hid_name[TABLET]);
}

/* Events that carry the device's state; SYN, MSC and autorepeat do not. */
static int counts(const struct input_event *ev)
{
	if (ev->type == EV_KEY)
		return ev->value != 2;
	return ev->type == EV_REL || ev->type == EV_ABS;
}

static void run_case(const struct tcase *t)
{
	long long end = ktap_now_ms() + EVENT_WAIT_MS;
	int fd = hid_fd[t->dev];
	unsigned int got = 0, bad = 0;
	struct input_event ev;
	ssize_t n;

	if (fd < 0) {
		ktap_ok(0, "evdev %s %s", hid_name[t->dev], t->what);
		return;
	}
	/* Nothing may be queued before the injection. */
	while (read(fd, &ev, sizeof(ev)) == sizeof(ev)) {
		if (!counts(&ev))
			continue;
		ktap_diag("stale event: type %u code %u value %d", ev.type,
			  ev.code, ev.value);
		bad++;
	}
	hid_inject(t->tag, t->nwant, "events", hid_path[t->dev]);
	while (got < t->nwant && !bad) {
		const struct want *w = &t->want[got];

		n = hid_read(fd, &ev, sizeof(ev), end);
		if (n < 0)
			break;
		if (n != sizeof(ev))
			continue;
		if (!counts(&ev))
			continue;
		if (ev.type != w->type || ev.code != w->code ||
		    ev.value != w->value) {
			ktap_diag("event %u: type %u code %u value %d, want type %u code %u value %d",
				  got, ev.type, ev.code, ev.value, w->type,
				  w->code, w->value);
			bad++;
			break;
		}
		got++;
	}
	if (got < t->nwant && !bad)
		ktap_diag("%s: %u of %u events within %d ms", t->tag, got,
			  t->nwant, EVENT_WAIT_MS);
	ktap_ok(got == t->nwant && !bad, "evdev %s %s", hid_name[t->dev],
		t->what);
}

static void run(void)
{
	size_t i;

	hid_find("/dev/input", &where);
	for (i = 0; i < NKINDS; i++)
		check_node(i);
	check_tablet_axes();
	for (i = 0; i < ARRAY_SIZE(tcases); i++)
		run_case(&tcases[i]);
}

const struct ktap_test ktap_test = {
	.plan = NKINDS + 1 + ARRAY_SIZE(tcases),
	.kconfig = (const char *const[]){ "CONFIG_USB_XHCI_HCD",
		"CONFIG_USB_HID", "CONFIG_INPUT_EVDEV", NULL },
	.timeout = 45,
	.upstream = "cb787f4ac0c2",
	.run = run,
};
