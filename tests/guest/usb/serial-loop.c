// SPDX-License-Identifier: GPL-2.0
/*
 * serial-loop - bytes through QEMU's FTDI usb-serial and back through a
 * 16550 UART.
 *
 * The profile connects QEMU's usb-serial chardev (a unix socket server) to
 * the chardev of a second 16550 (ttyS1, the client of the same socket), so
 * whatever /dev/ttyUSB0 sends arrives on /dev/ttyS1 and the other way
 * round, inside QEMU. Both ports are set raw with termios; each case sends
 * the pattern.h bytes one way (every byte value, XON/XOFF included),
 * reading the other end with poll() as it writes, and compares them. The
 * first two cases run at 115200 baud, the last two after both sides are
 * switched to 9600 baud (ftdi_sio sends SET_BAUDRATE, the 16550 gets a new
 * divisor; QEMU does not pace the socket, so the data still flows at once)
 * and check that termios reads the new speed back. The modem lines:
 * TIOCMGET on ttyUSB0 asks the adapter for its modem status over the
 * control pipe (QEMU's FTDI reports CTS, DSR and DCD up and RI down when
 * its chardev has no modem lines) and TIOCMBIC and TIOCMBIS of DTR must
 * show in the next TIOCMGET.
 *
 * The tty file operations use no_llseek, which the tree-wide removal
 * (cb787f4ac0c2 "[tree-wide] finally take no_llseek out") rewrites; the
 * usb-serial and 8250 drivers sit under them.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "ktap.h"
#include "pattern.h"

#define USB_TTY		"/dev/ttyUSB0"
#define UART_TTY	"/dev/ttyS1"
#define ENUM_WAIT_MS	15000
#define XFER_WAIT_MS	5000

static const struct tcase {
	const char *from;
	const char *to;
	speed_t speed;
	unsigned int baud;
	unsigned int sectors;	/* of PATTERN_SECTOR bytes */
} tcases[] = {
	{ USB_TTY, UART_TTY, B115200, 115200, 4 },
	{ UART_TTY, USB_TTY, B115200, 115200, 4 },
	{ USB_TTY, UART_TTY, B9600, 9600, 1 },
	{ UART_TTY, USB_TTY, B9600, 9600, 1 },
};

#define NMODEM 3

static int usb_fd = -1, uart_fd = -1;

struct tty_open {
	const char *path;
	int fd;
};

/*
 * USB enumeration may still run when the test starts: wait for the node to
 * be created in /dev, then for it to open. devtmpfs makes the node in
 * device_add(), before tty_register_device_attr() adds the tty's cdev, so
 * an open in between fails with ENXIO (or ENODEV): try again at once. Any
 * other error is final.
 */
static int tty_ready(void *arg)
{
	struct tty_open *t = arg;

	t->fd = open(t->path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (t->fd >= 0)
		return KTAP_READY;
	if (errno == ENOENT)
		return KTAP_WAIT;
	return errno == ENXIO || errno == ENODEV ? KTAP_BUSY : KTAP_READY;
}

/* Opens path, waiting up to ms for it to appear and open. */
static int open_when_ready(const char *path, unsigned int ms)
{
	struct tty_open t = { .path = path, .fd = -1 };

	ktap_wait_dev(NULL, tty_ready, &t, ms);
	if (t.fd < 0)
		ktap_perror(path);
	return t.fd;
}

/* Raw 8N1, no flow control, the given speed; 0 when termios agrees. */
static int set_raw(int fd, speed_t speed)
{
	struct termios t;

	if (tcgetattr(fd, &t))
		return -1;
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL | CREAD;
	t.c_cflag &= ~(CRTSCTS | CSTOPB);
	t.c_iflag &= ~(IXON | IXOFF | IXANY);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	if (cfsetispeed(&t, speed) || cfsetospeed(&t, speed) ||
	    tcsetattr(fd, TCSANOW, &t))
		return -1;
	memset(&t, 0, sizeof(t));
	if (tcgetattr(fd, &t))
		return -1;
	return cfgetospeed(&t) == speed && cfgetispeed(&t) == speed &&
	       (t.c_cflag & CSIZE) == CS8 ? 0 : -1;
}

static int fd_of(const char *path)
{
	return strcmp(path, USB_TTY) ? uart_fd : usb_fd;
}

static void run_case(const struct tcase *t, unsigned int seed)
{
	size_t len = t->sectors * PATTERN_SECTOR;
	unsigned char src[8 * PATTERN_SECTOR], dst[8 * PATTERN_SECTOR];
	int out = fd_of(t->from), in = fd_of(t->to);
	unsigned int i;
	int ok = out >= 0 && in >= 0;

	if (ok && (set_raw(out, t->speed) || set_raw(in, t->speed))) {
		ktap_diag("termios at %u baud not taken", t->baud);
		ok = 0;
	}
	if (ok) {
		tcflush(out, TCIOFLUSH);
		tcflush(in, TCIOFLUSH);
		for (i = 0; i < t->sectors; i++)
			pattern_fill(src + i * PATTERN_SECTOR, i, seed);
		memset(dst, 0, len);
		ok = ktap_pump(out, in, src, dst, len, XFER_WAIT_MS) == len;
	}
	for (i = 0; ok && i < t->sectors; i++) {
		if (!pattern_check(dst + i * PATTERN_SECTOR, i, seed)) {
			ktap_diag("block %u differs", i);
			ok = 0;
		}
	}
	ktap_ok(ok, "serial %s to %s %zu bytes at %u baud", t->from, t->to,
		len, t->baud);
}

static void check_modem_status(void)
{
	int want = TIOCM_CTS | TIOCM_DSR | TIOCM_CAR;
	int m = 0, ok = usb_fd >= 0 && !ioctl(usb_fd, TIOCMGET, &m);

	if (ok)
		ktap_diag("%s modem lines 0x%03x", USB_TTY, m);
	ktap_ok(ok && (m & want) == want && !(m & TIOCM_RNG),
		"serial %s TIOCMGET CTS DSR DCD up, RI down", USB_TTY);
}

/* Drop DTR, then raise it: each change must show in TIOCMGET. */
static void check_dtr(unsigned long req, int up)
{
	int dtr = TIOCM_DTR, m = 0;
	int ok = usb_fd >= 0 && !ioctl(usb_fd, req, &dtr) &&
		 !ioctl(usb_fd, TIOCMGET, &m);

	ktap_ok(ok && !!(m & TIOCM_DTR) == up, "serial %s %s DTR reads %s",
		USB_TTY, req == TIOCMBIC ? "TIOCMBIC" : "TIOCMBIS",
		up ? "up" : "down");
}

static void run(void)
{
	size_t i;

	usb_fd = open_when_ready(USB_TTY, ENUM_WAIT_MS);
	uart_fd = open_when_ready(UART_TTY, 0);
	for (i = 0; i < ARRAY_SIZE(tcases); i++)
		run_case(&tcases[i], i + 1);
	check_modem_status();
	check_dtr(TIOCMBIC, 0);
	check_dtr(TIOCMBIS, 1);
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases) + NMODEM,
	.devices = (const char *const[]){ UART_TTY, NULL },
	.kconfig = (const char *const[]){ "CONFIG_USB_XHCI_HCD",
		"CONFIG_USB_SERIAL_FTDI_SIO", "CONFIG_SERIAL_8250", NULL },
	.timeout = 30,
	.upstream = "cb787f4ac0c2",
	.run = run,
};
