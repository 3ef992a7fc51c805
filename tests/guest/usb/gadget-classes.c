// SPDX-License-Identifier: GPL-2.0
/*
 * gadget-classes - USB class devices QEMU has no model for, made in the
 * guest: a configfs gadget (libcomposite) with a printer, an ACM serial
 * port, a HID boot keyboard and a FunctionFS interface is bound to
 * dummy_hcd's device side (dummy_udc.0); the host side of the same
 * dummy_hcd enumerates it and its class drivers bind: usblp
 * (/dev/usb/lp0), cdc-acm (/dev/ttyACM0), usbhid with hid-generic
 * (/dev/hidraw0 and an evdev keyboard), and usbfs for the vendor-class
 * FunctionFS interface. Each pair is then driven end to end:
 *
 *  - printer: usblp's IEEE 1284 device ID (IOCNR_GET_DEVICE_ID) is
 *    f_printer's pnp_string, bytes both ways between lp0 and g_printer0,
 *    and a status set with GADGET_SET_PRINTER_STATUS reads back with
 *    LPGETSTATUS;
 *  - ACM: bytes both ways between ttyACM0 and ttyGS0, both raw;
 *  - HID: input reports written to hidg0 arrive on hidraw0 and as key
 *    events on evdev, an output report written to hidraw0 (the LEDs)
 *    arrives on hidg0, and HIDIOCGRDESC is the report_desc of configfs;
 *  - FunctionFS (drivers/usb/gadget/function/f_fs.c, touched by the llseek
 *    series): descriptors and strings written to ep0, the ep0 event flow
 *    up to ENABLE, FUNCTIONFS_INTERFACE_REVMAP (ENODEV before the bind,
 *    EDOM for an interface of another function), a vendor control request
 *    of the host answered through ep0, bulk transfers both ways between
 *    ep1/ep2 and usbfs's USBDEVFS_BULK, lseek ESPIPE on ep0 and ep1.
 *
 * Then the unplug while open (issue 12): with a child blocked in read() on
 * each of lp0, ttyACM0 and hidraw0, the gadget is unbound (UDC emptied).
 * What each driver answers is pinned from its source: usblp_rtest() sees
 * !present and read fails with ENODEV, poll gives EPOLLHUP; cdc-acm hangs
 * the tty up (tty_port_tty_vhangup), so the read returns 0 (n_tty_read
 * stops on tty_hung_up_p), a write fails with EIO and poll gives EPOLLHUP
 * (hung_up_tty_fops); hidraw's read fails with EIO once !exist, poll gives
 * EPOLLHUP | EPOLLERR. FunctionFS's ep0 gets UNBIND; the host nodes go.
 *
 * Last, legacy gadgetfs (drivers/usb/gadget/legacy/inode.c, also touched
 * by the llseek series) on the freed UDC: its dummy_udc file (lseek
 * ESPIPE) takes a device and configuration descriptor blob, the host
 * enumerates 0525:a4a4 while the test answers ep0's events (the
 * SET_CONFIGURATION it must ack), and closing the file disconnects it.
 *
 * Every wait is bounded: poll() with a deadline, or ktap_wait_dev().
 */
#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <endian.h>
#include <linux/hidraw.h>
#include <linux/input.h>
#include <linux/lp.h>
#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>
#include <linux/usb/g_printer.h>
#include <linux/usbdevice_fs.h>

#include "ktap.h"
#include "pattern.h"

#define CFS		"/sys/kernel/config"
#define G		CFS "/usb_gadget/g1"
#define UDC_NAME	"dummy_udc.0"
#define FFS_DIR		"/tmp/ffs0"
#define GFS_DIR		"/tmp/gadgetfs"
#define GFS_EP0		GFS_DIR "/dummy_udc"

#define LP		"/dev/usb/lp0"
#define ACM		"/dev/ttyACM0"
#define HIDRAW		"/dev/hidraw0"
#define GPRINTER	"/dev/g_printer0"
#define HIDG		"/dev/hidg0"
#define GS		"/dev/ttyGS0"

#define VID		0x1d6b	/* Linux Foundation */
#define PID		0x0104	/* Multifunction Composite Gadget */

/* The descriptors are static data: the lab guest is little-endian x86. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "descriptors below are written little-endian"
#endif
#define LE16(x)		(x)
#define LE32(x)		(x)

#include "gadgetfs.h"
#include "usb-sysfs.h"

#define ENUM_WAIT_MS	15000
#define XFER_WAIT_MS	5000

#define PNP		"MFG:bklfree;MDL:gadget-classes;CMD:PCL;CLS:PRINTER;"
#define IOCNR_GET_DEVICE_ID	1
#define LPIOC_GET_DEVICE_ID(len) _IOC(_IOC_READ, 'P', IOCNR_GET_DEVICE_ID, len)

/* A boot keyboard: 8-byte input report, 1-byte LED output report. */
static const unsigned char kbd_desc[] = {
	0x05, 0x01, 0x09, 0x06, 0xa1, 0x01, 0x05, 0x07, 0x19, 0xe0, 0x29,
	0xe7, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x08, 0x81, 0x02,
	0x95, 0x01, 0x75, 0x08, 0x81, 0x03, 0x95, 0x05, 0x75, 0x01, 0x05,
	0x08, 0x19, 0x01, 0x29, 0x05, 0x91, 0x02, 0x95, 0x01, 0x75, 0x03,
	0x91, 0x03, 0x95, 0x06, 0x75, 0x08, 0x15, 0x00, 0x25, 0x65, 0x05,
	0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00, 0xc0,
};

/* FunctionFS: one vendor interface, bulk IN (ep1) and bulk OUT (ep2). */
struct ffs_intf_descs {
	struct usb_interface_descriptor intf;
	struct usb_endpoint_descriptor_no_audio in, out;
} __attribute__((packed));

#define FFS_INTF(mps) {							\
	.intf = { .bLength = USB_DT_INTERFACE_SIZE,			\
		  .bDescriptorType = USB_DT_INTERFACE,			\
		  .bNumEndpoints = 2,					\
		  .bInterfaceClass = USB_CLASS_VENDOR_SPEC,		\
		  .iInterface = 1 },					\
	.in = { .bLength = USB_DT_ENDPOINT_SIZE,			\
		.bDescriptorType = USB_DT_ENDPOINT,			\
		.bEndpointAddress = 1 | USB_DIR_IN,			\
		.bmAttributes = USB_ENDPOINT_XFER_BULK,			\
		.wMaxPacketSize = LE16(mps) },			\
	.out = { .bLength = USB_DT_ENDPOINT_SIZE,			\
		 .bDescriptorType = USB_DT_ENDPOINT,			\
		 .bEndpointAddress = 2 | USB_DIR_OUT,			\
		 .bmAttributes = USB_ENDPOINT_XFER_BULK,		\
		 .wMaxPacketSize = LE16(mps) },			\
}

static const struct {
	struct usb_functionfs_descs_head_v2 head;
	__le32 fs_count, hs_count;
	struct ffs_intf_descs fs, hs;
} __attribute__((packed)) ffs_descs = {
	.head = {
		.magic = LE32(FUNCTIONFS_DESCRIPTORS_MAGIC_V2),
		.length = LE32(sizeof(ffs_descs)),
		.flags = LE32(FUNCTIONFS_HAS_FS_DESC |
				 FUNCTIONFS_HAS_HS_DESC),
	},
	.fs_count = LE32(3),
	.hs_count = LE32(3),
	.fs = FFS_INTF(64),
	.hs = FFS_INTF(512),
};

#define FFS_STR "bklfree ffs"

static const struct {
	struct usb_functionfs_strings_head head;
	struct {
		__le16 code;
		char str[sizeof(FFS_STR)];
	} __attribute__((packed)) lang0;
} __attribute__((packed)) ffs_strings = {
	.head = {
		.magic = LE32(FUNCTIONFS_STRINGS_MAGIC),
		.length = LE32(sizeof(ffs_strings)),
		.str_count = LE32(1),
		.lang_count = LE32(1),
	},
	.lang0 = { LE16(0x0409), FFS_STR },
};

/* The state the cases share. */
static struct {
	int bound;			/* the configfs gadget is on the UDC */
	int ffs_ep0, ffs_in, ffs_out;	/* FunctionFS files */
	int ffs_enabled;
	unsigned int ffs_intf;		/* its interface number, host side */
	unsigned char ep_in, ep_out;	/* its endpoint addresses */
	int lp, acm, hidraw, gprinter, hidg, gs, usbfs;
	char usbdev[32];		/* sysfs name of the gadget, "3-1" */
	char usbfs_path[32];
} st = {
	.ffs_ep0 = -1, .ffs_in = -1, .ffs_out = -1, .lp = -1, .acm = -1,
	.hidraw = -1, .gprinter = -1, .hidg = -1, .gs = -1, .usbfs = -1,
};

/* ---- small helpers ---------------------------------------------------- */

static int put(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? write(fd, buf, len) : -1;
	int err = errno;

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)len) {
		errno = err;
		ktap_diag("write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int puts_at(const char *dir, const char *name, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return put(path, val, strlen(val));
}

static int mkdirs(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST) {
		ktap_perror(path);
		return -1;
	}
	return 0;
}

static int set_raw(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &t))
		return -1;
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL | CREAD;
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	return tcsetattr(fd, TCSANOW, &t);
}

static int set_blocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
}

/* len bytes of the pattern.h blocks one way, compared. */
static int pattern_pass(int out, int in, size_t len, unsigned int seed)
{
	static unsigned char src[4 * PATTERN_SECTOR], dst[4 * PATTERN_SECTOR];
	unsigned int i;

	if (out < 0 || in < 0 || len > sizeof(src))
		return 0;
	for (i = 0; i < ARRAY_SIZE(src) / PATTERN_SECTOR; i++)
		pattern_fill(src + i * PATTERN_SECTOR, i, seed);
	memset(dst, 0, len);
	if (ktap_pump(out, in, src, dst, len, XFER_WAIT_MS) != len)
		return 0;
	for (i = 0; i < len; i++) {
		if (src[i] != dst[i]) {
			ktap_diag("byte %u differs", i);
			return 0;
		}
	}
	return 1;
}

/* Waits for fd to be readable; 1 if so within ms. */
static int readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) > 0 && (p.revents & POLLIN);
}

/* Waits up to ms for path to be deleted (inotify on its directory). */
static int wait_gone(const char *path, int ms)
{
	long long end = ktap_now_ms() + ms;
	char dir[256], ev[4096] __attribute__((aligned(8)));
	struct pollfd p = { .events = POLLIN };
	char *slash;
	int gone;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	p.fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (p.fd >= 0)
		inotify_add_watch(p.fd, dir, IN_DELETE | IN_DELETE_SELF);
	while (!(gone = access(path, F_OK) != 0) && p.fd >= 0) {
		long long left = end - ktap_now_ms();

		if (left <= 0 || poll(&p, 1, left) <= 0)
			break;
		while (read(p.fd, ev, sizeof(ev)) > 0)
			;
	}
	if (p.fd >= 0)
		close(p.fd);
	return gone;
}

/* ---- the configfs gadget ---------------------------------------------- */

static const char *const gadget_funcs[] = {
	"printer.0", "acm.0", "hid.0", "ffs.ffs0",
};

static int gadget_create(void)
{
	char path[256];
	size_t i;

	if (access(CFS "/usb_gadget", F_OK) &&
	    mount("none", CFS, "configfs", 0, NULL)) {
		ktap_perror("mount configfs");
		return 0;
	}
	if (mkdirs(G) || puts_at(G, "idVendor", "0x1d6b") ||
	    puts_at(G, "idProduct", "0x0104") ||
	    puts_at(G, "bcdDevice", "0x0601") ||
	    puts_at(G, "bcdUSB", "0x0200") ||
	    /* IAD (the ACM function's): the misc class, common protocol */
	    puts_at(G, "bDeviceClass", "0xef") ||
	    puts_at(G, "bDeviceSubClass", "0x02") ||
	    puts_at(G, "bDeviceProtocol", "0x01") ||
	    mkdirs(G "/strings/0x409") ||
	    puts_at(G "/strings/0x409", "manufacturer", "bklfree") ||
	    puts_at(G "/strings/0x409", "product", "gadget-classes") ||
	    puts_at(G "/strings/0x409", "serialnumber", "12") ||
	    mkdirs(G "/configs/c.1") ||
	    puts_at(G "/configs/c.1", "MaxPower", "100") ||
	    mkdirs(G "/configs/c.1/strings/0x409") ||
	    puts_at(G "/configs/c.1/strings/0x409", "configuration",
		    "printer acm hid ffs"))
		return 0;
	for (i = 0; i < ARRAY_SIZE(gadget_funcs); i++) {
		snprintf(path, sizeof(path), G "/functions/%s",
			 gadget_funcs[i]);
		if (mkdirs(path))
			return 0;
	}
	if (puts_at(G "/functions/printer.0", "pnp_string", PNP) ||
	    puts_at(G "/functions/hid.0", "protocol", "1") ||
	    puts_at(G "/functions/hid.0", "subclass", "1") ||
	    puts_at(G "/functions/hid.0", "report_length", "8") ||
	    put(G "/functions/hid.0/report_desc", kbd_desc, sizeof(kbd_desc)))
		return 0;
	for (i = 0; i < ARRAY_SIZE(gadget_funcs); i++) {
		char link[256];

		snprintf(path, sizeof(path), G "/functions/%s",
			 gadget_funcs[i]);
		snprintf(link, sizeof(link), G "/configs/c.1/%s",
			 gadget_funcs[i]);
		if (symlink(path, link)) {
			ktap_perror(link);
			return 0;
		}
	}
	return 1;
}

/* FunctionFS before the bind: REVMAP has no function yet. */
static int ffs_start(void)
{
	char path[64];
	int ok, i;

	if (mkdirs(FFS_DIR) || mount("ffs0", FFS_DIR, "functionfs", 0, NULL)) {
		ktap_perror("mount functionfs ffs0");
		return 0;
	}
	st.ffs_ep0 = open(FFS_DIR "/ep0", O_RDWR | O_CLOEXEC);
	if (st.ffs_ep0 < 0)
		return 0;
	ok = ioctl(st.ffs_ep0, FUNCTIONFS_INTERFACE_REVMAP, 0) < 0 &&
	     errno == ENODEV;
	if (!ok)
		ktap_diag("REVMAP before the bind: %s", strerror(errno));
	if (write(st.ffs_ep0, &ffs_descs, sizeof(ffs_descs)) !=
	    sizeof(ffs_descs) ||
	    write(st.ffs_ep0, &ffs_strings, sizeof(ffs_strings)) !=
	    sizeof(ffs_strings)) {
		ktap_perror("ep0 descriptors and strings");
		return 0;
	}
	for (i = 1; i <= 2; i++) {
		snprintf(path, sizeof(path), FFS_DIR "/ep%d", i);
		if (access(path, F_OK)) {
			ktap_perror(path);
			ok = 0;
		}
	}
	return ok;
}

static int ffs_seek(void)
{
	return st.ffs_ep0 >= 0 && lseek(st.ffs_ep0, 0, SEEK_SET) < 0 &&
	       errno == ESPIPE;
}

static int gadget_bind(void)
{
	st.bound = !put(G "/UDC", UDC_NAME, strlen(UDC_NAME));
	return st.bound;
}

/* ---- enumeration on the host side ------------------------------------- */

static int host_ready(void *arg)
{
	(void)arg;
	if (access(LP, F_OK) || access(ACM, F_OK) || access(HIDRAW, F_OK))
		return KTAP_WAIT;
	if (st.acm < 0) {
		st.acm = open(ACM, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (st.acm < 0)
			return errno == ENXIO || errno == ENODEV ? KTAP_BUSY :
								   KTAP_READY;
	}
	return KTAP_READY;
}

static int host_enumerates(void)
{
	int ok;

	if (!st.bound)
		return 0;
	ktap_wait_dev("/dev/usb", host_ready, NULL, ENUM_WAIT_MS);
	st.lp = open(LP, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	st.hidraw = open(HIDRAW, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	ok = st.lp >= 0 && st.acm >= 0 && st.hidraw >= 0 &&
	     find_usb(VID, PID, st.usbdev, sizeof(st.usbdev));
	if (!ok) {
		ktap_diag("lp0 %d ttyACM0 %d hidraw0 %d device '%s'", st.lp,
			  st.acm, st.hidraw, st.usbdev);
		return 0;
	}
	snprintf(st.usbfs_path, sizeof(st.usbfs_path),
		 "/dev/bus/usb/%03ld/%03ld", usb_attr(st.usbdev, "busnum", 10),
		 usb_attr(st.usbdev, "devnum", 10));
	ktap_diag("gadget is %s (%s), speed %ld", st.usbdev, st.usbfs_path,
		  usb_attr(st.usbdev, "speed", 10));
	st.gprinter = open(GPRINTER, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	st.hidg = open(HIDG, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	st.gs = open(GS, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	st.usbfs = open(st.usbfs_path, O_RDWR | O_CLOEXEC);
	if (st.gprinter < 0 || st.hidg < 0 || st.gs < 0 || st.usbfs < 0) {
		ktap_diag("g_printer0 %d hidg0 %d ttyGS0 %d usbfs %d",
			  st.gprinter, st.hidg, st.gs, st.usbfs);
		return 0;
	}
	return usb_attr(st.usbdev, "bConfigurationValue", 10) == 1;
}

/* ---- printer ---------------------------------------------------------- */

/*
 * f_printer answers GET_DEVICE_ID with strlen(pnp) in the two length bytes
 * and sends strlen(pnp) bytes in all: the 1284 length counts itself, so
 * the host gets the string less its last two characters. usblp gives the
 * length bytes and what follows.
 */
static int lp_device_id(void)
{
	unsigned char id[256];
	size_t want = strlen(PNP);
	unsigned int len;

	memset(id, 0, sizeof(id));
	if (st.lp < 0 || ioctl(st.lp, LPIOC_GET_DEVICE_ID(sizeof(id)), id) < 0)
		return 0;
	len = id[0] << 8 | id[1];
	ktap_diag("device id length %u: %.*s", len, (int)(len - 2), id + 2);
	return len == want && !memcmp(id + 2, PNP, want - 2);
}

/*
 * f_printer's OUT requests are 8 KiB (USB_BUFSIZE) and usblp sends no
 * zero-length packet, so only a short last packet completes the gadget's
 * request: 2000 bytes is 3 full 512-byte packets and a short one.
 */
static int lp_to_gadget(void)
{
	return pattern_pass(st.lp, st.gprinter, 2000, 11);
}

/*
 * 1024 bytes fill usblp's read URB (USBLP_BUF_SIZE_IN); being a multiple
 * of 512, printer_write() ends them with a zero-length packet
 * (req->zero), which completes the next read URB empty: lp0's next read
 * gives 0 bytes.
 */
static int gadget_to_lp(void)
{
	char b[16];

	return pattern_pass(st.gprinter, st.lp, 1024, 12) &&
	       readable(st.lp, XFER_WAIT_MS) && read(st.lp, b, sizeof(b)) == 0;
}

static int lp_status(void)
{
	unsigned char set = PRINTER_SELECTED | PRINTER_NOT_ERROR |
			    PRINTER_PAPER_EMPTY;
	int got = -1;

	if (st.gprinter < 0 || st.lp < 0 ||
	    ioctl(st.gprinter, GADGET_SET_PRINTER_STATUS, set) < 0 ||
	    ioctl(st.lp, LPGETSTATUS, &got) < 0)
		return 0;
	ktap_diag("LPGETSTATUS 0x%02x", got);
	return got == set;
}

/* ---- ACM -------------------------------------------------------------- */

static int acm_raw(void)
{
	return st.acm >= 0 && st.gs >= 0 && !set_raw(st.acm) &&
	       !set_raw(st.gs) && !tcflush(st.acm, TCIOFLUSH) &&
	       !tcflush(st.gs, TCIOFLUSH);
}

static int acm_to_gs(void)
{
	return acm_raw() && pattern_pass(st.acm, st.gs, 2048, 21);
}

static int gs_to_acm(void)
{
	return pattern_pass(st.gs, st.acm, 2048, 22);
}

/* ---- HID -------------------------------------------------------------- */

static const unsigned char key_a[8] = { 0x02, 0, 0x04, 0, 0, 0, 0, 0 };
static const unsigned char key_up[8];

/* Writes one report to hidg0 and reads it back from hidraw0. */
static int hid_report(const unsigned char *r)
{
	unsigned char got[16];
	long long end = ktap_now_ms() + XFER_WAIT_MS;
	ssize_t n = -1;

	while (write(st.hidg, r, 8) != 8) {
		struct pollfd p = { .fd = st.hidg, .events = POLLOUT };

		if (errno != EAGAIN || ktap_now_ms() >= end ||
		    poll(&p, 1, end - ktap_now_ms()) <= 0)
			return 0;
	}
	if (readable(st.hidraw, XFER_WAIT_MS))
		n = read(st.hidraw, got, sizeof(got));
	return n == 8 && !memcmp(got, r, 8);
}

static int hidg_to_hidraw(void)
{
	return st.hidg >= 0 && st.hidraw >= 0 && hid_report(key_a) &&
	       hid_report(key_up);
}

/*
 * Report ID 0 is not sent: the device gets the one LED byte. Before it
 * comes the LED report usbhid_start() sent at probe (usbhid_set_leds()
 * for a boot keyboard: all LEDs off, 0x00), still queued on hidg0.
 */
static int hidraw_to_hidg(void)
{
	const unsigned char out[2] = { 0x00, 0x05 };
	unsigned char got[2][8];
	ssize_t n[2] = { -1, -1 };
	int i;

	if (st.hidg < 0 || st.hidraw < 0 ||
	    write(st.hidraw, out, sizeof(out)) != sizeof(out))
		return 0;
	for (i = 0; i < 2; i++)
		if (readable(st.hidg, XFER_WAIT_MS))
			n[i] = read(st.hidg, got[i], sizeof(got[i]));
	ktap_diag("hidg0 reads %zd bytes 0x%02x, %zd bytes 0x%02x", n[0],
		  n[0] > 0 ? got[0][0] : 0, n[1], n[1] > 0 ? got[1][0] : 0);
	return n[0] == 1 && got[0][0] == 0x00 && n[1] == 1 && got[1][0] == 0x05;
}

static int hidraw_desc(void)
{
	struct hidraw_report_descriptor d;
	int size = 0;

	memset(&d, 0, sizeof(d));
	if (st.hidraw < 0 || ioctl(st.hidraw, HIDIOCGRDESCSIZE, &size) < 0)
		return 0;
	d.size = size;
	return size == sizeof(kbd_desc) &&
	       !ioctl(st.hidraw, HIDIOCGRDESC, &d) &&
	       !memcmp(d.value, kbd_desc, size);
}

/* The keyboard's evdev node: KEY_A down, then up. */
static int hid_evdev(void)
{
	struct input_event ev;
	char dev[280];
	glob_t g;
	int fd = -1, down = 0, up = 0;
	long long end;

	if (!glob("/sys/class/hidraw/hidraw0/device/input/input*/event*", 0,
		  NULL, &g) && g.gl_pathc == 1) {
		snprintf(dev, sizeof(dev), "/dev/input/%s",
			 strrchr(g.gl_pathv[0], '/') + 1);
		fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			ktap_perror(dev);
		globfree(&g);
	}
	if (fd < 0 || !hid_report(key_a) || !hid_report(key_up)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	end = ktap_now_ms() + XFER_WAIT_MS;
	while (!up && ktap_now_ms() < end && readable(fd, end - ktap_now_ms())) {
		while (read(fd, &ev, sizeof(ev)) == sizeof(ev)) {
			if (ev.type == EV_KEY && ev.code == KEY_A && ev.value == 1)
				down = 1;
			if (ev.type == EV_KEY && ev.code == KEY_A && ev.value == 0)
				up = down;
		}
	}
	close(fd);
	return down && up;
}

/* ---- FunctionFS ------------------------------------------------------- */

static const char *const ffs_ev_name[] = {
	[FUNCTIONFS_BIND] = "BIND", [FUNCTIONFS_UNBIND] = "UNBIND",
	[FUNCTIONFS_ENABLE] = "ENABLE", [FUNCTIONFS_DISABLE] = "DISABLE",
	[FUNCTIONFS_SETUP] = "SETUP", [FUNCTIONFS_SUSPEND] = "SUSPEND",
	[FUNCTIONFS_RESUME] = "RESUME",
};

/*
 * Reads ep0 events until one of type want (or the deadline); events read
 * are listed in seen. Returns 1 when want came; *setup gets a SETUP's.
 */
static int ffs_events_until(unsigned int want, char *seen, size_t seenlen,
			    struct usb_ctrlrequest *setup)
{
	long long end = ktap_now_ms() + XFER_WAIT_MS;
	struct usb_functionfs_event ev[4];
	size_t off = strlen(seen);
	int fl = fcntl(st.ffs_ep0, F_GETFL);

	fcntl(st.ffs_ep0, F_SETFL, fl | O_NONBLOCK);
	while (ktap_now_ms() < end && readable(st.ffs_ep0, end - ktap_now_ms())) {
		ssize_t n = read(st.ffs_ep0, ev, sizeof(ev));
		int i;

		for (i = 0; i < n / (ssize_t)sizeof(ev[0]); i++) {
			unsigned int t = ev[i].type;

			off += snprintf(seen + off, seenlen - off, " %s",
					t < ARRAY_SIZE(ffs_ev_name) &&
					ffs_ev_name[t] ? ffs_ev_name[t] : "?");
			if (off >= seenlen)
				off = seenlen - 1;
			if (t == FUNCTIONFS_SETUP && setup)
				*setup = ev[i].u.setup;
			if (t == want) {
				fcntl(st.ffs_ep0, F_SETFL, fl);
				return 1;
			}
		}
	}
	fcntl(st.ffs_ep0, F_SETFL, fl);
	return 0;
}

/*
 * BIND and ENABLE both purge every event but SUSPEND and RESUME from the
 * queue (__ffs_event_add), so whether BIND is still there when the test
 * reads depends on when it reads: ENABLE must come, after nothing but
 * BIND, DISABLE, SUSPEND or RESUME.
 */
static int ffs_enable(void)
{
	char seen[128] = "";
	int ok;

	if (st.ffs_ep0 < 0)
		return 0;
	ok = ffs_events_until(FUNCTIONFS_ENABLE, seen, sizeof(seen), NULL);
	ktap_diag("ep0 events:%s", seen);
	ok = ok && !strstr(seen, "SETUP") && !strstr(seen, "UNBIND");
	st.ffs_enabled = ok;
	return ok;
}

/* The host's number of the FunctionFS interface: the vendor-class one. */
static int ffs_find_intf(void)
{
	char name[64];
	unsigned int i;

	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "%s:1.%u", st.usbdev, i);
		if (usb_attr(name, "bInterfaceClass", 16) == 0xff) {
			st.ffs_intf = i;
			return 1;
		}
	}
	return 0;
}

static int ffs_revmap(void)
{
	int r, r0;

	if (!st.ffs_enabled || !ffs_find_intf())
		return 0;
	r = ioctl(st.ffs_ep0, FUNCTIONFS_INTERFACE_REVMAP, st.ffs_intf);
	r0 = ioctl(st.ffs_ep0, FUNCTIONFS_INTERFACE_REVMAP, 0);
	ktap_diag("host interface %u revmaps to %d; interface 0 to %d (%s)",
		  st.ffs_intf, r, r0, r0 < 0 ? strerror(errno) : "-");
	return r == 0 && r0 < 0 && errno == EDOM;
}

/* A child does the blocking half; it reports one status byte. */
static pid_t half(int *rfd, int (*fn)(void))
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		unsigned char ok = fn();

		close(p[0]);
		if (write(p[1], &ok, 1) != 1)
			_exit(2);
		_exit(0);
	}
	close(p[1]);
	*rfd = p[0];
	if (pid < 0)
		close(p[0]);
	return pid;
}

/* The child's answer within ms, or 0; the child is reaped either way. */
static int half_done(pid_t pid, int rfd, int ms)
{
	unsigned char ok = 0;

	if (pid < 0)
		return 0;
	if (!readable(rfd, ms) || read(rfd, &ok, 1) != 1)
		ok = 0;
	close(rfd);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return ok;
}

#define FFS_VENDOR_REQ	0x42

/* Host: a vendor IN request to the interface, 8 bytes back. */
static int host_vendor_in(void)
{
	unsigned char buf[8] = { 0 };
	struct usbdevfs_ctrltransfer c = {
		.bRequestType = USB_DIR_IN | USB_TYPE_VENDOR |
				USB_RECIP_INTERFACE,
		.bRequest = FFS_VENDOR_REQ,
		.wValue = 0x1234,
		.wIndex = st.ffs_intf,
		.wLength = sizeof(buf),
		.timeout = XFER_WAIT_MS,
		.data = buf,
	};

	return ioctl(st.usbfs, USBDEVFS_CONTROL, &c) == sizeof(buf) &&
	       !memcmp(buf, "bklfree!", 8);
}

/*
 * The SETUP event carries the request with wIndex turned into the
 * function's own interface number (0); writing ep0 answers the data stage.
 */
static int ffs_setup(void)
{
	struct usb_ctrlrequest s;
	char seen[128] = "";
	int rfd = -1, ok;
	pid_t pid;

	memset(&s, 0, sizeof(s));
	if (!st.ffs_enabled || st.usbfs < 0)
		return 0;
	pid = half(&rfd, host_vendor_in);
	ok = ffs_events_until(FUNCTIONFS_SETUP, seen, sizeof(seen), &s);
	ktap_diag("ep0 events:%s; request 0x%02x/0x%02x value 0x%04x index %u length %u",
		  seen, s.bRequestType, s.bRequest, le16toh(s.wValue),
		  le16toh(s.wIndex), le16toh(s.wLength));
	ok = ok && s.bRequest == FFS_VENDOR_REQ &&
	     le16toh(s.wValue) == 0x1234 && le16toh(s.wIndex) == 0 &&
	     le16toh(s.wLength) == 8 &&
	     write(st.ffs_ep0, "bklfree!", 8) == 8;
	return half_done(pid, rfd, XFER_WAIT_MS) && ok;
}

static int ffs_open_eps(void)
{
	struct usb_endpoint_descriptor d;

	if (!st.ffs_enabled)
		return 0;
	st.ffs_in = open(FFS_DIR "/ep1", O_RDWR | O_CLOEXEC);
	st.ffs_out = open(FFS_DIR "/ep2", O_RDWR | O_CLOEXEC);
	if (st.ffs_in < 0 || st.ffs_out < 0)
		return 0;
	if (ioctl(st.ffs_in, FUNCTIONFS_ENDPOINT_DESC, &d))
		return 0;
	st.ep_in = d.bEndpointAddress;
	if (ioctl(st.ffs_out, FUNCTIONFS_ENDPOINT_DESC, &d))
		return 0;
	st.ep_out = d.bEndpointAddress;
	ktap_diag("ep1 is 0x%02x, ep2 is 0x%02x", st.ep_in, st.ep_out);
	return (st.ep_in & USB_DIR_IN) && !(st.ep_out & USB_DIR_IN) &&
	       lseek(st.ffs_in, 0, SEEK_CUR) < 0 && errno == ESPIPE;
}

#define BULK_LEN	(4 * PATTERN_SECTOR)
static unsigned char bulk_buf[BULK_LEN];

static void bulk_fill(unsigned int seed)
{
	unsigned int i;

	for (i = 0; i < BULK_LEN / PATTERN_SECTOR; i++)
		pattern_fill(bulk_buf + i * PATTERN_SECTOR, i, seed);
}

static int bulk_check(const unsigned char *buf, unsigned int seed)
{
	unsigned int i;

	for (i = 0; i < BULK_LEN / PATTERN_SECTOR; i++)
		if (!pattern_check(buf + i * PATTERN_SECTOR, i, seed))
			return 0;
	return 1;
}

/* The gadget's halves: blocking reads and writes of the ep files. */
static int gadget_bulk_read(void)
{
	static unsigned char buf[BULK_LEN];
	size_t got = 0;
	ssize_t n;

	while (got < BULK_LEN) {
		n = read(st.ffs_out, buf + got, BULK_LEN - got);
		if (n <= 0)
			return 0;
		got += n;
	}
	return bulk_check(buf, 31);
}

static int gadget_bulk_write(void)
{
	bulk_fill(32);
	return write(st.ffs_in, bulk_buf, BULK_LEN) == BULK_LEN;
}

static int ffs_bulk_out(void)
{
	struct usbdevfs_bulktransfer b = {
		.ep = 0, .len = BULK_LEN, .timeout = XFER_WAIT_MS,
		.data = bulk_buf,
	};
	unsigned int intf = st.ffs_intf;
	int rfd = -1, n;
	pid_t pid;

	if (st.ffs_out < 0 || st.usbfs < 0 ||
	    ioctl(st.usbfs, USBDEVFS_CLAIMINTERFACE, &intf))
		return 0;
	b.ep = st.ep_out;
	pid = half(&rfd, gadget_bulk_read);
	bulk_fill(31);
	n = ioctl(st.usbfs, USBDEVFS_BULK, &b);
	if (n != BULK_LEN)
		ktap_diag("USBDEVFS_BULK OUT: %d (%s)", n, strerror(errno));
	return half_done(pid, rfd, XFER_WAIT_MS) && n == BULK_LEN;
}

static int ffs_bulk_in(void)
{
	static unsigned char buf[BULK_LEN];
	struct usbdevfs_bulktransfer b = {
		.ep = st.ep_in, .len = BULK_LEN, .timeout = XFER_WAIT_MS,
		.data = buf,
	};
	int rfd = -1, n;
	pid_t pid;

	if (st.ffs_in < 0 || st.usbfs < 0)
		return 0;
	pid = half(&rfd, gadget_bulk_write);
	n = ioctl(st.usbfs, USBDEVFS_BULK, &b);
	if (n != BULK_LEN)
		ktap_diag("USBDEVFS_BULK IN: %d (%s)", n, strerror(errno));
	return half_done(pid, rfd, XFER_WAIT_MS) && n == BULK_LEN &&
	       bulk_check(buf, 32);
}

/* ---- unplug while open ------------------------------------------------ */

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

struct blocked {
	const char *name;
	const char *node;
	int *fd;
	pid_t pid;
	int rfd;
	struct result {
		ssize_t r;		/* what the blocked read returned */
		int err;
	} res;
};

static struct blocked blocked[] = {
	{ .name = "lp0", .node = LP, .fd = &st.lp },
	{ .name = "ttyACM0", .node = ACM, .fd = &st.acm },
	{ .name = "hidraw0", .node = HIDRAW, .fd = &st.hidraw },
};

static void blocked_child(int fd, int wfd)
{
	struct result r;
	char buf[64];

	r.r = read(fd, buf, sizeof(buf));
	r.err = r.r < 0 ? errno : 0;
	if (write(wfd, &r, sizeof(r)) != sizeof(r))
		_exit(2);
	_exit(0);
}

/* Is pid asleep in read(2)? /proc/PID/syscall starts with its number. */
static int in_read(pid_t pid)
{
	char path[64], buf[64];

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	if (get(path, buf, sizeof(buf)))
		return 0;
	return !strncmp(buf, "0 ", 2);
}

static int start_blocked(void)
{
	long long end;
	size_t i;
	int all = 1;

	for (i = 0; i < ARRAY_SIZE(blocked); i++) {
		struct blocked *b = &blocked[i];
		int p[2];

		b->pid = -1;
		b->rfd = -1;
		if (*b->fd < 0 || set_blocking(*b->fd) || pipe2(p, O_CLOEXEC)) {
			all = 0;
			continue;
		}
		b->pid = fork();
		if (b->pid == 0) {
			close(p[0]);
			blocked_child(*b->fd, p[1]);
		}
		close(p[1]);
		b->rfd = p[0];
		if (b->pid < 0)
			all = 0;
	}
	/* Each child must be asleep in read() before the unplug. */
	end = ktap_now_ms() + XFER_WAIT_MS;
	for (i = 0; i < ARRAY_SIZE(blocked); i++) {
		while (blocked[i].pid > 0 && !in_read(blocked[i].pid) &&
		       ktap_now_ms() < end)
			sched_yield();
		if (blocked[i].pid > 0 && !in_read(blocked[i].pid)) {
			ktap_diag("%s reader not blocked in read",
				  blocked[i].name);
			all = 0;
		}
	}
	return all;
}

/* Unbind with the three readers blocked; gadget-side files closed first. */
static int unplug(void)
{
	int ok;

	close_fd(&st.gprinter);
	close_fd(&st.hidg);
	close_fd(&st.gs);
	close_fd(&st.ffs_in);
	close_fd(&st.ffs_out);
	close_fd(&st.usbfs);
	ok = start_blocked();
	if (put(G "/UDC", "\n", 1))
		return 0;
	st.bound = 0;
	return ok;
}

/*
 * What the test's own descriptor gets once the driver's disconnect has
 * run (its node is gone): a poll, a read and a write, non-blocking.
 */
struct after {
	ssize_t r, w;
	int rerr, werr;
	short revents;
};

/* The blocked reader's answer, then the after. */
static int collect(struct blocked *b, struct after *a)
{
	struct pollfd p = { .fd = *b->fd, .events = POLLIN | POLLOUT };
	char buf[64];
	int ok = b->pid > 0 && readable(b->rfd, XFER_WAIT_MS) &&
		 read(b->rfd, &b->res, sizeof(b->res)) == sizeof(b->res);

	if (b->pid > 0) {
		close(b->rfd);
		kill(b->pid, SIGKILL);
		waitpid(b->pid, NULL, 0);
	}
	if (!ok) {
		ktap_diag("%s: the blocked reader did not return", b->name);
		return 0;
	}
	if (!wait_gone(b->node, XFER_WAIT_MS)) {
		ktap_diag("%s is still there", b->node);
		return 0;
	}
	/*
	 * The node goes in the driver's disconnect before it marks the
	 * device gone (usblp clears ->present after usb_deregister_dev()):
	 * wait for the whole USB device, whose removal ends after every
	 * interface driver's disconnect.
	 */
	if (!usb_gone(VID, PID, XFER_WAIT_MS)) {
		ktap_diag("%04x:%04x is still there", VID, PID);
		return 0;
	}
	fcntl(*b->fd, F_SETFL, fcntl(*b->fd, F_GETFL) | O_NONBLOCK);
	a->revents = poll(&p, 1, 0) < 0 ? -1 : p.revents;
	a->r = read(*b->fd, buf, sizeof(buf));
	a->rerr = a->r < 0 ? errno : 0;
	a->w = write(*b->fd, "x", 1);
	a->werr = a->w < 0 ? errno : 0;
	ktap_diag("%s: blocked read %zd (%s); after: poll 0x%x, read %zd (%s), write %zd (%s)",
		  b->name, b->res.r, strerror(b->res.err), a->revents, a->r,
		  strerror(a->rerr), a->w, strerror(a->werr));
	return 1;
}

/*
 * dummy_hcd fails the pending read URB (-EPROTO, "usblp0: error -71
 * reading from printer") as soon as the port goes, and hub_wq calls
 * usblp_disconnect() later. Which one the woken reader sees first is a
 * race: EIO (rstatus < 0, present still 1) or ENODEV (usblp_rtest() saw
 * present 0); both were seen on the same kernel (EIO 1 of 5 boots).
 * After usblp_disconnect() (present 0): read and write ENODEV
 * (usblp_rtest(), usblp_wtest()), poll EPOLLHUP.
 */
static int unplug_lp(void)
{
	struct blocked *b = &blocked[0];
	struct after a;

	return collect(b, &a) && b->res.r < 0 &&
	       (b->res.err == EIO || b->res.err == ENODEV) &&
	       (a.revents & POLLHUP) && a.r < 0 && a.rerr == ENODEV &&
	       a.w < 0 && a.werr == ENODEV;
}

/*
 * acm_disconnect() hangs the tty up: the blocked n_tty_read() stops on
 * tty_hung_up_p() and returns 0; then hung_up_tty_fops: read 0, write
 * EIO, poll IN OUT ERR HUP all at once.
 */
static int unplug_acm(void)
{
	const short all = POLLIN | POLLOUT | POLLERR | POLLHUP;
	struct blocked *b = &blocked[1];
	struct after a;

	return collect(b, &a) && b->res.r == 0 && (a.revents & all) == all &&
	       a.r == 0 && a.w < 0 && a.werr == EIO;
}

/*
 * hidraw_disconnect() clears exist and wakes the reader: EIO. Then read
 * EIO, write ENODEV (hidraw_send_report()), poll EPOLLERR | EPOLLHUP.
 */
static int unplug_hidraw(void)
{
	struct blocked *b = &blocked[2];
	struct after a;

	return collect(b, &a) && b->res.r < 0 && b->res.err == EIO &&
	       (a.revents & (POLLHUP | POLLERR)) == (POLLHUP | POLLERR) &&
	       a.r < 0 && a.rerr == EIO && a.w < 0 && a.werr == ENODEV;
}

/* UNBIND must come (DISABLE and SUSPEND may precede it, or be purged). */
static int unplug_ffs(void)
{
	char seen[128] = "";
	int ok;

	if (st.ffs_ep0 < 0)
		return 0;
	ok = ffs_events_until(FUNCTIONFS_UNBIND, seen, sizeof(seen), NULL);
	ktap_diag("ep0 events:%s", seen);
	return ok;
}

static int unplug_nodes_gone(void)
{
	const char *const nodes[] = { GPRINTER, HIDG, st.usbfs_path };
	size_t i;
	int ok = 1;

	close_fd(&st.lp);
	close_fd(&st.acm);
	close_fd(&st.hidraw);
	for (i = 0; i < ARRAY_SIZE(nodes); i++) {
		if (!wait_gone(nodes[i], XFER_WAIT_MS)) {
			ktap_diag("%s still there", nodes[i]);
			ok = 0;
		}
	}
	return ok && usb_gone(VID, PID, XFER_WAIT_MS);
}

/* Tear the gadget down, FunctionFS unmounted first. */
static int gadget_remove(void)
{
	char path[256];
	size_t i;
	int ok = 1;

	close_fd(&st.ffs_ep0);
	if (umount(FFS_DIR))
		ok = !ktap_perror("umount " FFS_DIR);
	for (i = 0; i < ARRAY_SIZE(gadget_funcs); i++) {
		snprintf(path, sizeof(path), G "/configs/c.1/%s",
			 gadget_funcs[i]);
		if (unlink(path))
			ok = !ktap_perror(path);
	}
	if (rmdir(G "/configs/c.1/strings/0x409") || rmdir(G "/configs/c.1"))
		ok = !ktap_perror("rmdir the config");
	for (i = 0; i < ARRAY_SIZE(gadget_funcs); i++) {
		snprintf(path, sizeof(path), G "/functions/%s",
			 gadget_funcs[i]);
		if (rmdir(path))
			ok = !ktap_perror(path);
	}
	if (rmdir(G "/strings/0x409") || rmdir(G))
		ok = !ktap_perror("rmdir " G);
	return ok;
}

/* ---- gadgetfs --------------------------------------------------------- */

static int gfs_fd = -1;

static int gfs_mount(void)
{
	if (mkdirs(GFS_DIR) || mount("gadgetfs", GFS_DIR, "gadgetfs", 0, NULL)) {
		ktap_perror("mount gadgetfs");
		return 0;
	}
	gfs_fd = open(GFS_EP0, O_RDWR | O_CLOEXEC);
	if (gfs_fd < 0)
		return !ktap_perror(GFS_EP0);
	return lseek(gfs_fd, 0, SEEK_SET) < 0 && errno == ESPIPE;
}

/*
 * gadgetfs passes SET_CONFIGURATION to the ep0 reader once it has read
 * (dev->usermode_setup), who acks it with a zero-length read; an IN
 * request the test does not know is stalled by a read.
 */
static int gfs_handle(int *configured, char *seen, size_t seenlen)
{
	struct usb_gadgetfs_event ev[4];
	size_t off = strlen(seen);
	ssize_t n = read(gfs_fd, ev, sizeof(ev));
	char b;
	int i;

	for (i = 0; i < n / (ssize_t)sizeof(ev[0]); i++) {
		struct usb_ctrlrequest *s = &ev[i].u.setup;

		if (off < seenlen - 1)
			off += snprintf(seen + off, seenlen - off, " %s",
					gfs_event_name(ev[i].type));
		if (ev[i].type != GADGETFS_SETUP)
			continue;
		if (s->bRequestType == 0 &&
		    s->bRequest == USB_REQ_SET_CONFIGURATION) {
			if (read(gfs_fd, &b, 0) == 0)
				*configured = le16toh(s->wValue);
		} else if (s->bRequestType & USB_DIR_IN) {
			if (read(gfs_fd, &b, 0) < 0 && errno != EL2HLT)
				return -1;
		} else if (read(gfs_fd, &b, 0) < 0) {
			return -1;
		}
	}
	return n < 0 && errno != EAGAIN ? -1 : 0;
}

static int gfs_enumerate(void)
{
	long long end = ktap_now_ms() + ENUM_WAIT_MS;
	char seen[256] = "", dev[32] = "";
	int configured = 0, ok = 0;

	if (gfs_fd < 0 || write(gfs_fd, &gfs_descs, sizeof(gfs_descs)) !=
	    sizeof(gfs_descs))
		return !ktap_perror("gadgetfs descriptors");
	fcntl(gfs_fd, F_SETFL, fcntl(gfs_fd, F_GETFL) | O_NONBLOCK);
	while (!ok && ktap_now_ms() < end) {
		/* events come while the host enumerates; look every 50 ms */
		if (readable(gfs_fd, 50) &&
		    gfs_handle(&configured, seen, sizeof(seen)))
			break;
		/*
		 * Not before the ack: reading bConfigurationValue takes the
		 * USB device's lock, which the host holds while it waits for
		 * that very ack (usb_set_configuration() in the probe), so
		 * this thread would sleep until the host's 5 s timeout.
		 */
		ok = configured &&
		     find_usb(GFS_VID, GFS_PID, dev, sizeof(dev)) &&
		     usb_attr(dev, "bConfigurationValue", 10) == 1;
	}
	ktap_diag("gadgetfs ep0 events:%s; SET_CONFIGURATION %d acked; host device '%s'",
		  seen, configured, dev);
	snprintf(st.usbfs_path, sizeof(st.usbfs_path),
		 "/dev/bus/usb/%03ld/%03ld", usb_attr(dev, "busnum", 10),
		 usb_attr(dev, "devnum", 10));
	return ok;
}

/*
 * Closing the file unregisters the gadget driver: the host loses it (its
 * usbfs node goes: devtmpfs deletes are inotify events, sysfs ones not).
 */
static int gfs_close(void)
{
	int ok;

	close_fd(&gfs_fd);
	ok = wait_gone(st.usbfs_path, XFER_WAIT_MS) &&
	     usb_gone(GFS_VID, GFS_PID, XFER_WAIT_MS);
	if (umount(GFS_DIR))
		ok = !ktap_perror("umount " GFS_DIR);
	return ok;
}

static const struct ktap_case cases[] = {
	{ "configfs: gadget g1 with printer.0 acm.0 hid.0 ffs.ffs0 in c.1", gadget_create },
	{ "ffs: ep0 takes descriptors and strings; REVMAP before the bind is ENODEV", ffs_start },
	{ "ffs: lseek on ep0 is ESPIPE", ffs_seek },
	{ "configfs: UDC takes " UDC_NAME, gadget_bind },
	{ "host: usblp cdc-acm hidraw usbfs nodes appear, configuration 1", host_enumerates },
	{ "printer: IOCNR_GET_DEVICE_ID is pnp_string less its last 2 bytes", lp_device_id },
	{ "printer: lp0 to g_printer0 2000 bytes", lp_to_gadget },
	{ "printer: g_printer0 to lp0 1024 bytes, then the ZLP reads 0", gadget_to_lp },
	{ "printer: GADGET_SET_PRINTER_STATUS reads back with LPGETSTATUS", lp_status },
	{ "acm: ttyACM0 to ttyGS0 2048 bytes raw", acm_to_gs },
	{ "acm: ttyGS0 to ttyACM0 2048 bytes raw", gs_to_acm },
	{ "hid: hidg0 input reports arrive on hidraw0", hidg_to_hidraw },
	{ "hid: hidg0 reads the probe LED report 0x00, then hidraw0 output 0x05", hidraw_to_hidg },
	{ "hid: HIDIOCGRDESC is the configfs report_desc", hidraw_desc },
	{ "hid: evdev sees KEY_A down and up", hid_evdev },
	{ "ffs: ep0 events reach ENABLE", ffs_enable },
	{ "ffs: INTERFACE_REVMAP of its host interface 0, of interface 0 EDOM", ffs_revmap },
	{ "ffs: vendor IN request answered through ep0, wIndex remapped", ffs_setup },
	{ "ffs: ep1 IN ep2 OUT by ENDPOINT_DESC, lseek ep1 ESPIPE", ffs_open_eps },
	{ "ffs: USBDEVFS_BULK OUT 2048 bytes read from ep2", ffs_bulk_out },
	{ "ffs: ep1 write read by USBDEVFS_BULK IN 2048 bytes", ffs_bulk_in },
	{ "unplug: UDC emptied with readers blocked on lp0 ttyACM0 hidraw0", unplug },
	{ "unplug: lp0 blocked read EIO or ENODEV; then read ENODEV, poll HUP, write ENODEV", unplug_lp },
	{ "unplug: ttyACM0 blocked read 0 (hung up); then read 0, poll IN OUT ERR HUP, write EIO", unplug_acm },
	{ "unplug: hidraw0 blocked read EIO; then read EIO, poll HUP ERR, write ENODEV", unplug_hidraw },
	{ "unplug: ffs ep0 gets UNBIND", unplug_ffs },
	{ "unplug: g_printer0 hidg0 and the usbfs node go, the device is gone", unplug_nodes_gone },
	{ "configfs: gadget removed, functionfs unmounted", gadget_remove },
	{ "gadgetfs: mount names dummy_udc, lseek ESPIPE", gfs_mount },
	{ "gadgetfs: descriptors written, host configures 0525:a4a4", gfs_enumerate },
	{ "gadgetfs: close disconnects the device, umount", gfs_close },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.kconfig = (const char *const[]){ "CONFIG_USB_DUMMY_HCD",
		"CONFIG_USB_CONFIGFS_F_FS", "CONFIG_USB_CONFIGFS_F_PRINTER",
		"CONFIG_USB_CONFIGFS_ACM", "CONFIG_USB_CONFIGFS_F_HID",
		"CONFIG_USB_GADGETFS", "CONFIG_USB_PRINTER", "CONFIG_USB_ACM",
		"CONFIG_HIDRAW", NULL },
	.timeout = 90,
	.upstream = "patches/core 0044 (f_fs.c, legacy/inode.c no_llseek)",
	.cases = cases,
};
