// SPDX-License-Identifier: GPL-2.0
/*
 * raw-vendor - USB devices QEMU has no model for, made in the guest over
 * raw_gadget the way syzkaller reaches USB drivers (usb/raw-device.h is
 * the emulator), one after another on dummy_hcd: chaoskey, ldusb,
 * legousbtower, iowarrior, adutux, idmouse, usblcd, yurex, mdc800,
 * pcwd_usb, cdc-wdm, usbtmc, ftdi-elan (its JTAG interface) and gnss-usb
 * (a Sierra Wireless XM1210 receiver, through the GNSS core's /dev/gnss0).
 *
 * Each device has the ids, interface class and endpoints its driver's id
 * table and probe ask for. The test checks that the interface is bound to
 * that driver and its node appeared, then drives the node's file
 * operations (read, write, ioctl, poll, lseek; every result pinned: bytes,
 * value or errno) while the emulator plays the device's side of the
 * protocol: random bytes on chaoskey's bulk IN, echoed reports on the
 * interrupt pipes of ldusb, legousbtower, adutux, answers to iowarrior's
 * and yurex's and pcwd_usb's SET_REPORT commands, a fingerprint image for
 * idmouse, cdc-wdm's encapsulated commands and RESPONSE_AVAILABLE
 * notification, usbtmc's bulk message headers and class requests, NMEA
 * sentences on gnss-usb's bulk IN (and the commands written to it taken
 * on its bulk OUT).
 *
 * Then it unplugs the device while the node is open: where a read blocks
 * (no data from the device) a second thread is left in read() and the
 * emulator is killed, which releases its raw-gadget file and disconnects
 * the device. The reader must come back within 5 s, and what it returns is
 * pinned per driver, as is a read on the stale descriptor afterwards. A
 * reader still blocked after 5 s is interrupted by a signal so that the
 * test ends, and its case fails.
 *
 * What 6.1 does wrong here, each shown by its case or the boot's console:
 * - ldusb and iowarrior: a reader blocked for data holds dev->mutex while
 *   it waits, and disconnect() needs that mutex before it can wake the
 *   reader (iowarrior: to clear ->present, the reader's wake condition;
 *   ldusb: the reader only waits for the next URB, which disconnect()
 *   poisoned). The reader never returns and hub_wq stays blocked in
 *   disconnect(); after 5 s the test signals the reader (ldusb returns
 *   EINTR, iowarrior leaks -ERESTART to user space as errno 85) and the
 *   disconnect completes. Those two cases fail.
 * - mdc800: probe takes mdc800->io_lock and then minor_rwsem
 *   (usb_register_dev()), open runs under minor_rwsem (usb_open()) and
 *   takes io_lock: lockdep reports the circular dependency at the first
 *   open().
 * - usblcd: IOCTL_GET_DRV_VERSION is 2, the VFS's FIGETBSZ, so the driver
 *   never sees it (pinned: the ioctl returns devtmpfs's block size).
 * - pcwd_usb: disconnect() frees the device while an open /dev/watchdog
 *   keeps using the pointer (usb_pcwd_device), so any file operation
 *   after the unplug, release() included, is a use after free, and once
 *   another card is plugged in the pointer names that card: the old file's
 *   keepalive pings it and its close disables it. The last cases unplug
 *   the card under an open file, plug in a second one and use the old
 *   file in a child: the new card must receive nothing before its own
 *   open (patches/drivers 0304).
 *
 * gnss-usb's lseek is ESPIPE on both kernels: gnss_open() calls
 * stream_open(), and patches/core 0015 only drops a .llseek = no_llseek
 * that is NULL in 6.1 anyway.
 *
 * chaoskey's .llseek is default_llseek in 6.1 and noop_llseek with
 * patches/core 0216: lseek(fd, 4096, SEEK_SET) returns 4096 on the
 * baseline kernel and 0 on the patched one; both are accepted and named.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/usb/cdc-wdm.h>
#include <linux/usb/tmc.h>
#include <linux/watchdog.h>

#include "run.h"
#include "usb/raw-plug.h"

static int file_there(void *path)
{
	return !access(path, F_OK);
}

/* Reports queued before now are dropped. */
static void drain(struct plug *p)
{
	struct rd_msg m;

	if (p->e)
		rd_next(p->e, 0, 0, 0, &m);
}

/*
 * The next class or vendor request bRequest req (-1: any) whose data
 * starts with d0 (-1: any), within 2 s. Others are skipped: the emulator
 * reports a request after its data stage, which is when the host's
 * transfer completes too, so a request the host already saw complete may
 * still arrive after later ones were sent.
 */
static int find_ctl(struct plug *p, int req, int d0, struct rd_msg *m)
{
	long long deadline = ktap_now_ms() + 2000;

	while (p->e) {
		long long left = deadline - ktap_now_ms();

		if (left <= 0 || !rd_next(p->e, RD_CONTROL, 0, left, m))
			return 0;
		if ((req < 0 || m->setup.bRequest == req) &&
		    (d0 < 0 || (m->len && m->data[0] == d0)))
			return 1;
	}
	return 0;
}

/* ---- chaoskey ----------------------------------------------------------- */

static uint32_t ck_seed = 0x2545f491;

/* A stream of xorshift32 random bytes on the bulk IN endpoint. */
static int ck_fill(struct rd_emu *e, unsigned int i, uint8_t *buf,
		   unsigned int max)
{
	unsigned int n;

	(void)e;
	(void)i;
	(void)max;
	for (n = 0; n < 64; n++) {
		ck_seed ^= ck_seed << 13;
		ck_seed ^= ck_seed >> 17;
		ck_seed ^= ck_seed << 5;
		buf[n] = ck_seed;
	}
	return 64;
}

static int ck_hwrng(void *avail)
{
	return read_line("/sys/class/misc/hw_random/rng_available", avail,
			 256) && strstr(avail, "ChaosKey-hw-1.0-BKL0001");
}

static const struct rd_device chaoskey = {
	.name = "chaoskey", .vid = 0x1d50, .pid = 0x60c6, .bcd = 0x0100,
	.if_class = 0xff,
	.manufacturer = "Altus Metrum", .product = "ChaosKey-hw-1.0",
	.serial = "BKL0001",
	.nep = 1, .ep = { { 0x81, USB_ENDPOINT_XFER_BULK, 64, 0 } },
	.fill = ck_fill,
};

#define CHAOSKEY_CASES 8

static void test_chaoskey(void)
{
	struct plug p = { .dev = &chaoskey, .driver = "chaoskey" };
	char avail[256] = "";
	uint8_t buf[1000];
	ssize_t r;
	off_t o;
	int fd, i, same = 1;

	if (!plug_in(&p, NULL))
		goto out;
	/*
	 * hwrng names the source after the product and serial strings;
	 * probe() registers it after the node
	 */
	wait_for(ck_hwrng, avail, 2000);
	ktap_ok(strstr(avail, "ChaosKey-hw-1.0-BKL0001") != NULL,
		"chaoskey: registered as hwrng 'ChaosKey-hw-1.0-BKL0001' (rng_available: %s)",
		avail);
	fd = open_node(&p, O_RDWR);
	r = timed_read(fd, buf, sizeof(buf), 3000);
	for (i = 1; i < (int)sizeof(buf); i++)
		same &= buf[i] == buf[0];
	ktap_ok(r == (ssize_t)sizeof(buf) && !same,
		"chaoskey: read() of 1000 bytes returns 1000 bytes of the device's random stream");
	o = lseek(fd, 4096, SEEK_SET);
	ktap_diag("chaoskey: lseek(4096, SEEK_SET) = %lld (%s)", (long long)o,
		  o == 4096 ? "default_llseek" : o == 0 ? "noop_llseek" : "?");
	ktap_ok((o == 4096 || o == 0) && lseek(fd, 0, SEEK_SET) == 0 &&
		read(fd, buf, 64) == 64 && lseek(fd, 0, SEEK_CUR) == 0,
		"chaoskey: lseek(4096, SEEK_SET) gives 4096 or 0, read() leaves the position at 0");
	ktap_ok(poll_now(fd, POLLIN | POLLOUT) == (POLLIN | POLLOUT),
		"chaoskey: poll (no .poll) is readable and writable");
	ktap_ok(fails(write(fd, buf, 4), EINVAL),
		"chaoskey: write() (no .write) fails with EINVAL");
	/* a reader of 1 MiB is reading the stream when the device goes */
	rdr.fd = fd;
	rdr.buf = NULL;
	rdr.len = sizeof(big);
	{
		int blocked, returned;

		if (pipe2(rdr.done, O_CLOEXEC) ||
		    pthread_create(&rdr.t, NULL, reader_run, &rdr))
			ktap_bail("reader thread");
		blocked = !reader_done(&rdr, 300);
		unplug(&p);
		returned = reader_done(&rdr, 5000);
		if (!returned) {
			pthread_kill(rdr.t, SIGUSR1);
			reader_done(&rdr, 3000);
		}
		pthread_join(rdr.t, NULL);
		close(rdr.done[0]);
		close(rdr.done[1]);
		ktap_diag("chaoskey: the 1 MiB read returned %zd (errno %s)",
			  rdr.r, strerrorname_np(rdr.err) ?: "0");
		ktap_ok(blocked && returned && rdr.r > 0 &&
			rdr.r < (ssize_t)sizeof(big),
			"chaoskey: unplugged during a 1 MiB read(): it returns the bytes read so far");
	}
	stale_read(&p, fd, 64, ENODEV, 0);
out:
	unplug(&p);
}

/* ---- ldusb -------------------------------------------------------------- */

/*
 * The devices below that answer what they are sent: the bytes of an OUT
 * transfer come back on IN endpoint index 0, each through map.
 */
static void echo_mapped(struct rd_emu *e, const uint8_t *d, unsigned int len,
			uint8_t (*map)(uint8_t))
{
	uint8_t r[64];
	unsigned int n;

	for (n = 0; n < len && n < sizeof(r); n++)
		r[n] = map(d[n]);
	rd_send(e, 0, r, n);
}

static uint8_t inverted(uint8_t c)
{
	return ~c;
}

/* Interrupt OUT (index 1) comes back inverted on interrupt IN (index 0). */
static void ld_out(struct rd_emu *e, unsigned int i, const uint8_t *d,
		   unsigned int len)
{
	(void)i;
	echo_mapped(e, d, len, inverted);
}

static const struct rd_device ldusb = {
	.name = "ldusb", .vid = 0x0f11, .pid = 0x1001, .bcd = 0x0200,
	.if_class = 0xff,
	.manufacturer = "LD Didactic", .product = "CASSY-S",
	.nep = 2, .ep = {
		{ 0x85, USB_ENDPOINT_XFER_INT, 8, 2 },
		{ 0x03, USB_ENDPOINT_XFER_INT, 8, 2 },
	},
	.out = ld_out,
};

#define LDUSB_CASES 8

static void test_ldusb(void)
{
	struct plug p = { .dev = &ldusb, .driver = "ldusb" };
	static const uint8_t cmd[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint8_t buf[8], inv[8];
	struct rd_msg m;
	int fd, fd2, i;
	ssize_t r;

	if (!plug_in(&p, NULL))
		goto out;
	fd = open_node(&p, O_RDWR);
	fd2 = open(p.path, O_RDWR | O_CLOEXEC);
	ktap_ok(fd >= 0 && fails(fd2, EBUSY),
		"ldusb: a second open() fails with EBUSY");
	ktap_ok(read(fd, buf, 0) == 0, "ldusb: read() of 0 bytes returns 0 at once");
	{
		int fl = fcntl(fd, F_GETFL);

		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
		r = read(fd, buf, sizeof(buf));
		ktap_ok(fails(r, EAGAIN) && poll_now(fd, POLLIN | POLLOUT) == POLLOUT &&
			fails(lseek(fd, 0, SEEK_SET), ESPIPE),
			"ldusb: nothing received: read() EAGAIN, poll writable only, lseek ESPIPE");
		fcntl(fd, F_SETFL, fl);
	}
	drain(&p);
	r = write(fd, cmd, sizeof(cmd));
	ktap_ok(r == 8 && rd_next(p.e, RD_OUT, 1, 3000, &m) && m.len == 8 &&
		!memcmp(m.data, cmd, 8),
		"ldusb: write() of 8 bytes returns 8 and the device gets them on its interrupt OUT");
	for (i = 0; i < 8; i++)
		inv[i] = ~cmd[i];
	r = timed_read(fd, buf, sizeof(buf), 3000);
	ktap_ok(r == 8 && !memcmp(buf, inv, 8),
		"ldusb: read() returns the device's 8-byte interrupt IN report");
	unplug_reading(&p, fd, 8, 300, -1, ENODEV, 0,
		       "ld_usb_read() waits for data holding dev->mutex, which ld_usb_disconnect() takes");
	stale_read(&p, fd, 8, ENODEV, 0);
	if (fd2 >= 0)
		close(fd2);
out:
	unplug(&p);
}

/* ---- legousbtower ------------------------------------------------------- */

static int tower_control(struct rd_emu *e, const struct usb_ctrlrequest *c,
			 const uint8_t *out, unsigned int outlen, uint8_t *in)
{
	/* struct tower_get_version_reply: size, err, spare, 1.2 build 772 */
	static const uint8_t version[8] = { 8, 0, 0, 0, 1, 2, 0x04, 0x03 };
	static const uint8_t reset[4] = { 4, 0, 0, 0 };

	(void)e;
	(void)out;
	(void)outlen;
	if (c->bRequestType != (USB_DIR_IN | USB_TYPE_VENDOR))
		return -1;
	if (c->bRequest == 0xfd) {
		memcpy(in, version, sizeof(version));
		return sizeof(version);
	}
	if (c->bRequest == 0x04) {
		memcpy(in, reset, sizeof(reset));
		return sizeof(reset);
	}
	return -1;
}

static const struct rd_device tower = {
	.name = "legousbtower", .vid = 0x0694, .pid = 0x0001, .bcd = 0x0100,
	.if_class = 0xff,
	.manufacturer = "LEGO Group", .product = "LEGO USB Tower",
	.nep = 2, .ep = {
		{ 0x85, USB_ENDPOINT_XFER_INT, 8, 10 },
		{ 0x03, USB_ENDPOINT_XFER_INT, 8, 10 },
	},
	.control = tower_control,
	.out = ld_out,
};

#define TOWER_CASES 8

static void test_tower(void)
{
	struct plug p = { .dev = &tower, .driver = "legousbtower" };
	static const uint8_t msg[5] = { 0x55, 0xff, 0x00, 0x10, 0xef };
	uint8_t buf[64];
	struct rd_msg m;
	ssize_t r;
	int fd, i, ok;

	if (!plug_in(&p, NULL))
		goto out;
	drain(&p);
	fd = open_node(&p, O_RDWR);
	ktap_ok(fd >= 0 && find_ctl(&p, 0x04, -1, &m) &&
		m.setup.bRequest == 0x04,
		"legousbtower: open() resets the tower (vendor request 0x04)");
	ktap_ok(fails(lseek(fd, 0, SEEK_SET), ESPIPE) &&
		poll_now(fd, POLLIN | POLLOUT) == POLLOUT,
		"legousbtower: lseek ESPIPE; nothing received: poll writable only");
	r = timed_read(fd, buf, sizeof(buf), 3000);
	ktap_ok(fails(r, ETIMEDOUT),
		"legousbtower: read() with nothing sent times out: ETIMEDOUT (read_timeout 200 ms)");
	r = write(fd, msg, sizeof(msg));
	ktap_ok(r == 5 && rd_next(p.e, RD_OUT, 1, 3000, &m) && m.len == 5 &&
		!memcmp(m.data, msg, 5),
		"legousbtower: write() of 5 bytes returns 5 and the tower gets them on its interrupt OUT");
	r = timed_read(fd, buf, sizeof(buf), 3000);
	ok = r == 5;
	for (i = 0; ok && i < 5; i++)
		ok = (buf[i] ^ msg[i]) == 0xff;
	ktap_ok(ok, "legousbtower: read() returns the tower's 5-byte answer once the packet timeout passed");
	unplug_reading(&p, fd, sizeof(buf), 100, -1, ETIMEDOUT, 0,
		       "tower_read() holds dev->lock until its read timeout");
	stale_read(&p, fd, 8, ENODEV, 0);
out:
	unplug(&p);
}

/* ---- iowarrior (IOW40) -------------------------------------------------- */

static uint8_t iow_report[4] = { 0xa0, 0xa1, 0xa2, 0xa3 };

static int iow_control(struct rd_emu *e, const struct usb_ctrlrequest *c,
		       const uint8_t *out, unsigned int outlen, uint8_t *in)
{
	unsigned int i;

	(void)e;
	if (c->bRequestType == (USB_TYPE_CLASS | USB_RECIP_INTERFACE)) {
		if (c->bRequest == 0x0a)		/* SET_IDLE */
			return 0;
		if (c->bRequest == 0x09 && outlen == 4) { /* SET_REPORT */
			memcpy(iow_report, out, 4);
			return 0;
		}
	}
	if (c->bRequestType == (USB_DIR_IN | USB_TYPE_CLASS | USB_RECIP_INTERFACE) &&
	    c->bRequest == 0x01) {		/* GET_REPORT: the pins, inverted */
		for (i = 0; i < 4; i++)
			in[i] = ~iow_report[i];
		return 4;
	}
	return -1;
}

static const struct rd_device iow40 = {
	.name = "iowarrior", .vid = 0x07c0, .pid = 0x1500, .bcd = 0x1030,
	.if_class = 0xff,
	.manufacturer = "Code Mercenaries", .product = "IOWarrior40",
	.serial = "BKL00001",
	.nep = 1, .ep = { { 0x85, USB_ENDPOINT_XFER_INT, 4, 8 } },
	.control = iow_control,
};

/* include/linux/usb/iowarrior.h is not UAPI */
#define IOW_WRITE	_IOW(0xc0, 1, __u8 *)
#define IOW_READ	_IOW(0xc0, 2, __u8 *)
struct iowarrior_info {
	__u32 vendor;
	__u32 product;
	__u8 serial[9];
	__u32 revision;
	__u32 speed;
	__u32 power;
	__u32 if_num;
	__u32 report_size;
};
#define IOW_GETINFO	_IOR(0xc0, 3, struct iowarrior_info)

#define IOW_CASES 9

static void test_iowarrior(void)
{
	struct plug p = { .dev = &iow40, .driver = "iowarrior" };
	static const uint8_t pins[4] = { 0x01, 0x02, 0x04, 0x08 };
	static const uint8_t pins2[4] = { 0x10, 0x20, 0x40, 0x80 };
	static const uint8_t rep[4] = { 0x5a, 0x00, 0xff, 0x33 };
	struct iowarrior_info info = { 0 };
	uint8_t buf[8];
	struct rd_msg m;
	ssize_t r;
	int fd, fl;

	if (!plug_in(&p, NULL))
		goto out;
	fd = open_node(&p, O_RDWR);
	ktap_ok(fd >= 0 && !ioctl(fd, IOW_GETINFO, &info) &&
		info.vendor == 0x07c0 && info.product == 0x1500 &&
		info.revision == 0x1030 && info.speed == 2 &&
		info.report_size == 4 && info.power == 100 && info.if_num == 0 &&
		!memcmp(info.serial, "BKL00001", 9),
		"iowarrior: IOW_GETINFO: 07c0:1500 rev 0x1030, full speed, 4-byte reports, 100 mA, serial BKL00001");
	drain(&p);
	r = write(fd, pins, 4);
	ktap_ok(r == 4 && find_ctl(&p, 0x09, -1, &m) &&
		m.setup.bRequest == 0x09 && m.setup.wValue == 0x0200 &&
		m.len == 4 && !memcmp(m.data, pins, 4),
		"iowarrior: write() of a 4-byte report returns 4, sent as SET_REPORT output 0x0200");
	ktap_ok(!ioctl(fd, IOW_WRITE, pins2) &&
		find_ctl(&p, 0x09, -1, &m) && m.len == 4 &&
		!memcmp(m.data, pins2, 4),
		"iowarrior: IOW_WRITE sends the report with SET_REPORT too");
	memset(buf, 0, sizeof(buf));
	ktap_ok(!ioctl(fd, IOW_READ, buf) && buf[0] == 0xef && buf[3] == 0x7f,
		"iowarrior: IOW_READ returns the device's GET_REPORT answer");
	fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	ktap_ok(fails(read(fd, buf, 4), EAGAIN) && fails(read(fd, buf, 3), EINVAL) &&
		poll_now(fd, POLLIN | POLLOUT) == POLLOUT && lseek(fd, 7, SEEK_SET) == 0,
		"iowarrior: nothing received: read EAGAIN, a 3-byte read EINVAL, poll writable only, lseek 0 (noop_llseek)");
	fcntl(fd, F_SETFL, fl);
	rd_send(p.e, 0, rep, 4);
	r = timed_read(fd, buf, 5, 3000);
	ktap_ok(r == 5 && !memcmp(buf, rep, 4) && buf[4] == 0,
		"iowarrior: read() of 5 bytes returns the interrupt report and its serial number 0");
	unplug_reading(&p, fd, 4, 300, -1, ENODEV, 0,
		       "iowarrior_read() waits for !present holding dev->mutex, which iowarrior_disconnect() takes to clear it");
	stale_read(&p, fd, 4, ENODEV, 0);
out:
	unplug(&p);
}

/* ---- adutux ------------------------------------------------------------- */

static uint8_t case_swapped(uint8_t c)
{
	return c ^ 0x20;
}

/* ADU commands come back with their letters' case swapped. */
static void adu_out(struct rd_emu *e, unsigned int i, const uint8_t *d,
		    unsigned int len)
{
	(void)i;
	echo_mapped(e, d, len, case_swapped);
}

static const struct rd_device adu100 = {
	.name = "adutux", .vid = 0x0a07, .pid = 0x0064, .bcd = 0x0100,
	.if_class = 0xff,
	.manufacturer = "Ontrak", .product = "ADU100",
	.nep = 2, .ep = {
		{ 0x85, USB_ENDPOINT_XFER_INT, 8, 2 },
		{ 0x03, USB_ENDPOINT_XFER_INT, 8, 2 },
	},
	.out = adu_out,
};

#define ADU_CASES 6

static void test_adutux(void)
{
	struct plug p = { .dev = &adu100, .driver = "adutux" };
	uint8_t buf[8];
	struct rd_msg m;
	ssize_t r;
	int fd;

	if (!plug_in(&p, NULL))
		goto out;
	fd = open_node(&p, O_RDWR);
	ktap_ok(fd >= 0 && fails(open(p.path, O_RDWR), EBUSY) &&
		lseek(fd, 3, SEEK_SET) == 0,
		"adutux: a second open() fails with EBUSY; lseek 0 (noop_llseek)");
	drain(&p);
	r = write(fd, "RPA\r", 4);
	ktap_ok(r == 4 && rd_next(p.e, RD_OUT, 1, 3000, &m) && m.len == 4 &&
		!memcmp(m.data, "RPA\r", 4),
		"adutux: write() of 'RPA\\r' returns 4 and the ADU gets it on its interrupt OUT");
	r = timed_read(fd, buf, 4, 3000);
	ktap_ok(r == 4 && !memcmp(buf, "rpa-", 4),
		"adutux: read() of 4 bytes returns the ADU's answer");
	unplug_reading(&p, fd, 8, 300, -1, ENODEV, 0, "adu_read() sees the device gone");
	stale_read(&p, fd, 8, ENODEV, 0);
out:
	unplug(&p);
}

/* ---- idmouse ------------------------------------------------------------ */

#define ID_W 225
#define ID_H 289
#define ID_PIXELS (ID_W * ID_H)
#define ID_HEADER "P5 225 289 255 "

static unsigned int id_pos;

/* A fingerprint: black right border, white bottom row, a pattern inside. */
static uint8_t id_pixel(unsigned int i)
{
	unsigned int x = i % ID_W, y = i / ID_W;

	if (x == ID_W - 1)
		return 0x00;
	if (y == ID_H - 1)
		return 0xff;
	return (x * 3 + y * 5) & 0x7f;
}

/* The image in 512-byte transfers (the driver's read size), over again. */
static int id_fill(struct rd_emu *e, unsigned int i, uint8_t *buf,
		   unsigned int max)
{
	unsigned int n = 0;

	(void)e;
	(void)i;
	(void)max;
	while (n < 512 && id_pos < ID_PIXELS)
		buf[n++] = id_pixel(id_pos++);
	if (id_pos == ID_PIXELS)
		id_pos = 0;
	return n;
}

static int id_control(struct rd_emu *e, const struct usb_ctrlrequest *c,
		      const uint8_t *out, unsigned int outlen, uint8_t *in)
{
	(void)e;
	(void)out;
	(void)outlen;
	(void)in;
	/* FTIP_RESET .. FTIP_SCROLL, vendor requests to the endpoint */
	return c->bRequestType == (USB_TYPE_VENDOR | USB_RECIP_ENDPOINT) &&
	       c->bRequest >= 0x20 && c->bRequest <= 0x24 ? 0 : -1;
}

static const struct rd_device idmouse = {
	.name = "idmouse", .vid = 0x0681, .pid = 0x0005, .bcd = 0x0100,
	.if_class = 0x0a,
	.manufacturer = "Siemens", .product = "ID Mouse",
	.nep = 1, .ep = { { 0x81, USB_ENDPOINT_XFER_BULK, 64, 0 } },
	.control = id_control,
	.fill = id_fill,
};

#define IDMOUSE_CASES 7

static void test_idmouse(void)
{
	struct plug p = { .dev = &idmouse, .driver = "idmouse" };
	static const uint8_t ftip[7] = { 0x22, 0x23, 0x21, 0x21, 0x20, 0x20, 0x22 };
	static uint8_t img[sizeof(ID_HEADER) - 1 + ID_PIXELS + 16];
	unsigned int i, n = 0;
	struct rd_msg m;
	ssize_t r;
	int fd, ok;

	if (!plug_in(&p, NULL))
		goto out;
	drain(&p);
	fd = open_node(&p, O_RDONLY);
	while (n < sizeof(ftip) && rd_next(p.e, RD_CONTROL, 0, 2000, &m) &&
	       m.setup.bRequest == ftip[n])
		n++;
	ktap_ok(fd >= 0 && n == sizeof(ftip),
		"idmouse: open() scans a finger: RELEASE, BLINK, ACQUIRE x2, RESET x2, then RELEASE (%u of 7 requests)",
		n);
	r = read(fd, img, sizeof(img));
	ok = r == (ssize_t)(sizeof(ID_HEADER) - 1 + ID_PIXELS) &&
	     !memcmp(img, ID_HEADER, sizeof(ID_HEADER) - 1);
	for (i = 0; ok && i < ID_PIXELS; i++)
		ok = img[sizeof(ID_HEADER) - 1 + i] == id_pixel(i);
	ktap_ok(ok, "idmouse: read() returns the PGM image: header '" ID_HEADER "' and the 65025 pixels sent");
	ktap_ok(read(fd, img, 16) == 0,
		"idmouse: read() at the end of the image returns 0");
	ktap_ok(lseek(fd, 3, SEEK_SET) == 3 && read(fd, img, 3) == 3 &&
		!memcmp(img, "225", 3) && lseek(fd, 0, SEEK_CUR) == 6,
		"idmouse: lseek(3) then read(3) gives '225' and the position 6 (default_llseek)");
	ktap_ok(fails(open(p.path, O_RDONLY), EBUSY),
		"idmouse: a second open() fails with EBUSY");
	unplug(&p);
	stale_read(&p, fd, 8, ENODEV, 0);
out:
	unplug(&p);
}

/* ---- usblcd ------------------------------------------------------------- */

static uint8_t upper_case(uint8_t c)
{
	return c >= 'a' && c <= 'z' ? c - 32 : c;
}

static void lcd_out(struct rd_emu *e, unsigned int i, const uint8_t *d,
		    unsigned int len)
{
	(void)i;
	echo_mapped(e, d, len, upper_case);
}

static const struct rd_device usblcd = {
	.name = "usblcd", .vid = 0x10d2, .pid = 0x0001, .bcd = 0x0123,
	.if_class = 0xff,
	.manufacturer = "USBLCD", .product = "USB LCD",
	.nep = 2, .ep = {
		{ 0x81, USB_ENDPOINT_XFER_BULK, 64, 0 },
		{ 0x02, USB_ENDPOINT_XFER_BULK, 64, 0 },
	},
	.out = lcd_out,
};

#define LCD_CASES 7

static void test_usblcd(void)
{
	struct plug p = { .dev = &usblcd, .driver = "usblcd" };
	char buf[64], got[32];
	struct rd_msg m;
	ssize_t r;
	int fd, ok;

	if (!plug_in(&p, NULL))
		goto out;
	fd = open_node(&p, O_RDWR);
	memset(buf, 0, sizeof(buf));
	ktap_ok(fd >= 0 && !ioctl(fd, 1, buf) && !strcmp(buf, "01.23"),
		"usblcd: IOCTL_GET_HARD_VERSION gives bcdDevice as '01.23' (got '%s')", buf);
	/*
	 * IOCTL_GET_DRV_VERSION is 2, which is also FIGETBSZ (_IO(0, 2)):
	 * do_vfs_ioctl() answers it with the block size of the node's
	 * file system (devtmpfs: 4096) and lcd_ioctl() never sees it.
	 */
	memset(buf, 0, sizeof(buf));
	{
		int bsz = 0;

		ok = !ioctl(fd, 2, buf);
		memcpy(&bsz, buf, sizeof(bsz));
		r = ioctl(fd, 3, buf);
		if (!ok || bsz != 4096 || !fails(r, ENOTTY))
			ktap_diag("usblcd: ioctl 2 gave %d, ioctl 3 %s", bsz,
				  res(r, errno, got, sizeof(got)));
		ktap_ok(ok && bsz == 4096 && fails(r, ENOTTY) &&
			lseek(fd, 9, SEEK_SET) == 0,
			"usblcd: IOCTL_GET_DRV_VERSION (2) is FIGETBSZ to the VFS: the int 4096, not the version; ioctl 3 ENOTTY; lseek 0 (noop_llseek)");
	}
	drain(&p);
	r = write(fd, "hello, lcd", 10);
	ktap_ok(r == 10 && rd_next(p.e, RD_OUT, 1, 3000, &m) && m.len == 10 &&
		!memcmp(m.data, "hello, lcd", 10),
		"usblcd: write() of 10 bytes returns 10 and the LCD gets them on its bulk OUT");
	r = timed_read(fd, buf, sizeof(buf), 3000);
	ktap_ok(r == 10 && !memcmp(buf, "HELLO, LCD", 10),
		"usblcd: read() returns the LCD's 10-byte bulk IN answer");
	unplug_reading(&p, fd, sizeof(buf), 300, -1, EPROTO, ESHUTDOWN,
		       "the bulk URB fails: EPROTO when dummy_hcd's timer finds the endpoint gone first, ESHUTDOWN when the hub's disconnect flushes it first");
	stale_read(&p, fd, 8, ENODEV, 0);
out:
	unplug(&p);
}

/* ---- yurex -------------------------------------------------------------- */

/* Every command (SET_REPORT output 1) is acknowledged with '!' and it. */
static int yurex_control(struct rd_emu *e, const struct usb_ctrlrequest *c,
			 const uint8_t *out, unsigned int outlen, uint8_t *in)
{
	uint8_t ack[8] = { '!', 0, 0x0d, 0xff, 0xff, 0xff, 0xff, 0xff };
	/* CMD_READ answers the count first: 0x000000012c = 300 */
	static const uint8_t count[8] = { 'R', 0, 0, 0, 0x01, 0x2c, 0x0d, 0xff };

	(void)in;
	if (c->bRequestType != (USB_TYPE_CLASS | USB_RECIP_INTERFACE) ||
	    c->bRequest != 0x09 || outlen != 8)
		return -1;
	if (out[0] == 'R')
		rd_send(e, 0, count, 8);
	ack[1] = out[0];
	rd_send(e, 0, ack, 8);
	return 0;
}

static const struct rd_device yurex = {
	.name = "yurex", .vid = 0x0c45, .pid = 0x1010, .bcd = 0x0100,
	.if_class = 0xff,
	.manufacturer = "Meat Kitchen", .product = "YUREX",
	.nep = 1, .ep = { { 0x85, USB_ENDPOINT_XFER_INT, 8, 1 } },
	.control = yurex_control,
};

#define YUREX_CASES 8

static int read_at0(int fd, char *buf, size_t n)
{
	ssize_t r;

	if (lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	r = read(fd, buf, n - 1);
	buf[r > 0 ? r : 0] = '\0';
	return r;
}

static void test_yurex(void)
{
	struct plug p = { .dev = &yurex, .driver = "yurex" };
	static const uint8_t tick[8] = { 'C', 0, 0, 0, 0x10, 0x00, 0x0d, 0xff };
	struct timespec ts = { .tv_sec = 3 };
	char buf[32];
	struct rd_msg m;
	sigset_t io;
	int fd, sig;

	if (!plug_in(&p, NULL))
		goto out;
	fd = open_node(&p, O_RDWR);
	ktap_ok(fd >= 0 && read_at0(fd, buf, sizeof(buf)) == 3 && !strcmp(buf, "-1\n"),
		"yurex: read() before any count: '-1\\n'");
	/* a count report raises SIGIO through yurex_fasync */
	sigemptyset(&io);
	sigaddset(&io, SIGIO);
	sigprocmask(SIG_BLOCK, &io, NULL);
	fcntl(fd, F_SETOWN, getpid());
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC);
	rd_send(p.e, 0, tick, 8);
	sig = sigtimedwait(&io, NULL, &ts);
	ktap_ok(sig == SIGIO && read_at0(fd, buf, sizeof(buf)) == 5 &&
		!strcmp(buf, "4096\n"),
		"yurex: the device's count report 0x1000 raises SIGIO and read() gives '4096\\n'");
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_ASYNC);
	sigprocmask(SIG_UNBLOCK, &io, NULL);
	drain(&p);
	ktap_ok(write(fd, "S123", 4) == 4 && find_ctl(&p, 0x09, 'S', &m) &&
		m.len == 8 && m.data[0] == 'S' && m.data[5] == 123 &&
		read_at0(fd, buf, sizeof(buf)) == 4 && !strcmp(buf, "123\n"),
		"yurex: write('S123') is sent as SET_REPORT, acknowledged, and read() gives '123\\n'");
	ktap_ok(write(fd, "R", 1) == 1 && read_at0(fd, buf, sizeof(buf)) == 4 &&
		!strcmp(buf, "300\n"),
		"yurex: write('R') asks the count: the device answers 300, read() gives '300\\n'");
	ktap_ok(fails(write(fd, "x", 1), EINVAL) && lseek(fd, 2, SEEK_SET) == 2 &&
		read(fd, buf, 8) == 2,
		"yurex: an unknown command fails with EINVAL; lseek(2) then read() gives the last 2 bytes");
	unplug(&p);
	ktap_ok(fails(write(fd, "V", 1), ENODEV),
		"yurex: after the unplug write() on the open file fails with ENODEV");
	stale_read(&p, fd, 8, ENODEV, 0);
out:
	unplug(&p);
}

/* ---- mdc800 ------------------------------------------------------------- */

static const struct rd_device mdc800 = {
	.name = "mdc800", .vid = 0x055f, .pid = 0xa800, .bcd = 0x0100,
	.if_class = 0xff,
	.manufacturer = "Mustek", .product = "MDC800",
	.nep = 4, .ep = {
		{ 0x01, USB_ENDPOINT_XFER_BULK, 8, 0 },
		{ 0x82, USB_ENDPOINT_XFER_INT, 8, 10 },
		{ 0x03, USB_ENDPOINT_XFER_BULK, 64, 0 },
		{ 0x84, USB_ENDPOINT_XFER_BULK, 64, 0 },
	},
};

#define MDC800_CASES 7

struct writer {
	int fd;
	const void *buf;
	size_t len;
	ssize_t r;
	int err;
	int done[2];
};

static void *writer_run(void *arg)
{
	struct writer *w = arg;

	w->r = write(w->fd, w->buf, w->len);
	w->err = errno;
	if (write(w->done[1], "x", 1) < 0)
		w->err = errno;
	return NULL;
}

static void test_mdc800(void)
{
	struct plug p = { .dev = &mdc800, .driver = "mdc800" };
	/* 0x09: download the thumbnail (4096 bytes and a 64-byte trailer) */
	static const uint8_t thumb[8] = { 0x55, 0x09, 0, 0, 0, 0, 0, 0 };
	static const uint8_t ready[8] = { 0xbb, 0xbb, 0xbb, 0xbb, 0xbb, 0xbb, 0xbb, 0xbb };
	struct writer w = { .buf = thumb, .len = 8 };
	uint8_t data[64], buf[64];
	struct pollfd q;
	struct rd_msg m;
	pthread_t t;
	int fd, i;

	if (!plug_in(&p, NULL))
		goto out;
	fd = open_node(&p, O_RDWR);
	ktap_ok(fd >= 0 && fails(open(p.path, O_RDWR), EBUSY) &&
		lseek(fd, 5, SEEK_SET) == 0 && fails(read(fd, buf, 8), EIO),
		"mdc800: second open() EBUSY, lseek 0 (noop_llseek), read() with no answer EIO");
	/*
	 * The interrupt URB is submitted once, at open(), and its handler
	 * does not resubmit it: the camera's one "ready" report must come
	 * while write() waits for it.
	 */
	drain(&p);
	w.fd = fd;
	if (pipe2(w.done, O_CLOEXEC) || pthread_create(&t, NULL, writer_run, &w))
		ktap_bail("writer thread");
	q.fd = w.done[0];
	q.events = POLLIN;
	poll(&q, 1, 300);
	rd_send(p.e, 1, ready, 8);
	poll(&q, 1, 5000);
	pthread_join(t, NULL);
	close(w.done[0]);
	close(w.done[1]);
	ktap_ok(w.r == 8 && rd_next(p.e, RD_OUT, 0, 1000, &m) && m.len == 8 &&
		!memcmp(m.data, thumb, 8),
		"mdc800: write() of the 8-byte thumbnail command returns 8 after the ready report; the camera gets it on bulk OUT 0x01");
	for (i = 0; i < 64; i++)
		data[i] = i * 7;
	rd_send(p.e, 3, data, 64);
	ktap_ok(timed_read(fd, buf, 64, 3000) == 64 && !memcmp(buf, data, 64),
		"mdc800: read() of 64 bytes downloads them from bulk IN 0x84");
	ktap_ok(fails(write(fd, thumb, 8), EBUSY),
		"mdc800: write() while the download is in progress fails with EBUSY");
	unplug_reading(&p, fd, 64, 300, 0, 0, 0,
		       "the download URB fails; nothing was read");
	stale_read(&p, fd, 8, EBUSY, 0);
out:
	unplug(&p);
}

/* ---- pcwd_usb ----------------------------------------------------------- */

static unsigned int pcwd_heartbeat = 0xffff;

/* SET_REPORT commands; the answer comes on the interrupt IN endpoint. */
static int pcwd_control(struct rd_emu *e, const struct usb_ctrlrequest *c,
			const uint8_t *out, unsigned int outlen, uint8_t *in)
{
	uint8_t r[6] = { 0 };

	(void)in;
	if (c->bRequest != 0x09 || outlen != 6)
		return -1;
	r[0] = out[0];
	switch (out[0]) {
	case 0x02:			/* READ_TEMP: 25 C */
		r[2] = 25;
		break;
	case 0x08:			/* GET_FIRMWARE_VERSION */
		r[1] = 1;
		r[2] = 2;
		break;
	case 0x0c:			/* DIP switches: 30 s */
		r[2] = 0x02;
		break;
	case 0x18:			/* READ_WATCHDOG_TIMEOUT */
		r[1] = pcwd_heartbeat >> 8;
		r[2] = pcwd_heartbeat & 0xff;
		break;
	case 0x19:			/* WRITE_WATCHDOG_TIMEOUT */
		pcwd_heartbeat = out[1] << 8 | out[2];
		r[1] = out[1];
		r[2] = out[2];
		break;
	case 0x30:			/* ENABLE / DISABLE (0xa5c3) */
		r[2] = out[1] == 0xa5 && out[2] == 0xc3 ? 0 : 1;
		break;
	}
	rd_send(e, 0, r, 6);
	return 0;
}

static const struct rd_device pcwd = {
	.name = "pcwd_usb", .vid = 0x0c98, .pid = 0x1140, .bcd = 0x0100,
	.if_class = USB_CLASS_HID,
	.manufacturer = "Berkshire Products", .product = "USB-PC Watchdog",
	.nep = 1, .ep = { { 0x85, USB_ENDPOINT_XFER_INT, 8, 1 } },
	.control = pcwd_control,
};

#define PCWD_CASES 13

/* The watchdog command cmd reached the card (its 6-byte SET_REPORT). */
static int pcwd_cmd(struct plug *p, int cmd, struct rd_msg *m)
{
	return find_ctl(p, 0x09, cmd, m) && m->len == 6;
}

/*
 * A card's probe starts with a disable (0x30 a5 c3) and ends with its
 * heartbeat command (0x19). When the emulator lags behind a loaded guest
 * ("Card did not acknowledge disable attempt") their reports may still be
 * arriving after plug_in(), and the disable would be taken for open()'s
 * command: take everything up to the heartbeat. 1 when it came.
 */
static int pcwd_probed(struct plug *p, const char *which)
{
	struct rd_msg m;

	if (pcwd_cmd(p, 0x19, &m))
		return 1;
	ktap_diag("pcwd_usb: the %s card's probe sent no heartbeat", which);
	return 0;
}

/*
 * A child that holds /dev/watchdog open and nobody else does (the next
 * card's emulator is forked later and must not inherit it): it opens the
 * node, says so on ready, and on the go byte uses the file, by then the
 * file of an unplugged card: the keepalive ioctl, the magic 'V' and the
 * release. Its exit status 0 means it got through them; a kernel oops
 * kills it instead.
 */
struct pcwd_holder {
	pid_t pid;
	int go;		/* write end: the child's go */
};

static int pcwd_holder_start(struct pcwd_holder *h, const char *node)
{
	int ready[2], go[2];
	char c = 1;

	h->pid = -1;
	h->go = -1;
	if (pipe2(ready, O_CLOEXEC))
		return 0;
	if (pipe2(go, O_CLOEXEC)) {
		close(ready[0]);
		close(ready[1]);
		return 0;
	}
	fflush(stdout);
	h->pid = fork();
	if (h->pid == 0) {
		int fd = open(node, O_WRONLY | O_CLOEXEC);

		alarm(0);
		c = fd < 0;
		if (write(ready[1], &c, 1) != 1 || fd < 0 ||
		    read(go[0], &c, 1) != 1)
			_exit(2);
		ioctl(fd, WDIOC_KEEPALIVE, 0);
		if (write(fd, "V", 1) < 0)
			errno = 0;
		_exit(close(fd) ? 3 : 0);
	}
	close(ready[1]);
	close(go[0]);
	h->go = go[1];
	if (h->pid < 0 || read(ready[0], &c, 1) != 1)
		c = 1;
	close(ready[0]);
	return !c;
}

/* Lets the holder go (go) or not, and waits for it: 1 when it exited 0. */
static int pcwd_holder_end(struct pcwd_holder *h, int go)
{
	int status = 0;

	if (go && write(h->go, "g", 1) != 1)
		ktap_perror("pcwd_usb: holder's go");
	close(h->go);
	if (h->pid < 0)
		return 0;
	if (!run_reap(h->pid, 10000, &status)) {
		kill(h->pid, SIGKILL);
		waitpid(h->pid, &status, 0);
		ktap_diag("pcwd_usb: the old file's operations hang");
		return 0;
	}
	if (WIFSIGNALED(status))
		ktap_diag("pcwd_usb: the old file's user killed by signal %d",
			  WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void test_pcwd(void)
{
	struct plug p = { .dev = &pcwd, .driver = "pcwd_usb", .node = "/dev/watchdog" };
	struct watchdog_info wi = { 0 };
	struct pcwd_holder holder;
	struct rd_msg m;
	int fd, t, ok, v = -1;
	uint8_t temp = 0;

	if (!plug_in(&p, NULL))
		goto out;
	pcwd_probed(&p, "first");
	drain(&p);
	fd = open_node(&p, O_WRONLY);
	ktap_ok(fd >= 0 && pcwd_cmd(&p, 0x30, &m) && m.data[1] == 0 &&
		pcwd_cmd(&p, 0x02, &m),
		"pcwd_usb: open() enables the card (0x30 00 00) and triggers it (0x02)");
	ktap_ok(!ioctl(fd, WDIOC_GETSUPPORT, &wi) &&
		!strcmp((char *)wi.identity, "pcwd_usb") && wi.firmware_version == 1 &&
		wi.options == (WDIOF_KEEPALIVEPING | WDIOF_SETTIMEOUT | WDIOF_MAGICCLOSE),
		"pcwd_usb: WDIOC_GETSUPPORT: 'pcwd_usb', firmware 1, keepalive, settimeout, magicclose");
	t = -1;
	ok = !ioctl(fd, WDIOC_GETTIMEOUT, &v) && !ioctl(fd, WDIOC_GETSTATUS, &t);
	if (v != 30 || t)
		ktap_diag("pcwd_usb: timeout %d, status %d", v, t);
	ktap_ok(ok && v == 30 && t == 0,
		"pcwd_usb: WDIOC_GETTIMEOUT 30 (the DIP switches' heartbeat), GETSTATUS 0");
	drain(&p);
	ktap_ok(!ioctl(fd, WDIOC_KEEPALIVE, 0) && pcwd_cmd(&p, 0x02, &m),
		"pcwd_usb: WDIOC_KEEPALIVE sends the trigger command 0x02");
	v = 60;
	ktap_ok(!ioctl(fd, WDIOC_SETTIMEOUT, &v) && v == 60 &&
		pcwd_cmd(&p, 0x19, &m) && m.data[2] == 60 &&
		!ioctl(fd, WDIOC_GETTIMELEFT, &t) && t == 60,
		"pcwd_usb: WDIOC_SETTIMEOUT 60 writes it to the card, WDIOC_GETTIMELEFT reads back 60");
	v = 0;
	ktap_ok(!ioctl(fd, WDIOC_GETTEMP, &v) && v == 77,
		"pcwd_usb: WDIOC_GETTEMP: the card's 25 C is 77 F");
	{
		int tfd = open("/dev/temperature", O_RDONLY | O_CLOEXEC);

		ktap_ok(tfd >= 0 && read(tfd, &temp, 1) == 1 && temp == 77 &&
			fails(lseek(tfd, 0, SEEK_SET), ESPIPE),
			"pcwd_usb: /dev/temperature reads one byte, 77; lseek ESPIPE");
		if (tfd >= 0)
			close(tfd);
	}
	ktap_ok(fails(lseek(fd, 0, SEEK_SET), ESPIPE) &&
		fails(ioctl(fd, WDIOC_GETPRETIMEOUT, &v), ENOTTY),
		"pcwd_usb: lseek ESPIPE, WDIOC_GETPRETIMEOUT ENOTTY");
	drain(&p);
	ktap_ok(write(fd, "V", 1) == 1 && pcwd_cmd(&p, 0x02, &m) && !close(fd) &&
		pcwd_cmd(&p, 0x30, &m) && m.data[1] == 0xa5 && m.data[2] == 0xc3,
		"pcwd_usb: writing the magic 'V' pings it; close() then disables the card (0x30 a5 c3)");
	drain(&p);
	ok = pcwd_holder_start(&holder, p.path) && pcwd_cmd(&p, 0x30, &m) &&
	     unplug(&p);
	if (!plug_in(&p, NULL)) {
		pcwd_holder_end(&holder, 0);
		ktap_ok(0, "pcwd_usb: no second card to plug in");
		goto out;
	}
	if (!pcwd_probed(&p, "new"))
		ok = 0;
	ktap_ok(pcwd_holder_end(&holder, 1) && ok,
		"pcwd_usb: unplugged with /dev/watchdog open, another card plugged in: keepalive, 'V' and close() on the old file end cleanly");
	fd = open_node(&p, O_WRONLY);
	ok = fd >= 0;
	while (ok && (ok = pcwd_cmd(&p, -1, &m)) &&
	       (m.data[0] != 0x30 || m.data[1])) {
		ktap_diag("pcwd_usb: the new card got %02x %02x %02x before its open's enable",
			  m.data[0], m.data[1], m.data[2]);
		ok = 0;
	}
	ktap_ok(ok, "pcwd_usb: the old file sent the new card nothing: its first command is its own open's enable (0x30 00 00)");
	if (fd >= 0 && write(fd, "V", 1) == 1)
		close(fd);
out:
	unplug(&p);
}

/* ---- cdc-wdm ------------------------------------------------------------ */

static uint8_t wdm_cmd[64];
static unsigned int wdm_len;

static int wdm_control(struct rd_emu *e, const struct usb_ctrlrequest *c,
		       const uint8_t *out, unsigned int outlen, uint8_t *in)
{
	/* RESPONSE_AVAILABLE for interface 0 */
	static const uint8_t avail[8] = { 0xa1, 0x01, 0, 0, 0, 0, 0, 0 };

	if (c->bRequest == 0x00 && outlen && outlen <= sizeof(wdm_cmd)) {
		memcpy(wdm_cmd, out, outlen);
		wdm_len = outlen;
		rd_send(e, 0, avail, sizeof(avail));
		return 0;
	}
	if (c->bRequest == 0x01 && c->bRequestType & USB_DIR_IN) {
		unsigned int n = 0;

		if (wdm_len) {
			memcpy(in, "re:", 3);
			memcpy(in + 3, wdm_cmd, wdm_len);
			n = 3 + wdm_len;
			wdm_len = 0;
		}
		return n;
	}
	return -1;
}

/* CDC header and DMM functional descriptors, wMaxCommand 256 */
static const uint8_t wdm_extra[] = {
	5, 0x24, 0x00, 0x10, 0x01,
	7, 0x24, 0x14, 0x00, 0x01, 0x00, 0x01,
};

static const struct rd_device wdm = {
	.name = "cdc-wdm", .vid = 0x1209, .pid = 0x0001, .bcd = 0x0100,
	.if_class = USB_CLASS_COMM, .if_subclass = 0x09, .if_protocol = 0,
	.extra = wdm_extra, .extra_len = sizeof(wdm_extra),
	.manufacturer = "bklfree", .product = "WDM test device",
	.nep = 1, .ep = { { 0x85, USB_ENDPOINT_XFER_INT, 16, 5 } },
	.control = wdm_control,
};

#define WDM_CASES 8

static void test_wdm(void)
{
	struct plug p = { .dev = &wdm, .driver = "cdc_wdm" };
	uint16_t max = 0;
	char buf[300];
	struct rd_msg m;
	ssize_t r;
	int fd, fl;

	if (!plug_in(&p, NULL))
		goto out;
	fd = open_node(&p, O_RDWR);
	ktap_ok(fd >= 0 && !ioctl(fd, IOCTL_WDM_MAX_COMMAND, &max) && max == 256 &&
		fails(ioctl(fd, _IO('H', 0xa1)), ENOTTY),
		"cdc-wdm: IOCTL_WDM_MAX_COMMAND gives the DMM descriptor's 256, other ioctls ENOTTY");
	fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	ktap_ok(fails(read(fd, buf, sizeof(buf)), EAGAIN) &&
		poll_now(fd, POLLIN | POLLOUT) == POLLOUT &&
		lseek(fd, 4, SEEK_SET) == 0,
		"cdc-wdm: nothing to read: read EAGAIN, poll writable only, lseek 0 (noop_llseek)");
	fcntl(fd, F_SETFL, fl);
	drain(&p);
	r = write(fd, "AT+CGMI\r", 8);
	ktap_ok(r == 8 && find_ctl(&p, 0x00, -1, &m) &&
		m.setup.bRequest == 0 && m.len == 8 && !memcmp(m.data, "AT+CGMI\r", 8),
		"cdc-wdm: write() sends SEND_ENCAPSULATED_COMMAND with the 8 bytes");
	r = timed_read(fd, buf, sizeof(buf), 3000);
	ktap_ok(r == 11 && !memcmp(buf, "re:AT+CGMI\r", 11),
		"cdc-wdm: after RESPONSE_AVAILABLE read() returns GET_ENCAPSULATED_RESPONSE's 11 bytes");
	unplug_reading(&p, fd, sizeof(buf), 300, -1, ENODEV, 0,
		       "wdm_disconnect() sets WDM_DISCONNECTING and wakes the reader");
	ktap_ok(poll_now(fd, POLLIN | POLLOUT) == (POLLERR | POLLHUP),
		"cdc-wdm: after the unplug poll gives POLLERR | POLLHUP");
	stale_read(&p, fd, 8, ENODEV, ENODEV);
out:
	unplug(&p);
}

/* ---- usbtmc ------------------------------------------------------------- */

static char tmc_last[64];

static int tmc_control(struct rd_emu *e, const struct usb_ctrlrequest *c,
		       const uint8_t *out, unsigned int outlen, uint8_t *in)
{
	(void)e;
	(void)out;
	(void)outlen;
	if (!(c->bRequestType & USB_DIR_IN))
		return -1;
	memset(in, 0, c->wLength);
	switch (c->bRequest) {
	case 7:				/* GET_CAPABILITIES */
		in[0] = 1;		/* STATUS_SUCCESS */
		in[2] = 0x00;		/* bcdUSBTMC 1.00 */
		in[3] = 0x01;
		in[4] = 0x04;		/* indicator pulse */
		in[5] = 0x01;		/* TermChar */
		return 0x18;
	case 64:			/* INDICATOR_PULSE */
	case 5:				/* INITIATE_CLEAR */
		in[0] = 1;
		return 1;
	case 6:				/* CHECK_CLEAR_STATUS */
		in[0] = 1;
		return 2;
	}
	return -1;
}

/* Bulk OUT: DEV_DEP_MSG_OUT is kept; REQUEST_DEV_DEP_MSG_IN is answered. */
static void tmc_out(struct rd_emu *e, unsigned int i, const uint8_t *d,
		    unsigned int len)
{
	uint8_t r[12 + 64] = { 0 };
	const char *ans;
	unsigned int n, size;

	(void)i;
	if (len < 12)
		return;
	size = d[4] | d[5] << 8 | d[6] << 16 | (unsigned int)d[7] << 24;
	if (d[0] == 1 && size < sizeof(tmc_last) && 12 + size <= len) {
		memcpy(tmc_last, d + 12, size);
		tmc_last[size] = '\0';
	} else if (d[0] == 2 && tmc_last[0]) {
		/* a request with no query before it is never answered */
		ans = !strcmp(tmc_last, "*IDN?\n") ?
		      "BKLFREE,RAW-TMC,0,6.1\n" : "?\n";
		tmc_last[0] = '\0';
		n = strlen(ans);
		r[0] = 2;
		r[1] = d[1];
		r[2] = ~d[1];
		r[4] = n;
		r[8] = 1;		/* EOM */
		memcpy(r + 12, ans, n);
		rd_send(e, 0, r, 12 + ((n + 3) & ~3u));
	}
}

static const struct rd_device tmc = {
	.name = "usbtmc", .vid = 0x1209, .pid = 0x0002, .bcd = 0x0100,
	.if_class = USB_CLASS_APP_SPEC, .if_subclass = 3, .if_protocol = 0,
	.manufacturer = "bklfree", .product = "TMC test instrument",
	.nep = 2, .ep = {
		{ 0x81, USB_ENDPOINT_XFER_BULK, 64, 0 },
		{ 0x02, USB_ENDPOINT_XFER_BULK, 64, 0 },
	},
	.control = tmc_control,
	.out = tmc_out,
};

#define TMC_CASES 9

static void test_usbtmc(void)
{
	struct plug p = { .dev = &tmc, .driver = "usbtmc" };
	char buf[128], path[320];
	uint32_t v = 0, to = 0;
	unsigned char caps = 0xff;
	struct rd_msg m;
	ssize_t r;
	int fd;

	if (!plug_in(&p, NULL))
		goto out;
	/* the driver's attributes come after probe(), which made the node */
	snprintf(path, sizeof(path),
		 "/sys/bus/usb/devices/%s/interface_capabilities", p.intf);
	wait_for(file_there, path, 2000);
	buf[0] = '\0';
	ktap_ok(read_line(path, buf, sizeof(buf)) && !strcmp(buf, "4"),
		"usbtmc: GET_CAPABILITIES at probe: interface_capabilities 4 (indicator pulse), got '%s'",
		buf);
	fd = open_node(&p, O_RDWR);
	ktap_ok(fd >= 0 && !ioctl(fd, USBTMC_IOCTL_API_VERSION, &v) && v == 3 &&
		!ioctl(fd, USBTMC_IOCTL_GET_TIMEOUT, &to) && to == 5000 &&
		!ioctl(fd, USBTMC488_IOCTL_GET_CAPS, &caps) && caps == 0,
		"usbtmc: API_VERSION 3, GET_TIMEOUT 5000 ms, USB488 GET_CAPS 0");
	to = 1000;
	ktap_ok(!ioctl(fd, USBTMC_IOCTL_SET_TIMEOUT, &to) &&
		!ioctl(fd, USBTMC_IOCTL_GET_TIMEOUT, &v) && v == 1000 &&
		lseek(fd, 0, SEEK_CUR) == 0,
		"usbtmc: SET_TIMEOUT 1000 is read back; lseek 0");
	drain(&p);
	r = write(fd, "*IDN?\n", 6);
	ktap_ok(r == 6 && rd_next(p.e, RD_OUT, 1, 2000, &m) && m.len == 20 &&
		m.data[0] == 1 && (m.data[1] ^ m.data[2]) == 0xff && m.data[4] == 6 &&
		m.data[8] == 1 && !memcmp(m.data + 12, "*IDN?\n", 6),
		"usbtmc: write('*IDN?\\n') sends DEV_DEP_MSG_OUT: header (bTag, ~bTag, size 6, EOM) and the data padded to 20 bytes");
	r = timed_read(fd, buf, sizeof(buf), 3000);
	ktap_ok(r == 22 && !memcmp(buf, "BKLFREE,RAW-TMC,0,6.1\n", 22),
		"usbtmc: read() sends REQUEST_DEV_DEP_MSG_IN and returns the instrument's 22-byte answer");
	drain(&p);
	ktap_ok(!ioctl(fd, USBTMC_IOCTL_INDICATOR_PULSE) &&
		find_ctl(&p, 64, -1, &m) &&
		!ioctl(fd, USBTMC_IOCTL_CLEAR) &&
		find_ctl(&p, 5, -1, &m) && find_ctl(&p, 6, -1, &m),
		"usbtmc: INDICATOR_PULSE (request 64) and CLEAR (INITIATE_CLEAR, CHECK_CLEAR_STATUS) succeed");
	to = 5000;
	ioctl(fd, USBTMC_IOCTL_SET_TIMEOUT, &to);
	unplug_reading(&p, fd, sizeof(buf), 300, -1, EPROTO, ESHUTDOWN,
		       "the bulk URB fails: EPROTO when dummy_hcd's timer finds the endpoint gone first, ESHUTDOWN when the hub's disconnect flushes it first");
	stale_read(&p, fd, 8, ENODEV, 0);
out:
	unplug(&p);
}

/* ---- ftdi-elan (JTAG interface 0) --------------------------------------- */

static const struct rd_device ftdi = {
	.name = "ftdi-elan", .vid = 0x0403, .pid = 0xd6ea, .bcd = 0x0500,
	.if_class = 0xff,
	.manufacturer = "Elan", .product = "U132 adapter",
	.nep = 2, .ep = {
		{ 0x81, USB_ENDPOINT_XFER_BULK, 64, 0 },
		{ 0x02, USB_ENDPOINT_XFER_BULK, 64, 0 },
	},
};

#define FTDI_CASES 5

static void test_ftdi(void)
{
	struct plug p = { .dev = &ftdi, .driver = "ftdi-elan" };
	/* FTDI packets start with two modem status bytes */
	static const uint8_t pkt[6] = { 0x31, 0x60, 'J', 'T', 'A', 'G' };
	char buf[16];
	struct rd_msg m;
	int fd;

	if (!plug_in(&p, NULL))
		goto out;
	fd = open_node(&p, O_RDWR);
	drain(&p);
	ktap_ok(fd >= 0 && write(fd, "\x01\x02\x03", 3) == 3 &&
		rd_next(p.e, RD_OUT, 1, 2000, &m) && m.len == 3 &&
		!memcmp(m.data, "\x01\x02\x03", 3),
		"ftdi-elan: write() of 3 bytes returns 3 and the adapter gets them on bulk OUT 0x02");
	rd_send(p.e, 0, pkt, sizeof(pkt));
	ktap_ok(timed_read(fd, buf, 4, 3000) == 4 && !memcmp(buf, "JTAG", 4),
		"ftdi-elan: read() of 4 bytes returns the packet without its 2 status bytes");
	ktap_ok(fails(lseek(fd, 0, SEEK_SET), ESPIPE),
		"ftdi-elan: lseek fails with ESPIPE");
	/* a read with nothing to get gives up by itself after 6 x 50 ms */
	unplug(&p);
	stale_read(&p, fd, 8, ENODEV, 0);
out:
	unplug(&p);
}

/* ---- gnss-usb (drivers/gnss/usb.c, through drivers/gnss/core.c) -------- */

/*
 * A Sierra Wireless XM1210: a vendor interface with one bulk pair, the
 * receiver's NMEA sentences on bulk IN, commands taken on bulk OUT.
 */
static const struct rd_device gnss = {
	.name = "gnss-usb", .vid = 0x1199, .pid = 0xb000, .bcd = 0x0100,
	.if_class = 0xff,
	.manufacturer = "Sierra Wireless", .product = "XM1210",
	.nep = 2, .ep = {
		{ 0x81, USB_ENDPOINT_XFER_BULK, 64, 0 },
		{ 0x02, USB_ENDPOINT_XFER_BULK, 64, 0 },
	},
};

/*
 * one transfer each, none a multiple of wMaxPacketSize: its short last
 * packet completes the driver's 512-byte read URB
 */
static const char *const gnss_nmea[] = {
	"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n",
	"$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39\r\n",
	"$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n",
};

#define GNSS_CASES 9

static void test_gnss(void)
{
	struct plug p = { .dev = &gnss, .driver = "gnss-usb",
			  .node = "/dev/gnss0" };
	static const char cmd[] = "$PMTK220,1000*1F\r\n";
	char buf[512], want[512], path[320];
	size_t n = 0, got = 0;
	struct rd_msg m;
	unsigned int i;
	ssize_t r;
	int fd, fl, ok;

	if (!plug_in(&p, NULL))
		goto out;
	/* the gnss class device belongs to the interface, its type is NMEA */
	snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s/gnss/gnss0", p.intf);
	ok = !access(path, F_OK) && read_line("/sys/class/gnss/gnss0/type", buf,
					      sizeof(buf));
	ktap_ok(ok && !strcmp(buf, "NMEA"),
		"gnss-usb: gnss0 is the interface's class device, its type attribute reads NMEA (got '%s')",
		ok ? buf : "");
	fd = open_node(&p, O_RDWR);
	fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	ktap_ok(fd >= 0 && fails(read(fd, buf, sizeof(buf)), EAGAIN) &&
		poll_now(fd, POLLIN | POLLOUT) == 0,
		"gnss-usb: nothing received: read() EAGAIN, poll nothing (gnss_poll never sets POLLOUT)");
	/*
	 * gnss_open() calls stream_open(): no FMODE_LSEEK nor FMODE_PREAD,
	 * so lseek is ESPIPE whether ->llseek is no_llseek (6.1) or left
	 * out (patches/core 0015), and so is pread
	 */
	ktap_ok(fails(lseek(fd, 0, SEEK_SET), ESPIPE) &&
		fails(lseek(fd, 10, SEEK_CUR), ESPIPE) &&
		fails(pread(fd, buf, 8, 0), ESPIPE),
		"gnss-usb: lseek SEEK_SET and SEEK_CUR and pread fail with ESPIPE");
	fcntl(fd, F_SETFL, fl);
	for (i = 0; i < ARRAY_SIZE(gnss_nmea); i++) {
		size_t len = strlen(gnss_nmea[i]);

		memcpy(want + n, gnss_nmea[i], len);
		n += len;
		rd_send(p.e, 0, gnss_nmea[i], len);
	}
	/* the sentences arrive in as many reads as the URBs complete */
	{
		long long deadline = ktap_now_ms() + 3000;
		struct pollfd q = { .fd = fd,
				    .events = POLLIN | POLLRDNORM | POLLOUT };
		int first = -1;

		while (got < n && ktap_now_ms() < deadline) {
			q.revents = 0;
			if (poll(&q, 1, 500) <= 0)
				continue;
			if (first < 0)
				first = q.revents;
			r = read(fd, buf + got, sizeof(buf) - got);
			if (r <= 0)
				break;
			got += r;
		}
		ktap_ok(first == (POLLIN | POLLRDNORM),
			"gnss-usb: data queued: poll gives POLLIN | POLLRDNORM, not POLLOUT (got 0x%x)",
			first);
	}
	if (got != n || memcmp(buf, want, n))
		ktap_diag("gnss-usb: read %zu of %zu bytes: '%.*s'", got, n,
			  (int)got, buf);
	ktap_ok(got == n && !memcmp(buf, want, n),
		"gnss-usb: read() returns the receiver's three NMEA sentences from bulk IN, %zu bytes in order",
		n);
	drain(&p);
	r = write(fd, cmd, strlen(cmd));
	ktap_ok(r == (ssize_t)strlen(cmd) && rd_next(p.e, RD_OUT, 1, 3000, &m) &&
		m.len == strlen(cmd) && !memcmp(m.data, cmd, m.len) &&
		write(fd, cmd, 0) == 0,
		"gnss-usb: write() of a PMTK command returns %zu and the receiver gets it on bulk OUT; a 0-byte write returns 0",
		strlen(cmd));
	/* gnss_read() ends with 0 (end of file) once the device is gone */
	unplug_reading(&p, fd, sizeof(buf), 300, 0, 0, 0,
		       "gnss_deregister_device() sets ->disconnected and wakes the reader");
	{
		ssize_t rr = read(fd, buf, sizeof(buf));
		ssize_t w = write(fd, cmd, strlen(cmd));
		int werr = errno;
		short ev = poll_now(fd, POLLIN | POLLOUT);
		int seek = fails(lseek(fd, 0, SEEK_SET), ESPIPE);
		int c = fd >= 0 ? close(fd) : -1;

		if (rr != 0 || !(w < 0 && werr == EIO) || ev != POLLHUP ||
		    !seek || c)
			ktap_diag("gnss-usb: after the unplug read %zd, write %zd (%s), poll 0x%x, lseek ESPIPE %d, close %d",
				  rr, w, strerrorname_np(werr) ?: "?", ev, seek, c);
		ktap_ok(rr == 0 && w < 0 && werr == EIO && ev == POLLHUP &&
			seek && !c,
			"gnss-usb: after the unplug read() returns 0, write() EIO, poll POLLHUP, lseek ESPIPE; close() succeeds");
	}
out:
	unplug(&p);
}

/* ---- the run ------------------------------------------------------------ */

static const struct drv {
	const char *name;
	unsigned int cases;
	void (*run)(void);
} drvs[] = {
	{ "chaoskey", CHAOSKEY_CASES, test_chaoskey },
	{ "ldusb", LDUSB_CASES, test_ldusb },
	{ "legousbtower", TOWER_CASES, test_tower },
	{ "iowarrior", IOW_CASES, test_iowarrior },
	{ "adutux", ADU_CASES, test_adutux },
	{ "idmouse", IDMOUSE_CASES, test_idmouse },
	{ "usblcd", LCD_CASES, test_usblcd },
	{ "yurex", YUREX_CASES, test_yurex },
	{ "mdc800", MDC800_CASES, test_mdc800 },
	{ "pcwd_usb", PCWD_CASES, test_pcwd },
	{ "cdc-wdm", WDM_CASES, test_wdm },
	{ "usbtmc", TMC_CASES, test_usbtmc },
	{ "ftdi-elan", FTDI_CASES, test_ftdi },
	{ "gnss-usb", GNSS_CASES, test_gnss },
};

static void run(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	unsigned int i, want = 0;

	/* no SA_RESTART: the signal ends a read() left blocked */
	sigaction(SIGUSR1, &sa, NULL);
	for (i = 0; i < ARRAY_SIZE(drvs); i++) {
		long long t0 = ktap_now_ms();

		want += drvs[i].cases;
		drvs[i].run();
		while (ktap_count < want)
			ktap_ok(0, "%s: case not reached", drvs[i].name);
		if (ktap_count > want)
			ktap_bail("%s ran %u cases more than it plans",
				  drvs[i].name, ktap_count - want);
		ktap_diag("%s: %lld ms", drvs[i].name, ktap_now_ms() - t0);
	}
}

const struct ktap_test ktap_test = {
	.plan = CHAOSKEY_CASES + LDUSB_CASES + TOWER_CASES + IOW_CASES +
		ADU_CASES + IDMOUSE_CASES + LCD_CASES + YUREX_CASES +
		MDC800_CASES + PCWD_CASES + WDM_CASES + TMC_CASES + FTDI_CASES +
		GNSS_CASES,
	.devices = (const char *const[]){ "/dev/raw-gadget", NULL },
	.kconfig = (const char *const[]){ "CONFIG_USB_RAW_GADGET",
					  "CONFIG_USB_DUMMY_HCD", "CONFIG_GNSS_USB",
					  NULL },
	.timeout = 90,
	.upstream = "patches/core 0015 0044 0046 0109 0216 (gnss, usb, watchdog llseek)",
	.run = run,
};
