// SPDX-License-Identifier: GPL-2.0
/*
 * roccat - the Roccat special-event character device (drivers/hid/
 * hid-roccat.c) on a Roccat KonePure mouse played over raw_gadget
 * (usb/raw-device.h) on dummy_hcd. QEMU has no Roccat model, and the
 * Roccat drivers refuse any HID device that is not USB (hid_is_usb()), so
 * uhid cannot stand in for it. The KonePure is the simplest model: its
 * probe sends no request, so ids, a boot mouse interface (the driver only
 * claims the mouse interface), a HID report descriptor and an interrupt-IN
 * endpoint are enough for usbhid to bind, for hid-roccat-konepure to take
 * the HID device and for roccat_connect() to make /dev/roccatkonepure0
 * (devtmpfs names it "roccat" + driver name + minor; the /dev/roccat/
 * directory of Roccat's tools is a udev rule).
 *
 * Cases, in order:
 * - the device enumerates, usbhid binds, the node appears;
 * - the HID device is bound to konepure and the node's class device is its
 *   child: the node belongs to this device, not to hid-generic;
 * - open: ROCCATIOCGREPSIZE says 8 (struct konepure_mouse_report_button),
 *   nothing to read yet (EAGAIN, poll 0);
 * - lseek: .llseek is noop_llseek and no series patch touches this file,
 *   so SEEK_SET 4096, SEEK_CUR 10 and SEEK_END 0 all return 0 on both
 *   kernels; the values are printed whatever they are (the seed patch is
 *   about llseek);
 * - a button report (report id 3) sent on interrupt IN reaches the node
 *   through konepure_raw_event() and roccat_report_event(): poll says
 *   POLLIN, read returns the 8 bytes sent; a mouse report (id 1) does not;
 * - one buffer for all readers: a second open reader gets the same event,
 *   a reader opened after it gets nothing;
 * - a read shorter than the report returns that much and the rest of the
 *   report is lost (roccat_read's comment);
 * - 17 events on a reader that reads none: the 16-slot ring keeps the 15
 *   newest for it, in order;
 * - unplug under a reader blocked in read(): roccat_disconnect() clears
 *   ->exist and wakes it, read returns EIO within 5 s;
 * - on the still open file after the unplug: poll says POLLERR | POLLHUP,
 *   read EIO, but EAGAIN with O_NONBLOCK (roccat_read() tests O_NONBLOCK
 *   before ->exist), ROCCATIOCGREPSIZE ENODEV, lseek 0;
 * - a second KonePure plugged in while that file is still open gets minor
 *   0 again; the old file is closed, the new node opened: its events must
 *   arrive. roccat_release() looks the device up by minor, so the old
 *   file's close drops the new device's open count instead of the old
 *   one's; the new node's first open then does not call hid_hw_open(), no
 *   interrupt-IN URB runs and the event never comes (6.1's bug; drivers
 *   0407 fixes it). The emulator closes its inherited copy of the old file
 *   (.close_fds), or its exit would be the old file's last close;
 * - once both mice are unplugged and every file closed, hid_roccat has
 *   freed both roccat_devices roccat_connect() made: the kmem events of
 *   the module's own kmalloc and kfree, matched by pointer. On 6.1 the old
 *   file's close leaves the first device for ever.
 *
 * roccat_report_event() takes two mutexes and is called from usbhid's
 * URB completion, in softirq context: the first event gives "BUG:
 * sleeping function called from invalid context" and lockdep's "Invalid
 * wait context" on 6.1 (drivers 0406 fixes it), which fails the boot.
 */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include "slurp.h"
#include "tracefs.h"
#include "usb/raw-plug.h"

#define ROCCATIOCGREPSIZE	_IOR('H', 0xf1, int)	/* linux/hid-roccat.h */
#define NODE			"/dev/roccatkonepure0"
#define REPORT_SIZE		8	/* struct konepure_mouse_report_button */
#define RING			16	/* ROCCAT_CBUF_SIZE */
#define INSTANCE		TRACEFS_INSTANCES "roccat-devices"
#define KMEM			INSTANCE "/events/kmem/"

/* A boot mouse (report 1) and Roccat's 7-byte button report (report 3). */
static const uint8_t rdesc[] = {
	0x05, 0x01,		/* Usage Page (Generic Desktop) */
	0x09, 0x02,		/* Usage (Mouse) */
	0xa1, 0x01,		/* Collection (Application) */
	0x85, 0x01,		/*  Report ID (1) */
	0x09, 0x01,		/*  Usage (Pointer) */
	0xa1, 0x00,		/*  Collection (Physical) */
	0x05, 0x09,		/*   Usage Page (Button) */
	0x19, 0x01, 0x29, 0x03,	/*   Usage Minimum (1), Maximum (3) */
	0x15, 0x00, 0x25, 0x01,	/*   Logical Minimum (0), Maximum (1) */
	0x95, 0x03, 0x75, 0x01,	/*   Report Count (3), Size (1) */
	0x81, 0x02,		/*   Input (Data, Variable, Absolute) */
	0x95, 0x01, 0x75, 0x05,	/*   Report Count (1), Size (5) */
	0x81, 0x03,		/*   Input (Constant) */
	0x05, 0x01,		/*   Usage Page (Generic Desktop) */
	0x09, 0x30, 0x09, 0x31,	/*   Usage (X), Usage (Y) */
	0x15, 0x81, 0x25, 0x7f,	/*   Logical Minimum (-127), Maximum (127) */
	0x75, 0x08, 0x95, 0x02,	/*   Report Size (8), Count (2) */
	0x81, 0x06,		/*   Input (Data, Variable, Relative) */
	0xc0,			/*  End Collection */
	0xc0,			/* End Collection */
	0x06, 0x00, 0xff,	/* Usage Page (Vendor 0xff00) */
	0x09, 0x01,		/* Usage (1) */
	0xa1, 0x01,		/* Collection (Application) */
	0x85, 0x03,		/*  Report ID (3) */
	0x09, 0x01,		/*  Usage (1) */
	0x15, 0x00, 0x26, 0xff, 0x00,	/* Logical Minimum (0), Maximum (255) */
	0x75, 0x08, 0x95, 0x07,	/*  Report Size (8), Count (7) */
	0x81, 0x02,		/*  Input (Data, Variable, Absolute) */
	0xc0,			/* End Collection */
};

/* The HID class descriptor: HID 1.11, one report descriptor. */
static const uint8_t hid_desc[] = {
	9, HID_DT_HID, 0x11, 0x01, 0, 1, HID_DT_REPORT, sizeof(rdesc), 0,
};

static const struct rd_device konepure = {
	.name = "konepure", .vid = 0x1e7d, .pid = 0x2dbe, .bcd = 0x0100,
	.if_class = USB_CLASS_HID, .if_subclass = 1, .if_protocol = 2,
	.extra = hid_desc, .extra_len = sizeof(hid_desc),
	.report = rdesc, .report_len = sizeof(rdesc),
	.manufacturer = "ROCCAT", .product = "ROCCAT Kone Pure",
	.close_fds = 1,		/* the replug case's close must be the last */
	.nep = 1, .ep = {
		{ 0x81, USB_ENDPOINT_XFER_INT, REPORT_SIZE, 1 },
	},
};

/* Report 3: a button event of type and data1 (0x20: profile switch). */
static void button(struct plug *p, uint8_t type, uint8_t data1, uint8_t *r)
{
	const uint8_t rep[REPORT_SIZE] = { 3, 0, type, data1, 0, 0, 0x5a, 0xa5 };

	memcpy(r, rep, REPORT_SIZE);
	rd_send(p->e, 0, rep, REPORT_SIZE);
}

/* Waits at most ms for fd to be readable; poll's revents, 0 on timeout. */
static short wait_in(int fd, unsigned int ms)
{
	struct pollfd q = { .fd = fd, .events = POLLIN | POLLRDNORM };

	return poll(&q, 1, (int)ms) > 0 ? q.revents : 0;
}

/* read() that must not block: the fd is made O_NONBLOCK for it. */
static ssize_t read_now(int fd, void *buf, size_t len)
{
	int fl = fcntl(fd, F_GETFL);
	ssize_t r;

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	r = read(fd, buf, len);
	fcntl(fd, F_SETFL, fl);
	return r;
}

/* The node's class device is a child of a HID device bound to konepure. */
static int owned_by_konepure(struct plug *p)
{
	char hid[PATH_MAX], drv[PATH_MAX + 8], link[256];
	const char *name = "none";
	ssize_t n;

	if (!realpath("/sys/class/konepure/roccatkonepure0/device", hid)) {
		ktap_perror("roccatkonepure0's device");
		return 0;
	}
	snprintf(drv, sizeof(drv), "%s/driver", hid);
	n = readlink(drv, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		name = strrchr(link, '/') + 1;
	}
	ktap_diag("roccatkonepure0's device: %s, driver %s", hid, name);
	return !strcmp(name, "konepure") && strstr(hid, p->intf);
}

/* 17 events, data1 1..17, that reader fd does not read. */
static int overflow(struct plug *p, int fd)
{
	uint8_t rep[REPORT_SIZE], got[REPORT_SIZE];
	int seen = 0, last = 0, f2, n = 0;
	unsigned int i;

	/*
	 * A second reader follows the events, to know when each came. One
	 * event at a time, the next sent only once the follower's read() has
	 * returned: on 6.1 an event that arrives while a read() holds
	 * cbuf_lock makes the interrupt sleep on that mutex (patches/drivers
	 * 0406) and hangs the boot, at random; this way the baseline shows
	 * the same splat in every boot and goes on.
	 */
	f2 = open(NODE, O_RDONLY | O_CLOEXEC);
	for (i = 1; f2 >= 0 && i <= RING + 1; i++) {
		button(p, 0x20, i, rep);
		if (!wait_in(f2, 3000) ||
		    read_now(f2, got, sizeof(got)) != REPORT_SIZE)
			break;
		last = got[3];
	}
	if (f2 >= 0)
		close(f2);
	/* the ring keeps 15 of the 17 for fd: data1 3..17, in order */
	while (read_now(fd, got, sizeof(got)) == REPORT_SIZE) {
		if (got[3] != 3 + n)
			seen = -1;
		n++;
	}
	if (seen < 0 || n != RING - 1)
		ktap_diag("overflow: follower saw up to %d; reader got %d events, %s",
			  last, n, seen < 0 ? "out of order" : "in order");
	return last == RING + 1 && seen == 0 && n == RING - 1;
}

/*
 * What becomes of the struct roccat_device each roccat_connect() makes:
 * the kmem events kmalloc and kfree of hid_roccat's own code (call_site
 * within the module, from /proc/modules), in a tracing instance. An
 * exact count where kmemleak would only report the leak when no stale
 * copy of the pointer survives anywhere it scans.
 */
static char trace[1 << 16];

static int trace_devices(void)
{
	unsigned long base = 0, size = 0;
	char name[64], filter[128];
	FILE *f = fopen("/proc/modules", "re");

	while (f && fscanf(f, "%63s %lu %*s %*s %*s %lx%*[^\n]", name, &size,
			   &base) == 3 && strcmp(name, "hid_roccat"))
		base = 0;
	if (f)
		fclose(f);
	if (!base) {
		ktap_diag("hid_roccat: no address in /proc/modules");
		return 0;
	}
	snprintf(filter, sizeof(filter),
		 "call_site >= 0x%lx && call_site < 0x%lx", base, base + size);
	/*
	 * nohash-ptr: %px, not a hash that is "(____ptrval____)" until the
	 * random pool is ready
	 */
	return tracefs_instance(INSTANCE) &&
	       tracefs_write(INSTANCE "/trace_options", "nohash-ptr") &&
	       tracefs_write(KMEM "kmalloc/filter", filter) &&
	       tracefs_write(KMEM "kfree/filter", filter) &&
	       tracefs_write(KMEM "kmalloc/enable", "1") &&
	       tracefs_write(KMEM "kfree/enable", "1");
}

/* The pointer a traced line names ("ptr=<hash>"), as text, or NULL. */
static const char *ptr_of(const char *line, const char *end, size_t *len)
{
	const char *p = memmem(line, (size_t)(end - line), " ptr=", 5);

	if (!p || p[5] == '(')	/* a hash not ready: matches nothing */
		return NULL;
	p += 5;
	*len = strcspn(p, " \n");
	return p;
}

/* A kfree() line after text (from a line's end) names the pointer p. */
static int freed_after(const char *text, const char *p, size_t n)
{
	const char *line, *end, *q;
	size_t m;

	for (line = text; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		q = ptr_of(line, end, &m);
		if (q && m == n && !memcmp(p, q, n) &&
		    memmem(line, (size_t)(end - line), " kfree:", 7))
			return 1;
	}
	return 0;
}

/*
 * Of the devices roccat_connect() allocated, how many a later kfree()
 * of hid_roccat freed; the count made goes to *made. verbose: a
 * diagnostic for each one never freed.
 */
static int devices_freed(int *made, int verbose)
{
	const char *line, *end, *p;
	int freed = 0;
	size_t n;

	*made = 0;
	if (slurp(INSTANCE "/trace", trace, sizeof(trace)) < 0)
		return 0;
	for (line = trace; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (*line != '#' &&
		    memmem(line, (size_t)(end - line), "call_site=roccat_connect", 24) &&
		    (p = ptr_of(line, end, &n))) {
			++*made;
			if (freed_after(end, p, n))
				freed++;
			else if (verbose)
				ktap_diag("never freed: %.*s", (int)(end - line), line);
		}
	}
	return freed;
}

/* Every device made was freed (give the last disconnect 2 s). */
static void check_devices_freed(void)
{
	long long deadline = ktap_now_ms() + 2000;
	int made, freed;

	while ((freed = devices_freed(&made, 0)) < made &&
	       ktap_now_ms() < deadline)
		usleep(100 * 1000);
	tracefs_write(KMEM "kmalloc/enable", "0");
	tracefs_write(KMEM "kfree/enable", "0");
	if (made != 2 || freed != made) {
		ktap_diag("roccat_connect() made %d device(s), %d freed",
			  made, freed);
		devices_freed(&made, 1);
	}
	ktap_ok(made == 2 && freed == made,
		"konepure: both roccat_devices roccat_connect() made are freed once unplugged and closed");
}

#define CASES 13

static void run(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct plug p = { .dev = &konepure, .driver = "usbhid", .node = NODE };
	struct plug q = { .dev = &konepure, .driver = "usbhid", .node = NODE };
	uint8_t buf[64], rep[REPORT_SIZE];
	const uint8_t motion[4] = { 1, 0, 5, 0xfb };
	off_t s0, s1, s2;
	int fd = -1, fd2, fd3, size = 0, ok, fd_new;
	short ev;
	ssize_t r, r2;

	/* no SA_RESTART: the signal ends a read() left blocked */
	sigaction(SIGUSR1, &sa, NULL);
	if (!trace_devices())
		ktap_bail("cannot trace hid_roccat's kmalloc and kfree: %s",
			  strerror(errno));
	if (!plug_in(&p, NULL))
		goto out;
	ktap_ok(owned_by_konepure(&p),
		"konepure: the HID device is bound to konepure and owns roccatkonepure0 (roccat_connect)");

	fd = open_node(&p, O_RDONLY);
	ok = fd >= 0 && !ioctl(fd, ROCCATIOCGREPSIZE, &size) &&
	     size == REPORT_SIZE;
	ktap_ok(ok && fails(read_now(fd, buf, sizeof(buf)), EAGAIN) &&
		poll_now(fd, POLLIN) == 0,
		"konepure: open; ROCCATIOCGREPSIZE %d (want %d); nothing queued: read EAGAIN, poll 0",
		size, REPORT_SIZE);

	/* noop_llseek: f_pos stays 0 whatever is asked */
	s0 = lseek(fd, 4096, SEEK_SET);
	s1 = lseek(fd, 10, SEEK_CUR);
	s2 = lseek(fd, 0, SEEK_END);
	ktap_diag("roccatkonepure0: SEEK_SET 4096 -> %lld, SEEK_CUR 10 -> %lld, SEEK_END 0 -> %lld",
		  (long long)s0, (long long)s1, (long long)s2);
	ktap_ok(s0 == 0 && s1 == 0 && s2 == 0,
		"konepure: lseek SEEK_SET 4096, SEEK_CUR 10 and SEEK_END 0 return 0 (noop_llseek)");

	fd2 = open(NODE, O_RDONLY | O_CLOEXEC);
	rd_send(p.e, 0, motion, sizeof(motion));
	button(&p, 0x20, 2, rep);
	ev = wait_in(fd, 3000);
	r = read_now(fd, buf, sizeof(buf));
	if (r != REPORT_SIZE || memcmp(buf, rep, REPORT_SIZE))
		ktap_diag("event: poll 0x%x, read %zd", ev, r);
	ktap_ok(ev == (POLLIN | POLLRDNORM) && r == REPORT_SIZE &&
		!memcmp(buf, rep, REPORT_SIZE) &&
		fails(read_now(fd, buf, sizeof(buf)), EAGAIN),
		"konepure: report 3 on interrupt IN: poll POLLIN, read returns its 8 bytes; report 1 (motion) is not passed on");

	fd3 = open(NODE, O_RDONLY | O_CLOEXEC);
	r = fd2 >= 0 ? read_now(fd2, buf, sizeof(buf)) : -1;
	ok = r == REPORT_SIZE && !memcmp(buf, rep, REPORT_SIZE);
	r2 = fd3 >= 0 ? read_now(fd3, buf, sizeof(buf)) : 0;
	ktap_ok(ok && r2 < 0 && errno == EAGAIN,
		"konepure: a second reader gets the same event, a reader opened after it nothing (EAGAIN)");
	if (fd2 >= 0)
		close(fd2);
	if (fd3 >= 0)
		close(fd3);

	button(&p, 0x60, 7, rep);
	r = wait_in(fd, 3000) ? read_now(fd, buf, 3) : -1;
	ok = r == 3 && !memcmp(buf, rep, 3);
	ktap_ok(ok && fails(read_now(fd, buf, sizeof(buf)), EAGAIN),
		"konepure: read(3) of an 8-byte event returns 3 bytes, the rest is dropped");

	ktap_ok(overflow(&p, fd),
		"konepure: 17 events unread: the 16-slot ring keeps the newest 15 for the reader, in order");

	unplug_reading(&p, fd, sizeof(buf), 300, -1, EIO, 0,
		       "roccat_disconnect() clears ->exist and wakes the reader");

	/*
	 * roccat_read() tests O_NONBLOCK before ->exist: a non-blocking read
	 * of the gone device says EAGAIN while poll says POLLHUP
	 */
	ev = poll_now(fd, POLLIN);
	r = timed_read(fd, buf, sizeof(buf), 2000);
	ok = fails(r, EIO);
	r2 = read_now(fd, buf, sizeof(buf));
	ok = fails(r2, EAGAIN) && ok;
	ok = fails(ioctl(fd, ROCCATIOCGREPSIZE, &size), ENODEV) && ok;
	s0 = lseek(fd, 4096, SEEK_SET);
	if (ev != (POLLERR | POLLHUP) || !ok || s0)
		ktap_diag("after the unplug: poll 0x%x, read %zd, O_NONBLOCK read %zd, lseek %lld",
			  ev, r, r2, (long long)s0);
	ktap_ok(ev == (POLLERR | POLLHUP) && ok && s0 == 0,
		"konepure: after the unplug the open file polls POLLERR | POLLHUP, reads EIO (EAGAIN with O_NONBLOCK), ROCCATIOCGREPSIZE ENODEV, lseek 0");

	/* a second mouse takes minor 0 while the old file is still open */
	if (!plug_in(&q, NULL)) {
		ktap_ok(0, "konepure: replugged: events reach the new node after the old file's close");
		goto out;
	}
	close(fd);
	fd = -1;
	fd_new = open_node(&q, O_RDONLY);
	button(&q, 0x20, 9, rep);
	ev = fd_new >= 0 ? wait_in(fd_new, 3000) : 0;
	r = ev ? read_now(fd_new, buf, sizeof(buf)) : -1;
	if (!ev)
		ktap_diag("replugged: no event within 3 s on the new node");
	ktap_ok(r == REPORT_SIZE && !memcmp(buf, rep, REPORT_SIZE),
		"konepure: replugged: events reach the new node after the old file's close");
	if (fd_new >= 0)
		close(fd_new);
	unplug(&q);
out:
	if (fd >= 0)
		close(fd);
	unplug(&p);
	unplug(&q);
	check_devices_freed();
	while (ktap_count < CASES)
		ktap_ok(0, "konepure: case not reached");
}

const struct ktap_test ktap_test = {
	.plan = CASES,
	.devices = (const char *const[]){ "/dev/raw-gadget",
					  "/sys/kernel/tracing/instances", NULL },
	.kconfig = (const char *const[]){ "CONFIG_USB_RAW_GADGET",
					  "CONFIG_USB_DUMMY_HCD", "CONFIG_HID_ROCCAT",
					  NULL },
	.timeout = 60,
	.upstream = "drivers/hid/hid-roccat.c (seed patch: noop_llseek)",
	.run = run,
};
